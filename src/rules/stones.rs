//! The rules core: stones on the 19x19 byte board, the Zobrist hash, and the six-cell windows
//! they fill (counts per colour, the sets of open, three-stone and threat windows, sixes).
//! Everything the threat solver needs and nothing more, so it can be copied and updated
//! cheaply; `Board` adds the line patterns on top. It knows nothing of search or I/O.

use crate::rng::Rng;
use crate::rules::cellset::CellSet;
use crate::rules::coord::{CELLS, Cell, Turn};
use crate::rules::geometry::{GEOMETRY, WINDOW, WINDOWS};
use once_cell::sync::Lazy;
use std::fmt;

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    pub fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whatever holds stones placed and taken back one at a time (the rules core, the board):
/// a turn is its stones in order.
pub trait PlaceTurn {
    fn place(&mut self, c: Cell, color: Color);
    /// Takes back a stone placed by `place`.
    fn remove(&mut self, c: Cell);

    /// Places a turn's stones for `color` without rule checks.
    fn place_turn(&mut self, turn: &Turn, color: Color) {
        for c in turn.cells() {
            self.place(c, color);
        }
    }

    /// Takes back a turn placed by `place_turn`, second stone first: the reverse of placing,
    /// which undo logs restore without reading the lines again.
    fn remove_turn(&mut self, turn: &Turn) {
        if let Some(second) = turn.second {
            self.remove(second);
        }
        self.remove(turn.first);
    }
}

impl PlaceTurn for Stones {
    #[inline]
    fn place(&mut self, c: Cell, color: Color) {
        Stones::place(self, c, color)
    }
    #[inline]
    fn remove(&mut self, c: Cell) {
        Stones::remove(self, c)
    }
}

/// A word that names no colour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColorError(pub String);

impl fmt::Display for ColorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a colour (black or white)", self.0)
    }
}

impl std::error::Error for ColorError {}

impl std::str::FromStr for Color {
    type Err = ColorError;

    /// `black` or `white` in any case, as the protocol, records and summaries spell them.
    fn from_str(word: &str) -> Result<Color, ColorError> {
        [Color::Black, Color::White]
            .into_iter()
            .find(|c| word.eq_ignore_ascii_case(c.name()))
            .ok_or_else(|| ColorError(word.to_string()))
    }
}

/// Why a stone could not be placed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleError {
    Occupied(Cell),
    /// The game already has a winner or the board is full.
    GameOver,
    /// A turn with the wrong number of stones: black's first turn has one, every other two.
    StoneCount {
        expected: usize,
        got: usize,
    },
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleError::Occupied(c) => write!(f, "cell {c} is occupied"),
            RuleError::GameOver => write!(f, "the game is already over"),
            RuleError::StoneCount { expected, got } => {
                write!(f, "this turn takes {expected} stone(s), got {got}")
            }
        }
    }
}

impl std::error::Error for RuleError {}

/// A set of windows, one bit each.
pub type WindowSet = [u64; WINDOWS.div_ceil(64)];

fn set_bit(set: &mut WindowSet, w: usize, on: bool) {
    let bit = 1u64 << (w % 64);
    if on {
        set[w / 64] |= bit;
    } else {
        set[w / 64] &= !bit;
    }
}

/// Iterates the windows in a set.
pub fn windows_in(set: &WindowSet) -> impl Iterator<Item = usize> + '_ {
    set.iter().enumerate().flat_map(|(i, &word)| {
        let mut bits = word;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                i * 64 + b
            })
        })
    })
}

/// Own stones in a window that make it a *threat window*: the owner completes six next turn.
pub const THREAT_STONES: u8 = 4;

/// Fixed Zobrist keys (deterministic seed: the same hashes on every run).
static ZOBRIST: Lazy<[[u64; CELLS]; 2]> = Lazy::new(|| {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    let mut keys = [[0u64; CELLS]; 2];
    for side in &mut keys {
        for k in side.iter_mut() {
            *k = rng.next_u64();
        }
    }
    keys
});

const EMPTY: u8 = 0;

fn cell_value(color: Color) -> u8 {
    color as u8 + 1
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Stones {
    cells: [u8; CELLS],
    /// The occupied cells as a set: for many cells at once (a window's empty cells).
    occupied: CellSet,
    hash: u64,
    counts: [u16; 2],
    /// Stones of each colour in each window.
    window_stones: [[u8; 2]; WINDOWS],
    /// Windows where a colour holds at least `THREAT_STONES` and the opponent none.
    threat_windows: [WindowSet; 2],
    /// Windows where a colour holds at least two stones and the opponent none: where threats grow.
    open_windows: [WindowSet; 2],
    /// Windows where a colour holds at least three stones and the opponent none: one more
    /// stone makes a threat window.
    three_windows: [WindowSet; 2],
    /// Windows entirely one colour's: a six (or part of a longer line).
    sixes: [u16; 2],
    /// Windows holding exactly k stones of a colour and none of the opponent's, by k (index
    /// 0 stays zero): room to grow lines, which the evaluation weighs. Derivable from
    /// `window_stones`, but kept so an evaluation need not read all the windows.
    pure_windows: [[u16; WINDOW + 1]; 2],
    /// What the last stones placed changed in the window sets (`keep_undo`).
    undo: WindowUndo,
}

/// Stones whose window changes `WindowUndo` holds at once: more than any search's line.
const UNDO_STONES: usize = 256;

/// Window-set words a stone changes at most: each of its windows crosses one threshold,
/// or, the first stone of a colour in the other's window, leaves three sets.
const UNDO_WORDS_PER_STONE: usize = 3 * 4 * WINDOW;

/// Words the log has room for: a few a stone in practice, so a quarter of the worst case
/// for every stone; a stone that might not fit is not logged (its removal is read afresh).
const UNDO_WORDS: usize = UNDO_STONES * UNDO_WORDS_PER_STONE / 4;

/// What placing stones changed in the window sets, last stone on top, so that a stone
/// taken back in the order opposite to placing (the search's and the solver's) puts back the
/// sets' words and the pure counts instead of reading every window's thresholds again (the
/// windows' stone counts are moved back by arithmetic). Off until `Stones::keep_undo`: a
/// clone starts with it off and empty. A stone taken back out of order empties it (and
/// every stone under it is then taken back the plain way).
#[derive(Default)]
struct WindowUndo {
    /// Whether `keep_undo` asked for the log; its room is taken by the first stone placed.
    on: bool,
    frames: Vec<WindowFrame>,
    words: Vec<WordEntry>,
}

struct WindowFrame {
    cell: Cell,
    /// Where the stone's words start in `words`.
    words: usize,
    pure_windows: [[u16; WINDOW + 1]; 2],
    sixes: [u16; 2],
}

/// A window-set word before a stone changed it: the set (`SET_THREAT`, `SET_OPEN`,
/// `SET_THREE`, plus the colour's index), the word's index, its old bits.
struct WordEntry {
    set: u8,
    index: u8,
    old: u64,
}

const SET_THREAT: u8 = 0;
const SET_OPEN: u8 = 2;
const SET_THREE: u8 = 4;

impl WindowUndo {
    /// Whether the next stone's changes are to be logged and fit.
    fn has_room(&mut self) -> bool {
        if !self.on {
            return false;
        }
        if self.frames.capacity() == 0 {
            self.frames.reserve_exact(UNDO_STONES);
            self.words.reserve_exact(UNDO_WORDS);
        }
        self.frames.len() < UNDO_STONES
            && self.words.len() + UNDO_WORDS_PER_STONE <= self.words.capacity()
    }

    fn clear(&mut self) {
        self.frames.clear();
        self.words.clear();
    }
}

/// The log is how the position was reached, not the position: clones start without it and
/// every position compares equal on it.
impl Clone for WindowUndo {
    fn clone(&self) -> Self {
        WindowUndo::default()
    }
}

impl PartialEq for WindowUndo {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for WindowUndo {}

impl fmt::Debug for WindowUndo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "WindowUndo({} stones)", self.frames.len())
    }
}

impl Default for Stones {
    fn default() -> Self {
        Self::new()
    }
}

impl Stones {
    pub fn new() -> Stones {
        Stones {
            cells: [EMPTY; CELLS],
            occupied: CellSet::new(),
            hash: 0,
            counts: [0; 2],
            window_stones: [[0; 2]; WINDOWS],
            threat_windows: [[0; WINDOWS.div_ceil(64)]; 2],
            open_windows: [[0; WINDOWS.div_ceil(64)]; 2],
            three_windows: [[0; WINDOWS.div_ceil(64)]; 2],
            sixes: [0; 2],
            pure_windows: [[0; WINDOW + 1]; 2],
            undo: WindowUndo::default(),
        }
    }

    /// From now on, stones taken back in the order opposite to placing them (as a search
    /// does) put back what they changed in the windows instead of reading them again. The
    /// log's room is taken once, by the next stone placed.
    pub fn keep_undo(&mut self) {
        self.undo.on = true;
    }

    pub fn get(&self, c: Cell) -> Option<Color> {
        match self.cells[c.index()] {
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => None,
        }
    }
    /// Every cell's content as a byte, zero where empty: for readers that scan many cells
    /// at once.
    pub(super) fn occupancy(&self) -> &[u8; CELLS] {
        &self.cells
    }

    /// The occupied cells.
    pub fn occupied(&self) -> &CellSet {
        &self.occupied
    }

    pub fn is_empty(&self, c: Cell) -> bool {
        self.cells[c.index()] == EMPTY
    }
    pub fn hash(&self) -> u64 {
        self.hash
    }
    pub fn stones(&self, color: Color) -> usize {
        self.counts[color.index()] as usize
    }
    pub fn stone_total(&self) -> usize {
        (self.counts[0] + self.counts[1]) as usize
    }
    pub fn is_full(&self) -> bool {
        self.stone_total() == CELLS
    }
    /// Whether `color` has six or more in a row.
    pub fn has_six(&self, color: Color) -> bool {
        self.sixes[color.index()] > 0
    }
    pub fn winner(&self) -> Option<Color> {
        [Color::Black, Color::White]
            .into_iter()
            .find(|&c| self.has_six(c))
    }
    pub fn is_over(&self) -> bool {
        self.winner().is_some() || self.is_full()
    }

    /// Whose turn it is, from the stone counts: black has one stone more after its turns,
    /// since its first turn is a single stone.
    pub fn side_to_move(&self) -> Color {
        if self.counts[0] <= self.counts[1] {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Stones the side to move places this turn: one for black's opening turn, else two
    /// (or one, when only one empty cell is left).
    pub fn stones_this_turn(&self) -> usize {
        if self.stone_total() == 0 {
            1
        } else {
            2.min(CELLS - self.stone_total())
        }
    }

    pub fn window_stones(&self, w: usize) -> [u8; 2] {
        self.window_stones[w]
    }
    pub fn threat_windows(&self, color: Color) -> &WindowSet {
        &self.threat_windows[color.index()]
    }
    pub fn open_windows(&self, color: Color) -> &WindowSet {
        &self.open_windows[color.index()]
    }
    pub fn three_windows(&self, color: Color) -> &WindowSet {
        &self.three_windows[color.index()]
    }
    /// How many windows hold exactly k stones of `color` and none of the opponent's, by k.
    pub fn pure_windows(&self, color: Color) -> &[u16; WINDOW + 1] {
        &self.pure_windows[color.index()]
    }
    pub fn has_threat_window(&self, color: Color) -> bool {
        self.threat_windows[color.index()].iter().any(|&w| w != 0)
    }

    /// Checks a whole turn against the rules without changing anything.
    pub fn check_turn(&self, turn: &Turn) -> Result<(), RuleError> {
        if self.is_over() {
            return Err(RuleError::GameOver);
        }
        let expected = self.stones_this_turn();
        if turn.len() != expected {
            return Err(RuleError::StoneCount {
                expected,
                got: turn.len(),
            });
        }
        for c in turn.cells() {
            if !self.is_empty(c) {
                return Err(RuleError::Occupied(c));
            }
        }
        Ok(())
    }

    /// Places one stone; the cell must be empty (callers validate input first).
    pub fn place(&mut self, c: Cell, color: Color) {
        debug_assert!(self.is_empty(c), "place on occupied {c}");
        let me = color.index();
        self.cells[c.index()] = cell_value(color);
        self.occupied.insert(c);
        self.hash ^= ZOBRIST[me][c.index()];
        self.counts[me] += 1;
        if self.undo.has_room() {
            self.undo.frames.push(WindowFrame {
                cell: c,
                words: self.undo.words.len(),
                pure_windows: self.pure_windows,
                sixes: self.sixes,
            });
            self.update_windows::<true>(c, color, true);
        } else {
            self.update_windows::<false>(c, color, true);
        }
    }

    /// Removes a stone placed by `place`.
    pub fn remove(&mut self, c: Cell) {
        let color = self.get(c).expect("remove from an empty cell");
        let me = color.index();
        match self.undo.frames.pop_if(|top| top.cell == c) {
            Some(frame) => self.restore_windows(c, color, frame),
            None => {
                self.undo.clear();
                self.update_windows::<false>(c, color, false);
            }
        }
        self.cells[c.index()] = EMPTY;
        self.occupied.remove(c);
        self.hash ^= ZOBRIST[me][c.index()];
        self.counts[me] -= 1;
    }

    /// Sums `change(mine, theirs, added)` over the windows along direction `d` through the
    /// empty cell `a` that a stone of `color` there would change, read without placing it,
    /// and with it over those of `partner`, an empty cell on the same line to be filled too:
    /// `mine` and `theirs` are the window's stones of `color` and of the other colour now,
    /// `added` the new stones it would hold (1 or 2). `None` as soon as `change` gives `None`.
    /// Stones off each other's lines change no window together, so a turn's sum is its first
    /// stone's alone plus its second's on every other direction.
    #[inline]
    pub fn line_windows_after(
        &self,
        a: Cell,
        d: usize,
        color: Color,
        partner: Option<Cell>,
        mut change: impl FnMut(u8, u8, u8) -> Option<i32>,
    ) -> Option<i32> {
        let g = &*GEOMETRY;
        let me = color.index();
        let mut sum = 0;
        let mut add = |w: u16, added: u8| {
            let stones = self.window_stones[w as usize];
            sum += change(stones[me], stones[1 - me], added)?;
            Some(())
        };
        match partner {
            Some(b) => {
                for &w in g.line_windows_of(a, d) {
                    let both = g.window_holds(w as usize, b);
                    add(w, 1 + both as u8)?;
                }
                for &w in g.line_windows_of(b, d) {
                    if !g.window_holds(w as usize, a) {
                        add(w, 1)?;
                    }
                }
            }
            None => {
                for &w in g.line_windows_of(a, d) {
                    add(w, 1)?;
                }
            }
        }
        Some(sum)
    }

    /// Takes the stone on `c` out of its windows by putting back what `frame`'s placing
    /// changed (`WindowUndo`).
    fn restore_windows(&mut self, c: Cell, color: Color, frame: WindowFrame) {
        let me = color.index();
        for &w in GEOMETRY.windows_of(c) {
            self.window_stones[w as usize][me] -= 1;
        }
        for e in self.undo.words.drain(frame.words..).rev() {
            let color = (e.set % 2) as usize;
            let set = match e.set - e.set % 2 {
                SET_THREAT => &mut self.threat_windows[color],
                SET_OPEN => &mut self.open_windows[color],
                _ => &mut self.three_windows[color],
            };
            set[e.index as usize] = e.old;
        }
        self.pure_windows = frame.pure_windows;
        self.sixes = frame.sixes;
    }

    /// Moves the stone on `c` into its windows (`add`) or out of them; `LOG` keeps the old
    /// words of the sets it changes in `undo`.
    fn update_windows<const LOG: bool>(&mut self, c: Cell, color: Color, add: bool) {
        let g = &*GEOMETRY;
        let me = color.index();
        let them = 1 - me;
        let words = &mut self.undo.words;
        // Only words whose bit moves are logged: the first stone in the other colour's
        // window leaves all three of its sets, most often sets it was not in.
        let mut set_bit = |set: &mut WindowSet, id: u8, w: usize, on: bool| {
            let old = set[w / 64];
            set_bit(set, w, on);
            if LOG && set[w / 64] != old {
                words.push(WordEntry {
                    set: id,
                    index: (w / 64) as u8,
                    old,
                });
            }
        };
        // Only threshold crossings change a set: a window's bits move when the mover's count
        // passes 2 or 4 with no opposing stone, or when the first stone lands in (or the last
        // leaves) a window the opponent was building in.
        for &w in g.windows_of(c) {
            let w = w as usize;
            let counts = &mut self.window_stones[w];
            let theirs = counts[them];
            if add {
                counts[me] += 1;
                let mine = counts[me];
                if theirs == 0 {
                    let pure = &mut self.pure_windows[me];
                    if mine > 1 {
                        pure[mine as usize - 1] -= 1;
                    }
                    pure[mine as usize] += 1;
                    if mine == 2 {
                        set_bit(&mut self.open_windows[me], SET_OPEN + me as u8, w, true);
                    } else if mine == 3 {
                        set_bit(&mut self.three_windows[me], SET_THREE + me as u8, w, true);
                    } else if mine == THREAT_STONES {
                        set_bit(&mut self.threat_windows[me], SET_THREAT + me as u8, w, true);
                    } else if mine as usize == WINDOW {
                        self.sixes[me] += 1;
                    }
                } else if mine == 1 {
                    self.pure_windows[them][theirs as usize] -= 1;
                    set_bit(
                        &mut self.open_windows[them],
                        SET_OPEN + them as u8,
                        w,
                        false,
                    );
                    set_bit(
                        &mut self.three_windows[them],
                        SET_THREE + them as u8,
                        w,
                        false,
                    );
                    set_bit(
                        &mut self.threat_windows[them],
                        SET_THREAT + them as u8,
                        w,
                        false,
                    );
                }
            } else {
                let mine = counts[me];
                counts[me] -= 1;
                if theirs == 0 {
                    let pure = &mut self.pure_windows[me];
                    pure[mine as usize] -= 1;
                    if mine > 1 {
                        pure[mine as usize - 1] += 1;
                    }
                    if mine == 2 {
                        set_bit(&mut self.open_windows[me], SET_OPEN + me as u8, w, false);
                    } else if mine == 3 {
                        set_bit(&mut self.three_windows[me], SET_THREE + me as u8, w, false);
                    } else if mine == THREAT_STONES {
                        set_bit(
                            &mut self.threat_windows[me],
                            SET_THREAT + me as u8,
                            w,
                            false,
                        );
                    } else if mine as usize == WINDOW {
                        self.sixes[me] -= 1;
                    }
                } else if mine == 1 {
                    self.pure_windows[them][theirs as usize] += 1;
                    set_bit(
                        &mut self.open_windows[them],
                        SET_OPEN + them as u8,
                        w,
                        theirs >= 2,
                    );
                    set_bit(
                        &mut self.three_windows[them],
                        SET_THREE + them as u8,
                        w,
                        theirs >= 3,
                    );
                    set_bit(
                        &mut self.threat_windows[them],
                        SET_THREAT + them as u8,
                        w,
                        theirs >= THREAT_STONES,
                    );
                }
            }
        }
    }
}

/// A random crowded position for tests: up to `stones` stones in the 9x9 square around the
/// centre, every third one white, so that windows fill, block and threaten.
#[cfg(test)]
pub(crate) fn crowded(rng: &mut Rng, stones: usize) -> Stones {
    let mut board = Stones::new();
    for i in 0..stones {
        let c = Cell::new(5 + rng.below(9), 5 + rng.below(9)).expect("on the board");
        if board.is_empty(c) {
            let color = if i % 3 == 0 {
                Color::White
            } else {
                Color::Black
            };
            board.place(c, color);
        }
    }
    board
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_parse_in_any_case_and_nothing_else() {
        assert_eq!("black".parse(), Ok(Color::Black));
        assert_eq!("WHITE".parse(), Ok(Color::White));
        assert_eq!("White".parse::<Color>().map(Color::name), Ok("white"));
        for bad in ["", "blacks", "b", "draw", " black"] {
            assert_eq!(bad.parse::<Color>(), Err(ColorError(bad.to_string())));
        }
        assert_eq!(
            "red".parse::<Color>().unwrap_err().to_string(),
            "'red' is not a colour (black or white)"
        );
    }

    #[test]
    fn windows_follow_place_and_remove() {
        let mut s = Stones::new();
        let row: Vec<Cell> = (0..5).map(|c| Cell::new(c, 0).unwrap()).collect();
        for &c in &row[..4] {
            s.place(c, Color::Black);
        }
        assert!(s.has_threat_window(Color::Black));
        s.place(row[4], Color::Black);
        s.place(Cell::new(5, 0).unwrap(), Color::White);
        // The only window through AA..EA is now blocked.
        assert!(!s.has_threat_window(Color::Black));
        s.remove(Cell::new(5, 0).unwrap());
        s.place(Cell::new(5, 0).unwrap(), Color::Black);
        assert_eq!(s.winner(), Some(Color::Black));
        for c in Cell::all() {
            if !s.is_empty(c) {
                s.remove(c);
            }
        }
        assert_eq!(s, Stones::new());
    }

    /// Each window with its stones of `color` and of the other colour, read off its cells.
    fn counted(s: &Stones, color: Color) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
        GEOMETRY
            .window_cells
            .iter()
            .enumerate()
            .map(move |(w, cells)| {
                let of = |c: Color| cells.iter().filter(|&&x| s.get(x) == Some(c)).count();
                (w, of(color), of(color.other()))
            })
    }

    /// The pure-window counts, read off the window cells.
    fn pure_windows_counted(s: &Stones, color: Color) -> [u16; WINDOW + 1] {
        let mut counts = [0; WINDOW + 1];
        for (_, mine, theirs) in counted(s, color) {
            if mine > 0 && theirs == 0 {
                counts[mine] += 1;
            }
        }
        counts
    }

    /// The window sets read off the window cells: open, three and threat.
    fn sets_counted(s: &Stones, color: Color) -> [WindowSet; 3] {
        let mut sets = [[0; WINDOWS.div_ceil(64)]; 3];
        for (w, mine, theirs) in counted(s, color) {
            for (set, least) in sets.iter_mut().zip([2, 3, THREAT_STONES as usize]) {
                if mine >= least && theirs == 0 {
                    set[w / 64] |= 1 << (w % 64);
                }
            }
        }
        sets
    }

    /// A fixed walk of stones of both colours on the first `side` x `side` cells, some
    /// taken back, so windows fill, get blocked and open again: after every step the kept
    /// counts and sets equal a count of the cells, and taking every stone back leaves the
    /// empty board. Returns the most stones of one colour met in a pure window.
    /// With `undo`, the walk keeps the window log (`keep_undo`) and takes back the last
    /// stone three times in four (the search's order), and the board equals, after every
    /// step, one that reads every removal afresh; `restored` counts the stones the log took
    /// back.
    fn walk_checking_windows(side: usize, seed: u32, undo: bool, restored: &mut usize) -> usize {
        let mut s = Stones::new();
        let mut plain = Stones::new();
        if undo {
            s.keep_undo();
        }
        let mut placed = Vec::new();
        let mut x = seed;
        let mut most = 0;
        for step in 0..400 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let at = (x >> 8) as usize;
            let cell = Cell::new(at % side, at / side % side).expect("on the board");
            if step % 5 == 4 && !placed.is_empty() {
                let c = if undo && x & 6 != 0 {
                    placed.pop().expect("not empty")
                } else {
                    placed.swap_remove((x >> 4) as usize % placed.len())
                };
                let logged = s.undo.frames.len();
                s.remove(c);
                if logged > 0 && s.undo.frames.len() == logged - 1 {
                    *restored += 1;
                }
                plain.remove(c);
            } else if s.is_empty(cell) {
                let color = if x & 1 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                s.place(cell, color);
                plain.place(cell, color);
                placed.push(cell);
            }
            assert_eq!(s.window_stones, plain.window_stones, "after step {step}");
            for c in Cell::all() {
                assert_eq!(
                    !s.occupied().contains(c),
                    s.is_empty(c),
                    "{c} after step {step}"
                );
            }
            for color in [Color::Black, Color::White] {
                let pure = *s.pure_windows(color);
                assert_eq!(
                    pure,
                    pure_windows_counted(&s, color),
                    "{color} after step {step}"
                );
                let kept = [
                    *s.open_windows(color),
                    *s.three_windows(color),
                    *s.threat_windows(color),
                ];
                assert_eq!(kept, sets_counted(&s, color), "{color} after step {step}");
                assert_eq!(
                    s.has_six(color),
                    pure[WINDOW] > 0,
                    "{color} after step {step}"
                );
                most = most.max((1..=WINDOW).rfind(|&k| pure[k] > 0).unwrap_or(0));
            }
        }
        for c in placed.into_iter().rev() {
            s.remove(c);
        }
        assert_eq!(
            s,
            Stones::new(),
            "every stone taken back leaves the empty board"
        );
        most
    }

    #[test]
    fn window_counts_and_sets_match_a_count_of_the_cells() {
        for undo in [false, true] {
            let mut restored = 0;
            // Over the whole board, windows of several stones form, not only single ones.
            assert!(walk_checking_windows(19, 12345, undo, &mut restored) >= 3);
            // Crowded into a corner, threat windows and sixes are met too.
            let most = (1..=8)
                .map(|seed| walk_checking_windows(8, seed, undo, &mut restored))
                .max();
            assert_eq!(most, Some(WINDOW));
            if undo {
                assert!(restored > 100, "the log took back {restored} stones");
            } else {
                assert_eq!(restored, 0);
            }
        }
    }
}

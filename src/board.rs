//! The rules: a 19x19 byte board with Zobrist hashing and incrementally kept line state
//! (six-cell window counts, per-line pattern keys and the pattern counts they give).
//! It knows nothing of search or I/O.

use crate::coord::{CELLS, Cell, Turn};
use crate::geometry::{GEOMETRY, REACH, WINDOW, WINDOWS};
use crate::patterns::{PATTERN_COUNT, POW3, Pattern, pattern};
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
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        // splitmix64
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut keys = [[0u64; CELLS]; 2];
    for side in &mut keys {
        for k in side.iter_mut() {
            *k = next();
        }
    }
    keys
});

/// Pattern keys of the empty board: off-board neighbours are blocked for both colours.
static EMPTY_KEYS: Lazy<Box<[[[u16; 2]; 4]; CELLS]>> = Lazy::new(|| {
    let g = &*GEOMETRY;
    let mut keys = Box::new([[[0u16; 2]; 4]; CELLS]);
    for c in Cell::all() {
        for d in 0..4 {
            let k: u16 = g.line_neighbours[c.index()][d]
                .iter()
                .enumerate()
                .filter(|(_, n)| n.is_none())
                .map(|(s, _)| 2 * POW3[s])
                .sum();
            keys[c.index()][d] = [k, k];
        }
    }
    keys
});

#[derive(Clone)]
pub struct Board {
    cells: [u8; CELLS],
    hash: u64,
    stones: [u16; 2],
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
    /// Pattern key of each cell along each direction, seen from each colour.
    keys: [[[u16; 2]; 4]; CELLS],
    /// For each stone and direction, the pattern it is part of (as `Pattern as u8`).
    stone_patterns: [[u8; 4]; CELLS],
    /// How many (stone, direction) pairs of each colour show each pattern.
    pattern_counts: [[u16; PATTERN_COUNT]; 2],
    /// Stones within two cells (Chebyshev): where candidate moves live.
    nearby: [u8; CELLS],
}

impl Default for Board {
    fn default() -> Self {
        Self::new()
    }
}

const EMPTY: u8 = 0;

fn cell_value(color: Color) -> u8 {
    color as u8 + 1
}

/// Cells counted as near a stone: within this Chebyshev distance.
pub const NEAR: i32 = 2;

impl Board {
    pub fn new() -> Board {
        Board {
            cells: [EMPTY; CELLS],
            hash: 0,
            stones: [0; 2],
            window_stones: [[0; 2]; WINDOWS],
            threat_windows: [[0; WINDOWS.div_ceil(64)]; 2],
            open_windows: [[0; WINDOWS.div_ceil(64)]; 2],
            three_windows: [[0; WINDOWS.div_ceil(64)]; 2],
            sixes: [0; 2],
            keys: **EMPTY_KEYS,
            stone_patterns: [[0; 4]; CELLS],
            pattern_counts: [[0; PATTERN_COUNT]; 2],
            nearby: [0; CELLS],
        }
    }

    pub fn get(&self, c: Cell) -> Option<Color> {
        match self.cells[c.index()] {
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => None,
        }
    }
    pub fn is_empty(&self, c: Cell) -> bool {
        self.cells[c.index()] == EMPTY
    }
    pub fn hash(&self) -> u64 {
        self.hash
    }
    pub fn stones(&self, color: Color) -> usize {
        self.stones[color.index()] as usize
    }
    pub fn stone_total(&self) -> usize {
        (self.stones[0] + self.stones[1]) as usize
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
        if self.stones[0] <= self.stones[1] {
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
    pub fn has_threat_window(&self, color: Color) -> bool {
        self.threat_windows[color.index()].iter().any(|&w| w != 0)
    }
    pub fn nearby(&self, c: Cell) -> usize {
        self.nearby[c.index()] as usize
    }
    pub fn pattern_counts(&self, color: Color) -> &[u16; PATTERN_COUNT] {
        &self.pattern_counts[color.index()]
    }
    /// The pattern `color` would make along direction `d` by a stone on `c` (or makes there).
    #[inline]
    pub fn pattern_at(&self, c: Cell, d: usize, color: Color) -> Pattern {
        pattern(self.keys[c.index()][d][color.index()])
    }

    /// The pattern keys of `c` along direction `d`, seen from black and from white.
    #[inline]
    pub fn line_keys(&self, c: Cell, d: usize) -> [u16; 2] {
        self.keys[c.index()][d]
    }

    /// Places one stone; the cell must be empty (callers validate input first).
    pub fn place(&mut self, c: Cell, color: Color) {
        debug_assert!(self.is_empty(c), "place on occupied {c}");
        let me = color.index();
        self.cells[c.index()] = cell_value(color);
        self.hash ^= ZOBRIST[me][c.index()];
        self.stones[me] += 1;
        self.update_windows(c, color, true);
        self.update_lines(c, color, true);
        self.update_nearby(c, 1);
        #[cfg(debug_assertions)]
        self.check_incremental();
    }

    /// Removes a stone placed by `place`.
    pub fn remove(&mut self, c: Cell) {
        let color = self.get(c).expect("remove from an empty cell");
        let me = color.index();
        self.update_lines(c, color, false);
        self.update_windows(c, color, false);
        self.update_nearby(c, -1);
        self.cells[c.index()] = EMPTY;
        self.hash ^= ZOBRIST[me][c.index()];
        self.stones[me] -= 1;
        #[cfg(debug_assertions)]
        self.check_incremental();
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

    /// Plays a whole turn for the side to move, after checking it.
    pub fn play_turn(&mut self, turn: &Turn) -> Result<(), RuleError> {
        self.check_turn(turn)?;
        let color = self.side_to_move();
        for c in turn.cells() {
            self.place(c, color);
        }
        Ok(())
    }

    fn update_windows(&mut self, c: Cell, color: Color, add: bool) {
        let g = &*GEOMETRY;
        let me = color.index();
        let them = 1 - me;
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
                    if mine == 2 {
                        set_bit(&mut self.open_windows[me], w, true);
                    } else if mine == 3 {
                        set_bit(&mut self.three_windows[me], w, true);
                    } else if mine == THREAT_STONES {
                        set_bit(&mut self.threat_windows[me], w, true);
                    } else if mine as usize == WINDOW {
                        self.sixes[me] += 1;
                    }
                } else if mine == 1 {
                    set_bit(&mut self.open_windows[them], w, false);
                    set_bit(&mut self.three_windows[them], w, false);
                    set_bit(&mut self.threat_windows[them], w, false);
                }
            } else {
                let mine = counts[me];
                counts[me] -= 1;
                if theirs == 0 {
                    if mine == 2 {
                        set_bit(&mut self.open_windows[me], w, false);
                    } else if mine == 3 {
                        set_bit(&mut self.three_windows[me], w, false);
                    } else if mine == THREAT_STONES {
                        set_bit(&mut self.threat_windows[me], w, false);
                    } else if mine as usize == WINDOW {
                        self.sixes[me] -= 1;
                    }
                } else if mine == 1 {
                    set_bit(&mut self.open_windows[them], w, theirs >= 2);
                    set_bit(&mut self.three_windows[them], w, theirs >= 3);
                    set_bit(&mut self.threat_windows[them], w, theirs >= THREAT_STONES);
                }
            }
        }
    }

    fn update_lines(&mut self, c: Cell, color: Color, add: bool) {
        let g = &*GEOMETRY;
        let me = color.index();
        // Seen from `color` the stone is an own digit (1), from the other a blocker (2).
        let own_digit: u16 = 1;
        let block_digit: u16 = 2;
        if add {
            for d in 0..4 {
                let p = pattern(self.keys[c.index()][d][me]) as u8;
                self.stone_patterns[c.index()][d] = p;
                self.pattern_counts[me][p as usize] += 1;
            }
        } else {
            for d in 0..4 {
                let p = self.stone_patterns[c.index()][d];
                self.pattern_counts[me][p as usize] -= 1;
            }
        }
        for d in 0..4 {
            for s in 0..2 * REACH {
                let Some(n) = g.line_neighbours[c.index()][d][s] else {
                    continue;
                };
                // `c` sits in the mirrored slot of its neighbour's key.
                let slot = 2 * REACH - 1 - s;
                let keys = &mut self.keys[n.index()][d];
                if add {
                    keys[me] += own_digit * POW3[slot];
                    keys[1 - me] += block_digit * POW3[slot];
                } else {
                    keys[me] -= own_digit * POW3[slot];
                    keys[1 - me] -= block_digit * POW3[slot];
                }
                let occupant = self.cells[n.index()];
                if occupant != EMPTY {
                    let side = occupant as usize - 1;
                    let new = pattern(self.keys[n.index()][d][side]) as u8;
                    let old = &mut self.stone_patterns[n.index()][d];
                    if *old != new {
                        self.pattern_counts[side][*old as usize] -= 1;
                        self.pattern_counts[side][new as usize] += 1;
                        *old = new;
                    }
                }
            }
        }
    }

    fn update_nearby(&mut self, c: Cell, delta: i8) {
        for dr in -NEAR..=NEAR {
            for dc in -NEAR..=NEAR {
                if let Some(n) = c.offset(dc, dr, 1) {
                    let v = &mut self.nearby[n.index()];
                    *v = (*v as i8 + delta) as u8;
                }
            }
        }
    }

    /// Rebuilds every incremental field from the cells alone.
    pub fn recount(&self) -> Board {
        let mut fresh = Board::new();
        for c in Cell::all() {
            if let Some(color) = self.get(c) {
                fresh.place_unchecked(c, color);
            }
        }
        fresh
    }

    fn place_unchecked(&mut self, c: Cell, color: Color) {
        let me = color.index();
        self.cells[c.index()] = cell_value(color);
        self.hash ^= ZOBRIST[me][c.index()];
        self.stones[me] += 1;
        self.update_windows(c, color, true);
        self.update_lines(c, color, true);
        self.update_nearby(c, 1);
    }

    /// Debug builds: the incremental state must equal a full recount (and the pattern keys
    /// must spell the cells they describe).
    #[cfg(debug_assertions)]
    fn check_incremental(&self) {
        // A full recount costs far more than a move; sample it so debug searches stay usable.
        thread_local!(static CALLS: std::cell::Cell<u32> = const { std::cell::Cell::new(0) });
        let n = CALLS.with(|c| {
            c.set(c.get().wrapping_add(1));
            c.get()
        });
        if !n.is_multiple_of(64) {
            return;
        }
        let fresh = self.recount();
        assert_eq!(self.hash, fresh.hash, "zobrist hash drifted");
        assert_eq!(
            self.window_stones, fresh.window_stones,
            "window counts drifted"
        );
        assert_eq!(
            self.threat_windows, fresh.threat_windows,
            "threat windows drifted"
        );
        assert_eq!(
            self.open_windows, fresh.open_windows,
            "open windows drifted"
        );
        assert_eq!(self.sixes, fresh.sixes, "six count drifted");
        assert_eq!(self.keys, fresh.keys, "pattern keys drifted");
        assert_eq!(
            self.pattern_counts, fresh.pattern_counts,
            "pattern counts drifted"
        );
        assert_eq!(self.nearby, fresh.nearby, "nearby counts drifted");
    }

    /// The board as text, with protocol coordinates on both axes.
    pub fn render(&self) -> String {
        use crate::coord::SIZE;
        let letters: String = (0..SIZE)
            .map(|i| format!(" {}", (b'A' + i as u8) as char))
            .collect();
        let mut out = format!("  {letters}\n");
        for r in 0..SIZE {
            out.push((b'A' + r as u8) as char);
            out.push(' ');
            for col in 0..SIZE {
                let c = Cell::new(col, r).expect("on board");
                out.push(' ');
                out.push(match self.get(c) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                });
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coord::parse_cell;

    fn cell(s: &str) -> Cell {
        parse_cell(s).unwrap()
    }

    #[test]
    fn six_and_overline_win() {
        let mut b = Board::new();
        for s in ["AA", "BA", "CA", "DA", "EA"] {
            b.place(cell(s), Color::Black);
        }
        assert_eq!(b.winner(), None);
        b.place(cell("GA"), Color::Black);
        assert_eq!(b.winner(), None);
        b.place(cell("FA"), Color::Black); // seven in a row
        assert_eq!(b.winner(), Some(Color::Black));
        b.remove(cell("FA"));
        assert_eq!(b.winner(), None);
    }

    #[test]
    fn diagonal_six() {
        let mut b = Board::new();
        for i in 0..6 {
            b.place(Cell::new(13 + i, 5 - i).unwrap(), Color::White);
        }
        assert_eq!(b.winner(), Some(Color::White));
    }

    #[test]
    fn five_with_a_blocker_is_not_a_win() {
        let mut b = Board::new();
        for s in ["AA", "BA", "CA", "DA", "EA"] {
            b.place(cell(s), Color::Black);
        }
        b.place(cell("FA"), Color::White);
        assert!(!b.has_six(Color::Black));
        assert!(!b.has_threat_window(Color::Black));
    }

    #[test]
    fn turn_rules() {
        let mut b = Board::new();
        assert_eq!(b.side_to_move(), Color::Black);
        assert_eq!(
            b.play_turn(&Turn::two(cell("JJ"), cell("KK"))),
            Err(RuleError::StoneCount {
                expected: 1,
                got: 2
            })
        );
        b.play_turn(&Turn::one(cell("JJ"))).unwrap();
        assert_eq!(b.side_to_move(), Color::White);
        assert_eq!(
            b.play_turn(&Turn::two(cell("KK"), cell("JJ"))),
            Err(RuleError::Occupied(cell("JJ")))
        );
        assert_eq!(
            b.stones(Color::White),
            0,
            "a rejected turn leaves the board alone"
        );
        b.play_turn(&Turn::two(cell("KK"), cell("KJ"))).unwrap();
        assert_eq!(b.side_to_move(), Color::Black);
    }

    #[test]
    fn place_remove_restores_everything() {
        let mut b = Board::new();
        let mut placed = Vec::new();
        let mut x: u32 = 12345;
        for i in 0..120 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let c = Cell::from_index((x >> 8) as usize % CELLS);
            if b.is_empty(c) {
                b.place(
                    c,
                    if i % 3 == 0 {
                        Color::White
                    } else {
                        Color::Black
                    },
                );
                placed.push(c);
            }
        }
        let fresh = b.recount();
        assert_eq!(b.keys, fresh.keys);
        assert_eq!(b.pattern_counts, fresh.pattern_counts);
        assert_eq!(b.window_stones, fresh.window_stones);
        assert_eq!(b.open_windows, fresh.open_windows);
        assert_eq!(b.three_windows, fresh.three_windows);
        assert_eq!(b.threat_windows, fresh.threat_windows);
        for c in placed.into_iter().rev() {
            b.remove(c);
        }
        let empty = Board::new();
        assert_eq!(b.hash, 0);
        assert_eq!(b.keys, empty.keys);
        assert_eq!(b.pattern_counts, empty.pattern_counts);
        assert_eq!(b.nearby, empty.nearby);
        assert_eq!(b.threat_windows, empty.threat_windows);
    }

    #[test]
    fn patterns_on_the_board() {
        let mut b = Board::new();
        for s in ["HJ", "IJ", "JJ"] {
            b.place(cell(s), Color::Black);
        }
        // Three in a row in open space: each stone sees a live three horizontally.
        assert_eq!(b.pattern_counts(Color::Black)[Pattern::Live3 as usize], 3);
        // One more stone on the left end makes a live four for all four stones.
        assert_eq!(b.pattern_at(cell("GJ"), 0, Color::Black), Pattern::Live4);
        b.place(cell("KJ"), Color::White);
        assert_eq!(b.pattern_counts(Color::Black)[Pattern::Live3 as usize], 0);
    }
}

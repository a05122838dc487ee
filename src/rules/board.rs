//! The board the engine plays on: the rules core (`Stones`: stones, hash, six-cell windows)
//! plus incrementally kept line patterns (per-line pattern keys and the pattern counts they
//! give), each empty cell's code (`rules::cells`, told to an observer as it changes), and each
//! cell's stone neighbourhood. It knows nothing of search, evaluation or I/O.

pub use crate::rules::stones::{
    Color, PlaceTurn, RuleError, Stones, THREAT_STONES, WindowSet, windows_in,
};

use crate::rules::cells::{CODE_PARTS, CellCodes, CodeObserver};
use crate::rules::coord::{CELLS, Cell, Turn};
use crate::rules::geometry::{GEOMETRY, REACH, slots_in};
use crate::rules::patterns::{
    ByKey, KEYS, PATTERN_COUNT, PATTERNS, POW3, Pattern, key_table, pattern,
};
use once_cell::sync::Lazy;

mod after;
pub mod undo;

/// What placing a stone changed, told as it changes: an undo log (`undo::UndoLog`) keeps
/// it, to take the stone back by putting the old values back instead of reading its lines
/// again.
trait Changes {
    /// The empty cell `cell`'s part from direction `d` was `parts`, and its codes `codes`.
    fn code_line(&mut self, cell: usize, d: usize, parts: [u16; 2], codes: [u32; 2]);
    /// The stone on `cell` showed the pattern `old` (as `Pattern as u8`) along `d`.
    fn stone_pattern(&mut self, cell: usize, d: usize, old: u8);
}

/// Nobody keeping the changes: stones taken back are read afresh.
impl Changes for () {
    #[inline]
    fn code_line(&mut self, _: usize, _: usize, _: [u16; 2], _: [u32; 2]) {}
    #[inline]
    fn stone_pattern(&mut self, _: usize, _: usize, _: u8) {}
}

/// What a stone adds to the key of a neighbour that has it in `slot`: an own digit (1) for
/// its colour, a blocker (2) for the other.
const fn digit_table(digit: u16) -> [u16; 2 * REACH] {
    let mut t = [0u16; 2 * REACH];
    let mut i = 0;
    while i < 2 * REACH {
        t[i] = digit * POW3[i];
        i += 1;
    }
    t
}
const OWN_DIGIT: [u16; 2 * REACH] = digit_table(1);
const BLOCK_DIGIT: [u16; 2 * REACH] = digit_table(2);

/// Every slot of a line's neighbours.
const ALL_SLOTS: u16 = (1 << (2 * REACH)) - 1;

/// A line's keys seen from black and from white in one word, black's in the low half: the
/// digits a stone adds to both go in one addition (no key carries past its half).
#[inline]
fn packed(keys: [u16; 2]) -> u32 {
    keys[0] as u32 | (keys[1] as u32) << 16
}

/// `keys` with a stone's packed digits `digits` added (`add`) or taken away.
#[inline]
fn shifted(keys: [u16; 2], digits: u32, add: bool) -> [u16; 2] {
    let keys = packed(keys);
    let new = if add { keys + digits } else { keys - digits };
    [new as u16, (new >> 16) as u16]
}

/// What a stone of each colour adds to a neighbour's packed keys that has it in each slot:
/// an own digit in its colour's half, a blocker in the other's.
const PACKED_DIGITS: [[u32; 2 * REACH]; 2] = {
    let mut t = [[0u32; 2 * REACH]; 2];
    let mut s = 0;
    while s < 2 * REACH {
        t[0][s] = OWN_DIGIT[s] as u32 | (BLOCK_DIGIT[s] as u32) << 16;
        t[1][s] = BLOCK_DIGIT[s] as u32 | (OWN_DIGIT[s] as u32) << 16;
        s += 1;
    }
    t
};

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

/// For each pattern key, its neighbour slots that are not empty (a stone, or off the board):
/// lets a reader of a line visit its stones without testing all ten cells.
static FILLED_SLOTS: Lazy<Box<ByKey<u16>>> = Lazy::new(|| {
    let mut masks = key_table(0u16);
    for (key, mask) in masks.iter_mut().enumerate().take(KEYS) {
        for (s, &power) in POW3.iter().enumerate() {
            if !(key / power as usize).is_multiple_of(3) {
                *mask |= 1 << s;
            }
        }
    }
    masks
});

/// The empty board's cell codes (edges make no counted pattern, but read them all the same).
static EMPTY_CODES: Lazy<Box<CellCodes>> =
    Lazy::new(|| Box::new(CellCodes::read(&EMPTY_KEYS, |_| true)));

#[derive(Clone)]
pub struct Board {
    stones: Stones,
    /// Pattern key of each cell along each direction, seen from each colour.
    keys: [[[u16; 2]; 4]; CELLS],
    /// For each stone and direction, the pattern it is part of (as `Pattern as u8`).
    stone_patterns: [[u8; 4]; CELLS],
    /// How many (stone, direction) pairs of each colour show each pattern.
    pattern_counts: [[u16; PATTERN_COUNT]; 2],
    /// Stones within two cells (Chebyshev): where candidate moves live.
    nearby: [u8; CELLS],
    /// Every empty cell's code (`rules::cells`).
    cells: CellCodes,
}

/// `Board::near_empty_cells`: read eight cells at a time, as most of the board is far from
/// every stone.
pub struct NearEmptyCells<'a> {
    nearby: &'a [u8; CELLS],
    occupied: &'a [u8; CELLS],
    /// The next eight cells to read, by their first cell's index over eight.
    next_chunk: usize,
    /// The cells left of the chunk being read: a byte's top bit each.
    bits: u64,
    /// The chunk's first cell.
    start: usize,
}

impl Iterator for NearEmptyCells<'_> {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        const HIGH: u64 = 0x8080_8080_8080_8080;
        const FULL_CHUNKS: usize = CELLS / 8;
        while self.bits == 0 {
            let chunk = self.next_chunk;
            if chunk > FULL_CHUNKS {
                return None;
            }
            self.next_chunk += 1;
            self.start = chunk * 8;
            if chunk == FULL_CHUNKS {
                // The cells past the last whole eight.
                for i in (self.start..CELLS).rev() {
                    let here = self.nearby[i] != 0 && self.occupied[i] == 0;
                    self.bits = self.bits << 8 | (here as u64) << 7;
                }
                continue;
            }
            let read = |cells: &[u8; CELLS]| {
                let eight: [u8; 8] = cells[chunk * 8..chunk * 8 + 8]
                    .try_into()
                    .expect("eight cells");
                u64::from_le_bytes(eight)
            };
            // A byte's top bit set where it is not zero (its values stay far below 128).
            let near = read(self.nearby).wrapping_add(LOW) & HIGH;
            let empty = !read(self.occupied).wrapping_add(LOW) & HIGH;
            self.bits = near & empty;
        }
        let byte = self.bits.trailing_zeros() as usize / 8;
        self.bits &= self.bits - 1;
        Some(Cell::from_index(self.start + byte))
    }
}

/// Debug builds: true once in 64 calls on this thread, for cross-checks too costly to run
/// on every move.
#[cfg(debug_assertions)]
pub fn debug_sample() -> bool {
    thread_local!(static CALLS: std::cell::Cell<u32> = const { std::cell::Cell::new(0) });
    CALLS.with(|c| {
        c.set(c.get().wrapping_add(1));
        c.get().is_multiple_of(64)
    })
}

impl PlaceTurn for Board {
    #[inline]
    fn place(&mut self, c: Cell, color: Color) {
        Board::place(self, c, color)
    }
    #[inline]
    fn remove(&mut self, c: Cell) {
        Board::remove(self, c)
    }
}

impl Default for Board {
    fn default() -> Self {
        Self::new()
    }
}

/// Cells counted as near a stone: within this Chebyshev distance.
pub const NEAR: i32 = 2;

/// Calls `f` on each cell within `NEAR` of `c` (`c` itself too), row by row: the cells a
/// stone on `c` counts as near (`Board::nearby`). A loop with a closure, not an iterator:
/// it runs on every stone placed and removed.
#[inline]
pub fn near_box(c: Cell, mut f: impl FnMut(Cell)) {
    for dr in -NEAR..=NEAR {
        for dc in -NEAR..=NEAR {
            if let Some(n) = c.offset(dc, dr, 1) {
                f(n);
            }
        }
    }
}

impl Board {
    pub fn new() -> Board {
        Board {
            stones: Stones::new(),
            keys: **EMPTY_KEYS,
            stone_patterns: [[0; 4]; CELLS],
            pattern_counts: [[0; PATTERN_COUNT]; 2],
            nearby: [0; CELLS],
            cells: (**EMPTY_CODES).clone(),
        }
    }

    /// The empty cell `c`'s codes seen from black and from white (`rules::cells`).
    #[inline]
    pub fn cell_codes(&self, c: Cell) -> [u32; 2] {
        self.cells.codes(c.index())
    }

    /// Stones taken back in the order opposite to placing them put back what they changed
    /// in the windows (`Stones::keep_undo`); the lines' own log is `undo::UndoLog`.
    pub fn keep_undo(&mut self) {
        self.stones.keep_undo();
    }

    /// The rules core under the patterns: what the solver searches on.
    pub fn as_stones(&self) -> &Stones {
        &self.stones
    }

    // The rules' questions, answered by the core (the patterns never change them).
    #[inline]
    pub fn get(&self, c: Cell) -> Option<Color> {
        self.stones.get(c)
    }
    #[inline]
    pub fn is_empty(&self, c: Cell) -> bool {
        self.stones.is_empty(c)
    }
    #[inline]
    pub fn hash(&self) -> u64 {
        self.stones.hash()
    }
    #[inline]
    pub fn stone_total(&self) -> usize {
        self.stones.stone_total()
    }
    #[inline]
    pub fn is_full(&self) -> bool {
        self.stones.is_full()
    }
    #[inline]
    pub fn has_six(&self, color: Color) -> bool {
        self.stones.has_six(color)
    }
    #[inline]
    pub fn winner(&self) -> Option<Color> {
        self.stones.winner()
    }
    #[inline]
    pub fn is_over(&self) -> bool {
        self.stones.is_over()
    }
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.stones.side_to_move()
    }
    #[inline]
    pub fn stones_this_turn(&self) -> usize {
        self.stones.stones_this_turn()
    }
    #[inline]
    pub fn has_threat_window(&self, color: Color) -> bool {
        self.stones.has_threat_window(color)
    }
    pub fn check_turn(&self, turn: &Turn) -> Result<(), RuleError> {
        self.stones.check_turn(turn)
    }

    pub fn nearby(&self, c: Cell) -> usize {
        self.nearby[c.index()] as usize
    }

    /// The empty cells with a stone near them (`nearby` above zero), in index order.
    pub fn near_empty_cells(&self) -> NearEmptyCells<'_> {
        NearEmptyCells {
            nearby: &self.nearby,
            occupied: self.stones.occupancy(),
            next_chunk: 0,
            bits: 0,
            start: 0,
        }
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
    #[inline]
    pub fn place(&mut self, c: Cell, color: Color) {
        self.place_observed(c, color, &mut ());
    }

    /// Removes a stone placed by `place`.
    #[inline]
    pub fn remove(&mut self, c: Cell) {
        self.remove_observed(c, &mut ());
    }

    /// `place`, telling `observer` how the empty cells' codes change.
    pub fn place_observed(&mut self, c: Cell, color: Color, observer: &mut impl CodeObserver) {
        self.stones.place(c, color);
        self.update_lines(c, color, true, observer, &mut ());
        self.update_nearby(c, 1);
        #[cfg(debug_assertions)]
        self.check_incremental();
    }

    /// `remove`, telling `observer` how the empty cells' codes change.
    pub fn remove_observed(&mut self, c: Cell, observer: &mut impl CodeObserver) {
        let color = self.get(c).expect("remove from an empty cell");
        self.update_lines(c, color, false, observer, &mut ());
        self.update_nearby(c, -1);
        self.stones.remove(c);
        #[cfg(debug_assertions)]
        self.check_incremental();
    }

    /// The position after `turns`, protocol turns separated by spaces (`JJ KJKK IIHH`),
    /// each checked against the rules.
    pub fn from_turns(turns: &str) -> Result<Board, String> {
        let mut b = Board::new();
        for t in turns.split_whitespace() {
            let turn = Turn::parse(t).map_err(|e| format!("{t}: {e}"))?;
            b.play_turn(&turn).map_err(|e| format!("{t}: {e}"))?;
        }
        Ok(b)
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

    fn update_lines(
        &mut self,
        c: Cell,
        color: Color,
        add: bool,
        observer: &mut impl CodeObserver,
        changes: &mut impl Changes,
    ) {
        let g = &*GEOMETRY;
        // Read once: every dereference of the lazy table would check its initialisation.
        let table: &ByKey<Pattern> = &PATTERNS;
        let me = color.index();
        let counts = &mut self.pattern_counts;
        let stone_patterns = &mut self.stone_patterns;
        if add {
            self.cells.occupy(c.index(), observer);
            for d in 0..4 {
                let p = table[self.keys[c.index()][d][me] as usize] as u8;
                stone_patterns[c.index()][d] = p;
                counts[me][p as usize] += 1;
            }
        } else {
            for &p in &stone_patterns[c.index()] {
                counts[me][p as usize] -= 1;
            }
        }
        // Seen from `color` the stone is an own digit (1), from the other a blocker (2): one
        // addition to both keys of a neighbour (`PACKED_DIGITS`).
        let digits = &PACKED_DIGITS[me];
        let filled: &ByKey<u16> = &FILLED_SLOTS;
        let parts: &ByKey<u16> = &CODE_PARTS;
        for (d, line) in g.line_neighbours[c.index()].iter().enumerate() {
            // `c`'s own key tells which neighbours hold stones (or lie off the board).
            let stones = filled[self.keys[c.index()][d][me] as usize];
            for s in slots_in(!stones & ALL_SLOTS) {
                let Some(n) = line[s] else {
                    continue;
                };
                // `c` sits in the mirrored slot of its neighbour's key.
                let keys = &mut self.keys[n.index()][d];
                let new = shifted(*keys, digits[2 * REACH - 1 - s], add);
                *keys = new;
                if let Some((parts, codes)) =
                    self.cells.line_changed(n.index(), d, new, parts, observer)
                {
                    changes.code_line(n.index(), d, parts, codes);
                }
            }
            for s in slots_in(stones) {
                let Some(n) = line[s] else {
                    continue;
                };
                let keys = &mut self.keys[n.index()][d];
                let new = shifted(*keys, digits[2 * REACH - 1 - s], add);
                *keys = new;
                let side = self
                    .stones
                    .get(n)
                    .expect("a filled slot on the board")
                    .index();
                let new = table[new[side] as usize] as u8;
                let old = &mut stone_patterns[n.index()][d];
                if *old != new {
                    changes.stone_pattern(n.index(), d, *old);
                    counts[side][*old as usize] -= 1;
                    counts[side][new as usize] += 1;
                    *old = new;
                }
            }
        }
        if !add {
            self.cells
                .vacate(c.index(), &self.keys[c.index()], observer);
        }
    }

    fn update_nearby(&mut self, c: Cell, delta: i8) {
        near_box(c, |n| {
            let v = &mut self.nearby[n.index()];
            *v = (*v as i8 + delta) as u8;
        });
    }

    /// Rebuilds every incremental field from the cells alone.
    pub fn recount(&self) -> Board {
        let mut fresh = Board::new();
        for c in Cell::all() {
            if let Some(color) = self.get(c) {
                fresh.place_unchecked(c, color);
            }
        }
        // From the keys at once, not stone by stone as kept.
        let stones = &fresh.stones;
        fresh.cells = CellCodes::read(&fresh.keys, |i| stones.is_empty(Cell::from_index(i)));
        fresh
    }

    fn place_unchecked(&mut self, c: Cell, color: Color) {
        self.stones.place(c, color);
        self.update_lines(c, color, true, &mut (), &mut ());
        self.update_nearby(c, 1);
    }

    /// Debug builds: the incremental state must equal a full recount (and the pattern keys
    /// must spell the cells they describe).
    #[cfg(debug_assertions)]
    fn check_incremental(&self) {
        // A full recount costs far more than a move; sample it so debug searches stay usable.
        if !debug_sample() {
            return;
        }
        self.assert_same_state(&self.recount(), "against a recount");
    }

    /// Panics, naming `context`, where `other` keeps anything otherwise than this board (a
    /// stone's own cell code is not kept, nor an empty cell's stone patterns).
    #[cfg(any(test, debug_assertions))]
    fn assert_same_state(&self, other: &Board, context: &str) {
        assert!(
            self.stones == other.stones,
            "{context}: hash or window state drifted"
        );
        assert_eq!(self.keys, other.keys, "{context}: pattern keys drifted");
        assert_eq!(
            self.pattern_counts, other.pattern_counts,
            "{context}: pattern counts drifted"
        );
        assert_eq!(
            self.nearby, other.nearby,
            "{context}: nearby counts drifted"
        );
        assert!(
            self.cells
                .same_as(&other.cells, |i| self.is_empty(Cell::from_index(i))),
            "{context}: cell codes drifted"
        );
        for c in Cell::all().filter(|&c| self.get(c).is_some()) {
            assert_eq!(
                self.stone_patterns[c.index()],
                other.stone_patterns[c.index()],
                "{context}: the patterns of the stone on {c} drifted"
            );
        }
    }

    /// The board as text, with protocol coordinates on both axes.
    pub fn render(&self) -> String {
        use crate::rules::coord::SIZE;
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

/// Tests: an observer that counts how many empty cells show each code, per colour, from
/// what it is told alone: wrong the moment one word to it goes missing or doubles.
#[cfg(test)]
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct CodeCensus(pub Vec<[i32; 2]>);

#[cfg(test)]
impl CodeCensus {
    /// The census of `board`'s empty cells, read from their kept codes.
    pub fn of(board: &Board) -> CodeCensus {
        let mut census = CodeCensus(vec![[0; 2]; crate::rules::cells::CELL_CODES]);
        for c in Cell::all().filter(|&c| board.is_empty(c)) {
            census.vacated(board.cell_codes(c));
        }
        census
    }
}

#[cfg(test)]
impl CodeObserver for CodeCensus {
    fn code_changed(&mut self, color: usize, old: u32, new: u32) {
        self.0[old as usize][color] -= 1;
        self.0[new as usize][color] += 1;
    }
    fn occupied(&mut self, codes: [u32; 2]) {
        for (color, code) in codes.into_iter().enumerate() {
            self.0[code as usize][color] -= 1;
        }
    }
    fn vacated(&mut self, codes: [u32; 2]) {
        for (color, code) in codes.into_iter().enumerate() {
            self.0[code as usize][color] += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::coord::parse_cell;

    fn cell(s: &str) -> Cell {
        parse_cell(s).unwrap()
    }

    /// Random dense boards near an edge, and two stones of either colour on random empty
    /// cells (often on one line, often in each other's reach).
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
            b.as_stones().stones(Color::White),
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
        assert!(b.stones == fresh.stones);
        let near_empty = |b: &Board| -> Vec<Cell> {
            Cell::all()
                .filter(|&c| b.is_empty(c) && b.nearby(c) > 0)
                .collect()
        };
        for c in placed.iter().rev().copied() {
            assert_eq!(b.near_empty_cells().collect::<Vec<_>>(), near_empty(&b));
            b.remove(c);
        }
        assert_eq!(b.near_empty_cells().count(), 0);
        let empty = Board::new();
        assert_eq!(b.hash(), 0);
        assert_eq!(b.keys, empty.keys);
        assert_eq!(b.pattern_counts, empty.pattern_counts);
        assert_eq!(b.nearby, empty.nearby);
        assert!(b.stones == empty.stones);
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

    /// An observer told of every code change keeps, without reading the board, how many
    /// empty cells hold each code: after any run of places and removes it equals a count of
    /// the codes read afresh from the four lines of every empty cell.
    #[test]
    fn code_observers_follow_the_stones() {
        use crate::rules::cells::{CELL_CODES, cell_code};
        let recount = |b: &Board| {
            let mut counts = vec![[0i32; 2]; CELL_CODES];
            for c in Cell::all().filter(|&c| b.is_empty(c)) {
                for (color, code) in b.cell_codes(c).into_iter().enumerate() {
                    let keys = [0, 1, 2, 3].map(|d| b.line_keys(c, d)[color]);
                    assert_eq!(code, cell_code(keys));
                    counts[code as usize][color] += 1;
                }
            }
            counts
        };
        let mut rng = crate::rng::Rng::new(3);
        let mut b = Board::new();
        b.place(cell("JJ"), Color::Black);
        let mut seen = CodeCensus(recount(&b));
        let mut placed = Vec::new();
        for i in 0..160 {
            let c = Cell::new(6 + rng.below(8), 6 + rng.below(8)).unwrap();
            if b.is_empty(c) && rng.below(4) != 0 {
                b.place_observed(c, [Color::Black, Color::White][i % 2], &mut seen);
                placed.push(c);
            } else if let Some(c) = placed.pop() {
                b.remove_observed(c, &mut seen);
            }
            assert_eq!(seen.0, recount(&b), "after {} stones", b.stone_total());
        }
        // Shapes were made: codes other than the empty one were met.
        assert!(seen.0[1..].iter().any(|&n| n != [0, 0]));
    }
}

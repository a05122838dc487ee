//! The attacker's turns in a threat sequence.
//!
//! A turn is forcing when it leaves the attacker at least one threat (see `threats`) and the
//! defender none. Every threat comes from a window the turn fills to four stones, so at least
//! one stone lands in a window already holding three attacker stones, or both land in one
//! holding two.
//!
//! The rule for a single-threat turn's free stone: it must land in a window that, after the
//! turn, holds three or more attacker stones and no defender stone. Such a stone leaves a
//! window one stone short of a threat, so the next turn can threaten again; a stone anywhere
//! else builds nothing the sequence can use on its next turn.

use crate::engine::tunables::{SOLVER_DOUBLE_THREAT_TURNS, SOLVER_SINGLE_THREAT_TURNS};
use crate::rules::coord::{CELLS, Cell, Turn};
use crate::rules::geometry::{GEOMETRY, WINDOW, WINDOWS, within_reach};
use crate::rules::stones::{Color, Stones, THREAT_STONES, WindowSet, windows_in};
use crate::rules::threats::{WindowList, blocks, stones_to_stop, threat_count};
use arrayvec::ArrayVec;

use crate::rules::cellset::CellSet;

/// One attacker turn: the threats it leaves, and its order among the others.
#[derive(Clone, Copy, Debug)]
pub struct Attack {
    pub turn: Turn,
    /// Stones the defender needs to stop the threats: 1, 2, or 3 meaning unstoppable.
    pub threats: u8,
    /// Windows one stone short of a threat after the turn: what the next turn can use.
    pub potential: u16,
}

/// Enough room for every double threat kept plus every single threat kept.
pub const ATTACK_CAPACITY: usize = SOLVER_DOUBLE_THREAT_TURNS + SOLVER_SINGLE_THREAT_TURNS;
pub type Attacks = ArrayVec<Attack, ATTACK_CAPACITY>;

/// Windows in a set.
pub fn count(set: &WindowSet) -> u16 {
    set.iter().map(|w| w.count_ones() as u16).sum()
}

/// The empty cells of a set of windows.
fn empty_cells(board: &Stones, windows: &WindowSet) -> CellSet {
    let mut cells = CellSet::new();
    super::zone::add_empty_cells(&mut cells, board, windows);
    cells
}

/// Every forcing turn generated at a node, before the best are kept.
const CANDIDATE_CAPACITY: usize = 1024;

/// The attacker's windows before its turn, counted once per node: every candidate stone is
/// judged against them, and a first stone changes only the windows through it.
///
/// A search for unstoppable turns only (`builds` false) judges turns by their threats, not
/// by what they build: it counts neither the windows of two nor their cells.
struct Before {
    /// Empty cells of windows holding three or more attacker stones and no defender stone.
    threes: CellSet,
    /// Empty cells of windows holding two or more (when `builds`).
    open: CellSet,
    /// For each cell, the windows through it holding exactly two attacker stones and no
    /// defender stone: the windows of three a stone there makes (`growth`; when `builds`).
    twos: [u8; CELLS],
    /// Windows holding exactly three attacker stones and no defender stone.
    exact_threes: u16,
    /// For each cell of `threes` (when not `builds`): the defender stones needed to stop the
    /// threats a stone there makes alone (see `Collector::partners_of`).
    alone: [u8; CELLS],
}

impl Before {
    fn new(board: &Stones, attacker: Color, builds: bool) -> Before {
        let threes = empty_cells(board, board.three_windows(attacker));
        let mut twos = [0u8; CELLS];
        let mut alone = [0u8; CELLS];
        let open = if builds {
            for w in windows_in(board.open_windows(attacker)) {
                if board.window_stones(w)[attacker.index()] == 2 {
                    for &c in &GEOMETRY.window_cells[w] {
                        twos[c.index()] += u8::from(board.is_empty(c));
                    }
                }
            }
            empty_cells(board, board.open_windows(attacker))
        } else {
            for c in threes.iter() {
                let standing = standing_with(board, attacker, c);
                alone[c.index()] = stones_to_stop(board, &standing, &[c]) as u8;
            }
            CellSet::new()
        };
        Before {
            threes,
            open,
            twos,
            exact_threes: count(board.three_windows(attacker))
                - count(board.threat_windows(attacker)),
            alone,
        }
    }
}

/// The windows that are threats with the attacker's stone on `c` (the attacker has none
/// before): those through `c` holding three attacker stones and no defender stone.
fn standing_with(board: &Stones, attacker: Color, c: Cell) -> WindowList {
    let mut standing = WindowList::new();
    for &w in GEOMETRY.windows_of(c) {
        let [own, opp] = ordered_counts(board.window_stones(w as usize), attacker);
        if opp == 0 && own + 1 >= THREAT_STONES {
            standing.push(w);
        }
    }
    standing
}

/// What a first stone `a` would change: the windows through it. The stone is not placed;
/// the rest of the board's windows are as `Before` counted them.
struct AfterFirst {
    /// The attacker's threat windows with `a` on the board: the windows of three through it
    /// (the attacker has none before its turn, or it would have won).
    standing: WindowList,
    /// The windows through `a`, to tell which counts it raises.
    through_a: WindowSet,
    /// Cells of windows of three or more after `a` (the stones that add threats).
    adders: CellSet,
    /// Cells of windows of two or more after `a`.
    open: CellSet,
    /// Windows of exactly three after `a`.
    exact_threes: u16,
    /// Changes to `Before::twos` made by `a`: windows through it that now hold two gain a
    /// cell's count, those that now hold three lose it.
    changed: ArrayVec<(Cell, i8), { 2 * crate::rules::geometry::WINDOWS_PER_CELL * WINDOW }>,
    /// The cells `changed` names: most cells have no change to look up.
    touched: CellSet,
}

impl AfterFirst {
    /// The node as `before` saw it, for `place_first` to add a first stone to. Built where
    /// it is returned and filled there: the struct is large (most of it `changed`'s room),
    /// and one built inside a function and then returned was copied whole.
    fn before_first(before: &Before) -> AfterFirst {
        AfterFirst {
            standing: WindowList::new(),
            through_a: [0; WINDOWS.div_ceil(64)],
            adders: before.threes,
            open: before.open,
            exact_threes: before.exact_threes,
            changed: ArrayVec::new(),
            touched: CellSet::new(),
        }
    }

    /// The attacker's first stone on `a`, judged without placing it; what it builds only
    /// when `builds`.
    fn place_first(&mut self, board: &Stones, attacker: Color, a: Cell, builds: bool) {
        let after = self;
        after.adders.remove(a);
        after.open.remove(a);
        for &w in GEOMETRY.windows_of(a) {
            after.through_a[w as usize / 64] |= 1 << (w % 64);
            let [mut own, opp] = ordered_counts(board.window_stones(w as usize), attacker);
            if opp != 0 {
                continue;
            }
            own += 1;
            if own >= THREAT_STONES {
                after.standing.push(w);
            }
            let delta = match own {
                2 => 1,
                3 => -1,
                _ => 0,
            };
            match own {
                3 => after.exact_threes += 1,
                4 => after.exact_threes -= 1,
                _ => {}
            }
            if !builds && own < 3 {
                continue;
            }
            for &c in &GEOMETRY.window_cells[w as usize] {
                if c == a || !board.is_empty(c) {
                    continue;
                }
                if own >= 3 {
                    after.adders.insert(c);
                }
                if !builds {
                    continue;
                }
                if own >= 2 {
                    after.open.insert(c);
                }
                if delta != 0 {
                    after.changed.push((c, delta));
                    after.touched.insert(c);
                }
            }
        }
    }

    /// A window's stone counts, as (attacker's, defender's), with `a` on the board.
    fn counts(&self, board: &Stones, attacker: Color, w: u16) -> [u8; 2] {
        let [own, opp] = ordered_counts(board.window_stones(w as usize), attacker);
        let raised = self.through_a[w as usize / 64] >> (w % 64) & 1;
        [own + raised as u8, opp]
    }

    /// `growth` of `c` with `a` on the board.
    fn growth(&self, before: &Before, c: Cell) -> u16 {
        if !self.touched.contains(c) {
            return before.twos[c.index()] as u16;
        }
        let changes: i32 = self
            .changed
            .iter()
            .filter(|&&(x, _)| x == c)
            .map(|&(_, d)| d as i32)
            .sum();
        (before.twos[c.index()] as i32 + changes) as u16
    }
}

/// Gathers forcing turns; `finish` keeps the best double threats and the best single
/// threats apart, so that neither kind crowds out the other.
struct Collector {
    all: ArrayVec<Attack, CANDIDATE_CAPACITY>,
    /// Fewest threats a kept turn leaves: 1 with single threats, 2 for double threats only,
    /// 3 when only an unstoppable turn will do (the last turn of a line).
    least: u8,
}

/// The partners that build, of one first stone: at most as many as `finish` could keep.
type Builders = ArrayVec<(u16, Cell), CELLS>;

impl Collector {
    fn new(least: u8) -> Collector {
        Collector {
            all: ArrayVec::new(),
            least,
        }
    }

    fn push(&mut self, attack: Attack) {
        if attack.threats >= self.least && !self.all.is_full() {
            self.all.push(attack);
        }
    }

    /// Only an unstoppable turn is wanted: its potential does not matter, and the first
    /// one found ends the search.
    fn unstoppable_only(&self) -> bool {
        self.least >= 3
    }

    fn done(&self) -> bool {
        self.unstoppable_only() && !self.all.is_empty()
    }

    /// Judges the turn whose stones `a` and `b` both stand on the board.
    fn judge_placed(&mut self, board: &Stones, attacker: Color, a: Cell, b: Cell) {
        if board.has_threat_window(attacker.other()) {
            return;
        }
        self.push(Attack {
            turn: Turn::two(a.min(b), a.max(b)),
            threats: threat_count(board, attacker) as u8,
            potential: count(board.three_windows(attacker)) - count(board.threat_windows(attacker)),
        });
    }

    /// Judges the partners of a first stone `a` (which leaves the defender without threats)
    /// without placing either: those that add threats (cells of windows of three), and,
    /// when `a` threatens alone, those that build (cells of windows of two). Partners in
    /// `skip` are met from elsewhere.
    fn partners_of(
        &mut self,
        board: &Stones,
        attacker: Color,
        a: Cell,
        skip: &CellSet,
        before: &Before,
    ) {
        let g = &*GEOMETRY;
        let mut after = AfterFirst::before_first(before);
        after.place_first(board, attacker, a, !self.unstoppable_only());
        let standing = &after.standing;
        let alone = stones_to_stop(board, standing, &[a]) as u8;
        if self.unstoppable_only() && alone >= 3 {
            // `a` alone cannot be stopped: any partner will do.
            if let Some(b) = Cell::all().find(|&c| c != a && board.is_empty(c)) {
                self.push(Attack {
                    turn: Turn::two(a.min(b), a.max(b)),
                    threats: 3,
                    potential: 0,
                });
            }
            return;
        }
        for b in after.adders.iter() {
            if skip.contains(b) {
                continue;
            }
            if self.done() {
                return;
            }
            // Two stones that no window holds both of threaten apart: every threat window
            // after the turn holds one of them and three attacker stones before (the
            // attacker has no threat before its turn), so the stones that stop each alone
            // stop both. Such a partner is a cell of `threes`, whose count `Before` holds.
            if self.unstoppable_only() && !within_reach(a, b) && alone + before.alone[b.index()] < 3
            {
                continue;
            }
            let mut windows = standing.clone();
            let mut six = false;
            for &w in g.windows_of(b) {
                let [own, opp] = after.counts(board, attacker, w);
                if opp == 0 {
                    six |= own as usize == WINDOW - 1;
                    if own == 3 && windows.try_push(w).is_err() {
                        six = true;
                    }
                }
            }
            let threats = if six {
                3
            } else {
                stones_to_stop(board, &windows, &[a, b]) as u8
            };
            let gain = if self.unstoppable_only() {
                0
            } else {
                after.growth(before, b)
            };
            self.push(Attack {
                turn: Turn::two(a.min(b), a.max(b)),
                threats,
                potential: after.exact_threes + gain,
            });
        }
        if alone < self.least {
            return;
        }
        // The partners that only build. `finish` keeps at most `keep` turns of this kind
        // (by potential, ties in generation order), and all of these share the first
        // stone's threats and base: the others could never be kept.
        let keep = if alone >= 2 {
            SOLVER_DOUBLE_THREAT_TURNS
        } else {
            SOLVER_SINGLE_THREAT_TURNS
        };
        let mut builders = Builders::new();
        for b in after.open.iter() {
            if after.adders.contains(b) || skip.contains(b) {
                continue;
            }
            let gain = after.growth(before, b);
            if gain > 0 {
                builders.push((gain, b));
            }
        }
        if builders.len() > keep {
            builders.sort_by_key(|&(gain, b)| (std::cmp::Reverse(gain), b));
            builders.truncate(keep);
            builders.sort_by_key(|&(_, b)| b);
        }
        for (gain, b) in builders {
            self.push(Attack {
                turn: Turn::two(a.min(b), a.max(b)),
                threats: alone,
                potential: after.exact_threes + gain,
            });
        }
    }

    /// Judges the turn `a`, `b` from window `w` (two attacker stones, no defender stone),
    /// with neither stone on the board nor in a window of three. A window through only one
    /// of them then holds at most three attacker stones after the turn, so the threats are
    /// the windows through both that hold two or more: windows of `w`'s line. The pair is
    /// met from the first such window only.
    fn pair_in_two(
        &mut self,
        board: &Stones,
        attacker: Color,
        (a, b): (Cell, Cell),
        w: usize,
        before: &Before,
    ) {
        let g = &*GEOMETRY;
        let line = g.window_direction[w] as usize;
        let mut windows = WindowList::new();
        for &x in g.line_windows_of(a, line) {
            if !g.window_holds(x as usize, b) {
                continue;
            }
            let [own, opp] = ordered_counts(board.window_stones(x as usize), attacker);
            if opp == 0 && own >= 2 {
                if own == 2 && (x as usize) < w {
                    return;
                }
                windows.push(x);
            }
        }
        let gain = if self.unstoppable_only() {
            0
        } else {
            (before.twos[a.index()] + before.twos[b.index()]) as u16
        };
        self.push(Attack {
            turn: Turn::two(a.min(b), a.max(b)),
            threats: stones_to_stop(board, &windows, &[a, b]) as u8,
            potential: before.exact_threes + gain,
        });
    }

    /// The best turns, most threats first, then most potential; ties in generation order.
    fn finish(&mut self) -> Attacks {
        self.all
            .sort_by_key(|x| std::cmp::Reverse((x.threats.min(3), x.potential)));
        let mut out = Attacks::new();
        let (mut doubles, mut singles) = (0, 0);
        for x in &self.all {
            let (kept, limit) = if x.threats >= 2 {
                (&mut doubles, SOLVER_DOUBLE_THREAT_TURNS)
            } else {
                (&mut singles, SOLVER_SINGLE_THREAT_TURNS)
            };
            if *kept < limit && !out.iter().any(|y| y.turn == x.turn) {
                *kept += 1;
                out.push(*x);
            }
        }
        out
    }
}

/// The attacker's forcing turns, most threats first, then most potential. Without
/// `single_threats`, only turns leaving two or more threats (a VCDT).
pub fn forcing_turns(board: &mut Stones, attacker: Color, single_threats: bool) -> Attacks {
    let least = if single_threats { 1 } else { 2 };
    let mut collector = Collector::new(least);
    collect(board, attacker, &mut collector);
    collector.finish()
}

/// A turn of the attacker's that leaves three or more threats (the defender cannot stop
/// them all), if it has one: all that matters on the last turn of a line.
pub fn unstoppable_turn(board: &mut Stones, attacker: Color) -> Option<Attack> {
    let mut collector = Collector::new(3);
    collect(board, attacker, &mut collector);
    collector.all.first().copied()
}

/// Fills `collector` (by reference: its candidate list is kilobytes, too big to move about
/// at every node).
fn collect(board: &mut Stones, attacker: Color, collector: &mut Collector) {
    let defender = attacker.other();
    let before = Before::new(board, attacker, !collector.unstoppable_only());
    if board.has_threat_window(defender) {
        // The defender threatens a six: the turn must stop it, and threaten with what is left.
        let block = blocks(board, defender);
        for &(x, y) in &block.pairs {
            board.place(x, attacker);
            board.place(y, attacker);
            collector.judge_placed(board, attacker, x, y);
            board.remove(y);
            board.remove(x);
        }
        for &x in &block.singles {
            collector.partners_of(board, attacker, x, &CellSet::new(), &before);
        }
        return;
    }
    // A stone in a window of three makes a threat; a pair of two such stones is met from
    // its smaller cell.
    let mut met = CellSet::new();
    for a in before.threes.iter() {
        if collector.done() {
            return;
        }
        collector.partners_of(board, attacker, a, &met, &before);
        met.insert(a);
    }
    // Both stones in one window of exactly two make it a four: judged without placing them,
    // since the attacker has no threat window standing (it would have won). Such a turn is
    // never unstoppable: its threat windows all lie along one line and hold both stones,
    // so a blocker on each side of the pair (or one between them) stops them all.
    if collector.unstoppable_only() {
        return;
    }
    let mut empties = ArrayVec::<Cell, WINDOW>::new();
    for w in windows_in(board.open_windows(attacker)) {
        if board.window_stones(w)[attacker.index()] != 2 {
            continue;
        }
        empties.clear();
        empties.extend(
            GEOMETRY.window_cells[w]
                .iter()
                .copied()
                .filter(|&c| board.is_empty(c) && !before.threes.contains(c)),
        );
        for i in 0..empties.len() {
            for j in i + 1..empties.len() {
                collector.pair_in_two(board, attacker, (empties[i], empties[j]), w, &before);
            }
        }
        if collector.done() {
            return;
        }
    }
}

/// `turn`, standing on the board, as an attack of `attacker`, if it is one: it leaves the
/// attacker threats (two or more without `single_threats`) and the defender none. How a
/// turn from elsewhere (a killer) is judged; its potential is not worked out.
pub fn as_attack(
    board: &Stones,
    attacker: Color,
    turn: Turn,
    single_threats: bool,
) -> Option<Attack> {
    let threats = if board.has_threat_window(attacker.other()) {
        0
    } else {
        threat_count(board, attacker) as u8
    };
    let least = if single_threats { 1 } else { 2 };
    (threats >= least).then_some(Attack {
        turn,
        threats,
        potential: 0,
    })
}

/// A stone's worth to a window holding this many stones of one colour and none of the
/// other's: the fuller the window, the dearer.
const SPOIL_WORTH: [u32; WINDOW + 1] = [0, 0, 1, 4, 16, 16, 16];

/// A window's stone counts as one index: black's plus `COUNTS_ROW` times white's.
const COUNTS_ROW: usize = 8;

/// `SPOIL_WORTH` by a window's counts (`COUNTS_ROW`), to a stone of either colour: a window
/// of one colour's stones is worth its `SPOIL_WORTH` to both sides (one spoils it, the other
/// builds on it), a window holding both colours nothing.
const WINDOW_WORTH: [u32; COUNTS_ROW * COUNTS_ROW] = {
    let mut worth = [0; COUNTS_ROW * COUNTS_ROW];
    let mut stones = 0;
    while stones <= WINDOW {
        worth[stones] = SPOIL_WORTH[stones];
        worth[COUNTS_ROW * stones] = SPOIL_WORTH[stones];
        stones += 1;
    }
    worth
};

/// What a defender's stone on `c` is worth as an answer: the one-colour windows through
/// it, the fuller the dearer, so both what it takes from the attacker's growth and what
/// it adds to the defender's own, from one read of each window (the table does not need to
/// know which side is which).
pub fn answer_worth(board: &Stones, c: Cell) -> u32 {
    GEOMETRY
        .windows_of(c)
        .iter()
        .map(|&w| {
            let [black, white] = board.window_stones(w as usize);
            WINDOW_WORTH[(black as usize % COUNTS_ROW) + COUNTS_ROW * (white as usize % COUNTS_ROW)]
        })
        .sum()
}

/// A window's stone counts as (attacker's, defender's): the two bytes swapped for white by a
/// rotation, with no branch on the colour (the solver's loops call it for every window).
#[inline]
fn ordered_counts(counts: [u8; 2], attacker: Color) -> [u8; 2] {
    u16::from_le_bytes(counts)
        .rotate_right(8 * attacker.index() as u32)
        .to_le_bytes()
}

const _: () = assert!(CELLS < u16::MAX as usize);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::Board;
    use crate::rules::stones::PlaceTurn;
    use crate::rules::threats::threat_count;

    #[test]
    fn an_answer_is_worth_what_it_spoils_and_what_it_builds() {
        // Each side's one-colour windows through the cell, counted off the window cells.
        let one_side = |board: &Stones, side: Color, c: Cell| -> u32 {
            GEOMETRY
                .windows_of(c)
                .iter()
                .map(|&w| {
                    let cells = &GEOMETRY.window_cells[w as usize];
                    let of = |x: Color| cells.iter().filter(|&&y| board.get(y) == Some(x)).count();
                    if of(side.other()) == 0 {
                        SPOIL_WORTH[of(side)]
                    } else {
                        0
                    }
                })
                .sum()
        };
        let mut nonzero = 0;
        for board in brute_force::boards(20, 43) {
            for c in Cell::all().filter(|&c| board.is_empty(c)) {
                let worth = answer_worth(&board, c);
                let expected =
                    one_side(&board, Color::Black, c) + one_side(&board, Color::White, c);
                assert_eq!(worth, expected, "{c}");
                nonzero += usize::from(worth > 0);
            }
        }
        assert!(nonzero > 100, "{nonzero} cells worth something");
    }

    #[test]
    fn every_turn_threatens_and_free_stones_build() {
        // Black: a three in row J (IJ JJ KJ) and a two in column M.
        let board = Board::from_turns("JJ AAAC IJKJ AEAG MMMN AIAK").unwrap();
        let mut stones = board.as_stones().clone();
        let attacker = Color::Black;
        let turns = forcing_turns(&mut stones, attacker, true);
        assert!(!turns.is_empty());
        assert!(turns.iter().any(|t| t.threats == 1));
        for t in &turns {
            let mut after = stones.clone();
            after.place_turn(&t.turn, attacker);
            assert_eq!(
                threat_count(&after, attacker) as u8,
                t.threats,
                "{}",
                t.turn
            );
            assert!(!after.has_threat_window(attacker.other()));
            // The rule: each stone lies in a window of three or more attacker stones.
            for c in t.turn.cells() {
                let g = &*crate::rules::geometry::GEOMETRY;
                assert!(
                    g.windows_of(c).iter().any(|&w| {
                        let [b, w2] = after.window_stones(w as usize);
                        b >= 3 && w2 == 0
                    }),
                    "{} of {} builds nothing",
                    c,
                    t.turn
                );
            }
        }
        // Without single threats, only double threats (none here: one three and one two).
        let doubles = forcing_turns(&mut stones, attacker, false);
        assert!(doubles.iter().all(|t| t.threats >= 2));
    }
}

#[cfg(test)]
pub(super) mod brute_force {
    use super::*;
    use crate::rng::Rng;
    use crate::rules::stones::PlaceTurn;
    use crate::rules::threats::threat_count;

    /// Random boards dense with black stones in a small square, black to move, with no
    /// threat window for black (it would simply win) and no six.
    pub(crate) fn boards(count: usize, seed: u64) -> Vec<Stones> {
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        while out.len() < count {
            let stones = 8 + rng.below(24);
            let b = crate::rules::stones::crowded(&mut rng, stones);
            if !b.has_threat_window(Color::Black) && b.winner().is_none() {
                out.push(b);
            }
        }
        out
    }

    /// Whether `turn` leaves black three or more threats (or a six) and white no threat.
    fn unstoppable(board: &Stones, a: Cell, b: Cell) -> bool {
        let mut after = board.clone();
        after.place(a, Color::Black);
        after.place(b, Color::Black);
        after.has_six(Color::Black)
            || (!after.has_threat_window(Color::White) && threat_count(&after, Color::Black) >= 3)
    }

    #[test]
    fn unstoppable_turns_match_brute_force_on_random_boards() {
        let mut found = 0;
        for mut board in boards(150, 7) {
            // A stone that adds to no black window cannot make a threat: only cells within
            // reach of black stones need trying.
            let cells: Vec<Cell> = Cell::all()
                .filter(|&c| {
                    board.is_empty(c)
                        && GEOMETRY
                            .windows_of(c)
                            .iter()
                            .any(|&w| board.window_stones(w as usize)[0] > 0)
                })
                .collect();
            let exists = cells
                .iter()
                .enumerate()
                .any(|(i, &a)| cells[i + 1..].iter().any(|&b| unstoppable(&board, a, b)));
            let got = unstoppable_turn(&mut board, Color::Black);
            assert_eq!(got.is_some(), exists, "{got:?}");
            if let Some(attack) = got {
                let b = attack.turn.second.expect("two stones");
                assert!(unstoppable(&board, attack.turn.first, b), "{}", attack.turn);
                found += 1;
            }
        }
        assert!(found > 10, "only {found} boards had an unstoppable turn");
    }

    #[test]
    fn forcing_turns_count_their_threats_on_random_boards() {
        for mut board in boards(60, 11) {
            for attack in forcing_turns(&mut board, Color::Black, true) {
                let mut after = board.clone();
                after.place_turn(&attack.turn, Color::Black);
                assert!(!after.has_threat_window(Color::White));
                let threats = if after.has_six(Color::Black) {
                    3
                } else {
                    threat_count(&after, Color::Black) as u8
                };
                assert_eq!(threats, attack.threats.min(3), "{}", attack.turn);
            }
        }
    }
}

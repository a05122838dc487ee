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

use crate::coord::{CELLS, Cell, Turn};
use crate::geometry::{GEOMETRY, WINDOW};
use crate::stones::{Color, Stones, WindowSet, windows_in};
use crate::threats::{WindowList, blocks, stones_to_stop, threat_count, threat_windows};
use crate::tunables::{SOLVER_DOUBLE_THREAT_TURNS, SOLVER_SINGLE_THREAT_TURNS};
use arrayvec::ArrayVec;

use super::zone::CellSet;

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
    cells.add_empty_cells_of(board, windows);
    cells
}

/// Every forcing turn generated at a node, before the best are kept.
const CANDIDATE_CAPACITY: usize = 1024;

/// Gathers forcing turns; `finish` keeps the best double threats and the best single
/// threats apart, so that neither kind crowds out the other.
struct Collector {
    all: ArrayVec<Attack, CANDIDATE_CAPACITY>,
    /// Fewest threats a kept turn leaves: 1 with single threats, 2 for double threats only,
    /// 3 when only an unstoppable turn will do (the last turn of a line).
    least: u8,
}

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

    /// What a stone on `c` adds to the attacker's potential, when potential matters.
    fn growth(&self, board: &Stones, attacker: Color, c: Cell) -> u16 {
        if self.unstoppable_only() {
            0
        } else {
            growth(board, attacker, c)
        }
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

    /// With the first stone `a` on the board (and the defender left without threats),
    /// judges its partners without placing them: those that add threats (cells of windows
    /// of three), and, when `a` threatens alone, those that build (cells of windows of
    /// two). Partners in `skip` are met from elsewhere.
    fn partners_of(&mut self, board: &Stones, attacker: Color, a: Cell, skip: &CellSet) {
        let g = &*GEOMETRY;
        let Some(standing) = threat_windows(board, attacker) else {
            // More threat windows than can be tracked: unstoppable.
            if let Some(b) = Cell::all().find(|&c| c != a && board.is_empty(c)) {
                self.push(Attack {
                    turn: Turn::two(a.min(b), a.max(b)),
                    threats: 3,
                    potential: 0,
                });
            }
            return;
        };
        let alone = stones_to_stop(board, &standing, &[]) as u8;
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
        let base = count(board.three_windows(attacker)) - count(board.threat_windows(attacker));
        let adders = empty_cells(board, board.three_windows(attacker));
        for b in adders.iter() {
            if skip.contains(b) {
                continue;
            }
            if self.done() {
                return;
            }
            let mut windows = standing.clone();
            let mut six = false;
            for &w in g.windows_of(b) {
                let [own, opp] = ordered_counts(board.window_stones(w as usize), attacker);
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
                stones_to_stop(board, &windows, &[b]) as u8
            };
            self.push(Attack {
                turn: Turn::two(a.min(b), a.max(b)),
                threats,
                potential: base + self.growth(board, attacker, b),
            });
        }
        if alone < self.least {
            return;
        }
        for b in empty_cells(board, board.open_windows(attacker)).iter() {
            if adders.contains(b) || skip.contains(b) {
                continue;
            }
            let gain = growth(board, attacker, b);
            if gain > 0 {
                self.push(Attack {
                    turn: Turn::two(a.min(b), a.max(b)),
                    threats: alone,
                    potential: base + gain,
                });
            }
        }
    }

    /// Judges the turn `a`, `b` from window `w` (two attacker stones, no defender stone),
    /// with neither stone on the board nor in a window of three. A window through only one
    /// of them then holds at most three attacker stones after the turn, so the threats are
    /// the windows through both that hold two or more. The pair is met from the first such
    /// window only.
    fn pair_in_two(&mut self, board: &Stones, attacker: Color, a: Cell, b: Cell, w: usize) {
        let g = &*GEOMETRY;
        let mut windows = WindowList::new();
        for &x in g.windows_of(a) {
            if !g.window_cells[x as usize].contains(&b) {
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
        self.push(Attack {
            turn: Turn::two(a.min(b), a.max(b)),
            threats: stones_to_stop(board, &windows, &[a, b]) as u8,
            potential: count(board.three_windows(attacker)) - count(board.threat_windows(attacker))
                + self.growth(board, attacker, a)
                + self.growth(board, attacker, b),
        });
    }

    /// The best turns, most threats first, then most potential; ties in generation order.
    fn finish(mut self) -> Attacks {
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
    collect(board, attacker, Collector::new(least)).finish()
}

/// A turn of the attacker's that leaves three or more threats (the defender cannot stop
/// them all), if it has one: all that matters on the last turn of a line.
pub fn unstoppable_turn(board: &mut Stones, attacker: Color) -> Option<Attack> {
    collect(board, attacker, Collector::new(3))
        .all
        .first()
        .copied()
}

fn collect(board: &mut Stones, attacker: Color, mut collector: Collector) -> Collector {
    let defender = attacker.other();
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
            board.place(x, attacker);
            collector.partners_of(board, attacker, x, &CellSet::new());
            board.remove(x);
        }
        return collector;
    }
    // A stone in a window of three makes a threat; a pair of two such stones is met from
    // its smaller cell.
    let threes = empty_cells(board, board.three_windows(attacker));
    let mut met = CellSet::new();
    for a in threes.iter() {
        if collector.done() {
            return collector;
        }
        board.place(a, attacker);
        collector.partners_of(board, attacker, a, &met);
        board.remove(a);
        met.insert(a);
    }
    // Both stones in one window of exactly two make it a four: judged without placing them,
    // since the attacker has no threat window standing (it would have won).
    let open = *board.open_windows(attacker);
    let mut empties = ArrayVec::<Cell, WINDOW>::new();
    for w in windows_in(&open) {
        if board.window_stones(w)[attacker.index()] != 2 {
            continue;
        }
        empties.clear();
        empties.extend(
            GEOMETRY.window_cells[w]
                .iter()
                .copied()
                .filter(|&c| board.is_empty(c) && !threes.contains(c)),
        );
        for i in 0..empties.len() {
            for j in i + 1..empties.len() {
                collector.pair_in_two(board, attacker, empties[i], empties[j], w);
            }
        }
        if collector.done() {
            return collector;
        }
    }
    collector
}

/// `turn` as an attack of `attacker` here, if it is one: its cells empty, leaving the
/// attacker threats (two or more without `single_threats`) and the defender none. How a
/// turn from elsewhere (a killer) is judged; its potential is not worked out.
pub fn as_attack(
    board: &mut Stones,
    attacker: Color,
    turn: Turn,
    single_threats: bool,
) -> Option<Attack> {
    if !turn.cells().all(|c| board.is_empty(c)) {
        return None;
    }
    board.place_turn(&turn, attacker);
    let threats = if board.has_threat_window(attacker.other()) {
        0
    } else {
        threat_count(board, attacker) as u8
    };
    board.remove_turn(&turn);
    let least = if single_threats { 1 } else { 2 };
    (threats >= least).then_some(Attack {
        turn,
        threats,
        potential: 0,
    })
}

/// What a defender stone on `c` takes from the attacker: the attacker's open windows
/// through it, the fuller the dearer.
pub fn spoils(board: &Stones, attacker: Color, c: Cell) -> u32 {
    GEOMETRY
        .windows_of(c)
        .iter()
        .map(
            |&w| match ordered_counts(board.window_stones(w as usize), attacker) {
                [2, 0] => 1,
                [3, 0] => 4,
                [n, 0] if n >= 4 => 16,
                _ => 0,
            },
        )
        .sum()
}

/// Cells where a defender stone makes a threat of its own: the empty cells of windows
/// holding three or more defender stones and no attacker stone.
pub fn counter_cells(board: &Stones, defender: Color) -> CellSet {
    empty_cells(board, board.three_windows(defender))
}

/// Windows of two attacker stones and no defender stone through `c`: the windows of three
/// an attacker stone there would make.
fn growth(board: &Stones, attacker: Color, c: Cell) -> u16 {
    GEOMETRY
        .windows_of(c)
        .iter()
        .filter(|&&w| ordered_counts(board.window_stones(w as usize), attacker) == [2, 0])
        .count() as u16
}

/// A window's stone counts as (attacker's, defender's).
fn ordered_counts(counts: [u8; 2], attacker: Color) -> [u8; 2] {
    match attacker {
        Color::Black => counts,
        Color::White => [counts[1], counts[0]],
    }
}

const _: () = assert!(CELLS < u16::MAX as usize);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::threats::threat_count;

    #[test]
    fn every_turn_threatens_and_free_stones_build() {
        // Black: a three in row J (IJ JJ KJ) and a two in column M.
        let board = Board::from_turns("JJ AAAC IJKJ AEAG MMMN AIAK").unwrap();
        let mut stones = Stones::clone(&board);
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
                let g = &*crate::geometry::GEOMETRY;
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

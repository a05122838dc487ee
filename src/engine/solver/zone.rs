//! The relevance zones of threat-space proofs: the cells a proof leans on, and the cells
//! where the defender could yet build a threat the proof never met.

use crate::rules::cellset::CellSet;
use crate::rules::coord::Cell;
use crate::rules::geometry::{GEOMETRY, WINDOWS, WINDOWS_PER_CELL};
use crate::rules::stones::{Color, Stones, WindowSet, windows_in};
use arrayvec::ArrayVec;

/// Adds to `set` the empty cells of every window in `windows`.
pub fn add_empty_cells(set: &mut CellSet, board: &Stones, windows: &WindowSet) {
    for w in windows_in(windows) {
        add_empty_cells_of_window(set, board, w);
    }
}

/// Adds to `set` the empty cells of window `w`.
#[inline]
pub fn add_empty_cells_of_window(set: &mut CellSet, board: &Stones, w: usize) {
    set.union_with_difference(GEOMETRY.window_mask(w), board.occupied());
}

/// Cells where `stones` stones of the defender's (one: a free stone; two: a whole turn)
/// could, with stones it may yet place in `zone` (its answers along a proof whose zone that
/// is), fill a window of its own to four: a threat the attacker would have to answer, which
/// the proof never met. These are the empty cells outside the zone of every window without
/// attacker stones whose defender stones and zone cells come to `4 - stones` or more.
pub fn counter_reach(board: &Stones, defender: Color, zone: &CellSet, stones: usize) -> CellSet {
    let g = &*GEOMETRY;
    let needed = 4 - stones.clamp(1, 2);
    let mut out = CellSet::new();
    // Windows where the defender's stones alone are enough.
    let enough = if needed >= 3 {
        board.three_windows(defender)
    } else {
        board.open_windows(defender)
    };
    add_empty_cells(&mut out, board, enough);
    // Otherwise the window must hold a zone cell.
    let mut seen: WindowSet = [0; WINDOWS.div_ceil(64)];
    for z in zone.iter() {
        if !board.is_empty(z) {
            continue;
        }
        for &w in g.windows_of(z) {
            let w = w as usize;
            let bit = 1u64 << (w % 64);
            if seen[w / 64] & bit != 0 {
                continue;
            }
            seen[w / 64] |= bit;
            if gathered(board, defender, w, zone).is_some_and(|n| n >= needed) {
                for &c in &g.window_cells[w] {
                    if board.is_empty(c) && !zone.contains(c) {
                        out.insert(c);
                    }
                }
            }
        }
    }
    out
}

/// What the defender could gather in window `w` along a proof: its stones, and the
/// window's empty cells that `later` holds (its later answers, in the proof's zone). `None`
/// when the window holds an attacker stone and can never be the defender's.
#[inline]
fn gathered(board: &Stones, defender: Color, w: usize, later: &CellSet) -> Option<usize> {
    let counts = board.window_stones(w);
    if counts[defender.other().index()] != 0 {
        return None;
    }
    let zoned = GEOMETRY
        .window_mask(w)
        .count_common(later, board.occupied());
    Some(counts[defender.index()] as usize + zoned)
}

/// The cells where a whole turn of the defender's could matter to a proof with zone
/// `zone`: the zone itself, and where two stones could grow a threat of the defender's
/// with its later answers (see `counter_reach`).
pub fn turn_reach(board: &Stones, defender: Color, zone: &CellSet) -> CellSet {
    let mut reach = counter_reach(board, defender, zone, 2);
    reach.union_with(zone);
    reach
}

/// A defender's answer (one stone, or a turn's two) shown to lose to a line whose zone is
/// `zone`, kept so that the node's other answers can lean on that line.
///
/// Another answer loses to the same line when each of its stones is one of this answer's
/// or lies outside the zone and its counter reach (as `counter_reach` counts it, for as
/// many stones as are new): the line wins against both answers' stones at once, and with
/// this answer's stones taken away the defender only has less. A node's answers then take
/// one search per line rather than one per answer.
#[derive(Clone, Copy)]
pub struct BeatenAnswer {
    /// The answer's stones; a single stone twice.
    stones: [Cell; 2],
    zone: CellSet,
    /// Attacker turns of the line.
    pub length: u8,
}

impl BeatenAnswer {
    pub fn new(stones: [Cell; 2], zone: CellSet, length: u8) -> BeatenAnswer {
        BeatenAnswer {
            stones,
            zone,
            length,
        }
    }

    /// Whether the defender's `answer` (a single stone twice), on `board` where neither
    /// answer stands, loses to this answer's line. When it does, adds to `node_zone` the
    /// windows where one more defender stone, from higher in the tree, would join the new
    /// stones in a threat the line never met: the node's proof then leans on them.
    pub fn covers(
        &self,
        board: &Stones,
        defender: Color,
        answer: [Cell; 2],
        node_zone: &mut CellSet,
    ) -> bool {
        let g = &*GEOMETRY;
        let mut new = ArrayVec::<Cell, 2>::new();
        for c in answer {
            if !self.stones.contains(&c) && !new.contains(&c) {
                new.push(c);
            }
        }
        if new.iter().any(|&n| self.zone.contains(n)) {
            return false;
        }
        let needed = 4 - new.len();
        // The windows to expose, gathered first: a refusal leaves the node's zone alone.
        let mut exposed = ArrayVec::<u16, { 2 * WINDOWS_PER_CELL }>::new();
        // This answer's stones count as the defender's: the line was played against them.
        let mut later = self.zone;
        for c in self.stones {
            later.insert(c);
        }
        for &n in &new {
            for &w in g.windows_of(n) {
                let Some(gathered) = gathered(board, defender, w as usize, &later) else {
                    continue;
                };
                if gathered >= needed {
                    return false;
                }
                let cells = &g.window_cells[w as usize];
                let joined = new.iter().filter(|c| cells.contains(c)).count();
                if gathered + joined + 1 >= 4 {
                    exposed.push(w);
                }
            }
        }
        for w in exposed {
            add_empty_cells_of_window(node_zone, board, w as usize);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::rules::board::Board;
    use crate::rules::coord::parse_cell;

    fn cell(text: &str) -> Cell {
        parse_cell(text).unwrap()
    }

    fn cells(texts: &[&str]) -> CellSet {
        let mut set = CellSet::new();
        for t in texts {
            set.insert(cell(t));
        }
        set
    }

    #[test]
    fn a_window_adds_exactly_its_empty_cells() {
        let g = &*GEOMETRY;
        let mut rng = crate::rng::Rng::new(5);
        for _ in 0..10 {
            let board = crate::rules::stones::crowded(&mut rng, 40);
            for w in (0..WINDOWS).step_by(7) {
                let mut set = CellSet::new();
                add_empty_cells_of_window(&mut set, &board, w);
                let mut expected: Vec<Cell> = g.window_cells[w]
                    .iter()
                    .copied()
                    .filter(|&c| board.is_empty(c))
                    .collect();
                expected.sort();
                assert_eq!(set.iter().collect::<Vec<_>>(), expected, "window {w}");
            }
        }
    }

    #[test]
    fn an_answer_leans_on_a_beaten_one_only_outside_its_reach() {
        // White defends; it has two stones at CC and CD, a column with room to grow. The
        // beaten answer KK KL lost to a line whose zone is JK and JL.
        let board = Board::from_turns("JJ CCCD PPPQ").unwrap();
        let stones = board.as_stones();
        let white = Color::White;
        let beaten = BeatenAnswer::new([cell("KK"), cell("KL")], cells(&["JK", "JL"]), 3);
        let mut zone = CellSet::new();
        // Far from everything: the same line wins, and nothing joins the node's zone.
        assert!(beaten.covers(stones, white, [cell("SA"), cell("SB")], &mut zone));
        assert!(zone.is_empty());
        // A stone in the line's zone can spoil it.
        assert!(!beaten.covers(stones, white, [cell("JK"), cell("SB")], &mut zone));
        // Two new stones beside CC CD could make four in column C: CE is in reach.
        assert!(!beaten.covers(stones, white, [cell("CE"), cell("SB")], &mut zone));
        assert!(zone.is_empty());
        // One new stone there, the other the beaten answer's own: two whites and one new
        // stone make three, short of a threat, so the line still wins; but one more white
        // stone from higher in the tree would make four, so the column's windows through
        // CE join the node's zone.
        assert!(beaten.covers(stones, white, [cell("KK"), cell("CE")], &mut zone));
        assert!(zone.contains(cell("CF")) && zone.contains(cell("CB")));
        assert!(!zone.contains(cell("SB")));
        // The beaten answer's stones count as the defender's: with CE and CF, column C
        // holds four whites for the line, and a new stone beside them is in reach.
        let near = BeatenAnswer::new([cell("CE"), cell("CF")], CellSet::new(), 3);
        assert!(!near.covers(stones, white, [cell("CE"), cell("CG")], &mut zone));
        assert!(near.covers(stones, white, [cell("CE"), cell("JS")], &mut zone));
    }

    #[test]
    fn insert_remove_iterate() {
        let mut s = CellSet::new();
        let cells = [0, 63, 64, 200, crate::rules::coord::CELLS - 1].map(Cell::from_index);
        for c in cells {
            s.insert(c);
        }
        assert_eq!(s.len(), 5);
        assert_eq!(s.iter().collect::<Vec<_>>(), cells.to_vec());
        s.remove(cells[2]);
        assert!(!s.contains(cells[2]) && s.contains(cells[3]));
        let mut t = CellSet::new();
        t.insert(cells[2]);
        s.union_with(&t);
        assert_eq!(s.len(), 5);
        assert!(!s.is_empty() && CellSet::new().is_empty());
    }
}

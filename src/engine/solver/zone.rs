//! Sets of cells, one bit each: the relevance zones of threat-space proofs.

use crate::rules::coord::{CELLS, Cell};
use crate::rules::geometry::{GEOMETRY, WINDOWS};
use crate::rules::stones::{Color, Stones, WindowSet, windows_in};

const WORDS: usize = CELLS.div_ceil(64);

/// A set of board cells.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct CellSet([u64; WORDS]);

impl CellSet {
    pub fn new() -> CellSet {
        CellSet::default()
    }

    pub fn insert(&mut self, c: Cell) {
        self.0[c.index() / 64] |= 1 << (c.index() % 64);
    }

    pub fn remove(&mut self, c: Cell) {
        self.0[c.index() / 64] &= !(1 << (c.index() % 64));
    }

    pub fn contains(&self, c: Cell) -> bool {
        self.0[c.index() / 64] & (1 << (c.index() % 64)) != 0
    }

    pub fn union_with(&mut self, other: &CellSet) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
    }

    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The cells in index order.
    pub fn iter(&self) -> impl Iterator<Item = Cell> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    Cell::from_index(i * 64 + b)
                })
            })
        })
    }

    /// Adds the empty cells of every window in `windows`.
    pub fn add_empty_cells_of(&mut self, board: &Stones, windows: &WindowSet) {
        for w in windows_in(windows) {
            self.add_empty_cells_of_window(board, w);
        }
    }

    /// Adds the empty cells of window `w`.
    pub fn add_empty_cells_of_window(&mut self, board: &Stones, w: usize) {
        for &c in &GEOMETRY.window_cells[w] {
            if board.is_empty(c) {
                self.insert(c);
            }
        }
    }
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
    out.add_empty_cells_of(board, enough);
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
            let counts = board.window_stones(w);
            if counts[defender.other().index()] != 0 {
                continue;
            }
            let cells = &g.window_cells[w];
            let zoned = cells
                .iter()
                .filter(|&&c| board.is_empty(c) && zone.contains(c))
                .count();
            if counts[defender.index()] as usize + zoned >= needed {
                for &c in cells {
                    if board.is_empty(c) && !zone.contains(c) {
                        out.insert(c);
                    }
                }
            }
        }
    }
    out
}

/// The cells where a whole turn of the defender's could matter to a proof with zone
/// `zone`: the zone itself, and where two stones could grow a threat of the defender's
/// with its later answers (see `counter_reach`).
pub fn turn_reach(board: &Stones, defender: Color, zone: &CellSet) -> CellSet {
    let mut reach = counter_reach(board, defender, zone, 2);
    reach.union_with(zone);
    reach
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_remove_iterate() {
        let mut s = CellSet::new();
        let cells = [0, 63, 64, 200, CELLS - 1].map(Cell::from_index);
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

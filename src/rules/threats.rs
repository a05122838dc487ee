//! Connect6 threats. A colour has *t threats* when its opponent needs t stones to stop a six
//! on the colour's next turn: the fewest cells that hit every threat window (a six-cell
//! window holding at least four of the colour's stones and none of the opponent's).
//! A turn places two stones, so three threats cannot be stopped.

use crate::rules::coord::Cell;
use crate::rules::geometry::{GEOMETRY, WINDOW};
use crate::rules::stones::{Color, Stones, windows_in};
use arrayvec::ArrayVec;

/// More threat windows than this and the defender is lost anyway (no two cells hit them all
/// in any position the search meets); counting stops there.
const MAX_TRACKED: usize = 48;

/// Room for the single-cell blocks: they all lie in one window.
pub const BLOCK_SINGLES: usize = WINDOW;
/// Room for the two-cell blocks: a cell of the first window with one of another's.
pub const BLOCK_PAIRS: usize = WINDOW * WINDOW;

/// The blocking answers to a colour's threats.
#[derive(Default, Debug, Clone)]
pub struct Blocks {
    /// Fewest stones that stop every threat: 0, 1, 2, or 3 meaning "three or more".
    pub needed: usize,
    /// Cells that alone stop every threat (the second stone is then free).
    pub singles: ArrayVec<Cell, BLOCK_SINGLES>,
    /// Two-cell sets that stop every threat where neither cell alone does.
    pub pairs: ArrayVec<(Cell, Cell), BLOCK_PAIRS>,
}

fn empties(board: &Stones, w: usize) -> impl Iterator<Item = Cell> + '_ {
    GEOMETRY.window_cells[w]
        .iter()
        .copied()
        .filter(|&c| board.is_empty(c))
}

fn contains(w: usize, c: Cell) -> bool {
    GEOMETRY.window_holds(w, c)
}

/// The threat windows of `attacker`, up to `MAX_TRACKED` (`None` when there are more).
fn threat_list(board: &Stones, attacker: Color) -> Option<ArrayVec<usize, MAX_TRACKED>> {
    let mut list = ArrayVec::new();
    for w in windows_in(board.threat_windows(attacker)) {
        list.try_push(w).ok()?;
    }
    Some(list)
}

/// How the defender can stop `attacker`'s threats.
pub fn blocks(board: &Stones, attacker: Color) -> Blocks {
    let mut out = Blocks::default();
    let Some(list) = threat_list(board, attacker) else {
        out.needed = 3;
        return out;
    };
    let Some(&first) = list.first() else {
        return out;
    };
    // Every blocking set holds a cell of the first window; try each.
    for x in empties(board, first) {
        let rest: ArrayVec<usize, MAX_TRACKED> =
            list.iter().copied().filter(|&w| !contains(w, x)).collect();
        let Some(&r0) = rest.first() else {
            out.singles.push(x);
            continue;
        };
        for y in empties(board, r0) {
            if rest.iter().all(|&w| contains(w, y)) {
                let pair = (x.min(y), x.max(y));
                if !out.pairs.contains(&pair) && !out.pairs.is_full() {
                    out.pairs.push(pair);
                }
            }
        }
    }
    // A pair whose one cell blocks alone is covered by that single.
    let singles = out.singles.clone();
    out.pairs
        .retain(|(a, b)| !singles.contains(a) && !singles.contains(b));
    out.needed = if !out.singles.is_empty() {
        1
    } else if !out.pairs.is_empty() {
        2
    } else {
        3
    };
    out
}

/// A short list of windows, by index.
pub type WindowList = ArrayVec<u16, MAX_TRACKED>;

/// The threat windows of `attacker`; `None` when there are more than a list holds.
pub fn threat_windows(board: &Stones, attacker: Color) -> Option<WindowList> {
    let mut list = WindowList::new();
    for w in windows_in(board.threat_windows(attacker)) {
        list.try_push(w as u16).ok()?;
    }
    Some(list)
}

/// Fewest empty cells, `taken` excepted, that hit every window of `windows`: 0, 1, 2, or 3
/// meaning three or more. `taken` lets a caller count as if stones already stood there.
pub fn stones_to_stop(board: &Stones, windows: &[u16], taken: &[Cell]) -> usize {
    let Some((&first, rest)) = windows.split_first() else {
        return 0;
    };
    let g = &*GEOMETRY;
    let mut unusable = *board.occupied();
    for &c in taken {
        unusable.insert(c);
    }
    // Every blocking set holds a cell of the first window.
    let firsts = g.window_mask(first as usize).without(&unusable);
    let mut everywhere = firsts;
    for &w in rest {
        if everywhere.is_empty() {
            break;
        }
        everywhere.intersect_with(g.window_mask(w as usize));
    }
    if !everywhere.is_empty() {
        return 1;
    }
    // Two stones do when, beside a cell `x` of the first window, one cell lies in every
    // window `x` misses.
    for x in firsts.iter() {
        let mut second = firsts;
        let mut missed = false;
        for &w in rest {
            if !contains(w as usize, x) {
                let mask = g.window_mask(w as usize);
                if missed {
                    second.intersect_with(mask);
                } else {
                    second = mask.without(&unusable);
                    missed = true;
                }
            }
        }
        if !second.is_empty() {
            return 2;
        }
    }
    3
}

/// Number of threats `attacker` has, capped at 3.
pub fn threat_count(board: &Stones, attacker: Color) -> usize {
    if !board.has_threat_window(attacker) {
        return 0;
    }
    match threat_windows(board, attacker) {
        Some(list) => stones_to_stop(board, &list, &[]),
        None => 3,
    }
}

/// A turn that completes a six for `color`, if it has one: the empty cells of a threat window.
pub fn winning_cells(board: &Stones, color: Color) -> Option<ArrayVec<Cell, 2>> {
    let w = windows_in(board.threat_windows(color)).next()?;
    Some(empties(board, w).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::Board;
    use crate::rules::coord::parse_cell;

    fn board(black: &[&str], white: &[&str]) -> Board {
        let mut b = Board::new();
        for s in black {
            b.place(parse_cell(s).unwrap(), Color::Black);
        }
        for s in white {
            b.place(parse_cell(s).unwrap(), Color::White);
        }
        b
    }

    #[test]
    fn open_four_is_two_threats() {
        let b = board(&["FJ", "GJ", "HJ", "IJ"], &[]);
        let blocks = blocks(b.as_stones(), Color::Black);
        assert_eq!(blocks.needed, 2);
        assert!(
            blocks
                .pairs
                .contains(&(parse_cell("EJ").unwrap(), parse_cell("JJ").unwrap()))
        );
    }

    #[test]
    fn gapped_four_is_one_threat() {
        let b = board(&["FJ", "GJ", "IJ", "JJ"], &[]);
        let blocks = blocks(b.as_stones(), Color::Black);
        assert_eq!(blocks.needed, 1);
        assert_eq!(blocks.singles.as_slice(), &[parse_cell("HJ").unwrap()]);
    }

    #[test]
    fn two_fours_in_two_lines_make_three_threats() {
        // An open four across and a blocked four down: 2 + 1 threats.
        let b = board(&["FJ", "GJ", "HJ", "IJ", "CC", "CD", "CE", "CF"], &["CG"]);
        assert_eq!(threat_count(b.as_stones(), Color::Black), 3);
    }

    #[test]
    fn blocked_four_is_no_threat() {
        let b = board(&["AA", "BA", "CA", "DA"], &["EA"]);
        assert_eq!(threat_count(b.as_stones(), Color::Black), 0);
        assert!(winning_cells(b.as_stones(), Color::Black).is_none());
    }

    #[test]
    fn five_can_be_completed() {
        let b = board(&["JA", "JB", "JC", "JD", "JE"], &["JF"]);
        // The open end is the top edge... the only window left is JA..JF: blocked. None.
        assert!(winning_cells(b.as_stones(), Color::Black).is_none());
        let b = board(&["JB", "JC", "JD", "JE", "JF"], &["JG"]);
        let cells = winning_cells(b.as_stones(), Color::Black).unwrap();
        assert_eq!(cells.as_slice(), &[parse_cell("JA").unwrap()]);
        assert_eq!(threat_count(b.as_stones(), Color::Black), 1);
    }
}

#[cfg(test)]
mod brute_force {
    use super::*;
    use crate::rules::board::Board;

    /// Every set of at most two empty cells, `taken` excepted, that hits all threat windows,
    /// by brute force.
    fn hitting_sets(
        board: &Stones,
        attacker: Color,
        taken: &[Cell],
    ) -> (Vec<Cell>, Vec<(Cell, Cell)>) {
        let windows: Vec<usize> = windows_in(board.threat_windows(attacker)).collect();
        let empties: Vec<Cell> = Cell::all()
            .filter(|&c| board.is_empty(c) && !taken.contains(&c))
            .collect();
        let hits = |cells: &[Cell]| {
            windows
                .iter()
                .all(|&w| cells.iter().any(|&c| contains(w, c)))
        };
        let singles: Vec<Cell> = empties.iter().copied().filter(|&c| hits(&[c])).collect();
        let mut pairs = Vec::new();
        for (i, &a) in empties.iter().enumerate() {
            for &b in &empties[i + 1..] {
                if !singles.contains(&a) && !singles.contains(&b) && hits(&[a, b]) {
                    pairs.push((a, b));
                }
            }
        }
        (singles, pairs)
    }

    /// 1, 2, or 3 (three or more) as the brute-force sets say.
    fn fewest(singles: &[Cell], pairs: &[(Cell, Cell)]) -> usize {
        if !singles.is_empty() {
            1
        } else if !pairs.is_empty() {
            2
        } else {
            3
        }
    }

    #[test]
    fn blocks_match_brute_force_on_random_boards() {
        let mut rng = crate::rng::Rng::new(99);
        let mut checked = 0;
        for _ in 0..400 {
            let mut b = Board::new();
            // Dense stones in a small square make many overlapping threat windows.
            let stones = 10 + rng.below(30);
            for i in 0..stones {
                let c = Cell::new(5 + rng.below(9), 5 + rng.below(9)).unwrap();
                if b.is_empty(c) {
                    b.place(
                        c,
                        if i % 3 == 0 {
                            Color::White
                        } else {
                            Color::Black
                        },
                    );
                }
            }
            if b.has_six(Color::Black) || !b.has_threat_window(Color::Black) {
                continue;
            }
            let found = blocks(b.as_stones(), Color::Black);
            let (singles, pairs) = hitting_sets(b.as_stones(), Color::Black, &[]);
            let mut got_singles = found.singles.to_vec();
            got_singles.sort();
            assert_eq!(got_singles, singles, "\n{}", b.render());
            let needed = fewest(&singles, &pairs);
            assert_eq!(found.needed, needed, "\n{}", b.render());
            // The count alone, and with a cell of the threats taken as if a stone stood there.
            let windows: Vec<u16> = windows_in(b.as_stones().threat_windows(Color::Black))
                .map(|w| w as u16)
                .collect();
            if windows.len() <= MAX_TRACKED {
                assert_eq!(stones_to_stop(b.as_stones(), &windows, &[]), needed);
                let empty: Vec<Cell> = empties(b.as_stones(), windows[0] as usize).collect();
                let taken = [empty[rng.below(empty.len())]];
                let (singles, pairs) = hitting_sets(b.as_stones(), Color::Black, &taken);
                assert_eq!(
                    stones_to_stop(b.as_stones(), &windows, &taken),
                    fewest(&singles, &pairs),
                    "taken {}\n{}",
                    taken[0],
                    b.render()
                );
            }
            if needed == 2 {
                let mut got = found.pairs.to_vec();
                got.sort();
                assert_eq!(got, pairs, "\n{}", b.render());
            }
            checked += 1;
        }
        assert!(checked > 50, "only {checked} boards had threats");
    }
}

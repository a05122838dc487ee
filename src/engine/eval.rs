//! Static evaluation for the side to move: line-pattern counts, the six-cell windows each
//! side holds alone and, on top of them, one learned term by `--eval`: the cell values (the
//! default) or the cell network over the empty cells' codes (`cell_eval`, `cells.bin` and
//! `net.bin`). The board keeps the sums both need; both are fitted by `connect6 tune eval`
//! on top of the other two terms.

use crate::engine::cell_eval::{self, CellModel};
use crate::engine::tunables::{TO_MOVE_PATTERN, TO_MOVE_WINDOW, WAITING_PATTERN, WAITING_WINDOW};
use crate::rules::board::{Board, Color, THREAT_STONES};
use crate::rules::cells::{CellSum, CellValues};
use crate::rules::coord::Cell;
use crate::rules::geometry::WINDOW;
use crate::rules::patterns::PATTERN_COUNT;
use once_cell::sync::OnceCell;
use std::sync::atomic::{AtomicU8, Ordering};

/// Scores beyond this are wins or losses found by search, not evaluations.
pub const WIN: i32 = 1_000_000;
pub const WIN_BOUND: i32 = WIN - 1000;

/// Which evaluation the search uses.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum Evaluation {
    /// Pattern and window weights only (`tunables::TO_MOVE_PATTERN` and the rest).
    Hand,
    /// Pattern and window weights plus a value per cell code of each empty cell, for each
    /// colour: what a stone there would make along its four lines at once.
    Cells,
    /// Pattern and window weights plus a small network over the same cell codes
    /// (`cell_eval`).
    Net,
}

/// The engine's default, as the command line's (`ModelArgs`).
static CHOSEN: AtomicU8 = AtomicU8::new(Evaluation::Cells as u8);
/// The cell values and the cell network: the embedded files', unless `install_cells` came
/// first.
static CELLS: OnceCell<CellModel> = OnceCell::new();
static NET: OnceCell<CellModel> = OnceCell::new();

fn cell_model(evaluation: Evaluation) -> Option<&'static CellModel> {
    let embedded = |bytes: &[u8]| {
        cell_eval::decode(bytes).expect("the embedded cell-evaluation files are checked by a test")
    };
    match evaluation {
        Evaluation::Cells => Some(CELLS.get_or_init(|| embedded(include_bytes!("cells.bin")))),
        Evaluation::Net => Some(NET.get_or_init(|| embedded(include_bytes!("net.bin")))),
        Evaluation::Hand => None,
    }
}

/// Makes `model` the cell evaluation of its kind (`Cells` or `Net`) in place of the
/// embedded one; refused once that evaluation has been read.
pub fn install_cells(evaluation: Evaluation, model: CellModel) -> Result<(), String> {
    match evaluation {
        Evaluation::Cells => &CELLS,
        Evaluation::Net => &NET,
        Evaluation::Hand => {
            return Err(format!("{evaluation:?} has no cell model"));
        }
    }
    .set(model)
    .map_err(|_| "the cell evaluation is already in use".to_string())
}

/// Makes `evaluation` the one searches use from now on; called once at start-up.
pub fn choose(evaluation: Evaluation) {
    CHOSEN.store(evaluation as u8, Ordering::Relaxed);
    let _ = cell_values(evaluation);
}

/// The chosen evaluation.
pub fn chosen() -> Evaluation {
    let chosen = CHOSEN.load(Ordering::Relaxed);
    [Evaluation::Cells, Evaluation::Net]
        .into_iter()
        .find(|&e| e as u8 == chosen)
        .unwrap_or(Evaluation::Hand)
}

/// The cell values a search's board sums for `evaluation` (the cell evaluations' tables).
pub fn cell_values(evaluation: Evaluation) -> Option<&'static CellValues> {
    cell_model(evaluation).map(|m| &*m.values)
}

/// The cell term for sums of the table `values` (a board's): the network reads its own
/// table's sums, and any other table's (the cell values', a test's) are plain values.
#[inline]
fn cell_term(values: Option<&'static CellValues>, mover: &CellSum, waiting: &CellSum) -> i32 {
    match (values, NET.get()) {
        (Some(values), Some(net)) if std::ptr::eq(values, &*net.values) => {
            net.score(mover, waiting)
        }
        _ => cell_eval::sum_score(mover, waiting),
    }
}

/// Evaluation of a quiet position for `me`, the side to move.
pub fn evaluate(board: &Board, me: Color) -> i32 {
    let them = me.other();
    pattern_term(board.pattern_counts(me), board.pattern_counts(them))
        + window_term(
            board.as_stones().pure_windows(me),
            board.as_stones().pure_windows(them),
        )
        + cell_term(
            board.cell_values(),
            board.cell_value_sums(me),
            board.cell_value_sums(them),
        )
}

/// `evaluate` for the side to move after `color` places stones on the empty cells `a` and
/// `b` (the whole turn), read without placing them; `None` when the turn makes a threat
/// window or a six for `color`, and the position after it is not quiet. `color` must hold
/// no threat window before.
pub fn evaluate_after(board: &Board, a: Cell, b: Cell, color: Color) -> Option<i32> {
    let (mover, waiting) = (color.other(), color);
    let windows = window_term(
        board.as_stones().pure_windows(mover),
        board.as_stones().pure_windows(waiting),
    ) + board
        .as_stones()
        .sum_windows_after(a, b, color, window_change)?;
    let after = board.lines_after(a, b, color);
    let (m, w) = (mover.index(), waiting.index());
    let score = pattern_term(&after.counts[m], &after.counts[w])
        + windows
        + cell_term(
            board.cell_values(),
            &after.cell_sums[m],
            &after.cell_sums[w],
        );
    #[cfg(debug_assertions)]
    if crate::rules::board::debug_sample() {
        let mut placed = board.clone();
        placed.place(a, color);
        placed.place(b, color);
        assert_eq!(score, evaluate(&placed, mover), "{a} {b} after {color}");
    }
    Some(score)
}

/// What `added` stones of the waiting side in a window holding `mine` of its own and
/// `theirs` of the side to move's change in `window_term`; `None` when they make the
/// window a threat.
#[inline]
fn window_change(mine: u8, theirs: u8, added: u8) -> Option<i32> {
    let (mine, theirs) = (mine as usize, theirs as usize);
    if theirs == 0 {
        let now = mine + added as usize;
        if now >= THREAT_STONES as usize {
            return None;
        }
        // A window with no stone is in no pure-window count, whatever the table's first
        // entry says.
        let before = if mine == 0 { 0 } else { WAITING_WINDOW[mine] };
        Some(before - WAITING_WINDOW[now])
    } else if mine == 0 {
        // The mover's window is spoilt.
        Some(-TO_MOVE_WINDOW[theirs])
    } else {
        Some(0)
    }
}

/// The patterns' part of the evaluation, from the pattern counts of the side to move and of
/// the waiting side.
fn pattern_term(mine: &[u16; PATTERN_COUNT], theirs: &[u16; PATTERN_COUNT]) -> i32 {
    (0..PATTERN_COUNT)
        .map(|p| TO_MOVE_PATTERN[p] * mine[p] as i32 - WAITING_PATTERN[p] * theirs[p] as i32)
        .sum()
}

/// The windows' part of the evaluation, from the pure-window counts (`Stones::pure_windows`)
/// of the side to move and of the waiting side.
pub fn window_term(mine: &[u16; WINDOW + 1], theirs: &[u16; WINDOW + 1]) -> i32 {
    (0..=WINDOW)
        .map(|k| TO_MOVE_WINDOW[k] * mine[k] as i32 - WAITING_WINDOW[k] * theirs[k] as i32)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::coord::{Cell, parse_cell};

    /// The board's pattern counts and the evaluation of a turn read without placing it
    /// agree with placing it, on random dense boards, with the hand evaluation, random cell
    /// values and the network's table (whose sums the board keeps; debug builds also check
    /// them against a recount as stones come and go).
    #[test]
    fn counts_and_score_after_a_turn_match_the_placed_turn() {
        let mut rng = crate::rng::Rng::new(7);
        // Cell values with no pattern to them: any code counted wrongly shows.
        let noisy_cells: &'static CellValues = Box::leak({
            let mut values = crate::rules::cells::zero_cell_values();
            for v in values.iter_mut() {
                v[0][0] = rng.below(200) as i16 - 100;
                v[1][0] = rng.below(200) as i16 - 100;
            }
            values
        });
        let mut checked = 0;
        for round in 0..4000 {
            let mut b = Board::new();
            match round % 3 {
                0 => {}
                1 => b.set_cell_values(Some(noisy_cells)),
                _ => b.set_cell_values(cell_values(Evaluation::Net)),
            }
            let (left, top) = (rng.below(12), rng.below(12));
            for i in 0..rng.below(40) {
                let c = Cell::new(left + rng.below(8), top + rng.below(8)).unwrap();
                if b.is_empty(c) {
                    b.place(
                        c,
                        if i % 2 == 0 {
                            Color::White
                        } else {
                            Color::Black
                        },
                    );
                }
            }
            let a = Cell::new(left + rng.below(8), top + rng.below(8)).unwrap();
            let c = Cell::new(left + rng.below(8), top + rng.below(8)).unwrap();
            let color = if round % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            if a == c || !b.is_empty(a) || !b.is_empty(c) || b.has_threat_window(color) {
                continue;
            }
            let counts = b.lines_after(a, c, color).counts;
            let score = evaluate_after(&b, a, c, color);
            let mut placed = b.clone();
            placed.place(a, color);
            placed.place(c, color);
            for side in [Color::Black, Color::White] {
                assert_eq!(
                    counts[side.index()],
                    *placed.pattern_counts(side),
                    "{a} {c}"
                );
            }
            if placed.has_threat_window(color) {
                assert_eq!(score, None, "{a} {c}");
            } else {
                let placed_score = evaluate(&placed, color.other());
                assert_eq!(score, Some(placed_score), "{a} {c}");
                checked += 1;
            }
        }
        assert!(checked > 1300, "{checked}");
    }

    /// A board that sums the network's table evaluates as the hand evaluation plus the
    /// network's head reading the sums, counted here cell by cell.
    #[test]
    fn the_network_reads_the_sums_of_the_empty_cells_codes() {
        use crate::rules::cells::{LANES, cell_code};
        let net = cell_model(Evaluation::Net).unwrap();
        let plain = Board::from_turns("JJ KKLL MMNN OOPP IHGI").unwrap();
        let mut valued = plain.clone();
        valued.set_cell_values(cell_values(Evaluation::Net));
        let mut sums = [[[0i32; LANES]; 2]; 2];
        for c in Cell::all().filter(|&c| plain.is_empty(c)) {
            for (color, sum) in sums.iter_mut().enumerate() {
                let code = cell_code([0, 1, 2, 3].map(|d| plain.line_keys(c, d)[color]));
                let v = &net.values[code as usize];
                for (s, x) in sum.iter_mut().flatten().zip(v.iter().flatten()) {
                    *s += *x as i32;
                }
            }
        }
        let me = plain.side_to_move();
        let term = net.score(&sums[me.index()], &sums[me.other().index()]);
        assert_ne!(term, 0);
        assert_eq!(evaluate(&valued, me), evaluate(&plain, me) + term);
        // And not as plain values: the head is not a sum.
        assert_ne!(
            term,
            cell_eval::sum_score(&sums[me.index()], &sums[me.other().index()])
        );
    }

    #[test]
    fn shapes_count_for_their_owner() {
        let mut b = Board::new();
        for s in ["JJ", "KJ", "LJ"] {
            b.place(parse_cell(s).unwrap(), Color::Black);
        }
        b.place(parse_cell("AA").unwrap(), Color::White);
        assert!(evaluate(&b, Color::Black) > 0);
        assert!(evaluate(&b, Color::White) < 0);
        // The side to move makes more of the same shapes.
        assert!(evaluate(&b, Color::Black) > -evaluate(&b, Color::White));
    }

    #[test]
    fn room_to_grow_counts() {
        // One stone each: the same patterns (none in every direction), but the centre stone
        // lies in 24 open windows and the corner stone in 3.
        let mut b = Board::new();
        b.place(parse_cell("JJ").unwrap(), Color::Black);
        b.place(parse_cell("AA").unwrap(), Color::White);
        assert_eq!(
            b.pattern_counts(Color::Black),
            b.pattern_counts(Color::White)
        );
        assert_eq!(b.as_stones().pure_windows(Color::Black)[1], 24);
        assert_eq!(b.as_stones().pure_windows(Color::White)[1], 3);
        assert!(evaluate(&b, Color::Black) > 0);
        assert!(evaluate(&b, Color::White) < 0);
    }
}

//! Static evaluation for the side to move: line-pattern counts, the six-cell windows each
//! side holds alone and, on top of them unless `--eval hand`, the learned cell values
//! (`cell_eval`): a value for each empty cell's code, summed over the board.
//!
//! The board (`rules`) keeps the facts: patterns, windows and every empty cell's code. What
//! the model makes of the codes is the engine's: an `Evaluator` holds its model's sums and
//! keeps them by the board's hooks (`CodeObserver`) as stones come and go, so that a leaf
//! reads them at once. Models are values (`EvalModel`, shared by `Arc`), not globals: one
//! process can search with two.

use crate::engine::cell_eval::{self, CellValues};
use crate::engine::tunables::{TO_MOVE_PATTERN, TO_MOVE_WINDOW, WAITING_PATTERN, WAITING_WINDOW};
use crate::rules::board::{Board, Color, THREAT_STONES};
use crate::rules::cells::CodeObserver;
use crate::rules::coord::Cell;
use crate::rules::geometry::WINDOW;
use crate::rules::patterns::PATTERN_COUNT;
use std::sync::Arc;

pub mod leaves;

/// Scores beyond this are wins or losses found by search, not evaluations.
pub const WIN: i32 = 1_000_000;
pub const WIN_BOUND: i32 = WIN - 1000;

/// The evaluation's scale in the logistic model P(side to move wins) = sigmoid(K * score):
/// the one that fitted the hand-set tables best on nine tenths of `tests/data/fit-games.txt`,
/// with which the engine's tables were fitted (`tuning::fit`), and by which the score graph
/// maps scores to winning chances (`tools::graph`).
pub const ENGINE_TABLE_K: f64 = 0.005122;

/// Which evaluation the search uses.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum Evaluation {
    /// Pattern and window weights only (`tunables::TO_MOVE_PATTERN` and the rest).
    Hand,
    /// Pattern and window weights plus a value per cell code of each empty cell, for each
    /// colour: what a stone there would make along its four lines at once.
    Cells,
}

/// An evaluation model: the hand-set terms, with the cell values on top or not. Cheap to
/// clone: the table is shared.
#[derive(Clone)]
pub struct EvalModel {
    cells: Option<Arc<CellValues>>,
}

impl EvalModel {
    /// The hand-set terms alone (`--eval hand`).
    pub fn hand() -> EvalModel {
        EvalModel { cells: None }
    }

    /// The hand-set terms and these cell values.
    pub fn cells(values: Box<CellValues>) -> EvalModel {
        EvalModel {
            cells: Some(Arc::from(values)),
        }
    }

    /// The evaluation `kind` with the values embedded in the binary.
    pub fn embedded(kind: Evaluation) -> EvalModel {
        match kind {
            Evaluation::Hand => EvalModel::hand(),
            Evaluation::Cells => EvalModel::cells(
                cell_eval::decode(include_bytes!("cells.bin"))
                    .expect("the embedded cell values are checked by a test"),
            ),
        }
    }

    pub fn kind(&self) -> Evaluation {
        match self.cells {
            Some(_) => Evaluation::Cells,
            None => Evaluation::Hand,
        }
    }
}

/// A model's state on one board: the sums of its cell values over the empty cells, per
/// colour, as the side to move and as waiting. Kept by the board's hooks: hand it to
/// `Board::place_observed` and `remove_observed` (as `engine::position` does).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Evaluator {
    cells: Option<Arc<CellValues>>,
    sums: [[i32; 2]; 2],
}

/// An evaluator's sums at one moment (`Evaluator::sums`).
#[derive(Clone, Copy, Debug)]
pub struct Sums([[i32; 2]; 2]);

impl Evaluator {
    /// `model` on `board`, summed afresh.
    pub fn new(model: &EvalModel, board: &Board) -> Evaluator {
        let mut evaluator = Evaluator {
            cells: model.cells.clone(),
            sums: [[0; 2]; 2],
        };
        for c in Cell::all().filter(|&c| board.is_empty(c)) {
            evaluator.vacated(board.cell_codes(c));
        }
        evaluator
    }

    /// Evaluation of a quiet position for `me`, the side to move.
    pub fn evaluate(&self, board: &Board, me: Color) -> i32 {
        let them = me.other();
        hand_score(board, me) + cell_term(&self.sums[me.index()], &self.sums[them.index()])
    }

    /// The sums as they stand, to `restore` once the stones placed after are taken back.
    #[inline]
    pub fn sums(&self) -> Sums {
        Sums(self.sums)
    }

    /// Puts back sums read by `sums` on the board as it was then.
    #[inline]
    pub fn restore(&mut self, sums: Sums) {
        self.sums = sums.0;
    }

    /// The model this evaluator sums.
    pub fn model(&self) -> EvalModel {
        EvalModel {
            cells: self.cells.clone(),
        }
    }

    /// `values` on `color`'s code `code`, added to `sum` (`sign` 1) or taken away (-1).
    #[inline]
    fn shift(values: &CellValues, sum: &mut [i32; 2], code: u32, sign: i32) {
        let v = &values[code as usize];
        sum[0] += sign * v[0] as i32;
        sum[1] += sign * v[1] as i32;
    }
}

impl CodeObserver for Evaluator {
    #[inline]
    fn code_changed(&mut self, color: usize, old: u32, new: u32) {
        if let Some(values) = &self.cells {
            Self::shift(values, &mut self.sums[color], old, -1);
            Self::shift(values, &mut self.sums[color], new, 1);
        }
    }

    #[inline]
    fn occupied(&mut self, codes: [u32; 2]) {
        if let Some(values) = &self.cells {
            for (sum, code) in self.sums.iter_mut().zip(codes) {
                Self::shift(values, sum, code, -1);
            }
        }
    }

    #[inline]
    fn vacated(&mut self, codes: [u32; 2]) {
        if let Some(values) = &self.cells {
            for (sum, code) in self.sums.iter_mut().zip(codes) {
                Self::shift(values, sum, code, 1);
            }
        }
    }
}

/// The cell term from the mover's sums and the waiting side's: the mover's to-move sum
/// less the waiting side's waiting sum.
#[inline]
fn cell_term(mover: &[i32; 2], waiting: &[i32; 2]) -> i32 {
    mover[0] - waiting[1]
}

/// The hand-set terms of the evaluation for `me`, the side to move: patterns and windows.
pub fn hand_score(board: &Board, me: Color) -> i32 {
    let them = me.other();
    pattern_term(board.pattern_counts(me), board.pattern_counts(them))
        + window_term(
            board.as_stones().pure_windows(me),
            board.as_stones().pure_windows(them),
        )
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
        .map(|p| {
            pattern_weight(true, p) * mine[p] as i32 + pattern_weight(false, p) * theirs[p] as i32
        })
        .sum()
}

/// What one (stone, direction) showing the pattern of index `p` adds to the evaluation: as
/// the side to move's (`to_move`), or as the waiting side's, taken away.
#[inline]
fn pattern_weight(to_move: bool, p: usize) -> i32 {
    if to_move {
        TO_MOVE_PATTERN[p]
    } else {
        -WAITING_PATTERN[p]
    }
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

    /// Cell values with no pattern to them: any code counted wrongly shows.
    pub(super) fn noisy_cells(seed: u64) -> EvalModel {
        let mut rng = crate::rng::Rng::new(seed);
        let mut values = cell_eval::zero_cell_values();
        for v in values.iter_mut() {
            *v = [rng.below(200) as i16 - 100, rng.below(200) as i16 - 100];
        }
        EvalModel::cells(values)
    }

    /// The evaluator's sums follow the board's hooks: after places and removes they equal
    /// a fresh sum, and the cell term is the hand evaluation's difference, the values
    /// counted here cell by cell.
    #[test]
    fn the_cell_term_sums_the_empty_cells_values() {
        use crate::rules::cells::cell_code;
        let model = noisy_cells(9);
        let mut board = Board::from_turns("JJ KKLL MMNN OOPP").unwrap();
        let mut evaluator = Evaluator::new(&model, &board);
        for (cell, color) in [
            ("IH", Color::White),
            ("GI", Color::White),
            ("KL", Color::Black),
        ] {
            board.place_observed(parse_cell(cell).unwrap(), color, &mut evaluator);
        }
        board.remove_observed(parse_cell("GI").unwrap(), &mut evaluator);
        assert_eq!(evaluator, Evaluator::new(&model, &board));
        let table = model.cells.as_deref().unwrap();
        let mut sums = [[0i32; 2]; 2];
        for c in Cell::all().filter(|&c| board.is_empty(c)) {
            for (color, sum) in sums.iter_mut().enumerate() {
                let code = cell_code([0, 1, 2, 3].map(|d| board.line_keys(c, d)[color]));
                sum[0] += table[code as usize][0] as i32;
                sum[1] += table[code as usize][1] as i32;
            }
        }
        let me = board.side_to_move();
        let term = sums[me.index()][0] - sums[me.other().index()][1];
        assert_ne!(term, 0);
        assert_eq!(
            evaluator.evaluate(&board, me),
            hand_score(&board, me) + term
        );
        let hand = Evaluator::new(&EvalModel::hand(), &board);
        assert_eq!(hand.evaluate(&board, me), hand_score(&board, me));
    }

    #[test]
    fn shapes_count_for_their_owner() {
        let mut b = Board::new();
        for s in ["JJ", "KJ", "LJ"] {
            b.place(parse_cell(s).unwrap(), Color::Black);
        }
        b.place(parse_cell("AA").unwrap(), Color::White);
        let e = Evaluator::new(&EvalModel::embedded(Evaluation::Cells), &b);
        assert!(e.evaluate(&b, Color::Black) > 0);
        assert!(e.evaluate(&b, Color::White) < 0);
        // The side to move makes more of the same shapes.
        assert!(e.evaluate(&b, Color::Black) > -e.evaluate(&b, Color::White));
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
        assert!(hand_score(&b, Color::Black) > 0);
        assert!(hand_score(&b, Color::White) < 0);
    }
}

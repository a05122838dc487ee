//! The search's position: the board (the game's facts) and the evaluator's state on it (what
//! the model makes of them), moved together, so a stone placed is a stone the evaluation has
//! seen. Reading the board goes through `Deref`; changing it only through `place` and
//! `remove`, or `with_board` for stones a reader takes back at once.
//!
//! The search takes its stones back in the order opposite to placing them (`remove_turn`
//! takes a turn's second stone first): each stone is placed through an undo log, with the
//! evaluator's sums beside it, and taken back by putting back what it changed
//! (`rules::board::undo`). A stone taken back out of that order is read afresh.

use crate::engine::eval::leaves::Leaves;
use crate::engine::eval::{EvalModel, Evaluator, Sums};
use crate::rules::board::undo::UndoLog;
use crate::rules::board::{Board, Color, PlaceTurn};
use crate::rules::coord::Cell;
use std::ops::Deref;

#[derive(Clone)]
pub struct Position {
    board: Board,
    evaluator: Evaluator,
    /// The stones placed since, with the sums before each (a clone starts it afresh).
    undo: UndoLog<Sums>,
}

impl Position {
    /// `board` evaluated by `model`.
    pub fn new(mut board: Board, model: &EvalModel) -> Position {
        board.keep_undo();
        let evaluator = Evaluator::new(model, &board);
        Position {
            board,
            evaluator,
            undo: UndoLog::new(),
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Evaluation of this quiet position for the side to move (`Evaluator::evaluate`).
    #[inline]
    pub fn evaluate(&self) -> i32 {
        self.evaluator
            .evaluate(&self.board, self.board.side_to_move())
    }

    /// The evaluations after turns of `color` read without placing them, for many turns
    /// of this position (`Leaves`: each stone's lines are read once).
    #[inline]
    pub fn leaves(&self, color: Color) -> Leaves<'_> {
        Leaves::new(&self.evaluator, &self.board, color)
    }

    /// Runs `f` on the board alone, for stones it places and takes back before it returns
    /// (the threat checks' trial stones): the evaluator need not see them.
    pub fn with_board<R>(&mut self, f: impl FnOnce(&mut Board) -> R) -> R {
        let before = self.board.hash();
        let out = f(&mut self.board);
        assert_eq!(
            self.board.hash(),
            before,
            "a reader left stones on the board"
        );
        out
    }

    /// Debug builds: the evaluator's sums must equal a fresh sum.
    #[cfg(debug_assertions)]
    fn check(&self) {
        if crate::rules::board::debug_sample() {
            let fresh = Evaluator::new(&self.evaluator.model(), &self.board);
            assert_eq!(self.evaluator, fresh, "the evaluator's sums drifted");
        }
    }
}

impl Deref for Position {
    type Target = Board;

    #[inline]
    fn deref(&self) -> &Board {
        &self.board
    }
}

impl PlaceTurn for Position {
    #[inline]
    fn place(&mut self, c: Cell, color: Color) {
        let sums = self.evaluator.sums();
        self.board
            .place_logged(c, color, &mut self.evaluator, &mut self.undo, sums);
        #[cfg(debug_assertions)]
        self.check();
    }

    #[inline]
    fn remove(&mut self, c: Cell) {
        if let Some(sums) = self
            .board
            .remove_logged(c, &mut self.evaluator, &mut self.undo)
        {
            self.evaluator.restore(sums);
        }
        #[cfg(debug_assertions)]
        self.check();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::Evaluation;
    use crate::rules::coord::parse_cell;

    /// Stones placed and removed through the position keep its evaluation that of a fresh
    /// position on the same stones.
    #[test]
    fn the_evaluation_follows_the_stones() {
        let model = EvalModel::embedded(Evaluation::Cells);
        let mut pos = Position::new(Board::from_turns("JJ KKKJ").unwrap(), &model);
        let start = pos.evaluate();
        let turns = [("IIIH", Color::White), ("LLLM", Color::Black)];
        for (turn, color) in turns {
            let turn = crate::rules::coord::Turn::parse(turn).unwrap();
            pos.place_turn(&turn, color);
        }
        let fresh = Position::new(pos.board().clone(), &model);
        assert_eq!(pos.evaluate(), fresh.evaluate());
        assert_ne!(pos.evaluate(), start);
        for (turn, _) in turns.iter().rev() {
            pos.remove_turn(&crate::rules::coord::Turn::parse(turn).unwrap());
        }
        assert_eq!(pos.evaluate(), start);
        // A reader's trial stone is taken back before the evaluation is read.
        let c = parse_cell("AA").unwrap();
        pos.with_board(|b| {
            b.place(c, Color::White);
            b.remove(c);
        });
        assert_eq!(pos.evaluate(), start);
    }
}

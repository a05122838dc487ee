//! Which turns a node searches, and in what order.

use super::Searcher;
use crate::engine::eval::evaluate_after;
use crate::engine::pairs::Pairs;
use crate::rules::board::{Board, Color, windows_in};
use crate::rules::coord::{CELLS, Turn};
use crate::rules::geometry::GEOMETRY;

impl Searcher {
    /// One turn from the horizon: reads every turn from `from` on that leads to a quiet
    /// leaf, drops them from `moves` and returns the best (its value in the score slot; the
    /// first of equals). The others cannot score more, and need no search.
    pub(super) fn best_quiet_leaf(
        &mut self,
        board: &Board,
        moves: &mut Pairs,
        from: usize,
        me: Color,
        forced: bool,
    ) -> Option<(i32, Turn)> {
        let mut best: Option<(i32, Turn)> = None;
        let mut j = from;
        while j < moves.len() {
            let turn = moves[j].1;
            let Some(value) = quiet_leaf(board, &turn, me, forced) else {
                j += 1;
                continue;
            };
            self.count_leaf();
            if best.is_none_or(|(b, _)| value > b) {
                best = Some((value, turn));
            }
            moves.remove(j);
        }
        best
    }

    /// This ply's killers first among the turns from `from` on, then the generator's order.
    pub(super) fn order(&self, moves: &mut Pairs, from: usize, ply: usize) {
        let mut front = from;
        for t in self.killers[ply].iter().flatten() {
            if let Some(i) = moves[front..].iter().position(|(_, m)| m == t) {
                moves[front..=front + i].rotate_right(1);
                front += 1;
            }
        }
    }
}

/// The score for the side to move of `turn` when it leads to a quiet leaf: it makes no
/// threat, and it blocks every threat of the opponent's (`forced`: there are some). The
/// leaf's evaluation is read without placing the turn. `None` for other turns.
pub(super) fn quiet_leaf(board: &Board, turn: &Turn, me: Color, forced: bool) -> Option<i32> {
    let mut cells = turn.cells();
    let (a, b) = (cells.next()?, cells.next()?);
    // A board filled by the turn is a draw, not an evaluation.
    if board.stone_total() + 2 >= CELLS {
        return None;
    }
    if forced {
        let cells = &GEOMETRY.window_cells;
        let blocked = |w: usize| cells[w].contains(&a) || cells[w].contains(&b);
        if !windows_in(board.as_stones().threat_windows(me.other())).all(blocked) {
            return None;
        }
    }
    evaluate_after(board, a, b, me).map(|v| -v)
}

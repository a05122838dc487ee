//! The tree below the root: negamax with principal variation search, the transposition
//! table, late move reductions and extensions where the side to move must block. The turns
//! come from a `MovePicker`, in its order.

use super::Searcher;
use super::movepick::{MovePicker, Next, Node, Picked};
use super::tt::Bound;
use crate::engine::eval::{WIN, WIN_BOUND};
use crate::engine::position::Position;
use crate::engine::tunables::{
    LMR_LATE_TURN, LMR_LATER_MIN_DEPTH, LMR_LATER_TURN, LMR_MIN_DEPTH, LMR_REDUCTION,
    MAX_FORCED_EXTENSION, MAX_PLY,
};
use crate::rules::coord::Turn;
use crate::rules::stones::PlaceTurn;
use std::ops::ControlFlow;

fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score + ply as i32
    } else if score < -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score - ply as i32
    } else if score < -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl Searcher {
    /// The score of `board` for the side to move, searched `depth` turns deep in the window
    /// (`alpha`, `beta`), `ply` turns below the root: settled without a turn if it can be,
    /// else cut off by the table, else its turns tried in the picker's order.
    pub(super) fn negamax(
        &mut self,
        board: &mut Position,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        let me = board.side_to_move();
        let (depth, forced) = match self.settle(board, depth, ply) {
            ControlFlow::Break(score) => return score,
            ControlFlow::Continue(searched) => searched,
        };
        let key = board.hash();
        let table_turn = match self.probe(key, depth, ply, alpha, beta) {
            ControlFlow::Break(score) => return score,
            ControlFlow::Continue(turn) => turn.filter(|t| board.check_turn(t).is_ok()),
        };
        let node = Node {
            depth,
            ply,
            me,
            forced,
            beta,
        };
        let original_alpha = alpha;
        let mut best = -WIN - 1;
        let mut best_turn = None;
        let mut picker = MovePicker::new(node, table_turn);
        loop {
            let Picked { turn, index, leaf } = match picker.next(self, board) {
                Next::Turn(picked) => picked,
                Next::Done => break,
                Next::Decided(score) => return score,
                Next::Stopped => return 0,
            };
            let score = match leaf {
                Some(value) => value,
                None => {
                    board.place_turn(&turn, me);
                    let score = self.search_turn(board, node, index, alpha, beta);
                    board.remove_turn(&turn);
                    score
                }
            };
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_turn = Some(turn);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        self.remember_killer(turn, ply);
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            depth.max(0) as u8,
            score_to_tt(best, ply),
            bound,
            best_turn,
        );
        best
    }

    /// The node's score when it is decided before any turn is tried: the opponent's six, a
    /// full board, a six the side to move completes at once, or the horizon of a position
    /// that need not block. Else the depth to search it to and whether it must block.
    #[inline]
    fn settle(&self, board: &Position, depth: i32, ply: usize) -> ControlFlow<i32, (i32, bool)> {
        let me = board.side_to_move();
        let opp = me.other();
        if board.has_six(opp) {
            return ControlFlow::Break(-(WIN - ply as i32));
        }
        if board.is_full() {
            return ControlFlow::Break(0);
        }
        if board.has_threat_window(me) {
            return ControlFlow::Break(WIN - ply as i32);
        }
        let forced = board.has_threat_window(opp);
        let mut depth = depth;
        if depth <= 0 {
            // At the horizon a position where the mover must block is not quiet: look one
            // turn further while extensions last.
            let extension_room = ply < self.iteration as usize + MAX_FORCED_EXTENSION;
            if !forced || !extension_room || ply + 1 >= MAX_PLY {
                return ControlFlow::Break(board.evaluate());
            }
            depth = 1;
        }
        ControlFlow::Continue((depth, forced))
    }

    /// The table's score for the node when its entry is deep enough to decide it
    /// (`Break`), else the turn it holds, to try first.
    fn probe(
        &self,
        key: u64,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> ControlFlow<i32, Option<Turn>> {
        let Some(hit) = self.tt.probe(key) else {
            return ControlFlow::Continue(None);
        };
        if hit.depth as i32 >= depth {
            let s = score_from_tt(hit.score, ply);
            let cut = match hit.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut {
                return ControlFlow::Break(s);
            }
        }
        ControlFlow::Continue(hit.turn)
    }

    /// The score of the node's turn number `index`, already placed on `board`: the first
    /// with the full window, the others with a null window first, and searched again with
    /// the full one when they beat alpha.
    #[inline]
    fn search_turn(
        &mut self,
        board: &mut Position,
        node: Node,
        index: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let (depth, ply) = (node.depth, node.ply);
        if index == 0 {
            return -self.negamax(board, depth - 1, ply + 1, -beta, -alpha);
        }
        // A late, quiet turn is first searched shallower: the generator's order puts the
        // turns that matter early, and one that still beats alpha is searched again at full
        // depth. Turns that threaten (the reply is forced) are not reduced, nor any turn in
        // a position that must block.
        let reduce = depth >= LMR_MIN_DEPTH
            && index >= LMR_LATE_TURN
            && !node.forced
            && !board.has_threat_window(node.me);
        // An unreduced turn goes straight to the full-depth null-window search.
        let mut s = alpha + 1;
        if reduce {
            let deeper = index >= LMR_LATER_TURN && depth >= LMR_LATER_MIN_DEPTH;
            let reduced = depth - 1 - LMR_REDUCTION - deeper as i32;
            s = -self.negamax(board, reduced, ply + 1, -alpha - 1, -alpha);
        }
        if s > alpha && !self.stopped {
            s = -self.negamax(board, depth - 1, ply + 1, -alpha - 1, -alpha);
        }
        if s > alpha && s < beta && !self.stopped {
            s = -self.negamax(board, depth - 1, ply + 1, -beta, -alpha);
        }
        s
    }

    fn remember_killer(&mut self, turn: Turn, ply: usize) {
        let k = &mut self.killers[ply];
        if k[0] != Some(turn) {
            k[1] = k[0];
            k[0] = Some(turn);
        }
    }
}

//! The tree below the root: negamax with principal variation search, the transposition
//! table, late move reductions and extensions where the side to move must block.

use super::Searcher;
use super::movepick::quiet_leaf;
use super::tt::Bound;
use crate::engine::eval::{WIN, WIN_BOUND, evaluate};
use crate::engine::pairs::{Pairs, Situation, generate};
use crate::engine::tunables::{
    FRONTIER_PAIRS, LMR_LATE_TURN, LMR_LATER_MIN_DEPTH, LMR_LATER_TURN, LMR_MIN_DEPTH,
    LMR_REDUCTION, MAX_FORCED_EXTENSION, MAX_PAIRS, MAX_PLY,
};
use crate::rules::board::Board;
use crate::rules::coord::Turn;
use crate::rules::stones::PlaceTurn;

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
    pub(super) fn negamax(
        &mut self,
        board: &mut Board,
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
        let opp = me.other();
        if board.has_six(opp) {
            return -(WIN - ply as i32);
        }
        if board.is_full() {
            return 0;
        }
        if board.has_threat_window(me) {
            return WIN - ply as i32;
        }
        let forced = board.has_threat_window(opp);
        let mut depth = depth;
        if depth <= 0 {
            // At the horizon a position where the mover must block is not quiet: look one
            // turn further while extensions last.
            let extension_room = ply < self.iteration as usize + MAX_FORCED_EXTENSION;
            if !forced || !extension_room || ply + 1 >= MAX_PLY {
                return evaluate(board, me);
            }
            depth = 1;
        }
        let key = board.hash();
        let mut tt_turn = None;
        if let Some(hit) = self.tt.probe(key) {
            tt_turn = hit.turn;
            if hit.depth as i32 >= depth {
                let s = score_from_tt(hit.score, ply);
                let cut = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }
        let original_alpha = alpha;
        // One turn from the horizon, a turn that makes no threat and leaves the opponent
        // none leads to a leaf that is only evaluated.
        let frontier = depth == 1;
        let mut best = -WIN - 1;
        let mut best_turn = None;
        // The table's turn is tried before generating the rest: a cutoff from it saves the
        // generator's work altogether.
        let tt_turn = tt_turn.filter(|t| board.check_turn(t).is_ok());
        let mut moves = Pairs::new();
        moves.extend(tt_turn.map(|t| (0, t)));
        let mut generated = false;
        let mut best_quiet = None;
        let mut i = 0;
        loop {
            if i == moves.len() {
                if generated {
                    break;
                }
                generated = true;
                let width = if depth <= 1 {
                    FRONTIER_PAIRS
                } else {
                    MAX_PAIRS
                };
                let first = moves.pop();
                match generate(board, &mut moves, width) {
                    Situation::Win => return WIN - ply as i32,
                    Situation::Lost => return -(WIN - ply as i32 - 1),
                    Situation::Forced | Situation::Quiet => {}
                }
                if let Some(done) = first {
                    moves.retain(|(_, t)| *t != done.1);
                    moves.insert(0, done);
                }
                self.order(&mut moves, i, ply);
                if frontier {
                    // Every quiet leaf is read at once, cheaply, and only the best stays, first:
                    // it may cut off before any turn that threatens is searched.
                    best_quiet = self.best_quiet_leaf(board, &mut moves, i, me, forced);
                    if self.stopped {
                        return 0;
                    }
                    if let Some(pair) = best_quiet {
                        moves.insert(i, pair);
                    }
                }
                if i == moves.len() {
                    break;
                }
            }
            let turn = moves[i].1;
            let leaf = if !frontier {
                None
            } else if generated {
                // The best quiet leaf, already counted; other generated turns threaten.
                best_quiet
                    .filter(|&(_, t)| t == turn)
                    .map(|(value, _)| value)
            } else {
                let value = quiet_leaf(board, &turn, me, forced);
                if value.is_some() {
                    self.count_leaf();
                }
                value
            };
            let score = if let Some(value) = leaf {
                value
            } else if i == 0 {
                board.place_turn(&turn, me);
                -self.negamax(board, depth - 1, ply + 1, -beta, -alpha)
            } else {
                board.place_turn(&turn, me);
                // A late, quiet turn is first searched shallower: the generator's order puts
                // the turns that matter early, and one that still beats alpha is searched
                // again at full depth. Turns that threaten (the reply is forced) are not
                // reduced, nor any turn in a position that must block.
                let reduce = depth >= LMR_MIN_DEPTH
                    && i >= LMR_LATE_TURN
                    && !forced
                    && !board.has_threat_window(me);
                // An unreduced turn goes straight to the full-depth null-window search.
                let mut s = alpha + 1;
                if reduce {
                    let deeper = i >= LMR_LATER_TURN && depth >= LMR_LATER_MIN_DEPTH;
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
            };
            if leaf.is_none() {
                board.remove_turn(&turn);
            }
            if self.stopped {
                return 0;
            }
            i += 1;
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

    pub(super) fn remember_killer(&mut self, turn: Turn, ply: usize) {
        let k = &mut self.killers[ply];
        if k[0] != Some(turn) {
            k[1] = k[0];
            k[0] = Some(turn);
        }
    }
}

//! The root of the search: our own threat sequences, the opponent's kept out of reach,
//! iterative deepening over the root turns, and the safety check of the turn chosen (the
//! threat phases themselves are in `threat_checks`).

use super::time::FALLING_SCORE;
use super::{Report, Searcher, smp};
use crate::engine::eval::{WIN, WIN_BOUND};
use crate::engine::pairs::{Pairs, Situation};
use crate::engine::position::Position;
use crate::engine::solver::defence::{self, Guard};
use crate::engine::tunables::{ASPIRATION_WINDOW, SAFETY_TIME_SHARE};
use crate::rules::coord::Turn;
use crate::rules::stones::PlaceTurn;
use arrayvec::ArrayVec;
use std::time::Instant;

impl Searcher {
    /// The line the search expects from `board` on: `best`, then the table's best turn in
    /// each position after it, while that turn is legal and the game goes on, `depth` turns
    /// at most. For the log; the board is left as it was.
    pub(super) fn principal_variation(
        &self,
        board: &mut Position,
        best: Turn,
        depth: u8,
    ) -> ArrayVec<Turn, 32> {
        let mut line = ArrayVec::<Turn, 32>::new();
        let mut next = Some(best);
        while let Some(turn) = next
            && line.len() < (depth as usize).min(line.capacity())
            && !board.is_over()
            && board.check_turn(&turn).is_ok()
        {
            board.place_turn(&turn, board.side_to_move());
            line.push(turn);
            next = self.tt.probe(board.hash()).and_then(|hit| hit.turn);
        }
        for turn in line.iter().rev() {
            board.remove_turn(turn);
        }
        line
    }

    /// A position with a choice: our own threat sequence first, then the opponent's kept out
    /// of reach, then the main search over what survives.
    pub(super) fn think(
        &mut self,
        board: &mut Position,
        root: &mut Pairs,
        situation: Situation,
        report: &mut Report,
    ) {
        let crew = self.start_helpers(board, root);
        let threats_began = Instant::now();
        if let Some(win) = self.own_threats(board) {
            report.best = win;
            report.score = WIN_BOUND + 1;
            report.threat_time = threats_began.elapsed();
            if let Some(crew) = crew {
                self.stop_helpers(crew);
            }
            return;
        }
        let share = self
            .limits
            .soft
            .min(self.limits.hard)
            .mul_f64(SAFETY_TIME_SHARE);
        let deadline = Instant::now().checked_add(share);
        let (solver, worth) = (&mut self.solver, &self.models.ranking);
        let guard =
            board.with_board(|b| defence::guard(solver, worth, b, root, situation, deadline));
        report.threat_time = threats_began.elapsed();
        report.best = root[0].1;
        let check_nodes = self.plan_the_check(&guard, root);
        if root.len() > 1 {
            self.deepen(board, root, report, 1);
        }
        if let Some(crew) = crew
            && let Some(deeper) = self.stop_helpers(crew)
            && deeper.depth > report.depth
            && report.score.abs() <= WIN_BOUND
            && root.iter().any(|&(_, t)| t == deeper.best)
        {
            // A helper completed an iteration the main thread did not: its answer saw
            // further. (Turns the threat check dropped from the root are not taken.)
            log::debug!(
                "helper's depth {} best {} score {} over main's depth {} best {}",
                deeper.depth,
                deeper.best,
                deeper.score,
                report.depth,
                report.best
            );
            report.best = deeper.best;
            report.score = deeper.score;
            report.depth = deeper.depth;
        }
        if let Guard::Checked(verified) = guard {
            let checking_began = Instant::now();
            report.best = self.safe_choice(board, root, &verified, report.best, check_nodes);
            report.threat_time += checking_began.elapsed();
        }
    }

    /// Iterative deepening over the root turns from depth `first` on.
    pub(super) fn deepen(
        &mut self,
        board: &mut Position,
        root: &mut Pairs,
        report: &mut Report,
        first: u8,
    ) {
        self.last_check = Instant::now();
        // Iterations in a row that ended with the same best turn, and the last score.
        let mut stable = 0u32;
        let mut last_score: Option<i32> = None;
        let mut next = first;
        while let Some(depth) = self.iteration_to_start(next, report.depth) {
            self.iteration = depth;
            let done = self.search_root(board, root, depth, stable, last_score);
            // A partial iteration still counts when its first (previous best) move was
            // searched: anything that beat it is a real improvement.
            if let Some(i) = done.best {
                if i == 0 {
                    stable += 1;
                } else {
                    stable = 0;
                }
                report.best = root[i].1;
                report.score = done.alpha;
                let best = root.remove(i);
                root.insert(0, best);
            }
            if self.stopped {
                break;
            }
            report.depth = depth;
            last_score = Some(done.alpha);
            self.completed(board, report, depth);
            if report.score.abs() > WIN_BOUND || self.elapsed_past_soft(stable, done.falling) {
                break;
            }
            next = depth + 1;
        }
    }

    /// The iteration to search after asking for `depth` (a helper skips those the main
    /// thread is on), or `None` past the deepest allowed. Tells the helpers which one the
    /// main thread is on.
    fn iteration_to_start(&self, depth: u8, done: u8) -> Option<u8> {
        let mut depth = depth;
        if depth > self.limits.max_depth {
            return None;
        }
        if let Some(progress) = &self.progress {
            if self.helper {
                depth = depth.max(progress.next_for_helper(done));
                if depth > self.limits.max_depth {
                    return None;
                }
            } else {
                progress.main_on(depth);
            }
        }
        Some(depth)
    }

    /// One iteration over the root turns, in order, the first in a window around the last
    /// iteration's score (`search_first_turn`) and the rest with a null window first. Stores each turn's score in `root`. The soft limit may
    /// end it between two turns: what was searched of it counts.
    fn search_root(
        &mut self,
        board: &mut Position,
        root: &mut Pairs,
        depth: u8,
        stable: u32,
        last_score: Option<i32>,
    ) -> RootIteration {
        let me = board.side_to_move();
        let child = depth as i32 - 1;
        let beta = WIN + 1;
        let mut done = RootIteration {
            best: None,
            alpha: -WIN - 1,
            falling: false,
        };
        for i in 0..root.len() {
            let alpha = done.alpha;
            let turn = root[i].1;
            board.place_turn(&turn, me);
            let score = if i == 0 {
                self.search_first_turn(board, child, beta, last_score)
            } else {
                let mut s = -self.negamax(board, child, 1, -alpha - 1, -alpha);
                if s > alpha && !self.stopped {
                    s = -self.negamax(board, child, 1, -beta, -alpha);
                }
                s
            };
            board.remove_turn(&turn);
            if self.stopped {
                break;
            }
            root[i].0 = score;
            if score > alpha {
                done.alpha = score;
                done.best = Some(i);
            }
            if i == 0 {
                done.falling = last_score.is_some_and(|s| score < s - FALLING_SCORE);
            }
            if self.elapsed_past_soft(stable, done.falling) {
                self.stopped = true;
                break;
            }
        }
        done
    }

    /// The score of the first root turn (last iteration's best), already placed on `board`,
    /// searched `child` turns deep. After a first iteration it is first searched in a window
    /// around the last score: the score rarely moves far from one iteration to the next, and
    /// a narrow window cuts more of the tree below. Outside the window it is searched again
    /// with the root's full window (-`full`, `full`).
    fn search_first_turn(
        &mut self,
        board: &mut Position,
        child: i32,
        full: i32,
        last_score: Option<i32>,
    ) -> i32 {
        if let Some(last) = last_score.filter(|s| s.abs() < WIN_BOUND) {
            let (low, high) = (last - ASPIRATION_WINDOW, last + ASPIRATION_WINDOW);
            let score = -self.negamax(board, child, 1, -high, -low);
            if (low < score && score < high) || self.stopped {
                return score;
            }
        }
        -self.negamax(board, child, 1, -full, full)
    }

    /// A completed iteration: offered to the main thread when a helper did it, and logged.
    fn completed(&self, board: &mut Position, report: &Report, depth: u8) {
        if self.helper
            && let Some(progress) = &self.progress
        {
            progress.completed(smp::Completed {
                depth,
                best: report.best,
                score: report.score,
            });
        }
        if log::log_enabled!(log::Level::Debug) {
            log::debug!(
                "{}depth {depth} score {} best {} nodes {} time {:?} pv{}",
                if self.helper { "helper " } else { "" },
                report.score,
                report.best,
                self.nodes,
                self.start.elapsed(),
                self.principal_variation(board, report.best, depth)
                    .iter()
                    .fold(String::new(), |line, t| format!("{line} {t}"))
            );
        }
    }
}

/// What an iteration over the root turns found.
struct RootIteration {
    /// The root turn that raised alpha last, if any was searched to the end.
    best: Option<usize>,
    alpha: i32,
    /// The first turn's score fell well below the last iteration's.
    falling: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::pairs::generate;
    use crate::engine::tunables::ROOT_PAIRS;
    use crate::rules::board::Board;
    use std::sync::Arc;

    /// The score of the generator's first turn in a quiet middle game, searched two turns
    /// deep by a fresh searcher as the root's first turn after an iteration that scored
    /// `last` (`None`: the first iteration).
    fn first_turn_score(last: Option<i32>) -> i32 {
        let mut searcher = Searcher::new(1);
        searcher.iteration = 3;
        let board = Board::from_turns("JJ KKKJ IIHH LLML").unwrap();
        let me = board.side_to_move();
        let mut position = Position::new(board, &searcher.models.eval);
        let mut root = Pairs::new();
        let worth = Arc::clone(&searcher.models.ranking);
        generate(&worth, &position, &mut root, ROOT_PAIRS);
        position.place_turn(&root[0].1, me);
        searcher.search_first_turn(&mut position, 2, WIN + 1, last)
    }

    #[test]
    fn the_first_root_turn_keeps_its_exact_score_wherever_the_last_one_was() {
        let exact = first_turn_score(None);
        assert!(exact.abs() < WIN_BOUND, "{exact}");
        // Within the window the narrow search is exact; outside it, above or below, the
        // full window's search again gives the same score.
        for shift in [
            -1000,
            -3 * ASPIRATION_WINDOW,
            -1,
            0,
            1,
            3 * ASPIRATION_WINDOW,
            1000,
        ] {
            let last = exact + shift;
            assert_eq!(first_turn_score(Some(last)), exact, "last score {last}");
        }
    }
}

//! The engine as a `Player`: the search under the engine's clock.

use crate::board::Board;
use crate::coord::Turn;
use crate::search::{Limits, Searcher};
use crate::session::Player;
use crate::time::{Lateness, TimeControl};
use std::time::{Duration, Instant};

pub struct Engine {
    searcher: Searcher,
    move_cap: Duration,
    game_time: Option<Duration>,
    game_left: Option<Duration>,
    max_depth: u8,
    turns_played: usize,
    /// How late recent replies were past their planned stop, or how long the search was kept
    /// off the processor: the margin the next budgets keep.
    lateness: Lateness,
    /// When the process started, until the first search: see `start_up_debt`.
    born: Option<Instant>,
}

/// Deepest search when no `depth` is set: time decides first.
pub const DEFAULT_MAX_DEPTH: u8 = 40;

impl Engine {
    pub fn new(
        hash_mb: usize,
        move_cap: Duration,
        game_time: Option<Duration>,
        max_depth: u8,
        born: Instant,
    ) -> Engine {
        Engine {
            searcher: Searcher::new(hash_mb),
            move_cap,
            game_time,
            game_left: game_time,
            max_depth,
            turns_played: 0,
            lateness: Lateness::default(),
            born: Some(born),
        }
    }
}

impl Engine {
    /// Time the referee may already have counted against our first reply: a referee that
    /// starts the engine and sends its first request at once times our start-up too. A
    /// request that comes long after start-up (a person typing, a referee that waits) owes
    /// nothing.
    fn start_up_debt(&mut self, now: Instant) -> Duration {
        let Some(born) = self.born.take() else {
            return Duration::ZERO;
        };
        let since = now.saturating_duration_since(born);
        if since < self.move_cap / 2 {
            since
        } else {
            Duration::ZERO
        }
    }
}

impl Player for Engine {
    fn new_game(&mut self) {
        self.searcher.clear();
        self.game_left = self.game_time;
        self.turns_played = 0;
    }

    fn choose(&mut self, board: &Board) -> Turn {
        let started = Instant::now();
        let clock = TimeControl {
            move_cap: self.move_cap,
            game_left: self.game_left,
            lateness: self.lateness.worst(),
        };
        let budget = clock.budget(self.turns_played);
        let debt = self.start_up_debt(started);
        let limits = Limits {
            max_depth: self.max_depth,
            soft: budget.soft.saturating_sub(debt),
            hard: budget
                .hard
                .saturating_sub(debt)
                .max(Duration::from_millis(1)),
            nodes: None,
        };
        let report = self.searcher.search(board, limits);
        log::info!(
            "{} score {} depth {} nodes {} in {:?} ({:.0} nodes/s)",
            report.best,
            report.score,
            report.depth,
            report.nodes,
            report.elapsed,
            report.nodes as f64 / report.elapsed.as_secs_f64().max(1e-9)
        );
        self.turns_played += 1;
        let used = started.elapsed();
        // Past the planned stop: scheduling, unwinding, or a phase that overran its share.
        let overshoot = (used + debt).saturating_sub(budget.hard);
        self.lateness.record(overshoot.max(report.stall));
        if let Some(left) = &mut self.game_left {
            *left = left.saturating_sub(used);
        }
        report.best
    }

    fn set_depth(&mut self, depth: u8) {
        self.max_depth = depth;
    }

    fn set_move_time(&mut self, seconds: f64) {
        self.move_cap = Duration::from_secs_f64(seconds);
    }

    fn set_game_left(&mut self, seconds: f64) {
        self.game_left = Some(Duration::from_secs_f64(seconds));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::POSITIONS;

    fn engine(cap: Duration, game: Option<Duration>) -> Engine {
        // Born long ago: no start-up debt.
        let born = Instant::now() - Duration::from_secs(60);
        Engine::new(8, cap, game, DEFAULT_MAX_DEPTH, born)
    }

    /// A middle game of a real record, with the turn to choose.
    fn middle_game() -> Board {
        Board::from_turns(POSITIONS[1]).unwrap()
    }

    #[test]
    fn a_per_move_cap_is_spent_and_kept() {
        let cap = Duration::from_millis(400);
        let mut e = engine(cap, None);
        let board = middle_game();
        let t = Instant::now();
        let turn = e.choose(&board);
        let used = t.elapsed();
        assert!(board.check_turn(&turn).is_ok());
        assert!(used < cap, "{used:?} over the cap");
        // The stable-turn rule stops at 80 % of the soft limit at the earliest.
        assert!(used >= cap / 2, "only {used:?} of {cap:?} used");
    }

    #[test]
    fn time_left_overrides_the_game_budget_until_the_next_game() {
        let mut e = engine(Duration::from_secs(5), Some(Duration::from_secs(100)));
        e.set_game_left(0.4);
        let board = middle_game();
        let t = Instant::now();
        let turn = e.choose(&board);
        let used = t.elapsed();
        assert!(board.check_turn(&turn).is_ok());
        // A quarter of the 0.4 s left at most, and far below the 5 s cap.
        assert!(
            used < Duration::from_millis(130),
            "{used:?} with 0.4 s left"
        );
        assert!(e.game_left.unwrap() < Duration::from_millis(400));
        e.new_game();
        assert_eq!(e.game_left, Some(Duration::from_secs(100)));
    }
}

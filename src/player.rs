//! The engine as a `Player`: the search under the engine's clock.

use crate::board::Board;
use crate::coord::Turn;
use crate::search::{Limits, Searcher};
use crate::session::Player;
use crate::time::TimeControl;
use std::time::{Duration, Instant};

pub struct Engine {
    searcher: Searcher,
    move_cap: Duration,
    game_time: Option<Duration>,
    game_left: Option<Duration>,
    max_depth: u8,
    turns_played: usize,
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
        if let Some(left) = &mut self.game_left {
            *left = left.saturating_sub(started.elapsed());
        }
        report.best
    }

    fn set_depth(&mut self, depth: u8) {
        self.max_depth = depth;
    }

    fn set_move_time(&mut self, seconds: f64) {
        self.move_cap = Duration::from_secs_f64(seconds);
    }
}

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
}

/// Deepest search when no `depth` is set: time decides first.
pub const DEFAULT_MAX_DEPTH: u8 = 40;

impl Engine {
    pub fn new(
        hash_mb: usize,
        move_cap: Duration,
        game_time: Option<Duration>,
        max_depth: u8,
    ) -> Engine {
        Engine {
            searcher: Searcher::new(hash_mb),
            move_cap,
            game_time,
            game_left: game_time,
            max_depth,
            turns_played: 0,
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
        let limits = Limits {
            max_depth: self.max_depth,
            soft: budget.soft,
            hard: budget.hard,
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

//! The quick pass: the engine's search over every position of a record, a fixed short time
//! (and a depth cap) each, for the score graph (`graph`). The board's Review runs it on a
//! thread and may stop it; `analyse --svg` runs it to the end.
//!
//! The search is called here and nowhere else in this module's users: the same entry point
//! and limits `analyse` uses, so the pass sees positions as `analyse` does.

use super::graph::Point;
use crate::engine::eval::WIN;
use crate::engine::models::Models;
use crate::engine::search::{Control, Limits, Searcher};
use crate::record::game::Game;
use crate::rules::board::Color;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Transposition table of the pass's searcher, in MB (a fresh one each pass, so two passes
/// over the same record with the same settings search the same trees).
const PASS_HASH_MB: usize = 16;

/// How long the pass searches each position, and how deep at most.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassSettings {
    pub time: Duration,
    pub depth: u8,
}

impl Default for PassSettings {
    /// A fifth of a second a position: a 60-turn game in about 12 s.
    fn default() -> PassSettings {
        PassSettings {
            time: Duration::from_millis(200),
            depth: crate::engine::search::DEFAULT_MAX_DEPTH,
        }
    }
}

impl PassSettings {
    /// The deepest a pass may search (the protocol's own cap).
    pub const MAX_DEPTH: u8 = crate::engine::search::DEFAULT_MAX_DEPTH;

    /// Checked settings: time in (0, 60] s, depth in 1..=[`Self::MAX_DEPTH`].
    pub fn new(time: Duration, depth: u8) -> Result<PassSettings, String> {
        if time.is_zero() || time > Duration::from_secs(60) {
            return Err(format!(
                "pass time {} s: expected 0 < S <= 60",
                time.as_secs_f64()
            ));
        }
        if depth == 0 || depth > Self::MAX_DEPTH {
            return Err(format!(
                "pass depth {depth}: expected 1 to {}",
                Self::MAX_DEPTH
            ));
        }
        Ok(PassSettings { time, depth })
    }

    /// What a cached pass is found by: the settings and every turn of the record, so an
    /// edited record or other settings never meet an old graph.
    pub fn key(&self, game: &Game) -> String {
        let turns: Vec<String> = game.turns.iter().map(|p| p.turn.to_string()).collect();
        format!(
            "{}ms d{} {}",
            self.time.as_millis(),
            self.depth,
            turns.join(" ")
        )
    }

    fn limits(&self) -> Limits {
        Limits {
            soft: self.time / 2,
            hard: self.time,
            ..Limits::depth(self.depth)
        }
    }
}

/// Stops a pass from another thread: between two positions, or in the middle of a search.
#[derive(Default)]
pub struct PassStop {
    stopped: AtomicBool,
    /// The control of the search under way, if one is.
    control: Mutex<Option<Arc<Control>>>,
}

impl PassStop {
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::SeqCst);
        if let Some(control) = self.lock().as_ref() {
            control.stop();
        }
    }

    pub fn is_stopped(&self) -> bool {
        self.stopped.load(Ordering::SeqCst)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Arc<Control>>> {
        self.control.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The point of a finished position: the winner's edge, or the middle for a full board.
fn final_point(turn: usize, winner: Option<Color>) -> Point {
    let score = match winner {
        Some(Color::Black) => WIN,
        Some(Color::White) => -WIN,
        None => 0,
    };
    Point {
        turn,
        score,
        depth: 0,
    }
}

/// `quick_pass_with` the embedded models (the browser board's).
pub fn quick_pass(
    game: &Game,
    settings: PassSettings,
    stop: &PassStop,
    progress: impl FnMut(&Point, usize),
) -> Option<Vec<Point>> {
    quick_pass_with(&Models::embedded(), game, settings, stop, progress)
}

/// One point per turn: the position after it searched with `models`, the score turned to
/// black's view. `progress` is told each point as it comes, with the number of turns. `None`
/// when `stop` stopped the pass.
pub fn quick_pass_with(
    models: &Models,
    game: &Game,
    settings: PassSettings,
    stop: &PassStop,
    mut progress: impl FnMut(&Point, usize),
) -> Option<Vec<Point>> {
    let mut searcher = Searcher::with_models(PASS_HASH_MB, models.clone());
    let mut board = crate::rules::board::Board::new();
    let mut points = Vec::with_capacity(game.turns.len());
    for (i, played) in game.turns.iter().enumerate() {
        crate::rules::stones::PlaceTurn::place_turn(&mut board, &played.turn, played.color);
        let point = if board.is_over() {
            final_point(i + 1, board.winner())
        } else {
            // The control is installed before the flag is read: a stop in between reaches it.
            *stop.lock() = Some(searcher.new_control());
            if stop.is_stopped() {
                return None;
            }
            let report = searcher.search(&board, settings.limits());
            if stop.is_stopped() {
                return None;
            }
            let score = match board.side_to_move() {
                Color::Black => report.score,
                Color::White => -report.score,
            };
            Point {
                turn: i + 1,
                score,
                depth: report.depth,
            }
        };
        progress(&point, game.turns.len());
        points.push(point);
        if board.is_over() {
            break;
        }
    }
    *stop.lock() = None;
    Some(points)
}

/// `--svg`: the score graph of one record, under its board.
#[derive(clap::Args, Debug, Clone)]
pub struct GraphArgs {
    /// Write the board with the score graph (the engine's quick pass over every turn, the
    /// losing turn marked) to this SVG file; takes a single record.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Seconds of search for each position of the graph's pass.
    #[arg(long, value_name = "S", default_value_t = 0.2)]
    pub graph_time: f64,
    /// Depth cap of the graph's pass.
    #[arg(long, value_name = "N", default_value_t = PassSettings::MAX_DEPTH)]
    pub graph_depth: u8,
}

impl GraphArgs {
    /// The pass's settings, when `--svg` is given; checked before any search.
    pub fn settings(&self, games: usize) -> Result<Option<PassSettings>, String> {
        if self.svg.is_none() {
            return Ok(None);
        }
        if games != 1 {
            return Err(format!("--svg takes a single record, not {games}"));
        }
        if !(self.graph_time.is_finite() && self.graph_time > 0.0) {
            return Err(format!(
                "--graph-time {}: expected positive seconds",
                self.graph_time
            ));
        }
        let time = Duration::from_secs_f64(self.graph_time.min(3600.0));
        PassSettings::new(time, self.graph_depth).map(Some)
    }
}

impl GraphArgs {
    /// `analyse --svg`: the pass over `game` with `models` run to the end, and the board
    /// with its graph written (the losing turn marked, if one was found). The line to print.
    pub fn write(
        &self,
        models: &Models,
        settings: PassSettings,
        game: &Game,
        losing: Option<usize>,
    ) -> Result<String, String> {
        let Some(path) = &self.svg else {
            return Err("no file named".to_string());
        };
        let points = quick_pass_with(models, game, settings, &PassStop::default(), |_, _| {})
            .ok_or_else(|| "the pass was stopped".to_string())?;
        std::fs::write(path, super::graph::with_board(game, &points, losing))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(format!(
            "score graph: {} points, written to {}",
            points.len(),
            path.display()
        ))
    }
}

/// `analyse --svg` could not write its file: said on stderr, exit 1.
pub fn failed(error: &str) -> std::process::ExitCode {
    eprintln!("connect6 analyse: --svg {error}");
    std::process::ExitCode::FAILURE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_won_game_ends_at_the_winners_edge_and_a_stop_ends_the_pass() {
        // Black makes six in column J on its fourth turn.
        let game = Game::from_stone_list("JJ KKLL JKJL MMNN JMJN AAAB JOJP").expect("a game");
        let settings = PassSettings::new(Duration::from_millis(100), 2).expect("settings");
        let mut seen = Vec::new();
        let points = quick_pass(&game, settings, &PassStop::default(), |p, n| {
            seen.push((p.turn, n))
        })
        .expect("not stopped");
        assert_eq!(points.len(), 7);
        assert_eq!(seen.last(), Some(&(7, 7)));
        assert_eq!(points[6].score, WIN, "the six is black's win");
        // After turn 6 (white's AAAB) black has a four in column J: a win in one.
        assert!(
            points[5].score > crate::engine::eval::WIN_BOUND,
            "{points:?}"
        );
        let stop = PassStop::default();
        let stopped = quick_pass(&game, settings, &stop, |_, _| stop.stop());
        assert_eq!(stopped, None);
        assert_ne!(
            settings.key(&game),
            PassSettings::default().key(&game),
            "the settings are in the key"
        );
        assert!(PassSettings::new(Duration::ZERO, 2).is_err());
        assert!(PassSettings::new(Duration::from_secs(1), 0).is_err());
    }
}

//! Review: a competition record, or a folder of them, stepped through turn by turn; the turn
//! `analyse` shows as the loser's mistake; and an engine's view of the position on the board,
//! asked of a fresh engine process set up as `match` sets up an opening.

use super::board::view_of;
use super::engine::{EngineLink, setup_lines};
use super::graph::{PassJob, ReviewGraph};
use super::panel::search_view;
use crate::arena::process::Killer;
use crate::record::files::{RECORD_CAP, read_capped};
use crate::record::game::Game;
use crate::record::{Record, RecordResult};
use crate::rules::board::Color;
use crate::tools::analyse::{GameAnalysis, report};
use crate::tools::graph::{Marks, Point};
use crate::tools::pass::PassSettings;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Search time per position for the losing-turn analysis: `analyse` spends 2 s by default,
/// too long for a page that waits; the turn it finds rarely moves with more.
pub const ANALYSE_TIME: Duration = Duration::from_millis(300);
pub const ANALYSE_HASH_MB: usize = 16;

/// Why a review request was refused; nothing was changed.
#[derive(Debug)]
pub enum ReviewError {
    Open(String),
    NoRecord,
    NoSuchTurn(usize, usize),
    NoSuchFile(usize, usize),
    NoLoser,
    Busy,
    Over,
    /// Another record was opened between the request's read and its answer.
    Stale,
    NoPass,
}

impl std::fmt::Display for ReviewError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReviewError::Open(e) => write!(f, "cannot open: {e}"),
            ReviewError::NoRecord => f.write_str("no record open: open one first"),
            ReviewError::NoSuchTurn(n, max) => write!(f, "no turn {n}: the game has {max}"),
            ReviewError::NoSuchFile(n, max) => write!(f, "no file {n}: the folder has {max}"),
            ReviewError::NoLoser => f.write_str("the record has no loser (a draw)"),
            ReviewError::Busy => f.write_str("still working on the last request"),
            ReviewError::Over => f.write_str("the game is over at this turn: nothing to play"),
            ReviewError::Stale => f.write_str("another record was opened meanwhile: try again"),
            ReviewError::NoPass => f.write_str("no score pass is running"),
        }
    }
}

#[derive(Default)]
pub struct Review {
    files: Vec<PathBuf>,
    index: usize,
    game: Option<Game>,
    upto: usize,
    /// Bumped by every record opened: an answer about an older one is dropped.
    generation: u64,
    /// An analysis or an engine's question is running: one at a time, whichever record is
    /// shown (opening another does not stop an analysis, which runs in this process).
    running: bool,
    /// The engine asked about the position, while it thinks: opening a record stops it.
    asked: Option<Killer>,
    /// The analysis: `{ "turn": n or null, "text": ... }`.
    losing: Option<Value>,
    /// The engine's view: `{ "upto", "turn", "time", "search" }` or `{ "error" }`.
    engine: Option<Value>,
    /// The score graph: the quick pass under way or done, and the passes kept.
    graph: ReviewGraph,
}

/// Reads and parses a record, refusing anything but a regular file of at most
/// [`RECORD_CAP`] bytes. Called off the state's lock.
pub fn read(path: &Path) -> Result<Game, ReviewError> {
    let text = read_capped(path, RECORD_CAP).map_err(|e| ReviewError::Open(e.to_string()))?;
    let record =
        Record::parse(&text).map_err(|e| ReviewError::Open(format!("{}: {e}", path.display())))?;
    Ok(Game::from_record(&record))
}

/// A record file, or a folder's records with the first of them read: what
/// [`Review::show`] takes. Called off the state's lock.
pub fn load(path: &Path) -> Result<(Vec<PathBuf>, Game), ReviewError> {
    let files = crate::record::files::files_in(path, &["txt"])
        .map_err(|e| ReviewError::Open(format!("{}: {e}", path.display())))?;
    let first = files
        .first()
        .ok_or_else(|| ReviewError::Open(format!("{}: no .txt records", path.display())))?;
    let game = read(first)?;
    Ok((files, game))
}

impl Review {
    /// Shows the `index`-th of `files`, read as `game`; an engine still asked about the last
    /// position is stopped.
    pub fn show(&mut self, files: Vec<PathBuf>, index: usize, game: Game) {
        if let Some(asked) = self.asked.take() {
            asked.kill();
        }
        self.files = files;
        self.index = index;
        self.upto = game.turns.len();
        self.game = Some(game);
        self.generation += 1;
        self.losing = None;
        self.engine = None;
        if let Some(game) = &self.game {
            self.graph.record_opened(game, self.generation);
        }
    }

    /// The `index`-th file (from 0) of the folder opened, with the generation it belongs to.
    pub fn file(&self, index: usize) -> Result<(u64, PathBuf), ReviewError> {
        let path = self
            .files
            .get(index)
            .ok_or(ReviewError::NoSuchFile(index, self.files.len()))?;
        Ok((self.generation, path.clone()))
    }

    /// Shows the `index`-th file, read as `game` from what [`Self::file`] gave at `seen`.
    pub fn select(&mut self, seen: u64, index: usize, game: Game) -> Result<(), ReviewError> {
        if seen != self.generation {
            return Err(ReviewError::Stale);
        }
        let files = std::mem::take(&mut self.files);
        self.show(files, index, game);
        Ok(())
    }

    pub fn goto(&mut self, upto: usize) -> Result<(), ReviewError> {
        let game = self.game.as_ref().ok_or(ReviewError::NoRecord)?;
        if upto > game.turns.len() {
            return Err(ReviewError::NoSuchTurn(upto, game.turns.len()));
        }
        self.upto = upto;
        Ok(())
    }

    fn begin_work(&mut self) -> Result<(Game, u64), ReviewError> {
        let game = self.game.clone().ok_or(ReviewError::NoRecord)?;
        if self.running {
            return Err(ReviewError::Busy);
        }
        Ok((game, self.generation))
    }

    /// Starts the losing-turn analysis: the game, its loser and the file, for the thread.
    pub fn begin_losing(&mut self) -> Result<(Game, Color, u64, String), ReviewError> {
        let (game, generation) = self.begin_work()?;
        let loser = match game.result {
            Some(RecordResult::BlackWins) => Color::White,
            Some(RecordResult::WhiteWins) => Color::Black,
            _ => return Err(ReviewError::NoLoser),
        };
        self.running = true;
        self.losing = Some(json!({ "text": format!("analysing {loser}'s turns...") }));
        let file = self.files.get(self.index).map(|p| p.display().to_string());
        Ok((game, loser, generation, file.unwrap_or_default()))
    }

    /// The analysis is done: the board jumps to the losing turn, if one was found.
    pub fn losing_found(&mut self, generation: u64, analysis: &GameAnalysis, file: &str) {
        self.running = false;
        if self.generation != generation {
            return;
        }
        let turn = analysis.losing.as_ref().map(|l| l.number);
        // The winner's forced line after the losing turn, the loser's replies between: the
        // page draws it as ghost stones.
        let line: Vec<String> = analysis
            .losing
            .iter()
            .flat_map(|l| l.line.iter().map(|(t, _)| t.to_string()))
            .collect();
        let winner = analysis.color.other().name();
        self.losing = Some(json!({
            "turn": turn, "text": report(file, analysis), "line": line, "winner": winner,
        }));
        if let Some(n) = turn {
            self.upto = n;
        }
    }

    /// Starts the quick pass for the score graph, unless the cache has it (then it is shown
    /// at once and there is nothing to run).
    pub fn begin_pass(&mut self, settings: PassSettings) -> Result<Option<PassJob>, ReviewError> {
        let game = self.game.as_ref().ok_or(ReviewError::NoRecord)?;
        if self.graph.show_cached(game, settings, self.generation) {
            return Ok(None);
        }
        let (game, generation) = self.begin_work()?;
        self.running = true;
        Ok(Some(self.graph.begin(game, settings, generation)))
    }

    pub fn stop_pass(&mut self) -> Result<(), ReviewError> {
        if self.graph.stop() {
            Ok(())
        } else {
            Err(ReviewError::NoPass)
        }
    }

    pub fn pass_point(&mut self, generation: u64, point: Point) {
        self.graph.point(generation, point);
    }

    /// The pass is over, to the end or stopped (`None`): Review is free again.
    pub fn pass_ended(&mut self, generation: u64, key: String, points: Option<Vec<Point>>) {
        self.running = false;
        self.graph.ended(generation, key, points);
    }

    /// Starts asking an engine about the position on the board: the game and the turn.
    pub fn begin_engine(&mut self, command: &str) -> Result<(Game, u64, usize), ReviewError> {
        let (game, generation) = self.begin_work()?;
        if game.board_after(self.upto).is_over() {
            return Err(ReviewError::Over);
        }
        self.running = true;
        self.engine = Some(json!({ "upto": self.upto, "thinking": true, "command": command }));
        Ok((game, generation, self.upto))
    }

    /// The engine asked at `generation` runs: kept to be stopped by the next record, or
    /// `false` (stop it now) when that record came first.
    pub fn engine_started(&mut self, generation: u64, killer: Killer) -> bool {
        let wanted = self.generation == generation;
        if wanted {
            self.asked = Some(killer);
        }
        wanted
    }

    pub fn engine_answered(&mut self, generation: u64, view: Value) {
        self.running = false;
        self.asked = None;
        if self.generation == generation {
            self.engine = Some(view);
        }
    }

    pub fn view(&self) -> Value {
        let marks = Marks {
            losing: self
                .losing
                .as_ref()
                .and_then(|l| l["turn"].as_u64())
                .map(|n| n as usize),
            upto: Some(self.upto),
        };
        let names: Vec<String> = self
            .files
            .iter()
            .map(|p| {
                p.file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into())
            })
            .collect();
        json!({
            "files": names,
            "index": self.index,
            "game": self.game.as_ref().map(|g| view_of(g, self.upto, &[])),
            "busy": self.running,
            "losing": self.losing,
            "engine": self.engine,
            "graph": self.graph.view(self.game.as_ref(), marks),
        })
    }
}

/// Sets the position up on a fresh engine, says `next`, and reads its reply and log.
/// `started` is handed the engine's killer once it runs, and says whether it is still wanted.
pub fn engine_view(
    game: &Game,
    upto: usize,
    command: &str,
    move_time: Duration,
    started: impl FnOnce(Killer) -> bool,
) -> Value {
    let mut link = match EngineLink::start(command, || {}) {
        Ok(link) => link,
        Err(e) => return json!({ "upto": upto, "error": e.to_string() }),
    };
    if !started(link.process.killer()) {
        return json!({ "upto": upto, "error": "stopped: another record was opened" });
    }
    let color = game.board_after(upto).side_to_move();
    let mut lines = Vec::new();
    if link.ours {
        lines.push(format!("time {}", move_time.as_secs_f64()));
    }
    lines.extend(setup_lines(&game.turns[..upto]));
    lines.push("next".to_string());
    let reply = link
        .send_all(color, &lines)
        .and_then(|sent| link.await_turn(color, sent, move_time));
    // The log is complete once the reply is in; a short wait lets the reader catch up.
    std::thread::sleep(Duration::from_millis(50));
    let log = link.log.lock().map(|l| l.since(0)).unwrap_or_default();
    link.close();
    match reply {
        Ok((turn, elapsed)) => json!({
            "upto": upto,
            "color": color.name(),
            "turn": turn.to_string(),
            "time": elapsed.as_secs_f64(),
            "search": search_view(&log),
        }),
        Err(fault) => json!({
            "upto": upto,
            "error": format!("{} {}: {}", fault.color, fault.kind, fault.detail),
            "search": search_view(&log),
        }),
    }
}

//! Review: a competition record, or a folder of them, stepped through turn by turn; the turn
//! `analyse` shows as the loser's mistake; and an engine's view of the position on the board,
//! asked of a fresh engine process set up as `match` sets up an opening.

use super::board::view_of;
use super::engine::{EngineLink, search_view, setup_lines};
use crate::record::RecordResult;
use crate::record::game::Game;
use crate::rules::board::Color;
use crate::tools::analyse::{GameAnalysis, report};
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
    busy: bool,
    /// The analysis: `{ "turn": n or null, "text": ... }`.
    losing: Option<Value>,
    /// The engine's view: `{ "upto", "turn", "time", "search" }` or `{ "error" }`.
    engine: Option<Value>,
}

fn read(path: &Path) -> Result<Game, ReviewError> {
    Game::read_record(path).map_err(ReviewError::Open)
}

impl Review {
    /// Opens a record file, or the first record of a folder.
    pub fn open(&mut self, path: &Path) -> Result<(), ReviewError> {
        let files = crate::record::files::files_in(path, &["txt"])
            .map_err(|e| ReviewError::Open(format!("{}: {e}", path.display())))?;
        let first = files
            .first()
            .ok_or_else(|| ReviewError::Open(format!("{}: no .txt records", path.display())))?;
        let game = read(first)?;
        self.files = files;
        self.show(0, game);
        Ok(())
    }

    fn show(&mut self, index: usize, game: Game) {
        self.index = index;
        self.upto = game.turns.len();
        self.game = Some(game);
        self.generation += 1;
        self.busy = false;
        self.losing = None;
        self.engine = None;
    }

    /// Opens the `index`-th file (from 0) of the folder opened.
    pub fn select(&mut self, index: usize) -> Result<(), ReviewError> {
        let path = self
            .files
            .get(index)
            .ok_or(ReviewError::NoSuchFile(index, self.files.len()))?;
        let game = read(path)?;
        self.show(index, game);
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
        if self.busy {
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
        self.busy = true;
        self.losing = Some(json!({ "text": format!("analysing {loser}'s turns...") }));
        let file = self.files.get(self.index).map(|p| p.display().to_string());
        Ok((game, loser, generation, file.unwrap_or_default()))
    }

    /// The analysis is done: the board jumps to the losing turn, if one was found.
    pub fn losing_found(&mut self, generation: u64, analysis: &GameAnalysis, file: &str) {
        if self.generation != generation {
            return;
        }
        let turn = analysis.losing.as_ref().map(|l| l.number);
        self.busy = false;
        self.losing = Some(json!({ "turn": turn, "text": report(file, analysis) }));
        if let Some(n) = turn {
            self.upto = n;
        }
    }

    /// Starts asking an engine about the position on the board: the game and the turn.
    pub fn begin_engine(&mut self, command: &str) -> Result<(Game, u64, usize), ReviewError> {
        let (game, generation) = self.begin_work()?;
        if game.board_after(self.upto).is_over() {
            return Err(ReviewError::Over);
        }
        self.busy = true;
        self.engine = Some(json!({ "upto": self.upto, "thinking": true, "command": command }));
        Ok((game, generation, self.upto))
    }

    pub fn engine_answered(&mut self, generation: u64, view: Value) {
        if self.generation == generation {
            self.busy = false;
            self.engine = Some(view);
        }
    }

    pub fn view(&self) -> Value {
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
            "busy": self.busy,
            "losing": self.losing,
            "engine": self.engine,
        })
    }
}

/// Sets the position up on a fresh engine, says `next`, and reads its reply and log.
pub fn engine_view(game: &Game, upto: usize, command: &str, move_time: Duration) -> Value {
    let mut link = match EngineLink::start(command, || {}) {
        Ok(link) => link,
        Err(e) => return json!({ "upto": upto, "error": e.to_string() }),
    };
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

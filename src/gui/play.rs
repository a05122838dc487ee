//! Play: a person against an engine command. The server holds the game; the engine thinks on
//! a thread of its own, holding its process, while the page shows its log as it searches.
//! Every request is checked against the game first and refused whole, with the reason, when
//! it does not fit.

use super::board::game_view;
use super::engine::{EngineLink, LogTail, setup_lines};
use super::graph::reported_view;
use super::panel::search_view;
use crate::arena::EngineStartError;
use crate::arena::game::illegal;
use crate::arena::process::Killer;
use crate::record::Fault;
use crate::record::game::Played;
use crate::rules::board::{Board, Color};
use crate::rules::coord::Turn;
use crate::rules::stones::PlaceTurn;
use serde_json::{Value, json};
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Called when the page should look again (an engine log line arrived).
pub type Wake = Arc<dyn Fn() + Send + Sync>;

/// What a new game is: the engine command, the person's colour, the engine's move time.
#[derive(Clone, Debug)]
pub struct PlayConfig {
    pub command: String,
    pub human: Color,
    pub move_time: Duration,
}

/// How a game ended.
#[derive(Clone, Debug)]
enum Ending {
    Six(Color),
    Full,
    Fault(Fault),
    Resigned(Color),
}

impl Ending {
    fn winner(&self) -> Option<Color> {
        match self {
            Ending::Six(c) => Some(*c),
            Ending::Full => None,
            Ending::Fault(f) => Some(f.color.other()),
            Ending::Resigned(c) => Some(c.other()),
        }
    }

    fn text(&self) -> String {
        match self {
            Ending::Six(c) => format!("{c} wins with six in a row"),
            Ending::Full => "the board is full: a draw".to_string(),
            Ending::Fault(f) => format!(
                "{} wins: {} loses by {} ({})",
                f.color.other(),
                f.color,
                f.kind,
                f.detail
            ),
            Ending::Resigned(c) => format!("{} wins: {c} resigned", c.other()),
        }
    }
}

/// Why a request was refused; nothing was changed.
#[derive(Debug)]
pub enum PlayError {
    NoGame,
    Thinking,
    NotYourTurn,
    Over,
    Illegal(String),
    NothingToUndo,
    /// Undo after a fault or a resignation: that game is closed.
    Closed,
    Engine(EngineStartError),
    /// The engine restarted for an undo took the position badly.
    Restart(String),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::NoGame => f.write_str("no game: start a new one"),
            PlayError::Thinking => f.write_str("the engine is thinking: wait for its move"),
            PlayError::NotYourTurn => f.write_str("it is the engine's turn"),
            PlayError::Over => f.write_str("the game is over: start a new one"),
            PlayError::Illegal(why) => write!(f, "illegal turn: {why}"),
            PlayError::NothingToUndo => f.write_str("nothing to undo: you have not played yet"),
            PlayError::Closed => {
                f.write_str("the game ended by a fault or a resignation: start a new one")
            }
            PlayError::Engine(e) => write!(f, "{e}"),
            PlayError::Restart(why) => write!(f, "the engine restarted for the undo: {why}"),
        }
    }
}

impl PlayError {
    /// The HTTP status: a turn the rules refuse, or a request that does not fit the game.
    pub fn status(&self) -> u16 {
        match self {
            PlayError::Illegal(_) | PlayError::Engine(_) | PlayError::Restart(_) => 422,
            _ => 409,
        }
    }
}

/// The engine's move to wait for, off the lock.
pub struct ThinkJob {
    generation: u64,
    link: EngineLink,
    color: Color,
    sent: Instant,
    move_time: Duration,
}

impl ThinkJob {
    /// Waits for the reply (blocking): what [`Play::engine_replied`] takes.
    pub fn wait(self) -> Reply {
        let result = self.link.await_turn(self.color, self.sent, self.move_time);
        Reply {
            generation: self.generation,
            link: self.link,
            result,
        }
    }
}

pub struct Reply {
    generation: u64,
    link: EngineLink,
    result: Result<(Turn, Duration), Fault>,
}

/// The moment the person's turn begins.
fn now() -> (Instant, SystemTime) {
    (Instant::now(), SystemTime::now())
}

#[derive(Default)]
pub struct Play {
    config: Option<PlayConfig>,
    wake: Option<Wake>,
    /// The engine; `None` while it thinks (its thread holds it) or after it failed.
    link: Option<EngineLink>,
    /// The engine while it thinks: a new game or a resignation stops it.
    thinking_engine: Option<Killer>,
    log: Option<Arc<Mutex<LogTail>>>,
    /// Log line number where the engine's current (or last) move began.
    mark: usize,
    thinking: bool,
    /// Bumped by every new game and resignation: a reply to an older request is dropped.
    generation: u64,
    board: Board,
    turns: Vec<Played>,
    /// Each turn's thinking time: the engine's reply time, or the person's time from the
    /// board being theirs to the turn (`None` if no clock was running for it).
    times: Vec<Option<Duration>>,
    /// When the board became the person's to play, while it is: for the turn's time, and
    /// for the page's clock.
    human_since: Option<(Instant, SystemTime)>,
    ending: Option<Ending>,
    /// The engine is this program: undo is the protocol's.
    ours: bool,
    /// Each turn's score from black's view as the engine reported it (`None` for the
    /// person's turns, and for an engine that reports none): the score graph's points.
    scores: Vec<Option<i32>>,
}

impl Play {
    /// Starts a game with a fresh engine; the engine's first move, when it is black.
    /// An engine that cannot start leaves the current game as it was.
    pub fn start(&mut self, config: PlayConfig, wake: Wake) -> Result<Option<ThinkJob>, PlayError> {
        let w = Arc::clone(&wake);
        let mut link =
            EngineLink::start(&config.command, move || w()).map_err(PlayError::Engine)?;
        let engine = config.human.other();
        let mut lines = Vec::new();
        if link.ours {
            // Our engine keeps to the clock it is told; `time` is its protocol extension.
            lines.push(format!("time {}", config.move_time.as_secs_f64()));
        }
        lines.push(format!("new {}", engine.name()));
        let sent = link.send_all(engine, &lines);
        // The engine this game replaces goes now, thinking or not (dropped, it is killed).
        self.stop_engine();
        self.generation += 1;
        self.log = Some(Arc::clone(&link.log));
        self.mark = link.log_mark();
        self.ours = link.ours;
        self.config = Some(config.clone());
        self.wake = Some(wake);
        self.thinking = false;
        self.board = Board::new();
        self.turns.clear();
        self.times.clear();
        self.scores.clear();
        self.ending = None;
        self.human_since = (engine == Color::White).then(now);
        match sent {
            Err(fault) => {
                self.ending = Some(Ending::Fault(fault));
                Ok(None)
            }
            Ok(sent) if engine == Color::Black => Ok(Some(self.think(link, sent))),
            Ok(_) => {
                self.link = Some(link);
                Ok(None)
            }
        }
    }

    /// Stops the engine: the one thinking (its thread then gets its end and lets it go),
    /// and the one waiting.
    fn stop_engine(&mut self) {
        if let Some(engine) = self.thinking_engine.take() {
            engine.kill();
        }
        self.link = None;
        self.thinking = false;
    }

    fn think(&mut self, link: EngineLink, sent: Instant) -> ThinkJob {
        self.thinking = true;
        self.thinking_engine = Some(link.process.killer());
        let (color, move_time) = match &self.config {
            Some(c) => (c.human.other(), c.move_time),
            None => (self.board.side_to_move(), Duration::from_secs(1)),
        };
        ThinkJob {
            generation: self.generation,
            link,
            color,
            sent,
            move_time,
        }
    }

    fn ready(&self) -> Result<&PlayConfig, PlayError> {
        let config = self.config.as_ref().ok_or(PlayError::NoGame)?;
        if self.thinking {
            return Err(PlayError::Thinking);
        }
        Ok(config)
    }

    /// The board after the turns, with the ending it brings, if any.
    fn settle(&mut self) {
        if let Some(winner) = self.board.winner() {
            self.ending = Some(Ending::Six(winner));
        } else if self.board.is_full() {
            self.ending = Some(Ending::Full);
        }
        self.release_if_over();
    }

    /// A game over needs no engine: an undo after the end starts a fresh one with the
    /// position. Dropped, the engine is killed, so an ended game leaves no process behind.
    fn release_if_over(&mut self) {
        if self.ending.is_some() {
            self.link = None;
        }
    }

    /// The person's turn; the engine's reply to wait for, unless the turn ended the game.
    pub fn human_move(&mut self, turn: Turn) -> Result<Option<ThinkJob>, PlayError> {
        let human = self.ready()?.human;
        if self.ending.is_some() {
            return Err(PlayError::Over);
        }
        if self.board.side_to_move() != human {
            return Err(PlayError::NotYourTurn);
        }
        self.board
            .check_turn(&turn)
            .map_err(|e| PlayError::Illegal(e.to_string()))?;
        self.settle_report();
        let _ = self.board.play_turn(&turn);
        self.turns.push(Played { color: human, turn });
        self.scores.push(None);
        self.times
            .push(self.human_since.take().map(|(t, _)| t.elapsed()));
        self.settle();
        if self.ending.is_some() {
            return Ok(None);
        }
        let Some(mut link) = self.link.take() else {
            return Ok(None);
        };
        self.mark = link.log_mark();
        let line = format!("move {}", turn.to_protocol(true));
        match link.send_all(human.other(), &[line]) {
            Ok(sent) => Ok(Some(self.think(link, sent))),
            Err(fault) => {
                self.ending = Some(Ending::Fault(fault));
                Ok(None)
            }
        }
    }

    /// Takes in the engine's reply; an engine from an older game is handed back to close.
    pub fn engine_replied(&mut self, reply: Reply) -> Option<EngineLink> {
        if reply.generation != self.generation {
            return Some(reply.link);
        }
        self.thinking = false;
        self.thinking_engine = None;
        let color = self.board.side_to_move();
        self.link = Some(reply.link);
        match reply.result {
            Ok((turn, elapsed)) => match self.board.play_turn(&turn) {
                Ok(()) => {
                    self.turns.push(Played { color, turn });
                    self.scores.push(None);
                    self.times.push(Some(elapsed));
                    self.settle();
                    if self.ending.is_none() {
                        self.human_since = Some(now());
                    }
                }
                Err(e) => self.ending = Some(Ending::Fault(illegal(color, &turn, e))),
            },
            Err(fault) => self.ending = Some(Ending::Fault(fault)),
        }
        self.release_if_over();
        None
    }

    /// Takes back the person's last turn and the engine's reply to it. Our engine gets the
    /// protocol's `undo`; another engine (or ours after the game closed) is started afresh
    /// and given the position as set-up lines.
    pub fn undo(&mut self) -> Result<(), PlayError> {
        let config = self.ready()?.clone();
        if matches!(self.ending, Some(Ending::Fault(_) | Ending::Resigned(_))) {
            return Err(PlayError::Closed);
        }
        let last_own = self.turns.iter().rposition(|p| p.color == config.human);
        let keep = last_own.ok_or(PlayError::NothingToUndo)?;
        let takes = self.turns.len() - keep;
        // Before a restarted engine replaces the log the report is read from.
        self.settle_report();
        let undone = match (&mut self.link, &self.ending) {
            (Some(link), None) if link.ours => {
                let lines = vec!["undo".to_string(); takes];
                link.send_all(config.human.other(), &lines).is_ok()
            }
            _ => false,
        };
        if !undone {
            let wake = self.wake.clone().unwrap_or_else(|| Arc::new(|| {}));
            let w = Arc::clone(&wake);
            let mut link =
                EngineLink::start(&config.command, move || w()).map_err(PlayError::Engine)?;
            let mut lines = Vec::new();
            if link.ours {
                lines.push(format!("time {}", config.move_time.as_secs_f64()));
            }
            lines.extend(setup_lines(&self.turns[..keep]));
            if let Err(fault) = link.send_all(config.human.other(), &lines) {
                return Err(PlayError::Illegal(format!(
                    "the restarted engine: {}",
                    fault.detail
                )));
            }
            // The engine replaced is dropped, and with it killed.
            self.link = Some(link);
            self.log = self.link.as_ref().map(|l| Arc::clone(&l.log));
        }
        self.turns.truncate(keep);
        self.times.truncate(keep);
        self.scores.truncate(keep);
        self.human_since = Some(now());
        self.board = Board::new();
        for p in &self.turns {
            self.board.place_turn(&p.turn, p.color);
        }
        self.ending = None;
        Ok(())
    }

    /// The person gives up; the engine, thinking or not, is stopped (a resigned game is
    /// closed: nothing is left for it to do).
    pub fn resign(&mut self) -> Result<(), PlayError> {
        let config = self.config.as_ref().ok_or(PlayError::NoGame)?;
        if self.ending.is_some() {
            return Err(PlayError::Over);
        }
        self.ending = Some(Ending::Resigned(config.human));
        self.human_since = None;
        self.generation += 1;
        self.stop_engine();
        Ok(())
    }

    /// The engine's reported score for its last turn, from black's view, once its log has
    /// the move's info line (it follows the reply): read from the panel's `search`.
    fn last_report(&self, search: &Value) -> Option<(usize, i32)> {
        let i = self.turns.len().checked_sub(1)?;
        let last = &self.turns[i];
        let engine = self.config.as_ref()?.human.other();
        let summary = &search["summary"];
        if last.color != engine || summary["best"].as_str() != Some(&last.turn.to_string()) {
            return None;
        }
        let score = i32::try_from(summary["score"].as_i64()?).ok()?;
        Some((
            i,
            if engine == Color::Black {
                score
            } else {
                -score
            },
        ))
    }

    /// Keeps the engine's report of its last turn before the log moves on (the next move's
    /// lines start a new mark, and an undo may start a new engine).
    fn settle_report(&mut self) {
        let search = search_view(&self.lines());
        if let Some((i, score)) = self.last_report(&search) {
            self.scores[i] = Some(score);
        }
    }

    /// The log lines of the engine's current (or last) move.
    fn lines(&self) -> Vec<String> {
        self.log
            .as_ref()
            .map(|l| l.lock().unwrap_or_else(|p| p.into_inner()).since(self.mark))
            .unwrap_or_default()
    }

    pub fn view(&self) -> Value {
        let Some(config) = &self.config else {
            return json!({ "active": false });
        };
        let engine_name = crate::arena::process::split_command(&config.command)
            .ok()
            .and_then(|w| {
                std::path::Path::new(&w[0])
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
            })
            .unwrap_or_else(|| "engine".to_string());
        let names = match config.human {
            Color::Black => ("You".to_string(), engine_name),
            Color::White => (engine_name, "You".to_string()),
        };
        let winner = self.ending.as_ref().map(Ending::winner);
        let search = search_view(&self.lines());
        let mut scores = self.scores.clone();
        if let Some((i, score)) = self.last_report(&search) {
            scores[i] = Some(score);
        }
        let times: Vec<Option<f64>> = self
            .times
            .iter()
            .map(|t| t.map(|d| d.as_secs_f64()))
            .collect();
        // Each side's thinking on the turns played; the page adds the turn in progress.
        let total = |color: Color| -> f64 {
            self.turns
                .iter()
                .zip(&times)
                .filter(|(p, _)| p.color == color)
                .filter_map(|(_, t)| *t)
                .sum()
        };
        let running = self.human_since.filter(|_| self.ending.is_none());
        let human_turn_began = running.map(|(_, wall)| {
            wall.duration_since(UNIX_EPOCH)
                .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
        });
        json!({
            "active": true,
            "command": config.command,
            "human": config.human.name(),
            "move_time": config.move_time.as_secs_f64(),
            "thinking": self.thinking,
            "ours": self.ours,
            "to_move": self.board.side_to_move().name(),
            "over": self.ending.is_some(),
            "ending": self.ending.as_ref().map(Ending::text),
            "fault": self.ending.as_ref().is_some_and(|e| matches!(e, Ending::Fault(_))),
            "game": game_view(&names.0, &names.1, &self.turns, &times, winner),
            "engine_total": total(config.human.other()),
            "human_total": total(config.human),
            "human_turn_began": human_turn_began,
            "graph": reported_view(&scores, self.turns.len(), self.turns.len()),
            "search": search,
        })
    }
}

//! Watch: a match between two engine commands, played on the server by `match`'s own
//! scheduler and referee, followed turn by turn through the arena's observer. The options
//! are `match`'s, parsed by its own parser, so a Watch match and `connect6 match` with the
//! same options play and summarise the same way (records included).

use super::board::game_view;
use super::graph::reported_view;
use crate::arena::schedule::black_of;
use crate::arena::{GameResult, MatchArgs, MatchError, Outcome, Summary};
use crate::record::game::Played;
use crate::rules::board::Color;
use crate::rules::coord::Turn;
use serde_json::{Value, json};
use std::time::Duration;

/// The game on the board.
struct LiveGame {
    number: usize,
    /// Which engine (0 = A, 1 = B) plays black.
    black: usize,
    turns: Vec<Played>,
    times: Vec<Option<f64>>,
    /// Thinking time used so far, black and white.
    clock: [f64; 2],
    ending: Option<String>,
    /// Set when the game is over: the winner, or `None` for a draw.
    winner: Option<Option<Color>>,
    /// Each turn's score from black's view as its engine reported it, if it did.
    scores: Vec<Option<i32>>,
}

#[derive(Default)]
pub struct Watch {
    /// Bumped by every match, so an observer of an older one changes nothing.
    run: u64,
    running: bool,
    /// Asked to stop: no new game starts, the games in play finish.
    stopping: bool,
    names: [String; 2],
    commands: [String; 2],
    planned: usize,
    move_time: f64,
    /// Each side's budget for a game, if the match has one.
    game_time: Option<f64>,
    records: Option<String>,
    live: Option<LiveGame>,
    results: Vec<Value>,
    points: [f64; 2],
    summary: Option<String>,
    error: Option<String>,
}

/// Why a match was not started.
#[derive(Debug)]
pub enum WatchError {
    Running,
    NotRunning,
    Options(String),
}

impl std::fmt::Display for WatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WatchError::Running => f.write_str("a match is being played: wait for its end"),
            WatchError::NotRunning => f.write_str("no match is being played"),
            WatchError::Options(e) => write!(f, "match options: {e}"),
        }
    }
}

/// Reads the match's options as `connect6 match` reads its command line; `--quiet`, since
/// the server has no terminal for a progress line or the engines' stderr.
pub fn parse_options(words: &[String]) -> Result<MatchArgs, WatchError> {
    let mut args = words.to_vec();
    args.push("--quiet".to_string());
    MatchArgs::parse(&args).map_err(|e| {
        let text = e.to_string();
        let first = text
            .lines()
            .next()
            .unwrap_or("")
            .trim_start_matches("error: ");
        WatchError::Options(first.to_string())
    })
}

impl Watch {
    pub fn on_started(&mut self, run: u64, names: &[String; 2], games: &[usize]) {
        if self.run == run {
            self.names = names.clone();
            self.planned = games.len();
        }
    }

    pub fn on_turn(
        &mut self,
        run: u64,
        game: usize,
        color: Color,
        turn: &Turn,
        elapsed: Option<Duration>,
    ) {
        if self.run != run {
            return;
        }
        let live = match &mut self.live {
            Some(live) if live.number == game => live,
            slot => slot.insert(LiveGame {
                number: game,
                black: black_of(game),
                turns: Vec::new(),
                times: Vec::new(),
                clock: [0.0; 2],
                ending: None,
                winner: None,
                scores: Vec::new(),
            }),
        };
        let seconds = elapsed.map(|d| d.as_secs_f64());
        live.turns.push(Played { color, turn: *turn });
        live.times.push(seconds);
        live.scores.push(None);
        live.clock[color.index()] += seconds.unwrap_or(0.0);
    }

    /// `color`'s engine reported `score` (its own view) for its turn `best`: the latest
    /// turn of that colour with those cells and no score yet gets it, from black's view.
    pub fn on_report(&mut self, run: u64, game: usize, color: Color, best: &str, score: i64) {
        let Some(live) = self
            .live
            .as_mut()
            .filter(|l| l.number == game && self.run == run)
        else {
            return;
        };
        let Ok(score) = i32::try_from(score) else {
            return;
        };
        let found = (0..live.turns.len()).rev().find(|&i| {
            let p = &live.turns[i];
            p.color == color && live.scores[i].is_none() && p.turn.to_string() == best
        });
        if let Some(i) = found {
            live.scores[i] = Some(if color == Color::Black { score } else { -score });
        }
    }

    pub fn on_finished(&mut self, run: u64, result: &GameResult) {
        if self.run != run {
            return;
        }
        let black = black_of(result.number);
        let text = match result.outcome {
            Outcome::Win(c) => {
                let engine = if c == Color::Black { black } else { 1 - black };
                self.points[engine] += 1.0;
                format!("{} ({c}) wins", self.names[engine])
            }
            Outcome::Draw => {
                self.points.iter_mut().for_each(|p| *p += 0.5);
                "draw".to_string()
            }
        };
        let fault = result.fault.as_ref().map(|f| {
            let engine = if f.color == Color::Black {
                black
            } else {
                1 - black
            };
            format!(
                "{} ({}) {}: {}",
                self.names[engine], f.color, f.kind, f.detail
            )
        });
        if let Some(live) = self.live.as_mut().filter(|l| l.number == result.number) {
            live.ending = Some(text.clone());
            live.winner = Some(match result.outcome {
                Outcome::Win(c) => Some(c),
                Outcome::Draw => None,
            });
        }
        self.results
            .push(json!({ "game": result.number, "result": text, "fault": fault }));
    }

    /// The match is over: its summary, or why it did not start.
    pub fn on_end(&mut self, run: u64, outcome: Result<Summary, MatchError>) {
        if self.run != run {
            return;
        }
        self.running = false;
        match outcome {
            Ok(summary) => self.summary = Some(summary.to_text()),
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    /// Clears the last match and marks a new one as running; its number for the observer.
    /// Refused while a match is being played.
    pub fn begin(&mut self, config: &MatchArgs) -> Result<u64, WatchError> {
        if self.running {
            return Err(WatchError::Running);
        }
        *self = Watch {
            run: self.run + 1,
            running: true,
            names: config.engines(),
            commands: config.engines(),
            move_time: config.move_time.as_secs_f64(),
            game_time: config.game_time.map(|t| t.as_secs_f64()),
            records: config.records.as_ref().map(|p| p.display().to_string()),
            ..Watch::default()
        };
        Ok(self.run)
    }

    /// Asks the match being played to stop after the games in play.
    pub fn request_stop(&mut self) -> Result<(), WatchError> {
        if !self.running {
            return Err(WatchError::NotRunning);
        }
        self.stopping = true;
        Ok(())
    }

    /// Whether match `run` was asked to stop.
    pub fn stop_requested(&self, run: u64) -> bool {
        self.run == run && self.stopping
    }

    pub fn view(&self) -> Value {
        let live = self.live.as_ref().map(|l| {
            let names = (&self.names[l.black], &self.names[1 - l.black]);
            json!({
                "number": l.number,
                "game": game_view(names.0, names.1, &l.turns, &l.times, l.winner),
                "clock": l.clock,
                "ending": l.ending,
                "graph": reported_view(&l.scores, l.turns.len(), l.turns.len()),
            })
        });
        json!({
            "running": self.running,
            "stopping": self.stopping,
            "names": self.names,
            "commands": self.commands,
            "planned": self.planned,
            "move_time": self.move_time,
            "game_time": self.game_time,
            "records": self.records,
            "live": live,
            "results": self.results,
            "points": self.points,
            "summary": self.summary,
            "error": self.error,
        })
    }
}

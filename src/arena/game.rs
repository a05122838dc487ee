//! One game between two freshly started engine processes, with adjudication.
//!
//! The clock of a move runs from sending the opponent's move (or `new black` / `next`) to the
//! arrival of the reply line. A reply is late when it arrives after
//! `min(move time, remaining game time) + tolerance`; silence is a late reply.

use super::process::{EngineProcess, Received};
use crate::record::openings::Opening;
use crate::record::{Fault, FaultKind};
use crate::rules::board::{Board, Color};
use crate::rules::coord::{Cell, CoordError, Turn};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Slack added to every time limit before a reply counts as late.
pub const TOLERANCE: Duration = Duration::from_millis(200);

/// How long engines get to exit after `quit` before they are killed.
const QUIT_GRACE: Duration = Duration::from_millis(300);

#[derive(Clone, Copy, Debug)]
pub struct ReplyLimits {
    pub move_time: Duration,
    /// Total thinking time per side and game, if limited.
    pub game_time: Option<Duration>,
    /// Slack added to every limit before a reply counts as late.
    pub tolerance: Duration,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(Color),
    Draw,
}

/// What one game needs to know.
pub struct GameSpec<'a> {
    /// 1-based.
    pub number: usize,
    /// Engine commands by colour (black, white).
    pub commands: [&'a str; 2],
    pub opening: Option<&'a Opening>,
    pub limits: ReplyLimits,
    /// Forward black's first stone as `XY` instead of `XY@@`.
    pub short_first: bool,
    pub discard_stderr: bool,
    /// Cores the game's engines are pinned to (`taskset -c` list), if any.
    pub cpus: Option<String>,
    /// Told every turn as it is played.
    pub observer: &'a dyn Observer,
}

/// Follows a match as it is played: the browser board shows games live through it, while
/// `match` itself follows nothing ([`Unobserved`]). Called from the games' threads.
pub trait Observer: Sync {
    /// Both engines answered the start-up check; `games` are the numbers to be played.
    fn started(&self, _names: &[String; 2], _games: &[usize]) {}
    /// A turn of game `game` is on the board: an opening turn (no reply time) or a reply.
    fn turn(&self, _game: usize, _color: Color, _turn: &Turn, _elapsed: Option<Duration>) {}
    /// A game is over and adjudicated.
    fn finished(&self, _result: &GameResult) {}
    /// Asked after each game: once true, no new game starts and the games in play finish.
    fn stop_requested(&self) -> bool {
        false
    }
    /// Whether the engines' stderr is wanted: they are then started with `RUST_LOG=debug`
    /// and every line is handed to [`Self::engine_line`] (after the turn it follows).
    fn wants_engine_lines(&self) -> bool {
        false
    }
    /// A line of `color`'s engine's stderr in game `game`.
    fn engine_line(&self, _game: usize, _color: Color, _line: &str) {}
}

/// The observer that follows nothing.
pub struct Unobserved;

impl Observer for Unobserved {}

#[derive(Clone, Debug)]
pub struct GameResult {
    pub number: usize,
    pub outcome: Outcome,
    pub fault: Option<Fault>,
    /// Every stone on the board at the end, in order (opening stones included).
    pub stones: Vec<(Color, Cell)>,
    /// Reply times of each colour's moves (black, white).
    pub move_times: [Vec<Duration>; 2],
}

struct Game<'a> {
    spec: &'a GameSpec<'a>,
    engines: [Option<EngineProcess>; 2],
    board: Board,
    stones: Vec<(Color, Cell)>,
    move_times: [Vec<Duration>; 2],
    remaining: [Option<Duration>; 2],
    /// The engines' stderr lines, when the observer wants them.
    lines: Option<mpsc::Receiver<(Color, String)>>,
}

fn fault(kind: FaultKind, color: Color, detail: impl Into<String>) -> Fault {
    Fault {
        kind,
        color,
        detail: detail.into(),
    }
}

/// Classifies a `move` argument that does not read as a turn: text of letters (and `@`) in
/// pairs is a readable move that breaks the rules (off-board letter, repeated cell, too many
/// stones); anything else is malformed.
fn coord_fault(color: Color, text: &str, error: CoordError) -> Fault {
    let readable =
        text.chars().all(|c| c.is_ascii_alphabetic() || c == '@') && text.len().is_multiple_of(2);
    let kind = match error {
        CoordError::Letter(_) | CoordError::Repeated(_) | CoordError::TooMany(_) if readable => {
            FaultKind::Illegal
        }
        _ => FaultKind::Malformed,
    };
    fault(kind, color, format!("'move {text}': {error}"))
}

/// A reply in time: its reply time, and the turn it reads as or the fault (malformed, or a
/// move the rules cannot read) it is. The time counts either way, as a match books it.
pub type TimedReply = (Result<Turn, Fault>, Duration);

/// Waits for `color`'s reply to a request sent at `sent`, skipping chatter, and adjudicates
/// it as a match does: the reply, or the fault (late, silent, crashed) of no reply in time.
/// Whether the turn fits the board is the caller's check ([`illegal`]); `label` names the
/// game in the debug log. Public so the browser board judges its engine exactly as `match`
/// does.
pub fn await_turn(
    label: &str,
    engine: Option<&EngineProcess>,
    color: Color,
    sent: Instant,
    limits: ReplyLimits,
    remaining: Option<Duration>,
) -> Result<TimedReply, Fault> {
    let allowed = remaining.map_or(limits.move_time, |r| r.min(limits.move_time));
    let deadline = sent + allowed + limits.tolerance;
    let Some(engine) = engine else {
        return Err(fault(FaultKind::Crash, color, "engine not running"));
    };
    loop {
        match engine.recv_until(deadline) {
            Received::Line(line, at) => {
                let mut words = line.split_whitespace();
                if words.next() != Some("move") {
                    log::debug!("{label}: {color} says '{line}' (skipped)");
                    continue;
                }
                let elapsed = at.saturating_duration_since(sent);
                if elapsed > allowed + limits.tolerance {
                    let detail = format!("replied after {:.3} s", elapsed.as_secs_f64());
                    return Err(fault(FaultKind::Late, color, detail));
                }
                let text: Vec<&str> = words.collect();
                let [text] = text.as_slice() else {
                    let malformed = fault(FaultKind::Malformed, color, format!("'{line}'"));
                    return Ok((Err(malformed), elapsed));
                };
                let turn = Turn::parse(text).map_err(|e| coord_fault(color, text, e));
                return Ok((turn, elapsed));
            }
            Received::TooLong(length, at) => {
                let detail = format!(
                    "a line of {length} bytes, longer than the {} KiB a line may have",
                    super::process::MAX_LINE / 1024
                );
                let malformed = fault(FaultKind::Malformed, color, detail);
                return Ok((Err(malformed), at.saturating_duration_since(sent)));
            }
            Received::Timeout => {
                let what = if remaining.is_some_and(|r| r < limits.move_time) {
                    "remaining game time"
                } else {
                    "move time"
                };
                let detail = format!(
                    "no move within {:.3} s ({what} {:.3} s + tolerance {:.3} s)",
                    (allowed + limits.tolerance).as_secs_f64(),
                    allowed.as_secs_f64(),
                    limits.tolerance.as_secs_f64()
                );
                return Err(fault(FaultKind::Late, color, detail));
            }
            Received::Eof => {
                return Err(fault(
                    FaultKind::Crash,
                    color,
                    "engine exited or closed stdout",
                ));
            }
        }
    }
}

/// The fault of a readable turn that does not fit the board, worded as a match words it.
pub fn illegal(color: Color, turn: &Turn, error: impl std::fmt::Display) -> Fault {
    let detail = format!("'move {}': {error}", turn.to_protocol(true));
    fault(FaultKind::Illegal, color, detail)
}

impl<'a> Game<'a> {
    fn send(&mut self, color: Color, line: &str) -> Result<Instant, Fault> {
        let engine = self.engines[color.index()].as_mut();
        match engine.map(|e| e.send(line)) {
            Some(Ok(())) => Ok(Instant::now()),
            Some(Err(e)) => Err(fault(
                FaultKind::Crash,
                color,
                format!("cannot send '{line}': {e}"),
            )),
            None => Err(fault(FaultKind::Crash, color, "engine not running")),
        }
    }

    /// Waits for `color`'s reply to a request sent at `sent`, and books its time.
    fn await_move(&mut self, color: Color, sent: Instant) -> Result<Turn, Fault> {
        let remaining = self.remaining[color.index()];
        let engine = self.engines[color.index()].as_ref();
        let label = format!("game {}", self.spec.number);
        let (turn, elapsed) = await_turn(&label, engine, color, sent, self.spec.limits, remaining)?;
        self.move_times[color.index()].push(elapsed);
        if let Some(r) = &mut self.remaining[color.index()] {
            *r = r.saturating_sub(elapsed);
        }
        turn
    }

    /// Plays until the game ends; the fault that ended it, if any.
    fn run(&mut self) -> Result<Outcome, Fault> {
        for color in [Color::Black, Color::White] {
            self.send(color, "name?")?;
        }
        let mut to_move = Color::Black;
        let mut sent;
        if let Some(opening) = self.spec.opening {
            for color in [Color::Black, Color::White] {
                self.send(color, "new white")?;
            }
            for turn in &opening.turns {
                let color = self.board.side_to_move();
                // Openings are checked when loaded; a failure here is a referee bug.
                if let Err(e) = self.board.play_turn(turn) {
                    log::error!("opening line {} rejected: {e}", opening.line);
                    return Ok(Outcome::Draw);
                }
                self.stones.extend(turn.cells().map(|c| (color, c)));
                self.spec.observer.turn(self.spec.number, color, turn, None);
                let cells: String = turn.cells().map(|c| c.to_string()).collect();
                for engine in [Color::Black, Color::White] {
                    self.send(engine, &format!("{} {cells}", color.name()))?;
                }
            }
            to_move = self.board.side_to_move();
            sent = self.send(to_move, "next")?;
        } else {
            self.send(Color::White, "new white")?;
            sent = self.send(Color::Black, "new black")?;
        }
        loop {
            let turn = self.await_move(to_move, sent)?;
            if let Err(e) = self.board.check_turn(&turn) {
                return Err(illegal(to_move, &turn, e));
            }
            let _ = self.board.play_turn(&turn);
            self.stones.extend(turn.cells().map(|c| (to_move, c)));
            let elapsed = self.move_times[to_move.index()].last().copied();
            self.spec
                .observer
                .turn(self.spec.number, to_move, &turn, elapsed);
            self.hand_lines();
            if let Some(winner) = self.board.winner() {
                return Ok(Outcome::Win(winner));
            }
            if self.board.is_full() {
                return Ok(Outcome::Draw);
            }
            let line = format!("move {}", turn.to_protocol(!self.spec.short_first));
            to_move = to_move.other();
            sent = self.send(to_move, &line)?;
        }
    }

    /// Hands the engines' stderr lines read so far to the observer.
    fn hand_lines(&self) {
        for (color, line) in self.lines.iter().flat_map(|r| r.try_iter()) {
            self.spec
                .observer
                .engine_line(self.spec.number, color, &line);
        }
    }

    /// Sends `end` and `quit` to both engines and reaps them.
    fn finish(&mut self) {
        let mut running: Vec<EngineProcess> =
            self.engines.iter_mut().filter_map(Option::take).collect();
        for e in &mut running {
            let _ = e.send("end");
            let _ = e.send("quit");
        }
        let deadline = Instant::now() + QUIT_GRACE;
        for e in running {
            e.reap(deadline);
        }
        self.hand_lines();
    }
}

/// Plays one game with fresh engine processes.
pub fn play(spec: &GameSpec) -> GameResult {
    let mut engines: [Option<EngineProcess>; 2] = [None, None];
    let mut start_fault = None;
    let (log_tx, lines) = mpsc::channel();
    let logged = spec.observer.wants_engine_lines();
    for color in [Color::Black, Color::White] {
        let (command, cpus) = (spec.commands[color.index()], spec.cpus.as_deref());
        let started = if logged {
            let env = [("RUST_LOG", "debug")];
            EngineProcess::spawn_reporting(command, cpus, &env, color, log_tx.clone())
        } else {
            EngineProcess::spawn(command, spec.discard_stderr, cpus)
        };
        match started {
            Ok(e) => engines[color.index()] = Some(e),
            Err(e) => {
                start_fault.get_or_insert(fault(FaultKind::Crash, color, e.to_string()));
            }
        }
    }
    let mut game = Game {
        spec,
        engines,
        board: Board::new(),
        stones: Vec::new(),
        move_times: [Vec::new(), Vec::new()],
        remaining: [spec.limits.game_time; 2],
        lines: logged.then_some(lines),
    };
    let ended = match start_fault {
        Some(f) => Err(f),
        None => game.run(),
    };
    game.finish();
    let (outcome, fault) = match ended {
        Ok(outcome) => (outcome, None),
        Err(f) => {
            log::info!("game {}: {} {}: {}", spec.number, f.color, f.kind, f.detail);
            (Outcome::Win(f.color.other()), Some(f))
        }
    };
    GameResult {
        number: spec.number,
        outcome,
        fault,
        stones: game.stones,
        move_times: game.move_times,
    }
}

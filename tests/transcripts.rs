//! Referee transcripts: each `referee-transcripts/*.txt` is piped, line by line, through the
//! real `connect6` binary while this harness keeps its own model of the game (the library's
//! `Board`) to judge the replies. The format is described in `referee-transcripts/README.md`.
//!
//! The engine is driven interactively: a `>` directive writes to its stdin, and each `<`
//! directive waits (with a deadline of the move time plus a margin) for the next stdout line,
//! so every reply is matched to the command that caused it. Anything on stdout the transcript
//! did not ask for fails the transcript.
//!
//! A last test relays moves between two engine processes until one side makes six or the
//! board is full.
//!
//! The engine is `common::engine_command()`: the binary cargo built here, `wine connect6.exe`
//! when `tests/wine.rs` runs this same code as its module.

mod common;

use connect6::protocol::command::{Command, MAX_LINE};
use connect6::protocol::session::describe_position;
use connect6::rules::board::{Board, Color};
use connect6::rules::coord::{CELLS, Cell, Turn};
use std::collections::VecDeque;
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long past its allowance the harness waits for a reply before giving up on it (process
/// start, scheduling noise on a busy machine, debug assertions).
const MARGIN: Duration = Duration::from_millis(1000);
/// How late a reply may be beyond the time the engine promises to keep (`Model::allowance`):
/// writing the reply and being scheduled on a busy machine, a fixed part and a share of the
/// allowance. An engine that ignores `time` or `time left` overshoots by far more.
fn lateness_allowed(allowance: Duration) -> Duration {
    Duration::from_millis(250) + allowance / 4
}
/// How long to wait for stderr lines and the `name?` probe, which involve no search.
const QUICK: Duration = Duration::from_secs(3);
/// Engine arguments when a transcript has no `@ args` line.
const DEFAULT_ARGS: &[&str] = &["--move-time", "0.3", "--hash", "8"];

// ---------------------------------------------------------------------------------------
// The transcript format.

#[derive(Debug, Clone, PartialEq)]
enum Check {
    /// `< text`: exactly this line.
    Exact(String),
    /// `< ?legal`: a `move` that is a legal turn for the engine.
    Legal,
    /// `< ?six`: a legal turn that completes a six for the engine.
    Six,
    /// `< ?blocks`: a legal turn after which the opponent has no threat window (or we won).
    Blocks,
    /// `< ?none`: nothing at all (proved with a `name?` probe).
    Nothing,
}

#[derive(Debug, Clone, PartialEq)]
enum Directive {
    /// `@ args ...`: engine command-line arguments (before any other directive).
    Args(Vec<String>),
    /// `> text` (a line end is added) or `>> text` (sent exactly as written); a quiet turn
    /// for the side to move is spliced in at each listed offset (`\?`).
    Send(Vec<u8>, Vec<usize>),
    Expect(Check),
    /// `! text`: a stderr line since the last `>` contains this text.
    Stderr(String),
    /// `= board`: the engine's `board` output equals the harness's board.
    Board,
    /// `= close`: close the engine's stdin (end of input).
    Close,
    /// `= exit N`: the engine exits by itself with status N.
    Exit(i32),
}

struct Line {
    number: usize,
    text: String,
    directive: Directive,
}

/// Expands the escapes of a `>` line: `\r \n \t \s \\ \xHH` and `\{TEXT*N}` (TEXT repeated
/// N times). `\?` (a quiet turn, chosen when sent) is returned as an offset.
fn unescape(text: &str) -> Result<(Vec<u8>, Vec<usize>), String> {
    let mut out = Vec::new();
    let mut quiet = Vec::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        match chars.next() {
            Some('r') => out.push(b'\r'),
            Some('n') => out.push(b'\n'),
            Some('t') => out.push(b'\t'),
            Some('s') => out.push(b' '),
            Some('\\') => out.push(b'\\'),
            Some('?') => quiet.push(out.len()),
            Some('x') => {
                let hex: String = chars.by_ref().take(2).collect();
                let byte = u8::from_str_radix(&hex, 16)
                    .map_err(|_| format!("bad escape '\\x{hex}' (two hex digits)"))?;
                out.push(byte);
            }
            Some('{') => {
                let body: String = chars.by_ref().take_while(|&c| c != '}').collect();
                let (unit, count) = body
                    .rsplit_once('*')
                    .ok_or_else(|| format!("bad escape '\\{{{body}}}' (want \\{{TEXT*N}})"))?;
                let count: usize = count
                    .parse()
                    .map_err(|_| format!("bad repeat count in '\\{{{body}}}'"))?;
                out.extend(unit.as_bytes().repeat(count));
            }
            other => return Err(format!("unknown escape '\\{}'", other.unwrap_or(' '))),
        }
    }
    Ok((out, quiet))
}

fn parse_transcript(text: &str) -> Result<Vec<Line>, String> {
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let number = i + 1;
        let fail = |why: String| format!("line {number}: {why}: {raw}");
        let trimmed = raw.trim_end();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let directive = if let Some(rest) = raw.strip_prefix(">> ") {
            let (bytes, quiet) = unescape(rest).map_err(fail)?;
            Directive::Send(bytes, quiet)
        } else if let Some(rest) = raw.strip_prefix("> ") {
            let (mut bytes, quiet) = unescape(rest).map_err(fail)?;
            bytes.push(b'\n');
            Directive::Send(bytes, quiet)
        } else if let Some(rest) = trimmed.strip_prefix("< ") {
            Directive::Expect(match rest {
                "?legal" => Check::Legal,
                "?six" => Check::Six,
                "?blocks" => Check::Blocks,
                "?none" => Check::Nothing,
                _ if rest.starts_with('?') => return Err(fail("unknown check".into())),
                _ => Check::Exact(rest.to_string()),
            })
        } else if let Some(rest) = trimmed.strip_prefix("! ") {
            Directive::Stderr(rest.to_string())
        } else if let Some(rest) = trimmed.strip_prefix("@ args") {
            if !lines.is_empty() {
                return Err(fail(
                    "'@ args' must come before every other directive".into(),
                ));
            }
            Directive::Args(rest.split_whitespace().map(String::from).collect())
        } else if let Some(rest) = trimmed.strip_prefix("= ") {
            match rest.split_whitespace().collect::<Vec<_>>().as_slice() {
                ["board"] => Directive::Board,
                ["close"] => Directive::Close,
                ["exit", n] => {
                    Directive::Exit(n.parse().map_err(|_| fail("bad exit status".into()))?)
                }
                _ => return Err(fail("unknown '=' directive".into())),
            }
        } else {
            return Err(fail("unknown directive".into()));
        };
        lines.push(Line {
            number,
            text: trimmed.to_string(),
            directive,
        });
    }
    Ok(lines)
}

// ---------------------------------------------------------------------------------------
// The engine process.

type Stamped = (Instant, String);

fn read_lines(pipe: impl Read + Send + 'static) -> (Receiver<Stamped>, JoinHandle<()>) {
    let (tx, rx) = channel();
    let handle = std::thread::spawn(move || {
        let mut reader = BufReader::new(pipe);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match reader.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    // Keep a stray '\r' visible: replies must end in a bare '\n'.
                    let text = String::from_utf8_lossy(&buf);
                    let text = text.strip_suffix('\n').unwrap_or(&text).to_string();
                    if tx.send((Instant::now(), text)).is_err() {
                        break;
                    }
                }
            }
        }
    });
    (rx, handle)
}

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: Receiver<Stamped>,
    stderr: Receiver<Stamped>,
    stdout_thread: Option<JoinHandle<()>>,
    /// Every stderr line so far, and where the current window (since the last send) starts.
    stderr_all: Vec<String>,
    stderr_window: usize,
    exited: bool,
}

impl Engine {
    fn start(args: &[String]) -> Engine {
        let program = common::engine_command();
        Engine::spawn(
            &program.iter().map(String::as_str).collect::<Vec<_>>(),
            args,
        )
    }

    /// `program` is the command (and its first arguments) standing in for the engine.
    fn spawn(program: &[&str], args: &[String]) -> Engine {
        let mut child = Process::new(program[0])
            .args(&program[1..])
            .args(args)
            .env("RUST_LOG", "warn")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the connect6 binary");
        let (stdout, stdout_thread) = read_lines(child.stdout.take().unwrap());
        let (stderr, _) = read_lines(child.stderr.take().unwrap());
        Engine {
            stdin: child.stdin.take(),
            child,
            stdout,
            stderr,
            stdout_thread: Some(stdout_thread),
            stderr_all: Vec::new(),
            stderr_window: 0,
            exited: false,
        }
    }

    fn send(&mut self, bytes: &[u8]) -> Result<Instant, String> {
        self.drain_stderr();
        self.stderr_window = self.stderr_all.len();
        let stdin = self.stdin.as_mut().ok_or("stdin is already closed")?;
        stdin
            .write_all(bytes)
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("writing to the engine failed: {e}"))?;
        Ok(Instant::now())
    }

    fn drain_stderr(&mut self) {
        while let Ok((_, line)) = self.stderr.try_recv() {
            self.stderr_all.push(line);
        }
    }

    /// A stdout line that arrived without being asked for.
    fn stray_stdout(&mut self) -> Option<String> {
        self.stdout.try_recv().ok().map(|(_, l)| l)
    }

    fn next_stdout(&mut self, deadline: Instant) -> Result<Stamped, String> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.stdout.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(format!("no reply within {wait:.2?}")),
            Err(RecvTimeoutError::Disconnected) => Err("stdout closed: the engine exited".into()),
        }
    }

    /// Waits for a stderr line (since the last send) containing `text`; its index.
    fn find_stderr(&mut self, text: &str, deadline: Instant) -> Result<usize, String> {
        loop {
            self.drain_stderr();
            if let Some(i) = (self.stderr_window..self.stderr_all.len())
                .find(|&i| self.stderr_all[i].contains(text))
            {
                return Ok(i);
            }
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.stderr.recv_timeout(wait) {
                Ok((_, line)) => self.stderr_all.push(line),
                Err(_) => {
                    return Err(format!(
                        "no stderr line containing '{text}' (stderr since the last send: {:?})",
                        &self.stderr_all[self.stderr_window..]
                    ));
                }
            }
        }
    }

    /// Waits for a stderr line (since the last send) containing `text` and consumes it.
    fn expect_stderr(&mut self, text: &str, deadline: Instant) -> Result<(), String> {
        let i = self.find_stderr(text, deadline)?;
        self.stderr_all.remove(i);
        Ok(())
    }

    fn close(&mut self) {
        self.stdin = None;
    }

    /// Waits for the process to end; then the whole of stdout has been read.
    fn wait(&mut self, deadline: Instant) -> Result<i32, String> {
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.exited = true;
                    if let Some(t) = self.stdout_thread.take() {
                        let _ = t.join();
                    }
                    return status
                        .code()
                        .ok_or_else(|| format!("killed by a signal ({status})"));
                }
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                Ok(None) => return Err("the engine did not exit in time".into()),
                Err(e) => return Err(format!("wait failed: {e}")),
            }
        }
    }

    fn stderr_tail(&mut self) -> String {
        std::thread::sleep(Duration::from_millis(50));
        self.drain_stderr();
        let from = self.stderr_all.len().saturating_sub(12);
        if from == self.stderr_all.len() {
            return "(nothing)".into();
        }
        self.stderr_all[from..].join("\n")
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if !self.exited {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

// ---------------------------------------------------------------------------------------
// The referee's model of the game: what the engine must have done with each line.

#[derive(Debug, Clone, Copy, PartialEq)]
enum Owed {
    Name,
    Move,
}

struct Model {
    board: Board,
    me: Option<Color>,
    awaiting_colour: bool,
    /// Stones were placed by hand since the game began: the next `move` is the side to
    /// move's, and the engine takes the other colour.
    set_up: bool,
    quit: bool,
    /// Turns and placement lines since the board was cleared, with the colour and set-up
    /// flag before each, for `undo`.
    history: Vec<(Color, Vec<Cell>, Option<Color>, bool)>,
    /// Bytes sent after the last line end.
    partial: Vec<u8>,
    /// Complete lines the engine has been sent but the model has not yet applied (they wait
    /// behind a reply still owed), with the time they were sent.
    pending: VecDeque<(Vec<u8>, Instant)>,
    /// The reply the engine owes, the line that caused it, and when that line was sent.
    owed: Option<(Owed, String, Instant)>,
    move_time: Duration,
    /// `--game-time`: the game clock each new game starts with.
    game_time: Option<Duration>,
    /// The game clock, less the engine's replies since it was set.
    game_left: Option<Duration>,
    long_first: bool,
    name: String,
}

impl Model {
    fn new(args: &[String]) -> Model {
        let value = |flag: &str| {
            args.iter()
                .position(|a| a == flag)
                .and_then(|i| args.get(i + 1))
        };
        let move_time = value("--move-time").map_or(5.0, |v| v.parse().expect("--move-time"));
        let game_time =
            value("--game-time").map(|v| Duration::from_secs_f64(v.parse().expect("--game-time")));
        Model {
            board: Board::new(),
            me: None,
            awaiting_colour: false,
            set_up: false,
            quit: false,
            history: Vec::new(),
            partial: Vec::new(),
            pending: VecDeque::new(),
            owed: None,
            move_time: Duration::from_secs_f64(move_time),
            game_time,
            game_left: None,
            long_first: !args.iter().any(|a| a == "--short-first"),
            name: value("--name")
                .cloned()
                .unwrap_or_else(|| "Connect6".into()),
        }
    }

    fn feed(&mut self, bytes: &[u8], at: Instant) {
        for &b in bytes {
            self.partial.push(b);
            if b == b'\n' {
                let line = std::mem::take(&mut self.partial);
                self.pending.push_back((line, at));
            }
        }
    }

    fn feed_eof(&mut self, at: Instant) {
        if !self.partial.is_empty() {
            let line = std::mem::take(&mut self.partial);
            self.pending.push_back((line, at));
        }
    }

    /// Applies pending lines until one makes the engine owe a reply.
    fn advance(&mut self) {
        while self.owed.is_none() && !self.quit {
            let Some((line, at)) = self.pending.pop_front() else {
                return;
            };
            let shown = String::from_utf8_lossy(&line).trim_end().to_string();
            if let Some(owed) = self.apply(&line) {
                self.owed = Some((owed, shown, at));
            }
        }
    }

    /// One line as the engine must treat it; bad lines change nothing.
    fn apply(&mut self, line: &[u8]) -> Option<Owed> {
        let Ok(text) = std::str::from_utf8(line) else {
            return None;
        };
        let text = text.trim_end_matches(['\n', '\r']);
        if text.len() > MAX_LINE || text.trim().is_empty() {
            return None;
        }
        let command: Command = text.parse().ok()?;
        match command {
            Command::Name => return Some(Owed::Name),
            Command::New(Some(c)) => return self.start(c),
            Command::New(None) => {
                self.board = Board::new();
                self.history.clear();
                self.me = None;
                self.awaiting_colour = true;
            }
            Command::Colour(c) if self.awaiting_colour => return self.start(c),
            Command::Colour(_) => {}
            Command::Move(turn) => {
                // A game, or stones set up by hand, is a position to move in.
                if self.me.is_none() && !self.set_up {
                    return None;
                }
                let mover = self.board.side_to_move();
                if (Some(mover) == self.me && !self.set_up) || self.board.play_turn(&turn).is_err()
                {
                    return None;
                }
                let before = (self.me, self.set_up);
                self.history
                    .push((mover, turn.cells().collect(), before.0, before.1));
                self.me = Some(mover.other());
                self.awaiting_colour = false;
                self.set_up = false;
                return (!self.board.is_over()).then_some(Owed::Move);
            }
            Command::End => {
                self.me = None;
                self.awaiting_colour = false;
                self.set_up = false;
                self.history.clear();
            }
            Command::Quit => self.quit = true,
            Command::Place(colour, cells) => {
                if !self.board.is_over() && cells.iter().all(|&c| self.board.is_empty(c)) {
                    for &c in &cells {
                        self.board.place(c, colour);
                    }
                    self.history.push((colour, cells, self.me, self.set_up));
                    self.set_up = true;
                }
            }
            Command::Next if !self.board.is_over() && (self.me.is_some() || self.set_up) => {
                self.awaiting_colour = false;
                self.set_up = false;
                self.me = Some(self.board.side_to_move());
                return Some(Owed::Move);
            }
            Command::Time(t) => self.move_time = Duration::from_secs_f64(t),
            Command::TimeLeft(t) => self.game_left = Some(Duration::from_secs_f64(t)),
            Command::Undo => {
                if let Some((_, cells, me, set_up)) = self.history.pop() {
                    for c in cells {
                        self.board.remove(c);
                    }
                    self.me = me;
                    self.set_up = set_up;
                }
            }
            Command::Next
            | Command::RefereeError
            | Command::Board
            | Command::Help
            | Command::Depth(_) => {}
        }
        None
    }

    fn start(&mut self, colour: Color) -> Option<Owed> {
        self.board = Board::new();
        self.history.clear();
        self.me = Some(colour);
        self.awaiting_colour = false;
        self.set_up = false;
        self.game_left = self.game_time;
        (colour == Color::Black).then_some(Owed::Move)
    }

    /// The longest a move may take, as protocol.md promises: the per-move cap, and with a game
    /// clock at most a quarter of what is left (the engine keeps its margin inside both).
    fn allowance(&self) -> Duration {
        match self.game_left {
            Some(left) => self.move_time.min(left / 4),
            None => self.move_time,
        }
    }

    /// Checks the engine's `move` reply against the rules and plays it.
    fn engine_moved(&mut self, reply: &str) -> Result<Turn, String> {
        let me = self.me.ok_or("the harness has no colour for the engine")?;
        let text = reply
            .strip_prefix("move ")
            .ok_or_else(|| format!("'{reply}' is not a move"))?;
        let turn = Turn::parse(text).map_err(|e| format!("'{reply}': {e}"))?;
        let canonical = turn.to_protocol(self.long_first);
        if canonical != text {
            return Err(format!("'{reply}' should be spelled 'move {canonical}'"));
        }
        if self.board.side_to_move() != me {
            return Err(format!("'{reply}' but it is not {me}'s turn"));
        }
        self.board
            .play_turn(&turn)
            .map_err(|e| format!("illegal reply '{reply}': {e}"))?;
        self.history
            .push((me, turn.cells().collect(), self.me, self.set_up));
        Ok(turn)
    }
}

/// A legal turn for the side to move that builds nothing: each stone at least three cells
/// from every stone on the board and from the other.
fn quiet_turn(board: &Board) -> Result<Turn, String> {
    let mut cells = Vec::new();
    // A stride coprime with 361 visits every cell, scattered over the board.
    for i in 0..CELLS {
        let c = Cell::from_index((i * 7 + 3) % CELLS);
        if board.is_empty(c)
            && board.nearby(c) == 0
            && cells.iter().all(|&o: &Cell| o.distance(c) >= 3)
        {
            cells.push(c);
            if cells.len() == board.stones_this_turn() {
                return Ok(match cells[..] {
                    [a] => Turn::one(a),
                    [a, b] => Turn::two(a, b),
                    _ => unreachable!(),
                });
            }
        }
    }
    Err("no quiet turn left for '\\?'".into())
}

// ---------------------------------------------------------------------------------------
// Running a transcript.

struct Runner {
    engine: Engine,
    model: Model,
    /// When the last stdout line arrived: a reply's clock starts at the later of this and the
    /// send of the line that caused it.
    last_reply: Instant,
}

impl Runner {
    fn reply_deadline(&self, since: Instant) -> (Instant, Instant) {
        let start = since.max(self.last_reply);
        (start, start + self.model.allowance() + MARGIN)
    }

    fn run(&mut self, directive: &Directive) -> Result<(), String> {
        match directive {
            Directive::Args(_) => Ok(()),
            Directive::Send(bytes, quiet) => {
                if let Some((_, cause, _)) = &self.model.owed {
                    return Err(format!(
                        "the engine still owes a reply to '{cause}': check it with '<' first"
                    ));
                }
                if let Some(line) = self.engine.stray_stdout() {
                    return Err(format!("unexpected stdout line '{line}'"));
                }
                let mut bytes = bytes.clone();
                for &at in quiet.iter().rev() {
                    let turn = quiet_turn(&self.model.board)?;
                    bytes.splice(at..at, turn.to_string().into_bytes());
                }
                let at = self.engine.send(&bytes)?;
                self.model.feed(&bytes, at);
                self.model.advance();
                Ok(())
            }
            Directive::Expect(Check::Nothing) => {
                self.model.advance();
                if let Some((_, cause, _)) = &self.model.owed {
                    return Err(format!("the rules say '{cause}' gets a reply"));
                }
                self.probe()
            }
            Directive::Expect(check) => self.expect(check),
            Directive::Stderr(text) => self
                .engine
                .expect_stderr(text, Instant::now() + QUICK + self.model.move_time),
            Directive::Board => self.compare_board(),
            Directive::Close => {
                self.engine.close();
                self.model.feed_eof(Instant::now());
                self.model.advance();
                Ok(())
            }
            Directive::Exit(code) => {
                self.model.advance();
                if let Some((_, cause, _)) = &self.model.owed {
                    return Err(format!("the engine still owes a reply to '{cause}'"));
                }
                let got = self
                    .engine
                    .wait(Instant::now() + self.model.move_time + MARGIN + QUICK)?;
                if let Some(line) = self.engine.stray_stdout() {
                    return Err(format!("unexpected stdout line '{line}'"));
                }
                if got != *code {
                    return Err(format!("exit status {got}, expected {code}"));
                }
                Ok(())
            }
        }
    }

    fn expect(&mut self, check: &Check) -> Result<(), String> {
        self.model.advance();
        let Some((owed, cause, since)) = self.model.owed.clone() else {
            return Err("no line sent so far is owed a reply".into());
        };
        let (start, deadline) = self.reply_deadline(since);
        let (arrived, line) = self
            .engine
            .next_stdout(deadline)
            .map_err(|e| format!("{e} (waiting for the reply to '{cause}')"))?;
        self.last_reply = arrived;
        let took = arrived - start;
        let allowance = self.model.allowance();
        if took > allowance + lateness_allowed(allowance) {
            return Err(format!(
                "reply '{line}' took {took:?}, allowed {allowance:?} and a margin"
            ));
        }
        let me = self.model.me;
        match (check, owed) {
            (Check::Exact(want), _) if *want != line => {
                return Err(format!("got '{line}' in reply to '{cause}'"));
            }
            (Check::Exact(_), Owed::Name) => {}
            (_, Owed::Name) => {
                return Err(format!("'{cause}' is answered with a name, not a move"));
            }
            (_, Owed::Move) => {
                let me = me.expect("a move is owed only with a colour");
                if *check == Check::Blocks && !self.model.board.has_threat_window(me.other()) {
                    return Err(format!(
                        "'?blocks', but {} has no threat to stop",
                        me.other()
                    ));
                }
                self.model.engine_moved(&line)?;
                // The engine counts its thinking off its clock; the harness's count of it
                // (from the send) is the larger, so its clock is never the more generous.
                if let Some(left) = &mut self.model.game_left {
                    *left = left.saturating_sub(took);
                }
                let board = &self.model.board;
                match check {
                    Check::Six if board.winner() != Some(me) => {
                        return Err(format!("'{line}' does not complete a six"));
                    }
                    Check::Blocks
                        if board.winner() != Some(me) && board.has_threat_window(me.other()) =>
                    {
                        return Err(format!(
                            "after '{line}' {} still has a threat:\n{}",
                            me.other(),
                            board.render()
                        ));
                    }
                    _ => {}
                }
            }
        }
        self.model.owed = None;
        self.model.advance();
        Ok(())
    }

    /// Proves the engine has nothing more to say: sends `name?` and wants its answer next.
    fn probe(&mut self) -> Result<(), String> {
        if !self.model.partial.is_empty() {
            return Err("'?none' after a line without its line end".into());
        }
        let at = self.engine.send(b"name?\n")?;
        let want = format!("name {}", self.model.name);
        let (arrived, line) = self
            .engine
            .next_stdout(at + self.model.move_time + MARGIN)
            .map_err(|e| format!("{e} (waiting for the answer to the 'name?' probe)"))?;
        self.last_reply = arrived;
        if line != want {
            return Err(format!(
                "expected no reply, but the engine said '{line}' (before '{want}')"
            ));
        }
        Ok(())
    }

    /// Sends `board` and compares the engine's drawing on stderr with the model's board.
    fn compare_board(&mut self) -> Result<(), String> {
        self.model.advance();
        if self.model.owed.is_some() || !self.model.partial.is_empty() {
            return Err("'= board' while a reply is owed or a line is unfinished".into());
        }
        let last = self
            .model
            .history
            .last()
            .map(|(c, cells, ..)| (*c, cells.as_slice()));
        let want = describe_position(&self.model.board, last, self.model.me);
        let want: Vec<&str> = want.lines().collect();
        self.engine.send(b"board\n")?;
        let deadline = Instant::now() + QUICK;
        let start = self
            .engine
            .find_stderr(want[0], deadline)
            .map_err(|_| "no board drawing on stderr".to_string())?;
        let end = start + want.len();
        while self.engine.stderr_all.len() < end {
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.engine.stderr.recv_timeout(wait) {
                Ok((_, line)) => self.engine.stderr_all.push(line),
                Err(_) => return Err("the board drawing was cut short".into()),
            }
        }
        let got: Vec<String> = self.engine.stderr_all.drain(start..end).collect();
        if got != want {
            return Err(format!(
                "the engine's board differs from the harness's\nengine:\n{}\nharness:\n{}",
                got.join("\n"),
                want.join("\n")
            ));
        }
        Ok(())
    }
}

pub fn run_transcript(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let program = common::engine_command();
    let program: Vec<&str> = program.iter().map(String::as_str).collect();
    run_text(&path.display().to_string(), &text, &program)
}

/// Runs a transcript against `program` (the engine binary, or a stand-in).
fn run_text(name: &str, text: &str, program: &[&str]) -> Result<(), String> {
    let lines = parse_transcript(text).map_err(|e| format!("{name}: {e}"))?;
    let args: Vec<String> = match lines.first().map(|l| &l.directive) {
        Some(Directive::Args(a)) => a.clone(),
        _ => DEFAULT_ARGS.iter().map(|s| s.to_string()).collect(),
    };
    let mut runner = Runner {
        engine: Engine::spawn(program, &args),
        model: Model::new(&args),
        last_reply: Instant::now(),
    };
    let mut finished = false;
    for line in &lines {
        finished = matches!(line.directive, Directive::Exit(_));
        if let Err(e) = runner.run(&line.directive) {
            return Err(format!(
                "{name}:{}: `{}`: {e}\n--- engine stderr (last lines) ---\n{}",
                line.number,
                line.text,
                runner.engine.stderr_tail()
            ));
        }
    }
    if !finished {
        // Every conversation ends with end of input and a clean exit.
        for d in [Directive::Close, Directive::Exit(0)] {
            runner
                .run(&d)
                .map_err(|e| format!("{name}: at the end of the transcript: {e}"))?;
        }
    }
    runner.engine.drain_stderr();
    if let Some(l) = runner
        .engine
        .stderr_all
        .iter()
        .find(|l| l.contains("panicked"))
    {
        return Err(format!("{name}: the engine panicked: {l}"));
    }
    Ok(())
}

pub fn transcript_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("referee-transcripts")
}

macro_rules! transcripts {
    ($($test:ident => $file:literal,)*) => {
        /// Each test and its transcript, for `tests/wine.rs`.
        pub const TRANSCRIPTS: &[(&str, &str)] = &[$((stringify!($test), $file)),*];

        $(
            #[test]
            fn $test() {
                if let Err(e) = run_transcript(&transcript_dir().join($file)) {
                    panic!("{e}");
                }
            }
        )*

        /// Every transcript on disk has a test above.
        #[test]
        fn every_transcript_is_listed() {
            let listed: Vec<&str> = TRANSCRIPTS.iter().map(|(_, file)| *file).collect();
            for entry in std::fs::read_dir(transcript_dir()).unwrap() {
                let name = entry.unwrap().file_name().into_string().unwrap();
                if name.ends_with(".txt") {
                    assert!(listed.contains(&name.as_str()), "{name} is not listed in tests/transcripts.rs");
                }
            }
        }
    };
}

transcripts! {
    handshake => "handshake.txt",
    short_first_move => "short-first-move.txt",
    first_move_forms => "first-move-forms.txt",
    split_new => "split-new.txt",
    crlf_line_ends => "crlf.txt",
    several_games => "several-games.txt",
    end_error_quit => "end-error-quit.txt",
    end_of_input => "end-of-input.txt",
    eof_while_thinking => "eof-while-thinking.txt",
    bad_commands => "bad-commands.txt",
    bad_coordinates => "bad-coordinates.txt",
    bad_bytes => "bad-bytes.txt",
    bad_state => "bad-state.txt",
    win_in_one => "win-in-one.txt",
    forced_block => "forced-block.txt",
    opponent_wins => "opponent-wins.txt",
    full_board => "full-board.txt",
    combined_write => "combined-write.txt",
    extensions => "extensions.txt",
    readme_example => "readme-example.txt",
    undo => "undo.txt",
    time_left => "time-left.txt",
    ponder => "ponder.txt",
    messages => "messages.txt",
    threads => "threads.txt",
    opening_book => "book.txt",
}

// ---------------------------------------------------------------------------------------
// The harness checks itself.

#[test]
fn escapes() {
    let bytes = |s: &str| unescape(s).unwrap().0;
    assert_eq!(bytes(r"a\sb\r\n\t\\"), b"a b\r\n\t\\");
    assert_eq!(bytes(r"\x00\xff"), [0, 255]);
    assert_eq!(bytes(r"move \{J*3}"), b"move JJJ");
    assert_eq!(bytes(r"\{ab*2}!"), b"abab!");
    assert_eq!(unescape(r"move \?").unwrap(), (b"move ".to_vec(), vec![5]));
    assert!(unescape(r"\q").is_err());
    assert!(unescape(r"\xZZ").is_err());
}

#[test]
fn directives() {
    let lines = parse_transcript(
        "@ args --move-time 0.1\n# comment\n\n> name?\n>> new\n< name X\n< ?legal\n! oops\n= board\n= close\n= exit 0\n",
    )
    .unwrap();
    let d: Vec<Directive> = lines.into_iter().map(|l| l.directive).collect();
    assert_eq!(
        d,
        vec![
            Directive::Args(vec!["--move-time".into(), "0.1".into()]),
            Directive::Send(b"name?\n".to_vec(), vec![]),
            Directive::Send(b"new".to_vec(), vec![]),
            Directive::Expect(Check::Exact("name X".into())),
            Directive::Expect(Check::Legal),
            Directive::Stderr("oops".into()),
            Directive::Board,
            Directive::Close,
            Directive::Exit(0),
        ]
    );
    assert!(parse_transcript("< ?what\n").is_err());
    assert!(parse_transcript("> a\n@ args\n").is_err());
    assert!(parse_transcript("hello\n").is_err());
}

/// The harness fails what it should: wrong or missing replies, stray output, bad exits.
#[test]
fn the_harness_catches_bad_engines() {
    let engine = [env!("CARGO_BIN_EXE_connect6")];
    let fails = |program: &[&str], text: &str, why: &str| {
        let text = format!("@ args --move-time 0.2 --hash 4\n{text}");
        match run_text("bad", &text, program) {
            Ok(()) => panic!("passed:\n{text}"),
            Err(e) => assert!(e.contains(why), "wanted '{why}', got: {e}"),
        }
    };
    fails(&engine, "> new black\n< move KK@@\n", "got 'move JJ@@'");
    fails(&engine, "> new black\n< ?six\n", "does not complete a six");
    fails(&engine, "> new black\n< ?blocks\n", "has no threat to stop");
    fails(&engine, "> new black\n> end\n", "still owes a reply");
    fails(
        &engine,
        "> new white\n< ?legal\n",
        "no line sent so far is owed",
    );
    fails(
        &engine,
        "> new white\n! bad luck\n",
        "no stderr line containing",
    );
    if cfg!(unix) {
        // Stand-ins: one answers every line with a move, one never answers, one exits 3.
        let chatty = ["sh", "-c", "while read l; do echo 'move JJ@@'; done"];
        fails(&chatty, "> new white\n< ?none\n", "expected no reply");
        fails(
            &chatty,
            "> new white\n> move KK\n< ?legal\n",
            "illegal reply",
        );
        fails(&chatty, "> name?\n< name Connect6\n", "got 'move JJ@@'");
        fails(&chatty, "> end\n= close\n", "unexpected stdout line");
        let mute = ["sh", "-c", "cat >/dev/null"];
        fails(&mute, "> new black\n< ?legal\n", "no reply within");
        fails(&["sh", "-c", "exit 3"], "= exit 0\n", "exit status 3");
        let header = Board::new().render().lines().next().unwrap().to_string();
        let scribble = format!(
            "while read l; do echo '{header}' >&2; for i in $(seq 21); do echo x >&2; done; done"
        );
        fails(&["sh", "-c", &scribble], "= board\n", "board differs");
    }
}

/// The real engine behind a filter that drops its valid `time left` (or `time`) lines: an
/// engine that ignores the clock, which `time-left.txt` must fail on a reply's time.
#[cfg(unix)]
#[test]
fn an_engine_that_ignores_the_clock_fails_time_left() {
    let text = std::fs::read_to_string(transcript_dir().join("time-left.txt")).unwrap();
    for ignored in ["time left", "time"] {
        // `exec` leaves the engine the process the harness waits for.
        let filter = format!(
            "exec \"$0\" \"$@\" < <(grep --line-buffered -i -v -E '^{ignored} (0\\.[1-9]|[1-9])[0-9.]*$')"
        );
        let program = ["bash", "-c", &filter, env!("CARGO_BIN_EXE_connect6")];
        match run_text("time-left.txt", &text, &program) {
            Ok(()) => panic!("an engine ignoring '{ignored}' passed time-left.txt"),
            Err(e) => assert!(e.contains("allowed"), "ignoring '{ignored}': {e}"),
        }
    }
}

// ---------------------------------------------------------------------------------------
// A whole game of the engine against itself.

/// Sends `line` to engine `side` and, unless the game is over, checks and plays its reply.
fn relay(
    engines: &mut [Engine; 2],
    side: usize,
    line: &str,
    board: &mut Board,
    log: &mut String,
) -> Option<String> {
    let limit = Duration::from_secs_f64(SELF_PLAY_MOVE_TIME) + MARGIN;
    let at = engines[side].send(format!("{line}\n").as_bytes()).unwrap();
    let _ = writeln!(log, "-> {side}: {line}");
    if line.starts_with("move") && board.is_over() {
        return None;
    }
    let (arrived, reply) = engines[side]
        .next_stdout(at + limit)
        .unwrap_or_else(|e| panic!("engine {side}: {e} after '{line}'\n{log}"));
    let _ = writeln!(log, "<- {side}: {reply}");
    let allowance = Duration::from_secs_f64(SELF_PLAY_MOVE_TIME);
    assert!(
        arrived - at <= allowance + lateness_allowed(allowance),
        "engine {side} took {:?}",
        arrived - at
    );
    let text = reply
        .strip_prefix("move ")
        .unwrap_or_else(|| panic!("engine {side} said '{reply}'\n{log}"));
    let turn = Turn::parse(text).unwrap_or_else(|e| panic!("'{reply}': {e}\n{log}"));
    // Black (engine 0) runs with --short-first.
    assert_eq!(turn.to_protocol(side == 1), text, "{log}");
    assert_eq!(board.side_to_move().index(), side, "out of turn\n{log}");
    board
        .play_turn(&turn)
        .unwrap_or_else(|e| panic!("engine {side}: '{reply}': {e}\n{log}"));
    Some(text.to_string())
}

const SELF_PLAY_MOVE_TIME: f64 = 0.1;

#[test]
fn self_play_game() {
    self_play();
}

/// The cases besides the transcripts, for `tests/wine.rs`.
pub const CASES: &[(&str, fn())] = &[
    (
        "first_reply_in_time_from_start_up",
        first_reply_in_time_from_start_up,
    ),
    ("self_play_game", self_play),
];

/// The move time counts from the process's start: a referee that starts the engine and
/// writes at once gets the first reply, to a position where the engine spends its whole cap,
/// within `--move-time` plus `START_UP_TOLERANCE`, the start-up included. Under Wine that
/// start-up is Windows' loader too; a Wine that must first start its server is warmed up by
/// `tests/wine.rs` before any test.
#[test]
fn first_reply_within_the_cap_from_start_up() {
    first_reply_in_time_from_start_up();
}

/// A referee's tolerance past the move time (the `match` referee's: 0.2 s), with the
/// scheduling noise of a shared machine.
const START_UP_TOLERANCE: Duration = Duration::from_millis(300);

pub fn first_reply_in_time_from_start_up() {
    let cap = Duration::from_secs(1);
    // Without the opening book, which answers this position at once.
    let args: Vec<String> = ["--move-time", "1", "--hash", "8", "--no-book"]
        .map(String::from)
        .into();
    let began = Instant::now();
    let mut engine = Engine::start(&args);
    // White after black's first stone: nothing is forced, so the search uses the clock.
    engine.send(b"new white\nmove JJ\n").unwrap();
    let (arrived, reply) = engine
        .next_stdout(began + cap + MARGIN)
        .unwrap_or_else(|e| panic!("{e}"));
    let took = arrived - began;
    assert!(reply.starts_with("move "), "{reply}");
    assert!(
        took <= cap + START_UP_TOLERANCE,
        "the first reply came {took:?} after the start, for a {cap:?} cap"
    );
    // The engine spent its time: the bound above is about its clock, not a quick answer.
    assert!(took >= cap / 2, "the first reply came after only {took:?}");
}

/// Relays moves between two engine processes (black with `--short-first`) until six or a
/// full board, checking every reply against the rules and its time.
pub fn self_play() {
    let args = |extra: &[&str]| -> Vec<String> {
        let time = SELF_PLAY_MOVE_TIME.to_string();
        let mut a: Vec<String> = vec!["--move-time".into(), time, "--hash".into(), "4".into()];
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let mut engines = [
        Engine::start(&args(&["--short-first", "--name", "Black"])),
        Engine::start(&args(&["--name", "White"])),
    ];
    let limit = Duration::from_secs_f64(SELF_PLAY_MOVE_TIME) + MARGIN;
    let mut board = Board::new();
    let mut log = String::new();
    engines[1].send(b"new white\n").unwrap();
    let mut last = relay(&mut engines, 0, "new black", &mut board, &mut log).unwrap();
    let mut side = 1;
    while let Some(reply) = relay(
        &mut engines,
        side,
        &format!("move {last}"),
        &mut board,
        &mut log,
    ) {
        last = reply;
        side = 1 - side;
    }
    let winner = board.winner();
    eprintln!(
        "self-play: {} stones, winner {winner:?}\n{}",
        board.stone_total(),
        board.render()
    );
    assert!(winner.is_some() || board.is_full());
    // The engine whose opponent ended the game stays silent; both still answer and exit.
    for (i, engine) in engines.iter_mut().enumerate() {
        let name = ["Black", "White"][i];
        let at = engine.send(b"name?\n").unwrap();
        let (_, line) = engine.next_stdout(at + limit).unwrap();
        assert_eq!(line, format!("name {name}"), "engine {i} said more\n{log}");
        engine.send(b"end\nquit\n").unwrap();
        assert_eq!(engine.wait(Instant::now() + limit + QUICK), Ok(0));
        assert_eq!(engine.stray_stdout(), None);
        engine.drain_stderr();
        assert!(
            !engine
                .stderr_all
                .iter()
                .any(|l| l.contains("ERROR") || l.contains("panicked")),
            "engine {i}: {:?}",
            engine.stderr_all
        );
    }
}

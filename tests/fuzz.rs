//! Fuzzing the protocol loop: a seeded run that drives the real binary through many games
//! with junk lines between the moves, keeps its own board, and checks that stdout carries
//! only the replies that are due, that every reply is a legal turn on the true board, and
//! that the engine exits with status 0 after `quit`.
//!
//! Knobs (environment variables): `FUZZ_LINES` lines in all (default 5000), `FUZZ_JUNK` the
//! mean number of junk lines between two moves (default 8), `FUZZ_SEED` (default 1). A
//! million-line run: `FUZZ_LINES=1000000 cargo test --release --test fuzz` (on the 2 shared
//! cores of the development machine: 1,000,004 lines, 21,181 games, 94,110 engine moves and
//! 3,187 undo pairs in 219 s; the default 5000 lines take about 2 s in a dev build). The seed
//! fixes the fuzzer's choices, but the engine stops its search on the clock as well as at
//! `--depth 2`, so its replies, and with them the games, can differ from run to run.
//!
//! Every junk line is chosen so that the engine must reject it (or, for `board`, `help` and
//! blank lines, ignore it) without any change: unknown words, bad and occupied coordinates,
//! wrong stone counts, lines over the 256-byte limit (some holding a move that would be
//! legal), bytes that are not UTF-8, stray CRs, `undo` with nothing to take back and moves
//! after the game ended. Good lines are varied too: CR LF line ends, a leading CR, lower
//! case, `XY` or `XY@@` for black's first stone, `new` and the colour on two lines, several
//! lines in one write, `undo` of a turn pair and a different move in its place.

use connect6::rng::Rng;
use connect6::rules::board::{Board, Color};
use connect6::rules::coord::{CELLS, Cell, Turn};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

fn env_number(name: &str, default: usize) -> usize {
    match std::env::var(name) {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v} is not a number")),
        Err(_) => default,
    }
}

/// Protocol command words: a junk word must be none of them.
const COMMANDS: &[&str] = &[
    "name?", "new", "move", "end", "error", "quit", "black", "white", "next", "board", "help",
    "depth", "time", "undo",
];

const MOVE_TIME: &str = "0.05";

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: Receiver<String>,
    stderr: JoinHandle<(u64, Vec<String>)>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_connect6"))
            .args(["--move-time", MOVE_TIME, "--depth", "2", "--hash", "4"])
            .env("RUST_LOG", "error")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the engine");
        let (tx, stdout) = channel();
        let out = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(out);
            let mut buf = Vec::new();
            while reader.read_until(b'\n', &mut buf).is_ok_and(|n| n > 0) {
                let _ = tx.send(String::from_utf8_lossy(&buf).into_owned());
                buf.clear();
            }
        });
        // Every rejected line is one error on stderr: drain it, count the error lines, keep the
        // last lines and any panic. The drawings of `board` and `help` are not log lines.
        let err = child.stderr.take().unwrap();
        let stderr = std::thread::spawn(move || {
            let mut reader = BufReader::new(err);
            let mut buf = Vec::new();
            let mut count = 0u64;
            let mut lines = 0usize;
            let mut kept: Vec<String> = Vec::new();
            while reader.read_until(b'\n', &mut buf).is_ok_and(|n| n > 0) {
                let line = String::from_utf8_lossy(&buf).into_owned();
                count += u64::from(is_error_line(&line));
                lines += 1;
                if line.contains("panicked") || kept.len() < 20 {
                    kept.push(line);
                } else {
                    kept[10 + (lines % 10)] = line;
                }
                buf.clear();
            }
            (count, kept)
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            stdout,
            stderr,
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to the engine");
        stdin.flush().unwrap();
    }

    /// The next stdout line, without its line end.
    fn line(&mut self, wait: Duration, context: &str) -> String {
        match self.stdout.recv_timeout(wait) {
            Ok(l) => {
                assert!(
                    l.ends_with('\n'),
                    "{context}: stdout line without line end: {l:?}"
                );
                l.trim_end_matches('\n').to_string()
            }
            Err(_) => panic!("{context}: no reply within {wait:?}"),
        }
    }
}

/// The fuzzer's model of the game.
struct Model {
    board: Board,
    /// The engine's colour while a game is on.
    engine: Option<Color>,
    /// Turns of the game so far, for `undo`.
    history: Vec<Turn>,
}

/// What a line sent is owed.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Due {
    Name,
    Move,
}

fn spell(turn: &Turn, rng: &mut Rng) -> String {
    let text = turn.to_protocol(rng.chance(50));
    if rng.chance(10) {
        text.to_ascii_lowercase()
    } else {
        text
    }
}

fn random_empty(board: &Board, rng: &mut Rng, near: bool) -> Cell {
    loop {
        let c = Cell::from_index(rng.below(CELLS));
        if board.is_empty(c) && (!near || board.nearby(c) > 0 || board.stone_total() == 0) {
            return c;
        }
    }
}

/// A legal turn for the side to move, mostly near the stones.
fn random_turn(board: &Board, rng: &mut Rng) -> Turn {
    let near = rng.chance(85);
    let a = random_empty(board, rng, near);
    if board.stones_this_turn() == 1 {
        return Turn::one(a);
    }
    loop {
        let b = random_empty(board, rng, near);
        if b != a {
            return Turn::two(a, b);
        }
    }
}

/// A log record at level ERROR: `[TIME ERROR TARGET] message` (the message may quote any
/// input, so only the head is read).
fn is_error_line(line: &str) -> bool {
    line.strip_prefix('[')
        .and_then(|l| l.split_once(']'))
        .is_some_and(|(head, _)| head.split(' ').nth(1) == Some("ERROR"))
}

/// A line the engine must reject or ignore, changing nothing, and whether it must say so on
/// stderr. `our_turn`: the opponent (we) is to move in a game that is on.
fn junk(model: &Model, rng: &mut Rng, our_turn: bool) -> (Vec<u8>, bool) {
    let board = &model.board;
    let stone_on_board = Cell::all().find(|&c| !board.is_empty(c));
    let mut line: Vec<u8> = match rng.below(12) {
        0 => {
            // An unknown word, maybe with arguments.
            let word: String = loop {
                let n = 1 + rng.below(8);
                let w: String = (0..n)
                    .map(|_| (b'a' + rng.below(26) as u8) as char)
                    .collect();
                if !COMMANDS.contains(&w.as_str()) {
                    break w;
                }
            };
            format!("{word} JJKK").into_bytes()
        }
        1 => {
            // Coordinates off the board or not letters.
            let bad = [
                "JZKK", "TTAA", "J1K2", "@@JJ", "JJJ", "JJKKLL", "AAAA", "ÉÉ", "JJ KK",
            ];
            format!("move {}", bad[rng.below(bad.len())]).into_bytes()
        }
        2 if our_turn && stone_on_board.is_some() => {
            // An occupied cell with an empty one.
            let taken = stone_on_board.unwrap();
            let free = random_empty(board, rng, false);
            let t = if board.stones_this_turn() == 1 {
                Turn::one(taken)
            } else {
                Turn::two(free, taken)
            };
            format!("move {}", t.to_protocol(false)).into_bytes()
        }
        3 if our_turn => {
            // The wrong number of stones: two for black's first turn, else one.
            let a = random_empty(board, rng, true);
            if board.stones_this_turn() == 1 {
                let b = random_empty(board, rng, false);
                if a == b {
                    b"move JJ JJ".to_vec()
                } else {
                    format!("move {a}{b}").into_bytes()
                }
            } else {
                format!("move {a}").into_bytes()
            }
        }
        4 => {
            // Over the 256-byte limit; sometimes a legal move padded out.
            let long = if rng.chance(3) {
                20_000 + rng.below(20_000)
            } else {
                257 + rng.below(400)
            };
            let head = if our_turn {
                format!("move {}", random_turn(board, rng).to_protocol(true))
            } else {
                "name?".to_string()
            };
            let mut l = head.into_bytes();
            let fill = if rng.chance(50) { b' ' } else { b'J' };
            l.resize(long.max(l.len() + 1), fill);
            l
        }
        5 => {
            // Bytes that are not UTF-8 (never a line end), after a command word or alone.
            let mut l = if rng.chance(50) {
                b"move ".to_vec()
            } else {
                Vec::new()
            };
            l.push(0xff);
            for _ in 0..rng.below(40) {
                let b = rng.below(256) as u8;
                if b != b'\n' {
                    l.push(b);
                }
            }
            l
        }
        6 => {
            // Stray CRs: in a word, at the ends of an unknown word; blank lines of CRs are
            // ignored silently.
            let cr = [
                "na\rme?",
                "mo\rve JJKK",
                "\rhello\r",
                "\r",
                "\r\r\r",
                " \r\t ",
            ];
            let i = rng.below(cr.len());
            return line_end(cr[i].as_bytes(), i < 3);
        }
        7 => return line_end(b"board", false),
        8 => return line_end(b"help", false),
        9 if model.history.is_empty() => b"undo".to_vec(),
        10 if model.engine.is_some() && board.is_over() => {
            format!("move {}", if board.is_full() { "AA" } else { "AABB" }).into_bytes()
        }
        11 => return line_end(b"error", false),
        _ => return line_end(b"\t  ", false),
    };
    line.push(b'\n');
    (line, true)
}

fn line_end(text: &[u8], error: bool) -> (Vec<u8>, bool) {
    let mut line = text.to_vec();
    line.push(b'\n');
    (line, error)
}

/// Reads and checks the replies owed, in order.
fn collect(engine: &mut Engine, model: &mut Model, due: &[Due], context: &str) {
    let wait = Duration::from_secs_f64(MOVE_TIME.parse::<f64>().unwrap()) + Duration::from_secs(10);
    for d in due {
        let line = engine.line(wait, context);
        match d {
            Due::Name => assert_eq!(line, "name Connect6", "{context}"),
            Due::Move => {
                let me = model.engine.expect("a game is on");
                assert_eq!(
                    model.board.side_to_move(),
                    me,
                    "{context}: reply out of turn"
                );
                let text = line
                    .strip_prefix("move ")
                    .unwrap_or_else(|| panic!("{context}: expected a move, got {line:?}"));
                let turn = Turn::parse(text).unwrap_or_else(|e| panic!("{context}: {line:?}: {e}"));
                assert_eq!(text, turn.to_protocol(true), "{context}: spelling");
                model
                    .board
                    .play_turn(&turn)
                    .unwrap_or_else(|e| panic!("{context}: illegal reply {line:?}: {e}"));
                model.history.push(turn);
            }
        }
    }
}

#[test]
fn junk_between_moves() {
    let total = env_number("FUZZ_LINES", 5000);
    let mean_junk = env_number("FUZZ_JUNK", 8);
    let seed = env_number("FUZZ_SEED", 1) as u64;
    let mut rng = Rng::new(seed);
    let mut engine = Engine::start();
    let mut model = Model {
        board: Board::new(),
        engine: None,
        history: Vec::new(),
    };
    let started = Instant::now();
    let (mut sent, mut games, mut replies, mut undos) = (0usize, 0usize, 0usize, 0usize);
    let mut errors_due = 0usize;
    while sent < total {
        let mut write: Vec<u8> = Vec::new();
        let mut due: Vec<Due> = Vec::new();
        let our_turn = model
            .engine
            .is_some_and(|me| !model.board.is_over() && model.board.side_to_move() != me);
        for _ in 0..rng.below(2 * mean_junk + 1) {
            let (line, error) = junk(&model, &mut rng, our_turn);
            write.extend(line);
            sent += 1;
            errors_due += usize::from(error);
            if rng.chance(3) {
                write.extend(b"name?\n");
                due.push(Due::Name);
                sent += 1;
            }
        }
        // Then one good line (or two), in the same write.
        let ending = if rng.chance(20) { "\r\n" } else { "\n" };
        if model.engine.is_none() || model.board.is_over() || rng.chance(1) {
            // A new game (sometimes abandoning one), after `end` when one finished.
            if model.engine.is_some() {
                write.extend(b"end\n");
                sent += 1;
            }
            let colour = if rng.chance(50) { "black" } else { "white" };
            if rng.chance(20) {
                write.extend(format!("new{ending}{colour}{ending}").as_bytes());
                sent += 2;
            } else {
                write.extend(format!("new {colour}{ending}").as_bytes());
                sent += 1;
            }
            model.board = Board::new();
            model.history.clear();
            model.engine = Some(if colour == "black" {
                due.push(Due::Move);
                Color::Black
            } else {
                Color::White
            });
            games += 1;
        } else if our_turn {
            if model.history.len() >= 2 && rng.chance(5) {
                // Take back the engine's reply and our turn; play again below.
                write.extend(b"undo\nundo\n");
                sent += 2;
                undos += 1;
                for _ in 0..2 {
                    let t = model.history.pop().unwrap();
                    for c in t.cells() {
                        model.board.remove(c);
                    }
                }
            }
            let turn = random_turn(&model.board, &mut rng);
            let lead = if rng.chance(5) { "\r" } else { "" };
            write.extend(format!("{lead}move {}{ending}", spell(&turn, &mut rng)).as_bytes());
            sent += 1;
            model.board.play_turn(&turn).unwrap();
            model.history.push(turn);
            if !model.board.is_over() {
                due.push(Due::Move);
            }
        }
        replies += due.iter().filter(|d| **d == Due::Move).count();
        engine.send(&write);
        let context = format!(
            "line {sent}, game {games}, seed {seed}; last write {:?}",
            String::from_utf8_lossy(&write[write.len().saturating_sub(300)..])
        );
        collect(&mut engine, &mut model, &due, &context);
    }
    // Nothing more on stdout: the next line is the answer to this probe.
    engine.send(b"name?\n");
    collect(&mut engine, &mut model, &[Due::Name], "final probe");
    engine.send(b"quit\n");
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(s) = engine.child.try_wait().unwrap() {
            break s;
        }
        assert!(
            Instant::now() < deadline,
            "the engine did not exit after quit"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    drop(engine.stdin.take());
    let (errors, kept) = engine.stderr.join().unwrap();
    // The reader ends at the end of stdout, which the exit closed.
    let mut rest = String::new();
    loop {
        match engine.stdout.recv_timeout(Duration::from_secs(10)) {
            Ok(line) => rest.push_str(&line),
            Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => panic!("stdout still open after the exit"),
        }
    }
    assert!(rest.is_empty(), "stdout after the last reply: {rest:?}");
    assert!(
        !kept.iter().any(|l| l.contains("panicked")),
        "the engine panicked: {kept:?}"
    );
    assert_eq!(status.code(), Some(0), "exit status; stderr: {kept:?}");
    // Each rejected line is exactly one error on stderr, as protocol.md promises.
    assert_eq!(
        errors as usize, errors_due,
        "error lines on stderr for {errors_due} rejected lines; the last lines: {kept:?}"
    );
    eprintln!(
        "fuzz: {sent} lines, {games} games, {replies} engine moves, {undos} undo pairs, \
         {errors} error lines, {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

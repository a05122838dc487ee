//! `connect6.ini` beside the executable: the engine started with no arguments (as a referee
//! platform starts it from its file dialog) plays with the file's name and move time, the
//! command line wins over the file, and a bad file is refused with one line naming the key.
//!
//! The binary under test (`common::engine_command()`, under Wine the .exe) is linked into a
//! folder of its own beside the file. `tests/wine.rs` runs these cases too (`CASES`).

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// The cases, for `tests/wine.rs`.
pub const CASES: &[(&str, fn())] = &[
    ("file_options_are_used", file_options_are_used),
    ("the_command_line_wins", the_command_line_wins),
    ("a_bad_file_is_refused", a_bad_file_is_refused),
];

/// The engine's default cap; a reply well under it shows the file's move time was used.
const DEFAULT_CAP: Duration = Duration::from_secs(5);

/// A folder holding a copy of the binary and `connect6.ini` with `text`; the command to start
/// that copy.
fn beside(case: &str, text: &str) -> (PathBuf, Vec<String>) {
    let mut command = common::engine_command();
    let binary = PathBuf::from(command.pop().expect("a program"));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "options-file-{}-{case}-{}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let copy = dir.join(binary.file_name().expect("a file name"));
    // A link, not a copy: a file just written may still be open for writing in a child that
    // another test thread forked meanwhile, and then cannot be run ("text file busy").
    std::fs::hard_link(&binary, &copy).expect("link the binary");
    std::fs::write(dir.join("connect6.ini"), text).expect("write connect6.ini");
    command.push(copy.display().to_string());
    (dir, command)
}

struct Engine {
    child: Child,
    lines: Receiver<String>,
}

impl Engine {
    /// Starts `command` with `args`, stderr into a file (read after it exits), and the
    /// default log level (RUST_LOG unset), at which the options file in use is logged.
    fn start(command: &[String], args: &[&str], stderr: &Path) -> Engine {
        let mut child = Command::new(&command[0])
            .args(&command[1..])
            .args(args)
            .env_remove("RUST_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(stderr).expect("a stderr file"))
            .spawn()
            .expect("the engine starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { child, lines }
    }

    fn ask(&mut self, text: &str) -> (String, Duration) {
        let t = Instant::now();
        let stdin = self.child.stdin.as_mut().expect("piped stdin");
        stdin
            .write_all(text.as_bytes())
            .expect("write to the engine");
        stdin.flush().expect("flush");
        let line = self
            .lines
            .recv_timeout(DEFAULT_CAP * 2)
            .unwrap_or_else(|_| panic!("no reply to {text:?}"));
        (line, t.elapsed())
    }

    fn quit(mut self) {
        let stdin = self.child.stdin.as_mut().expect("piped stdin");
        stdin.write_all(b"quit\n").expect("write quit");
        drop(self.child.stdin.take());
        let status = self.child.wait().expect("the engine exits");
        assert!(status.success(), "exit status {status}");
    }
}

pub fn file_options_are_used() {
    let ini = "# the tournament's settings\r\nname = FromFile\r\nmove-time = 0.5\r\nhash = 8\r\n";
    let (dir, command) = beside("used", ini);
    let stderr = dir.join("stderr.txt");
    let mut engine = Engine::start(&command, &[], &stderr);
    assert_eq!(engine.ask("name?\n").0, "name FromFile");
    // White after black's first stone: the engine searches, and spends most of its cap.
    let (reply, took) = engine.ask("new white\nmove JJ\n");
    assert!(reply.starts_with("move "), "{reply}");
    assert!(
        took < Duration::from_millis(2500),
        "{took:?} for a reply with move-time = 0.5 in the file (the default cap is 5 s)"
    );
    engine.quit();
    let log = std::fs::read_to_string(&stderr).expect("stderr");
    assert!(
        log.contains("options from ")
            && log.contains("connect6.ini: name = FromFile, move-time = 0.5, hash = 8"),
        "stderr does not say which file and values were used:\n{log}"
    );
}

pub fn the_command_line_wins() {
    let (dir, command) = beside("wins", "name = FromFile\nmove-time = 0.5\n");
    let mut engine = Engine::start(&command, &["--name", "FromArgs"], &dir.join("stderr.txt"));
    assert_eq!(engine.ask("name?\n").0, "name FromArgs");
    engine.quit();
}

pub fn a_bad_file_is_refused() {
    let cases = [
        ("name = A\nmovetime = 2\n", "line 2: unknown key 'movetime'"),
        (
            "move-time = fast\n",
            "line 1: key 'move-time': invalid value 'fast'",
        ),
        ("name = A-B\n", "line 1: key 'name': invalid value 'A-B'"),
        ("ponder = yes\n", "key 'ponder': 'yes' is not true or false"),
    ];
    for (i, (ini, want)) in cases.into_iter().enumerate() {
        let (dir, command) = beside(&format!("bad{i}"), ini);
        let stderr = dir.join("stderr.txt");
        let status = Command::new(&command[0])
            .args(&command[1..])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&stderr).expect("a stderr file"))
            .status()
            .expect("the engine starts");
        let said = std::fs::read_to_string(&stderr).expect("stderr");
        assert_eq!(status.code(), Some(2), "{ini:?}: {said}");
        let lines: Vec<&str> = said.lines().collect();
        assert!(
            lines.len() == 1 && lines[0].contains(want) && lines[0].contains("connect6.ini"),
            "{ini:?}: wanted one line with '{want}', got:\n{said}"
        );
    }
}

#[test]
fn file_options_are_used_test() {
    file_options_are_used();
}

#[test]
fn the_command_line_wins_test() {
    the_command_line_wins();
}

#[test]
fn a_bad_file_is_refused_test() {
    a_bad_file_is_refused();
}

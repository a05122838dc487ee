//! What differs between operating systems, checked on the binary under test
//! (`common::engine_command()`): here the Linux build, in `tests/wine.rs` (`CASES`) the
//! Windows .exe under Wine, with Windows paths.
//!
//! - the default thread count follows the process's affinity (`taskset`, which Wine turns into
//!   the Windows process's affinity mask);
//! - records named with Chinese characters (the competition's own names) are written by
//!   `match --records` into a folder named so too, and read back by `show` and `analyse`, all
//!   through paths with a drive letter and backslashes under Wine;
//! - log lines on a pipe carry no colour codes;
//! - the `gui` server (with the `gui` feature) starts, serves its page and opens such a folder
//!   in its Review.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The cases, for `tests/wine.rs`.
pub const CASES: &[(&str, fn())] = &[
    ("threads_follow_the_affinity", threads_follow_the_affinity),
    ("records_with_chinese_names", records_with_chinese_names),
    ("no_colour_codes_on_a_pipe", no_colour_codes_on_a_pipe),
    #[cfg(feature = "gui")]
    ("gui_server_serves_its_page", gui_server_serves_its_page),
];

/// Runs the engine under test with `args` (and `prefix` before the whole command).
fn run(prefix: &[&str], args: &[&str], stdin: &[u8]) -> Output {
    let command = common::engine_command();
    let (program, rest) = match prefix.split_first() {
        Some((p, more)) => (
            p.to_string(),
            more.iter().map(|s| s.to_string()).chain(command).collect(),
        ),
        None => (command[0].clone(), command[1..].to_vec()),
    };
    let mut child = Command::new(&program)
        .args(rest)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{program} does not start: {e}"));
    let mut input = child.stdin.take().expect("piped stdin");
    input.write_all(stdin).expect("write stdin");
    drop(input);
    child.wait_with_output().expect("the command ends")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

fn scratch(case: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "platform-{}-{case}-{}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

pub fn threads_follow_the_affinity() {
    // One core this process may run on (a container may not offer core 0).
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let core = status
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        .and_then(|list| list.trim().split([',', '-']).next())
        .expect("an allowed core")
        .to_string();
    let out = run(&["taskset", "-c", &core], &["--help"], b"");
    let help = text(&out.stdout);
    let threads = help
        .split("--threads")
        .nth(1)
        .and_then(|rest| rest.split("[default: ").nth(1))
        .and_then(|rest| rest.split(']').next());
    assert_eq!(threads, Some("1"), "on one core:\n{help}");
}

pub fn records_with_chinese_names() {
    let dir = scratch("records").join("对局记录");
    let exe = common::engine_command().pop().expect("a program");
    let engine = |player: &str| {
        format!(
            "'{}' --player {player}",
            common::engine_path(Path::new(&exe))
        )
    };
    let out = run(
        &[],
        &[
            "match",
            "--quiet",
            "--games",
            "1",
            "--move-time",
            "2",
            "--event",
            "测试赛",
            "--place",
            "北京",
            "--records",
            &common::engine_path(&dir),
            &engine("random"),
            &engine("greedy"),
        ],
        b"",
    );
    // Under Wine this failed once with nothing on stderr (session 31, a fresh machine): the
    // exit status is the only clue then.
    assert!(
        out.status.success(),
        "match: {} {}",
        out.status,
        text(&out.stderr)
    );
    let records: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the records folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    assert_eq!(records.len(), 1, "{records:?}");
    let name = records[0]
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert!(
        name.contains("北京-测试赛") && name.contains("手胜"),
        "{name}"
    );
    let record = std::fs::read_to_string(&records[0]).expect("the record");
    assert!(record.contains("[测试赛]"), "{record}");
    // Read back through the same kind of path.
    let out = run(&[], &["show", &common::engine_path(&records[0])], b"");
    assert!(out.status.success(), "show: {}", text(&out.stderr));
    let board = text(&out.stdout);
    assert!(
        board.contains('X') || board.contains('●'),
        "show drew no stones:\n{board}"
    );
    // The random player loses to the greedy one, as black, in the one game.
    let out = run(
        &[],
        &[
            "analyse",
            "--side",
            "Random",
            "--time",
            "0.2",
            &common::engine_path(&dir),
        ],
        b"",
    );
    assert!(out.status.success(), "analyse: {}", text(&out.stderr));
}

pub fn no_colour_codes_on_a_pipe() {
    let out = {
        let program = common::engine_command();
        let mut child = Command::new(&program[0])
            .args(&program[1..])
            .args(["--move-time", "0.3", "--hash", "8"])
            .env("RUST_LOG", "info")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let mut input = child.stdin.take().expect("piped stdin");
        input
            .write_all(b"new white\nmove JJ\nbogus\n")
            .expect("write");
        drop(input);
        child.wait_with_output().expect("the engine ends")
    };
    let log = text(&out.stderr);
    assert!(
        log.lines().count() >= 2,
        "too little on stderr to judge:\n{log}"
    );
    assert!(!log.contains('\u{1b}'), "colour codes on a pipe:\n{log:?}");
}

/// One request on a fresh connection, with the run's token; the whole answer (the server
/// closes it).
#[cfg(feature = "gui")]
fn http(address: &str, token: &str, method: &str, path: &str, body: &str) -> String {
    use std::io::Read;
    use std::time::Duration;
    let mut stream = std::net::TcpStream::connect(address).expect("connect to the gui");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .expect("a timeout");
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nX-Connect6-Token: {token}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("send a request");
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    answer
}

/// The server starts, serves its page, and its Review opens a folder of records named with
/// Chinese characters, by the engine's kind of path (under Wine `Z:\...`).
#[cfg(feature = "gui")]
pub fn gui_server_serves_its_page() {
    use std::io::{BufRead, BufReader, Read};
    let folder = scratch("gui").join("记录");
    std::fs::create_dir_all(&folder).expect("a records folder");
    let source = common::data_dir("records");
    let record = std::fs::read_dir(&source)
        .expect("the competition records")
        .map(|e| e.expect("an entry").path())
        .find(|p| p.extension().is_some_and(|e| e == "txt"))
        .expect("a competition record");
    let name = record.file_name().expect("a file name");
    std::fs::copy(&record, folder.join(name)).expect("copy a record");
    let command = common::engine_command();
    let mut child = Command::new(&command[0])
        .args(&command[1..])
        .args(["gui", "--port", "0"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the gui starts");
    let mut stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
    let mut line = String::new();
    let read = stdout.read_line(&mut line);
    let address = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .map(String::from);
    // The banner's URL carries the run's token (`/?token=...`), which every request needs.
    let token: String = line
        .split("token=")
        .nth(1)
        .map(|rest| rest.chars().take_while(char::is_ascii_hexdigit).collect())
        .unwrap_or_default();
    let answers = address.as_ref().map(|address| {
        let path = common::engine_path(&folder);
        let open = serde_json::json!({ "path": path }).to_string();
        [
            http(address, &token, "GET", "/", ""),
            http(address, &token, "POST", "/review/open", &open),
            http(address, &token, "GET", "/state", ""),
        ]
    });
    let _ = child.kill();
    let _ = child.wait();
    let mut err = String::new();
    let _ = child.stderr.take().map(|mut e| e.read_to_string(&mut err));
    assert!(
        read.is_ok() && address.is_some(),
        "gui said '{line}', stderr: {err}"
    );
    let [page, opened, state] = answers.unwrap_or_default();
    let head = |text: &str| text.chars().take(300).collect::<String>();
    assert!(
        page.starts_with("HTTP/1.1 200") && page.contains("<html"),
        "GET / answered:\n{}",
        head(&page)
    );
    assert!(
        opened.starts_with("HTTP/1.1 200"),
        "/review/open answered:\n{}",
        head(&opened)
    );
    let body = state.split("\r\n\r\n").nth(1).unwrap_or_default();
    let state: serde_json::Value = serde_json::from_str(body).expect("the state as JSON");
    let review = &state["review"];
    let files = review["files"].as_array().map_or(0, Vec::len);
    let turns = review["game"]["turns"].as_array().map_or(0, Vec::len);
    assert!(
        files == 1 && turns > 10,
        "the record is not in review: {review}"
    );
}

#[test]
fn threads_follow_the_affinity_test() {
    threads_follow_the_affinity();
}

#[test]
fn records_with_chinese_names_test() {
    records_with_chinese_names();
}

#[test]
fn no_colour_codes_on_a_pipe_test() {
    no_colour_codes_on_a_pipe();
}

#[cfg(feature = "gui")]
#[test]
fn gui_server_serves_its_page_test() {
    gui_server_serves_its_page();
}

//! Shared by the board's tests: a `connect6 gui` server on a free loopback port, a plain
//! HTTP client over `std::net`, and a simple player that goes for six in a row.

#![allow(dead_code)] // each test crate uses a part

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_connect6");

/// A running `connect6 gui --port 0`; killed when dropped.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub address: String,
    pub banner: String,
    /// The run's secret, from the banner's URL (`?token=...`).
    pub token: String,
}

impl Server {
    pub fn start() -> Server {
        Server::start_with(&[], Stdio::null())
    }

    /// A server with more options, its stderr going to `stderr`.
    pub fn start_with(args: &[&str], stderr: Stdio) -> Server {
        let child = Command::new(BIN)
            .args(["gui", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("connect6 gui starts");
        Server::from_child(child)
    }

    /// Reads the banner of a started server (stdout piped).
    pub fn from_child(mut child: Child) -> Server {
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut banner = String::new();
        BufReader::new(stdout)
            .read_line(&mut banner)
            .expect("the banner is printed");
        let address = banner
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in the banner '{banner}'"))
            .to_string();
        let token = banner
            .split("token=")
            .nth(1)
            .map(|rest| {
                rest.chars()
                    .take_while(char::is_ascii_alphanumeric)
                    .collect()
            })
            .unwrap_or_default();
        Server {
            child,
            address,
            banner,
            token,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.address)
    }

    /// The page's address with the token, as the banner prints it, and `fragment` (`#play`).
    pub fn page_url(&self, fragment: &str) -> String {
        format!("http://{}/?token={}{fragment}", self.address, self.token)
    }

    /// The header that carries the token, for a request written by hand.
    pub fn token_header(&self) -> String {
        format!("X-Connect6-Token: {}\r\n", self.token)
    }

    /// Sends raw bytes and returns the status and body of the answer.
    pub fn raw(&self, request: &[u8]) -> (u16, String) {
        raw(&self.address, request)
    }

    /// A request with the token.
    pub fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        request_with(&self.address, method, path, body, &self.token_header())
    }

    /// The server's stderr, when it was piped.
    pub fn take_stderr(&mut self) -> std::process::ChildStderr {
        self.child.stderr.take().expect("stderr is piped")
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// How many processes the server has started that still run (Linux: read from /proc).
    pub fn children(&self) -> usize {
        children_of(self.child.id())
    }

    /// Waits until the server has no child process left; fails with the count after `limit`.
    pub fn wait_no_children(&self, limit: Duration) {
        let began = Instant::now();
        loop {
            let n = self.children();
            if n == 0 {
                return;
            }
            assert!(
                began.elapsed() < limit,
                "{n} engine process(es) left behind"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A POST whose answer is JSON.
    pub fn post(&self, path: &str, body: Value) -> (u16, Value) {
        let (status, text) = self.request("POST", path, &body.to_string());
        let value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{path}: answer is not JSON ({e}): {text}"));
        (status, value)
    }

    /// POSTs and requires success.
    pub fn ok(&self, path: &str, body: Value) {
        let (status, answer) = self.post(path, body);
        assert_eq!(status, 200, "{path} was refused: {answer}");
    }

    pub fn state(&self) -> Value {
        let (status, text) = self.request("GET", "/state", "");
        assert_eq!(status, 200, "GET /state: {text}");
        serde_json::from_str(&text).expect("the state is JSON")
    }

    /// Polls the state until `done` holds; fails with the last state after `limit`.
    pub fn wait_for(&self, limit: Duration, what: &str, done: impl Fn(&Value) -> bool) -> Value {
        let began = Instant::now();
        loop {
            let state = self.state();
            if done(&state) {
                return state;
            }
            assert!(
                began.elapsed() < limit,
                "timed out waiting for {what}: {state}"
            );
            std::thread::sleep(Duration::from_millis(40));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The processes whose parent is `pid`, from /proc (0 where there is no /proc).
pub fn children_of(pid: u32) -> usize {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    entries
        .flatten()
        .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok())
        .filter(|stat| {
            // `pid (name) state ppid ...`: the name may hold spaces, so read after the `)`.
            stat.rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1))
                .and_then(|ppid| ppid.parse::<u32>().ok())
                == Some(pid)
        })
        .count()
}

/// One request on a fresh connection (the server closes it after answering).
pub fn request(address: &str, method: &str, path: &str, body: &str) -> (u16, String) {
    request_with(address, method, path, body, "")
}

/// [`request`] with `extra` header lines (each ending in CRLF).
pub fn request_with(
    address: &str,
    method: &str,
    path: &str,
    body: &str,
    extra: &str,
) -> (u16, String) {
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         {extra}Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    raw(address, format!("{head}{body}").as_bytes())
}

/// Sends `bytes` and reads one answer: its status and body. The body is read by its
/// `Content-Length` where the answer has one (chromedriver keeps connections open), else to
/// the end.
pub fn raw(address: &str, bytes: &[u8]) -> (u16, String) {
    let stream = TcpStream::connect(address).expect("the server accepts");
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .expect("a timeout can be set");
    (&stream).write_all(bytes).expect("the request is sent");
    let mut reader = BufReader::new(&stream);
    let mut head = String::new();
    let mut length = None;
    loop {
        let mut line = String::new();
        reader
            .read_line(&mut line)
            .expect("the answer's head is read");
        if line.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse::<usize>().ok();
        }
        head.push_str(&line);
    }
    let mut body = Vec::new();
    match length {
        Some(n) => {
            body.resize(n, 0);
            reader.read_exact(&mut body).expect("the body is read");
        }
        None => {
            reader.read_to_end(&mut body).expect("the body is read");
        }
    }
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in '{head}'"));
    (status, String::from_utf8_lossy(&body).into_owned())
}

const LETTERS: &[u8] = b"ABCDEFGHIJKLMNOPQRS";

fn cell(col: usize, row: usize) -> String {
    format!("{}{}", LETTERS[col] as char, LETTERS[row] as char)
}

/// The stones on the board of a game view: cell -> colour.
pub fn stones(game: &Value) -> std::collections::HashMap<String, String> {
    let mut out = std::collections::HashMap::new();
    for t in game["turns"].as_array().expect("turns") {
        let cells = t["cells"].as_str().expect("cells");
        for i in (0..cells.len()).step_by(2) {
            out.insert(
                cells[i..i + 2].to_string(),
                t["color"].as_str().expect("colour").into(),
            );
        }
    }
    out
}

/// A turn for `me` that goes for six: the six-cell window free of the opponent's stones
/// with most of mine, its empty cells. Enough to beat the random player.
pub fn next_turn(game: &Value, me: &str) -> Vec<String> {
    let board = stones(game);
    if board.is_empty() {
        return vec!["JJ".into()];
    }
    let mut best: Option<(usize, Vec<String>)> = None;
    for (dc, dr) in [(1i32, 0i32), (0, 1), (1, 1), (1, -1)] {
        for row in 0..19i32 {
            for col in 0..19i32 {
                let window: Vec<(i32, i32)> =
                    (0..6).map(|k| (col + k * dc, row + k * dr)).collect();
                if window
                    .iter()
                    .any(|&(c, r)| !(0..19).contains(&c) || !(0..19).contains(&r))
                {
                    continue;
                }
                let cells: Vec<String> = window
                    .iter()
                    .map(|&(c, r)| cell(c as usize, r as usize))
                    .collect();
                if cells.iter().any(|c| board.get(c).is_some_and(|o| o != me)) {
                    continue;
                }
                let mine = cells.iter().filter(|c| board.contains_key(*c)).count();
                let empty: Vec<String> = cells
                    .into_iter()
                    .filter(|c| !board.contains_key(c))
                    .collect();
                if best.as_ref().is_none_or(|(m, _)| mine > *m) {
                    best = Some((mine, empty));
                }
            }
        }
    }
    let (_, empty) = best.expect("a free window is left");
    let mut turn: Vec<String> = empty.into_iter().take(2).collect();
    // A window one stone short of six: the second stone goes anywhere free.
    if turn.len() < 2 {
        let spare = (0..19 * 19)
            .map(|i| cell(i % 19, i / 19))
            .find(|c| !board.contains_key(c) && !turn.contains(c));
        turn.extend(spare);
    }
    turn
}

/// The ghost stones `line` makes on the board of `game`: its cells not yet taken.
pub fn ghost_cells(game: &Value, line: &[&str]) -> usize {
    let upto = game["upto"].as_u64().unwrap_or(0) as usize;
    let turns = game["turns"].as_array().map(|t| t[..upto].to_vec());
    let mut taken = stones(&serde_json::json!({ "turns": turns }));
    let mut ghosts = 0;
    for turn in line {
        for i in (0..turn.len()).step_by(2) {
            let cell = turn[i..i + 2].to_string();
            ghosts += usize::from(taken.insert(cell, String::new()).is_none());
        }
    }
    ghosts
}

//! `connect6 gui` against a client that means harm or cannot help it: requests without the
//! run's token or from another host or origin, files that are not records (a FIFO, a device,
//! a huge file), a crowd of idle connections, a client that dribbles its request, engines
//! that a new game or a new record replaces, and headers the server does not speak. Every
//! server is on loopback; every wait is bounded.

mod gui_support;

use gui_support::{BIN, Server, request_with};
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(30);

/// A fresh scratch folder for one test.
fn scratch(label: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("c6-gui-guard-{}-{label}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// Sends `bytes` and reads whatever comes back until the server closes (at most `limit`):
/// the whole answer as text, or `None` when the server closed without a word.
fn exchange(address: &str, bytes: &[u8], limit: Duration) -> Option<String> {
    let mut stream = TcpStream::connect(address).expect("the server accepts");
    stream.set_read_timeout(Some(limit)).expect("a timeout");
    let _ = stream.write_all(bytes);
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    (!answer.is_empty()).then(|| String::from_utf8_lossy(&answer).into_owned())
}

fn status_of(answer: &str) -> u16 {
    answer
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in '{answer}'"))
}

/// Runs `request` on a thread and gives up after `limit`: a request that blocks the server
/// fails the test instead of hanging it.
fn within<T: Send + 'static>(limit: Duration, request: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(request());
    });
    rx.recv_timeout(limit)
        .unwrap_or_else(|_| panic!("no answer within {limit:?}"))
}

fn losses() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/losses")
}

#[test]
fn the_banner_gives_a_secret_token_and_every_route_but_the_assets_wants_it() {
    let server = Server::start();
    let other = Server::start();
    assert_eq!(server.token.len(), 32, "a 128-bit token: {}", server.banner);
    assert!(server.token.chars().all(|c| c.is_ascii_hexdigit()));
    assert_ne!(server.token, other.token, "each run has its own");
    let address = &server.address;
    let without = |method: &str, path: &str, extra: &str| {
        let body = if method == "POST" { "{}" } else { "" };
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
             {extra}Content-Length: {}\r\n\r\n{body}",
            body.len()
        );
        let answer = exchange(address, request.as_bytes(), WAIT).expect("an answer");
        status_of(&answer)
    };
    let wrong = format!("X-Connect6-Token: {}\r\n", other.token);
    let cookie_wrong = format!("Cookie: connect6-{}={}\r\n", port(address), other.token);
    for (method, path) in [
        ("GET", "/"),
        ("GET", "/state"),
        ("GET", "/events"),
        ("GET", "/defaults"),
        ("POST", "/play/resign"),
        ("POST", "/review/open"),
    ] {
        assert_eq!(without(method, path, ""), 403, "{method} {path} without");
        assert_eq!(without(method, path, &wrong), 403, "{method} {path} wrong");
        assert_eq!(without(method, path, &cookie_wrong), 403, "{method} {path}");
    }
    assert_eq!(
        without("GET", "/app.js", ""),
        200,
        "the script holds no secret"
    );
    // The page loaded with the token sets it as a strict cookie, which then opens the rest.
    let request = format!(
        "GET /?token={} HTTP/1.1\r\nHost: {address}\r\n\r\n",
        server.token
    );
    let answer = exchange(address, request.as_bytes(), WAIT).expect("the page");
    assert_eq!(status_of(&answer), 200);
    let cookie = answer
        .lines()
        .find_map(|l| l.strip_prefix("Set-Cookie: "))
        .unwrap_or_else(|| panic!("no cookie: {answer}"));
    assert!(cookie.contains("SameSite=Strict"), "{cookie}");
    assert!(cookie.contains("HttpOnly"), "{cookie}");
    let pair = cookie.split(';').next().unwrap_or("");
    assert_eq!(pair, format!("connect6-{}={}", port(address), server.token));
    assert_eq!(
        without("GET", "/state", &format!("Cookie: {pair}\r\n")),
        200
    );
    assert_eq!(
        without("GET", "/", &format!("Cookie: a=b; {pair}\r\n")),
        200
    );
}

fn port(address: &str) -> &str {
    address.rsplit(':').next().unwrap_or("")
}

#[test]
fn state_and_events_refuse_a_foreign_host_or_origin() {
    let server = Server::start();
    let token = server.token_header();
    let address = &server.address;
    let port = port(address);
    let cases = [
        format!("Host: evil.example:{port}\r\n"),
        format!("Host: localhost.evil.example:{port}\r\n"),
        format!("Host: {address}\r\nOrigin: http://evil.example\r\n"),
        format!("Host: {address}\r\nOrigin: http://127.0.0.1:1\r\n"),
        // The right name on another port is another origin.
        "Host: 127.0.0.1:1\r\n".to_string(),
        String::new(),
    ];
    for path in ["/state", "/events"] {
        for headers in &cases {
            let request = format!("GET {path} HTTP/1.1\r\n{headers}{token}\r\n");
            let answer = exchange(address, request.as_bytes(), WAIT).expect("an answer");
            assert_eq!(
                status_of(&answer),
                403,
                "GET {path} with {headers:?}: {answer}"
            );
            assert!(!answer.contains("\"version\""), "no state leaks: {answer}");
        }
        for host in [address.clone(), format!("localhost:{port}")] {
            let request = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n{token}\r\n");
            let mut stream = TcpStream::connect(address).expect("connects");
            stream.set_read_timeout(Some(WAIT)).expect("a timeout");
            stream.write_all(request.as_bytes()).expect("sent");
            let mut head = [0u8; 12];
            stream.read_exact(&mut head).expect("an answer");
            assert_eq!(&head, b"HTTP/1.1 200", "GET {path} with Host {host}");
        }
    }
}

#[test]
fn every_answer_forbids_framing_and_sniffing() {
    let server = Server::start();
    let address = &server.address;
    let token = server.token_header();
    let requests = [
        format!("GET / HTTP/1.1\r\nHost: {address}\r\n{token}\r\n"),
        format!("GET /state HTTP/1.1\r\nHost: {address}\r\n{token}\r\n"),
        format!("GET /nothing HTTP/1.1\r\nHost: {address}\r\n{token}\r\n"),
        "GET /state HTTP/1.1\r\nHost: evil.example\r\n\r\n".to_string(),
        "NONSENSE\r\n\r\n".to_string(),
    ];
    for request in &requests {
        let answer = exchange(address, request.as_bytes(), WAIT).expect("an answer");
        for header in [
            "X-Frame-Options: DENY",
            "Content-Security-Policy: frame-ancestors 'none'",
            "X-Content-Type-Options: nosniff",
        ] {
            assert!(
                answer.contains(header),
                "{request:?} lacks {header}: {answer}"
            );
        }
    }
    let mut stream = TcpStream::connect(address).expect("connects");
    stream.set_read_timeout(Some(WAIT)).expect("a timeout");
    write!(
        stream,
        "GET /events HTTP/1.1\r\nHost: {address}\r\n{token}\r\n"
    )
    .expect("sent");
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        stream.read_exact(&mut byte).expect("the stream's head");
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head);
    assert!(head.contains("X-Frame-Options: DENY"), "{head}");
}

#[test]
fn a_head_that_is_not_utf8_or_chunked_is_refused() {
    let server = Server::start();
    let address = &server.address;
    let token = server.token_header();
    let bad = [
        (b"GET /st\xffate HTTP/1.1\r\n\r\n".to_vec(), 400),
        (b"GET / HTTP/1.1\r\nX-Name: caf\xe9\r\n\r\n".to_vec(), 400),
        (format!(
            "POST /play/resign HTTP/1.1\r\nHost: {address}\r\n{token}Content-Type: application/json\r\n\
             Transfer-Encoding: chunked\r\n\r\n2\r\n{{}}\r\n0\r\n\r\n"
        )
        .into_bytes(), 501),
    ];
    for (request, status) in bad {
        let answer = exchange(address, &request, WAIT);
        let answer = answer
            .unwrap_or_else(|| panic!("no answer to {:?}", String::from_utf8_lossy(&request)));
        assert_eq!(status_of(&answer), status, "{answer}");
    }
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", path.display());
}

#[cfg(unix)]
#[test]
fn review_refuses_what_is_not_a_regular_file_or_is_too_large() {
    let dir = scratch("review");
    let fifo = dir.join("fifo.txt");
    mkfifo(&fifo);
    let huge = dir.join("huge.txt");
    std::fs::write(&huge, vec![b' '; 2 << 20]).expect("a 2 MiB file");
    let server = Server::start();
    let (address, token) = (server.address.clone(), server.token_header());
    let open = |path: PathBuf| {
        let (address, token) = (address.clone(), token.clone());
        let body = json!({ "path": path }).to_string();
        within(Duration::from_secs(5), move || {
            request_with(&address, "POST", "/review/open", &body, &token)
        })
    };
    for (path, words) in [
        (fifo.clone(), "not a regular file"),
        (PathBuf::from("/dev/zero"), "not a regular file"),
        (huge.clone(), "1 MiB"),
    ] {
        let (status, answer) = open(path);
        assert_eq!(status, 422, "{answer}");
        assert!(answer.contains(words), "{answer}");
    }
    // A folder's FIFO named like a record is no record either: the real one opens.
    std::fs::remove_file(&huge).expect("removed");
    std::fs::copy(losses().join(first_record()), dir.join("a.txt")).expect("a record");
    let (status, answer) = open(dir.clone());
    assert_eq!(status, 200, "{answer}");
    assert_eq!(server.state()["review"]["files"], json!(["a.txt"]));
    let _ = std::fs::remove_dir_all(&dir);
}

fn first_record() -> String {
    let mut names: Vec<String> = std::fs::read_dir(losses())
        .expect("the losses folder")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".txt"))
        .collect();
    names.sort();
    names.remove(0)
}

#[cfg(unix)]
#[test]
fn watch_refuses_an_openings_file_that_is_not_a_regular_file() {
    let dir = scratch("openings");
    let fifo = dir.join("openings.txt");
    mkfifo(&fifo);
    let server = Server::start();
    let a = format!("{BIN} --player random --seed 3");
    server.ok(
        "/watch/start",
        json!({ "engine_a": a, "engine_b": a, "openings": fifo, "move_time": "1" }),
    );
    let watch = server.wait_for(Duration::from_secs(5), "the match's refusal", |s| {
        s["watch"]["running"] == false
    })["watch"]
        .clone();
    let error = watch["error"].as_str().unwrap_or("");
    assert!(error.contains("not a regular file"), "{watch}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn file_contents_never_leak_into_errors() {
    let dir = scratch("leak");
    let secret = "SECRET-".repeat(40);
    let record = dir.join("record.txt");
    std::fs::write(&record, format!("{{[{secret}][a B][b W][B+][2026][x]}}")).expect("written");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, format!("JJ {secret}\n")).expect("written");
    let server = Server::start();
    let (status, answer) = server.post("/review/open", json!({ "path": record }));
    assert_eq!(status, 422, "{answer}");
    let error = answer["error"].as_str().unwrap_or("");
    assert!(error.contains("SECRET-"), "the start is quoted: {error}");
    assert!(error.matches("SECRET").count() <= 6, "{error}");
    let a = format!("{BIN} --player random --seed 3");
    server.ok(
        "/watch/start",
        json!({ "engine_a": a, "engine_b": a, "openings": openings, "move_time": "1" }),
    );
    let watch = server.wait_for(WAIT, "the match's refusal", |s| {
        s["watch"]["running"] == false
    })["watch"]
        .clone();
    let error = watch["error"].as_str().unwrap_or("");
    assert!(error.contains("openings line 1"), "{watch}");
    assert!(error.matches("SECRET").count() <= 6, "{error}");
    assert!(!server.state().to_string().contains(&secret[..80]));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn idle_connections_past_the_cap_are_turned_away_and_the_server_recovers() {
    let server = Server::start();
    let address = &server.address;
    let idle: Vec<TcpStream> = (0..64)
        .map(|_| TcpStream::connect(address).expect("connects"))
        .collect();
    let request = format!(
        "GET /state HTTP/1.1\r\nHost: {address}\r\n{}\r\n",
        server.token_header()
    );
    let answer = exchange(address, request.as_bytes(), Duration::from_secs(5));
    let status = answer.as_deref().map(status_of);
    assert!(
        matches!(status, None | Some(503)),
        "the 65th is served: {answer:?}"
    );
    drop(idle);
    let began = Instant::now();
    loop {
        let answer = exchange(address, request.as_bytes(), Duration::from_secs(5));
        if answer.as_deref().map(status_of) == Some(200) {
            break;
        }
        assert!(
            began.elapsed() < Duration::from_secs(5),
            "never served again: {answer:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[cfg(unix)]
#[test]
fn out_of_file_descriptors_the_server_pauses_and_says_so_once() {
    // A server with room for a handful of files: connections past it cannot be accepted.
    let child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -n 12 && exec \"$0\" gui --port 0")
        .arg(BIN)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh starts the server");
    let mut server = Server::from_child(child);
    let held: Vec<TcpStream> = (0..16)
        .filter_map(|_| TcpStream::connect(&server.address).ok())
        .collect();
    std::thread::sleep(Duration::from_millis(1500));
    drop(held);
    let stderr = server.take_stderr();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::BufReader::new(stderr).read_to_string(&mut text);
        let _ = tx.send(text);
    });
    // Free again, it serves.
    let began = Instant::now();
    while server.request("GET", "/state", "").0 != 200 {
        assert!(
            began.elapsed() < Duration::from_secs(15),
            "never served again"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(server);
    let log = rx.recv_timeout(Duration::from_secs(5)).expect("the log");
    // Before the fix: a warning per failed accept, thousands a second.
    let lines = log.lines().count();
    assert!(
        log.contains("cannot accept") && lines <= 3,
        "{lines} lines:\n{}",
        &log[..log.len().min(2000)]
    );
}

#[test]
fn a_request_dribbled_byte_by_byte_is_cut_off_at_the_deadline() {
    let server = Server::start();
    let mut stream = TcpStream::connect(&server.address).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_millis(400)))
        .expect("a timeout");
    let head = b"GET /state HTTP/1.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    let began = Instant::now();
    let mut closed = None;
    for &byte in head.iter().cycle() {
        if stream.write_all(&[byte]).is_err() {
            closed = Some(began.elapsed());
            break;
        }
        let mut buf = [0u8; 64];
        match stream.read(&mut buf) {
            Ok(_) => {
                closed = Some(began.elapsed());
                break;
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
            Err(_) => {
                closed = Some(began.elapsed());
                break;
            }
        }
        if began.elapsed() > Duration::from_secs(14) {
            break;
        }
    }
    let closed = closed.expect("the connection outlived the 10 s deadline");
    assert!(
        closed >= Duration::from_secs(9),
        "cut off early: {closed:?}"
    );
}

/// The state's play part once the engine is thinking (or has thought).
fn play(server: &Server) -> Value {
    server.state()["play"].clone()
}

#[cfg(target_os = "linux")]
#[test]
fn a_new_game_a_resignation_and_a_new_record_stop_the_engines_they_replace() {
    let server = Server::start();
    // A silent engine playing black: it thinks until its move time runs out.
    let silent = json!({ "engine": "sleep 30", "human": "white", "move_time": "30" });
    server.ok("/play/new", silent.clone());
    assert_eq!(play(&server)["thinking"], true);
    server.ok("/play/new", silent.clone());
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(server.children(), 1, "the replaced engine still runs");
    server.ok("/play/resign", json!({}));
    server.wait_no_children(Duration::from_secs(3));
    // Review: an engine asked about the position goes when another record is opened.
    server.ok("/review/open", json!({ "path": losses() }));
    server.ok("/review/goto", json!({ "upto": 4 }));
    server.ok(
        "/review/engine",
        json!({ "engine": "sleep 30", "move_time": "30" }),
    );
    let began = Instant::now();
    while server.children() == 0 {
        assert!(
            began.elapsed() < Duration::from_secs(3),
            "the engine never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    server.ok("/review/select", json!({ "index": 1 }));
    server.wait_no_children(Duration::from_secs(3));
    server.wait_for(Duration::from_secs(3), "the task's end", |s| {
        s["review"]["busy"] == false
    });
}

#[test]
fn reopening_a_record_keeps_the_running_analysis_busy() {
    let server = Server::start();
    server.ok("/review/open", json!({ "path": losses() }));
    server.ok("/review/losing", json!({}));
    server.ok("/review/open", json!({ "path": losses() }));
    assert_eq!(
        server.state()["review"]["busy"],
        true,
        "the analysis still runs"
    );
    let (status, answer) = server.post("/review/losing", json!({}));
    assert_eq!(status, 409, "a second analysis while one runs: {answer}");
    server.wait_for(WAIT, "the analysis' end", |s| s["review"]["busy"] == false);
    server.ok("/review/losing", json!({}));
}

#[test]
fn the_move_time_is_capped() {
    let server = Server::start();
    for (path, body) in [
        (
            "/play/new",
            json!({ "engine": "true", "move_time": "1000000" }),
        ),
        (
            "/review/engine",
            json!({ "engine": "true", "move_time": "61" }),
        ),
        (
            "/watch/start",
            json!({ "engine_a": "true", "engine_b": "true", "move_time": "1000000" }),
        ),
    ] {
        let (status, answer) = server.post(path, body);
        assert_eq!(status, 400, "{path}: {answer}");
        let error = answer["error"].as_str().unwrap_or("");
        assert!(error.contains("at most 60 s"), "{path}: {error}");
    }
    server.ok("/play/new", json!({ "engine": "true", "move_time": "60" }));
}

#[test]
fn an_engine_log_line_that_is_too_long_or_not_utf8_is_cut_and_reading_goes_on() {
    let server = Server::start();
    // 300 000 bytes without a break, a byte that is not UTF-8, then a line to find.
    let engine = format!(
        "sh -c 'head -c 300000 /dev/zero | tr \"\\000\" x >&2; echo >&2; \
         printf \"\\377\\n\" >&2; echo still-reading >&2; exec \"$0\" --player random' {BIN}"
    );
    server.ok("/play/new", json!({ "engine": engine, "human": "black" }));
    let state = server.wait_for(WAIT, "the line after", |s| {
        s["play"]["search"]["log"]
            .to_string()
            .contains("still-reading")
    });
    let log = state["play"]["search"]["log"].to_string();
    assert!(
        log.contains("a line of 300000 bytes, cut"),
        "{}",
        &log[..log.len().min(500)]
    );
    assert!(
        state.to_string().len() < 20_000,
        "the state holds the line whole"
    );
}

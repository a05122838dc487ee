//! A bounded HTTP fuzz of `connect6 gui` on loopback: a few thousand requests, random bytes
//! and mutations of the page's own requests (token included, so the mutations reach the
//! routes and start engines), over one server. Every answer must be whole HTTP with the
//! anti-framing headers; at the end the page is still served and, once the work in flight is
//! stopped, no engine process is left.

mod gui_support;

use gui_support::{BIN, Server};
use serde_json::json;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};
use std::path::Path;
use std::time::{Duration, Instant};

const REQUESTS: usize = 3000;
/// The whole fuzz stops early past this, so a loaded machine cannot make it run on.
const BUDGET: Duration = Duration::from_secs(60);
const STATUSES: &[u16] = &[200, 400, 403, 404, 405, 409, 415, 422, 501, 503];

/// splitmix64: a seeded stream, so a failure replays.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The page's own requests: what the mutations start from.
fn seeds(server: &Server) -> Vec<Vec<u8>> {
    let losses = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/losses");
    let random = format!("{BIN} --player random --seed 1");
    let posts = [
        (
            "/play/new",
            json!({ "engine": random, "human": "white", "move_time": "0.3" }),
        ),
        ("/play/new", json!({ "engine": random, "human": "black" })),
        ("/play/move", json!({ "cells": "JJ" })),
        ("/play/move", json!({ "cells": "KKLL" })),
        ("/play/undo", json!({})),
        ("/play/resign", json!({})),
        ("/review/open", json!({ "path": losses })),
        ("/review/goto", json!({ "upto": 3 })),
        ("/review/select", json!({ "index": 1 })),
        ("/review/graph", json!({ "time": "0.05", "depth": "2" })),
        ("/review/stop", json!({})),
        (
            "/review/engine",
            json!({ "engine": random, "move_time": "0.3" }),
        ),
        (
            "/watch/start",
            json!({ "engine_a": random, "engine_b": random, "games": "1", "move_time": "0.3" }),
        ),
        ("/watch/stop", json!({})),
    ];
    let (address, token) = (&server.address, server.token_header());
    let mut out: Vec<Vec<u8>> = posts
        .iter()
        .map(|(path, body)| {
            let body = body.to_string();
            format!(
                "POST {path} HTTP/1.1\r\nHost: {address}\r\n{token}\
                 Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            )
            .into_bytes()
        })
        .collect();
    for path in ["/", "/state", "/defaults", "/app.js", "/events", "/nothing"] {
        out.push(format!("GET {path} HTTP/1.1\r\nHost: {address}\r\n{token}\r\n").into_bytes());
    }
    out
}

/// One mutation of `request`: bytes flipped, inserted, removed, cut or repeated.
fn mutate(rng: &mut Rng, request: &mut Vec<u8>) {
    let at = rng.below(request.len() + 1);
    match rng.below(7) {
        0 if at < request.len() => request[at] ^= 1 << rng.below(8),
        1 => {
            let byte = [b'\r', b'\n', b':', b' ', b'{', b'"', 0, 0xff][rng.below(8)];
            request.insert(at, byte);
        }
        2 if at < request.len() => {
            let end = (at + rng.below(16)).min(request.len());
            request.drain(at..end);
        }
        3 => request.truncate(at),
        4 => {
            let end = (at + rng.below(32)).min(request.len());
            let piece = request[at..end].to_vec();
            request.splice(at..at, piece);
        }
        5 => {
            let text = String::from_utf8_lossy(request).into_owned();
            let n = rng.next() % 200_000;
            let header = format!("Content-Length: {n}");
            *request = text
                .replacen("Content-Length: ", &format!("{header}\r\nX-Was: "), 1)
                .into_bytes();
        }
        _ => {
            let header = [
                "Transfer-Encoding: chunked",
                "Origin: http://evil.example",
                "Host: a",
            ][rng.below(3)];
            if let Some(i) = request.windows(2).position(|w| w == b"\r\n") {
                request.splice(i + 2..i + 2, format!("{header}\r\n").into_bytes());
            }
        }
    }
}

/// Sends one request and reads the answer: its head, or nothing (the server may drop a
/// request it cannot read whole). An event stream is left after its head.
fn send(address: &str, request: &[u8]) -> Option<String> {
    let mut stream = TcpStream::connect(address).expect("the server accepts");
    stream
        .set_read_timeout(Some(Duration::from_secs(15)))
        .expect("a timeout");
    let _ = stream.write_all(request);
    let _ = stream.shutdown(Shutdown::Write);
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => answer.extend_from_slice(&buf[..n]),
        }
        let text = String::from_utf8_lossy(&answer);
        if text.contains("text/event-stream") && text.contains("\r\n\r\n") {
            break;
        }
    }
    let text = String::from_utf8_lossy(&answer).into_owned();
    (!text.is_empty()).then_some(text)
}

#[test]
fn thousands_of_random_and_mutated_requests_leave_the_server_serving() {
    let server = Server::start();
    let seeds = seeds(&server);
    let mut rng = Rng(0x5eed_c0de);
    let began = Instant::now();
    let mut answered = 0;
    let mut sent = 0;
    let mut seen = std::collections::BTreeMap::<u16, usize>::new();
    for _ in 0..REQUESTS {
        if began.elapsed() > BUDGET {
            break;
        }
        let mut request = if rng.below(10) == 0 {
            (0..rng.below(300)).map(|_| rng.next() as u8).collect()
        } else {
            seeds[rng.below(seeds.len())].clone()
        };
        for _ in 0..rng.below(4) {
            mutate(&mut rng, &mut request);
        }
        sent += 1;
        let Some(answer) = send(&server.address, &request) else {
            continue;
        };
        answered += 1;
        let status = answer
            .strip_prefix("HTTP/1.1 ")
            .and_then(|rest| rest.get(..3))
            .and_then(|s| s.parse::<u16>().ok())
            .unwrap_or_else(|| panic!("not HTTP: {answer:?} to {request:?}"));
        assert!(STATUSES.contains(&status), "{status} to {request:?}");
        *seen.entry(status).or_default() += 1;
        assert!(
            answer.contains("X-Frame-Options: DENY"),
            "{answer:?} to {request:?}"
        );
    }
    assert!(sent >= 1000, "only {sent} requests in {BUDGET:?}");
    assert!(answered * 2 > sent, "{answered} of {sent} answered");
    // The mutations reach the routes: some requests are taken, some refused by the game.
    for status in [200, 409] {
        assert!(seen.contains_key(&status), "no {status} in {seen:?}");
    }
    // The page is still served, and nothing the fuzz started runs on once stopped.
    let (status, page) = server.request("GET", "/", "");
    assert_eq!(status, 200);
    assert!(page.contains("/app.js"));
    let _ = server.post("/play/resign", json!({}));
    let _ = server.post("/watch/stop", json!({}));
    server.wait_for(Duration::from_secs(60), "the tasks' end", |s| {
        s["watch"]["running"] == false && s["review"]["busy"] == false
    });
    server.wait_no_children(Duration::from_secs(10));
    eprintln!(
        "fuzz: {sent} requests, {answered} answered {seen:?}, in {:.1} s",
        began.elapsed().as_secs_f64()
    );
}

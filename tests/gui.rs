//! `connect6 gui` driven over HTTP, bound to a free loopback port: a whole game in Play
//! against the random player, engine faults adjudicated as `match` does, a Watch match whose
//! summary is `match`'s and `stats`', a record in Review, and bad requests that change nothing.

mod gui_support;

use gui_support::{BIN, Server, next_turn, stones};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(60);

fn random_engine() -> String {
    format!("{BIN} --player random --seed 7")
}

/// Waits until the engine has answered (or the game ended).
fn settled(server: &Server) -> Value {
    server.wait_for(WAIT, "the engine's move", |s| {
        s["play"]["thinking"] == false
    })["play"]
        .clone()
}

/// Plays the person's turns with [`next_turn`] until the game is over.
fn play_out(server: &Server, me: &str) -> Value {
    for _ in 0..120 {
        let play = settled(server);
        if play["over"] == true {
            return play;
        }
        let turn = next_turn(&play["game"], me).concat();
        server.ok("/play/move", json!({ "cells": turn }));
    }
    panic!("the game did not end in 120 turns: {}", server.state());
}

#[test]
fn banner_says_where_and_that_it_is_loopback() {
    let server = Server::start();
    assert!(
        server.address.starts_with("127.0.0.1:"),
        "{}",
        server.banner
    );
    assert!(server.banner.contains("loopback only"), "{}", server.banner);
    let (status, page) = server.request("GET", "/", "");
    assert_eq!(status, 200);
    assert!(
        page.contains("<script src=\"/app.js\">"),
        "the page is served"
    );
    for asset in ["/app.js", "/app.css"] {
        let (status, text) = server.request("GET", asset, "");
        assert_eq!(status, 200, "{asset}");
        assert!(!text.is_empty(), "{asset} is embedded");
    }
}

#[test]
fn a_whole_game_against_the_random_player() {
    let server = Server::start();
    let engine = random_engine();
    server.ok(
        "/play/new",
        json!({ "engine": engine, "human": "black", "move_time": "2" }),
    );
    let clock = server.state()["play"]["human_turn_began"].as_f64();
    assert!(clock.is_some(), "the person's clock runs from the start");
    std::thread::sleep(std::time::Duration::from_millis(50));
    server.ok("/play/move", json!({ "cells": "JJ" }));
    let play = settled(&server);
    assert_eq!(play["ours"], true, "undo goes through the protocol");
    assert_eq!(play["game"]["turns"].as_array().map(Vec::len), Some(2));
    // The person's turn has its time, and their clock runs again from the engine's reply.
    let mine = play["game"]["turns"][0]["time"].as_f64().unwrap_or(0.0);
    assert!(mine >= 0.05, "{play}");
    assert_eq!(play["human_total"].as_f64(), Some(mine));
    assert!(play["human_turn_began"].as_f64() >= clock, "{play}");
    // An occupied cell is refused with the rules' reason, and nothing moves.
    let before = server.state()["play"].clone();
    let (status, answer) = server.post("/play/move", json!({ "cells": "JJAA" }));
    assert_eq!(status, 422, "{answer}");
    assert!(
        answer["error"].as_str().unwrap_or("").contains("illegal"),
        "{answer}"
    );
    assert_eq!(server.state()["play"], before);
    // Undo takes back the person's turn and the engine's reply.
    let turn = next_turn(&before["game"], "black").concat();
    server.ok("/play/move", json!({ "cells": turn }));
    settled(&server);
    server.ok("/play/undo", json!({}));
    let undone = server.state()["play"].clone();
    assert_eq!(undone["game"]["turns"], before["game"]["turns"]);
    assert_eq!(undone["to_move"], "black");
    let play = play_out(&server, "black");
    assert_eq!(play["ending"], "black wins with six in a row", "{play}");
    assert_eq!(play["game"]["result"], "black wins");
    let svg = play["game"]["svg"].as_str().unwrap_or("");
    assert!(svg.contains(r#"class="six""#), "the six is drawn through");
    assert!(svg.contains("stone black last"), "the last turn is marked");
    let (status, answer) = server.post("/play/move", json!({ "cells": "AAAB" }));
    assert_eq!(status, 409, "{answer}");
    // Undo after the end restarts the engine with the position and plays on.
    let turns = play["game"]["turns"].as_array().map_or(0, Vec::len);
    server.ok("/play/undo", json!({}));
    let reopened = server.state()["play"].clone();
    assert_eq!(reopened["over"], false);
    assert_eq!(
        reopened["game"]["turns"].as_array().map(Vec::len),
        Some(turns - 1)
    );
    let play = play_out(&server, "black");
    assert_eq!(play["game"]["result"], "black wins", "{play}");
}

#[test]
fn undo_restarts_another_engine_with_the_position() {
    let server = Server::start();
    // Behind `sh` the program is not this one: undo cannot use our engine's `undo`, so the
    // engine is started afresh and given the position as set-up lines.
    let engine = format!("sh -c 'exec \"$0\" --player random --seed 9' {BIN}");
    server.ok("/play/new", json!({ "engine": engine, "human": "black" }));
    assert_eq!(server.state()["play"]["ours"], false);
    for _ in 0..2 {
        let play = settled(&server);
        let turn = next_turn(&play["game"], "black").concat();
        server.ok("/play/move", json!({ "cells": turn }));
    }
    let before = settled(&server);
    assert_eq!(before["game"]["turns"].as_array().map(Vec::len), Some(4));
    server.ok("/play/undo", json!({}));
    let undone = server.state()["play"].clone();
    assert_eq!(undone["game"]["turns"].as_array().map(Vec::len), Some(2));
    // The restarted engine knows the stones: it plays on legally to the end.
    let play = play_out(&server, "black");
    assert_eq!(play["ending"], "black wins with six in a row", "{play}");
}

#[test]
fn the_engine_can_play_black_and_the_person_resign() {
    let server = Server::start();
    server.ok(
        "/play/new",
        json!({ "engine": random_engine(), "human": "white" }),
    );
    let play = settled(&server);
    assert_eq!(play["game"]["turns"][0]["color"], "black");
    assert_eq!(play["to_move"], "white");
    server.ok("/play/resign", json!({}));
    let play = server.state()["play"].clone();
    assert_eq!(play["ending"], "black wins: white resigned");
    let (status, _) = server.post("/play/undo", json!({}));
    assert_eq!(status, 409, "a resigned game stays closed");
}

#[test]
fn engine_faults_are_adjudicated_as_match_does() {
    let server = Server::start();
    // Silent: says nothing, so the reply is late past the move time and the tolerance.
    server.ok(
        "/play/new",
        json!({ "engine": "sleep 30", "human": "black", "move_time": "0.3" }),
    );
    server.ok("/play/move", json!({ "cells": "JJ" }));
    let play = settled(&server);
    assert_eq!(
        play["ending"],
        "black wins: white loses by late (no move within 0.500 s (move time 0.300 s + tolerance 0.200 s))"
    );
    assert_eq!(play["fault"], true);
    // Crashes: exits at once.
    server.ok("/play/new", json!({ "engine": "true", "human": "white" }));
    let play = settled(&server);
    assert!(
        play["ending"]
            .as_str()
            .unwrap_or("")
            .starts_with("white wins: black loses by crash"),
        "{play}"
    );
    // Cannot start: refused, and the last game stays.
    let (status, answer) = server.post("/play/new", json!({ "engine": "/no/such/engine" }));
    assert_eq!(status, 422, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap_or("")
            .contains("could not be started")
    );
    assert_eq!(server.state()["play"], play);
}

/// The summary without the lines of reply times, which differ between two runs.
fn without_times(summary: &str) -> Vec<&str> {
    summary
        .lines()
        .filter(|l| !l.starts_with("Move time") && !l.starts_with("Time use"))
        .collect()
}

#[test]
fn a_watch_match_stops_on_request_after_the_game_in_play() {
    let a = format!("{BIN} --player random --seed 5 --name RandA");
    let b = format!("{BIN} --player greedy --name Greedy");
    let server = Server::start();
    server.ok(
        "/watch/start",
        json!({ "engine_a": a, "engine_b": b, "move_time": "2", "games": "200" }),
    );
    server.ok("/watch/stop", json!({}));
    let watch =
        server.wait_for(WAIT, "the match's end", |s| s["watch"]["running"] == false)["watch"]
            .clone();
    let played = watch["results"].as_array().map_or(0, Vec::len);
    assert!((1..200).contains(&played), "{played} games: {watch}");
    assert_eq!(watch["planned"], 200);
    let summary = watch["summary"]
        .as_str()
        .unwrap_or_else(|| panic!("{watch}"));
    assert!(
        summary.starts_with(&format!("{played} game(s)")),
        "{summary}"
    );
    let (status, answer) = server.post("/watch/stop", json!({}));
    assert_eq!(status, 409, "nothing left to stop: {answer}");
}

#[test]
fn a_watch_match_sums_up_as_match_does() {
    let dir = std::env::temp_dir().join(format!("connect6-gui-watch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "JJ GLHM FKHL\n").expect("openings written");
    let a = format!("{BIN} --player random --seed 3 --name RandA");
    let b = format!("{BIN} --player greedy --name Greedy");
    let records = dir.join("watch");
    let server = Server::start();
    server.ok(
        "/watch/start",
        json!({ "engine_a": a, "engine_b": b, "move_time": "2", "games": "2",
                "openings": openings, "records": records }),
    );
    let watch =
        server.wait_for(WAIT, "the match's end", |s| s["watch"]["running"] == false)["watch"]
            .clone();
    let summary = watch["summary"]
        .as_str()
        .unwrap_or_else(|| panic!("{watch}"));
    assert_eq!(watch["results"].as_array().map(Vec::len), Some(2));
    assert!(
        watch["live"]["game"]["svg"].as_str().is_some(),
        "the last game is on the board"
    );
    // Its records are match's: stats reads them back into the same summary.
    let stats = Command::new(BIN)
        .arg("stats")
        .arg(&records)
        .output()
        .expect("stats runs");
    assert_eq!(String::from_utf8_lossy(&stats.stdout), summary);
    // And `match` itself, on the same games, says the same but for its reply times.
    let matched = Command::new(BIN)
        .args([
            "match",
            "--quiet",
            "--move-time",
            "2",
            "--games",
            "2",
            "--openings",
        ])
        .arg(&openings)
        .args([&a, &b])
        .output()
        .expect("match runs");
    let matched = String::from_utf8_lossy(&matched.stdout);
    assert_eq!(without_times(&matched), without_times(summary));
    let _ = std::fs::remove_dir_all(&dir);
}

fn losses() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/losses")
}

#[test]
fn a_record_in_review() {
    let server = Server::start();
    server.ok("/review/open", json!({ "path": losses() }));
    let review = server.state()["review"].clone();
    let files = review["files"].as_array().map_or(0, Vec::len);
    assert!(files > 10, "the folder's records are listed: {review}");
    let turns = review["game"]["turns"].as_array().map_or(0, Vec::len);
    assert_eq!(review["game"]["upto"], turns, "a record opens at its end");
    server.ok("/review/goto", json!({ "upto": 3 }));
    let game = server.state()["review"]["game"].clone();
    assert_eq!(game["upto"], 3);
    assert_eq!(
        game["svg"]
            .as_str()
            .map(|s| s.matches("class=\"stone ").count()),
        Some(5)
    );
    server.ok("/review/select", json!({ "index": 1 }));
    assert_eq!(server.state()["review"]["index"], 1);
    // The losing turn, as `analyse` finds it: a turn of the loser, and the board goes there.
    server.ok("/review/losing", json!({}));
    let review =
        server.wait_for(WAIT, "the analysis", |s| s["review"]["busy"] == false)["review"].clone();
    let turn = review["losing"]["turn"]
        .as_u64()
        .unwrap_or_else(|| panic!("{review}"));
    assert_eq!(review["game"]["upto"], turn);
    let loser = if review["game"]["result"] == "black wins" {
        "white"
    } else {
        "black"
    };
    assert_eq!(review["game"]["turns"][turn as usize - 1]["color"], loser);
    assert!(
        review["losing"]["text"]
            .as_str()
            .unwrap_or("")
            .contains("lost after turn")
    );
    // The engine's view of the position: a legal turn for the side to move.
    server.ok("/review/goto", json!({ "upto": 4 }));
    server.ok(
        "/review/engine",
        json!({ "engine": random_engine(), "move_time": 2 }),
    );
    let review =
        server.wait_for(WAIT, "the engine's view", |s| s["review"]["busy"] == false)["review"]
            .clone();
    let view = &review["engine"];
    assert_eq!(view["upto"], 4, "{review}");
    assert_eq!(view["color"], "black");
    let reply = view["turn"].as_str().unwrap_or("");
    let board =
        stones(&json!({ "turns": review["game"]["turns"].as_array().map(|t| t[..4].to_vec()) }));
    assert_eq!(reply.len(), 4, "{view}");
    assert!(
        !board.contains_key(&reply[..2]) && !board.contains_key(&reply[2..]),
        "{view}"
    );
}

#[test]
fn bad_requests_get_clear_errors_and_change_nothing() {
    let server = Server::start();
    server.ok("/review/open", json!({ "path": losses() }));
    let before = server.state();
    let cases: &[(&str, &str, &str, u16, &str)] = &[
        ("GET", "/nothing", "", 404, "no such page"),
        ("GET", "/play/nothing", "", 404, "no such page"),
        ("GET", "/../etc/passwd", "", 404, "no such page"),
        ("DELETE", "/state", "", 405, "not allowed"),
        ("GET", "/play/move", "", 405, "not allowed"),
        ("POST", "/play/move", "not json", 400, "request body"),
        (
            "POST",
            "/play/move",
            r#"{"cells":"JJ","extra":1}"#,
            400,
            "unknown field",
        ),
        ("POST", "/play/move", r#"{"cells":"JJ"}"#, 409, "no game"),
        (
            "POST",
            "/play/move",
            r#"{"cells":"ZZ"}"#,
            422,
            "illegal turn",
        ),
        ("POST", "/play/undo", "", 409, "no game"),
        (
            "POST",
            "/play/new",
            r#"{"human":"green"}"#,
            400,
            "black or white",
        ),
        (
            "POST",
            "/play/new",
            r#"{"move_time":"-2"}"#,
            400,
            "positive seconds",
        ),
        (
            "POST",
            "/play/new",
            r#"{"engine":"'unbalanced"}"#,
            422,
            "unbalanced quotes",
        ),
        (
            "POST",
            "/watch/start",
            r#"{"engine_a":"a"}"#,
            400,
            "missing field",
        ),
        (
            "POST",
            "/watch/start",
            r#"{"engine_a":"a","engine_b":"b","games":"0"}"#,
            400,
            "--games",
        ),
        ("POST", "/watch/stop", "{}", 409, "no match"),
        (
            "POST",
            "/review/goto",
            r#"{"upto":999}"#,
            409,
            "no turn 999",
        ),
        (
            "POST",
            "/review/goto",
            r#"{"upto":-1}"#,
            400,
            "request body",
        ),
        (
            "POST",
            "/review/select",
            r#"{"index":999}"#,
            409,
            "no file 999",
        ),
        (
            "POST",
            "/review/open",
            r#"{"path":"/no/such/record"}"#,
            422,
            "cannot open",
        ),
    ];
    for &(method, path, body, status, words) in cases {
        let (got, text) = server.request(method, path, body);
        assert_eq!(got, status, "{method} {path} {body}: {text}");
        assert!(
            text.contains(words),
            "{method} {path} {body}: '{text}' lacks '{words}'"
        );
    }
    // Only this server's own page may ask: not another host's name (DNS rebinding), another
    // origin, or a body that a foreign page could send without the browser asking first.
    let foreign: &[(&str, u16)] = &[
        (
            "Host: evil.example:80\r\nContent-Type: application/json",
            403,
        ),
        (
            "Origin: http://evil.example\r\nContent-Type: application/json",
            403,
        ),
        ("Content-Type: text/plain", 415),
    ];
    for &(headers, status) in foreign {
        let host = if headers.starts_with("Host") {
            String::new()
        } else {
            format!("Host: {}\r\n", server.address)
        };
        let body = r#"{"engine":"true"}"#;
        let token = server.token_header();
        let request = format!(
            "POST /play/new HTTP/1.1\r\n{host}{token}{headers}\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        let (got, text) = server.raw(request.as_bytes());
        assert_eq!(got, status, "{headers}: {text}");
    }
    let (status, text) = server.raw(b"NONSENSE\r\n\r\n");
    assert_eq!(status, 400, "{text}");
    let huge = format!(
        "POST /play/move HTTP/1.1\r\nContent-Length: {}\r\n\r\n",
        1 << 20
    );
    let (status, text) = server.raw(huge.as_bytes());
    assert_eq!(status, 400, "{text}");
    assert_eq!(
        server.state(),
        before,
        "a refused request changed the state"
    );
}

#[test]
fn the_event_stream_follows_changes() {
    let server = Server::start();
    let mut stream = TcpStream::connect(&server.address).expect("connects");
    stream
        .set_read_timeout(Some(WAIT))
        .expect("a timeout can be set");
    let address = server.address.clone();
    let token = server.token_header();
    write!(
        stream,
        "GET /events HTTP/1.1\r\nHost: {address}\r\n{token}\r\n"
    )
    .expect("sent");
    let mut reader = BufReader::new(stream);
    let event = |reader: &mut BufReader<TcpStream>| -> Value {
        let mut line = String::new();
        loop {
            line.clear();
            let read = reader.read_line(&mut line).expect("the stream goes on");
            assert!(read > 0, "the event stream ended");
            if let Some(data) = line.strip_prefix("data: ") {
                return serde_json::from_str(data).expect("each event is the state as JSON");
            }
        }
    };
    let first = event(&mut reader);
    assert_eq!(first["play"]["active"], false);
    server.ok("/review/open", json!({ "path": losses() }));
    let next = event(&mut reader);
    assert!(next["version"].as_u64() > first["version"].as_u64());
    assert!(
        next["review"]["game"]["svg"].is_string(),
        "the opened record is streamed"
    );
}

#[test]
fn the_empty_board_comes_with_the_defaults() {
    let server = Server::start();
    let (status, text) = server.request("GET", "/defaults", "");
    assert_eq!(status, 200, "{text}");
    let defaults: Value = serde_json::from_str(&text).expect("JSON");
    let svg = defaults["board"]["svg"].as_str().expect("an empty board");
    assert_eq!(svg.matches("<line ").count(), 38, "19 lines each way");
    for letter in ["A", "J", "S"] {
        assert!(svg.contains(&format!(">{letter}</text>")), "label {letter}");
    }
    assert!(!svg.contains("<circle"), "no stone");
}

#[test]
fn the_engine_panel_reads_our_engines_search() {
    let server = Server::start();
    // Without the opening book, which answers JJ with no search to show.
    let engine = format!("{BIN} --threads 1 --no-book");
    let body = json!({ "engine": engine, "human": "black", "move_time": "0.3" });
    server.ok("/play/new", body);
    server.ok("/play/move", json!({ "cells": "JJ" }));
    // The info line follows the reply on stderr: wait for the panel's summary too.
    let state = server.wait_for(WAIT, "the engine's summary", |s| {
        s["play"]["thinking"] == false && s["play"]["search"]["summary"].is_object()
    });
    let search = &state["play"]["search"];
    let played = state["play"]["game"]["turns"][1]["cells"].as_str();
    assert_eq!(search["summary"]["best"].as_str(), played, "{search}");
    assert!(search["summary"]["score"].is_i64(), "{search}");
    assert!(search["summary"]["depth"].as_i64() >= Some(1), "{search}");
    assert!(search["summary"]["nodes"].as_i64() > Some(0), "{search}");
    assert!(search["summary"]["nps"].as_i64() > Some(0), "{search}");
    // The expected line is the deepest iteration's whose best turn was played; the engine may
    // play a turn no completed iteration chose (an unfinished deeper one, or the threat
    // check's), and then there is none to show.
    let pv = search["pv"].as_array().expect("a line");
    let chosen = search["iterations"]
        .as_array()
        .expect("the iterations")
        .iter()
        .any(|i| i["best"].as_str() == played);
    if chosen {
        assert_eq!(pv.first().and_then(Value::as_str), played, "{search}");
    } else {
        assert!(pv.is_empty(), "{search}");
    }
    assert!(search["threats"].is_array(), "{search}");
}

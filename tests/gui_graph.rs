//! The score graph in `connect6 gui`, over HTTP: Review's graph is a fresh quick pass over
//! the record, kept so that the record opened again shows it at once, and a stopped pass
//! leaves nothing running; Play's points are the engine's own reports.

mod gui_support;

use connect6::record::game::Game;
use connect6::tools::pass::{PassSettings, PassStop, quick_pass};
use gui_support::{BIN, Server};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(90);

fn losses() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/losses")
}

/// `(turn, score)` of each point.
fn points(graph: &Value) -> Vec<(u64, i64)> {
    graph["points"]
        .as_array()
        .unwrap_or_else(|| panic!("no points: {graph}"))
        .iter()
        .map(|p| {
            (
                p["turn"].as_u64().unwrap_or(0),
                p["score"].as_i64().unwrap_or(0),
            )
        })
        .collect()
}

fn pass_done(server: &Server) -> Value {
    server.wait_for(WAIT, "the pass", |s| {
        s["review"]["busy"] == false && s["review"]["graph"]["status"] == "done"
    })["review"]
        .clone()
}

#[test]
fn the_graph_is_a_fresh_pass_and_a_reopened_record_shows_it_at_once() {
    let server = Server::start();
    server.ok("/review/open", json!({ "path": losses() }));
    // A depth the search finishes far inside the time: a pass is the same every run.
    server.ok("/review/graph", json!({ "time": "5", "depth": "2" }));
    let review = pass_done(&server);
    let file = review["files"][0].as_str().expect("a file");
    let game = Game::read_record(&losses().join(file)).expect("the record");
    let settings = PassSettings::new(Duration::from_secs(5), 2).expect("settings");
    let fresh = quick_pass(&game, settings, &PassStop::default(), |_, _| {}).expect("run out");
    let fresh: Vec<(u64, i64)> = fresh
        .iter()
        .map(|p| (p.turn as u64, i64::from(p.score)))
        .collect();
    let graph = review["graph"].clone();
    assert_eq!(points(&graph), fresh, "{graph}");
    assert_eq!(graph["total"], game.turns.len());
    let svg = graph["svg"].as_str().unwrap_or("");
    assert_eq!(svg.matches("class=\"hit\"").count(), fresh.len());
    // The next record has no graph yet; the first, opened again, has it at once.
    server.ok("/review/select", json!({ "index": 1 }));
    assert_eq!(server.state()["review"]["graph"], Value::Null);
    let began = Instant::now();
    server.ok("/review/select", json!({ "index": 0 }));
    let again = server.state()["review"].clone();
    assert_eq!(again["graph"]["status"], "cached", "{again}");
    assert_eq!(points(&again["graph"]), fresh);
    assert_eq!(again["busy"], false);
    // Asked again with the same settings: the cache answers, no search runs.
    server.ok("/review/graph", json!({ "time": "5", "depth": "2" }));
    let asked = server.state()["review"].clone();
    assert_eq!(asked["graph"]["status"], "cached");
    assert_eq!(asked["busy"], false);
    assert!(
        began.elapsed() < Duration::from_secs(2),
        "{:?}",
        began.elapsed()
    );
    // Other settings are another pass.
    server.ok("/review/graph", json!({ "time": "5", "depth": "1" }));
    let other = pass_done(&server);
    assert_eq!(other["graph"]["depth"], 1);
    // The losing turn, once found, is marked on the graph.
    server.ok("/review/losing", json!({}));
    let review = server.wait_for(WAIT, "the analysis", |s| {
        s["review"]["busy"] == false && s["review"]["losing"]["turn"].is_u64()
    })["review"]
        .clone();
    let turn = &review["losing"]["turn"];
    let svg = review["graph"]["svg"].as_str().unwrap_or("");
    assert!(
        svg.contains(&format!("class=\"point losing\" data-turn=\"{turn}\""))
            || svg.contains(&format!(
                "class=\"point proven losing\" data-turn=\"{turn}\""
            )),
        "{svg}"
    );
}

/// The server's processor time so far, in clock ticks (Linux: from /proc).
fn cpu_ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command's closing parenthesis; utime and stime are 14th and 15th.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

#[test]
fn a_stopped_pass_leaves_nothing_running() {
    let server = Server::start();
    server.ok("/review/open", json!({ "path": losses() }));
    let (status, answer) = server.post("/review/stop", json!({}));
    assert_eq!(status, 409, "nothing to stop: {answer}");
    // Three seconds a position: a minute's pass, stopped after its first point.
    server.ok("/review/graph", json!({ "time": "3" }));
    let running = server.wait_for(WAIT, "the first point", |s| {
        s["review"]["graph"]["done"].as_u64() >= Some(1)
    })["review"]["graph"]
        .clone();
    assert_eq!(running["status"], "running", "{running}");
    let (status, answer) = server.post("/review/graph", json!({ "time": "2" }));
    assert_eq!(status, 409, "one pass at a time: {answer}");
    let asked = Instant::now();
    server.ok("/review/stop", json!({}));
    let review = server.wait_for(Duration::from_secs(5), "the stop", |s| {
        s["review"]["busy"] == false
    })["review"]
        .clone();
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "{:?}",
        asked.elapsed()
    );
    assert_eq!(review["graph"]["status"], "stopped");
    let done = review["graph"]["done"].as_u64().unwrap_or(0);
    assert!(done < review["graph"]["total"].as_u64().unwrap_or(0));
    // Nothing searches on: no process started, and the server idles.
    assert_eq!(server.children(), 0);
    if let Some(before) = cpu_ticks(server.pid()) {
        std::thread::sleep(Duration::from_secs(1));
        let used = cpu_ticks(server.pid()).unwrap_or(before) - before;
        assert!(used <= 20, "{used} ticks in a second after the stop");
    }
    assert_eq!(
        server.state()["review"]["graph"]["done"].as_u64(),
        Some(done)
    );
    // A stopped pass is not kept: asked again, it runs afresh.
    server.ok("/review/graph", json!({ "time": "0.05", "depth": "1" }));
    let review = pass_done(&server);
    assert!(review["graph"]["done"].as_u64() > Some(done));
}

#[test]
fn plays_points_are_the_engines_reports() {
    let server = Server::start();
    // Without the opening book: its turns come with no search report to draw.
    let engine = format!("{BIN} --threads 1 --no-book");
    let body = json!({ "engine": engine, "human": "black", "move_time": "0.3" });
    server.ok("/play/new", body);
    server.ok("/play/move", json!({ "cells": "JJ" }));
    let state = server.wait_for(WAIT, "the engine's report", |s| {
        s["play"]["thinking"] == false && s["play"]["search"]["summary"].is_object()
    });
    let play = &state["play"];
    let reported = play["search"]["summary"]["score"]
        .as_i64()
        .expect("a score");
    // The engine plays white: its score, from its own side, is turned to black's.
    assert_eq!(points(&play["graph"]), vec![(2, -reported)], "{play}");
    // Kept when the log moves on to the next move.
    let next = gui_support::next_turn(&play["game"], "black").concat();
    server.ok("/play/move", json!({ "cells": next }));
    let state = server.wait_for(WAIT, "the second report", |s| {
        s["play"]["thinking"] == false
            && s["play"]["search"]["summary"]["best"].as_str()
                == s["play"]["game"]["turns"][3]["cells"].as_str()
    });
    let graph = &state["play"]["graph"];
    let second = state["play"]["search"]["summary"]["score"]
        .as_i64()
        .expect("a score");
    assert_eq!(points(graph), vec![(2, -reported), (4, -second)], "{graph}");
}

#[test]
fn watchs_points_are_the_engines_reports() {
    let server = Server::start();
    // Without the opening book: its turns come with no search report to draw.
    let ours = format!("{BIN} --threads 1 --move-time 0.2 --name Ours --no-book");
    let random = format!("{BIN} --player random --seed 11 --name Random");
    server.ok(
        "/watch/start",
        json!({ "engine_a": ours, "engine_b": random, "move_time": "2", "games": "1" }),
    );
    let watch =
        server.wait_for(WAIT, "the match's end", |s| s["watch"]["running"] == false)["watch"]
            .clone();
    let live = &watch["live"];
    let color = if live["game"]["black"] == "Ours" {
        "black"
    } else {
        "white"
    };
    let turns = live["game"]["turns"].as_array().expect("turns");
    let ours: Vec<u64> = turns
        .iter()
        .filter(|t| t["color"] == color)
        .filter_map(|t| t["number"].as_u64())
        .collect();
    let points = points(&live["graph"]);
    // Every point is a turn of our engine (the random player reports nothing), and each of
    // its turns has one but perhaps the last, whose report may come after the game's end.
    assert!(
        points.iter().all(|(t, _)| ours.contains(t)),
        "{points:?} {ours:?}"
    );
    assert!(points.len() + 1 >= ours.len(), "{points:?} {ours:?}");
    assert!(!points.is_empty());
    // Our engine wins: its last report favours it, seen from black's side.
    assert_eq!(watch["points"], json!([1.0, 0.0]), "{watch}");
    let (_, last) = points[points.len() - 1];
    if color == "black" {
        assert!(last > 0, "{points:?}");
    } else {
        assert!(last < 0, "{points:?}");
    }
}

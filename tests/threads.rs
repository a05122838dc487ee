//! Lazy SMP on real games: with two search threads the engine answers every position taken
//! from the competition records in `tests/data/records` with a legal turn within its cap.
//! With one thread and a depth limit the binary's search is reproducible: two fresh
//! processes play the same game move for move.

mod common;

use connect6::engine::models::Models;
use connect6::engine::search::DEFAULT_MAX_DEPTH;
use connect6::protocol::baselines::GreedyPlayer;
use connect6::protocol::player::Engine;
use connect6::protocol::session::Player;
use connect6::record::Record;
use connect6::rules::board::Board;
use connect6::rules::coord::Turn;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How late past its cap a reply may come on a loaded two-core machine.
const SLACK: Duration = Duration::from_millis(300);

/// Positions per record: after this share of its stones (rounded to a turn boundary).
const SHARES: [f64; 2] = [0.35, 0.7];

#[test]
fn two_threads_answer_real_positions_legally_within_the_cap() {
    let entries = std::fs::read_dir(common::data_dir("records")).expect("records folder");
    let _ = env_logger::builder().is_test(true).try_init();
    let cap = Duration::from_millis(300);
    let born = Instant::now() - Duration::from_secs(60);
    let mut engine =
        Engine::new(Models::embedded(), 16, cap, None, DEFAULT_MAX_DEPTH, born).with_threads(2);
    let mut searched = 0;
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(record) = Record::parse(&text) else {
            continue; // the README, or a file that is not a record
        };
        for share in SHARES {
            // Black's one stone, then two a turn: 1 + 2t stones end a turn.
            let stones = (record.moves.len() as f64 * share) as usize;
            let stones = 1 + (stones.saturating_sub(1) / 2) * 2;
            let mut board = Board::new();
            for m in &record.moves[..stones.min(record.moves.len())] {
                board.place(m.cell, m.color);
            }
            if board.is_over() {
                continue;
            }
            engine.new_game();
            let t = Instant::now();
            let turn = engine.choose(&board);
            let used = t.elapsed();
            assert!(
                board.check_turn(&turn).is_ok(),
                "{}: {turn} is illegal after {stones} stones",
                path.display()
            );
            // The cap less the engine's margin is its budget; a loaded machine may still
            // wake it late. An engine that ignored the cap would search to its full depth,
            // seconds here.
            assert!(
                used < cap + SLACK,
                "{}: {used:?} for a {cap:?} cap",
                path.display()
            );
            searched += 1;
        }
    }
    assert!(searched >= 4, "only {searched} real positions searched");
}

/// The engine's replies in a game against the greedy player, the engine black, in a fresh
/// `connect6` process with `args`.
fn replies_against_greedy(args: &[&str], turns: usize) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_connect6"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the engine starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut board = Board::new();
    let mut replies = Vec::new();
    let mut line = "new black".to_string();
    for _ in 0..turns {
        writeln!(stdin, "{line}").expect("write");
        let mut reply = String::new();
        stdout.read_line(&mut reply).expect("read");
        let text = reply.trim_end().to_string();
        let turn = text
            .strip_prefix("move ")
            .and_then(|t| Turn::parse(t).ok())
            .unwrap_or_else(|| panic!("not a move: {text:?}"));
        board.play_turn(&turn).expect("a legal reply");
        replies.push(text);
        if board.is_over() {
            break;
        }
        let ours = GreedyPlayer::default().choose(&board);
        board.play_turn(&ours).expect("greedy plays legally");
        if board.is_over() {
            break;
        }
        line = format!("move {ours}");
    }
    writeln!(stdin, "quit").expect("write");
    assert!(child.wait().expect("exit").success());
    replies
}

#[test]
fn one_thread_at_a_fixed_depth_plays_the_same_moves_twice() {
    // The move time is far beyond what depth 4 takes: the depth ends every search.
    let args = [
        "--threads",
        "1",
        "--depth",
        "4",
        "--move-time",
        "600",
        "--hash",
        "16",
    ];
    let first = replies_against_greedy(&args, 8);
    let second = replies_against_greedy(&args, 8);
    assert!(first.len() >= 5, "{first:?}");
    assert_eq!(first, second);
}

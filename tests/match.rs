//! End-to-end tests of the referee against real child processes: the test engine
//! `tests/engines/engine.sh` (bash) plays legal random moves or misbehaves on demand.

mod common;

use connect6::arena::{self, MatchArgs, MatchError, Summary};
use connect6::record::{FaultKind, Record, RecordResult};
use connect6::rules::board::Color;
use serde_json::Value;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

const A: usize = 0;
const B: usize = 1;

/// The test engine command in `mode` (see the script's header).
fn engine(mode: &str, at: usize) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/engine.sh");
    let path = shlex::try_quote(path).expect("quotable path").into_owned();
    format!("bash {path} {mode} {at} {mode}")
}

/// A fresh, empty scratch directory.
fn scratch(label: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("c6-match-{}-{label}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn config(a: &str, b: &str, extra: &[&str]) -> MatchArgs {
    let mut args: Vec<String> = vec!["--quiet".into()];
    args.extend(extra.iter().map(|s| s.to_string()));
    args.push(a.into());
    args.push(b.into());
    MatchArgs::parse(&args).expect("valid arguments")
}

fn run(a: &str, b: &str, extra: &[&str]) -> Summary {
    arena::run(&config(a, b, extra)).expect("match runs")
}

/// B misbehaves in both games (white in game 1, black in game 2): it must lose both, with the
/// fault named in the summary and the JSON.
fn assert_b_faults(summary: &Summary, kind: FaultKind) {
    assert_eq!(summary.engines[B].total.losses, 2, "{}", summary.to_text());
    assert_eq!(summary.engines[A].total.wins, 2);
    assert_eq!(
        summary.fault_games(B, kind),
        [1, 2],
        "{}",
        summary.to_text()
    );
    assert!(summary.fault_games(A, kind).is_empty());
    assert_eq!(summary.faults.len(), 2);
    let json: Value = serde_json::from_str(&summary.to_json()).expect("JSON");
    let faults = json["faults"].as_array().expect("faults");
    assert_eq!(faults.len(), 2, "{json}");
    for (fault, game) in faults.iter().zip([1, 2]) {
        assert_eq!(fault["game"], game, "{json}");
        assert_eq!(fault["engine"], "B");
        assert_eq!(fault["kind"], kind.name());
        assert_eq!(fault["name"], summary.engines[B].name.as_str());
    }
    assert_eq!(json["engines"][0]["wins"], 2);
    assert_eq!(json["engines"][1]["losses"], 2);
    assert!(
        summary
            .to_text()
            .contains(&format!("game 2: {}", summary.engines[B].name))
    );
}

#[test]
fn legal_engines_play_clean_games_and_records_read_back() {
    let dir = scratch("records");
    let dir_arg = dir.to_string_lossy().into_owned();
    let extra = [
        "--games",
        "4",
        "--concurrency",
        "2",
        "--records",
        &dir_arg,
        "--move-time",
        "3",
    ];
    let s = run(&engine("random", 1), &engine("chatty", 1), &extra);
    assert!(
        s.faults.is_empty(),
        "chatty lines are not faults:\n{}",
        s.to_text()
    );
    assert_eq!(s.games.len(), 4);
    assert_eq!(s.engines[A].total.games(), 4);
    assert_eq!(s.engines[A].as_black.games(), 2, "colours alternate");
    assert_eq!(s.engines[A].total.wins, s.engines[B].total.losses);
    assert_eq!(s.engines[0].name, "random");
    assert!(s.engines[0].moves > 0 && s.engines[1].max_move_time >= s.engines[1].mean_move_time);
    let files: Vec<_> = std::fs::read_dir(&dir)
        .expect("records dir")
        .flatten()
        .collect();
    assert_eq!(files.len(), 4, "one record per game, names made unique");
    for f in files {
        let text = std::fs::read_to_string(f.path()).expect("record");
        let rec = Record::parse(&text).unwrap_or_else(|e| panic!("{:?}: {e}", f.path()));
        // Games between legal engines end in a six (or a full board), so the record shows it.
        assert_ne!(rec.result, RecordResult::Draw);
        assert!(
            rec.file_name()
                .starts_with(&format!("C6-{} B vs {} W-", rec.black, rec.white))
        );
        assert_eq!(rec.moves[0].color, Color::Black);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn late_reply_loses() {
    let s = run(
        &engine("random", 1),
        &engine("late", 2),
        &["--games", "2", "--move-time", "0.3"],
    );
    assert_b_faults(&s, FaultKind::Late);
}

#[test]
fn silence_is_late() {
    let s = run(
        &engine("random", 1),
        &engine("silent", 2),
        &["--games", "2", "--move-time", "0.3"],
    );
    assert_b_faults(&s, FaultKind::Late);
}

#[test]
fn game_time_budget_is_enforced() {
    // A 1 s reply is within the move time but beyond the 0.5 s game budget.
    let extra = ["--games", "2", "--move-time", "5", "--game-time", "0.5"];
    let s = run(&engine("random", 1), &engine("late", 2), &extra);
    assert_b_faults(&s, FaultKind::Late);
    assert!(
        s.faults[0].detail.contains("remaining game time"),
        "{}",
        s.faults[0].detail
    );
}

#[test]
fn occupied_cell_is_illegal() {
    let s = run(
        &engine("random", 1),
        &engine("illegal", 2),
        &["--games", "2"],
    );
    assert_b_faults(&s, FaultKind::Illegal);
    assert!(s.faults[0].detail.contains("occupied"));
}

#[test]
fn off_board_cell_is_illegal() {
    let s = run(
        &engine("random", 1),
        &engine("offboard", 2),
        &["--games", "2"],
    );
    assert_b_faults(&s, FaultKind::Illegal);
}

#[test]
fn unreadable_move_is_malformed() {
    let s = run(
        &engine("random", 1),
        &engine("malformed", 2),
        &["--games", "2"],
    );
    assert_b_faults(&s, FaultKind::Malformed);
}

/// A reply that would read as a legal move but for its length (padded past the 64 KiB line
/// cap): the referee does not take a line that long, and counts it malformed.
#[test]
fn a_line_past_the_cap_is_malformed() {
    let s = run(
        &engine("random", 1),
        &engine("longline", 2),
        &["--games", "2"],
    );
    assert_b_faults(&s, FaultKind::Malformed);
}

#[test]
fn crash_loses() {
    let s = run(
        &engine("random", 1),
        &engine("crash", 2),
        &["--games", "2", "--json"],
    );
    assert_b_faults(&s, FaultKind::Crash);
}

#[test]
fn openings_are_played_with_both_colours() {
    let dir = scratch("openings");
    let file = dir.join("openings.txt");
    std::fs::write(&file, "# two openings\nJJ KJKK IIHH\n\nAA SSSR  # corner\n").expect("write");
    let recs = dir.join("records");
    let (file, recs_arg) = (file.to_string_lossy(), recs.to_string_lossy());
    let extra = [
        "--openings",
        &*file,
        "--records",
        &*recs_arg,
        "--short-first",
    ];
    let s = run(&engine("random", 1), &engine("chatty", 1), &extra);
    assert_eq!(s.games.len(), 4, "two games per opening");
    assert!(s.faults.is_empty(), "{}", s.to_text());
    let mut starts: Vec<String> = std::fs::read_dir(&recs)
        .expect("records")
        .flatten()
        .map(|f| {
            let rec =
                Record::parse(&std::fs::read_to_string(f.path()).expect("read")).expect("parse");
            let head: Vec<String> = rec
                .moves
                .iter()
                .take(3)
                .map(|m| m.cell.to_string())
                .collect();
            head.concat()
        })
        .collect();
    starts.sort();
    assert_eq!(starts, ["AASSSR", "AASSSR", "JJKJKK", "JJKJKK"]);
    // The real binary's per-opening table names each opening and adds up to the summary.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_connect6"))
        .args(["stats", "--by-opening", "--openings", &*file, &*recs_arg])
        .output()
        .expect("stats runs");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(&s.colours.line()), "{text}");
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("opening"))
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 2, "{text}");
    assert_eq!(rows[0][6..], ["JJ", "KJKK", "IIHH"], "{text}");
    assert_eq!(rows[1][6..], ["AA", "SSSR"], "{text}");
    for (row, o) in rows.iter().zip(&s.colours.openings) {
        let c = &o.counts;
        let counts = [
            c.black_wins,
            c.white_wins,
            c.draws,
            c.colour_decided,
            c.pairs,
        ];
        let shown: Vec<usize> = row[1..6]
            .iter()
            .map(|n| n.parse().expect("count"))
            .collect();
        assert_eq!((c.games(), &shown[..]), (2, &counts[..]), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn start_error(a: &str, b: &str, extra: &[&str]) -> MatchError {
    match arena::run(&config(a, b, extra)) {
        Ok(s) => panic!("expected an error, got a match:\n{}", s.to_text()),
        Err(e) => e,
    }
}

#[test]
fn bad_input_stops_before_any_game() {
    let ok = engine("random", 1);
    let e = start_error(&ok, "/nonexistent/engine --flag", &[]);
    assert!(matches!(e, MatchError::Engine { engine: 'B', .. }), "{e}");
    let e = start_error("bash -c 'exit 1'", &ok, &[]);
    assert!(matches!(e, MatchError::Engine { engine: 'A', .. }), "{e}");
    assert!(e.to_string().contains("exited"), "{e}");
    let e = start_error(&ok, "bash 'unbalanced", &[]);
    assert!(matches!(e, MatchError::Engine { engine: 'B', .. }), "{e}");

    let dir = scratch("bad");
    let records = dir.join("records");
    let records_arg = records.to_string_lossy().into_owned();
    for (text, what) in [
        ("JJ KJKK\nJJ KJ\n", "line 2"),
        ("JJ KJJJ\n", "repeats"),
        ("AA JJKK BACA LLMM DAEA NNOO FASS\n", "six"),
        ("# nothing\n", "no opening"),
    ] {
        let file = dir.join("openings.txt");
        std::fs::write(&file, text).expect("write");
        let file = file.to_string_lossy().into_owned();
        let e = start_error(&ok, &ok, &["--openings", &file, "--records", &records_arg]);
        assert!(matches!(e, MatchError::Opening(_)), "{e}");
        assert!(e.to_string().contains(what), "{e}");
    }
    let missing = dir.join("missing.txt").to_string_lossy().into_owned();
    let e = start_error(&ok, &ok, &["--openings", &missing]);
    assert!(e.to_string().contains("cannot read openings file"), "{e}");
    assert!(!records.exists(), "nothing was played or written");

    let args = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    for bad in [
        args(&[&ok]),
        args(&["--frobnicate", &ok, &ok]),
        args(&["--games", "many", &ok, &ok]),
    ] {
        let e = MatchArgs::parse(&bad).expect_err("rejected");
        assert_eq!(e.exit_code(), 2, "{e}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn engine_without_name_gets_a_fallback_name() {
    let s = run(
        &engine("noname", 1),
        &engine("random", 1),
        &["--games", "1", "--move-time", "0.3"],
    );
    assert_eq!(s.engines[A].name, "bash", "the program's file name");
    assert!(s.faults.is_empty());
}

/// An opening that fills all but two cells with no six anywhere (white where
/// `(c/2 + r/2 + r/4)` is odd): black's last turn fills the board, a draw.
fn nearly_full_opening() -> String {
    use connect6::rules::coord::Cell;
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for r in 0..19 {
        for c in 0..19 {
            let cell = Cell::new(c, r).expect("on board").to_string();
            if (c / 2 + r / 2 + r / 4) % 2 == 1 {
                white.push(cell)
            } else {
                black.push(cell)
            }
        }
    }
    assert_eq!((black.len(), white.len()), (181, 180));
    let mut tokens = vec![black[0].clone()];
    for t in 0..90 {
        tokens.push(white[2 * t..2 * t + 2].concat());
        if t < 89 {
            tokens.push(black[1 + 2 * t..3 + 2 * t].concat());
        }
    }
    tokens.join(" ")
}

#[test]
fn full_board_is_a_draw() {
    let dir = scratch("draw");
    let file = dir.join("openings.txt");
    std::fs::write(&file, nearly_full_opening()).expect("write");
    let recs = dir.join("records");
    let (file, recs_arg) = (file.to_string_lossy(), recs.to_string_lossy());
    let s = run(
        &engine("random", 1),
        &engine("random", 1),
        &["--openings", &*file, "--records", &*recs_arg],
    );
    assert!(s.faults.is_empty(), "{}", s.to_text());
    assert_eq!(s.engines[A].total.draws, 2, "{}", s.to_text());
    let json: Value = serde_json::from_str(&s.to_json()).expect("JSON");
    for r in json["results"].as_array().expect("results") {
        assert_eq!(r["winner"], "draw", "{json}");
    }
    assert_eq!(json["engines"][0]["draws"], 2);
    assert_eq!(json["pairs"]["counts"], serde_json::json!([0, 0, 1, 0, 0]));
    let mut records = 0;
    for f in std::fs::read_dir(&recs).expect("records").flatten() {
        let rec = Record::parse(&std::fs::read_to_string(f.path()).expect("read")).expect("parse");
        assert_eq!((rec.result, rec.moves.len()), (RecordResult::Draw, 361));
        records += 1;
    }
    assert_eq!(records, s.games.len(), "one record per game");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn json_summary_carries_the_statistics() {
    let s = run(
        &engine("random", 1),
        &engine("chatty", 1),
        &["--games", "4", "--move-time", "2"],
    );
    let json: Value = serde_json::from_str(&s.to_json()).expect("JSON");
    assert_eq!(json["games"], 4);
    assert_eq!(json["settings"]["move_time"], 2.0);
    assert!(json["settings"]["game_time"].is_null());
    let results = json["results"].as_array().expect("results");
    let numbers: Vec<u64> = results
        .iter()
        .map(|r| r["game"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [1, 2, 3, 4]);
    let blacks: Vec<&str> = results
        .iter()
        .map(|r| r["black"].as_str().unwrap())
        .collect();
    assert_eq!(blacks, ["A", "B", "A", "B"]);
    // Two complete pairs, counted from A's points in each.
    let counts = json["pairs"]["counts"].as_array().expect("counts");
    assert_eq!(counts.iter().map(|c| c.as_u64().unwrap()).sum::<u64>(), 2);
    let a_points: f64 = counts
        .iter()
        .enumerate()
        .map(|(k, c)| k as f64 / 2.0 * c.as_f64().unwrap())
        .sum();
    assert_eq!(a_points, json["engines"][0]["score"].as_f64().unwrap());
    // Time use: the summed per-game times over (moves x 2 s) give the overall share.
    for e in 0..2 {
        let (moves, total): (u64, u64) = results.iter().fold((0, 0), |(m, t), r| {
            let tu = &r["time"][e];
            (
                m + tu["moves"].as_u64().unwrap(),
                t + tu["total_us"].as_u64().unwrap(),
            )
        });
        assert_eq!(json["engines"][e]["moves"].as_u64(), Some(moves));
        let share = total as f64 / (moves as f64 * 2e6);
        let got = json["engines"][e]["time_share"].as_f64().unwrap();
        assert!((got - share).abs() < 1e-4, "{got} vs {share}");
    }
    let report: connect6::arena::JsonReport = serde_json::from_value(json).expect("typed");
    let (settings, entries) = report.into_parts().expect("parts");
    let again = Summary::new(settings, entries);
    assert_eq!(
        again.to_text(),
        s.to_text(),
        "the JSON holds the whole summary"
    );
}

#[test]
fn sprt_stops_the_match_once_decided() {
    // B crashes at once in every game, so every pair is a 2-0 for A. With elo0 = 0 and
    // elo1 = 200 (alpha = beta = 0.05) the LLR after n clean pairs is 0.02, 0.37, 0.94,
    // 1.72, 2.72, 3.92 (see stats.rs): H1 is accepted after the 6th pair, game 12 of 40.
    let s = run(
        &engine("random", 1),
        &engine("crash", 1),
        &["--games", "40", "--sprt", "0,200", "--move-time", "1"],
    );
    assert_eq!(s.games.len(), 12, "{}", s.to_text());
    let st = s.sprt.expect("sprt state");
    assert_eq!(st.verdict, connect6::arena::SprtVerdict::H1);
    assert!((st.llr - 3.9208).abs() < 1e-3, "{st:?}");
    assert!(s.to_text().contains("H1 accepted"), "{}", s.to_text());
    let json: Value = serde_json::from_str(&s.to_json()).expect("JSON");
    assert_eq!(json["sprt"]["verdict"], "H1");
    assert_eq!(json["pairs"]["counts"], serde_json::json!([0, 0, 0, 0, 6]));
}

/// (game, opening, black engine) of every record in `dir`.
fn schedule_of(dir: &std::path::Path) -> Vec<(usize, Option<usize>, usize)> {
    let mut games: Vec<_> = std::fs::read_dir(dir)
        .expect("records")
        .flatten()
        .map(|f| {
            let text = std::fs::read_to_string(f.path()).expect("read");
            let rec = Record::parse(&text).expect("parse");
            let info = rec.info.expect("match field");
            (info.game, info.opening, info.black)
        })
        .collect();
    games.sort();
    games
}

fn stats_of(paths: &[PathBuf]) -> Summary {
    arena::collect(paths).unwrap_or_else(|e| panic!("stats: {e}"))
}

#[test]
fn stats_over_records_repeats_the_match_summary() {
    let dir = scratch("stats");
    let recs = dir.join("records");
    let recs_arg = recs.to_string_lossy().into_owned();
    let extra = ["--games", "3", "--game-time", "20", "--records", &recs_arg];
    let s = run(&engine("random", 1), &engine("late", 2), &extra);
    let merged = stats_of(std::slice::from_ref(&recs));
    assert_eq!(merged.to_text(), s.to_text());
    assert_eq!(merged.to_json(), s.to_json());
    // The match's JSON summary is an input too, and a game may not be counted twice.
    let json = dir.join("summary.json");
    std::fs::write(&json, s.to_json()).expect("write");
    assert_eq!(stats_of(std::slice::from_ref(&json)).to_text(), s.to_text());
    let twice = arena::collect(&[recs.clone(), json]).expect_err("duplicate games");
    assert!(twice.detail.contains("is also in"), "{twice}");
    // Competition records carry no match field and are refused by name.
    let real = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let e = arena::collect(&[real]).expect_err("competition records");
    assert!(e.detail.contains("no match field"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_partition_the_schedule_and_stats_merges_them() {
    let dir = scratch("shards");
    let file = dir.join("openings.txt");
    std::fs::write(&file, "JJ KJKK IIHH\nAA SSSR\nJJ JKJL\n").expect("write");
    let file = file.to_string_lossy().into_owned();
    let all = dir.join("all");
    std::fs::create_dir_all(&all).expect("dir");
    let mut shard_dirs = Vec::new();
    let mut shard_json = Vec::new();
    for k in 1..=4 {
        let recs = dir.join(format!("shard{k}"));
        let recs_arg = recs.to_string_lossy().into_owned();
        let shard = format!("{k}/4");
        let extra = [
            "--openings",
            &file,
            "--games",
            "10",
            "--shard",
            &shard,
            "--records",
            &recs_arg,
            "--move-time",
            "2",
        ];
        let s = run(&engine("random", 1), &engine("chatty", 1), &extra);
        let json = dir.join(format!("shard{k}.json"));
        std::fs::write(&json, s.to_json()).expect("write");
        shard_json.push(json);
        let mut records = 0;
        for f in std::fs::read_dir(&recs).expect("records").flatten() {
            std::fs::copy(f.path(), all.join(f.file_name())).expect("copy");
            records += 1;
        }
        assert_eq!(records, s.games.len(), "shard {shard}: one record per game");
        shard_dirs.push(recs);
    }
    // Unsharded, 10 games over 3 openings: games 2k-1 and 2k play opening (k-1) % 3 + 1,
    // A is black in odd games. Pairs go to shards in turn: 1 and 5 to shard 1, 2 to 2, ...
    let whole: Vec<(usize, Option<usize>, usize)> = (1..=10)
        .map(|g: usize| (g, Some((g - 1) / 2 % 3 + 1), (g + 1) % 2))
        .collect();
    assert_eq!(
        arena::schedule::plan(10, None),
        (1..=10).collect::<Vec<_>>()
    );
    let mut union = Vec::new();
    for (k, d) in shard_dirs.iter().enumerate() {
        let part = schedule_of(d);
        let pairs: Vec<usize> = part.iter().map(|&(g, _, _)| (g - 1) / 2).collect();
        assert!(
            pairs.iter().all(|p| p % 4 == k),
            "shard {}: {part:?}",
            k + 1
        );
        union.extend(part);
    }
    union.sort();
    assert_eq!(union, whole, "the shards partition the schedule");
    assert_eq!(schedule_of(&all), whole);
    let merged = stats_of(&shard_dirs);
    assert_eq!(merged.games.len(), 10);
    assert_eq!(
        merged.to_text(),
        stats_of(std::slice::from_ref(&all)).to_text()
    );
    assert_eq!(
        merged.to_json(),
        stats_of(std::slice::from_ref(&all)).to_json()
    );
    assert_eq!(merged.to_text(), stats_of(&shard_json).to_text());
    assert_eq!(merged.pairs.pairs(), 5);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The real binary's command line: help and version exit 0 on stdout, bad options and
/// unreadable `stats` inputs exit 2 on stderr, and the engine still starts with its flags.
#[test]
fn command_line_exit_codes() {
    use std::process::{Command, Stdio};
    let bin = env!("CARGO_BIN_EXE_connect6");
    let run = |args: &[&str]| {
        let out = Command::new(bin)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("binary runs");
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        (out.status.code(), text(&out.stdout), text(&out.stderr))
    };
    let (code, out, _) = run(&["match", "--help"]);
    assert_eq!(code, Some(0));
    assert!(
        out.contains("--move-time <SECS>") && out.contains("[default: 5]"),
        "{out}"
    );
    assert!(
        out.contains("--sprt") && out.contains("--shard <K/N>"),
        "{out}"
    );
    let (code, out, _) = run(&["--version"]);
    assert_eq!((code, out.trim()), (Some(0), "connect6 0.1.0"));
    for bad in [
        &["--depth", "0"][..],
        &["--fast"],
        &["match", "a"],
        &["match", "--shard", "5/4", "a", "b"],
        &["bench", "--depth", "21"],
        &["stats"],
        &["stats", "/nonexistent/records"],
    ] {
        let (code, out, err) = run(bad);
        assert_eq!(code, Some(2), "{bad:?}: {err}");
        assert!(out.is_empty() && !err.is_empty(), "{bad:?}");
    }
    // `stats .` alone fails too (no records here), so each of these must fail for its own
    // reason, which its message names.
    for (bad, reason) in [
        (
            &["stats", "--openings", "tests/data/openings.txt", "."][..],
            "--by-opening",
        ),
        (
            &[
                "stats",
                "--by-opening",
                "--openings",
                "/nonexistent/openings.txt",
                ".",
            ],
            "cannot read openings file /nonexistent/openings.txt",
        ),
        (
            &["stats", "--by-opening", "--json", "."],
            "cannot be used with '--json'",
        ),
    ] {
        let (code, out, err) = run(bad);
        assert_eq!(code, Some(2), "{bad:?}: {err}");
        assert!(out.is_empty() && err.contains(reason), "{bad:?}: {err}");
    }
    // Engine flags as referees pass them: a reply to `name?`, then exit 0 at end of input.
    let mut child = Command::new(bin)
        .args(["--move-time", "0.5", "--name", "X"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("engine starts");
    use std::io::Write;
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"name?\nquit\n")
        .expect("write");
    let out = child.wait_with_output().expect("engine exits");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "name X\n");
}

#[test]
fn repeated_games_are_counted_once() {
    // The greedy reference player is deterministic: the one opening's pair is played twice
    // over, move for move.
    let dir = scratch("repeats");
    let file = dir.join("openings.txt");
    std::fs::write(&file, "JJ KJKK\n").expect("write");
    let recs = dir.join("records");
    let (file, recs_arg) = (file.to_string_lossy(), recs.to_string_lossy());
    let bin = env!("CARGO_BIN_EXE_connect6");
    let greedy = format!("{bin} --player greedy --name Greedy");
    let extra = [
        "--openings",
        &*file,
        "--records",
        &*recs_arg,
        "--games",
        "4",
    ];
    let s = run(&greedy, &greedy, &extra);
    assert_eq!(s.games.len(), 4);
    let r = s.repeats;
    assert_eq!(
        (r.games, r.distinct_games, r.pairs, r.distinct_pairs),
        (4, 2, 2, 1)
    );
    let line = r.line().expect("moves are known");
    assert!(s.to_text().contains(&line), "{}", s.to_text());
    // Records and the JSON summary keep what is needed to find the repeats again.
    let (code, out, _) = common::run_subcommand("stats", &[&*recs_arg]);
    assert!(code == 0 && out.contains(&line), "{out}");
    let json = dir.join("summary.json");
    let json_arg = json.to_string_lossy();
    std::fs::write(&json, s.to_json()).expect("write");
    let (code, out, _) = common::run_subcommand("stats", &[&*json_arg]);
    assert!(code == 0 && out.contains(&line), "{out}");
    // A fingerprint that is not hex is refused, not read as unknown.
    let mut bad: Value = serde_json::from_str(&s.to_json()).expect("JSON");
    bad["results"][0]["moves"] = "not-hex".into();
    std::fs::write(&json, bad.to_string()).expect("write");
    let (code, _, err) = common::run_subcommand("stats", &[&*json_arg]);
    assert_eq!(code, 2);
    assert!(err.contains("game 1: bad moves 'not-hex'"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

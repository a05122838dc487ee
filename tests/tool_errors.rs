//! The tools' messages and exit codes, from the real binary: `show` and `analyse` (0 done,
//! 1 a file that cannot be read or written, 2 bad input, as docs/tools.md says), conflicting
//! model options, the reference players' names, and a sweep's Elo interval.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

mod common;
use common::subcommands;

const BIN: &str = env!("CARGO_BIN_EXE_connect6");

/// Runs the binary to its end; the engine (no subcommand) reads `quit` at once.
fn run(args: &[&str]) -> Output {
    common::run_with_input(args, b"quit\n")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The exit code, stdout and the stderr lines of a run.
fn outcome(args: &[&str]) -> (i32, String, Vec<String>) {
    let out = run(args);
    let err = text(&out.stderr).lines().map(str::to_string).collect();
    (out.status.code().expect("exited"), text(&out.stdout), err)
}

fn data(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(path)
        .display()
        .to_string()
}

/// A fresh scratch folder for this test.
fn scratch(label: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("c6-tool-errors-{}-{label}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// One record of the five competition games, as a path.
fn a_record() -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/records");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/data/records")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt") && !p.ends_with("README.txt"))
        .collect();
    files.sort();
    files[0].display().to_string()
}

#[test]
fn show_tells_a_missing_file_and_a_folder_from_a_bad_stone_list() {
    let (code, out, err) = outcome(&["show", "nosuchfile.txt"]);
    assert_eq!(code, 1, "{err:?}");
    assert_eq!(
        err,
        ["connect6 show: nosuchfile.txt: the file does not exist"]
    );
    assert!(out.is_empty(), "{out}");

    let folder = data("losses");
    let (code, _, err) = outcome(&["show", &folder]);
    assert_eq!(code, 1, "{err:?}");
    assert_eq!(
        err,
        [format!(
            "connect6 show: {folder}: a folder, not a record file"
        )]
    );

    // Bad input is 2: a word that is neither a file nor a stone list, an illegal list, a
    // file that is no record, and --upto past the end.
    let (code, _, err) = outcome(&["show", "foo"]);
    assert_eq!(code, 2, "{err:?}");
    assert!(
        err[0].contains("'foo' is neither a file nor a stone list"),
        "{err:?}"
    );
    let (code, _, err) = outcome(&["show", "JJ", "JJKK"]);
    assert_eq!(code, 2, "{err:?}");
    let dir = scratch("show");
    let not_record = dir.join("notes.txt");
    std::fs::write(&not_record, "hello\n").unwrap();
    let (code, _, err) = outcome(&["show", not_record.to_str().unwrap()]);
    assert_eq!(code, 2, "{err:?}");
    let (code, _, err) = outcome(&["show", "JJ KJKK", "--upto", "3"]);
    assert_eq!(code, 2, "{err:?}");

    // A diagram that cannot be written is an I/O failure, after the board is shown.
    let svg = dir.join("no/such/folder/a.svg");
    let (code, out, err) = outcome(&["show", &a_record(), "--svg", svg.to_str().unwrap()]);
    assert_eq!(code, 1, "{err:?}");
    assert!(out.contains(" A "), "{out}");
    let (code, out, _) = outcome(&["show", &a_record()]);
    assert_eq!(code, 0);
    assert!(out.contains("(black) vs"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn analyse_refuses_a_missing_path_and_a_side_that_played_nothing() {
    let (code, out, err) = outcome(&["analyse", "--time", "0.1", "--side", "X", "/no/such/path"]);
    assert_eq!(code, 1, "{err:?}");
    assert_eq!(
        err,
        ["connect6 analyse: /no/such/path: no such file or folder"]
    );
    assert!(out.is_empty(), "nothing analysed, no summary: {out}");

    let folder = data("losses-6062084");
    let (code, out, err) = outcome(&["analyse", "--time", "0.1", "--side", "Nobody", &folder]);
    assert_eq!(code, 2, "{err:?}");
    assert_eq!(err.len(), 1, "{err:?}");
    assert!(
        err[0].starts_with("connect6 analyse: --side Nobody played none of the 18 games"),
        "{err:?}"
    );
    assert!(
        err[0].contains("Connect6"),
        "the players are named: {err:?}"
    );
    assert!(out.is_empty(), "{out}");

    // A file that is no record is bad input, and stops the run before any search.
    let dir = scratch("analyse");
    let not_record = dir.join("notes.txt");
    std::fs::write(&not_record, "hello\n").unwrap();
    let (code, out, err) = outcome(&[
        "analyse",
        "--time",
        "0.1",
        "--side",
        "Connect6",
        &a_record(),
        not_record.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err:?}");
    assert!(err[0].contains("notes.txt"), "{err:?}");
    assert!(out.is_empty(), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_eval_beside_an_eval_file_is_refused() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/engine/cells.bin");
    let file = file.to_str().unwrap();
    for args in [
        vec!["--eval", "hand", "--eval-file", file],
        vec!["bench", "--eval", "cells", "--eval-file", file],
    ] {
        let (code, out, err) = outcome(&args);
        assert_eq!(code, 2, "{args:?}: {err:?}");
        assert!(out.is_empty(), "{out}");
        assert!(
            err.iter().any(|l| l.contains("cannot be used with")),
            "{args:?}: {err:?}"
        );
    }
    let (code, _, err) = outcome(&["--eval-file", file]);
    assert_eq!(code, 0, "{err:?}");
}

/// The engine's answer to `name?` when started with `args`.
fn name_of(args: &[&str]) -> String {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start connect6");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"name?\nquit\n")
        .unwrap();
    text(&child.wait_with_output().unwrap().stdout)
}

#[test]
fn reference_players_say_what_they_are() {
    assert_eq!(name_of(&["--player", "random"]), "name Random\n");
    assert_eq!(name_of(&["--player", "greedy"]), "name Greedy\n");
    assert_eq!(
        name_of(&["--player", "random", "--name", "Mine"]),
        "name Mine\n"
    );
    assert_eq!(name_of(&["--player", "engine"]), "name Connect6\n");
}

#[test]
fn a_sweep_has_an_unbounded_interval() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/engine.sh");
    let script = script.to_str().unwrap();
    // The first engine exits as its first move is due, so it loses both games.
    let (code, out, err) = outcome(&[
        "match",
        "--games",
        "2",
        "--move-time",
        "1",
        &format!("bash '{script}' crash 1"),
        &format!("bash '{script}' random 1"),
    ]);
    assert_eq!(code, 0, "{err:?}");
    assert!(out.contains("crash (A): +0 =0 -2"), "{out}");
    assert!(
        out.contains("Elo difference (A - B): -inf, 95% interval unbounded,"),
        "{out}"
    );
    assert!(!out.contains("[-inf, -inf]"), "{out}");

    // The same games' records, merged by `stats`, say it too; the JSON leaves both ends out.
    let dir = scratch("sweep");
    let records = dir.to_str().unwrap();
    let (code, json, err) = outcome(&[
        "match",
        "--games",
        "2",
        "--move-time",
        "1",
        "--records",
        records,
        "--json",
        &format!("bash '{script}' crash 1"),
        &format!("bash '{script}' random 1"),
    ]);
    assert_eq!(code, 0, "{err:?}");
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON summary");
    assert_eq!(json["elo"]["low"], serde_json::Value::Null, "{json}");
    assert_eq!(json["elo"]["high"], serde_json::Value::Null, "{json}");
    let (code, out, err) = outcome(&["stats", records]);
    assert_eq!(code, 0, "{err:?}");
    assert!(out.contains("95% interval unbounded,"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn float_defaults_in_help_are_shown_as_written() {
    let top = text(&run(&["--help"]).stdout);
    let tune = cfg!(feature = "tune").then(|| {
        (
            text(&run(&["tune", "--help"]).stdout),
            vec!["tune".to_string()],
        )
    });
    let mut pages = vec![vec!["--help".to_string()]];
    for (help, prefix) in std::iter::once((top, vec![])).chain(tune) {
        for sub in subcommands(&help) {
            let mut args = prefix.clone();
            args.extend([sub, "--help".to_string()]);
            pages.push(args);
        }
    }
    // The tuning jobs bring ten pages more.
    let least = if cfg!(feature = "tune") { 15 } else { 5 };
    assert!(pages.len() > least, "{pages:?}");
    for args in pages {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let help = text(&run(&args).stdout);
        for default in help.split("[default: ").skip(1) {
            let value = default.split([']', ' ', ',']).next().unwrap_or("");
            let decimals = value.split_once('.').map_or(0, |(_, d)| d.len());
            assert!(
                decimals <= 6,
                "{args:?} shows a default as {value}, not as written"
            );
        }
    }
}

/// A time means the same to the engine's options, the match's and the protocol's
/// `time left` (one parser, `connect6::seconds`): each refuses the same words.
#[test]
fn a_time_means_the_same_to_the_engine_the_match_and_the_protocol() {
    use connect6::protocol::command::Command;
    for word in ["0", "-1", "inf", "NaN", "x", "1000001", "0.25", "1000000"] {
        let taken = format!("time left {word}").parse::<Command>().is_ok();
        assert_eq!(taken, connect6::seconds::option(word).is_ok(), "{word}");
        let (code, _, err) = outcome(&["--move-time", word]);
        assert_eq!(code == 0, taken, "engine --move-time {word}: {err:?}");
        let refused = |err: &[String]| {
            err.iter()
                .any(|l| l.contains("invalid value") && l.contains("positive seconds"))
        };
        assert_eq!(refused(&err), !taken, "engine --move-time {word}: {err:?}");
        // Engines that do not exist: a time taken fails later, on starting them.
        let (code, _, err) = outcome(&["match", "--move-time", word, "no-such-a", "no-such-b"]);
        assert_eq!(code, 2, "match --move-time {word}: {err:?}");
        assert_eq!(refused(&err), !taken, "match --move-time {word}: {err:?}");
    }
}

/// `analyse --at-mistakes`: a table that is missing (1) or does not read (2) stops the run
/// before any search, naming the line; with `--deep` it is refused; a good row is revisited
/// and counted.
#[test]
fn analyse_at_mistakes_reads_its_table_first_and_revisits_each_row() {
    let folder = data("losses-6062084");
    // `analyse --at-mistakes TABLE` over the folder, after the options given first.
    let at_mistakes = |first: &[&str], table: &str| {
        let mut args = vec!["analyse"];
        args.extend_from_slice(first);
        args.extend_from_slice(&["--at-mistakes", table, "--side", "Connect6", &folder]);
        outcome(&args)
    };
    let (code, out, err) = at_mistakes(&[], "/no/such/table.tsv");
    assert_eq!(code, 1, "{err:?}");
    assert!(err[0].contains("/no/such/table.tsv"), "{err:?}");
    assert!(out.is_empty(), "{out}");

    let dir = scratch("at-mistakes");
    let table = dir.join("table.tsv");
    let kept = std::fs::read_to_string(data("deep-losses.tsv")).unwrap();
    let row = kept
        .lines()
        .find(|l| l.starts_with("losses-6062084/") && l.split('\t').nth(4) == Some("mistake"))
        .expect("a mistake row of losses-6062084");
    // The kept table's title and column lines, then the row with one field changed.
    let write_row = |field: usize, value: &str| {
        let mut fields: Vec<&str> = row.split('\t').collect();
        fields[field] = value;
        let header: Vec<&str> = kept.lines().take(2).collect();
        let text = format!("{}\n{}\n", header.join("\n"), fields.join("\t"));
        std::fs::write(&table, text).unwrap();
    };
    let table_arg = table.to_str().unwrap();
    write_row(5, "x");
    let (code, out, err) = at_mistakes(&[], table_arg);
    assert_eq!(code, 2, "{err:?}");
    assert!(err[0].ends_with("line 3: turn number 'x'"), "{err:?}");
    assert!(out.is_empty(), "{out}");
    let (code, _, err) = at_mistakes(&["--deep"], table_arg);
    assert_eq!(code, 2, "{err:?}");

    // The row as kept, with a small budget: one game revisited, its line and the count.
    write_row(3, "0.2");
    let (code, out, err) = at_mistakes(&["--time", "0.2"], table_arg);
    assert_eq!(code, 0, "{err:?}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    let fields: Vec<&str> = row.split('\t').collect();
    let start = format!(
        "{}: {} turn {}, played {}: now ",
        fields[0], fields[1], fields[5], fields[6]
    );
    assert!(lines[0].starts_with(&start), "{out}");
    assert!(
        lines[1].contains("survives in 0 of 1") || lines[1].contains("survives in 1 of 1"),
        "{out}"
    );
    assert!(
        lines[1].contains("17 lost games have no mistake row"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

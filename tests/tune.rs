//! `connect6 tune JOB`: the tuning jobs (formerly `examples/fit_eval.rs`) on the real binary.
//! The expected outputs were captured from the old example on the same inputs.

mod common;

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

fn tune(args: &[&str]) -> (i32, String, String) {
    common::run_subcommand("tune", args)
}

/// A fresh, empty scratch directory.
fn scratch(label: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("c6-tune-{}-{label}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn path(p: &std::path::Path) -> &str {
    p.to_str().expect("a UTF-8 temp path")
}

/// An error: exit code 2, nothing on stdout, and one line on stderr naming the job.
fn assert_one_line_error(args: &[&str], job: &str, needle: &str) {
    let (code, out, err) = tune(args);
    assert_eq!(code, 2, "{args:?}: {err}");
    assert_eq!(out, "", "{args:?}");
    assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
    assert!(
        err.starts_with(&format!("connect6 tune {job}: ")) && err.contains(needle),
        "{args:?}: {err}"
    );
}

/// A command-line error: clap's message (exit code 2), with one `error:` line.
fn assert_usage_error(args: &[&str], needle: &str) {
    let (code, out, err) = tune(args);
    assert_eq!(code, 2, "{args:?}: {err}");
    assert_eq!(out, "", "{args:?}");
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

#[test]
fn help_lists_the_jobs() {
    let (code, out, err) = tune(&["--help"]);
    assert_eq!(code, 0, "{err}");
    let listed = |job: &str| {
        out.lines()
            .any(|l| l.trim_start().starts_with(&format!("{job} ")))
    };
    for job in ["records", "fit-games", "selfplay", "openings", "replies"] {
        assert!(listed(job), "{job} is listed:\n{out}");
    }
    // One pipeline fits the hand weights: records (or self-play games) and fit-games.
    for retired in ["games", "fit"] {
        assert!(!listed(retired), "{retired} is retired:\n{out}");
    }
    // Each job's options and defaults are in its own help.
    let (code, out, _) = tune(&["selfplay", "--help"]);
    assert_eq!(code, 0);
    for option in [
        "--out <GAMES>",
        "--seed",
        "--nodes",
        "--spread",
        "--threads",
    ] {
        assert!(out.contains(option), "{option}:\n{out}");
    }
    assert!(out.contains("[default: 8]"), "{out}");
    let (code, out, _) = tune(&["fit-games", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("[default: 10]") && out.contains("[default: 0.0001]"));
    // The top-level help names the subcommand.
    let (code, out, _) = common::run_subcommand("--help", &[]);
    assert_eq!(code, 0);
    assert!(out.lines().any(|l| l.trim_start().starts_with("tune ")));
}

#[test]
fn bad_options_are_one_error_and_exit_2() {
    assert_usage_error(&["fit-games", "games.txt", "--bogus"], "--bogus");
    assert_usage_error(&["frobnicate"], "frobnicate");
    assert_usage_error(&["openings", "5", "--out", "o.txt", "--radius", "0"], "0");
    assert_usage_error(&["openings", "x", "--out", "o.txt"], "'x'");
    assert_usage_error(&["selfplay", "3"], "--out");
    assert_usage_error(&["replies", "2", "--out", "r.txt"], "--from");
    assert_usage_error(&["fit-games", "g.txt", "--k", "0"], "--k");
    assert_usage_error(&["fit-games", "g.txt", "--lambda", "nan"], "--lambda");
    assert_usage_error(&["fit", "d.txt"], "fit");
    assert_usage_error(&["games", "3", "--out", "d.txt"], "games");
    assert_usage_error(
        &["selfplay", "3", "--out", "o.txt", "--shard", "3/2"],
        "--shard",
    );
    assert_usage_error(
        &["label", "g.txt", "--out", "o.txt", "--shard", "0/2"],
        "--shard",
    );
    assert_usage_error(&["merge", "--out", "o.txt"], "SHARD");
    let (code, _, err) = tune(&[]);
    assert_eq!(code, 2, "a job is required: {err}");
}

#[test]
fn bad_files_are_one_error_and_exit_2() {
    let dir = scratch("errors");
    let missing = dir.join("no-such-file.txt");
    assert_one_line_error(
        &["fit-games", path(&missing)],
        "fit-games",
        "no-such-file.txt",
    );
    let out = dir.join("out.txt");
    assert_one_line_error(
        &["records", path(&missing), "--out", path(&out)],
        "records",
        "no-such-file.txt",
    );
    assert_one_line_error(
        &[
            "replies",
            "2",
            "--from",
            path(&missing),
            "--out",
            path(&out),
        ],
        "replies",
        "no-such-file.txt",
    );
    assert!(!out.exists(), "nothing written on an error");
    // A line that is no game (here one of the retired self-play data sets) is refused.
    let data = dir.join("data.txt");
    std::fs::write(&data, "# data\n0 1 JJ KIKK IIHH\n").unwrap();
    assert_one_line_error(&["fit-games", path(&data)], "fit-games", "line 2");
    // A games file that is no shard is not merged.
    let games = dir.join("games.txt");
    std::fs::write(&games, "# games\n1 JJ KIKK IIHH\n").unwrap();
    let merge = ["merge", path(&games), "--out", path(&out)];
    assert_one_line_error(&merge, "merge", "not a shard's games file");
    assert!(!out.exists(), "nothing written on an error");
    // An output that cannot be written.
    let records = common::data_dir("records");
    let unwritable = dir.join("no-such-dir").join("games.txt");
    assert_one_line_error(
        &["records", path(&records), "--out", path(&unwritable)],
        "records",
        "no-such-dir",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// What `fit_eval --records tests/data/records --out FILE` wrote.
const OLD_RECORDS_FILE: &str = "\
# 5 games from match records: result for black (1, 0, 0.5), then the turns
0 JJ HJHI IKHL GMHK KIKK LHHH HGKJ KHJI KLJL KNIJ GLLG ILJM LOGJ JHKG IHII JFIE HDMI KEIG GILD NHJE JGMH LFMG OIJD MELE NEHE NDOC
0 JJ IJKJ JKJI JLJH IIKK HHLK LLNN MMGI IKHK GKLH KHGJ IGJF KEFJ KGIE HDNJ HFGE KIFD GGJG HGJD GFGD GHGC IFFH FFEI KFLF
1 MH MGNI MJNJ LHKI JJOI LJMK JHLI JKJG OLKK NKII OKOJ OMOG NLPJ QJMM QLPL MLRL RNQM MISO PMPK PNPI SGNF QING LGOH LMMN MPKL KNLN ONJO NOKM JMIN HOMO HMGL KPFK JLLO KOJP IQKR HIGJ IHFI NPEL DMOQ FMGN DKIP GHFG EFIO IRIM HLIL FLLL FNIK GMEK DJDL DNDI EMCK GOBJ FHEG GIGG GFBL EIFF FEHG EDJI GDHC IBDG JEHE KFIE QONR PPQN PHQG
1 MH MILH OINJ MKLJ NHNL KIMG NINF NENK OJPK LGQL OKOL OMOG PJQJ RJQI NMQK MNSH RLSM
0 JJ JIIJ IKKK GLHK KHFM KILL IIHJ JLGK HHGI GGFH HLGM FNIG JHLH IHKG MHJG LIOH HGHF HEML EMDM CMHM LKEN OIJO NINK MKNJ PHKM INKL NLFK LQKP
";

#[test]
fn records_writes_the_same_games_file_as_the_old_example() {
    let dir = scratch("records");
    let out = dir.join("games.txt");
    let records = common::data_dir("records");
    let (code, stdout, err) = tune(&["records", path(&records), "--out", path(&out)]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err, "");
    assert_eq!(stdout, format!("5 games in {}\n", path(&out)));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), OLD_RECORDS_FILE);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn openings_writes_the_same_draw_as_the_old_example() {
    let dir = scratch("openings");
    let out = dir.join("openings.txt");
    let (code, stdout, err) = tune(&["openings", "5", "--seed", "3", "--out", path(&out)]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(stdout, format!("5 openings in {}\n", path(&out)));
    // Only the command line quoted in the header is new.
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "# Two-turn openings: black JJ, then a white pair within 2 cells of JJ; black to move.\n\
         # 5 of them, distinct up to the board's symmetries, drawn with seed 3\n\
         # (cargo run --release -- tune openings 5 --seed 3 --radius 2 --out FILE).\n\
         JJ ILJL\nJJ JHLI\nJJ IIIJ\nJJ HHKK\nJJ JHKL\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// What `fit_eval --fit-games GAMES --k 0.005122` printed on the first 300 games of
/// `tests/data/fit-games.txt`.
const OLD_FIT: &str = "\
3235 positions (3431 not quiet, skipped): 2886 to fit, 349 held out (every 10th game)
K = 0.005122 (given); lambda 0.0001; largest gradient left 2.5e-11
mean log loss      current  fitted   (all zero: 0.6931)
  fitted part      0.54461  0.52971
  held-out part    0.53321  0.50984
  Dead2: to move -19.0 -> -11.2, waiting 17.0 -> 22.2
  Live2: to move -2.0 -> -20.1, waiting 19.0 -> 2.8
  Dead3: to move -17.0 -> -22.6, waiting 11.0 -> 23.4
  Live3: to move -22.0 -> -108.2, waiting 2.0 -> 21.1
  window of 1: to move 4.0 -> 2.9, waiting 2.0 -> 3.0
  window of 2: to move 49.0 -> 52.2, waiting -4.0 -> -4.2
  window of 3: to move 124.0 -> 169.0, waiting 39.0 -> 19.6
pub const TO_MOVE_PATTERN: [i32; PATTERN_COUNT] = [0, -11, -20, -23, -108, 100, 520, 110, 520, 0];
pub const WAITING_PATTERN: [i32; PATTERN_COUNT] = [0, 22, 3, 23, 21, 40, 100, 45, 100, 0];
pub const TO_MOVE_WINDOW: [i32; WINDOW + 1] = [0, 3, 52, 169, 0, 0, 0];
pub const WAITING_WINDOW: [i32; WINDOW + 1] = [0, 3, -4, 20, 0, 0, 0];
";

/// The parts of a fit's report that do not depend on the engine's current tables (with the
/// scale given, the fit has one minimum whatever it starts from): the counts, the scale,
/// the fitted column of the losses, the fitted weights and their entries in the tables.
/// The current tables' column, the convergence residual and the entries the fit leaves
/// alone follow `tunables.rs`, which may be refitted.
fn table_free(report: &str) -> Vec<String> {
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(lines.len(), 16, "{report}");
    let mut parts = vec![
        lines[0].to_string(),
        lines[1].split("; largest").next().unwrap().to_string(),
        lines[2].to_string(),
    ];
    for line in &lines[3..5] {
        let words: Vec<&str> = line.split_whitespace().collect();
        parts.push(format!("{} {}", words[0], words[words.len() - 1]));
    }
    for line in &lines[5..12] {
        let label = line.split(':').next().unwrap();
        let fitted: Vec<&str> = line.split("-> ").skip(1).collect();
        parts.push(format!("{label} {fitted:?}"));
    }
    for (line, fitted) in lines[12..].iter().zip([1..5, 1..5, 1..4, 1..4]) {
        let (name, values) = line.split_once(" = [").unwrap();
        let values: Vec<&str> = values.trim_end_matches("];").split(", ").collect();
        parts.push(format!("{name} {:?}", &values[fitted]));
    }
    parts
}

#[test]
fn fit_games_fits_as_the_old_example_did() {
    let dir = scratch("fit-games");
    let games = dir.join("games.txt");
    let source = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/fit-games.txt");
    let text = std::fs::read_to_string(source).unwrap();
    let head: Vec<&str> = text.lines().take(301).collect();
    std::fs::write(&games, head.join("\n") + "\n").unwrap();
    let (code, out, err) = tune(&["fit-games", path(&games), "--k", "0.005122"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err, "");
    assert_eq!(table_free(&out), table_free(OLD_FIT), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `tune label` killed in the middle (SIGKILL: nothing is flushed on the way out) and run
/// again with the same command writes the file an uninterrupted run writes, byte for byte;
/// its shards, merged by `tune merge`, write it too.
#[test]
fn label_resumes_after_a_kill_and_its_shards_merge_to_the_whole_run() {
    let dir = scratch("resume");
    // Twelve match games, each searched only in its last ten positions (the opening marker
    // before them), so that a game takes a fraction of a second.
    let text = std::fs::read_to_string(common::data_dir(".").join("fit-games.txt")).unwrap();
    let games: Vec<String> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(12)
        .map(|l| {
            let mut words: Vec<&str> = l.split_whitespace().collect();
            words.insert(words.len() - 10, "/");
            words.join(" ")
        })
        .collect();
    let input = dir.join("games.txt");
    std::fs::write(&input, games.join("\n") + "\n").unwrap();
    let args = |out: &std::path::Path, extra: &[&str]| -> Vec<String> {
        let fixed = ["label", path(&input), "--nodes", "50", "--threads", "2"];
        let mut a: Vec<String> = fixed.iter().map(|s| s.to_string()).collect();
        a.extend(
            ["--out", path(out)]
                .iter()
                .chain(extra)
                .map(|s| s.to_string()),
        );
        a
    };
    let run = |a: Vec<String>| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let (code, out, err) = tune(&a);
        assert_eq!(code, 0, "{a:?}: {err}");
        (out, err)
    };
    let whole = dir.join("whole.txt");
    let (_, err) = run(args(&whole, &[]));
    assert!(
        err.lines()
            .any(|l| l.starts_with("label: 12 of 12 games (100.0%), ") && l.ends_with("done")),
        "progress with its rate: {err}"
    );
    let expected = std::fs::read_to_string(&whole).unwrap();
    assert!(!dir.join("whole.txt.journal").exists());

    let killed = dir.join("killed.txt");
    let journal = dir.join("killed.txt.journal");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_connect6"))
        .arg("tune")
        .args(args(&killed, &[]))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the binary starts");
    // The journal's header is two lines; kill once two games are in it.
    let games_in =
        || std::fs::read_to_string(&journal).map_or(0, |t| t.lines().count().saturating_sub(2));
    while games_in() < 2 && child.try_wait().unwrap().is_none() {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = games_in();
    assert!(
        (2..12).contains(&before),
        "killed after {before} of 12 games"
    );
    let (out, err) = run(args(&killed, &["--threads", "1"]));
    assert!(err.contains(&format!("{before} resumed")), "{err}");
    assert!(out.starts_with("12 games labelled in "), "{out}");
    assert_eq!(std::fs::read_to_string(&killed).unwrap(), expected);
    assert!(!journal.exists());

    let parts: Vec<_> = (1..=3).map(|k| dir.join(format!("part{k}.txt"))).collect();
    for (k, part) in parts.iter().enumerate() {
        run(args(part, &["--shard", &format!("{}/3", k + 1)]));
    }
    let merged = dir.join("merged.txt");
    let mut merge = vec!["merge", "--out", path(&merged)];
    merge.extend(parts.iter().map(|p| path(p)));
    let (code, out, err) = tune(&merge);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        format!(
            "3 shards merged: 12 games (0 repeats left out) in {}\n",
            path(&merged)
        )
    );
    assert_eq!(std::fs::read_to_string(&merged).unwrap(), expected);
    std::fs::remove_dir_all(&dir).unwrap();
}

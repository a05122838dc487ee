//! The documents' most-used facts, held to the binary: the README names every subcommand and
//! every `--eval` value `--help` lists, its options table offers only options the binary
//! accepts (and every one `--help` lists), it stays a front page (at most 200 lines), and
//! protocol.md's lists and conversations are what the engine does.

use std::path::Path;

mod common;
use common::{run_with_input as run, subcommands};

fn read(file: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).expect(file)
}

fn help() -> String {
    String::from_utf8(run(&["--help"], b"").stdout).expect("UTF-8 help")
}

/// The long options `--help` lists, `--help` and `--version` included.
fn help_options(help: &str) -> Vec<String> {
    help.lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with('-'))
        .filter_map(|l| l.split_whitespace().find(|w| w.starts_with("--")))
        .map(|w| w.trim_end_matches(',').to_string())
        .collect()
}

/// The values `--help` lists under `option`'s "Possible values".
fn possible_values(help: &str, option: &str) -> Vec<String> {
    let mut lines = help
        .lines()
        .skip_while(|l| !l.trim_start().starts_with(&format!("{option} ")));
    lines.next();
    lines
        .skip_while(|l| !l.contains("Possible values:"))
        .skip(1)
        .map_while(|l| l.trim_start().strip_prefix("- "))
        .filter_map(|l| l.split(':').next())
        .map(str::to_string)
        .collect()
}

/// The options of the README's options table: each row's first cell, split into its code
/// spans (`--depth N`, `-h`, `help`, ...).
fn readme_options(readme: &str) -> Vec<String> {
    let table = readme
        .split("## Options")
        .nth(1)
        .expect("an Options section")
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2);
    let mut options = Vec::new();
    for row in table {
        let first = row.split('|').nth(1).unwrap_or("");
        options.extend(first.split('`').skip(1).step_by(2).map(str::to_string));
    }
    options
}

/// A value the binary must accept for an option of the README's table, by its metavariable.
fn valid_value(option: &str, meta: &str, help: &str) -> String {
    let data = |f: &str| format!("{}/src/engine/{f}", env!("CARGO_MANIFEST_DIR"));
    match (option, meta) {
        ("--eval-file", _) => data("cells.bin"),
        ("--ranking-file", _) => data("ranking.bin"),
        (_, "KIND") => possible_values(help, option)
            .last()
            .cloned()
            .unwrap_or_else(|| panic!("{option}: no possible values in --help")),
        (_, "NAME") => "Doc1".into(),
        (_, "MB") => "8".into(),
        (_, "SECS" | "N") => "1".into(),
        _ => panic!("README option `{option} {meta}`: no valid value known for {meta}"),
    }
}

#[test]
fn the_readme_names_every_subcommand_and_evaluation() {
    let readme = read("README.md");
    let help = help();
    let subs = subcommands(&help);
    assert!(subs.len() >= 5, "{subs:?}");
    for sub in subs {
        assert!(
            readme.contains(&format!("`connect6 {sub}")),
            "README.md never names `connect6 {sub}`"
        );
    }
    let evals = possible_values(&help, "--eval");
    assert!(evals.len() >= 2, "{evals:?}");
    for value in evals {
        assert!(
            readme.contains(&format!("`{value}`")),
            "README.md never names --eval's value `{value}`"
        );
    }
}

/// `--help` lists the engine's subcommands and those of the features built in (`gui`, `tune`,
/// on by default); a build without a feature refuses its subcommand with clap's own error.
#[test]
fn help_lists_the_subcommands_of_the_features_built_in() {
    let mut expected = vec!["match", "bench", "stats", "show", "analyse"];
    for (feature, on) in [
        ("tune", cfg!(feature = "tune")),
        ("gui", cfg!(feature = "gui")),
    ] {
        if on {
            expected.push(feature);
        } else {
            let out = run(&[feature, "--help"], b"");
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{feature}: {err}");
            assert!(err.contains("unrecognized subcommand"), "{feature}: {err}");
            assert!(out.stdout.is_empty(), "{feature} printed on stdout");
        }
    }
    assert_eq!(subcommands(&help()), expected);
}

#[test]
fn every_option_of_the_readme_is_accepted_and_every_one_is_there() {
    let readme = read("README.md");
    let help = help();
    let options = readme_options(&readme);
    assert!(options.len() >= 15, "{options:?}");
    for option in &options {
        let words: Vec<&str> = option.split_whitespace().collect();
        let args: Vec<String> = match words.as_slice() {
            ["-h" | "--help" | "help" | "-V" | "--version"] => vec![words[0].to_string()],
            [flag] => vec![flag.to_string()],
            [flag, meta] => vec![flag.to_string(), valid_value(flag, meta, &help)],
            _ => panic!("README option `{option}` is not `--option VALUE`"),
        };
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(&args, b"name?\nquit\n");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(0),
            "README option `{option}` ({args:?}) is refused: {stderr}"
        );
        assert!(!out.stdout.is_empty(), "{args:?} answered nothing");
    }
    // A `KIND` row offers only values the binary has: each one-word code span in it.
    for row in readme
        .lines()
        .filter(|l| l.starts_with("| `--") && l.contains(" KIND`"))
    {
        let option = row.split('`').nth(1).and_then(|o| o.split(' ').next());
        let option = option.expect("the row's option");
        let values = possible_values(&help, option);
        for word in row.split('`').skip(3).step_by(2) {
            if !word.is_empty() && word.chars().all(|c| c.is_ascii_lowercase()) {
                assert!(
                    values.iter().any(|v| v == word),
                    "README offers `{option} {word}`, the binary has {values:?}"
                );
            }
        }
    }
    for option in help_options(&help) {
        assert!(
            options
                .iter()
                .any(|o| o.split_whitespace().next() == Some(&option)),
            "`connect6 --help` lists {option}, the README's options table does not"
        );
    }
}

#[test]
fn the_readme_stays_a_front_page() {
    let lines = read("README.md").lines().count();
    assert!(lines <= 200, "README.md has {lines} lines (at most 200)");
}

#[test]
fn protocol_md_lists_every_option_and_subcommand() {
    let protocol = read("protocol.md");
    let help = help();
    let section = protocol
        .split("## Command-line options")
        .nth(1)
        .and_then(|s| s.split("### Thinking time").next())
        .expect("a Command-line options section");
    for option in help_options(&help) {
        assert!(
            section.contains(&format!("`{option}`")),
            "protocol.md's option list leaves out {option}"
        );
    }
    for sub in subcommands(&help) {
        assert!(
            section.contains(&format!("`{sub}`")),
            "protocol.md's subcommand list leaves out {sub}"
        );
    }
}

/// One conversation of protocol.md: what is sent, the replies, and the error texts, up to
/// its first `...` line (after it the moves are the reader's to imagine).
struct Conversation {
    title: String,
    input: Vec<u8>,
    replies: Vec<String>,
    errors: Vec<String>,
}

/// A directive's text without its trailing `(comment)`.
fn without_comment(text: &str) -> &str {
    match text.find("  (") {
        Some(i) => text[..i].trim_end(),
        None => text.trim_end(),
    }
}

fn conversations(protocol: &str) -> Vec<Conversation> {
    let section = protocol
        .split("## Conversations")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("a Conversations section");
    let mut found = Vec::new();
    for part in section.split("\n### ").skip(1) {
        let title = part.lines().next().unwrap_or("").to_string();
        let Some(block) = part.split("```").nth(1) else {
            continue;
        };
        let mut c = Conversation {
            title,
            input: Vec::new(),
            replies: Vec::new(),
            errors: Vec::new(),
        };
        for line in block.lines() {
            if line.trim_start().starts_with("...") {
                break;
            }
            if let Some(sent) = line.strip_prefix("> ") {
                let sent = without_comment(sent)
                    .replace("\\r", "\r")
                    .replace("\\n", "\n");
                c.input.extend(sent.as_bytes());
                if !sent.ends_with('\n') {
                    c.input.push(b'\n');
                }
            } else if let Some(reply) = line.strip_prefix("< ") {
                c.replies.push(without_comment(reply).to_string());
            } else if let Some(error) = line.strip_prefix("! ")
                && !error.starts_with('(')
            {
                let error = error.rsplit("] ").next().unwrap_or(error);
                c.errors.push(error.to_string());
            }
        }
        found.push(c);
    }
    found
}

#[test]
fn protocol_md_conversations_are_what_the_engine_says() {
    let protocol = read("protocol.md");
    let all = conversations(&protocol);
    assert!(all.len() >= 6, "{}", all.len());
    for c in all {
        let out = run(&["--threads", "1", "--depth", "4"], &c.input);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let got: Vec<&str> = stdout.lines().collect();
        assert!(
            got.len() >= c.replies.len(),
            "{}: replies {got:?}, protocol.md shows {:?}",
            c.title,
            c.replies
        );
        for (want, got) in c.replies.iter().zip(&got) {
            let same = match want.strip_suffix("...") {
                Some(prefix) => got.starts_with(prefix),
                None => want == got,
            };
            assert!(
                same,
                "{}: the engine says `{got}`, protocol.md `{want}`",
                c.title
            );
        }
        for error in &c.errors {
            let prefix = error.split("...").next().unwrap_or(error);
            assert!(
                stderr.lines().any(|l| l.contains(prefix)),
                "{}: no stderr line has `{error}`: {stderr}",
                c.title
            );
        }
    }
}

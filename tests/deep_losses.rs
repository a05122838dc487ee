//! `connect6 analyse --deep` and its table of the lost games, `tests/data/deep-losses.tsv`:
//! one row per game in `tests/data/losses*`, each consistent with its record; the cheapest
//! proven rows found again by the tool; and constructed games whose answer is known.

mod common;

use connect6::record::game::Game;
use connect6::record::{Record, RecordMove, RecordResult};
use connect6::rules::board::Color;
use connect6::rules::coord::Turn;
use connect6::tools::analyse::lost_by;
use connect6::tools::deep::opening_turns;
use connect6::tools::deep_table::{COLUMNS, HEADER, game_key};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const FOLDERS: [&str; 3] = ["losses", "losses-6062084", "losses-69f7f1b"];

fn table_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/deep-losses.tsv")
}

/// A row's fields by name (`COLUMNS`).
struct Row {
    fields: Vec<String>,
}

impl Row {
    fn get(&self, column: &str) -> &str {
        let i = COLUMNS
            .split('\t')
            .position(|c| c == column)
            .expect("a column of the table");
        &self.fields[i]
    }

    /// The positions field, each split at its colons.
    fn positions(&self) -> Vec<Vec<&str>> {
        self.get("positions")
            .split(' ')
            .map(|p| p.split(':').collect())
            .collect()
    }
}

/// A table's rows.
fn read_table(path: &Path) -> Vec<Row> {
    let text = std::fs::read_to_string(path).expect("the table is readable");
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(HEADER));
    assert_eq!(lines.next(), Some(COLUMNS));
    lines
        .map(|l| {
            let fields: Vec<String> = l.split('\t').map(str::to_string).collect();
            assert_eq!(fields.len(), COLUMNS.split('\t').count(), "{l}");
            Row { fields }
        })
        .collect()
}

fn data_path(key: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(key)
}

/// The loser's turn numbers after the opening, in order.
fn loser_turns(game: &Game, color: Color) -> Vec<usize> {
    (opening_turns(game)..game.turns.len())
        .filter(|&i| game.turns[i].color == color)
        .map(|i| i + 1)
        .collect()
}

/// What the position before `turn` says of the turn played there (`played_lost`).
fn shown_by(kind: &[&str]) -> String {
    match kind[1] {
        "lost-proof" => "proof".into(),
        "lost-search" => format!("search-{}", kind[2]),
        other => panic!("a position the walk went past is lost, not {other}"),
    }
}

/// One row checked against its record (see the module notes).
fn check_row(row: &Row) {
    let key = row.get("file");
    let game = Game::read_record(&data_path(key)).expect(key);
    let color = lost_by(&game, "Connect6").expect("a game Connect6 lost");
    assert_eq!(row.get("loser"), color.to_string(), "{key}");
    assert_eq!(
        row.get("opening"),
        opening_turns(&game).to_string(),
        "{key}"
    );
    let budget: f64 = row.get("budget").parse().expect("seconds");
    assert!(budget > 0.0, "{key}");
    let turns = loser_turns(&game, color);
    let positions = row.positions();
    // The walk: the loser's turns from the last back, each a lost position but the last.
    for (p, &expected) in positions.iter().zip(turns.iter().rev()) {
        assert_eq!(p[0], expected.to_string(), "{key}: {positions:?}");
        assert!(p.last().is_some_and(|s| s.ends_with('s')), "{key}: {p:?}");
    }
    let (last, walked) = positions.split_last().expect("a position judged");
    for p in walked {
        assert!(p[1].starts_with("lost-"), "{key}: {p:?}");
    }
    let turn: usize = row.get("turn").parse().expect("a turn number");
    assert_eq!(last[0], turn.to_string(), "{key}");
    let played = &game.turns[turn - 1];
    assert_eq!(played.color, color, "{key}: turn {turn} is the loser's");
    // What shows the turn played lost: the next position walked, or the opponent's six.
    let shown = match walked.last() {
        Some(next) => shown_by(next),
        None if game.board_after(turn + 1).is_over() => "six".into(),
        None => "solver".into(),
    };
    let verdict = row.get("verdict");
    match verdict {
        "opening" => {
            assert_eq!(turn, turns[0], "{key}: the loser's first turn");
            assert_eq!(positions.len(), turns.len(), "{key}");
            assert_eq!(row.get("played_lost"), shown_by(last), "{key}");
            assert_eq!(row.get("played"), "-");
        }
        "mistake" | "undetermined" => {
            assert_eq!(row.get("played"), played.turn.to_string(), "{key}");
            assert_eq!(row.get("played_lost"), shown, "{key}");
        }
        other => panic!("{key}: verdict {other}"),
    }
    if verdict == "mistake" {
        let by = row.get("holds_by");
        assert_eq!(last[1], format!("holds-{by}"), "{key}");
        let holds = Turn::parse(row.get("holds")).expect("a turn");
        assert_eq!(last[2], holds.to_string(), "{key}");
        assert_ne!(holds.to_string(), played.turn.to_string(), "{key}");
        let before = game.board_after(turn - 1);
        assert!(holds.cells().all(|c| before.is_empty(c)), "{key}: {holds}");
    } else {
        assert_eq!(row.get("holds"), "-", "{key}");
        assert_eq!(row.get("holds_by"), "-", "{key}");
    }
    if verdict == "undetermined" {
        assert_eq!(last[1], "open", "{key}");
    }
}

#[test]
fn every_lost_game_has_one_row_consistent_with_its_record() {
    let rows = read_table(&table_path());
    for row in &rows {
        check_row(row);
    }
    let mut games = BTreeSet::new();
    for folder in FOLDERS {
        for entry in std::fs::read_dir(common::data_dir(folder)).expect("a folder") {
            let path = entry.expect("an entry").path();
            if path.extension().is_some_and(|e| e == "txt") {
                games.insert(game_key(&path));
            }
        }
    }
    let keys: Vec<String> = rows.iter().map(|r| r.get("file").to_string()).collect();
    let unique: BTreeSet<String> = keys.iter().cloned().collect();
    assert_eq!(unique.len(), keys.len(), "a game with two rows");
    let missing: Vec<&String> = games.difference(&unique).collect();
    let extra: Vec<&String> = unique.difference(&games).collect();
    assert!(missing.is_empty(), "games with no row: {missing:?}");
    assert!(extra.is_empty(), "rows of no lost game: {extra:?}");
    assert_eq!(rows.len(), 81);
}

/// The row's fields, the positions without the seconds each took.
fn untimed(row: &Row) -> Vec<String> {
    let mut fields = row.fields.clone();
    let positions: Vec<&str> = row
        .get("positions")
        .split(' ')
        .map(|p| p.rsplit_once(':').map_or(p, |(head, _)| head))
        .collect();
    *fields.last_mut().expect("a positions field") = positions.join(" ");
    fields
}

fn scratch(label: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("c6-deep-{}-{label}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

fn deep(budget: &str, table: &Path, records: &[&Path]) -> (i32, String, String) {
    let mut args = vec!["--deep", "--budget", budget, "--side", "Connect6"];
    let table = table.to_str().expect("a UTF-8 path");
    args.extend(["--table", table]);
    args.extend(records.iter().map(|p| p.to_str().expect("a UTF-8 path")));
    common::run_subcommand("analyse", &args)
}

/// Rows resting on solver proofs alone (node limits, not the clock) come out the same
/// again: the two cheapest are redone.
#[test]
fn the_cheapest_proven_rows_are_found_again() {
    let rows = read_table(&table_path());
    let seconds = |r: &Row| -> f64 {
        r.positions()
            .iter()
            .map(|p| {
                p.last()
                    .and_then(|s| s.trim_end_matches('s').parse::<f64>().ok())
            })
            .map(|s| s.expect("seconds"))
            .sum()
    };
    let mut proven: Vec<&Row> = rows
        .iter()
        .filter(|r| r.get("verdict") == "opening")
        .filter(|r| r.positions().iter().all(|p| p[1] == "lost-proof"))
        .collect();
    assert!(
        proven.len() >= 2,
        "{} rows proven lost at the opening",
        proven.len()
    );
    proven.sort_by(|a, b| seconds(a).total_cmp(&seconds(b)));
    let dir = scratch("again");
    for row in &proven[..2] {
        let key = row.get("file");
        let table = dir.join("table.tsv");
        let _ = std::fs::remove_file(&table);
        let (code, out, err) = deep(row.get("budget"), &table, &[&data_path(key)]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("=> already lost at the opening"), "{out}");
        let again = read_table(&table);
        assert_eq!(again.len(), 1);
        assert_eq!(untimed(&again[0]), untimed(row));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A record of `turns` (protocol spelling) that black won, its event naming `opening`.
fn record(turns: &str, opening: &str) -> String {
    let game = Game::from_stone_list(turns).expect("a legal game");
    let moves = game
        .turns
        .iter()
        .flat_map(|p| {
            p.turn.cells().map(|cell| RecordMove {
                color: p.color,
                cell,
                mark: None,
            })
        })
        .collect();
    let rec = Record {
        black: "Reference".into(),
        white: "Connect6".into(),
        result: RecordResult::BlackWins,
        datetime: "2026.12.05 00:00".into(),
        place: "local".into(),
        event: format!("opening {opening}"),
        info: None,
        moves,
    };
    rec.to_string()
}

#[test]
fn constructed_games_with_known_answers() {
    let dir = scratch("known");
    let games = dir.join("games");
    std::fs::create_dir_all(&games).expect("a folder");
    // White ignores black's four JJ..JM at turn 6 and black makes six; blocking JN held.
    let blunder = record("JJ IKKK JKJL JHLL JMSS IAKA JNJO", "JJ IKKK");
    std::fs::write(games.join("blunder.txt"), blunder).expect("written");
    // The opening leaves black two fours with white to move.
    let handed = record(
        "JJ AASA JKJL ASSS JMDD CAQA EDFD AQSQ GDPP CDHD JNJO",
        "JJ AASA JKJL ASSS JMDD CAQA EDFD AQSQ GDPP",
    );
    std::fs::write(games.join("handed.txt"), handed).expect("written");
    let table = dir.join("table.tsv");
    let (code, out, err) = deep("0.3", &table, &[&games]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("=> lost at turn 6: played IAKA, "), "{out}");
    assert!(
        out.contains("=> already lost at the opening: the position before turn 10"),
        "{out}"
    );
    let rows = read_table(&table);
    let [blunder, handed] = &rows[..] else {
        panic!("two rows: {}", rows.len());
    };
    assert_eq!(blunder.get("file"), "games/blunder.txt");
    assert_eq!(blunder.get("budget"), "0.3");
    assert_eq!(
        (
            blunder.get("verdict"),
            blunder.get("turn"),
            blunder.get("played")
        ),
        ("mistake", "6", "IAKA")
    );
    assert!(
        blunder.get("holds").contains("JN"),
        "{}",
        blunder.get("holds")
    );
    assert_eq!(blunder.get("played_lost"), "six");
    assert_eq!(
        (
            handed.get("verdict"),
            handed.get("turn"),
            handed.get("opening")
        ),
        ("opening", "10", "9")
    );
    assert_eq!(
        handed.get("positions").split(':').nth(1),
        Some("lost-proof")
    );
    // A second run finds both rows in the table and leaves it as it was.
    let before = std::fs::read_to_string(&table).expect("the table");
    let (code, out, _) = deep("0.3", &table, &[&games]);
    assert_eq!(code, 0);
    assert!(
        out.contains("summary: 0 lost games walked with 0.3 s a position (2 already in the table)"),
        "{out}"
    );
    assert_eq!(std::fs::read_to_string(&table).expect("the table"), before);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_deep_arguments() {
    let dir = common::data_dir("losses");
    let dir = dir.to_str().expect("a UTF-8 path");
    let (code, _, err) = common::run_subcommand(
        "analyse",
        &["--deep", "--budget", "0", "--side", "Connect6", dir],
    );
    assert_eq!(code, 2);
    assert!(err.contains("--budget 0"), "{err}");
    let (code, _, err) =
        common::run_subcommand("analyse", &["--budget", "1", "--side", "Connect6", dir]);
    assert_eq!(code, 2, "--budget without --deep: {err}");
}

/// docs/tools.md's summary table counts what the table holds, folder by folder.
#[test]
fn the_summary_in_the_docs_is_the_tables() {
    let rows = read_table(&table_path());
    let docs = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/tools.md"))
        .expect("docs/tools.md");
    let lines: Vec<&str> = docs
        .lines()
        .filter(|l| l.starts_with("| losses") || l.starts_with("| all "))
        .collect();
    assert_eq!(lines.len(), FOLDERS.len() + 1, "{lines:?}");
    for line in lines {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let folder = cells[1];
        let mine: Vec<&Row> = rows
            .iter()
            .filter(|r| folder == "all" || r.get("file").split('/').next() == Some(folder))
            .collect();
        let count = |verdict: &str, lost: Option<bool>| {
            mine.iter()
                .filter(|r| r.get("verdict") == verdict)
                .filter(|r| lost.is_none_or(|proof| (r.get("played_lost") == "proof") == proof))
                .count()
        };
        let opening = format!(
            "{} ({} / {})",
            count("opening", None),
            count("opening", Some(true)),
            count("opening", Some(false))
        );
        let expected = [
            mine.len().to_string(),
            opening,
            count("mistake", None).to_string(),
            count("undetermined", None).to_string(),
        ];
        assert_eq!(cells[2..6], expected, "{line}");
    }
}

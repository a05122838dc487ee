//! `connect6 analyse --at-mistakes TABLE [--time S] --side NAME RECORD...`: the engine back at
//! the turns where `analyse --deep` says NAME threw each game away.
//!
//! The deep walk's table names, for each game lost by a mistake, the turn, the turn played
//! (shown lost) and a turn that held. Here the engine is put in the position before that
//! turn and plays as it would in a game with S seconds a move. Its choice *survives* when it
//! is the turn that held, or another turn that holds by the deep walk's own standard and
//! budget (the row's): the solver finds no forced win for the opponent after it, and a long
//! search after it (with the embedded models, whatever `--eval-file` or `--ranking-file` the
//! engine plays with) does not see one either. The turn played is lost by the table, so
//! choosing it again never survives. This is the measure of whether the engine now
//! gets those turns right, read at the turn the deep walk names rather than at the first
//! turn a quick pass shows lost.

use crate::engine::models::Models;
use crate::engine::search::time::TimeControl;
use crate::engine::search::{Limits, Searcher};
use crate::record::game::Game;
use crate::rules::board::Color;
use crate::rules::coord::Turn;
use crate::tools::analyse::{AnalyseArgs, lost_by, prepare};
use crate::tools::deep::{Budget, Judge, TurnCheck, same_turn};
use crate::tools::deep_table::{COLUMNS, game_key};
use std::collections::HashMap;
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// A `mistake` row of a deep table: where the game was thrown away.
#[derive(Clone, Debug, PartialEq)]
pub struct Mistake {
    pub loser: Color,
    /// Seconds a position was given by the deep walk: the standard the choice is held to.
    pub budget: f64,
    /// Turn number (turn 1 is black's first stone).
    pub turn: usize,
    pub played: Turn,
    pub holds: Turn,
}

/// Why a deep table could not be read.
#[derive(Debug, PartialEq, Eq)]
pub struct TableError {
    pub line: usize,
    pub why: String,
}

/// The `mistake` rows of a deep table's text, by game key. Other verdicts are skipped; a row
/// that does not read is an error naming its line.
pub fn mistakes(text: &str) -> Result<HashMap<String, Mistake>, TableError> {
    let mut rows = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line == COLUMNS || line.trim().is_empty() {
            continue;
        }
        let fail = |why: String| TableError { line: i + 1, why };
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != COLUMNS.split('\t').count() {
            return Err(fail(format!(
                "{} fields, expected {}",
                f.len(),
                COLUMNS.split('\t').count()
            )));
        }
        if f[4] != "mistake" {
            continue;
        }
        let turn = |s: &str| Turn::parse(s).map_err(|e| fail(format!("turn '{s}': {e}")));
        let mistake = Mistake {
            loser: f[1].parse().map_err(|e| fail(format!("{e}")))?,
            budget: f[3]
                .parse()
                .ok()
                .filter(|b: &f64| b.is_finite() && *b > 0.0)
                .ok_or_else(|| fail(format!("budget '{}' is no number of seconds", f[3])))?,
            turn: f[5]
                .parse()
                .ok()
                .filter(|&t| t > 0)
                .ok_or_else(|| fail(format!("turn number '{}'", f[5])))?,
            played: turn(f[6])?,
            holds: turn(f[7])?,
        };
        if rows.insert(f[0].to_string(), mistake).is_some() {
            return Err(fail(format!("a second row for {}", f[0])));
        }
    }
    Ok(rows)
}

/// What the engine plays now at a mistake's turn, and how that choice is judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The turn played in the game again: lost.
    Played,
    /// The table's holding turn.
    TableHold,
    /// Another turn, judged at the row's budget.
    Other(TurnCheck),
}

impl Outcome {
    pub fn survives(&self) -> bool {
        match self {
            Outcome::Played => false,
            Outcome::TableHold => true,
            Outcome::Other(check) => check.holds(),
        }
    }
}

/// One game revisited.
#[derive(Clone, Debug)]
pub struct Revisit {
    pub mistake: Mistake,
    pub choice: Turn,
    pub score: i32,
    pub depth: u8,
    pub outcome: Outcome,
}

/// The engine's choice in the position before the mistake, with `time` a move as in a game
/// (a per-move cap, a fresh table), judged against the row.
pub fn revisit(
    models: &Models,
    game: &Game,
    mistake: &Mistake,
    time: Duration,
    hash_mb: usize,
) -> Result<Revisit, String> {
    let index = mistake.turn - 1;
    let Some(p) = game.turns.get(index) else {
        return Err(format!("the game has no turn {}", mistake.turn));
    };
    if p.color != mistake.loser || !same_turn(&p.turn, &mistake.played) {
        return Err(format!(
            "turn {} is {} {}, the table says {} {}",
            mistake.turn, p.color, p.turn, mistake.loser, mistake.played
        ));
    }
    let board = game.board_after(index);
    let mut searcher = Searcher::with_models(hash_mb, models.clone());
    let budget = TimeControl::per_move(time).budget(0);
    let report = searcher.search(&board, Limits::timed(budget.soft, budget.hard));
    let outcome = if same_turn(&report.best, &mistake.played) {
        Outcome::Played
    } else if same_turn(&report.best, &mistake.holds) {
        Outcome::TableHold
    } else {
        // The standard stays the table's, whatever models play: the embedded ones judge.
        let mut judge = Judge::new(Models::embedded(), Budget::seconds(mistake.budget), hash_mb);
        Outcome::Other(judge.check(&board, &report.best))
    };
    Ok(Revisit {
        mistake: mistake.clone(),
        choice: report.best,
        score: report.score,
        depth: report.depth,
        outcome,
    })
}

/// The line printed for one game.
pub fn report(key: &str, r: &Revisit) -> String {
    let m = &r.mistake;
    let judged = match r.outcome {
        Outcome::Played => format!("the turn played again: lost ({} held)", m.holds),
        Outcome::TableHold => "the turn the table says held: survives".into(),
        Outcome::Other(c) => format!(
            "another turn; at the table's {} s: {}: {}",
            m.budget,
            c.text(),
            if c.holds() { "survives" } else { "does not" }
        ),
    };
    format!(
        "{key}: {} turn {}, played {}: now {} (score {}, depth {}), {judged}",
        m.loser, m.turn, m.played, r.choice, r.score, r.depth
    )
}

/// `analyse --at-mistakes`: every game of `--side` that the table calls a mistake, revisited.
pub fn run(args: AnalyseArgs, table: &Path) -> ExitCode {
    let (models, games) = match prepare(&args) {
        Ok(p) => (p.models, p.games),
        Err(code) => return code,
    };
    let rows = match std::fs::read_to_string(table) {
        Ok(text) => match mistakes(&text) {
            Ok(rows) => rows,
            Err(e) => {
                eprintln!(
                    "connect6 analyse: {} line {}: {}",
                    table.display(),
                    e.line,
                    e.why
                );
                return ExitCode::from(2);
            }
        },
        Err(e) => {
            eprintln!("connect6 analyse: {}: {e}", table.display());
            return ExitCode::from(1);
        }
    };
    let time = Duration::from_secs_f64(args.time);
    let began = Instant::now();
    let (mut revisited, mut survived, mut again, mut not_in_table) = (0, 0, 0, 0);
    for (file, game) in &games {
        let Some(color) = lost_by(game, &args.side) else {
            continue;
        };
        let key = game_key(file);
        let Some(mistake) = rows.get(&key).filter(|m| m.loser == color) else {
            not_in_table += 1;
            continue;
        };
        match revisit(&models, game, mistake, time, args.hash.max(1)) {
            Ok(r) => {
                revisited += 1;
                survived += r.outcome.survives() as usize;
                again += (r.outcome == Outcome::Played) as usize;
                println!("{}", report(&key, &r));
            }
            Err(e) => {
                eprintln!("connect6 analyse: {key}: {e}");
                return ExitCode::from(2);
            }
        }
    }
    println!(
        "summary: {} at the turns {} calls mistakes, with {} s a move: survives in {survived} of {revisited}, the turn played again in {again}; {not_in_table} lost games have no mistake row ({:.0} s)",
        args.side,
        table.display(),
        args.time,
        began.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(fields: &[&str]) -> String {
        fields.join("\t")
    }

    #[test]
    fn mistake_rows_are_read_and_other_verdicts_skipped() {
        let text = [
            "# a title".to_string(),
            COLUMNS.to_string(),
            row(&[
                "losses/a.txt",
                "white",
                "2",
                "3",
                "mistake",
                "4",
                "LHHL",
                "JHLH",
                "proof",
                "search",
                "6:lost-proof:1.5s",
            ]),
            row(&[
                "losses/b.txt",
                "black",
                "2",
                "3",
                "opening",
                "5",
                "-",
                "-",
                "proof",
                "-",
                "5:lost-proof:0.1s",
            ]),
        ]
        .join("\n");
        let rows = mistakes(&text).unwrap();
        assert_eq!(rows.len(), 1);
        let m = &rows["losses/a.txt"];
        assert_eq!((m.loser, m.budget, m.turn), (Color::White, 3.0, 4));
        assert_eq!(
            (m.played.to_string(), m.holds.to_string()),
            ("LHHL".into(), "JHLH".into())
        );
    }

    #[test]
    fn a_bad_row_names_its_line() {
        let good = [
            "x.txt", "white", "2", "3", "mistake", "4", "LHHL", "JHLH", "proof", "search", "-",
        ];
        for (i, bad) in [(5, "0"), (6, "ZZZZ"), (3, "-1"), (1, "green")] {
            let mut fields = good;
            fields[i] = bad;
            let text = format!("{COLUMNS}\n{}", row(&fields));
            let e = mistakes(&text).unwrap_err();
            assert_eq!(e.line, 2, "{bad}: {}", e.why);
        }
        assert_eq!(mistakes("x\ty").unwrap_err().line, 1);
        let twice = format!("{}\n{}", row(&good), row(&good));
        assert!(mistakes(&twice).unwrap_err().why.contains("second row"));
    }

    /// The table the repository keeps reads whole, and every mistake it names is a turn of the
    /// loser in its record, as played.
    #[test]
    fn the_kept_table_reads_and_matches_its_records() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
        let text = std::fs::read_to_string(dir.join("deep-losses.tsv")).unwrap();
        let rows = mistakes(&text).unwrap();
        assert!(rows.len() >= 40, "{} mistake rows", rows.len());
        for (key, m) in &rows {
            let game = Game::open(&dir.join(key)).unwrap();
            let p = &game.turns[m.turn - 1];
            assert_eq!(p.color, m.loser, "{key}");
            assert!(same_turn(&p.turn, &m.played), "{key}");
            assert!(
                game.board_after(m.turn - 1).check_turn(&m.holds).is_ok(),
                "{key}"
            );
        }
    }
}

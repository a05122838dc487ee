//! What `analyse --deep` prints for a game, the row it writes to `--table`, and the run.
//!
//! A row is one line of tab-separated fields (`COLUMNS`), `budget` the seconds a position was
//! given (rows of several runs may share a table); the positions field lists every
//! position judged, from the last turn back, as `N:KIND[:TURN][:dDEPTH:SCORE]:SECONDSs`
//! separated by spaces. A table that already holds a game's row is not analysed again, so an
//! interrupted run resumes where it stopped.

use crate::record::game::Game;
use crate::tools::analyse::{AnalyseArgs, lost_by, prepare};
use crate::tools::deep::{Budget, DeepAnalysis, Finding, HoldKind, Judge, Position, Shown, Status};
use std::collections::HashSet;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

/// The table's first line.
pub const HEADER: &str = "# connect6 analyse --deep: where each lost game was really lost";

/// The table's column names, its second line.
pub const COLUMNS: &str =
    "file\tloser\topening\tbudget\tverdict\tturn\tplayed\tholds\tplayed_lost\tholds_by\tpositions";

/// A game's name in the table: its folder and file name (`losses/game.txt`).
pub fn game_key(path: &Path) -> String {
    let name = |p: Option<&Path>| {
        p.and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
    };
    match (name(path.parent()), name(Some(path))) {
        (Some(dir), Some(file)) => format!("{dir}/{file}"),
        (None, Some(file)) => file,
        _ => path.display().to_string(),
    }
}

fn shown_code(s: Shown) -> String {
    match s {
        Shown::Six => "six".into(),
        Shown::Proof => "proof".into(),
        Shown::Search(d) => format!("search-d{d}"),
        Shown::Solver => "solver".into(),
    }
}

fn shown_text(s: Shown) -> String {
    match s {
        Shown::Six => "the opponent made six at once".into(),
        Shown::Proof => "the opponent's reply led to a position proven lost".into(),
        Shown::Search(d) => format!(
            "the opponent's reply led to a position the search scores lost at depth {d} (no proof)"
        ),
        Shown::Solver => "the solver proves the opponent's forced win after it".into(),
    }
}

fn kind_code(k: HoldKind) -> &'static str {
    match k {
        HoldKind::OwnWin => "own-win",
        HoldKind::Search => "search",
        HoldKind::Zone => "zone",
    }
}

fn position_code(p: &Position) -> String {
    let secs = p.elapsed.as_secs_f64();
    let body = match &p.status {
        Status::LostProof => "lost-proof".to_string(),
        Status::LostSearch { depth, score } => format!("lost-search:d{depth}:{score}"),
        Status::Holds(h) => format!(
            "holds-{}:{}:d{}:{}",
            kind_code(h.kind),
            h.turn,
            h.depth,
            h.score
        ),
        Status::Open {
            depth,
            score,
            choice,
            choice_lost,
            zone,
            ..
        } => {
            let mut s = format!(
                "open:d{depth}:{score}:{choice}-{}",
                check_code(*choice_lost)
            );
            if let Some((z, zs)) = zone {
                write!(s, ":zone-{z}:{zs}").expect("a String takes any text");
            }
            s
        }
    };
    format!("{}:{body}:{secs:.1}s", p.number)
}

/// A search's depth and score, or that it had no choice to make (depth 0: a forced reply,
/// played without a search, so it says nothing of the position).
fn searched(depth: u8, score: i32) -> String {
    if depth == 0 {
        "none: the reply was forced".into()
    } else {
        format!("depth {depth}, score {score}")
    }
}

/// The solver's check of the search's choice: shown lost, or undecided.
fn check_code(lost: Option<bool>) -> &'static str {
    match lost {
        Some(true) => "lost",
        Some(false) => "holds",
        None => "unknown",
    }
}

fn position_text(p: &Position) -> String {
    let what = match &p.status {
        Status::LostProof => {
            "every turn loses: proven (every defence tried loses to a threat sequence)".into()
        }
        Status::LostSearch { depth, score } => format!(
            "every turn loses by the search (depth {depth}, score {score}); no proof, the solver left defences undecided"
        ),
        Status::Holds(h) => match h.kind {
            HoldKind::OwnWin => format!("{} wins: the solver proves its own forced win", h.turn),
            HoldKind::Search => format!(
                "{} holds: the engine's long-search choice ({}), after which the solver finds no forced win",
                h.turn,
                searched(h.depth, h.score)
            ),
            HoldKind::Zone => format!(
                "{} holds: a zone defence, after which the solver finds no forced win and a search ({}) sees none",
                h.turn,
                searched(h.depth, h.score)
            ),
        },
        Status::Open {
            defences,
            depth,
            score,
            choice,
            choice_lost,
            zone,
        } => {
            let check = match choice_lost {
                Some(true) => "shown lost (by the solver, or as the turn played)",
                Some(false) => "the solver finds no forced win after it",
                None => "the solver ran out of budget on it",
            };
            let mut s = format!(
                "undecided: defences tried: {defences}; the search chose {choice} ({}): {check}",
                searched(*depth, *score)
            );
            if let Some((z, zs)) = zone {
                write!(s, "; a search after {z} scores it {zs}, lost")
                    .expect("a String takes any text");
            }
            s
        }
    };
    format!(
        "  before turn {} (played {}), {:.1} s: {what}",
        p.number,
        p.played,
        p.elapsed.as_secs_f64()
    )
}

/// The turn that held at a mistake: its kind.
fn holds_by(a: &DeepAnalysis) -> &'static str {
    match (&a.finding, a.positions.last().map(|p| &p.status)) {
        (Finding::Mistake { .. }, Some(Status::Holds(h))) => kind_code(h.kind),
        _ => "-",
    }
}

/// The table's row for a game walked with `budget` seconds a position.
pub fn row(key: &str, budget: f64, a: &DeepAnalysis) -> String {
    let dash = || "-".to_string();
    let (verdict, turn, played, holds, shown) = match &a.finding {
        Finding::Opening { turn, shown } => (
            "opening",
            turn.map_or_else(dash, |t| t.to_string()),
            dash(),
            dash(),
            shown_code(*shown),
        ),
        Finding::Mistake {
            turn,
            played,
            holds,
            shown,
        } => (
            "mistake",
            turn.to_string(),
            played.to_string(),
            holds.to_string(),
            shown_code(*shown),
        ),
        Finding::Undetermined {
            turn,
            played,
            shown,
        } => (
            "undetermined",
            turn.to_string(),
            played.to_string(),
            dash(),
            shown.map_or_else(dash, shown_code),
        ),
    };
    let positions: Vec<String> = a.positions.iter().map(position_code).collect();
    format!(
        "{key}\t{}\t{}\t{budget}\t{verdict}\t{turn}\t{played}\t{holds}\t{shown}\t{}\t{}",
        a.color,
        a.opening,
        holds_by(a),
        positions.join(" ")
    )
}

/// The verdict in words.
pub fn verdict_text(a: &DeepAnalysis) -> String {
    match &a.finding {
        Finding::Opening { turn: None, .. } => {
            "already lost at the opening: the opponent won before the loser's first turn".into()
        }
        Finding::Opening {
            turn: Some(t),
            shown,
        } => {
            let how = match shown {
                Shown::Search(_) => "by the search, no proof",
                _ => "proven",
            };
            format!(
                "already lost at the opening: the position before turn {t}, its first, is lost ({how})"
            )
        }
        Finding::Mistake {
            turn,
            played,
            holds,
            shown,
        } => format!(
            "lost at turn {turn}: played {played}, {holds} holds ({played} loses: {})",
            shown_text(*shown)
        ),
        Finding::Undetermined {
            turn,
            played,
            shown: Some(shown),
        } => format!(
            "undetermined: lost at turn {turn} or earlier: {played} loses ({}), and the position before it is neither shown lost nor held",
            shown_text(*shown)
        ),
        Finding::Undetermined { turn, played, .. } => format!(
            "undetermined: after its last turn {turn} ({played}) no win of the opponent is shown"
        ),
    }
}

/// The lines printed for one game.
pub fn report(key: &str, game: &Game, a: &DeepAnalysis) -> String {
    let mut s = format!(
        "{key}: {} ({}) lost, {} turns, opening {} turns\n",
        game.name(a.color),
        a.color,
        game.turns.len(),
        a.opening
    );
    for p in &a.positions {
        writeln!(s, "{}", position_text(p)).expect("a String takes any text");
    }
    writeln!(s, "  => {}", verdict_text(a)).expect("a String takes any text");
    s
}

/// Counts over the games analysed in this run.
#[derive(Default)]
struct Totals {
    games: usize,
    opening_proven: usize,
    opening_search: usize,
    mistakes: usize,
    undetermined: usize,
    skipped: usize,
}

impl Totals {
    fn add(&mut self, f: &Finding) {
        self.games += 1;
        match f {
            Finding::Opening {
                shown: Shown::Search(_),
                ..
            } => self.opening_search += 1,
            Finding::Opening { .. } => self.opening_proven += 1,
            Finding::Mistake { .. } => self.mistakes += 1,
            Finding::Undetermined { .. } => self.undetermined += 1,
        }
    }

    fn line(&self, budget: f64) -> String {
        format!(
            "summary: {} lost games walked with {budget} s a position ({} already in the table); already lost at the opening {} ({} proven, {} by search); lost at a turn where another held {}; undetermined {}",
            self.games,
            self.skipped,
            self.opening_proven + self.opening_search,
            self.opening_proven,
            self.opening_search,
            self.mistakes,
            self.undetermined
        )
    }
}

/// The keys of the rows a table already holds.
fn rows_done(table: &Path) -> std::io::Result<HashSet<String>> {
    match std::fs::read_to_string(table) {
        Ok(text) => Ok(text
            .lines()
            .filter(|l| !l.starts_with('#') && *l != COLUMNS && !l.is_empty())
            .filter_map(|l| l.split('\t').next().map(str::to_string))
            .collect()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(HashSet::new()),
        Err(e) => Err(e),
    }
}

fn open_table(table: &Path) -> std::io::Result<std::fs::File> {
    let fresh = !table.exists();
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(table)?;
    if fresh {
        writeln!(f, "{HEADER}")?;
        writeln!(f, "{COLUMNS}")?;
    }
    Ok(f)
}

/// `analyse --deep`: the deep walk over the lost games of `--side`.
pub fn run(args: AnalyseArgs) -> ExitCode {
    let (models, games) = match prepare(&args) {
        Ok(p) => (p.models, p.games),
        Err(code) => return code,
    };
    let (side, budget, table) = (args.side.as_str(), args.budget, args.table.as_deref());
    let fail = |e: &dyn std::fmt::Display| {
        eprintln!("connect6 analyse: {e}");
        ExitCode::from(1)
    };
    let done = match table.map(rows_done).transpose() {
        Ok(d) => d.unwrap_or_default(),
        Err(e) => {
            return fail(&format!(
                "{}: {e}",
                table.map_or(String::new(), |t| t.display().to_string())
            ));
        }
    };
    let mut out = match table.map(open_table).transpose() {
        Ok(f) => f,
        Err(e) => return fail(&e),
    };
    let mut judge = Judge::new(models, Budget::seconds(budget), args.hash.max(1));
    let mut totals = Totals::default();
    for (file, game) in &games {
        let Some(color) = lost_by(game, side) else {
            continue;
        };
        let key = game_key(file);
        if done.contains(&key) {
            totals.skipped += 1;
            continue;
        }
        let a = judge.walk(game, color);
        totals.add(&a.finding);
        print!("{}", report(&key, game, &a));
        if let Some(f) = out.as_mut()
            && let Err(e) = writeln!(f, "{}", row(&key, budget, &a)).and_then(|()| f.flush())
        {
            return fail(&e);
        }
    }
    println!("{}", totals.line(budget));
    ExitCode::SUCCESS
}

//! `connect6 analyse [--time S] --side NAME RECORD...`: where did NAME lose?
//!
//! For every game that NAME lost, each of NAME's turns is replayed in order and the position
//! after it is searched (the engine's own search, `--time` seconds) and handed to the threat
//! solver. The first turn after which either of them shows NAME lost is the losing turn. At
//! that turn the engine searches again and says what it would play now; the new choice
//! "survives" when neither the search nor the solver shows it lost. The forcing line after
//! the old turn is followed as far as the solver (or the search) still sees the win. And
//! every defence the opponent's proof zones leave open is tried in the position before the
//! losing turn (`defence::zone_defences`): where none holds, the game was lost earlier, and
//! surviving there is out of reach.
//!
//! Only the search's and the solver's public entry points are used, so the analysis does not
//! depend on how they work inside.
//!
//! Every record is read before the first search. Exit codes: 0 analysed, 1 a path missing or
//! a file unreadable, 2 bad input (a file that is no record, a `--side` that played none of
//! the games, a bad option).

use crate::engine::eval::WIN_BOUND;
use crate::engine::models::Models;
use crate::engine::search::{Limits, Searcher};
use crate::engine::solver::defence::{Defences, zone_defences};
use crate::engine::solver::{SolveLimits, Solver, Verdict};
use crate::record::RecordResult;
use crate::record::game::Game;
use crate::rules::board::{Board, Color};
use crate::rules::coord::Turn;
use crate::rules::stones::PlaceTurn;
use crate::tools::pass::PassSettings;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug, Clone)]
pub struct AnalyseArgs {
    /// Seconds of search for each position looked at.
    #[arg(long, value_name = "S", default_value_t = 2.0)]
    pub time: f64,
    /// The player whose lost games are analysed, as the records name it.
    #[arg(long, value_name = "NAME")]
    pub side: String,
    /// Transposition table size of the search, in MB.
    #[arg(long, value_name = "MB", default_value_t = 32)]
    pub hash: usize,
    #[command(flatten)]
    pub models: crate::engine::models::ModelArgs,
    #[command(flatten)]
    pub graph: crate::tools::pass::GraphArgs,
    /// Walk each lost game back from its end to where it was really lost (`--budget`).
    #[arg(long)]
    pub deep: bool,
    /// With --deep: seconds of search for each position, and solver nodes in proportion.
    #[arg(long, value_name = "S", default_value_t = 5.0, requires = "deep")]
    pub budget: f64,
    /// With --deep: append a row per game to this table; games it holds are skipped.
    #[arg(long, value_name = "FILE", requires = "deep")]
    pub table: Option<PathBuf>,
    /// Put the engine back at each turn this `--deep` table calls a mistake, with `--time`
    /// a move, and judge its choice at the table's budget.
    #[arg(long, value_name = "TABLE", conflicts_with = "deep")]
    pub at_mistakes: Option<PathBuf>,
    /// Record files, or folders whose `*.txt` files are records.
    #[arg(required = true, value_name = "RECORD")]
    pub records: Vec<PathBuf>,
}

/// Solver depth in attacker turns: a forcing line of up to 15 turns, both sides counted.
const SOLVER_DEPTH: u8 = 8;
const SOLVER_NODES: u64 = 500_000;
/// Solver nodes for each stone or pair tried when every defence is looked through.
const DEFENCE_NODES: u64 = 20_000;
/// The forcing line is followed for at most this many turns: a solver proof's attacker turns,
/// the defender's replies and the winning turn.
const MAX_LINE: usize = 2 * SOLVER_DEPTH as usize + 1;

/// Who shows a position lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossProof {
    /// The threat solver: a forced win by continuous double threats, first turn given.
    Solver(Turn),
    /// The search scores it beyond `WIN_BOUND` (its best turn for the winner given).
    Search(Turn),
}

impl LossProof {
    pub fn turn(self) -> Turn {
        match self {
            LossProof::Solver(t) | LossProof::Search(t) => t,
        }
    }
}

/// How the position after a turn of the loser looks to the engine now.
#[derive(Clone, Copy, Debug)]
pub struct Judgement {
    /// Search score from the loser's view (the opponent is to move).
    pub score: i32,
    pub depth: u8,
    /// Whether, and how, the opponent's win is shown.
    pub lost: Option<LossProof>,
}

#[derive(Clone, Debug)]
pub struct LosingTurn {
    /// Turn number in the game (turn 1 is black's first stone).
    pub number: usize,
    pub played: Turn,
    pub after: Judgement,
    /// What the engine plays there now, with its search score and depth.
    pub now: Turn,
    pub now_score: i32,
    pub now_depth: u8,
    /// How the position after the new choice looks.
    pub after_now: Judgement,
    /// Every defence of the position before the turn, tried: whether any holds.
    pub defences: Defences,
    /// The opponent's forced win after the old turn as far as it is seen, with the losing
    /// side's replies from its search; each opponent turn with what showed it winning.
    pub line: Vec<(Turn, Option<LossProof>)>,
}

impl LosingTurn {
    /// The new choice is not shown lost.
    pub fn survives(&self) -> bool {
        self.after_now.lost.is_none()
    }
}

#[derive(Clone, Debug)]
pub struct GameAnalysis {
    pub name: String,
    pub color: Color,
    pub turns: usize,
    /// `None` when no turn of the loser is shown lost before the game ended.
    pub losing: Option<LosingTurn>,
}

pub struct Analyser {
    searcher: Searcher,
    solver: Solver,
    time: Duration,
}

impl Analyser {
    /// An analyser with the embedded models.
    pub fn new(time: Duration, hash_mb: usize) -> Analyser {
        Analyser::with_models(Models::embedded(), time, hash_mb)
    }

    pub fn with_models(models: Models, time: Duration, hash_mb: usize) -> Analyser {
        Analyser {
            searcher: Searcher::with_models(hash_mb, models),
            solver: Solver::new(1 << 16),
            time,
        }
    }

    fn limits(&self) -> Limits {
        Limits::timed(self.time / 2, self.time)
    }

    fn solve(&mut self, board: &Board) -> Verdict {
        let deadline = Instant::now() + self.time;
        let limits = SolveLimits::new(SOLVER_DEPTH, SOLVER_NODES, Some(deadline));
        let began = Instant::now();
        let verdict = self.solver.solve(board.as_stones(), limits);
        log::debug!(
            "solver: {verdict:?} in {} nodes, {:?}",
            self.solver.nodes(),
            began.elapsed()
        );
        verdict
    }

    /// The position after a turn of the loser (the opponent to move, the game not over).
    fn judge(&mut self, board: &Board) -> Judgement {
        let report = self.searcher.search(board, self.limits());
        let lost = match self.solve(board) {
            Verdict::Win(t) => Some(LossProof::Solver(t)),
            _ if report.score > WIN_BOUND => Some(LossProof::Search(report.best)),
            _ => None,
        };
        Judgement {
            score: -report.score,
            depth: report.depth,
            lost,
        }
    }

    /// Looks for the first turn of `color` after which it is shown lost.
    pub fn analyse(&mut self, game: &Game, color: Color) -> GameAnalysis {
        let mut board = Board::new();
        let mut losing = None;
        for (i, p) in game.turns.iter().enumerate() {
            if p.color == color {
                let before = board.clone();
                board.place_turn(&p.turn, p.color);
                if board.is_over() {
                    break;
                }
                let after = self.judge(&board);
                if after.lost.is_some() {
                    losing = Some(self.explain(&before, &board, i + 1, p.turn, after));
                    break;
                }
            } else {
                board.place_turn(&p.turn, p.color);
                if board.is_over() {
                    break;
                }
            }
        }
        GameAnalysis {
            name: game.name(color).to_string(),
            color,
            turns: game.turns.len(),
            losing,
        }
    }

    fn explain(
        &mut self,
        before: &Board,
        after: &Board,
        number: usize,
        played: Turn,
        judgement: Judgement,
    ) -> LosingTurn {
        let report = self.searcher.search(before, self.limits());
        let mut with_now = before.clone();
        with_now.place_turn(&report.best, before.side_to_move());
        let after_now = if with_now.is_over() {
            Judgement {
                score: 0,
                depth: 0,
                lost: None,
            }
        } else {
            self.judge(&with_now)
        };
        LosingTurn {
            number,
            played,
            after: judgement,
            now: report.best,
            now_score: report.score,
            now_depth: report.depth,
            after_now,
            defences: zone_defences(before.as_stones(), SOLVER_NODES, DEFENCE_NODES),
            line: self.forcing_line(after, judgement.lost),
        }
    }

    /// The opponent's win after the old turn: its proven turns, the loser's searched replies,
    /// for as long as the solver or the search still shows the win.
    fn forcing_line(
        &mut self,
        after: &Board,
        first: Option<LossProof>,
    ) -> Vec<(Turn, Option<LossProof>)> {
        let mut board = after.clone();
        let mut line = Vec::new();
        let mut proof = first;
        while let Some(p) = proof {
            board.place_turn(&p.turn(), board.side_to_move());
            line.push((p.turn(), Some(p)));
            if board.is_over() || line.len() >= MAX_LINE {
                break;
            }
            let reply = self.searcher.search(&board, self.limits()).best;
            board.place_turn(&reply, board.side_to_move());
            line.push((reply, None));
            if board.is_over() {
                break;
            }
            proof = self.judge(&board).lost;
        }
        line
    }
}

/// The colour `name` played in `game`, if it lost.
pub fn lost_by(game: &Game, name: &str) -> Option<Color> {
    let color = if game.black == name {
        Color::Black
    } else if game.white == name {
        Color::White
    } else {
        return None;
    };
    let lost = matches!(
        (color, game.result),
        (Color::Black, Some(RecordResult::WhiteWins))
            | (Color::White, Some(RecordResult::BlackWins))
    );
    lost.then_some(color)
}

fn score_text(score: i32) -> String {
    if score < -WIN_BOUND {
        format!("{score} (lost)")
    } else if score > WIN_BOUND {
        format!("{score} (won)")
    } else {
        score.to_string()
    }
}

fn proof_text(proof: Option<LossProof>, loser: Color) -> String {
    match proof {
        Some(LossProof::Solver(t)) => {
            format!("the solver proves a win for {} starting {t}", loser.other())
        }
        Some(LossProof::Search(t)) => {
            format!("the search sees a win for {} starting {t}", loser.other())
        }
        None => "neither the search nor the solver shows it lost".to_string(),
    }
}

/// The lines printed for one analysed game.
pub fn report(file: &str, a: &GameAnalysis) -> String {
    let mut s = format!("{file}: {} ({}) lost, {} turns\n", a.name, a.color, a.turns);
    let Some(l) = &a.losing else {
        s.push_str("  no turn of it is shown lost before the game ended\n");
        return s;
    };
    writeln!(
        s,
        "  lost after turn {}: it played {}; now scored {} at depth {}; {}",
        l.number,
        l.played,
        score_text(l.after.score),
        l.after.depth,
        proof_text(l.after.lost, a.color)
    )
    .unwrap();
    writeln!(
        s,
        "  now it plays {} (score {}, depth {}): {}; after it: score {}, {}",
        l.now,
        score_text(l.now_score),
        l.now_depth,
        if l.survives() {
            "survives"
        } else {
            "still lost"
        },
        score_text(l.after_now.score),
        proof_text(l.after_now.lost, a.color)
    )
    .unwrap();
    writeln!(s, "  every defence there tried: {}", l.defences).unwrap();
    let line: Vec<String> = l
        .line
        .iter()
        .map(|(t, p)| match p {
            Some(LossProof::Solver(_)) => format!("{t}!"),
            Some(LossProof::Search(_)) => format!("{t}?"),
            None => t.to_string(),
        })
        .collect();
    writeln!(
        s,
        "  forcing line after turn {}: {} (! solver-proven, ? search-scored win, unmarked: the loser's searched reply)",
        l.number,
        line.join(" ")
    )
    .unwrap();
    s
}

/// Totals over the games analysed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AnalysisTotals {
    pub records: usize,
    pub lost: usize,
    pub losing_found: usize,
    pub survives: usize,
    /// Losing turns where some turn holds (every defence tried), and where the position
    /// before was proven lost.
    pub defensible: usize,
    pub lost_before: usize,
}

impl AnalysisTotals {
    pub fn add(&mut self, a: &GameAnalysis) {
        self.lost += 1;
        if let Some(l) = &a.losing {
            self.losing_found += 1;
            self.survives += usize::from(l.survives());
            self.defensible += usize::from(l.defences.holds());
            self.lost_before += usize::from(l.defences == Defences::Lost { undecided: 0 });
        }
    }

    pub fn line(&self, name: &str, time: f64) -> String {
        format!(
            "summary: {name} lost {} of {} games; a losing turn found in {}; with {time} s a position the engine now survives past it in {}; some turn holds there in {}, every turn loses in {}",
            self.lost,
            self.records,
            self.losing_found,
            self.survives,
            self.defensible,
            self.lost_before
        )
    }
}

pub use super::load::{Refusal, check_side, load_games};

/// What `prepare` makes of the options: the models, the score graph's settings (with
/// `--svg`), and the records.
pub struct Prepared {
    pub models: Models,
    pub graph: Option<PassSettings>,
    pub games: Vec<(PathBuf, Game)>,
}

/// The options checked, the models read and the records loaded (also for `--deep`); a
/// refusal is printed.
pub fn prepare(args: &AnalyseArgs) -> Result<Prepared, ExitCode> {
    for (name, s) in [("--time", args.time), ("--budget", args.budget)] {
        if !(s.is_finite() && s > 0.0 && s <= 3600.0) {
            eprintln!("connect6 analyse: {name} {s}: expected 0 < S <= 3600 seconds");
            return Err(ExitCode::from(2));
        }
    }
    let models = args.models.load().map_err(|e| {
        eprintln!("connect6 analyse: {e}");
        ExitCode::from(2)
    })?;
    load_games(&args.records)
        .and_then(|games| check_side(&games, &args.side).map(|()| games))
        .and_then(|g| Ok((args.graph.settings(g.len()).map_err(Refusal::input)?, g)))
        .map(|(graph, games)| Prepared {
            models,
            graph,
            games,
        })
        .map_err(|refusal| {
            for line in &refusal.lines {
                eprintln!("connect6 analyse: {line}");
            }
            ExitCode::from(refusal.code)
        })
}

pub fn run(args: AnalyseArgs) -> ExitCode {
    let Prepared {
        models,
        graph,
        games,
    } = match prepare(&args) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let mut analyser = Analyser::with_models(
        models.clone(),
        Duration::from_secs_f64(args.time),
        args.hash.max(1),
    );
    let mut summary = AnalysisTotals {
        records: games.len(),
        ..AnalysisTotals::default()
    };
    let mut losing = None;
    for (file, game) in &games {
        let Some(color) = lost_by(game, &args.side) else {
            if game.black != args.side && game.white != args.side {
                eprintln!(
                    "connect6 analyse: {}: {} did not play",
                    file.display(),
                    args.side
                );
            }
            continue;
        };
        let analysis = analyser.analyse(game, color);
        summary.add(&analysis);
        print!("{}", report(&file_name(file), &analysis));
        losing = analysis.losing.map(|l| l.number);
    }
    println!("{}", summary.line(&args.side, args.time));
    if let (Some(settings), [(_, game)]) = (graph, games.as_slice()) {
        match args.graph.write(&models, settings, game, losing) {
            Ok(line) => println!("{line}"),
            Err(e) => return super::pass::failed(&e),
        }
    }
    ExitCode::SUCCESS
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(turns: &str, result: RecordResult) -> Game {
        let mut g = Game::from_stone_list(turns).unwrap();
        g.result = Some(result);
        g
    }

    #[test]
    fn who_lost() {
        let g = game("JJ KJKK", RecordResult::BlackWins);
        assert_eq!(lost_by(&g, "White"), Some(Color::White));
        assert_eq!(lost_by(&g, "Black"), None);
        assert_eq!(lost_by(&g, "Nobody"), None);
        let draw = game("JJ KJKK", RecordResult::Draw);
        assert_eq!(lost_by(&draw, "White"), None);
    }

    #[test]
    fn a_blunder_and_its_refutation() {
        // Black builds JJ..JM against white's block at JH; white's turn 6 ignores the four,
        // and black makes six at once.
        let g = game("JJ IKKK JKJL JHLL JMSS IAKA JNJO", RecordResult::BlackWins);
        let mut analyser = Analyser::new(Duration::from_millis(200), 8);
        let a = analyser.analyse(&g, Color::White);
        let l = a.losing.clone().expect("the blunder is found");
        assert_eq!(l.number, 6);
        assert_eq!(l.played.to_string(), "IAKA");
        let proof = l.after.lost.expect("shown lost");
        // The win is six in column J through JN.
        let winning: Vec<String> = proof.turn().cells().map(|c| c.to_string()).collect();
        assert!(winning.contains(&"JN".to_string()), "{winning:?}");
        assert!(l.after.score < -WIN_BOUND || matches!(proof, LossProof::Solver(_)));
        // Now white blocks at JN, the one cell both of black's threats need, and survives.
        let now: Vec<String> = l.now.cells().map(|c| c.to_string()).collect();
        assert!(now.contains(&"JN".to_string()), "{now:?}");
        assert!(l.survives());
        // The forcing line ends with black's six.
        assert_eq!(l.line.len(), 1);
        let text = report("g.txt", &a);
        assert!(text.contains("lost after turn 6: it played IAKA"), "{text}");
        assert!(text.contains(": survives;"), "{text}");
        // Every defence tried: white's block on JN is one that holds.
        assert!(l.defences.holds(), "{}", l.defences);
        assert!(text.contains("every defence there tried: "), "{text}");
        let mut summary = AnalysisTotals {
            records: 1,
            ..AnalysisTotals::default()
        };
        summary.add(&a);
        assert_eq!(
            summary,
            AnalysisTotals {
                records: 1,
                lost: 1,
                losing_found: 1,
                survives: 1,
                defensible: 1,
                lost_before: 0,
            }
        );
    }
}

//! `connect6 bench`: fixed positions searched to a fixed depth. Prints nodes, speed and a
//! signature of the node counts, so a change's effect on search and speed shows at once.

use crate::engine::models::{ModelArgs, Models};
use crate::engine::position::Position;
use crate::engine::search::{Limits, Searcher};
use crate::engine::solver::Verdict;
use crate::rules::board::{Board, Color, PlaceTurn};
use crate::rules::coord::Cell;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

pub mod defence;
pub mod suite;

/// Positions as protocol turns from the start. The middle-game ones are openings of real
/// games from a 2025 competition (see `tests/data/records`).
pub const POSITIONS: [&str; 4] = [
    "JJ KJKK",
    "JJ IJKJ JKJI JLJH IIKK HHLK LLNN MMGI",
    "JJ HJHI IKHL GMHK KIKK LHHH HGKJ KHJI KLJL",
    "JJ JIIJ IKKK GLHK KHFM KILL IIHJ",
];

/// Positions for the threat solver alone: in each the side to move wins with a line that
/// needs a single-threat turn (double threats alone find nothing). The first five come from
/// the games in `tests/data/losses` (the reference's win, one turn after this engine's losing
/// turn), the last from `tests/data/records`.
pub const SOLVER_POSITIONS: [&str; 6] = [
    "JJ HIIL IKJK HKJM GJHJ KNIJ JILO JLHL KKLL LKII KLKM GLJN KIEL KHJO LHJQ MGKP JHMM JFNN \
     LJMK IGNL MJNJ OIOJ LMMN NOML NMLQ OMLN OLIN",
    "JJ HKKL LHIH IKJL KHJH HHMH",
    "JJ JIKK LLJM KJKI LKKL LIMI IINI",
    "JJ KLLJ GJMI LKLL JLLM JMMJ NIIN",
    "JJ JKKI KJKG IJHK HIJI KKLK JGIK KLLM JHMN",
    "MH MGNI MJNJ LHKI JJOI LJMK JHLI JKJG OLKK NKII OKOJ OMOG NLPJ QJMM QLPL MLRL RNQM MISO \
     PMPK PNPI SGNF",
];

/// Node budget of each solver position.
const SOLVER_NODES: u64 = 200_000;

pub const DEFAULT_DEPTH: u8 = 4;

pub struct BenchResult {
    pub nodes: u64,
    pub elapsed: Duration,
    /// Time in the main search alone (without the threat solver).
    pub search_time: Duration,
    pub threat_nodes: u64,
    pub threat_time: Duration,
    /// FNV-1a over each position's node count, best turn and score.
    pub signature: u64,
    pub lines: Vec<String>,
    /// The solver alone on `SOLVER_POSITIONS`.
    pub solver: SolverBench,
}

/// What the solver did on `SOLVER_POSITIONS`.
#[derive(Default)]
pub struct SolverBench {
    pub positions: usize,
    pub wins: usize,
    pub nodes: u64,
    pub time: Duration,
    /// Longest win found, in attacker turns.
    pub longest: u8,
    pub lines: Vec<String>,
}

fn fnv(hash: &mut u64, value: u64) {
    for byte in value.to_le_bytes() {
        *hash ^= byte as u64;
        *hash = hash.wrapping_mul(0x100_0000_01b3);
    }
}

/// Searches every bench position to `depth` with a fresh table each.
pub fn run(models: &Models, depth: u8, hash_mb: usize) -> BenchResult {
    let mut out = BenchResult {
        nodes: 0,
        elapsed: Duration::ZERO,
        search_time: Duration::ZERO,
        threat_nodes: 0,
        threat_time: Duration::ZERO,
        signature: 0xcbf2_9ce4_8422_2325,
        lines: vec![],
        solver: SolverBench::default(),
    };
    for (i, turns) in POSITIONS.iter().enumerate() {
        let board = Board::from_turns(turns).expect("bench positions are legal");
        let mut searcher = Searcher::with_models(hash_mb, models.clone());
        let r = searcher.search(&board, Limits::depth(depth));
        out.nodes += r.nodes;
        out.elapsed += r.elapsed;
        fnv(&mut out.signature, r.nodes);
        fnv(&mut out.signature, r.best.first.index() as u64);
        fnv(
            &mut out.signature,
            r.best.second.map_or(999, |c| c.index() as u64),
        );
        fnv(&mut out.signature, r.score as u64);
        fnv(&mut out.signature, r.threat_nodes);
        let search_time = r.elapsed.saturating_sub(r.threat_time);
        out.search_time += search_time;
        out.threat_nodes += r.threat_nodes;
        out.threat_time += r.threat_time;
        out.lines.push(format!(
            "position {}: depth {} best {} score {} nodes {} nps {:.0} | threat nodes {} in {:.3}s | total {:.3}s",
            i + 1,
            r.depth,
            r.best,
            r.score,
            r.nodes,
            r.nodes as f64 / search_time.as_secs_f64().max(1e-9),
            r.threat_nodes,
            r.threat_time.as_secs_f64(),
            r.elapsed.as_secs_f64(),
        ));
    }
    out.solver = solve_positions(&mut out.signature);
    out
}

/// The threat solver alone on each of `SOLVER_POSITIONS`, with a fresh solver each.
fn solve_positions(signature: &mut u64) -> SolverBench {
    let mut out = SolverBench::default();
    for (i, turns) in SOLVER_POSITIONS.iter().enumerate() {
        let board = Board::from_turns(turns).expect("bench positions are legal");
        let solved = suite::solve_fresh(&board, SOLVER_NODES);
        out.positions += 1;
        out.nodes += solved.nodes;
        out.time += solved.time;
        fnv(signature, solved.nodes);
        let what = match solved.verdict {
            Verdict::Win(turn) => {
                out.wins += 1;
                out.longest = out.longest.max(solved.length);
                fnv(signature, turn.first.index() as u64);
                format!(
                    "win {turn} in {} turns ({} plies)",
                    solved.length,
                    2 * solved.length - 1
                )
            }
            Verdict::NoWin => "no win".to_string(),
            Verdict::Unknown => "unknown (node limit)".to_string(),
        };
        out.lines.push(format!(
            "solver position {}: {what} | nodes {} in {:.3}s",
            i + 1,
            solved.nodes,
            solved.time.as_secs_f64()
        ));
    }
    out
}

/// Main-search nodes per second (all threads together) with `threads` threads, searching
/// each position without a threat win (1, 2 and 4) for `time`. The time is the main
/// thread's search time, without its threat phases; helpers search through those phases
/// too (as in play), so where the phases are long (positions 2 and 4) their nodes weigh a
/// little more than a pure speed ratio would give.
pub fn throughput(models: &Models, threads: usize, time: Duration) -> f64 {
    let (mut nodes, mut search_time) = (0, Duration::ZERO);
    for turns in [POSITIONS[0], POSITIONS[1], POSITIONS[3]] {
        let board = Board::from_turns(turns).expect("legal");
        let mut searcher = Searcher::with_models(64, models.clone());
        searcher.set_threads(threads);
        // A fresh table's pages are mapped on first touch, which the kernel serialises:
        // touch them all before the clock starts, as the engine does at start-up.
        searcher.touch_table();
        let r = searcher.search(&board, Limits::time(time));
        nodes += r.nodes;
        search_time += r.elapsed.saturating_sub(r.threat_time);
    }
    nodes as f64 / search_time.as_secs_f64().max(1e-9)
}

/// Stones placed and removed per second on a middle-game board, with every incremental
/// structure (windows, threats, patterns, cell codes, neighbourhood) and the evaluator's
/// sums kept up to date, as in the search.
pub fn place_remove_rate(models: &Models, duration: Duration) -> f64 {
    let board = Board::from_turns(POSITIONS[1]).expect("legal");
    let mut board = Position::new(board, &models.eval);
    let empties: Vec<Cell> = board.near_empty_cells().collect();
    let start = Instant::now();
    let mut count = 0u64;
    while start.elapsed() < duration {
        for &c in &empties {
            board.place(c, Color::Black);
            board.remove(c);
        }
        count += empties.len() as u64;
    }
    count as f64 / start.elapsed().as_secs_f64()
}

/// Deepest completed iteration within `time` from a middle-game position (position 2: no
/// threat sequence ends it early).
pub fn depth_in(models: &Models, time: Duration) -> (u8, u64) {
    let board = Board::from_turns(POSITIONS[1]).expect("legal");
    let mut searcher = Searcher::with_models(64, models.clone());
    let r = searcher.search(&board, Limits::time(time));
    (r.depth, r.nodes)
}

/// Time for iterative deepening to complete `depth` from the opening (position 1).
pub fn time_to_depth(models: &Models, depth: u8) -> (Duration, u64) {
    let board = Board::from_turns(POSITIONS[0]).expect("legal");
    let r = Searcher::with_models(64, models.clone()).search(&board, Limits::depth(depth));
    (r.elapsed, r.nodes)
}

/// Options of `connect6 bench`.
#[derive(Clone, Debug, clap::Args)]
pub struct BenchArgs {
    /// Search depth in turns (1..=20).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_DEPTH,
          value_parser = clap::value_parser!(u8).range(1..=20))]
    pub depth: u8,
    /// Also time depth 6 from the opening and the depth reached in 1 s and 5 s.
    #[arg(long)]
    pub timed: bool,
    /// Also measure main-search nodes/s with 1 and with N threads (Lazy SMP scaling).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Also run the threat solver on every position of FILE (tab-separated names, then a
    /// stone list; as tests/data/loss-wins.txt), under each of the `--suite-nodes` caps.
    #[arg(long, value_name = "FILE")]
    pub solver_suite: Option<PathBuf>,
    /// Also ask the defence's questions on every position of FILE (as
    /// tests/data/defence-suite.txt): the null move and the played losing turn's check, under
    /// the engine's budgets at 0.5 s and 1 s a move and under 0.1 s and 0.25 s; and, where
    /// the played turn lost, whether any turn holds (every defence in the proof zones tried).
    #[arg(long, value_name = "FILE")]
    pub defence_suite: Option<PathBuf>,
    /// Node caps for `--solver-suite`, comma-separated.
    #[arg(long, value_name = "N,..", value_delimiter = ',', default_values_t = [2_000u64, 8_000, 30_000, 400_000])]
    pub suite_nodes: Vec<u64>,
    #[command(flatten)]
    pub models: ModelArgs,
}

/// Reads and parses the suite file at `path`, if one is given; errors name the file.
fn read_suite<T>(
    path: Option<&Path>,
    parse: fn(&str) -> Result<T, String>,
) -> Result<Option<T>, String> {
    let Some(path) = path else {
        return Ok(None);
    };
    let at = |e: String| format!("{}: {e}", path.display());
    let text = std::fs::read_to_string(path).map_err(|e| at(e.to_string()))?;
    parse(&text).map(Some).map_err(at)
}

pub fn main(args: BenchArgs) -> ExitCode {
    let BenchArgs {
        depth,
        timed,
        threads,
        solver_suite,
        defence_suite,
        suite_nodes,
        models,
    } = args;
    let models = match models.load() {
        Ok(models) => models,
        Err(e) => {
            eprintln!("connect6 bench: {e}");
            return ExitCode::from(2);
        }
    };
    let threads = threads as usize;
    // A bad suite file is reported before any measuring.
    let (suite, defence_positions) = match (
        read_suite(solver_suite.as_deref(), suite::parse_suite),
        read_suite(defence_suite.as_deref(), defence::parse_defence_suite),
    ) {
        (Ok(solver), Ok(defence)) => (solver, defence),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("connect6 bench: {e}");
            return ExitCode::from(2);
        }
    };
    crate::rules::warm_up();
    let r = run(&models, depth, 16);
    for line in &r.lines {
        println!("{line}");
    }
    println!(
        "total: nodes {} nps {:.0} | threat nodes {} in {:.3}s ({:.0}/s) | time {:.3}s | signature {:016x}",
        r.nodes,
        r.nodes as f64 / r.search_time.as_secs_f64().max(1e-9),
        r.threat_nodes,
        r.threat_time.as_secs_f64(),
        r.threat_nodes as f64 / r.threat_time.as_secs_f64().max(1e-9),
        r.elapsed.as_secs_f64(),
        r.signature
    );
    for line in &r.solver.lines {
        println!("{line}");
    }
    let sv = &r.solver;
    println!(
        "solver: {} positions, {} wins, nodes {} in {:.3}s ({:.0}/s), longest line {} turns ({} plies)",
        sv.positions,
        sv.wins,
        sv.nodes,
        sv.time.as_secs_f64(),
        sv.nodes as f64 / sv.time.as_secs_f64().max(1e-9),
        sv.longest,
        (2 * sv.longest as usize).saturating_sub(1)
    );
    if threads > 1 {
        let time = Duration::from_secs(1);
        let one = throughput(&models, 1, time);
        let many = throughput(&models, threads, time);
        println!(
            "main-search nodes/s over {}s per position: 1 thread {one:.0}, {threads} threads {many:.0}, scaling {:.2}x",
            time.as_secs(),
            many / one
        );
    }
    println!(
        "place+remove: {:.0} stones/s",
        place_remove_rate(&models, Duration::from_millis(500))
    );
    if let Some(positions) = &suite {
        suite::report(positions, &suite_nodes);
    }
    if let Some(positions) = &defence_positions {
        defence::report(&models, positions);
    }
    if timed {
        let (t, n) = time_to_depth(&models, 6);
        println!(
            "depth 6 from position 1 (the opening): {:.3}s ({n} nodes)",
            t.as_secs_f64()
        );
        for secs in [1, 5] {
            let (d, n) = depth_in(&models, Duration::from_secs(secs));
            println!("depth in {secs}s from position 2: {d} ({n} nodes)");
        }
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signature_is_stable() {
        let models = Models::embedded();
        let a = run(&models, 2, 1);
        let b = run(&models, 2, 1);
        assert_eq!(a.signature, b.signature);
        assert_eq!(a.nodes, b.nodes);
        assert!(a.nodes > POSITIONS.len() as u64);
    }

    /// Models are values, not process-wide settings: two searchers with two evaluations
    /// search the same positions at once, each to the signature it gets alone, and the two
    /// differ.
    #[test]
    fn two_configurations_live_in_one_process() {
        use crate::engine::eval::Evaluation;
        let configs = [Evaluation::Cells, Evaluation::Hand].map(Models::with_eval);
        let alone = configs.clone().map(|m| run(&m, 3, 1).signature);
        assert_ne!(alone[0], alone[1]);
        for _ in 0..2 {
            let together = std::thread::scope(|s| {
                configs
                    .iter()
                    .map(|m| {
                        std::thread::Builder::new()
                            .stack_size(crate::engine::search::SEARCH_STACK)
                            .spawn_scoped(s, || run(m, 3, 1).signature)
                            .expect("a bench thread starts")
                    })
                    .collect::<Vec<_>>()
                    .into_iter()
                    .map(|h| h.join().expect("a bench thread"))
                    .collect::<Vec<_>>()
            });
            assert_eq!(together, alone);
        }
    }
}

//! Negamax alpha-beta over candidate pairs: iterative deepening, principal variation search,
//! a transposition table, killer turns, and extensions where the side to move must block.
//!
//! A reader's map: this file holds the searcher's state and its entry points; `root` the
//! root (threat phases, iterative deepening, the safety check); `tree` negamax below it;
//! `movepick` the order a node tries its turns in; `clock` when to stop; `smp` the helper
//! threads; `tt` the shared table; `time` the budgets of a game.

use crate::engine::eval::WIN;
use crate::engine::models::Models;
use crate::engine::pairs::{Pairs, Situation, any_legal_turn, generate};
use crate::engine::position::Position;
use crate::engine::solver::Solver;
use crate::engine::tunables::{MAX_PLY, ROOT_PAIRS, THREAT_CACHE_ENTRIES};
use crate::rules::board::Board;
use crate::rules::coord::Turn;
use std::sync::Arc;
use std::time::{Duration, Instant};
use time::CHECKING_RESERVE;
use tt::Table;

mod clock;
pub mod control;
mod movepick;
mod root;
mod smp;
mod threat_checks;
pub mod time;
mod tree;
pub mod tt;

pub use control::Control;

/// Deepest search when no depth is set: time decides first.
pub const DEFAULT_MAX_DEPTH: u8 = 40;

/// What to search and for how long.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_depth: u8,
    /// No new iteration starts after this.
    pub soft: Duration,
    /// The search stops here, mid-iteration if need be.
    pub hard: Duration,
    /// Stop after this many nodes (for reproducible runs).
    pub nodes: Option<u64>,
}

impl Limits {
    pub fn depth(max_depth: u8) -> Limits {
        Limits {
            max_depth,
            soft: Duration::MAX,
            hard: Duration::MAX,
            nodes: None,
        }
    }

    /// A timed search with the engine's default depth cap: it stops near `soft` and never
    /// after `hard`, as a move of a game does.
    pub fn timed(soft: Duration, hard: Duration) -> Limits {
        Limits {
            soft,
            hard,
            ..Limits::depth(DEFAULT_MAX_DEPTH)
        }
    }

    /// As deep as `time` allows, all of it spent (for timed measurements).
    pub fn time(time: Duration) -> Limits {
        Limits {
            max_depth: 60,
            soft: time,
            hard: time,
            nodes: None,
        }
    }
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct Report {
    pub best: Turn,
    /// From the side to move's view; beyond `WIN_BOUND` a forced win (or loss).
    pub score: i32,
    /// Deepest iteration completed (0 when the move was forced without search).
    pub depth: u8,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Threat-solver nodes, and the time they took (included in `elapsed`).
    pub threat_nodes: u64,
    pub threat_time: Duration,
    /// The longest the main search went without reading the clock: time the process was
    /// kept off the processor, which the next moves keep as a margin.
    pub stall: Duration,
}

impl Report {
    /// No search yet: `best` is the fallback.
    pub fn empty(best: Turn) -> Report {
        Report {
            best,
            score: 0,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            threat_nodes: 0,
            threat_time: Duration::ZERO,
            stall: Duration::ZERO,
        }
    }
}

pub struct Searcher {
    /// The evaluation and the ranking this searcher plays with.
    models: Models,
    tt: Arc<Table>,
    solver: Solver,
    killers: [[Option<Turn>; 2]; MAX_PLY],
    nodes: u64,
    start: Instant,
    limits: Limits,
    /// Depth of the iteration under way: forced extensions are counted from it.
    iteration: u8,
    stopped: bool,
    /// The main search stops here (`limits.hard` less the time kept for checking the
    /// chosen turn against the opponent's threat sequences)...
    abort_at: Duration,
    /// ...which is this share of the hard limit (`time::CHECKING_RESERVE`, more when the
    /// move hangs on that check: `keep_for_checking`)...
    checking_share: f64,
    /// ...counted from this point after the search began (later than the start after a
    /// ponder hit).
    clock_offset: Duration,
    /// When the clock was last read, and the longest gap between two readings.
    last_check: Instant,
    stall: Duration,
    control: Arc<Control>,
    /// A search on the opponent's time: no limit holds until the control says it was hit.
    pondering: bool,
    /// Lazy SMP: the other threads, searching on the same table (see `smp`).
    helpers: Vec<smp::Helper>,
    /// A helper's node count, published at each clock reading.
    published: Option<Arc<std::sync::atomic::AtomicU64>>,
    /// This searcher is a helper: it deepens until told to stop and keeps no clock.
    helper: bool,
    /// What the threads of the search under way tell each other (with helpers only).
    progress: Option<Arc<smp::Progress>>,
}

/// Stack for search threads: the search recurses up to `MAX_PLY` deep with its turn lists
/// on the stack.
pub const SEARCH_STACK: usize = 64 << 20;

impl Searcher {
    /// A searcher with the embedded models (`Models::embedded`).
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher::with_models(hash_mb, Models::embedded())
    }

    /// A searcher that plays with `models`.
    pub fn with_models(hash_mb: usize, models: Models) -> Searcher {
        Searcher::on_table(models, Arc::new(Table::new(hash_mb)), THREAT_CACHE_ENTRIES)
    }

    fn on_table(models: Models, tt: Arc<Table>, solver_cache: usize) -> Searcher {
        Searcher {
            models,
            tt,
            solver: Solver::new(solver_cache),
            killers: [[None; 2]; MAX_PLY],
            nodes: 0,
            start: Instant::now(),
            limits: Limits::depth(1),
            iteration: 0,
            stopped: false,
            abort_at: Duration::MAX,
            checking_share: CHECKING_RESERVE,
            clock_offset: Duration::ZERO,
            last_check: Instant::now(),
            stall: Duration::ZERO,
            control: Arc::new(Control::new()),
            pondering: false,
            helpers: Vec::new(),
            published: None,
            helper: false,
            progress: None,
        }
    }

    /// Maps every page of the transposition table now rather than during a search.
    pub fn touch_table(&self) {
        self.tt.touch();
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.wait_for_helpers();
        self.tt.clear();
        self.killers = [[None; 2]; MAX_PLY];
    }

    /// Installs a fresh control (so a stop meant for an earlier search cannot reach the next)
    /// and returns it, for another thread to stop or re-time the next search.
    pub fn new_control(&mut self) -> Arc<Control> {
        self.control = Arc::new(Control::new());
        Arc::clone(&self.control)
    }

    /// The turn the table expects from the side to move in `position` (the second turn of
    /// the principal variation, after our own search), if it knows one.
    pub fn expected_turn(&self, position: &Board) -> Option<Turn> {
        let turn = self.tt.probe(position.hash())?.turn?;
        position.check_turn(&turn).ok().map(|()| turn)
    }

    /// Searches `position` on the opponent's time: the threat phases keep to their shares of
    /// `limits` (so a stop is never kept waiting long), but the main search runs on until
    /// the control stops it or, once hit, its limits counted from the hit run out.
    pub fn ponder(&mut self, position: &Board, limits: Limits) -> Report {
        self.pondering = true;
        let report = self.search(position, limits);
        self.pondering = false;
        report
    }

    /// Finds a turn for the side to move. Always returns a legal turn of a game not over.
    pub fn search(&mut self, position: &Board, limits: Limits) -> Report {
        self.start = Instant::now();
        self.limits = limits;
        self.checking_share = CHECKING_RESERVE;
        self.set_clock(Duration::ZERO, limits.soft, limits.hard);
        self.stall = Duration::ZERO;
        self.nodes = 0;
        self.stopped = false;
        self.tt.new_search();
        let mut board = Position::new(position.clone(), &self.models.eval);
        let mut root = Pairs::new();
        let worth = Arc::clone(&self.models.ranking);
        let situation = generate(&worth, &board, &mut root, ROOT_PAIRS);
        let fallback = any_legal_turn(position).expect("search called on a finished game");
        let mut report = Report::empty(root.first().map_or(fallback, |&(_, t)| t));
        let solver_nodes = self.solver.total_nodes();
        match situation {
            Situation::Win => report.score = WIN,
            Situation::Lost => report.score = -WIN,
            _ if root.len() == 1 => {}
            _ => self.think(&mut board, &mut root, situation, &mut report),
        }
        report.nodes = self.nodes;
        report.elapsed = self.start.elapsed();
        report.threat_nodes = self.solver.total_nodes() - solver_nodes;
        report.stall = self.stall;
        report
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::WIN_BOUND;
    use crate::rules::board::Color;
    fn play_all(moves: &[&str]) -> Board {
        Board::from_turns(&moves.join(" ")).unwrap()
    }

    #[test]
    fn wins_in_one() {
        let b = play_all(&["JJ", "AAAB", "JKJL", "ACAD", "JMJN", "SSSR"]);
        let r = Searcher::new(1).search(&b, Limits::depth(3));
        let mut after = b.clone();
        after.play_turn(&r.best).unwrap();
        assert_eq!(after.winner(), Some(Color::Black));
        assert!(r.score > WIN_BOUND);
    }

    #[test]
    fn blocks_an_open_four() {
        let b = play_all(&["JJ", "DCEC", "JKJL", "FCGC"]);
        let r = Searcher::new(1).search(&b, Limits::depth(2));
        let mut after = b.clone();
        after.play_turn(&r.best).unwrap();
        assert!(!after.has_threat_window(Color::White));
    }

    #[test]
    fn makes_a_winning_double_four() {
        // Black has open threes in column J and row N; one turn making two open fours (four
        // threats) wins, and depth 3 sees it through white's hopeless blocks.
        let b = play_all(&["JJ", "AACB", "JKJL", "SSQR", "LNMN", "ASCR", "NNSA", "AQCQ"]);
        let r = Searcher::new(4).search(&b, Limits::depth(3));
        assert!(r.score > WIN_BOUND, "score {} best {}", r.score, r.best);
        let mut after = b.clone();
        after.play_turn(&r.best).unwrap();
        assert!(crate::rules::threats::threat_count(after.as_stones(), Color::Black) >= 3);
    }

    #[test]
    fn node_limit_and_determinism() {
        let b = play_all(&["JJ", "KKKJ", "IIHH"]);
        let limits = Limits {
            nodes: Some(3000),
            ..Limits::depth(20)
        };
        let a = Searcher::new(4).search(&b, limits);
        let c = Searcher::new(4).search(&b, limits);
        assert_eq!((a.best, a.score, a.nodes), (c.best, c.score, c.nodes));
        assert!(b.check_turn(&a.best).is_ok());
    }

    #[test]
    fn the_principal_variation_starts_with_the_best_turn_and_replays() {
        let b = play_all(&["JJ", "KKKJ", "IIHH"]);
        let mut searcher = Searcher::new(4);
        let report = searcher.search(&b, Limits::depth(3));
        let model = crate::engine::eval::EvalModel::hand();
        let mut position = Position::new(b.clone(), &model);
        let line = searcher.principal_variation(&mut position, report.best, 3);
        assert_eq!(position.hash(), b.hash(), "the board is left as it was");
        assert_eq!(line.first(), Some(&report.best));
        assert!(line.len() >= 2 && line.len() <= 3, "{line:?}");
        let mut board = b.clone();
        for turn in &line {
            board
                .play_turn(turn)
                .expect("each turn legal in its position");
        }
        // A turn that is not legal ends the line at once.
        let taken = Turn::parse("JJKL").unwrap();
        assert!(
            searcher
                .principal_variation(&mut Position::new(b.clone(), &model), taken, 3)
                .is_empty()
        );
    }

    /// The search is read in one sitting: no file of it over 400 lines, no function over
    /// 100 (counted from its `fn` line to the brace that closes it, as `cargo fmt` lays
    /// them out).
    #[test]
    fn every_file_and_function_of_the_search_is_short() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/engine/search");
        let mut files = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            assert!(lines.len() <= 400, "{path:?} has {} lines", lines.len());
            files += 1;
            for (i, line) in lines.iter().enumerate() {
                let body = line.trim_start();
                let opens = ["fn ", "pub fn ", "pub(super) fn ", "pub(crate) fn "]
                    .iter()
                    .any(|p| body.starts_with(p));
                if !opens || body.ends_with(';') || body.ends_with('}') {
                    continue;
                }
                let close = format!("{}}}", &line[..line.len() - body.len()]);
                let length = lines[i..].iter().position(|l| *l == close).map(|n| n + 1);
                assert!(
                    length.is_some_and(|n| n <= 100),
                    "{path:?}:{}: {length:?} lines",
                    i + 1
                );
            }
        }
        assert!(files >= 8, "{files} files read from {dir:?}");
    }
}

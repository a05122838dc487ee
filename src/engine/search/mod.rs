//! Negamax alpha-beta over candidate pairs: iterative deepening, principal variation search,
//! a transposition table, killer turns, and extensions where the side to move must block.

use crate::engine::eval::{WIN, WIN_BOUND, evaluate, evaluate_after};
use crate::engine::pairs::{Pairs, Situation, any_legal_turn, generate};
use crate::engine::solver::defence::{self, Guard, Verified};
use crate::engine::solver::{SolveLimits, Solver, Verdict};
use crate::rules::board::{Board, Color, windows_in};
use crate::rules::coord::{CELLS, Turn};
use crate::rules::geometry::GEOMETRY;
use crate::rules::stones::PlaceTurn;
use arrayvec::ArrayVec;
pub mod control;
mod smp;
pub mod time;
pub mod tt;

use crate::engine::tunables::{
    CHOSEN_TURN_THREAT_NODES, FRONTIER_PAIRS, LMR_LATE_TURN, LMR_LATER_MIN_DEPTH, LMR_LATER_TURN,
    LMR_MIN_DEPTH, LMR_REDUCTION, MAX_FORCED_EXTENSION, MAX_PAIRS, MAX_PLY, ROOT_PAIRS,
    ROOT_THREAT_DEPTH, ROOT_THREAT_NODES, ROOT_THREAT_TIME_SHARE, SAFETY_THREAT_NODES,
    SAFETY_TIME_SHARE, THREAT_CACHE_ENTRIES,
};
pub use control::Control;
use std::sync::Arc;
use std::time::{Duration, Instant};
use time::{CHECKING_RESERVE, FALLING_SCORE, STABLE_ITERATIONS, STABLE_SHARE};
use tt::{Bound, Table};

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
    /// chosen turn against the opponent's threat sequences).
    abort_at: Duration,
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

/// How often (in nodes) the clock is read.
const CLOCK_INTERVAL: u64 = 128;

fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score + ply as i32
    } else if score < -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score - ply as i32
    } else if score < -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl Searcher {
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher::on_table(Arc::new(Table::new(hash_mb)), THREAT_CACHE_ENTRIES)
    }

    fn on_table(tt: Arc<Table>, solver_cache: usize) -> Searcher {
        Searcher {
            tt,
            solver: Solver::new(solver_cache),
            killers: [[None; 2]; MAX_PLY],
            nodes: 0,
            start: Instant::now(),
            limits: Limits::depth(1),
            iteration: 0,
            stopped: false,
            abort_at: Duration::MAX,
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

    /// The line the search expects from `board` on: `best`, then the table's best turn in
    /// each position after it, while that turn is legal and the game goes on, `depth` turns
    /// at most. For the log; the board is left as it was.
    fn principal_variation(&self, board: &mut Board, best: Turn, depth: u8) -> ArrayVec<Turn, 32> {
        let mut line = ArrayVec::<Turn, 32>::new();
        let mut next = Some(best);
        while let Some(turn) = next
            && line.len() < (depth as usize).min(line.capacity())
            && !board.is_over()
            && board.check_turn(&turn).is_ok()
        {
            board.place_turn(&turn, board.side_to_move());
            line.push(turn);
            next = self.tt.probe(board.hash()).and_then(|hit| hit.turn);
        }
        for turn in line.iter().rev() {
            board.remove_turn(turn);
        }
        line
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

    /// Sets the main search's limits, counted from `offset` after the search began.
    fn set_clock(&mut self, offset: Duration, soft: Duration, hard: Duration) {
        let reserve = match hard {
            Duration::MAX => Duration::ZERO,
            hard => hard.mul_f64(CHECKING_RESERVE),
        };
        self.limits.soft = offset.saturating_add(soft);
        self.limits.hard = offset.saturating_add(hard);
        self.abort_at = offset.saturating_add(hard - reserve);
    }

    /// Finds a turn for the side to move. Always returns a legal turn of a game not over.
    pub fn search(&mut self, position: &Board, limits: Limits) -> Report {
        self.start = Instant::now();
        self.limits = limits;
        self.set_clock(Duration::ZERO, limits.soft, limits.hard);
        self.stall = Duration::ZERO;
        self.nodes = 0;
        self.stopped = false;
        self.tt.new_search();
        let mut board = position.clone();
        let evaluation = crate::engine::eval::chosen();
        board.set_cell_values(crate::engine::eval::cell_values(evaluation));
        let mut root = Pairs::new();
        let situation = generate(&mut board, &mut root, ROOT_PAIRS);
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

    /// A position with a choice: our own threat sequence first, then the opponent's kept out
    /// of reach, then the main search over what survives.
    fn think(
        &mut self,
        board: &mut Board,
        root: &mut Pairs,
        situation: Situation,
        report: &mut Report,
    ) {
        let crew = self.start_helpers(board, root);
        let threats_began = Instant::now();
        if let Some(win) = self.own_threats(board) {
            report.best = win;
            report.score = WIN_BOUND + 1;
            report.threat_time = threats_began.elapsed();
            if let Some(crew) = crew {
                self.stop_helpers(crew);
            }
            return;
        }
        let share = self
            .limits
            .soft
            .min(self.limits.hard)
            .mul_f64(SAFETY_TIME_SHARE);
        let deadline = Instant::now().checked_add(share);
        let guard = defence::guard(&mut self.solver, board, root, situation, deadline);
        report.threat_time = threats_began.elapsed();
        report.best = root[0].1;
        if root.len() > 1 {
            self.deepen(board, root, report, 1);
        }
        if let Some(crew) = crew
            && let Some(deeper) = self.stop_helpers(crew)
            && deeper.depth > report.depth
            && report.score.abs() <= WIN_BOUND
            && root.iter().any(|&(_, t)| t == deeper.best)
        {
            // A helper completed an iteration the main thread did not: its answer saw
            // further. (Turns the threat check dropped from the root are not taken.)
            log::debug!(
                "helper's depth {} best {} score {} over main's depth {} best {}",
                deeper.depth,
                deeper.best,
                deeper.score,
                report.depth,
                report.best
            );
            report.best = deeper.best;
            report.score = deeper.score;
            report.depth = deeper.depth;
        }
        if let Guard::Checked(verified) = guard {
            let checking_began = Instant::now();
            report.best = self.safe_choice(board, root, &verified, report.best);
            report.threat_time += checking_began.elapsed();
        }
    }

    /// A win by a threat sequence for the side to move, if the solver finds one in its
    /// share of the time.
    fn own_threats(&mut self, board: &Board) -> Option<Turn> {
        let share = self
            .limits
            .soft
            .min(self.limits.hard)
            .mul_f64(ROOT_THREAT_TIME_SHARE);
        let deadline = self.start.checked_add(share);
        let limits = SolveLimits::new(ROOT_THREAT_DEPTH, ROOT_THREAT_NODES, deadline);
        match self.solver.solve(board.as_stones(), limits) {
            Verdict::Win(turn) if board.check_turn(&turn).is_ok() => {
                log::debug!(
                    "threat-sequence win {turn} in {} turns ({} solver nodes)",
                    self.solver.last_proof().length,
                    self.solver.nodes()
                );
                Some(turn)
            }
            _ => None,
        }
    }

    /// The search's choice, unless it is unverified and lets the opponent win by a threat
    /// sequence: then the first root turn that does not. The choice itself is checked with
    /// what is left of the move's time: the turn about to be played deserves the deepest
    /// look, and time a move cap leaves unspent is lost.
    fn safe_choice(
        &mut self,
        board: &mut Board,
        root: &Pairs,
        verified: &Verified,
        chosen: Turn,
    ) -> Turn {
        let deadline = self.start.checked_add(self.limits.hard);
        let candidates =
            std::iter::once(chosen).chain(root.iter().map(|&(_, t)| t).filter(|&t| t != chosen));
        for turn in candidates {
            if verified.contains(&turn) {
                return turn;
            }
            let nodes = if turn == chosen {
                CHOSEN_TURN_THREAT_NODES
            } else {
                SAFETY_THREAT_NODES
            };
            match defence::loses_to_threats(&mut self.solver, board, &turn, nodes, deadline) {
                Some(true) => log::debug!("{turn} loses to a threat sequence"),
                // Safe, or out of time to know: stop looking.
                Some(false) | None => return turn,
            }
        }
        chosen
    }

    /// Iterative deepening over the root turns from depth `first` on.
    fn deepen(&mut self, board: &mut Board, root: &mut Pairs, report: &mut Report, first: u8) {
        let me = board.side_to_move();
        self.last_check = Instant::now();
        // Iterations in a row that ended with the same best turn, and the last score.
        let mut stable = 0u32;
        let mut last_score: Option<i32> = None;
        let mut depth = first;
        while depth <= self.limits.max_depth {
            if let Some(progress) = &self.progress {
                if self.helper {
                    depth = depth.max(progress.next_for_helper(report.depth));
                    if depth > self.limits.max_depth {
                        break;
                    }
                } else {
                    progress.main_on(depth);
                }
            }
            self.iteration = depth;
            let mut alpha = -WIN - 1;
            let beta = WIN + 1;
            let mut best_index = None;
            let mut falling = false;
            for i in 0..root.len() {
                let turn = root[i].1;
                board.place_turn(&turn, me);
                let score = if i == 0 {
                    -self.negamax(board, depth as i32 - 1, 1, -beta, -alpha)
                } else {
                    let mut s = -self.negamax(board, depth as i32 - 1, 1, -alpha - 1, -alpha);
                    if s > alpha && !self.stopped {
                        s = -self.negamax(board, depth as i32 - 1, 1, -beta, -alpha);
                    }
                    s
                };
                board.remove_turn(&turn);
                if self.stopped {
                    break;
                }
                root[i].0 = score;
                if score > alpha {
                    alpha = score;
                    best_index = Some(i);
                }
                if i == 0 {
                    falling = last_score.is_some_and(|s| score < s - FALLING_SCORE);
                }
                // Between root turns the soft limit may end the iteration: what was searched
                // of it is used below.
                if self.elapsed_past_soft(stable, falling) {
                    self.stopped = true;
                    break;
                }
            }
            // A partial iteration still counts when its first (previous best) move was
            // searched: anything that beat it is a real improvement.
            if let Some(i) = best_index {
                if i == 0 {
                    stable += 1;
                } else {
                    stable = 0;
                }
                report.best = root[i].1;
                report.score = alpha;
                let best = root.remove(i);
                root.insert(0, best);
            }
            if self.stopped {
                break;
            }
            report.depth = depth;
            last_score = Some(alpha);
            if self.helper
                && let Some(progress) = &self.progress
            {
                progress.completed(smp::Completed {
                    depth,
                    best: report.best,
                    score: report.score,
                });
            }
            if log::log_enabled!(log::Level::Debug) {
                log::debug!(
                    "{}depth {depth} score {} best {} nodes {} time {:?} pv{}",
                    if self.helper { "helper " } else { "" },
                    report.score,
                    report.best,
                    self.nodes,
                    self.start.elapsed(),
                    self.principal_variation(board, report.best, depth)
                        .iter()
                        .fold(String::new(), |line, t| format!("{line} {t}"))
                );
            }
            if report.score.abs() > WIN_BOUND || self.elapsed_past_soft(stable, falling) {
                break;
            }
            depth += 1;
        }
    }

    /// Whether the search has used the time it is meant to: the soft limit, stretched while
    /// the best turn has just changed or the score is falling, shortened once one turn has
    /// stayed best for several iterations when the time saved goes to later moves.
    fn elapsed_past_soft(&mut self, stable: u32, falling: bool) -> bool {
        self.poll();
        if self.pondering || self.helper {
            return false;
        }
        let soft = self.limits.soft;
        // Stopping early only pays when the time saved is worth something later: with a
        // game budget (soft below hard). Under a bare move cap, unspent time is lost.
        let saves = soft < self.limits.hard;
        let stop = if falling || stable == 0 {
            soft.saturating_mul(3) / 2
        } else if stable >= STABLE_ITERATIONS && saves && soft != Duration::MAX {
            soft.mul_f64(STABLE_SHARE)
        } else {
            soft
        };
        self.start.elapsed() >= stop.min(self.abort_at)
    }

    /// Reads the control: a stop ends the search and leaves no time for checks after it; a
    /// hit starts the real clock.
    fn poll(&mut self) {
        if self.control.stopped() {
            self.stopped = true;
            self.limits.hard = Duration::ZERO;
        }
        if self.pondering
            && let Some((offset, soft, hard)) = self.control.hit_clock(self.start)
        {
            // Time pondered counts as time spent on the move: past its soft limit the
            // search answers at once; otherwise it goes on to the soft limit counted from
            // its start. The hard limit counts from the hit.
            self.pondering = false;
            self.set_clock(offset, soft, hard);
            self.limits.soft = soft;
            if offset >= soft {
                self.stopped = true;
            }
        }
    }

    fn out_of_time(&mut self) -> bool {
        if self.nodes.is_multiple_of(CLOCK_INTERVAL) {
            let now = Instant::now();
            // A long gap between two checks means the process was kept off the processor.
            self.stall = self
                .stall
                .max(now.saturating_duration_since(self.last_check));
            self.last_check = now;
            if let Some(p) = &self.published {
                p.store(self.nodes, std::sync::atomic::Ordering::Relaxed);
            }
            self.poll();
            if !self.pondering && now.saturating_duration_since(self.start) >= self.abort_at {
                self.stopped = true;
            }
            if self.limits.nodes.is_some_and(|n| self.nodes >= n) {
                self.stopped = true;
            }
        }
        self.stopped
    }

    fn negamax(
        &mut self,
        board: &mut Board,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        let me = board.side_to_move();
        let opp = me.other();
        if board.has_six(opp) {
            return -(WIN - ply as i32);
        }
        if board.is_full() {
            return 0;
        }
        if board.has_threat_window(me) {
            return WIN - ply as i32;
        }
        let forced = board.has_threat_window(opp);
        let mut depth = depth;
        if depth <= 0 {
            // At the horizon a position where the mover must block is not quiet: look one
            // turn further while extensions last.
            let extension_room = ply < self.iteration as usize + MAX_FORCED_EXTENSION;
            if !forced || !extension_room || ply + 1 >= MAX_PLY {
                return evaluate(board, me);
            }
            depth = 1;
        }
        let key = board.hash();
        let mut tt_turn = None;
        if let Some(hit) = self.tt.probe(key) {
            tt_turn = hit.turn;
            if hit.depth as i32 >= depth {
                let s = score_from_tt(hit.score, ply);
                let cut = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }
        let original_alpha = alpha;
        // One turn from the horizon, a turn that makes no threat and leaves the opponent
        // none leads to a leaf that is only evaluated.
        let frontier = depth == 1;
        let mut best = -WIN - 1;
        let mut best_turn = None;
        // The table's turn is tried before generating the rest: a cutoff from it saves the
        // generator's work altogether.
        let tt_turn = tt_turn.filter(|t| board.check_turn(t).is_ok());
        let mut moves = Pairs::new();
        moves.extend(tt_turn.map(|t| (0, t)));
        let mut generated = false;
        let mut best_quiet = None;
        let mut i = 0;
        loop {
            if i == moves.len() {
                if generated {
                    break;
                }
                generated = true;
                let width = if depth <= 1 {
                    FRONTIER_PAIRS
                } else {
                    MAX_PAIRS
                };
                let first = moves.pop();
                match generate(board, &mut moves, width) {
                    Situation::Win => return WIN - ply as i32,
                    Situation::Lost => return -(WIN - ply as i32 - 1),
                    Situation::Forced | Situation::Quiet => {}
                }
                if let Some(done) = first {
                    moves.retain(|(_, t)| *t != done.1);
                    moves.insert(0, done);
                }
                self.order(&mut moves, i, ply);
                if frontier {
                    // Every quiet leaf is read at once, cheaply, and only the best stays, first:
                    // it may cut off before any turn that threatens is searched.
                    best_quiet = self.best_quiet_leaf(board, &mut moves, i, me, forced);
                    if self.stopped {
                        return 0;
                    }
                    if let Some(pair) = best_quiet {
                        moves.insert(i, pair);
                    }
                }
                if i == moves.len() {
                    break;
                }
            }
            let turn = moves[i].1;
            let leaf = if !frontier {
                None
            } else if generated {
                // The best quiet leaf, already counted; other generated turns threaten.
                best_quiet
                    .filter(|&(_, t)| t == turn)
                    .map(|(value, _)| value)
            } else {
                let value = quiet_leaf(board, &turn, me, forced);
                if value.is_some() {
                    self.count_leaf();
                }
                value
            };
            let score = if let Some(value) = leaf {
                value
            } else if i == 0 {
                board.place_turn(&turn, me);
                -self.negamax(board, depth - 1, ply + 1, -beta, -alpha)
            } else {
                board.place_turn(&turn, me);
                // A late, quiet turn is first searched shallower: the generator's order puts
                // the turns that matter early, and one that still beats alpha is searched
                // again at full depth. Turns that threaten (the reply is forced) are not
                // reduced, nor any turn in a position that must block.
                let reduce = depth >= LMR_MIN_DEPTH
                    && i >= LMR_LATE_TURN
                    && !forced
                    && !board.has_threat_window(me);
                // An unreduced turn goes straight to the full-depth null-window search.
                let mut s = alpha + 1;
                if reduce {
                    let deeper = i >= LMR_LATER_TURN && depth >= LMR_LATER_MIN_DEPTH;
                    let reduced = depth - 1 - LMR_REDUCTION - deeper as i32;
                    s = -self.negamax(board, reduced, ply + 1, -alpha - 1, -alpha);
                }
                if s > alpha && !self.stopped {
                    s = -self.negamax(board, depth - 1, ply + 1, -alpha - 1, -alpha);
                }
                if s > alpha && s < beta && !self.stopped {
                    s = -self.negamax(board, depth - 1, ply + 1, -beta, -alpha);
                }
                s
            };
            if leaf.is_none() {
                board.remove_turn(&turn);
            }
            if self.stopped {
                return 0;
            }
            i += 1;
            if score > best {
                best = score;
                best_turn = Some(turn);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        self.remember_killer(turn, ply);
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            depth.max(0) as u8,
            score_to_tt(best, ply),
            bound,
            best_turn,
        );
        best
    }

    /// Counts a leaf read without placing its turn as a node, with the clock reading a
    /// search of it would have made.
    fn count_leaf(&mut self) {
        self.nodes += 1;
        self.out_of_time();
    }

    /// One turn from the horizon: reads every turn from `from` on that leads to a quiet
    /// leaf, drops them from `moves` and returns the best (its value in the score slot; the
    /// first of equals). The others cannot score more, and need no search.
    fn best_quiet_leaf(
        &mut self,
        board: &Board,
        moves: &mut Pairs,
        from: usize,
        me: Color,
        forced: bool,
    ) -> Option<(i32, Turn)> {
        let mut best: Option<(i32, Turn)> = None;
        let mut j = from;
        while j < moves.len() {
            let turn = moves[j].1;
            let Some(value) = quiet_leaf(board, &turn, me, forced) else {
                j += 1;
                continue;
            };
            self.count_leaf();
            if best.is_none_or(|(b, _)| value > b) {
                best = Some((value, turn));
            }
            moves.remove(j);
        }
        best
    }

    /// This ply's killers first among the turns from `from` on, then the generator's order.
    fn order(&self, moves: &mut Pairs, from: usize, ply: usize) {
        let mut front = from;
        for t in self.killers[ply].iter().flatten() {
            if let Some(i) = moves[front..].iter().position(|(_, m)| m == t) {
                moves[front..=front + i].rotate_right(1);
                front += 1;
            }
        }
    }

    fn remember_killer(&mut self, turn: Turn, ply: usize) {
        let k = &mut self.killers[ply];
        if k[0] != Some(turn) {
            k[1] = k[0];
            k[0] = Some(turn);
        }
    }
}

/// The score for the side to move of `turn` when it leads to a quiet leaf: it makes no
/// threat, and it blocks every threat of the opponent's (`forced`: there are some). The
/// leaf's evaluation is read without placing the turn. `None` for other turns.
fn quiet_leaf(board: &Board, turn: &Turn, me: Color, forced: bool) -> Option<i32> {
    let mut cells = turn.cells();
    let (a, b) = (cells.next()?, cells.next()?);
    // A board filled by the turn is a draw, not an evaluation.
    if board.stone_total() + 2 >= CELLS {
        return None;
    }
    if forced {
        let cells = &GEOMETRY.window_cells;
        let blocked = |w: usize| cells[w].contains(&a) || cells[w].contains(&b);
        if !windows_in(board.as_stones().threat_windows(me.other())).all(blocked) {
            return None;
        }
    }
    evaluate_after(board, a, b, me).map(|v| -v)
}

#[cfg(test)]
mod tests {
    use super::*;
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
        let mut board = b.clone();
        let line = searcher.principal_variation(&mut board, report.best, 3);
        assert_eq!(board.hash(), b.hash(), "the board is left as it was");
        assert_eq!(line.first(), Some(&report.best));
        assert!(line.len() >= 2 && line.len() <= 3, "{line:?}");
        for turn in &line {
            board
                .play_turn(turn)
                .expect("each turn legal in its position");
        }
        // A turn that is not legal ends the line at once.
        let taken = Turn::parse("JJKL").unwrap();
        assert!(
            searcher
                .principal_variation(&mut b.clone(), taken, 3)
                .is_empty()
        );
    }
}

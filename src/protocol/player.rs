//! The engine as a `Player`: the opening book while the position is in it, else the search
//! under the engine's clock.

use crate::engine::book::Book;
use crate::engine::models::Models;
use crate::engine::search::time::{Lateness, TimeControl};
use crate::engine::search::{Control, Limits, Report, SEARCH_STACK, Searcher};
use crate::protocol::session::Player;
use crate::rules::board::Board;
use crate::rules::coord::Turn;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

pub struct Engine {
    /// `None` only while a ponder thread holds it.
    searcher: Option<Searcher>,
    move_cap: Duration,
    game_time: Option<Duration>,
    game_left: Option<Duration>,
    max_depth: u8,
    turns_played: usize,
    /// How late recent replies were past their planned stop, or how long the search was kept
    /// off the processor: the margin the next budgets keep.
    lateness: Lateness,
    /// When the process started, until the first search: see `start_up_debt`.
    born: Option<Instant>,
    /// When the engine was ready to read its first request.
    ready: Instant,
    /// Search on the opponent's time (`--ponder`).
    ponder: bool,
    job: Option<PonderJob>,
    hash_mb: usize,
    threads: usize,
    /// What a searcher made afresh plays with.
    models: Models,
    /// Ponder searches whose guess came true, for tests and logs.
    pub ponder_hits: u32,
    /// The opening book, unless `--no-book` left it out.
    book: Option<Book>,
    /// Turns the book answered, for tests and logs.
    pub book_turns: u32,
}

/// A search running on the opponent's time, on the position after the turn we expect.
struct PonderJob {
    /// The position the opponent is to move in, and the position after our guess.
    waiting: u64,
    guessed: u64,
    guess: Turn,
    control: Arc<Control>,
    thread: JoinHandle<(Searcher, Report)>,
}

/// Start-up time (to the first request) of an engine on a machine that is not overloaded.
const NORMAL_START_UP: Duration = Duration::from_millis(50);

/// A first search starting within this of the engine being ready answers a request that
/// was already waiting (reading and parsing a few lines takes far less).
const REQUEST_WAITING: Duration = Duration::from_millis(100);

impl Engine {
    /// An engine that plays with `models`.
    pub fn new(
        models: Models,
        hash_mb: usize,
        move_cap: Duration,
        game_time: Option<Duration>,
        max_depth: u8,
        born: Instant,
    ) -> Engine {
        let searcher = Searcher::with_models(hash_mb, models.clone());
        // The table's pages are mapped now, at start-up (which the first reply repays when a
        // referee's request was already waiting), not by `new` or the first search, whose
        // clock would miss or pay for tens of milliseconds of page faults.
        searcher.touch_table();
        Engine {
            models,
            searcher: Some(searcher),
            move_cap,
            game_time,
            game_left: game_time,
            max_depth,
            turns_played: 0,
            lateness: Lateness::default(),
            born: Some(born),
            ready: Instant::now(),
            ponder: false,
            job: None,
            hash_mb,
            threads: 1,
            ponder_hits: 0,
            book: None,
            book_turns: 0,
        }
    }

    /// Plays the book's turn in the positions it holds (`None`: always search).
    pub fn with_book(mut self, book: Option<Book>) -> Engine {
        self.book = book;
        self
    }

    /// The book's turn for `board`, if it holds the position (and the turn is legal there).
    fn book_turn(&mut self, board: &Board) -> Option<Turn> {
        let found = self.book.as_ref()?.lookup(board)?;
        // A search on the opponent's time has nothing to give a book position.
        self.ponder_stop();
        log::info!(
            "{} from the book (its search: score {} depth {})",
            found.turn,
            found.score,
            found.depth
        );
        self.book_turns += 1;
        Some(found.turn)
    }

    /// Ponders (searches on the opponent's time) when `on`.
    pub fn with_ponder(mut self, on: bool) -> Engine {
        self.ponder = on;
        self
    }

    /// Searches with `threads` threads (Lazy SMP); 1 is the deterministic single thread.
    pub fn with_threads(mut self, threads: usize) -> Engine {
        let threads = threads.max(1);
        self.threads = threads;
        self.searcher().set_threads(threads);
        self
    }

    /// The turn the running ponder search assumes the opponent plays.
    pub fn ponder_guess(&self) -> Option<Turn> {
        self.job.as_ref().map(|j| j.guess)
    }

    /// Time the referee may already have counted against our first reply: a referee that
    /// starts the engine and writes its first request at once may time our start-up too.
    /// Such a request is waiting when the engine is ready, so the search starts right after
    /// start-up. A first search that starts later came after the engine sat waiting for
    /// input (the opponent thinking, a person typing): the referee's clock started with
    /// that request, and nothing is owed.
    fn start_up_debt(&mut self, now: Instant) -> Duration {
        let Some(born) = self.born.take() else {
            return Duration::ZERO;
        };
        let since = now.saturating_duration_since(born);
        // A start-up of more than twice the cap (at least a second) is no referee's request
        // waiting: the engine was made long before it was asked anything.
        let plausible = since < (self.move_cap * 2).max(Duration::from_secs(1));
        if plausible && now.saturating_duration_since(self.ready) < REQUEST_WAITING {
            since
        } else {
            Duration::ZERO
        }
    }

    fn clock(&self) -> TimeControl {
        TimeControl {
            move_cap: self.move_cap,
            game_left: self.game_left,
            lateness: self.lateness.worst(),
        }
    }

    fn searcher(&mut self) -> &mut Searcher {
        self.searcher
            .as_mut()
            .expect("the searcher is home when no ponder job runs")
    }

    /// Ends the ponder search, if any, and takes the searcher back with its report.
    fn finish_job(&mut self, job: PonderJob) -> Report {
        let (mut searcher, report) = job.thread.join().expect("the ponder thread does not panic");
        // A stop meant for the ponder search must not reach the next one.
        searcher.new_control();
        self.searcher = Some(searcher);
        report
    }

    /// The search for `board`, or the ponder search if it guessed `board`.
    fn search(&mut self, board: &Board, started: Instant, limits: Limits) -> Report {
        if let Some(job) = self.job.take() {
            if job.guessed == board.hash() {
                // The guess came true: the ponder search goes on under the real clock.
                job.control.hit(started, limits.soft, limits.hard);
                self.ponder_hits += 1;
                let report = self.finish_job(job);
                log::info!("ponder hit: depth {} on the opponent's time", report.depth);
                return report;
            }
            job.control.stop();
            self.finish_job(job);
            log::debug!("ponder miss");
        }
        // Time spent stopping a ponder search counts against this move.
        let spent = started.elapsed();
        let limits = Limits {
            soft: limits.soft.saturating_sub(spent),
            hard: limits
                .hard
                .saturating_sub(spent)
                .max(Duration::from_millis(1)),
            ..limits
        };
        self.searcher().search(board, limits)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.ponder_stop();
    }
}

impl Player for Engine {
    fn new_game(&mut self) {
        self.ponder_stop();
        self.searcher().clear();
        self.game_left = self.game_time;
        self.turns_played = 0;
    }

    fn choose(&mut self, board: &Board) -> Turn {
        let started = Instant::now();
        // Taken even for a book turn: the start-up is owed by the first reply, whichever.
        let debt = self.start_up_debt(started);
        if let Some(turn) = self.book_turn(board) {
            self.turns_played += 1;
            if let Some(left) = &mut self.game_left {
                *left = left.saturating_sub(started.elapsed());
            }
            return turn;
        }
        // A slow start-up means a loaded machine, and the part of it before `main` (which
        // the referee counts too, and we cannot see) was slow as well: the first move keeps
        // the excess as lateness.
        let mut clock = self.clock();
        clock.lateness = clock.lateness.max(debt.saturating_sub(NORMAL_START_UP));
        let budget = clock.budget(self.turns_played);
        let limits = Limits {
            max_depth: self.max_depth,
            soft: budget.soft.saturating_sub(debt),
            hard: budget
                .hard
                .saturating_sub(debt)
                .max(Duration::from_millis(1)),
            nodes: None,
        };
        log::debug!(
            "budget soft {:?} hard {:?} (lateness {:?}, start-up {:?})",
            limits.soft,
            limits.hard,
            self.lateness.worst(),
            debt
        );
        let report = self.search(board, started, limits);
        log::info!(
            "{} score {} depth {} nodes {} in {:?} ({:.0} nodes/s); threat solver {} nodes in {:?}",
            report.best,
            report.score,
            report.depth,
            report.nodes,
            report.elapsed,
            report.nodes as f64 / report.elapsed.as_secs_f64().max(1e-9),
            report.threat_nodes,
            report.threat_time
        );
        self.turns_played += 1;
        let used = started.elapsed();
        // Past the planned stop: scheduling, unwinding, or a phase that overran its share.
        let overshoot = (used + debt).saturating_sub(budget.hard);
        self.lateness.record(overshoot.max(report.stall));
        if let Some(left) = &mut self.game_left {
            *left = left.saturating_sub(used);
        }
        report.best
    }

    fn set_depth(&mut self, depth: u8) {
        self.max_depth = depth;
    }

    fn set_move_time(&mut self, seconds: f64) {
        self.move_cap = Duration::from_secs_f64(seconds);
    }

    fn set_game_left(&mut self, seconds: f64) {
        self.game_left = Some(Duration::from_secs_f64(seconds));
    }

    fn ponder_start(&mut self, board: &Board) {
        if !self.ponder || self.job.as_ref().is_some_and(|j| j.waiting == board.hash()) {
            return;
        }
        self.ponder_stop();
        let Some(guess) = self.searcher().expected_turn(board) else {
            return;
        };
        let mut after = board.clone();
        if after.play_turn(&guess).is_err() || after.is_over() {
            return;
        }
        // The budget the move would get now; a hit replaces it with the real one.
        let budget = self.clock().budget(self.turns_played);
        let limits = Limits {
            max_depth: self.max_depth,
            soft: budget.soft,
            hard: budget.hard,
            nodes: None,
        };
        let mut searcher = self.searcher.take().expect("no ponder job runs");
        let control = searcher.new_control();
        let guessed = after.hash();
        let spawned = std::thread::Builder::new()
            .name("ponder".into())
            .stack_size(SEARCH_STACK)
            .spawn(move || {
                let report = searcher.ponder(&after, limits);
                (searcher, report)
            });
        match spawned {
            Ok(thread) => {
                log::debug!("pondering on {guess}");
                self.job = Some(PonderJob {
                    waiting: board.hash(),
                    guessed,
                    guess,
                    control,
                    thread,
                });
            }
            Err(e) => {
                // The closure (and the searcher in it) is gone: start afresh.
                log::warn!("cannot start a ponder thread: {e}");
                let mut searcher = Searcher::with_models(self.hash_mb, self.models.clone());
                searcher.set_threads(self.threads);
                self.searcher = Some(searcher);
            }
        }
    }

    fn ponder_stop(&mut self) {
        if let Some(job) = self.job.take() {
            job.control.stop();
            self.finish_job(job);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bench::POSITIONS;
    use crate::engine::book;
    use crate::rules::board::Color;
    use crate::rules::coord::Cell;

    /// How late past its allowance a move may end on a loaded two-core machine. The engine
    /// keeps its margin inside the cap; this is only for the scheduler. An engine that ignored
    /// its limits here would think for seconds.
    const SLACK: Duration = Duration::from_millis(300);

    fn engine(cap: Duration, game: Option<Duration>) -> Engine {
        // Born long ago: no start-up debt.
        let born = Instant::now() - Duration::from_secs(60);
        Engine::new(
            Models::embedded(),
            8,
            cap,
            game,
            crate::engine::search::DEFAULT_MAX_DEPTH,
            born,
        )
    }

    /// A middle game of a real record, with the turn to choose.
    fn middle_game() -> Board {
        Board::from_turns(POSITIONS[1]).unwrap()
    }

    /// The position of `black` and `white` stones.
    fn position(black: &[Cell], white: &[Cell]) -> Board {
        let mut board = Board::new();
        black.iter().for_each(|&c| board.place(c, Color::Black));
        white.iter().for_each(|&c| board.place(c, Color::White));
        board
    }

    /// `board` after `turn`, in canonical form: two positions with one key are the same up
    /// to the board's symmetries.
    fn after_canonical(board: &Board, turn: &Turn) -> book::Key {
        let (black, white) = book::stones(&after(board, turn));
        book::canonical(&black, &white).0
    }

    #[test]
    fn the_book_answers_its_positions_in_every_image() {
        let book = Book::embedded();
        let mut e = engine(Duration::from_secs(5), None).with_book(Some(book.clone()));
        // Black's first stone, white's reply to the centre, and black's second turns.
        let reply = book
            .entries()
            .iter()
            .find(|x| x.black == [Cell::CENTER] && x.white.is_empty());
        let second = book.entries().iter().filter(|x| x.white.len() == 2).take(3);
        let mut asked = 0;
        for entry in reply
            .into_iter()
            .chain(second)
            .chain(book.entries().first())
        {
            let stored = position(&entry.black, &entry.white);
            let expected = after_canonical(&stored, &entry.turn);
            for s in 0..8 {
                let image =
                    |cells: &[Cell]| -> Vec<Cell> { cells.iter().map(|&c| c.image(s)).collect() };
                let board = position(&image(&entry.black), &image(&entry.white));
                let t = Instant::now();
                let turn = e.choose(&board);
                asked += 1;
                assert_eq!(e.book_turns, asked, "{turn} was searched");
                // The book's answer comes at once: a search would take most of the 5 s.
                assert!(t.elapsed() < Duration::from_secs(1), "{:?}", t.elapsed());
                assert!(board.check_turn(&turn).is_ok());
                assert_eq!(after_canonical(&board, &turn), expected, "symmetry {s}");
            }
        }
        assert!(asked >= 8 * 5, "{asked} positions asked");
    }

    #[test]
    fn out_of_the_book_or_without_it_the_engine_searches() {
        let cap = Duration::from_millis(300);
        let mut e = engine(cap, None).with_book(Some(Book::embedded()));
        let board = middle_game();
        assert!(board.check_turn(&e.choose(&board)).is_ok());
        // A white pair far from the centre is no book position.
        let far = Board::from_turns("JJ AASS").unwrap();
        assert!(far.check_turn(&e.choose(&far)).is_ok());
        assert_eq!(e.book_turns, 0);
        // `--no-book`: the reply to the centre is searched, for the whole budget.
        let mut bare = engine(cap, None).with_book(None);
        let centre = Board::from_turns("JJ").unwrap();
        let t = Instant::now();
        assert!(centre.check_turn(&bare.choose(&centre)).is_ok());
        assert!(t.elapsed() >= cap / 2, "{:?}", t.elapsed());
        assert_eq!(bare.book_turns, 0);
    }

    #[test]
    fn a_per_move_cap_is_spent_and_kept() {
        let cap = Duration::from_millis(400);
        let mut e = engine(cap, None);
        let board = middle_game();
        let t = Instant::now();
        let turn = e.choose(&board);
        let used = t.elapsed();
        assert!(board.check_turn(&turn).is_ok());
        assert!(used < cap + SLACK, "{used:?} over the cap");
        // A bare cap's unspent time is lost: the search runs to 95 % of the cap less the
        // margin (at most a quarter). A loaded machine only makes the wall time longer.
        assert!(used >= cap / 2, "only {used:?} of {cap:?} used");
    }

    #[test]
    fn time_left_overrides_the_game_budget_until_the_next_game() {
        let mut e = engine(Duration::from_secs(5), Some(Duration::from_secs(100)));
        e.set_game_left(0.4);
        let board = middle_game();
        let t = Instant::now();
        let turn = e.choose(&board);
        let used = t.elapsed();
        assert!(board.check_turn(&turn).is_ok());
        // A quarter of the 0.4 s left at most, far below the 5 s cap (and the 100 s game
        // budget's share of 5 s that ignoring `time left` would give).
        assert!(
            used < Duration::from_millis(100) + SLACK,
            "{used:?} with 0.4 s left"
        );
        assert!(e.game_left.unwrap() < Duration::from_millis(400));
        e.new_game();
        assert_eq!(e.game_left, Some(Duration::from_secs(100)));
    }

    /// Plays `turn` on a copy of `board`.
    fn after(board: &Board, turn: &Turn) -> Board {
        let mut b = board.clone();
        b.play_turn(turn).unwrap();
        b
    }

    /// A pondering engine that has played its turn in the middle game: the engine, the
    /// position the opponent is to move in, and the opponent's turn it guessed.
    fn pondering(cap: Duration) -> (Engine, Board, Turn) {
        let mut e = engine(cap, None).with_ponder(true);
        let board = middle_game();
        let ours = e.choose(&board);
        let waiting = after(&board, &ours);
        e.ponder_start(&waiting);
        let guess = e
            .ponder_guess()
            .expect("the search left the opponent's best reply");
        (e, waiting, guess)
    }

    #[test]
    fn a_right_guess_answers_from_the_ponder_search_in_time() {
        // A cap long enough that half of it covers stopping the ponder search on a loaded
        // two-core machine (457 ms seen with 600 ms), while a fresh search takes nearly all.
        let cap = Duration::from_millis(1500);
        let (mut e, waiting, guess) = pondering(cap);
        // Pondered longer than the move's own budget (the cap less 30 ms): the answer comes
        // without more search, where a fresh search would take most of the cap.
        std::thread::sleep(Duration::from_millis(1600));
        let position = after(&waiting, &guess);
        let t = Instant::now();
        let turn = e.choose(&position);
        assert!(t.elapsed() < cap / 2, "{:?}", t.elapsed());
        assert!(position.check_turn(&turn).is_ok());
        assert_eq!(e.ponder_hits, 1);
        assert!(e.ponder_guess().is_none());
    }

    #[test]
    fn a_wrong_guess_is_dropped_and_the_move_searched_in_time() {
        let cap = Duration::from_millis(300);
        let (mut e, waiting, guess) = pondering(cap);
        std::thread::sleep(Duration::from_millis(50));
        let other = crate::engine::pairs::any_legal_turn(&waiting).unwrap();
        assert_ne!(other, guess);
        let position = after(&waiting, &other);
        let t = Instant::now();
        let turn = e.choose(&position);
        assert!(t.elapsed() < cap + SLACK, "{:?}", t.elapsed());
        assert!(position.check_turn(&turn).is_ok());
        assert_eq!(e.ponder_hits, 0);
        // A new game stops pondering and the searcher is home again.
        e.ponder_start(&after(&position, &turn));
        e.new_game();
        assert!(e.ponder_guess().is_none() && e.searcher.is_some());
    }
}

//! Lazy SMP: helper threads deepen over the same root turns as the main search, on the same
//! transposition table, each with its own killers and counters. What they find reaches the
//! main search through the table, and through `Progress`: a helper never starts an
//! iteration below one past the main thread's (two threads on one iteration search the same
//! tree in the same order, and the second adds nothing), and the deepest iteration a helper
//! completes is offered to the main thread as its answer. Only the main thread keeps the
//! clock, runs the threat solver and reports; the helpers start before its threat phases
//! and fill the table meanwhile.
//!
//! Helpers are long-lived threads fed one job per search. The main search tells them to stop
//! when it is done and replies without waiting for them (a helper the scheduler keeps waiting
//! must not make the reply late); the next search waits until they are idle before it starts.

use super::tt::NO_CELL;
use super::{Control, Limits, Report, SEARCH_STACK, Searcher};
use crate::engine::pairs::Pairs;
use crate::engine::position::Position;
use crate::rules::coord::{Cell, Turn};
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What the threads of one search tell each other as they deepen.
#[derive(Default)]
pub(super) struct Progress {
    /// The iteration the main thread is on.
    main_iteration: AtomicU8,
    /// The deepest iteration a helper has completed: depth, best turn and score, packed.
    deepest: AtomicU64,
}

/// A helper's completed iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Completed {
    pub depth: u8,
    pub best: Turn,
    pub score: i32,
}

impl Progress {
    pub(super) fn main_on(&self, depth: u8) {
        self.main_iteration.store(depth, Ordering::Relaxed);
    }

    /// The first iteration worth a helper's time after it completed `done`.
    pub(super) fn next_for_helper(&self, done: u8) -> u8 {
        (done + 1).max(self.main_iteration.load(Ordering::Relaxed) + 1)
    }

    /// Records a helper's iteration if none deeper was recorded.
    pub(super) fn completed(&self, c: Completed) {
        let cell = |c: Option<Cell>| c.map_or(NO_CELL, |c| c.index() as u64);
        let packed = (c.depth as u64) << 56
            | cell(Some(c.best.first)) << 41
            | cell(c.best.second) << 32
            | c.score as u32 as u64;
        self.deepest.fetch_max(packed, Ordering::Relaxed);
    }

    pub(super) fn deepest(&self) -> Option<Completed> {
        let packed = self.deepest.load(Ordering::Relaxed);
        let depth = (packed >> 56) as u8;
        let cell = |shift: u32| match (packed >> shift) & NO_CELL {
            NO_CELL => None,
            c => Some(Cell::from_index(c as usize)),
        };
        let first = cell(41)?;
        let best = match cell(32) {
            Some(second) => Turn::two(first, second),
            None => Turn::one(first),
        };
        (depth > 0).then_some(Completed {
            depth,
            best,
            score: packed as u32 as i32,
        })
    }
}

/// One search's work for a helper.
struct Job {
    board: Position,
    root: Pairs,
    max_depth: u8,
    first: u8,
    stop: Arc<Control>,
    nodes: Arc<AtomicU64>,
    progress: Arc<Progress>,
}

/// The helpers at work on one search: how to stop them, their node counters, and what
/// they have completed.
pub(super) struct Crew {
    stop: Arc<Control>,
    counters: Vec<Arc<AtomicU64>>,
    progress: Arc<Progress>,
}

/// A helper thread and the line to it.
pub(super) struct Helper {
    jobs: Option<Sender<Job>>,
    done: Receiver<()>,
    busy: bool,
    thread: Option<JoinHandle<()>>,
}

impl Helper {
    fn spawn(mut searcher: Searcher, index: usize) -> std::io::Result<Helper> {
        let (jobs, inbox) = channel::<Job>();
        let (outbox, done) = channel();
        let thread = std::thread::Builder::new()
            .name(format!("helper {index}"))
            .stack_size(SEARCH_STACK)
            .spawn(move || {
                while let Ok(mut job) = inbox.recv() {
                    searcher.run(&mut job);
                    if outbox.send(()).is_err() {
                        break;
                    }
                }
            })?;
        Ok(Helper {
            jobs: Some(jobs),
            done,
            busy: false,
            thread: Some(thread),
        })
    }

    /// Blocks until the helper has finished its last job.
    fn wait(&mut self) {
        if self.busy {
            let _ = self.done.recv();
            self.busy = false;
        }
    }
}

impl Drop for Helper {
    fn drop(&mut self) {
        // Closing the job line ends the thread once its job (already told to stop) is over.
        self.jobs = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Searcher {
    /// Searches with `threads` threads in all (the calling one and `threads - 1` helpers).
    pub fn set_threads(&mut self, threads: usize) {
        self.helpers.clear();
        for index in 1..threads.max(1) {
            // Helpers never call the threat solver: a one-slot cache is enough.
            let mut searcher = Searcher::on_table(self.models.clone(), Arc::clone(&self.tt), 1);
            searcher.helper = true;
            match Helper::spawn(searcher, index) {
                Ok(h) => self.helpers.push(h),
                Err(e) => {
                    log::warn!("cannot start search helper {index}: {e}");
                    break;
                }
            }
        }
    }

    /// Threads searching, this one included.
    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// Waits until every helper has finished its last job (they were told to stop).
    pub(super) fn wait_for_helpers(&mut self) {
        for h in &mut self.helpers {
            h.wait();
        }
    }

    /// A helper's job: deepen until told to stop, publishing the node count as it goes.
    fn run(&mut self, job: &mut Job) {
        self.start = Instant::now();
        self.limits = Limits {
            max_depth: job.max_depth,
            soft: Duration::MAX,
            hard: Duration::MAX,
            nodes: None,
        };
        self.abort_at = Duration::MAX;
        self.nodes = 0;
        self.stopped = false;
        self.control = Arc::clone(&job.stop);
        self.published = Some(Arc::clone(&job.nodes));
        self.progress = Some(Arc::clone(&job.progress));
        let mut ignored = Report::empty(job.root[0].1);
        self.deepen(&mut job.board, &mut job.root, &mut ignored, job.first);
        job.nodes.store(self.nodes, Ordering::Relaxed);
    }

    /// Sets the helpers deepening over `root` until `stop_helpers`: they start before the
    /// threat phases, which only the main thread runs, so no core waits for the solver.
    pub(super) fn start_helpers(&mut self, board: &Position, root: &Pairs) -> Option<Crew> {
        if self.helpers.is_empty() {
            return None;
        }
        self.wait_for_helpers();
        let crew = Crew {
            progress: Arc::new(Progress::default()),
            stop: Arc::new(Control::new()),
            counters: self
                .helpers
                .iter()
                .map(|_| Arc::new(AtomicU64::new(0)))
                .collect(),
        };
        for (k, h) in self.helpers.iter_mut().enumerate() {
            let job = Job {
                board: board.clone(),
                root: root.clone(),
                max_depth: self.limits.max_depth,
                first: if k % 2 == 0 { 2 } else { 1 },
                stop: Arc::clone(&crew.stop),
                nodes: Arc::clone(&crew.counters[k]),
                progress: Arc::clone(&crew.progress),
            };
            if let Some(jobs) = &h.jobs
                && jobs.send(job).is_ok()
            {
                h.busy = true;
            }
        }
        self.progress = Some(Arc::clone(&crew.progress));
        Some(crew)
    }

    /// Tells the helpers to stop (without waiting for them), counts their nodes in, and
    /// returns the deepest iteration one of them completed.
    pub(super) fn stop_helpers(&mut self, crew: Crew) -> Option<Completed> {
        crew.stop.stop();
        self.progress = None;
        // The helpers' nodes as of their last clock reading: close enough for a report.
        let helper_nodes = crew
            .counters
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .sum::<u64>();
        log::debug!("main thread {} nodes, helpers {helper_nodes}", self.nodes);
        self.nodes += helper_nodes;
        crew.progress.deepest()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::coord::parse_cell;

    fn turn(a: &str, b: Option<&str>) -> Turn {
        let a = parse_cell(a).unwrap();
        match b {
            Some(b) => Turn::two(a, parse_cell(b).unwrap()),
            None => Turn::one(a),
        }
    }

    #[test]
    fn progress_keeps_the_deepest_completed_iteration() {
        let p = Progress::default();
        assert_eq!(p.deepest(), None);
        let shallow = Completed {
            depth: 3,
            best: turn("JJ", Some("KK")),
            score: -250,
        };
        let deep = Completed {
            depth: 5,
            best: turn("AA", None),
            score: 40,
        };
        p.completed(shallow);
        assert_eq!(p.deepest(), Some(shallow));
        p.completed(deep);
        p.completed(shallow);
        assert_eq!(p.deepest(), Some(deep));
    }

    #[test]
    fn helpers_start_past_the_main_thread() {
        let p = Progress::default();
        assert_eq!(p.next_for_helper(0), 1);
        assert_eq!(p.next_for_helper(4), 5);
        p.main_on(7);
        assert_eq!(p.next_for_helper(4), 8);
        assert_eq!(p.next_for_helper(9), 10);
    }
}

//! Lazy SMP: helper threads deepen over the same root turns as the main search, on the same
//! transposition table, each with its own killers and counters. They share nothing else;
//! what they find reaches the main search through the table. Odd helpers start one depth
//! ahead, so the threads are seldom on the same iteration. Only the main thread keeps the
//! clock, runs the threat solver and reports; the helpers start before its threat phases
//! and fill the table meanwhile.
//!
//! Helpers are long-lived threads fed one job per search. The main search tells them to stop
//! when it is done and replies without waiting for them (a helper the scheduler keeps waiting
//! must not make the reply late); the next search waits until they are idle before it starts.

use super::{Control, Limits, Report, SEARCH_STACK, Searcher};
use crate::board::Board;
use crate::pairs::Pairs;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// One search's work for a helper.
struct Job {
    board: Board,
    root: Pairs,
    max_depth: u8,
    first: u8,
    stop: Arc<Control>,
    nodes: Arc<AtomicU64>,
}

/// The helpers at work on one search: how to stop them and their node counters.
pub(super) struct Crew {
    stop: Arc<Control>,
    counters: Vec<Arc<AtomicU64>>,
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
            let mut searcher = Searcher::on_table(Arc::clone(&self.tt), 1);
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
        let mut ignored = Report::empty(job.root[0].1);
        self.deepen(&mut job.board, &mut job.root, &mut ignored, job.first);
        job.nodes.store(self.nodes, Ordering::Relaxed);
    }

    /// Sets the helpers deepening over `root` until `stop_helpers`: they start before the
    /// threat phases, which only the main thread runs, so no core waits for the solver.
    pub(super) fn start_helpers(&mut self, board: &Board, root: &Pairs) -> Option<Crew> {
        if self.helpers.is_empty() {
            return None;
        }
        self.wait_for_helpers();
        let crew = Crew {
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
            };
            if let Some(jobs) = &h.jobs
                && jobs.send(job).is_ok()
            {
                h.busy = true;
            }
        }
        Some(crew)
    }

    /// Tells the helpers to stop (without waiting for them) and counts their nodes in.
    pub(super) fn stop_helpers(&mut self, crew: Crew) {
        crew.stop.stop();
        // The helpers' nodes as of their last clock reading: close enough for a report.
        let helper_nodes = crew
            .counters
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .sum::<u64>();
        log::debug!("main thread {} nodes, helpers {helper_nodes}", self.nodes);
        self.nodes += helper_nodes;
    }
}

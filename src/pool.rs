//! The crate's one worker pool, for independent jobs that each take long (a self-play game, a
//! game's labels, a match game): self-play, labelling and the match schedule all run on it.
//!
//! The calling thread deals the jobs out, never more than one per worker ahead of the results
//! it has taken, so that a consumer that says stop (an SPRT verdict, a request from the board)
//! stops new jobs at once; the jobs in flight finish and are still handed on. Results come as
//! they finish, with their job, so that each can be saved at once; [`InOrder`] puts them back
//! in the jobs' order for a file written in order. A job that panics does not hang the run:
//! its panic is caught, no job is dealt once its failure is in, and once the jobs in flight
//! are in the run ends with [`PoolError::Panicked`].
//!
//! A leaf, like `rng`: it imports nothing from the crate, and every layer may use it.

use std::collections::BTreeMap;
use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Mutex, mpsc};

/// What the consumer wants after a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    /// Deal no more jobs; those in flight finish and are handed on.
    Stop,
}

/// Why a run ended before its last job.
#[derive(Debug, PartialEq)]
pub enum PoolError<J, E> {
    /// The consumer's error. No job is dealt after it, and the results of the jobs then in
    /// flight are dropped.
    Consumer(E),
    /// A job panicked, with the panic's message.
    Panicked { job: J, message: String },
}

impl<J: fmt::Display, E: fmt::Display> fmt::Display for PoolError<J, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PoolError::Consumer(e) => write!(f, "{e}"),
            PoolError::Panicked { job, message } => write!(f, "job {job} failed: {message}"),
        }
    }
}

impl<J: fmt::Debug + fmt::Display, E: fmt::Debug + fmt::Display> std::error::Error
    for PoolError<J, E>
{
}

/// How many workers a run of `jobs` jobs on `threads` threads starts: one per thread, at
/// least one, at most one per job.
pub fn workers(threads: usize, jobs: usize) -> usize {
    threads.max(1).min(jobs)
}

/// Runs `work(slot, job)` for the jobs, in their order, on [`workers`] threads (`slot`: the
/// worker's number, from 0), and hands each result with its job to `take` on the calling
/// thread as it finishes. Returns when every job dealt is in.
pub fn run<J, T, E>(
    threads: usize,
    jobs: impl IntoIterator<Item = J>,
    work: impl Fn(usize, J) -> T + Sync,
    mut take: impl FnMut(J, T) -> Result<Flow, E>,
) -> Result<(), PoolError<J, E>>
where
    J: Copy + Send,
    T: Send,
{
    let jobs: Vec<J> = jobs.into_iter().collect();
    let workers = workers(threads, jobs.len());
    let mut queue = jobs.into_iter();
    let (job_tx, job_rx) = mpsc::channel::<J>();
    let job_rx = Mutex::new(job_rx);
    let (done_tx, done_rx) = mpsc::channel();
    std::thread::scope(|scope| {
        for slot in 0..workers {
            let done_tx = done_tx.clone();
            let (job_rx, work) = (&job_rx, &work);
            scope.spawn(move || {
                loop {
                    // The lock is held only while waiting: idle workers take jobs in turn.
                    let job = match job_rx.lock() {
                        Ok(jobs) => jobs.recv(),
                        Err(_) => break,
                    };
                    let Ok(job) = job else { break };
                    let result = panic::catch_unwind(AssertUnwindSafe(|| work(slot, job)));
                    if done_tx.send((job, result)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(done_tx);
        // Dropping the sender ends the workers' loops once their jobs are done.
        let mut dealer = Some(job_tx);
        let mut deal = |dealer: &mut Option<mpsc::Sender<J>>| {
            let sent = match (dealer.as_ref(), queue.next()) {
                (Some(jobs), Some(job)) => jobs.send(job).is_ok(),
                _ => false,
            };
            if !sent {
                *dealer = None;
            }
        };
        for _ in 0..workers {
            deal(&mut dealer);
        }
        let mut failure = None;
        for (job, result) in done_rx {
            let flow = match result {
                Err(payload) => {
                    failure.get_or_insert(PoolError::Panicked {
                        job,
                        message: panic_message(payload.as_ref()),
                    });
                    Flow::Stop
                }
                Ok(_) if matches!(failure, Some(PoolError::Consumer(_))) => Flow::Stop,
                Ok(output) => take(job, output).unwrap_or_else(|e| {
                    failure.get_or_insert(PoolError::Consumer(e));
                    Flow::Stop
                }),
            };
            match flow {
                Flow::Continue if failure.is_none() => deal(&mut dealer),
                _ => dealer = None,
            }
        }
        failure.map_or(Ok(()), Err)
    })
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        text.to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic without a message".to_string()
    }
}

/// Results put back in the order of their indices: each is handed on once every index before
/// it has been.
#[derive(Debug)]
pub struct InOrder<T> {
    next: usize,
    waiting: BTreeMap<usize, T>,
}

impl<T> InOrder<T> {
    /// Starts at index `first`.
    pub fn new(first: usize) -> Self {
        InOrder {
            next: first,
            waiting: BTreeMap::new(),
        }
    }

    /// Takes the result of `index` (an index already handed on is a caller's bug, ignored).
    pub fn push(&mut self, index: usize, item: T) {
        debug_assert!(index >= self.next, "index {index} was handed on already");
        if index >= self.next {
            self.waiting.insert(index, item);
        }
    }

    /// The next result in order, once it is in.
    pub fn pop(&mut self) -> Option<T> {
        let item = self.waiting.remove(&self.next)?;
        self.next += 1;
        Some(item)
    }

    /// The index the next result handed on will have.
    pub fn next_index(&self) -> usize {
        self.next
    }
}

/// `--shard K/N`: part `index` (1-based) of `count` of a run's jobs, for the match's games
/// and the self-play and labelling runs alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || "expected K/N with 1 <= K <= N".to_string();
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if index < 1 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::convert::Infallible;
    use std::sync::Condvar;

    /// Later jobs finish first; `take` sees them as they finish, `InOrder` in order.
    #[test]
    fn results_come_as_they_finish_and_in_order_through_in_order() {
        // Job j may finish once 2 - j results are taken: job 2 first, then 1, then 0.
        let taken = (Mutex::new(0), Condvar::new());
        let last_first = |_, job: usize| {
            let (count, turn) = &taken;
            let guard = count.lock().unwrap();
            drop(turn.wait_while(guard, |n| *n < 2 - job).unwrap());
            job * 10
        };
        let mut finished = Vec::new();
        let mut ordered = Vec::new();
        let mut order = InOrder::new(0);
        run(3, 0..3, last_first, |job, out| {
            finished.push(job);
            order.push(job, out);
            while let Some(out) = order.pop() {
                ordered.push(out);
            }
            *taken.0.lock().unwrap() += 1;
            taken.1.notify_all();
            Ok::<_, Infallible>(Flow::Continue)
        })
        .unwrap();
        assert_eq!(finished, [2, 1, 0]);
        assert_eq!(ordered, [0, 10, 20]);
        assert_eq!(order.next_index(), 3);
    }

    #[test]
    fn every_job_runs_once_whatever_the_threads() {
        for threads in [0, 1, 2, 7, 40] {
            let mut seen = Vec::new();
            run(
                threads,
                5..25,
                |_, j: usize| j * j,
                |j, out| {
                    assert_eq!(out, j * j);
                    seen.push(j);
                    Ok::<_, Infallible>(Flow::Continue)
                },
            )
            .unwrap();
            seen.sort();
            assert_eq!(seen, (5..25).collect::<Vec<_>>(), "{threads} threads");
        }
        let none: [usize; 0] = [];
        let ran = run(
            4,
            none,
            |_, j| j,
            |_, _| -> Result<Flow, Infallible> { panic!("no job, no result") },
        );
        assert_eq!(ran, Ok(()));
    }

    #[test]
    fn workers_are_numbered_from_zero_and_no_more_than_the_jobs() {
        assert_eq!((workers(4, 2), workers(2, 9), workers(0, 3)), (2, 2, 1));
        let slots = Mutex::new(Vec::new());
        run(
            3,
            0..12,
            |slot, _: usize| slots.lock().unwrap().push(slot),
            |_, _| Ok::<_, Infallible>(Flow::Continue),
        )
        .unwrap();
        assert!(slots.into_inner().unwrap().iter().all(|&s| s < 3));
    }

    /// A stop deals no more jobs, and the jobs in flight still come in.
    #[test]
    fn a_stop_deals_no_more_jobs_and_hands_on_those_in_flight() {
        let mut taken = 0;
        run(
            2,
            0..100,
            |_, j: usize| j,
            |_, _| {
                taken += 1;
                Ok::<_, Infallible>(if taken == 3 {
                    Flow::Stop
                } else {
                    Flow::Continue
                })
            },
        )
        .unwrap();
        // Jobs 0 and 1 were dealt at the start, 2 and 3 on the first two results; the third
        // result stops the dealing, and job 3, in flight, still comes in.
        assert_eq!(taken, 4);
    }

    #[test]
    fn the_consumers_error_ends_the_run_and_later_results_are_dropped() {
        let mut taken = Vec::new();
        let ran = run(
            2,
            0..50,
            |_, j: usize| j,
            |j, _| {
                taken.push(j);
                if taken.len() == 5 {
                    Err("disk full")
                } else {
                    Ok(Flow::Continue)
                }
            },
        );
        assert_eq!(ran, Err(PoolError::Consumer("disk full")));
        assert_eq!(taken.len(), 5);
    }

    /// A panicking job is caught: the run ends with its message instead of hanging or
    /// unwinding through the caller, and the other workers' results still come in.
    #[test]
    fn a_panicking_job_ends_the_run_with_its_message() {
        let fourth_breaks = |_, j: usize| {
            if j == 4 {
                panic!("job four broke");
            }
            j
        };
        for threads in [1, 3] {
            let mut taken = Vec::new();
            let ran = run(threads, 0..30, fourth_breaks, |j, _| {
                taken.push(j);
                Ok::<_, Infallible>(Flow::Continue)
            });
            let error = ran.unwrap_err();
            let expected = PoolError::Panicked {
                job: 4,
                message: "job four broke".to_string(),
            };
            assert_eq!(error, expected, "{threads} threads");
            assert_eq!(error.to_string(), "job 4 failed: job four broke");
            // The jobs dealt before job 4 finish and come in; on one worker, job 4's failure
            // is in before the next job would be dealt. (On more, the other workers go on
            // taking jobs while the panic is reported.)
            assert!(!taken.contains(&4));
            assert!((0..4).all(|j| taken.contains(&j)), "{taken:?}");
            if threads == 1 {
                assert_eq!(taken, [0, 1, 2, 3]);
            }
        }
        // Every worker panicking at once does not hang either.
        let all = run(
            2,
            0..4,
            |_, _: usize| -> usize { panic!("{}", String::from("all")) },
            |_, _| Ok::<_, Infallible>(Flow::Continue),
        );
        assert!(matches!(all, Err(PoolError::Panicked { message, .. }) if message == "all"));
    }
}

//! The search's own clock: when to stop an iteration, when to abort, and what the control
//! says from another thread.

use super::Searcher;
use super::time::{STABLE_ITERATIONS, STABLE_SHARE};
use std::time::{Duration, Instant};

/// How often (in nodes) the clock is read.
const CLOCK_INTERVAL: u64 = 128;

impl Searcher {
    /// Sets the main search's limits, counted from `offset` after the search began.
    pub(super) fn set_clock(&mut self, offset: Duration, soft: Duration, hard: Duration) {
        self.limits.soft = offset.saturating_add(soft);
        self.limits.hard = offset.saturating_add(hard);
        self.clock_offset = offset;
        self.place_main_stop();
    }

    /// Keeps `share` of the hard limit (more than the usual reserve) for checking the chosen
    /// turn after the main search: the main search stops that much sooner, never later. A
    /// search still pondering takes the share when its clock starts.
    pub(super) fn keep_for_checking(&mut self, share: f64) {
        self.checking_share = self.checking_share.max(share);
        self.place_main_stop();
    }

    /// The main search's stop: the hard limit less the share of it kept for checking.
    fn place_main_stop(&mut self) {
        let hard = self.limits.hard;
        self.abort_at = match hard {
            Duration::MAX => Duration::MAX,
            hard => {
                let span = hard.saturating_sub(self.clock_offset);
                hard - span.mul_f64(self.checking_share)
            }
        };
    }

    /// Whether the search has used the time it is meant to: the soft limit, stretched while
    /// the best turn has just changed or the score is falling, shortened once one turn has
    /// stayed best for several iterations when the time saved goes to later moves.
    pub(super) fn elapsed_past_soft(&mut self, stable: u32, falling: bool) -> bool {
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

    pub(super) fn out_of_time(&mut self) -> bool {
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

    /// Counts a leaf read without placing its turn as a node, with the clock reading a
    /// search of it would have made.
    pub(super) fn count_leaf(&mut self) {
        self.nodes += 1;
        self.out_of_time();
    }
}

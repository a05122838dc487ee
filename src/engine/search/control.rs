//! What one thread may tell another's running search: stop now, or (for a search begun on
//! the opponent's time) that its guess came true and the real clock starts.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What another thread may tell a running search: stop now, or (for a search started on
/// the opponent's time) that its guess came true and the real clock starts.
pub struct Control {
    stop: AtomicBool,
    /// Nanoseconds after `epoch` when the ponder search became the real one; `NOT_YET`.
    hit: AtomicU64,
    soft: AtomicU64,
    hard: AtomicU64,
    epoch: Instant,
}

const NOT_YET: u64 = u64::MAX;

impl Control {
    pub fn new() -> Control {
        Control {
            stop: AtomicBool::new(false),
            hit: AtomicU64::new(NOT_YET),
            soft: AtomicU64::new(0),
            hard: AtomicU64::new(0),
            epoch: Instant::now(),
        }
    }

    /// Ends the search as soon as it next reads its clock (its best turn so far is kept).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Release);
    }

    /// A ponder search becomes the search for the real move, begun `at`: `hard` counts from
    /// `at`, `soft` from the start of the ponder search (time pondered counts as spent).
    pub fn hit(&self, at: Instant, soft: Duration, hard: Duration) {
        let nanos = |d: Duration| d.as_nanos().min(NOT_YET as u128 - 1) as u64;
        self.soft.store(nanos(soft), Ordering::Relaxed);
        self.hard.store(nanos(hard), Ordering::Relaxed);
        let at = nanos(at.saturating_duration_since(self.epoch));
        self.hit.store(at, Ordering::Release);
    }

    pub(crate) fn stopped(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }

    /// The real clock, as an offset from `start` and the limits counted from there.
    pub(crate) fn hit_clock(&self, start: Instant) -> Option<(Duration, Duration, Duration)> {
        let hit = self.hit.load(Ordering::Acquire);
        if hit == NOT_YET {
            return None;
        }
        let at = self.epoch + Duration::from_nanos(hit);
        Some((
            at.saturating_duration_since(start),
            Duration::from_nanos(self.soft.load(Ordering::Relaxed)),
            Duration::from_nanos(self.hard.load(Ordering::Relaxed)),
        ))
    }
}

impl Default for Control {
    fn default() -> Self {
        Control::new()
    }
}

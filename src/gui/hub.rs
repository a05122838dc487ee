//! The server's one state: the three modes behind a lock, with a version number that every
//! change bumps. Pages follow it through server-sent events, so a reload or a second tab
//! shows the same game: nothing of a game lives in the browser.

use super::play::Play;
use super::review::Review;
use super::watch::Watch;
use serde_json::{Value, json};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

#[derive(Default)]
pub struct Modes {
    pub play: Play,
    pub watch: Watch,
    pub review: Review,
}

impl Modes {
    fn view(&self, version: u64) -> Value {
        json!({
            "version": version,
            "play": self.play.view(),
            "watch": self.watch.view(),
            "review": self.review.view(),
        })
    }
}

#[derive(Default)]
pub struct Hub {
    state: Mutex<(u64, Modes)>,
    changed: Condvar,
}

impl Hub {
    /// The state, locked. A thread that panicked while holding it leaves data that is still
    /// whole (every change is applied after it is checked), so the poison is set aside.
    fn lock(&self) -> MutexGuard<'_, (u64, Modes)> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs `change` on the state; the version moves on and followers are woken.
    pub fn update<T>(&self, change: impl FnOnce(&mut Modes) -> T) -> T {
        let mut guard = self.lock();
        let out = change(&mut guard.1);
        guard.0 += 1;
        self.changed.notify_all();
        out
    }

    /// Runs a request that may be refused: only an accepted one moves the version on, so a
    /// refused request leaves the state exactly as it was, version and all.
    pub fn apply<T, E>(&self, change: impl FnOnce(&mut Modes) -> Result<T, E>) -> Result<T, E> {
        let mut guard = self.lock();
        let out = change(&mut guard.1)?;
        guard.0 += 1;
        self.changed.notify_all();
        Ok(out)
    }

    /// Reads the state without changing it.
    pub fn read<T>(&self, look: impl FnOnce(&Modes) -> T) -> T {
        look(&self.lock().1)
    }

    /// The current version and the whole state as the page reads it.
    pub fn snapshot(&self) -> (u64, Value) {
        let guard = self.lock();
        (guard.0, guard.1.view(guard.0))
    }

    /// Waits until the version differs from `seen`, at most `timeout`; the new snapshot, or
    /// `None` when nothing changed.
    pub fn wait_change(&self, seen: u64, timeout: Duration) -> Option<(u64, Value)> {
        let guard = self.lock();
        let (guard, _) = self
            .changed
            .wait_timeout_while(guard, timeout, |s| s.0 == seen)
            .unwrap_or_else(|p| p.into_inner());
        (guard.0 != seen).then(|| (guard.0, guard.1.view(guard.0)))
    }
}

//! One played game as the statistics see it: who played black, the outcome, a fault, each
//! engine's thinking time; and the pairs of games that play one opening with colours swapped.
//! Records and JSON summaries carry exactly this, so `connect6 stats` rebuilds a summary
//! from them.

use super::elo::Pentanomial;
use super::game::Outcome;
use crate::record::Fault;
use crate::rules::board::Color;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// One engine's thinking in one game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeUse {
    pub moves: usize,
    /// Total reply time in microseconds.
    pub total_us: u64,
    /// Longest reply in microseconds.
    pub max_us: u64,
    /// The first `open_moves` replies, made before the winner's final forcing line, and
    /// their total time in microseconds. (Absent from summaries written before they were
    /// counted: read as none.)
    #[serde(default)]
    pub open_moves: usize,
    #[serde(default)]
    pub open_us: u64,
}

impl TimeUse {
    /// From reply times, of which the first `open` were made while the game was open; each
    /// is truncated to whole microseconds.
    pub fn of(times: &[Duration], open: usize) -> TimeUse {
        let us: Vec<u64> = times.iter().map(|t| t.as_micros() as u64).collect();
        TimeUse::of_micros(&us, open)
    }

    pub fn of_micros(us: &[u64], open: usize) -> TimeUse {
        let open = open.min(us.len());
        TimeUse {
            moves: us.len(),
            total_us: us.iter().sum(),
            max_us: us.iter().copied().max().unwrap_or(0),
            open_moves: open,
            open_us: us[..open].iter().sum(),
        }
    }

    pub(super) fn add(&mut self, other: TimeUse) {
        self.moves += other.moves;
        self.total_us += other.total_us;
        self.max_us = self.max_us.max(other.max_us);
        self.open_moves += other.open_moves;
        self.open_us += other.open_us;
    }
}

/// One game as the summary sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameEntry {
    /// 1-based game number in the match's schedule.
    pub game: usize,
    /// 1-based number of the opening in the openings file, if any.
    pub opening: Option<usize>,
    /// The engine that played black (0 = A, 1 = B).
    pub black: usize,
    pub outcome: Outcome,
    pub fault: Option<Fault>,
    /// Thinking by engine (A, B).
    pub time: [TimeUse; 2],
    /// The game's moves as `repeats::fingerprint`; `None` when not known (a summary
    /// written before it was kept).
    pub moves: Option<u64>,
}

impl GameEntry {
    pub(super) fn engine_of(&self, color: Color) -> usize {
        if color == Color::Black {
            self.black
        } else {
            1 - self.black
        }
    }

    /// A's points in this game.
    pub fn points_a(&self) -> f64 {
        match self.outcome {
            Outcome::Draw => 0.5,
            Outcome::Win(c) if self.engine_of(c) == 0 => 1.0,
            Outcome::Win(_) => 0.0,
        }
    }
}

/// The complete pairs among `entries` (sorted by game number): games 2k-1 and 2k, which
/// play one opening with the colours swapped.
pub fn complete_pairs(entries: &[GameEntry]) -> impl Iterator<Item = (&GameEntry, &GameEntry)> {
    entries
        .windows(2)
        .filter(|w| w[0].game % 2 == 1 && w[1].game == w[0].game + 1)
        .map(|w| (&w[0], &w[1]))
}

/// Pentanomial counts of the complete pairs among `entries` (sorted by game number).
pub fn pairs_of(entries: &[GameEntry]) -> Pentanomial {
    let mut p = Pentanomial::default();
    for (a, b) in complete_pairs(entries) {
        let points = a.points_a() + b.points_a();
        p.counts[(2.0 * points).round() as usize] += 1;
    }
    p
}

//! Games that repeat an earlier game move for move.
//!
//! Engines that search to a clock are nearly deterministic: the same opening with the same
//! engines on the same colours is often played to the very same end. A repeat adds a game to
//! the count but no evidence, so a match that plays each opening several times (more games
//! than twice the openings) reports intervals narrower than its evidence. The summary says
//! how many games and pairs were distinct, and what the pairs say when each distinct pair is
//! counted once.

use super::elo::Pentanomial;
use super::entry::{GameEntry, complete_pairs};
use crate::rules::board::Color;
use crate::rules::coord::Cell;
use fxhash::FxHashSet;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::hash::Hasher;

/// Identifies a game's moves: every stone in order, the opening's included.
pub fn fingerprint(stones: &[(Color, Cell)]) -> u64 {
    let mut h = fxhash::FxHasher64::default();
    for &(color, cell) in stones {
        h.write_u8(color.index() as u8);
        h.write_u16(cell.index() as u16);
    }
    h.write_usize(stones.len());
    h.finish()
}

/// How many games and complete pairs were distinct, among those whose moves are known.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Repeats {
    /// Games with known moves (summaries written before moves were kept have none).
    pub games: usize,
    pub distinct_games: usize,
    /// Complete pairs whose two games' moves are known.
    pub pairs: usize,
    pub distinct_pairs: usize,
    /// Pentanomial counts (A's points 0/0.5/1/1.5/2) of the distinct pairs, each once.
    pub distinct_counts: [usize; 5],
}

impl Repeats {
    /// Counts `entries`, sorted by game number (as a summary keeps them).
    pub fn of(entries: &[GameEntry]) -> Repeats {
        let mut r = Repeats::default();
        let mut games = FxHashSet::default();
        for g in entries {
            if let Some(moves) = g.moves {
                r.games += 1;
                // The same moves with the engines on the other colours are another game.
                r.distinct_games += usize::from(games.insert((g.black, moves)));
            }
        }
        let mut pairs = FxHashSet::default();
        for (a, b) in complete_pairs(entries) {
            let (Some(x), Some(y)) = (a.moves, b.moves) else {
                continue;
            };
            r.pairs += 1;
            if pairs.insert((a.black, x, y)) {
                r.distinct_pairs += 1;
                let points = a.points_a() + b.points_a();
                r.distinct_counts[(2.0 * points).round() as usize] += 1;
            }
        }
        r
    }

    /// The distinct pairs, each counted once.
    pub fn distinct(&self) -> Pentanomial {
        Pentanomial {
            counts: self.distinct_counts,
        }
    }

    /// One line for the match summary; `None` when no game's moves are known.
    pub fn line(&self) -> Option<String> {
        if self.games == 0 {
            return None;
        }
        if self.distinct_games == self.games {
            return Some(format!("Repeats: none ({} distinct game(s))", self.games));
        }
        let mut out = format!(
            "Repeats: {} distinct of {} game(s), {} distinct of {} pair(s) (the rest repeat an \
             earlier one move for move)",
            self.distinct_games, self.games, self.distinct_pairs, self.pairs
        );
        if let Some(e) = self.distinct().elo() {
            let _ = write!(
                out,
                "; each distinct pair once: Elo {}, 95% interval {}",
                super::elo::text_num(e.diff),
                super::elo::interval_text(&e)
            );
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::entry::TimeUse;
    use crate::arena::game::Outcome;

    fn entry(game: usize, moves: Option<u64>, winner: Color) -> GameEntry {
        GameEntry {
            game,
            opening: Some(1),
            black: (game + 1) % 2,
            outcome: Outcome::Win(winner),
            fault: None,
            time: [TimeUse::default(); 2],
            moves,
        }
    }

    #[test]
    fn the_same_moves_on_the_same_colours_count_once() {
        use Color::{Black, White};
        let entries = vec![
            entry(1, Some(10), Black),
            entry(2, Some(20), Black),
            // Games 3 and 4 repeat 1 and 2; game 5 has game 2's moves with A as black.
            entry(3, Some(10), Black),
            entry(4, Some(20), Black),
            entry(5, Some(20), White),
            entry(6, Some(30), Black),
            // Unknown moves are left out.
            entry(7, None, Black),
            entry(8, None, White),
        ];
        let r = Repeats::of(&entries);
        assert_eq!((r.games, r.distinct_games), (6, 4));
        assert_eq!((r.pairs, r.distinct_pairs), (3, 2));
        // A is black in odd games. Pair 1-2: A won game 1 and lost game 2, 1 point; its
        // repeat 3-4 is not counted again. Pair 5-6: A lost both, 0 points.
        assert_eq!(r.distinct_counts, [1, 0, 1, 0, 0]);
        let line = r.line().unwrap();
        assert!(line.starts_with("Repeats: 4 distinct of 6 game(s), 2 distinct of 3 pair(s)"));
    }

    #[test]
    fn no_repeats_and_no_moves() {
        let entries = vec![
            entry(1, Some(1), Color::Black),
            entry(2, Some(2), Color::White),
        ];
        let r = Repeats::of(&entries);
        assert_eq!(r.line().unwrap(), "Repeats: none (2 distinct game(s))");
        let unknown = vec![entry(1, None, Color::Black)];
        assert_eq!(Repeats::of(&unknown).line(), None);
    }

    #[test]
    fn fingerprints_tell_orders_and_colours_apart() {
        let (a, b) = (Cell::CENTER, Cell::CENTER.offset(1, 0, 1).unwrap());
        let one = fingerprint(&[(Color::Black, a), (Color::White, b)]);
        assert_eq!(one, fingerprint(&[(Color::Black, a), (Color::White, b)]));
        assert_ne!(one, fingerprint(&[(Color::Black, b), (Color::White, a)]));
        assert_ne!(one, fingerprint(&[(Color::White, a), (Color::Black, b)]));
        assert_ne!(one, fingerprint(&[(Color::Black, a)]));
    }
}

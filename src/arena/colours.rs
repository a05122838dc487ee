//! How much the colour, not the engines, decided a match: who won as black and as white,
//! overall and per opening, and how many game pairs were colour-decided.
//!
//! A pair (games `2k-1` and `2k`) plays one opening with the colours swapped. When the same
//! colour wins both games, each engine won with that colour and lost with the other: the
//! pair scores 1-1 and says nothing about which engine is stronger. Between two equal
//! engines on an opening that either colour can win, half the pairs are colour-decided by
//! chance; an opening that one colour always wins makes every pair so. The share of
//! colour-decided pairs therefore tells how much of a match's games an openings file wastes,
//! and the per-opening counts (`stats --by-opening`) tell which openings waste them.

use super::entry::{GameEntry, complete_pairs};
use super::game::Outcome;
use crate::rules::board::Color;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// Results by colour over some games, and their complete pairs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ColourCounts {
    pub black_wins: usize,
    pub white_wins: usize,
    pub draws: usize,
    /// Complete pairs (both games of an opening's colour swap).
    pub pairs: usize,
    /// Pairs whose two games the same colour won.
    pub colour_decided: usize,
}

impl ColourCounts {
    pub fn games(&self) -> usize {
        self.black_wins + self.white_wins + self.draws
    }

    /// Black's share of the decisive games; `None` without one.
    pub fn black_share(&self) -> Option<f64> {
        let decisive = self.black_wins + self.white_wins;
        (decisive > 0).then(|| self.black_wins as f64 / decisive as f64)
    }

    /// The colour-decided share of the complete pairs; `None` without one.
    pub fn decided_share(&self) -> Option<f64> {
        (self.pairs > 0).then(|| self.colour_decided as f64 / self.pairs as f64)
    }

    fn add_game(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Win(Color::Black) => self.black_wins += 1,
            Outcome::Win(Color::White) => self.white_wins += 1,
            Outcome::Draw => self.draws += 1,
        }
    }

    fn add_pair(&mut self, first: Outcome, second: Outcome) {
        self.pairs += 1;
        if matches!((first, second), (Outcome::Win(a), Outcome::Win(b)) if a == b) {
            self.colour_decided += 1;
        }
    }
}

/// The counts of one opening (1-based, as in the openings file).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningColours {
    pub opening: usize,
    #[serde(flatten)]
    pub counts: ColourCounts,
}

/// Colour results of a match: overall, and per opening when the games had openings.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Colours {
    #[serde(flatten)]
    pub total: ColourCounts,
    /// By opening number, ascending; empty for a match without openings.
    pub openings: Vec<OpeningColours>,
}

impl Colours {
    /// Counts `entries`, which must be sorted by game number (as a summary keeps them).
    pub fn of(entries: &[GameEntry]) -> Colours {
        let mut colours = Colours::default();
        let mut by_opening = std::collections::BTreeMap::<usize, ColourCounts>::new();
        for g in entries {
            colours.total.add_game(g.outcome);
            if let Some(o) = g.opening {
                by_opening.entry(o).or_default().add_game(g.outcome);
            }
        }
        for (a, b) in complete_pairs(entries) {
            colours.total.add_pair(a.outcome, b.outcome);
            if let Some(o) = a.opening.filter(|&o| b.opening == Some(o)) {
                by_opening
                    .entry(o)
                    .or_default()
                    .add_pair(a.outcome, b.outcome);
            }
        }
        colours.openings = by_opening
            .into_iter()
            .map(|(opening, counts)| OpeningColours { opening, counts })
            .collect();
        colours
    }

    /// One line for the match summary.
    pub fn line(&self) -> String {
        let t = &self.total;
        let mut out = format!(
            "Colours: black won {}, white {}, drawn {} of {} game(s)",
            t.black_wins,
            t.white_wins,
            t.draws,
            t.games()
        );
        if let Some(share) = t.black_share() {
            let _ = write!(out, " (black {:.1}% of the decisive)", 100.0 * share);
        }
        if let Some(share) = t.decided_share() {
            let _ = write!(
                out,
                "; {} of {} pair(s) colour-decided ({:.1}%: the same colour won both games)",
                t.colour_decided,
                t.pairs,
                100.0 * share
            );
        }
        out
    }

    /// A line per opening: its games by colour and its colour-decided pairs, with the
    /// opening's text when `texts` (the openings file's lines, in order) has it.
    pub fn table(&self, texts: &[String]) -> String {
        let mut out = String::new();
        if self.openings.is_empty() {
            out.push_str("By opening: no game had an opening\n");
            return out;
        }
        out.push_str(
            "By opening: games won by black, by white, drawn; colour-decided of complete pairs\n",
        );
        out.push_str("  opening  black  white  drawn  decided  pairs  turns\n");
        for o in &self.openings {
            let c = &o.counts;
            let text = o.opening.checked_sub(1).and_then(|i| texts.get(i));
            let text = text.map_or("", String::as_str);
            let line = format!(
                "  {:>7}  {:>5}  {:>5}  {:>5}  {:>7}  {:>5}  {text}",
                o.opening, c.black_wins, c.white_wins, c.draws, c.colour_decided, c.pairs
            );
            let _ = writeln!(out, "{}", line.trim_end());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::entry::TimeUse;

    fn entry(game: usize, opening: Option<usize>, winner: Option<Color>) -> GameEntry {
        GameEntry {
            game,
            opening,
            black: (game + 1) % 2,
            outcome: winner.map_or(Outcome::Draw, Outcome::Win),
            fault: None,
            time: [TimeUse::default(); 2],
            moves: None,
        }
    }

    #[test]
    fn pairs_won_by_one_colour_are_colour_decided() {
        use Color::{Black, White};
        let entries = [
            // Opening 1: black wins both (decided), then black and white (not).
            entry(1, Some(1), Some(Black)),
            entry(2, Some(1), Some(Black)),
            entry(3, Some(1), Some(Black)),
            entry(4, Some(1), Some(White)),
            // Opening 2: white wins both (decided), then a draw and a win (not).
            entry(5, Some(2), Some(White)),
            entry(6, Some(2), Some(White)),
            entry(7, Some(2), None),
            entry(8, Some(2), Some(White)),
            // Opening 3: a lone game, no pair.
            entry(9, Some(3), Some(Black)),
        ];
        let c = Colours::of(&entries);
        assert_eq!(
            c.total,
            ColourCounts {
                black_wins: 4,
                white_wins: 4,
                draws: 1,
                pairs: 4,
                colour_decided: 2
            }
        );
        let per: Vec<_> = c
            .openings
            .iter()
            .map(|o| {
                (
                    o.opening,
                    o.counts.games(),
                    o.counts.pairs,
                    o.counts.colour_decided,
                )
            })
            .collect();
        assert_eq!(per, [(1, 4, 2, 1), (2, 4, 2, 1), (3, 1, 0, 0)]);
        assert_eq!(c.total.black_share(), Some(0.5));
        assert_eq!(c.total.decided_share(), Some(0.5));
        let line = c.line();
        assert!(
            line.contains("black won 4, white 4, drawn 1 of 9"),
            "{line}"
        );
        assert!(
            line.contains("2 of 4 pair(s) colour-decided (50.0%"),
            "{line}"
        );
        let texts = ["JJ KKKL".to_string(), "JJ IIHH".to_string()];
        let table = c.table(&texts);
        let rows: Vec<Vec<&str>> = table
            .lines()
            .skip(2)
            .map(|l| l.split_whitespace().collect())
            .collect();
        assert_eq!(
            rows,
            [
                vec!["1", "3", "1", "0", "1", "2", "JJ", "KKKL"],
                vec!["2", "0", "3", "1", "1", "2", "JJ", "IIHH"],
                // No text for opening 3.
                vec!["3", "1", "0", "0", "0", "0"],
            ],
            "{table}"
        );
    }

    #[test]
    fn games_without_openings_count_overall_only() {
        let entries = [
            entry(1, None, Some(Color::Black)),
            entry(2, None, Some(Color::Black)),
        ];
        let c = Colours::of(&entries);
        assert_eq!((c.total.pairs, c.total.colour_decided), (1, 1));
        assert!(c.openings.is_empty());
        assert!(c.table(&[]).contains("no game had an opening"));
        assert_eq!(
            Colours::of(&[]).line(),
            "Colours: black won 0, white 0, drawn 0 of 0 game(s)"
        );
    }
}

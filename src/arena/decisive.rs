//! Where a finished game was decided, for time use in the open part of a game.
//!
//! A Connect6 game between engines usually ends in a forcing line: the winner makes a threat
//! (four or more of its stones in a window the loser has not blocked) turn after turn, and the
//! loser can only block until it runs out of answers. Once the winner has seen that line, both
//! sides' replies are decided in advance and rightly quick; time management is about the
//! replies before it. The winner's *final attack* is its last unbroken run of threatening
//! turns, ending with the winning turn; a reply counts as *open* when it came before the first
//! turn of that run. Games without a winner (draws) are open to the end.

use super::game::Outcome;
use crate::rules::board::{Color, Stones};
use crate::rules::coord::Cell;

/// Index into `stones` of the first stone of the winner's final attack, or `stones.len()`
/// when the game was not won on the board (a draw, or a fault before any threat).
pub fn final_attack(stones: &[(Color, Cell)], outcome: Outcome) -> usize {
    let Outcome::Win(winner) = outcome else {
        return stones.len();
    };
    let starts = turn_starts(stones);
    let mut board = Stones::new();
    // (first stone index, whether the winner threatened after it) of each winner turn.
    let mut winner_turns = Vec::new();
    for (t, &start) in starts.iter().enumerate() {
        let end = starts.get(t + 1).copied().unwrap_or(stones.len());
        for &(color, cell) in &stones[start..end] {
            board.place(cell, color);
        }
        if stones[start].0 == winner {
            winner_turns.push((start, board.has_threat_window(winner)));
        }
    }
    winner_turns
        .iter()
        .rev()
        .take_while(|&&(_, threat)| threat)
        .last()
        .map_or(stones.len(), |&(first, _)| first)
}

/// Index of the first stone of every turn: turns are runs of one colour.
fn turn_starts(stones: &[(Color, Cell)]) -> Vec<usize> {
    (0..stones.len())
        .filter(|&i| i == 0 || stones[i - 1].0 != stones[i].0)
        .collect()
}

/// How many of `color`'s `replies` (in order) came before `attack` (a stone index from
/// [`final_attack`]). Replies are the colour's last turns on the board (an opening's turns
/// come first and are no replies); a reply with no stones on the board (a fault) is open only
/// when there is no final attack.
pub fn open_replies(
    stones: &[(Color, Cell)],
    color: Color,
    replies: usize,
    attack: usize,
) -> usize {
    let starts: Vec<usize> = turn_starts(stones)
        .into_iter()
        .filter(|&i| stones[i].0 == color)
        .collect();
    let first_reply = starts.len().saturating_sub(replies);
    (0..replies)
        .filter(|&r| match starts.get(first_reply + r) {
            Some(&start) => start < attack,
            None => attack == stones.len(),
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::coord::parse_cell;

    /// Stones of protocol turns, alternating from black's single first stone.
    fn stones(turns: &str) -> Vec<(Color, Cell)> {
        let mut out = Vec::new();
        for (t, turn) in turns.split_whitespace().enumerate() {
            let color = if t % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            for k in (0..turn.len()).step_by(2) {
                out.push((color, parse_cell(&turn[k..k + 2]).unwrap()));
            }
        }
        out
    }

    // Black builds from JJ; white plays far away (never four in a window) until it must block.
    // Turns: 0 JJ | 1 AASA | 2 KJLJ | 3 ACSC | 4 MJNJ (five: a threat) | 5 OJIJ (blocks both
    // ends) | 6 JKJL (quiet) | 7 AESE | 8 JMJN (five the other way: a threat) | 9 AGSG
    // (ignores it) | 10 JOJP (seven, a win).
    const GAME: &str = "JJ AASA KJLJ ACSC MJNJ OJIJ JKJL AESE JMJN AGSG JOJP";

    #[test]
    fn the_final_attack_is_the_winners_last_run_of_threats() {
        let s = stones(GAME);
        let win = Outcome::Win(Color::Black);
        // Turn 8 starts the run (turn 6 threatened nothing): stone index 1+2*7 = 15.
        assert_eq!(final_attack(&s, win), 15);
        // A draw, or a white win, has no final attack of black's.
        assert_eq!(final_attack(&s, Outcome::Draw), s.len());
        assert_eq!(final_attack(&s, Outcome::Win(Color::White)), s.len());
    }

    #[test]
    fn replies_before_the_attack_are_open() {
        let s = stones(GAME);
        let attack = final_attack(&s, Outcome::Win(Color::Black));
        // Black replied on all 6 turns: JJ .. JKJL (4 turns) came before turn 8.
        assert_eq!(open_replies(&s, Color::Black, 6, attack), 4);
        // White replied on all 5 turns: AAAB .. AEAF (4) came before it.
        assert_eq!(open_replies(&s, Color::White, 5, attack), 4);
        // With an opening of the first three turns, black's replies are its last four turns.
        assert_eq!(open_replies(&s, Color::Black, 4, attack), 2);
        // A timed reply that never reached the board (a fault) is not open after an attack,
        assert_eq!(open_replies(&s, Color::White, 6, attack), 4);
        // but is in a game without one.
        assert_eq!(open_replies(&s, Color::White, 6, s.len()), 6);
    }
}

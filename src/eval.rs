//! Static evaluation from line-pattern counts, for the side to move.

use crate::board::{Board, Color};
use crate::tunables::{TO_MOVE_PATTERN, WAITING_PATTERN};

/// Scores beyond this are wins or losses found by search, not evaluations.
pub const WIN: i32 = 1_000_000;
pub const WIN_BOUND: i32 = WIN - 1000;

/// Evaluation of a quiet position for `me`, the side to move.
pub fn evaluate(board: &Board, me: Color) -> i32 {
    let mine = board.pattern_counts(me);
    let theirs = board.pattern_counts(me.other());
    let mut score = 0;
    for p in 0..mine.len() {
        score += TO_MOVE_PATTERN[p] * mine[p] as i32 - WAITING_PATTERN[p] * theirs[p] as i32;
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coord::parse_cell;

    #[test]
    fn shapes_count_for_their_owner() {
        let mut b = Board::new();
        for s in ["JJ", "KJ", "LJ"] {
            b.place(parse_cell(s).unwrap(), Color::Black);
        }
        b.place(parse_cell("AA").unwrap(), Color::White);
        assert!(evaluate(&b, Color::Black) > 0);
        assert!(evaluate(&b, Color::White) < 0);
        // The side to move makes more of the same shapes.
        assert!(evaluate(&b, Color::Black) > -evaluate(&b, Color::White));
    }
}

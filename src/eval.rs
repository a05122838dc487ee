//! Static evaluation for the side to move: line-pattern counts, and the six-cell windows
//! each side holds alone.

use crate::board::{Board, Color};
use crate::geometry::WINDOW;
use crate::tunables::{TO_MOVE_PATTERN, TO_MOVE_WINDOW, WAITING_PATTERN, WAITING_WINDOW};

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
    score + window_term(board.pure_windows(me), board.pure_windows(me.other()))
}

/// The windows' part of the evaluation, from the pure-window counts (`Stones::pure_windows`)
/// of the side to move and of the waiting side.
pub fn window_term(mine: &[u16; WINDOW + 1], theirs: &[u16; WINDOW + 1]) -> i32 {
    (0..=WINDOW)
        .map(|k| TO_MOVE_WINDOW[k] * mine[k] as i32 - WAITING_WINDOW[k] * theirs[k] as i32)
        .sum()
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

    #[test]
    fn room_to_grow_counts() {
        // One stone each: the same patterns (none in every direction), but the centre stone
        // lies in 24 open windows and the corner stone in 3.
        let mut b = Board::new();
        b.place(parse_cell("JJ").unwrap(), Color::Black);
        b.place(parse_cell("AA").unwrap(), Color::White);
        assert_eq!(
            b.pattern_counts(Color::Black),
            b.pattern_counts(Color::White)
        );
        assert_eq!(b.pure_windows(Color::Black)[1], 24);
        assert_eq!(b.pure_windows(Color::White)[1], 3);
        assert!(evaluate(&b, Color::Black) > 0);
        assert!(evaluate(&b, Color::White) < 0);
    }
}

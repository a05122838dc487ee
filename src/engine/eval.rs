//! Static evaluation for the side to move: line-pattern counts, and the six-cell windows
//! each side holds alone.

use crate::engine::tunables::{TO_MOVE_PATTERN, TO_MOVE_WINDOW, WAITING_PATTERN, WAITING_WINDOW};
use crate::rules::board::{Board, Color, THREAT_STONES};
use crate::rules::coord::Cell;
use crate::rules::geometry::WINDOW;
use crate::rules::patterns::PATTERN_COUNT;

/// Scores beyond this are wins or losses found by search, not evaluations.
pub const WIN: i32 = 1_000_000;
pub const WIN_BOUND: i32 = WIN - 1000;

/// Evaluation of a quiet position for `me`, the side to move.
pub fn evaluate(board: &Board, me: Color) -> i32 {
    let them = me.other();
    pattern_term(board.pattern_counts(me), board.pattern_counts(them))
        + window_term(
            board.as_stones().pure_windows(me),
            board.as_stones().pure_windows(them),
        )
}

/// `evaluate` for the side to move after `color` places stones on the empty cells `a` and
/// `b` (the whole turn), read without placing them; `None` when the turn makes a threat
/// window or a six for `color`, and the position after it is not quiet. `color` must hold
/// no threat window before.
pub fn evaluate_after(board: &Board, a: Cell, b: Cell, color: Color) -> Option<i32> {
    let (mover, waiting) = (color.other(), color);
    let windows = window_term(
        board.as_stones().pure_windows(mover),
        board.as_stones().pure_windows(waiting),
    ) + board
        .as_stones()
        .sum_windows_after(a, b, color, window_change)?;
    let counts = board.pattern_counts_after(a, b, color);
    let score = pattern_term(&counts[mover.index()], &counts[waiting.index()]) + windows;
    #[cfg(debug_assertions)]
    if crate::rules::board::debug_sample() {
        let mut placed = board.clone();
        placed.place(a, color);
        placed.place(b, color);
        assert_eq!(score, evaluate(&placed, mover), "{a} {b} after {color}");
    }
    Some(score)
}

/// What `added` stones of the waiting side in a window holding `mine` of its own and
/// `theirs` of the side to move's change in `window_term`; `None` when they make the
/// window a threat.
#[inline]
fn window_change(mine: u8, theirs: u8, added: u8) -> Option<i32> {
    let (mine, theirs) = (mine as usize, theirs as usize);
    if theirs == 0 {
        let now = mine + added as usize;
        if now >= THREAT_STONES as usize {
            return None;
        }
        // A window with no stone is in no pure-window count, whatever the table's first
        // entry says.
        let before = if mine == 0 { 0 } else { WAITING_WINDOW[mine] };
        Some(before - WAITING_WINDOW[now])
    } else if mine == 0 {
        // The mover's window is spoilt.
        Some(-TO_MOVE_WINDOW[theirs])
    } else {
        Some(0)
    }
}

/// The patterns' part of the evaluation, from the pattern counts of the side to move and of
/// the waiting side.
fn pattern_term(mine: &[u16; PATTERN_COUNT], theirs: &[u16; PATTERN_COUNT]) -> i32 {
    (0..PATTERN_COUNT)
        .map(|p| TO_MOVE_PATTERN[p] * mine[p] as i32 - WAITING_PATTERN[p] * theirs[p] as i32)
        .sum()
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
    use crate::rules::coord::{Cell, parse_cell};

    /// The board's pattern counts and the evaluation of a turn read without placing it
    /// agree with placing it, on random dense boards.
    #[test]
    fn counts_and_score_after_a_turn_match_the_placed_turn() {
        let mut rng = crate::rng::Rng::new(7);
        let mut checked = 0;
        for round in 0..3000 {
            let mut b = Board::new();
            let (left, top) = (rng.below(12), rng.below(12));
            for i in 0..rng.below(40) {
                let c = Cell::new(left + rng.below(8), top + rng.below(8)).unwrap();
                if b.is_empty(c) {
                    b.place(
                        c,
                        if i % 2 == 0 {
                            Color::White
                        } else {
                            Color::Black
                        },
                    );
                }
            }
            let a = Cell::new(left + rng.below(8), top + rng.below(8)).unwrap();
            let c = Cell::new(left + rng.below(8), top + rng.below(8)).unwrap();
            let color = if round % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            if a == c || !b.is_empty(a) || !b.is_empty(c) || b.has_threat_window(color) {
                continue;
            }
            let counts = b.pattern_counts_after(a, c, color);
            let score = evaluate_after(&b, a, c, color);
            let mut placed = b.clone();
            placed.place(a, color);
            placed.place(c, color);
            for side in [Color::Black, Color::White] {
                assert_eq!(
                    counts[side.index()],
                    *placed.pattern_counts(side),
                    "{a} {c}"
                );
            }
            if placed.has_threat_window(color) {
                assert_eq!(score, None, "{a} {c}");
            } else {
                let placed_score = evaluate(&placed, color.other());
                assert_eq!(score, Some(placed_score), "{a} {c}");
                checked += 1;
            }
        }
        assert!(checked > 1000, "{checked}");
    }

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
        assert_eq!(b.as_stones().pure_windows(Color::Black)[1], 24);
        assert_eq!(b.as_stones().pure_windows(Color::White)[1], 3);
        assert!(evaluate(&b, Color::Black) > 0);
        assert!(evaluate(&b, Color::White) < 0);
    }
}

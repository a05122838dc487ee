//! How the solver orders what it tries: the attacker's forcing turns at an OR node, the
//! defender's answers at an AND node. Order decides how soon a node is settled: a winning
//! turn tried first spares the others, and so does a refuting answer.

use super::attacks::{ATTACK_CAPACITY, Attacks};
use crate::rules::stones::{Color, PlaceTurn, Stones};
use crate::rules::threats::blocks;
use arrayvec::ArrayVec;

/// Orders `replies` by `score`, highest first, ties in their order (a stable sort), reading
/// each reply's score once. In place: it runs at every defence node, where collecting the
/// lists (a few hundred bytes) anew copied each of them twice.
pub(super) fn most_spoiling_first<T: Copy, const N: usize>(
    replies: &mut ArrayVec<T, N>,
    mut score: impl FnMut(&T) -> u32,
) {
    let mut scores = ArrayVec::<u32, N>::new();
    for reply in replies.iter() {
        scores.push(score(reply));
    }
    // Insertion sort: the lists are short, mostly a handful.
    for i in 1..replies.len() {
        let (s, reply) = (scores[i], replies[i]);
        let mut j = i;
        while j > 0 && scores[j - 1] < s {
            scores[j] = scores[j - 1];
            replies[j] = replies[j - 1];
            j -= 1;
        }
        scores[j] = s;
        replies[j] = reply;
    }
}

/// Orders `turns` (already most threats, then most potential, first) by the defender's
/// answers to each, fewest first, among turns with as many threats; ties keep their order.
/// A double threat's answers are its blocking pairs, a single threat's its blocking cells.
pub(super) fn fewest_answers_first(board: &mut Stones, attacker: Color, turns: &mut Attacks) {
    let mut answers = ArrayVec::<usize, ATTACK_CAPACITY>::new();
    for attack in turns.iter() {
        board.place_turn(&attack.turn, attacker);
        let found = blocks(board, attacker);
        board.remove_turn(&attack.turn);
        answers.push(found.pairs.len() + found.singles.len());
    }
    // Insertion sort on (threats, answers): the lists are short and it is stable.
    for i in 1..turns.len() {
        let (n, turn) = (answers[i], turns[i]);
        let mut j = i;
        while j > 0 && turns[j - 1].threats.min(3) == turn.threats.min(3) && answers[j - 1] > n {
            answers[j] = answers[j - 1];
            turns[j] = turns[j - 1];
            j -= 1;
        }
        answers[j] = n;
        turns[j] = turn;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::solver::attacks::{Attack, forcing_turns};
    use crate::rules::coord::Cell;

    fn answers(board: &Stones, attacker: Color, turn: &crate::rules::coord::Turn) -> usize {
        let mut after = board.clone();
        after.place_turn(turn, attacker);
        let found = blocks(&after, attacker);
        found.pairs.len() + found.singles.len()
    }

    /// On random crowded boards: the same turns come back, most threats first as before,
    /// and among turns with as many threats the fewest answers first, ties in the order
    /// they came.
    #[test]
    fn turns_with_fewer_answers_come_first_among_equal_threats() {
        let mut rng = crate::rng::Rng::new(17);
        let mut reordered = 0;
        for _ in 0..120 {
            let mut board = Stones::new();
            for i in 0..8 + rng.below(24) {
                let c = Cell::new(5 + rng.below(9), 5 + rng.below(9)).expect("on the board");
                if board.is_empty(c) {
                    board.place(
                        c,
                        if i % 3 == 0 {
                            Color::White
                        } else {
                            Color::Black
                        },
                    );
                }
            }
            if board.has_threat_window(Color::Black) || board.winner().is_some() {
                continue;
            }
            let before = forcing_turns(&mut board, Color::Black, true);
            let mut after = before.clone();
            let unchanged = board.clone();
            fewest_answers_first(&mut board, Color::Black, &mut after);
            assert_eq!(board, unchanged, "the board is left as it was");
            let key = |t: &Attack| {
                (
                    std::cmp::Reverse(t.threats.min(3)),
                    answers(&board, Color::Black, &t.turn),
                )
            };
            let mut expected = before.clone();
            expected.sort_by_key(key);
            let turns = |list: &Attacks| list.iter().map(|t| t.turn).collect::<Vec<_>>();
            assert_eq!(turns(&after), turns(&expected));
            reordered += usize::from(turns(&after) != turns(&before));
        }
        assert!(reordered > 10, "only {reordered} boards changed order");
    }
}

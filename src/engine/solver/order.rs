//! How the solver orders what it tries: the attacker's forcing turns at an OR node, the
//! defender's answers at an AND node. Order decides how soon a node is settled: a winning
//! turn tried first spares the others, and so does a refuting answer.

use super::attacks::{ATTACK_CAPACITY, Attacks};
use crate::rules::stones::{Color, PlaceTurn, Stones};
use crate::rules::threats::blocks;
use arrayvec::ArrayVec;
use std::cmp::Reverse;

/// Sorts `items` by `keys` (one each, in the same order), least first, ties in their order:
/// an insertion sort, as the lists are short (mostly a handful) and each key is worked out
/// once beforehand, not at every comparison.
fn sort_by_keys<T: Copy, K: Ord + Copy, const N: usize>(
    items: &mut ArrayVec<T, N>,
    keys: &mut ArrayVec<K, N>,
) {
    for i in 1..items.len() {
        let (key, item) = (keys[i], items[i]);
        let mut j = i;
        while j > 0 && keys[j - 1] > key {
            keys[j] = keys[j - 1];
            items[j] = items[j - 1];
            j -= 1;
        }
        keys[j] = key;
        items[j] = item;
    }
}

/// Orders `replies` by `score`, highest first, ties in their order, reading each reply's
/// score once. In place: it runs at every defence node, where collecting the lists (a few
/// hundred bytes) anew copied each of them twice.
pub(super) fn most_spoiling_first<T: Copy, const N: usize>(
    replies: &mut ArrayVec<T, N>,
    mut score: impl FnMut(&T) -> u32,
) {
    let mut keys: ArrayVec<Reverse<u32>, N> = replies.iter().map(|r| Reverse(score(r))).collect();
    sort_by_keys(replies, &mut keys);
}

/// Orders `turns` (already most threats, then most potential, first) by the defender's
/// answers to each, fewest first, among turns with as many threats; ties keep their order.
/// A double threat's answers are its blocking pairs, a single threat's its blocking cells.
pub(super) fn fewest_answers_first(board: &mut Stones, attacker: Color, turns: &mut Attacks) {
    let mut keys = ArrayVec::<(Reverse<u8>, usize), ATTACK_CAPACITY>::new();
    for attack in turns.iter() {
        board.place_turn(&attack.turn, attacker);
        let found = blocks(board, attacker);
        board.remove_turn(&attack.turn);
        keys.push((
            Reverse(attack.threats.min(3)),
            found.pairs.len() + found.singles.len(),
        ));
    }
    sort_by_keys(turns, &mut keys);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::solver::attacks::brute_force::boards;
    use crate::engine::solver::attacks::{Attack, forcing_turns};

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
        let mut reordered = 0;
        for mut board in boards(120, 17) {
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

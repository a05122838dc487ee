//! Move generation: pruned candidate stone pairs for the side to move, best first.
//!
//! - a six on the board for the taking is the only move;
//! - against the opponent's threats only the turns that stop all of them are generated;
//! - otherwise cells near stones are ranked by the cell ranking (`ranking`: what a stone
//!   makes and cuts along its four lines), the best first stones are combined with the best
//!   second stones (re-ranked with the first stone on the board) and each unordered pair is
//!   kept once.

use crate::engine::ranking::KeyWorth;
use crate::engine::tunables::{
    FIRST_STONES, FREE_STONES_WITH_BLOCK, NARROW_FIRST_STONES, NARROW_SECOND_STONES, NARROW_WIDTH,
    SECOND_STONES,
};
use crate::rules::board::{Board, Color, near_box};
use crate::rules::cellset::CellSet;
use crate::rules::coord::{CELLS, Cell, Turn};
use crate::rules::geometry::{GEOMETRY, REACH, line_offset, slot};
use crate::rules::patterns::POW3;
use crate::rules::threats::{blocks, winning_cells};
use arrayvec::ArrayVec;

/// Cells next to a first stone offered as its partner: two each way along four lines.
const LINE_PARTNERS: usize = 16;

// `quiet_pairs` meets a pair of two first stones among the ranked seconds only if every
// first stone is also a second stone.
const _: () = assert!(FIRST_STONES <= SECOND_STONES && NARROW_FIRST_STONES <= NARROW_SECOND_STONES);

/// Most pairs a generator call can produce before trimming.
pub const PAIR_CAPACITY: usize = FIRST_STONES * (SECOND_STONES + LINE_PARTNERS);

pub type Pairs = ArrayVec<(i32, Turn), PAIR_CAPACITY>;

/// What kind of position the pairs answer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Situation {
    /// The side to move completes a six with the (single) pair given.
    Win,
    /// The pairs stop every opponent threat.
    Forced,
    /// The opponent has three or more threats: nothing stops them; one pair is given.
    Lost,
    /// No threats either way.
    Quiet,
}

/// Direction and slot under which `a` appears in `b`'s pattern keys, if it does.
fn alignment(b: Cell, a: Cell) -> Option<(usize, usize)> {
    let (d, k) = line_offset(b, a)?;
    (k.unsigned_abs() as usize <= REACH).then(|| (d, slot(k)))
}

/// `cell_score` of `b` once a stone of `me` stands on `a`: only their common line changes,
/// where `a` is an own stone for `me` and a blocker for the opponent.
#[inline]
fn cell_score_after(worth: &KeyWorth, board: &Board, b: Cell, me: Color, a: Cell) -> i32 {
    let Some((dir, slot)) = alignment(b, a) else {
        return worth.cell(board, b, me);
    };
    let mut score = 0;
    for d in 0..4 {
        let keys = board.line_keys(b, d);
        let keys = if d == dir {
            with_stone(keys, me, slot)
        } else {
            keys
        };
        score += worth.line(keys, me);
    }
    score
}

/// A line's keys (black's, white's) with a stone of `me` in neighbour slot `slot`: an own
/// digit (1) seen from `me`, a blocker (2) seen from the other colour.
#[inline]
fn with_stone(mut keys: [u16; 2], me: Color, slot: usize) -> [u16; 2] {
    keys[me.index()] += POW3[slot];
    keys[1 - me.index()] += 2 * POW3[slot];
    keys
}

/// A score as a sort key that puts the best first: sorting one integer is cheaper than a
/// comparison of several fields.
#[inline]
fn best_first(score: i32) -> u64 {
    !(score as u32 ^ 0x8000_0000) as u64
}

/// The score `best_first` made the low 32 bits of `bits` of.
#[inline]
fn from_best_first(bits: u64) -> i32 {
    (!bits as u32 ^ 0x8000_0000) as i32
}

/// Orders ranked cells: best score first, ties by cell index (deterministic generation).
#[inline]
fn by_rank(&(score, c): &(i32, Cell)) -> u64 {
    best_first(score) << 16 | c.index() as u64
}

/// The `keep` best empty cells near stones, best first.
fn ranked_cells(
    worth: &KeyWorth,
    board: &Board,
    me: Color,
    out: &mut ArrayVec<(i32, Cell), CELLS>,
    keep: usize,
) {
    // Sorted as their keys (`by_rank`), plain integers: cheaper to order than the pairs.
    let mut keys = ArrayVec::<u64, CELLS>::new();
    for c in board.near_empty_cells() {
        keys.push(by_rank(&(worth.cell(board, c, me), c)));
    }
    keep_best(board, &mut keys, None, out, keep);
}

/// `ranked_cells` as it would be with a stone of `me` on the empty cell `x`, read without
/// placing it: the cells near `x` (within `NEAR`, as the board counts them) join, and the
/// cells on a line through `x` score differently along that line alone, as
/// `cell_score_after` scores one cell.
fn ranked_cells_after(
    worth: &KeyWorth,
    board: &Board,
    me: Color,
    x: Cell,
    out: &mut ArrayVec<(i32, Cell), CELLS>,
    keep: usize,
) {
    // What `x` changes: the score of each empty cell on its lines within reach, along that
    // line alone, where `x` sits in the cell's mirrored slot.
    let mut change = [0i32; CELLS];
    for (d, line) in GEOMETRY.line_neighbours[x.index()].iter().enumerate() {
        for (s, n) in line.iter().enumerate() {
            let Some(n) = *n else { continue };
            if board.is_empty(n) {
                let keys = board.line_keys(n, d);
                let after = with_stone(keys, me, 2 * REACH - 1 - s);
                change[n.index()] = worth.line(after, me) - worth.line(keys, me);
            }
        }
    }
    let mut keys = ArrayVec::<u64, CELLS>::new();
    let mut rank = |c: Cell| {
        let score = worth.cell(board, c, me) + change[c.index()];
        keys.push(by_rank(&(score, c)));
    };
    for c in board.near_empty_cells().filter(|&c| c != x) {
        rank(c);
    }
    near_box(x, |c| {
        if c != x && board.is_empty(c) && board.nearby(c) == 0 {
            rank(c);
        }
    });
    keep_best(board, &mut keys, Some(x), out, keep);
}

/// The `keep` best of the ranked cells `keys` into `out`, best first. Fewer than two (an
/// almost empty neighbourhood): any empty cell will do, centre-most first; `taken` is a cell
/// counted as holding a stone.
fn keep_best(
    board: &Board,
    keys: &mut ArrayVec<u64, CELLS>,
    taken: Option<Cell>,
    out: &mut ArrayVec<(i32, Cell), CELLS>,
    keep: usize,
) {
    if keys.len() < 2 {
        let ranked: ArrayVec<Cell, 2> = keys.iter().map(|&key| from_rank(key).1).collect();
        for c in Cell::all() {
            if board.is_empty(c) && Some(c) != taken && !ranked.contains(&c) {
                keys.push(by_rank(&(-(c.distance(Cell::CENTER) as i32), c)));
            }
        }
    }
    smallest_sorted(keys, keep);
    out.clear();
    out.extend(keys.iter().map(|&key| from_rank(key)));
}

/// Keeps the `keep` smallest of `keys` (the best, as `by_rank` and `by_score` order them),
/// sorted.
fn smallest_sorted<const N: usize>(keys: &mut ArrayVec<u64, N>, keep: usize) {
    if keys.len() > keep {
        if keep > 0 {
            keys.select_nth_unstable(keep - 1);
        }
        keys.truncate(keep);
    }
    keys.sort_unstable();
}

/// The cell and score `by_rank` made `key` of.
#[inline]
fn from_rank(key: u64) -> (i32, Cell) {
    (
        from_best_first(key >> 16),
        Cell::from_index((key & 0xffff) as usize),
    )
}

fn ordered(a: Cell, b: Cell) -> Turn {
    Turn::two(a.min(b), a.max(b))
}

/// Generates the candidate turns for the side to move into `out`, best first, ranked by
/// `worth`.
pub fn generate(worth: &KeyWorth, board: &Board, out: &mut Pairs, width: usize) -> Situation {
    out.clear();
    let me = board.side_to_move();
    let opp = me.other();
    if board.stones_this_turn() == 1 {
        // Black's opening stone: the centre, the one cell far from every edge.
        let c = if board.is_empty(Cell::CENTER) {
            Cell::CENTER
        } else {
            Cell::all()
                .find(|&c| board.is_empty(c))
                .unwrap_or(Cell::CENTER)
        };
        out.push((0, Turn::one(c)));
        return Situation::Quiet;
    }
    let mut ranked = ArrayVec::<(i32, Cell), CELLS>::new();

    if let Some(cells) = winning_cells(board.as_stones(), me) {
        let turn = match cells.as_slice() {
            [a, b] => ordered(*a, *b),
            [a] => {
                ranked_cells(worth, board, me, &mut ranked, 2);
                let free = ranked.iter().map(|&(_, c)| c).find(|&c| c != *a);
                match free {
                    Some(b) => ordered(*a, b),
                    None => Turn::one(*a),
                }
            }
            _ => unreachable!("a threat window has one or two empty cells"),
        };
        out.push((i32::MAX, turn));
        return Situation::Win;
    }

    if board.has_threat_window(opp) {
        let blocks = blocks(board.as_stones(), opp);
        for &(a, b) in &blocks.pairs {
            let score = worth.cell(board, a, me) + worth.cell(board, b, me);
            push_unique(out, score, ordered(a, b));
        }
        for &x in &blocks.singles {
            let base = worth.cell(board, x, me);
            ranked_cells_after(worth, board, me, x, &mut ranked, FREE_STONES_WITH_BLOCK);
            for &(s, y) in ranked.iter() {
                push_unique(out, base + s, ordered(x, y));
            }
        }
        sort_and_trim(out, PAIR_CAPACITY);
        if blocks.needed >= 3 || out.is_empty() {
            // Nothing stops every threat; still answer with a legal turn that blocks some.
            out.clear();
            ranked_cells(worth, board, me, &mut ranked, 2);
            let mut cells = ranked.iter().map(|&(_, c)| c);
            if let (Some(a), Some(b)) = (cells.next(), cells.next()) {
                out.push((0, ordered(a, b)));
            }
            return Situation::Lost;
        }
        return Situation::Forced;
    }

    quiet_pairs(worth, board, me, &mut ranked, out, width);
    Situation::Quiet
}

fn push_unique(out: &mut Pairs, score: i32, turn: Turn) {
    if let Some(existing) = out.iter_mut().find(|(_, t)| *t == turn) {
        existing.0 = existing.0.max(score);
    } else if !out.is_full() {
        out.push((score, turn));
    }
}

/// Best score first, ties by cells: a total order, so generation is deterministic.
#[inline]
fn by_score(&(score, turn): &(i32, Turn)) -> u64 {
    // A single stone before any pair with the same first stone.
    let second = turn.second.map_or(0, |c| c.index() as u64 + 1);
    best_first(score) << 32 | (turn.first.index() as u64) << 16 | second
}

/// The turn and score `by_score` made `key` of.
#[inline]
fn from_score_key(key: u64) -> (i32, Turn) {
    let score = from_best_first(key >> 32);
    let first = Cell::from_index((key >> 16 & 0xffff) as usize);
    let turn = match key & 0xffff {
        0 => Turn::one(first),
        second => Turn::two(first, Cell::from_index(second as usize - 1)),
    };
    (score, turn)
}

/// Keeps the `width` best pairs, sorted. Sorted as their keys (`by_score`), plain
/// integers that name the pairs: cheaper to order than the pairs by a key.
fn sort_and_trim(out: &mut Pairs, width: usize) {
    let mut keys: ArrayVec<u64, PAIR_CAPACITY> = out.iter().map(by_score).collect();
    smallest_sorted(&mut keys, width);
    out.clear();
    out.extend(keys.iter().map(|&key| from_score_key(key)));
}

fn quiet_pairs(
    worth: &KeyWorth,
    board: &Board,
    me: Color,
    ranked: &mut ArrayVec<(i32, Cell), CELLS>,
    out: &mut Pairs,
    width: usize,
) {
    // A narrow request is served from the best-ranked cells: pairs of lower-ranked stones
    // would not make its cut anyway.
    let narrow = width <= NARROW_WIDTH;
    let (firsts, seconds) = if narrow {
        (NARROW_FIRST_STONES, NARROW_SECOND_STONES)
    } else {
        (FIRST_STONES, SECOND_STONES)
    };
    ranked_cells(worth, board, me, ranked, firsts.max(seconds));
    let firsts = firsts.min(ranked.len());
    let seconds = seconds.min(ranked.len());
    let g = &*GEOMETRY;
    // The second stones drawn from the ranking, as a set: a line cell among them is met
    // there already.
    let mut ranked_seconds = CellSet::new();
    for &(_, c) in &ranked[..seconds] {
        ranked_seconds.insert(c);
    }
    for i in 0..firsts {
        let (sa, a) = ranked[i];
        // Second stones: the best-ranked cells and the cells next to `a` along its lines,
        // where the pair builds one shape together.
        let line_cells = (0..4).flat_map(|d| {
            g.line_neighbours[a.index()][d][REACH - 2..REACH + 2]
                .iter()
                .flatten()
                .copied()
        });
        // A ranked cell's score is known; it changes with `a` only along their common line.
        let candidates = ranked[..seconds]
            .iter()
            .enumerate()
            .map(|(j, &(score, c))| (Some((j, score)), c))
            .chain(
                line_cells
                    .filter(|&c| !ranked_seconds.contains(c))
                    .map(|c| (None, c)),
            );
        for (known, b) in candidates {
            if b == a || !board.is_empty(b) {
                continue;
            }
            // A pair of two first stones is met twice: keep the meeting with the better
            // first. (First stones lead the ranking, so only a ranked second can be one.)
            if known.is_some_and(|(j, _)| j < i) {
                continue;
            }
            let sb = match known.map(|(_, score)| score) {
                Some(score) if alignment(b, a).is_none() => score,
                _ => cell_score_after(worth, board, b, me, a),
            };
            // Capacity covers every first stone with all its partners.
            let _ = out.try_push((sa + sb, ordered(a, b)));
        }
    }
    sort_and_trim(out, width);
}

/// Adds turns pairing `cell` with the `partners` best cells for `me` beside it (re-scored
/// with `cell` taken), unless already present: used to put stones where the opponent's
/// threats start.
pub fn add_pairs_through(
    worth: &KeyWorth,
    board: &Board,
    me: Color,
    cell: Cell,
    partners: usize,
    out: &mut Pairs,
) {
    if !board.is_empty(cell) {
        return;
    }
    let mut ranked = ArrayVec::<(i32, Cell), CELLS>::new();
    ranked_cells(worth, board, me, &mut ranked, partners + 1);
    let base = worth.cell(board, cell, me);
    for &(_, b) in ranked.iter().filter(|&&(_, b)| b != cell).take(partners) {
        let turn = ordered(cell, b);
        if !out.iter().any(|&(_, t)| t == turn) {
            let _ = out.try_push((base + cell_score_after(worth, board, b, me, cell), turn));
        }
    }
}

/// Every legal turn of the side to move is a candidate somewhere: used when asked for a
/// guaranteed-legal fallback.
pub fn any_legal_turn(board: &Board) -> Option<Turn> {
    let mut empties = Cell::all().filter(|&c| board.is_empty(c));
    match board.stones_this_turn() {
        1 => empties.next().map(Turn::one),
        _ => {
            let a = empties.next()?;
            let b = empties.next()?;
            Some(Turn::two(a, b))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::coord::parse_cell;

    fn cell(s: &str) -> Cell {
        parse_cell(s).unwrap()
    }

    fn play(moves: &[&str]) -> Board {
        Board::from_turns(&moves.join(" ")).unwrap()
    }

    /// The sort keys order as the fields do: score down, then cells up (a single stone
    /// before the pairs with its first stone), over the whole range of scores, and each key
    /// gives back what it was made of.
    #[test]
    fn sort_keys_order_best_first_then_by_cells() {
        let mut rng = crate::rng::Rng::new(5);
        let scores = [i32::MIN, -70_000, -1, 0, 1, 3, 70_000, i32::MAX];
        let mut cells: Vec<(i32, Cell)> = Vec::new();
        let mut turns: Vec<(i32, Turn)> = Vec::new();
        for _ in 0..400 {
            let score = scores[rng.below(scores.len())];
            let a = Cell::from_index(rng.below(CELLS));
            let b = Cell::from_index(rng.below(CELLS));
            cells.push((score, a));
            turns.push((score, if a == b { Turn::one(a) } else { ordered(a, b) }));
        }
        for &ranked in &cells {
            assert_eq!(from_rank(by_rank(&ranked)), ranked);
        }
        for &pair in &turns {
            assert_eq!(from_score_key(by_score(&pair)), pair);
        }
        let mut by_key = cells.clone();
        by_key.sort_by_key(by_rank);
        cells.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        assert_eq!(by_key, cells);
        let mut by_key = turns.clone();
        by_key.sort_by_key(by_score);
        turns.sort_by(|x, y| {
            y.0.cmp(&x.0)
                .then(x.1.first.cmp(&y.1.first))
                .then(x.1.second.cmp(&y.1.second))
        });
        assert_eq!(by_key, turns);
    }

    #[test]
    fn opening_stone_is_the_centre() {
        let b = Board::new();
        let mut out = Pairs::new();
        generate(&KeyWorth::embedded(), &b, &mut out, 40);
        assert_eq!(out.as_slice(), &[(0, Turn::one(Cell::CENTER))]);
    }

    #[test]
    fn quiet_pairs_are_unique_legal_and_near() {
        let b = play(&["JJ", "KKKJ"]);
        let mut out = Pairs::new();
        assert_eq!(
            generate(&KeyWorth::embedded(), &b, &mut out, 40),
            Situation::Quiet
        );
        assert_eq!(out.len(), 40);
        for (i, (_, t)) in out.iter().enumerate() {
            assert!(b.check_turn(t).is_ok(), "{t} is illegal");
            assert!(t.first < t.second.unwrap(), "pairs are stored ordered");
            assert!(!out[..i].iter().any(|(_, u)| u == t), "{t} twice");
            for c in t.cells() {
                assert!(c.distance(Cell::CENTER) <= 3);
            }
        }
        // Scores come best first.
        assert!(out.windows(2).all(|w| w[0].0 >= w[1].0));
    }

    #[test]
    fn a_partner_is_scored_as_if_the_first_stone_stood() {
        // `cell_score_after` edits one line's keys instead of placing the stone: it must
        // score what `KeyWorth::cell` scores once the stone is placed, shapes and windows alike.
        let b = play(&["JJ", "KKKJ", "IIHH", "LLML"]);
        let worth = KeyWorth::embedded();
        let near: Vec<Cell> = b.near_empty_cells().collect();
        for me in [Color::Black, Color::White] {
            for &a in near.iter().step_by(3) {
                let mut after = b.clone();
                after.place(a, me);
                for &c in near.iter().filter(|&&c| c != a) {
                    assert_eq!(
                        cell_score_after(&worth, &b, c, me, a),
                        worth.cell(&after, c, me),
                        "{c} after {a}"
                    );
                }
            }
        }
    }

    /// The cells ranked as if a stone stood are the cells ranked with it placed: the same
    /// cells (those near it join), the same scores, the same order.
    #[test]
    fn cells_ranked_after_a_stone_are_those_ranked_with_it_placed() {
        let worth = KeyWorth::embedded();
        for turns in ["JJ", "JJ KKKJ IIHH LLML", "JJ AACB JKJL SSQR"] {
            let b = play(&[turns]);
            for me in [Color::Black, Color::White] {
                for x in b.near_empty_cells().step_by(2) {
                    let mut placed = b.clone();
                    placed.place(x, me);
                    for keep in [FREE_STONES_WITH_BLOCK, CELLS] {
                        let (mut read, mut placed_ranked) = (ArrayVec::new(), ArrayVec::new());
                        ranked_cells_after(&worth, &b, me, x, &mut read, keep);
                        ranked_cells(&worth, &placed, me, &mut placed_ranked, keep);
                        assert_eq!(read, placed_ranked, "{turns} {x} {me:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn takes_a_six_when_there_is_one() {
        // Black: JJ; JK JL; JM JN -> four in column J; white elsewhere.
        let mut b = play(&["JJ", "AAAB", "JKJL", "ACAD", "JMJN", "SSSR"]);
        let mut out = Pairs::new();
        assert_eq!(
            generate(&KeyWorth::embedded(), &b, &mut out, 40),
            Situation::Win
        );
        let t = out[0].1;
        b.play_turn(&t).unwrap();
        assert_eq!(b.winner(), Some(Color::Black));
    }

    #[test]
    fn every_pair_stops_an_open_four() {
        // White has an open four in row C; black must block both ends.
        let b = play(&["JJ", "DCEC", "JKJL", "FCGC"]);
        let mut out = Pairs::new();
        assert_eq!(
            generate(&KeyWorth::embedded(), &b, &mut out, 40),
            Situation::Forced
        );
        assert!(!out.is_empty());
        for &(_, t) in &out {
            let mut after = b.clone();
            after.play_turn(&t).unwrap();
            assert!(
                !after.has_threat_window(Color::White),
                "{t} leaves a threat"
            );
        }
        assert!(
            out.iter()
                .any(|&(_, t)| t == ordered(cell("CC"), cell("HC")))
        );
    }

    #[test]
    fn three_threats_are_lost() {
        // White: open four in row C and a four in column P; black cannot stop both.
        let b = play(&["JJ", "DCEC", "JKJL", "FCGC", "AAAB", "PFPG", "ASBS", "PHPI"]);
        let mut out = Pairs::new();
        assert_eq!(
            generate(&KeyWorth::embedded(), &b, &mut out, 40),
            Situation::Lost
        );
        assert!(b.check_turn(&out[0].1).is_ok());
    }
}

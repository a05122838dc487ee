//! Move generation: pruned candidate stone pairs for the side to move, best first.
//!
//! - a six on the board for the taking is the only move;
//! - against the opponent's threats only the turns that stop all of them are generated;
//! - otherwise cells near stones are ranked by attack and defence, the best first stones are
//!   combined with the best second stones (re-ranked with the first stone on the board) and
//!   each unordered pair is kept once.

use crate::board::{Board, Color};
use crate::coord::{CELLS, Cell, Turn};
use crate::geometry::{GEOMETRY, REACH};
use crate::threats::{blocks, winning_cells};
use crate::tunables::{ATTACK, DEFENCE, FIRST_STONES, FREE_STONES_WITH_BLOCK, SECOND_STONES};
use arrayvec::ArrayVec;

/// Most pairs a generator call returns.
pub const PAIR_CAPACITY: usize = 256;

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

/// How much a stone of `me` on `c` is worth: its own lines plus the opponent's it cuts.
#[inline]
pub fn cell_score(board: &Board, c: Cell, me: Color) -> i32 {
    let opp = me.other();
    (0..4)
        .map(|d| {
            ATTACK[board.pattern_at(c, d, me) as usize]
                + DEFENCE[board.pattern_at(c, d, opp) as usize]
        })
        .sum()
}

/// Empty cells near stones, best first (ties by cell index, so generation is deterministic).
fn ranked_cells(board: &Board, me: Color, out: &mut ArrayVec<(i32, Cell), CELLS>) {
    out.clear();
    for c in Cell::all() {
        if board.is_empty(c) && board.nearby(c) > 0 {
            out.push((cell_score(board, c, me), c));
        }
    }
    if out.len() < 2 {
        // An (almost) empty neighbourhood: any empty cell will do, centre-most first.
        for c in Cell::all() {
            if board.is_empty(c) && !out.iter().any(|&(_, x)| x == c) {
                out.push((-(c.distance(Cell::CENTER) as i32), c));
            }
        }
    }
    out.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
}

fn ordered(a: Cell, b: Cell) -> Turn {
    Turn::two(a.min(b), a.max(b))
}

/// Whether `b` lies on a line through `a` within window reach (so placing `a` changes `b`).
fn shares_line(a: Cell, b: Cell) -> bool {
    let (dc, dr) = (
        b.col() as i32 - a.col() as i32,
        b.row() as i32 - a.row() as i32,
    );
    let reach = REACH as i32;
    (dc == 0 || dr == 0 || dc.abs() == dr.abs()) && dc.abs() <= reach && dr.abs() <= reach
}

/// Generates the candidate turns for the side to move into `out`, best first.
pub fn generate(board: &mut Board, out: &mut Pairs, width: usize) -> Situation {
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

    if let Some(cells) = winning_cells(board, me) {
        let turn = match cells.as_slice() {
            [a, b] => ordered(*a, *b),
            [a] => {
                ranked_cells(board, me, &mut ranked);
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
        let blocks = blocks(board, opp);
        for &(a, b) in &blocks.pairs {
            let score = cell_score(board, a, me) + cell_score(board, b, me);
            push_unique(out, score, ordered(a, b));
        }
        for &x in &blocks.singles {
            let base = cell_score(board, x, me);
            board.place(x, me);
            ranked_cells(board, me, &mut ranked);
            for &(s, y) in ranked.iter().take(FREE_STONES_WITH_BLOCK) {
                push_unique(out, base + s, ordered(x, y));
            }
            board.remove(x);
        }
        sort_and_trim(out, PAIR_CAPACITY);
        if blocks.needed >= 3 || out.is_empty() {
            // Nothing stops every threat; still answer with a legal turn that blocks some.
            out.clear();
            ranked_cells(board, me, &mut ranked);
            let mut cells = ranked.iter().map(|&(_, c)| c);
            if let (Some(a), Some(b)) = (cells.next(), cells.next()) {
                out.push((0, ordered(a, b)));
            }
            return Situation::Lost;
        }
        return Situation::Forced;
    }

    quiet_pairs(board, me, &mut ranked, out, width);
    Situation::Quiet
}

fn push_unique(out: &mut Pairs, score: i32, turn: Turn) {
    if let Some(existing) = out.iter_mut().find(|(_, t)| *t == turn) {
        existing.0 = existing.0.max(score);
    } else if !out.is_full() {
        out.push((score, turn));
    }
}

fn sort_and_trim(out: &mut Pairs, width: usize) {
    out.sort_unstable_by(|a, b| {
        b.0.cmp(&a.0)
            .then(a.1.first.cmp(&b.1.first))
            .then(a.1.second.cmp(&b.1.second))
    });
    out.truncate(width);
}

fn quiet_pairs(
    board: &mut Board,
    me: Color,
    ranked: &mut ArrayVec<(i32, Cell), CELLS>,
    out: &mut Pairs,
    width: usize,
) {
    ranked_cells(board, me, ranked);
    let firsts = FIRST_STONES.min(ranked.len());
    let seconds = SECOND_STONES.min(ranked.len());
    let g = &*GEOMETRY;
    for i in 0..firsts {
        let (sa, a) = ranked[i];
        board.place(a, me);
        // Second stones: the best-ranked cells and the cells next to `a` along its lines,
        // where the pair builds one shape together.
        let line_cells = (0..4).flat_map(|d| {
            g.line_neighbours[a.index()][d][REACH - 2..REACH + 2]
                .iter()
                .flatten()
                .copied()
        });
        let candidates = ranked[..seconds]
            .iter()
            .map(|&(s, c)| (Some(s), c))
            .chain(line_cells.map(|c| (None, c)));
        for (known, b) in candidates {
            if b == a || !board.is_empty(b) {
                continue;
            }
            // A pair of two first stones is met twice: keep the meeting with the better first.
            if let Some(j) = ranked[..firsts].iter().position(|&(_, c)| c == b)
                && j < i
            {
                continue;
            }
            let sb = match known {
                Some(s) if !shares_line(a, b) => s,
                _ => cell_score(board, b, me),
            };
            push_unique(out, sa + sb, ordered(a, b));
        }
        board.remove(a);
    }
    sort_and_trim(out, width);
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
    use crate::coord::parse_cell;

    fn cell(s: &str) -> Cell {
        parse_cell(s).unwrap()
    }

    fn play(moves: &[&str]) -> Board {
        let mut b = Board::new();
        for m in moves {
            b.play_turn(&Turn::parse(m).unwrap()).unwrap();
        }
        b
    }

    #[test]
    fn opening_stone_is_the_centre() {
        let mut b = Board::new();
        let mut out = Pairs::new();
        generate(&mut b, &mut out, 40);
        assert_eq!(out.as_slice(), &[(0, Turn::one(Cell::CENTER))]);
    }

    #[test]
    fn quiet_pairs_are_unique_legal_and_near() {
        let mut b = play(&["JJ", "KKKJ"]);
        let mut out = Pairs::new();
        assert_eq!(generate(&mut b, &mut out, 40), Situation::Quiet);
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
    fn takes_a_six_when_there_is_one() {
        // Black: JJ; JK JL; JM JN -> four in column J; white elsewhere.
        let mut b = play(&["JJ", "AAAB", "JKJL", "ACAD", "JMJN", "SSSR"]);
        let mut out = Pairs::new();
        assert_eq!(generate(&mut b, &mut out, 40), Situation::Win);
        let t = out[0].1;
        b.play_turn(&t).unwrap();
        assert_eq!(b.winner(), Some(Color::Black));
    }

    #[test]
    fn every_pair_stops_an_open_four() {
        // White has an open four in row C; black must block both ends.
        let mut b = play(&["JJ", "DCEC", "JKJL", "FCGC"]);
        let mut out = Pairs::new();
        assert_eq!(generate(&mut b, &mut out, 40), Situation::Forced);
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
        let mut b = play(&["JJ", "DCEC", "JKJL", "FCGC", "AAAB", "PFPG", "ASBS", "PHPI"]);
        let mut out = Pairs::new();
        assert_eq!(generate(&mut b, &mut out, 40), Situation::Lost);
        assert!(b.check_turn(&out[0].1).is_ok());
    }
}

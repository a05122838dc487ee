//! A node's quiet leaves read together (`Leaves`). A turn's two stones change the evaluation
//! along their eight lines, and where they share no line each line's change is one stone's
//! alone: it is read once per stone and node instead of once per turn (a frontier node reads
//! about nine turns made of about eight stones). What the two stones do together is read per
//! turn: the line they share, as one, and the learned values of the cells where a line of
//! each crosses, which take both changes at once.

use super::{Evaluator, pattern_weight, window_change};
use crate::engine::cell_eval::CellValues;
use crate::rules::board::{Board, Color};
use crate::rules::coord::Cell;
use crate::rules::geometry::{GEOMETRY, Partner, REACH, crossings, line_offset, slot, slots_in};
use arrayvec::ArrayVec;

/// How many stones a node's reader keeps: a frontier node reads at most 20 turns (42 cells
/// with the table's and a spare); a reader that fills starts again.
const STONES: usize = 48;

/// The values of one node's quiet leaves: the evaluation after `color` places two stones,
/// for the side to move then, read without placing them. Reads each stone's lines once.
pub struct Leaves<'a> {
    board: &'a Board,
    /// For the debug builds' check against the placed turn.
    #[cfg(debug_assertions)]
    evaluator: &'a Evaluator,
    values: Option<&'a CellValues>,
    color: Color,
    /// The colour index of the side to move after the turn.
    mover: usize,
    /// The evaluation now, as the mover's.
    base: i32,
    stones: ArrayVec<StoneAfter, STONES>,
}

/// What one stone of the turn does alone.
struct StoneAfter {
    cell: Cell,
    /// The change along each of its lines; `None` when the stone makes a threat window
    /// (then so does every turn with it, and the position after is not quiet).
    lines: Option<[i32; 4]>,
    /// Its cell's values leaving the empty cells' sums.
    occupied: i32,
    /// By direction, the line neighbours whose code it changes, as a slot mask...
    changed: [u16; 4],
    /// ...and by how much, seen from black and from white.
    parts: [[[i32; 2]; 2 * REACH]; 4],
}

impl<'a> Leaves<'a> {
    /// The reader for turns of `color` on `board`, which `evaluator` sums. `color` must hold
    /// no threat window.
    pub fn new(evaluator: &'a Evaluator, board: &'a Board, color: Color) -> Leaves<'a> {
        let mover = color.other();
        Leaves {
            board,
            #[cfg(debug_assertions)]
            evaluator,
            values: evaluator.cells.as_deref(),
            color,
            mover: mover.index(),
            base: evaluator.evaluate(board, mover),
            stones: ArrayVec::new(),
        }
    }

    /// `Evaluator::evaluate` for the side to move after `color` places stones on the empty
    /// cells `a` and `b` (the whole turn), read without placing them; `None` when the turn
    /// makes a threat window or a six for `color`, and the position after it is not quiet.
    pub fn value(&mut self, a: Cell, b: Cell) -> Option<i32> {
        if self.stones.remaining_capacity() < 2 {
            self.stones.clear();
        }
        let (ia, ib) = (self.stone(a), self.stone(b));
        let (sa, sb) = (&self.stones[ia], &self.stones[ib]);
        let (la, lb) = (sa.lines?, sb.lines?);
        // Stones further apart share no window, no stone's reach and no cell's.
        let shared = line_offset(a, b).filter(|&(_, k)| k.unsigned_abs() as usize <= 2 * REACH);
        let mut score = self.base + sa.occupied + sb.occupied;
        for d in 0..4 {
            if shared.is_none_or(|(line, _)| line != d) {
                score += la[d] + lb[d];
            }
        }
        if let Some((d, steps)) = shared {
            let partner = Some(Partner { cell: b, steps });
            score += self.windows(a, d, partner)? + self.line(a, d, partner, |_, _| {});
        }
        if let Some(values) = self.values {
            score += self.crossed(values, sa, sb);
        }
        #[cfg(debug_assertions)]
        self.check(a, b, score);
        Some(score)
    }

    /// The index of `c`'s entry, read now if it was not.
    fn stone(&mut self, c: Cell) -> usize {
        if let Some(i) = self.stones.iter().position(|s| s.cell == c) {
            return i;
        }
        let mut stone = StoneAfter {
            cell: c,
            lines: None,
            occupied: 0,
            changed: [0; 4],
            parts: [[[0; 2]; 2 * REACH]; 4],
        };
        // A stone that makes a threat window alone is never read further: no turn with it
        // leads to a quiet leaf.
        let mut lines = [0; 4];
        for (d, line) in lines.iter_mut().enumerate() {
            match self.windows(c, d, None) {
                Some(v) => *line = v,
                None => {
                    self.stones.push(stone);
                    return self.stones.len() - 1;
                }
            }
        }
        for (d, line) in lines.iter_mut().enumerate() {
            let (changed, parts) = (&mut stone.changed[d], &mut stone.parts[d]);
            *line += self.line(c, d, None, |s, delta| {
                *changed |= 1 << s;
                parts[s] = delta;
            });
        }
        stone.lines = Some(lines);
        if let Some(values) = self.values {
            let codes = self.board.cell_codes(c);
            stone.occupied = -(0..2)
                .map(|side| Self::worth_in(values, self.mover, side, codes[side]))
                .sum::<i32>();
        }
        self.stones.push(stone);
        self.stones.len() - 1
    }

    /// The windows' change along direction `d` of a stone on `a` (and of `partner`'s, on
    /// this line); `None` when a window becomes a threat.
    #[inline]
    fn windows(&self, a: Cell, d: usize, partner: Option<Partner>) -> Option<i32> {
        self.board.as_stones().line_windows_after(
            a,
            d,
            self.color,
            partner.map(|p| p.cell),
            window_change,
        )
    }

    /// The patterns' and the cells' change along direction `d` of a stone on `a` (and of
    /// `partner`'s, on this line), telling `record` the slot and code change of each of
    /// `a`'s neighbours whose code changes.
    #[inline]
    fn line(
        &self,
        a: Cell,
        d: usize,
        partner: Option<Partner>,
        mut record: impl FnMut(usize, [i32; 2]),
    ) -> i32 {
        let mut score = 0;
        let mover = self.mover;
        let weight = |side: usize, p: usize| pattern_weight(side == mover, p);
        self.board
            .line_patterns_after(a, d, self.color, partner, |side, old, new| {
                score += weight(side, new) - old.map_or(0, |old| weight(side, old));
            });
        if let Some(values) = self.values {
            let worth = |side: usize, code: u32| Self::worth_in(values, mover, side, code);
            self.board
                .line_codes_after(a, d, self.color, partner, |s, _, before, after| {
                    for side in 0..2 {
                        if before[side] != after[side] {
                            score += worth(side, after[side]) - worth(side, before[side]);
                        }
                    }
                    record(
                        s,
                        [0, 1].map(|side| after[side] as i32 - before[side] as i32),
                    );
                });
        }
        score
    }

    /// What the cells where a line of each stone crosses add beyond the stones' changes
    /// read alone: such a cell's code takes both, and its value is not their sum.
    fn crossed(&self, values: &CellValues, sa: &StoneAfter, sb: &StoneAfter) -> i32 {
        let g = &*GEOMETRY;
        let cross = crossings(sa.cell, sb.cell)[0];
        let mut score = 0;
        for (d, &mask) in cross.iter().enumerate() {
            for s in slots_in(mask & sa.changed[d]) {
                let Some(n) = g.line_neighbours[sa.cell.index()][d][s] else {
                    continue;
                };
                // The cell is within reach of `b` on one of its lines, as a crossing is.
                let Some((e, k)) = line_offset(sb.cell, n) else {
                    continue;
                };
                let t = slot(k);
                if sb.changed[e] & (1 << t) == 0 {
                    continue;
                }
                let codes = self.board.cell_codes(n);
                for (side, &code) in codes.iter().enumerate() {
                    let (da, db) = (sa.parts[d][s][side], sb.parts[e][t][side]);
                    if da != 0 && db != 0 {
                        let worth = |c: i32| Self::worth_in(values, self.mover, side, c as u32);
                        let code = code as i32;
                        score += worth(code + da + db) - worth(code + da) - worth(code + db)
                            + worth(code);
                    }
                }
            }
        }
        score
    }

    /// The cell term's count of a cell whose code seen from colour `side` is `code`, with
    /// `mover` the colour index of the side to move: the mover's to-move value of its
    /// codes, less the waiting side's waiting value.
    #[inline]
    fn worth_in(values: &CellValues, mover: usize, side: usize, code: u32) -> i32 {
        let v = &values[code as usize];
        if side == mover {
            v[0] as i32
        } else {
            -(v[1] as i32)
        }
    }

    /// Debug builds, now and then: the value read equals the placed turn's evaluation.
    #[cfg(debug_assertions)]
    fn check(&self, a: Cell, b: Cell, score: i32) {
        if crate::rules::board::debug_sample() {
            let (mut placed, mut evaluator) = (self.board.clone(), self.evaluator.clone());
            placed.place_observed(a, self.color, &mut evaluator);
            placed.place_observed(b, self.color, &mut evaluator);
            assert_eq!(
                evaluator,
                Evaluator::new(&self.evaluator.model(), &placed),
                "{a} {b}"
            );
            assert_eq!(
                score,
                evaluator.evaluate(&placed, self.color.other()),
                "{a} {b}"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::{EvalModel, Evaluation, tests::noisy_cells};

    /// One reader per position reads every turn over a patch of cells, each stone's lines
    /// once: every value equals the placed turn's evaluation, or `None` where the placed
    /// turn makes a threat window. Dense boards put stones on the lines both stones share
    /// and on the cells where their lines cross; a patch of more cells than the reader keeps
    /// makes it start again.
    #[test]
    fn every_turn_read_by_one_reader_is_the_placed_turns_score() {
        let mut rng = crate::rng::Rng::new(11);
        let models = [
            EvalModel::hand(),
            noisy_cells(12),
            EvalModel::embedded(Evaluation::Cells),
        ];
        let (mut quiet, mut threats) = (0, 0);
        for round in 0..90 {
            let model = &models[round % 3];
            let mut board = Board::new();
            let (left, top) = (rng.below(10), rng.below(10));
            for i in 0..rng.below(30) {
                let c = Cell::new(left + rng.below(9), top + rng.below(9)).unwrap();
                if board.is_empty(c) {
                    board.place(c, [Color::White, Color::Black][i % 2]);
                }
            }
            let color = [Color::Black, Color::White][round % 2];
            if board.has_threat_window(color) {
                continue;
            }
            let evaluator = Evaluator::new(model, &board);
            let patch = if round % 10 == 0 { 70 } else { 12 };
            let mut cells: Vec<Cell> = Vec::new();
            while cells.len() < patch {
                let c = Cell::new(left + rng.below(9), top + rng.below(9)).unwrap();
                if board.is_empty(c) && !cells.contains(&c) {
                    cells.push(c);
                }
                if cells.len() + board.stone_total() >= 81 {
                    break;
                }
            }
            let mut leaves = Leaves::new(&evaluator, &board, color);
            for (i, &a) in cells.iter().enumerate() {
                for &b in &cells[i + 1..] {
                    let mut placed = board.clone();
                    placed.place(a, color);
                    placed.place(b, color);
                    let expected = (!placed.has_threat_window(color))
                        .then(|| Evaluator::new(model, &placed).evaluate(&placed, color.other()));
                    assert_eq!(leaves.value(a, b), expected, "{a} {b} of {color}");
                    match expected {
                        Some(_) => quiet += 1,
                        None => threats += 1,
                    }
                }
            }
        }
        assert!(quiet > 5000 && threats > 500, "{quiet} {threats}");
    }
}

//! The board read as it would be after a turn not placed, one line at a time: the search's
//! leaves need only what the turn's stones change along their lines (the patterns of the
//! stones there and the codes of the empty cells), and placing and removing two stones costs
//! about twice as much as reading them. Stones on different lines change different lines,
//! so a reader takes a turn's change as each stone's alone on its own lines, and reads the
//! line the two share (`Partner`) as one; where a line of each crosses, a cell's code takes
//! both changes (`geometry::crossings`).

use super::{ALL_SLOTS, BLOCK_DIGIT, Board, FILLED_SLOTS, OWN_DIGIT, PACKED_DIGITS, packed};
use crate::rules::cells::CODE_PARTS;
use crate::rules::coord::Cell;
use crate::rules::geometry::{GEOMETRY, Partner, REACH, slot, slot_steps, slots_in};
use crate::rules::patterns::{ByKey, PATTERNS, Pattern};
use crate::rules::stones::Color;

impl Board {
    /// The pattern changes along direction `d` were `color` to place a stone on the empty
    /// cell `a` (and on `partner`'s, on this line, too), read without placing them: for
    /// each (stone, direction) changed, `shift(side, old, new)` with the stone's colour
    /// index and the index of its pattern before (`None` for a new stone) and after.
    #[inline]
    pub fn line_patterns_after(
        &self,
        a: Cell,
        d: usize,
        color: Color,
        partner: Option<Partner>,
        mut shift: impl FnMut(usize, Option<usize>, usize),
    ) {
        let g = &*GEOMETRY;
        let table: &ByKey<Pattern> = &PATTERNS;
        let filled: &ByKey<u16> = &FILLED_SLOTS;
        let me = color.index();
        let apart = partner.map(|p| p.steps);
        // The new stones' own patterns, each with the other in its key.
        let mut key_a = self.keys[a.index()][d][me];
        if let Some(p) = partner {
            let mut key_b = self.keys[p.cell.index()][d][me];
            if p.steps.unsigned_abs() as usize <= REACH {
                key_a += OWN_DIGIT[slot(p.steps)];
                key_b += OWN_DIGIT[slot(-p.steps)];
            }
            shift(me, None, table[key_b as usize] as usize);
        }
        shift(me, None, table[key_a as usize] as usize);
        // The stones already on the line, as the new stones change their keys. A stone
        // within reach of both (they may be up to twice the reach apart) is seen from `a`,
        // with the partner's digit added there.
        for s in slots_in(filled[key_a as usize]) {
            let Some(n) = g.line_neighbours[a.index()][d][s] else {
                continue;
            };
            let Some(occupant) = self.get(n) else {
                continue;
            };
            let side = occupant.index();
            let digits = if side == me { &OWN_DIGIT } else { &BLOCK_DIGIT };
            let steps = slot_steps(s);
            let mut key = self.keys[n.index()][d][side] + digits[2 * REACH - 1 - s];
            if let Some(k) = apart
                && (k - steps).unsigned_abs() as usize <= REACH
            {
                key += digits[slot(k - steps)];
            }
            Self::shift_pattern(
                &mut shift,
                side,
                self.stone_patterns[n.index()][d],
                table[key as usize],
            );
        }
        let Some(p) = partner else {
            return;
        };
        let key_b = self.keys[p.cell.index()][d][me];
        for s in slots_in(filled[key_b as usize]) {
            let Some(n) = g.line_neighbours[p.cell.index()][d][s] else {
                continue;
            };
            let Some(occupant) = self.get(n) else {
                continue;
            };
            if (p.steps + slot_steps(s)).unsigned_abs() as usize <= REACH {
                continue;
            }
            let side = occupant.index();
            let digits = if side == me { &OWN_DIGIT } else { &BLOCK_DIGIT };
            let key = self.keys[n.index()][d][side] + digits[2 * REACH - 1 - s];
            Self::shift_pattern(
                &mut shift,
                side,
                self.stone_patterns[n.index()][d],
                table[key as usize],
            );
        }
    }

    /// Tells `shift` of a stone's pattern moving from `old` to `new`, if it moves.
    #[inline]
    fn shift_pattern(
        shift: &mut impl FnMut(usize, Option<usize>, usize),
        side: usize,
        old: u8,
        new: Pattern,
    ) {
        if old != new as u8 {
            shift(side, Some(old as usize), new as usize);
        }
    }

    /// The empty cells whose codes change along direction `d` were `color` to place a stone
    /// on the empty cell `a` (and on `partner`'s, on this line, too), read without placing
    /// them: `changed(slot, cell, before, after)` for each, with its slot among the line
    /// neighbours of the stone it is seen from (`a`, or the partner for the cells beyond
    /// `a`'s reach) and its codes seen from black and from white. The stones' own cells are
    /// not told: they would hold stones.
    #[inline]
    pub fn line_codes_after(
        &self,
        a: Cell,
        d: usize,
        color: Color,
        partner: Option<Partner>,
        mut changed: impl FnMut(usize, Cell, [u32; 2], [u32; 2]),
    ) {
        match partner {
            None => self.codes_from(a, d, color, None, false, &mut changed),
            Some(p) => {
                self.codes_from(a, d, color, Some(p.steps), false, &mut changed);
                self.codes_from(p.cell, d, color, Some(-p.steps), true, &mut changed);
            }
        }
    }

    /// `line_codes_after` seen from one stone, `from`: `apart`, the steps to the other
    /// stone on this line; `second`, whether the other stone was read first (the cells
    /// within reach of both are then told already).
    #[inline]
    fn codes_from(
        &self,
        from: Cell,
        d: usize,
        color: Color,
        apart: Option<i32>,
        second: bool,
        changed: &mut impl FnMut(usize, Cell, [u32; 2], [u32; 2]),
    ) {
        let g = &*GEOMETRY;
        // Read once: every dereference of the lazy tables would check their initialisation.
        let code_parts: &ByKey<u16> = &CODE_PARTS;
        let filled: &ByKey<u16> = &FILLED_SLOTS;
        let digits = &PACKED_DIGITS[color.index()];
        let neighbours = &g.line_neighbours[from.index()][d];
        // The empty neighbours, but for the other stone's cell: it would hold a stone.
        let mut empty = !filled[self.keys[from.index()][d][color.index()] as usize] & ALL_SLOTS;
        // Slots within reach of the other stone on this line, whose lines take both digits.
        let mut both = 0;
        if let Some(k) = apart {
            if k.unsigned_abs() as usize <= REACH {
                empty &= !(1 << slot(k));
            }
            both = empty & reach_of(k);
            if second {
                empty &= !both;
            }
        }
        for s in slots_in(empty) {
            let Some(n) = neighbours[s] else {
                continue;
            };
            let i = n.index();
            let mut after = packed(self.keys[i][d]) + digits[2 * REACH - 1 - s];
            if both & (1 << s) != 0
                && let Some(k) = apart
            {
                after += digits[slot(k - slot_steps(s))];
            }
            let before = self.cells.part(i, d);
            let parts =
                [after & 0xffff, after >> 16].map(|key| code_parts[key as u16 as usize] as u32);
            // Most lines far from stones stay below every counted pattern.
            if parts[0] == before[0] as u32 && parts[1] == before[1] as u32 {
                continue;
            }
            let codes = self.cells.codes(i);
            let new = [0, 1].map(|c| codes[c] + parts[c] - before[c] as u32);
            changed(s, n, codes, new);
        }
    }
}

/// The slots of a line's neighbours within reach of the cell `k` steps along it.
#[inline]
fn reach_of(k: i32) -> u16 {
    (0..2 * REACH)
        .filter(|&s| (k - slot_steps(s)).unsigned_abs() as usize <= REACH)
        .fold(0, |mask, s| mask | 1 << s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::{Partner, line_offset};

    /// A turn read line by line, each stone alone on its own lines and both as one on the
    /// line they share, changes the pattern counts and the empty cells' codes as placing it
    /// does: the codes' changes add up where lines of both stones cross.
    #[test]
    fn the_lines_read_one_at_a_time_add_up_to_the_placed_turn() {
        let mut rng = crate::rng::Rng::new(5);
        let mut checked = 0;
        for round in 0..3000 {
            let mut board = Board::new();
            let (left, top) = (rng.below(11), rng.below(11));
            let near = |rng: &mut crate::rng::Rng| {
                Cell::new(left + rng.below(8), top + rng.below(8)).unwrap()
            };
            for i in 0..rng.below(36) {
                let c = near(&mut rng);
                if board.is_empty(c) {
                    board.place(c, [Color::White, Color::Black][i % 2]);
                }
            }
            let (a, b) = (near(&mut rng), near(&mut rng));
            if a == b || !board.is_empty(a) || !board.is_empty(b) {
                continue;
            }
            let color = [Color::Black, Color::White][round % 2];
            let mut counts = [Color::Black, Color::White].map(|c| *board.pattern_counts(c));
            let mut codes = [[0i64; 2]; crate::rules::coord::CELLS];
            let shared = line_offset(a, b).filter(|&(_, k)| k.unsigned_abs() as usize <= 2 * REACH);
            for d in 0..4 {
                let reads = match shared {
                    Some((line, steps)) if line == d => vec![(a, Some(Partner { cell: b, steps }))],
                    _ => vec![(a, None), (b, None)],
                };
                for (from, partner) in reads {
                    board.line_patterns_after(from, d, color, partner, |side, old, new| {
                        if let Some(old) = old {
                            counts[side][old] -= 1;
                        }
                        counts[side][new] += 1;
                    });
                    board.line_codes_after(from, d, color, partner, |_, n, before, after| {
                        for side in 0..2 {
                            codes[n.index()][side] += after[side] as i64 - before[side] as i64;
                        }
                    });
                }
            }
            let mut placed = board.clone();
            placed.place(a, color);
            placed.place(b, color);
            for side in [Color::Black, Color::White] {
                assert_eq!(
                    counts[side.index()],
                    *placed.pattern_counts(side),
                    "{a} {b}"
                );
            }
            for c in Cell::all().filter(|&c| placed.is_empty(c)) {
                let expected = placed.cell_codes(c).map(|code| code as i64);
                let now = board.cell_codes(c);
                let read = [0, 1].map(|side| now[side] as i64 + codes[c.index()][side]);
                assert_eq!(read, expected, "{c} after {a} {b}");
            }
            checked += 1;
        }
        assert!(checked > 1500, "{checked}");
    }
}

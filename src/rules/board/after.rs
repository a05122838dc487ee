//! The board read as it would be after a turn not placed: the search's leaves need only the
//! pattern counts and what the turn does to the empty cells' codes, and placing and removing
//! two stones costs about twice as much as reading them.

use super::{
    ALL_SLOTS, BLOCK_DIGIT, Board, FILLED_SLOTS, OWN_DIGIT, PACKED_DIGITS, packed, slots_in,
};
use crate::rules::cells::{CODE_PARTS, CodeObserver};
use crate::rules::coord::Cell;
use crate::rules::geometry::{GEOMETRY, REACH, crossings, line_offset, slot, slot_steps};
use crate::rules::patterns::{ByKey, PATTERN_COUNT, PATTERNS, Pattern};
use crate::rules::stones::Color;
use arrayvec::ArrayVec;

impl Board {
    /// The pattern counts of both colours (indexed by `Color::index`) were `color` to place
    /// stones on the empty cells `a` and `b`, read without placing them: the search's leaves
    /// need only these and the codes (`observe_after`), and placing and removing the two
    /// stones costs about twice as much.
    pub fn lines_after(&self, a: Cell, b: Cell, color: Color) -> [[u16; PATTERN_COUNT]; 2] {
        let g = &*GEOMETRY;
        let table: &ByKey<Pattern> = &PATTERNS;
        let filled: &ByKey<u16> = &FILLED_SLOTS;
        let me = color.index();
        let mut counts = self.pattern_counts;
        let shared = line_offset(a, b);
        for d in 0..4 {
            // Steps from `a` to `b` when they share this line.
            let apart = shared.and_then(|(line, k)| (line == d).then_some(k));
            // The new stones' own patterns, each with the other in its key.
            let mut key_a = self.keys[a.index()][d][me];
            let mut key_b = self.keys[b.index()][d][me];
            if let Some(k) = apart
                && k.unsigned_abs() as usize <= REACH
            {
                key_a += OWN_DIGIT[slot(k)];
                key_b += OWN_DIGIT[slot(-k)];
            }
            counts[me][table[key_a as usize] as usize] += 1;
            counts[me][table[key_b as usize] as usize] += 1;
            // The stones already on the line, as the new stones change their keys. A stone
            // within reach of both (they may be up to twice the reach apart) is seen from
            // `a`, with `b`'s digit added there.
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
                let old = self.keys[n.index()][d][side];
                let mut key = old + digits[2 * REACH - 1 - s];
                if let Some(k) = apart
                    && (k - steps).unsigned_abs() as usize <= REACH
                {
                    key += digits[slot(k - steps)];
                }
                Self::shift_count(
                    &mut counts[side],
                    self.stone_patterns[n.index()][d],
                    table[key as usize],
                );
            }
            for s in slots_in(filled[key_b as usize]) {
                let Some(n) = g.line_neighbours[b.index()][d][s] else {
                    continue;
                };
                let Some(occupant) = self.get(n) else {
                    continue;
                };
                if apart.is_some_and(|k| (k + slot_steps(s)).unsigned_abs() as usize <= REACH) {
                    continue;
                }
                let side = occupant.index();
                let digits = if side == me { &OWN_DIGIT } else { &BLOCK_DIGIT };
                let old = self.keys[n.index()][d][side];
                let key = old + digits[2 * REACH - 1 - s];
                Self::shift_count(
                    &mut counts[side],
                    self.stone_patterns[n.index()][d],
                    table[key as usize],
                );
            }
        }
        counts
    }

    /// Moves one (stone, direction) from pattern `old` to pattern `new` in `counts`.
    #[inline]
    fn shift_count(counts: &mut [u16; PATTERN_COUNT], old: u8, new: Pattern) {
        let new = new as usize;
        if old as usize != new {
            counts[old as usize] -= 1;
            counts[new] += 1;
        }
    }

    /// Tells `observer` what placing stones of `color` on the empty cells `a` and `b` would
    /// tell it (`place_observed` on each), without placing them: both cells occupied with
    /// their codes now, and every change of an empty cell's code. The changes come per line
    /// a stone changes, so a cell where lines of both stones cross hears two (the second
    /// from the first's code), and a cell on one line through both hears one with both
    /// stones' digits; the sums an observer keeps come out as the placed turn's.
    pub fn observe_after(&self, a: Cell, b: Cell, color: Color, observer: &mut impl CodeObserver) {
        observer.occupied(self.cells.codes(a.index()));
        observer.occupied(self.cells.codes(b.index()));
        let shared = line_offset(a, b);
        let crossing = crossings(a, b);
        // The crossings' codes after `a`'s changes, for `b`'s to start from.
        let mut after_a = ArrayVec::<(usize, [u32; 2]), 12>::new();
        for (side, from, toward) in [(0, a, 1), (1, b, -1)] {
            for (d, &crossing) in crossing[side].iter().enumerate() {
                // Steps from `from` to the other stone when they share this line.
                let apart = shared.and_then(|(line, k)| (line == d).then_some(toward * k));
                self.observe_line(
                    from,
                    d,
                    side,
                    apart,
                    crossing,
                    color,
                    &mut after_a,
                    observer,
                );
            }
        }
    }

    /// `observe_after`'s changes along direction `d` of one stone's cell `from`: `side` 0
    /// for the first stone, 1 for the second; `apart`, the steps to the other stone when on
    /// this line; `crossing`, the slots where a line of the other stone crosses.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn observe_line(
        &self,
        from: Cell,
        d: usize,
        side: usize,
        apart: Option<i32>,
        crossing: u16,
        color: Color,
        after_a: &mut ArrayVec<(usize, [u32; 2]), 12>,
        observer: &mut impl CodeObserver,
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
            if side == 1 {
                // Seen from the first stone already.
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
            let crosses = crossing & (1 << s) != 0;
            let mut codes = self.cells.codes(i);
            if crosses
                && side == 1
                && let Some(&(_, first)) = after_a.iter().find(|&&(j, _)| j == i)
            {
                codes = first;
            }
            for c in 0..2 {
                if parts[c] != before[c] as u32 {
                    let new = codes[c] + parts[c] - before[c] as u32;
                    observer.code_changed(c, codes[c], new);
                    codes[c] = new;
                }
            }
            if crosses && side == 0 {
                after_a.push((i, codes));
            }
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

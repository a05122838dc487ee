//! What stones not yet placed would change, read without placing them, one line at a time:
//! the search's frontier reads every quiet turn of a node this way. A turn's two stones
//! change each of the four lines through each of them; two stones interact only along a
//! line they share (within twice the reach of a key), so a reader can read each stone's
//! lines once and combine them, reading a shared line for the pair.
//!
//! Each reader walks one line through `a`, with `b` the turn's other stone when it lies on
//! the same line within `2 * REACH` steps (`Shared`), so that both stones' digits are seen
//! together; without it the line is read for `a` alone.

use crate::rules::board::{BLOCK_DIGIT, Board, Color, FILLED_SLOTS, OWN_DIGIT, slots_in};
use crate::rules::cells::PATTERN_PARTS;
use crate::rules::coord::Cell;
use crate::rules::geometry::{GEOMETRY, REACH, line_offset, slot, slot_steps};
use crate::rules::patterns::{KEYS, PATTERN_COUNT, PATTERNS, Pattern};

/// The turn's other stone on the line read: the cell and its steps from `a` along it.
pub type Shared = Option<(Cell, i32)>;

/// The line direction and steps from `a` to `b` when they share a line within `2 * REACH`
/// steps (within reach of one key between them), where the two stones interact.
#[inline]
pub fn shared_line(a: Cell, b: Cell) -> Option<(usize, i32)> {
    line_offset(a, b).filter(|&(_, k)| k.unsigned_abs() as usize <= 2 * REACH)
}

/// The empty cells whose codes would change were `color` to place stones on the empty
/// cells `a` and `b`, with their codes then, read without placing them (`Board::codes_after`).
pub type CodesAfter = arrayvec::ArrayVec<(usize, [u32; 2]), { 2 * 4 * 2 * REACH }>;

impl Board {
    /// Calls `f(side, old, new)` for each (stone, direction `d`) whose pattern would change
    /// were `color` to place a stone on `a` (and on `shared`'s cell) along `d`: `side` is the
    /// stone's colour index, `old` `None` for the new stones.
    #[inline]
    pub fn patterns_on_line_after(
        &self,
        a: Cell,
        shared: Shared,
        d: usize,
        color: Color,
        mut f: impl FnMut(usize, Option<u8>, Pattern),
    ) {
        let g = &*GEOMETRY;
        let table: &[Pattern; KEYS] = &PATTERNS;
        let filled: &[u16; KEYS] = &FILLED_SLOTS;
        let me = color.index();
        let apart = shared.map(|(_, k)| k);
        let near = apart.filter(|k| k.unsigned_abs() as usize <= REACH);
        // The new stones' own patterns, each with the other in its key.
        let mut key_a = self.keys[a.index()][d][me];
        if let Some(k) = near {
            key_a += OWN_DIGIT[slot(k)];
        }
        f(me, None, table[key_a as usize]);
        // The stones already on the line, as the new stones change their keys. A stone
        // within reach of both (they may be up to twice the reach apart) is seen from `a`,
        // with `b`'s digit added there.
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
            let (old, new) = (self.stone_patterns[n.index()][d], table[key as usize]);
            if old != new as u8 {
                f(side, Some(old), new);
            }
        }
        let Some((b, k)) = shared else {
            return;
        };
        let mut key_b = self.keys[b.index()][d][me];
        if near.is_some() {
            key_b += OWN_DIGIT[slot(-k)];
        }
        f(me, None, table[key_b as usize]);
        for s in slots_in(filled[key_b as usize]) {
            let Some(n) = g.line_neighbours[b.index()][d][s] else {
                continue;
            };
            let Some(occupant) = self.get(n) else {
                continue;
            };
            if (k + slot_steps(s)).unsigned_abs() as usize <= REACH {
                continue;
            }
            let side = occupant.index();
            let digits = if side == me { &OWN_DIGIT } else { &BLOCK_DIGIT };
            let key = self.keys[n.index()][d][side] + digits[2 * REACH - 1 - s];
            let (old, new) = (self.stone_patterns[n.index()][d], table[key as usize]);
            if old != new as u8 {
                f(side, Some(old), new);
            }
        }
    }

    /// Calls `f(i, before, after)` for each empty cell `i` on the line along `d` whose
    /// part of its codes from that direction (seen from black and from white) would change
    /// were `color` to place a stone on `a` (and on `shared`'s cell); the new stones' own
    /// cells are not visited. A cell within reach of both stones takes both digits at once.
    #[inline]
    pub fn parts_on_line_after(
        &self,
        a: Cell,
        shared: Shared,
        d: usize,
        color: Color,
        mut f: impl FnMut(usize, [u16; 2], [u16; 2]),
    ) {
        let g = &*GEOMETRY;
        let table: &[Pattern; KEYS] = &PATTERNS;
        let me = color.index();
        let ends = [Some((a, shared)), shared.map(|(b, k)| (b, Some((a, -k))))];
        for (index, (from, other)) in ends.into_iter().flatten().enumerate() {
            for (s, n) in g.line_neighbours[from.index()][d].iter().enumerate() {
                let Some(n) = *n else {
                    continue;
                };
                if other.is_some_and(|(o, _)| o == n) || !self.is_empty(n) {
                    continue;
                }
                // The other stone in `n`'s key, when within reach of `n`: both stones
                // change the line at once, seen from `a` only.
                let other_slot = other.and_then(|(_, k)| {
                    let rel = k - slot_steps(s);
                    (rel.unsigned_abs() as usize <= REACH).then(|| slot(rel))
                });
                if index == 1 && other_slot.is_some() {
                    continue;
                }
                let mut after = self.keys[n.index()][d];
                let mirrored = 2 * REACH - 1 - s;
                after[me] += OWN_DIGIT[mirrored];
                after[1 - me] += BLOCK_DIGIT[mirrored];
                if let Some(o) = other_slot {
                    after[me] += OWN_DIGIT[o];
                    after[1 - me] += BLOCK_DIGIT[o];
                }
                let before = self.cells.part(n.index(), d);
                let after = after.map(|key| PATTERN_PARTS[table[key as usize] as usize] as u16);
                // Most lines far from stones stay below every counted pattern.
                if after != before {
                    f(n.index(), before, after);
                }
            }
        }
    }

    /// The pattern counts of both colours (indexed by `Color::index`) were `color` to place
    /// stones on the empty cells `a` and `b`, read without placing them.
    pub fn lines_after(&self, a: Cell, b: Cell, color: Color) -> [[u16; PATTERN_COUNT]; 2] {
        let mut counts = self.pattern_counts;
        let shared = shared_line(a, b);
        for d in 0..4 {
            let mut count = |side: usize, old: Option<u8>, new: Pattern| {
                if let Some(old) = old {
                    counts[side][old as usize] -= 1;
                }
                counts[side][new as usize] += 1;
            };
            match shared {
                Some((line, k)) if line == d => {
                    self.patterns_on_line_after(a, Some((b, k)), d, color, &mut count)
                }
                _ => {
                    self.patterns_on_line_after(a, None, d, color, &mut count);
                    self.patterns_on_line_after(b, None, d, color, &mut count);
                }
            }
        }
        counts
    }

    /// The empty cells whose codes would change were `color` to place stones on the empty
    /// cells `a` and `b`, with their codes then, read without placing them: the empty cells
    /// on their lines move to new codes (a cell on the lines of both, in two directions,
    /// takes both changes; on one line through both, both stones' digits at once). `a` and
    /// `b` themselves are not listed: they would hold stones.
    pub fn codes_after(&self, a: Cell, b: Cell, color: Color) -> CodesAfter {
        let mut changed = CodesAfter::new();
        let shared = shared_line(a, b);
        for d in 0..4 {
            let mut change = |i: usize, before: [u16; 2], after: [u16; 2]| {
                let at = match changed.iter().position(|&(j, _)| j == i) {
                    Some(at) => at,
                    None => {
                        changed.push((i, self.cells.codes(i)));
                        changed.len() - 1
                    }
                };
                for c in 0..2 {
                    changed[at].1[c] = changed[at].1[c] + after[c] as u32 - before[c] as u32;
                }
            };
            match shared {
                Some((line, k)) if line == d => {
                    self.parts_on_line_after(a, Some((b, k)), d, color, &mut change)
                }
                _ => {
                    self.parts_on_line_after(a, None, d, color, &mut change);
                    self.parts_on_line_after(b, None, d, color, &mut change);
                }
            }
        }
        changed
    }
}

//! Cell codes: what a stone on an empty cell would make along all four of its lines at once.
//!
//! A line pattern (`patterns`) sees one line; a cell where one colour would make a live three
//! in one direction and a dead four in another is worth far more than the two apart, since a
//! turn there threatens twice. The cell code names the multiset of the four patterns a stone
//! of one colour would make on the cell, as counts of each pattern class in base 5 (four
//! lines, so no count passes four). Only live twos to live fours are counted. `None` and
//! dead twos are most of the board; fives and sixes are never met where the evaluation is
//! read, a quiet position: a stone making five in a window means the window holds a threat
//! already. Leaving them out keeps the table of values small enough to stay in cache.
//!
//! A cell's code is a sum of one part per line (`code_part` of the line's key), so when a
//! stone changes one line of a cell, its code changes by that line's new part less its old
//! one: the board keeps every empty cell's code as stones come and go (`CellCodes`), and
//! tells a `CodeObserver` what changed. What a code is worth is not a fact of the game: the
//! engine's evaluator (`engine::eval`) values the codes and keeps its sums by those hooks.

use crate::rules::coord::CELLS;
use crate::rules::patterns::{ByKey, PATTERN_COUNT, PATTERNS, Pattern, key_table};
use once_cell::sync::Lazy;

/// Pattern classes counted in a code: live two to live four.
const COUNTED: usize = 5;

/// Distinct cell codes: a base-5 digit per counted class.
pub const CELL_CODES: usize = 5usize.pow(COUNTED as u32);

/// What a line whose pattern is `p` adds to a cell's code.
pub const fn pattern_part(p: Pattern) -> u32 {
    match p {
        Pattern::Live2 | Pattern::Dead3 | Pattern::Live3 | Pattern::Dead4 | Pattern::Live4 => {
            5u32.pow(p as u32 - Pattern::Live2 as u32)
        }
        _ => 0,
    }
}

/// `pattern_part` of each pattern, by `Pattern as usize`.
pub const PATTERN_PARTS: [u32; PATTERN_COUNT] = {
    let all = [
        Pattern::None,
        Pattern::Dead2,
        Pattern::Live2,
        Pattern::Dead3,
        Pattern::Live3,
        Pattern::Dead4,
        Pattern::Live4,
        Pattern::Dead5,
        Pattern::Live5,
        Pattern::Six,
    ];
    let mut parts = [0; PATTERN_COUNT];
    let mut i = 0;
    while i < PATTERN_COUNT {
        parts[all[i] as usize] = pattern_part(all[i]);
        i += 1;
    }
    parts
};

/// What a line with key `key` adds to a cell's code.
#[inline]
pub fn code_part(key: u16) -> u32 {
    CODE_PARTS[key as usize] as u32
}

/// `code_part` of every key, in one table: the upkeep of the codes reads it for every line
/// a stone changes, and one lookup is cheaper than the pattern's and then its part's.
pub static CODE_PARTS: Lazy<Box<ByKey<u16>>> = Lazy::new(|| {
    let mut parts = key_table(0u16);
    for (part, &pattern) in parts.iter_mut().zip(PATTERNS.iter()) {
        *part = PATTERN_PARTS[pattern as usize] as u16;
    }
    parts
});

/// The code of a cell whose four lines have these keys (seen from one colour).
pub fn cell_code(keys: [u16; 4]) -> u32 {
    keys.iter().map(|&k| code_part(k)).sum()
}

/// What the board tells about its empty cells' codes as stones come and go: an evaluator
/// keeps what its model makes of the codes by these hooks, without reading the board again.
pub trait CodeObserver {
    /// The code of an empty cell, seen from the colour of index `color`, moves from `old`
    /// to `new`.
    fn code_changed(&mut self, color: usize, old: u32, new: u32);
    /// A stone lands on an empty cell whose codes (seen from black, from white) were `codes`.
    fn occupied(&mut self, codes: [u32; 2]);
    /// A stone leaves a cell; its codes are now `codes`.
    fn vacated(&mut self, codes: [u32; 2]);
}

/// Nobody watching: the board's plain `place` and `remove`.
impl CodeObserver for () {
    #[inline]
    fn code_changed(&mut self, _: usize, _: u32, _: u32) {}
    #[inline]
    fn occupied(&mut self, _: [u32; 2]) {}
    #[inline]
    fn vacated(&mut self, _: [u32; 2]) {}
}

/// Every empty cell's code, seen from each colour, and each line's part of it.
///
/// Only the empty cells' codes are kept up to date: a stone's cell has no code, so the lines
/// a stone changes cost a lookup of their new patterns at the empty cells alone, and a
/// cell's code is read afresh from its lines when its stone is removed. Each line's part of
/// a code is kept too, so a changed line looks up only its new pattern.
#[derive(Clone, PartialEq, Eq)]
pub struct CellCodes {
    /// Each empty cell's part of its code from each direction, seen from each colour
    /// (`code_part` of the line's key); stale on a stone.
    parts: [[[u16; 2]; 4]; CELLS],
    /// Each empty cell's code seen from each colour: the sum of its parts; stale on a stone.
    codes: [[u32; 2]; CELLS],
}

impl CellCodes {
    /// The codes of the cells `is_empty` names, read from their lines' keys.
    pub fn read(keys: &[[[u16; 2]; 4]; CELLS], is_empty: impl Fn(usize) -> bool) -> CellCodes {
        let mut codes = CellCodes {
            parts: [[[0; 2]; 4]; CELLS],
            codes: [[0; 2]; CELLS],
        };
        for (i, lines) in keys.iter().enumerate() {
            if is_empty(i) {
                codes.vacate(i, lines, &mut ());
            }
        }
        codes
    }

    /// A stone is placed on the empty cell `i`: its code is no longer kept.
    #[inline]
    pub fn occupy(&self, i: usize, observer: &mut impl CodeObserver) {
        observer.occupied(self.codes[i]);
    }

    /// The stone on cell `i` is removed: its code is read afresh from its lines' keys (seen
    /// from black and from white, by direction).
    #[inline]
    pub fn vacate(&mut self, i: usize, keys: &[[u16; 2]; 4], observer: &mut impl CodeObserver) {
        let table: &ByKey<u16> = &CODE_PARTS;
        let mut code = [0u32; 2];
        for (part, key) in self.parts[i].iter_mut().zip(keys) {
            for color in 0..2 {
                part[color] = table[key[color] as usize];
                code[color] += part[color] as u32;
            }
        }
        self.codes[i] = code;
        observer.vacated(code);
    }

    /// The line of the empty cell `i` along direction `d` now has the keys `keys` (seen
    /// from black and from white); `table` is `CODE_PARTS`, read once by the caller. When
    /// the line's part changes, gives back what the cell held before (its part from `d` and
    /// its codes), for a caller that takes stones back by restoring it.
    #[inline]
    pub fn line_changed(
        &mut self,
        i: usize,
        d: usize,
        keys: [u16; 2],
        table: &ByKey<u16>,
        observer: &mut impl CodeObserver,
    ) -> Option<([u16; 2], [u32; 2])> {
        let new_parts = [table[keys[0] as usize], table[keys[1] as usize]];
        let old_parts = self.parts[i][d];
        if new_parts == old_parts {
            return None;
        }
        let old_codes = self.codes[i];
        self.parts[i][d] = new_parts;
        for color in 0..2 {
            if new_parts[color] != old_parts[color] {
                let old = old_codes[color];
                let new = old + new_parts[color] as u32 - old_parts[color] as u32;
                self.codes[i][color] = new;
                observer.code_changed(color, old, new);
            }
        }
        Some((old_parts, old_codes))
    }

    /// Puts back what `line_changed` gave back for cell `i` and direction `d`.
    #[inline]
    pub fn restore_line(&mut self, i: usize, d: usize, parts: [u16; 2], codes: [u32; 2]) {
        self.parts[i][d] = parts;
        self.codes[i] = codes;
    }

    /// The empty cell `i`'s codes seen from black and from white.
    #[inline]
    pub fn codes(&self, i: usize) -> [u32; 2] {
        self.codes[i]
    }

    /// The empty cell `i`'s part of its codes from direction `d`, seen from black and from
    /// white.
    #[inline]
    pub fn part(&self, i: usize, d: usize) -> [u16; 2] {
        self.parts[i][d]
    }

    /// Whether the kept codes equal `other`'s (a recount's) on the cells `is_empty` names:
    /// a stone's code is not kept.
    pub fn same_as(&self, other: &CellCodes, is_empty: impl Fn(usize) -> bool) -> bool {
        (0..CELLS)
            .filter(|&i| is_empty(i))
            .all(|i| self.codes[i] == other.codes[i] && self.parts[i] == other.parts[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::patterns::pattern;

    #[test]
    fn codes_count_each_class_in_its_own_digit() {
        assert_eq!(CELL_CODES, 3125);
        let counted = [
            Pattern::Live2,
            Pattern::Dead3,
            Pattern::Live3,
            Pattern::Dead4,
            Pattern::Live4,
        ];
        for (i, &p) in counted.iter().enumerate() {
            assert_eq!(pattern_part(p), 5u32.pow(i as u32), "{p:?}");
            assert_eq!(PATTERN_PARTS[p as usize], pattern_part(p));
        }
        // What is not counted adds nothing, and four lines of the strongest class still fit
        // below the bound: different multisets, different codes.
        for p in [
            Pattern::None,
            Pattern::Dead2,
            Pattern::Dead5,
            Pattern::Live5,
            Pattern::Six,
        ] {
            assert_eq!(PATTERN_PARTS[p as usize], 0, "{p:?}");
        }
        assert!(4 * pattern_part(Pattern::Live4) < CELL_CODES as u32);
        // Keys read from real lines: a live three along two lines and a dead four along a
        // third is two threes' digits and a four's.
        use crate::rules::patterns::{key_of, parse_line};
        let key = |text: &str| key_of(&parse_line(text)) as u16;
        let (three, four) = (key("..OO*..."), key("XOOO*.."));
        assert_eq!(
            (pattern(three), pattern(four)),
            (Pattern::Live3, Pattern::Dead4)
        );
        assert_eq!(
            cell_code([three, three, four, 0]),
            2 * pattern_part(Pattern::Live3) + pattern_part(Pattern::Dead4)
        );
    }
}

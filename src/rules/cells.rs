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
//! one: the board keeps every cell's code, and the sums of a table of values over the empty
//! cells' codes (`CellValues`), as stones come and go.

use crate::rules::coord::CELLS;
use crate::rules::patterns::{KEYS, PATTERN_COUNT, PATTERNS, Pattern};

/// Pattern classes counted in a code: live two to live four.
const COUNTED: usize = 5;

/// Distinct cell codes: a base-5 digit per counted class.
pub const CELL_CODES: usize = 5usize.pow(COUNTED as u32);

/// Numbers per code and side in a table of cell values: the cell network's first layer
/// (`engine::cell_eval`); plain values use lane 0 alone.
pub const LANES: usize = 8;

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
    PATTERN_PARTS[PATTERNS[key as usize] as usize]
}

/// The code of a cell whose four lines have these keys (seen from one colour).
pub fn cell_code(keys: [u16; 4]) -> u32 {
    keys.iter().map(|&k| code_part(k)).sum()
}

/// Values of an empty cell by its code seen from one colour: `[0]` when that colour is to
/// move, `[1]` when it waits, each a vector of `LANES` numbers. The board keeps their sums
/// over the empty cells for each colour; what they mean is up to the table's owner (the
/// engine's learned evaluation: a plain sum in lane 0, or a network's first layer).
pub type CellValues = [[Lanes<i16>; 2]; CELL_CODES];

/// One number per lane.
pub type Lanes<T> = [T; LANES];

/// One colour's sums of a table of cell values: as to move, as waiting.
pub type CellSum = [Lanes<i32>; 2];

/// A table of cell values, every one zero.
pub fn zero_cell_values() -> Box<CellValues> {
    Box::new([[[0; LANES]; 2]; CELL_CODES])
}

/// The table of a board that sums no cell values.
static NO_CELL_VALUES: CellValues = [[[0; LANES]; 2]; CELL_CODES];

/// A board's cell codes and the sums of a table of values over its empty cells: the board
/// calls it as stones come and go (`Board::set_cell_values` switches it on).
///
/// Only the empty cells' codes are kept up to date: a stone's cell counts for nothing, so
/// the lines a stone changes cost a lookup of their new patterns at the empty cells alone,
/// and a cell's code is read afresh from its lines when its stone is removed. Each line's
/// part of a code is kept too, so a changed line looks up only its new pattern.
#[derive(Clone)]
pub struct CellSums {
    values: &'static CellValues,
    /// False for `NO_CELL_VALUES`: then nothing is kept, and every sum stays zero.
    valued: bool,
    /// Whether some value is outside lane 0 (a network's table, not plain values).
    wide: bool,
    /// Each empty cell's part of its code from each direction, seen from each colour
    /// (`code_part` of the line's key); stale on a stone.
    parts: [[[u16; 2]; 4]; CELLS],
    /// Each empty cell's code seen from each colour: the sum of its parts; stale on a stone.
    codes: [[u32; 2]; CELLS],
    /// Per colour: the values of its codes summed over the empty cells, as to move and as
    /// waiting.
    sums: [CellSum; 2],
}

impl Default for CellSums {
    fn default() -> Self {
        CellSums {
            values: &NO_CELL_VALUES,
            valued: false,
            wide: false,
            parts: [[[0; 2]; 4]; CELLS],
            codes: [[0; 2]; CELLS],
            sums: [[[0; LANES]; 2]; 2],
        }
    }
}

/// Adds the values of `code` to `sum` (`ADD`), or takes them away; in lane 0 alone unless
/// the table is `wide`, since its other lanes are all zero.
#[inline]
fn shift<const ADD: bool>(values: &CellValues, sum: &mut CellSum, code: u32, wide: bool) {
    let v = &values[code as usize];
    if !wide {
        for role in 0..2 {
            if ADD {
                sum[role][0] += v[role][0] as i32;
            } else {
                sum[role][0] -= v[role][0] as i32;
            }
        }
        return;
    }
    for role in 0..2 {
        for (s, &x) in sum[role].iter_mut().zip(&v[role]) {
            if ADD {
                *s += x as i32;
            } else {
                *s -= x as i32;
            }
        }
    }
}

/// Adds the values of `code` to `sum`: what the board does for each empty cell.
pub fn add_code(values: &CellValues, sum: &mut CellSum, code: u32) {
    shift::<true>(values, sum, code, true);
}

impl CellSums {
    /// Whether a table is summed (the codes and sums are kept).
    #[inline]
    pub fn valued(&self) -> bool {
        self.valued
    }

    /// Sums `values` from now on (none: `None`), rebuilt from the lines' keys and which
    /// cells are empty.
    pub fn rebuild(
        &mut self,
        values: Option<&'static CellValues>,
        keys: &[[[u16; 2]; 4]; CELLS],
        is_empty: impl Fn(usize) -> bool,
    ) {
        *self = CellSums::default();
        let Some(values) = values else {
            return;
        };
        self.values = values;
        self.valued = true;
        self.wide = values
            .iter()
            .flatten()
            .any(|lanes| lanes[1..].iter().any(|&x| x != 0));
        for (i, lines) in keys.iter().enumerate() {
            if is_empty(i) {
                self.vacate(i, lines);
            }
        }
    }

    /// The sums for the colour of index `color`: `[as to move, as waiting]`.
    #[inline]
    pub fn sums(&self, color: usize) -> &CellSum {
        &self.sums[color]
    }

    /// Adds the values of cell `i`'s codes (`ADD`), or takes them away.
    #[inline]
    fn add<const ADD: bool>(&mut self, i: usize) {
        for color in 0..2 {
            shift::<ADD>(
                self.values,
                &mut self.sums[color],
                self.codes[i][color],
                self.wide,
            );
        }
    }

    /// A stone is placed on the empty cell `i`: it no longer counts.
    #[inline]
    pub fn occupy(&mut self, i: usize) {
        if self.valued {
            self.add::<false>(i);
        }
    }

    /// The stone on cell `i` is removed: its code is read afresh from its lines' keys (seen
    /// from black and from white, by direction), and it counts again.
    #[inline]
    pub fn vacate(&mut self, i: usize, keys: &[[u16; 2]; 4]) {
        if !self.valued {
            return;
        }
        let table: &[Pattern; KEYS] = &PATTERNS;
        let mut code = [0u32; 2];
        for (part, key) in self.parts[i].iter_mut().zip(keys) {
            for color in 0..2 {
                part[color] = PATTERN_PARTS[table[key[color] as usize] as usize] as u16;
                code[color] += part[color] as u32;
            }
        }
        self.codes[i] = code;
        self.add::<true>(i);
    }

    /// The line of the empty cell `i` along direction `d` now has the keys `keys` (seen
    /// from black and from white); `table` is `PATTERNS`, read once by the caller.
    #[inline]
    pub fn line_changed(&mut self, i: usize, d: usize, keys: [u16; 2], table: &[Pattern; KEYS]) {
        for color in 0..2 {
            let new_part = PATTERN_PARTS[table[keys[color] as usize] as usize] as u16;
            let old_part = self.parts[i][d][color];
            if new_part != old_part {
                self.parts[i][d][color] = new_part;
                let old = self.codes[i][color];
                let new = old + new_part as u32 - old_part as u32;
                self.codes[i][color] = new;
                shift::<false>(self.values, &mut self.sums[color], old, self.wide);
                shift::<true>(self.values, &mut self.sums[color], new, self.wide);
            }
        }
    }

    /// The empty cell `i`'s code seen from the colour of index `color`.
    #[inline]
    pub fn code(&self, i: usize, color: usize) -> u32 {
        self.codes[i][color]
    }

    /// The empty cell `i`'s part of its codes from direction `d`, seen from black and from
    /// white.
    #[inline]
    pub fn part(&self, i: usize, d: usize) -> [u16; 2] {
        self.parts[i][d]
    }

    /// What `sums` would be with the cells in `gone` occupied and the codes of the empty
    /// cells in `changed` moved to the codes given.
    pub fn sums_with(&self, gone: [usize; 2], changed: &[(usize, [u32; 2])]) -> [CellSum; 2] {
        let mut sums = self.sums;
        if !self.valued {
            return sums;
        }
        for i in gone {
            for (color, sum) in sums.iter_mut().enumerate() {
                shift::<false>(self.values, sum, self.codes[i][color], self.wide);
            }
        }
        for &(i, codes) in changed {
            for (color, (sum, &code)) in sums.iter_mut().zip(&codes).enumerate() {
                shift::<false>(self.values, sum, self.codes[i][color], self.wide);
                shift::<true>(self.values, sum, code, self.wide);
            }
        }
        sums
    }

    /// The table summed, if any.
    pub fn values(&self) -> Option<&'static CellValues> {
        self.valued.then_some(self.values)
    }

    /// Whether the kept state equals `other`'s (a recount's) on the cells `is_empty` names:
    /// a stone's code is not kept.
    pub fn same_as(&self, other: &CellSums, is_empty: impl Fn(usize) -> bool) -> bool {
        self.valued == other.valued
            && self.wide == other.wide
            && (0..CELLS)
                .filter(|&i| is_empty(i))
                .all(|i| self.codes[i] == other.codes[i] && self.parts[i] == other.parts[i])
            && self.sums == other.sums
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

//! Line patterns: what one stone makes along one line, in Connect6 terms.
//!
//! A pattern is read from the eleven cells centred on a stone (five each side: no window of
//! six through the centre reaches further). Each of the ten neighbours is a base-3 digit:
//! empty, own stone, or blocked (opponent stone or off the board). The classes:
//! - **six**: six or more own stones in a row;
//! - **live / dead five and four**: a window of six through the centre holds five (four) own
//!   stones and no blocker, so one turn completes a six. *Live* when the opponent needs two
//!   stones to stop every such window, *dead* when one suffices;
//! - **live three / two**: one (two) more own stones can make a live four; **dead three / two**:
//!   a window can still hold a six but no live four is within reach.
//!
//! `classify` is the slow, readable definition; `PATTERNS` is the table built from it once.

use crate::rules::geometry::{REACH, WINDOW};
use once_cell::sync::Lazy;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
#[repr(u8)]
pub enum Pattern {
    None = 0,
    Dead2,
    Live2,
    Dead3,
    Live3,
    Dead4,
    Live4,
    Dead5,
    Live5,
    Six,
}

pub const PATTERN_COUNT: usize = 10;

/// State of a cell seen from one colour.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Seen {
    Empty = 0,
    Own = 1,
    Blocked = 2,
}

/// Cells in a pattern line: five each side of the centre.
pub const LINE: usize = 2 * REACH + 1;
const CENTRE: usize = REACH;
/// Number of pattern keys: 3^10.
pub const KEYS: usize = 59049;

/// A table with an entry for every value a `u16` key can take, so that a lookup needs no
/// bounds check; the entries from `KEYS` on are never read.
pub type ByKey<T> = [T; 1 << u16::BITS];

/// A `ByKey` table with every entry `fill`, built on the heap (it is too large for a stack).
pub fn key_table<T: Clone>(fill: T) -> Box<ByKey<T>> {
    vec![fill; 1 << u16::BITS]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("the length is the type's"))
}

/// Powers of three for the ten neighbour digits (slot order of `geometry::slot`).
pub const POW3: [u16; 2 * REACH] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683];

/// Key of a line (centre ignored): neighbour slot i carries digit `line[i]` (i < 5) or
/// `line[i + 1]` (i >= 5).
pub fn key_of(line: &[Seen; LINE]) -> usize {
    (0..2 * REACH)
        .map(|s| {
            let cell = if s < CENTRE { s } else { s + 1 };
            line[cell] as usize * POW3[s] as usize
        })
        .sum()
}

pub fn line_of(key: usize) -> [Seen; LINE] {
    let mut line = [Seen::Own; LINE];
    let mut k = key;
    for s in 0..2 * REACH {
        let cell = if s < CENTRE { s } else { s + 1 };
        line[cell] = match k % 3 {
            0 => Seen::Empty,
            1 => Seen::Own,
            _ => Seen::Blocked,
        };
        k /= 3;
    }
    line
}

/// Windows of six through the centre with no blocker, as (start, own stones).
fn open_windows(line: &[Seen; LINE]) -> impl Iterator<Item = (usize, usize)> + '_ {
    (0..=CENTRE).filter_map(move |start| {
        let w = &line[start..start + WINDOW];
        (!w.contains(&Seen::Blocked))
            .then(|| (start, w.iter().filter(|&&s| s == Seen::Own).count()))
    })
}

/// Fewest empty cells that hit every open window holding at least `need` own stones.
/// Counts up to 2; "2" means "two or more".
fn blockers_needed(line: &[Seen; LINE], need: usize) -> usize {
    let targets: Vec<usize> = open_windows(line)
        .filter(|&(_, n)| n >= need)
        .map(|(s, _)| s)
        .collect();
    if targets.is_empty() {
        return 0;
    }
    let hits_all = |cell: usize| targets.iter().all(|&s| (s..s + WINDOW).contains(&cell));
    let one_blocks = (0..LINE).any(|c| line[c] == Seen::Empty && hits_all(c));
    if one_blocks { 1 } else { 2 }
}

/// The slow, readable classifier; `subpattern` classifies a line with more own stones
/// (recursion, or a table lookup once those lines are known).
fn classify_with(line: &[Seen; LINE], subpattern: &dyn Fn(&[Seen; LINE]) -> Pattern) -> Pattern {
    debug_assert_eq!(line[CENTRE], Seen::Own);
    let most = open_windows(line).map(|(_, n)| n).max().unwrap_or(0);
    let empties = || (0..LINE).filter(|&c| line[c] == Seen::Empty);
    let with = |cells: &[usize]| {
        let mut l = *line;
        for &c in cells {
            l[c] = Seen::Own;
        }
        subpattern(&l)
    };
    match most {
        6 => Pattern::Six,
        5 | 4 => {
            let live = blockers_needed(line, 4) >= 2;
            match (most, live) {
                (5, true) => Pattern::Live5,
                (5, false) => Pattern::Dead5,
                (_, true) => Pattern::Live4,
                _ => Pattern::Dead4,
            }
        }
        3 => {
            if empties().any(|c| with(&[c]) == Pattern::Live4) {
                Pattern::Live3
            } else {
                Pattern::Dead3
            }
        }
        2 => {
            let live = empties().any(|a| {
                empties()
                    .filter(|&b| b > a)
                    .any(|b| with(&[a, b]) == Pattern::Live4)
            });
            if live { Pattern::Live2 } else { Pattern::Dead2 }
        }
        _ => Pattern::None,
    }
}

/// Classifies a line whose centre is an own stone. Slow; the engine uses `PATTERNS`.
pub fn classify(line: &[Seen; LINE]) -> Pattern {
    classify_with(line, &classify)
}

/// Pattern of every key, built once from `classify_with`: lines with more own stones first,
/// so each recursive step is a lookup.
pub static PATTERNS: Lazy<Box<ByKey<Pattern>>> = Lazy::new(|| {
    let mut keys: Vec<usize> = (0..KEYS).collect();
    let own = |k: usize| line_of(k).iter().filter(|&&s| s == Seen::Own).count();
    keys.sort_by_key(|&k| std::cmp::Reverse(own(k)));
    let table = std::cell::RefCell::new(key_table(Pattern::None));
    for k in keys {
        let p = classify_with(&line_of(k), &|l| table.borrow()[key_of(l)]);
        table.borrow_mut()[k] = p;
    }
    table.into_inner()
});

#[inline]
pub fn pattern(key: u16) -> Pattern {
    PATTERNS[key as usize]
}

/// Parses a hand-written line for tests and tools: `O` own, `X` blocked, `.` empty, `*` the
/// centre (own); it is padded to five cells each side with blockers (the board edge).
pub fn parse_line(text: &str) -> [Seen; LINE] {
    let centre = text.find('*').expect("a line needs a centre '*'");
    let mut line = [Seen::Blocked; LINE];
    for (i, ch) in text.chars().enumerate() {
        let pos = i as isize - centre as isize + CENTRE as isize;
        if !(0..LINE as isize).contains(&pos) {
            continue;
        }
        line[pos as usize] = match ch {
            'O' | '*' => Seen::Own,
            '.' => Seen::Empty,
            _ => Seen::Blocked,
        };
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use Pattern::*;

    fn c(text: &str) -> Pattern {
        classify(&parse_line(text))
    }

    #[test]
    fn sixes_and_overlines() {
        assert_eq!(c("..OO*OOO.."), Six);
        assert_eq!(c("X*OOOOOOX"), Six);
        assert_eq!(c("OOO*OOO"), Six);
    }

    #[test]
    fn fives() {
        assert_eq!(c("....OO*OO....."), Live5);
        assert_eq!(c("XOO*OO......"), Dead5);
        assert_eq!(c("X.OO*OO.X"), Live5);
        assert_eq!(c("XOO*O.OX"), Dead5);
        // Five stones with only one six-window that can still be filled.
        assert_eq!(c("XOO*OO.X"), Dead5);
    }

    #[test]
    fn fours() {
        assert_eq!(c("....OO*O....."), Live4);
        assert_eq!(c("XOO*O......."), Dead4);
        // A gap in the middle: one stone in the gap stops both windows.
        assert_eq!(c("....OO.*O......"), Dead4);
        assert_eq!(c("X..O*OO..X"), Live4);
        assert_eq!(c("X.O*OO..X"), Dead4);
        assert_eq!(c("XO*OO..X"), Dead4);
    }

    #[test]
    fn threes() {
        assert_eq!(c(".....O*O....."), Live3);
        assert_eq!(c("XO*O........"), Dead3);
        assert_eq!(c(".....O*.O....."), Live3);
        // Every added stone leaves a gap that one blocker fills: no live four in reach.
        assert_eq!(c(".....O.*.O....."), Dead3);
        assert_eq!(c("X.O*O...X"), Dead3);
    }

    #[test]
    fn twos() {
        assert_eq!(c("......*O......"), Live2);
        assert_eq!(c("X*O........"), Dead2);
        assert_eq!(c(".....*..O....."), Live2);
        assert_eq!(c("....*...O....."), Dead2);
        assert_eq!(c("X.*O....X"), Dead2);
        assert_eq!(c("X*O...X"), None);
        assert_eq!(c("......*......"), None);
    }

    #[test]
    fn table_agrees_with_classifier() {
        // Every key with at least three own neighbours, and a stride through the rest.
        for k in (0..KEYS)
            .filter(|k| k % 7 == 0 || line_of(*k).iter().filter(|&&s| s == Seen::Own).count() >= 4)
        {
            assert_eq!(
                PATTERNS[k],
                classify(&line_of(k)),
                "key {k}: {:?}",
                line_of(k)
            );
        }
    }

    #[test]
    fn key_round_trip() {
        for k in [0, 1, 12345, KEYS - 1] {
            assert_eq!(key_of(&line_of(k)), k);
        }
    }
}

//! Fixed board geometry, computed once: the four line directions, every six-cell window,
//! and for each cell its line neighbours within five steps.

use crate::rules::cellset::CellSet;
use crate::rules::coord::{CELLS, Cell};
use once_cell::sync::Lazy;

/// Column and row step of the four line directions: horizontal, vertical, two diagonals.
pub const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// A six-in-a-row needs six cells; every window is six consecutive cells of one line.
pub const WINDOW: usize = 6;

/// How far along a line a stone can still share a window with another: `WINDOW - 1`.
pub const REACH: usize = WINDOW - 1;

/// Number of six-cell windows on a 19x19 board: 2 * 19 * 14 straight + 2 * 14 * 14 diagonal.
pub const WINDOWS: usize = 924;

/// The most windows one cell lies in: six per direction.
pub const WINDOWS_PER_CELL: usize = 24;

pub struct Geometry {
    /// The cells of each window, in line order.
    pub window_cells: [[Cell; WINDOW]; WINDOWS],
    /// The line direction (index into `DIRS`) of each window.
    pub window_direction: [u8; WINDOWS],
    /// The cells of each window as a set: whether a window holds a cell is one bit test
    /// (`window_holds`), as the threat counts ask at every step.
    window_masks: [CellSet; WINDOWS],
    /// For each cell, the windows through it (`cell_window_count` of them are valid).
    pub cell_windows: [[u16; WINDOWS_PER_CELL]; CELLS],
    pub cell_window_count: [u8; CELLS],
    /// Where each direction's windows start in a cell's list (`cell_windows` holds them
    /// direction by direction, as windows are numbered): direction `d` is
    /// `cell_windows[c][bounds[c][d]..bounds[c][d + 1]]`.
    pub cell_direction_bounds: [[u8; 5]; CELLS],
    /// For each cell and direction, the cell `k` steps behind (`[0..5]`, k = 5..1) and ahead
    /// (`[5..10]`, k = 1..5), or `None` off the board. Slot order matches pattern-key digits.
    pub line_neighbours: [[[Option<Cell>; 2 * REACH]; 4]; CELLS],
}

/// Digit (slot) of the pattern key that holds the cell `k` steps along a line (negative = behind).
pub const fn slot(k: i32) -> usize {
    if k < 0 {
        (k + REACH as i32) as usize
    } else {
        (k + REACH as i32 - 1) as usize
    }
}

pub static GEOMETRY: Lazy<Box<Geometry>> = Lazy::new(build);

fn build() -> Box<Geometry> {
    let mut window_cells = Vec::with_capacity(WINDOWS);
    let mut window_direction = [0u8; WINDOWS];
    for (d, &(dc, dr)) in DIRS.iter().enumerate() {
        for start in Cell::all() {
            if start.offset(dc, dr, REACH as i32).is_some() {
                let cells: [Cell; WINDOW] =
                    std::array::from_fn(|k| start.offset(dc, dr, k as i32).expect("inside"));
                window_direction[window_cells.len()] = d as u8;
                window_cells.push(cells);
            }
        }
    }
    assert_eq!(window_cells.len(), WINDOWS);

    let window_masks: [CellSet; WINDOWS] =
        std::array::from_fn(|w| window_cells[w].iter().copied().collect());

    let mut cell_windows = [[0u16; WINDOWS_PER_CELL]; CELLS];
    let mut cell_window_count = [0u8; CELLS];
    for (w, cells) in window_cells.iter().enumerate() {
        for c in cells {
            let n = &mut cell_window_count[c.index()];
            cell_windows[c.index()][*n as usize] = w as u16;
            *n += 1;
        }
    }

    let mut cell_direction_bounds = [[0u8; 5]; CELLS];
    for c in 0..CELLS {
        let list = &cell_windows[c][..cell_window_count[c] as usize];
        for d in 0..4 {
            let end = list
                .iter()
                .filter(|&&w| window_direction[w as usize] as usize <= d)
                .count();
            cell_direction_bounds[c][d + 1] = end as u8;
        }
        debug_assert!(list.is_sorted());
    }

    let mut line_neighbours = [[[None; 2 * REACH]; 4]; CELLS];
    for c in Cell::all() {
        for (d, &(dc, dr)) in DIRS.iter().enumerate() {
            for k in 1..=REACH as i32 {
                line_neighbours[c.index()][d][slot(-k)] = c.offset(dc, dr, -k);
                line_neighbours[c.index()][d][slot(k)] = c.offset(dc, dr, k);
            }
        }
    }

    Box::new(Geometry {
        window_cells: window_cells.try_into().unwrap_or_else(|_| unreachable!()),
        window_direction,
        window_masks,
        cell_windows,
        cell_window_count,
        cell_direction_bounds,
        line_neighbours,
    })
}

/// The slots set in `mask` (a set of a cell's line neighbours), lowest first.
#[inline]
pub fn slots_in(mut mask: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let s = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            s
        })
    })
}

/// The signed steps of a neighbour's slot along a line (the inverse of `slot`).
pub const fn slot_steps(s: usize) -> i32 {
    if s < REACH {
        s as i32 - REACH as i32
    } else {
        s as i32 - REACH as i32 + 1
    }
}

/// The turn's other stone, on the line being read: its cell and its signed steps from the
/// first stone along the line's direction (`line_offset`).
#[derive(Clone, Copy, Debug)]
pub struct Partner {
    pub cell: Cell,
    pub steps: i32,
}

/// The direction `d` and the signed steps `k` with `b` = `a` + `k` steps along `DIRS[d]`,
/// when `b` lies on one of `a`'s lines (`b` != `a`).
pub fn line_offset(a: Cell, b: Cell) -> Option<(usize, i32)> {
    let dc = b.col() as i32 - a.col() as i32;
    let dr = b.row() as i32 - a.row() as i32;
    let (d, k) = if dr == 0 {
        (0, dc)
    } else if dc == 0 {
        (1, dr)
    } else if dc == dr {
        (2, dc)
    } else if dc == -dr {
        (3, dc)
    } else {
        return None;
    };
    (k != 0).then_some((d, k))
}

/// How far apart (in columns or rows) two cells may be and still have a cell within reach
/// of both along lines of each: twice the reach.
const CROSS_SPAN: i32 = 2 * REACH as i32;
const CROSS_SIDE: usize = 2 * CROSS_SPAN as usize + 1;

/// For `b` = `a` + (dc, dr), the crossings of their lines (`crossings`), by offset.
static CROSSINGS: [[[u16; 4]; 2]; CROSS_SIDE * CROSS_SIDE] = {
    let mut table = [[[0u16; 4]; 2]; CROSS_SIDE * CROSS_SIDE];
    let mut dc = -CROSS_SPAN;
    while dc <= CROSS_SPAN {
        let mut dr = -CROSS_SPAN;
        while dr <= CROSS_SPAN {
            let entry = &mut table[cross_index(dc, dr)];
            let mut d = 0;
            while d < 4 {
                let mut s = 0;
                while s < 2 * REACH {
                    let t = slot_steps(s);
                    // The neighbour `t` steps from `a`, seen from `b`.
                    let (ec, er) = (t * DIRS[d].0 - dc, t * DIRS[d].1 - dr);
                    let mut e = 0;
                    while e < 4 {
                        if e != d {
                            let (sc, sr) = DIRS[e];
                            let k = if sc != 0 { ec / sc } else { er / sr };
                            if k != 0 && k * sc == ec && k * sr == er && k.abs() <= REACH as i32 {
                                entry[0][d] |= 1 << s;
                                entry[1][e] |= 1 << slot(k);
                            }
                        }
                        e += 1;
                    }
                    s += 1;
                }
                d += 1;
            }
            dr += 1;
        }
        dc += 1;
    }
    table
};

const fn cross_index(dc: i32, dr: i32) -> usize {
    ((dc + CROSS_SPAN) as usize) * CROSS_SIDE + (dr + CROSS_SPAN) as usize
}

/// Whether the cells lie on one line at most `REACH` apart: only then can a window hold
/// both (near a corner a diagonal too short for a window holds none).
#[inline]
pub fn within_reach(a: Cell, b: Cell) -> bool {
    let dc = a.col().abs_diff(b.col());
    let dr = a.row().abs_diff(b.row());
    (dc == 0 || dr == 0 || dc == dr) && dc.max(dr) <= REACH
}

/// The cells where a line of `a` crosses a line of `b` in another direction, both within
/// reach: as slot masks of `a`'s line neighbours by direction, then of `b`'s. Such a cell
/// is the one place where stones on `a` and `b` both change a cell's lines but not one line.
/// Cells off the board are in the masks too; `a`'s own cell and `b`'s never are.
#[inline]
pub fn crossings(a: Cell, b: Cell) -> [[u16; 4]; 2] {
    let dc = b.col() as i32 - a.col() as i32;
    let dr = b.row() as i32 - a.row() as i32;
    if dc.abs() > CROSS_SPAN || dr.abs() > CROSS_SPAN {
        return [[0; 4]; 2];
    }
    CROSSINGS[cross_index(dc, dr)]
}

impl Geometry {
    /// Whether window `w` holds cell `c`.
    #[inline]
    pub fn window_holds(&self, w: usize, c: Cell) -> bool {
        self.window_masks[w].contains(c)
    }

    /// The cells of window `w`, as a set.
    #[inline]
    pub fn window_mask(&self, w: usize) -> &CellSet {
        &self.window_masks[w]
    }

    pub fn windows_of(&self, c: Cell) -> &[u16] {
        &self.cell_windows[c.index()][..self.cell_window_count[c.index()] as usize]
    }

    /// The windows through `c` along direction `d`.
    pub fn line_windows_of(&self, c: Cell, d: usize) -> &[u16] {
        let bounds = &self.cell_direction_bounds[c.index()];
        &self.cell_windows[c.index()][bounds[d] as usize..bounds[d + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_offsets_name_the_neighbour_slots() {
        let g = &*GEOMETRY;
        for a in Cell::all() {
            for b in Cell::all() {
                let found = (0..4).find_map(|d| {
                    let s = g.line_neighbours[a.index()][d]
                        .iter()
                        .position(|&n| n == Some(b))?;
                    Some((d, slot_steps(s)))
                });
                let near = line_offset(a, b).filter(|(_, k)| k.unsigned_abs() as usize <= REACH);
                assert_eq!(near, found, "{a} {b}");
                if let Some((_, k)) = found {
                    assert_eq!(slot_steps(slot(k)), k);
                }
            }
        }
    }

    /// The crossing masks name exactly the cells on a line of each, in two directions, by
    /// brute force over every pair of cells.
    #[test]
    fn crossings_are_the_cells_on_lines_of_both() {
        let g = &*GEOMETRY;
        let mut met = 0;
        for a in Cell::all() {
            for b in Cell::all().filter(|&b| b != a) {
                let masks = crossings(a, b);
                for (from, other, side) in [(a, b, 0), (b, a, 1)] {
                    for (d, &mask) in masks[side].iter().enumerate() {
                        for (s, n) in g.line_neighbours[from.index()][d].iter().enumerate() {
                            let Some(n) = *n else { continue };
                            let crossing = n != other
                                && line_offset(other, n).is_some_and(|(e, k)| {
                                    e != d && k.unsigned_abs() as usize <= REACH
                                });
                            assert_eq!(mask & (1 << s) != 0, crossing, "{a} {b} {n}");
                            met += crossing as usize;
                        }
                    }
                }
            }
        }
        assert!(met > 500_000, "{met}");
    }

    #[test]
    fn window_counts() {
        let g = &*GEOMETRY;
        assert_eq!(g.windows_of(Cell::CENTER).len(), 24);
        assert_eq!(g.windows_of(Cell::new(0, 0).unwrap()).len(), 3);
        let total: usize = Cell::all().map(|c| g.windows_of(c).len()).sum();
        assert_eq!(total, WINDOWS * WINDOW);
    }

    #[test]
    fn cells_a_window_holds_are_within_reach() {
        let g = &*GEOMETRY;
        let held = |a: Cell, b: Cell| {
            g.windows_of(a)
                .iter()
                .any(|&w| g.window_holds(w as usize, b))
        };
        for a in Cell::all() {
            for b in Cell::all() {
                assert!(!held(a, b) || within_reach(a, b), "{a} {b}");
            }
        }
        // Away from the edges, within reach is exactly a window holding both.
        for b in Cell::all() {
            assert_eq!(within_reach(Cell::CENTER, b), held(Cell::CENTER, b), "{b}");
        }
    }

    #[test]
    fn a_window_holds_exactly_its_cells() {
        let g = &*GEOMETRY;
        for w in 0..WINDOWS {
            let held: Vec<Cell> = Cell::all().filter(|&c| g.window_holds(w, c)).collect();
            let mut cells = g.window_cells[w].to_vec();
            cells.sort();
            assert_eq!(held, cells, "window {w}");
        }
    }

    #[test]
    fn line_windows_are_the_windows_of_one_direction() {
        let g = &*GEOMETRY;
        for c in Cell::all() {
            let mut all: Vec<u16> = (0..4)
                .flat_map(|d| g.line_windows_of(c, d).to_vec())
                .collect();
            all.sort();
            assert_eq!(all, g.windows_of(c));
            for d in 0..4 {
                assert!(g.line_windows_of(c, d).len() <= WINDOW);
                for &w in g.line_windows_of(c, d) {
                    assert_eq!(g.window_direction[w as usize] as usize, d);
                    assert!(g.window_cells[w as usize].contains(&c));
                }
            }
        }
    }

    #[test]
    fn neighbour_slots() {
        let g = &*GEOMETRY;
        let n = &g.line_neighbours[Cell::new(0, 0).unwrap().index()][0];
        assert_eq!(n[slot(-1)], None);
        assert_eq!(n[slot(1)], Cell::new(1, 0));
        assert_eq!(n[slot(5)], Cell::new(5, 0));
        assert_eq!((slot(-5), slot(-1), slot(1), slot(5)), (0, 4, 5, 9));
    }
}

//! Fixed board geometry, computed once: the four line directions, every six-cell window,
//! and for each cell its line neighbours within five steps.

use crate::coord::{CELLS, Cell};
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
    /// For each cell, the windows through it (`cell_window_count` of them are valid).
    pub cell_windows: [[u16; WINDOWS_PER_CELL]; CELLS],
    pub cell_window_count: [u8; CELLS],
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
    for &(dc, dr) in &DIRS {
        for start in Cell::all() {
            if start.offset(dc, dr, REACH as i32).is_some() {
                let cells: [Cell; WINDOW] =
                    std::array::from_fn(|k| start.offset(dc, dr, k as i32).expect("inside"));
                window_cells.push(cells);
            }
        }
    }
    assert_eq!(window_cells.len(), WINDOWS);

    let mut cell_windows = [[0u16; WINDOWS_PER_CELL]; CELLS];
    let mut cell_window_count = [0u8; CELLS];
    for (w, cells) in window_cells.iter().enumerate() {
        for c in cells {
            let n = &mut cell_window_count[c.index()];
            cell_windows[c.index()][*n as usize] = w as u16;
            *n += 1;
        }
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
        cell_windows,
        cell_window_count,
        line_neighbours,
    })
}

impl Geometry {
    pub fn windows_of(&self, c: Cell) -> &[u16] {
        &self.cell_windows[c.index()][..self.cell_window_count[c.index()] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_counts() {
        let g = &*GEOMETRY;
        assert_eq!(g.windows_of(Cell::CENTER).len(), 24);
        assert_eq!(g.windows_of(Cell::new(0, 0).unwrap()).len(), 3);
        let total: usize = Cell::all().map(|c| g.windows_of(c).len()).sum();
        assert_eq!(total, WINDOWS * WINDOW);
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

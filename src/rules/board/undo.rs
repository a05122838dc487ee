//! Stones taken back by putting back what placing them changed.
//!
//! Placing a stone reads the new pattern of every line it reaches: a table lookup for each
//! neighbour's code part or pattern, and a word to the observer for every code that moved.
//! Removing it the plain way reads them all again. A search takes its stones back in the
//! order opposite to placing them, so the board before a stone is exactly the board after
//! its removal: an `UndoLog` keeps, for each stone placed through it, the values its placing
//! overwrote (each changed cell's code part and codes, each changed stone pattern, the
//! pattern counts) and puts them back. Only the keys are moved again, by arithmetic. The
//! windows under the lines keep their own log (`Stones::keep_undo`, which the solver uses
//! alone), taken back in the same order.
//!
//! A stone removed out of that order, or placed when the log is full, is not lost: the log
//! forgets everything it held and the plain `remove_observed` takes over, which is right on
//! any board.

use super::{Board, Changes, PACKED_DIGITS, shifted};
use crate::rules::cells::CodeObserver;
use crate::rules::coord::Cell;
use crate::rules::geometry::{GEOMETRY, REACH};
use crate::rules::patterns::PATTERN_COUNT;
use crate::rules::stones::Color;

/// Stones the log holds at once: far more than a search's deepest line places.
const MAX_STONES: usize = 256;

/// Lines a stone reaches, each changing at most one entry of each kind per cell.
const CHANGES_PER_STONE: usize = 4 * 2 * REACH;

/// One stone placed through the log.
#[derive(Clone, Copy)]
struct Frame<T> {
    cell: Cell,
    /// Where the stone's entries start in `codes` and `patterns`.
    codes: usize,
    patterns: usize,
    /// The board's pattern counts before the stone.
    counts: [[u16; PATTERN_COUNT]; 2],
    /// The caller's own state before the stone (an evaluator's sums).
    extra: T,
}

/// An empty cell's part from one direction and its codes, before a stone changed them.
#[derive(Clone, Copy)]
struct CodeEntry {
    cell: u16,
    d: u8,
    parts: [u16; 2],
    codes: [u32; 2],
}

/// A stone's pattern along one direction, before another stone changed it.
#[derive(Clone, Copy)]
struct PatternEntry {
    cell: u16,
    d: u8,
    old: u8,
}

/// What the stones placed through it changed, last stone on top; `T` is what the caller
/// keeps beside each stone (its observer's state, put back by the caller).
pub struct UndoLog<T: Copy> {
    frames: Vec<Frame<T>>,
    codes: Vec<CodeEntry>,
    patterns: Vec<PatternEntry>,
}

impl<T: Copy> UndoLog<T> {
    /// An empty log. Its room is taken once, by the first stone placed through it (a
    /// position that is only read costs nothing; after that, placing never allocates).
    pub fn new() -> UndoLog<T> {
        UndoLog {
            frames: Vec::new(),
            codes: Vec::new(),
            patterns: Vec::new(),
        }
    }

    fn take_room(&mut self) {
        self.frames.reserve_exact(MAX_STONES);
        self.codes.reserve_exact(MAX_STONES * CHANGES_PER_STONE);
        self.patterns.reserve_exact(MAX_STONES * CHANGES_PER_STONE);
    }

    /// Stones on top of the log: placed through it and not yet taken back.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.frames.len()
    }

    /// Forgets every stone: each is then taken back the plain way.
    fn clear(&mut self) {
        self.frames.clear();
        self.codes.clear();
        self.patterns.clear();
    }
}

impl<T: Copy> Default for UndoLog<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// A copy of a board's log would describe stones of another board: a clone starts empty
/// (its stones are taken back the plain way).
impl<T: Copy> Clone for UndoLog<T> {
    fn clone(&self) -> Self {
        Self::new()
    }
}

impl<T: Copy> Changes for UndoLog<T> {
    #[inline]
    fn code_line(&mut self, cell: usize, d: usize, parts: [u16; 2], codes: [u32; 2]) {
        debug_assert!(self.codes.len() < self.codes.capacity());
        self.codes.push(CodeEntry {
            cell: cell as u16,
            d: d as u8,
            parts,
            codes,
        });
    }

    #[inline]
    fn stone_pattern(&mut self, cell: usize, d: usize, old: u8) {
        debug_assert!(self.patterns.len() < self.patterns.capacity());
        self.patterns.push(PatternEntry {
            cell: cell as u16,
            d: d as u8,
            old,
        });
    }
}

impl Board {
    /// `place_observed`, keeping in `log` what the stone changes (and `extra` beside it), so
    /// that `remove_logged` can put it back.
    pub fn place_logged<T: Copy>(
        &mut self,
        c: Cell,
        color: Color,
        observer: &mut impl CodeObserver,
        log: &mut UndoLog<T>,
        extra: T,
    ) {
        if log.frames.capacity() == 0 {
            log.take_room();
        }
        if log.frames.len() == MAX_STONES {
            log.clear();
            self.place_observed(c, color, observer);
            return;
        }
        log.frames.push(Frame {
            cell: c,
            codes: log.codes.len(),
            patterns: log.patterns.len(),
            counts: self.pattern_counts,
            extra,
        });
        self.stones.place(c, color);
        self.update_lines(c, color, true, observer, log);
        self.update_nearby(c, 1);
        #[cfg(debug_assertions)]
        self.check_incremental();
    }

    /// Takes back the stone on `c`. The last stone placed through `log` is taken back by
    /// putting back what its placing changed: the observer is told nothing, and the `extra`
    /// kept beside the stone is given back for the caller to restore its observer from. Any
    /// other stone is removed by `remove_observed` (the observer told as usual, `None`
    /// given back), and the log forgets all it held.
    pub fn remove_logged<T: Copy>(
        &mut self,
        c: Cell,
        observer: &mut impl CodeObserver,
        log: &mut UndoLog<T>,
    ) -> Option<T> {
        let Some(frame) = log.frames.pop_if(|top| top.cell == c) else {
            log.clear();
            self.remove_observed(c, observer);
            return None;
        };
        let color = self.get(c).expect("a logged stone stands on the board");
        for e in log.patterns.drain(frame.patterns..).rev() {
            self.stone_patterns[e.cell as usize][e.d as usize] = e.old;
        }
        for e in log.codes.drain(frame.codes..).rev() {
            self.cells
                .restore_line(e.cell as usize, e.d as usize, e.parts, e.codes);
        }
        self.pattern_counts = frame.counts;
        // The stone's own cell kept its parts and codes while it stood: a cell is only
        // updated while empty, and every stone placed since is gone.
        let digits = &PACKED_DIGITS[color.index()];
        for (d, line) in GEOMETRY.line_neighbours[c.index()].iter().enumerate() {
            for (s, n) in line.iter().enumerate() {
                if let Some(n) = n {
                    let keys = &mut self.keys[n.index()][d];
                    *keys = shifted(*keys, digits[2 * REACH - 1 - s], false);
                }
            }
        }
        self.update_nearby(c, -1);
        self.stones.remove(c);
        #[cfg(debug_assertions)]
        self.check_incremental();
        Some(frame.extra)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::CodeCensus;

    fn assert_same(a: &Board, b: &Board, step: usize) {
        a.assert_same_state(b, &format!("step {step}"));
    }

    /// Random walks of placing and taking back, mostly in the search's order, sometimes
    /// out of it, near an edge and in the middle: the logged board and its observer stay
    /// those of a board that read every removal afresh.
    #[test]
    fn stones_taken_back_through_the_log_leave_the_board_as_read_afresh() {
        let mut rng = crate::rng::Rng::new(0x05ee_d0d0);
        let mut logged = Board::from_turns("JJ KKKJ IIHH LLML BBBC").unwrap();
        let mut plain = logged.clone();
        let mut census = CodeCensus::of(&logged);
        let mut log: UndoLog<u32> = UndoLog::new();
        let mut placed: Vec<(Cell, u32)> = Vec::new();
        let mut restored = 0;
        for step in 0..4000 {
            let take_back = !placed.is_empty() && (placed.len() > 40 || rng.below(5) < 2);
            if take_back {
                // One time in ten, a stone that is not the last.
                let at = if rng.below(10) == 0 {
                    rng.below(placed.len())
                } else {
                    placed.len() - 1
                };
                let (c, tag) = placed.remove(at);
                let before = census.clone();
                match logged.remove_logged(c, &mut census, &mut log) {
                    Some(extra) => {
                        assert_eq!(at, placed.len(), "step {step}: only the top is restored");
                        assert_eq!(extra, tag, "step {step}: the stone's own extra");
                        assert_eq!(before, census, "step {step}: the observer told nothing");
                        census = CodeCensus::of(&logged);
                        restored += 1;
                    }
                    None => assert_eq!(log.len(), 0, "step {step}: the log forgot"),
                }
                plain.remove(c);
            } else {
                // Near the stones (where lines change most), or anywhere.
                let c = loop {
                    let c = Cell::from_index(rng.below(crate::rules::coord::CELLS));
                    if logged.is_empty(c) && (logged.nearby(c) > 0 || rng.below(8) == 0) {
                        break c;
                    }
                };
                let color = [Color::Black, Color::White][rng.below(2)];
                let tag = step as u32;
                logged.place_logged(c, color, &mut census, &mut log, tag);
                plain.place(c, color);
                placed.push((c, tag));
            }
            assert_same(&logged, &plain, step);
            assert_eq!(census, CodeCensus::of(&logged), "step {step}: observer");
        }
        assert!(restored > 1000, "the walk restored {restored} stones");
    }

    /// A log filled to the brim forgets itself instead of growing, and stays right.
    #[test]
    fn a_full_log_gives_way_to_the_plain_removal() {
        let mut board = Board::new();
        let mut plain = Board::new();
        let mut log: UndoLog<()> = UndoLog::new();
        let cells: Vec<Cell> = Cell::all().take(MAX_STONES + 3).collect();
        for (i, &c) in cells.iter().enumerate() {
            let color = [Color::Black, Color::White][(i / 3) % 2];
            board.place_logged(c, color, &mut (), &mut log, ());
            plain.place(c, color);
            assert!(log.len() <= MAX_STONES);
        }
        assert_eq!(log.len(), 2, "the full log was forgotten once");
        for &c in cells.iter().rev() {
            board.remove_logged(c, &mut (), &mut log);
            plain.remove(c);
            assert_same(&board, &plain, 0);
        }
        assert_eq!(log.len(), 0);
        assert_same(&board, &Board::new(), 0);
    }
}

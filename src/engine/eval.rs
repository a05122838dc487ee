//! Static evaluation for the side to move: line-pattern counts, the six-cell windows each
//! side holds alone and, with the learned evaluation, a value for every line code a stone
//! stands in (`LineValues`, summed by the board; fitted by `connect6 tune eval` on top of
//! the other two terms and embedded from `eval.bin`).

use crate::engine::tunables::{TO_MOVE_PATTERN, TO_MOVE_WINDOW, WAITING_PATTERN, WAITING_WINDOW};
use crate::rules::board::{Board, Color, LineValues, THREAT_STONES};
use crate::rules::cells::{CELL_CODES, CellValues};
use crate::rules::coord::Cell;
use crate::rules::geometry::WINDOW;
use crate::rules::patterns::{KEYS, PATTERN_COUNT};
use once_cell::sync::OnceCell;
use std::sync::atomic::{AtomicU8, Ordering};

/// Scores beyond this are wins or losses found by search, not evaluations.
pub const WIN: i32 = 1_000_000;
pub const WIN_BOUND: i32 = WIN - 1000;

/// Which evaluation the search uses.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum Evaluation {
    /// Pattern and window weights only (`tunables::TO_MOVE_PATTERN` and the rest).
    Hand,
    /// The same plus a value per line code of each stone, fitted to match games.
    Learned,
    /// Pattern and window weights plus a value per cell code of each empty cell, for each
    /// colour: what a stone there would make along its four lines at once.
    Cells,
}

/// The engine's default, as the command line's (`ModelArgs`).
static CHOSEN: AtomicU8 = AtomicU8::new(Evaluation::Cells as u8);
/// The learned values: the embedded file's, unless `install_learned` came first.
static LEARNED: OnceCell<Box<LineValues>> = OnceCell::new();
/// The learned cell values: the embedded file's, unless `install_cells` came first.
static CELLS: OnceCell<Box<CellValues>> = OnceCell::new();

fn cells() -> &'static CellValues {
    CELLS.get_or_init(|| {
        decode_cells(include_bytes!("cells.bin"))
            .expect("the embedded cell-value file is checked by a test")
    })
}

/// Makes `values` the cell evaluation's in place of the embedded ones; refused once the
/// cell evaluation has been read.
pub fn install_cells(values: Box<CellValues>) -> Result<(), String> {
    CELLS
        .set(values)
        .map_err(|_| "the cell evaluation is already in use".to_string())
}

fn learned() -> &'static LineValues {
    LEARNED.get_or_init(|| {
        decode(include_bytes!("eval.bin"))
            .expect("the embedded evaluation file is checked by a test")
    })
}

/// Makes `values` the learned evaluation's in place of the embedded ones; refused once the
/// learned evaluation has been read.
pub fn install_learned(values: Box<LineValues>) -> Result<(), String> {
    LEARNED
        .set(values)
        .map_err(|_| "the learned evaluation is already in use".to_string())
}

/// Makes `evaluation` the one searches use from now on; called once at start-up.
pub fn choose(evaluation: Evaluation) {
    CHOSEN.store(evaluation as u8, Ordering::Relaxed);
    let _ = line_values(evaluation);
    let _ = cell_values(evaluation);
}

/// The chosen evaluation.
pub fn chosen() -> Evaluation {
    let chosen = CHOSEN.load(Ordering::Relaxed);
    [Evaluation::Learned, Evaluation::Cells]
        .into_iter()
        .find(|&e| e as u8 == chosen)
        .unwrap_or(Evaluation::Hand)
}

/// The line values a search's board sums for `evaluation` (none for the hand one).
pub fn line_values(evaluation: Evaluation) -> Option<&'static LineValues> {
    match evaluation {
        Evaluation::Hand | Evaluation::Cells => None,
        Evaluation::Learned => Some(learned()),
    }
}

/// The cell values a search's board sums for `evaluation` (only the cell one has them).
pub fn cell_values(evaluation: Evaluation) -> Option<&'static CellValues> {
    match evaluation {
        Evaluation::Cells => Some(cells()),
        Evaluation::Hand | Evaluation::Learned => None,
    }
}

/// Evaluation of a quiet position for `me`, the side to move.
pub fn evaluate(board: &Board, me: Color) -> i32 {
    let them = me.other();
    pattern_term(board.pattern_counts(me), board.pattern_counts(them))
        + window_term(
            board.as_stones().pure_windows(me),
            board.as_stones().pure_windows(them),
        )
        + value_term(board.line_value_sums(me), board.line_value_sums(them))
        + value_term(board.cell_value_sums(me), board.cell_value_sums(them))
}

/// The line or cell values' part: the mover's summed as to move, less the waiting side's as
/// waiting.
#[inline]
fn value_term(mine: [i32; 2], theirs: [i32; 2]) -> i32 {
    mine[0] - theirs[1]
}

/// `evaluate` for the side to move after `color` places stones on the empty cells `a` and
/// `b` (the whole turn), read without placing them; `None` when the turn makes a threat
/// window or a six for `color`, and the position after it is not quiet. `color` must hold
/// no threat window before.
pub fn evaluate_after(board: &Board, a: Cell, b: Cell, color: Color) -> Option<i32> {
    let (mover, waiting) = (color.other(), color);
    let windows = window_term(
        board.as_stones().pure_windows(mover),
        board.as_stones().pure_windows(waiting),
    ) + board
        .as_stones()
        .sum_windows_after(a, b, color, window_change)?;
    let after = board.lines_after(a, b, color);
    let (m, w) = (mover.index(), waiting.index());
    let score = pattern_term(&after.counts[m], &after.counts[w])
        + windows
        + value_term(after.value_sums[m], after.value_sums[w])
        + value_term(after.cell_sums[m], after.cell_sums[w]);
    #[cfg(debug_assertions)]
    if crate::rules::board::debug_sample() {
        let mut placed = board.clone();
        placed.place(a, color);
        placed.place(b, color);
        assert_eq!(score, evaluate(&placed, mover), "{a} {b} after {color}");
    }
    Some(score)
}

/// What `added` stones of the waiting side in a window holding `mine` of its own and
/// `theirs` of the side to move's change in `window_term`; `None` when they make the
/// window a threat.
#[inline]
fn window_change(mine: u8, theirs: u8, added: u8) -> Option<i32> {
    let (mine, theirs) = (mine as usize, theirs as usize);
    if theirs == 0 {
        let now = mine + added as usize;
        if now >= THREAT_STONES as usize {
            return None;
        }
        // A window with no stone is in no pure-window count, whatever the table's first
        // entry says.
        let before = if mine == 0 { 0 } else { WAITING_WINDOW[mine] };
        Some(before - WAITING_WINDOW[now])
    } else if mine == 0 {
        // The mover's window is spoilt.
        Some(-TO_MOVE_WINDOW[theirs])
    } else {
        Some(0)
    }
}

/// The patterns' part of the evaluation, from the pattern counts of the side to move and of
/// the waiting side.
fn pattern_term(mine: &[u16; PATTERN_COUNT], theirs: &[u16; PATTERN_COUNT]) -> i32 {
    (0..PATTERN_COUNT)
        .map(|p| TO_MOVE_PATTERN[p] * mine[p] as i32 - WAITING_PATTERN[p] * theirs[p] as i32)
        .sum()
}

/// The windows' part of the evaluation, from the pure-window counts (`Stones::pure_windows`)
/// of the side to move and of the waiting side.
pub fn window_term(mine: &[u16; WINDOW + 1], theirs: &[u16; WINDOW + 1]) -> i32 {
    (0..=WINDOW)
        .map(|k| TO_MOVE_WINDOW[k] * mine[k] as i32 - WAITING_WINDOW[k] * theirs[k] as i32)
        .sum()
}

/// The head of an evaluation file: a name and a version, then for each of the `KEYS` line
/// codes its value to move and waiting, little-endian `i16`s.
const MAGIC: &[u8; 8] = b"C6EVAL01";

/// Why an evaluation file was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum EvalFileError {
    NotAnEvalFile,
    Size { expected: usize, found: usize },
}

impl std::fmt::Display for EvalFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            EvalFileError::NotAnEvalFile => write!(f, "not an evaluation file (bad header)"),
            EvalFileError::Size { expected, found } => {
                write!(
                    f,
                    "an evaluation file has {expected} bytes, this one {found}"
                )
            }
        }
    }
}

/// The bytes of an evaluation file holding `values`.
pub fn encode(values: &LineValues) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    for v in values.iter().flatten() {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out
}

/// Reads an evaluation file written by `encode`.
pub fn decode(bytes: &[u8]) -> Result<Box<LineValues>, EvalFileError> {
    let body = bytes
        .strip_prefix(MAGIC.as_slice())
        .ok_or(EvalFileError::NotAnEvalFile)?;
    let expected = MAGIC.len() + 4 * KEYS;
    if bytes.len() != expected {
        return Err(EvalFileError::Size {
            expected,
            found: bytes.len(),
        });
    }
    let mut values = Box::new([[0i16; 2]; KEYS]);
    for (v, b) in values.iter_mut().zip(body.chunks_exact(4)) {
        *v = [
            i16::from_le_bytes([b[0], b[1]]),
            i16::from_le_bytes([b[2], b[3]]),
        ];
    }
    Ok(values)
}

/// The head of a cell-value file: a name and a version, then the number of codes with a
/// value, then for each its code as a little-endian `u32` and its values to move and waiting
/// as `i16`s. Codes without an entry are worth nothing, as most never occur.
const CELLS_MAGIC: &[u8; 8] = b"C6CELL01";

/// Why a cell-value file was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum CellFileError {
    NotACellFile,
    Truncated,
    CodeOutOfRange(u32),
}

impl std::fmt::Display for CellFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            CellFileError::NotACellFile => write!(f, "not a cell-value file (bad header)"),
            CellFileError::Truncated => write!(f, "a cell-value file cut short or too long"),
            CellFileError::CodeOutOfRange(code) => {
                write!(f, "cell code {code} is beyond {}", CELL_CODES - 1)
            }
        }
    }
}

/// The bytes of a cell-value file holding `values`.
pub fn encode_cells(values: &CellValues) -> Vec<u8> {
    let kept: Vec<(usize, &[i16; 2])> = values
        .iter()
        .enumerate()
        .filter(|(_, v)| **v != [0, 0])
        .collect();
    let mut out = CELLS_MAGIC.to_vec();
    out.extend_from_slice(&(kept.len() as u32).to_le_bytes());
    for (code, v) in kept {
        out.extend_from_slice(&(code as u32).to_le_bytes());
        out.extend_from_slice(&v[0].to_le_bytes());
        out.extend_from_slice(&v[1].to_le_bytes());
    }
    out
}

/// Whether `bytes` claim to be a cell-value file (the other kind is a line-value file).
pub fn is_cell_file(bytes: &[u8]) -> bool {
    bytes.starts_with(CELLS_MAGIC)
}

/// Reads a cell-value file written by `encode_cells`.
pub fn decode_cells(bytes: &[u8]) -> Result<Box<CellValues>, CellFileError> {
    let body = bytes
        .strip_prefix(CELLS_MAGIC.as_slice())
        .ok_or(CellFileError::NotACellFile)?;
    let (count, entries) = body.split_at_checked(4).ok_or(CellFileError::Truncated)?;
    let count = u32::from_le_bytes(count.try_into().expect("four bytes")) as usize;
    if entries.len() != count.checked_mul(8).ok_or(CellFileError::Truncated)? {
        return Err(CellFileError::Truncated);
    }
    let mut values = crate::rules::cells::zero_cell_values();
    for e in entries.chunks_exact(8) {
        let code = u32::from_le_bytes([e[0], e[1], e[2], e[3]]);
        let slot = values
            .get_mut(code as usize)
            .ok_or(CellFileError::CodeOutOfRange(code))?;
        *slot = [
            i16::from_le_bytes([e[4], e[5]]),
            i16::from_le_bytes([e[6], e[7]]),
        ];
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::coord::{Cell, parse_cell};

    /// The board's pattern counts and the evaluation of a turn read without placing it
    /// agree with placing it, on random dense boards, with the hand evaluation, the learned
    /// line values and random cell values (whose sums the board keeps; debug builds also
    /// check them against a recount as stones come and go).
    #[test]
    fn counts_and_score_after_a_turn_match_the_placed_turn() {
        let mut rng = crate::rng::Rng::new(7);
        // Cell values with no pattern to them: any code counted wrongly shows.
        let noisy_cells: &'static CellValues = Box::leak({
            let mut values = crate::rules::cells::zero_cell_values();
            for v in values.iter_mut() {
                *v = [rng.below(200) as i16 - 100, rng.below(200) as i16 - 100];
            }
            values
        });
        let mut checked = 0;
        for round in 0..3000 {
            let mut b = Board::new();
            match round % 3 {
                0 => {}
                1 => b.set_line_values(line_values(Evaluation::Learned)),
                _ => b.set_cell_values(Some(noisy_cells)),
            }
            let (left, top) = (rng.below(12), rng.below(12));
            for i in 0..rng.below(40) {
                let c = Cell::new(left + rng.below(8), top + rng.below(8)).unwrap();
                if b.is_empty(c) {
                    b.place(
                        c,
                        if i % 2 == 0 {
                            Color::White
                        } else {
                            Color::Black
                        },
                    );
                }
            }
            let a = Cell::new(left + rng.below(8), top + rng.below(8)).unwrap();
            let c = Cell::new(left + rng.below(8), top + rng.below(8)).unwrap();
            let color = if round % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            if a == c || !b.is_empty(a) || !b.is_empty(c) || b.has_threat_window(color) {
                continue;
            }
            let counts = b.lines_after(a, c, color).counts;
            let score = evaluate_after(&b, a, c, color);
            let mut placed = b.clone();
            placed.place(a, color);
            placed.place(c, color);
            for side in [Color::Black, Color::White] {
                assert_eq!(
                    counts[side.index()],
                    *placed.pattern_counts(side),
                    "{a} {c}"
                );
            }
            if placed.has_threat_window(color) {
                assert_eq!(score, None, "{a} {c}");
            } else {
                let placed_score = evaluate(&placed, color.other());
                assert_eq!(score, Some(placed_score), "{a} {c}");
                checked += 1;
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn evaluation_files_round_trip_and_bad_ones_are_refused() {
        let mut values = Box::new([[0i16; 2]; KEYS]);
        for (k, v) in values.iter_mut().enumerate() {
            *v = [(k % 501) as i16 - 250, (k % 13) as i16];
        }
        let bytes = encode(&values);
        assert!(decode(&bytes).unwrap() == values);
        assert_eq!(
            decode(&bytes[..bytes.len() - 1]).err(),
            Some(EvalFileError::Size {
                expected: bytes.len(),
                found: bytes.len() - 1
            })
        );
        assert_eq!(
            decode(b"C6RANK01").err(),
            Some(EvalFileError::NotAnEvalFile)
        );
        // The embedded file reads, and gives some line code a value.
        assert!(
            decode(include_bytes!("eval.bin"))
                .unwrap()
                .iter()
                .any(|v| v[0] != 0)
        );
    }

    #[test]
    fn cell_value_files_round_trip_and_bad_ones_are_refused() {
        let mut values = crate::rules::cells::zero_cell_values();
        for (code, v) in values.iter_mut().enumerate().step_by(7) {
            *v = [(code % 301) as i16 - 150, -((code % 11) as i16)];
        }
        let bytes = encode_cells(&values);
        assert!(is_cell_file(&bytes) && !is_cell_file(&encode(&Box::new([[0; 2]; KEYS]))));
        assert!(decode_cells(&bytes).unwrap() == values);
        for cut in [bytes.len() - 1, CELLS_MAGIC.len() + 2] {
            assert_eq!(
                decode_cells(&bytes[..cut]).err(),
                Some(CellFileError::Truncated)
            );
        }
        assert_eq!(
            decode_cells(b"C6EVAL01").err(),
            Some(CellFileError::NotACellFile)
        );
        let mut beyond = CELLS_MAGIC.to_vec();
        beyond.extend_from_slice(&1u32.to_le_bytes());
        beyond.extend_from_slice(&(CELL_CODES as u32).to_le_bytes());
        beyond.extend_from_slice(&[0; 4]);
        assert_eq!(
            decode_cells(&beyond).err(),
            Some(CellFileError::CodeOutOfRange(CELL_CODES as u32))
        );
        // The embedded file reads, and gives some cell code a value.
        assert!(cells().iter().any(|v| v[0] != 0));
    }

    /// A board that sums the learned values evaluates as the hand evaluation plus the values
    /// of its stones' lines, counted here one by one.
    #[test]
    fn the_learned_evaluation_adds_the_values_of_the_stones_lines() {
        let values = line_values(Evaluation::Learned).unwrap();
        let plain = Board::from_turns("JJ KKLL MMNN OOPP IHGI").unwrap();
        let mut valued = plain.clone();
        valued.set_line_values(Some(values));
        let me = plain.side_to_move();
        let mut sum = 0;
        for c in Cell::all() {
            if let Some(color) = plain.get(c) {
                for d in 0..4 {
                    let v = values[plain.line_keys(c, d)[color.index()] as usize];
                    sum += if color == me {
                        v[0] as i32
                    } else {
                        -(v[1] as i32)
                    };
                }
            }
        }
        assert_ne!(sum, 0);
        assert_eq!(evaluate(&valued, me), evaluate(&plain, me) + sum);
    }

    #[test]
    fn shapes_count_for_their_owner() {
        let mut b = Board::new();
        for s in ["JJ", "KJ", "LJ"] {
            b.place(parse_cell(s).unwrap(), Color::Black);
        }
        b.place(parse_cell("AA").unwrap(), Color::White);
        assert!(evaluate(&b, Color::Black) > 0);
        assert!(evaluate(&b, Color::White) < 0);
        // The side to move makes more of the same shapes.
        assert!(evaluate(&b, Color::Black) > -evaluate(&b, Color::White));
    }

    #[test]
    fn room_to_grow_counts() {
        // One stone each: the same patterns (none in every direction), but the centre stone
        // lies in 24 open windows and the corner stone in 3.
        let mut b = Board::new();
        b.place(parse_cell("JJ").unwrap(), Color::Black);
        b.place(parse_cell("AA").unwrap(), Color::White);
        assert_eq!(
            b.pattern_counts(Color::Black),
            b.pattern_counts(Color::White)
        );
        assert_eq!(b.as_stones().pure_windows(Color::Black)[1], 24);
        assert_eq!(b.as_stones().pure_windows(Color::White)[1], 3);
        assert!(evaluate(&b, Color::Black) > 0);
        assert!(evaluate(&b, Color::White) < 0);
    }
}

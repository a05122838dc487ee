//! The cell ranking: what a stone of the side to move is worth on an empty cell, read from
//! the line codes around the cell (`Board::line_keys`: the ten neighbours along each of the
//! four lines, from each colour's view). Move generation (`pairs`) takes its first and
//! second stones from it, and the defence ranks the cells of a threat's zone with it.
//!
//! A ranking is two tables over the 3^10 line codes: `attack`, indexed by the code seen from
//! the stone's owner, and `defence`, indexed by the code seen from the opponent, whose line
//! the stone cuts. A cell's worth is the sum over its four lines of both. Two rankings:
//! - **hand**: each code's worth is the hand-set worth of the pattern it makes
//!   (`tunables::ATTACK` / `DEFENCE`), plus a share of the evaluation's window term;
//! - **learned**: each code has its own weight, fitted by `connect6 tune policy` to the
//!   turns of match games (a softmax over the candidate cells) and embedded in the binary
//!   from `ranking.bin`.
//!
//! The ranking is chosen once at start-up (`--ranking`, or `--ranking-file` for a learned
//! ranking other than the embedded one: `engine::models`), before any search.

use crate::engine::tunables::{
    ATTACK, DEFENCE, TO_MOVE_WINDOW, WAITING_WINDOW, WINDOW_ORDER_PERCENT,
};
use crate::rules::board::{Board, Color};
use crate::rules::coord::Cell;
use crate::rules::geometry::{REACH, WINDOW};
use crate::rules::patterns::{KEYS, PATTERN_COUNT, POW3, open_windows_by_stones, pattern};
use once_cell::sync::{Lazy, OnceCell};
use std::sync::atomic::{AtomicU8, Ordering};

/// Which cell ranking move generation uses.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum Ranking {
    /// Pattern worths set by hand (`tunables::ATTACK` / `DEFENCE`).
    Hand,
    /// A weight per line code, fitted to match games (`connect6 tune policy`).
    Learned,
}

/// A ranking's tables: a stone's worth along one line, by the line's code seen from its
/// owner (`attack`) and from the opponent (`defence`).
pub struct KeyWorth {
    attack: Box<[i32]>,
    defence: Box<[i32]>,
}

impl KeyWorth {
    /// One line's part of a stone's worth for `me`, from the line's keys (black's, white's).
    #[inline]
    pub fn line(&self, keys: [u16; 2], me: Color) -> i32 {
        self.attack[keys[me.index()] as usize] + self.defence[keys[1 - me.index()] as usize]
    }

    /// How much a stone of `me` on `c` is worth: its own lines plus the opponent's it cuts.
    #[inline]
    pub fn cell(&self, board: &Board, c: Cell, me: Color) -> i32 {
        (0..4).map(|d| self.line(board.line_keys(c, d), me)).sum()
    }
}

/// The hand ranking with `window_percent` percent of the window term's changes.
pub fn hand(window_percent: i32) -> KeyWorth {
    let worth = |pattern_worth: &[i32; PATTERN_COUNT], window_worth: &dyn Fn(usize) -> i32| {
        (0..KEYS)
            .map(|key| {
                let windows = open_windows_by_stones(key);
                let room: i32 = (1..=WINDOW)
                    .map(|n| windows[n] as i32 * window_worth(n))
                    .sum();
                pattern_worth[pattern(key as u16) as usize] + room * window_percent / 100
            })
            .collect::<Box<[i32]>>()
    };
    // A window holding n own stones with the new one held n - 1 before it. One that becomes
    // a threat window leaves the term, but the pattern's worth already counts the threat.
    let grown = |n: usize| {
        if n < 4 {
            TO_MOVE_WINDOW[n] - TO_MOVE_WINDOW[n - 1]
        } else {
            0
        }
    };
    // Seen from the opponent, n counts the new stone as theirs: the window held n - 1.
    let closed = |n: usize| WAITING_WINDOW[n - 1];
    KeyWorth {
        attack: worth(&ATTACK, &grown),
        defence: worth(&DEFENCE, &closed),
    }
}

static HAND: Lazy<KeyWorth> = Lazy::new(|| hand(WINDOW_ORDER_PERCENT));
/// The learned tables: the embedded file's, unless `install_learned` came first.
static LEARNED: OnceCell<KeyWorth> = OnceCell::new();

fn learned() -> &'static KeyWorth {
    LEARNED.get_or_init(|| {
        decode(include_bytes!("ranking.bin"))
            .expect("the embedded ranking file is checked by a test")
    })
}

/// Makes `tables` the learned ranking in place of the embedded one; refused once the
/// learned ranking has been read.
pub fn install_learned(tables: KeyWorth) -> Result<(), String> {
    LEARNED
        .set(tables)
        .map_err(|_| "the learned ranking is already in use".to_string())
}
static CHOSEN: AtomicU8 = AtomicU8::new(Ranking::Learned as u8);

/// Makes `ranking` the one move generation uses from now on; called once at start-up.
pub fn choose(ranking: Ranking) {
    CHOSEN.store(ranking as u8, Ordering::Relaxed);
    let _ = tables(ranking);
}

/// The ranking in use.
#[inline]
pub fn chosen() -> &'static KeyWorth {
    if CHOSEN.load(Ordering::Relaxed) == Ranking::Learned as u8 {
        learned()
    } else {
        &HAND
    }
}

/// The tables of `ranking`.
pub fn tables(ranking: Ranking) -> &'static KeyWorth {
    match ranking {
        Ranking::Hand => &HAND,
        Ranking::Learned => learned(),
    }
}

/// The code of the same line read the other way: a line and its mirror image are the same
/// shape, so a learned ranking gives them one weight.
pub fn mirrored(key: usize) -> usize {
    let mut out = 0;
    let mut k = key;
    for s in 0..2 * REACH {
        out += (k % 3) * POW3[2 * REACH - 1 - s] as usize;
        k /= 3;
    }
    out
}

/// The head of a ranking file: a name and a version, then `KEYS` little-endian `i16`
/// weights of `attack` and as many of `defence`.
const MAGIC: &[u8; 8] = b"C6RANK01";

/// Why a ranking file was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum RankingFileError {
    NotARankingFile,
    Size { expected: usize, found: usize },
}

impl std::fmt::Display for RankingFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            RankingFileError::NotARankingFile => write!(f, "not a ranking file (bad header)"),
            RankingFileError::Size { expected, found } => {
                write!(f, "a ranking file has {expected} bytes, this one {found}")
            }
        }
    }
}

/// The bytes of a ranking file holding `attack` and `defence` (`KEYS` weights each).
pub fn encode(attack: &[i16], defence: &[i16]) -> Vec<u8> {
    assert!(attack.len() == KEYS && defence.len() == KEYS);
    let mut out = MAGIC.to_vec();
    for w in attack.iter().chain(defence) {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out
}

/// Reads a ranking file written by `encode`.
pub fn decode(bytes: &[u8]) -> Result<KeyWorth, RankingFileError> {
    let body = bytes
        .strip_prefix(MAGIC.as_slice())
        .ok_or(RankingFileError::NotARankingFile)?;
    let expected = MAGIC.len() + 4 * KEYS;
    if bytes.len() != expected {
        return Err(RankingFileError::Size {
            expected,
            found: bytes.len(),
        });
    }
    let weights: Vec<i32> = body
        .chunks_exact(2)
        .map(|w| i16::from_le_bytes([w[0], w[1]]) as i32)
        .collect();
    Ok(KeyWorth {
        attack: weights[..KEYS].into(),
        defence: weights[KEYS..].into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::coord::parse_cell;
    use crate::rules::patterns::{Pattern, line_of};

    fn cell(s: &str) -> Cell {
        parse_cell(s).unwrap()
    }

    fn play(moves: &[&str]) -> Board {
        Board::from_turns(&moves.join(" ")).unwrap()
    }

    #[test]
    fn ranking_counts_the_windows_a_stone_opens() {
        // Neither cell shares a line with the stone on the board, so every pattern is none;
        // a stone in the open starts six windows along each line, one in the corner three in
        // all (none along the anti-diagonal).
        let b = play(&["JJ"]);
        let (open, corner) = (cell("FH"), cell("AA"));
        let worth = hand(100);
        let opened = TO_MOVE_WINDOW[1] - TO_MOVE_WINDOW[0];
        let none = ATTACK[0] + DEFENCE[0];
        let open_score = worth.cell(&b, open, Color::White);
        let corner_score = worth.cell(&b, corner, Color::White);
        assert_eq!(open_score, 4 * (none + 6 * opened));
        assert_eq!(corner_score, 4 * none + 3 * opened);
        assert!(open_score > corner_score);
        // Without the window term the two rank alike.
        let patterns_only = hand(0);
        assert_eq!(
            patterns_only.cell(&b, open, Color::White),
            patterns_only.cell(&b, corner, Color::White)
        );
    }

    #[test]
    fn ranking_counts_the_windows_a_stone_closes() {
        // White beside black's lone stone, along the row: white keeps one window of that row
        // (the one starting on its stone) and makes no shape; it cuts black's live two and
        // closes the five windows holding black's stone. The other lines are open for both.
        let b = play(&["JJ"]);
        let opened = TO_MOVE_WINDOW[1] - TO_MOVE_WINDOW[0];
        let row = ATTACK[0] + opened + DEFENCE[Pattern::Live2 as usize] + 5 * WAITING_WINDOW[1];
        let open_line = ATTACK[0] + 6 * opened + DEFENCE[0];
        assert_eq!(
            hand(100).cell(&b, cell("KJ"), Color::White),
            row + 3 * open_line
        );
        // Half the term, rounded down for each key.
        let half_row =
            ATTACK[0] + opened / 2 + DEFENCE[Pattern::Live2 as usize] + 5 * WAITING_WINDOW[1] / 2;
        let half_open_line = ATTACK[0] + DEFENCE[0] + 6 * opened / 2;
        assert_eq!(
            hand(50).cell(&b, cell("KJ"), Color::White),
            half_row + 3 * half_open_line
        );
    }

    #[test]
    fn a_mirrored_code_is_the_line_read_backwards() {
        for key in [0, 1, 5, 242, 12345, KEYS - 1] {
            let mut line = line_of(key);
            line.reverse();
            assert_eq!(mirrored(key), crate::rules::patterns::key_of(&line));
            assert_eq!(mirrored(mirrored(key)), key);
        }
        // The pattern a line makes does not depend on the way it is read.
        for key in (0..KEYS).step_by(7) {
            assert_eq!(pattern(key as u16), pattern(mirrored(key) as u16));
        }
    }

    #[test]
    fn ranking_files_round_trip_and_bad_ones_are_refused() {
        let attack: Vec<i16> = (0..KEYS).map(|k| (k % 1000) as i16 - 500).collect();
        let defence: Vec<i16> = (0..KEYS).map(|k| (k % 77) as i16).collect();
        let bytes = encode(&attack, &defence);
        let read = decode(&bytes).unwrap();
        assert_eq!(read.attack[12345], attack[12345] as i32);
        assert_eq!(read.defence[KEYS - 1], defence[KEYS - 1] as i32);
        assert_eq!(
            decode(&bytes[..bytes.len() - 2]).err(),
            Some(RankingFileError::Size {
                expected: bytes.len(),
                found: bytes.len() - 2
            })
        );
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert_eq!(decode(&bad).err(), Some(RankingFileError::NotARankingFile));
    }

    #[test]
    fn the_embedded_learned_ranking_reads_and_prefers_shapes() {
        let learned = decode(include_bytes!("ranking.bin")).unwrap();
        // A mirrored code has the same weight.
        for key in (0..KEYS).step_by(11) {
            assert_eq!(learned.attack[key], learned.attack[mirrored(key)]);
            assert_eq!(learned.defence[key], learned.defence[mirrored(key)]);
        }
        // Black's three on the diagonal HH II JJ (white far away in the corners): the cell
        // that makes it four is worth more to black than a cell with nothing around it.
        let board = Board::from_turns("JJ AAAS IIHH SASS").unwrap();
        let me = Color::Black;
        let shape = learned.cell(&board, cell("KK"), me);
        let far = learned.cell(&board, cell("PD"), me);
        assert!(shape > far, "{shape} <= {far}");
    }
}

//! The cell ranking: what a stone of the side to move is worth on an empty cell, read from
//! the line codes around the cell (`Board::line_keys`: the ten neighbours along each of the
//! four lines, from each colour's view). Move generation (`pairs`) takes its first and
//! second stones from it, and the defence ranks the cells of a threat's zone with it.
//!
//! A ranking is two tables over the 3^10 line codes: `attack`, indexed by the code seen from
//! the stone's owner, and `defence`, indexed by the code seen from the opponent, whose line
//! the stone cuts. A cell's worth is the sum over its four lines of both. Each code has its
//! own weight, fitted by `connect6 tune policy` to the turns of match and self-play games
//! (a softmax over the candidate cells) and embedded in the binary from `ranking.bin`.
//! The hand-set ranking it replaced (a code worth the hand-set value of its pattern) lost
//! its match against it (38.2%) and was removed; docs/experiments.md keeps its figures.
//!
//! A ranking is a value handed to the move generator (`engine::models`): `--ranking-file`
//! reads another fitted one in place of the embedded one.

use crate::rules::board::{Board, Color};
use crate::rules::coord::Cell;
use crate::rules::geometry::REACH;
use crate::rules::patterns::{ByKey, KEYS, POW3, key_table};

/// A ranking's tables: a stone's worth along one line, by the line's code seen from its
/// owner (`attack`) and from the opponent (`defence`).
pub struct KeyWorth {
    /// Spanning every `u16`, so that a read needs no bounds check; past `KEYS` all zero.
    attack: Box<ByKey<i32>>,
    defence: Box<ByKey<i32>>,
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

impl KeyWorth {
    /// The ranking embedded in the binary.
    pub fn embedded() -> KeyWorth {
        decode(include_bytes!("ranking.bin"))
            .expect("the embedded ranking file is checked by a test")
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
    let table = |part: &[i32]| {
        let mut table = key_table(0);
        table[..KEYS].copy_from_slice(part);
        table
    };
    Ok(KeyWorth {
        attack: table(&weights[..KEYS]),
        defence: table(&weights[KEYS..]),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::coord::parse_cell;
    use crate::rules::patterns::{line_of, pattern};

    fn cell(s: &str) -> Cell {
        parse_cell(s).unwrap()
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

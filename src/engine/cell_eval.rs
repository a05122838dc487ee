//! The learned cell values (`--eval cells`, the default): a fitted value for each cell code
//! (`rules::cells`: the four patterns a stone on an empty cell would make), as the side to
//! move and as the waiting side. The evaluator (`engine::eval`) sums them over the empty
//! cells as stones come and go; the term is the mover's to-move sum less the waiting side's
//! waiting sum. A linear model: it cannot see that two cells where the mover makes a four
//! are worth far more than twice one, since a turn has two stones; the network that tried
//! to (`--eval net`) did not win its match and was removed (docs/experiments.md).
//!
//! Fitted by `connect6 tune eval`, embedded from `cells.bin`, or read from a file given by
//! `--eval-file`.

use crate::rules::cells::CELL_CODES;

/// A value per cell code: `[as the side to move, as the waiting side]`.
pub type CellValues = [[i16; 2]; CELL_CODES];

/// A table of cell values, every one zero.
pub fn zero_cell_values() -> Box<CellValues> {
    Box::new([[0; 2]; CELL_CODES])
}

/// The head of a cell-value file: a name and a version, then the number of codes with a
/// value, then for each its code as a little-endian `u32` and its values to move and waiting
/// as `i16`s. Codes without an entry are worth nothing, as most never occur.
const MAGIC: &[u8; 8] = b"C6CELL01";

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
            CellFileError::NotACellFile => write!(
                f,
                "not an evaluation file (bad header): this engine reads cell values \
                 (`tune eval`)"
            ),
            CellFileError::Truncated => write!(f, "a cell-value file cut short or too long"),
            CellFileError::CodeOutOfRange(code) => {
                write!(f, "cell code {code} is beyond {}", CELL_CODES - 1)
            }
        }
    }
}

/// The bytes of the file holding `values`.
pub fn encode(values: &CellValues) -> Vec<u8> {
    let kept: Vec<(usize, &[i16; 2])> = values
        .iter()
        .enumerate()
        .filter(|(_, v)| v.iter().any(|&x| x != 0))
        .collect();
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&(kept.len() as u32).to_le_bytes());
    for (code, v) in kept {
        out.extend_from_slice(&(code as u32).to_le_bytes());
        out.extend_from_slice(&v[0].to_le_bytes());
        out.extend_from_slice(&v[1].to_le_bytes());
    }
    out
}

/// Reads from the front of a file, refusing what is cut short.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], CellFileError> {
        let (head, rest) = self
            .0
            .split_first_chunk::<N>()
            .ok_or(CellFileError::Truncated)?;
        self.0 = rest;
        Ok(*head)
    }

    fn i16(&mut self) -> Result<i16, CellFileError> {
        self.take().map(i16::from_le_bytes)
    }

    fn u32(&mut self) -> Result<u32, CellFileError> {
        self.take().map(u32::from_le_bytes)
    }
}

/// Reads a cell-value file written by `encode`.
pub fn decode(bytes: &[u8]) -> Result<Box<CellValues>, CellFileError> {
    let body = bytes
        .strip_prefix(MAGIC.as_slice())
        .ok_or(CellFileError::NotACellFile)?;
    let mut r = Reader(body);
    let count = r.u32()?;
    let mut values = zero_cell_values();
    for _ in 0..count {
        let code = r.u32()?;
        let v = [r.i16()?, r.i16()?];
        *values
            .get_mut(code as usize)
            .ok_or(CellFileError::CodeOutOfRange(code))? = v;
    }
    if !r.0.is_empty() {
        return Err(CellFileError::Truncated);
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_round_trip_and_bad_ones_are_refused() {
        let mut rng = crate::rng::Rng::new(1);
        let mut values = zero_cell_values();
        for (code, v) in values.iter_mut().enumerate().step_by(7) {
            for x in v.iter_mut() {
                *x = rng.below(601) as i16 - 300 + (code % 3) as i16;
            }
        }
        let bytes = encode(&values);
        let back = decode(&bytes).unwrap();
        assert!(back[..] == values[..]);
        assert_eq!(encode(&back), bytes);
        for cut in [bytes.len() - 1, MAGIC.len() + 2] {
            assert_eq!(decode(&bytes[..cut]).err(), Some(CellFileError::Truncated));
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(decode(&longer).err(), Some(CellFileError::Truncated));
        assert_eq!(decode(b"C6EVAL01").err(), Some(CellFileError::NotACellFile));
        // The network's files, whose evaluation is gone, are not cell values.
        assert_eq!(decode(b"C6CNET01").err(), Some(CellFileError::NotACellFile));
        let mut beyond = MAGIC.to_vec();
        beyond.extend_from_slice(&1u32.to_le_bytes());
        beyond.extend_from_slice(&(CELL_CODES as u32).to_le_bytes());
        beyond.extend_from_slice(&[0; 4]);
        assert_eq!(
            decode(&beyond).err(),
            Some(CellFileError::CodeOutOfRange(CELL_CODES as u32))
        );
    }

    #[test]
    fn the_embedded_values_read() {
        let values = decode(include_bytes!("cells.bin")).unwrap();
        assert!(values.iter().any(|v| v != &[0, 0]));
        assert_eq!(encode(&values), include_bytes!("cells.bin"));
    }
}

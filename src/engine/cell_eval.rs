//! The cell evaluations: a fitted table over the empty cells' codes (`rules::cells`), which
//! the board sums per colour as stones come and go, and a head that turns the two sums a
//! position needs (the mover's as to move, the waiting side's as waiting) into points.
//!
//! - **Sum** (`--eval cells`): one value per code and side in lane 0; the term is the
//!   mover's sum less the waiting side's. A linear model: it cannot see that two cells where
//!   the mover makes a four are worth far more than twice one, since a turn has two stones.
//! - **Network** (`--eval net`): `LANES` numbers per code and side, read through a hidden
//!   layer of `HIDDEN` rectified units to one number. Only the head is computed at a leaf,
//!   in integers: inputs clamped to `INPUT_LIMIT`, first-layer weights below `W1_LIMIT`, so
//!   the hidden sums fit an `i32`; the output layer is fixed point at `OUT_SHIFT` bits.
//!
//! Both are fitted by `connect6 tune eval` (`--features cells` or `net`) and embedded from
//! `cells.bin` and `net.bin`.

use crate::rules::cells::{CELL_CODES, CellSum, CellValues, LANES, Lanes, zero_cell_values};

/// The network's hidden units.
pub const HIDDEN: usize = 16;
/// The head's inputs: the mover's sums as to move, then the waiting side's as waiting.
pub const INPUTS: usize = 2 * LANES;
/// Inputs are clamped to this magnitude, and first-layer weights and biases kept below
/// theirs, so that `INPUTS` products and a bias fit an `i32`.
pub const INPUT_LIMIT: i32 = 1 << 15;
pub const W1_LIMIT: i32 = 1 << 11;
pub const B1_LIMIT: i32 = 1 << 29;
/// Fixed-point bits of the output layer's weights: the output is in points after the shift.
pub const OUT_SHIFT: u32 = 24;

/// A cell evaluation: the table the board sums, and how its sums are read.
pub struct CellModel {
    pub values: Box<CellValues>,
    head: Head,
}

enum Head {
    Sum,
    Net(Box<NetHead>),
}

/// The network's layers after the table, in integers.
#[derive(Clone, PartialEq, Debug)]
pub struct NetHead {
    pub w1: [[i32; INPUTS]; HIDDEN],
    pub b1: [i32; HIDDEN],
    pub w2: [i64; HIDDEN],
    pub b2: i64,
}

impl NetHead {
    #[inline]
    fn score(&self, mover: &Lanes<i32>, waiting: &Lanes<i32>) -> i32 {
        let mut x = [0i32; INPUTS];
        for (i, &v) in mover.iter().chain(waiting).enumerate() {
            x[i] = v.clamp(-INPUT_LIMIT, INPUT_LIMIT);
        }
        let mut out = self.b2;
        for j in 0..HIDDEN {
            let a = self.w1[j]
                .iter()
                .zip(&x)
                .fold(self.b1[j], |a, (&w, &x)| a + w * x);
            out += self.w2[j] * a.max(0) as i64;
        }
        (out >> OUT_SHIFT) as i32
    }

    /// Whether every weight is within the limits the arithmetic needs.
    fn in_limits(&self) -> bool {
        self.w1.iter().flatten().all(|w| w.abs() < W1_LIMIT)
            && self.b1.iter().all(|b| b.abs() < B1_LIMIT)
    }
}

impl CellModel {
    /// Values summed as they are (lane 0 only).
    pub fn sum(values: Box<CellValues>) -> CellModel {
        CellModel {
            values,
            head: Head::Sum,
        }
    }

    /// A network; `None` when a weight is beyond the limits of its arithmetic.
    pub fn net(values: Box<CellValues>, head: NetHead) -> Option<CellModel> {
        head.in_limits().then(|| CellModel {
            values,
            head: Head::Net(Box::new(head)),
        })
    }

    /// The cell term of the evaluation, in points, from the mover's and the waiting side's
    /// sums of this model's table.
    #[inline]
    pub fn score(&self, mover: &CellSum, waiting: &CellSum) -> i32 {
        match &self.head {
            Head::Sum => sum_score(mover, waiting),
            Head::Net(net) => net.score(&mover[0], &waiting[1]),
        }
    }

    /// Whether this is a network (`--eval net`) rather than plain values (`--eval cells`).
    pub fn is_net(&self) -> bool {
        matches!(self.head, Head::Net(_))
    }

    /// The bytes of this model's file.
    pub fn encode(&self) -> Vec<u8> {
        match &self.head {
            Head::Sum => encode_sum(&self.values),
            Head::Net(net) => encode_net(&self.values, net),
        }
    }
}

/// The cell term of a table read as plain values: the mover's to-move sum less the waiting
/// side's waiting sum.
#[inline]
pub fn sum_score(mover: &CellSum, waiting: &CellSum) -> i32 {
    mover[0][0] - waiting[1][0]
}

/// The head of a cell-value file: a name and a version, then the number of codes with a
/// value, then for each its code as a little-endian `u32` and its values to move and waiting
/// as `i16`s. Codes without an entry are worth nothing, as most never occur.
const SUM_MAGIC: &[u8; 8] = b"C6CELL01";
/// The head of a network file: a name and a version, `LANES` and `HIDDEN` as `u16`s, the
/// number of codes with an entry, then for each its code (`u32`) and its `LANES` values to
/// move and `LANES` waiting (`i16`s); then the first layer's weights (`HIDDEN` rows of
/// `INPUTS` `i32`s) and biases (`i32`s), and the output layer's weights and bias (`i64`s).
/// All little-endian.
const NET_MAGIC: &[u8; 8] = b"C6CNET01";

/// Why a cell-evaluation file was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum CellFileError {
    NotACellFile,
    Truncated,
    CodeOutOfRange(u32),
    Shape { lanes: u16, hidden: u16 },
    BeyondLimits,
}

impl std::fmt::Display for CellFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            CellFileError::NotACellFile => write!(
                f,
                "not an evaluation file (bad header): this engine reads cell values and cell \
                 networks (`tune eval --features cells|net`)"
            ),
            CellFileError::Truncated => write!(f, "a cell-value file cut short or too long"),
            CellFileError::CodeOutOfRange(code) => {
                write!(f, "cell code {code} is beyond {}", CELL_CODES - 1)
            }
            CellFileError::Shape { lanes, hidden } => write!(
                f,
                "a network of {lanes} lanes and {hidden} hidden units; this engine reads \
                 {LANES} and {HIDDEN}"
            ),
            CellFileError::BeyondLimits => {
                write!(f, "a network weight beyond the integer head's limits")
            }
        }
    }
}

/// The codes with some value, and their values.
fn kept(values: &CellValues) -> Vec<(usize, &[Lanes<i16>; 2])> {
    values
        .iter()
        .enumerate()
        .filter(|(_, v)| v.iter().flatten().any(|&x| x != 0))
        .collect()
}

fn encode_sum(values: &CellValues) -> Vec<u8> {
    let kept = kept(values);
    let mut out = SUM_MAGIC.to_vec();
    out.extend_from_slice(&(kept.len() as u32).to_le_bytes());
    for (code, v) in kept {
        out.extend_from_slice(&(code as u32).to_le_bytes());
        out.extend_from_slice(&v[0][0].to_le_bytes());
        out.extend_from_slice(&v[1][0].to_le_bytes());
    }
    out
}

fn encode_net(values: &CellValues, net: &NetHead) -> Vec<u8> {
    let kept = kept(values);
    let mut out = NET_MAGIC.to_vec();
    out.extend_from_slice(&(LANES as u16).to_le_bytes());
    out.extend_from_slice(&(HIDDEN as u16).to_le_bytes());
    out.extend_from_slice(&(kept.len() as u32).to_le_bytes());
    for (code, v) in kept {
        out.extend_from_slice(&(code as u32).to_le_bytes());
        for x in v.iter().flatten() {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
    for w in net.w1.iter().flatten().chain(&net.b1) {
        out.extend_from_slice(&w.to_le_bytes());
    }
    for w in net.w2.iter().chain([&net.b2]) {
        out.extend_from_slice(&w.to_le_bytes());
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

    fn u16(&mut self) -> Result<u16, CellFileError> {
        self.take().map(u16::from_le_bytes)
    }
    fn i16(&mut self) -> Result<i16, CellFileError> {
        self.take().map(i16::from_le_bytes)
    }
    fn u32(&mut self) -> Result<u32, CellFileError> {
        self.take().map(u32::from_le_bytes)
    }
    fn i32(&mut self) -> Result<i32, CellFileError> {
        self.take().map(i32::from_le_bytes)
    }
    fn i64(&mut self) -> Result<i64, CellFileError> {
        self.take().map(i64::from_le_bytes)
    }

    /// `count` entries of a code and what `entry` reads after it, into a fresh table.
    fn table(
        &mut self,
        mut entry: impl FnMut(&mut Self) -> Result<[Lanes<i16>; 2], CellFileError>,
    ) -> Result<Box<CellValues>, CellFileError> {
        let count = self.u32()?;
        let mut values = zero_cell_values();
        for _ in 0..count {
            let code = self.u32()?;
            let v = entry(self)?;
            *values
                .get_mut(code as usize)
                .ok_or(CellFileError::CodeOutOfRange(code))? = v;
        }
        Ok(values)
    }

    fn end(&self) -> Result<(), CellFileError> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(CellFileError::Truncated)
        }
    }
}

/// Reads a cell-evaluation file of either kind (`CellModel::encode`).
pub fn decode(bytes: &[u8]) -> Result<CellModel, CellFileError> {
    if let Some(body) = bytes.strip_prefix(SUM_MAGIC.as_slice()) {
        let mut r = Reader(body);
        let values = r.table(|r| {
            let mut v = [[0; LANES]; 2];
            v[0][0] = r.i16()?;
            v[1][0] = r.i16()?;
            Ok(v)
        })?;
        r.end()?;
        return Ok(CellModel::sum(values));
    }
    let body = bytes
        .strip_prefix(NET_MAGIC.as_slice())
        .ok_or(CellFileError::NotACellFile)?;
    let mut r = Reader(body);
    let (lanes, hidden) = (r.u16()?, r.u16()?);
    if (lanes as usize, hidden as usize) != (LANES, HIDDEN) {
        return Err(CellFileError::Shape { lanes, hidden });
    }
    let values = r.table(|r| {
        let mut v = [[0; LANES]; 2];
        for x in v.iter_mut().flatten() {
            *x = r.i16()?;
        }
        Ok(v)
    })?;
    let mut head = NetHead {
        w1: [[0; INPUTS]; HIDDEN],
        b1: [0; HIDDEN],
        w2: [0; HIDDEN],
        b2: 0,
    };
    for w in head.w1.iter_mut().flatten().chain(&mut head.b1) {
        *w = r.i32()?;
    }
    for w in head.w2.iter_mut().chain([&mut head.b2]) {
        *w = r.i64()?;
    }
    r.end()?;
    CellModel::net(values, head).ok_or(CellFileError::BeyondLimits)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn noisy_values(seed: u64, lanes: usize) -> Box<CellValues> {
        let mut rng = crate::rng::Rng::new(seed);
        let mut values = zero_cell_values();
        for (code, v) in values.iter_mut().enumerate().step_by(7) {
            for role in v.iter_mut() {
                for x in role.iter_mut().take(lanes) {
                    *x = rng.below(601) as i16 - 300 + (code % 3) as i16;
                }
            }
        }
        values
    }

    fn noisy_head(seed: u64) -> NetHead {
        let mut rng = crate::rng::Rng::new(seed);
        let mut head = NetHead {
            w1: [[0; INPUTS]; HIDDEN],
            b1: [0; HIDDEN],
            w2: [0; HIDDEN],
            b2: rng.below(1 << 30) as i64 - (1 << 29),
        };
        for w in head.w1.iter_mut().flatten() {
            *w = rng.below(2 * W1_LIMIT as usize - 1) as i32 - (W1_LIMIT - 1);
        }
        for b in &mut head.b1 {
            *b = rng.below(1 << 20) as i32 - (1 << 19);
        }
        for w in &mut head.w2 {
            *w = rng.below(1 << 16) as i64 - (1 << 15);
        }
        head
    }

    #[test]
    fn files_of_both_kinds_round_trip_and_bad_ones_are_refused() {
        let sum = CellModel::sum(noisy_values(1, 1));
        let net = CellModel::net(noisy_values(2, LANES), noisy_head(3)).unwrap();
        for model in [&sum, &net] {
            let bytes = model.encode();
            let back = decode(&bytes).unwrap();
            assert!(back.values == model.values);
            assert_eq!(back.encode(), bytes);
            for cut in [bytes.len() - 1, SUM_MAGIC.len() + 2] {
                assert_eq!(decode(&bytes[..cut]).err(), Some(CellFileError::Truncated));
            }
            let mut longer = bytes.clone();
            longer.push(0);
            assert_eq!(decode(&longer).err(), Some(CellFileError::Truncated));
        }
        assert_eq!(decode(b"C6EVAL01").err(), Some(CellFileError::NotACellFile));
        let mut beyond = SUM_MAGIC.to_vec();
        beyond.extend_from_slice(&1u32.to_le_bytes());
        beyond.extend_from_slice(&(CELL_CODES as u32).to_le_bytes());
        beyond.extend_from_slice(&[0; 4]);
        assert_eq!(
            decode(&beyond).err(),
            Some(CellFileError::CodeOutOfRange(CELL_CODES as u32))
        );
        // Another shape, or a weight the integer head cannot carry, is refused.
        let mut shape = net.encode();
        shape[8] = LANES as u8 + 1;
        assert_eq!(
            decode(&shape).err(),
            Some(CellFileError::Shape {
                lanes: LANES as u16 + 1,
                hidden: HIDDEN as u16
            })
        );
        let mut wild = noisy_head(4);
        wild.w1[3][5] = W1_LIMIT;
        assert!(CellModel::net(noisy_values(2, LANES), wild.clone()).is_none());
        let mut wild_file = net.encode();
        let w1_at = wild_file.len() - (HIDDEN * INPUTS + HIDDEN) * 4 - (HIDDEN + 1) * 8;
        wild_file[w1_at..w1_at + 4].copy_from_slice(&W1_LIMIT.to_le_bytes());
        assert_eq!(decode(&wild_file).err(), Some(CellFileError::BeyondLimits));
    }

    /// The integer head is the network it claims: rectified hidden sums of the clamped
    /// inputs, read out in fixed point, here against a plain floating-point reading.
    #[test]
    fn the_head_computes_the_network() {
        let head = noisy_head(5);
        let model = CellModel::net(zero_cell_values(), head.clone()).unwrap();
        let mut rng = crate::rng::Rng::new(6);
        let mut alive = 0;
        for _ in 0..200 {
            let mut mover = [[0i32; LANES]; 2];
            let mut waiting = [[0i32; LANES]; 2];
            for x in mover.iter_mut().chain(&mut waiting).flatten() {
                *x = rng.below(1 << 17) as i32 - (1 << 16);
            }
            let inputs: Vec<f64> = mover[0]
                .iter()
                .chain(&waiting[1])
                .map(|&x| x.clamp(-INPUT_LIMIT, INPUT_LIMIT) as f64)
                .collect();
            let mut out = head.b2 as f64;
            for j in 0..HIDDEN {
                let a = head.b1[j] as f64
                    + (0..INPUTS)
                        .map(|i| head.w1[j][i] as f64 * inputs[i])
                        .sum::<f64>();
                alive += usize::from(a > 0.0);
                out += head.w2[j] as f64 * a.max(0.0);
            }
            let expected = (out / (1u64 << OUT_SHIFT) as f64).floor() as i32;
            assert_eq!(model.score(&mover, &waiting), expected);
        }
        assert!(alive > 200 * HIDDEN / 4, "{alive}");
        // The sum head reads lane 0 alone.
        let sum = CellModel::sum(zero_cell_values());
        let (mut mover, mut waiting) = ([[0; LANES]; 2], [[0; LANES]; 2]);
        (mover[0][0], mover[0][1], waiting[1][0], waiting[0][0]) = (70, 9, 30, 5);
        assert_eq!(sum.score(&mover, &waiting), 40);
    }
}

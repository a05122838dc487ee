//! Sets of board cells, one bit a cell: the cells of a window, the occupied cells, the
//! relevance zones of threat-space proofs. Whole sets combine a word at a time.

use crate::rules::coord::{CELLS, Cell};

const WORDS: usize = CELLS.div_ceil(64);

/// A set of board cells.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct CellSet([u64; WORDS]);

#[inline]
fn word_and_bit(c: Cell) -> (usize, u64) {
    (c.index() / 64, 1 << (c.index() % 64))
}

impl CellSet {
    pub fn new() -> CellSet {
        CellSet::default()
    }

    #[inline]
    pub fn insert(&mut self, c: Cell) {
        let (w, bit) = word_and_bit(c);
        self.0[w] |= bit;
    }

    #[inline]
    pub fn remove(&mut self, c: Cell) {
        let (w, bit) = word_and_bit(c);
        self.0[w] &= !bit;
    }

    #[inline]
    pub fn contains(&self, c: Cell) -> bool {
        let (w, bit) = word_and_bit(c);
        self.0[w] & bit != 0
    }

    pub fn union_with(&mut self, other: &CellSet) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
    }

    /// Keeps only the cells `other` holds too.
    #[inline]
    pub fn intersect_with(&mut self, other: &CellSet) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a &= b;
        }
    }

    /// The cells of this set that `other` lacks.
    #[inline]
    pub fn without(&self, other: &CellSet) -> CellSet {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(other.0) {
            *a &= !b;
        }
        out
    }

    /// Adds the cells of `cells` that `except` lacks.
    #[inline]
    pub fn union_with_difference(&mut self, cells: &CellSet, except: &CellSet) {
        for ((a, &b), &not) in self.0.iter_mut().zip(&cells.0).zip(&except.0) {
            *a |= b & !not;
        }
    }

    /// How many cells this set and `other` share that `except` lacks.
    #[inline]
    pub fn count_common(&self, other: &CellSet, except: &CellSet) -> usize {
        let mut n = 0;
        for ((&a, &b), &not) in self.0.iter().zip(&other.0).zip(&except.0) {
            n += (a & b & !not).count_ones() as usize;
        }
        n
    }

    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The cells in index order.
    pub fn iter(&self) -> impl Iterator<Item = Cell> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    Cell::from_index(i * 64 + b)
                })
            })
        })
    }
}

impl FromIterator<Cell> for CellSet {
    fn from_iter<I: IntoIterator<Item = Cell>>(cells: I) -> CellSet {
        let mut set = CellSet::new();
        for c in cells {
            set.insert(c);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// A random set, and the same set as one flag a cell.
    fn random_set(rng: &mut Rng, one_in: usize) -> (CellSet, Vec<bool>) {
        let flags: Vec<bool> = (0..CELLS).map(|_| rng.below(one_in) == 0).collect();
        let set = Cell::all().filter(|c| flags[c.index()]).collect();
        (set, flags)
    }

    #[test]
    fn a_set_answers_as_one_flag_a_cell() {
        let mut rng = Rng::new(11);
        for one_in in [1, 2, 5, 40] {
            let (mut set, mut flags) = random_set(&mut rng, one_in);
            for _ in 0..200 {
                let c = Cell::from_index(rng.below(CELLS));
                if rng.below(2) == 0 {
                    set.insert(c);
                    flags[c.index()] = true;
                } else {
                    set.remove(c);
                    flags[c.index()] = false;
                }
            }
            let listed: Vec<Cell> = Cell::all().filter(|c| flags[c.index()]).collect();
            assert_eq!(set.iter().collect::<Vec<_>>(), listed);
            assert_eq!(set.len(), listed.len());
            assert_eq!(set.is_empty(), listed.is_empty());
            assert!(Cell::all().all(|c| set.contains(c) == flags[c.index()]));
        }
        assert!(CellSet::new().is_empty());
        assert_eq!(CellSet::new().iter().count(), 0);
    }

    #[test]
    fn whole_sets_combine_cell_by_cell() {
        let mut rng = Rng::new(12);
        for _ in 0..20 {
            let (a, fa) = random_set(&mut rng, 3);
            let (b, fb) = random_set(&mut rng, 3);
            let (c, fc) = random_set(&mut rng, 2);
            let mut union = a;
            union.union_with(&b);
            let mut added = a;
            added.union_with_difference(&b, &c);
            let mut both = a;
            both.intersect_with(&b);
            let apart = a.without(&b);
            for x in Cell::all() {
                let i = x.index();
                assert_eq!(both.contains(x), fa[i] && fb[i], "{x}");
                assert_eq!(apart.contains(x), fa[i] && !fb[i], "{x}");
            }
            let common = Cell::all()
                .filter(|x| fa[x.index()] && fb[x.index()] && !fc[x.index()])
                .count();
            assert_eq!(a.count_common(&b, &c), common);
            for x in Cell::all() {
                let i = x.index();
                assert_eq!(union.contains(x), fa[i] || fb[i], "{x}");
                assert_eq!(added.contains(x), fa[i] || (fb[i] && !fc[i]), "{x}");
            }
        }
    }
}

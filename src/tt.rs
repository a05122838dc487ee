//! Transposition table: a fixed array of entries indexed by Zobrist key, allocated once.

use crate::coord::{Cell, Turn};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    Exact,
    /// The score is at least this (a cutoff).
    Lower,
    /// The score is at most this (no move reached alpha).
    Upper,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    score: i32,
    /// Cells of the best turn (`u16::MAX` for none / no second stone).
    first: u16,
    second: u16,
    depth: u8,
    bound: u8,
    generation: u8,
}

#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub score: i32,
    pub depth: u8,
    pub bound: Bound,
    pub turn: Option<Turn>,
}

pub struct Table {
    entries: Vec<Entry>,
    generation: u8,
}

const NONE: u16 = u16::MAX;

impl Table {
    /// A table of about `megabytes` MB (at least one entry).
    pub fn new(megabytes: usize) -> Table {
        let n = (megabytes * 1024 * 1024 / std::mem::size_of::<Entry>()).max(1);
        Table {
            entries: vec![Entry::default(); n],
            generation: 0,
        }
    }

    fn slot(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto the table without a power-of-two size.
        ((key as u128 * self.entries.len() as u128) >> 64) as usize
    }

    /// Marks entries from earlier searches as replaceable first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }

    pub fn probe(&self, key: u64) -> Option<Hit> {
        let e = &self.entries[self.slot(key)];
        if e.key != key || e.bound == 0 {
            return None;
        }
        let turn = (e.first != NONE).then(|| {
            let first = Cell::from_index(e.first as usize);
            match e.second {
                NONE => Turn::one(first),
                s => Turn::two(first, Cell::from_index(s as usize)),
            }
        });
        let bound = match e.bound {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Hit {
            score: e.score,
            depth: e.depth,
            bound,
            turn,
        })
    }

    pub fn store(&mut self, key: u64, depth: u8, score: i32, bound: Bound, turn: Option<Turn>) {
        let slot = self.slot(key);
        let generation = self.generation;
        let e = &mut self.entries[slot];
        // Keep a deeper entry of this search for another position; anything else gives way.
        if e.key != key && e.generation == generation && e.depth > depth {
            return;
        }
        let (first, second) = match turn {
            Some(t) => (
                t.first.index() as u16,
                t.second.map_or(NONE, |c| c.index() as u16),
            ),
            None if e.key == key => (e.first, e.second),
            None => (NONE, NONE),
        };
        *e = Entry {
            key,
            score,
            first,
            second,
            depth,
            bound: match bound {
                Bound::Exact => 1,
                Bound::Lower => 2,
                Bound::Upper => 3,
            },
            generation,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes() {
        let mut t = Table::new(1);
        let turn = Turn::two(Cell::CENTER, Cell::new(0, 0).unwrap());
        t.store(42, 3, 17, Bound::Lower, Some(turn));
        let hit = t.probe(42).unwrap();
        assert_eq!(
            (hit.score, hit.depth, hit.bound, hit.turn),
            (17, 3, Bound::Lower, Some(turn))
        );
        assert!(t.probe(43).is_none());
        t.clear();
        assert!(t.probe(42).is_none());
    }
}

//! Transposition table: a fixed array of entries indexed by Zobrist key, allocated once.
//!
//! An entry is two words: the key, and the data packed into 64 bits (score, best turn as two
//! 9-bit cells, depth, bound, generation). Zero is an empty entry, so the table comes from
//! zeroed memory: a large table costs nothing at start-up until it is used.

use crate::coord::{CELLS, Cell, Turn};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    Exact,
    /// The score is at least this (a cutoff).
    Lower,
    /// The score is at most this (no move reached alpha).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub score: i32,
    pub depth: u8,
    pub bound: Bound,
    pub turn: Option<Turn>,
}

pub struct Table {
    entries: Vec<[u64; 2]>,
    generation: u8,
}

/// No cell (no turn, or no second stone): a 9-bit value no cell index reaches.
const NO_CELL: u64 = 511;
const _: () = assert!(CELLS < NO_CELL as usize);

/// Bit layout of the data word.
const SCORE_BITS: u32 = 32;
const CELL_BITS: u32 = 9;
const FIRST_SHIFT: u32 = SCORE_BITS;
const SECOND_SHIFT: u32 = FIRST_SHIFT + CELL_BITS;
const DEPTH_SHIFT: u32 = SECOND_SHIFT + CELL_BITS;
const BOUND_SHIFT: u32 = DEPTH_SHIFT + 8;
const GENERATION_SHIFT: u32 = BOUND_SHIFT + 2;
const GENERATIONS: u8 = 16;

fn field(data: u64, shift: u32, bits: u32) -> u64 {
    (data >> shift) & ((1 << bits) - 1)
}

fn pack(score: i32, turn: (u64, u64), depth: u8, bound: Bound, generation: u8) -> u64 {
    let bound = match bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    (score as u32 as u64)
        | turn.0 << FIRST_SHIFT
        | turn.1 << SECOND_SHIFT
        | (depth as u64) << DEPTH_SHIFT
        | bound << BOUND_SHIFT
        | ((generation % GENERATIONS) as u64) << GENERATION_SHIFT
}

impl Table {
    /// A table of about `megabytes` MB (at least one entry).
    pub fn new(megabytes: usize) -> Table {
        let n = (megabytes * 1024 * 1024 / std::mem::size_of::<[u64; 2]>()).max(1);
        Table {
            entries: vec![[0; 2]; n],
            generation: 0,
        }
    }

    fn slot(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto the table without a power-of-two size.
        ((key as u128 * self.entries.len() as u128) >> 64) as usize
    }

    /// Marks entries from earlier searches as replaceable first.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) % GENERATIONS;
    }

    pub fn clear(&mut self) {
        self.entries.fill([0; 2]);
    }

    pub fn probe(&self, key: u64) -> Option<Hit> {
        let [k, data] = self.entries[self.slot(key)];
        let bound = match field(data, BOUND_SHIFT, 2) {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        if k != key {
            return None;
        }
        let cell = |shift| match field(data, shift, CELL_BITS) {
            NO_CELL => None,
            c => Some(Cell::from_index(c as usize)),
        };
        let turn = cell(FIRST_SHIFT).map(|first| match cell(SECOND_SHIFT) {
            Some(second) => Turn::two(first, second),
            None => Turn::one(first),
        });
        Some(Hit {
            score: data as u32 as i32,
            depth: field(data, DEPTH_SHIFT, 8) as u8,
            bound,
            turn,
        })
    }

    pub fn store(&mut self, key: u64, depth: u8, score: i32, bound: Bound, turn: Option<Turn>) {
        let slot = self.slot(key);
        let generation = self.generation;
        let [k, data] = self.entries[slot];
        let occupied = field(data, BOUND_SHIFT, 2) != 0;
        let same_search = field(data, GENERATION_SHIFT, 4) as u8 == generation;
        // Keep a deeper entry of this search for another position; anything else gives way.
        if occupied && k != key && same_search && field(data, DEPTH_SHIFT, 8) as u8 > depth {
            return;
        }
        let cells = match turn {
            Some(t) => (
                t.first.index() as u64,
                t.second.map_or(NO_CELL, |c| c.index() as u64),
            ),
            // Keep the best turn a shallower search of this position found.
            None if occupied && k == key => (
                field(data, FIRST_SHIFT, CELL_BITS),
                field(data, SECOND_SHIFT, CELL_BITS),
            ),
            None => (NO_CELL, NO_CELL),
        };
        self.entries[slot] = [key, pack(score, cells, depth, bound, generation)];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes() {
        let mut t = Table::new(1);
        let turn = Turn::two(Cell::CENTER, Cell::new(0, 0).unwrap());
        t.store(42, 3, -17, Bound::Lower, Some(turn));
        let hit = t.probe(42).unwrap();
        assert_eq!(
            (hit.score, hit.depth, hit.bound, hit.turn),
            (-17, 3, Bound::Lower, Some(turn))
        );
        assert!(t.probe(43).is_none());
        // A store without a turn keeps the turn known for the position.
        t.store(42, 4, 1_000_000, Bound::Exact, None);
        let hit = t.probe(42).unwrap();
        assert_eq!(
            (hit.score, hit.depth, hit.bound, hit.turn),
            (1_000_000, 4, Bound::Exact, Some(turn))
        );
        // A shallower entry of another position does not push out a deeper one of this
        // search (keys 7 and 42 share a slot in a small table), but does in the next.
        let single = Turn::one(Cell::new(18, 18).unwrap());
        t.store(7, 0, 0, Bound::Upper, Some(single));
        assert!(t.probe(7).is_none());
        t.new_search();
        t.store(7, 0, 0, Bound::Upper, Some(single));
        assert_eq!(t.probe(7).unwrap().turn, Some(single));
        t.clear();
        assert!(t.probe(42).is_none());
    }

    #[test]
    fn key_zero_on_an_empty_slot_is_a_miss() {
        let t = Table::new(1);
        assert!(t.probe(0).is_none());
    }
}

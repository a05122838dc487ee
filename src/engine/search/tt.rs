//! Transposition table: a fixed array of entries indexed by Zobrist key, allocated once.
//!
//! An entry is two words: the key, and the data packed into 64 bits (score, best turn as two
//! 9-bit cells, depth, bound, generation). Zero is an empty entry, so the table comes from
//! zeroed memory: a large table costs nothing at start-up until it is used.
//!
//! Search threads share one table without locks. Each word is atomic, and the first holds
//! the key XORed with the data: a probe that reads the data of one store and the key word of
//! another (two threads writing the slot at once) gets a key that matches neither position,
//! so a torn entry is a miss, never a wrong hit.

use crate::rules::coord::{CELLS, Cell, Turn};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering::Relaxed};

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
    entries: Vec<[AtomicU64; 2]>,
    generation: AtomicU8,
    /// Whether anything was stored since the table was made or cleared. A fresh table's
    /// pages are not even mapped yet: clearing it would fault in every one of them, which
    /// is tens of milliseconds at a new game (more on a loaded machine) that a referee
    /// sending `new` and then `move` counts against our first reply.
    written: AtomicBool,
}

/// No cell (no turn, or no second stone): a 9-bit value no cell index reaches.
pub(super) const NO_CELL: u64 = 511;
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
        // Zeroed memory as atomics: `AtomicU64` has the layout of `u64`, and the allocation
        // stays lazy.
        let mut zeroed = std::mem::ManuallyDrop::new(vec![[0u64; 2]; n]);
        let (ptr, len, cap) = (zeroed.as_mut_ptr(), zeroed.len(), zeroed.capacity());
        // SAFETY: `[AtomicU64; 2]` has the same size and alignment as `[u64; 2]`, all-zero
        // bits are a valid value of it, and the allocation's ownership moves to the new Vec.
        let entries = unsafe { Vec::from_raw_parts(ptr.cast::<[AtomicU64; 2]>(), len, cap) };
        Table {
            entries,
            generation: AtomicU8::new(0),
            written: AtomicBool::new(false),
        }
    }

    fn slot(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto the table without a power-of-two size.
        ((key as u128 * self.entries.len() as u128) >> 64) as usize
    }

    /// Marks entries from earlier searches as replaceable first.
    pub fn new_search(&self) {
        let next = (self.generation.load(Relaxed) + 1) % GENERATIONS;
        self.generation.store(next, Relaxed);
    }

    pub fn clear(&self) {
        if self.written.load(Relaxed) {
            self.zero();
        }
    }

    /// Maps every page of the table now, so that a timed search does not pay for the page
    /// faults.
    pub fn touch(&self) {
        self.zero();
    }

    fn zero(&self) {
        for [a, b] in &self.entries {
            a.store(0, Relaxed);
            b.store(0, Relaxed);
        }
        self.written.store(false, Relaxed);
    }

    /// The entry in `slot` as (key, data).
    fn load(&self, slot: usize) -> (u64, u64) {
        let [a, b] = &self.entries[slot];
        let data = b.load(Relaxed);
        (a.load(Relaxed) ^ data, data)
    }

    pub fn probe(&self, key: u64) -> Option<Hit> {
        let (k, data) = self.load(self.slot(key));
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

    pub fn store(&self, key: u64, depth: u8, score: i32, bound: Bound, turn: Option<Turn>) {
        let slot = self.slot(key);
        let generation = self.generation.load(Relaxed);
        let (k, data) = self.load(slot);
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
        let data = pack(score, cells, depth, bound, generation);
        // Read first: once set, the flag's cache line stays shared between the threads.
        if !self.written.load(Relaxed) {
            self.written.store(true, Relaxed);
        }
        let [a, b] = &self.entries[slot];
        a.store(key ^ data, Relaxed);
        b.store(data, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes() {
        let t = Table::new(1);
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
    fn a_torn_entry_is_a_miss() {
        // Two positions in one slot: the key word of one store with the data of another
        // must not be taken for either.
        let t = Table::new(1);
        let turn = Turn::two(Cell::CENTER, Cell::new(0, 0).unwrap());
        t.store(42, 3, 5, Bound::Exact, Some(turn));
        let key_word_of_42 = t.entries[t.slot(42)][0].load(Relaxed);
        t.new_search();
        t.store(7, 9, -5, Bound::Lower, None);
        assert_eq!(t.slot(7), t.slot(42));
        t.entries[t.slot(42)][0].store(key_word_of_42, Relaxed);
        assert!(t.probe(42).is_none());
        assert!(t.probe(7).is_none());
    }

    #[test]
    fn every_entry_stored_in_its_own_slot_is_found() {
        let t = Table::new(1);
        let n = t.entries.len() as u64;
        // Key `i << 48 | low` lands in slot `i` of a 2^16-entry table, whatever `low` is.
        assert_eq!(n, 1 << 16);
        let key = |i: u64| i << 48 | (i.wrapping_mul(0x9e37_79b9) & 0xffff_ffff_ffff);
        let turn = |i: u64| {
            let a = Cell::from_index((i % CELLS as u64) as usize);
            let b = Cell::from_index(((i + 1) % CELLS as u64) as usize);
            Turn::two(a.min(b), a.max(b))
        };
        for i in 0..n {
            assert_eq!(t.slot(key(i)), i as usize);
            t.store(
                key(i),
                (i % 60) as u8,
                i as i32 - 30_000,
                Bound::Lower,
                Some(turn(i)),
            );
        }
        for i in 0..n {
            let hit = t
                .probe(key(i))
                .unwrap_or_else(|| panic!("entry {i} missed"));
            assert_eq!(
                (hit.score, hit.depth, hit.bound, hit.turn),
                (
                    i as i32 - 30_000,
                    (i % 60) as u8,
                    Bound::Lower,
                    Some(turn(i))
                )
            );
            // Another key of the same slot is a miss.
            assert!(t.probe(key(i) ^ 1).is_none());
        }
    }

    #[test]
    fn threads_share_a_table() {
        let t = Table::new(1);
        let hits: Vec<usize> = std::thread::scope(|s| {
            let threads: Vec<_> = (0..2u64)
                .map(|k| {
                    let t = &t;
                    s.spawn(move || {
                        let mut hits = 0;
                        for i in 0..10_000u64 {
                            let key = (i * 2 + k).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                            t.store(key, (i % 50) as u8, i as i32, Bound::Exact, None);
                            if let Some(hit) = t.probe(key) {
                                // Any hit is this thread's own entry, whole.
                                assert_eq!(hit.score, i as i32);
                                assert_eq!(hit.depth, (i % 50) as u8);
                                hits += 1;
                            }
                        }
                        hits
                    })
                })
                .collect();
            threads.into_iter().map(|h| h.join().unwrap()).collect()
        });
        // A store just made is found unless a deeper entry of another key kept the slot
        // (20,000 keys in 65,536 slots) or the other thread wrote it in between: rare.
        for h in hits {
            assert!(h > 8_000, "{h} of 10000 probes hit");
        }
    }

    #[test]
    fn key_zero_on_an_empty_slot_is_a_miss() {
        let t = Table::new(1);
        assert!(t.probe(0).is_none());
    }
}

//! The proof-number search's transposition table: proof and disproof numbers by position,
//! attacker and kind of node, with the proof (first turn, length, zone) of a proven one.
//!
//! Entries are packed into words of plain integers so that a new table is zeroed memory,
//! which the allocator hands out lazily: solvers are made fresh per question in the
//! benches and tools, and most questions touch a small part of the table.

use super::Proof;
use super::zone::CellSet;
use crate::rules::coord::{CELLS, Cell, Turn};

/// A proof or disproof number that stands for infinity: the node is decided.
pub const INF: u32 = u32::MAX / 2;

/// A budget field of a disproof that no limit cut short: it holds for any budget.
pub const EXHAUSTED: u8 = u8::MAX;

/// One node's numbers, what its search was allowed, and its proof when it is proven.
#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    pub pn: u32,
    pub dn: u32,
    /// Attacker nodes spent below the node: on a collision, the cheaper entry goes.
    pub work: u32,
    /// Attacker turns and single threats the node's search was allowed. A disproof holds
    /// for budgets within them (`EXHAUSTED`: any budget); the numbers of an open node are
    /// estimates whatever the budget.
    pub depth: u8,
    pub singles: u8,
    /// Meaningful when `pn` is 0.
    pub proof: Proof,
}

impl Entry {
    pub fn proven(proof: Proof, work: u32) -> Entry {
        Entry {
            pn: 0,
            dn: INF,
            work,
            depth: EXHAUSTED,
            singles: EXHAUSTED,
            proof,
        }
    }

    /// A disproof within `depth` attacker turns and `singles` single threats.
    pub fn disproven(depth: u8, singles: u8, work: u32) -> Entry {
        Entry {
            pn: INF,
            dn: 0,
            work,
            depth,
            singles,
            proof: Proof::default(),
        }
    }

    pub fn open(pn: u32, dn: u32, depth: u8, singles: u8, work: u32) -> Entry {
        Entry {
            pn,
            dn,
            work,
            depth,
            singles,
            proof: Proof::default(),
        }
    }

    /// The node's numbers for a search allowed `depth` attacker turns and `singles` single
    /// threats: a disproof found with less allowed says nothing, and the node counts as new
    /// (`fresh`).
    pub fn numbers(&self, depth: u8, singles: u8, fresh: (u32, u32)) -> (u32, u32) {
        if self.dn == 0 && (self.depth < depth || self.singles < singles) {
            fresh
        } else {
            (self.pn, self.dn)
        }
    }
}

/// Words of a packed entry: the key, the numbers, the budget and length, the turn, and
/// the zone.
const ZONE_WORDS: usize = CELLS.div_ceil(64);
const HEAD: usize = 4;
const WORDS: usize = HEAD + ZONE_WORDS;
type Packed = [u64; WORDS];

/// No cell: the turn field's marker for "none".
const NO_CELL: u64 = 0xffff;

fn pack_cell(c: Option<Cell>) -> u64 {
    c.map_or(NO_CELL, |c| c.index() as u64)
}

fn unpack_cell(bits: u64) -> Option<Cell> {
    let i = (bits & 0xffff) as usize;
    (i < CELLS).then(|| Cell::from_index(i))
}

fn pack(key: u64, e: &Entry) -> Packed {
    let mut out = [0; WORDS];
    out[0] = key;
    out[1] = e.pn as u64 | (e.dn as u64) << 32;
    out[2] = e.work as u64
        | (e.depth as u64) << 32
        | (e.singles as u64) << 40
        | (e.proof.length as u64) << 48;
    out[3] = match e.proof.turn {
        Some(t) => pack_cell(Some(t.first)) | pack_cell(t.second) << 16,
        None => NO_CELL,
    };
    out[HEAD..].copy_from_slice(e.proof.zone.words());
    out
}

fn unpack(p: &Packed) -> Entry {
    let mut zone_words = [0u64; ZONE_WORDS];
    zone_words.copy_from_slice(&p[HEAD..]);
    let turn = unpack_cell(p[3]).map(|first| Turn {
        first,
        second: unpack_cell(p[3] >> 16),
    });
    Entry {
        pn: p[1] as u32,
        dn: (p[1] >> 32) as u32,
        work: p[2] as u32,
        depth: (p[2] >> 32) as u8,
        singles: (p[2] >> 40) as u8,
        proof: Proof {
            turn,
            length: (p[2] >> 48) as u8,
            zone: CellSet::from_words(zone_words),
        },
    }
}

/// Two-entry buckets: on a collision the entry with less work below it is replaced.
pub struct Table {
    slots: Vec<Packed>,
}

impl Table {
    /// A table of about `entries` entries (at least one bucket).
    pub fn new(entries: usize) -> Table {
        Table {
            slots: vec![[0; WORDS]; entries.max(2).next_multiple_of(2)],
        }
    }

    fn bucket(&self, key: u64) -> usize {
        let buckets = self.slots.len() / 2;
        (((key as u128 * buckets as u128) >> 64) as usize) * 2
    }

    /// A stored entry has a decided or open pair of numbers, never both zero: zero words
    /// are an empty slot.
    fn holds(p: &Packed, key: u64) -> bool {
        p[0] == key && p[1] != 0
    }

    pub fn get(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        self.slots[b..b + 2]
            .iter()
            .find(|p| Table::holds(p, key))
            .map(unpack)
    }

    pub fn put(&mut self, key: u64, entry: &Entry) {
        let b = self.bucket(key);
        let slot = if Table::holds(&self.slots[b], key) {
            b
        } else if Table::holds(&self.slots[b + 1], key) {
            b + 1
        } else if (self.slots[b][2] as u32) <= (self.slots[b + 1][2] as u32) {
            b
        } else {
            b + 1
        };
        self.slots[slot] = pack(key, entry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys spread over the table, as position hashes are.
    fn k(n: u64) -> u64 {
        n.wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    #[test]
    fn entries_come_back_as_stored() {
        let mut table = Table::new(1 << 10);
        let mut zone = CellSet::new();
        for i in [0, 63, 64, 200, CELLS - 1] {
            zone.insert(Cell::from_index(i));
        }
        let turn = Turn::two(Cell::from_index(5), Cell::from_index(CELLS - 1));
        let proof = Proof {
            turn: Some(turn),
            length: 7,
            zone,
        };
        table.put(k(42), &Entry::proven(proof, 99));
        table.put(k(43), &Entry::disproven(4, 2, 1));
        table.put(k(44), &Entry::open(3, 5, 6, 1, 7));
        let got = table.get(k(42)).expect("stored");
        assert_eq!((got.pn, got.dn, got.work), (0, INF, 99));
        assert_eq!(got.proof.turn, Some(turn));
        assert_eq!((got.proof.length, got.proof.zone), (7, zone));
        let lone = Turn::one(Cell::from_index(0));
        table.put(
            k(45),
            &Entry::proven(
                Proof {
                    turn: Some(lone),
                    ..proof
                },
                1,
            ),
        );
        assert_eq!(table.get(k(45)).and_then(|e| e.proof.turn), Some(lone));
        let d = table.get(k(43)).expect("stored");
        assert_eq!((d.pn, d.dn, d.depth, d.singles), (INF, 0, 4, 2));
        // A disproof holds for budgets within its own, and says nothing beyond them.
        assert_eq!(d.numbers(4, 2, (1, 1)), (INF, 0));
        assert_eq!(d.numbers(5, 2, (1, 1)), (1, 1));
        assert_eq!(d.numbers(3, 3, (1, 1)), (1, 1));
        assert_eq!(table.get(k(44)).map(|e| (e.pn, e.dn)), Some((3, 5)));
        assert!(table.get(k(46)).is_none() && table.get(k(0)).is_none());
    }

    #[test]
    fn a_collision_keeps_the_costlier_entry() {
        let mut table = Table::new(2);
        table.put(1, &Entry::open(1, 1, 3, 0, 50));
        table.put(2, &Entry::open(1, 1, 3, 0, 5));
        table.put(3, &Entry::open(1, 1, 3, 0, 10));
        assert!(table.get(1).is_some() && table.get(3).is_some());
        assert!(table.get(2).is_none());
        // The same key is overwritten in place, whatever its work.
        table.put(1, &Entry::open(2, 2, 3, 0, 1));
        assert_eq!(table.get(1).map(|e| e.pn), Some(2));
    }
}

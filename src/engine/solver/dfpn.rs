//! The depth-first proof-number search over forcing turns (see the module notes).
//!
//! An OR node is a position with the attacker to move: proven when one of its forcing
//! turns is, its proof number the least of theirs, its disproof number their sum. An AND
//! node is the position after such a turn, the defender to answer: proven when every answer
//! is, its proof number their sum, its disproof number the least. Each node is searched
//! until its numbers pass thresholds its parent sets (`Bounds`), and its numbers are left
//! in the table, so a node's next visit starts where the last one stopped.

use super::attacks::{ATTACK_CAPACITY, Attack, Attacks, forcing_turns, spoils, unstoppable_turn};
use super::table::{EXHAUSTED, Entry, INF, Table};
use super::zone::{CellSet, counter_reach};
use super::{Proof, Solver, six_now};
use crate::engine::tunables::SOLVER_SINGLE_THREAT_PN;
use crate::rng::Rng;
use crate::rules::coord::{CELLS, Cell, Turn};
use crate::rules::stones::{Color, PlaceTurn, Stones, windows_in};
use crate::rules::threats::{Blocks, blocks};
use arrayvec::ArrayVec;
use once_cell::sync::Lazy;

/// Table keys: the same stones are a different question for each attacker, and for each
/// side to play (the attacker's turn, or the defender's answer to it).
const OR_SALT: [u64; 2] = [0, 0x5bd1_e995_8f3c_a7e1];
const AND_SALT: [u64; 2] = [0x9e37_79b9_7f4a_7c15, 0xc2b2_ae3d_27d4_eb4f];

/// The solver's own Zobrist keys. The search carries a position's hash down and adds each
/// stone's key, so that its children's keys are known without placing their stones (which
/// updates every window through them, and would cost more than the node itself).
static CELL_KEYS: Lazy<[[u64; CELLS]; 2]> = Lazy::new(|| {
    let mut rng = Rng::new(0x0df0_9e75_d1f5_c0de);
    let mut keys = [[0; CELLS]; 2];
    for k in keys.iter_mut().flatten() {
        *k = rng.next_u64();
    }
    keys
});

/// The hash of the stones on `b`.
pub fn board_hash(b: &Stones) -> u64 {
    Cell::all()
        .filter_map(|c| b.get(c).map(|color| stone(c, color)))
        .fold(0, |h, k| h ^ k)
}

fn stone(c: Cell, color: Color) -> u64 {
    CELL_KEYS[color.index()][c.index()]
}

fn turn_hash(turn: &Turn, color: Color) -> u64 {
    turn.cells().fold(0, |h, c| h ^ stone(c, color))
}

pub fn or_key(hash: u64, attacker: Color) -> u64 {
    hash ^ OR_SALT[attacker.index()]
}

fn and_key(hash: u64, attacker: Color) -> u64 {
    hash ^ AND_SALT[attacker.index()]
}

/// What a node may spend below it: attacker turns, and single-threat turns among them.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub depth: u8,
    pub singles: u8,
}

impl Budget {
    /// The budget of the defender's answers to `attack`.
    fn after(self, attack: &Attack) -> Budget {
        Budget {
            depth: self.depth - 1,
            singles: self.singles - u8::from(attack.threats == 1),
        }
    }
}

/// The thresholds a node is searched under: it returns once either number reaches its own.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    pub pn: u32,
    pub dn: u32,
}

pub const UNBOUNDED: Bounds = Bounds { pn: INF, dn: INF };

/// The numbers of an AND node not searched yet: a double threat has few answers, a single
/// threat's free stone many more.
fn fresh_and(threats: u8) -> (u32, u32) {
    if threats >= 2 {
        (1, 1)
    } else {
        (SOLVER_SINGLE_THREAT_PN, 1)
    }
}

/// OR nodes whose turns are kept (`Solver::turns_at`).
const TURN_CACHE: usize = 4096;

/// The numbers of an OR node not searched yet.
const FRESH_OR: (u32, u32) = (1, 1);

/// A sum of numbers short of infinity: only a decided child makes a node's number infinite.
fn add(a: u32, b: u32) -> u32 {
    (a + b).min(INF - 1)
}

/// The 1+epsilon trick: the child searched is given until its number passes the next
/// best sibling's by a quarter, not by one, so that the search does not switch back and
/// forth between close siblings, paying each switch with a walk down from the root.
fn beyond(second: u32) -> u32 {
    second.saturating_add(second / 4 + 1).min(INF)
}

/// A disproof's budget: `EXHAUSTED` when no limit cut it short.
fn disproof(budget: Budget, last: bool, work: u32) -> Entry {
    if last {
        Entry::disproven(EXHAUSTED, EXHAUSTED, work)
    } else {
        Entry::disproven(budget.depth, budget.singles, work)
    }
}

fn is_final(entry: Option<Entry>) -> bool {
    entry.is_some_and(|e| e.dn == 0 && e.depth == EXHAUSTED && e.singles == EXHAUSTED)
}

/// A child's numbers as its parent knows them: read from the table when the parent is
/// entered, then as each search of the child returns them. A parent does not read them
/// again: a child's entry can be lost to a collision, and a parent that read it as new
/// would send the search back down the same child forever.
#[derive(Clone, Copy)]
struct Known {
    pn: u32,
    dn: u32,
    /// A disproof no limit cut short.
    last: bool,
}

impl Known {
    fn of(entry: Option<Entry>, budget: Budget, fresh: (u32, u32)) -> Known {
        let (pn, dn) = entry.map_or(fresh, |e| e.numbers(budget.depth, budget.singles, fresh));
        Known {
            pn,
            dn,
            last: dn == 0 && is_final(entry),
        }
    }
}

/// One answer of the defender: its stones, and the key of the position after them. A
/// blocking stone alone is the answer with the free stone passed.
#[derive(Clone, Copy)]
struct Answer {
    block: Cell,
    other: Option<Cell>,
    /// The hash of the position after it.
    hash: u64,
    known: Known,
}

/// An AND node's answers, and what the proven ones have gathered of its proof.
struct Answers {
    list: Vec<Answer>,
    budget: Budget,
    /// The proven answers' zones, and the cells where free stones were tried.
    zone: CellSet,
    /// The longest proven answer.
    deepest: u8,
}

impl Answers {
    /// The answers that block every threat: pairs, and single blocking stones with their
    /// free stone passed. The ones that spoil most of the attacker's growth come first.
    fn new(
        table: &Table,
        b: &mut Stones,
        hash: u64,
        attacker: Color,
        replies: &Blocks,
        budget: Budget,
    ) -> Answers {
        let mut pairs: Vec<(u32, Cell, Option<Cell>)> = replies
            .pairs
            .iter()
            .map(|&(x, y)| (spoils(b, attacker, x) + spoils(b, attacker, y), x, Some(y)))
            .collect();
        pairs.sort_by_key(|&(score, _, _)| std::cmp::Reverse(score));
        let mut singles: Vec<(u32, Cell, Option<Cell>)> = replies
            .singles
            .iter()
            .map(|&x| (spoils(b, attacker, x), x, None))
            .collect();
        singles.sort_by_key(|&(score, _, _)| std::cmp::Reverse(score));
        let mut out = Answers {
            list: Vec::with_capacity(pairs.len() + singles.len()),
            budget,
            zone: CellSet::new(),
            deepest: 0,
        };
        let defender = attacker.other();
        for (_, x, y) in pairs.into_iter().chain(singles) {
            let h = y.map_or(hash, |y| hash ^ stone(y, defender)) ^ stone(x, defender);
            out.push(table, b, h, attacker, x, y);
        }
        out
    }

    /// Adds the answer `block` (and `other`), which makes the position's hash `hash`, with
    /// what the table knows of it.
    fn push(
        &mut self,
        table: &Table,
        b: &mut Stones,
        hash: u64,
        attacker: Color,
        block: Cell,
        other: Option<Cell>,
    ) {
        let entry = table.get(or_key(hash, attacker));
        self.list.push(Answer {
            block,
            other,
            hash,
            known: Known::of(entry, self.budget, FRESH_OR),
        });
        if let Some(e) = entry.filter(|e| e.pn == 0) {
            self.proven(table, b, attacker, self.list.len() - 1, &e.proof);
        }
    }

    /// Answer `i` is proven by `proof`: it adds to the node's, and a passed free stone's
    /// proof says which free stones are left to try. `b` is the position before the answer.
    fn proven(&mut self, table: &Table, b: &mut Stones, attacker: Color, i: usize, proof: &Proof) {
        self.zone.union_with(&proof.zone);
        self.deepest = self.deepest.max(proof.length);
        if self.list[i].other.is_some() {
            return;
        }
        // The free stones that could spoil the passed proof: its zone, and the cells where
        // a free stone grows a threat of the defender's own (`counter_reach`). Anywhere
        // else the passed proof stands.
        let defender = attacker.other();
        let Answer { block, hash, .. } = self.list[i];
        b.place(block, defender);
        let mut tried = proof.zone;
        tried.union_with(&counter_reach(b, defender, &proof.zone, 1));
        self.zone.union_with(&tried);
        // The attacker's next stones are the likeliest refutations: first in the list.
        let next: ArrayVec<Cell, 2> = proof.turn.iter().flat_map(Turn::cells).collect();
        let mut done = CellSet::new();
        let mut free = Vec::new();
        for y in next.into_iter().chain(tried.iter()) {
            if done.contains(y) || !b.is_empty(y) {
                continue;
            }
            done.insert(y);
            free.push(y);
        }
        b.remove(block);
        for y in free {
            self.push(
                table,
                b,
                hash ^ stone(y, defender),
                attacker,
                block,
                Some(y),
            );
        }
    }
}

/// The least and second least of a node's children by one number, with the best's other
/// number, and the sum of the other number.
struct Pick {
    best: usize,
    least: u32,
    second: u32,
    best_other: u32,
    sum: u32,
}

impl Pick {
    /// Children as (minimised number, summed number).
    fn of(children: impl Iterator<Item = (u32, u32)>) -> Pick {
        let mut pick = Pick {
            best: 0,
            least: INF,
            second: INF,
            best_other: 0,
            sum: 0,
        };
        for (i, (number, other)) in children.enumerate() {
            pick.sum = add(pick.sum, other);
            if number < pick.least {
                pick.second = pick.least;
                pick.least = number;
                pick.best = i;
                pick.best_other = other;
            } else if number < pick.second {
                pick.second = number;
            }
        }
        pick
    }
}

impl Solver {
    /// Work below a node: what it had, and the nodes spent since `since`.
    fn work(&self, prior: u32, since: u64) -> u32 {
        prior.saturating_add((self.nodes - since).min(u32::MAX as u64) as u32)
    }

    /// The attacker's turns at the OR node `key` within `budget`, and whether the budget
    /// left some out. A node is searched again on each visit, and generating its turns is
    /// most of a node's cost, so the last nodes' are kept.
    fn turns_at(
        &mut self,
        b: &mut Stones,
        key: u64,
        attacker: Color,
        budget: Budget,
    ) -> (Attacks, bool) {
        // With one turn left only an unstoppable turn (three or more threats) wins.
        if budget.depth == 1 {
            return (unstoppable_turn(b, attacker).into_iter().collect(), true);
        }
        let all = match self.turns.get(&key) {
            Some(turns) => turns.clone(),
            None => {
                let turns = forcing_turns(b, attacker, true);
                if self.turns.len() >= TURN_CACHE {
                    self.turns.clear();
                }
                self.turns.insert(key, turns.clone());
                turns
            }
        };
        if budget.singles > 0 {
            return (all, false);
        }
        // Without single threats left, the line's limit leaves them out.
        let doubles: Attacks = all.iter().filter(|a| a.threats >= 2).copied().collect();
        let cut = doubles.len() < all.len();
        (doubles, cut)
    }

    fn store(&mut self, key: u64, entry: Entry) -> Entry {
        self.table.put(key, &entry);
        entry
    }

    /// Searches the OR node of `attacker` to move on `b` within `bounds`; its numbers, and
    /// its proof when it is proven, go into the table and are returned.
    /// `hash` is `b`'s (`board_hash`).
    pub(super) fn or_node(
        &mut self,
        b: &mut Stones,
        hash: u64,
        attacker: Color,
        budget: Budget,
        bounds: Bounds,
    ) -> Entry {
        let key = or_key(hash, attacker);
        if let Some(w) = windows_in(b.threat_windows(attacker)).next() {
            return self.store(key, Entry::proven(six_now(b, w), 0));
        }
        if b.has_six(attacker.other()) || budget.depth == 0 {
            return self.store(key, disproof(budget, budget.depth > 0, 0));
        }
        if self.out_of_budget() {
            return Entry::open(FRESH_OR.0, FRESH_OR.1, budget.depth, budget.singles, 0);
        }
        self.nodes += 1;
        self.total_nodes += 1;
        let since = self.nodes;
        let prior = self.table.get(key).map_or(0, |e| e.work);
        // With one turn left only an unstoppable turn (three or more threats) wins.
        let (turns, cut) = self.turns_at(b, key, attacker, budget);
        if let Some(a) = turns.iter().find(|a| a.threats >= 3) {
            return self.store(key, Entry::proven(unstoppable(b, attacker, a.turn), 1));
        }
        let mut children: ArrayVec<(Attack, u64, Known), ATTACK_CAPACITY> = ArrayVec::new();
        for a in &turns {
            let k = and_key(hash ^ turn_hash(&a.turn, attacker), attacker);
            let entry = self.table.get(k);
            if let Some(e) = entry.filter(|e| e.pn == 0) {
                let proof = or_proof(e.proof, a.turn);
                return self.store(key, Entry::proven(proof, self.work(prior, since)));
            }
            children.push((
                *a,
                k,
                Known::of(entry, budget.after(a), fresh_and(a.threats)),
            ));
        }
        loop {
            let pick = Pick::of(children.iter().map(|(_, _, k)| (k.pn, k.dn)));
            let work = self.work(prior, since);
            let (pn, dn) = (pick.least, pick.sum);
            if dn == 0 {
                // The disproof is final when every turn's was, and no limit left turns out.
                let last = !cut && children.iter().all(|(_, _, k)| k.last);
                return self.store(key, disproof(budget, last, work));
            }
            if pn >= bounds.pn || dn >= bounds.dn || self.aborted {
                return self.store(key, Entry::open(pn, dn, budget.depth, budget.singles, work));
            }
            let (a, _, _) = children[pick.best];
            let child = Bounds {
                pn: bounds.pn.min(beyond(pick.second)),
                dn: bounds.dn - dn + pick.best_other,
            };
            b.place_turn(&a.turn, attacker);
            let after = hash ^ turn_hash(&a.turn, attacker);
            let got = self.and_node(b, after, attacker, &a, budget.after(&a), child);
            b.remove_turn(&a.turn);
            if got.pn == 0 {
                let proof = or_proof(got.proof, a.turn);
                return self.store(key, Entry::proven(proof, self.work(prior, since)));
            }
            children[pick.best].2 = Known {
                pn: got.pn,
                dn: got.dn,
                last: got.dn == 0 && is_final(Some(got)),
            };
        }
    }

    /// Searches the AND node after `attacker`'s `attack` (on `b`) within `bounds`: its
    /// answers have `budget`.
    fn and_node(
        &mut self,
        b: &mut Stones,
        hash: u64,
        attacker: Color,
        attack: &Attack,
        budget: Budget,
        bounds: Bounds,
    ) -> Entry {
        let key = and_key(hash, attacker);
        // A defender stone on a threat window's empty cell changes what must be answered.
        let mut base = CellSet::new();
        base.add_empty_cells_of(b, b.threat_windows(attacker));
        let replies = blocks(b, attacker);
        if attack.threats >= 3 || replies.needed >= 3 {
            let proof = Proof {
                turn: None,
                length: 1,
                zone: base,
            };
            return self.store(key, Entry::proven(proof, 0));
        }
        let since = self.nodes;
        let prior = self.table.get(key).map_or(0, |e| e.work);
        let mut answers = Answers::new(&self.table, b, hash, attacker, &replies, budget);
        let defender = attacker.other();
        loop {
            let pick = Pick::of(answers.list.iter().map(|a| (a.known.dn, a.known.pn)));
            let work = self.work(prior, since);
            let (pn, dn) = (pick.sum, pick.least);
            if dn == 0 {
                let last = answers.list[pick.best].known.last;
                return self.store(key, disproof(budget, last, work));
            }
            if pn == 0 {
                base.union_with(&answers.zone);
                let proof = Proof {
                    turn: None,
                    length: answers.deepest + 1,
                    zone: base,
                };
                return self.store(key, Entry::proven(proof, work));
            }
            if pn >= bounds.pn || dn >= bounds.dn || self.aborted {
                return self.store(key, Entry::open(pn, dn, budget.depth, budget.singles, work));
            }
            let a = answers.list[pick.best];
            let child = Bounds {
                pn: bounds.pn - pn + pick.best_other,
                dn: bounds.dn.min(beyond(pick.second)),
            };
            let stones: ArrayVec<Cell, 2> = std::iter::once(a.block).chain(a.other).collect();
            for &c in &stones {
                b.place(c, defender);
            }
            let got = self.or_node(b, a.hash, attacker, budget, child);
            for &c in stones.iter().rev() {
                b.remove(c);
            }
            answers.list[pick.best].known = Known {
                pn: got.pn,
                dn: got.dn,
                last: got.dn == 0 && is_final(Some(got)),
            };
            if got.pn == 0 {
                answers.proven(&self.table, b, attacker, pick.best, &got.proof);
            }
        }
    }
}

/// The proof of an OR node won by `turn`, from the proof of the defender's answers to it.
fn or_proof(mut proof: Proof, turn: Turn) -> Proof {
    for c in turn.cells() {
        proof.zone.insert(c);
    }
    proof.turn = Some(turn);
    proof
}

/// The proof of an unstoppable turn: its stones and the threat windows it leaves.
fn unstoppable(b: &mut Stones, attacker: Color, turn: Turn) -> Proof {
    b.place_turn(&turn, attacker);
    let mut zone = CellSet::new();
    zone.add_empty_cells_of(b, b.threat_windows(attacker));
    b.remove_turn(&turn);
    for c in turn.cells() {
        zone.insert(c);
    }
    Proof {
        turn: Some(turn),
        length: 1,
        zone,
    }
}

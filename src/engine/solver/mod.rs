//! Threat-space solver: wins by a sequence of forcing turns.
//!
//! Every attacker turn leaves at least one threat and the defender none (`attacks`). A turn
//! with two or more threats takes both of the defender's stones to answer; a turn with one
//! threat takes one, and leaves the defender a free stone. Lines that mix the two kinds are
//! far longer than double threats alone reach (a VCDT).
//!
//! The defender's free stone is handled with relevance zones. The attacker first proves the
//! win with the free stone passed; the proof's zone is every cell a defender stone could
//! spoil it through (the attacker's stones and threat windows along every line, the
//! defender's answers), plus the cells where a defender stone grows a threat of its own, at
//! once or with its later answers in the zone (`zone::counter_reach`). Only free stones
//! there are tried; anywhere else the passed proof stands unchanged. The zones of a node's
//! lines add up into its own, so a proof carries its zone upwards.
//!
//! The same reasoning spares most of a node's answers a search of their own: an answer whose
//! stones differ from one already beaten only outside that line's zone and counter reach
//! loses to the same line (`zone::BeatenAnswer`), since the line wins against both answers'
//! stones at once. A double threat's blocking pairs and a single threat's free stones
//! mostly differ so.
//!
//! Proofs and failures are cached by position and attacker between calls. The search
//! deepens over the single threats a line may hold (none, one, two), and within each one
//! attacker turn at a time, under node and time limits.

mod attacks;
pub mod defence;
mod order;
pub mod zone;

use crate::engine::tunables::{SOLVER_ANSWER_ORDER_DEPTH, SOLVER_SINGLE_THREATS};
use crate::rules::cellset::CellSet;
use crate::rules::coord::{Cell, Turn};
use crate::rules::stones::PlaceTurn;
use crate::rules::stones::{Color, Stones, windows_in};
use crate::rules::threats::{BLOCK_PAIRS, BLOCK_SINGLES, blocks};
use arrayvec::ArrayVec;
use attacks::{Attack, Attacks, answer_worth, as_attack, forcing_turns, unstoppable_turn};
use order::{fewest_answers_first, most_spoiling_first};
use std::time::Instant;
use zone::BeatenAnswer;

/// Cache keys of the two attackers differ: the same stones are a different question.
const ATTACKER_SALT: [u64; 2] = [0, 0x5bd1_e995_8f3c_a7e1];

/// A failure that no limit cut short (see `Failed`).
const EXHAUSTED: u8 = u8::MAX;

/// Whether a failed search met its limits somewhere: ran out of attacker turns (`depth`),
/// or left single threats out (`singles`). A failure that met neither is final.
#[derive(Clone, Copy, Default)]
struct Cut {
    depth: bool,
    singles: bool,
}

impl Cut {
    fn join(self, other: Cut) -> Cut {
        Cut {
            depth: self.depth || other.depth,
            singles: self.singles || other.singles,
        }
    }
}

/// A position shown not to be a win within `depth` attacker turns of which at most
/// `singles` are single threats. `EXHAUSTED` in either field: the search never met that
/// limit, so no deeper search (or more single threats) can do better.
#[derive(Clone, Copy, Default)]
struct Failed {
    key: u64,
    depth: u8,
    singles: u8,
}

/// A win, how long it takes and what it depends on.
#[derive(Clone, Copy, Debug, Default)]
pub struct Proof {
    /// The attacker's first turn.
    pub turn: Option<Turn>,
    /// Attacker turns to the six, counting the last.
    pub length: u8,
    /// Cells through which a defender stone could spoil the proof.
    pub zone: CellSet,
}

#[derive(Clone, Copy, Default)]
struct Proved {
    key: u64,
    proof: Proof,
}

/// How far and how long a solve may look.
#[derive(Clone, Copy, Debug)]
pub struct SolveLimits {
    /// Attacker turns.
    pub depth: u8,
    /// Attacker nodes.
    pub nodes: u64,
    pub deadline: Option<Instant>,
    /// Single-threat turns allowed in a line (0: double threats only, a VCDT).
    pub singles: u8,
}

impl SolveLimits {
    /// Limits for a search with single and double threats (`SOLVER_SINGLE_THREATS` of them).
    pub fn new(depth: u8, nodes: u64, deadline: Option<Instant>) -> SolveLimits {
        SolveLimits {
            depth,
            nodes,
            deadline,
            singles: SOLVER_SINGLE_THREATS,
        }
    }

    /// The same limits for double threats only.
    pub fn double_threats_only(self) -> SolveLimits {
        SolveLimits { singles: 0, ..self }
    }
}

/// What a solve found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The attacker wins with this first turn.
    Win(Turn),
    /// No win within the depth searched.
    NoWin,
    /// The node or time limit ran out first.
    Unknown,
}

pub struct Solver {
    failed: Vec<Failed>,
    proved: Vec<Proved>,
    nodes: u64,
    /// Nodes over the solver's whole life, for reports.
    total_nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    aborted: bool,
    /// The proof behind the last `Verdict::Win`.
    last_proof: Proof,
    /// The last winning turn found with each number of attacker turns left.
    killers: [Option<Turn>; KILLER_SLOTS],
    /// The limits the failures searched since it was last reset met.
    cut: Cut,
}

/// Free stones shown to lose that a node keeps to answer for its other free stones
/// (`zone::BeatenAnswer`); the ones after are each searched.
const BEATEN_FREE_STONES: usize = 16;

/// Killer slots: one per attacker turn left, beyond any depth asked for.
const KILLER_SLOTS: usize = 64;

fn killer_slot(depth: u8) -> usize {
    (depth as usize).min(KILLER_SLOTS - 1)
}

impl Solver {
    /// A solver with caches of `cache_entries` slots each, allocated once.
    pub fn new(cache_entries: usize) -> Solver {
        Solver {
            failed: vec![Failed::default(); cache_entries.max(1)],
            proved: vec![Proved::default(); (cache_entries / 4).max(1)],
            nodes: 0,
            total_nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            aborted: false,
            last_proof: Proof::default(),
            killers: [None; KILLER_SLOTS],
            cut: Cut::default(),
        }
    }

    /// Attacker nodes of the last solve.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    pub fn total_nodes(&self) -> u64 {
        self.total_nodes
    }

    /// The proof behind the last win found: its first turn, length and zone.
    pub fn last_proof(&self) -> &Proof {
        &self.last_proof
    }

    /// Looks for a win of the side to move within the limits.
    pub fn solve(&mut self, board: &Stones, limits: SolveLimits) -> Verdict {
        self.solve_for(board, board.side_to_move(), limits)
    }

    /// Looks for a win of `attacker` as if it were to move (a "null move" by the other side
    /// when it is not): what the opponent threatens.
    pub fn solve_for(&mut self, board: &Stones, attacker: Color, limits: SolveLimits) -> Verdict {
        self.nodes = 0;
        self.node_limit = limits.nodes;
        self.deadline = limits.deadline;
        self.aborted = false;
        let mut b = board.clone();
        b.keep_undo();
        // A single threat leaves the defender a free stone, and so far more replies than a
        // double threat: lines with fewer of them are far cheaper to search, and most wins
        // need at most one or two. Deepening over the single threats allowed (none: double
        // threats only, then one, two, ...) finds them at a fraction of the cost of
        // allowing any number at once.
        // A level whose failures never left a single threat out is final.
        for singles in 0..=limits.singles {
            match self.deepen(&mut b, attacker, limits.depth, singles) {
                Verdict::NoWin if self.cut.singles => {}
                found => return found,
            }
        }
        Verdict::NoWin
    }

    fn deepen(&mut self, b: &mut Stones, attacker: Color, max_depth: u8, singles: u8) -> Verdict {
        // Deepening: short sequences are cheap and common; a fixed deep search would wander
        // down long hopeless lines first. Failures cached at one depth answer the next only
        // where they were searched as deep. An iteration whose lines all ended before its
        // depth is final: a deeper one would search the same tree.
        for depth in 1..=max_depth {
            self.cut = Cut::default();
            if let Some(proof) = self.attack(b, attacker, depth, singles)
                && let Some(turn) = proof.turn
            {
                self.last_proof = proof;
                return Verdict::Win(turn);
            }
            if self.aborted {
                return Verdict::Unknown;
            }
            if !self.cut.depth {
                break;
            }
        }
        Verdict::NoWin
    }

    fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.node_limit {
            self.aborted = true;
        }
        if self.nodes.is_multiple_of(16) && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.aborted = true;
        }
        self.aborted
    }

    fn failed_slot(&self, key: u64) -> usize {
        ((key as u128 * self.failed.len() as u128) >> 64) as usize
    }

    fn proved_slot(&self, key: u64) -> usize {
        ((key as u128 * self.proved.len() as u128) >> 64) as usize
    }

    fn key(&self, board: &Stones, attacker: Color) -> u64 {
        board.hash() ^ ATTACKER_SALT[attacker.index()]
    }

    /// A win of `attacker`, to move, within `depth` turns of which at most `singles` are
    /// single threats.
    fn attack(
        &mut self,
        board: &mut Stones,
        attacker: Color,
        depth: u8,
        singles: u8,
    ) -> Option<Proof> {
        if let Some(w) = windows_in(board.threat_windows(attacker)).next() {
            return Some(six_now(board, w));
        }
        if board.has_six(attacker.other()) {
            return None;
        }
        if depth == 0 {
            self.cut.depth = true;
            return None;
        }
        if self.out_of_budget() {
            return None;
        }
        self.nodes += 1;
        self.total_nodes += 1;
        let key = self.key(board, attacker);
        let failed = self.failed[self.failed_slot(key)];
        if failed.key == key && failed.depth >= depth && failed.singles >= singles {
            self.cut.depth |= failed.depth != EXHAUSTED;
            self.cut.singles |= failed.singles != EXHAUSTED;
            return None;
        }
        let proved = self.proved[self.proved_slot(key)];
        if proved.key == key && proved.proof.length <= depth {
            return Some(proved.proof);
        }
        // This node's own cuts, so that its failure is cached as final when it met none.
        let outer = std::mem::take(&mut self.cut);
        let found = self.attack_node(board, attacker, depth, singles, key);
        let here = self.cut;
        self.cut = outer.join(here);
        if found.is_none() && !self.aborted {
            let slot = self.failed_slot(key);
            self.failed[slot] = Failed {
                key,
                depth: if here.depth { depth } else { EXHAUSTED },
                singles: if here.singles { singles } else { EXHAUSTED },
            };
        }
        found
    }

    /// `attack` past the caches: the attacker's turns at the node `key`.
    fn attack_node(
        &mut self,
        board: &mut Stones,
        attacker: Color,
        depth: u8,
        singles: u8,
        key: u64,
    ) -> Option<Proof> {
        // The turn that last won with as many turns left is tried before generating the
        // rest: after a defender's other answer, or another free stone, the same turn
        // usually still wins, and then the generator's work is saved.
        let single_threats = singles > 0;
        // With one turn left only an unstoppable turn (three or more threats) wins: the
        // others need not be played out.
        let last_turn = depth == 1;
        if last_turn {
            self.cut.depth = true;
        } else if !single_threats {
            self.cut.singles = true;
        }
        // The killer is judged standing on the board, and tried there if it still attacks.
        let mut killer = None;
        if let Some(turn) = self.killers[killer_slot(depth)]
            && turn.cells().all(|c| board.is_empty(c))
        {
            board.place_turn(&turn, attacker);
            killer = as_attack(board, attacker, turn, single_threats)
                .filter(|k| !last_turn || k.threats >= 3);
            let found =
                killer.and_then(|k| self.try_standing(board, attacker, &k, depth, singles, key));
            board.remove_turn(&turn);
            if found.is_some() {
                return found;
            }
            if self.aborted {
                return None;
            }
        }
        let mut turns: Attacks = if last_turn {
            unstoppable_turn(board, attacker).into_iter().collect()
        } else {
            forcing_turns(board, attacker, single_threats)
        };
        if depth >= SOLVER_ANSWER_ORDER_DEPTH {
            fewest_answers_first(board, attacker, &mut turns);
        }
        for attack in turns
            .iter()
            .filter(|a| Some(a.turn) != killer.map(|k| k.turn))
        {
            board.place_turn(&attack.turn, attacker);
            let found = self.try_standing(board, attacker, attack, depth, singles, key);
            board.remove_turn(&attack.turn);
            if found.is_some() {
                return found;
            }
            if self.aborted {
                return None;
            }
        }
        None
    }

    /// `attack`, standing on the board at the node `key`: when every defence loses, records
    /// and returns the proof (and the turn as the killer for this many turns left).
    fn try_standing(
        &mut self,
        board: &mut Stones,
        attacker: Color,
        attack: &Attack,
        depth: u8,
        singles: u8,
        key: u64,
    ) -> Option<Proof> {
        // A single threat spends one of the line's single-threat turns.
        let singles_after = singles - u8::from(attack.threats == 1);
        let mut proof = self.defend(board, attacker, attack, depth, singles_after)?;
        self.killers[killer_slot(depth)] = Some(attack.turn);
        for c in attack.turn.cells() {
            proof.zone.insert(c);
        }
        proof.turn = Some(attack.turn);
        let slot = self.proved_slot(key);
        self.proved[slot] = Proved { key, proof };
        Some(proof)
    }

    /// After the attacker's `attack`, whether every defence loses; the proof's length and
    /// zone when it does (its first turn is the caller's).
    fn defend(
        &mut self,
        board: &mut Stones,
        attacker: Color,
        attack: &Attack,
        depth: u8,
        singles: u8,
    ) -> Option<Proof> {
        let defender = attacker.other();
        let mut proof = Proof {
            turn: None,
            length: 1,
            zone: CellSet::new(),
        };
        // A defender stone on a threat window's empty cell changes what must be answered.
        zone::add_empty_cells(&mut proof.zone, board, board.threat_windows(attacker));
        if attack.threats >= 3 {
            return Some(proof);
        }
        let mut replies = blocks(board, attacker);
        if replies.needed >= 3 {
            return Some(proof);
        }
        // Most attacks are refuted, and a refutation found first saves proving the other
        // replies lost: the replies that spoil most of the attacker's growth and build most
        // of the defender's own go first (a defender four must be answered, which the
        // attacker's next turn may not afford). Each cell is scored once (the pairs share
        // their cells), not at every comparison.
        let mut scored: ArrayVec<(Cell, u32), { 2 * BLOCK_PAIRS + BLOCK_SINGLES }> =
            ArrayVec::new();
        let mut worth = |c: Cell| match scored.iter().find(|&&(x, _)| x == c) {
            Some(&(_, s)) => s,
            None => {
                let s = answer_worth(board, c);
                scored.push((c, s));
                s
            }
        };
        most_spoiling_first(&mut replies.pairs, |&(x, y)| worth(x) + worth(y));
        most_spoiling_first(&mut replies.singles, |&x| worth(x));
        let mut deepest = 0;
        let mut beaten: ArrayVec<BeatenAnswer, BLOCK_PAIRS> = ArrayVec::new();
        for &(x, y) in &replies.pairs {
            if let Some(known) = beaten
                .iter()
                .find(|b| b.covers(board, defender, [x, y], &mut proof.zone))
            {
                deepest = deepest.max(known.length);
                continue;
            }
            board.place(x, defender);
            board.place(y, defender);
            let line = self.attack(board, attacker, depth - 1, singles);
            board.remove(y);
            board.remove(x);
            let line = line?;
            beaten.push(BeatenAnswer::new([x, y], line.zone, line.length));
            proof.zone.union_with(&line.zone);
            deepest = deepest.max(line.length);
        }
        for &x in &replies.singles {
            board.place(x, defender);
            let line = self.free_stone(board, attacker, depth - 1, singles);
            board.remove(x);
            let line = line?;
            proof.zone.union_with(&line.zone);
            deepest = deepest.max(line.length);
        }
        proof.length = deepest + 1;
        Some(proof)
    }

    /// The defender has blocked with one stone and places its second anywhere: the
    /// attacker's win against every placement that matters.
    fn free_stone(
        &mut self,
        board: &mut Stones,
        attacker: Color,
        depth: u8,
        singles: u8,
    ) -> Option<Proof> {
        let defender = attacker.other();
        // First with the free stone passed: no placement can do better than one in the
        // passed proof's zone, or one that can grow a threat of the defender's own, at once
        // or with its later answers in that zone (`zone::counter_reach`).
        let passed = self.attack(board, attacker, depth, singles)?;
        let mut proof = passed;
        let mut tried = passed.zone;
        tried.union_with(&zone::counter_reach(board, defender, &passed.zone, 1));
        // The attacker's next stones are the likeliest refutations: try them first.
        let first: Option<Turn> = passed.turn;
        let order = first
            .iter()
            .flat_map(|t| t.cells().collect::<arrayvec::ArrayVec<Cell, 2>>())
            .chain(tried.iter());
        let mut done = CellSet::new();
        let mut beaten: ArrayVec<BeatenAnswer, BEATEN_FREE_STONES> = ArrayVec::new();
        for y in order {
            if done.contains(y) || !board.is_empty(y) {
                continue;
            }
            done.insert(y);
            if let Some(known) = beaten
                .iter()
                .find(|b| b.covers(board, defender, [y, y], &mut proof.zone))
            {
                proof.length = proof.length.max(known.length);
                continue;
            }
            board.place(y, defender);
            let line = self.attack(board, attacker, depth, singles);
            board.remove(y);
            let line = line?;
            if !beaten.is_full() {
                beaten.push(BeatenAnswer::new([y, y], line.zone, line.length));
            }
            proof.zone.union_with(&line.zone);
            proof.length = proof.length.max(line.length);
        }
        proof.zone.union_with(&tried);
        Some(proof)
    }
}

/// The attacker to move completes the six in window `w`.
fn six_now(board: &Stones, w: usize) -> Proof {
    let mut zone = CellSet::new();
    zone::add_empty_cells_of_window(&mut zone, board, w);
    let mut cells = zone.iter();
    let a = cells.next().expect("a threat window has an empty cell");
    let free = cells
        .next()
        .or_else(|| Cell::all().find(|&c| c != a && board.is_empty(c)));
    Proof {
        turn: Some(free.map_or(Turn::one(a), |b| Turn::two(a.min(b), a.max(b)))),
        length: 1,
        zone,
    }
}

#[cfg(test)]
mod tests;

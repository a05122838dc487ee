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
//! The search is a depth-first proof-number search (df-pn, `dfpn`): OR nodes are the
//! attacker's forcing turns, AND nodes the defender's answers that block every threat (a
//! blocking stone's free stone through the zones above). Proof and disproof numbers, and
//! the proof of a proven node, are kept by position, attacker and kind of node in a table
//! (`table`) that lives as long as the solver: between moves, and between the defence's
//! null move and its checks of candidate turns. A disproof holds for the attacker turns and
//! single threats it was allowed. The search deepens over both, as short wins are common,
//! under node and time limits.

mod attacks;
pub mod defence;
mod dfpn;
mod table;
pub mod zone;

use crate::engine::tunables::SOLVER_SINGLE_THREATS;
use crate::rules::coord::{Cell, Turn};
use crate::rules::stones::{Color, Stones};
use dfpn::Budget;
use std::time::Instant;
use table::Table;
use zone::CellSet;

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
    table: Table,
    nodes: u64,
    /// Nodes over the solver's whole life, for reports.
    total_nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    aborted: bool,
    /// The proof behind the last `Verdict::Win`.
    last_proof: Proof,
    /// The forcing turns of the OR nodes searched last, by key and kind.
    turns: std::collections::HashMap<u64, attacks::Attacks>,
}

impl Solver {
    /// A solver whose table holds about `cache_entries` nodes, allocated once; it keeps
    /// them between solves.
    pub fn new(cache_entries: usize) -> Solver {
        Solver {
            table: Table::new(cache_entries),
            nodes: 0,
            total_nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            aborted: false,
            last_proof: Proof::default(),
            turns: std::collections::HashMap::new(),
        }
    }

    /// Attacker nodes of the last solve: positions whose forcing turns were generated.
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
        // Short wins are common and cheap, and a proof-number search alone, with every
        // turn alike at first, spreads over the whole width of a long line before it goes
        // deep. So the search deepens, as the old threat-space search did, over the single
        // threats a line may hold and, within each, the attacker turns: each pass a df-pn
        // under that budget, starting from the numbers and proofs the table keeps from the
        // last. A disproof no limit cut short ends it.
        for singles in 0..=limits.singles {
            for depth in 1..=limits.depth {
                match self.solve_within(&mut b, attacker, Budget { depth, singles }) {
                    Some(Verdict::NoWin) => {}
                    Some(found) => return found,
                    None => return Verdict::NoWin,
                }
            }
        }
        Verdict::NoWin
    }

    /// One pass of the search: `None` when the root's disproof is final.
    fn solve_within(&mut self, b: &mut Stones, attacker: Color, budget: Budget) -> Option<Verdict> {
        let hash = dfpn::board_hash(b);
        let key = dfpn::or_key(hash, attacker);
        let mut entry = self.table.get(key);
        // The root is searched without thresholds: it returns decided, or out of budget.
        loop {
            if let Some(e) = entry {
                match e.numbers(budget.depth, budget.singles, (1, 1)) {
                    (0, _) => {
                        self.last_proof = e.proof;
                        return Some(e.proof.turn.map_or(Verdict::Unknown, Verdict::Win));
                    }
                    (_, 0) if e.depth == table::EXHAUSTED => return None,
                    (_, 0) => return Some(Verdict::NoWin),
                    _ => {}
                }
            }
            if self.aborted {
                return Some(Verdict::Unknown);
            }
            entry = Some(self.or_node(b, hash, attacker, budget, dfpn::UNBOUNDED));
        }
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
}

/// The attacker to move completes the six in window `w`.
fn six_now(board: &Stones, w: usize) -> Proof {
    let mut zone = CellSet::new();
    zone.add_empty_cells_of_window(board, w);
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

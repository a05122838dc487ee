//! Threat-space defence at the root: keep our turn out of the opponent's reach.
//!
//! A turn that lets the opponent win by a threat sequence is lost however well it scores.
//! Before the main search the solver asks whether the opponent, given the move now, would
//! have such a win. When it would not, no turn of ours can give it one: our stones only
//! block its lines and only add to our own threats. When it would, the proof's relevance
//! zone says where the win can be spoilt: a turn of ours with no stone in the zone, nor
//! where two stones could grow a threat of ours with our later answers, that makes no
//! threat of ours leaves the proof standing, so it loses without another solve.
//! The root turns are widened with stones in the zone, then every other root turn the time
//! allows is checked; those that lose are dropped (unless all of them do).

use crate::engine::pairs::{Pairs, Situation, add_pairs_through, cell_score};
use crate::engine::solver::zone::{CellSet, turn_reach};
use crate::engine::solver::{SolveLimits, Solver, Verdict};
use crate::engine::tunables::{
    COUNTER_PARTNERS, NULL_MOVE_THREAT_NODES, SAFETY_THREAT_DEPTH, SAFETY_THREAT_NODES,
    ZONE_CELLS_PAIRED,
};
use crate::rules::board::Board;
use crate::rules::coord::{Cell, Turn};
use crate::rules::stones::PlaceTurn;
use arrayvec::ArrayVec;
use std::time::Instant;

/// Root turns shown safe (no opponent threat sequence within the solver's limits).
pub type Verified = ArrayVec<Turn, { crate::engine::pairs::PAIR_CAPACITY }>;

/// What checking the root turns found.
pub enum Guard {
    /// The opponent has no threat sequence even with the move now: no turn of ours can
    /// give it one.
    NoThreat,
    /// These root turns are shown safe; the losing ones were dropped.
    Checked(Box<Verified>),
}

/// Keeps the root turns out of the opponent's threat sequences (see the module notes).
pub fn guard(
    solver: &mut Solver,
    board: &mut Board,
    root: &mut Pairs,
    situation: Situation,
    deadline: Option<Instant>,
) -> Guard {
    let me = board.side_to_move();
    let mut zone = None;
    if situation == Situation::Quiet {
        let limits = SolveLimits::new(SAFETY_THREAT_DEPTH, NULL_MOVE_THREAT_NODES, deadline);
        match solver.solve_for(board.as_stones(), me.other(), limits) {
            Verdict::NoWin => return Guard::NoThreat,
            Verdict::Win(threat) => {
                let proof = *solver.last_proof();
                log::debug!(
                    "the opponent threatens a win in {} turns starting {threat}; zone of {} cells",
                    proof.length,
                    proof.zone.len()
                );
                widen(board, root, threat, &proof.zone);
                zone = Some(turn_reach(board.as_stones(), me, &proof.zone));
            }
            Verdict::Unknown => {}
        }
    }
    Guard::Checked(Box::new(refute(
        solver,
        board,
        root,
        zone.as_ref(),
        deadline,
    )))
}

/// Adds root turns through the cells where a defence can start: the opponent's first turn,
/// and the zone's cells that matter most to either side, paired with each other.
fn widen(board: &Board, root: &mut Pairs, threat: Turn, zone: &CellSet) {
    let me = board.side_to_move();
    for cell in threat.cells() {
        add_pairs_through(board, me, cell, COUNTER_PARTNERS, root);
    }
    let mut ranked: ArrayVec<(i32, Cell), { crate::rules::coord::CELLS }> = zone
        .iter()
        .filter(|&c| board.is_empty(c))
        .map(|c| (cell_score(board, c, me), c))
        .collect();
    ranked.sort_by_key(|&(score, c)| (std::cmp::Reverse(score), c));
    ranked.truncate(ZONE_CELLS_PAIRED);
    for (i, &(sa, a)) in ranked.iter().enumerate() {
        for &(sb, b) in &ranked[i + 1..] {
            let turn = Turn::two(a.min(b), a.max(b));
            if !root.iter().any(|&(_, t)| t == turn) && !root.is_full() {
                root.push((sa + sb, turn));
            }
        }
    }
}

/// Whether the opponent has a threat sequence after our `turn`, looked for with up to
/// `nodes` solver nodes. `None` when the solver ran out of nodes or time before knowing.
pub fn loses_to_threats(
    solver: &mut Solver,
    board: &mut Board,
    turn: &Turn,
    nodes: u64,
    deadline: Option<Instant>,
) -> Option<bool> {
    let me = board.side_to_move();
    board.place_turn(turn, me);
    let verdict = if board.has_six(me) {
        Verdict::NoWin
    } else {
        solver.solve(
            board.as_stones(),
            SolveLimits::new(SAFETY_THREAT_DEPTH, nodes, deadline),
        )
    };
    board.remove_turn(turn);
    match verdict {
        Verdict::Win(_) => Some(true),
        Verdict::NoWin => Some(false),
        Verdict::Unknown => None,
    }
}

/// Whether `turn` could spoil the opponent's proven win with zone `zone`: a stone of it in
/// the zone, or a threat of ours that the opponent must answer first. A turn that cannot
/// leaves the proof standing, and loses.
fn may_spoil(board: &mut Board, turn: &Turn, zone: &CellSet) -> bool {
    if turn.cells().any(|c| zone.contains(c)) {
        return true;
    }
    let me = board.side_to_move();
    board.place_turn(turn, me);
    let threatens = board.has_threat_window(me);
    board.remove_turn(turn);
    threatens
}

/// Drops root turns that lose to an opponent threat sequence, checking in root order until
/// the deadline. Keeps every turn if all checked ones lose. Returns the turns shown safe.
fn refute(
    solver: &mut Solver,
    board: &mut Board,
    root: &mut Pairs,
    zone: Option<&CellSet>,
    deadline: Option<Instant>,
) -> Verified {
    let mut verified = Verified::new();
    let mut losing = ArrayVec::<Turn, { crate::engine::pairs::PAIR_CAPACITY }>::new();
    let mut unproven = 0;
    for &(_, turn) in root.iter() {
        if zone.is_some_and(|z| !may_spoil(board, &turn, z)) {
            losing.push(turn);
            continue;
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            unproven += 1;
            continue;
        }
        match loses_to_threats(solver, board, &turn, SAFETY_THREAT_NODES, deadline) {
            Some(true) => losing.push(turn),
            Some(false) => verified.push(turn),
            None => unproven += 1,
        }
    }
    if losing.len() < root.len() {
        root.retain(|(_, t)| !losing.contains(t));
    }
    if !losing.is_empty() {
        log::debug!(
            "{} root turns lose to a threat sequence; {} shown safe, {unproven} unknown",
            losing.len(),
            verified.len()
        );
    }
    verified
}

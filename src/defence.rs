//! Threat-space defence at the root: keep our turn out of the opponent's reach.
//!
//! A turn that lets the opponent win by continuous double threats is lost however well it
//! scores. Before the main search the solver asks whether the opponent, given the move now,
//! would have such a win; only then can a turn of ours allow one. The root turns are widened
//! with stones on the cells the opponent's sequence starts from, then every root turn the
//! time allows is checked; those that lose are dropped (unless all of them do).

use crate::board::Board;
use crate::coord::Turn;
use crate::pairs::{Pairs, Situation, add_pairs_through};
use crate::solver::{SolveLimits, Solver, Verdict};
use crate::tunables::{
    COUNTER_PARTNERS, NULL_MOVE_VCDT_NODES, SAFETY_VCDT_DEPTH, SAFETY_VCDT_NODES,
};
use arrayvec::ArrayVec;
use std::time::Instant;

/// Root turns shown safe (no opponent VCDT within the solver's limits).
pub type Verified = ArrayVec<Turn, { crate::pairs::PAIR_CAPACITY }>;

/// What checking the root turns found.
pub enum Guard {
    /// The opponent has no VCDT even with the move now: no turn of ours can give it one
    /// (our stones only block its lines and only add to our threats).
    NoThreat,
    /// These root turns are shown safe; the losing ones were dropped.
    Checked(Box<Verified>),
}

/// Keeps the root turns out of the opponent's threat sequences. When the opponent, given
/// the move now, would have a VCDT, root turns through the cells of its first turn are
/// added (a defence starts there) and every root turn the time allows is checked.
pub fn guard(
    solver: &mut Solver,
    board: &mut Board,
    root: &mut Pairs,
    situation: Situation,
    deadline: Option<Instant>,
) -> Guard {
    let me = board.side_to_move();
    if situation == Situation::Quiet {
        let limits = SolveLimits::new(SAFETY_VCDT_DEPTH, NULL_MOVE_VCDT_NODES, deadline);
        match solver.solve_for(board, me.other(), limits) {
            Verdict::NoWin => return Guard::NoThreat,
            Verdict::Win(threat) => {
                log::debug!("the opponent threatens a VCDT starting {threat}");
                for cell in threat.cells() {
                    add_pairs_through(board, me, cell, COUNTER_PARTNERS, root);
                }
            }
            Verdict::Unknown => {}
        }
    }
    Guard::Checked(Box::new(refute(solver, board, root, deadline)))
}

/// Whether the opponent has a VCDT after our `turn`. `None` when the solver ran out of
/// nodes or time before knowing.
pub fn loses_to_vcdt(
    solver: &mut Solver,
    board: &mut Board,
    turn: &Turn,
    deadline: Option<Instant>,
) -> Option<bool> {
    let me = board.side_to_move();
    board.place_turn(turn, me);
    let verdict = if board.has_six(me) {
        Verdict::NoWin
    } else {
        solver.solve(
            board,
            SolveLimits::new(SAFETY_VCDT_DEPTH, SAFETY_VCDT_NODES, deadline),
        )
    };
    board.remove_turn(turn);
    match verdict {
        Verdict::Win(_) => Some(true),
        Verdict::NoWin => Some(false),
        Verdict::Unknown => None,
    }
}

/// Drops root turns that lose to an opponent VCDT, checking in root order until the
/// deadline. Keeps every turn if all checked ones lose. Returns the turns shown safe.
fn refute(
    solver: &mut Solver,
    board: &mut Board,
    root: &mut Pairs,
    deadline: Option<Instant>,
) -> Verified {
    let mut verified = Verified::new();
    let mut losing = ArrayVec::<Turn, { crate::pairs::PAIR_CAPACITY }>::new();
    for &(_, turn) in root.iter() {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        match loses_to_vcdt(solver, board, &turn, deadline) {
            Some(true) => losing.push(turn),
            Some(false) => verified.push(turn),
            None => {}
        }
    }
    if losing.len() < root.len() {
        root.retain(|(_, t)| !losing.contains(t));
    }
    if !losing.is_empty() {
        log::debug!(
            "{} of {} root turns lose to a VCDT; {} shown safe",
            losing.len(),
            losing.len() + root.len(),
            verified.len()
        );
    }
    verified
}

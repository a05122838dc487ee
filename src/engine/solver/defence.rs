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

use crate::engine::pairs::{Pairs, Situation, add_pairs_through};
use crate::engine::ranking::KeyWorth;
use crate::engine::solver::zone::{counter_reach, turn_reach};
use crate::engine::solver::{SolveLimits, Solver, Verdict};
use crate::engine::tunables::{
    COUNTER_PARTNERS, NULL_MOVE_THREAT_NODES, SAFETY_THREAT_DEPTH, SAFETY_THREAT_NODES,
    ZONE_CELLS_PAIRED,
};
use crate::rules::board::Board;
use crate::rules::cellset::CellSet;
use crate::rules::coord::{Cell, Turn};
use crate::rules::stones::{PlaceTurn, Stones};
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
    worth: &KeyWorth,
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
                widen(worth, board, root, threat, &proof.zone);
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
fn widen(worth: &KeyWorth, board: &Board, root: &mut Pairs, threat: Turn, zone: &CellSet) {
    let me = board.side_to_move();
    for cell in threat.cells() {
        add_pairs_through(worth, board, me, cell, COUNTER_PARTNERS, root);
    }
    let mut ranked: ArrayVec<(i32, Cell), { crate::rules::coord::CELLS }> = zone
        .iter()
        .filter(|&c| board.is_empty(c))
        .map(|c| (worth.cell(board, c, me), c))
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

/// What looking through every defence that a proof zone leaves open found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Defences {
    /// The opponent has no threat sequence even with the move now: any turn holds.
    NotThreatened,
    /// This turn holds (no opponent threat sequence after it within the limits). A turn of
    /// one stone means that stone alone holds, with any second one.
    Holds(Turn),
    /// Every turn loses, but for `undecided` stones or pairs whose solve ran out of nodes:
    /// when that is zero, the position is lost to a threat sequence (within the limits).
    Lost { undecided: u32 },
}

impl std::fmt::Display for Defences {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Defences::NotThreatened => f.write_str("no threat to answer"),
            Defences::Holds(turn) if turn.second.is_none() => {
                write!(f, "{turn} holds with any partner")
            }
            Defences::Holds(turn) => write!(f, "{turn} holds"),
            Defences::Lost { undecided: 0 } => f.write_str("every turn loses"),
            Defences::Lost { undecided } => write!(
                f,
                "every decided turn loses (stones or pairs undecided: {undecided})"
            ),
        }
    }
}

impl Defences {
    /// Some turn holds.
    pub fn holds(self) -> bool {
        matches!(self, Defences::NotThreatened | Defences::Holds(_))
    }
}

/// Every defence of the side to move against the opponent's threat sequence, found through
/// proof zones rather than drawn from the move generator: what `guard` could at best find.
///
/// The opponent's win with the move (`threat_nodes`) has a zone; a turn with no stone in its
/// reach (`turn_reach`) leaves that proof standing. Each first stone in the reach is placed
/// and the win asked again (`nodes`): if none is left, that stone holds. Otherwise only a
/// second stone in the new proof's zone, or where one stone could grow a threat of ours
/// with our later answers in it, can spoil the new proof. A pair whose second stone was an
/// earlier first stone was met there: that first stone's proof had the pair's other stone
/// in its reach, or the pair loses. An extra stone of our own never helps the opponent, so
/// a holding stone holds with any partner.
pub fn zone_defences(board: &Stones, threat_nodes: u64, nodes: u64) -> Defences {
    let me = board.side_to_move();
    let opponent = me.other();
    let mut solver = Solver::new(crate::engine::tunables::THREAT_CACHE_ENTRIES);
    let ask = |solver: &mut Solver, b: &Stones, nodes: u64| {
        if b.has_six(me) {
            Verdict::NoWin
        } else {
            solver.solve_for(
                b,
                opponent,
                SolveLimits::new(SAFETY_THREAT_DEPTH, nodes, None),
            )
        }
    };
    let mut b = board.clone();
    let first_zone = match ask(&mut solver, &b, threat_nodes) {
        Verdict::NoWin => return Defences::NotThreatened,
        Verdict::Unknown => return Defences::Lost { undecided: 1 },
        Verdict::Win(_) => solver.last_proof().zone,
    };
    let firsts: Vec<Cell> = turn_reach(&b, me, &first_zone)
        .iter()
        .filter(|&c| b.is_empty(c))
        .collect();
    let mut undecided = 0;
    let mut tried = CellSet::new();
    for a in firsts {
        b.place(a, me);
        let seconds = match ask(&mut solver, &b, nodes) {
            Verdict::NoWin => return Defences::Holds(Turn::one(a)),
            Verdict::Unknown => {
                undecided += 1;
                None
            }
            Verdict::Win(_) => {
                let zone = solver.last_proof().zone;
                let mut reach = counter_reach(&b, me, &zone, 1);
                reach.union_with(&zone);
                Some(reach)
            }
        };
        for c in seconds.iter().flat_map(|reach| reach.iter()) {
            if !b.is_empty(c) || tried.contains(c) {
                continue;
            }
            b.place(c, me);
            let verdict = ask(&mut solver, &b, nodes);
            b.remove(c);
            match verdict {
                Verdict::NoWin => return Defences::Holds(Turn::two(a.min(c), a.max(c))),
                Verdict::Unknown => undecided += 1,
                Verdict::Win(_) => {}
            }
        }
        b.remove(a);
        tried.insert(a);
    }
    Defences::Lost { undecided }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::pairs::generate;
    use crate::engine::tunables::{ROOT_PAIRS, THREAT_CACHE_ENTRIES};

    /// Whether the opponent wins by a threat sequence after `turn`, by a fresh solver.
    fn loses(board: &Board, turn: &Turn, nodes: u64) -> Option<bool> {
        let mut solver = Solver::new(THREAT_CACHE_ENTRIES);
        loses_to_threats(&mut solver, &mut board.clone(), turn, nodes, None)
    }

    #[test]
    fn a_quiet_board_needs_no_defence() {
        let board = Board::from_turns("JJ KJKK").unwrap();
        let found = zone_defences(board.as_stones(), 20_000, 2_000);
        assert_eq!(found, Defences::NotThreatened);
    }

    #[test]
    fn a_defence_found_through_the_zones_holds() {
        // From the defence suite: white played OLIN here and lost to IEIN.
        let board = Board::from_turns(
            "JJ HIIL IKJK HKJM GJHJ KNIJ JILO JLHL KKLL LKII KLKM GLJN KIEL KHJO LHJQ MGKP \
             JHMM JFNN LJMK IGNL MJNJ OIOJ LMMN NOML NMLQ OMLN",
        )
        .unwrap();
        assert_eq!(
            loses(&board, &Turn::parse("OLIN").unwrap(), 200_000),
            Some(true)
        );
        let Defences::Holds(turn) = zone_defences(board.as_stones(), 200_000, 20_000) else {
            panic!("a defence exists");
        };
        let turn = match turn.second {
            Some(_) => turn,
            None => {
                let partner = Cell::all()
                    .find(|&c| c != turn.first && board.is_empty(c))
                    .unwrap();
                Turn::two(turn.first.min(partner), turn.first.max(partner))
            }
        };
        assert_eq!(loses(&board, &turn, 200_000), Some(false), "{turn}");
    }

    #[test]
    fn when_every_defence_loses_so_does_every_root_turn() {
        // From the defence suite: black's first turn of its own after a three-turn opening
        // and white's reply; the game went on FJHM and lost to IIFL.
        let board = Board::from_turns("JJ HJHL JKLH JLIM KIIK MGGK").unwrap();
        let found = zone_defences(board.as_stones(), 200_000, 20_000);
        assert_eq!(found, Defences::Lost { undecided: 0 });
        let mut b = board.clone();
        let mut root = Pairs::new();
        let worth = KeyWorth::embedded();
        let situation = generate(&worth, &b, &mut root, ROOT_PAIRS);
        let mut solver = Solver::new(THREAT_CACHE_ENTRIES);
        // The guard widens the root with the opponent's proof zone, as in play.
        let _ = guard(&mut solver, &worth, &mut b, &mut root, situation, None);
        assert!(root.len() > 40);
        for &(_, turn) in root.iter() {
            assert_eq!(loses(&board, &turn, 200_000), Some(true), "{turn}");
        }
    }
}

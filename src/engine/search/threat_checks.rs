//! The root's threat phases around the main search: a threat-sequence win of our own
//! before it, and after it the check that the turn chosen does not let the opponent win by
//! one. The guard between them (`solver::defence::guard`) drops the root turns it shows lost.

use super::Searcher;
use super::time::FEW_TURNS_CHECKING_SHARE;
use crate::engine::pairs::Pairs;
use crate::engine::position::Position;
use crate::engine::solver::defence::{self, Guard, Verified};
use crate::engine::solver::{SolveLimits, Verdict};
use crate::engine::tunables::{
    CHOSEN_TURN_THREAT_NODES, FEW_TURNS_CHECK_NODES, FEW_UNVERIFIED_TURNS, ROOT_THREAT_DEPTH,
    ROOT_THREAT_NODES, ROOT_THREAT_TIME_SHARE, SAFETY_THREAT_NODES,
};
use crate::rules::coord::Turn;

impl Searcher {
    /// A win by a threat sequence for the side to move, if the solver finds one in its
    /// share of the time.
    pub(super) fn own_threats(&mut self, board: &Position) -> Option<Turn> {
        let share = self
            .limits
            .soft
            .min(self.limits.hard)
            .mul_f64(ROOT_THREAT_TIME_SHARE);
        let deadline = self.start.checked_add(share);
        let limits = SolveLimits::new(ROOT_THREAT_DEPTH, ROOT_THREAT_NODES, deadline);
        match self.solver.solve(board.as_stones(), limits) {
            Verdict::Win(turn) if board.check_turn(&turn).is_ok() => {
                log::debug!(
                    "threat-sequence win {turn} in {} turns ({} solver nodes)",
                    self.solver.last_proof().length,
                    self.solver.nodes()
                );
                Some(turn)
            }
            _ => None,
        }
    }

    /// The search's choice, unless it is unverified and lets the opponent win by a threat
    /// sequence: then the first root turn that does not. The choice itself is checked with
    /// what is left of the move's time: the turn about to be played deserves the deepest
    /// look, and time a move cap leaves unspent is lost.
    pub(super) fn safe_choice(
        &mut self,
        board: &mut Position,
        root: &Pairs,
        verified: &Verified,
        chosen: Turn,
        chosen_nodes: u64,
    ) -> Turn {
        let deadline = self.start.checked_add(self.limits.hard);
        let candidates =
            std::iter::once(chosen).chain(root.iter().map(|&(_, t)| t).filter(|&t| t != chosen));
        for turn in candidates {
            if verified.contains(&turn) {
                return turn;
            }
            let nodes = if turn == chosen {
                chosen_nodes
            } else {
                SAFETY_THREAT_NODES
            };
            let solver = &mut self.solver;
            let loses =
                board.with_board(|b| defence::loses_to_threats(solver, b, &turn, nodes, deadline));
            match loses {
                Some(true) => log::debug!("{turn} loses to a threat sequence"),
                // Safe, or out of time to know: stop looking.
                Some(false) | None => return turn,
            }
        }
        chosen
    }

    /// The solver nodes the chosen turn's check may take, and its share of the move. When
    /// the opponent threatens and only a few root turns survive the guard, none shown safe,
    /// a search over so few reaches its depth early and the move is saved or lost by
    /// whether the turn it chooses loses to a threat sequence: that check gets the time.
    pub(super) fn plan_the_check(&mut self, guard: &Guard, root: &Pairs) -> u64 {
        let hangs_on_check = matches!(guard, Guard::Checked(verified) if verified.is_empty())
            && (2..=FEW_UNVERIFIED_TURNS).contains(&root.len());
        if !hangs_on_check {
            return CHOSEN_TURN_THREAT_NODES;
        }
        log::debug!(
            "{} root turns left by the threat check, none shown safe: {:.0}% of the move kept for checking the chosen one",
            root.len(),
            FEW_TURNS_CHECKING_SHARE * 100.0
        );
        self.keep_for_checking(FEW_TURNS_CHECKING_SHARE);
        FEW_TURNS_CHECK_NODES
    }
}

#[cfg(test)]
mod tests {
    use super::super::Limits;
    use super::super::time::CHECKING_RESERVE;
    use super::*;
    use crate::engine::solver::{SolveLimits, Solver, Verdict};
    use crate::rules::board::{Board, Color};
    use crate::rules::stones::PlaceTurn;
    use std::time::Duration;

    /// A competition game (C6-A2 B vs B3 W, 2025), white's turn 8: the threat check leaves
    /// three root turns, none shown safe, and the search prefers KHJI, which loses to a
    /// seven-turn threat sequence the solver needs some 70,000 nodes to find. With so few
    /// turns left, the chosen one's check has the room to find it; the engine plays another,
    /// which a long solve does not show lost.
    #[test]
    fn with_few_turns_left_the_chosen_one_is_checked_to_the_end() {
        let b = Board::from_turns("JJ HJHI IKHL GMHK KIKK LHHH HGKJ").unwrap();
        let r = Searcher::new(4).search(&b, Limits::depth(5));
        assert_ne!(r.best.to_string(), "KHJI");
        let mut after = b.clone();
        after.place_turn(&r.best, Color::White);
        let verdict =
            Solver::new(1 << 16).solve(after.as_stones(), SolveLimits::new(11, 200_000, None));
        assert!(
            !matches!(verdict, Verdict::Win(_)),
            "{} {verdict:?}",
            r.best
        );
    }

    /// The time kept for checking the chosen turn moves the main search's stop forward,
    /// never back, and a ponder search whose clock starts later keeps the larger share.
    #[test]
    fn time_kept_for_checking_moves_the_main_searchs_stop() {
        let ms = Duration::from_millis;
        let mut s = Searcher::new(1);
        s.limits = Limits::timed(ms(1000), ms(1000));
        s.set_clock(Duration::ZERO, ms(1000), ms(1000));
        let usual = ms(1000).mul_f64(CHECKING_RESERVE);
        assert_eq!(s.abort_at, ms(1000) - usual);
        s.keep_for_checking(0.5);
        assert_eq!(s.abort_at, ms(500));
        s.keep_for_checking(0.2);
        assert_eq!(s.abort_at, ms(500));
        s.set_clock(ms(100), ms(1000), ms(1000));
        assert_eq!(s.abort_at, ms(600));
        // After a ponder hit the share is of the time from the hit, not from the start.
        let mut s = Searcher::new(1);
        s.limits = Limits::timed(ms(1000), ms(1000));
        s.set_clock(ms(100), ms(1000), ms(1000));
        assert_eq!(s.abort_at, ms(1100) - usual);
        s.keep_for_checking(0.5);
        assert_eq!(s.abort_at, ms(600));
        // Without a time limit there is nothing to keep.
        let mut s = Searcher::new(1);
        s.limits = Limits::depth(3);
        s.set_clock(Duration::ZERO, Duration::MAX, Duration::MAX);
        s.keep_for_checking(0.5);
        assert_eq!(s.abort_at, Duration::MAX);
    }
}

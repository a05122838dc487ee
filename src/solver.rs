//! Threat-space solver: victory by continuous double threats (VCDT).
//!
//! The attacker plays only turns that leave at least two threats (the defender has none left
//! to use), so each defender turn is forced: it must place both stones on a blocking pair.
//! The attacker wins when a turn leaves three or more threats, or a six is on the board.
//! Every defender reply is tried; a line only counts when all of them lose.

use crate::board::{Board, Color, windows_in};
use crate::coord::{CELLS, Cell, Turn};
use crate::geometry::GEOMETRY;
use crate::threats::{blocks, threat_count, winning_cells};
use arrayvec::ArrayVec;
use std::time::Instant;

/// Attacker turns tried per node, best (most threats) first.
const MAX_ATTACKS: usize = 64;

/// Cache entry: a position already shown not to be a VCDT win within `depth` turns.
#[derive(Clone, Copy, Default)]
struct Failed {
    key: u64,
    depth: u8,
}

pub struct Solver {
    failed: Vec<Failed>,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    aborted: bool,
}

/// What a solve found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The attacker wins with this first turn.
    Win(Turn),
    /// No VCDT within the depth searched.
    NoWin,
    /// The node limit ran out first.
    Unknown,
}

fn play(board: &mut Board, turn: &Turn, color: Color) {
    for c in turn.cells() {
        board.place(c, color);
    }
}

fn undo(board: &mut Board, turn: &Turn) {
    for c in turn.cells() {
        board.remove(c);
    }
}

impl Solver {
    /// A solver with a failure cache of `cache_entries` slots, allocated once.
    pub fn new(cache_entries: usize) -> Solver {
        Solver {
            failed: vec![Failed::default(); cache_entries.max(1)],
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            aborted: false,
        }
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Looks for a VCDT of the side to move within `depth` of its turns, `node_limit`
    /// attacker nodes and the deadline.
    pub fn solve(
        &mut self,
        board: &Board,
        depth: u8,
        node_limit: u64,
        deadline: Option<Instant>,
    ) -> Verdict {
        self.nodes = 0;
        self.node_limit = node_limit;
        self.deadline = deadline;
        self.aborted = false;
        let mut b = board.clone();
        let attacker = b.side_to_move();
        let mut best = None;
        let won = self.attack(&mut b, attacker, depth, &mut best);
        match (won, best) {
            (true, Some(t)) => Verdict::Win(t),
            _ if self.aborted => Verdict::Unknown,
            _ => Verdict::NoWin,
        }
    }

    fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.node_limit {
            self.aborted = true;
        }
        if self.nodes.is_multiple_of(32) && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.aborted = true;
        }
        self.aborted
    }

    fn slot(&self, key: u64) -> usize {
        ((key as u128 * self.failed.len() as u128) >> 64) as usize
    }

    /// Whether `attacker`, to move, wins by continuous double threats within `depth` turns.
    fn attack(
        &mut self,
        board: &mut Board,
        attacker: Color,
        depth: u8,
        first: &mut Option<Turn>,
    ) -> bool {
        let defender = attacker.other();
        if let Some(cells) = winning_cells(board, attacker) {
            let mut cells = cells.into_iter();
            let a = cells.next().expect("a threat window has an empty cell");
            let free = cells
                .next()
                .or_else(|| Cell::all().find(|&c| c != a && board.is_empty(c)));
            *first = Some(free.map_or(Turn::one(a), |b| Turn::two(a.min(b), a.max(b))));
            return true;
        }
        if depth == 0 || board.has_six(defender) || self.out_of_budget() {
            return false;
        }
        self.nodes += 1;
        let key = board.hash();
        let slot = self.slot(key);
        let entry = self.failed[slot];
        if entry.key == key && entry.depth >= depth {
            return false;
        }
        let mut attacks = ArrayVec::<(usize, Turn), MAX_ATTACKS>::new();
        self.attacks(board, attacker, &mut attacks);
        for &(threats, turn) in &attacks {
            if threats >= 3 {
                *first = Some(turn);
                return true;
            }
            play(board, &turn, attacker);
            let won = self.defend(board, attacker, depth);
            undo(board, &turn);
            if won {
                *first = Some(turn);
                return true;
            }
            if self.aborted {
                return false;
            }
        }
        if !self.aborted {
            self.failed[slot] = Failed { key, depth };
        }
        false
    }

    /// The defender to move must stop two threats: true when every blocking pair loses.
    fn defend(&mut self, board: &mut Board, attacker: Color, depth: u8) -> bool {
        let defender = attacker.other();
        let replies = blocks(board, attacker);
        if replies.needed >= 3 {
            return true;
        }
        // Both threats must be stopped with both stones: a single block (needed == 1)
        // cannot happen after an attacker turn that was checked to leave two threats.
        debug_assert_eq!(replies.needed, 2);
        for &(x, y) in &replies.pairs {
            board.place(x, defender);
            board.place(y, defender);
            let lost =
                !board.has_six(defender) && self.attack(board, attacker, depth - 1, &mut None);
            board.remove(y);
            board.remove(x);
            if !lost {
                return false;
            }
        }
        true
    }

    /// Attacker turns that leave at least two threats and no defender threat.
    fn attacks(
        &mut self,
        board: &mut Board,
        attacker: Color,
        out: &mut ArrayVec<(usize, Turn), MAX_ATTACKS>,
    ) {
        let defender = attacker.other();
        let g = &*GEOMETRY;
        // Where the attacker's windows with two or more stones have room: a threat needs one
        // of these cells, and a double threat two.
        let mut candidate = [false; CELLS];
        let mut cells = ArrayVec::<Cell, CELLS>::new();
        for w in windows_in(board.open_windows(attacker)) {
            for &c in &g.window_cells[w] {
                if board.is_empty(c) && !candidate[c.index()] {
                    candidate[c.index()] = true;
                    cells.push(c);
                }
            }
        }
        // Against a defender threat the attacker must block it with one of its stones.
        let must_block = board
            .has_threat_window(defender)
            .then(|| blocks(board, defender));
        if let Some(b) = &must_block
            && b.needed >= 2
        {
            // Both stones go to blocking; they rarely make two threats, but try.
            for &(x, y) in &b.pairs {
                self.try_attack(board, attacker, Turn::two(x, y), out);
            }
            return;
        }
        cells.sort_unstable();
        for (i, &a) in cells.iter().enumerate() {
            let a_blocks = must_block.as_ref().is_none_or(|b| b.singles.contains(&a));
            board.place(a, attacker);
            for &b in &cells[i + 1..] {
                if !a_blocks && !must_block.as_ref().is_some_and(|m| m.singles.contains(&b)) {
                    continue;
                }
                board.place(b, attacker);
                let threats = if board.has_threat_window(defender) {
                    0
                } else {
                    threat_count(board, attacker)
                };
                board.remove(b);
                if threats >= 2 {
                    push_best(out, threats, Turn::two(a, b));
                }
            }
            board.remove(a);
        }
        out.sort_by_key(|x| std::cmp::Reverse(x.0));
    }

    fn try_attack(
        &mut self,
        board: &mut Board,
        attacker: Color,
        turn: Turn,
        out: &mut ArrayVec<(usize, Turn), MAX_ATTACKS>,
    ) {
        play(board, &turn, attacker);
        let threats = if board.has_threat_window(attacker.other()) {
            0
        } else {
            threat_count(board, attacker)
        };
        undo(board, &turn);
        if threats >= 2 {
            push_best(out, threats, turn);
        }
    }
}

fn push_best(out: &mut ArrayVec<(usize, Turn), MAX_ATTACKS>, threats: usize, turn: Turn) {
    if !out.is_full() {
        out.push((threats, turn));
    } else if let Some(worst) = out.iter_mut().min_by_key(|x| x.0)
        && worst.0 < threats
    {
        *worst = (threats, turn);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_all(moves: &[&str]) -> Board {
        let mut b = Board::new();
        for m in moves {
            b.play_turn(&Turn::parse(m).unwrap()).unwrap();
        }
        b
    }

    /// Plays the solver's line against every defence, checking it ends in a six.
    fn verify_win(board: &Board, depth: u8) {
        let mut solver = Solver::new(1 << 12);
        let attacker = board.side_to_move();
        let Verdict::Win(turn) = solver.solve(board, depth, 1_000_000, None) else {
            panic!("no VCDT found");
        };
        let mut b = board.clone();
        b.play_turn(&turn).unwrap();
        if b.has_six(attacker) {
            return;
        }
        let replies = blocks(&b, attacker);
        if replies.needed >= 3 {
            return;
        }
        for &(x, y) in &replies.pairs {
            let mut after = b.clone();
            after.play_turn(&Turn::two(x, y)).unwrap();
            assert!(!after.has_six(attacker.other()));
            verify_win(&after, depth - 1);
        }
    }

    #[test]
    fn double_four_wins_at_once() {
        // Open threes in column J and row N: two open fours are four threats.
        let b = play_all(&["JJ", "AACB", "JKJL", "SSQR", "LNMN", "ASCR", "NNSA", "AQCQ"]);
        verify_win(&b, 1);
    }

    #[test]
    fn a_lone_pair_has_no_vcdt() {
        let b = play_all(&["JJ", "AACB", "JKSS"]);
        assert_eq!(
            Solver::new(1024).solve(&b, 4, 100_000, None),
            Verdict::NoWin
        );
    }

    #[test]
    fn two_step_vcdt() {
        // Black: three live twos that can be chained. Found by the solver and checked
        // against every defence by `verify_win`.
        let b = play_all(&["JJ", "AACB", "KJJK", "SSQR", "LJJL", "ASCR"]);
        let mut solver = Solver::new(1 << 14);
        match solver.solve(&b, 4, 2_000_000, None) {
            Verdict::Win(_) => verify_win(&b, 4),
            v => panic!("expected a win, got {v:?} after {} nodes", solver.nodes()),
        }
    }
}

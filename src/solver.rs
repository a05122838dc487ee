//! Threat-space solver: victory by continuous double threats (VCDT).
//!
//! The attacker plays only turns that leave at least two threats (the defender has none left
//! to use), so each defender turn is forced: it must place both stones on a blocking pair.
//! The attacker wins when a turn leaves three or more threats, or a six is on the board.
//! Every defender reply is tried; a line only counts when all of them lose.

use crate::coord::{CELLS, Cell, Turn};
use crate::geometry::{GEOMETRY, WINDOW};
use crate::stones::{Color, Stones, WindowSet, windows_in};
use crate::threats::{blocks, stones_to_stop, threat_windows, winning_cells};
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
    /// Nodes over the solver's whole life, for reports.
    total_nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    aborted: bool,
}

/// How far and how long a solve may look.
#[derive(Clone, Copy, Debug)]
pub struct SolveLimits {
    /// Attacker turns.
    pub depth: u8,
    /// Attacker nodes.
    pub nodes: u64,
    pub deadline: Option<Instant>,
}

impl SolveLimits {
    pub fn new(depth: u8, nodes: u64, deadline: Option<Instant>) -> SolveLimits {
        SolveLimits {
            depth,
            nodes,
            deadline,
        }
    }
}

/// Cache keys of the two attackers differ: the same stones are a different question.
const ATTACKER_SALT: [u64; 2] = [0, 0x5bd1_e995_8f3c_a7e1];

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

impl Solver {
    /// A solver with a failure cache of `cache_entries` slots, allocated once.
    pub fn new(cache_entries: usize) -> Solver {
        Solver {
            failed: vec![Failed::default(); cache_entries.max(1)],
            nodes: 0,
            total_nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            aborted: false,
        }
    }

    /// Attacker nodes of the last solve.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    pub fn total_nodes(&self) -> u64 {
        self.total_nodes
    }

    /// Looks for a VCDT of the side to move within the limits.
    pub fn solve(&mut self, board: &Stones, limits: SolveLimits) -> Verdict {
        self.solve_for(board, board.side_to_move(), limits)
    }

    /// Looks for a VCDT of `attacker` as if it were to move (a "null move" by the other side
    /// when it is not): what the opponent threatens.
    pub fn solve_for(&mut self, board: &Stones, attacker: Color, limits: SolveLimits) -> Verdict {
        self.nodes = 0;
        self.node_limit = limits.nodes;
        self.deadline = limits.deadline;
        self.aborted = false;
        let mut b = board.clone();
        // Deepening: short sequences are cheap and common; a fixed deep search would wander
        // down long hopeless lines first. Failures cached at one depth answer the next only
        // where they were searched as deep.
        for depth in 1..=limits.depth {
            let mut best = None;
            if self.attack(&mut b, attacker, depth, &mut best)
                && let Some(t) = best
            {
                return Verdict::Win(t);
            }
            if self.aborted {
                return Verdict::Unknown;
            }
        }
        Verdict::NoWin
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
        board: &mut Stones,
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
        self.total_nodes += 1;
        let key = board.hash() ^ ATTACKER_SALT[attacker.index()];
        let slot = self.slot(key);
        let entry = self.failed[slot];
        if entry.key == key && entry.depth >= depth {
            return false;
        }
        let mut attacks = AttackList::new();
        self.attacks(board, attacker, &mut attacks);
        for &(threats, turn) in &attacks {
            if threats >= 3 {
                *first = Some(turn);
                return true;
            }
            board.place_turn(&turn, attacker);
            let won = self.defend(board, attacker, depth);
            board.remove_turn(&turn);
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
    fn defend(&mut self, board: &mut Stones, attacker: Color, depth: u8) -> bool {
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

    /// Attacker turns that leave at least two threats and no defender threat, most threats
    /// first.
    fn attacks(&mut self, board: &mut Stones, attacker: Color, out: &mut AttackList) {
        let defender = attacker.other();
        let mut cells = ArrayVec::<Cell, CELLS>::new();
        if board.has_threat_window(defender) {
            // The defender threatens a six: one of our stones must stop it (both, if it
            // takes two), and the double threat has to come with the block.
            let block = blocks(board, defender);
            if block.needed >= 2 {
                for &(x, y) in &block.pairs {
                    board.place(x, attacker);
                    with_first_stone(board, attacker, x, &[y], out);
                    board.remove(x);
                }
                out.sort_by_key(|x| std::cmp::Reverse(x.0));
                return;
            }
            cells.extend(block.singles.iter().copied());
        } else {
            // A double threat's first stone lies in a window of two or more stones.
            empty_cells_of(board, board.open_windows(attacker), &mut cells);
        }
        let free_first = !board.has_threat_window(defender);
        let mut partners = ArrayVec::<Cell, CELLS>::new();
        for &a in &cells {
            board.place(a, attacker);
            // A threat needs a stone in a window of three or more (after the first stone).
            empty_cells_of(board, board.three_windows(attacker), &mut partners);
            // Without a block to make, pairs of two free stones are symmetric: each is met
            // from its smaller cell.
            partners.retain(|b| !free_first || *b > a);
            with_first_stone(board, attacker, a, &partners, out);
            board.remove(a);
        }
        out.sort_by_key(|x| std::cmp::Reverse(x.0));
    }
}

type AttackList = ArrayVec<(usize, Turn), MAX_ATTACKS>;

/// With the attacker's first stone `a` on the board, keeps the partners `b` that make the
/// turn a double threat. Counted without placing `b`: its threats are the windows of three
/// it joins, and the defender's threats must all run through it.
fn with_first_stone(
    board: &Stones,
    attacker: Color,
    a: Cell,
    partners: &[Cell],
    out: &mut AttackList,
) {
    let defender = attacker.other();
    let (Some(standing), Some(defender_threats)) = (
        threat_windows(board, attacker),
        threat_windows(board, defender),
    ) else {
        return;
    };
    let g = &*GEOMETRY;
    for &b in partners {
        if !defender_threats
            .iter()
            .all(|&w| g.window_cells[w as usize].contains(&b))
        {
            continue;
        }
        let mut windows = standing.clone();
        let mut six = false;
        for &w in g.windows_of(b) {
            let [own, opp] = ordered_counts(board.window_stones(w as usize), attacker);
            if opp == 0 {
                six |= own as usize == WINDOW - 1;
                if own == 3 && windows.try_push(w).is_err() {
                    break;
                }
            }
        }
        let threats = if six {
            3
        } else {
            stones_to_stop(board, &windows, Some(b))
        };
        if threats >= 2 {
            push_best(out, threats, Turn::two(a.min(b), a.max(b)));
        }
    }
}

/// A window's stone counts as (attacker's, defender's).
fn ordered_counts(counts: [u8; 2], attacker: Color) -> [u8; 2] {
    match attacker {
        Color::Black => counts,
        Color::White => [counts[1], counts[0]],
    }
}

/// The distinct empty cells of a set of windows, in cell order.
fn empty_cells_of(board: &Stones, windows: &WindowSet, out: &mut ArrayVec<Cell, CELLS>) {
    let g = &*GEOMETRY;
    let mut seen = [0u64; CELLS.div_ceil(64)];
    out.clear();
    for w in windows_in(windows) {
        for &c in &g.window_cells[w] {
            let (word, bit) = (c.index() / 64, 1u64 << (c.index() % 64));
            if board.is_empty(c) && seen[word] & bit == 0 {
                seen[word] |= bit;
                out.push(c);
            }
        }
    }
    out.sort_unstable();
}

fn push_best(out: &mut AttackList, threats: usize, turn: Turn) {
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
    use crate::board::Board;

    fn play_all(moves: &[&str]) -> Board {
        Board::from_turns(&moves.join(" ")).unwrap()
    }

    /// Plays the solver's line against every defence, checking it ends in a six.
    fn verify_win(board: &Board, depth: u8) {
        let mut solver = Solver::new(1 << 12);
        let attacker = board.side_to_move();
        let Verdict::Win(turn) = solver.solve(board, SolveLimits::new(depth, 1_000_000, None))
        else {
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
            Solver::new(1024).solve(&b, SolveLimits::new(4, 100_000, None)),
            Verdict::NoWin
        );
    }

    #[test]
    fn crossing_threes_win() {
        // Black's threes across row J and down column J meet at JJ: both become fours at
        // once. Found by the solver and checked against every defence by `verify_win`.
        let b = play_all(&["JJ", "AACB", "KJJK", "SSQR", "LJJL", "ASCR"]);
        let mut solver = Solver::new(1 << 14);
        match solver.solve(&b, SolveLimits::new(4, 2_000_000, None)) {
            Verdict::Win(_) => verify_win(&b, 4),
            v => panic!("expected a win, got {v:?} after {} nodes", solver.nodes()),
        }
    }
}

//! The order a node tries its turns in, handed out one at a time by stages, so that a cutoff
//! early skips the work of the later ones:
//!
//! 1. the table's turn, before anything is generated (a cutoff from it saves the generator);
//! 2. the generated pairs, this ply's killers moved to their front; one turn from the horizon
//!    every turn that leads to a quiet leaf is read there and then, cheaply, and only the
//!    best of them is kept;
//! 3. that best quiet leaf, which may cut off before any turn that threatens is searched;
//! 4. the rest of the generated pairs, in order.
//!
//! Everything lives in fixed-size arrays: a node allocates nothing.

use super::Searcher;
use crate::engine::eval::WIN;
use crate::engine::eval::leaves::Leaves;
use crate::engine::pairs::{Pairs, Situation, generate};
use crate::engine::position::Position;
use crate::engine::tunables::{FRONTIER_PAIRS, MAX_PAIRS};
use crate::rules::board::{Color, windows_in};
use crate::rules::coord::{CELLS, Turn};
use crate::rules::geometry::GEOMETRY;

/// What a node's picker needs to know of it.
#[derive(Clone, Copy)]
pub(super) struct Node {
    /// Turns left to the horizon, at least 1 (after any extension).
    pub depth: i32,
    pub ply: usize,
    pub me: Color,
    /// The opponent has threats: the side to move must block.
    pub forced: bool,
    /// The node's beta: a quiet leaf that reaches it cuts the node off, so the leaves after
    /// it need not be read.
    pub beta: i32,
}

impl Node {
    /// One turn from the horizon, a turn that makes no threat and leaves the opponent none
    /// leads to a leaf that is only evaluated.
    fn frontier(&self) -> bool {
        self.depth == 1
    }
}

#[derive(Clone, Copy)]
enum Stage {
    TableTurn,
    Generate,
    QuietLeaf,
    Rest,
}

/// A turn to try.
pub(super) struct Picked {
    pub turn: Turn,
    /// How many turns this node tried before it.
    pub index: usize,
    /// The leaf's score for the side to move, already counted, when the turn leads to a
    /// quiet leaf read without placing it; `None` for a turn to search.
    pub leaf: Option<i32>,
}

pub(super) enum Next {
    Turn(Picked),
    /// The generator saw the node decided (a win, or a loss no turn stops): its score.
    Decided(i32),
    /// The clock stopped the search while the quiet leaves were read.
    Stopped,
    Done,
}

pub(super) struct MovePicker {
    node: Node,
    stage: Stage,
    table_turn: Option<Turn>,
    /// The generated pairs (the table's turn taken out, and the quiet leaves at the frontier).
    moves: Pairs,
    /// The next of `moves` to hand out.
    next: usize,
    /// How many turns were handed out.
    handed: usize,
    best_quiet: Option<(i32, Turn)>,
}

impl MovePicker {
    /// `table_turn` must be legal in the node's position.
    pub(super) fn new(node: Node, table_turn: Option<Turn>) -> MovePicker {
        MovePicker {
            node,
            stage: Stage::TableTurn,
            table_turn,
            moves: Pairs::new(),
            next: 0,
            handed: 0,
            best_quiet: None,
        }
    }

    /// The next turn to try. `searcher` counts the leaves read, and gives the killers.
    pub(super) fn next(&mut self, searcher: &mut Searcher, board: &Position) -> Next {
        loop {
            match self.stage {
                Stage::TableTurn => {
                    self.stage = Stage::Generate;
                    if let Some(turn) = self.table_turn {
                        let leaf = if self.node.frontier() {
                            let mut leaves = board.leaves(self.node.me);
                            read_leaf(searcher, board, &mut leaves, &turn, self.node)
                        } else {
                            None
                        };
                        return self.hand(turn, leaf);
                    }
                }
                Stage::Generate => {
                    self.stage = Stage::QuietLeaf;
                    if let Some(next) = self.generate(searcher, board) {
                        return next;
                    }
                }
                Stage::QuietLeaf => {
                    self.stage = Stage::Rest;
                    if let Some((value, turn)) = self.best_quiet {
                        return self.hand(turn, Some(value));
                    }
                }
                Stage::Rest => {
                    let Some(&(_, turn)) = self.moves.get(self.next) else {
                        return Next::Done;
                    };
                    self.next += 1;
                    return self.hand(turn, None);
                }
            }
        }
    }

    fn hand(&mut self, turn: Turn, leaf: Option<i32>) -> Next {
        let index = self.handed;
        self.handed += 1;
        Next::Turn(Picked { turn, index, leaf })
    }

    /// Generates the pairs and orders them; at the frontier, reads the quiet leaves.
    fn generate(&mut self, searcher: &mut Searcher, board: &Position) -> Option<Next> {
        let node = self.node;
        let width = if node.depth <= 1 {
            FRONTIER_PAIRS
        } else {
            MAX_PAIRS
        };
        let worth = &searcher.models.ranking;
        match generate(worth, board, &mut self.moves, width) {
            Situation::Win => return Some(Next::Decided(WIN - node.ply as i32)),
            Situation::Lost => return Some(Next::Decided(-(WIN - node.ply as i32 - 1))),
            Situation::Forced | Situation::Quiet => {}
        }
        if let Some(done) = self.table_turn {
            self.moves.retain(|&mut (_, t)| t != done);
        }
        self.killers_first(&searcher.killers[node.ply]);
        if node.frontier() {
            self.best_quiet = self.take_quiet_leaves(searcher, board);
            if searcher.stopped {
                return Some(Next::Stopped);
            }
        }
        None
    }

    /// This ply's killers first, then the generator's order.
    fn killers_first(&mut self, killers: &[Option<Turn>; 2]) {
        let mut front = 0;
        for t in killers.iter().flatten() {
            if let Some(i) = self.moves[front..].iter().position(|(_, m)| m == t) {
                self.moves[front..=front + i].rotate_right(1);
                front += 1;
            }
        }
    }

    /// Reads the turns that lead to a quiet leaf, drops them from `moves` and returns the
    /// best (the first of equals). The others cannot score more, and need no search. The
    /// first leaf to reach beta is returned at once: the node is cut off by it, and the
    /// turns after it are left unread.
    fn take_quiet_leaves(
        &mut self,
        searcher: &mut Searcher,
        board: &Position,
    ) -> Option<(i32, Turn)> {
        let node = self.node;
        let mut best: Option<(i32, Turn)> = None;
        let mut leaves = board.leaves(node.me);
        self.moves.retain(|&mut (_, turn)| {
            if best.is_some_and(|(b, _)| b >= node.beta) {
                return true;
            }
            let Some(value) = read_leaf(searcher, board, &mut leaves, &turn, node) else {
                return true;
            };
            if best.is_none_or(|(b, _)| value > b) {
                best = Some((value, turn));
            }
            false
        });
        best
    }
}

/// `quiet_leaf`, counted as a node when it is one.
fn read_leaf(
    searcher: &mut Searcher,
    board: &Position,
    leaves: &mut Leaves,
    turn: &Turn,
    node: Node,
) -> Option<i32> {
    let value = quiet_leaf(board, leaves, turn, node.me, node.forced);
    if value.is_some() {
        searcher.count_leaf();
    }
    value
}

/// The score for the side to move of `turn` when it leads to a quiet leaf: it makes no
/// threat, and it blocks every threat of the opponent's (`forced`: there are some). The
/// leaf's evaluation is read without placing the turn, by `leaves` (`me`'s turns on
/// `board`). `None` for other turns.
fn quiet_leaf(
    board: &Position,
    leaves: &mut Leaves,
    turn: &Turn,
    me: Color,
    forced: bool,
) -> Option<i32> {
    let mut cells = turn.cells();
    let (a, b) = (cells.next()?, cells.next()?);
    // A board filled by the turn is a draw, not an evaluation.
    if board.stone_total() + 2 >= CELLS {
        return None;
    }
    if forced {
        let cells = &GEOMETRY.window_cells;
        let blocked = |w: usize| cells[w].contains(&a) || cells[w].contains(&b);
        if !windows_in(board.as_stones().threat_windows(me.other())).all(blocked) {
            return None;
        }
    }
    leaves.value(a, b).map(|v| -v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::models::Models;
    use crate::rules::board::Board;

    /// A quiet middle game and the generator's turns for it, best first.
    fn position(width: usize) -> (Position, Vec<Turn>) {
        let models = Models::embedded();
        let board = Board::from_turns("JJ KKKJ IIHH LLML").unwrap();
        let board = Position::new(board, &models.eval);
        let mut pairs = Pairs::new();
        generate(&models.ranking, &board, &mut pairs, width);
        (board, pairs.iter().map(|&(_, t)| t).collect())
    }

    /// A node one turn from the horizon, at the root's ply, that need not block.
    fn frontier(me: Color, beta: i32) -> Node {
        Node {
            depth: 1,
            ply: 0,
            me,
            forced: false,
            beta,
        }
    }

    /// Every turn the picker hands out, with its index and leaf value.
    fn picked(
        searcher: &mut Searcher,
        board: &mut Position,
        node: Node,
        table: Turn,
    ) -> Vec<Picked> {
        let mut picker = MovePicker::new(node, Some(table));
        let mut out = Vec::new();
        loop {
            match picker.next(searcher, board) {
                Next::Turn(p) => out.push(p),
                Next::Done => return out,
                Next::Decided(_) | Next::Stopped => panic!("a quiet position, no clock"),
            }
        }
    }

    #[test]
    fn the_table_turn_then_the_killers_then_the_generators_order() {
        let (mut board, turns) = position(MAX_PAIRS);
        assert!(turns.len() >= 8, "{turns:?}");
        let mut searcher = Searcher::new(1);
        searcher.killers[3] = [Some(turns[6]), Some(turns[2])];
        let me = board.side_to_move();
        let node = Node {
            depth: 2,
            ply: 3,
            me,
            forced: false,
            beta: WIN + 1,
        };
        let got = picked(&mut searcher, &mut board, node, turns[4]);
        let front = [turns[4], turns[6], turns[2]];
        let mut expected = front.to_vec();
        expected.extend(turns.iter().filter(|t| !front.contains(t)));
        let handed: Vec<Turn> = got.iter().map(|p| p.turn).collect();
        assert_eq!(handed, expected);
        assert!(got.iter().enumerate().all(|(i, p)| p.index == i));
        assert!(
            got.iter().all(|p| p.leaf.is_none()),
            "only the frontier reads leaves"
        );
        assert_eq!(searcher.nodes, 0);
    }

    #[test]
    fn at_the_frontier_only_the_best_quiet_leaf_is_handed_before_the_threats() {
        let (mut board, turns) = position(FRONTIER_PAIRS);
        let me = board.side_to_move();
        let value = |t: &Turn| quiet_leaf(&board, &mut board.leaves(me), t, me, false);
        let quiet = turns.iter().filter(|t| value(t).is_some()).count();
        let threats: Vec<Turn> = turns[1..]
            .iter()
            .copied()
            .filter(|t| value(t).is_none())
            .collect();
        assert!(quiet >= 3 && !threats.is_empty(), "{quiet} {threats:?}");
        // The first of equals among the generated turns after the table's.
        let best = turns[1..]
            .iter()
            .filter_map(|t| value(t).map(|v| (v, *t)))
            .fold(None, |b: Option<(i32, Turn)>, (v, t)| {
                if b.is_none_or(|(bv, _)| v > bv) {
                    Some((v, t))
                } else {
                    b
                }
            })
            .unwrap();
        let table = value(&turns[0]);
        let mut searcher = Searcher::new(1);
        let got = picked(&mut searcher, &mut board, frontier(me, WIN + 1), turns[0]);
        assert_eq!((got[0].turn, got[0].leaf), (turns[0], table));
        assert_eq!((got[1].turn, got[1].leaf), (best.1, Some(best.0)));
        let rest: Vec<Turn> = got[2..].iter().map(|p| p.turn).collect();
        assert_eq!(rest, threats, "the other quiet leaves cannot do better");
        assert!(got[2..].iter().all(|p| p.leaf.is_none()));
        // Each quiet leaf read counts as a node.
        assert_eq!(searcher.nodes, quiet as u64);
    }

    #[test]
    fn at_the_frontier_the_first_quiet_leaf_to_reach_beta_ends_the_reading() {
        let (mut board, turns) = position(FRONTIER_PAIRS);
        let me = board.side_to_move();
        let value = |t: &Turn| quiet_leaf(&board, &mut board.leaves(me), t, me, false);
        // The quiet leaves after the table's turn, in the generator's order, and the first
        // of them to beat every one before it: with beta at its value, it cuts the node off.
        let quiet: Vec<(usize, i32)> = (1..turns.len())
            .filter_map(|i| value(&turns[i]).map(|v| (i, v)))
            .collect();
        let cut = (1..quiet.len())
            .find(|&j| quiet[..j].iter().all(|&(_, v)| v < quiet[j].1))
            .expect("a quiet leaf that beats the ones before it");
        let (at, beta) = quiet[cut];
        assert!(quiet.len() > cut + 1, "leaves left unread: {quiet:?}");
        let table_read = value(&turns[0]).is_some() as u64;
        let mut searcher = Searcher::new(1);
        let got = picked(&mut searcher, &mut board, frontier(me, beta), turns[0]);
        assert_eq!((got[1].turn, got[1].leaf), (turns[at], Some(beta)));
        // The leaves read before it are dropped; every turn after it is handed unread.
        let read: Vec<Turn> = quiet[..cut].iter().map(|&(i, _)| turns[i]).collect();
        let rest: Vec<Turn> = turns[1..]
            .iter()
            .copied()
            .filter(|t| *t != turns[at] && !read.contains(t))
            .collect();
        let handed: Vec<Turn> = got[2..].iter().map(|p| p.turn).collect();
        assert_eq!(handed, rest);
        assert!(got[2..].iter().all(|p| p.leaf.is_none()));
        assert_eq!(searcher.nodes, table_read + cut as u64 + 1);
    }
}

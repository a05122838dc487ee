//! Weak reference players to measure the engine against (`--player random|greedy`).

use crate::engine::eval::hand_score;
use crate::engine::pairs::{Pairs, any_legal_turn, generate};
use crate::engine::ranking::KeyWorth;
use crate::protocol::session::Player;
use crate::rng::Rng;
use crate::rules::board::Board;
use crate::rules::coord::{Cell, Turn};

/// Plays uniformly random cells next to stones (any cell on an empty board).
pub struct RandomPlayer {
    rng: Rng,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: Rng::new(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn new_game(&mut self) {}

    fn choose(&mut self, board: &Board) -> Turn {
        let mut near: Vec<Cell> = board.near_empty_cells().collect();
        if near.len() < board.stones_this_turn() {
            near = Cell::all().filter(|&c| board.is_empty(c)).collect();
        }
        let a = near.swap_remove(self.rng.below(near.len()));
        if board.stones_this_turn() == 1 {
            return Turn::one(a);
        }
        let b = near[self.rng.below(near.len())];
        Turn::two(a, b)
    }

    fn set_depth(&mut self, _: u8) {}
    fn set_move_time(&mut self, _: f64) {}
}

/// One ply of greed: completes a six if it can, blocks if it must, otherwise plays the
/// candidate pair (from the cell ranking it holds) with the best hand-set evaluation
/// afterwards.
pub struct GreedyPlayer {
    ranking: std::sync::Arc<KeyWorth>,
}

impl GreedyPlayer {
    pub fn new(ranking: std::sync::Arc<KeyWorth>) -> GreedyPlayer {
        GreedyPlayer { ranking }
    }
}

/// With the embedded ranking.
impl Default for GreedyPlayer {
    fn default() -> GreedyPlayer {
        GreedyPlayer::new(std::sync::Arc::new(KeyWorth::embedded()))
    }
}

impl Player for GreedyPlayer {
    fn new_game(&mut self) {}

    fn choose(&mut self, board: &Board) -> Turn {
        let mut b = board.clone();
        let me = b.side_to_move();
        let mut pairs = Pairs::new();
        generate(&self.ranking, &b, &mut pairs, 60);
        let mut best: Option<(i32, Turn)> = None;
        for &(_, turn) in &pairs {
            for c in turn.cells() {
                b.place(c, me);
            }
            let score = if b.has_six(me) {
                i32::MAX
            } else {
                -hand_score(&b, me.other())
            };
            for c in turn.cells() {
                b.remove(c);
            }
            if best.is_none_or(|(s, _)| score > s) {
                best = Some((score, turn));
            }
        }
        best.map(|(_, t)| t)
            .or_else(|| any_legal_turn(board))
            .expect("a game not over has a legal turn")
    }

    fn set_depth(&mut self, _: u8) {}
    fn set_move_time(&mut self, _: f64) {}
}

//! `connect6 analyse --deep`: where a lost game was really lost.
//!
//! The loser's turns after the opening are walked backwards, from the last. At each, the
//! position before the turn (the loser to move) is judged with a budget far beyond a move's:
//!
//! - *lost, proven*: every defence the opponent's proof zones leave open was tried
//!   (`defence::zone_defences`) and every one loses to a threat sequence;
//! - *lost, by search*: the solver did not decide, and the long search scores every turn
//!   lost (its tree is not full width, so this is no proof);
//! - *holds*: a turn after which the solver finds no forced win for the opponent (none within
//!   its depth and nodes, which is no proof that the turn draws) and the long search does not
//!   see one either: the engine's long-search choice when it passes, else the zone
//!   defences' turn; or the loser's own forced win;
//! - *open*: none of these.
//!
//! A lost position before turn N means the turn before it lost: the opponent's reply leads
//! there. So the walk goes back while the positions are lost, and stops at the first that
//! holds (the turn played there threw the game away), or is open (undetermined), or at the
//! loser's first turn (already lost at the opening).
//!
//! The budget buys each position the search's seconds and, for the solver, nodes in
//! proportion, so the proofs do not depend on the machine's load. Only the search's and the
//! solver's public entry points are called, all in `Judge`.

use crate::engine::eval::WIN_BOUND;
use crate::engine::models::Models;
use crate::engine::search::{Limits, Report, Searcher};
use crate::engine::solver::defence::{Defences, loses_to_threats, zone_defences};
use crate::engine::solver::{SolveLimits, Solver, Verdict};
use crate::record::game::Game;
use crate::rules::board::{Board, Color};
use crate::rules::coord::{Cell, Turn};
use crate::rules::stones::PlaceTurn;
use std::time::{Duration, Instant};

/// Solver nodes for the opponent's win with the move, per second of budget.
const THREAT_NODES_PER_SECOND: f64 = 200_000.0;
/// Solver nodes for each stone or pair tried among the defences, per second of budget.
const DEFENCE_NODES_PER_SECOND: f64 = 5_000.0;
/// Solver nodes for checking one turn, and for the loser's own win, per second of budget.
const CHECK_NODES_PER_SECOND: f64 = 200_000.0;
/// The loser's own forced win: attacker turns looked through.
const OWN_WIN_DEPTH: u8 = 8;

/// What each position gets.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub search: Duration,
    pub threat_nodes: u64,
    pub defence_nodes: u64,
    pub check_nodes: u64,
}

impl Budget {
    pub fn seconds(s: f64) -> Budget {
        let nodes = |rate: f64| (s * rate).max(1.0) as u64;
        Budget {
            search: Duration::from_secs_f64(s),
            threat_nodes: nodes(THREAT_NODES_PER_SECOND),
            defence_nodes: nodes(DEFENCE_NODES_PER_SECOND),
            check_nodes: nodes(CHECK_NODES_PER_SECOND),
        }
    }
}

/// Why a turn is said to hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HoldKind {
    /// The loser has a forced win of its own by threats, starting with this turn.
    OwnWin,
    /// The engine's long-search choice; the solver finds no forced win after it.
    Search,
    /// The zone defences' turn; the solver finds no forced win after it, and a long search
    /// after it sees none either.
    Zone,
}

#[derive(Clone, Copy, Debug)]
pub struct Hold {
    pub turn: Turn,
    pub kind: HoldKind,
    /// The long search: its depth and score from the loser's view (0, 0 when not searched).
    pub depth: u8,
    pub score: i32,
}

/// One turn judged: whether the solver shows a forced win for the opponent after it
/// (`None`: it ran out), and the long search after it (depth, score from the mover's view).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnCheck {
    pub lost: Option<bool>,
    pub depth: u8,
    pub score: i32,
}

impl TurnCheck {
    /// Holds as a held turn does: no forced win found, and the search sees no loss.
    pub fn holds(&self) -> bool {
        self.lost == Some(false) && self.score >= -WIN_BOUND
    }

    pub fn text(&self) -> String {
        let solver = match self.lost {
            Some(true) => "the solver proves a forced win after it",
            Some(false) => "the solver finds no forced win after it",
            None => "the solver ran out",
        };
        format!(
            "{solver}, the search after it {} at depth {}",
            self.score, self.depth
        )
    }
}

/// The position before one of the loser's turns.
#[derive(Clone, Debug)]
pub enum Status {
    LostProof,
    LostSearch {
        depth: u8,
        score: i32,
    },
    Holds(Hold),
    /// What was tried: the zone defences' finding; the search's depth, score and choice,
    /// and whether the choice is shown lost (by the solver, or being the turn played;
    /// `None`: the solver ran out); the zone
    /// defences' turn and the search's score after it, when that was searched.
    Open {
        defences: Defences,
        depth: u8,
        score: i32,
        choice: Turn,
        choice_lost: Option<bool>,
        zone: Option<(Turn, i32)>,
    },
}

/// What shows the turn played lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// The opponent made six at once.
    Six,
    /// The opponent's reply led to a position proven lost.
    Proof,
    /// To a position the long search scores lost (at this depth).
    Search(u8),
    /// The solver proves the opponent's win after the loser's last turn.
    Solver,
}

#[derive(Clone, Debug)]
pub struct Position {
    /// Turn number (turn 1 is black's first stone) of the loser's turn played here.
    pub number: usize,
    pub played: Turn,
    pub status: Status,
    pub elapsed: Duration,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// The position before the loser's first turn after the opening is lost: the opening
    /// handed over a forced win for the opponent. `turn` is that first turn, if any.
    Opening { turn: Option<usize>, shown: Shown },
    /// The turn played lost (`shown`), where `holds` held.
    Mistake {
        turn: usize,
        played: Turn,
        holds: Turn,
        shown: Shown,
    },
    /// The turn played is shown lost, but the position before it is neither shown lost nor
    /// held: the game was lost there or earlier.
    Undetermined {
        turn: usize,
        played: Turn,
        shown: Option<Shown>,
    },
}

#[derive(Clone, Debug)]
pub struct DeepAnalysis {
    pub color: Color,
    pub opening: usize,
    /// The positions judged, from the last turn back.
    pub positions: Vec<Position>,
    pub finding: Finding,
}

/// The number of turns in the opening a record names in its event field (`opening JJ HIIJ`),
/// checked against the game's first turns; 0 when none is named.
pub fn opening_turns(game: &Game) -> usize {
    let Some((_, rest)) = game.about.split_once("opening ") else {
        return 0;
    };
    rest.split_whitespace()
        .map_while(|w| Turn::parse(w).ok())
        .zip(&game.turns)
        .take_while(|(t, p)| same_turn(t, &p.turn))
        .count()
}

/// The same stones, in either order.
pub fn same_turn(a: &Turn, b: &Turn) -> bool {
    let mut x: Vec<Cell> = a.cells().collect();
    let mut y: Vec<Cell> = b.cells().collect();
    x.sort_unstable();
    y.sort_unstable();
    x == y
}

/// The search and the solver, with the budget of each position.
pub struct Judge {
    searcher: Searcher,
    solver: Solver,
    budget: Budget,
}

impl Judge {
    pub fn new(models: Models, budget: Budget, hash_mb: usize) -> Judge {
        Judge {
            searcher: Searcher::with_models(hash_mb, models),
            solver: Solver::new(crate::engine::tunables::THREAT_CACHE_ENTRIES),
            budget,
        }
    }

    fn search(&mut self, board: &Board) -> Report {
        let limits = Limits::timed(self.budget.search / 2, self.budget.search);
        self.searcher.search(board, limits)
    }

    /// Whether the opponent has no forced win after `turn` (`None`: the solver ran out).
    fn survives(&mut self, board: &Board, turn: &Turn) -> Option<bool> {
        let deadline = Instant::now() + self.budget.search;
        let nodes = self.budget.check_nodes;
        loses_to_threats(
            &mut self.solver,
            &mut board.clone(),
            turn,
            nodes,
            Some(deadline),
        )
        .map(|lost| !lost)
    }

    /// The loser's own forced win, if the solver finds one within its nodes.
    fn own_win(&mut self, board: &Board) -> Option<Turn> {
        let limits = SolveLimits::new(OWN_WIN_DEPTH, self.budget.check_nodes, None);
        match self.solver.solve(board.as_stones(), limits) {
            Verdict::Win(t) => Some(t),
            _ => None,
        }
    }

    /// The position before a turn of the loser, the loser to move (see the module notes).
    /// `played` is known to lose (the walk came back from the position it led to), so it is
    /// never said to hold, even where the solver alone finds no forced win after it.
    pub fn before(&mut self, board: &Board, played: &Turn) -> Status {
        if let Some(turn) = self.own_win(board) {
            return Status::Holds(Hold {
                turn,
                kind: HoldKind::OwnWin,
                depth: 0,
                score: 0,
            });
        }
        let defences = zone_defences(
            board.as_stones(),
            self.budget.threat_nodes,
            self.budget.defence_nodes,
        );
        if defences == (Defences::Lost { undecided: 0 }) {
            return Status::LostProof;
        }
        let report = self.search(board);
        let lost = report.score < -WIN_BOUND;
        let survives = if same_turn(&report.best, played) {
            Some(false)
        } else {
            self.survives(board, &report.best)
        };
        if !lost && survives == Some(true) {
            return Status::Holds(Hold {
                turn: report.best,
                kind: HoldKind::Search,
                depth: report.depth,
                score: report.score,
            });
        }
        let mut zone = None;
        if let Defences::Holds(z) = defences {
            let turn = with_partner(board, z, &report.best);
            if !same_turn(&turn, &report.best) && !same_turn(&turn, played) {
                let hold = self.zone_hold(board, turn);
                if hold.score >= -WIN_BOUND {
                    return Status::Holds(hold);
                }
                zone = Some((turn, hold.score));
            }
        }
        if lost {
            return Status::LostSearch {
                depth: report.depth,
                score: report.score,
            };
        }
        Status::Open {
            defences,
            depth: report.depth,
            score: report.score,
            choice: report.best,
            choice_lost: survives.map(|s| !s),
            zone,
        }
    }

    /// The long search after `turn`: its depth and score from the mover's view (0, 0 when
    /// the turn ends the game).
    fn search_after(&mut self, board: &Board, turn: &Turn) -> (u8, i32) {
        let mut after = board.clone();
        after.place_turn(turn, board.side_to_move());
        if after.is_over() {
            (0, 0)
        } else {
            let r = self.search(&after);
            (r.depth, -r.score)
        }
    }

    /// A turn of the side to move, judged by the standard a held turn is: the solver's check
    /// after it, then the long search after it.
    pub fn check(&mut self, board: &Board, turn: &Turn) -> TurnCheck {
        let lost = self.survives(board, turn).map(|s| !s);
        let (depth, score) = self.search_after(board, turn);
        TurnCheck { lost, depth, score }
    }

    /// The zone defences' turn, with a long search after it: it holds when that search sees
    /// no win for the opponent either (the solver has already found none).
    fn zone_hold(&mut self, board: &Board, turn: Turn) -> Hold {
        let (depth, score) = self.search_after(board, &turn);
        Hold {
            turn,
            kind: HoldKind::Zone,
            depth,
            score,
        }
    }

    /// After the loser's last turn, what shows the opponent's win.
    fn after_last(&mut self, game: &Game, index: usize) -> Option<Shown> {
        if index + 2 <= game.turns.len() && game.board_after(index + 2).is_over() {
            return Some(Shown::Six);
        }
        let board = game.board_after(index + 1);
        let limits = SolveLimits::new(OWN_WIN_DEPTH, self.budget.check_nodes, None);
        if let Verdict::Win(_) = self.solver.solve(board.as_stones(), limits) {
            return Some(Shown::Solver);
        }
        let r = self.search(&board);
        (r.score > WIN_BOUND).then_some(Shown::Search(r.depth))
    }

    /// Walks the loser's turns back from the last (see the module notes).
    pub fn walk(&mut self, game: &Game, color: Color) -> DeepAnalysis {
        let opening = opening_turns(game);
        let turns: Vec<usize> = (opening..game.turns.len())
            .filter(|&i| game.turns[i].color == color)
            .collect();
        let mut positions = Vec::new();
        let Some(&last) = turns.last() else {
            // The opponent won before the loser played a turn of its own.
            let finding = Finding::Opening {
                turn: None,
                shown: Shown::Six,
            };
            return DeepAnalysis::new(color, opening, positions, finding);
        };
        let mut shown = self.after_last(game, last);
        for &i in turns.iter().rev() {
            let played = game.turns[i].turn;
            let number = i + 1;
            let Some(after) = shown else {
                let finding = Finding::Undetermined {
                    turn: number,
                    played,
                    shown: None,
                };
                return DeepAnalysis::new(color, opening, positions, finding);
            };
            let began = Instant::now();
            let status = self.before(&game.board_after(i), &played);
            log::info!("turn {number}: {status:?}");
            positions.push(Position {
                number,
                played,
                status: status.clone(),
                elapsed: began.elapsed(),
            });
            shown = match status {
                Status::LostProof => Some(Shown::Proof),
                Status::LostSearch { depth, .. } => Some(Shown::Search(depth)),
                Status::Holds(h) => {
                    let finding = Finding::Mistake {
                        turn: number,
                        played,
                        holds: h.turn,
                        shown: after,
                    };
                    return DeepAnalysis::new(color, opening, positions, finding);
                }
                Status::Open { .. } => {
                    let finding = Finding::Undetermined {
                        turn: number,
                        played,
                        shown: Some(after),
                    };
                    return DeepAnalysis::new(color, opening, positions, finding);
                }
            };
        }
        let finding = Finding::Opening {
            turn: turns.first().map(|i| i + 1),
            shown: shown.unwrap_or(Shown::Proof),
        };
        DeepAnalysis::new(color, opening, positions, finding)
    }
}

impl DeepAnalysis {
    fn new(color: Color, opening: usize, positions: Vec<Position>, finding: Finding) -> Self {
        DeepAnalysis {
            color,
            opening,
            positions,
            finding,
        }
    }
}

/// A turn of the zone defences' stone (a stone alone holds with any partner: the search's
/// choice gives it one).
fn with_partner(board: &Board, z: Turn, best: &Turn) -> Turn {
    if z.second.is_some() {
        return z;
    }
    let partner = best
        .cells()
        .chain(Cell::all())
        .find(|&c| c != z.first && board.is_empty(c));
    match partner {
        Some(p) => Turn::two(z.first.min(p), z.first.max(p)),
        None => z,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::RecordResult;

    fn game(turns: &str, opening: &str, result: RecordResult) -> Game {
        let mut g = Game::from_stone_list(turns).expect("a legal game");
        g.result = Some(result);
        g.about = format!("2026.12.05 00:00 opening {opening}");
        g
    }

    #[test]
    fn the_opening_is_read_from_the_event() {
        let g = game("JJ IKKK JKJL JHLL", "JJ KKIK JKJL", RecordResult::BlackWins);
        assert_eq!(opening_turns(&g), 3, "the cells of a turn in either order");
        let g = game("JJ IKKK JKJL JHLL", "JJ IKKL", RecordResult::BlackWins);
        assert_eq!(
            opening_turns(&g),
            1,
            "the opening stops where the game differs"
        );
        let mut g = game("JJ IKKK", "JJ", RecordResult::BlackWins);
        g.about = "2026.12.05 00:00 some event".into();
        assert_eq!(opening_turns(&g), 0);
    }

    #[test]
    fn a_blunder_at_a_known_turn() {
        // White blocks black's column at JH (turn 4), then ignores the four JJ..JM (turn 6)
        // and black makes six. Blocking JN held.
        let g = game(
            "JJ IKKK JKJL JHLL JMSS IAKA JNJO",
            "JJ IKKK",
            RecordResult::BlackWins,
        );
        let mut judge = Judge::new(Models::embedded(), Budget::seconds(0.2), 8);
        let a = judge.walk(&g, Color::White);
        let Finding::Mistake {
            turn,
            played,
            holds,
            shown,
        } = a.finding
        else {
            panic!("{:?}", a.finding);
        };
        assert_eq!(
            (turn, played.to_string(), shown),
            (6, "IAKA".into(), Shown::Six)
        );
        let cells: Vec<String> = holds.cells().map(|c| c.to_string()).collect();
        assert!(cells.contains(&"JN".to_string()), "{holds}");
        assert_eq!(a.positions.len(), 1);
        assert!(matches!(a.positions[0].status, Status::Holds(_)));
    }

    #[test]
    fn an_opening_that_hands_over_a_win() {
        // The opening leaves black two fours (column J, row D) and white to move: white
        // blocks one, and black completes the other.
        let g = game(
            "JJ AASA JKJL ASSS JMDD CAQA EDFD AQSQ GDPP CDHD JNJO",
            "JJ AASA JKJL ASSS JMDD CAQA EDFD AQSQ GDPP",
            RecordResult::BlackWins,
        );
        let mut judge = Judge::new(Models::embedded(), Budget::seconds(0.2), 8);
        let a = judge.walk(&g, Color::White);
        assert_eq!(a.opening, 9);
        assert_eq!(
            a.finding,
            Finding::Opening {
                turn: Some(10),
                shown: Shown::Proof
            }
        );
        assert_eq!(a.positions.len(), 1);
        assert!(matches!(a.positions[0].status, Status::LostProof));
    }

    #[test]
    fn a_turn_of_the_loser_that_wins_holds() {
        // Before turn 6 white has four of its own (KA..KD) and wins at once: that holds,
        // whatever black threatens.
        let g = game(
            "JJ KAKB JKJL KCKD JMSS IAIB JNJO",
            "JJ KAKB",
            RecordResult::BlackWins,
        );
        let mut judge = Judge::new(Models::embedded(), Budget::seconds(0.2), 8);
        let a = judge.walk(&g, Color::White);
        let Finding::Mistake { turn, holds, .. } = a.finding else {
            panic!("{:?}", a.finding);
        };
        assert_eq!(turn, 6);
        let mut after = g.board_after(5);
        after.place_turn(&holds, Color::White);
        assert!(after.has_six(Color::White), "{holds}");
    }
}

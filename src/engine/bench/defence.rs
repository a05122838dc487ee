//! `connect6 bench --defence-suite FILE`: the defence's questions on positions where the
//! opponent of the side to move would win by a threat sequence if it had the move (as
//! `tests/data/defence-suite.txt`, made from lost games by `connect6 tune defence-suite`).
//!
//! Two questions are asked, each with a fresh solver, under the budgets the engine gives
//! them and under plain time limits:
//! - the null move: does the opponent win if we pass? (`defence::guard` asks it first);
//! - the turn played in the game, when a long solve showed it loses: does the check of a
//!   chosen turn (`defence::loses_to_threats`) see that it loses?
//!
//! On the positions where the game's turn lost, every defence the opponent's proof zones
//! leave open is tried (`defence::zone_defences`): whether any turn holds there at all, or
//! the position was already lost and the mistake came earlier. And the whole engine is asked
//! for its turn under a move time, and a long solve judges that turn: the defence's end
//! result.

use crate::engine::bench::suite::suite_lines;
use crate::engine::models::Models;
use crate::engine::pairs::{Pairs, generate};
use crate::engine::ranking::KeyWorth;
use crate::engine::search::{Limits, Searcher};
use crate::engine::solver::defence::{Defences, guard, loses_to_threats, zone_defences};
use crate::engine::solver::{SolveLimits, Solver, Verdict};
use crate::engine::tunables::{
    CHOSEN_TURN_THREAT_NODES, NULL_MOVE_THREAT_NODES, ROOT_PAIRS, ROOT_THREAT_DEPTH,
    SAFETY_THREAT_DEPTH, SAFETY_TIME_SHARE, THREAT_CACHE_ENTRIES,
};
use crate::rules::board::{Board, Color};
use crate::rules::coord::Turn;
use crate::rules::stones::PlaceTurn;
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// What a long solve said of the turn the game played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Played {
    /// The opponent wins by a threat sequence after it.
    Loses,
    /// The opponent has no threat sequence after it (within the solver's depth).
    Holds,
    /// The long solve ran out of nodes.
    Unknown,
}

impl Played {
    fn name(self) -> &'static str {
        match self {
            Played::Loses => "loses",
            Played::Holds => "holds",
            Played::Unknown => "unknown",
        }
    }
}

impl fmt::Display for Played {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Played {
    type Err = String;

    fn from_str(word: &str) -> Result<Played, String> {
        [Played::Loses, Played::Holds, Played::Unknown]
            .into_iter()
            .find(|p| p.name() == word)
            .ok_or_else(|| format!("'{word}' is not loses, holds or unknown"))
    }
}

/// One position of a defence suite.
#[derive(Clone)]
pub struct DefencePosition {
    /// Where it comes from: the game and the turn number.
    pub name: String,
    /// The opponent's first turn of the win the long solve found.
    pub threat: Turn,
    /// The turn the game played here, and what it does against the threat.
    pub played: Turn,
    pub after: Played,
    /// The position; its side to move defends.
    pub board: Board,
}

/// The fields of a suite line, tab-separated.
pub const FIELDS: [&str; 6] = ["game", "turn", "threat", "played", "after", "stones"];

impl DefencePosition {
    /// The suite line of this position (fields as in [`FIELDS`]).
    pub fn line(&self, stones: &str) -> String {
        let (game, turn) = self.name.rsplit_once(' ').unwrap_or((&self.name, ""));
        format!(
            "{game}\t{turn}\t{}\t{}\t{}\t{stones}",
            self.threat, self.played, self.after
        )
    }
}

/// Reads a defence suite: lines of the tab-separated [`FIELDS`]; blank lines and `#`
/// comments are skipped. Each position must be one where the game goes on and the played
/// turn is legal. Errors name the line.
pub fn parse_defence_suite(text: &str) -> Result<Vec<DefencePosition>, String> {
    let mut out = Vec::new();
    for (n, line) in suite_lines(text) {
        let at = |e: String| format!("line {n}: {e}");
        let fields: Vec<&str> = line.split('\t').collect();
        let [game, turn, threat, played, after, stones] = fields[..] else {
            return Err(at(format!(
                "{} fields, expected {} ({})",
                fields.len(),
                FIELDS.len(),
                FIELDS.join(", ")
            )));
        };
        let board = Board::from_turns(stones).map_err(at)?;
        if board.is_over() {
            return Err(at("the game is over".into()));
        }
        let turn_of = |text: &str| Turn::parse(text).map_err(|e| at(format!("{text}: {e}")));
        let played = turn_of(played)?;
        board
            .check_turn(&played)
            .map_err(|e| at(format!("{played}: {e}")))?;
        out.push(DefencePosition {
            name: format!("{game} {turn}"),
            threat: turn_of(threat)?,
            played,
            after: after.parse().map_err(at)?,
            board,
        });
    }
    Ok(out)
}

/// A budget for one question: solver nodes and time.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub label: &'static str,
    pub nodes: u64,
    pub time: Duration,
}

/// The budgets the engine gives the null-move question under a move cap of `move_time`:
/// its node cap, and its share of the move's time.
pub fn null_move_budget(label: &'static str, move_time: Duration) -> Budget {
    Budget {
        label,
        nodes: NULL_MOVE_THREAT_NODES,
        time: move_time.mul_f64(SAFETY_TIME_SHARE),
    }
}

/// A plain time limit with no node cap.
pub fn time_budget(label: &'static str, time: Duration) -> Budget {
    Budget {
        label,
        nodes: u64::MAX,
        time,
    }
}

/// Whether the null move finds the opponent's win on `board` within `budget`, with a fresh
/// solver; and the time it took.
pub fn null_move_finds(board: &Board, budget: Budget) -> (bool, Duration) {
    let mut solver = Solver::new(THREAT_CACHE_ENTRIES);
    let began = Instant::now();
    let deadline = began.checked_add(budget.time);
    let limits = SolveLimits::new(SAFETY_THREAT_DEPTH, budget.nodes, deadline);
    let verdict = solver.solve_for(board.as_stones(), board.side_to_move().other(), limits);
    (matches!(verdict, Verdict::Win(_)), began.elapsed())
}

/// Whether checking `turn` as the chosen turn finds that it loses within `budget`.
pub fn chosen_check_finds(board: &Board, turn: &Turn, budget: Budget) -> (bool, Duration) {
    let mut solver = Solver::new(THREAT_CACHE_ENTRIES);
    let mut b = board.clone();
    let began = Instant::now();
    let deadline = began.checked_add(budget.time);
    let found = loses_to_threats(&mut solver, &mut b, turn, budget.nodes, deadline);
    (found == Some(true), began.elapsed())
}

/// Solver nodes of the long solve that judges a turn.
pub const JUDGE_NODES: u64 = 200_000;

/// A long solve: `attacker`'s threat sequence on `board`, with a fresh solver, `nodes` and
/// no time limit (so the answer depends on the build alone).
pub fn long_solve(board: &Board, attacker: Color, nodes: u64) -> Verdict {
    let mut solver = Solver::new(THREAT_CACHE_ENTRIES);
    let limits = SolveLimits::new(ROOT_THREAT_DEPTH, nodes, None);
    solver.solve_for(board.as_stones(), attacker, limits)
}

/// What a long solve of `nodes` says of `turn` on `board`.
pub fn judge(board: &Board, turn: &Turn, nodes: u64) -> Played {
    let me = board.side_to_move();
    let mut after = board.clone();
    after.place_turn(turn, me);
    if after.has_six(me) {
        return Played::Holds;
    }
    match long_solve(&after, me.other(), nodes) {
        Verdict::Win(_) => Played::Loses,
        Verdict::NoWin => Played::Holds,
        Verdict::Unknown => Played::Unknown,
    }
}

/// The engine's turn on `board` with `time` to think (one thread, a fresh 16 MB table,
/// `models`), and what a long solve says of it.
pub fn engine_turn(models: &Models, board: &Board, time: Duration) -> (Turn, Played) {
    let report = Searcher::with_models(16, models.clone()).search(board, Limits::time(time));
    (report.best, judge(board, &report.best, JUDGE_NODES))
}

/// The root turns the engine would consider on `board` (generated, then widened by the
/// defence with the opponent's proof zone), and the first that a long solve shows holding:
/// `None` when none does, so the position is lost among the engine's own candidates.
pub fn holding_turn(worth: &KeyWorth, board: &Board) -> Option<Turn> {
    let mut b = board.clone();
    let mut root = Pairs::new();
    let situation = generate(worth, &b, &mut root, ROOT_PAIRS);
    let mut solver = Solver::new(THREAT_CACHE_ENTRIES);
    // No deadline: the guard checks every turn; what matters here is the widened root.
    let _ = guard(&mut solver, worth, &mut b, &mut root, situation, None);
    root.iter()
        .map(|&(_, t)| t)
        .find(|t| judge(board, t, JUDGE_NODES) == Played::Holds)
}

/// Solver nodes of each stone's or pair's solve when every defence is looked through.
pub const ZONE_SOLVE_NODES: u64 = 20_000;

/// One budget's results over a suite.
#[derive(Debug, Default, Clone)]
pub struct Hits {
    pub found: usize,
    pub asked: usize,
    pub time: Duration,
    /// The positions asked and not found, by name (and the turn checked).
    pub missed: Vec<String>,
}

impl Hits {
    fn count(&mut self, found: bool, time: Duration, what: impl FnOnce() -> String) {
        self.asked += 1;
        self.found += found as usize;
        self.time += time;
        if !found {
            self.missed.push(what());
        }
    }
}

/// The null-move question and the chosen-turn check over `positions`, under each budget.
/// The chosen-turn check is asked only of played turns a long solve showed losing.
pub fn run(positions: &[DefencePosition], budgets: &[Budget]) -> Vec<(Budget, Hits, Hits)> {
    budgets
        .iter()
        .map(|&budget| {
            let mut null = Hits::default();
            let mut chosen = Hits::default();
            for p in positions {
                let (found, time) = null_move_finds(&p.board, budget);
                null.count(found, time, || p.name.clone());
                if p.after == Played::Loses {
                    let chosen_budget = Budget {
                        nodes: budget.nodes.max(CHOSEN_TURN_THREAT_NODES),
                        ..budget
                    };
                    let (found, time) = chosen_check_finds(&p.board, &p.played, chosen_budget);
                    chosen.count(found, time, || format!("{} {}", p.name, p.played));
                }
            }
            (budget, null, chosen)
        })
        .collect()
}

/// The budgets `bench --defence-suite` reports: the engine's own at 0.5 s and 1 s a move,
/// and plain limits of 0.1 s and 0.25 s.
pub fn standard_budgets() -> Vec<Budget> {
    vec![
        null_move_budget("engine at 0.5 s/move", Duration::from_millis(500)),
        null_move_budget("engine at 1 s/move", Duration::from_secs(1)),
        time_budget("0.1 s", Duration::from_millis(100)),
        time_budget("0.25 s", Duration::from_millis(250)),
    ]
}

/// Prints one line per budget.
/// The suite's figures with the engine playing with `models`.
pub fn report(models: &Models, positions: &[DefencePosition]) {
    let losing = positions
        .iter()
        .filter(|p| p.after == Played::Loses)
        .count();
    println!(
        "defence suite: {} positions, the played turn loses in {losing}",
        positions.len()
    );
    let lost: Vec<&DefencePosition> = positions
        .iter()
        .filter(|p| p.after == Played::Loses)
        .collect();
    let defensible: Vec<(&DefencePosition, Turn)> = lost
        .iter()
        .filter_map(|&p| holding_turn(&models.ranking, &p.board).map(|t| (p, t)))
        .collect();
    println!(
        "defence suite: where the game's turn lost, {} of {} positions have a root turn that a long solve shows holding",
        defensible.len(),
        lost.len()
    );
    let (mut holds, mut every_loses, mut undecided) = (0, 0, 0);
    for p in &lost {
        let found = zone_defences(p.board.as_stones(), JUDGE_NODES, ZONE_SOLVE_NODES);
        println!("defence by zones {}: {found}", p.name);
        match found {
            Defences::Holds(_) | Defences::NotThreatened => holds += 1,
            Defences::Lost { undecided: 0 } => every_loses += 1,
            Defences::Lost { .. } => undecided += 1,
        }
    }
    println!(
        "defence by zones ({ZONE_SOLVE_NODES} nodes a solve): where the game's turn lost, a turn holds in {holds} of {}; every turn loses in {every_loses}; every decided turn loses, with some undecided, in {undecided}",
        lost.len()
    );
    for millis in [500, 1000] {
        let time = Duration::from_millis(millis);
        let mut counts = [0usize; 3];
        for (p, holds) in &defensible {
            let (turn, after) = engine_turn(models, &p.board, time);
            counts[after as usize] += 1;
            println!(
                "defence search {:.1}s {}: played {}, holds {holds}, engine {turn} {after}",
                time.as_secs_f64(),
                p.name,
                p.played
            );
        }
        println!(
            "defence search {:.1}s on those: the engine's turn loses in {}, holds in {}, unknown in {} (of {})",
            time.as_secs_f64(),
            counts[Played::Loses as usize],
            counts[Played::Holds as usize],
            counts[Played::Unknown as usize],
            defensible.len()
        );
    }
    for (budget, null, chosen) in run(positions, &standard_budgets()) {
        let nodes = if budget.nodes == u64::MAX {
            "no node cap".to_string()
        } else {
            format!("{} nodes", budget.nodes)
        };
        println!(
            "defence {} ({nodes}, {:.3}s): null move finds {} of {} ({:.3}s in all); the played losing turn's check finds {} of {} ({:.3}s)",
            budget.label,
            budget.time.as_secs_f64(),
            null.found,
            null.asked,
            null.time.as_secs_f64(),
            chosen.found,
            chosen.asked,
            chosen.time.as_secs_f64()
        );
        for (question, hits) in [("null move", &null), ("check of the played turn", &chosen)] {
            for name in &hits.missed {
                println!("defence {} missed by the {question}: {name}", budget.label);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Black threatens a four-and-more: with white to move, the null move finds black's win;
    /// white's turn on the edge does nothing about it.
    const LINE: &str = "game.txt\t7\tJKJL\tARBR\tloses\tJJ AACB JKJL SSQR LNMN ASCR NNSA";

    #[test]
    fn suites_parse_and_name_their_errors() {
        let ps = parse_defence_suite(&format!("# comment\n\n{LINE}\n")).expect("parses");
        assert_eq!(ps.len(), 1);
        assert_eq!(ps[0].name, "game.txt 7");
        assert_eq!(ps[0].after, Played::Loses);
        assert_eq!(ps[0].board.stone_total(), 13);
        assert_eq!(
            ps[0].line("JJ AACB JKJL SSQR LNMN ASCR NNSA"),
            LINE,
            "a line is written back as read"
        );
        for (bad, what) in [
            ("a\tb\tJJ", "3 fields"),
            (&LINE.replace("loses", "lost"), "'lost'"),
            (&LINE.replace("ARBR", "JJSR"), "JJ"),
            (&LINE.replace("JKJL\tARBR", "ZZ\tARBR"), "ZZ"),
        ] {
            let err = parse_defence_suite(&format!("\n{bad}\n"))
                .err()
                .expect("an error");
            assert!(err.starts_with("line 2:") && err.contains(what), "{err}");
        }
    }

    #[test]
    fn the_questions_find_a_plain_threat_and_miss_nothing_on_a_quiet_board() {
        let ps = parse_defence_suite(LINE).expect("parses");
        let budget = time_budget("test", Duration::from_secs(5));
        assert!(null_move_finds(&ps[0].board, budget).0);
        assert!(chosen_check_finds(&ps[0].board, &ps[0].played, budget).0);
        let quiet = Board::from_turns("JJ KJKK").unwrap();
        assert!(!null_move_finds(&quiet, budget).0);
        let results = run(&ps, &[budget]);
        assert_eq!((results[0].1.found, results[0].1.asked), (1, 1));
        assert_eq!((results[0].2.found, results[0].2.asked), (1, 1));
        assert!(results[0].1.missed.is_empty() && results[0].2.missed.is_empty());
        // Where there is nothing to find, both questions miss, and name what they missed.
        let quiet = parse_defence_suite("quiet.txt\t3\tAAAB\tLLLM\tloses\tJJ KJKK").unwrap();
        let results = run(&[ps[0].clone(), quiet[0].clone()], &[budget]);
        assert_eq!((results[0].1.found, results[0].1.asked), (1, 2));
        assert_eq!((results[0].2.found, results[0].2.asked), (1, 2));
        assert_eq!(results[0].1.missed, ["quiet.txt 3"]);
        assert_eq!(results[0].2.missed, ["quiet.txt 3 LLLM"]);
    }
}

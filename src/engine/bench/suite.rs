//! `connect6 bench --solver-suite FILE`: the threat solver on a file of positions where the
//! side to move has a threat-sequence win (as `tests/data/loss-wins.txt`, walked back from
//! the lost games), each solved with a fresh solver under one node cap after another. The
//! yardstick for the solver's efficiency: how many wins each cap finds, and at what cost.

use crate::engine::solver::{SolveLimits, Solver, Verdict};
use crate::engine::tunables::{ROOT_THREAT_DEPTH, THREAT_CACHE_ENTRIES};
use crate::rules::board::Board;
use std::time::{Duration, Instant};

/// One position of a suite file.
pub struct SuitePosition {
    /// Where it comes from (the file's first columns).
    pub name: String,
    pub board: Board,
}

/// The lines of a suite file that hold a position, with their 1-based numbers: blank lines
/// and `#` comments are skipped, line ends trimmed.
pub fn suite_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(n, line)| (n + 1, line.trim_end()))
        .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
}

/// Reads a suite: lines of tab-separated fields whose last is the position as a stone
/// list; every field before it names the position. Blank lines and `#` comments are
/// skipped. Errors name the line.
pub fn parse_suite(text: &str) -> Result<Vec<SuitePosition>, String> {
    let mut out = Vec::new();
    for (n, line) in suite_lines(text) {
        let mut fields: Vec<&str> = line.split('\t').collect();
        let stones = fields.pop().unwrap_or_default();
        let board = Board::from_turns(stones).map_err(|e| format!("line {n}: {e}"))?;
        if board.is_over() {
            return Err(format!("line {n}: the game is over"));
        }
        out.push(SuitePosition {
            name: fields.join(" "),
            board,
        });
    }
    Ok(out)
}

/// What one cap found over a suite.
#[derive(Default, Debug)]
pub struct CapResult {
    pub cap: u64,
    pub wins: usize,
    pub nodes: u64,
    pub time: Duration,
    /// Longest win found, in attacker turns.
    pub longest: u8,
    /// Each position's outcome, in file order.
    pub per_position: Vec<Solved>,
}

/// What the solver found on one position.
#[derive(Clone, Copy, Debug)]
pub struct Solved {
    pub verdict: Verdict,
    /// Nodes to the proof, or to the cap.
    pub nodes: u64,
    /// Attacker turns of the win found (0 without one).
    pub length: u8,
    pub time: Duration,
}

/// Solves `board` with a fresh solver within `cap` nodes and no time limit, so that the
/// result depends on the build alone.
pub fn solve_fresh(board: &Board, cap: u64) -> Solved {
    let mut solver = Solver::new(THREAT_CACHE_ENTRIES);
    let began = Instant::now();
    let verdict = solver.solve(
        board.as_stones(),
        SolveLimits::new(ROOT_THREAT_DEPTH, cap, None),
    );
    let length = match verdict {
        Verdict::Win(_) => solver.last_proof().length,
        _ => 0,
    };
    Solved {
        verdict,
        nodes: solver.nodes(),
        length,
        time: began.elapsed(),
    }
}

/// Solves every position with a fresh solver within `cap` nodes.
pub fn run_cap(positions: &[SuitePosition], cap: u64) -> CapResult {
    let mut out = CapResult {
        cap,
        ..CapResult::default()
    };
    for p in positions {
        let solved = solve_fresh(&p.board, cap);
        out.time += solved.time;
        out.nodes += solved.nodes;
        if matches!(solved.verdict, Verdict::Win(_)) {
            out.wins += 1;
            out.longest = out.longest.max(solved.length);
        }
        out.per_position.push(solved);
    }
    out
}

/// Prints a suite's results under each cap: a line per position for the largest, then a
/// summary line per cap.
pub fn report(positions: &[SuitePosition], caps: &[u64]) {
    let results: Vec<CapResult> = caps.iter().map(|&cap| run_cap(positions, cap)).collect();
    if let Some(last) = results.last() {
        for (p, solved) in positions.iter().zip(&last.per_position) {
            let nodes = solved.nodes;
            let what = match solved.verdict {
                Verdict::Win(turn) => format!("win {turn}"),
                Verdict::NoWin => "no win".into(),
                Verdict::Unknown => "unknown".into(),
            };
            println!(
                "suite {}: {what} | nodes {nodes} in {:.3}s, {} turns",
                p.name,
                solved.time.as_secs_f64(),
                solved.length
            );
        }
    }
    for r in &results {
        println!(
            "suite cap {}: {} of {} wins, nodes {} in {:.3}s ({:.0}/s), longest line {} turns",
            r.cap,
            r.wins,
            positions.len(),
            r.nodes,
            r.time.as_secs_f64(),
            r.nodes as f64 / r.time.as_secs_f64().max(1e-9),
            r.longest
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suites_parse_and_name_their_errors() {
        let text = "# comment\n\ngame1\t7\tJJ KJKK\nJJ KJKK IIHH\n";
        let ps = parse_suite(text).unwrap();
        assert_eq!(ps.len(), 2);
        assert_eq!(ps[0].name, "game1 7");
        assert_eq!(ps[1].name, "");
        assert_eq!(ps[1].board.stone_total(), 5);
        let err = parse_suite("a\tJJ JJKK\n").err().unwrap();
        assert!(err.starts_with("line 1:"), "{err}");
    }

    #[test]
    fn a_cap_counts_the_wins_it_finds() {
        // A double four for black: found with any cap.
        let ps = parse_suite("JJ AACB JKJL SSQR LNMN ASCR NNSA AQCQ\n").unwrap();
        let r = run_cap(&ps, 1_000);
        assert_eq!((r.wins, r.longest), (1, 1));
    }
}

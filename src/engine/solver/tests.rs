use super::*;
use crate::rules::board::Board;

fn play_all(moves: &[&str]) -> Board {
    Board::from_turns(&moves.join(" ")).unwrap()
}

#[test]
fn double_four_wins_at_once() {
    // Open threes in column J and row N: two open fours are four threats.
    let b = play_all(&["JJ", "AACB", "JKJL", "SSQR", "LNMN", "ASCR", "NNSA", "AQCQ"]);
    let mut solver = Solver::new(1 << 12);
    let verdict = solver.solve(b.as_stones(), SolveLimits::new(1, 1_000, None));
    assert!(matches!(verdict, Verdict::Win(_)), "{verdict:?}");
    assert_eq!(solver.last_proof().length, 1);
}

#[test]
fn a_lone_pair_has_no_win() {
    let b = play_all(&["JJ", "AACB", "JKSS"]);
    let mut solver = Solver::new(1024);
    for limits in [
        SolveLimits::new(4, 100_000, None),
        SolveLimits::new(4, 100_000, None).double_threats_only(),
    ] {
        assert_eq!(solver.solve(b.as_stones(), limits), Verdict::NoWin);
    }
}

#[test]
fn crossing_threes_win() {
    // Black's threes across row J and down column J meet at JJ: both become fours at
    // once, four threats.
    let b = play_all(&["JJ", "AACB", "KJJK", "SSQR", "LJJL", "ASCR"]);
    let mut solver = Solver::new(1 << 14);
    match solver.solve(b.as_stones(), SolveLimits::new(4, 2_000_000, None)) {
        Verdict::Win(turn) => {
            let mut after = b.clone();
            after.play_turn(&turn).unwrap();
            assert!(crate::rules::threats::threat_count(after.as_stones(), Color::Black) >= 2);
        }
        v => panic!("expected a win, got {v:?} after {} nodes", solver.nodes()),
    }
}

#[test]
fn proofs_are_cached_between_calls() {
    let b = play_all(&["JJ", "AACB", "KJJK", "SSQR", "LJJL", "ASCR"]);
    let mut solver = Solver::new(1 << 14);
    let limits = SolveLimits::new(4, 2_000_000, None);
    let first = solver.solve(b.as_stones(), limits);
    let cold = solver.nodes();
    assert_eq!(solver.solve(b.as_stones(), limits), first);
    assert!(solver.nodes() <= cold, "{} > {cold}", solver.nodes());
    assert!(solver.nodes() <= 1);
}

#[test]
fn a_failure_no_limit_met_is_final() {
    // White, to move, has two stones in a corner on no common line: no turn of two stones
    // makes a threat, so every search fails before reaching its depth or leaving a single
    // threat out. It is settled in a few nodes however deep it was asked to look (the old
    // deepening spent a node a depth at each number of single threats), and the cached
    // failure answers any later question.
    let b = play_all(&["JJ", "AACB", "JKSS"]);
    let mut solver = Solver::new(1024);
    assert_eq!(
        solver.solve(b.as_stones(), SolveLimits::new(20, 100_000, None)),
        Verdict::NoWin
    );
    assert!(solver.nodes() <= 4, "{} nodes", solver.nodes());
    assert_eq!(
        solver.solve(b.as_stones(), SolveLimits::new(40, 100_000, None)),
        Verdict::NoWin
    );
    assert!(solver.nodes() <= 1, "{} nodes", solver.nodes());
}

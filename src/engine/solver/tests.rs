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

/// Replays a solver's win on `board` for `attacker` against every defence the proof
/// lists: the attacker's turn is the one a solve finds, each answer that blocks every
/// threat (a pair, or a blocking stone with each free stone in the proof's zone or where
/// the defender could grow a threat of its own) is played, and the attacker must win again
/// from there, until a six stands. An answer that blocks nothing is lost by the six on the
/// board. Returns the positions replayed; panics on a line where the attacker has no six.
fn replay(board: &mut Stones, attacker: Color, turns_left: u8, replayed: &mut u64) {
    use crate::rules::stones::PlaceTurn;
    use crate::rules::threats::blocks;
    *replayed += 1;
    assert!(turns_left > 0, "the line outlived its proof's length");
    let mut solver = Solver::new(1 << 14);
    let verdict = solver.solve_for(board, attacker, SolveLimits::new(turns_left, 400_000, None));
    let Verdict::Win(turn) = verdict else {
        panic!("no win replayed after a listed defence: {verdict:?}");
    };
    let proof = *solver.last_proof();
    assert!(
        proof.length <= turns_left,
        "{} > {turns_left}",
        proof.length
    );
    board.place_turn(&turn, attacker);
    if board.has_six(attacker) {
        board.remove_turn(&turn);
        return;
    }
    let defender = attacker.other();
    assert!(!board.has_threat_window(defender), "{turn} leaves a threat");
    let replies = blocks(board, attacker);
    assert!(replies.needed >= 1, "{turn} makes no threat");
    for &(x, y) in replies.pairs.clone().iter() {
        board.place(x, defender);
        board.place(y, defender);
        replay(board, attacker, turns_left - 1, replayed);
        board.remove(y);
        board.remove(x);
    }
    for &x in replies.singles.clone().iter() {
        board.place(x, defender);
        let mut free = proof.zone;
        free.union_with(&zone::counter_reach(board, defender, &proof.zone, 1));
        let free: Vec<Cell> = free.iter().filter(|&y| board.is_empty(y)).collect();
        for y in free {
            board.place(y, defender);
            replay(board, attacker, turns_left - 1, replayed);
            board.remove(y);
        }
        board.remove(x);
    }
    board.remove_turn(&turn);
}

#[test]
fn proofs_replay_against_every_listed_defence_to_a_six() {
    // The bench's solver positions (lines with single threats, found with a free stone's
    // zones) and the crossing threes: each proof is replayed turn by turn.
    let crossing = "JJ AACB KJJK SSQR LJJL ASCR";
    let mut total = 0;
    for text in crate::engine::bench::SOLVER_POSITIONS
        .iter()
        .chain([&crossing])
    {
        let board = Board::from_turns(text).unwrap();
        let mut stones = board.as_stones().clone();
        let attacker = stones.side_to_move();
        let mut solver = Solver::new(1 << 14);
        let verdict = solver.solve(&stones, SolveLimits::new(11, 400_000, None));
        assert!(matches!(verdict, Verdict::Win(_)), "{text}: {verdict:?}");
        let length = solver.last_proof().length;
        let mut replayed = 0;
        replay(&mut stones, attacker, length, &mut replayed);
        assert_eq!(
            &stones,
            board.as_stones(),
            "the replay put every stone back"
        );
        total += replayed;
    }
    assert!(total > 50, "only {total} positions replayed");
}

/// The defence's replies go highest score first, equal scores in the order they came (as the
/// stable sort they replaced did), each score read once.
#[test]
fn replies_are_ordered_by_score_and_keep_their_order_among_equals() {
    let mut rng = crate::rng::Rng::new(5);
    for _ in 0..200 {
        let mut replies = ArrayVec::<(u32, usize), 12>::new();
        for i in 0..rng.below(13) {
            replies.push((rng.below(4) as u32, i));
        }
        let mut expected = replies.clone();
        expected.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        let mut reads = 0;
        most_spoiling_first(&mut replies, |&(score, _)| {
            reads += 1;
            score
        });
        assert_eq!(replies, expected);
        assert_eq!(reads, replies.len());
    }
}

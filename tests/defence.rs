//! The defence suite (`tests/data/defence-suite.txt`) on positions from the lost games: it
//! parses, and it holds the openings where the game's turn let the opponent win by a threat
//! sequence, a fact a fresh long solve confirms.

use connect6::engine::bench::defence::{JUDGE_NODES, Played, judge, parse_defence_suite};
use connect6::rules::board::Board;
use connect6::rules::coord::Turn;

/// Openings of lost games, each with the turn the game played there (which loses).
const LOST_THERE: [(&str, &str); 4] = [
    ("JJ HJII JHJI JLIK", "IHGI"),
    ("JJ HIIK IIKK LLHJ", "KIJL"),
    ("JJ KKLJ IIMK LILH", "LFNH"),
    ("JJ HJLJ HHII KKJL", "GGGI"),
];

#[test]
fn the_suite_holds_these_positions_with_their_losing_turns() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/defence-suite.txt");
    let text = std::fs::read_to_string(&path).expect("the defence suite is in the repository");
    let suite = parse_defence_suite(&text).expect("the suite parses");
    assert!(suite.len() >= 500, "{} positions", suite.len());
    for (stones, played) in LOST_THERE {
        let board = Board::from_turns(stones).expect("legal");
        let found = suite
            .iter()
            .find(|p| p.board.hash() == board.hash())
            .unwrap_or_else(|| panic!("{stones} is in the suite"));
        assert_eq!(found.played.to_string(), played);
        assert_eq!(found.after, Played::Loses, "{stones}");
        let losing = Turn::parse(played).expect("a turn");
        assert_eq!(
            judge(&board, &losing, JUDGE_NODES),
            Played::Loses,
            "{stones} {played}"
        );
    }
}

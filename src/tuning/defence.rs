//! Making a defence suite (`connect6 tune defence-suite`): every quiet position of some
//! games (no threat window on the board, so the engine asks the null-move question there)
//! where the side not to move would win by a threat sequence if it had the move, found by a
//! long solve, with the turn the game played there and what a long solve says of it. The
//! suite is what `connect6 bench --defence-suite` measures the defence on.

use crate::engine::bench::defence::{DefencePosition, FIELDS, judge, long_solve};
use crate::engine::solver::Verdict;
use crate::engine::tunables::ROOT_THREAT_DEPTH;
use crate::record::files::record_files;
use crate::record::game::Game;
use crate::rules::board::Board;
use crate::rules::stones::PlaceTurn;
use std::path::PathBuf;
use std::time::Instant;

/// Node cap of each long solve, unless told.
pub const DEFAULT_NODES: u64 = 200_000;

/// The suite lines of one game, in turn order: a quiet position before each turn where the
/// side not to move threatens a win. (Where it has a threat window already, the defender
/// must block it and the engine asks no null-move question.)
pub fn game_positions(game: &Game, source: &str, nodes: u64) -> Vec<String> {
    let mut lines = Vec::new();
    let mut board = Board::new();
    let mut stones: Vec<String> = Vec::new();
    for (index, played) in game.turns.iter().enumerate() {
        let defender = board.side_to_move();
        let legal = board.check_turn(&played.turn).is_ok() && played.color == defender;
        if index > 0
            && legal
            && !board.is_over()
            && !board.has_threat_window(defender)
            && !board.has_threat_window(defender.other())
            && let Verdict::Win(threat) = long_solve(&board, defender.other(), nodes)
        {
            let position = DefencePosition {
                name: format!("{source} {}", index + 1),
                threat,
                played: played.turn,
                after: judge(&board, &played.turn, nodes),
                board: board.clone(),
            };
            lines.push(position.line(&stones.join(" ")));
        }
        if !legal {
            break; // a record's last single stone: a game decided by time or fault
        }
        board.place_turn(&played.turn, played.color);
        stones.push(played.turn.to_string());
    }
    lines
}

/// The suite of the records in `paths` (files, or folders of `*.txt` records), with a header
/// saying how it was made; and how many positions it holds.
pub fn defence_suite(paths: &[PathBuf], nodes: u64) -> Result<(String, usize), String> {
    let mut body = Vec::new();
    for path in record_files(paths)? {
        let game = Game::read_record(&path)?;
        let source = path
            .file_name()
            .map(|n| n.to_string_lossy().replace('\t', " "))
            .unwrap_or_default();
        body.extend(game_positions(&game, &source, nodes));
    }
    let header = format!(
        "# Defence suite: quiet positions (no threat window) where the side not to move would win\n\
         # by a threat sequence if it had the move (a fresh solver, {nodes} nodes, {ROOT_THREAT_DEPTH} attacker turns).\n\
         # Made by `connect6 tune defence-suite` from the games named in the first field.\n\
         # Fields: {}.\n\
         # `threat` is the win's first turn; `after` is what the same solve says of the\n\
         # position after the turn the game played.\n",
        FIELDS.join(", ")
    );
    let count = body.len();
    Ok((format!("{header}{}\n", body.join("\n")), count))
}

#[derive(clap::Args, Debug, Clone)]
pub struct DefenceSuiteArgs {
    /// Record files in the competition format, or folders of them.
    #[arg(required = true, value_name = "PATH")]
    pub records: Vec<PathBuf>,
    /// The suite file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Solver nodes of each long solve.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_NODES,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
}

/// `tune defence-suite`: writes the defence suite of the records.
pub fn defence_suite_file(a: &DefenceSuiteArgs) -> Result<(), String> {
    let began = Instant::now();
    let (text, count) = defence_suite(&a.records, a.nodes)?;
    std::fs::write(&a.out, text).map_err(|e| format!("{}: {e}", a.out.display()))?;
    println!(
        "{count} positions in {} ({:.1}s)",
        a.out.display(),
        began.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bench::defence::{Played, parse_defence_suite};

    #[test]
    fn a_game_gives_the_positions_before_turns_that_face_a_threat() {
        // Black builds a double four while white plays on the edge; black wins at turn 8.
        let game = Game::load(&["JJ AACB JKJL SSQR LNMN ASCR NNSA AQCQ".to_string()])
            .expect("a stone list");
        let text = game_positions(&game, "g", 20_000).join("\n");
        let suite = parse_defence_suite(&text).expect("the lines parse back");
        assert!(!suite.is_empty());
        for p in &suite {
            let attacker = p.board.side_to_move().other();
            assert!(matches!(
                long_solve(&p.board, attacker, 20_000),
                Verdict::Win(_)
            ));
        }
        // Before white's last edge turn black threatens, and that turn does not stop it.
        let last = suite.last().expect("a position");
        assert_eq!(last.name, "g 8");
        assert_eq!(last.after, Played::Loses);
        // Nothing is threatened after the first turn.
        assert!(suite.iter().all(|p| p.name != "g 2"));
    }
}

//! Finished games as fitting data: the match records `connect6 match --records` writes,
//! kept one game a line, and the positions they pass through, labelled with the result.
//!
//! Games between different engines at match time controls label positions better than
//! short, node-limited self-play games: a fit on these predicts results better and plays
//! stronger (see `TO_MOVE_PATTERN` in `tunables.rs` and docs/experiments.md, 2026-12-01).
//!
//! A games file has `#` comment lines, then one game a line: its result for black (`1` black
//! won, `0` white won, `0.5` a draw, though draws are left out of records' games files) and
//! its turns from the empty board:
//!
//! ```text
//! 1 JJ GLHM FKHL KKLL
//! ```
//!
//! A turn may carry the score the searching side gave the position before it, from its own
//! view, in the evaluation's points (beyond the search's win bound, a proven win or loss):
//! `IMGN:-35`. `tune selfplay` writes them for the engine's turns; the evaluation's fit
//! can blend them into its labels (`tune eval --blend`).
//!
//! A `/` among the turns marks the end of an opening that was not the engines' choice (the
//! random turns `tune selfplay` opens with); without one, the first three turns (the match
//! openings' length) are taken as the opening. Every position from the one after the
//! opening to the one before the game's last whole turn is a sample for the evaluation,
//! labelled for its side to move; the ranking's fit learns from every turn after a marked
//! opening, or from every turn.

use super::fit::Sample;
use super::is_quiet;
use crate::record::RecordResult;
use crate::record::game::Game;
use crate::rules::board::{Board, Color};
use crate::rules::coord::Turn;
use std::path::PathBuf;

/// Positions before this many turns are not samples: they are the match openings, which
/// the openings file dictates rather than the engines.
pub const FIRST_SAMPLED_TURN: usize = 3;

/// A game's line in a games file; `None` for a record without whole turns after the
/// opening, and for a draw: between engines a draw is a full board, whose 180 turns would
/// weigh seven times a decisive game and say little about who stood better early on.
pub fn game_line(game: &Game) -> Option<String> {
    let result = match game.result? {
        RecordResult::BlackWins => "1",
        RecordResult::WhiteWins => "0",
        RecordResult::Draw => return None,
    };
    let whole = whole_turns(game.turns.iter().map(|p| p.turn));
    if whole.len() <= FIRST_SAMPLED_TURN {
        return None;
    }
    let turns: Vec<String> = whole.iter().map(|t| t.to_protocol(false)).collect();
    Some(format!("{result} {}", turns.join(" ")))
}

/// The turns up to the last whole one: a record may end with one stone of a turn (a six
/// made with the first stone, or a game decided by time or a fault).
fn whole_turns(turns: impl Iterator<Item = Turn>) -> Vec<Turn> {
    let mut whole: Vec<Turn> = turns.collect();
    if whole.len() > 1 && whole.last().is_some_and(|t| t.len() == 1) {
        whole.pop();
    }
    whole
}

/// The games file of the records in `paths` (files, or folders of `*.txt` records), in the
/// order given, with a header naming how many games it holds.
pub fn games_file(paths: &[PathBuf]) -> Result<(String, usize), String> {
    let mut lines = Vec::new();
    for path in crate::record::files::record_files(paths)? {
        let game = Game::read_record(&path)?;
        lines.extend(game_line(&game));
    }
    let mut text = format!(
        "# {} games from match records: result for black (1, 0, 0.5), then the turns\n",
        lines.len()
    );
    for line in &lines {
        text.push_str(line);
        text.push('\n');
    }
    Ok((text, lines.len()))
}

/// One game of a games file: its result for black and its turns, legal in order.
#[derive(Clone, Debug, PartialEq)]
pub struct GameTurns {
    pub black_result: f64,
    pub turns: Vec<Turn>,
    /// Turns before the file's `/` marker (0 without one).
    pub opening: usize,
    /// Per turn, the score the file gives the position before it, for its mover.
    pub scores: Vec<Option<i32>>,
}

impl GameTurns {
    /// The first turn whose position is an evaluation sample.
    pub fn first_sampled(&self) -> usize {
        self.opening.max(FIRST_SAMPLED_TURN)
    }

    /// The game's line in a games file: its result, its turns with the opening's marker
    /// (when it has one) and their scores, as `read_game_turns` reads them.
    pub fn line(&self) -> String {
        let result = if self.black_result == 1.0 {
            "1"
        } else if self.black_result == 0.0 {
            "0"
        } else {
            "0.5"
        };
        let mut words = vec![result.to_string()];
        for (k, turn) in self.turns.iter().enumerate() {
            if k == self.opening && self.opening > 0 {
                words.push("/".to_string());
            }
            let turn = turn.to_protocol(false);
            words.push(match self.scores.get(k).copied().flatten() {
                Some(score) => format!("{turn}:{score}"),
                None => turn,
            });
        }
        if self.opening == self.turns.len() && self.opening > 0 {
            words.push("/".to_string());
        }
        words.join(" ")
    }

    /// The game's result for `color`: 1 a win, 0 a loss, 0.5 a draw.
    pub fn result_for(&self, color: Color) -> f64 {
        match color {
            Color::Black => self.black_result,
            Color::White => 1.0 - self.black_result,
        }
    }
}

/// The games of a games file, each replayed under the rules; an error names the line.
pub fn read_game_turns(text: &str) -> Result<Vec<GameTurns>, String> {
    let mut games = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fail = |e: String| format!("line {}: {e}", n + 1);
        let mut words = line.split_whitespace();
        let black_result = match words.next() {
            Some("1") => 1.0,
            Some("0") => 0.0,
            Some("0.5") => 0.5,
            other => return Err(fail(format!("result {other:?} is not 1, 0 or 0.5"))),
        };
        let mut board = Board::new();
        let mut turns = Vec::new();
        let mut scores = Vec::new();
        let mut opening = None;
        for word in words {
            if word == "/" {
                if opening.replace(turns.len()).is_some() {
                    return Err(fail("a second opening marker '/'".to_string()));
                }
                continue;
            }
            let (turn_text, score) = match word.split_once(':') {
                Some((turn, score)) => {
                    let score = score.parse::<i32>().map_err(|_| {
                        fail(format!("{word}: the score {score:?} is not a whole number"))
                    })?;
                    (turn, Some(score))
                }
                None => (word, None),
            };
            let turn = Turn::parse(turn_text).map_err(|e| fail(format!("{word}: {e}")))?;
            board
                .play_turn(&turn)
                .map_err(|e| fail(format!("{word}: {e}")))?;
            turns.push(turn);
            scores.push(score);
        }
        games.push(GameTurns {
            black_result,
            turns,
            opening: opening.unwrap_or(0),
            scores,
        });
    }
    Ok(games)
}

/// The quiet positions of a games file as fitting samples (each game numbered from 1 in file
/// order, which the held-out split goes by), and how many positions were not quiet.
pub fn read_games(text: &str) -> Result<(Vec<Sample>, usize), String> {
    let mut samples = Vec::new();
    let mut skipped = 0;
    for (game, turns) in (1..).zip(read_game_turns(text)?) {
        let mut board = Board::new();
        for (k, turn) in turns.turns.iter().enumerate() {
            if k >= turns.first_sampled() {
                if is_quiet(&board) {
                    let result = turns.result_for(board.side_to_move());
                    samples.push(Sample::new(game, result, &board));
                } else {
                    skipped += 1;
                }
            }
            board
                .play_turn(turn)
                .expect("read_game_turns replayed the game");
        }
    }
    Ok((samples, skipped))
}

#[derive(clap::Args, Debug, Clone)]
pub struct RecordsArgs {
    /// Record files in the competition format, or folders of them.
    #[arg(required = true, value_name = "PATH")]
    pub records: Vec<PathBuf>,
    /// The games file to write.
    #[arg(long, value_name = "GAMES")]
    pub out: PathBuf,
}

/// `tune records`: writes the games of the records as a games file.
pub fn records(a: &RecordsArgs) -> Result<(), String> {
    let (text, count) = games_file(&a.records)?;
    std::fs::write(&a.out, text).map_err(|e| format!("{}: {e}", a.out.display()))?;
    println!("{count} games in {}", a.out.display());
    Ok(())
}

/// The games of games files, in order.
pub fn read_games_files(paths: &[PathBuf]) -> Result<Vec<GameTurns>, String> {
    let mut games = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        games.extend(read_game_turns(&text).map_err(|e| format!("{}: {e}", path.display()))?);
    }
    Ok(games)
}

/// The self-play files after the second, by name: the ranking's fit reads them
/// (`tune policy`, docs/tuning.md), and the next refits of the rest will.
#[cfg(test)]
pub(super) const LATER_SELF_PLAY: [(&str, &str); 3] = [
    (
        "selfplay-games-3",
        include_str!("../../tests/data/selfplay-games-3.txt"),
    ),
    (
        "selfplay-games-4",
        include_str!("../../tests/data/selfplay-games-4.txt"),
    ),
    (
        "selfplay-games-5",
        include_str!("../../tests/data/selfplay-games-5.txt"),
    ),
];

/// Self-play files no fit reads yet, kept for the next refits (docs/tuning.md).
#[cfg(test)]
pub(super) const UNFITTED_SELF_PLAY: [(&str, &str); 11] = [
    (
        "selfplay-games-6",
        include_str!("../../tests/data/selfplay-games-6.txt"),
    ),
    (
        "selfplay-games-7",
        include_str!("../../tests/data/selfplay-games-7.txt"),
    ),
    (
        "selfplay-games-8",
        include_str!("../../tests/data/selfplay-games-8.txt"),
    ),
    (
        "selfplay-games-9",
        include_str!("../../tests/data/selfplay-games-9.txt"),
    ),
    (
        "selfplay-games-10",
        include_str!("../../tests/data/selfplay-games-10.txt"),
    ),
    (
        "selfplay-games-11",
        include_str!("../../tests/data/selfplay-games-11.txt"),
    ),
    (
        "selfplay-games-12",
        include_str!("../../tests/data/selfplay-games-12.txt"),
    ),
    (
        "selfplay-games-13",
        include_str!("../../tests/data/selfplay-games-13.txt"),
    ),
    (
        "selfplay-games-14",
        include_str!("../../tests/data/selfplay-games-14.txt"),
    ),
    (
        "selfplay-games-15",
        include_str!("../../tests/data/selfplay-games-15.txt"),
    ),
    (
        "selfplay-games-16",
        include_str!("../../tests/data/selfplay-games-16.txt"),
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::game::Played;

    /// The tables in `tunables.rs` are what the fit makes of the match games.
    #[test]
    fn the_engines_tables_are_the_fit_of_the_match_games() {
        let text = include_str!("../../tests/data/fit-games.txt");
        let (samples, skipped) = read_games(text).unwrap();
        assert_eq!((samples.len(), skipped), (140_802, 140_219));
        let report = crate::tuning::fit::run_fit(
            &samples,
            crate::tuning::HOLDOUT_EVERY,
            crate::tuning::fit::LAMBDA,
            Some(crate::tuning::fit::ENGINE_TABLE_K),
        );
        assert_eq!(
            report.weights.rounded(),
            crate::tuning::fit::TunedTables::current()
        );
        assert!(
            report.test_after < 0.555,
            "held-out log loss {}",
            report.test_after
        );
    }

    #[test]
    fn a_game_gives_its_quiet_positions_labelled_for_the_side_to_move() {
        // Black wins game 1, white game 2. Game 1's position after four turns holds white's
        // four in column A (a threat window): not quiet. The last turns are not sampled.
        let text = "# header\n1 JJ AAAB KJLJ ACAD MJNJ\n\n0 JJ KKLL MMNN OOPP\n";
        let (samples, skipped) = read_games(text).unwrap();
        let board = |turns: &str| Board::from_turns(turns).unwrap();
        let expect = [
            // After three turns white is to move, and loses.
            Sample::new(1, 0.0, &board("JJ AAAB KJLJ")),
            Sample::new(2, 1.0, &board("JJ KKLL MMNN")),
        ];
        assert_eq!(samples, expect);
        assert_eq!(skipped, 1);
        assert!(read_games("2 JJ").is_err(), "result");
        assert!(read_games("1 JJ JJKK").is_err(), "occupied cell");
    }

    #[test]
    fn a_record_becomes_one_line_without_its_broken_last_turn() {
        // A record that ends with one stone of black's fifth turn.
        let mut game = Game::from_stone_list("JJ GLHM FKHL KKLL").unwrap();
        game.turns.push(Played {
            color: Color::Black,
            turn: Turn::one(crate::rules::coord::parse_cell("MM").unwrap()),
        });
        game.result = Some(RecordResult::WhiteWins);
        assert_eq!(game_line(&game).unwrap(), "0 JJ GLHM FKHL KKLL");
        let short = Game {
            result: Some(RecordResult::BlackWins),
            ..Game::from_stone_list("JJ GLHM FKHL").unwrap()
        };
        assert_eq!(game_line(&short), None, "nothing after the opening");
        let unknown = Game::from_stone_list("JJ GLHM FKHL KKLL").unwrap();
        assert_eq!(game_line(&unknown), None, "a stone list has no result");
        let drawn = Game {
            result: Some(RecordResult::Draw),
            ..unknown
        };
        assert_eq!(game_line(&drawn), None, "draws are left out");
    }

    /// The later self-play files (read by the ranking's fit, or by no fit yet, kept for the
    /// next refits): every game reads, replays legally, and ends in a six for the side its
    /// result names.
    #[test]
    fn the_later_self_play_files_replay_to_their_results() {
        use crate::rules::board::Color;
        for (name, text) in LATER_SELF_PLAY.into_iter().chain(UNFITTED_SELF_PLAY) {
            let games = read_game_turns(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(games.len() > 250, "{name}: {} games", games.len());
            for (n, game) in games.iter().enumerate() {
                let mut board = Board::new();
                for turn in &game.turns {
                    board.play_turn(turn).expect("read_game_turns replayed it");
                }
                let expected = if game.black_result == 1.0 {
                    Color::Black
                } else {
                    Color::White
                };
                assert_eq!(board.winner(), Some(expected), "{name}, game {}", n + 1);
            }
        }
    }

    #[test]
    fn a_marked_opening_is_not_sampled() {
        let text = "1 JJ GLHM FKHL KKLL / MMNN AAAB\n0 JJ GLHM FKHL KKLL MMNN AAAB\n";
        let games = read_game_turns(text).unwrap();
        assert_eq!(games[0].turns, games[1].turns, "the marker is not a turn");
        assert_eq!((games[0].opening, games[0].first_sampled()), (4, 4));
        assert_eq!(
            (games[1].opening, games[1].first_sampled()),
            (0, FIRST_SAMPLED_TURN)
        );
        let (samples, skipped) = read_games(text).unwrap();
        // Positions after turns 4 and 5 from the first game; after 3, 4 and 5 from the second.
        assert_eq!(samples.len() + skipped, 2 + 3);
        assert!(
            read_game_turns("1 JJ / GLHM / FKHL").is_err(),
            "two markers"
        );
    }

    #[test]
    fn a_turn_may_carry_its_score() {
        let games = read_game_turns("1 JJ GLHM FKHL / KKLL:-35 MMNN:999001 AAAB\n").unwrap();
        assert_eq!(
            games[0].scores,
            [None, None, None, Some(-35), Some(999_001), None]
        );
        let plain = read_game_turns("1 JJ GLHM FKHL / KKLL MMNN AAAB\n").unwrap();
        assert_eq!(
            games[0].turns, plain[0].turns,
            "a score is not part of the turn"
        );
        assert_eq!(plain[0].scores, [None; 6]);
        for bad in ["1 JJ GLHM:x", "1 JJ GLHM:", "1 JJ GLHM:1.5", "1 JJ:3:4"] {
            let error = read_game_turns(bad).unwrap_err();
            assert!(error.starts_with("line 1: "), "{bad}: {error}");
        }
    }

    #[test]
    fn records_needs_a_path_and_an_out() {
        use crate::tuning::args::tests::{parse, refused};
        let r: RecordsArgs = parse("a b --out g").unwrap();
        assert_eq!((r.records.len(), r.out), (2, PathBuf::from("g")));
        refused::<RecordsArgs>(&["--out g", "a"]);
    }
}

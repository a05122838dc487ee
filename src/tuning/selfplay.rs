//! `connect6 tune selfplay`: the engine against itself, written as a games file for the
//! learned ranking and evaluation to be fitted on (`tune policy`, `tune eval`).
//!
//! Every turn after the opening is the engine's own search under a node limit, so a game is
//! a pure function of the settings and its index, whatever the machine's speed or the
//! number of worker threads. Even-numbered games start from the openings file (the match
//! openings, in turn) followed by `RANDOM_TURNS` pairs drawn from the move generator's best
//! `spread`; odd-numbered ones from a seeded random opening as `openings` draws them, as long.
//! Each side's node limit is also drawn per game, between three quarters and five quarters of
//! the one asked for, so that the search stops at other points and its turns part ways.
//! The opening ends with the games file's `/` marker: its random turns are not the engine's
//! choice, so the fits do not learn from them.
//!
//! Games are written in index order as they finish, a whole line at a time, so a stopped run
//! leaves a usable file, and each is in the journal the moment it finishes (`batch`: shards,
//! resuming, progress). Draws (a full board) are left out, as `tune records` leaves them, and
//! so is a game that repeats one already written.

use super::args::BatchArgs;
use super::batch::{self, Batch, BatchError, Progress};
use super::games::GameTurns;
use super::openings::{SPREAD, generated_pair, random_opening};
use super::{game_rng, node_limits};
use crate::engine::eval::WIN_BOUND;
use crate::engine::models::Models;
use crate::engine::search::Searcher;
use crate::pool::Flow;
use crate::pool::Shard;
use crate::rng::Rng;
use crate::rules::board::{Board, Color};
use crate::rules::coord::Turn;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Random turns after an opening from the file: with the generator's best 8 pairs and the
/// 102 match openings, some 6,500 starts.
const RANDOM_TURNS: usize = 2;
/// Hash table of each game's searcher: a fresh one per game keeps games independent.
const HASH_MB: usize = 16;

#[derive(Clone, Debug)]
pub struct SelfPlayConfig {
    pub games: usize,
    pub seed: u64,
    /// Main-search nodes per turn, before each side's per-game draw.
    pub nodes: u64,
    /// The random openings' third turns come from the move generator's best `spread` pairs.
    pub spread: usize,
    /// Openings that even-numbered games start from, in turn (none: all random).
    pub openings: Vec<Vec<Turn>>,
    pub threads: usize,
    /// The ranking and evaluation both sides play with.
    pub models: Models,
}

/// A finished game: its turns from the empty board, how many of them are the opening, and
/// its winner (`None`: a full board).
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame {
    pub turns: Vec<Turn>,
    pub opening: usize,
    /// The search's score of each of the engine's turns (after the opening), for its mover;
    /// `None` where nothing was searched (a forced turn).
    pub scores: Vec<Option<i32>>,
    pub winner: Option<Color>,
}

impl PlayedGame {
    /// The game as a games file has it, a draw's result 0.5.
    pub fn game_turns(&self) -> GameTurns {
        let black_result = match self.winner {
            Some(Color::Black) => 1.0,
            Some(Color::White) => 0.0,
            None => 0.5,
        };
        let mut scores = vec![None; self.opening.min(self.turns.len())];
        scores.extend(&self.scores);
        GameTurns {
            black_result,
            turns: self.turns.clone(),
            opening: self.opening,
            scores,
        }
    }
}

/// `game_rng`'s stride for the node limits (its own, so they do not follow the openings'
/// draws of `openings` for the same seed and index).
const RNG_STRIDE: u64 = 0x9E37_79B9_7F4A_7C15;

/// Game `index`'s opening turns and each colour's node limit.
fn setup(config: &SelfPlayConfig, index: u64) -> (Vec<Turn>, [u64; 2]) {
    let mut rng = game_rng(config.seed, index, RNG_STRIDE);
    let quarter = (config.nodes / 4).max(1);
    let draw = |rng: &mut Rng| 3 * quarter + rng.below(2 * quarter as usize + 1) as u64;
    let nodes = [draw(&mut rng), draw(&mut rng)];
    let opening = if index.is_multiple_of(2) && !config.openings.is_empty() {
        let mut turns = config.openings[(index / 2) as usize % config.openings.len()].clone();
        let mut board = Board::new();
        for turn in &turns {
            board
                .play_turn(turn)
                .expect("openings are checked against the rules when loaded");
        }
        for _ in 0..RANDOM_TURNS {
            if board.is_over() {
                break;
            }
            let turn = generated_pair(&config.models.ranking, &board, &mut rng, config.spread);
            board.play_turn(&turn).expect("generated pairs are legal");
            turns.push(turn);
        }
        turns
    } else {
        random_opening(
            &config.models.ranking,
            config.seed,
            config.spread,
            index,
            2 + RANDOM_TURNS,
        )
    };
    (opening, nodes)
}

/// Plays game `index` of the configuration to its end.
pub fn play(config: &SelfPlayConfig, index: u64) -> PlayedGame {
    let (opening, nodes) = setup(config, index);
    let mut board = Board::new();
    for turn in &opening {
        board
            .play_turn(turn)
            .expect("openings are checked against the rules when loaded");
    }
    let opening_length = opening.len();
    let mut turns = opening;
    let mut scores = Vec::new();
    let mut searcher = Searcher::with_models(HASH_MB, config.models.clone());
    while !board.is_over() {
        let limits = node_limits(nodes[board.side_to_move().index()]);
        let report = searcher.search(&board, limits);
        board
            .play_turn(&report.best)
            .expect("the search plays legal turns");
        turns.push(report.best);
        let searched = report.depth > 0 || report.score.abs() > WIN_BOUND;
        scores.push(searched.then_some(report.score));
    }
    PlayedGame {
        turns,
        opening: opening_length,
        scores,
        winner: board.winner(),
    }
}

/// What a run produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SelfPlaySummary {
    pub games: usize,
    pub black_wins: usize,
    pub white_wins: usize,
    pub draws: usize,
    /// Decisive games left out because an earlier one was the same.
    pub repeats: usize,
    pub turns: usize,
}

/// A games file's game's winner (`None`: a draw).
fn game_winner(game: &GameTurns) -> Option<Color> {
    [Color::Black, Color::White]
        .into_iter()
        .find(|&c| game.result_for(c) == 1.0)
}

/// The games file's header: how its games were made.
pub fn header(config: &SelfPlayConfig) -> String {
    format!(
        "# connect6 self-play games: {} games, seed {}, nodes {} (each side 3/4 to 5/4 of it), \
         spread {}, {} openings from a file\n\
         # result for black (1, 0), then the turns; '/' ends the opening, and each later \
         turn carries the search's score for its mover (TURN:SCORE)\n",
        config.games,
        config.seed,
        config.nodes,
        config.spread,
        config.openings.len()
    )
}

/// Plays the configuration's games (or those of its shard) on its worker threads and writes
/// each decisive one to the games file `out`, in index order, after the header; resumes from
/// the journal a stopped run with the same settings and `inputs` (fingerprint) left. Returns
/// what the games were, resumed ones included, and whether all are written.
pub fn self_play(
    config: &SelfPlayConfig,
    shard: Option<Shard>,
    out: &Path,
    inputs: u64,
    progress: impl FnMut(&Progress) -> Flow,
) -> Result<(SelfPlaySummary, bool), BatchError> {
    let batch = Batch {
        header: header(config),
        total: config.games,
        shard,
        out,
        inputs,
        threads: config.threads,
        repeats_left_out: true,
    };
    let mut summary = SelfPlaySummary::default();
    // Games already written, by their turns alone (a repeat's scores may differ).
    let mut seen = HashSet::new();
    let play_one = |index: usize| play(config, index as u64).game_turns();
    let write = |out: &mut dyn Write, game: GameTurns| {
        summary.games += 1;
        summary.turns += game.turns.len();
        let winner = game_winner(&game);
        match winner {
            Some(Color::Black) => summary.black_wins += 1,
            Some(Color::White) => summary.white_wins += 1,
            None => summary.draws += 1,
        }
        if winner.is_some() {
            if seen.insert(game.turns.clone()) {
                writeln!(out, "{}", game.line())?;
            } else {
                summary.repeats += 1;
            }
        }
        Ok(())
    };
    let complete = batch::play_games(&batch, play_one, write, progress)?;
    Ok((summary, complete))
}

#[derive(clap::Args, Debug, Clone)]
pub struct SelfPlayArgs {
    /// How many games to play.
    #[arg(value_name = "N")]
    pub games: usize,
    /// The games file to write.
    #[arg(long, value_name = "GAMES")]
    pub out: PathBuf,
    /// Main-search nodes per turn; each side of a game gets 3/4 to 5/4 of it.
    #[arg(long, value_name = "N", default_value_t = 100_000,
          value_parser = clap::value_parser!(u64).range(4..))]
    pub nodes: u64,
    /// Openings for the even-numbered games, in turn (odd ones open at random).
    #[arg(long, value_name = "FILE", default_value = "tests/data/openings.txt")]
    pub openings: PathBuf,
    /// Seed of the random openings and node limits.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// The random openings' third turns come from the move generator's best K pairs.
    #[arg(long, value_name = "K", default_value_t = SPREAD)]
    pub spread: usize,
    /// Threads and shards.
    #[command(flatten)]
    pub batch: BatchArgs,
    /// The ranking and evaluation both sides play with.
    #[command(flatten)]
    pub models: crate::engine::models::ModelArgs,
}

/// `tune selfplay`: plays the self-play games and writes them as a games file.
pub fn self_play_file(a: &SelfPlayArgs) -> Result<(), String> {
    let models = a.models.load()?;
    let openings = crate::record::openings::load(&a.openings).map_err(|e| e.to_string())?;
    let threads = a.batch.threads();
    let config = SelfPlayConfig {
        games: a.games,
        seed: a.seed,
        nodes: a.nodes,
        spread: a.spread,
        openings: openings.into_iter().map(|o| o.turns).collect(),
        threads,
        models,
    };
    // What the header does not say: the openings' turns and the models.
    let inputs = batch::fingerprint(
        config
            .openings
            .iter()
            .map(|o| {
                o.iter()
                    .map(|t| t.to_protocol(false))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .chain([format!("{:?}", a.models)]),
    );
    let out = a.out.display();
    let began = Instant::now();
    let (summary, _) = self_play(
        &config,
        a.batch.shard,
        &a.out,
        inputs,
        batch::reporter("selfplay"),
    )
    .map_err(|e| e.to_string())?;
    println!(
        "{} games ({} turns; black won {}, white {}, drawn {}; {} repeats left out) in {} \
         ({:.1} s)",
        summary.games,
        summary.turns,
        summary.black_wins,
        summary.white_wins,
        summary.draws,
        summary.repeats,
        out,
        began.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tuning::games::read_game_turns;

    fn opening() -> Vec<Turn> {
        ["JJ", "KIKK", "IIHH"]
            .iter()
            .map(|t| Turn::parse(t).unwrap())
            .collect()
    }

    /// Debug builds check every incremental update: tiny searches keep the test quick.
    fn config(games: usize, threads: usize) -> SelfPlayConfig {
        SelfPlayConfig {
            games,
            seed: 5,
            nodes: 120,
            spread: 6,
            openings: vec![opening()],
            threads,
            models: Models::embedded(),
        }
    }

    /// Plays the configuration into a fresh file and returns the file's text.
    fn played(config: &SelfPlayConfig, name: &str) -> (String, SelfPlaySummary, usize) {
        let dir = std::env::temp_dir().join(format!("c6-selfplay-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join(name);
        let mut calls = 0;
        let (summary, complete) = self_play(config, None, &out, 0, |_| {
            calls += 1;
            Flow::Continue
        })
        .unwrap();
        assert!(complete && !batch::journal_path(&out).exists());
        (std::fs::read_to_string(&out).unwrap(), summary, calls)
    }

    #[test]
    fn games_are_the_same_whatever_the_threads_and_read_back_as_a_games_file() {
        let (one, summary, _) = played(&config(4, 1), "one.txt");
        let (two, _, calls) = played(&config(4, 2), "two.txt");
        assert_eq!(one, two, "games are a function of their index alone");
        assert_eq!(calls, 4);
        assert_eq!(summary.games, 4);
        assert_eq!(summary.black_wins + summary.white_wins + summary.draws, 4);
        assert!(one.starts_with(&header(&config(4, 1))));

        let text = one;
        let games = read_game_turns(&text).unwrap();
        assert_eq!(games.len(), 4 - summary.draws - summary.repeats);
        for (i, game) in games.iter().enumerate() {
            let mut board = Board::new();
            for t in &game.turns {
                board.play_turn(t).unwrap();
            }
            assert!(board.is_over());
            let black_won = board.winner() == Some(Color::Black);
            assert_eq!(game.black_result, if black_won { 1.0 } else { 0.0 });
            // The opening, random turns included, is marked as such.
            if i % 2 == 0 {
                assert_eq!(game.turns[..3], opening()[..]);
                assert_eq!(game.opening, 3 + RANDOM_TURNS);
            } else {
                assert_ne!(game.turns[..3], opening()[..]);
                assert_eq!(game.opening, 2 + RANDOM_TURNS);
            }
            assert_eq!(game.first_sampled(), game.opening);
            // The engine's turns carry their scores, and none of the opening's does.
            assert!(game.scores[..game.opening].iter().all(Option::is_none));
            assert!(game.scores[game.opening..].iter().any(Option::is_some));
        }
    }

    #[test]
    fn each_side_searches_within_a_quarter_of_the_node_limit() {
        let config = SelfPlayConfig {
            nodes: 400,
            ..config(1, 1)
        };
        let mut seen = HashSet::new();
        for index in 0..40 {
            let (_, nodes) = setup(&config, index);
            assert!(nodes.iter().all(|&n| (300..=500).contains(&n)), "{nodes:?}");
            seen.extend(nodes);
        }
        assert!(seen.len() > 20, "the limits vary: {seen:?}");
    }
}

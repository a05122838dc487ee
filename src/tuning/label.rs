//! `connect6 tune label`: the engine's own score of every position a fit samples, written
//! back into a games file.
//!
//! A game's result labels each of its positions alike, whoever played them and however far
//! the game went on; the evaluations fitted to results alone predicted them better and
//! better without playing better. A search's score is what an evaluation should foresee:
//! `tune eval --blend B` mixes it into the label of each position that carries one. Self-play
//! games carry the scores their own search gave; this job gives any games file (the match
//! games, the records) the scores of a fixed-node search, the same for every position, so
//! the labels come from one engine at one strength.
//!
//! Every quiet position from the first sampled one (`GameTurns::first_sampled`) gets a fresh
//! search of `nodes` main-search nodes with an empty hash table, so a score is a function of
//! the position and the settings alone. Positions that are not quiet keep no score: the fits
//! never read them. Games are written in order as they finish, a whole line at a time, and
//! each is in the journal the moment it finishes (`batch`: shards, resuming, progress).

use super::args::BatchArgs;
use super::batch::{self, Batch, BatchError, Progress};
use super::games::GameTurns;
use super::games::read_games_files;
use super::{is_quiet, node_limits};
use crate::engine::eval::WIN_BOUND;
use crate::engine::models::Models;
use crate::engine::search::Searcher;
use crate::pool::Flow;
use crate::pool::Shard;
use crate::rules::board::Board;
use crate::rules::stones::PlaceTurn;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Hash table of each position's searcher.
const HASH_MB: usize = 4;

/// `game` with a fresh score for each position the fits sample, from a search of `nodes`
/// nodes; the others have none.
pub fn label_game(game: &GameTurns, nodes: u64, models: &Models) -> GameTurns {
    let mut board = Board::new();
    let mut scores = Vec::with_capacity(game.turns.len());
    for (k, turn) in game.turns.iter().enumerate() {
        let score = (k >= game.first_sampled() && is_quiet(&board)).then(|| {
            let report =
                Searcher::with_models(HASH_MB, models.clone()).search(&board, node_limits(nodes));
            (report.depth > 0 || report.score.abs() > WIN_BOUND).then_some(report.score)
        });
        scores.push(score.flatten());
        board.place_turn(turn, board.side_to_move());
    }
    GameTurns {
        scores,
        ..game.clone()
    }
}

/// The games file's header: how its scores were made.
pub fn header(nodes: u64) -> String {
    format!(
        "# connect6 games labelled by `tune label --nodes {nodes}`: each sampled quiet \
         position's score from a search of {nodes} nodes, for its mover (TURN:SCORE)\n"
    )
}

/// How a position is labelled: a search of `nodes` nodes playing with `models`.
pub struct Labeller<'a> {
    pub nodes: u64,
    pub models: &'a Models,
}

/// Labels `games` (or those of `shard`) on `threads` worker threads and writes each, in
/// order, to the games file `out` after the header; resumes from the journal a stopped run
/// with the same settings and `inputs` (fingerprint) left. Returns whether all are written.
pub fn label(
    games: &[GameTurns],
    labeller: &Labeller,
    threads: usize,
    shard: Option<Shard>,
    out: &Path,
    inputs: u64,
    progress: impl FnMut(&Progress) -> Flow,
) -> Result<bool, BatchError> {
    let Labeller { nodes, models } = *labeller;
    let batch = Batch {
        header: header(nodes),
        total: games.len(),
        shard,
        out,
        inputs,
        threads,
        repeats_left_out: false,
    };
    let label_one = |index: usize| label_game(&games[index], nodes, models);
    let write = |out: &mut dyn Write, game: GameTurns| writeln!(out, "{}", game.line());
    batch::play_games(&batch, label_one, write, progress)
}

#[derive(clap::Args, Debug, Clone)]
pub struct LabelArgs {
    /// Games files (`tune records`, `tests/data/fit-games.txt`).
    #[arg(required = true, value_name = "GAMES")]
    pub games: Vec<PathBuf>,
    /// The games file to write.
    #[arg(long, value_name = "GAMES")]
    pub out: PathBuf,
    /// Main-search nodes per position.
    #[arg(long, value_name = "N", default_value_t = 20_000,
          value_parser = clap::value_parser!(u64).range(4..))]
    pub nodes: u64,
    /// Threads and shards.
    #[command(flatten)]
    pub batch: BatchArgs,
    /// The ranking and evaluation the search plays with.
    #[command(flatten)]
    pub models: crate::engine::models::ModelArgs,
}

/// `tune label`: labels the games files' positions with a search's scores and writes them as
/// one file.
pub fn label_file(a: &LabelArgs) -> Result<(), String> {
    let models = a.models.load()?;
    let games = read_games_files(&a.games)?;
    // What the header does not say: the games and the models.
    let inputs = batch::fingerprint(
        games
            .iter()
            .map(GameTurns::line)
            .chain([format!("{:?}", a.models)]),
    );
    let began = Instant::now();
    let threads = a.batch.threads();
    let progress = batch::reporter("label");
    let labeller = Labeller {
        nodes: a.nodes,
        models: &models,
    };
    label(
        &games,
        &labeller,
        threads,
        a.batch.shard,
        &a.out,
        inputs,
        progress,
    )
    .map_err(|e| e.to_string())?;
    println!(
        "{} games labelled in {} ({:.1} s)",
        batch::shard_range(games.len(), a.batch.shard).len(),
        a.out.display(),
        began.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tuning::games::read_game_turns;

    fn read(path: &Path) -> String {
        std::fs::read_to_string(path).unwrap()
    }

    /// Every sampled quiet position gets the score a fresh search of it gives, the others
    /// none; the file reads back as the same games with those scores, whatever the threads.
    #[test]
    fn sampled_quiet_positions_get_a_fresh_searchs_score() {
        let text = "1 JJ KIKK IIHH KJLJ:5 HGGF MLNL ONPO\n0 JJ KKLL / MMNN OOPP IHGI\n";
        let games = read_game_turns(text).unwrap();
        let nodes = 150;
        let models = Models::embedded();
        let labeller = Labeller {
            nodes,
            models: &models,
        };
        let dir = std::env::temp_dir().join(format!("c6-label-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (one, two) = (dir.join("one.txt"), dir.join("two.txt"));
        assert!(label(&games, &labeller, 1, None, &one, 0, |_| Flow::Continue).unwrap());
        let mut calls = 0;
        let counted = |_: &Progress| {
            calls += 1;
            Flow::Continue
        };
        assert!(label(&games, &labeller, 2, None, &two, 0, counted).unwrap());
        let (one, two) = (read(&one), read(&two));
        assert_eq!(one, two);
        assert_eq!(calls, 2);
        assert!(one.starts_with(&header(nodes)));
        let labelled = read_game_turns(&one).unwrap();
        assert_eq!(labelled.len(), 2);
        let mut scored = 0;
        for (game, before) in labelled.iter().zip(&games) {
            assert_eq!(
                (&game.turns, game.opening, game.black_result),
                (&before.turns, before.opening, before.black_result)
            );
            let mut board = Board::new();
            for (k, turn) in game.turns.iter().enumerate() {
                if k >= game.first_sampled() && is_quiet(&board) {
                    let report = Searcher::new(HASH_MB).search(&board, node_limits(nodes));
                    assert_eq!(game.scores[k], Some(report.score), "turn {k}");
                    scored += 1;
                } else {
                    assert_eq!(game.scores[k], None, "turn {k}");
                }
                board.place_turn(turn, board.side_to_move());
            }
        }
        assert!(scored >= 4, "{scored}");
    }

    #[test]
    fn label_parses_with_its_defaults_and_refuses_bad_options() {
        use crate::tuning::args::tests::{parse, refused};
        let l: LabelArgs = parse("g h --out l.txt").unwrap();
        assert_eq!((l.games.len(), l.nodes, l.batch.threads), (2, 20_000, None));
        refused::<LabelArgs>(&[
            "g --out l.txt --nodes 2",
            "--out l.txt",
            "g --out l.txt --threads 0",
            "g --out l.txt --shard 3/2",
        ]);
        let sharded: LabelArgs = parse("g --out l.txt --threads 3 --shard 2/4").unwrap();
        let shard = sharded.batch.shard.unwrap();
        assert_eq!(
            (sharded.batch.threads(), shard.index, shard.count),
            (3, 2, 4)
        );
    }
}

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
//! never read them. Games are written in order as they finish, a whole line at a time.

use super::args::worker_threads;
use super::games::GameTurns;
use super::games::read_games_files;
use super::{is_quiet, node_limits};
use crate::engine::eval::WIN_BOUND;
use crate::engine::models::Models;
use crate::engine::search::Searcher;
use crate::rules::board::Board;
use crate::rules::stones::PlaceTurn;
use std::collections::BTreeMap;
use std::io::BufWriter;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
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

/// Labels `games` on `threads` worker threads and writes each, in order, to `out` as a
/// games-file line after a header saying how; `progress` is called with the games written.
pub fn label(
    games: &[GameTurns],
    nodes: u64,
    models: &Models,
    threads: usize,
    out: &mut impl Write,
    mut progress: impl FnMut(usize),
) -> io::Result<()> {
    writeln!(
        out,
        "# connect6 games labelled by `tune label --nodes {nodes}`: each sampled quiet \
         position's score from a search of {nodes} nodes, for its mover (TURN:SCORE)"
    )?;
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel();
    std::thread::scope(|scope| -> io::Result<()> {
        for _ in 0..threads.max(1) {
            let sender = sender.clone();
            let next = &next;
            scope.spawn(move || {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(game) = games.get(index) else {
                        break;
                    };
                    if sender
                        .send((index, label_game(game, nodes, models)))
                        .is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let mut waiting = BTreeMap::new();
        let mut written = 0;
        for (index, game) in receiver {
            waiting.insert(index, game);
            while let Some(game) = waiting.remove(&written) {
                writeln!(out, "{}", game.line())?;
                out.flush()?;
                written += 1;
                progress(written);
            }
        }
        Ok(())
    })?;
    out.flush()
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
    /// Games labelled at once [default: the machine's cores].
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: Option<u64>,
    /// The ranking and evaluation the search plays with.
    #[command(flatten)]
    pub models: crate::engine::models::ModelArgs,
}

/// `tune label`: labels the games files' positions with a search's scores and writes them as
/// one file.
pub fn label_file(a: &LabelArgs) -> Result<(), String> {
    let models = a.models.load()?;
    let games = read_games_files(&a.games)?;
    let out = a.out.display();
    let file = std::fs::File::create(&a.out).map_err(|e| format!("{out}: {e}"))?;
    let mut writer = BufWriter::new(file);
    let began = Instant::now();
    super::label::label(
        &games,
        a.nodes,
        &models,
        worker_threads(a.threads),
        &mut writer,
        |n| {
            if n % 100 == 0 {
                eprintln!("{n} games, {:.0} s", began.elapsed().as_secs_f64());
            }
        },
    )
    .map_err(|e| format!("{out}: {e}"))?;
    println!(
        "{} games labelled in {out} ({:.1} s)",
        games.len(),
        began.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tuning::games::read_game_turns;

    /// Every sampled quiet position gets the score a fresh search of it gives, the others
    /// none; the file reads back as the same games with those scores, whatever the threads.
    #[test]
    fn sampled_quiet_positions_get_a_fresh_searchs_score() {
        let text = "1 JJ KIKK IIHH KJLJ:5 HGGF MLNL ONPO\n0 JJ KKLL / MMNN OOPP IHGI\n";
        let games = read_game_turns(text).unwrap();
        let nodes = 150;
        let mut one = Vec::new();
        label(&games, nodes, &Models::embedded(), 1, &mut one, |_| {}).unwrap();
        let mut two = Vec::new();
        let mut calls = 0;
        label(&games, nodes, &Models::embedded(), 2, &mut two, |_| {
            calls += 1
        })
        .unwrap();
        assert_eq!(one, two);
        assert_eq!(calls, 2);
        let labelled = read_game_turns(&String::from_utf8(one).unwrap()).unwrap();
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
        assert_eq!((l.games.len(), l.nodes, l.threads), (2, 20_000, None));
        refused::<LabelArgs>(&["g --out l.txt --nodes 2", "--out l.txt"]);
    }
}

//! `connect6 tune book`: builds the opening book the engine embeds (`src/engine/book.bin`).
//!
//! The positions: the empty board (black's first stone); black's first stone on each cell
//! within `--first-radius` of `JJ` (white's reply); and `JJ` with every white pair whose
//! stones both lie within `--radius` of it (black's second turn), each shape once up to the
//! board's eight symmetries. Each is searched afresh by the engine with its embedded models
//! at a node limit, on one thread with its own table, so an entry is a function of its
//! position and the settings alone: the same command writes the same bytes on any machine,
//! whatever the order the workers finish in. The search's threat phases run inside it, so
//! a forced win the solver proves is the entry's turn, with a score beyond `WIN_BOUND`.

use super::args::worker_threads;
use super::batch::duration_text;
use super::node_limits;
use crate::engine::book::{Entry, Key, Settings, canonical, encode, transform_turn};
use crate::engine::models::Models;
use crate::engine::search::Searcher;
use crate::pool::{self, Flow};
use crate::rules::board::{Board, Color};
use crate::rules::coord::Cell;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The settings `src/engine/book.bin` was built with: `tune book`'s defaults.
pub const DEFAULTS: Settings = Settings {
    radius: 2,
    first_radius: 1,
    nodes: 8_000_000,
    reply_nodes: 16_000_000,
    hash_mb: 64,
};

#[derive(clap::Args, Debug, Clone)]
pub struct BookArgs {
    /// The book file to write (the engine embeds `src/engine/book.bin`).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Black's second turn after JJ and every white pair within R cells of it (1..=6).
    #[arg(long, value_name = "R", default_value_t = DEFAULTS.radius,
          value_parser = clap::value_parser!(u8).range(1..=6))]
    pub radius: u8,
    /// White's reply to black's first stone on each cell within R of JJ (0..=6).
    #[arg(long, value_name = "R", default_value_t = DEFAULTS.first_radius,
          value_parser = clap::value_parser!(u8).range(0..=6))]
    pub first_radius: u8,
    /// Main-search nodes for each black second turn.
    #[arg(long, value_name = "N", default_value_t = DEFAULTS.nodes,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Main-search nodes for black's first stone and for each white reply.
    #[arg(long, value_name = "N", default_value_t = DEFAULTS.reply_nodes,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub reply_nodes: u64,
    /// Transposition table of each search in MB (part of what the book is: it changes what a
    /// node limit finds).
    #[arg(long = "hash", value_name = "MB", default_value_t = DEFAULTS.hash_mb,
          value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub hash_mb: u32,
    /// Worker threads, one search each [default: one per core]. The book does not depend
    /// on it.
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: Option<u64>,
}

impl BookArgs {
    pub fn settings(&self) -> Settings {
        Settings {
            radius: self.radius,
            first_radius: self.first_radius,
            nodes: self.nodes,
            reply_nodes: self.reply_nodes,
            hash_mb: self.hash_mb,
        }
    }
}

/// The cells within `radius` of `JJ`.
fn near_centre(radius: u8) -> impl Iterator<Item = Cell> {
    Cell::all().filter(move |c| c.distance(Cell::CENTER) <= radius as usize)
}

/// The book's positions in the order of the file: each shape once, in canonical form.
pub fn positions(settings: &Settings) -> Vec<Key> {
    let mut keys = BTreeSet::new();
    keys.insert(canonical(&[], &[]).0);
    for c in near_centre(settings.first_radius) {
        keys.insert(canonical(&[c], &[]).0);
    }
    let whites: Vec<Cell> = near_centre(settings.radius)
        .filter(|&c| c != Cell::CENTER)
        .collect();
    for (i, &a) in whites.iter().enumerate() {
        for &b in &whites[i + 1..] {
            keys.insert(canonical(&[Cell::CENTER], &[a, b]).0);
        }
    }
    keys.into_iter().collect()
}

/// The board of a book position.
pub fn board_of(key: &Key) -> Board {
    let mut board = Board::new();
    for &c in &key.black {
        board.place(c, Color::Black);
    }
    for &c in &key.white {
        board.place(c, Color::White);
    }
    board
}

/// The nodes a position is searched with: the first turns get more, as every game passes
/// through them.
fn nodes_for(settings: &Settings, key: &Key) -> u64 {
    if key.white.is_empty() {
        settings.reply_nodes
    } else {
        settings.nodes
    }
}

/// One position's entry: a fresh searcher (nothing carried over from another position), the
/// embedded models, the node limit.
pub fn entry(settings: &Settings, key: &Key) -> Entry {
    let board = board_of(key);
    let mut searcher = Searcher::with_models(settings.hash_mb as usize, Models::embedded());
    let report = searcher.search(&board, node_limits(nodes_for(settings, key)));
    // The identity puts the stones in cell order: one turn, one spelling.
    let turn = transform_turn(&report.best, 0);
    Entry {
        black: key.black.clone(),
        white: key.white.clone(),
        turn,
        score: report.score,
        depth: report.depth,
    }
}

/// The entries of `keys` (in their order), searched on `threads` workers; `progress` hears
/// of each as it finishes, with how many are done.
pub fn entries(
    settings: &Settings,
    keys: &[Key],
    threads: usize,
    mut progress: impl FnMut(usize, &Entry),
) -> Result<Vec<Entry>, String> {
    let mut done: Vec<Option<Entry>> = vec![None; keys.len()];
    let mut finished = 0;
    pool::run(
        threads,
        0..keys.len(),
        |_, i| entry(settings, &keys[i]),
        |i, e| {
            finished += 1;
            progress(finished, &e);
            done[i] = Some(e);
            Ok::<_, String>(Flow::Continue)
        },
    )
    .map_err(|e| e.to_string())?;
    done.into_iter()
        .map(|e| e.ok_or_else(|| "a position was not searched".to_string()))
        .collect()
}

/// `tune book`: every position searched, the book written to `--out`.
pub fn build_book(a: &BookArgs) -> Result<(), String> {
    let settings = a.settings();
    let keys = positions(&settings);
    let threads = worker_threads(a.threads);
    eprintln!(
        "book: {} positions (radius {}, first radius {}), {} nodes each, {} for the first \
         turns, {} MB tables, {threads} threads",
        keys.len(),
        settings.radius,
        settings.first_radius,
        settings.nodes,
        settings.reply_nodes,
        settings.hash_mb
    );
    let began = Instant::now();
    let mut last = began;
    let total = keys.len();
    let list = entries(&settings, &keys, threads, |done, _| {
        if done == total || last.elapsed() >= Duration::from_secs(10) {
            eprintln!("book: {}", progress_line(done, total, began.elapsed()));
            last = Instant::now();
        }
    })?;
    let bytes = encode(&settings, &list);
    std::fs::write(&a.out, &bytes).map_err(|e| format!("cannot write {}: {e}", a.out.display()))?;
    println!(
        "{} positions written to {} ({} bytes) in {}",
        list.len(),
        a.out.display(),
        bytes.len(),
        duration_text(began.elapsed().as_secs_f64())
    );
    Ok(())
}

/// `40 of 156 positions (25.6%), 3.1 positions/min, about 37 min left`.
fn progress_line(done: usize, total: usize, elapsed: Duration) -> String {
    let per_second = done as f64 / elapsed.as_secs_f64().max(1e-3);
    let left = total.saturating_sub(done);
    let time_left = match left {
        0 => "done".to_string(),
        _ => format!("about {} left", duration_text(left as f64 / per_second)),
    };
    format!(
        "{done} of {total} positions ({:.1}%), {:.1} positions/min, {time_left}",
        100.0 * done as f64 / total.max(1) as f64,
        60.0 * per_second
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::book::{Book, encode_entry};

    /// How many of the embedded book's entries the byte check searches again:
    /// `CONNECT6_BOOK_ENTRIES=all` for every one (the whole build's time), else a number
    /// spread over the file; by default one (a search of 8,000,000 nodes, some 20 s).
    fn entries_to_check(total: usize) -> Vec<usize> {
        let asked = std::env::var("CONNECT6_BOOK_ENTRIES").unwrap_or_default();
        let k = match asked.as_str() {
            "all" => return (0..total).collect(),
            "" => 1,
            n => n.parse().expect("CONNECT6_BOOK_ENTRIES: `all` or a number"),
        };
        let k: usize = std::cmp::min(k, total);
        (0..k).map(|i| (i + 1) * total / (k + 1)).collect()
    }

    #[test]
    fn the_positions_are_every_shape_once() {
        let settings = Settings {
            radius: 2,
            first_radius: 2,
            ..DEFAULTS
        };
        let keys = positions(&settings);
        // The empty board; the first stone on 25 cells, 6 up to symmetry; 276 white pairs
        // within 2 of JJ, 44 up to symmetry.
        assert_eq!(keys.len(), 1 + 6 + 44);
        let whites = keys.iter().filter(|k| !k.white.is_empty()).count();
        assert_eq!(whites, 44);
        for k in &keys {
            assert_eq!(canonical(&k.black, &k.white).0, *k);
            let board = board_of(k);
            assert!(!board.is_over());
            assert_eq!(board.stone_total(), k.black.len() + k.white.len());
        }
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "sorted, no repeats");
        let defaults = positions(&DEFAULTS);
        assert_eq!(defaults.len(), 1 + 3 + 44);
    }

    #[test]
    fn the_embedded_book_is_what_the_builder_makes() {
        let bytes = include_bytes!("../engine/book.bin");
        let book = Book::decode(bytes).expect("the embedded book reads");
        assert_eq!(book.settings, DEFAULTS, "built with `tune book`'s defaults");
        // Its positions, in their order, are the builder's, and the file is exactly their
        // encoding.
        let keys = positions(&book.settings);
        let stored: Vec<Key> = book
            .entries()
            .iter()
            .map(|e| Key {
                black: e.black.clone(),
                white: e.white.clone(),
            })
            .collect();
        assert_eq!(stored, keys);
        assert_eq!(encode(&book.settings, book.entries()), bytes.to_vec());
        // Entries searched again give the same bytes.
        let chosen = entries_to_check(keys.len());
        let subset: Vec<Key> = chosen.iter().map(|&i| keys[i].clone()).collect();
        let rebuilt = entries(&book.settings, &subset, 2, |_, _| {}).unwrap();
        for (&i, entry) in chosen.iter().zip(&rebuilt) {
            let mut mine = Vec::new();
            encode_entry(entry, &mut mine);
            assert_eq!(
                mine,
                bytes[book.span(i)].to_vec(),
                "entry {i}: rebuilt {entry:?}, embedded {:?}",
                book.entries()[i]
            );
        }
    }
}

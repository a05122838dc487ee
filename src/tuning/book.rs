//! `connect6 tune book`: builds the opening book the engine embeds (`src/engine/book.bin`).
//!
//! The positions: the empty board (black's first stone); black's first stone on each cell
//! within `--first-radius` of `JJ` (white's reply); and `JJ` with every white pair whose
//! stones both lie within `--radius` of it (black's second turn), each shape once up to the
//! board's eight symmetries. Then, built on those entries, white's second turn: each white
//! reply the book holds, played, and the `--second-turns` black turns a short search scores
//! best there (the turns a strong opponent would play; games between strong engines are
//! decided in these first turns); and in the same way white's third turn after each of its
//! second turns and black's `--third-turns` best turns there. Each is searched afresh by the
//! engine with its embedded models at a node limit, on one thread with its own table, so an
//! entry is a function of its position and the settings alone: the same command writes the
//! same bytes on any machine, whatever the order the workers finish in. The search's threat
//! phases run inside it, so a forced win the solver proves is the entry's turn, with a score
//! beyond `WIN_BOUND`.

use super::args::worker_threads;
use super::batch::duration_text;
use super::node_limits;
use super::openings::{REPLY_DEPTH, black_replies};
use crate::engine::book::{Entry, Key, Settings, canonical, encode, stones, transform_turn};
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
    second_turns: 12,
    third_turns: 8,
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
    /// White's second turn after each white reply in the book and the K black turns a
    /// depth-4 search scores best there, of the move generator's best 20 (0: none).
    #[arg(long, value_name = "K", default_value_t = DEFAULTS.second_turns,
          value_parser = clap::value_parser!(u8).range(0..=60))]
    pub second_turns: u8,
    /// White's third turn after each of its second turns in the book and the K black turns
    /// a depth-4 search scores best there, chosen as for the second turns (0: none).
    #[arg(long, value_name = "K", default_value_t = DEFAULTS.third_turns,
          value_parser = clap::value_parser!(u8).range(0..=60))]
    pub third_turns: u8,
    /// Main-search nodes for each black second turn and each white second and third turn.
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
            second_turns: self.second_turns,
            third_turns: self.third_turns,
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

/// The positions of white's second turn, built on the first turns' `entries`: each white
/// reply to a single black stone played, then each of the `second_turns` black turns a
/// search to `REPLY_DEPTH` scores best for black among the move generator's best
/// (`openings::black_replies`, the embedded models: the turns a strong opponent would
/// play); each shape once, in canonical order, none already among the first turns.
pub fn second_positions(settings: &Settings, first: &[Entry], threads: usize) -> Vec<Key> {
    let replies: Vec<&Entry> = first
        .iter()
        .filter(|e| e.black.len() == 1 && e.white.is_empty())
        .collect();
    next_positions(&replies, settings.second_turns, first, threads)
}

/// The positions of white's third turn, built on white's second turns (`second`, the
/// entries that follow the first turns in the book): each played, then black's
/// `third_turns` best turns there, chosen as for the second turns; none already in `known`
/// (the entries before them).
pub fn third_positions(
    settings: &Settings,
    known: &[Entry],
    second: &[Entry],
    threads: usize,
) -> Vec<Key> {
    let turns: Vec<&Entry> = second.iter().collect();
    next_positions(&turns, settings.third_turns, known, threads)
}

/// After each white turn of `whites` (an entry with white to move, its turn played), the
/// `count` black turns a search to `REPLY_DEPTH` scores best for black: each shape once, in
/// canonical order, none of `known`'s. The searches of different entries run on `threads`
/// workers; the result does not depend on their number.
fn next_positions(whites: &[&Entry], count: u8, known: &[Entry], threads: usize) -> Vec<Key> {
    if count == 0 {
        return Vec::new();
    }
    let known: BTreeSet<Key> = known.iter().map(key_of).collect();
    let models = Models::embedded();
    let mut keys = BTreeSet::new();
    pool::run(
        threads,
        0..whites.len(),
        |_, i| black_turns_after(whites[i], count as usize, &models),
        |_, found| {
            for (board, _) in found {
                let (black, white) = stones(&board);
                let key = canonical(&black, &white).0;
                if !known.contains(&key) {
                    keys.insert(key);
                }
            }
            Ok::<_, String>(Flow::Continue)
        },
    )
    .expect("the searches of black's turns report no errors");
    keys.into_iter().collect()
}

/// After the book's white turn in `entry` (its position in the canonical frame), the `count`
/// black turns a search to `REPLY_DEPTH` scores best for black, best first: each position
/// (in the entry's frame) with black's score.
fn black_turns_after(entry: &Entry, count: usize, models: &Models) -> Vec<(Board, i32)> {
    let opening = format!("{} {}", turns_text(&key_of(entry)), entry.turn);
    black_replies(&[opening], count, REPLY_DEPTH, models)
        .into_iter()
        .map(|(text, score)| {
            let board = Board::from_turns(&text).expect("black_replies writes legal turns");
            (board, score)
        })
        .collect()
}

/// A book position with white to move as protocol turns: black's first stone, then white's
/// and black's stones two at a time (which stones make which turn does not change the
/// position, and with so few stones no line is complete before the last).
fn turns_text(key: &Key) -> String {
    debug_assert_eq!(key.black.len(), key.white.len() + 1, "white to move");
    let mut turns = vec![key.black[0].to_string()];
    for (w, b) in key.white.chunks(2).zip(key.black[1..].chunks(2)) {
        turns.push(w.iter().map(Cell::to_string).collect());
        turns.push(b.iter().map(Cell::to_string).collect());
    }
    turns.join(" ")
}

fn key_of(entry: &Entry) -> Key {
    Key {
        black: entry.black.clone(),
        white: entry.white.clone(),
    }
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

/// `tune book`: every position searched, the book written to `--out`: the first turns, then
/// white's second turns after the replies they chose, then white's third turns after those.
pub fn build_book(a: &BookArgs) -> Result<(), String> {
    let settings = a.settings();
    let threads = worker_threads(a.threads);
    eprintln!(
        "book: radius {}, first radius {}, {} second turns, {} third turns, {} nodes each, {} \
         for the first turns, {} MB tables, {threads} threads",
        settings.radius,
        settings.first_radius,
        settings.second_turns,
        settings.third_turns,
        settings.nodes,
        settings.reply_nodes,
        settings.hash_mb
    );
    let began = Instant::now();
    let mut list = searched("first turns", &settings, &positions(&settings), threads)?;
    let first = list.len();
    let second = second_positions(&settings, &list, threads);
    list.extend(searched(
        "white's second turns",
        &settings,
        &second,
        threads,
    )?);
    let third = third_positions(&settings, &list, &list[first..], threads);
    list.extend(searched("white's third turns", &settings, &third, threads)?);
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

/// `entries` with a progress line on stderr every ten seconds and at the end.
fn searched(
    stage: &str,
    settings: &Settings,
    keys: &[Key],
    threads: usize,
) -> Result<Vec<Entry>, String> {
    eprintln!("book: {stage}: {} positions", keys.len());
    let began = Instant::now();
    let mut last = began;
    let total = keys.len();
    entries(settings, keys, threads, |done, _| {
        if done == total || last.elapsed() >= Duration::from_secs(10) {
            eprintln!("book: {}", progress_line(done, total, began.elapsed()));
            last = Instant::now();
        }
    })
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
    use crate::engine::search::Limits;
    use crate::rules::coord::SYMMETRIES;

    /// Which of the embedded book's entries the byte check searches again, given where
    /// each of its parts ends: `CONNECT6_BOOK_ENTRIES=all` for every one (the whole build's
    /// time), else a number spread over the file; by default one in the middle of each part
    /// (searches of 8,000,000 or 16,000,000 nodes, some 20 s each), so that a change to the
    /// search or the models that moves book turns is likely to be caught in any of them.
    fn entries_to_check(part_ends: &[usize]) -> Vec<usize> {
        let total = part_ends.last().copied().unwrap_or(0);
        let asked = std::env::var("CONNECT6_BOOK_ENTRIES").unwrap_or_default();
        let k = match asked.as_str() {
            "all" => return (0..total).collect(),
            "" => {
                let mut start = 0;
                let mut middles = Vec::new();
                for &end in part_ends {
                    if end > start {
                        middles.push((start + end) / 2);
                    }
                    start = end;
                }
                return middles;
            }
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

    /// The book entry of the position with these stones (in any frame) and white's `turn`
    /// there (in the same frame).
    fn entry_at(black: &[Cell], white: &[Cell], turn: &str) -> Entry {
        let (key, s) = canonical(black, white);
        let turn = crate::rules::coord::Turn::parse(turn).unwrap();
        Entry {
            black: key.black,
            white: key.white,
            turn: transform_turn(&turn, s),
            score: 0,
            depth: 1,
        }
    }

    fn cells(text: &str) -> Vec<Cell> {
        text.split_whitespace()
            .map(|c| crate::rules::coord::parse_cell(c).unwrap())
            .collect()
    }

    /// What a level of white's turns must be, built on one white `entry` by `derive` (black
    /// turns asked for, the entries known already): its position with white's turn and two
    /// black stones more, in some frame; the ones black scores best by a fresh search of
    /// each; the first of a longer list; none when none are asked for or all are known.
    fn check_level(entry: &Entry, derive: impl Fn(u8, &[Entry]) -> Vec<Key>) {
        let keys = derive(8, &[]);
        assert!(!keys.is_empty() && keys.len() <= 8, "{}", keys.len());
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "sorted, no repeats");
        let mut played = board_of(&key_of(entry));
        played.play_turn(&entry.turn).unwrap();
        let (black, white) = stones(&played);
        for k in &keys {
            assert_eq!(canonical(&k.black, &k.white).0, *k);
            assert_eq!(
                (k.black.len(), k.white.len()),
                (black.len() + 2, white.len()),
                "{k:?}"
            );
            let holds = (0..SYMMETRIES).any(|s| {
                let image = |v: &[Cell]| {
                    let mut image: Vec<Cell> = v.iter().map(|c| c.image(s)).collect();
                    image.sort_unstable();
                    image
                };
                image(&black).iter().all(|c| k.black.contains(c)) && image(&white) == k.white
            });
            assert!(holds, "{k:?}");
        }
        let wider = derive(16, &[]);
        assert!(wider.len() > keys.len());
        assert!(keys.iter().all(|k| wider.contains(k)));
        let scored = black_turns_after(entry, 16, &Models::embedded());
        let fresh: Vec<i32> = scored
            .iter()
            .map(|(board, _)| {
                -Searcher::with_models(16, Models::embedded())
                    .search(board, Limits::depth(REPLY_DEPTH))
                    .score
            })
            .collect();
        assert_eq!(fresh, scored.iter().map(|&(_, s)| s).collect::<Vec<_>>());
        assert!(
            fresh.windows(2).all(|w| w[0] >= w[1]),
            "best first: {fresh:?}"
        );
        let first_eight: BTreeSet<Key> = scored[..8]
            .iter()
            .map(|(board, _)| {
                let (black, white) = stones(board);
                canonical(&black, &white).0
            })
            .collect();
        assert_eq!(first_eight, keys.iter().cloned().collect());
        assert!(derive(0, &[]).is_empty());
        let known: Vec<Entry> = keys
            .iter()
            .map(|k| Entry {
                black: k.black.clone(),
                white: k.white.clone(),
                ..entry.clone()
            })
            .collect();
        assert!(
            derive(8, &known).is_empty(),
            "known positions are not repeated"
        );
    }

    #[test]
    fn white_s_second_turns_follow_the_book_s_replies() {
        let reply = entry_at(&cells("JJ"), &[], "IGHH");
        check_level(&reply, |k, known| {
            let settings = Settings {
                second_turns: k,
                ..DEFAULTS
            };
            let mut first = known.to_vec();
            first.push(reply.clone());
            second_positions(&settings, &first, 2)
        });
        // Black's second turn is not a reply to a single stone: nothing follows it.
        let black_turn = entry_at(&cells("JJ"), &cells("KI KK"), "IJHJ");
        assert!(second_positions(&DEFAULTS, &[black_turn], 2).is_empty());
    }

    #[test]
    fn white_s_third_turns_follow_its_second_turns() {
        let second = entry_at(&cells("JJ GI HJ"), &cells("IG HH"), "IJIK");
        check_level(&second, |k, known| {
            let settings = Settings {
                third_turns: k,
                ..DEFAULTS
            };
            third_positions(&settings, known, std::slice::from_ref(&second), 2)
        });
    }

    #[test]
    fn the_embedded_book_is_what_the_builder_makes() {
        let bytes = include_bytes!("../engine/book.bin");
        let book = Book::decode(bytes).expect("the embedded book reads");
        assert_eq!(book.settings, DEFAULTS, "built with `tune book`'s defaults");
        // Its positions, in their order, are the builder's, and the file is exactly their
        // encoding.
        // The first turns' entries come first; white's second turns follow from them, and
        // its third turns from those.
        let first = positions(&book.settings);
        let entries_so_far = |n: usize| &book.entries()[..n.min(book.entries().len())];
        let mut keys: Vec<Key> = entries_so_far(first.len()).iter().map(key_of).collect();
        keys.extend(second_positions(
            &book.settings,
            entries_so_far(first.len()),
            2,
        ));
        let seconds = keys.len();
        keys.extend(third_positions(
            &book.settings,
            entries_so_far(seconds),
            &entries_so_far(seconds)[first.len()..],
            2,
        ));
        let stored: Vec<Key> = book.entries().iter().map(key_of).collect();
        assert_eq!(stored[..first.len()], first[..]);
        assert_eq!(stored, keys);
        assert_eq!(encode(&book.settings, book.entries()), bytes.to_vec());
        // Entries searched again give the same bytes.
        let chosen = entries_to_check(&[first.len(), seconds, keys.len()]);
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

//! Openings: the seeded random starts of self-play games (`selfplay`), and the match
//! openings files `tune openings` and `tune replies` write.
//!
//! A random start is black's stone within one cell of `JJ`, white's pair within two cells
//! of it, then pairs drawn from the move generator's best `spread`: a pure function of the
//! seed and the game's index.

pub mod job;

use super::game_rng;
use crate::engine::models::Models;
use crate::engine::pairs::{Pairs, generate};
use crate::engine::ranking::KeyWorth;
use crate::engine::search::{Limits, Searcher};
use crate::rng::Rng;
use crate::rules::board::{Board, Color};
use crate::rules::coord::{Cell, SYMMETRIES, Turn};
use crate::rules::stones::PlaceTurn;
use std::collections::HashSet;

/// Cells within Chebyshev distance `radius` of `centre` (not `centre` itself), on the board.
fn ring(centre: Cell, radius: i32) -> Vec<Cell> {
    let mut cells = Vec::new();
    for dr in -radius..=radius {
        for dc in -radius..=radius {
            if (dr, dc) != (0, 0)
                && let Some(c) = centre.offset(dc, dr, 1)
            {
                cells.push(c);
            }
        }
    }
    cells
}

/// Two distinct cells near `centre`, drawn uniformly.
fn random_pair(rng: &mut Rng, centre: Cell, radius: i32) -> Turn {
    let mut near = ring(centre, radius);
    let a = near.swap_remove(rng.below(near.len()));
    let b = near[rng.below(near.len())];
    Turn::two(a.min(b), a.max(b))
}

/// The random starts' generated pairs come from the move generator's best `SPREAD` unless
/// a job is told otherwise (`tune selfplay --spread`).
pub const SPREAD: usize = 8;

/// `game_rng`'s stride for the random openings.
const RNG_STRIDE: u64 = 0xA076_1D64_78BD_642F;

/// The first `length` turns of game `index`'s random opening for `seed`: black's stone
/// within one cell of `JJ`, white's pair within two cells of it, then pairs drawn from the
/// best `spread` of the move generator, ranked by `worth`.
pub fn random_opening(
    worth: &KeyWorth,
    seed: u64,
    spread: usize,
    index: u64,
    length: usize,
) -> Vec<Turn> {
    let mut rng = game_rng(seed, index, RNG_STRIDE);
    let mut board = Board::new();
    let mut turns = Vec::new();
    let first = ring(Cell::CENTER, 1)[rng.below(8)];
    let first = if rng.below(9) == 0 {
        Cell::CENTER
    } else {
        first
    };
    while turns.len() < length && !board.is_over() {
        let turn = match turns.len() {
            0 => Turn::one(first),
            1 => random_pair(&mut rng, first, 2),
            _ => generated_pair(worth, &board, &mut rng, spread),
        };
        board
            .play_turn(&turn)
            .expect("random openings are legal turns");
        turns.push(turn);
    }
    turns
}

/// A pair drawn uniformly from the best `spread` the move generator makes of `board` with
/// the ranking `worth`.
pub fn generated_pair(worth: &KeyWorth, board: &Board, rng: &mut Rng, spread: usize) -> Turn {
    let mut pairs = Pairs::new();
    generate(worth, board, &mut pairs, spread.max(1));
    pairs[rng.below(pairs.len())].1
}

/// A pair's shape up to the board's symmetries: the least of its images' (sorted) cells.
fn shape(turn: &Turn) -> (Cell, Cell) {
    let (a, b) = (turn.first, turn.second.expect("a pair"));
    (0..SYMMETRIES)
        .map(|s| {
            let (x, y) = (a.image(s), b.image(s));
            (x.min(y), x.max(y))
        })
        .min()
        .expect("eight symmetries")
}

/// `count` distinct two-turn openings for matches: black's `JJ` and a white pair within
/// `radius` cells of it, black to move; no two are mirror images or rotations of each other.
/// Written in the `match --openings` format (`JJ KIKK`).
pub fn two_turn_openings(count: usize, seed: u64, radius: i32) -> Vec<String> {
    let centre = Cell::CENTER;
    let mut rng = Rng::new(seed);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    // Radius 2: 24 cells give 276 pairs, 44 up to symmetry; asking for more returns those.
    let mut attempts = 0;
    while out.len() < count && attempts < 100_000 {
        attempts += 1;
        let turn = random_pair(&mut rng, centre, radius);
        let canonical = shape(&turn);
        if seen.insert(canonical) {
            out.push(format!("JJ {turn}"));
        }
    }
    out
}

/// The `count` two-turn openings within `radius` of JJ that are most even by the engine's
/// own judgement: every shape up to symmetry is searched to `depth` with black to move, and
/// the ones black scores lowest are kept (ties by text), each with its score. Random white
/// pairs are mostly poor replies that hand black the game; the search sorts out the ones a
/// strong white would play. The search plays with `models`.
pub fn balanced_openings(
    count: usize,
    seed: u64,
    radius: i32,
    depth: u8,
    models: &Models,
) -> Vec<(String, i32)> {
    let mut scored: Vec<(String, i32)> = two_turn_openings(usize::MAX, seed, radius)
        .into_iter()
        .map(|text| {
            let board = Board::from_turns(&text).expect("generated openings are legal");
            let score = Searcher::with_models(16, models.clone())
                .search(&board, Limits::depth(depth))
                .score;
            (text, score)
        })
        .collect();
    scored.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
    scored.truncate(count);
    scored
}

/// Black pairs considered after each two-turn opening by `black_replies`: the generator's
/// best, since the search would play one of them.
pub const REPLY_CANDIDATES: usize = 20;

/// The search depth that scores black's pairs by default (`tune replies`, and the book's
/// black second turns): deep enough to tell the turns a strong black plays from the
/// generator's merely likely ones.
pub const REPLY_DEPTH: u8 = 4;

/// Three-turn openings from two-turn ones: each of `openings` (black to move) followed by
/// the `per` black pairs that score best for black at search depth `depth`, of the
/// generator's best `REPLY_CANDIDATES`; each with black's score (ties by text). A two-turn
/// opening that either colour wins is even with black's best reply, and black's weaker
/// replies lean to white: the best kept are the ones a strong black would play. Openings
/// that are not black's to move, or not legal, are skipped. The generator and the search
/// play with `models`.
pub fn black_replies(
    openings: &[String],
    per: usize,
    depth: u8,
    models: &Models,
) -> Vec<(String, i32)> {
    let mut out = Vec::new();
    for base in openings {
        let Ok(mut board) = Board::from_turns(base) else {
            continue;
        };
        if board.side_to_move() != Color::Black || board.is_over() {
            continue;
        }
        let mut candidates = Pairs::new();
        generate(&models.ranking, &board, &mut candidates, REPLY_CANDIDATES);
        let mut scored: Vec<(String, i32)> = candidates
            .iter()
            .map(|&(_, turn)| {
                board.place_turn(&turn, Color::Black);
                let white = Searcher::with_models(16, models.clone())
                    .search(&board, Limits::depth(depth))
                    .score;
                board.remove_turn(&turn);
                (format!("{base} {turn}"), -white)
            })
            .collect();
        scored.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        out.extend(scored.into_iter().take(per));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_random_opening_is_a_function_of_seed_and_index_near_the_centre() {
        let w = &KeyWorth::embedded();
        let a = random_opening(w, 7, 6, 1, 4);
        assert_eq!(a, random_opening(w, 7, 6, 1, 4));
        assert_ne!(
            a,
            random_opening(w, 7, 6, 2, 4),
            "each game its own opening"
        );
        assert_ne!(
            a,
            random_opening(w, 8, 6, 1, 4),
            "each seed its own openings"
        );
        assert_eq!(a.len(), 4);
        assert_eq!(
            random_opening(w, 7, 6, 1, 2),
            a[..2],
            "a shorter one is a prefix"
        );
        let first = a[0].first;
        assert_eq!(a[0].len(), 1);
        assert!(first.distance(Cell::CENTER) <= 1);
        assert!(a[1].cells().all(|c| c.distance(first) <= 2));
        let text: Vec<String> = a.iter().map(ToString::to_string).collect();
        assert!(
            Board::from_turns(&text.join(" ")).is_ok(),
            "legal: {text:?}"
        );
    }

    #[test]
    fn match_openings_are_distinct_up_to_symmetry_and_near_the_centre() {
        let openings = two_turn_openings(30, 11, 2);
        assert_eq!(openings.len(), 30);
        assert_eq!(openings, two_turn_openings(30, 11, 2));
        assert_distinct_shapes_near_the_centre(&openings, 2);
    }

    /// Every opening is `JJ` and a white pair within `radius` of it, black to move, and no
    /// two have the same shape up to the board's symmetries.
    fn assert_distinct_shapes_near_the_centre(openings: &[String], radius: usize) {
        let mut shapes = HashSet::new();
        for o in openings {
            let board = Board::from_turns(o).unwrap();
            assert_eq!(board.side_to_move(), Color::Black, "{o}");
            assert_eq!(board.get(Cell::CENTER), Some(Color::Black), "{o}");
            let words: Vec<&str> = o.split_whitespace().collect();
            assert_eq!(words.len(), 2, "{o}: two turns");
            let pair = Turn::parse(words[1]).unwrap();
            assert!(
                pair.cells().all(|c| c.distance(Cell::CENTER) <= radius),
                "{o}"
            );
            assert!(shapes.insert(shape(&pair)), "{o} repeats a shape");
        }
    }

    fn openings_of(text: &str) -> Vec<String> {
        crate::record::openings::parse(text)
            .expect("the openings file parses")
            .iter()
            .map(crate::record::openings::Opening::text)
            .collect()
    }

    #[test]
    fn the_two_turn_openings_file_holds_seventeen_distinct_shapes() {
        let openings = openings_of(include_str!("../../tests/data/openings-two-turn.txt"));
        assert_eq!(openings.len(), 17);
        assert_distinct_shapes_near_the_centre(&openings, 4);
    }

    #[test]
    fn the_match_openings_are_six_black_pairs_after_each_two_turn_opening() {
        let bases = openings_of(include_str!("../../tests/data/openings-two-turn.txt"));
        let openings = openings_of(include_str!("../../tests/data/openings.txt"));
        assert_eq!(openings.len(), 6 * bases.len());
        let distinct: HashSet<&String> = openings.iter().collect();
        assert_eq!(distinct.len(), openings.len(), "no opening twice");
        for (i, o) in openings.iter().enumerate() {
            let base = &bases[i / 6];
            let pair = o.strip_prefix(base.as_str()).map(str::trim);
            let pair = pair.and_then(|p| Turn::parse(p).ok());
            assert!(pair.is_some_and(|p| p.len() == 2), "{o} extends {base}");
            let board = Board::from_turns(o).unwrap();
            assert_eq!(board.side_to_move(), Color::White, "{o}");
        }
    }

    #[test]
    fn black_replies_are_its_best_scored_pairs_after_each_opening() {
        let base = vec!["JJ KKKI".to_string(), "JJ IIJH".to_string()];
        let models = Models::embedded();
        let replies = black_replies(&base, 3, 2, &models);
        assert_eq!(replies.len(), 6);
        for (i, (text, score)) in replies.iter().enumerate() {
            assert!(text.starts_with(&base[i / 3]), "{text}");
            let board = Board::from_turns(text).unwrap();
            assert_eq!(board.side_to_move(), Color::White, "{text}");
            let again = -Searcher::new(16).search(&board, Limits::depth(2)).score;
            assert_eq!(*score, again, "{text}");
        }
        for group in replies.chunks(3) {
            assert!(group.windows(2).all(|w| w[0].1 >= w[1].1));
        }
        // The ones kept score at least as well as every candidate left out.
        let all = black_replies(&base[..1], REPLY_CANDIDATES, 2, &models);
        assert_eq!(&all[..3], &replies[..3]);
        assert!(all[3..].iter().all(|(_, s)| *s <= replies[2].1));
        // Another evaluation scores with its own search.
        let hand = Models::with_eval(crate::engine::eval::Evaluation::Hand);
        let by_hand = black_replies(&base[..1], 3, 2, &hand);
        assert_ne!(by_hand, replies[..3]);
        for (text, score) in &by_hand {
            let board = Board::from_turns(text).unwrap();
            let again = -Searcher::with_models(16, hand.clone())
                .search(&board, Limits::depth(2))
                .score;
            assert_eq!(*score, again, "{text}");
        }
    }

    #[test]
    fn balanced_openings_are_the_lowest_scored_shapes() {
        // Radius 1: the 8 neighbours of JJ give 28 pairs, 6 shapes up to symmetry.
        let models = Models::embedded();
        let all = balanced_openings(usize::MAX, 3, 1, 2, &models);
        assert_eq!(all.len(), 6);
        let kept = balanced_openings(3, 3, 1, 2, &models);
        assert_eq!(kept.as_slice(), &all[..3]);
        assert!(all.windows(2).all(|w| w[0].1 <= w[1].1));
        for (text, score) in &all {
            let board = Board::from_turns(text).unwrap();
            let again = Searcher::new(16).search(&board, Limits::depth(2)).score;
            assert_eq!(*score, again, "{text}");
        }
    }
}

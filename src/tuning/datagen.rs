//! Self-play positions for the evaluation fit, generated in-process.
//!
//! Each game starts from a seeded random opening: black's stone within one cell of `JJ`,
//! white's pair within two cells of it, then black's first pair and (in odd-numbered games)
//! white's drawn from the move generator's best `spread`. The side that searches first after
//! the opening wins most games, so alternating it keeps both colours' wins in the data.
//! From there both sides play the engine's own search with a node limit, so a game is a pure
//! function of the seed, its index and the settings; an optional time cap per turn
//! (`move_ms`) bounds the threat solver's share, which node limits do not, at the price of
//! that reproducibility. The positions the engine searched are kept when they are quiet (no
//! threat window on the board: the evaluation is never consulted otherwise), once each,
//! labelled with the game's result for the side to move.

pub mod job;

use super::{Labelled, game_rng, is_quiet, node_limits};
use crate::engine::pairs::{Pairs, generate};
use crate::engine::ranking::KeyWorth;
use crate::engine::search::{Limits, Searcher};
use crate::rng::Rng;
use crate::rules::board::{Board, Color};
use crate::rules::coord::{Cell, Turn};
use crate::rules::stones::PlaceTurn;
use std::collections::HashSet;
use std::io::{self, Write};
use std::time::Duration;

/// Turns of game `index`'s random opening; the search plays every later turn.
pub fn opening_turns(index: u64) -> usize {
    3 + (index % 2) as usize
}

#[derive(Clone, Debug)]
pub struct GenConfig {
    pub games: usize,
    pub seed: u64,
    /// Main-search nodes per turn.
    pub nodes: u64,
    /// The random first pairs are drawn from the generator's best `spread` pairs.
    pub spread: usize,
    pub hash_mb: usize,
    /// Soft time limit per turn in milliseconds (hard: twice that), if any.
    pub move_ms: Option<u64>,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            games: 100,
            seed: 1,
            nodes: 4000,
            spread: 8,
            hash_mb: 4,
            move_ms: None,
        }
    }
}

/// A finished self-play game.
#[derive(Clone, Debug, PartialEq)]
pub struct SelfPlayGame {
    pub index: u64,
    pub turns: Vec<Turn>,
    /// `None` for a full board.
    pub winner: Option<Color>,
}

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

/// `game_rng`'s stride for the random openings.
const RNG_STRIDE: u64 = 0xA076_1D64_78BD_642F;

/// The first `length` turns of game `index`'s random opening: black's stone within one cell
/// of `JJ`, white's pair within two cells of it, then pairs drawn from the move generator's
/// best `config.spread`.
/// `worth` ranks the generator's pairs.
pub fn random_opening(
    worth: &KeyWorth,
    config: &GenConfig,
    index: u64,
    length: usize,
) -> Vec<Turn> {
    let mut rng = game_rng(config.seed, index, RNG_STRIDE);
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
            _ => generated_pair(worth, &mut board, &mut rng, config.spread),
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
pub fn generated_pair(worth: &KeyWorth, board: &mut Board, rng: &mut Rng, spread: usize) -> Turn {
    let mut pairs = Pairs::new();
    generate(worth, board, &mut pairs, spread.max(1));
    pairs[rng.below(pairs.len())].1
}

/// Plays game `index` of the configuration to its end.
pub fn play_game(config: &GenConfig, index: u64) -> SelfPlayGame {
    let mut turns = random_opening(&KeyWorth::embedded(), config, index, opening_turns(index));
    let mut board = Board::new();
    for turn in &turns {
        board.play_turn(turn).expect("random openings are legal");
    }
    let mut searcher = Searcher::new(config.hash_mb);
    let mut limits = node_limits(config.nodes);
    if let Some(ms) = config.move_ms {
        limits.soft = Duration::from_millis(ms);
        limits.hard = Duration::from_millis(2 * ms);
    }
    while !board.is_over() {
        let turn = searcher.search(&board, limits).best;
        board
            .play_turn(&turn)
            .expect("the search plays legal turns");
        turns.push(turn);
    }
    SelfPlayGame {
        index,
        turns,
        winner: board.winner(),
    }
}

/// The quiet positions the search met in `game`, labelled for their side to move. A
/// position whose hash is in `seen` is skipped; new ones are added to it.
pub fn positions(game: &SelfPlayGame, seen: &mut HashSet<u64>) -> Vec<Labelled> {
    let mut out = Vec::new();
    let mut board = Board::new();
    let opening = opening_turns(game.index);
    for (i, turn) in game.turns.iter().enumerate() {
        if i >= opening && is_quiet(&board) && seen.insert(board.hash()) {
            let mover = board.side_to_move();
            let result = match game.winner {
                None => 0.5,
                Some(w) if w == mover => 1.0,
                Some(_) => 0.0,
            };
            out.push(Labelled {
                game: game.index,
                result,
                turns: game.turns[..i].to_vec(),
            });
        }
        board.play_turn(turn).expect("a recorded game replays");
    }
    out
}

/// What a generation run produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GenSummary {
    pub games: usize,
    pub positions: usize,
    pub black_wins: usize,
    pub white_wins: usize,
    pub draws: usize,
    pub turns: usize,
}

/// Plays `config.games` games and writes their positions to `out` (with a header saying how
/// they were made). `progress` is called after each game.
pub fn generate_data(
    config: &GenConfig,
    out: &mut impl Write,
    mut progress: impl FnMut(&GenSummary),
) -> io::Result<GenSummary> {
    writeln!(
        out,
        "# connect6 self-play positions: games {} seed {} nodes {} spread {} move-ms {}",
        config.games,
        config.seed,
        config.nodes,
        config.spread,
        config
            .move_ms
            .map_or("none".to_string(), |ms| ms.to_string())
    )?;
    writeln!(
        out,
        "# <game> <result for the side to move: 1 | 0.5 | 0> <turns from the empty board>"
    )?;
    let mut summary = GenSummary::default();
    let mut seen = HashSet::new();
    for index in 0..config.games as u64 {
        let game = play_game(config, index);
        match game.winner {
            Some(Color::Black) => summary.black_wins += 1,
            Some(Color::White) => summary.white_wins += 1,
            None => summary.draws += 1,
        }
        summary.games += 1;
        summary.turns += game.turns.len();
        for p in positions(&game, &mut seen) {
            writeln!(out, "{}", p.to_line())?;
            summary.positions += 1;
        }
        // Whole games on disk as they finish: a stopped run leaves a usable file.
        out.flush()?;
        progress(&summary);
    }
    out.flush()?;
    Ok(summary)
}

/// The eight symmetries of the board around `JJ`, applied to an offset from it.
fn symmetric(dc: i32, dr: i32, s: usize) -> (i32, i32) {
    let (c, r) = if s & 4 != 0 { (dr, dc) } else { (dc, dr) };
    (
        if s & 1 != 0 { -c } else { c },
        if s & 2 != 0 { -r } else { r },
    )
}

/// `count` distinct two-turn openings for matches: black's `JJ` and a white pair within
/// `radius` cells of it, black to move; no two are mirror images or rotations of each other.
/// Written in the `match --openings` format (`JJ KIKK`).
pub fn two_turn_openings(count: usize, seed: u64, radius: i32) -> Vec<String> {
    let centre = Cell::CENTER;
    let offset = |c: Cell| {
        (
            c.col() as i32 - centre.col() as i32,
            c.row() as i32 - centre.row() as i32,
        )
    };
    let mut rng = Rng::new(seed);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    // Radius 2: 24 cells give 276 pairs, 44 up to symmetry; asking for more returns those.
    let mut attempts = 0;
    while out.len() < count && attempts < 100_000 {
        attempts += 1;
        let turn = random_pair(&mut rng, centre, radius);
        let (a, b) = (offset(turn.first), offset(turn.second.expect("a pair")));
        let canonical = (0..8)
            .map(|s| {
                let (x, y) = (symmetric(a.0, a.1, s), symmetric(b.0, b.1, s));
                (x.min(y), x.max(y))
            })
            .min()
            .expect("eight symmetries");
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
/// strong white would play.
pub fn balanced_openings(count: usize, seed: u64, radius: i32, depth: u8) -> Vec<(String, i32)> {
    let mut scored: Vec<(String, i32)> = two_turn_openings(usize::MAX, seed, radius)
        .into_iter()
        .map(|text| {
            let board = Board::from_turns(&text).expect("generated openings are legal");
            let score = Searcher::new(16).search(&board, Limits::depth(depth)).score;
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

/// Three-turn openings from two-turn ones: each of `openings` (black to move) followed by
/// the `per` black pairs that score best for black at search depth `depth`, of the
/// generator's best `REPLY_CANDIDATES`; each with black's score (ties by text). A two-turn
/// opening that either colour wins is even with black's best reply, and black's weaker
/// replies lean to white: the best kept are the ones a strong black would play. Openings
/// that are not black's to move, or not legal, are skipped.
pub fn black_replies(openings: &[String], per: usize, depth: u8) -> Vec<(String, i32)> {
    let mut out = Vec::new();
    for base in openings {
        let Ok(mut board) = Board::from_turns(base) else {
            continue;
        };
        if board.side_to_move() != Color::Black || board.is_over() {
            continue;
        }
        let mut candidates = Pairs::new();
        generate(
            &KeyWorth::embedded(),
            &mut board,
            &mut candidates,
            REPLY_CANDIDATES,
        );
        let mut scored: Vec<(String, i32)> = candidates
            .iter()
            .map(|&(_, turn)| {
                board.place_turn(&turn, Color::Black);
                let white = Searcher::new(16).search(&board, Limits::depth(depth)).score;
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

    /// Turns capped at 20 ms: the tests stay quick, whatever the solver meets.
    fn quick(games: usize) -> GenConfig {
        GenConfig {
            games,
            seed: 7,
            nodes: 1500,
            spread: 6,
            hash_mb: 1,
            move_ms: Some(20),
        }
    }

    #[test]
    fn without_a_time_cap_a_game_is_a_function_of_seed_and_index() {
        let config = GenConfig {
            nodes: 300,
            move_ms: None,
            ..quick(1)
        };
        let a = play_game(&config, 3);
        assert_eq!(a, play_game(&config, 3));
    }

    #[test]
    fn games_are_finished_and_positions_labelled_for_the_mover() {
        let config = quick(1);
        let a = play_game(&config, 1);
        let b = play_game(&config, 2);
        assert_ne!(a.turns[..3], b.turns[..3], "each game its own opening");
        let end = Board::from_turns(
            &a.turns
                .iter()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(" "),
        )
        .unwrap();
        assert!(end.is_over());
        assert_eq!(end.winner(), a.winner);
        let first = a.turns[0].first;
        assert!(first.distance(Cell::CENTER) <= 1);
        assert!(a.turns[1].cells().all(|c| c.distance(first) <= 2));

        // Each position is labelled for its side to move, from both games.
        let mut movers = HashSet::new();
        for game in [&a, &b] {
            let labelled = positions(game, &mut HashSet::new());
            assert!(!labelled.is_empty());
            for l in &labelled {
                let (back, board) = Labelled::parse(&l.to_line()).unwrap();
                assert_eq!(&back, l);
                assert!(is_quiet(&board));
                assert!(l.turns.len() >= opening_turns(game.index));
                let expected = match game.winner {
                    None => 0.5,
                    Some(w) if w == board.side_to_move() => 1.0,
                    Some(_) => 0.0,
                };
                assert_eq!(l.result, expected);
                movers.insert(board.side_to_move());
            }
        }
        assert_eq!(movers.len(), 2, "both sides' positions are in the data");
        // A position already seen is not written again.
        let mut seen = HashSet::new();
        positions(&a, &mut seen);
        assert!(positions(&a, &mut seen).is_empty());
    }

    #[test]
    fn generated_file_parses_and_counts_add_up() {
        let config = quick(2);
        let mut text = Vec::new();
        let mut calls = 0;
        let summary = generate_data(&config, &mut text, |_| calls += 1).unwrap();
        assert_eq!(calls, 2);
        assert_eq!(summary.black_wins + summary.white_wins + summary.draws, 2);
        let text = String::from_utf8(text).unwrap();
        let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(lines.len(), summary.positions);
        assert!(lines.iter().all(|l| Labelled::parse(l).is_ok()));
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
            // Canonical shape: sorted offsets under the symmetry giving the smallest form.
            let off = |c: Cell| (c.col() as i32 - 9, c.row() as i32 - 9);
            let (a, b) = (off(pair.first), off(pair.second.unwrap()));
            let shape = (0..8)
                .map(|s| {
                    let (x, y) = (symmetric(a.0, a.1, s), symmetric(b.0, b.1, s));
                    (x.min(y), x.max(y))
                })
                .min()
                .unwrap();
            assert!(shapes.insert(shape), "{o} repeats a shape");
        }
    }

    fn openings_of(text: &str) -> Vec<String> {
        crate::arena::openings::parse(text)
            .expect("the openings file parses")
            .iter()
            .map(crate::arena::Opening::text)
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
        let replies = black_replies(&base, 3, 2);
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
        let all = black_replies(&base[..1], REPLY_CANDIDATES, 2);
        assert_eq!(&all[..3], &replies[..3]);
        assert!(all[3..].iter().all(|(_, s)| *s <= replies[2].1));
    }

    #[test]
    fn balanced_openings_are_the_lowest_scored_shapes() {
        // Radius 1: the 8 neighbours of JJ give 28 pairs, 6 shapes up to symmetry.
        let all = balanced_openings(usize::MAX, 3, 1, 2);
        assert_eq!(all.len(), 6);
        let kept = balanced_openings(3, 3, 1, 2);
        assert_eq!(kept.as_slice(), &all[..3]);
        assert!(all.windows(2).all(|w| w[0].1 <= w[1].1));
        for (text, score) in &all {
            let board = Board::from_turns(text).unwrap();
            let again = Searcher::new(16).search(&board, Limits::depth(2)).score;
            assert_eq!(*score, again, "{text}");
        }
    }
}

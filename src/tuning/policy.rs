//! Fitting the learned cell ranking (`engine::ranking`) to the turns of games, and measuring
//! a ranking by how often the pair generator puts the turn a game played near the top.
//!
//! The model is the ranking itself: a cell's score for the side to move is the sum over its
//! four lines of `attack[code seen from the mover]` and `defence[code seen from the
//! opponent]`, a line and its mirror image sharing one weight. Scores are logits of a
//! softmax over the cells the generator ranks (empty cells near stones). Each quiet turn of
//! a game gives three examples, the way the generator uses the ranking:
//! - the first stone: the turn's two cells are both right (the loss is -log of their summed
//!   probability);
//! - each second stone, with the other stone of the turn placed.
//!
//! Weights start at zero and are fitted by Adagrad, one example at a time, over several
//! passes; every `holdout`-th game is held out and the pass with the lowest held-out loss is
//! kept. The file stores the weights times `SCALE`, rounded, as `i16`.

use super::games::GameTurns;
use super::is_quiet;
use super::{FitReport, HOLDOUT_EVERY};
use crate::engine::pairs::{Pairs, Situation, generate};
use crate::engine::ranking::{KeyWorth, decode, encode, mirrored};
use crate::engine::tunables::ROOT_PAIRS;
use crate::rules::board::{Board, Color};
use crate::rules::coord::{CELLS, Cell, Turn};
use crate::rules::patterns::KEYS;
use crate::rules::stones::PlaceTurn;
use crate::tuning::args::{pass_progress, positive};
use crate::tuning::games::read_games_files;
use std::path::PathBuf;
use std::time::Instant;

/// Score points per logit in the ranking file.
pub const SCALE: f32 = 256.0;
/// The fit's defaults: passes over the data, Adagrad's step (every how many games one is
/// held out: `HOLDOUT_EVERY`).
pub const EPOCHS: usize = 15;
pub const RATE: f32 = 0.1;
/// `RATE` as `tune policy --help` shows it (a test holds the two equal).
pub const RATE_TEXT: &str = "0.1";
/// The first-K cut-offs the hit rates are reported at.
pub const HIT_RANKS: [usize; 6] = [1, 5, 10, 20, 40, 60];

/// Which turns are examples: every player's, or only the winner's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Movers {
    All,
    Winners,
}

/// The quiet positions of `games` whose turn is an example, with the turn: the position
/// before it, the side to move, and the turn's two cells.
fn examples(
    games: &[GameTurns],
    movers: Movers,
    mut each: impl FnMut(&mut Board, Color, Cell, Cell),
) {
    for game in games {
        let mut board = Board::new();
        for (k, turn) in game.turns.iter().enumerate() {
            let me = board.side_to_move();
            let won = match me {
                Color::Black => game.black_result == 1.0,
                Color::White => game.black_result == 0.0,
            };
            if let (Some(a), Some(b)) = (Some(turn.first), turn.second)
                && k >= game.opening
                && is_quiet(&board)
                && (movers == Movers::All || won)
            {
                each(&mut board, me, a, b);
            }
            board.place_turn(turn, me);
        }
    }
}

/// The learned weights during the fit, in logits, one per code up to mirror images.
pub struct Model {
    /// `attack` codes, then `defence` codes; only a code's canonical index is used.
    weights: Vec<f32>,
    /// Adagrad's sums of squared gradients.
    squares: Vec<f32>,
    /// A code's canonical index: the smaller of it and its mirror image.
    canonical: Vec<u32>,
    /// Reused per example: the candidates' features and logits, the gradient.
    features: Vec<[u32; 8]>,
    cells: Vec<Cell>,
    logits: Vec<f32>,
    gradient: Vec<f32>,
    touched: Vec<u32>,
}

impl Default for Model {
    fn default() -> Self {
        Model::new()
    }
}

impl Model {
    pub fn new() -> Model {
        Model {
            weights: vec![0.0; 2 * KEYS],
            squares: vec![0.0; 2 * KEYS],
            canonical: (0..KEYS).map(|k| k.min(mirrored(k)) as u32).collect(),
            features: Vec::with_capacity(CELLS),
            cells: Vec::with_capacity(CELLS),
            logits: Vec::with_capacity(CELLS),
            gradient: vec![0.0; 2 * KEYS],
            touched: Vec::new(),
        }
    }

    /// The candidate cells for `me` and their features and logits.
    fn score_candidates(&mut self, board: &Board, me: Color) {
        self.features.clear();
        self.cells.clear();
        self.logits.clear();
        for c in board.near_empty_cells() {
            let mut f = [0u32; 8];
            for d in 0..4 {
                let keys = board.line_keys(c, d);
                f[2 * d] = self.canonical[keys[me.index()] as usize];
                f[2 * d + 1] = KEYS as u32 + self.canonical[keys[1 - me.index()] as usize];
            }
            self.logits
                .push(f.iter().map(|&i| self.weights[i as usize]).sum());
            self.features.push(f);
            self.cells.push(c);
        }
    }

    /// One example: the loss of `targets` among the candidates (`None` when no target is a
    /// candidate), and with `rate` > 0 an Adagrad step.
    fn example(&mut self, board: &Board, me: Color, targets: &[Cell], rate: f32) -> Option<f64> {
        self.score_candidates(board, me);
        let top = self.logits.iter().copied().fold(f32::MIN, f32::max);
        let mut total = 0.0f64;
        for z in self.logits.iter_mut() {
            *z = (*z - top).exp();
            total += *z as f64;
        }
        let mut right = 0.0f64;
        for (i, c) in self.cells.iter().enumerate() {
            if targets.contains(c) {
                right += self.logits[i] as f64;
            }
        }
        if right == 0.0 {
            return None;
        }
        let loss = (total / right).ln();
        if rate > 0.0 {
            for i in 0..self.cells.len() {
                let p = self.logits[i] as f64 / total;
                let wanted = if targets.contains(&self.cells[i]) {
                    self.logits[i] as f64 / right
                } else {
                    0.0
                };
                let g = (p - wanted) as f32;
                for &f in &self.features[i] {
                    if self.gradient[f as usize] == 0.0 {
                        self.touched.push(f);
                    }
                    self.gradient[f as usize] += g;
                }
            }
            for &f in &self.touched {
                let f = f as usize;
                let g = self.gradient[f];
                self.squares[f] += g * g;
                self.weights[f] -= rate * g / (self.squares[f].sqrt() + 1e-6);
                self.gradient[f] = 0.0;
            }
            self.touched.clear();
        }
        Some(loss)
    }

    /// One pass over the quiet turns of `games` (a step per example when `rate` > 0): the
    /// mean loss per example, and the examples.
    pub fn pass(&mut self, games: &[GameTurns], movers: Movers, rate: f32) -> (f64, usize) {
        let (mut loss, mut count) = (0.0, 0);
        examples(games, movers, |board, me, a, b| {
            let mut add = |l: Option<f64>| {
                if let Some(l) = l {
                    loss += l;
                    count += 1;
                }
            };
            add(self.example(board, me, &[a, b], rate));
            for (first, second) in [(a, b), (b, a)] {
                board.place(first, me);
                add(self.example(board, me, &[second], rate));
                board.remove(first);
            }
        });
        (loss / count.max(1) as f64, count)
    }

    /// The weights as a ranking file.
    pub fn to_file(&self) -> Vec<u8> {
        let table = |offset: usize| -> Vec<i16> {
            (0..KEYS)
                .map(|k| {
                    let w = self.weights[offset + self.canonical[k] as usize] * SCALE;
                    w.round().clamp(i16::MIN as f32, i16::MAX as f32) as i16
                })
                .collect()
        };
        encode(&table(0), &table(KEYS))
    }

    /// The weights as a ranking.
    pub fn ranking(&self) -> KeyWorth {
        decode(&self.to_file()).expect("encode writes what decode reads")
    }
}

/// Fits a ranking to `games`, holding out every `holdout_every`-th game (0: none, and the
/// last pass is kept); returns the kept model, the report (its baseline: the zero model,
/// every candidate alike) and the training and held-out example counts.
pub fn fit(
    games: &[GameTurns],
    movers: Movers,
    epochs: usize,
    rate: f32,
    holdout_every: usize,
    mut progress: impl FnMut(usize, f64, f64),
) -> (Model, FitReport, [usize; 2]) {
    let held = |i: usize| holdout_every > 0 && i % holdout_every == holdout_every - 1;
    let train: Vec<GameTurns> = (games.iter().enumerate())
        .filter(|&(i, _)| !held(i))
        .map(|(_, g)| g.clone())
        .collect();
    let test: Vec<GameTurns> = (games.iter().enumerate())
        .filter(|&(i, _)| held(i))
        .map(|(_, g)| g.clone())
        .collect();
    let mut model = Model::new();
    let (uniform_loss, test_examples) = model.pass(&test, movers, 0.0);
    let mut report = FitReport {
        baseline_test: uniform_loss,
        passes: Vec::new(),
        kept: 0,
    };
    let mut train_examples = 0;
    let mut best: Option<(f64, Vec<f32>)> = None;
    for epoch in 0..epochs {
        let (train_loss, n) = model.pass(&train, movers, rate);
        train_examples = n;
        let test_loss = if test.is_empty() {
            train_loss
        } else {
            model.pass(&test, movers, 0.0).0
        };
        progress(epoch + 1, train_loss, test_loss);
        report.passes.push((train_loss, test_loss));
        if best.as_ref().is_none_or(|(l, _)| test_loss < *l) {
            best = Some((test_loss, model.weights.clone()));
            report.kept = epoch + 1;
        }
    }
    if let Some((_, weights)) = best {
        model.weights = weights;
    }
    (model, report, [train_examples, test_examples])
}

/// Where the generator puts the turns games played: for each example position, the
/// played turn's place among the first `ROOT_PAIRS` pairs the generator gives with
/// `worth`, counted at the `HIT_RANKS` cut-offs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Hits {
    pub positions: usize,
    /// `within[i]`: positions whose turn is among the first `HIT_RANKS[i]` pairs.
    pub within: [usize; HIT_RANKS.len()],
}

impl Hits {
    pub fn rate(&self, i: usize) -> f64 {
        self.within[i] as f64 / self.positions.max(1) as f64
    }
}

pub fn hits(worth: &KeyWorth, games: &[GameTurns], movers: Movers) -> Hits {
    let mut out = Hits::default();
    let mut pairs = Pairs::new();
    examples(games, movers, |board, _, a, b| {
        if generate(worth, board, &mut pairs, ROOT_PAIRS) != Situation::Quiet {
            return;
        }
        let played = Turn::two(a.min(b), a.max(b));
        out.positions += 1;
        if let Some(place) = pairs.iter().position(|&(_, t)| t == played) {
            for (i, &k) in HIT_RANKS.iter().enumerate() {
                out.within[i] += (place < k) as usize;
            }
        }
    });
    out
}

#[derive(clap::Args, Debug, Clone)]
pub struct PolicyArgs {
    /// Games files (`tune records`, `tests/data/fit-games.txt`).
    #[arg(required = true, value_name = "GAMES")]
    pub games: Vec<PathBuf>,
    /// The ranking file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Passes over the training games.
    #[arg(long, value_name = "N", default_value_t = EPOCHS,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1000))]
    pub epochs: usize,
    /// Adagrad's step size.
    // Written as text: `RATE as f64` would show as 0.10000000149011612 in `--help`.
    #[arg(long, value_name = "R", default_value = RATE_TEXT, value_parser = positive)]
    pub rate: f64,
    /// Hold out every M-th game, to measure the fit on and keep its best pass (0: none).
    #[arg(long, value_name = "M", default_value_t = HOLDOUT_EVERY)]
    pub holdout: usize,
    /// Learn only from the turns of the side that won the game.
    #[arg(long)]
    pub winners: bool,
}

#[derive(clap::Args, Debug, Clone)]
pub struct PolicyHitsArgs {
    /// Games files (`tune records`, `tests/data/fit-games.txt`).
    #[arg(required = true, value_name = "GAMES")]
    pub games: Vec<PathBuf>,
    /// A ranking file to measure beside the engine's own.
    #[arg(long, value_name = "FILE")]
    pub ranking: Option<PathBuf>,
    /// Count every side's turns, not only the winner's.
    #[arg(long)]
    pub all_turns: bool,
    /// Only every M-th game, counted from the M-th (the games `policy --holdout M` held
    /// out); 1: all.
    #[arg(long, value_name = "M", default_value_t = 1,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub every: usize,
}

/// `tune policy`: fits the learned ranking and writes its file.
pub fn fit_policy(a: &PolicyArgs) -> Result<(), String> {
    let began = Instant::now();
    let games = read_games_files(&a.games)?;
    let movers = if a.winners {
        Movers::Winners
    } else {
        Movers::All
    };
    eprintln!("{} games", games.len());
    let (model, report, [train_examples, test_examples]) = fit(
        &games,
        movers,
        a.epochs,
        a.rate as f32,
        a.holdout,
        pass_progress(began),
    );
    std::fs::write(&a.out, model.to_file()).map_err(|e| format!("{}: {e}", a.out.display()))?;
    let (train, test) = report.passes[report.kept - 1];
    println!(
        "{} games, {} training examples, {} held out; kept pass {} of {}: training loss {train:.4}, \
         held-out {test:.4} (uniform {:.4}); {} written ({:.1} s)",
        games.len(),
        train_examples,
        test_examples,
        report.kept,
        report.passes.len(),
        report.baseline_test,
        a.out.display(),
        began.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `tune policy-hits`: prints the hit rates of the engine's ranking, and of a ranking file if
/// given, on the games.
pub fn policy_hits(a: &PolicyHitsArgs) -> Result<(), String> {
    let games: Vec<GameTurns> = read_games_files(&a.games)?
        .into_iter()
        .skip(a.every - 1)
        .step_by(a.every)
        .collect();
    let file = match &a.ranking {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            Some(decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))?)
        }
        None => None,
    };
    let movers = if a.all_turns {
        Movers::All
    } else {
        Movers::Winners
    };
    let cut_offs: Vec<String> = HIT_RANKS
        .iter()
        .map(|k| format!("{:>6}", format!("top{k}")))
        .collect();
    println!("{:<8} {:>9} {}", "ranking", "positions", cut_offs.join(" "));
    let engine = KeyWorth::embedded();
    let rankings =
        std::iter::once(("engine", &engine)).chain(file.as_ref().map(|worth| ("file", worth)));
    for (name, worth) in rankings {
        let hits = hits(worth, &games, movers);
        let rates: Vec<String> = (0..HIT_RANKS.len())
            .map(|i| format!("{:>5.1}%", 100.0 * hits.rate(i)))
            .collect();
        println!("{name:<8} {:>9} {}", hits.positions, rates.join(" "));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::coord::parse_cell;
    use crate::tuning::games::read_game_turns;

    /// Half of the match games, with every fifth held out: the fit lowers the held-out loss
    /// below the uniform model's and keeps the pass that did best.
    #[test]
    fn the_fit_learns_to_predict_held_out_turns() {
        let text = include_str!("../../tests/data/fit-games.txt");
        let games = read_game_turns(text).unwrap();
        let games: Vec<GameTurns> = games.into_iter().take(300).collect();
        let (model, report, _) = fit(&games, Movers::All, 3, RATE, 5, |_, _, _| {});
        assert_eq!(report.passes.len(), 3);
        let (first, last) = (report.passes[0], report.passes[2]);
        assert!(last.0 < first.0, "training loss fell: {:?}", report.passes);
        let kept = report.passes[report.kept - 1].1;
        assert!(
            kept < report.baseline_test - 0.5,
            "held-out {kept} against uniform {}",
            report.baseline_test
        );
        // The kept weights are what the report says: a held-out pass gives its loss again.
        let test: Vec<GameTurns> = games.iter().skip(4).step_by(5).cloned().collect();
        let mut again = model;
        assert!((again.pass(&test, Movers::All, 0.0).0 - kept).abs() < 1e-9);
    }

    /// The engine's `ranking.bin` is what `tune policy` makes of the match games and the
    /// self-play games with its defaults (the command in docs/tuning.md).
    #[test]
    fn the_engines_ranking_is_the_fit_of_the_match_and_self_play_games() {
        let mut games = read_game_turns(include_str!("../../tests/data/fit-games.txt")).unwrap();
        games.extend(read_game_turns(include_str!("../../tests/data/selfplay-games.txt")).unwrap());
        for (_, selfplay) in crate::tuning::games::LATER_SELF_PLAY {
            games.extend(read_game_turns(selfplay).unwrap());
        }
        let (model, report, _) = fit(
            &games,
            Movers::All,
            EPOCHS,
            RATE,
            HOLDOUT_EVERY,
            |_, _, _| {},
        );
        assert!(model.to_file() == include_bytes!("../engine/ranking.bin"));
        assert_eq!(report.kept, EPOCHS, "held-out loss fell on every pass");
    }

    #[test]
    fn a_model_written_to_a_file_ranks_as_it_scores() {
        // One example position: black's (the winner's) turn IIHH.
        let games = read_game_turns("1 JJ KIKK IIHH").unwrap();
        let mut model = Model::new();
        for _ in 0..20 {
            model.pass(&games, Movers::Winners, 0.5);
        }
        let ranking = model.ranking();
        let board = Board::from_turns("JJ KIKK").unwrap();
        model.score_candidates(&board, Color::Black);
        for (i, &c) in model.cells.clone().iter().enumerate() {
            let points = ranking.cell(&board, c, Color::Black) as f32;
            // Eight weights, each rounded by at most half a point.
            assert!((points - model.logits[i] * SCALE).abs() <= 4.0, "{c}");
        }
        // The turn black played there now scores as the best pair generated (cells the stones
        // see alike, such as mirror images, may tie with it).
        let mut pairs = Pairs::new();
        let b = board.clone();
        generate(&ranking, &b, &mut pairs, ROOT_PAIRS);
        let played = Turn::two(parse_cell("HH").unwrap(), parse_cell("II").unwrap());
        let place = pairs
            .iter()
            .position(|&(_, t)| t == played)
            .expect("generated");
        assert_eq!(pairs[place].0, pairs[0].0, "{pairs:?}");
        // Untrained, every candidate scores alike.
        let mut zero = Pairs::new();
        generate(&Model::new().ranking(), &b, &mut zero, ROOT_PAIRS);
        assert!(zero.iter().all(|&(s, _)| s == 0));
    }

    #[test]
    fn the_policy_rate_default_is_shown_as_written() {
        use crate::tuning::args::tests::parse;
        let p: PolicyArgs = parse("g --out r.bin").unwrap();
        assert_eq!(p.rate as f32, RATE);
        let help = parse::<PolicyArgs>("--help").unwrap_err().to_string();
        assert!(help.contains("[default: 0.1]"), "{help}");
    }
}

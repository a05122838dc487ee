//! Fitting the learned evaluation's cell values (`engine::cell_eval`) to game results, on
//! top of the hand evaluation.
//!
//! The model extends the logistic model of `fit`: P(mover wins) = sigmoid(K * (hand
//! evaluation + value term)). The value term is the sum, over the empty cells, of a to-move
//! value of the cell's code seen from the mover, less a waiting value of its code seen from
//! the waiting side. K is the engine's scale (`fit::ENGINE_TABLE_K`), so the
//! values are in the evaluation's points and only correct what the patterns and windows
//! miss.
//!
//! The values start at zero and are fitted by Adagrad, one position at a time, with an L2
//! penalty that keeps rare codes near zero; every `holdout`-th game is held out and the
//! pass with the lowest held-out loss is kept.

pub mod job;

use super::games::GameTurns;
use super::{FitReport, is_quiet};
use crate::engine::cell_eval::{self, CellValues};
use crate::engine::eval::{WIN_BOUND, hand_score};
use crate::rules::board::Board;
use crate::rules::cells::{CELL_CODES, cell_code};
use crate::rules::stones::PlaceTurn;

/// The fit's defaults: passes, Adagrad's step, the L2 penalty (per position, in logits;
/// every how many games one is held out: `HOLDOUT_EVERY`).
pub const EPOCHS: usize = 40;
/// Adagrad's step for cell values.
pub const CELL_RATE: f64 = 0.03;
pub const LAMBDA: f64 = 1e-6;

/// The quiet positions of games, as the fit reads them.
pub struct Positions {
    /// Per position: its game, the result for the mover, the hand evaluation in points,
    /// and where its keys start in `keys`.
    rows: Vec<Row>,
    /// Codes: the mover's codes of the empty cells (none of them 0), then the waiting
    /// side's.
    keys: Vec<u32>,
}

struct Row {
    game: usize,
    result: f64,
    /// What the fit aims at: the result, or a blend of it and a search's verdict
    /// (`Positions::blend_scores`).
    target: f64,
    /// The search's score of the position in the games file, for the mover.
    score: Option<i32>,
    hand: f64,
    start: usize,
    /// How many of the row's keys are the mover's; the rest, to `next.start`, the waiting
    /// side's.
    mover_keys: usize,
    end: usize,
}

impl Positions {
    /// The quiet positions of `games` after their openings, labelled with the
    /// result for the side to move, as `games::read_games` samples them.
    pub fn of(games: &[GameTurns]) -> Positions {
        let mut out = Positions {
            rows: Vec::new(),
            keys: Vec::new(),
        };
        for (game, g) in games.iter().enumerate() {
            for_each_sample(g, |board, score| {
                let me = board.side_to_move();
                let result = g.result_for(me);
                let start = out.keys.len();
                for side in [me, me.other()] {
                    for c in crate::rules::coord::Cell::all().filter(|&c| board.is_empty(c)) {
                        let lines = [0, 1, 2, 3].map(|d| board.line_keys(c, d)[side.index()]);
                        let code = cell_code(lines);
                        if code != 0 {
                            out.keys.push(code);
                        }
                    }
                    if side == me {
                        out.rows.push(Row {
                            game,
                            result,
                            target: result,
                            score,
                            hand: hand_score(board, me) as f64,
                            start,
                            mover_keys: out.keys.len() - start,
                            end: 0,
                        });
                    }
                }
                let row = out.rows.last_mut().expect("pushed above");
                row.end = out.keys.len();
            });
        }
        out
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Aims the fit at a blend of each position's result and the search's score the games
    /// file gives it (`tune selfplay` writes them): `blend` times the result plus the rest
    /// times the mover's chance that the score says (through the logistic at scale `k`; a
    /// proven win or loss is 1 or 0). A game's result labels all its positions
    /// alike, and a search's score knows nothing of what it could not see; the blend takes
    /// something of each. Positions without a score keep their result. Returns how many
    /// positions have one.
    pub fn blend_scores(&mut self, blend: f64, k: f64) -> usize {
        let mut blended = 0;
        for row in &mut self.rows {
            row.target = match row.score {
                Some(score) => {
                    blended += 1;
                    blend * row.result + (1.0 - blend) * win_probability(score, k)
                }
                None => row.result,
            };
        }
        blended
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}

/// Calls `f` with each position of `g` that the fit samples: the quiet ones after the
/// opening, as `games::read_games` samples them.
/// With the board goes the score the file gives it, if any.
fn for_each_sample(g: &GameTurns, mut f: impl FnMut(&Board, Option<i32>)) {
    let mut board = Board::new();
    for (k, turn) in g.turns.iter().enumerate() {
        if k >= g.first_sampled() && is_quiet(&board) {
            f(&board, g.scores.get(k).copied().flatten());
        }
        board.place_turn(turn, board.side_to_move());
    }
}

/// A search score as the mover's chance: a proven win or loss is certain, anything else
/// goes through the logistic at scale `k`.
fn win_probability(score: i32, k: f64) -> f64 {
    if score > WIN_BOUND {
        1.0
    } else if score < -WIN_BOUND {
        0.0
    } else {
        1.0 / (1.0 + (-k * score as f64).exp())
    }
}

/// The values during the fit, in logits: to-move values of the codes, then waiting values.
pub struct Model {
    weights: Vec<f64>,
    squares: Vec<f64>,
    k: f64,
}

impl Model {
    pub fn new(k: f64) -> Model {
        Model {
            weights: vec![0.0; 2 * CELL_CODES],
            squares: vec![0.0; 2 * CELL_CODES],
            k,
        }
    }

    /// Where the waiting side's values start.
    fn waiting(&self) -> usize {
        CELL_CODES
    }

    fn logit(&self, p: &Positions, row: &Row) -> f64 {
        let keys = &p.keys[row.start..row.end];
        let (mine, theirs) = keys.split_at(row.mover_keys);
        self.k * row.hand + mine.iter().map(|&k| self.weights[k as usize]).sum::<f64>()
            - theirs
                .iter()
                .map(|&k| self.weights[self.waiting() + k as usize])
                .sum::<f64>()
    }

    /// One pass over the positions `take` accepts (a step per position when `rate` > 0):
    /// the mean log loss.
    pub fn pass(
        &mut self,
        p: &Positions,
        take: impl Fn(usize) -> bool,
        rate: f64,
        lambda: f64,
    ) -> f64 {
        let (mut loss, mut count) = (0.0, 0usize);
        for row in p.rows.iter().filter(|r| take(r.game)) {
            let z = self.logit(p, row);
            let q = 1.0 / (1.0 + (-z).exp());
            let q = q.clamp(1e-12, 1.0 - 1e-12);
            loss -= row.target * q.ln() + (1.0 - row.target) * (1.0 - q).ln();
            count += 1;
            if rate > 0.0 {
                let g = q - row.target;
                let keys = &p.keys[row.start..row.end];
                for (i, &k) in keys.iter().enumerate() {
                    let (index, sign) = if i < row.mover_keys {
                        (k as usize, 1.0)
                    } else {
                        (self.waiting() + k as usize, -1.0)
                    };
                    let step = sign * g + lambda * self.weights[index];
                    self.squares[index] += step * step;
                    self.weights[index] -= rate * step / (self.squares[index].sqrt() + 1e-9);
                }
            }
        }
        loss / count.max(1) as f64
    }

    /// A value in evaluation points.
    fn points(&self, index: usize) -> i16 {
        (self.weights[index] / self.k)
            .round()
            .clamp(i16::MIN as f64, i16::MAX as f64) as i16
    }

    /// The cell values in evaluation points, for every code.
    pub fn cell_values(&self) -> Box<CellValues> {
        let mut values = cell_eval::zero_cell_values();
        for (code, v) in values.iter_mut().enumerate() {
            *v = [self.points(code), self.points(CELL_CODES + code)];
        }
        values
    }

    /// The values as an evaluation file.
    pub fn to_file(&self) -> Vec<u8> {
        cell_eval::encode(&self.cell_values())
    }
}

/// Fits `model` to `positions` by `epochs` passes, holding out every `holdout_every`-th
/// game (0: none, and the last pass is kept), and keeps the pass with the lowest held-out
/// loss. `hand_test` is the held-out loss without the model, for the report.
fn fit_passes(
    model: &mut Model,
    positions: &Positions,
    (epochs, rate, lambda, holdout_every): (usize, f64, f64, usize),
    hand_test: f64,
    mut progress: impl FnMut(usize, f64, f64),
) -> FitReport {
    let held = move |g: usize| held_out(g, holdout_every);
    let mut report = FitReport {
        baseline_test: hand_test,
        passes: Vec::new(),
        kept: 0,
    };
    let mut best: Option<(f64, Vec<f64>)> = None;
    for epoch in 0..epochs {
        let train = model.pass(positions, |g| !held(g), rate, lambda);
        let test = if holdout_every == 0 {
            train
        } else {
            model.pass(positions, held, 0.0, 0.0)
        };
        progress(epoch + 1, train, test);
        report.passes.push((train, test));
        if best.as_ref().is_none_or(|(l, _)| test < *l) {
            best = Some((test, model.weights.clone()));
            report.kept = epoch + 1;
        }
    }
    if let Some((_, weights)) = best {
        model.weights = weights;
    }
    report
}

/// Whether game `g` is held out when every `holdout_every`-th game is (0: none).
pub fn held_out(g: usize, holdout_every: usize) -> bool {
    holdout_every > 0 && g % holdout_every == holdout_every - 1
}

/// Fits the values to `positions` with the scale `k`, holding out every `holdout_every`-th
/// game (0: none, and the last pass is kept).
pub fn fit(
    positions: &Positions,
    k: f64,
    epochs: usize,
    rate: f64,
    lambda: f64,
    holdout_every: usize,
    progress: impl FnMut(usize, f64, f64),
) -> (Model, FitReport) {
    let mut model = Model::new(k);
    let hand_test = model.pass(positions, |g| held_out(g, holdout_every), 0.0, 0.0);
    let report = fit_passes(
        &mut model,
        positions,
        (epochs, rate, lambda, holdout_every),
        hand_test,
        progress,
    );
    (model, report)
}

/// The positions the embedded cell values are fitted on: the match games and
/// the first two self-play files, with the self-play scores blended half into the labels.
#[cfg(test)]
pub(super) fn embedded_fit_positions() -> Positions {
    let mut games = Vec::new();
    for text in [
        include_str!("../../tests/data/fit-games.txt"),
        include_str!("../../tests/data/selfplay-games.txt"),
        include_str!("../../tests/data/selfplay-games-2.txt"),
    ] {
        games.extend(super::games::read_game_turns(text).expect("the data files read"));
    }
    let mut positions = Positions::of(&games);
    positions.blend_scores(0.5, super::fit::ENGINE_TABLE_K);
    positions
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::{EvalModel, Evaluator};
    use crate::rules::board::Color;
    use crate::tuning::HOLDOUT_EVERY;
    use crate::tuning::fit::ENGINE_TABLE_K;
    use crate::tuning::games::read_game_turns;

    /// The engine's `cells.bin` is what `tune eval --blend 0.5` makes of
    /// the match games and the two self-play files (the command in docs/tuning.md).
    #[test]
    fn the_engines_cell_values_are_the_fit_of_the_match_and_self_play_games() {
        let positions = embedded_fit_positions();
        let (model, report) = fit(
            &positions,
            ENGINE_TABLE_K,
            EPOCHS,
            CELL_RATE,
            LAMBDA,
            HOLDOUT_EVERY,
            |_, _, _| {},
        );
        assert!(model.to_file() == include_bytes!("../engine/cells.bin"));
        let kept = report.passes[report.kept - 1].1;
        assert!(
            kept < report.baseline_test - 0.05,
            "{kept} against {}",
            report.baseline_test
        );
    }

    /// The positions are those `read_games` samples, with the hand evaluation as the
    /// engine computes it, and the codes of the empty cells seen from each side.
    #[test]
    fn positions_are_the_quiet_samples_with_their_cell_codes() {
        let text = "1 JJ AAAB KJLJ ACAD MJNJ\n0 JJ KKLL MMNN OOPP\n";
        let games = read_game_turns(text).unwrap();
        let p = Positions::of(&games);
        let (samples, _) = crate::tuning::games::read_games(text).unwrap();
        assert_eq!(p.len(), samples.len());
        let board = Board::from_turns("JJ AAAB KJLJ").unwrap();
        let row = &p.rows[0];
        assert_eq!(row.hand, hand_score(&board, Color::White) as f64);
        assert_eq!(row.result, 0.0);
        let codes = |side: Color| -> Vec<u32> {
            crate::rules::coord::Cell::all()
                .filter(|&c| board.is_empty(c))
                .map(|c| cell_code([0, 1, 2, 3].map(|d| board.line_keys(c, d)[side.index()])))
                .filter(|&code| code != 0)
                .collect()
        };
        let (mine, theirs) = p.keys[row.start..row.end].split_at(row.mover_keys);
        // White to move: its codes, then black's; black's live two KJ LJ gives it some.
        assert_eq!(mine, codes(Color::White));
        assert_eq!(theirs, codes(Color::Black));
        assert!(!theirs.is_empty());
    }

    /// A position's label moves from its result toward its score's chance by the blend;
    /// positions without a score keep their result, and a proven win counts as certain.
    #[test]
    fn scores_blend_into_the_labels() {
        let text = "1 JJ AAAB KJLJ ACAD:999001 MJNJ\n0 JJ KKLL MMNN OOPP:400 QQRR\n\
                    1 JJ KKLL MMNN OOPP:0 QQRR\n";
        let games = read_game_turns(text).unwrap();
        let mut p = Positions::of(&games);
        let scored: Vec<Option<i32>> = p.rows.iter().map(|r| r.score).collect();
        // The positions before the last turns have no score.
        assert_eq!(scored, [Some(999_001), Some(400), None, Some(0), None]);
        assert_eq!(p.blend_scores(1.0, 0.01), 3);
        assert!(p.rows.iter().all(|r| r.target == r.result));
        p.blend_scores(0.25, 0.01);
        let targets: Vec<f64> = p.rows.iter().map(|r| r.target).collect();
        // White is to move in the scored ones: it lost game 1 (in spite of a proven win,
        // per the score), won game 2 and lost game 3.
        let chance = 1.0 / (1.0 + (-4.0f64).exp());
        let expected = [0.75, 0.25 + 0.75 * chance, 0.0, 0.75 * 0.5, 1.0];
        for (t, e) in targets.iter().zip(expected) {
            assert!((t - e).abs() < 1e-12, "{targets:?} against {expected:?}");
        }
        let mut unscored = Positions::of(&read_game_turns("1 JJ KKLL MMNN OOPP").unwrap());
        assert_eq!(unscored.blend_scores(0.0, 0.01), 0);
        assert!(unscored.rows.iter().all(|r| r.target == r.result));
    }

    /// Cell values: on part of the match games their fit also lowers the held-out loss
    /// below the hand evaluation's, and an evaluator summing them over the empty cells
    /// evaluates as the model does.
    #[test]
    fn cell_values_improve_on_the_hand_evaluation_and_the_board_sums_them() {
        let games = read_game_turns(include_str!("../../tests/data/fit-games.txt")).unwrap();
        let games: Vec<GameTurns> = games.into_iter().take(1500).collect();
        let p = Positions::of(&games);
        let (model, report) = fit(&p, ENGINE_TABLE_K, 4, CELL_RATE, LAMBDA, 5, |_, _, _| {});
        let kept = report.passes[report.kept - 1].1;
        assert!(
            kept < report.baseline_test - 0.01,
            "{kept} against {}",
            report.baseline_test
        );
        let board = Board::from_turns("JJ KKLL MMNN OOPP").unwrap();
        let evaluator = Evaluator::new(&EvalModel::cells(model.cell_values()), &board);
        let me = board.side_to_move();
        let evaluate = |board: &Board, me| evaluator.evaluate(board, me);
        let positions = Positions::of(&read_game_turns("1 JJ KKLL MMNN OOPP QQRR").unwrap());
        let row = positions.rows.last().unwrap();
        let cells = row.end - row.start;
        assert!(cells > 10, "{cells} cells with a code");
        let points = (model.logit(&positions, row) / ENGINE_TABLE_K).round() as i32;
        // Each cell's value rounds by at most half a point.
        assert!(
            (evaluate(&board, me) - points).abs() <= cells.div_ceil(2) as i32,
            "{} {points}",
            evaluate(&board, me)
        );
        assert!(cell_eval::decode(&model.to_file()).unwrap()[..] == model.cell_values()[..]);
    }
}

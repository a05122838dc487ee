//! Logistic regression of game results on the evaluation ("Texel" tuning).
//!
//! `eval::evaluate` is linear in the pattern counts: for each class p, the mover's count
//! times `TO_MOVE_PATTERN[p]` minus the waiting side's count times `WAITING_PATTERN[p]`.
//! The model is P(mover wins) = sigmoid(K * eval), fitted by minimising the mean log loss
//! against the results (a draw counts one half):
//!
//! 1. `K` is fitted first, with the current table: it fixes the scale, so the fitted weights
//!    stay in the units of the rest of the engine (the classes kept fixed, the win scores);
//! 2. with `K` fixed, the free weights are fitted by Newton's method (the loss is convex in
//!    them), with a light L2 penalty on `K * weight` so that rare classes stay bounded.
//!
//! The window term of the evaluation (`TO_MOVE_WINDOW`, `WAITING_WINDOW`) is linear in the
//! pure-window counts in the same way, and its windows of one to three stones are fitted
//! with the patterns (`FITTED_WINDOWS`); windows of four or more are threat windows, which a
//! quiet position does not hold.
//!
//! Only `FITTED` classes are free. The others cannot be fitted from quiet positions and are
//! kept at their current values: none is the reference class (every stone has a class in
//! each direction, so a weight on none is only a per-stone constant); the fours, fives and
//! sixes all mean a threat window, which makes a position not quiet: the search never
//! evaluates it for the mover (a threat window is a win) and evaluates the waiting side's
//! only when the forced-block extensions run out, so no data point says what they are worth.

pub mod job;

use crate::engine::tunables::{TO_MOVE_PATTERN, TO_MOVE_WINDOW, WAITING_PATTERN, WAITING_WINDOW};
use crate::rules::board::Board;
use crate::rules::geometry::WINDOW;
use crate::rules::patterns::{PATTERN_COUNT, Pattern};

/// The classes whose weights are fitted, for the mover and for the waiting side.
pub const FITTED: [Pattern; 4] = [
    Pattern::Dead2,
    Pattern::Live2,
    Pattern::Dead3,
    Pattern::Live3,
];
/// The window sizes (own stones in a window the opponent has no stone in) whose weights are
/// fitted, for the mover and for the waiting side.
pub const FITTED_WINDOWS: [usize; 3] = [1, 2, 3];
const FREE: usize = 2 * (FITTED.len() + FITTED_WINDOWS.len());

/// Where a free weight sits: the mover's or the waiting side's entry for a pattern class or
/// a window size.
#[derive(Clone, Copy, Debug)]
struct Slot {
    mover: bool,
    window: bool,
    index: usize,
}

/// The free weights in the order the fit keeps them: the mover's fitted pattern classes,
/// the waiting side's, then the mover's fitted windows and the waiting side's.
fn slots() -> impl Iterator<Item = Slot> {
    let sides = || [true, false].into_iter();
    let patterns = sides().flat_map(|mover| {
        FITTED.iter().map(move |&p| Slot {
            mover,
            window: false,
            index: p as usize,
        })
    });
    let windows = sides().flat_map(|mover| {
        FITTED_WINDOWS.iter().map(move |&k| Slot {
            mover,
            window: true,
            index: k,
        })
    });
    patterns.chain(windows)
}

/// The L2 penalty on the weights in logit units (`fit_weights`).
pub const LAMBDA: f64 = 1e-4;
/// The scale the engine's tables were fitted with (defined with the evaluation): giving it
/// makes the fit a function of the games alone, whatever the tables are now.
pub use crate::engine::eval::ENGINE_TABLE_K;

/// One position of a games file (`games::read_games`), as the evaluation sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub game: u64,
    /// 1 win, 0.5 draw, 0 loss, for the side to move.
    pub result: f64,
    /// Pattern counts of the side to move and of the waiting side.
    pub mine: [u16; PATTERN_COUNT],
    pub theirs: [u16; PATTERN_COUNT],
    /// Pure-window counts (`Stones::pure_windows`) of the side to move and the waiting side.
    pub mine_windows: [u16; WINDOW + 1],
    pub theirs_windows: [u16; WINDOW + 1],
}

impl Sample {
    pub fn new(game: u64, result: f64, board: &Board) -> Sample {
        let me = board.side_to_move();
        Sample {
            game,
            result,
            mine: *board.pattern_counts(me),
            theirs: *board.pattern_counts(me.other()),
            mine_windows: *board.as_stones().pure_windows(me),
            theirs_windows: *board.as_stones().pure_windows(me.other()),
        }
    }

    /// The free features, signed as they enter the evaluation.
    fn features(&self) -> [f64; FREE] {
        let mut x = [0.0; FREE];
        for (x, slot) in x.iter_mut().zip(slots()) {
            let count = match (slot.mover, slot.window) {
                (true, false) => self.mine[slot.index],
                (false, false) => self.theirs[slot.index],
                (true, true) => self.mine_windows[slot.index],
                (false, true) => self.theirs_windows[slot.index],
            } as f64;
            *x = if slot.mover { count } else { -count };
        }
        x
    }
}

/// Positions of every `every`-th game are held out from the fit.
pub fn split(samples: &[Sample], every: usize) -> (Vec<Sample>, Vec<Sample>) {
    samples
        .iter()
        .cloned()
        .partition(|s| every == 0 || s.game % every as u64 != 0)
}

/// The evaluation's tables for both sides: patterns and windows. The fit works on real
/// weights (`Weights`); the engine holds integers (`TunedTables`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tables<T> {
    pub to_move: [T; PATTERN_COUNT],
    pub waiting: [T; PATTERN_COUNT],
    pub to_move_window: [T; WINDOW + 1],
    pub waiting_window: [T; WINDOW + 1],
}

/// The tables in evaluation units, as the fit moves them.
pub type Weights = Tables<f64>;
/// The integer tables `tunables.rs` holds.
pub type TunedTables = Tables<i32>;

impl<T: Copy> Tables<T> {
    fn map<U>(&self, f: impl Fn(T) -> U) -> Tables<U> {
        Tables {
            to_move: self.to_move.map(&f),
            waiting: self.waiting.map(&f),
            to_move_window: self.to_move_window.map(&f),
            waiting_window: self.waiting_window.map(&f),
        }
    }
}

impl<T> Tables<T> {
    fn slot(&mut self, slot: Slot) -> &mut T {
        let table: &mut [T] = match (slot.mover, slot.window) {
            (true, false) => &mut self.to_move,
            (false, false) => &mut self.waiting,
            (true, true) => &mut self.to_move_window,
            (false, true) => &mut self.waiting_window,
        };
        &mut table[slot.index]
    }
}

impl TunedTables {
    /// The tables the engine uses now.
    pub fn current() -> TunedTables {
        TunedTables {
            to_move: TO_MOVE_PATTERN,
            waiting: WAITING_PATTERN,
            to_move_window: TO_MOVE_WINDOW,
            waiting_window: WAITING_WINDOW,
        }
    }
}

impl Weights {
    /// The tables the engine uses now (`tunables.rs`).
    pub fn current() -> Weights {
        TunedTables::current().map(f64::from)
    }

    /// The current table with every fitted class set to zero.
    pub fn without_fitted() -> Weights {
        Weights::current().with_free(&[0.0; FREE])
    }

    /// `eval::evaluate` with this table.
    pub fn eval(&self, s: &Sample) -> f64 {
        let patterns: f64 = (0..PATTERN_COUNT)
            .map(|p| self.to_move[p] * s.mine[p] as f64 - self.waiting[p] * s.theirs[p] as f64)
            .sum();
        let windows: f64 = (0..=WINDOW)
            .map(|k| {
                self.to_move_window[k] * s.mine_windows[k] as f64
                    - self.waiting_window[k] * s.theirs_windows[k] as f64
            })
            .sum();
        patterns + windows
    }

    fn free(&self) -> [f64; FREE] {
        let mut w = *self;
        let mut x = [0.0; FREE];
        for (x, slot) in x.iter_mut().zip(slots()) {
            *x = *w.slot(slot);
        }
        x
    }

    fn with_free(&self, x: &[f64; FREE]) -> Weights {
        let mut w = *self;
        for (&x, slot) in x.iter().zip(slots()) {
            *w.slot(slot) = x;
        }
        w
    }

    /// Rounded to the engine's integer tables.
    pub fn rounded(&self) -> TunedTables {
        self.map(|v| v.round() as i32)
    }
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Log loss of predicting sigmoid(z) for result y, computed without overflow.
fn log_loss(z: f64, y: f64) -> f64 {
    z.max(0.0) + (-z.abs()).exp().ln_1p() - y * z
}

/// Mean log loss of sigmoid(k * eval) against the results (ln 2 when nothing is known).
pub fn loss(samples: &[Sample], weights: &Weights, k: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| log_loss(k * weights.eval(s), s.result))
        .sum();
    total / samples.len().max(1) as f64
}

/// The scale `k` minimising the loss of `weights` (Newton's method on a convex function).
pub fn fit_k(samples: &[Sample], weights: &Weights) -> f64 {
    let evals: Vec<(f64, f64)> = samples
        .iter()
        .map(|s| (weights.eval(s), s.result))
        .collect();
    let n = evals.len().max(1) as f64;
    let loss_at = |k: f64| evals.iter().map(|&(e, y)| log_loss(k * e, y)).sum::<f64>() / n;
    let mut k = 0.0;
    for _ in 0..100 {
        let (mut g, mut h) = (0.0, 0.0);
        for &(e, y) in &evals {
            let p = sigmoid(k * e);
            g += (p - y) * e;
            h += p * (1.0 - p) * e * e;
        }
        if h <= 0.0 {
            break;
        }
        let mut step = g / h;
        let before = loss_at(k);
        while loss_at(k - step) > before && step.abs() > 1e-15 {
            step /= 2.0;
        }
        k -= step;
        if step.abs() <= 1e-12 * k.abs().max(1e-9) {
            break;
        }
    }
    k
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting (`a` is positive definite
/// here, the Hessian plus the penalty).
fn solve(mut a: [[f64; FREE]; FREE], mut b: [f64; FREE]) -> [f64; FREE] {
    for col in 0..FREE {
        let pivot = (col..FREE)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .expect("rows left");
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (top, below) = a.split_at_mut(col + 1);
        let pivot_row = &top[col];
        for (offset, row) in below.iter_mut().enumerate() {
            let f = row[col] / pivot_row[col];
            for (r, p) in row.iter_mut().zip(pivot_row).skip(col) {
                *r -= f * p;
            }
            b[col + 1 + offset] -= f * b[col];
        }
    }
    let mut x = [0.0; FREE];
    for row in (0..FREE).rev() {
        let tail: f64 = (row + 1..FREE).map(|c| a[row][c] * x[c]).sum();
        x[row] = (b[row] - tail) / a[row][row];
    }
    x
}

/// Fits the `FITTED` weights of `start` with the scale `k` fixed, minimising the mean log loss
/// plus `lambda` times the squared norm of `k * weight` (the weights in units of the logit).
/// Returns the weights and the largest gradient component left (a convergence check).
pub fn fit_weights(samples: &[Sample], start: &Weights, k: f64, lambda: f64) -> (Weights, f64) {
    let fixed = start.with_free(&[0.0; FREE]);
    let rows: Vec<([f64; FREE], f64, f64)> = samples
        .iter()
        .map(|s| (s.features(), k * fixed.eval(s), s.result))
        .collect();
    let n = rows.len().max(1) as f64;
    let objective = |beta: &[f64; FREE]| {
        let data: f64 = rows
            .iter()
            .map(|(x, off, y)| log_loss(off + dot(x, beta), *y))
            .sum::<f64>()
            / n;
        data + lambda * dot(beta, beta)
    };
    let mut beta = start.free().map(|w| w * k);
    let mut worst = f64::INFINITY;
    for _ in 0..100 {
        let mut g = [0.0; FREE];
        let mut h = [[0.0; FREE]; FREE];
        for (x, off, y) in &rows {
            let p = sigmoid(off + dot(x, &beta));
            let v = p * (1.0 - p);
            for i in 0..FREE {
                g[i] += (p - y) * x[i];
                for j in 0..FREE {
                    h[i][j] += v * x[i] * x[j];
                }
            }
        }
        for i in 0..FREE {
            g[i] = g[i] / n + 2.0 * lambda * beta[i];
            for v in h[i].iter_mut() {
                *v /= n;
            }
            h[i][i] += 2.0 * lambda + 1e-12;
        }
        worst = g.iter().fold(0.0, |m: f64, v| m.max(v.abs()));
        if worst < 1e-10 {
            break;
        }
        let step = solve(h, g);
        let before = objective(&beta);
        let mut t = 1.0;
        let mut next = beta;
        while t > 1e-6 {
            for i in 0..FREE {
                next[i] = beta[i] - t * step[i];
            }
            if objective(&next) <= before {
                break;
            }
            t /= 2.0;
        }
        beta = next;
    }
    (start.with_free(&beta.map(|b| b / k)), worst)
}

fn dot(a: &[f64; FREE], b: &[f64; FREE]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// What the tables' fit reports: one Newton solve, so no passes (`tuning::FitReport`), but the
/// split's sizes, K, the weights, and the losses before and after.
#[derive(Clone, Debug)]
pub struct TableFit {
    pub train: usize,
    pub test: usize,
    pub k: f64,
    pub weights: Weights,
    /// Largest gradient component at the fitted weights.
    pub gradient: f64,
    /// Mean log loss of the current table and of the fitted one (same `k`).
    pub train_before: f64,
    pub train_after: f64,
    pub test_before: f64,
    pub test_after: f64,
}

/// Fits the weights (and `k`, unless given) on the positions outside every
/// `holdout_every`-th game and measures the current and fitted tables on the training and
/// held-out parts. With `k` given the result does not depend on the current table: the
/// penalised loss has one minimum.
pub fn run_fit(samples: &[Sample], holdout_every: usize, lambda: f64, k: Option<f64>) -> TableFit {
    let (train, test) = split(samples, holdout_every);
    let current = Weights::current();
    let k = k.unwrap_or_else(|| fit_k(&train, &current));
    let (weights, gradient) = fit_weights(&train, &current, k, lambda);
    TableFit {
        train: train.len(),
        test: test.len(),
        k,
        weights,
        gradient,
        train_before: loss(&train, &current, k),
        train_after: loss(&train, &weights, k),
        test_before: loss(&test, &current, k),
        test_after: loss(&test, &weights, k),
    }
}

fn array_source(values: &[i32]) -> String {
    let items: Vec<String> = values.iter().map(|v| v.to_string()).collect();
    format!("[{}]", items.join(", "))
}

/// The tables as Rust source for `tunables.rs`.
pub fn table_source(weights: &Weights) -> String {
    let t = weights.rounded();
    format!(
        "pub const TO_MOVE_PATTERN: [i32; PATTERN_COUNT] = {};\n\
         pub const WAITING_PATTERN: [i32; PATTERN_COUNT] = {};\n\
         pub const TO_MOVE_WINDOW: [i32; WINDOW + 1] = {};\n\
         pub const WAITING_WINDOW: [i32; WINDOW + 1] = {};\n",
        array_source(&t.to_move),
        array_source(&t.waiting),
        array_source(&t.to_move_window),
        array_source(&t.waiting_window)
    )
}

/// Reads back the tables printed by `table_source` (or the ones in `tunables.rs`).
pub fn parse_table(source: &str) -> Result<TunedTables, String> {
    Ok(TunedTables {
        to_move: parse_array(source, "TO_MOVE_PATTERN")?,
        waiting: parse_array(source, "WAITING_PATTERN")?,
        to_move_window: parse_array(source, "TO_MOVE_WINDOW")?,
        waiting_window: parse_array(source, "WAITING_WINDOW")?,
    })
}

/// The values of `pub const NAME: [i32; ..] = [..];` in `source`.
fn parse_array<const N: usize>(source: &str, name: &str) -> Result<[i32; N], String> {
    let start = source
        .find(&format!("pub const {name}:"))
        .ok_or(format!("no {name}"))?;
    let rest = &source[start..];
    let open = rest.find("= [").ok_or(format!("{name}: no '= ['"))? + 3;
    let close = rest[open..].find(']').ok_or(format!("{name}: no ']'"))? + open;
    let values: Vec<i32> = rest[open..close]
        .split(',')
        .map(|v| v.trim().replace('_', "").parse::<i32>())
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{name}: {e}"))?;
    values
        .try_into()
        .map_err(|v: Vec<i32>| format!("{name}: {} values", v.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::hand_score;
    use crate::rng::Rng;

    #[test]
    fn the_model_is_the_engines_evaluation() {
        let board = Board::from_turns("JJ KIKK IIHH LLKL HKJK").unwrap();
        let s = Sample::new(0, 1.0, &board);
        let me = board.side_to_move();
        assert_eq!(
            Weights::current().eval(&s),
            hand_score(&board, me) as f64,
            "a change to eval.rs must be mirrored here"
        );
        assert!(s.mine.iter().chain(&s.theirs).any(|&c| c > 0));
    }

    /// Positions drawn from known weights: the fit must find them again.
    #[test]
    fn recovers_known_weights_from_synthetic_results() {
        // Pattern weights (mover's dead2, live2, dead3, live3, then the waiting side's), then
        // window weights (mover's one, two, three stones, then the waiting side's).
        let truth = Weights::current().with_free(&[
            12.0, 50.0, 25.0, 300.0, 4.0, 10.0, 6.0, 30.0, 2.0, 5.0, 15.0, 1.0, 3.0, 9.0,
        ]);
        let k = 1.0 / 150.0;
        let mut rng = Rng::new(3);
        let samples: Vec<Sample> = (0..20_000)
            .map(|i| {
                let mut s = Sample {
                    game: i,
                    result: 0.0,
                    mine: [0; PATTERN_COUNT],
                    theirs: [0; PATTERN_COUNT],
                    mine_windows: [0; WINDOW + 1],
                    theirs_windows: [0; WINDOW + 1],
                };
                for (p, top) in [(1, 12), (2, 10), (3, 6), (4, 3)] {
                    s.mine[p] = rng.below(top) as u16;
                    s.theirs[p] = rng.below(top) as u16;
                }
                for (w, top) in [(1, 60), (2, 30), (3, 10)] {
                    s.mine_windows[w] = rng.below(top) as u16;
                    s.theirs_windows[w] = rng.below(top) as u16;
                }
                let p = sigmoid(k * truth.eval(&s));
                s.result = f64::from((rng.below(1 << 20) as f64) < p * (1 << 20) as f64);
                s
            })
            .collect();
        assert_eq!(slots().count(), FREE, "every free weight has a slot");
        let (fitted, gradient) = fit_weights(&samples, &Weights::current(), k, 0.0);
        assert!(gradient < 1e-8, "converged: gradient {gradient}");
        for (got, want) in fitted.free().iter().zip(truth.free()) {
            assert!(
                (got - want).abs() < 0.25 * want.abs() + 3.0,
                "fitted {:?} truth {:?}",
                fitted.free(),
                truth.free()
            );
        }
        assert!(loss(&samples, &fitted, k) <= loss(&samples, &truth, k));
        // One minimum: another start ends in the same place.
        let (again, _) = fit_weights(&samples, &Weights::without_fitted(), k, 0.0);
        for (a, b) in again.free().iter().zip(fitted.free()) {
            assert!(
                (a - b).abs() < 1e-6,
                "{:?} vs {:?}",
                again.free(),
                fitted.free()
            );
        }
        // With the truth's weights the best scale is near the truth's scale.
        let fitted_k = fit_k(&samples, &truth);
        assert!((fitted_k / k - 1.0).abs() < 0.1, "k {fitted_k}");
    }

    #[test]
    fn the_engines_table_parses() {
        let source = include_str!("../engine/tunables.rs");
        assert_eq!(parse_table(source).unwrap(), TunedTables::current());
        assert!(parse_table("pub const TO_MOVE_PATTERN: [i32; 10] = [1, 2];").is_err());
    }
}

//! Fitting the cell network (`engine::eval`'s `--eval net`): the cell values made a small
//! network, in the manner of the n-tuple networks of gomoku engines.
//!
//! The cell values give each empty cell's code one number per side, and the evaluation adds
//! them up: a linear model, blind to how the cells combine. Two cells where the mover makes a
//! four are worth far more than twice one, since a turn has two stones. The network keeps a
//! vector of `LANES` numbers per code and side (the first layer: a table lookup, summed over
//! the empty cells as the board keeps the cell values' sums), then reads the two sums, the
//! mover's as to move and the waiting side's as waiting, through a hidden layer of `HIDDEN`
//! rectified units to one number. The board keeps the sums as stones come and go; only the
//! small head is computed at a leaf.
//!
//! The fit is the cell values' (`values`): P(mover wins) = sigmoid(K * hand evaluation +
//! network output), Adagrad one position at a time, every `holdout`-th game held out and
//! the best pass kept. It starts from small seeded random weights, so it is reproducible.

use super::FitReport;
use super::values::{Passes, Positions, fit_passes, held_out};
use crate::engine::cell_eval::{
    B1_LIMIT, CellModel, HIDDEN, INPUT_LIMIT, INPUTS, NetHead, OUT_SHIFT, W1_LIMIT,
};
use crate::rng::Rng;
use crate::rules::cells::{CELL_CODES, LANES, add_code, zero_cell_values};

/// Where each kind of weight starts in `Net::weights`.
const EMBED: usize = 0;
const W1: usize = EMBED + 2 * CELL_CODES * LANES;
const B1: usize = W1 + HIDDEN * INPUTS;
const W2: usize = B1 + HIDDEN;
const B2: usize = W2 + HIDDEN;
const WEIGHTS: usize = B2 + 1;

/// The seed of the starting weights.
pub const SEED: u64 = 6;

/// The network during the fit, in logits.
pub struct Net {
    weights: Vec<f64>,
    squares: Vec<f64>,
    k: f64,
}

/// One position's forward pass, kept for the backward one.
struct Forward {
    x: [f64; INPUTS],
    a: [f64; HIDDEN],
    out: f64,
}

impl Net {
    /// Small seeded random weights: the embeddings near zero, the head's so that every
    /// hidden unit starts alive.
    /// Every weight zero: the network adds nothing to the hand evaluation.
    fn zero(k: f64) -> Net {
        Net {
            weights: vec![0.0; WEIGHTS],
            squares: vec![0.0; WEIGHTS],
            k,
        }
    }

    pub fn new(k: f64, seed: u64) -> Net {
        let mut rng = Rng::new(seed);
        let mut uniform = |scale: f64| {
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            (2.0 * u - 1.0) * scale
        };
        let mut net = Net::zero(k);
        let weights = &mut net.weights;
        for w in &mut weights[EMBED..W1] {
            *w = uniform(0.02);
        }
        for w in &mut weights[W1..B1] {
            *w = uniform(1.0 / (INPUTS as f64).sqrt());
        }
        for w in &mut weights[B1..W2] {
            *w = 0.1;
        }
        for w in &mut weights[W2..B2] {
            *w = uniform(1.0 / (HIDDEN as f64).sqrt());
        }
        net
    }

    fn embed(role: usize, code: u32) -> usize {
        EMBED + (role * CELL_CODES + code as usize) * LANES
    }

    fn forward(&self, mine: &[u32], theirs: &[u32]) -> Forward {
        let w = &self.weights;
        let mut x = [0.0; INPUTS];
        for (role, codes) in [mine, theirs].into_iter().enumerate() {
            for &code in codes {
                let e = Net::embed(role, code);
                for l in 0..LANES {
                    x[role * LANES + l] += w[e + l];
                }
            }
        }
        let mut a = [0.0; HIDDEN];
        let mut out = w[B2];
        for (j, aj) in a.iter_mut().enumerate() {
            let row = &w[W1 + j * INPUTS..W1 + (j + 1) * INPUTS];
            *aj = w[B1 + j] + row.iter().zip(&x).map(|(r, x)| r * x).sum::<f64>();
            out += w[W2 + j] * aj.max(0.0);
        }
        Forward { x, a, out }
    }

    /// One Adagrad step of weight `i` along `grad` (with the L2 penalty `lambda`).
    #[inline]
    fn step(&mut self, i: usize, grad: f64, rate: f64, lambda: f64) {
        let g = grad + lambda * self.weights[i];
        self.squares[i] += g * g;
        self.weights[i] -= rate * g / (self.squares[i].sqrt() + 1e-9);
    }

    /// One pass over the positions of the games `take` accepts (a step per position when
    /// `rate` > 0): the mean log loss.
    pub fn pass(
        &mut self,
        p: &Positions,
        take: impl Fn(usize) -> bool,
        rate: f64,
        lambda: f64,
    ) -> f64 {
        let (mut loss, mut count) = (0.0, 0usize);
        for s in p.samples().filter(|s| take(s.game)) {
            let f = self.forward(s.mine, s.theirs);
            let q = (1.0 / (1.0 + (-(self.k * s.hand + f.out)).exp())).clamp(1e-12, 1.0 - 1e-12);
            loss -= s.target * q.ln() + (1.0 - s.target) * (1.0 - q).ln();
            count += 1;
            if rate <= 0.0 {
                continue;
            }
            let g = q - s.target;
            let mut dx = [0.0; INPUTS];
            for j in 0..HIDDEN {
                let h = f.a[j].max(0.0);
                let da = if f.a[j] > 0.0 {
                    g * self.weights[W2 + j]
                } else {
                    0.0
                };
                self.step(W2 + j, g * h, rate, 0.0);
                if da != 0.0 {
                    for (i, d) in dx.iter_mut().enumerate() {
                        *d += self.weights[W1 + j * INPUTS + i] * da;
                        self.step(W1 + j * INPUTS + i, da * f.x[i], rate, 0.0);
                    }
                    self.step(B1 + j, da, rate, 0.0);
                }
            }
            self.step(B2, g, rate, 0.0);
            for (role, codes) in [s.mine, s.theirs].into_iter().enumerate() {
                for &code in codes {
                    let e = Net::embed(role, code);
                    for l in 0..LANES {
                        self.step(e + l, dx[role * LANES + l], rate, lambda);
                    }
                }
            }
        }
        loss / count.max(1) as f64
    }
}

impl Net {
    /// The network in the engine's integers (`cell_eval`), its inputs scaled so that the
    /// largest met in `positions` is a quarter of `INPUT_LIMIT`. Codes the fit never met
    /// keep no value.
    pub fn model(&self, positions: &Positions) -> CellModel {
        let w = &self.weights;
        let largest = positions
            .samples()
            .flat_map(|s| self.forward(s.mine, s.theirs).x)
            .fold(1e-9f64, |m, x| m.max(x.abs()));
        let input_scale = (INPUT_LIMIT / 4) as f64 / largest;
        let w1_largest = w[W1..B1].iter().fold(1e-9f64, |m, x| m.max(x.abs()));
        let w1_scale = (W1_LIMIT - 1) as f64 / w1_largest;
        let mut values = zero_cell_values();
        for (code, v) in values.iter_mut().enumerate() {
            for (role, lanes) in v.iter_mut().enumerate() {
                let e = Net::embed(role, code as u32);
                if self.squares[e..e + LANES].iter().all(|&s| s == 0.0) {
                    continue;
                }
                for (l, x) in lanes.iter_mut().enumerate() {
                    *x = (w[e + l] * input_scale)
                        .round()
                        .clamp(i16::MIN as f64, i16::MAX as f64) as i16;
                }
            }
        }
        let one = (1u64 << OUT_SHIFT) as f64;
        let mut head = NetHead {
            w1: [[0; INPUTS]; HIDDEN],
            b1: [0; HIDDEN],
            w2: [0; HIDDEN],
            b2: (w[B2] / self.k * one).round() as i64,
        };
        for j in 0..HIDDEN {
            for i in 0..INPUTS {
                head.w1[j][i] = (w[W1 + j * INPUTS + i] * w1_scale).round() as i32;
            }
            // Far within the limit unless a bias dwarfs every input; clamped all the same.
            let b1 = (w[B1 + j] * input_scale * w1_scale).round();
            head.b1[j] = b1.clamp(1.0 - B1_LIMIT as f64, B1_LIMIT as f64 - 1.0) as i32;
            head.w2[j] = (w[W2 + j] / self.k / (input_scale * w1_scale) * one).round() as i64;
        }
        CellModel::net(values, head).expect("the weights are scaled within the limits")
    }
}

/// The mean log loss of `model` (`Net::model`) on the positions of the games `take`
/// accepts, summing its table as the board does and reading the sums with its head.
pub fn model_loss(model: &CellModel, p: &Positions, k: f64, take: impl Fn(usize) -> bool) -> f64 {
    let (mut loss, mut count) = (0.0, 0usize);
    for s in p.samples().filter(|s| take(s.game)) {
        let mut sums = [[[0i32; LANES]; 2]; 2];
        for (sum, codes) in sums.iter_mut().zip([s.mine, s.theirs]) {
            for &code in codes {
                add_code(&model.values, sum, code);
            }
        }
        let points = s.hand + model.score(&sums[0], &sums[1]) as f64;
        let q = (1.0 / (1.0 + (-k * points).exp())).clamp(1e-12, 1.0 - 1e-12);
        loss -= s.target * q.ln() + (1.0 - s.target) * (1.0 - q).ln();
        count += 1;
    }
    loss / count.max(1) as f64
}

impl Passes for Net {
    fn pass(&mut self, p: &Positions, take: &dyn Fn(usize) -> bool, rate: f64, lambda: f64) -> f64 {
        Net::pass(self, p, take, rate, lambda)
    }
    fn weights(&mut self) -> &mut Vec<f64> {
        &mut self.weights
    }
}

/// Fits a network to `positions` (the empty cells' codes) with the scale `k`, holding out
/// every `holdout_every`-th game (0: none, and the last pass is kept).
pub fn fit(
    positions: &Positions,
    k: f64,
    epochs: usize,
    rate: f64,
    lambda: f64,
    holdout_every: usize,
    progress: impl FnMut(usize, f64, f64),
) -> (Net, FitReport) {
    let mut net = Net::new(k, SEED);
    let hand_test = Net::zero(k).pass(positions, |g| held_out(g, holdout_every), 0.0, 0.0);
    let report = fit_passes(
        &mut net,
        positions,
        (epochs, rate, lambda, holdout_every),
        hand_test,
        progress,
    );
    (net, report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tuning::HOLDOUT_EVERY;
    use crate::tuning::fit::ENGINE_TABLE_K;
    use crate::tuning::games::{GameTurns, read_game_turns};
    use crate::tuning::values::{EPOCHS, LAMBDA, NET_RATE, embedded_fit_positions};

    /// The engine's `net.bin` is what `tune eval --features net --blend 0.5` makes of the
    /// match games and the two self-play files (the command in docs/tuning.md), and it
    /// predicts the held-out games far better than the hand evaluation.
    #[test]
    fn the_engines_network_is_the_fit_of_the_match_and_self_play_games() {
        let positions = embedded_fit_positions();
        let (net, report) = fit(
            &positions,
            ENGINE_TABLE_K,
            EPOCHS,
            NET_RATE,
            LAMBDA,
            HOLDOUT_EVERY,
            |_, _, _| {},
        );
        assert!(net.model(&positions).encode() == include_bytes!("../engine/net.bin"));
        let kept = report.passes[report.kept - 1].1;
        assert!(
            kept < report.baseline_test - 0.08,
            "{kept} against {}",
            report.baseline_test
        );
    }

    /// On part of the match games the fit lowers the held-out loss below the hand
    /// evaluation's and below the first pass's, and the network in the engine's integers
    /// loses almost nothing to rounding.
    #[test]
    fn the_fit_lowers_the_loss_and_survives_the_integers() {
        let games = read_game_turns(include_str!("../../tests/data/fit-games.txt")).unwrap();
        let games: Vec<GameTurns> = games.into_iter().take(1500).collect();
        let p = Positions::of(&games);
        let (net, report) = fit(&p, ENGINE_TABLE_K, 6, NET_RATE, LAMBDA, 5, |_, _, _| {});
        let kept = report.passes[report.kept - 1].1;
        assert!(
            kept < report.baseline_test - 0.01 && kept < report.passes[0].1,
            "{kept} against {} and {:?}",
            report.baseline_test,
            report.passes[0]
        );
        let held = |g: usize| g % 5 == 4;
        let integer = model_loss(&net.model(&p), &p, ENGINE_TABLE_K, held);
        assert!((integer - kept).abs() < 0.002, "{integer} against {kept}");
    }
}

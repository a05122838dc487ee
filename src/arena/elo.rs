//! Match statistics: Elo from games and from game pairs (pentanomial), likelihood of
//! superiority, and the sequential probability ratio test. Pure functions of the counts.
//!
//! Elo is logistic: a score fraction `s` means `elo(s) = -400 log10(1/s - 1)`.
//!
//! **Per game** (trinomial): the standard error of `s` is the standard deviation of the
//! per-game scores (1, 1/2, 0) over `sqrt(n)`; the 95% interval is `elo(s ± 1.96 se)`,
//! unbounded when that leaves `(0, 1)`.
//!
//! **Per pair** (pentanomial): games `2k-1` and `2k` play the same opening with colours
//! swapped; a pair scores 0, 1/2, 1, 3/2 or 2 points for A. As fishtest does, each pair's
//! score is normalised to `[0, 1]` (halved) and the mean `mu` and variance `var` are those of
//! the normalised pair scores, so `se = sqrt(var / N)` over `N` pairs. Regularisation: every
//! one of the five counts gets a pseudo-count of 1/2 (the Jeffreys prior of a multinomial)
//! before `mu` and `var` are taken, so `0 < mu < 1` and `var > 0` always; this moves the
//! estimate by at most 2.5 pairs' worth towards a draw and is negligible in long matches.
//! The interval is taken on the logistic scale (the delta method):
//! `elo(mu) ± 1.96 se · 400 / (ln 10 · mu (1 - mu))`, which agrees with fishtest's
//! `elo(mu ± 1.96 se)` to first order and, with the regularisation, is finite even for a
//! clean sweep.
//!
//! **SPRT**: `H0: elo = elo0` against `H1: elo = elo1` (logistic), on the (regularised) pair
//! scores with the generalised SPRT's normal approximation used by fishtest:
//! `LLR = N (s1 - s0) (2 mu - s0 - s1) / (2 var)` with `s = 1 / (1 + 10^(-elo/400))`.
//! The test accepts H1 when `LLR >= ln((1 - beta) / alpha)` and H0 when
//! `LLR <= ln(beta / (1 - alpha))`.
//!
//! LOS = `0.5 (1 + erf((W - L) / sqrt(2 (W + L))))`, 0.5 when there are no decisive games.

use serde::{Deserialize, Serialize};

/// Wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wdl {
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
}

impl Wdl {
    pub fn games(&self) -> usize {
        self.wins + self.draws + self.losses
    }
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }
}

/// Elo difference and 95% interval, from A's side; an unbounded end is an infinity of its
/// sign (a clean sweep is `+inf`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Elo {
    pub diff: f64,
    pub low: f64,
    pub high: f64,
}

/// Error function (Abramowitz and Stegun 7.1.26, absolute error below 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x < 0.0 { -y } else { y }
}

pub fn elo_of(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        // `+ 0.0` turns -0 into 0.
        -400.0 * (1.0 / score - 1.0).log10() + 0.0
    }
}

/// Elo difference for a result.
pub fn elo(wdl: Wdl) -> Elo {
    let n = wdl.games() as f64;
    if n == 0.0 {
        return Elo {
            diff: 0.0,
            low: f64::NEG_INFINITY,
            high: f64::INFINITY,
        };
    }
    let s = wdl.points() / n;
    if s <= 0.0 || s >= 1.0 {
        // Every game went one way: the per-game variance is 0, and the interval would be a
        // point at infinity, which reads as certainty. The data bound the Elo on neither side.
        return Elo {
            diff: elo_of(s),
            low: f64::NEG_INFINITY,
            high: f64::INFINITY,
        };
    }
    let var = (wdl.wins as f64 * (1.0 - s).powi(2)
        + wdl.draws as f64 * (0.5 - s).powi(2)
        + wdl.losses as f64 * s.powi(2))
        / n;
    let se = var.sqrt() / n.sqrt();
    Elo {
        diff: elo_of(s),
        low: elo_of(s - 1.96 * se),
        high: elo_of(s + 1.96 * se),
    }
}

/// Likelihood of superiority.
pub fn los(wdl: Wdl) -> f64 {
    let decisive = (wdl.wins + wdl.losses) as f64;
    if decisive == 0.0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((wdl.wins as f64 - wdl.losses as f64) / (2.0 * decisive).sqrt()))
}

/// Results by game pair, from A's side: `counts[k]` pairs scored `k / 2` points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial {
    pub counts: [usize; 5],
}

/// Mean and variance of the regularised, normalised pair scores, and the number of pairs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairScores {
    pub pairs: usize,
    pub mean: f64,
    pub variance: f64,
}

/// The pseudo-count added to each pentanomial count (see the module docs).
pub const PSEUDO_COUNT: f64 = 0.5;

/// The 97.5% quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_985;

impl Pentanomial {
    pub fn pairs(&self) -> usize {
        self.counts.iter().sum()
    }

    /// The regularised pair-score statistics; `None` without a single pair.
    pub fn scores(&self) -> Option<PairScores> {
        let pairs = self.pairs();
        if pairs == 0 {
            return None;
        }
        let weights = self.counts.map(|c| c as f64 + PSEUDO_COUNT);
        let total: f64 = weights.iter().sum();
        let value = |k: usize| k as f64 / 4.0;
        let mean = (0..5).map(|k| weights[k] * value(k)).sum::<f64>() / total;
        let variance = (0..5)
            .map(|k| weights[k] * (value(k) - mean).powi(2))
            .sum::<f64>()
            / total;
        Some(PairScores {
            pairs,
            mean,
            variance,
        })
    }

    /// Elo (A - B) and 95% interval from the pairs; `None` without a single pair.
    pub fn elo(&self) -> Option<Elo> {
        let s = self.scores()?;
        let se = (s.variance / s.pairs as f64).sqrt();
        let diff = elo_of(s.mean);
        let half = Z95 * se * 400.0 / (std::f64::consts::LN_10 * s.mean * (1.0 - s.mean));
        Some(Elo {
            diff,
            low: diff - half,
            high: diff + half,
        })
    }
}

/// The settings of a sequential probability ratio test.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtSpec {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SprtVerdict {
    /// Elo is `elo1` (or more).
    H1,
    /// Elo is `elo0` (or less).
    H0,
    /// Neither bound reached yet.
    Continue,
}

/// The log-likelihood ratio and its bounds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtState {
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub verdict: SprtVerdict,
}

fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl SprtSpec {
    /// Parses `elo0,elo1[,alpha,beta]` (alpha and beta default to 0.05).
    pub fn parse(text: &str) -> Result<SprtSpec, String> {
        let numbers: Vec<f64> = text
            .split(',')
            .map(|t| t.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| "expected elo0,elo1[,alpha,beta] as numbers".to_string())?;
        let spec = match numbers[..] {
            [elo0, elo1] => SprtSpec {
                elo0,
                elo1,
                alpha: 0.05,
                beta: 0.05,
            },
            [elo0, elo1, alpha, beta] => SprtSpec {
                elo0,
                elo1,
                alpha,
                beta,
            },
            _ => return Err("expected elo0,elo1 or elo0,elo1,alpha,beta".into()),
        };
        let finite = [spec.elo0, spec.elo1].iter().all(|e| e.is_finite());
        if !finite || spec.elo0 >= spec.elo1 {
            return Err("expected finite elo0 < elo1".into());
        }
        let p = |x: f64| x > 0.0 && x < 0.5;
        if !p(spec.alpha) || !p(spec.beta) {
            return Err("expected 0 < alpha, beta < 0.5".into());
        }
        Ok(spec)
    }

    /// `ln(beta / (1 - alpha))` and `ln((1 - beta) / alpha)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The test on the pairs so far (LLR 0 without a pair).
    pub fn state(&self, pairs: &Pentanomial) -> SprtState {
        let (lower, upper) = self.bounds();
        let llr = pairs.scores().map_or(0.0, |s| {
            let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
            s.pairs as f64 * (s1 - s0) * (2.0 * s.mean - s0 - s1) / (2.0 * s.variance)
        });
        let verdict = if llr >= upper {
            SprtVerdict::H1
        } else if llr <= lower {
            SprtVerdict::H0
        } else {
            SprtVerdict::Continue
        };
        SprtState {
            llr,
            lower,
            upper,
            verdict,
        }
    }
}

impl std::fmt::Display for SprtSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{},{},{},{}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

/// A 95% interval as the summaries print it: `[low, high]`, or `unbounded` when neither end
/// is finite (a sweep, or no games), as cutechess and fishtest say it.
pub fn interval_text(e: &Elo) -> String {
    if e.low.is_finite() || e.high.is_finite() {
        format!("[{}, {}]", text_num(e.low), text_num(e.high))
    } else {
        "unbounded".into()
    }
}

/// An Elo figure as the summaries print it: signed, one decimal, infinities spelled out.
pub fn text_num(x: f64) -> String {
    if x.is_finite() {
        format!("{x:+.1}")
    } else if x > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sweep_has_an_unbounded_interval() {
        let lost = elo(Wdl {
            wins: 0,
            draws: 0,
            losses: 2,
        });
        assert_eq!(lost.diff, f64::NEG_INFINITY);
        assert_eq!((lost.low, lost.high), (f64::NEG_INFINITY, f64::INFINITY));
        assert_eq!(interval_text(&lost), "unbounded");
        let won = elo(Wdl {
            wins: 2,
            draws: 0,
            losses: 0,
        });
        assert_eq!(interval_text(&won), "unbounded");
        let mixed = elo(Wdl {
            wins: 5,
            draws: 0,
            losses: 3,
        });
        assert_eq!(interval_text(&mixed), "[-155.9, +554.3]");
        let half = Elo {
            diff: 445.6,
            low: 234.0,
            high: f64::INFINITY,
        };
        assert_eq!(interval_text(&half), "[+234.0, +inf]");
    }

    #[test]
    fn erf_values() {
        assert!(erf(0.0).abs() < 1e-6);
        assert!((erf(1.0) - 0.842_700_79).abs() < 1e-6);
        assert!((erf(-2.0) + 0.995_322_27).abs() < 1e-6);
    }

    #[test]
    fn elo_and_los() {
        let even = Wdl {
            wins: 5,
            draws: 0,
            losses: 5,
        };
        assert_eq!(elo(even).diff, 0.0);
        assert!((los(even) - 0.5).abs() < 1e-9);
        let w = Wdl {
            wins: 3,
            draws: 0,
            losses: 1,
        };
        let e = elo(w);
        assert!((e.diff - 190.85).abs() < 0.1);
        assert!(e.low < 190.0 && e.high == f64::INFINITY);
        // LOS(3, 1) = 0.5 (1 + erf(2 / sqrt 8)).
        assert!((los(w) - 0.5 * (1.0 + erf(2.0 / 8f64.sqrt()))).abs() < 1e-12);
        assert!(
            elo(Wdl {
                wins: 4,
                draws: 0,
                losses: 0
            })
            .diff
                == f64::INFINITY
        );
    }
}

#[cfg(test)]
mod pair_tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() < tol
    }

    #[test]
    fn no_pairs_no_estimate() {
        assert_eq!(Pentanomial::default().elo(), None);
        let spec = SprtSpec::parse("0,10").unwrap();
        assert_eq!(spec.state(&Pentanomial::default()).llr, 0.0);
    }

    #[test]
    fn symmetric_pairs() {
        // counts 1 2 3 2 1 (9 pairs) -> weights 1.5 2.5 3.5 2.5 1.5 (total 11.5);
        // symmetric, so mu = 0.5 and Elo 0;
        // var = (1.5 (1/2)^2 + 2.5 (1/4)^2 + 0 + 2.5 (1/4)^2 + 1.5 (1/2)^2) / 11.5
        //     = 1.0625 / 11.5 = 0.0923913; se = sqrt(var / 9) = 0.1013198;
        // half width = 1.96 * 0.1013198 * 400 / (ln 10 * 0.25) = 137.99.
        let p = Pentanomial {
            counts: [1, 2, 3, 2, 1],
        };
        let s = p.scores().unwrap();
        assert_eq!(s.pairs, 9);
        assert!(close(s.mean, 0.5, 1e-12) && close(s.variance, 1.0625 / 11.5, 1e-12));
        let e = p.elo().unwrap();
        assert!(close(e.diff, 0.0, 1e-9));
        assert!(
            close(e.high, 137.99, 0.01) && close(e.low, -137.99, 0.01),
            "{e:?}"
        );
    }

    #[test]
    fn lopsided_pairs() {
        // counts 0 1 2 4 3 (10 pairs) -> weights 0.5 1.5 2.5 4.5 3.5 (total 12.5);
        // mu = (1.5/4 + 2.5/2 + 4.5*3/4 + 3.5) / 12.5 = 8.5 / 12.5 = 0.68;
        // var = (0.5*0.68^2 + 1.5*0.43^2 + 2.5*0.18^2 + 4.5*0.07^2 + 3.5*0.32^2) / 12.5
        //     = 0.97 / 12.5 = 0.0776;
        // Elo = -400 log10(1/0.68 - 1) = 130.94; se = sqrt(0.0776/10) = 0.0880909;
        // half width = 1.96 * 0.0880909 * 400 / (ln 10 * 0.68 * 0.32) = 137.84.
        let p = Pentanomial {
            counts: [0, 1, 2, 4, 3],
        };
        let s = p.scores().unwrap();
        assert!(close(s.mean, 0.68, 1e-12) && close(s.variance, 0.0776, 1e-12));
        let e = p.elo().unwrap();
        assert!(close(e.diff, 130.94, 0.01), "{e:?}");
        assert!(close(e.low, 130.94 - 137.84, 0.02) && close(e.high, 130.94 + 137.84, 0.02));
    }

    #[test]
    fn clean_sweep_stays_finite() {
        // counts 0 0 0 0 4 -> weights 0.5 0.5 0.5 0.5 4.5 (total 6.5);
        // mu = (0.5 * (1/4 + 1/2 + 3/4) + 4.5) / 6.5 = 5.25 / 6.5 = 0.8076923;
        // Elo = 400 log10(5.25 / 1.25) = 249.30, interval [-109.64, 608.24].
        let e = Pentanomial {
            counts: [0, 0, 0, 0, 4],
        }
        .elo()
        .unwrap();
        assert!(close(e.diff, 249.30, 0.01), "{e:?}");
        assert!(
            close(e.low, -109.64, 0.01) && close(e.high, 608.24, 0.01),
            "{e:?}"
        );
        let big = Pentanomial {
            counts: [0, 0, 0, 0, 1000],
        };
        let e = big.elo().unwrap();
        assert!(
            e.low.is_finite() && e.high.is_finite() && e.low > 500.0,
            "{e:?}"
        );
    }

    #[test]
    fn sprt_llr_and_bounds() {
        // alpha = beta = 0.05: bounds ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = +2.944439.
        let spec = SprtSpec::parse("0,50").unwrap();
        let (lo, hi) = spec.bounds();
        assert!(close(lo, -2.944439, 1e-6) && close(hi, 2.944439, 1e-6));
        // counts 0 1 2 4 3: N = 10, mu = 0.68, var = 0.0776 (see lopsided_pairs);
        // s0 = 0.5, s1 = 1 / (1 + 10^(-50/400)) = 0.5714631;
        // LLR = 10 * 0.0714631 * (1.36 - 1.0714631) / (2 * 0.0776) = 1.328592.
        let up = Pentanomial {
            counts: [0, 1, 2, 4, 3],
        };
        let st = spec.state(&up);
        assert!(close(st.llr, 1.328592, 1e-5), "{st:?}");
        assert_eq!(st.verdict, SprtVerdict::Continue);
        // The mirror image 3 4 2 1 0: mu = 0.32, same variance;
        // LLR = 10 * 0.0714631 * (0.64 - 1.0714631) / 0.1552 = -1.986707.
        let down = Pentanomial {
            counts: [3, 4, 2, 1, 0],
        };
        assert!(close(spec.state(&down).llr, -1.986707, 1e-5));
        // Three times the pairs: the LLR grows about threefold and crosses the bounds.
        let up3 = Pentanomial {
            counts: [0, 3, 6, 12, 9],
        };
        assert_eq!(spec.state(&up3).verdict, SprtVerdict::H1);
        let down3 = Pentanomial {
            counts: [9, 12, 6, 3, 0],
        };
        assert_eq!(spec.state(&down3).verdict, SprtVerdict::H0);
    }

    #[test]
    fn sprt_spec_parsing() {
        let s = SprtSpec::parse("-5,5,0.1,0.2").unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-5.0, 5.0, 0.1, 0.2));
        for bad in [
            "5",
            "5,0",
            "0,5,0.1",
            "0,5,0,0.05",
            "0,x",
            "0,5,0.05,0.6",
            "nan,5",
        ] {
            assert!(SprtSpec::parse(bad).is_err(), "{bad}");
        }
    }
}

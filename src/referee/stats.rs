//! The match summary: results per engine and colour, score, Elo difference with a 95%
//! interval, likelihood of superiority, faults and move times; as text or JSON.
//!
//! Elo: with score fraction `s` over `n` games, `elo(s) = -400 log10(1/s - 1)`. The standard
//! error of `s` is the standard deviation of the per-game scores (1, 1/2, 0) over `sqrt(n)`;
//! the 95% interval is `elo(s ± 1.96 se)` (unbounded when that leaves `(0, 1)`).
//! LOS = `0.5 (1 + erf((W - L) / sqrt(2 (W + L))))`, 0.5 when there are no decisive games.

use super::game::{FaultKind, GameResult, Outcome};
use crate::board::Color;
use std::fmt::Write as _;
use std::time::Duration;

/// Wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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
    fn json(&self) -> String {
        format!(
            r#"{{"wins":{},"draws":{},"losses":{}}}"#,
            self.wins, self.draws, self.losses
        )
    }
}

/// One engine's side of the summary. Engine 0 is A (the first command), 1 is B.
#[derive(Clone, Debug, Default)]
pub struct EngineStats {
    pub name: String,
    pub command: String,
    pub total: Wdl,
    pub as_black: Wdl,
    pub as_white: Wdl,
    pub moves: usize,
    pub mean_move_time: Duration,
    pub max_move_time: Duration,
}

/// One fault, with the game it lost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaultReport {
    pub game: usize,
    /// 0 = A, 1 = B.
    pub engine: usize,
    pub color: Color,
    pub kind: FaultKind,
    pub detail: String,
}

/// One game's line in the summary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLine {
    pub game: usize,
    /// Which engine (0 = A, 1 = B) played black.
    pub black: usize,
    pub outcome: Outcome,
}

#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub engines: [EngineStats; 2],
    pub games: Vec<GameLine>,
    pub faults: Vec<FaultReport>,
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

fn elo_of(score: f64) -> f64 {
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

fn json_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json_num(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.2}")
    } else {
        "null".into()
    }
}

fn text_num(x: f64) -> String {
    if x.is_finite() {
        format!("{x:+.1}")
    } else if x > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

impl Summary {
    /// Builds the summary; `black_of(game)` says which engine played black in that game.
    pub fn new(
        names: [String; 2],
        commands: [String; 2],
        results: &[GameResult],
        black_of: impl Fn(usize) -> usize,
    ) -> Summary {
        let mut s = Summary::default();
        let mut time_sum = [Duration::ZERO; 2];
        for (e, (name, command)) in names.into_iter().zip(commands).enumerate() {
            s.engines[e].name = name;
            s.engines[e].command = command;
        }
        let mut sorted: Vec<&GameResult> = results.iter().collect();
        sorted.sort_by_key(|r| r.number);
        for r in sorted {
            let black = black_of(r.number);
            for color in [Color::Black, Color::White] {
                let e = if color == Color::Black {
                    black
                } else {
                    1 - black
                };
                let st = &mut s.engines[e];
                let by_colour = if color == Color::Black {
                    &mut st.as_black
                } else {
                    &mut st.as_white
                };
                for wdl in [&mut st.total, by_colour] {
                    match r.outcome {
                        Outcome::Draw => wdl.draws += 1,
                        Outcome::Win(w) if w == color => wdl.wins += 1,
                        Outcome::Win(_) => wdl.losses += 1,
                    }
                }
                for &t in &r.move_times[color.index()] {
                    st.moves += 1;
                    time_sum[e] += t;
                    st.max_move_time = st.max_move_time.max(t);
                }
            }
            if let Some(f) = &r.fault {
                let engine = if f.color == Color::Black {
                    black
                } else {
                    1 - black
                };
                s.faults.push(FaultReport {
                    game: r.number,
                    engine,
                    color: f.color,
                    kind: f.kind,
                    detail: f.detail.clone(),
                });
            }
            s.games.push(GameLine {
                game: r.number,
                black,
                outcome: r.outcome,
            });
        }
        for (st, sum) in s.engines.iter_mut().zip(time_sum) {
            if st.moves > 0 {
                st.mean_move_time = sum / st.moves as u32;
            }
        }
        s
    }

    /// Faults of one engine and kind, as game numbers.
    pub fn fault_games(&self, engine: usize, kind: FaultKind) -> Vec<usize> {
        let f = self
            .faults
            .iter()
            .filter(|f| f.engine == engine && f.kind == kind);
        f.map(|f| f.game).collect()
    }

    fn label(&self, e: usize) -> String {
        format!("{} ({})", self.engines[e].name, ["A", "B"][e])
    }

    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let n = self.games.len();
        let _ = writeln!(out, "{n} game(s): {} vs {}", self.label(0), self.label(1));
        for (e, st) in self.engines.iter().enumerate() {
            let w = |d: &Wdl| format!("+{} ={} -{}", d.wins, d.draws, d.losses);
            let pct = if n > 0 {
                100.0 * st.total.points() / n as f64
            } else {
                0.0
            };
            let _ = writeln!(
                out,
                "  {}: {}  (black {}, white {})  score {:.1}/{n} ({pct:.1}%)",
                self.label(e),
                w(&st.total),
                w(&st.as_black),
                w(&st.as_white),
                st.total.points(),
            );
        }
        let total = self.engines[0].total;
        let elo = elo(total);
        let _ = writeln!(
            out,
            "Elo difference (A - B): {}, 95% interval [{}, {}], LOS {:.1}%",
            text_num(elo.diff),
            text_num(elo.low),
            text_num(elo.high),
            100.0 * los(self.engines[0].total)
        );
        if self.faults.is_empty() {
            let _ = writeln!(out, "Faults: none");
        } else {
            let _ = writeln!(out, "Faults:");
            for f in &self.faults {
                let _ = writeln!(
                    out,
                    "  game {}: {} as {} - {}: {}",
                    f.game,
                    self.label(f.engine),
                    f.color,
                    f.kind,
                    f.detail
                );
            }
        }
        for (e, st) in self.engines.iter().enumerate() {
            let _ = writeln!(
                out,
                "Move time {}: mean {:.3} s, max {:.3} s over {} move(s)",
                self.label(e),
                st.mean_move_time.as_secs_f64(),
                st.max_move_time.as_secs_f64(),
                st.moves
            );
        }
        out
    }

    pub fn to_json(&self) -> String {
        let total = self.engines[0].total;
        let elo = elo(total);
        let engines: Vec<String> = self
            .engines
            .iter()
            .enumerate()
            .map(|(e, st)| {
                format!(
                    concat!(
                        r#"{{"id":"{}","name":{},"command":{},"wins":{},"draws":{},"losses":{},"#,
                        r#""score":{},"as_black":{},"as_white":{},"moves":{},"#,
                        r#""mean_move_time":{:.4},"max_move_time":{:.4}}}"#
                    ),
                    ["A", "B"][e],
                    json_str(&st.name),
                    json_str(&st.command),
                    st.total.wins,
                    st.total.draws,
                    st.total.losses,
                    st.total.points(),
                    st.as_black.json(),
                    st.as_white.json(),
                    st.moves,
                    st.mean_move_time.as_secs_f64(),
                    st.max_move_time.as_secs_f64(),
                )
            })
            .collect();
        let faults: Vec<String> = self
            .faults
            .iter()
            .map(|f| {
                format!(
                    r#"{{"game":{},"engine":"{}","name":{},"color":"{}","kind":"{}","detail":{}}}"#,
                    f.game,
                    ["A", "B"][f.engine],
                    json_str(&self.engines[f.engine].name),
                    f.color,
                    f.kind,
                    json_str(&f.detail)
                )
            })
            .collect();
        let games: Vec<String> = self
            .games
            .iter()
            .map(|g| {
                let result = match g.outcome {
                    Outcome::Win(c) => c.name(),
                    Outcome::Draw => "draw",
                };
                format!(
                    r#"{{"game":{},"black":"{}","winner":"{result}"}}"#,
                    g.game,
                    ["A", "B"][g.black]
                )
            })
            .collect();
        format!(
            concat!(
                r#"{{"games":{},"engines":[{}],"elo":{{"diff":{},"low":{},"high":{}}},"#,
                r#""los":{:.4},"faults":[{}],"results":[{}]}}"#
            ),
            self.games.len(),
            engines.join(","),
            json_num(elo.diff),
            json_num(elo.low),
            json_num(elo.high),
            los(total),
            faults.join(","),
            games.join(",")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(text_num(f64::NEG_INFINITY), "-inf");
        assert_eq!(text_num(f64::INFINITY), "+inf");
        assert!(json_str("a\"b\n").contains("\\\"b\\n"));
    }
}

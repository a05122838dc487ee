//! The JSON form of a [`Summary`], written and read with serde: `match --json` and
//! `stats --json` print it, and `stats` reads it back (a shard's summary is an input).
//!
//! Numbers: Elo values are rounded to 2 decimals and are `null` when unbounded; LOS, time
//! shares and times in seconds to 4 decimals. Times per game are whole microseconds, so a
//! summary read back gives the same figures.

use super::colours::Colours;
use super::elo::{Elo, SprtSpec, SprtVerdict, Wdl, los};
use super::entry::{GameEntry, TimeUse};
use super::game::Outcome;
use super::repeats::Repeats;
use super::summary::{Settings, Summary, open_time_share, time_share};
use crate::record::Fault;
use crate::rules::board::Color;
use serde::{Deserialize, Serialize};
use std::time::Duration;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct JsonReport {
    pub games: usize,
    pub settings: SettingsJson,
    pub engines: [EngineJson; 2],
    /// Elo (A - B) from the games.
    pub elo: EloJson,
    pub los: f64,
    /// Elo (A - B) from the complete pairs; `null` without one.
    pub pairs: Option<PairsJson>,
    pub sprt: Option<SprtJson>,
    /// Wins by colour and colour-decided pairs, overall and per opening (derived from
    /// `results`; absent from summaries written before it was added).
    #[serde(default)]
    pub colours: Colours,
    /// Distinct games and pairs (derived from `results`; absent from older summaries).
    #[serde(default)]
    pub repeats: Repeats,
    pub faults: Vec<FaultJson>,
    pub results: Vec<ResultJson>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SettingsJson {
    pub move_time: f64,
    pub game_time: Option<f64>,
    pub sprt: Option<SprtSpec>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct EngineJson {
    pub id: String,
    pub name: String,
    pub command: String,
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    pub score: f64,
    pub as_black: Wdl,
    pub as_white: Wdl,
    pub moves: usize,
    pub mean_move_time: f64,
    pub max_move_time: f64,
    /// Time use over the match as a share of the move cap or game budget.
    pub time_share: f64,
    pub game_time_share_min: f64,
    pub game_time_share_max: f64,
    /// Replies made before the winner's final forcing line, and (under a move cap) their
    /// time as a share of the cap.
    #[serde(default)]
    pub open_moves: usize,
    #[serde(default)]
    pub open_time_share: Option<f64>,
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct EloJson {
    pub diff: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PairsJson {
    /// Pairs in which A scored 0, 0.5, 1, 1.5, 2 points.
    pub counts: [usize; 5],
    pub elo: EloJson,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SprtJson {
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    /// `H1`, `H0` or `Continue`.
    pub verdict: SprtVerdict,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FaultJson {
    pub game: usize,
    pub engine: String,
    pub name: String,
    pub color: String,
    pub kind: String,
    pub detail: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ResultJson {
    pub game: usize,
    pub opening: Option<usize>,
    /// The engine (`A` or `B`) that played black.
    pub black: String,
    /// `black`, `white` or `draw`.
    pub winner: String,
    /// Thinking per engine, A first.
    pub time: [TimeUse; 2],
    /// Time use per engine as a share of the cap or budget, A first.
    pub time_share: [f64; 2],
    /// The game's moves as a fingerprint (16 hex digits), to tell repeated games; absent
    /// from summaries written before it was added.
    #[serde(default)]
    pub moves: Option<String>,
}

fn round(x: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    (x * scale).round() / scale
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then(|| round(x, 2))
}

impl From<Elo> for EloJson {
    fn from(e: Elo) -> Self {
        EloJson {
            diff: finite(e.diff),
            low: finite(e.low),
            high: finite(e.high),
        }
    }
}

const IDS: [&str; 2] = ["A", "B"];

fn engine_id(text: &str) -> Result<usize, String> {
    IDS.iter()
        .position(|&id| id == text)
        .ok_or_else(|| format!("engine '{text}' is neither A nor B"))
}

impl Summary {
    pub fn to_report(&self) -> JsonReport {
        let s = &self.settings;
        let engines = [0, 1].map(|e| {
            let st = &self.engines[e];
            EngineJson {
                id: IDS[e].into(),
                name: st.name.clone(),
                command: st.command.clone(),
                wins: st.total.wins,
                draws: st.total.draws,
                losses: st.total.losses,
                score: st.total.points(),
                as_black: st.as_black,
                as_white: st.as_white,
                moves: st.moves,
                mean_move_time: round(st.mean_move_time.as_secs_f64(), 4),
                max_move_time: round(st.max_move_time.as_secs_f64(), 4),
                time_share: round(st.time_share, 4),
                game_time_share_min: round(st.game_share_min.0, 4),
                game_time_share_max: round(st.game_share_max.0, 4),
                open_moves: st.time.open_moves,
                open_time_share: open_time_share(s, st.time).map(|x| round(x, 4)),
            }
        });
        let faults = self
            .faults
            .iter()
            .map(|f| FaultJson {
                game: f.game,
                engine: IDS[f.engine].into(),
                name: self.engines[f.engine].name.clone(),
                color: f.color.name().into(),
                kind: f.kind.name().into(),
                detail: f.detail.clone(),
            })
            .collect();
        let results = self
            .entries
            .iter()
            .map(|g| ResultJson {
                game: g.game,
                opening: g.opening,
                black: IDS[g.black].into(),
                winner: match g.outcome {
                    Outcome::Win(c) => c.name().into(),
                    Outcome::Draw => "draw".into(),
                },
                time: g.time,
                time_share: g.time.map(|t| round(time_share(s, t, 1), 4)),
                moves: g.moves.map(|m| format!("{m:016x}")),
            })
            .collect();
        JsonReport {
            games: self.games.len(),
            settings: SettingsJson {
                move_time: s.move_time.as_secs_f64(),
                game_time: s.game_time.map(|d| d.as_secs_f64()),
                sprt: s.sprt,
            },
            engines,
            elo: self.elo().into(),
            los: round(los(self.engines[0].total), 4),
            pairs: self.pairs.elo().map(|e| PairsJson {
                counts: self.pairs.counts,
                elo: e.into(),
            }),
            sprt: self.sprt.map(|st| SprtJson {
                llr: round(st.llr, 4),
                lower: round(st.lower, 4),
                upper: round(st.upper, 4),
                verdict: st.verdict,
            }),
            colours: self.colours.clone(),
            repeats: self.repeats,
            faults,
            results,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(&self.to_report()).expect("a summary always serialises")
    }
}

impl JsonReport {
    /// The settings and games the summary was made from.
    pub fn into_parts(self) -> Result<(Settings, Vec<GameEntry>), String> {
        let seconds = |x: f64| {
            Duration::try_from_secs_f64(x).map_err(|e| format!("bad time {x} in settings: {e}"))
        };
        let [a, b] = self.engines;
        let settings = Settings {
            names: [a.name, b.name],
            commands: [a.command, b.command],
            move_time: seconds(self.settings.move_time)?,
            game_time: self.settings.game_time.map(seconds).transpose()?,
            sprt: self.settings.sprt,
        };
        let mut entries = Vec::with_capacity(self.results.len());
        for r in self.results {
            let outcome = match r.winner.as_str() {
                "draw" => Outcome::Draw,
                w => Outcome::Win(w.parse::<Color>().map_err(|e| e.to_string())?),
            };
            let fault = match self.faults.iter().find(|f| f.game == r.game) {
                Some(f) => Some(Fault {
                    kind: f.kind.parse()?,
                    color: f.color.parse::<Color>().map_err(|e| e.to_string())?,
                    detail: f.detail.clone(),
                }),
                None => None,
            };
            entries.push(GameEntry {
                game: r.game,
                opening: r.opening,
                black: engine_id(&r.black)?,
                outcome,
                fault,
                time: r.time,
                moves: match &r.moves {
                    Some(hex) => Some(
                        u64::from_str_radix(hex, 16)
                            .map_err(|_| format!("game {}: bad moves '{hex}'", r.game))?,
                    ),
                    None => None,
                },
            });
        }
        Ok((settings, entries))
    }
}

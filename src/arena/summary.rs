//! The match summary: results per engine and colour, score, Elo from games and from game
//! pairs, colour-decided pairs (`colours`), LOS, the SPRT, faults, move times and time use;
//! as text or as JSON.
//!
//! Everything is computed from the settings and one [`GameEntry`] per game, which is what
//! records and JSON summaries carry: `connect6 stats` rebuilds the same summary from them.
//! Move times are kept in whole microseconds so that every route gives the same figures.
//!
//! Time use: with a game budget (`--game-time`), an engine's share in a game is its thinking
//! time over the budget, and overall its total over (games x budget). Without one, the cap
//! is the move time: the share in a game is its thinking time over (its moves x move time),
//! and overall the total over (all its moves x move time). Under a move cap the summary also
//! gives the share of the replies made while the game was open, before the winner's final
//! forcing line (see [`super::decisive`]): the replies time management is about.

use super::colours::Colours;
use super::elo::{
    Elo, Pentanomial, SprtSpec, SprtState, SprtVerdict, Wdl, elo, interval_text, los, text_num,
};
use super::entry::{GameEntry, TimeUse, pairs_of};
use super::game::Outcome;
use super::repeats::Repeats;
use crate::record::FaultKind;
use crate::rules::board::Color;
use std::fmt::Write as _;
use std::time::Duration;

/// What a summary needs to know about the match besides its games.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Engine names, A first.
    pub names: [String; 2],
    /// Engine commands, A first.
    pub commands: [String; 2],
    pub move_time: Duration,
    pub game_time: Option<Duration>,
    pub sprt: Option<SprtSpec>,
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
    pub time: TimeUse,
    /// Time use over the whole match as a share of the cap or budget (see the module docs).
    pub time_share: f64,
    /// The lowest and highest share in a single game, with the game numbers.
    pub game_share_min: (f64, usize),
    pub game_share_max: (f64, usize),
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

#[derive(Clone, Debug)]
pub struct Summary {
    pub settings: Settings,
    /// The games, sorted by number.
    pub entries: Vec<GameEntry>,
    pub engines: [EngineStats; 2],
    pub games: Vec<GameLine>,
    pub faults: Vec<FaultReport>,
    /// Complete pairs (games 2k-1 and 2k), from A's side.
    pub pairs: Pentanomial,
    /// Who won by colour, and the pairs the colour decided.
    pub colours: Colours,
    /// Games and pairs that repeat earlier ones move for move.
    pub repeats: Repeats,
    pub sprt: Option<SprtState>,
}

/// The share of the cap or budget `time` is (see the module docs).
pub fn time_share(settings: &Settings, time: TimeUse, games: usize) -> f64 {
    let cap_us = |d: Duration| d.as_micros() as f64;
    let denominator = match settings.game_time {
        Some(budget) => games as f64 * cap_us(budget),
        None => time.moves as f64 * cap_us(settings.move_time),
    };
    if denominator > 0.0 {
        time.total_us as f64 / denominator
    } else {
        0.0
    }
}

/// Under a move cap, the share of the cap the open replies of `time` took (see the module
/// docs); `None` with a game budget, or without open replies.
pub fn open_time_share(settings: &Settings, time: TimeUse) -> Option<f64> {
    let cap_us = settings.move_time.as_micros() as f64;
    (settings.game_time.is_none() && time.open_moves > 0 && cap_us > 0.0)
        .then(|| time.open_us as f64 / (time.open_moves as f64 * cap_us))
}

impl Summary {
    /// Builds the summary from the games (in any order; numbers must be distinct).
    pub fn new(settings: Settings, mut entries: Vec<GameEntry>) -> Summary {
        entries.sort_by_key(|e| e.game);
        let mut engines: [EngineStats; 2] = Default::default();
        for (e, st) in engines.iter_mut().enumerate() {
            st.name = settings.names[e].clone();
            st.command = settings.commands[e].clone();
            st.game_share_min = (f64::INFINITY, 0);
            st.game_share_max = (f64::NEG_INFINITY, 0);
        }
        let mut faults = Vec::new();
        let mut games = Vec::new();
        for g in &entries {
            for color in [Color::Black, Color::White] {
                let st = &mut engines[g.engine_of(color)];
                let by_colour = if color == Color::Black {
                    &mut st.as_black
                } else {
                    &mut st.as_white
                };
                for wdl in [&mut st.total, by_colour] {
                    match g.outcome {
                        Outcome::Draw => wdl.draws += 1,
                        Outcome::Win(w) if w == color => wdl.wins += 1,
                        Outcome::Win(_) => wdl.losses += 1,
                    }
                }
            }
            for (e, st) in engines.iter_mut().enumerate() {
                st.time.add(g.time[e]);
                let share = time_share(&settings, g.time[e], 1);
                if share < st.game_share_min.0 {
                    st.game_share_min = (share, g.game);
                }
                if share > st.game_share_max.0 {
                    st.game_share_max = (share, g.game);
                }
            }
            if let Some(f) = &g.fault {
                faults.push(FaultReport {
                    game: g.game,
                    engine: g.engine_of(f.color),
                    color: f.color,
                    kind: f.kind,
                    detail: f.detail.clone(),
                });
            }
            games.push(GameLine {
                game: g.game,
                black: g.black,
                outcome: g.outcome,
            });
        }
        for st in &mut engines {
            st.moves = st.time.moves;
            st.max_move_time = Duration::from_micros(st.time.max_us);
            if st.moves > 0 {
                st.mean_move_time = Duration::from_micros(st.time.total_us / st.moves as u64);
            }
            st.time_share = time_share(&settings, st.time, entries.len());
            if entries.is_empty() {
                st.game_share_min = (0.0, 0);
                st.game_share_max = (0.0, 0);
            }
        }
        let pairs = pairs_of(&entries);
        let colours = Colours::of(&entries);
        let repeats = Repeats::of(&entries);
        let sprt = settings.sprt.map(|spec| spec.state(&pairs));
        Summary {
            settings,
            entries,
            engines,
            games,
            faults,
            pairs,
            colours,
            repeats,
            sprt,
        }
    }

    /// Faults of one engine and kind, as game numbers.
    pub fn fault_games(&self, engine: usize, kind: FaultKind) -> Vec<usize> {
        let f = self
            .faults
            .iter()
            .filter(|f| f.engine == engine && f.kind == kind);
        f.map(|f| f.game).collect()
    }

    /// Elo (A - B) from the games.
    pub fn elo(&self) -> Elo {
        elo(self.engines[0].total)
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
        let elo = self.elo();
        let _ = writeln!(
            out,
            "Elo difference (A - B): {}, 95% interval {}, LOS {:.1}%",
            text_num(elo.diff),
            interval_text(&elo),
            100.0 * los(self.engines[0].total)
        );
        let c = self.pairs.counts;
        match self.pairs.elo() {
            Some(pe) => {
                let _ = writeln!(
                    out,
                    "Pairs (A's points 0/0.5/1/1.5/2): {} {} {} {} {} over {} pair(s); Elo {}, 95% interval {}",
                    c[0],
                    c[1],
                    c[2],
                    c[3],
                    c[4],
                    self.pairs.pairs(),
                    text_num(pe.diff),
                    interval_text(&pe)
                );
            }
            None => {
                let _ = writeln!(out, "Pairs: none complete");
            }
        }
        let _ = writeln!(out, "{}", self.colours.line());
        if let Some(line) = self.repeats.line() {
            let _ = writeln!(out, "{line}");
        }
        if let (Some(spec), Some(st)) = (self.settings.sprt, self.sprt) {
            let _ = writeln!(
                out,
                "SPRT elo0 {} elo1 {} (alpha {}, beta {}): LLR {:.3}, bounds [{:.3}, {:.3}]: {}",
                spec.elo0,
                spec.elo1,
                spec.alpha,
                spec.beta,
                st.llr,
                st.lower,
                st.upper,
                verdict_text(st.verdict)
            );
        }
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
        let cap = match self.settings.game_time {
            Some(b) => format!("game budget {:.3} s", b.as_secs_f64()),
            None => format!("move cap {:.3} s", self.settings.move_time.as_secs_f64()),
        };
        for (e, st) in self.engines.iter().enumerate() {
            let _ = writeln!(
                out,
                "Move time {}: mean {:.3} s, max {:.3} s over {} move(s)",
                self.label(e),
                st.mean_move_time.as_secs_f64(),
                st.max_move_time.as_secs_f64(),
                st.moves
            );
            let per_game = if self.entries.is_empty() {
                String::new()
            } else {
                format!(
                    "; per game {:.1}% (game {}) to {:.1}% (game {})",
                    100.0 * st.game_share_min.0,
                    st.game_share_min.1,
                    100.0 * st.game_share_max.0,
                    st.game_share_max.1,
                )
            };
            let open = match open_time_share(&self.settings, st.time) {
                Some(share) => format!(
                    ", {:.1}% before the final forcing line ({} of {} replies)",
                    100.0 * share,
                    st.time.open_moves,
                    st.moves
                ),
                None => String::new(),
            };
            let _ = writeln!(
                out,
                "Time use {}: {:.1}% of the {cap} overall{open}{per_game}",
                self.label(e),
                100.0 * st.time_share,
            );
        }
        out
    }
}

pub fn verdict_text(v: SprtVerdict) -> &'static str {
    match v {
        SprtVerdict::H1 => "H1 accepted (elo >= elo1)",
        SprtVerdict::H0 => "H0 accepted (elo <= elo0)",
        SprtVerdict::Continue => "no decision yet",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(game: usize, black: usize, outcome: Outcome, time: [TimeUse; 2]) -> GameEntry {
        GameEntry {
            game,
            opening: Some(game.div_ceil(2)),
            black,
            outcome,
            fault: None,
            time,
            moves: Some(game as u64),
        }
    }

    fn capped_at_100_ms() -> Settings {
        Settings {
            names: ["a".into(), "b".into()],
            commands: ["x".into(), "y".into()],
            move_time: Duration::from_millis(100),
            game_time: None,
            sprt: None,
        }
    }

    #[test]
    fn pairs_and_time_shares() {
        use Color::*;
        let t = |moves, total_us, max_us| TimeUse {
            moves,
            total_us,
            max_us,
            ..TimeUse::default()
        };
        let settings = capped_at_100_ms();
        // Games 1-2 (a pair): A wins as black, draws as white -> 1.5 points, count[3].
        // Games 3-4: A loses both -> count[0]. Game 5 has no partner: not a pair.
        let entries = vec![
            entry(
                4,
                1,
                Outcome::Win(Black),
                [t(10, 200_000, 50_000), t(10, 0, 0)],
            ),
            entry(
                1,
                0,
                Outcome::Win(Black),
                [t(4, 100_000, 40_000), t(4, 0, 0)],
            ),
            entry(2, 1, Outcome::Draw, [t(2, 150_000, 90_000), t(2, 0, 0)]),
            entry(
                3,
                0,
                Outcome::Win(White),
                [t(4, 40_000, 10_000), t(4, 0, 0)],
            ),
            entry(5, 0, Outcome::Win(Black), [t(0, 0, 0), t(0, 0, 0)]),
        ];
        let s = Summary::new(settings.clone(), entries);
        assert_eq!(s.pairs.counts, [1, 0, 0, 1, 0]);
        let a = &s.engines[0];
        assert_eq!((a.total.wins, a.total.draws, a.total.losses), (2, 1, 2));
        // A: 20 moves, 490 ms in all: mean 24.5 ms; share 490 / (20 x 100) = 24.5%.
        assert_eq!(a.moves, 20);
        assert_eq!(a.mean_move_time, Duration::from_micros(24_500));
        assert_eq!(a.max_move_time, Duration::from_millis(90));
        assert!((a.time_share - 0.245).abs() < 1e-12);
        // Per game: 100/400 = 25%, 150/200 = 75%, 40/400 = 10%, 200/1000 = 20%, game 5 0%.
        assert_eq!(a.game_share_max, (0.75, 2));
        assert_eq!(a.game_share_min, (0.0, 5));
        // With a 1 s game budget: 490 ms over 5 games x 1 s = 9.8%; game 4 uses 20%.
        let budget = Settings {
            game_time: Some(Duration::from_secs(1)),
            ..settings
        };
        let s = Summary::new(budget, s.entries.clone());
        assert!((s.engines[0].time_share - 0.098).abs() < 1e-12);
        assert_eq!(s.engines[0].game_share_max, (0.2, 4));
        assert!(
            s.to_text()
                .contains("9.8% of the game budget 1.000 s overall")
        );
    }

    #[test]
    fn open_replies_have_their_own_share_under_a_move_cap() {
        let settings = capped_at_100_ms();
        // A thinks 90 and 70 ms while the game is open, then answers a forcing line at once.
        let a = TimeUse::of_micros(&[90_000, 70_000, 1_000, 1_000], 2);
        assert_eq!((a.open_moves, a.open_us), (2, 160_000));
        let b = TimeUse::of_micros(&[50_000, 2_000, 3_000], 1);
        let games = vec![
            entry(1, 0, Outcome::Win(Color::Black), [a, b]),
            entry(2, 1, Outcome::Draw, [a, b]),
        ];
        let s = Summary::new(settings.clone(), games.clone());
        // A: 2 x 160 ms open over 4 open replies of 100 ms = 80%; 324 ms over 8 = 40.5% overall.
        assert_eq!(s.engines[0].time.open_moves, 4);
        assert!((open_time_share(&settings, s.engines[0].time).unwrap() - 0.8).abs() < 1e-12);
        let text = s.to_text();
        assert!(
            text.contains("40.5% of the move cap 0.100 s overall, 80.0% before the final forcing line (4 of 8 replies)"),
            "{text}"
        );
        // A game budget has no per-reply cap to compare with.
        let budget = Settings {
            game_time: Some(Duration::from_secs(1)),
            ..settings
        };
        assert_eq!(open_time_share(&budget, s.engines[0].time), None);
        assert!(
            !Summary::new(budget, games)
                .to_text()
                .contains("forcing line")
        );
    }
}

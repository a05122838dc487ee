//! The score graph in the board. In Review it comes from the engine's quick pass over the
//! record (`tools::pass`), one pass at a time, its progress shown, stoppable, and kept by
//! record and settings so a record opened again shows its graph at once. In Play the points
//! are the engine's own reports, each read from its log as the panel reads it.

use crate::record::game::Game;
use crate::tools::graph::{Marks, Point, svg};
use crate::tools::pass::{PassSettings, PassStop};
use serde_json::{Value, json};
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

/// Passes kept: a folder's worth of games; the oldest goes first.
const CACHE_KEEP: usize = 64;

/// A pass for the thread to run.
pub struct PassJob {
    pub game: Game,
    pub settings: PassSettings,
    pub key: String,
    pub generation: u64,
    pub stop: Arc<PassStop>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Running,
    Done,
    /// Taken from the cache, no search run.
    Cached,
    Stopped,
}

impl Status {
    fn name(self) -> &'static str {
        match self {
            Status::Running => "running",
            Status::Done => "done",
            Status::Cached => "cached",
            Status::Stopped => "stopped",
        }
    }
}

/// The graph of the record shown.
struct Shown {
    key: String,
    settings: PassSettings,
    generation: u64,
    points: Vec<Point>,
    status: Status,
}

#[derive(Default)]
pub struct ReviewGraph {
    cache: HashMap<String, Vec<Point>>,
    order: VecDeque<String>,
    /// The settings of the last pass asked for: a record opened again is looked up by them.
    settings: Option<PassSettings>,
    shown: Option<Shown>,
    stop: Option<Arc<PassStop>>,
}

impl ReviewGraph {
    /// A record is shown: a pass still running is stopped, and the record's graph for the
    /// last settings is shown from the cache when there is one.
    pub fn record_opened(&mut self, game: &Game, generation: u64) {
        if let Some(stop) = self.stop.take() {
            stop.stop();
        }
        self.shown = None;
        if let Some(settings) = self.settings {
            self.show_cached(game, settings, generation);
        }
    }

    /// Shows the cached graph of `game` under `settings`; whether there was one.
    pub fn show_cached(&mut self, game: &Game, settings: PassSettings, generation: u64) -> bool {
        let key = settings.key(game);
        let Some(points) = self.cache.get(&key) else {
            return false;
        };
        self.settings = Some(settings);
        self.shown = Some(Shown {
            points: points.clone(),
            key,
            settings,
            generation,
            status: Status::Cached,
        });
        true
    }

    /// Starts a pass (the caller has checked that no other task runs).
    pub fn begin(&mut self, game: Game, settings: PassSettings, generation: u64) -> PassJob {
        let stop = Arc::new(PassStop::default());
        let key = settings.key(&game);
        self.settings = Some(settings);
        self.stop = Some(Arc::clone(&stop));
        self.shown = Some(Shown {
            key: key.clone(),
            settings,
            generation,
            points: Vec::new(),
            status: Status::Running,
        });
        PassJob {
            game,
            settings,
            key,
            generation,
            stop,
        }
    }

    /// Stops the pass under way; `false` when none is.
    pub fn stop(&mut self) -> bool {
        match self.stop.take() {
            Some(stop) => {
                stop.stop();
                true
            }
            None => false,
        }
    }

    /// The graph shown, when it is that of the pass of `generation` (not another record's,
    /// nor a cached one shown meanwhile).
    fn running_shown(&mut self, generation: u64) -> Option<&mut Shown> {
        self.shown
            .as_mut()
            .filter(|s| s.generation == generation && s.status == Status::Running)
    }

    pub fn point(&mut self, generation: u64, point: Point) {
        if let Some(shown) = self.running_shown(generation) {
            shown.points.push(point);
        }
    }

    /// The pass of `key` ended: its points kept when it ran to the end (`None`: stopped).
    pub fn ended(&mut self, generation: u64, key: String, points: Option<Vec<Point>>) {
        if let Some(shown) = self.running_shown(generation) {
            shown.status = if points.is_some() {
                Status::Done
            } else {
                Status::Stopped
            };
            self.stop = None;
        }
        let Some(points) = points else { return };
        if self.cache.insert(key.clone(), points).is_none() {
            self.order.push_back(key);
            if self.order.len() > CACHE_KEEP
                && let Some(old) = self.order.pop_front()
            {
                self.cache.remove(&old);
            }
        }
    }

    /// The graph as the page draws it, `null` before any pass over the record.
    pub fn view(&self, game: Option<&Game>, marks: Marks) -> Value {
        let (Some(shown), Some(game)) = (&self.shown, game) else {
            return Value::Null;
        };
        let turns = game.turns.len();
        json!({
            "status": shown.status.name(),
            "done": shown.points.len(),
            "total": turns,
            "time": shown.settings.time.as_secs_f64(),
            "depth": shown.settings.depth,
            "key": shown.key,
            "points": points_json(&shown.points),
            "svg": svg(&shown.points, turns, marks, 0),
        })
    }
}

/// The points as the page and the tests read them.
pub fn points_json(points: &[Point]) -> Value {
    points
        .iter()
        .map(|p| {
            json!({
                "turn": p.turn,
                "score": p.score,
                "depth": p.depth,
                "chance": p.chance(),
                "proven": p.proven(),
            })
        })
        .collect()
}

/// Play's graph: the engine's reported score for each of its turns, turned to black's view.
pub fn reported_view(scores: &[Option<i32>], turns: usize, upto: usize) -> Value {
    let points: Vec<Point> = scores
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            s.map(|score| Point {
                turn: i + 1,
                score,
                depth: 0,
            })
        })
        .collect();
    let marks = Marks {
        losing: None,
        upto: Some(upto),
    };
    json!({
        "status": "reported",
        "done": points.len(),
        "total": turns,
        "points": points_json(&points),
        "svg": svg(&points, turns, marks, 0),
    })
}

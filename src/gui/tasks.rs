//! The work that outlasts a request: the engine's move in Play, a Watch match, and Review's
//! analysis and engine questions. Each runs on a thread of its own and hands its result to
//! the state through the hub, so the page follows it.

use super::hub::Hub;
use super::play::{ThinkJob, Wake};
use super::review::{ANALYSE_HASH_MB, ANALYSE_TIME, ReviewError, engine_view};
use super::watch::WatchError;
use crate::arena::{GameResult, MatchArgs, Observer};
use crate::rules::board::Color;
use crate::rules::coord::Turn;
use crate::tools::analyse::Analyser;
use crate::tools::pass::{PassSettings, quick_pass};
use std::sync::Arc;
use std::time::Duration;

/// Wakes the page's followers; holds the hub weakly so an engine's log reader does not keep
/// the server's state alive.
pub fn wake_of(hub: &Arc<Hub>) -> Wake {
    let weak = Arc::downgrade(hub);
    Arc::new(move || {
        if let Some(hub) = weak.upgrade() {
            hub.update(|_| ());
        }
    })
}

/// Waits for the engine's move, then hands its reply to the game.
pub fn think(hub: &Arc<Hub>, job: Option<ThinkJob>) {
    let Some(job) = job else { return };
    let hub = Arc::clone(hub);
    std::thread::spawn(move || {
        let reply = job.wait();
        let stale = hub.update(|m| m.play.engine_replied(reply));
        if let Some(link) = stale {
            link.close();
        }
    });
}

/// Follows one Watch match into the state.
struct Follower {
    hub: Arc<Hub>,
    run: u64,
}

impl Observer for Follower {
    fn started(&self, names: &[String; 2], games: &[usize]) {
        self.hub
            .update(|m| m.watch.on_started(self.run, names, games));
    }

    fn turn(&self, game: usize, color: Color, turn: &Turn, elapsed: Option<Duration>) {
        self.hub
            .update(|m| m.watch.on_turn(self.run, game, color, turn, elapsed));
    }

    fn finished(&self, result: &GameResult) {
        self.hub.update(|m| m.watch.on_finished(self.run, result));
    }

    fn stop_requested(&self) -> bool {
        self.hub.read(|m| m.watch.stop_requested(self.run))
    }

    fn wants_engine_lines(&self) -> bool {
        true
    }

    /// Only the move's info line is kept: the score the engine reports for its turn.
    fn engine_line(&self, game: usize, color: Color, line: &str) {
        if let Some((best, score)) = super::panel::report(line) {
            self.hub
                .update(|m| m.watch.on_report(self.run, game, color, &best, score));
        }
    }
}

/// Starts a match on a thread of its own; refused while another is being played.
pub fn watch(hub: &Arc<Hub>, config: MatchArgs) -> Result<(), WatchError> {
    let run = hub.apply(|m| m.watch.begin(&config))?;
    let hub = Arc::clone(hub);
    std::thread::spawn(move || {
        let follower = Follower {
            hub: Arc::clone(&hub),
            run,
        };
        let outcome = crate::arena::run_observed(&config, &follower);
        hub.update(|m| m.watch.on_end(run, outcome));
    });
    Ok(())
}

/// Looks for the loser's losing turn; the board jumps there when it is found.
pub fn find_losing(hub: &Arc<Hub>) -> Result<(), ReviewError> {
    let (game, loser, generation, file) = hub.apply(|m| m.review.begin_losing())?;
    let hub = Arc::clone(hub);
    std::thread::spawn(move || {
        let analysis = Analyser::new(ANALYSE_TIME, ANALYSE_HASH_MB).analyse(&game, loser);
        hub.update(|m| m.review.losing_found(generation, &analysis, &file));
    });
    Ok(())
}

/// Asks `command` (a fresh process) what it plays in the position on the board.
pub fn ask_engine(hub: &Arc<Hub>, command: String, move_time: Duration) -> Result<(), ReviewError> {
    let (game, generation, upto) = hub.apply(|m| m.review.begin_engine(&command))?;
    let hub = Arc::clone(hub);
    std::thread::spawn(move || {
        let started = |killer| hub.update(|m| m.review.engine_started(generation, killer));
        let view = engine_view(&game, upto, &command, move_time, started);
        hub.update(|m| m.review.engine_answered(generation, view));
    });
    Ok(())
}

/// The quick pass for the score graph, on a thread of its own; a pass in the cache is shown
/// at once instead.
pub fn score_pass(hub: &Arc<Hub>, settings: PassSettings) -> Result<(), ReviewError> {
    let Some(job) = hub.apply(|m| m.review.begin_pass(settings))? else {
        return Ok(());
    };
    let hub = Arc::clone(hub);
    std::thread::spawn(move || {
        let generation = job.generation;
        let points = quick_pass(&job.game, job.settings, &job.stop, |point, _| {
            hub.update(|m| m.review.pass_point(generation, *point));
        });
        hub.update(|m| m.review.pass_ended(generation, job.key, points));
    });
    Ok(())
}

//! A headless referee: `connect6 match [options] "<engine A>" "<engine B>"` plays games
//! between two engine programs over the text protocol and reports the result.
//!
//! # Protocol (one `\n`-terminated line each way; engine replies on stdout)
//! - `name?` → `name <Name>`.
//! - `new black` / `new white`; black replies `move JJ@@` (or `move JJ`), its single stone.
//! - Every reply `move XYXY` is checked on a [`Board`](crate::rules::board::Board) and forwarded to
//!   the opponent as `move XYXY` (black's first stone as `XY@@`, or `XY` with
//!   `--short-first`).
//! - With an opening, both engines get `new white`, then the opening turns as `black XY..` /
//!   `white XY..` lines, then the side to move gets `next` and replies with its move.
//! - When a move wins (six or more in a row) or fills the board, both engines get `end` and
//!   `quit` without waiting for a reply, and are killed if still running after a short grace.
//!
//! Lines other than `move ...` (and `name ...`) are skipped, as the real platform does.
//!
//! Before the first game both commands are started once and asked `name?` (waiting up to the
//! move time plus tolerance; an engine that does not answer is named after its program file):
//! a command that cannot be started, or exits at once, stops the match before any game. Each
//! game then starts fresh processes and sends `name?` again without waiting for the answer.
//!
//! # Adjudication
//! Six or more in a row wins; a full board is a draw. A malformed `move` line, an illegal
//! move (occupied, repeated, off-board, wrong stone count), a late reply and an exit or closed
//! stdout lose the game. A reply is late when it arrives later than
//! `min(--move-time, remaining --game-time)` plus [`TOLERANCE`] (0.2 s) after the request was
//! sent; silence is a late reply. Every game starts fresh engine processes.
//!
//! # Records and summary
//! With `--records DIR` every game is written in the competition format (see [`record`]),
//! stamped with the current UTC time. The summary (text, or JSON with `--json`) goes to
//! stdout; a progress line goes to stderr unless `--quiet`.

pub mod colours;
pub mod decisive;
pub mod elo;
pub mod entry;
pub mod game;
pub mod process;
pub mod repeats;
pub mod report;
pub mod summary;

mod args;
pub mod schedule;
mod stats;

pub use crate::pool::Shard;
pub use args::{MatchArgs, StatsArgs};
pub use elo::{Pentanomial, SprtSpec, SprtVerdict};
pub use entry::GameEntry;
pub use game::{GameResult, Observer, Outcome, ReplyLimits, TOLERANCE, Unobserved};
pub use process::EngineStartError;
pub use report::JsonReport;
pub use schedule::{MatchError, run, run_observed};
pub use stats::{StatsError, collect, main as stats_main};
pub use summary::{Settings, Summary};

use std::process::ExitCode;

/// Entry point of `connect6 match`. Exit codes: 0 after a match (whatever its result), 2
/// when the match cannot start (bad openings, an engine that does not start).
pub fn main(config: MatchArgs) -> ExitCode {
    match run(&config) {
        Ok(summary) => {
            if config.json {
                println!("{}", summary.to_json());
            } else {
                print!("{}", summary.to_text());
            }
            ExitCode::SUCCESS
        }
        Err(e) => report(&e),
    }
}

/// The one place errors are reported.
fn report(error: &MatchError) -> ExitCode {
    eprintln!("connect6 match: error: {error}");
    ExitCode::from(2)
}

//! An engine the board talks to: the process driver `match` uses, with its stderr read into
//! a log the page shows (`panel` reads our engine's search back out of it).

use crate::arena::process::{EngineProcess, LineRead, read_line_capped, split_command};
use crate::arena::{EngineStartError, ReplyLimits};
use crate::record::Fault;
use crate::rules::board::Color;
use crate::rules::coord::Turn;
use std::collections::VecDeque;
use std::io::BufReader;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Log lines kept per engine: enough for several moves of iteration lines.
const LOG_KEEP: usize = 400;
/// The characters of a log line kept: the page is narrow, and our engine's lines are short.
/// With [`LOG_KEEP`] this bounds the memory a chatty engine's log takes.
const LOG_LINE_CHARS: usize = 2000;

/// A log line as kept: cut at [`LOG_LINE_CHARS`], saying so.
fn kept(line: LineRead) -> String {
    let (mut text, total) = match line {
        LineRead::Whole(text) => {
            let total = text.len() as u64;
            (text, total)
        }
        LineRead::Cut(text, total) => (text, total),
    };
    if let Some((at, _)) = text.char_indices().nth(LOG_LINE_CHARS) {
        text.truncate(at);
    }
    if (text.len() as u64) < total {
        text.push_str(&format!(" [... a line of {total} bytes, cut]"));
    }
    text
}

/// The engine's stderr lines, numbered from its start.
#[derive(Default)]
pub struct LogTail {
    lines: VecDeque<String>,
    /// Lines ever read; the first kept one is number `total - lines.len()`.
    total: usize,
}

impl LogTail {
    fn push(&mut self, line: String) {
        if self.lines.len() == LOG_KEEP {
            self.lines.pop_front();
        }
        self.lines.push_back(line);
        self.total += 1;
    }

    /// The lines from number `mark` on that are still kept.
    pub fn since(&self, mark: usize) -> Vec<String> {
        let first = self.total - self.lines.len();
        let skip = mark.saturating_sub(first);
        self.lines.iter().skip(skip).cloned().collect()
    }
}

/// A running engine and its log.
pub struct EngineLink {
    pub process: EngineProcess,
    pub log: Arc<Mutex<LogTail>>,
    /// Our own program: it takes the protocol's `undo` and `time`, and logs its search.
    pub ours: bool,
}

/// Whether `command` runs this very program (then its extensions and log can be used).
pub fn is_ours(command: &str) -> bool {
    let Ok(words) = split_command(command) else {
        return false;
    };
    let (Ok(exe), Ok(program)) = (
        std::env::current_exe().and_then(|p| p.canonicalize()),
        Path::new(&words[0]).canonicalize(),
    ) else {
        return false;
    };
    exe == program
}

impl EngineLink {
    /// Starts `command`; `wake` is called after every log line, so the page follows the
    /// search as it goes. Our engine is asked for debug logging: its iteration lines.
    pub fn start(
        command: &str,
        wake: impl Fn() + Send + 'static,
    ) -> Result<EngineLink, EngineStartError> {
        let ours = is_ours(command);
        let env: &[(&str, &str)] = if ours { &[("RUST_LOG", "debug")] } else { &[] };
        let (process, stderr) = EngineProcess::spawn_logged(command, env)?;
        let log = Arc::new(Mutex::new(LogTail::default()));
        if let Some(stderr) = stderr {
            let log = Arc::clone(&log);
            let reader = std::thread::Builder::new().spawn(move || {
                let mut stderr = BufReader::new(stderr);
                while let Ok(Some(line)) = read_line_capped(&mut stderr) {
                    log.lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .push(kept(line));
                    wake();
                }
            });
            // Without a reader the engine's stderr fills and blocks it: refuse it instead.
            if let Err(e) = reader {
                return Err(EngineStartError::Spawn {
                    command: command.to_string(),
                    error: e,
                });
            }
        }
        Ok(EngineLink { process, log, ours })
    }

    /// The number the next log line will get.
    pub fn log_mark(&self) -> usize {
        self.log.lock().unwrap_or_else(|p| p.into_inner()).total
    }

    /// Sends protocol lines; the first that cannot be written is the engine's crash.
    pub fn send_all(&mut self, color: Color, lines: &[String]) -> Result<Instant, Fault> {
        for line in lines {
            self.process.send(line).map_err(|e| Fault {
                kind: crate::record::FaultKind::Crash,
                color,
                detail: format!("cannot send '{line}': {e}"),
            })?;
        }
        Ok(Instant::now())
    }

    /// Waits for the reply to a request sent at `sent`, judged as `match` judges it.
    pub fn await_turn(
        &self,
        color: Color,
        sent: Instant,
        move_time: Duration,
    ) -> Result<(Turn, Duration), Fault> {
        let limits = ReplyLimits {
            move_time,
            game_time: None,
            tolerance: crate::arena::TOLERANCE,
        };
        let (turn, elapsed) =
            crate::arena::game::await_turn("gui", Some(&self.process), color, sent, limits, None)?;
        turn.map(|t| (t, elapsed))
    }

    /// Says goodbye and lets the process go (killed if it lingers).
    pub fn close(mut self) {
        let _ = self.process.send("quit");
        self.process
            .reap(Instant::now() + Duration::from_millis(300));
    }
}

/// The protocol lines that set up `turns` on a fresh engine: `new white`, then each turn as
/// a `black ..`/`white ..` placement line, as `match` plays an opening.
pub fn setup_lines(turns: &[crate::record::game::Played]) -> Vec<String> {
    let mut lines = vec!["new white".to_string()];
    for p in turns {
        let cells: String = p.turn.cells().map(|c| c.to_string()).collect();
        lines.push(format!("{} {cells}", p.color.name()));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_log_line_is_cut_and_says_so() {
        assert_eq!(kept(LineRead::Whole("short".into())), "short");
        let long = kept(LineRead::Whole("é".repeat(3000)));
        assert!(
            long.starts_with(&"é".repeat(LOG_LINE_CHARS)),
            "cut on a character"
        );
        assert!(long.ends_with(" [... a line of 6000 bytes, cut]"), "{long}");
        let cut = kept(LineRead::Cut("x".repeat(10), 100_000));
        assert_eq!(cut, "xxxxxxxxxx [... a line of 100000 bytes, cut]");
    }

    #[test]
    fn the_log_keeps_its_numbers_when_old_lines_go() {
        let mut log = LogTail::default();
        for i in 0..LOG_KEEP + 10 {
            log.push(i.to_string());
        }
        assert_eq!(
            log.since(LOG_KEEP + 8),
            vec![(LOG_KEEP + 8).to_string(), (LOG_KEEP + 9).to_string()]
        );
        assert_eq!(log.since(0).len(), LOG_KEEP);
    }
}

//! One engine child process: spawning from a shell-like command line, line-based stdin
//! writes, and a dedicated reader thread per child that feeds stdout lines into a channel, so
//! that waiting for a reply can use an exact `recv_timeout`.

use std::fmt;
use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStderr, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// Why an engine command could not be started.
#[derive(Debug)]
pub enum EngineStartError {
    /// The command line could not be split (unbalanced quotes) or is empty.
    BadCommand(String),
    /// The operating system refused to start the program.
    Spawn { command: String, error: io::Error },
    /// The program started but exited (closed its stdout) before answering `name?`.
    Exited { command: String },
}

impl fmt::Display for EngineStartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineStartError::BadCommand(c) => {
                write!(f, "engine command '{c}' is empty or has unbalanced quotes")
            }
            EngineStartError::Spawn { command, error } => {
                write!(
                    f,
                    "engine command '{command}' could not be started: {error}"
                )
            }
            EngineStartError::Exited { command } => {
                write!(
                    f,
                    "engine command '{command}' exited before answering 'name?'"
                )
            }
        }
    }
}

impl std::error::Error for EngineStartError {}

/// What waiting for one line produced.
#[derive(Debug, PartialEq, Eq)]
pub enum Received {
    /// A line, with the moment the reader thread took it from the pipe (replies are timed
    /// by it, so the referee's own scheduling does not count against the engine).
    Line(String, Instant),
    /// Nothing arrived before the deadline.
    Timeout,
    /// The engine closed its stdout (exited or crashed).
    Eof,
}

/// A running engine.
pub struct EngineProcess {
    command: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(String, Instant)>,
}

/// Splits an engine command line with shell quoting rules.
pub fn split_command(command: &str) -> Result<Vec<String>, EngineStartError> {
    match shlex::split(command) {
        Some(words) if !words.is_empty() => Ok(words),
        _ => Err(EngineStartError::BadCommand(command.to_string())),
    }
}

/// Whether `taskset` (util-linux) can pin processes here; asked once.
fn taskset_available() -> bool {
    static AVAILABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        let ok = Command::new("taskset")
            .args(["-c", "0", "true"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            log::warn!("taskset is not available: engines run without CPU pinning");
        }
        ok
    })
}

/// The cores game slot `slot` of `slots` parallel games may use: an equal share of the
/// machine's cores, or one core shared round-robin when there are more games than cores.
pub fn cpu_share(slot: usize, slots: usize, cores: usize) -> String {
    let cores = cores.max(1);
    if slots >= cores {
        return (slot % cores).to_string();
    }
    let first = slot * cores / slots;
    let last = (slot + 1) * cores / slots - 1;
    if first == last {
        first.to_string()
    } else {
        format!("{first}-{last}")
    }
}

impl EngineProcess {
    /// Starts `command`; its stderr is inherited unless `discard_stderr`. With `cpus` (a
    /// list such as `0` or `2-3`) the process is pinned to those cores where `taskset` is
    /// available, and runs unpinned (with a warning, once) where it is not.
    pub fn spawn(
        command: &str,
        discard_stderr: bool,
        cpus: Option<&str>,
    ) -> Result<EngineProcess, EngineStartError> {
        let stderr = if discard_stderr {
            Stdio::null()
        } else {
            Stdio::inherit()
        };
        Self::start(command, stderr, cpus, &[]).map(|(engine, _)| engine)
    }

    /// Starts `command` with `env` added to its environment and its stderr piped back to the
    /// caller, who shows the engine's log (the browser board); otherwise as [`Self::spawn`].
    pub fn spawn_logged(
        command: &str,
        env: &[(&str, &str)],
    ) -> Result<(EngineProcess, Option<ChildStderr>), EngineStartError> {
        Self::start(command, Stdio::piped(), None, env)
    }

    fn start(
        command: &str,
        stderr: Stdio,
        cpus: Option<&str>,
        env: &[(&str, &str)],
    ) -> Result<(EngineProcess, Option<ChildStderr>), EngineStartError> {
        let mut words = split_command(command)?;
        if let Some(list) = cpus.filter(|_| taskset_available()) {
            words.splice(
                0..0,
                ["taskset".to_string(), "-c".to_string(), list.to_string()],
            );
        }
        let mut child = Command::new(&words[0])
            .args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .envs(env.iter().copied())
            .spawn()
            .map_err(|error| EngineStartError::Spawn {
                command: command.to_string(),
                error,
            })?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        let (tx, rx) = mpsc::channel();
        if let Some(stdout) = stdout {
            let label = command.to_string();
            thread::spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let at = Instant::now();
                            let line = String::from_utf8_lossy(&buf);
                            let line = line.trim_end_matches(['\n', '\r']).to_string();
                            log::trace!("[{label}] -> {line}");
                            if tx.send((line, at)).is_err() {
                                break;
                            }
                        }
                    }
                }
            });
        }
        let engine = EngineProcess {
            command: command.to_string(),
            child,
            stdin,
            lines: rx,
        };
        Ok((engine, stderr))
    }

    pub fn command(&self) -> &str {
        &self.command
    }

    /// Writes one line (a newline is appended) and flushes.
    pub fn send(&mut self, line: &str) -> io::Result<()> {
        log::trace!("[{}] <- {line}", self.command);
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| io::Error::new(io::ErrorKind::BrokenPipe, "stdin closed"))?;
        stdin.write_all(line.as_bytes())?;
        stdin.write_all(b"\n")?;
        stdin.flush()
    }

    /// The next stdout line, waiting at most until `deadline`.
    pub fn recv_until(&self, deadline: Instant) -> Received {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok((line, at)) => Received::Line(line, at),
            Err(RecvTimeoutError::Timeout) => Received::Timeout,
            Err(RecvTimeoutError::Disconnected) => Received::Eof,
        }
    }

    /// Waits until `deadline` for a `name <Name>` line, skipping others; `None` on timeout.
    pub fn await_name(&self, deadline: Instant) -> Result<Option<String>, EngineStartError> {
        loop {
            match self.recv_until(deadline) {
                Received::Line(line, _) => {
                    if let Some(name) = line.trim().strip_prefix("name ") {
                        let name = name.trim();
                        if !name.is_empty() {
                            return Ok(Some(name.to_string()));
                        }
                    }
                }
                Received::Timeout => return Ok(None),
                Received::Eof => {
                    return Err(EngineStartError::Exited {
                        command: self.command.clone(),
                    });
                }
            }
        }
    }

    /// Closes stdin, waits for the process to exit until `deadline`, then kills it.
    pub fn reap(mut self, deadline: Instant) {
        self.stdin = None;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    log::debug!("[{}] exited: {status}", self.command);
                    return;
                }
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                _ => break,
            }
        }
        log::debug!("[{}] still running after quit; killing it", self.command);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        // `reap` leaves an exited child; anything still running here is killed, never leaked.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_shares() {
        assert_eq!(cpu_share(0, 1, 2), "0-1");
        assert_eq!(cpu_share(0, 2, 2), "0");
        assert_eq!(cpu_share(1, 2, 2), "1");
        assert_eq!(cpu_share(2, 3, 2), "0");
        assert_eq!(cpu_share(1, 2, 8), "4-7");
    }
}

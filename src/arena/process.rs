//! One engine child process: spawning from a shell-like command line, line-based stdin
//! writes, and a dedicated reader thread per child that feeds stdout lines into a channel, so
//! that waiting for a reply can use an exact `recv_timeout`.

use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStderr, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

/// The longest output line an engine may write: a protocol reply is a few bytes, a log line
/// a few hundred. A longer one is cut there (the rest up to its newline is skipped unread
/// into memory), so an engine cannot make its referee hold more than this per line.
pub const MAX_LINE: usize = 64 * 1024;

/// One line read under [`MAX_LINE`].
#[derive(Debug, PartialEq, Eq)]
pub enum LineRead {
    /// The line without its line ending (`\n` or `\r\n`), invalid UTF-8 replaced.
    Whole(String),
    /// Longer than the cap: its first [`MAX_LINE`] bytes, and how many bytes it had in all.
    Cut(String, u64),
}

/// Reads the next line of `reader` with the cap; `None` at the end of the stream.
pub fn read_line_capped(reader: &mut impl BufRead) -> io::Result<Option<LineRead>> {
    let mut buf = Vec::new();
    let n = reader
        .by_ref()
        .take(MAX_LINE as u64 + 1)
        .read_until(b'\n', &mut buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') || buf.len() <= MAX_LINE {
        let text = String::from_utf8_lossy(&buf);
        return Ok(Some(LineRead::Whole(
            text.trim_end_matches(['\n', '\r']).to_string(),
        )));
    }
    // Past the cap: skip to the newline (or the end), counting, without keeping anything.
    let mut total = buf.len() as u64;
    buf.truncate(MAX_LINE);
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => {
                total += i as u64;
                reader.consume(i + 1);
                break;
            }
            None => {
                let len = chunk.len();
                total += len as u64;
                reader.consume(len);
            }
        }
    }
    Ok(Some(LineRead::Cut(
        String::from_utf8_lossy(&buf).into_owned(),
        total,
    )))
}

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

/// A handle that stops an engine from another thread while its owner waits for a reply.
#[derive(Clone)]
pub struct Killer(Arc<Mutex<Child>>);

impl Killer {
    /// Kills the process (if it still runs) and collects its exit.
    pub fn kill(&self) {
        let mut child = lock(&self.0);
        if let Ok(None) = child.try_wait() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The child, locked; a panic elsewhere leaves a `Child` still usable, so poison is set aside.
fn lock(child: &Mutex<Child>) -> MutexGuard<'_, Child> {
    child.lock().unwrap_or_else(|p| p.into_inner())
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
    /// A line longer than [`MAX_LINE`] bytes (its length), with the moment it ended.
    TooLong(u64, Instant),
    /// Nothing arrived before the deadline.
    Timeout,
    /// The engine closed its stdout (exited or crashed).
    Eof,
}

/// A running engine.
pub struct EngineProcess {
    command: String,
    child: Arc<Mutex<Child>>,
    stdin: Option<ChildStdin>,
    lines: Receiver<(LineRead, Instant)>,
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

    /// Starts `command` pinned as [`Self::spawn`] pins, with `env` added and each line of its
    /// stderr sent to `log` as `(color, line)` by a thread of its own, until the stream ends
    /// (the browser board's Watch reads the engines' reports from it).
    pub fn spawn_reporting(
        command: &str,
        cpus: Option<&str>,
        env: &[(&str, &str)],
        color: crate::rules::board::Color,
        log: mpsc::Sender<(crate::rules::board::Color, String)>,
    ) -> Result<EngineProcess, EngineStartError> {
        let (engine, stderr) = Self::start(command, Stdio::piped(), cpus, env)?;
        if let Some(stderr) = stderr {
            thread::spawn(move || {
                let mut reader = BufReader::new(stderr);
                while let Ok(Some(LineRead::Whole(line) | LineRead::Cut(line, _))) =
                    read_line_capped(&mut reader)
                {
                    if log.send((color, line)).is_err() {
                        break;
                    }
                }
            });
        }
        Ok(engine)
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
                while let Ok(Some(line)) = read_line_capped(&mut reader) {
                    let at = Instant::now();
                    match &line {
                        LineRead::Whole(text) => log::trace!("[{label}] -> {text}"),
                        LineRead::Cut(_, n) => log::trace!("[{label}] -> a line of {n} bytes"),
                    }
                    if tx.send((line, at)).is_err() {
                        break;
                    }
                }
            });
        }
        let engine = EngineProcess {
            command: command.to_string(),
            child: Arc::new(Mutex::new(child)),
            stdin,
            lines: rx,
        };
        Ok((engine, stderr))
    }

    pub fn command(&self) -> &str {
        &self.command
    }

    /// A handle that kills this process from another thread.
    pub fn killer(&self) -> Killer {
        Killer(Arc::clone(&self.child))
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
            Ok((LineRead::Whole(line), at)) => Received::Line(line, at),
            Ok((LineRead::Cut(_, n), at)) => Received::TooLong(n, at),
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
                Received::TooLong(..) => {}
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
            let exited = lock(&self.child).try_wait();
            match exited {
                Ok(Some(status)) => {
                    log::debug!("[{}] exited: {status}", self.command);
                    return;
                }
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                _ => break,
            }
        }
        log::debug!("[{}] still running after quit; killing it", self.command);
        self.killer().kill();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        // `reap` leaves an exited child; anything still running here is killed, never leaked.
        self.killer().kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_past_the_cap_is_cut_and_the_next_one_read_whole() {
        let mut text = vec![b'x'; MAX_LINE + 10];
        text.extend_from_slice(b"\nmove JJKK\r\n");
        text.extend(vec![b'y'; MAX_LINE + 1]);
        let mut reader = BufReader::with_capacity(1000, text.as_slice());
        match read_line_capped(&mut reader).unwrap() {
            Some(LineRead::Cut(kept, total)) => {
                assert_eq!(kept.len(), MAX_LINE);
                assert_eq!(total, MAX_LINE as u64 + 10);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            read_line_capped(&mut reader).unwrap(),
            Some(LineRead::Whole("move JJKK".into()))
        );
        assert!(matches!(
            read_line_capped(&mut reader).unwrap(),
            Some(LineRead::Cut(_, n)) if n == MAX_LINE as u64 + 1
        ));
        assert_eq!(read_line_capped(&mut reader).unwrap(), None);
        let exact = vec![b'z'; MAX_LINE];
        assert!(matches!(
            read_line_capped(&mut exact.as_slice()).unwrap(),
            Some(LineRead::Whole(t)) if t.len() == MAX_LINE
        ));
    }

    #[test]
    fn cpu_shares() {
        assert_eq!(cpu_share(0, 1, 2), "0-1");
        assert_eq!(cpu_share(0, 2, 2), "0");
        assert_eq!(cpu_share(1, 2, 2), "1");
        assert_eq!(cpu_share(2, 3, 2), "0");
        assert_eq!(cpu_share(1, 2, 8), "4-7");
    }
}

//! The Windows `connect6.exe` under Wine: the test files that start the engine are this crate's
//! modules, so their code runs again here with `common::engine_command()` being
//! `wine $CONNECT6_WINE_EXE` (the crate's name tells `common` which one it is in).
//!
//! `scripts/windows-exe --wine` builds the exe and makes the Wine prefix; then
//!
//! ```text
//! CONNECT6_WINE_EXE=target/windows/x86_64-win7-windows-gnu/release/connect6.exe \
//! WINEPREFIX=$PWD/target/windows/wine-prefix cargo test --test wine
//! ```
//!
//! Without Wine or without the exe the run prints one line saying it was skipped, unless
//! CONNECT6_WINE_TEST=required (CI sets it): then it fails with the reason. This crate has its
//! own `main` (no libtest) so that skipping is one line and Wine's start-up is measured once,
//! before any test, instead of inside one.

// Each included file declares its own `mod common;` (it is a test crate of its own too); the
// module holds no state, so its copies agree.
#![allow(clippy::duplicate_mod)]

#[allow(dead_code)]
#[path = "transcripts.rs"]
mod transcripts;

#[allow(dead_code)]
#[path = "options_file.rs"]
mod options_file;

#[allow(dead_code)]
#[path = "platform.rs"]
mod platform;

use std::io::{BufRead, BufReader, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

/// Start-ups timed once Wine is up.
const WARM_STARTS: usize = 5;

fn main() -> ExitCode {
    // libtest's flags are accepted and ignored; a word filters the cases by name.
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--list") {
        for name in cases().iter().map(|(n, _)| n) {
            println!("{name}: test");
        }
        return ExitCode::SUCCESS;
    }
    // libtest's options that take a value in the next word: that word is no filter.
    const VALUED: [&str; 6] = [
        "--test-threads",
        "--skip",
        "--format",
        "--color",
        "--logfile",
        "-Z",
    ];
    let filter = (0..args.len())
        .find(|&i| !args[i].starts_with('-') && (i == 0 || !VALUED.contains(&args[i - 1].as_str())))
        .map(|i| args[i].clone());
    let required = std::env::var("CONNECT6_WINE_TEST").is_ok_and(|v| v == "required");
    let keeper = wine_ready();
    if let Err(why) = &keeper {
        let mut err = std::io::stderr();
        if required {
            let _ = writeln!(
                err,
                "wine tests FAILED: {why} (CONNECT6_WINE_TEST=required)"
            );
            return ExitCode::FAILURE;
        }
        let _ = writeln!(
            err,
            "wine tests SKIPPED: {why} (scripts/windows-exe --wine builds it; \
             CONNECT6_WINE_TEST=required makes this a failure)"
        );
        return ExitCode::SUCCESS;
    }
    let mut failed = Vec::new();
    let mut ran = 0;
    let began = Instant::now();
    for (name, case) in cases() {
        if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
            continue;
        }
        let t = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(case));
        ran += 1;
        let took = t.elapsed().as_secs_f64();
        match outcome {
            Ok(()) => println!("test wine::{name} ... ok ({took:.1} s)"),
            Err(panic) => {
                let why = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                println!("test wine::{name} ... FAILED ({took:.1} s)\n{why}");
                failed.push(name);
            }
        }
    }
    drop(keeper);
    println!(
        "wine: {} passed, {} failed in {:.0} s{}",
        ran - failed.len(),
        failed.len(),
        began.elapsed().as_secs_f64(),
        if failed.is_empty() {
            String::new()
        } else {
            format!(": {}", failed.join(", "))
        }
    );
    if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Cases by name, as each included file lists them.
type Cases = &'static [(&'static str, fn())];

/// Every case, by name: the transcripts, the other tests of the included files.
fn cases() -> Vec<(String, Box<dyn Fn()>)> {
    let mut cases: Vec<(String, Box<dyn Fn()>)> = Vec::new();
    for &(name, file) in transcripts::TRANSCRIPTS {
        let path = transcripts::transcript_dir().join(file);
        cases.push((
            format!("transcripts::{name}"),
            Box::new(move || {
                if let Err(e) = transcripts::run_transcript(&path) {
                    panic!("{e}");
                }
            }),
        ));
    }
    let shared: [(&str, Cases); 3] = [
        ("transcripts", transcripts::CASES),
        ("options_file", options_file::CASES),
        ("platform", platform::CASES),
    ];
    for (module, list) in shared {
        for &(name, case) in list {
            cases.push((format!("{module}::{name}"), Box::new(case)));
        }
    }
    cases
}

/// An engine kept waiting for the whole run. While the prefix has no Windows process, Wine
/// stops its server and services, and each start launches them anew (about a second here);
/// with one process alive a start takes hundredths. Closing its stdin ends it.
struct Keeper(Child);

impl Keeper {
    /// Starts it and waits for its answer to `name?`: then Wine is up.
    fn start(exe: &str) -> Result<Keeper, String> {
        let mut child = Command::new("wine")
            .args([exe, "--hash", "1"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("wine does not start ({e}): apt-get install wine64 wine"))?;
        let mut line = String::new();
        let stdin = child.stdin.as_mut().expect("piped stdin");
        let asked = stdin.write_all(b"name?\n").and_then(|()| stdin.flush());
        let stdout = child.stdout.as_mut().expect("piped stdout");
        let answered = asked.and_then(|()| BufReader::new(stdout).read_line(&mut line));
        let keeper = Keeper(child);
        match answered {
            Ok(_) if line.starts_with("name ") => Ok(keeper),
            _ => Err(format!(
                "wine {exe} does not answer 'name?' (said '{}')",
                line.trim()
            )),
        }
    }
}

impl Drop for Keeper {
    fn drop(&mut self) {
        drop(self.0.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(10);
        while matches!(self.0.try_wait(), Ok(None)) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Checks that Wine runs the exe, times its start-up (a cold one, then warm ones) and keeps
/// Wine up for the tests.
fn wine_ready() -> Result<Keeper, String> {
    let exe = std::env::var("CONNECT6_WINE_EXE")
        .map_err(|_| "CONNECT6_WINE_EXE (the connect6.exe to test) is not set".to_string())?;
    if !Path::new(&exe).is_file() {
        return Err(format!("CONNECT6_WINE_EXE={exe} is not a file"));
    }
    if std::env::var_os("WINEDEBUG").is_none() {
        // SAFETY: nothing else runs yet (no test has started a thread), so no thread can be
        // reading the environment while it changes.
        unsafe { std::env::set_var("WINEDEBUG", "-all") };
    }
    let start = || -> Result<Duration, String> {
        let t = Instant::now();
        let out = Command::new("wine")
            .arg(&exe)
            .arg("--version")
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("wine does not start ({e}): apt-get install wine64 wine"))?;
        let took = t.elapsed();
        let said = String::from_utf8_lossy(&out.stdout);
        let want = format!("connect6 {}", env!("CARGO_PKG_VERSION"));
        if !out.status.success() || said.trim() != want {
            return Err(format!(
                "wine {exe} --version: {} said '{}' (want '{want}'), stderr '{}'",
                out.status,
                said.trim(),
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        Ok(took)
    };
    let t = Instant::now();
    let keeper = Keeper::start(&exe)?;
    let cold = t.elapsed();
    let mut warm: Vec<Duration> = (0..WARM_STARTS)
        .map(|_| start())
        .collect::<Result<_, _>>()?;
    warm.sort();
    println!(
        "wine start-up: {:.2} s to the first answer with Wine down, then {exe} --version \
         in {:.2} s (median of {WARM_STARTS}, max {:.2} s); WINEPREFIX={}",
        cold.as_secs_f64(),
        warm[WARM_STARTS / 2].as_secs_f64(),
        warm[WARM_STARTS - 1].as_secs_f64(),
        std::env::var("WINEPREFIX").unwrap_or_else(|_| "(Wine's default)".into())
    );
    Ok(keeper)
}

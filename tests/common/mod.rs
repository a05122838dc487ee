//! Helpers shared by the integration tests that run the real binary.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The command (program and first arguments) that starts the engine under test: the binary
/// cargo built, or in the Wine test crate (`tests/wine.rs`, which includes the test files that
/// start the engine as its modules) `wine $CONNECT6_WINE_EXE`, so the same test code runs both.
#[allow(dead_code)] // not every test crate that includes this module starts the engine
pub fn engine_command() -> Vec<String> {
    if under_wine() {
        let exe = std::env::var("CONNECT6_WINE_EXE")
            .expect("tests/wine.rs checks CONNECT6_WINE_EXE before it runs a test");
        vec!["wine".into(), exe]
    } else {
        vec![env!("CARGO_BIN_EXE_connect6").into()]
    }
}

/// Whether this test crate runs the engine under Wine.
#[allow(dead_code)]
pub fn under_wine() -> bool {
    env!("CARGO_CRATE_NAME") == "wine"
}

/// `path` as the engine under test spells it: under Wine, with the drive letter and
/// backslashes of Windows (Wine's drive Z: is the Linux root).
#[allow(dead_code)]
pub fn engine_path(path: &Path) -> String {
    let text = path.display().to_string();
    if under_wine() {
        format!("Z:{}", text.replace('/', "\\"))
    } else {
        text
    }
}

/// Runs the binary cargo built with `args` and `input` on stdin (then end of input), to its
/// end, logging warnings and errors only.
#[allow(dead_code)] // not every test crate that includes this module runs the binary
pub fn run_with_input(args: &[&str], input: &[u8]) -> Output {
    run_logging(args, input, "warn")
}

/// `run_with_input`, logging at `level` (`RUST_LOG`).
#[allow(dead_code)] // not every test crate that includes this module runs the binary
pub fn run_logging(args: &[&str], input: &[u8], level: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_connect6"))
        .args(args)
        .env("RUST_LOG", level)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run connect6");
    // A process that exits without reading its input is judged by its status, not here.
    let _ = child.stdin.take().expect("piped stdin").write_all(input);
    child.wait_with_output().expect("wait for connect6")
}

/// The subcommands a `--help` page lists (its `Commands:` section, `help` left out).
#[allow(dead_code)] // not every test crate that includes this module reads help pages
pub fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| *w != "help")
        .map(str::to_string)
        .collect()
}

/// Runs `connect6 SUBCOMMAND ARGS...` and returns its exit code, stdout and stderr.
#[allow(dead_code)] // not every test crate that includes this module runs the binary
pub fn run_subcommand(subcommand: &str, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_connect6"))
        .arg(subcommand)
        .args(args)
        .output()
        .expect("the connect6 binary runs");
    (
        out.status.code().expect("the binary exits, not killed"),
        String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    )
}

/// A folder of test data under `tests/data/`, which must exist: a test that needs real games
/// fails when they are missing instead of passing without them.
#[allow(dead_code)] // not every test crate that includes this module reads data
pub fn data_dir(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    assert!(
        dir.is_dir(),
        "{} is missing: the test data lives in the repository",
        dir.display()
    );
    dir
}

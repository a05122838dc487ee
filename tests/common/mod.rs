//! Helpers shared by the integration tests that run the real binary.

use std::process::Command;

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

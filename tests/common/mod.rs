//! Helpers shared by the integration tests that run the real binary.

use std::process::Command;

/// Runs `connect6 SUBCOMMAND ARGS...` and returns its exit code, stdout and stderr.
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

//! `match` books the time of every reply that came in time, even one that loses the game as
//! malformed: the browser board's Play shares the referee's reply reading (`await_turn`), and
//! this keeps the match's own booking as it was.

mod common;

use common::run_subcommand;

#[test]
fn a_malformed_reply_counts_its_time() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/engine.sh");
    let malformed = format!("bash '{script}' malformed 2");
    let random = format!("bash '{script}' random");
    let (code, out, err) = run_subcommand(
        "match",
        &[
            "--quiet",
            "--json",
            "--games",
            "1",
            "--move-time",
            "5",
            &malformed,
            &random,
        ],
    );
    assert_eq!(code, 0, "{err}");
    let summary: serde_json::Value = serde_json::from_str(&out).expect("a JSON summary");
    assert_eq!(summary["faults"][0]["kind"], "malformed", "{out}");
    // Its first move and the malformed second one.
    assert_eq!(summary["engines"][0]["moves"], 2, "{out}");
    assert_eq!(summary["engines"][1]["moves"], 1, "{out}");
}

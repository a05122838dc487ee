//! `connect6 bench`'s signature, pinned: it hashes the fixed-depth search's node counts, best
//! turns and scores and the solver's, so it changes whenever the search does. A change that
//! alters play changes it on purpose: update `SIGNATURE` and docs/engine.md together, and say
//! in the commit why the search changed. A change that should not alter play (a refactoring,
//! a speed-up) must leave it as it is.

/// The signature of `connect6 bench` at its defaults (depth 4, the embedded evaluation).
const SIGNATURE: &str = "624348709c12aeef";
/// The same with `--eval hand`, which docs/engine.md names too.
const HAND_SIGNATURE: &str = "0ef60542349f52f9";

/// The signature on the `total:` line of `connect6 bench ARGS`.
fn bench_signature(args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_connect6"))
        .arg("bench")
        .args(args)
        .output()
        .expect("bench runs");
    assert!(out.status.success(), "bench {args:?}: {out:?}");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let total = text
        .lines()
        .find(|l| l.starts_with("total:"))
        .unwrap_or_else(|| panic!("no total line:\n{text}"));
    total
        .rsplit("signature ")
        .next()
        .expect("a signature")
        .trim()
        .to_string()
}

#[test]
fn bench_prints_the_pinned_and_documented_signature() {
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/engine.md"))
        .expect("docs/engine.md");
    // The page names the current signature, and shows it in its example run.
    assert!(
        docs.contains(&format!("`{SIGNATURE}`")),
        "docs/engine.md does not name {SIGNATURE} as the current signature"
    );
    assert!(
        docs.contains(&format!("signature {SIGNATURE}")),
        "docs/engine.md's example run does not end in {SIGNATURE}"
    );
    assert!(docs.contains(&format!("`{HAND_SIGNATURE}` with `--eval hand`")));
    assert_eq!(bench_signature(&[]), SIGNATURE);
    assert_eq!(bench_signature(&["--eval", "hand"]), HAND_SIGNATURE);
}

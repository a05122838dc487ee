//! The engine panel: what our engine's stderr says about one move (at `RUST_LOG=debug`, which
//! the board asks of it), read into fields the page shows, and the threat lines retold as
//! short sentences. The engine is not changed for the board; the lines read are these (the
//! message after `env_logger`'s `[time LEVEL module] `):
//!
//! - the move's info line: `KIIK score 176 depth 4 nodes 29974 in 109.289572ms (274262
//!   nodes/s); threat solver 36 nodes in 62.837µs`;
//! - each completed iteration: `depth 4 score 176 best KIIK nodes 29974 time 98ms pv KIIK
//!   JLLJ ...` (a helper thread's start with `helper `, and are left out);
//! - the threat solver's findings: `threat-sequence win T in N turns (M solver nodes)`, `the
//!   opponent threatens a win in N turns starting T; zone of K cells`, `K root turns lose to
//!   a threat sequence; V shown safe, U unknown`, `T loses to a threat sequence`.
//!
//! A unit test reads each of them; `tests/gui.rs` reads a real engine's info and iteration
//! lines, so a change of their wording that the panel no longer follows fails there (the
//! threat lines, rarer, only in the unit test). Other engines' lines are shown raw, in the
//! log only.

use serde_json::{Value, json};

/// The log lines the page keeps showing under the panel's `log` switch.
const LOG_TAIL: usize = 12;

/// The message of an `env_logger` line: what follows `] ` after the level and module.
fn message(line: &str) -> &str {
    match line.find("] ") {
        Some(i) if line.starts_with('[') => &line[i + 2..],
        _ => line,
    }
}

fn number(word: &str) -> Option<i64> {
    word.parse().ok()
}

/// The info line's fields, or `None` when `words` are not one.
fn summary(words: &[&str]) -> Option<Value> {
    let [
        best,
        "score",
        score,
        "depth",
        depth,
        "nodes",
        nodes,
        "in",
        time,
        rest @ ..,
    ] = words
    else {
        return None;
    };
    // `(274262 nodes/s);`: the speed, when the line has it.
    let nps = match rest {
        [speed, unit, ..] if unit.starts_with("nodes/s") => number(speed.trim_start_matches('(')),
        _ => None,
    };
    Some(json!({
        "best": best,
        "score": number(score)?,
        "depth": number(depth)?,
        "nodes": number(nodes)?,
        "time": time,
        "nps": nps,
    }))
}

/// The turn played and its score (the engine's own view) when `line` is a move's info line.
pub fn report(line: &str) -> Option<(String, i64)> {
    let words: Vec<&str> = message(line).split_whitespace().collect();
    let s = summary(&words)?;
    Some((s["best"].as_str()?.to_string(), s["score"].as_i64()?))
}

/// A threat line retold as a sentence, or `None` when `words` are not one.
fn threat_sentence(words: &[&str]) -> Option<String> {
    Some(match words {
        ["threat-sequence", "win", turn, "in", n, "turns", ..] => {
            format!("{turn} starts a forced win by threats in {n} turns.")
        }
        [
            "the",
            "opponent",
            "threatens",
            "a",
            "win",
            "in",
            n,
            "turns",
            "starting",
            turn,
            "zone",
            "of",
            k,
            "cells",
        ] => format!(
            "The opponent threatens a win in {n} turns, starting {}; the defence looks at {k} cells.",
            turn.trim_end_matches(';')
        ),
        [
            k,
            "root",
            "turns",
            "lose",
            "to",
            "a",
            "threat",
            "sequence;",
            v,
            "shown",
            "safe,",
            u,
            "unknown",
        ] => {
            format!("{k} candidate turns lose to a threat sequence ({v} shown safe, {u} unknown).")
        }
        [turn, "loses", "to", "a", "threat", "sequence"] => {
            format!("{turn} loses to a threat sequence: not played.")
        }
        _ => return None,
    })
}

/// What our engine's log says about one move: `summary` (best, score, depth, nodes, time,
/// nps; `null` before the move is made), `iterations` (depth, score, best, pv of each),
/// `pv` (the expected line of the deepest iteration that chose the move played), `threats`
/// (sentences) and `log` (the last lines, raw but for their stamps).
pub fn search_view(lines: &[String]) -> Value {
    let mut summary_seen = Value::Null;
    let mut iterations = Vec::new();
    let mut threats = Vec::new();
    for line in lines {
        let text = message(line);
        let words: Vec<&str> = text.split_whitespace().collect();
        if let Some(s) = summary(&words) {
            summary_seen = s;
        } else if let ["depth", depth, "score", score, "best", best, rest @ ..] = words.as_slice() {
            // The line the search expects, after `pv` (from the table, best turn first).
            let pv: Vec<&str> = rest
                .iter()
                .skip_while(|w| **w != "pv")
                .skip(1)
                .copied()
                .collect();
            if let (Some(depth), Some(score)) = (number(depth), number(score)) {
                iterations.push(json!({ "depth": depth, "score": score, "best": best, "pv": pv }));
            }
        } else if let Some(sentence) = threat_sentence(&words) {
            threats.push(sentence);
        }
    }
    // The threat check or a helper thread may change the search's choice: the line shown is
    // one that starts with the turn played.
    let played = summary_seen["best"].as_str();
    let pv = iterations
        .iter()
        .rev()
        .find(|i| played.is_none() || i["best"].as_str() == played)
        .map_or(Value::Array(Vec::new()), |i| i["pv"].clone());
    let tail: Vec<&str> = lines
        .iter()
        .rev()
        .take(LOG_TAIL)
        .rev()
        .map(|l| message(l))
        .collect();
    json!({
        "summary": summary_seen,
        "iterations": iterations,
        "pv": pv,
        "threats": threats,
        "log": tail,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stamped(messages: &[&str]) -> Vec<String> {
        messages
            .iter()
            .map(|m| format!("[2026-12-04T08:00:00Z DEBUG connect6::engine::search] {m}"))
            .collect()
    }

    #[test]
    fn reads_the_search_out_of_the_log() {
        let mut lines = stamped(&[
            "depth 1 score 12 best JIJK nodes 40 time 1ms",
            "depth 2 score -3 best KIKK nodes 90 time 2ms pv KIKK LLMM",
            "helper depth 3 score 9 best HGGH nodes 36340 time 42.89ms pv HGGH",
            "depth 3 score 7 best HHII nodes 190 time 4ms pv HHII JJKK",
            "HHII loses to a threat sequence",
            "the opponent threatens a win in 3 turns starting KLLM; zone of 14 cells",
            "2 root turns lose to a threat sequence; 5 shown safe, 1 unknown",
            "threat-sequence win MMNN in 2 turns (77 solver nodes)",
            "KIKK score -3 depth 2 nodes 90 in 2.5ms (36000 nodes/s); threat solver 5 nodes in 1ms",
        ]);
        lines.push("some other engine's chatter".to_string());
        let view = search_view(&lines);
        assert_eq!(
            view["summary"],
            json!({ "best": "KIKK", "score": -3, "depth": 2, "nodes": 90, "time": "2.5ms", "nps": 36000 })
        );
        assert_eq!(view["iterations"].as_array().map(Vec::len), Some(3));
        assert_eq!(view["iterations"][0]["pv"], json!([]), "an older line");
        assert_eq!(
            view["pv"],
            json!(["KIKK", "LLMM"]),
            "the line of the turn played, not the deeper HHII the threat check refused"
        );
        assert_eq!(
            view["threats"],
            json!([
                "HHII loses to a threat sequence: not played.",
                "The opponent threatens a win in 3 turns, starting KLLM; the defence looks at 14 cells.",
                "2 candidate turns lose to a threat sequence (5 shown safe, 1 unknown).",
                "MMNN starts a forced win by threats in 2 turns.",
            ])
        );
        assert_eq!(view["log"].as_array().map(Vec::len), Some(LOG_TAIL.min(10)));
        assert_eq!(report(&lines[8]), Some(("KIKK".to_string(), -3)));
        assert_eq!(report(&lines[0]), None, "an iteration line is no report");
        assert_eq!(view["log"][9], "some other engine's chatter");
    }

    #[test]
    fn before_the_move_the_line_is_the_deepest_so_far() {
        let view = search_view(&stamped(&[
            "depth 1 score 12 best JIJK nodes 40 time 1ms pv JIJK",
            "depth 2 score 30 best KIKK nodes 90 time 2ms pv KIKK LLMM",
        ]));
        assert_eq!(view["summary"], Value::Null);
        assert_eq!(view["pv"], json!(["KIKK", "LLMM"]));
        assert_eq!(view["threats"], json!([]));
    }

    #[test]
    fn other_engines_lines_fill_no_field() {
        let lines: Vec<String> = ["score 10 depth 3", "depth x score y best z", "loses to"]
            .map(String::from)
            .to_vec();
        let view = search_view(&lines);
        assert_eq!(view["summary"], Value::Null);
        assert_eq!(view["iterations"], json!([]));
        assert_eq!(view["threats"], json!([]));
        assert_eq!(view["log"].as_array().map(Vec::len), Some(3));
    }
}

//! `connect6 analyse --svg`: the board of a lost game with its score graph under it, read
//! back with the XML parser: well-formed, one point per turn whose scores are those of a
//! fresh quick pass over the game, black's chance by the evaluation's logistic scale, black
//! up, and the losing turn `analyse` reports marked.

mod common;

use connect6::record::game::Game;
use connect6::tools::graph::chance;
use connect6::tools::pass::{PassSettings, PassStop, quick_pass};
use std::path::PathBuf;
use std::time::Duration;

/// A depth the search finishes far inside the time: the pass is the same every run.
const DEPTH: &str = "2";
const TIME: &str = "5";

fn lost_game() -> PathBuf {
    let dir = common::data_dir("losses");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the losses folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files.swap_remove(0)
}

fn has_class(node: roxmltree::Node, class: &str) -> bool {
    node.attribute("class")
        .is_some_and(|c| c.split_whitespace().any(|w| w == class))
}

fn number(node: roxmltree::Node, name: &str) -> f64 {
    node.attribute(name)
        .unwrap_or_else(|| panic!("a point without {name}"))
        .parse()
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn the_svg_is_the_board_and_the_pass() {
    let record = lost_game();
    let out = std::env::temp_dir().join(format!("connect6-graph-{}.svg", std::process::id()));
    let path = record.to_str().expect("a UTF-8 path");
    let args = [
        "--time",
        "0.1",
        "--side",
        "Connect6",
        "--svg",
        out.to_str().expect("a UTF-8 path"),
        "--graph-time",
        TIME,
        "--graph-depth",
        DEPTH,
        path,
    ];
    let (code, stdout, stderr) = common::run_subcommand("analyse", &args);
    assert_eq!(code, 0, "{stderr}");
    let game = Game::read_record(&record).expect("the record");
    let turns = game.turns.len();
    assert!(
        stdout.contains(&format!("score graph: {turns} points, written to")),
        "{stdout}"
    );
    let losing: usize = stdout
        .split("lost after turn ")
        .nth(1)
        .and_then(|rest| rest.split(':').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no losing turn: {stdout}"));
    let svg = std::fs::read_to_string(&out).expect("the SVG is written");
    let _ = std::fs::remove_file(&out);
    let doc = roxmltree::Document::parse(&svg).expect("the SVG is well-formed XML");
    let root = doc.root_element();
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    let stones = doc.descendants().filter(|n| has_class(*n, "stone")).count();
    let placed: usize = game.turns.iter().map(|p| p.turn.cells().count()).sum();
    assert_eq!(stones, placed, "the board at the end");
    let points: Vec<roxmltree::Node> = doc
        .descendants()
        .filter(|n| n.has_tag_name("circle") && has_class(*n, "point"))
        .collect();
    // A fresh pass with the same settings, in this process.
    let settings = PassSettings::new(Duration::from_secs(5), 2).expect("settings");
    let pass = quick_pass(&game, settings, &PassStop::default(), |_, _| {}).expect("run out");
    assert_eq!(points.len(), pass.len());
    assert_eq!(pass.len(), turns, "one point per turn");
    let mut marked = Vec::new();
    for (node, p) in points.iter().zip(&pass) {
        assert_eq!(number(*node, "data-turn") as usize, p.turn);
        assert_eq!(
            number(*node, "data-score") as i32,
            p.score,
            "turn {}",
            p.turn
        );
        let c = number(*node, "data-chance");
        assert!((c - chance(p.score)).abs() < 1e-4, "turn {}", p.turn);
        if has_class(*node, "losing") {
            marked.push(p.turn);
        }
    }
    assert_eq!(marked, vec![losing], "the losing turn is marked");
    // Black up: a higher chance is drawn higher (a smaller y).
    let by_chance = |a: &roxmltree::Node, b: &roxmltree::Node| {
        number(*a, "data-chance").total_cmp(&number(*b, "data-chance"))
    };
    let top = points
        .iter()
        .max_by(|a, b| by_chance(a, b))
        .expect("points");
    let bottom = points
        .iter()
        .min_by(|a, b| by_chance(a, b))
        .expect("points");
    if number(*top, "data-chance") > number(*bottom, "data-chance") {
        assert!(number(*top, "cy") < number(*bottom, "cy"));
    }
}

#[test]
fn svg_takes_one_record_and_a_writable_file() {
    let dir = common::data_dir("losses");
    let dir = dir.to_str().expect("a UTF-8 path");
    let (code, _, stderr) = common::run_subcommand(
        "analyse",
        &["--side", "Connect6", "--svg", "/tmp/x.svg", dir],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--svg takes a single record"), "{stderr}");
    let record = lost_game();
    let args = [
        "--time",
        "0.05",
        "--side",
        "Connect6",
        "--svg",
        "/no/such/folder/g.svg",
        "--graph-time",
        "0.05",
        "--graph-depth",
        "1",
        record.to_str().expect("a UTF-8 path"),
    ];
    let (code, _, stderr) = common::run_subcommand("analyse", &args);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("/no/such/folder/g.svg"), "{stderr}");
    let path = record.to_str().expect("a UTF-8 path");
    let args = [
        "--side",
        "Connect6",
        "--svg",
        "/tmp/x.svg",
        "--graph-depth",
        "0",
        path,
    ];
    let (code, _, stderr) = common::run_subcommand("analyse", &args);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("pass depth 0"), "{stderr}");
}

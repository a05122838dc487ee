//! The crate's architecture, checked from its source: each top folder of `src/` imports only
//! the layers below it (rules <- engine <- protocol, rules <- record <- arena, tools, tuning, gui),
//! and no file reaches, through its imports, back to itself. Unit tests count: a test in
//! `rules` that reached into `engine` would tie the layers as much as the code does.
//!
//! The rules are the game's facts: they import nothing from the crate but the rules (and the
//! seeded generator their hash keys come from), and hold no learned model: no embedded file
//! and no static that is not one of the game's own tables. The openings files games start
//! from are records, read by the match and the tuning alike.
//!
//! `reader` reads the imports from the source.

#[path = "layers/reader.rs"]
mod reader;

use reader::{Crate, Tok, layer_of, read_crate, real_crate, sources, tokens};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Leaf utilities: they import nothing from the crate, and every layer may import them.
const LEAVES: &[&str] = &["rng", "seconds", "pool"];

/// Each layer and the layers it may import (besides itself and the `LEAVES`).
const LAYERS: &[(&str, &[&str])] = &[
    ("rules", &[]),
    ("engine", &["rules"]),
    ("protocol", &["rules", "engine"]),
    ("record", &["rules"]),
    ("arena", &["rules", "record"]),
    ("tools", &["rules", "engine", "record"]),
    ("tuning", &["rules", "engine", "record"]),
    ("gui", &["rules", "record", "arena", "tools"]),
    ("rng", &[]),
    ("seconds", &[]),
    ("pool", &[]),
];

/// Every import against `LAYERS`, as `FILE imports FILE`.
fn layer_violations(c: &Crate) -> Vec<String> {
    let mut wrong = Vec::new();
    for (file, targets) in &c.imports {
        let layer = layer_of(c, file);
        if layer.is_empty() {
            continue; // lib.rs declares the layers
        }
        let allowed = LAYERS
            .iter()
            .find(|(l, _)| *l == layer)
            .unwrap_or_else(|| panic!("{}: layer {layer} is not in LAYERS", file.display()))
            .1;
        for target in targets {
            let to = layer_of(c, target);
            if to != layer && !LEAVES.contains(&to.as_str()) && !allowed.contains(&to.as_str()) {
                wrong.push(format!("{} imports {}", file.display(), target.display()));
            }
        }
    }
    wrong
}

#[test]
fn layers_import_only_downwards() {
    let c = real_crate();
    let wrong = layer_violations(&c);
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
    // The check reads real imports: the engine's search reaches the rules' board.
    let search = c.files[&vec!["engine".to_string(), "search".to_string()]].clone();
    assert!(
        c.imports[&search]
            .iter()
            .any(|t| t.ends_with("rules/board.rs"))
    );
}

/// A crate in memory: `(path under src, text)`.
fn planted(files: &[(&str, &str)]) -> Crate {
    let src = PathBuf::from("/planted/src");
    let all: Vec<(PathBuf, String)> = files
        .iter()
        .map(|(p, t)| (src.join(p), t.to_string()))
        .collect();
    read_crate(&src, &all)
}

/// The files of a small crate with one layer each below `engine` and `gui`.
const PLANTED_BASE: &[(&str, &str)] = &[
    ("lib.rs", "pub mod rules; pub mod engine; pub mod gui;"),
    ("rules/mod.rs", "pub mod board; pub mod coord;"),
    ("rules/board.rs", "pub struct Board;"),
    ("rules/coord.rs", "pub struct Cell;"),
    ("engine/mod.rs", "pub mod search; pub mod eval;"),
    ("engine/eval.rs", "pub fn eval() {}"),
    ("engine/search/mod.rs", "pub mod tt;"),
    ("engine/search/tt.rs", "pub struct Table;"),
    ("gui/mod.rs", "pub struct Page;"),
];

/// `PLANTED_BASE` with `file`'s text replaced (or added), then its layer violations.
fn violations_with(file: &str, text: &str) -> Vec<String> {
    let mut files: Vec<(&str, &str)> = PLANTED_BASE
        .iter()
        .filter(|(p, _)| *p != file)
        .copied()
        .collect();
    files.push((file, text));
    layer_violations(&planted(&files))
}

#[test]
fn a_planted_import_against_the_layers_is_reported() {
    // Clean: imports downwards only, in every form, and `crate::` in comments and strings.
    let clean = "use crate::{rules::{board::Board, coord::{self}}, engine::eval};\n\
                 use super::super::super::rules::coord::Cell;\n\
                 // crate::gui::Page is only named in a comment\n\
                 const S: &str = \"crate::gui::Page\";\n\
                 mod tests { use super::*; use super::super::tt::Table; }\n";
    assert_eq!(
        violations_with("engine/search/tt.rs", clean),
        Vec::<String>::new()
    );
    let to_gui = "/planted/src/engine/search/tt.rs imports /planted/src/gui/mod.rs";
    let bad = [
        // The rest of a nested group, after a group that closes first.
        "use crate::{rules::{board::Board}, gui::Page};",
        // Several lines, `pub use`, and an alias.
        "pub use crate::{\n    rules::board::Board,\n    gui::{\n        Page as P,\n    },\n};",
        // Three levels up from engine::search::tt is the crate root.
        "use super::super::super::gui::Page;",
        // `self` in a group names the module before it.
        "use crate::gui::{self};",
        // A glob.
        "use crate::gui::*;",
        // Four levels up from a test module inside the file.
        "mod tests { use super::super::super::super::gui::Page; }",
        // A path in an expression.
        "fn f() { let _ = crate::gui::Page; }",
        "fn f() -> super::super::super::gui::Page { loop {} }",
    ];
    for text in bad {
        assert_eq!(
            violations_with("engine/search/tt.rs", text),
            vec![to_gui.to_string()],
            "{text}"
        );
    }
    // A relative path starts at a child module, not at the crate root.
    let mut files = PLANTED_BASE.to_vec();
    files.retain(|(p, _)| *p != "rules/mod.rs");
    files.push((
        "rules/mod.rs",
        "pub mod board; pub use board::Board; use gui::Page;",
    ));
    let c = planted(&files);
    let rules = &c.imports[&PathBuf::from("/planted/src/rules/mod.rs")];
    assert_eq!(
        rules.iter().collect::<Vec<_>>(),
        [&PathBuf::from("/planted/src/rules/board.rs")]
    );
    assert_eq!(
        violations_with("rules/mod.rs", "pub mod board; use crate::engine;"),
        vec!["/planted/src/rules/mod.rs imports /planted/src/engine/mod.rs".to_string()]
    );
}

/// A private child module is part of its parent (the search's helper threads run the
/// searcher that holds them): the pair is one node of the graph.
const PARTS_OF_PARENT: &[&str] = &["engine/search/smp.rs"];

/// An import circle, if any: the files along it.
fn import_circle(c: &Crate) -> Option<Vec<PathBuf>> {
    let node = |f: &PathBuf| -> PathBuf {
        if PARTS_OF_PARENT.iter().any(|p| f.ends_with(p)) {
            f.with_file_name("mod.rs")
        } else {
            f.clone()
        }
    };
    let mut graph: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    for (file, targets) in &c.imports {
        let from = node(file);
        let entry = graph.entry(from.clone()).or_default();
        entry.extend(targets.iter().map(node).filter(|t| *t != from));
    }
    // Depth-first search for a back edge; `path` is the current chain.
    fn visit(
        f: &PathBuf,
        graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        done: &mut BTreeSet<PathBuf>,
        path: &mut Vec<PathBuf>,
    ) -> Option<Vec<PathBuf>> {
        if let Some(i) = path.iter().position(|p| p == f) {
            return Some(path[i..].to_vec());
        }
        if !done.insert(f.clone()) {
            return None;
        }
        path.push(f.clone());
        for t in graph.get(f).into_iter().flatten() {
            if let Some(cycle) = visit(t, graph, done, path) {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|f| visit(f, &graph, &mut done, &mut Vec::new()))
}

#[test]
fn no_file_imports_itself_back() {
    if let Some(cycle) = import_circle(&real_crate()) {
        let names: Vec<String> = cycle.iter().map(|p| p.display().to_string()).collect();
        panic!("import circle: {}", names.join(" -> "));
    }
}

#[test]
fn a_planted_import_circle_is_reported() {
    let mut files = PLANTED_BASE.to_vec();
    assert_eq!(import_circle(&planted(&files)), None);
    files.retain(|(p, _)| !p.starts_with("engine/"));
    files.push(("engine/mod.rs", "pub mod search; pub mod eval;"));
    files.push(("engine/search/mod.rs", "pub mod tt; use super::eval::eval;"));
    files.push(("engine/search/tt.rs", "pub struct Table;"));
    files.push((
        "engine/eval.rs",
        "pub fn eval() { let _ = crate::engine::search::Searcher; }",
    ));
    let cycle = import_circle(&planted(&files)).expect("a circle");
    assert_eq!(cycle.len(), 2, "{cycle:?}");
}

// ---------------------------------------------------------------------------------------
// The rules: the game's facts alone.

/// What the rules may import besides themselves: the crate's seeded generator, which draws
/// the position hash's keys (`rules/stones.rs`). No other leaf, and no layer.
const RULES_MAY_IMPORT: &[&str] = &["rng"];

/// Every import of a `rules` file from outside the rules and `RULES_MAY_IMPORT`.
fn rules_imports_outside(c: &Crate) -> Vec<String> {
    let mut wrong = Vec::new();
    for (file, targets) in &c.imports {
        if layer_of(c, file) != "rules" {
            continue;
        }
        for target in targets {
            let to = layer_of(c, target);
            if to != "rules" && !RULES_MAY_IMPORT.contains(&to.as_str()) {
                wrong.push(format!("{} imports {}", file.display(), target.display()));
            }
        }
    }
    wrong
}

#[test]
fn rules_import_nothing_but_the_rules() {
    let c = real_crate();
    let wrong = rules_imports_outside(&c);
    assert!(wrong.is_empty(), "the rules import:\n{}", wrong.join("\n"));
}

/// The statics the rules may hold: tables of the game's own facts, computed from the rules
/// alone. A static not listed here is taken for a model's (a learned table has no place in
/// the rules): list a new fact with what it is.
const RULES_STATICS: &[(&str, &str)] = &[
    (
        "GEOMETRY",
        "the board's lines and each cell's neighbours along them",
    ),
    ("PATTERNS", "each line key's pattern class"),
    (
        "CODE_PARTS",
        "each line key's part of a cell code (its pattern class's)",
    ),
    ("EMPTY_KEYS", "the line keys of the empty board"),
    ("EMPTY_CODES", "the cell codes of the empty board"),
    (
        "FILLED_SLOTS",
        "each line key's neighbour slots that hold a stone or the edge",
    ),
    (
        "CROSSINGS",
        "where lines of two cells cross within reach, by their offset",
    ),
    ("ZOBRIST", "the position hash's key of each stone"),
    ("CALLS", "debug builds' sampling counter (`debug_sample`)"),
];

/// The names of the static items of `text` (`static NAME:`, `static mut NAME:`; a
/// `&'static` type is no item).
fn static_items(text: &str) -> Vec<String> {
    let toks = tokens(text);
    let mut names = Vec::new();
    for (i, tok) in toks.iter().enumerate() {
        if *tok != Tok::Ident("static".into()) {
            continue;
        }
        let mut j = i + 1;
        if toks.get(j) == Some(&Tok::Ident("mut".into())) {
            j += 1;
        }
        if let (Some(Tok::Ident(name)), Some(Tok::Punct(':'))) = (toks.get(j), toks.get(j + 1)) {
            names.push(name.clone());
        }
    }
    names
}

/// What in the `rules` files of `files` (path under `src`, text) looks like a learned model:
/// an embedded file (`include_bytes!`, `include_str!`), or a static not in `RULES_STATICS`.
fn models_in_rules(files: &[(PathBuf, String)]) -> Vec<String> {
    let mut found = Vec::new();
    for (path, text) in files {
        if !path.components().any(|c| c.as_os_str() == "rules") {
            continue;
        }
        let toks = tokens(text);
        for pair in toks.windows(2) {
            if let [Tok::Ident(name), Tok::Punct('!')] = pair
                && (name == "include_bytes" || name == "include_str")
            {
                found.push(format!("{} embeds a file ({name}!)", path.display()));
            }
        }
        for name in static_items(text) {
            let fact = RULES_STATICS.iter().any(|(n, _)| *n == name);
            if !fact {
                found.push(format!("{} holds static {name}", path.display()));
            }
        }
    }
    found
}

#[test]
fn rules_hold_no_learned_model() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src.join("rules"), &mut files);
    let found = models_in_rules(&files);
    assert!(
        found.is_empty(),
        "a model in the rules (or a fact static not in RULES_STATICS):\n{}",
        found.join("\n")
    );
    let statics: BTreeSet<String> = files.iter().flat_map(|(_, t)| static_items(t)).collect();
    // The check reads the real statics: the board's geometry is one.
    assert!(statics.contains("GEOMETRY"), "{statics:?}");
}

#[test]
fn a_planted_model_or_import_in_the_rules_is_reported() {
    let rules = |text: &str| {
        vec![(
            PathBuf::from("/planted/src/rules/cells.rs"),
            text.to_string(),
        )]
    };
    // Facts, a borrowed `&'static` table, and `static` in comments and strings are clean.
    let clean = "pub static GEOMETRY: Lazy<G> = Lazy::new(build);\n\
                 pub struct Board { keys: &'static [u16] }\n\
                 fn keys() -> &'static [u16] { &[] }\n\
                 // static WEIGHTS: [i16; 4] is only named in a comment\n\
                 const S: &str = \"static WEIGHTS: [i16; 4] = include_bytes!(x)\";\n";
    assert_eq!(models_in_rules(&rules(clean)), Vec::<String>::new());
    let bad = [
        (
            "static CELL_WEIGHTS: [i16; 4] = [1, 2, 3, 4];",
            "holds static CELL_WEIGHTS",
        ),
        (
            "pub static mut LEARNED: [i16; 2] = [0, 0];",
            "holds static LEARNED",
        ),
        (
            "thread_local!(static NET: Vec<i16> = Vec::new());",
            "holds static NET",
        ),
        (
            "const NET: &[u8] = include_bytes!(\"net.bin\");",
            "embeds a file (include_bytes!)",
        ),
        (
            "const T: &str = include_str!(\"values.txt\");",
            "embeds a file (include_str!)",
        ),
    ];
    for (text, what) in bad {
        let found = models_in_rules(&rules(text));
        assert_eq!(found.len(), 1, "{text}: {found:?}");
        assert!(found[0].ends_with(what), "{text}: {found:?}");
    }
    // Outside the rules, a model is the engine's to hold.
    let engine = vec![(
        PathBuf::from("/planted/src/engine/eval.rs"),
        "static CELLS: &[u8] = include_bytes!(\"cells.bin\");".to_string(),
    )];
    assert_eq!(models_in_rules(&engine), Vec::<String>::new());

    // The rules may draw on the seeded generator, and on nothing else in the crate.
    let mut files = PLANTED_BASE.to_vec();
    files.push(("rng.rs", "pub struct Rng;"));
    files.push(("seconds.rs", "pub fn parse() {}"));
    let with = |text: &'static str| {
        let mut f = files.clone();
        f.retain(|(p, _)| *p != "rules/coord.rs");
        f.push(("rules/coord.rs", text));
        rules_imports_outside(&planted(&f))
    };
    assert_eq!(with("use crate::rng::Rng;"), Vec::<String>::new());
    assert_eq!(
        with("use crate::seconds::parse;"),
        vec!["/planted/src/rules/coord.rs imports /planted/src/seconds.rs".to_string()]
    );
    assert_eq!(
        with("mod tests { fn f() { crate::engine::eval::eval(); } }"),
        vec!["/planted/src/rules/coord.rs imports /planted/src/engine/eval.rs".to_string()]
    );
}

// ---------------------------------------------------------------------------------------
// The openings files: records, read by the match and the tuning.

#[test]
fn the_match_and_the_tuning_read_openings_from_record() {
    let c = real_crate();
    let openings = &c.files[&vec!["record".to_string(), "openings".to_string()]];
    for layer in ["arena", "tuning"] {
        assert!(
            c.imports
                .iter()
                .any(|(f, t)| layer_of(&c, f) == layer && t.contains(openings)),
            "{layer} reads the openings files from record/openings.rs"
        );
    }
    assert!(
        !c.files
            .keys()
            .any(|m| m.first().is_some_and(|l| l == "arena")
                && m.last().is_some_and(|n| n == "openings")),
        "the match keeps no openings module of its own"
    );
}

#[test]
fn a_planted_tuning_import_of_the_match_is_reported() {
    let mut files = PLANTED_BASE.to_vec();
    files.retain(|(p, _)| *p != "lib.rs");
    files.extend([
        ("lib.rs", "pub mod rules; pub mod engine; pub mod gui; pub mod record; pub mod arena; pub mod tuning;"),
        ("record/mod.rs", "pub mod openings;"),
        ("record/openings.rs", "pub struct Opening;"),
        ("arena/mod.rs", "pub mod openings { pub use crate::record::openings::Opening; }"),
        ("tuning/mod.rs", "use crate::record::openings::Opening;"),
    ]);
    assert_eq!(layer_violations(&planted(&files)), Vec::<String>::new());
    files.retain(|(p, _)| *p != "tuning/mod.rs");
    files.push(("tuning/mod.rs", "use crate::arena::openings::Opening;"));
    assert_eq!(
        layer_violations(&planted(&files)),
        vec!["/planted/src/tuning/mod.rs imports /planted/src/arena/mod.rs".to_string()]
    );
}

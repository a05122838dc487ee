//! The crate's architecture, checked from its source: each top folder of `src/` imports only
//! the layers below it (rules <- engine <- protocol, rules <- record <- arena, tools, tuning, gui),
//! and no file reaches, through its imports, back to itself. Unit tests count: a test in
//! `rules` that reached into `engine` would tie the layers as much as the code does.
//!
//! The source is read as tokens (comments and literals dropped) and every `use` tree is parsed
//! whole: nested groups, `self`, `super::super::..` counted from the module the line is in
//! (inline `mod tests { .. }` included), relative paths to child modules, and `crate::`,
//! `super::` and `self::` paths written in expressions.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each layer and the layers it may import (besides itself and the leaves `rng` and `pool`).
const LAYERS: &[(&str, &[&str])] = &[
    ("rules", &[]),
    ("engine", &["rules"]),
    ("protocol", &["rules", "engine"]),
    ("record", &["rules"]),
    ("arena", &["rules", "record"]),
    ("tools", &["rules", "engine", "protocol", "record"]),
    ("tuning", &["rules", "engine", "record", "arena", "tools"]),
    ("gui", &["rules", "record", "arena", "tools"]),
    ("rng", &[]),
    ("pool", &[]),
];

/// Utilities every layer may import: they import nothing from the crate.
const LEAVES: &[&str] = &["rng", "pool"];

/// Every `.rs` file under `dir`, with its text.
fn sources(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    for entry in std::fs::read_dir(dir).expect("src is readable").flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("source is UTF-8");
            out.push((path, text));
        }
    }
}

/// A file's module path: `src/engine/search/mod.rs` is `engine::search`.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file
        .strip_prefix(src)
        .expect("under src")
        .with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

// ---------------------------------------------------------------------------------------
// Tokens.

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    /// `::`
    Path,
    Punct(char),
}

/// The source's identifiers and punctuation, without comments, strings, characters and
/// numbers (a `crate::` in a doc comment or a string is no import).
fn tokens(text: &str) -> Vec<Tok> {
    let s: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let ident_char = |c: char| c.is_alphanumeric() || c == '_';
    while i < s.len() {
        let c = s[i];
        let next = s.get(i + 1).copied();
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && next == Some('/') {
            while i < s.len() && s[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < s.len() {
                if s[i] == '/' && s.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if s[i] == '*' && s.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == '"' {
            i += 1;
            while i < s.len() && s[i] != '"' {
                i += if s[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if c == '\'' {
            // A character literal, or a lifetime (which is skipped as a plain identifier).
            if next == Some('\\') {
                i += 2;
                while i < s.len() && s[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if s.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
            }
        } else if ident_char(c) {
            let start = i;
            while i < s.len() && ident_char(s[i]) {
                i += 1;
            }
            let word: String = s[start..i].iter().collect();
            // Raw and byte strings: `r"..."`, `r#"..."#`, `b"..."`, `br#"..."#`.
            let hashes = s[i..].iter().take_while(|&&h| h == '#').count();
            if matches!(word.as_str(), "r" | "br" | "b" | "rb")
                && s.get(i + hashes) == Some(&'"')
                && (hashes == 0 || word.contains('r'))
            {
                if word.contains('r') {
                    let close: String = std::iter::once('"')
                        .chain(std::iter::repeat_n('#', hashes))
                        .collect();
                    let rest: String = s[i + hashes + 1..].iter().collect();
                    let end = rest.find(&close).map_or(rest.len(), |e| e + close.len());
                    i += hashes + 1 + rest[..end].chars().count();
                } else {
                    i += 1;
                    while i < s.len() && s[i] != '"' {
                        i += if s[i] == '\\' { 2 } else { 1 };
                    }
                    i += 1;
                }
            } else if !word.starts_with(|d: char| d.is_ascii_digit()) {
                out.push(Tok::Ident(word));
            }
        } else if c == ':' && next == Some(':') {
            out.push(Tok::Path);
            i += 2;
        } else {
            out.push(Tok::Punct(c));
            i += 1;
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// `use` trees and paths.

/// Parses one use tree at `toks[*i..]` under `prefix`, pushing every full path it names
/// (`a::{b, c::{d, self}, e::*}` gives `a::b`, `a::c::d`, `a::c`, `a::e`).
fn use_tree(toks: &[Tok], i: &mut usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let mut path = prefix;
    loop {
        match toks.get(*i) {
            Some(Tok::Path) => *i += 1, // a leading `::`
            Some(Tok::Punct('{')) => {
                *i += 1;
                loop {
                    match toks.get(*i) {
                        Some(Tok::Punct('}')) => {
                            *i += 1;
                            return;
                        }
                        Some(Tok::Punct(',')) => *i += 1,
                        None => return,
                        Some(_) => use_tree(toks, i, path.clone(), out),
                    }
                }
            }
            Some(Tok::Punct('*')) => {
                *i += 1;
                out.push(path);
                return;
            }
            Some(Tok::Ident(name)) if name == "self" && !path.is_empty() => {
                *i += 1;
                out.push(path);
                return;
            }
            Some(Tok::Ident(name)) => {
                path.push(name.clone());
                *i += 1;
                if toks.get(*i) == Some(&Tok::Path) {
                    *i += 1;
                    continue;
                }
                if toks.get(*i) == Some(&Tok::Ident("as".into())) {
                    *i += 2; // the alias names nothing new
                }
                out.push(path);
                return;
            }
            _ => return,
        }
    }
}

/// What a file names.
#[derive(Default)]
struct Named {
    /// Each path with the module it is written in: every `use` tree's leaves, and each
    /// `crate::`, `super::` or `self::` path in the code.
    paths: Vec<(Vec<String>, Vec<String>)>,
    /// The file's inline modules (`mod tests { .. }`), as module paths.
    inline: BTreeSet<Vec<String>>,
}

fn named_paths(module: &[String], text: &str) -> Named {
    let toks = tokens(text);
    let mut found = Named::default();
    // Inline modules (`mod tests { .. }`) open at these brace depths.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut i = 0;
    let here = |inline: &[(String, usize)]| -> Vec<String> {
        module
            .iter()
            .cloned()
            .chain(inline.iter().map(|(m, _)| m.clone()))
            .collect()
    };
    while i < toks.len() {
        match &toks[i] {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => {
                depth -= 1;
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
            }
            Tok::Ident(w) if w == "mod" => {
                if let (Some(Tok::Ident(name)), Some(Tok::Punct('{'))) =
                    (toks.get(i + 1), toks.get(i + 2))
                {
                    inline.push((name.clone(), depth));
                    found.inline.insert(here(&inline));
                    depth += 1;
                    i += 3;
                    continue;
                }
            }
            // `use` ends a path's previous token; `impl Trait + use<'a>` is no import.
            Tok::Ident(w) if w == "use" && toks.get(i + 1) != Some(&Tok::Punct('<')) => {
                i += 1;
                let mut paths = Vec::new();
                use_tree(&toks, &mut i, Vec::new(), &mut paths);
                let at = here(&inline);
                found
                    .paths
                    .extend(paths.into_iter().map(|p| (at.clone(), p)));
                continue;
            }
            Tok::Ident(w)
                if matches!(w.as_str(), "crate" | "super" | "self")
                    && toks.get(i + 1) == Some(&Tok::Path)
                    && (i == 0 || toks[i - 1] != Tok::Path) =>
            {
                let mut path = vec![w.clone()];
                i += 1;
                while toks.get(i) == Some(&Tok::Path) {
                    match toks.get(i + 1) {
                        Some(Tok::Ident(seg)) => path.push(seg.clone()),
                        _ => break,
                    }
                    i += 2;
                }
                found.paths.push((here(&inline), path));
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    found
}

/// The absolute module path `path` names when written in module `at`, or `None` for a path
/// outside the crate (`std::..`, a dependency).
fn absolute(
    at: &[String],
    path: &[String],
    is_module: impl Fn(&[String]) -> bool,
) -> Option<Vec<String>> {
    let first = path.first()?;
    match first.as_str() {
        "crate" => Some(path[1..].to_vec()),
        "self" => Some(at.iter().chain(&path[1..]).cloned().collect()),
        "super" => {
            let ups = path.iter().take_while(|s| *s == "super").count();
            let base = at.get(..at.len().checked_sub(ups)?)?;
            Some(base.iter().chain(&path[ups..]).cloned().collect())
        }
        _ => {
            // A relative path starts with a child module of the module it is written in.
            let child: Vec<String> = at.iter().chain([first]).cloned().collect();
            is_module(&child).then(|| at.iter().chain(path).cloned().collect())
        }
    }
}

struct Crate {
    /// Module path -> file.
    files: BTreeMap<Vec<String>, PathBuf>,
    /// File -> the files it imports from.
    imports: BTreeMap<PathBuf, BTreeSet<PathBuf>>,
}

/// The crate made of `all` (files under `src`, with their text), `main.rs` left out.
fn read_crate(src: &Path, all: &[(PathBuf, String)]) -> Crate {
    let all: Vec<&(PathBuf, String)> = all
        .iter()
        .filter(|(p, _)| !p.ends_with("main.rs"))
        .collect();
    let files: BTreeMap<Vec<String>, PathBuf> = all
        .iter()
        .map(|(p, _)| (module_of(src, p), p.clone()))
        .collect();
    // The longest module prefix of a path that is a file.
    let resolve = |path: &[String]| {
        (0..=path.len())
            .rev()
            .find_map(|k| files.get(&path[..k]).cloned())
    };
    let mut imports = BTreeMap::new();
    for (file, text) in all {
        let module = module_of(src, file);
        let mut targets = BTreeSet::new();
        let named = named_paths(&module, text);
        for (at, path) in named.paths {
            // A child module is a file, or an inline module of this file.
            let is_module = |m: &[String]| files.contains_key(m) || named.inline.contains(m);
            if let Some(full) = absolute(&at, &path, is_module) {
                targets.extend(resolve(&full));
            }
        }
        targets.remove(file);
        imports.insert(file.clone(), targets);
    }
    Crate { files, imports }
}

fn real_crate() -> Crate {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    sources(&src, &mut all);
    read_crate(&src, &all)
}

fn layer_of(c: &Crate, file: &Path) -> String {
    let module = c
        .files
        .iter()
        .find(|(_, f)| f.as_path() == file)
        .map(|(m, _)| m.clone())
        .unwrap_or_default();
    module.first().cloned().unwrap_or_default()
}

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

//! The crate's architecture, checked from its source: each top folder of `src/` imports only
//! the layers below it (rules <- engine <- protocol, rules <- record <- arena, tools, tuning, gui),
//! and no file reaches, through its imports, back to itself. Unit tests count: a test in
//! `rules` that reached into `engine` would tie the layers as much as the code does.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each layer and the layers it may import (besides itself and the leaf `rng`).
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
];

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

/// Lowercase path segments following each occurrence of `prefix` (`crate::a::b::C` gives
/// `[a, b]`; `super::{X, y::Z}` gives `[]` and `[y]`).
fn paths_after(text: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find(prefix) {
        let before = rest[..i].chars().next_back();
        rest = &rest[i + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let items: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            group[..end].split(',').collect()
        } else {
            vec![rest]
        };
        for item in items {
            if item.trim_start().starts_with('*') {
                continue; // a unit test's `use super::*`: its own file
            }
            let segments = item
                .trim()
                .split("::")
                .map(|s| {
                    s.chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect::<String>()
                })
                .take_while(|s| s.starts_with(|c: char| c.is_ascii_lowercase()))
                .collect();
            found.push(segments);
        }
    }
    found
}

struct Crate {
    /// Module path -> file.
    files: BTreeMap<Vec<String>, PathBuf>,
    /// File -> the files it imports from.
    imports: BTreeMap<PathBuf, BTreeSet<PathBuf>>,
}

fn read_crate() -> Crate {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    sources(&src, &mut all);
    let files: BTreeMap<Vec<String>, PathBuf> = all
        .iter()
        .filter(|(p, _)| !p.ends_with("main.rs"))
        .map(|(p, _)| (module_of(&src, p), p.clone()))
        .collect();
    // The longest module prefix of a path that is a file.
    let resolve = |path: &[String]| {
        (0..=path.len())
            .rev()
            .find_map(|k| files.get(&path[..k]).cloned())
    };
    let mut imports = BTreeMap::new();
    for (file, text) in &all {
        if file.ends_with("main.rs") {
            continue;
        }
        let module = module_of(&src, file);
        let parent = &module[..module.len().saturating_sub(1)];
        let mut targets = BTreeSet::new();
        for path in paths_after(text, "crate::") {
            targets.extend(resolve(&path));
        }
        for path in paths_after(text, "super::") {
            let full: Vec<String> = parent.iter().cloned().chain(path).collect();
            targets.extend(resolve(&full));
        }
        targets.remove(file);
        imports.insert(file.clone(), targets);
    }
    Crate { files, imports }
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

#[test]
fn layers_import_only_downwards() {
    let c = read_crate();
    let mut wrong = Vec::new();
    for (file, targets) in &c.imports {
        let layer = layer_of(&c, file);
        if layer.is_empty() {
            continue; // lib.rs declares the layers
        }
        let allowed = LAYERS
            .iter()
            .find(|(l, _)| *l == layer)
            .unwrap_or_else(|| panic!("{}: layer {layer} is not in LAYERS", file.display()))
            .1;
        for target in targets {
            let to = layer_of(&c, target);
            if to != layer && to != "rng" && !allowed.contains(&to.as_str()) {
                wrong.push(format!("{} imports {}", file.display(), target.display()));
            }
        }
    }
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

/// A private child module is part of its parent (the search's helper threads run the
/// searcher that holds them): the pair is one node of the graph.
const PARTS_OF_PARENT: &[&str] = &["engine/search/smp.rs"];

#[test]
fn no_file_imports_itself_back() {
    let c = read_crate();
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
    for f in graph.keys() {
        if let Some(cycle) = visit(f, &graph, &mut done, &mut Vec::new()) {
            let names: Vec<String> = cycle.iter().map(|p| p.display().to_string()).collect();
            panic!("import circle: {}", names.join(" -> "));
        }
    }
}

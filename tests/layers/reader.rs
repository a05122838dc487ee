//! Reading the crate's imports from its source. The source is read as tokens (comments and
//! literals dropped) and every `use` tree is parsed whole: nested groups, `self`,
//! `super::super::..` counted from the module the line is in (inline `mod tests { .. }`
//! included), relative paths to child modules, and `crate::`, `super::` and `self::` paths
//! written in expressions.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, with its text.
pub fn sources(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
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
pub fn module_of(src: &Path, file: &Path) -> Vec<String> {
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
pub enum Tok {
    Ident(String),
    /// `::`
    Path,
    Punct(char),
}

/// The source's identifiers and punctuation, without comments, strings, characters and
/// numbers (a `crate::` in a doc comment or a string is no import).
pub fn tokens(text: &str) -> Vec<Tok> {
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
pub fn use_tree(toks: &[Tok], i: &mut usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
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
pub struct Named {
    /// Each path with the module it is written in: every `use` tree's leaves, and each
    /// `crate::`, `super::` or `self::` path in the code.
    paths: Vec<(Vec<String>, Vec<String>)>,
    /// The file's inline modules (`mod tests { .. }`), as module paths.
    inline: BTreeSet<Vec<String>>,
}

pub fn named_paths(module: &[String], text: &str) -> Named {
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
pub fn absolute(
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

pub struct Crate {
    /// Module path -> file.
    pub files: BTreeMap<Vec<String>, PathBuf>,
    /// File -> the files it imports from.
    pub imports: BTreeMap<PathBuf, BTreeSet<PathBuf>>,
}

/// The crate made of `all` (files under `src`, with their text), `main.rs` left out.
pub fn read_crate(src: &Path, all: &[(PathBuf, String)]) -> Crate {
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

pub fn real_crate() -> Crate {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    sources(&src, &mut all);
    read_crate(&src, &all)
}

pub fn layer_of(c: &Crate, file: &Path) -> String {
    let module = c
        .files
        .iter()
        .find(|(_, f)| f.as_path() == file)
        .map(|(m, _)| m.clone())
        .unwrap_or_default();
    module.first().cloned().unwrap_or_default()
}

//! What `analyse` reads before it analyses: the records of the games (files or folders),
//! checked for the side asked about, each refusal with its exit code.

use crate::record::files::record_files;
use crate::record::game::Game;
use std::path::PathBuf;

/// Why `analyse` stopped before analysing: each line printed, and the exit code.
#[derive(Debug, PartialEq, Eq)]
pub struct Refusal {
    pub lines: Vec<String>,
    pub code: u8,
}

impl Refusal {
    pub fn input(line: String) -> Refusal {
        Refusal {
            lines: vec![line],
            code: 2,
        }
    }
}

/// Every record the paths name, read and parsed before anything is analysed: a path that is
/// missing or a file that is unreadable (exit 1) or no record (exit 2) stops the run, so a
/// typing mistake never reads as "lost 0 of 0 games".
pub fn load_games(paths: &[PathBuf]) -> Result<Vec<(PathBuf, Game)>, Refusal> {
    let mut lines = Vec::new();
    let mut code = 0;
    for path in paths.iter().filter(|p| !p.exists()) {
        lines.push(format!("{}: no such file or folder", path.display()));
        code = 1;
    }
    if code != 0 {
        return Err(Refusal { lines, code });
    }
    let files = record_files(paths).map_err(|e| Refusal {
        lines: vec![e],
        code: 1,
    })?;
    let mut games = Vec::new();
    for file in files {
        match Game::open(&file) {
            Ok(g) => games.push((file, g)),
            Err(e) => {
                lines.push(e.to_string());
                code = code.max(e.exit_code());
            }
        }
    }
    if code != 0 {
        return Err(Refusal { lines, code });
    }
    if games.is_empty() {
        return Err(Refusal::input("no record files found".into()));
    }
    Ok(games)
}

/// `side` must have played at least one of the games: a misspelt name is an error, not a
/// report of nothing lost.
pub fn check_side(games: &[(PathBuf, Game)], side: &str) -> Result<(), Refusal> {
    if games
        .iter()
        .any(|(_, g)| g.black == side || g.white == side)
    {
        return Ok(());
    }
    let mut names: Vec<&str> = games
        .iter()
        .flat_map(|(_, g)| [g.black.as_str(), g.white.as_str()])
        .collect();
    names.sort_unstable();
    names.dedup();
    Err(Refusal::input(format!(
        "--side {side} played none of the {} games (their players: {})",
        games.len(),
        names.join(", ")
    )))
}

//! The files a list of paths names: a file is itself, a folder stands for its files with the
//! wanted extensions, in name order. Every command that reads records takes paths this way.

use std::path::{Path, PathBuf};

/// The files `path` stands for: itself when it is not a folder, else the folder's files whose
/// extension is one of `extensions`, in name order (subfolders are not entered).
pub fn files_in(path: &Path, extensions: &[&str]) -> std::io::Result<Vec<PathBuf>> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let entries = std::fs::read_dir(path)?;
    let mut found: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.is_file()
                && p.extension()
                    .and_then(|x| x.to_str())
                    .is_some_and(|x| extensions.contains(&x))
        })
        .collect();
    found.sort();
    Ok(found)
}

/// The record files `paths` name: files as given, folders' `*.txt` files in name order.
pub fn record_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        files.extend(files_in(path, &["txt"]).map_err(|e| format!("{}: {e}", path.display()))?);
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_gives_its_wanted_files_in_name_order_and_a_file_itself() {
        let dir = std::env::temp_dir().join(format!("connect6-files-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub.txt")).unwrap();
        for name in ["b.txt", "a.txt", "c.json", "d.svg"] {
            std::fs::write(dir.join(name), "").unwrap();
        }
        let names = |v: Vec<PathBuf>| -> Vec<String> {
            v.iter()
                .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
                .collect()
        };
        assert_eq!(names(files_in(&dir, &["txt"]).unwrap()), ["a.txt", "b.txt"]);
        assert_eq!(
            names(files_in(&dir, &["txt", "json"]).unwrap()),
            ["a.txt", "b.txt", "c.json"]
        );
        let one = dir.join("d.svg");
        assert_eq!(files_in(&one, &["txt"]).unwrap(), vec![one.clone()]);
        assert_eq!(
            names(record_files(&[one, dir.clone()]).unwrap()),
            ["d.svg", "a.txt", "b.txt"]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

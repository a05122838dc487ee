//! The files a list of paths names: a file is itself, a folder stands for its files with the
//! wanted extensions, in name order. Every command that reads records takes paths this way.
//! Also the guarded read of a file named by someone else (the browser board's pages), and
//! the short excerpt an error may quote of a file's text.

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The most a record file may hold where the read is capped: a whole game is a few KiB.
pub const RECORD_CAP: u64 = 1 << 20;
/// The most an openings file may hold: hundreds of thousands of openings.
pub const OPENINGS_CAP: u64 = 16 << 20;
/// The most characters of a file's text an error quotes.
pub const EXCERPT_CHARS: usize = 40;

/// Why a capped read refused a file.
#[derive(Debug)]
pub enum ReadError {
    /// A FIFO, a device, a socket or a folder: reading it could block or never end.
    NotRegular(PathBuf),
    /// More than the cap, in bytes.
    TooLarge(PathBuf, u64),
    Io(PathBuf, std::io::Error),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::NotRegular(p) => write!(f, "{}: not a regular file", p.display()),
            ReadError::TooLarge(p, cap) => {
                write!(f, "{}: larger than {} MiB", p.display(), cap >> 20)
            }
            ReadError::Io(p, e) => write!(f, "{}: {e}", p.display()),
        }
    }
}

impl std::error::Error for ReadError {}

/// The text of `path`, refused unless it is a regular file of at most `cap` bytes. The type
/// is checked before the file is opened (opening a FIFO blocks until a writer comes) and
/// again on the open file, and no more than `cap` bytes are ever read.
pub fn read_capped(path: &Path, cap: u64) -> Result<String, ReadError> {
    let io = |e| ReadError::Io(path.to_path_buf(), e);
    let regular = |m: &std::fs::Metadata| m.file_type().is_file();
    if !regular(&std::fs::metadata(path).map_err(io)?) {
        return Err(ReadError::NotRegular(path.to_path_buf()));
    }
    let file = std::fs::File::open(path).map_err(io)?;
    if !regular(&file.metadata().map_err(io)?) {
        return Err(ReadError::NotRegular(path.to_path_buf()));
    }
    let mut bytes = Vec::new();
    file.take(cap + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > cap {
        return Err(ReadError::TooLarge(path.to_path_buf(), cap));
    }
    String::from_utf8(bytes).map_err(|_| {
        let e = std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text");
        ReadError::Io(path.to_path_buf(), e)
    })
}

/// What an error may quote of a file's text: at most [`EXCERPT_CHARS`] characters, control
/// and quote characters escaped, `...` when cut. A file's content goes wherever its error
/// goes (the browser board's state, which every page it serves reads).
pub fn excerpt(text: &str) -> String {
    let mut out: String = text
        .chars()
        .take(EXCERPT_CHARS)
        .flat_map(char::escape_debug)
        .collect();
    if text.chars().nth(EXCERPT_CHARS).is_some() {
        out.push_str("...");
    }
    out
}

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
    fn an_excerpt_is_short_and_escaped() {
        assert_eq!(excerpt("C7"), "C7");
        assert_eq!(excerpt("a\u{0}b\n'"), "a\\0b\\n\\'");
        let long = "x".repeat(100);
        assert_eq!(excerpt(&long), format!("{}...", "x".repeat(EXCERPT_CHARS)));
    }

    #[test]
    fn a_capped_read_takes_a_small_regular_file_only() {
        let dir = std::env::temp_dir().join(format!("connect6-capped-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let small = dir.join("small.txt");
        std::fs::write(&small, "abc").unwrap();
        assert_eq!(read_capped(&small, 3).unwrap(), "abc");
        assert!(matches!(
            read_capped(&small, 2),
            Err(ReadError::TooLarge(_, 2))
        ));
        assert!(matches!(
            read_capped(&dir, 10),
            Err(ReadError::NotRegular(_))
        ));
        assert!(matches!(
            read_capped(&dir.join("none"), 10),
            Err(ReadError::Io(..))
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

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

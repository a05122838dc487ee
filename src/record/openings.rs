//! Opening files: one opening a line, `JJ KJKK IIHH` = black's single first stone, then the
//! stone pairs of the following turns (white, black, ...). `#` starts a comment; blank lines
//! are skipped. Every opening is checked against the rules when the file is loaded: no stone
//! twice, the right stone count per turn, and no six (the game must still be open).

use super::files::{OPENINGS_CAP, ReadError, excerpt, read_capped};
use crate::rules::board::Board;
use crate::rules::coord::{CoordError, Turn, parse_cells};
use std::fmt;
use std::path::{Path, PathBuf};

/// One opening: the turns already played when the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// 1-based line number in the openings file.
    pub line: usize,
    pub turns: Vec<Turn>,
}

impl Opening {
    /// The opening as its file writes it: turns separated by spaces (`JJ KIKK`).
    pub fn text(&self) -> String {
        let turns: Vec<String> = self.turns.iter().map(ToString::to_string).collect();
        turns.join(" ")
    }
}

/// What is wrong with an openings file.
#[derive(Debug)]
pub enum OpeningError {
    /// Not a regular file, larger than [`OPENINGS_CAP`], or unreadable.
    Read(ReadError),
    /// The file holds no opening at all.
    Empty { path: PathBuf },
    /// A token that is not a list of cells.
    Coord {
        line: usize,
        token: String,
        error: CoordError,
    },
    /// A turn with the wrong number of stones (the first has 1, all others 2).
    StoneCount {
        line: usize,
        token: String,
        expected: usize,
    },
    /// A cell given twice.
    Repeated { line: usize, token: String },
    /// The opening already contains a six.
    Six { line: usize },
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningError::Read(error) => write!(f, "cannot read openings file {error}"),
            OpeningError::Empty { path } => {
                write!(f, "openings file {} holds no opening", path.display())
            }
            OpeningError::Coord { line, token, error } => {
                let token = excerpt(token);
                // The coordinate error may quote the whole token again: say it without.
                let why = match error {
                    CoordError::Length(_) => "not two letters per stone".to_string(),
                    error => error.to_string(),
                };
                write!(f, "openings line {line}: bad stones '{token}': {why}")
            }
            OpeningError::StoneCount {
                line,
                token,
                expected,
            } => write!(
                f,
                "openings line {line}: '{}' should be {expected} stone(s) \
                 (black's first turn is one stone, every later turn two)",
                excerpt(token)
            ),
            OpeningError::Repeated { line, token } => {
                let token = excerpt(token);
                write!(
                    f,
                    "openings line {line}: '{token}' repeats an occupied cell"
                )
            }
            OpeningError::Six { line } => {
                write!(
                    f,
                    "openings line {line}: the opening already contains a six"
                )
            }
        }
    }
}

impl std::error::Error for OpeningError {}

/// Parses one opening line (comments already stripped); `None` for a blank line.
pub fn parse_line(text: &str, line: usize) -> Result<Option<Opening>, OpeningError> {
    let mut board = Board::new();
    let mut turns = Vec::new();
    for token in text.split_whitespace() {
        let cells = parse_cells(token).map_err(|error| match error {
            CoordError::Repeated(_) => OpeningError::Repeated {
                line,
                token: token.to_string(),
            },
            error => OpeningError::Coord {
                line,
                token: token.to_string(),
                error,
            },
        })?;
        let expected = board.stones_this_turn();
        let turn = match cells.as_slice() {
            [a] if expected == 1 => Turn::one(*a),
            [a, b] if expected == 2 => Turn::two(*a, *b),
            _ => {
                return Err(OpeningError::StoneCount {
                    line,
                    token: token.to_string(),
                    expected,
                });
            }
        };
        if turn.cells().any(|c| !board.is_empty(c)) {
            return Err(OpeningError::Repeated {
                line,
                token: token.to_string(),
            });
        }
        if board.winner().is_some() {
            return Err(OpeningError::Six { line });
        }
        board.play_turn(&turn).map_err(|_| OpeningError::Repeated {
            line,
            token: token.to_string(),
        })?;
        turns.push(turn);
    }
    if board.winner().is_some() {
        return Err(OpeningError::Six { line });
    }
    Ok((!turns.is_empty()).then_some(Opening { line, turns }))
}

/// Parses the text of an openings file.
pub fn parse(text: &str) -> Result<Vec<Opening>, OpeningError> {
    let mut openings = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let content = raw.split('#').next().unwrap_or("");
        if let Some(opening) = parse_line(content, i + 1)? {
            openings.push(opening);
        }
    }
    Ok(openings)
}

/// Reads and checks an openings file; an empty one is an error, and so is anything but a
/// regular file of at most [`OPENINGS_CAP`] bytes (a FIFO or a device would block the match,
/// or the browser board's Watch, for good).
pub fn load(path: &Path) -> Result<Vec<Opening>, OpeningError> {
    let text = read_capped(path, OPENINGS_CAP).map_err(OpeningError::Read)?;
    let openings = parse(&text)?;
    if openings.is_empty() {
        return Err(OpeningError::Empty {
            path: path.to_path_buf(),
        });
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_file() {
        let text = "# comment\n\nJJ KJKK IIHH  # trailing\nJJ\n";
        let o = parse(text).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].line, 3);
        assert_eq!(o[0].turns.len(), 3);
        assert_eq!(o[0].turns[1].to_protocol(true), "KJKK");
        assert_eq!(o[1].turns.len(), 1);
    }

    #[test]
    fn bad_openings() {
        assert!(matches!(
            parse("JJ KK"),
            Err(OpeningError::StoneCount { line: 1, .. })
        ));
        assert!(matches!(
            parse("JJKK"),
            Err(OpeningError::StoneCount { .. })
        ));
        assert!(matches!(
            parse("\nJJ JJKK"),
            Err(OpeningError::Repeated { line: 2, .. })
        ));
        assert!(matches!(
            parse("JJ KKKK"),
            Err(OpeningError::Repeated { .. })
        ));
        assert!(matches!(parse("JJ KZKK"), Err(OpeningError::Coord { .. })));
        // Black AA..FA in a row: a six.
        let six = "AA JJKK BACA LLMM DAEA NNOO FASS";
        assert!(matches!(parse(six), Err(OpeningError::Six { line: 1 })));
    }
}

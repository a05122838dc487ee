//! Cells of the 19x19 board and their protocol spelling (`JJ` = column J, row J from the top).

use std::fmt;

pub const SIZE: usize = 19;
pub const CELLS: usize = SIZE * SIZE;

/// The symmetries of the square board: four rotations, each mirrored or not (`Cell::image`).
pub const SYMMETRIES: usize = 8;

/// A cell index, `row * SIZE + col`; always on the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Cell(u16);

impl Cell {
    pub const CENTER: Cell = Cell((9 * SIZE + 9) as u16);

    pub fn new(col: usize, row: usize) -> Option<Cell> {
        (col < SIZE && row < SIZE).then(|| Cell((row * SIZE + col) as u16))
    }

    /// Panics (in debug) on an index off the board; callers derive indices from board geometry.
    pub fn from_index(index: usize) -> Cell {
        debug_assert!(index < CELLS);
        Cell(index as u16)
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }
    pub fn col(self) -> usize {
        self.index() % SIZE
    }
    pub fn row(self) -> usize {
        self.index() / SIZE
    }

    /// The cell `steps` along direction `(dc, dr)`, if it is on the board.
    pub fn offset(self, dc: i32, dr: i32, steps: i32) -> Option<Cell> {
        let c = self.col() as i32 + dc * steps;
        let r = self.row() as i32 + dr * steps;
        if (0..SIZE as i32).contains(&c) && (0..SIZE as i32).contains(&r) {
            Cell::new(c as usize, r as usize)
        } else {
            None
        }
    }

    /// Chebyshev distance.
    pub fn distance(self, other: Cell) -> usize {
        self.col()
            .abs_diff(other.col())
            .max(self.row().abs_diff(other.row()))
    }

    /// The cell's image under symmetry `s` (`0..SYMMETRIES`) of the board about its
    /// centre `JJ`: `s & 4` swaps column and row, then `s & 1` mirrors the columns and
    /// `s & 2` the rows.
    pub fn image(self, s: usize) -> Cell {
        let centre = (SIZE / 2) as i32;
        let (dc, dr) = (self.col() as i32 - centre, self.row() as i32 - centre);
        let (c, r) = if s & 4 != 0 { (dr, dc) } else { (dc, dr) };
        let c = if s & 1 != 0 { -c } else { c };
        let r = if s & 2 != 0 { -r } else { r };
        Cell::new((centre + c) as usize, (centre + r) as usize).expect("a symmetry keeps the board")
    }

    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELLS).map(Cell::from_index)
    }

    /// The protocol letters of this cell, e.g. `JJ`.
    pub fn letters(self) -> [char; 2] {
        [
            (b'A' + self.col() as u8) as char,
            (b'A' + self.row() as u8) as char,
        ]
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [c, r] = self.letters();
        write!(f, "{c}{r}")
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CoordError {
    /// Not two letters per stone (odd length, or nothing at all).
    Length(String),
    /// A character that is not a letter `A`..`S` (either case).
    Letter(char),
    /// `@@` somewhere other than as the second stone of a single-stone move.
    Placeholder,
    /// More stones than a turn allows.
    TooMany(usize),
    /// The same cell twice in one turn.
    Repeated(Cell),
}

impl fmt::Display for CoordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoordError::Length(s) => {
                write!(f, "'{}' is not two letters per stone", s.escape_default())
            }
            CoordError::Letter(c) => write!(
                f,
                "'{}' is not a coordinate letter A..S",
                c.escape_default()
            ),
            CoordError::Placeholder => write!(f, "'@@' may only stand for a missing second stone"),
            CoordError::TooMany(n) => write!(f, "{n} stones given, a turn has at most 2"),
            CoordError::Repeated(c) => write!(f, "cell {c} given twice"),
        }
    }
}

impl std::error::Error for CoordError {}

fn letter(ch: char) -> Result<usize, CoordError> {
    let up = ch.to_ascii_uppercase();
    if ('A'..='S').contains(&up) {
        Ok(up as usize - 'A' as usize)
    } else {
        Err(CoordError::Letter(ch))
    }
}

/// Parses one stone, `JJ` (either case).
pub fn parse_cell(text: &str) -> Result<Cell, CoordError> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != 2 {
        return Err(CoordError::Length(text.to_string()));
    }
    let col = letter(chars[0])?;
    let row = letter(chars[1])?;
    Ok(Cell::new(col, row).expect("letters A..S are on the board"))
}

/// Parses any number of stones written together (`JJKKLL`), as the `black`/`white` commands take.
pub fn parse_cells(text: &str) -> Result<Vec<Cell>, CoordError> {
    if text.is_empty() || !text.chars().count().is_multiple_of(2) {
        return Err(CoordError::Length(text.to_string()));
    }
    let chars: Vec<char> = text.chars().collect();
    let mut cells: Vec<Cell> = Vec::with_capacity(chars.len() / 2);
    for pair in chars.chunks(2) {
        if pair.contains(&'@') {
            return Err(CoordError::Placeholder);
        }
        let cell = Cell::new(letter(pair[0])?, letter(pair[1])?).expect("A..S");
        if cells.contains(&cell) {
            return Err(CoordError::Repeated(cell));
        }
        cells.push(cell);
    }
    Ok(cells)
}

/// The stones of one turn: one or two distinct cells.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Turn {
    pub first: Cell,
    pub second: Option<Cell>,
}

impl Turn {
    pub fn one(c: Cell) -> Turn {
        Turn {
            first: c,
            second: None,
        }
    }
    pub fn two(a: Cell, b: Cell) -> Turn {
        Turn {
            first: a,
            second: Some(b),
        }
    }
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        std::iter::once(self.first).chain(self.second)
    }
    pub fn len(&self) -> usize {
        1 + self.second.is_some() as usize
    }
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Parses `XYXY`, `XY@@` or `XY`.
    pub fn parse(text: &str) -> Result<Turn, CoordError> {
        let count = text.chars().count();
        if count == 4 && text.ends_with("@@") {
            let head: String = text.chars().take(2).collect();
            return Ok(Turn::one(parse_cell(&head)?));
        }
        if count > 4 && count.is_multiple_of(2) {
            return Err(CoordError::TooMany(count / 2));
        }
        let cells = parse_cells(text)?;
        match cells.as_slice() {
            [a] => Ok(Turn::one(*a)),
            [a, b] => Ok(Turn::two(*a, *b)),
            _ => Err(CoordError::Length(text.to_string())),
        }
    }

    /// Protocol spelling; a single stone is written `XY@@` when `long_single` is set, else `XY`.
    pub fn to_protocol(&self, long_single: bool) -> String {
        match self.second {
            Some(b) => format!("{}{}", self.first, b),
            None if long_single => format!("{}@@", self.first),
            None => self.first.to_string(),
        }
    }
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_protocol(false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centre_is_jj() {
        assert_eq!(Cell::CENTER.to_string(), "JJ");
        assert_eq!(parse_cell("jj").unwrap(), Cell::CENTER);
        assert_eq!(parse_cell("AS").unwrap(), Cell::new(0, 18).unwrap());
    }

    #[test]
    fn turns_in_every_spelling() {
        let jj = Cell::CENTER;
        assert_eq!(Turn::parse("JJ@@").unwrap(), Turn::one(jj));
        assert_eq!(Turn::parse("JJ").unwrap(), Turn::one(jj));
        let t = Turn::parse("jjkk").unwrap();
        assert_eq!(t.to_protocol(true), "JJKK");
        assert_eq!(Turn::one(jj).to_protocol(true), "JJ@@");
        assert_eq!(Turn::one(jj).to_protocol(false), "JJ");
    }

    #[test]
    fn bad_turns_are_typed_errors() {
        assert_eq!(Turn::parse("JT"), Err(CoordError::Letter('T')));
        assert_eq!(Turn::parse("JJJ"), Err(CoordError::Length("JJJ".into())));
        assert_eq!(Turn::parse("JJJJ"), Err(CoordError::Repeated(Cell::CENTER)));
        assert_eq!(Turn::parse("JJKKLL"), Err(CoordError::TooMany(3)));
        assert_eq!(Turn::parse("@@JJ"), Err(CoordError::Placeholder));
        assert_eq!(Turn::parse(""), Err(CoordError::Length(String::new())));
        assert!(Turn::parse("é1").is_err());
        assert!(Turn::parse("éé@@").is_err());
    }
}

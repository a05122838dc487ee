//! The opening book: for the first turns of a game from the empty board, the turn a long
//! fixed-node search chose (`connect6 tune book` builds it, `book.bin` is embedded). A
//! position is looked up by a canonical form under the board's eight symmetries about `JJ`,
//! and the stored turn is mapped back to the position as it stands.
//!
//! The book is a value the engine owns (`--no-book` leaves it out); a stored turn is played
//! only if it is legal on the board it is asked for, so a damaged or foreign book can cost
//! a search but never an illegal move.

use crate::rules::board::{Board, Color};
use crate::rules::coord::{CELLS, Cell, SYMMETRIES, Turn};
use fxhash::FxHashMap;
use std::fmt;

/// The first bytes of a book file, with its format's version.
pub const MAGIC: &[u8; 8] = b"C6BOOK03";

/// Stones of one colour a book position may hold (a bound on a damaged file's counts).
const MAX_STONES: usize = 32;

/// How the book was built: whoever rebuilds it with these settings gets the same bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Black's second turn is in the book after `JJ` and every white pair with both stones
    /// within this Chebyshev distance of `JJ`.
    pub radius: u8,
    /// White's reply is in the book for black's first stone within this distance of `JJ`.
    pub first_radius: u8,
    /// White's second turn is in the book after each of those replies and this many black
    /// second turns there, the ones a short search scores best for black (`tune book`).
    pub second_turns: u8,
    /// White's third turn is in the book after each of its second turns and this many black
    /// third turns there, chosen in the same way.
    pub third_turns: u8,
    /// Main-search nodes for each black second turn and each white second and third turn.
    pub nodes: u64,
    /// Main-search nodes for black's first stone and white's replies.
    pub reply_nodes: u64,
    /// The transposition table of each search, in MB (its size changes what a node limit
    /// finds).
    pub hash_mb: u32,
}

/// One position and the turn chosen there, in the canonical frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The stones, black's then white's, each sorted by cell index: the least, under the
    /// eight symmetries, of the position's forms (see [`canonical`]).
    pub black: Vec<Cell>,
    pub white: Vec<Cell>,
    pub turn: Turn,
    /// The search's score for the side to move, and the depth it completed.
    pub score: i32,
    pub depth: u8,
}

/// A position's stones as the book stores them: black's, then white's, each sorted.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    pub black: Vec<Cell>,
    pub white: Vec<Cell>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BookError {
    /// The file does not start with [`MAGIC`].
    Magic,
    /// The file ends inside the header or an entry.
    Truncated { offset: usize },
    /// Bytes after the last entry the header counts.
    Trailing { offset: usize },
    /// A cell index off the board.
    Cell { offset: usize, index: u16 },
    /// More stones than a book position holds, a turn of other than one or two stones, or a
    /// cell given twice.
    Shape { offset: usize },
    /// The same position twice.
    Repeated { offset: usize },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            BookError::Magic => write!(
                f,
                "not an opening book (no {} header)",
                String::from_utf8_lossy(MAGIC)
            ),
            BookError::Truncated { offset } => write!(f, "book truncated at byte {offset}"),
            BookError::Trailing { offset } => {
                write!(f, "bytes after the last entry at byte {offset}")
            }
            BookError::Cell { offset, index } => {
                write!(f, "cell index {index} off the board at byte {offset}")
            }
            BookError::Shape { offset } => write!(f, "malformed entry at byte {offset}"),
            BookError::Repeated { offset } => {
                write!(f, "a position given twice, at byte {offset}")
            }
        }
    }
}

impl std::error::Error for BookError {}

/// The symmetry that undoes `s`.
pub fn inverse(s: usize) -> usize {
    // A cell off every axis and diagonal tells the eight symmetries apart.
    let probe = Cell::new(10, 11).expect("on the board");
    (0..SYMMETRIES)
        .find(|&t| probe.image(s).image(t) == probe)
        .expect("the symmetries form a group")
}

fn sorted_image(cells: &[Cell], s: usize) -> Vec<Cell> {
    let mut image: Vec<Cell> = cells.iter().map(|&c| c.image(s)).collect();
    image.sort_unstable();
    image
}

/// The least of the eight images of a position's stones, and the first symmetry giving it.
pub fn canonical(black: &[Cell], white: &[Cell]) -> (Key, usize) {
    (0..SYMMETRIES)
        .map(|s| {
            let key = Key {
                black: sorted_image(black, s),
                white: sorted_image(white, s),
            };
            (key, s)
        })
        .min()
        .expect("eight symmetries")
}

/// A turn's image under symmetry `s`, its stones in cell order.
pub fn transform_turn(turn: &Turn, s: usize) -> Turn {
    let a = turn.first.image(s);
    match turn.second.map(|b| b.image(s)) {
        None => Turn::one(a),
        Some(b) => Turn::two(a.min(b), a.max(b)),
    }
}

/// The stones of each colour on `board`, each sorted.
pub fn stones(board: &Board) -> (Vec<Cell>, Vec<Cell>) {
    let of = |color| {
        Cell::all()
            .filter(|&c| board.get(c) == Some(color))
            .collect()
    };
    (of(Color::Black), of(Color::White))
}

/// The book: its settings and entries in file order, and an index by position.
#[derive(Clone, Debug)]
pub struct Book {
    pub settings: Settings,
    entries: Vec<Entry>,
    /// Where each entry's bytes are in the file it was read from.
    spans: Vec<std::ops::Range<usize>>,
    index: FxHashMap<Key, usize>,
    /// No position with more stones than this is in the book.
    most_stones: usize,
}

/// What the book says about a position: the turn, mapped onto the board as it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    pub turn: Turn,
    pub score: i32,
    pub depth: u8,
}

impl Book {
    /// The book embedded in the binary (`src/engine/book.bin`).
    pub fn embedded() -> Book {
        Book::decode(EMBEDDED).expect("the embedded book is checked by a test")
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The bytes of entry `i` in the file the book was read from.
    pub fn span(&self, i: usize) -> std::ops::Range<usize> {
        self.spans[i].clone()
    }

    /// The book's turn for the side to move on `board`, if the position is in the book and
    /// the turn is legal there.
    pub fn lookup(&self, board: &Board) -> Option<Found> {
        if board.stone_total() > self.most_stones || board.is_over() {
            return None;
        }
        let (black, white) = stones(board);
        let (key, s) = canonical(&black, &white);
        let entry = &self.entries[*self.index.get(&key)?];
        let turn = transform_turn(&entry.turn, inverse(s));
        match board.check_turn(&turn) {
            Ok(()) => Some(Found {
                turn,
                score: entry.score,
                depth: entry.depth,
            }),
            Err(e) => {
                log::warn!("the book's {turn} is not legal here ({e}): searching instead");
                None
            }
        }
    }

    /// Reads a book file, checking every byte of it.
    pub fn decode(bytes: &[u8]) -> Result<Book, BookError> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(MAGIC.len())? != MAGIC {
            return Err(BookError::Magic);
        }
        let settings = Settings {
            radius: r.u8()?,
            first_radius: r.u8()?,
            second_turns: r.u8()?,
            third_turns: r.u8()?,
            nodes: r.u64()?,
            reply_nodes: r.u64()?,
            hash_mb: r.u32()?,
        };
        let count = r.u32()? as usize;
        let mut book = Book {
            settings,
            entries: Vec::new(),
            spans: Vec::new(),
            index: FxHashMap::default(),
            most_stones: 0,
        };
        for _ in 0..count {
            let start = r.at;
            let entry = r.entry()?;
            let key = Key {
                black: entry.black.clone(),
                white: entry.white.clone(),
            };
            if book.index.insert(key, book.entries.len()).is_some() {
                return Err(BookError::Repeated { offset: start });
            }
            book.most_stones = book.most_stones.max(entry.black.len() + entry.white.len());
            book.entries.push(entry);
            book.spans.push(start..r.at);
        }
        if r.at != bytes.len() {
            return Err(BookError::Trailing { offset: r.at });
        }
        Ok(book)
    }
}

const EMBEDDED: &[u8] = include_bytes!("book.bin");

/// Writes a book file: the header, then the entries in the order given.
pub fn encode(settings: &Settings, entries: &[Entry]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.push(settings.radius);
    out.push(settings.first_radius);
    out.push(settings.second_turns);
    out.push(settings.third_turns);
    out.extend_from_slice(&settings.nodes.to_le_bytes());
    out.extend_from_slice(&settings.reply_nodes.to_le_bytes());
    out.extend_from_slice(&settings.hash_mb.to_le_bytes());
    out.extend_from_slice(&(entries.len() as u32).to_le_bytes());
    for entry in entries {
        encode_entry(entry, &mut out);
    }
    out
}

/// One entry's bytes: the stone counts and cells (u16, little-endian), the turn's stone
/// count and cells, the score (i32) and the depth.
pub fn encode_entry(entry: &Entry, out: &mut Vec<u8>) {
    out.push(entry.black.len() as u8);
    out.push(entry.white.len() as u8);
    for c in entry.black.iter().chain(&entry.white) {
        out.extend_from_slice(&(c.index() as u16).to_le_bytes());
    }
    out.push(entry.turn.len() as u8);
    for c in entry.turn.cells() {
        out.extend_from_slice(&(c.index() as u16).to_le_bytes());
    }
    out.extend_from_slice(&entry.score.to_le_bytes());
    out.push(entry.depth);
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], BookError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or(BookError::Truncated { offset: self.at })?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], BookError> {
        let mut a = [0; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }

    fn u8(&mut self) -> Result<u8, BookError> {
        Ok(self.array::<1>()?[0])
    }

    fn u32(&mut self) -> Result<u32, BookError> {
        self.array().map(u32::from_le_bytes)
    }

    fn u64(&mut self) -> Result<u64, BookError> {
        self.array().map(u64::from_le_bytes)
    }

    fn cell(&mut self) -> Result<Cell, BookError> {
        let offset = self.at;
        let index = u16::from_le_bytes(self.array()?);
        if index as usize >= CELLS {
            return Err(BookError::Cell { offset, index });
        }
        Ok(Cell::from_index(index as usize))
    }

    fn cells(&mut self, n: usize) -> Result<Vec<Cell>, BookError> {
        (0..n).map(|_| self.cell()).collect()
    }

    fn entry(&mut self) -> Result<Entry, BookError> {
        let offset = self.at;
        let shape = BookError::Shape { offset };
        let (nb, nw) = (self.u8()? as usize, self.u8()? as usize);
        if nb > MAX_STONES || nw > MAX_STONES {
            return Err(shape);
        }
        let black = self.cells(nb)?;
        let white = self.cells(nw)?;
        let turn = match self.u8()? {
            1 => Turn::one(self.cell()?),
            2 => Turn::two(self.cell()?, self.cell()?),
            _ => return Err(shape),
        };
        let score = i32::from_le_bytes(self.array()?);
        let depth = self.u8()?;
        let mut all: Vec<Cell> = black.iter().chain(&white).copied().collect();
        all.extend(turn.cells());
        all.sort_unstable();
        let sorted = |v: &[Cell]| v.windows(2).all(|w| w[0] < w[1]);
        if all.windows(2).any(|w| w[0] == w[1]) || !sorted(&black) || !sorted(&white) {
            return Err(shape);
        }
        // A position not in its canonical form could never be found.
        let (key, _) = canonical(&black, &white);
        if key.black != black || key.white != white {
            return Err(shape);
        }
        Ok(Entry {
            black,
            white,
            turn,
            score,
            depth,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn cell(text: &str) -> Cell {
        crate::rules::coord::parse_cell(text).unwrap()
    }

    fn turn(text: &str) -> Turn {
        Turn::parse(text).unwrap()
    }

    /// `JJ`, white `KIKK`, and black's turn `IJHJ` stored in canonical form.
    fn small_book() -> (Book, Vec<u8>) {
        let (key, s) = canonical(&[Cell::CENTER], &[cell("KI"), cell("KK")]);
        let entry = Entry {
            black: key.black,
            white: key.white,
            turn: transform_turn(&turn("IJHJ"), s),
            score: -7,
            depth: 5,
        };
        let settings = Settings {
            radius: 1,
            first_radius: 0,
            second_turns: 0,
            third_turns: 0,
            nodes: 10,
            reply_nodes: 20,
            hash_mb: 1,
        };
        let bytes = encode(&settings, &[entry]);
        (Book::decode(&bytes).unwrap(), bytes)
    }

    #[test]
    fn the_symmetries_are_the_eight_of_the_square_about_jj() {
        let probe = cell("KL");
        let images: BTreeSet<Cell> = (0..8).map(|s| probe.image(s)).collect();
        assert_eq!(images.len(), 8);
        for s in 0..8 {
            assert_eq!(Cell::CENTER.image(s), Cell::CENTER);
            for c in Cell::all() {
                assert_eq!(c.image(s).image(inverse(s)), c);
                assert_eq!(c.image(s).distance(Cell::CENTER), c.distance(Cell::CENTER));
            }
        }
        // Corners go to corners: the board maps onto itself.
        assert_eq!(cell("AA").image(1), cell("SA"));
        assert_eq!(cell("AS").image(4), cell("SA"));
    }

    #[test]
    fn every_image_of_a_position_has_one_canonical_form() {
        let (black, white) = ([cell("JJ"), cell("LM")], [cell("KI"), cell("GG")]);
        let (first, _) = canonical(&black, &white);
        for s in 0..8 {
            let b: Vec<Cell> = black.iter().map(|&c| c.image(s)).collect();
            let w: Vec<Cell> = white.iter().map(|&c| c.image(s)).collect();
            let (key, t) = canonical(&b, &w);
            assert_eq!(key, first);
            // The symmetry returned carries this image onto the canonical form.
            assert_eq!(sorted_image(&b, t), key.black);
            assert_eq!(sorted_image(&w, t), key.white);
        }
        // Colours are not interchangeable.
        assert_ne!(canonical(&white, &black).0, first);
    }

    #[test]
    fn a_book_turn_is_found_in_every_image_of_its_position() {
        let (book, bytes) = small_book();
        assert_eq!(book.entries().len(), 1);
        assert_eq!(book.span(0).end, bytes.len());
        for s in 0..8 {
            let mut board = Board::new();
            board.place(Cell::CENTER.image(s), Color::Black);
            board.place(cell("KI").image(s), Color::White);
            board.place(cell("KK").image(s), Color::White);
            let found = book.lookup(&board).expect("in the book");
            assert_eq!(found.turn, transform_turn(&turn("IJHJ"), s), "symmetry {s}");
            assert_eq!((found.score, found.depth), (-7, 5));
            assert!(board.check_turn(&found.turn).is_ok());
        }
        // Another white pair, or one more turn played, is not in the book.
        assert!(
            book.lookup(&Board::from_turns("JJ KIKL").unwrap())
                .is_none()
        );
        let later = Board::from_turns("JJ KIKK IJHJ MMNN").unwrap();
        assert!(book.lookup(&later).is_none());
        assert!(book.lookup(&Board::new()).is_none());
    }

    #[test]
    fn a_stored_turn_that_is_not_legal_is_not_played() {
        // White's reply to `JJ`: two stones are due. (A stored turn on an occupied cell is
        // refused when the file is read; the stone count is what only the board can check.)
        let entry = Entry {
            black: vec![Cell::CENTER],
            white: vec![],
            turn: Turn::two(cell("KK"), cell("LL")),
            score: 0,
            depth: 1,
        };
        let settings = small_book().0.settings;
        let book = Book::decode(&encode(&settings, std::slice::from_ref(&entry))).unwrap();
        let board = Board::from_turns("JJ").unwrap();
        assert_eq!(book.lookup(&board).map(|f| f.turn), Some(entry.turn));
        let one = Entry {
            turn: Turn::one(cell("KK")),
            ..entry
        };
        let book = Book::decode(&encode(&settings, &[one])).unwrap();
        assert!(book.lookup(&board).is_none(), "one stone where two are due");
    }

    #[test]
    fn a_damaged_file_is_refused_with_its_reason() {
        let (_, bytes) = small_book();
        assert!(matches!(Book::decode(b"C6BOOK00"), Err(BookError::Magic)));
        // Books of the formats before white's second and third turns are other formats.
        for magic in [b"C6BOOK01", b"C6BOOK02"] {
            let mut older = bytes.clone();
            older[..MAGIC.len()].copy_from_slice(magic);
            assert!(matches!(Book::decode(&older), Err(BookError::Magic)));
        }
        for cut in [4, 12, bytes.len() - 1] {
            assert!(
                matches!(
                    Book::decode(&bytes[..cut]),
                    Err(BookError::Truncated { .. } | BookError::Magic)
                ),
                "cut at {cut}"
            );
        }
        let mut long = bytes.clone();
        long.push(0);
        assert_eq!(
            Book::decode(&long).unwrap_err(),
            BookError::Trailing {
                offset: bytes.len()
            }
        );
        // The magic, four one-byte settings, the two node counts, the table size, the count.
        let header = MAGIC.len() + 4 + 8 + 8 + 4 + 4;
        let mut off_board = bytes.clone();
        off_board[header + 2..header + 4].copy_from_slice(&361u16.to_le_bytes());
        assert!(matches!(
            Book::decode(&off_board),
            Err(BookError::Cell { index: 361, .. })
        ));
        let mut three = bytes.clone();
        three[header + 2 + 2 * 3] = 3;
        assert!(matches!(Book::decode(&three), Err(BookError::Shape { .. })));
        // Twice the same entry.
        let (book, _) = small_book();
        let twice = encode(
            &book.settings,
            &[book.entries[0].clone(), book.entries[0].clone()],
        );
        assert!(matches!(
            Book::decode(&twice),
            Err(BookError::Repeated { .. })
        ));
        // A position not in canonical form.
        let mut entry = book.entries[0].clone();
        entry.white = sorted_image(&entry.white, 3);
        assert_ne!(entry.white, book.entries[0].white);
        assert!(matches!(
            Book::decode(&encode(&book.settings, &[entry])),
            Err(BookError::Shape { .. })
        ));
    }

    #[test]
    fn the_embedded_book_reads_and_its_turns_are_legal() {
        let book = Book::embedded();
        assert!(!book.entries().is_empty());
        for entry in book.entries() {
            let mut board = Board::new();
            entry
                .black
                .iter()
                .for_each(|&c| board.place(c, Color::Black));
            entry
                .white
                .iter()
                .for_each(|&c| board.place(c, Color::White));
            assert_eq!(book.lookup(&board).map(|f| f.turn), Some(entry.turn));
        }
        // Black's first stone is in it.
        assert_eq!(book.lookup(&Board::new()).map(|f| f.turn.len()), Some(1));
    }
}

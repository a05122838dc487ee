//! A game as the tools read it: the turns of a competition record (parsed by
//! `referee::record`), or of a stone list in protocol spelling such as `JJ KJKK`.

use super::{Record, RecordResult};
use crate::rules::board::{Board, Color};
use crate::rules::coord::{Cell, Turn};
use crate::rules::stones::PlaceTurn;
use std::path::Path;

/// Why a game could not be loaded: the tools exit 1 for the first, 2 for the second.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// A file that cannot be read: missing, a folder, not permitted.
    Io(String),
    /// Text that is not a record or not a stone list.
    Input(String),
}

impl LoadError {
    /// The exit code the tools give for it.
    pub fn exit_code(&self) -> u8 {
        match self {
            LoadError::Io(_) => 1,
            LoadError::Input(_) => 2,
        }
    }
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Io(e) | LoadError::Input(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for LoadError {}

/// One turn of a game and the side that played it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    pub color: Color,
    pub turn: Turn,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    pub black: String,
    pub white: String,
    /// The result a record states; `None` for a stone list.
    pub result: Option<RecordResult>,
    /// Date, place and event of a record, as written (empty for a stone list).
    pub about: String,
    /// Turn 1 is black's first stone; every turn is legal in order.
    pub turns: Vec<Played>,
}

impl Game {
    /// The turns of a record. Its parser has checked the stones against the rules; a record
    /// may end with a turn of one stone (a game decided by time or fault).
    pub fn from_record(record: &Record) -> Game {
        let mut turns: Vec<Played> = Vec::new();
        for (index, m) in record.moves.iter().enumerate() {
            // Stone 0 is turn 1; stones 2k-1 and 2k make turn k+1.
            let turn_index = index.div_ceil(2);
            if let Some(last) = turns.get_mut(turn_index) {
                last.turn = Turn::two(last.turn.first, m.cell);
            } else {
                turns.push(Played {
                    color: m.color,
                    turn: Turn::one(m.cell),
                });
            }
        }
        let about = [
            record.datetime.as_str(),
            record.place.as_str(),
            record.event.as_str(),
        ]
        .iter()
        .filter(|s| !s.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
        Game {
            black: record.black.clone(),
            white: record.white.clone(),
            result: Some(record.result),
            about,
            turns,
        }
    }

    /// A stone list: protocol turns separated by spaces (`JJ KJKK IIHH`, `JJ@@` too), each
    /// checked against the rules.
    pub fn from_stone_list(text: &str) -> Result<Game, String> {
        let mut board = Board::new();
        let mut turns = Vec::new();
        for (i, word) in text.split_whitespace().enumerate() {
            let fail = |e: &dyn std::fmt::Display| format!("turn {} '{word}': {e}", i + 1);
            let turn = Turn::parse(word).map_err(|e| fail(&e))?;
            let color = board.side_to_move();
            board.play_turn(&turn).map_err(|e| fail(&e))?;
            turns.push(Played { color, turn });
        }
        if turns.is_empty() {
            return Err("an empty stone list".into());
        }
        Ok(Game {
            black: "Black".into(),
            white: "White".into(),
            result: None,
            about: String::new(),
            turns,
        })
    }

    /// A record file, if `words` is one word that names a file (it exists, or it has a dot
    /// or a slash, which no stone list has); otherwise a stone list.
    pub fn load(words: &[String]) -> Result<Game, LoadError> {
        if let [word] = words {
            let path = Path::new(word);
            if path.exists() || word.contains(['.', '/', '\\']) {
                return Game::open(path);
            }
        }
        let text = words.join(" ");
        Game::from_stone_list(&text).map_err(|e| {
            LoadError::Input(if words.len() == 1 {
                format!("'{text}' is neither a file nor a stone list ({e})")
            } else {
                e
            })
        })
    }

    /// A record file: an error says whether the file could not be read or is no record.
    pub fn open(path: &Path) -> Result<Game, LoadError> {
        let shown = path.display();
        let bytes = std::fs::read(path).map_err(|e| {
            LoadError::Io(match e.kind() {
                std::io::ErrorKind::NotFound => format!("{shown}: the file does not exist"),
                _ if path.is_dir() => format!("{shown}: a folder, not a record file"),
                _ => format!("{shown}: {e}"),
            })
        })?;
        let text = String::from_utf8(bytes)
            .map_err(|_| LoadError::Input(format!("{shown}: not UTF-8 text, so not a record")))?;
        let record = Record::parse(&text).map_err(|e| LoadError::Input(format!("{shown}: {e}")))?;
        Ok(Game::from_record(&record))
    }

    pub fn read_record(path: &Path) -> Result<Game, String> {
        Game::open(path).map_err(|e| e.to_string())
    }

    pub fn name(&self, color: Color) -> &str {
        match color {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }

    /// The position after the first `n` turns.
    pub fn board_after(&self, n: usize) -> Board {
        let mut board = Board::new();
        for p in &self.turns[..n.min(self.turns.len())] {
            board.place_turn(&p.turn, p.color);
        }
        board
    }

    /// For each cell, the number (from 1) of the turn among the first `n` that put a stone there.
    pub fn turn_numbers(&self, n: usize) -> Vec<Option<usize>> {
        let mut numbers = vec![None; crate::rules::coord::CELLS];
        for (i, p) in self.turns[..n.min(self.turns.len())].iter().enumerate() {
            for c in p.turn.cells() {
                numbers[c.index()] = Some(i + 1);
            }
        }
        numbers
    }
}

/// The result in words, e.g. `white wins`.
pub fn result_words(result: RecordResult) -> &'static str {
    match result {
        RecordResult::BlackWins => "black wins",
        RecordResult::WhiteWins => "white wins",
        RecordResult::Draw => "draw",
    }
}

/// The ends of a run of six or more stones of one colour, if the board has one.
pub fn six_line(board: &Board) -> Option<(Color, Cell, Cell)> {
    const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
    for c in Cell::all() {
        let Some(color) = board.get(c) else { continue };
        for (dc, dr) in DIRECTIONS {
            // Only count from the start of a run.
            if c.offset(dc, dr, -1).and_then(|p| board.get(p)) == Some(color) {
                continue;
            }
            let mut end = c;
            let mut length = 1;
            while let Some(n) = end
                .offset(dc, dr, 1)
                .filter(|&n| board.get(n) == Some(color))
            {
                end = n;
                length += 1;
            }
            if length >= 6 {
                return Some((color, c, end));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stone_lists_are_checked_turns() {
        let g = Game::from_stone_list("JJ KJKK  jh@@").unwrap_err();
        assert!(g.contains("turn 3"), "{g}");
        let g = Game::from_stone_list("JJ KJKK IIHH").unwrap();
        assert_eq!(g.turns.len(), 3);
        assert_eq!(g.turns[1].color, Color::White);
        assert_eq!(g.board_after(2).stone_total(), 3);
        assert_eq!(g.turn_numbers(3)[Cell::CENTER.index()], Some(1));
        assert!(Game::from_stone_list("JJ JJKK").is_err());
        assert!(Game::from_stone_list("").is_err());
    }

    #[test]
    fn record_stones_group_into_turns() {
        let text = "{[C6][a B][b W][后手胜][2025.12.27 14:55 x][e];B(J,10);W(K,10);W(K,11);B(A,1)}";
        let g = Game::from_record(&Record::parse(text).unwrap());
        let spelled: Vec<String> = g.turns.iter().map(|p| p.turn.to_string()).collect();
        assert_eq!(spelled, ["JJ", "KJKK", "AA"]);
        assert_eq!(g.about, "2025.12.27 14:55 x e");
    }

    #[test]
    fn sixes_are_found_in_every_direction() {
        let g = Game::from_stone_list("JJ AAAB JKJL ACAD JMJN AEAS").unwrap();
        assert_eq!(six_line(&g.board_after(6)), None);
        let g = Game::from_stone_list("JJ AAAB JKJL ACAD JMJN AEAR JOJI").unwrap();
        let (color, a, b) = six_line(&g.board_after(7)).unwrap();
        assert_eq!(
            (color, a.to_string(), b.to_string()),
            (Color::Black, "JI".into(), "JO".into())
        );
        let g = Game::from_stone_list("JJ AAAB KKLL ACAD MMNN AEAR OOII").unwrap();
        let (_, a, b) = six_line(&g.board_after(7)).unwrap();
        assert_eq!((a.to_string(), b.to_string()), ("II".into(), "OO".into()));
    }
}

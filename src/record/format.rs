//! Game records in the competition format:
//!
//! ```text
//! {[C6][<black> B][<white> W][先手胜][2026.11.30 14:15 <place>][<event>];B(J,10);W(K,10);W(K,11)MARK[2];...}
//! ```
//!
//! Moves are `B(col,row)` / `W(col,row)`: column letter `A`..`S`, row number 1..19 where
//! row number n is protocol row letter n (`A` = 1, `J` = 10, `S` = 19). An optional `MARK[n]`
//! may follow any move. Results: `先手胜` black wins, `后手胜` white wins, `平局` draw.
//!
//! Records written by `connect6 match` carry a seventh header field with what `connect6
//! stats` needs (see [`MatchInfo`]); readers that stop after six fields see a competition
//! record, and this parser reads records with or without it.
//!
//! The parser checks every stone against the rules (on the board, empty, colours in turn
//! order B, W W, B B, ...; nothing after the turn that made a six, and a six agreeing with the
//! header), but takes the result from the header: a game may end by time or fault without a
//! six, and its last turn may hold a single stone.
//!
//! A UTF-8 byte-order mark before the record is skipped, as are blank lines around it: an
//! editor that saves "UTF-8 with BOM" leaves the record as it was. A malformed record (empty,
//! cut short, a header without its fields, more stones than the board holds) is an error that
//! says which, never a panic.

use super::files::excerpt;
use crate::rules::board::{Board, Color};
use crate::rules::coord::{CELLS, Cell, SIZE};
use std::fmt;

pub use super::match_info::MatchInfo;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordResult {
    BlackWins,
    WhiteWins,
    Draw,
}

impl RecordResult {
    pub fn text(self) -> &'static str {
        match self {
            RecordResult::BlackWins => "先手胜",
            RecordResult::WhiteWins => "后手胜",
            RecordResult::Draw => "平局",
        }
    }
    fn from_text(text: &str) -> Option<RecordResult> {
        [
            RecordResult::BlackWins,
            RecordResult::WhiteWins,
            RecordResult::Draw,
        ]
        .into_iter()
        .find(|r| r.text() == text)
    }
}

/// One stone of a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordMove {
    pub color: Color,
    pub cell: Cell,
    /// The optional `MARK[n]` annotation.
    pub mark: Option<i32>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub black: String,
    pub white: String,
    pub result: RecordResult,
    /// Date and time as written, e.g. `2025.12.27 14:55`.
    pub datetime: String,
    pub place: String,
    pub event: String,
    /// The seventh header field of records written by `connect6 match`.
    pub info: Option<MatchInfo>,
    pub moves: Vec<RecordMove>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordError {
    /// Nothing but white space (or a byte-order mark).
    Empty,
    /// Not enclosed in `{...}`.
    Braces,
    /// Opened with `{` but not closed: a record cut short.
    Unclosed,
    /// More stones than the board has cells.
    TooManyMoves(usize),
    /// A missing or malformed header field (0-based field index).
    Header {
        field: usize,
        detail: String,
    },
    UnknownResult(String),
    /// A move that does not read as `B(J,10)` / `W(J,10)MARK[n]`.
    Move {
        index: usize,
        text: String,
    },
    /// A stone of the wrong colour for its place in the turn order.
    Order {
        index: usize,
        expected: Color,
    },
    Occupied {
        index: usize,
        cell: Cell,
    },
    /// A stone played after the turn that completed a six.
    AfterSix {
        index: usize,
    },
    /// The board shows a six for one colour but the header names another result.
    Contradiction {
        six: Color,
        result: RecordResult,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Empty => write!(f, "the text is empty: no record in it"),
            RecordError::Braces => write!(f, "a record must be enclosed in {{...}}"),
            RecordError::Unclosed => {
                write!(f, "the record has no closing '}}': is it cut short?")
            }
            RecordError::TooManyMoves(n) => {
                write!(f, "{n} stones, more than the board's {CELLS} cells")
            }
            RecordError::Header { field, detail } => {
                write!(f, "header field {}: {detail}", field + 1)
            }
            RecordError::UnknownResult(r) => write!(f, "unknown result '{}'", excerpt(r)),
            RecordError::Move { index, text } => {
                write!(f, "move {}: cannot read '{}'", index + 1, excerpt(text))
            }
            RecordError::Order { index, expected } => {
                write!(f, "move {}: expected a {expected} stone", index + 1)
            }
            RecordError::Occupied { index, cell } => {
                write!(
                    f,
                    "move {}: cell {} is occupied",
                    index + 1,
                    cell_text(*cell)
                )
            }
            RecordError::AfterSix { index } => {
                write!(f, "move {}: played after the game was won", index + 1)
            }
            RecordError::Contradiction { six, result } => {
                write!(f, "{six} has a six but the result is {}", result.text())
            }
        }
    }
}

impl std::error::Error for RecordError {}

/// `J,10` for the centre.
fn cell_text(cell: Cell) -> String {
    format!("{},{}", (b'A' + cell.col() as u8) as char, cell.row() + 1)
}

/// The colour of the `index`-th stone (0-based): B, W W, B B, ...
pub fn color_of_stone(index: usize) -> Color {
    if index.div_ceil(2).is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    }
}

fn parse_move(index: usize, text: &str) -> Result<RecordMove, RecordError> {
    let bad = || RecordError::Move {
        index,
        text: text.to_string(),
    };
    let color = match text.chars().next() {
        Some('B') => Color::Black,
        Some('W') => Color::White,
        _ => return Err(bad()),
    };
    let rest = text[1..].strip_prefix('(').ok_or_else(bad)?;
    let (inner, tail) = rest.split_once(')').ok_or_else(bad)?;
    let (col, row) = inner.split_once(',').ok_or_else(bad)?;
    let col = match col.trim().as_bytes() {
        [c @ b'A'..=b'S'] => (c - b'A') as usize,
        _ => return Err(bad()),
    };
    let row: usize = row.trim().parse().map_err(|_| bad())?;
    if !(1..=SIZE).contains(&row) {
        return Err(bad());
    }
    let cell = Cell::new(col, row - 1).ok_or_else(bad)?;
    let tail = tail.trim();
    let mark = if tail.is_empty() {
        None
    } else {
        let n = tail.strip_prefix("MARK[").and_then(|t| t.strip_suffix(']'));
        Some(n.and_then(|n| n.trim().parse().ok()).ok_or_else(bad)?)
    };
    Ok(RecordMove { color, cell, mark })
}

impl Record {
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let text = text.trim_start_matches('\u{feff}').trim();
        if text.is_empty() {
            return Err(RecordError::Empty);
        }
        let body = text.strip_prefix('{').ok_or(RecordError::Braces)?;
        let body = body.strip_suffix('}').ok_or(RecordError::Unclosed)?;
        let mut rest = body;
        let mut fields = Vec::with_capacity(6);
        for field in 0..6 {
            let inner = rest
                .trim_start()
                .strip_prefix('[')
                .ok_or_else(|| RecordError::Header {
                    field,
                    detail: "missing '['".into(),
                })?;
            let (value, after) = inner.split_once(']').ok_or_else(|| RecordError::Header {
                field,
                detail: "missing ']'".into(),
            })?;
            fields.push(value.trim());
            rest = after;
        }
        if fields[0] != "C6" {
            let detail = format!("expected 'C6', got '{}'", excerpt(fields[0]));
            return Err(RecordError::Header { field: 0, detail });
        }
        let player = |field: usize, suffix: &str| {
            fields[field]
                .strip_suffix(suffix)
                .map(|n| n.trim().to_string())
                .ok_or_else(|| RecordError::Header {
                    field,
                    detail: format!("'{}' does not end in '{suffix}'", excerpt(fields[field])),
                })
        };
        let black = player(1, " B")?;
        let white = player(2, " W")?;
        let result = RecordResult::from_text(fields[3])
            .ok_or_else(|| RecordError::UnknownResult(fields[3].to_string()))?;
        let (datetime, place) = split_datetime(fields[4]);
        let event = fields[5].to_string();
        let info = match rest.trim_start().strip_prefix('[') {
            Some(inner) => {
                let bad = |detail: String| RecordError::Header { field: 6, detail };
                let (value, after) = inner
                    .split_once(']')
                    .ok_or_else(|| bad("missing ']'".into()))?;
                rest = after;
                Some(MatchInfo::parse(value).map_err(bad)?)
            }
            None => None,
        };

        let mut moves = Vec::new();
        for (index, text) in rest
            .split(';')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .enumerate()
        {
            moves.push(parse_move(index, text)?);
        }
        let record = Record {
            black,
            white,
            result,
            datetime,
            place,
            event,
            info,
            moves,
        };
        record.check()?;
        Ok(record)
    }

    /// Checks the moves against the rules (see the module docs).
    pub fn check(&self) -> Result<(), RecordError> {
        if self.moves.len() > CELLS {
            return Err(RecordError::TooManyMoves(self.moves.len()));
        }
        let mut board = Board::new();
        let mut six_at: Option<usize> = None;
        for (index, m) in self.moves.iter().enumerate() {
            let expected = color_of_stone(index);
            if m.color != expected {
                return Err(RecordError::Order { index, expected });
            }
            // The partner stone of the turn that made a six may still be recorded.
            if six_at.is_some_and(|at| at.div_ceil(2) != index.div_ceil(2)) {
                return Err(RecordError::AfterSix { index });
            }
            if !board.is_empty(m.cell) {
                return Err(RecordError::Occupied {
                    index,
                    cell: m.cell,
                });
            }
            board.place(m.cell, m.color);
            if six_at.is_none() && board.winner().is_some() {
                six_at = Some(index);
            }
        }
        if let Some(six) = board.winner() {
            let agrees = matches!(
                (six, self.result),
                (Color::Black, RecordResult::BlackWins) | (Color::White, RecordResult::WhiteWins)
            );
            if !agrees {
                return Err(RecordError::Contradiction {
                    six,
                    result: self.result,
                });
            }
        }
        Ok(())
    }

    /// The record's file name:
    /// `C6-<black> B vs <white> W-<result>-<YYYY.MM.DD HH.MM> <place>-<event>.txt`,
    /// with characters that are unsafe in file names replaced by `_`.
    pub fn file_name(&self) -> String {
        let name = format!(
            "C6-{} B vs {} W-{}-{} {}-{}",
            self.black,
            self.white,
            self.result.text(),
            self.datetime.replace(':', "."),
            self.place,
            self.event
        );
        let safe: String = name
            .chars()
            .map(|c| {
                if "/\\:*?\"<>|".contains(c) || c.is_control() {
                    '_'
                } else {
                    c
                }
            })
            .collect();
        format!("{safe}.txt")
    }
}

/// Splits `2025.12.27 14:55 北京` into (`2025.12.27 14:55`, `北京`).
fn split_datetime(field: &str) -> (String, String) {
    let mut parts = field.splitn(3, ' ');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(d), Some(t), place) => (format!("{d} {t}"), place.unwrap_or("").trim().to_string()),
        _ => (field.to_string(), String::new()),
    }
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{{[C6][{} B][{} W][{}][{} {}][{}]",
            self.black,
            self.white,
            self.result.text(),
            self.datetime,
            self.place,
            self.event
        )?;
        if let Some(info) = &self.info {
            write!(f, "[{info}]")?;
        }
        for m in &self.moves {
            let side = if m.color == Color::Black { 'B' } else { 'W' };
            write!(f, ";{side}({})", cell_text(m.cell))?;
            if let Some(n) = m.mark {
                write!(f, "MARK[{n}]")?;
            }
        }
        write!(f, "}}")
    }
}

/// Formats seconds since the Unix epoch as UTC `YYYY.MM.DD HH:MM`.
pub fn format_utc(unix_secs: u64) -> String {
    let days = (unix_secs / 86_400) as i64;
    let secs = unix_secs % 86_400;
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}.{month:02}.{day:02} {:02}:{:02}",
        secs / 3600,
        secs % 3600 / 60
    )
}

/// The current UTC time as `YYYY.MM.DD HH:MM`.
pub fn now_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    format_utc(secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stone_colours_alternate_in_pairs() {
        let c: Vec<Color> = (0..7).map(color_of_stone).collect();
        use Color::{Black as B, White as W};
        assert_eq!(c, [B, W, W, B, B, W, W]);
    }

    #[test]
    fn utc_dates() {
        assert_eq!(format_utc(0), "1970.01.01 00:00");
        assert_eq!(format_utc(1_766_847_300), "2025.12.27 14:55");
        assert_eq!(format_utc(951_782_400 + 3661), "2000.02.29 01:01");
    }

    #[test]
    fn bad_records() {
        let head = "{[C6][a B][b W][先手胜][2025.12.27 14:55 x][e]";
        assert!(Record::parse(&format!("{head};B(J,10);W(K,10)}}")).is_ok());
        assert!(matches!(
            Record::parse(&format!("{head};B(J,10);B(K,10)}}")),
            Err(RecordError::Order { index: 1, .. })
        ));
        assert!(matches!(
            Record::parse(&format!("{head};B(J,10);W(J,10)}}")),
            Err(RecordError::Occupied { index: 1, .. })
        ));
        assert!(matches!(
            Record::parse(&format!("{head};B(T,10)}}")),
            Err(RecordError::Move { .. })
        ));
        assert!(matches!(
            Record::parse(&format!("{head};B(J,20)}}")),
            Err(RecordError::Move { .. })
        ));
        assert!(matches!(
            Record::parse(&format!("{head};B(J,10)MARK[x]}}")),
            Err(RecordError::Move { .. })
        ));
        assert!(Record::parse("[C6]").is_err());
        let bad_result = "{[C6][a B][b W][赢][d t p][e]}";
        assert!(matches!(
            Record::parse(bad_result),
            Err(RecordError::UnknownResult(_))
        ));
    }
}

//! Malformed records, read by the parser and by `connect6 show`: an empty file, a record cut
//! short (at every character of a real one), a header without its fields, more stones than
//! the board holds, and a UTF-8 byte-order mark. Each is a clear error, never a panic; a
//! byte-order mark before a good record is skipped.

mod common;

use connect6::record::game::Game;
use connect6::record::{Record, RecordError, RecordResult, color_of_stone};
use connect6::rng::Rng;
use connect6::rules::board::Color;
use connect6::rules::coord::{CELLS, Cell};
use std::path::PathBuf;

const HEAD: &str = "{[C6][a B][b W][平局][2025.12.27 14:55 x][e]";

fn real_record() -> String {
    let dir = common::data_dir("records");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("records folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("C6-"))
        })
        .collect();
    files.sort();
    std::fs::read_to_string(&files[0]).expect("a record")
}

/// A drawn game that fills the board: colour `(col + 2 row) mod 4 < 2` has no run longer than
/// two in any direction, and the stones are listed in the turn order B, W W, B B, ...
fn full_board_moves() -> Vec<String> {
    let colour = |c: Cell| (c.col() + 2 * c.row()) % 4 < 2;
    let mut first: Vec<Cell> = Cell::all().filter(|&c| colour(c)).collect();
    let mut second: Vec<Cell> = Cell::all().filter(|&c| !colour(c)).collect();
    // Black has the one extra stone.
    if first.len() < second.len() {
        std::mem::swap(&mut first, &mut second);
    }
    assert_eq!((first.len(), second.len()), (181, 180));
    let (mut black, mut white) = (first.into_iter(), second.into_iter());
    (0..CELLS)
        .map(|i| {
            let (side, cell) = match color_of_stone(i) {
                Color::Black => ('B', black.next().unwrap()),
                Color::White => ('W', white.next().unwrap()),
            };
            format!(
                "{side}({},{})",
                (b'A' + cell.col() as u8) as char,
                cell.row() + 1
            )
        })
        .collect()
}

fn record_of(moves: &[String]) -> String {
    let mut text = HEAD.to_string();
    for m in moves {
        text.push(';');
        text.push_str(m);
    }
    text.push('}');
    text
}

#[test]
fn every_cut_of_a_real_record_is_an_error_not_a_panic() {
    let text = real_record();
    let whole = Record::parse(&text).expect("the real record reads");
    let mut errors = 0;
    for (at, _) in text.char_indices() {
        // Only a cut in the white space after the closing `}` is still the record.
        let cut = &text[..at];
        match Record::parse(cut) {
            Ok(r) => assert!(cut.trim_end() == text.trim_end() && r == whole, "{cut}"),
            Err(e) => {
                assert!(!e.to_string().is_empty());
                errors += 1;
            }
        }
    }
    assert!(errors >= text.trim_end().chars().count(), "{errors}");
    assert_eq!(
        Record::parse(&text[..text.len() / 2]),
        Err(RecordError::Unclosed)
    );
    assert_eq!(
        Record::parse(&text[..text.len() / 2])
            .unwrap_err()
            .to_string(),
        "the record has no closing '}': is it cut short?"
    );
}

#[test]
fn mutated_records_are_read_or_refused_never_a_panic() {
    let text: Vec<char> = real_record().chars().collect();
    // The record's own punctuation, digits and letters: mutations that keep it nearly whole.
    let alphabet: Vec<char> = "{}[];,()BWJKS019 MARK-\u{feff}\n".chars().collect();
    let mut rng = Rng::new(7);
    let (mut read, mut refused) = (0, 0);
    for _ in 0..3000 {
        let mut t = text.clone();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(t.len());
            match rng.below(3) {
                0 => t[at] = alphabet[rng.below(alphabet.len())],
                1 => t.insert(at, alphabet[rng.below(alphabet.len())]),
                _ => {
                    t.remove(at);
                }
            }
        }
        let mutated: String = t.into_iter().collect();
        match Record::parse(&mutated) {
            Ok(r) => {
                // What is read is a record: written out, it reads back the same.
                assert_eq!(Record::parse(&r.to_string()).as_ref(), Ok(&r), "{mutated}");
                let game = Game::from_record(&r);
                assert!(game.turns.len() <= r.moves.len());
                read += 1;
            }
            Err(e) => {
                assert!(!e.to_string().is_empty());
                refused += 1;
            }
        }
    }
    assert!(read > 0 && refused > 0, "{read} read, {refused} refused");
}

#[test]
fn empty_and_fieldless_records_say_what_is_missing() {
    for empty in ["", "  \n\r\n", "\u{feff}", "\u{feff}\n"] {
        assert_eq!(Record::parse(empty), Err(RecordError::Empty), "{empty:?}");
    }
    assert_eq!(Record::parse("no braces"), Err(RecordError::Braces));
    let field = |text: &str| match Record::parse(text) {
        Err(RecordError::Header { field, .. }) => field,
        other => panic!("{text}: {other:?}"),
    };
    assert_eq!(field("{}"), 0);
    assert_eq!(field("{[C6]}"), 1);
    assert_eq!(field("{[C6][a B][b W]}"), 3);
    assert_eq!(field("{[C6][a B][b W][平局][d t][e][unclosed}"), 6);
    assert_eq!(
        Record::parse("{}").unwrap_err().to_string(),
        "header field 1: missing '['"
    );
}

#[test]
fn a_full_board_reads_and_one_stone_more_is_refused() {
    let moves = full_board_moves();
    let full = Record::parse(&record_of(&moves)).expect("a full board");
    assert_eq!((full.result, full.moves.len()), (RecordResult::Draw, CELLS));
    assert_eq!(Game::from_record(&full).turns.len(), 181);
    let mut over = moves.clone();
    over.push("W(J,10)".into());
    assert_eq!(
        Record::parse(&record_of(&over)),
        Err(RecordError::TooManyMoves(362))
    );
    // Far more, each stone well formed: refused the same way, at once.
    let many: Vec<String> = (0..100_000).map(|_| "B(J,10)".to_string()).collect();
    assert_eq!(
        Record::parse(&record_of(&many)),
        Err(RecordError::TooManyMoves(100_000))
    );
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let text = real_record();
    let plain = Record::parse(&text).expect("reads");
    for bom in ["\u{feff}", "\u{feff}\r\n", "\u{feff}  "] {
        assert_eq!(Record::parse(&format!("{bom}{text}")).as_ref(), Ok(&plain));
    }
    // Only at the start: a mark inside the header is part of a field.
    assert!(Record::parse(&text.replacen("[C6]", "[\u{feff}C6]", 1)).is_err());
}

/// `connect6 show FILE`, with FILE holding `bytes`: (exit code, stdout, stderr).
fn show(name: &str, bytes: &[u8]) -> (i32, String, String) {
    let dir = std::env::temp_dir().join(format!("connect6-malformed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write");
    let out = common::run_subcommand("show", &[path.to_str().unwrap()]);
    let _ = std::fs::remove_file(&path);
    out
}

#[test]
fn show_names_what_is_wrong_with_a_file() {
    let real = real_record();
    let full = record_of(&full_board_moves());
    let mut over = full_board_moves();
    over.push("W(J,10)".into());
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "empty.txt",
            Vec::new(),
            "the text is empty: no record in it",
        ),
        (
            "cut.txt",
            real.as_bytes()[..real.len() / 2].to_vec(),
            "no closing '}'",
        ),
        (
            "fieldless.txt",
            b"{}".to_vec(),
            "header field 1: missing '['",
        ),
        (
            "over.txt",
            record_of(&over).into_bytes(),
            "362 stones, more than the board's 361 cells",
        ),
    ];
    for (name, bytes, want) in cases {
        let (code, out, err) = show(name, &bytes);
        assert_eq!(code, 2, "{name}: {err}");
        assert!(out.is_empty(), "{name}: {out}");
        assert!(err.contains(name) && err.contains(want), "{name}: {err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
    }
    // Cut inside a character: not text at all, which the reading says.
    let (code, _, err) = show("bytes.txt", &"{[C6][黑".as_bytes()[..8]);
    assert!(
        code != 0 && err.contains("bytes.txt") && err.contains("UTF-8"),
        "{err}"
    );
    // A byte-order mark and a full board are records: shown like any other.
    for (name, text) in [("bom.txt", format!("\u{feff}\n{real}")), ("full.txt", full)] {
        let (code, out, err) = show(name, text.as_bytes());
        assert_eq!(code, 0, "{name}: {err}");
        assert!(!out.is_empty(), "{name}");
    }
}

//! The record parser against real competition records, and writer round trips.

mod common;

use connect6::record::{Record, RecordResult};
use connect6::rules::board::Color;
use connect6::rules::coord::parse_cell;
use std::path::Path;

fn check_real(path: &Path) -> Record {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let rec = Record::parse(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    // The file name repeats the header.
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    if name.starts_with("C6-") {
        assert_eq!(rec.file_name(), name);
    }
    // Writing gives back the same text, and reading that gives back the same record.
    assert_eq!(rec.to_string(), text.trim());
    assert_eq!(Record::parse(&rec.to_string()).as_ref(), Ok(&rec));
    rec
}

#[test]
fn fixtures_parse() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let rec = check_real(&dir.join("six-black-wins.txt"));
    assert_eq!((rec.black.as_str(), rec.white.as_str()), ("B3", "B1"));
    assert_eq!(rec.result, RecordResult::BlackWins);
    assert_eq!(rec.datetime, "2025.12.27 11:29");
    assert_eq!(rec.place, "北京");
    assert_eq!(
        rec.moves[0].cell,
        parse_cell("MH").expect("cell"),
        "B(M,8) is column M, row H"
    );
    assert_eq!(rec.moves[3].mark, Some(1));
    assert_eq!(rec.moves.len(), 33);

    // A black win without a six, its last white turn a single stone: the header decides.
    let rec = check_real(&dir.join("no-six-header-result.txt"));
    assert_eq!(rec.result, RecordResult::BlackWins);
    assert_eq!(rec.moves.len(), 130);
    assert_eq!(rec.moves.last().map(|m| m.color), Some(Color::White));
}

#[test]
fn competition_records_parse() {
    let dir = common::data_dir("records");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("records folder").flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "txt") {
            let rec = check_real(&path);
            assert_ne!(rec.result, RecordResult::Draw);
            n += 1;
        }
    }
    assert_eq!(n, 5, "five records in {}", dir.display());
}

#[test]
fn written_record_round_trips() {
    let moves = ["JJ", "KJ", "KK", "AA", "SS", "CC", "DD"]
        .iter()
        .enumerate()
        .map(|(i, s)| connect6::record::RecordMove {
            color: connect6::record::color_of_stone(i),
            cell: parse_cell(s).expect("cell"),
            mark: (i == 2).then_some(-2),
        })
        .collect();
    let rec = Record {
        black: "Alpha".into(),
        white: "Beta 2".into(),
        result: RecordResult::Draw,
        datetime: "2026.11.30 14:15".into(),
        place: "Lab".into(),
        event: "Test cup".into(),
        info: None,
        moves,
    };
    let text = rec.to_string();
    assert!(text.starts_with("{[C6][Alpha B][Beta 2 W][平局][2026.11.30 14:15 Lab][Test cup];"));
    assert!(
        text.contains(";B(J,10);W(K,10);W(K,11)MARK[-2];B(A,1);B(S,19);"),
        "{text}"
    );
    assert_eq!(Record::parse(&text), Ok(rec.clone()));
    assert_eq!(
        rec.file_name(),
        "C6-Alpha B vs Beta 2 W-平局-2026.11.30 14.15 Lab-Test cup.txt"
    );
}

#[test]
fn moves_after_a_six_or_against_the_header_are_rejected() {
    let head = |result: &str| format!("{{[C6][a B][b W][{result}][2026.01.01 00:00 x][e]");
    // Black builds A1..F1 while white plays far away.
    let six = ";B(A,1);W(A,10);W(B,10);B(B,1);B(C,1);W(C,10);W(D,10);B(D,1);B(E,1);W(E,12);W(F,12);B(F,1);B(S,19)";
    assert!(Record::parse(&format!("{}{six}}}", head("先手胜"))).is_ok());
    let after = format!("{}{six};W(S,1)}}", head("先手胜"));
    assert!(
        Record::parse(&after).is_err(),
        "a move after the winning turn"
    );
    assert!(Record::parse(&format!("{}{six}}}", head("后手胜"))).is_err());
}

#[test]
fn match_field_round_trips_and_is_optional() {
    let head = "{[C6][a B][b W][先手胜][2026.01.01 00:00 x][e]";
    let field = "[c6match game=4 opening=2 black=B a=bash%20a.sh b=./b move-time-ns=500000000 \
                 game-time-ns=- sprt=- fault=late,white,slow%20reply times-black=10,20 times-white=30]";
    let text = format!("{head}{field};B(J,10);W(K,10);W(K,11)}}");
    let rec = Record::parse(&text).expect("with the match field");
    let info = rec.info.as_ref().expect("info");
    assert_eq!((info.game, info.opening, info.black), (4, Some(2), 1));
    assert_eq!(info.commands[0], "bash a.sh");
    assert_eq!(info.times_us, [vec![10, 20], vec![30]]);
    assert_eq!(
        info.fault.as_ref().map(|f| f.detail.as_str()),
        Some("slow reply")
    );
    assert_eq!(rec.to_string(), text);
    let plain = Record::parse(&format!("{head};B(J,10)}}")).expect("without it");
    assert_eq!(plain.info, None);
    assert!(Record::parse(&format!("{head}[c6match game=x];B(J,10)}}")).is_err());
}

//! The opening book through the real binary: white's reply to `JJ` is the book's turn, said
//! in the log as the book's, and with `--no-book` the same request is searched.

mod common;

use connect6::engine::book::Book;
use connect6::rules::board::Board;

/// The engine's stdout and stderr for `input`, logging at info level (each move's source).
fn converse(args: &[&str], input: &str) -> (String, String) {
    let args: Vec<&str> = ["--move-time", "0.3", "--hash", "8", "--threads", "1"]
        .into_iter()
        .chain(args.iter().copied())
        .collect();
    let out = common::run_logging(&args, input.as_bytes(), "info");
    assert!(out.status.success(), "{out:?}");
    (
        String::from_utf8(out.stdout).expect("UTF-8"),
        String::from_utf8(out.stderr).expect("UTF-8"),
    )
}

#[test]
fn the_first_turns_come_from_the_book_unless_it_is_off() {
    let centre = Board::from_turns("JJ").unwrap();
    let book = Book::embedded()
        .lookup(&centre)
        .expect("the reply to JJ is in the book");
    let expected = format!("move {}\n", book.turn.to_protocol(true));
    let (stdout, stderr) = converse(&[], "new white\nmove JJ@@\n");
    assert_eq!(stdout, expected);
    assert!(stderr.contains("from the book"), "{stderr}");
    // Black's first stone too.
    let (stdout, stderr) = converse(&[], "new black\n");
    assert_eq!(stdout, "move JJ@@\n");
    assert!(stderr.contains("JJ from the book"), "{stderr}");

    let (stdout, stderr) = converse(&["--no-book"], "new white\nmove JJ@@\n");
    let turn = stdout
        .strip_prefix("move ")
        .and_then(|t| connect6::rules::coord::Turn::parse(t.trim_end()).ok())
        .unwrap_or_else(|| panic!("not a move: {stdout:?}"));
    assert!(centre.check_turn(&turn).is_ok());
    assert!(!stderr.contains("from the book"), "{stderr}");
    assert!(stderr.contains(" depth "), "the search's line: {stderr}");
}

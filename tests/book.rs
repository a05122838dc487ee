//! The opening book through the real binary: white's reply to `JJ`, and white's second turn
//! after black's likeliest second turns, are the book's turns, said in the log as the book's,
//! and with `--no-book` the same request is searched.

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

/// A real game's white: black opens `JJ`, the engine answers from the book, and black plays
/// one of the second turns the book holds after that reply (the turns a strong opponent
/// would play), in the game's own frame; the engine's second turn comes from the book too:
/// the stored turn of the position's canonical form, mapped onto the board as it stands.
#[test]
fn white_answers_black_s_likeliest_second_turns_from_the_book() {
    use connect6::rules::board::{Color, PlaceTurn};
    use connect6::rules::coord::{Cell, SYMMETRIES, Turn};

    let book = Book::embedded();
    let mut board = Board::from_turns("JJ").unwrap();
    let reply = book
        .lookup(&board)
        .expect("the reply to JJ is in the book")
        .turn;
    board.place_turn(&reply, Color::White);
    let mut white: Vec<Cell> = reply.cells().collect();
    white.sort();
    // Black's turns after this reply, from the book's positions: the images that put the
    // white stones where the reply put them (the symmetries all keep JJ).
    let mut blacks: Vec<Turn> = Vec::new();
    for entry in book.entries() {
        if entry.black.len() != 3 || entry.white.len() != 2 || !entry.black.contains(&Cell::CENTER)
        {
            continue;
        }
        for s in 0..SYMMETRIES {
            let mut image: Vec<Cell> = entry.white.iter().map(|c| c.image(s)).collect();
            image.sort();
            if image == white {
                let mut stones = entry
                    .black
                    .iter()
                    .map(|c| c.image(s))
                    .filter(|&c| c != Cell::CENTER);
                let (a, b) = (stones.next().unwrap(), stones.next().unwrap());
                blacks.push(Turn::two(a.min(b), a.max(b)));
                break;
            }
        }
    }
    assert!(
        blacks.len() >= 8,
        "black's second turns after {reply}: {blacks:?}"
    );
    for &black in [blacks[0], blacks[blacks.len() - 1]].iter() {
        board.place_turn(&black, Color::Black);
        let second = book
            .lookup(&board)
            .unwrap_or_else(|| panic!("white's turn after {black} is in the book"));
        assert!(board.check_turn(&second.turn).is_ok());
        let input = format!("new white\nmove JJ@@\nmove {}\n", black.to_protocol(false));
        let (stdout, stderr) = converse(&[], &input);
        let expected = format!(
            "move {}\nmove {}\n",
            reply.to_protocol(false),
            second.turn.to_protocol(false)
        );
        assert_eq!(stdout, expected, "{stderr}");
        assert_eq!(stderr.matches("from the book").count(), 2, "{stderr}");
        board.remove_turn(&black);
    }
}

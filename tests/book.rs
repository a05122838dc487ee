//! The opening book through the real binary: white's reply to `JJ`, and white's second and
//! third turns after black's likeliest turns, are the book's turns, said in the log as the book's,
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

/// Black's turns the book holds after white's turn on `board` (white's stones as the board
/// has them, black to move): the book's positions with two black stones more, in the
/// board's frame.
fn black_turns_in_book(book: &Book, board: &Board) -> Vec<connect6::rules::coord::Turn> {
    use connect6::rules::coord::{Cell, SYMMETRIES, Turn};
    // The board's stones as the book keys them: black's and white's, each sorted.
    let (black, white) = connect6::engine::book::stones(board);
    let mut turns = Vec::new();
    for entry in book.entries() {
        if entry.black.len() != black.len() + 2 || entry.white.len() != white.len() {
            continue;
        }
        for s in 0..SYMMETRIES {
            let image = |v: &[Cell]| {
                let mut image: Vec<Cell> = v.iter().map(|c| c.image(s)).collect();
                image.sort();
                image
            };
            let blacks = image(&entry.black);
            if image(&entry.white) == white && black.iter().all(|c| blacks.contains(c)) {
                let mut new = blacks.into_iter().filter(|c| !black.contains(c));
                let (a, b) = (new.next().unwrap(), new.next().unwrap());
                turns.push(Turn::two(a, b));
                break;
            }
        }
    }
    turns
}

/// A real game's white: black opens `JJ`, the engine answers from the book, and black plays
/// one of the second turns the book holds after that reply (the turns a strong opponent
/// would play), in the game's own frame, then one of the third turns it holds after white's
/// second; the engine's second and third turns come from the book too: the stored turn of
/// the position's canonical form, mapped onto the board as it stands.
#[test]
fn white_answers_black_s_likeliest_turns_from_the_book() {
    use connect6::rules::board::{Color, PlaceTurn};

    let book = Book::embedded();
    let mut board = Board::from_turns("JJ").unwrap();
    let reply = book
        .lookup(&board)
        .expect("the reply to JJ is in the book")
        .turn;
    board.place_turn(&reply, Color::White);
    let blacks = black_turns_in_book(&book, &board);
    assert!(
        blacks.len() >= 8,
        "black's second turns after {reply}: {blacks:?}"
    );
    for &black in [blacks[0], blacks[blacks.len() - 1]].iter() {
        board.place_turn(&black, Color::Black);
        let second = book
            .lookup(&board)
            .unwrap_or_else(|| panic!("white's turn after {black} is in the book"))
            .turn;
        assert!(board.check_turn(&second).is_ok());
        board.place_turn(&second, Color::White);
        // Where white's second turn threatens, black's turns are the blocks, often fewer
        // than the book's eight.
        let thirds = black_turns_in_book(&book, &board);
        assert!(
            !thirds.is_empty(),
            "black's third turns after {second}: {thirds:?}"
        );
        let third_black = thirds[thirds.len() / 2];
        board.place_turn(&third_black, Color::Black);
        let third = book
            .lookup(&board)
            .unwrap_or_else(|| panic!("white's turn after {third_black} is in the book"))
            .turn;
        let input = format!(
            "new white\nmove JJ@@\nmove {}\nmove {}\n",
            black.to_protocol(false),
            third_black.to_protocol(false)
        );
        let (stdout, stderr) = converse(&[], &input);
        let expected = format!(
            "move {}\nmove {}\nmove {}\n",
            reply.to_protocol(false),
            second.to_protocol(false),
            third.to_protocol(false)
        );
        assert_eq!(stdout, expected, "{stderr}");
        assert_eq!(stderr.matches("from the book").count(), 3, "{stderr}");
        board.remove_turn(&third_black);
        board.remove_turn(&second);
        board.remove_turn(&black);
    }
}

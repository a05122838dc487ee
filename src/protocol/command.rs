//! The referee protocol as data: one `Command` per input line, parsed whole before anything
//! acts on it. See `protocol.md` for the conversation.

use crate::rules::board::Color;
use crate::rules::coord::{Cell, CoordError, Turn, parse_cells};
use crate::seconds::SecondsError;
use std::fmt;
use std::str::FromStr;

/// The platform's limit on one command line, in bytes (line end excluded).
pub const MAX_LINE: usize = 256;

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `name?`
    Name,
    /// `new black|white`; `new` alone (older referees) leaves the colour for the next line.
    New(Option<Color>),
    /// A bare `black` or `white`: the colour line after a lone `new`.
    Colour(Color),
    /// `move XYXY` (or `XY@@` / `XY` for black's first stone): the opponent's turn.
    Move(Turn),
    /// `end [winner]`: the game is over.
    End,
    /// `error`: the referee rejected our last move.
    RefereeError,
    /// `quit`.
    Quit,
    /// `black XY..` / `white XY..`: place stones of that colour, no reply.
    Place(Color, Vec<Cell>),
    /// `next`: play for the side to move.
    Next,
    /// `board`: show the position, the last turn and whose turn it is.
    Board,
    /// `undo`: take back the last turn (or placement line).
    Undo,
    /// `help`: list the commands.
    Help,
    /// `depth N`: search to at most N turns.
    Depth(u8),
    /// `time SECONDS`: think at most this long per move.
    Time(f64),
    /// `time left SECONDS`: the time left on our clock for the rest of the game.
    TimeLeft(f64),
}

#[derive(Clone, Debug, PartialEq)]
pub enum ParseError {
    UnknownCommand(String),
    MissingArgument {
        command: &'static str,
        expected: &'static str,
    },
    UnexpectedArgument {
        command: &'static str,
        extra: String,
    },
    BadStones {
        command: &'static str,
        error: CoordError,
    },
    BadColour(String),
    BadNumber {
        command: &'static str,
        text: String,
    },
    /// A number outside what the command takes; `range` says what it takes.
    OutOfRange {
        command: &'static str,
        text: String,
        range: &'static str,
    },
    /// `move JJ KK`: the stones of a turn split over words that, written together, are a
    /// turn (`stones`).
    SplitTurn {
        extra: String,
        stones: String,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // `name` is the one command a person types without its `?`.
            ParseError::UnknownCommand(w) if w == "name" => {
                write!(f, "unknown command 'name' (the command is 'name?')")
            }
            ParseError::UnknownCommand(w) => {
                write!(f, "unknown command '{}' (try 'help')", w.escape_default())
            }
            ParseError::MissingArgument { command, expected } => {
                write!(f, "'{command}' needs {expected}")
            }
            ParseError::UnexpectedArgument { command, extra } => {
                write!(f, "'{command}' takes no '{}'", extra.escape_default())
            }
            ParseError::BadStones { command, error } => write!(f, "'{command}': {error}"),
            ParseError::BadColour(w) => {
                write!(
                    f,
                    "'{}' is not a colour (black or white)",
                    w.escape_default()
                )
            }
            ParseError::BadNumber { command, text } => {
                write!(
                    f,
                    "'{command}': '{}' is not a valid number",
                    text.escape_default()
                )
            }
            ParseError::OutOfRange {
                command,
                text,
                range,
            } => write!(
                f,
                "'{command}': '{}' is out of range ({range})",
                text.escape_default()
            ),
            ParseError::SplitTurn { extra, stones } => write!(
                f,
                "'move' takes no '{}': a turn's stones are written together, 'move {stones}'",
                extra.escape_default()
            ),
        }
    }
}

impl std::error::Error for ParseError {}

fn colour(word: &str) -> Result<Color, ParseError> {
    word.parse()
        .map_err(|_| ParseError::BadColour(word.to_string()))
}

/// Seconds in `0 < s <= max`, as `crate::seconds` parses every time: a word that is no
/// number (or NaN) is not valid, any other number outside is out of range.
fn seconds(
    command: &'static str,
    text: &str,
    max: f64,
    range: &'static str,
) -> Result<f64, ParseError> {
    crate::seconds::parse(text, max).map_err(|e| match e {
        SecondsError::OutOfRange { .. } => ParseError::OutOfRange {
            command,
            text: text.to_string(),
            range,
        },
        SecondsError::NotANumber => ParseError::BadNumber {
            command,
            text: text.to_string(),
        },
    })
}

impl FromStr for Command {
    type Err = ParseError;

    /// Parses one line (without its line end). Words are separated by spaces or tabs;
    /// command words are case-insensitive.
    fn from_str(line: &str) -> Result<Command, ParseError> {
        let mut words = line.split_ascii_whitespace();
        let head = words.next().unwrap_or("").to_ascii_lowercase();
        let args: Vec<&str> = words.collect();
        let none = |name: &'static str, cmd: Command| match args.first() {
            None => Ok(cmd),
            Some(extra) => Err(ParseError::UnexpectedArgument {
                command: name,
                extra: extra.to_string(),
            }),
        };
        let one = |name: &'static str, expected: &'static str| match args.as_slice() {
            [a] => Ok(*a),
            [] => Err(ParseError::MissingArgument {
                command: name,
                expected,
            }),
            [_, extra, ..] => Err(ParseError::UnexpectedArgument {
                command: name,
                extra: extra.to_string(),
            }),
        };
        // The command word is matched once; each arm names itself for its errors.
        match head.as_str() {
            "name?" => none("name?", Command::Name),
            "new" => match args.as_slice() {
                [] => Ok(Command::New(None)),
                _ => Ok(Command::New(Some(colour(one("new", "a colour")?)?))),
            },
            "move" => {
                if let [_, extra, ..] = args.as_slice() {
                    let stones = args.concat();
                    if Turn::parse(&stones).is_ok() {
                        return Err(ParseError::SplitTurn {
                            extra: extra.to_string(),
                            stones: stones.to_ascii_uppercase(),
                        });
                    }
                }
                let text = one("move", "stones, e.g. 'move JJKK'")?;
                Turn::parse(text)
                    .map(Command::Move)
                    .map_err(|error| ParseError::BadStones {
                        command: "move",
                        error,
                    })
            }
            // The winner's colour, if given, is accepted as information.
            "end" => match args.as_slice() {
                [] => Ok(Command::End),
                _ => colour(one("end", "at most a colour")?).map(|_| Command::End),
            },
            "error" => Ok(Command::RefereeError),
            "quit" => none("quit", Command::Quit),
            word @ ("black" | "white") => {
                let c = colour(word)?;
                let name = c.name();
                if args.is_empty() {
                    return Ok(Command::Colour(c));
                }
                let stones: String = args.concat();
                parse_cells(&stones)
                    .map(|cells| Command::Place(c, cells))
                    .map_err(|error| ParseError::BadStones {
                        command: name,
                        error,
                    })
            }
            "next" => none("next", Command::Next),
            "board" => none("board", Command::Board),
            "undo" => none("undo", Command::Undo),
            "help" => none("help", Command::Help),
            "depth" => {
                let text = one("depth", "a number of turns, 1..=60")?;
                match text.parse::<i64>() {
                    Ok(d @ 1..=60) => Ok(Command::Depth(d as u8)),
                    Ok(_) => Err(ParseError::OutOfRange {
                        command: "depth",
                        text: text.to_string(),
                        range: "turns 1..=60",
                    }),
                    Err(_) => Err(ParseError::BadNumber {
                        command: "depth",
                        text: text.to_string(),
                    }),
                }
            }
            "time" if args.first().is_some_and(|w| w.eq_ignore_ascii_case("left")) => {
                let text = match &args[1..] {
                    [t] => *t,
                    [] => {
                        return Err(ParseError::MissingArgument {
                            command: "time left",
                            expected: "the seconds left in the game",
                        });
                    }
                    [_, extra, ..] => {
                        return Err(ParseError::UnexpectedArgument {
                            command: "time left",
                            extra: extra.to_string(),
                        });
                    }
                };
                seconds("time left", text, 1e6, "0 < seconds <= 1000000").map(Command::TimeLeft)
            }
            "time" => {
                let text = one("time", "seconds per move")?;
                seconds("time", text, 86_400.0, "0 < seconds <= 86400").map(Command::Time)
            }
            _ => Err(ParseError::UnknownCommand(head)),
        }
    }
}

/// The text of `help`.
pub const HELP: &str = "\
commands (one per line; replies on stdout, everything else on stderr):
  name?                 reply 'name <engine name>'
  new black|white       start a game; as black, reply with the first move
  new  + black|white    the same over two lines (older referees)
  move XYXY             the opponent's stones (XY@@ or XY for black's first stone); we reply
  end [black|white]     the game is over; wait for the next 'new'
  error                 the referee rejected our last move (logged)
  quit                  exit (so does end of input)
  black XY.. / white XY..   place stones of that colour, no reply
  next                  play for the side to move and take that colour
  board                 show the position, the last turn [bracketed] and whose turn it is (on stderr)
  undo                  take back the last turn or placement line; the engine does not move
  depth N               search at most N turns deep
  time SECONDS          think at most SECONDS per move
  time left SECONDS     SECONDS are left on our clock for the rest of this game
  help                  this list (on stderr)
coordinates: column then row, letters A..S from the top left; JJ is the centre";

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<Command, ParseError> {
        s.parse()
    }

    #[test]
    fn referee_commands() {
        assert_eq!(p("name?"), Ok(Command::Name));
        assert_eq!(p("new black"), Ok(Command::New(Some(Color::Black))));
        assert_eq!(p("NEW White"), Ok(Command::New(Some(Color::White))));
        assert_eq!(p("new"), Ok(Command::New(None)));
        assert_eq!(p("white"), Ok(Command::Colour(Color::White)));
        assert_eq!(p("move JJ@@"), Ok(Command::Move(Turn::one(Cell::CENTER))));
        assert_eq!(p("move jj"), Ok(Command::Move(Turn::one(Cell::CENTER))));
        assert_eq!(p("end"), Ok(Command::End));
        assert_eq!(p("end black"), Ok(Command::End));
        assert_eq!(p("error"), Ok(Command::RefereeError));
        assert_eq!(p("quit"), Ok(Command::Quit));
    }

    #[test]
    fn extension_commands() {
        assert_eq!(
            p("black JJ KK"),
            Ok(Command::Place(
                Color::Black,
                vec![Cell::CENTER, Cell::new(10, 10).unwrap()]
            ))
        );
        assert_eq!(p("next"), Ok(Command::Next));
        assert_eq!(p("UNDO"), Ok(Command::Undo));
        assert!(matches!(
            p("undo 2"),
            Err(ParseError::UnexpectedArgument { .. })
        ));
        assert_eq!(p("depth 4"), Ok(Command::Depth(4)));
        assert_eq!(p("time 0.5"), Ok(Command::Time(0.5)));
        assert_eq!(p("time left 12.5"), Ok(Command::TimeLeft(12.5)));
        assert_eq!(p("TIME Left 3"), Ok(Command::TimeLeft(3.0)));
    }

    #[test]
    fn bad_lines_are_typed() {
        assert!(matches!(p("hello"), Err(ParseError::UnknownCommand(_))));
        assert!(matches!(p(""), Err(ParseError::UnknownCommand(_))));
        assert!(matches!(p("move"), Err(ParseError::MissingArgument { .. })));
        assert!(matches!(p("move JJ KK"), Err(ParseError::SplitTurn { .. })));
        assert!(matches!(p("move JZKK"), Err(ParseError::BadStones { .. })));
        assert!(matches!(
            p("move JJKKLL"),
            Err(ParseError::BadStones { .. })
        ));
        assert!(matches!(p("new purple"), Err(ParseError::BadColour(_))));
        assert!(matches!(p("depth 0"), Err(ParseError::OutOfRange { .. })));
        assert!(matches!(p("time -1"), Err(ParseError::OutOfRange { .. })));
        assert!(matches!(p("time NaN"), Err(ParseError::BadNumber { .. })));
        assert!(matches!(
            p("time left"),
            Err(ParseError::MissingArgument { .. })
        ));
        assert!(matches!(
            p("time left 0"),
            Err(ParseError::OutOfRange { .. })
        ));
        assert!(matches!(
            p("time left 5 6"),
            Err(ParseError::UnexpectedArgument { .. })
        ));
        assert!(matches!(
            p("name? please"),
            Err(ParseError::UnexpectedArgument { .. })
        ));
    }

    fn message(line: &str) -> String {
        p(line).expect_err(line).to_string()
    }

    #[test]
    fn numbers_outside_their_range_say_the_range() {
        assert_eq!(
            message("depth 0"),
            "'depth': '0' is out of range (turns 1..=60)"
        );
        assert_eq!(
            message("depth 61"),
            "'depth': '61' is out of range (turns 1..=60)"
        );
        assert_eq!(
            message("depth 300"),
            "'depth': '300' is out of range (turns 1..=60)"
        );
        assert_eq!(
            message("time 86401"),
            "'time': '86401' is out of range (0 < seconds <= 86400)"
        );
        assert_eq!(
            message("time -1"),
            "'time': '-1' is out of range (0 < seconds <= 86400)"
        );
        assert_eq!(
            message("time inf"),
            "'time': 'inf' is out of range (0 < seconds <= 86400)"
        );
        assert_eq!(
            message("time left 1000001"),
            "'time left': '1000001' is out of range (0 < seconds <= 1000000)"
        );
        assert_eq!(p("time 86400"), Ok(Command::Time(86_400.0)));
        assert_eq!(p("time left 1000000"), Ok(Command::TimeLeft(1e6)));
        assert_eq!(p("depth 60"), Ok(Command::Depth(60)));
        // Words that are no number at all stay "not a valid number".
        assert_eq!(
            message("depth many"),
            "'depth': 'many' is not a valid number"
        );
        assert_eq!(message("time NaN"), "'time': 'NaN' is not a valid number");
    }

    #[test]
    fn stone_errors_quote_the_input_escaped() {
        assert_eq!(
            message("move JJ\u{0}KK"),
            "'move': 'JJ\\u{0}KK' is not two letters per stone"
        );
        assert_eq!(
            message("move é@@"),
            "'move': '\\u{e9}@@' is not two letters per stone"
        );
        assert_eq!(
            message("black JJ\tK"),
            "'black': 'JJK' is not two letters per stone"
        );
    }

    #[test]
    fn hints_for_the_usual_slips() {
        assert_eq!(
            message("move JJ KK"),
            "'move' takes no 'KK': a turn's stones are written together, 'move JJKK'"
        );
        assert_eq!(
            message("move jj @@"),
            "'move' takes no '@@': a turn's stones are written together, 'move JJ@@'"
        );
        // Words that make no turn together get the plain message.
        assert_eq!(message("move JJ KK LL"), "'move' takes no 'KK'");
        assert_eq!(
            message("name"),
            "unknown command 'name' (the command is 'name?')"
        );
        assert_eq!(message("nam"), "unknown command 'nam' (try 'help')");
    }
}

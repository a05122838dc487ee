//! The referee protocol as data: one `Command` per input line, parsed whole before anything
//! acts on it. See `protocol.md` for the conversation.

use crate::rules::board::Color;
use crate::rules::coord::{Cell, CoordError, Turn, parse_cells};
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
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
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
        }
    }
}

impl std::error::Error for ParseError {}

fn colour(word: &str) -> Result<Color, ParseError> {
    word.parse()
        .map_err(|_| ParseError::BadColour(word.to_string()))
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
                match text.parse::<u8>() {
                    Ok(d) if (1..=60).contains(&d) => Ok(Command::Depth(d)),
                    _ => Err(ParseError::BadNumber {
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
                match text.parse::<f64>() {
                    Ok(t) if t.is_finite() && t > 0.0 && t <= 1e6 => Ok(Command::TimeLeft(t)),
                    _ => Err(ParseError::BadNumber {
                        command: "time left",
                        text: text.to_string(),
                    }),
                }
            }
            "time" => {
                let text = one("time", "seconds per move")?;
                match text.parse::<f64>() {
                    Ok(t) if t.is_finite() && t > 0.0 && t <= 86_400.0 => Ok(Command::Time(t)),
                    _ => Err(ParseError::BadNumber {
                        command: "time",
                        text: text.to_string(),
                    }),
                }
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
        assert!(matches!(
            p("move JJ KK"),
            Err(ParseError::UnexpectedArgument { .. })
        ));
        assert!(matches!(p("move JZKK"), Err(ParseError::BadStones { .. })));
        assert!(matches!(
            p("move JJKKLL"),
            Err(ParseError::BadStones { .. })
        ));
        assert!(matches!(p("new purple"), Err(ParseError::BadColour(_))));
        assert!(matches!(p("depth 0"), Err(ParseError::BadNumber { .. })));
        assert!(matches!(p("time -1"), Err(ParseError::BadNumber { .. })));
        assert!(matches!(p("time NaN"), Err(ParseError::BadNumber { .. })));
        assert!(matches!(
            p("time left"),
            Err(ParseError::MissingArgument { .. })
        ));
        assert!(matches!(
            p("time left 0"),
            Err(ParseError::BadNumber { .. })
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
}

//! One engine process's conversation with a referee: the game state the protocol commands act
//! on, and the line loop around it. It sees the search only through `Player`.

use crate::engine::pairs::any_legal_turn;
use crate::protocol::command::{Command, HELP, MAX_LINE, ParseError};
use crate::rules::board::{Board, Color, RuleError};
use crate::rules::coord::{Cell, Turn};
use std::fmt;
use std::io::{self, BufRead, Write};

/// Whatever chooses our moves.
pub trait Player {
    /// A new game starts: forget the last one.
    fn new_game(&mut self);
    /// A turn for the side to move of a game that is not over.
    fn choose(&mut self, board: &Board) -> Turn;
    fn set_depth(&mut self, depth: u8);
    fn set_move_time(&mut self, seconds: f64);
    /// The time left for the rest of this game (`time left SECONDS`). Players without a
    /// clock ignore it.
    fn set_game_left(&mut self, _seconds: f64) {}
    /// The opponent is to move in `board` and we wait: a player may think meanwhile, on its
    /// own thread. Called again while it waits; it must keep stdout untouched.
    fn ponder_start(&mut self, _board: &Board) {}
    /// Whatever `ponder_start` began ends now (the game changed other than by the
    /// opponent's move, which `choose` receives).
    fn ponder_stop(&mut self) {}
}

#[derive(Debug, Clone, PartialEq)]
pub enum SessionError {
    /// A `move`, `next` or bare colour arrived with no game to apply it to.
    NoGame(&'static str),
    /// The opponent's `move` arrived while it is our turn.
    NotOpponentsTurn,
    /// A bare `black`/`white` line that does not follow a lone `new`.
    UnexpectedColour,
    /// `undo` with no turn to take back since the game began (or `end` came).
    NothingToUndo,
    Rule(RuleError),
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::NoGame(what) => write!(
                f,
                "no game in progress for '{what}' (send 'new black' or 'new white')"
            ),
            SessionError::NotOpponentsTurn => {
                write!(f, "it is our turn, not the opponent's: move ignored")
            }
            SessionError::UnexpectedColour => write!(f, "a colour line must follow a lone 'new'"),
            SessionError::NothingToUndo => write!(f, "nothing to undo since the game began"),
            SessionError::Rule(e) => write!(f, "illegal: {e}"),
        }
    }
}

impl From<RuleError> for SessionError {
    fn from(e: RuleError) -> Self {
        SessionError::Rule(e)
    }
}

/// Everything a line can go wrong with, reported in one place.
#[derive(Debug)]
pub enum LineError {
    TooLong(usize),
    NotText,
    Parse(ParseError),
    Session(SessionError),
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::TooLong(n) => {
                write!(f, "line of {n}+ bytes ignored (the limit is {MAX_LINE})")
            }
            LineError::NotText => write!(f, "line is not UTF-8 text: ignored"),
            LineError::Parse(e) => write!(f, "{e}"),
            LineError::Session(e) => write!(f, "{e}"),
        }
    }
}

/// What handling a command produced.
#[derive(Debug, PartialEq)]
pub enum Response {
    Silent,
    Reply(String),
    Quit,
}

/// One turn (or placement line) as played, and what it changed, so `undo` can restore it.
#[derive(Debug, Clone)]
struct Played {
    color: Color,
    cells: Vec<Cell>,
    /// Our colour and the set-up flag before this turn.
    me: Option<Color>,
    set_up: bool,
}

pub struct Session<P: Player> {
    player: P,
    name: String,
    /// Write black's single first stone as `XY@@` (the platform's form) rather than `XY`.
    long_first_move: bool,
    board: Board,
    /// Our colour while a game is on.
    me: Option<Color>,
    /// A lone `new` came; the colour comes next.
    awaiting_colour: bool,
    /// Stones were set up with `black`/`white` since the game began: our colour is whatever
    /// the next `move` leaves us (a referee sets openings up with `new white` for both sides).
    set_up: bool,
    /// Every turn and placement since the board was last cleared, oldest first.
    history: Vec<Played>,
}

impl<P: Player> Session<P> {
    pub fn new(player: P, name: &str, long_first_move: bool) -> Self {
        Session {
            player,
            name: name.to_string(),
            long_first_move,
            board: Board::new(),
            me: None,
            awaiting_colour: false,
            set_up: false,
            history: Vec::new(),
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Applies one command; on error nothing has changed.
    pub fn handle(&mut self, command: Command) -> Result<Response, SessionError> {
        use Response::*;
        if matches!(
            command,
            Command::New(_)
                | Command::Colour(_)
                | Command::End
                | Command::Quit
                | Command::Place(..)
                | Command::Next
        ) {
            self.player.ponder_stop();
        }
        Ok(match command {
            Command::Name => Reply(format!("name {}", self.name)),
            Command::New(Some(colour)) => self.start(colour),
            Command::New(None) => {
                self.board = Board::new();
                self.history.clear();
                self.me = None;
                self.awaiting_colour = true;
                Silent
            }
            Command::Colour(colour) => {
                if !self.awaiting_colour {
                    return Err(SessionError::UnexpectedColour);
                }
                self.start(colour)
            }
            Command::Move(turn) => return self.opponent_moved(turn),
            Command::End => {
                log::info!("game over ({} stones)", self.board.stone_total());
                self.me = None;
                self.awaiting_colour = false;
                self.set_up = false;
                // The stones stay for `board`; the game's turns can no longer be taken back.
                self.history.clear();
                Silent
            }
            Command::RefereeError => {
                log::warn!("the referee rejected our last move");
                Silent
            }
            Command::Quit => Quit,
            Command::Place(colour, cells) => {
                self.place(colour, &cells)?;
                Silent
            }
            Command::Next => {
                if !self.has_position() {
                    return Err(SessionError::NoGame("next"));
                }
                if self.board.is_over() {
                    return Err(RuleError::GameOver.into());
                }
                self.awaiting_colour = false;
                self.set_up = false;
                self.me = Some(self.board.side_to_move());
                self.reply()
            }
            Command::Board => {
                let last = self.history.last().map(|p| (p.color, p.cells.as_slice()));
                eprint!("{}", describe_position(&self.board, last, self.me));
                Silent
            }
            Command::Undo => {
                let played = self.history.pop().ok_or(SessionError::NothingToUndo)?;
                for &c in &played.cells {
                    self.board.remove(c);
                }
                self.me = played.me;
                self.set_up = played.set_up;
                log::info!("took back {} {}", played.color, cells_text(&played.cells));
                Silent
            }
            Command::Help => {
                eprintln!("{HELP}");
                Silent
            }
            Command::Depth(d) => {
                self.player.set_depth(d);
                Silent
            }
            Command::Time(t) => {
                self.player.set_move_time(t);
                Silent
            }
            Command::TimeLeft(t) => {
                self.player.set_game_left(t);
                Silent
            }
        })
    }

    fn start(&mut self, colour: Color) -> Response {
        self.board = Board::new();
        self.history.clear();
        self.player.new_game();
        self.me = Some(colour);
        self.awaiting_colour = false;
        self.set_up = false;
        log::info!("new game, we play {colour}");
        if colour == Color::Black {
            self.reply()
        } else {
            Response::Silent
        }
    }

    /// Whether `move` and `next` have a position to play on: a game, or stones set up by hand
    /// since the last `new` or `end` (whose side to move the stone counts decide).
    fn has_position(&self) -> bool {
        self.me.is_some() || self.set_up
    }

    fn opponent_moved(&mut self, turn: Turn) -> Result<Response, SessionError> {
        if !self.has_position() {
            return Err(SessionError::NoGame("move"));
        }
        if self.board.is_over() {
            return Err(RuleError::GameOver.into());
        }
        let mover = self.board.side_to_move();
        if Some(mover) == self.me && !self.set_up {
            return Err(SessionError::NotOpponentsTurn);
        }
        self.board.play_turn(&turn)?;
        self.record(mover, turn.cells().collect());
        if self.me != Some(mover.other()) {
            log::info!("after the set-up stones we play {}", mover.other());
        }
        self.me = Some(mover.other());
        self.awaiting_colour = false;
        self.set_up = false;
        if self.board.is_over() {
            // The game ended on the opponent's stones: any reply would be read as a move of
            // the next game.
            log::info!("the opponent's move ends the game");
            self.player.ponder_stop();
            return Ok(Response::Silent);
        }
        Ok(self.reply())
    }

    fn place(&mut self, colour: Color, cells: &[Cell]) -> Result<(), SessionError> {
        if self.board.is_over() {
            return Err(RuleError::GameOver.into());
        }
        if let Some(&c) = cells.iter().find(|&&c| !self.board.is_empty(c)) {
            return Err(RuleError::Occupied(c).into());
        }
        for &c in cells {
            self.board.place(c, colour);
        }
        self.record(colour, cells.to_vec());
        self.set_up = true;
        Ok(())
    }

    /// Notes a turn just placed on the board, with the state it changed.
    fn record(&mut self, color: Color, cells: Vec<Cell>) {
        self.history.push(Played {
            color,
            cells,
            me: self.me,
            set_up: self.set_up,
        });
    }

    /// Lets the player think on the opponent's time if a game is on and the opponent is to
    /// move. Called after each reply has gone out.
    pub fn wait_for_opponent(&mut self) {
        if let Some(me) = self.me
            && !self.set_up
            && !self.board.is_over()
            && self.board.side_to_move() != me
        {
            self.player.ponder_start(&self.board);
        }
    }

    /// Thinks, plays and spells our turn. Never emits an illegal one.
    fn reply(&mut self) -> Response {
        let mut turn = self.player.choose(&self.board);
        if let Err(e) = self.board.check_turn(&turn) {
            log::error!("search proposed an illegal turn {turn} ({e}); playing a legal one");
            turn = any_legal_turn(&self.board).expect("a game not over has an empty cell");
        }
        let color = self.board.side_to_move();
        self.board.play_turn(&turn).expect("checked just above");
        self.record(color, turn.cells().collect());
        if let Some(w) = self.board.winner() {
            log::info!("{w} wins with {turn}");
        }
        Response::Reply(format!("move {}", turn.to_protocol(self.long_first_move)))
    }
}

fn cells_text(cells: &[Cell]) -> String {
    cells.iter().map(Cell::to_string).collect()
}

/// What `board` prints: the drawing (see `Board::render`) with the stones of the last turn
/// bracketed, `[X]`, then the last turn and whose turn it is.
pub fn describe_position(
    board: &Board,
    last: Option<(Color, &[Cell])>,
    me: Option<Color>,
) -> String {
    // Left to right, so that two stones side by side share their middle bracket whichever
    // order the turn was written in.
    let mut marked = last.map_or(Vec::new(), |(_, cells)| cells.to_vec());
    marked.sort_by_key(|c| (c.row(), c.col()));
    let mut out = String::new();
    for (row, line) in board.render().lines().enumerate() {
        let mut chars: Vec<char> = line.chars().collect();
        // Row lines hold the cell of column `col` at 3 + 2 * col, with spaces between.
        for c in marked.iter().filter(|c| row == c.row() + 1) {
            let at = 3 + 2 * c.col();
            chars[at - 1] = if chars[at - 1] == ']' { '|' } else { '[' };
            if chars.len() == at + 1 {
                chars.push(' ');
            }
            chars[at + 1] = ']';
        }
        out.extend(chars);
        out.push('\n');
    }
    match last {
        Some((color, cells)) => {
            out.push_str(&format!("last turn: {color} {}\n", cells_text(cells)))
        }
        None => out.push_str("last turn: none\n"),
    }
    let engine = match me {
        Some(c) => format!("the engine plays {c}"),
        None => "no game in progress".to_string(),
    };
    let state = match board.winner() {
        Some(w) => format!("game over: {w} has six"),
        None if board.is_full() => "game over: the board is full".to_string(),
        None => format!("{} to move", board.side_to_move()),
    };
    out.push_str(&format!("{state}; {engine}\n"));
    out
}

/// Reads one line of at most `MAX_LINE` bytes (line end excluded) into `buf`; longer lines
/// are consumed to their end and reported. `Ok(None)` at end of input.
fn read_line(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
) -> io::Result<Option<Result<(), LineError>>> {
    buf.clear();
    let mut total = 0usize;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok((total > 0).then(|| check_length(total)));
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let room = (MAX_LINE + 2).saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..take.min(room)]);
        total += take;
        input.consume(take);
        if done {
            return Ok(Some(check_length(total)));
        }
    }
}

fn check_length(total: usize) -> Result<(), LineError> {
    // Allow for "\r\n" on top of the limit.
    if total > MAX_LINE + 2 {
        Err(LineError::TooLong(MAX_LINE + 1))
    } else {
        Ok(())
    }
}

fn decode(bytes: &[u8]) -> Result<&str, LineError> {
    let text = std::str::from_utf8(bytes).map_err(|_| LineError::NotText)?;
    let text = text.trim_end_matches(['\n', '\r']);
    if text.len() > MAX_LINE {
        return Err(LineError::TooLong(text.len()));
    }
    Ok(text)
}

/// Serves protocol lines from `input` until `quit` or end of input. Replies go to `output`,
/// flushed at once; every bad line gets one error line on stderr and changes nothing.
pub fn serve<P: Player>(
    session: &mut Session<P>,
    mut input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    let mut buf = Vec::with_capacity(MAX_LINE + 2);
    while let Some(read) = read_line(&mut input, &mut buf)? {
        let result = read.and_then(|()| {
            let text = decode(&buf)?;
            if text.trim().is_empty() {
                return Ok(Response::Silent);
            }
            let command: Command = text.parse().map_err(LineError::Parse)?;
            session.handle(command).map_err(LineError::Session)
        });
        match result {
            Ok(Response::Silent) => {}
            Ok(Response::Reply(line)) => {
                writeln!(output, "{line}")?;
                output.flush()?;
                session.wait_for_opponent();
            }
            Ok(Response::Quit) => break,
            Err(e) => log::error!("{e}"),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays the first two empty cells near the centre: enough to test the conversation.
    struct Scripted;
    impl Player for Scripted {
        fn new_game(&mut self) {}
        fn choose(&mut self, board: &Board) -> Turn {
            any_legal_turn(board).unwrap()
        }
        fn set_depth(&mut self, _: u8) {}
        fn set_move_time(&mut self, _: f64) {}
    }

    fn run(input: &[u8]) -> String {
        let mut s = Session::new(Scripted, "Test", true);
        let mut out = Vec::new();
        serve(&mut s, input, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn handshake_and_first_move() {
        assert_eq!(run(b"name?\nnew black\n"), "name Test\nmove AA@@\n");
        assert_eq!(run(b"new\r\nblack\r\n"), "move AA@@\n");
    }

    #[test]
    fn white_answers_each_move_form() {
        assert_eq!(run(b"new white\nmove JJ@@\n"), "move AABA\n");
        assert_eq!(run(b"new white\nmove JJ\n"), "move AABA\n");
    }

    #[test]
    fn bad_lines_change_nothing() {
        let long = format!("move {}\n", "J".repeat(400));
        let input = [
            b"new white\n".as_slice(),
            b"\xff\xfe garbage\n",
            long.as_bytes(),
            b"move JJKK\n", // black's first turn has one stone
            b"move ZZ\n",
            b"black\n", // colour without 'new'
            b"move JJ\n",
        ]
        .concat();
        assert_eq!(run(&input), "move AABA\n");
    }

    #[test]
    fn no_reply_after_a_winning_move() {
        let mut s = Session::new(Scripted, "Test", true);
        for line in ["new white", "black JAJBJCJDJE"] {
            s.handle(line.parse().unwrap()).unwrap();
        }
        s.handle("white SSAS".parse().unwrap()).unwrap();
        s.handle("white QQAQ".parse().unwrap()).unwrap();
        s.handle("white SOAO".parse().unwrap()).unwrap();
        assert_eq!(s.handle("move JFKK".parse().unwrap()), Ok(Response::Silent));
        assert_eq!(s.board().winner(), Some(Color::Black));
    }

    #[test]
    fn an_opening_set_up_by_stones_decides_our_colour() {
        // Both engines get `new white` and the opening; the one not sent `next` learns it
        // is black from the opponent's move.
        let out = run(b"new white\nblack JJ\nwhite KJKK\nblack IIHH\nmove LLMM\n");
        assert_eq!(out, "move AABA\n");
    }

    #[test]
    fn undo_takes_back_one_turn_at_a_time() {
        let mut s = Session::new(Scripted, "Test", true);
        assert_eq!(s.handle(Command::Undo), Err(SessionError::NothingToUndo));
        s.handle("new white".parse().unwrap()).unwrap();
        let reply = s.handle("move JJ".parse().unwrap()).unwrap();
        assert_eq!(reply, Response::Reply("move AABA".into()));
        assert_eq!(s.board().stone_total(), 3);
        // Our reply goes first; the engine does not move again by itself.
        assert_eq!(s.handle(Command::Undo), Ok(Response::Silent));
        assert_eq!(s.board().stone_total(), 1);
        assert_eq!(s.board().side_to_move(), Color::White);
        assert_eq!(
            s.handle("move KKLL".parse().unwrap()),
            Err(SessionError::NotOpponentsTurn)
        );
        s.handle(Command::Undo).unwrap();
        assert_eq!(s.board().stone_total(), 0);
        assert_eq!(s.handle(Command::Undo), Err(SessionError::NothingToUndo));
        // The last turn is bracketed; whose turn it is follows the drawing.
        s.handle("white KJLJ".parse().unwrap()).unwrap();
        let last = s.history.last().map(|p| (p.color, p.cells.as_slice()));
        let text = describe_position(s.board(), last, s.me);
        assert!(
            text.contains("J  . . . . . . . . . .[O|O]. . . . . . .\n"),
            "{text}"
        );
        assert!(text.ends_with("last turn: white KJLJ\nblack to move; the engine plays white\n"));
    }

    #[test]
    fn next_and_move_need_a_game_or_set_up_stones() {
        let mut s = Session::new(Scripted, "Test", true);
        // Before any `new`, and after a lone `new` whose colour has not come.
        for _ in 0..2 {
            assert_eq!(s.handle(Command::Next), Err(SessionError::NoGame("next")));
            assert_eq!(
                s.handle("move JJ".parse().unwrap()),
                Err(SessionError::NoGame("move"))
            );
            assert_eq!(s.board().stone_total(), 0);
            s.handle(Command::New(None)).unwrap();
        }
        // Stones set up by hand are a position to play on, for both.
        assert_eq!(run(b"black JJ\nnext\n"), "move AABA\n");
        assert_eq!(run(b"black JJ\nmove KKLL\n"), "move AABA\n");
        // `end` closes that position too.
        assert_eq!(run(b"black JJ\nend\nnext\nmove KKLL\n"), "");
    }

    #[test]
    fn side_by_side_last_stones_read_the_same_in_either_order() {
        let mut board = Board::new();
        let (k, l) = (Cell::new(10, 9).unwrap(), Cell::new(11, 9).unwrap());
        board.place(k, Color::White);
        board.place(l, Color::White);
        let draw = |cells: &[Cell]| describe_position(&board, Some((Color::White, cells)), None);
        let row = "J  . . . . . . . . . .[O|O]. . . . . . .\n";
        assert!(draw(&[k, l]).contains(row), "{}", draw(&[k, l]));
        assert!(draw(&[l, k]).contains(row), "{}", draw(&[l, k]));
    }

    #[test]
    fn quit_stops_reading() {
        assert_eq!(run(b"quit\nname?\n"), "");
    }
}

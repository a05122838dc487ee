//! `connect6 show RECORD [--svg FILE] [--upto N]`: a game's board as text with turn numbers,
//! and as an SVG diagram (grid with protocol coordinates, numbered stones, the last turn
//! ringed, a winning six drawn through).
//!
//! Exit codes: 0 shown, 1 a file that cannot be read or written, 2 bad input (no record, no
//! stone list, `--upto` past the end).

use crate::record::draw::{svg, text};
use crate::record::game::Game;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug, Clone)]
pub struct ShowArgs {
    /// A record file in the competition format, or a stone list such as `JJ KJKK IIHH`
    /// (one word per turn, protocol spelling).
    #[arg(required = true, value_name = "RECORD")]
    pub record: Vec<String>,
    /// Also write the diagram as SVG to this file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Show the position after turn N (turn 1 is black's first stone); default: the end.
    #[arg(long, value_name = "N")]
    pub upto: Option<usize>,
}

pub fn run(args: ShowArgs) -> ExitCode {
    let game = match Game::load(&args.record) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("connect6 show: {e}");
            return ExitCode::from(e.exit_code());
        }
    };
    let upto = args.upto.unwrap_or(game.turns.len());
    if upto > game.turns.len() {
        eprintln!(
            "connect6 show: --upto {upto}: the game has {} turns",
            game.turns.len()
        );
        return ExitCode::from(2);
    }
    print!("{}", text(&game, upto));
    if let Some(path) = args.svg
        && let Err(e) = std::fs::write(&path, svg(&game, upto))
    {
        eprintln!("connect6 show: {}: {e}", path.display());
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

//! The threats on the board: for each side, the empty cells of every window of six that
//! holds four or five of its stones and none of the other's, so that one turn there makes
//! six. The page marks them, with the engine's expected line as ghost stones, under a switch.

use crate::rules::board::{Board, Color};
use crate::rules::coord::Cell;
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// A window is six cells in a line.
const WINDOW: i32 = 6;
/// Stones of one side a window needs before one turn (two stones) completes it.
const ONE_TURN_AWAY: usize = WINDOW as usize - 2;

/// The empty cells that complete a six for `color` in one turn, in protocol spelling.
fn threat_cells(board: &Board, color: Color) -> BTreeSet<String> {
    let mut cells = BTreeSet::new();
    for start in Cell::all() {
        for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            let window: Option<Vec<Cell>> = (0..WINDOW).map(|k| start.offset(dc, dr, k)).collect();
            let Some(window) = window else { continue };
            let stones = window.iter().map(|&c| board.get(c));
            let own = stones.clone().filter(|s| *s == Some(color)).count();
            let other = stones.filter(|s| *s == Some(color.other())).count();
            if own >= ONE_TURN_AWAY && other == 0 {
                cells.extend(
                    window
                        .iter()
                        .filter(|&&c| board.get(c).is_none())
                        .map(|c| c.to_string()),
                );
            }
        }
    }
    cells
}

/// Both sides' threat cells: `{ "black": [...], "white": [...] }`.
pub fn threats(board: &Board) -> Value {
    json!({
        "black": threat_cells(board, Color::Black),
        "white": threat_cells(board, Color::White),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_in_a_free_window_is_a_threat_and_a_blocked_one_is_not() {
        // Black JJ JK JL JM in column J; white's KK, KL beside them block nothing.
        let board = Board::from_turns("JJ KKKL JKJL AAAB JMSA").expect("a position");
        let view = threats(&board);
        let black: Vec<&str> = view["black"]
            .as_array()
            .expect("cells")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        // Windows JH-JM, JI-JN, JJ-JO: their empty cells.
        assert_eq!(black, vec!["JH", "JI", "JN", "JO"]);
        assert_eq!(view["white"], json!([]));
        // White closes JN: only the windows above stay open.
        let board = Board::from_turns("JJ KKKL JKJL AAAB JMSA JNSS").expect("a position");
        let view = threats(&board);
        assert_eq!(view["black"], json!(["JH", "JI"]));
    }
}

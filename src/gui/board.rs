//! A game as the page draws it: the SVG `show --svg` draws (turn numbers, the last turn
//! ringed, a winning six drawn through), the turn list, and the grid's geometry so that a
//! click on the picture finds its cell.

use crate::record::RecordResult;
use crate::record::draw;
use crate::record::game::{Game, Played, result_words};
use crate::rules::board::Color;
use serde_json::{Value, json};

/// Where `record::draw` puts the grid, in SVG units: the first line's offset and the step.
/// A unit test checks them against a drawn stone, so a change of the drawing is noticed.
pub const MARGIN: usize = 48;
pub const STEP: usize = 32;

/// The record result for a winner (`Some(None)` is a draw, `None` a game going on).
pub fn result_of(winner: Option<Option<Color>>) -> Option<RecordResult> {
    winner.map(|w| match w {
        Some(Color::Black) => RecordResult::BlackWins,
        Some(Color::White) => RecordResult::WhiteWins,
        None => RecordResult::Draw,
    })
}

/// The view of a game after `upto` of its turns.
pub fn view_of(game: &Game, upto: usize, times: &[Option<f64>]) -> Value {
    let upto = upto.min(game.turns.len());
    let turns: Vec<Value> = game
        .turns
        .iter()
        .enumerate()
        .map(|(i, p)| {
            json!({
                "number": i + 1,
                "color": p.color.name(),
                "cells": p.turn.to_string(),
                "time": times.get(i).copied().flatten(),
            })
        })
        .collect();
    json!({
        "black": game.black,
        "white": game.white,
        "result": game.result.map(result_words),
        "upto": upto,
        "turns": turns,
        "svg": draw::svg(game, upto),
        "threats": super::overlay::threats(&game.board_after(upto)),
        "margin": MARGIN,
        "step": STEP,
    })
}

/// The view of a game in progress (or just ended) from its turns.
pub fn game_view(
    black: &str,
    white: &str,
    turns: &[Played],
    times: &[Option<f64>],
    winner: Option<Option<Color>>,
) -> Value {
    let game = Game {
        black: black.to_string(),
        white: white.to_string(),
        result: result_of(winner),
        about: String::new(),
        turns: turns.to_vec(),
    };
    view_of(&game, turns.len(), times)
}

/// The empty board, drawn as any game is: the page shows it in every mode until there is a
/// game, so the board is there, with its coordinates, from the first second.
pub fn empty_view() -> Value {
    game_view("black", "white", &[], &[], None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::coord::Turn;

    #[test]
    fn the_grid_geometry_matches_the_drawing() {
        let turns = [Played {
            color: Color::Black,
            turn: Turn::parse("CJ").expect("a cell"),
        }];
        let view = game_view("a", "b", &turns, &[], None);
        let svg = view["svg"].as_str().unwrap_or_default();
        // Column C is the third line, row J the tenth.
        let (x, y) = (MARGIN + 2 * STEP, MARGIN + 9 * STEP);
        assert!(
            svg.contains(&format!(r#"cx="{x}" cy="{y}""#)),
            "the stone is not where the page's clicks expect it"
        );
        assert_eq!(view["turns"][0]["cells"], "CJ");
        assert_eq!(view["result"], Value::Null);
        let over = game_view("a", "b", &turns, &[], Some(Some(Color::White)));
        assert_eq!(over["result"], "white wins");
    }
}

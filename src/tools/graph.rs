//! The score graph: one point per turn, the engine's score for the position after it from
//! black's view, mapped to black's winning chance by the evaluation's own logistic scale
//! (black up, white down; a proven win at the edge). Drawn as SVG here, for the board's
//! Review and for `analyse --svg`, which puts it under the board.

use crate::engine::eval::{ENGINE_TABLE_K, WIN_BOUND};
use crate::record::game::Game;
use std::fmt::Write as _;

/// The graph's width and height in SVG units (the board's width, so the two stack).
pub const WIDTH: usize = 672;
pub const HEIGHT: usize = 200;
const LEFT: usize = 56;
const RIGHT: usize = 16;
const TOP: usize = 14;
const BOTTOM: usize = 26;

/// The engine's view of the position after one turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Point {
    /// Turn number, 1 for black's first stone.
    pub turn: usize,
    /// The score from black's view, in the evaluation's units; beyond `WIN_BOUND` a proven
    /// win (or loss), as the search reports it.
    pub score: i32,
    /// The depth searched (0 for a finished game, or a turn forced without search).
    pub depth: u8,
}

impl Point {
    pub fn chance(&self) -> f64 {
        chance(self.score)
    }

    /// A win the search proved, for either side.
    pub fn proven(&self) -> bool {
        self.score.abs() > WIN_BOUND
    }
}

/// Black's winning chance for a score from black's view.
pub fn chance(score: i32) -> f64 {
    if score > WIN_BOUND {
        1.0
    } else if score < -WIN_BOUND {
        0.0
    } else {
        1.0 / (1.0 + (-ENGINE_TABLE_K * f64::from(score)).exp())
    }
}

/// What the graph marks besides its points.
#[derive(Clone, Copy, Debug, Default)]
pub struct Marks {
    /// The turn `analyse` shows as the loser's mistake.
    pub losing: Option<usize>,
    /// The turn on the board.
    pub upto: Option<usize>,
}

fn x_of(turn: usize, turns: usize) -> f64 {
    let plot = (WIDTH - LEFT - RIGHT) as f64;
    LEFT as f64 + plot * turn as f64 / turns.max(1) as f64
}

fn y_of(chance: f64) -> f64 {
    let plot = (HEIGHT - TOP - BOTTOM) as f64;
    TOP as f64 + plot * (1.0 - chance)
}

/// The frame: the 50% line, the two sides' edges, turn numbers along the bottom.
fn frame(w: &mut String, turns: usize) {
    let (l, r) = (LEFT, WIDTH - RIGHT);
    let (top, mid, bottom) = (y_of(1.0), y_of(0.5), y_of(0.0));
    writeln!(
        w,
        r##"<rect class="graph-back" x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#f4efe4"/>"##
    )
    .unwrap();
    writeln!(
        w,
        r##"<rect x="{l}" y="{top}" width="{}" height="{}" fill="#fbf8f1" stroke="#6b5432"/>"##,
        r - l,
        bottom - top
    )
    .unwrap();
    writeln!(
        w,
        r##"<line x1="{l}" y1="{mid}" x2="{r}" y2="{mid}" stroke="#6b5432" stroke-dasharray="4 3"/>"##
    )
    .unwrap();
    writeln!(
        w,
        r##"<g class="graph-labels" font-size="11" fill="#3a2a10" text-anchor="end">"##
    )
    .unwrap();
    let x = LEFT - 4;
    for (y, text) in [(top + 4.0, "black"), (mid + 4.0, "50%"), (bottom, "white")] {
        writeln!(w, r#"<text x="{x}" y="{y}">{text}</text>"#).unwrap();
    }
    writeln!(w, "</g>").unwrap();
    let every = match turns {
        0..=10 => 1,
        11..=20 => 5,
        21..=60 => 10,
        _ => 20,
    };
    writeln!(
        w,
        r##"<g class="graph-turns" font-size="11" fill="#3a2a10" text-anchor="middle">"##
    )
    .unwrap();
    for t in (0..=turns).step_by(every) {
        let x = x_of(t, turns);
        writeln!(w, r#"<text x="{x:.1}" y="{}">{t}</text>"#, HEIGHT - 8).unwrap();
    }
    writeln!(w, "</g>").unwrap();
}

/// The graph of `points` over a game of `turns` turns, as one `<svg>` element (placed at
/// `y` when it goes inside another). Each point is a circle with `data-turn`, `data-score`
/// and `data-chance`, over a column (`class="hit"`) that takes the click for its turn.
pub fn svg(points: &[Point], turns: usize, marks: Marks, y: usize) -> String {
    let mut s = String::new();
    let w = &mut s;
    writeln!(
        w,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="score-graph" y="{y}" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="DejaVu Sans, Arial, sans-serif">"#
    )
    .unwrap();
    writeln!(
        w,
        "<title>black's winning chance after each turn (engine's score, logistic scale {ENGINE_TABLE_K})</title>"
    )
    .unwrap();
    frame(w, turns);
    let (top, bottom) = (y_of(1.0), y_of(0.0));
    if let Some(n) = marks.losing {
        let x = x_of(n, turns);
        writeln!(
            w,
            r##"<line class="losing" x1="{x:.1}" y1="{top}" x2="{x:.1}" y2="{bottom}" stroke="#e0201a" stroke-width="3" stroke-opacity="0.6"><title>losing turn {n}</title></line>"##
        )
        .unwrap();
    }
    if let Some(n) = marks.upto {
        let x = x_of(n, turns);
        writeln!(
            w,
            r##"<line class="graph-now" x1="{x:.1}" y1="{top}" x2="{x:.1}" y2="{bottom}" stroke="#1050a0" stroke-width="1.5"/>"##
        )
        .unwrap();
    }
    let path: Vec<String> = points
        .iter()
        .map(|p| format!("{:.1},{:.1}", x_of(p.turn, turns), y_of(p.chance())))
        .collect();
    writeln!(
        w,
        r##"<polyline class="graph-line" points="{}" fill="none" stroke="#3a2a10" stroke-width="1.5"/>"##,
        path.join(" ")
    )
    .unwrap();
    let column = (WIDTH - LEFT - RIGHT) as f64 / turns.max(1) as f64;
    for p in points {
        let (x, y) = (x_of(p.turn, turns), y_of(p.chance()));
        let mut class = String::from("point");
        if p.proven() {
            class.push_str(" proven");
        }
        if marks.losing == Some(p.turn) {
            class.push_str(" losing");
        }
        let (fill, r) = match (marks.losing == Some(p.turn), p.turn % 2 == 1) {
            (true, _) => ("#e0201a", 5),
            // Turn 1 and every odd turn is black's.
            (false, true) => ("#161616", 3),
            (false, false) => ("#f7f7f2", 3),
        };
        let title = format!(
            "turn {}: score {} for black, black's chance {:.0}%{}",
            p.turn,
            p.score,
            100.0 * p.chance(),
            if p.proven() { " (proven)" } else { "" }
        );
        writeln!(
            w,
            r##"<rect class="hit" data-turn="{}" x="{:.1}" y="{top}" width="{column:.1}" height="{}" fill="transparent"/>"##,
            p.turn,
            x - column / 2.0,
            bottom - top
        )
        .unwrap();
        writeln!(
            w,
            r##"<circle class="{class}" data-turn="{}" data-score="{}" data-chance="{:.4}" cx="{x:.1}" cy="{y:.1}" r="{r}" fill="{fill}" stroke="#3a2a10"><title>{title}</title></circle>"##,
            p.turn,
            p.score,
            p.chance()
        )
        .unwrap();
    }
    writeln!(w, "</svg>").unwrap();
    s
}

/// The board at the game's end with the graph under it: what `analyse --svg` writes.
pub fn with_board(game: &Game, points: &[Point], losing: Option<usize>) -> String {
    let board = crate::record::draw::svg(game, game.turns.len());
    let board = board.trim_start_matches(|c| c != '<');
    let board = match board.strip_prefix("<?xml") {
        Some(rest) => rest.split_once("?>").map_or(rest, |(_, r)| r).trim_start(),
        None => board,
    };
    // The board's own height, read from its root element, so the graph goes just below it.
    let height: usize = board
        .split_once("height=\"")
        .and_then(|(_, rest)| rest.split_once('"'))
        .and_then(|(h, _)| h.parse().ok())
        .unwrap_or(WIDTH);
    let marks = Marks { losing, upto: None };
    let total = height + HEIGHT;
    let mut s = String::new();
    writeln!(s, r#"<?xml version="1.0" encoding="UTF-8"?>"#).unwrap();
    writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{total}" viewBox="0 0 {WIDTH} {total}">"#
    )
    .unwrap();
    s.push_str(board);
    s.push_str(&svg(points, game.turns.len(), marks, height));
    writeln!(s, "</svg>").unwrap();
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::WIN;

    #[test]
    fn scores_map_to_chances_on_the_fitted_scale() {
        assert_eq!(chance(0), 0.5);
        assert_eq!(chance(WIN), 1.0);
        assert_eq!(chance(-WIN), 0.0);
        // ln 3 / K: the score at which the side is three times as likely to win as to lose.
        let three_to_one = (3f64.ln() / ENGINE_TABLE_K).round() as i32;
        assert!((chance(three_to_one) - 0.75).abs() < 1e-3);
        assert!((chance(-three_to_one) - 0.25).abs() < 1e-3);
    }

    #[test]
    fn the_graph_marks_each_point_and_the_losing_turn() {
        let points = [
            Point {
                turn: 1,
                score: 100,
                depth: 3,
            },
            Point {
                turn: 2,
                score: -WIN,
                depth: 0,
            },
        ];
        let marks = Marks {
            losing: Some(2),
            upto: Some(1),
        };
        let svg = svg(&points, 2, marks, 0);
        assert_eq!(svg.matches(r#"class="point"#).count(), 2);
        assert!(svg.contains(r#"class="point proven losing" data-turn="2""#));
        assert!(
            svg.contains(r#"data-chance="0.0000""#),
            "white's proven win"
        );
        // The bottom edge of the plot: white's win.
        let y = y_of(0.0);
        assert!(svg.contains(&format!(r#"cy="{y:.1}" r="5""#)), "{svg}");
        assert!(svg.contains(r#"class="graph-now""#));
    }
}

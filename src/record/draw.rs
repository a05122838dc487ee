//! A game as pictures: the board as text with turn numbers, and an SVG diagram (grid with
//! protocol coordinates, numbered stones, the last turn ringed, a winning six drawn through).

use super::Record;
use super::game::{Game, result_words, six_line};
use crate::rules::board::Color;
use crate::rules::coord::{Cell, SIZE};
use std::fmt::Write as _;

/// The SVG diagram of a whole record, for `match --records DIR --svg`.
pub fn svg_for_record(record: &Record) -> String {
    let game = Game::from_record(record);
    svg(&game, game.turns.len())
}

/// The players and the result; then date, place and event, if any.
fn caption(game: &Game) -> Vec<String> {
    let mut players = format!("{} (black) vs {} (white)", game.black, game.white);
    if let Some(r) = game.result {
        write!(players, ": {} ({})", r.text(), result_words(r)).unwrap();
    }
    let mut lines = vec![players];
    if !game.about.is_empty() {
        lines.push(game.about.clone());
    }
    lines
}

/// What the position shows: the last turn, the six, or whose turn it is.
fn status(game: &Game, upto: usize) -> String {
    let board = game.board_after(upto);
    let mut s = format!("after turn {upto} of {}", game.turns.len());
    if let Some(last) = upto.checked_sub(1).map(|i| game.turns[i]) {
        write!(s, "; last turn {upto}: {} {}", last.color, last.turn).unwrap();
    }
    match six_line(&board) {
        Some((color, a, b)) => write!(s, "; {color} has six {a}-{b}").unwrap(),
        None if board.is_full() => s.push_str("; the board is full"),
        // A game decided by time, fault or adjudication.
        None if upto == game.turns.len() && game.result.is_some() => {
            s.push_str("; no six: the record's result stands")
        }
        None => write!(s, "; {} to move", board.side_to_move()).unwrap(),
    }
    s
}

/// The board after `upto` turns as text: `X` black, `O` white, each with its turn number,
/// coordinates in protocol letters.
pub fn text(game: &Game, upto: usize) -> String {
    let board = game.board_after(upto);
    let numbers = game.turn_numbers(upto);
    let width = 2 + upto.max(1).to_string().len();
    let mut out = caption(game).join("\n");
    write!(out, "\n{}\n   ", status(game, upto)).unwrap();
    for col in 0..SIZE {
        write!(out, "{:>width$}", letter(col)).unwrap();
    }
    out.push('\n');
    for row in 0..SIZE {
        write!(out, " {} ", letter(row)).unwrap();
        for col in 0..SIZE {
            let c = Cell::new(col, row).expect("on the board");
            let mark = match (board.get(c), numbers[c.index()]) {
                (Some(color), Some(n)) => format!("{}{n}", stone_letter(color)),
                _ => ".".to_string(),
            };
            write!(out, "{mark:>width$}").unwrap();
        }
        out.push('\n');
    }
    out
}

fn letter(i: usize) -> char {
    (b'A' + i as u8) as char
}

fn stone_letter(color: Color) -> char {
    match color {
        Color::Black => 'X',
        Color::White => 'O',
    }
}

/// Escapes text for XML content and attribute values.
fn xml(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&apos;"),
            c if c.is_control() => s.push(' '),
            c => s.push(c),
        }
    }
    s
}

/// Grid spacing and the margin around the grid, in SVG user units.
const STEP: usize = 32;
const MARGIN: usize = 48;
const CAPTION_LINE: usize = 20;
const LAST_RING: &str = "#e0201a";

fn at(i: usize) -> usize {
    MARGIN + i * STEP
}

/// The diagram of the position after `upto` turns (see the module docs).
pub fn svg(game: &Game, upto: usize) -> String {
    let board = game.board_after(upto);
    let numbers = game.turn_numbers(upto);
    let side = 2 * MARGIN + (SIZE - 1) * STEP;
    let height = side + 3 * CAPTION_LINE + 4;
    let (lo, hi) = (at(0), at(SIZE - 1));
    let mut s = String::new();
    let w = &mut s;
    writeln!(w, r#"<?xml version="1.0" encoding="UTF-8"?>"#).unwrap();
    writeln!(
        w,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{side}" height="{height}" viewBox="0 0 {side} {height}" font-family="DejaVu Sans, Arial, Noto Sans CJK SC, WenQuanYi Micro Hei, sans-serif">"#
    )
    .unwrap();
    writeln!(w, "<title>{}</title>", xml(&caption(game).join(", "))).unwrap();
    writeln!(
        w,
        r##"<rect class="board" x="0" y="0" width="{side}" height="{height}" fill="#dcb468"/>"##
    )
    .unwrap();
    writeln!(w, r##"<g class="grid" stroke="#3a2a10" stroke-width="1">"##).unwrap();
    for i in 0..SIZE {
        let p = at(i);
        writeln!(w, r#"<line x1="{p}" y1="{lo}" x2="{p}" y2="{hi}"/>"#).unwrap();
        writeln!(w, r#"<line x1="{lo}" y1="{p}" x2="{hi}" y2="{p}"/>"#).unwrap();
    }
    writeln!(w, "</g>").unwrap();
    // Coordinates as the protocol spells them: column letter first, then row letter, both
    // A..S from the top left.
    writeln!(
        w,
        r##"<g class="coordinates" font-size="13" fill="#3a2a10" text-anchor="middle">"##
    )
    .unwrap();
    let (near, far) = (MARGIN - 28, hi + 28);
    for i in 0..SIZE {
        let (p, l) = (at(i), letter(i));
        for (x, y) in [(p, near), (p, far), (near, p), (far, p)] {
            writeln!(w, r#"<text x="{x}" y="{}">{l}</text>"#, y + 5).unwrap();
        }
    }
    writeln!(w, "</g>").unwrap();
    let last: Vec<Cell> = upto
        .checked_sub(1)
        .map(|i| game.turns[i].turn.cells().collect())
        .unwrap_or_default();
    let radius = STEP / 2 - 1;
    writeln!(w, r#"<g class="stones">"#).unwrap();
    for c in Cell::all() {
        let Some(color) = board.get(c) else { continue };
        let (x, y) = (at(c.col()), at(c.row()));
        let (name, fill, stroke) = match color {
            Color::Black => ("black", "#161616", "#000000"),
            Color::White => ("white", "#f7f7f2", "#555555"),
        };
        let (class, stroke, width) = if last.contains(&c) {
            (format!("stone {name} last"), LAST_RING, 3)
        } else {
            (format!("stone {name}"), stroke, 1)
        };
        writeln!(
            w,
            r#"<circle class="{class}" cx="{x}" cy="{y}" r="{radius}" fill="{fill}" stroke="{stroke}" stroke-width="{width}"><title>{} {}</title></circle>"#,
            c, name
        )
        .unwrap();
    }
    writeln!(w, "</g>").unwrap();
    if let Some((color, a, b)) = six_line(&board) {
        writeln!(
            w,
            r#"<line class="six" x1="{}" y1="{}" x2="{}" y2="{}" stroke="{LAST_RING}" stroke-width="6" stroke-opacity="0.75" stroke-linecap="round"><title>{color} six {a}-{b}</title></line>"#,
            at(a.col()),
            at(a.row()),
            at(b.col()),
            at(b.row())
        )
        .unwrap();
    }
    writeln!(
        w,
        r#"<g class="turns" text-anchor="middle" font-weight="bold">"#
    )
    .unwrap();
    for c in Cell::all() {
        let (Some(color), Some(n)) = (board.get(c), numbers[c.index()]) else {
            continue;
        };
        let fill = match color {
            Color::Black => "#ffffff",
            Color::White => "#111111",
        };
        let size = if n >= 100 { 11 } else { 13 };
        // The baseline sits below the centre by about a third of the font size.
        writeln!(
            w,
            r#"<text x="{}" y="{}" font-size="{size}" fill="{fill}">{n}</text>"#,
            at(c.col()),
            at(c.row()) + size * 4 / 11
        )
        .unwrap();
    }
    writeln!(w, "</g>").unwrap();
    let mut lines = caption(game);
    lines.push(status(game, upto));
    writeln!(
        w,
        r##"<g class="caption" font-size="13" fill="#1a1208" text-anchor="middle">"##
    )
    .unwrap();
    for (i, line) in lines.iter().enumerate() {
        let y = side + 4 + i * CAPTION_LINE;
        writeln!(w, r#"<text x="{}" y="{y}">{}</text>"#, side / 2, xml(line)).unwrap();
    }
    writeln!(w, "</g>").unwrap();
    writeln!(w, "</svg>").unwrap();
    s
}

//! Lazy SMP on real games: with two search threads the engine answers every position taken
//! from the competition records in `tests/data/records` with a legal turn within its cap.

mod common;

use connect6::protocol::player::{DEFAULT_MAX_DEPTH, Engine};
use connect6::protocol::session::Player;
use connect6::record::Record;
use connect6::rules::board::Board;
use std::time::{Duration, Instant};

/// Positions per record: after this share of its stones (rounded to a turn boundary).
const SHARES: [f64; 2] = [0.35, 0.7];

#[test]
fn two_threads_answer_real_positions_legally_within_the_cap() {
    let entries = std::fs::read_dir(common::data_dir("records")).expect("records folder");
    let _ = env_logger::builder().is_test(true).try_init();
    let cap = Duration::from_millis(300);
    let born = Instant::now() - Duration::from_secs(60);
    let mut engine = Engine::new(16, cap, None, DEFAULT_MAX_DEPTH, born).with_threads(2);
    let mut searched = 0;
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(record) = Record::parse(&text) else {
            continue; // the README, or a file that is not a record
        };
        for share in SHARES {
            // Black's one stone, then two a turn: 1 + 2t stones end a turn.
            let stones = (record.moves.len() as f64 * share) as usize;
            let stones = 1 + (stones.saturating_sub(1) / 2) * 2;
            let mut board = Board::new();
            for m in &record.moves[..stones.min(record.moves.len())] {
                board.place(m.cell, m.color);
            }
            if board.is_over() {
                continue;
            }
            engine.new_game();
            let t = Instant::now();
            let turn = engine.choose(&board);
            let used = t.elapsed();
            assert!(
                board.check_turn(&turn).is_ok(),
                "{}: {turn} is illegal after {stones} stones",
                path.display()
            );
            assert!(used < cap, "{}: {used:?} for a {cap:?} cap", path.display());
            searched += 1;
        }
    }
    assert!(searched >= 4, "only {searched} real positions searched");
}

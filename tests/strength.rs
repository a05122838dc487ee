//! The engine against weak reference players, through the real referee and binary: it must
//! win every game with both colours, with no late or illegal move. The referee allows 0.5 s a
//! move; the engine thinks for at most 0.3 s on one thread, so a loaded machine's scheduling
//! does not make it late, while an engine that ignored its cap (or searched to its full
//! depth) still would be.

use connect6::arena::{self, MatchArgs, Summary};

const ENGINE: &str = env!("CARGO_BIN_EXE_connect6");

fn play(opponent: &str, games: usize) -> Summary {
    let args: Vec<String> = [
        "--quiet",
        "--games",
        &games.to_string(),
        "--move-time",
        "0.5",
        &format!("{ENGINE} --move-time 0.3 --threads 1 --hash 16"),
        &format!("{ENGINE} {opponent}"),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let config = MatchArgs::parse(&args).expect("valid match arguments");
    arena::run(&config).unwrap_or_else(|e| panic!("the match did not run: {e}"))
}

fn assert_sweep(summary: &Summary, games: usize) {
    let text = summary.to_text();
    assert!(summary.faults.is_empty(), "faults:\n{text}");
    let engine = &summary.engines[0];
    assert_eq!(engine.total.wins, games, "{text}");
    assert!(
        engine.as_black.wins > 0 && engine.as_white.wins > 0,
        "wins with both colours:\n{text}"
    );
    assert!(
        engine.max_move_time.as_secs_f64() < 0.5,
        "a move took too long:\n{text}"
    );
}

#[test]
fn beats_the_random_player_with_both_colours() {
    let s = play("--player random --seed 7 --name Random", 2);
    assert_sweep(&s, 2);
}

#[test]
fn beats_the_greedy_player_with_both_colours() {
    let s = play("--player greedy --name Greedy", 2);
    assert_sweep(&s, 2);
}

//! Time management: how long one move may think, from a per-move cap and an optional budget
//! for the whole game.

use std::time::Duration;

/// What the engine was told about time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeControl {
    /// The reply must arrive within this, whatever else holds.
    pub move_cap: Duration,
    /// Time left for the rest of the game, if the game has a budget.
    pub game_left: Option<Duration>,
}

/// Limits for one search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Do not start another iteration after this.
    pub soft: Duration,
    /// Abort the search at this point.
    pub hard: Duration,
}

/// Kept back from every cap for reading input, writing the reply and scheduling noise.
fn safety(cap: Duration) -> Duration {
    (cap / 20).clamp(Duration::from_millis(20), Duration::from_millis(150))
}

/// Turns a side is still expected to play: Connect6 games between engines rarely run past
/// forty turns a side, and a budget spread thinner than that leaves time unused.
fn expected_turns_left(turns_played: usize) -> u32 {
    (40u32.saturating_sub(turns_played as u32)).max(12)
}

impl TimeControl {
    pub fn per_move(cap: Duration) -> TimeControl {
        TimeControl {
            move_cap: cap,
            game_left: None,
        }
    }

    /// Budget for the next move, `turns_played` turns into the game by this side.
    pub fn budget(&self, turns_played: usize) -> Budget {
        let mut hard = self.move_cap.saturating_sub(safety(self.move_cap));
        let mut target = hard;
        if let Some(left) = self.game_left {
            let share = left / expected_turns_left(turns_played);
            target = target.min(share);
            // Never bet more than a third of what is left on one move.
            hard = hard.min((left / 3).saturating_sub(safety(left / 3)));
            hard = hard.min(target * 3);
        }
        let hard = hard.max(Duration::from_millis(1));
        let target = target.min(hard);
        // An iteration costs several times the one before; starting one past half the target
        // would mostly be thrown away at the hard limit.
        Budget {
            soft: target / 2,
            hard,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_cap_is_kept() {
        let b = TimeControl::per_move(Duration::from_secs(1)).budget(0);
        assert!(b.hard < Duration::from_secs(1));
        assert!(b.hard >= Duration::from_millis(900));
        assert!(b.soft < b.hard);
    }

    #[test]
    fn a_game_budget_is_spread() {
        let tc = TimeControl {
            move_cap: Duration::from_secs(30),
            game_left: Some(Duration::from_secs(60)),
        };
        let b = tc.budget(0);
        assert!(b.hard <= Duration::from_secs(20));
        assert!(b.soft <= Duration::from_secs(2));
        // Almost no time left: still a positive, tiny budget.
        let tc = TimeControl {
            game_left: Some(Duration::from_millis(30)),
            ..tc
        };
        let b = tc.budget(10);
        assert!(b.hard <= Duration::from_millis(10) && b.hard > Duration::ZERO);
    }
}

//! Every search and evaluation knob in one place. Change a value only with a measurement,
//! and record it in docs/experiments.md, which also holds the experiments not kept.

use crate::rules::geometry::WINDOW;
use crate::rules::patterns::PATTERN_COUNT;

/// Evaluation tables in score points (`TO_MOVE_` for the side to move): a line pattern's worth
/// per stone and direction, in `Pattern` order, and a one-colour window's worth by its stones.
/// Fitted to 12443 match games in a66065a; see docs/experiments.md (2026-12-02).
pub const TO_MOVE_PATTERN: [i32; PATTERN_COUNT] = [0, -19, -2, -17, -22, 100, 520, 110, 520, 0];
pub const WAITING_PATTERN: [i32; PATTERN_COUNT] = [0, 17, 19, 11, 2, 40, 100, 45, 100, 0];
pub const TO_MOVE_WINDOW: [i32; WINDOW + 1] = [0, 4, 49, 124, 0, 0, 0];
pub const WAITING_WINDOW: [i32; WINDOW + 1] = [0, 2, -4, 39, 0, 0, 0];

/// Candidate first stones taken from the cell ranking in a quiet position (0f3778e).
pub const FIRST_STONES: usize = 12;
/// Candidate second stones paired with each first stone (0f3778e).
pub const SECOND_STONES: usize = 16;
/// Requests for at most `NARROW_WIDTH` pairs draw on fewer first and second stones.
/// Set in 048f6f1; see docs/experiments.md (2026-11-30).
pub const NARROW_WIDTH: usize = 20;
pub const NARROW_FIRST_STONES: usize = 8;
pub const NARROW_SECOND_STONES: usize = 12;
/// Pairs searched at an inner node after ordering; the rest are pruned (0f3778e).
pub const MAX_PAIRS: usize = 40;
/// Pairs searched one turn from the horizon, where each is only evaluated. Set in 048f6f1;
/// 14 and 26 measured and not kept, see docs/experiments.md (2026-12-01).
pub const FRONTIER_PAIRS: usize = 20;
/// Pairs tried at the root, where a wider look is affordable (0f3778e).
pub const ROOT_PAIRS: usize = 60;
/// Free second stones offered with a one-stone block (0f3778e).
pub const FREE_STONES_WITH_BLOCK: usize = 10;

/// Late move reductions: quiet turns from the late place in the order on (counted from 0)
/// are searched shallower first; depths and the reduction are in turns from the horizon.
/// Set in 6bfc11f; see docs/experiments.md (2026-12-01). From two turns on measured and
/// not kept (2026-12-06).
pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_LATE_TURN: usize = 4;
pub const LMR_REDUCTION: i32 = 1;
pub const LMR_LATER_TURN: usize = 12;
pub const LMR_LATER_MIN_DEPTH: i32 = 4;

/// Half the width of the window the root's first turn is searched in, around the last
/// iteration's score, before the full window. 20 and 100 measured with 50: all within a few
/// percent on the bench; see docs/experiments.md (2026-12-06).
pub const ASPIRATION_WINDOW: i32 = 50;

/// Deepest ply the search stack holds, threat extensions included (0f3778e).
pub const MAX_PLY: usize = 64;
/// Extra plies granted when the side to move must answer threats at the horizon (0f3778e);
/// 2 and 6 measured and not kept, see docs/experiments.md (2026-12-02).
pub const MAX_FORCED_EXTENSION: usize = 4;

/// Root threat-space solver: depth in attacker turns (11 is 21 turns with the defender's)
/// and its node limit. Set in 302bfa1.
pub const ROOT_THREAT_DEPTH: u8 = 11;
pub const ROOT_THREAT_NODES: u64 = 40_000;
/// Share of the soft time limit spent on our own threat sequence before the main search,
/// as a fraction. Set in 89b8677; see docs/experiments.md (2026-12-01).
pub const ROOT_THREAT_TIME_SHARE: f64 = 0.1;
/// The opponent's threat sequence after one of our root turns: depth in attacker turns
/// and nodes per check. Set in 302bfa1.
pub const SAFETY_THREAT_DEPTH: u8 = 10;
pub const SAFETY_THREAT_NODES: u64 = 2_000;
/// Nodes for checking the chosen turn against the opponent's threat sequence with the
/// rest of the move. Set in d44558b; see docs/experiments.md (2026-12-01).
pub const CHOSEN_TURN_THREAT_NODES: u64 = 40_000;
/// When the root's threat check leaves this many turns or fewer, none of them shown safe,
/// the opponent threatens and the move hangs on which of them lose: the chosen turn's check
/// gets `time::FEW_TURNS_CHECKING_SHARE` of the move and up to `FEW_TURNS_CHECK_NODES`
/// (see docs/experiments.md, session 40).
pub const FEW_UNVERIFIED_TURNS: usize = 4;
pub const FEW_TURNS_CHECK_NODES: u64 = 400_000;
/// Nodes for the opponent's threat sequence if it had the move now (302bfa1).
pub const NULL_MOVE_THREAT_NODES: u64 = 20_000;
/// Share of the soft time limit spent checking root turns against opponent threats, as a
/// fraction. Set in 89b8677; see docs/experiments.md (2026-12-01 and 2026-12-02).
pub const SAFETY_TIME_SHARE: f64 = 0.15;
/// Cells of the opponent's proof zone paired with each other as extra root turns (302bfa1).
pub const ZONE_CELLS_PAIRED: usize = 8;
/// Partners paired with each cell where the opponent's threat sequence would start (b7d7108).
pub const COUNTER_PARTNERS: usize = 8;
/// Entries in the solver's cache of positions shown not to be wins (a quarter as many
/// proofs are kept). Set in 302bfa1.
pub const THREAT_CACHE_ENTRIES: usize = 1 << 16;
/// Forcing turns the solver tries at a node: at most this many double threats, and this
/// many single threats, those with the most potential. Set in 302bfa1.
pub const SOLVER_DOUBLE_THREAT_TURNS: usize = 48;
pub const SOLVER_SINGLE_THREAT_TURNS: usize = 12;
/// Single-threat turns allowed in one line of the solver. Set in 4856d79, measured again in
/// 5e13a36; see docs/experiments.md (2026-12-01).
pub const SOLVER_SINGLE_THREATS: u8 = 2;
/// Attacker turns left from which the solver orders a node's forcing turns by how many
/// answers the defender has (fewest first) instead of by potential alone: a turn with few
/// answers is proved or refuted in few searches, as a proof-number search's first estimate
/// says. Placing every turn to count its answers costs more than it saves near the leaves,
/// where the searches below are small (see docs/experiments.md, session 42).
pub const SOLVER_ANSWER_ORDER_DEPTH: u8 = 4;

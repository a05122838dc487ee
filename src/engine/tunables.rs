//! Every search and evaluation knob in one place. Values come from self-play (`match`) and
//! `bench`; change them only with a measurement.

use crate::rules::geometry::WINDOW;
use crate::rules::patterns::PATTERN_COUNT;

/// The evaluation's tables, fitted to game results (`tuning::fit`): per (stone, direction),
/// the worth of a stone's line pattern (a pattern of n stones is seen by each of its n
/// stones, so these are per-stone shares; order follows `Pattern`: none, dead2, live2,
/// dead3, live3, dead4, live4, dead5, live5, six), and the worth of a six-cell window that
/// holds k stones of one colour and none of the other's, by k: the room a colour has to grow
/// threats. The side to move gets the `TO_MOVE_` tables, its opponent the `WAITING_` ones.
///
/// Fitted: dead2 to live3 and windows of one to three stones, by logistic regression of the
/// results of 12443 match games between the engine's builds (0.25 s to 2 s a move, on the
/// match openings; `tests/data/fit-games.txt`) on 140802 quiet positions, with the scale K
/// that fitted the hand-set tables best on nine tenths of the same games (0.005122):
/// `cargo run --release --example fit_eval -- --fit-games tests/data/fit-games.txt --k 0.005122`.
/// Held-out log loss (every 10th game) fell from 0.5936 with the hand-set tables to 0.5538.
/// The windows carry most of the weight and the pattern classes, which the windows of two
/// and three stones largely say again, come out near zero or below: a position is worth the
/// room its stones have to grow threats, not their shapes along one line.
/// Against aa1f671 at 0.35 s, 204 games on the match openings (pairs Elo [95%]): the
/// hand-set tables 63.2% (+91.8 [+44.3, +139.4]); a fit of the pattern classes alone
/// (windows kept) 63.0% (+90.1 [+47.3, +132.8]); this fit with its windows, 0-2 units off
/// the tables here (the same games in another order, so another held-out tenth), 70.6%
/// (+148.0 [+96.8, +199.2]). These tables at 0.5 s:
/// 67.9% (+126.7 [+79.3, +174.0]), where the hand-set ones scored 64.5% (+100.8).
/// The hand-set tables were [0, 10, 54, 22, 320, ..] / [0, 3, 8, 8, 28, ..] and windows
/// [0, 1, 4, 12] / [0, 1, 3, 8]. An earlier fit on 35262 positions of 2400 short self-play
/// games played worse (43.2% against aa1f671 at 0.5 s): labels from self-play at a few
/// thousand nodes a turn are too noisy.
/// Tried in session 12 and not kept: six more features, the empty cells of each colour by
/// how many lines of its open windows of three (t) and of two (u) meet there (t >= 1,
/// t >= 2, t >= 1 with u >= 1, u >= 2 without t, t + u >= 3, u >= 1), fitted with these
/// tables on the same games, held-out log loss 0.5538 -> 0.5308 (the mover's cells where
/// two lines of three meet weighed 386): 66.7% against aa1f671 at 0.5 s over 204 games
/// (pairs +117.3 [+70.8, +163.8]) where these tables scored 69.6% in the same session.
/// Adding this session's 2019 match games to the data moved no weight by more than 5.
/// Not fitted: none is the reference class; fours, fives and sixes, and windows of four or
/// more, are threat shapes, which a quiet position does not hold (the search resolves them:
/// a win for the mover, a forced block against it).
pub const TO_MOVE_PATTERN: [i32; PATTERN_COUNT] = [0, -19, -2, -17, -22, 100, 520, 110, 520, 0];
pub const WAITING_PATTERN: [i32; PATTERN_COUNT] = [0, 17, 19, 11, 2, 40, 100, 45, 100, 0];
pub const TO_MOVE_WINDOW: [i32; WINDOW + 1] = [0, 4, 49, 124, 0, 0, 0];
pub const WAITING_WINDOW: [i32; WINDOW + 1] = [0, 2, -4, 39, 0, 0, 0];

/// Cell ordering for move generation: what a stone here makes for its owner (attack) and
/// what it takes from the opponent (defence), by the pattern made along each line.
pub const ATTACK: [i32; PATTERN_COUNT] = [0, 6, 30, 20, 120, 150, 400, 160, 420, 100_000];
pub const DEFENCE: [i32; PATTERN_COUNT] = [0, 4, 20, 14, 90, 60, 160, 70, 180, 50_000];

/// How much of the evaluation's window term (`TO_MOVE_WINDOW`, `WAITING_WINDOW`) the cell
/// ranking adds, in percent: what a stone grows of its owner's open windows and closes of the
/// opponent's. Against the ranking without it, self-play at 0.25 s on the match openings,
/// 204 games each (pairs Elo [95%]): 100% +18.3 [-18.4, +55.0], 200% +25.0 [-16.9, +66.9],
/// 400% +53.6 [+9.4, +97.8], 800% -33.3 [-76.4, +9.7]; 400% at 0.5 s +63.9 [+21.7, +106.1].
/// Against aa1f671 it did not gain: 62.0% at 0.5 s and 64.7% at 0.35 s (204 games each),
/// 56.6% at 2 s (68 games), where the ranking without it scored 64.5%, 63.2% and 60.3%.
/// A gain over its parent alone is not kept: 0. `bench --depth 6` took 1,058,879 nodes with
/// 400% where it takes 968,665 without, at the same nodes/s. With the fitted tables, whose
/// window steps are about eight times the hand-set ones, 50% scored 36.0% against aa1f671
/// at 0.5 s over 89 games (pairs -91.7 [-156.6, -26.9]; stopped), where 0% scored 69.7% on
/// the same games.
pub const WINDOW_ORDER_PERCENT: i32 = 0;

/// Candidate first stones taken from the cell ranking in a quiet position.
pub const FIRST_STONES: usize = 12;
/// Candidate second stones paired with each first stone.
pub const SECOND_STONES: usize = 16;
/// Requests for at most `NARROW_WIDTH` pairs draw on fewer cells.
pub const NARROW_WIDTH: usize = 20;
pub const NARROW_FIRST_STONES: usize = 8;
pub const NARROW_SECOND_STONES: usize = 12;
/// Pairs searched at a node after ordering (the rest are pruned).
pub const MAX_PAIRS: usize = 40;
/// Pairs searched one turn from the horizon, where each is only evaluated: the generator's
/// order is good enough there that the tail seldom changes the result. Self-play against 20
/// on the match openings, 204 games each (pairs Elo [95%]): 14 measured -16.6 [-53.2, +19.9]
/// at 0.25 s; 26 measured +26.7 [-2.8, +56.1] at 0.25 s and +10.0 [-20.7, +40.7] at 0.5 s
/// (bench --depth 6 nodes 589,019 against 481,324); against aa1f671 at 0.5 s, 26 scored
/// +57.0 [+18.1, +95.9] where 20 scored +46.8 [+8.9, +84.7]; at 0.75 s, -33.3 [-63.7, -3.0].
/// No gain: kept at 20.
pub const FRONTIER_PAIRS: usize = 20;
/// Pairs tried at the root, where a wider look is affordable.
pub const ROOT_PAIRS: usize = 60;
/// Free second stones offered with a one-stone block.
pub const FREE_STONES_WITH_BLOCK: usize = 10;

/// Late move reductions: at nodes this many turns or more from the horizon, turns from this
/// place in the order on (after the table's turn, killers and the generator's best) are
/// searched this many turns shallower first, unless a turn threatens or the node must block;
/// turns from the later place on, at nodes at least the later depth from the horizon, one
/// turn shallower still. A reduced turn that beats alpha is searched again at full depth.
/// Self-play at 0.5 s on the balanced openings, 200 games each (pairs Elo [95%]): one turn
/// of reduction from the fifth turn on against none, +19 [-19, +56]; the second turn of
/// reduction from the thirteenth turn on against one, +22 [-11, +56]. `bench --depth 6`
/// nodes: 1,013,265 without, 662,316 with one, 481,324 with both, same best turns.
/// Not kept (self-play at 0.25 s, 204 games on the match openings, pairs Elo): reverse
/// futility pruning (a quiet node up to two turns from the horizon, off the principal
/// variation, ends when its static score beats beta by 150 a turn left), 392,783 nodes,
/// -5.0 [-36.6, +26.6]; with it, the second reduction from the ninth turn on, 375,663 nodes,
/// -25.0 [-62.8, +12.8].
/// Not kept either (session 13): a null move (the side to move passes; a quiet node off the
/// principal variation, three or more turns from the horizon, whose static score beats beta
/// ends when the opponent's two turns in a row, searched one or two turns shallower, still
/// leave it at beta). In `bench --depth 6` it was tried 1,092 times and never cut: a turn
/// is worth so much in Connect6 that the opponent's extra one always falls below beta.
/// Not kept (session 14): ordering the turns at nodes three or more turns from the horizon
/// by the evaluation of the position each leads to (quiet ones read without placing them).
/// `bench --depth 7` took 3,091,622 nodes where the generator's order takes 3,370,123, at
/// about the same nodes/s in runs side by side (586,564 and 569,398, a noisy machine). Against aa1f671 at 0.5 s, 204 games twice on the match openings: 71.1%
/// (pairs +152.0 [+107.4, +196.6]) and 68.9% (+134.3 [+87.1, +181.6]), where the
/// generator's order scored 69.4% over 408 games in session 13; at 2 s, 68 games on every
/// third opening, 60.3% (+67.5 [-11.3, +146.2]) where it scored 64.7%; against the
/// generator's order directly at 0.5 s, 45.6% over 204 games (pairs -30.0 [-71.5, +11.5]).
/// Also not kept, on that order (`bench --depth 7` nodes against 3,091,622): from two turns
/// on, 3,212,886; threatening turns first, 4,669,157, or last, 3,428,480; 60 pairs generated
/// and the 40 best by evaluation kept, 5,315,136; more late-move reductions (from the 4th
/// turn and the 9th), 3,099,481. Those reductions on the generator's order scored 63.5%
/// against aa1f671 at 0.5 s over 204 games (pairs +93.6 [+47.8, +139.4]).
pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_LATE_TURN: usize = 4;
pub const LMR_REDUCTION: i32 = 1;
pub const LMR_LATER_TURN: usize = 12;
pub const LMR_LATER_MIN_DEPTH: i32 = 4;

/// Deepest ply the search stack holds (iterative deepening + threat extensions).
pub const MAX_PLY: usize = 64;
/// Extra plies granted when the side to move must answer threats at the horizon.
/// Scoring a quiet horizon as won when the mover has an unstoppable turn (the solver's
/// generator) cost 30% of the nodes/s for the same tree and measured -26.7 [-63.1, +9.8]
/// pairs Elo (self-play at 0.25 s, 204 games on the match openings): not kept. Not
/// consuming depth at forced nodes inside the tree too (within the same budget) scored
/// 46.8% against aa1f671 at 0.35 s over 140 games (pairs -21.6 [-73.5, +30.3]; stopped),
/// where the search without it scores 63.2%: not kept.
/// Threat sequences asked inside the tree (session 12, VCDT, 8 attacker turns, 300 solver
/// nodes a question, at nodes two or more turns from the horizon: a win of the mover's
/// ends the node, and a win of the opponent's were it to move makes every turn of the
/// mover's that cannot spoil it lose at once) cost 20% of `bench`'s nodes/s for the same
/// tree. Against aa1f671, 204 games each on the match openings, pairs Elo [95%], where
/// the search without them scored 69.6% (+140.1 [+90.7, +189.6]) at 0.5 s and 67.4%
/// (+122.9 [+76.7, +169.1]) at 0.35 s in the same session: 73.3% (+170.4 [+119.5,
/// +221.2]) at 0.5 s, 65.4% (+108.1 [+61.1, +155.1]) at 0.35 s, and 50.0% against the
/// search without them (self-play, 0.5 s). With one single threat allowed (nodes/s -45%)
/// 69.4%; with the opponent's proof zone added to the turns (as the root does) 69.9%;
/// asking at the horizon's parents too (nodes/s a fifth) 63.7%; asking there only below a
/// node whose opponent had a line (nodes/s half) 67.4%. Of 958 positions from those games,
/// 93% are decided by a 300-node VCDT question, so the questions were answered; they did
/// not change the results: not kept.
/// Two or six extra plies in place of four (session 13, with leaves read without placing
/// them): `bench --depth 6` took 705,803 and 2,715,447 nodes where four takes 1,320,524;
/// against aa1f671 at 0.5 s, 204 games each, they scored 67.9% (pairs +126.7 [+81.8,
/// +171.6]) and 69.1% (+136.2 [+86.8, +185.7]), where four scored 69.4% (+138.2) in the
/// same session: the horizon's depth of blocks barely matters, kept at four.
pub const MAX_FORCED_EXTENSION: usize = 4;

/// Threat-space solver at the root: how many attacker turns deep it looks for a win by a
/// threat sequence (single and double threats), and how much of the move's time it may take.
/// Eleven attacker turns are lines of 21 turns with the defender's.
pub const ROOT_THREAT_DEPTH: u8 = 11;
pub const ROOT_THREAT_NODES: u64 = 40_000;
/// Share of the soft time limit spent looking for our own threat sequence before the main
/// search. Halving it and `SAFETY_TIME_SHARE` again (0.05 and 0.08) measured +5.0
/// [-23.0, +33.0] pairs Elo (self-play at 0.25 s, 204 games): no gain for less defence.
pub const ROOT_THREAT_TIME_SHARE: f64 = 0.1;
/// The opponent's threat sequence after one of our root turns: depth and nodes per check.
pub const SAFETY_THREAT_DEPTH: u8 = 10;
pub const SAFETY_THREAT_NODES: u64 = 2_000;
/// The opponent's threat sequence after the turn the search chose, checked with what is
/// left of the move: nodes for that one question (the clock usually stops it first). Wins
/// from the lost games (tests/data/loss-wins.txt) mostly take 1,000-10,000 nodes.
pub const CHOSEN_TURN_THREAT_NODES: u64 = 40_000;
/// The opponent's threat sequence if it had the move now: nodes for that one question.
pub const NULL_MOVE_THREAT_NODES: u64 = 20_000;
/// Share of the soft time limit spent checking root turns against opponent threats. Three
/// times the share once the opponent is shown to have a threat sequence with the move (most
/// root turns then lose, and many were left unknown at this share) scored 61.3% against
/// aa1f671 at 0.35 s, 204 games (pairs +77.7 [+42.6, +112.9]), where this scores 63.2%.
pub const SAFETY_TIME_SHARE: f64 = 0.15;
/// Cells of the opponent's proof zone paired with each other as extra root turns.
pub const ZONE_CELLS_PAIRED: usize = 8;
/// Partners paired with each cell where the opponent's threat sequence would start.
pub const COUNTER_PARTNERS: usize = 8;
/// Entries in the solver's cache of positions shown not to be wins (a quarter as many
/// proofs are kept).
pub const THREAT_CACHE_ENTRIES: usize = 1 << 16;
/// Forcing turns the solver tries at a node: every kind of double threat up to the first
/// bound, and the single threats with the most potential up to the second. A single threat
/// forces one stone only, so many of them would make a bushy tree of weak lines.
pub const SOLVER_DOUBLE_THREAT_TURNS: usize = 48;
pub const SOLVER_SINGLE_THREAT_TURNS: usize = 12;
/// Single-threat turns allowed in one line of the solver (it deepens over 0, 1, .. this).
/// Every win the solver finds among those walked back from the lost games
/// (tests/data/loss-wins.txt) needs at most two; on the 855 positions after each turn of
/// the records and the lost games, allowing three finds no more wins within 30,000 nodes
/// and decides 17 fewer positions (`bench --solver-suite`, build c6df47a).
pub const SOLVER_SINGLE_THREATS: u8 = 2;

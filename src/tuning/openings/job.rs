//! `connect6 tune openings` and `tune replies`: match openings files.
//!
//! `openings` writes N two-turn match openings (`JJ` and a white pair
//! near it): drawn at random, or with `--balance-depth D` the N that black scores lowest at
//! search depth D of all the shapes within the radius (random white pairs mostly hand black
//! the game); `replies` extends each two-turn opening of a file to three turns with the K
//! black pairs that score best for black at search depth D.

use super::{REPLY_CANDIDATES, REPLY_DEPTH, balanced_openings, black_replies, two_turn_openings};
use crate::engine::models::ModelArgs;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(clap::Args, Debug, Clone)]
pub struct OpeningsArgs {
    /// How many openings to write.
    #[arg(value_name = "N")]
    pub openings: usize,
    /// The openings file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Seed of the random draw.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// White's stones lie within R cells of JJ (1..=9).
    #[arg(long, value_name = "R", default_value_t = 2,
          value_parser = clap::value_parser!(i32).range(1..=9))]
    pub radius: i32,
    /// Keep the N of all shapes that black scores lowest at search depth D (1..=60)
    /// [default: a random draw].
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u8).range(1..=60))]
    pub balance_depth: Option<u8>,
    /// The ranking and evaluation the balancing search plays with.
    #[command(flatten)]
    pub models: ModelArgs,
}

#[derive(clap::Args, Debug, Clone)]
pub struct RepliesArgs {
    /// Black pairs kept after each two-turn opening.
    #[arg(value_name = "K")]
    pub replies: usize,
    /// The two-turn openings to extend (an openings file, black to move).
    #[arg(long, value_name = "FILE")]
    pub from: PathBuf,
    /// The openings file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Score black's pairs at search depth D (1..=60).
    #[arg(long, value_name = "D", default_value_t = REPLY_DEPTH,
          value_parser = clap::value_parser!(u8).range(1..=60))]
    pub balance_depth: u8,
    /// The ranking and evaluation that pick and score black's pairs.
    #[command(flatten)]
    pub models: ModelArgs,
}

/// `tune openings`.
pub fn openings(a: &OpeningsArgs) -> Result<(), String> {
    let models = a.models.load()?;
    let (count, seed, radius) = (a.openings, a.seed, a.radius);
    let (list, how): (Vec<String>, String) = match a.balance_depth {
        None => (
            two_turn_openings(count, seed, radius),
            format!("drawn with seed {seed}"),
        ),
        Some(depth) => {
            let scored = balanced_openings(count, seed, radius, depth, &models);
            let how = format!(
                "the {} that black scores lowest (from {} to {}) at search depth {depth} of all\n\
                 # shapes within the radius: random white pairs mostly hand black the game",
                scored.len(),
                scored.first().map_or(0, |s| s.1),
                scored.last().map_or(0, |s| s.1),
            );
            (scored.into_iter().map(|(text, _)| text).collect(), how)
        }
    };
    let balance = a
        .balance_depth
        .map_or(String::new(), |d| format!(" --balance-depth {d}"));
    let text = format!(
        "# Two-turn openings: black JJ, then a white pair within {radius} cells of JJ; black to move.\n\
         # {} of them, distinct up to the board's symmetries, {how}\n\
         # (cargo run --release -- tune openings {count} --seed {seed} --radius {radius}{balance} --out FILE).\n",
        list.len()
    );
    write_openings(&a.out, text, list.iter().map(String::as_str))?;
    println!("{} openings in {}", list.len(), a.out.display());
    Ok(())
}

/// Writes an openings file: the `header` comment lines, then one opening a line.
fn write_openings<'a>(
    out: &Path,
    mut header: String,
    list: impl Iterator<Item = &'a str>,
) -> Result<(), String> {
    for o in list {
        header.push_str(o);
        header.push('\n');
    }
    std::fs::write(out, header).map_err(|e| format!("{}: {e}", out.display()))
}

/// `tune replies`.
pub fn replies(a: &RepliesArgs) -> Result<(), String> {
    let models = a.models.load()?;
    let (per, depth, from) = (a.replies, a.balance_depth, a.from.display());
    let text = std::fs::read_to_string(&a.from).map_err(|e| format!("{from}: {e}"))?;
    let base: Vec<String> = crate::record::openings::parse(&text)
        .map_err(|e| format!("{from}: {e}"))?
        .iter()
        .map(crate::record::openings::Opening::text)
        .collect();
    let began = Instant::now();
    let list = black_replies(&base, per, depth, &models);
    let scores = list.iter().map(|(_, s)| *s);
    let text = format!(
        "# Three-turn openings: each two-turn opening of {from}, then the {per} black pairs that\n\
         # score best for black at search depth {depth} of the move generator's {REPLY_CANDIDATES};\n\
         # white to move. {} openings, black's scores {} to {}\n\
         # (cargo run --release -- tune replies {per} --from {from} --balance-depth {depth} --out FILE).\n",
        list.len(),
        scores.clone().min().unwrap_or(0),
        scores.max().unwrap_or(0),
    );
    write_openings(&a.out, text, list.iter().map(|(o, _)| o.as_str()))?;
    println!(
        "{} openings in {} ({:.1} s)",
        list.len(),
        a.out.display(),
        began.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tuning::args::tests::{parse, refused};

    #[test]
    fn the_jobs_parse_with_their_defaults_and_refuse_bad_options() {
        let o: OpeningsArgs = parse("5 --out o.txt").unwrap();
        assert_eq!(
            (o.openings, o.seed, o.radius, o.balance_depth),
            (5, 1, 2, None)
        );
        let r: RepliesArgs = parse("6 --from a --out b").unwrap();
        assert_eq!((r.replies, r.balance_depth), (6, 4));
        refused::<OpeningsArgs>(&[
            "5 --out o --radius 0",
            "5 --out o --radius 10",
            "5 --out o --balance-depth 0",
        ]);
        refused::<RepliesArgs>(&["6 --out b", "6 --from a --out b --balance-depth 61"]);
    }
}

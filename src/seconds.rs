//! Seconds as every layer takes them from text: the engine's `--move-time` and
//! `--game-time`, the protocol's `time` and `time left`, the match's options and the browser
//! board's forms. A time is a positive number of seconds up to a bound; one parser says so,
//! so that the engine and the referee cannot come to disagree on what `0`, `-1`, `inf` or
//! `NaN` mean.
//!
//! A leaf: it imports nothing from the crate, and every layer may use it.

use std::fmt;
use std::time::Duration;

/// The largest time a command-line option takes, in seconds (about eleven days).
pub const MAX_OPTION_SECONDS: f64 = 1e6;

/// Why a text is not a time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SecondsError {
    /// No number at all (`x`, `NaN`, empty).
    NotANumber,
    /// A number outside `0 < seconds <= max` (`0`, `-1`, `inf`, past the bound).
    OutOfRange { max: f64 },
}

impl fmt::Display for SecondsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SecondsError::NotANumber => write!(f, "expected positive seconds, not a number"),
            SecondsError::OutOfRange { max } => {
                write!(f, "expected positive seconds up to {max}")
            }
        }
    }
}

impl std::error::Error for SecondsError {}

/// Seconds in `0 < seconds <= max`, surrounding blanks ignored.
pub fn parse(text: &str, max: f64) -> Result<f64, SecondsError> {
    match text.trim().parse::<f64>() {
        Ok(s) if s > 0.0 && s <= max => Ok(s),
        Ok(s) if !s.is_nan() => Err(SecondsError::OutOfRange { max }),
        _ => Err(SecondsError::NotANumber),
    }
}

/// A command-line option's time (`--move-time 0.5`): positive seconds up to
/// [`MAX_OPTION_SECONDS`], as clap's value parser wants it.
pub fn option(text: &str) -> Result<Duration, String> {
    parse(text, MAX_OPTION_SECONDS)
        .map(Duration::from_secs_f64)
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positive_seconds_up_to_the_bound_are_times() {
        assert_eq!(parse("0.5", 10.0), Ok(0.5));
        assert_eq!(parse(" 10 ", 10.0), Ok(10.0));
        assert_eq!(parse("1e-3", 10.0), Ok(0.001));
        assert_eq!(option("2.5"), Ok(Duration::from_millis(2500)));
        assert_eq!(option("1000000"), Ok(Duration::from_secs(1_000_000)));
    }

    #[test]
    fn numbers_outside_are_out_of_range_and_words_are_no_number() {
        let out = Err(SecondsError::OutOfRange { max: 10.0 });
        for text in ["0", "-0", "-1", "10.001", "inf", "-inf", "1e300"] {
            assert_eq!(parse(text, 10.0), out, "{text}");
        }
        for text in ["", "x", "NaN", "1s", "0x10", "1,5"] {
            assert_eq!(parse(text, 10.0), Err(SecondsError::NotANumber), "{text}");
        }
        let e = option("1000001").unwrap_err();
        assert!(e.contains("positive seconds up to 1000000"), "{e}");
        let e = option("soon").unwrap_err();
        assert!(e.contains("positive seconds"), "{e}");
    }
}

//! The seventh header field that `connect6 match` adds to its records, so that `connect6
//! stats` can rebuild the match summary from records alone:
//!
//! ```text
//! [c6match game=3 opening=2 black=A a=bash%20a.sh b=./b move-time-ns=500000000 game-time-ns=-
//!  sprt=- fault=- times-black=101,2034 times-white=99]
//! ```
//!
//! (one line in a record). Keys are separated by single spaces; `-` means none. `game` is the
//! game number in the match's schedule, `opening` the 1-based opening number, `black` the
//! engine (`A` or `B`) that played black, `a`/`b` the engine commands, `fault` is
//! `KIND,COLOUR,DETAIL`, and `times-black`/`times-white` each side's reply times in whole
//! microseconds. Values are percent-encoded (`%20` for a space; also `%`, `[`, `]`, `{`,
//! `}`, `;`, `,`, `=` and control characters), so the field never holds a `]`.

use super::fault::Fault;
use super::files::excerpt;
use crate::rules::board::Color;
use std::fmt;
use std::time::Duration;

const TAG: &str = "c6match";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchInfo {
    /// 1-based game number in the match's schedule.
    pub game: usize,
    /// 1-based opening number, if openings were used.
    pub opening: Option<usize>,
    /// The engine (0 = A, 1 = B) that played black.
    pub black: usize,
    /// Engine commands, A first.
    pub commands: [String; 2],
    pub move_time: Duration,
    pub game_time: Option<Duration>,
    /// The `--sprt` setting as given to the match (`elo0,elo1,alpha,beta`).
    pub sprt: Option<String>,
    pub fault: Option<Fault>,
    /// Reply times in microseconds by colour (black, white).
    pub times_us: [Vec<u64>; 2],
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if "% []{};,=".contains(c) || c.is_control() {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn unescape(text: &str) -> Result<String, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok());
            out.push(hex.ok_or_else(|| format!("bad escape in '{}'", excerpt(text)))?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| format!("escape in '{}' is not UTF-8", excerpt(text)))
}

fn optional<T>(
    value: &str,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<Option<T>, String> {
    if value == "-" {
        Ok(None)
    } else {
        parse(value).map(Some)
    }
}

fn number<T: std::str::FromStr>(key: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("'{}' is not a number", excerpt(&format!("{key}={value}"))))
}

fn times(key: &str, value: &str) -> Result<Vec<u64>, String> {
    if value.is_empty() {
        return Ok(Vec::new());
    }
    value.split(',').map(|t| number(key, t)).collect()
}

impl MatchInfo {
    /// Reads the field's text (between `[` and `]`).
    pub fn parse(text: &str) -> Result<MatchInfo, String> {
        let mut words = text.split(' ');
        if words.next() != Some(TAG) {
            return Err(format!("expected '{TAG} ...'"));
        }
        let mut get = std::collections::HashMap::new();
        for word in words {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| format!("'{}' is not KEY=VALUE", excerpt(word)))?;
            if get.insert(key, value).is_some() {
                return Err(format!("'{}' given twice", excerpt(key)));
            }
        }
        let field = |key: &str| {
            get.get(key)
                .copied()
                .ok_or_else(|| format!("'{key}' missing"))
        };
        let black = match field("black")? {
            "A" => 0,
            "B" => 1,
            other => return Err(format!("'black={}' is neither A nor B", excerpt(other))),
        };
        let nanos = |v: &str| number::<u64>("time", v).map(Duration::from_nanos);
        let fault = optional(field("fault")?, |v| {
            let parts: Vec<&str> = v.splitn(3, ',').collect();
            let [kind, color, detail] = parts[..] else {
                return Err(format!("'fault={}' is not KIND,COLOUR,DETAIL", excerpt(v)));
            };
            Ok(Fault {
                kind: kind.parse()?,
                color: color.parse::<Color>().map_err(|_| {
                    format!("'{}' is not a colour (black or white)", excerpt(color))
                })?,
                detail: unescape(detail)?,
            })
        })?;
        Ok(MatchInfo {
            game: number("game", field("game")?)?,
            opening: optional(field("opening")?, |v| number("opening", v))?,
            black,
            commands: [unescape(field("a")?)?, unescape(field("b")?)?],
            move_time: nanos(field("move-time-ns")?)?,
            game_time: optional(field("game-time-ns")?, nanos)?,
            sprt: optional(field("sprt")?, unescape)?,
            fault,
            times_us: [
                times("times-black", field("times-black")?)?,
                times("times-white", field("times-white")?)?,
            ],
        })
    }
}

impl fmt::Display for MatchInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dash = |v: Option<String>| v.unwrap_or_else(|| "-".into());
        let list = |t: &[u64]| t.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
        write!(
            f,
            "{TAG} game={} opening={} black={} a={} b={} move-time-ns={} game-time-ns={} sprt={}",
            self.game,
            dash(self.opening.map(|o| o.to_string())),
            ["A", "B"][self.black],
            escape(&self.commands[0]),
            escape(&self.commands[1]),
            self.move_time.as_nanos(),
            dash(self.game_time.map(|t| t.as_nanos().to_string())),
            dash(self.sprt.as_deref().map(escape)),
        )?;
        let fault = self
            .fault
            .as_ref()
            .map(|x| format!("{},{},{}", x.kind.name(), x.color.name(), escape(&x.detail)));
        write!(
            f,
            " fault={} times-black={} times-white={}",
            dash(fault),
            list(&self.times_us[0]),
            list(&self.times_us[1])
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::fault::FaultKind;

    #[test]
    fn round_trips_awkward_text() {
        let info = MatchInfo {
            game: 7,
            opening: Some(3),
            black: 1,
            commands: [
                "bash 'a b'.sh --x=1,2".into(),
                "./e [v] {w}; 100% 引擎".into(),
            ],
            move_time: Duration::from_millis(500),
            game_time: Some(Duration::from_nanos(1_234_567_891)),
            sprt: Some("0,5,0.05,0.05".into()),
            fault: Some(Fault {
                kind: FaultKind::Late,
                color: Color::White,
                detail: "no move within 0.7 s (move time 0.5 s + tolerance)\n".into(),
            }),
            times_us: [vec![1, 20, 300], vec![]],
        };
        let text = info.to_string();
        assert!(!text.contains(']') && !text.contains(';'), "{text}");
        assert_eq!(MatchInfo::parse(&text), Ok(info.clone()));
        let plain = MatchInfo {
            opening: None,
            game_time: None,
            sprt: None,
            fault: None,
            ..info
        };
        assert_eq!(MatchInfo::parse(&plain.to_string()), Ok(plain));
        for bad in [
            "c6 game=1",
            "c6match game=x",
            "c6match game=1 game=2",
            "c6match game=1 opening=- black=C",
        ] {
            assert!(MatchInfo::parse(bad).is_err(), "{bad}");
        }
        assert!(unescape("%4").is_err() && unescape("%ZZ").is_err());
    }
}

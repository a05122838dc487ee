//! The engine's options from a file beside the executable (`connect6.ini`), for a referee
//! platform that starts the engine from a file dialog, with no command line at all.
//!
//! One `key = value` a line; the keys are the engine's long options without the dashes
//! (`move-time = 2`, `name = Foo`), a flag takes `true` or `false`; `#` and `;` start a comment
//! line. The settings become `--key=value` arguments put before the real ones, so the command
//! line wins (the engine's parser lets a later option override an earlier one). Each setting
//! is checked alone by the same parser as the command line, so a bad one is refused naming its
//! key and line instead of as an anonymous bad option.

use clap::error::ErrorKind;
use std::fmt;
use std::path::{Path, PathBuf};

/// The file's name; it is looked for in the executable's folder.
pub const FILE_NAME: &str = "connect6.ini";

/// Why an options file is refused.
#[derive(Debug)]
pub enum OptionsFileError {
    Read(PathBuf, std::io::Error),
    /// A line that is neither `key = value`, a comment nor blank.
    Syntax(PathBuf, usize, String),
    UnknownKey(PathBuf, usize, String, Vec<String>),
    Repeated(PathBuf, usize, String),
    BadValue(PathBuf, usize, String, String),
}

impl fmt::Display for OptionsFileError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Self::Read(p, e) => write!(f, "options file {}: {e}", p.display()),
            Self::Syntax(p, n, text) => write!(
                f,
                "options file {} line {n}: '{text}' is not 'key = value'",
                p.display()
            ),
            Self::UnknownKey(p, n, key, known) => write!(
                f,
                "options file {} line {n}: unknown key '{key}' (the keys are the long options: {})",
                p.display(),
                known.join(", ")
            ),
            Self::Repeated(p, n, key) => write!(
                f,
                "options file {} line {n}: key '{key}' is given twice",
                p.display()
            ),
            Self::BadValue(p, n, key, why) => {
                write!(
                    f,
                    "options file {} line {n}: key '{key}': {why}",
                    p.display()
                )
            }
        }
    }
}

impl std::error::Error for OptionsFileError {}

/// The settings read from one file, in its order.
#[derive(Debug, PartialEq)]
pub struct OptionsFile {
    pub path: PathBuf,
    /// Each key and value as written (a relative `FILE` made absolute).
    pub settings: Vec<(String, String)>,
    /// The settings as arguments, to put before the command line's.
    pub args: Vec<String>,
}

impl fmt::Display for OptionsFile {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "options from {}:", self.path.display())?;
        if self.settings.is_empty() {
            return write!(f, " none");
        }
        for (i, (k, v)) in self.settings.iter().enumerate() {
            write!(f, "{} {k} = {v}", if i == 0 { "" } else { "," })?;
        }
        Ok(())
    }
}

/// The options file beside the executable, read, checked and logged (at info, which the
/// engine shows by default); `None` without one.
pub fn load(command: &clap::Command) -> Result<Option<OptionsFile>, OptionsFileError> {
    let Some(path) = beside_exe() else {
        return Ok(None);
    };
    let file = read(&path, command)?;
    log::info!("{file}");
    Ok(Some(file))
}

/// `connect6.ini` in the running executable's folder, when there is one.
pub fn beside_exe() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let path = exe.parent()?.join(FILE_NAME);
    path.is_file().then_some(path)
}

/// Reads and checks the file against `command`, the engine's command line (its top-level
/// options are the keys). Relative paths for `FILE` options are taken from the file's folder:
/// the platform may start the engine in any working folder.
pub fn read(path: &Path, command: &clap::Command) -> Result<OptionsFile, OptionsFileError> {
    let text = std::fs::read_to_string(path).map_err(|e| OptionsFileError::Read(path.into(), e))?;
    parse(path, &text, command)
}

fn parse(
    path: &Path,
    text: &str,
    command: &clap::Command,
) -> Result<OptionsFile, OptionsFileError> {
    let known: Vec<&clap::Arg> = command
        .get_arguments()
        .filter(|a| a.get_long().is_some() && !a.is_hide_set())
        .collect();
    let names = || {
        known
            .iter()
            .filter_map(|a| a.get_long())
            .map(String::from)
            .collect()
    };
    let folder = path.parent().unwrap_or(Path::new(""));
    let mut settings: Vec<(String, String)> = Vec::new();
    let mut args = Vec::new();
    // Windows' Notepad starts a UTF-8 file with a byte order mark.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            return Err(OptionsFileError::Syntax(path.into(), n, line.into()));
        };
        let (key, value) = (key.trim(), unquote(value.trim()));
        let Some(arg) = known.iter().find(|a| a.get_long() == Some(key)) else {
            return Err(OptionsFileError::UnknownKey(
                path.into(),
                n,
                key.into(),
                names(),
            ));
        };
        if settings.iter().any(|(k, _)| k == key) {
            return Err(OptionsFileError::Repeated(path.into(), n, key.into()));
        }
        let bad = |why: String| OptionsFileError::BadValue(path.into(), n, key.into(), why);
        let value = if is_file(arg) && !value.is_empty() && Path::new(value).is_relative() {
            folder.join(value).display().to_string()
        } else {
            value.to_string()
        };
        let argument = match (arg.get_action().takes_values(), value.as_str()) {
            (true, _) => format!("--{key}={value}"),
            (false, "true") => format!("--{key}"),
            (false, "false") => String::new(),
            (false, _) => return Err(bad(format!("'{value}' is not true or false"))),
        };
        if !argument.is_empty() {
            let alone = command
                .clone()
                .try_get_matches_from(["connect6", &argument]);
            // Help or version cannot come from a setting: anything else is its value's fault.
            if let Err(e) = alone
                && !matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion)
            {
                return Err(bad(first_line(&e)));
            }
            args.push(argument);
        }
        settings.push((key.into(), value));
    }
    Ok(OptionsFile {
        path: path.into(),
        settings,
        args,
    })
}

/// `"text"` is `text`, so a path with spaces can be written as on a command line.
fn unquote(value: &str) -> &str {
    value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or(value)
}

fn is_file(arg: &clap::Arg) -> bool {
    arg.get_value_names()
        .is_some_and(|names| names.iter().any(|n| n.as_str() == "FILE"))
}

/// clap's message without its `error: ` and usage lines.
fn first_line(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let line = text.lines().next().unwrap_or_default();
    line.strip_prefix("error: ").unwrap_or(line).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{Arg, ArgAction, Command};

    fn command() -> Command {
        Command::new("connect6")
            .arg(Arg::new("name").long("name"))
            .arg(
                Arg::new("move-time")
                    .long("move-time")
                    .value_parser(clap::value_parser!(f64)),
            )
            .arg(Arg::new("ponder").long("ponder").action(ArgAction::SetTrue))
            .arg(
                Arg::new("ranking-file")
                    .long("ranking-file")
                    .value_name("FILE"),
            )
    }

    fn parse_text(text: &str) -> Result<OptionsFile, OptionsFileError> {
        parse(Path::new("dir/connect6.ini"), text, &command())
    }

    #[test]
    fn settings_become_arguments() {
        let file = parse_text(
            "\u{feff}# tournament\r\nname = Foo\r\n; quiet\r\n\r\nmove-time=0.5\r\n\
             ponder = true\r\nranking-file = \"my ranking.bin\"\r\n",
        )
        .unwrap();
        let ranking = Path::new("dir")
            .join("my ranking.bin")
            .display()
            .to_string();
        assert_eq!(
            file.args,
            [
                "--name=Foo".to_string(),
                "--move-time=0.5".into(),
                "--ponder".into(),
                format!("--ranking-file={ranking}"),
            ]
        );
        assert_eq!(
            file.to_string(),
            format!(
                "options from dir/connect6.ini: name = Foo, move-time = 0.5, ponder = true, \
                 ranking-file = {ranking}"
            )
        );
        assert!(parse_text("ponder = false\n").unwrap().args.is_empty());
        assert_eq!(
            parse_text("").unwrap().to_string(),
            "options from dir/connect6.ini: none"
        );
    }

    #[test]
    fn a_bad_file_is_refused_naming_the_key_and_line() {
        let why = |text: &str| parse_text(text).unwrap_err().to_string();
        let e = why("name = A\nmovetime = 2\n");
        assert!(
            e.starts_with("options file dir/connect6.ini line 2: unknown key 'movetime'"),
            "{e}"
        );
        assert!(e.contains("name, move-time, ponder, ranking-file"), "{e}");
        let e = why("move-time = fast\n");
        assert!(
            e.contains("line 1: key 'move-time': invalid value 'fast'"),
            "{e}"
        );
        let e = why("ponder = yes\n");
        assert!(
            e.contains("key 'ponder': 'yes' is not true or false"),
            "{e}"
        );
        let e = why("name = A\nname = B\n");
        assert!(e.contains("line 2: key 'name' is given twice"), "{e}");
        let e = why("[engine]\n");
        assert!(e.contains("line 1: '[engine]' is not 'key = value'"), "{e}");
        for e in ["name = A\nmovetime = 2\n", "move-time = fast\n"] {
            assert_eq!(why(e).lines().count(), 1, "{}", why(e));
        }
    }
}

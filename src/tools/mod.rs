//! Tools for the people around the engine: pictures of games (`connect6 show`) and the
//! analysis of lost games (`connect6 analyse`). They read games through [`game::Game`].

pub mod analyse;
pub mod game;
pub mod show;

use std::process::ExitCode;

/// Parses `args` (the words after the subcommand) into `A` with clap, printing clap's
/// message (help, or an error with exit status 2) when they do not parse.
fn parse_args<A: clap::Args>(command: &'static str, args: &[String]) -> Result<A, ExitCode> {
    use clap::error::ErrorKind;
    let cli = A::augment_args(clap::Command::new(command));
    let words = std::iter::once(command.to_string()).chain(args.iter().cloned());
    match cli
        .try_get_matches_from(words)
        .and_then(|m| A::from_arg_matches(&m))
    {
        Ok(a) => Ok(a),
        Err(e) => {
            let _ = e.print();
            let help = matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion);
            Err(if help {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(2)
            })
        }
    }
}

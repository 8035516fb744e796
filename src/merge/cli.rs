//! `irgit merge` entry point (stub until the merge work lands).

use std::path::Path;
use std::process::ExitCode;

/// Arguments of `irgit merge`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {}

pub fn run(_args: MergeArgs, _config: Option<&Path>) -> ExitCode {
    eprintln!("irgit merge: not available in this build yet");
    ExitCode::from(2)
}

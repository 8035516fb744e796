//! `irgit hook pre-commit` (owned by the git-integration work; stub until it lands).

use std::path::Path;
use std::process::ExitCode;

/// Arguments of `irgit hook`.
#[derive(clap::Args, Debug)]
pub struct HookArgs {}

pub fn run(_args: HookArgs, _config: Option<&Path>) -> ExitCode {
    eprintln!("irgit hook: not available in this build yet");
    ExitCode::from(2)
}

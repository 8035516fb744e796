//! `irgit doctor` (owned by the git-integration work; stub until it lands).

use std::path::Path;
use std::process::ExitCode;

/// Arguments of `irgit doctor`.
#[derive(clap::Args, Debug)]
pub struct DoctorArgs {}

pub fn run(_args: DoctorArgs, _config: Option<&Path>) -> ExitCode {
    eprintln!("irgit doctor: not available in this build yet");
    ExitCode::from(2)
}

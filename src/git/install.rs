//! `irgit install` / `irgit uninstall` (owned by the git-integration work; stub until it lands).

use std::path::Path;
use std::process::ExitCode;

/// Arguments of `irgit install`.
#[derive(clap::Args, Debug)]
pub struct InstallArgs {}

/// Arguments of `irgit uninstall`.
#[derive(clap::Args, Debug)]
pub struct UninstallArgs {}

pub fn run_install(_args: InstallArgs, _config: Option<&Path>) -> ExitCode {
    eprintln!("irgit install: not available in this build yet");
    ExitCode::from(2)
}

pub fn run_uninstall(_args: UninstallArgs, _config: Option<&Path>) -> ExitCode {
    eprintln!("irgit uninstall: not available in this build yet");
    ExitCode::from(2)
}

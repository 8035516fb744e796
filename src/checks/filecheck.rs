//! Runs a test's RUN lines as lit would, with the tools the user's git
//! config names, and says whether FileCheck passes on every one.
//!
//! ```text
//! merged test ─► tmp/test.ll ─► opt -passes=instcombine -S < test.ll ─► FileCheck test.ll
//!   passes on every RUN line     ─► Verdict::Passes
//!   FileCheck fails at line 7    ─► Verdict::Fails { run_line: 2, function: Some("f"), .. }
//!   a RUN line irgit will not run ─► Verdict::NotRun("line 2: `-load-pass-plugin=x.so` ...")
//! ```

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::run_lines::{pipelines, Input, Pipeline, Tool};

/// The programs a RUN line may start, each a path from the user's own
/// configuration (never from the test or the repository).
#[derive(Clone, Debug, Default)]
pub(crate) struct Tools {
    pub(crate) opt: Option<PathBuf>,
    pub(crate) llc: Option<PathBuf>,
    pub(crate) file_check: Option<PathBuf>,
    /// `update_test_checks.py`, only ever from `irgit.updateTestChecks`.
    pub(crate) update_test_checks: Option<PathBuf>,
}

impl Tools {
    fn tool(&self, tool: Tool) -> Option<&Path> {
        match tool {
            Tool::Opt => self.opt.as_deref(),
            Tool::Llc => self.llc.as_deref(),
        }
    }
}

/// What running a test's RUN lines said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// FileCheck passed on every RUN line.
    Passes,
    /// A RUN line failed: the tool, or FileCheck.
    Fails {
        /// The line the failing RUN line starts on.
        run_line: usize,
        /// The function whose CHECK block FileCheck stopped in, if it said.
        function: Option<String>,
        /// The first line of the failure's message.
        why: String,
    },
    /// The RUN lines could not be run (refused, or a tool missing).
    NotRun(String),
}

/// How long one tool of one RUN line may take.
const TIME_LIMIT: Duration = Duration::from_secs(120);

/// Runs every RUN line of `test` on `test` itself.
pub(crate) fn check(test: &str, tools: &Tools) -> Verdict {
    let runs = match pipelines(test) {
        Ok(runs) => runs,
        Err(refused) => {
            return Verdict::NotRun(format!("RUN line {}: {}", refused.line, refused.why))
        }
    };
    let dir = match tempfile::tempdir() {
        Ok(dir) => dir,
        Err(e) => return Verdict::NotRun(format!("no temporary directory: {e}")),
    };
    let file = dir.path().join("test.ll");
    if let Err(e) = std::fs::write(&file, test) {
        return Verdict::NotRun(format!("cannot write {}: {e}", file.display()));
    }
    for run in &runs {
        match run_one(run, &file, tools) {
            Ok(None) => {}
            Ok(Some((why, check_line))) => {
                let function = check_line.and_then(|line| function_at(test, line));
                return Verdict::Fails {
                    run_line: run.line,
                    function,
                    why,
                };
            }
            Err(not_run) => return Verdict::NotRun(format!("RUN line {}: {not_run}", run.line)),
        }
    }
    Verdict::Passes
}

/// Runs one pipeline: `Ok(None)` when it passes, `Ok(Some((why, line of
/// the failing check)))` when it fails, `Err` when it cannot run.
fn run_one(
    run: &Pipeline,
    file: &Path,
    tools: &Tools,
) -> Result<Option<(String, Option<usize>)>, String> {
    let tool = tools
        .tool(run.tool)
        .ok_or_else(|| format!("no {0} (set `git config irgit.{0} PATH`)", run.tool.name()))?;
    let file_check = tools
        .file_check
        .as_deref()
        .ok_or("no FileCheck (set `git config irgit.fileCheck PATH`)")?;
    let mut command = Command::new(tool);
    command.args(&run.tool_args);
    match run.input {
        Input::Argument => command.arg(file),
        Input::Stdin => command.stdin(open(file)?),
    };
    let printed = output_within(command, None)?;
    if !printed.success {
        let first = first_line(&printed.stderr);
        return Ok(Some((format!("{} failed: {first}", run.tool.name()), None)));
    }
    let mut input = printed.stdout;
    if run.merge_stderr {
        input.extend_from_slice(&printed.stderr);
    }
    let mut command = Command::new(file_check);
    command.args(&run.check_args).arg(file);
    let checked = output_within(command, Some(&input))?;
    if checked.success {
        return Ok(None);
    }
    let message = first_line(&checked.stderr);
    let line = failing_check_line(&message, file);
    let why = match line {
        Some(line) => {
            let after = message.splitn(4, ':').nth(3).unwrap_or(&message).trim();
            format!("FileCheck at line {line}: {after}")
        }
        None => message,
    };
    Ok(Some((why, line)))
}

fn open(file: &Path) -> Result<std::fs::File, String> {
    std::fs::File::open(file).map_err(|e| format!("cannot read {}: {e}", file.display()))
}

/// What a finished command left.
pub(crate) struct Finished {
    pub(crate) success: bool,
    pub(crate) stdout: Vec<u8>,
    pub(crate) stderr: Vec<u8>,
}

/// Runs `command` (its stdin `input`, if given) under [`TIME_LIMIT`].
pub(crate) fn output_within(
    mut command: Command,
    input: Option<&[u8]>,
) -> Result<Finished, String> {
    let program = command.get_program().to_string_lossy().into_owned();
    if input.is_some() {
        command.stdin(Stdio::piped());
    }
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    let feeder = input.map(|bytes| {
        let mut stdin = child.stdin.take().expect("stdin was piped");
        let bytes = bytes.to_vec();
        std::thread::spawn(move || {
            let _ = stdin.write_all(&bytes);
        })
    });
    let start = Instant::now();
    let reader = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = reader(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = reader(child.stderr.take().map(|p| Box::new(p) as _));
    let status = loop {
        match child.try_wait().map_err(|e| format!("{program}: {e}"))? {
            Some(status) => break status,
            None if start.elapsed() > TIME_LIMIT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "{program} took longer than {}s",
                    TIME_LIMIT.as_secs()
                ));
            }
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    };
    if let Some(feeder) = feeder {
        let _ = feeder.join();
    }
    Ok(Finished {
        success: status.success(),
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    })
}

fn first_line(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    text.lines()
        .next()
        .unwrap_or("(no message)")
        .trim()
        .to_string()
}

/// The line of the test FileCheck names in `file:LINE:COL: error:`.
fn failing_check_line(message: &str, file: &Path) -> Option<usize> {
    let rest = message.strip_prefix(&format!("{}:", file.display()))?;
    rest.split(':').next()?.parse().ok()
}

/// The function whose CHECK block holds `line` (1-based): the `@name` of
/// the nearest `-LABEL:` check at or above it.
pub(crate) fn function_at(test: &str, line: usize) -> Option<String> {
    let lines: Vec<&str> = test.lines().take(line).collect();
    let label = lines.iter().rev().find(|l| l.contains("-LABEL:"))?;
    let at = label.find('@')?;
    let name: String = label[at + 1..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$' | '-'))
        .collect();
    (!name.is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_check_line_belongs_to_the_label_above_it() {
        let test = "; CHECK-LABEL: define i32 @first(\n; CHECK: a\n; CHECK-LABEL: @second(\n; CHECK-NEXT: b\n";
        assert_eq!(function_at(test, 2).as_deref(), Some("first"));
        assert_eq!(function_at(test, 4).as_deref(), Some("second"));
        assert_eq!(function_at("; CHECK: x\n", 1), None);
    }

    #[test]
    fn a_missing_tool_is_not_run() {
        let test = "; RUN: opt -S %s | FileCheck %s\n";
        assert!(
            matches!(check(test, &Tools::default()), Verdict::NotRun(why) if why.contains("irgit.opt"))
        );
    }
}

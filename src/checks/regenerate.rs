//! The CHECK lines of a test `update_test_checks.py` wrote, written anew
//! from what opt prints for the test's IR: by the script the user's git
//! config names (`irgit.updateTestChecks`), or by irgit's own writer of the
//! script's format (`--version 5`; a prefix several RUN lines share checks
//! what they print alike; no metadata in the checked lines; anything else
//! is refused, never guessed).
//!
//! ```text
//! ; RUN: opt < %s -passes=instcombine -S | FileCheck %s
//! define i32 @g(i32 %v) {                  define i32 @g(i32 %v) {
//!   %w = mul i32 %v, 2             ─►      ; CHECK-LABEL: define i32 @g(
//!   ret i32 %w                             ; CHECK-SAME: i32 [[V:%.*]]) {
//! }                                        ; CHECK-NEXT:    [[W:%.*]] = shl i32 [[V]], 1
//!                                          ; CHECK-NEXT:    ret i32 [[W]]
//!                                          ;
//!                                            %w = mul i32 %v, 2 ...
//! ```
//!
//! Nothing here is trusted on its word: [`super::regeneration`] uses a
//! regenerator only once it has written each version's own CHECK lines
//! byte for byte from that version's IR.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::process::Command;

use super::filecheck::{output_within, Tools};
use super::run_lines::{pipelines, Input, Pipeline, Tool};
use crate::three::Three;

/// The one script whose tests are regenerated.
pub(crate) const SCRIPT: &str = "update_test_checks.py";

/// Who regenerates: the configured script, or irgit itself.
pub(crate) fn regenerator_name(tools: &Tools) -> String {
    match &tools.update_test_checks {
        Some(script) => format!("{} (irgit.updateTestChecks)", script.display()),
        None => "irgit's own regeneration".into(),
    }
}

/// `test` with every function's CHECK block written anew for its IR by
/// the configured script, else by irgit's own writer; or why not.
pub(crate) fn regenerated(test: &str, tools: &Tools) -> Result<String, String> {
    let generated = super::generated_by(test)
        .ok_or("no NOTE line names the script that wrote its CHECK lines")?;
    if generated.script != SCRIPT {
        return Err(format!(
            "its CHECK lines were written by {}: only {SCRIPT} tests are regenerated for now",
            generated.script
        ));
    }
    let utc_args: Vec<&str> = (generated.utc_args.as_deref().unwrap_or(""))
        .split_whitespace()
        .collect();
    if let Some(arg) = utc_args.iter().find(|a| names_a_program(a)) {
        return Err(format!(
            "its UTC_ARGS name a program ({arg}): only the opt your git config names runs"
        ));
    }
    let runs = pipelines(test).map_err(|r| format!("RUN line {}: {}", r.line, r.why))?;
    if let Some(run) = runs.iter().find(|r| r.tool != Tool::Opt) {
        return Err(format!("RUN line {} does not run opt", run.line));
    }
    let opt = tools
        .opt
        .as_deref()
        .ok_or("no opt (set `git config irgit.opt PATH`)")?;
    match &tools.update_test_checks {
        Some(script) => by_script(test, script, opt),
        None => by_irgit(test, &utc_args, &runs, opt),
    }
}

/// An argument that names a program to run (`--opt-binary=...`, `--tool ...`).
fn names_a_program(arg: &str) -> bool {
    arg.contains("binary") || arg.starts_with("--tool") || arg.contains('/')
}

/// The script, run as `SCRIPT --opt-binary OPT test.ll` on a copy.
fn by_script(test: &str, script: &Path, opt: &Path) -> Result<String, String> {
    let dir = tempfile::tempdir().map_err(|e| format!("no temporary directory: {e}"))?;
    let file = dir.path().join("test.ll");
    std::fs::write(&file, test).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    let mut command = match script.extension().is_some_and(|e| e == "py") {
        true => {
            let mut c = Command::new("python3");
            c.arg(script);
            c
        }
        false => Command::new(script),
    };
    command
        .arg("--opt-binary")
        .arg(opt)
        .arg(&file)
        .current_dir(dir.path());
    let ran = output_within(command, None)?;
    if !ran.success {
        let said = String::from_utf8_lossy(&ran.stderr);
        let first = said.lines().next().unwrap_or("no message");
        return Err(format!("{} failed: {first}", script.display()));
    }
    std::fs::read_to_string(&file).map_err(|e| format!("cannot read {}: {e}", file.display()))
}

/// irgit's own writer of the script's format.
fn by_irgit(
    test: &str,
    utc_args: &[&str],
    runs: &[Pipeline],
    opt: &Path,
) -> Result<String, String> {
    if utc_args != ["--version", "5"] {
        return Err(format!(
            "UTC_ARGS `{}` are not covered by irgit's own regeneration (only `--version 5`); \
             set `git config irgit.updateTestChecks PATH` to use the script",
            utc_args.join(" ")
        ));
    }
    let mut printed = Vec::new();
    let mut run_prefixes = Vec::new();
    for run in runs {
        let prefixes = check_prefixes(&run.check_args).ok_or_else(|| {
            format!(
                "RUN line {}: a check prefix option without a value",
                run.line
            )
        })?;
        printed.push(printed_by_opt(test, run, opt)?);
        run_prefixes.push(prefixes);
    }
    let bodies = bodies_by_prefix(&printed, &run_prefixes);
    let mut attributes: HashMap<&str, HashSet<String>> = HashMap::new();
    let mut blocks: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (name, _) in printed.iter().flat_map(|p| functions(p)) {
        if blocks.contains_key(&name) {
            continue;
        }
        let block = blocks.entry(name.clone()).or_default();
        // Per RUN line, the first of its prefixes whose body every RUN line
        // with it printed alike; a prefix already written ends the line's turn.
        let mut written: Vec<&str> = Vec::new();
        for prefixes in &run_prefixes {
            for prefix in prefixes {
                if written.contains(&prefix.as_str()) {
                    break;
                }
                let Some(Some((function, run))) =
                    bodies.get(prefix.as_str()).and_then(|b| b.get(&name))
                else {
                    continue;
                };
                let seen = attributes.entry(prefix).or_default();
                let function: Vec<&str> = function.iter().map(String::as_str).collect();
                block.extend(check_block(prefix, &function, &printed[*run], seen)?);
                written.push(prefix);
                break;
            }
        }
    }
    let all: Vec<String> = run_prefixes.concat();
    with_blocks(&without_checks(test, &all), &blocks)
}

/// Per prefix, per function: its printed lines and the RUN line (index)
/// that printed them, or `None` where RUN lines with that prefix printed it
/// differently, or one of them did not print it.
type Bodies<'p> = HashMap<&'p str, HashMap<String, Option<(Vec<String>, usize)>>>;

fn bodies_by_prefix<'p>(printed: &[String], run_prefixes: &'p [Vec<String>]) -> Bodies<'p> {
    let mut bodies: Bodies<'p> = HashMap::new();
    for (run, prefixes) in run_prefixes.iter().enumerate() {
        let functions: BTreeMap<String, Vec<String>> = functions(&printed[run])
            .into_iter()
            .map(|(n, f)| (n, f.into_iter().map(str::to_string).collect()))
            .collect();
        for prefix in prefixes {
            let known = bodies.entry(prefix).or_default();
            let first_run =
                known.is_empty() && !run_prefixes[..run].iter().any(|p| p.contains(prefix));
            for (name, body) in &functions {
                match known.get(name) {
                    None if first_run => {
                        known.insert(name.clone(), Some((body.clone(), run)));
                    }
                    Some(Some((earlier, _))) if earlier == body => {}
                    _ => {
                        known.insert(name.clone(), None);
                    }
                }
            }
            for (_, body) in known
                .iter_mut()
                .filter(|(n, _)| !functions.contains_key(*n))
            {
                *body = None;
            }
        }
    }
    bodies
}

/// The check prefixes of FileCheck's arguments, in order (`CHECK` when
/// none is named); `None` for an option without a value.
fn check_prefixes(check_args: &[String]) -> Option<Vec<String>> {
    let mut prefixes = Vec::new();
    let mut args = check_args.iter();
    while let Some(arg) = args.next() {
        let value = match arg.split_once('=') {
            Some((key, value)) if is_prefix_option(key) => value.to_string(),
            None if is_prefix_option(arg) => args.next()?.clone(),
            _ => continue,
        };
        prefixes.extend(value.split(',').map(str::to_string));
    }
    if prefixes.is_empty() {
        prefixes.push("CHECK".into());
    }
    Some(prefixes)
}

fn is_prefix_option(key: &str) -> bool {
    let key = key.trim_start_matches('-');
    key == "check-prefix" || key == "check-prefixes"
}

/// What opt prints for `test` on `run`'s arguments.
fn printed_by_opt(test: &str, run: &Pipeline, opt: &Path) -> Result<String, String> {
    let mut command = Command::new(opt);
    command.args(&run.tool_args);
    let (input, arg) = match run.input {
        Input::Stdin => (Some(test.as_bytes()), None),
        Input::Argument => (None, Some("-")),
    };
    command.args(arg);
    let stdin = input.unwrap_or(test.as_bytes());
    let printed = output_within(command, Some(stdin))?;
    if !printed.success {
        let said = String::from_utf8_lossy(&printed.stderr);
        let first = said.lines().next().unwrap_or("no message").to_string();
        return Err(format!("RUN line {}: opt failed: {first}", run.line));
    }
    String::from_utf8(printed.stdout).map_err(|_| "opt printed bytes that are not UTF-8".into())
}

/// The functions `printed` defines, by name: the `define` line and every
/// line up to the closing `}`.
fn functions(printed: &str) -> Vec<(String, Vec<&str>)> {
    let mut out: Vec<(String, Vec<&str>)> = Vec::new();
    let mut current: Option<(String, Vec<&str>)> = None;
    for line in printed.lines() {
        if let Some((_, lines)) = current.as_mut() {
            if line == "}" {
                out.extend(current.take());
            } else {
                lines.push(line);
            }
        } else if line.starts_with("define ") {
            let name = crate::text::function_name(line).unwrap_or(line);
            current = Some((name.trim_start_matches('@').to_string(), vec![line]));
        }
    }
    out
}

/// The CHECK lines of one printed function under `prefix`.
/// `attributes`: the attribute-group variables defined so far under this
/// prefix (they are the module's, not the function's).
fn check_block(
    prefix: &str,
    function: &[&str],
    printed: &str,
    attributes: &mut HashSet<String>,
) -> Result<Vec<String>, String> {
    let (define, body) = function.split_first().ok_or("an empty function")?;
    let define = code(define);
    let name = crate::text::function_name(define).ok_or("a define line without a name")?;
    let open = define
        .find(&format!("{name}("))
        .ok_or("a define line without arguments")?
        + name.len();
    let types: HashSet<&str> = printed
        .lines()
        .filter_map(|l| l.strip_prefix('%')?.split_once(" = type ").map(|(t, _)| t))
        .collect();
    let labels: HashSet<&str> = body
        .iter()
        .filter_map(|l| crate::text::label_name(code(l)))
        .collect();
    let mut branched_to = HashSet::new();
    for line in body.iter().map(|l| code(l)) {
        crate::text::scan_tokens(line, |_, _, sigil, name| {
            if sigil == b'%' && labels.contains(name) {
                branched_to.insert(name);
            }
        });
    }
    let mut names = Names {
        types,
        labels,
        branched_to,
        seen: HashSet::new(),
        attributes,
    };
    // The arguments go on a SAME line; a function without any is one LABEL line.
    let mut out = match define[open + 1..].starts_with(')') {
        true => vec![format!("; {prefix}-LABEL: {}", names.generalized(define)?)],
        false => vec![
            format!("; {prefix}-LABEL: {}", &define[..=open]),
            format!(
                "; {prefix}-SAME: {}",
                names.generalized(&define[open + 1..])?
            ),
        ],
    };
    let next = format!("{prefix}-NEXT:");
    let after_blank = format!("{prefix}:{}", " ".repeat(next.len() - prefix.len() - 1));
    let mut blank = false;
    for line in body {
        let line = code(line);
        if line.is_empty() {
            blank = true;
            continue;
        }
        let directive = if blank { &after_blank } else { &next };
        out.push(format!("; {directive}  {}", names.generalized(line)?));
        blank = false;
    }
    out.push(";".into());
    Ok(out)
}

/// A printed line without its comment (`; preds = ...`) and trailing space.
fn code(line: &str) -> &str {
    let end = crate::comments::layout::comment_start(line).unwrap_or(line.len());
    line[..end].trim_end()
}

/// The FileCheck variables of one function's lines.
struct Names<'p, 'a> {
    /// Named types (`%struct.s`), written as they are.
    types: HashSet<&'p str>,
    /// The function's block labels.
    labels: HashSet<&'p str>,
    /// The labels a line refers to (`br label %loop`, a phi's `%entry`).
    branched_to: HashSet<&'p str>,
    /// The variables defined so far in the function (`X`, `TMP0`).
    seen: HashSet<String>,
    /// The attribute-group variables defined so far (`ATTR1`).
    attributes: &'a mut HashSet<String>,
}

impl Names<'_, '_> {
    /// `line` with each value, label and attribute group a variable:
    /// defined where it first appears (`[[X:%.*]]`), used after (`[[X]]`).
    fn generalized(&mut self, line: &str) -> Result<String, String> {
        if line.contains("[[") || line.contains("{{") {
            return Err("a line that holds `[[` or `{{`".into());
        }
        if let Some(label) = crate::text::label_name(line) {
            // A label no line refers to holds its colon: `[[ENTRY:.*:]]`.
            let var = Self::variable(label, "BB");
            return Ok(match self.branched_to.contains(label) {
                true => format!("{}:", self.written(var, ".*")),
                false => self.written(var, ".*:"),
            });
        }
        let (mut out, mut copied, mut failed) = (String::with_capacity(line.len() * 2), 0, None);
        crate::text::scan_tokens(line, |i, j, sigil, name| {
            let written = match sigil {
                b'%' if self.types.contains(name) => return,
                b'%' if name.starts_with('"') => {
                    failed = Some(format!("a quoted name %{name}"));
                    return;
                }
                b'%' if self.labels.contains(name) => {
                    format!("%{}", self.written(Self::variable(name, "BB"), ".*"))
                }
                b'%' => self.written(Self::variable(name, "TMP"), "%.*"),
                b'#' => format!(
                    "#{}",
                    defined_once(self.attributes, format!("ATTR{name}"), "[0-9]+")
                ),
                b'!' => {
                    failed = Some(format!("metadata (!{name})"));
                    return;
                }
                _ => return,
            };
            out.push_str(&line[copied..i]);
            out.push_str(&written);
            copied = j;
        });
        out.push_str(&line[copied..]);
        match failed {
            Some(what) => Err(format!("{what} is not covered by irgit's own regeneration")),
            None => Ok(out),
        }
    }

    /// The variable of `name`: upper case, `.` and `-` as `_`, a leading
    /// `.` as `DOT`; a number
    /// after `numbered` (`%0` → `TMP0`).
    fn variable(name: &str, numbered: &str) -> String {
        if name.bytes().all(|b| b.is_ascii_digit()) {
            return format!("{numbered}{name}");
        }
        // A leading `.` reads `DOT` (`%.lobit` → `DOTLOBIT`).
        let (head, name) = match name.strip_prefix('.') {
            Some(rest) => ("DOT", rest),
            None => ("", name),
        };
        let body: String = name
            .chars()
            .map(|c| match c.is_ascii_alphanumeric() {
                true => c.to_ascii_uppercase(),
                false => '_',
            })
            .collect();
        format!("{head}{body}")
    }

    /// `[[VAR:pattern]]` the first time, `[[VAR]]` after.
    fn written(&mut self, var: String, pattern: &str) -> String {
        defined_once(&mut self.seen, var, pattern)
    }
}

/// The merge of a generated test by regeneration: each version's CHECK
/// lines set aside, the IR merged by `merge_ir` (which must be clean), and
/// the merged IR's CHECK lines written anew. Trusted only when the
/// regenerator writes each version's own CHECK lines byte for byte from
/// its IR, and the result only when FileCheck passes on every RUN line.
pub(crate) fn merged_by_regeneration(
    versions: Three<&str>,
    tools: &Tools,
    merge_ir: impl FnOnce(Three<&str>) -> Result<String, String>,
) -> Result<String, String> {
    let prefixes = prefixes_of(versions.ours);
    let bare = versions.map(|v| without_checks(v, &prefixes));
    for (side, (version, bare)) in ["base", "ours", "theirs"]
        .into_iter()
        .zip(versions.zip(bare.as_ref()))
    {
        if regenerated(bare, tools)? != version {
            return Err(format!(
                "{} does not write {side}'s CHECK lines from its own IR as they are (they may \
                 have been written by another opt, or with options it does not cover)",
                regenerator_name(tools)
            ));
        }
    }
    let merged = merge_ir(bare.as_ref().map(String::as_str))?;
    passing(regenerated(&merged, tools)?, tools)
}

/// `test` when FileCheck passes on every RUN line of it, else why not.
pub(crate) fn passing(test: String, tools: &Tools) -> Result<String, String> {
    match super::filecheck::check(&test, tools) {
        super::filecheck::Verdict::Passes => Ok(test),
        super::filecheck::Verdict::Fails { why, .. } => {
            Err(format!("FileCheck fails on the regenerated test: {why}"))
        }
        super::filecheck::Verdict::NotRun(why) => Err(format!("FileCheck was not run: {why}")),
    }
}

/// Every check prefix the RUN lines of `test` name (`CHECK` when one names
/// none); none when irgit would not run them (then nothing is regenerated).
pub(crate) fn prefixes_of(test: &str) -> Vec<String> {
    let runs = pipelines(test).unwrap_or_default();
    let mut out: Vec<String> = runs
        .iter()
        .filter_map(|run| check_prefixes(&run.check_args))
        .flatten()
        .collect();
    out.sort();
    out.dedup();
    out
}

/// `[[VAR:pattern]]` when `seen` does not hold `VAR` yet, `[[VAR]]` after.
fn defined_once(seen: &mut HashSet<String>, var: String, pattern: &str) -> String {
    match seen.contains(&var) {
        true => format!("[[{var}]]"),
        false => {
            let written = format!("[[{var}:{pattern}]]");
            seen.insert(var);
            written
        }
    }
}

/// `test` without its CHECK lines of `prefixes` and its `;` lines.
pub(crate) fn without_checks(test: &str, prefixes: &[String]) -> String {
    crate::text::lines_inclusive(test)
        .filter(|l| l.trim() != ";" && !checks_under(l, prefixes))
        .collect()
}

/// Whether `line` is a FileCheck directive of one of `prefixes`.
fn checks_under(line: &str, prefixes: &[String]) -> bool {
    let Some(word) = super::directive_word(line) else {
        return false;
    };
    let suffixes = ["-NEXT", "-NOT", "-DAG", "-LABEL", "-SAME", "-EMPTY"];
    let prefix = suffixes
        .iter()
        .find_map(|s| word.strip_suffix(s))
        .unwrap_or(word);
    prefixes.iter().any(|p| p == prefix)
}

/// `test` with each function's blocks (each closed by a `;` line) written
/// after its `define` line.
fn with_blocks(test: &str, blocks: &BTreeMap<String, Vec<String>>) -> Result<String, String> {
    let mut out = String::with_capacity(test.len() * 2);
    for line in crate::text::lines_inclusive(test) {
        out.push_str(line);
        if !line.starts_with("define ") {
            continue;
        }
        let name = crate::text::function_name(line).unwrap_or("");
        let Some(block) = blocks.get(name.trim_start_matches('@')) else {
            continue;
        };
        if !line.trim_end().ends_with('{') {
            return Err(format!("the define line of {name} does not end with `{{`"));
        }
        for check in block {
            out.push_str(check);
            out.push('\n');
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_labels_and_attributes_become_variables_defined_once() {
        let printed = "define i32 @f(i32 %x) #0 {\nentry:\n  br label %loop\n\nloop:                 ; preds = %entry\n  %0 = add i32 %x, 1\n  ret i32 %0\n}\n";
        let function: Vec<&str> = printed.lines().take_while(|l| *l != "}").collect();
        let block = check_block("CHECK", &function, printed, &mut HashSet::new()).unwrap();
        assert_eq!(
            block,
            [
                "; CHECK-LABEL: define i32 @f(",
                "; CHECK-SAME: i32 [[X:%.*]]) #[[ATTR0:[0-9]+]] {",
                "; CHECK-NEXT:  [[ENTRY:.*:]]",
                "; CHECK-NEXT:    br label %[[LOOP:.*]]",
                "; CHECK:       [[LOOP]]:",
                "; CHECK-NEXT:    [[TMP0:%.*]] = add i32 [[X]], 1",
                "; CHECK-NEXT:    ret i32 [[TMP0]]",
                ";",
            ]
        );
    }

    #[test]
    fn old_checks_and_their_closing_lines_go_and_others_stay() {
        let test = "; RUN: opt -S %s | FileCheck %s\ndefine void @f() {\n; CHECK-LABEL: define void @f(\n; CHECK-NEXT:    ret void\n;\n; X86: kept\n  ret void\n}\n";
        let stripped = without_checks(test, &["CHECK".into()]);
        assert_eq!(
            stripped,
            "; RUN: opt -S %s | FileCheck %s\ndefine void @f() {\n; X86: kept\n  ret void\n}\n"
        );
        let prefixes =
            |args: &[&str]| check_prefixes(&args.iter().map(|a| a.to_string()).collect::<Vec<_>>());
        assert_eq!(prefixes(&["--check-prefix=X86"]), Some(vec!["X86".into()]));
        assert_eq!(prefixes(&[]), Some(vec!["CHECK".into()]));
        assert_eq!(
            prefixes(&["--check-prefixes=A,B"]),
            Some(vec!["A".into(), "B".into()])
        );
    }
}

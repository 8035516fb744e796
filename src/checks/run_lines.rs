//! A test's `RUN:` lines, read as the pipelines lit would run, and only
//! those irgit may run itself: one LLVM tool reading the test, piped into
//! FileCheck reading the test's CHECK lines.
//!
//! ```text
//! ; RUN: opt < %s -passes=instcombine -S | FileCheck %s --check-prefixes=CHECK,X86
//!   ─► Pipeline { tool: Opt, tool_args: [-passes=instcombine, -S], input: Stdin,
//!                 merge_stderr: false, check_args: [--check-prefixes=CHECK,X86] }
//! ; RUN: opt -load-pass-plugin=%t/p.so %s | FileCheck %s
//!   ─► refused: the option loads code
//! ```
//!
//! Nothing on a RUN line names a program: the tool is looked up by its
//! name among the tools the user's git config names ([`crate::git::llvm_tools`]).
//! An option that loads code (`-load`, `-load-pass-plugin`, `--pass-plugin`,
//! ...), writes a file (`-o`), reads a response file (`@file`) or needs a lit
//! substitution other than `%s` is refused, and so is every shell construct
//! but `< %s`, `2>&1` and one `|`.

/// The LLVM tools a RUN line may start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tool {
    Opt,
    Llc,
}

impl Tool {
    /// The tool's name as RUN lines and git config keys (`irgit.opt`) spell it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Tool::Opt => "opt",
            Tool::Llc => "llc",
        }
    }
}

/// How the tool reads the test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Input {
    /// `opt %s`
    Argument,
    /// `opt < %s`
    Stdin,
}

/// One RUN line that irgit can run: `tool ARGS | FileCheck ARGS`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pipeline {
    /// The line in the file (1-based) where the RUN line starts.
    pub(crate) line: usize,
    pub(crate) tool: Tool,
    /// The tool's arguments without the input (`%s` or `< %s`).
    pub(crate) tool_args: Vec<String>,
    pub(crate) input: Input,
    /// `2>&1` before the pipe: FileCheck reads the tool's stderr too.
    pub(crate) merge_stderr: bool,
    /// FileCheck's arguments without the check file (`%s`).
    pub(crate) check_args: Vec<String>,
}

/// A RUN line irgit will not run, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Refused {
    pub(crate) line: usize,
    pub(crate) why: String,
}

/// The commands of the `RUN:` lines of `text`, continuation lines (`\`)
/// joined, with the line each starts on.
pub(crate) fn run_commands(text: &str) -> Vec<(usize, String)> {
    let mut commands = Vec::new();
    let mut open: Option<(usize, String)> = None;
    for (index, line) in text.lines().enumerate() {
        let Some(command) = run_text(line) else {
            continue;
        };
        let (start, mut joined) = open.take().unwrap_or((index + 1, String::new()));
        let continued = command.trim_end().strip_suffix('\\');
        joined.push_str(continued.unwrap_or(command).trim());
        match continued {
            Some(_) => {
                joined.push(' ');
                open = Some((start, joined));
            }
            None => commands.push((start, joined)),
        }
    }
    commands.extend(open);
    commands
}

/// The command after `RUN:` on a comment line (`; RUN: opt ...`).
fn run_text(line: &str) -> Option<&str> {
    let comment = line.trim_start().strip_prefix(';')?;
    let comment = comment.trim_start_matches(';').trim_start();
    comment.strip_prefix("RUN:")
}

/// Every RUN line of `text` as a pipeline irgit may run, or the first
/// one it refuses. A test without RUN lines has nothing to run: refused.
pub(crate) fn pipelines(text: &str) -> Result<Vec<Pipeline>, Refused> {
    let commands = run_commands(text);
    if commands.is_empty() {
        return Err(Refused {
            line: 0,
            why: "the test has no RUN line".into(),
        });
    }
    commands
        .into_iter()
        .map(|(line, command)| match pipeline(&command) {
            Ok(p) => Ok(Pipeline { line, ..p }),
            Err(why) => Err(Refused { line, why }),
        })
        .collect()
}

/// One RUN command as a pipeline (its `line` is set by the caller).
fn pipeline(command: &str) -> Result<Pipeline, String> {
    let words = shell_words(command)?;
    let stages: Vec<&[String]> = words.split(|w| w == "|").collect();
    let [tool_words, check_words] = stages.as_slice() else {
        return Err(format!("`{command}` is not one tool piped into FileCheck"));
    };
    let (tool, tool_args, input, merge_stderr) = tool_stage(tool_words)?;
    let check_args = check_stage(check_words)?;
    Ok(Pipeline {
        line: 0,
        tool,
        tool_args,
        input,
        merge_stderr,
        check_args,
    })
}

/// The tool, its arguments, how it reads the test, and `2>&1`.
fn tool_stage(words: &[String]) -> Result<(Tool, Vec<String>, Input, bool), String> {
    let (name, rest) = words.split_first().ok_or("an empty command")?;
    let tool = match name.as_str() {
        "opt" => Tool::Opt,
        "llc" => Tool::Llc,
        other => return Err(format!("irgit runs only opt and llc, not `{other}`")),
    };
    let (mut args, mut input, mut merge_stderr) = (Vec::new(), None, false);
    let mut words = rest.iter();
    while let Some(word) = words.next() {
        match word.as_str() {
            "<" if words.next().is_some_and(|w| w == "%s") => input = Some(Input::Stdin),
            "%s" => input = Some(Input::Argument),
            "2>&1" => merge_stderr = true,
            // Standard output, where the tool prints anyway.
            "-o" if words.clone().next().is_some_and(|w| w == "-") => {
                words.next();
                args.extend(["-o".to_string(), "-".to_string()]);
            }
            _ => args.push(allowed_option(word)?),
        }
    }
    let input = input.ok_or("the tool does not read the test (`%s`)")?;
    Ok((tool, args, input, merge_stderr))
}

/// FileCheck's arguments, without the check file `%s`.
fn check_stage(words: &[String]) -> Result<Vec<String>, String> {
    let (name, rest) = words.split_first().ok_or("an empty FileCheck stage")?;
    if name != "FileCheck" {
        return Err(format!("the pipe goes into `{name}`, not FileCheck"));
    }
    let mut args = Vec::new();
    let mut reads_test = false;
    for word in rest {
        match word.as_str() {
            "%s" => reads_test = true,
            _ => args.push(allowed_option(word)?),
        }
    }
    match reads_test {
        true => Ok(args),
        false => Err("FileCheck does not read the test's CHECK lines (`%s`)".into()),
    }
}

/// Option spellings that make a tool load code or write a file.
const REFUSED_OPTIONS: [&str; 6] = [
    "load",
    "load-pass-plugin",
    "pass-plugin",
    "fpass-plugin",
    "o",
    "plugin",
];

/// `word` when irgit may pass it on; else why not.
fn allowed_option(word: &str) -> Result<String, String> {
    if word.starts_with('@') {
        return Err(format!("`{word}` reads a response file"));
    }
    if word.contains('%') {
        return Err(format!(
            "`{word}` needs a lit substitution irgit does not make"
        ));
    }
    if ["<", ">", ">>", "2>", "&&", "||", ";", "&"].contains(&word) || word.starts_with('>') {
        return Err(format!("`{word}`: irgit runs no shell"));
    }
    let name = word.trim_start_matches('-');
    let name = name.split('=').next().unwrap_or(name);
    if word.starts_with('-')
        && REFUSED_OPTIONS
            .iter()
            .any(|r| name == *r || name.starts_with(&format!("{r}-plugin")))
    {
        return Err(format!("`{word}` would load code or write a file"));
    }
    Ok(word.to_string())
}

/// `command` split as a POSIX shell splits words: single and double quotes
/// group, a backslash escapes the next character; `|` stands alone.
fn shell_words(command: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => words.extend(word.take()),
            '|' => {
                words.extend(word.take());
                words.push("|".into());
            }
            '\'' => {
                let quoted: String = chars.by_ref().take_while(|&q| q != '\'').collect();
                word.get_or_insert_with(String::new).push_str(&quoted);
            }
            '"' => {
                let quoted: String = chars.by_ref().take_while(|&q| q != '"').collect();
                word.get_or_insert_with(String::new).push_str(&quoted);
            }
            '\\' => word.get_or_insert_with(String::new).extend(chars.next()),
            '$' | '`' => return Err("a shell expansion (`$`, backquote)".into()),
            _ => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_opt_run_line_is_a_pipeline() {
        let text = "; RUN: opt < %s -passes='default<O2>' -S \\\n; RUN:   | FileCheck %s --check-prefixes=A,B\n";
        let got = pipelines(text).unwrap();
        assert_eq!(
            got,
            vec![Pipeline {
                line: 1,
                tool: Tool::Opt,
                tool_args: vec!["-passes=default<O2>".into(), "-S".into()],
                input: Input::Stdin,
                merge_stderr: false,
                check_args: vec!["--check-prefixes=A,B".into()],
            }]
        );
    }

    #[test]
    fn output_to_stdout_is_allowed() {
        let runs = pipelines("; RUN: opt -S %s -o - -passes=instcombine | FileCheck %s\n").unwrap();
        assert_eq!(runs[0].tool_args, ["-S", "-o", "-", "-passes=instcombine"]);
    }

    #[test]
    fn options_that_load_code_or_write_files_are_refused() {
        for bad in [
            "; RUN: opt -load-pass-plugin=x.so -S %s | FileCheck %s",
            "; RUN: opt --load-pass-plugin x.so -S %s | FileCheck %s",
            "; RUN: opt -load x.so -S %s | FileCheck %s",
            "; RUN: opt --pass-plugin=x.so -S %s | FileCheck %s",
            "; RUN: opt -S %s -o out.ll | FileCheck %s",
            "; RUN: opt @args -S %s | FileCheck %s",
            "; RUN: /tmp/evil/opt -S %s | FileCheck %s",
            "; RUN: opt -S %s | FileCheck %s && rm -rf x",
            "; RUN: opt -S $(evil) %s | FileCheck %s",
            "; RUN: opt -S %t/x.ll | FileCheck %s",
            "; RUN: llvm-as %s -o %t",
        ] {
            assert!(pipelines(bad).is_err(), "{bad}");
        }
        assert!(pipelines("define void @f() {\n  ret void\n}\n").is_err());
    }

    #[test]
    fn an_analysis_run_line_keeps_its_stderr() {
        let text = ";; RUN: opt -passes='print<scalar-evolution>' -disable-output %s 2>&1 | FileCheck %s\n";
        let got = pipelines(text).unwrap();
        assert!(got[0].merge_stderr);
        assert_eq!(got[0].input, Input::Argument);
    }
}

//! `git diff` as installed: git's external diff (`diff.llvm-ir.command =
//! irgit diff --smallest`) sees both versions of a file, so it can print
//! the smallest honest diff of two: git's own line diff of the files as
//! written, or the diff of the two views (what textconv shows). It is never
//! longer than git's diff, by construction, and a version LLVM rejects
//! gets git's diff.
//!
//! ```text
//! old.ll: a test in old syntax (`!9 = metadata !{!4}`)   new.ll: `!9 = !{!4}`
//!   git's diff: 2 lines     the views' diff: 42 lines (one side LLVM rejects)  ─►  git's diff
//! old.ll, new.ll: one statement inserted at -O0, every `%N` below renumbered
//!   git's diff: 70 lines    the views' diff: 20 lines                         ─►  the views'
//! ```
//!
//! Both diffs are git's own (`git diff --no-index`, with the driver's
//! `xfuncname` hunk headers and git's colours), under the header git writes
//! for the path (`diff --git a/P b/P`, `index OLD..NEW MODE`). The views come
//! from `irgit-textconv`, its cache and its resident server, as `git log -p`
//! gets them. Honest: the view hides no change LLVM sees, and keeps the
//! file's names where they are content (tests, hand-written IR).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::drivers::{FUNCTION_HEADER, TEXTCONV_PROGRAM};

/// The arguments git passes an external diff, by name.
pub(crate) struct ExternalArgs<'a> {
    path: &'a str,
    old_file: &'a str,
    old_hex: &'a str,
    old_mode: &'a str,
    new_file: &'a str,
    new_hex: &'a str,
    new_mode: &'a str,
    new_path: &'a str,
    /// What git says of a rename (`similarity index 90%` ...), if any.
    rename: Option<&'a str>,
}

impl<'a> ExternalArgs<'a> {
    /// The 7 (or 9, for a rename) arguments; `None` for any other count.
    pub(crate) fn from_git(a: &'a [String]) -> Option<ExternalArgs<'a>> {
        if a.len() != 7 && a.len() != 9 {
            return None;
        }
        Some(ExternalArgs {
            path: &a[0],
            old_file: &a[1],
            old_hex: &a[2],
            old_mode: &a[3],
            new_file: &a[4],
            new_hex: &a[5],
            new_mode: &a[6],
            new_path: a.get(7).map_or(&a[0], String::as_str),
            rename: a
                .get(8)
                .map(String::as_str)
                .filter(|m| !m.trim().is_empty()),
        })
    }
}

/// `git diff` as installed: git's 7 (or 9) external-diff arguments in,
/// the smaller diff out (or the user's own `GIT_EXTERNAL_DIFF`'s). Run by
/// `irgit-textconv diff --smallest`, which starts in milliseconds (no
/// LLVM), and by `irgit diff --smallest`. Always exits 0 on a diff, as git
/// expects of an external diff.
pub fn run_as_external_diff(git_args: &[String], colour: bool) -> std::process::ExitCode {
    if let Some(code) = run_users_external_diff(git_args) {
        return code;
    }
    let Some(external) = ExternalArgs::from_git(git_args) else {
        eprintln!(
            "irgit diff --smallest: expected git's 7 or 9 external-diff arguments, got {}",
            git_args.len()
        );
        return std::process::ExitCode::from(2);
    };
    let text = smallest_diff(&external, colour);
    // A pager that quit early closes the pipe; that is not an error.
    let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes());
    std::process::ExitCode::SUCCESS
}

/// Whether to colour unasked, as git decides for itself: not under
/// `NO_COLOR`; on a terminal, or, for `external` (git's external diff,
/// to which `git diff` passes no flag), in git's pager, which git says is
/// in use.
pub fn colour_wanted(external: bool) -> bool {
    use std::io::IsTerminal;
    if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
        return false;
    }
    std::io::stdout().is_terminal()
        || (external && std::env::var("GIT_PAGER_IN_USE").is_ok_and(|v| v == "true"))
}

/// The external diff the user's environment names (`GIT_EXTERNAL_DIFF`,
/// which `git difftool` sets too), run with git's arguments as git runs
/// it, when there is one: git prefers a driver's command to it, and
/// irgit's driver steps aside so that `git difftool` and a user's own
/// external diff work as without irgit. Returns its exit status.
fn run_users_external_diff(git_args: &[String]) -> Option<std::process::ExitCode> {
    let program = std::env::var("GIT_EXTERNAL_DIFF")
        .ok()
        .filter(|p| !p.trim().is_empty())?;
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!("{program} \"$@\""))
        .arg(&program)
        .args(git_args)
        .env_remove("GIT_EXTERNAL_DIFF")
        .status();
    Some(match status {
        Ok(s) => std::process::ExitCode::from(s.code().unwrap_or(1).clamp(0, 255) as u8),
        Err(e) => {
            eprintln!("irgit diff: cannot run GIT_EXTERNAL_DIFF ({program}): {e}");
            std::process::ExitCode::from(1)
        }
    })
}

/// The diff to print for one file: git's header and the smaller body.
pub(crate) fn smallest_diff(args: &ExternalArgs, colour: bool) -> String {
    let body = match chosen_body(args, colour) {
        Ok(body) => body,
        Err(why) => {
            eprintln!("irgit diff: {}: {why}", args.path);
            String::new()
        }
    };
    if body.is_empty() {
        return body;
    }
    header(args, colour) + &body
}

/// The body (hunks, or git's `Binary files ... differ`) of the smaller of
/// git's diff and the views' diff.
fn chosen_body(args: &ExternalArgs, colour: bool) -> Result<String, String> {
    let dir = tempfile::tempdir().map_err(|e| format!("no temporary directory: {e}"))?;
    let old = side_bytes(args.old_file)?;
    let new = side_bytes(args.new_file)?;
    let (Some(old_file), Some(new_file)) = (
        old.as_ref().map(|_| args.old_file),
        new.as_ref().map(|_| args.new_file),
    ) else {
        return git_diff_body(dir.path(), "raw", old.as_deref(), new.as_deref(), colour);
    };
    // git's diff and the two views at once: three child processes.
    let (raw, views) = std::thread::scope(|scope| {
        let raw = scope
            .spawn(|| git_diff_body(dir.path(), "raw", old.as_deref(), new.as_deref(), colour));
        let old_view = scope.spawn(|| view_of(Path::new(old_file)));
        let new_view = view_of(Path::new(new_file));
        let raw = raw
            .join()
            .unwrap_or_else(|_| Err("git's diff panicked".into()));
        (raw, (old_view.join().unwrap_or(None), new_view))
    });
    let raw = raw?;
    let (Some(old_view), Some(new_view)) = views else {
        return Ok(raw);
    };
    let view = git_diff_body(dir.path(), "view", Some(&old_view), Some(&new_view), colour)?;
    Ok(match changed_lines(&view) < changed_lines(&raw) {
        true => view,
        false => raw,
    })
}

/// A side's bytes; `None` for /dev/null (an added or deleted file).
fn side_bytes(file: &str) -> Result<Option<Vec<u8>>, String> {
    if file == "/dev/null" {
        return Ok(None);
    }
    std::fs::read(file)
        .map(Some)
        .map_err(|e| format!("cannot read {file}: {e}"))
}

/// The view of one side as textconv prints it, or `None` when textconv
/// showed it as written (LLVM rejects it, a time limit): its one line on
/// stderr is passed on, and the side gets git's diff.
fn view_of(file: &Path) -> Option<Vec<u8>> {
    let out = Command::new(textconv_program())
        .arg(file)
        .stdin(Stdio::null())
        .output()
        .ok()?;
    let note = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() || !note.trim().is_empty() {
        eprint!("{note}");
        return None;
    }
    Some(out.stdout)
}

/// `irgit-textconv` beside this program, else on `PATH`.
fn textconv_program() -> PathBuf {
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|d| d.join(TEXTCONV_PROGRAM)));
    beside
        .filter(|p| p.is_file())
        .unwrap_or_else(|| PathBuf::from(TEXTCONV_PROGRAM))
}

/// git's own diff of two texts (`None`: /dev/null), from its first hunk or
/// `Binary files` line on; empty when they are equal.
fn git_diff_body(
    dir: &Path,
    name: &str,
    old: Option<&[u8]>,
    new: Option<&[u8]>,
    colour: bool,
) -> Result<String, String> {
    let write = |side: &str, bytes: Option<&[u8]>| -> Result<String, String> {
        let Some(bytes) = bytes else {
            return Ok("/dev/null".into());
        };
        let file = format!("{name}.{side}");
        std::fs::write(dir.join(&file), bytes).map_err(|e| format!("cannot write {file}: {e}"))?;
        Ok(file)
    };
    let (old_file, new_file) = (write("old", old)?, write("new", new)?);
    let attributes = dir.join("attributes");
    std::fs::write(&attributes, "* diff=irgit-view\n").map_err(|e| e.to_string())?;
    let out = Command::new("git")
        .current_dir(dir)
        .arg("-c")
        .arg(format!("core.attributesFile={}", attributes.display()))
        .arg("-c")
        .arg(format!("diff.irgit-view.xfuncname={FUNCTION_HEADER}"))
        .args(["diff", "--no-index", "--no-ext-diff", "--no-textconv"])
        .arg(format!(
            "--color={}",
            if colour { "always" } else { "never" }
        ))
        .args(["--", &old_file, &new_file])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !matches!(out.status.code(), Some(0 | 1)) {
        let why = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "git diff --no-index failed: {}",
            why.lines().next().unwrap_or("")
        ));
    }
    Ok(body_of(&String::from_utf8_lossy(&out.stdout)))
}

/// A diff from its first hunk (or `Binary files` line) on: git's header
/// names the temporary files.
fn body_of(diff: &str) -> String {
    let mut at = 0;
    for line in diff.split_inclusive('\n') {
        let plain = without_colour(line);
        if plain.starts_with("@@ ") || plain.starts_with("Binary files ") {
            return diff[at..].to_string();
        }
        at += line.len();
    }
    String::new()
}

/// The header git writes for the path: `diff --git`, a rename's lines,
/// modes, `index`, `---` and `+++`.
fn header(args: &ExternalArgs, colour: bool) -> String {
    let short = |hex: &str, file: &str| {
        // A file in the work tree comes with no object id: git shows the
        // one it would store it under.
        let hashed = hex
            .bytes()
            .all(|b| b == b'0')
            .then(|| blob_id(file))
            .flatten();
        let hex = hashed.as_deref().unwrap_or(hex);
        hex.get(..7).unwrap_or(hex).to_string()
    };
    let zero = "0000000".to_string();
    let (added, deleted) = (args.old_file == "/dev/null", args.new_file == "/dev/null");
    let mut lines = vec![format!("diff --git a/{} b/{}", args.path, args.new_path)];
    if let Some(rename) = args.rename {
        lines.extend(rename.lines().map(str::to_string));
    }
    let old_hex = if added {
        zero.clone()
    } else {
        short(args.old_hex, args.old_file)
    };
    let new_hex = if deleted {
        zero
    } else {
        short(args.new_hex, args.new_file)
    };
    if added {
        lines.push(format!("new file mode {}", args.new_mode));
        lines.push(format!("index {old_hex}..{new_hex}"));
    } else if deleted {
        lines.push(format!("deleted file mode {}", args.old_mode));
        lines.push(format!("index {old_hex}..{new_hex}"));
    } else if args.old_mode != args.new_mode {
        lines.push(format!("old mode {}", args.old_mode));
        lines.push(format!("new mode {}", args.new_mode));
        lines.push(format!("index {old_hex}..{new_hex}"));
    } else {
        lines.push(format!("index {old_hex}..{new_hex} {}", args.old_mode));
    }
    let old_name = if added {
        "/dev/null".to_string()
    } else {
        format!("a/{}", args.path)
    };
    let new_name = if deleted {
        "/dev/null".to_string()
    } else {
        format!("b/{}", args.new_path)
    };
    lines.push(format!("--- {old_name}"));
    lines.push(format!("+++ {new_name}"));
    lines
        .into_iter()
        .map(|l| match colour {
            true => format!("\x1b[1m{l}\x1b[m\n"),
            false => format!("{l}\n"),
        })
        .collect()
}

/// The id git would store `file` under as a blob.
fn blob_id(file: &str) -> Option<String> {
    let bytes = std::fs::read(file).ok()?;
    git2::Oid::hash_object(git2::ObjectType::Blob, &bytes)
        .ok()
        .map(|oid| oid.to_string())
}

/// The `+`/`-` lines of a diff body; a binary change counts as one.
fn changed_lines(body: &str) -> usize {
    body.lines()
        .map(without_colour)
        .filter(|l| l.starts_with('+') || l.starts_with('-') || l.starts_with("Binary files "))
        .count()
}

/// `line` without git's colour escapes (`ESC [ ... m`).
fn without_colour(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for e in chars.by_ref() {
                if e == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_is_left_out_when_counting() {
        let body = "\x1b[36m@@ -1 +1 @@\x1b[m\n\x1b[31m-a\x1b[m\n\x1b[32m+b\x1b[m\n c\n";
        assert_eq!(changed_lines(body), 2);
        assert_eq!(
            body_of("diff --git a/x b/y\n--- a/x\n+++ b/y\n@@ -1 +1 @@\n-a\n+b\n"),
            "@@ -1 +1 @@\n-a\n+b\n"
        );
    }

    #[test]
    fn the_header_is_gits() {
        let a: Vec<String> = [
            "f.ll",
            "/tmp/x",
            "1234567890",
            "100644",
            "f.ll",
            "abcdef0123",
            "100644",
        ]
        .map(String::from)
        .to_vec();
        let args = ExternalArgs::from_git(&a).unwrap();
        assert_eq!(
            header(&args, false),
            "diff --git a/f.ll b/f.ll\nindex 1234567..abcdef0 100644\n--- a/f.ll\n+++ b/f.ll\n"
        );
    }
}

//! The text-safe merge on all of Lua at -O2 (clang-22, 1,548 functions and
//! declarations, every value numbered): ours raises a constant in one
//! function; theirs edits the same function or another one, in each of the
//! ways the criterion decides on. Both routes (`Route::TextSafeFirst`,
//! `Route::StructuredOnly`) must write the same bytes, conflicts and notes;
//! the shapes the criterion may take must be taken, the others declined.
//!
//! ```text
//! ours: `%12 = add i32 %11, 1` -> `, 18` in @luaK_code
//! theirs: `%7 = ...` renamed `%irgit.7` in @luaH_get   -> taken (one side's function)
//! theirs: the same rename in @luaK_code                -> declined (a number, both sides')
//! ```

mod common;
mod merge_support;

use irgit::merge::text_safe::text_safe_merge;
use irgit::merge::{MadeBy, Route, Writer};
use merge_support::{git_merge_file, merge_by, written};

/// A function's lines, `define` to `}`.
struct Function {
    start: usize,
    end: usize,
}

/// The functions of `lines`.
fn functions(lines: &[&str]) -> Vec<Function> {
    let mut found = Vec::new();
    let mut start = None;
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("define ") {
            start = Some(i);
        } else if *line == "}" {
            if let Some(start) = start.take() {
                found.push(Function { start, end: i });
            }
        }
    }
    found
}

/// The line of `f` ending in an integer constant after a binary operator.
fn constant_site(lines: &[&str], f: &Function) -> Option<usize> {
    (f.start..f.end).find(|&i| {
        let line = lines[i];
        [" = add ", " = sub ", " = mul ", " = and ", " = xor "]
            .iter()
            .any(|op| line.contains(op))
            && line
                .rsplit(", ")
                .next()
                .is_some_and(|c| c.parse::<i64>().is_ok())
    })
}

/// The first numbered value `f` defines after its first line, and where.
fn numbered_def(lines: &[&str], f: &Function) -> Option<(usize, String)> {
    (f.start + 1..f.end).find_map(|i| {
        let name = lines[i].strip_prefix("  %")?.split_once(" = ")?.0;
        name.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| (i, name.to_string()))
    })
}

/// `lines` with `%name` written `%irgit.name` throughout `f`.
fn renamed_in(lines: &[&str], f: &Function, name: &str) -> Vec<String> {
    let from = format!("%{name}");
    let to = format!("%irgit.{name}");
    let end_of_name = |c: char| !(c.is_ascii_alphanumeric() || "$._-".contains(c));
    lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            if !(f.start..=f.end).contains(&i) {
                return line.to_string();
            }
            let mut out = String::new();
            let mut rest = *line;
            while let Some(at) = rest.find(&from) {
                out.push_str(&rest[..at]);
                let after = &rest[at + from.len()..];
                let whole = after.chars().next().is_none_or(end_of_name);
                out.push_str(if whole { &to } else { &from });
                rest = after;
            }
            out + rest
        })
        .collect()
}

fn joined(lines: Vec<String>) -> String {
    lines.join("\n") + "\n"
}

/// Both routes merge `triple` alike; whether the text-safe route took it.
fn same_by_both_routes(name: &str, triple: [&str; 3]) -> bool {
    let fast = merge_by(Route::TextSafeFirst, triple);
    let structured = merge_by(Route::StructuredOnly, triple);
    assert!(
        written(&fast) == written(&structured),
        "{name}: the routes write different results"
    );
    assert_eq!(
        (fast.conflicts, &fast.notes),
        (structured.conflicts, &structured.notes),
        "{name}"
    );
    let taken = fast.made_by == MadeBy::Written(Writer::TextSafe);
    assert_eq!(taken, text_safe_merge(triple.into()).is_some(), "{name}");
    if taken {
        assert_eq!(
            structured.made_by,
            MadeBy::Written(Writer::GitResult),
            "{name}"
        );
        let (clean, git_text, _) = git_merge_file(triple[0], triple[1], triple[2]);
        assert!(
            clean && git_text == written(&fast),
            "{name}: not git's bytes"
        );
    }
    taken
}

#[test]
fn edits_of_lua_merge_alike_by_both_routes() {
    let module = common::lua::lua_module(&common::cache_dir());
    let base = std::fs::read_to_string(module).unwrap();
    let lines: Vec<&str> = base.lines().collect();
    let all = functions(&lines);
    let with_site = |from: usize| {
        all[from..]
            .iter()
            .find(|f| constant_site(&lines, f).is_some() && numbered_def(&lines, f).is_some())
            .expect("a function with a constant")
    };
    let (a, b) = (with_site(all.len() / 3), with_site(2 * all.len() / 3));
    let site = constant_site(&lines, a).unwrap();
    let mut ours: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    let (head, c) = lines[site].rsplit_once(", ").unwrap();
    ours[site] = format!("{head}, {}", c.parse::<i64>().unwrap() + 17);
    let ours = joined(ours);
    let header = (0..50)
        .filter(|&i| lines[i].starts_with("target "))
        .max()
        .unwrap();
    let with_global = {
        let mut v: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        v.insert(header + 1, "@irgit.added = global i32 7".into());
        joined(v)
    };
    let named_insert = |f: &Function| {
        let (at, _) = numbered_def(&lines, f).unwrap();
        let mut v: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        v.insert(at + 1, "  %irgit.new = add i32 7, 9".into());
        joined(v)
    };
    let renumbered = |f: &Function| {
        let (_, name) = numbered_def(&lines, f).unwrap();
        joined(renamed_in(&lines, f, &name))
    };
    // (shape, theirs, whether the criterion may take it)
    let shapes = [
        ("a global added", with_global, true),
        (
            "a named value inserted in another function",
            named_insert(b),
            true,
        ),
        ("a number renamed in another function", renumbered(b), true),
        (
            "a named value inserted in ours' function",
            named_insert(a),
            true,
        ),
        ("a number renamed in ours' function", renumbered(a), false),
    ];
    for (name, theirs, may_take) in &shapes {
        assert!(
            irgit::ir::text_parses_and_verifies(theirs),
            "{name}: theirs is not valid"
        );
        let taken = same_by_both_routes(name, [&base, &ours, theirs]);
        assert_eq!(taken, *may_take, "{name}");
    }
}

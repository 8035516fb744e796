//! No function in `src/` is over 100 lines (docs/architecture.md: stages get
//! names). A function is counted from its `fn` line to the closing brace at
//! the same indentation; test modules (`#[cfg(test)]` and below) are left
//! out.
//!
//! ```text
//! fn merge_with(...) { ... 206 lines ... }      → fails, names merge/apply.rs
//! fn merge_with(...) { stage(); stage(); ... }  → passes
//! ```

mod src_files;

const LIMIT: usize = 100;

/// The name of the function a line starts, if it starts one.
fn function_name(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    for qualifier in [
        "pub(crate) ",
        "pub(super) ",
        "pub ",
        "const ",
        "async ",
        "unsafe ",
    ] {
        rest = rest.strip_prefix(qualifier).unwrap_or(rest);
    }
    let after_fn = rest.strip_prefix("fn ")?;
    let end = after_fn
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(after_fn.len());
    Some(&after_fn[..end])
}

fn indentation(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// The functions of `text` longer than [`LIMIT`], as (lines, name).
fn long_functions(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let end_of_code = lines
        .iter()
        .position(|l| l.trim_start().starts_with("#[cfg(test)]"))
        .unwrap_or(lines.len());
    let mut found = Vec::new();
    for (start, line) in lines[..end_of_code].iter().enumerate() {
        let Some(name) = function_name(line) else {
            continue;
        };
        let Some(open) =
            (start..end_of_code).find(|&k| lines[k].contains('{') || lines[k].ends_with(';'))
        else {
            continue;
        };
        if !lines[open].contains('{') {
            continue; // a declaration without a body (a trait method)
        }
        let indent = indentation(line);
        let close = (open + 1..end_of_code)
            .find(|&k| indentation(lines[k]) == indent && lines[k].trim_start().starts_with('}'))
            .unwrap_or(open);
        let length = close - start + 1;
        if length > LIMIT {
            found.push((length, name.to_string()));
        }
    }
    found
}

#[test]
fn the_counter_sees_a_long_function() {
    let body = "    step();\n".repeat(LIMIT);
    let text = format!("pub(crate) fn long() {{\n{body}}}\nfn short() {{\n    step();\n}}\n");
    assert_eq!(long_functions(&text), vec![(LIMIT + 2, "long".to_string())]);
}

#[test]
fn no_function_in_src_is_over_100_lines() {
    let files = src_files::all();
    assert!(files.len() > 50, "src/ has {} files", files.len());
    let mut long = Vec::new();
    for (file, text) in &files {
        for (length, name) in long_functions(text) {
            long.push(format!("{file}::{name} ({length} lines)"));
        }
    }
    assert!(long.is_empty(), "functions over {LIMIT} lines: {long:#?}");
}

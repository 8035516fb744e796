//! The repository stands on its own: nothing in it points to files a clone
//! does not have, and its architecture page keeps up with `src/`.
//!
//! ```text
//! src/lib.rs:  //! The pipeline (see <the design notes' path outside the repo>)
//!                    -> fails: a clone has no such file; state the fact, or
//!                       point to docs/architecture.md
//! src/hash.rs added, docs/architecture.md silent about it
//!                    -> fails: every top-level module of src/ has its section
//! ```
//!
//! Checked over every file git knows (tracked, or new and not ignored):
//! - no pointer to the project's starting material outside the repository:
//!   the parent directory's shared folder, a numbered source document
//!   ("seed" and a number such as 004), the design notes' sections;
//! - `docs/architecture.md` names every file and directory directly under
//!   `src/` by its path;
//! - every `docs/*.md` page a file mentions, and every repository path the
//!   pages under `docs/` mention, exists.
//!
//! The forbidden strings are assembled from pieces, so this file does not
//! trip its own check.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Fragments that only ever point outside the repository (lower case).
const OUTSIDE: &[&str] = &[
    concat!("..", "/shared"),
    concat!("/work", "/shared"),
    concat!("shared", "/docs"),
    concat!("shared", "/cases"),
    concat!("shared", "/seeds"),
    concat!("shared", "/hooks"),
    concat!("seeds", "/"),
    concat!("design", ".md"),
    concat!("design ", "§"),
    concat!("ir-merge", "-theory"),
    concat!("the seed", " defines"),
    concat!("the seed", " calls"),
    concat!("seed's", " proof"),
    concat!("seed's", " exact"),
];

fn repository_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file git knows in the work tree: tracked ones, and new ones that
/// are not ignored (so a file is checked before it is committed).
fn repository_files() -> Vec<String> {
    let output = Command::new("git")
        .args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ])
        .current_dir(repository_root())
        .output()
        .expect("git runs");
    assert!(
        output.status.success(),
        "git ls-files failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let files: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .split('\0')
        .filter(|name| !name.is_empty())
        .map(str::to_string)
        .collect();
    assert!(
        files.iter().any(|name| name == "src/lib.rs"),
        "git ls-files does not list src/lib.rs: the check would look at nothing"
    );
    files
}

/// The file's text, or `None` when it is gone from the work tree (deleted,
/// not yet staged).
fn read_text(relative: &str) -> Option<String> {
    match std::fs::read(repository_root().join(relative)) {
        Ok(bytes) => Some(String::from_utf8_lossy(&bytes).into_owned()),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
        Err(error) => panic!("{relative}: {error}"),
    }
}

/// Whether `line` (lower case) names a numbered source document: the word
/// "seed" or "seeds", an optional space, dash or underscore, then `00` and
/// a digit (the documents were numbered from zero, with three digits).
fn names_numbered_seed(line: &str) -> bool {
    let bytes = line.as_bytes();
    line.match_indices("seed").any(|(start, word)| {
        let word_start = start == 0 || !bytes[start - 1].is_ascii_alphanumeric();
        let mut rest = &line[start + word.len()..];
        rest = rest.strip_prefix('s').unwrap_or(rest);
        rest = rest
            .strip_prefix(|c| matches!(c, ' ' | '-' | '_'))
            .unwrap_or(rest);
        let digits = rest.as_bytes();
        word_start && digits.len() >= 3 && digits[..2] == *b"00" && digits[2].is_ascii_digit()
    })
}

/// `file:line: text` for each line of `text` that points outside.
fn outside_pointers(file: &str, text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let lower = line.to_lowercase();
        if OUTSIDE.iter().any(|fragment| lower.contains(fragment)) || names_numbered_seed(&lower) {
            found.push(format!("{file}:{}: {}", index + 1, line.trim()));
        }
    }
    found
}

#[test]
fn no_file_points_outside_the_repository() {
    let mut found = Vec::new();
    for file in repository_files() {
        if let Some(text) = read_text(&file) {
            found.extend(outside_pointers(&file, &text));
        }
    }
    assert!(
        found.is_empty(),
        "{} line(s) point outside the repository (a clone does not have those files); state the \
         fact, or point to docs/architecture.md or docs/merge-theory.md:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_numbered_seed_pattern_tells_documents_from_random_seeds() {
    let documents = [
        concat!("see seed ", "004 §1"),
        concat!("(seed-", "002)"),
        concat!("seeds ", "000 and 001"),
        concat!("Seed", "003:"),
    ];
    for document in documents {
        assert!(names_numbered_seed(&document.to_lowercase()), "{document}");
    }
    for random in [
        "seed 1",
        "Csmith seed 3",
        "seeds 1, 2",
        "reseed 004",
        "--seed=7",
    ] {
        assert!(!names_numbered_seed(&random.to_lowercase()), "{random}");
    }
}

/// The path by which the architecture page names a top-level entry of
/// `src/`: `src/canon/` for a directory, `src/hash.rs` for a file.
fn top_level_paths() -> Vec<String> {
    let src = repository_root().join("src");
    let mut paths: Vec<String> = std::fs::read_dir(&src)
        .expect("src/ is readable")
        .map(|entry| entry.expect("a directory entry"))
        .map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            match entry.file_type().expect("a file type").is_dir() {
                true => format!("src/{name}/"),
                false => format!("src/{name}"),
            }
        })
        .collect();
    paths.sort();
    assert!(paths.len() > 5, "src/ holds only {paths:?}");
    paths
}

#[test]
fn the_architecture_page_names_every_top_level_module() {
    let page = read_text("docs/architecture.md").expect("docs/architecture.md exists");
    let missing: Vec<String> = top_level_paths()
        .into_iter()
        .filter(|path| !page.contains(&format!("`{path}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/architecture.md does not name (as `path`) these top-level entries of src/: {missing:?}"
    );
}

/// The repository paths `text` mentions that start with one of `roots`
/// (`docs/`, `src/`...): a path starts after a character that cannot be
/// part of one, and ends before one (a trailing `.` or `,` is punctuation).
/// A pattern (`tests/canon_*.rs`, `tests/merge/{working,failing}`) is no
/// path and is left out.
fn mentioned_paths(text: &str, roots: &[&str]) -> Vec<String> {
    let in_path = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/');
    let mut paths = Vec::new();
    for root in roots {
        for (start, _) in text.match_indices(root) {
            let before = text[..start].chars().next_back();
            if before.is_some_and(in_path) {
                continue;
            }
            let rest = &text[start..];
            let end = rest.find(|c: char| !in_path(c)).unwrap_or(rest.len());
            if rest[end..].starts_with(['*', '{', '<']) {
                continue;
            }
            let path = rest[..end].trim_end_matches(['.', ',']);
            paths.push(path.to_string());
        }
    }
    paths
}

fn missing_paths(
    file: &str,
    text: &str,
    roots: &[&str],
    wanted: impl Fn(&str) -> bool,
) -> Vec<String> {
    mentioned_paths(text, roots)
        .into_iter()
        .filter(|path| wanted(path) && !Path::new(&repository_root().join(path)).exists())
        .map(|path| format!("{file}: {path}"))
        .collect()
}

#[test]
fn documentation_pointers_name_files_that_exist() {
    let mut missing = Vec::new();
    for file in repository_files() {
        let Some(text) = read_text(&file) else {
            continue;
        };
        // Any file: the docs pages it points to.
        missing.extend(missing_paths(&file, &text, &["docs/"], |path| {
            path.ends_with(".md")
        }));
        // The docs pages themselves: every path they name.
        if file.starts_with("docs/") {
            let roots = [
                "src/", "tests/", "benches/", "testkit/", "scripts/", "docs/",
            ];
            missing.extend(missing_paths(&file, &text, &roots, |_| true));
        }
    }
    assert!(
        missing.is_empty(),
        "pointers to files that do not exist:\n{}",
        missing.join("\n")
    );
}

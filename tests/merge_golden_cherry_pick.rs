//! A real cherry-pick conflict in a compiler golden file
//! (`tests/merge/golden_cherry_pick/`, tinygo's `gc.ll`), through real git
//! with irgit as the merge driver. The conflict must stay where the clash
//! is: outside the markers the file is the branch's text, with its own
//! value names, and stderr says which functions conflict.
//!
//! ```text
//! git cherry-pick side   (side: picked_parent.ll -> picked.ll; main: branch.ll)
//!   -> exit 1, gc.ll: branch.ll's lines and its 36 `%new…` names outside three conflicts,
//!      stderr: "3 conflict(s) (in @main.makeInterface and outside functions)"
//! git cherry-pick -X theirs side
//!   -> exit 0, no markers: @main.makeInterface is the picked one, the branch's
//!      other functions keep their text
//! ```

mod merge_support;

use merge_support::{canon, has_conflict_markers, Repo};

const DIR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/merge/golden_cherry_pick"
);

fn fixture(name: &str) -> String {
    let path = format!("{DIR}/{name}");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The lines outside conflict markers (size 7).
fn outside_markers(text: &str) -> Vec<&str> {
    let mut inside = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with("<<<<<<<") {
            inside = true;
        } else if line.starts_with(">>>>>>>") {
            inside = false;
        } else if !inside {
            out.push(line);
        }
    }
    out
}

/// `%new`, `%new1`, ... in `lines`.
fn new_names<'a>(lines: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    lines
        .into_iter()
        .flat_map(|l| l.match_indices("%new").map(move |(at, _)| &l[at..]))
        .map(|rest| {
            let end = rest[1..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '_'))
                .map_or(rest.len(), |e| e + 1);
            &rest[..end]
        })
        .collect()
}

/// A repository with the driver installed: branch `side` holds the commit
/// to pick, `main` (checked out) the branch's `gc.ll`.
fn branch_and_commit_to_pick() -> Repo {
    let repo = Repo::new();
    repo.install_driver();
    repo.commit_file("gc.ll", &fixture("picked_parent.ll"), "parent");
    repo.ok(&["checkout", "-q", "-b", "side"]);
    repo.commit_file("gc.ll", &fixture("picked.ll"), "the commit to pick");
    repo.ok(&["checkout", "-q", "main"]);
    repo.commit_file("gc.ll", &fixture("branch.ll"), "the branch");
    repo
}

/// Function `name` of `text`'s canonical form.
fn canonical_function(text: &str, name: &str) -> String {
    let canonical = canon(text, "gc.ll");
    let start = canonical
        .find(&format!("@{name}("))
        .and_then(|at| canonical[..at].rfind("\ndefine "))
        .unwrap_or_else(|| panic!("no define of @{name}"));
    let end = start + canonical[start..].find("\n}").expect("a closing brace");
    canonical[start..end].to_string()
}

#[test]
fn a_golden_file_conflict_keeps_the_branch_names_outside_it() {
    let branch = fixture("branch.ll");
    let repo = branch_and_commit_to_pick();

    let pick = repo.git(&["cherry-pick", "side"]);
    let stderr = String::from_utf8_lossy(&pick.stderr);
    assert!(!pick.status.success(), "the pick conflicts:\n{stderr}");
    assert_eq!(repo.unmerged().len(), 3, "gc.ll is unmerged");
    let merged = repo.read("gc.ll");
    assert!(has_conflict_markers(&merged, 7), "{merged}");
    assert!(!stderr.contains("canonical form"), "{stderr}");
    assert!(
        stderr.contains("3 conflict(s) (in @main.makeInterface and outside functions)"),
        "stderr names the functions in conflict:\n{stderr}"
    );

    // Outside the markers: the branch's own lines and names.
    let outside = outside_markers(&merged);
    let branch_lines: std::collections::HashSet<&str> = branch.lines().collect();
    let picked = fixture("picked.ll");
    let picked_lines: std::collections::HashSet<&str> = picked.lines().collect();
    let foreign: Vec<&&str> = outside
        .iter()
        .filter(|l| !branch_lines.contains(**l) && !picked_lines.contains(**l))
        .collect();
    assert!(foreign.is_empty(), "lines of neither side: {foreign:?}");
    let branch_names = new_names(branch.lines());
    assert_eq!(branch_names.len(), 36);
    assert_eq!(new_names(outside.iter().copied()), branch_names);
}

/// `-X theirs` on the same pick: git runs the driver with the option, and
/// each of the three conflicts resolves to the picked side; the rest is
/// merged as without it, in the branch's text.
#[test]
fn cherry_pick_x_theirs_resolves_the_golden_file_conflicts_to_the_picked_side() {
    let repo = branch_and_commit_to_pick();
    let pick = repo.git(&["cherry-pick", "-X", "theirs", "side"]);
    let stderr = String::from_utf8_lossy(&pick.stderr);
    assert!(pick.status.success(), "the pick succeeds:\n{stderr}");
    assert!(repo.unmerged().is_empty(), "nothing unmerged:\n{stderr}");
    assert!(
        stderr.contains("3 conflict(s) resolved to the side -X theirs favours"),
        "{stderr}"
    );
    let merged = repo.read("gc.ll");
    assert!(!has_conflict_markers(&merged, 7), "{merged}");
    // The conflicting function is the picked one; canon() checks with LLVM.
    assert_eq!(
        canonical_function(&merged, "main.makeInterface"),
        canonical_function(&fixture("picked.ll"), "main.makeInterface")
    );
    // The branch's functions that the pick did not touch keep their text.
    let branch = fixture("branch.ll");
    assert_eq!(new_names(merged.lines()), new_names(branch.lines()));
    let new_scalar = |text: &str| -> String {
        let at = text
            .find("define hidden void @main.newScalar")
            .expect("@main.newScalar");
        text[at..at + text[at..].find("\n}").unwrap()].to_string()
    };
    assert_eq!(new_scalar(&merged), new_scalar(&branch));
}

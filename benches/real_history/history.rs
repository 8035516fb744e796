//! The file histories the bench replays: the repositories of `repos.yaml`,
//! found as bare mirrors, and each selected `.ll` file's consecutive versions
//! along the first-parent history, oldest first, followed through renames.
//!
//! ```text
//! git log --first-parent --diff-merges=first-parent -M --raw -- ':(glob)compiler/testdata/*.ll'
//!   C 08b3a45… 1688304942
//!   :100644 100644 edf6118… 8150dc2… M   compiler/testdata/interface.ll
//!   …
//! ──► interface.ll: [v0 (blob 3c17e9a…), v1 (edf6118…), v2 (8150dc2…), …]
//! ```
//!
//! One `git log` per repository entry, not one `git log --follow` per file:
//! the same versions (the rename detection of `-M` joins the two names of a
//! moved file), in a fraction of the time on repositories of a thousand
//! tests. Where a mirror lacks some blobs (the store leaves out files of
//! 4 MiB and more) rename detection cannot read them, and the log is taken
//! again with `--no-renames`.

use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One entry of `repos.yaml`.
#[derive(serde::Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct Source {
    pub name: String,
    pub repo: String,
    pub kind: String,
    pub paths: Vec<String>,
    #[serde(default)]
    pub contains: Option<String>,
}

/// One version of a file: the commit that wrote it and its blob.
#[derive(Debug, Clone)]
pub struct Version {
    pub commit: String,
    pub time: i64,
    pub blob: String,
    pub path: String,
}

/// A list of repositories in `benches/real_history/`: `repos.yaml` (the
/// ones the project measures itself on) or `heldout.yaml` (others, for an
/// acceptance check on repositories no work was tuned on).
pub fn load_sources(list: &str) -> Vec<Source> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("benches/real_history")
        .join(list);
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The bare git directory of `repo` (`owner/name`) under `root`: the fetch
/// tool's layout `<owner>+<name>/repo`, or `<owner>+<name>` itself.
pub fn find_mirror(root: &Path, repo: &str) -> Option<PathBuf> {
    let base = root.join(repo.replace('/', "+"));
    [base.join("repo"), base]
        .into_iter()
        .find(|p| p.join("HEAD").is_file() && p.join("objects").is_dir())
}

/// `git --git-dir=GIT_DIR`.
pub fn git(git_dir: &Path) -> Command {
    let mut cmd = Command::new("git");
    cmd.arg("--git-dir").arg(git_dir);
    cmd
}

fn pathspecs(source: &Source) -> Vec<String> {
    source.paths.iter().map(|p| format!(":(glob){p}")).collect()
}

/// Every file history `source` selects: consecutive distinct versions,
/// oldest first (histories of one version are left out).
pub fn file_histories(git_dir: &Path, source: &Source) -> Vec<Vec<Version>> {
    let log = first_parent_log(git_dir, source);
    let mut histories = chains(&log);
    if let Some(text) = &source.contains {
        let wanted = files_containing(git_dir, source, text);
        histories.retain(|h| wanted.contains(&h.last().unwrap().path));
    }
    histories.retain(|h| h.len() >= 2);
    histories
}

/// The raw first-parent log of the selected paths, oldest commit first.
fn first_parent_log(git_dir: &Path, source: &Source) -> Vec<LogCommit> {
    for renames in ["-M", "--no-renames"] {
        let out = git(git_dir)
            .args([
                "log",
                "--first-parent",
                "--diff-merges=first-parent",
                renames,
            ])
            .args(["--format=C %H %ct", "--raw", "--no-abbrev", "--"])
            .args(pathspecs(source))
            .output()
            .expect("run git log");
        if out.status.success() {
            let mut commits = parse_log(&String::from_utf8_lossy(&out.stdout));
            commits.reverse();
            return commits;
        }
    }
    panic!("git log fails in {}", git_dir.display())
}

/// One commit of the raw log and the file changes it lists.
struct LogCommit {
    commit: String,
    time: i64,
    changes: Vec<RawChange>,
}

/// One `--raw` line: status letter, old path, new path, new blob.
struct RawChange {
    status: char,
    old_path: String,
    new_path: String,
    blob: String,
}

fn parse_log(text: &str) -> Vec<LogCommit> {
    let mut commits: Vec<LogCommit> = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("C ") {
            let (commit, time) = rest.split_once(' ').unwrap_or((rest, "0"));
            commits.push(LogCommit {
                commit: commit.to_string(),
                time: time.parse().unwrap_or(0),
                changes: Vec::new(),
            });
        } else if let (Some(change), Some(last)) = (parse_raw_line(line), commits.last_mut()) {
            last.changes.push(change);
        }
    }
    commits
}

/// `:100644 100644 OLD NEW M\tpath` or `… R087\told\tnew`.
fn parse_raw_line(line: &str) -> Option<RawChange> {
    let rest = line.strip_prefix(':')?;
    let mut parts = rest.split('\t');
    let meta: Vec<&str> = parts.next()?.split_whitespace().collect();
    let old_path = parts.next()?.to_string();
    let new_path = parts
        .next()
        .map_or_else(|| old_path.clone(), str::to_string);
    Some(RawChange {
        status: meta.get(4)?.chars().next()?,
        old_path,
        new_path,
        blob: meta.get(3)?.to_string(),
    })
}

/// Joins the log's changes into one history per file: a modification
/// extends the file's history, a rename carries it to the new path, a
/// deletion ends it, an addition or copy starts a new one.
fn chains(log: &[LogCommit]) -> Vec<Vec<Version>> {
    let mut histories: Vec<Vec<Version>> = Vec::new();
    let mut live: HashMap<String, usize> = HashMap::new();
    for commit in log {
        for change in &commit.changes {
            let carried = match change.status {
                'D' => {
                    live.remove(&change.old_path);
                    continue;
                }
                'R' => live.remove(&change.old_path),
                'M' | 'T' => live.get(&change.new_path).copied(),
                _ => None,
            };
            let index = carried.unwrap_or_else(|| {
                histories.push(Vec::new());
                histories.len() - 1
            });
            live.insert(change.new_path.clone(), index);
            let history = &mut histories[index];
            if history.last().is_none_or(|v| v.blob != change.blob) {
                history.push(Version {
                    commit: commit.commit.clone(),
                    time: commit.time,
                    blob: change.blob.clone(),
                    path: change.new_path.clone(),
                });
            }
        }
    }
    histories
}

/// Paths at `HEAD` whose text contains `text`.
fn files_containing(git_dir: &Path, source: &Source, text: &str) -> HashSet<String> {
    let out = git(git_dir)
        .args(["grep", "-l", "-F", "-e", text, "HEAD", "--"])
        .args(pathspecs(source))
        .stderr(Stdio::null())
        .output()
        .expect("run git grep");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.strip_prefix("HEAD:"))
        .map(str::to_string)
        .collect()
}

/// Reads `blobs` from the mirror with one `git cat-file --batch`: the text
/// of each present blob of at most `max_bytes` (absent blobs, the store's
/// large files, are left out).
pub fn read_blobs(git_dir: &Path, blobs: &[&str], max_bytes: usize) -> HashMap<String, String> {
    let mut child = git(git_dir)
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run git cat-file --batch");
    let mut stdin = child.stdin.take().unwrap();
    let request: String = blobs.iter().map(|b| format!("{b}\n")).collect();
    let writer = std::thread::spawn(move || stdin.write_all(request.as_bytes()));
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut texts = HashMap::new();
    for blob in blobs {
        let mut header = String::new();
        reader.read_line(&mut header).expect("read cat-file header");
        let fields: Vec<&str> = header.split_whitespace().collect();
        let Some(size) = fields.get(2).and_then(|s| s.parse::<usize>().ok()) else {
            continue; // "<blob> missing"
        };
        let mut bytes = vec![0; size + 1];
        reader.read_exact(&mut bytes).expect("read cat-file body");
        bytes.pop();
        if size <= max_bytes {
            texts.insert(
                blob.to_string(),
                String::from_utf8_lossy(&bytes).into_owned(),
            );
        }
    }
    writer.join().unwrap().expect("write cat-file requests");
    child.wait().expect("wait for git cat-file");
    texts
}

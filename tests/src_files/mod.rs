//! The files of `src/` as the code-shape tests read them (`module_cycles`,
//! `function_length`): every `.rs` file, with its path relative to `src/`.
//!
//! ```text
//! src/merge/apply.rs → ("merge/apply.rs", its text)
//! ```

use std::path::{Path, PathBuf};

/// Every `.rs` file under `src/`, as (path relative to `src/`, text).
pub fn all() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    collect(&root, &root, &mut files);
    files
}

fn collect(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path: PathBuf = entry.unwrap().path();
        if path.is_dir() {
            collect(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let relative = path.strip_prefix(root).unwrap().display().to_string();
            out.push((relative, std::fs::read_to_string(&path).unwrap()));
        }
    }
}

//! Small edits of C source, the way a developer makes them, and the C file
//! compiled by clang-22 at the four levels of the real-edit benchmarks.
//!
//! Every edit replaces a few lines of one function's body, so two edits in
//! two functions combine into the source that has both:
//!
//! ```text
//!   s += i * i - (i % 3);        constant   s += i * i - (i % 4);
//!   s += i * i - (i % 3);        operator   s += i * i + (i % 3);
//!   i++;                         insert     i++;
//!                                           i++;
//!   i++;                         delete     (gone)
//!   i++;                         add if     if (k != 0) i++;
//! ```
//!
//! The generator works on text (clang-format style: one statement a line,
//! binary operators between spaces) and does not know C's types: an edit
//! that does not compile, or does not change the IR, is the caller's to skip.

use std::process::Command;

use super::{cache_dir, fnv, write_atomic, CLANG};

/// What a source edit does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CEditKind {
    Constant,
    Operator,
    InsertStatement,
    DeleteStatement,
    AddIf,
}

impl CEditKind {
    pub const ALL: [CEditKind; 5] = [
        CEditKind::Constant,
        CEditKind::Operator,
        CEditKind::InsertStatement,
        CEditKind::DeleteStatement,
        CEditKind::AddIf,
    ];

    pub fn label(self) -> &'static str {
        match self {
            CEditKind::Constant => "change a constant",
            CEditKind::Operator => "change an operator",
            CEditKind::InsertStatement => "insert a statement",
            CEditKind::DeleteStatement => "delete a statement",
            CEditKind::AddIf => "add an `if`",
        }
    }
}

/// One edit: lines `start..start + removed` of the source become `inserted`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CEdit {
    pub kind: CEditKind,
    /// The C function whose body the edit is in.
    pub func: String,
    pub start: usize,
    pub removed: usize,
    pub inserted: Vec<String>,
}

impl CEdit {
    /// `src` with this edit applied.
    pub fn apply(&self, src: &str) -> String {
        apply_edits(src, &[self])
    }

    /// Short description for messages (`loops.c:7 constant in sum_to`).
    pub fn describe(&self) -> String {
        format!("line {} {:?} in {}", self.start + 1, self.kind, self.func)
    }
}

/// `src` with non-overlapping `edits` applied (each in the original's lines).
pub fn apply_edits(src: &str, edits: &[&CEdit]) -> String {
    let mut lines: Vec<String> = src.lines().map(str::to_string).collect();
    let mut sorted: Vec<&&CEdit> = edits.iter().collect();
    sorted.sort_by_key(|e| std::cmp::Reverse(e.start));
    for e in sorted {
        lines.splice(e.start..e.start + e.removed, e.inserted.iter().cloned());
    }
    lines.join("\n") + "\n"
}

/// A function definition of the source: header line, closing `}` line.
#[derive(Debug, Clone)]
pub struct CFunction {
    pub name: String,
    pub header: usize,
    pub end: usize,
    /// The first parameter's name (`None` for `(void)` or `()`).
    pub first_param: Option<String>,
}

/// The function definitions of `src` written as `type name(params) {` on
/// one line at column 0 and closed by `}` at column 0.
pub fn c_functions(src: &str) -> Vec<CFunction> {
    let lines: Vec<&str> = src.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        let is_header = l.starts_with(|c: char| c.is_ascii_alphabetic())
            && l.trim_end().ends_with(") {")
            && !l.contains('=')
            && !l.starts_with("typedef");
        if !is_header {
            i += 1;
            continue;
        }
        let Some(end) = (i + 1..lines.len()).find(|&j| lines[j] == "}") else {
            break;
        };
        let open = l.find('(').unwrap();
        let name = l[..open]
            .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .next()
            .unwrap_or("")
            .to_string();
        let params = &l[open + 1..l.rfind(')').unwrap()];
        let first = params.split(',').next().unwrap_or("").trim();
        let first_param = (first != "void" && !first.is_empty() && !first.contains('['))
            .then(|| {
                first
                    .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .next()
                    .unwrap_or("")
                    .to_string()
            })
            .filter(|p| !p.is_empty() && p != "...");
        out.push(CFunction {
            name,
            header: i,
            end,
            first_param,
        });
        i = end + 1;
    }
    out
}

/// Every edit of `kind` the generator can make in `src`, in source order.
pub fn candidates(src: &str, kind: CEditKind) -> Vec<CEdit> {
    let lines: Vec<&str> = src.lines().collect();
    let mut out = Vec::new();
    for f in c_functions(src) {
        for i in f.header + 1..f.end {
            let edit = |removed: usize, inserted: Vec<String>| CEdit {
                kind,
                func: f.name.clone(),
                start: i,
                removed,
                inserted,
            };
            let line = lines[i];
            match kind {
                CEditKind::Constant => {
                    if let Some(new) = bump_first_constant(line) {
                        out.push(edit(1, vec![new]));
                    }
                }
                CEditKind::Operator => {
                    if let Some(new) = swap_first_operator(line) {
                        out.push(edit(1, vec![new]));
                    }
                }
                CEditKind::InsertStatement if is_simple_statement(&lines, i) => {
                    out.push(edit(1, vec![line.to_string(), line.to_string()]));
                }
                CEditKind::DeleteStatement if is_simple_statement(&lines, i) => {
                    out.push(edit(1, vec![]));
                }
                CEditKind::AddIf => {
                    if let (Some(p), true) = (&f.first_param, is_simple_statement(&lines, i)) {
                        let indent = &line[..line.len() - line.trim_start().len()];
                        let wrapped = format!("{indent}if ({p} != 0) {}", line.trim_start());
                        out.push(edit(1, vec![wrapped]));
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// Up to `n` of `cands` spread over the file, then the others (so a caller
/// that skips failures still spreads its picks).
pub fn spread<T: Clone>(cands: Vec<T>, n: usize) -> Vec<T> {
    let len = cands.len();
    if len == 0 {
        return cands;
    }
    let mut order: Vec<usize> = (0..n.min(len)).map(|k| k * len / n.min(len)).collect();
    order.dedup();
    let rest: Vec<usize> = (0..len).filter(|i| !order.contains(i)).collect();
    order.extend(rest);
    order.into_iter().map(|i| cands[i].clone()).collect()
}

/// A one-line statement that is not a declaration or control flow, not the
/// unbraced body of an `if`/`for`/`while` above it.
fn is_simple_statement(lines: &[&str], i: usize) -> bool {
    let t = lines[i].trim();
    const NOT: &[&str] = &[
        "return",
        "break",
        "continue",
        "goto",
        "case ",
        "default",
        "if ",
        "if(",
        "for ",
        "while ",
        "do ",
        "else",
        "switch",
        "}",
        "{",
        "#",
        "/",
        "int ",
        "long ",
        "char ",
        "unsigned ",
        "double ",
        "float ",
        "short ",
        "struct ",
        "const ",
        "static ",
        "enum ",
        "union ",
        "void ",
        "size_t ",
        "uint",
        "int8",
        "int16",
        "int32",
        "int64",
        "va_list ",
    ];
    if !t.ends_with(';') || NOT.iter().any(|p| t.starts_with(p)) {
        return false;
    }
    let balanced = t.matches('(').count() == t.matches(')').count();
    let prev = lines[..i]
        .iter()
        .rev()
        .map(|l| l.trim())
        .find(|l| !l.is_empty())
        .unwrap_or("");
    balanced && (prev.ends_with(';') || prev.ends_with('{') || prev.ends_with('}'))
}

/// Byte ranges of `line` outside string and character literals and comments.
fn code_mask(line: &str) -> Vec<bool> {
    let b = line.as_bytes();
    let mut mask = vec![true; b.len()];
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => {
                let q = b[i];
                let start = i;
                i += 1;
                while i < b.len() && b[i] != q {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                for m in mask.iter_mut().take((i + 1).min(b.len())).skip(start) {
                    *m = false;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'/') || b.get(i + 1) == Some(&b'*') => {
                for m in mask.iter_mut().skip(i) {
                    *m = false;
                }
                break;
            }
            _ => {}
        }
        i += 1;
    }
    mask
}

/// The line with its first decimal integer literal (in code) increased by one.
fn bump_first_constant(line: &str) -> Option<String> {
    if line.trim_start().starts_with('#') {
        return None;
    }
    let b = line.as_bytes();
    let mask = code_mask(line);
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'.';
    let mut i = 0;
    while i < b.len() {
        if mask[i] && b[i].is_ascii_digit() && (i == 0 || !ident(b[i - 1])) {
            let end = (i..b.len())
                .find(|&j| !b[j].is_ascii_digit())
                .unwrap_or(b.len());
            if end == b.len() || !ident(b[end]) {
                let n: u64 = line[i..end].parse().ok()?;
                return Some(format!("{}{}{}", &line[..i], n + 1, &line[end..]));
            }
            i = end;
        }
        i += 1;
    }
    None
}

/// The line with its first spaced binary operator (in code) swapped for a
/// related one (`+` ↔ `-`, `<` → `<=`, `==` ↔ `!=`, ...).
fn swap_first_operator(line: &str) -> Option<String> {
    const SWAPS: &[(&str, &str)] = &[
        (" <= ", " < "),
        (" >= ", " > "),
        (" << ", " >> "),
        (" >> ", " << "),
        (" == ", " != "),
        (" != ", " == "),
        (" && ", " || "),
        (" || ", " && "),
        (" + ", " - "),
        (" - ", " + "),
        (" * ", " + "),
        (" / ", " * "),
        (" % ", " / "),
        (" < ", " <= "),
        (" > ", " >= "),
        (" & ", " | "),
        (" | ", " & "),
        (" ^ ", " | "),
    ];
    if line.trim_start().starts_with('#') {
        return None;
    }
    let mask = code_mask(line);
    let mut best: Option<(usize, &str, &str)> = None;
    for (from, to) in SWAPS {
        let found = line
            .match_indices(from)
            .map(|(i, _)| i)
            .find(|&i| mask[i..i + from.len()].iter().all(|&m| m));
        if let Some(i) = found {
            if best.is_none_or(|(j, f, _)| i < j || (i == j && from.len() > f.len())) {
                best = Some((i, from, to));
            }
        }
    }
    let (i, from, to) = best?;
    Some(format!("{}{to}{}", &line[..i], &line[i + from.len()..]))
}

/// A clang-22 optimization and debug-info level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level {
    pub opt: &'static str,
    pub debug: bool,
}

impl Level {
    pub const ALL: [Level; 4] = [
        Level {
            opt: "-O0",
            debug: false,
        },
        Level {
            opt: "-O0",
            debug: true,
        },
        Level {
            opt: "-O2",
            debug: false,
        },
        Level {
            opt: "-O2",
            debug: true,
        },
    ];

    pub fn label(self) -> String {
        format!("{}{}", self.opt, if self.debug { " -g" } else { "" })
    }
}

/// Where the source is said to live in debug info, whatever temp dir it
/// was compiled in.
pub const DEBUG_SOURCE_DIR: &str = "/irgit-bench/src";

/// Compiles C `src` (the text of a file named `file_name`) at `level`;
/// `no_optnone` compiles -O0 without `optnone` (`-Xclang
/// -disable-O0-optnone`), for passes that skip optnone functions. The
/// IR is cached under `target/` by a hash of the source and flags.
pub fn compile_c_text(
    src: &str,
    file_name: &str,
    level: Level,
    no_optnone: bool,
) -> Result<String, String> {
    let mut flags = vec![level.opt, "-S", "-emit-llvm", "-w"];
    if level.debug {
        flags.push("-g");
    }
    if no_optnone {
        flags.extend(["-Xclang", "-disable-O0-optnone"]);
    }
    let key = fnv(format!("{file_name}\n{flags:?}\n{src}").as_bytes());
    let dir = cache_dir().join("c-edits");
    std::fs::create_dir_all(&dir).expect("create the C edit cache");
    let cached = dir.join(format!("{key:016x}.ll"));
    let failed = dir.join(format!("{key:016x}.failed"));
    if let Ok(text) = std::fs::read_to_string(&cached) {
        return Ok(text);
    }
    if let Ok(why) = std::fs::read_to_string(&failed) {
        return Err(why);
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    std::fs::write(tmp.path().join(file_name), src).expect("write C source");
    let out = Command::new(CLANG)
        .current_dir(tmp.path())
        .args(&flags)
        .arg(format!(
            "-fdebug-prefix-map={}={DEBUG_SOURCE_DIR}",
            tmp.path().display()
        ))
        .arg(file_name)
        .arg("-o")
        .arg("out.ll")
        .output()
        .map_err(|e| format!("cannot run {CLANG}: {e}"))?;
    if !out.status.success() {
        let why = format!(
            "{CLANG} {flags:?} {file_name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        write_atomic(&failed, why.as_bytes());
        return Err(why);
    }
    let text = std::fs::read_to_string(tmp.path().join("out.ll")).expect("read clang's output");
    write_atomic(&cached, text.as_bytes());
    Ok(text)
}

/// The C files the real-edit benchmarks edit: `tests/corpus/*.c` and
/// `tests/merge/c_triples/*.c` (compiled without their `EDIT_*` defines).
pub fn real_edit_sources() -> Vec<std::path::PathBuf> {
    let mut v = super::corpus_sources();
    v.extend(super::c_files_in("tests/merge/c_triples"));
    v
}

/// Where clang runs when it compiles a file, relative to the source
/// (issue 46): the paths it writes into debug info, and so the `DIFile`s
/// and their `directory:`.
///
/// ```text
/// in tree        cd SRC;    clang file.c            !DIFile(filename: "file.c", directory: "SRC")
/// out of tree    cd BUILD;  clang SRC/file.c        !DIFile(filename: "SRC/file.c", directory: "BUILD")
/// sandboxed      cd /other; clang SRC/file.c        + a second DIFile with directory: ""
/// prefix-mapped  out of tree, -ffile-prefix-map=ROOT=.
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BuildLayout {
    InTree,
    OutOfTree,
    Sandboxed,
    PrefixMapped,
}

impl BuildLayout {
    pub const ALL: [BuildLayout; 4] = [
        BuildLayout::InTree,
        BuildLayout::OutOfTree,
        BuildLayout::Sandboxed,
        BuildLayout::PrefixMapped,
    ];

    pub fn label(self) -> &'static str {
        match self {
            BuildLayout::InTree => "in tree",
            BuildLayout::OutOfTree => "out of tree",
            BuildLayout::Sandboxed => "sandboxed",
            BuildLayout::PrefixMapped => "prefix-mapped",
        }
    }
}

/// The checkout (`src/`, and `build/` beside it) that `place` names: the
/// same for two versions of one file, as two builds of one checkout are.
fn checkout_of(place: &str) -> std::path::PathBuf {
    std::env::temp_dir().join("irgit-layouts").join(place)
}

/// A build directory that shares no parent with [`checkout_of`] but `/`.
fn sandbox_of(place: &str) -> std::path::PathBuf {
    let top = |p: &std::path::Path| p.components().nth(1).map(|c| c.as_os_str().to_owned());
    let cache = cache_dir();
    let root = if top(&cache) != top(&std::env::temp_dir()) {
        cache.join("sandbox-builds")
    } else {
        std::path::PathBuf::from("/var/tmp/irgit-sandbox-builds")
    };
    root.join(place)
}

/// `src`, as `file_name`, compiled by clang-22 at `level` in `layout`, in
/// the checkout `place` names (cached, like [`compile_c_text`]). Two
/// versions of one file compiled with one `place` differ in their text only
/// where the source and clang make them differ.
pub fn compile_c_in_layout(
    src: &str,
    file_name: &str,
    level: Level,
    layout: BuildLayout,
    place: &str,
) -> Result<String, String> {
    let checkout = checkout_of(place);
    let source = checkout.join("src").join(file_name);
    let (cwd, input) = match layout {
        BuildLayout::InTree => (checkout.join("src"), file_name.into()),
        BuildLayout::OutOfTree | BuildLayout::PrefixMapped => {
            (checkout.join("build"), source.display().to_string())
        }
        BuildLayout::Sandboxed => (sandbox_of(place), source.display().to_string()),
    };
    let mut flags = vec![
        level.opt.to_string(),
        "-S".into(),
        "-emit-llvm".into(),
        "-w".into(),
    ];
    if level.debug {
        flags.push("-g".into());
    }
    if layout == BuildLayout::PrefixMapped {
        flags.push(format!("-ffile-prefix-map={}=.", checkout.display()));
    }
    let key = fnv(format!(
        "{file_name}\n{layout:?}\n{}\n{flags:?}\n{src}",
        cwd.display()
    )
    .as_bytes());
    let dir = cache_dir().join("c-layouts");
    std::fs::create_dir_all(&dir).expect("create the C layout cache");
    let cached = dir.join(format!("{key:016x}.ll"));
    if let Ok(text) = std::fs::read_to_string(&cached) {
        return Ok(text);
    }
    std::fs::create_dir_all(source.parent().unwrap()).expect("create the source directory");
    std::fs::create_dir_all(&cwd).expect("create the build directory");
    std::fs::write(&source, src).expect("write C source");
    let out = Command::new(CLANG)
        .current_dir(&cwd)
        .args(&flags)
        .arg(&input)
        .arg("-o")
        .arg(cwd.join("out.ll"))
        .output()
        .map_err(|e| format!("cannot run {CLANG}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{CLANG} {flags:?} {input}: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let text = std::fs::read_to_string(cwd.join("out.ll")).expect("read clang's output");
    write_atomic(&cached, text.as_bytes());
    Ok(text)
}

/// One source edit of one file of the real-edit corpus.
pub struct EditCase {
    pub file: String,
    pub base: String,
    pub edit: CEdit,
    pub edited: String,
}

/// Up to `per_kind` edits of each kind in each file of
/// [`real_edit_sources`], spread over the file, each one that compiles and
/// changes the file's -O0 IR.
pub fn pick_edit_cases(per_kind: usize) -> Vec<EditCase> {
    let level = Level::ALL[0];
    let mut work = Vec::new();
    for path in real_edit_sources() {
        let base = std::fs::read_to_string(&path).expect("read C source");
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        for kind in CEditKind::ALL {
            work.push((file.clone(), base.clone(), kind));
        }
    }
    let picked = super::par_map(&work, |(file, base, kind)| {
        let base_ir = compile_c_text(base, file, level, false).expect("corpus source compiles");
        let mut kept = Vec::new();
        for edit in spread(candidates(base, *kind), per_kind)
            .into_iter()
            .take(per_kind * 4)
        {
            let edited = edit.apply(base);
            if compile_c_text(&edited, file, level, false).is_ok_and(|ir| ir != base_ir) {
                kept.push(EditCase {
                    file: file.clone(),
                    base: base.clone(),
                    edit,
                    edited,
                });
                if kept.len() == per_kind {
                    break;
                }
            }
        }
        kept
    });
    picked.into_iter().flatten().collect()
}

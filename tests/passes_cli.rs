//! The `irgit passes` command line: reports, JSON, errors, optnone handling
//! and exit codes, on modules clang-22 compiles from the test corpus.
//!
//! ```text
//! $ irgit passes interact licm instcombine loops.O1.ll    -> conflict / contributes / commute, exit 0
//! $ irgit passes interact sroa nosuchpass loops.O1.ll      -> "unknown pass name", exit 1
//! $ irgit passes interact sroa instcombine loops.O0.ll     -> "--strip-optnone", exit 1
//! ```

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    fn new() -> Fixture {
        Fixture {
            dir: tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap(),
        }
    }

    /// `tests/corpus/<stem>.c` compiled with clang-22 at `opt`.
    fn compile(&self, stem: &str, opt: &str) -> PathBuf {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/corpus/{stem}.c"));
        let out = self.dir.path().join(format!("{stem}.{}.ll", &opt[1..]));
        let st = Command::new("clang-22")
            .args([opt, "-S", "-emit-llvm", "-w", "-o"])
            .arg(&out)
            .arg(&src)
            .status()
            .unwrap();
        assert!(st.success());
        out
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    }
}

fn irgit(args: &[&str], files: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_irgit"))
        .arg("passes")
        .args(args)
        .args(files)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn interact_reports_the_three_relations() {
    let f = Fixture::new();
    let m = f.compile("loops", "-O1");
    let o = irgit(&["interact", "licm", "instcombine"], &[&m]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(out.starts_with("p = licm, q = instcombine, m = "), "{out}");
    for needle in [
        "conflict: ",
        "instcombine contributes to licm: ",
        "licm contributes to instcombine: ",
        "commute: ",
    ] {
        assert!(out.contains(needle), "missing {needle:?} in\n{out}");
    }
    // The JSON says the same as the text.
    let o = irgit(&["interact", "--json", "licm", "instcombine"], &[&m]);
    assert_eq!(o.status.code(), Some(0));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["p"], "licm");
    assert_eq!(j["q"], "instcombine");
    let commute = j["commute"].as_bool().unwrap();
    assert_eq!(out.contains("commute: yes"), commute);
    let conflict = j["conflicts"].as_u64().unwrap() > 0;
    assert_eq!(out.contains("conflict: yes"), conflict);
    let contributes = !j["p_to_q"]["diff"]["text"].as_str().unwrap().is_empty();
    assert_eq!(
        out.contains("licm contributes to instcombine: yes"),
        contributes
    );
    assert_eq!(j["implication_violated"], false);
}

#[test]
fn unknown_pass_names_are_refused_clearly() {
    let f = Fixture::new();
    let m = f.compile("loops", "-O1");
    let o = irgit(&["interact", "sroa", "nosuchpass"], &[&m]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(
        err.contains("nosuchpass") && err.contains("unknown pass name"),
        "{err}"
    );
    assert!(err.contains("opt -passes="), "{err}");
    let o = irgit(
        &["matrix", "sroa,function(instcombine", "--no-progress"],
        &[&m],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("unbalanced"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn optnone_is_said_and_can_be_stripped() {
    let f = Fixture::new();
    let m = f.compile("loops", "-O0");
    let o = irgit(&["interact", "sroa", "instcombine"], &[&m]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(
        err.contains("optnone") && err.contains("--strip-optnone"),
        "{err}"
    );
    assert!(err.contains(&m.display().to_string()), "{err}");

    let o = irgit(
        &["interact", "--strip-optnone", "sroa", "instcombine"],
        &[&m],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("optnone and noinline dropped from"), "{out}");
    assert!(!out.contains("δ(p,-): no change"), "{out}");

    // One optnone function among others: the report says so.
    let ir = "define i32 @kept(i32 %x) #0 {\n  %a = alloca i32\n  store i32 %x, ptr %a\n  %v = load i32, ptr %a\n  ret i32 %v\n}\n\
              define i32 @opt(i32 %x) {\n  %a = alloca i32\n  store i32 %x, ptr %a\n  %v = load i32, ptr %a\n  ret i32 %v\n}\n\
              attributes #0 = { noinline optnone }\n";
    let p = f.write("mixed.ll", ir);
    let o = irgit(&["interact", "sroa", "instcombine"], &[&p]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("1 of 2 functions are optnone"));
    assert!(text(&o.stderr).contains("--strip-optnone"));
}

#[test]
fn matrix_counts_modules_per_pair() {
    let f = Fixture::new();
    let files = [f.compile("loops", "-O1"), f.compile("arrays", "-O1")];
    let o0 = f.compile("bits", "-O0");
    let refs: Vec<&Path> = files
        .iter()
        .map(|p| p.as_path())
        .chain([o0.as_path()])
        .collect();
    let list = "licm,instcombine,function(mem2reg,instcombine)";
    let o = irgit(&["matrix", "--json", list], &refs);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["pipelines"].as_array().unwrap().len(), 3);
    // The -O0 module is all optnone: left out, and said so.
    let modules = j["modules"].as_array().unwrap();
    assert_eq!(modules.len(), 3);
    assert_eq!(modules.iter().filter(|m| m["skipped"].is_null()).count(), 2);
    assert!(text(&o.stderr).contains("--strip-optnone"));
    let cells = j["cells"].as_array().unwrap();
    // The cells are the sums of the per-module facts.
    let mut sums = vec![[0u64; 3]; 9];
    for m in modules.iter().filter(|m| m["skipped"].is_null()) {
        let pairs = m["pairs"].as_array().unwrap();
        assert_eq!(pairs.len(), 9);
        for f in pairs {
            let k = (f["p"].as_u64().unwrap() * 3 + f["q"].as_u64().unwrap()) as usize;
            for (x, key) in ["conflict", "contribution", "commute"].iter().enumerate() {
                sums[k][x] += f[key].as_bool().unwrap_or(false) as u64;
            }
        }
    }
    for (k, sum) in sums.iter().enumerate() {
        let c = &cells[k / 3][k % 3];
        let got = [&c["conflict"], &c["contribution"], &c["commute"]].map(|v| v.as_u64().unwrap());
        assert_eq!(&got, sum, "cell {k}");
    }
    for (i, row) in cells.iter().enumerate() {
        let row = row.as_array().unwrap();
        assert_eq!(row[i]["commute"], 2, "a pipeline with itself commutes");
        for c in row {
            for k in ["conflict", "contribution", "commute"] {
                assert!(c[k].as_u64().unwrap() <= 2);
            }
        }
    }
    // Text: three tables, one row per pipeline.
    let o = irgit(&["matrix", "--strip-optnone", "-j", "2", list], &refs);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.starts_with("3 pipelines over 3 module(s)"), "{out}");
    assert_eq!(
        out.matches("\nfunction(mem2reg,instcombine)").count(),
        3,
        "{out}"
    );
}

#[test]
fn bad_files_are_named() {
    let f = Fixture::new();
    let missing = f.dir.path().join("nope.ll");
    let o = irgit(&["interact", "sroa", "gvn"], &[&missing]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("nope.ll"));
    let bad = f.write("bad.ll", "define i32 @f( {\n");
    let o = irgit(&["matrix", "sroa,gvn"], &[&bad]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("bad.ll"), "{}", text(&o.stderr));
}

#[test]
fn help_teaches_with_examples() {
    let o = Command::new(env!("CARGO_BIN_EXE_irgit"))
        .args(["passes", "--help"])
        .output()
        .unwrap();
    let h = text(&o.stdout);
    assert!(
        h.contains("irgit passes interact") && h.contains("irgit passes matrix"),
        "{h}"
    );
    assert!(h.contains("CONFLICT") && h.contains("CONTRIBUTES") && h.contains("COMMUTE"));
}

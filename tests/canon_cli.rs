//! `irgit canon` as a user runs it: files, stdin, `-o`, `--in-place`,
//! bitcode (raw and inside the wrapper header), settings, and bad input.
//!
//! ```text
//! irgit canon a.ll            -> canonical text on stdout, exit 0
//! irgit canon junk.bin        -> "irgit canon: junk.bin: ..." on stderr, exit 1, nothing written
//! ```

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const MODULE: &str = r#"source_filename = "m.c"

define i32 @g(i32 %n, i32 %m) {
start:
  %0 = mul i32 %m, 3
  %1 = add i32 %n, 1
  %2 = icmp slt i32 %1, %0
  br i1 %2, label %yes, label %no
no:
  ret i32 %1
yes:
  ret i32 %0
}

define i32 @f(i32 %x) {
  %r = call i32 @g(i32 %x, i32 2)
  ret i32 %r
}
"#;

fn irgit(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_irgit"));
    cmd.args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("irgit runs");
    {
        use std::io::Write;
        let mut pipe = child.stdin.take().unwrap();
        if let Some(bytes) = stdin {
            pipe.write_all(bytes).unwrap();
        }
    }
    child.wait_with_output().unwrap()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn canon_ok(dir: &Path, args: &[&str]) -> String {
    let o = irgit(dir, args, None);
    assert!(
        o.status.success(),
        "irgit {args:?} failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

fn llvm_as(dir: &Path, input: &Path, out: &str) -> PathBuf {
    llvm_as_with(dir, input, out, &[])
}

/// [`llvm_as`] with more of its options (`-disable-verify`).
fn llvm_as_with(dir: &Path, input: &Path, out: &str, options: &[&str]) -> PathBuf {
    let out = dir.join(out);
    common::llvm_as(input, &out, options);
    out
}

#[test]
fn text_file_stdin_and_output_file_agree() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "a.ll", MODULE.as_bytes());
    let from_file = canon_ok(t.path(), &["canon", "a.ll"]);
    assert!(
        from_file.contains("define i32 @f(i32 %arg0)"),
        "{from_file}"
    );
    assert!(
        !from_file.contains("%0 ="),
        "unnamed values remain:\n{from_file}"
    );
    let o = irgit(t.path(), &["canon", "-"], Some(MODULE.as_bytes()));
    assert!(o.status.success());
    assert_eq!(String::from_utf8(o.stdout).unwrap(), from_file);
    canon_ok(t.path(), &["canon", "a.ll", "-o", "out.ll"]);
    assert_eq!(
        std::fs::read_to_string(t.path().join("out.ll")).unwrap(),
        from_file
    );
    // functions are ordered by name: @f before @g
    assert!(from_file.find("@f(").unwrap() < from_file.find("define i32 @g(").unwrap());
}

#[test]
fn in_place_rewrites_every_file() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "a.ll", MODULE.as_bytes());
    write(t.path(), "b.ll", MODULE.replace("%x", "%y").as_bytes());
    let expected = canon_ok(t.path(), &["canon", "a.ll"]);
    canon_ok(t.path(), &["canon", "--in-place", "a.ll", "b.ll"]);
    assert_eq!(
        std::fs::read_to_string(t.path().join("a.ll")).unwrap(),
        expected
    );
    assert_eq!(
        std::fs::read_to_string(t.path().join("b.ll")).unwrap(),
        expected
    );
}

#[test]
fn bitcode_raw_and_wrapped_give_the_canonical_text() {
    let t = tempfile::tempdir().unwrap();
    let ll = write(t.path(), "a.ll", MODULE.as_bytes());
    let expected = canon_ok(t.path(), &["canon", "a.ll"]);
    let bc = llvm_as(t.path(), &ll, "a.bc");
    assert_eq!(canon_ok(t.path(), &["canon", "a.bc"]), expected);

    // The wrapper header: magic 0x0B17C0DE, version, offset, size, cpu type
    // (five little-endian u32), then the bitcode.
    let raw = std::fs::read(&bc).unwrap();
    let mut wrapped = Vec::new();
    for word in [0x0B17_C0DEu32, 0, 20, raw.len() as u32, 0x0100_0007] {
        wrapped.extend_from_slice(&word.to_le_bytes());
    }
    wrapped.extend_from_slice(&raw);
    assert_eq!(
        irgit::ir::detect_format(&wrapped),
        irgit::ir::Format::WrappedBitcode
    );
    write(t.path(), "w.bc", &wrapped);
    assert_eq!(canon_ok(t.path(), &["canon", "w.bc"]), expected);
}

#[test]
fn bad_input_is_refused_with_the_file_named_and_nothing_written() {
    let t = tempfile::tempdir().unwrap();
    let cases: [(&str, &[u8], &str); 4] = [
        ("junk.ll", b"\x00\x01\x02binary junk\xff", "junk.ll"),
        ("broken.ll", b"define i32 @f( {\n", "broken.ll"),
        (
            "invalid.ll",
            b"define i32 @f() {\n  ret i32 %x\n}\n",
            "invalid.ll",
        ),
        (
            "markers.ll",
            b"<<<<<<< ours\ndefine void @f() {\n  ret void\n}\n=======\n>>>>>>> theirs\n",
            "markers.ll",
        ),
    ];
    for (name, bytes, mention) in cases {
        write(t.path(), name, bytes);
        let o = irgit(t.path(), &["canon", "--in-place", name], None);
        assert_eq!(o.status.code(), Some(1), "{name}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(mention), "{name}: {err}");
        assert_eq!(
            std::fs::read(t.path().join(name)).unwrap(),
            bytes,
            "{name} was modified"
        );
    }
    // IR that parses but does not verify (a use before its definition in one
    // block) is refused as well.
    let bad_verify = b"define i32 @f(i32 %a) {\nentry:\n  br label %next\nnext:\n  %x = add i32 %y, 1\n  %y = add i32 %x, 1\n  ret i32 %x\n}\n";
    write(t.path(), "cycle.ll", bad_verify);
    let o = irgit(t.path(), &["canon", "cycle.ll"], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cycle.ll"));
}

/// LLVM's parser verifies a module that declares the current debug-info
/// version, and ends the process (`Broken module found, compilation
/// aborted!`) when it does not verify: irgit refuses such a file like any
/// other, naming it, and leaves it as it was.
#[test]
fn invalid_ir_declaring_the_debug_info_version_is_refused_not_fatal() {
    let t = tempfile::tempdir().unwrap();
    let bytes = b"define i32 @f(i32 %a) {\nentry:\n  %x = add i32 %y, 1\n  %y = add i32 %a, 1\n  ret i32 %x\n}\n\n!llvm.module.flags = !{!0}\n!0 = !{i32 2, !\"Debug Info Version\", i32 3}\n";
    write(t.path(), "versioned.ll", bytes);
    for args in [
        &["canon", "versioned.ll"][..],
        &["canon", "--view", "versioned.ll"],
        &["canon", "--in-place", "versioned.ll"],
    ] {
        let o = irgit(t.path(), args, None);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("versioned.ll: LLVM IR does not verify"),
            "{args:?}: {err}"
        );
        assert!(
            err.contains("Instruction does not dominate all uses"),
            "{err}"
        );
        assert!(!err.contains("LLVM ERROR"), "{err}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
    assert_eq!(std::fs::read(t.path().join("versioned.ll")).unwrap(), bytes);
    // The bitcode reader ran the same step: the same module as bitcode
    // (written without verification) is refused the same way.
    let input = t.path().join("versioned.ll");
    llvm_as_with(t.path(), &input, "versioned.bc", &["-disable-verify"]);
    let o = irgit(t.path(), &["canon", "versioned.bc"], None);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("versioned.bc: LLVM IR does not verify"),
        "{err}"
    );
}

#[test]
fn settings_and_flags_switch_stages_off() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "a.ll", MODULE.as_bytes());
    let kept = canon_ok(
        t.path(),
        &["canon", "--keep-names", "--keep-block-names", "a.ll"],
    );
    assert!(kept.contains("%r = call"), "{kept}");
    assert!(kept.contains("yes:"), "{kept}");
    write(t.path(), ".irgit.yaml", b"canon:\n  rename_values: false\n");
    let from_yaml = canon_ok(t.path(), &["canon", "a.ll"]);
    assert!(from_yaml.contains("%r = call"), "{from_yaml}");
    write(t.path(), ".irgit.yaml", b"canon:\n  rename_valuez: false\n");
    let o = irgit(t.path(), &["canon", "a.ll"], None);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(".irgit.yaml") && err.contains("rename_valuez"),
        "{err}"
    );
}

#[test]
fn output_is_canonical_and_idempotent_through_the_cli() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "a.ll", MODULE.as_bytes());
    let once = canon_ok(t.path(), &["canon", "a.ll"]);
    write(t.path(), "once.ll", once.as_bytes());
    assert_eq!(canon_ok(t.path(), &["canon", "once.ll"]), once);
}

#[test]
fn bitcode_stays_bitcode_in_place_and_for_bc_outputs() {
    let t = tempfile::tempdir().unwrap();
    let ll = write(t.path(), "a.ll", MODULE.as_bytes());
    let expected = canon_ok(t.path(), &["canon", "a.ll"]);
    llvm_as(t.path(), &ll, "a.bc");
    canon_ok(t.path(), &["canon", "--in-place", "a.bc"]);
    let rewritten = std::fs::read(t.path().join("a.bc")).unwrap();
    assert!(
        irgit::canon::is_bitcode(&rewritten),
        "a.bc is no longer bitcode"
    );
    assert_eq!(canon_ok(t.path(), &["canon", "a.bc"]), expected);
    canon_ok(t.path(), &["canon", "a.ll", "-o", "out.bc"]);
    let out = std::fs::read(t.path().join("out.bc")).unwrap();
    assert!(irgit::canon::is_bitcode(&out));
    assert_eq!(canon_ok(t.path(), &["canon", "out.bc"]), expected);
}

#[test]
fn latin1_comments_do_not_stop_canonicalization() {
    let t = tempfile::tempdir().unwrap();
    let mut bytes = b"; auteur: H\xe9l\xe8ne\n".to_vec();
    bytes.extend_from_slice(MODULE.as_bytes());
    write(t.path(), "latin1.ll", &bytes);
    write(t.path(), "plain.ll", MODULE.as_bytes());
    // The comment keeps its bytes (not UTF-8) in the canonical form, and
    // the rest is the canonical form of the same module without it.
    let out = irgit(t.path(), &["canon", "latin1.ll"], None);
    assert!(out.status.success());
    let mut expected = b"; auteur: H\xe9l\xe8ne\n\n".to_vec();
    expected.extend_from_slice(canon_ok(t.path(), &["canon", "plain.ll"]).as_bytes());
    assert_eq!(out.stdout, expected);
    assert_eq!(
        canon_ok(t.path(), &["canon", "--strip-comments", "latin1.ll"]),
        canon_ok(t.path(), &["canon", "plain.ll"])
    );
    canon_ok(t.path(), &["canon", "--in-place", "latin1.ll"]);
    assert_eq!(std::fs::read(t.path().join("latin1.ll")).unwrap(), expected);
}

/// C++ with exceptions (invoke, landingpad, cleanups) and debug records, at
/// -O0 and -O2: the canonical form verifies, is idempotent, and the program
/// built from it prints what the original prints.
#[test]
fn cxx_exceptions_with_debug_info_keep_their_meaning() {
    let t = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus_cxx/exceptions.cpp");
    let run = |ll: &Path, exe: &str| -> Vec<u8> {
        let exe = t.path().join(exe);
        let st = Command::new("clang++-22")
            .arg(ll)
            .arg("-o")
            .arg(&exe)
            .status()
            .expect("clang++-22 is installed");
        assert!(st.success(), "clang++-22 failed on {}", ll.display());
        let out = Command::new(&exe).output().unwrap();
        assert!(out.status.success());
        out.stdout
    };
    for opt in ["-O0", "-O2"] {
        let ll = t.path().join(format!("eh{opt}.ll"));
        let st = Command::new("clang++-22")
            .args(["-S", "-emit-llvm", "-g", opt])
            .arg(&src)
            .arg("-o")
            .arg(&ll)
            .status()
            .expect("clang++-22 is installed");
        assert!(st.success());
        let name = ll.file_name().unwrap().to_str().unwrap();
        let canon = canon_ok(t.path(), &["canon", name]);
        assert!(canon.contains("landingpad"), "{opt}: no landingpad left");
        let cll = write(t.path(), &format!("c{name}"), canon.as_bytes());
        assert_eq!(
            canon_ok(
                t.path(),
                &["canon", cll.file_name().unwrap().to_str().unwrap()]
            ),
            canon
        );
        assert_eq!(
            run(&ll, "orig"),
            run(&cll, "canon"),
            "{opt}: output differs"
        );
    }
}

/// A `source_filename` that happens to equal the file's own name is part of
/// the module and stays; one LLVM filled in from the name is not printed.
#[test]
fn source_filename_is_kept_exactly_when_the_input_has_one() {
    let t = tempfile::tempdir().unwrap();
    let body = "define void @f() {\n  ret void\n}\n";
    write(
        t.path(),
        "a.ll",
        format!("source_filename = \"a.ll\"\n{body}").as_bytes(),
    );
    write(t.path(), "b.ll", body.as_bytes());
    assert!(canon_ok(t.path(), &["canon", "a.ll"]).contains("source_filename = \"a.ll\""));
    assert!(!canon_ok(t.path(), &["canon", "b.ll"]).contains("b.ll"));
}

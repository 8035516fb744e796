//! LLVM's verification of the canonical module runs beside its printing,
//! in a forked copy of the process, for inputs of 1 MiB and more, text or
//! bitcode: the same bytes and the same errors as when everything runs in
//! one process, and nothing left running when the process is killed.
//!
//! ```text
//! irgit canon --view big.ll    == IRGIT_SINGLE_PROCESS=1 irgit canon --view big.ll
//! irgit canon --view big.bc    == IRGIT_SINGLE_PROCESS=1 irgit canon --view big.bc
//! irgit canon big-invalid.ll   -> "big-invalid.ll: LLVM IR does not verify: ...", exit 1, both ways
//! kill -9 (irgit canon big.ll) -> its copies end too
//! ```

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// An llvm-stress module of `size` instructions, over the 1 MiB from which
/// the output's verification runs beside.
fn big_module(dir: &Path, size: u64) -> PathBuf {
    let path = dir.join(format!("big-{size}.ll"));
    common::stress_module(7, size, &path);
    let len = std::fs::metadata(&path).unwrap().len();
    assert!(
        len >= 1 << 20,
        "the module must be at least 1 MiB, is {len} bytes"
    );
    path
}

fn irgit(args: &[&str], file: &Path, single_process: bool) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_irgit"));
    cmd.args(args).arg(file).env("IRGIT_TIMINGS", "1");
    if single_process {
        cmd.env("IRGIT_SINGLE_PROCESS", "1");
    }
    cmd.output().expect("irgit runs")
}

/// Whether this machine has a second core (without one, irgit never forks).
fn two_cores() -> bool {
    std::thread::available_parallelism().is_ok_and(|n| n.get() > 1)
}

/// The lines of `stderr` that are not timing laps.
fn messages(stderr: &[u8]) -> String {
    String::from_utf8_lossy(stderr)
        .lines()
        .filter(|l| !l.starts_with("irgit: ["))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The bitcode of the text module `text`, written beside it.
fn as_bitcode(text: &Path) -> PathBuf {
    let bitcode = text.with_extension("bc");
    common::llvm_as(text, &bitcode, &[]);
    bitcode
}

/// `irgit ARGS FILE` beside and in one process: the same bytes; with two
/// cores, and only then, the laps show that the output's verification ran
/// beside (the input's runs first, in the process itself).
fn assert_both_ways_alike(file: &Path) {
    for args in [&["canon", "--view"][..], &["canon"][..]] {
        let beside = irgit(args, file, false);
        let single = irgit(args, file, true);
        assert!(
            beside.status.success(),
            "{args:?}: {}",
            messages(&beside.stderr)
        );
        assert!(
            single.status.success(),
            "{args:?}: {}",
            messages(&single.stderr)
        );
        assert!(!beside.stdout.is_empty());
        assert!(
            beside.stdout == single.stdout,
            "{args:?}: the two paths differ"
        );
        let laps = String::from_utf8_lossy(&beside.stderr);
        let ran_beside = laps.contains("wait for the output verification");
        assert_eq!(
            ran_beside,
            two_cores(),
            "{args:?}: with two cores, and only then, the output's verification runs beside:\n{laps}"
        );
        assert!(laps.contains("verify input"), "{laps}");
        let single_laps = String::from_utf8_lossy(&single.stderr);
        assert!(!single_laps.contains("beside"), "{single_laps}");
    }
}

#[test]
fn beside_and_in_one_process_print_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let big = big_module(dir.path(), 25_000);
    assert_both_ways_alike(&big);
}

#[test]
fn bitcode_prints_the_same_bytes_both_ways() {
    let dir = tempfile::tempdir().unwrap();
    let bitcode = as_bitcode(&big_module(dir.path(), 80_000));
    let len = std::fs::metadata(&bitcode).unwrap().len();
    assert!(
        len >= 1 << 20,
        "the bitcode must be at least 1 MiB, is {len}"
    );
    assert_both_ways_alike(&bitcode);
}

#[test]
fn an_input_llvm_rejects_gives_the_same_error_both_ways() {
    let dir = tempfile::tempdir().unwrap();
    let big = big_module(dir.path(), 25_000);
    let mut text = std::fs::read_to_string(&big).unwrap();
    text.push_str("\ndefine i32 @bad(i32 %a) {\n  %x = add i32 %x, %a\n  ret i32 %x\n}\n");
    let invalid = dir.path().join("big-invalid.ll");
    std::fs::write(&invalid, &text).unwrap();
    for args in [&["canon", "--view"][..], &["canon"][..]] {
        let beside = irgit(args, &invalid, false);
        let single = irgit(args, &invalid, true);
        assert_eq!(beside.status.code(), Some(1), "{args:?}");
        assert_eq!(single.status.code(), Some(1), "{args:?}");
        assert!(beside.stdout.is_empty() && single.stdout.is_empty());
        let message = messages(&beside.stderr);
        assert_eq!(message, messages(&single.stderr), "{args:?}");
        assert!(
            message.contains("big-invalid.ll")
                && message.contains("Only PHI nodes may reference their own value"),
            "{message}"
        );
    }
    // The input is left as it was.
    assert_eq!(std::fs::read_to_string(&invalid).unwrap(), text);
}

/// The pids of `pid`'s children, from /proc.
fn children(pid: u32) -> Vec<u32> {
    let path = format!("/proc/{pid}/task/{pid}/children");
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.split_whitespace()
        .filter_map(|p| p.parse().ok())
        .collect()
}

/// Whether `pid` is still running (gone and zombie both count as ended).
fn running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat.rsplit_once(") ").map(|(_, rest)| rest.chars().next());
            !matches!(state, Some(Some('Z')) | Some(Some('X')))
        }
        Err(_) => false,
    }
}

#[test]
fn a_killed_process_leaves_no_copy_running() {
    let dir = tempfile::tempdir().unwrap();
    let big = big_module(dir.path(), 200_000);
    let mut child = Command::new(env!("CARGO_BIN_EXE_irgit"))
        .args(["canon", "--view"])
        .arg(&big)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let copies = loop {
        let copies = children(child.id());
        if !copies.is_empty() {
            break copies;
        }
        if child.try_wait().unwrap().is_some() {
            assert!(!two_cores(), "irgit canon --view never forked a copy");
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "irgit canon --view hangs"
        );
        std::thread::sleep(Duration::from_millis(2));
    };
    child.kill().unwrap();
    child.wait().unwrap();
    let killed = Instant::now();
    while copies.iter().any(|&c| running(c)) {
        assert!(
            killed.elapsed() < Duration::from_secs(1),
            "copies {copies:?} still run after their parent was killed"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

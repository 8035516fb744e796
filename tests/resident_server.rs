//! The resident textconv server (`src/git/resident/`) through real git:
//! `git log -p` shows the same bytes with and without it, whatever happens
//! to the server (killed mid-run, a stale socket file, a socket that
//! answers nothing, a new build installed), and no server outlives its use.

use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

mod common;
mod git_support;
use git_support::Repo;

/// Version `n` of a module: the same function with one more instruction
/// per version, so every commit renumbers the values below the change.
/// Compiler output (its header), which the view shows canonical.
fn version(n: usize) -> String {
    let mut body = String::from("; ModuleID = 'a.c'\nsource_filename = \"a.c\"\n\n");
    body.push_str("define i32 @f(i32 %0) {\n");
    // %1 is the entry block.
    body.push_str("  %2 = add i32 %0, 1\n");
    let mut last = 2;
    for step in 0..n {
        body.push_str(&format!(
            "  %{} = add i32 %{last}, {}\n",
            last + 1,
            step + 3
        ));
        last += 1;
    }
    body.push_str(&format!("  ret i32 %{last}\n}}\n"));
    body.push_str("define i32 @g(i32 %x) {\n  %y = mul i32 %x, 5\n  ret i32 %y\n}\n");
    body
}

/// A repository with irgit installed and `commits` versions of `a.ll`; one
/// of them does not parse (textconv shows it as written, with a message).
fn history(commits: usize) -> Repo {
    let repo = Repo::new();
    repo.irgit_ok(&["install"]);
    for n in 0..commits {
        let text = if n == 2 {
            "this is not IR\n".to_string()
        } else {
            version(n)
        };
        repo.write("a.ll", text);
        repo.commit_all(&format!("version {n}"));
    }
    repo
}

/// Settings for textconv: `server_idle_seconds` 0 turns the server off.
fn use_server(repo: &Repo, idle_seconds: u64) {
    repo.write(
        ".irgit.yaml",
        format!("textconv:\n  server_idle_seconds: {idle_seconds}\n"),
    );
    let _ = std::fs::remove_dir_all(repo.root.join(".git/irgit/textconv-cache"));
}

fn log_p(repo: &Repo) -> Output {
    repo.run_in(&repo.root, "git", &["log", "-p"])
}

fn text(output: &Output) -> (String, String) {
    assert!(output.status.success(), "{output:?}");
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// `git log -p` with textconv in processes of its own (no server).
fn reference(repo: &Repo) -> (String, String) {
    use_server(repo, 0);
    let shown = text(&log_p(repo));
    assert!(repo.server_pids().is_empty(), "no server without one");
    assert!(shown.0.contains("%add."), "the view is shown:\n{}", shown.0);
    assert!(shown.1.contains("not valid LLVM IR"), "{}", shown.1);
    shown
}

fn is_running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        !stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z')
    })
}

fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < Duration::from_secs(20), "{what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The socket the client of the built `irgit` uses in `repo`'s server directory.
fn socket_of(repo: &Repo, irgit: &Path) -> PathBuf {
    std::fs::create_dir_all(repo.server_dir()).unwrap();
    let mut perms = std::fs::metadata(repo.server_dir()).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o700);
    std::fs::set_permissions(repo.server_dir(), perms).unwrap();
    let identity = irgit::git::resident::identity_of(irgit).unwrap();
    irgit::git::resident::socket_path(&repo.server_dir(), &identity)
}

#[test]
fn git_log_p_shows_the_same_bytes_with_and_without_the_server() {
    let repo = history(6);
    let without = reference(&repo);
    use_server(&repo, 30);
    let with = text(&log_p(&repo));
    assert_eq!(with, without);
    let pids = repo.server_pids();
    assert_eq!(pids.len(), 1, "one server started: {pids:?}");
    assert!(is_running(pids[0]));
    // Warm (cached) and again with the server already up: the same.
    assert_eq!(text(&log_p(&repo)), without);
    use_server(&repo, 30);
    assert_eq!(text(&log_p(&repo)), without);
    assert_eq!(
        repo.server_pids(),
        pids,
        "the running server was used again"
    );
}

/// A function LLVM rejects: a value that uses itself.
const SELF_REFERENCE: &str = "define i32 @bad(i32 %a) {\n  %x = add i32 %x, %a\n  ret i32 %x\n}\n";

/// A function LLVM rejects, and whose canonicalization may crash: LLVM's
/// own `mayHaveSideEffects` reads `memcpy`'s `immarg` operand as a constant.
const IMMARG_NOT_CONSTANT: &str = "define void @bad(ptr %p) {
  %v = load i32, ptr %p
  %c = icmp eq i32 %v, 0
  call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %p, i64 4, i1 %c)
  ret void
}
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
";

/// Files of 1 MiB and more, where the server's child verifies the input
/// beside canonicalizing it: a valid module edited, and two that LLVM
/// rejects. `git log -p` reads the same with and without the server,
/// LLVM's complaints included.
#[test]
fn large_inputs_read_the_same_through_the_server_valid_or_not() {
    let dir = tempfile::tempdir().unwrap();
    let stress = dir.path().join("big.ll");
    common::stress_module(7, 25_000, &stress);
    let big = std::fs::read_to_string(&stress).unwrap();
    assert!(big.len() >= 1 << 20, "the module must be at least 1 MiB");
    let repo = Repo::new();
    repo.irgit_ok(&["install"]);
    repo.write("a.ll", &big);
    repo.commit_all("valid");
    let edited = big.replacen(" = add ", " = sub ", 1);
    assert_ne!(edited, big);
    repo.write("a.ll", edited);
    repo.write("b.ll", format!("{big}\n{SELF_REFERENCE}"));
    repo.write("c.ll", format!("{big}\n{IMMARG_NOT_CONSTANT}"));
    repo.commit_all("edited, and two that LLVM rejects");
    use_server(&repo, 0);
    let without = text(&log_p(&repo));
    assert!(without.0.contains("sub "), "the edit shows:\n{}", without.0);
    for complaint in [
        "b.ll: LLVM IR does not verify: Only PHI nodes may reference their own value",
        "c.ll: LLVM IR does not verify: immarg operand has non-immediate parameter",
    ] {
        assert!(without.1.contains(complaint), "{}", without.1);
    }
    use_server(&repo, 30);
    let with = text(&log_p(&repo));
    assert!(
        with == without,
        "the server changed git log -p:\n{}",
        with.1
    );
    assert_eq!(repo.server_pids().len(), 1, "one server started");
}

#[test]
fn a_time_limit_reached_in_the_server_reads_as_without_it() {
    let repo = history(3);
    let message = |repo: &Repo, idle: u64| {
        repo.write(
            ".irgit.yaml",
            format!("textconv:\n  timeout_seconds: 0.000001\n  server_idle_seconds: {idle}\n"),
        );
        let _ = std::fs::remove_dir_all(repo.root.join(".git/irgit/textconv-cache"));
        text(&log_p(repo))
    };
    let without = message(&repo, 0);
    assert!(without.1.contains("took longer than"), "{}", without.1);
    assert!(
        !without.0.contains("%add."),
        "shown as written:\n{}",
        without.0
    );
    assert_eq!(message(&repo, 30), without);
    assert_eq!(repo.server_pids().len(), 1);
}

#[test]
fn a_server_killed_mid_run_changes_nothing() {
    let repo = history(40);
    let without = reference(&repo);
    use_server(&repo, 30);
    let git = repo
        .command("git")
        .env("GIT_PAGER", "cat")
        .args(["log", "-p"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_until("a server starts", || !repo.server_pids().is_empty());
    let first = repo.server_pids()[0];
    repo.stop_servers();
    let with = text(&git.wait_with_output().unwrap());
    assert_eq!(with, without);
    // The killed server left its socket file: the next run starts another.
    assert!(!is_running(first));
    use_server(&repo, 30);
    assert_eq!(text(&log_p(&repo)), without);
    let pids = repo.server_pids();
    assert!(
        pids.len() == 1 && pids[0] != first && is_running(pids[0]),
        "{pids:?}"
    );
}

#[test]
fn a_stale_socket_file_is_replaced_by_a_new_server() {
    let repo = history(4);
    let without = reference(&repo);
    let socket = socket_of(&repo, Path::new(git_support::IRGIT));
    drop(UnixListener::bind(&socket).unwrap());
    assert!(socket.exists(), "a socket file nobody listens on");
    use_server(&repo, 30);
    assert_eq!(text(&log_p(&repo)), without);
    let pids = repo.server_pids();
    assert!(pids.len() == 1 && is_running(pids[0]), "{pids:?}");
}

#[test]
fn a_socket_that_hangs_up_is_worked_around() {
    let repo = history(4);
    let without = reference(&repo);
    let socket = socket_of(&repo, Path::new(git_support::IRGIT));
    let listener = UnixListener::bind(&socket).unwrap();
    let answering = std::thread::spawn(move || {
        let mut served = 0;
        listener.set_nonblocking(true).unwrap();
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(15) && served < 100 {
            match listener.accept() {
                Ok((connection, _)) => {
                    drop(connection);
                    served += 1;
                }
                Err(_) => std::thread::sleep(Duration::from_millis(5)),
            }
        }
        served
    });
    use_server(&repo, 30);
    assert_eq!(text(&log_p(&repo)), without);
    std::fs::remove_file(&socket).unwrap();
    assert!(
        answering.join().unwrap() > 0,
        "the clients asked the broken socket"
    );
}

#[test]
fn a_new_build_gets_its_own_server_and_the_old_one_exits() {
    let repo = history(4);
    let without = reference(&repo);
    let bin = repo._tmp.path().join("installed-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let install = |repo: &Repo| {
        for program in ["irgit", "irgit-textconv"] {
            let target = bin.join(program);
            let _ = std::fs::remove_file(&target);
            std::fs::copy(git_support::bin_dir().join(program), &target).unwrap();
        }
        let irgit = bin.join("irgit");
        repo.ok_in(&repo.root, irgit.to_str().unwrap(), &["install"]);
    };
    install(&repo);
    use_server(&repo, 30);
    assert_eq!(text(&log_p(&repo)), without);
    let old = repo.server_pids();
    assert_eq!(old.len(), 1, "{old:?}");
    // `cargo install` again: a new file at the same path.
    std::thread::sleep(Duration::from_millis(20));
    install(&repo);
    use_server(&repo, 30);
    assert_eq!(text(&log_p(&repo)), without);
    wait_until("the old build's server exits", || !is_running(old[0]));
    let new = repo.server_pids();
    assert!(
        new.len() == 1 && new[0] != old[0] && is_running(new[0]),
        "{new:?}"
    );
}

#[test]
fn an_idle_server_exits_and_removes_its_socket() {
    let repo = history(3);
    let without = reference(&repo);
    use_server(&repo, 1);
    assert_eq!(text(&log_p(&repo)), without);
    let pids = repo.server_pids();
    assert_eq!(pids.len(), 1);
    wait_until("the idle server exits", || !is_running(pids[0]));
    wait_until("its files go", || repo.server_pids().is_empty());
    let left: Vec<_> = std::fs::read_dir(repo.server_dir())
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .filter(|name| !name.to_string_lossy().ends_with(".lock"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

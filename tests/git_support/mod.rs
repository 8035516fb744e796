//! A temporary git repository driven through the real `git`, with a clean
//! environment (no user or system config leaks in) and the built `irgit`
//! first on PATH. Shared by the tests that run git.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const IRGIT: &str = env!("CARGO_BIN_EXE_irgit");

pub struct Repo {
    pub _tmp: tempfile::TempDir,
    pub root: PathBuf,
    pub home: PathBuf,
    pub path_env: String,
}

pub fn bin_dir() -> PathBuf {
    Path::new(IRGIT).parent().unwrap().to_path_buf()
}

impl Repo {
    pub fn new() -> Repo {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        let root = tmp.path().join("repo");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(&root).unwrap();
        let path_env = format!(
            "{}:{}",
            bin_dir().display(),
            std::env::var("PATH").unwrap_or_else(|_| "/usr/bin:/bin".into())
        );
        let r = Repo {
            _tmp: tmp,
            root,
            home,
            path_env,
        };
        r.git(&["init", "-q", "-b", "main"]);
        r.git(&["config", "user.name", "Test"]);
        r.git(&["config", "user.email", "test@example.com"]);
        r
    }

    /// A command in the repository's clean environment.
    pub fn command(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.current_dir(&self.root)
            .env_clear()
            .env("PATH", &self.path_env)
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", self.home.join(".gitconfig"))
            .env("LANG", "C")
            .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
            .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
            .env("IRGIT_SERVER_DIR", self.server_dir());
        c
    }

    /// The directory of the resident textconv servers this repository's
    /// git commands start (one per test; `Drop` ends them).
    pub fn server_dir(&self) -> PathBuf {
        self._tmp.path().join("servers")
    }

    /// The process ids of the servers listening in `server_dir`.
    pub fn server_pids(&self) -> Vec<u32> {
        let Ok(entries) = std::fs::read_dir(self.server_dir()) else {
            return Vec::new();
        };
        entries
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == "pid"))
            .filter_map(|e| std::fs::read_to_string(e.path()).ok())
            .filter_map(|text| text.trim().parse().ok())
            .collect()
    }

    /// Ends the servers this repository's commands started and waits until
    /// they are gone.
    pub fn stop_servers(&self) {
        for pid in self.server_pids() {
            let _ = Command::new("kill")
                .arg("-KILL")
                .arg(pid.to_string())
                .output();
            let proc_dir = PathBuf::from(format!("/proc/{pid}"));
            for _ in 0..500 {
                let zombie_or_gone = std::fs::read_to_string(proc_dir.join("stat"))
                    .map(|stat| {
                        stat.rsplit(')')
                            .next()
                            .unwrap_or("")
                            .trim_start()
                            .starts_with('Z')
                    })
                    .unwrap_or(true);
                if zombie_or_gone {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
        }
    }

    /// Runs `program` in `dir` (a folder of the repository) in the clean
    /// environment.
    pub fn run_in(&self, dir: &Path, program: &str, args: &[&str]) -> Output {
        self.command(program)
            .current_dir(dir)
            .env("GIT_PAGER", "cat")
            .args(args)
            .output()
            .unwrap()
    }

    /// [`Repo::run_in`], which must succeed; its standard output.
    pub fn ok_in(&self, dir: &Path, program: &str, args: &[&str]) -> String {
        let o = self.run_in(dir, program, args);
        assert!(
            o.status.success(),
            "{program} {args:?}: {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8(o.stdout).unwrap()
    }

    pub fn run(&self, program: &str, args: &[&str]) -> Output {
        self.command(program).args(args).output().unwrap()
    }

    pub fn git(&self, args: &[&str]) -> String {
        let o = self.run("git", args);
        assert!(
            o.status.success(),
            "git {args:?} failed: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8(o.stdout).unwrap()
    }

    pub fn irgit(&self, args: &[&str]) -> Output {
        self.run(IRGIT, args)
    }

    pub fn irgit_ok(&self, args: &[&str]) -> String {
        let o = self.irgit(args);
        assert!(
            o.status.success(),
            "irgit {args:?} failed: {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8(o.stdout).unwrap()
    }

    pub fn write(&self, rel: &str, bytes: impl AsRef<[u8]>) {
        let p = self.root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }

    pub fn read(&self, rel: &str) -> Vec<u8> {
        std::fs::read(self.root.join(rel)).unwrap()
    }

    pub fn read_opt(&self, rel: &str) -> Option<Vec<u8>> {
        std::fs::read(self.root.join(rel)).ok()
    }

    pub fn commit_all(&self, msg: &str) {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "-m", msg]);
    }

    /// The canonical form `irgit canon` prints for `text`.
    pub fn canon(&self, text: &str) -> String {
        let f = self._tmp.path().join("canon-input.ll");
        std::fs::write(&f, text).unwrap();
        self.irgit_ok(&["canon", f.to_str().unwrap()])
    }

    pub fn doctor(&self) -> (bool, String) {
        let o = self.irgit(&["doctor"]);
        (
            o.status.success(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
        )
    }
}

/// `c_source` compiled by clang-22 at `opt_level`.
pub fn clang(repo: &Repo, c_source: &str, opt_level: &str) -> String {
    let c = repo._tmp.path().join("clang-input.c");
    let ll = repo._tmp.path().join("clang-output.ll");
    std::fs::write(&c, c_source).unwrap();
    let out = Command::new("clang-22")
        .args(["-S", "-emit-llvm", opt_level, "-o"])
        .arg(&ll)
        .arg(&c)
        .output()
        .expect("clang-22 is installed");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read_to_string(ll).unwrap()
}

impl Drop for Repo {
    fn drop(&mut self) {
        self.stop_servers();
    }
}

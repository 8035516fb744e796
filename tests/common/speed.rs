//! Timing a child process for the speed benchmarks: wall time, CPU time
//! (user + system) and peak RSS, under a time limit.
//!
//! ```text
//! measure(Command::new("opt").args(["-S", "in.ll", "-o", "-"]), out, limit)
//!     -> Measure { wall: 568 ms, cpu: 540 ms, rss_kb: 86_016, ok: true, timed_out: false }
//! ```
//!
//! The peak RSS comes from `/usr/bin/time`, which starts the command: the
//! `ru_maxrss` that `wait4` reports for a child of the benchmark itself
//! includes the benchmark's own peak at the time of the `exec` (its `vfork`
//! shares the benchmark's memory), so after a large module was parsed in
//! process every later child seemed at least that large.

use std::fs::File;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One child run.
#[derive(Clone, Copy, Debug)]
pub struct Measure {
    pub wall: Duration,
    /// User plus system time of the child (all its threads).
    pub cpu: Duration,
    pub rss_kb: i64,
    /// Exited with status 0.
    pub ok: bool,
    /// Killed when it exceeded its time limit.
    pub timed_out: bool,
}

fn duration_of(t: libc::timeval) -> Duration {
    Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
}

/// Runs `cmd` with stdout to `out`, measuring wall time, CPU time and peak
/// RSS. The child is reaped by `wait4` (which `Child::wait` cannot report on).
#[allow(clippy::zombie_processes)]
pub fn measure(cmd: &mut Command, out: &Path, limit: Duration) -> Measure {
    let stdout = File::create(out).expect("create output file");
    let rss_file = tempfile::NamedTempFile::new().expect("temporary file");
    let mut timed = Command::new("/usr/bin/time");
    timed.args(["-f", "%M", "-o"]).arg(rss_file.path());
    timed.arg(cmd.get_program()).args(cmd.get_args());
    if let Some(dir) = cmd.get_current_dir() {
        timed.current_dir(dir);
    }
    for (key, value) in cmd.get_envs() {
        match value {
            Some(value) => timed.env(key, value),
            None => timed.env_remove(key),
        };
    }
    // Its own process group: a time limit kills the command with it.
    timed.process_group(0);
    let start = Instant::now();
    let child = timed
        .stdout(stdout)
        .stderr(Stdio::null())
        .stdin(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {timed:?}: {e}"));
    let pid = child.id() as libc::pid_t;
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain old data; wait4 fills it in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let mut timed_out = false;
    loop {
        let reaped = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if reaped == pid {
            break;
        }
        assert!(reaped == 0, "wait4 failed for {timed:?}");
        if start.elapsed() > limit {
            timed_out = true;
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
                libc::wait4(pid, &mut status, 0, &mut usage);
            }
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let wall = start.elapsed();
    let ok = !timed_out && libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0;
    Measure {
        wall,
        cpu: duration_of(usage.ru_utime) + duration_of(usage.ru_stime),
        rss_kb: peak_kb(rss_file.path()),
        ok,
        timed_out,
    }
}

/// The peak RSS in KB that `/usr/bin/time -f %M -o FILE` wrote (its last
/// line: a killed command's file starts with a note), 0 when there is none.
fn peak_kb(file: &Path) -> i64 {
    std::fs::read_to_string(file)
        .ok()
        .and_then(|t| t.lines().last().and_then(|l| l.trim().parse().ok()))
        .unwrap_or(0)
}

/// Best (smallest) wall and CPU time and largest peak RSS of `reps` runs
/// (fewer when a run fails or times out).
pub fn best_of(reps: usize, mut run: impl FnMut() -> Measure) -> Measure {
    let mut best = run();
    for _ in 1..reps {
        if best.timed_out || !best.ok {
            break;
        }
        best = better(best, run());
    }
    best
}

/// Two runs of one command as one: the smaller wall and CPU time, the
/// larger peak RSS, failed if either failed.
pub fn better(best: Measure, next: Measure) -> Measure {
    Measure {
        wall: best.wall.min(next.wall),
        cpu: best.cpu.min(next.cpu),
        rss_kb: best.rss_kb.max(next.rss_kb),
        ok: best.ok && next.ok,
        timed_out: best.timed_out || next.timed_out,
    }
}

/// `time` as `512.3 ms` or `2.41 s`; a failed or killed run says so.
pub fn fmt_time(m: &Measure, time: Duration) -> String {
    if m.timed_out {
        format!("timed out after {:.0} s", m.wall.as_secs_f64())
    } else if !m.ok {
        "failed".to_string()
    } else if time.as_secs_f64() >= 1.0 {
        format!("{:.2} s", time.as_secs_f64())
    } else {
        format!("{:.1} ms", time.as_secs_f64() * 1e3)
    }
}

/// `a / b` as `1.23×`.
pub fn fmt_ratio(a: f64, b: f64) -> String {
    format!("{:.2}×", a / b)
}

/// Peak RSS in MB.
pub fn fmt_mem(m: &Measure) -> String {
    format!("{:.0} MB", m.rss_kb as f64 / 1024.0)
}

/// `/proc/loadavg`'s first three fields.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

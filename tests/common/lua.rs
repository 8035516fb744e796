//! All of Lua 5.4 linked into one module at -O2: the large real module of
//! the benchmarks. The sources come from the `lua-src` crate (a
//! dev-dependency), found through `cargo metadata`; no network at run time.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{run_ok, CLANG};

const LLVM_LINK: &str = "/usr/lib/llvm-22/bin/llvm-link";

/// The Lua 5.4 source directory inside the `lua-src` crate (a dev-dependency).
pub fn lua_sources() -> PathBuf {
    let o = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--manifest-path"])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
        .output()
        .expect("cargo metadata");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let manifest = v["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "lua-src")
        .expect("lua-src is a dev-dependency")["manifest_path"]
        .as_str()
        .unwrap()
        .to_string();
    let root = Path::new(&manifest).parent().unwrap().to_path_buf();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("lua-5.4"))
        })
        .collect();
    dirs.sort();
    dirs.pop().expect("lua-5.4.x in lua-src")
}

/// All of Lua at -O2 in one module (cached).
pub fn lua_module(dir: &Path) -> PathBuf {
    let out = dir.join("lua-all.O2.ll");
    if out.exists() {
        return out;
    }
    let src = lua_sources();
    let mut parts = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .filter(|p| p.file_stem().is_some_and(|s| s != "luac"))
        .collect();
    files.sort();
    for f in &files {
        let ll = dir.join(format!(
            "lua-{}.ll",
            f.file_stem().unwrap().to_string_lossy()
        ));
        run_ok(
            Command::new(CLANG)
                .args(["-O2", "-S", "-emit-llvm", "-w", "-DLUA_USE_LINUX", "-o"])
                .arg(&ll)
                .arg(f),
            &format!("clang {}", f.display()),
        );
        parts.push(ll);
    }
    let tmp = out.with_extension("tmp.ll");
    run_ok(
        Command::new(LLVM_LINK)
            .arg("-S")
            .args(&parts)
            .arg("-o")
            .arg(&tmp),
        "llvm-link",
    );
    std::fs::rename(&tmp, &out).unwrap();
    out
}

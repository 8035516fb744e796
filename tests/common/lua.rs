//! All of Lua 5.4 linked into one module at -O2: the large real module of
//! the benchmarks. The sources come from the `lua-src` crate (a
//! dev-dependency), found through `cargo metadata`; no network at run time.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{run_ok, CLANG};

const LLVM_LINK: &str = "/usr/lib/llvm-22/bin/llvm-link";
const OPT: &str = "/usr/lib/llvm-22/bin/opt";

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
    let parts = compile_lua(dir, &["-O2"], "");
    link(&parts, &["-S"], &out);
    out
}

/// Each C file of Lua (not `luac.c`) compiled with `flags` to
/// `dir/lua-{tag}{stem}.ll`.
fn compile_lua(dir: &Path, flags: &[&str], tag: &str) -> Vec<PathBuf> {
    let src = lua_sources();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .filter(|p| p.file_stem().is_some_and(|s| s != "luac"))
        .collect();
    files.sort();
    let mut parts = Vec::new();
    for f in &files {
        let stem = f.file_stem().unwrap().to_string_lossy();
        let ll = dir.join(format!("lua-{tag}{stem}.ll"));
        run_ok(
            Command::new(CLANG)
                .args(flags)
                .args(["-S", "-emit-llvm", "-w", "-DLUA_USE_LINUX", "-o"])
                .arg(&ll)
                .arg(f),
            &format!("clang {}", f.display()),
        );
        parts.push(ll);
    }
    parts
}

/// `llvm-link` of `parts` (with `flags`) into `out`, through a temporary file.
fn link(parts: &[PathBuf], flags: &[&str], out: &Path) {
    let tmp = out.with_extension(format!("tmp{}", std::process::id()));
    run_ok(
        Command::new(LLVM_LINK)
            .args(flags)
            .args(parts)
            .arg("-o")
            .arg(&tmp),
        "llvm-link",
    );
    std::fs::rename(&tmp, out).unwrap();
}

/// A very large module with debug info (cached): all of Lua at -O2 -g,
/// linked `copies` times, each copy's globals renamed so that the copies
/// link side by side (`@luaV_execute` becomes `@luaV_execute_c7` in copy 7;
/// intrinsics keep their names). 49 copies are about 7 M lines.
pub fn lua_debug_copies(dir: &Path, copies: usize) -> PathBuf {
    let out = dir.join(format!("lua-all.O2g.x{copies}.ll"));
    if out.exists() {
        return out;
    }
    let one = dir.join("lua-all.O2g.ll");
    if !one.exists() {
        link(&compile_lua(dir, &["-O2", "-g"], "O2g-"), &["-S"], &one);
    }
    let text = std::fs::read_to_string(&one).unwrap();
    let parts: Vec<PathBuf> = (1..=copies)
        .map(|copy| {
            let part = dir.join(format!("lua-O2g-copy{copy}.ll"));
            std::fs::write(&part, with_globals_renamed(&text, copy)).unwrap();
            part
        })
        .collect();
    // Printed by `opt -S` from bitcode: `llvm-link -S` did not finish in an hour here.
    let bitcode = out.with_extension("bc");
    link(&parts, &[], &bitcode);
    let tmp = out.with_extension(format!("tmp{}", std::process::id()));
    run_ok(
        Command::new(OPT)
            .arg("-S")
            .arg(&bitcode)
            .arg("-o")
            .arg(&tmp),
        "opt -S",
    );
    std::fs::rename(&tmp, &out).unwrap();
    for p in parts.iter().chain([&bitcode]) {
        let _ = std::fs::remove_file(p);
    }
    out
}

/// `text` with every global name `@name` (not `@llvm.*`) written
/// `@name_c{copy}`.
fn with_globals_renamed(text: &str, copy: usize) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let mut rest = text;
    while let Some(at) = rest.find('@') {
        out.push_str(&rest[..=at]);
        rest = &rest[at + 1..];
        let starts_name = rest.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
            .unwrap_or(rest.len());
        let name = &rest[..len];
        out.push_str(name);
        if starts_name && !name.starts_with("llvm.") {
            out.push_str(&format!("_c{copy}"));
        }
        rest = &rest[len..];
    }
    out.push_str(rest);
    out
}

//! Builds the small C++ shim (`src/ir/shim.cpp`) that exposes the few LLVM
//! operations the C API lacks (moving functions and globals, swapping compare
//! operands, rewriting PHI incoming pairs). It uses the same LLVM as llvm-sys.

fn main() {
    let prefix =
        std::env::var("LLVM_SYS_221_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".to_string());
    println!("cargo:rerun-if-changed=src/ir/shim.cpp");
    println!("cargo:rerun-if-env-changed=LLVM_SYS_221_PREFIX");
    cc::Build::new()
        .cpp(true)
        .file("src/ir/shim.cpp")
        .include(format!("{prefix}/include"))
        .flag("-std=c++17")
        .flag("-fno-exceptions")
        .flag("-fno-rtti")
        .define("_GNU_SOURCE", None)
        .define("__STDC_CONSTANT_MACROS", None)
        .define("__STDC_FORMAT_MACROS", None)
        .define("__STDC_LIMIT_MACROS", None)
        .warnings(false)
        .compile("irgit_llvm_shim");
}

//! The `irgit` command line: parses arguments into a typed command, runs it,
//! and maps the outcome to an exit status. All work happens in the library.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use irgit::canon::{
    canonicalize_bytes_with, canonicalize_to_bitcode, encode_like_input, is_bitcode, Cleanup,
    InputCheck,
};
use irgit::config::Config;

/// mimalloc for Rust's allocations; its `override` feature also serves
/// LLVM's (see Cargo.toml).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "irgit",
    version,
    about = "Make git understand LLVM IR",
    long_about = "Make git understand LLVM IR (.ll text and .bc bitcode).\n\n\
        irgit prints a canonical form of a module (instructions ordered by data flow, values \
        and blocks named by content) so that two semantically identical modules print \
        identically and a real change shows as a few lines. It plugs into git as a textconv \
        diff driver, a three-way merge driver and a pre-commit hook.",
    after_help = "Examples:\n  irgit canon foo.ll                # canonical form on stdout\n  \
        irgit canon -o out.ll foo.bc      # bitcode in, canonical text out\n  \
        irgit canon --in-place a.ll b.ll  # rewrite files\n  \
        irgit diff old.ll new.ll          # which functions changed, were added, removed, renamed\n  \
        irgit install --hook              # make git use irgit in this repository (then: irgit doctor)"
)]
struct Cli {
    /// Settings file (default: .irgit.yaml in the current directory or a parent, up to the repository root)
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the canonical form of LLVM IR (text or bitcode)
    #[command(after_help = "Examples:\n  \
        irgit canon foo.ll                    # canonical form on stdout\n  \
        irgit canon --view test.ll            # what `git diff` shows (a lit test keeps its order and names)\n  \
        irgit canon -o out.ll foo.bc          # bitcode in, canonical text out\n  \
        irgit canon --in-place a.ll b.bc      # rewrite files (bitcode stays bitcode)\n  \
        clang -S -emit-llvm -o - x.c | irgit canon --keep-names   # from a pipe, names as written\n\n\
        Stages can be switched off in .irgit.yaml (canon: section) or with the --keep-* flags.\n\
        Exit status: 0 on success, 1 if an input cannot be read, parsed or verified.")]
    Canon(CanonArgs),
    /// The entry point git's diff driver calls: canonical form of FILE, or FILE unchanged if it is not valid IR
    #[command(after_help = "Examples:\n  \
        irgit textconv foo.ll                  # what git's diff driver shows for foo.ll\n  \
        git -c diff.llvm-ir.textconv=irgit-textconv diff   # run it by hand (`irgit install` sets it up)\n\n\
        Never exits non-zero: on input it cannot canonicalize it prints the bytes \
        unchanged and one line on stderr saying why, so `git diff` always works.")]
    Textconv {
        /// The file git hands over (a temporary copy of the blob)
        file: PathBuf,
        /// Ignored (older installs wrote it into the command for git's textconv cache;
        /// irgit now keeps its own)
        #[arg(long, hide = true, value_name = "N")]
        canon_version: Option<String>,
    },
    /// Three-way merge of LLVM IR: the git merge driver (`irgit merge %O %A %B %L %P`)
    Merge(irgit::merge::cli::MergeArgs),
    /// Configure git (diff and merge drivers, attributes, optionally the pre-commit hook)
    Install(irgit::git::install::InstallArgs),
    /// Undo exactly what `irgit install` did
    Uninstall(irgit::git::install::UninstallArgs),
    /// Check that git will really call irgit, and say what to fix
    Doctor(irgit::git::doctor::DoctorArgs),
    /// Hooks git runs (`irgit hook pre-commit`)
    Hook(irgit::git::hook::HookArgs),
    /// git's clean filter for IR (long-running protocol; `irgit install --hook` sets it up)
    #[command(after_help = "Examples:\n  \
        irgit install --hook        # sets filter.llvm-ir.process and `*.ll filter=llvm-ir`\n  \
        git add --renormalize .     # store every tracked IR file cleaned, after installing it\n\n\
        git starts it and speaks git's long-running filter protocol on stdin/stdout; \
        it is not meant to be run by hand. A file is cleaned to what the pre-commit hook stores.")]
    FilterProcess,
    /// Clear what only git's size check sees as modified (after a checkout, merge or stash pop)
    Refresh(irgit::git::refresh::RefreshArgs),
    /// Write a generated test's CHECK lines anew for its IR (after a merge left them in conflict)
    #[command(after_help = "Examples:\n  \
        irgit regenerate test/Transforms/InstCombine/and.ll\n  \
        git config irgit.opt $HOME/llvm/build/bin/opt   # the opt to trust, in this repository\n  \
        git config irgit.updateTestChecks $HOME/llvm/utils/update_test_checks.py\n\n\
        For tests whose NOTE line says update_test_checks.py wrote their CHECK lines. Conflicts \
        that differ only in CHECK lines are resolved, the CHECK lines are written anew from what \
        opt prints (by the script `irgit.updateTestChecks` names in your git config, else by \
        irgit's own writer of its format), and the file is written only when FileCheck passes \
        on every RUN line. opt is `irgit.opt`, else the LLVM irgit was built with, else `opt` on \
        PATH; nothing the file or the repository names is run.")]
    Regenerate {
        /// The tests to regenerate, in place
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    Passes(irgit::passes::cli::PassesArgs),
    /// What changed between two modules, function by function (also git's external diff)
    Diff(irgit::summary::cli::DiffArgs),
    /// The resident process `irgit-textconv` asks (it starts it; not run by hand)
    #[command(hide = true)]
    TextconvServer(irgit::git::resident::server::ServerArgs),
}

#[derive(clap::Args)]
struct CanonArgs {
    /// Input files; `-` or nothing reads standard input
    files: Vec<PathBuf>,
    /// Write the output here instead of standard output (one input only); a name ending in .bc gets bitcode
    #[arg(short, long, value_name = "OUT", conflicts_with = "in_place")]
    output: Option<PathBuf>,
    /// Rewrite each input file with its canonical form (bitcode files stay bitcode)
    #[arg(long)]
    in_place: bool,
    /// Keep the instruction order
    #[arg(long)]
    keep_order: bool,
    /// Keep value and argument names
    #[arg(long)]
    keep_names: bool,
    /// Keep block order
    #[arg(long)]
    keep_block_order: bool,
    /// Keep block names
    #[arg(long)]
    keep_block_names: bool,
    /// Keep the order of functions and globals
    #[arg(long)]
    keep_global_order: bool,
    /// Leave the user's comments out (by default each one is printed at the
    /// canonical place of the line it annotates)
    #[arg(long)]
    strip_comments: bool,
    /// Print the diff view `irgit textconv` shows: the canonical form, but a
    /// lit test (a file with a `RUN:` line) keeps its order and the names its
    /// author wrote
    #[arg(long, conflicts_with_all = ["in_place", "output"])]
    view: bool,
}

fn load_config(explicit: Option<&Path>) -> Result<Config, String> {
    match explicit {
        Some(p) => Config::load(p).map_err(|e| e.to_string()),
        None => {
            let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
            Config::discover(&cwd).map_err(|e| e.to_string())
        }
    }
}

fn read_input(path: &Path) -> Result<Vec<u8>, String> {
    if path == Path::new("-") {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| format!("<stdin>: {e}"))?;
        Ok(buf)
    } else {
        std::fs::read(path).map_err(|e| format!("{}: {}", path.display(), irgit::io_problem(&e)))
    }
}

fn display_name(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

fn run_canon(cli_config: Option<&Path>, args: CanonArgs) -> Result<(), String> {
    let mut config = load_config(cli_config)?;
    let o = &mut config.canon;
    o.reorder_instructions &= !args.keep_order;
    o.rename_values &= !args.keep_names;
    o.reorder_blocks &= !args.keep_block_order;
    o.rename_blocks &= !args.keep_block_names;
    o.reorder_globals &= !args.keep_global_order;
    o.keep_comments &= !args.strip_comments;
    let files = if args.files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        args.files
    };
    if args.output.is_some() && files.len() > 1 {
        return Err("-o/--output takes one input file; use --in-place for several".into());
    }
    if args.in_place && files.iter().any(|f| f == Path::new("-")) {
        return Err("--in-place needs file names, not standard input".into());
    }
    let mut stdout = std::io::stdout().lock();
    // One input: the process ends right after, so LLVM's memory need not be
    // freed piece by piece. Several: free each module before the next.
    let cleanup = if files.len() == 1 {
        Cleanup::LeaveToProcessExit
    } else {
        Cleanup::Free
    };
    for file in &files {
        let bytes = read_input(file)?;
        let name = display_name(file);
        // Bitcode stays bitcode when a file is rewritten in place, and an
        // output file named *.bc gets bitcode; everything else is text.
        let wants_bitcode = (args.in_place && is_bitcode(&bytes))
            || (!args.in_place
                && args
                    .output
                    .as_ref()
                    .is_some_and(|o| o.extension().is_some_and(|e| e == "bc")));
        if wants_bitcode {
            let bc =
                canonicalize_to_bitcode(&bytes, &name, &config.canon).map_err(|e| e.to_string())?;
            write_atomically(args.output.as_deref().unwrap_or(file), &bc)?;
            continue;
        }
        let text = if args.view {
            irgit::canon::view::view_bytes(
                &bytes,
                &name,
                &config.canon,
                (cleanup, InputCheck::First),
            )
        } else {
            canonicalize_bytes_with(&bytes, &name, &config.canon, (cleanup, InputCheck::First))
        }
        .map_err(|e| e.to_string())?;
        // A comment in another encoding than UTF-8 gets its bytes back.
        let text = encode_like_input(text, &bytes);
        if args.in_place {
            write_atomically(file, &text)?;
        } else if let Some(out) = &args.output {
            write_atomically(out, &text)?;
        } else {
            stdout
                .write_all(&text)
                .map_err(|e| format!("<stdout>: {e}"))?;
        }
    }
    Ok(())
}

/// Writes through a temporary file in the same directory, then renames, so a
/// failure never leaves a half-written file.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp =
        tempfile::NamedTempFile::new_in(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    tmp.write_all(bytes)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    tmp.persist(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let config = cli.config.as_deref();
    let result = match cli.command {
        Command::Merge(args) => return irgit::merge::cli::run(args, config),
        Command::Install(args) => return irgit::git::install::run_install(args, config),
        Command::Uninstall(args) => return irgit::git::install::run_uninstall(args, config),
        Command::Doctor(args) => return irgit::git::doctor::run(args, config),
        Command::Hook(args) => return irgit::git::hook::run(args, config),
        Command::FilterProcess => return irgit::git::filter::run(config),
        Command::Refresh(args) => return irgit::git::refresh::run(args),
        Command::Regenerate { files } => return irgit::git::regenerate::run(&files),
        Command::Passes(args) => return irgit::passes::cli::run(args),
        Command::Diff(args) => return irgit::summary::cli::run(args),
        Command::TextconvServer(args) => return irgit::git::resident::server::run(args),
        Command::Canon(args) => run_canon(config, args),
        Command::Textconv { file, .. } => {
            irgit::git::textconv::run(&file, config, irgit::git::textconv::Worker::OwnProcess);
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("irgit canon: {message}");
            ExitCode::from(1)
        }
    }
}

//! The canonical form: two semantically identical modules print byte for
//! byte the same, and a real change shows as a few changed lines.
//!
//! ```text
//! before                                   after
//! define i32 @f(i32 %n, i32 %m) {          define i32 @f(i32 %arg0, i32 %arg1) {
//! entry:                                   entry:
//!   %0 = mul i32 %m, 3                       %mul.03cc = mul i32 %arg1, 3
//!   %1 = add i32 %n, 1                       %add.0405 = add i32 %arg0, 1
//!   %2 = icmp slt i32 %1, %0                 %cmp.10d7 = icmp sgt i32 %mul.03cc, %add.0405
//!   %3 = select i1 %2, i32 %0, i32 %1        %sel.de46 = select i1 %cmp.10d7, i32 %mul.03cc, i32 %add.0405
//!   ret i32 %3                               ret i32 %sel.de46
//! ```
//!
//! Stages, in the order they run (each can be switched off in
//! [`CanonOptions`]):
//! 1. [`globals`]: private constants named by content, then functions,
//!    declarations, globals and aliases ordered by name;
//! 2. [`blocks`]: blocks in reverse post-order from the entry, named from the
//!    CFG and their fixed instructions (`entry`, `bb.<hash>`);
//! 3. [`signature`]: a stable structural hash for every instruction;
//! 4. [`operands`]: commutative operands ordered, compares mirrored;
//! 5. [`phis`]: PHI incoming pairs sorted by block order;
//! 6. [`order`]: instructions placed by the def-use walk from the outputs;
//! 7. [`naming`]: every value, argument and block gets its canonical name
//!    (in the view of compiler output, by [`roles`]).

pub(crate) mod as_written;
pub(crate) mod attribute_kinds;
mod beside;
pub(crate) mod blocks;
mod carried_header;
mod debug_atoms;
mod debug_chain;
pub mod debug_lines;
pub(crate) mod debug_locations;
pub mod debug_readback;
pub(crate) mod globals;
pub mod instructions;
pub(crate) mod metadata;
pub(crate) mod metadata_keys;
pub(crate) mod naming;
pub(crate) mod numbering;
pub(crate) mod old_syntax;
pub(crate) mod operands;
pub mod order;
pub(crate) mod own_names;
pub(crate) mod phis;
pub(crate) mod roles;
pub(crate) mod signature;
pub(crate) mod source_map;
pub(crate) mod variables;
pub mod view;
pub(crate) mod written;

use crate::config::CanonOptions;
use crate::ir::{Format, IrError, IrModule, Session};

/// Version of the canonical form. Bump it whenever the output of
/// [`canonicalize`] can change for some input: git's textconv cache is keyed
/// on the command string, which carries this number.
pub(crate) const CANON_VERSION: u32 = 27;

/// Why a file could not be canonicalized.
#[derive(Debug, thiserror::Error)]
pub enum CanonError {
    #[error("{name}: {source}")]
    Ir { name: String, source: IrError },
    #[error("{name}: canonicalization produced invalid IR (please report this bug): {message}")]
    Internal { name: String, message: String },
    #[error("{name}: canonicalization crashed: {how} (please report this bug)")]
    Crashed { name: String, how: String },
}

/// With `IRGIT_TIMINGS=1` in the environment, prints how long each phase
/// took on stderr (for profiling; never on by default).
#[derive(Debug)]
pub(crate) struct PhaseTimer {
    on: bool,
    last: std::time::Instant,
    /// The process's CPU time at the last lap: on a loaded machine the
    /// wall time of a phase says little, its CPU time still does.
    last_cpu: f64,
}

impl Default for PhaseTimer {
    fn default() -> Self {
        Self::new()
    }
}

/// When the first [`PhaseTimer`] started: laps also print the time since.
static PROCESS_START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();

impl PhaseTimer {
    pub(crate) fn new() -> Self {
        PROCESS_START.get_or_init(std::time::Instant::now);
        let on = std::env::var_os("IRGIT_TIMINGS").is_some_and(|v| v == "1");
        PhaseTimer {
            on,
            last: std::time::Instant::now(),
            last_cpu: if on { process_cpu_seconds() } else { 0.0 },
        }
    }

    pub(crate) fn lap(&mut self, phase: &str) {
        if self.on {
            let now = std::time::Instant::now();
            let cpu = process_cpu_seconds();
            let start = *PROCESS_START.get_or_init(|| now);
            eprintln!(
                "irgit: [{:>7.3} s] {phase}: {:.3} s (cpu {:.3} s){}",
                (now - start).as_secs_f64(),
                (now - self.last).as_secs_f64(),
                cpu - self.last_cpu,
                resident_memory()
            );
            self.last = now;
            self.last_cpu = cpu;
        }
    }
}

/// The CPU time (user and system) the process has used so far, in seconds.
fn process_cpu_seconds() -> f64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut now) };
    now.tv_sec as f64 + now.tv_nsec as f64 * 1e-9
}

/// The process's resident memory now and at its peak, as a [`PhaseTimer`]
/// lap prints it (` (rss 120 MB, peak 180 MB)`; empty where `/proc` has
/// no such figures).
fn resident_memory() -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let megabytes = |field: &str| -> Option<u64> {
        let line = status.lines().find(|l| l.starts_with(field))?;
        let kilobytes: u64 = line[field.len()..]
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()?;
        Some(kilobytes / 1024)
    };
    match (megabytes("VmRSS:"), megabytes("VmHWM:")) {
        (Some(now), Some(peak)) => format!(" (rss {now} MB, peak {peak} MB)"),
        _ => String::new(),
    }
}

/// Canonicalizes a whole module in place.
pub fn canonicalize(module: &IrModule<'_>, opts: &CanonOptions) {
    let global_keys = if opts.rename_private_constants {
        globals::name_private_constants(module, opts.view.keeps_own_names())
    } else {
        Default::default()
    };
    if opts.reorder_globals {
        globals::order_module(module);
    }
    for func in module.functions() {
        if func.is_declaration() {
            continue;
        }
        canonicalize_function(func, opts, &global_keys);
    }
    if opts.rename_private_constants {
        globals::settle_identical_constants(module, &global_keys);
        if opts.reorder_globals {
            globals::order_module(module);
        }
    }
}

fn canonicalize_function(
    func: crate::ir::Func,
    opts: &CanonOptions,
    global_keys: &signature::GlobalKeys,
) {
    let mut timer = PhaseTimer::new();
    let kept = kept_names(opts);
    let layout = blocks::layout(func, kept);
    if opts.reorder_blocks {
        blocks::apply_order(&layout);
    }
    if opts.rename_blocks {
        blocks::apply_names(&layout, kept);
    }
    // LLVM prints `; preds = ...` in use-list order, which follows the
    // input's history; put it in block order.
    func.sort_block_uses();
    timer.lap("  blocks");
    let mut sigs = if opts.view.names_as_written() {
        written::signatures(func, &layout, global_keys)
    } else {
        signature::compute(func, &layout, global_keys, opts.view.names_for_diffs())
    };
    timer.lap("  signatures");
    // The operands as read, kept as they stand from here on.
    let mut ordered_operands = std::mem::take(&mut sigs.operands);
    if opts.order_operands {
        operands::order(&sigs, &mut ordered_operands);
    }
    if opts.sort_phis {
        phis::sort_incoming(&layout, &sigs, &mut ordered_operands);
    }
    timer.lap("  operands+phis");
    let positions = if opts.reorder_instructions {
        let by = order::Placing {
            sigs: &sigs,
            operands: &ordered_operands,
        };
        order::reorder(&layout, &by)
    } else {
        order::current_positions(func, &sigs)
    };
    timer.lap("  order");
    if opts.order_operands {
        operands::order_ties_by_position(&sigs, &positions, &mut ordered_operands);
    }
    if opts.rename_values {
        // Each input name read once, for every stage that asks.
        let input_names = match kept {
            own_names::Kept::Nothing => Vec::new(),
            _ => own_names::input_names(&sigs.insts),
        };
        let by_role;
        let hashes = match kept {
            own_names::Kept::Own | own_names::Kept::Written if opts.view.names_by_role() => {
                by_role = roles::hashes(&roles::RoleContext {
                    func,
                    sigs: &sigs,
                    layout: &layout,
                    positions: &positions,
                    globals: global_keys,
                    input_names: &input_names,
                    operands: &ordered_operands,
                });
                &by_role
            }
            _ => &sigs.full,
        };
        timer.lap("  roles");
        naming::apply(func, &sigs, hashes, &positions, (kept, &input_names));
    }
    timer.lap("  naming");
}

/// Which of a function's input names `opts` keeps.
fn kept_names(opts: &CanonOptions) -> own_names::Kept {
    if opts.view.names_as_written() {
        own_names::Kept::Written
    } else if opts.view.keeps_own_names() {
        own_names::Kept::Own
    } else {
        own_names::Kept::Nothing
    }
}

/// Parses `bytes` (text or bitcode), canonicalizes and prints the module.
/// `name` names the input in error messages.
pub fn canonicalize_bytes(
    bytes: &[u8],
    name: &str,
    opts: &CanonOptions,
) -> Result<String, CanonError> {
    canonicalize_bytes_with(bytes, name, opts, (Cleanup::Free, InputCheck::First))
}

/// What to do with LLVM's memory once the text is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cleanup {
    /// Free the module and its context (any long-running caller).
    Free,
    /// Leave them to the operating system: for a process that exits right
    /// after (`irgit canon FILE`, the textconv child), freeing a large module
    /// piece by piece is pure cost.
    LeaveToProcessExit,
}

/// Canonicalizes `bytes` and returns the result as bitcode, for callers
/// that must keep a bitcode file bitcode (`irgit canon --in-place x.bc`).
pub fn canonicalize_to_bitcode(
    bytes: &[u8],
    name: &str,
    opts: &CanonOptions,
) -> Result<Vec<u8>, CanonError> {
    let session = Session::new();
    let module = parse_verified(&session, bytes, name)?;
    canonicalize_verified(&module, name, opts)?;
    Ok(module.to_bitcode())
}

/// When LLVM's verdict on an input is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputCheck {
    /// Before any stage reads the module: a stage may crash on IR that LLVM
    /// rejects (a `memcpy` whose `immarg` operand is not a constant does,
    /// in LLVM's own `mayHaveSideEffects`), and the process must live to
    /// say why.
    First,
    /// Beside the canonicalization, in a forked copy (see [`beside`]). Only
    /// for a process whose crash is contained and followed by a run that
    /// checks first: the textconv server's child, whose client then runs
    /// `irgit canon`. An input LLVM rejects still gets LLVM's complaint,
    /// whatever the canonicalization made of it.
    Beside,
}

/// [`canonicalize_bytes`] with a choice of [`Cleanup`] and [`InputCheck`].
pub fn canonicalize_bytes_with(
    bytes: &[u8],
    name: &str,
    opts: &CanonOptions,
    (cleanup, input_check): (Cleanup, InputCheck),
) -> Result<String, CanonError> {
    let mut timer = PhaseTimer::new();
    let session = Session::new();
    let module = parse(&session, bytes, name)?;
    timer.lap("parse input");
    let text = match input_check {
        InputCheck::Beside => beside::text_while_verifying_input(&module, bytes, name, opts)?,
        InputCheck::First => {
            verify_input(&module, name)?;
            timer.lap("verify input");
            canonical_text(&module, bytes, name, opts)?
        }
    };
    timer.lap("canonicalize, verify output, print");
    if cleanup == Cleanup::LeaveToProcessExit {
        std::mem::forget(module);
        std::mem::forget(session);
    }
    Ok(text)
}

/// [`canonicalize_bytes_with`], the input checked first, with where each
/// canonical name came from (what the view of IR a person wrote renames
/// its numbered values by: [`as_written`]).
pub(crate) fn canonicalize_bytes_with_names(
    bytes: &[u8],
    name: &str,
    opts: &CanonOptions,
    cleanup: Cleanup,
) -> Result<(String, Option<source_map::SourceNames>), CanonError> {
    let session = Session::new();
    let module = parse_verified(&session, bytes, name)?;
    let extras = Extras {
        source_names: true,
        verify_after: true,
    };
    let printed = canonical_text_for(&module, bytes, name, opts, extras)?;
    if cleanup == Cleanup::LeaveToProcessExit {
        std::mem::forget(module);
        std::mem::forget(session);
    }
    Ok(printed)
}

/// Parses `bytes` and runs LLVM's verifier on the result.
pub(crate) fn parse_verified<'s>(
    session: &'s Session,
    bytes: &[u8],
    name: &str,
) -> Result<IrModule<'s>, CanonError> {
    let mut timer = PhaseTimer::new();
    let module = parse(session, bytes, name)?;
    timer.lap("parse input");
    verify_input(&module, name)?;
    timer.lap("verify input");
    Ok(module)
}

/// Parses `bytes` (text or bitcode), without verifying the result.
fn parse<'s>(session: &'s Session, bytes: &[u8], name: &str) -> Result<IrModule<'s>, CanonError> {
    session.parse(bytes, name).map_err(|source| CanonError::Ir {
        name: name.to_string(),
        source,
    })
}

/// LLVM's verifier on a canonicalized module: a complaint is irgit's bug.
fn verify_output(module: &IrModule<'_>, name: &str) -> Result<(), CanonError> {
    module.verify().map_err(|e| CanonError::Internal {
        name: name.to_string(),
        message: e.to_string(),
    })
}

/// LLVM's verifier on an input module, its complaint naming the input.
fn verify_input(module: &IrModule<'_>, name: &str) -> Result<(), CanonError> {
    module.verify_as_parsed().map_err(|source| CanonError::Ir {
        name: name.to_string(),
        source,
    })
}

/// Canonicalizes an already parsed and verified module and prints it: the
/// one definition of the canonical text, shared by `irgit canon`, the hook
/// and the merge. `input` is what `module` was parsed from: the user's
/// comments in it are carried to their anchors' places (unless
/// `opts.keep_comments` is off). The result is verified before it is
/// returned, so nothing LLVM would reject is ever handed out (the hook and
/// the merge store it).
pub(crate) fn canonical_text(
    module: &IrModule<'_>,
    input: &[u8],
    name: &str,
    opts: &CanonOptions,
) -> Result<String, CanonError> {
    let extras = Extras {
        source_names: false,
        verify_after: true,
    };
    canonical_text_for(module, input, name, opts, extras).map(|(text, _)| text)
}

/// What a caller of [`canonical_text_for`] wants besides the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Extras {
    /// Also return where each canonical name came from (the merge writes its
    /// result in the input's names through it).
    pub source_names: bool,
    /// Verify the module again after canonicalization. Only a caller that
    /// never hands the canonical text out, and checks whatever it does hand
    /// out, may turn this off (the merge compares canonical forms and
    /// verifies its result).
    pub verify_after: bool,
}

/// [`canonical_text`] with [`Extras`]: the source names when asked for.
pub(crate) fn canonical_text_for(
    module: &IrModule<'_>,
    input: &[u8],
    name: &str,
    opts: &CanonOptions,
    extras: Extras,
) -> Result<(String, Option<source_map::SourceNames>), CanonError> {
    let carried = comments_of(module, input, opts);
    let recorder = extras
        .source_names
        .then(|| source_map::Recorder::before(module));
    let mut timer = PhaseTimer::new();
    canonicalize(module, opts);
    timer.lap("canonicalize");
    let names = recorder.map(source_map::Recorder::after);
    let mut id = module.source_filename();
    if !module.declares_source_filename() {
        id.clear();
        module.set_source_filename("");
    }
    module.set_identifier(&id);
    let check = extras
        .verify_after
        .then(|| beside::OutputCheck::start(module, name, input.len()));
    // The canonical text of a textual input is about as long as the input.
    let printed = module.print_with_capacity(input.len() + input.len() / 4);
    timer.lap("print");
    // The list that kept a test's nodes is no user of theirs: a tuple that
    // one node alone names is numbered by that node.
    let printed = match opts.view.names_as_written() {
        true => view::without_kept_list(printed),
        false => printed,
    };
    // Without a `line:` field there is no debug line to inline, make
    // relative or chain: those passes would copy the text as it is.
    let debug_lines_in =
        |text: &str| opts.view.relative_debug_lines() && debug_lines::has_lines(text);
    let printed = if debug_lines_in(&printed) {
        debug_lines::relative(&debug_locations::inline(&printed))
    } else {
        printed
    };
    let keys = numbering::metadata_keys(&printed, |rhs| {
        if opts.view.relative_debug_lines() {
            let text = debug_lines::without_positions(rhs);
            view::without_source_directory(&view::naming_fields_only(&text)).into_owned()
        } else {
            rhs.to_string()
        }
    });
    let attributes = match opts.view.names_for_diffs() {
        true => numbering::AttributeNumbers::ByKinds,
        false => numbering::AttributeNumbers::ByContent,
    };
    let printed = numbering::renumber(printed, &keys, attributes);
    let printed = match debug_lines_in(&printed) {
        true => debug_chain::chained(&printed),
        false => printed,
    };
    let printed = match opts.view.relative_debug_lines() {
        true => view::with_source_checksums(printed, opts),
        false => printed,
    };
    let text = match carried {
        Some(c) => c.render(&printed, module),
        None => printed,
    };
    timer.lap("passes over the printed text");
    if let Some(check) = check {
        check.finish(name)?;
    }
    Ok((text, names))
}

/// The user's comments of a textual input, bound to `module`'s objects
/// (before any stage changes them); `None` when there are none to carry.
fn comments_of(
    module: &IrModule<'_>,
    input: &[u8],
    opts: &CanonOptions,
) -> Option<crate::comments::carry::Carried> {
    if !opts.keep_comments || is_bitcode(input) {
        return None;
    }
    let text = decode_input(input);
    if !crate::comments::has_user_comments(&text) {
        return None;
    }
    Some(crate::comments::carry::Carried::collect(&text, module))
}

fn canonicalize_verified(
    module: &IrModule<'_>,
    name: &str,
    opts: &CanonOptions,
) -> Result<(), CanonError> {
    let mut timer = PhaseTimer::new();
    canonicalize(module, opts);
    timer.lap("canonicalize");
    let verified = verify_output(module, name);
    timer.lap("verify output");
    verified
}

/// The text of an input as the comment stages read it: UTF-8 when it is
/// valid UTF-8, otherwise Latin-1 (one character per byte), so that a comment
/// in another encoding keeps every byte (see [`encode_like_input`]).
pub(crate) fn decode_input(input: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(input) {
        Ok(t) => std::borrow::Cow::Borrowed(t),
        Err(_) => std::borrow::Cow::Owned(input.iter().map(|&b| b as char).collect()),
    }
}

/// The bytes to write for a canonical `text` of `input`: the text itself,
/// or, when the input was not UTF-8, the text mapped back one byte per
/// character (LLVM prints ASCII; the user's comments came from Latin-1
/// decoding), so the user's bytes come back unchanged.
pub fn encode_like_input(text: String, input: &[u8]) -> Vec<u8> {
    if std::str::from_utf8(input).is_ok() {
        return text.into_bytes();
    }
    let mut out = Vec::with_capacity(text.len());
    for c in text.chars() {
        match u8::try_from(u32::from(c)) {
            Ok(b) => out.push(b),
            Err(_) => out.extend_from_slice(c.to_string().as_bytes()),
        }
    }
    out
}

/// Whether `bytes` look like bitcode (raw or wrapped).
pub fn is_bitcode(bytes: &[u8]) -> bool {
    crate::ir::detect_format(bytes) != Format::Text
}

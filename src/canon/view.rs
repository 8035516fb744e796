//! The diff view: what `irgit textconv` shows git for each side of a diff.
//!
//! It is the canonical form, named for diffs (an unnamed value by its role
//! and place, never its operands' content: [`super::roles`]) and with
//! the names the file has (`%new`, `rundefers.loophead`; only numbered
//! values and collision suffixes such as `%add5` are renamed:
//! [`super::own_names`]), for compiler output: a file with a compiler's
//! header (`; ModuleID =`, `source_filename =`), no `RUN:` line and no
//! function attribute written inline (`declare void @f() nounwind`, which
//! no printer since LLVM 3.3 writes: the file was kept by hand since). Any
//! other file is its author's text, and its view is that text with only
//! its numbered values named ([`super::as_written`]): in a lit test by
//! their content (deleting one use renames nothing), in IR with no `RUN:`
//! line (a transform's input) by their role and place, as in compiler
//! output (an argument added to a call renames nothing).
//!
//! ```text
//! test as written                      view
//! ; RUN: opt -S %s | FileCheck %s      ; RUN: opt -S %s | FileCheck %s
//! define i32 @f(i32 %x) {              define i32 @f(i32 %x) {
//!   %1 = add i32 %x, 1                   %add.5e1c = add i32 %x, 1
//!   %sum = mul i32 %1, %1                %sum = mul i32 %add.5e1c, %add.5e1c
//!   ret i32 %sum                         ret i32 %sum
//! ```
//!
//! An unnamed instruction inserted above `%1` renumbers every `%N` below it
//! in the file, and is one line in the view; renaming `%sum` shows.
//!
//! In every view, debug lines are relative to their subprogram
//! ([`super::debug_lines`]): a function moved down its source file shows as
//! one changed `DISubprogram` line; instructions' locations are inline, each
//! line a step from the one before ([`super::debug_locations`]): a statement
//! inserted in a function shows as its own lines. A `DIFile`'s checksum
//! is left out (`canon.view_source_checksums: true` shows it): it changes
//! with every edit of the source file and says nothing about the IR.

use super::{canonicalize_bytes_with, decode_input, is_bitcode, CanonError, Cleanup, InputCheck};
use crate::config::{CanonOptions, ViewKind};

/// The options the view of `input` is printed with: `base` for compiler
/// output, the author's order and names (the rule above) for the rest.
pub(crate) fn view_options(input: &[u8], base: &CanonOptions) -> CanonOptions {
    let base = CanonOptions {
        view: ViewKind::CompilerOutput,
        ..base.clone()
    };
    if is_bitcode(input) {
        return base;
    }
    let text = decode_input(input);
    if is_compiler_output(&text) {
        return base;
    }
    CanonOptions {
        reorder_instructions: false,
        reorder_blocks: false,
        sort_phis: false,
        order_operands: false,
        reorder_globals: false,
        rename_private_constants: false,
        view: match crate::comments::is_lit_test(&text) {
            true => ViewKind::Test,
            false => ViewKind::WrittenByHand,
        },
        ..base
    }
}

/// Whether the view of `text` is the one for compiler output: it was
/// written by a compiler and not kept by hand since. Any other text (a lit
/// test, IR a person wrote) is shown in its own text
/// ([`super::as_written`]).
fn is_compiler_output(text: &str) -> bool {
    written_by_a_compiler(text) && !writes_inline_function_attributes(text)
}

/// Whether `text` has a compiler's header and no `RUN:` line, but has
/// been kept by hand since ([`writes_inline_function_attributes`]).
fn is_kept_compiler_output(text: &str) -> bool {
    written_by_a_compiler(text) && writes_inline_function_attributes(text)
}

/// Whether `text` has a compiler's header (`; ModuleID =`,
/// `source_filename =`) and no `RUN:` line.
fn written_by_a_compiler(text: &str) -> bool {
    crate::comments::has_compiler_header(text) && !crate::comments::is_lit_test(text)
}

/// Whether a `define` or `declare` line of `text` writes a function
/// attribute inline (`declare ptr @llvm.stacksave() nounwind`). No LLVM
/// printer has written one since 3.3 (they print attribute groups, `#0`),
/// so such a file has been kept and edited by hand since a compiler last
/// wrote it (a test renamed a callee, a script modernized its syntax):
/// its text is its author's, and a printed view would show the edit as
/// every line the printer moves.
fn writes_inline_function_attributes(text: &str) -> bool {
    crate::text::lines(text)
        .filter(|line| line.starts_with("define ") || line.starts_with("declare "))
        .any(|line| after_parameters(line).is_some_and(starts_with_attribute))
}

/// What follows the parameter list of a function's header line.
fn after_parameters(line: &str) -> Option<&str> {
    let name = crate::text::function_name(line)?;
    let open = name.as_ptr() as usize - line.as_ptr() as usize + name.len();
    let close = crate::text::bracket_end(line.as_bytes(), open)?;
    Some(&line[close..])
}

/// Whether the header's tail after its parameters (`unnamed_addr #0
/// section "s" {`) holds a function attribute before the keywords that
/// follow attributes in LLVM's grammar: a bare word (`nounwind`,
/// `alignstack(16)`) or a string attribute (`"frame-pointer"="all"`),
/// not an attribute group.
fn starts_with_attribute(tail: &str) -> bool {
    const AFTER_ATTRIBUTES: &[&str] = &[
        "section",
        "partition",
        "comdat",
        "align",
        "gc",
        "prefix",
        "prologue",
        "personality",
    ];
    for word in tail.split_whitespace() {
        let keyword = word.split('(').next().unwrap_or(word);
        match keyword {
            "unnamed_addr" | "local_unnamed_addr" | "addrspace" => continue,
            _ if word.starts_with('#') => continue,
            _ if AFTER_ATTRIBUTES.contains(&keyword) => return false,
            _ if word.starts_with(['{', ';', '!']) => return false,
            _ => return true,
        }
    }
    false
}

/// The view of `bytes` (text or bitcode); `name` names the input in errors.
/// A view read again (its debug lines relative) gives itself. A text LLVM
/// rejects only for its `target` strings (`target datalayout = "..."`) is
/// viewed with them set aside and printed back ([`super::carried_header`]);
/// one in the syntax before LLVM 3.7, with the types it left implicit
/// written out and its personality on its functions ([`super::old_syntax`]).
pub fn view_bytes(
    bytes: &[u8],
    name: &str,
    base: &CanonOptions,
    run: (Cleanup, InputCheck),
) -> Result<String, CanonError> {
    let rejected = match view_as_written(bytes, name, base, run) {
        Ok(view) => return Ok(view),
        Err(e) => e,
    };
    if is_bitcode(bytes) {
        return Err(rejected);
    }
    let text = decode_input(bytes);
    if let Some(aside) = super::carried_header::set_aside(&text) {
        let parsed = super::encode_like_input(aside.parsed.clone(), bytes);
        if let Ok(view) = view_as_written(&parsed, name, base, run) {
            return Ok(aside.put_back(&view));
        }
    }
    if let Some(upgraded) = super::old_syntax::upgraded(&text) {
        let input = super::encode_like_input(upgraded, bytes);
        // Compiler output kept by hand is shown as LLVM reads it: a script
        // that modernizes its syntax then changes nothing in the view.
        let own_text = (!is_kept_compiler_output(&text)).then_some(text.as_ref());
        if let Ok(view) = view_read_as(&input, own_text, name, base, run) {
            return Ok(view);
        }
    }
    Err(rejected)
}

/// [`view_bytes`] of the input as it is.
fn view_as_written(
    bytes: &[u8],
    name: &str,
    base: &CanonOptions,
    run: (Cleanup, InputCheck),
) -> Result<String, CanonError> {
    view_read_as(bytes, None, name, base, run)
}

/// The view of `bytes`, or, where they are the file's `own_text` read in
/// today's syntax ([`super::old_syntax`]), of that file: IR a person wrote
/// is then shown in its own text, renamed as the text LLVM read is (the
/// upgrade keeps every line and every numbered token), never in the
/// syntax irgit read it in.
fn view_read_as(
    bytes: &[u8],
    own_text: Option<&str>,
    name: &str,
    base: &CanonOptions,
    run: (Cleanup, InputCheck),
) -> Result<String, CanonError> {
    let opts = view_options(bytes, base);
    if is_bitcode(bytes) {
        return canonicalize_bytes_with(bytes, name, &opts, run);
    }
    let decoded = decode_input(bytes);
    if !opts.view.names_as_written() {
        if !super::debug_lines::has_lines(&decoded) {
            // No debug line to read back: the input as it is.
            return canonicalize_bytes_with(bytes, name, &opts, run);
        }
        let text = super::debug_readback::absolute(&decoded);
        let input = super::encode_like_input(text, bytes);
        return canonicalize_bytes_with(&input, name, &opts, run);
    }
    // The file's own text renamed is its view when it is the same module
    // with the same names: its printed view (comments aside, which the
    // printed view places by anchors) is the file's.
    let uncommented = CanonOptions {
        keep_comments: false,
        ..opts.clone()
    };
    let (printed, names) = super::canonicalize_bytes_with_names(
        &prepared(&decoded, bytes),
        name,
        &uncommented,
        run.0,
    )?;
    let renamed = |text: &str| {
        let names = names.as_ref()?;
        super::as_written::renamed(text, names)
    };
    let own = own_text.unwrap_or(&decoded);
    match renamed(&decoded) {
        // Nothing renamed: the file's text as it is.
        Some(w) if w == decoded => Ok(own.to_string()),
        Some(w) if printed_view(&w, bytes, name, &uncommented, run).ok() == Some(printed) => {
            Ok(match own_text {
                Some(own) => renamed(own).unwrap_or_else(|| own.to_string()),
                None => w,
            })
        }
        _ => Ok(own.to_string()),
    }
}

/// The text of IR a person wrote as the printed view reads it: debug lines
/// absolute, every numbered node kept; encoded as `bytes` was.
fn prepared(text: &str, bytes: &[u8]) -> Vec<u8> {
    let text = with_every_node_kept(super::debug_readback::absolute(text));
    super::encode_like_input(text, bytes)
}

/// LLVM's printed view of `text` (IR a person wrote, with the options
/// `opts` of its view): what the file's own text renamed must give again
/// to be shown in its place ([`super::as_written`]).
fn printed_view(
    text: &str,
    bytes: &[u8],
    name: &str,
    opts: &CanonOptions,
    run: (Cleanup, InputCheck),
) -> Result<String, CanonError> {
    canonicalize_bytes_with(&prepared(text, bytes), name, opts, run)
}

/// The named metadata that keeps a test's numbered nodes in its view.
const KEPT: &str = "!irgit.view.kept = ";

/// `text` with one more named metadata line that lists every numbered node
/// it defines, placed right after its last IR line (so no comment anchors
/// to it). LLVM prints only the nodes something references: without it, a
/// function deleted from a test would take its debug nodes out of the view,
/// which git's diff of the text does not.
fn with_every_node_kept(text: String) -> String {
    let numbers: Vec<&str> = text
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix('!')?;
            let (n, _) = rest.split_once(" = ")?;
            n.bytes().all(|b| b.is_ascii_digit()).then_some(n)
        })
        .collect();
    if numbers.is_empty() {
        return text;
    }
    let list: Vec<String> = numbers.iter().map(|n| format!("!{n}")).collect();
    let line = format!("{KEPT}!{{{}}}\n", list.join(", "));
    let mut at = 0;
    let mut offset = 0;
    for l in text.split_inclusive('\n') {
        offset += l.len();
        let t = l.trim();
        if !t.is_empty() && !t.starts_with(';') {
            at = offset;
        }
    }
    let mut out = String::with_capacity(text.len() + line.len() + 1);
    out.push_str(&text[..at]);
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&line);
    out.push_str(&text[at..]);
    out
}

/// The printed view without the line [`with_every_node_kept`] added.
pub(super) fn without_kept_list(view: String) -> String {
    if !view.contains(KEPT) {
        return view;
    }
    view.split_inclusive('\n')
        .filter(|l| !l.starts_with(KEPT))
        .collect()
}

/// The view's `text` with the `checksumkind:` and `checksum:` of every
/// `DIFile` left out (valid IR: both are optional), unless `opts` shows
/// them.
pub(super) fn with_source_checksums(text: String, opts: &CanonOptions) -> String {
    if opts.view_source_checksums
        || memchr::memmem::find(text.as_bytes(), b", checksumkind: ").is_none()
    {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        match source_checksum_span(line) {
            Some((from, to)) => {
                out.push_str(&line[..from]);
                out.push_str(&line[to..]);
            }
            None => out.push_str(line),
        }
    }
    out
}

/// The byte range of `, checksumkind: K, checksum: "..."` in a `DIFile`
/// definition line.
fn source_checksum_span(line: &str) -> Option<(usize, usize)> {
    let (_, rhs) = line.split_once(" = ")?;
    if !rhs.starts_with("!DIFile(") && !rhs.starts_with("distinct !DIFile(") {
        return None;
    }
    checksum_fields(line)
}

/// The byte range of a `DIFile`'s `, checksumkind: K, checksum: "..."` in
/// `text` (LLVM prints the two together, in this order).
pub(super) fn checksum_fields(text: &str) -> Option<(usize, usize)> {
    let from = text.find(", checksumkind: ")?;
    let value = from + text[from..].find(", checksum: \"")? + ", checksum: \"".len();
    let to = value + text[value..].find('"')? + 1;
    Some((from, to))
}

/// `rhs` (a metadata definition's right-hand side) without a `DIFile`'s
/// `directory: "..."` unless it is empty: what the view's
/// metadata numbers are keyed by ([`super::numbering::metadata_keys`]).
/// The directory is the checkout the file was compiled in; keyed by it, the
/// same source compiled in another checkout renumbered the file, everything
/// scoped in it, and every `!dbg` of the module. Whether it is empty stays
/// in the key: a file compiled by absolute path from a directory it shares
/// no parent with (a sandboxed build) gets a second `DIFile` of the same
/// name with `directory: ""`, and two files alike in their key would be
/// told apart by the nodes that refer to them, which an edit changes. The
/// line itself still shows the directory.
///
/// ```text
/// !DIFile(filename: "/b/x.c", directory: "/home/a")   key: !DIFile(filename: "/b/x.c")
/// !DIFile(filename: "/b/x.c", directory: "")          key: !DIFile(filename: "/b/x.c", directory: "")
/// ```
pub(super) fn without_source_directory(rhs: &str) -> std::borrow::Cow<'_, str> {
    let body = rhs.strip_prefix("distinct ").unwrap_or(rhs);
    if !body.starts_with("!DIFile(") {
        return rhs.into();
    }
    match directory_field(rhs) {
        Some((from, to)) if &rhs[from..to] == ", directory: \"\"" => rhs.into(),
        Some((from, to)) => format!("{}{}", &rhs[..from], &rhs[to..]).into(),
        None => rhs.into(),
    }
}

/// Debug-info nodes the view numbers by what names them, with the fields
/// that do: the rest (a subprogram's `type:`, a compile unit's `imports:`,
/// a variable's `type:`) is a fact of the node's own line, and its number,
/// which every line that refers to the node shows, must not carry it.
const NAMING_FIELDS: &[(&str, &[&str])] = &[
    ("!DICompileUnit(", &["language", "file"]),
    ("!DISubprogram(", &["name", "linkageName", "scope"]),
    ("!DIGlobalVariable(", &["name", "linkageName", "scope"]),
    ("!DILocalVariable(", &["name", "arg", "scope"]),
    ("!DILabel(", &["name", "scope"]),
    ("!DIModule(", &["name", "scope"]),
    ("!DINamespace(", &["name", "scope"]),
    ("!DICompositeType(", &["tag", "name", "identifier", "scope"]),
    ("!DIDerivedType(", &["tag", "name", "scope"]),
];

/// `rhs` (a metadata definition's right-hand side) as the view's metadata
/// numbers are keyed by it: a node of [`NAMING_FIELDS`]' kinds with a name
/// (a compile unit always) by its naming fields alone, anything else as it
/// is. Nodes that then read alike are told apart by the nodes they refer to
/// ([`super::numbering::metadata_keys`]).
///
/// ```text
/// distinct !DISubprogram(name: "f", scope: !1, type: !5, unit: !2)   key: distinct !DISubprogram(name: "f", scope: !1)
/// !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !4, size: 64)  key: as it is (no name)
/// ```
pub(super) fn naming_fields_only(rhs: &str) -> std::borrow::Cow<'_, str> {
    let (distinct, body) = match rhs.strip_prefix("distinct ") {
        Some(body) => ("distinct ", body),
        None => ("", rhs),
    };
    let Some(&(kind, names)) = NAMING_FIELDS.iter().find(|(k, _)| body.starts_with(k)) else {
        return rhs.into();
    };
    let fields = metadata_fields(&body[kind.len()..]);
    if kind != "!DICompileUnit(" && !fields.iter().any(|(name, _)| *name == "name") {
        return rhs.into();
    }
    let kept: Vec<String> = fields
        .iter()
        .filter(|(name, _)| names.contains(name))
        .map(|(name, value)| format!("{name}: {value}"))
        .collect();
    format!("{distinct}{kind}{})", kept.join(", ")).into()
}

/// The `name: value` fields of a specialized node's body (after its `(`),
/// split at commas outside quotes and parentheses.
fn metadata_fields(body: &str) -> Vec<(&str, &str)> {
    let mut fields = Vec::new();
    let (mut depth, mut quoted, mut start) = (0i32, false, 0);
    for (at, c) in body.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '(' if !quoted => depth += 1,
            ')' if !quoted && depth > 0 => depth -= 1,
            ',' | ')' if !quoted && depth == 0 => {
                fields.extend(body[start..at].trim().split_once(": "));
                start = at + 1;
                if c == ')' {
                    break;
                }
            }
            _ => {}
        }
    }
    fields
}

/// The byte range of `, directory: "..."` in a `DIFile` (LLVM escapes a
/// quote inside the string as `\22`, so the next quote closes it).
fn directory_field(text: &str) -> Option<(usize, usize)> {
    let from = text.find(", directory: \"")?;
    let value = from + ", directory: \"".len();
    let to = value + text[value..].find('"')? + 1;
    Some((from, to))
}

/// An intrinsic-style function name (`llvm.` ...) without the pointee
/// types of typed-pointer mangling: `p<address space><pointee>` is read as
/// `p<address space>`, the opaque pointer's mangling. What the view names
/// calls by: LLVM 15+ tests moved to opaque pointers rename declarations
/// of target intrinsics LLVM does not upgrade itself.
///
/// ```text
/// llvm.genx.GenISA.ldraw.indexed.f32.p2490373i8   -> llvm.genx.GenISA.ldraw.indexed.f32.p2490373
/// llvm.foo.p0p0i8.p1f32                           -> llvm.foo.p0.p1
/// ```
pub(super) fn without_pointee_mangling(name: &str) -> std::borrow::Cow<'_, str> {
    if !name.starts_with("llvm.") || !name.split('.').any(|s| pointee_at(s).is_some()) {
        return name.into();
    }
    let segments: Vec<&str> = name
        .split('.')
        .map(|s| pointee_at(s).map_or(s, |at| &s[..at]))
        .collect();
    segments.join(".").into()
}

/// Where the pointee type starts in a typed pointer's mangling `p<digits>
/// <pointee>` (`p0i8`: 2), if `segment` is one.
fn pointee_at(segment: &str) -> Option<usize> {
    let digits = segment.strip_prefix('p')?;
    let count = digits.bytes().take_while(u8::is_ascii_digit).count();
    (count > 0 && count < digits.len()).then_some(1 + count)
}

#[cfg(test)]
mod tests {
    use super::{naming_fields_only, without_pointee_mangling, writes_inline_function_attributes};

    #[test]
    fn inline_function_attributes_are_told_from_what_follows_them() {
        for (header, inline) in [
            ("declare i32 @printf(i8* nocapture, ...) nounwind", true),
            ("define internal i32 @f(i32, i32) noinline {", true),
            ("define void @f() alignstack(16) {", true),
            (
                "define void @f() unnamed_addr \"frame-pointer\"=\"all\" {",
                true,
            ),
            ("define void @f() #0 {", false),
            (
                "define void @f() local_unnamed_addr #0 section \".text\" align 2 {",
                false,
            ),
            (
                "define void @f() #1 personality ptr @__gxx_personality_v0 {",
                false,
            ),
            ("define void @f(ptr %p) #0 !dbg !7 {", false),
            ("declare void @g(i32 noundef)", false),
            ("define void (i32)* @h(i32 %x) {", false),
            ("define void @\"(T).m\"(ptr %p) {", false),
        ] {
            let text = format!("; ModuleID = 'a.c'\n{header}\n");
            assert_eq!(writes_inline_function_attributes(&text), inline, "{header}");
        }
    }

    #[test]
    fn named_debug_nodes_keep_their_naming_fields() {
        let sp = r#"distinct !DISubprogram(name: "f, g", linkageName: "_Z1f", scope: !1, file: !1, line: _, type: !5, spFlags: DISPFlagDefinition, unit: !2)"#;
        assert_eq!(
            naming_fields_only(sp),
            r#"distinct !DISubprogram(name: "f, g", linkageName: "_Z1f", scope: !1)"#
        );
        let cu = "distinct !DICompileUnit(language: DW_LANG_C99, file: !3, producer: \"x\", imports: !9)";
        assert_eq!(
            naming_fields_only(cu),
            "distinct !DICompileUnit(language: DW_LANG_C99, file: !3)"
        );
        let pointer = "!DIDerivedType(tag: DW_TAG_pointer_type, baseType: !4, size: 64)";
        assert_eq!(naming_fields_only(pointer), pointer);
        let expression = "!DIExpression(DW_OP_plus_uconst, 4)";
        assert_eq!(naming_fields_only(expression), expression);
    }

    #[test]
    fn typed_pointer_mangling_reads_as_opaque() {
        for (typed, opaque) in [
            (
                "llvm.genx.GenISA.ldraw.indexed.f32.p2490373i8",
                "llvm.genx.GenISA.ldraw.indexed.f32.p2490373",
            ),
            ("llvm.foo.p0p0i8.p1f32.i64", "llvm.foo.p0.p1.i64"),
            ("llvm.foo.p0.i64", "llvm.foo.p0.i64"),
            ("llvm.foo.pi8", "llvm.foo.pi8"),
            ("f.p0i8", "f.p0i8"),
        ] {
            assert_eq!(without_pointee_mangling(typed), opaque, "{typed}");
        }
    }
}

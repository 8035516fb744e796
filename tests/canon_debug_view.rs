//! Debug info in the diff view (issue 18 item 2): real C edits compiled by
//! clang-22 with `-g`, each version viewed as textconv shows it. An edit in
//! one function changes no instruction line of another function, and the
//! view reads back into itself.

mod common;

use common::c_edits::{candidates, compile_c_text, spread, CEdit, CEditKind, Level};
use common::view;

const O0_G: Level = Level {
    opt: "-O0",
    debug: true,
};

const O0: Level = Level {
    opt: "-O0",
    debug: false,
};

/// The text of corpus file `file` and its path.
fn sources(file: &str) -> (String, std::path::PathBuf) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(file);
    (std::fs::read_to_string(&path).unwrap(), path)
}

/// For each line of an IR text, the function whose body it is in.
fn enclosing_functions(text: &str) -> Vec<Option<&str>> {
    let mut out = Vec::new();
    let mut current = None;
    for line in text.lines() {
        if line.starts_with("define ") {
            current = irgit::text::function_name(line);
        }
        out.push(current);
        if line == "}" {
            current = None;
        }
    }
    out
}

/// The changed lines of `a` -> `b` inside functions other than `@func`.
fn changed_outside(a: &str, b: &str, func: &str) -> Vec<String> {
    use similar::{ChangeTag, TextDiff};
    let (fa, fb) = (enclosing_functions(a), enclosing_functions(b));
    let own = format!("@{func}");
    let other = |f: Option<&str>| f.is_some_and(|f| f != own);
    TextDiff::from_lines(a, b)
        .iter_all_changes()
        .filter(|c| match c.tag() {
            ChangeTag::Delete => other(fa[c.old_index().unwrap()]),
            ChangeTag::Insert => other(fb[c.new_index().unwrap()]),
            ChangeTag::Equal => false,
        })
        .map(|c| format!("{}{}", c.tag(), c.value()))
        .collect()
}

/// Up to `per_file` edits of `kind` per corpus file, spread over the file, that
/// compile and change the -O0 -g IR: (file, base, edit, old IR, new IR).
fn edits(kind: CEditKind, per_file: usize) -> Vec<(String, CEdit, String, String)> {
    let mut out = Vec::new();
    for path in common::corpus_sources() {
        let base = std::fs::read_to_string(&path).unwrap();
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let Ok(old) = compile_c_text(&base, &file, O0_G, false) else {
            continue;
        };
        let mut kept = 0;
        for edit in spread(candidates(&base, kind), per_file)
            .into_iter()
            .take(4 * per_file)
        {
            let Ok(new) = compile_c_text(&edit.apply(&base), &file, O0_G, false) else {
                continue;
            };
            if new != old {
                out.push((file.clone(), edit, old.clone(), new));
                kept += 1;
            }
            if kept == per_file {
                break;
            }
        }
    }
    out
}

/// `total += rows;` inserted at the top of `triangle` in `loops.c`: the
/// lexical blocks of `sum_to`, above it, are alike.
fn inserted_in_triangle() -> (String, CEdit, String, String) {
    let (base, _) = sources("loops.c");
    let edit = CEdit {
        kind: CEditKind::InsertStatement,
        func: "triangle".into(),
        start: 12,
        removed: 0,
        inserted: vec!["  total += rows;".into()],
    };
    assert!(base.lines().nth(11).unwrap().contains("long total = 0;"));
    let compile = |src: &str| compile_c_text(src, "loops.c", O0_G, false).unwrap();
    let (old, new) = (compile(&base), compile(&edit.apply(&base)));
    ("loops.c".into(), edit, old, new)
}

#[test]
fn a_statement_inserted_or_deleted_changes_no_line_of_another_function() {
    let mut cases = edits(CEditKind::InsertStatement, 5);
    cases.extend(edits(CEditKind::DeleteStatement, 5));
    cases.push(inserted_in_triangle());
    assert!(cases.len() >= 10, "only {} edits", cases.len());
    let mut bad = Vec::new();
    for (file, edit, old, new) in &cases {
        // A deleted last call deletes a static function: that shows
        // without -g too.
        let plain = |src: &str| compile_c_text(src, file, O0, false).unwrap();
        let (base, _) = sources(file);
        let (p_old, p_new) = (plain(&base), plain(&edit.apply(&base)));
        if !changed_outside(&view(&p_old), &view(&p_new), &edit.func).is_empty() {
            continue;
        }
        let outside = changed_outside(&view(old), &view(new), &edit.func);
        if !outside.is_empty() {
            bad.push(format!(
                "{file} {}: {:?}",
                edit.describe(),
                &outside[..outside.len().min(4)]
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {}:\n{}",
        bad.len(),
        cases.len(),
        bad.join("\n")
    );
}

/// The global lines of a text, by name.
fn globals(text: &str) -> std::collections::HashMap<&str, &str> {
    text.lines()
        .filter(|l| l.starts_with('@'))
        .filter_map(|l| Some((l.split_once(" = ")?.0, l)))
        .collect()
}

#[test]
fn a_global_kept_by_an_edit_keeps_its_line() {
    let mut cases = edits(CEditKind::DeleteStatement, 5);
    cases.extend(edits(CEditKind::InsertStatement, 5));
    let mut bad = Vec::new();
    for (file, edit, old, new) in &cases {
        let (a, b) = (view(old), view(new));
        let (ga, gb) = (globals(&a), globals(&b));
        for (name, line) in &ga {
            if gb.get(name).is_some_and(|l| l != line) {
                bad.push(format!("{file} {}: {line}", edit.describe()));
            }
        }
    }
    assert!(bad.is_empty(), "{}:\n{}", bad.len(), bad.join("\n"));
}

/// A line inserted at the top of a source file moves every declaration in
/// it; the view shows that once (on the first node below it), besides the
/// file's checksum. Before chained lines, every function, global and string
/// literal of the file changed its `line:`.
#[test]
fn a_line_inserted_above_everything_shows_once() {
    for file in ["arrays.c", "globals.c", "strings.c", "structs.c"] {
        let (src, _) = sources(file);
        let old = view(&compile_c_text(&src, file, O0_G, false).unwrap());
        let new = view(&compile_c_text(&format!("\n{src}"), file, O0_G, false).unwrap());
        let (a, b): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
        assert_eq!(a.len(), b.len(), "{file}");
        let changed: Vec<(&str, &str)> = a
            .iter()
            .zip(&b)
            .filter(|(x, y)| x != y && !x.contains("checksum:"))
            .map(|(x, y)| (*x, *y))
            .collect();
        assert_eq!(changed.len(), 1, "{file}: {changed:#?}");
    }
}

/// The `scope:` of the line that defines variable `name` in a view.
fn scope_of_variable<'a>(view: &'a str, name: &str) -> &'a str {
    let needle = format!("!DILocalVariable(name: \"{name}\", scope: !");
    let line = view.lines().find(|l| l.contains(&needle)).unwrap();
    let at = line.find(&needle).unwrap() + needle.len() - 1;
    line[at..].split([',', ')']).next().unwrap()
}

const LOOP_C: &str = "int g1 = 1;\n\
int f(int n) {\n  int s = 0;\n  s += n;\n  for (int i = 0; i < n; i++) {\n    int t = i * 2;\n    s += t;\n  }\n  return s;\n}\n";

/// An `if` added above a loop adds a lexical block beside the loop's; the
/// loop's block keeps its number (sibling blocks go by the variable they
/// declare before their order), and so does every location in it. Before,
/// the loop's block was the second of its kind and took another number.
#[test]
fn an_if_added_above_a_loop_keeps_the_loops_scope() {
    let edited = LOOP_C.replace("  s += n;\n", "  if (n != 0) { s += n; }\n");
    let old = view(&compile_c_text(LOOP_C, "loop.c", O0_G, false).unwrap());
    let new = view(&compile_c_text(&edited, "loop.c", O0_G, false).unwrap());
    for name in ["i", "t"] {
        assert_eq!(
            scope_of_variable(&old, name),
            scope_of_variable(&new, name),
            "{name}:\n{old}\n{new}"
        );
    }
}

const STORES_C: &str = "int f(int n, int *a) {\n  int s = 0;\n  a[0] = n + 1;\n  a[1] = n * 2;\n  a[2] = n - 3;\n  s = a[0] + a[1] + a[2];\n  return s;\n}\n";

/// Removed + added lines of a line diff.
fn changed_count(a: &str, b: &str) -> usize {
    similar::TextDiff::from_lines(a, b)
        .iter_all_changes()
        .filter(|c| c.tag() != similar::ChangeTag::Equal)
        .count()
}

/// An `if` added around three statements moves their instructions into a
/// new lexical block: with -g the view shows about what it shows without
/// (the first location in the block writes its scope, the rest are in the
/// scope of the one before them). Before, every location of the three
/// statements changed its `scope:` (42 changed lines against 10; now 16).
#[test]
fn statements_wrapped_in_an_if_change_their_scope_once() {
    let edited = STORES_C
        .replace("  a[0] = n + 1;\n", "  if (n) {\n  a[0] = n + 1;\n")
        .replace("  a[2] = n - 3;\n", "  a[2] = n - 3;\n  }\n");
    let shown = |level| {
        let old = view(&compile_c_text(STORES_C, "stores.c", level, false).unwrap());
        let new = view(&compile_c_text(&edited, "stores.c", level, false).unwrap());
        (changed_count(&old, &new), old, new)
    };
    let ((plain, _, _), (debug, old, new)) = (shown(O0), shown(O0_G));
    assert!(plain > 0);
    assert!(
        debug <= plain + 8,
        "-g: {debug} changed lines, without -g {plain}:\n{old}\n{new}"
    );
}

const ARRAYS_C: &str = "int table[8] = {1, 2, 3, 4, 5, 6, 7, 8};\nchar name[8] = \"abcdefg\";\nint f(int i) { return table[i & 7] + name[i & 7]; }\n";

/// The line of a view that defines the array type of `size`.
fn array_type_line(view: &str, size: u32) -> &str {
    let needle = format!(", size: {size}, elements: !");
    view.lines()
        .find(|l| l.contains("DW_TAG_array_type") && l.contains(&needle))
        .unwrap_or_else(|| panic!("no array type of size {size}:\n{view}"))
}

/// `int table[8]` and `char name[8]` share their subranges (`!{count:
/// 8}`); `name` deleted, the tuple is the int array's alone, and keeps its
/// number: the int array's line does not change. Before, a tuple one node
/// names was keyed by that node, so it took another number.
#[test]
fn an_array_that_goes_leaves_the_shared_subranges_their_number() {
    let edited = ARRAYS_C
        .replace("char name[8] = \"abcdefg\";\n", "")
        .replace(" + name[i & 7]", "");
    let old = view(&compile_c_text(ARRAYS_C, "arrays8.c", O0_G, false).unwrap());
    let new = view(&compile_c_text(&edited, "arrays8.c", O0_G, false).unwrap());
    assert_eq!(
        array_type_line(&old, 256),
        array_type_line(&new, 256),
        "{old}\n{new}"
    );
}

/// A global added to a file changes the compile unit's list of globals;
/// the list keeps its number (it is known by the compile unit that names
/// it), so the compile unit's line does not change.
#[test]
fn a_new_global_leaves_the_compile_unit_alone() {
    let edited = LOOP_C.replace("int g1 = 1;\n", "int g1 = 1;\nint g2 = 2;\n");
    let old = view(&compile_c_text(LOOP_C, "loop.c", O0_G, false).unwrap());
    let new = view(&compile_c_text(&edited, "loop.c", O0_G, false).unwrap());
    let unit = |v: &str| {
        let line = v.lines().find(|l| l.contains("!DICompileUnit(")).unwrap();
        line.to_string()
    };
    assert_eq!(unit(&old), unit(&new));
}

/// Every corpus file at -O0 -g and -O2 -g: the view's locations are inline
/// steps, its view is itself, and its lines made absolute are the module:
/// LLVM reads them and canonicalizes them to the canonical form of the
/// original.
#[test]
fn the_view_of_debug_info_reads_back_into_the_module() {
    let o2_g = Level {
        opt: "-O2",
        debug: true,
    };
    for path in common::corpus_sources() {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let src = std::fs::read_to_string(&path).unwrap();
        for level in [O0_G, o2_g] {
            let ll = compile_c_text(&src, &file, level, false).unwrap();
            let v = view(&ll);
            let what = format!("{file} {}", level.label());
            assert!(v.contains("!dbg !DILocation(line: +"), "{what}: no steps");
            let by_number = v
                .lines()
                .filter(|l| l.starts_with("  ") && l.contains("!dbg !"))
                .find(|l| !l.contains("!dbg !DILocation("));
            assert!(
                level.opt != "-O0" || by_number.is_none(),
                "{what}: a location by number: {by_number:?}"
            );
            assert_eq!(view(&v), v, "{what}: the view is not idempotent");
            let back = irgit::canon::debug_readback::absolute(&v);
            assert!(
                !back.contains("line: +")
                    && !back.contains("line: sp")
                    && !back.contains("line: !"),
                "{what}"
            );
            // The view names key-instruction groups its own way: the same
            // module up to that naming, and the same groups.
            assert_eq!(
                common::canon(&without_atoms(&back), "back.ll").unwrap(),
                common::canon(&without_atoms(&without_checksums(&ll)), "orig.ll").unwrap(),
                "{what}: the view made absolute is another module"
            );
            // The view may order instructions otherwise than the canonical
            // form (its names, which order ties, leave flags out): compare
            // the groups of the view read back, in canonical order.
            let canonical = common::canon(&ll, "orig.ll").unwrap();
            let read_back = common::canon(&without_checksums(&back), "back.ll").unwrap();
            assert_eq!(
                atom_partition(&read_back),
                atom_partition(&canonical),
                "{what}: the view groups key instructions otherwise"
            );
        }
    }
}

/// `text` without `atomGroup:` and `atomRank:` fields.
fn without_atoms(text: &str) -> String {
    let mut out = text.to_string();
    for name in [", atomGroup: ", ", atomRank: "] {
        while let Some(at) = out.find(name) {
            let digits = out[at + name.len()..]
                .bytes()
                .take_while(u8::is_ascii_digit)
                .count();
            out.replace_range(at..at + name.len() + digits, "");
        }
    }
    out
}

/// Per function, per instruction with a location: the class of its
/// `(atomGroup, inlinedAt)`, numbered by first appearance in the function
/// (locations inline or by number), `None` without a group.
fn atom_partition(text: &str) -> Vec<Vec<Option<usize>>> {
    let field = |loc: &str, name: &str| {
        irgit::canon::debug_lines::field(loc, name).map(|(_, v)| v.to_string())
    };
    let nodes: std::collections::HashMap<&str, &str> = text
        .lines()
        .filter_map(|l| l.split_once(" = !DILocation("))
        .collect();
    let mut out = Vec::new();
    let mut classes: Vec<(String, Option<String>)> = Vec::new();
    for line in text.lines() {
        if line.starts_with("define ") {
            out.push(Vec::new());
            classes.clear();
        }
        let location = match line.find("!dbg !") {
            Some(at) if line[at..].starts_with("!dbg !DILocation(") => Some(&line[at + 5..]),
            Some(at) => nodes
                .get(line[at + 5..].split([',', ' ']).next().unwrap())
                .copied(),
            None => None,
        };
        let Some(location) = location.filter(|_| line.starts_with("  ")) else {
            continue;
        };
        let location = &location[..location.find(')').unwrap_or(location.len())];
        let class = field(location, "atomGroup").map(|g| {
            let key = (g, field(location, "inlinedAt"));
            match classes.iter().position(|c| *c == key) {
                Some(k) => k,
                None => {
                    classes.push(key);
                    classes.len() - 1
                }
            }
        });
        if let Some(f) = out.last_mut() {
            f.push(class);
        }
    }
    out
}

/// `ll` without its `DIFile` checksums (the view leaves them out).
fn without_checksums(ll: &str) -> String {
    let mut out = String::new();
    for line in ll.split_inclusive('\n') {
        match line.find(", checksumkind: ") {
            Some(from) => {
                let quote = from + line[from..].find("checksum: \"").unwrap() + 11;
                let to = quote + line[quote..].find('"').unwrap() + 1;
                out.push_str(&line[..from]);
                out.push_str(&line[to..]);
            }
            None => out.push_str(line),
        }
    }
    assert!(!out.contains("checksum"));
    out
}

const TWO_FUNCTIONS_C: &str = "int f(int n) {\n  int s = 0;\n  s += n;\n  for (int i = 0; i < n; i++) {\n    int t = i * 2;\n    s += t;\n  }\n  return s;\n}\n\
int g(int m) {\n  int u = m * 3;\n  return u;\n}\n";

/// The changed definition lines (`!N = ...`) of `a` -> `b`, as pairs.
fn changed_metadata(a: &str, b: &str) -> Vec<String> {
    use similar::{ChangeTag, TextDiff};
    TextDiff::from_lines(a, b)
        .iter_all_changes()
        .filter(|c| c.tag() != ChangeTag::Equal && c.value().starts_with('!'))
        .map(|c| format!("{}{}", c.tag(), c.value()))
        .collect()
}

/// A statement inserted in a function moves its loop's block, the loop
/// variable, the next function and its variables down one line. The view
/// chains every line of a file from the line above it, inside functions
/// or not, so that shows once: on the first node below the new statement
/// (before: once per scope the edit crossed, and on the next function).
/// The file's checksum, a hash of the source, is not in the view.
#[test]
fn a_statement_inserted_moves_one_declaration_in_the_view() {
    let edited = TWO_FUNCTIONS_C.replace("  s += n;\n", "  s += n;\n  s += 2;\n");
    let old = view(&compile_c_text(TWO_FUNCTIONS_C, "two.c", O0_G, false).unwrap());
    let new = view(&compile_c_text(&edited, "two.c", O0_G, false).unwrap());
    let changed = changed_metadata(&old, &new);
    assert_eq!(changed.len(), 2, "{changed:#?}");
    assert!(!old.contains("checksum"), "{old}");
}

/// `canon.view_source_checksums: true` shows a `DIFile`'s checksum, and
/// then a source edit changes it.
#[test]
fn the_view_shows_source_checksums_when_asked() {
    let options = irgit::config::CanonOptions {
        view_source_checksums: true,
        ..Default::default()
    };
    let view_with = |text: &str| {
        irgit::canon::view::view_bytes(
            text.as_bytes(),
            "two.c",
            &options,
            (irgit::canon::Cleanup::Free, irgit::canon::InputCheck::First),
        )
        .unwrap()
    };
    let edited = TWO_FUNCTIONS_C.replace("  return u;\n", "  return u; // done\n");
    let old = view_with(&compile_c_text(TWO_FUNCTIONS_C, "two.c", O0_G, false).unwrap());
    let new = view_with(&compile_c_text(&edited, "two.c", O0_G, false).unwrap());
    let changed = changed_metadata(&old, &new);
    assert_eq!(changed.len(), 2, "{changed:#?}");
    assert!(changed[0].contains("!DIFile(") && changed[0].contains("checksum: \""));
    assert_eq!(
        view(&old),
        view(&new),
        "without checksums the views are equal"
    );
}

/// The instruction lines of `a` -> `b` that changed only in their
/// `atomGroup:`, though their group holds the same instructions on both
/// sides: renumbered, not regrouped.
fn renumbered_groups(a: &str, b: &str) -> Vec<String> {
    let (old, new) = (changed_lines(a, b, '-'), changed_lines(a, b, '+'));
    let new_blanked: std::collections::HashMap<String, &String> =
        new.iter().map(|l| (blank_group(l), l)).collect();
    let (old_groups, new_groups) = (group_members(a), group_members(b));
    old.iter()
        .filter_map(|l| {
            let n = new_blanked.get(&blank_group(l))?;
            let members = |groups: &std::collections::HashMap<String, Vec<String>>, l: &str| {
                groups.get(&group_of(l)?).cloned()
            };
            let same = members(&old_groups, l).is_some()
                && members(&old_groups, l) == members(&new_groups, n);
            same.then(|| l.clone())
        })
        .collect()
}

/// `line` with its `atomGroup:` number blanked.
fn blank_group(line: &str) -> String {
    match line.find("atomGroup: ") {
        Some(at) => {
            let rest = &line[at + "atomGroup: ".len()..];
            let len = rest.find(',').unwrap_or(rest.len());
            format!("{}_{}", &line[..at + "atomGroup: ".len()], &rest[len..])
        }
        None => line.to_string(),
    }
}

/// The `atomGroup:` of an instruction line of a view.
fn group_of(line: &str) -> Option<String> {
    let at = line.find("atomGroup: ")? + "atomGroup: ".len();
    Some(line[at..].split(',').next()?.to_string())
}

/// Per view group number, its members: function and code.
fn group_members(view: &str) -> std::collections::HashMap<String, Vec<String>> {
    let mut out: std::collections::HashMap<String, Vec<String>> = Default::default();
    let mut function = String::new();
    for line in view.lines() {
        if line.starts_with("define ") {
            function = irgit::text::function_name(line).unwrap_or("").to_string();
        }
        let (Some(group), Some((code, _))) = (group_of(line), line.split_once(", !dbg ")) else {
            continue;
        };
        out.entry(group)
            .or_default()
            .push(format!("{function}: {}", code.trim()));
    }
    for members in out.values_mut() {
        members.sort();
    }
    out
}
/// The lines of `a` -> `b` that `side` (`-` or `+`) of a diff shows.
fn changed_lines(a: &str, b: &str, side: char) -> Vec<String> {
    use similar::{ChangeTag, TextDiff};
    let tag = if side == '-' {
        ChangeTag::Delete
    } else {
        ChangeTag::Insert
    };
    TextDiff::from_lines(a, b)
        .iter_all_changes()
        .filter(|c| c.tag() == tag)
        .map(|c| c.value().trim_end().to_string())
        .collect()
}

/// At -O2 -g, `reverse` of strings.c is inlined into `main`; a statement
/// deleted from its loop takes one key-instruction group away, and clang
/// and the inliner number every group after it anew. The view numbers
/// groups by their key instructions: no line changes only in its group's
/// number while the group holds the same instructions (before, 8 did).
#[test]
fn a_statement_deleted_renumbers_no_key_instruction_group_in_the_view() {
    let o2_g = Level {
        opt: "-O2",
        debug: true,
    };
    let (base, _) = sources("strings.c");
    let edit = candidates(&base, CEditKind::DeleteStatement)
        .into_iter()
        .find(|e| e.start == 15)
        .expect("a statement at line 16 of strings.c");
    assert_eq!(edit.func, "reverse");
    let compile = |src: &str| compile_c_text(src, "strings.c", o2_g, false).unwrap();
    let (old, new) = (view(&compile(&base)), view(&compile(&edit.apply(&base))));
    assert!(old.contains("atomGroup: ") && old != new);
    let renumbered = renumbered_groups(&old, &new);
    assert!(renumbered.is_empty(), "{renumbered:#?}");
}

/// `src` compiled at -O0 -g as a sandboxed build compiles it: by absolute
/// path, from a directory that shares no parent with the source but `/`
/// (source under /tmp, build under /var/tmp). clang then writes a second
/// `DIFile` for the source with `directory: ""`.
fn compile_sandboxed(src: &str, file: &str) -> String {
    let source_dir = tempfile::tempdir_in("/tmp").unwrap();
    let build_dir = tempfile::tempdir_in("/var/tmp").unwrap();
    let c = source_dir.path().join(file);
    std::fs::write(&c, src).unwrap();
    let out = std::process::Command::new("clang-22")
        .current_dir(build_dir.path())
        .args(["-O0", "-g", "-S", "-emit-llvm", "-w", "-o", "-"])
        .arg(&c)
        .output()
        .expect("clang-22");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The same path in every build, as a sandbox gives: only the layout
    // differs from the in-tree compile.
    String::from_utf8(out.stdout)
        .unwrap()
        .replace(&*source_dir.path().to_string_lossy(), "/sandbox/src")
        .replace(&*build_dir.path().to_string_lossy(), "/sandbox/build")
}

/// A sandboxed build's second `DIFile` (same name, `directory: ""`) must not
/// make the view's numbers depend on the edit: each edit shows about what it
/// shows compiled in tree (it showed 10x more: that file's key changed with
/// the nodes that refer to it, and every line naming it with it).
#[test]
fn a_sandboxed_build_shows_what_an_in_tree_build_shows() {
    // Statements inserted, and one that adds a file-scope variable (a new
    // node that names the file, as a real edit of lua's loslib.c did).
    let mut cases: Vec<(String, String, String)> = edits(CEditKind::InsertStatement, 2)
        .into_iter()
        .map(|(file, edit, _, _)| {
            let (base, _) = sources(&file);
            let edited = edit.apply(&base);
            (file, base, edited)
        })
        .collect();
    assert!(cases.len() >= 6, "only {} edits", cases.len());
    let (base, _) = sources("loops.c");
    let with_global = format!("static volatile int probe;\n{base}")
        .replace("long total = 0;", "long total = 0;\n  probe++;");
    cases.push(("loops.c".into(), base, with_global));
    let mut worse = Vec::new();
    for (file, base, edited) in &cases {
        let compile = |src: &str| compile_c_text(src, file, O0_G, false).unwrap();
        let (old, new) = (compile(base), compile(edited));
        let (s_old, s_new) = (
            compile_sandboxed(base, file),
            compile_sandboxed(edited, file),
        );
        assert!(
            s_old.contains("\", directory: \"\""),
            "not the sandboxed layout:\n{s_old}"
        );
        let lines = |a: &str, b: &str| {
            let (r, a) = common::diff_size(&view(a), &view(b));
            r + a
        };
        let (in_tree, sandboxed) = (lines(&old, &new), lines(&s_old, &s_new));
        if sandboxed > in_tree + 4 {
            let (_, at) = common::diff_size(base, edited);
            worse.push(format!(
                "{file} (+{at} lines): in tree {in_tree}, sandboxed {sandboxed}"
            ));
        }
    }
    assert!(worse.is_empty(), "{worse:#?}");
}

const SIGNATURES_C: &str = "typedef int (*binop)(int, int);\n\
static int op_add(int a, int b) { return a + b; }\n\
static int op_sub(int a, int b) { return a - b; }\n\
static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }\n\
binop table[] = {op_add, op_sub};\n\
void *use_cmp(void) { return (void *)cmp; }\n";

/// A function removed with the only other signature of three types
/// (`int (const void *, const void *)` beside `int (int, int)`) and the
/// compile unit's `retainedTypes:` (its `const int *` cast): the types
/// the other functions are made of keep their numbers, and so do the
/// functions' lines and the compile unit's list of globals (before: the
/// remaining subroutine type, no longer colliding with the removed one,
/// took a new number, and with it every function of that type; the list of
/// globals was keyed by its place among the compile unit's references).
#[test]
fn a_removed_function_leaves_the_other_signatures_alone() {
    let edited = SIGNATURES_C
        .replace("void *use_cmp(void) { return (void *)cmp; }\n", "")
        .replace(
            "static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }\n",
            "",
        );
    let old = view(&compile_c_text(SIGNATURES_C, "sig.c", O0_G, false).unwrap());
    let new = view(&compile_c_text(&edited, "sig.c", O0_G, false).unwrap());
    assert!(
        old.contains("retainedTypes:") && !new.contains("retainedTypes:"),
        "{old}\n{new}"
    );
    for name in ["\"op_add\"", "\"op_sub\""] {
        let line = |v: &str| {
            v.lines()
                .find(|l| l.contains("!DISubprogram(") && l.contains(name))
                .map(str::to_string)
        };
        assert_eq!(line(&old), line(&new), "{name}'s subprogram line changed");
    }
    let globals = |v: &str| {
        let unit = v.lines().find(|l| l.contains("!DICompileUnit(")).unwrap();
        unit.split("globals: ")
            .nth(1)
            .unwrap()
            .split(',')
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(globals(&old), globals(&new));
}

/// At -O0 -g a variable is known by the source variable its
/// `#dbg_declare` names: an operator changed in its initializer changes
/// the lines that compute and store the value, and renames neither the
/// variable nor the reads of it (before: the store of an `add` where there
/// was a `sub` renamed the variable, and with it every load of it).
#[test]
fn an_initializer_edited_renames_no_declared_variable() {
    const SOURCE: &str = "int f(int n) {\n  int j = n - 1;\n  int k = 2;\n  return j + k;\n}\n";
    let edited = SOURCE.replace("n - 1", "n + 1");
    let old = view(&compile_c_text(SOURCE, "init.c", O0_G, false).unwrap());
    let new = view(&compile_c_text(&edited, "init.c", O0_G, false).unwrap());
    let (removed, added) = common::diff_size(&old, &new);
    assert_eq!((removed, added), (2, 2), "{old}\n{new}");
}

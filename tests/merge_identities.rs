//! Identities the merge must keep (issue 15, item 1): a `distinct` loop
//! node two functions share, an alias, a comdat, attribute groups used by
//! several functions. A generator of triples: ours edits one function,
//! theirs another; each edit is a constant change, an inserted
//! instruction, or giving the function's loop a node of its own
//! ("unsharing" it). The expected result is the module with both edits.
//! Every clean merge must be that module; a conflict is acceptable.
//!
//! ```text
//! @f: br ..., !llvm.loop !0     @h: br ..., !llvm.loop !0     (one node, shared)
//! ours unshares @f (!9), theirs edits @h: the result keeps @h on !0, @f on !9
//! ```

/// The module: three functions around one shape of loop.
struct Module {
    functions: Vec<String>,
    extra_metadata: Vec<String>,
}

const HEADER: &str = "$f = comdat any\n\n@fa = alias i32 (i32), ptr @f\n\n";

const TRAILER: &str = "attributes #0 = { nounwind }\nattributes #1 = { noinline nounwind }\n\n\
                       !0 = distinct !{!0, !2}\n!1 = distinct !{!1, !2}\n\
                       !2 = !{!\"llvm.loop.mustprogress\"}\n";

/// One function: a counted loop whose latch carries `!llvm.loop !loop_id`.
fn function(name: &str, suffix: &str, factor: u32, loop_id: u32, call: &str) -> String {
    format!(
        "define i32 @{name}(i32 %n) #{attrs}{suffix} {{\nentry:\n  br label %loop\n\n\
         loop:\n  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]\n  \
         %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ]\n  %acc.next = add i32 %acc, %i\n  \
         %i.next = add i32 %i, 1\n  %done = icmp sge i32 %i.next, %n\n  \
         br i1 %done, label %exit, label %loop, !llvm.loop !{loop_id}\n\n\
         exit:\n{call}  %r = mul i32 %acc.next, {factor}\n  ret i32 %r\n}}\n",
        attrs = if name == "k" { 1 } else { 0 },
    )
}

fn base() -> Module {
    Module {
        functions: vec![
            function("f", " comdat($f)", 3, 0, ""),
            function("h", "", 4, 0, ""),
            function("k", "", 6, 1, "  %c = call i32 @fa(i32 %n)\n"),
        ],
        extra_metadata: Vec::new(),
    }
}

impl Module {
    fn text(&self) -> String {
        let mut t = HEADER.to_string();
        for f in &self.functions {
            t.push_str(f);
            t.push('\n');
        }
        t.push_str(TRAILER);
        for m in &self.extra_metadata {
            t.push_str(m);
        }
        t
    }
}

/// The edits of function `i`, each a change of its text (and maybe new
/// metadata).
#[derive(Clone, Copy, Debug)]
enum Edit {
    Constant,
    Insert,
    Unshare,
}

fn apply(m: &mut Module, func: usize, edit: Edit) {
    let f = &mut m.functions[func];
    match edit {
        Edit::Constant => *f = f.replace("%r = mul i32 %acc.next, ", "%r = mul i32 %acc.next, 1"),
        Edit::Insert => {
            *f = f.replace(
                "  ret i32 %r\n",
                "  %extra = xor i32 %r, 5\n  ret i32 %extra\n",
            )
        }
        Edit::Unshare => {
            let own = 9 + func;
            let (before, after) = f.split_once("!llvm.loop !").unwrap();
            let rest = after.trim_start_matches(|c: char| c.is_ascii_digit());
            *f = format!("{before}!llvm.loop !{own}{rest}");
            m.extra_metadata
                .push(format!("!{own} = distinct !{{!{own}, !2}}\n"));
        }
    }
}

fn canonical(text: &str) -> Result<String, String> {
    irgit::canon::canonicalize_bytes(
        text.as_bytes(),
        "m.ll",
        &irgit::config::CanonOptions::default(),
    )
    .map_err(|e| e.to_string())
}

#[test]
fn shared_identities_survive_edits_in_other_functions() {
    let base_text = base().text();
    canonical(&base_text).expect("the base module is valid");
    let edits = [Edit::Constant, Edit::Insert, Edit::Unshare];
    let (mut clean, mut conflicts, mut wrong) = (0, 0, Vec::new());
    for ours_func in 0..3 {
        for theirs_func in (0..3).filter(|&t| t != ours_func) {
            for &oe in &edits {
                for &te in &edits {
                    let mut ours = base();
                    apply(&mut ours, ours_func, oe);
                    let mut theirs = base();
                    apply(&mut theirs, theirs_func, te);
                    let mut both = base();
                    apply(&mut both, ours_func, oe);
                    apply(&mut both, theirs_func, te);
                    let expected = canonical(&both.text()).expect("both edits are valid IR");
                    let m = irgit::merge::Markers::default();
                    let (o, t) = (ours.text(), theirs.text());
                    let r = irgit::merge::merge_bytes(
                        base_text.as_bytes(),
                        o.as_bytes(),
                        t.as_bytes(),
                        "m.ll",
                        &m,
                    )
                    .expect("the merge runs");
                    if r.conflicts > 0 {
                        conflicts += 1;
                        continue;
                    }
                    let out = irgit::merge::output_bytes(o.as_bytes(), &r, "m.ll").unwrap();
                    let got = canonical(&String::from_utf8(out).unwrap());
                    if got.as_ref() == Ok(&expected) {
                        clean += 1;
                    } else {
                        wrong.push(format!(
                            "ours {oe:?} in #{ours_func}, theirs {te:?} in #{theirs_func}"
                        ));
                    }
                }
            }
        }
    }
    eprintln!(
        "identity triples: {clean} clean and exact, {conflicts} conflicts, {} wrong",
        wrong.len()
    );
    assert!(
        wrong.is_empty(),
        "wrong clean merges:\n{}",
        wrong.join("\n")
    );
    // Keyed by content alone, 8 of these conflict (the loop nodes are
    // confused); by identity, they merge.
    assert!(clean >= 50, "only {clean} of 54 triples merged clean");
}

//! A call whose arguments a side changed is still the same call: a
//! signature change (a parameter added or removed) rewrites every call to
//! the function, and each call's value gets a new canonical name, as do
//! the lines that use it.
//!
//! ```text
//! O:  %call.05a5 = call ptr @runtime.alloc(i32 4, ptr null)     S:  %call.9e74 = call ptr @runtime.alloc(i32 4)
//!     store ptr %call.05a5, ptr %gep.6ba1, align 4                  store ptr %call.9e74, ptr %gep.6ba1, align 4
//!     ret ptr %call.05a5                                            ret ptr %call.9e74
//! matching: call.9e74 -> call.05a5
//! ```
//!
//! [`super::similar`] leaves such a pair alone (the argument list has
//! another number of tokens), and then the side seems to replace every
//! user of the value too, which conflicts with any edit of the other side
//! next to them. Here, in a gap of the block diff, a direct call that is
//! the only one to its callee among the gap's unmatched side values pairs
//! with the only such call among the gap's unmatched base values, when
//! both return the same type.

use std::ops::Range;

use rustc_hash::FxHashMap as HashMap;

use super::State;
use crate::text::def_name;

impl State<'_> {
    /// Matches, in one gap of a block pair's diff, the calls to one callee
    /// that are alone in the gap on each side (see the module doc).
    /// `sl`/`ol` are the block's lines, `sk`/`ok` their shapes.
    pub(super) fn match_calls_in_gap(
        &mut self,
        (sl, ol): (&[String], &[String]),
        (sk, ok): (&[String], &[String]),
        (side, base): (Range<usize>, Range<usize>),
    ) -> bool {
        let side_free = |a: &str| !self.m.values.contains_key(a) && !self.amb_s.contains(a);
        let base_free = |b: &str| !self.image.contains(b) && !self.amb_o.contains(b);
        let side_calls =
            lone_calls(side.map(|j| (j, sk[j].as_str(), def_name(&sl[j]).is_some_and(side_free))));
        let base_calls =
            lone_calls(base.map(|i| (i, ok[i].as_str(), def_name(&ol[i]).is_some_and(base_free))));
        let mut changed = false;
        for (head, j) in side_calls {
            let Some(&i) = base_calls.get(head) else {
                continue;
            };
            if let (Some(a), Some(b)) = (def_name(&sl[j]), def_name(&ol[i])) {
                changed |= self.add_value(a, b);
            }
        }
        changed
    }
}

/// The direct calls among `lines` (index, shaped line, whether its value
/// is free to match) whose head ([`call_head`]) no other line has, free
/// or not, by that head.
fn lone_calls<'l>(lines: impl Iterator<Item = (usize, &'l str, bool)>) -> HashMap<&'l str, usize> {
    let mut seen: HashMap<&str, Option<usize>> = HashMap::default();
    for (index, line, free) in lines {
        let Some(head) = call_head(line) else {
            continue;
        };
        seen.entry(head)
            .and_modify(|once| *once = None)
            .or_insert(free.then_some(index));
    }
    seen.into_iter()
        .filter_map(|(head, once)| Some((head, once?)))
        .collect()
}

/// A direct call's line up to its callee's argument list: the opcode,
/// return type and attributes, and the callee (`call ptr @runtime.alloc(`).
/// `None` for anything else (an indirect call, inline assembly, no call).
fn call_head(line: &str) -> Option<&str> {
    let rest = line.split_once(" = ").map_or(line, |(_, r)| r);
    let callee = rest.find(" @")? + 1;
    let before = &rest[..callee];
    let is_call = before
        .split_whitespace()
        .any(|t| t == "call" || t == "invoke");
    // A `(` before the callee opens a varargs function type, closed there;
    // an unclosed one is an argument list (the callee was a local).
    let balanced = before.matches('(').count() == before.matches(')').count();
    if !is_call || !balanced {
        return None;
    }
    let name = &rest[callee + 1..];
    let name_len = match name.strip_prefix('"') {
        Some(quoted) => quoted.find('"')? + 2,
        None => name.find(|c: char| c == '(' || c.is_whitespace())?,
    };
    name[name_len..]
        .starts_with('(')
        .then(|| &rest[..callee + 1 + name_len + 1])
}

#[cfg(test)]
mod tests {
    use super::call_head;

    #[test]
    fn a_direct_call_has_a_head_up_to_its_arguments() {
        assert_eq!(
            call_head("%? = call ptr @runtime.alloc(i32 4, ptr null)"),
            Some("call ptr @runtime.alloc(")
        );
        assert_eq!(
            call_head("%? = tail call i32 (ptr, ...) @printf(ptr @fmt)"),
            Some("tail call i32 (ptr, ...) @printf(")
        );
        assert_eq!(
            call_head(r#"%? = call void @"main.f$1(x)"(ptr %?)"#),
            Some(r#"call void @"main.f$1(x)"("#)
        );
    }

    #[test]
    fn indirect_calls_and_other_lines_have_none() {
        assert_eq!(call_head("%? = call ptr %?(ptr @g)"), None);
        assert_eq!(call_head("%? = load ptr, ptr @g, align 8"), None);
        assert_eq!(call_head("%? = getelementptr i8, ptr @g, i64 1"), None);
    }
}

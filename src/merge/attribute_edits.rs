//! Attribute groups whose content a side edited in place. The canonical
//! form numbers an attribute group by its content, so a side that edits a
//! group's content shows as "every user of the group changed its `#N`",
//! and a user the other side changed too (a declaration's signature) would
//! conflict although the two edits do not touch. A group is edited in place
//! when, on every line both modules have, the side's new group stands
//! exactly where the base's group stood, and neither group is in the other
//! module. The side's group is then read as the base's (the lines compare
//! equal), and the merged module prints the base's group with the side's
//! content, as a line merge of the source text would:
//!
//! ```text
//! base:   declare i8 @callee(ptr, i32) #1       attributes #1 = { "x"="byte" }
//! ours:   declare i8 @callee(ptr, i32) #2       attributes #2 = { "x"="uint8" }
//! theirs: declare i8 @callee(ptr, i32, ptr) #1  attributes #1 = { "x"="byte" }
//! merged: declare i8 @callee(ptr, i32, ptr) #0  attributes #0 = { "x"="uint8" }
//! ```

use std::collections::{BTreeMap, BTreeSet};

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::compare::model::{ModuleText, Numbering, SideTables};

use crate::three::Side;

use crate::text::{rewrite, scan_refs, Ref};

/// Where a line that names attribute groups stands, the same on every side
/// when the line is: its entity or function, its text with the group
/// numbers blanked, and which occurrence of that text it is.
type Anchor = (String, String, usize);

/// The attribute groups each line of `m` names, by anchor, for the lines
/// that name at least one group.
fn group_uses(m: &ModuleText) -> HashMap<Anchor, Vec<u32>> {
    let mut uses: HashMap<Anchor, Vec<u32>> = HashMap::default();
    let mut record = |owner: &str, line: &str| {
        if !line.contains('#') {
            return;
        }
        let mut groups = Vec::new();
        scan_refs(line, |_, _, r| {
            if let Ref::Attr(n) = r {
                groups.push(n);
            }
        });
        if groups.is_empty() {
            return;
        }
        let blanked = rewrite(line, |r| matches!(r, Ref::Attr(_)).then(|| "#".to_string()));
        let mut occurrence = 0;
        while uses.contains_key(&(owner.to_string(), blanked.clone(), occurrence)) {
            occurrence += 1;
        }
        uses.insert((owner.to_string(), blanked, occurrence), groups);
    };
    for (key, line) in &m.entities {
        record(key, line);
    }
    for f in &m.funcs {
        record(&f.name, &f.header);
        for line in f.blocks.iter().flat_map(|b| &b.lines) {
            record(&f.name, line);
        }
    }
    uses
}

/// The groups of `m` whose content `other` has under no number.
fn groups_absent_from(m: &ModuleText, other: &ModuleText) -> BTreeSet<u32> {
    let contents: HashSet<&str> = other.attrs.values().map(String::as_str).collect();
    m.attrs
        .iter()
        .filter(|(_, content)| !contents.contains(content.as_str()))
        .map(|(&n, _)| n)
        .collect()
}

/// The groups `side` edited in place: base group number -> side's number.
pub(crate) fn edited_in_place(base: &ModuleText, side: &ModuleText) -> BTreeMap<u32, u32> {
    let gone = groups_absent_from(base, side);
    let new = groups_absent_from(side, base);
    if gone.is_empty() || new.is_empty() {
        return BTreeMap::new();
    }
    let side_uses = group_uses(side);
    let mut images: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    let mut origins: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    for (anchor, base_groups) in group_uses(base) {
        let Some(side_groups) = side_uses.get(&anchor) else {
            continue;
        };
        if side_groups.len() != base_groups.len() {
            continue;
        }
        for (&from, &to) in base_groups.iter().zip(side_groups) {
            if gone.contains(&from) || new.contains(&to) {
                images.entry(from).or_default().insert(to);
                origins.entry(to).or_default().insert(from);
            }
        }
    }
    images
        .into_iter()
        .filter_map(|(from, to)| {
            let only = *to.iter().next()?;
            let one_to_one = to.len() == 1 && origins[&only].len() == 1;
            (one_to_one && gone.contains(&from) && new.contains(&only)).then_some((from, only))
        })
        .collect()
}

/// The base groups `side` gave a user or took one from: a line both have
/// that names another group on `side` (by content) than in the base.
fn regrouped(base: &ModuleText, side: &ModuleText) -> BTreeSet<u32> {
    let base_group_of: HashMap<&str, u32> = base
        .attrs
        .iter()
        .map(|(&n, content)| (content.as_str(), n))
        .collect();
    let side_uses = group_uses(side);
    let mut out = BTreeSet::new();
    for (anchor, base_groups) in group_uses(base) {
        let Some(side_groups) = side_uses.get(&anchor) else {
            continue;
        };
        for (&from, to) in base_groups.iter().zip(side_groups) {
            let to = side
                .attrs
                .get(to)
                .and_then(|content| base_group_of.get(content.as_str()));
            if to != Some(&from) {
                out.insert(from);
                out.extend(to);
            }
        }
    }
    out
}

/// Reads the groups each side edited in place as the base's groups, and
/// has `numbering` print each with its edited content. A group both sides
/// edited differently, or one the other side gave a user or took one from
/// (does the moved function get the new content?), is left alone: its
/// users then merge as lines.
pub(crate) fn read_in_place(
    base: (&ModuleText, &SideTables),
    sides: [(&ModuleText, &mut SideTables); 2],
    numbering: &mut Numbering,
) {
    let (base_module, base_tables) = base;
    let [(ours, ours_tables), (theirs, theirs_tables)] = sides;
    let ours_edits = edited_in_place(base_module, ours);
    let theirs_edits = edited_in_place(base_module, theirs);
    let disputed = |group: &u32, content: &str, other: &BTreeMap<u32, u32>, m: &ModuleText| {
        other.get(group).is_some_and(|n| m.attrs[n] != content)
    };
    for (edits, module, tables, other_edits, other_module, side) in [
        (
            &ours_edits,
            ours,
            ours_tables,
            &theirs_edits,
            theirs,
            Side::Ours,
        ),
        (
            &theirs_edits,
            theirs,
            theirs_tables,
            &ours_edits,
            ours,
            Side::Theirs,
        ),
    ] {
        if edits.is_empty() {
            continue;
        }
        let moved = regrouped(base_module, other_module);
        for (group, &edited) in edits {
            if moved.contains(group)
                || disputed(group, &module.attrs[&edited], other_edits, other_module)
            {
                continue;
            }
            let Some(key) = base_tables.attr_key(*group) else {
                continue;
            };
            tables.read_attr_as(edited, key);
            numbering.print_attr_from(key, side, edited);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::model::parse;

    fn module(text: &str) -> ModuleText {
        parse(text, "test").unwrap()
    }

    #[test]
    fn a_group_edited_where_every_user_stands_is_edited_in_place() {
        let base =
            module("declare void @f() #1\ndeclare void @g() #1\nattributes #1 = { nounwind }\n");
        let side = module(
            "declare void @f() #2\ndeclare void @g() #2\nattributes #2 = { nounwind cold }\n",
        );
        assert_eq!(edited_in_place(&base, &side), BTreeMap::from([(1, 2)]));
    }

    #[test]
    fn a_group_some_users_left_is_a_change_of_those_users() {
        let base =
            module("declare void @f() #1\ndeclare void @g() #1\nattributes #1 = { nounwind }\n");
        let side = module(
            "declare void @f() #2\ndeclare void @g() #1\nattributes #1 = { nounwind }\nattributes #2 = { cold }\n",
        );
        assert!(edited_in_place(&base, &side).is_empty());
    }

    #[test]
    fn a_group_the_other_side_moved_a_user_into_is_not_read_in_place() {
        let base = module(
            "declare void @f() #1\ndeclare void @g() #2\nattributes #1 = { nounwind }\nattributes #2 = { cold }\n",
        );
        let ours = module(
            "declare void @f() #1\ndeclare void @g() #3\nattributes #1 = { nounwind }\nattributes #3 = { cold noreturn }\n",
        );
        let theirs =
            module("declare void @f() #2\ndeclare void @g() #2\nattributes #2 = { cold }\n");
        assert_eq!(edited_in_place(&base, &ours), BTreeMap::from([(2, 3)]));
        assert_eq!(regrouped(&base, &theirs), BTreeSet::from([1, 2]));
        let base_tables = SideTables::new(Side::Base, &base);
        let mut ours_tables = SideTables::new(Side::Ours, &ours);
        let mut theirs_tables = SideTables::new(Side::Theirs, &theirs);
        read_in_place(
            (&base, &base_tables),
            [(&ours, &mut ours_tables), (&theirs, &mut theirs_tables)],
            &mut Numbering::default(),
        );
        assert_ne!(ours_tables.attr_key(3), base_tables.attr_key(2));
    }

    #[test]
    fn two_groups_merged_into_one_are_not_edits_in_place() {
        let base = module(
            "declare void @f() #1\ndeclare void @g() #2\nattributes #1 = { nounwind }\nattributes #2 = { cold }\n",
        );
        let side = module(
            "declare void @f() #3\ndeclare void @g() #3\nattributes #3 = { nounwind cold }\n",
        );
        assert!(edited_in_place(&base, &side).is_empty());
    }
}

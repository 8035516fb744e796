//! Content keys of metadata nodes, cycles included: a node's key is its
//! text with every reference read as the referenced node's key
//! ([`super::metadata`]). Debug info is full of cycles (a subprogram
//! retains its variables, each variable's scope is the subprogram), and a
//! key must not depend on where a walk entered one: a cycle (strongly
//! connected component) is keyed as a whole, by refining its members' texts
//! against each other until they stop telling more members apart.
//!
//! ```text
//! !1 = !DILocalVariable(name: "v", scope: !2)             cycle {!1, !2, !3}
//! !2 = distinct !DISubprogram(name: "f", retainedNodes: !3)
//! !3 = !{!1}
//! !5 = !DILocation(line: 4, scope: !2)                    text with !2's key
//! key(!1) = hash(cycle's key, !1's refined text)  whatever numbers or order
//! ```

use std::collections::BTreeMap;

use rustc_hash::FxHashMap as HashMap;

use crate::hash::{hash_str, StableHasher};
use crate::text::{rewrite, scan_refs, Ref};

/// Refinement rounds of one cycle at most (each round tells apart members
/// whose neighbours one step further differ).
const MAX_ROUNDS: usize = 64;

/// Adds the key of every node of `defs` to `keys`. Keys already there
/// (given: the identities of anchored twins) are taken as they are.
pub(crate) fn fill_keys<S: AsRef<str>>(defs: &BTreeMap<u32, S>, keys: &mut HashMap<u32, u64>) {
    let graph = Graph::new(defs, keys);
    for component in graph.components() {
        let nodes: Vec<u32> = component.iter().map(|&i| graph.nodes[i]).collect();
        if let [n] = nodes[..] {
            let k = hash_str(&outer_text(defs[&n].as_ref(), n, keys, &|_| None));
            keys.insert(n, k);
        } else {
            cycle_keys(defs, &nodes, keys);
        }
    }
}

/// The key of a reference to a node no definition names.
fn missing(n: u32) -> u64 {
    StableHasher::new().str("missing").u64(n as u64).finish()
}

/// `rhs` (node `n`'s) with `!self` for itself, `inside(x)` for a node of
/// its own cycle and every other reference as that node's key.
fn outer_text(
    rhs: &str,
    n: u32,
    keys: &HashMap<u32, u64>,
    inside: &dyn Fn(u32) -> Option<String>,
) -> String {
    rewrite(rhs, |r| match r {
        Ref::Meta(x) if x == n => Some("!self".into()),
        Ref::Meta(x) => Some(inside(x).unwrap_or_else(|| {
            let k = keys.get(&x).copied().unwrap_or_else(|| missing(x));
            format!("!k{k:x}")
        })),
        _ => None,
    })
}

/// Keys of the members of one cycle: each member's text with references
/// out of the cycle as keys and into it as `!in`, then refined by the
/// members it references, in order, until the number of distinct members
/// stops growing; the key joins the cycle's (its members', sorted) and the
/// member's own. Members nothing tells apart get one key (twins).
fn cycle_keys<S: AsRef<str>>(defs: &BTreeMap<u32, S>, nodes: &[u32], keys: &mut HashMap<u32, u64>) {
    let at: HashMap<u32, usize> = nodes.iter().enumerate().map(|(i, &n)| (n, i)).collect();
    let mut targets: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    let mut own: Vec<u64> = Vec::with_capacity(nodes.len());
    for (i, &n) in nodes.iter().enumerate() {
        let rhs = defs[&n].as_ref();
        scan_refs(rhs, |_, _, r| match r {
            Ref::Meta(x) if x != n => targets[i].extend(at.get(&x)),
            _ => {}
        });
        let inside = |x: u32| at.contains_key(&x).then(|| "!in".to_string());
        own.push(hash_str(&outer_text(rhs, n, keys, &inside)));
    }
    let mut h = own.clone();
    let mut distinct = count_distinct(&h);
    for _ in 0..MAX_ROUNDS.min(nodes.len()) {
        let next: Vec<u64> = (0..nodes.len())
            .map(|i| {
                let s = StableHasher::new().u64(own[i]).u64(h[i]);
                targets[i].iter().fold(s, |s, &j| s.u64(h[j])).finish()
            })
            .collect();
        let now = count_distinct(&next);
        h = next;
        if now == distinct {
            break;
        }
        distinct = now;
    }
    let mut sorted = h.clone();
    sorted.sort_unstable();
    let whole = sorted
        .iter()
        .fold(StableHasher::new().str("cycle"), |s, &k| s.u64(k))
        .finish();
    for (i, &n) in nodes.iter().enumerate() {
        keys.insert(n, StableHasher::new().u64(whole).u64(h[i]).finish());
    }
}

fn count_distinct(h: &[u64]) -> usize {
    let mut v = h.to_vec();
    v.sort_unstable();
    v.dedup();
    v.len()
}

/// The references between the nodes still to key.
struct Graph {
    /// Dense index → node number.
    nodes: Vec<u32>,
    /// Dense index → the dense indexes it references.
    edges: Vec<Vec<usize>>,
}

impl Graph {
    fn new<S: AsRef<str>>(defs: &BTreeMap<u32, S>, given: &HashMap<u32, u64>) -> Graph {
        let nodes: Vec<u32> = defs
            .keys()
            .copied()
            .filter(|n| !given.contains_key(n))
            .collect();
        let at: HashMap<u32, usize> = nodes.iter().enumerate().map(|(i, &n)| (n, i)).collect();
        let edges = nodes
            .iter()
            .map(|&n| {
                let mut out = Vec::new();
                scan_refs(defs[&n].as_ref(), |_, _, r| match r {
                    Ref::Meta(x) if x != n => out.extend(at.get(&x)),
                    _ => {}
                });
                out
            })
            .collect();
        Graph { nodes, edges }
    }

    /// Strongly connected components, each after every component it
    /// references (Tarjan's algorithm, without recursion).
    fn components(&self) -> Vec<Vec<usize>> {
        const NONE: usize = usize::MAX;
        let n = self.nodes.len();
        let (mut index, mut low) = (vec![NONE; n], vec![0; n]);
        let mut on_stack = vec![false; n];
        let (mut stack, mut out, mut next) = (Vec::new(), Vec::new(), 0);
        for root in 0..n {
            if index[root] != NONE {
                continue;
            }
            let mut work: Vec<(usize, usize)> = vec![(root, 0)];
            while let Some(&(v, e)) = work.last() {
                if e == 0 && index[v] == NONE {
                    (index[v], low[v]) = (next, next);
                    next += 1;
                    stack.push(v);
                    on_stack[v] = true;
                }
                if let Some(&w) = self.edges[v].get(e) {
                    work.last_mut().unwrap().1 += 1;
                    if index[w] == NONE {
                        work.push((w, 0));
                    } else if on_stack[w] {
                        low[v] = low[v].min(index[w]);
                    }
                    continue;
                }
                work.pop();
                if let Some(&(u, _)) = work.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut component = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        component.push(w);
                        if w == v {
                            break;
                        }
                    }
                    out.push(component);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(text: &str) -> HashMap<u32, u64> {
        let defs: BTreeMap<u32, &str> = text
            .lines()
            .filter_map(super::super::metadata::numbered_definition)
            .collect();
        let mut k = HashMap::default();
        fill_keys(&defs, &mut k);
        k
    }

    #[test]
    fn an_acyclic_node_is_keyed_by_its_text_with_its_references_keys() {
        let k = keys("!1 = !{!2}\n!2 = !{!\"x\"}\n");
        assert_eq!(k[&2], hash_str("!{!\"x\"}"));
        assert_eq!(k[&1], hash_str(&format!("!{{!k{:x}}}", k[&2])));
    }

    #[test]
    fn members_of_a_cycle_alike_but_for_their_neighbours_are_told_apart() {
        // !1 -> !2 -> !3 -> !1, where !2 and !3 read alike but !2 is next to "a".
        let k = keys("!1 = !{!\"a\", !2}\n!2 = !{!3}\n!3 = !{!1}\n");
        assert_ne!(k[&2], k[&3]);
        let moved = keys("!7 = !{!\"a\", !5}\n!5 = !{!6}\n!6 = !{!7}\n");
        assert_eq!((moved[&7], moved[&5], moved[&6]), (k[&1], k[&2], k[&3]));
    }
}

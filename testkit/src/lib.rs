//! Test support for irgit, kept out of what `cargo install` ships: the
//! adversaries of the canonical form and the merge.
//!
//! - [`perturb`]: semantics-preserving perturbations (`canon(π(m)) == canon(m)`);
//! - [`mutate`]: single semantic edits (locality, merge triples).

pub mod mutate;
pub mod perturb;

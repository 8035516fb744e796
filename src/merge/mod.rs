//! The three-way structured IR merge (owned by the merge work; stub until it lands).

pub mod cli;

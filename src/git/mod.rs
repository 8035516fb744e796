//! Everything git-specific: the textconv entry point (and, as they land,
//! install / doctor / hook / merge-driver entries).
//!
//! ```text
//! git diff ─► irgit textconv /tmp/XXXX_foo.ll ─► canonical text (or the bytes, unchanged)
//! ```

pub mod textconv;

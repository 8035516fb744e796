//! The canonical form's properties (`docs/architecture.md`, *Properties*),
//! checked on every module of the corpus (C programs at -O0/-O2, Csmith
//! programs, llvm-stress modules):
//!
//! - invariance: `canon(π(m)) == canon(m)` byte for byte for every kind of
//!   semantics-preserving perturbation π (`irgit_testkit::perturb`);
//! - idempotence: `canon(canon(m)) == canon(m)`;
//! - validity: the canonical text parses and verifies;
//! - meaning: the canonical IR, compiled by clang-22 and run, prints what the
//!   original prints;
//! - locality: a single semantic edit (`irgit_testkit::mutate`) changes few lines of
//!   the canonical text (median of max(removed, added) ≤ 3).
//!
//! Failing cases are written to `target/tmp/CANON_FAILURES.md` (module, perturbation,
//! first differing lines) and make the test fail; run with `--nocapture` to
//! see the summary tables.

mod common;

use std::collections::BTreeMap;
use std::time::Duration;

use common::{canon, corpus, first_diff, CorpusModule};
use irgit::ir::Session;
use irgit_testkit::perturb::Kind;

/// Seeds per perturbation kind.
const SEEDS: &[u64] = &[1, 2];

/// Maps `f` over the corpus on all cores, keeping the corpus order.
fn par_map<T: Send>(f: impl Fn(&CorpusModule) -> T + Sync) -> Vec<(&'static CorpusModule, T)> {
    let mods = corpus();
    mods.iter().zip(common::par_map(mods, f)).collect()
}

fn canon_or_panic(m: &CorpusModule) -> String {
    canon(&m.text, &m.name)
        .unwrap_or_else(|e| panic!("canon failed on corpus module {}: {e}", m.name))
}

#[test]
fn invariance_under_every_perturbation() {
    let results = par_map(|m| {
        let base = match canon(&m.text, &m.name) {
            Ok(c) => c,
            Err(e) => return vec![(Kind::All, 0, Err(format!("canon(m) failed: {e}")))],
        };
        let mut r = Vec::new();
        for kind in Kind::ALL {
            for &seed in SEEDS {
                let outcome = common::perturbed(&m.text, &m.name, kind, seed)
                    .map_err(|e| format!("perturbation failed: {e}"))
                    .and_then(|p| {
                        let c =
                            canon(&p, &m.name).map_err(|e| format!("canon(π(m)) failed: {e}"))?;
                        if c == base {
                            Ok(())
                        } else {
                            Err(first_diff(&base, &c, 24))
                        }
                    });
                r.push((kind, seed, outcome));
            }
        }
        r
    });
    let mut per_kind: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut failing_modules: BTreeMap<&str, usize> = BTreeMap::new();
    for (m, rs) in &results {
        for (kind, seed, outcome) in rs {
            let e = per_kind.entry(kind.name()).or_default();
            e.1 += 1;
            match outcome {
                Ok(()) => e.0 += 1,
                Err(d) => {
                    *failing_modules.entry(m.name.as_str()).or_default() += 1;
                    failures.push(format!(
                        "### {} — {} (seed {seed})\n\n```diff\n{d}\n```",
                        m.name,
                        kind.name()
                    ));
                }
            }
        }
    }
    let mut summary = format!(
        "invariance over {} modules, seeds {:?}:\n",
        results.len(),
        SEEDS
    );
    let (mut pass, mut total) = (0, 0);
    for (k, (p, t)) in &per_kind {
        summary += &format!(
            "  {k:28} {p:4}/{t:<4} {:6.1}%\n",
            100.0 * *p as f64 / *t as f64
        );
        pass += p;
        total += t;
    }
    summary += &format!(
        "  {:28} {pass:4}/{total:<4} {:6.1}%",
        "total",
        100.0 * pass as f64 / total as f64
    );
    println!("{summary}");
    // Keep the report readable: the first seed's case per (module, kind).
    let mut shown: BTreeMap<String, usize> = BTreeMap::new();
    let first_per_kind = failures.iter().filter(|f| {
        let key = f.split(" (seed").next().unwrap_or(f).to_string();
        let n = shown.entry(key).or_default();
        *n += 1;
        *n <= 1
    });
    let trimmed: Vec<String> = first_per_kind.cloned().collect();
    common::report_failures_with(
        "1-invariance",
        &format!("```text\n{summary}\n```\n(first failing seed per module and kind below)"),
        &trimmed,
    );
    assert!(
        failures.is_empty(),
        "invariance: {} of {total} (module, perturbation, seed) cases differ, in modules {:?}; \
         first differing lines in target/tmp/CANON_FAILURES.md. First case:\n{}",
        failures.len(),
        failing_modules,
        failures[0]
    );
}

#[test]
fn canonical_form_is_idempotent() {
    let results = par_map(|m| {
        let c1 = canon_or_panic(m);
        let c2 = canon(&c1, &m.name).map_err(|e| format!("canon(canon(m)) failed: {e}"))?;
        if c1 == c2 {
            Ok(())
        } else {
            Err(common::first_diff_labeled(
                &c1,
                &c2,
                24,
                "canon(m)",
                "canon(canon(m))",
            ))
        }
    });
    let failures: Vec<String> = results
        .iter()
        .filter_map(|(m, r)| {
            r.as_ref()
                .err()
                .map(|d| format!("### {}\n\n```diff\n{d}\n```", m.name))
        })
        .collect();
    println!(
        "idempotence: {}/{} modules",
        results.len() - failures.len(),
        results.len()
    );
    common::report_failures("2-idempotence", &failures);
    assert!(
        failures.is_empty(),
        "idempotence fails:\n{}",
        failures.join("\n")
    );
}

#[test]
fn canonical_form_parses_and_verifies() {
    let results = par_map(|m| {
        let c = canon_or_panic(m);
        let s = Session::new();
        let parsed = s
            .parse(c.as_bytes(), &format!("canon({})", m.name))
            .map_err(|e| e.to_string())?;
        parsed.verify().map_err(|e| e.to_string())?;
        // It really is LLVM IR that means something: same function count.
        let orig = s.parse(m.text.as_bytes(), &m.name).unwrap();
        let (a, b) = (orig.functions().len(), parsed.functions().len());
        if a != b {
            return Err(format!("{a} functions before, {b} after"));
        }
        Ok(())
    });
    let failures: Vec<String> = results
        .iter()
        .filter_map(|(m, r)| r.as_ref().err().map(|e| format!("### {}\n\n{e}", m.name)))
        .collect();
    println!(
        "validity: {}/{} modules",
        results.len() - failures.len(),
        results.len()
    );
    common::report_failures("3-validity", &failures);
    assert!(
        failures.is_empty(),
        "invalid canonical IR:\n{}",
        failures.join("\n")
    );
}

/// Compiles `text` and runs it; compares with the module's expected output.
fn same_behaviour(m: &CorpusModule, text: &str, what: &str) -> Result<(), String> {
    let dir = tempfile::tempdir().unwrap();
    let ll = dir.path().join("m.ll");
    let exe = dir.path().join("m.exe");
    std::fs::write(&ll, text).unwrap();
    common::compile_ll(&ll, &exe).map_err(|e| format!("{what}: {e}"))?;
    let got = common::run_exe(&exe, Duration::from_secs(20))
        .ok_or_else(|| format!("{what}: did not finish in 20 s"))?;
    let want = m.expected.as_ref().unwrap();
    if &got == want {
        Ok(())
    } else {
        Err(format!(
            "{what}: exit {:?} (want {:?}), output:\n{}",
            got.status,
            want.status,
            common::first_diff_labeled(&want.stdout, &got.stdout, 12, "expected", "got")
        ))
    }
}

#[test]
fn canonical_form_means_the_same() {
    let results = par_map(|m| {
        m.expected
            .as_ref()
            .map(|_| same_behaviour(m, &canon_or_panic(m), "canon(m)"))
    });
    let ran: Vec<_> = results.iter().filter(|(_, r)| r.is_some()).collect();
    let failures: Vec<String> = ran
        .iter()
        .filter_map(|(m, r)| {
            r.as_ref()
                .unwrap()
                .as_ref()
                .err()
                .map(|e| format!("### {}\n\n{e}", m.name))
        })
        .collect();
    println!(
        "meaning: {}/{} runnable modules print the same after canonicalization",
        ran.len() - failures.len(),
        ran.len()
    );
    assert!(ran.len() >= 25, "too few runnable modules: {}", ran.len());
    common::report_failures("4-meaning", &failures);
    assert!(
        failures.is_empty(),
        "meaning changed:\n{}",
        failures.join("\n")
    );
}

/// The perturbation generator itself must preserve meaning, or invariance
/// failures could be its fault rather than the canonical form's.
#[test]
fn perturbed_programs_mean_the_same() {
    let results = par_map(|m| {
        if m.origin != common::Origin::C {
            return None;
        }
        Some(
            common::perturbed(&m.text, &m.name, Kind::All, 7)
                .and_then(|p| same_behaviour(m, &p, "π_all(m)")),
        )
    });
    let ran: Vec<_> = results
        .iter()
        .filter_map(|(m, r)| r.as_ref().map(|r| (m, r)))
        .collect();
    let failures: Vec<String> = ran
        .iter()
        .filter_map(|(m, r)| r.as_ref().err().map(|e| format!("{}: {e}", m.name)))
        .collect();
    println!(
        "perturbation meaning: {}/{} C modules",
        ran.len() - failures.len(),
        ran.len()
    );
    assert!(ran.len() >= 24);
    assert!(
        failures.is_empty(),
        "perturbation changed meaning:\n{}",
        failures.join("\n")
    );
}

/// Perturbations really change the module (else invariance would be vacuous).
#[test]
fn perturbations_change_the_text() {
    let m = corpus()
        .iter()
        .find(|m| m.name == "c/switches.O2")
        .expect("corpus has c/switches.O2");
    let printed = |text: &str| Session::new().parse(text.as_bytes(), "m").unwrap().print();
    let base = printed(&m.text);
    for kind in Kind::ALL {
        if kind == Kind::RenumberPrivateConstants || kind == Kind::ShuffleGlobals {
            continue; // checked on a module with several strings below
        }
        let p = common::perturbed(&m.text, &m.name, kind, 3).unwrap();
        assert_ne!(p, base, "{} left {} unchanged", kind.name(), m.name);
    }
    let s = corpus()
        .iter()
        .find(|m| m.name == "c/strings.O0")
        .expect("corpus has c/strings.O0");
    let base = printed(&s.text);
    for kind in [Kind::RenumberPrivateConstants, Kind::ShuffleGlobals] {
        let p = common::perturbed(&s.text, &s.name, kind, 3).unwrap();
        assert_ne!(p, base, "{} left {} unchanged", kind.name(), s.name);
    }
}

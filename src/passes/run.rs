//! Running the pipelines on one module: `m`, every `p(m)` and the
//! requested `p(q(m))`, each verified, each printed in canonical form.
//!
//! Every run works on a copy of the parsed module; `p(q(m))` runs `p` on
//! `q(m)` as `q` left it (not on its canonical form, whose instruction
//! order could steer `p` differently).
//!
//! ```text
//! m ──parse, verify, (strip optnone)──► m ──copy──► sroa ──► sroa(m) ──copy──► instcombine ──► instcombine(sroa(m))
//!                                       └─copy──► instcombine ──► instcombine(m) ──copy──► sroa ──► sroa(instcombine(m))
//! each result ──canonical form──► text compared and diffed by `relations`
//! ```

use rustc_hash::FxHashMap as HashMap;

use crate::config::CanonOptions;
use crate::ir::passes::PassError;
use crate::ir::{IrModule, Session};

/// Why a module could not be analysed.
#[derive(Debug, thiserror::Error)]
pub enum PassesError {
    /// The input does not parse or verify.
    #[error("{0}")]
    Input(String),
    /// A pipeline is not valid, or produced invalid IR.
    #[error("{name}: {source}")]
    Pass { name: String, source: PassError },
    /// Every function is `optnone` and stripping was not asked for.
    #[error(
        "{name}: all {defined} defined functions are `optnone` (clang -O0 output): LLVM's passes \
         skip them, so every relation would read \"no effect\"; run with --strip-optnone to drop \
         optnone and noinline first"
    )]
    AllOptnone { name: String, defined: usize },
    /// irgit itself produced something LLVM rejects (a bug).
    #[error("{0} (an irgit bug; please report it)")]
    Internal(String),
}

/// The `optnone` functions of a module (clang -O0 marks every function).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Optnone {
    /// Function definitions carrying `optnone` in the input.
    pub functions: usize,
    /// All function definitions.
    pub defined: usize,
    /// Whether `optnone` and `noinline` were dropped before the passes ran.
    pub stripped: bool,
}

impl Optnone {
    /// Functions every pass skipped (0 when stripped).
    pub fn skipped(&self) -> usize {
        if self.stripped {
            0
        } else {
            self.functions
        }
    }
}

/// The canonical forms the relations are computed from.
#[derive(Debug, Clone)]
pub struct ModuleOutputs {
    /// Name of the module in messages.
    pub name: String,
    pub pipelines: Vec<String>,
    pub optnone: Optnone,
    /// `canon(m)`.
    pub base: String,
    /// `canon(p_i(m))`.
    pub single: Vec<String>,
    /// `(i, j) -> canon(p_i(p_j(m)))`.
    pub double: HashMap<(usize, usize), String>,
    /// The input, to run a pipeline again on part of it.
    pub bytes: Vec<u8>,
}

impl ModuleOutputs {
    /// `canon(p_i(m))` with pipeline `i` run on every function but the
    /// ones named in `skip` (`@name`, as the canonical text prints them).
    pub(crate) fn single_skipping(&self, i: usize, skip: &[String]) -> Result<String, PassesError> {
        let session = Session::new();
        let m = crate::canon::parse_verified(&session, &self.bytes, &self.name)
            .map_err(|e| PassesError::Input(e.to_string()))?;
        if self.optnone.stripped {
            m.strip_optnone();
        }
        let names: Vec<String> = skip.iter().map(|n| llvm_name(n)).collect();
        m.run_pipeline_skipping(&self.pipelines[i], &names)
            .map_err(|source| PassesError::Pass {
                name: self.name.clone(),
                source,
            })?;
        canonical(&m, &self.name)
    }
}

/// `@foo` -> `foo`, `@"a b"` -> `a b`.
fn llvm_name(printed: &str) -> String {
    let n = printed.strip_prefix('@').unwrap_or(printed);
    n.strip_prefix('"')
        .and_then(|x| x.strip_suffix('"'))
        .unwrap_or(n)
        .to_string()
}

fn canonical(m: &IrModule<'_>, name: &str) -> Result<String, PassesError> {
    crate::canon::canonical_text(m, &[], name, &CanonOptions::default())
        .map_err(|e| PassesError::Internal(e.to_string()))
}

/// Runs `pipelines` on the module in `bytes` and every ordered pair of
/// them listed in `pairs` (`(i, j)` computes `p_i(p_j(m))`).
/// `strip_optnone` drops `optnone`/`noinline` first; without it a module
/// whose functions are all `optnone` is refused, since no pass would run.
pub fn run_module(
    bytes: &[u8],
    name: &str,
    pipelines: &[String],
    pairs: &[(usize, usize)],
    strip_optnone: bool,
) -> Result<ModuleOutputs, PassesError> {
    let session = Session::new();
    let m = crate::canon::parse_verified(&session, bytes, name)
        .map_err(|e| PassesError::Input(e.to_string()))?;
    let (functions, defined) = m.optnone_functions();
    let optnone = Optnone {
        functions,
        defined,
        stripped: strip_optnone,
    };
    if strip_optnone {
        m.strip_optnone();
    } else if defined > 0 && functions == defined {
        return Err(PassesError::AllOptnone {
            name: name.to_string(),
            defined,
        });
    }
    let pass = |m: &IrModule<'_>, p: &str| {
        m.run_pipeline(p).map_err(|source| PassesError::Pass {
            name: name.to_string(),
            source,
        })
    };
    let mut once = Vec::with_capacity(pipelines.len());
    for p in pipelines {
        let x = m.duplicate();
        pass(&x, p)?;
        once.push(x);
    }
    let mut double = HashMap::default();
    for &(i, j) in pairs {
        let x = once[j].duplicate();
        pass(&x, &pipelines[i])?;
        double.insert((i, j), canonical(&x, name)?);
    }
    let single = once
        .iter()
        .map(|x| canonical(x, name))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ModuleOutputs {
        name: name.to_string(),
        pipelines: pipelines.to_vec(),
        optnone,
        base: canonical(&m, name)?,
        single,
        double,
        bytes: bytes.to_vec(),
    })
}

//! The tile IR optimizer: the canonicalizer of canonicalizers-and-folds.md and the passes
//! around it.
//!
//! * [`canonicalize`] runs the op table's folds and rewrite patterns ([`tilec_ir::ops::Rule`],
//!   attached to ops through [`tilec_ir::OpDef::canon`]) with a greedy worklist driver to a
//!   fixed point (with an iteration cap), then the recursive expression simplifier
//!   ([`simplify`]), repeating both until neither changes anything.
//! * [`passes`] has `cse` and `dce` and the pass pipeline (`-p canonicalize,cse,dce`, or
//!   MLIR's `--pass-pipeline=` spelling with anchors).
//! * [`fuse_fma`] and [`loop_split`] are NVIDIA's 13.3 `Transforms/` passes `fuse-fma`
//!   (not numeric-preserving) and `loop-split`.
//!
//! Every rewrite keeps the three contracts of the spec: token-ordered memory operations are
//! never reordered, duplicated or erased; float folds keep the declared rounding and
//! flush-to-zero and never fold NaN or infinity; region rewrites keep the verifier's branch
//! and yield types, so the output verifies. See docs/canonicalizer.md.

#![warn(missing_docs)]

pub mod debuginfo;
mod driver;
mod fold;
pub mod fuse_fma;
mod ifs;
pub mod ir;
pub mod loop_split;
pub mod passes;
pub mod rewriter;
mod select;
pub mod simplify;

pub use driver::canonicalize;
pub use passes::{
    Anchor, Pass, PassOptions, PipelineItem, Step, parse_pipeline, parse_pipeline_items,
    parse_pipeline_steps, run_pipeline, run_steps,
};
pub use tilec_ir::ops::Rule;
pub use tilec_verify::Personality;

use std::collections::BTreeMap;

/// Options of the canonicalizer.
#[derive(Clone, Debug)]
pub struct CanonOptions {
    /// Whose behaviour to follow where the spec and NVIDIA's tools differ.
    pub personality: Personality,
    /// Most rounds of the greedy driver before it gives up with a warning.
    pub max_iterations: u32,
    /// If set, only these rules run (the clean-ups always run).
    pub enabled: Option<Vec<Rule>>,
    /// Rules that do not run.
    pub disabled: Vec<Rule>,
    /// Run the recursive expression simplifier after the greedy driver (in the spec's
    /// personality only: in NVIDIA's tools it is private to lowering, and `cuda-tile-opt
    /// --canonicalize` does not run it).
    pub simplify: bool,
    /// In the cuda-tile-opt personality, follow NVIDIA's release `13.N` where its
    /// canonicalizations changed; `None`: 13.3.
    pub release_minor: Option<u8>,
}

impl Default for CanonOptions {
    fn default() -> Self {
        CanonOptions {
            personality: Personality::Spec,
            max_iterations: 10,
            enabled: None,
            disabled: Vec::new(),
            simplify: true,
            release_minor: None,
        }
    }
}

impl CanonOptions {
    /// True if the expression simplifier runs under these options.
    pub fn runs_simplifier(&self) -> bool {
        self.simplify && self.personality == Personality::Spec
    }

    /// True if `rule` runs under these options.
    pub fn runs(&self, rule: Rule) -> bool {
        if rule.compat_only() && self.personality != Personality::CudaTileOpt {
            return false;
        }
        if self.disabled.contains(&rule) {
            return false;
        }
        self.enabled.as_ref().is_none_or(|e| e.contains(&rule))
    }
}

/// How often each rule and clean-up fired, by name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Counts by rule name (rules of [`Rule`] plus `EraseDeadOps`, `Simplify*`, `cse`, ...).
    pub counts: BTreeMap<&'static str, u64>,
    /// Rounds of the greedy driver run by the last canonicalization.
    pub iterations: u32,
}

impl Stats {
    /// Adds one to a counter.
    pub fn bump(&mut self, name: &'static str) {
        *self.counts.entry(name).or_default() += 1;
    }

    /// The count of a counter.
    pub fn get(&self, name: &str) -> u64 {
        self.counts.get(name).copied().unwrap_or(0)
    }

    /// A table for `--stats`: one `name: count` line per counter that fired.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let width = self.counts.keys().map(|k| k.len()).max().unwrap_or(0);
        for (k, v) in &self.counts {
            out.push_str(&format!("  {k:<width$}  {v}\n"));
        }
        out
    }
}

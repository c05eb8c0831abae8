//! The pass pipeline (`tilec opt -p canonicalize,cse,dce`, or MLIR's
//! `--pass-pipeline='builtin.module(cuda_tile.module(cuda_tile.entry(loop-split)))'`) and
//! the `cse` and `dce` passes.

use crate::{CanonOptions, Stats, ir};
use tilec_diag::Diagnostic;
use tilec_ir::ops::Traits;
use tilec_ir::util::FxHashMap;
use tilec_ir::{Attr, Module, Op, Opcode, Type, Value};

/// A pass.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Pass {
    /// The canonicalizer.
    Canonicalize,
    /// Common subexpression elimination of pure, region-free ops.
    Cse,
    /// Erasure of unused pure ops (and of `if`/`for` ops with nothing observable inside).
    Dce,
    /// NVIDIA's `fuse-fma`: `(a*b)+c` and `(a*b)-c` become `fma` (not numeric-preserving:
    /// one rounding instead of two). See [`crate::fuse_fma`].
    FuseFma,
    /// NVIDIA's `loop-split`: a `for` loop with an `if` on `iv <cmp> invariant` becomes two
    /// loops without the `if`. See [`crate::loop_split`].
    LoopSplit {
        /// The `split-threshold` option (default 1: split whatever the branches hold).
        split_threshold: i32,
    },
    /// NVIDIA's `synthesize-debug-info-scopes` (a module pass): a debug-info subprogram for
    /// every function and a `di_loc` for every op. See [`crate::debuginfo`].
    SynthesizeDebugInfoScopes,
}

impl Pass {
    /// Every pass (with default options).
    pub const ALL: &'static [Pass] = &[
        Pass::Canonicalize,
        Pass::Cse,
        Pass::Dce,
        Pass::FuseFma,
        Pass::LoopSplit { split_threshold: 1 },
        Pass::SynthesizeDebugInfoScopes,
    ];

    /// The pass's name in pipelines.
    pub fn name(self) -> &'static str {
        match self {
            Pass::Canonicalize => "canonicalize",
            Pass::Cse => "cse",
            Pass::Dce => "dce",
            Pass::FuseFma => "fuse-fma",
            Pass::LoopSplit { .. } => "loop-split",
            Pass::SynthesizeDebugInfoScopes => "synthesize-debug-info-scopes",
        }
    }

    /// The pass named `name` with the options `options` (`key=value` pairs, as written
    /// in braces after the name).
    pub fn from_name(name: &str, options: &[(String, String)]) -> Result<Pass, String> {
        let mut pass = Pass::ALL
            .iter()
            .copied()
            .find(|p| p.name() == name)
            .ok_or_else(|| {
                let known: Vec<&str> = Pass::ALL.iter().map(|p| p.name()).collect();
                format!("unknown pass '{name}' (known passes: {})", known.join(", "))
            })?;
        for (k, v) in options {
            match (&mut pass, k.as_str()) {
                (Pass::LoopSplit { split_threshold }, "split-threshold") => {
                    *split_threshold = v.parse().map_err(|_| {
                        format!("invalid value '{v}' for option 'split-threshold' of pass 'loop-split' (expected an integer)")
                    })?;
                }
                _ => {
                    return Err(format!("pass '{name}' has no option '{k}'"));
                }
            }
        }
        Ok(pass)
    }
}

/// The functions a pass runs on (the op it is nested under in a pipeline).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Anchor {
    /// Every function (`entry` and `testing$func`): a pass at the top level or under
    /// `builtin.module` or `cuda_tile.module`.
    #[default]
    Functions,
    /// `entry` ops only (`cuda_tile.entry(...)`).
    Entries,
    /// `testing$func` ops only (`cuda_tile.testing$func(...)`).
    TestingFunctions,
}

impl Anchor {
    /// True if the pass runs on function `op`.
    pub fn includes(self, m: &Module, op: Op) -> bool {
        match self {
            Anchor::Functions => true,
            Anchor::Entries => m.opcode(op) == Opcode::Entry,
            Anchor::TestingFunctions => m.opcode(op) == Opcode::TestingFunc,
        }
    }
}

/// One entry of a parsed pipeline: a pass name, its options and where it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PipelineItem {
    /// The pass name as written.
    pub name: String,
    /// `key=value` options from `{...}`.
    pub options: Vec<(String, String)>,
    /// The functions it runs on.
    pub anchor: Anchor,
}

/// A pass and the functions it runs on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The pass.
    pub pass: Pass,
    /// Where it runs.
    pub anchor: Anchor,
}

/// Parses pipeline text without resolving pass names: a comma-separated list of passes
/// (`canonicalize,cse`), each optionally with options (`loop-split{split-threshold=2}`),
/// and of op names with a nested list (MLIR's `--pass-pipeline` spelling:
/// `builtin.module(cuda_tile.module(cuda_tile.entry(loop-split)))`). The op names are
/// `builtin.module`, `cuda_tile.module` (each at most once, in that order),
/// `cuda_tile.entry` and `cuda_tile.testing$func` (innermost).
pub fn parse_pipeline_items(text: &str) -> Result<Vec<PipelineItem>, String> {
    let mut p = PipelineParser {
        s: text.as_bytes(),
        text,
        i: 0,
        out: Vec::new(),
    };
    p.list(0, Anchor::Functions)?;
    p.ws();
    if p.i != p.s.len() {
        return Err(p.error("unexpected text"));
    }
    Ok(p.out)
}

/// Parses a pipeline (see [`parse_pipeline_items`]) into passes with their anchors.
pub fn parse_pipeline_steps(text: &str) -> Result<Vec<Step>, String> {
    parse_pipeline_items(text)?
        .into_iter()
        .map(|it| {
            Ok(Step {
                pass: Pass::from_name(&it.name, &it.options)?,
                anchor: it.anchor,
            })
        })
        .collect()
}

/// Parses a comma-separated pipeline (`canonicalize,cse,dce`); see [`parse_pipeline_steps`]
/// for the full syntax (this drops the anchors).
pub fn parse_pipeline(text: &str) -> Result<Vec<Pass>, String> {
    Ok(parse_pipeline_steps(text)?
        .into_iter()
        .map(|s| s.pass)
        .collect())
}

struct PipelineParser<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
    out: Vec<PipelineItem>,
}

/// How deep each op name nests (a name may only appear inside shallower ones).
fn op_level(name: &str) -> Option<(u8, Option<Anchor>)> {
    match name {
        "builtin.module" => Some((1, None)),
        "cuda_tile.module" => Some((2, None)),
        "cuda_tile.entry" => Some((3, Some(Anchor::Entries))),
        "cuda_tile.testing$func" => Some((3, Some(Anchor::TestingFunctions))),
        _ => None,
    }
}

impl PipelineParser<'_> {
    fn error(&self, what: &str) -> String {
        format!(
            "invalid pass pipeline '{}': {what} at offset {}",
            self.text, self.i
        )
    }

    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn name(&mut self) -> Result<String, String> {
        self.ws();
        let start = self.i;
        while self.i < self.s.len()
            && (self.s[self.i].is_ascii_alphanumeric() || b"._-$".contains(&self.s[self.i]))
        {
            self.i += 1;
        }
        if self.i == start {
            return Err(self.error("expected a pass or operation name"));
        }
        Ok(self.text[start..self.i].to_string())
    }

    /// A list of elements inside an op at nesting `level` (0: the top).
    fn list(&mut self, level: u8, anchor: Anchor) -> Result<(), String> {
        self.ws();
        // An empty list: `builtin.module()` or an empty pipeline.
        if self.i == self.s.len() || self.s[self.i] == b')' {
            return Ok(());
        }
        loop {
            self.element(level, anchor)?;
            if !self.eat(b',') {
                return Ok(());
            }
        }
    }

    fn element(&mut self, level: u8, anchor: Anchor) -> Result<(), String> {
        let name = self.name()?;
        if self.eat(b'(') {
            let Some((l, a)) = op_level(&name) else {
                return Err(self.error(&format!(
                    "'{name}' is not an operation passes can be nested under (expected builtin.module, cuda_tile.module, cuda_tile.entry or cuda_tile.testing$func)"
                )));
            };
            if l <= level {
                return Err(self.error(&format!("'{name}' cannot be nested here")));
            }
            self.list(l, a.unwrap_or(anchor))?;
            if !self.eat(b')') {
                return Err(self.error("expected ')'"));
            }
            return Ok(());
        }
        if op_level(&name).is_some() {
            return Err(self.error(&format!("expected '(' after '{name}'")));
        }
        let mut options = Vec::new();
        if self.eat(b'{') {
            loop {
                self.ws();
                if self.eat(b'}') {
                    break;
                }
                let key = self.name()?;
                if !self.eat(b'=') {
                    return Err(self.error(&format!("expected '=' after option '{key}'")));
                }
                self.ws();
                let start = self.i;
                while self.i < self.s.len()
                    && !self.s[self.i].is_ascii_whitespace()
                    && !b"{}(),".contains(&self.s[self.i])
                {
                    self.i += 1;
                }
                if self.i == start {
                    return Err(self.error(&format!("expected a value for option '{key}'")));
                }
                options.push((key, self.text[start..self.i].to_string()));
                if self.i == self.s.len() {
                    return Err(self.error("expected '}'"));
                }
            }
        }
        self.out.push(PipelineItem {
            name,
            options,
            anchor,
        });
        Ok(())
    }
}

/// Options of a pipeline run.
#[derive(Clone, Debug, Default)]
pub struct PassOptions {
    /// Canonicalizer options.
    pub canon: CanonOptions,
    /// Verify after every pass.
    pub verify_each: bool,
}

/// Runs `passes` in order on every function. Returns the diagnostics (warnings; with
/// `verify_each`, an error naming the pass that broke the IR, followed by the verifier's
/// diagnostics, after which no further pass runs).
pub fn run_pipeline(
    m: &mut Module,
    passes: &[Pass],
    opts: &PassOptions,
    stats: &mut Stats,
) -> Vec<Diagnostic> {
    let steps: Vec<Step> = passes
        .iter()
        .map(|&pass| Step {
            pass,
            anchor: Anchor::Functions,
        })
        .collect();
    run_steps(m, &steps, opts, stats)
}

/// Runs `steps` in order, each on the functions its anchor names (see [`run_pipeline`]).
pub fn run_steps(
    m: &mut Module,
    steps: &[Step],
    opts: &PassOptions,
    stats: &mut Stats,
) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for step in steps {
        let funcs: Vec<Op> = crate::driver::functions(m)
            .into_iter()
            .filter(|f| step.anchor.includes(m, *f))
            .collect();
        let p = step.pass;
        match p {
            Pass::Canonicalize => diags.extend(crate::driver::run_greedy(
                m,
                &funcs,
                &opts.canon,
                stats,
                None,
            )),
            Pass::Cse => cse_functions(m, &funcs, stats),
            Pass::Dce => dce_functions(m, &funcs, stats),
            Pass::FuseFma => diags.extend(crate::fuse_fma::run(m, &funcs, &opts.canon, stats)),
            Pass::LoopSplit { split_threshold } => {
                let n = crate::loop_split::run(m, &funcs, split_threshold);
                for _ in 0..n {
                    stats.bump("LoopSplit");
                }
            }
            Pass::SynthesizeDebugInfoScopes => crate::debuginfo::synthesize_scopes(m),
        }
        if opts.verify_each {
            let vopts = tilec_verify::VerifyOptions {
                personality: opts.canon.personality,
                ..Default::default()
            };
            let found = tilec_verify::verify(m, &vopts);
            if found.iter().any(Diagnostic::is_error) {
                let mut d = Diagnostic::error(
                    tilec_diag::codes::OPT_INVALID_IR,
                    format!("pass '{}' produced invalid IR", p.name()),
                );
                if let Some(file) = m.file() {
                    d = d.at(tilec_diag::Location::new(file, tilec_diag::Span::new(0, 0)));
                }
                diags.push(d);
                diags.extend(found);
                break;
            }
        }
    }
    diags
}

/// The identity of a pure op for CSE.
#[derive(PartialEq, Eq, Hash)]
struct Key {
    opcode: Opcode,
    operands: Vec<Value>,
    attrs: Vec<Option<Attr>>,
    results: Vec<Type>,
}

/// Common subexpression elimination: a pure, region-free op equal to one that dominates it
/// (same opcode, operands, attributes and result types) is replaced by it. Scopes follow
/// regions: an op can reuse an equal op of an enclosing block, never of a sibling region or
/// of another function.
pub fn cse(m: &mut Module, stats: &mut Stats) {
    let funcs = crate::driver::functions(m);
    cse_functions(m, &funcs, stats);
}

fn cse_functions(m: &mut Module, funcs: &[Op], stats: &mut Stats) {
    for &f in funcs {
        let mut scopes: Vec<FxHashMap<Key, Op>> = Vec::new();
        cse_op_regions(m, f, &mut scopes, stats);
    }
}

fn cse_op_regions(m: &mut Module, op: Op, scopes: &mut Vec<FxHashMap<Key, Op>>, stats: &mut Stats) {
    for r in m.regions(op).to_vec() {
        for b in m.region_blocks(r).to_vec() {
            scopes.push(FxHashMap::default());
            let mut cur = m.first_op(b);
            while let Some(o) = cur {
                cur = m.next_op(o);
                if !m.regions(o).is_empty() {
                    if !m.def(o).has(Traits::ISOLATED_FROM_ABOVE) {
                        cse_op_regions(m, o, scopes, stats);
                    }
                    continue;
                }
                if !m.def(o).has(Traits::PURE)
                    || m.num_results(o) == 0
                    || m.opcode(o) == Opcode::Unregistered
                    || !m.extra_attrs(o).is_empty()
                {
                    continue;
                }
                let nattrs = m.def(o).attrs.len();
                let key = Key {
                    opcode: m.opcode(o),
                    operands: m.operand_vec(o),
                    attrs: (0..nattrs).map(|i| m.attr(o, i)).collect(),
                    results: m.results(o).map(|r| m.value_type(r)).collect(),
                };
                if let Some(&prev) = scopes.iter().rev().find_map(|s| s.get(&key)) {
                    let results: Vec<Value> = m.results(o).collect();
                    for (i, r) in results.into_iter().enumerate() {
                        let to = m.result(prev, i);
                        m.replace_all_uses(r, to);
                    }
                    m.erase_op(o);
                    stats.bump("cse");
                } else {
                    scopes.last_mut().expect("pushed").insert(key, o);
                }
            }
            scopes.pop();
        }
    }
}

/// Dead code elimination: erases unused pure ops (and `if`/`for` ops with nothing observable
/// inside) until none is left. Token-ordered and other side-effecting ops always stay.
pub fn dce(m: &mut Module, stats: &mut Stats) {
    let funcs = crate::driver::functions(m);
    dce_functions(m, &funcs, stats);
}

fn dce_functions(m: &mut Module, funcs: &[Op], stats: &mut Stats) {
    for &f in funcs {
        loop {
            let mut ops = Vec::new();
            m.walk_op(f, &mut |o| ops.push(o));
            let mut erased = false;
            for o in ops.into_iter().rev() {
                if m.is_attached(o) && ir::is_trivially_dead(m, o) {
                    m.erase_op(o);
                    stats.bump("dce");
                    erased = true;
                }
            }
            if !erased {
                break;
            }
        }
    }
}

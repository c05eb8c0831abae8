//! The pass pipeline (`tilec opt -p canonicalize,cse,dce`) and the `cse` and `dce` passes.

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
}

impl Pass {
    /// Every pass.
    pub const ALL: &'static [Pass] = &[Pass::Canonicalize, Pass::Cse, Pass::Dce];

    /// The pass's name in pipelines.
    pub fn name(self) -> &'static str {
        match self {
            Pass::Canonicalize => "canonicalize",
            Pass::Cse => "cse",
            Pass::Dce => "dce",
        }
    }
}

/// Parses a comma-separated pipeline (`canonicalize,cse,dce`).
pub fn parse_pipeline(text: &str) -> Result<Vec<Pass>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|name| {
            Pass::ALL
                .iter()
                .copied()
                .find(|p| p.name() == name)
                .ok_or_else(|| {
                    let known: Vec<&str> = Pass::ALL.iter().map(|p| p.name()).collect();
                    format!("unknown pass '{name}' (known passes: {})", known.join(", "))
                })
        })
        .collect()
}

/// Options of a pipeline run.
#[derive(Clone, Debug, Default)]
pub struct PassOptions {
    /// Canonicalizer options.
    pub canon: CanonOptions,
    /// Verify after every pass.
    pub verify_each: bool,
}

/// Runs `passes` in order. Returns the diagnostics (warnings; with `verify_each`, an error
/// naming the pass that broke the IR, followed by the verifier's diagnostics, after which
/// no further pass runs).
pub fn run_pipeline(
    m: &mut Module,
    passes: &[Pass],
    opts: &PassOptions,
    stats: &mut Stats,
) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for &p in passes {
        match p {
            Pass::Canonicalize => diags.extend(crate::canonicalize(m, &opts.canon, stats)),
            Pass::Cse => cse(m, stats),
            Pass::Dce => dce(m, stats),
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
    for f in funcs {
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
    for f in funcs {
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

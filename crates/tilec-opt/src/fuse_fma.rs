//! The `fuse-fma` pass (NVIDIA's `FuseFMAPass`, CUDA Tile IR 13.3 `Transforms/`):
//! `addf(mulf(a, b), c)` becomes `fma(a, b, c)` and `subf(mulf(a, b), c)` becomes
//! `fma(a, b, negf(c))`.
//!
//! **Not numeric-preserving**: `mulf` then `addf` rounds twice, `fma` once, so results may
//! differ in the last bits (and where the product overflows or is flushed to zero, by
//! more). The pass only runs when asked for (`-p fuse-fma`), never in `canonicalize` or
//! the compile pipeline.
//!
//! Conditions, as NVIDIA's: the multiplication is the left operand of the `addf`/`subf`
//! (for `addf`, NVIDIA's canonicalization [`Rule::AddFMulLhs`] moves a `mulf` on the right
//! to the left first, so both orders fuse), its result has exactly one use, and both ops
//! have the same rounding mode and the same `flush_to_zero`; the `fma` takes them. The
//! addend can be any value of the result type (a `broadcast` or `reshape` of a smaller
//! one included: it is used as it is).
//!
//! Like NVIDIA's pass, which applies its patterns with MLIR's greedy rewrite driver, it
//! runs them in tilec's greedy driver: dead ops are erased, constants are uniqued and
//! hoisted, and the folds of the ops that have folders in NVIDIA's dialect (`constant`,
//! `if`, `select`, `assume`) run too.

use crate::rewriter::Rewriter;
use crate::{CanonOptions, Stats, ir};
use tilec_diag::Diagnostic;
use tilec_ir::attrs::RoundingMode;
use tilec_ir::ops::Rule;
use tilec_ir::{EnumKind, InsertPoint, Module, Op, OpSpec, Opcode};
use tilec_verify::Personality;

/// The canonicalizer rules that NVIDIA's greedy driver applies along with the fusion
/// patterns: the folds of the ops NVIDIA's dialect gives folders, and `addf`'s
/// canonicalization pattern.
const RULES: &[Rule] = &[
    Rule::FoldConstant,
    Rule::FoldIfInversion,
    Rule::FoldSelect,
    Rule::FoldRepeatedAssume,
    Rule::AddFMulLhs,
];

/// Runs `fuse-fma` on the functions `funcs` of `m`.
pub(crate) fn run(
    m: &mut Module,
    funcs: &[Op],
    canon: &CanonOptions,
    stats: &mut Stats,
) -> Vec<Diagnostic> {
    let opts = CanonOptions {
        personality: Personality::CudaTileOpt,
        max_iterations: canon.max_iterations,
        enabled: Some(RULES.to_vec()),
        disabled: Vec::new(),
        simplify: false,
        release_minor: canon.release_minor,
    };
    crate::driver::run_greedy(m, funcs, &opts, stats, Some(&fuse))
}

/// The fusion patterns (`MulAddPattern`, `MulSubPattern`) on one op.
fn fuse(rw: &mut Rewriter<'_>, op: Op) -> bool {
    let opcode = rw.m.opcode(op);
    let (sub, name) = if opcode == Opcode::AddF {
        (false, "FuseMulAdd")
    } else if opcode == Opcode::SubF {
        (true, "FuseMulSub")
    } else {
        return false;
    };
    let fired = fuse_one(rw, op, sub);
    if fired {
        rw.stats.bump(name);
    }
    fired
}

/// The rounding mode of a float op (slot 0; absent is `nearest_even`).
fn rounding(m: &Module, op: Op) -> Option<u8> {
    match m.attr(op, 0) {
        None => Some(RoundingMode::NearestEven as u8),
        Some(a) => m.ctx.attrs.get_enum(a, EnumKind::RoundingMode),
    }
}

/// `addf`/`subf` `op` whose left operand is a single-use `mulf` with the same rounding
/// mode and flush-to-zero becomes an `fma` (with `negf` of the right operand for `subf`).
fn fuse_one(rw: &mut Rewriter<'_>, op: Op, sub: bool) -> bool {
    let m = &*rw.m;
    let (lhs, rhs) = (m.operand(op, 0), m.operand(op, 1));
    let Some(mul) = ir::def_with(m, lhs, Opcode::MulF) else {
        return false;
    };
    if m.num_uses(lhs) != 1 {
        return false;
    }
    let ftz = m.attr(op, 1).is_some();
    if ftz != m.attr(mul, 1).is_some()
        || rounding(m, op).is_none()
        || rounding(m, op) != rounding(m, mul)
    {
        return false;
    }
    let (a, b) = (m.operand(mul, 0), m.operand(mul, 1));
    let ty = m.value_type(m.result(op, 0));
    let attrs = [m.attr(op, 0), m.attr(op, 1)];
    let c = if sub {
        rw.create_simple(Opcode::NegF, &[rhs], rw.m.value_type(rhs), op)
    } else {
        rhs
    };
    let fma = rw.create(
        &OpSpec {
            opcode: Opcode::Fma,
            operands: &[a, b, c],
            results: &[ty],
            attrs: &attrs,
            regions: 0,
        },
        InsertPoint::Before(op),
        op,
    );
    let r = rw.m.result(fma, 0);
    rw.replace_op(op, &[r]);
    if rw.m.is_attached(mul) && !rw.m.has_uses(rw.m.result(mul, 0)) {
        rw.erase(mul);
    }
    true
}

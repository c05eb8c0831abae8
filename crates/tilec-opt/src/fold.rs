//! The spec's fold surface (constant, addf, if inversion, select) and NVIDIA's addf operand
//! order. A fold replaces an op by existing values or constants, or changes it in place.

use crate::ir;
use crate::rewriter::Rewriter;
use crate::select;
use tilec_ir::attrs::RoundingMode;
use tilec_ir::float::{self, Round};
use tilec_ir::{EnumKind, Op, Opcode, TypeData};

/// Largest constant (in elements) that folds produce; bigger ones stay as computations.
const MAX_FOLD_ELEMENTS: usize = 1 << 16;

/// `addf` of two finite constants: the sum in the result's element type with the declared
/// rounding mode and flush-to-zero, computed exactly and rounded once. Nothing is folded
/// when an element is NaN or infinite, when a sum overflows, or for rounding modes other
/// than the four IEEE directions.
pub(crate) fn fold_addf(rw: &mut Rewriter<'_>, op: Op) -> bool {
    let m = &*rw.m;
    let (Some(a), Some(b)) = (
        ir::dense(m, m.operand(op, 0)),
        ir::dense(m, m.operand(op, 1)),
    ) else {
        return false;
    };
    let ty = m.value_type(m.result(op, 0));
    let elem = m.ctx.types.element_type(ty);
    let TypeData::Float(kind) = m.ctx.types.get(elem) else {
        return false;
    };
    let kind = *kind;
    let mode =
        ir::enum_case(m, op, 0, EnumKind::RoundingMode).map_or(Some(Round::NearestEven), |c| {
            match RoundingMode::from_index(c) {
                Some(RoundingMode::NearestEven) => Some(Round::NearestEven),
                Some(RoundingMode::Zero) => Some(Round::TowardZero),
                Some(RoundingMode::NegativeInf) => Some(Round::TowardNegative),
                Some(RoundingMode::PositiveInf) => Some(Round::TowardPositive),
                _ => None,
            }
        });
    let Some(mode) = mode else {
        return false;
    };
    let ftz = m.attr(op, 1).is_some();
    let n = if a.splat && b.splat {
        1
    } else {
        let shape = m.ctx.types.shape(ty);
        let n: i64 = shape.iter().product();
        if n <= 0 || n as usize > MAX_FOLD_ELEMENTS {
            return false;
        }
        n as usize
    };
    let get = |d: &tilec_ir::attrs::DenseElements, i: usize| {
        if d.splat { d.values[0] } else { d.values[i] }
    };
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        match float::add(kind, get(a, i), get(b, i), mode, ftz) {
            Some(x) => out.push(x),
            None => return false,
        }
    }
    let c = rw.constant_bits(ty, out, op);
    rw.replace_op(op, &[c]);
    true
}

/// `select` of a constant condition (a mask) between two constants: the constant taking
/// each element from one side or the other.
fn fold_select_of_constants(rw: &mut Rewriter<'_>, op: Op) -> bool {
    let m = &*rw.m;
    let (Some(c), Some(t), Some(f)) = (
        ir::dense(m, m.operand(op, 0)),
        ir::dense(m, m.operand(op, 1)),
        ir::dense(m, m.operand(op, 2)),
    ) else {
        return false;
    };
    let ty = m.value_type(m.result(op, 0));
    let n: i64 = m.ctx.types.shape(ty).iter().product();
    if n <= 0 || n as usize > MAX_FOLD_ELEMENTS {
        return false;
    }
    let get = |d: &tilec_ir::attrs::DenseElements, i: usize| {
        if d.splat { d.values[0] } else { d.values[i] }
    };
    let out: Vec<u64> = (0..n as usize)
        .map(|i| {
            if get(c, i) & 1 != 0 {
                get(t, i)
            } else {
                get(f, i)
            }
        })
        .collect();
    let v = rw.constant_bits(ty, out, op);
    rw.replace_op(op, &[v]);
    true
}

/// `assume P, x` where `x` is `assume P, y` already: `x`.
pub(crate) fn fold_repeated_assume(rw: &mut Rewriter<'_>, op: Op) -> bool {
    let m = &*rw.m;
    if m.num_results(op) != 1 {
        return false;
    }
    let v = m.operand(op, 0);
    let Some(inner) = ir::def_with(m, v, Opcode::Assume) else {
        return false;
    };
    let (p, q) = (m.attr(op, 0), m.attr(inner, 0));
    if p.is_none() || p != q {
        return false;
    }
    rw.replace_op(op, &[v]);
    true
}

/// `if (xori(c, true)) A else B` becomes `if (c) B else A` when the else region exists.
pub(crate) fn fold_if_negated_condition(rw: &mut Rewriter<'_>, op: Op) -> bool {
    let m = &*rw.m;
    let Some(c) = ir::negated(m, m.operand(op, 0)) else {
        return false;
    };
    if ir::region_block(m, op, 1).is_none() {
        return false;
    }
    rw.set_operand(op, 0, c);
    rw.m.swap_regions(op, 0, 1);
    rw.modified(op);
    true
}

/// The select folds, in the spec's order: same arms, constant condition, `i1` identity,
/// compare, inverted condition (in place), nested select on the same condition (in place).
/// The steps the select patterns also do are those patterns' code.
pub(crate) fn fold_select(rw: &mut Rewriter<'_>, op: Op) -> bool {
    if select::replace_identical_select(rw, op) || select::replace_constant_select(rw, op) {
        return true;
    }
    if fold_select_of_constants(rw, op) {
        return true;
    }
    let m = &*rw.m;
    let (c, t, f) = (m.operand(op, 0), m.operand(op, 1), m.operand(op, 2));
    if ir::is_i1(m, t) && ir::is_bool_const(m, t, true) && ir::is_bool_const(m, f, false) {
        rw.replace_op(op, &[c]);
        return true;
    }
    if let Some(v) = fold_select_with_compare(rw, c, t, f) {
        rw.replace_op(op, &[v]);
        return true;
    }
    if select::inverse_condition_select(rw, op) {
        return true;
    }
    let m = &*rw.m;
    // select(c, select(c, a, b), d) -> select(c, a, d); select(c, a, select(c, b, d)) -> select(c, a, d).
    if let Some(inner) = ir::def_with(m, t, Opcode::Select)
        && m.operand(inner, 0) == c
    {
        let a = m.operand(inner, 1);
        rw.set_operand(op, 1, a);
        return true;
    }
    let m = &*rw.m;
    if let Some(inner) = ir::def_with(m, f, Opcode::Select)
        && m.operand(inner, 0) == c
    {
        let d = m.operand(inner, 2);
        rw.set_operand(op, 2, d);
        return true;
    }
    false
}

/// `select(x == y, x, y)` is `y` and `select(x != y, x, y)` is `x` (integers only: for floats
/// `-0 == +0` makes the arms distinguishable).
fn fold_select_with_compare(
    rw: &Rewriter<'_>,
    c: tilec_ir::Value,
    t: tilec_ir::Value,
    f: tilec_ir::Value,
) -> Option<tilec_ir::Value> {
    let m = &*rw.m;
    let cmp = ir::def_with(m, c, Opcode::CmpI)?;
    let pred = ir::enum_case(m, cmp, 0, EnumKind::ComparisonPredicate)?;
    let (l, r) = (m.operand(cmp, 0), m.operand(cmp, 1));
    if !((l == t && r == f) || (l == f && r == t)) {
        return None;
    }
    use tilec_ir::attrs::ComparisonPredicate as P;
    match P::from_index(pred)? {
        P::Equal => Some(f),
        P::NotEqual => Some(t),
        _ => None,
    }
}

/// NVIDIA's operand order for `addf`: a `mulf` operand goes on the left (for FMA fusion).
pub fn addf_mul_lhs(rw: &mut Rewriter<'_>, op: Op) -> bool {
    let m = &*rw.m;
    let (l, r) = (m.operand(op, 0), m.operand(op, 1));
    if ir::def_with(m, r, Opcode::MulF).is_none() || ir::def_with(m, l, Opcode::MulF).is_some() {
        return false;
    }
    rw.set_operand(op, 0, r);
    rw.set_operand(op, 1, l);
    true
}

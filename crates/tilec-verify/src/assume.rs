//! assume and its predicates (`verify_assume`).
//!
//! `assume PREDICATE, %value` checks the predicate (`div_by`, `same_elements`, `bounded`)
//! against the type of the constrained value; the first failure stops. The spec's form
//! `assume %cond` (no predicate, no result) takes a tile of i1. NVIDIA's parser does not
//! accept that form, so the compat personality reports its parse errors.

use crate::arith::written_generic;
use crate::{VResult, Verifier};
use tilec_diag::catalog::assume as cat;
use tilec_diag::catalog::generic as gen_cat;
use tilec_ir::attrs::AttrData;
use tilec_ir::module::Op;
use tilec_ir::types::{Type, TypeData};

/// The largest `div_by` divisor NVIDIA's tools support (2^62).
const MAX_DIVISOR: u64 = 1 << 62;

/// Checks one op of this family.
pub(crate) fn verify(v: &mut Verifier<'_>, op: Op) -> VResult {
    let m = v.m;
    let Some(value) = m.operands(op).next() else {
        return Ok(());
    };
    let t = m.value_type(value);
    let results = m.num_results(op);
    let pred = v.attr(op, "predicate");
    if pred.is_none() {
        return condition_form(v, op, t, results);
    }
    if results != 1 {
        return Err(v.error(
            op,
            &gen_cat::RESULT_COUNT,
            &[("expected", &1), ("found", &results)],
        ));
    }
    match pred {
        Some(AttrData::DivBy {
            divisor,
            every,
            along,
        }) => div_by(v, op, t, *divisor, *every, *along),
        Some(AttrData::SameElements(values)) => same_elements(v, op, t, values),
        Some(AttrData::Bounded { lb, ub }) => bounded(v, op, t, *lb, *ub),
        _ => Ok(()),
    }
}

/// The spec's `assume %cond : tile<i1>`.
fn condition_form(v: &mut Verifier<'_>, op: Op, t: Type, results: usize) -> VResult {
    if v.upstream {
        if written_generic(v, op) {
            return Err(v.error(op, &gen_cat::MISSING_ATTRIBUTE, &[("name", &"predicate")]));
        }
        v.error(op, &cat::ASSUME_NO_PREDICATE_KEYWORD, &[]);
        return Err(v.error(op, &cat::ASSUME_NO_PREDICATE, &[]));
    }
    if results != 0 {
        return Err(v.error(
            op,
            &gen_cat::RESULT_COUNT,
            &[("expected", &0), ("found", &results)],
        ));
    }
    let ok = match v.data(t) {
        TypeData::Tile { elem, .. } => matches!(v.data(*elem), TypeData::Int(1)),
        _ => false,
    };
    if !ok {
        let ty = v.ty(t);
        return Err(v.error(op, &cat::ASSUME_CONDITION, &[("type", &ty)]));
    }
    Ok(())
}

/// The shape and element type of a tile (`None` for other types).
fn tile_of<'m>(v: &Verifier<'m>, t: Type) -> Option<(&'m [i64], Type)> {
    match v.data(t) {
        TypeData::Tile { shape, elem, .. } => Some((shape, *elem)),
        _ => None,
    }
}

fn div_by(
    v: &mut Verifier<'_>,
    op: Op,
    t: Type,
    divisor: u64,
    every: Option<i64>,
    along: Option<i64>,
) -> VResult {
    if !divisor.is_power_of_two() {
        return Err(v.error(op, &cat::DIV_BY_POWER_OF_TWO, &[]));
    }
    if divisor > MAX_DIVISOR {
        return Err(v.error(op, &cat::DIV_BY_TOO_LARGE, &[]));
    }
    if matches!(v.data(t), TypeData::TensorView { .. }) {
        if every.is_some() {
            return Err(v.error(op, &cat::DIV_BY_EVERY_ON_VIEW, &[]));
        }
        return Ok(());
    }
    let Some((shape, elem)) = tile_of(v, t) else {
        return Err(v.error(op, &cat::DIV_BY_TYPE, &[]));
    };
    if shape.is_empty() && every.is_some() {
        return Err(v.error(op, &cat::DIV_BY_EVERY_ON_0D, &[]));
    }
    if !(v.is_int(elem) || v.is_ptr(elem)) {
        return Err(v.error(op, &cat::DIV_BY_TYPE, &[]));
    }
    let (Some(every), Some(along)) = (every, along) else {
        return Ok(());
    };
    let rank = shape.len();
    let Some(&size) = usize::try_from(along).ok().and_then(|d| shape.get(d)) else {
        return Err(v.error(
            op,
            &cat::DIV_BY_ALONG,
            &[("along", &along), ("rank", &rank)],
        ));
    };
    if every < 0 || every > size {
        return Err(v.error(op, &cat::DIV_BY_EVERY, &[("size", &size)]));
    }
    Ok(())
}

fn same_elements(v: &mut Verifier<'_>, op: Op, t: Type, values: &[i64]) -> VResult {
    let Some((shape, elem)) = tile_of(v, t) else {
        return Err(v.error(op, &cat::SAME_ELEMENTS_TYPE, &[]));
    };
    if !(v.is_int(elem) || v.is_ptr(elem)) {
        return Err(v.error(op, &cat::SAME_ELEMENTS_TYPE, &[]));
    }
    if values.len() != shape.len() {
        return Err(v.error(
            op,
            &cat::SAME_ELEMENTS_RANK,
            &[("count", &values.len()), ("rank", &shape.len())],
        ));
    }
    for (i, (&g, &size)) in values.iter().zip(shape).enumerate() {
        if g < 0 || g > size {
            return Err(v.error(
                op,
                &cat::SAME_ELEMENTS_VALUE,
                &[("index", &i), ("size", &size)],
            ));
        }
    }
    Ok(())
}

fn bounded(v: &mut Verifier<'_>, op: Op, t: Type, lb: Option<i64>, ub: Option<i64>) -> VResult {
    let width = match tile_of(v, t).map(|(_, e)| v.data(e)) {
        Some(TypeData::Int(w)) => *w,
        _ => return Err(v.error(op, &cat::BOUNDED_TYPE, &[])),
    };
    let (min, max) = if width >= 64 {
        (i64::MIN, i64::MAX)
    } else {
        (-(1i64 << (width - 1)), (1i64 << (width - 1)) - 1)
    };
    let out = |b: Option<i64>| b.is_some_and(|b| b < min || b > max);
    if out(lb) {
        return Err(v.error(op, &cat::BOUNDED_LOWER, &[("min", &min), ("max", &max)]));
    }
    if out(ub) {
        return Err(v.error(op, &cat::BOUNDED_UPPER, &[("min", &min), ("max", &max)]));
    }
    if let (Some(lb), Some(ub)) = (lb, ub)
        && lb > ub
    {
        return Err(v.error(op, &cat::BOUNDED_ORDER, &[]));
    }
    Ok(())
}

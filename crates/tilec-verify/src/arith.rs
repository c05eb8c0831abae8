//! Float arithmetic (`verify_float_arith` of verifiers.md) and integer arithmetic.
//!
//! The spec's order for float ops: matching element types (run as a `precheck`, before the
//! generic same-type checks), flush-to-zero, then the rounding mode (`divf`: a valid mode,
//! and `approx`/`full` only for f32; other ops: the IEEE modes, plus `approx` for `sqrt`).
//!
//! NVIDIA's tools check the same rules in another order: their custom syntax rejects
//! rounding modes an op does not accept while parsing (before anything else), then the op
//! verifier checks the rounding mode, flush-to-zero, and `approx`/`full`.

use crate::{VResult, Verifier};
use tilec_diag::catalog::arith as cat;
use tilec_ir::attrs::{Overflow, RoundingMode, Signedness};
use tilec_ir::float::FloatKind;
use tilec_ir::module::Op;
use tilec_ir::ops::{Family, Opcode};
use tilec_ir::types::{Type, TypeData};

/// The IEEE rounding modes.
pub(crate) const IEEE: &[RoundingMode] = &[
    RoundingMode::NearestEven,
    RoundingMode::Zero,
    RoundingMode::NegativeInf,
    RoundingMode::PositiveInf,
];
const SQRT_MODES: &[RoundingMode] = &[
    RoundingMode::NearestEven,
    RoundingMode::Zero,
    RoundingMode::NegativeInf,
    RoundingMode::PositiveInf,
    RoundingMode::Approx,
];
const DIVF_MODES: &[RoundingMode] = &[
    RoundingMode::NearestEven,
    RoundingMode::Zero,
    RoundingMode::NegativeInf,
    RoundingMode::PositiveInf,
    RoundingMode::Approx,
    RoundingMode::Full,
];

/// `exp` (13.3) and `tanh` (13.2): the default `full`, or `approx` (f32 only).
const APPROX_FULL: &[RoundingMode] = &[RoundingMode::Approx, RoundingMode::Full];

/// Checks one float op.
pub(crate) fn verify_float(v: &mut Verifier<'_>, op: Op) -> VResult {
    let opcode = v.m.opcode(op);
    let rounding = rounding_mode(v, op, "rounding_mode");
    let elem = result_elem(v, op);
    if matches!(opcode, Opcode::Exp | Opcode::TanH) {
        let Some(r) = rounding else { return Ok(()) };
        if !APPROX_FULL.contains(&r) {
            let modes = mode_list(APPROX_FULL, false);
            return Err(v.error(op, &cat::ROUNDING_OUTSIDE_DIVF, &[("modes", &modes)]));
        }
        if r == RoundingMode::Approx {
            check_approx_full(v, op, r, elem)?;
        }
        return Ok(());
    }
    let ftz = v.flag(op, "flush_to_zero");
    if v.upstream {
        if let Some(r) = rounding {
            // The custom syntax of addf, subf, mulf and fma only takes the IEEE modes.
            if matches!(
                opcode,
                Opcode::AddF | Opcode::SubF | Opcode::MulF | Opcode::Fma
            ) {
                syntax_rounding(v, op, IEEE, r)?;
            }
            let allowed = match opcode {
                Opcode::DivF => DIVF_MODES,
                Opcode::Sqrt => SQRT_MODES,
                _ => IEEE,
            };
            if !allowed.contains(&r) {
                return Err(if opcode == Opcode::DivF {
                    v.error(op, &cat::DIVF_ROUNDING, &[])
                } else {
                    let modes = mode_list(allowed, false);
                    v.error(op, &cat::ROUNDING_OUTSIDE_DIVF, &[("modes", &modes)])
                });
            }
        }
        check_ftz(v, op, ftz, elem)?;
        if let Some(r @ (RoundingMode::Approx | RoundingMode::Full)) = rounding {
            check_approx_full(v, op, r, elem)?;
        }
        return Ok(());
    }
    check_ftz(v, op, ftz, elem)?;
    let Some(r) = rounding else {
        return Ok(());
    };
    match opcode {
        Opcode::DivF if !DIVF_MODES.contains(&r) => {
            return Err(v.error(op, &cat::DIVF_ROUNDING, &[]));
        }
        Opcode::DivF => {}
        Opcode::Sqrt if SQRT_MODES.contains(&r) => {}
        _ if !IEEE.contains(&r) => {
            let modes = mode_list(IEEE, false);
            return Err(v.error(op, &cat::ROUNDING_OUTSIDE_DIVF, &[("modes", &modes)]));
        }
        _ => {}
    }
    if matches!(r, RoundingMode::Approx | RoundingMode::Full) {
        check_approx_full(v, op, r, elem)?;
    }
    Ok(())
}

/// Checks one integer op: the rounding mode of `divi`.
pub(crate) fn verify_integer(v: &mut Verifier<'_>, op: Op) -> VResult {
    if v.m.opcode(op) == Opcode::NegSI {
        let flag = v
            .enum_attr(op, "overflow")
            .and_then(|(_, i)| Overflow::from_index(i));
        if let Some(f @ (Overflow::NoUnsignedWrap | Overflow::NoWrap)) = flag {
            return Err(v.error(op, &cat::NEGI_OVERFLOW, &[("flag", &f.name())]));
        }
        return Ok(());
    }
    if v.m.opcode(op) != Opcode::DivI {
        return Ok(());
    }
    let Some(r) = rounding_mode(v, op, "rounding") else {
        return Ok(());
    };
    if !matches!(
        r,
        RoundingMode::Zero | RoundingMode::NegativeInf | RoundingMode::PositiveInf
    ) {
        return Err(v.error(op, &cat::DIVI_ROUNDING, &[]));
    }
    let unsigned = v
        .enum_attr(op, "signedness")
        .and_then(|(_, i)| Signedness::from_index(i))
        == Some(Signedness::Unsigned);
    if r == RoundingMode::NegativeInf && unsigned {
        return Err(v.error(op, &cat::DIVI_UNSIGNED_FLOOR, &[]));
    }
    Ok(())
}

/// Spec-personality checks that run before the declarative op-table checks, so that the
/// spec's wording wins where a generic check would catch the same problem.
///
/// Float ops: all operands and results (both operands of `cmpf`) share an element type.
pub(crate) fn precheck(v: &mut Verifier<'_>, op: Op) -> VResult {
    let m = v.m;
    if m.def(op).family != Family::FloatArith {
        return Ok(());
    }
    let mut types: Vec<Type> = m.operands(op).map(|x| m.value_type(x)).collect();
    if m.opcode(op) != Opcode::CmpF {
        types.extend(m.results(op).map(|x| m.value_type(x)));
    }
    let Some((&first, rest)) = types.split_first() else {
        return Ok(());
    };
    let e0 = v.elem_of(first);
    if rest.iter().any(|&t| v.elem_of(t) != e0) {
        return Err(v.error(op, &cat::FLOAT_ELEMENT_TYPES, &[]));
    }
    Ok(())
}

/// The rounding mode attribute `name` of an op (its default where it has one).
pub(crate) fn rounding_mode(v: &Verifier<'_>, op: Op, name: &str) -> Option<RoundingMode> {
    let (_, i) = v.enum_attr(op, name)?;
    RoundingMode::from_index(i)
}

/// True if the op was written in the generic form (`"cuda_tile.addf"(...)`).
pub(crate) fn written_generic(v: &Verifier<'_>, op: Op) -> bool {
    v.m.written_generic(op)
}

/// `'a', 'b'` (quoted, for NVIDIA's parse errors) or `a, b`.
pub(crate) fn mode_list(modes: &[RoundingMode], quoted: bool) -> String {
    let parts: Vec<String> = modes
        .iter()
        .map(|m| {
            if quoted {
                format!("'{}'", m.name())
            } else {
                m.name().to_string()
            }
        })
        .collect();
    parts.join(", ")
}

/// NVIDIA's parse error for a rounding mode the op's custom syntax does not accept (only
/// in the compat personality, and only for ops written in the custom form).
pub(crate) fn syntax_rounding(
    v: &mut Verifier<'_>,
    op: Op,
    allowed: &[RoundingMode],
    r: RoundingMode,
) -> VResult {
    if allowed.contains(&r) || written_generic(v, op) {
        return Ok(());
    }
    let modes = mode_list(allowed, true);
    let name = format!("cuda_tile.{}", v.m.def(op).name);
    let span = v.attr_span(op, "rounding_mode");
    Err(v.error_at(
        op,
        span,
        &cat::ROUNDING_SYNTAX,
        &[("op", &name), ("modes", &modes), ("mode", &r.name())],
    ))
}

/// The element type of the op's (first) result.
fn result_elem(v: &Verifier<'_>, op: Op) -> Option<Type> {
    let r = v.m.results(op).next()?;
    Some(v.elem_of(v.vty(r)))
}

fn is_f32(v: &Verifier<'_>, elem: Option<Type>) -> bool {
    elem.is_some_and(|e| matches!(v.data(e), TypeData::Float(FloatKind::F32)))
}

fn elem_name(v: &Verifier<'_>, elem: Option<Type>) -> String {
    elem.map(|e| v.m.ctx.types.to_string(e, false))
        .unwrap_or_default()
}

fn check_ftz(v: &mut Verifier<'_>, op: Op, ftz: bool, elem: Option<Type>) -> VResult {
    if ftz && !is_f32(v, elem) {
        let ty = elem_name(v, elem);
        return Err(v.error(op, &cat::FTZ_F32, &[("type", &ty)]));
    }
    Ok(())
}

fn check_approx_full(v: &mut Verifier<'_>, op: Op, r: RoundingMode, elem: Option<Type>) -> VResult {
    if !is_f32(v, elem) {
        let ty = elem_name(v, elem);
        return Err(v.error(
            op,
            &cat::APPROX_FULL_F32,
            &[("mode", &r.name()), ("type", &ty)],
        ));
    }
    Ok(())
}

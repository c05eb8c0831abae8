//! Conversions (`verify_conversion` of verifiers.md): `exti` widens, `trunci` narrows,
//! `ftof` converts between different types with nearest-even rounding, `itof` rounds to
//! nearest even, `ftoi` truncates toward zero, and `bitcast` keeps the bit width.
//!
//! In the compat personality, rounding modes that NVIDIA's custom syntax of `ftof`, `itof`
//! and `ftoi` does not accept are reported first, as its parser does.

use crate::arith::{IEEE, rounding_mode, syntax_rounding};
use crate::{VResult, Verifier};
use tilec_diag::catalog::conversion as cat;
use tilec_ir::attrs::RoundingMode;
use tilec_ir::float::FloatKind;
use tilec_ir::module::Op;
use tilec_ir::ops::Opcode;
use tilec_ir::types::TypeData;

/// Checks one op of this family.
pub(crate) fn verify(v: &mut Verifier<'_>, op: Op) -> VResult {
    let m = v.m;
    let (Some(src), Some(dst)) = (m.operands(op).next(), m.results(op).next()) else {
        return Ok(());
    };
    let (src_ty, dst_ty) = (m.value_type(src), m.value_type(dst));
    let (from_elem, to_elem) = (v.elem_of(src_ty), v.elem_of(dst_ty));
    let from = v.bit_width(from_elem).unwrap_or(0);
    let to = v.bit_width(to_elem).unwrap_or(0);
    let rounding = rounding_mode(v, op, "rounding_mode");
    match m.opcode(op) {
        Opcode::ExtI if from >= to => Err(v.error(op, &cat::EXTI_WIDTH, &[])),
        Opcode::TruncI if from <= to => Err(v.error(op, &cat::TRUNCI_WIDTH, &[])),
        Opcode::FToF => {
            if v.upstream
                && let Some(r) = rounding
            {
                syntax_rounding(v, op, IEEE, r)?;
            }
            if from_elem == to_elem {
                return Err(v.error(op, &cat::FTOF_IDENTITY, &[]));
            }
            if matches!(v.data(to_elem), TypeData::Float(FloatKind::F8E8M0FNU)) {
                let r = rounding.unwrap_or(RoundingMode::NearestEven);
                if !matches!(r, RoundingMode::Zero | RoundingMode::PositiveInf) {
                    return Err(v.error(op, &cat::FTOF_E8M0_ROUNDING, &[]));
                }
                return Ok(());
            }
            if rounding.is_some_and(|r| r != RoundingMode::NearestEven) {
                return Err(v.error(op, &cat::FTOF_ROUNDING, &[]));
            }
            Ok(())
        }
        Opcode::IToF => {
            let Some(r) = rounding else { return Ok(()) };
            if v.upstream {
                syntax_rounding(v, op, IEEE, r)?;
            }
            if r != RoundingMode::NearestEven {
                return Err(v.error(op, &cat::ITOF_ROUNDING, &[]));
            }
            Ok(())
        }
        Opcode::FToI => {
            let Some(r) = rounding else { return Ok(()) };
            if v.upstream {
                syntax_rounding(v, op, &[RoundingMode::NearestIntToZero], r)?;
            }
            if r != RoundingMode::NearestIntToZero {
                return Err(v.error(op, &cat::FTOI_ROUNDING, &[]));
            }
            Ok(())
        }
        Opcode::Bitcast if from != to => {
            let (s, r) = (v.ty(src_ty), v.ty(dst_ty));
            Err(v.error(
                op,
                &cat::BITCAST_WIDTH,
                &[("source", &s), ("from", &from), ("result", &r), ("to", &to)],
            ))
        }
        _ => Ok(()),
    }
}

/// Spec-personality checks that run before the declarative op-table checks, so that the
/// spec's wording wins where a generic check would catch the same problem. The generic
/// checks of conversions (slot types, equal shapes) have no spec wording: nothing to do.
pub(crate) fn precheck(v: &mut Verifier<'_>, op: Op) -> VResult {
    let _ = (v, op);
    Ok(())
}

//! mmaf and mmai (`verify_mma`).
//!
//! In the spec personality the whole of the spec's `verify_mma` runs as the
//! [`precheck`], before the op table's declarative checks, so its wording and order win:
//! rank of `lhs`, shared ranks, batch size (which the spec's pseudo-code leaves out; it is
//! checked where NVIDIA checks it, before the contracting dimension), contracting
//! dimension, M and N, accumulator against result shape, then the element types (`mmai`:
//! signedness attributes, `i32` accumulator, `i8` inputs; `mmaf`: supported pairs). The
//! generic checks call it early for mma (after the counts, before attributes and slot
//! types), since the spec's integer rules restate those constraints in its own words.
//!
//! In NVIDIA's personality the declarative checks (`{lhs, rhs} have the same element
//! type`, `{lhs, rhs, acc} have same rank`, `{acc, result} have same type`) come first
//! and [`verify`] then follows `cuda-tile-opt`: the rank, batch, K, M and N checks, then
//! (for `mmaf`) the supported input/accumulator pairs.

use crate::util::paren_shape;
use crate::{Failed, VResult, Verifier};
use tilec_diag::catalog::mma as cat;
use tilec_ir::module::Op;
use tilec_ir::ops::Opcode;
use tilec_ir::types::Type;

/// The types of an mma's operands and result.
#[derive(Copy, Clone)]
struct Mma {
    lhs: Type,
    rhs: Type,
    acc: Type,
    result: Type,
}

/// The operand and result types, if they are all tiles (the generic checks report
/// anything else).
fn types(v: &Verifier<'_>, op: Op) -> Option<Mma> {
    let one = |slot: &str, result: bool| {
        let vals = if result {
            v.results_of(op, slot)
        } else {
            v.operands_of(op, slot)
        };
        let t = v.vty(*vals.first()?);
        v.is_tile(t).then_some(t)
    };
    Some(Mma {
        lhs: one("lhs", false)?,
        rhs: one("rhs", false)?,
        acc: one("acc", false)?,
        result: one("result", true)?,
    })
}

/// Reports an error and labels the named operands (or the result) with their types.
fn fail(
    v: &mut Verifier<'_>,
    op: Op,
    e: &'static tilec_diag::codes::CodeInfo,
    args: crate::Args<'_>,
    slots: &[&str],
) -> Failed {
    let failed = v.error(op, e, args);
    for &slot in slots {
        let value = match slot {
            "result" => v.results_of(op, slot),
            _ => v.operands_of(op, slot),
        };
        if let Some(&value) = value.first() {
            let ty = v.ty(v.vty(value));
            v.label(v.value_span(value), format!("{slot} has type '{ty}'"));
        }
    }
    failed
}

/// The accumulator element types `mmaf` supports for an input element type (NVIDIA's
/// table, which the `mmaf` documentation gives too), or `None` for an input type that is
/// not an mma input.
fn mmaf_accumulators(input: Type) -> Option<&'static [Type]> {
    const F16_F32: &[Type] = &[Type::F16, Type::F32];
    Some(match input {
        Type::F8E4M3FN | Type::F8E5M2 | Type::F16 => F16_F32,
        Type::BF16 | Type::TF32 | Type::F32 => &[Type::F32],
        Type::F64 => &[Type::F64],
        _ => return None,
    })
}

/// Checks one op of this family: NVIDIA's order and wording (the spec's checks ran as the
/// [`precheck`]).
pub(crate) fn verify(v: &mut Verifier<'_>, op: Op) -> VResult {
    if !v.upstream {
        return Ok(());
    }
    let Some(t) = types(v, op) else {
        return Ok(());
    };
    let (lhs, rhs, acc) = (v.shape(t.lhs), v.shape(t.rhs), v.shape(t.acc));
    let rank = lhs.len();
    if rank != 2 && rank != 3 {
        return Err(fail(v, op, &cat::MMA_RANK, &[], &["lhs"]));
    }
    if rhs.len() != rank || acc.len() != rank {
        // The declarative same-rank check has reported this.
        return Ok(());
    }
    if rank == 3 {
        for (other, shape) in [("rhs", rhs), ("acc", acc)] {
            if lhs[0] != shape[0] {
                return Err(fail(
                    v,
                    op,
                    &cat::MMA_BATCH,
                    &[
                        ("lhs", &lhs[0]),
                        ("other", &other),
                        ("size", &shape[0]),
                        ("lhs_shape", &paren_shape(lhs)),
                        ("other_shape", &paren_shape(shape)),
                    ],
                    &["lhs", other],
                ));
            }
        }
    }
    let (m, k) = (rank - 2, rank - 1);
    if lhs[k] != rhs[m] {
        return Err(fail(
            v,
            op,
            &cat::MMA_CONTRACTING,
            &[
                ("lhs_dim", &k),
                ("lhs_size", &lhs[k]),
                ("rhs_dim", &m),
                ("rhs_size", &rhs[m]),
                ("lhs_shape", &paren_shape(lhs)),
                ("rhs_shape", &paren_shape(rhs)),
            ],
            &["lhs", "rhs"],
        ));
    }
    for (dim, operand, shape) in [(m, "lhs", lhs), (k, "rhs", rhs)] {
        if shape[dim] != acc[dim] {
            return Err(fail(
                v,
                op,
                &cat::MMA_ACC_MN,
                &[
                    ("dim", &dim),
                    ("operand", &operand),
                    ("size", &shape[dim]),
                    ("acc_size", &acc[dim]),
                    ("shape", &paren_shape(shape)),
                    ("acc_shape", &paren_shape(acc)),
                ],
                &[operand, "acc"],
            ));
        }
    }
    if v.m.opcode(op) == Opcode::MmaFScaled {
        scaled(v, op, t)?;
    }
    if v.m.opcode(op) == Opcode::MmaF {
        let (input, acc) = (v.elem_of(t.lhs), v.elem_of(t.acc));
        if let Some(allowed) = mmaf_accumulators(input)
            && !allowed.contains(&acc)
        {
            let names: Vec<String> = allowed
                .iter()
                .map(|&a| format!("'{}'", v.elem(a)))
                .collect();
            return Err(fail(
                v,
                op,
                &cat::MMAF_TYPES,
                &[
                    ("input", &v.elem(input)),
                    ("allowed", &names.join(", ")),
                    ("acc", &v.elem(acc)),
                ],
                &["lhs", "acc"],
            ));
        }
    }
    Ok(())
}

/// `mmaf_scaled` (13.3), after the mma shape checks: the input/scale type pairs, the scale
/// tiles' shapes against their operands (every dimension but K), the number of K blocks,
/// and the block size the formats fix.
fn scaled(v: &mut Verifier<'_>, op: Op, t: Mma) -> VResult {
    let scale_of = |v: &Verifier<'_>, slot: &str| {
        let t = v.vty(*v.operands_of(op, slot).first()?);
        v.is_tile(t).then_some(t)
    };
    let (Some(ls), Some(rs)) = (scale_of(v, "lhs_scale"), scale_of(v, "rhs_scale")) else {
        return Ok(());
    };
    let (input, scale) = (v.elem_of(t.lhs), v.elem_of(ls));
    if scale == Type::F8E4M3FN && input != Type::F4E2M1FN {
        return Err(fail(
            v,
            op,
            &cat::MMAF_SCALED_TYPES,
            &[
                ("scale", &v.elem(scale)),
                ("want", &v.elem(Type::F4E2M1FN)),
                ("got", &v.elem(input)),
            ],
            &["lhs", "lhs_scale"],
        ));
    }
    let (lhs, rhs) = (v.shape(t.lhs), v.shape(t.rhs));
    let (lsh, rsh) = (v.shape(ls), v.shape(rs));
    let rank = lhs.len();
    if lsh.len() != rank || rsh.len() != rank {
        // The declarative same-rank check reports this.
        return Ok(());
    }
    let (m, k) = (rank - 2, rank - 1);
    // lhs: every dimension but the last (K); rhs: every dimension but K (rank - 2).
    let pairs = (0..rank)
        .filter(|&d| d != k)
        .map(|d| ("lhs", "lhs_scale", d, lhs, lsh))
        .chain(
            (0..rank)
                .filter(|&d| d != m)
                .map(|d| ("rhs", "rhs_scale", d, rhs, rsh)),
        );
    for (operand, scale_name, d, shape, sshape) in pairs {
        if shape[d] != sshape[d] {
            return Err(fail(
                v,
                op,
                &cat::MMAF_SCALED_DIM,
                &[
                    ("dim", &d),
                    ("operand", &operand),
                    ("size", &shape[d]),
                    ("scale", &scale_name),
                    ("scale_size", &sshape[d]),
                    ("shape", &paren_shape(shape)),
                    ("scale_shape", &paren_shape(sshape)),
                ],
                &[operand, scale_name],
            ));
        }
    }
    if lsh[k] != rsh[m] {
        return Err(fail(
            v,
            op,
            &cat::MMAF_SCALED_K,
            &[
                ("lhs_dim", &k),
                ("lhs_size", &lsh[k]),
                ("rhs_dim", &m),
                ("rhs_size", &rsh[m]),
                ("lhs_shape", &paren_shape(lsh)),
                ("rhs_shape", &paren_shape(rsh)),
            ],
            &["lhs_scale", "rhs_scale"],
        ));
    }
    let (kk, blocks) = (lhs[k], lsh[k]);
    let (what, allowed): (String, &[i64]) = match (input, scale) {
        (Type::F4E2M1FN, Type::F8E4M3FN) => (
            format!(
                "{} element type with {} scales",
                v.elem(input),
                v.elem(scale)
            ),
            &[16],
        ),
        (Type::F4E2M1FN, _) => (
            format!(
                "{} element type with {} scales",
                v.elem(input),
                v.elem(scale)
            ),
            &[16, 32],
        ),
        _ => ("f8 element type".to_string(), &[32]),
    };
    let exact = blocks > 0 && kk % blocks == 0;
    if !exact || !allowed.contains(&(kk / blocks)) {
        let got = if exact {
            (kk / blocks).to_string()
        } else {
            format!("{kk}/{blocks}")
        };
        let allowed: Vec<String> = allowed.iter().map(i64::to_string).collect();
        return Err(fail(
            v,
            op,
            &cat::MMAF_SCALED_BLOCK,
            &[
                ("what", &what),
                ("allowed", &allowed.join(" or ")),
                ("got", &got),
            ],
            &["lhs", "lhs_scale"],
        ));
    }
    Ok(())
}

/// Spec-personality checks that run before the declarative op-table checks, so that the
/// spec's wording wins where a generic check would catch the same problem: the spec's
/// `verify_mma`, in its order.
pub(crate) fn precheck(v: &mut Verifier<'_>, op: Op) -> VResult {
    let Some(t) = types(v, op) else {
        return Ok(());
    };
    let (lhs, rhs, acc, result) = (
        v.shape(t.lhs),
        v.shape(t.rhs),
        v.shape(t.acc),
        v.shape(t.result),
    );
    let rank = lhs.len();
    if rank != 2 && rank != 3 {
        return Err(fail(v, op, &cat::MMA_RANK, &[], &["lhs"]));
    }
    if rhs.len() != rank || acc.len() != rank || result.len() != rank {
        let slots = ["lhs", "rhs", "acc", "result"];
        return Err(fail(v, op, &cat::MMA_SHARED_RANK, &[], &slots));
    }
    if rank == 3 && (rhs[0] != lhs[0] || acc[0] != lhs[0]) {
        let other = if rhs[0] != lhs[0] { "rhs" } else { "acc" };
        return Err(fail(v, op, &cat::MMA_BATCH, &[], &["lhs", other]));
    }
    let (m, k) = (rank - 2, rank - 1);
    if lhs[k] != rhs[m] {
        return Err(fail(v, op, &cat::MMA_CONTRACTING, &[], &["lhs", "rhs"]));
    }
    if lhs[m] != acc[m] || rhs[k] != acc[k] {
        let operand = if lhs[m] != acc[m] { "lhs" } else { "rhs" };
        return Err(fail(v, op, &cat::MMA_ACC_MN, &[], &[operand, "acc"]));
    }
    if acc != result {
        let slots = ["acc", "result"];
        return Err(fail(v, op, &cat::MMA_ACC_RESULT_SHAPE, &[], &slots));
    }
    if v.m.opcode(op) == Opcode::MmaI {
        // The spec's integer checks; in the default mode they run before the generic
        // attribute and type-constraint checks (see `generic::verify`).
        if v.attr(op, "signedness_lhs").is_none() || v.attr(op, "signedness_rhs").is_none() {
            return Err(v.error(op, &cat::MMAI_SIGNEDNESS, &[]));
        }
        if v.elem_of(t.acc) != Type::I32 || v.elem_of(t.result) != Type::I32 {
            let ty = v.ty(t.acc);
            return Err(fail(
                v,
                op,
                &cat::MMAI_ACC_I32,
                &[("type", &ty)],
                &["acc", "result"],
            ));
        }
        let (a, b) = (v.elem_of(t.lhs), v.elem_of(t.rhs));
        if a != Type::I8 || a != b {
            let (index, bad) = if a != Type::I8 {
                (0, t.lhs)
            } else {
                (1, t.rhs)
            };
            let ty = v.ty(bad);
            return Err(fail(
                v,
                op,
                &cat::MMAI_INPUTS,
                &[("index", &index), ("type", &ty)],
                &["lhs", "rhs"],
            ));
        }
    }
    if v.m.opcode(op) == Opcode::MmaFScaled {
        // The spec has no mmaf_scaled: NVIDIA's rules and wording in both personalities.
        scaled(v, op, t)?;
    }
    if v.m.opcode(op) == Opcode::MmaF {
        let (input, acc) = (v.elem_of(t.lhs), v.elem_of(t.acc));
        if !mmaf_accumulators(input).is_some_and(|a| a.contains(&acc)) {
            return Err(fail(v, op, &cat::MMAF_TYPES, &[], &["lhs", "acc"]));
        }
        if t.acc != t.result {
            let slots = ["acc", "result"];
            return Err(fail(v, op, &cat::MMAF_ACC_RESULT_TYPE, &[], &slots));
        }
    }
    Ok(())
}

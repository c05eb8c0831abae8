//! `optimization_hints`: architecture keys, the hints each op takes and their values
//! (tile-ir-operations.md, the `optimization_hints` paragraphs of `entry` and the load and
//! store ops; ranges as NVIDIA's tools enforce them).

use crate::{HintChecks, VResult, Verifier};
use tilec_diag::Severity;
use tilec_diag::catalog::generic as cat;
use tilec_ir::attrs::AttrData;
use tilec_ir::module::Op;
use tilec_ir::ops::{AttrKind, Opcode};

/// The architectures hints may name; `default` applies to every architecture (cuTile
/// Python emits it).
const ARCHS: &[&str] = &[
    "default", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_100", "sm_103", "sm_110",
    "sm_120", "sm_121",
];

/// The hints an op takes (`None`: any known hint, for ops tilec does not restrict).
fn allowed(op: Opcode) -> Option<&'static [&'static str]> {
    match op {
        Opcode::Entry => Some(&["num_cta_in_cga", "num_worker_warps_per_cta", "occupancy"]),
        Opcode::LoadViewTko | Opcode::StoreViewTko => Some(&["latency", "allow_tma"]),
        Opcode::LoadPtrTko | Opcode::StorePtrTko => Some(&["latency"]),
        _ => None,
    }
}

/// Checks the op's `optimization_hints`, if it has any, and reports a problem as the
/// options ask.
pub(crate) fn verify(v: &mut Verifier<'_>, op: Op) -> VResult {
    match v.hints {
        HintChecks::Ignore => Ok(()),
        HintChecks::Error | HintChecks::Default => check(v, op),
        HintChecks::Warn | HintChecks::WarnError => {
            let before = v.diags.len();
            if check(v, op).is_ok() {
                return Ok(());
            }
            for d in &mut v.diags[before..] {
                if d.severity == Severity::Error {
                    d.severity = Severity::Warning;
                }
            }
            if v.hints == HintChecks::WarnError {
                return Err(v.error(op, &cat::HINTS_FAILED, &[]));
            }
            Ok(())
        }
    }
}

/// The checks; the first problem is an error.
fn check(v: &mut Verifier<'_>, op: Op) -> VResult {
    // Most ops have no hints slot: find it by kind, without comparing names.
    let Some(slot) =
        v.m.def(op)
            .attrs
            .iter()
            .position(|a| a.kind == AttrKind::OptHints)
    else {
        return Ok(());
    };
    let Some(AttrData::OptHints(dict)) = v.m.attr(op, slot).map(|a| v.m.ctx.attrs.get(a)) else {
        return Ok(());
    };
    let span = v.m.attr_span(op, slot);
    let AttrData::Dict(entries) = v.m.ctx.attrs.get(*dict) else {
        return Ok(());
    };
    let allowed = allowed(v.m.opcode(op));
    for (arch, params) in entries.iter() {
        let arch: &str = arch;
        if !ARCHS.contains(&arch) {
            return Err(fail(v, op, span, &cat::HINT_ARCH, &[("key", &arch)]));
        }
        let AttrData::Dict(params) = v.m.ctx.attrs.get(*params) else {
            continue;
        };
        for (key, value) in params.iter() {
            let key: &str = key;
            if allowed.is_some_and(|a| !a.contains(&key)) {
                return Err(fail(v, op, span, &cat::HINT_NOT_ALLOWED, &[("key", &key)]));
            }
            let args: &[(&str, &dyn std::fmt::Display)] = &[("arch", &arch), ("key", &key)];
            let int = match v.m.ctx.attrs.get(*value) {
                AttrData::Int { value, .. } => Some(*value),
                _ => None,
            };
            let range = |lo: i64, hi: i64| int.is_some_and(|x| (lo..=hi).contains(&x));
            let problem = match key {
                "num_cta_in_cga" => match int {
                    None => Some(&cat::HINT_INTEGER),
                    Some(n) if !(1..=16).contains(&n) || n & (n - 1) != 0 => {
                        Some(&cat::HINT_NUM_CTA)
                    }
                    Some(_) => None,
                },
                "num_worker_warps_per_cta" => match int {
                    None => Some(&cat::HINT_INTEGER),
                    Some(n) if !(1..=32).contains(&n) || n & (n - 1) != 0 => {
                        Some(&cat::HINT_WORKER_WARPS)
                    }
                    Some(_) => None,
                },
                "allow_tma" => (!matches!(v.m.ctx.attrs.get(*value), AttrData::Bool(_)))
                    .then_some(&cat::HINT_BOOLEAN),
                "latency" if int.is_none() => Some(&cat::HINT_INTEGER),
                "latency" => (!range(1, 10)).then_some(&cat::HINT_LATENCY),
                "occupancy" if int.is_none() => Some(&cat::HINT_INTEGER),
                "occupancy" => (!range(1, 32)).then_some(&cat::HINT_OCCUPANCY),
                _ => Some(&cat::HINT_UNKNOWN),
            };
            if let Some(e) = problem {
                return Err(fail(v, op, span, e, args));
            }
        }
    }
    Ok(())
}

/// Reports at the op (as MLIR does) and labels the hints.
fn fail(
    v: &mut Verifier<'_>,
    op: Op,
    span: Option<tilec_diag::Span>,
    e: &'static tilec_diag::codes::CodeInfo,
    args: crate::Args<'_>,
) -> crate::Failed {
    let failed = v.error(op, e, args);
    v.label(span, "in these optimization hints");
    failed
}

//! Float arithmetic (`verify_float_arith` of verifiers.md) and integer arithmetic.

use crate::{VResult, Verifier};
use tilec_ir::module::Op;

/// Checks one op of this family.
pub(crate) fn verify_float(v: &mut Verifier<'_>, op: Op) -> VResult {
    let _ = (v, op);
    Ok(())
}

/// Checks one op of this family.
pub(crate) fn verify_integer(v: &mut Verifier<'_>, op: Op) -> VResult {
    let _ = (v, op);
    Ok(())
}

/// Spec-personality checks that run before the declarative op-table checks, so that the
/// spec's wording wins where a generic check would catch the same problem.
pub(crate) fn precheck(v: &mut Verifier<'_>, op: Op) -> VResult {
    let _ = (v, op);
    Ok(())
}

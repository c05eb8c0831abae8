//! Structured control flow (`verify_if`, `verify_for`, early exits, terminators).

use crate::{VResult, Verifier};
use tilec_ir::module::Op;

/// Checks one op of this family.
pub(crate) fn verify(v: &mut Verifier<'_>, op: Op) -> VResult {
    let _ = (v, op);
    Ok(())
}

/// Spec-personality checks that run before the declarative op-table checks, so that the
/// spec's wording wins where a generic check would catch the same problem.
pub(crate) fn precheck(v: &mut Verifier<'_>, op: Op) -> VResult {
    let _ = (v, op);
    Ok(())
}

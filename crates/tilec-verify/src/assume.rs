//! assume and its predicates (`verify_assume`).

use crate::{VResult, Verifier};
use tilec_ir::module::Op;

/// Checks one op of this family.
pub(crate) fn verify(v: &mut Verifier<'_>, op: Op) -> VResult {
    let _ = (v, op);
    Ok(())
}

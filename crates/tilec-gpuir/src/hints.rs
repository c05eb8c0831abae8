//! `optimization_hints` as the backend reads them (tile-ir-operations.md, `entry` and the
//! load and store ops): a hint for the target's own key (`sm_90` for sm_90 and sm_90a),
//! else the `default` one. tilec-verify checks their names and values; what the backend
//! does with each is in docs/ptx-backend.md ("Optimization hints").

use crate::target::Arch;
use tilec_ir::attrs::AttrData;
use tilec_ir::module::{Module, Op};

/// The value of hint `name` on `op` for `arch`, if it has one.
pub fn hint<'m>(m: &'m Module, op: Op, arch: Arch, name: &str) -> Option<&'m AttrData> {
    let slot = m.def(op).attr_index("optimization_hints")?;
    let AttrData::OptHints(dict) = m.ctx.attrs.get(m.attr(op, slot)?) else {
        return None;
    };
    let AttrData::Dict(archs) = m.ctx.attrs.get(*dict) else {
        return None;
    };
    let key = arch.name().trim_end_matches('a');
    let find = |k: &str| {
        let (_, params) = archs.iter().find(|(a, _)| &**a == k)?;
        let AttrData::Dict(params) = m.ctx.attrs.get(*params) else {
            return None;
        };
        let (_, v) = params.iter().find(|(p, _)| &**p == name)?;
        Some(m.ctx.attrs.get(*v))
    };
    find(key).or_else(|| find("default"))
}

/// An integer hint (`num_cta_in_cga`, `occupancy`, `num_worker_warps_per_cta`, `latency`).
pub fn int_hint(m: &Module, op: Op, arch: Arch, name: &str) -> Option<i64> {
    match hint(m, op, arch, name)? {
        AttrData::Int { value, .. } => Some(*value),
        _ => None,
    }
}

/// Whether a load or store may go by the copy engine (TMA): not when its `allow_tma`
/// hint for the target is `false`.
pub fn allows_tma(m: &Module, op: Op, arch: Arch) -> bool {
    !matches!(hint(m, op, arch, "allow_tma"), Some(AttrData::Bool(false)))
}

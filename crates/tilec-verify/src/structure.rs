//! Structural checks that do not depend on an op's kind: SSA dominance and the isolation of
//! `entry`, functions and `module` from values defined above them.
//!
//! Every op gets its position in a pre-order walk. Tile IR regions are single blocks, so a
//! value defined by op `D` dominates a use in op `U` exactly when walking up from `U`
//! reaches an op `A` in `D`'s block with `D` before `A` (`pos(D) < pos(A)`); a block
//! argument dominates everything nested in its block.

use crate::Verifier;
use tilec_diag::catalog::generic as catalog;
use tilec_ir::module::{Op, ValueDef};
use tilec_ir::ops::Traits;

/// Numbers the ops in pre-order (`order`) and records the last number inside each op
/// (`order_end`).
pub(crate) fn number_ops(v: &mut Verifier<'_>) {
    let m = v.m;
    v.order.resize(m.op_capacity());
    v.order_end.resize(m.op_capacity());
    let mut next = 0u32;
    // Iterative walk: ops with their "exit" marker.
    let mut stack: Vec<(Op, bool)> = m.block_ops(m.body()).map(|o| (o, false)).collect();
    stack.reverse();
    while let Some((op, exit)) = stack.pop() {
        if exit {
            v.order_end[op] = next.saturating_sub(1);
            continue;
        }
        v.order[op] = next;
        next += 1;
        stack.push((op, true));
        let start = stack.len();
        for &r in m.regions(op) {
            for &b in m.region_blocks(r) {
                stack.extend(m.block_ops(b).map(|o| (o, false)));
            }
        }
        stack[start..].reverse();
    }
}

/// Checks that every operand of `op` is visible at `op`: defined before it in an enclosing
/// block, and not across an op that is isolated from above.
pub(crate) fn check_operands(v: &mut Verifier<'_>, op: Op) {
    let m = v.m;
    for (i, value) in m.operands(op).enumerate() {
        let (def_block, def_pos) = match m.value_def(value) {
            ValueDef::Result(d, _) => match m.op_block(d) {
                Some(b) => (b, Some(v.order[d])),
                None => continue,
            },
            ValueDef::Arg(b, _) => (b, None),
            ValueDef::Placeholder => continue,
        };
        // Walk up from the user to the op that lives in the defining block.
        let mut cur = op;
        let mut isolated_by = None;
        let ok = loop {
            let Some(b) = m.op_block(cur) else {
                break false;
            };
            if b == def_block {
                break match def_pos {
                    Some(p) => p < v.order[cur],
                    None => true,
                };
            }
            let Some(parent) = m.block_parent_op(b) else {
                break false;
            };
            if isolated_by.is_none()
                && m.unregistered_name(parent).is_none()
                && m.def(parent).has(Traits::ISOLATED_FROM_ABOVE)
            {
                isolated_by = Some(parent);
            }
            cur = parent;
        };
        if ok && isolated_by.is_none() {
            continue;
        }
        if let (true, Some(_)) = (ok, isolated_by) {
            v.error(op, &catalog::ISOLATION, &[]);
            v.note(
                "required by region isolation constraints",
                isolated_by.and_then(|p| m.op_span(p)),
            );
        } else {
            v.error(op, &catalog::DOMINANCE, &[("index", &i)]);
            v.note("operand defined here", m.value_span(value));
        }
        return;
    }
}

//! Operand slots: splitting an op's flat operand list into the slots of its op table entry.
//!
//! Ops with a single optional or variadic slot need no bookkeeping: that slot takes the
//! operands the fixed slots leave. Ops with several (`load_ptr_tko`, `make_tensor_view`, ...)
//! record the size of every slot in their `operandSegmentSizes` attribute, as MLIR does.

use crate::attrs::AttrData;
use crate::module::{Module, Op, Value};
use crate::ops::{Arity, AttrKind};
use std::ops::Range;

/// The range of the flat operand list each operand slot covers.
pub fn operand_ranges(m: &Module, op: Op) -> Vec<Range<usize>> {
    let def = m.def(op);
    let n = m.num_operands(op);
    let sizes: Option<Vec<usize>> = def
        .attrs
        .iter()
        .position(|a| a.kind == AttrKind::OperandSegments)
        .and_then(|i| m.attr(op, i))
        .and_then(|a| match m.ctx.attrs.get(a) {
            AttrData::DenseI32Array(v) if v.len() == def.operands.len() => {
                Some(v.iter().map(|&x| x.max(0) as usize).collect())
            }
            _ => None,
        });
    let sizes = sizes.unwrap_or_else(|| {
        let fixed = def
            .operands
            .iter()
            .filter(|s| s.arity == Arity::One)
            .count();
        let mut rest = n.saturating_sub(fixed);
        // Without recorded sizes, the first non-fixed slot takes the remaining operands.
        def.operands
            .iter()
            .map(|s| match s.arity {
                Arity::One => 1,
                _ => std::mem::take(&mut rest),
            })
            .collect()
    });
    let mut out = Vec::with_capacity(sizes.len());
    let mut start = 0;
    for s in sizes {
        let end = (start + s).min(n);
        out.push(start.min(n)..end);
        start = end;
    }
    out
}

/// The range of the flat result list each result slot covers: fixed slots take one result
/// each, and the optional or variadic slot (ops have at most one) takes the rest.
pub fn result_ranges(m: &Module, op: Op) -> Vec<Range<usize>> {
    let def = m.def(op);
    let n = m.num_results(op);
    let fixed = def.results.iter().filter(|s| s.arity == Arity::One).count();
    let mut rest = n.saturating_sub(fixed);
    let mut out = Vec::with_capacity(def.results.len());
    let mut start = 0;
    for s in def.results {
        let len = match s.arity {
            Arity::One => 1,
            _ => std::mem::take(&mut rest),
        };
        let end = (start + len).min(n);
        out.push(start.min(n)..end);
        start = end;
    }
    out
}

/// The operand values of each operand slot.
pub fn operand_groups(m: &Module, op: Op) -> Vec<Vec<Value>> {
    let all: Vec<Value> = m.operands(op).collect();
    operand_ranges(m, op)
        .into_iter()
        .map(|r| all[r].to_vec())
        .collect()
}

/// The values of one operand slot, by slot name.
pub fn operand_group(m: &Module, op: Op, name: &str) -> Vec<Value> {
    let def = m.def(op);
    match def.operands.iter().position(|s| s.name == name) {
        Some(i) => operand_groups(m, op).swap_remove(i),
        None => Vec::new(),
    }
}

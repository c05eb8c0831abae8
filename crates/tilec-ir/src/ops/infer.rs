//! Inference of the types that an op's custom form leaves out.
//!
//! Assembly formats write only some types; the rest follow from the op table: a slot in a
//! same-type group has the type of any member whose type is known, a constraint such as
//! "`tile<i1>`" or "`token`" determines its type on its own, index operands default to
//! `tile<i32>`, and comparisons yield `i1` tiles shaped like their operands. The parser
//! uses [`infer_types`] to fill in what the text leaves out, and the printer uses the same
//! function to decide whether the custom form can represent an op exactly (see
//! [`conform`](super::conform)), so the two cannot drift apart.

use super::{Arity, Elems, Infer, OpDef, SlotRef, TyC};
use crate::types::Type;

/// The types of an op's operand and result slots while they are being inferred: `None` is
/// unknown, `Some(types)` is known (one type per value of the slot).
#[derive(Debug, Clone, Default)]
pub struct SlotTypes {
    /// Per operand slot.
    pub operands: Vec<Option<Vec<Type>>>,
    /// Per result slot.
    pub results: Vec<Option<Vec<Type>>>,
}

/// The type a constraint determines on its own (`tile<i1>`, `tile<i32>`, `token`).
pub fn buildable(c: TyC) -> Option<Type> {
    match c {
        TyC::Token => Some(Type::TOKEN),
        TyC::Scalar(e) if e == Elems::I1 => Some(Type::TILE_I1),
        TyC::Scalar(e) if e == Elems::I32 => Some(Type::TILE_I32),
        _ => None,
    }
}

/// The type of a slot known through its same-type groups, if any member's type is known.
pub fn known_type(def: &OpDef, t: &SlotTypes, name: &str) -> Option<Type> {
    for group in def.same_type {
        if !group.contains(&name) {
            continue;
        }
        for member in group.iter() {
            let known = match def.slot(member) {
                Some(SlotRef::Operand(i)) => t.operands[i].as_ref().and_then(|v| v.first()),
                Some(SlotRef::Result(i)) => t.results[i].as_ref().and_then(|v| v.first()),
                _ => None,
            };
            if let Some(k) = known {
                return Some(*k);
            }
        }
    }
    None
}

/// Fills in unknown slot types. `operand_counts` gives the number of values of each operand
/// slot; `i1_like(t)` returns the `i1` tile shaped like `t` (comparisons), or `None` if it
/// cannot be had. Slots that stay unknown are left `None`, except optional and variadic
/// result slots, which become empty: the caller reports what is still missing.
pub fn infer_types(
    def: &OpDef,
    operand_counts: &[usize],
    t: &mut SlotTypes,
    i1_like: &mut dyn FnMut(Type) -> Option<Type>,
) {
    for _round in 0..3 {
        for (i, slot) in def.results.iter().enumerate() {
            if t.results[i].is_some() {
                continue;
            }
            if let Some(k) = known_type(def, t, slot.name) {
                t.results[i] = Some(vec![k]);
            } else if let Some(b) = buildable(slot.ty) {
                if slot.arity == Arity::One {
                    t.results[i] = Some(vec![b]);
                }
            } else if def.infer == Infer::Comparison
                && let Some(lhs) = known_type(def, t, "lhs")
                && let Some(r) = i1_like(lhs)
            {
                t.results[i] = Some(vec![r]);
            }
        }
        for (i, slot) in def.operands.iter().enumerate() {
            if t.operands[i].is_some() {
                continue;
            }
            let n = operand_counts.get(i).copied().unwrap_or(0);
            if n == 0 {
                t.operands[i] = Some(Vec::new());
                continue;
            }
            let k = known_type(def, t, slot.name)
                .or_else(|| buildable(slot.ty))
                .or_else(|| (slot.ty == TyC::INDEX).then_some(Type::TILE_I32));
            if let Some(k) = k {
                t.operands[i] = Some(vec![k; n]);
            }
        }
    }
    for (i, slot) in def.results.iter().enumerate() {
        if t.results[i].is_none() && slot.arity != Arity::One {
            t.results[i] = Some(Vec::new());
        }
    }
}

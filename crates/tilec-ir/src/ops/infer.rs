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

/// The types of one slot: a short list kept inline (most slots hold one value), so that
/// parsing an op does not allocate for its types.
#[derive(Clone)]
pub enum TypeList {
    /// Up to two types, inline.
    Inline(u8, [Type; 2]),
    /// More, on the heap.
    Heap(Vec<Type>),
}

impl TypeList {
    /// No types.
    pub const EMPTY: TypeList = TypeList::Inline(0, [Type::I1; 2]);

    /// One type.
    pub fn one(t: Type) -> TypeList {
        TypeList::Inline(1, [t, Type::I1])
    }

    /// `t`, `n` times.
    pub fn repeat(t: Type, n: usize) -> TypeList {
        if n <= 2 {
            TypeList::Inline(n as u8, [t; 2])
        } else {
            TypeList::Heap(vec![t; n])
        }
    }

    /// The types of a slice.
    pub fn from_slice(ts: &[Type]) -> TypeList {
        match *ts {
            [] => TypeList::EMPTY,
            [a] => TypeList::one(a),
            [a, b] => TypeList::Inline(2, [a, b]),
            _ => TypeList::Heap(ts.to_vec()),
        }
    }

    /// The types.
    pub fn as_slice(&self) -> &[Type] {
        match self {
            TypeList::Inline(n, ts) => &ts[..*n as usize],
            TypeList::Heap(v) => v,
        }
    }
}

impl Default for TypeList {
    fn default() -> Self {
        TypeList::EMPTY
    }
}

impl std::ops::Deref for TypeList {
    type Target = [Type];
    fn deref(&self) -> &[Type] {
        self.as_slice()
    }
}

impl PartialEq for TypeList {
    fn eq(&self, o: &TypeList) -> bool {
        self.as_slice() == o.as_slice()
    }
}

impl Eq for TypeList {}

impl std::fmt::Debug for TypeList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl From<Vec<Type>> for TypeList {
    fn from(v: Vec<Type>) -> TypeList {
        if v.len() <= 2 {
            TypeList::from_slice(&v)
        } else {
            TypeList::Heap(v)
        }
    }
}

/// The types of an op's operand and result slots while they are being inferred: `None` is
/// unknown, `Some(types)` is known (one type per value of the slot).
#[derive(Debug, Clone, Default)]
pub struct SlotTypes {
    /// Per operand slot.
    pub operands: Vec<Option<TypeList>>,
    /// Per result slot.
    pub results: Vec<Option<TypeList>>,
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
                t.results[i] = Some(TypeList::one(k));
            } else if let Some(b) = buildable(slot.ty) {
                if slot.arity == Arity::One {
                    t.results[i] = Some(TypeList::one(b));
                }
            } else if def.infer == Infer::Comparison
                && let Some(lhs) = known_type(def, t, "lhs")
                && let Some(r) = i1_like(lhs)
            {
                t.results[i] = Some(TypeList::one(r));
            }
        }
        for (i, slot) in def.operands.iter().enumerate() {
            if t.operands[i].is_some() {
                continue;
            }
            let n = operand_counts.get(i).copied().unwrap_or(0);
            if n == 0 {
                t.operands[i] = Some(TypeList::EMPTY);
                continue;
            }
            let k = known_type(def, t, slot.name)
                .or_else(|| buildable(slot.ty))
                .or_else(|| {
                    (slot.ty == TyC::INDEX || slot.ty == TyC::VIEW_INDEX).then_some(Type::TILE_I32)
                });
            if let Some(k) = k {
                t.operands[i] = Some(TypeList::repeat(k, n));
            }
        }
    }
    for (i, slot) in def.results.iter().enumerate() {
        if t.results[i].is_none() && slot.arity != Arity::One {
            t.results[i] = Some(TypeList::EMPTY);
        }
    }
}

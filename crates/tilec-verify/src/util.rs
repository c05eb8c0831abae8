//! Accessors the family verifiers share: slots by name, attributes, shapes and element
//! types.

#![allow(dead_code)] // some accessors are used by one family only

use crate::Verifier;
use tilec_diag::Span;
use tilec_ir::attrs::{AttrData, EnumKind};
use tilec_ir::module::{Op, Value};
use tilec_ir::types::{Type, TypeData};

impl<'m> Verifier<'m> {
    /// The values of an operand slot, by slot name (empty if the op has no such slot).
    pub fn operands_of(&self, op: Op, slot: &str) -> Vec<Value> {
        tilec_ir::segments::operand_group(self.m, op, slot)
    }

    /// The single value of an operand slot, if present.
    pub fn operand_of(&self, op: Op, slot: &str) -> Option<Value> {
        self.operands_of(op, slot).first().copied()
    }

    /// The values of a result slot, by slot name.
    pub fn results_of(&self, op: Op, slot: &str) -> Vec<Value> {
        let def = self.m.def(op);
        let Some(i) = def.results.iter().position(|s| s.name == slot) else {
            return Vec::new();
        };
        let r = tilec_ir::segments::result_ranges(self.m, op).swap_remove(i);
        r.map(|k| self.m.result(op, k)).collect()
    }

    /// An attribute by name (slot attributes and discardable ones).
    pub fn attr(&self, op: Op, name: &str) -> Option<&'m AttrData> {
        self.m.attr_named(op, name).map(|a| self.m.ctx.attrs.get(a))
    }

    /// The span of a slot attribute, by name.
    pub fn attr_span(&self, op: Op, name: &str) -> Option<Span> {
        let i = self.m.def(op).attr_index(name)?;
        self.m.attr_span(op, i)
    }

    /// The case index of an enum attribute, by name (the default case when absent and the
    /// slot has one).
    pub fn enum_attr(&self, op: Op, name: &str) -> Option<(EnumKind, u8)> {
        match self.attr(op, name) {
            Some(AttrData::Enum(k, i)) => Some((*k, *i)),
            Some(_) => None,
            None => {
                let def = self.m.def(op);
                let a = def.attrs.iter().find(|a| a.name == name)?;
                match (a.kind, a.presence) {
                    (tilec_ir::ops::AttrKind::Enum(k), tilec_ir::ops::Presence::DefaultEnum(i)) => {
                        Some((k, i))
                    }
                    _ => None,
                }
            }
        }
    }

    /// An integer attribute, by name.
    pub fn int_attr(&self, op: Op, name: &str) -> Option<i64> {
        match self.attr(op, name)? {
            AttrData::Int { value, .. } => Some(*value),
            AttrData::Bool(b) => Some(*b as i64),
            _ => None,
        }
    }

    /// True if a unit (flag) attribute is present.
    pub fn flag(&self, op: Op, name: &str) -> bool {
        matches!(
            self.attr(op, name),
            Some(AttrData::Unit | AttrData::Bool(true))
        )
    }

    /// The structure of a type.
    pub fn data(&self, t: Type) -> &'m TypeData {
        self.m.ctx.types.get(t)
    }

    /// The shape of a tile or view (empty for other types).
    pub fn shape(&self, t: Type) -> &'m [i64] {
        self.m.ctx.types.shape(t)
    }

    /// The rank of a tile or view.
    pub fn rank(&self, t: Type) -> usize {
        self.shape(t).len()
    }

    /// The element type of a tile or view (the type itself otherwise).
    pub fn elem_of(&self, t: Type) -> Type {
        self.m.ctx.types.element_type(t)
    }

    /// True for tile types.
    pub fn is_tile(&self, t: Type) -> bool {
        self.m.ctx.types.is_tile(t)
    }

    /// True for tensor views and partition views.
    pub fn is_view(&self, t: Type) -> bool {
        self.m.ctx.types.is_view(t)
    }

    /// The bit width of an integer or float element type (pointers: 64), or `None`.
    pub fn bit_width(&self, elem: Type) -> Option<u32> {
        match self.data(elem) {
            TypeData::Int(w) => Some(*w),
            TypeData::Float(k) => Some(float_bits(*k)),
            TypeData::Ptr(_) => Some(64),
            _ => None,
        }
    }

    /// True for float element types.
    pub fn is_float(&self, elem: Type) -> bool {
        matches!(self.data(elem), TypeData::Float(_))
    }

    /// True for integer element types.
    pub fn is_int(&self, elem: Type) -> bool {
        matches!(self.data(elem), TypeData::Int(_))
    }

    /// True for pointer element types.
    pub fn is_ptr(&self, elem: Type) -> bool {
        matches!(self.data(elem), TypeData::Ptr(_))
    }

    /// The op's span.
    pub fn span(&self, op: Op) -> Option<Span> {
        self.m.op_span(op)
    }

    /// The span of a value's definition (a block argument's own span, or its op's).
    pub fn value_span(&self, v: Value) -> Option<Span> {
        self.m.value_span(v)
    }
}

/// `(4, 16)`: a shape as NVIDIA's messages write it.
pub(crate) fn paren_shape(shape: &[i64]) -> String {
    let parts: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    format!("({})", parts.join(", "))
}

/// `4, 16`: a shape as a comma-separated list.
pub(crate) fn comma_shape(shape: &[i64]) -> String {
    let parts: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    parts.join(", ")
}

/// The bit width MLIR gives a float type (`tf32`: 19).
pub(crate) fn float_bits(k: tilec_ir::float::FloatKind) -> u32 {
    use tilec_ir::float::FloatKind as K;
    match k {
        K::F16 | K::BF16 => 16,
        K::F32 => 32,
        K::F64 => 64,
        K::TF32 => 19,
        K::F8E4M3FN | K::F8E5M2 | K::F8E8M0FNU => 8,
        K::F4E2M1FN => 4,
    }
}

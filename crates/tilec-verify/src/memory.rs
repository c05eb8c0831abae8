//! Token-ordered memory and atomics (`verify_token_memory`, `verify_atomic_rmw`).
//!
//! The spec's `verify_token_memory` checks, in order: the pointers' pointee (or the view's
//! element type) against the value's element type, the pointer tile's (or the view tile's)
//! shape against the value's, the mask's shape, the ordering a load or a store accepts, and
//! that weak accesses carry no scope while the others carry one. Pointer loads and stores
//! check the same things, in the same order, in NVIDIA's verifier; view accesses first
//! count their indices; atomics differ: NVIDIA checks the mode and width rules before the
//! ordering, where the spec checks the ordering first (before the declarative checks, in
//! [`precheck`]).

use crate::{VResult, Verifier};
use tilec_diag::catalog::memory as cat;
use tilec_ir::attrs::{AtomicRmwMode, MemoryOrdering};
use tilec_ir::module::{Op, Value};
use tilec_ir::ops::Opcode;
use tilec_ir::types::{Type, TypeData};

/// Which ordering rules an access follows.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Kind {
    Load,
    Store,
    Atomic,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Load => "load",
            Kind::Store => "store",
            Kind::Atomic => "atomic",
        }
    }
}

/// Checks one op of this family.
pub(crate) fn verify(v: &mut Verifier<'_>, op: Op) -> VResult {
    match v.m.opcode(op) {
        Opcode::LoadPtrTko => {
            let ptr = slot(v, op, "source");
            let res = result(v, op, "result");
            pointer_and_value(v, op, ("source", ptr), ("result", res))?;
            if let Some(mask) = v.operand_of(op, "mask") {
                mask_shape(v, op, mask, res, ("mask", "source"))?;
            }
            if let Some(pad) = v.operand_of(op, "paddingValue")
                && v.vty(pad) != res
            {
                return Err(v.error(op, &cat::PADDING_TYPE, &[]));
            }
            ordering(v, op, Kind::Load)
        }
        Opcode::StorePtrTko => {
            let ptr = slot(v, op, "destination");
            let val = slot(v, op, "value");
            pointer_and_value(v, op, ("destination", ptr), ("value", val))?;
            if let Some(mask) = v.operand_of(op, "mask") {
                mask_shape(v, op, mask, val, ("destination", "mask"))?;
            }
            ordering(v, op, Kind::Store)
        }
        Opcode::LoadViewTko => {
            let tile = result(v, op, "tile");
            view_access(v, op, tile)?;
            ordering(v, op, Kind::Load)
        }
        Opcode::StoreViewTko => {
            let tile = slot(v, op, "tile");
            view_access(v, op, tile)?;
            ordering(v, op, Kind::Store)
        }
        Opcode::Alloca => alloca(v, op),
        Opcode::JoinTokens => {
            if v.m.num_operands(op) < 2 {
                return Err(v.error(op, &cat::JOIN_TOKENS_COUNT, &[]));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// `alloca` (13.3): a power-of-two alignment of at least one element.
fn alloca(v: &mut Verifier<'_>, op: Op) -> VResult {
    let Some(alignment) = v.int_attr(op, "alignment") else {
        return Ok(());
    };
    if alignment <= 0 || alignment & (alignment - 1) != 0 {
        return Err(v.error(op, &cat::ALLOCA_ALIGN_POW2, &[]));
    }
    let res = result(v, op, "result");
    let TypeData::Tile { elem, .. } = v.data(res) else {
        return Ok(());
    };
    let TypeData::Ptr(pointee) = v.data(*elem) else {
        return Ok(());
    };
    let pointee = *pointee;
    let size = i64::from(v.m.ctx.types.storage_bits(pointee).div_ceil(8));
    if alignment < size {
        let ty = v.elem(pointee);
        return Err(v.error(
            op,
            &cat::ALLOCA_ALIGN_NATURAL,
            &[("alignment", &alignment), ("size", &size), ("type", &ty)],
        ));
    }
    Ok(())
}

/// Checks one op of this family.
pub(crate) fn verify_atomic(v: &mut Verifier<'_>, op: Op) -> VResult {
    match v.m.opcode(op) {
        Opcode::AtomicRmwTko => {
            let arg = slot(v, op, "arg");
            if v.upstream {
                // The spec personality checked these in `precheck`.
                atomic_pointee(v, op, "arg", arg)?;
            }
            rmw_mode(v, op, v.elem_of(arg))?;
            if v.upstream {
                atomic_ordering(v, op)?;
            }
            Ok(())
        }
        Opcode::AtomicCasTko => {
            let val = slot(v, op, "val");
            if v.upstream {
                atomic_pointee(v, op, "val", val)?;
            }
            let elem = v.elem_of(val);
            let ok =
                (v.is_int(elem) || v.is_float(elem)) && matches!(v.bit_width(elem), Some(32 | 64));
            if !ok {
                return Err(v.error(op, &cat::CAS_WIDTH, &[]));
            }
            if let Some(mask) = v.operand_of(op, "mask") {
                let ptrs = slot(v, op, "pointers");
                let shape = v.shape(v.vty(mask));
                if shape != v.shape(ptrs) || shape != v.shape(val) {
                    return Err(v.error(op, &cat::CAS_MASK_SHAPE, &[]));
                }
            }
            if v.upstream {
                atomic_ordering(v, op)?;
            }
            Ok(())
        }
        Opcode::AtomicLoadTko => {
            let ptr = slot(v, op, "ptr");
            let res = result(v, op, "result");
            atomic_pointee(v, op, "result", res)?;
            pointer_and_value(v, op, ("ptr", ptr), ("result", res))?;
            if let Some(mask) = v.operand_of(op, "mask") {
                mask_shape(v, op, mask, res, ("mask", "ptr"))?;
            }
            ordering(v, op, Kind::Load)
        }
        Opcode::AtomicRedViewTko => crate::view::atomic_red_view(v, op),
        Opcode::AtomicStoreTko => {
            let ptr = slot(v, op, "ptr");
            let val = slot(v, op, "value");
            atomic_pointee(v, op, "value", val)?;
            pointer_and_value(v, op, ("ptr", ptr), ("value", val))?;
            if let Some(mask) = v.operand_of(op, "mask") {
                mask_shape(v, op, mask, val, ("ptr", "mask"))?;
            }
            ordering(v, op, Kind::Store)
        }
        _ => Ok(()),
    }
}

/// Spec-personality checks that run before the declarative op-table checks, so that the
/// spec's wording wins where a generic check would catch the same problem.
///
/// `verify_atomic_rmw` starts with `verify_token_memory`: pointee, pointer shape, mask
/// shape and scope come before the table's same-shape and same-type checks.
pub(crate) fn precheck(v: &mut Verifier<'_>, op: Op) -> VResult {
    let value_slot = match v.m.opcode(op) {
        Opcode::AtomicRmwTko => "arg",
        Opcode::AtomicCasTko => "val",
        _ => return Ok(()),
    };
    let ptr = slot(v, op, "pointers");
    let val = slot(v, op, value_slot);
    atomic_pointee(v, op, value_slot, val)?;
    pointer_and_value(v, op, ("pointers", ptr), (value_slot, val))?;
    if let Some(mask) = v.operand_of(op, "mask") {
        mask_shape(v, op, mask, val, ("mask", "pointers"))?;
    }
    ordering(v, op, Kind::Atomic)
}

/// The type of the single value of an operand slot (a token stands in for a slot that a
/// malformed segment-size attribute left empty; the checks then find nothing to compare).
fn slot(v: &Verifier<'_>, op: Op, name: &str) -> Type {
    v.operand_of(op, name).map_or(Type::TOKEN, |x| v.vty(x))
}

/// The type of the single value of a result slot.
fn result(v: &Verifier<'_>, op: Op, name: &str) -> Type {
    v.results_of(op, name)
        .first()
        .map_or(Type::TOKEN, |&x| v.vty(x))
}

/// The pointee of a tile of pointers.
fn pointee(v: &Verifier<'_>, ptr: Type) -> Option<Type> {
    match v.data(v.elem_of(ptr)) {
        TypeData::Ptr(p) => Some(*p),
        _ => None,
    }
}

/// The pointee and the shape of a tile of pointers against the value's.
fn pointer_and_value(
    v: &mut Verifier<'_>,
    op: Op,
    (pointer, ptr): (&str, Type),
    (value, val): (&str, Type),
) -> VResult {
    let args: &[(&str, &dyn std::fmt::Display)] = &[("pointer", &pointer), ("value", &value)];
    if pointee(v, ptr).is_some_and(|p| p != v.elem_of(val)) {
        return Err(v.error(op, &cat::POINTEE, args));
    }
    if v.shape(ptr) != v.shape(val) {
        return Err(v.error(op, &cat::POINTER_SHAPE, args));
    }
    Ok(())
}

/// The mask has the value's shape; `names` are the two slots NVIDIA's message names.
fn mask_shape(
    v: &mut Verifier<'_>,
    op: Op,
    mask: Value,
    val: Type,
    (first, second): (&str, &str),
) -> VResult {
    if v.shape(v.vty(mask)) != v.shape(val) {
        return Err(v.error(
            op,
            &cat::MASK_SHAPE,
            &[("first", &first), ("second", &second)],
        ));
    }
    Ok(())
}

/// NVIDIA's atomic pointee check (`expected pointee type (...) to match element type of
/// 'arg' (...)`).
fn atomic_pointee(v: &mut Verifier<'_>, op: Op, slot_name: &str, val: Type) -> VResult {
    let ptr_slot =
        if v.m.opcode(op) == Opcode::AtomicRmwTko || v.m.opcode(op) == Opcode::AtomicCasTko {
            "pointers"
        } else {
            "ptr"
        };
    let Some(p) = pointee(v, slot(v, op, ptr_slot)) else {
        return Ok(());
    };
    let elem = v.elem_of(val);
    if p != elem {
        let ps = v.m.ctx.types.to_string(p, false);
        let es = v.m.ctx.types.to_string(elem, false);
        return Err(v.error(
            op,
            &cat::ATOMIC_POINTEE,
            &[("pointee", &ps), ("slot", &slot_name), ("elem", &es)],
        ));
    }
    Ok(())
}

/// A view access: one index per index-space dimension, the view's tile type, indices of
/// one type.
fn view_access(v: &mut Verifier<'_>, op: Op, tile: Type) -> VResult {
    let view = slot(v, op, "view");
    let Some((tile_shape, tensor_view)) =
        v.m.ctx
            .types
            .tile_view_parts(view)
            .map(|(t, tv)| (t.to_vec(), tv))
    else {
        return Ok(());
    };
    let tensor_view = &tensor_view;
    let index = v.operands_of(op, "index");
    if index.len() != tile_shape.len() {
        return Err(v.error(
            op,
            &cat::VIEW_INDEX_COUNT,
            &[("expected", &tile_shape.len()), ("found", &index.len())],
        ));
    }
    let view_elem = v.elem_of(*tensor_view);
    let elem_ok = v.elem_of(tile) == view_elem;
    let shape_ok = v.shape(tile) == &tile_shape[..];
    if !elem_ok || !shape_ok {
        let mut expected = String::from("!cuda_tile.tile<");
        for d in tile_shape.iter() {
            expected.push_str(&format!("{d}x"));
        }
        expected.push_str(&v.m.ctx.types.to_string(view_elem, false));
        expected.push('>');
        let found = v.ty(tile);
        let e = if elem_ok {
            &cat::VIEW_TILE_SHAPE
        } else {
            &cat::VIEW_ELEMENT_TYPE
        };
        return Err(v.error(op, e, &[("expected", &expected), ("found", &found)]));
    }
    crate::view::view_indices(v, op, view, &index)?;
    if matches!(v.data(view), TypeData::GatherScatterView { .. }) {
        return Ok(());
    }
    if let Some((&first, rest)) = index.split_first() {
        let base = v.vty(first);
        for (i, &x) in rest.iter().enumerate() {
            let t = v.vty(x);
            if t != base {
                let (expected, found) = (v.ty(base), v.ty(t));
                return Err(v.error(
                    op,
                    &cat::VIEW_INDEX_TYPE,
                    &[
                        ("index", &(i + 1)),
                        ("expected", &expected),
                        ("found", &found),
                    ],
                ));
            }
        }
    }
    Ok(())
}

/// The memory ordering of the op.
fn ordering_of(v: &Verifier<'_>, op: Op) -> MemoryOrdering {
    v.enum_attr(op, "memory_ordering_semantics")
        .and_then(|(_, i)| MemoryOrdering::from_index(i))
        .unwrap_or(MemoryOrdering::Weak)
}

/// The orderings a load or a store accepts, then weak ⇔ no scope.
fn ordering(v: &mut Verifier<'_>, op: Op, kind: Kind) -> VResult {
    let ord = ordering_of(v, op);
    let name = ord.name();
    use MemoryOrdering as O;
    match kind {
        Kind::Load if !matches!(ord, O::Weak | O::Relaxed | O::Acquire) => {
            return Err(v.error(op, &cat::LOAD_ORDERING, &[("ordering", &name)]));
        }
        Kind::Store if !matches!(ord, O::Weak | O::Relaxed | O::Release) => {
            return Err(v.error(op, &cat::STORE_ORDERING, &[("ordering", &name)]));
        }
        _ => {}
    }
    let scoped = v.attr(op, "memory_scope").is_some();
    let args: &[(&str, &dyn std::fmt::Display)] = &[("kind", &kind.name()), ("ordering", &name)];
    if ord == O::Weak && scoped {
        return Err(v.error(op, &cat::WEAK_SCOPE, args));
    }
    if ord != O::Weak && !scoped {
        return Err(v.error(op, &cat::SCOPE_REQUIRED, args));
    }
    Ok(())
}

/// NVIDIA's ordering rule for read-modify-write atomics: anything but weak.
fn atomic_ordering(v: &mut Verifier<'_>, op: Op) -> VResult {
    if ordering_of(v, op) == MemoryOrdering::Weak {
        return Err(v.error(op, &cat::ATOMIC_ORDERING, &[]));
    }
    Ok(())
}

/// `verify_atomic_rmw`'s mode rules: integer modes on i32 or i64, `addf` on f16, f32 or
/// f64, `xchg` on 32- or 64-bit integers and floats.
fn rmw_mode(v: &mut Verifier<'_>, op: Op, elem: Type) -> VResult {
    let Some(mode) = v
        .enum_attr(op, "mode")
        .and_then(|(_, i)| AtomicRmwMode::from_index(i))
    else {
        return Ok(());
    };
    use AtomicRmwMode as M;
    let width = v.bit_width(elem);
    let (ok, e) = match mode {
        M::AddF => (
            matches!(
                v.data(elem),
                TypeData::Float(
                    tilec_ir::float::FloatKind::F16
                        | tilec_ir::float::FloatKind::F32
                        | tilec_ir::float::FloatKind::F64
                )
            ) || (v.minor >= 3
                && matches!(
                    v.data(elem),
                    TypeData::Float(tilec_ir::float::FloatKind::BF16)
                )),
            &cat::RMW_ADDF,
        ),
        M::Xchg => (
            (v.is_int(elem) || v.is_float(elem)) && matches!(width, Some(32 | 64)),
            &cat::RMW_XCHG,
        ),
        _ => (
            v.is_int(elem) && matches!(width, Some(32 | 64)),
            &cat::RMW_INTEGER_MODE,
        ),
    };
    if !ok {
        let name = mode.name();
        return Err(v.error(op, e, &[("mode", &name)]));
    }
    Ok(())
}

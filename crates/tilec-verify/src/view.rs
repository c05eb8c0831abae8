//! Views and shapes (reshape, broadcast, extract, cat, permute, iota, views).
//!
//! `verify_reshape` and the View and Shape paragraph of `verifiers.md`, with NVIDIA's
//! checks (and wording) where the spec gives none: broadcast compatibility, extract
//! slicing, cat and permute shapes, iota's extent, the dynamic operands of
//! `make_tensor_view`, the tensor view of `make_partition_view` and the result counts of
//! `get_tensor_shape` and `get_index_space_shape`.

use crate::util::comma_shape;
use crate::{VResult, Verifier};
use tilec_diag::catalog::view as cat;
use tilec_ir::module::Op;
use tilec_ir::ops::Opcode;
use tilec_ir::types::{DYNAMIC, TypeData};

/// Checks one op of this family.
/// `select` (13.3): no 4-bit element types.
fn select(v: &mut Verifier<'_>, op: Op) -> VResult {
    let Some(r) = v.m.results(op).next() else {
        return Ok(());
    };
    let elem = v.elem_of(v.vty(r));
    let name = match v.data(elem) {
        TypeData::Float(tilec_ir::float::FloatKind::F4E2M1FN) => "F4E2M1FN",
        TypeData::Int(4) => "I4",
        _ => return Ok(()),
    };
    Err(v.error(op, &cat::SELECT_SUB_BYTE, &[("type", &name)]))
}

pub(crate) fn verify(v: &mut Verifier<'_>, op: Op) -> VResult {
    match v.m.opcode(op) {
        Opcode::Reshape => reshape(v, op),
        Opcode::Broadcast => broadcast(v, op),
        Opcode::Extract => extract(v, op),
        Opcode::Cat => cat(v, op),
        Opcode::Permute => permute(v, op),
        Opcode::Iota => iota(v, op),
        Opcode::MakeTensorView => make_tensor_view(v, op),
        Opcode::MakePartitionView | Opcode::MakeStridedView | Opcode::MakeGatherScatterView => {
            make_partition_view(v, op)
        }
        Opcode::GetTensorShape => get_tensor_shape(v, op),
        Opcode::GetIndexSpaceShape => get_index_space_shape(v, op),
        Opcode::Pack | Opcode::Unpack => pack(v, op),
        Opcode::Select => select(v, op),
        _ => Ok(()),
    }
}

/// `pack`/`unpack`: rank-1 tiles, not between 8-bit types, the same number of bytes.
fn pack(v: &mut Verifier<'_>, op: Op) -> VResult {
    let (src, res) = source_result(v, op);
    if v.shape(src).len() != 1 || v.shape(res).len() != 1 {
        return Err(v.error(op, &cat::PACK_RANK, &[]));
    }
    let bits = |v: &Verifier<'_>, t| -> u64 { u64::from(v.m.ctx.types.storage_bits(v.elem_of(t))) };
    let (sw, rw) = (bits(v, src), bits(v, res));
    if sw == rw {
        return Err(v.error(op, &cat::PACK_WIDTHS, &[]));
    }
    let count = |v: &Verifier<'_>, t| v.shape(t).iter().product::<i64>().max(0) as u64;
    let (sb, rb) = (count(v, src) * sw / 8, count(v, res) * rw / 8);
    if count(v, src) * sw != count(v, res) * rw {
        return Err(v.error(op, &cat::PACK_BYTES, &[("source", &sb), ("result", &rb)]));
    }
    Ok(())
}

/// Spec-personality checks that run before the declarative op-table checks, so that the
/// spec's wording wins where a generic check would catch the same problem.
pub(crate) fn precheck(v: &mut Verifier<'_>, op: Op) -> VResult {
    if v.m.opcode(op) == Opcode::Reshape {
        let (src, res) = source_result(v, op);
        if v.elem_of(src) != v.elem_of(res) {
            return Err(v.error(op, &cat::RESHAPE_ELEMENT_TYPE, &[]));
        }
    }
    Ok(())
}

/// The types of the `source` operand and the `result` result.
fn source_result(v: &Verifier<'_>, op: Op) -> (tilec_ir::types::Type, tilec_ir::types::Type) {
    let m = v.m;
    (
        m.value_type(m.operand(op, 0)),
        m.value_type(m.result(op, 0)),
    )
}

/// The number of elements of a static shape (saturating).
fn num_elements(shape: &[i64]) -> i64 {
    shape.iter().fold(1i64, |n, &d| n.saturating_mul(d))
}

/// `verify_reshape`: the element type (the declarative check, or the spec-mode precheck,
/// has already compared it) and the element count.
fn reshape(v: &mut Verifier<'_>, op: Op) -> VResult {
    let (src, res) = source_result(v, op);
    let n_in = num_elements(v.shape(src));
    let n_out = num_elements(v.shape(res));
    if n_in != n_out {
        return Err(v.error(op, &cat::RESHAPE_COUNT, &[("in", &n_in), ("out", &n_out)]));
    }
    Ok(())
}

/// Every source dimension is 1 or the result's (ranks are equal: a declarative check).
fn broadcast(v: &mut Verifier<'_>, op: Op) -> VResult {
    let (src, res) = source_result(v, op);
    let (s, r) = (v.shape(src), v.shape(res));
    if s.iter().zip(r).any(|(&a, &b)| a != b && a != 1) {
        let (source, result) = (comma_shape(s), comma_shape(r));
        return Err(v.error(
            op,
            &cat::BROADCAST_SHAPE,
            &[("source", &source), ("result", &result)],
        ));
    }
    Ok(())
}

/// Element types agree, result dimensions divide the source's, one index per dimension.
fn extract(v: &mut Verifier<'_>, op: Op) -> VResult {
    let (src, res) = source_result(v, op);
    if v.elem_of(src) != v.elem_of(res) {
        return Err(v.error(op, &cat::EXTRACT_ELEMENT_TYPE, &[]));
    }
    let (s, r) = (v.shape(src), v.shape(res));
    if let Some((d, (&a, &b))) = s
        .iter()
        .zip(r)
        .enumerate()
        .find(|(_, (a, b))| **b == 0 || **a % **b != 0)
    {
        return Err(v.error(
            op,
            &cat::EXTRACT_DIVISIBILITY,
            &[("dim", &d), ("source", &a), ("result", &b)],
        ));
    }
    let found = v.operands_of(op, "indices").len();
    if found != s.len() {
        return Err(v.error(
            op,
            &cat::EXTRACT_INDEX_COUNT,
            &[("expected", &s.len()), ("found", &found)],
        ));
    }
    Ok(())
}

/// `dim` is a dimension, the result adds up along it and agrees elsewhere (ranks and
/// element types are declarative checks).
fn cat(v: &mut Verifier<'_>, op: Op) -> VResult {
    let m = v.m;
    let lhs = v.shape(m.value_type(m.operand(op, 0)));
    let rhs = v.shape(m.value_type(m.operand(op, 1)));
    let res = v.shape(m.value_type(m.result(op, 0)));
    let rank = lhs.len();
    let dim = v.int_attr(op, "dim").unwrap_or(0);
    if dim < 0 || dim >= rank as i64 {
        return Err(v.error(op, &cat::CAT_DIM, &[("rank", &rank), ("dim", &dim)]));
    }
    let d = dim as usize;
    let sum = lhs[d].saturating_add(rhs[d]);
    if sum != res[d] {
        return Err(v.error(
            op,
            &cat::CAT_CONCAT_SIZE,
            &[("dim", &dim), ("expected", &sum), ("found", &res[d])],
        ));
    }
    for i in (0..rank).filter(|&i| i != d) {
        if lhs[i] != res[i] || rhs[i] != res[i] {
            // NVIDIA's 13.3 names the operand that differs (lhs first); the spec's and
            // NVIDIA's 13.1 wording give the lhs size as the expected one.
            let (which, expected) = if lhs[i] != res[i] || !(v.upstream && v.minor >= 3) {
                ("lhs", lhs[i])
            } else {
                ("rhs", rhs[i])
            };
            return Err(v.error(
                op,
                &cat::CAT_OTHER_SIZE,
                &[
                    ("index", &i),
                    ("expected", &expected),
                    ("found", &res[i]),
                    ("which", &which),
                ],
            ));
        }
    }
    Ok(())
}

/// A dense permutation of a source of rank 2 or more, and the permuted result shape.
fn permute(v: &mut Verifier<'_>, op: Op) -> VResult {
    let (src, res) = source_result(v, op);
    let (s, r) = (v.shape(src), v.shape(res));
    let rank = s.len();
    if rank < 2 {
        return Err(v.error(op, &cat::PERMUTE_RANK, &[("rank", &rank)]));
    }
    let perm: &[i32] = match v.attr(op, "permutation") {
        Some(tilec_ir::attrs::AttrData::DenseI32Array(p)) => p,
        _ => return Ok(()),
    };
    if perm.len() != rank {
        return Err(v.error(
            op,
            &cat::PERMUTE_SIZE,
            &[("size", &perm.len()), ("rank", &rank)],
        ));
    }
    let mut seen = std::collections::HashSet::new();
    if !perm.iter().all(|p| seen.insert(*p)) {
        return Err(v.error(op, &cat::PERMUTE_UNIQUE, &[]));
    }
    if let Some((i, p)) = perm
        .iter()
        .enumerate()
        .find(|&(_, &p)| p < 0 || p as usize >= rank)
    {
        return Err(v.error(
            op,
            &cat::PERMUTE_BOUND,
            &[("index", &i), ("value", p), ("rank", &rank)],
        ));
    }
    for (i, &p) in perm.iter().enumerate() {
        let want = s[p as usize];
        if r[i] != want {
            return Err(v.error(
                op,
                &cat::PERMUTE_RESULT_SHAPE,
                &[("index", &i), ("expected", &want), ("found", &r[i])],
            ));
        }
    }
    Ok(())
}

/// A 1-d integer tile whose extent `n` fits its element type (`n <= 2^w`).
fn iota(v: &mut Verifier<'_>, op: Op) -> VResult {
    let m = v.m;
    let res = m.value_type(m.result(op, 0));
    let shape = v.shape(res);
    if shape.len() != 1 {
        return Err(v.error(op, &cat::IOTA_RANK, &[]));
    }
    let n = shape[0];
    let elem = v.elem_of(res);
    let width = v.bit_width(elem).unwrap_or(64);
    if width < 64 && n > 0 && (n as u64) > (1u64 << width) {
        let ty = v.elem(res);
        return Err(v.error(op, &cat::IOTA_OVERFLOW, &[("count", &n), ("type", &ty)]));
    }
    Ok(())
}

/// The base pointer's pointee is the view's element type; one dynamic operand per `?`
/// slot of the shape and of the strides; all dynamic operands of one type.
fn make_tensor_view(v: &mut Verifier<'_>, op: Op) -> VResult {
    let m = v.m;
    let base = m.value_type(m.operand(op, 0));
    let view = m.value_type(m.result(op, 0));
    let TypeData::TensorView {
        elem,
        shape,
        strides,
    } = v.data(view)
    else {
        return Ok(());
    };
    let pointee = match v.data(v.elem_of(base)) {
        TypeData::Ptr(p) => *p,
        _ => return Ok(()),
    };
    if pointee != *elem {
        let expected = v.m.ctx.types.to_string(*elem, false);
        let found = v.m.ctx.types.to_string(pointee, false);
        return Err(v.error(
            op,
            &cat::TENSOR_VIEW_POINTEE,
            &[("expected", &expected), ("found", &found)],
        ));
    }
    let dyn_shape = v.operands_of(op, "dynamicShape");
    let dyn_strides = v.operands_of(op, "dynamicStrides");
    let want = shape.iter().filter(|&&d| d == DYNAMIC).count();
    if want != dyn_shape.len() {
        return Err(v.error(
            op,
            &cat::TENSOR_VIEW_DYNAMIC_SHAPE,
            &[("expected", &want), ("found", &dyn_shape.len())],
        ));
    }
    let want = strides.iter().filter(|&&d| d == DYNAMIC).count();
    if want != dyn_strides.len() {
        return Err(v.error(
            op,
            &cat::TENSOR_VIEW_DYNAMIC_STRIDES,
            &[("expected", &want), ("found", &dyn_strides.len())],
        ));
    }
    let Some(&first) = dyn_shape.first().or(dyn_strides.first()) else {
        return Ok(());
    };
    let first = v.vty(first);
    for (values, e) in [
        (&dyn_shape, &cat::TENSOR_VIEW_SHAPE_TYPE),
        (&dyn_strides, &cat::TENSOR_VIEW_STRIDE_TYPE),
    ] {
        for (i, &x) in values.iter().enumerate() {
            let t = v.vty(x);
            if t != first {
                let (expected, found) = (v.ty(first), v.ty(t));
                return Err(v.error(
                    op,
                    e,
                    &[("index", &i), ("expected", &expected), ("found", &found)],
                ));
            }
        }
    }
    Ok(())
}

/// The result is the op's kind of view (`make_strided_view` makes a strided view...), and
/// the operand's type is the tensor view type named in the view type.
fn make_partition_view(v: &mut Verifier<'_>, op: Op) -> VResult {
    let m = v.m;
    let opcode = m.opcode(op);
    let tv = m.value_type(m.operand(op, 0));
    let pv = m.value_type(m.result(op, 0));
    let (tensor_view, code) = match (v.data(pv), opcode) {
        (TypeData::PartitionView { tensor_view, .. }, Opcode::MakePartitionView) => {
            (*tensor_view, &cat::PARTITION_VIEW_TENSOR_VIEW)
        }
        (TypeData::StridedView { tensor_view, .. }, Opcode::MakeStridedView)
        | (TypeData::GatherScatterView { tensor_view, .. }, Opcode::MakeGatherScatterView) => {
            (*tensor_view, &cat::VIEW_TENSOR_VIEW)
        }
        _ => {
            let kind = match opcode {
                Opcode::MakeStridedView => "strided view type",
                Opcode::MakeGatherScatterView => "gather/scatter view type",
                _ => "partition view type",
            };
            let found = v.ty(pv);
            return Err(v.error(
                op,
                &cat::VIEW_RESULT_KIND,
                &[("kind", &kind), ("found", &found)],
            ));
        }
    };
    if tensor_view != tv {
        let (found, expected) = (v.ty(tv), v.ty(tensor_view));
        return Err(v.error(op, code, &[("found", &found), ("expected", &expected)]));
    }
    Ok(())
}

/// The index rules of a tile view (NVIDIA's `verifyIndices`): a partition or strided view
/// takes rank-0 indices of one type; a gather/scatter view a 1-d tile of rows, as long as
/// the tile along `sparse_dim`, at that position and rank-0 indices of one type elsewhere.
/// Returns `None` for a view that is not a tile view (the generic checks report it).
pub(crate) fn view_indices(
    v: &mut Verifier<'_>,
    op: Op,
    view: tilec_ir::Type,
    index: &[tilec_ir::Value],
) -> VResult {
    if index.is_empty() {
        return Ok(());
    }
    let (tile, sparse) = match v.data(view) {
        TypeData::PartitionView { tile, .. } | TypeData::StridedView { tile, .. } => {
            (tile.clone(), None)
        }
        TypeData::GatherScatterView {
            tile, sparse_dim, ..
        } => (tile.clone(), Some(*sparse_dim as usize)),
        _ => return Ok(()),
    };
    let Some(sparse) = sparse else {
        for &x in index {
            let t = v.vty(x);
            if !v.shape(t).is_empty() {
                let found = v.ty(t);
                return Err(v.error(op, &cat::VIEW_INDEX_SCALAR, &[("found", &found)]));
            }
        }
        return Ok(());
    };
    if sparse >= index.len() {
        return Ok(());
    }
    let rows = v.vty(index[sparse]);
    let rank = v.shape(rows).len();
    if rank != 1 {
        return Err(v.error(
            op,
            &cat::GATHER_INDEX_RANK,
            &[("dim", &sparse), ("rank", &rank)],
        ));
    }
    let size = v.shape(rows)[0];
    let along = tile.get(sparse).copied().unwrap_or(0);
    if size != along {
        return Err(v.error(
            op,
            &cat::GATHER_INDEX_SIZE,
            &[("size", &size), ("dim", &sparse), ("tile", &along)],
        ));
    }
    let mut base = None;
    for (i, &x) in index.iter().enumerate() {
        if i == sparse {
            continue;
        }
        let t = v.vty(x);
        if !v.shape(t).is_empty() {
            return Err(v.error(op, &cat::GATHER_INDEX_SCALAR, &[("index", &i)]));
        }
        match base {
            None => base = Some(t),
            Some(b) if b != t => {
                let (expected, found) = (v.ty(b), v.ty(t));
                return Err(v.error(
                    op,
                    &cat::GATHER_INDEX_TYPE,
                    &[("index", &i), ("expected", &expected), ("found", &found)],
                ));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// `atomic_red_view_tko`, in NVIDIA's order: the view's kind and padding, the value's
/// element type and shape, the mode, the ordering and scope, the indices.
pub(crate) fn atomic_red_view(v: &mut Verifier<'_>, op: Op) -> VResult {
    use tilec_ir::attrs::{AtomicRmwMode, MemoryOrdering, MemoryScope};
    let Some(view) = v.operand_of(op, "view").map(|x| v.vty(x)) else {
        return Ok(());
    };
    let Some(value) = v.operand_of(op, "value").map(|x| v.vty(x)) else {
        return Ok(());
    };
    if matches!(v.data(view), TypeData::GatherScatterView { .. }) {
        return Err(v.error(op, &cat::RED_VIEW_GATHER, &[]));
    }
    let Some((tile, tensor_view)) =
        v.m.ctx
            .types
            .tile_view_parts(view)
            .map(|(t, tv)| (t.to_vec(), tv))
    else {
        return Ok(());
    };
    if v.m.ctx.types.tile_view_padding(view).is_some() {
        return Err(v.error(op, &cat::RED_VIEW_PADDING, &[]));
    }
    let view_elem = v.elem_of(tensor_view);
    let value_elem = v.elem_of(value);
    if view_elem != value_elem {
        let (a, b) = (v.ty(view_elem), v.ty(value_elem));
        return Err(v.error(op, &cat::RED_VIEW_ELEMENT, &[("view", &a), ("value", &b)]));
    }
    if v.shape(value) != &tile[..] {
        let (a, b) = (comma_shape(&tile), comma_shape(v.shape(value)));
        return Err(v.error(op, &cat::RED_VIEW_SHAPE, &[("view", &a), ("value", &b)]));
    }
    let mode = v
        .enum_attr(op, "mode")
        .and_then(|(_, i)| AtomicRmwMode::from_index(i));
    if let Some(mode) = mode {
        use tilec_ir::float::FloatKind as K;
        let name = mode.name();
        match mode {
            AtomicRmwMode::Xchg => return Err(v.error(op, &cat::RED_VIEW_XCHG, &[])),
            AtomicRmwMode::AddF => {
                if !matches!(
                    v.data(value_elem),
                    TypeData::Float(K::F16 | K::BF16 | K::F32 | K::F64)
                ) {
                    return Err(v.error(op, &cat::RED_VIEW_ADDF, &[("mode", &name)]));
                }
            }
            _ => {
                if !matches!(v.data(value_elem), TypeData::Int(32 | 64)) {
                    return Err(v.error(op, &cat::RED_VIEW_INTEGER_MODE, &[("mode", &name)]));
                }
            }
        }
    }
    let ordering = v
        .enum_attr(op, "memory_ordering_semantics")
        .and_then(|(_, i)| MemoryOrdering::from_index(i));
    if ordering.is_some_and(|o| o != MemoryOrdering::Relaxed) {
        return Err(v.error(op, &cat::RED_VIEW_ORDERING, &[]));
    }
    let scope = v
        .enum_attr(op, "memory_scope")
        .and_then(|(_, i)| MemoryScope::from_index(i));
    if scope == Some(MemoryScope::Sys) {
        return Err(v.error(op, &cat::RED_VIEW_SCOPE, &[]));
    }
    let index = v.operands_of(op, "index");
    if index.len() != tile.len() {
        return Err(v.error(
            op,
            &cat::RED_VIEW_INDEX_COUNT,
            &[("expected", &tile.len()), ("found", &index.len())],
        ));
    }
    for (i, &x) in index.iter().enumerate() {
        let t = v.vty(x);
        if !v.shape(t).is_empty() {
            let shape = comma_shape(v.shape(t));
            return Err(v.error(
                op,
                &cat::RED_VIEW_INDEX_SCALAR,
                &[("index", &i), ("shape", &shape)],
            ));
        }
    }
    Ok(())
}

/// One result per dimension of the tensor view.
fn get_tensor_shape(v: &mut Verifier<'_>, op: Op) -> VResult {
    results_per_dimension(v, op, &cat::TENSOR_SHAPE_RESULTS)
}

/// One result per dimension of the view's index space (a partition view's tile rank).
fn get_index_space_shape(v: &mut Verifier<'_>, op: Op) -> VResult {
    results_per_dimension(v, op, &cat::INDEX_SPACE_RESULTS)
}

/// The shape queries return one result per dimension of their operand.
fn results_per_dimension(
    v: &mut Verifier<'_>,
    op: Op,
    e: &'static tilec_diag::codes::CodeInfo,
) -> VResult {
    let m = v.m;
    let rank = v.rank(m.value_type(m.operand(op, 0)));
    let found = m.num_results(op);
    if found != rank {
        return Err(v.error(op, e, &[("expected", &rank), ("found", &found)]));
    }
    Ok(())
}

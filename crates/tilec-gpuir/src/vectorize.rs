//! `gpu-vectorize`: the width of every global memory access, decided once and recorded on
//! the op (`ttg.vector`), so that the PTX writer only reads it.
//!
//! A vector access covers `w` register slots of one thread (2 or 4; 8 or 16 for 16-bit
//! and 8-bit integer elements, moved as `.b32` words; at most 16 bytes). It is chosen when
//! all of these hold (otherwise the access stays one `ld`/`st` per slot):
//!
//! * the layout's register bits `0..log2(w)` are the lowest index bits of the tile
//!   dimension on the view's innermost dimension (the last, or another under a
//!   transposing `dim_map`), so slots `s0..s0+w` (`s0` a multiple of `w`) hold `w`
//!   consecutive elements along it ([`crate::sizes::vector_slots_along`]);
//! * their addresses are consecutive: through a view, the innermost tile dimension maps to
//!   a view dimension of static stride 1; through a tile of pointers, the pointers form
//!   runs of at least `w` consecutive elements ([`crate::axis`]);
//! * the first address is a multiple of `w * element size` bytes: from the divisibility
//!   of the view's base address, of the other dimensions' strides and of the tile index
//!   (views), or of the first pointer of each run (pointer tiles). Where the IR proves no
//!   vector at all, the alignment the IR cannot see is checked when the kernel runs
//!   (`checks`: the view's base address and dynamic strides; pointer runs: the first
//!   pointer and the mask, `runtime`), with an element-wise fallback;
//! * the guard is the same for the `w` elements: masks of pointer accesses must be
//!   constant over runs of `w`; view bounds are uniform when the size of the innermost
//!   view dimension is a multiple of `w`. When it is not (`split`), the vector access runs
//!   when the whole vector is in bounds and one access per element, each with its own
//!   bound, when it is partly in bounds. Nothing out of bounds is ever accessed.
//!
//! The recorded form, a dictionary on `load_view_tko`, `store_view_tko`, `load_ptr_tko`,
//! `store_ptr_tko` and `ttg.async_copy_global_to_local`:
//!
//! ```text
//! {ttg.vector = {width = 8 : i32}}                                  proven
//! {ttg.vector = {width = 4 : i32, checks = array<i32: -1, 0>, split}} base and stride 0
//!                                                                   checked at run time
//! {ttg.vector = {width = 4 : i32, runtime}}                         pointer runs checked
//! {ttg.vector = {dim = 0 : i32, width = 8 : i32}}                   along tile dimension 0
//! ```
//!
//! (`-1` in `checks` is the base address, `d >= 0` the stride of view dimension `d`;
//! `dim`, when not the last tile dimension, is the one on the view's innermost dimension
//! under a transposing `dim_map`.) An access without the attribute moves one element at
//! a time. Each view access also gets
//! remark E0904 saying what was chosen, and when element by element, why.

use crate::axis::{Axis, MAX_DIV, lowbit};
use crate::layout::Layout;
use crate::sizes::{elem_bytes, vector_slots, vector_slots_along};
use tilec_ir::attrs::AttrData;
use tilec_ir::segments::operand_group;
use tilec_ir::{Module, Op, Opcode, Type, TypeData, Value};

/// The name of the attribute that records an access's vectors.
pub const VECTOR_ATTR: &str = "ttg.vector";

/// The name of the attribute that records which tile indexes of a view access are
/// provably non-negative (`array<i32: ...>`, their positions among the `index` operands),
/// so that the writer leaves out the run-time check that a negative index puts the whole
/// tile out of bounds. Recorded by gpu-vectorize from the same analysis as the widths.
pub const NONNEG_ATTR: &str = "ttg.index_nonneg";

/// The view and the tile index of `op`, if it accesses a view at a tile index: the ops
/// whose op-table entry has both a `view` and an `index` operand slot (the view loads and
/// stores, their atomic reduction, the asynchronous copy).
pub fn view_index(m: &Module, op: Op) -> Option<(Value, Vec<Value>)> {
    let def = m.def(op);
    let has = |name: &str| def.operands.iter().any(|s| s.name == name);
    if !(has("view") && has("index")) {
        return None;
    }
    Some((
        operand_group(m, op, "view")[0],
        operand_group(m, op, "index"),
    ))
}

/// Per `index` operand of view access `op`, whether [`NONNEG_ATTR`] says it is
/// non-negative (nothing recorded: none is).
pub fn nonneg_index(m: &Module, op: Op) -> Vec<bool> {
    let n = view_index(m, op).map_or(0, |(_, ix)| ix.len());
    let mut out = vec![false; n];
    if let Some(AttrData::DenseI32Array(xs)) =
        m.attr_named(op, NONNEG_ATTR).map(|a| m.ctx.attrs.get(a))
    {
        for &x in xs.iter() {
            if let Some(b) = usize::try_from(x).ok().and_then(|i| out.get_mut(i)) {
                *b = true;
            }
        }
    }
    out
}

/// Records [`NONNEG_ATTR`] on view access `op` from `axis` (replacing what was there;
/// nothing when no index is provably non-negative).
fn record_nonneg(m: &mut Module, axis: &Axis, op: Op) {
    let Some((_, index)) = view_index(m, op) else {
        return;
    };
    let xs: Box<[i32]> = index
        .iter()
        .enumerate()
        .filter(|(_, ix)| axis.info(m, **ix).nonneg)
        .map(|(i, _)| i as i32)
        .collect();
    m.remove_extra_attr(op, NONNEG_ATTR);
    if !xs.is_empty() {
        let a = m.ctx.attrs.intern(AttrData::DenseI32Array(xs));
        m.push_extra_attr(op, NONNEG_ATTR, a);
    }
}

/// Why the [`NONNEG_ATTR`] of `op` is invalid, if it is: on an op that does not access a
/// view at a tile index, or not a strictly increasing array of index positions.
pub fn nonneg_error(m: &Module, op: Op) -> Option<String> {
    let a = m.attr_named(op, NONNEG_ATTR)?;
    let Some((_, index)) = view_index(m, op) else {
        return Some(format!(
            "has '{NONNEG_ATTR}' but does not access a view at a tile index"
        ));
    };
    let AttrData::DenseI32Array(xs) = m.ctx.attrs.get(a) else {
        return Some(format!("attribute '{NONNEG_ATTR}' must be an array<i32>"));
    };
    let in_range = xs.iter().all(|&x| x >= 0 && (x as usize) < index.len());
    if !in_range || xs.windows(2).any(|w| w[0] >= w[1]) {
        return Some(format!(
            "'{NONNEG_ATTR}' must list index operand positions below {} in increasing order",
            index.len()
        ));
    }
    None
}

/// A global memory access of the kinds gpu-vectorize decides the width of.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Access {
    /// `load_view_tko` (`load`) or `store_view_tko`.
    View { load: bool },
    /// `load_ptr_tko` (`load`) or `store_ptr_tko`.
    Ptr { load: bool },
    /// `ttg.async_copy_global_to_local`.
    AsyncCopy,
}

/// The global access `op` is, with the value whose elements it moves (a load's result, a
/// store's tile, a copy's destination buffer), if it is one: the one list of the ops
/// whose global accesses the backend vectorises (gpu-vectorize, its verifier, the warps
/// and vector widths gpu-assign-layouts chooses).
pub fn global_access(m: &Module, op: Op) -> Option<(Access, Value)> {
    Some(match m.opcode(op) {
        Opcode::LoadViewTko => (Access::View { load: true }, m.result(op, 0)),
        Opcode::StoreViewTko => (
            Access::View { load: false },
            operand_group(m, op, "tile")[0],
        ),
        Opcode::LoadPtrTko => (Access::Ptr { load: true }, m.result(op, 0)),
        Opcode::StorePtrTko => (
            Access::Ptr { load: false },
            operand_group(m, op, "value")[0],
        ),
        Opcode::AsyncCopyGlobalToLocal => {
            (Access::AsyncCopy, m.operand(op, m.num_operands(op) - 1))
        }
        _ => return None,
    })
}

/// An alignment the kernel checks when it runs before taking a view's vectors.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AlignCheck {
    /// The view's base address, to `width * element size` bytes.
    Base,
    /// The (dynamic) stride of view dimension `d`, to `width` elements.
    Stride(usize),
}

/// How one global access is vectorised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vector {
    /// Elements per access (1: one at a time).
    pub width: usize,
    /// Views: a vector may straddle the end of the innermost dimension (vector access
    /// when entirely in bounds, element by element when partly).
    pub split: bool,
    /// Views: alignments checked when the kernel runs (then `split`).
    pub checks: Vec<AlignCheck>,
    /// Pointer tiles: each run of `width` pointers is one access when, at run time, its
    /// first pointer is aligned and its whole run unmasked; element by element otherwise.
    pub runtime: bool,
    /// Views: the tile dimension the vectors run along (`None`: the last; another under
    /// a transposing `dim_map`, whose view dimension is the view's innermost).
    pub dim: Option<usize>,
}

impl Vector {
    pub const SCALAR: Vector = Vector {
        width: 1,
        split: false,
        checks: Vec::new(),
        runtime: false,
        dim: None,
    };

    /// The vectors recorded on `op` ([`VECTOR_ATTR`]; one element at a time without it).
    pub fn of(m: &Module, op: Op) -> Vector {
        let Some(AttrData::Dict(entries)) =
            m.attr_named(op, VECTOR_ATTR).map(|a| m.ctx.attrs.get(a))
        else {
            return Vector::SCALAR;
        };
        let mut v = Vector::SCALAR;
        for (k, a) in entries.iter() {
            match (&**k, m.ctx.attrs.get(*a)) {
                ("width", AttrData::Int { value, .. }) => v.width = (*value).clamp(1, 16) as usize,
                ("split", _) => v.split = true,
                ("dim", AttrData::Int { value, .. }) => v.dim = usize::try_from(*value).ok(),
                ("runtime", _) => v.runtime = true,
                ("checks", AttrData::DenseI32Array(xs)) => {
                    v.checks = xs
                        .iter()
                        .map(|&x| {
                            if x < 0 {
                                AlignCheck::Base
                            } else {
                                AlignCheck::Stride(x as usize)
                            }
                        })
                        .collect();
                }
                _ => {}
            }
        }
        v
    }

    /// Records `self` on `op` (nothing for one element at a time).
    fn record(&self, m: &mut Module, op: Op) {
        if self.width < 2 {
            return;
        }
        let attrs = &mut m.ctx.attrs;
        let mut entries: Vec<(Box<str>, tilec_ir::Attr)> =
            vec![("width".into(), attrs.int(self.width as i64, Type::I32))];
        if !self.checks.is_empty() {
            let xs: Box<[i32]> = self
                .checks
                .iter()
                .map(|c| match c {
                    AlignCheck::Base => -1,
                    AlignCheck::Stride(d) => *d as i32,
                })
                .collect();
            entries.push(("checks".into(), attrs.intern(AttrData::DenseI32Array(xs))));
        }
        if self.runtime {
            entries.push(("runtime".into(), attrs.intern(AttrData::Unit)));
        }
        if let Some(d) = self.dim {
            entries.push(("dim".into(), attrs.int(d as i64, Type::I32)));
        }
        if self.split {
            entries.push(("split".into(), attrs.intern(AttrData::Unit)));
        }
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let dict = attrs.intern(AttrData::Dict(entries.into_boxed_slice()));
        m.push_extra_attr(op, VECTOR_ATTR, dict);
    }
}

/// What the vector decision needs of a view: where its elements are, as the IR says.
#[derive(Clone, Debug)]
pub struct ViewDesc {
    /// The view value itself.
    pub value: Value,
    /// The base pointer (a rank-0 pointer tile) and whether it is a value the kernel
    /// holds in a register (not a constant).
    pub base: Value,
    pub base_in_register: bool,
    pub elem: Type,
    /// Static strides (`None`: dynamic).
    pub strides: Vec<Option<i64>>,
    /// Partition and strided views: the element distance between consecutive tile
    /// indices per tile dimension.
    pub step: Option<Vec<i64>>,
    /// Tile dimension `i` runs along view dimension `dim_map[i]`.
    pub dim_map: Vec<usize>,
    /// Gather/scatter views: the sparse dimension.
    pub sparse: Option<usize>,
}

/// The view `v` describes (through `assume`, partition, strided and gather/scatter views
/// to its `make_tensor_view`), or `None` when the IR does not say.
pub fn view_desc(m: &Module, v: Value) -> Option<ViewDesc> {
    let d = m.defining_op(v)?;
    match m.opcode(d) {
        Opcode::Assume | Opcode::PtrToPtr => {
            let mut view = view_desc(m, m.operand(d, 0))?;
            view.value = v;
            Some(view)
        }
        Opcode::MakeTensorView => {
            let TypeData::TensorView { elem, strides, .. } = m.ctx.types.get(m.value_type(v))
            else {
                return None;
            };
            let base = m.operand(d, 0);
            let base_in_register = m
                .defining_op(base)
                .is_none_or(|b| m.opcode(b) != Opcode::Constant);
            Some(ViewDesc {
                value: v,
                base,
                base_in_register,
                elem: *elem,
                strides: strides
                    .iter()
                    .map(|s| (*s != tilec_ir::types::DYNAMIC).then_some(*s))
                    .collect(),
                step: None,
                dim_map: (0..strides.len()).collect(),
                sparse: None,
            })
        }
        Opcode::MakePartitionView | Opcode::MakeStridedView | Opcode::MakeGatherScatterView => {
            let mut view = view_desc(m, m.operand(d, 0))?;
            let (step, dim_map, sparse) = match m.ctx.types.get(m.value_type(v)) {
                TypeData::PartitionView { tile, dim_map, .. } => (tile.to_vec(), dim_map, None),
                TypeData::StridedView {
                    traversal_strides,
                    dim_map,
                    ..
                } => (traversal_strides.to_vec(), dim_map, None),
                TypeData::GatherScatterView {
                    tile, sparse_dim, ..
                } => (
                    vec![1; tile.len()],
                    &Box::default(),
                    Some(*sparse_dim as usize),
                ),
                _ => return None,
            };
            view.dim_map = if dim_map.is_empty() {
                (0..step.len()).collect()
            } else {
                dim_map.iter().map(|d| *d as usize).collect()
            };
            view.step = Some(step);
            view.sparse = sparse;
            view.value = v;
            Some(view)
        }
        _ => None,
    }
}

/// The vectors of a view access of a tile of `shape` in `layout` at `index`: what the IR
/// proves, or with `runtime`, what it proves once the base address and the dynamic strides
/// are checked when the kernel runs.
pub fn view_vector(
    m: &Module,
    axis: &Axis,
    view: &ViewDesc,
    index: &[Value],
    shape: &[i64],
    layout: &Layout,
    runtime: bool,
) -> Vector {
    let elem = view.elem;
    // The tile dimension on the view's innermost dimension, which must have stride 1.
    let last = view.strides.len().checked_sub(1);
    let Some(vd) =
        (0..shape.len()).find(|&i| Some(view.dim_map.get(i).copied().unwrap_or(i)) == last)
    else {
        return Vector::SCALAR;
    };
    // A gather/scatter view's rows are anywhere: vectors run inside a row (the row
    // stride's divisibility counts as any other dimension's stride), never across rows.
    let mut w = vector_slots_along(layout, shape, elem, vd);
    if w < 2 || view.sparse == Some(vd) {
        return Vector::SCALAR;
    }
    let Some(info) = axis.view(view.value) else {
        return Vector::SCALAR;
    };
    let d_in = view.dim_map.get(vd).copied().unwrap_or(vd);
    if view.strides.get(d_in) != Some(&Some(1)) {
        return Vector::SCALAR;
    }
    let size = elem_bytes(elem) as u64;
    // Divisibility (bytes) of the address of each vector's first element, from what the
    // IR proves; with `runtime`, the base address and the dynamic strides of the other
    // dimensions are left to a check when the kernel runs (`dynamic`).
    let base_checked = runtime && info.base_div < w as u64 * size && view.base_in_register;
    let mut align = if base_checked { MAX_DIV } else { info.base_div };
    let mut dynamic: Vec<usize> = Vec::new();
    for (i, dim) in shape.iter().enumerate() {
        let d = view.dim_map.get(i).copied().unwrap_or(i);
        let term = if i == vd {
            // index * step + (thread and slot parts, multiples of w)
            let tile = view.step.as_ref().and_then(|t| t.get(i)).copied();
            let from_index = index.get(i).map_or(MAX_DIV, |ix| {
                let div = axis.info(m, *ix).elem_div();
                div.saturating_mul(lowbit(tile.unwrap_or(*dim)))
            });
            from_index.min(w as u64)
        } else {
            let div = info.stride_div.get(d).copied().unwrap_or(1);
            match view.strides.get(d) {
                Some(None) if runtime && div < w as u64 => {
                    dynamic.push(d);
                    MAX_DIV
                }
                _ => div,
            }
        };
        align = align.min(term.saturating_mul(size));
    }
    while w > 1 && align < w as u64 * size {
        w /= 2;
    }
    if w < 2 {
        return Vector::SCALAR;
    }
    let mut checks = Vec::new();
    if base_checked {
        checks.push(AlignCheck::Base);
    }
    checks.extend(dynamic.into_iter().map(AlignCheck::Stride));
    let split = !checks.is_empty() || info.shape_div.get(d_in).copied().unwrap_or(1) < w as u64;
    Vector {
        width: w,
        split,
        checks,
        runtime: false,
        dim: (vd + 1 != shape.len()).then_some(vd),
    }
}

/// The vectors of an access through a tile of pointers `ptrs_v` (with mask `mask_v`):
/// runs the IR proves consecutive, aligned and uniformly masked; otherwise, unless
/// `generic` (shared memory behind generic pointers) or `i1`, runs proven consecutive
/// checked when the kernel runs.
pub fn ptr_vector(
    m: &Module,
    axis: &Axis,
    ptrs_v: Value,
    mask_v: Option<Value>,
    layout: &Layout,
    elem: Type,
    generic: bool,
) -> Vector {
    let shape = m.ctx.types.shape(m.value_type(ptrs_v)).to_vec();
    let slots = vector_slots(layout, &shape, elem);
    if slots < 2 || shape.is_empty() {
        return Vector::SCALAR;
    }
    let inner = shape.len() - 1;
    let size = elem_bytes(elem) as u64;
    let p = axis.info(m, ptrs_v);
    let mask = mask_v.map(|v| axis.info(m, v));
    let mut w = slots;
    while w > 1 {
        let wu = w as u64;
        if p.contig[inner] >= wu
            && p.first_div(inner, wu) >= wu * size
            && mask.as_ref().is_none_or(|mk| mk.cons[inner] >= wu)
        {
            break;
        }
        w /= 2;
    }
    if w > 1 {
        return Vector {
            width: w,
            ..Vector::SCALAR
        };
    }
    if generic || elem == Type::I1 || p.contig[inner] < slots as u64 {
        return Vector::SCALAR;
    }
    Vector {
        width: slots,
        runtime: true,
        ..Vector::SCALAR
    }
}

/// The layout of `ttg.async_copy_global_to_local` `op` copying a tile of `shape` and
/// `elem` ([`crate::sizes::async_copy_layout`]) and its `contiguity` (0 without): vectors
/// of `contiguity` elements when it has one (a width convert-to-gpu versioned the copy
/// on, so that the lanes of one copy write consecutive bytes), of 16 bytes otherwise.
pub fn async_copy_layout_of(
    m: &Module,
    op: Op,
    shape: &[i64],
    elem: Type,
    warp_bits: u32,
) -> (Layout, usize) {
    let size = elem_bytes(elem) as u64;
    let contiguity = m
        .attr_named(op, "contiguity")
        .and_then(|a| m.ctx.attrs.get_int(a))
        .unwrap_or(0) as usize;
    let max_bytes = if contiguity > 1 {
        (contiguity as u64 * size).min(16) as u32
    } else {
        16
    };
    (
        crate::sizes::async_copy_layout(shape, elem, warp_bits, max_bytes),
        contiguity,
    )
}

/// The vector width of `ttg.async_copy_global_to_local` `op` (elements per `cp.async`):
/// what the view proves, or its `contiguity` (a width convert-to-gpu versioned the copy
/// on) over a unit inner stride, at most the runs a swizzled destination keeps together;
/// 1 with `generic` (`cp.async` reads global memory only).
fn async_copy_width(m: &Module, axis: &Axis, op: Op, warp_bits: u32, generic: bool) -> usize {
    let n = m.num_operands(op);
    let view_v = m.operand(op, 0);
    let index: Vec<Value> = (1..n - 1).map(|i| m.operand(op, i)).collect();
    let dst = m.operand(op, n - 1);
    let Some(view) = view_desc(m, view_v) else {
        return 1;
    };
    let shape = m.ctx.types.shape(m.value_type(dst)).to_vec();
    let elem = view.elem;
    let size = elem_bytes(elem) as u64;
    let (layout, contiguity) = async_copy_layout_of(m, op, &shape, elem, warp_bits);
    let proved = view_vector(m, axis, &view, &index, &shape, &layout, false).width;
    // The tile's last dimension runs along a unit stride (a `dim_map` may send it along
    // another of the view's dimensions: a transposed operand, whose vectors the copy
    // cannot take from consecutive addresses).
    let unit_inner = view
        .dim_map
        .last()
        .and_then(|&d| view.strides.get(d))
        .is_some_and(|s| *s == Some(1));
    let mut vw = if contiguity > 1 && unit_inner {
        contiguity
            .min(vector_slots(&layout, &shape, elem))
            .max(proved)
    } else {
        proved
    };
    if let TypeData::MemDesc {
        shape,
        order,
        swizzle,
        ..
    } = m.ctx.types.get(m.value_type(dst))
    {
        for (d, _) in crate::layout::swizzle_pairs(shape, order, *swizzle) {
            vw = vw.min(1 << d);
        }
    }
    let bytes = vw as u64 * size;
    if vw > 1 && matches!(bytes, 4 | 8 | 16) && !generic {
        vw
    } else {
        1
    }
}

/// The `gpu-vectorize` pass: records [`VECTOR_ATTR`] on every global access of every
/// entry of GPU-level IR `m` (replacing what was recorded), and returns remark E0904 for
/// each view access, in program order. Each entry's layouts say its warps (`warp_bits`
/// for an entry without a layout).
pub fn vectorize(m: &mut Module, warp_bits: u32) -> Vec<tilec_diag::Diagnostic> {
    let mut remarks = Vec::new();
    let mut entries = Vec::new();
    m.walk(|op| {
        if m.opcode(op) == Opcode::Entry {
            entries.push(op);
        }
    });
    for e in entries {
        let Some(body) = m.entry_block(m.region(e, 0)) else {
            continue;
        };
        let warp_bits = crate::gpu::entry_warp_bits(m, e).unwrap_or(warp_bits);
        let axis = Axis::run(m, body);
        let mut ops = Vec::new();
        let mut indexed = Vec::new();
        let mut generic = false;
        m.walk_op(e, &mut |o| {
            generic |= m.opcode(o) == Opcode::Alloca;
            if let Some((access, tile)) = global_access(m, o) {
                ops.push((o, access, tile));
            }
            if view_index(m, o).is_some() {
                indexed.push(o);
            }
        });
        for o in indexed {
            record_nonneg(m, &axis, o);
        }
        let mut decided = Vec::with_capacity(ops.len());
        for (op, access, tile) in ops {
            let v = decide(m, &axis, op, access, tile, warp_bits, generic, &mut remarks);
            decided.push((op, v));
        }
        for (op, v) in decided {
            m.remove_extra_attr(op, VECTOR_ATTR);
            v.record(m, op);
        }
    }
    remarks
}

/// The layout decoded from a tile type's `#ttg.linear` encoding.
fn layout_of(m: &Module, v: Value, warp_bits: u32) -> Option<Layout> {
    let types = &m.ctx.types;
    let ty = m.value_type(v);
    let enc = types.encoding(ty)?;
    Layout::from_encoding(types.get(enc), types.shape(ty), warp_bits).ok()
}

#[allow(clippy::too_many_arguments)]
fn decide(
    m: &Module,
    axis: &Axis,
    op: Op,
    access: Access,
    tile_v: Value,
    warp_bits: u32,
    generic: bool,
    remarks: &mut Vec<tilec_diag::Diagnostic>,
) -> Vector {
    match access {
        Access::AsyncCopy => Vector {
            width: async_copy_width(m, axis, op, warp_bits, generic),
            ..Vector::SCALAR
        },
        Access::Ptr { load } => {
            let ptrs_v = operand_group(m, op, if load { "source" } else { "destination" })[0];
            let mask_v = operand_group(m, op, "mask").first().copied();
            let Some(layout) = layout_of(m, ptrs_v, warp_bits) else {
                return Vector::SCALAR;
            };
            let elem = pointee(m, ptrs_v);
            ptr_vector(m, axis, ptrs_v, mask_v, &layout, elem, generic)
        }
        Access::View { load } => {
            let view_v = operand_group(m, op, "view")[0];
            let index = operand_group(m, op, "index");
            let (Some(view), Some(layout)) =
                (view_desc(m, view_v), layout_of(m, tile_v, warp_bits))
            else {
                return Vector::SCALAR;
            };
            let shape = m.ctx.types.shape(m.value_type(tile_v)).to_vec();
            let mut v = view_vector(m, axis, &view, &index, &shape, &layout, false);
            if v.width < 2 {
                v = view_vector(m, axis, &view, &index, &shape, &layout, true);
            }
            if let Some(r) = remark(m, op, load, &view, &shape, &layout, &v) {
                remarks.push(r);
            }
            v
        }
    }
}

/// The pointee type of a tile of pointers.
fn pointee(m: &Module, ptrs_v: Value) -> Type {
    let elem = m.ctx.types.element_type(m.value_type(ptrs_v));
    match m.ctx.types.get(elem) {
        TypeData::Ptr(p) => *p,
        _ => Type::I8,
    }
}

/// Remark E0904: how a view access moves its tile, and when element by element, why.
fn remark(
    m: &Module,
    op: Op,
    load: bool,
    view: &ViewDesc,
    shape: &[i64],
    layout: &Layout,
    v: &Vector,
) -> Option<tilec_diag::Diagnostic> {
    let elems: i64 = shape.iter().product();
    if elems <= 1 {
        return None;
    }
    let what = if load { "load" } else { "store" };
    let dims = shape
        .iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("x");
    let ty = format!("{dims} {}", m.ctx.types.to_string(view.elem, false));
    let size = elem_bytes(view.elem) as usize;
    let msg = if v.width > 1 {
        let bits = v.width * size * 8;
        let how = if v.checks.is_empty() {
            "the alignment is proven".to_string()
        } else {
            "when the base address and the row strides are aligned for it at run time; one element per access otherwise".to_string()
        };
        format!(
            "{what} of a {ty} tile: {bits}-bit accesses ({} elements each), {how}",
            v.width
        )
    } else {
        let last = view.strides.len().checked_sub(1);
        let vd =
            (0..shape.len()).find(|&i| Some(view.dim_map.get(i).copied().unwrap_or(i)) == last);
        let why = if vd.is_some() && view.sparse == vd {
            "the elements along a gather/scatter view's sparse dimension are gathered one by one"
        } else if vd.is_none() {
            "no tile dimension runs along the view's innermost dimension"
        } else if last.and_then(|d| view.strides.get(d)) != Some(&Some(1)) {
            "the view's innermost dimension is not contiguous in memory (its stride is not 1)"
        } else if vd.is_some_and(|vd| vector_slots_along(layout, shape, view.elem, vd) < 2) {
            "the layout gives a thread one element of each run"
        } else {
            "the tile index does not keep the vectors aligned"
        };
        format!("{what} of a {ty} tile: one element per access: {why}")
    };
    let span = m.op_span(op).unwrap_or(tilec_diag::Span::new(0, 0));
    let file = m.file().unwrap_or(tilec_diag::FileId(0));
    Some(
        tilec_diag::Diagnostic::remark(tilec_diag::codes::VECTOR_ACCESS, msg)
            .at(tilec_diag::Location::new(file, span)),
    )
}

/// Why the [`VECTOR_ATTR`] of `op` is invalid, if it is: on an op that is not a global
/// access, not a dictionary of `width` (a power of two the access's layout holds in
/// consecutive slots), `checks` (views: `-1` or a dynamic stride's dimension), `split`
/// (views) and `runtime` (pointer tiles).
pub fn vector_error(m: &Module, op: Op, warp_bits: u32) -> Option<String> {
    let a = m.attr_named(op, VECTOR_ATTR)?;
    let Some((access, tile_v)) = global_access(m, op) else {
        return Some(format!(
            "has '{VECTOR_ATTR}' but is not a global memory access"
        ));
    };
    let is_view = matches!(access, Access::View { .. });
    let AttrData::Dict(entries) = m.ctx.attrs.get(a) else {
        return Some(format!("attribute '{VECTOR_ATTR}' must be a dictionary"));
    };
    let mut width = None;
    for (k, v) in entries.iter() {
        let ok = match (&**k, m.ctx.attrs.get(*v)) {
            ("width", AttrData::Int { value, .. }) => {
                width = Some(*value);
                true
            }
            ("split", AttrData::Unit) => is_view,
            ("checks", AttrData::DenseI32Array(_)) => is_view,
            ("dim", AttrData::Int { .. }) => is_view,
            ("runtime", AttrData::Unit) => matches!(access, Access::Ptr { .. }),
            _ => false,
        };
        if !ok {
            return Some(format!("'{VECTOR_ATTR}' has an invalid entry '{k}'"));
        }
    }
    let Some(width) = width else {
        return Some(format!("'{VECTOR_ATTR}' has no 'width'"));
    };
    if width < 2 || !(width as u64).is_power_of_two() {
        return Some(format!(
            "'{VECTOR_ATTR}' width must be a power of two of at least 2 (got {width})"
        ));
    }
    let v = Vector::of(m, op);
    let ty = m.value_type(tile_v);
    let shape = m.ctx.types.shape(ty).to_vec();
    let elem = m.ctx.types.element_type(ty);
    let most = match access {
        // A copy's layout is made for its width (sizes::async_copy_layout).
        Access::AsyncCopy => 16 / elem_bytes(elem) as i64,
        Access::View { .. } | Access::Ptr { .. } => {
            let layout = layout_of(m, tile_v, warp_bits)?;
            let dim = v.dim.unwrap_or(shape.len().saturating_sub(1));
            vector_slots_along(&layout, &shape, elem, dim) as i64
        }
    };
    if width > most {
        return Some(format!(
            "'{VECTOR_ATTR}' width {width} is more than the {most} consecutive elements a thread holds"
        ));
    }
    if is_view {
        let view = view_desc(m, operand_group(m, op, "view")[0])?;
        for c in &v.checks {
            if let AlignCheck::Stride(d) = c
                && view.strides.get(*d) != Some(&None)
            {
                return Some(format!(
                    "'{VECTOR_ATTR}' checks the stride of dimension {d}, which is not a dynamic stride of the view"
                ));
            }
        }
    }
    None
}

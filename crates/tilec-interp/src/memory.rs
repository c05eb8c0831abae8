//! Memory ops: tensor and partition views, loads and stores through views and pointers,
//! atomics, and the module's globals.
//!
//! Elements outside a partition view's tensor read as the view's padding value (zero when
//! it has none, as the PTX backend does; the spec leaves them unspecified) and are not
//! written by stores. Masked-off pointer loads give the padding operand (or zero). An
//! access of memory outside every buffer is undefined behaviour and reported. Ops of one
//! tile block run in program order and the elements of one op in row-major order, so the
//! results of atomics are deterministic.

use crate::exec::{Ctx, R, int_width, mask};
use crate::mem::{Memory, elem_bytes};
use crate::value::{PartitionView, TensorView, Tile, Val, coords_of};
use std::rc::Rc;
use tilec_ir::attrs::{AtomicRmwMode, AttrData, EnumKind, PaddingValue};
use tilec_ir::segments::operand_group;
use tilec_ir::types::DYNAMIC;
use tilec_ir::util::{FxHashMap, sign_extend};
use tilec_ir::{Module, Op, Opcode, Type, TypeData};

/// Allocates every `global` of `m` with its initial value; returns their addresses by name.
pub fn alloc_globals(m: &Module, mem: &mut Memory) -> FxHashMap<String, u64> {
    let mut out = FxHashMap::default();
    m.walk(|op| {
        if m.opcode(op) != Opcode::Global {
            return;
        }
        let name = match m.attr_named(op, "sym_name").map(|a| m.ctx.attrs.get(a)) {
            Some(AttrData::String(s)) | Some(AttrData::SymbolRef(s)) => s.to_string(),
            _ => return,
        };
        let Some(AttrData::Dense(d)) = m.attr_named(op, "value").map(|a| m.ctx.attrs.get(a)) else {
            return;
        };
        let elem = m.ctx.types.element_type(d.ty);
        let n = m.ctx.types.shape(d.ty).iter().product::<i64>().max(1) as usize;
        let size = elem_bytes(&m.ctx.types, elem);
        let mut data = vec![0u8; n * size];
        for i in 0..n {
            let bits = if d.splat {
                d.values[0]
            } else {
                d.values.get(i).copied().unwrap_or(0)
            };
            let bits = crate::mem::encode(&m.ctx.types, elem, bits);
            data[i * size..(i + 1) * size].copy_from_slice(&bits.to_le_bytes()[..size]);
        }
        let base = mem.alloc(data);
        let i = mem.buffers.len() - 1;
        mem.set_name(i, format!("global @{name}"));
        out.insert(name, base);
    });
    out
}

/// The bit pattern of a padding value in `elem`.
fn padding_bits(m: &Module, elem: Type, p: Option<PaddingValue>) -> u64 {
    let Some(k) = tilec_ir::attrs::float_kind(&m.ctx.types, elem) else {
        return 0;
    };
    let f = match p {
        None | Some(PaddingValue::Zero) => 0.0,
        Some(PaddingValue::NegZero) => -0.0,
        Some(PaddingValue::Nan) => f64::NAN,
        Some(PaddingValue::PosInf) => f64::INFINITY,
        Some(PaddingValue::NegInf) => f64::NEG_INFINITY,
    };
    tilec_ir::float::round_from_f64(k, f)
}

/// Per element of a view access: its address and whether it is inside the tensor; the
/// view's padding.
type ViewElements = (Vec<(u64, bool)>, Option<PaddingValue>);

/// The most bytes one tile block's `alloca`s may hold in the interpreter.
pub(crate) const ALLOCA_LIMIT: u64 = 1 << 30;

impl Ctx<'_, '_> {
    /// The memory holding `addr`: the block's allocas, or the run's buffers.
    fn mem_at(&self, addr: u64) -> &Memory {
        if addr >= crate::mem::LOCAL_BASE {
            &self.local
        } else {
            self.mem
        }
    }

    /// `alloca`: a zero-filled buffer of `num_elem` elements of the pointee type, private
    /// to this tile block (every buffer starts 4 GiB-aligned, so any alignment up to that
    /// holds). `global` makes no difference here: one tile block is one tile thread.
    pub(crate) fn alloca(&mut self, op: Op) -> R<()> {
        let m = self.m;
        let r = m.result(op, 0);
        let addr = match self.allocas.get(&op) {
            Some(a) => *a,
            None => {
                let (n, align) = (
                    self.int_attr(op, "num_elem"),
                    self.int_attr(op, "alignment"),
                );
                let TypeData::Ptr(pointee) = m.ctx.types.get(self.elem_of(r)) else {
                    return Err("alloca: the result is not a pointer tile".to_string());
                };
                let size = elem_bytes(&m.ctx.types, *pointee) as u64;
                let bytes = u64::try_from(n)
                    .ok()
                    .and_then(|n| n.checked_mul(size))
                    .filter(|b| {
                        let used: u64 = self.local.buffers.iter().map(|b| b.len() as u64).sum();
                        used + b <= ALLOCA_LIMIT
                    })
                    .ok_or_else(|| {
                        format!(
                            "alloca of {n} elements of {size} bytes exceeds the interpreter's limit of {ALLOCA_LIMIT} bytes of allocas per tile block"
                        )
                    })?;
                if align > 1 << 32 {
                    return Err(format!(
                        "alloca alignment {align} is more than the interpreter's 4 GiB"
                    ));
                }
                let a = self.local.alloc(vec![0; bytes as usize]);
                self.allocas.insert(op, a);
                a
            }
        };
        self.set_tile(r, Tile::scalar(self.elem_of(r), addr));
        Ok(())
    }

    fn load_elem(&self, elem: Type, addr: u64) -> R<u64> {
        let size = elem_bytes(&self.m.ctx.types, elem);
        Ok(crate::mem::decode(
            &self.m.ctx.types,
            elem,
            self.mem_at(addr).read(addr, size)?,
        ))
    }

    /// One atomic read-modify-write of the element at `addr`; returns its old value.
    fn update_elem(&self, elem: Type, addr: u64, f: impl Fn(u64) -> u64) -> R<u64> {
        let types = &self.m.ctx.types;
        let size = elem_bytes(types, elem);
        let old = self.mem_at(addr).update(addr, size, |b| {
            crate::mem::encode(types, elem, f(crate::mem::decode(types, elem, b)))
        })?;
        Ok(crate::mem::decode(types, elem, old))
    }

    fn store_elem(&self, elem: Type, addr: u64, bits: u64) -> R<()> {
        let size = elem_bytes(&self.m.ctx.types, elem);
        let b = crate::mem::encode(&self.m.ctx.types, elem, bits);
        self.mem_at(addr).write(addr, size, b)
    }

    /// Resolves the tensor coordinates of every element of a tile loaded or stored at
    /// `index` of `view`: `(address, in bounds)` per element, and the padding. `rows` are
    /// the row indices of a gather/scatter view's sparse dimension (a row outside the
    /// tensor is an out-of-bounds element, padded on loads and masked on stores).
    fn view_elements(
        &self,
        view: &Val,
        index: &[i64],
        rows: Option<&[i64]>,
        tile_shape: &[i64],
    ) -> R<ViewElements> {
        let tensor_view;
        let (tv, tile, pad, dim_map, traversal, sparse) = match view {
            Val::PartitionView(p) => (
                &p.tensor,
                &p.tile[..],
                p.padding,
                &p.dim_map[..],
                &p.traversal[..],
                p.sparse_dim,
            ),
            Val::TensorView(t) => {
                tensor_view = (0..t.shape.len()).collect::<Vec<usize>>();
                (t, &t.shape[..], None, &tensor_view[..], &t.shape[..], None)
            }
            _ => return Err("internal error: expected a view".into()),
        };
        if let Val::PartitionView(p) = view {
            // An index outside the index space is an out-of-bounds view access (the
            // spec leaves it undefined). Padding covers the ragged last tiles.
            let space = p.index_space();
            if (0..tile.len()).any(|d| {
                let i = index.get(d).copied().unwrap_or(0);
                sparse != Some(d) && (i < 0 || i >= space[d])
            }) {
                let list = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
                return Err(format!(
                    "tile index ({}) is outside the view's index space ({}): an out-of-bounds view access",
                    list(index),
                    list(&space)
                ));
            }
        }
        let size = elem_bytes(&self.m.ctx.types, tv.elem) as i64;
        let n: usize = tile_shape.iter().product::<i64>() as usize;
        let mut c = vec![0i64; tile_shape.len()];
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            coords_of(tile_shape, i, &mut c);
            let mut off = 0i64;
            let mut inside = true;
            for d in 0..tile.len() {
                let td = dim_map[d];
                let x = match (sparse, rows) {
                    (Some(s), Some(rows)) if s == d => {
                        rows.get(c[d] as usize).copied().unwrap_or(-1)
                    }
                    _ => index
                        .get(d)
                        .copied()
                        .unwrap_or(0)
                        .wrapping_mul(traversal[d])
                        .wrapping_add(c[d]),
                };
                if x < 0 || x >= tv.shape[td] {
                    inside = false;
                }
                off = off.wrapping_add(x.wrapping_mul(tv.strides[td]));
            }
            out.push((tv.base.wrapping_add(off.wrapping_mul(size) as u64), inside));
        }
        Ok((out, pad))
    }

    /// The index operands of a view access: the scalar indices, and the row indices of a
    /// gather/scatter view's sparse dimension (whose entry in the scalars is 0).
    fn view_index(&self, op: Op, view: &Val) -> R<(Vec<i64>, Option<Vec<i64>>)> {
        let sparse = match view {
            Val::PartitionView(p) => p.sparse_dim,
            _ => None,
        };
        let mut index = Vec::new();
        let mut rows = None;
        for (d, v) in operand_group(self.m, op, "index").into_iter().enumerate() {
            if sparse == Some(d) {
                let t = self.tile(v)?;
                let w = int_width(t.elem);
                rows = Some(t.bits.iter().map(|b| sign_extend(*b, w)).collect());
                index.push(0);
            } else {
                index.push(self.int(v)?);
            }
        }
        Ok((index, rows))
    }

    pub(crate) fn memory_op(&mut self, op: Op) -> R<()> {
        use Opcode as O;
        let m = self.m;
        match m.opcode(op) {
            O::MakeTensorView => {
                let r = m.result(op, 0);
                let TypeData::TensorView {
                    elem,
                    shape,
                    strides,
                } = m.ctx.types.get(m.value_type(r)).clone()
                else {
                    return Err("internal error: tensor view type".into());
                };
                let base = self.scalar(m.operand(op, 0))?;
                let dyn_shape: Vec<i64> = operand_group(m, op, "dynamicShape")
                    .into_iter()
                    .map(|v| self.int(v))
                    .collect::<R<_>>()?;
                let dyn_strides: Vec<i64> = operand_group(m, op, "dynamicStrides")
                    .into_iter()
                    .map(|v| self.int(v))
                    .collect::<R<_>>()?;
                let fill = |s: &[i64], d: &[i64]| {
                    let mut it = d.iter();
                    s.iter()
                        .map(|x| {
                            if *x == DYNAMIC {
                                it.next().copied().unwrap_or(0)
                            } else {
                                *x
                            }
                        })
                        .collect::<Vec<i64>>()
                };
                let shape = fill(&shape, &dyn_shape);
                let strides = fill(&strides, &dyn_strides);
                if let Some(d) = shape.iter().position(|x| *x < 0) {
                    return Err(format!(
                        "tensor view dimension {d} is negative ({})",
                        shape[d]
                    ));
                }
                self.set(
                    r,
                    Val::TensorView(Rc::new(TensorView {
                        base,
                        elem,
                        shape,
                        strides,
                    })),
                );
            }
            O::MakePartitionView | O::MakeStridedView | O::MakeGatherScatterView => {
                let r = m.result(op, 0);
                let (tile, padding, dim_map, traversal, sparse_dim) =
                    match m.ctx.types.get(m.value_type(r)).clone() {
                        TypeData::PartitionView {
                            tile,
                            padding,
                            dim_map,
                            ..
                        } => (tile.clone(), padding, dim_map, tile, None),
                        TypeData::StridedView {
                            tile,
                            traversal_strides,
                            padding,
                            dim_map,
                            ..
                        } => (tile, padding, dim_map, traversal_strides, None),
                        TypeData::GatherScatterView {
                            tile,
                            padding,
                            sparse_dim,
                            ..
                        } => {
                            // The indices of a gather/scatter view are element offsets in
                            // every dimension: the rows of the sparse one, and the first
                            // element of the tile in the dense ones (cuTile's
                            // `ct.Slice(start, length)` passes `start`, "an element-space
                            // start offset", as the index; its documented example loads
                            // columns 2..6 with index 2 and a tile of 4). So tiles start
                            // one element apart: a traversal of 1.
                            let identity = (0..tile.len() as i32).collect();
                            let ones: Box<[i64]> = vec![1; tile.len()].into();
                            (tile, padding, identity, ones, Some(sparse_dim as usize))
                        }
                        _ => return Err("internal error: tile view type".into()),
                    };
                let Val::TensorView(tensor) = self.val(m.operand(op, 0))? else {
                    return Err("internal error: expected a tensor view".into());
                };
                let dim_map: Vec<usize> = if dim_map.is_empty() {
                    (0..tile.len()).collect()
                } else {
                    dim_map.iter().map(|d| *d as usize).collect()
                };
                self.set(
                    r,
                    Val::PartitionView(Rc::new(PartitionView {
                        tensor: tensor.clone(),
                        tile: tile.to_vec(),
                        padding,
                        dim_map,
                        traversal: traversal.to_vec(),
                        sparse_dim,
                    })),
                );
            }
            O::GetTensorShape | O::GetIndexSpaceShape => {
                let dims: Vec<i64> = match self.val(m.operand(op, 0))? {
                    Val::TensorView(t) => t.shape.clone(),
                    Val::PartitionView(p) => p.index_space(),
                    _ => return Err("internal error: expected a view".into()),
                };
                let results: Vec<_> = m.results(op).collect();
                for (r, d) in results.into_iter().zip(dims) {
                    let e = self.elem_of(r);
                    self.set_tile(r, Tile::scalar(e, d as u64 & mask(int_width(e))));
                }
            }
            O::LoadViewTko => {
                let view = self.val(m.operand(op, 0))?.clone();
                let (index, rows) = self.view_index(op, &view)?;
                let r = m.result(op, 0);
                let (shape, elem) = (self.shape_of(r), self.elem_of(r));
                let (els, pad) = self.view_elements(&view, &index, rows.as_deref(), &shape)?;
                let padv = padding_bits(m, elem, pad);
                let bits = els
                    .iter()
                    .map(|(a, inside)| {
                        if *inside {
                            self.load_elem(elem, *a)
                        } else {
                            Ok(padv)
                        }
                    })
                    .collect::<R<Vec<u64>>>()?;
                self.set_tile(r, Tile { elem, shape, bits });
                self.set(m.result(op, 1), Val::Token);
            }
            O::StoreViewTko => {
                let t = self.tile(m.operand(op, 0))?.clone();
                let view = self.val(m.operand(op, 1))?.clone();
                let (index, rows) = self.view_index(op, &view)?;
                let (els, _) = self.view_elements(&view, &index, rows.as_deref(), &t.shape)?;
                for ((a, inside), b) in els.iter().zip(&t.bits) {
                    if *inside {
                        self.store_elem(t.elem, *a, *b)?;
                    }
                }
                self.set(m.result(op, 0), Val::Token);
            }
            O::AtomicRedViewTko => {
                // Elements outside the tensor are masked, as for stores.
                let view = self.val(m.operand(op, 0))?.clone();
                let (index, rows) = self.view_index(op, &view)?;
                let value = operand_group(m, op, "value");
                let Some(&value) = value.first() else {
                    return Err("internal error: atomic_red_view_tko without a value".into());
                };
                let t = self.tile(value)?.clone();
                let mode = self
                    .enum_attr(op, "mode", EnumKind::AtomicRmwMode)
                    .and_then(AtomicRmwMode::from_index);
                let kind = tilec_ir::attrs::float_kind(&m.ctx.types, t.elem);
                if mode == Some(AtomicRmwMode::AddF) && kind.is_none() {
                    return Err("atomic addf on a non-float".into());
                }
                let w = int_width(t.elem);
                let (els, _) = self.view_elements(&view, &index, rows.as_deref(), &t.shape)?;
                for ((a, inside), x) in els.iter().zip(&t.bits) {
                    if *inside {
                        self.update_elem(t.elem, *a, |old| rmw(mode, kind, w, old, *x))?;
                    }
                }
                self.set(m.result(op, 0), Val::Token);
            }
            O::LoadPtrTko | O::AtomicLoadTko => {
                let ptrs = self.tile(m.operand(op, 0))?.clone();
                let r = m.result(op, 0);
                let (shape, elem) = (self.shape_of(r), self.elem_of(r));
                let maskv = self.opt_tile(op, "mask")?;
                let pad = self.opt_tile(op, "paddingValue")?;
                let mut bits = Vec::with_capacity(ptrs.len());
                for (i, a) in ptrs.bits.iter().enumerate() {
                    if maskv.as_ref().is_some_and(|k| k.bits[i] & 1 == 0) {
                        bits.push(pad.as_ref().map_or(0, |p| p.bits[i.min(p.len() - 1)]));
                    } else {
                        bits.push(self.load_elem(elem, *a)?);
                    }
                }
                self.set_tile(r, Tile { elem, shape, bits });
                self.set(m.result(op, 1), Val::Token);
            }
            O::StorePtrTko | O::AtomicStoreTko => {
                let ptrs = self.tile(m.operand(op, 0))?.clone();
                let vals = self.tile(m.operand(op, 1))?.clone();
                let maskv = self.opt_tile(op, "mask")?;
                let mut written: FxHashMap<u64, (usize, u64)> = FxHashMap::default();
                for (i, a) in ptrs.bits.iter().enumerate() {
                    if maskv.as_ref().is_none_or(|k| k.bits[i] & 1 == 1) {
                        if self.conflicting_stores
                            && let Some((j, b)) = written.insert(*a, (i, vals.bits[i]))
                            && b != vals.bits[i]
                        {
                            return Err(format!(
                                "elements {j} and {i} write different values to address {a:#x}: which one memory keeps is not determined"
                            ));
                        }
                        self.store_elem(vals.elem, *a, vals.bits[i])?;
                    }
                }
                self.set(m.result(op, 0), Val::Token);
            }
            O::AtomicRmwTko | O::AtomicCasTko => {
                let cas = m.opcode(op) == O::AtomicCasTko;
                let ptrs = self.tile(m.operand(op, 0))?.clone();
                let arg = self.tile(m.operand(op, 1))?.clone();
                let val = if cas {
                    Some(self.tile(m.operand(op, 2))?.clone())
                } else {
                    None
                };
                let maskv = self.opt_tile(op, "mask")?;
                let mode = self
                    .enum_attr(op, "mode", EnumKind::AtomicRmwMode)
                    .and_then(AtomicRmwMode::from_index);
                let elem = arg.elem;
                let w = int_width(elem);
                let kind = tilec_ir::attrs::float_kind(&m.ctx.types, elem);
                if mode == Some(AtomicRmwMode::AddF) && kind.is_none() {
                    return Err("atomic addf on a non-float".into());
                }
                let r = m.result(op, 0);
                let mut old_bits = Vec::with_capacity(ptrs.len());
                for (i, a) in ptrs.bits.iter().enumerate() {
                    if maskv.as_ref().is_some_and(|k| k.bits[i] & 1 == 0) {
                        old_bits.push(0);
                        continue;
                    }
                    let x = arg.bits[i];
                    let swap = val.as_ref().map(|v| v.bits[i]);
                    let apply = |old: u64| match swap {
                        Some(v) => {
                            if old == x {
                                v
                            } else {
                                old
                            }
                        }
                        None => rmw(mode, kind, w, old, x),
                    };
                    let old = self.update_elem(elem, *a, apply)?;
                    old_bits.push(old);
                }
                let shape = self.shape_of(r);
                self.set_tile(
                    r,
                    Tile {
                        elem,
                        shape,
                        bits: old_bits,
                    },
                );
                self.set(m.result(op, 1), Val::Token);
            }
            _ => return Err(format!("the interpreter cannot run '{}'", m.def(op).name)),
        }
        Ok(())
    }

    /// The optional tile operand `name` of `op`.
    fn opt_tile(&self, op: Op, name: &str) -> R<Option<Tile>> {
        match operand_group(self.m, op, name).first() {
            Some(v) => Ok(Some(self.tile(*v)?.clone())),
            None => Ok(None),
        }
    }
}

/// The new value of an element `old` after the atomic `mode` with operand `x` (`w`: the
/// integer width; `kind`: the float kind of `addf`).
fn rmw(
    mode: Option<AtomicRmwMode>,
    kind: Option<tilec_ir::float::FloatKind>,
    w: u32,
    old: u64,
    x: u64,
) -> u64 {
    match mode {
        Some(AtomicRmwMode::And) => old & x,
        Some(AtomicRmwMode::Or) => old | x,
        Some(AtomicRmwMode::Xor) => old ^ x,
        Some(AtomicRmwMode::Add) => old.wrapping_add(x) & mask(w),
        Some(AtomicRmwMode::AddF) => match kind {
            Some(k) => crate::fp::add(k, old, x, tilec_ir::float::Round::NearestEven, false),
            None => old,
        },
        Some(AtomicRmwMode::Max) => {
            if sign_extend(x, w) > sign_extend(old, w) {
                x
            } else {
                old
            }
        }
        Some(AtomicRmwMode::Min) => {
            if sign_extend(x, w) < sign_extend(old, w) {
                x
            } else {
                old
            }
        }
        Some(AtomicRmwMode::UMax) => old.max(x),
        Some(AtomicRmwMode::UMin) => old.min(x),
        Some(AtomicRmwMode::Xchg) | None => x,
    }
}

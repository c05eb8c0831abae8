//! gpu-pipeline on sm_90a: the stages of a warpgroup MMA's K loop filled by the copy
//! engine (TMA) instead of `cp.async` (docs/hopper.md, "Tensor maps built by the kernel").
//!
//! Each operand the pipeline copies gets a tensor map, built by the kernel in a global
//! slot private to the CTA (`ttg.global_scratch_alloc` at the entry's top,
//! `ttng.tensormap_create` before the loop), and the stages get one mbarrier each
//! (`ttng.init_barrier`, count 1). Filling a stage is one `ttng.barrier_expect` of the
//! bytes of every operand's tile and one `ttng.async_tma_copy_global_to_local` per
//! operand; a K step waits on its stage's barrier (`ttng.wait_barrier`, phase
//! `((k - lb) / n) & 1`) before its product; after the loop the barriers are invalidated.
//!
//! Where what the copy engine needs is known only at run time (the rows of a dynamic
//! stride a multiple of 16 bytes), the copies are versioned like `cp.async`'s vector
//! widths: the TMA fills under `tma_ok`, the `cp.async` ones under its negation, which
//! also arrive on the stage's barrier (no bytes), so that the waits hold either way.

use super::{Assign, mma_swizzle};
use crate::axis::Axis;
use crate::target::Arch;
use tilec_ir::attrs::AttrData;
use tilec_ir::attrs::PaddingValue;
use tilec_ir::segments::operand_group;
use tilec_ir::{EnumKind, InsertPoint, Module, Op, OpSpec, Opcode, Swizzle, Type, TypeData, Value};

/// Shared memory a pipeline's budget keeps for what the copy engine brings beside the
/// stages: the mbarrier ring, the padding before the next 1024-byte aligned buffer, and
/// the tensor maps' scratch before the loop.
pub(super) const RING_RESERVE: u64 = 2048;

/// The smallest tile a store gives the copy engine: below it, building the tensor map and
/// the extra barriers cost more than the register store they replace. A map costs each
/// CTA a slot claim (a global atomic), about twenty `tensormap.replace`, a proxy fence and
/// a barrier before its one store, in kernels whose whole work is that tile: 16 KiB
/// keeps GEMM epilogues (64 x 64 f32 and up) on the copy engine and leaves transposes of
/// 8 KiB tiles (transpose2d, permute3d) and smaller rows to the register store. (ptxas
/// also spends a third more time on such a kernel with the map and its register
/// alternative.)
pub(super) const TMA_STORE_MIN_BYTES: u64 = 16384;

/// What a view's tiles need to go by the copy engine ([`Assign::tma_view`]).
pub(super) struct TmaView {
    pub swizzle_mode: i64,
    pub bytes: u64,
    pub checks: Vec<(Value, u64)>,
    pub base_check: Option<Value>,
}

/// How one operand's view loads go by the copy engine.
pub(super) struct TmaCopy {
    /// The operand (0: A, 1: B), and the view and tile indices of its load in the loop
    /// (which the pipeline erases).
    pub operand: usize,
    pub view: Value,
    pub index: Vec<Value>,
    /// `tensormap.replace.swizzle_mode`: 0 none, 1 32B, 2 64B, 3 128B.
    pub swizzle_mode: i64,
    /// Bytes of one tile.
    pub bytes: u64,
    /// The dynamic strides to check before the loop: each a positive multiple of this many
    /// elements (16 bytes).
    pub checks: Vec<(Value, u64)>,
    /// The base pointer, when it is to be checked 16-byte aligned before the loop.
    pub base_check: Option<Value>,
    /// The column blocks of a stage staged column-blocked (rows over one 128-byte atom:
    /// [`super::column_blocks`]), 1 otherwise: each block is one copy of
    /// a box of the tile's rows and `1 / blocks` of its columns, through a partition view
    /// of that tile ([`Assign::block_views`] makes it).
    pub blocks: i64,
}

/// The copy engine's swizzle mode for rows of `row` bytes staged with `swizzle`, if it is
/// one: the NVMMA swizzles of [`mma_swizzle`] are the modes of a row of 32, 64 and 128
/// bytes; rows of 16 bytes or less are unswizzled.
fn swizzle_mode(row: u64, swizzle: Swizzle) -> Option<i64> {
    if swizzle.is_identity() {
        return (row.is_multiple_of(16) && row <= 16).then_some(0);
    }
    let mode = match row {
        32 => 1,
        64 => 2,
        128 => 3,
        _ => return None,
    };
    (swizzle.per_phase as u64 == 128 / row && swizzle.max_phase as u64 == row / 16).then_some(mode)
}

/// `cmpi`'s `equal` and `greater_than` (cases of [`EnumKind::ComparisonPredicate`]).
pub(super) const EQUAL: u8 = 0;
pub(super) const GREATER_THAN: u8 = 4;

/// What `copies` check before their loop, as a remark says it (`otherwise`: how the
/// tiles go when the check fails); empty when nothing is checked.
fn run_time_condition(copies: &[TmaCopy], otherwise: &str) -> String {
    let strides = copies.iter().any(|c| !c.checks.is_empty());
    let bases = copies.iter().any(|c| c.base_check.is_some());
    let what = match (strides, bases) {
        (false, false) => return String::new(),
        (true, false) => "the row strides are positive multiples of 16 bytes",
        (false, true) => "the base addresses are 16-byte aligned",
        (true, true) => {
            "the row strides are positive multiples of 16 bytes and the base addresses 16-byte aligned"
        }
    };
    format!(" when {what} at run time ({otherwise} otherwise)")
}

impl Assign<'_> {
    /// Whether view load `d` (operand `i`, staged as loaded) can go by the copy engine on
    /// this target ([`Assign::tma_view`], into a stage swizzled as [`mma_swizzle`] makes
    /// it). Otherwise why not (`None` when the target or `--no-tma` rules it out).
    /// A stage is column-blocked when its rows (as loaded) are wider than one swizzle
    /// atom, and then copied a block at a time.
    pub(super) fn tma_copy(
        &self,
        i: usize,
        d: Op,
        axis: Option<&Axis>,
    ) -> Result<TmaCopy, Option<String>> {
        if self.arch != Arch::Sm90a || !self.tma {
            return Err(None);
        }
        let operand = if i == 0 { "A" } else { "B" };
        if !self.engine_for(d) {
            return Err(Some(format!(
                "{operand}'s load says allow_tma = false (its optimization_hints)"
            )));
        }
        let view = self.m.operand(d, 0);
        let tile = self.m.result(d, 0);
        let elem = self.m.ctx.types.element_type(self.m.value_type(tile));
        let blocks = super::column_blocks(&self.shape(tile), elem).unwrap_or(1);
        let v = self
            .tma_view(view, false, blocks, axis)
            .map_err(|why| Some(format!("{operand} {why}")))?;
        Ok(TmaCopy {
            operand: i,
            view,
            index: operand_group(self.m, d, "index").to_vec(),
            swizzle_mode: v.swizzle_mode,
            bytes: v.bytes,
            checks: v.checks,
            base_check: v.base_check,
            blocks,
        })
    }

    /// The partition views of the column blocks of `copies` staged column-blocked: each
    /// such copy's view becomes one of the same tensor view whose tile has `1 / blocks`
    /// of the columns (made right after the view it stands for), whose tensor map and
    /// copies move one block.
    pub(super) fn block_views(&mut self, copies: &mut [TmaCopy], origin: Op) {
        for c in copies.iter_mut().filter(|c| c.blocks > 1) {
            let Some(pv) = self.m.defining_op(c.view) else {
                continue;
            };
            let TypeData::PartitionView {
                tile,
                padding,
                tensor_view,
                dim_map,
            } = self.m.ctx.types.get(self.m.value_type(c.view)).clone()
            else {
                continue;
            };
            let mut block = tile.to_vec();
            if let Some(last) = block.last_mut() {
                *last /= c.blocks;
            }
            let ty = self.m.ctx.types.intern(TypeData::PartitionView {
                tile: block.into(),
                padding,
                tensor_view,
                dim_map,
            });
            let tv = self.m.operand(pv, 0);
            let v = self.create_at(
                Opcode::MakePartitionView,
                &[tv],
                &[ty],
                &[],
                InsertPoint::After(pv),
                origin,
            );
            c.view = self.m.result(v, 0);
        }
    }

    /// Whether the tiles of partition view `view_v` can go by the copy engine: an identity
    /// dim map (and, for loads, zero padding or none: the engine fills with zeros) over a
    /// tensor view of contiguous rows (static inner stride 1, i32 shapes and strides; the
    /// base checked 16-byte aligned before the loop unless the IR proves it), a tile of at
    /// most 256 elements a side, elements of 1, 2, 4 or 8 bytes; for a load, rows of 16
    /// bytes or of one 32-, 64- or 128-byte swizzle atom, as its stage is swizzled; for a
    /// `store` (from an unswizzled row-major buffer), rows of a multiple of 16 bytes.
    /// `axis` is the entry's [`Axis`] analysis (the caller runs it once for all its views).
    /// A load staged column-blocked (`blocks` > 1) moves boxes of `1 / blocks` of the
    /// tile's columns, whose rows are the swizzle atom.
    pub(super) fn tma_view(
        &self,
        view_v: Value,
        store: bool,
        blocks: i64,
        axis: Option<&Axis>,
    ) -> Result<TmaView, String> {
        let m = &*self.m;
        let no = |why: &str| Err(why.to_string());
        let TypeData::PartitionView {
            tile,
            padding,
            tensor_view,
            dim_map,
        } = m.ctx.types.get(m.value_type(view_v))
        else {
            return no("is not a partition view tile");
        };
        let identity =
            dim_map.is_empty() || dim_map.iter().enumerate().all(|(k, x)| *x == k as i32);
        if !identity {
            return no("goes through a permuting dim map");
        }
        if !store && !matches!(padding, None | Some(PaddingValue::Zero)) {
            return no("pads with a nonzero value");
        }
        let rank = tile.len();
        if rank == 0 || rank > 5 || tile.iter().any(|t| !(1..=256).contains(t)) {
            return no("has a tile over 256 elements a side");
        }
        let elem = m.ctx.types.element_type(*tensor_view);
        let size = crate::sizes::elem_bytes(elem) as u64;
        if !matches!(size, 1 | 2 | 4 | 8) || matches!(elem, Type::I4 | Type::F4E2M1FN) {
            return no("has sub-byte elements");
        }
        let TypeData::TensorView { strides, .. } = m.ctx.types.get(*tensor_view) else {
            return no("is not a tensor view's");
        };
        if strides.len() != rank || strides[rank - 1] != 1 {
            return no("is not contiguous along its rows (inner stride 1)");
        }
        let tv_op = m
            .defining_op(view_v)
            .and_then(|pv| m.defining_op(m.operand(pv, 0)))
            .filter(|t| m.opcode(*t) == Opcode::MakeTensorView);
        let Some(tv_op) = tv_op else {
            return no("is not of a 'make_tensor_view' of this kernel");
        };
        let dyn_shapes = operand_group(m, tv_op, "dynamicShape");
        let dyn_strides = operand_group(m, tv_op, "dynamicStrides");
        let i32_scalar = |v: &Value| m.ctx.types.element_type(m.value_type(*v)) == Type::I32;
        if !dyn_shapes.iter().all(i32_scalar) || !dyn_strides.iter().all(i32_scalar) {
            return no("has shapes or strides wider than i32");
        }
        let Some(info) = axis.and_then(|a| a.view(view_v)) else {
            return no("is of a view the analysis does not know");
        };
        let base_check = (info.base_div < 16).then(|| m.operand(tv_op, 0));
        // The strides other than the innermost: static ones must be a multiple of 16
        // bytes, dynamic ones are checked before the loop (their sign too; their
        // divisibility unless the IR proves it).
        let per = 16 / size;
        let mut checks = Vec::new();
        let mut dynamic = dyn_strides.iter();
        for (k, s) in strides.iter().enumerate() {
            if *s == tilec_ir::types::DYNAMIC {
                let Some(&v) = dynamic.next() else {
                    return no("has a stride the view does not give");
                };
                if k + 1 < rank {
                    let proven = info.stride_div.get(k).is_some_and(|q| q % per == 0);
                    checks.push((v, if proven { 1 } else { per }));
                }
            } else if k + 1 < rank && (*s <= 0 || !(*s as u64 * size).is_multiple_of(16)) {
                return no("has a row stride that is not a positive multiple of 16 bytes");
            }
        }
        let cols = tile[rank - 1] / blocks.max(1);
        let row = cols as u64 * size;
        let swizzle_mode = if store {
            row.is_multiple_of(16).then_some(0)
        } else {
            let box_shape: Vec<i64> = tile[..rank - 1].iter().copied().chain([cols]).collect();
            swizzle_mode(row, mma_swizzle(&box_shape, elem))
        };
        let Some(swizzle_mode) = swizzle_mode else {
            return no(&format!(
                "has rows of {row} bytes: the copy engine moves rows of a multiple of 16 bytes, and into swizzled stages rows of 16 bytes or of one 32-, 64- or 128-byte swizzle atom"
            ));
        };
        Ok(TmaView {
            swizzle_mode,
            bytes: tile.iter().product::<i64>() as u64 * size,
            checks,
            base_check,
        })
    }

    /// The remark on a loop whose stages the copy engine fills.
    pub(super) fn tma_remark(&self, copies: &[TmaCopy]) -> String {
        let which = match copies {
            [one] if one.operand == 0 => "A's",
            [_] => "B's",
            _ => "A's and B's",
        };
        let when = run_time_condition(copies, "by cp.async");
        format!(
            "K loop stages of {which} tiles filled by the copy engine (TMA: tensor maps built by the kernel, one mbarrier per stage){when}"
        )
    }

    /// `tma_ok` before loop `f`: every checked stride positive and a multiple of its
    /// elements, every checked base 16-byte aligned; `None` when nothing is to be checked.
    pub(super) fn tma_condition(&mut self, copies: &[TmaCopy], f: Op, origin: Op) -> Option<Value> {
        let checks: Vec<(Value, u64)> = copies.iter().flat_map(|c| c.checks.clone()).collect();
        let i1 = self.i1_type();
        let before = InsertPoint::Before(f);
        let mut ok: Option<Value> = None;
        for base in copies.iter().filter_map(|c| c.base_check) {
            let i64_ty = self.m.ctx.types.intern(TypeData::Tile {
                shape: Box::new([]),
                elem: Type::I64,
                encoding: None,
            });
            let addr = self.scalar_at(Opcode::PtrToInt, &[base], i64_ty, &[], before, origin);
            let low = self.int_const(15, i64_ty, f, origin);
            let zero = self.int_const(0, i64_ty, f, origin);
            let bits = self.scalar_at(Opcode::AndI, &[addr, low], i64_ty, &[], before, origin);
            let c = self.compare(EQUAL, false, [bits, zero], before, origin);
            ok = Some(match ok {
                Some(o) => self.scalar_at(Opcode::AndI, &[o, c], i1, &[], before, origin),
                None => c,
            });
        }
        for (v, per) in checks {
            let ty = self.m.value_type(v);
            let zero = self.int_const(0, ty, f, origin);
            let mut c = self.compare(GREATER_THAN, true, [v, zero], before, origin);
            if per > 1 {
                let low = self.int_const(per - 1, ty, f, origin);
                let bits = self.scalar_at(Opcode::AndI, &[v, low], ty, &[], before, origin);
                let aligned = self.compare(EQUAL, true, [bits, zero], before, origin);
                c = self.scalar_at(Opcode::AndI, &[c, aligned], i1, &[], before, origin);
            }
            ok = Some(match ok {
                Some(o) => self.scalar_at(Opcode::AndI, &[o, c], i1, &[], before, origin),
                None => c,
            });
        }
        ok
    }

    /// `cmpi PREDICATE %lhs, %rhs` of two rank-0 integers (`signed` or not) at `at`: a
    /// rank-0 i1.
    pub(super) fn compare(
        &mut self,
        predicate: u8,
        signed: bool,
        [lhs, rhs]: [Value; 2],
        at: InsertPoint,
        origin: Op,
    ) -> Value {
        let i1 = self.i1_type();
        let p = self
            .m
            .ctx
            .attrs
            .enum_case(EnumKind::ComparisonPredicate, predicate);
        let s = self
            .m
            .ctx
            .attrs
            .enum_case(EnumKind::Signedness, u8::from(signed));
        self.scalar_at(
            Opcode::CmpI,
            &[lhs, rhs],
            i1,
            &[Some(p), Some(s)],
            at,
            origin,
        )
    }

    /// `!v` (a rank-0 i1) at `at` (`Before` an op or at the `End` of a block).
    pub(super) fn negation(&mut self, v: Value, at: InsertPoint, origin: Op) -> Value {
        let i1 = self.i1_type();
        let one = self.m.ctx.attrs.intern(tilec_ir::attrs::dense(i1, vec![1]));
        let one = self.scalar_at(Opcode::Constant, &[], i1, &[Some(one)], at, origin);
        self.scalar_at(Opcode::XOrI, &[v, one], i1, &[], at, origin)
    }

    /// An empty `ttg.mask %pred` at `at` when there is a `pred`: the mask, its body and
    /// where the masked ops go (its body's end; `at` itself without a `pred`).
    pub(super) fn mask_if(
        &mut self,
        pred: Option<Value>,
        at: InsertPoint,
        origin: Op,
    ) -> (Option<Op>, Option<tilec_ir::Block>, InsertPoint) {
        match pred {
            Some(p) => {
                let (mask, block) = self.mask_at(p, &[], at, origin);
                (Some(mask), Some(block), InsertPoint::End(block))
            }
            None => (None, None, at),
        }
    }

    /// The rank-0 i1 tile type.
    pub(super) fn i1_type(&mut self) -> Type {
        self.m.ctx.types.intern(TypeData::Tile {
            shape: Box::new([]),
            elem: Type::I1,
            encoding: None,
        })
    }

    /// The tensor maps of `copies`: a global slot each at the entry's top, built before
    /// loop `f` (under `tma_ok` when there is one). Returns each map's pointer.
    pub(super) fn tensor_maps(
        &mut self,
        copies: &[TmaCopy],
        tma_ok: Option<Value>,
        f: Op,
        origin: Op,
    ) -> Vec<Value> {
        let Some(top) = self.body.and_then(|b| self.m.first_op(b)) else {
            return Vec::new();
        };
        let i8_ptr = self.m.ctx.types.ptr(Type::I8);
        let ptr_ty = self.m.ctx.types.intern(TypeData::Tile {
            shape: Box::new([]),
            elem: i8_ptr,
            encoding: None,
        });
        let at = match tma_ok {
            Some(p) => {
                let (_, block) = self.mask_at(p, &[], InsertPoint::Before(f), origin);
                InsertPoint::End(block)
            }
            None => InsertPoint::Before(f),
        };
        let mut maps = Vec::new();
        for c in copies {
            let nbytes = self.m.ctx.attrs.int(128, Type::I32);
            let align = self.m.ctx.attrs.int(128, Type::I32);
            let p = self.scalar_at(
                Opcode::GlobalScratchAlloc,
                &[],
                ptr_ty,
                &[Some(nbytes), Some(align)],
                InsertPoint::Before(top),
                origin,
            );
            let view = c.view;
            let mode = self.m.ctx.attrs.int(c.swizzle_mode, Type::I32);
            self.create_at(
                Opcode::TensormapCreate,
                &[p, view],
                &[],
                &[Some(mode)],
                at,
                origin,
            );
            maps.push(p);
        }
        if let InsertPoint::End(block) = at {
            self.end_mask(block, &[], origin);
        }
        maps
    }

    /// The mbarrier ring of `n` stages before loop `f` (initialised, count 1, then a CTA
    /// barrier), its buffer and the type of one barrier.
    pub(super) fn barrier_ring(&mut self, n: u32, f: Op, origin: Op) -> (Value, Type) {
        self.barrier_ring_of(n, 1, f, origin)
    }

    /// [`Assign::barrier_ring`] of barriers that complete after `count` arrivals.
    pub(super) fn barrier_ring_of(
        &mut self,
        n: u32,
        count: u32,
        f: Op,
        origin: Op,
    ) -> (Value, Type) {
        let ring_ty = self.barrier_type(&[n as i64, 1]);
        let one_ty = self.barrier_type(&[1]);
        let alloc = self.create(Opcode::LocalAlloc, &[], &[ring_ty], &[], f);
        self.located(alloc, origin);
        let ring = self.m.result(alloc, 0);
        let i32_ty = self.m.ctx.types.intern(TypeData::Tile {
            shape: Box::new([]),
            elem: Type::I32,
            encoding: None,
        });
        for s in 0..n {
            let c = self.int_const(u64::from(s), i32_ty, f, origin);
            let b = self.barrier_at(ring, c, one_ty, InsertPoint::Before(f), origin);
            let count = self.m.ctx.attrs.int(i64::from(count), Type::I32);
            self.create_at(
                Opcode::InitBarrier,
                &[b],
                &[],
                &[Some(count)],
                InsertPoint::Before(f),
                origin,
            );
        }
        self.cta_barrier_at(InsertPoint::Before(f), origin);
        (ring, one_ty)
    }

    /// After `anchor` (in this order): a CTA barrier (no thread waits on `ring` any more),
    /// every barrier of the `n`-barrier `ring` invalidated, and the ring released.
    pub(super) fn release_ring(
        &mut self,
        (ring, one_ty): (Value, Type),
        n: u32,
        anchor: Op,
        origin: Op,
    ) {
        let i32_ty = self.m.ctx.types.intern(TypeData::Tile {
            shape: Box::new([]),
            elem: Type::I32,
            encoding: None,
        });
        let after = InsertPoint::After(anchor);
        self.create_at(Opcode::LocalDealloc, &[ring], &[], &[], after, origin);
        for s in (0..n).rev() {
            let c = self.int_const(u64::from(s), i32_ty, anchor, origin);
            let b = self.barrier_at(ring, c, one_ty, after, origin);
            let ix = self.m.defining_op(b).unwrap_or(anchor);
            self.create_at(
                Opcode::InvalBarrier,
                &[b],
                &[],
                &[],
                InsertPoint::After(ix),
                origin,
            );
        }
        self.cta_barrier_at(after, origin);
    }

    fn barrier_type(&mut self, shape: &[i64]) -> Type {
        self.m.ctx.types.intern(TypeData::MemDesc {
            shape: shape.into(),
            elem: Type::I64,
            mutable: true,
            order: tilec_ir::TypeStore::row_major_order(shape.len()),
            swizzle: Swizzle::NONE,
        })
    }

    /// Barrier `s` of `ring` at `at`.
    pub(super) fn barrier_at(
        &mut self,
        ring: Value,
        s: Value,
        one_ty: Type,
        at: InsertPoint,
        origin: Op,
    ) -> Value {
        let ix = self.create_at(Opcode::MemDescIndex, &[ring, s], &[one_ty], &[], at, origin);
        self.m.result(ix, 0)
    }

    /// Fills stage `stage` of every operand's buffer (`bufs`, by operand) for the K step
    /// whose indices `subst` gives, under `pred`: under `pred && tma_ok` the barrier's
    /// expected bytes and the copies, under `pred && !tma_ok` (when `tma_ok` is dynamic) an
    /// arrival with none. Everything goes at `at` (`Before` an op or at the `End` of a
    /// block, where ops stay in the order they are made); returns the last op made there.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn tma_fill(
        &mut self,
        copies: &[TmaCopy],
        maps: &[Value],
        bufs: &[(usize, Value, Type)],
        (ring, one_ty): (Value, Type),
        stage: Value,
        subst: &dyn Fn(Value) -> Value,
        pred: Option<Value>,
        tma_ok: Option<Value>,
        at: InsertPoint,
        origin: Op,
    ) -> Op {
        let i1 = self.i1_type();
        let both = |k: &mut Self, a: Option<Value>, b: Option<Value>| match (a, b) {
            (Some(a), Some(b)) => Some(k.scalar_at(Opcode::AndI, &[a, b], i1, &[], at, origin)),
            (x, None) | (None, x) => x,
        };
        let go = both(self, pred, tma_ok);
        let bytes: u64 = copies.iter().map(|c| c.bytes).sum();
        let (mask, block, inner) = self.mask_if(go, at, origin);
        let bar = self.barrier_at(ring, stage, one_ty, inner, origin);
        let yes = self.m.ctx.attrs.intern(tilec_ir::attrs::dense(i1, vec![1]));
        let t = self.scalar_at(Opcode::Constant, &[], i1, &[Some(yes)], inner, origin);
        let size = self.m.ctx.attrs.int(bytes as i64, Type::I32);
        let mut last = self.create_at(
            Opcode::BarrierExpect,
            &[bar, t],
            &[],
            &[Some(size)],
            inner,
            origin,
        );
        for (c, map) in copies.iter().zip(maps) {
            let Some(&(_, buf, stage_ty)) = bufs.iter().find(|(i, ..)| *i == c.operand) else {
                continue;
            };
            let view = c.view;
            let index: Vec<Value> = c.index.iter().map(|v| subst(*v)).collect();
            let ix = self.create_at(
                Opcode::MemDescIndex,
                &[buf, stage],
                &[stage_ty],
                &[],
                inner,
                origin,
            );
            let dst = self.m.result(ix, 0);
            // Where each box goes: the stage, or (column-blocked) block j of the stage
            // for tile `index * blocks + j` of the block view along the last dimension.
            let boxes: Vec<(Vec<Value>, Value)> = if c.blocks <= 1 {
                vec![(index, dst)]
            } else {
                self.block_boxes(c, &index, dst, stage_ty, inner, origin)
            };
            for (index, dst) in boxes {
                let operands: Vec<Value> = [*map, view]
                    .into_iter()
                    .chain(index)
                    .chain([dst, bar])
                    .collect();
                last = self.create_at(
                    Opcode::AsyncTmaCopyGlobalToLocal,
                    &operands,
                    &[],
                    &[],
                    inner,
                    origin,
                );
            }
        }
        if let Some(block) = block {
            self.end_mask(block, &[], origin);
        }
        let mut after = mask.unwrap_or(last);
        if let Some(ok) = tma_ok {
            // The cp.async version arrives with no bytes.
            let not_ok = self.negation(ok, at, origin);
            let p = both(self, pred, Some(not_ok)).unwrap_or(not_ok);
            let (mask2, block2) = self.mask_at(p, &[], at, origin);
            let bar = self.barrier_at(ring, stage, one_ty, InsertPoint::End(block2), origin);
            let count = self.m.ctx.attrs.int(1, Type::I32);
            self.create_at(
                Opcode::ArriveBarrier,
                &[bar],
                &[],
                &[Some(count)],
                InsertPoint::End(block2),
                origin,
            );
            self.end_mask(block2, &[], origin);
            after = mask2;
        }
        after
    }
}

impl Assign<'_> {
    /// The boxes of column-blocked copy `c` into stage `dst` (of type `stage_ty`,
    /// `blocks x R x C / blocks`) at K step indices `index`: block j of the stage takes
    /// tile `index * blocks + j` of the block view along the last dimension. The index
    /// arithmetic and the block views go at `at`.
    fn block_boxes(
        &mut self,
        c: &TmaCopy,
        index: &[Value],
        dst: Value,
        stage_ty: Type,
        at: InsertPoint,
        origin: Op,
    ) -> Vec<(Vec<Value>, Value)> {
        let TypeData::MemDesc {
            shape,
            elem,
            mutable,
            swizzle,
            ..
        } = self.m.ctx.types.get(stage_ty).clone()
        else {
            return Vec::new();
        };
        let block_ty = self.m.ctx.types.intern(TypeData::MemDesc {
            order: tilec_ir::TypeStore::row_major_order(shape.len() - 1),
            shape: shape[1..].into(),
            elem,
            mutable,
            swizzle,
        });
        let (Some((&col, outer)), Some(&col0)) = (index.split_last(), c.index.last()) else {
            return Vec::new();
        };
        let ity = self.m.value_type(col0);
        let konst = |k: &mut Self, value: u64| k.int_const_at(value, ity, at, origin);
        let n = konst(self, c.blocks as u64);
        let first = self.scalar_at(Opcode::MulI, &[col, n], ity, &[], at, origin);
        (0..c.blocks)
            .map(|j| {
                let jc = konst(self, j as u64);
                let col_j = if j == 0 {
                    first
                } else {
                    self.scalar_at(Opcode::AddI, &[first, jc], ity, &[], at, origin)
                };
                let bix = self.create_at(
                    Opcode::MemDescIndex,
                    &[dst, jc],
                    &[block_ty],
                    &[],
                    at,
                    origin,
                );
                let ix: Vec<Value> = outer.iter().copied().chain([col_j]).collect();
                (ix, self.m.result(bix, 0))
            })
            .collect()
    }
}

impl Assign<'_> {
    /// The copy engine's stores (sm_90a): every `store_view_tko` of entry `e` whose tile
    /// comes from a round trip through shared memory (`ttg.local_alloc %x`, a CTA barrier,
    /// `ttg.local_load`: a layout conversion, as before a GEMM's epilogue store) stores
    /// the buffer with `ttng.async_tma_copy_local_to_global` instead of loading it back
    /// into registers: every thread fences its writes for the async proxy, thread 0 issues
    /// the store and waits for it, a CTA barrier, then the buffer is released. Where the
    /// view's strides are known only at run time, the load and store stay as the
    /// alternative under the check's negation.
    pub(super) fn tma_stores(&mut self, e: Op) {
        if self.arch != Arch::Sm90a || !self.tma {
            return;
        }
        let m = &*self.m;
        let mut found = Vec::new();
        m.walk_op(e, &mut |op| {
            if m.opcode(op) == Opcode::StoreViewTko {
                found.push(op);
            }
        });
        let found: Vec<(Op, (Op, Op, Op))> = found
            .into_iter()
            .filter_map(|st| Some((st, self.store_round_trip(st)?)))
            .collect();
        if found.is_empty() {
            return;
        }
        let axis = self.body.map(|b| Axis::run(self.m, b));
        for (st, (la, ll, dl)) in found {
            if !self.engine_for(st) {
                let code = tilec_diag::codes::HINTS;
                self.remark_as(
                    code,
                    st,
                    "store through shared memory, not by the copy engine (TMA): its optimization_hints say allow_tma = false".to_string(),
                );
                continue;
            }
            let view = self.m.operand(st, 1);
            let tv = match self.tma_view(view, true, 1, axis.as_ref()) {
                Ok(tv) => tv,
                Err(why) => {
                    let code = tilec_diag::codes::VECTOR_ACCESS;
                    self.remark_as(code, st, format!("store through shared memory, not by the copy engine (TMA): the view {why}"));
                    continue;
                }
            };
            if tv.bytes < TMA_STORE_MIN_BYTES {
                continue;
            }
            let copy = TmaCopy {
                operand: 2,
                view,
                index: operand_group(self.m, st, "index").to_vec(),
                swizzle_mode: tv.swizzle_mode,
                bytes: tv.bytes,
                checks: tv.checks,
                base_check: tv.base_check,
                blocks: 1,
            };
            let copies = [copy];
            let when = run_time_condition(&copies, "from registers");
            let tma_ok = self.tma_condition(&copies, la, st);
            let maps = self.tensor_maps(&copies, tma_ok, la, st);
            let buf = self.m.result(la, 0);
            // Every thread's writes of the buffer, then (the round trip's barrier) the
            // store by thread 0.
            self.create_at(
                Opcode::FenceAsyncShared,
                &[],
                &[],
                &[],
                InsertPoint::After(la),
                st,
            );
            let at = InsertPoint::Before(st);
            let (mask, block, inner) = self.mask_if(tma_ok, at, st);
            let operands: Vec<Value> = [maps[0], view]
                .into_iter()
                .chain(copies[0].index.iter().copied())
                .chain([buf])
                .collect();
            self.create_at(
                Opcode::AsyncTmaCopyLocalToGlobal,
                &operands,
                &[],
                &[],
                inner,
                st,
            );
            let w = self.create_at(Opcode::AsyncTmaStoreWait, &[], &[], &[], inner, st);
            let zero = self.m.ctx.attrs.int(0, Type::I32);
            self.m.push_extra_attr(w, crate::wgmma::PENDINGS_ATTR, zero);
            if let Some(block) = block {
                self.end_mask(block, &[], st);
            }
            let last = match (tma_ok, mask) {
                (Some(ok), Some(_)) => {
                    // The registers' way under `!tma_ok`: the load and the store, moved
                    // into a mask after the copy engine's.
                    let not_ok = self.negation(ok, at, st);
                    let (mask2, block2) = self.mask_at(not_ok, &[], at, st);
                    self.m.move_op(ll, InsertPoint::End(block2));
                    self.m.move_op(st, InsertPoint::End(block2));
                    self.end_mask(block2, &[], st);
                    mask2
                }
                _ => {
                    self.m.erase_op(st);
                    self.m.erase_op(ll);
                    mask.unwrap_or(w)
                }
            };
            // The buffer is free once thread 0's store has read it.
            let bar = self.cta_barrier_at(InsertPoint::After(last), st);
            self.m.move_op(dl, InsertPoint::After(bar));
            self.remark_as(
                tilec_diag::codes::VECTOR_ACCESS,
                bar,
                format!("store by the copy engine (TMA, a tensor map built by the kernel) from the shared-memory buffer of its layout conversion{when}"),
            );
        }
    }

    /// The round trip `%b = ttg.local_alloc %x`, `ttg.barrier local`, `%t = ttg.local_load
    /// %b`, `ttg.local_dealloc %b` whose tile `%t` only store `st` uses (weak, its token
    /// unused), from an unswizzled row-major buffer of the view's tile shape: (alloc,
    /// load, dealloc).
    fn store_round_trip(&self, st: Op) -> Option<(Op, Op, Op)> {
        let m = &*self.m;
        let weak = m
            .attr_named(st, "memory_ordering_semantics")
            .and_then(|a| m.ctx.attrs.get_enum(a, EnumKind::MemoryOrdering))
            .is_none_or(|o| o == 0);
        let tile = m.operand(st, 0);
        if !weak || m.has_uses(m.result(st, 0)) || m.num_uses(tile) != 1 {
            return None;
        }
        let ll = m
            .defining_op(tile)
            .filter(|d| m.opcode(*d) == Opcode::LocalLoad)?;
        let buf = m.operand(ll, 0);
        let la = m
            .defining_op(buf)
            .filter(|d| m.opcode(*d) == Opcode::LocalAlloc && m.num_operands(*d) == 1)?;
        let barrier = m
            .prev_op(ll)
            .is_some_and(|b| m.opcode(b) == Opcode::GpuBarrier);
        let same_block = m.op_block(la) == m.op_block(st) && m.op_block(ll) == m.op_block(st);
        let users: Vec<Op> = m.users(buf).collect();
        let dl = users
            .iter()
            .copied()
            .find(|u| m.opcode(*u) == Opcode::LocalDealloc && m.op_block(*u) == m.op_block(st))?;
        let view_tile = m.ctx.types.shape(m.value_type(m.operand(st, 1)));
        let TypeData::MemDesc {
            shape,
            swizzle,
            order,
            ..
        } = m.ctx.types.get(m.value_type(buf))
        else {
            return None;
        };
        let plain = swizzle.is_identity()
            && **shape == *view_tile
            && **order == *tilec_ir::TypeStore::row_major_order(shape.len());
        (barrier && same_block && users.len() == 2 && plain).then_some((la, ll, dl))
    }
}

/// B loaded in a K loop through a partition view that swaps its two dimensions
/// (`dim_map=[1, 0]`: cuTile's `B` stored `N x K`, K contiguous) becomes the transpose of
/// the same tile loaded through a view of the same tensor view with no dim map: the same
/// elements (tile element `(k, n)` is tensor element `(n, k)` either way), in the form the
/// pipeline stages as loaded, `N x K` (K-major, as warpgroup MMA reads B natively), and
/// the copy engine can fill (its boxes follow the tensor's dimensions).
pub(super) fn transposed_b_loads(m: &mut Module, e: Op, arch: Arch) {
    let mut found = Vec::new();
    m.walk_op(e, &mut |op| {
        if !matches!(m.opcode(op), Opcode::MmaF | Opcode::MmaI) {
            return;
        }
        let b = m.operand(op, 1);
        let Some(d) = m.defining_op(b).filter(|d| {
            m.opcode(*d) == Opcode::LoadViewTko
                && crate::hints::allows_tma(m, *d, arch)
                && m.op_block(*d) == m.op_block(op)
                && m.num_uses(b) == 1
                && m.op_block(op)
                    .and_then(|bl| m.block_parent_op(bl))
                    .is_some_and(|f| m.opcode(f) == Opcode::For)
        }) else {
            return;
        };
        let swapped = matches!(
            m.ctx.types.get(m.value_type(m.operand(d, 0))),
            TypeData::PartitionView { tile, dim_map, .. } if tile.len() == 2 && **dim_map == [1, 0]
        );
        if swapped {
            found.push(d);
        }
    });
    for d in found {
        if operand_group(m, d, "index").len() != 2 {
            continue;
        }
        let view = m.operand(d, 0);
        let Some(pv) = m
            .defining_op(view)
            .filter(|p| m.opcode(*p) == Opcode::MakePartitionView)
        else {
            continue;
        };
        let TypeData::PartitionView {
            tile,
            padding,
            tensor_view,
            ..
        } = m.ctx.types.get(m.value_type(view)).clone()
        else {
            continue;
        };
        let plain_ty = m.ctx.types.intern(TypeData::PartitionView {
            tile: vec![tile[1], tile[0]].into(),
            padding,
            tensor_view,
            dim_map: Box::new([]),
        });
        let tv = m.operand(pv, 0);
        let plain = m.create_op(
            &OpSpec {
                opcode: Opcode::MakePartitionView,
                operands: &[tv],
                results: &[plain_ty],
                attrs: &[],
                regions: 0,
            },
            InsertPoint::After(pv),
        );
        let (span, loc) = (m.op_span(pv), m.op_loc(pv));
        m.set_op_span(plain, span);
        m.set_op_loc(plain, loc);
        // The load through it (the view, then its two indices, swapped), then the
        // transpose.
        let mut operands: Vec<Value> = m.operands(d).collect();
        operands[0] = m.result(plain, 0);
        operands.swap(1, 2);
        let tile_v = m.result(d, 0);
        let TypeData::Tile { elem, .. } = m.ctx.types.get(m.value_type(tile_v)).clone() else {
            continue;
        };
        let loaded_ty = m.ctx.types.intern(TypeData::Tile {
            shape: vec![tile[1], tile[0]].into(),
            elem,
            encoding: None,
        });
        let token_ty = m.value_type(m.result(d, 1));
        let attrs: Vec<Option<tilec_ir::Attr>> =
            (0..m.def(d).attrs.len()).map(|i| m.attr(d, i)).collect();
        let load = m.create_op(
            &OpSpec {
                opcode: Opcode::LoadViewTko,
                operands: &operands,
                results: &[loaded_ty, token_ty],
                attrs: &attrs,
                regions: 0,
            },
            InsertPoint::Before(d),
        );
        let (span, loc) = (m.op_span(d), m.op_loc(d));
        m.set_op_span(load, span);
        m.set_op_loc(load, loc);
        for (k, a) in m.extra_attrs(d).to_vec() {
            m.push_extra_attr(load, &k, a);
        }
        let perm = m
            .ctx
            .attrs
            .intern(AttrData::DenseI32Array(vec![1, 0].into()));
        let t = m.create_op(
            &OpSpec {
                opcode: Opcode::Permute,
                operands: &[m.result(load, 0)],
                results: &[m.value_type(tile_v)],
                attrs: &[Some(perm)],
                regions: 0,
            },
            InsertPoint::Before(d),
        );
        m.set_op_span(t, span);
        m.set_op_loc(t, loc);
        m.replace_all_uses(tile_v, m.result(t, 0));
        m.replace_all_uses(m.result(d, 1), m.result(load, 1));
        m.erase_op(d);
    }
}

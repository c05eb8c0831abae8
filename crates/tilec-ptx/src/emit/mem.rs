//! Memory: pointer tiles, tensor and partition views, atomics, and the token facts that
//! decide where a barrier is needed.

use super::vector::Bounds;
use super::{Dim, Kernel, Tv, View, class_of, elem_bytes};
use crate::layout::{Layout, dim_bits};
use crate::sink::{RegClass, Sink};
use std::rc::Rc;
use tilec_ir::attrs::{AtomicRmwMode, MemoryOrdering, MemoryScope, PaddingValue};
use tilec_ir::segments::operand_group;
use tilec_ir::util::FxHashMap;
use tilec_ir::{EnumKind, Op, Opcode, Type, TypeData, Value};

impl Kernel<'_> {
    /// A rank-0 integer value as a `.b64` register (sign-extended).
    pub(crate) fn index64(&mut self, v: Value) -> String {
        let elem = self.elem(v);
        let r = self.scalar(v);
        if elem == Type::I64 {
            return r;
        }
        self.int_resize(elem, Type::I64, true, &r)
    }

    pub(crate) fn emit_make_view(&mut self, op: Op) {
        let m = self.m;
        let result = m.result(op, 0);
        if matches!(
            m.opcode(op),
            Opcode::MakePartitionView | Opcode::MakeStridedView | Opcode::MakeGatherScatterView
        ) {
            let Some(mut view) = self.views.get(&m.operand(op, 0)).cloned() else {
                return;
            };
            let (tile, step, padding, dim_map) = match m.ctx.types.get(m.value_type(result)) {
                TypeData::PartitionView {
                    tile,
                    padding,
                    dim_map,
                    ..
                } => (tile, tile, padding, dim_map),
                TypeData::StridedView {
                    tile,
                    traversal_strides,
                    padding,
                    dim_map,
                    ..
                } => (tile, traversal_strides, padding, dim_map),
                TypeData::GatherScatterView {
                    tile,
                    padding,
                    sparse_dim,
                    ..
                } => {
                    // Every index is an element offset (the sparse one a tile of them):
                    // a step of 1 (see tilec-interp's `view_elements`).
                    view.tile = Some(tile.to_vec());
                    view.step = Some(vec![1; tile.len()]);
                    view.padding = *padding;
                    view.dim_map = (0..tile.len()).collect();
                    view.sparse = Some(*sparse_dim as usize);
                    self.views.insert(result, view);
                    return;
                }
                _ => return,
            };
            view.tile = Some(tile.to_vec());
            view.step = Some(step.to_vec());
            view.padding = *padding;
            view.dim_map = if dim_map.is_empty() {
                (0..tile.len()).collect()
            } else {
                dim_map.iter().map(|d| *d as usize).collect()
            };
            self.views.insert(result, view);
            return;
        }
        let TypeData::TensorView {
            elem,
            shape,
            strides,
        } = m.ctx.types.get(m.value_type(result)).clone()
        else {
            return;
        };
        let base = self.scalar(m.operand(op, 0));
        let mut dyn_shape = operand_group(m, op, "dynamicShape").into_iter();
        let mut dyn_strides = operand_group(m, op, "dynamicStrides").into_iter();
        let dim = |k: &mut Self, s: i64, it: &mut std::vec::IntoIter<Value>| {
            if s == tilec_ir::types::DYNAMIC {
                match it.next() {
                    Some(v) => Dim::Dyn(k.index64(v)),
                    None => Dim::Static(0),
                }
            } else {
                Dim::Static(s)
            }
        };
        let shape: Vec<Dim> = shape
            .iter()
            .map(|s| dim(self, *s, &mut dyn_shape))
            .collect();
        let strides: Vec<Dim> = strides
            .iter()
            .map(|s| dim(self, *s, &mut dyn_strides))
            .collect();
        let n = shape.len();
        self.views.insert(
            result,
            View {
                base,
                elem,
                shape,
                strides,
                tile: None,
                step: None,
                sparse: None,
                padding: None,
                dim_map: (0..n).collect(),
            },
        );
    }

    fn dim_reg(&mut self, d: &Dim) -> String {
        match d {
            Dim::Dyn(r) => r.clone(),
            Dim::Static(s) => {
                let r = self.reg(RegClass::B64);
                self.ins(format!("mov.u64 {r}, {s};"));
                r
            }
        }
    }

    pub(crate) fn emit_view_shape(&mut self, op: Op) {
        let m = self.m;
        let Some(view) = self.views.get(&m.operand(op, 0)).cloned() else {
            return;
        };
        for (i, res) in m.results(op).enumerate() {
            let elem = self.elem(res);
            let r = match (&view.step, m.opcode(op)) {
                (Some(step), Opcode::GetIndexSpaceShape) => {
                    // ceil(shape / step): the step is the tile, or a strided view's
                    // traversal stride.
                    let s = view.shape[view.dim_map[i]].clone();
                    let t = step[i].max(1);
                    match s {
                        Dim::Static(s) => {
                            let r = self.reg(RegClass::B64);
                            self.ins(format!("mov.u64 {r}, {};", (s + t - 1) / t));
                            r
                        }
                        Dim::Dyn(s) => {
                            let r = self.reg(RegClass::B64);
                            self.ins(format!("add.s64 {r}, {s}, {};", t - 1));
                            if t == 1 {
                                // The shape itself.
                            } else if (t as u64).is_power_of_two() {
                                // Signed division by 2^k as shifts (ptxas calls a
                                // subroutine for `div.s64` on sm_80, whose calling
                                // convention made it spill): round toward zero by adding
                                // 2^k - 1 to a negative dividend first.
                                let k = t.trailing_zeros();
                                let q = self.reg(RegClass::B64);
                                self.ins(format!("shr.s64 {q}, {r}, 63;"));
                                self.ins(format!("shr.u64 {q}, {q}, {};", 64 - k));
                                self.ins(format!("add.s64 {q}, {r}, {q};"));
                                self.ins(format!("shr.s64 {r}, {q}, {k};"));
                            } else {
                                self.ins(format!("div.s64 {r}, {r}, {t};"));
                            }
                            r
                        }
                    }
                }
                _ => {
                    let d = view.shape[i].clone();
                    self.dim_reg(&d)
                }
            };
            let out = self.int_resize(Type::I64, elem, true, &r);
            self.set_scalar(res, elem, out);
        }
    }

    /// Emits a barrier when `token` carries a write that other threads of the tile block
    /// may have made.
    fn order_after(&mut self, token: Option<Value>) {
        // A token not written here (a loop-carried one) is taken as dirty when allocas make
        // shared memory reachable through pointers.
        if let Some(t) = token
            && self.dirty.get(&t).copied().unwrap_or(self.generic)
        {
            self.bar();
        }
    }

    /// The op's memory ordering (if written) and its PTX scope suffix.
    pub(super) fn ordering_scope(&self, op: Op) -> (Option<MemoryOrdering>, &'static str) {
        let ordering = self
            .enum_attr(op, "memory_ordering_semantics", EnumKind::MemoryOrdering)
            .and_then(MemoryOrdering::from_index);
        let scope = match self
            .enum_attr(op, "memory_scope", EnumKind::MemoryScope)
            .and_then(MemoryScope::from_index)
        {
            Some(MemoryScope::TlBlk) => ".cta",
            Some(MemoryScope::Sys) => ".sys",
            _ => ".gpu",
        };
        (ordering, scope)
    }

    /// The `ld`/`st` qualifiers of a load or store (`.acquire.gpu`, ...); empty for weak.
    fn qualifiers(&self, op: Op, store: bool) -> String {
        let (ordering, scope) = self.ordering_scope(op);
        match ordering.unwrap_or(MemoryOrdering::Weak) {
            MemoryOrdering::Weak => String::new(),
            MemoryOrdering::Acquire | MemoryOrdering::AcqRel if !store => {
                format!(".acquire{scope}")
            }
            MemoryOrdering::Release | MemoryOrdering::AcqRel if store => format!(".release{scope}"),
            _ => format!(".relaxed{scope}"),
        }
    }

    /// The `atom` semantics (`.acq_rel.gpu`, ...); relaxed when none is written.
    fn atomic_sem(&self, op: Op) -> String {
        let (ordering, scope) = self.ordering_scope(op);
        let sem = match ordering {
            Some(MemoryOrdering::Acquire) => ".acquire",
            Some(MemoryOrdering::Release) => ".release",
            Some(MemoryOrdering::AcqRel) => ".acq_rel",
            _ => ".relaxed",
        };
        format!("{sem}{scope}")
    }

    fn padding_bits(elem: Type, p: Option<PaddingValue>) -> u64 {
        let Some(p) = p else { return 0 };
        let (sign, inf, nan) = match elem {
            Type::F16 => (0x8000u64, 0x7C00u64, 0x7E00u64),
            Type::BF16 => (0x8000, 0x7F80, 0x7FC0),
            Type::F32 | Type::TF32 => (0x8000_0000, 0x7F80_0000, 0x7FC0_0000),
            Type::F64 => (1 << 63, 0x7FF0 << 48, 0x7FF8 << 48),
            Type::F8E4M3FN => (0x80, 0x7F, 0x7F),
            Type::F8E5M2 => (0x80, 0x7C, 0x7E),
            _ => return 0,
        };
        match p {
            PaddingValue::Zero => 0,
            PaddingValue::NegZero => sign,
            PaddingValue::Nan => nan,
            PaddingValue::PosInf => inf,
            PaddingValue::NegInf => sign | inf,
        }
    }

    /// Loads and stores through partition views (and, with a zero index, tensor views).
    pub(crate) fn emit_view_access(&mut self, op: Op) {
        let m = self.m;
        let load = m.opcode(op) == Opcode::LoadViewTko;
        let view_v = operand_group(m, op, "view")[0];
        let index = operand_group(m, op, "index");
        let token = operand_group(m, op, "token").first().copied();
        let Some(view) = self.views.get(&view_v).cloned() else {
            return;
        };
        self.order_after(token);
        let tile_v = if load {
            m.result(op, 0)
        } else {
            operand_group(m, op, "tile")[0]
        };
        let shape = self.shape(tile_v);
        let elem = view.elem;
        // Loads produce, and stores write from, the blocked (coalesced) layout that
        // convert-to-gpu put on the tile's type.
        let layout: Rc<Layout> = self.layout_of(tile_v);
        let size = elem_bytes(elem) as i64;
        let (addr, limits, stride_regs) = self.view_base(op, &view, &index, &shape, &layout);
        // The vectors gpu-vectorize chose (`ttg.vector`), with the run-time alignment
        // checks as (register, mask) pairs.
        let plan = self.recorded_vector_plan(op, &view, &layout, &shape);
        let (vw, bounds) = (plan.width, plan.bounds);
        // Alignment the IR does not prove (a base address or row stride known only when
        // the kernel runs): one predicate for the whole access, the vectors taken under it
        // and the elements one by one otherwise.
        let aligned = (!plan.checks.is_empty()).then(|| {
            let t = self.reg(RegClass::B64);
            for (k, (r, mask)) in plan.checks.iter().enumerate() {
                if k == 0 {
                    self.ins(format!("and.b64 {t}, {r}, {mask};"));
                } else {
                    let u = self.reg(RegClass::B64);
                    self.ins(format!("and.b64 {u}, {r}, {mask};"));
                    self.ins(format!("or.b64 {t}, {t}, {u};"));
                }
            }
            let ok = self.reg(RegClass::Pred);
            self.ins(format!("setp.eq.s64 {ok}, {t}, 0;"));
            ok
        });
        // A gather/scatter view: per slot, the row and the address it adds.
        let rows = view
            .sparse
            .map(|sd| self.gather_rows(&view, sd, index[sd], &shape, &layout));
        let qual = self.qualifiers(op, !load);
        let sp = self.gspace();
        let (ld, st) = (format!("ld{qual}{sp}"), format!("st{qual}{sp}"));
        let owner = if load { None } else { self.owner(&layout) };
        let value = if load {
            None
        } else {
            Some(self.tile_in(tile_v, &layout))
        };
        let pad = Self::padding_bits(elem, view.padding);
        // The tile dimension the vectors run along (the view's innermost in memory).
        let inner = plan.dim;
        let mut regs = Vec::with_capacity(layout.slots());
        let mut cache = AccessCache::default();
        for s0 in (0..layout.slots()).step_by(vw) {
            let coords = crate::layout::coords(&shape, layout.slot_elem(s0));
            // In-bounds predicate over every dimension (over all but the innermost one for
            // a vector), and the owner predicate of stores.
            // (A gather/scatter view's rows are checked by `gather_rows`.)
            let skip: Vec<usize> = (vw > 1)
                .then_some(inner)
                .into_iter()
                .chain(view.sparse)
                .collect();
            let mut p = self.bounds_pred(&limits, &coords, &skip, owner.as_deref(), &mut cache);
            let (mut a, off) = self.slot_address(&addr, &stride_regs, &coords, &mut cache);
            if let (Some(rows), Some(sd)) = (&rows, view.sparse) {
                let (inside, ra) = rows[coords[sd] as usize].clone();
                let b = self.reg(RegClass::B64);
                self.ins(format!("add.s64 {b}, {a}, {ra};"));
                a = b;
                p = Some(match p {
                    Some(p) => {
                        let q = self.reg(RegClass::Pred);
                        self.ins(format!("and.pred {q}, {p}, {inside};"));
                        q
                    }
                    None => inside,
                });
            }
            let at = |off: i64| {
                if off == 0 {
                    format!("[{a}]")
                } else {
                    format!("[{a}+{off}]")
                }
            };
            let srcs: Vec<String> = value
                .as_ref()
                .map(|v| v.regs[s0..s0 + vw].to_vec())
                .unwrap_or_default();
            if vw == 1 {
                if load {
                    let r = self.imm(elem, pad);
                    self.load_into(&ld, elem, &at(off), &r, p.as_deref());
                    regs.push(r);
                } else {
                    let src = srcs.first().cloned().unwrap_or_default();
                    self.store_elem(&st, elem, &at(off), &src, p.as_deref());
                }
                continue;
            }
            let dsts: Vec<String> = if load {
                (0..vw).map(|_| self.imm(elem, pad)).collect()
            } else {
                Vec::new()
            };
            let lim = limits[inner].clone();
            let c0 = coords[inner];
            let last = c0 + vw as u64 - 1;
            // The whole vector in bounds (the first element, when bounds are uniform).
            let check = if bounds == Bounds::Uniform { c0 } else { last };
            let full = self.reg(RegClass::Pred);
            let guard = match (&p, &aligned) {
                (Some(q), Some(ok)) => {
                    let g = self.reg(RegClass::Pred);
                    self.ins(format!("and.pred {g}, {q}, {ok};"));
                    Some(g)
                }
                (Some(q), None) => Some(q.clone()),
                (None, ok) => ok.clone(),
            };
            match &guard {
                Some(q) => self.ins(format!("setp.gt.and.s64 {full}, {lim}, {check}, {q};")),
                None => self.ins(format!("setp.gt.s64 {full}, {lim}, {check};")),
            }
            if load {
                self.load_vec(&ld, elem, &at(off), &dsts, Some(&full));
            } else {
                self.store_vec(&st, elem, &at(off), &srcs, Some(&full));
            }
            if bounds == Bounds::Split {
                // Partly in bounds (or, with a run-time alignment check, not aligned):
                // element j alone when c0 + j is in bounds.
                let part = self.reg(RegClass::Pred);
                match &aligned {
                    Some(_) => {
                        // Every element in bounds not moved by the vector access.
                        let in_range = self.reg(RegClass::Pred);
                        match &p {
                            Some(q) => {
                                self.ins(format!("setp.gt.and.s64 {in_range}, {lim}, {c0}, {q};"))
                            }
                            None => self.ins(format!("setp.gt.s64 {in_range}, {lim}, {c0};")),
                        }
                        self.ins(format!("not.pred {part}, {full};"));
                        self.ins(format!("and.pred {part}, {part}, {in_range};"));
                    }
                    None => match &p {
                        Some(q) => self.ins(format!("setp.le.and.s64 {part}, {lim}, {last}, {q};")),
                        None => self.ins(format!("setp.le.s64 {part}, {lim}, {last};")),
                    },
                }
                // Without a run-time check the last element of a partly-in-bounds vector
                // is out of bounds.
                let count = if aligned.is_some() { vw } else { vw - 1 };
                for j in 0..count {
                    let pj = self.reg(RegClass::Pred);
                    self.ins(format!(
                        "setp.gt.and.s64 {pj}, {lim}, {}, {part};",
                        c0 + j as u64
                    ));
                    let at_j = at(off + j as i64 * size);
                    if load {
                        self.load_into(&ld, elem, &at_j, &dsts[j], Some(&pj));
                    } else {
                        self.store_elem(&st, elem, &at_j, &srcs[j], Some(&pj));
                    }
                }
            }
            regs.extend(dsts);
        }
        if load {
            self.set_tile(m.result(op, 0), Tv { layout, regs, elem });
            self.loaded_token(op, token);
        } else {
            self.dirty.insert(m.result(op, 0), true);
        }
    }

    /// The rows of a gather/scatter access: for each coordinate `c` (in this thread's
    /// part) along the sparse dimension `sd`, whether row `rows[c]` lies inside the tensor
    /// and its byte offset. The row tile is in the layout that broadcasts to `layout`
    /// (convert-to-gpu), so the slot holding `rows[c]` is the one whose element is `c`'s
    /// register part.
    fn gather_rows(
        &mut self,
        view: &View,
        sd: usize,
        rows_v: Value,
        shape: &[i64],
        layout: &Rc<Layout>,
    ) -> Vec<(String, String)> {
        let mut ss = vec![1; shape.len()];
        ss[sd] = shape[sd];
        let rl = Rc::new(crate::layout::broadcast_source(layout, &ss, shape));
        let rows = self.tile_in(rows_v, &rl);
        let size = elem_bytes(view.elem) as i64;
        let d = view.dim_map.get(sd).copied().unwrap_or(sd);
        let n = self.dim_reg(&view.shape[d].clone());
        let stride = match &view.strides[d] {
            Dim::Static(s) => format!("{}", s * size),
            Dim::Dyn(s) => {
                let r = self.reg(RegClass::B64);
                self.ins(format!("mul.lo.s64 {r}, {s}, {size};"));
                r
            }
        };
        let mut by_elem = vec![(String::new(), String::new()); shape[sd].max(1) as usize];
        for s in 0..rl.slots() {
            let c = rl.slot_elem(s) as usize;
            let r = self.int_resize(rows.elem, Type::I64, true, &rows.regs[s]);
            // Unsigned: a negative row is out of bounds too.
            let inside = self.reg(RegClass::Pred);
            self.ins(format!("setp.lt.u64 {inside}, {r}, {n};"));
            let off = self.reg(RegClass::B64);
            self.ins(format!("mul.lo.s64 {off}, {r}, {stride};"));
            if let Some(e) = by_elem.get_mut(c) {
                *e = (inside, off);
            }
        }
        by_elem
    }

    /// The per-thread part of a view access in `layout` over a tile of `shape` at tile
    /// `index`: the address of the thread's first element (`.b64`), per dimension the
    /// bound `shape_d - coordinate` (compared signed against the slot's part; 0 for a
    /// negative index), and the strides in bytes.
    pub(crate) fn view_base(
        &mut self,
        op: Op,
        view: &View,
        index: &[Value],
        shape: &[i64],
        layout: &Layout,
    ) -> (String, Vec<String>, Vec<Dim>) {
        let m = self.m;
        let tile_shape = view.step.clone().unwrap_or_else(|| shape.to_vec());
        let size = elem_bytes(view.elem) as i64;
        // Per-thread part: coordinate base of tile dim i = index_i * tile_i + tcoord_i.
        let tb = self.thread_base(layout);
        let addr = self.reg(RegClass::B64);
        self.ins(format!("mov.u64 {addr}, {};", view.base));
        let mut limits = Vec::new();
        let mut stride_regs = Vec::new();
        // The indexes gpu-vectorize proved non-negative (`ttg.index_nonneg`).
        let proven = tilec_gpuir::vectorize::nonneg_index(m, op);
        for (i, tile_i) in tile_shape.iter().enumerate() {
            let d = view.dim_map.get(i).copied().unwrap_or(i);
            if view.sparse == Some(i) {
                // Per slot, from its row index (`gather_rows`); nothing per thread.
                limits.push(String::new());
                stride_regs.push(Dim::Static(0));
                continue;
            }
            let (low, w) = dim_bits(shape, i);
            let c = self.reg(RegClass::B64);
            // tcoord_i
            let t32 = self.reg(RegClass::B32);
            self.ins(format!("bfe.u32 {t32}, {tb}, {low}, {w};"));
            self.ins(format!("cvt.u64.u32 {c}, {t32};"));
            let nonneg = index.get(i).is_none() || proven.get(i).copied().unwrap_or(false);
            if let Some(ix) = index.get(i) {
                let ix = self.index64(*ix);
                self.ins(format!("mad.lo.s64 {c}, {ix}, {tile_i}, {c};"));
            }
            // Bound: shape_d - c (the per-slot part must stay below it, compared signed),
            // and nothing in bounds when c < 0 (a negative index; not checked when the
            // index is provably non-negative, e.g. a tile block id).
            let lim = self.reg(RegClass::B64);
            match &view.shape[d] {
                Dim::Static(s) => self.ins(format!("sub.s64 {lim}, {s}, {c};")),
                Dim::Dyn(s) => self.ins(format!("sub.s64 {lim}, {s}, {c};")),
            }
            if !nonneg {
                let neg = self.reg(RegClass::Pred);
                self.ins(format!("setp.lt.s64 {neg}, {c}, 0;"));
                self.ins(format!("@{neg} mov.b64 {lim}, 0;"));
            }
            limits.push(lim);
            let stride = match &view.strides[d] {
                Dim::Static(s) => Dim::Static(s * size),
                Dim::Dyn(s) => {
                    let r = self.reg(RegClass::B64);
                    self.ins(format!("mul.lo.s64 {r}, {s}, {size};"));
                    Dim::Dyn(r)
                }
            };
            match &stride {
                Dim::Static(s) => self.ins(format!("mad.lo.s64 {addr}, {c}, {s}, {addr};")),
                Dim::Dyn(s) => self.ins(format!("mad.lo.s64 {addr}, {c}, {s}, {addr};")),
            }
            stride_regs.push(stride);
        }
        (addr, limits, stride_regs)
    }

    /// `ttg.async_copy_global_to_local %view[%index], %dst`: the tile the view access
    /// would load goes into the buffer at its linear indices, in the blocked layout. Where
    /// the view analysis proves vectors of 4, 8 or 16 bytes aligned (as for
    /// `ld.global.v2/v4`), or the op's `contiguity` says so, each is one
    /// `cp.async.ca.shared.global` whose source size is
    /// the part of the vector in bounds (the rest is zero-filled, which is the zero
    /// padding the pipeline requires); otherwise each element is loaded (zero when out of
    /// bounds) and stored, which completes before any `cp.async.wait_group`.
    pub(crate) fn emit_async_copy(&mut self, op: Op) {
        let m = self.m;
        let n = m.num_operands(op);
        let view_v = m.operand(op, 0);
        let index: Vec<Value> = (1..n - 1).map(|i| m.operand(op, i)).collect();
        let dst = m.operand(op, n - 1);
        let (Some(view), Some(buf)) = (
            self.views.get(&view_v).cloned(),
            self.bufs.get(&dst).cloned(),
        ) else {
            return self.error_at_op(
                op,
                "async copy from an unknown view or into an unknown buffer",
            );
        };
        let shape = m.ctx.types.shape(m.value_type(dst)).to_vec();
        let elem = view.elem;
        let size = elem_bytes(elem) as u64;
        // The layout of the copy's `contiguity` (a vector width convert-to-gpu checked at
        // run time), else of 16-byte vectors.
        let layout = Rc::new(
            tilec_gpuir::vectorize::async_copy_layout_of(m, op, &shape, elem, self.warp_bits()).0,
        );
        let (addr, limits, strides) = self.view_base(op, &view, &index, &shape, &layout);
        // The width gpu-vectorize chose (`ttg.vector`: at most what a swizzled buffer
        // keeps together, 4, 8 or 16 bytes; none with allocas, whose shared memory is
        // behind generic pointers that `cp.async` cannot read).
        let vw = self.recorded_vector(op, &layout, &shape, elem).width;
        let pairs = self.buf_swizzle(dst);
        let bytes = vw as u64 * size;
        let vector = vw > 1;
        // The shared side goes through the destination's view (a column-blocked stage's
        // `K x N`), whose vectors must stay consecutive in the allocation.
        let smem_layout = self.through_view(dst, &layout);
        let map = self.elem_map(dst);
        if (0..vw.trailing_zeros() as usize).any(|k| map.get(k).is_some_and(|b| *b as usize != k)) {
            return self.error_at_op(
                op,
                "internal error: async copy vectors split by the destination view",
            );
        }
        let mut dst_at = self.smem_addr(&buf, &smem_layout, &pairs, size);
        let inner = shape.len() - 1;
        let mut cache = AccessCache::default();
        let step = if vector { vw } else { 1 };
        for s0 in (0..layout.slots()).step_by(step) {
            let e = layout.slot_elem(s0);
            let coords = crate::layout::coords(&shape, e);
            let (a, off) = self.slot_address(&addr, &strides, &coords, &mut cache);
            let src = if off == 0 {
                format!("[{a}]")
            } else {
                format!("[{a}+{off}]")
            };
            let se = smem_layout.slot_elem(s0);
            if !pairs.is_empty() {
                let n = (step as u64 * size) as u32;
                self.note_access(&smem_layout, &pairs, size, se, n, true);
            }
            let to = self.smem_at(&mut dst_at, se);
            if vector {
                let p = self.bounds_pred(&limits, &coords, &[inner], None, &mut cache);
                // Elements of the vector in bounds: clamp(limit - c0, 0, vw).
                let k = self.reg(RegClass::B64);
                self.ins(format!(
                    "sub.s64 {k}, {}, {};",
                    limits[inner], coords[inner]
                ));
                self.ins(format!("min.s64 {k}, {k}, {vw};"));
                self.ins(format!("max.s64 {k}, {k}, 0;"));
                if let Some(p) = p {
                    self.ins(format!("@!{p} mov.b64 {k}, 0;"));
                }
                let nb = self.reg(RegClass::B32);
                self.ins(format!("cvt.u32.u64 {nb}, {k};"));
                self.ins(format!("mul.lo.u32 {nb}, {nb}, {size};"));
                self.ins(format!(
                    "cp.async.ca.shared.global {to}, {src}, {bytes}, {nb};"
                ));
            } else {
                let p = self.bounds_pred(&limits, &coords, &[], None, &mut cache);
                let r = self.imm(elem, 0);
                let ld = format!("ld{}", self.gspace());
                self.load_into(&ld, elem, &src, &r, p.as_deref());
                self.store_elem("st.shared", elem, &to, &r, None);
            }
        }
    }

    /// The in-bounds predicate of the element at `coords` (relative to the thread's base)
    /// over every dimension but `skip`, and'ed with `owner`; `None` when there is nothing
    /// to check. Predicates are shared through `cache` between the slots of one access:
    /// the part over all checked dimensions but the last (and the owner) is computed once
    /// per distinct prefix, so each slot costs one `setp.gt.and`.
    fn bounds_pred(
        &mut self,
        limits: &[String],
        coords: &[u64],
        skip: &[usize],
        owner: Option<&str>,
        cache: &mut AccessCache,
    ) -> Option<String> {
        let dims: Vec<usize> = (0..limits.len()).filter(|i| !skip.contains(i)).collect();
        let key: Vec<u64> = dims.iter().map(|d| coords[*d]).collect();
        if let Some(p) = cache.preds.get(&key) {
            return Some(p.clone());
        }
        let Some((&last, prefix_dims)) = dims.split_last() else {
            return owner.map(str::to_string);
        };
        let prefix_key = key[..prefix_dims.len()].to_vec();
        let prefix = match cache.prefixes.get(&prefix_key) {
            Some(p) => p.clone(),
            None => {
                let mut p: Option<String> = None;
                for d in prefix_dims {
                    let q = self.reg(RegClass::Pred);
                    let (lim, c) = (&limits[*d], coords[*d]);
                    match &p {
                        Some(p) => self.ins(format!("setp.gt.and.s64 {q}, {lim}, {c}, {p};")),
                        None => self.ins(format!("setp.gt.s64 {q}, {lim}, {c};")),
                    }
                    p = Some(q);
                }
                let p = match (p, owner) {
                    (Some(p), Some(o)) => {
                        let q = self.reg(RegClass::Pred);
                        self.ins(format!("and.pred {q}, {p}, {o};"));
                        Some(q)
                    }
                    (None, Some(o)) => Some(o.to_string()),
                    (p, None) => p,
                };
                cache.prefixes.insert(prefix_key, p.clone());
                p
            }
        };
        let q = self.reg(RegClass::Pred);
        let (lim, c) = (&limits[last], coords[last]);
        match &prefix {
            Some(p) => self.ins(format!("setp.gt.and.s64 {q}, {lim}, {c}, {p};")),
            None => self.ins(format!("setp.gt.s64 {q}, {lim}, {c};")),
        }
        cache.preds.insert(key, q.clone());
        Some(q)
    }

    /// The address of the element at `coords` (relative to the thread's base address
    /// `addr`): a register and a constant byte offset. Dynamic strides cost one `mad` per
    /// distinct combination of their coordinates, shared through `cache`.
    fn slot_address(
        &mut self,
        addr: &str,
        strides: &[Dim],
        coords: &[u64],
        cache: &mut AccessCache,
    ) -> (String, i64) {
        let mut off: i64 = 0;
        let mut key = Vec::new();
        for (i, st) in strides.iter().enumerate() {
            match st {
                Dim::Static(st) => off += coords[i] as i64 * st,
                Dim::Dyn(_) => key.push(coords[i]),
            }
        }
        if key.iter().all(|c| *c == 0) {
            return (addr.to_string(), off);
        }
        if let Some(a) = cache.addrs.get(&key) {
            return (a.clone(), off);
        }
        let mut a = addr.to_string();
        for (i, st) in strides.iter().enumerate() {
            if let Dim::Dyn(st) = st
                && coords[i] != 0
            {
                let n = self.reg(RegClass::B64);
                self.ins(format!("mad.lo.s64 {n}, {st}, {}, {a};", coords[i]));
                a = n;
            }
        }
        cache.addrs.insert(key, a.clone());
        (a, off)
    }

    pub(crate) fn emit_offset(&mut self, op: Op) {
        let m = self.m;
        let ptrs = m.operand(op, 0);
        let offs = m.operand(op, 1);
        let p = self.tile(ptrs);
        let o = self.tile_in(offs, &p.layout);
        let size = elem_bytes(self.pointee(p.elem));
        let oelem = o.elem;
        let mut regs = Vec::with_capacity(p.regs.len());
        for s in 0..p.regs.len() {
            let r = self.reg(RegClass::B64);
            if oelem == Type::I64 {
                self.ins(format!(
                    "mad.lo.s64 {r}, {}, {size}, {};",
                    o.regs[s], p.regs[s]
                ));
            } else {
                let x = if oelem == Type::I1 {
                    self.int_resize(Type::I1, Type::I32, false, &o.regs[s])
                } else {
                    o.regs[s].clone()
                };
                self.ins(format!("mad.wide.s32 {r}, {x}, {size}, {};", p.regs[s]));
            }
            regs.push(r);
        }
        let elem = p.elem;
        self.set_tile(
            m.result(op, 0),
            Tv {
                layout: p.layout,
                regs,
                elem,
            },
        );
    }

    fn pointee(&self, ptr_elem: Type) -> Type {
        match self.m.ctx.types.get(ptr_elem) {
            TypeData::Ptr(e) => *e,
            _ => Type::I8,
        }
    }

    /// Mask slots (when the op has a mask) combined with the owner predicate (for writes).
    fn slot_preds(
        &mut self,
        mask: Option<&Tv>,
        owner: Option<&String>,
        s: usize,
    ) -> Option<String> {
        match (mask, owner) {
            (None, None) => None,
            (Some(m), None) => Some(m.regs[s].clone()),
            (None, Some(o)) => Some(o.clone()),
            (Some(m), Some(o)) => {
                let p = self.reg(RegClass::Pred);
                self.ins(format!("and.pred {p}, {}, {o};", m.regs[s]));
                Some(p)
            }
        }
    }

    pub(crate) fn emit_ptr_access(&mut self, op: Op) {
        let m = self.m;
        let load = m.opcode(op) == Opcode::LoadPtrTko;
        let ptrs_v = if load {
            operand_group(m, op, "source")[0]
        } else {
            operand_group(m, op, "destination")[0]
        };
        let mask_v = operand_group(m, op, "mask").first().copied();
        let token = operand_group(m, op, "token").first().copied();
        self.order_after(token);
        let ptrs = self.tile(ptrs_v);
        let layout = ptrs.layout.clone();
        let elem = self.pointee(ptrs.elem);
        let mask = mask_v.map(|v| self.tile_in(v, &layout));
        let qual = self.qualifiers(op, !load);
        let shape = self.shape(ptrs_v);
        // The vectors gpu-vectorize chose (`ttg.vector`). Pointers proven consecutive but
        // not aligned (or a mask not constant over the run): the vector access when, at
        // run time, the first pointer is aligned and the whole run is unmasked; the
        // elements one by one otherwise.
        let plan = self.recorded_vector(op, &layout, &shape, elem);
        if plan.runtime {
            return self.emit_ptr_access_checked(op, load, &ptrs, mask.as_ref(), plan.width, elem);
        }
        let vw = plan.width;
        if load {
            let pad = operand_group(m, op, "paddingValue")
                .first()
                .map(|v| self.tile_in(*v, &layout));
            let mut regs = Vec::with_capacity(layout.slots());
            for s0 in (0..layout.slots()).step_by(vw) {
                let dsts = self.padded_regs(elem, pad.as_ref(), s0..s0 + vw);
                // The mask is constant over a vector: its first slot decides.
                let pred = self.slot_preds(mask.as_ref(), None, s0);
                let at = format!("[{}]", ptrs.regs[s0]);
                let ld = format!("ld{qual}{}", self.gspace());
                if vw == 1 {
                    self.load_into(&ld, elem, &at, &dsts[0], pred.as_deref());
                } else {
                    self.load_vec(&ld, elem, &at, &dsts, pred.as_deref());
                }
                regs.extend(dsts);
            }
            self.set_tile(m.result(op, 0), Tv { layout, regs, elem });
            self.loaded_token(op, token);
        } else {
            let value = self.tile_in(operand_group(m, op, "value")[0], &layout);
            let owner = self.owner(&layout);
            for s0 in (0..layout.slots()).step_by(vw) {
                let pred = self.slot_preds(mask.as_ref(), owner.as_ref(), s0);
                let at = format!("[{}]", ptrs.regs[s0]);
                let st = format!("st{qual}{}", self.gspace());
                if vw == 1 {
                    self.store_elem(&st, elem, &at, &value.regs[s0], pred.as_deref());
                } else {
                    let srcs = &value.regs[s0..s0 + vw];
                    self.store_vec(&st, elem, &at, srcs, pred.as_deref());
                }
            }
            self.dirty.insert(m.result(op, 0), true);
        }
    }

    /// A pointer access in vectors of `w` taken under a run-time check (see
    /// [`Self::ptr_vector_checked`]): per run, `full` = the first pointer aligned to `w`
    /// elements, every mask bit of the run (and for stores the owner) set; the vector
    /// access under `full`, each element under its own mask and `!full`.
    fn emit_ptr_access_checked(
        &mut self,
        op: Op,
        load: bool,
        ptrs: &Tv,
        mask: Option<&Tv>,
        w: usize,
        elem: Type,
    ) {
        let m = self.m;
        let layout = ptrs.layout.clone();
        let qual = self.qualifiers(op, !load);
        let size = elem_bytes(elem) as u64;
        let owner = if load { None } else { self.owner(&layout) };
        let pad = if load {
            operand_group(m, op, "paddingValue")
                .first()
                .map(|v| self.tile_in(*v, &layout))
        } else {
            None
        };
        let value = (!load).then(|| self.tile_in(operand_group(m, op, "value")[0], &layout));
        let (ld, st) = (
            format!("ld{qual}{}", self.gspace()),
            format!("st{qual}{}", self.gspace()),
        );
        let mut regs = Vec::with_capacity(layout.slots());
        for s0 in (0..layout.slots()).step_by(w) {
            let t = self.reg(RegClass::B64);
            let full = self.reg(RegClass::Pred);
            self.ins(format!(
                "and.b64 {t}, {}, {};",
                ptrs.regs[s0],
                w as u64 * size - 1
            ));
            self.ins(format!("setp.eq.s64 {full}, {t}, 0;"));
            let preds: Vec<Option<String>> = (s0..s0 + w)
                .map(|s| self.slot_preds(mask, owner.as_ref(), s))
                .collect();
            for p in preds.iter().flatten() {
                self.ins(format!("and.pred {full}, {full}, {p};"));
            }
            let not_full = self.reg(RegClass::Pred);
            self.ins(format!("not.pred {not_full}, {full};"));
            if load {
                let dsts = self.padded_regs(elem, pad.as_ref(), s0..s0 + w);
                self.load_vec(
                    &ld,
                    elem,
                    &format!("[{}]", ptrs.regs[s0]),
                    &dsts,
                    Some(&full),
                );
                for (j, s) in (s0..s0 + w).enumerate() {
                    let pj = self.and_opt(&not_full, preds[j].as_deref());
                    self.load_into(
                        &ld,
                        elem,
                        &format!("[{}]", ptrs.regs[s]),
                        &dsts[j],
                        Some(&pj),
                    );
                }
                regs.extend(dsts);
            } else if let Some(v) = &value {
                let srcs = &v.regs[s0..s0 + w];
                self.store_vec(
                    &st,
                    elem,
                    &format!("[{}]", ptrs.regs[s0]),
                    srcs,
                    Some(&full),
                );
                for (j, s) in (s0..s0 + w).enumerate() {
                    let pj = self.and_opt(&not_full, preds[j].as_deref());
                    self.store_elem(
                        &st,
                        elem,
                        &format!("[{}]", ptrs.regs[s]),
                        &v.regs[s],
                        Some(&pj),
                    );
                }
            }
        }
        let token = operand_group(m, op, "token").first().copied();
        if load {
            self.set_tile(m.result(op, 0), Tv { layout, regs, elem });
            self.loaded_token(op, token);
        } else {
            self.dirty.insert(m.result(op, 0), true);
        }
    }

    /// Registers for slots `slots` of a load, holding the padding value (zero without
    /// one) until a masked-off or out-of-bounds access leaves them so.
    fn padded_regs(
        &mut self,
        elem: Type,
        pad: Option<&Tv>,
        slots: std::ops::Range<usize>,
    ) -> Vec<String> {
        slots
            .map(|s| {
                let r = self.reg(class_of(elem));
                match pad {
                    Some(p) => self.copy_reg(elem, &r, &p.regs[s]),
                    None => {
                        let z = self.zero(elem);
                        self.copy_reg(elem, &r, &z);
                    }
                }
                r
            })
            .collect()
    }

    /// A load's result token: dirty when its input token was (with allocas, shared memory
    /// read by other threads, a load's token also orders a later write after it: a
    /// write-after-read between threads).
    fn loaded_token(&mut self, op: Op, token: Option<Value>) {
        let d = token
            .and_then(|t| self.dirty.get(&t).copied())
            .unwrap_or(false);
        self.dirty.insert(self.m.result(op, 1), d || self.generic);
    }

    /// `a` and `b` (a new predicate), or `a` when there is no `b`.
    fn and_opt(&mut self, a: &str, b: Option<&str>) -> String {
        match b {
            Some(b) => {
                let p = self.reg(RegClass::Pred);
                self.ins(format!("and.pred {p}, {a}, {b};"));
                p
            }
            None => a.to_string(),
        }
    }

    /// `mov` between registers of one element type.
    pub(crate) fn copy_reg(&mut self, elem: Type, dst: &str, src: &str) {
        self.copy_reg_if(elem, dst, src, None);
    }

    /// `mov` between registers of one element type, predicated by `pred` when given.
    pub(crate) fn copy_reg_if(&mut self, elem: Type, dst: &str, src: &str, pred: Option<&str>) {
        let guard = pred.map(|p| format!("@{p} ")).unwrap_or_default();
        let ty = match class_of(elem) {
            RegClass::Pred => "pred",
            RegClass::B16 => "b16",
            RegClass::B32 => "b32",
            RegClass::B64 => "b64",
            RegClass::F32 => "f32",
            RegClass::F64 => "f64",
        };
        self.ins(format!("{guard}mov.{ty} {dst}, {src};"));
    }

    pub(crate) fn emit_atomic(&mut self, op: Op) {
        let m = self.m;
        let opcode = m.opcode(op);
        let ptrs_v = m.operand(op, 0);
        let mask_v = operand_group(m, op, "mask").first().copied();
        let token = operand_group(m, op, "token").first().copied();
        self.order_after(token);
        let ptrs = self.tile(ptrs_v);
        let layout = ptrs.layout.clone();
        let elem = self.pointee(ptrs.elem);
        let mask = mask_v.map(|v| self.tile_in(v, &layout));
        let owner = self.owner(&layout);
        let sem = self.atomic_sem(op);
        let bits = elem_bytes(elem) * 8;
        let mut regs = Vec::new();
        let float = matches!(elem, Type::F16 | Type::BF16 | Type::F32 | Type::F64);
        match opcode {
            Opcode::AtomicStoreTko => {
                let value = self.tile_in(m.operand(op, 1), &layout);
                let qual = self.qualifiers(op, true);
                let qual = if qual.is_empty() {
                    ".relaxed.gpu".to_string()
                } else {
                    qual
                };
                for s in 0..layout.slots() {
                    let pred = self.slot_preds(mask.as_ref(), owner.as_ref(), s);
                    self.store_elem(
                        &format!("st{qual}{}", self.gspace()),
                        elem,
                        &format!("[{}]", ptrs.regs[s]),
                        &value.regs[s],
                        pred.as_deref(),
                    );
                }
                self.dirty.insert(m.result(op, 0), true);
                return;
            }
            Opcode::AtomicLoadTko => {
                let qual = self.qualifiers(op, false);
                let qual = if qual.is_empty() {
                    ".relaxed.gpu".to_string()
                } else {
                    qual
                };
                for s in 0..layout.slots() {
                    let r = self.zero(elem);
                    let pred = self.slot_preds(mask.as_ref(), None, s);
                    self.load_into(
                        &format!("ld{qual}{}", self.gspace()),
                        elem,
                        &format!("[{}]", ptrs.regs[s]),
                        &r,
                        pred.as_deref(),
                    );
                    regs.push(r);
                }
            }
            Opcode::AtomicCasTko => {
                let cmp = self.tile_in(m.operand(op, 1), &layout);
                let val = self.tile_in(m.operand(op, 2), &layout);
                for s in 0..layout.slots() {
                    let (c, v) = (
                        self.as_bits(elem, &cmp.regs[s]),
                        self.as_bits(elem, &val.regs[s]),
                    );
                    let r = self.reg(if bits == 64 {
                        RegClass::B64
                    } else {
                        RegClass::B32
                    });
                    self.ins(format!(
                        "mov.{} {r}, 0;",
                        if bits == 64 { "b64" } else { "b32" }
                    ));
                    let pred = self.slot_preds(mask.as_ref(), owner.as_ref(), s);
                    let guard = pred.map(|p| format!("@{p} ")).unwrap_or_default();
                    let bt = if bits == 64 { "b64" } else { "b32" };
                    self.ins(format!(
                        "{guard}atom{sem}{}.cas.{bt} {r}, [{}], {c}, {v};",
                        self.gspace(),
                        ptrs.regs[s]
                    ));
                    let out = self.bits_to_elem(elem, &r);
                    regs.push(out);
                }
            }
            _ => {
                let arg = self.tile_in(m.operand(op, 1), &layout);
                let mode = m
                    .attr_named(op, "mode")
                    .and_then(|a| m.ctx.attrs.get_enum(a, EnumKind::AtomicRmwMode))
                    .and_then(AtomicRmwMode::from_index)
                    .unwrap_or(AtomicRmwMode::Add);
                let (name, ty) = rmw_names(mode, elem);
                // `atom.add.bf16` needs sm_90: before it, a compare-and-swap loop on the
                // 16-bit element. The sum is formed in f32 and rounded once to bf16,
                // which equals the correctly rounded bf16 sum (24 >= 2 * 8 + 2 bits, so
                // rounding twice cannot differ), as `atom.add.noftz.bf16` computes it.
                let bf16_cas =
                    mode == AtomicRmwMode::AddF && elem == Type::BF16 && self.opts.arch.sm() < 90;
                for s in 0..layout.slots() {
                    let pred = self.slot_preds(mask.as_ref(), owner.as_ref(), s);
                    if bf16_cas {
                        // Predicated rather than branched around, so that masked-out
                        // lanes leave the loop with the others.
                        let head = self.label();
                        let addr = ptrs.regs[s].clone();
                        let guard = pred.as_ref().map(|p| format!("@{p} ")).unwrap_or_default();
                        let old = self.zero(elem);
                        self.ins(format!("{guard}ld{}.b16 {old}, [{addr}];", self.gspace()));
                        self.ins(format!("{head}:"));
                        let a = self.half_to_f32(Type::BF16, &old);
                        let x = self.half_to_f32(Type::BF16, &arg.regs[s]);
                        let sum = self.reg(RegClass::F32);
                        self.ins(format!("add.rn.f32 {sum}, {a}, {x};"));
                        let new = self.f32_to_half(Type::BF16, &sum, None);
                        let prev = self.reg(RegClass::B16);
                        self.ins(format!("mov.b16 {prev}, {old};"));
                        self.ins(format!(
                            "{guard}atom{sem}{}.cas.b16 {prev}, [{addr}], {old}, {new};",
                            self.gspace()
                        ));
                        let again = self.reg(RegClass::Pred);
                        self.ins(format!("setp.ne.b16 {again}, {prev}, {old};"));
                        self.ins(format!("mov.b16 {old}, {prev};"));
                        self.ins(format!("@{again} bra {head};"));
                        regs.push(old);
                        continue;
                    }
                    let guard = pred.map(|p| format!("@{p} ")).unwrap_or_default();
                    let r = if float {
                        self.zero(elem)
                    } else {
                        self.reg(class_of(elem))
                    };
                    if !float {
                        self.copy_reg(elem, &r, "0");
                    }
                    let v = if float {
                        arg.regs[s].clone()
                    } else {
                        self.as_bits(elem, &arg.regs[s])
                    };
                    let dst = if float {
                        r.clone()
                    } else {
                        self.reg(if bits == 64 {
                            RegClass::B64
                        } else {
                            RegClass::B32
                        })
                    };
                    if !float {
                        self.ins(format!(
                            "mov.{} {dst}, 0;",
                            if bits == 64 { "b64" } else { "b32" }
                        ));
                    }
                    let narrow_int = !float && bits < 32;
                    if narrow_int {
                        // No 8/16-bit atomics: a CAS loop on the containing word would be
                        // needed; tile IR's atomics take i32/i64 and floats.
                        self.error_at_op(
                            op,
                            "atomics on 8- or 16-bit integers have no PTX lowering",
                        );
                        regs.push(r);
                        continue;
                    }
                    self.ins(format!(
                        "{guard}atom{sem}{}.{name}.{ty} {dst}, [{}], {v};",
                        self.gspace(),
                        ptrs.regs[s]
                    ));
                    let out = if float {
                        dst
                    } else {
                        self.bits_to_elem(elem, &dst)
                    };
                    regs.push(out);
                }
            }
        }
        self.set_tile(m.result(op, 0), Tv { layout, regs, elem });
        self.dirty.insert(m.result(op, 1), true);
    }

    /// `atomic_red_view_tko`: one `red` per element of the value tile (blocked layout)
    /// that lies inside the tensor, by the thread that owns it (replicated copies are not
    /// added twice). `addf` on bf16 before sm_90 is a compare-and-swap loop as for
    /// `atomic_rmw_tko`.
    pub(crate) fn emit_atomic_red_view(&mut self, op: Op) {
        let m = self.m;
        let view_v = operand_group(m, op, "view")[0];
        let index = operand_group(m, op, "index");
        let value_v = operand_group(m, op, "value")[0];
        let token = operand_group(m, op, "token").first().copied();
        let Some(view) = self.views.get(&view_v).cloned() else {
            return self.error_at_op(op, "atomic reduction through an unknown view");
        };
        self.order_after(token);
        let shape = self.shape(value_v);
        let elem = view.elem;
        let layout: Rc<Layout> = self.layout_of(value_v);
        let (addr, limits, stride_regs) = self.view_base(op, &view, &index, &shape, &layout);
        let owner = self.owner(&layout);
        let value = self.tile_in(value_v, &layout);
        let mode = m
            .attr_named(op, "mode")
            .and_then(|a| m.ctx.attrs.get_enum(a, EnumKind::AtomicRmwMode))
            .and_then(AtomicRmwMode::from_index)
            .unwrap_or(AtomicRmwMode::Add);
        let float = matches!(elem, Type::F16 | Type::BF16 | Type::F32 | Type::F64);
        if !float && elem_bytes(elem) < 4 {
            return self.error_at_op(op, "atomics on 8- or 16-bit integers have no PTX lowering");
        }
        let (_, scope) = self.ordering_scope(op);
        let sem = format!(".relaxed{scope}");
        let (name, ty) = rmw_names(mode, elem);
        let bf16_cas =
            mode == AtomicRmwMode::AddF && elem == Type::BF16 && self.opts.arch.sm() < 90;
        let mut cache = AccessCache::default();
        for s in 0..layout.slots() {
            let coords = crate::layout::coords(&shape, layout.slot_elem(s));
            let p = self.bounds_pred(&limits, &coords, &[], owner.as_deref(), &mut cache);
            let (a, off) = self.slot_address(&addr, &stride_regs, &coords, &mut cache);
            let at = if off == 0 {
                a.clone()
            } else {
                format!("{a}+{off}")
            };
            let guard = p.as_ref().map(|p| format!("@{p} ")).unwrap_or_default();
            if bf16_cas {
                // Predicated rather than branched around, so that masked-out threads
                // leave the loop with the others.
                let head = self.label();
                let old = self.zero(elem);
                self.ins(format!("{guard}ld{}.b16 {old}, [{at}];", self.gspace()));
                self.ins(format!("{head}:"));
                let x = self.half_to_f32(Type::BF16, &old);
                let y = self.half_to_f32(Type::BF16, &value.regs[s]);
                let sum = self.reg(RegClass::F32);
                self.ins(format!("add.rn.f32 {sum}, {x}, {y};"));
                let new = self.f32_to_half(Type::BF16, &sum, None);
                let prev = self.reg(RegClass::B16);
                self.ins(format!("mov.b16 {prev}, {old};"));
                self.ins(format!(
                    "{guard}atom{sem}{}.cas.b16 {prev}, [{at}], {old}, {new};",
                    self.gspace()
                ));
                let again = self.reg(RegClass::Pred);
                self.ins(format!("setp.ne.b16 {again}, {prev}, {old};"));
                self.ins(format!("mov.b16 {old}, {prev};"));
                self.ins(format!("@{again} bra {head};"));
                continue;
            }
            let v = if float {
                value.regs[s].clone()
            } else {
                self.as_bits(elem, &value.regs[s])
            };
            self.ins(format!(
                "{guard}red{sem}{}.{name}.{ty} [{at}], {v};",
                self.gspace()
            ));
        }
        self.dirty.insert(m.result(op, 0), true);
    }

    /// An element as a `.b32`/`.b64` bit pattern (for atomics).
    fn as_bits(&mut self, elem: Type, r: &str) -> String {
        match class_of(elem) {
            RegClass::F32 => {
                let b = self.reg(RegClass::B32);
                self.ins(format!("mov.b32 {b}, {r};"));
                b
            }
            RegClass::F64 => {
                let b = self.reg(RegClass::B64);
                self.ins(format!("mov.b64 {b}, {r};"));
                b
            }
            _ => r.to_string(),
        }
    }

    fn bits_to_elem(&mut self, elem: Type, r: &str) -> String {
        match class_of(elem) {
            RegClass::F32 => {
                let b = self.reg(RegClass::F32);
                self.ins(format!("mov.b32 {b}, {r};"));
                b
            }
            RegClass::F64 => {
                let b = self.reg(RegClass::F64);
                self.ins(format!("mov.b64 {b}, {r};"));
                b
            }
            _ => r.to_string(),
        }
    }
}

/// The PTX operation and type of an `atom`/`red` in `mode` on `elem`.
fn rmw_names(mode: AtomicRmwMode, elem: Type) -> (&'static str, String) {
    let bits = elem_bytes(elem) * 8;
    let ty = match mode {
        AtomicRmwMode::And | AtomicRmwMode::Or | AtomicRmwMode::Xor | AtomicRmwMode::Xchg => {
            format!("b{bits}")
        }
        AtomicRmwMode::AddF => match elem {
            Type::F16 => "noftz.f16".into(),
            Type::BF16 => "noftz.bf16".into(),
            Type::F64 => "f64".into(),
            _ => "f32".into(),
        },
        AtomicRmwMode::UMax | AtomicRmwMode::UMin | AtomicRmwMode::Add => format!("u{bits}"),
        _ => format!("s{bits}"),
    };
    let name = match mode {
        AtomicRmwMode::And => "and",
        AtomicRmwMode::Or => "or",
        AtomicRmwMode::Xor => "xor",
        AtomicRmwMode::Add | AtomicRmwMode::AddF => "add",
        AtomicRmwMode::Max | AtomicRmwMode::UMax => "max",
        AtomicRmwMode::Min | AtomicRmwMode::UMin => "min",
        AtomicRmwMode::Xchg => "exch",
    };
    (name, ty)
}

/// Predicates and addresses shared between the slots of one view access.
#[derive(Default)]
struct AccessCache {
    /// In-bounds predicate by the coordinates of the checked dimensions.
    preds: FxHashMap<Vec<u64>, String>,
    /// The predicate over all checked dimensions but the last (and the owner), by their
    /// coordinates.
    prefixes: FxHashMap<Vec<u64>, Option<String>>,
    /// Slot address register by the coordinates of the dynamically strided dimensions.
    addrs: FxHashMap<Vec<u64>, String>,
}

//! The copy engine (TMA) and mbarriers on sm_90: `ttg.global_scratch_alloc`,
//! `ttng.tensormap_create`, `ttng.async_tma_copy_global_to_local` and the `ttng` barrier
//! ops (docs/hopper.md, "Tensor maps built by the kernel").
//!
//! * **Global scratch**: each `ttg.global_scratch_alloc` of a kernel has a module-scope
//!   table of `256 x S` slots of its `nbytes` (S: as many of the kernel's CTAs as an SM
//!   holds, [`scratch_slots`]) and one mask of busy slots per SM bucket (`%smid & 255`).
//!   Warp 0 claims a free bit of its SM's mask in step (lane 0's `atom.acquire.gpu.or`,
//!   its result shuffled to the warp; spinning while all are busy: only other running
//!   CTAs hold them), so the whole warp, the only one that uses it, has the slot's
//!   address; thread 0 releases the bit (`red.release.gpu.and`) before every `ret`. The
//!   registers that remember the claim start at zero, so a kernel that returns before
//!   claiming releases nothing.
//! * **Tensor maps**: warp 0 zeroes 128 bytes of its scratch (128-byte aligned), lane 0
//!   writes every field with `tensormap.replace` (address, rank, box, dimensions, strides,
//!   element type, swizzle, zero fill), the warp copies the map to its global slot with
//!   `tensormap.cp_fenceproxy` (release at GPU scope) and lane 0 acquires it for the
//!   tensormap proxy (`fence.proxy.tensormap::generic.acquire`).
//! * **Copies**: thread 0 fences its generic-proxy view of shared memory against the async
//!   proxy and issues `cp.async.bulk.tensor` at element coordinates `index * tile`
//!   (innermost first), completing on the stage's mbarrier.
//! * **mbarriers**: `init`, `inval`, `arrive.expect_tx` and `arrive` by thread 0; every
//!   thread waits with `try_wait.parity` in a loop.

use super::{Dim, Kernel};
use crate::sink::{RegClass, Sink};
use tilec_ir::{Op, TypeData, Value};

/// The `ttng` barrier ops, each by its opcode (emit/mod.rs dispatches them).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Mbarrier {
    /// `ttng.init_barrier`.
    Init,
    /// `ttng.inval_barrier`.
    Inval,
    /// `ttng.barrier_expect`.
    Expect,
    /// `ttng.arrive_barrier`.
    Arrive,
    /// `ttng.wait_barrier`.
    Wait,
}

/// SM buckets of a global scratch table (`%smid & 255`).
const SCRATCH_BUCKETS: u64 = 256;

/// Slots per SM bucket for a kernel of `threads` threads and `smem` bytes of shared
/// memory: as many of its CTAs as an SM can hold (2048 threads, 228 KiB of shared memory
/// with 1 KiB reserved per CTA, at most 32 CTAs). More CTAs than that on one SM (a GPU
/// with more shared memory) only wait for a slot, which running CTAs release.
pub(crate) fn scratch_slots(threads: u32, smem: u64) -> u64 {
    let by_threads = u64::from(2048 / threads.max(1));
    let by_smem = (228 * 1024) / (smem + 1024);
    by_threads.min(by_smem).clamp(1, 32)
}

impl Kernel<'_> {
    /// The registers of every `ttg.global_scratch_alloc` of `entry`'s claim (the mask
    /// word's address, the claimed bit), zero at the kernel's start.
    pub(crate) fn prepare_scratch_claims(&mut self, entry: Op) {
        let m = self.m;
        let mut ops = Vec::new();
        let mut partition_warps = 0;
        m.walk_op(entry, &mut |o| {
            if m.opcode(o) == tilec_ir::Opcode::GlobalScratchAlloc {
                ops.push(o);
            }
            if m.opcode(o) == tilec_ir::Opcode::WarpSpecialize {
                partition_warps = partition_warps.max(tilec_gpuir::ws::warps_of(m, o));
            }
        });
        // The CTA's threads: the layouts' warps and a warp-specialized partition's.
        self.threads = self.opts.threads() + 32 * partition_warps;
        for o in ops {
            let (at, bit) = (self.reg(RegClass::B64), self.reg(RegClass::B32));
            self.ins(format!("mov.u64 {at}, 0;"));
            self.ins(format!("mov.u32 {bit}, 0;"));
            self.claims.push((o, at, bit));
        }
        let smem = tilec_gpuir::smem::peak(m, entry).map_or(0, |(end, _)| end);
        self.scratch_slots = scratch_slots(self.threads, smem);
    }

    /// Releases the slots this CTA claimed (thread 0, before a `ret`; warp 0 holds the
    /// claim, the other warps zero).
    pub(crate) fn release_scratch(&mut self) {
        let tid = self.tid.clone();
        for (_, at, bit) in self.claims.clone() {
            let (p, free) = (self.reg(RegClass::Pred), self.reg(RegClass::B32));
            self.ins(format!("setp.ne.u32 {p}, {bit}, 0;"));
            self.ins(format!("setp.eq.and.u32 {p}, {tid}, 0, {p};"));
            self.ins(format!("not.b32 {free}, {bit};"));
            self.ins(format!(
                "@{p} red.release.gpu.global.and.b32 [{at}], {free};"
            ));
        }
    }

    /// A predicate that holds in thread 0, which issues the copy engine's and the
    /// mbarriers' single-thread instructions.
    pub(crate) fn thread0(&mut self) -> String {
        let (tid, l) = (self.tid.clone(), self.reg(RegClass::Pred));
        self.ins(format!("setp.eq.u32 {l}, {tid}, 0;"));
        l
    }

    /// A predicate that holds in warp 0, and one for thread 0.
    fn warp0_and_lead(&mut self) -> (String, String) {
        let (tid, w) = (self.tid.clone(), self.reg(RegClass::Pred));
        self.ins(format!("setp.lt.u32 {w}, {tid}, 32;"));
        (w, self.thread0())
    }

    /// `ttg.global_scratch_alloc {nbytes, alignment}`: a slot of this op's table.
    pub(crate) fn emit_global_scratch_alloc(&mut self, op: Op, entry_name: &str) {
        let m = self.m;
        let int = |name: &str| {
            m.attr_named(op, name)
                .and_then(|a| m.ctx.attrs.get_int(a))
                .unwrap_or(0)
        };
        let slot = (int("nbytes").max(1) as u64).next_multiple_of(128);
        let align = int("alignment").clamp(128, 1 << 12);
        let Some(i) = self.claims.iter().position(|(o, ..)| *o == op) else {
            return self.error_at_op(op, "internal error: a global scratch claim not prepared");
        };
        let (_, at, bit) = self.claims[i].clone();
        let slots = self.scratch_slots;
        let table = format!("__tilec_scratch_{entry_name}_{i}");
        let busy = format!("__tilec_scratch_busy_{entry_name}_{i}");
        self.module_data.decls.push(format!(
            ".global .align {align} .b8 {table}[{}];",
            SCRATCH_BUCKETS * slots * slot
        ));
        self.module_data.decls.push(format!(
            ".global .align 4 .b8 {busy}[{}];",
            4 * SCRATCH_BUCKETS
        ));
        let (w0, lead) = self.warp0_and_lead();
        let (skip, retry) = (self.label(), self.label());
        let ptr = self.reg(RegClass::B64);
        self.ins(format!("mov.u64 {ptr}, 0;"));
        // Warp 0 runs the claim in step (lane 0's atomic, its result shuffled to the
        // warp): no divergence, which made ptxas keep convergence state on the stack.
        self.ins(format!("@!{w0} bra.uni {skip};"));
        let (sm, bucket) = (self.reg(RegClass::B32), self.reg(RegClass::B32));
        self.ins(format!("mov.u32 {sm}, %smid;"));
        self.ins(format!("and.b32 {bucket}, {sm}, {};", SCRATCH_BUCKETS - 1));
        self.ins(format!("mov.u64 {at}, {busy};"));
        self.ins(format!("mad.wide.u32 {at}, {bucket}, 4, {at};"));
        // Try bit `b` (first 0); on failure the lowest of the `slots` bits the mask shows
        // free, or 0 again when none is (until a running CTA releases one).
        let (b, old, free, taken) = (
            self.reg(RegClass::B32),
            self.reg(RegClass::B32),
            self.reg(RegClass::B32),
            self.reg(RegClass::Pred),
        );
        self.ins(format!("mov.u32 {b}, 0;"));
        self.line(format!("{retry}:"));
        self.ins(format!("shl.b32 {bit}, 1, {b};"));
        self.ins(format!("mov.u32 {old}, 0;"));
        self.ins(format!(
            "@{lead} atom.acquire.gpu.global.or.b32 {old}, [{at}], {bit};"
        ));
        self.ins(format!("shfl.sync.idx.b32 {old}, {old}, 0, 31, -1;"));
        self.ins(format!("and.b32 {free}, {old}, {bit};"));
        self.ins(format!("setp.ne.u32 {taken}, {free}, 0;"));
        self.ins(format!("not.b32 {free}, {old};"));
        if slots < 32 {
            self.ins(format!("and.b32 {free}, {free}, {};", (1u64 << slots) - 1));
        }
        self.ins(format!("brev.b32 {free}, {free};"));
        self.ins(format!("clz.b32 {b}, {free};"));
        self.ins(format!("and.b32 {b}, {b}, 31;"));
        self.ins(format!("@{taken} bra.uni {retry};"));
        // Slot (bucket * 32 + bit) of the table: bit = 31 - clz(bit mask).
        let (idx, z) = (self.reg(RegClass::B32), self.reg(RegClass::B32));
        self.ins(format!("clz.b32 {z}, {bit};"));
        self.ins(format!("sub.u32 {z}, 31, {z};"));
        self.ins(format!("mad.lo.u32 {idx}, {bucket}, {slots}, {z};"));
        self.ins(format!("mov.u64 {ptr}, {table};"));
        self.ins(format!("cvta.global.u64 {ptr}, {ptr};"));
        self.ins(format!("mad.wide.u32 {ptr}, {idx}, {slot}, {ptr};"));
        self.line(format!("{skip}:"));
        let elem = m.ctx.types.element_type(m.value_type(m.result(op, 0)));
        self.set_scalar(m.result(op, 0), elem, ptr);
    }

    /// `ttng.tensormap_create %desc_ptr, %view {swizzle_mode}`.
    pub(crate) fn emit_tensormap_create(&mut self, op: Op) {
        let m = self.m;
        let (desc_v, view_v) = (m.operand(op, 0), m.operand(op, 1));
        let Some(view) = self.views.get(&view_v).cloned() else {
            return self.error_at_op(op, "tensor map of an unknown view");
        };
        let Some(tile) = view.tile.clone() else {
            return self.error_at_op(op, "tensor map of a view that is not a partition view");
        };
        let swizzle = m
            .attr_named(op, "swizzle_mode")
            .and_then(|a| m.ctx.attrs.get_int(a))
            .unwrap_or(0);
        let size = super::elem_bytes(view.elem) as i64;
        let desc = self.scalar(desc_v);
        // 240 bytes of scratch hold a 128-byte aligned map.
        let scratch = self.smem(tilec_gpuir::smem::TENSOR_MAP_SCRATCH as u32);
        let tm = self.reg(RegClass::B32);
        self.ins(format!("add.u32 {tm}, {scratch}, 127;"));
        self.ins(format!("and.b32 {tm}, {tm}, -128;"));
        let (w0, lead) = self.warp0_and_lead();
        let skip = self.label();
        // Warp-uniform: the whole of warp 0 goes on, the warp collectives below need it.
        self.ins(format!("@!{w0} bra.uni {skip};"));
        // The warp is done with what it last read there (an earlier map's copy).
        self.ins("bar.warp.sync -1;");
        let za = self.reg(RegClass::B32);
        let tid = self.tid.clone();
        self.ins(format!("mad.lo.u32 {za}, {tid}, 4, {tm};"));
        self.ins(format!("st.shared.u32 [{za}], 0;"));
        self.ins("bar.warp.sync -1;");
        // Lane 0 writes the fields, predicated rather than branched around, so that the
        // warp never diverges before its collective copy (a branch there made ptxas keep
        // a convergence state on the stack).
        let rank = tile.len();
        let replace = |k: &mut Self, field: &str, ty: &str, rest: String| {
            k.ins(format!(
                "@{lead} tensormap.replace.tile.{field}.shared::cta.b1024.{ty} [{tm}], {rest};"
            ));
        };
        replace(self, "global_address", "b64", view.base.clone());
        replace(self, "rank", "b32", format!("{}", rank - 1));
        // Dimension i of the map is dimension rank - 1 - i of the view (innermost first).
        for i in 0..rank {
            let d = rank - 1 - i;
            replace(self, "box_dim", "b32", format!("{i}, {}", tile[d]));
            let dim = match &view.shape[d] {
                Dim::Static(s) => format!("{s}"),
                Dim::Dyn(r) => {
                    let x = self.reg(RegClass::B32);
                    self.ins(format!("cvt.u32.u64 {x}, {r};"));
                    x
                }
            };
            replace(self, "global_dim", "b32", format!("{i}, {dim}"));
            if i > 0 {
                let stride = match &view.strides[d] {
                    Dim::Static(s) => format!("{}", s * size),
                    Dim::Dyn(r) => {
                        let x = self.reg(RegClass::B64);
                        self.ins(format!("mul.lo.s64 {x}, {r}, {size};"));
                        x
                    }
                };
                replace(self, "global_stride", "b64", format!("{}, {stride}", i - 1));
            }
            replace(self, "element_stride", "b32", format!("{i}, 1"));
        }
        // Bytes as unsigned integers of the element's size: the copy moves them as they
        // are, and zero fills out of bounds.
        let elemtype = match size {
            1 => 0,
            2 => 1,
            8 => 4,
            _ => 2,
        };
        replace(self, "elemtype", "b32", format!("{elemtype}"));
        replace(self, "interleave_layout", "b32", "0".into());
        replace(self, "swizzle_mode", "b32", format!("{swizzle}"));
        replace(self, "fill_mode", "b32", "0".into());
        self.ins("bar.warp.sync -1;");
        self.ins(format!(
            "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [{desc}], [{tm}], 128;"
        ));
        self.ins(format!(
            "@{lead} fence.proxy.tensormap::generic.acquire.gpu [{desc}], 128;"
        ));
        // ptxas (13.5 too) lowers the acquire to an invalidation of the cached map that
        // nothing waits for (`UTMACCTL.IV`, `UTMACMDFLUSH`, no scoreboard wait); an empty
        // bulk group committed and waited for makes the thread wait for it (`DEPBAR.LE
        // SB0, 0x0`) before its first copy reads the map. Triton does the same, naming it
        // a ptxas bug.
        self.ins(format!("@{lead} cp.async.bulk.commit_group;"));
        self.ins(format!("@{lead} cp.async.bulk.wait_group.read 0;"));
        self.line(format!("{skip}:"));
        // PTX ISA 8.6 at least: the ptxas releases that only know 8.5 or older write
        // `global_stride` into the map without dividing it by 16 (Triton shifts the
        // stride for them; ptxas 13.5 divides, whatever the `.version`), so with 8.6
        // such a ptxas refuses the module rather than write a wrong map.
        let need = self
            .module_data
            .min_version
            .map_or((8, 6), |w| w.max((8, 6)));
        self.module_data.min_version = Some(need);
    }

    /// The shared address of mbarrier buffer `v`.
    fn barrier_addr(&mut self, op: Op, v: Value) -> Option<String> {
        let b = self.bufs.get(&v).cloned();
        if b.is_none() {
            self.error_at_op(op, "mbarrier in an unknown buffer");
        }
        b
    }

    /// The `ttng` barrier ops: `init_barrier`, `inval_barrier`, `barrier_expect`,
    /// `arrive_barrier` (thread 0) and `wait_barrier` (every thread).
    pub(crate) fn emit_mbarrier(&mut self, op: Op, kind: Mbarrier) {
        let m = self.m;
        let Some(bar) = self.barrier_addr(op, m.operand(op, 0)) else {
            return;
        };
        let int = |name: &str| {
            m.attr_named(op, name)
                .and_then(|a| m.ctx.attrs.get_int(a))
                .unwrap_or(0)
        };
        match kind {
            Mbarrier::Init => {
                let lead = self.thread0();
                let count = int("count").max(1);
                self.ins(format!(
                    "@{lead} mbarrier.init.shared::cta.b64 [{bar}], {count};"
                ));
                self.ins(format!("@{lead} fence.mbarrier_init.release.cluster;"));
            }
            Mbarrier::Inval => {
                let lead = self.thread0();
                self.ins(format!("@{lead} mbarrier.inval.shared::cta.b64 [{bar}];"));
            }
            Mbarrier::Expect => {
                let pred = self.scalar(m.operand(op, 1));
                let (tid, lead) = (self.tid.clone(), self.reg(RegClass::Pred));
                self.ins(format!("setp.eq.and.u32 {lead}, {tid}, 0, {pred};"));
                self.ins(format!(
                    "@{lead} mbarrier.arrive.expect_tx.shared::cta.b64 _, [{bar}], {};",
                    int("size")
                ));
            }
            Mbarrier::Arrive => {
                // `perWarp`: lane 0 of each warp, once the warp's earlier work is done
                // (the warp-wide instructions before it).
                let lead = if m.attr_named(op, "perWarp").is_some() {
                    let (tid, lane) = (self.tid.clone(), self.reg(RegClass::B32));
                    let l = self.reg(RegClass::Pred);
                    self.ins(format!("and.b32 {lane}, {tid}, 31;"));
                    self.ins(format!("setp.eq.u32 {l}, {lane}, 0;"));
                    l
                } else {
                    self.thread0()
                };
                let count = int("count").max(1);
                if count == 1 {
                    self.ins(format!(
                        "@{lead} mbarrier.arrive.shared::cta.b64 _, [{bar}];"
                    ));
                } else {
                    self.ins(format!(
                        "@{lead} mbarrier.arrive.shared::cta.b64 _, [{bar}], {count};"
                    ));
                }
            }
            Mbarrier::Wait => {
                let phase = self.scalar(m.operand(op, 1));
                let (again, done) = (self.label(), self.reg(RegClass::Pred));
                self.line(format!("{again}:"));
                self.ins(format!(
                    "mbarrier.try_wait.parity.shared::cta.b64 {done}, [{bar}], {phase};"
                ));
                self.ins(format!("@!{done} bra {again};"));
            }
        }
    }

    /// Element coordinates `index * tile` of `op`'s view access (operands `2..2 + rank`),
    /// innermost first, as 32-bit registers.
    fn tma_coords(&mut self, op: Op, tile: &[i64]) -> Vec<String> {
        let m = self.m;
        let mut coords = Vec::with_capacity(tile.len());
        for d in (0..tile.len()).rev() {
            let ix = self.index64(m.operand(op, 2 + d));
            let (e, c) = (self.reg(RegClass::B64), self.reg(RegClass::B32));
            self.ins(format!("mul.lo.s64 {e}, {ix}, {};", tile[d]));
            self.ins(format!("cvt.u32.u64 {c}, {e};"));
            coords.push(c);
        }
        coords
    }

    /// `ttng.async_tma_copy_local_to_global %desc, %view[%index], %src`: thread 0 stores
    /// the buffer as one bulk group (the writers fenced it for the async proxy and a CTA
    /// barrier followed).
    pub(crate) fn emit_tma_store(&mut self, op: Op) {
        let m = self.m;
        let n = m.num_operands(op);
        let desc = self.scalar(m.operand(op, 0));
        let view_ty = m.value_type(m.operand(op, 1));
        let TypeData::PartitionView { tile, .. } = m.ctx.types.get(view_ty).clone() else {
            return self.error_at_op(op, "TMA store into a view that is not a partition view");
        };
        let Some(src) = self.bufs.get(&m.operand(op, n - 1)).cloned() else {
            return self.error_at_op(op, "TMA store from an unknown buffer");
        };
        let coords = self.tma_coords(op, &tile);
        let lead = self.thread0();
        self.ins(format!(
            "@{lead} cp.async.bulk.tensor.{}d.global.shared::cta.tile.bulk_group [{desc}, {{{}}}], [{src}];",
            tile.len(),
            coords.join(", ")
        ));
        self.ins(format!("@{lead} cp.async.bulk.commit_group;"));
    }

    /// `ttng.async_tma_copy_global_to_local %desc, %view[%index], %dst, %bar`.
    pub(crate) fn emit_tma_copy(&mut self, op: Op) {
        let m = self.m;
        let n = m.num_operands(op);
        let desc = self.scalar(m.operand(op, 0));
        let view_ty = m.value_type(m.operand(op, 1));
        let TypeData::PartitionView { tile, .. } = m.ctx.types.get(view_ty).clone() else {
            return self.error_at_op(op, "TMA copy from a view that is not a partition view");
        };
        let (dst_v, bar_v) = (m.operand(op, n - 2), m.operand(op, n - 1));
        let (Some(dst), Some(bar)) = (self.bufs.get(&dst_v).cloned(), self.barrier_addr(op, bar_v))
        else {
            return self.error_at_op(op, "TMA copy into an unknown buffer");
        };
        let rank = tile.len();
        let coords = self.tma_coords(op, &tile);
        let lead = self.thread0();
        self.ins(format!("@{lead} fence.proxy.async.shared::cta;"));
        self.ins(format!(
            "@{lead} cp.async.bulk.tensor.{rank}d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{dst}], [{desc}, {{{}}}], [{bar}];",
            coords.join(", ")
        ));
    }
}

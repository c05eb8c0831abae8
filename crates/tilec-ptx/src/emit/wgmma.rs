//! `mmaf` on Hopper's warpgroup MMA (`wgmma.mma_async`, sm_90a): the emission of the plan
//! [`tilec_gpuir::wgmma::WgmmaPlan`] that gpu-assign-layouts recorded (`ttg.mma =
//! "wgmma.m64nNk16..."`).
//!
//! A is in registers (in the A fragment layout, `WgmmaPlan::a_layout`: a product whose
//! A is computed, not loaded, such as attention's `P V`) or, like B, in swizzled shared
//! memory (A `M x K`, B staged `N x K`, both K-major);
//! each instruction reads them through 64-bit matrix descriptors (PTX ISA, "Matrix
//! Descriptor Format"): bits 0-13 the start address >> 4, bits 16-29 the leading
//! dimension byte offset >> 4 (unused by the swizzled K-major layouts: 1), bits 32-45 the
//! stride byte offset >> 4 (8 rows of `R` bytes), bits 62-63 the swizzle mode of `R`.
//! The descriptor of block row `r`, k step `s` is the buffer's plus `(r R + 32 s) >> 4`.
//!
//! The sequence: every thread fences its generic-proxy writes of A and B against the
//! async proxy the tensor cores read through (`fence.proxy.async.shared::cta`), a
//! barrier, the accumulator copied into the result registers, `wgmma.fence`, one
//! `wgmma.mma_async` per (64-row block, N block, k step) with `scale-d` set (D = A B + D),
//! `wgmma.commit_group` and `wgmma.wait_group 0`.

use super::{Kernel, Tv};
use crate::sink::{RegClass, Sink};
use std::rc::Rc;
use tilec_gpuir::wgmma::WgmmaPlan;
use tilec_ir::{Op, TypeData};

impl Kernel<'_> {
    pub(crate) fn emit_wgmma(&mut self, op: Op, plan: &WgmmaPlan) {
        let m = self.m;
        let (a_v, b_v, c_v) = (m.operand(op, 0), m.operand(op, 1), m.operand(op, 2));
        // A from registers (a tile in the A fragment layout gpu-assign-layouts chose), or
        // from shared memory like B.
        let a_regs = m.ctx.types.is_tile(m.value_type(a_v));
        let a_addr = self.bufs.get(&a_v).cloned();
        let Some(b_addr) = self.bufs.get(&b_v).cloned() else {
            return self.error_at_op(op, "warpgroup MMA operands must be in shared memory");
        };
        if !a_regs && a_addr.is_none() {
            return self.error_at_op(op, "warpgroup MMA operands must be in shared memory");
        }
        // The buffers must be K-major with the swizzle of their rows (what
        // gpu-assign-layouts stages them in): A as it is, B the `N x K` buffer viewed
        // transposed, or B staged MN-major, its `K x N` buffer as it is.
        // Bytes between rows of A (and of B staged K-major): one block's when A is
        // column-blocked.
        let r = plan.row_stride() as u64;
        let esize = u64::from(tilec_gpuir::sizes::elem_bytes(plan.elem_a));
        let rb_mn = u64::from(plan.b_mn_row_bytes());
        let want = |shape: &[i64]| tilec_gpuir::gpu::mma_swizzle(shape, plan.elem_a);
        let swizzle_of = |v| match m.ctx.types.get(m.value_type(v)) {
            TypeData::MemDesc { swizzle, .. } => Some(*swizzle),
            _ => None,
        };
        let (mm, nn, kk) = (plan.m as i64, plan.n as i64, plan.k as i64);
        // MN-major over several atoms: the `K x N` view of a column-blocked buffer.
        let atoms = plan.b_mn_atoms();
        let b_mn = plan.b_mn_major_allowed()
            && swizzle_of(b_v) == Some(want(&[kk, nn]))
            && if atoms > 1 {
                self.elem_map(b_v) == column_blocked_map(plan.k, plan.n, 64)
            } else {
                !self.buf_maps.contains_key(&b_v)
            };
        // A over several atoms along K: the `M x K` view of a column-blocked buffer.
        let a_placed = if plan.a_atoms() > 1 {
            self.elem_map(a_v) == column_blocked_map(plan.m, plan.k, (128 / esize) as u32)
        } else {
            !self.buf_maps.contains_key(&a_v)
        };
        // B K-major: the transposed view of an `N x K` buffer, itself column-blocked when
        // A is.
        let b_k_major = {
            let t = transposed_map(plan);
            if plan.a_atoms() > 1 {
                let blocked = column_blocked_map(plan.n, plan.k, (128 / esize) as u32);
                t.iter().map(|b| blocked[*b as usize]).collect()
            } else {
                t
            }
        };
        if (!a_regs && (!a_placed || swizzle_of(a_v) != Some(want(&[mm, kk]))))
            || !(b_mn
                || (swizzle_of(b_v) == Some(want(&[nn, kk])) && self.elem_map(b_v) == b_k_major))
        {
            return self.error_at_op(
                op,
                "warpgroup MMA operands must be K-major buffers with the swizzle of their rows",
            );
        }
        let lc = Rc::new(plan.c.clone());
        let c = self.tile_in(c_v, &lc);
        // Generic-proxy writes of A and B (stores, cp.async) before the async proxy reads,
        // unless the IR says there are none (or fenced them itself).
        if m.attr_named(op, tilec_gpuir::wgmma::ASYNC_OPERANDS_ATTR)
            .is_none()
        {
            self.ins("fence.proxy.async.shared::cta;");
            let bar = self.bar_sync();
            self.lines.push(bar);
        }
        // Descriptors: the address bits of each buffer, the rest constant.
        let hi: u64 = (plan.swizzle_mode() << 62) | (((8 * r) >> 4) << 32) | (1 << 16);
        // MN-major B: 8-row groups along K 8 R_B apart, in both offset fields (see
        // tilec_gpuir::wgmma); column-blocked, the atoms along N `K * 128` bytes apart
        // in the leading byte offset.
        let rb_mn = rb_mn.min(128);
        let atom_bytes = u64::from(plan.k) * 128;
        let hi_b: u64 = if b_mn {
            let group = (8 * rb_mn) >> 4;
            let lead = if atoms > 1 { atom_bytes >> 4 } else { group };
            (tilec_gpuir::wgmma::swizzle_mode(rb_mn as u32) << 62) | (group << 32) | (lead << 16)
        } else {
            hi
        };
        let desc = |k: &mut Self, addr: &str, hi: u64| {
            let d = k.reg(RegClass::B64);
            k.ins(format!("cvt.u64.u32 {d}, {addr};"));
            k.ins(format!("shr.u64 {d}, {d}, 4;"));
            k.ins(format!("and.b64 {d}, {d}, 16383;"));
            k.ins(format!("or.b64 {d}, {d}, {hi:#x};"));
            d
        };
        // A's fragments: 4 words (8 elements) per 64-row block and k step, in slot order.
        let a_words = if a_regs {
            let t = self.tile_in(a_v, &Rc::new(plan.a_layout()));
            self.pack_operand(&t, 2)
        } else {
            Vec::new()
        };
        let da = match &a_addr {
            Some(a) => desc(self, a, hi),
            None => String::new(),
        };
        let db = desc(self, &b_addr, hi_b);
        // The warpgroup's rows of A: 64 * (block * groups + group).
        let groups = plan.warpgroups();
        let da_group = if a_regs {
            String::new()
        } else if groups > 1 {
            let g = self.reg(RegClass::B32);
            let tid = self.tid.clone();
            self.ins(format!("shr.u32 {g}, {tid}, 7;"));
            let g64 = self.reg(RegClass::B64);
            self.ins(format!("cvt.u64.u32 {g64}, {g};"));
            let d = self.reg(RegClass::B64);
            self.ins(format!("mad.lo.u64 {d}, {g64}, {}, {da};", (64 * r) >> 4));
            d
        } else {
            da
        };
        // D = C, then D += A B per instruction. A product left in flight
        // (`ttg.mma_async`) accumulates in C's registers themselves, which the loop carries
        // and nothing else touches until the next product or the wait after the loop.
        let in_flight = m.attr_named(op, tilec_gpuir::wgmma::ASYNC_ATTR).is_some();
        if in_flight && c.regs != self.tile(c_v).regs {
            return self.error_at_op(
                op,
                "a warpgroup MMA left in flight needs its accumulator in the accumulator layout",
            );
        }
        let (class, mov) = if plan.acc == tilec_ir::Type::I32 {
            (RegClass::B32, "mov.b32")
        } else {
            (RegClass::F32, "mov.f32")
        };
        let regs: Vec<String> = if in_flight {
            c.regs.clone()
        } else {
            c.regs
                .iter()
                .map(|x| {
                    let d = self.reg(class);
                    self.ins(format!("{mov} {d}, {x};"));
                    d
                })
                .collect()
        };
        let one = self.reg(RegClass::B32);
        self.ins(format!("mov.u32 {one}, 1;"));
        let scale_d = self.reg(RegClass::Pred);
        self.ins(format!("setp.ne.u32 {scale_d}, {one}, 0;"));
        self.ins("wgmma.fence.sync.aligned;");
        let name = plan.name();
        let inst = name.trim_start_matches("wgmma.");
        let rpi = plan.regs_per_inst() as usize;
        for b in 0..plan.m_blocks() {
            for n in 0..plan.n_blocks() {
                let slot = rpi * (n + plan.n_blocks() * b) as usize;
                let ds = regs[slot..slot + rpi].join(", ");
                for s in 0..plan.k_steps() {
                    let step = u64::from(tilec_gpuir::wgmma::K_STEP_BYTES * s);
                    // K-major: N block rows down, k step bytes along; MN-major: 16 rows
                    // of K per k step, and (column-blocked) the instruction's first atom.
                    let b_off = if b_mn {
                        let first_atom = u64::from(n * plan.n_inst * 2 / 128);
                        (16 * u64::from(s) * rb_mn + first_atom * atom_bytes) >> 4
                    } else {
                        let block = step / 128 * u64::from(plan.n) * 128;
                        (u64::from(n * plan.n_inst) * r + block + step % 128) >> 4
                    };
                    let a = if a_regs {
                        let w = 4 * (s + plan.k_steps() * b) as usize;
                        format!("{{{}}}", a_words[w..w + 4].join(", "))
                    } else {
                        // Column-blocked: the k step's block, then its bytes in the row.
                        let block = step / 128 * u64::from(plan.m) * 128;
                        let a_off = (64 * u64::from(b * groups) * r + block + step % 128) >> 4;
                        let ad = self.reg(RegClass::B64);
                        self.ins(format!("add.s64 {ad}, {da_group}, {a_off};"));
                        ad
                    };
                    let bd = self.reg(RegClass::B64);
                    self.ins(format!("add.s64 {bd}, {db}, {b_off};"));
                    self.ins(format!(
                        "wgmma.mma_async.sync.aligned.{inst} {{{ds}}}, {a}, {bd}, {scale_d}{};",
                        plan.immediates(a_regs, b_mn)
                    ));
                }
            }
        }
        self.ins("wgmma.commit_group.sync.aligned;");
        // In flight: the previous K step's group is awaited (its stages get refilled).
        let pending = u32::from(in_flight);
        self.ins(format!("wgmma.wait_group.sync.aligned {pending};"));
        self.set_tile(
            m.result(op, 0),
            Tv {
                layout: lc,
                regs,
                elem: plan.acc,
            },
        );
    }
}

/// The element map of an operand's view over a column-blocked buffer (`R x C` over
/// `C / W x R x W`, `W` elements per 128-byte row of a block): C's low bits (within a
/// block's row) stay, R's follow them, C's others (the block) go on top.
fn column_blocked_map(rows: u32, cols: u32, w: u32) -> Vec<u8> {
    let (r, c, w) = (
        rows.trailing_zeros(),
        cols.trailing_zeros(),
        w.trailing_zeros(),
    );
    (0..c)
        .map(|e| if e < w { e } else { r + e })
        .chain((0..r).map(|e| w + e))
        .map(|b| b as u8)
        .collect()
}

/// The element map of B's operand view (`K x N` over an `N x K` buffer): view bit `e`
/// (N bits low, then K) is buffer bit (K bits low, then N).
fn transposed_map(plan: &WgmmaPlan) -> Vec<u8> {
    let (n, k) = (plan.n.trailing_zeros(), plan.k.trailing_zeros());
    (0..n)
        .map(|e| (k + e) as u8)
        .chain((0..k).map(|e| e as u8))
        .collect()
}

//! `mmaf` / `mmai` on tensor cores: the emission of the plan [`tilec_gpuir::mma::mma_plan`]
//! made (docs/ptx-backend.md, "Tensor cores").

pub use tilec_gpuir::mma::*;

use super::memdesc::SmemAddr;
use super::{Kernel, Tv, elem_bytes};
use crate::layout::Layout;
use crate::sink::{RegClass, Sink};
use std::rc::Rc;
use tilec_ir::{Op, Type, TypeData, Value};

/// Where the packed registers of an operand come from.
enum Source {
    /// Already in registers (packed).
    Regs(Vec<String>),
    /// Staged in shared memory (layout `layout` over the allocation's index, stored under
    /// the swizzle `pairs`), loaded before the first instruction that reads a register.
    Smem {
        layout: Layout,
        pairs: Vec<(u8, u8)>,
        size: u64,
        read: Box<SmemRead>,
        loaded: Vec<Option<String>>,
    },
}

/// How staged fragment registers are read.
enum SmemRead {
    /// `ldmatrix.x{group}` of the `group` packed registers `g * group ..`: lane `8 q + i`
    /// supplies row `i` of matrix `q` at its element of `lanes` (plus the group's first
    /// slot), see [`ldmatrix_lanes`]; with `trans`, `ldmatrix.trans` of a buffer whose
    /// 16-byte rows run across the packed registers ([`ldmatrix_trans_lanes`]).
    Ldmatrix {
        addr: SmemAddr,
        lanes: Layout,
        group: usize,
        trans: bool,
    },
    /// One `ld.shared.b32` per packed register, at its element of the staged layout.
    Words(SmemAddr),
}

pub(crate) use tilec_gpuir::mma::{ldmatrix_lanes, ldmatrix_trans_lanes};

impl Kernel<'_> {
    /// mmaf / mmai on tensor cores, following `plan`. The GPU-level IR has put each
    /// operand where the plan needs it (convert-to-gpu, `Assign::mma_operands`): C in the
    /// accumulator layout; A and B either in their fragment layouts (packed into 32-bit
    /// registers here) or in shared memory, A row-major and B as a `ttg.memdesc_trans`
    /// view of an `N x K` buffer, from which the packed registers are loaded with
    /// `ldmatrix` (see [`Self::mma_source`]) right before the k step that first reads them,
    /// so only one k step's fragments are live at a time. The result (f16 accumulators unpacked) is left in the
    /// accumulator layout.
    pub(crate) fn emit_mma_sync(&mut self, op: Op, plan: &MmaPlan) {
        let m = self.m;
        let (a_v, b_v, c_v) = (m.operand(op, 0), m.operand(op, 1), m.operand(op, 2));
        let kind = plan.kind;
        let per = kind.ab_per_reg();
        let lc = Rc::new(plan.c.clone());
        let na = (1 << kind.a_frag().reg.len()) / per;
        let nb = (1 << kind.b_frag().reg.len()) / per;
        let src_a = self.mma_source(op, a_v, &plan.a, plan.a_staged(), per, na, false);
        let src_b = self.mma_source(op, b_v, &plan.b, plan.b_staged(), per, nb, true);
        let c = self.tile_in(c_v, &lc);
        let (Some(mut src_a), Some(mut src_b)) = (src_a, src_b) else {
            return;
        };
        let mut acc = self.pack_operand(&c, kind.c_per_reg());
        let opcode = kind.opcode(
            self.mma_signed(op, "signedness_lhs"),
            self.mma_signed(op, "signedness_rhs"),
        );
        if let Some(v) = kind.min_ptx_version() {
            let need = self.module_data.min_version.map_or(v, |w| w.max(v));
            self.module_data.min_version = Some(need);
        }
        let d_class = match kind {
            MmaKind::I8I32 | MmaKind::F16F16 => RegClass::B32,
            MmaKind::F16F32
            | MmaKind::Bf16F32
            | MmaKind::Tf32F32
            | MmaKind::E4m3F32
            | MmaKind::E5m2F32 => RegClass::F32,
        };
        let list = |regs: &[String]| format!("{{{}}}", regs.join(", "));
        for issue in &plan.issues {
            let ar: Vec<String> = issue
                .a
                .iter()
                .map(|j| self.packed(&mut src_a, *j, per))
                .collect();
            let br: Vec<String> = issue
                .b
                .iter()
                .map(|j| self.packed(&mut src_b, *j, per))
                .collect();
            let cr: Vec<String> = issue.c.iter().map(|j| acc[*j].clone()).collect();
            let dr: Vec<String> = issue.c.iter().map(|_| self.reg(d_class)).collect();
            self.ins(format!(
                "{opcode} {}, {}, {}, {};",
                list(&dr),
                list(&ar),
                list(&br),
                list(&cr)
            ));
            for (j, d) in issue.c.iter().zip(dr) {
                acc[*j] = d;
            }
        }
        let regs = if kind.c_per_reg() == 2 {
            let mut out = Vec::with_capacity(2 * acc.len());
            for r in &acc {
                let (lo, hi) = (self.reg(RegClass::B16), self.reg(RegClass::B16));
                self.ins(format!("mov.b32 {{{lo}, {hi}}}, {r};"));
                out.push(lo);
                out.push(hi);
            }
            out
        } else {
            acc
        };
        self.set_tile(
            m.result(op, 0),
            Tv {
                layout: lc,
                regs,
                elem: c.elem,
            },
        );
    }

    /// Where the packed registers of operand `v` come from: a `!ttg.memdesc` in the
    /// staged layout (`transposed`: B, whose buffer must have K fastest), or a tile in the
    /// fragment layout `frag`. A staged operand is read with `ldmatrix` (`nfrag`
    /// registers at a time: A's four of an (m tile, k step); B's two of a k step, or
    /// four, two n tiles, when the register bit after the fragment's is not a K bit) where
    /// [`ldmatrix_lanes`] allows, else with `ld.shared.b32`. `None` (with an internal
    /// error) for a buffer in another order or whose swizzle splits a 32-bit register.
    #[allow(clippy::too_many_arguments)]
    fn mma_source(
        &mut self,
        op: Op,
        v: Value,
        frag: &Layout,
        staged: Layout,
        per: usize,
        nfrag: usize,
        transposed: bool,
    ) -> Option<Source> {
        let m = self.m;
        let Some(buf) = self.bufs.get(&v).cloned() else {
            let t = self.tile_in(v, &Rc::new(frag.clone()));
            return Some(Source::Regs(self.pack_operand(&t, per)));
        };
        let (elem, order, shape) = match m.ctx.types.get(m.value_type(v)) {
            TypeData::MemDesc {
                elem, order, shape, ..
            } => (*elem, order.clone(), shape.clone()),
            _ => (self.elem(v), Box::default(), Box::default()),
        };
        let rank = order.len();
        let fastest = if transposed {
            rank.wrapping_sub(2)
        } else {
            rank.wrapping_sub(1)
        };
        // B staged MN-major (`K x N` as it is, N fastest): read with `ldmatrix.trans`,
        // its fragment layout being the layout over the buffer's index.
        let mn_major = transposed
            && !self.buf_maps.contains_key(&v)
            && order.first().copied() == Some(rank.wrapping_sub(1) as u8);
        if mn_major {
            let pairs = self.buf_swizzle(v);
            let size = elem_bytes(elem) as u64;
            let pb = per.trailing_zeros() as usize;
            let n_bits = shape
                .last()
                .map_or(0, |n| (*n as u64).trailing_zeros() as u8);
            // Two n tiles per `ldmatrix.x4` when the register bit after the fragment's is
            // an N bit (N is the lowest `log2 N` bits of the index).
            let group = if nfrag == 2 && frag.reg.get(pb + 1).is_some_and(|b| *b < n_bits) {
                4
            } else {
                nfrag
            };
            let Some(lanes) = ldmatrix_trans_lanes(frag, per, size, &pairs, group) else {
                self.error_at_op(
                    op,
                    "a tensor-core operand B staged N-fastest must be 16-bit, in rows of at least 16 bytes that its swizzle keeps together",
                );
                return None;
            };
            let n = frag.slots() / per;
            return Some(Source::Smem {
                layout: frag.clone(),
                read: Box::new(SmemRead::Ldmatrix {
                    addr: self.smem_addr(&buf, &lanes, &pairs, size),
                    lanes,
                    group,
                    trans: true,
                }),
                pairs,
                size,
                loaded: vec![None; n],
            });
        }
        if order.first().copied() != Some(fastest as u8) {
            self.error_at_op(op, "internal error: a tensor-core operand in shared memory must have K as its fastest dimension");
            return None;
        }
        let pairs = self.buf_swizzle(v);
        if pairs
            .iter()
            .any(|(d, _)| (*d as u32) < per.trailing_zeros())
        {
            self.error_at_op(op, "internal error: the swizzle of a tensor-core operand's buffer splits its 32-bit fragment registers");
            return None;
        }
        let size = elem_bytes(elem) as u64;
        // B: two n tiles per `ldmatrix.x4` when the next register bit is not a K bit (K
        // is the lowest `log2 K` bits of the allocation's index).
        let k_bits = shape
            .get(fastest)
            .map_or(0, |k| (*k as u64).trailing_zeros() as u8);
        let pb = per.trailing_zeros() as usize;
        let group = if nfrag == 2 && staged.reg.get(pb + 1).is_some_and(|b| *b >= k_bits) {
            4
        } else {
            nfrag
        };
        let read = Box::new(match ldmatrix_lanes(&staged, per, size, &pairs, group) {
            Some(lanes) => SmemRead::Ldmatrix {
                addr: self.smem_addr(&buf, &lanes, &pairs, size),
                lanes,
                group,
                trans: false,
            },
            None => SmemRead::Words(self.smem_addr(&buf, &staged, &pairs, size)),
        });
        let n = staged.slots() / per;
        Some(Source::Smem {
            layout: staged,
            pairs,
            size,
            read,
            loaded: vec![None; n],
        })
    }

    /// Packed register `j` of an operand, loading it (and the rest of its `ldmatrix`
    /// group) first if it is staged.
    fn packed(&mut self, src: &mut Source, j: usize, per: usize) -> String {
        let (layout, pairs, size, read, loaded) = match src {
            Source::Regs(r) => return r[j].clone(),
            Source::Smem {
                layout,
                pairs,
                size,
                read,
                loaded,
            } => (layout, pairs, *size, read, loaded),
        };
        if let Some(r) = &loaded[j] {
            return r.clone();
        }
        match &mut **read {
            SmemRead::Ldmatrix {
                addr,
                lanes,
                group,
                trans,
            } => {
                let group = *group;
                let g0 = j - j % group;
                let e = layout.slot_elem(g0 * per);
                let regs: Vec<String> = (0..group).map(|_| self.reg(RegClass::B32)).collect();
                let at = self.smem_at(addr, e);
                let t = if *trans { ".trans" } else { "" };
                self.ins(format!(
                    "ldmatrix.sync.aligned.m8n8.x{group}{t}.shared.b16 {{{}}}, {at};",
                    regs.join(", ")
                ));
                let lanes = lanes.clone();
                self.note_matrices(&lanes, pairs, size, e, group, false);
                for (q, r) in regs.into_iter().enumerate() {
                    loaded[g0 + q] = Some(r);
                }
            }
            SmemRead::Words(addr) => {
                // The `per` elements of the register are consecutive in the staged index
                // (the fragment's lowest register bits are the index's lowest bits, which
                // the swizzle keeps together).
                let e = layout.slot_elem(j * per);
                let at = self.smem_at(addr, e);
                let r = self.reg(RegClass::B32);
                self.ins(format!("ld.shared.b32 {r}, {at};"));
                let l = layout.clone();
                self.note_access(&l, pairs, size, e, 4, false);
                self.module_data.smem_stats.fragment_ld_shared += 1;
                loaded[j] = Some(r);
            }
        }
        loaded[j].clone().unwrap_or_default()
    }

    /// Adds an `ldmatrix` (or, with `write`, an `stmatrix`) of `group` matrices to the
    /// shared-memory statistics: in every warp, matrix `q` is one phase of 8 rows of 16
    /// bytes, row `i` at the element of lane `8 q + i` in `lanes` plus `e`.
    pub(crate) fn note_matrices(
        &mut self,
        lanes: &Layout,
        pairs: &[(u8, u8)],
        size: u64,
        e: u64,
        group: usize,
        write: bool,
    ) {
        let warps = 1u32 << self.warp_bits();
        let st = &mut self.module_data.smem_stats;
        if !write {
            st.ldmatrix += 1;
        }
        for w in 0..warps {
            for q in 0..group as u32 {
                let rows: Vec<(u64, u32)> = (0..8)
                    .map(|i| {
                        let t = crate::banks::thread_elem(lanes, 32 * w + 8 * q + i);
                        (super::memdesc::swizzle_index(t | e, pairs) * size, 16)
                    })
                    .collect();
                let conflicts = crate::banks::bank_conflicts(&rows) as u64;
                if write {
                    st.write_phases += 1;
                    st.write_conflicts += conflicts;
                } else {
                    st.read_phases += 1;
                    st.read_conflicts += conflicts;
                }
            }
        }
    }

    /// The slots of `t` packed `per` to a 32-bit register (slot `j * per` lowest). One
    /// element per register keeps the registers as they are (tf32, held in .f32
    /// registers, moves to .b32 ones); 16-bit elements pack in pairs; i8 elements (held
    /// sign-extended in `.b32`) pack their low bytes by four.
    pub(crate) fn pack_operand(&mut self, t: &Tv, per: usize) -> Vec<String> {
        match per {
            1 if t.elem == Type::TF32 => t
                .regs
                .iter()
                .map(|x| {
                    let r = self.reg(RegClass::B32);
                    self.ins(format!("mov.b32 {r}, {x};"));
                    r
                })
                .collect(),
            1 => t.regs.clone(),
            2 => t
                .regs
                .chunks(2)
                .map(|p| {
                    let r = self.reg(RegClass::B32);
                    self.ins(format!("mov.b32 {r}, {{{}, {}}};", p[0], p[1]));
                    r
                })
                .collect(),
            _ => t
                .regs
                .chunks(4)
                .map(|q| {
                    // Bytes 0 of (q0, q1) and of (q2, q3) to the low halves, then the two
                    // halves together.
                    let lo = self.reg(RegClass::B32);
                    let hi = self.reg(RegClass::B32);
                    let r = self.reg(RegClass::B32);
                    let (pair, halves) = (PRMT_LOW_BYTES, PRMT_LOW_HALVES);
                    self.ins(format!("prmt.b32 {lo}, {}, {}, {pair:#06x};", q[0], q[1]));
                    self.ins(format!("prmt.b32 {hi}, {}, {}, {pair:#06x};", q[2], q[3]));
                    self.ins(format!("prmt.b32 {r}, {lo}, {hi}, {halves:#06x};"));
                    r
                })
                .collect(),
        }
    }
}

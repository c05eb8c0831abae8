//! Ops that move elements between positions: layout conversion, broadcast, permute, cat,
//! extract, iota, reduce, scan and mma.

use super::memdesc::SwizzleBits;
use super::{Kernel, Tv, class_of, elem_bytes};
use crate::layout::{Chunks, Layout, broadcast_bits, coords, dim_bits, shape_bits};
use crate::sink::{RegClass, Sink};
use std::rc::Rc;
use tilec_gpuir::smem as plan;
use tilec_ir::attrs::AttrData;
use tilec_ir::{Op, Opcode, Type, Value};

pub(crate) use tilec_gpuir::sizes::STAGE_BYTES;

/// How many consecutive slots of layout `l` one vector access to a buffer under `pairs`
/// moves: slots holding consecutive elements (the layout's lowest register bits are the
/// index's lowest bits, so a run starts at a multiple of its length) that the swizzle, if
/// any, keeps together, up to 16 bytes, for 16- and 32-bit floats and for bytes in whole
/// 32-bit words ([`byte_elem`]: 4, 8 or 16, packed and unpacked in registers).
fn swizzled_run(l: &Layout, elem: Type, pairs: &SwizzleBits) -> usize {
    if byte_elem(elem) {
        let w = float_run(l, 1, pairs);
        return if w >= 4 { w } else { 1 };
    }
    if !matches!(elem, Type::F16 | Type::BF16 | Type::F32 | Type::TF32) {
        return 1;
    }
    float_run(l, elem_bytes(elem) as u64, pairs)
}

/// 8-bit types whose registers hold one element each in their low byte (i8 sign-extended
/// in `.b32`, the float8 formats in `.b16`): what shared-memory accesses move as bytes
/// packed into 32-bit words.
fn byte_elem(elem: Type) -> bool {
    matches!(
        elem,
        Type::I8 | Type::F8E4M3FN | Type::F8E5M2 | Type::F8E8M0FNU
    )
}

/// [`swizzled_run`] for elements of `size` bytes.
fn float_run(l: &Layout, size: u64, pairs: &SwizzleBits) -> usize {
    let lowest = pairs.iter().map(|(d, _)| *d).min().unwrap_or(u8::MAX);
    let mut w = 1usize;
    while w < 16
        && (2 * w) as u64 * size <= 16
        && l.reg.get(w.trailing_zeros() as usize) == Some(&(w.trailing_zeros() as u8))
        && (2 * w).trailing_zeros() as u8 <= lowest
        && l.slots().is_multiple_of(2 * w)
    {
        w *= 2;
    }
    w
}

impl Kernel<'_> {
    /// Converts `t` (a tile of `shape`) to layout `to`: a renaming of slots when both
    /// layouts give every thread the same elements, otherwise a round trip through shared
    /// memory.
    pub(crate) fn convert(&mut self, t: &Tv, shape: &[i64], to: &Rc<Layout>) -> Tv {
        self.convert_at(t, shape, to, 0)
    }

    /// [`Kernel::convert`] with its shared-memory buffer `base` bytes into the shared pool,
    /// so that the caller can keep data staged below it.
    pub(crate) fn convert_at(&mut self, t: &Tv, shape: &[i64], to: &Rc<Layout>, base: u64) -> Tv {
        if t.layout.converts_freely(to) {
            let regs = (0..to.slots())
                .map(|s| {
                    let e = to.slot_elem(s);
                    let from = t.layout.elem_slot(e & !t.layout.thread_mask()).unwrap_or(0);
                    t.regs[from].clone()
                })
                .collect();
            return Tv {
                layout: to.clone(),
                regs,
                elem: t.elem,
            };
        }
        let n = 1u64 << shape_bits(shape);
        let size = elem_bytes(t.elem) as u64;
        if n * size > STAGE_BYTES
            && let Some(t) = self.convert_in_chunks(t, shape_bits(shape), to, base)
        {
            return t;
        }
        let buf = if base == 0 {
            self.stage(t, n)
        } else {
            self.bar();
            let buf = self.smem_from(base, n * size);
            self.write_smem(t, &buf, 0);
            self.bar();
            buf
        };
        let out = self.read_smem(&buf, to, t.elem);
        self.bar();
        out
    }

    /// Every thread reads the elements it holds in layout `to` from a buffer holding the
    /// tile at its linear indices.
    fn read_smem(&mut self, buf: &str, to: &Rc<Layout>, elem: Type) -> Tv {
        self.read_smem_swizzled(buf, to, elem, &[], "shared")
    }

    /// [`Self::read_smem`] from a buffer stored under the swizzle `pairs`.
    /// `space` is `shared`, or `shared::cluster` for a buffer of another CTA of the
    /// cluster (`buf` then a `mapa` address).
    fn read_smem_swizzled(
        &mut self,
        buf: &str,
        to: &Rc<Layout>,
        elem: Type,
        pairs: &SwizzleBits,
        space: &str,
    ) -> Tv {
        let size = elem_bytes(elem) as u64;
        let mut addr = self.smem_addr(buf, to, pairs, size);
        let mut regs = Vec::with_capacity(to.slots());
        // Runs of `w` consecutive elements (that the swizzle, if any, keeps together)
        // come as one vector load, as [`Self::write_smem_swizzled`] stores them.
        let w = swizzled_run(to, elem, pairs);
        for s in (0..to.slots()).step_by(w) {
            let at = self.smem_at(&mut addr, to.slot_elem(s));
            if w == 1 {
                let r = self.load_elem(&format!("ld.{space}"), elem, &at);
                regs.push(r);
                continue;
            }
            let class = super::class_of(elem);
            let run: Vec<String> = (0..w).map(|_| self.reg(class)).collect();
            if byte_elem(elem) {
                // Bytes in 32-bit words, each taken out into its own register.
                let words: Vec<String> = (0..w / 4).map(|_| self.reg(RegClass::B32)).collect();
                let v = if words.len() == 1 {
                    String::new()
                } else {
                    format!(".v{}", words.len())
                };
                self.ins(format!("ld.{space}{v}.b32 {{{}}}, {at};", words.join(", ")));
                for (k, r) in run.iter().enumerate() {
                    let word = &words[k / 4];
                    let bit = 8 * (k % 4);
                    if elem == Type::I8 {
                        self.ins(format!("bfe.s32 {r}, {word}, {bit}, 8;"));
                    } else {
                        let t = self.reg(RegClass::B32);
                        self.ins(format!("bfe.u32 {t}, {word}, {bit}, 8;"));
                        self.ins(format!("cvt.u16.u32 {r}, {t};"));
                    }
                }
            } else if w > 4 {
                // Eight 16-bit elements: four `.b32` words.
                let words: Vec<String> = (0..w / 2).map(|_| self.reg(RegClass::B32)).collect();
                self.ins(format!("ld.{space}.v4.b32 {{{}}}, {at};", words.join(", ")));
                for (word, pair) in words.iter().zip(run.chunks(2)) {
                    self.ins(format!("mov.b32 {{{}, {}}}, {word};", pair[0], pair[1]));
                }
            } else {
                self.ins(format!(
                    "ld.{space}.v{w}{} {{{}}}, {at};",
                    super::mem_type(elem),
                    run.join(", ")
                ));
            }
            regs.extend(run);
        }
        Tv {
            layout: to.clone(),
            regs,
            elem,
        }
    }

    /// `ttg.local_alloc %x`: the buffer at the offset gpu-allocate-shared recorded
    /// (`allocation.offset`, above the live buffers); every thread writes the elements of
    /// `%x` it owns at their linear indices.
    pub(crate) fn emit_local_alloc(&mut self, op: Op) {
        let m = self.m;
        let res = m.result(op, 0);
        let Some(at) = tilec_gpuir::smem::offset(m, op) else {
            return self.error_at_op(
                op,
                "shared-memory buffer without 'allocation.offset' (run gpu-allocate-shared)",
            );
        };
        let (at, size) = (
            at as u32,
            tilec_gpuir::smem::local_alloc_bytes(m, op) as u32,
        );
        // Op-internal scratch then starts above this buffer; a barrier first if its bytes
        // may have been used since the last one.
        if self.smem_dirty > at {
            self.bar();
        }
        self.smem_top = at;
        let align = tilec_gpuir::smem::local_alloc_align(m, op);
        self.smem_align = self.smem_align.max(align);
        let buf = self.smem(size);
        self.buf_extent.insert(res, (at, size));
        self.smem_top = at + size;
        self.bufs.insert(res, buf.clone());
        if m.num_operands(op) == 1 {
            let t = self.tile(m.operand(op, 0));
            let pairs = self.buf_swizzle(res);
            if !self.write_stmatrix(&t, &buf, &pairs) {
                self.write_smem_swizzled(&t, &buf, 0, &pairs);
            }
        }
    }

    /// sm_90: a 16-bit tile whose layout is a tensor-core fragment layout (a 32-bit
    /// register holds two consecutive elements of a 16-byte row, lanes 0-1 the row's
    /// words, lanes 2-4 its 8 rows, the next register bits the matrix: what
    /// [`super::mma::ldmatrix_lanes`] requires, as the accumulator of an `mma.sync` has)
    /// is written with `stmatrix.sync.aligned.m8n8.x{4,2,1}`, the mirror of `ldmatrix`, 8x8
    /// matrices at a time, instead of one `st.shared.b16` per element. False (nothing
    /// written) when the tile does not qualify.
    fn write_stmatrix(&mut self, t: &Tv, buf: &str, pairs: &[(u8, u8)]) -> bool {
        // Only into a swizzled buffer: gpu-assign-layouts swizzles the buffers it means
        // `stmatrix` to write (an unswizzled one with long rows would take the 8 rows of a
        // matrix in one bank group).
        if pairs.is_empty() {
            return false;
        }
        let Some((group, lanes)) =
            tilec_gpuir::mma::stmatrix_writes(self.opts.arch, t.elem, &t.layout, pairs)
        else {
            return false;
        };
        let packed = self.pack_operand(t, 2);
        let mut addr = self.smem_addr(buf, &lanes, pairs, 2);
        for g0 in (0..packed.len()).step_by(group) {
            let e = t.layout.slot_elem(2 * g0);
            let at = self.smem_at(&mut addr, e);
            self.ins(format!(
                "stmatrix.sync.aligned.m8n8.x{group}.shared.b16 {at}, {{{}}};",
                packed[g0..g0 + group].join(", ")
            ));
            self.note_matrices(&lanes, pairs, 2, e, group, true);
        }
        self.module_data.smem_stats.stmatrix += 1;
        true
    }

    /// `ttg.local_dealloc`: a barrier (the bytes may be reused right after), and the
    /// buffer's bytes return to the pool when it is the topmost live one.
    pub(crate) fn emit_local_dealloc(&mut self, op: Op) {
        self.bar();
        if let Some((at, size)) = self.buf_extent.remove(&self.m.operand(op, 0))
            && at + size == self.smem_top
        {
            self.smem_top = at;
        }
    }

    /// `ttg.local_load`: every thread reads the elements of the result's layout.
    pub(crate) fn emit_local_load(&mut self, op: Op) {
        let m = self.m;
        let (src, res) = (m.operand(op, 0), m.result(op, 0));
        let Some(buf) = self.bufs.get(&src).cloned() else {
            return self.error_at_op(op, "shared-memory buffer read before its allocation");
        };
        let to = self.layout_of(res);
        let pairs = self.buf_swizzle(src);
        let mut t = self.read_smem_swizzled(
            &buf,
            &self.through_view(src, &to),
            self.elem(res),
            &pairs,
            "shared",
        );
        t.layout = to;
        self.set_tile(res, t);
    }

    /// `ttng.cluster_gather %buf`: after a cluster barrier (every CTA has stored its part),
    /// each thread reads its elements of every CTA's buffer, rank by rank, through `mapa`
    /// and `ld.shared::cluster`; a second barrier keeps the buffers until all have read.
    /// The result's layout is the part's with the rank in its top register bits.
    pub(crate) fn emit_cluster_gather(&mut self, op: Op) {
        let m = self.m;
        let (src, res) = (m.operand(op, 0), m.result(op, 0));
        let Some(buf) = self.bufs.get(&src).cloned() else {
            return self.error_at_op(op, "shared-memory buffer read before its allocation");
        };
        if self.opts.arch.sm() < 90 {
            return self.error_at_op(op, "thread-block clusters need sm_90 or newer");
        }
        let to = self.layout_of(res);
        let n = m
            .ctx
            .types
            .shape(m.value_type(res))
            .first()
            .copied()
            .unwrap_or(1);
        let extra = n.max(1).trailing_zeros() as usize;
        let keep = to.reg.len().saturating_sub(extra);
        let part_bits = to.nbits - extra as u32;
        if to.reg[keep..]
            .iter()
            .enumerate()
            .any(|(i, b)| u32::from(*b) != part_bits + i as u32)
        {
            return self.error_at_op(
                op,
                "the gathered tile's rank is not in its top register bits",
            );
        }
        let part = Rc::new(tilec_gpuir::layout::Layout {
            nbits: part_bits,
            reg: to.reg[..keep].to_vec(),
            lane: to.lane,
            warp: to.warp.clone(),
        });
        let part = self.through_view(src, &part);
        let pairs = self.buf_swizzle(src);
        let elem = self.elem(res);
        self.cluster_barrier();
        let local = self.reg(RegClass::B32);
        self.ins(format!("mov.u32 {local}, {buf};"));
        let mut regs = Vec::with_capacity(to.slots());
        for r in 0..n {
            let remote = self.reg(RegClass::B32);
            self.ins(format!("mapa.shared::cluster.u32 {remote}, {local}, {r};"));
            let t = self.read_smem_swizzled(&remote, &part, elem, &pairs, "shared::cluster");
            regs.extend(t.regs);
        }
        self.cluster_barrier();
        self.set_tile(
            res,
            Tv {
                layout: to,
                regs,
                elem,
            },
        );
    }

    /// Every thread of every CTA of the cluster arrives, then waits for all (ordering
    /// their memory accesses before it, at cluster scope, before those after it).
    pub(crate) fn cluster_barrier(&mut self) {
        self.ins("barrier.cluster.arrive.release.aligned;");
        self.ins("barrier.cluster.wait.acquire.aligned;");
    }

    /// A conversion of a tile larger than [`STAGE_BYTES`] in chunks of at most that size:
    /// register bits of the source layout pick the chunk ([`plan::convert_chunk_bits`]), and each chunk
    /// makes its own round trip through a buffer indexed by the remaining bits. A chunk bit
    /// that is a lane or warp bit of `to` makes the reading side predicated: a thread reads
    /// a slot in the chunk whose bits match its own thread id. `None` when the source has
    /// too few register bits.
    fn convert_in_chunks(&mut self, t: &Tv, nbits: u32, to: &Rc<Layout>, base: u64) -> Option<Tv> {
        let size = elem_bytes(t.elem) as u64;
        let chunks = Chunks::new(plan::convert_chunk_bits(&t.layout, to, nbits, size)?, nbits);
        let map = chunks.inner_map();
        let thread_bits = chunks.thread_bits(to);
        let thread_mask: u64 = thread_bits.iter().fold(0, |m, (i, _)| m | 1 << i);
        let inner_bits = chunks.inner_bits();
        self.bar();
        let buf = self.smem_from(base, (1u64 << inner_bits) * size);
        let owner = self.owner(&t.layout);
        let addr = |k: &mut Self, l: &Layout| {
            let tb = k.thread_base(&l.remap(inner_bits, &map, &[]));
            let a = k.reg(RegClass::B32);
            k.ins(format!("mad.lo.s32 {a}, {tb}, {size}, {buf};"));
            a
        };
        let src = addr(self, &t.layout);
        let dst = addr(self, to);
        // The chunk bits this thread holds in `to`, as a chunk number.
        let mine = (!thread_bits.is_empty()).then(|| {
            let tid = self.tid.clone();
            let moves: Vec<(u32, u32)> = thread_bits.iter().map(|(i, t)| (*t, *i as u32)).collect();
            self.move_bits(&tid, &moves)
        });
        let mut regs: Vec<Option<String>> = vec![None; to.slots()];
        for c in 0..chunks.count() {
            if c > 0 {
                self.bar();
            }
            for s in 0..t.layout.slots() {
                let e = t.layout.slot_elem(s);
                if chunks.which(e) == c {
                    let off = chunks.squeeze(e) * size;
                    self.store_elem(
                        "st.shared",
                        t.elem,
                        &format!("[{src}+{off}]"),
                        &t.regs[s],
                        owner.as_deref(),
                    );
                }
            }
            self.bar();
            // Readers: slots whose register-held chunk bits are c's, in the threads whose
            // thread-held chunk bits are c's.
            let pred = mine.as_ref().map(|m| {
                let p = self.reg(RegClass::Pred);
                self.ins(format!("setp.eq.u32 {p}, {m}, {};", c & thread_mask));
                p
            });
            for (s, r) in regs.iter_mut().enumerate() {
                let e = to.slot_elem(s);
                if chunks.which(e) & !thread_mask == c & !thread_mask {
                    let off = chunks.squeeze(e) * size;
                    let dst_reg = match r {
                        Some(r) => r.clone(),
                        None => {
                            let n = self.reg(super::class_of(t.elem));
                            *r = Some(n.clone());
                            n
                        }
                    };
                    let at = format!("[{dst}+{off}]");
                    self.load_into("ld.shared", t.elem, &at, &dst_reg, pred.as_deref());
                }
            }
        }
        self.bar();
        Some(Tv {
            layout: to.clone(),
            regs: regs.into_iter().map(Option::unwrap_or_default).collect(),
            elem: t.elem,
        })
    }

    /// A register with the address `base` bytes into the shared pool, reserving `bytes`
    /// from there.
    fn smem_from(&mut self, base: u64, bytes: u64) -> String {
        let buf = self.smem((base + bytes) as u32);
        if base > 0 {
            self.ins(format!("add.s32 {buf}, {buf}, {base};"));
        }
        buf
    }

    /// Writes every element of `t` to shared memory at its linear index (after a barrier
    /// protecting the buffer's previous use) and waits for all threads. Returns the buffer.
    pub(crate) fn stage(&mut self, t: &Tv, n: u64) -> String {
        let size = elem_bytes(t.elem) as u64;
        self.bar();
        let buf = self.smem((n * size) as u32);
        self.write_smem(t, &buf, 0);
        self.bar();
        buf
    }

    /// What [`Kernel::write_smem_chunk`] needs for every chunk of `t` (layout `l`) going
    /// to `buf`: the thread's address inside a chunk, the chunk bits its thread id holds
    /// (as a chunk number) and the owner predicate of a replicated layout.
    pub(crate) fn chunk_writer(&mut self, t: &Tv, buf: &str, chunks: &Chunks) -> ChunkWriter {
        let size = elem_bytes(t.elem) as u64;
        let thread_bits = chunks.thread_bits(&t.layout);
        let thread_mask: u64 = thread_bits.iter().fold(0, |m, (i, _)| m | 1 << i);
        let owner = self.owner(&t.layout);
        let mine = (!thread_bits.is_empty()).then(|| {
            let tid = self.tid.clone();
            let moves: Vec<(u32, u32)> = thread_bits.iter().map(|(i, t)| (*t, *i as u32)).collect();
            self.move_bits(&tid, &moves)
        });
        let tb = self.thread_base(&t.layout);
        let tb_in = self.squeeze_bits(&tb, chunks);
        let addr = self.reg(RegClass::B32);
        self.ins(format!("mad.lo.s32 {addr}, {tb_in}, {size}, {buf};"));
        ChunkWriter {
            addr,
            mine,
            owner,
            thread_mask,
        }
    }

    /// Writes the elements of `t` in chunk `c` of `chunks` to shared memory, each at its
    /// index inside the chunk. Slots decide by their register bits at compile time; chunk
    /// bits held by lanes or warps make the stores predicated on the thread id.
    pub(crate) fn write_smem_chunk(&mut self, t: &Tv, w: &ChunkWriter, chunks: &Chunks, c: u64) {
        let size = elem_bytes(t.elem) as u64;
        let mut pred = w.owner.clone();
        if let Some(mine) = &w.mine {
            let p = self.reg(RegClass::Pred);
            self.ins(format!("setp.eq.u32 {p}, {mine}, {};", c & w.thread_mask));
            if let Some(o) = pred {
                self.ins(format!("and.pred {p}, {p}, {o};"));
            }
            pred = Some(p);
        }
        for s in 0..t.layout.slots() {
            let e = t.layout.slot_elem(s);
            if chunks.which(e) & !w.thread_mask == c & !w.thread_mask {
                let at = format!("[{}+{}]", w.addr, chunks.squeeze(e) * size);
                self.store_elem("st.shared", t.elem, &at, &t.regs[s], pred.as_deref());
            }
        }
    }

    pub(crate) fn write_smem(&mut self, t: &Tv, buf: &str, base: u64) {
        self.write_smem_swizzled(t, buf, base, &[]);
    }

    /// [`Self::write_smem`] into a buffer stored under the swizzle `pairs` (`base`, a byte
    /// offset, must be 0 when there is one).
    pub(crate) fn write_smem_swizzled(
        &mut self,
        t: &Tv,
        buf: &str,
        base: u64,
        pairs: &SwizzleBits,
    ) {
        let size = elem_bytes(t.elem) as u64;
        let owner = self.owner(&t.layout);
        let mut addr = self.smem_addr(buf, &t.layout, pairs, size);
        addr.offset = base;
        // Runs of `w` slots holding consecutive elements that the swizzle (if any) keeps
        // together go as one vector store.
        let w = swizzled_run(&t.layout, t.elem, pairs);
        for s in (0..t.layout.slots()).step_by(w) {
            let e = t.layout.slot_elem(s);
            if !pairs.is_empty() {
                self.note_access(&t.layout, pairs, size, e, (w as u64 * size) as u32, true);
            }
            let at = self.smem_at(&mut addr, e);
            if w == 1 {
                self.store_elem("st.shared", t.elem, &at, &t.regs[s], owner.as_deref());
            } else if byte_elem(t.elem) {
                // Four bytes to a 32-bit word: their low bytes, in order.
                let words: Vec<String> = t.regs[s..s + w]
                    .chunks(4)
                    .map(|q| {
                        let word = self.reg(RegClass::B32);
                        if t.elem == Type::I8 {
                            let (lo, hi) = (self.reg(RegClass::B32), self.reg(RegClass::B32));
                            self.ins(format!("prmt.b32 {lo}, {}, {}, 0x0040;", q[0], q[1]));
                            self.ins(format!("prmt.b32 {hi}, {}, {}, 0x0040;", q[2], q[3]));
                            self.ins(format!("prmt.b32 {word}, {lo}, {hi}, 0x5410;"));
                        } else {
                            let (lo, hi) = (self.reg(RegClass::B32), self.reg(RegClass::B32));
                            self.ins(format!("mov.b32 {lo}, {{{}, {}}};", q[0], q[1]));
                            self.ins(format!("mov.b32 {hi}, {{{}, {}}};", q[2], q[3]));
                            self.ins(format!("prmt.b32 {word}, {lo}, {hi}, 0x6420;"));
                        }
                        word
                    })
                    .collect();
                let v = if words.len() == 1 {
                    String::new()
                } else {
                    format!(".v{}", words.len())
                };
                let guard = owner.as_ref().map(|p| format!("@{p} ")).unwrap_or_default();
                self.ins(format!(
                    "{guard}st.shared{v}.b32 {at}, {{{}}};",
                    words.join(", ")
                ));
            } else if w > 4 {
                // Eight 16-bit elements: four `.b32` words (`.v8` does not exist).
                let words: Vec<String> = t.regs[s..s + w]
                    .chunks(2)
                    .map(|p| {
                        let r = self.reg(RegClass::B32);
                        self.ins(format!("mov.b32 {r}, {{{}, {}}};", p[0], p[1]));
                        r
                    })
                    .collect();
                let guard = owner.as_ref().map(|p| format!("@{p} ")).unwrap_or_default();
                self.ins(format!(
                    "{guard}st.shared.v4.b32 {at}, {{{}}};",
                    words.join(", ")
                ));
            } else {
                let regs = t.regs[s..s + w].join(", ");
                self.store_elem(
                    &format!("st.shared.v{w}"),
                    t.elem,
                    &at,
                    &format!("{{{regs}}}"),
                    owner.as_deref(),
                );
            }
        }
    }

    pub(crate) fn emit_broadcast(&mut self, op: Op) {
        let m = self.m;
        let src_v = m.operand(op, 0);
        let res = m.result(op, 0);
        let src = self.tile(src_v);
        let (ss, rs) = (self.shape(src_v), self.shape(res));
        let (map, _) = broadcast_bits(&ss, &rs);
        let layout = self.layout_of(res);
        let regs = (0..layout.slots())
            .map(|s| {
                let e = layout.slot_elem(s);
                let mut se = 0u64;
                for (sb, rb) in map.iter().enumerate() {
                    if let Some(rb) = rb
                        && e >> rb & 1 == 1
                    {
                        se |= 1 << sb;
                    }
                }
                let slot = src
                    .layout
                    .elem_slot(se & !src.layout.thread_mask())
                    .unwrap_or(0);
                src.regs[slot].clone()
            })
            .collect();
        self.set_tile(
            res,
            Tv {
                layout,
                regs,
                elem: src.elem,
            },
        );
    }

    pub(crate) fn emit_permute(&mut self, op: Op) {
        let m = self.m;
        let src = self.tile(m.operand(op, 0));
        // The layout is the source's with its bits moved (crate::layout::permute_layout):
        // slot i of the result is slot i of the source.
        let layout = self.layout_of(m.result(op, 0));
        self.set_tile(
            m.result(op, 0),
            Tv {
                layout,
                regs: src.regs,
                elem: src.elem,
            },
        );
    }

    pub(crate) fn emit_cat(&mut self, op: Op) {
        let m = self.m;
        let a = self.tile(m.operand(op, 0));
        let b = self.tile_in(m.operand(op, 1), &a.layout);
        // The layout adds a top register bit choosing the operand (crate::layout::cat_layout).
        let layout = self.layout_of(m.result(op, 0));
        let mut regs = a.regs.clone();
        regs.extend(b.regs.iter().cloned());
        self.set_tile(
            m.result(op, 0),
            Tv {
                layout,
                regs,
                elem: a.elem,
            },
        );
    }

    pub(crate) fn emit_extract(&mut self, op: Op) {
        let m = self.m;
        let src_v = m.operand(op, 0);
        let res = m.result(op, 0);
        let ss = self.shape(src_v);
        let rs = self.shape(res);
        let src = self.tile(src_v);
        let idx: Vec<Value> = m.operands(op).skip(1).collect();
        let nbits = shape_bits(&ss);
        let size = elem_bytes(src.elem) as u64;
        // A source over one stage goes through shared memory in chunks picked by its
        // register bits; which chunk holds a result element depends on the index, so each
        // result slot reads in the chunk its element is in (a predicated load per chunk).
        let chunks = plan::extract_chunks(&src.layout, nbits, size);
        let layout = self.layout_of(res);
        // Source linear index of result element c: sum_d (idx_d * rs_d + c_d) << low_src_d.
        let tb = self.thread_base(&layout);
        let base = self.reg(RegClass::B32);
        self.ins(format!("mov.u32 {base}, 0;"));
        for d in 0..rs.len() {
            let (lr, wr) = dim_bits(&rs, d);
            let (ls, _) = dim_bits(&ss, d);
            let c = self.reg(RegClass::B32);
            self.ins(format!("bfe.u32 {c}, {tb}, {lr}, {wr};"));
            if let Some(i) = idx.get(d) {
                let iv = self.scalar(*i);
                let iv = self.int_resize(self.elem(*i), Type::I32, true, &iv);
                self.ins(format!("mad.lo.s32 {c}, {iv}, {}, {c};", rs[d]));
            }
            self.ins(format!("shl.b32 {c}, {c}, {ls};"));
            self.ins(format!("add.s32 {base}, {base}, {c};"));
        }
        // Each result slot's offset from `base` in the source index (the dims' fields
        // never carry into each other).
        let offs: Vec<u64> = (0..layout.slots())
            .map(|s| {
                let c = coords(&rs, layout.slot_elem(s));
                c.iter()
                    .enumerate()
                    .map(|(d, x)| x << dim_bits(&ss, d).0)
                    .sum()
            })
            .collect();
        let regs: Vec<String> = if chunks.bits.is_empty() {
            let buf = self.stage(&src, 1 << nbits);
            self.ins(format!("mad.lo.s32 {base}, {base}, {size}, {buf};"));
            offs.iter()
                .map(|off| {
                    let at = format!("[{base}+{}]", off * size);
                    self.load_elem("ld.shared", src.elem, &at)
                })
                .collect()
        } else {
            let elems: Vec<String> = offs
                .iter()
                .map(|off| {
                    let e = self.reg(RegClass::B32);
                    self.ins(format!("add.s32 {e}, {base}, {off};"));
                    e
                })
                .collect();
            self.bar();
            let buf = self.smem(((1u64 << chunks.inner_bits()) * size) as u32);
            // Per result slot: its chunk number and its address inside a chunk.
            let mut places = Vec::with_capacity(elems.len());
            for e in &elems {
                let moves: Vec<(u32, u32)> = chunks
                    .bits
                    .iter()
                    .enumerate()
                    .map(|(k, b)| (*b as u32, k as u32))
                    .collect();
                let ch = self.move_bits(e, &moves);
                let sq = self.squeeze_bits(e, &chunks);
                let a = self.reg(RegClass::B32);
                self.ins(format!("mad.lo.s32 {a}, {sq}, {size}, {buf};"));
                places.push((ch, a));
            }
            let writer = self.chunk_writer(&src, &buf, &chunks);
            let regs: Vec<String> = (0..elems.len())
                .map(|_| self.reg(super::class_of(src.elem)))
                .collect();
            for c in 0..chunks.count() {
                if c > 0 {
                    self.bar();
                }
                self.write_smem_chunk(&src, &writer, &chunks, c);
                self.bar();
                for ((ch, a), r) in places.iter().zip(&regs) {
                    let p = self.reg(RegClass::Pred);
                    self.ins(format!("setp.eq.u32 {p}, {ch}, {c};"));
                    self.load_into("ld.shared", src.elem, &format!("[{a}]"), r, Some(&p));
                }
            }
            regs
        };
        self.bar();
        self.set_tile(
            res,
            Tv {
                layout,
                regs,
                elem: src.elem,
            },
        );
    }

    pub(crate) fn emit_iota(&mut self, op: Op) {
        let res = self.m.result(op, 0);
        let elem = self.elem(res);
        let layout = self.layout_of(res);
        let tb = self.thread_base(&layout);
        let mut regs = Vec::new();
        for s in 0..layout.slots() {
            let e = layout.slot_elem(s);
            let r = self.reg(RegClass::B32);
            self.ins(format!("add.s32 {r}, {tb}, {e};"));
            let out = self.int_resize(Type::I32, elem, false, &r);
            regs.push(out);
        }
        self.set_tile(res, Tv { layout, regs, elem });
    }

    /// Runs a reduce/scan body on scalar registers: binds the block arguments (lhs values,
    /// then rhs values, per operand pairs as the op defines) and returns the yielded ones.
    fn apply_body(
        &mut self,
        op: Op,
        lhs: &[String],
        rhs: &[String],
        elems: &[Type],
    ) -> Vec<String> {
        let m = self.m;
        let block = m.entry_block(m.region(op, 0)).expect("body");
        let args = m.block_args(block).to_vec();
        // Arguments are (lhs_0, rhs_0, lhs_1, rhs_1, ...).
        for (i, a) in args.iter().enumerate() {
            let k = i / 2;
            let r = if i % 2 == 0 { &lhs[k] } else { &rhs[k] };
            self.set_scalar(*a, elems[k], r.clone());
        }
        let ops: Vec<Op> = m.block_ops(block).collect();
        let mut out = Vec::new();
        for o in ops {
            if m.opcode(o) == Opcode::Yield {
                out = m.operands(o).map(|v| self.scalar(v)).collect();
            } else {
                self.emit_op(o);
            }
        }
        out
    }

    /// The identities of a `reduce`/`scan` as register words, one per operand.
    fn identity_words(&self, op: Op, elems: &[Type]) -> Vec<u64> {
        let m = self.m;
        let items = match m.attr_named(op, "identities").map(|a| m.ctx.attrs.get(a)) {
            Some(AttrData::Array(items)) => items.to_vec(),
            _ => Vec::new(),
        };
        elems
            .iter()
            .enumerate()
            .map(|(k, e)| {
                let bits = match items.get(k).map(|a| m.ctx.attrs.get(*a)) {
                    Some(AttrData::Float { bits, .. }) => *bits,
                    Some(AttrData::Int { value, .. }) => *value as u64,
                    Some(AttrData::Dense(d)) => d.values.first().copied().unwrap_or(0),
                    _ => 0,
                };
                super::machine_bits(*e, bits)
            })
            .collect()
    }

    /// Whether combining any value with the identities gives that value back exactly, so
    /// that folding them in changes nothing: a body of one op on its two arguments whose
    /// identity is exact for every input (`-0.0` for addf, `1.0` for mulf, `0` for
    /// addi/ori/xori, all ones for andi, the extreme of maxi/mini). maxf/minf are not:
    /// `maxf(NaN, -inf)` is `-inf`.
    fn identities_exact(&self, op: Op, elems: &[Type]) -> bool {
        let m = self.m;
        if elems.len() != 1 {
            return false;
        }
        let Some(block) = m.entry_block(m.region(op, 0)) else {
            return false;
        };
        let args = m.block_args(block).to_vec();
        let ops: Vec<Op> = m.block_ops(block).collect();
        let [body, yield_op] = ops[..] else {
            return false;
        };
        let operands: Vec<Value> = m.operands(body).collect();
        let on_args = operands.len() == 2
            && args.len() == 2
            && (operands == args || operands == [args[1], args[0]]);
        let yields: Vec<Value> = m.operands(yield_op).collect();
        if !on_args || m.opcode(yield_op) != Opcode::Yield || yields != [m.result(body, 0)] {
            return false;
        }
        let e = elems[0];
        let id = self.identity_words(op, elems)[0];
        let w = if e == Type::I1 { 1 } else { 8 * elem_bytes(e) };
        let ones = if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
        let (sign, one) = match e {
            Type::F16 => (0x8000, 0x3C00),
            Type::BF16 => (0x8000, 0x3F80),
            Type::F32 | Type::TF32 => (0x8000_0000, 0x3F80_0000),
            Type::F64 => (1 << 63, 0x3FF0_0000_0000_0000),
            _ => (u64::MAX, u64::MAX),
        };
        let id = id & ones;
        let smin = 1u64 << (w - 1);
        match m.opcode(body) {
            Opcode::AddF => id == sign,
            Opcode::MulF => id == one,
            Opcode::AddI | Opcode::OrI | Opcode::XOrI => id == 0,
            Opcode::MulI => id == 1,
            Opcode::AndI => id == ones,
            Opcode::MaxI if self.signed(body, "signedness") => id == smin,
            Opcode::MaxI => id == 0,
            Opcode::MinI if self.signed(body, "signedness") => id == smin - 1,
            Opcode::MinI => id == ones,
            _ => false,
        }
    }

    /// `body(x, identity)`: the first step of the interpreter's fold (current element,
    /// then the accumulator, which starts as the identity), so a result the identities do
    /// not leave unchanged (`maxf` over NaNs, `addf` from `+0.0` over `-0.0`) is the same
    /// on the GPU. Nothing is emitted when [`Self::identities_exact`] holds.
    fn fold_identities(&mut self, op: Op, x: &[String], elems: &[Type]) -> Vec<String> {
        if self.identities_exact(op, elems) {
            return x.to_vec();
        }
        let words = self.identity_words(op, elems);
        let ids: Vec<String> = elems
            .iter()
            .zip(words)
            .map(|(e, w)| self.imm(*e, w))
            .collect();
        self.apply_body(op, x, &ids, elems)
    }

    pub(crate) fn emit_reduce(&mut self, op: Op) {
        let m = self.m;
        let inputs: Vec<Value> = m.operands(op).collect();
        let shape = self.shape(inputs[0]);
        let dim = self.int_attr(op, "dim") as usize;
        let first = self.tile(inputs[0]);
        let layout = first.layout.clone();
        let tvs: Vec<Tv> = inputs.iter().map(|v| self.tile_in(*v, &layout)).collect();
        let elems: Vec<Type> = tvs.iter().map(|t| t.elem).collect();
        let (low, w) = dim_bits(&shape, dim);
        let dim_mask: u64 = ((1u64 << w) - 1) << low;
        // 1. Inside the thread: group slots by their element with the dim bits cleared.
        let mut groups: Vec<(u64, Vec<usize>)> = Vec::new();
        for s in 0..layout.slots() {
            let key = layout.slot_elem(s) & !dim_mask;
            match groups.iter_mut().find(|g| g.0 == key) {
                Some(g) => g.1.push(s),
                None => groups.push((key, vec![s])),
            }
        }
        let mut acc: Vec<Vec<String>> = Vec::new();
        for (_, slots) in &groups {
            let mut cur: Vec<String> = tvs.iter().map(|t| t.regs[slots[0]].clone()).collect();
            for s in &slots[1..] {
                let rhs: Vec<String> = tvs.iter().map(|t| t.regs[*s].clone()).collect();
                cur = self.apply_body(op, &cur, &rhs, &elems);
            }
            acc.push(cur);
        }
        // 2. Across lanes holding dim bits: butterfly shuffles.
        for (i, b) in layout.lane.iter().enumerate() {
            if let Some(b) = b
                && dim_mask >> b & 1 == 1
            {
                for g in acc.iter_mut() {
                    let other: Vec<String> = g
                        .iter()
                        .zip(&elems)
                        .map(|(r, e)| self.shfl_xor(r, *e, 1 << i))
                        .collect();
                    *g = self.apply_body(op, g, &other, &elems);
                }
            }
        }
        // 3. Across warps holding dim bits: through shared memory, in warp order.
        let warp_bits: Vec<usize> = layout
            .warp
            .iter()
            .enumerate()
            .filter(|(_, b)| b.is_some_and(|b| dim_mask >> b & 1 == 1))
            .map(|(i, _)| i)
            .collect();
        if !warp_bits.is_empty() {
            // Each thread writes its partial of every output element it holds to
            // [combo][output element][operand], where combo numbers the reduced warp bits
            // of its warp; then every thread combines the combos in ascending order.
            let nops = elems.len() as u64;
            let n_out = 1u64 << (shape_bits(&shape) - w);
            let combos = plan::reduce_combos(&layout, &shape, dim);
            debug_assert_eq!(combos, 1 << warp_bits.len());
            self.bar();
            let buf = self.smem(plan::reduce_bytes(&layout, &shape, dim, nops) as u32);
            let tb = self.thread_base(&layout);
            let tpart = self.reg(RegClass::B32);
            self.ins(format!("and.b32 {tpart}, {tb}, {};", !dim_mask as u32));
            let tid = self.tid.clone();
            let my_combo = self.reg(RegClass::B32);
            self.ins(format!("mov.u32 {my_combo}, 0;"));
            for (j, b) in warp_bits.iter().enumerate() {
                let t = self.reg(RegClass::B32);
                self.ins(format!("bfe.u32 {t}, {tid}, {}, 1;", 5 + b));
                self.ins(format!("shl.b32 {t}, {t}, {j};"));
                self.ins(format!("or.b32 {my_combo}, {my_combo}, {t};"));
            }
            // Address of (combo, output element of group g, operand 0).
            let addr_of = |k: &mut Self, combo: &str, key: u64| -> String {
                let e = k.reg(RegClass::B32);
                k.ins(format!("or.b32 {e}, {tpart}, {key};"));
                let lo = k.reg(RegClass::B32);
                k.ins(format!("and.b32 {lo}, {e}, {};", (1u64 << low) - 1));
                k.ins(format!("shr.u32 {e}, {e}, {};", low + w));
                k.ins(format!("shl.b32 {e}, {e}, {low};"));
                k.ins(format!("or.b32 {e}, {e}, {lo};"));
                k.ins(format!("mad.lo.s32 {e}, {combo}, {n_out}, {e};"));
                k.ins(format!("mad.lo.s32 {e}, {e}, {}, {buf};", nops * 8));
                e
            };
            for (gi, g) in acc.iter().enumerate() {
                let a = addr_of(self, &my_combo, groups[gi].0);
                for (k, e) in elems.iter().enumerate() {
                    self.store_elem("st.shared", *e, &format!("[{a}+{}]", k * 8), &g[k], None);
                }
            }
            self.bar();
            let mut result: Vec<Option<Vec<String>>> = vec![None; acc.len()];
            for combo in 0..combos {
                let c = self.reg(RegClass::B32);
                self.ins(format!("mov.u32 {c}, {combo};"));
                for (gi, r) in result.iter_mut().enumerate() {
                    let a = addr_of(self, &c, groups[gi].0);
                    let vals: Vec<String> = elems
                        .iter()
                        .enumerate()
                        .map(|(k, e)| self.load_elem("ld.shared", *e, &format!("[{a}+{}]", k * 8)))
                        .collect();
                    *r = Some(match r.take() {
                        None => vals,
                        Some(prev) => self.apply_body(op, &prev, &vals, &elems),
                    });
                }
            }
            self.bar();
            acc = result.into_iter().map(|r| r.unwrap_or_default()).collect();
        }
        // Every output starts from the identities, as the interpreter's fold does.
        for g in acc.iter_mut() {
            *g = self.fold_identities(op, g, &elems);
        }
        // The result layout: the source layout without the reduced bits
        // (crate::layout::reduce_layout).
        let out_layout = self.layout_of(m.result(op, 0));
        for (k, res) in m.results(op).enumerate() {
            let regs = (0..out_layout.slots())
                .map(|s| {
                    let e = out_layout.slot_elem(s);
                    // Back to the source's element numbering (dim bits zero).
                    let src_e = (e & ((1 << low) - 1)) | ((e >> low) << (low + w));
                    let gi = groups.iter().position(|g| g.0 == src_e).unwrap_or(0);
                    acc[gi][k].clone()
                })
                .collect();
            self.set_tile(
                res,
                Tv {
                    layout: out_layout.clone(),
                    regs,
                    elem: elems[k],
                },
            );
        }
    }

    fn shfl_xor(&mut self, r: &str, elem: Type, mask: u32) -> String {
        let c = class_of(elem);
        let out = self.reg(c);
        match c {
            RegClass::B32 | RegClass::F32 => {
                self.ins(format!("shfl.sync.bfly.b32 {out}, {r}, {mask}, 31, -1;"));
            }
            RegClass::B64 | RegClass::F64 => {
                let (lo, hi) = (self.reg(RegClass::B32), self.reg(RegClass::B32));
                self.ins(format!("mov.b64 {{{lo}, {hi}}}, {r};"));
                self.ins(format!("shfl.sync.bfly.b32 {lo}, {lo}, {mask}, 31, -1;"));
                self.ins(format!("shfl.sync.bfly.b32 {hi}, {hi}, {mask}, 31, -1;"));
                self.ins(format!("mov.b64 {out}, {{{lo}, {hi}}};"));
            }
            RegClass::B16 => {
                let t = self.reg(RegClass::B32);
                self.ins(format!("cvt.u32.u16 {t}, {r};"));
                self.ins(format!("shfl.sync.bfly.b32 {t}, {t}, {mask}, 31, -1;"));
                self.ins(format!("cvt.u16.u32 {out}, {t};"));
            }
            RegClass::Pred => {
                let t = self.reg(RegClass::B32);
                self.ins(format!("selp.b32 {t}, 1, 0, {r};"));
                self.ins(format!("shfl.sync.bfly.b32 {t}, {t}, {mask}, 31, -1;"));
                self.ins(format!("setp.ne.b32 {out}, {t}, 0;"));
            }
        }
        out
    }

    /// scan: a log-step (Hillis-Steele) scan through shared memory, in a PTX loop over
    /// the steps. Every element is stored at its linear index; at step `d = 1, 2, 4, ...`
    /// each element at scan coordinate `c` with a partner `d` places earlier in scan order
    /// (`c - d` forward, `c + d` reverse) becomes `body(partner, element)`, reads and
    /// writes of a step separated by barriers. After `log2(len)` steps element `c` holds
    /// the combination of everything up to it, in an order fixed by the shape alone (the
    /// spec leaves the order to the implementation and asks only for determinism):
    /// `O(n log n)` work in `log2(len)` rounds, where a sequential scan per element costs
    /// `O(n²)`. A tile whose buffer would exceed [`STAGE_BYTES`] is scanned in chunks
    /// picked by register bits outside the scanned dimension (lines along it never span
    /// two chunks), one chunk after the other through the same buffer.
    pub(crate) fn emit_scan(&mut self, op: Op) {
        let m = self.m;
        let inputs: Vec<Value> = m.operands(op).collect();
        let shape = self.shape(inputs[0]);
        let dim = self.int_attr(op, "dim") as usize;
        let reverse = matches!(
            m.attr_named(op, "reverse").map(|a| m.ctx.attrs.get(a)),
            Some(AttrData::Bool(true))
        );
        let layout = self.layout_of(inputs[0]);
        let tvs: Vec<Tv> = inputs.iter().map(|v| self.tile_in(*v, &layout)).collect();
        let elems: Vec<Type> = tvs.iter().map(|t| t.elem).collect();
        let (low, w) = dim_bits(&shape, dim);
        let len = 1u64 << w;
        let slots = layout.slots();
        // The running values, one mutable register per slot and operand.
        let mut vals: Vec<Vec<String>> = Vec::with_capacity(elems.len());
        for t in &tvs {
            let regs = (0..slots)
                .map(|s| {
                    let r = self.reg(class_of(t.elem));
                    self.copy_reg(t.elem, &r, &t.regs[s]);
                    r
                })
                .collect();
            vals.push(regs);
        }
        if len > 1 {
            // Bytes per element in each operand's region, and the chunk bits.
            let stride = elems
                .iter()
                .map(|e| elem_bytes(*e) as u64)
                .max()
                .unwrap_or(4);
            let per_elem = plan::scan_elem_bytes(&elems);
            let chunks = plan::scan_chunks(&layout, &shape, dim, per_elem);
            let region = 1u64 << chunks.inner_bits(); // elements per chunk
            let low_in = low - chunks.bits.iter().filter(|b| (**b as u32) < low).count() as u32;
            self.bar();
            let buf = self.smem((region * per_elem) as u32);
            let tb = self.thread_base(&layout);
            // The thread part of the index inside a chunk.
            let tb_in = self.squeeze_bits(&tb, &chunks);
            let base = self.reg(RegClass::B32);
            self.ins(format!("mad.lo.s32 {base}, {tb_in}, {stride}, {buf};"));
            for c in 0..chunks.count() {
                let members: Vec<usize> = (0..slots)
                    .filter(|s| chunks.which(layout.slot_elem(*s)) == c)
                    .collect();
                let region_off = |k: usize| k as u64 * region * stride;
                for (k, el) in elems.iter().enumerate() {
                    for &s in &members {
                        let off = region_off(k) + chunks.squeeze(layout.slot_elem(s)) * stride;
                        let at = format!("[{base}+{off}]");
                        self.store_elem("st.shared", *el, &at, &vals[k][s], None);
                    }
                }
                // Per slot: its address and its scan coordinate (loop invariants).
                let mut addrs = Vec::with_capacity(members.len());
                let mut coords = Vec::with_capacity(members.len());
                for &s in &members {
                    let a = self.reg(RegClass::B32);
                    let off = chunks.squeeze(layout.slot_elem(s)) * stride;
                    self.ins(format!("add.s32 {a}, {base}, {off};"));
                    let e = self.reg(RegClass::B32);
                    self.ins(format!("add.s32 {e}, {tb}, {};", layout.slot_elem(s)));
                    let co = self.reg(RegClass::B32);
                    self.ins(format!("bfe.u32 {co}, {e}, {low}, {w};"));
                    addrs.push(a);
                    coords.push(co);
                }
                let d = self.reg(RegClass::B32);
                self.ins(format!("mov.u32 {d}, 1;"));
                let head = self.label();
                self.line(format!("{head}:"));
                self.bar();
                // The partner's byte distance: d << low_in, times the stride.
                let dist = self.reg(RegClass::B32);
                self.ins(format!("shl.b32 {dist}, {d}, {low_in};"));
                self.ins(format!("mul.lo.u32 {dist}, {dist}, {stride};"));
                let mut preds = Vec::with_capacity(members.len());
                let mut others: Vec<Vec<String>> = vec![Vec::new(); elems.len()];
                for (i, &s) in members.iter().enumerate() {
                    let p = self.reg(RegClass::Pred);
                    let pa = self.reg(RegClass::B32);
                    if reverse {
                        let t = self.reg(RegClass::B32);
                        self.ins(format!("add.s32 {t}, {}, {d};", coords[i]));
                        self.ins(format!("setp.lt.u32 {p}, {t}, {len};"));
                        self.ins(format!("add.s32 {pa}, {}, {dist};", addrs[i]));
                    } else {
                        self.ins(format!("setp.ge.u32 {p}, {}, {d};", coords[i]));
                        self.ins(format!("sub.s32 {pa}, {}, {dist};", addrs[i]));
                    }
                    for (k, el) in elems.iter().enumerate() {
                        let o = self.reg(class_of(*el));
                        self.copy_reg(*el, &o, &vals[k][s]);
                        let at = format!("[{pa}+{}]", region_off(k));
                        self.load_into("ld.shared", *el, &at, &o, Some(&p));
                        others[k].push(o);
                    }
                    preds.push(p);
                }
                self.bar();
                for (i, &s) in members.iter().enumerate() {
                    let lhs: Vec<String> = others.iter().map(|o| o[i].clone()).collect();
                    let rhs: Vec<String> = vals.iter().map(|v| v[s].clone()).collect();
                    let combined = self.apply_body(op, &lhs, &rhs, &elems);
                    for (k, el) in elems.iter().enumerate() {
                        let p = Some(preds[i].as_str());
                        self.copy_reg_if(*el, &vals[k][s], &combined[k], p);
                        let at = format!("[{}+{}]", addrs[i], region_off(k));
                        self.store_elem("st.shared", *el, &at, &vals[k][s], p);
                    }
                }
                let q = self.reg(RegClass::Pred);
                self.ins(format!("shl.b32 {d}, {d}, 1;"));
                self.ins(format!("setp.lt.u32 {q}, {d}, {len};"));
                self.ins(".pragma \"nounroll\";");
                self.ins(format!("@{q} bra.uni {head};"));
                self.bar();
            }
        }
        // Every prefix starts from the identities, as the interpreter's fold does.
        if !self.identities_exact(op, &elems) {
            for s in 0..slots {
                let cur: Vec<String> = vals.iter().map(|v| v[s].clone()).collect();
                let folded = self.fold_identities(op, &cur, &elems);
                for (k, r) in folded.into_iter().enumerate() {
                    vals[k][s] = r;
                }
            }
        }
        for (k, res) in m.results(op).enumerate() {
            self.set_tile(
                res,
                Tv {
                    layout: layout.clone(),
                    regs: std::mem::take(&mut vals[k]),
                    elem: elems[k],
                },
            );
        }
    }

    /// A `.b32` register holding the index inside a chunk of `chunks` of the element index
    /// in `x`: its chunk bits taken out and the bits above them moved down.
    fn squeeze_bits(&mut self, x: &str, chunks: &Chunks) -> String {
        if chunks.bits.is_empty() {
            return x.to_string();
        }
        let moves: Vec<(u32, u32)> = chunks
            .inner_map()
            .iter()
            .enumerate()
            .filter_map(|(b, m)| m.map(|m| (b as u32, m as u32)))
            .collect();
        self.move_bits(x, &moves)
    }

    /// mmaf / mmai: on tensor cores with the instruction convert-to-gpu recorded
    /// (`ttg.mma`, along [`super::mma::mma_plan_for`]); without it the operands go to
    /// shared memory and each thread accumulates its own result elements with a loop over
    /// K (exact products, one rounding per step).
    pub(crate) fn emit_mma(&mut self, op: Op) {
        let m = self.m;
        let (a_v, b_v, c_v) = (m.operand(op, 0), m.operand(op, 1), m.operand(op, 2));
        let (sa, sb) = (self.shape(a_v), self.shape(b_v));
        if let Some(name) = tilec_gpuir::wgmma::recorded(m, op) {
            match tilec_gpuir::wgmma::wgmma_plan_for(name, &sa, &sb, self.warp_bits()) {
                Some(plan) if self.opts.arch == tilec_gpuir::Arch::Sm90a => {
                    self.emit_wgmma(op, &plan)
                }
                Some(_) => self.error_at_op(op, "warpgroup MMA needs --arch sm_90a"),
                None => self.error_at_op(
                    op,
                    "the recorded warpgroup MMA instruction does not fit the operands",
                ),
            }
            return;
        }
        match super::mma::MmaKind::recorded(m, op) {
            Some(Ok(kind)) => {
                match super::mma::mma_plan_for(kind, &sa, &sb, self.warp_bits()) {
                    Some(_) if self.opts.arch.sm() < kind.min_sm() => self.error_at_op(
                        op,
                        &format!(
                            "mma.sync.aligned.{} needs sm_{} or later (--arch {})",
                            kind.name(),
                            kind.min_sm(),
                            self.opts.arch.name()
                        ),
                    ),
                    Some(plan) => self.emit_mma_sync(op, &plan),
                    None => self.error_at_op(
                        op,
                        "the recorded tensor-core instruction does not tile the operands",
                    ),
                }
                return;
            }
            Some(Err(why)) => return self.error_at_op(op, &why),
            None => {}
        }
        let rank = sa.len();
        let (mm, kk, nn) = (
            sa[rank - 2] as u64,
            sa[rank - 1] as u64,
            sb[rank - 1] as u64,
        );
        let a = self.tile(a_v);
        let b = self.tile(b_v);
        let c = self.tile(c_v);
        let (ea, eb, ec) = (a.elem, b.elem, c.elem);
        let (za, zb) = (elem_bytes(ea) as u64, elem_bytes(eb) as u64);
        // K is split into chunks (its top bits) so that the staged A and B columns and rows
        // of one chunk fit the fallback's buffer; the accumulators carry across chunks.
        let kbits = kk.trailing_zeros();
        let plan::MmaFallback {
            cbits,
            a_bytes,
            b_bytes,
        } = plan::mma_fallback_plan(&sa, &sb, za, zb);
        let kc = kk >> cbits;
        self.bar();
        let buf = self.smem((a_bytes + b_bytes) as u32);
        let bbuf = self.reg(RegClass::B32);
        self.ins(format!("add.s32 {bbuf}, {buf}, {a_bytes};"));
        // The chunk bits: the top bits of K in A's index (K lowest) and in B's (N lowest).
        let nbits = nn.trailing_zeros();
        let a_chunks = Chunks::new(
            (kbits - cbits..kbits).map(|b| b as u8).collect(),
            a.layout.nbits,
        );
        let b_chunks = Chunks::new(
            (nbits + kbits - cbits..nbits + kbits)
                .map(|b| b as u8)
                .collect(),
            b.layout.nbits,
        );
        let a_writer = self.chunk_writer(&a, &buf, &a_chunks);
        let b_writer = self.chunk_writer(&b, &bbuf, &b_chunks);
        let signed_a = self.mma_signed(op, "signedness_lhs");
        let signed_b = self.mma_signed(op, "signedness_rhs");
        let layout = c.layout.clone();
        let tb = self.thread_base(&layout);
        let rs = self.shape(m.result(op, 0));
        // Per output slot: its accumulator and the A row and B column addresses in a chunk.
        let mut regs = Vec::new();
        let mut rows = Vec::new();
        for s in 0..layout.slots() {
            let e = self.reg(RegClass::B32);
            self.ins(format!("add.s32 {e}, {tb}, {};", layout.slot_elem(s)));
            // (batch, i, j) of this element.
            let (lj, wj) = dim_bits(&rs, rank - 1);
            let (li, wi) = dim_bits(&rs, rank - 2);
            let (i, j, bt) = (
                self.reg(RegClass::B32),
                self.reg(RegClass::B32),
                self.reg(RegClass::B32),
            );
            self.ins(format!("bfe.u32 {j}, {e}, {lj}, {wj};"));
            self.ins(format!("bfe.u32 {i}, {e}, {li}, {wi};"));
            self.ins(format!("shr.u32 {bt}, {e}, {};", wi + wj));
            // a row: ((bt*M + i) * Kc) * za; b col: (bt*Kc*N + j) * zb
            let ap = self.reg(RegClass::B32);
            self.ins(format!("mad.lo.s32 {ap}, {bt}, {mm}, {i};"));
            self.ins(format!("mul.lo.s32 {ap}, {ap}, {};", kc * za));
            self.ins(format!("add.s32 {ap}, {ap}, {buf};"));
            let bp = self.reg(RegClass::B32);
            self.ins(format!("mad.lo.s32 {bp}, {bt}, {}, {j};", kc * nn));
            self.ins(format!("mul.lo.s32 {bp}, {bp}, {zb};"));
            self.ins(format!("add.s32 {bp}, {bp}, {bbuf};"));
            let acc = self.reg(class_of(ec));
            self.copy_reg(ec, &acc, &c.regs[s]);
            regs.push(acc);
            rows.push((ap, bp));
        }
        for chunk in 0..1u64 << cbits {
            if chunk > 0 {
                self.bar();
            }
            self.write_smem_chunk(&a, &a_writer, &a_chunks, chunk);
            self.write_smem_chunk(&b, &b_writer, &b_chunks, chunk);
            self.bar();
            for ((ap, bp), acc) in rows.iter().zip(&regs) {
                let (x_at, y_at) = (self.reg(RegClass::B32), self.reg(RegClass::B32));
                self.ins(format!("mov.u32 {x_at}, {ap};"));
                self.ins(format!("mov.u32 {y_at}, {bp};"));
                let k = self.reg(RegClass::B32);
                self.ins(format!("mov.u32 {k}, 0;"));
                let head = self.label();
                self.ins(format!("{head}:"));
                let x = self.load_elem("ld.shared", ea, &format!("[{x_at}]"));
                let y = self.load_elem("ld.shared", eb, &format!("[{y_at}]"));
                self.mma_step(ea, eb, ec, &x, &y, acc, signed_a, signed_b);
                self.ins(format!("add.s32 {x_at}, {x_at}, {za};"));
                self.ins(format!("add.s32 {y_at}, {y_at}, {};", nn * zb));
                self.ins(format!("add.s32 {k}, {k}, 1;"));
                let p = self.reg(RegClass::Pred);
                self.ins(format!("setp.lt.u32 {p}, {k}, {kc};"));
                self.ins(format!("@{p} bra.uni {head};"));
            }
        }
        self.bar();
        self.set_tile(
            m.result(op, 0),
            Tv {
                layout,
                regs,
                elem: ec,
            },
        );
    }

    /// mmaf_scaled (13.3): emulated on every target. The four operands are staged in
    /// shared memory at their linear indices, and each thread computes its own result
    /// elements as the interpreter does: the accumulator widened to f64, then for k in
    /// increasing order `sum += (a[i,k] * sa[i,k/V]) * (b[k,j] * sb[k/V,j])` with
    /// `mul.rn.f64` (exact: the operands carry at most 4 significant bits and the scales
    /// are powers of two or 4-bit values) and `add.rn.f64`, rounded once to f32 by
    /// `cvt.rn.f32.f64`; so the result is the interpreter's bit for bit.
    pub(crate) fn emit_mma_scaled(&mut self, op: Op) {
        let m = self.m;
        let vals: Vec<Value> = (0..5).map(|i| m.operand(op, i)).collect();
        let (sa, sb) = (self.shape(vals[0]), self.shape(vals[1]));
        let ss = self.shape(vals[3]);
        let rank = sa.len();
        let (mm, kk, nn) = (
            sa[rank - 2] as u64,
            sa[rank - 1] as u64,
            sb[rank - 1] as u64,
        );
        let blocks = ss[rank - 1].max(1) as u64;
        let vv = (kk / blocks).max(1);
        if !vv.is_power_of_two() {
            return self.error_at_op(
                op,
                "mmaf_scaled: the scale block size is not a power of two",
            );
        }
        let tiles: Vec<Tv> = vals.iter().map(|v| self.tile(*v)).collect();
        let sizes: [u64; 5] = std::array::from_fn(|i| elem_bytes(tiles[i].elem) as u64);
        // Staged: A [batch, M, K], B [batch, K, N], SA [batch, M, K/V], SB [batch, K/V, N].
        let (offs, total) = plan::mma_scaled_plan(&sa, &sb, blocks, &sizes);
        self.bar();
        let buf = self.smem(total as u32);
        let mut bases = vec![String::new(); 5];
        for i in [0usize, 1, 3, 4] {
            let b = self.reg(RegClass::B32);
            self.ins(format!("add.s32 {b}, {buf}, {};", offs[i]));
            let chunks = Chunks::new(Vec::new(), tiles[i].layout.nbits);
            let w = self.chunk_writer(&tiles[i], &b, &chunks);
            self.write_smem_chunk(&tiles[i], &w, &chunks, 0);
            bases[i] = b;
        }
        self.bar();
        let c = tiles[2].clone();
        let ec = c.elem;
        let layout = c.layout.clone();
        let tb = self.thread_base(&layout);
        let rs = self.shape(m.result(op, 0));
        let vbits = vv.trailing_zeros();
        let (ea, eb, esa, esb) = (tiles[0].elem, tiles[1].elem, tiles[3].elem, tiles[4].elem);
        let (za, zb, zsa, zsb) = (sizes[0], sizes[1], sizes[3], sizes[4]);
        let mut regs = Vec::new();
        for s in 0..layout.slots() {
            let e = self.reg(RegClass::B32);
            self.ins(format!("add.s32 {e}, {tb}, {};", layout.slot_elem(s)));
            let (lj, wj) = dim_bits(&rs, rank - 1);
            let (li, wi) = dim_bits(&rs, rank - 2);
            let (i, j, bt) = (
                self.reg(RegClass::B32),
                self.reg(RegClass::B32),
                self.reg(RegClass::B32),
            );
            self.ins(format!("bfe.u32 {j}, {e}, {lj}, {wj};"));
            self.ins(format!("bfe.u32 {i}, {e}, {li}, {wi};"));
            self.ins(format!("shr.u32 {bt}, {e}, {};", wi + wj));
            // Row of A and of SA ((bt*M + i) * K, * K/V), column of B and SB.
            let row = self.reg(RegClass::B32);
            self.ins(format!("mad.lo.s32 {row}, {bt}, {mm}, {i};"));
            let col_b = self.reg(RegClass::B32);
            self.ins(format!("mad.lo.s32 {col_b}, {bt}, {}, {j};", kk * nn));
            let col_s = self.reg(RegClass::B32);
            self.ins(format!("mad.lo.s32 {col_s}, {bt}, {}, {j};", blocks * nn));
            let at = |k: &mut Self, base: &str, idx: &str, mul: u64, size: u64| {
                let r = k.reg(RegClass::B32);
                k.ins(format!("mul.lo.s32 {r}, {idx}, {};", mul * size));
                k.ins(format!("add.s32 {r}, {r}, {base};"));
                r
            };
            let a_at = at(self, &bases[0], &row, kk, za);
            let sa_at = at(self, &bases[3], &row, blocks, zsa);
            let b_at = at(self, &bases[1], &col_b, 1, zb);
            let sb_at = at(self, &bases[4], &col_s, 1, zsb);
            let sum = self.float_to_float(ec, Type::F64, None, &c.regs[s]);
            let acc = self.reg(RegClass::F64);
            self.ins(format!("mov.f64 {acc}, {sum};"));
            let k = self.reg(RegClass::B32);
            self.ins(format!("mov.u32 {k}, 0;"));
            let head = self.label();
            self.ins(format!("{head}:"));
            // The scale block of k: kb = k >> log2(V).
            let kb = self.reg(RegClass::B32);
            self.ins(format!("shr.u32 {kb}, {k}, {vbits};"));
            let (p_sa, p_a, p_b, p_sb) = (
                self.reg(RegClass::B32),
                self.reg(RegClass::B32),
                self.reg(RegClass::B32),
                self.reg(RegClass::B32),
            );
            self.ins(format!("mad.lo.s32 {p_a}, {k}, {za}, {a_at};"));
            self.ins(format!("mad.lo.s32 {p_sa}, {kb}, {zsa}, {sa_at};"));
            self.ins(format!("mad.lo.s32 {p_b}, {k}, {}, {b_at};", nn * zb));
            self.ins(format!("mad.lo.s32 {p_sb}, {kb}, {}, {sb_at};", nn * zsb));
            let x = self.load_elem("ld.shared", ea, &format!("[{p_a}]"));
            let xs = self.load_elem("ld.shared", esa, &format!("[{p_sa}]"));
            let y = self.load_elem("ld.shared", eb, &format!("[{p_b}]"));
            let ys = self.load_elem("ld.shared", esb, &format!("[{p_sb}]"));
            let x = self.float_to_float(ea, Type::F64, None, &x);
            let xs = self.float_to_float(esa, Type::F64, None, &xs);
            let y = self.float_to_float(eb, Type::F64, None, &y);
            let ys = self.float_to_float(esb, Type::F64, None, &ys);
            let (u, w, prod) = (
                self.reg(RegClass::F64),
                self.reg(RegClass::F64),
                self.reg(RegClass::F64),
            );
            self.ins(format!("mul.rn.f64 {u}, {x}, {xs};"));
            self.ins(format!("mul.rn.f64 {w}, {y}, {ys};"));
            self.ins(format!("mul.rn.f64 {prod}, {u}, {w};"));
            self.ins(format!("add.rn.f64 {acc}, {acc}, {prod};"));
            self.ins(format!("add.s32 {k}, {k}, 1;"));
            let p = self.reg(RegClass::Pred);
            self.ins(format!("setp.lt.u32 {p}, {k}, {kk};"));
            self.ins(format!("@{p} bra.uni {head};"));
            let out = self.reg(RegClass::F32);
            self.ins(format!("cvt.rn.f32.f64 {out}, {acc};"));
            regs.push(out);
        }
        self.bar();
        self.set_tile(
            m.result(op, 0),
            Tv {
                layout,
                regs,
                elem: Type::F32,
            },
        );
    }

    pub(crate) fn mma_signed(&self, op: Op, name: &str) -> bool {
        self.enum_attr(op, name, tilec_ir::EnumKind::Signedness) != Some(0)
    }

    #[allow(clippy::too_many_arguments)]
    fn mma_step(
        &mut self,
        ea: Type,
        eb: Type,
        ec: Type,
        x: &str,
        y: &str,
        acc: &str,
        sa: bool,
        sb: bool,
    ) {
        match ec {
            Type::I32 => {
                // i8 operands: the loads sign-extended; unsigned operands need zero-extension.
                let xa = if sa { x.to_string() } else { self.zext(8, x) };
                let yb = if sb { y.to_string() } else { self.zext(8, y) };
                self.ins(format!("mad.lo.s32 {acc}, {xa}, {yb}, {acc};"));
            }
            Type::F64 => {
                let xf = self.float_to_float(ea, Type::F64, None, x);
                let yf = self.float_to_float(eb, Type::F64, None, y);
                self.ins(format!("fma.rn.f64 {acc}, {xf}, {yf}, {acc};"));
            }
            _ => {
                let xf = self.float_to_float(ea, Type::F32, None, x);
                let yf = self.float_to_float(eb, Type::F32, None, y);
                if ec == Type::F32 || ec == Type::TF32 {
                    self.ins(format!("fma.rn.f32 {acc}, {xf}, {yf}, {acc};"));
                } else {
                    let cf = self.float_to_float(ec, Type::F32, None, acc);
                    self.ins(format!("fma.rn.f32 {cf}, {xf}, {yf}, {cf};"));
                    let back = self.float_to_float(Type::F32, ec, None, &cf);
                    self.copy_reg(ec, acc, &back);
                }
            }
        }
    }
}

/// Per-tile state of chunked shared-memory writes ([`Kernel::chunk_writer`]).
pub(crate) struct ChunkWriter {
    addr: String,
    mine: Option<String>,
    owner: Option<String>,
    thread_mask: u64,
}

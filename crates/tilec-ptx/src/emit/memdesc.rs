//! Views of shared-memory buffers: `ttg.memdesc_index`, `memdesc_subslice`,
//! `memdesc_trans`, `memdesc_reshape` and `memdesc_reinterpret`, and `ttg.warp_id`.
//!
//! A `!ttg.memdesc` value is a register holding a byte address (`Kernel::bufs`) and, when
//! the view is not the row-major block starting there, an **element map**
//! (`Kernel::buf_maps`): bit `k` of an element's row-major index in the view is bit
//! `map[k]` of its index in the allocation, counted from that address. Every tile shape is
//! a power of two, so each view op is a rearrangement of bits:
//!
//! * reshape keeps the row-major index, so it keeps the map;
//! * trans permutes the dimensions, so it permutes the dimensions' groups of bits;
//! * subslice keeps the low bits of each dimension; its offsets (multiples of the result's
//!   size, which the GPU-level verifier checks) are a constant added to the address;
//! * index drops dimension 0 (the top bits): the index's bits go to where the map sends
//!   them, added to the address.
//!
//! Readers and writers (`local_load`, `local_store`) address element `e` of the view at
//! its mapped index: the layout's bits are renamed through the map
//! ([`Layout::remap`]), so a thread's base address and its slots' offsets come out as for
//! any other layout.

use super::{Kernel, elem_bytes};
use crate::layout::{Layout, dim_bits, shape_bits};
use crate::sink::{RegClass, Sink};
use std::rc::Rc;
use tilec_ir::attrs::AttrData;
use tilec_ir::{Op, Type, TypeData, Value};

/// A swizzle as a linear map of element-index bits: for each `(dst, src)`, bit `dst` of the
/// stored index is bit `dst` of the element's index XOR its bit `src`. The sources are
/// row bits and the destinations column bits of the same matrix, so no source is a
/// destination and the map is its own inverse.
pub type SwizzleBits = [(u8, u8)];

/// The index where element `e` (an allocation index) is stored under `pairs`.
pub fn swizzle_index(e: u64, pairs: &SwizzleBits) -> u64 {
    pairs.iter().fold(e, |x, (d, s)| x ^ ((e >> s & 1) << d))
}

pub use tilec_gpuir::layout::swizzle_pairs;

/// Where a thread's accesses to a (possibly swizzled) shared-memory buffer go: the
/// swizzled thread part of the element index and the buffer address plus that part in
/// bytes. See [`Kernel::smem_addr`].
pub(crate) struct SmemAddr {
    buf: String,
    /// The thread part of the index, swizzled (element units).
    thread: String,
    /// `buf + thread * size`.
    at: String,
    /// The bits `thread` may have set.
    tmask: u64,
    size: u64,
    pairs: Vec<(u8, u8)>,
    /// Registers `buf + (thread ^ x) * size`, by `x`.
    xored: Vec<(u64, String)>,
    /// Bytes added to every address.
    pub offset: u64,
}

/// The element map of a view whose element bit `k` is allocation bit `map[k]`; `None`
/// when that is the identity (a row-major block at the view's address).
fn normalized(map: Vec<u8>) -> Option<Rc<[u8]>> {
    let identity = map.iter().enumerate().all(|(k, b)| *b as usize == k);
    (!identity).then(|| map.into())
}

impl Kernel<'_> {
    /// The element map of buffer `v`: bit `k` of a view index goes to bit `map[k]`.
    pub(crate) fn elem_map(&self, v: Value) -> Vec<u8> {
        match self.buf_maps.get(&v) {
            Some(m) => m.to_vec(),
            None => (0..shape_bits(&self.shape(v)) as u8).collect(),
        }
    }

    /// `layout` (over the elements of view `v`) over the elements of its allocation:
    /// the layout readers and writers of the view address.
    pub(crate) fn through_view(&self, v: Value, layout: &Rc<Layout>) -> Rc<Layout> {
        let Some(map) = self.buf_maps.get(&v) else {
            return layout.clone();
        };
        let nbits = map.iter().map(|b| *b as u32 + 1).max().unwrap_or(0);
        let opts: Vec<Option<u8>> = map.iter().map(|b| Some(*b)).collect();
        Rc::new(layout.remap(nbits, &opts, &[]))
    }

    /// The swizzle of buffer view `v` over the index of its allocation (counted from the
    /// view's address): the pairs of its type's swizzle in the view's own coordinates
    /// ([`swizzle_pairs`]) sent through its element map. The GPU-level verifier admits
    /// only views whose offsets from the allocation leave the swizzled bits alone (an
    /// index of a dimension above the row and column ones; no subslice or reshape).
    pub(crate) fn buf_swizzle(&self, v: Value) -> Vec<(u8, u8)> {
        let m = self.m;
        let TypeData::MemDesc {
            shape,
            order,
            swizzle,
            ..
        } = m.ctx.types.get(m.value_type(v))
        else {
            return Vec::new();
        };
        let map = self.elem_map(v);
        swizzle_pairs(shape, order, *swizzle)
            .into_iter()
            .filter_map(|(d, s)| Some((*map.get(d as usize)?, *map.get(s as usize)?)))
            .collect()
    }

    /// The addresses of a thread's elements of a buffer at register `buf` stored under
    /// `pairs`, read or written in layout `l` (over the allocation's index): element
    /// `t | s` (thread part `t` from the lane and warp bits, slot part `s` a constant) is
    /// stored at index `swz(t | s) = swz(t) ^ swz(s)`: XOR is linear, so the two parts
    /// combine with XOR, not add, where the swizzle sets a bit the thread part may have.
    /// `swz(t)` is computed once (a few `bfe`/`xor`); a slot whose `swz(s)` has no bit in
    /// common with it adds `swz(s)` as an immediate offset, and one that has costs one
    /// `xor` and `mad` per distinct common part (at most `maxPhase` of them), kept.
    /// Without a swizzle this is the plain `buf + t * size + s * size`.
    pub(crate) fn smem_addr(
        &mut self,
        buf: &str,
        l: &Layout,
        pairs: &SwizzleBits,
        size: u64,
    ) -> SmemAddr {
        let tb = self.thread_base(l);
        let mut tmask = l
            .lane
            .iter()
            .chain(l.warp.iter())
            .flatten()
            .fold(0u64, |m, b| m | 1 << b);
        // In a streaming loop the loop counter supplies register bits too.
        if self.stream.as_ref().is_some_and(|s| *l == *s.sub) {
            tmask = u64::MAX;
        }
        let moves: Vec<(u32, u32)> = pairs
            .iter()
            .filter(|(_, s)| tmask >> s & 1 == 1)
            .map(|(d, s)| (*s as u32, *d as u32))
            .collect();
        let thread = if moves.is_empty() {
            tb
        } else {
            let f = self.move_bits(&tb, &moves);
            let r = self.reg(RegClass::B32);
            self.ins(format!("xor.b32 {r}, {tb}, {f};"));
            tmask |= moves.iter().fold(0u64, |m, (_, d)| m | 1 << d);
            r
        };
        let at = self.reg(RegClass::B32);
        self.ins(format!("mad.lo.s32 {at}, {thread}, {size}, {buf};"));
        SmemAddr {
            buf: buf.to_string(),
            thread,
            at,
            tmask,
            size,
            pairs: pairs.to_vec(),
            xored: Vec::new(),
            offset: 0,
        }
    }

    /// The address operand (`[reg+offset]`) of the element with slot part `e` (an
    /// allocation index whose bits are not the layout's lane or warp bits) under `a`.
    pub(crate) fn smem_at(&mut self, a: &mut SmemAddr, e: u64) -> String {
        let s = swizzle_index(e, &a.pairs);
        let (x, rest) = (s & a.tmask, s & !a.tmask);
        let base = if x == 0 {
            a.at.clone()
        } else if let Some((_, r)) = a.xored.iter().find(|(k, _)| *k == x) {
            r.clone()
        } else {
            let r = self.reg(RegClass::B32);
            self.ins(format!("xor.b32 {r}, {}, {x};", a.thread));
            self.ins(format!("mad.lo.s32 {r}, {r}, {}, {};", a.size, a.buf));
            a.xored.push((x, r.clone()));
            r
        };
        format!("[{base}+{}]", a.offset + rest * a.size)
    }

    /// Adds one access instruction to the shared-memory statistics (crate::banks): every
    /// lane of every warp accesses `bytes` at element `swz(thread part | e)` of layout `l`
    /// (allocation index, buffer stored under `pairs`, `size`-byte elements), served in
    /// phases of [`crate::banks::lanes_per_phase`] lanes.
    pub(crate) fn note_access(
        &mut self,
        l: &Layout,
        pairs: &SwizzleBits,
        size: u64,
        e: u64,
        bytes: u32,
        write: bool,
    ) {
        let per = crate::banks::lanes_per_phase(bytes);
        let mut phases = 0u64;
        let mut conflicts = 0u64;
        for w in 0..1u32 << self.warp_bits() {
            for p in (0..32).step_by(per) {
                let acc: Vec<(u64, u32)> = (p..p + per as u32)
                    .map(|lane| {
                        let t = crate::banks::thread_elem(l, 32 * w + lane);
                        (swizzle_index(t | e, pairs) * size, bytes)
                    })
                    .collect();
                phases += 1;
                conflicts += crate::banks::bank_conflicts(&acc) as u64;
            }
        }
        let st = &mut self.module_data.smem_stats;
        if write && bytes as u64 > size {
            st.write_phases += phases;
            st.write_conflicts += conflicts;
        } else if write {
            st.scalar_write_phases += phases;
            st.scalar_write_conflicts += conflicts;
        } else {
            st.read_phases += phases;
            st.read_conflicts += conflicts;
        }
    }

    /// Records view `res` of the bytes at `addr` with element map `map`.
    fn set_view(&mut self, res: Value, addr: String, map: Vec<u8>) {
        self.bufs.insert(res, addr);
        match normalized(map) {
            Some(m) => {
                self.buf_maps.insert(res, m);
            }
            None => {
                self.buf_maps.remove(&res);
            }
        }
    }

    /// Bytes of one element of buffer `v`.
    fn buf_elem_bytes(&self, v: Value) -> u64 {
        elem_bytes(self.elem(v)) as u64
    }

    /// `ttg.memdesc_index %src[%i]`: element `i` along dimension 0.
    pub(crate) fn emit_memdesc_index(&mut self, op: Op) {
        let m = self.m;
        let (src, res) = (m.operand(op, 0), m.result(op, 0));
        let Some(b) = self.bufs.get(&src).cloned() else {
            return;
        };
        let size = self.buf_elem_bytes(src);
        let ix = self.scalar(m.operand(op, 1));
        let map = self.elem_map(src);
        let low = shape_bits(&self.shape(res)) as usize;
        let r = self.reg(RegClass::B32);
        if !self.buf_maps.contains_key(&src) {
            // A row-major buffer: the index times the bytes of one element of dimension 0.
            let bytes = (1u64 << low) * size;
            self.ins(format!("mad.lo.s32 {r}, {ix}, {bytes}, {b};"));
        } else {
            let moves: Vec<(u32, u32)> = map[low..]
                .iter()
                .enumerate()
                .map(|(k, to)| (k as u32, *to as u32))
                .collect();
            let at = self.move_bits(&ix, &moves);
            self.ins(format!("mad.lo.s32 {r}, {at}, {size}, {b};"));
        }
        self.set_view(res, r, map[..low].to_vec());
    }

    /// `ttg.memdesc_subslice %src [offsets]`: the block of the result's shape at `offsets`.
    pub(crate) fn emit_memdesc_subslice(&mut self, op: Op) {
        let m = self.m;
        let (src, res) = (m.operand(op, 0), m.result(op, 0));
        let Some(b) = self.bufs.get(&src).cloned() else {
            return;
        };
        let offsets: Vec<u64> = match m.attr_named(op, "offsets").map(|a| m.ctx.attrs.get(a)) {
            Some(AttrData::DenseI32Array(o)) => o.iter().map(|x| *x as u64).collect(),
            _ => Vec::new(),
        };
        let (ss, rs) = (self.shape(src), self.shape(res));
        let map = self.elem_map(src);
        let mut new_map = Vec::with_capacity(shape_bits(&rs) as usize);
        let mut elem_off = 0u64;
        // Dimensions from the last (lowest bits) up, as row-major indices number them.
        for d in (0..rs.len()).rev() {
            let (ls, _) = dim_bits(&ss, d);
            let (_, wr) = dim_bits(&rs, d);
            new_map.extend((0..wr).map(|k| map[(ls + k) as usize]));
            let off = offsets.get(d).copied().unwrap_or(0);
            let (_, ws) = dim_bits(&ss, d);
            for k in (0..ws).filter(|k| off >> k & 1 == 1) {
                elem_off |= 1 << map[(ls + k) as usize];
            }
        }
        let bytes = elem_off * self.buf_elem_bytes(src);
        let addr = if bytes == 0 {
            b
        } else {
            let r = self.reg(RegClass::B32);
            self.ins(format!("add.s32 {r}, {b}, {bytes};"));
            r
        };
        self.set_view(res, addr, new_map);
    }

    /// `ttg.memdesc_trans %src {order}`: result dimension `i` is source dimension
    /// `order[i]`.
    pub(crate) fn emit_memdesc_trans(&mut self, op: Op) {
        let m = self.m;
        let (src, res) = (m.operand(op, 0), m.result(op, 0));
        let Some(b) = self.bufs.get(&src).cloned() else {
            return;
        };
        let perm: Vec<usize> = match m.attr_named(op, "order").map(|a| m.ctx.attrs.get(a)) {
            Some(AttrData::DenseI32Array(p)) => p.iter().map(|x| *x as usize).collect(),
            _ => Vec::new(),
        };
        let ss = self.shape(src);
        let map = self.elem_map(src);
        let mut new_map = Vec::with_capacity(map.len());
        for &p in perm.iter().rev() {
            let (ls, ws) = dim_bits(&ss, p);
            new_map.extend_from_slice(&map[ls as usize..(ls + ws) as usize]);
        }
        self.set_view(res, b, new_map);
    }

    /// `ttg.memdesc_reshape` keeps the row-major index and so the map;
    /// `ttg.memdesc_reinterpret` views the same bytes (of a contiguous buffer, which the
    /// GPU-level verifier checks) with another element type and shape.
    pub(crate) fn emit_memdesc_reshape(&mut self, op: Op, reinterpret: bool) {
        let m = self.m;
        let (src, res) = (m.operand(op, 0), m.result(op, 0));
        let Some(b) = self.bufs.get(&src).cloned() else {
            return;
        };
        let map = if reinterpret {
            if self.buf_maps.contains_key(&src) {
                return self.error_at_op(
                    op,
                    "internal error: 'ttg.memdesc_reinterpret' of a buffer that is not contiguous",
                );
            }
            (0..shape_bits(&self.shape(res)) as u8).collect()
        } else {
            self.elem_map(src)
        };
        self.set_view(res, b, map);
    }

    /// `ttg.warp_id`: the thread id over 32.
    pub(crate) fn emit_warp_id(&mut self, op: Op) {
        let tid = self.tid.clone();
        let r = self.reg(RegClass::B32);
        self.ins(format!("shr.u32 {r}, {tid}, 5;"));
        self.set_scalar(self.m.result(op, 0), Type::I32, r);
    }

    /// `ttng.cluster_cta_id`: the CTA's rank in its cluster (0 when it has none).
    pub(crate) fn emit_cluster_cta_id(&mut self, op: Op) {
        if self.opts.arch.sm() < 90 {
            self.error_at_op(op, "thread-block clusters need sm_90 or newer");
        }
        let r = self.reg(RegClass::B32);
        self.ins(format!("mov.u32 {r}, %cluster_ctarank;"));
        self.set_scalar(self.m.result(op, 0), Type::I32, r);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tilec_ir::Swizzle;

    /// The bit pairs give Triton's formula: row `r`, column `c` is stored at column
    /// `((c / vec) ^ ((r / perPhase) % maxPhase)) * vec + c % vec`, for every shape and
    /// parameter choice (including phases beyond the rows, which drop out), with a
    /// leading stage dimension left alone; and the map is linear, so thread and slot parts
    /// combine with XOR.
    #[test]
    fn pairs_are_tritons_swizzle() {
        for (rows, cols) in [(8i64, 16i64), (16, 32), (64, 64), (4, 128), (32, 256)] {
            for (vec, per_phase, max_phase) in
                [(8, 1, 8), (8, 2, 4), (4, 4, 2), (16, 1, 8), (2, 8, 4)]
            {
                if vec * max_phase > cols as u32 {
                    continue;
                }
                let sw = Swizzle {
                    vec,
                    per_phase,
                    max_phase,
                };
                let shape = [2, rows, cols];
                let pairs = swizzle_pairs(&shape, &[2, 1, 0], sw);
                let (v, p, m) = (vec as i64, per_phase as i64, max_phase as i64);
                for s in 0..2 {
                    for r in 0..rows {
                        for c in 0..cols {
                            let e = ((s * rows + r) * cols + c) as u64;
                            let want =
                                (s * rows + r) * cols + ((c / v) ^ ((r / p) % m)) * v + c % v;
                            assert_eq!(
                                swizzle_index(e, &pairs),
                                want as u64,
                                "{sw:?} {rows}x{cols} ({r}, {c})"
                            );
                        }
                    }
                }
                for (a, b) in [(3u64, 517u64), (1 << 9, 77), (1000, 2047)] {
                    let n = 2 * rows as u64 * cols as u64;
                    let (a, b) = (a % n, b % n);
                    assert_eq!(
                        swizzle_index(a ^ b, &pairs),
                        swizzle_index(a, &pairs) ^ swizzle_index(b, &pairs)
                    );
                }
            }
        }
        // The transposed order swizzles the other dimension.
        let sw = Swizzle {
            vec: 8,
            per_phase: 2,
            max_phase: 4,
        };
        assert_eq!(swizzle_pairs(&[32, 64], &[1, 0], sw), vec![(3, 7), (4, 8)]);
        assert_eq!(swizzle_pairs(&[32, 64], &[0, 1], sw), vec![(9, 1), (10, 2)]);
        assert!(swizzle_pairs(&[32, 64], &[1, 0], Swizzle::NONE).is_empty());
    }
}

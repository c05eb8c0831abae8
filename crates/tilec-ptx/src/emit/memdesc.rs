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
use tilec_ir::{Op, Type, Value};

/// The element map of a view whose element bit `k` is allocation bit `map[k]`; `None`
/// when that is the identity (a row-major block at the view's address).
fn normalized(map: Vec<u8>) -> Option<Rc<[u8]>> {
    let identity = map.iter().enumerate().all(|(k, b)| *b as usize == k);
    (!identity).then(|| map.into())
}

impl Kernel<'_> {
    /// The element map of buffer `v`: bit `k` of a view index goes to bit `map[k]`.
    fn elem_map(&self, v: Value) -> Vec<u8> {
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
}

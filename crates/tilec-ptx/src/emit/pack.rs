//! `pack` and `unpack` (13.3): a rank-1 tile read as a little-endian bit stream (element 0
//! in the lowest bits of byte 0) and cut into elements of another width, as the
//! interpreter defines them (crates/tilec-interp/src/shape.rs, `pack`).
//!
//! convert-to-gpu gives the two sides layouts that keep every element and the bytes
//! (or sub-byte elements) it is made of in one thread ([`crate::layout::widen_low`]): the
//! `2^k` pieces of one wide element are slots `s << k | j` of the narrow side, where `s`
//! is the wide element's slot. The op is then register work only: shifts, masks and ors.

use super::{Kernel, Tv, arith::int_width, class_of};
use crate::sink::{RegClass, Sink};
use tilec_ir::{Op, Type};

impl Kernel<'_> {
    pub(crate) fn emit_pack(&mut self, op: Op) {
        let m = self.m;
        let (src_v, res) = (m.operand(op, 0), m.result(op, 0));
        let src = self.tile(src_v);
        let layout = self.layout_of(res);
        let relem = self.elem(res);
        let types = &m.ctx.types;
        let (sw, rw) = (types.storage_bits(src.elem), types.storage_bits(relem));
        let mut regs = vec![String::new(); layout.slots()];
        if sw > rw {
            // Each source element is cut into 2^k pieces, in the slots above its own.
            let k = (sw / rw).trailing_zeros();
            if src.layout.slots() << k != layout.slots() {
                return self.error_at_op(op, "internal error: pack/unpack layouts disagree");
            }
            for (s, r) in src.regs.iter().enumerate() {
                let bits = self.elem_pattern(src.elem, r);
                for j in 0..1u32 << k {
                    let piece = self.bits_piece(&bits, sw, j * rw, rw);
                    regs[s << k | j as usize] = self.elem_of_pattern(relem, &piece);
                }
            }
        } else {
            // Each result element gathers 2^k source elements from the slots above its own.
            let k = (rw / sw).trailing_zeros();
            if layout.slots() << k != src.layout.slots() {
                return self.error_at_op(op, "internal error: pack/unpack layouts disagree");
            }
            let wide = rw == 64;
            for (s, out) in regs.iter_mut().enumerate() {
                let acc = self.reg(if wide { RegClass::B64 } else { RegClass::B32 });
                for j in 0..1usize << k {
                    let bits = self.elem_pattern(src.elem, &src.regs[s << k | j]);
                    let shift = j as u32 * sw;
                    if wide {
                        let w = self.reg(RegClass::B64);
                        self.ins(format!("cvt.u64.u32 {w}, {bits};"));
                        if j == 0 {
                            self.ins(format!("mov.b64 {acc}, {w};"));
                        } else {
                            self.ins(format!("shl.b64 {w}, {w}, {shift};"));
                            self.ins(format!("or.b64 {acc}, {acc}, {w};"));
                        }
                    } else if j == 0 {
                        self.ins(format!("mov.b32 {acc}, {bits};"));
                    } else {
                        let w = self.reg(RegClass::B32);
                        self.ins(format!("shl.b32 {w}, {bits}, {shift};"));
                        self.ins(format!("or.b32 {acc}, {acc}, {w};"));
                    }
                }
                *out = self.elem_of_pattern(relem, &acc);
            }
        }
        self.set_tile(
            res,
            Tv {
                layout,
                regs,
                elem: relem,
            },
        );
    }

    /// The packed bit pattern of one element (zero above its width): a `.b32`, or a `.b64`
    /// for the 64-bit types.
    pub(crate) fn elem_pattern(&mut self, elem: Type, x: &str) -> String {
        match class_of(elem) {
            RegClass::Pred => {
                let r = self.reg(RegClass::B32);
                self.ins(format!("selp.b32 {r}, 1, 0, {x};"));
                r
            }
            RegClass::B32 => {
                let w = int_width(elem);
                self.zext(w, x)
            }
            RegClass::B16 => {
                let r = self.reg(RegClass::B32);
                self.ins(format!("cvt.u32.u16 {r}, {x};"));
                r
            }
            RegClass::F32 => {
                let r = self.reg(RegClass::B32);
                self.ins(format!("mov.b32 {r}, {x};"));
                r
            }
            RegClass::F64 => {
                let r = self.reg(RegClass::B64);
                self.ins(format!("mov.b64 {r}, {x};"));
                r
            }
            RegClass::B64 => x.to_string(),
        }
    }

    /// Bits `at .. at + w` of a `.b32` (`sw` <= 32) or `.b64` pattern, as a `.b32` with
    /// zeros above.
    fn bits_piece(&mut self, bits: &str, sw: u32, at: u32, w: u32) -> String {
        let r = self.reg(RegClass::B32);
        if sw == 64 {
            let t = self.reg(RegClass::B64);
            self.ins(format!("shr.b64 {t}, {bits}, {at};"));
            self.ins(format!("cvt.u32.u64 {r}, {t};"));
        } else {
            self.ins(format!("shr.b32 {r}, {bits}, {at};"));
        }
        if at + w < 32 || sw == 64 && w < 32 {
            self.ins(format!("and.b32 {r}, {r}, {};", (1u64 << w) - 1));
        }
        r
    }

    /// An element of `elem` from its packed bit pattern (zero above its width; a `.b64`
    /// for the 64-bit types).
    pub(crate) fn elem_of_pattern(&mut self, elem: Type, bits: &str) -> String {
        match class_of(elem) {
            RegClass::Pred => {
                let p = self.reg(RegClass::Pred);
                self.ins(format!("setp.ne.b32 {p}, {bits}, 0;"));
                p
            }
            RegClass::B32 => {
                let r = self.reg(RegClass::B32);
                self.ins(format!("mov.b32 {r}, {bits};"));
                self.norm(int_width(elem), &r);
                r
            }
            RegClass::B16 => {
                let r = self.reg(RegClass::B16);
                self.ins(format!("cvt.u16.u32 {r}, {bits};"));
                r
            }
            RegClass::F32 => {
                let r = self.reg(RegClass::F32);
                if elem == Type::TF32 {
                    // The interpreter keeps the 19 bits of a tf32 (its memory form's top).
                    let t = self.reg(RegClass::B32);
                    self.ins(format!("and.b32 {t}, {bits}, -8192;"));
                    self.ins(format!("mov.b32 {r}, {t};"));
                } else {
                    self.ins(format!("mov.b32 {r}, {bits};"));
                }
                r
            }
            RegClass::F64 => {
                let r = self.reg(RegClass::F64);
                self.ins(format!("mov.b64 {r}, {bits};"));
                r
            }
            RegClass::B64 => bits.to_string(),
        }
    }
}

//! Vector global memory accesses: `ld.global.v2/.v4` and `st.global.v2/.v4`.
//!
//! A vector access covers `w` register slots of one thread (2 or 4; 8 or 16 for 16-bit
//! and 8-bit integer elements, moved as `.b32` words; at most 16 bytes).
//! It is used when all of these hold (otherwise the access stays one `ld`/`st` per slot):
//!
//! * the layout's register bits `0..log2(w)` are element bits `0..log2(w)`, the lowest
//!   bits of the innermost tile dimension, so slots `s0..s0+w` (`s0` a multiple of `w`)
//!   hold `w` consecutive elements along it, and the first has an innermost coordinate
//!   that is a multiple of `w`;
//! * their addresses are consecutive: through a view, the innermost tile dimension maps to
//!   a view dimension of static stride 1; through a tile of pointers, the pointers form
//!   runs of at least `w` consecutive elements (axis analysis, [`crate::axis`]);
//! * the first address is a multiple of `w * element size` bytes: from the divisibility
//!   of the view's base address, of the other dimensions' strides and of the tile index
//!   (views), or of the first pointer of each run (pointer tiles);
//! * the guard is the same for the `w` elements: masks of pointer accesses must be
//!   constant over runs of `w` (constancy); view bounds are uniform when the size of the
//!   innermost view dimension is a multiple of `w` (then a vector is entirely in or
//!   entirely out of bounds). When it is not, a view access is split: the vector access
//!   runs when the whole vector is in bounds, and one `ld`/`st` per element, each with its
//!   own bound, runs for a vector that is partly in bounds. Nothing out of bounds is
//!   ever accessed.
//!
//! `.i1` tiles (stored as bytes with a conversion) stay scalar. Memory ordering qualifiers
//! are kept: PTX allows `.relaxed`/`.acquire`/`.release` with `.v2`/`.v4`, and models a
//! vector access as the accesses of its elements in no particular order, which is all a
//! tile access promises.

use super::mma::{PRMT_LOW_BYTES, PRMT_LOW_HALVES};
use super::{Dim, Kernel, View, elem_bytes, mem_type};
use crate::layout::Layout;
use crate::sink::{RegClass, Sink};
use tilec_gpuir::vectorize::{AlignCheck, Vector};
use tilec_ir::{Op, Type};

/// How a view access is vectorised.
#[derive(Clone, Debug)]
pub(crate) struct VectorPlan {
    /// Elements per vector (1: scalar).
    pub width: usize,
    pub bounds: Bounds,
    /// Run-time alignment checks: `(register, mask)`; the vectors are taken only when
    /// every `register & mask` is zero (the bounds are then [`Bounds::Split`]).
    pub checks: Vec<(String, u64)>,
    /// The tile dimension the vectors run along (the view's innermost in memory).
    pub dim: usize,
}

/// How the bounds of a view vector are checked.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Bounds {
    /// A vector is entirely in or entirely out of bounds: one predicate.
    Uniform,
    /// A vector may straddle the end of the innermost dimension: a vector access when it
    /// is entirely in bounds, per-element accesses when it is partly in bounds.
    Split,
}

impl Kernel<'_> {
    /// The vectors gpu-vectorize recorded on access `op` ([`Vector::of`]); one element at
    /// a time (with an error) when the width does not fit the layout, which the GPU-level
    /// verifier refuses first.
    pub(crate) fn recorded_vector(
        &mut self,
        op: Op,
        layout: &Layout,
        shape: &[i64],
        elem: Type,
    ) -> Vector {
        let v = Vector::of(self.m, op);
        let dim = v.dim.unwrap_or(shape.len().saturating_sub(1));
        let most = tilec_gpuir::sizes::vector_slots_along(layout, shape, elem, dim);
        if v.width > 1 && (!v.width.is_power_of_two() || v.width > most) {
            self.error_at_op(
                op,
                &format!(
                    "ttg.vector width {} does not fit the access's layout (at most {most})",
                    v.width
                ),
            );
            return Vector::SCALAR;
        }
        v
    }

    /// A view access's recorded vectors, with its run-time alignment checks as
    /// `(register, mask)` pairs: the base address to the vector's bytes, a dynamic stride
    /// to its elements (each register once).
    pub(crate) fn recorded_vector_plan(
        &mut self,
        op: Op,
        view: &View,
        layout: &Layout,
        shape: &[i64],
    ) -> VectorPlan {
        let v = self.recorded_vector(op, layout, shape, view.elem);
        let size = elem_bytes(view.elem) as u64;
        let w = v.width as u64;
        let mut checks: Vec<(String, u64)> = Vec::new();
        for c in &v.checks {
            let (r, mask) = match c {
                AlignCheck::Base => (view.base.clone(), w * size - 1),
                AlignCheck::Stride(d) => match view.strides.get(*d) {
                    Some(Dim::Dyn(r)) => (r.clone(), w - 1),
                    _ => continue,
                },
            };
            if !checks.iter().any(|(c, _)| *c == r) {
                checks.push((r, mask));
            }
        }
        VectorPlan {
            width: v.width,
            bounds: if v.split || !checks.is_empty() {
                Bounds::Split
            } else {
                Bounds::Uniform
            },
            checks,
            dim: v.dim.unwrap_or(shape.len().saturating_sub(1)),
        }
    }

    /// Loads `dsts.len()` consecutive elements from `addr` with one vector `ld`.
    pub(crate) fn load_vec(
        &mut self,
        ld: &str,
        elem: Type,
        addr: &str,
        dsts: &[String],
        pred: Option<&str>,
    ) {
        let guard = pred.map(|p| format!("@{p} ")).unwrap_or_default();
        if let Some(words) = packed_words(elem, dsts.len()) {
            // Whole `.b32` words, then each element out of its word, under the same guard
            // (a masked-off vector keeps the padding already in `dsts`).
            let ws: Vec<String> = (0..words).map(|_| self.reg(RegClass::B32)).collect();
            self.ins(format!(
                "{guard}{ld}.v{words}.b32 {{{}}}, {addr};",
                ws.join(", ")
            ));
            let per = dsts.len() / words;
            for (w, d) in ws.iter().zip(dsts.chunks(per)) {
                match elem {
                    Type::F16 | Type::BF16 => {
                        self.ins(format!("{guard}mov.b32 {{{}, {}}}, {w};", d[0], d[1]));
                    }
                    // i16 and i8 are held sign-extended in `.b32` registers.
                    _ => {
                        let bits = 32 / per;
                        for (j, dj) in d.iter().enumerate() {
                            self.ins(format!("{guard}bfe.s32 {dj}, {w}, {}, {bits};", j * bits));
                        }
                    }
                }
            }
            return;
        }
        let ty = mem_type(elem);
        self.ins(format!(
            "{guard}{ld}.v{}{ty} {{{}}}, {addr};",
            dsts.len(),
            dsts.join(", ")
        ));
    }

    /// Stores `srcs.len()` consecutive elements to `addr` with one vector `st`.
    pub(crate) fn store_vec(
        &mut self,
        st: &str,
        elem: Type,
        addr: &str,
        srcs: &[String],
        pred: Option<&str>,
    ) {
        let guard = pred.map(|p| format!("@{p} ")).unwrap_or_default();
        if let Some(words) = packed_words(elem, srcs.len()) {
            let per = srcs.len() / words;
            let ws: Vec<String> = srcs
                .chunks(per)
                .map(|s| {
                    let w = self.reg(RegClass::B32);
                    match (elem, per) {
                        (Type::F16 | Type::BF16, _) => {
                            self.ins(format!("mov.b32 {w}, {{{}, {}}};", s[0], s[1]));
                        }
                        (_, 2) => self.ins(format!(
                            "prmt.b32 {w}, {}, {}, {PRMT_LOW_HALVES:#06x};",
                            s[0], s[1]
                        )),
                        _ => {
                            let (lo, hi) = (self.reg(RegClass::B32), self.reg(RegClass::B32));
                            let pair = PRMT_LOW_BYTES;
                            self.ins(format!("prmt.b32 {lo}, {}, {}, {pair:#06x};", s[0], s[1]));
                            self.ins(format!("prmt.b32 {hi}, {}, {}, {pair:#06x};", s[2], s[3]));
                            self.ins(format!("prmt.b32 {w}, {lo}, {hi}, {PRMT_LOW_HALVES:#06x};"));
                        }
                    }
                    w
                })
                .collect();
            self.ins(format!(
                "{guard}{st}.v{words}.b32 {addr}, {{{}}};",
                ws.join(", ")
            ));
            return;
        }
        let ty = match elem {
            Type::I4
            | Type::I8
            | Type::F8E4M3FN
            | Type::F8E5M2
            | Type::F8E8M0FNU
            | Type::F4E2M1FN => ".u8",
            Type::I16 => ".u16",
            _ => mem_type(elem),
        };
        self.ins(format!(
            "{guard}{st}.v{}{ty} {addr}, {{{}}};",
            srcs.len(),
            srcs.join(", ")
        ));
    }
}

pub(crate) use tilec_gpuir::sizes::packed_words;

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
use crate::axis::{MAX_DIV, lowbit};
use crate::layout::Layout;
use crate::sink::{RegClass, Sink};
use tilec_ir::{Type, Value};

/// How a view access is vectorised.
#[derive(Clone, Debug)]
pub(crate) struct VectorPlan {
    /// Elements per vector (1: scalar).
    pub width: usize,
    pub bounds: Bounds,
    /// Run-time alignment checks: `(register, mask)`; the vectors are taken only when
    /// every `register & mask` is zero (the bounds are then [`Bounds::Split`]).
    pub checks: Vec<(String, u64)>,
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
    /// The most slots one access can cover for this layout, tile shape and element type
    /// ([`tilec_gpuir::sizes::vector_slots`]).
    pub(crate) fn vector_slots(layout: &Layout, shape: &[i64], elem: Type) -> usize {
        tilec_gpuir::sizes::vector_slots(layout, shape, elem)
    }

    /// The vector width for a view access (1: scalar) and how its bounds are checked,
    /// when the IR proves every vector aligned (what an async copy, which has no
    /// fallback, may use).
    pub(crate) fn view_vector(
        &self,
        view_v: Value,
        view: &View,
        index: &[Value],
        shape: &[i64],
        layout: &Layout,
    ) -> (usize, Bounds) {
        let plan = self.vector_plan(view_v, view, index, shape, layout, false);
        (plan.width, plan.bounds)
    }

    /// The vector width for a view access. What the IR proves comes first; when it proves
    /// no vector at all, the alignment of the view's base address and of its dynamic
    /// strides is checked when the kernel runs: `checks` are `(register, mask)` pairs whose
    /// `register & mask` must all be zero for the vector accesses to be taken (every
    /// vector is then aligned); otherwise, and for a vector partly in bounds, the elements
    /// are accessed one by one.
    pub(crate) fn view_vector_checked(
        &self,
        view_v: Value,
        view: &View,
        index: &[Value],
        shape: &[i64],
        layout: &Layout,
    ) -> VectorPlan {
        let proved = self.vector_plan(view_v, view, index, shape, layout, false);
        if proved.width > 1 {
            return proved;
        }
        self.vector_plan(view_v, view, index, shape, layout, true)
    }

    fn vector_plan(
        &self,
        view_v: Value,
        view: &View,
        index: &[Value],
        shape: &[i64],
        layout: &Layout,
        runtime: bool,
    ) -> VectorPlan {
        let scalar = VectorPlan {
            width: 1,
            bounds: Bounds::Uniform,
            checks: Vec::new(),
        };
        let elem = view.elem;
        let mut w = Self::vector_slots(layout, shape, elem);
        if w < 2 {
            return scalar;
        }
        let Some(info) = self.axis.view(view_v) else {
            return scalar;
        };
        let inner = shape.len() - 1;
        let d_in = view.dim_map.get(inner).copied().unwrap_or(inner);
        if !matches!(view.strides.get(d_in), Some(Dim::Static(1))) {
            return scalar;
        }
        let size = elem_bytes(elem) as u64;
        // Divisibility (bytes) of the address of each vector's first element, from what
        // the IR proves; with `runtime`, the base address and the dynamic strides of the
        // other dimensions are left to a check when the kernel runs (`dynamic`).
        let base_checked = runtime && info.base_div < w as u64 * size && view.base.starts_with('%');
        let mut align = if base_checked { MAX_DIV } else { info.base_div };
        let mut dynamic: Vec<&str> = Vec::new();
        for (i, dim) in shape.iter().enumerate() {
            let d = view.dim_map.get(i).copied().unwrap_or(i);
            let term = if i == inner {
                // index * step + (thread and slot parts, multiples of w)
                let tile = view.step.as_ref().and_then(|t| t.get(i)).copied();
                let from_index = index.get(i).map_or(MAX_DIV, |ix| {
                    let div = self.axis.info(self.m, *ix).elem_div();
                    div.saturating_mul(lowbit(tile.unwrap_or(*dim)))
                });
                from_index.min(w as u64)
            } else {
                let div = info.stride_div.get(d).copied().unwrap_or(1);
                match view.strides.get(d) {
                    Some(Dim::Dyn(r)) if runtime && div < w as u64 => {
                        dynamic.push(r);
                        MAX_DIV
                    }
                    _ => div,
                }
            };
            align = align.min(term.saturating_mul(size));
        }
        while w > 1 && align < w as u64 * size {
            w /= 2;
        }
        if w < 2 {
            return scalar;
        }
        let mut checks = Vec::new();
        if base_checked {
            checks.push((view.base.clone(), w as u64 * size - 1));
        }
        for r in dynamic {
            if !checks.iter().any(|(c, _)| c == r) {
                checks.push((r.to_string(), w as u64 - 1));
            }
        }
        let bounds =
            if checks.is_empty() && info.shape_div.get(d_in).copied().unwrap_or(1) >= w as u64 {
                Bounds::Uniform
            } else {
                Bounds::Split
            };
        VectorPlan {
            width: w,
            bounds,
            checks,
        }
    }

    /// The vector width for an access through a tile of pointers (1: scalar).
    pub(crate) fn ptr_vector(
        &self,
        ptrs_v: Value,
        mask_v: Option<Value>,
        shape: &[i64],
        layout: &Layout,
        elem: Type,
    ) -> usize {
        let mut w = Self::vector_slots(layout, shape, elem);
        if w < 2 {
            return 1;
        }
        let inner = shape.len() - 1;
        let size = elem_bytes(elem) as u64;
        let p = self.axis.info(self.m, ptrs_v);
        let mask = mask_v.map(|v| self.axis.info(self.m, v));
        while w > 1 {
            let wu = w as u64;
            let ok = p.contig[inner] >= wu
                && p.first_div(inner, wu) >= wu * size
                && mask.as_ref().is_none_or(|mk| mk.cons[inner] >= wu);
            if ok {
                break;
            }
            w /= 2;
        }
        w
    }

    /// For a pointer access the IR proves no vector for: the widest run of pointers it
    /// proves consecutive (the layout's vector), to be taken as one vector access when the
    /// kernel runs and finds the first pointer aligned and the whole run unmasked (the
    /// elements one by one otherwise); 1 when the pointers are not proven consecutive.
    pub(crate) fn ptr_vector_checked(
        &self,
        ptrs_v: Value,
        shape: &[i64],
        layout: &Layout,
        elem: Type,
    ) -> usize {
        let w = Self::vector_slots(layout, shape, elem);
        if w < 2 {
            return 1;
        }
        let inner = shape.len() - 1;
        let p = self.axis.info(self.m, ptrs_v);
        if p.contig[inner] >= w as u64 { w } else { 1 }
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

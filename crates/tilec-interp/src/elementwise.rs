//! Elementwise ops: float and integer arithmetic, bitwise ops, comparisons, math functions
//! and conversions. Operands of an elementwise op all have the result's shape (tile IR
//! broadcasts explicitly), so each op is one loop over the elements.
//!
//! Float arithmetic (`addf`, `subf`, `mulf`, `divf`, `fma`, `sqrt`, `remf`, min/max) and
//! the conversions are exact to the element type, rounding mode and flush-to-zero
//! ([`crate::fp`]). The transcendental functions are computed in f64 by Rust's `std` (the
//! platform libm) and rounded once to the element type: for f16, bf16, tf32 and the f8
//! types that is correctly rounded except in rare cases within 2^-40 of a rounding
//! boundary; for f32 the result is within 1 ulp; f64 results have libm's accuracy.

use crate::exec::{Ctx, R, int_width, mask};
use crate::fp;
use crate::value::Tile;
use tilec_ir::attrs::{
    AttrData, ComparisonOrdering, ComparisonPredicate, EnumKind, Overflow, RoundingMode, Signedness,
};
use tilec_ir::float::{FloatKind, Round, round_from_f64_with, to_f64};
use tilec_ir::util::sign_extend;
use tilec_ir::{Module, Op, Opcode, Type};

/// A conversion to an f8 kind saturates: a finite or infinite operand whose rounded value
/// is out of range (infinity for F8E5M2, NaN for F8E4M3FN, which has no infinity) gives
/// the largest finite value of its sign; NaN operands stay NaN. The spec does not say
/// what `ftof` does on overflow; this is what NVIDIA's compiler does (tileiras lowers
/// `ftof` to f8 to `F2FP.SATFINITE`, as tilec's PTX backend uses `cvt.satfinite`, the only
/// f8 conversion PTX has).
fn saturate_f8(from: FloatKind, to: FloatKind, x: u64, r: u64) -> u64 {
    let special = tilec_ir::float::is_nan(to, r) || to_f64(to, r).is_infinite();
    if !special || tilec_ir::float::is_nan(from, x) {
        return r;
    }
    let neg = to_f64(from, x).is_sign_negative();
    tilec_ir::float::max_finite(to, neg)
}

/// The float kind of an element type.
pub(crate) fn kind_of(m: &Module, t: Type) -> R<FloatKind> {
    tilec_ir::attrs::float_kind(&m.ctx.types, t)
        .ok_or_else(|| "internal error: expected a float element type".to_string())
}

/// The rounding direction of a `rounding_mode` case (`approx` and `full` round to nearest;
/// `nearest_int_to_zero` is a float-to-int rounding toward zero).
pub(crate) fn round_of(case: Option<u8>) -> Round {
    match case {
        Some(1) | Some(6) => Round::TowardZero,
        Some(2) => Round::TowardNegative,
        Some(3) => Round::TowardPositive,
        _ => Round::NearestEven,
    }
}

impl Ctx<'_, '_> {
    fn rounding(&self, op: Op) -> Round {
        round_of(self.enum_attr(op, "rounding_mode", EnumKind::RoundingMode))
    }

    /// Whether `op` (a `divf` or `sqrt`) rounds `approx` or `full`: a result within a few
    /// ulps, not the correctly rounded one.
    fn approximate(&self, op: Op) -> bool {
        matches!(
            self.enum_attr(op, "rounding_mode", EnumKind::RoundingMode),
            Some(c) if c == RoundingMode::Approx as u8 || c == RoundingMode::Full as u8
        )
    }

    fn ftz(&self, op: Op) -> bool {
        self.m.attr_named(op, "flush_to_zero").is_some()
    }

    fn signed(&self, op: Op) -> bool {
        self.enum_attr(op, "signedness", EnumKind::Signedness) != Some(Signedness::Unsigned as u8)
    }

    fn operand_tiles(&self, op: Op) -> R<Vec<&Tile>> {
        self.m.operands(op).map(|v| self.tile(v)).collect()
    }

    /// Sets result 0 of `op` to `bits` with the result's type.
    fn result_bits(&mut self, op: Op, bits: Vec<u64>) {
        let r = self.m.result(op, 0);
        let (elem, shape) = (self.elem_of(r), self.shape_of(r));
        self.set_tile(r, Tile { elem, shape, bits });
    }

    pub(crate) fn elementwise(&mut self, op: Op) -> R<()> {
        use Opcode as O;
        let m = self.m;
        let opcode = m.opcode(op);
        let ts = self.operand_tiles(op)?;
        let a = ts.first().copied().ok_or("operation without operands")?;
        let n = a.len();
        let res_elem = self.elem_of(m.result(op, 0));
        let bits: Vec<u64> = match opcode {
            // ---- float arithmetic
            O::AddF
            | O::SubF
            | O::MulF
            | O::DivF
            | O::RemF
            | O::MaxF
            | O::MinF
            | O::MaximumF
            | O::MinimumF
            | O::PowF
            | O::Atan2 => {
                let k = kind_of(m, a.elem)?;
                let b = ts[1];
                let (mode, ftz) = (self.rounding(op), self.ftz(op));
                let prop = m.attr_named(op, "propagate_nan").is_some();
                let perturb = self.variant.perturb;
                let approx = self.approximate(op);
                let f: Box<dyn Fn(u64, u64) -> u64> = match opcode {
                    O::AddF => Box::new(move |x, y| fp::add(k, x, y, mode, ftz)),
                    O::SubF => Box::new(move |x, y| fp::sub(k, x, y, mode, ftz)),
                    O::MulF => Box::new(move |x, y| fp::mul(k, x, y, mode, ftz)),
                    O::DivF if approx => {
                        Box::new(move |x, y| perturbed(k, fp::div(k, x, y, mode, ftz), perturb))
                    }
                    O::DivF => Box::new(move |x, y| fp::div(k, x, y, mode, ftz)),
                    O::RemF => Box::new(move |x, y| fp::rem(k, x, y)),
                    O::MaxF => {
                        Box::new(move |x, y| fp::max(k, ftz_in(k, x, ftz), ftz_in(k, y, ftz), prop))
                    }
                    O::MinF => {
                        Box::new(move |x, y| fp::min(k, ftz_in(k, x, ftz), ftz_in(k, y, ftz), prop))
                    }
                    O::MaximumF => {
                        Box::new(move |x, y| fp::max(k, ftz_in(k, x, ftz), ftz_in(k, y, ftz), true))
                    }
                    O::MinimumF => {
                        Box::new(move |x, y| fp::min(k, ftz_in(k, x, ftz), ftz_in(k, y, ftz), true))
                    }
                    O::PowF => Box::new(move |x, y| libm2(k, x, y, f64::powf, perturb)),
                    _ => Box::new(move |x, y| libm2(k, x, y, f64::atan2, perturb)),
                };
                (0..n).map(|i| f(a.bits[i], b.bits[i])).collect()
            }
            O::Fma => {
                let k = kind_of(m, a.elem)?;
                let (b, c) = (ts[1], ts[2]);
                let (mode, ftz) = (self.rounding(op), self.ftz(op));
                (0..n)
                    .map(|i| fp::fma(k, a.bits[i], b.bits[i], c.bits[i], mode, ftz))
                    .collect()
            }
            O::AbsF => {
                let k = kind_of(m, a.elem)?;
                a.bits.iter().map(|x| fp::abs(k, *x)).collect()
            }
            O::NegF => {
                let k = kind_of(m, a.elem)?;
                a.bits.iter().map(|x| fp::neg(k, *x)).collect()
            }
            O::Sqrt => {
                let k = kind_of(m, a.elem)?;
                let (mode, ftz) = (self.rounding(op), self.ftz(op));
                let perturb = if self.approximate(op) {
                    self.variant.perturb
                } else {
                    0.0
                };
                a.bits
                    .iter()
                    .map(|x| perturbed(k, fp::sqrt(k, *x, mode, ftz), perturb))
                    .collect()
            }
            O::Ceil
            | O::Floor
            | O::Rsqrt
            | O::RecipF
            | O::Exp
            | O::Exp2
            | O::Log
            | O::Log2
            | O::Log10
            | O::Log1p
            | O::Sin
            | O::Cos
            | O::Tan
            | O::SinH
            | O::CosH
            | O::TanH
            | O::TanHF
            | O::Sigmoid => {
                let k = kind_of(m, a.elem)?;
                let ftz = self.ftz(op);
                let f: fn(f64) -> f64 = match opcode {
                    O::Ceil => f64::ceil,
                    O::Floor => f64::floor,
                    O::Rsqrt => |x| 1.0 / x.sqrt(),
                    O::RecipF => |x| 1.0 / x,
                    O::Exp => f64::exp,
                    O::Exp2 => f64::exp2,
                    O::Log => f64::ln,
                    O::Log2 => f64::log2,
                    O::Log10 => f64::log10,
                    O::Log1p => f64::ln_1p,
                    O::Sin => f64::sin,
                    O::Cos => f64::cos,
                    O::Tan => f64::tan,
                    O::SinH => f64::sinh,
                    O::CosH => f64::cosh,
                    O::TanH | O::TanHF => f64::tanh,
                    _ => |x| 1.0 / (1.0 + (-x).exp()),
                };
                // Rounding up or down is exact: no other result is legitimate.
                let scale = 1.0
                    + if matches!(opcode, O::Ceil | O::Floor) {
                        0.0
                    } else {
                        self.variant.perturb
                    };
                a.bits
                    .iter()
                    .map(|x| {
                        let x = ftz_in(k, *x, ftz);
                        ftz_in(k, libm_result(k, f(libm_arg(k, x)) * scale), ftz)
                    })
                    .collect()
            }
            O::CmpF => {
                let k = kind_of(m, a.elem)?;
                let b = ts[1];
                let pred = self
                    .enum_attr(op, "comparison_predicate", EnumKind::ComparisonPredicate)
                    .unwrap_or(0);
                let unordered =
                    self.enum_attr(op, "comparison_ordering", EnumKind::ComparisonOrdering)
                        == Some(ComparisonOrdering::Unordered as u8);
                (0..n)
                    .map(|i| match fp::compare(k, a.bits[i], b.bits[i]) {
                        None => u64::from(unordered),
                        Some(o) => u64::from(predicate_holds(pred, o)),
                    })
                    .collect()
            }
            // ---- integers
            O::CmpI => {
                let w = int_width(a.elem);
                let b = ts[1];
                let signed = self.signed(op);
                let pred = self
                    .enum_attr(op, "comparison_predicate", EnumKind::ComparisonPredicate)
                    .unwrap_or(0);
                (0..n)
                    .map(|i| {
                        let o = int_cmp(a.bits[i], b.bits[i], w, signed);
                        u64::from(predicate_holds(pred, o))
                    })
                    .collect()
            }
            O::AddI | O::SubI | O::MulI | O::ShLI => {
                let w = int_width(a.elem);
                let b = ts[1];
                let ov = self
                    .enum_attr(op, "overflow", EnumKind::Overflow)
                    .unwrap_or(0);
                let nsw = ov == Overflow::NoSignedWrap as u8 || ov == Overflow::NoWrap as u8;
                let nuw = ov == Overflow::NoUnsignedWrap as u8 || ov == Overflow::NoWrap as u8;
                let mut out = Vec::with_capacity(n);
                for i in 0..n {
                    let (x, y) = (a.bits[i], b.bits[i]);
                    let (sx, sy) = (sign_extend(x, w) as i128, sign_extend(y, w) as i128);
                    let (ux, uy) = (x as i128, y as i128);
                    let (s, u) = match opcode {
                        O::AddI => (sx + sy, ux + uy),
                        O::SubI => (sx - sy, ux - uy),
                        // An unsigned i64 product can pass i128's range; it then
                        // certainly overflows.
                        O::MulI => (sx * sy, ux.checked_mul(uy).unwrap_or(i128::MAX)),
                        _ => {
                            if y >= w as u64 {
                                return Err(format!(
                                    "shift amount {y} is not less than the width {w}"
                                ));
                            }
                            (sx << y, ux << y)
                        }
                    };
                    let smin = -(1i128 << (w - 1));
                    let smax = (1i128 << (w - 1)) - 1;
                    if nsw && w > 1 && !(smin..=smax).contains(&s) {
                        return Err(format!(
                            "'{}' overflows as signed ({sx} and {sy} in i{w}) although marked no_signed_wrap",
                            m.def(op).name
                        ));
                    }
                    if nuw && !(0..(1i128 << w)).contains(&u) {
                        return Err(format!(
                            "'{}' overflows as unsigned ({ux} and {uy} in i{w}) although marked no_unsigned_wrap",
                            m.def(op).name
                        ));
                    }
                    let low = match opcode {
                        O::AddI => x.wrapping_add(y),
                        O::SubI => x.wrapping_sub(y),
                        O::MulI => x.wrapping_mul(y),
                        _ => x << y,
                    };
                    out.push(low & mask(w));
                }
                out
            }
            O::AndI | O::OrI | O::XOrI => {
                let b = ts[1];
                (0..n)
                    .map(|i| match opcode {
                        O::AndI => a.bits[i] & b.bits[i],
                        O::OrI => a.bits[i] | b.bits[i],
                        _ => a.bits[i] ^ b.bits[i],
                    })
                    .collect()
            }
            O::NotI | O::NegSI | O::AbsI => {
                let w = int_width(a.elem);
                a.bits
                    .iter()
                    .map(|x| {
                        let s = sign_extend(*x, w);
                        (match opcode {
                            O::NotI => !x,
                            O::NegSI => s.wrapping_neg() as u64,
                            _ => s.wrapping_abs() as u64,
                        }) & mask(w)
                    })
                    .collect()
            }
            O::MaxI | O::MinI => {
                let w = int_width(a.elem);
                let b = ts[1];
                let signed = self.signed(op);
                (0..n)
                    .map(|i| {
                        let o = int_cmp(a.bits[i], b.bits[i], w, signed);
                        let take_a = if opcode == O::MaxI {
                            o.is_ge()
                        } else {
                            o.is_le()
                        };
                        if take_a { a.bits[i] } else { b.bits[i] }
                    })
                    .collect()
            }
            O::DivI | O::RemI => {
                let w = int_width(a.elem);
                let b = ts[1];
                let signed = self.signed(op);
                let rounding = round_of(
                    self.enum_attr(op, "rounding", EnumKind::RoundingMode)
                        .or(Some(1)),
                );
                let mut out = Vec::with_capacity(n);
                for i in 0..n {
                    let (x, y) = (a.bits[i], b.bits[i]);
                    if y == 0 {
                        return Err(format!("integer division by zero in '{}'", m.def(op).name));
                    }
                    let (x, y) = if signed {
                        (sign_extend(x, w) as i128, sign_extend(y, w) as i128)
                    } else {
                        (x as i128, y as i128)
                    };
                    let q = x / y; // toward zero
                    let r = x % y;
                    let v = if opcode == O::RemI {
                        r
                    } else {
                        let inexact = r != 0;
                        let neg = (x < 0) != (y < 0);
                        match rounding {
                            Round::TowardNegative if inexact && neg => q - 1,
                            Round::TowardPositive if inexact && !neg => q + 1,
                            _ => q,
                        }
                    };
                    if signed && w > 1 && v > (1i128 << (w - 1)) - 1 {
                        return Err(format!("signed division overflows i{w}"));
                    }
                    out.push(v as u64 & mask(w));
                }
                out
            }
            O::MulHI => {
                // The high half of the unsigned product (mulhi has no signedness: the
                // spec defines it for unsigned integers only).
                let w = int_width(a.elem);
                let b = ts[1];
                (0..n)
                    .map(|i| {
                        ((u128::from(a.bits[i]) * u128::from(b.bits[i])) >> w) as u64 & mask(w)
                    })
                    .collect()
            }
            O::ShRI => {
                let w = int_width(a.elem);
                let b = ts[1];
                let signed = self.signed(op);
                let mut out = Vec::with_capacity(n);
                for i in 0..n {
                    let y = b.bits[i];
                    if y >= w as u64 {
                        return Err(format!("shift amount {y} is not less than the width {w}"));
                    }
                    let v = if signed {
                        (sign_extend(a.bits[i], w) >> y) as u64
                    } else {
                        a.bits[i] >> y
                    };
                    out.push(v & mask(w));
                }
                out
            }
            O::PopCnt | O::Clz | O::Ctz | O::Brev => {
                let w = int_width(a.elem);
                a.bits
                    .iter()
                    .map(|x| match opcode {
                        O::PopCnt => x.count_ones() as u64,
                        O::Clz => (x.leading_zeros() - (64 - w)) as u64,
                        O::Ctz => (x.trailing_zeros().min(w)) as u64,
                        _ => x.reverse_bits() >> (64 - w),
                    })
                    .collect()
            }
            // ---- conversions
            O::Bitcast | O::IntToPtr | O::PtrToInt | O::PtrToPtr => {
                let from = tilec_ir::attrs::float_kind(&m.ctx.types, a.elem);
                let to = tilec_ir::attrs::float_kind(&m.ctx.types, res_elem);
                // TF32 patterns are 19 bits; as a 32-bit word they are the top 19 bits.
                a.bits
                    .iter()
                    .map(|x| match (from, to) {
                        (Some(FloatKind::TF32), _) => crate::mem::to_memory(FloatKind::TF32, *x),
                        (_, Some(FloatKind::TF32)) => crate::mem::from_memory(FloatKind::TF32, *x),
                        _ => *x,
                    })
                    .collect()
            }
            O::ExtI => {
                let (wf, wt) = (int_width(a.elem), int_width(res_elem));
                let signed = self.signed(op);
                a.bits
                    .iter()
                    .map(|x| {
                        if signed {
                            sign_extend(*x, wf) as u64 & mask(wt)
                        } else {
                            *x
                        }
                    })
                    .collect()
            }
            O::TruncI => {
                let (wf, wt) = (int_width(a.elem), int_width(res_elem));
                let ov = self
                    .enum_attr(op, "overflow", EnumKind::Overflow)
                    .unwrap_or(0);
                let nsw = ov == Overflow::NoSignedWrap as u8 || ov == Overflow::NoWrap as u8;
                let nuw = ov == Overflow::NoUnsignedWrap as u8 || ov == Overflow::NoWrap as u8;
                let mut out = Vec::with_capacity(n);
                for x in &a.bits {
                    let t = x & mask(wt);
                    if nuw && t != *x {
                        return Err(format!(
                            "'trunci' loses bits of {x} although marked no_unsigned_wrap"
                        ));
                    }
                    if nsw && sign_extend(t, wt) != sign_extend(*x, wf) {
                        return Err(format!(
                            "'trunci' changes the signed value {} although marked no_signed_wrap",
                            sign_extend(*x, wf)
                        ));
                    }
                    out.push(t);
                }
                out
            }
            O::FToF => {
                let (kf, kt) = (kind_of(m, a.elem)?, kind_of(m, res_elem)?);
                let mode = self.rounding(op);
                let f8 = matches!(kt, FloatKind::F8E4M3FN | FloatKind::F8E5M2);
                a.bits
                    .iter()
                    .map(|x| {
                        let r = fp::convert(kf, kt, *x, mode, false);
                        if f8 { saturate_f8(kf, kt, *x, r) } else { r }
                    })
                    .collect()
            }
            O::FToI => {
                let k = kind_of(m, a.elem)?;
                let (w, signed, mode) = (int_width(res_elem), self.signed(op), self.rounding(op));
                // The spec: "Input `Inf` values are undefined behavior."
                if let Some(i) = a.bits.iter().position(|x| to_f64(k, *x).is_infinite()) {
                    return Err(format!(
                        "'ftoi' of an infinite value (element {i}) is undefined behavior"
                    ));
                }
                a.bits
                    .iter()
                    .map(|x| fp::to_int(k, *x, w, signed, mode))
                    .collect()
            }
            O::IToF => {
                let k = kind_of(m, res_elem)?;
                let (w, signed, mode) = (int_width(a.elem), self.signed(op), self.rounding(op));
                a.bits
                    .iter()
                    .map(|x| fp::from_int(*x, w, signed, k, mode))
                    .collect()
            }
            other => {
                return Err(format!(
                    "the interpreter cannot run '{}' ({other:?})",
                    m.def(op).name
                ));
            }
        };
        self.result_bits(op, bits);
        Ok(())
    }
}

/// `x`, read as a zero of its sign when it is subnormal and `ftz` is set.
fn ftz_in(k: FloatKind, x: u64, ftz: bool) -> u64 {
    if ftz { fp::flush_subnormal(k, x) } else { x }
}

/// A two-argument libm function in f64, times 1 + `perturb` ([`crate::Variant`]),
/// rounded once to `k`.
fn libm2(k: FloatKind, x: u64, y: u64, f: fn(f64, f64) -> f64, perturb: f64) -> u64 {
    libm_result(k, f(libm_arg(k, x), libm_arg(k, y)) * (1.0 + perturb))
}

/// `x` times 1 + `perturb` ([`crate::Variant`]), rounded to nearest; `x` itself when
/// `perturb` is 0 or `x` is not finite.
fn perturbed(k: FloatKind, x: u64, perturb: f64) -> u64 {
    let v = to_f64(k, x);
    if perturb == 0.0 || !v.is_finite() {
        x
    } else {
        round_from_f64_with(k, v * (1.0 + perturb), Round::NearestEven)
    }
}

/// A math function's argument for the host's libm: a NaN as the quiet NaN, so that a
/// signaling f64 NaN gets what every other NaN gets (glibc's `pow(1, sNaN)` is NaN, its
/// `pow(1, qNaN)` 1; a narrower type's NaN is quiet already once widened).
fn libm_arg(k: FloatKind, x: u64) -> f64 {
    let v = to_f64(k, x);
    if v.is_nan() { f64::NAN } else { v }
}

/// A math function's f64 result rounded once to `k`; a NaN is [`fp::canonical_nan`] (the
/// module's rule that no NaN payload passes through an operation: `cos` of the f16 NaN
/// `0x7E00` is `0x7FFF`, as on the GPU, not `0x7E00` again).
fn libm_result(k: FloatKind, v: f64) -> u64 {
    if v.is_nan() {
        fp::canonical_nan(k)
    } else {
        round_from_f64_with(k, v, Round::NearestEven)
    }
}

fn int_cmp(x: u64, y: u64, w: u32, signed: bool) -> std::cmp::Ordering {
    if signed {
        sign_extend(x, w).cmp(&sign_extend(y, w))
    } else {
        x.cmp(&y)
    }
}

fn predicate_holds(pred: u8, o: std::cmp::Ordering) -> bool {
    use std::cmp::Ordering::*;
    match pred {
        p if p == ComparisonPredicate::Equal as u8 => o == Equal,
        p if p == ComparisonPredicate::NotEqual as u8 => o != Equal,
        p if p == ComparisonPredicate::LessThan as u8 => o == Less,
        p if p == ComparisonPredicate::LessThanOrEqual as u8 => o != Greater,
        p if p == ComparisonPredicate::GreaterThan as u8 => o == Greater,
        _ => o != Less,
    }
}

/// Checks an `assume` predicate on a tile; a violation is undefined behaviour.
/// `div_by<d, every n along k>` constrains the elements whose coordinate along dimension
/// `k` is a multiple of `n`; `bounded` compares signed values; `same_elements` is not
/// checked.
pub(crate) fn check_assume(t: &Tile, p: &AttrData) -> R<()> {
    let w = int_width(t.elem);
    match p {
        AttrData::DivBy {
            divisor,
            every,
            along,
        } => {
            let d = *divisor;
            if d == 0 {
                return Ok(());
            }
            let mut coords = vec![0i64; t.shape.len()];
            for (i, x) in t.bits.iter().enumerate() {
                if let (Some(n), Some(k)) = (every, along) {
                    crate::value::coords_of(&t.shape, i, &mut coords);
                    let c = coords.get(*k as usize).copied().unwrap_or(0);
                    if *n > 0 && c % n != 0 {
                        continue;
                    }
                }
                if x % d != 0 {
                    return Err(format!(
                        "'assume div_by<{d}>' is violated: {} is not a multiple of {d}",
                        sign_extend(*x, w)
                    ));
                }
            }
        }
        AttrData::Bounded { lb, ub } => {
            for x in &t.bits {
                let v = sign_extend(*x, w);
                if lb.is_some_and(|l| v < l) || ub.is_some_and(|u| v > u) {
                    return Err(format!(
                        "'assume bounded<{}, {}>' is violated by {v}",
                        lb.map_or("?".into(), |l| l.to_string()),
                        ub.map_or("?".into(), |u| u.to_string())
                    ));
                }
            }
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_to_f8_saturate() {
        use FloatKind::{F8E4M3FN as E4, F8E5M2 as E5, F32};
        let conv = |to, x: f32| {
            let x = u64::from(x.to_bits());
            saturate_f8(
                F32,
                to,
                x,
                fp::convert(F32, to, x, Round::NearestEven, false),
            )
        };
        // Largest finite values: E4M3FN 448 (0x7e), E5M2 57344 (0x7b).
        for (to, max) in [(E4, 0x7e), (E5, 0x7b)] {
            for x in [1e6f32, f32::INFINITY, f32::MAX] {
                assert_eq!(conv(to, x), max, "{to:?} {x}");
                assert_eq!(conv(to, -x), max | 0x80, "{to:?} -{x}");
            }
            assert!(tilec_ir::float::is_nan(to, conv(to, f32::NAN)));
            assert_eq!(conv(to, 1.0), if to == E4 { 0x38 } else { 0x3c });
        }
        // 464 lies halfway between 448 and 480, past E4M3FN's range: saturated.
        assert_eq!(conv(E4, 464.0), 0x7e);
        assert_eq!(conv(E4, 448.0), 0x7e);
        assert_eq!(conv(E4, 440.0), 0x7e);
        assert_eq!(conv(E4, 416.0), 0x7d);
        // E5M2: 61440 is halfway to the next binade (65536); it rounds up and saturates.
        assert_eq!(conv(E5, 61440.0), 0x7b);
        assert_eq!(conv(E5, 57344.0), 0x7b);
    }
}

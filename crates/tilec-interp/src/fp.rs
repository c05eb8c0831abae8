//! Floating-point semantics of the reference interpreter.
//!
//! Every value is the bit pattern of a [`FloatKind`] in the low
//! [`FloatKind::bit_width`] bits of a `u64` (bits above are ignored on input
//! and zero on output). Every operation computes its result **exactly** and
//! rounds it **once** with the requested IEEE 754 rounding direction, for
//! every kind (f64 included), so the results are correctly rounded in every
//! mode:
//!
//! * the operands are decoded into integer significands (at most 53 bits)
//!   and exponents;
//! * `+`, `-`, `*`, fused multiply-add, `/` and square root are carried out
//!   on `u128` integers: products are exact (106 bits), sums are aligned in a
//!   128-bit window with a sticky bit standing for whatever lies below it
//!   (see `exact_sum` for why that is exact as far as rounding goes),
//!   quotients and roots are computed to at least 62 bits with the remainder
//!   kept as a sticky bit;
//! * the exact value, `(significand + sticky fraction) * 2^exponent`, is
//!   rounded once by [`tilec_ir::float::round_exact`].
//!
//! # Choices where the spec is silent
//!
//! The spec (`tile-ir-operations.md`, sections 8.4 and 8.7) gives the
//! operations, their rounding-mode and `flush_to_zero` attributes and, for
//! `ftoi`, `itof`, `maxf` and `minf`, the special cases. Everything else
//! follows IEEE 754-2019 and, where IEEE leaves a choice to the
//! implementation, what NVIDIA GPUs (PTX) do:
//!
//! * **NaN results** are always [`canonical_nan`]: a NaN operand never
//!   passes its payload or sign through an arithmetic operation or a
//!   conversion (NVIDIA GPUs return one canonical NaN from single- and
//!   half-precision arithmetic, f32 `0x7FFFFFFF`, f16 `0x7FFF`).
//! * **Flush to zero** (`ftz`, the spec's `flush_to_zero`: "flushes subnormal
//!   inputs and results to sign-preserving zero", as PTX `.ftz`): subnormal
//!   operands read as zeros of their own sign, and a result whose correctly
//!   rounded value (with gradual underflow) is subnormal is replaced by a
//!   zero of its sign; that is, tininess is judged after rounding, so an
//!   exact result just below the smallest normal that rounds up to it is
//!   kept. PTX does not document which; this is also what `float::add` (the
//!   constant folder) does. The spec allows the flag on f32 only; the functions
//!   apply it to any kind.
//! * **Overflow** gives infinity when the direction rounds away from zero and
//!   the largest finite value when it rounds toward zero (IEEE 754 7.4); for
//!   F8E4M3FN, which has no infinity, NaN takes the place of infinity (the
//!   spec's `itof` rule: "converted to `Inf` for types that support that
//!   value, and `NaN` otherwise").
//! * **Exact zero results** of sums take IEEE's signs: `x + (-x)` and
//!   `(+0) + (-0)` are `+0`, or `-0` under [`Round::TowardNegative`].
//!
//! The `RoundingMode` attribute values `approx` and `full` (f32 `divf`
//! only) are not IEEE directions and have no counterpart here; they stand
//! for PTX's `div.approx.f32` and `div.full.f32`, approximations (within 2
//! ulp for `full`) of the round-to-nearest quotient, so a caller wanting a
//! deterministic reference passes [`Round::NearestEven`] for them.
//! `nearest_int_to_zero`, the only mode the verifier allows on `ftoi`, is
//! [`Round::TowardZero`] for [`to_int`].

use std::cmp::Ordering;

use tilec_ir::float::{self, FloatKind, Round};

/// A decoded operand.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Val {
    Nan,
    /// An infinity with its sign (`true` for negative).
    Inf(bool),
    /// A zero with its sign.
    Zero(bool),
    /// A finite nonzero value `(-1)^neg * m * 2^e` with `0 < m < 2^53`.
    Fin(bool, u64, i32),
}

/// All `bit_width()` bits set.
fn mask(k: FloatKind) -> u64 {
    let w = k.bit_width();
    if w >= 64 { u64::MAX } else { (1u64 << w) - 1 }
}

/// The sign bit (0 for the unsigned F8E8M0FNU).
fn sign_bit(k: FloatKind) -> u64 {
    if k.is_signed() {
        1u64 << (k.bit_width() - 1)
    } else {
        0
    }
}

/// A zero of `k` with the given sign; for F8E8M0FNU, which has no zero, its smallest
/// value 2^-127 (LLVM's rule).
fn zero(k: FloatKind, neg: bool) -> u64 {
    if !k.has_zero() {
        return 0;
    }
    if neg { sign_bit(k) } else { 0 }
}

/// An infinity of `k` with the given sign; the canonical NaN for F8E4M3FN and F8E8M0FNU,
/// which have none, and the largest finite value of that sign for F4E2M1FN, which has
/// neither (it saturates).
fn infinity(k: FloatKind, neg: bool) -> u64 {
    if k.has_infinity() {
        // The pattern just above the largest finite value: the biased exponent
        // field all ones with a zero fraction.
        float::max_finite(k, neg) + 1
    } else if !k.has_nan() {
        float::max_finite(k, neg)
    } else {
        // For F8E8M0FNU a negative value has no representation either: NaN too.
        canonical_nan(k)
    }
}

/// Decode `bits` (masked to the width of `k`); with `ftz`, subnormals read as
/// zeros of their sign.
fn unpack(k: FloatKind, bits: u64, ftz: bool) -> Val {
    let bits = bits & mask(k);
    let neg = bits & sign_bit(k) != 0;
    if float::is_nan(k, bits) {
        return Val::Nan;
    }
    if float::is_infinite(k, bits) {
        return Val::Inf(neg);
    }
    if ftz && float::is_subnormal(k, bits) {
        return Val::Zero(neg);
    }
    // Every value of every kind is exactly an f64.
    let v = float::to_f64(k, bits);
    if v == 0.0 {
        return Val::Zero(neg);
    }
    let b = v.to_bits();
    let biased = ((b >> 52) & 0x7ff) as i32;
    let frac = b & ((1u64 << 52) - 1);
    if biased == 0 {
        Val::Fin(neg, frac, -1074)
    } else {
        Val::Fin(neg, frac | (1u64 << 52), biased - 1075)
    }
}

/// Round the exact value `(-1)^neg * (m + f) * 2^e` (`f` in `[0, 1)`, nonzero
/// exactly when `sticky`) into `k`, then apply the NaN and flush-to-zero
/// policies of this module.
fn finish(k: FloatKind, neg: bool, m: u128, e: i32, sticky: bool, mode: Round, ftz: bool) -> u64 {
    let r = float::round_exact(k, neg, m, e, sticky, mode);
    if float::is_nan(k, r) {
        // Overflow of F8E4M3FN.
        return canonical_nan(k);
    }
    if ftz && float::is_subnormal(k, r) {
        return zero(k, neg);
    }
    r
}

/// Bit length of a `u128` (0 for 0).
fn bits128(v: u128) -> i32 {
    (128 - v.leading_zeros()) as i32
}

/// The exact sum of two nonzero terms `(-1)^neg * m * 2^e` with significands
/// below `2^106` (two operands, or a product and an operand), as
/// `Some((neg, m, e, sticky))` meaning `(-1)^neg * (m + f) * 2^e` with `f` in
/// `[0, 1)` nonzero exactly when `sticky`; `None` when the sum is exactly zero.
///
/// Why this is exact enough: let `x` be the term whose leading bit `tx` is the
/// higher (or equal) one. Both terms are placed in a window whose unit is
/// `2^E` with `E = tx - 125`, so `x` (at most 106 bits, all at or above
/// `2^(tx - 105)`) becomes an integer `X < 2^126` exactly. The other term `y`
/// becomes `Y + f` with an integer `Y` and a fraction `f` in `[0, 1)`. If
/// `f != 0`, `y` has bits below `2^E`, so its leading bit is below
/// `2^(E + 106) = 2^(tx - 19)`: then `|y| < |x| / 2^19`, the window holds no
/// cancellation, and:
///
/// * same signs: `X + Y + f`, integer part `X + Y`, sticky;
/// * opposite signs: `X - Y - f = (X - Y - 1) + (1 - f)` with `1 - f` in
///   `(0, 1)`, integer part `X - Y - 1`, sticky, sign of `x`.
///
/// The integer part is then at least `2^125 - 2^106 - 1`, far above the
/// `2^(precision + 1)` that [`float::round_exact`] needs with a sticky bit.
/// If `f == 0` the sum `X ± Y` is computed exactly (no sticky), and its sign
/// follows the larger magnitude.
fn exact_sum(
    (xneg, xm, xe): (bool, u128, i32),
    (yneg, ym, ye): (bool, u128, i32),
) -> Option<(bool, u128, i32, bool)> {
    debug_assert!(xm != 0 && ym != 0 && xm >> 106 == 0 && ym >> 106 == 0);
    let (tx, ty) = (bits128(xm) - 1 + xe, bits128(ym) - 1 + ye);
    let ((xneg, xm, xe), (yneg, ym, ye)) = if tx >= ty {
        ((xneg, xm, xe), (yneg, ym, ye))
    } else {
        ((yneg, ym, ye), (xneg, xm, xe))
    };
    let top = tx.max(ty);
    let e = top - 125;
    // `xe - e = 126 - bits(xm)` lies in [20, 125], so `x < 2^126`.
    let x = xm << (xe - e) as u32;
    let (y, frac) = if ye >= e {
        // The leading bit of y is at most `top`, so `y < 2^126`.
        (ym << (ye - e) as u32, false)
    } else {
        let sh = (e - ye) as u32;
        if sh >= 128 {
            (0, true)
        } else {
            (ym >> sh, ym & ((1u128 << sh) - 1) != 0)
        }
    };
    if xneg == yneg {
        return Some((xneg, x + y, e, frac));
    }
    if frac {
        // |y| < |x| / 2^19 here (see above), so x - y - 1 does not underflow.
        return Some((xneg, x - y - 1, e, true));
    }
    match x.cmp(&y) {
        Ordering::Greater => Some((xneg, x - y, e, false)),
        Ordering::Less => Some((yneg, y - x, e, false)),
        Ordering::Equal => None,
    }
}

/// The zero an exact cancellation gives (IEEE 754 6.3): `+0`, or `-0` when
/// rounding toward negative infinity.
fn cancel_zero(k: FloatKind, mode: Round) -> u64 {
    zero(k, mode == Round::TowardNegative)
}

/// The sum of two zeros (IEEE 754 6.3): a zero of their common sign, else
/// the cancellation zero.
fn zero_sum(k: FloatKind, a: bool, b: bool, mode: Round) -> u64 {
    if a == b {
        zero(k, a)
    } else {
        cancel_zero(k, mode)
    }
}

/// The NaN every operation of this module returns for a NaN result: the
/// positive quiet NaN with every fraction bit set, i.e. all bits but the sign:
///
/// | kind | canonical NaN |
/// |---|---|
/// | f16, bf16 | `0x7FFF` |
/// | f32 | `0x7FFF_FFFF` |
/// | f64 | `0x7FFF_FFFF_FFFF_FFFF` |
/// | tf32 (19 bits) | `0x3_FFFF` |
/// | F8E4M3FN, F8E5M2 | `0x7F` |
///
/// For f32, f16 and bf16 these are the NaNs NVIDIA GPUs produce: their
/// single- and half-precision arithmetic returns one canonical NaN,
/// `0x7FFFFFFF` for f32 (CUDA's `CUDART_NAN_F`) and `0x7FFF` for f16 and
/// bf16 (`CUDART_NAN_FP16`, `CUDART_NAN_BF16`). The other kinds use the same
/// all-ones pattern: for tf32 it is the f32 canonical NaN cut to its top 19
/// bits (what `cvt.rna.tf32.f32` keeps), for F8E4M3FN it is the only positive
/// NaN. For f64 the hardware propagates NaN payloads rather than
/// canonicalizing (and CUDA's own constant `CUDART_NAN` is
/// `0xFFF8000000000000`); the interpreter does not model payloads and uses the
/// all-ones pattern for uniformity.
///
/// F8E8M0FNU's only NaN is `0xFF`; F4E2M1FN has no NaN, and tilec converts a NaN to its
/// largest value, `+6` (`0x7`), which the same expression gives.
#[must_use]
pub fn canonical_nan(k: FloatKind) -> u64 {
    if k.is_signed() { mask(k) >> 1 } else { mask(k) }
}

/// Replace a subnormal `bits` by a zero of the same sign (other values are
/// returned masked, unchanged): how `flush_to_zero` treats operands, for ops
/// such as `maxf`/`minf` whose result is one of their operands.
#[must_use]
pub fn flush_subnormal(k: FloatKind, bits: u64) -> u64 {
    let bits = bits & mask(k);
    if float::is_subnormal(k, bits) {
        bits & sign_bit(k)
    } else {
        bits
    }
}

/// `negf`: flips the sign bit, for every value including NaNs (IEEE 754
/// 5.5.1: a quiet bit operation, not arithmetic, so no canonicalization).
#[must_use]
pub fn neg(k: FloatKind, a: u64) -> u64 {
    (a ^ sign_bit(k)) & mask(k)
}

/// `absf`: clears the sign bit, for every value including NaNs (IEEE 754
/// 5.5.1).
#[must_use]
pub fn abs(k: FloatKind, a: u64) -> u64 {
    a & mask(k) & !sign_bit(k)
}

// ---- fast paths
//
// In round-to-nearest-even without flush-to-zero, the host's own f64 arithmetic gives the
// same results as the exact computation below, much faster: an f64 operation is correctly
// rounded to 53 bits, and for `+`, `-`, `*`, `/` and square root of operands of a format
// with p <= 25 significand bits, rounding that result again to the format is correctly
// rounded, because 53 >= 2p + 2 (double rounding is innocuous: Figueroa, "When is double
// rounding innocuous?", 1995). f64 operations are the host's directly. `fma` rounds the
// f64 sum of the exact product and `c` to odd (the error of the sum is recovered exactly
// with Knuth's two-sum), and a round-to-odd result with p + 2 <= 53 bits rounds correctly
// to the format. NaN results take the exact path, which gives [`canonical_nan`].

/// The kinds with fast paths: the ones that matter for speed. (The f8 kinds and tf32 are
/// left to the exact path, which also gives F8E4M3FN's overflow its canonical NaN.)
#[inline]
fn fast_kind(k: FloatKind) -> bool {
    matches!(
        k,
        FloatKind::F64 | FloatKind::F32 | FloatKind::F16 | FloatKind::BF16
    )
}

/// The value of `bits` of kind `k`, as an f64 (exact).
#[inline]
fn fast_in(k: FloatKind, bits: u64) -> f64 {
    match k {
        FloatKind::F64 => f64::from_bits(bits),
        FloatKind::F32 => f64::from(f32::from_bits(bits as u32)),
        FloatKind::BF16 => f64::from(f32::from_bits(((bits as u32) & 0xffff) << 16)),
        _ => {
            let (s, e, m) = ((bits >> 15) & 1, (bits >> 10) & 0x1f, bits & 0x3ff);
            let mag = match e {
                0 => m as f64 * (1.0 / 16_777_216.0),
                0x1f if m == 0 => f64::INFINITY,
                0x1f => f64::NAN,
                _ => f64::from_bits(((e + 1008) << 52) | (m << 42)),
            };
            if s == 1 { -mag } else { mag }
        }
    }
}

/// The exact value of `bits` (masked to kind `k`) as an f64.
#[inline]
fn value(k: FloatKind, bits: u64) -> f64 {
    if fast_kind(k) {
        fast_in(k, bits & mask(k))
    } else {
        float::to_f64(k, bits)
    }
}

/// `v` rounded to nearest even in kind `k`; `None` for a NaN.
#[inline]
fn fast_out(k: FloatKind, v: f64) -> Option<u64> {
    if v.is_nan() {
        return None;
    }
    Some(match k {
        FloatKind::F64 => v.to_bits(),
        FloatKind::F32 => u64::from((v as f32).to_bits()),
        FloatKind::BF16 => {
            // f32 keeps 16 more bits than bf16, so a round-to-odd f32 rounds correctly.
            let b = f32_round_to_odd(v).to_bits();
            u64::from((b + 0x7fff + ((b >> 16) & 1)) >> 16)
        }
        _ => f32_to_f16(f32_round_to_odd(v)),
    })
}

/// `v` rounded to f32 to odd: the nearest f32 when exact, otherwise whichever neighbour
/// of `v` has an odd last bit. (Rounding that to a format with at least 2 fewer bits is
/// the correct rounding of `v`.)
#[inline]
fn f32_round_to_odd(v: f64) -> f32 {
    let r = v as f32;
    let b = r.to_bits();
    if f64::from(r) == v || b & 1 == 1 || r.is_infinite() {
        return r;
    }
    // r is inexact with an even last bit: step to its neighbour on v's side.
    f32::from_bits(if f64::from(r).abs() < v.abs() {
        b + 1
    } else {
        b - 1
    })
}

/// An f32 (not NaN) rounded to nearest even in f16.
#[inline]
fn f32_to_f16(x: f32) -> u64 {
    let b = x.to_bits();
    let sign = u64::from((b >> 16) & 0x8000);
    let a = b & 0x7fff_ffff;
    if a >= 0x477f_f000 {
        // 65520 and above (f16's largest finite value plus half an ulp) overflow.
        return sign | 0x7c00;
    }
    if a < 0x3880_0000 {
        // Below 2^-14: a subnormal (or zero, or the smallest normal after rounding), whose
        // significand is the value in units of 2^-24, rounded to an integer.
        let m = (f32::from_bits(a) * 16_777_216.0).round_ties_even() as u64;
        return sign | m;
    }
    let e = u64::from((a >> 23) + 15 - 127);
    let mant = u64::from(a & 0x7f_ffff);
    let mut h = (e << 10) | (mant >> 13);
    let rest = mant & 0x1fff;
    if rest > 0x1000 || (rest == 0x1000 && h & 1 == 1) {
        h += 1;
    }
    sign | h
}

/// The fast path of a binary operation, where one applies (see above).
#[inline]
fn fast2(
    k: FloatKind,
    a: u64,
    b: u64,
    mode: Round,
    ftz: bool,
    f: fn(f64, f64) -> f64,
) -> Option<u64> {
    if mode != Round::NearestEven || ftz || !fast_kind(k) {
        return None;
    }
    fast_out(k, f(fast_in(k, a), fast_in(k, b)))
}

/// The fast path of `fma`, where one applies (see above).
#[inline]
fn fast_fma(k: FloatKind, a: u64, b: u64, c: u64, mode: Round, ftz: bool) -> Option<u64> {
    if mode != Round::NearestEven || ftz || !fast_kind(k) {
        return None;
    }
    let (x, y, z) = (fast_in(k, a), fast_in(k, b), fast_in(k, c));
    if k == FloatKind::F64 {
        return fast_out(k, x.mul_add(y, z));
    }
    // Exact: at most 2 x 24 significand bits, exponents well inside f64's range.
    let p = x * y;
    let s = p + z;
    if !s.is_finite() {
        return None;
    }
    let bb = s - p;
    let err = (p - (s - bb)) + (z - bb);
    let s = if err != 0.0 && s.to_bits() & 1 == 0 {
        // Round to odd: the neighbour of `s` on the side of the exact sum.
        let bits = s.to_bits();
        f64::from_bits(if (err > 0.0) == (s > 0.0) {
            bits + 1
        } else {
            bits - 1
        })
    } else {
        s
    };
    fast_out(k, s)
}

/// The operations with a fast path for directed rounding and flush-to-zero.
#[derive(Clone, Copy)]
enum FastOp {
    Add,
    Sub,
    Mul,
    Div,
    Sqrt,
    Fma,
}

/// The fast path for every rounding mode and flush-to-zero, in f16, bf16 and f32: the exact
/// result rounded to odd in f64, then rounded once to the element type in `mode` (rounding
/// to odd at 53 bits and then to p <= 51 bits is correct in every IEEE direction; Boldo
/// and Melquiond, "When double rounding is odd", 2005). Products of two operands are exact
/// in f64; the error of a sum is recovered by two-sum, that of a quotient or square root by
/// its remainder, computed exactly with one fused multiply-add. Zero, infinite and NaN
/// results take the exact path (for the signs of exact zeros and the canonical NaN).
/// `ftz` reads subnormal operands as zeros of their sign and flushes a subnormal rounded
/// result, as the exact path does.
#[inline]
fn fast_any(
    k: FloatKind,
    op: FastOp,
    a: u64,
    b: u64,
    c: u64,
    mode: Round,
    ftz: bool,
) -> Option<u64> {
    let min_normal = match k {
        FloatKind::F32 | FloatKind::BF16 => f64::from(f32::MIN_POSITIVE),
        FloatKind::F16 => 1.0 / 16384.0,
        _ => return None,
    };
    let flush = |v: f64| {
        if ftz && v != 0.0 && v.abs() < min_normal {
            0.0f64.copysign(v)
        } else {
            v
        }
    };
    let (x, y, z) = (
        flush(fast_in(k, a)),
        flush(fast_in(k, b)),
        flush(fast_in(k, c)),
    );
    // `v` inexact: its neighbour with an odd last bit on the side of the exact value.
    let odd = |v: f64, exact_above: bool| {
        let bits = v.to_bits();
        if bits & 1 == 1 {
            v
        } else if exact_above == (v > 0.0) {
            f64::from_bits(bits + 1)
        } else {
            f64::from_bits(bits - 1)
        }
    };
    let v = match op {
        FastOp::Add | FastOp::Sub | FastOp::Fma => {
            let (p, q) = match op {
                FastOp::Add => (x, y),
                FastOp::Sub => (x, -y),
                _ => (x * y, z),
            };
            let s = p + q;
            if !s.is_finite() || s == 0.0 {
                return None;
            }
            let bb = s - p;
            let err = (p - (s - bb)) + (q - bb);
            if err == 0.0 { s } else { odd(s, err > 0.0) }
        }
        FastOp::Mul => x * y,
        FastOp::Div => {
            let q = x / y;
            if !q.is_finite() || q == 0.0 {
                return None;
            }
            let r = (-q).mul_add(y, x);
            if r == 0.0 {
                q
            } else {
                odd(q, (r > 0.0) == (y > 0.0))
            }
        }
        FastOp::Sqrt => {
            let q = x.sqrt();
            if !q.is_finite() || q == 0.0 {
                return None;
            }
            let r = (-q).mul_add(q, x);
            if r == 0.0 { q } else { odd(q, r > 0.0) }
        }
    };
    if !v.is_finite() || v == 0.0 {
        return None;
    }
    let r = float::round_from_f64_with(k, v, mode);
    Some(if ftz && float::is_subnormal(k, r) {
        r & sign_bit(k)
    } else {
        r
    })
}

/// `addf`: the correctly rounded `a + b` in direction `mode`.
///
/// NaN operands and `inf + (-inf)` give [`canonical_nan`]; `inf + x` is that
/// infinity. Zeros follow IEEE 754 6.3: `x + 0 = x`, a sum of zeros of the
/// same sign keeps it, and an exact cancellation is `+0` (`-0` under
/// [`Round::TowardNegative`]). `ftz` flushes subnormal operands and results to
/// zeros of their sign (see the module documentation).
#[must_use]
pub fn add(k: FloatKind, a: u64, b: u64, mode: Round, ftz: bool) -> u64 {
    fast2(k, a, b, mode, ftz, |x, y| x + y)
        .or_else(|| fast_any(k, FastOp::Add, a, b, 0, mode, ftz))
        .unwrap_or_else(|| add_exact(k, a, b, mode, ftz))
}

/// [`add`] computed exactly (no fast path).
fn add_exact(k: FloatKind, a: u64, b: u64, mode: Round, ftz: bool) -> u64 {
    add_vals(k, unpack(k, a, ftz), unpack(k, b, ftz), mode, ftz)
}

/// `subf`: the correctly rounded `a - b`, computed as `a + (-b)` (which is
/// what IEEE 754 defines it as, signed zeros included); see [`add`].
#[must_use]
pub fn sub(k: FloatKind, a: u64, b: u64, mode: Round, ftz: bool) -> u64 {
    fast2(k, a, b, mode, ftz, |x, y| x - y)
        .or_else(|| fast_any(k, FastOp::Sub, a, b, 0, mode, ftz))
        .unwrap_or_else(|| sub_exact(k, a, b, mode, ftz))
}

/// [`sub`] computed exactly (no fast path).
fn sub_exact(k: FloatKind, a: u64, b: u64, mode: Round, ftz: bool) -> u64 {
    let b = match unpack(k, b, ftz) {
        Val::Nan => Val::Nan,
        Val::Inf(s) => Val::Inf(!s),
        Val::Zero(s) => Val::Zero(!s),
        Val::Fin(s, m, e) => Val::Fin(!s, m, e),
    };
    add_vals(k, unpack(k, a, ftz), b, mode, ftz)
}

fn add_vals(k: FloatKind, a: Val, b: Val, mode: Round, ftz: bool) -> u64 {
    match (a, b) {
        (Val::Nan, _) | (_, Val::Nan) => canonical_nan(k),
        (Val::Inf(x), Val::Inf(y)) if x != y => canonical_nan(k),
        (Val::Inf(x), _) | (_, Val::Inf(x)) => infinity(k, x),
        (Val::Zero(x), Val::Zero(y)) => zero_sum(k, x, y, mode),
        // x + 0 = x exactly; x is not subnormal under ftz (it would be a zero).
        (Val::Zero(_), Val::Fin(s, m, e)) | (Val::Fin(s, m, e), Val::Zero(_)) => {
            finish(k, s, u128::from(m), e, false, mode, ftz)
        }
        (Val::Fin(xs, xm, xe), Val::Fin(ys, ym, ye)) => {
            match exact_sum((xs, u128::from(xm), xe), (ys, u128::from(ym), ye)) {
                Some((s, m, e, sticky)) => finish(k, s, m, e, sticky, mode, ftz),
                None => cancel_zero(k, mode),
            }
        }
    }
}

/// `mulf`: the correctly rounded `a * b` in direction `mode`.
///
/// NaN operands and `0 * inf` give [`canonical_nan`]; otherwise the sign is
/// the exclusive or of the operands' signs (zeros and infinities included).
/// The product of the two significands (at most 106 bits) is exact and is
/// rounded once. `ftz` as in [`add`].
#[must_use]
pub fn mul(k: FloatKind, a: u64, b: u64, mode: Round, ftz: bool) -> u64 {
    fast2(k, a, b, mode, ftz, |x, y| x * y)
        .or_else(|| fast_any(k, FastOp::Mul, a, b, 0, mode, ftz))
        .unwrap_or_else(|| mul_exact(k, a, b, mode, ftz))
}

/// [`mul`] computed exactly (no fast path).
fn mul_exact(k: FloatKind, a: u64, b: u64, mode: Round, ftz: bool) -> u64 {
    match (unpack(k, a, ftz), unpack(k, b, ftz)) {
        (Val::Nan, _) | (_, Val::Nan) => canonical_nan(k),
        (Val::Inf(_), Val::Zero(_)) | (Val::Zero(_), Val::Inf(_)) => canonical_nan(k),
        (Val::Inf(x), y) | (y, Val::Inf(x)) => infinity(k, x != sign(y)),
        (Val::Zero(x), y) | (y, Val::Zero(x)) => zero(k, x != sign(y)),
        (Val::Fin(xs, xm, xe), Val::Fin(ys, ym, ye)) => finish(
            k,
            xs != ys,
            u128::from(xm) * u128::from(ym),
            xe + ye,
            false,
            mode,
            ftz,
        ),
    }
}

/// The sign of a non-NaN value.
fn sign(v: Val) -> bool {
    match v {
        Val::Inf(s) | Val::Zero(s) | Val::Fin(s, _, _) => s,
        Val::Nan => false,
    }
}

/// `divf`: the correctly rounded `a / b` in direction `mode`.
///
/// NaN operands, `0 / 0` and `inf / inf` give [`canonical_nan`]; `x / 0` for
/// nonzero `x` is an infinity and `x / inf` a zero, signed by the exclusive or
/// of the signs. The quotient of the significands is computed to at least 73
/// bits with the remainder as a sticky bit, then rounded once. `ftz` as in
/// [`add`] (a subnormal divisor reads as zero, so the quotient is infinite).
#[must_use]
pub fn div(k: FloatKind, a: u64, b: u64, mode: Round, ftz: bool) -> u64 {
    fast2(k, a, b, mode, ftz, |x, y| x / y)
        .or_else(|| fast_any(k, FastOp::Div, a, b, 0, mode, ftz))
        .unwrap_or_else(|| div_exact(k, a, b, mode, ftz))
}

/// [`div`] computed exactly (no fast path).
fn div_exact(k: FloatKind, a: u64, b: u64, mode: Round, ftz: bool) -> u64 {
    let (x, y) = (unpack(k, a, ftz), unpack(k, b, ftz));
    let s = sign(x) != sign(y);
    match (x, y) {
        (Val::Nan, _) | (_, Val::Nan) => canonical_nan(k),
        (Val::Inf(_), Val::Inf(_)) | (Val::Zero(_), Val::Zero(_)) => canonical_nan(k),
        (Val::Inf(_), _) | (_, Val::Zero(_)) => infinity(k, s),
        (Val::Zero(_), _) | (_, Val::Inf(_)) => zero(k, s),
        (Val::Fin(_, xm, xe), Val::Fin(_, ym, ye)) => {
            // xm << sh lies in [2^126, 2^127), so the quotient is at least
            // 2^126 / 2^53 = 2^73.
            let sh = 127 - bits128(u128::from(xm));
            let num = u128::from(xm) << sh as u32;
            let (q, r) = (num / u128::from(ym), num % u128::from(ym));
            finish(k, s, q, xe - sh - ye, r != 0, mode, ftz)
        }
    }
}

/// `fma`: `a * b + c` with a single rounding in direction `mode`.
///
/// NaN operands, `0 * inf` and `inf - inf` (an infinite product plus an
/// opposite infinity) give [`canonical_nan`]. A zero product added to a zero
/// follows the zero-sum rules of [`add`]; otherwise the exact product (106
/// bits) and `c` are summed exactly (`exact_sum`) and rounded once. `ftz`
/// flushes subnormal `a`, `b`, `c` and a subnormal result, never the
/// intermediate product.
#[must_use]
pub fn fma(k: FloatKind, a: u64, b: u64, c: u64, mode: Round, ftz: bool) -> u64 {
    fast_fma(k, a, b, c, mode, ftz)
        .or_else(|| fast_any(k, FastOp::Fma, a, b, c, mode, ftz))
        .unwrap_or_else(|| fma_exact(k, a, b, c, mode, ftz))
}

/// [`fma`] computed exactly (no fast path).
fn fma_exact(k: FloatKind, a: u64, b: u64, c: u64, mode: Round, ftz: bool) -> u64 {
    let (x, y, z) = (unpack(k, a, ftz), unpack(k, b, ftz), unpack(k, c, ftz));
    if x == Val::Nan || y == Val::Nan || z == Val::Nan {
        return canonical_nan(k);
    }
    let ps = sign(x) != sign(y);
    match (x, y) {
        (Val::Inf(_), Val::Zero(_)) | (Val::Zero(_), Val::Inf(_)) => canonical_nan(k),
        (Val::Inf(_), _) | (_, Val::Inf(_)) => match z {
            Val::Inf(zs) if zs != ps => canonical_nan(k),
            _ => infinity(k, ps),
        },
        (Val::Zero(_), _) | (_, Val::Zero(_)) => add_vals(k, Val::Zero(ps), z, mode, ftz),
        (Val::Fin(_, xm, xe), Val::Fin(_, ym, ye)) => {
            let pm = u128::from(xm) * u128::from(ym);
            match z {
                Val::Inf(zs) => infinity(k, zs),
                Val::Zero(_) => finish(k, ps, pm, xe + ye, false, mode, ftz),
                Val::Fin(zs, zm, ze) => {
                    match exact_sum((ps, pm, xe + ye), (zs, u128::from(zm), ze)) {
                        Some((s, m, e, sticky)) => finish(k, s, m, e, sticky, mode, ftz),
                        None => cancel_zero(k, mode),
                    }
                }
                Val::Nan => unreachable!("NaN operands are handled above"),
            }
        }
        _ => unreachable!("NaN operands are handled above"),
    }
}

/// Floor of the square root of `n` (bit by bit).
fn isqrt(n: u128) -> u128 {
    let mut rest = n;
    let mut root = 0u128;
    let mut bit = 1u128 << 126;
    while bit > n {
        bit >>= 2;
    }
    while bit != 0 {
        if rest >= root + bit {
            rest -= root + bit;
            root = (root >> 1) + bit;
        } else {
            root >>= 1;
        }
        bit >>= 2;
    }
    root
}

/// `sqrt`: the correctly rounded square root in direction `mode`.
///
/// `sqrt(±0) = ±0`, `sqrt(+inf) = +inf`; NaN and every negative nonzero
/// operand (`-inf` included) give [`canonical_nan`]. The root of the
/// significand, scaled to 124..126 bits, is computed as a 62..63-bit integer
/// with the remainder as a sticky bit, then rounded once. `ftz` as in [`add`]
/// (a square root is never subnormal, so only the operand is affected).
#[must_use]
pub fn sqrt(k: FloatKind, a: u64, mode: Round, ftz: bool) -> u64 {
    fast2(k, a, 0, mode, ftz, |x, _| x.sqrt())
        .or_else(|| fast_any(k, FastOp::Sqrt, a, 0, 0, mode, ftz))
        .unwrap_or_else(|| sqrt_exact(k, a, mode, ftz))
}

/// [`sqrt`] computed exactly (no fast path).
fn sqrt_exact(k: FloatKind, a: u64, mode: Round, ftz: bool) -> u64 {
    match unpack(k, a, ftz) {
        Val::Nan | Val::Inf(true) | Val::Fin(true, _, _) => canonical_nan(k),
        Val::Inf(false) => infinity(k, false),
        Val::Zero(s) => zero(k, s),
        Val::Fin(false, m, e) => {
            // Scale m to [2^124, 2^126) with an even exponent left over.
            let mut sh = 126 - bits128(u128::from(m));
            if (e - sh) % 2 != 0 {
                sh -= 1;
            }
            let n = u128::from(m) << sh as u32;
            let root = isqrt(n);
            finish(k, false, root, (e - sh) / 2, root * root != n, mode, ftz)
        }
    }
}

/// `remf`: the remainder of `a / b` with the quotient truncated toward zero,
/// C's `fmod`: `a - trunc(a / b) * b`, which is always exact, has the sign of
/// `a` (a zero result keeps `a`'s sign), and needs no rounding mode.
///
/// The spec says remf "follows IEEE-754 semantics" without naming the IEEE
/// `remainder` operation (whose quotient rounds to nearest); this follows
/// `fmod`, the semantics of MLIR's `arith.remf` (LLVM `frem`) that tile IR's
/// `remf` comes from and of CUDA's `fmodf`/`fmod`, and what tilec's PTX
/// lowering computes (`tilec-ptx` `math::misc::rem`).
///
/// Special cases (as `fmod`): a NaN operand, an infinite `a` or a zero `b`
/// give [`canonical_nan`]; a finite `a` with an infinite `b`, and `a = ±0`,
/// give `a`. Subnormals are not flushed (`remf` has no `flush_to_zero`).
#[must_use]
pub fn rem(k: FloatKind, a: u64, b: u64) -> u64 {
    let a = a & mask(k);
    match (unpack(k, a, false), unpack(k, b, false)) {
        (Val::Nan, _) | (_, Val::Nan) | (Val::Inf(_), _) | (_, Val::Zero(_)) => canonical_nan(k),
        (Val::Zero(_), _) | (_, Val::Inf(_)) => a,
        (Val::Fin(s, xm, xe), Val::Fin(_, ym, ye)) => {
            let (ax, ay) = (float::to_f64(k, abs(k, a)), float::to_f64(k, abs(k, b)));
            if ax < ay {
                return a;
            }
            // |a| >= |b| implies xe >= ye: significands are normalized to 53
            // bits (`unpack` goes through f64, where every value of a narrower
            // kind is normal) except for f64 subnormals, which have the least
            // exponent; so for a normal b, 2^(53 + xe) > |a| >= |b| >= 2^(52 + ye).
            debug_assert!(xe >= ye);
            // The remainder is (xm * 2^(xe - ye)) mod ym, in units of 2^ye;
            // shift in at most 64 bits at a time (r < ym < 2^53, so
            // r << 64 < 2^117).
            let ym = u128::from(ym);
            let mut r = u128::from(xm) % ym;
            let mut gap = (xe - ye) as u32;
            while gap > 0 {
                let step = gap.min(64);
                r = (r << step) % ym;
                gap -= step;
            }
            // r * 2^ye < |b| is a multiple of b's quantum: representable.
            finish(k, s, r, ye, false, Round::NearestEven, false)
        }
    }
}

/// The order of two non-NaN values with `-0 < +0`.
fn order_signed_zero(k: FloatKind, a: u64, b: u64) -> Ordering {
    let (x, y) = (value(k, a), value(k, b));
    match x.partial_cmp(&y) {
        Some(Ordering::Equal) | None => {
            // Equal values: only zeros of different signs have different
            // patterns; the negative one is smaller.
            let (sa, sb) = (a & sign_bit(k) != 0, b & sign_bit(k) != 0);
            sb.cmp(&sa)
        }
        Some(o) => o,
    }
}

/// `maxf` / `maximumf`: the larger operand, with `-0 < +0`.
///
/// Without `propagate_nan` (`maxf`, the spec: "If both operands are NaN,
/// returns NaN. If one operand is NaN, returns the non-NaN operand", C's
/// `fmax`, IEEE 754-2019 maximumNumber) a single NaN is ignored; with it
/// (`maxf propagate_nan`, `maximumf`: "If either operand is NaN, returns NaN",
/// IEEE maximum) any NaN operand gives NaN. NaN results are
/// [`canonical_nan`]. The non-NaN result is an operand's pattern unchanged.
///
/// The spec does not order signed zeros; `max(-0, +0) = +0` follows IEEE
/// 754-2019 maximum/maximumNumber and PTX `max` ("If values of both inputs
/// are 0.0, then +0.0 > -0.0"). For `flush_to_zero`, pass the operands
/// through [`flush_subnormal`] first.
#[must_use]
pub fn max(k: FloatKind, a: u64, b: u64, propagate_nan: bool) -> u64 {
    min_max(k, a, b, propagate_nan, Ordering::Greater)
}

/// `minf` / `minimumf`: the smaller operand, with `-0 < +0`; NaN rules as in
/// [`max`] (C's `fmin` without `propagate_nan`, IEEE minimum with it).
#[must_use]
pub fn min(k: FloatKind, a: u64, b: u64, propagate_nan: bool) -> u64 {
    min_max(k, a, b, propagate_nan, Ordering::Less)
}

fn min_max(k: FloatKind, a: u64, b: u64, propagate_nan: bool, pick: Ordering) -> u64 {
    let (a, b) = (a & mask(k), b & mask(k));
    match (value(k, a).is_nan(), value(k, b).is_nan()) {
        (true, true) => canonical_nan(k),
        (true, false) | (false, true) if propagate_nan => canonical_nan(k),
        (true, false) => b,
        (false, true) => a,
        (false, false) => {
            if order_signed_zero(k, a, b) == pick {
                a
            } else {
                b
            }
        }
    }
}

/// `cmpf`: the IEEE 754 comparison of two values; `None` when they are
/// unordered (either is a NaN). `-0` and `+0` compare equal here (unlike in
/// [`max`] and [`min`]). An ordered predicate is true when the result is
/// `Some` and matches; an unordered one also when it is `None`.
#[must_use]
pub fn compare(k: FloatKind, a: u64, b: u64) -> Option<Ordering> {
    let (a, b) = (a & mask(k), b & mask(k));
    if float::is_nan(k, a) || float::is_nan(k, b) {
        return None;
    }
    // Values are exact as f64 and f64 comparison is IEEE comparison.
    value(k, a).partial_cmp(&value(k, b))
}

/// `ftof`: `bits` of kind `from` converted to `to`, correctly rounded in
/// direction `mode`.
///
/// NaN gives `to`'s [`canonical_nan`]; infinities stay infinities (NaN for
/// F8E4M3FN); zeros keep their sign. A finite value out of `to`'s range
/// overflows as in every operation here: infinity (NaN for F8E4M3FN) when
/// rounding away from zero, the largest finite value toward zero. The spec
/// says nothing about `ftof` overflow; this is IEEE 754 and the spec's own
/// rule for `itof`. (PTX's conversions to f8 exist only with `.satfinite`,
/// which clamps to the largest finite value instead; the interpreter keeps
/// the IEEE result.) With `ftz`, a subnormal source reads as a zero and a
/// subnormal result becomes a zero, both of the value's sign.
#[must_use]
pub fn convert(from: FloatKind, to: FloatKind, bits: u64, mode: Round, ftz: bool) -> u64 {
    match unpack(from, bits, ftz) {
        Val::Nan => canonical_nan(to),
        Val::Inf(s) => infinity(to, s),
        Val::Zero(s) => zero(to, s),
        Val::Fin(s, m, e) => finish(to, s, u128::from(m), e, false, mode, ftz),
    }
}

/// Whether rounding the magnitude in direction `mode` for a value of sign
/// `neg` goes away from zero: `Some(true)` away, `Some(false)` toward zero,
/// `None` to nearest (ties to even).
fn away(mode: Round, neg: bool) -> Option<bool> {
    match mode {
        Round::NearestEven => None,
        Round::TowardZero => Some(false),
        Round::TowardPositive => Some(!neg),
        Round::TowardNegative => Some(neg),
    }
}

/// `ftoi`: the value of `bits` rounded to an integer in direction `mode` and
/// returned as a `width`-bit integer (1 to 64 bits; the result is the low
/// `width` bits, two's complement when `signed`).
///
/// The spec: "If the input floating-point value, after being rounded, is
/// outside the (signed or unsigned) range of the target integer type, the
/// closest representable value is used instead. `NaN` values are converted to
/// 0. Input `Inf` values are undefined behavior." For infinities the
/// interpreter saturates like any out-of-range value, as PTX `cvt` to an
/// integer type does (its float-to-integer conversions always saturate, and
/// convert NaN to 0). The signed range of `i1` is `[-1, 0]`, the unsigned one
/// `[0, 1]`. The verifier only allows `nearest_int_to_zero`, which is
/// [`Round::TowardZero`]; the other directions are PTX's `.rni`, `.rmi` and
/// `.rpi`.
#[must_use]
pub fn to_int(k: FloatKind, bits: u64, width: u32, signed: bool, mode: Round) -> u64 {
    assert!((1..=64).contains(&width), "to_int: width {width}");
    let (lo, hi): (i128, i128) = if signed {
        (-(1i128 << (width - 1)), (1i128 << (width - 1)) - 1)
    } else {
        (0, (1i128 << width) - 1)
    };
    let v: i128 = match unpack(k, bits, false) {
        Val::Nan | Val::Zero(_) => 0,
        Val::Inf(s) => {
            if s {
                lo
            } else {
                hi
            }
        }
        Val::Fin(s, m, e) => {
            let mag: i128 = if e >= 0 {
                // m * 2^e >= 2^e: beyond every range once e >= 65.
                if e >= 65 {
                    1i128 << 66
                } else {
                    i128::from(m) << e
                }
            } else {
                let sh = (-e) as u32;
                let (q, rest, half) = if sh >= 64 {
                    // m < 2^53 <= 2^(sh - 1): below half.
                    (0u64, 1u64, u64::MAX)
                } else {
                    (m >> sh, m & ((1u64 << sh) - 1), 1u64 << (sh - 1))
                };
                let up = match away(mode, s) {
                    None => rest > half || (rest == half && q & 1 == 1),
                    Some(a) => a && rest != 0,
                };
                i128::from(q + u64::from(up))
            };
            if s { -mag } else { mag }
        }
    };
    (v.clamp(lo, hi) as u64) & int_mask(width)
}

fn int_mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// `itof`: the `width`-bit integer in the low bits of `bits` (1 to 64 bits,
/// two's complement when `signed`; higher bits are ignored) converted to `k`,
/// correctly rounded in direction `mode`.
///
/// Zero is `+0`. The spec: "If the input integer value, after being rounded,
/// is outside the range of the target floating-point type, it is converted to
/// `Inf` for types that support that value, and `NaN` otherwise" (here
/// [`canonical_nan`]); rounding toward zero keeps the largest finite value,
/// as in IEEE 754. The signed `i1` value 1 is -1.
#[must_use]
pub fn from_int(bits: u64, width: u32, signed: bool, k: FloatKind, mode: Round) -> u64 {
    assert!((1..=64).contains(&width), "from_int: width {width}");
    let bits = bits & int_mask(width);
    let (neg, mag) = if signed && bits >> (width - 1) & 1 == 1 {
        // The two's complement magnitude: 2^width - bits.
        (true, (1u128 << width) - u128::from(bits))
    } else {
        (false, u128::from(bits))
    };
    finish(k, neg, mag, 0, false, mode, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random operands of kind `k`, biased to what the fast paths must get right: nearby
    /// exponents (cancellation, ties), far-apart ones, subnormals, results near overflow,
    /// zeros and infinities.
    fn operand(k: FloatKind, x: &mut u64) -> u64 {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        let w = k.bit_width();
        let r = *x >> (64 - w);
        let (ebits, mbits) = match k {
            FloatKind::F16 => (5, 10),
            FloatKind::BF16 => (8, 7),
            FloatKind::F32 => (8, 23),
            _ => (11, 52),
        };
        let bias = (1u64 << (ebits - 1)) - 1;
        let mant = r & ((1u64 << mbits) - 1);
        let sign = (*x >> 3) & 1;
        let exp = match (*x >> 4) % 8 {
            0 => 0,
            1 => (1u64 << ebits) - 2,
            2 => 1,
            3 if *x & 0x100 == 0 => (1u64 << ebits) - 1,
            3 => 0,
            _ => bias + ((*x >> 9) % 5) - 2,
        };
        let mant = if (*x >> 12).is_multiple_of(4) {
            mant & !0xf
        } else {
            mant
        };
        (sign << (w - 1)) | (exp << mbits) | mant
    }

    #[test]
    fn fast_rounding_to_f16_and_bf16_equals_the_general_rounding() {
        let step = if cfg!(debug_assertions) { 4099 } else { 257 };
        let mut x = 0x9E37_79B9_7F4A_7C15_u64;
        for i in (0..=u32::MAX).step_by(step) {
            let f = f32::from_bits(i);
            if f.is_nan() {
                continue;
            }
            // The f32 itself, and an f64 near it with bits below f32's precision.
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = f64::from(f);
            let near = f64::from_bits(v.to_bits() ^ (x & 0x1fff_ffff));
            for v in [v, near] {
                for k in [FloatKind::F16, FloatKind::BF16] {
                    assert_eq!(
                        fast_out(k, v),
                        Some(float::round_from_f64(k, v)),
                        "{k:?} {v:e} ({:#x})",
                        v.to_bits()
                    );
                }
            }
        }
    }

    #[test]
    fn fast_paths_equal_the_exact_results() {
        let mut x = 0x2545_F491_4F6C_DD1D_u64;
        let n = if cfg!(debug_assertions) {
            60_000
        } else {
            600_000
        };
        for k in [
            FloatKind::F16,
            FloatKind::BF16,
            FloatKind::F32,
            FloatKind::F64,
        ] {
            let mut fast = 0;
            for i in 0..n {
                let (a, b, c) = (operand(k, &mut x), operand(k, &mut x), operand(k, &mut x));
                // Half the cases in round-to-nearest-even, the others in every mode, with
                // and without flush-to-zero.
                let (m, z) = if i % 2 == 0 {
                    (Round::NearestEven, false)
                } else {
                    let modes = [
                        Round::NearestEven,
                        Round::TowardZero,
                        Round::TowardNegative,
                        Round::TowardPositive,
                    ];
                    (modes[(i / 2) % 4], (i / 8) % 2 == 1)
                };
                let cases = [
                    ("add", add(k, a, b, m, z), add_exact(k, a, b, m, z)),
                    ("sub", sub(k, a, b, m, z), sub_exact(k, a, b, m, z)),
                    ("mul", mul(k, a, b, m, z), mul_exact(k, a, b, m, z)),
                    ("div", div(k, a, b, m, z), div_exact(k, a, b, m, z)),
                    ("sqrt", sqrt(k, a, m, z), sqrt_exact(k, a, m, z)),
                    ("fma", fma(k, a, b, c, m, z), fma_exact(k, a, b, c, m, z)),
                ];
                for (name, got, want) in cases {
                    assert_eq!(got, want, "{name} {k:?} {m:?} ftz={z} {a:#x} {b:#x} {c:#x}");
                }
                fast += usize::from(
                    fast_fma(k, a, b, c, m, z).is_some()
                        || fast_any(k, FastOp::Fma, a, b, c, m, z).is_some(),
                );
            }
            // The operands do reach the fast paths (f64 has none in directed modes or with
            // flush-to-zero: half the cases).
            let least = if k == FloatKind::F64 { n / 4 } else { n / 2 };
            assert!(fast > least, "{k:?}: {fast} of {n} fma took the fast path");
        }
    }

    #[test]
    fn isqrt_is_the_floor_root() {
        let mut x = 0x9E37_79B9_7F4A_7C15_u64;
        for n in (0u128..2000).chain([
            u128::MAX,
            u128::MAX >> 1,
            1u128 << 126,
            (1u128 << 126) - 1,
            (1u128 << 124) + 12345,
        ]) {
            let r = isqrt(n);
            assert!(r * r <= n, "{n}");
            assert!((r + 1).checked_mul(r + 1).is_none_or(|s| s > n), "{n}");
        }
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let n = (u128::from(x) << 64 | u128::from(x.rotate_left(29))) >> (x % 64);
            let r = isqrt(n);
            assert!(r * r <= n && (r + 1).checked_mul(r + 1).is_none_or(|s| s > n));
        }
    }

    #[test]
    fn exact_sum_cases() {
        // 1 + 1 = 2, exactly.
        let (s, m, e, st) = exact_sum((false, 1, 0), (false, 1, 0)).unwrap();
        assert!(!s && !st && e < 0 && m == 2u128 << -e);
        // 1 - 1 = 0.
        assert_eq!(exact_sum((false, 1, 0), (true, 1, 0)), None);
        // 1 - 2^-200: sticky below a window full of ones.
        let (s, m, e, st) = exact_sum((false, 1, 0), (true, 1, -200)).unwrap();
        assert!(!s && st && e == -125 && m == (1u128 << 125) - 1);
        // 2^-200 - 1: the larger term is second.
        let (s, m, _, st) = exact_sum((false, 1, -200), (true, 1, 0)).unwrap();
        assert!(s && st && m == (1u128 << 125) - 1);
        // A 106-bit product against a 53-bit addend, exact.
        let p = (1u128 << 105) | 1;
        let (s, m, e, st) = exact_sum((false, p, -105), (true, 1, -105)).unwrap();
        assert!(!s && !st && e < 0 && m == 1u128 << -e);
    }

    #[test]
    fn canonical_nans() {
        use FloatKind::*;
        assert_eq!(canonical_nan(F16), 0x7FFF);
        assert_eq!(canonical_nan(BF16), 0x7FFF);
        assert_eq!(canonical_nan(F32), 0x7FFF_FFFF);
        assert_eq!(canonical_nan(F64), 0x7FFF_FFFF_FFFF_FFFF);
        assert_eq!(canonical_nan(TF32), 0x3_FFFF);
        assert_eq!(canonical_nan(F8E4M3FN), 0x7F);
        assert_eq!(canonical_nan(F8E5M2), 0x7F);
        for k in [F16, BF16, F32, F64, TF32, F8E4M3FN, F8E5M2] {
            assert!(float::is_nan(k, canonical_nan(k)), "{k:?}");
            assert!(float::is_infinite(k, infinity(k, true)) || !k.has_infinity());
            assert_eq!(
                float::to_f64(k, infinity(k, false)) == f64::INFINITY,
                k.has_infinity()
            );
        }
    }
}

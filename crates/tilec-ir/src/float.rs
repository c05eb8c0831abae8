//! Floating-point element formats of tile IR.
//!
//! This module implements, bit-exactly and with `std` only:
//!
//! * the encodings of the element types (`f16`, `bf16`, `f32`, `f64`, `tf32`,
//!   `f8E4M3FN`, `f8E5M2`, and 13.3's `f8E8M0FNU` and `f4E2M1FN`) as LLVM's `APFloat`
//!   defines them;
//! * rounding an `f64` into each format (LLVM `APFloat::convert`), with all
//!   four IEEE rounding directions;
//! * correctly rounded decimal-literal parsing into each format (LLVM
//!   `APFloat(semantics, string)`), free of double rounding;
//! * MLIR's printing of float elements (`printFloatValue` in
//!   `mlir/lib/IR/AsmPrinter.cpp`), including LLVM's `APFloat::toString`
//!   digit generation with its quirks (round-half-up on decimal digits after a
//!   truncating pre-reduction, zero padding, exponent styles).
//!
//! Known differences from LLVM, all outside what tile IR relies on: NaN
//! inputs to [`round_from_f64`] give the target's default quiet NaN (LLVM
//! keeps the top payload bits), and [`parse_decimal_exact`] rejects the
//! hexadecimal (`0x1.8p3`) and special (`inf`, `nan`) spellings LLVM's string
//! conversion also accepts.

use std::cmp::Ordering;
use std::fmt::Write as _;

/// The floating-point element types of tile IR.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FloatKind {
    /// IEEE 754 binary16 (1 sign, 5 exponent, 10 fraction bits).
    F16,
    /// bfloat16 (1 sign, 8 exponent, 7 fraction bits).
    BF16,
    /// IEEE 754 binary32.
    F32,
    /// IEEE 754 binary64.
    F64,
    /// NVIDIA TensorFloat-32: a 19-bit format (1 sign, 8 exponent, 10 fraction bits).
    TF32,
    /// 8-bit float with 4 exponent and 3 fraction bits, bias 7, no infinities;
    /// NaN is `S.1111.111`, so the largest finite value is 448.
    F8E4M3FN,
    /// 8-bit IEEE-like float with 5 exponent and 2 fraction bits, bias 15.
    F8E5M2,
    /// The OCP MX scale format: 8 exponent bits, no sign and no fraction, bias 127. Every
    /// pattern but `0xFF` (NaN) is the power of two `2^(bits - 127)`; there is no zero and
    /// no infinity (13.2).
    F8E8M0FNU,
    /// The OCP FP4 format: 1 sign, 2 exponent and 1 fraction bits, bias 1, finite only
    /// (no infinity, no NaN): the values are 0, 0.5, 1, 1.5, 2, 3, 4 and 6 of either sign
    /// (13.3).
    F4E2M1FN,
}

/// How a format encodes values that are not finite (LLVM's `fltNonfiniteBehavior`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum NonFinite {
    /// Infinities (all-ones exponent, zero fraction) and NaNs (all-ones exponent, nonzero
    /// fraction).
    Ieee,
    /// No infinities; the only NaN is the all-ones exponent and fraction (so the rest of
    /// the top binade is finite).
    NanOnly,
    /// Neither infinities nor NaNs: every pattern is finite.
    FiniteOnly,
}

/// Static description of a format's encoding.
#[derive(Copy, Clone, Debug)]
struct Sem {
    /// Significand precision in bits, including the implicit bit.
    prec: u32,
    /// Width of the exponent field.
    ebits: u32,
    /// Exponent bias.
    bias: i32,
    /// Infinities and NaNs.
    nonfinite: NonFinite,
    /// Whether the format has a sign bit (false for F8E8M0FNU).
    signed: bool,
    /// Whether the format has a zero (false for F8E8M0FNU, whose all-zero pattern is its
    /// smallest value, a normal number: it has no subnormals either).
    has_zero: bool,
}

/// An IEEE-style format: sign, zero, subnormals.
const fn ieee(prec: u32, ebits: u32, bias: i32, nonfinite: NonFinite) -> Sem {
    Sem {
        prec,
        ebits,
        bias,
        nonfinite,
        signed: true,
        has_zero: true,
    }
}

impl Sem {
    const fn frac_bits(self) -> u32 {
        self.prec - 1
    }
    const fn width(self) -> u32 {
        self.signed as u32 + self.ebits + self.prec - 1
    }
    const fn mask(self) -> u64 {
        if self.width() >= 64 {
            u64::MAX
        } else {
            (1u64 << self.width()) - 1
        }
    }
    /// The sign bit (0 for an unsigned format).
    const fn sign_bit(self) -> u64 {
        if self.signed {
            1u64 << (self.width() - 1)
        } else {
            0
        }
    }
    const fn exp_all(self) -> u64 {
        (1u64 << self.ebits) - 1
    }
    const fn frac_mask(self) -> u64 {
        (1u64 << self.frac_bits()) - 1
    }
    /// Smallest unbiased exponent of a normal number.
    const fn emin(self) -> i32 {
        if self.has_zero {
            1 - self.bias
        } else {
            -self.bias
        }
    }
    /// Largest unbiased exponent of a finite number.
    const fn emax(self) -> i32 {
        match self.nonfinite {
            NonFinite::Ieee => self.bias,
            NonFinite::NanOnly | NonFinite::FiniteOnly => self.exp_all() as i32 - self.bias,
        }
    }
    const fn sign(self, neg: bool) -> u64 {
        if neg { self.sign_bit() } else { 0 }
    }
    /// The default quiet NaN (LLVM `makeNaN(false, neg)`). A format without NaN
    /// (F4E2M1FN) has none: tilec converts NaN to its largest value (see
    /// [`round_from_f64_with`]).
    const fn default_nan(self, neg: bool) -> u64 {
        match self.nonfinite {
            NonFinite::NanOnly => {
                self.sign(neg) | (self.exp_all() << self.frac_bits()) | self.frac_mask()
            }
            NonFinite::Ieee => {
                self.sign(neg)
                    | (self.exp_all() << self.frac_bits())
                    | (1u64 << (self.frac_bits() - 1))
            }
            NonFinite::FiniteOnly => self.max_finite(false),
        }
    }
    /// Infinity; NaN for formats without infinities, the largest finite value for formats
    /// without either (LLVM's overflow handling).
    const fn infinity(self, neg: bool) -> u64 {
        match self.nonfinite {
            NonFinite::Ieee => self.sign(neg) | (self.exp_all() << self.frac_bits()),
            NonFinite::NanOnly => self.default_nan(neg),
            NonFinite::FiniteOnly => self.max_finite(neg),
        }
    }
    /// The largest finite value.
    const fn max_finite(self, neg: bool) -> u64 {
        match self.nonfinite {
            NonFinite::NanOnly if self.frac_bits() == 0 => self.sign(neg) | (self.exp_all() - 1),
            NonFinite::NanOnly => {
                self.sign(neg) | (self.exp_all() << self.frac_bits()) | (self.frac_mask() - 1)
            }
            NonFinite::FiniteOnly => {
                self.sign(neg) | (self.exp_all() << self.frac_bits()) | self.frac_mask()
            }
            NonFinite::Ieee => {
                self.sign(neg) | ((self.exp_all() - 1) << self.frac_bits()) | self.frac_mask()
            }
        }
    }
    /// The smallest positive value (the pattern 1; 0 in a format without zero).
    const fn min_positive(self) -> u64 {
        if self.has_zero { 1 } else { 0 }
    }
    fn is_nan(self, bits: u64) -> bool {
        let e = (bits >> self.frac_bits()) & self.exp_all();
        let f = bits & self.frac_mask();
        match self.nonfinite {
            NonFinite::Ieee => e == self.exp_all() && f != 0,
            NonFinite::NanOnly => e == self.exp_all() && f == self.frac_mask(),
            NonFinite::FiniteOnly => false,
        }
    }
    /// Whether `bits` is a nonzero value with the minimum exponent field.
    fn is_subnormal(self, bits: u64) -> bool {
        self.has_zero
            && (bits >> self.frac_bits()) & self.exp_all() == 0
            && bits & self.frac_mask() != 0
    }
    fn is_infinite(self, bits: u64) -> bool {
        self.nonfinite == NonFinite::Ieee
            && (bits >> self.frac_bits()) & self.exp_all() == self.exp_all()
            && bits & self.frac_mask() == 0
    }
    /// Decompose a finite nonzero pattern into `(negative, significand, exponent)`
    /// with `|value| = significand * 2^exponent`.
    fn decompose(self, bits: u64) -> (bool, u64, i32) {
        let neg = bits & self.sign_bit() != 0;
        let e = (bits >> self.frac_bits()) & self.exp_all();
        let f = bits & self.frac_mask();
        let shift = self.frac_bits() as i32;
        if e == 0 && self.has_zero {
            (neg, f, self.emin() - shift)
        } else {
            (
                neg,
                f | (1u64 << self.frac_bits()),
                e as i32 - self.bias - shift,
            )
        }
    }
}

impl FloatKind {
    const fn sem(self) -> Sem {
        use NonFinite::*;
        match self {
            FloatKind::F16 => ieee(11, 5, 15, Ieee),
            FloatKind::BF16 => ieee(8, 8, 127, Ieee),
            FloatKind::F32 => ieee(24, 8, 127, Ieee),
            FloatKind::F64 => ieee(53, 11, 1023, Ieee),
            FloatKind::TF32 => ieee(11, 8, 127, Ieee),
            FloatKind::F8E4M3FN => ieee(4, 4, 7, NanOnly),
            FloatKind::F8E5M2 => ieee(3, 5, 15, Ieee),
            FloatKind::F8E8M0FNU => Sem {
                prec: 1,
                ebits: 8,
                bias: 127,
                nonfinite: NanOnly,
                signed: false,
                has_zero: false,
            },
            FloatKind::F4E2M1FN => ieee(2, 2, 1, FiniteOnly),
        }
    }

    /// Width in bits of the value encoding as LLVM APFloat defines it: 16, 16, 32, 64, 19 (tf32), 8, 8,
    /// 8 (f8E8M0FNU), 4 (f4E2M1FN).
    #[must_use]
    pub fn bit_width(self) -> u32 {
        self.sem().width()
    }

    /// Significand precision in bits including the implicit bit: 11, 8, 24, 53, 11, 4, 3, 1, 2.
    #[must_use]
    pub fn precision(self) -> u32 {
        self.sem().prec
    }

    /// The MLIR spelling: "f16", "bf16", "f32", "f64", "tf32", "f8E4M3FN", "f8E5M2".
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            FloatKind::F16 => "f16",
            FloatKind::BF16 => "bf16",
            FloatKind::F32 => "f32",
            FloatKind::F64 => "f64",
            FloatKind::TF32 => "tf32",
            FloatKind::F8E4M3FN => "f8E4M3FN",
            FloatKind::F8E5M2 => "f8E5M2",
            FloatKind::F8E8M0FNU => "f8E8M0FNU",
            FloatKind::F4E2M1FN => "f4E2M1FN",
        }
    }

    /// Parse an MLIR spelling (also accepts the aliases "fp8e4m3fn" and "fp8e5m2").
    #[must_use]
    pub fn from_name(s: &str) -> Option<FloatKind> {
        Some(match s {
            "f16" => FloatKind::F16,
            "bf16" => FloatKind::BF16,
            "f32" => FloatKind::F32,
            "f64" => FloatKind::F64,
            "tf32" => FloatKind::TF32,
            "f8E4M3FN" | "fp8e4m3fn" => FloatKind::F8E4M3FN,
            "f8E5M2" | "fp8e5m2" => FloatKind::F8E5M2,
            "f8E8M0FNU" => FloatKind::F8E8M0FNU,
            "f4E2M1FN" => FloatKind::F4E2M1FN,
            _ => return None,
        })
    }

    /// Whether the format has infinities (false for F8E4M3FN and F8E8M0FNU, whose
    /// overflows produce NaN, and for F4E2M1FN, whose overflows saturate).
    #[must_use]
    pub fn has_infinity(self) -> bool {
        self.sem().nonfinite == NonFinite::Ieee
    }

    /// Whether the format has a NaN (false only for F4E2M1FN).
    #[must_use]
    pub fn has_nan(self) -> bool {
        self.sem().nonfinite != NonFinite::FiniteOnly
    }

    /// Whether the format has a sign bit (false only for F8E8M0FNU).
    #[must_use]
    pub fn is_signed(self) -> bool {
        self.sem().signed
    }

    /// Whether the format has a zero (false only for F8E8M0FNU).
    #[must_use]
    pub fn has_zero(self) -> bool {
        self.sem().has_zero
    }
}

/// An IEEE 754 rounding direction.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Round {
    /// Round to nearest, ties to even (the default).
    NearestEven,
    /// Round toward zero (truncate).
    TowardZero,
    /// Round toward negative infinity.
    TowardNegative,
    /// Round toward positive infinity.
    TowardPositive,
}

/// A rounding direction applied to the magnitude.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Dir {
    /// Nearest, ties to even.
    Nearest,
    /// Toward zero.
    Down,
    /// Away from zero.
    Up,
}

impl Round {
    fn dir(self, neg: bool) -> Dir {
        match self {
            Round::NearestEven => Dir::Nearest,
            Round::TowardZero => Dir::Down,
            Round::TowardPositive => {
                if neg {
                    Dir::Down
                } else {
                    Dir::Up
                }
            }
            Round::TowardNegative => {
                if neg {
                    Dir::Up
                } else {
                    Dir::Down
                }
            }
        }
    }
}

/// Bit length of a nonzero `u64`.
fn bit_len(v: u64) -> u32 {
    64 - v.leading_zeros()
}

/// Round `m * 2^e` (with `m != 0`) into `sem`, returning the bit pattern and
/// whether the discarded part was exactly half an ulp (a rounding tie; only
/// reported for `Dir::Nearest`).
fn round_magnitude(sem: Sem, neg: bool, m: u64, e: i32, dir: Dir) -> (u64, bool) {
    debug_assert!(m != 0);
    let p = sem.prec as i32;
    let top = bit_len(m) as i32 - 1 + e; // floor(log2(value))
    let mut q = top.max(sem.emin()) - (p - 1); // exponent of the result's ulp
    let mut tie = false;
    let mut r = if e >= q {
        // Exact: the value is a multiple of the ulp and has at most `p` bits.
        m << (e - q)
    } else {
        let sh = (q - e) as u32;
        let (r, rem, half) = if sh >= 64 {
            // Everything is shifted out and `m < 2^63 <= half`.
            (0, 1u64, u64::MAX)
        } else {
            (m >> sh, m & ((1u64 << sh) - 1), 1u64 << (sh - 1))
        };
        let up = match dir {
            Dir::Nearest => {
                tie = rem == half;
                rem > half || (tie && r & 1 == 1)
            }
            Dir::Down => false,
            Dir::Up => rem != 0,
        };
        r + up as u64
    };
    if r == 0 {
        if !sem.has_zero {
            // No zero to underflow to: the smallest value (LLVM's
            // `makeSmallestNormalized`).
            return (sem.min_positive(), tie);
        }
        return (sem.sign(neg), tie);
    }
    if r == 1u64 << p {
        r >>= 1;
        q += 1;
    }
    let sign = sem.sign(neg);
    let overflow = |dir: Dir| match dir {
        Dir::Nearest | Dir::Up => sem.infinity(neg),
        Dir::Down => sem.max_finite(neg),
    };
    if r < 1u64 << (p - 1) {
        // Subnormal (q is emin - (p - 1) here).
        return (sign | r, tie);
    }
    let unbiased = q + p - 1;
    if unbiased > sem.emax() {
        return (overflow(dir), tie);
    }
    let biased = (unbiased + sem.bias) as u64;
    let frac = r & sem.frac_mask();
    if sem.nonfinite == NonFinite::NanOnly && biased == sem.exp_all() && frac == sem.frac_mask() {
        return (overflow(dir), tie);
    }
    (sign | (biased << sem.frac_bits()) | frac, tie)
}

/// Decompose a finite nonzero f64 into `(significand, exponent)`.
fn decompose_f64(v: f64) -> (u64, i32) {
    let b = v.to_bits();
    let e = ((b >> 52) & 0x7ff) as i32;
    let f = b & ((1u64 << 52) - 1);
    if e == 0 {
        (f, -1074)
    } else {
        (f | (1u64 << 52), e - 1075)
    }
}

/// Round an f64 to the nearest value of `kind` (IEEE round-to-nearest-ties-to-even, with
/// gradual underflow to subnormals, overflow to infinity, or to NaN for F8E4M3FN which has no
/// infinity; NaN input gives the format's default quiet NaN, preserving sign), returning the
/// raw bit pattern in the low `bit_width()` bits. This is exactly LLVM APFloat::convert with
/// rmNearestTiesToEven from IEEEdouble (except that LLVM would keep the top bits of a NaN's
/// payload).
#[must_use]
pub fn round_from_f64(kind: FloatKind, v: f64) -> u64 {
    round_from_f64_with(kind, v, Round::NearestEven)
}

/// Round an f64 into `kind` with the given IEEE rounding direction (LLVM
/// `APFloat::convert` with the corresponding rounding mode). Overflow gives
/// infinity (NaN for F8E4M3FN) when rounding away from zero and the largest
/// finite value when rounding toward zero; NaN input gives the format's default
/// quiet NaN with the input's sign.
#[must_use]
pub fn round_from_f64_with(kind: FloatKind, v: f64, mode: Round) -> u64 {
    let sem = kind.sem();
    let neg = v.is_sign_negative();
    if v.is_nan() {
        return sem.default_nan(neg);
    }
    if !sem.signed && neg && v != 0.0 {
        // An unsigned format has no negative values and none is nearest: NaN.
        return sem.default_nan(false);
    }
    if v.is_infinite() {
        return sem.infinity(neg);
    }
    if v == 0.0 {
        return if sem.has_zero {
            sem.sign(neg)
        } else {
            sem.min_positive()
        };
    }
    if kind == FloatKind::F64 {
        return v.to_bits();
    }
    let (m, e) = decompose_f64(v);
    round_magnitude(sem, neg, m, e, mode.dir(neg)).0
}

/// `2^e` as an f64, for `-1022 <= e <= 1023`.
fn pow2(e: i32) -> f64 {
    debug_assert!((-1022..=1023).contains(&e));
    f64::from_bits(((e + 1023) as u64) << 52)
}

/// The exact value of a bit pattern, as an f64 (every value of these formats is exactly an f64).
/// NaN patterns give a NaN with the same sign. Bits above `bit_width()` are ignored.
#[must_use]
pub fn to_f64(kind: FloatKind, bits: u64) -> f64 {
    let sem = kind.sem();
    let bits = bits & sem.mask();
    if kind == FloatKind::F64 {
        return f64::from_bits(bits);
    }
    let neg = bits & sem.sign_bit() != 0;
    let mag = if sem.is_nan(bits) {
        f64::NAN
    } else if sem.is_infinite(bits) {
        f64::INFINITY
    } else {
        let (_, m, e) = sem.decompose(bits);
        m as f64 * pow2(e)
    };
    // `mag` is non-negative (including the NaN).
    if neg { -mag } else { mag }
}

/// Whether `bits` (low `bit_width()` bits) encode a NaN of `kind`.
#[must_use]
pub fn is_nan(kind: FloatKind, bits: u64) -> bool {
    let sem = kind.sem();
    sem.is_nan(bits & sem.mask())
}

/// Whether `bits` (low `bit_width()` bits) encode an infinity of `kind`
/// (never true for F8E4M3FN).
#[must_use]
pub fn is_infinite(kind: FloatKind, bits: u64) -> bool {
    let sem = kind.sem();
    sem.is_infinite(bits & sem.mask())
}

/// Whether `bits` (low `bit_width()` bits) encode a subnormal number of
/// `kind`: a nonzero value whose exponent field is all zeros (zeros are not
/// subnormal).
#[must_use]
pub fn is_subnormal(kind: FloatKind, bits: u64) -> bool {
    let sem = kind.sem();
    sem.is_subnormal(bits & sem.mask())
}

/// The largest finite value of `kind` (negated when `neg`), as a bit pattern:
/// 65504 for f16, 448 for F8E4M3FN, 57344 for F8E5M2, and so on.
#[must_use]
pub fn max_finite(kind: FloatKind, neg: bool) -> u64 {
    kind.sem().max_finite(neg)
}

/// Round the exact value `(-1)^neg * (m + f) * 2^e` into `kind` with the
/// rounding direction `mode`, once, as IEEE 754 does, where `f` is an unknown
/// fraction in `[0, 1)` that is nonzero exactly when `sticky` is set.
///
/// This is the single rounding step of an exactly computed result: callers
/// compute an integer significand `m` (up to 128 bits) and keep whether
/// anything nonzero was discarded below it in `sticky`. For the rounding to
/// be decided by `sticky` alone, the discarded part must lie below the
/// rounding position's half-ulp bit; this holds when `m >= 2^(precision + 1)`,
/// which callers must ensure whenever `sticky` is set (checked in debug
/// builds). With `sticky` clear the value is exact and any `m` is accepted.
///
/// The result has gradual underflow (subnormals, rounded at the fixed
/// subnormal quantum), and on overflow follows [`round_from_f64_with`]:
/// infinity when the direction rounds away from zero (NaN for F8E4M3FN, which
/// has no infinity; the NaN keeps `neg` as its sign) and the largest finite
/// value when it rounds toward zero. A zero `m` (with `sticky` clear) gives a
/// zero with the sign `neg`.
#[must_use]
pub fn round_exact(kind: FloatKind, neg: bool, m: u128, e: i32, sticky: bool, mode: Round) -> u64 {
    let sem = kind.sem();
    if m == 0 {
        debug_assert!(!sticky, "round_exact: a sticky bit needs a significand");
        return if sem.has_zero {
            sem.sign(neg)
        } else {
            sem.min_positive()
        };
    }
    if !sem.signed && neg {
        return sem.default_nan(false);
    }
    debug_assert!(
        !sticky || m >> (sem.prec + 1) != 0,
        "round_exact: sticky with a significand of fewer than precision + 2 bits"
    );
    // Bring the significand to at most 63 bits (what `round_magnitude`
    // takes), folding everything below bit 0 into bit 0. A 63-bit significand
    // rounds at bit 63 - precision >= 10 or above (higher still when the
    // result is subnormal), and by the contract above so does a shorter one
    // with a sticky bit (at bit >= 2): bit 0 then lies strictly below the
    // half-ulp bit, so setting it records "nonzero, below half" exactly as the
    // discarded bits would.
    let len = 128 - m.leading_zeros();
    let (m, e) = if len > 63 {
        let sh = len - 63;
        let lost = m & ((1u128 << sh) - 1) != 0;
        (
            (m >> sh) as u64 | u64::from(lost || sticky),
            e.saturating_add(sh as i32),
        )
    } else {
        (m as u64 | u64::from(sticky), e)
    };
    round_magnitude(sem, neg, m, e, mode.dir(neg)).0
}

// ---------------------------------------------------------------------------
// Arithmetic
// ---------------------------------------------------------------------------

/// The correctly rounded sum `a + b` in `kind` with rounding direction `mode`,
/// for constant-folding `addf`; `None` means "do not fold".
///
/// `a` and `b` are bit patterns of `kind` (bits above `bit_width()` are
/// ignored) and the result is one too. The sum is computed exactly (both
/// operands are aligned into a 128-bit integer; when their exponents are more
/// than 64 apart the smaller one is replaced by a sticky unit far below the
/// rounding position, which cannot change the rounding) and rounded once into
/// `kind`, so there is no double rounding, for `f64` included.
///
/// `None` is returned, and nothing should be folded, when:
///
/// * either operand is a NaN or an infinity;
/// * the exact sum's magnitude exceeds the format's largest finite value, in
///   every rounding direction. This covers every result that is not finite
///   (overflow to infinity, or to NaN for F8E4M3FN), and also the sums that
///   IEEE 754 would round to the largest finite value although they exceed it
///   (rounding toward zero, or to nearest when the excess is below half an
///   ulp): not folding such a sum is always safe. An exact sum equal to the
///   largest finite value is folded.
///
/// Zero results follow IEEE 754: `(+0) + (+0) = +0` and `(-0) + (-0) = -0`;
/// an exactly zero sum of operands of opposite signs (`x + (-x)`,
/// `(+0) + (-0)`) is `+0`, except `-0` under [`Round::TowardNegative`]; a
/// nonzero operand plus a zero is that operand unchanged.
///
/// With `ftz` (flush-to-zero, as PTX `.ftz`; callers pass it for `f32` only,
/// but it applies to every kind), subnormal operands are treated as zeros of
/// the same sign, and a subnormal result is replaced by a zero of the result's
/// sign. (A sum of two values of a format that lies in its subnormal range is
/// always exact, so "subnormal result" does not depend on when tininess is
/// detected.)
#[must_use]
pub fn add(kind: FloatKind, a: u64, b: u64, mode: Round, ftz: bool) -> Option<u64> {
    let sem = kind.sem();
    let (a, b) = (a & sem.mask(), b & sem.mask());
    if sem.is_nan(a) || sem.is_nan(b) || sem.is_infinite(a) || sem.is_infinite(b) {
        return None;
    }
    let flush = |x: u64| {
        if ftz && sem.is_subnormal(x) {
            x & sem.sign_bit()
        } else {
            x
        }
    };
    let (a, b) = (flush(a), flush(b));
    // The zero an exact cancellation gives.
    let cancel = sem.sign(mode == Round::TowardNegative);
    let magnitude = sem.mask() & !sem.sign_bit();
    match (a & magnitude == 0, b & magnitude == 0) {
        (true, true) => return Some(if a == b { a } else { cancel }),
        // x + 0 = x exactly (x is not subnormal under ftz: it was flushed).
        (true, false) => return Some(b),
        (false, true) => return Some(a),
        (false, false) => {}
    }
    let (mut x, mut y) = (sem.decompose(a), sem.decompose(b));
    if x.2 < y.2 {
        std::mem::swap(&mut x, &mut y);
    }
    let ((xneg, xm, xe), (yneg, ym, ye)) = (x, y);
    // Align: |a| = xs * 2^e and |b| = ys * 2^e (significands below 2^53, so
    // xs < 2^117). Beyond a gap of 64, `x` is a normal number of at most 53
    // bits with ulp 2^xe, and |y| < 2^(xe - 12): the nearest rounding
    // boundary (a value or a midpoint of `kind`) to `x` other than `x` itself
    // is at least 2^(xe - 2) away, so replacing |y| by 2^(xe - 64) keeps the
    // sum strictly between the same two boundaries.
    let gap = (xe - ye) as u32;
    let (xs, ys, e) = if gap <= 64 {
        (u128::from(xm) << gap, u128::from(ym), ye)
    } else {
        (u128::from(xm) << 64, 1u128, xe - 64)
    };
    let (neg, sum) = if xneg == yneg {
        (xneg, xs + ys)
    } else {
        match xs.cmp(&ys) {
            Ordering::Greater => (xneg, xs - ys),
            Ordering::Less => (yneg, ys - xs),
            Ordering::Equal => return Some(cancel),
        }
    };
    // Normalize to at most 63 bits (what `round_magnitude` accepts), folding
    // the discarded bits into a sticky bit 0; the rounding position of a
    // format of at most 53 bits lies at bit 10 or above, so this is exact as
    // far as rounding is concerned.
    let len = 128 - sum.leading_zeros();
    let (m, e) = if len > 63 {
        let sh = len - 63;
        let sticky = sum & ((1u128 << sh) - 1) != 0;
        ((sum >> sh) as u64 | u64::from(sticky), e + sh as i32)
    } else {
        (sum as u64, e)
    };
    // Rounding away from zero overflows exactly when |sum| > max finite.
    if round_magnitude(sem, neg, m, e, Dir::Up).0 == sem.infinity(neg) {
        return None;
    }
    let r = round_magnitude(sem, neg, m, e, mode.dir(neg)).0;
    if ftz && sem.is_subnormal(r) {
        return Some(sem.sign(neg));
    }
    Some(r)
}

// ---------------------------------------------------------------------------
// Decimal parsing
// ---------------------------------------------------------------------------

/// The pieces of a scanned decimal literal.
struct Scan<'a> {
    neg: bool,
    /// Digits before the decimal point.
    int: &'a [u8],
    /// Digits after the decimal point.
    frac: &'a [u8],
    /// The explicit decimal exponent (saturated).
    exp: i64,
    /// Length of the prefix of the input that Rust's f64 parser accepts with
    /// the same value (drops an exponent marker that has no digits).
    num_end: usize,
}

/// Exponents beyond this magnitude are saturated; such values are zero or
/// infinite in every format whatever their digits (LLVM saturates too).
const EXP_SATURATE: i64 = 1 << 40;

/// Scan `[+-]? (digits ('.' digits?)? | '.' digits) ([eE] [+-]? digits?)?`,
/// the decimal syntax LLVM's `convertFromString` accepts (an exponent marker
/// without digits counts as exponent 0, as in LLVM).
fn scan_decimal(s: &str) -> Option<Scan<'_>> {
    let b = s.as_bytes();
    let mut i = 0;
    let neg = b.first() == Some(&b'-');
    if matches!(b.first(), Some(b'-' | b'+')) {
        i = 1;
    }
    let int_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let int = &b[int_start..i];
    let mut frac: &[u8] = &[];
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let frac_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        frac = &b[frac_start..i];
    }
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let mut num_end = i;
    let mut exp = 0i64;
    if i < b.len() {
        if b[i] != b'e' && b[i] != b'E' {
            return None;
        }
        i += 1;
        let exp_neg = b.get(i) == Some(&b'-');
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let digits_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            exp = (exp * 10 + i64::from(b[i] - b'0')).min(EXP_SATURATE);
            i += 1;
        }
        if i != b.len() {
            return None;
        }
        if i > digits_start {
            num_end = i;
        }
        if exp_neg {
            exp = -exp;
        }
    }
    Some(Scan {
        neg,
        int,
        frac,
        exp,
        num_end,
    })
}

/// Number of significant decimal digits kept when comparing a decimal literal
/// with a binary midpoint. Midpoints of the narrow formats have far fewer
/// significant digits (at most about 110), so truncating to this many digits
/// and remembering whether anything nonzero was dropped decides the
/// comparison exactly.
const MAX_CMP_DIGITS: usize = 800;

/// Exactly compare the magnitude of the scanned decimal with `m * 2^e2`.
/// The decimal must be nonzero and `m * 2^e2` must lie within the range of
/// the narrow formats (this is only called for rounding ties).
fn cmp_decimal(scan: &Scan<'_>, m: u64, e2: i32) -> Ordering {
    let total = scan.int.len() + scan.frac.len();
    let digit = |i: usize| {
        if i < scan.int.len() {
            scan.int[i] - b'0'
        } else {
            scan.frac[i - scan.int.len()] - b'0'
        }
    };
    let Some(first) = (0..total).find(|&i| digit(i) != 0) else {
        return Ordering::Less;
    };
    let last = (0..total).rev().find(|&i| digit(i) != 0).unwrap_or(first);
    let n = last - first + 1;
    let take = n.min(MAX_CMP_DIGITS);
    let sticky = n > take;
    // value = D * 10^x with D the `take` digits starting at `first`.
    let x = scan.exp - scan.frac.len() as i64 + (total - 1 - last) as i64 + (n - take) as i64;
    // In a tie the decimal is within a relative 2^-53 of m * 2^e2, which lies
    // in [2^-151, 2^129); anything far outside is decided by magnitude (this is
    // a guard that keeps the bignums bounded; it cannot trigger for ties).
    let mag10 = x + take as i64; // D * 10^x < 10^mag10
    if mag10 > 60 {
        return Ordering::Greater;
    }
    if mag10 < -60 {
        return Ordering::Less;
    }
    let mut a = Big::<CMP_LIMBS>::zero();
    let mut i = first;
    let end = first + take;
    while i < end {
        let chunk = (end - i).min(19);
        let mut v = 0u64;
        for k in i..i + chunk {
            v = v * 10 + u64::from(digit(k));
        }
        a.mul_small(POW10[chunk]);
        a.add_small(v);
        i += chunk;
    }
    let mut b = Big::<CMP_LIMBS>::from_u64(m);
    if x >= 0 {
        a.mul_pow5(x as u32);
    } else {
        b.mul_pow5((-x) as u32);
    }
    let sh = x - i64::from(e2);
    if sh >= 0 {
        a.shl(sh as u32);
    } else {
        b.shl((-sh) as u32);
    }
    match a.cmp(&b) {
        Ordering::Equal if sticky => Ordering::Greater,
        ord => ord,
    }
}

/// Correctly rounded (ties to even) conversion of a decimal literal such as "-3.14159", "1e-5",
/// "2.", "0.1" into `kind`, exactly as LLVM `APFloat(semantics, string)` does (no double
/// rounding). Returns None if the text is not a decimal floating literal (hexadecimal and
/// special spellings such as "inf" or "nan" are rejected).
#[must_use]
pub fn parse_decimal_exact(kind: FloatKind, s: &str) -> Option<u64> {
    let scan = scan_decimal(s)?;
    // Rust's parser is correctly rounded to f64 (for inputs of any length).
    let v: f64 = s[..scan.num_end].parse().ok()?;
    if kind == FloatKind::F64 {
        return Some(v.to_bits());
    }
    let sem = kind.sem();
    let neg = scan.neg;
    if !sem.signed && neg && v != 0.0 {
        // An unsigned format (F8E8M0FNU) has no negative values: NaN, as
        // `round_from_f64_with` (the sign bit would otherwise land in the exponent).
        return Some(sem.default_nan(false));
    }
    if v == 0.0 {
        return Some(if sem.has_zero {
            sem.sign(neg)
        } else {
            sem.min_positive()
        });
    }
    if v.is_infinite() {
        return Some(sem.infinity(neg));
    }
    // Rounding the f64 again is exact unless the f64 lies exactly on a
    // rounding midpoint of `kind` (every midpoint of the narrow formats is an
    // f64, and rounding to f64 is monotonic, so the decimal lies on the same
    // side of every other midpoint). At a midpoint, decide with the exact
    // decimal value.
    let (m, e) = decompose_f64(v);
    let (bits, tie) = round_magnitude(sem, neg, m, e, Dir::Nearest);
    if !tie {
        return Some(bits);
    }
    Some(match cmp_decimal(&scan, m, e) {
        Ordering::Equal => bits,
        Ordering::Less => round_magnitude(sem, neg, m, e, Dir::Down).0,
        Ordering::Greater => round_magnitude(sem, neg, m, e, Dir::Up).0,
    })
}

// ---------------------------------------------------------------------------
// Bignums (fixed capacity, stack allocated)
// ---------------------------------------------------------------------------

/// Limbs for the exact decimal expansion when printing: the largest value is
/// below 2^53 * 5^1074 < 2^2548 (f64 subnormals), i.e. 40 limbs.
const PRINT_LIMBS: usize = 42;
/// Limbs for decimal/midpoint comparison: at most 800 digits (< 2^2658)
/// scaled by a few hundred bits.
const CMP_LIMBS: usize = 64;

const POW10: [u64; 20] = {
    let mut t = [1u64; 20];
    let mut i = 1;
    while i < 20 {
        t[i] = t[i - 1] * 10;
        i += 1;
    }
    t
};

const POW5: [u64; 28] = {
    let mut t = [1u64; 28];
    let mut i = 1;
    while i < 28 {
        t[i] = t[i - 1] * 5;
        i += 1;
    }
    t
};

/// An unsigned integer of at most `N` 64-bit limbs, little-endian.
#[derive(Clone)]
struct Big<const N: usize> {
    limbs: [u64; N],
    /// Number of limbs in use (no leading zero limbs; 0 for zero).
    len: usize,
}

impl<const N: usize> Big<N> {
    fn zero() -> Self {
        Big {
            limbs: [0; N],
            len: 0,
        }
    }

    fn from_u64(v: u64) -> Self {
        let mut b = Self::zero();
        if v != 0 {
            b.limbs[0] = v;
            b.len = 1;
        }
        b
    }

    fn bit_len(&self) -> u32 {
        if self.len == 0 {
            0
        } else {
            (self.len as u32 - 1) * 64 + bit_len(self.limbs[self.len - 1])
        }
    }

    fn mul_small(&mut self, f: u64) {
        let mut carry = 0u128;
        for limb in &mut self.limbs[..self.len] {
            let v = u128::from(*limb) * u128::from(f) + carry;
            *limb = v as u64;
            carry = v >> 64;
        }
        if carry != 0 {
            self.limbs[self.len] = carry as u64;
            self.len += 1;
        }
        if f == 0 {
            self.len = 0;
        }
    }

    fn add_small(&mut self, a: u64) {
        let mut carry = a;
        let mut i = 0;
        while carry != 0 {
            if i == self.len {
                self.limbs[i] = carry;
                self.len += 1;
                return;
            }
            let (v, c) = self.limbs[i].overflowing_add(carry);
            self.limbs[i] = v;
            carry = c as u64;
            i += 1;
        }
    }

    fn mul_pow5(&mut self, mut k: u32) {
        while k >= 27 {
            self.mul_small(POW5[27]);
            k -= 27;
        }
        if k > 0 {
            self.mul_small(POW5[k as usize]);
        }
    }

    fn shl(&mut self, bits: u32) {
        if self.len == 0 {
            return;
        }
        let limbs = (bits / 64) as usize;
        let sh = bits % 64;
        if sh != 0 {
            let top = self.limbs[self.len - 1] >> (64 - sh);
            if top != 0 {
                self.limbs[self.len] = top;
            }
            for i in (1..self.len).rev() {
                self.limbs[i] = (self.limbs[i] << sh) | (self.limbs[i - 1] >> (64 - sh));
            }
            self.limbs[0] <<= sh;
            if top != 0 {
                self.len += 1;
            }
        }
        if limbs != 0 {
            self.limbs.copy_within(0..self.len, limbs);
            self.limbs[..limbs].fill(0);
            self.len += limbs;
        }
    }

    /// Shift right by `bits`, truncating.
    fn shr(&mut self, bits: u32) {
        let limbs = (bits / 64) as usize;
        if limbs >= self.len {
            self.len = 0;
            return;
        }
        if limbs != 0 {
            self.limbs.copy_within(limbs..self.len, 0);
            self.len -= limbs;
        }
        let sh = bits % 64;
        if sh != 0 {
            for i in 0..self.len {
                let hi = if i + 1 < self.len {
                    self.limbs[i + 1] << (64 - sh)
                } else {
                    0
                };
                self.limbs[i] = (self.limbs[i] >> sh) | hi;
            }
        }
        while self.len > 0 && self.limbs[self.len - 1] == 0 {
            self.len -= 1;
        }
    }

    /// Divide in place by `d != 0`, returning the remainder.
    fn div_small(&mut self, d: u64) -> u64 {
        let mut rem = 0u128;
        for limb in self.limbs[..self.len].iter_mut().rev() {
            let cur = (rem << 64) | u128::from(*limb);
            *limb = (cur / u128::from(d)) as u64;
            rem = cur % u128::from(d);
        }
        while self.len > 0 && self.limbs[self.len - 1] == 0 {
            self.len -= 1;
        }
        rem as u64
    }

    /// Divide in place by `10^t`, truncating.
    fn div_pow10(&mut self, mut t: u32) {
        while t >= 19 {
            self.div_small(POW10[19]);
            t -= 19;
        }
        if t > 0 {
            self.div_small(POW10[t as usize]);
        }
    }

    fn cmp(&self, other: &Self) -> Ordering {
        self.len.cmp(&other.len).then_with(|| {
            for i in (0..self.len).rev() {
                match self.limbs[i].cmp(&other.limbs[i]) {
                    Ordering::Equal => {}
                    ord => return ord,
                }
            }
            Ordering::Equal
        })
    }
}

// ---------------------------------------------------------------------------
// APFloat::toString
// ---------------------------------------------------------------------------

/// A small stack string; every string LLVM's `toString` produces with the
/// parameters used here is at most 25 bytes long.
struct StrBuf {
    buf: [u8; 48],
    len: usize,
}

impl StrBuf {
    fn new() -> Self {
        StrBuf {
            buf: [0; 48],
            len: 0,
        }
    }
    fn push(&mut self, c: u8) {
        self.buf[self.len] = c;
        self.len += 1;
    }
    fn push_n(&mut self, c: u8, n: usize) {
        self.buf[self.len..self.len + n].fill(c);
        self.len += n;
    }
    fn push_str(&mut self, s: &str) {
        for &c in s.as_bytes() {
            self.push(c);
        }
    }
    fn clear(&mut self) {
        self.len = 0;
    }
    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len]).expect("ASCII")
    }
}

/// LLVM's first `AdjustToPrecision`: how many trailing decimal digits of a
/// significand with `bits` active bits are dropped (by truncating division)
/// before digit generation.
fn tens_removable(bits: u32, format_precision: u32) -> u32 {
    let bits_required = (format_precision * 196).div_ceil(59);
    if bits <= bits_required {
        0
    } else {
        (bits - bits_required) * 59 / 196
    }
}

/// `APFloat::toString(Str, FormatPrecision, FormatMaxPadding, TruncateZero)`
/// for a finite pattern of `sem`.
fn llvm_to_string(
    out: &mut StrBuf,
    sem: Sem,
    bits: u64,
    format_precision: u32,
    max_padding: u32,
    truncate_zero: bool,
) {
    let neg = bits & sem.sign_bit() != 0;
    if sem.has_zero && bits & !sem.sign_bit() == 0 {
        if neg {
            out.push(b'-');
        }
        if max_padding == 0 {
            if truncate_zero {
                out.push_str("0.0E+0");
            } else {
                out.push_str("0.0");
                if format_precision > 1 {
                    out.push_n(b'0', format_precision as usize - 1);
                }
                out.push_str("e+00");
            }
        } else {
            out.push(b'0');
        }
        return;
    }
    let (_, sig, exp2) = sem.decompose(bits);
    to_string_impl(
        out,
        neg,
        sig,
        exp2,
        sem.prec,
        format_precision,
        max_padding,
        truncate_zero,
        false,
    );
}

/// LLVM's `toStringImpl` for the nonzero value `sig * 2^exp2` of a format
/// with `prec` bits of precision. `force_big` (tests only) disables the
/// 64-bit fast path.
#[allow(clippy::too_many_arguments)]
fn to_string_impl(
    out: &mut StrBuf,
    neg: bool,
    sig: u64,
    exp2: i32,
    prec: u32,
    format_precision: u32,
    max_padding: u32,
    truncate_zero: bool,
    force_big: bool,
) {
    if neg {
        out.push(b'-');
    }
    let fp = if format_precision == 0 {
        2 + prec * 59 / 196
    } else {
        format_precision
    };

    // Ignore trailing binary zeros, then turn n * 2^exp into M * 10^exp.
    let tz = sig.trailing_zeros();
    let n = sig >> tz;
    let mut exp = exp2 + tz as i32;
    let small = if force_big {
        None
    } else if exp >= 0 {
        if bit_len(n) + exp as u32 <= 64 {
            Some(n << exp)
        } else {
            None
        }
    } else if -exp <= 27 {
        n.checked_mul(POW5[(-exp) as usize])
    } else {
        None
    };
    let mut m = match small {
        Some(v) => {
            if exp > 0 {
                exp = 0;
            }
            let t = tens_removable(bit_len(v), fp);
            exp += t as i32;
            v / POW10[t as usize]
        }
        None => {
            let mut big = Big::<PRINT_LIMBS>::from_u64(n);
            // `Some(k)` when the value is n * 5^k * 10^-k.
            let k = if exp > 0 {
                big.shl(exp as u32);
                exp = 0;
                None
            } else {
                big.mul_pow5((-exp) as u32);
                Some((-exp) as u32)
            };
            let t = tens_removable(big.bit_len(), fp);
            exp += t as i32;
            if let Some(k) = k.filter(|&k| t <= k) {
                // n * 5^k / 10^t == n * 5^(k - t) / 2^t: shift instead of dividing.
                big = Big::from_u64(n);
                big.mul_pow5(k - t);
                big.shr(t);
            } else {
                big.div_pow10(t);
            }
            // At most bits_required + 4 <= 61 bits remain for fp <= 17.
            debug_assert!(big.len == 1);
            big.limbs[0]
        }
    };

    // Decimal digits, least significant first, dropping trailing zeros.
    let mut digits = [0u8; 20];
    let mut nd = 0usize;
    while m != 0 {
        let d = (m % 10) as u8;
        m /= 10;
        if nd == 0 && d == 0 {
            exp += 1;
        } else {
            digits[nd] = d;
            nd += 1;
        }
    }
    debug_assert!(nd > 0);

    // Second AdjustToPrecision: round half up to `fp` digits.
    let fpu = fp as usize;
    if nd > fpu {
        let mut first = nd - fpu;
        if digits[first - 1] < 5 {
            while first < nd && digits[first] == 0 {
                first += 1;
            }
        } else {
            while first < nd && digits[first] == 9 {
                first += 1;
            }
            if first < nd {
                digits[first] += 1;
            }
        }
        exp += first as i32;
        if first == nd {
            digits[0] = 1;
            nd = 1;
        } else {
            digits.copy_within(first..nd, 0);
            nd -= first;
        }
    }

    // Most significant digit first.
    let msd_first = |i: usize| b'0' + digits[nd - 1 - i];

    let scientific = if max_padding == 0 {
        true
    } else if exp >= 0 {
        exp as u32 > max_padding || nd as u32 + exp as u32 > fp
    } else {
        let msd = exp + nd as i32 - 1;
        msd < 0 && (-msd) as u32 > max_padding
    };

    if scientific {
        let mut e = exp + nd as i32 - 1;
        out.push(msd_first(0));
        out.push(b'.');
        if nd == 1 && truncate_zero {
            out.push(b'0');
        } else {
            for i in 1..nd {
                out.push(msd_first(i));
            }
        }
        if !truncate_zero && fpu + 1 > nd {
            out.push_n(b'0', fpu + 1 - nd);
        }
        out.push(if truncate_zero { b'E' } else { b'e' });
        out.push(if e >= 0 { b'+' } else { b'-' });
        e = e.abs();
        let mut expbuf = [0u8; 10];
        let mut ne = 0;
        loop {
            expbuf[ne] = b'0' + (e % 10) as u8;
            ne += 1;
            e /= 10;
            if e == 0 {
                break;
            }
        }
        if !truncate_zero && ne < 2 {
            expbuf[ne] = b'0';
            ne += 1;
        }
        for i in (0..ne).rev() {
            out.push(expbuf[i]);
        }
        return;
    }

    if exp >= 0 {
        for i in 0..nd {
            out.push(msd_first(i));
        }
        out.push_n(b'0', exp as usize);
        return;
    }

    let whole = exp + nd as i32;
    let mut i = 0;
    if whole > 0 {
        while i < whole as usize {
            out.push(msd_first(i));
            i += 1;
        }
        out.push(b'.');
    } else {
        out.push(b'0');
        out.push(b'.');
        out.push_n(b'0', (-whole) as usize);
    }
    while i < nd {
        out.push(msd_first(i));
        i += 1;
    }
}

/// MLIR's printing of a float element (mlir/lib/IR/AsmPrinter.cpp `printFloatValue`):
/// 1. if finite: s = APFloat::toString(FormatPrecision=6, FormatMaxPadding=0, TruncateZero=false);
///    if parse_decimal_exact(kind, s) == bits (bitwise), return s;
///    otherwise s2 = APFloat::toString() with defaults (FormatPrecision=0 meaning
///    2 + precision*59/196 significant digits, FormatMaxPadding=3, TruncateZero=true);
///    if s2 contains '.', return s2.
/// 2. otherwise (inf, nan, or no '.'): the raw bits in hexadecimal as a C literal with uppercase
///    digits and no leading zero padding: "0x7F800000", "0xFF800000", "0x7FC00000", "0x7C00".
#[must_use]
pub fn format_mlir(kind: FloatKind, bits: u64) -> String {
    let mut s = String::new();
    write_mlir(&mut s, kind, bits);
    s
}

/// Same as [`format_mlir`], appending to a String (no other allocation).
pub fn write_mlir(out: &mut String, kind: FloatKind, bits: u64) {
    let sem = kind.sem();
    let bits = bits & sem.mask();
    if !sem.is_nan(bits) && !sem.is_infinite(bits) {
        let mut s = StrBuf::new();
        llvm_to_string(&mut s, sem, bits, 6, 0, false);
        if parse_decimal_exact(kind, s.as_str()) == Some(bits) {
            out.push_str(s.as_str());
            return;
        }
        s.clear();
        llvm_to_string(&mut s, sem, bits, 0, 3, true);
        if s.as_str().contains('.') {
            out.push_str(s.as_str());
            return;
        }
    }
    let _ = write!(out, "0x{bits:X}");
}

#[cfg(test)]
#[allow(clippy::approx_constant)] // literals from MLIR test expectations
mod tests {
    use super::*;

    /// F8E8M0FNU has no sign: a negative decimal is NaN and 0 its smallest value, as
    /// `round_from_f64` (the sign bit used to land in the exponent: "-2" read as 2).
    #[test]
    fn unsigned_decimal_parse() {
        let k = FloatKind::F8E8M0FNU;
        assert_eq!(parse_decimal_exact(k, "2"), Some(128));
        assert_eq!(parse_decimal_exact(k, "-2"), Some(0xff));
        assert_eq!(parse_decimal_exact(k, "-1e999"), Some(0xff));
        assert_eq!(parse_decimal_exact(k, "0"), Some(0));
        assert_eq!(parse_decimal_exact(k, "-0"), Some(0));
        for v in ["2", "-2", "0", "0.25", "3"] {
            let f: f64 = v.parse().unwrap();
            assert_eq!(parse_decimal_exact(k, v), Some(round_from_f64(k, f)), "{v}");
        }
    }

    const ALL: [FloatKind; 7] = [
        FloatKind::F16,
        FloatKind::BF16,
        FloatKind::F32,
        FloatKind::F64,
        FloatKind::TF32,
        FloatKind::F8E4M3FN,
        FloatKind::F8E5M2,
    ];
    /// The formats small enough to enumerate.
    const SMALL: [FloatKind; 5] = [
        FloatKind::F16,
        FloatKind::BF16,
        FloatKind::TF32,
        FloatKind::F8E4M3FN,
        FloatKind::F8E5M2,
    ];

    /// xorshift64* pseudo-random numbers.
    pub(super) struct Rng(pub(super) u64);
    impl Rng {
        pub(super) fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
    }

    fn llvm_str(kind: FloatKind, bits: u64, p: u32, pad: u32, tz: bool) -> String {
        let mut s = StrBuf::new();
        llvm_to_string(&mut s, kind.sem(), bits, p, pad, tz);
        s.as_str().to_string()
    }

    fn f32b(v: f32) -> u64 {
        u64::from(v.to_bits())
    }

    // ---- metadata -------------------------------------------------------

    #[test]
    fn kind_metadata() {
        let widths = [16, 16, 32, 64, 19, 8, 8];
        let precs = [11, 8, 24, 53, 11, 4, 3];
        let names = ["f16", "bf16", "f32", "f64", "tf32", "f8E4M3FN", "f8E5M2"];
        for (i, k) in ALL.iter().enumerate() {
            assert_eq!(k.bit_width(), widths[i]);
            assert_eq!(k.precision(), precs[i]);
            assert_eq!(k.name(), names[i]);
            assert_eq!(FloatKind::from_name(names[i]), Some(*k));
            assert_eq!(k.has_infinity(), *k != FloatKind::F8E4M3FN);
        }
        assert_eq!(FloatKind::from_name("fp8e4m3fn"), Some(FloatKind::F8E4M3FN));
        assert_eq!(FloatKind::from_name("fp8e5m2"), Some(FloatKind::F8E5M2));
        assert_eq!(FloatKind::from_name("f8e4m3fn"), None);
        assert_eq!(FloatKind::from_name("i32"), None);
        assert_eq!(FloatKind::from_name(""), None);
    }

    #[test]
    fn special_encodings() {
        assert_eq!(round_from_f64(FloatKind::F16, f64::NAN), 0x7E00);
        assert_eq!(round_from_f64(FloatKind::F16, -f64::NAN), 0xFE00);
        assert_eq!(round_from_f64(FloatKind::BF16, f64::NAN), 0x7FC0);
        assert_eq!(round_from_f64(FloatKind::F32, f64::NAN), 0x7FC0_0000);
        assert_eq!(
            round_from_f64(FloatKind::F64, f64::NAN),
            0x7FF8_0000_0000_0000
        );
        assert_eq!(
            round_from_f64(FloatKind::F64, f64::from_bits(0x7FF0_0000_0000_0001)),
            0x7FF8_0000_0000_0000
        );
        assert_eq!(round_from_f64(FloatKind::TF32, f64::NAN), 0x3FE00);
        assert_eq!(round_from_f64(FloatKind::F8E4M3FN, f64::NAN), 0x7F);
        assert_eq!(round_from_f64(FloatKind::F8E4M3FN, -f64::NAN), 0xFF);
        assert_eq!(round_from_f64(FloatKind::F8E5M2, f64::NAN), 0x7E);
        assert_eq!(round_from_f64(FloatKind::F16, f64::INFINITY), 0x7C00);
        assert_eq!(round_from_f64(FloatKind::F16, f64::NEG_INFINITY), 0xFC00);
        assert_eq!(round_from_f64(FloatKind::TF32, f64::INFINITY), 0x3FC00);
        assert_eq!(round_from_f64(FloatKind::F8E5M2, f64::NEG_INFINITY), 0xFC);
        assert_eq!(round_from_f64(FloatKind::F8E4M3FN, f64::INFINITY), 0x7F);
        assert_eq!(round_from_f64(FloatKind::F8E4M3FN, f64::NEG_INFINITY), 0xFF);
        assert_eq!(
            round_from_f64(FloatKind::F64, f64::INFINITY),
            0x7FF0_0000_0000_0000
        );
        for k in ALL {
            assert_eq!(round_from_f64(k, 0.0), 0);
            assert_eq!(round_from_f64(k, -0.0), 1u64 << (k.bit_width() - 1));
            let nan = round_from_f64(k, f64::NAN);
            assert!(is_nan(k, nan));
            assert!(!is_infinite(k, nan));
            let inf = round_from_f64(k, f64::INFINITY);
            assert_eq!(is_infinite(k, inf), k.has_infinity());
            assert_eq!(is_nan(k, inf), !k.has_infinity());
            assert!(!is_nan(k, round_from_f64(k, 1.0)));
            assert!(!is_infinite(k, round_from_f64(k, 1.0)));
        }
        // F8E4M3FN: exponent field all ones is a normal binade except the NaN.
        assert!(!is_nan(FloatKind::F8E4M3FN, 0x7E));
        assert_eq!(to_f64(FloatKind::F8E4M3FN, 0x7E), 448.0);
        assert_eq!(to_f64(FloatKind::F8E4M3FN, 0x78), 256.0);
        assert!(to_f64(FloatKind::F8E4M3FN, 0x7F).is_nan());
        assert!(to_f64(FloatKind::F8E4M3FN, 0xFF).is_sign_negative());
        assert_eq!(to_f64(FloatKind::F8E5M2, 0x7C), f64::INFINITY);
        assert!(to_f64(FloatKind::F8E5M2, 0x7D).is_nan());
        assert_eq!(to_f64(FloatKind::F8E5M2, 0x7B), 57344.0);
        assert_eq!(to_f64(FloatKind::TF32, 0x3FC00), f64::INFINITY);
        assert_eq!(to_f64(FloatKind::TF32, 0x1FC00), 1.0);
        // High bits beyond the width are ignored.
        assert_eq!(to_f64(FloatKind::F16, 0xFFFF_3C00), 1.0);
    }

    #[test]
    fn thirteen_three_formats() {
        use FloatKind::{F4E2M1FN as E2M1, F8E8M0FNU as E8M0};
        assert_eq!((E2M1.bit_width(), E2M1.precision()), (4, 2));
        assert_eq!((E8M0.bit_width(), E8M0.precision()), (8, 1));
        assert_eq!(FloatKind::from_name("f4E2M1FN"), Some(E2M1));
        assert_eq!(FloatKind::from_name("f8E8M0FNU"), Some(E8M0));
        assert!(!E2M1.has_infinity() && !E2M1.has_nan() && E2M1.is_signed());
        assert!(!E8M0.has_infinity() && E8M0.has_nan() && !E8M0.is_signed() && !E8M0.has_zero());
        // Every f4E2M1FN pattern, and back.
        let values = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0];
        for (c, v) in values.iter().enumerate() {
            assert_eq!(to_f64(E2M1, c as u64), *v);
            assert_eq!(to_f64(E2M1, c as u64 | 8), -v);
            assert_eq!(round_from_f64(E2M1, *v), c as u64);
            assert!(!is_nan(E2M1, c as u64) && !is_infinite(E2M1, c as u64));
        }
        assert!(is_subnormal(E2M1, 1) && !is_subnormal(E2M1, 2));
        // Saturation (no infinity), NaN to +6, ties to even.
        assert_eq!(round_from_f64(E2M1, 100.0), 0x7);
        assert_eq!(round_from_f64(E2M1, f64::NEG_INFINITY), 0xF);
        assert_eq!(round_from_f64(E2M1, f64::NAN), 0x7);
        assert_eq!(round_from_f64(E2M1, 5.0), 0x6);
        assert_eq!(round_from_f64(E2M1, 2.5), 0x4);
        assert_eq!(round_from_f64(E2M1, 0.25), 0x0);
        assert_eq!(round_from_f64_with(E2M1, 7.0, Round::TowardZero), 0x7);
        // f8E8M0FNU: 2^(e - 127), 0xFF NaN, no zero, no sign.
        for e in 0..255u64 {
            assert_eq!(to_f64(E8M0, e), 2f64.powi(e as i32 - 127));
            assert_eq!(round_from_f64(E8M0, 2f64.powi(e as i32 - 127)), e);
            assert!(!is_subnormal(E8M0, e) && !is_nan(E8M0, e));
        }
        assert!(is_nan(E8M0, 0xFF) && to_f64(E8M0, 0xFF).is_nan());
        assert_eq!(round_from_f64(E8M0, 0.0), 0x00);
        assert_eq!(round_from_f64(E8M0, -0.0), 0x00);
        assert_eq!(round_from_f64(E8M0, -2.0), 0xFF);
        assert_eq!(round_from_f64(E8M0, f64::INFINITY), 0xFF);
        assert_eq!(round_from_f64(E8M0, 3.0), 0x81);
        assert_eq!(round_from_f64_with(E8M0, 3.0, Round::TowardZero), 0x80);
        assert_eq!(round_from_f64_with(E8M0, 3.0, Round::TowardPositive), 0x81);
        assert_eq!(round_from_f64_with(E8M0, 1e-50, Round::TowardZero), 0x00);
        assert_eq!(
            round_from_f64_with(E8M0, 1e-50, Round::TowardPositive),
            0x00
        );
        assert_eq!(round_from_f64_with(E8M0, 1e60, Round::TowardZero), 0xFE);
        assert_eq!(round_from_f64_with(E8M0, 1e60, Round::TowardPositive), 0xFF);
        // MLIR's printing: the smallest value is 2^-127, not a zero.
        assert_eq!(format_mlir(E8M0, 0), "5.877470e-39");
        assert_eq!(format_mlir(E8M0, 0xFF), "0xFF");
        assert_eq!(format_mlir(E2M1, 0xF), "-6.000000e+00");
        assert_eq!(format_mlir(E2M1, 0x8), "-0.000000e+00");
        assert_eq!(parse_decimal_exact(E8M0, "4.0"), Some(0x81));
        assert_eq!(parse_decimal_exact(E2M1, "1.5"), Some(0x3));
    }

    // ---- rounding ------------------------------------------------------

    #[test]
    fn round_basic_values() {
        use FloatKind::*;
        assert_eq!(round_from_f64(F16, 1.0), 0x3C00);
        assert_eq!(round_from_f64(F16, -2.0), 0xC000);
        assert_eq!(round_from_f64(F16, 65504.0), 0x7BFF);
        assert_eq!(round_from_f64(F16, 65519.99), 0x7BFF);
        assert_eq!(round_from_f64(F16, 65520.0), 0x7C00); // tie goes to even (inf)
        assert_eq!(round_from_f64(F16, -1e10), 0xFC00);
        assert_eq!(round_from_f64(F16, 2f64.powi(-14)), 0x0400);
        assert_eq!(round_from_f64(F16, 2f64.powi(-24)), 0x0001);
        assert_eq!(round_from_f64(F16, 2f64.powi(-25)), 0x0000); // tie to even zero
        assert_eq!(round_from_f64(F16, -2f64.powi(-25)), 0x8000);
        assert_eq!(round_from_f64(F16, 2f64.powi(-25) * 1.000001), 0x0001);
        assert_eq!(round_from_f64(F16, 3.0 * 2f64.powi(-25)), 0x0002); // tie to even
        assert_eq!(round_from_f64(F16, 1e-30), 0);
        assert_eq!(round_from_f64(F16, -3.14159), 0xC248);
        assert_eq!(to_f64(F16, 0xC248), -3.140625);
        assert_eq!(round_from_f64(F16, 1.0 + 2f64.powi(-11)), 0x3C00); // tie, even
        assert_eq!(round_from_f64(F16, 1.0 + 3.0 * 2f64.powi(-11)), 0x3C02); // tie, even
        assert_eq!(round_from_f64(F16, 2f64.powi(-14) - 2f64.powi(-25)), 0x0400); // rounds up into normal
        assert_eq!(round_from_f64(BF16, 1.0), 0x3F80);
        assert_eq!(round_from_f64(BF16, 5.5), 0x40B0);
        assert_eq!(round_from_f64(BF16, 1.00390625), 0x3F80); // tie, even
        assert_eq!(round_from_f64(BF16, 1.01171875), 0x3F82); // tie, even (up)
        assert_eq!(round_from_f64(BF16, 3.4e38), 0x7F80);
        assert_eq!(round_from_f64(BF16, 3.3895e38), 0x7F7F);
        assert_eq!(round_from_f64(BF16, 2f64.powi(-133)), 0x0001);
        assert_eq!(round_from_f64(F32, 0.1), 0x3DCC_CCCD);
        assert_eq!(round_from_f64(F32, 3.4028235677973366e38), 0x7F80_0000);
        assert_eq!(round_from_f64(F32, 3.4028234663852886e38), 0x7F7F_FFFF);
        assert_eq!(round_from_f64(F32, 2f64.powi(-149)), 1);
        assert_eq!(round_from_f64(F32, 2f64.powi(-150)), 0);
        assert_eq!(round_from_f64(TF32, 1.0), 0x1FC00);
        assert_eq!(round_from_f64(TF32, 1.0 + 2f64.powi(-10)), 0x1FC01);
        assert_eq!(round_from_f64(TF32, 1.0 + 2f64.powi(-11)), 0x1FC00);
        let tf32_max = (2.0 - 2f64.powi(-10)) * 2f64.powi(127);
        assert_eq!(round_from_f64(TF32, tf32_max), 0x3FBFF);
        assert_eq!(to_f64(TF32, 0x3FBFF), tf32_max);
        assert_eq!(
            round_from_f64(TF32, (2.0 - 2f64.powi(-11)) * 2f64.powi(127)),
            0x3FC00
        ); // tie: odd max rounds up
        assert_eq!(
            round_from_f64(
                TF32,
                (2.0 - 2f64.powi(-11) - 2f64.powi(-40)) * 2f64.powi(127)
            ),
            0x3FBFF
        );
        assert_eq!(round_from_f64(TF32, -3.5e38), 0x7FC00);
        assert_eq!(round_from_f64(TF32, 2f64.powi(-136)), 1);
        assert_eq!(round_from_f64(F8E4M3FN, 448.0), 0x7E);
        assert_eq!(round_from_f64(F8E4M3FN, 464.0), 0x7E); // tie to even
        assert_eq!(round_from_f64(F8E4M3FN, 464.0001), 0x7F); // NaN
        assert_eq!(round_from_f64(F8E4M3FN, -1000.0), 0xFF);
        assert_eq!(round_from_f64(F8E4M3FN, 1.0), 0x38);
        assert_eq!(round_from_f64(F8E4M3FN, 2f64.powi(-9)), 0x01);
        assert_eq!(round_from_f64(F8E4M3FN, 2f64.powi(-10)), 0x00);
        assert_eq!(round_from_f64(F8E4M3FN, 0.875 * 2f64.powi(-6)), 0x07);
        assert_eq!(round_from_f64(F8E4M3FN, 0.9375 * 2f64.powi(-6)), 0x08); // tie, even -> min normal
        assert_eq!(round_from_f64(F8E5M2, 57344.0), 0x7B);
        assert_eq!(round_from_f64(F8E5M2, 61439.0), 0x7B);
        assert_eq!(round_from_f64(F8E5M2, 61440.0), 0x7C); // tie to even: inf
        assert_eq!(round_from_f64(F8E5M2, 1.0), 0x3C);
        assert_eq!(round_from_f64(F8E5M2, 1.125), 0x3C); // tie, even
        assert_eq!(round_from_f64(F8E5M2, 1.375), 0x3E); // tie, even (up)
        assert_eq!(round_from_f64(F8E5M2, 2f64.powi(-16)), 0x01);
        assert_eq!(round_from_f64(F8E5M2, 2f64.powi(-17)), 0x00);
        assert_eq!(round_from_f64(F64, 2.5), 2.5f64.to_bits());
        assert_eq!(round_from_f64(F64, -5e-324), (-5e-324f64).to_bits());
    }

    #[test]
    fn round_f32_matches_rust_casts() {
        let mut rng = Rng(0x1234_5678_9ABC_DEF1);
        let check = |v: f64| {
            if !v.is_nan() {
                assert_eq!(round_from_f64(FloatKind::F32, v), f32b(v as f32), "{v:e}");
            }
        };
        for _ in 0..200_000 {
            let r = rng.next();
            check(f64::from_bits(r));
            // Concentrate on the f32 range, including subnormals.
            let e = (r >> 52) % 320;
            let v = f64::from_bits((r & 0x800F_FFFF_FFFF_FFFF) | ((e + 1023 - 170) << 52));
            check(v);
            // Exact f32 midpoints and their f64 neighbours.
            let f = f32::from_bits(rng.next() as u32);
            if f.is_finite() {
                let next = f32::from_bits(f.to_bits() + 1);
                if next.is_finite() {
                    let mid = (f64::from(f) + f64::from(next)) / 2.0;
                    check(mid);
                    check(f64::from_bits(mid.to_bits() + 1));
                    check(f64::from_bits(mid.to_bits() - 1));
                }
            }
        }
    }

    /// All finite non-negative values of a narrow format, ascending.
    fn finite_values(kind: FloatKind) -> Vec<(f64, u64)> {
        let sem = kind.sem();
        let mut v: Vec<(f64, u64)> = (0..=(sem.mask() >> 1))
            .filter(|&b| !sem.is_nan(b) && !sem.is_infinite(b))
            .map(|b| (to_f64(kind, b), b))
            .collect();
        v.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap());
        v
    }

    /// Reference rounding by searching the value table.
    fn reference_round(kind: FloatKind, table: &[(f64, u64)], v: f64, mode: Round) -> u64 {
        let sem = kind.sem();
        let neg = v.is_sign_negative();
        let a = v.abs();
        let dir = mode.dir(neg);
        let idx = table.partition_point(|e| e.0 <= a); // table[idx-1].0 <= a < table[idx].0
        let (lo, lo_bits) = table[idx - 1];
        let sign = sem.sign(neg);
        if lo == a {
            return sign | lo_bits;
        }
        // Next value above `lo`: either in the table or the overflow point.
        let (hi, hi_bits, hi_even) = match table.get(idx) {
            Some(&(h, hb)) => (h, Some(hb), hb & 1 == 0),
            None => {
                let ulp = lo - table[idx - 2].0;
                // Overflow value: 2^(emax+1) for IEEE formats (even significand),
                // or the NaN slot for F8E4M3FN (odd significand).
                (lo + ulp, None, sem.nonfinite != NonFinite::NanOnly)
            }
        };
        let pick_hi = match dir {
            Dir::Down => false,
            Dir::Up => true,
            Dir::Nearest => {
                let mid = (lo + hi) / 2.0;
                a > mid || (a == mid && hi_even)
            }
        };
        if !pick_hi {
            return sign | lo_bits;
        }
        match hi_bits {
            Some(b) => sign | b,
            None => sem.infinity(neg),
        }
    }

    fn reference_overflow(kind: FloatKind, v: f64, mode: Round) -> u64 {
        let sem = kind.sem();
        let neg = v.is_sign_negative();
        match mode.dir(neg) {
            Dir::Down => sem.max_finite(neg),
            _ => sem.infinity(neg),
        }
    }

    #[test]
    fn round_narrow_against_table() {
        let modes = [
            Round::NearestEven,
            Round::TowardZero,
            Round::TowardNegative,
            Round::TowardPositive,
        ];
        for kind in SMALL {
            let table = finite_values(kind);
            let max = table.last().unwrap().0;
            let ulp_max = max - table[table.len() - 2].0;
            let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ u64::from(kind.bit_width()));
            let mut inputs = Vec::new();
            // Values, midpoints and their f64 neighbours (exhaustive for the
            // 8-bit formats, sampled for the wider ones).
            let step = (table.len() / 8000).max(1);
            for w in table.windows(2).step_by(step) {
                let mid = (w[0].0 + w[1].0) / 2.0;
                for x in [w[0].0, mid] {
                    inputs.push(x);
                    if x > 0.0 {
                        inputs.push(f64::from_bits(x.to_bits() + 1));
                        inputs.push(f64::from_bits(x.to_bits() - 1));
                    }
                }
            }
            let top_mid = max + ulp_max / 2.0;
            for x in [max, top_mid, max + ulp_max, max * 4.0, 1e300] {
                inputs.push(x);
                inputs.push(f64::from_bits(x.to_bits() + 1));
                inputs.push(f64::from_bits(x.to_bits() - 1));
            }
            for _ in 0..20_000 {
                let r = rng.next();
                let e = (r >> 52) % 80;
                inputs.push(
                    f64::from_bits((r & 0x000F_FFFF_FFFF_FFFF) | ((1023 + e - 40) << 52)) * max
                        / 2f64.powi(20),
                );
            }
            let huge_limit = max + ulp_max; // beyond this everything overflows
            for &x in &inputs {
                for v in [x, -x] {
                    for mode in modes {
                        let got = round_from_f64_with(kind, v, mode);
                        let want = if v.abs() >= huge_limit {
                            reference_overflow(kind, v, mode)
                        } else {
                            reference_round(kind, &table, v, mode)
                        };
                        assert_eq!(got, want, "{kind:?} {v:e} {mode:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn directed_rounding() {
        use FloatKind::*;
        use Round::*;
        let v = 1.0 + 2f64.powi(-12); // between f16 1.0 and 1.0+2^-10
        assert_eq!(round_from_f64_with(F16, v, NearestEven), 0x3C00);
        assert_eq!(round_from_f64_with(F16, v, TowardZero), 0x3C00);
        assert_eq!(round_from_f64_with(F16, v, TowardNegative), 0x3C00);
        assert_eq!(round_from_f64_with(F16, v, TowardPositive), 0x3C01);
        assert_eq!(round_from_f64_with(F16, -v, TowardNegative), 0xBC01);
        assert_eq!(round_from_f64_with(F16, -v, TowardPositive), 0xBC00);
        assert_eq!(round_from_f64_with(F16, -v, TowardZero), 0xBC00);
        // Overflow.
        assert_eq!(round_from_f64_with(F16, 1e6, TowardZero), 0x7BFF);
        assert_eq!(round_from_f64_with(F16, 1e6, TowardNegative), 0x7BFF);
        assert_eq!(round_from_f64_with(F16, 1e6, TowardPositive), 0x7C00);
        assert_eq!(round_from_f64_with(F16, -1e6, TowardPositive), 0xFBFF);
        assert_eq!(round_from_f64_with(F16, -1e6, TowardNegative), 0xFC00);
        assert_eq!(round_from_f64_with(F8E4M3FN, 1e6, TowardZero), 0x7E);
        assert_eq!(round_from_f64_with(F8E4M3FN, 449.0, TowardPositive), 0x7F);
        assert_eq!(round_from_f64_with(F8E4M3FN, -449.0, TowardPositive), 0xFE);
        assert_eq!(
            round_from_f64_with(F8E4M3FN, f64::INFINITY, TowardZero),
            0x7F
        );
        assert_eq!(round_from_f64_with(F8E5M2, 1e9, TowardZero), 0x7B);
        assert_eq!(round_from_f64_with(F32, 1e39, TowardZero), 0x7F7F_FFFF);
        assert_eq!(
            round_from_f64_with(F32, f64::INFINITY, TowardZero),
            0x7F80_0000
        );
        // Underflow.
        assert_eq!(round_from_f64_with(F32, 1e-60, TowardPositive), 1);
        assert_eq!(round_from_f64_with(F32, 1e-60, TowardNegative), 0);
        assert_eq!(
            round_from_f64_with(F32, -1e-60, TowardNegative),
            0x8000_0001
        );
        assert_eq!(round_from_f64_with(F32, -1e-60, TowardZero), 0x8000_0000);
        assert_eq!(round_from_f64_with(F16, 5e-324, TowardPositive), 1);
        assert_eq!(
            round_from_f64_with(BF16, 1.0 - 1e-10, TowardPositive),
            0x3F80
        );
        assert_eq!(round_from_f64_with(BF16, 1.0 - 1e-10, TowardZero), 0x3F7F);
        // Exact values are unaffected by the mode.
        for mode in [NearestEven, TowardZero, TowardNegative, TowardPositive] {
            assert_eq!(round_from_f64_with(F8E5M2, -0.75, mode), 0xBA);
            assert_eq!(round_from_f64_with(F64, 0.1, mode), 0.1f64.to_bits());
        }
    }

    #[test]
    fn to_f64_round_trips_all_small_patterns() {
        for kind in SMALL {
            let sem = kind.sem();
            let mut nans = 0;
            for b in 0..=sem.mask() {
                let v = to_f64(kind, b);
                let neg = b & sem.sign_bit() != 0;
                assert_eq!(v.is_sign_negative(), neg, "{kind:?} {b:#x}");
                if is_nan(kind, b) {
                    nans += 1;
                    assert!(v.is_nan());
                    assert_eq!(round_from_f64(kind, v), sem.default_nan(neg));
                } else {
                    assert_eq!(round_from_f64(kind, v), b, "{kind:?} {b:#x} {v:e}");
                    for mode in [
                        Round::TowardZero,
                        Round::TowardNegative,
                        Round::TowardPositive,
                    ] {
                        assert_eq!(round_from_f64_with(kind, v, mode), b);
                    }
                    assert_eq!(v.is_infinite(), is_infinite(kind, b));
                }
            }
            let expected_nans = if sem.nonfinite == NonFinite::NanOnly {
                2
            } else {
                2 * sem.frac_mask()
            };
            assert_eq!(nans, expected_nans, "{kind:?}");
        }
        // f16 agrees with the known encoding of a few values.
        assert_eq!(to_f64(FloatKind::F16, 0x0001), 2f64.powi(-24));
        assert_eq!(to_f64(FloatKind::F16, 0x7BFF), 65504.0);
        assert_eq!(to_f64(FloatKind::BF16, 0x7F7F), 3.3895313892515355e38);
        assert_eq!(to_f64(FloatKind::F8E4M3FN, 0x01), 2f64.powi(-9));
        assert_eq!(to_f64(FloatKind::F8E5M2, 0x01), 2f64.powi(-16));
    }

    #[test]
    fn to_f64_f32_and_f64() {
        let mut rng = Rng(77);
        for _ in 0..100_000 {
            let b = rng.next();
            let f = f32::from_bits(b as u32);
            let v = to_f64(FloatKind::F32, b & 0xFFFF_FFFF);
            if f.is_nan() {
                assert!(v.is_nan());
                assert_eq!(v.is_sign_negative(), f.is_sign_negative());
            } else {
                assert_eq!(v, f64::from(f));
                assert_eq!(round_from_f64(FloatKind::F32, v), b & 0xFFFF_FFFF);
            }
            assert_eq!(to_f64(FloatKind::F64, b).to_bits(), b);
        }
    }

    // ---- parsing -------------------------------------------------------

    #[test]
    fn parse_syntax() {
        use FloatKind::*;
        let ok = [
            "1",
            "1.",
            ".5",
            "-.5",
            "+2.5",
            "1e5",
            "1E5",
            "1e+5",
            "1e-5",
            "2.e3",
            "0",
            "-0",
            "00.00",
            "1e",
            "1e+",
            "1e-",
            "0e999999999999999999999",
        ];
        for s in ok {
            assert!(parse_decimal_exact(F32, s).is_some(), "{s}");
        }
        let bad = [
            "",
            "-",
            "+",
            ".",
            "-.",
            ".e5",
            "e5",
            "1.2.3",
            "1..",
            "1e5x",
            "1x",
            " 1",
            "1 ",
            "inf",
            "-inf",
            "nan",
            "NaN",
            "0x1p3",
            "0x3F800000",
            "1e+-5",
            "1e5.0",
            "--1",
            "1_0",
            "١",
        ];
        for s in bad {
            assert_eq!(parse_decimal_exact(F32, s), None, "{s}");
        }
        assert_eq!(parse_decimal_exact(F32, "1e"), Some(0x3F80_0000));
        assert_eq!(parse_decimal_exact(F32, "2.5e-"), Some(f32b(2.5)));
        assert_eq!(parse_decimal_exact(F32, "-0"), Some(0x8000_0000));
        assert_eq!(parse_decimal_exact(F16, "-0.0e10"), Some(0x8000));
        assert_eq!(parse_decimal_exact(F8E4M3FN, "-0.0"), Some(0x80));
    }

    #[test]
    fn parse_values() {
        use FloatKind::*;
        assert_eq!(parse_decimal_exact(F32, "1.000000e+00"), Some(0x3F80_0000));
        assert_eq!(parse_decimal_exact(F32, "0.1"), Some(0x3DCC_CCCD));
        assert_eq!(parse_decimal_exact(F32, "-3.14159"), Some(f32b(-3.14159)));
        assert_eq!(parse_decimal_exact(F16, "-3.14159"), Some(0xC248));
        assert_eq!(parse_decimal_exact(F16, "65504"), Some(0x7BFF));
        assert_eq!(parse_decimal_exact(F16, "65519.999"), Some(0x7BFF));
        assert_eq!(parse_decimal_exact(F16, "65520"), Some(0x7C00));
        assert_eq!(parse_decimal_exact(F16, "-1e10"), Some(0xFC00));
        assert_eq!(parse_decimal_exact(F8E4M3FN, "1e10"), Some(0x7F));
        assert_eq!(parse_decimal_exact(F8E4M3FN, "-1e400"), Some(0xFF));
        assert_eq!(parse_decimal_exact(F8E4M3FN, "464"), Some(0x7E));
        assert_eq!(
            parse_decimal_exact(F8E4M3FN, "464.00000000000000000000001"),
            Some(0x7F)
        );
        assert_eq!(parse_decimal_exact(F8E5M2, "1e10"), Some(0x7C));
        assert_eq!(parse_decimal_exact(F32, "1e-50"), Some(0));
        assert_eq!(parse_decimal_exact(F32, "-1e-50"), Some(0x8000_0000));
        assert_eq!(parse_decimal_exact(F32, "1e39"), Some(0x7F80_0000));
        assert_eq!(
            parse_decimal_exact(F64, "2.718281828459045"),
            Some(2.718281828459045f64.to_bits())
        );
        assert_eq!(
            parse_decimal_exact(F64, "1e400"),
            Some(f64::INFINITY.to_bits())
        );
        assert_eq!(parse_decimal_exact(F64, "-0.0"), Some((-0.0f64).to_bits()));
        assert_eq!(parse_decimal_exact(BF16, "5.5"), Some(0x40B0));
        assert_eq!(parse_decimal_exact(TF32, "1.0"), Some(0x1FC00));
        assert_eq!(parse_decimal_exact(F32, "2."), Some(0x4000_0000));
        assert_eq!(
            parse_decimal_exact(
                F32,
                "0.000000000000000000000000000000000000000000000000001e51"
            ),
            Some(0x3F80_0000)
        );
    }

    #[test]
    fn parse_double_rounding_cases() {
        use FloatKind::*;
        // f32: midpoint between 1 and 1 + 2^-23 is 1 + 2^-24, exactly:
        let mid = "1.000000059604644775390625";
        assert_eq!(parse_decimal_exact(F32, mid), Some(0x3F80_0000)); // tie -> even
        // A hair above: f64 rounds to the midpoint, f32 must round up.
        let above = "1.00000005960464477539062500000000001";
        assert_eq!(above.parse::<f64>().unwrap(), 1.0 + 2f64.powi(-24));
        assert_eq!(round_from_f64(F32, above.parse().unwrap()), 0x3F80_0000); // naive is wrong
        assert_eq!(parse_decimal_exact(F32, above), Some(0x3F80_0001));
        assert_eq!(
            parse_decimal_exact(F32, "-1.00000005960464477539062500000000001"),
            Some(0xBF80_0001)
        );
        let below = "1.00000005960464477539062499999999999";
        assert_eq!(parse_decimal_exact(F32, below), Some(0x3F80_0000));
        // Odd neighbour: midpoint between 1+2^-23 and 1+2^-22 ties upward.
        assert_eq!(
            parse_decimal_exact(F32, "1.000000178813934326171875"),
            Some(0x3F80_0002)
        );
        assert_eq!(
            parse_decimal_exact(F32, "1.000000178813934326171874999999"),
            Some(0x3F80_0001)
        );
        // f16: midpoint 1 + 2^-11 = 1.00048828125.
        assert_eq!(parse_decimal_exact(F16, "1.00048828125"), Some(0x3C00));
        assert_eq!(
            parse_decimal_exact(F16, "1.000488281250000000000000001"),
            Some(0x3C01)
        );
        assert_eq!(
            parse_decimal_exact(F16, "1.000488281249999999999999999"),
            Some(0x3C00)
        );
        // Trailing zeros do not count as excess digits.
        assert_eq!(
            parse_decimal_exact(F16, "1.000488281250000000000000000000000000000"),
            Some(0x3C00)
        );
        assert_eq!(parse_decimal_exact(F16, "100048828125e-11"), Some(0x3C00));
        assert_eq!(
            parse_decimal_exact(F16, "0.000100048828125000000000000001e4"),
            Some(0x3C01)
        );
        // f16 subnormal boundary: 2^-25 is the midpoint between 0 and 2^-24.
        let m25 = "0.0000000298023223876953125";
        assert_eq!(parse_decimal_exact(F16, m25), Some(0));
        assert_eq!(
            parse_decimal_exact(F16, "0.00000002980232238769531250000000000000001"),
            Some(1)
        );
        assert_eq!(
            parse_decimal_exact(F16, "-0.00000002980232238769531250000000000000001"),
            Some(0x8001)
        );
        // f16 overflow midpoint 65520.
        assert_eq!(
            parse_decimal_exact(F16, "65519.99999999999999999999"),
            Some(0x7BFF)
        );
        assert_eq!(
            parse_decimal_exact(F16, "65520.00000000000000000001"),
            Some(0x7C00)
        );
        // bf16 midpoint 1 + 2^-8 = 1.00390625.
        assert_eq!(parse_decimal_exact(BF16, "1.00390625"), Some(0x3F80));
        assert_eq!(
            parse_decimal_exact(BF16, "1.00390625000000000000000001"),
            Some(0x3F81)
        );
        // f8E4M3FN overflow midpoint 464 and f8E5M2 midpoint 1.125.
        assert_eq!(
            parse_decimal_exact(F8E4M3FN, "463.99999999999999999999"),
            Some(0x7E)
        );
        assert_eq!(parse_decimal_exact(F8E5M2, "1.125"), Some(0x3C));
        assert_eq!(
            parse_decimal_exact(F8E5M2, "1.12500000000000000000001"),
            Some(0x3D)
        );
        // tf32: midpoint 1 + 2^-11.
        assert_eq!(
            parse_decimal_exact(TF32, "1.000488281250000000000000001"),
            Some(0x1FC01)
        );
        // Very long inputs (beyond the comparison's digit budget).
        let mut long = String::from("1.000488281250");
        long.push_str(&"0".repeat(2000));
        long.push('1');
        assert_eq!(parse_decimal_exact(F16, &long), Some(0x3C01));
        let mut long = String::from("1.00048828124");
        long.push_str(&"9".repeat(2000));
        assert_eq!(parse_decimal_exact(F16, &long), Some(0x3C00));
        let mut long = String::from("1.00048828125");
        long.push_str(&"0".repeat(3000));
        assert_eq!(parse_decimal_exact(F16, &long), Some(0x3C00));
    }

    /// Exact decimal expansion of a finite f64 (Rust prints exact digits for
    /// large precisions).
    fn exact_decimal(v: f64) -> String {
        format!("{v:.1100e}")
    }

    /// The exact decimal expansion of `v` and the same with a tiny amount
    /// added or subtracted in far decimal places.
    fn nudged_decimals(v: f64) -> (String, String, String) {
        let s = exact_decimal(v);
        let (mant, exp) = s.split_once('e').unwrap();
        let mant = mant.trim_end_matches('0');
        let digits: Vec<u8> = mant.bytes().filter(|c| *c != b'.').collect();
        let mut low = digits.clone();
        *low.last_mut().unwrap() -= 1; // the last digit is nonzero
        let low = String::from_utf8(low).unwrap();
        let all = String::from_utf8(digits).unwrap();
        let dotted = |d: &str| format!("{}.{}", &d[..1], &d[1..]);
        (
            format!("{}e{exp}", dotted(&all)),
            format!("{}000000000000000000000001e{exp}", dotted(&all)),
            format!("{}999999999999999999999e{exp}", dotted(&low)),
        )
    }

    #[test]
    fn parse_narrow_matches_exact_rounding_at_midpoints() {
        // For midpoints of every narrow format, the exact expansion ties to
        // even, and nudging its last digit decides the direction.
        for kind in SMALL {
            let table = finite_values(kind);
            let mut rng = Rng(5 + u64::from(kind.bit_width()));
            for _ in 0..3000 {
                let i = 1 + (rng.next() as usize) % (table.len() - 2);
                let (lo, lo_bits) = table[i];
                let (hi, hi_bits) = table[i + 1];
                let mid = (lo + hi) / 2.0;
                let (exact, above, below) = nudged_decimals(mid);
                let even = if lo_bits & 1 == 0 { lo_bits } else { hi_bits };
                assert_eq!(
                    parse_decimal_exact(kind, &exact),
                    Some(even),
                    "{kind:?} {exact}"
                );
                assert_eq!(
                    parse_decimal_exact(kind, &above),
                    Some(hi_bits),
                    "{kind:?} {above}"
                );
                assert_eq!(
                    parse_decimal_exact(kind, &below),
                    Some(lo_bits),
                    "{kind:?} {below}"
                );
                let neg = format!("-{below}");
                assert_eq!(
                    parse_decimal_exact(kind, &neg),
                    Some(lo_bits | kind.sem().sign_bit())
                );
            }
        }
    }

    #[test]
    fn parse_f32_matches_rust_f32_parse() {
        // Rust's f32 parser is correctly rounded directly from decimal.
        let mut rng = Rng(31337);
        for _ in 0..20_000 {
            let r = rng.next();
            let digits = 1 + (r % 25) as usize;
            let mut s = String::new();
            if r & (1 << 40) != 0 {
                s.push('-');
            }
            let mut d = rng.next();
            for i in 0..digits {
                if i == 1 {
                    s.push('.');
                }
                s.push((b'0' + (d % 10) as u8) as char);
                d /= 10;
                if d == 0 {
                    d = rng.next();
                }
            }
            let e = (r >> 20) % 100;
            s.push_str(&format!("e{}", e as i64 - 50));
            let want = f32b(s.parse::<f32>().unwrap());
            assert_eq!(parse_decimal_exact(FloatKind::F32, &s), Some(want), "{s}");
        }
        // And on exact f32 midpoints with nudges.
        for _ in 0..20_000 {
            let f = f32::from_bits((rng.next() as u32) & 0x7F7F_FFFF);
            let mid = (f64::from(f) + f64::from(f32::from_bits(f.to_bits() + 1))) / 2.0;
            let (exact, above, below) = nudged_decimals(mid);
            for t in [exact, above, below] {
                assert_eq!(
                    parse_decimal_exact(FloatKind::F32, &t),
                    Some(f32b(t.parse::<f32>().unwrap())),
                    "{t}"
                );
            }
        }
    }

    // ---- toString --------------------------------------------------------

    #[test]
    fn to_string_six_digit_form() {
        use FloatKind::*;
        assert_eq!(llvm_str(F32, f32b(1.0), 6, 0, false), "1.000000e+00");
        assert_eq!(llvm_str(F32, f32b(-3.14159), 6, 0, false), "-3.141590e+00");
        assert_eq!(
            llvm_str(F32, f32b(134217728.0), 6, 0, false),
            "1.342180e+08"
        );
        assert_eq!(llvm_str(F32, f32b(1e-10), 6, 0, false), "1.000000e-10");
        assert_eq!(llvm_str(F32, f32b(0.0), 6, 0, false), "0.000000e+00");
        assert_eq!(llvm_str(F32, f32b(-0.0), 6, 0, false), "-0.000000e+00");
        assert_eq!(llvm_str(F32, 1, 6, 0, false), "1.401300e-45");
        assert_eq!(llvm_str(F64, 1, 6, 0, false), "4.940660e-324");
        assert_eq!(
            llvm_str(F64, f64::MAX.to_bits(), 6, 0, false),
            "1.797690e+308"
        );
        // LLVM truncates before rounding when its pre-reduction leaves exactly
        // FormatPrecision digits: these are not round-half-up of the exact value.
        assert_eq!(
            llvm_str(F64, 9.9999999e22f64.to_bits(), 6, 0, false),
            "9.999990e+22"
        );
        assert_eq!(
            llvm_str(F64, 123456789012.0f64.to_bits(), 6, 0, false),
            "1.234570e+11"
        );
        assert_eq!(
            llvm_str(F64, 999999.5f64.to_bits(), 6, 0, false),
            "9.999990e+05"
        );
        assert_eq!(
            llvm_str(F64, 9999995.0f64.to_bits(), 6, 0, false),
            "9.999990e+06"
        );
        assert_eq!(
            llvm_str(F64, 1234565.0f64.to_bits(), 6, 0, false),
            "1.234570e+06"
        );
        assert_eq!(
            llvm_str(F64, 1234564.0f64.to_bits(), 6, 0, false),
            "1.234560e+06"
        );
        assert_eq!(
            llvm_str(F64, 999999.4f64.to_bits(), 6, 0, false),
            "9.999990e+05"
        );
        assert_eq!(llvm_str(F8E4M3FN, 0x7E, 6, 0, false), "4.480000e+02");
    }

    #[test]
    fn to_string_default_form() {
        use FloatKind::*;
        let d = |v: f64| llvm_str(F64, v.to_bits(), 0, 3, true);
        assert_eq!(d(2.718281828459045), "2.7182818284590451");
        assert_eq!(d(0.001), "0.001");
        assert_eq!(d(0.00125), "0.00125");
        assert_eq!(d(0.000125), "1.25E-4");
        assert_eq!(d(0.0125), "0.012500000000000001");
        assert_eq!(d(0.1), "0.10000000000000001");
        assert_eq!(d(1.0), "1");
        assert_eq!(d(100.0), "100");
        assert_eq!(d(1000.0), "1000");
        assert_eq!(d(10000.0), "1.0E+4");
        assert_eq!(d(1234567.0), "1234567");
        assert_eq!(d(12345678.9), "12345678.9");
        assert_eq!(d(1e100), "1.0E+100");
        assert_eq!(d(-1.5e-300), "-1.5000000000000001E-300");
        assert_eq!(d(5e-324), "4.9406564584124654E-324");
        assert_eq!(d(f64::MAX), "1.7976931348623157E+308");
        assert_eq!(d(0.0), "0");
        assert_eq!(d(-0.0), "-0");
        assert_eq!(llvm_str(F64, 0, 0, 0, true), "0.0E+0");
        assert_eq!(llvm_str(F64, 0, 0, 0, false), "0.0e+00"); // FormatPrecision 0 adds no zeros
        assert_eq!(llvm_str(F32, 0x7F7F_FFFF, 0, 3, true), "3.40282347E+38");
        assert_eq!(llvm_str(F32, f32b(134217728.0), 0, 3, true), "134217728");
        assert_eq!(llvm_str(F32, f32b(0.1), 0, 3, true), "0.100000001");
        assert_eq!(llvm_str(F32, 1, 0, 3, true), "1.40129846E-45");
        assert_eq!(llvm_str(F16, 0x3555, 0, 3, true), "0.33325");
        assert_eq!(llvm_str(BF16, 0x3EAB, 0, 3, true), "0.334");
        assert_eq!(llvm_str(F8E5M2, 0x3D, 0, 3, true), "1.3");
        assert_eq!(llvm_str(F8E4M3FN, 0x39, 0, 3, true), "1.13");
    }

    #[test]
    fn to_string_big_path_matches_fast_path() {
        let mut rng = Rng(99);
        for _ in 0..20_000 {
            let b = rng.next();
            let v = f64::from_bits(b);
            if !v.is_finite() || v == 0.0 {
                continue;
            }
            let (neg, sig, e) = FloatKind::F64.sem().decompose(b);
            for (p, pad, tz) in [(6, 0, false), (0, 3, true), (17, 3, true)] {
                let mut a = StrBuf::new();
                let mut c = StrBuf::new();
                to_string_impl(&mut a, neg, sig, e, 53, p, pad, tz, false);
                to_string_impl(&mut c, neg, sig, e, 53, p, pad, tz, true);
                assert_eq!(a.as_str(), c.as_str());
            }
        }
    }

    #[test]
    fn to_string_digits_match_exact_expansion() {
        // Where LLVM's truncating pre-reduction keeps more than FormatPrecision
        // digits, the result is the exact expansion rounded half-up; where it
        // keeps exactly FormatPrecision digits it is a truncation. Check that
        // the produced digits are always one of these two.
        let mut rng = Rng(4242);
        for _ in 0..5_000 {
            let v = f64::from_bits(rng.next() & 0x7FFF_FFFF_FFFF_FFFF);
            if !v.is_finite() || v == 0.0 {
                continue;
            }
            let s = llvm_str(FloatKind::F64, v.to_bits(), 0, 0, true);
            let (mant, exp) = s.split_once('E').unwrap();
            let exp: i32 = exp.parse().unwrap();
            let got: String = mant.chars().filter(|c| *c != '.').collect();
            let got = got.trim_end_matches('0');
            let exact = exact_decimal(v);
            let (emant, eexp) = exact.split_once('e').unwrap();
            let eexp: i32 = eexp.parse().unwrap();
            let edigits: Vec<u8> = emant.bytes().filter(|c| *c != b'.').collect();
            let trunc = String::from_utf8(edigits[..17].to_vec()).unwrap();
            let trunc = trunc.trim_end_matches('0');
            // Round half up at 17 digits.
            let mut up = edigits[..17].to_vec();
            let mut rexp = eexp;
            if edigits[17] >= b'5' {
                let mut i = 17;
                loop {
                    if i == 0 {
                        up.insert(0, b'1');
                        up.pop();
                        rexp += 1;
                        break;
                    }
                    i -= 1;
                    if up[i] == b'9' {
                        up[i] = b'0';
                    } else {
                        up[i] += 1;
                        break;
                    }
                }
            }
            let up = String::from_utf8(up).unwrap();
            let up = up.trim_end_matches('0');
            assert!(
                (got == trunc && exp == eexp) || (got == up && exp == rexp),
                "{v:e}: {s} vs {exact}"
            );
        }
    }

    // ---- MLIR printing -----------------------------------------------------

    #[test]
    fn format_mlir_expected_outputs() {
        use FloatKind::*;
        let f = |k: FloatKind, v: f64| format_mlir(k, round_from_f64(k, v));
        assert_eq!(f(F32, 1.0), "1.000000e+00");
        assert_eq!(f(F32, -1.0), "-1.000000e+00");
        assert_eq!(f(F32, 0.1), "1.000000e-01");
        assert_eq!(f(F32, 3.14159), "3.141590e+00");
        assert_eq!(f(F32, 3.14), "3.140000e+00");
        assert_eq!(f(F32, 5.5), "5.500000e+00");
        assert_eq!(f(BF16, 5.5), "5.500000e+00");
        assert_eq!(f(F32, 42.0), "4.200000e+01");
        assert_eq!(f(F32, -0.0), "-0.000000e+00");
        assert_eq!(f(F32, 0.0), "0.000000e+00");
        assert_eq!(f(F16, -3.14159), "-3.140630e+00");
        assert_eq!(f(F16, 42.0), "4.200000e+01");
        assert_eq!(f(F64, 2.718281828459045), "2.7182818284590451");
        assert_eq!(f(F64, -1.4142135623730951), "-1.4142135623730951");
        assert_eq!(f(F64, 3.141592653589793), "3.1415926535897931");
        assert_eq!(f(F32, f64::INFINITY), "0x7F800000");
        assert_eq!(f(F32, f64::NEG_INFINITY), "0xFF800000");
        assert_eq!(format_mlir(F32, 0x7FC0_0000), "0x7FC00000");
        assert_eq!(f(F64, f64::INFINITY), "0x7FF0000000000000");
        assert_eq!(format_mlir(F32, 0x3F80_0000), "1.000000e+00");
        assert_eq!(format_mlir(F32, 0x4000_0000), "2.000000e+00");
        assert_eq!(f(F32, 134217728.0), "0x4D000000");
        assert_eq!(format_mlir(F32, 0x7F7F_FFFF), "3.40282347E+38");
        assert_eq!(f(F16, f64::INFINITY), "0x7C00");
        assert_eq!(f(F16, f64::NAN), "0x7E00");
        assert_eq!(f(F8E4M3FN, f64::NAN), "0x7F");
        assert_eq!(f(F8E4M3FN, -f64::NAN), "0xFF");
        assert_eq!(f(F8E5M2, f64::INFINITY), "0x7C");
        assert_eq!(f(TF32, f64::INFINITY), "0x3FC00");
        assert_eq!(f(F64, f64::NAN), "0x7FF8000000000000");
        assert_eq!(f(F64, 1.0), "1.000000e+00");
        assert_eq!(f(F64, 0.5), "5.000000e-01");
        assert_eq!(f(F64, 0.1), "1.000000e-01");
        assert_eq!(f(F64, 1234567.0), "0x4132D68700000000");
        assert_eq!(f(F64, 0.3), "3.000000e-01");
        assert_eq!(f(F64, 0.0125), "1.250000e-02");
        assert_eq!(f(F64, 1.0000001), "1.0000001000000001");
        assert_eq!(f(F32, 1.0000001), "1.00000012");
        assert_eq!(f(F32, 16777217.0), "0x4B800000"); // 2^24: "16777216"
        assert_eq!(f(F32, 0.3), "3.000000e-01");
        assert_eq!(f(F32, 1e-45), "1.401300e-45");
        assert_eq!(f(F16, 65504.0), "6.550400e+04");
        assert_eq!(f(F16, 2f64.powi(-24)), "5.960460e-08");
        assert_eq!(f(BF16, 3.3895313892515355e38), "3.389530e+38");
        assert_eq!(f(TF32, 1.5), "1.500000e+00");
        assert_eq!(f(F8E4M3FN, 448.0), "4.480000e+02");
        assert_eq!(f(F8E4M3FN, -0.001953125), "-1.953130e-03");
        assert_eq!(f(F8E5M2, 57344.0), "5.734400e+04");
        assert_eq!(f(F8E5M2, 2f64.powi(-16)), "1.525880e-05");
    }

    #[test]
    fn format_mlir_always_round_trips_small_formats() {
        // Every finite value of the narrow formats prints a literal that
        // parses back to the same bits.
        for kind in [
            FloatKind::F16,
            FloatKind::BF16,
            FloatKind::F8E4M3FN,
            FloatKind::F8E5M2,
        ] {
            let sem = kind.sem();
            for b in 0..=sem.mask() {
                let s = format_mlir(kind, b);
                if sem.is_nan(b) || sem.is_infinite(b) {
                    assert!(s.starts_with("0x"));
                    assert_eq!(u64::from_str_radix(&s[2..], 16).unwrap(), b);
                } else {
                    assert_eq!(
                        parse_decimal_exact(kind, &s),
                        Some(b),
                        "{kind:?} {b:#x} {s}"
                    );
                }
            }
        }
    }

    #[test]
    fn format_mlir_f32_and_f64_round_trip_or_hex() {
        let mut rng = Rng(2024);
        let mut out = String::new();
        for _ in 0..50_000 {
            let r = rng.next();
            for (kind, b) in [(FloatKind::F32, r & 0xFFFF_FFFF), (FloatKind::F64, r)] {
                out.clear();
                write_mlir(&mut out, kind, b);
                if let Some(hex) = out.strip_prefix("0x") {
                    assert_eq!(u64::from_str_radix(hex, 16).unwrap(), b);
                    assert!(!out.contains('.'));
                } else {
                    assert!(out.contains('.'), "{out}");
                    assert_eq!(
                        parse_decimal_exact(kind, &out),
                        Some(b),
                        "{kind:?} {b:#x} {out}"
                    );
                }
            }
        }
    }

    #[test]
    fn format_mlir_matches_llvm_samples() {
        // Outputs of LLVM's APFloat::toString + MLIR printFloatValue logic for
        // random patterns of every kind (index into `ALL`).
        let cases: &[(usize, u64, &str)] = &[
            (0, 0x1ab3, "3.271100e-03"),
            (0, 0x99c7, "-2.820970e-03"),
            (0, 0xdcee, "-3.155000e+02"),
            (0, 0xe6b6, "-1.718000e+03"),
            (0, 0xf7f5, "-3.259200e+04"),
            (1, 0x1c4b, "6.716710e-22"),
            (1, 0x7529, "2.142330e+32"),
            (1, 0xaa99, "-2.717830e-13"),
            (1, 0xb075, "-8.913040e-10"),
            (1, 0xfda5, "-2.741530e+37"),
            (2, 0x153c0545, "3.79704546E-26"),
            (2, 0x2165b3f7, "7.782640e-19"),
            (2, 0x30e9df7d, "1.701650e-09"),
            (2, 0x4b58edf8, "0x4B58EDF8"),
            (2, 0x4ce4f475, "0x4CE4F475"),
            (2, 0x4e051537, "5.581900e+08"),
            (2, 0x62668b12, "1.06319305E+21"),
            (2, 0x6339e6bf, "3.42927466E+21"),
            (2, 0x9729146e, "-5.4632631E-25"),
            (2, 0x98061614, "-1.73302407E-24"),
            (2, 0xcc11c67a, "0xCC11C67A"),
            (2, 0xcc522322, "0xCC522322"),
            (2, 0xce29d318, "0xCE29D318"),
            (2, 0xd7f56f54, "-5.397170e+14"),
            (2, 0xef1187e2, "-4.503960e+28"),
            (3, 0x3c87e76e7953f394, "4.1466881054763193E-17"),
            (3, 0x4334173d19c068b1, "0x4334173D19C068B1"),
            (3, 0x436f445d6614d623, "0x436F445D6614D623"),
            (3, 0x4a727b4a5ecf0629, "4.3217430161462067E+50"),
            (3, 0x826cdaefb00e1019, "-5.5151671059612637E-297"),
            (3, 0x8bbce5805d5fa793, "-3.9413838655072981E-252"),
            (3, 0xc3473d62dbab2d26, "0xC3473D62DBAB2D26"),
            (3, 0xc358523f1f25481c, "0xC358523F1F25481C"),
            (3, 0xc35ef1327de81b9b, "0xC35EF1327DE81B9B"),
            (3, 0xea277372d5a3878e, "-2.2976714076225834E+203"),
            (4, 0x12d1f, "2.842780e-16"),
            (4, 0x3e17c, "3.644990e+36"),
            (4, 0x6313c, "-1.072000e+04"),
            (4, 0x72599, "-2.643420e+22"),
            (4, 0x7c65a, "-3.297920e+34"),
            (5, 0x29, "2.812500e-01"),
            (5, 0x7a, "3.200000e+02"),
            (5, 0x9f, "-1.171880e-01"),
            (5, 0xb6, "-8.750000e-01"),
            (5, 0xef, "-1.200000e+02"),
            (6, 0x15, "1.220700e-03"),
            (6, 0x19, "2.441410e-03"),
            (6, 0x21, "9.765620e-03"),
            (6, 0x36, "3.750000e-01"),
        ];
        for &(k, bits, want) in cases {
            assert_eq!(format_mlir(ALL[k], bits), want, "{:?} {bits:#x}", ALL[k]);
        }
    }

    #[test]
    fn parse_then_print_examples() {
        use FloatKind::*;
        let pp = |k: FloatKind, s: &str| format_mlir(k, parse_decimal_exact(k, s).unwrap());
        assert_eq!(pp(F32, "1.0"), "1.000000e+00");
        assert_eq!(pp(F32, "-1.0"), "-1.000000e+00");
        assert_eq!(pp(F32, "0.1"), "1.000000e-01");
        assert_eq!(pp(F32, "3.14159"), "3.141590e+00");
        assert_eq!(pp(F32, "5.5"), "5.500000e+00");
        assert_eq!(pp(BF16, "5.5"), "5.500000e+00");
        assert_eq!(pp(F32, "42.0"), "4.200000e+01");
        assert_eq!(pp(F32, "-0.0"), "-0.000000e+00");
        assert_eq!(pp(F16, "-3.14159"), "-3.140630e+00");
        assert_eq!(pp(F16, "42.0"), "4.200000e+01");
        assert_eq!(pp(F64, "2.718281828459045"), "2.7182818284590451");
        assert_eq!(pp(F64, "-1.4142135623730951"), "-1.4142135623730951");
        assert_eq!(pp(F64, "3.141592653589793"), "3.1415926535897931");
        assert_eq!(pp(F32, "134217728.0"), "0x4D000000");
        assert_eq!(pp(F32, "3.40282347E+38"), "3.40282347E+38");
        assert_eq!(pp(F32, "1e39"), "0x7F800000");
        assert_eq!(pp(F16, "1e-5"), "1.001360e-05");
        assert_eq!(pp(F8E4M3FN, "2."), "2.000000e+00");
        assert_eq!(pp(F8E5M2, "-0.3"), "-3.125000e-01");
        assert_eq!(pp(TF32, "0.1"), "9.997550e-02"); // 0.0999755859375, truncated digits
        // Printing is stable: what is printed parses back to the same text.
        for k in ALL {
            for s in ["1.0", "0.1", "-2.5e-3", "7.", "1e4", "0.333"] {
                let once = pp(k, s);
                if !once.starts_with("0x") {
                    assert_eq!(pp(k, &once), once, "{k:?} {s}");
                }
            }
        }
    }

    #[test]
    fn write_mlir_appends() {
        let mut s = String::from("<f32: ");
        write_mlir(&mut s, FloatKind::F32, 0x3F80_0000);
        s.push('>');
        assert_eq!(s, "<f32: 1.000000e+00>");
        let mut s = String::from("x");
        write_mlir(&mut s, FloatKind::F16, 0x7C00);
        assert_eq!(s, "x0x7C00");
    }

    #[test]
    fn bignum_ops() {
        let mut a = Big::<8>::from_u64(1);
        a.mul_pow5(100);
        a.shl(100);
        // 10^100 = 5^100 * 2^100
        let mut t = Big::<8>::from_u64(1);
        for _ in 0..100 {
            t.mul_small(10);
        }
        assert_eq!(a.cmp(&t), Ordering::Equal);
        a.div_pow10(99);
        assert_eq!(a.len, 1);
        assert_eq!(a.limbs[0], 10);
        let mut b = Big::<8>::from_u64(u64::MAX);
        b.add_small(1);
        assert_eq!(b.len, 2);
        assert_eq!(b.bit_len(), 65);
        assert_eq!(b.div_small(3), 1);
        assert_eq!(Big::<8>::zero().bit_len(), 0);
        let mut c = Big::<8>::from_u64(0xFFFF_0000_0000_0001);
        c.shl(130);
        c.shr(66);
        assert_eq!(c.len, 2);
        assert_eq!(c.limbs[1], 0xFFFF_0000_0000_0001);
        assert_eq!(c.limbs[0], 0);
        c.shr(4);
        assert_eq!(c.limbs[1], 0x0FFF_F000_0000_0000);
        assert_eq!(c.limbs[0], 0x1000_0000_0000_0000);
        c.shr(200);
        assert_eq!(c.len, 0);
    }
}

#[cfg(test)]
mod add_tests {
    use super::tests::Rng;
    use super::*;

    const MODES: [Round; 4] = [
        Round::NearestEven,
        Round::TowardZero,
        Round::TowardNegative,
        Round::TowardPositive,
    ];

    /// Knuth's TwoSum: `s = RN(a + b)` and the exact error `a + b - s`
    /// (valid when `s` is finite).
    fn two_sum(a: f64, b: f64) -> (f64, f64) {
        let s = a + b;
        let bb = s - a;
        (s, (a - (s - bb)) + (b - bb))
    }

    /// Whether the exact sum `s + err` (with `s = RN(s + err)`) has a
    /// magnitude above `max`.
    fn exceeds(s: f64, err: f64, max: f64) -> bool {
        !s.is_finite()
            || s.abs() > max
            || (s.abs() == max && err != 0.0 && (err > 0.0) == (s > 0.0))
    }

    /// The IEEE sign of an exactly zero sum of `a` and `b`.
    fn zero_sum(sem: Sem, a: f64, b: f64, mode: Round) -> u64 {
        if a == 0.0 && b == 0.0 && a.is_sign_negative() == b.is_sign_negative() {
            sem.sign(a.is_sign_negative())
        } else {
            sem.sign(mode == Round::TowardNegative)
        }
    }

    /// Whether `v` is a value of `kind` or the midpoint of two adjacent ones
    /// (a point where directed or nearest rounding changes its answer).
    fn is_boundary(kind: FloatKind, v: f64) -> bool {
        let lo = to_f64(kind, round_from_f64_with(kind, v, Round::TowardNegative));
        let hi = to_f64(kind, round_from_f64_with(kind, v, Round::TowardPositive));
        v == lo || v == (lo + hi) / 2.0
    }

    /// Independent reference for every kind narrower than f64: the f64 sum
    /// and its exact error from TwoSum, rounded with `round_from_f64_with`.
    /// When the f64 sum is inexact and lies on a rounding boundary of `kind`,
    /// the neighbouring f64 on the error's side lies in the same open
    /// interval between boundaries as the exact sum (f64 has at least 29
    /// more bits), so it rounds the same way in every direction.
    fn reference(kind: FloatKind, a: u64, b: u64, mode: Round) -> Option<u64> {
        assert_ne!(kind, FloatKind::F64);
        let sem = kind.sem();
        let (va, vb) = (to_f64(kind, a), to_f64(kind, b));
        if !va.is_finite() || !vb.is_finite() {
            return None;
        }
        let (s, err) = two_sum(va, vb);
        if exceeds(s, err, to_f64(kind, sem.max_finite(false))) {
            return None;
        }
        if s == 0.0 {
            assert_eq!(err, 0.0);
            return Some(zero_sum(sem, va, vb, mode));
        }
        let v = if err == 0.0 || !is_boundary(kind, s) {
            s
        } else if err > 0.0 {
            s.next_up()
        } else {
            s.next_down()
        };
        let r = round_from_f64_with(kind, v, mode);
        assert!(!is_nan(kind, r) && !is_infinite(kind, r));
        Some(r)
    }

    /// Reference for f64: TwoSum brackets the exact sum between `s` and its
    /// neighbour on the error's side.
    fn reference_f64(a: f64, b: f64, mode: Round) -> Option<u64> {
        if !a.is_finite() || !b.is_finite() {
            return None;
        }
        let (s, err) = two_sum(a, b);
        if exceeds(s, err, f64::MAX) {
            return None;
        }
        if s == 0.0 {
            return Some(zero_sum(FloatKind::F64.sem(), a, b, mode));
        }
        let r = if err == 0.0 {
            s
        } else {
            let (lo, hi) = if err > 0.0 {
                (s, s.next_up())
            } else {
                (s.next_down(), s)
            };
            match mode {
                Round::NearestEven => s,
                Round::TowardNegative => lo,
                Round::TowardPositive => hi,
                Round::TowardZero => {
                    if s > 0.0 {
                        lo
                    } else {
                        hi
                    }
                }
            }
        };
        Some(r.to_bits())
    }

    /// A random pattern of `sem` with the given sign, exponent field and a
    /// random fraction (sometimes with few bits set, to reach ties).
    fn pattern(rng: &mut Rng, sem: Sem, neg: bool, exp: u64) -> u64 {
        let mut frac = rng.next() & sem.frac_mask();
        match rng.next() % 4 {
            0 => frac = 0,
            1 => frac &= rng.next() & rng.next() & rng.next(),
            _ => {}
        }
        sem.sign(neg) | (exp.min(sem.exp_all()) << sem.frac_bits()) | frac
    }

    fn exp_field(sem: Sem, bits: u64) -> u64 {
        (bits >> sem.frac_bits()) & sem.exp_all()
    }

    /// A random operand pair, mixing uniformly random patterns, nearby
    /// exponents, near cancellations, subnormals, gaps around the precision
    /// (ties), and special values.
    fn pair(rng: &mut Rng, kind: FloatKind) -> (u64, u64) {
        let sem = kind.sem();
        let a = rng.next() & sem.mask();
        let ea = exp_field(sem, a) as i64;
        let neg = rng.next() & 1 == 1;
        let near = |rng: &mut Rng, d: i64| -> u64 {
            let off = (rng.next() % (2 * d as u64 + 1)) as i64 - d;
            (ea + off).clamp(0, sem.exp_all() as i64) as u64
        };
        let specials = [
            0,
            sem.sign_bit(),
            1,
            sem.sign_bit() | 1,
            sem.max_finite(false),
            sem.max_finite(true),
            1 << sem.frac_bits(),
            sem.frac_mask(),
            to_bits_of(kind, 1.0),
            to_bits_of(kind, -1.0),
        ];
        match rng.next() % 10 {
            0 | 1 => (a, rng.next() & sem.mask()),
            2 | 3 => {
                let e = near(rng, 3);
                (a, pattern(rng, sem, neg, e))
            }
            4 => {
                let e = near(rng, 30);
                (a, pattern(rng, sem, neg, e))
            }
            5 => {
                // Near cancellation: -a with a few low bits changed.
                let k = rng.next() % (u64::from(sem.frac_bits()) + 1);
                (a, (a ^ sem.sign_bit()) ^ (rng.next() & ((1 << k) - 1)))
            }
            6 => {
                // Subnormals and the smallest normals.
                let ea = rng.next() % 3;
                let eb = rng.next() % 3;
                let na = rng.next() & 1 == 1;
                (pattern(rng, sem, na, ea), pattern(rng, sem, neg, eb))
            }
            7 => {
                // `b` around the rounding position of `a`: ties and sticky bits.
                let d = i64::from(sem.prec) + (rng.next() % 5) as i64 - 2;
                let e = (ea - d).clamp(0, sem.exp_all() as i64) as u64;
                (a, pattern(rng, sem, neg, e))
            }
            8 => {
                let s = specials[(rng.next() % specials.len() as u64) as usize];
                if rng.next() & 1 == 0 { (a, s) } else { (s, a) }
            }
            _ => {
                // Large values near overflow.
                let e = sem.exp_all() - 1 - rng.next() % 3;
                let na = rng.next() & 1 == 1;
                (pattern(rng, sem, na, e), pattern(rng, sem, neg, e))
            }
        }
    }

    fn to_bits_of(kind: FloatKind, v: f64) -> u64 {
        round_from_f64(kind, v)
    }

    fn f32v(b: u64) -> f32 {
        f32::from_bits(b as u32)
    }

    fn check(kind: FloatKind, a: u64, b: u64, mode: Round, want: Option<u64>) {
        let got = add(kind, a, b, mode, false);
        assert_eq!(
            got,
            want,
            "{kind:?} {mode:?}: {a:#x} ({}) + {b:#x} ({}): got {:?} want {:?}",
            to_f64(kind, a),
            to_f64(kind, b),
            got.map(|g| to_f64(kind, g)),
            want.map(|w| to_f64(kind, w)),
        );
    }

    const N: usize = 300_000;

    #[test]
    fn f32_nearest_matches_native() {
        let mut rng = Rng(0x5EED_0F32);
        let mut folded = 0;
        for _ in 0..N {
            let (a, b) = pair(&mut rng, FloatKind::F32);
            let (fa, fb) = (f32v(a), f32v(b));
            let native = fa + fb;
            let want = if !fa.is_finite() || !fb.is_finite() || !native.is_finite() {
                None
            } else {
                let (s, err) = two_sum(f64::from(fa), f64::from(fb));
                // Sums above f32::MAX that IEEE rounds to f32::MAX: not folded.
                (!exceeds(s, err, f64::from(f32::MAX))).then(|| u64::from(native.to_bits()))
            };
            folded += usize::from(want.is_some());
            check(FloatKind::F32, a, b, Round::NearestEven, want);
        }
        assert!(folded > N * 3 / 4, "{folded}");
    }

    #[test]
    fn f64_nearest_matches_native() {
        let mut rng = Rng(0x5EED_0F64);
        let mut folded = 0;
        for _ in 0..N {
            let (a, b) = pair(&mut rng, FloatKind::F64);
            let (fa, fb) = (f64::from_bits(a), f64::from_bits(b));
            let native = fa + fb;
            let want = if !fa.is_finite() || !fb.is_finite() || !native.is_finite() {
                None
            } else {
                let (s, err) = two_sum(fa, fb);
                (!exceeds(s, err, f64::MAX)).then(|| native.to_bits())
            };
            folded += usize::from(want.is_some());
            check(FloatKind::F64, a, b, Round::NearestEven, want);
        }
        assert!(folded > N * 3 / 4, "{folded}");
    }

    #[test]
    fn f32_all_modes_match_reference() {
        let mut rng = Rng(0xD1F32);
        let mut exact = 0;
        for _ in 0..N {
            let (a, b) = pair(&mut rng, FloatKind::F32);
            let (s, err) = two_sum(f64::from(f32v(a)), f64::from(f32v(b)));
            exact += usize::from(s.is_finite() && err == 0.0);
            for mode in MODES {
                check(
                    FloatKind::F32,
                    a,
                    b,
                    mode,
                    reference(FloatKind::F32, a, b, mode),
                );
            }
        }
        // Most pairs have an exact f64 sum (the reference then needs no nudge).
        assert!(exact > N / 2, "{exact}");
    }

    #[test]
    fn f64_all_modes_match_reference() {
        let mut rng = Rng(0xD1F64);
        let mut inexact = 0;
        for _ in 0..N {
            let (a, b) = pair(&mut rng, FloatKind::F64);
            let (fa, fb) = (f64::from_bits(a), f64::from_bits(b));
            let (s, err) = two_sum(fa, fb);
            inexact += usize::from(s.is_finite() && err != 0.0);
            for mode in MODES {
                check(FloatKind::F64, a, b, mode, reference_f64(fa, fb, mode));
            }
        }
        assert!(inexact > N / 4, "{inexact}");
    }

    #[test]
    fn f8_exhaustive_all_modes() {
        for kind in [FloatKind::F8E4M3FN, FloatKind::F8E5M2] {
            for a in 0..=0xFF {
                for b in 0..=0xFF {
                    for mode in MODES {
                        check(kind, a, b, mode, reference(kind, a, b, mode));
                    }
                }
            }
        }
    }

    #[test]
    fn f16_bf16_tf32_random_all_modes() {
        let mut rng = Rng(0x16);
        for kind in [FloatKind::F16, FloatKind::BF16, FloatKind::TF32] {
            for _ in 0..N {
                let (a, b) = pair(&mut rng, kind);
                for mode in MODES {
                    check(kind, a, b, mode, reference(kind, a, b, mode));
                }
            }
        }
    }

    #[test]
    fn f16_exhaustive_against_structured_operands() {
        // Every f16 plus a set of operands hitting ties, cancellation, the
        // subnormal range and overflow.
        let kind = FloatKind::F16;
        let bs = [
            0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x0400, 0x8400, 0x1400, 0x1401, 0x1000, 0x3C00,
            0xBC00, 0x3C01, 0x7BFF, 0xFBFF, 0x5BFF, 0xE400, 0x7C00, 0x7E00,
        ];
        for a in 0..=0xFFFF {
            for &b in &bs {
                for mode in MODES {
                    check(kind, a, b, mode, reference(kind, a, b, mode));
                }
            }
        }
    }

    #[test]
    fn ftz_matches_reference_on_flushed_values() {
        let mut rng = Rng(0xf72);
        for kind in ALL_KINDS {
            let sem = kind.sem();
            let flush = |x: u64| {
                if sem.is_subnormal(x) {
                    x & sem.sign_bit()
                } else {
                    x
                }
            };
            for _ in 0..N / 10 {
                let (a, b) = pair(&mut rng, kind);
                for mode in MODES {
                    let want = add(kind, flush(a), flush(b), mode, false).map(|r| {
                        if sem.is_subnormal(r) {
                            r & sem.sign_bit()
                        } else {
                            r
                        }
                    });
                    assert_eq!(add(kind, a, b, mode, true), want, "{kind:?} {a:#x} {b:#x}");
                }
            }
        }
    }

    const ALL_KINDS: [FloatKind; 7] = [
        FloatKind::F16,
        FloatKind::BF16,
        FloatKind::F32,
        FloatKind::F64,
        FloatKind::TF32,
        FloatKind::F8E4M3FN,
        FloatKind::F8E5M2,
    ];

    #[test]
    fn ftz_f32_cases() {
        use Round::*;
        let f = |a: f32, b: f32, mode: Round| add(FloatKind::F32, f32b(a), f32b(b), mode, true);
        let sub = f32::from_bits(1);
        let big_sub = f32::from_bits(0x007F_FFFF);
        let min = f32::MIN_POSITIVE;
        for mode in MODES {
            // Subnormal + zero: a zero with the subnormal's sign, combined
            // with the zero as IEEE says.
            assert_eq!(f(sub, 0.0, mode), Some(0));
            assert_eq!(f(-sub, -0.0, mode), Some(0x8000_0000));
            assert_eq!(f(big_sub, 0.0, mode), Some(0));
            let cancel = if mode == TowardNegative {
                0x8000_0000
            } else {
                0
            };
            assert_eq!(f(-sub, 0.0, mode), Some(cancel));
            assert_eq!(f(sub, -sub, mode), Some(cancel));
            assert_eq!(f(sub, sub, mode), Some(0));
            // Normal results are unchanged; a flushed subnormal operand does
            // not nudge a directed rounding.
            assert_eq!(f(1.5, 2.25, mode), Some(f32b(3.75)));
            assert_eq!(f(1.0, sub, mode), Some(f32b(1.0)));
            assert_eq!(f(min, big_sub, mode), Some(f32b(min)));
            // Two normals whose sum is subnormal: a zero with the result's sign.
            assert_eq!(f(1.5 * min, -min, mode), Some(0));
            assert_eq!(f(-1.5 * min, min, mode), Some(0x8000_0000));
            assert_eq!(
                f(min, -f32::from_bits(0x0080_0001), mode),
                Some(0x8000_0000)
            );
            // A sum that is exactly the smallest normal survives.
            assert_eq!(f(3.0 * min, -2.0 * min, mode), Some(f32b(min)));
            // A subnormal operand is flushed even when the sum would be normal.
            assert_eq!(f(1.5 * min, -0.5 * min, mode), Some(f32b(1.5 * min)));
        }
        // Without ftz the same sums are subnormal.
        assert_eq!(
            add(
                FloatKind::F32,
                f32b(1.5 * min),
                f32b(-min),
                NearestEven,
                false
            ),
            Some(f32b(0.5 * min))
        );
        assert_eq!(
            add(FloatKind::F32, f32b(1.0), 1, TowardPositive, false),
            Some(0x3F80_0001)
        );
        assert_eq!(f(1.0, sub, TowardPositive), Some(0x3F80_0000));
        assert_eq!(f(2.0 * min, -min, NearestEven), Some(f32b(min)));
    }

    fn f32b(v: f32) -> u64 {
        u64::from(v.to_bits())
    }

    #[test]
    fn f32_hand_picked() {
        use Round::*;
        let f = |a: f32, b: f32, mode: Round| add(FloatKind::F32, f32b(a), f32b(b), mode, false);
        let one = 0x3F80_0000u64;
        let e30 = 2f32.powi(-30);
        assert_eq!(f(1.0, e30, NearestEven), Some(one));
        assert_eq!(f(1.0, e30, TowardZero), Some(one));
        assert_eq!(f(1.0, e30, TowardNegative), Some(one));
        assert_eq!(f(1.0, e30, TowardPositive), Some(one + 1));
        assert_eq!(f(-1.0, -e30, NearestEven), Some(one | 0x8000_0000));
        assert_eq!(f(-1.0, -e30, TowardZero), Some(one | 0x8000_0000));
        assert_eq!(f(-1.0, -e30, TowardNegative), Some((one + 1) | 0x8000_0000));
        assert_eq!(f(-1.0, -e30, TowardPositive), Some(one | 0x8000_0000));
        // 1 - 2^-30: just below one.
        assert_eq!(f(1.0, -e30, NearestEven), Some(one));
        assert_eq!(f(1.0, -e30, TowardZero), Some(f32b(1.0 - 2f32.powi(-24))));
        assert_eq!(
            f(1.0, -e30, TowardNegative),
            Some(f32b(1.0 - 2f32.powi(-24)))
        );
        assert_eq!(f(1.0, -e30, TowardPositive), Some(one));
        // Ties to even.
        let u = 2f32.powi(-24);
        assert_eq!(f(1.0, u, NearestEven), Some(one));
        assert_eq!(
            f(1.0, 3.0 * u, NearestEven),
            Some(f32b(1.0 + 2f32.powi(-22)))
        );
        assert_eq!(f(1.0 + 2.0 * u, u, NearestEven), Some(f32b(1.0 + 4.0 * u)));
        assert_eq!(f(1.0, u, TowardPositive), Some(one + 1));
        assert_eq!(f(1.0, 3.0 * u, TowardZero), Some(one + 1));
        // A gap beyond 64 bits: the sticky operand still decides directed rounding.
        let tiny = f32::from_bits(1);
        assert_eq!(f(1.0, tiny, NearestEven), Some(one));
        assert_eq!(f(1.0, tiny, TowardPositive), Some(one + 1));
        assert_eq!(f(1.0, -tiny, TowardZero), Some(one - 1));
        assert_eq!(f(1.0, -tiny, TowardNegative), Some(one - 1));
        assert_eq!(f(1.0, -tiny, TowardPositive), Some(one));
        assert_eq!(f(f32::MAX, -tiny, NearestEven), Some(f32b(f32::MAX)));
        assert_eq!(f(f32::MAX, -tiny, TowardZero), Some(f32b(f32::MAX) - 1));
        // Overflow: any exact sum beyond the largest finite value is not
        // folded, even where IEEE rounds it to the largest finite value
        // (toward zero, or to nearest with an excess below half an ulp).
        let max = f32::MAX;
        for mode in MODES {
            assert_eq!(f(max, max, mode), None);
            assert_eq!(f(-max, -max, mode), None);
            assert_eq!(f(max, tiny, mode), None);
            assert_eq!(f(-max, -tiny, mode), None);
            assert_eq!(f(max, 1.0, mode), None);
            // An exact sum equal to the largest finite value is folded.
            assert_eq!(
                f(2f32.powi(127), max - 2f32.powi(127), mode),
                Some(f32b(max))
            );
            assert_eq!(
                f(max, -max, mode),
                Some(f32b(if mode == TowardNegative { -0.0 } else { 0.0 }))
            );
        }
        assert_eq!(f32::MAX + 1.0, f32::MAX); // what IEEE would give, not folded here
        // Signed zeros.
        for mode in MODES {
            let cancel = if mode == TowardNegative {
                0x8000_0000
            } else {
                0
            };
            assert_eq!(f(0.0, 0.0, mode), Some(0));
            assert_eq!(f(-0.0, -0.0, mode), Some(0x8000_0000));
            assert_eq!(f(0.0, -0.0, mode), Some(cancel));
            assert_eq!(f(-0.0, 0.0, mode), Some(cancel));
            assert_eq!(f(1.5, -1.5, mode), Some(cancel));
            assert_eq!(f(-tiny, tiny, mode), Some(cancel));
            assert_eq!(f(-2.5, 0.0, mode), Some(f32b(-2.5)));
            assert_eq!(f(-0.0, tiny, mode), Some(1));
        }
        // Non-finite operands.
        for mode in MODES {
            assert_eq!(f(f32::NAN, 1.0, mode), None);
            assert_eq!(f(1.0, f32::INFINITY, mode), None);
            assert_eq!(f(f32::NEG_INFINITY, f32::INFINITY, mode), None);
            assert_eq!(f(f32::INFINITY, 0.0, mode), None);
        }
    }

    #[test]
    fn f64_hand_picked() {
        use Round::*;
        let f = |a: f64, b: f64, mode: Round| {
            add(FloatKind::F64, a.to_bits(), b.to_bits(), mode, false)
        };
        let one = 1f64.to_bits();
        let e60 = 2f64.powi(-60);
        assert_eq!(f(1.0, e60, NearestEven), Some(one));
        assert_eq!(f(1.0, e60, TowardZero), Some(one));
        assert_eq!(f(1.0, e60, TowardNegative), Some(one));
        assert_eq!(f(1.0, e60, TowardPositive), Some(one + 1));
        assert_eq!(f(-1.0, -e60, TowardNegative), Some((-1f64).to_bits() + 1));
        assert_eq!(f(-1.0, -e60, TowardPositive), Some((-1f64).to_bits()));
        assert_eq!(f(1.0, -e60, TowardZero), Some(1f64.next_down().to_bits()));
        assert_eq!(f(1.0, -e60, NearestEven), Some(one));
        // Ties to even.
        let u = 2f64.powi(-53);
        assert_eq!(f(1.0, u, NearestEven), Some(one));
        assert_eq!(
            f(1.0, 3.0 * u, NearestEven),
            Some((1.0 + 4.0 * u).to_bits())
        );
        assert_eq!(
            f(1.0 + 2.0 * u, u, NearestEven),
            Some((1.0 + 4.0 * u).to_bits())
        );
        // 2^53 has ulp 2: 2^53 + 1 is a tie (to even, 2^53), and a sticky
        // bit 53 positions further down makes it round up. Below 2^53 the
        // ulp is 1, so 2^53 - 1 - 2^-52 rounds to 2^53 - 1.
        let big = 2f64.powi(53);
        assert_eq!(f(big, 1.0, NearestEven), Some(big.to_bits()));
        assert_eq!(
            f(big, 1.0 + 2f64.powi(-52), NearestEven),
            Some((big + 2.0).to_bits())
        );
        assert_eq!(
            f(-big, -(1.0 + 2f64.powi(-52)), NearestEven),
            Some((-big - 2.0).to_bits())
        );
        assert_eq!(
            f(big, -1.0 - 2f64.powi(-52), NearestEven),
            Some((big - 1.0).to_bits())
        );
        // Gaps beyond 64 bits.
        let tiny = f64::from_bits(1);
        assert_eq!(f(1.0, tiny, NearestEven), Some(one));
        assert_eq!(f(1.0, tiny, TowardPositive), Some(one + 1));
        assert_eq!(f(1.0, -tiny, TowardNegative), Some(one - 1));
        assert_eq!(f(1.0, -tiny, TowardZero), Some(one - 1));
        assert_eq!(f(-1.0, tiny, TowardZero), Some((-1f64).to_bits() - 1));
        assert_eq!(f(1.0, -2f64.powi(-100), NearestEven), Some(one));
        // Overflow.
        let max = f64::MAX;
        for mode in MODES {
            assert_eq!(f(max, max, mode), None);
            assert_eq!(f(max, tiny, mode), None);
            assert_eq!(f(-max, -1.0, mode), None);
            assert_eq!(
                f(2f64.powi(1023), max - 2f64.powi(1023), mode),
                Some(max.to_bits())
            );
        }
        assert_eq!(f(max, -tiny, NearestEven), Some(max.to_bits()));
        assert_eq!(f(max, -tiny, TowardZero), Some(max.to_bits() - 1));
        assert_eq!(f(max, -tiny, TowardPositive), Some(max.to_bits()));
        // Signed zeros and exact results.
        for mode in MODES {
            let cancel = if mode == TowardNegative {
                (-0f64).to_bits()
            } else {
                0
            };
            assert_eq!(f(0.0, 0.0, mode), Some(0));
            assert_eq!(f(-0.0, -0.0, mode), Some((-0f64).to_bits()));
            assert_eq!(f(0.0, -0.0, mode), Some(cancel));
            assert_eq!(f(0.1, -0.1, mode), Some(cancel));
            assert_eq!(f(tiny, tiny, mode), Some(2));
            assert_eq!(f(0.5, 0.25, mode), Some(0.75f64.to_bits()));
            assert_eq!(f(f64::NAN, 0.0, mode), None);
            assert_eq!(f(f64::INFINITY, -1.0, mode), None);
        }
    }

    #[test]
    fn narrow_hand_picked() {
        use FloatKind::*;
        use Round::*;
        let b = |k: FloatKind, v: f64| round_from_f64(k, v);
        let f = |k: FloatKind, x: f64, y: f64, mode: Round| add(k, b(k, x), b(k, y), mode, false);
        for mode in MODES {
            // F8E4M3FN: largest finite 448, no infinity.
            assert_eq!(f(F8E4M3FN, 256.0, 192.0, mode), Some(0x7E));
            assert_eq!(f(F8E4M3FN, 448.0, 8.0, mode), None);
            assert_eq!(f(F8E4M3FN, 448.0, 448.0, mode), None);
            assert_eq!(f(F8E4M3FN, -448.0, -32.0, mode), None);
            assert_eq!(add(F8E4M3FN, 0x7F, 0x38, mode, false), None); // NaN
            assert_eq!(add(F8E4M3FN, 0x78, 0x70, mode, false), Some(0x7C)); // 256 + 128
            assert_eq!(add(F8E4M3FN, 0x78, 0x78, mode, false), None); // 256 + 256
            // F8E5M2 and F16 overflow to infinity.
            assert_eq!(f(F8E5M2, 57344.0, 8192.0, mode), None);
            assert_eq!(f(F16, 65504.0, 32.0, mode), None);
            assert_eq!(f(F16, 65504.0, -32.0, mode), Some(0x7BFE));
            assert_eq!(
                f(BF16, 1.0, -1.0, mode),
                Some(if mode == TowardNegative { 0x8000 } else { 0 })
            );
            // Bits above the width are ignored.
            assert_eq!(
                add(F16, 0xFFFF_0000 | 0x3C00, 0x3C00, mode, false),
                Some(0x4000)
            );
        }
        // F16: 1 + 2^-11 is a tie, 1 + 2^-20 is decided by direction.
        assert_eq!(f(F16, 1.0, 2f64.powi(-11), NearestEven), Some(0x3C00));
        assert_eq!(f(F16, 1.0, 3.0 * 2f64.powi(-11), NearestEven), Some(0x3C02));
        assert_eq!(f(F16, 1.0, 2f64.powi(-20), TowardPositive), Some(0x3C01));
        assert_eq!(
            f(F16, -1.0, -(2f64.powi(-20)), TowardNegative),
            Some(0xBC01)
        );
        assert_eq!(f(F16, -1.0, -(2f64.powi(-20)), TowardZero), Some(0xBC00));
        // BF16 with a gap beyond 64: 2^100 + 2^-30.
        assert_eq!(
            f(BF16, 2f64.powi(100), 2f64.powi(-30), TowardPositive),
            Some(b(BF16, 2f64.powi(100)) + 1)
        );
        assert_eq!(
            f(BF16, 2f64.powi(100), 2f64.powi(-30), NearestEven),
            Some(b(BF16, 2f64.powi(100)))
        );
    }
}

#[cfg(test)]
mod round_exact_tests {
    use super::tests::Rng;
    use super::*;

    const MODES: [Round; 4] = [
        Round::NearestEven,
        Round::TowardZero,
        Round::TowardNegative,
        Round::TowardPositive,
    ];

    const KINDS: [FloatKind; 7] = [
        FloatKind::F16,
        FloatKind::BF16,
        FloatKind::F32,
        FloatKind::F64,
        FloatKind::TF32,
        FloatKind::F8E4M3FN,
        FloatKind::F8E5M2,
    ];

    #[test]
    fn exact_values_round_like_round_from_f64_with() {
        let mut rng = Rng(0x5eed);
        for _ in 0..20_000 {
            let v = f64::from_bits(rng.next());
            if !v.is_finite() || v == 0.0 {
                continue;
            }
            let (m, e) = decompose_f64(v);
            let neg = v < 0.0;
            // The same value with the significand spread over more bits.
            let sh = (rng.next() % 60) as u32;
            for kind in KINDS {
                for mode in MODES {
                    let want = round_from_f64_with(kind, v, mode);
                    assert_eq!(round_exact(kind, neg, u128::from(m), e, false, mode), want);
                    assert_eq!(
                        round_exact(kind, neg, u128::from(m) << sh, e - sh as i32, false, mode),
                        want
                    );
                }
            }
        }
    }

    #[test]
    fn sticky_bit_stands_for_a_nonzero_tail() {
        let mut rng = Rng(0x571c);
        for _ in 0..20_000 {
            // A significand m in [2^25, 2^52) with a nonzero tail: the value
            // lies strictly inside (m, m + 1) * 2^e, whose midpoint
            // (2m + 1) * 2^(e - 1) is exact in f64. For kinds of at most 24
            // bits the open interval holds no value or rounding midpoint of
            // the kind (their spacing there is at least 2^e), so every value
            // inside rounds like that midpoint.
            let m = u128::from(rng.next() >> (12 + rng.next() % 27)) | 1 << 25;
            let e = (rng.next() % 320) as i32 - 220;
            let neg = rng.next() & 1 == 1;
            let mid = (2 * m + 1) as f64 * 2f64.powi(e - 1);
            for kind in [
                FloatKind::F16,
                FloatKind::BF16,
                FloatKind::F32,
                FloatKind::TF32,
            ] {
                for mode in MODES {
                    let got = round_exact(kind, neg, m, e, true, mode);
                    let want = round_from_f64_with(kind, if neg { -mid } else { mid }, mode);
                    assert_eq!(got, want, "{kind:?} {mode:?} {m} {e}");
                }
            }
        }
        // A sticky bit breaks a tie and makes directed roundings move.
        let k = FloatKind::F32;
        let one_and_half_ulp = (1u128 << 60) | (1u128 << 36); // 1 + 2^-24 at e = -60
        assert_eq!(
            round_exact(k, false, one_and_half_ulp, -60, false, Round::NearestEven),
            0x3F80_0000
        );
        assert_eq!(
            round_exact(k, false, one_and_half_ulp, -60, true, Round::NearestEven),
            0x3F80_0001
        );
        assert_eq!(
            round_exact(k, false, 1 << 60, -60, true, Round::TowardPositive),
            0x3F80_0001
        );
        assert_eq!(
            round_exact(k, false, 1 << 60, -60, true, Round::TowardZero),
            0x3F80_0000
        );
        assert_eq!(
            round_exact(k, true, 1 << 60, -60, true, Round::TowardNegative),
            0xBF80_0001
        );
        // Zero, overflow, underflow.
        assert_eq!(
            round_exact(k, true, 0, 5, false, Round::NearestEven),
            0x8000_0000
        );
        assert_eq!(
            round_exact(k, false, 1, 128, false, Round::NearestEven),
            0x7F80_0000
        );
        assert_eq!(
            round_exact(k, false, 1, 128, false, Round::TowardZero),
            0x7F7F_FFFF
        );
        assert_eq!(
            round_exact(k, false, 1 << 60, -60 - 200, true, Round::TowardPositive),
            1
        );
        assert_eq!(
            round_exact(k, false, 1 << 60, -60 - 200, true, Round::NearestEven),
            0
        );
        assert_eq!(
            round_exact(
                FloatKind::F8E4M3FN,
                true,
                1 << 60,
                -51,
                false,
                Round::NearestEven
            ),
            0xFF
        );
        assert_eq!(max_finite(FloatKind::F8E4M3FN, false), 0x7E);
        assert_eq!(max_finite(FloatKind::F16, true), 0xFBFF);
        assert!(is_subnormal(FloatKind::F16, 0x83FF));
        assert!(!is_subnormal(FloatKind::F16, 0x8000));
        assert!(!is_subnormal(FloatKind::F16, 0x0400));
    }
}

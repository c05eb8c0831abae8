//! Tests of `tilec_interp::fp` against independent references:
//!
//! * native `f32`/`f64` arithmetic (IEEE round-to-nearest-even);
//! * an "f64 + exact error" reference for kinds of at most 24 bits: the
//!   result of the operation rounded to f64 together with the sign of its
//!   exact error (from error-free transformations: TwoSum, an FMA residual),
//!   turned into the f64 round-to-odd value and rounded into the kind with
//!   `round_from_f64_with` (round-to-odd into a format of at least p + 2 bits
//!   followed by any rounding to p bits is the correct rounding);
//! * the defining property of each rounding direction, checked with exact
//!   big-integer dyadic arithmetic (`Dy`), which needs no rounding code at all.

use std::cmp::Ordering;

use tilec_interp::fp;
use tilec_ir::float::{self, FloatKind, Round, round_from_f64_with, to_f64};

use FloatKind::*;

const MODES: [Round; 4] = [
    Round::NearestEven,
    Round::TowardZero,
    Round::TowardNegative,
    Round::TowardPositive,
];

const KINDS: [FloatKind; 7] = [F16, BF16, F32, F64, TF32, F8E4M3FN, F8E5M2];

// ---------------------------------------------------------------------------
// Random operands
// ---------------------------------------------------------------------------

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn mask(k: FloatKind) -> u64 {
    if k.bit_width() == 64 {
        u64::MAX
    } else {
        (1u64 << k.bit_width()) - 1
    }
}

fn sign_bit(k: FloatKind) -> u64 {
    1u64 << (k.bit_width() - 1)
}

fn frac_bits(k: FloatKind) -> u32 {
    k.precision() - 1
}

/// A random operand of `k`, biased toward the interesting classes.
fn operand(rng: &mut Rng, k: FloatKind) -> u64 {
    let sign = if rng.next() & 1 == 1 { sign_bit(k) } else { 0 };
    let fmask = (1u64 << frac_bits(k)) - 1;
    let max = float::max_finite(k, false);
    match rng.below(20) {
        0 => sign,
        1 => {
            if k.has_infinity() {
                sign | (max + 1)
            } else {
                sign | max
            }
        }
        2 => loop {
            let b = rng.next() & mask(k);
            if float::is_nan(k, b) {
                break b;
            }
            let b = b | (mask(k) & !sign_bit(k) & !fmask) | 1;
            if float::is_nan(k, b) {
                break b;
            }
        },
        3 | 4 => sign | (rng.next() & fmask).max(1),
        5 => sign | (max - rng.below(4)),
        6 | 7 => {
            // Within a few binades of 1.
            let one = float::round_from_f64(k, 1.0);
            let e = one >> frac_bits(k);
            let e = e + rng.below(7) - 3;
            sign | (e << frac_bits(k)) | (rng.next() & fmask)
        }
        8 => sign | (1u64 << frac_bits(k)) | (rng.next() & fmask), // smallest binade
        _ => rng.next() & mask(k),
    }
}

/// A second operand related to `a`: often close to it or to `-a` (to
/// provoke cancellation, ties and carries), or a few binades away.
fn partner(rng: &mut Rng, k: FloatKind, a: u64) -> u64 {
    match rng.below(6) {
        0 => (a ^ sign_bit(k)).wrapping_add(rng.below(5)).wrapping_sub(2) & mask(k),
        1 => a.wrapping_add(rng.below(9)).wrapping_sub(4) & mask(k),
        2 => {
            let shift = (rng.below(40) << frac_bits(k)) & mask(k);
            let b = a.wrapping_sub(shift) & mask(k);
            if rng.next() & 1 == 1 {
                b ^ sign_bit(k)
            } else {
                b
            }
        }
        _ => operand(rng, k),
    }
}

fn is_nan(k: FloatKind, b: u64) -> bool {
    float::is_nan(k, b)
}

/// `got` against a reference: a NaN reference (of any sign or payload) must
/// be matched by the canonical NaN.
fn same(k: FloatKind, got: u64, want: u64) -> bool {
    if is_nan(k, want) {
        got == fp::canonical_nan(k)
    } else {
        got == want
    }
}

fn flush(k: FloatKind, b: u64) -> u64 {
    if float::is_subnormal(k, b) {
        b & sign_bit(k)
    } else {
        b
    }
}

// ---------------------------------------------------------------------------
// The "f64 + exact error" reference (kinds of at most 24 bits)
// ---------------------------------------------------------------------------

/// An exact value as `q + t`, `q` an f64 and `t` a real of sign `err`, with
/// `q` the round-to-nearest f64 of the value (so `|t| <= ulp(q) / 2`).
#[derive(Copy, Clone, Debug)]
struct Near {
    q: f64,
    err: Ordering,
}

fn exact(q: f64) -> Near {
    Near {
        q,
        err: Ordering::Equal,
    }
}

/// TwoSum: `a + b = s + t` exactly.
fn two_sum(a: f64, b: f64) -> Near {
    let s = a + b;
    if !s.is_finite() {
        return exact(s);
    }
    let bb = s - a;
    let t = (a - (s - bb)) + (b - bb);
    Near {
        q: s,
        err: t.partial_cmp(&0.0).unwrap(),
    }
}

/// Round a `Near` into `k` with `mode`: round to odd in f64 (exact value if
/// `err` is `Equal`, else whichever of `q` and its neighbor toward the value
/// has an odd last bit), then round that with `round_from_f64_with`.
fn ref_round(k: FloatKind, n: Near, mode: Round) -> u64 {
    let mut q = n.q;
    if n.err != Ordering::Equal && q.to_bits() & 1 == 0 {
        q = if n.err == Ordering::Greater {
            q.next_up()
        } else {
            q.next_down()
        };
    }
    round_from_f64_with(k, q, mode)
}

fn v(k: FloatKind, b: u64) -> f64 {
    to_f64(k, b)
}

/// The zero an exact cancellation gives.
fn cancel(k: FloatKind, mode: Round) -> u64 {
    if mode == Round::TowardNegative {
        sign_bit(k)
    } else {
        0
    }
}

/// Reference sum of two exact f64 values `x + y` (operands of `k`, or a
/// product for fma), IEEE signed zeros included.
fn ref_sum(k: FloatKind, x: f64, y: f64, mode: Round) -> u64 {
    let n = two_sum(x, y);
    if n.q == 0.0
        && n.err == Ordering::Equal
        && !(x == 0.0 && y == 0.0 && x.is_sign_negative() == y.is_sign_negative())
    {
        return cancel(k, mode);
    }
    ref_round(k, n, mode)
}

fn ref_add(k: FloatKind, a: u64, b: u64, mode: Round) -> u64 {
    ref_sum(k, v(k, a), v(k, b), mode)
}

fn ref_sub(k: FloatKind, a: u64, b: u64, mode: Round) -> u64 {
    ref_sum(k, v(k, a), -v(k, b), mode)
}

fn ref_mul(k: FloatKind, a: u64, b: u64, mode: Round) -> u64 {
    // Products of two values of at most 24 bits are exact in f64.
    ref_round(k, exact(v(k, a) * v(k, b)), mode)
}

fn ref_div(k: FloatKind, a: u64, b: u64, mode: Round) -> u64 {
    let (x, y) = (v(k, a), v(k, b));
    let q = x / y;
    if !q.is_finite() || q == 0.0 {
        // 0/y, x/0, inf, NaN: exact (the quotient of two values of these
        // kinds never underflows f64 to zero).
        return ref_round(k, exact(q), mode);
    }
    // x = q * y + r exactly; the value is q + r / y.
    let r = (-q).mul_add(y, x);
    let err = (r * y.signum()).partial_cmp(&0.0).unwrap();
    ref_round(k, Near { q, err }, mode)
}

fn ref_sqrt(k: FloatKind, a: u64, mode: Round) -> u64 {
    let x = v(k, a);
    let q = x.sqrt();
    if !q.is_finite() || q == 0.0 || x < 0.0 {
        return ref_round(k, exact(q), mode);
    }
    let r = (-q).mul_add(q, x);
    ref_round(
        k,
        Near {
            q,
            err: r.partial_cmp(&0.0).unwrap(),
        },
        mode,
    )
}

fn ref_fma(k: FloatKind, a: u64, b: u64, c: u64, mode: Round) -> u64 {
    let p = v(k, a) * v(k, b); // exact
    ref_sum(k, p, v(k, c), mode)
}

// ---------------------------------------------------------------------------
// Exact dyadic numbers and the defining property of each rounding direction
// ---------------------------------------------------------------------------

/// `(-1)^neg * mag * 2^exp` with a little-endian limb vector `mag` (no high
/// zero limbs; empty for zero).
#[derive(Clone, Debug)]
struct Dy {
    neg: bool,
    mag: Vec<u64>,
    exp: i64,
}

fn trim(mut m: Vec<u64>) -> Vec<u64> {
    while m.last() == Some(&0) {
        m.pop();
    }
    m
}

fn mag_shl(a: &[u64], n: u64) -> Vec<u64> {
    if a.is_empty() {
        return Vec::new();
    }
    let (limbs, bits) = ((n / 64) as usize, (n % 64) as u32);
    let mut out = vec![0u64; limbs];
    let mut carry = 0u64;
    for &x in a {
        if bits == 0 {
            out.push(x);
        } else {
            out.push((x << bits) | carry);
            carry = x >> (64 - bits);
        }
    }
    out.push(carry);
    trim(out)
}

fn mag_cmp(a: &[u64], b: &[u64]) -> Ordering {
    a.len()
        .cmp(&b.len())
        .then_with(|| a.iter().rev().cmp(b.iter().rev()))
}

fn mag_add(a: &[u64], b: &[u64]) -> Vec<u64> {
    let mut out = Vec::with_capacity(a.len().max(b.len()) + 1);
    let mut carry = 0u128;
    for i in 0..a.len().max(b.len()) {
        let s = u128::from(*a.get(i).unwrap_or(&0)) + u128::from(*b.get(i).unwrap_or(&0)) + carry;
        out.push(s as u64);
        carry = s >> 64;
    }
    out.push(carry as u64);
    trim(out)
}

/// `a - b` for `a >= b`.
fn mag_sub(a: &[u64], b: &[u64]) -> Vec<u64> {
    let mut out = Vec::with_capacity(a.len());
    let mut borrow = 0i128;
    for (i, &x) in a.iter().enumerate() {
        let mut d = i128::from(x) - i128::from(*b.get(i).unwrap_or(&0)) - borrow;
        borrow = 0;
        if d < 0 {
            d += 1i128 << 64;
            borrow = 1;
        }
        out.push(d as u64);
    }
    assert_eq!(borrow, 0);
    trim(out)
}

fn mag_mul(a: &[u64], b: &[u64]) -> Vec<u64> {
    let mut out = vec![0u64; a.len() + b.len()];
    for (i, &x) in a.iter().enumerate() {
        let mut carry = 0u128;
        for (j, &y) in b.iter().enumerate() {
            let t = u128::from(x) * u128::from(y) + u128::from(out[i + j]) + carry;
            out[i + j] = t as u64;
            carry = t >> 64;
        }
        out[i + b.len()] = carry as u64;
    }
    trim(out)
}

impl Dy {
    fn int(neg: bool, m: u128) -> Dy {
        Dy {
            neg,
            mag: trim(vec![m as u64, (m >> 64) as u64]),
            exp: 0,
        }
    }

    fn from_f64(x: f64) -> Dy {
        assert!(x.is_finite());
        let b = x.to_bits();
        let e = ((b >> 52) & 0x7ff) as i64;
        let f = b & ((1u64 << 52) - 1);
        let (m, e) = if e == 0 {
            (f, -1074)
        } else {
            (f | (1u64 << 52), e - 1075)
        };
        Dy {
            neg: x.is_sign_negative(),
            mag: trim(vec![m]),
            exp: e,
        }
    }

    fn is_zero(&self) -> bool {
        self.mag.is_empty()
    }

    fn neg(&self) -> Dy {
        Dy {
            neg: !self.neg,
            ..self.clone()
        }
    }

    fn half(&self) -> Dy {
        Dy {
            exp: self.exp - 1,
            ..self.clone()
        }
    }

    /// Both magnitudes over the common exponent.
    fn align(&self, o: &Dy) -> (Vec<u64>, Vec<u64>, i64) {
        let e = self.exp.min(o.exp);
        (
            mag_shl(&self.mag, (self.exp - e) as u64),
            mag_shl(&o.mag, (o.exp - e) as u64),
            e,
        )
    }

    fn add(&self, o: &Dy) -> Dy {
        let (a, b, exp) = self.align(o);
        if self.neg == o.neg {
            return Dy {
                neg: self.neg,
                mag: mag_add(&a, &b),
                exp,
            };
        }
        match mag_cmp(&a, &b) {
            Ordering::Less => Dy {
                neg: o.neg,
                mag: mag_sub(&b, &a),
                exp,
            },
            _ => Dy {
                neg: self.neg,
                mag: mag_sub(&a, &b),
                exp,
            },
        }
    }

    fn sub(&self, o: &Dy) -> Dy {
        self.add(&o.neg())
    }

    fn mul(&self, o: &Dy) -> Dy {
        Dy {
            neg: self.neg != o.neg,
            mag: mag_mul(&self.mag, &o.mag),
            exp: self.exp + o.exp,
        }
    }

    fn sign(&self) -> Ordering {
        if self.is_zero() {
            Ordering::Equal
        } else if self.neg {
            Ordering::Less
        } else {
            Ordering::Greater
        }
    }

    fn cmp(&self, o: &Dy) -> Ordering {
        let d = self.sub(o);
        d.sign()
    }
}

/// The exact value of a finite pattern.
fn dy(k: FloatKind, b: u64) -> Dy {
    Dy::from_f64(v(k, b))
}

/// The largest finite magnitude as an ordinal (its pattern without sign).
fn max_ord(k: FloatKind) -> i64 {
    float::max_finite(k, false) as i64
}

/// The value of ordinal `o` (`|o| <= max_ord + 1`): the pattern with
/// magnitude `|o|` and the sign of `o`; `|o| = max_ord + 1` is the value one
/// ulp beyond the largest finite value (what the next pattern would be with
/// an unbounded exponent).
fn ord_value(k: FloatKind, o: i64) -> Dy {
    let m = max_ord(k);
    let mag = if o.unsigned_abs() as i64 <= m {
        dy(k, o.unsigned_abs())
    } else {
        let top = dy(k, m as u64);
        let below = dy(k, (m - 1) as u64);
        top.add(&top.sub(&below))
    };
    if o < 0 { mag.neg() } else { mag }
}

/// Check that `r` is the rounding in direction `mode` of a nonzero exact
/// value `X`, given `cmp(c) = c.cmp(X)` for exact dyadics `c`, using only the
/// definition of the direction: for toward-negative `r <= X < next(r)`, for
/// toward-positive `prev(r) < X <= r`, toward zero the one of those on the
/// side of zero, and to nearest `X` within the midpoints around `r`, a
/// midpoint only when `r` is even. A zero `r` must have `X`'s sign; an
/// infinite `r` (or F8E4M3FN's NaN) stands beyond the largest finite value.
fn check_rounding(
    k: FloatKind,
    mode: Round,
    r: u64,
    x_sign: Ordering,
    cmp: &dyn Fn(&Dy) -> Ordering,
    ctx: &dyn Fn() -> String,
) {
    assert_ne!(x_sign, Ordering::Equal);
    let m = max_ord(k);
    let xneg = x_sign == Ordering::Less;
    let (o, infinite) = if is_nan(k, r) {
        assert!(
            !k.has_infinity() && r == fp::canonical_nan(k),
            "unexpected NaN {r:#x}: {}",
            ctx()
        );
        (if xneg { -(m + 1) } else { m + 1 }, true)
    } else if float::is_infinite(k, r) {
        let o = m + 1;
        (if r & sign_bit(k) != 0 { -o } else { o }, true)
    } else {
        let mag = (r & !sign_bit(k)) as i64;
        if mag == 0 {
            assert_eq!(
                r & sign_bit(k) != 0,
                xneg,
                "zero of the wrong sign {r:#x}: {}",
                ctx()
            );
        }
        (if r & sign_bit(k) != 0 { -mag } else { mag }, false)
    };
    // How value(o2) compares with X, with the ordinals beyond the largest
    // finite value standing for the infinities (the directed directions see
    // no finite value past the largest one).
    let val_cmp = |o2: i64| -> Ordering {
        if o2 > m {
            Ordering::Greater
        } else if o2 < -m {
            Ordering::Less
        } else {
            cmp(&ord_value(k, o2))
        }
    };
    // value(r) <= X < value(next), and the mirror image.
    let down = |ok: &mut bool| {
        *ok &= val_cmp(o) != Ordering::Greater && val_cmp(o + 1) == Ordering::Greater
    };
    let up =
        |ok: &mut bool| *ok &= val_cmp(o - 1) == Ordering::Less && val_cmp(o) != Ordering::Less;
    let mut ok = true;
    match mode {
        Round::TowardNegative => down(&mut ok),
        Round::TowardPositive => up(&mut ok),
        Round::TowardZero => {
            if infinite {
                ok = false;
            } else if xneg {
                up(&mut ok);
            } else {
                down(&mut ok);
            }
        }
        Round::NearestEven => {
            let even = o.unsigned_abs() % 2 == 0;
            if o > -(m + 1) {
                let mid = ord_value(k, o - 1).add(&ord_value(k, o)).half();
                match cmp(&mid) {
                    Ordering::Greater => ok = false,
                    Ordering::Equal => ok &= even,
                    Ordering::Less => {}
                }
            }
            if o < m + 1 {
                let mid = ord_value(k, o).add(&ord_value(k, o + 1)).half();
                match cmp(&mid) {
                    Ordering::Less => ok = false,
                    Ordering::Equal => ok &= even,
                    Ordering::Greater => {}
                }
            }
        }
    }
    assert!(
        ok,
        "{k:?} {mode:?}: {r:#x} is not the rounding of the exact value: {}",
        ctx()
    );
}

/// Property check of a binary arithmetic result whose exact value `X` is a
/// dyadic (a sum or a product). Exact zeros are checked by the caller.
fn check_dyadic(k: FloatKind, mode: Round, r: u64, x: &Dy, ctx: &dyn Fn() -> String) {
    check_rounding(k, mode, r, x.sign(), &|c| c.cmp(x), ctx);
}

fn finite(k: FloatKind, b: u64) -> bool {
    !is_nan(k, b) && !float::is_infinite(k, b)
}

/// Check add/sub/mul/div/fma/sqrt on finite operands with the property
/// checker (the non-finite and exact-zero cases are covered elsewhere).
fn property_checks(k: FloatKind, rng: &mut Rng, count: usize) {
    for _ in 0..count {
        let a = operand(rng, k);
        let b = partner(rng, k, a);
        let c = partner(rng, k, a);
        if !(finite(k, a) && finite(k, b) && finite(k, c)) {
            continue;
        }
        let (da, db, dc) = (dy(k, a), dy(k, b), dy(k, c));
        for mode in MODES {
            let ctx = || format!("a={a:#x} b={b:#x} c={c:#x}");
            let sum = da.add(&db);
            if !sum.is_zero() {
                check_dyadic(k, mode, fp::add(k, a, b, mode, false), &sum, &ctx);
            }
            let diff = da.sub(&db);
            if !diff.is_zero() {
                check_dyadic(k, mode, fp::sub(k, a, b, mode, false), &diff, &ctx);
            }
            let prod = da.mul(&db);
            if !prod.is_zero() {
                check_dyadic(k, mode, fp::mul(k, a, b, mode, false), &prod, &ctx);
            }
            let fused = prod.add(&dc);
            if !fused.is_zero() {
                check_dyadic(k, mode, fp::fma(k, a, b, c, mode, false), &fused, &ctx);
            }
            if !da.is_zero() && !db.is_zero() {
                // c vs a / b  <=>  c * |b| vs a * sign(b)
                let r = fp::div(k, a, b, mode, false);
                let sign = if da.neg == db.neg {
                    Ordering::Greater
                } else {
                    Ordering::Less
                };
                let babs = Dy {
                    neg: false,
                    ..db.clone()
                };
                let asgn = if db.neg { da.neg() } else { da.clone() };
                check_rounding(k, mode, r, sign, &|q| q.mul(&babs).cmp(&asgn), &ctx);
            }
            if !da.is_zero() && !da.neg {
                let r = fp::sqrt(k, a, mode, false);
                check_rounding(
                    k,
                    mode,
                    r,
                    Ordering::Greater,
                    &|s| {
                        if s.neg && !s.is_zero() {
                            Ordering::Less
                        } else {
                            s.mul(s).cmp(&da)
                        }
                    },
                    &ctx,
                );
            }
        }
    }
}

#[test]
fn f64_all_modes_defining_property() {
    property_checks(F64, &mut Rng(0x64), 1500);
}

#[test]
fn narrow_kinds_all_modes_defining_property() {
    let mut rng = Rng(0x32);
    for k in [F32, F16, BF16, TF32, F8E4M3FN, F8E5M2] {
        property_checks(k, &mut rng, 600);
    }
}

/// The property checker itself rejects wrong roundings.
#[test]
fn property_checker_catches_errors() {
    let k = F32;
    let x = Dy::from_f64(1.0).add(&Dy::from_f64(2f64.powi(-30)));
    let one = 0x3F80_0000u64;
    let ctx = || String::new();
    check_dyadic(k, Round::TowardPositive, one + 1, &x, &ctx);
    check_dyadic(k, Round::NearestEven, one, &x, &ctx);
    for (mode, wrong) in [
        (Round::TowardPositive, one),
        (Round::TowardNegative, one + 1),
        (Round::NearestEven, one + 1),
        (Round::TowardZero, one - 1),
    ] {
        let r = std::panic::catch_unwind(|| check_dyadic(k, mode, wrong, &x, &ctx));
        assert!(r.is_err(), "{mode:?} accepted {wrong:#x}");
    }
    // A tie must go to even.
    let tie = Dy::from_f64(1.0).add(&Dy::from_f64(2f64.powi(-24)));
    check_dyadic(k, Round::NearestEven, one, &tie, &ctx);
    assert!(
        std::panic::catch_unwind(|| check_dyadic(k, Round::NearestEven, one + 1, &tie, &ctx))
            .is_err()
    );
    // Overflow: f16 65520 is the tie between 65504 and 65536: infinity.
    let ovf = Dy::from_f64(65520.0);
    check_dyadic(F16, Round::NearestEven, 0x7C00, &ovf, &ctx);
    check_dyadic(F16, Round::TowardZero, 0x7BFF, &ovf, &ctx);
    assert!(
        std::panic::catch_unwind(|| check_dyadic(F16, Round::NearestEven, 0x7BFF, &ovf, &ctx))
            .is_err()
    );
    // F8E4M3FN: 464 is the tie between 448 and (would-be) 480: 448.
    check_dyadic(
        F8E4M3FN,
        Round::NearestEven,
        0x7E,
        &Dy::from_f64(464.0),
        &ctx,
    );
    check_dyadic(
        F8E4M3FN,
        Round::NearestEven,
        0x7F,
        &Dy::from_f64(465.0),
        &ctx,
    );
}

// ---------------------------------------------------------------------------
// Native f32 / f64, round to nearest
// ---------------------------------------------------------------------------

fn f32b(x: f32) -> u64 {
    u64::from(x.to_bits())
}

fn native32(got: u64, want: f32) -> bool {
    if want.is_nan() {
        got == fp::canonical_nan(F32)
    } else {
        got == f32b(want)
    }
}

fn native64(got: u64, want: f64) -> bool {
    if want.is_nan() {
        got == fp::canonical_nan(F64)
    } else {
        got == want.to_bits()
    }
}

#[test]
fn f32_nearest_matches_native() {
    let mut rng = Rng(0xF32);
    let rn = Round::NearestEven;
    for i in 0..60_000 {
        let a = operand(&mut rng, F32);
        let b = partner(&mut rng, F32, a);
        let c = partner(&mut rng, F32, if i % 2 == 0 { a } else { b });
        let (x, y, z) = (
            f32::from_bits(a as u32),
            f32::from_bits(b as u32),
            f32::from_bits(c as u32),
        );
        let ctx = format!("{a:#x} {b:#x} {c:#x}");
        assert!(native32(fp::add(F32, a, b, rn, false), x + y), "add {ctx}");
        assert!(native32(fp::sub(F32, a, b, rn, false), x - y), "sub {ctx}");
        assert!(native32(fp::mul(F32, a, b, rn, false), x * y), "mul {ctx}");
        assert!(native32(fp::div(F32, a, b, rn, false), x / y), "div {ctx}");
        assert!(
            native32(fp::sqrt(F32, a, rn, false), x.sqrt()),
            "sqrt {ctx}"
        );
        assert!(
            native32(fp::fma(F32, a, b, c, rn, false), x.mul_add(y, z)),
            "fma {ctx}"
        );
        assert!(native32(fp::rem(F32, a, b), x % y), "rem {ctx}");
        assert_eq!(fp::compare(F32, a, b), x.partial_cmp(&y), "cmp {ctx}");
    }
}

#[test]
fn f64_nearest_matches_native() {
    let mut rng = Rng(0xF64);
    let rn = Round::NearestEven;
    for i in 0..60_000 {
        let a = operand(&mut rng, F64);
        let b = partner(&mut rng, F64, a);
        let c = partner(&mut rng, F64, if i % 2 == 0 { a } else { b });
        let (x, y, z) = (f64::from_bits(a), f64::from_bits(b), f64::from_bits(c));
        let ctx = format!("{a:#x} {b:#x} {c:#x}");
        assert!(native64(fp::add(F64, a, b, rn, false), x + y), "add {ctx}");
        assert!(native64(fp::sub(F64, a, b, rn, false), x - y), "sub {ctx}");
        assert!(native64(fp::mul(F64, a, b, rn, false), x * y), "mul {ctx}");
        assert!(native64(fp::div(F64, a, b, rn, false), x / y), "div {ctx}");
        assert!(
            native64(fp::sqrt(F64, a, rn, false), x.sqrt()),
            "sqrt {ctx}"
        );
        assert!(
            native64(fp::fma(F64, a, b, c, rn, false), x.mul_add(y, z)),
            "fma {ctx}"
        );
        assert!(native64(fp::rem(F64, a, b), x % y), "rem {ctx}");
        assert_eq!(fp::compare(F64, a, b), x.partial_cmp(&y), "cmp {ctx}");
    }
}

/// Hand-picked f64 cases where the exact result is known: directed modes,
/// fma without double rounding, subnormal results.
#[test]
fn f64_hand_picked() {
    use Round::*;
    let f = |x: f64| x.to_bits();
    let one = f(1.0);
    let e60 = 2f64.powi(-60);
    assert_eq!(fp::add(F64, one, f(e60), TowardPositive, false), one + 1);
    assert_eq!(fp::add(F64, one, f(e60), TowardZero, false), one);
    assert_eq!(
        fp::sub(F64, one, f(e60), TowardZero, false),
        f(1f64.next_down())
    );
    assert_eq!(fp::sub(F64, one, f(e60), NearestEven, false), one);
    assert_eq!(
        fp::add(F64, f(-1.0), f(-e60), TowardNegative, false),
        f(-1.0) + 1
    );
    // 1/3 in every direction.
    let third = f(1.0 / 3.0); // nearest, which is below 1/3
    assert_eq!(fp::div(F64, one, f(3.0), NearestEven, false), third);
    assert_eq!(fp::div(F64, one, f(3.0), TowardNegative, false), third);
    assert_eq!(fp::div(F64, one, f(3.0), TowardPositive, false), third + 1);
    assert_eq!(
        fp::div(F64, f(-1.0), f(3.0), TowardNegative, false),
        f(-1.0 / 3.0) + 1
    );
    // sqrt(2) is below its nearest f64.
    let s2 = f(2f64.sqrt());
    assert_eq!(fp::sqrt(F64, f(2.0), NearestEven, false), s2);
    assert_eq!(fp::sqrt(F64, f(2.0), TowardPositive, false), s2);
    assert_eq!(fp::sqrt(F64, f(2.0), TowardZero, false), s2 - 1);
    // fma: (1 + 2^-52)(1 - 2^-52) - 1 = -2^-104 exactly.
    let a = f(1.0 + f64::EPSILON);
    let b = f(1.0 - f64::EPSILON);
    assert_eq!(
        fp::fma(F64, a, b, f(-1.0), NearestEven, false),
        f(-(2f64.powi(-104)))
    );
    // Double rounding trap: a*b + c where rounding the product first is wrong.
    let x = f(1.0 + 2f64.powi(-27));
    // x*x = 1 + 2^-26 + 2^-54 ; + (-1) = 2^-26 + 2^-54, exact in f64.
    assert_eq!(
        fp::fma(F64, x, x, f(-1.0), TowardZero, false),
        f(2f64.powi(-26) + 2f64.powi(-54))
    );
    // Subnormal results and the smallest subnormal.
    let tiny = 1u64;
    assert_eq!(fp::mul(F64, tiny, f(0.5), NearestEven, false), 0); // tie to even 0
    assert_eq!(fp::mul(F64, tiny, f(0.5), TowardPositive, false), 1);
    assert_eq!(fp::mul(F64, tiny, f(0.75), NearestEven, false), 1);
    assert_eq!(
        fp::mul(F64, tiny | (1 << 63), f(0.25), NearestEven, false),
        1 << 63
    );
    assert_eq!(
        fp::div(
            F64,
            f(f64::MIN_POSITIVE),
            f(2f64.powi(52)),
            NearestEven,
            false
        ),
        1
    );
    assert_eq!(
        fp::div(
            F64,
            f(f64::MIN_POSITIVE),
            f(2f64.powi(53)),
            NearestEven,
            false
        ),
        0
    );
    assert_eq!(
        fp::div(
            F64,
            f(f64::MIN_POSITIVE),
            f(2f64.powi(53)),
            TowardPositive,
            false
        ),
        1
    );
    // Overflow by direction.
    let max = f(f64::MAX);
    assert_eq!(fp::add(F64, max, max, NearestEven, false), f(f64::INFINITY));
    assert_eq!(fp::add(F64, max, max, TowardZero, false), max);
    assert_eq!(fp::add(F64, max, max, TowardNegative, false), max);
    assert_eq!(
        fp::mul(F64, max | 1 << 63, f(2.0), TowardPositive, false),
        max | 1 << 63
    );
    assert_eq!(
        fp::mul(F64, max | 1 << 63, f(2.0), TowardNegative, false),
        f(f64::NEG_INFINITY)
    );
    assert_eq!(
        fp::add(F64, max, f(1.0), TowardPositive, false),
        f(f64::INFINITY)
    );
    assert_eq!(fp::add(F64, max, f(1.0), NearestEven, false), max);
}

// ---------------------------------------------------------------------------
// f64-based references: all modes, narrow kinds
// ---------------------------------------------------------------------------

type Binary = fn(FloatKind, u64, u64, Round, bool) -> u64;
type RefBinary = fn(FloatKind, u64, u64, Round) -> u64;

const BINARY: [(&str, Binary, RefBinary); 4] = [
    ("add", fp::add, ref_add),
    ("sub", fp::sub, ref_sub),
    ("mul", fp::mul, ref_mul),
    ("div", fp::div, ref_div),
];

fn check_binary(k: FloatKind, a: u64, b: u64, mode: Round) {
    for (name, op, reference) in BINARY {
        let got = op(k, a, b, mode, false);
        let want = reference(k, a, b, mode);
        assert!(
            same(k, got, want),
            "{name} {k:?} {mode:?} {a:#x} {b:#x}: got {got:#x}, want {want:#x}"
        );
    }
}

#[test]
fn f8_exhaustive_binary_ops_all_modes() {
    for k in [F8E4M3FN, F8E5M2] {
        for a in 0..=0xFFu64 {
            for b in 0..=0xFFu64 {
                for mode in MODES {
                    check_binary(k, a, b, mode);
                }
            }
            for mode in MODES {
                let got = fp::sqrt(k, a, mode, false);
                assert!(same(k, got, ref_sqrt(k, a, mode)), "sqrt {k:?} {a:#x}");
            }
        }
    }
}

#[test]
fn f8_fma_all_modes() {
    let mut rng = Rng(0xF8);
    for k in [F8E4M3FN, F8E5M2] {
        for _ in 0..40_000 {
            let (a, b, c) = (rng.next() & 0xFF, rng.next() & 0xFF, rng.next() & 0xFF);
            for mode in MODES {
                let got = fp::fma(k, a, b, c, mode, false);
                let want = ref_fma(k, a, b, c, mode);
                assert!(
                    same(k, got, want),
                    "fma {k:?} {mode:?} {a:#x} {b:#x} {c:#x}: {got:#x} {want:#x}"
                );
            }
        }
    }
}

/// Every f16 and bf16 pattern against structured partners (and random ones).
#[test]
fn f16_bf16_exhaustive_operand_all_modes() {
    let mut rng = Rng(0x16);
    for k in [F16, BF16] {
        let fixed = [
            0x0000u64,
            0x8000,
            0x0001,
            float::round_from_f64(k, 1.0),
            float::round_from_f64(k, -1.5),
            float::round_from_f64(k, 3.0),
            float::max_finite(k, false),
            0x0400,
        ];
        for a in 0..=0xFFFFu64 {
            let b = fixed[(a % fixed.len() as u64) as usize];
            let r = partner(&mut rng, k, a);
            let mode = MODES[(a % 4) as usize];
            check_binary(k, a, b, mode);
            check_binary(k, b, a, mode);
            check_binary(k, a, r, MODES[((a >> 2) % 4) as usize]);
        }
    }
}

#[test]
fn f16_bf16_sqrt_exhaustive_all_modes() {
    for k in [F16, BF16] {
        for a in 0..=0xFFFFu64 {
            for mode in MODES {
                let got = fp::sqrt(k, a, mode, false);
                let want = ref_sqrt(k, a, mode);
                assert!(
                    same(k, got, want),
                    "sqrt {k:?} {mode:?} {a:#x}: {got:#x} {want:#x}"
                );
            }
        }
    }
}

#[test]
fn narrow_kinds_random_all_modes() {
    let mut rng = Rng(0x7F);
    for k in [F16, BF16, TF32, F32] {
        for _ in 0..20_000 {
            let a = operand(&mut rng, k);
            let b = partner(&mut rng, k, a);
            let c = partner(&mut rng, k, b);
            for mode in MODES {
                check_binary(k, a, b, mode);
                let got = fp::fma(k, a, b, c, mode, false);
                let want = ref_fma(k, a, b, c, mode);
                assert!(
                    same(k, got, want),
                    "fma {k:?} {mode:?} {a:#x} {b:#x} {c:#x}: {got:#x} {want:#x}"
                );
                let got = fp::sqrt(k, a, mode, false);
                assert!(
                    same(k, got, ref_sqrt(k, a, mode)),
                    "sqrt {k:?} {mode:?} {a:#x}"
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Special values, signed zeros, NaNs
// ---------------------------------------------------------------------------

#[test]
fn special_values_every_kind() {
    use Round::*;
    for k in KINDS {
        let nan = fp::canonical_nan(k);
        let one = float::round_from_f64(k, 1.0);
        let two = float::round_from_f64(k, 2.0);
        let neg_one = one | sign_bit(k);
        let (pz, nz) = (0u64, sign_bit(k));
        let inf = if k.has_infinity() {
            float::max_finite(k, false) + 1
        } else {
            nan
        };
        let ninf = if k.has_infinity() {
            inf | sign_bit(k)
        } else {
            nan
        };
        // A NaN operand with a payload and a sign gives the canonical NaN.
        let other_nan = if k == F8E4M3FN {
            0xFF
        } else {
            (mask(k) & !1) & !(1u64 << (frac_bits(k) - 1)) | 1
        };
        assert!(is_nan(k, other_nan), "{k:?}");
        for mode in MODES {
            for n in [nan, other_nan] {
                assert_eq!(fp::add(k, n, one, mode, false), nan);
                assert_eq!(fp::sub(k, one, n, mode, false), nan);
                assert_eq!(fp::mul(k, n, pz, mode, false), nan);
                assert_eq!(fp::div(k, pz, n, mode, false), nan);
                assert_eq!(fp::fma(k, one, one, n, mode, false), nan);
                assert_eq!(fp::fma(k, n, pz, inf, mode, false), nan);
                assert_eq!(fp::sqrt(k, n, mode, false), nan);
                assert_eq!(fp::rem(k, n, one), nan);
                for to in KINDS {
                    assert_eq!(fp::convert(k, to, n, mode, false), fp::canonical_nan(to));
                }
                assert_eq!(fp::to_int(k, n, 32, true, mode), 0);
                assert_eq!(fp::compare(k, n, n), None);
                assert_eq!(fp::compare(k, one, n), None);
            }
            // Invalid operations.
            assert_eq!(fp::mul(k, pz, inf, mode, false), nan);
            assert_eq!(fp::div(k, pz, nz, mode, false), nan);
            assert_eq!(fp::sqrt(k, neg_one, mode, false), nan);
            assert_eq!(fp::rem(k, one, pz), nan);
            assert_eq!(fp::rem(k, inf, one), nan);
            if k.has_infinity() {
                assert_eq!(fp::add(k, inf, ninf, mode, false), nan);
                assert_eq!(fp::sub(k, inf, inf, mode, false), nan);
                assert_eq!(fp::div(k, inf, ninf, mode, false), nan);
                assert_eq!(fp::fma(k, inf, one, ninf, mode, false), nan);
                assert_eq!(fp::fma(k, ninf, pz, one, mode, false), nan);
                assert_eq!(fp::sqrt(k, ninf, mode, false), nan);
                // Infinities.
                assert_eq!(fp::add(k, inf, neg_one, mode, false), inf);
                assert_eq!(fp::mul(k, ninf, neg_one, mode, false), inf);
                assert_eq!(fp::div(k, neg_one, pz, mode, false), ninf);
                assert_eq!(fp::div(k, one, nz, mode, false), ninf);
                assert_eq!(fp::div(k, one, inf, mode, false), pz);
                assert_eq!(fp::div(k, neg_one, inf, mode, false), nz);
                assert_eq!(fp::fma(k, inf, one, inf, mode, false), inf);
                assert_eq!(fp::fma(k, one, one, ninf, mode, false), ninf);
                assert_eq!(fp::sqrt(k, inf, mode, false), inf);
                assert_eq!(fp::rem(k, neg_one, inf), neg_one);
            }
            // Signed zeros (IEEE 754 6.3).
            let cancel = if mode == TowardNegative { nz } else { pz };
            assert_eq!(fp::add(k, pz, pz, mode, false), pz);
            assert_eq!(fp::add(k, nz, nz, mode, false), nz);
            assert_eq!(fp::add(k, pz, nz, mode, false), cancel);
            assert_eq!(fp::add(k, nz, pz, mode, false), cancel);
            assert_eq!(fp::sub(k, pz, pz, mode, false), cancel);
            assert_eq!(fp::sub(k, nz, pz, mode, false), nz);
            assert_eq!(fp::sub(k, one, one, mode, false), cancel);
            assert_eq!(fp::add(k, neg_one, one, mode, false), cancel);
            assert_eq!(fp::add(k, nz, one, mode, false), one);
            assert_eq!(fp::mul(k, nz, one, mode, false), nz);
            assert_eq!(fp::mul(k, nz, neg_one, mode, false), pz);
            assert_eq!(fp::div(k, nz, one, mode, false), nz);
            assert_eq!(fp::div(k, pz, neg_one, mode, false), nz);
            assert_eq!(fp::fma(k, nz, one, nz, mode, false), nz);
            assert_eq!(fp::fma(k, nz, one, pz, mode, false), cancel);
            assert_eq!(fp::fma(k, pz, one, nz, mode, false), cancel);
            assert_eq!(fp::fma(k, nz, neg_one, nz, mode, false), cancel);
            assert_eq!(fp::fma(k, one, one, neg_one, mode, false), cancel);
            assert_eq!(fp::fma(k, nz, one, one, mode, false), one);
            assert_eq!(fp::sqrt(k, nz, mode, false), nz);
            assert_eq!(fp::sqrt(k, pz, mode, false), pz);
            assert_eq!(fp::rem(k, nz, one), nz);
            assert_eq!(fp::rem(k, two, one), pz);
            assert_eq!(fp::rem(k, two | sign_bit(k), one), nz);
            assert_eq!(fp::compare(k, pz, nz), Some(Ordering::Equal));
            // Exact results.
            assert_eq!(fp::add(k, one, one, mode, false), two);
            assert_eq!(fp::mul(k, two, neg_one, mode, false), two | sign_bit(k));
            assert_eq!(fp::div(k, two, two, mode, false), one);
            assert_eq!(fp::fma(k, one, one, one, mode, false), two);
            assert_eq!(fp::sqrt(k, one, mode, false), one);
        }
        // Bits above the width are ignored.
        if k != F64 {
            let junk = !mask(k);
            assert_eq!(fp::add(k, one | junk, one | junk, NearestEven, false), two);
            assert_eq!(fp::max(k, one | junk, pz, false), one);
            assert_eq!(fp::neg(k, one | junk), neg_one);
            assert_eq!(fp::abs(k, neg_one | junk), one);
        }
        assert_eq!(fp::neg(k, nan), nan | sign_bit(k));
        assert_eq!(fp::abs(k, nan | sign_bit(k)), nan);
        assert_eq!(fp::neg(k, pz), nz);
    }
}

/// Overflow by direction, F8E4M3FN's NaN in place of infinity.
#[test]
fn overflow_by_direction() {
    use Round::*;
    let f16 = |x: f64| float::round_from_f64(F16, x);
    let max = f16(65504.0);
    assert_eq!(fp::add(F16, max, f16(8.0), NearestEven, false), max); // below the tie
    assert_eq!(fp::add(F16, max, f16(8.0), TowardPositive, false), 0x7C00);
    assert_eq!(fp::add(F16, max, f16(16.0), NearestEven, false), 0x7C00); // the tie: to even = inf
    assert_eq!(fp::add(F16, max, f16(16.0), TowardZero, false), max);
    assert_eq!(
        fp::mul(F16, max, f16(-2.0), TowardPositive, false),
        max | 0x8000
    );
    assert_eq!(
        fp::mul(F16, max, f16(-2.0), TowardZero, false),
        max | 0x8000
    );
    assert_eq!(fp::mul(F16, max, f16(-2.0), NearestEven, false), 0xFC00);
    assert_eq!(fp::mul(F16, max, f16(-2.0), TowardNegative, false), 0xFC00);
    let e4 = |x: f64| float::round_from_f64(F8E4M3FN, x);
    let nan = fp::canonical_nan(F8E4M3FN);
    assert_eq!(e4(448.0), 0x7E);
    assert_eq!(
        fp::add(F8E4M3FN, e4(448.0), e4(16.0), NearestEven, false),
        0x7E
    ); // 464: tie to 448
    assert_eq!(
        fp::add(F8E4M3FN, e4(448.0), e4(32.0), NearestEven, false),
        nan
    );
    assert_eq!(
        fp::add(F8E4M3FN, e4(448.0), e4(32.0), TowardZero, false),
        0x7E
    );
    assert_eq!(
        fp::add(F8E4M3FN, e4(448.0), e4(0.5), TowardPositive, false),
        nan
    );
    assert_eq!(
        fp::mul(F8E4M3FN, e4(-448.0), e4(2.0), NearestEven, false),
        nan
    );
    assert_eq!(
        fp::mul(F8E4M3FN, e4(-448.0), e4(2.0), TowardPositive, false),
        0xFE
    );
    assert_eq!(
        fp::mul(F8E4M3FN, e4(-448.0), e4(2.0), TowardNegative, false),
        nan
    );
    assert_eq!(fp::div(F8E4M3FN, e4(1.0), 0, NearestEven, false), nan);
    let e5 = |x: f64| float::round_from_f64(F8E5M2, x);
    assert_eq!(
        fp::add(F8E5M2, e5(57344.0), e5(57344.0), NearestEven, false),
        0x7C
    );
    assert_eq!(
        fp::add(F8E5M2, e5(57344.0), e5(57344.0), TowardZero, false),
        0x7B
    );
}

// ---------------------------------------------------------------------------
// Flush to zero
// ---------------------------------------------------------------------------

#[test]
fn ftz_matches_flushed_reference() {
    let mut rng = Rng(0xF7);
    for k in [F32, F16, BF16] {
        for _ in 0..20_000 {
            let a = operand(&mut rng, k);
            let b = partner(&mut rng, k, a);
            let c = partner(&mut rng, k, b);
            for mode in MODES {
                let (fa, fb, fc) = (flush(k, a), flush(k, b), flush(k, c));
                for (name, op, _) in BINARY {
                    let got = op(k, a, b, mode, true);
                    let want = flush(k, op(k, fa, fb, mode, false));
                    assert!(
                        same(k, got, want),
                        "{name} ftz {k:?} {mode:?} {a:#x} {b:#x}"
                    );
                    assert!(!float::is_subnormal(k, got));
                }
                let got = fp::fma(k, a, b, c, mode, true);
                let want = flush(k, fp::fma(k, fa, fb, fc, mode, false));
                assert!(
                    same(k, got, want),
                    "fma ftz {k:?} {mode:?} {a:#x} {b:#x} {c:#x}"
                );
                let got = fp::sqrt(k, a, mode, true);
                assert!(same(k, got, flush(k, fp::sqrt(k, fa, mode, false))));
            }
        }
    }
}

#[test]
fn ftz_f32_cases() {
    use Round::*;
    let sub = 1u64; // smallest subnormal
    let big_sub = 0x007F_FFFF;
    let min = f32b(f32::MIN_POSITIVE);
    let f = |x: f32| f32b(x);
    for mode in MODES {
        // Subnormal operands read as zeros of their sign.
        assert_eq!(fp::add(F32, sub, 0, mode, true), 0);
        assert_eq!(fp::add(F32, sub | 1 << 31, 1 << 31, mode, true), 1 << 31);
        assert_eq!(fp::mul(F32, big_sub, f(2.0), mode, true), 0);
        assert_eq!(fp::mul(F32, big_sub, f(-2.0), mode, true), 1 << 31);
        assert_eq!(fp::div(F32, f(1.0), sub, mode, true), f(f32::INFINITY));
        assert_eq!(fp::div(F32, sub, sub, mode, true), fp::canonical_nan(F32));
        assert_eq!(fp::sqrt(F32, big_sub, mode, true), 0);
        assert_eq!(fp::fma(F32, big_sub, f(1e30), f(1.0), mode, true), f(1.0));
        // Results that would be subnormal become zeros of their sign.
        assert_eq!(fp::mul(F32, min, f(0.5), mode, true), 0);
        assert_eq!(fp::mul(F32, min, f(-0.5), mode, true), 1 << 31);
        assert_eq!(fp::sub(F32, f(1.5 * f32::MIN_POSITIVE), min, mode, true), 0);
        assert_eq!(fp::convert(F64, F32, 1e-40f64.to_bits(), mode, true), 0);
        assert_eq!(fp::convert(F32, F64, big_sub, mode, true), 0);
        // Normal results stay.
        assert_eq!(
            fp::mul(F32, min, f(2.0), mode, true),
            f(2.0 * f32::MIN_POSITIVE)
        );
        assert_eq!(fp::add(F32, f(1.0), sub, mode, true), f(1.0));
    }
    // A product that rounds up to the smallest normal is not flushed (the
    // rounded result is what is tested); one that rounds to a subnormal is.
    let x = f(1.0 - 2f32.powi(-24)); // 1 - 2^-24
    assert_eq!(fp::mul(F32, min, x, TowardPositive, true), min);
    assert_eq!(fp::mul(F32, min, x, NearestEven, true), min);
    assert_eq!(fp::mul(F32, min, x, TowardZero, true), 0);
    assert_eq!(fp::mul(F32, min, x, TowardZero, false), 0x007F_FFFF);
}

// ---------------------------------------------------------------------------
// remf, maxf/minf, cmpf
// ---------------------------------------------------------------------------

#[test]
fn rem_is_fmod() {
    let f = |x: f64| x.to_bits();
    assert_eq!(fp::rem(F64, f(7.5), f(2.0)), f(1.5));
    assert_eq!(fp::rem(F64, f(-7.5), f(2.0)), f(-1.5));
    assert_eq!(fp::rem(F64, f(7.5), f(-2.0)), f(1.5));
    assert_eq!(fp::rem(F64, f(1.0), f(3.0)), f(1.0));
    assert_eq!(fp::rem(F64, f(f64::MAX), f(1.5)), f(f64::MAX % 1.5));
    assert_eq!(fp::rem(F64, f(f64::MAX), 1), 0); // multiple of the smallest subnormal
    assert_eq!(fp::rem(F64, f(1e300), f(3e-300)), f(1e300 % 3e-300));
    assert_eq!(fp::rem(F64, 7, 3), 1);
    // Subnormals are not flushed by remf; results are exact.
    let h = |x: f64| float::round_from_f64(F16, x);
    assert_eq!(fp::rem(F16, h(65504.0), 1), 0);
    assert_eq!(fp::rem(F16, h(65504.0), 3), 2); // 65504 = 2^24 * 65504 units; mod 3
    let mut rng = Rng(0x4E4);
    for k in [F16, BF16, F8E4M3FN, F8E5M2, TF32] {
        for _ in 0..20_000 {
            let a = operand(&mut rng, k);
            let b = partner(&mut rng, k, a);
            // x % y on f64 is fmod and exact; the result is a value of k.
            let want = float::round_from_f64(k, v(k, a) % v(k, b));
            assert!(same(k, fp::rem(k, a, b), want), "rem {k:?} {a:#x} {b:#x}");
        }
    }
}

#[test]
fn max_min_nan_and_signed_zero_rules() {
    for k in KINDS {
        let nan = fp::canonical_nan(k);
        let other_nan = if k == F8E4M3FN { 0xFF } else { mask(k) };
        let one = float::round_from_f64(k, 1.0);
        let neg_two = float::round_from_f64(k, -2.0);
        let (pz, nz) = (0, sign_bit(k));
        for p in [false, true] {
            assert_eq!(fp::max(k, one, neg_two, p), one);
            assert_eq!(fp::min(k, one, neg_two, p), neg_two);
            assert_eq!(fp::max(k, neg_two, one, p), one);
            assert_eq!(fp::min(k, neg_two, one, p), neg_two);
            assert_eq!(fp::max(k, pz, nz, p), pz);
            assert_eq!(fp::max(k, nz, pz, p), pz);
            assert_eq!(fp::min(k, pz, nz, p), nz);
            assert_eq!(fp::min(k, nz, pz, p), nz);
            assert_eq!(fp::max(k, nz, nz, p), nz);
            assert_eq!(fp::max(k, other_nan, other_nan, p), nan);
            assert_eq!(fp::min(k, nan, other_nan, p), nan);
        }
        // maxf/minf drop a single NaN; propagate_nan / maximumf do not.
        assert_eq!(fp::max(k, other_nan, neg_two, false), neg_two);
        assert_eq!(fp::max(k, neg_two, other_nan, false), neg_two);
        assert_eq!(fp::min(k, other_nan, one, false), one);
        assert_eq!(fp::min(k, nz, other_nan, false), nz);
        assert_eq!(fp::max(k, other_nan, neg_two, true), nan);
        assert_eq!(fp::max(k, neg_two, other_nan, true), nan);
        assert_eq!(fp::min(k, one, other_nan, true), nan);
        // Subnormals are kept unless flushed first.
        assert_eq!(fp::max(k, 1, pz, false), 1);
        assert_eq!(fp::max(k, fp::flush_subnormal(k, 1), pz, false), pz);
        assert_eq!(
            fp::min(k, fp::flush_subnormal(k, 1 | sign_bit(k)), pz, false),
            nz
        );
    }
    // Against a plain reference on random f32 values.
    let mut rng = Rng(0x3A);
    for _ in 0..20_000 {
        let a = operand(&mut rng, F32);
        let b = partner(&mut rng, F32, a);
        let (x, y) = (f32::from_bits(a as u32), f32::from_bits(b as u32));
        for p in [false, true] {
            let (mx, mn) = (fp::max(F32, a, b, p), fp::min(F32, a, b, p));
            if x.is_nan() || y.is_nan() {
                if p || (x.is_nan() && y.is_nan()) {
                    assert_eq!((mx, mn), (fp::canonical_nan(F32), fp::canonical_nan(F32)));
                } else {
                    let n = if x.is_nan() { b } else { a };
                    assert_eq!((mx, mn), (n, n));
                }
            } else {
                // total_cmp orders -0 < +0 and agrees with < elsewhere.
                let (hi, lo) = if x.total_cmp(&y) == Ordering::Greater {
                    (a, b)
                } else {
                    (b, a)
                };
                assert_eq!((mx, mn), (hi, lo), "{a:#x} {b:#x}");
            }
        }
    }
}

#[test]
fn compare_small_kinds_exhaustive_against_f64() {
    let mut rng = Rng(0xC3);
    for k in [F16, BF16, F8E4M3FN, F8E5M2] {
        for a in 0..=mask(k) {
            let b = rng.next() & mask(k);
            let want = v(k, a).partial_cmp(&v(k, b));
            assert_eq!(fp::compare(k, a, b), want, "{k:?} {a:#x} {b:#x}");
            assert_eq!(
                fp::compare(k, a, a),
                if is_nan(k, a) {
                    None
                } else {
                    Some(Ordering::Equal)
                }
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Conversions
// ---------------------------------------------------------------------------

#[test]
fn convert_matches_rounding_of_the_exact_value() {
    // Every source value is exact as an f64, so round_from_f64_with of it is
    // the correctly rounded conversion.
    let mut rng = Rng(0xC0);
    for from in KINDS {
        let count = if from.bit_width() <= 16 {
            1 << from.bit_width()
        } else {
            30_000
        };
        for i in 0..count {
            let a = if from.bit_width() <= 16 {
                i as u64
            } else {
                operand(&mut rng, from)
            };
            for to in KINDS {
                if to == from {
                    continue;
                }
                let mode = MODES[(i % 4) as usize];
                let got = fp::convert(from, to, a, mode, false);
                let want = round_from_f64_with(to, v(from, a), mode);
                assert!(
                    same(to, got, want),
                    "{from:?}->{to:?} {mode:?} {a:#x}: {got:#x} {want:#x}"
                );
            }
        }
    }
    // Native: f64 -> f32 is `as` (round to nearest even), f32 -> f64 exact.
    for _ in 0..30_000 {
        let a = operand(&mut rng, F64);
        let x = f64::from_bits(a);
        assert!(native32(
            fp::convert(F64, F32, a, Round::NearestEven, false),
            x as f32
        ));
        let b = operand(&mut rng, F32);
        let y = f32::from_bits(b as u32);
        assert!(native64(
            fp::convert(F32, F64, b, Round::NearestEven, false),
            f64::from(y)
        ));
    }
}

#[test]
fn convert_edge_cases() {
    use Round::*;
    let f = |x: f32| f32b(x);
    // Infinities; F8E4M3FN has none.
    assert_eq!(
        fp::convert(F32, F16, f(f32::INFINITY), TowardZero, false),
        0x7C00
    );
    assert_eq!(
        fp::convert(F32, F16, f(f32::NEG_INFINITY), NearestEven, false),
        0xFC00
    );
    assert_eq!(
        fp::convert(F32, F8E4M3FN, f(f32::INFINITY), NearestEven, false),
        0x7F
    );
    assert_eq!(
        fp::convert(F32, F8E4M3FN, f(f32::NEG_INFINITY), TowardZero, false),
        0x7F
    );
    assert_eq!(
        fp::convert(F32, F8E5M2, f(f32::NEG_INFINITY), TowardZero, false),
        0xFC
    );
    // Overflow by direction.
    assert_eq!(fp::convert(F32, F16, f(1e10), NearestEven, false), 0x7C00);
    assert_eq!(fp::convert(F32, F16, f(1e10), TowardZero, false), 0x7BFF);
    assert_eq!(
        fp::convert(F32, F16, f(-1e10), TowardPositive, false),
        0xFBFF
    );
    assert_eq!(
        fp::convert(F32, F16, f(65519.0), NearestEven, false),
        0x7BFF
    );
    assert_eq!(
        fp::convert(F32, F16, f(65520.0), NearestEven, false),
        0x7C00
    );
    assert_eq!(
        fp::convert(F32, F8E4M3FN, f(1000.0), NearestEven, false),
        0x7F
    );
    assert_eq!(
        fp::convert(F32, F8E4M3FN, f(-1000.0), TowardZero, false),
        0xFE
    );
    assert_eq!(
        fp::convert(F32, F8E4M3FN, f(464.0), NearestEven, false),
        0x7E
    );
    assert_eq!(
        fp::convert(F32, F8E4M3FN, f(465.0), NearestEven, false),
        0x7F
    );
    assert_eq!(
        fp::convert(F64, F32, f64::MAX.to_bits(), NearestEven, false),
        f(f32::INFINITY)
    );
    assert_eq!(
        fp::convert(F64, F32, f64::MAX.to_bits(), TowardNegative, false),
        f(f32::MAX)
    );
    assert_eq!(
        fp::convert(F64, BF16, f64::MAX.to_bits(), TowardZero, false),
        0x7F7F
    );
    // Signed zeros and underflow.
    assert_eq!(fp::convert(F32, F16, f(-0.0), NearestEven, false), 0x8000);
    assert_eq!(
        fp::convert(F64, F8E5M2, (-0.0f64).to_bits(), TowardPositive, false),
        0x80
    );
    assert_eq!(fp::convert(F32, F16, f(1e-10), NearestEven, false), 0);
    assert_eq!(fp::convert(F32, F16, f(1e-10), TowardPositive, false), 1);
    assert_eq!(
        fp::convert(F32, F16, f(-1e-10), TowardPositive, false),
        0x8000
    );
    assert_eq!(
        fp::convert(F32, F16, f(-1e-10), TowardNegative, false),
        0x8001
    );
    assert_eq!(
        fp::convert(F32, F16, f(2f32.powi(-25)), NearestEven, false),
        0
    ); // tie to even 0
    assert_eq!(
        fp::convert(F32, F16, f(3.0 * 2f32.powi(-26)), NearestEven, false),
        1
    );
    // Ties.
    let t = 1.0 + 2f32.powi(-11); // halfway between 1 and the next f16
    assert_eq!(fp::convert(F32, F16, f(t), NearestEven, false), 0x3C00);
    assert_eq!(
        fp::convert(F32, F16, f(t + 2f32.powi(-10)), NearestEven, false),
        0x3C02
    );
    assert_eq!(fp::convert(F32, F16, f(t), TowardPositive, false), 0x3C01);
    assert_eq!(
        fp::convert(F32, BF16, 0x3F80_8000, NearestEven, false),
        0x3F80
    );
    assert_eq!(
        fp::convert(F32, BF16, 0x3F81_8000, NearestEven, false),
        0x3F82
    );
    assert_eq!(
        fp::convert(F32, TF32, 0x3F80_1000, NearestEven, false),
        0x1FC00
    );
    assert_eq!(
        fp::convert(F32, TF32, 0x3F80_3000, NearestEven, false),
        0x1FC02
    );
    assert_eq!(
        fp::convert(F32, TF32, 0x3F80_1000, TowardPositive, false),
        0x1FC01
    );
    // Widening is exact, f8 subnormals included.
    assert_eq!(
        fp::convert(F8E4M3FN, F32, 0x01, NearestEven, false),
        f(2f32.powi(-9))
    );
    assert_eq!(fp::convert(F8E5M2, F16, 0x83, NearestEven, false), 0x8300);
    assert_eq!(
        fp::convert(F16, F32, 0x7C00, NearestEven, false),
        f(f32::INFINITY)
    );
}

fn ref_to_int(x: f64, width: u32, signed: bool, mode: Round) -> u64 {
    if x.is_nan() {
        return 0;
    }
    let r = match mode {
        Round::NearestEven => x.round_ties_even(),
        Round::TowardZero => x.trunc(),
        Round::TowardNegative => x.floor(),
        Round::TowardPositive => x.ceil(),
    };
    // Rust's float-to-int `as` saturates (infinities included) and maps NaN
    // to 0, which is the spec's ftoi rule.
    match (width, signed) {
        (8, true) => u64::from(r as i8 as u8),
        (16, true) => u64::from(r as i16 as u16),
        (32, true) => u64::from(r as i32 as u32),
        (64, true) => r as i64 as u64,
        (8, false) => u64::from(r as u8),
        (16, false) => u64::from(r as u16),
        (32, false) => u64::from(r as u32),
        (64, false) => r as u64,
        (1, true) => u64::from(r < 0.0), // [-1, 0]: -1 is the bit 1
        (1, false) => u64::from(r >= 1.0), // [0, 1]
        _ => unreachable!(),
    }
}

#[test]
fn to_int_matches_saturating_reference() {
    let mut rng = Rng(0x1A);
    for k in KINDS {
        let count = if k.bit_width() <= 16 {
            1usize << k.bit_width()
        } else {
            40_000
        };
        for i in 0..count {
            let a = if k.bit_width() <= 16 {
                i as u64
            } else {
                operand(&mut rng, k)
            };
            // Values near integers and the ranges' edges are the interesting ones.
            let a = if i % 3 == 0 && k.bit_width() > 16 {
                let target = [
                    0.5,
                    2.5,
                    -2.5,
                    127.5,
                    128.0,
                    -128.5,
                    255.5,
                    32767.5,
                    65535.7,
                    2147483647.5,
                    -2147483648.7,
                    4294967295.2,
                    9.3e18,
                    -9.3e18,
                    1.9e19,
                ][rng.below(15) as usize];
                float::round_from_f64(k, target)
            } else {
                a
            };
            for width in [1, 8, 16, 32, 64] {
                for signed in [false, true] {
                    let mode = MODES[(rng.next() % 4) as usize];
                    let got = fp::to_int(k, a, width, signed, mode);
                    let want = ref_to_int(v(k, a), width, signed, mode);
                    assert_eq!(got, want, "{k:?} {a:#x} i{width} signed={signed} {mode:?}");
                }
            }
        }
    }
}

#[test]
fn to_int_edge_cases() {
    use Round::*;
    let f = |x: f32| f32b(x);
    assert_eq!(fp::to_int(F32, f(f32::NAN), 32, true, TowardZero), 0);
    assert_eq!(fp::to_int(F32, 0xFFC0_0001, 64, false, TowardZero), 0);
    assert_eq!(
        fp::to_int(F32, f(f32::INFINITY), 32, true, TowardZero),
        0x7FFF_FFFF
    );
    assert_eq!(
        fp::to_int(F32, f(f32::NEG_INFINITY), 32, true, TowardZero),
        0x8000_0000
    );
    assert_eq!(
        fp::to_int(F32, f(f32::NEG_INFINITY), 16, false, TowardZero),
        0
    );
    assert_eq!(
        fp::to_int(F32, f(f32::INFINITY), 64, false, TowardZero),
        u64::MAX
    );
    assert_eq!(
        fp::to_int(F32, f(1e20), 64, true, TowardZero),
        i64::MAX as u64
    );
    assert_eq!(
        fp::to_int(F32, f(-1e20), 64, true, TowardZero),
        i64::MIN as u64
    );
    assert_eq!(fp::to_int(F32, f(300.0), 8, false, TowardZero), 255);
    assert_eq!(fp::to_int(F32, f(-300.0), 8, true, TowardZero), 0x80);
    assert_eq!(fp::to_int(F32, f(-1.0), 8, false, TowardZero), 0);
    assert_eq!(fp::to_int(F32, f(-0.9), 8, false, TowardZero), 0);
    assert_eq!(fp::to_int(F32, f(-0.0), 32, true, TowardZero), 0);
    assert_eq!(
        fp::to_int(F32, f(-2.9), 32, true, TowardZero),
        (-2i32) as u32 as u64
    );
    assert_eq!(fp::to_int(F32, f(2.5), 32, true, NearestEven), 2);
    assert_eq!(fp::to_int(F32, f(3.5), 32, true, NearestEven), 4);
    assert_eq!(
        fp::to_int(F32, f(-2.5), 32, true, NearestEven),
        (-2i32) as u32 as u64
    );
    assert_eq!(
        fp::to_int(F32, f(-2.1), 32, true, TowardNegative),
        (-3i32) as u32 as u64
    );
    assert_eq!(fp::to_int(F32, f(2.1), 32, true, TowardPositive), 3);
    assert_eq!(fp::to_int(F32, f(127.5), 8, true, NearestEven), 127);
    assert_eq!(fp::to_int(F32, f(-128.4), 8, true, TowardZero), 0x80);
    assert_eq!(
        fp::to_int(F32, f(4294967040.0), 32, false, TowardZero),
        4294967040
    );
    assert_eq!(
        fp::to_int(F64, 4294967295.9f64.to_bits(), 32, false, TowardZero),
        0xFFFF_FFFF
    );
    assert_eq!(
        fp::to_int(F64, 4294967295.5f64.to_bits(), 32, false, NearestEven),
        0xFFFF_FFFF
    );
    assert_eq!(
        fp::to_int(F64, 2f64.powi(63).to_bits(), 64, true, TowardZero),
        i64::MAX as u64
    );
    assert_eq!(
        fp::to_int(F64, (-(2f64.powi(63))).to_bits(), 64, true, TowardZero),
        i64::MIN as u64
    );
    assert_eq!(
        fp::to_int(F64, 2f64.powi(64).to_bits(), 64, false, TowardZero),
        u64::MAX
    );
    assert_eq!(
        fp::to_int(
            F64,
            (2f64.powi(64) - 2048.0).to_bits(),
            64,
            false,
            TowardZero
        ),
        u64::MAX - 2047
    );
    assert_eq!(fp::to_int(F64, 1u64, 32, true, TowardPositive), 1); // tiniest subnormal
    assert_eq!(
        fp::to_int(F64, 1u64 | 1 << 63, 32, true, TowardNegative),
        0xFFFF_FFFF
    );
    // i1: signed range [-1, 0], unsigned [0, 1]; the result is the low bit.
    assert_eq!(fp::to_int(F32, f(-1.0), 1, true, TowardZero), 1);
    assert_eq!(fp::to_int(F32, f(-7.0), 1, true, TowardZero), 1);
    assert_eq!(fp::to_int(F32, f(1.0), 1, true, TowardZero), 0);
    assert_eq!(fp::to_int(F32, f(1.0), 1, false, TowardZero), 1);
    assert_eq!(fp::to_int(F32, f(9.0), 1, false, TowardZero), 1);
    assert_eq!(fp::to_int(F32, f(0.9), 1, false, TowardZero), 0);
    assert_eq!(fp::to_int(F32, f(0.9), 1, false, NearestEven), 1);
    // f8 and f16 sources.
    assert_eq!(fp::to_int(F8E4M3FN, 0x7E, 8, true, TowardZero), 127);
    assert_eq!(fp::to_int(F8E4M3FN, 0x7E, 16, true, TowardZero), 448);
    assert_eq!(fp::to_int(F8E4M3FN, 0x7F, 16, true, TowardZero), 0);
    assert_eq!(fp::to_int(F16, 0xFC00, 16, true, TowardZero), 0x8000);
}

fn ref_from_int(x: i128, k: FloatKind, mode: Round) -> u64 {
    // |x| < 2^64: its nearest f64 plus the sign of the error, exactly.
    let q = x as f64;
    let back = q as i128; // exact: q is an integer below 2^65
    ref_round(
        k,
        Near {
            q,
            err: x.cmp(&back),
        },
        mode,
    )
}

#[test]
fn from_int_matches_reference() {
    let mut rng = Rng(0x17);
    for width in [1u32, 8, 16, 32, 64] {
        for signed in [false, true] {
            for i in 0..6_000u64 {
                let raw = match i % 4 {
                    0 => rng.next(),
                    1 => rng.next() >> rng.below(64),
                    2 => rng.next() | 0xFFFF_FFFF_FF00_0000,
                    _ => i,
                };
                let bits = if width == 64 {
                    raw
                } else {
                    raw & ((1u64 << width) - 1)
                };
                let x: i128 = if signed && bits >> (width - 1) & 1 == 1 {
                    i128::from(bits) - (1i128 << width)
                } else {
                    i128::from(bits)
                };
                for k in KINDS {
                    let mode = MODES[(rng.next() % 4) as usize];
                    // Junk above the width is ignored.
                    let junk = if width == 64 { 0 } else { rng.next() << width };
                    let got = fp::from_int(bits | junk, width, signed, k, mode);
                    if k == F64 {
                        if x == 0 {
                            assert_eq!(got, 0);
                        } else {
                            let xd = Dy::int(x < 0, x.unsigned_abs());
                            check_dyadic(k, mode, got, &xd, &|| format!("{x} {mode:?}"));
                        }
                    } else {
                        let want = ref_from_int(x, k, mode);
                        assert!(
                            same(k, got, want),
                            "{x} -> {k:?} {mode:?}: {got:#x} {want:#x}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn from_int_edge_cases() {
    use Round::*;
    // i1: signed 1 is -1.
    assert_eq!(fp::from_int(1, 1, true, F32, NearestEven), f32b(-1.0));
    assert_eq!(fp::from_int(1, 1, false, F32, NearestEven), f32b(1.0));
    assert_eq!(fp::from_int(0, 64, true, F16, TowardNegative), 0); // +0
    assert_eq!(
        fp::from_int(i64::MIN as u64, 64, true, F64, NearestEven),
        (-(2f64.powi(63))).to_bits()
    );
    assert_eq!(
        fp::from_int(u64::MAX, 64, false, F32, NearestEven),
        f32b(2f32.powi(64))
    );
    assert_eq!(
        fp::from_int(u64::MAX, 64, false, F32, TowardZero),
        f32b(2f32.powi(64).next_down())
    );
    assert_eq!(
        fp::from_int(u64::MAX, 64, false, F64, TowardZero),
        (2f64.powi(64) - 2048.0).to_bits()
    );
    assert_eq!(
        fp::from_int(u64::MAX, 64, true, F64, NearestEven),
        (-1f64).to_bits()
    );
    // 2^24 + 1 is a tie in f32.
    assert_eq!(
        fp::from_int(16_777_217, 32, true, F32, NearestEven),
        f32b(16_777_216.0)
    );
    assert_eq!(
        fp::from_int(16_777_219, 32, true, F32, NearestEven),
        f32b(16_777_220.0)
    );
    assert_eq!(
        fp::from_int(16_777_217, 32, true, F32, TowardPositive),
        f32b(16_777_218.0)
    );
    // Overflow: Inf, or NaN for F8E4M3FN; toward zero keeps the largest finite.
    assert_eq!(fp::from_int(70_000, 32, true, F16, NearestEven), 0x7C00);
    assert_eq!(fp::from_int(65_520, 32, true, F16, NearestEven), 0x7C00);
    assert_eq!(fp::from_int(65_519, 32, true, F16, NearestEven), 0x7BFF);
    assert_eq!(fp::from_int(70_000, 32, true, F16, TowardZero), 0x7BFF);
    assert_eq!(
        fp::from_int((-70_000i32) as u32 as u64, 32, true, F16, TowardPositive),
        0xFBFF
    );
    assert_eq!(
        fp::from_int((-70_000i32) as u32 as u64, 32, true, F16, TowardNegative),
        0xFC00
    );
    assert_eq!(fp::from_int(1000, 16, false, F8E4M3FN, NearestEven), 0x7F);
    assert_eq!(fp::from_int(1000, 16, false, F8E4M3FN, TowardZero), 0x7E);
    assert_eq!(fp::from_int(464, 16, false, F8E4M3FN, NearestEven), 0x7E);
    assert_eq!(fp::from_int(465, 16, false, F8E4M3FN, NearestEven), 0x7F);
    assert_eq!(
        fp::from_int(u64::MAX, 64, false, BF16, TowardPositive),
        0x5F80
    );
}

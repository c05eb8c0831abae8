//! Placeholder (round-to-nearest through f64) until the correctly rounded module lands.

use std::cmp::Ordering;
use tilec_ir::float::{FloatKind, Round, is_nan, round_from_f64_with, to_f64};

fn r(k: FloatKind, v: f64, mode: Round) -> u64 {
    round_from_f64_with(k, v, mode)
}
pub fn canonical_nan(k: FloatKind) -> u64 {
    r(k, f64::NAN, Round::NearestEven)
}
pub fn add(k: FloatKind, a: u64, b: u64, mode: Round, _ftz: bool) -> u64 {
    r(k, to_f64(k, a) + to_f64(k, b), mode)
}
pub fn sub(k: FloatKind, a: u64, b: u64, mode: Round, _ftz: bool) -> u64 {
    r(k, to_f64(k, a) - to_f64(k, b), mode)
}
pub fn mul(k: FloatKind, a: u64, b: u64, mode: Round, _ftz: bool) -> u64 {
    r(k, to_f64(k, a) * to_f64(k, b), mode)
}
pub fn div(k: FloatKind, a: u64, b: u64, mode: Round, _ftz: bool) -> u64 {
    r(k, to_f64(k, a) / to_f64(k, b), mode)
}
pub fn fma(k: FloatKind, a: u64, b: u64, c: u64, mode: Round, _ftz: bool) -> u64 {
    r(k, to_f64(k, a).mul_add(to_f64(k, b), to_f64(k, c)), mode)
}
pub fn sqrt(k: FloatKind, a: u64, mode: Round, _ftz: bool) -> u64 {
    r(k, to_f64(k, a).sqrt(), mode)
}
pub fn rem(k: FloatKind, a: u64, b: u64) -> u64 {
    r(k, to_f64(k, a) % to_f64(k, b), Round::NearestEven)
}
pub fn max(k: FloatKind, a: u64, b: u64, propagate_nan: bool) -> u64 {
    let (x, y) = (to_f64(k, a), to_f64(k, b));
    if x.is_nan() || y.is_nan() {
        return if propagate_nan || (x.is_nan() && y.is_nan()) {
            canonical_nan(k)
        } else if x.is_nan() {
            b
        } else {
            a
        };
    }
    if x > y || (x == y && !x.is_sign_negative()) {
        a
    } else {
        b
    }
}
pub fn min(k: FloatKind, a: u64, b: u64, propagate_nan: bool) -> u64 {
    let (x, y) = (to_f64(k, a), to_f64(k, b));
    if x.is_nan() || y.is_nan() {
        return if propagate_nan || (x.is_nan() && y.is_nan()) {
            canonical_nan(k)
        } else if x.is_nan() {
            b
        } else {
            a
        };
    }
    if x < y || (x == y && x.is_sign_negative()) {
        a
    } else {
        b
    }
}
pub fn convert(from: FloatKind, to: FloatKind, bits: u64, mode: Round, _ftz: bool) -> u64 {
    r(to, to_f64(from, bits), mode)
}
pub fn to_int(k: FloatKind, bits: u64, width: u32, signed: bool, _mode: Round) -> u64 {
    let v = to_f64(k, bits).trunc();
    let mask = if width == 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    if is_nan(k, bits) {
        return 0;
    }
    if signed {
        let lo = -(2f64.powi(width as i32 - 1));
        let hi = 2f64.powi(width as i32 - 1) - 1.0;
        (v.clamp(lo, hi) as i64 as u64) & mask
    } else {
        (v.clamp(0.0, 2f64.powi(width as i32) - 1.0) as u64) & mask
    }
}
pub fn from_int(bits: u64, width: u32, signed: bool, k: FloatKind, mode: Round) -> u64 {
    let v = if signed {
        tilec_ir::util::sign_extend(bits, width) as f64
    } else {
        bits as f64
    };
    r(k, v, mode)
}
pub fn compare(k: FloatKind, a: u64, b: u64) -> Option<Ordering> {
    to_f64(k, a).partial_cmp(&to_f64(k, b))
}

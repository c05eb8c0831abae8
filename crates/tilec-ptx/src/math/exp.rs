//! The exponential family: exp, exp2, sinh, cosh, tanh and the logistic sigmoid, all built on
//! one reduction `x = k ln2 + r` (or `x = k + r` for base 2) and one `expm1` polynomial that
//! returns `e^r` as a double-word value, so that the hyperbolic functions can combine
//! `e^x` and `e^-x` without cancellation.

use super::build::{B, Dw};
use super::consts::{LN2, LOG2_E};
use super::ir::{Cmp, IBin, R, Ty};

/// `e^x = 2^k (hi + lo)` with `hi` in `[0.7, 1.42]` and `lo` tiny.
pub(super) struct ExpParts {
    /// The B32 exponent.
    pub k: R,
    /// The double-word significand.
    pub e: Dw,
}

/// Taylor coefficients `1/(n+2)!` of `(e^r - 1 - r) / r^2`, enough terms for the format.
fn expm1_coeffs(double: bool) -> Vec<f64> {
    let n = if double { 12 } else { 6 };
    let mut out = Vec::with_capacity(n);
    let mut f = 1.0f64;
    for i in 2..n + 2 {
        f *= i as f64;
        out.push(1.0 / f);
    }
    out
}

/// Exponential core: `x` must be finite and clamped so that `|k|` fits [`B::scale`].
/// For `base2`, computes `2^(x + x_lo)`; otherwise `e^x`.
pub(super) fn exp_core(b: &mut B, x: R, x_lo: Option<R>, base2: bool) -> ExpParts {
    let fp = b.fp(x);
    let (kf, rh, rl) = if base2 {
        let kf = b.rni(x);
        let r = b.sub(x, kf);
        let (h, l) = fp.dw(LN2);
        let hc = b.fc(fp, h);
        let p = b.two_prod(r, hc);
        let mut rl = b.fma_c(r, l, p.lo);
        if let Some(xl) = x_lo {
            rl = b.fma(xl, hc, rl);
        }
        (kf, p.hi, rl)
    } else {
        // k ln2_hi is exact (|k| < 2^11 and ln2_hi has few bits), so rh is exact.
        let (h, l) = fp.split(LN2, fp.pick(16, 42));
        let t = b.mul_c(x, f64::from_bits(LOG2_E[0]));
        let kf = b.rni(t);
        let nk = b.neg(kf);
        let rh = b.fma_c(nk, h, x);
        let rl = b.mul_c(nk, l);
        (kf, rh, rl)
    };
    // e^(rh+rl) - 1 ~ rh + (rh^2 P(rh) + rl e^rh), e^rh - 1 ~ rh + rh^2 P(rh)
    let z = b.mul(rh, rh);
    let p = b.poly(rh, &expm1_coeffs(fp.f == Ty::F64));
    let em = b.fma(z, p, rh);
    let t = b.fma(rl, em, rl);
    let corr = b.fma(z, p, t);
    let one = b.fc(fp, 1.0);
    let s = b.fast_two_sum(one, rh);
    let lo = b.add(s.lo, corr);
    let e = b.fast_two_sum(s.hi, lo);
    let k = b.cvt(Ty::B32, kf, true);
    ExpParts { k, e }
}

/// `e^x` or `2^x` of a clamped, finite `x`, rounded.
pub(super) fn exp_eval(b: &mut B, x: R, x_lo: Option<R>, base2: bool) -> R {
    let p = exp_core(b, x, x_lo, base2);
    let y = b.round_dw(p.e);
    b.scale(y, p.k)
}

/// `exp(x)` / `exp2(x)` with IEEE special values.
pub(super) fn exp(b: &mut B, x: R, base2: bool) -> R {
    let fp = b.fp(x);
    let (lo, hi) = match (base2, fp.f == Ty::F64) {
        (false, false) => (-105.0, 90.0),
        (false, true) => (-746.0, 711.0),
        (true, false) => (-151.0, 129.0),
        (true, true) => (-1076.0, 1025.0),
    };
    let xc = b.clamp(x, lo, hi);
    let r = exp_eval(b, xc, None, base2);
    b.keep_nan(x, r)
}

/// `1 / (hi + lo)` as a double-word value.
fn recip_dw(b: &mut B, d: Dw) -> Dw {
    let fp = b.fp(d.hi);
    let one = b.fc(fp, 1.0);
    let inv = b.div(one, d.hi);
    let nh = b.neg(d.hi);
    let r = b.fma(nh, inv, one);
    let nl = b.neg(d.lo);
    let r = b.fma(nl, inv, r);
    let lo = b.mul(r, inv);
    Dw { hi: inv, lo }
}

/// `sinh(x)` (`cosh == false`) or `cosh(x)`: `(e^|x| -+ e^-|x|) / 2` in double-word.
pub(super) fn sinh_cosh(b: &mut B, x: R, cosh: bool) -> R {
    let fp = b.fp(x);
    let a = b.abs(x);
    let ac = b.clamp(a, 0.0, fp.pick(90.0, 711.0));
    let p = exp_core(b, ac, None, false);
    let inv = recip_dw(b, p.e);
    // Moderate k: both terms, scaled exactly.
    let big_k = fp.pick(16, 32);
    let kc = b.ibin_c(IBin::MinS, p.k, big_k);
    let zero = b.ic(Ty::B32, 0);
    let nk = b.ibin(IBin::Sub, zero, kc);
    let sa = b.pow2(fp, kc);
    let sb = b.pow2(fp, nk);
    let ah = b.mul(p.e.hi, sa);
    let al = b.mul(p.e.lo, sa);
    let mut bh = b.mul(inv.hi, sb);
    let mut bl = b.mul(inv.lo, sb);
    if !cosh {
        bh = b.neg(bh);
        bl = b.neg(bl);
    }
    let s = b.two_sum(ah, bh);
    let lo = b.add(s.lo, al);
    let lo = b.add(lo, bl);
    let small = b.add(s.hi, lo);
    let small = b.mul_c(small, 0.5);
    // Large k: e^-|x| is negligible; 2^(k-1) (hi + lo) with one rounding.
    let y = b.round_dw(p.e);
    let k1 = b.ibin_c(IBin::Sub, p.k, 1);
    let big = b.scale(y, k1);
    let is_big = b.setp_ic(Cmp::Gt, p.k, big_k);
    let mut r = b.sel(is_big, big, small);
    if !cosh {
        // k = 0 (|x| < ln2/2): odd Taylor polynomial, no cancellation.
        let z = b.mul(a, a);
        let n = fp.pick(4, 7);
        let c: Vec<f64> = (0..n)
            .map(|i| 1.0 / (1..=2 * i + 3).map(f64::from).product::<f64>())
            .collect();
        let pz = b.poly(z, &c);
        let az = b.mul(a, z);
        let sm = b.fma(az, pz, a);
        let k0 = b.setp_ic(Cmp::Eq, p.k, 0);
        r = b.sel(k0, sm, r);
        r = b.copysign(r, x);
    }
    b.keep_nan(x, r)
}

/// `tanh(x) = (e^2|x| - 1) / (e^2|x| + 1)` with the sign of `x`.
pub(super) fn tanh(b: &mut B, x: R) -> R {
    let fp = b.fp(x);
    let a = b.abs(x);
    let ac = b.clamp(a, 0.0, fp.pick(10.0, 20.0));
    let t = b.add(ac, ac);
    let p = exp_core(b, t, None, false);
    let s = b.pow2(fp, p.k);
    let ph = b.mul(p.e.hi, s);
    let pl = b.mul(p.e.lo, s);
    let m1 = b.fc(fp, -1.0);
    let n = b.two_sum(ph, m1);
    let nl = b.add(n.lo, pl);
    let num = b.two_sum(n.hi, nl);
    let two = b.fc(fp, 2.0);
    let d = b.two_sum(num.hi, two);
    let dl = b.add(d.lo, num.lo);
    let r = b.div_dw(num, Dw { hi: d.hi, lo: dl });
    let r = b.copysign(r, x);
    b.keep_nan(x, r)
}

/// `1 / (1 + e^-x)`, computed as `N / (1 + e^-|x|)` with `N = 1` for `x >= 0` and
/// `N = e^-|x|` for `x < 0`.
pub(super) fn sigmoid(b: &mut B, x: R) -> R {
    let fp = b.fp(x);
    let a = b.abs(x);
    let na = b.neg(a);
    let nc = b.clamp(na, fp.pick(-105.0, -746.0), 0.0);
    let p = exp_core(b, nc, None, false);
    let eh = b.scale(p.e.hi, p.k);
    let el = b.scale(p.e.lo, p.k);
    let one = b.fc(fp, 1.0);
    let zero = b.fc(fp, 0.0);
    let neg = b.setp(Cmp::Lt, x, zero);
    let num = b.sel_dw(neg, Dw { hi: eh, lo: el }, Dw { hi: one, lo: zero });
    let d = b.two_sum(one, eh);
    let dl = b.add(d.lo, el);
    let r = b.div_dw(num, Dw { hi: d.hi, lo: dl });
    b.keep_nan(x, r)
}

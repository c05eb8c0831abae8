//! The logarithm family (ln, log2, log10, log1p) and pow.
//!
//! `x = 2^e m` with `m` in `[sqrt(1/2), sqrt(2))`, `f = m - 1` (exact), `s = f / (2 + f)`,
//! `ln(1+f) = 2 atanh(s) = f + c` with `c = s (R - f)`, `R = 2s^2/3 + 2s^4/5 + ...`. The result
//! `e log_b(2) + (f + c) log_b(e)` is summed in double-word arithmetic. binary64 pow uses a
//! more precise double-word `log2` ([`log2_dd`]).

use super::build::{B, Dw, F64};
use super::consts::{LN2, LOG2_E, LOG10_2, LOG10_E, ONE_12, ONE_80};
use super::exp::exp_eval;
use super::ir::{Cmp, IBin, R, Ty};

/// The base of a logarithm.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Base {
    /// natural
    E,
    /// binary
    Two,
    /// decimal
    Ten,
}

/// `atanh` series coefficients `2/(2i+3)` of `R / s^2`.
fn atanh_coeffs(double: bool) -> Vec<f64> {
    let n = if double { 10 } else { 4 };
    (0..n).map(|i| 2.0 / (2 * i + 3) as f64).collect()
}

/// `x = 2^e (1 + f)` with `1 + f` in `[sqrt(1/2), sqrt(2))` for a positive finite `x`
/// (subnormals included): returns the integer `e` (register of `x`'s integer twin) and `f`
/// (exact).
fn reduce(b: &mut B, x: R) -> (R, R) {
    let fp = b.fp(x);
    // Subnormals: scale up by 2^(mant+1).
    let min_normal = 2f64.powi(1 - fp.bias as i32);
    let tiny = b.setp_fc(Cmp::Lt, x, min_normal);
    let xs0 = b.mul_c(x, 2f64.powi(fp.mant as i32 + 1));
    let xs = b.sel(tiny, xs0, x);
    let adj = b.ic(fp.i, -(i64::from(fp.mant) + 1));
    let z0 = b.ic(fp.i, 0);
    let eadj = b.sel(tiny, adj, z0);
    let ix = b.bits(fp.i, xs);
    let sq = fp.bits_of(std::f64::consts::FRAC_1_SQRT_2) as i64;
    let t = b.ibin_c(IBin::Sub, ix, sq);
    let e = b.ibin_c(IBin::ShrS, t, i64::from(fp.mant));
    let e = b.ibin(IBin::Add, e, eadj);
    let mb = b.ibin_c(IBin::And, t, fp.mant_mask() as i64);
    let mb = b.ibin_c(IBin::Add, mb, sq);
    let m = b.bits(fp.f, mb);
    let one = b.fc(fp, 1.0);
    let f = b.sub(m, one);
    (e, f)
}

/// The logarithm of a positive finite normal-or-subnormal `x` as an unrounded double-word
/// value (other inputs give garbage; see [`log`]). `extra` is added to `ln(x)` (natural-log
/// units; log1p's correction).
pub(super) fn log_dw(b: &mut B, x: R, base: Base, extra: Option<R>) -> Dw {
    let fp = b.fp(x);
    let keep = fp.pick(16, 42);
    let (eh, el) = match base {
        Base::E => fp.split(LN2, keep),
        Base::Two => (1.0, 0.0),
        Base::Ten => fp.split(LOG10_2, keep),
    };
    let (mh, ml) = match base {
        Base::E => (1.0, 0.0),
        Base::Two => fp.dw(LOG2_E),
        Base::Ten => fp.dw(LOG10_E),
    };
    let (e, f) = reduce(b, x);
    let z0 = b.ic(fp.i, 0);
    let d = b.add_c(f, 2.0);
    let s = b.div(f, d);
    let z = b.mul(s, s);
    let p = b.poly(z, &atanh_coeffs(fp.f == Ty::F64));
    let r = b.mul(z, p);
    let rf = b.sub(r, f);
    let mut c = b.mul(s, rf);
    if let Some(x) = extra {
        c = b.add(c, x);
    }
    let ef = b.cvt(fp.f, e, true);
    // e eh (exact) + f mh (two-product) + small terms.
    let h = if mh == 1.0 {
        Dw { hi: f, lo: z0 }
    } else {
        b.two_prod_c(f, mh)
    };
    let a = b.mul_c(ef, eh);
    let s12 = b.fast_two_sum(a, h.hi);
    let mut lo = if mh == 1.0 {
        s12.lo
    } else {
        b.add(s12.lo, h.lo)
    };
    if ml != 0.0 {
        lo = b.fma_c(f, ml, lo);
    }
    lo = b.fma_c(c, mh, lo);
    if el != 0.0 {
        lo = b.fma_c(ef, el, lo);
    }
    b.fast_two_sum(s12.hi, lo)
}

/// Selects the IEEE results of a logarithm of `x` outside `(0, inf)`:
/// `log(+-0) = -inf`, `log(+inf) = +inf`, `log(<0) = log(NaN) = NaN`.
fn log_specials(b: &mut B, x: R, r: R) -> R {
    let fp = b.fp(x);
    let zero = b.fc(fp, 0.0);
    let inf = b.fc(fp, f64::INFINITY);
    let ninf = b.fc(fp, f64::NEG_INFINITY);
    let nan = b.fc(fp, f64::NAN);
    let pos = b.setp(Cmp::Gt, x, zero);
    let fin = b.setp(Cmp::Lt, x, inf);
    let ok = b.and(pos, fin);
    let is0 = b.setp(Cmp::Eq, x, zero);
    let isinf = b.setp(Cmp::Eq, x, inf);
    let sp = b.sel(is0, ninf, nan);
    let sp = b.sel(isinf, inf, sp);
    b.sel(ok, r, sp)
}

/// `log_base(x)`.
pub(super) fn log(b: &mut B, x: R, base: Base) -> R {
    let d = log_dw(b, x, base, None);
    let r = b.round_dw(d);
    log_specials(b, x, r)
}

/// `log1p(x) = ln(u) + (1 + x - u) / u` with `u = fl(1 + x)`.
pub(super) fn log1p(b: &mut B, x: R) -> R {
    let fp = b.fp(x);
    let one = b.fc(fp, 1.0);
    let u = b.two_sum(one, x);
    let corr = b.div(u.lo, u.hi);
    let d = log_dw(b, u.hi, Base::E, Some(corr));
    let r = b.round_dw(d);
    let r = log_specials(b, u.hi, r);
    let zero = b.fc(fp, 0.0);
    let is0 = b.setp(Cmp::Eq, x, zero);
    b.sel(is0, x, r)
}

/// `ln(1 + f)` as a normalised double-word value for binary64 `f` with `1 + f` in
/// `[sqrt(1/2), sqrt(2))`, accurate to about 2^-69 relative (pow's logarithm):
/// `u = 2f / (2 + f)` in double-word (`u_lo` from the exact residual
/// `2f - u (2 + f) = 2 (f - u) - u f`), then
/// `ln(1 + f) = 2 atanh(u / 2) = u + u^3 (1/12 + u^2/80 + u^4 P(u^2))` with `u^3`, `u^2/80`
/// and the sums in double-word and only `u^4 P(u^2)` (at most 2^-18 of the result) in
/// binary64. `|u| <= 0.3432`; the series is cut after `u^25` (the first omitted term is
/// below 2^-71 of the result).
fn ln1p_dd(b: &mut B, f: R) -> Dw {
    let d = b.add_c(f, 2.0);
    let one = b.fc(F64, 1.0);
    let g = b.div(one, d);
    let fg = b.mul(f, g);
    let u = b.add(fg, fg);
    // f - u is exact (Sterbenz: u / f ~ 2 / (2 + f) is in [0.82, 1.18]).
    let fu = b.sub(f, u);
    let fu2 = b.add(fu, fu);
    let nu = b.neg(u);
    let r = b.fma(nu, f, fu2);
    let ul = b.mul(r, g);
    let uu = b.fast_two_sum(u, ul);
    let v = b.mul_dw(uu, uu);
    let u3 = b.mul_dw(v, uu);
    let c80 = b.dw_c(F64, F64.dw(ONE_80));
    let w = b.mul_dw(v, c80);
    // u^(2k+1) / ((2k+1) 4^k) for k = 3..=12, divided by u^7.
    let tail: Vec<f64> = (3..=12)
        .map(|k| 1.0 / ((2 * k + 1) as f64 * 4f64.powi(k)))
        .collect();
    let p = b.poly(v.hi, &tail);
    let v2 = b.mul(v.hi, v.hi);
    let t = b.mul(v2, p);
    let wl = b.add(w.lo, t);
    let c12 = b.dw_c(F64, F64.dw(ONE_12));
    let c = b.add_dw(c12, Dw { hi: w.hi, lo: wl });
    let q = b.mul_dw(u3, c);
    b.add_dw(uu, q)
}

/// `log2 x` for a positive finite binary64 `x` (subnormals included) as a normalised
/// double-word value accurate to about 2^-68 relative: `e + ln(1 + f) log2(e)`, the
/// product in double-word (other inputs give garbage; callers select the special values).
fn log2_dd(b: &mut B, x: R) -> Dw {
    let (e, f) = reduce(b, x);
    let l = ln1p_dd(b, f);
    let c = b.dw_c(F64, F64.dw(LOG2_E));
    let p = b.mul_dw(l, c);
    let ef = b.cvt(Ty::F64, e, true);
    // |e| >= 1 > |p| unless e = 0: fast two-sum is exact.
    let s = b.fast_two_sum(ef, p.hi);
    let lo = b.add(s.lo, p.lo);
    b.fast_two_sum(s.hi, lo)
}

/// `2^(y log2|x|)` in binary64 for binary64 `x`, `y` (double-word logarithm and product);
/// NaN where the product is NaN. Special cases are fixed by [`pow_fixups`]. `precise`
/// selects the 2^-68 logarithm [`log2_dd`] (binary64 pow); binary32 pow needs only about
/// 2^-30 and uses the cheaper [`log_dw`] (about 2^-56).
fn pow_abs_f64(b: &mut B, x: R, y: R, precise: bool) -> R {
    let ax = b.abs(x);
    let l = if precise {
        log2_dd(b, ax)
    } else {
        log_dw(b, ax, Base::Two, None)
    };
    let lr = b.round_dw(l);
    let lr = log_specials(b, ax, lr);
    let th = b.mul(y, lr);
    let nth = b.neg(th);
    let tl = b.fma(y, lr, nth);
    // The low part counts down to the subnormal results (th > -1075). It is dropped where
    // the result is 0 or inf anyway (|th| >= 1080), and where the product is not finite (|x|
    // special: lr is +-inf/NaN and l is garbage).
    let ath = b.abs(th);
    let fin = b.setp_fc(Cmp::Lt, ath, 1080.0);
    let tl = b.fma(y, l.lo, tl);
    let z = b.fc(F64, 0.0);
    let tl = b.sel(fin, tl, z);
    let tc = b.clamp(th, -1080.0, 1030.0);
    let r = exp_eval(b, tc, Some(tl), true);
    b.keep_nan(th, r)
}

/// C99 special cases of `pow` around the core value `core = |x|^y`.
pub(super) fn pow_fixups(b: &mut B, x: R, y: R, core: R) -> R {
    let fp = b.fp(x);
    let yt = b.rzi(y);
    let yint = b.setp(Cmp::Eq, yt, y);
    let half = b.mul_c(y, 0.5);
    let ht = b.rzi(half);
    let hnot = b.setp(Cmp::Ne, ht, half);
    let yodd = b.and(yint, hnot);
    let xs = b.signbit(x);
    let flip = b.and(xs, yodd);
    let nc = b.neg(core);
    let r = b.sel(flip, nc, core);
    // Negative finite x with non-integer y: NaN.
    let zero = b.fc(fp, 0.0);
    let ninf = b.fc(fp, f64::NEG_INFINITY);
    let xneg = b.setp(Cmp::Lt, x, zero);
    let xfin = b.setp(Cmp::Gt, x, ninf);
    let nonint = b.pnot(yint);
    let bad = b.and(xneg, xfin);
    let bad = b.and(bad, nonint);
    let nan = b.fc(fp, f64::NAN);
    let r = b.sel(bad, nan, r);
    // pow(x, +-0) = 1, pow(1, y) = 1, pow(-1, +-inf) = 1.
    let one = b.fc(fp, 1.0);
    let y0 = b.setp(Cmp::Eq, y, zero);
    let x1 = b.setp(Cmp::Eq, x, one);
    let mone = b.fc(fp, -1.0);
    let xm1 = b.setp(Cmp::Eq, x, mone);
    let ay = b.abs(y);
    let inf = b.fc(fp, f64::INFINITY);
    let yinf = b.setp(Cmp::Eq, ay, inf);
    let c3 = b.and(xm1, yinf);
    let c = b.or(y0, x1);
    let c = b.or(c, c3);
    b.sel(c, one, r)
}

/// `pow(x, y)`; binary32 is computed through the binary64 core and rounded once.
pub(super) fn pow(b: &mut B, x: R, y: R) -> R {
    let core = if b.ty(x) == Ty::F32 {
        let xd = b.cvt(Ty::F64, x, true);
        let yd = b.cvt(Ty::F64, y, true);
        let c = pow_abs_f64(b, xd, yd, false);
        b.cvt(Ty::F32, c, true)
    } else {
        pow_abs_f64(b, x, y, true)
    };
    pow_fixups(b, x, y, core)
}

//! Trigonometric functions in binary64 (binary32 goes through them and rounds once).
//!
//! Argument reduction `x = q pi/2 + r`, `|r| <= pi/4`, `r` double-word: a three-part
//! Cody-Waite reduction for `|x| < 2^20`, and for larger `|x|` a branch to an integer
//! Payne-Hanek reduction (53-bit significand times a 192-bit window of 2/π selected by the
//! exponent, exact 64-bit limb arithmetic). Kernels: Taylor polynomials on `|r| <= pi/4`.

use super::build::{B, Dw, F64};
use super::consts::{PI, PI_2, PI_4, TWO_OVER_PI, TWO_OVER_PI_BITS};
use super::ir::{Cmp, IBin, PBin, R, Ty};

fn c64(bits: u64) -> f64 {
    f64::from_bits(bits)
}

/// Cody-Waite reduction threshold.
const CW_LIMIT: f64 = 1048576.0;

/// Reduces binary64 `x`: returns the B32 quadrant `q` and `r` with `x = q pi/2 + r`.
pub(super) fn reduce(b: &mut B, x: R) -> (R, Dw) {
    let q = b.reg(Ty::B32);
    let rh = b.reg(Ty::F64);
    let rl = b.reg(Ty::F64);
    let ax = b.abs(x);
    let ge = b.setp_fc(Cmp::Ge, ax, CW_LIMIT);
    let fin = b.setp_fc(Cmp::Lt, ax, f64::INFINITY);
    let big = b.and(ge, fin);
    let l_big = b.new_label();
    let l_end = b.new_label();
    b.bra(l_big, Some((big, true)));
    {
        let t = b.mul_c(x, c64(TWO_OVER_PI[0]));
        let kf = b.rni(t);
        let nk = b.neg(kf);
        let r1 = b.fma_c(nk, c64(PI_2[0]), x);
        let w = b.two_prod_c(kf, c64(PI_2[1]));
        let nw = b.neg(w.hi);
        let s = b.two_sum(r1, nw);
        let lo = b.sub(s.lo, w.lo);
        let lo = b.fma_c(nk, c64(PI_2[2]), lo);
        let r = b.fast_two_sum(s.hi, lo);
        let k = b.cvt(Ty::B32, kf, true);
        b.mov(q, k);
        b.mov(rh, r.hi);
        b.mov(rl, r.lo);
        b.bra(l_end, None);
    }
    b.place(l_big);
    {
        let (k, r) = payne_hanek(b, x);
        b.mov(q, k);
        b.mov(rh, r.hi);
        b.mov(rl, r.lo);
    }
    b.place(l_end);
    (q, Dw { hi: rh, lo: rl })
}

/// `(a << o) | (c >> (64 - o))` for B64 `a`, `c` and B32 `o` in `[0, 63]`.
fn funnel(b: &mut B, a: R, c: R, o: R, o64: R) -> R {
    let x = b.ibin(IBin::Shl, a, o);
    let y = b.ibin(IBin::ShrU, c, o64);
    b.ibin(IBin::Or, x, y)
}

/// 128-bit `(hi, lo)` (B64 words).
struct U128 {
    hi: R,
    lo: R,
}

/// Payne-Hanek reduction of finite binary64 `x` with `|x| >= 2^20`.
fn payne_hanek(b: &mut B, x: R) -> (R, Dw) {
    let ax = b.abs(x);
    let ix = b.bits(Ty::B64, ax);
    let exf = b.ibin_c(IBin::ShrU, ix, 52);
    let exf = b.cvt(Ty::B32, exf, false);
    // x = m 2^e; the window starts at table bit s = e + 62 (table bit i is bit i - 63 of 2/π).
    let s = b.ibin_c(IBin::Add, exf, -1075 + 62);
    let w = b.ibin_c(IBin::ShrU, s, 6);
    let o = b.ibin_c(IBin::And, s, 63);
    let c64i = b.ic(Ty::B32, 64);
    let o64 = b.ibin(IBin::Sub, c64i, o);
    let mant = b.ibin_c(IBin::And, ix, (1i64 << 52) - 1);
    let m = b.ibin_c(IBin::Or, mant, 1i64 << 52);
    // Select table words w..w+3 (w <= 16 for finite doubles).
    let preds: Vec<R> = (1..=16).map(|i| b.setp_ic(Cmp::Eq, w, i)).collect();
    let words: Vec<R> = (0..4)
        .map(|j| {
            let mut acc = b.raw(Ty::B64, TWO_OVER_PI_BITS[j]);
            for (i, p) in preds.iter().enumerate() {
                let c = b.raw(Ty::B64, TWO_OVER_PI_BITS[i + 1 + j]);
                acc = b.sel(*p, c, acc);
            }
            acc
        })
        .collect();
    let a0 = funnel(b, words[0], words[1], o, o64);
    let a1 = funnel(b, words[1], words[2], o, o64);
    let a2 = funnel(b, words[2], words[3], o, o64);
    // m * (a0:a1:a2), bits 0..191 of the product (p2:p1:p0); x 2/π = product * 2^-190 mod 4.
    let p0 = b.ibin(IBin::MulLo, m, a2);
    let h2 = b.ibin(IBin::MulHiU, m, a2);
    let l1 = b.ibin(IBin::MulLo, m, a1);
    let h1 = b.ibin(IBin::MulHiU, m, a1);
    let l0 = b.ibin(IBin::MulLo, m, a0);
    let p1 = b.ibin(IBin::Add, l1, h2);
    let c1 = b.setpu(Cmp::Lt, p1, h2);
    let one = b.ic(Ty::B64, 1);
    let zero = b.ic(Ty::B64, 0);
    let c1 = b.sel(c1, one, zero);
    let p2 = b.ibin(IBin::Add, l0, h1);
    let p2 = b.ibin(IBin::Add, p2, c1);
    let qd = b.ibin_c(IBin::ShrU, p2, 62);
    let f = U128 {
        hi: funnel_c(b, p2, p1),
        lo: funnel_c(b, p1, p0),
    };
    // Round to the nearest quadrant: if the fraction is >= 1/2, q += 1 and f = 1 - f.
    let up = b.setp(Cmp::Lt, f.hi, zero);
    let inc = b.sel(up, one, zero);
    let qd = b.ibin(IBin::Add, qd, inc);
    let nlo = b.ibin(IBin::Sub, zero, f.lo);
    let lo0 = b.setp(Cmp::Eq, f.lo, zero);
    let carry = b.sel(lo0, one, zero);
    let nhi = b.inot(f.hi);
    let nhi = b.ibin(IBin::Add, nhi, carry);
    let fh = b.sel(up, nhi, f.hi);
    let fl = b.sel(up, nlo, f.lo);
    // Normalise the 128-bit fraction and convert to a double-word value.
    let lz = b.clz(fh);
    let lz64 = b.ibin(IBin::Sub, c64i, lz);
    let nh = funnel(b, fh, fl, lz, lz64);
    let nl = b.ibin(IBin::Shl, fl, lz);
    let top = b.ibin_c(IBin::ShrU, nh, 11);
    let nx = b.ibin_c(IBin::Shl, nh, 53);
    let ny = b.ibin_c(IBin::ShrU, nl, 11);
    let next = b.ibin(IBin::Or, nx, ny);
    let e1 = b.ic(Ty::B32, -53);
    let e1 = b.ibin(IBin::Sub, e1, lz);
    let e2 = b.ibin_c(IBin::Add, e1, -64);
    let s1 = b.pow2(F64, e1);
    let s2 = b.pow2(F64, e2);
    let th = b.cvt(Ty::F64, top, false);
    let tl = b.cvt(Ty::F64, next, false);
    let fhi = b.mul(th, s1);
    let flo = b.mul(tl, s2);
    // r = f pi/2
    let pr = b.two_prod_c(fhi, c64(PI_2[0]));
    let t = b.mul_c(fhi, c64(PI_2[1]));
    let t = b.fma_c(flo, c64(PI_2[0]), t);
    let rl = b.add(pr.lo, t);
    // Signs: the rounding flip and the sign of x.
    let xneg = b.signbit(x);
    let flip = b.pbin(PBin::Xor, up, xneg);
    let nrh = b.neg(pr.hi);
    let nrl = b.neg(rl);
    let rh = b.sel(flip, nrh, pr.hi);
    let rl = b.sel(flip, nrl, rl);
    let q = b.cvt(Ty::B32, qd, false);
    let z32 = b.ic(Ty::B32, 0);
    let nq = b.ibin(IBin::Sub, z32, q);
    let q = b.sel(xneg, nq, q);
    (q, Dw { hi: rh, lo: rl })
}

/// `(a << 2) | (c >> 62)`.
fn funnel_c(b: &mut B, a: R, c: R) -> R {
    let x = b.ibin_c(IBin::Shl, a, 2);
    let y = b.ibin_c(IBin::ShrU, c, 62);
    b.ibin(IBin::Or, x, y)
}

/// Taylor coefficients of `sin(r)/r - 1` in `z = r^2` divided by `z` (`-1/3!, 1/5!, ...`) or of
/// `(cos(r) - 1 + z/2) / z^2` (`1/4!, -1/6!, ...`).
fn trig_coeffs(first: u32, n: usize) -> Vec<f64> {
    let mut out = Vec::with_capacity(n);
    let mut f: f64 = (1..=first).map(f64::from).product();
    let mut sign = if first.is_multiple_of(4) { 1.0 } else { -1.0 };
    let mut k = first;
    for _ in 0..n {
        out.push(sign / f);
        f *= f64::from(k + 1) * f64::from(k + 2);
        k += 2;
        sign = -sign;
    }
    out
}

/// `sin(rh + rl)` for `|r| <= pi/4`, double-word.
fn sin_k(b: &mut B, r: Dw) -> Dw {
    let z = b.mul(r.hi, r.hi);
    let p = b.poly(z, &trig_coeffs(3, 8));
    let t = b.mul(z, p);
    let hz = b.mul_c(z, 0.5);
    let nl = b.neg(r.lo);
    let v = b.fma(nl, hz, r.lo);
    let lo = b.fma(r.hi, t, v);
    b.fast_two_sum(r.hi, lo)
}

/// `cos(rh + rl)` for `|r| <= pi/4`, double-word.
fn cos_k(b: &mut B, r: Dw) -> Dw {
    let z = b.two_prod(r.hi, r.hi);
    let hz = b.mul_c(z.hi, 0.5);
    let one = b.fc(F64, 1.0);
    let w = b.sub(one, hz);
    let d = b.sub(one, w);
    let corr = b.sub(d, hz);
    let q = b.poly(z.hi, &trig_coeffs(4, 7));
    let zz = b.mul(z.hi, z.hi);
    let hl = b.mul(r.hi, r.lo);
    let nhl = b.neg(hl);
    let tail = b.fma(zz, q, nhl);
    let tail = b.fma_c(z.lo, -0.5, tail);
    let lo = b.add(corr, tail);
    b.fast_two_sum(w, lo)
}

/// Which function of [`trig`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Trig {
    Sin,
    Cos,
    Tan,
}

/// `sin`, `cos` or `tan` of binary64 `x`.
pub(super) fn trig(b: &mut B, x: R, f: Trig) -> R {
    let (q, r) = reduce(b, x);
    let s = sin_k(b, r);
    let c = cos_k(b, r);
    let qq = if f == Trig::Cos {
        b.ibin_c(IBin::Add, q, 1)
    } else {
        q
    };
    let odd = b.ibin_c(IBin::And, qq, 1);
    let odd = b.setp_ic(Cmp::Ne, odd, 0);
    let res = if f == Trig::Tan {
        let ns = Dw {
            hi: b.neg(s.hi),
            lo: b.neg(s.lo),
        };
        // even: s / c; odd: -c / s
        let num = b.sel_dw(odd, c, s);
        let den = b.sel_dw(odd, ns, c);
        b.div_dw(num, den)
    } else {
        // sin: q&3 = 0 s, 1 c, 2 -s, 3 -c; cos(x) = sin(x + pi/2).
        let v = b.sel_dw(odd, c, s);
        let v = b.round_dw(v);
        let h = b.ibin_c(IBin::And, qq, 2);
        let neg = b.setp_ic(Cmp::Ne, h, 0);
        let nv = b.neg(v);
        b.sel(neg, nv, v)
    };
    if f == Trig::Cos {
        return res;
    }
    let zero = b.fc(F64, 0.0);
    let is0 = b.setp(Cmp::Eq, x, zero);
    b.sel(is0, x, res)
}

/// `atan2(y, x)` in binary64 with C99 special cases.
pub(super) fn atan2(b: &mut B, y: R, x: R) -> R {
    let ay = b.abs(y);
    let ax = b.abs(x);
    let mx = b.fmax(ay, ax);
    let mn = b.fmin(ay, ax);
    let t = b.div(mn, mx);
    let inf = b.fc(F64, f64::INFINITY);
    let one = b.fc(F64, 1.0);
    let zero = b.fc(F64, 0.0);
    let yi = b.setp(Cmp::Eq, ay, inf);
    let xi = b.setp(Cmp::Eq, ax, inf);
    let both = b.and(yi, xi);
    let t = b.sel(both, one, t);
    let mz = b.setp(Cmp::Eq, mx, zero);
    let t = b.sel(mz, zero, t);
    // atan(t), t in [0, 1]: for t > tan(pi/8), atan(t) = pi/4 + atan((t-1)/(t+1)).
    let big = b.setp_fc(Cmp::Gt, t, std::f64::consts::SQRT_2 - 1.0);
    let tm = b.sub(t, one);
    let tp = b.add(t, one);
    let u = b.div(tm, tp);
    let tt = b.sel(big, u, t);
    let z = b.mul(tt, tt);
    let coeffs: Vec<f64> = (1..=22)
        .map(|k| if k % 2 == 1 { -1.0 } else { 1.0 } / f64::from(2 * k + 1))
        .collect();
    let p = b.poly(z, &coeffs);
    let tz = b.mul(tt, z);
    let tail = b.mul(tz, p);
    let pi4 = b.dw_c(F64, (c64(PI_4[0]), c64(PI_4[1])));
    let s = b.fast_two_sum(pi4.hi, tt);
    let l = b.add(s.lo, pi4.lo);
    let l = b.add(l, tail);
    let th = b.sel(big, s.hi, tt);
    let tl = b.sel(big, l, tail);
    // atan2 = K + sigma theta.
    let swap = b.setp(Cmp::Gt, ay, ax);
    let xneg = b.signbit(x);
    let pi2 = b.dw_c(F64, (c64(PI_2[0]), c64(PI_2[1])));
    let pi = b.dw_c(F64, (c64(PI[0]), c64(PI[1])));
    let z2 = Dw { hi: zero, lo: zero };
    let kx = b.sel_dw(xneg, pi, z2);
    let k = b.sel_dw(swap, pi2, kx);
    let flip = b.pbin(PBin::Xor, swap, xneg);
    let nth = b.neg(th);
    let ntl = b.neg(tl);
    let th = b.sel(flip, nth, th);
    let tl = b.sel(flip, ntl, tl);
    let s = b.two_sum(k.hi, th);
    let l = b.add(s.lo, k.lo);
    let l = b.add(l, tl);
    let r = b.add(s.hi, l);
    let r = b.copysign(r, y);
    let n = b.setp(Cmp::Nan, x, y);
    let xy = b.add(x, y);
    b.sel(n, xy, r)
}

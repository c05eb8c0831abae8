//! Reciprocal square root and the exact floating-point remainder (C `fmod`).

use super::build::B;
use super::ir::{Cmp, IBin, R, Ty};

/// `1/sqrt(x)`: `x = 2^(2h) m`, `m` in `[1, 4)`, `y0 = 1/sqrt(m)` (sqrt.rn, div.rn), one
/// Newton correction `y = y0 + y0/2 (1 - m y0^2)` with `y0^2` exact, then `y 2^-h` (exact).
pub(super) fn rsqrt(b: &mut B, x: R) -> R {
    let fp = b.fp(x);
    let sh = i64::from(fp.mant) + fp.pick(1, 2); // even scale for subnormals
    let min_normal = 2f64.powi(1 - fp.bias as i32);
    let tiny = b.setp_fc(Cmp::Lt, x, min_normal);
    let xs0 = b.mul_c(x, 2f64.powi(sh as i32));
    let xs = b.sel(tiny, xs0, x);
    let ix = b.bits(fp.i, xs);
    let ef = b.ibin_c(IBin::ShrU, ix, i64::from(fp.mant));
    let ef = if fp.i == Ty::B64 {
        b.cvt(Ty::B32, ef, false)
    } else {
        ef
    };
    let e = b.ibin_c(IBin::Sub, ef, fp.bias);
    let eo = b.ibin_c(IBin::And, e, 1);
    let e2 = b.ibin(IBin::Sub, e, eo);
    let mb = b.ibin_c(IBin::And, ix, fp.mant_mask() as i64);
    let be = b.ibin_c(IBin::Add, eo, fp.bias);
    let be = if fp.i == Ty::B64 {
        b.cvt(Ty::B64, be, false)
    } else {
        be
    };
    let be = b.ibin_c(IBin::Shl, be, i64::from(fp.mant));
    let mb = b.ibin(IBin::Or, mb, be);
    let m = b.bits(fp.f, mb);
    let sq = b.sqrt(m);
    let one = b.fc(fp, 1.0);
    let y0 = b.div(one, sq);
    let yy = b.two_prod(y0, y0);
    let nm = b.neg(m);
    let t = b.fma(nm, yy.hi, one);
    let t = b.fma(nm, yy.lo, t);
    let hy = b.mul_c(y0, 0.5);
    let y = b.fma(hy, t, y0);
    // scale by 2^-(e2/2) (and 2^(sh/2) for scaled subnormals)
    let h = b.ibin_c(IBin::ShrS, e2, 1);
    let zero = b.ic(Ty::B32, 0);
    let nh = b.ibin(IBin::Sub, zero, h);
    let nh2 = b.ibin_c(IBin::Add, nh, sh / 2);
    let nh = b.sel(tiny, nh2, nh);
    let s = b.pow2(fp, nh);
    let r = b.mul(y, s);
    // specials: +inf -> +0, +-0 -> +-inf, x < 0 -> NaN, NaN -> NaN
    let fz = b.fc(fp, 0.0);
    let inf = b.fc(fp, f64::INFINITY);
    let nan = b.fc(fp, f64::NAN);
    let pos = b.setp(Cmp::Gt, x, fz);
    let fin = b.setp(Cmp::Lt, x, inf);
    let ok = b.and(pos, fin);
    let is0 = b.setp(Cmp::Eq, x, fz);
    let isinf = b.setp(Cmp::Eq, x, inf);
    let sinf = b.copysign(inf, x);
    let sp = b.sel(is0, sinf, nan);
    let sp = b.sel(isinf, fz, sp);
    b.sel(ok, r, sp)
}

/// Integer significand (B64) and exponent field (B32, at least 1) of `|x|`, `|x| = m 2^(e -
/// bias - mant)`.
fn decompose(b: &mut B, ax: R) -> (R, R) {
    let fp = b.fp(ax);
    let ix = b.bits(fp.i, ax);
    let ix = if fp.i == Ty::B32 {
        b.cvt(Ty::B64, ix, false)
    } else {
        ix
    };
    let ef = b.ibin_c(IBin::ShrU, ix, i64::from(fp.mant));
    let ef = b.cvt(Ty::B32, ef, false);
    let mant = b.ibin_c(IBin::And, ix, fp.mant_mask() as i64);
    let z = b.ic(Ty::B32, 0);
    let normal = b.setp(Cmp::Ne, ef, z);
    let hid = b.ibin_c(IBin::Or, mant, 1i64 << fp.mant);
    let m = b.sel(normal, hid, mant);
    let e = b.ibin_c(IBin::MaxS, ef, 1);
    (m, e)
}

/// `fmod(x, y)`, exact: integer long division of the significands, up to 40 (binary32) or 11
/// (binary64) quotient bits per `rem.u64` step, looping over the exponent gap.
pub(super) fn rem(b: &mut B, x: R, y: R) -> R {
    let fp = b.fp(x);
    let ax = b.abs(x);
    let ay = b.abs(y);
    let (mx0, ex) = decompose(b, ax);
    let (my, ey) = decompose(b, ay);
    let mx = b.reg(Ty::B64);
    let gap = b.reg(Ty::B32);
    let m0 = b.ibin(IBin::RemU, mx0, my);
    b.mov(mx, m0);
    let g0 = b.ibin(IBin::Sub, ex, ey);
    b.mov(gap, g0);
    let l_loop = b.new_label();
    let l_done = b.new_label();
    let zero = b.ic(Ty::B32, 0);
    let stop = b.setp(Cmp::Le, gap, zero);
    b.bra(l_done, Some((stop, true)));
    b.place(l_loop);
    {
        let chunk = b.ic(Ty::B32, fp.pick(40, 11));
        let s = b.ibin(IBin::MinS, gap, chunk);
        let t = b.ibin(IBin::Shl, mx, s);
        let t = b.ibin(IBin::RemU, t, my);
        b.mov(mx, t);
        let g = b.ibin(IBin::Sub, gap, s);
        b.mov(gap, g);
        let zero = b.ic(Ty::B32, 0);
        let more = b.setp(Cmp::Gt, gap, zero);
        b.bra(l_loop, Some((more, true)));
    }
    b.place(l_done);
    let rf = b.cvt(fp.f, mx, false);
    let k = b.ibin_c(IBin::Sub, ey, fp.bias + i64::from(fp.mant));
    let r = b.scale(rf, k);
    let r = b.copysign(r, x);
    // specials
    let fz = b.fc(fp, 0.0);
    let inf = b.fc(fp, f64::INFINITY);
    let nan = b.fc(fp, f64::NAN);
    let xinf = b.setp(Cmp::Eq, ax, inf);
    let y0 = b.setp(Cmp::Eq, ay, fz);
    let n = b.setp(Cmp::Nan, x, y);
    let bad = b.or(xinf, y0);
    let small = b.setp(Cmp::Lt, ax, ay);
    let r = b.sel(small, x, r);
    let xy = b.add(x, y);
    let r = b.sel(bad, nan, r);
    b.sel(n, xy, r)
}

//! A builder for [`Program`]s with the arithmetic helpers the algorithms share: constants,
//! precision-generic float formats, error-free transformations (two-sum, two-product),
//! double-word values, scaling by powers of two, and selection.

use super::ir::{Approx, Cmp, FBin, FUn, IBin, Op, PBin, Program, R, Rnd, Ty};
use std::collections::HashMap;

/// A binary floating-point format and its integer twin.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Fp {
    /// The float register type.
    pub f: Ty,
    /// The integer register type of the same width.
    pub i: Ty,
    /// Explicit mantissa bits (23 or 52).
    pub mant: u32,
    /// Exponent bias (127 or 1023).
    pub bias: i64,
}

/// binary32.
pub(crate) const F32: Fp = Fp {
    f: Ty::F32,
    i: Ty::B32,
    mant: 23,
    bias: 127,
};
/// binary64.
pub(crate) const F64: Fp = Fp {
    f: Ty::F64,
    i: Ty::B64,
    mant: 52,
    bias: 1023,
};

impl Fp {
    /// Picks the value for this format.
    pub fn pick<T>(self, single: T, double: T) -> T {
        if self.f == Ty::F32 { single } else { double }
    }

    /// Rounds an f64 to this format (as an f64 value).
    pub fn round(self, v: f64) -> f64 {
        if self.f == Ty::F32 {
            f64::from(v as f32)
        } else {
            v
        }
    }

    /// The raw bits of `v` rounded to this format.
    pub fn bits_of(self, v: f64) -> u64 {
        if self.f == Ty::F32 {
            u64::from((v as f32).to_bits())
        } else {
            v.to_bits()
        }
    }

    /// Mask of the explicit mantissa.
    pub fn mant_mask(self) -> u64 {
        (1u64 << self.mant) - 1
    }

    /// Bit pattern of the sign bit.
    pub fn sign_bit(self) -> u64 {
        1u64 << (self.i.bits() - 1)
    }

    /// Splits the unevaluated double-double `c` into `(hi, lo)` in this format, where `hi` has
    /// at most `keep` significant bits (so that products of `hi` with small integers are exact)
    /// and `lo` is the rounded remainder.
    pub fn split(self, c: [u64; 2], keep: u32) -> (f64, f64) {
        let (h, l) = (f64::from_bits(c[0]), f64::from_bits(c[1]));
        let hi = self.round(h);
        let width = self.mant + 1;
        let hi = if keep < width {
            let drop = width - keep;
            let b = self.bits_of(hi) & !((1u64 << drop) - 1);
            if self.f == Ty::F32 {
                f64::from(f32::from_bits(b as u32))
            } else {
                f64::from_bits(b)
            }
        } else {
            hi
        };
        (hi, self.round((h - hi) + l))
    }

    /// The full-precision double-word split of `c` in this format.
    pub fn dw(self, c: [u64; 2]) -> (f64, f64) {
        self.split(c, 64)
    }
}

/// A double-word value `hi + lo` (unevaluated sum).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Dw {
    pub hi: R,
    pub lo: R,
}

/// Builds a [`Program`].
pub(crate) struct B {
    pub prog: Program,
    consts: HashMap<(Ty, u64), R>,
}

impl B {
    pub fn new(ftz: bool) -> Self {
        B {
            prog: Program::new(ftz),
            consts: HashMap::new(),
        }
    }

    pub fn finish(mut self, result: R) -> Program {
        self.prog.result = Some(result);
        self.prog
    }

    pub fn reg(&mut self, ty: Ty) -> R {
        self.prog.tys.push(ty);
        R(self.prog.tys.len() as u32 - 1)
    }

    pub fn ty(&self, r: R) -> Ty {
        self.prog.ty(r)
    }

    fn push(&mut self, op: Op) {
        self.prog.ops.push(op);
    }

    pub fn arg(&mut self, ty: Ty) -> R {
        let dst = self.reg(ty);
        let idx = self.prog.args.len();
        self.prog.args.push(ty);
        self.push(Op::Arg { dst, idx });
        dst
    }

    /// A constant with raw bits (memoised within a straight-line region).
    pub fn raw(&mut self, ty: Ty, bits: u64) -> R {
        if let Some(r) = self.consts.get(&(ty, bits)) {
            return *r;
        }
        let dst = self.reg(ty);
        self.push(Op::Const { dst, bits });
        self.consts.insert((ty, bits), dst);
        dst
    }

    /// A float constant of format `fp` (rounded from `v`).
    pub fn fc(&mut self, fp: Fp, v: f64) -> R {
        self.raw(fp.f, fp.bits_of(v))
    }

    /// An integer constant.
    pub fn ic(&mut self, ty: Ty, v: i64) -> R {
        let bits = if ty.bits() == 32 {
            u64::from(v as i32 as u32)
        } else {
            v as u64
        };
        self.raw(ty, bits)
    }

    pub fn mov(&mut self, dst: R, src: R) {
        self.push(Op::Mov { dst, src });
    }

    fn fbin(&mut self, op: FBin, a: R, b: R) -> R {
        let dst = self.reg(self.ty(a));
        self.push(Op::FBin { op, dst, a, b });
        dst
    }

    pub fn add(&mut self, a: R, b: R) -> R {
        self.fbin(FBin::Add, a, b)
    }
    pub fn sub(&mut self, a: R, b: R) -> R {
        self.fbin(FBin::Sub, a, b)
    }
    pub fn mul(&mut self, a: R, b: R) -> R {
        self.fbin(FBin::Mul, a, b)
    }
    pub fn div(&mut self, a: R, b: R) -> R {
        self.fbin(FBin::Div, a, b)
    }
    pub fn fmin(&mut self, a: R, b: R) -> R {
        self.fbin(FBin::Min, a, b)
    }
    pub fn fmax(&mut self, a: R, b: R) -> R {
        self.fbin(FBin::Max, a, b)
    }

    pub fn fma(&mut self, a: R, b: R, c: R) -> R {
        let dst = self.reg(self.ty(a));
        self.push(Op::Fma { dst, a, b, c });
        dst
    }

    fn fun(&mut self, op: FUn, a: R) -> R {
        let dst = self.reg(self.ty(a));
        self.push(Op::FUn { op, dst, a });
        dst
    }
    pub fn neg(&mut self, a: R) -> R {
        self.fun(FUn::Neg, a)
    }
    pub fn abs(&mut self, a: R) -> R {
        self.fun(FUn::Abs, a)
    }
    pub fn sqrt(&mut self, a: R) -> R {
        self.fun(FUn::Sqrt, a)
    }
    pub fn rni(&mut self, a: R) -> R {
        self.fun(FUn::Rni, a)
    }
    pub fn rzi(&mut self, a: R) -> R {
        self.fun(FUn::Rzi, a)
    }

    pub fn approx(&mut self, op: Approx, a: R) -> R {
        let dst = self.reg(Ty::F32);
        self.push(Op::Approx { op, dst, a });
        dst
    }

    pub fn ibin(&mut self, op: IBin, a: R, b: R) -> R {
        let dst = self.reg(self.ty(a));
        self.push(Op::IBin { op, dst, a, b });
        dst
    }

    /// Integer operation with an immediate second operand.
    pub fn ibin_c(&mut self, op: IBin, a: R, c: i64) -> R {
        let ty = if matches!(op, IBin::Shl | IBin::ShrS | IBin::ShrU) {
            Ty::B32
        } else {
            self.ty(a)
        };
        let c = self.ic(ty, c);
        self.ibin(op, a, c)
    }

    pub fn inot(&mut self, a: R) -> R {
        let dst = self.reg(self.ty(a));
        self.push(Op::INot { dst, a });
        dst
    }

    pub fn clz(&mut self, a: R) -> R {
        let dst = self.reg(Ty::B32);
        self.push(Op::Clz { dst, a });
        dst
    }

    /// Converts `src` to type `to` (see [`Op::Cvt`]).
    pub fn cvt(&mut self, to: Ty, src: R, signed: bool) -> R {
        let dst = self.reg(to);
        self.push(Op::Cvt {
            dst,
            src,
            signed,
            rnd: Rnd::Rni,
        });
        dst
    }

    /// Reinterprets the bits of `src` as type `to`.
    pub fn bits(&mut self, to: Ty, src: R) -> R {
        let dst = self.reg(to);
        self.push(Op::Bits { dst, src });
        dst
    }

    pub fn setp(&mut self, cmp: Cmp, a: R, b: R) -> R {
        let dst = self.reg(Ty::Pred);
        self.push(Op::Setp {
            cmp,
            unsigned: false,
            dst,
            a,
            b,
        });
        dst
    }

    pub fn setpu(&mut self, cmp: Cmp, a: R, b: R) -> R {
        let dst = self.reg(Ty::Pred);
        self.push(Op::Setp {
            cmp,
            unsigned: true,
            dst,
            a,
            b,
        });
        dst
    }

    /// Compares a float register with a constant.
    pub fn setp_fc(&mut self, cmp: Cmp, a: R, v: f64) -> R {
        let fp = if self.ty(a) == Ty::F32 { F32 } else { F64 };
        let c = self.fc(fp, v);
        self.setp(cmp, a, c)
    }

    /// Compares an integer register with a constant (signed).
    pub fn setp_ic(&mut self, cmp: Cmp, a: R, v: i64) -> R {
        let c = self.ic(self.ty(a), v);
        self.setp(cmp, a, c)
    }

    pub fn sel(&mut self, p: R, a: R, b: R) -> R {
        let dst = self.reg(self.ty(a));
        self.push(Op::Selp { dst, a, b, p });
        dst
    }

    pub fn pbin(&mut self, op: PBin, a: R, b: R) -> R {
        let dst = self.reg(Ty::Pred);
        self.push(Op::PBin { op, dst, a, b });
        dst
    }
    pub fn and(&mut self, a: R, b: R) -> R {
        self.pbin(PBin::And, a, b)
    }
    pub fn or(&mut self, a: R, b: R) -> R {
        self.pbin(PBin::Or, a, b)
    }
    pub fn pnot(&mut self, a: R) -> R {
        let dst = self.reg(Ty::Pred);
        self.push(Op::PNot { dst, a });
        dst
    }

    pub fn new_label(&mut self) -> u32 {
        self.prog.labels += 1;
        self.prog.labels - 1
    }

    /// Places a label; constants are not reused across it.
    pub fn place(&mut self, l: u32) {
        self.consts.clear();
        self.push(Op::Label(l));
    }

    /// Branches to `l` when `p` has polarity `pol` (or always when `p` is `None`).
    pub fn bra(&mut self, l: u32, cond: Option<(R, bool)>) {
        self.consts.clear();
        self.push(Op::Bra { target: l, cond });
    }

    // ---- precision-generic helpers ------------------------------------------------------

    /// `a * c` for a constant `c`.
    pub fn mul_c(&mut self, a: R, c: f64) -> R {
        let fp = self.fp(a);
        let c = self.fc(fp, c);
        self.mul(a, c)
    }

    /// `a + c` for a constant `c`.
    pub fn add_c(&mut self, a: R, c: f64) -> R {
        let fp = self.fp(a);
        let c = self.fc(fp, c);
        self.add(a, c)
    }

    /// `a * c + b` for a constant `c`.
    pub fn fma_c(&mut self, a: R, c: f64, b: R) -> R {
        let fp = self.fp(a);
        let c = self.fc(fp, c);
        self.fma(a, c, b)
    }

    /// The float format of a float register.
    pub fn fp(&self, r: R) -> Fp {
        if self.ty(r) == Ty::F32 { F32 } else { F64 }
    }

    /// Horner evaluation of `c[0] + c[1] x + ... ` with fused multiply-adds.
    pub fn poly(&mut self, x: R, c: &[f64]) -> R {
        let fp = self.fp(x);
        let mut acc = self.fc(fp, c[c.len() - 1]);
        for &k in c[..c.len() - 1].iter().rev() {
            let k = self.fc(fp, k);
            acc = self.fma(acc, x, k);
        }
        acc
    }

    /// Error-free `a + b = s + e`.
    pub fn two_sum(&mut self, a: R, b: R) -> Dw {
        let s = self.add(a, b);
        let bb = self.sub(s, a);
        let aa = self.sub(s, bb);
        let db = self.sub(b, bb);
        let da = self.sub(a, aa);
        let e = self.add(da, db);
        Dw { hi: s, lo: e }
    }

    /// Error-free `a + b = s + e` for `|a| >= |b|` (or `a` zero).
    pub fn fast_two_sum(&mut self, a: R, b: R) -> Dw {
        let s = self.add(a, b);
        let z = self.sub(s, a);
        let e = self.sub(b, z);
        Dw { hi: s, lo: e }
    }

    /// Error-free `a * b = p + e` (barring underflow).
    pub fn two_prod(&mut self, a: R, b: R) -> Dw {
        let p = self.mul(a, b);
        let np = self.neg(p);
        let e = self.fma(a, b, np);
        Dw { hi: p, lo: e }
    }

    /// Error-free `a * c` for a constant `c`.
    pub fn two_prod_c(&mut self, a: R, c: f64) -> Dw {
        let fp = self.fp(a);
        let c = self.fc(fp, c);
        self.two_prod(a, c)
    }

    /// `a * b` for double-word values (relative error a few units of 2^-104 in binary64),
    /// normalised.
    pub fn mul_dw(&mut self, a: Dw, b: Dw) -> Dw {
        let p = self.two_prod(a.hi, b.hi);
        let t = self.fma(a.hi, b.lo, p.lo);
        let t = self.fma(a.lo, b.hi, t);
        self.fast_two_sum(p.hi, t)
    }

    /// `a + b` for double-word values with `|a.hi| >= |b.hi|` (or `a` zero), normalised;
    /// accurate to a few units of 2^-104 relative when the sum does not cancel.
    pub fn add_dw(&mut self, a: Dw, b: Dw) -> Dw {
        let s = self.fast_two_sum(a.hi, b.hi);
        let lo = self.add(s.lo, a.lo);
        let lo = self.add(lo, b.lo);
        self.fast_two_sum(s.hi, lo)
    }

    /// Rounds a double-word value.
    pub fn round_dw(&mut self, d: Dw) -> R {
        self.add(d.hi, d.lo)
    }

    /// `n / d` for double-word values, rounded (about 0.5 ulp plus the inputs' errors).
    pub fn div_dw(&mut self, n: Dw, d: Dw) -> R {
        let q = self.div(n.hi, d.hi);
        let nq = self.neg(q);
        let r = self.fma(nq, d.hi, n.hi);
        let r = self.add(r, n.lo);
        let r = self.fma(nq, d.lo, r);
        let c = self.div(r, d.hi);
        self.add(q, c)
    }

    /// Selects between double-word values.
    pub fn sel_dw(&mut self, p: R, a: Dw, b: Dw) -> Dw {
        Dw {
            hi: self.sel(p, a.hi, b.hi),
            lo: self.sel(p, a.lo, b.lo),
        }
    }

    /// A double-word constant.
    pub fn dw_c(&mut self, fp: Fp, c: (f64, f64)) -> Dw {
        Dw {
            hi: self.fc(fp, c.0),
            lo: self.fc(fp, c.1),
        }
    }

    /// `2^k` for a B32 integer `k` in the normal range of `fp`.
    pub fn pow2(&mut self, fp: Fp, k: R) -> R {
        let k = if fp.i == Ty::B64 {
            self.cvt(Ty::B64, k, true)
        } else {
            k
        };
        let b = self.ibin_c(IBin::Add, k, fp.bias);
        let b = self.ibin_c(IBin::Shl, b, i64::from(fp.mant));
        self.bits(fp.f, b)
    }

    /// `y * 2^k` with one rounding, for B32 `k` with `|k| <= 2 * (bias - 1)` and `y` within a
    /// factor 4 of 1 (two exact-then-rounding multiplications).
    pub fn scale(&mut self, y: R, k: R) -> R {
        let fp = self.fp(y);
        let k1 = self.ibin_c(IBin::ShrS, k, 1);
        let k2 = self.ibin(IBin::Sub, k, k1);
        let s1 = self.pow2(fp, k1);
        let s2 = self.pow2(fp, k2);
        let t = self.mul(y, s1);
        self.mul(t, s2)
    }

    /// `|x|` with the sign of `s` (bitwise).
    pub fn copysign(&mut self, x: R, s: R) -> R {
        let fp = self.fp(x);
        let xb = self.bits(fp.i, x);
        let sb = self.bits(fp.i, s);
        let mag = self.ibin_c(IBin::And, xb, !(fp.sign_bit() as i64));
        let sign = self.ibin_c(IBin::And, sb, fp.sign_bit() as i64);
        let r = self.ibin(IBin::Or, mag, sign);
        self.bits(fp.f, r)
    }

    /// Whether the sign bit of `x` is set.
    pub fn signbit(&mut self, x: R) -> R {
        let fp = self.fp(x);
        let xb = self.bits(fp.i, x);
        let z = self.ic(fp.i, 0);
        self.setp(Cmp::Lt, xb, z)
    }

    /// `isnan(x)`.
    pub fn is_nan(&mut self, x: R) -> R {
        self.setp(Cmp::Nan, x, x)
    }

    /// `min(max(x, lo), hi)` (NaN becomes a bound; callers restore NaN separately).
    pub fn clamp(&mut self, x: R, lo: f64, hi: f64) -> R {
        let fp = self.fp(x);
        let (l, h) = (self.fc(fp, lo), self.fc(fp, hi));
        let t = self.fmax(x, l);
        self.fmin(t, h)
    }

    /// `x` if `x` is NaN, else `r`; propagates NaN inputs through clamped computations.
    pub fn keep_nan(&mut self, x: R, r: R) -> R {
        let n = self.is_nan(x);
        self.sel(n, x, r)
    }
}

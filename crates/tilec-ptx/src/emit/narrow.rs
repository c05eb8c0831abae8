//! Conversions of 13.3's narrow floats, `f8E8M0FNU` (a byte in a `.b16`) and `f4E2M1FN`
//! (a nibble in a `.b16`), with integer code on every target.
//!
//! PTX has native conversions to both (`cvt.rn.satfinite.e2m1x2.f32`,
//! `cvt.rz/rp.satfinite.ue8m0x2.f32`) only on the family-specific targets (sm_100a,
//! sm_120a, ...), and they saturate where the interpreter follows LLVM's `APFloat` (a
//! negative value, an overflow away from zero and infinity are NaN in `f8E8M0FNU`; a NaN
//! is +6 in `f4E2M1FN`; docs/tile-ir-13.3.md), so tilec emulates them everywhere and the
//! results equal the interpreter's bit for bit. Conversions from f64 and from integers go
//! through f32 rounded to odd, which keeps every rounding to these short formats exact.

use super::Kernel;
use crate::sink::{RegClass, Sink};
use tilec_ir::attrs::RoundingMode;

/// The direction a magnitude rounds in: to nearest (ties as the format says), down
/// (toward zero), or away from zero for one sign (`positive_inf`, `negative_inf`).
#[derive(Copy, Clone, PartialEq, Eq)]
enum Dir {
    Nearest,
    Down,
    /// Away from zero for positive values (`positive_inf`).
    UpIfPositive,
    /// Away from zero for negative values (`negative_inf`).
    UpIfNegative,
}

fn dir(mode: Option<RoundingMode>) -> Dir {
    match mode {
        Some(RoundingMode::Zero | RoundingMode::NearestIntToZero) => Dir::Down,
        Some(RoundingMode::PositiveInf) => Dir::UpIfPositive,
        Some(RoundingMode::NegativeInf) => Dir::UpIfNegative,
        Some(RoundingMode::NearestEven | RoundingMode::Approx | RoundingMode::Full) | None => {
            Dir::Nearest
        }
    }
}

impl Kernel<'_> {
    /// An `f8E8M0FNU` byte as an f32, exactly: `e` is 2^(e - 127), `0x00` the f32
    /// subnormal 2^-127, `0xFF` NaN (the interpreter's canonical f32 NaN, `0x7FFFFFFF`).
    pub(crate) fn e8m0_to_f32(&mut self, x: &str) -> String {
        let v = self.reg(RegClass::B32);
        self.ins(format!("cvt.u32.u16 {v}, {x};"));
        self.ins(format!("and.b32 {v}, {v}, 255;"));
        let bits = self.reg(RegClass::B32);
        self.ins(format!("shl.b32 {bits}, {v}, 23;"));
        let p = self.reg(RegClass::Pred);
        self.ins(format!("setp.eq.u32 {p}, {v}, 0;"));
        self.ins(format!("@{p} mov.b32 {bits}, 4194304;"));
        self.ins(format!("setp.eq.u32 {p}, {v}, 255;"));
        self.ins(format!("@{p} mov.b32 {bits}, 2147483647;"));
        let r = self.reg(RegClass::F32);
        self.ins(format!("mov.b32 {r}, {bits};"));
        r
    }

    /// An `f4E2M1FN` nibble as an f32, exactly: magnitude code `c` >= 2 is
    /// `(c + 252) << 22` (exponent `c >> 1`, fraction `c & 1`), 1 is 0.5, 0 is zero; bit 3
    /// is the sign.
    pub(crate) fn e2m1_to_f32(&mut self, x: &str) -> String {
        let v = self.reg(RegClass::B32);
        self.ins(format!("cvt.u32.u16 {v}, {x};"));
        let sign = self.reg(RegClass::B32);
        self.ins(format!("and.b32 {sign}, {v}, 8;"));
        self.ins(format!("shl.b32 {sign}, {sign}, 28;"));
        let code = self.reg(RegClass::B32);
        self.ins(format!("and.b32 {code}, {v}, 7;"));
        let bits = self.reg(RegClass::B32);
        self.ins(format!("add.s32 {bits}, {code}, 252;"));
        self.ins(format!("shl.b32 {bits}, {bits}, 22;"));
        let p = self.reg(RegClass::Pred);
        self.ins(format!("setp.eq.u32 {p}, {code}, 1;"));
        self.ins(format!("@{p} mov.b32 {bits}, 1056964608;"));
        self.ins(format!("setp.eq.u32 {p}, {code}, 0;"));
        self.ins(format!("@{p} mov.b32 {bits}, 0;"));
        self.ins(format!("or.b32 {bits}, {bits}, {sign};"));
        let r = self.reg(RegClass::F32);
        self.ins(format!("mov.b32 {r}, {bits};"));
        r
    }

    /// An f32 rounded to `f8E8M0FNU` in direction `mode` (the interpreter's
    /// `round_exact`): a positive value rounds its exponent down, or up when the fraction
    /// says so (to nearest: a fraction of one half or more rounds up, since the
    /// significand's only bit is odd); code 254 rounded up is 255, NaN, which is the
    /// overflow away from zero; values below 2^-127 and zeros are `0x00`; negative values,
    /// infinities and NaNs are NaN.
    pub(crate) fn f32_to_e8m0(&mut self, x: &str, mode: Option<RoundingMode>) -> String {
        let b = self.reg(RegClass::B32);
        self.ins(format!("mov.b32 {b}, {x};"));
        let code = self.reg(RegClass::B32);
        let frac = self.reg(RegClass::B32);
        self.ins(format!("shr.u32 {code}, {b}, 23;"));
        self.ins(format!("and.b32 {frac}, {b}, 8388607;"));
        let p = self.reg(RegClass::Pred);
        // [2^-127, 2^-126) is an f32 subnormal: code 0, its fraction one bit lower.
        self.ins(format!("setp.lt.u32 {p}, {b}, 8388608;"));
        self.ins(format!("@{p} shl.b32 {frac}, {b}, 1;"));
        self.ins(format!("@{p} and.b32 {frac}, {frac}, 8388607;"));
        let up = match dir(mode) {
            Dir::Down | Dir::UpIfNegative => None,
            Dir::UpIfPositive => Some(format!("setp.ne.u32 {p}, {frac}, 0;")),
            Dir::Nearest => Some(format!("setp.ge.u32 {p}, {frac}, 4194304;")),
        };
        if let Some(up) = up {
            self.ins(up);
            self.ins(format!("@{p} add.s32 {code}, {code}, 1;"));
        }
        self.ins(format!("setp.lt.u32 {p}, {b}, 4194304;"));
        self.ins(format!("@{p} mov.b32 {code}, 0;"));
        // +inf, NaN and everything with the sign bit set: NaN; then -0: 0x00.
        self.ins(format!("setp.ge.u32 {p}, {b}, 2139095040;"));
        self.ins(format!("@{p} mov.b32 {code}, 255;"));
        self.ins(format!("setp.eq.u32 {p}, {b}, -2147483648;"));
        self.ins(format!("@{p} mov.b32 {code}, 0;"));
        let r = self.reg(RegClass::B16);
        self.ins(format!("cvt.u16.u32 {r}, {code};"));
        r
    }

    /// An f32 rounded to `f4E2M1FN` in direction `mode`: the magnitude scaled so that its
    /// ulp is 1 (ulp 2^(E - 1) for exponent E >= 0, 1/2 below), rounded to an integer by
    /// `cvt.r*i`, and the code `(E << 1) + q` (a carry into the exponent is the next code);
    /// overflow and infinity saturate to ±6, NaN is +6 (`0x7`).
    pub(crate) fn f32_to_e2m1(&mut self, x: &str, mode: Option<RoundingMode>) -> String {
        let b = self.reg(RegClass::B32);
        self.ins(format!("mov.b32 {b}, {x};"));
        let sign = self.reg(RegClass::B32);
        self.ins(format!("shr.u32 {sign}, {b}, 28;"));
        self.ins(format!("and.b32 {sign}, {sign}, 8;"));
        let a = self.reg(RegClass::F32);
        self.ins(format!("abs.f32 {a}, {x};"));
        let ab = self.reg(RegClass::B32);
        self.ins(format!("mov.b32 {ab}, {a};"));
        let e = self.reg(RegClass::B32);
        self.ins(format!("shr.u32 {e}, {ab}, 23;"));
        self.ins(format!("max.s32 {e}, {e}, 127;"));
        // 2^(128 - e): the inverse of the ulp (biased exponent 255 - e).
        let inv = self.reg(RegClass::B32);
        self.ins(format!("sub.s32 {inv}, 255, {e};"));
        self.ins(format!("shl.b32 {inv}, {inv}, 23;"));
        let invf = self.reg(RegClass::F32);
        self.ins(format!("mov.b32 {invf}, {inv};"));
        let q = self.reg(RegClass::F32);
        self.ins(format!("mul.rn.f32 {q}, {a}, {invf};"));
        let neg = self.reg(RegClass::Pred);
        self.ins(format!("setp.ne.u32 {neg}, {sign}, 0;"));
        match dir(mode) {
            Dir::Nearest => self.ins(format!("cvt.rni.f32.f32 {q}, {q};")),
            Dir::Down => self.ins(format!("cvt.rzi.f32.f32 {q}, {q};")),
            d @ (Dir::UpIfPositive | Dir::UpIfNegative) => {
                let (up, down) = (self.reg(RegClass::F32), self.reg(RegClass::F32));
                self.ins(format!("cvt.rpi.f32.f32 {up}, {q};"));
                self.ins(format!("cvt.rzi.f32.f32 {down}, {q};"));
                let (if_neg, if_pos) = if d == Dir::UpIfNegative {
                    (&up, &down)
                } else {
                    (&down, &up)
                };
                self.ins(format!("selp.f32 {q}, {if_neg}, {if_pos}, {neg};"));
            }
        }
        let qi = self.reg(RegClass::B32);
        self.ins(format!("cvt.rzi.u32.f32 {qi}, {q};"));
        let code = self.reg(RegClass::B32);
        self.ins(format!("sub.s32 {code}, {e}, 127;"));
        self.ins(format!("shl.b32 {code}, {code}, 1;"));
        self.ins(format!("add.s32 {code}, {code}, {qi};"));
        self.ins(format!("min.u32 {code}, {code}, 7;"));
        let p = self.reg(RegClass::Pred);
        self.ins(format!("setp.nan.f32 {p}, {x}, {x};"));
        self.ins(format!("@{p} mov.b32 {sign}, 0;"));
        self.ins(format!("@{p} mov.b32 {code}, 7;"));
        self.ins(format!("or.b32 {code}, {code}, {sign};"));
        let r = self.reg(RegClass::B16);
        self.ins(format!("cvt.u16.u32 {r}, {code};"));
        r
    }

    /// An integer (`.b32`/`.b64` of PTX type `ity`, e.g. `s32`, `u64`) as an f32 rounded
    /// to odd: truncated, with the last bit set when that lost anything, so that a
    /// second rounding to a format of at most 22 significant bits is the correct one.
    pub(crate) fn int_to_f32_odd(&mut self, ity: &str, x: &str) -> String {
        let f = self.reg(RegClass::F32);
        self.ins(format!("cvt.rz.f32.{ity} {f}, {x};"));
        let wide = ity.ends_with("64");
        let back = self.reg(if wide { RegClass::B64 } else { RegClass::B32 });
        self.ins(format!("cvt.rzi.{ity}.f32 {back}, {f};"));
        let p = self.reg(RegClass::Pred);
        self.ins(format!("setp.ne.{ity} {p}, {back}, {x};"));
        let bits = self.reg(RegClass::B32);
        self.ins(format!("mov.b32 {bits}, {f};"));
        self.ins(format!("@{p} or.b32 {bits}, {bits}, 1;"));
        let r = self.reg(RegClass::F32);
        self.ins(format!("mov.b32 {r}, {bits};"));
        r
    }
}

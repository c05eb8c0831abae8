//! Fast mode (binary32): the hardware approximations of the SFU with simple scaling.

use super::MathFn;
use super::build::B;
use super::ir::{Approx, R};
use super::log::pow_fixups;

const LOG2_E: f64 = std::f64::consts::LOG2_E;

/// The fast sequence for `f`, or `None` when fast mode uses the accurate sequence.
pub(super) fn fast_f32(b: &mut B, f: MathFn, a: &[R]) -> Option<R> {
    let x = a[0];
    let lg2_times = |b: &mut B, c: f64| {
        let l = b.approx(Approx::Lg2, x);
        b.mul_c(l, c)
    };
    Some(match f {
        MathFn::Exp => {
            let t = b.mul_c(x, LOG2_E);
            b.approx(Approx::Ex2, t)
        }
        MathFn::Exp2 => b.approx(Approx::Ex2, x),
        MathFn::Log => lg2_times(b, std::f64::consts::LN_2),
        MathFn::Log2 => b.approx(Approx::Lg2, x),
        MathFn::Log10 => lg2_times(b, std::f64::consts::LOG10_2),
        MathFn::Sin => b.approx(Approx::Sin, x),
        MathFn::Cos => b.approx(Approx::Cos, x),
        MathFn::Tan => {
            let s = b.approx(Approx::Sin, x);
            let c = b.approx(Approx::Cos, x);
            let r = b.approx(Approx::Rcp, c);
            b.mul(s, r)
        }
        MathFn::TanH => b.approx(Approx::Tanh, x),
        MathFn::Sigmoid => {
            let t = b.mul_c(x, -LOG2_E);
            let e = b.approx(Approx::Ex2, t);
            let d = b.add_c(e, 1.0);
            b.approx(Approx::Rcp, d)
        }
        MathFn::Rsqrt => b.approx(Approx::Rsqrt, x),
        MathFn::Pow => {
            let y = a[1];
            let ax = b.abs(x);
            let l = b.approx(Approx::Lg2, ax);
            let t = b.mul(y, l);
            let core = b.approx(Approx::Ex2, t);
            pow_fixups(b, x, y, core)
        }
        _ => return None,
    })
}

//! Math library: PTX instruction sequences for the tile IR floating-point math operations
//! (section 8.7 of the spec), with a CPU twin.
//!
//! Every accurate sequence is built as a [`Program`] in a small micro-op language
//! ([`ir`]) whose instructions are IEEE-exact (`fma.rn`, `add.rn`, `div.rn`, `sqrt.rn`,
//! `cvt` with explicit rounding) or integer/bit/predicate operations. The same program is
//! printed as PTX by [`emit`] and evaluated bit-exactly on the CPU by [`Program::eval`], which
//! is how `tests/math.rs` measures the accuracy reported by [`ulp_bound`] without a GPU.
//! Fast mode uses the SFU approximations (`ex2.approx`, `lg2.approx`, `sin.approx`,
//! `cos.approx`, `rsqrt.approx`, `rcp.approx`, `tanh.approx`); the evaluator models those by
//! correctly rounded functions, so fast-mode bounds come from the PTX ISA (see docs/math.md).

mod build;
mod consts;
mod exp;
mod fast;
pub mod ir;
mod log;
mod misc;
mod trig;

pub use ir::Program;

use crate::sink::Sink;
use build::B;
use ir::{R, Ty};

/// A math function.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MathFn {
    /// `e^x`
    Exp,
    /// `2^x`
    Exp2,
    /// natural logarithm
    Log,
    /// base-2 logarithm
    Log2,
    /// base-10 logarithm
    Log10,
    /// `ln(1 + x)`
    Log1p,
    /// sine (radians)
    Sin,
    /// cosine (radians)
    Cos,
    /// tangent (radians)
    Tan,
    /// hyperbolic sine
    SinH,
    /// hyperbolic cosine
    CosH,
    /// hyperbolic tangent
    TanH,
    /// logistic function `1 / (1 + e^-x)`
    Sigmoid,
    /// `1 / sqrt(x)`
    Rsqrt,
    /// `x^y` (C `pow` special cases); arguments `(x, y)`
    Pow,
    /// `atan2(y, x)` (C semantics); arguments `(y, x)`
    Atan2,
    /// C `fmod(lhs, rhs)`: exact, sign of `lhs`; arguments `(lhs, rhs)`
    Rem,
}

impl MathFn {
    /// Every function.
    pub const ALL: [MathFn; 17] = [
        MathFn::Exp,
        MathFn::Exp2,
        MathFn::Log,
        MathFn::Log2,
        MathFn::Log10,
        MathFn::Log1p,
        MathFn::Sin,
        MathFn::Cos,
        MathFn::Tan,
        MathFn::SinH,
        MathFn::CosH,
        MathFn::TanH,
        MathFn::Sigmoid,
        MathFn::Rsqrt,
        MathFn::Pow,
        MathFn::Atan2,
        MathFn::Rem,
    ];

    /// Number of arguments (1 or 2).
    pub fn arity(self) -> usize {
        match self {
            MathFn::Pow | MathFn::Atan2 | MathFn::Rem => 2,
            _ => 1,
        }
    }
}

/// Floating-point precision of the arguments and result.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Prec {
    /// binary32 (`.f32` registers)
    F32,
    /// binary64 (`.f64` registers)
    F64,
}

/// Code generation options.
#[derive(Copy, Clone, Debug, Default)]
pub struct MathOpts {
    /// Use hardware approximations (binary32 only; binary64 fast equals accurate).
    pub fast: bool,
    /// Flush binary32 subnormal inputs and results to zero (`.ftz`).
    pub ftz: bool,
}

/// Runs a binary64 algorithm on binary32 arguments and rounds the result once.
fn via_f64(b: &mut B, args: &[R], f: impl FnOnce(&mut B, &[R]) -> R) -> R {
    let xs: Vec<R> = args.iter().map(|a| b.cvt(Ty::F64, *a, true)).collect();
    let r = f(b, &xs);
    b.cvt(Ty::F32, r, true)
}

/// The accurate sequence for `f` on arguments `a` (in their precision).
fn accurate(b: &mut B, f: MathFn, a: &[R]) -> R {
    let x = a[0];
    let single = b.ty(x) == Ty::F32;
    let wide = |b: &mut B, g: &dyn Fn(&mut B, &[R]) -> R| {
        if single { via_f64(b, a, g) } else { g(b, a) }
    };
    match f {
        MathFn::Exp => exp::exp(b, x, false),
        MathFn::Exp2 => exp::exp(b, x, true),
        MathFn::Log => log::log(b, x, log::Base::E),
        MathFn::Log2 => log::log(b, x, log::Base::Two),
        MathFn::Log10 => log::log(b, x, log::Base::Ten),
        MathFn::Log1p => log::log1p(b, x),
        MathFn::Sin => wide(b, &|b, v| trig::trig(b, v[0], trig::Trig::Sin)),
        MathFn::Cos => wide(b, &|b, v| trig::trig(b, v[0], trig::Trig::Cos)),
        MathFn::Tan => wide(b, &|b, v| trig::trig(b, v[0], trig::Trig::Tan)),
        MathFn::SinH => exp::sinh_cosh(b, x, false),
        MathFn::CosH => exp::sinh_cosh(b, x, true),
        MathFn::TanH => exp::tanh(b, x),
        MathFn::Sigmoid => exp::sigmoid(b, x),
        MathFn::Rsqrt => misc::rsqrt(b, x),
        MathFn::Pow => log::pow(b, x, a[1]),
        MathFn::Atan2 => wide(b, &|b, v| trig::atan2(b, v[0], v[1])),
        MathFn::Rem => misc::rem(b, x, a[1]),
    }
}

/// Builds the micro-op program computing `f` (the CPU twin of [`emit`]).
pub fn program(f: MathFn, prec: Prec, opts: MathOpts) -> Program {
    let single = prec == Prec::F32;
    let ty = if single { Ty::F32 } else { Ty::F64 };
    let mut b = B::new(opts.ftz && single);
    let args: Vec<R> = (0..f.arity()).map(|_| b.arg(ty)).collect();
    let fast = if opts.fast && single {
        fast::fast_f32(&mut b, f, &args)
    } else {
        None
    };
    let r = match fast {
        Some(r) => r,
        None => accurate(&mut b, f, &args),
    };
    b.finish(r)
}

/// Emits the instructions computing `f(args)` into the sink; `args` are PTX register names of
/// class F32 (`Prec::F32`) or F64 (`Prec::F64`) (two for `Pow` (x, y), `Atan2` (y, x) and
/// `Rem` (lhs, rhs)). Returns the register holding the result (same class).
pub fn emit(s: &mut dyn Sink, f: MathFn, prec: Prec, opts: MathOpts, args: &[&str]) -> String {
    program(f, prec, opts).emit(s, args)
}

/// The documented maximum error in ULPs of the emitted sequence over all finite inputs (as
/// measured by `tests/math.rs` for accurate mode; from the PTX ISA for fast mode, where
/// `f64::INFINITY` means the hardware bound is absolute, not relative; see docs/math.md).
pub fn ulp_bound(f: MathFn, prec: Prec, fast: bool) -> f64 {
    if fast
        && prec == Prec::F32
        && let Some(b) = fast_bound(f)
    {
        return b;
    }
    match (prec, f) {
        (_, MathFn::Rem) => 0.0,
        // measured 1.072 over 3M inputs (the log2(e) / log10(e) product adds ~0.2 ulp)
        (Prec::F32, MathFn::Log2 | MathFn::Log10) => 1.5,
        (Prec::F32, _) => 1.0,
        // pow included: distance 1 to glibc over 3M inputs, 0.60 ulp from exact values
        (Prec::F64, _) => 2.0,
    }
}

/// Fast-mode binary32 bounds (PTX ISA errors plus the scaling's rounding), or `None` where
/// fast mode uses the accurate sequence.
fn fast_bound(f: MathFn) -> Option<f64> {
    Some(match f {
        // ex2.approx: 2 ulp; the rounding of x*log2(e) adds 0.7 |x log2 e| ulp (|x log2 e| <= 128)
        MathFn::Exp => 2.0 + 0.7 * 128.0,
        MathFn::Exp2 => 2.0,
        MathFn::Rsqrt => 2.2,
        MathFn::Sigmoid => 4.0 + 0.7 * 128.0,
        MathFn::TanH => 8270.0,
        MathFn::Log | MathFn::Log2 | MathFn::Log10 | MathFn::Sin | MathFn::Cos | MathFn::Tan => {
            f64::INFINITY
        }
        MathFn::Pow => f64::INFINITY,
        _ => return None,
    })
}

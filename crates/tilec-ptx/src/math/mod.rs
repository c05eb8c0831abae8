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

use crate::sink::{RegClass, Sink, VecSink};
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

    /// The function a tile IR math op computes (`exp` -> `Exp`, `tanh` -> `TanH`), or
    /// `None` for any other op.
    pub fn of_opcode(op: tilec_ir::Opcode) -> Option<MathFn> {
        use tilec_ir::Opcode as O;
        Some(match op {
            O::Exp => MathFn::Exp,
            O::Exp2 => MathFn::Exp2,
            O::Log => MathFn::Log,
            O::Log2 => MathFn::Log2,
            O::Log10 => MathFn::Log10,
            O::Log1p => MathFn::Log1p,
            O::Sin => MathFn::Sin,
            O::Cos => MathFn::Cos,
            O::Tan => MathFn::Tan,
            O::SinH => MathFn::SinH,
            O::CosH => MathFn::CosH,
            O::TanH | O::TanHF => MathFn::TanH,
            O::Sigmoid => MathFn::Sigmoid,
            O::Rsqrt => MathFn::Rsqrt,
            O::PowF => MathFn::Pow,
            O::Atan2 => MathFn::Atan2,
            O::RemF => MathFn::Rem,
            _ => return None,
        })
    }

    /// A name for the function in PTX symbols (`__tilec_tanh_f32`).
    pub fn name(self) -> &'static str {
        match self {
            MathFn::Exp => "exp",
            MathFn::Exp2 => "exp2",
            MathFn::Log => "log",
            MathFn::Log2 => "log2",
            MathFn::Log10 => "log10",
            MathFn::Log1p => "log1p",
            MathFn::Sin => "sin",
            MathFn::Cos => "cos",
            MathFn::Tan => "tan",
            MathFn::SinH => "sinh",
            MathFn::CosH => "cosh",
            MathFn::TanH => "tanh",
            MathFn::Sigmoid => "sigmoid",
            MathFn::Rsqrt => "rsqrt",
            MathFn::Pow => "pow",
            MathFn::Atan2 => "atan2",
            MathFn::Rem => "rem",
        }
    }

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
    // binary32 arithmetic on the GPU returns one canonical NaN (0x7FFFFFFF), but a
    // sequence that hands a NaN operand back by selection (`keep_nan`, special cases)
    // would pass its payload on: make every NaN result the canonical one, as the
    // interpreter's (tilec_interp::fp::canonical_nan). binary64 too: its arithmetic
    // passes payloads on and makes 0xFFF8000000000000 of an invalid operation, so
    // without this `log2(-1.0)`'s bits (random kernel seed 9502 bitcasts them to an
    // integer) would be the hardware's where the interpreter's math functions give
    // 0x7FFFFFFFFFFFFFFF. (Plain f64 arithmetic keeps the hardware's payloads.)
    let nan = b.is_nan(r);
    let canonical = if single {
        b.raw(Ty::F32, 0x7FFF_FFFF)
    } else {
        b.raw(Ty::F64, 0x7FFF_FFFF_FFFF_FFFF)
    };
    let r = b.sel(nan, canonical, r);
    b.finish(r)
}

/// Emits the instructions computing `f(args)` into the sink; `args` are PTX register names of
/// class F32 (`Prec::F32`) or F64 (`Prec::F64`) (two for `Pow` (x, y), `Atan2` (y, x) and
/// `Rem` (lhs, rhs)). Returns the register holding the result (same class).
pub fn emit(s: &mut dyn Sink, f: MathFn, prec: Prec, opts: MathOpts, args: &[&str]) -> String {
    program(f, prec, opts).emit(s, args)
}

/// Programs ([`program`]) longer than this many micro-ops are written once per PTX module
/// as a `.func` and called (see [`subroutine`]): a tile of 64 elements per thread would otherwise repeat
/// them 64 times, and ptxas's time grows with the size of the PTX.
pub const CALL_THRESHOLD: usize = 48;

/// The PTX name of `f`'s subroutine for these options.
pub fn subroutine_name(f: MathFn, prec: Prec, opts: MathOpts) -> String {
    let p = if prec == Prec::F32 { "f32" } else { "f64" };
    let ftz = if opts.ftz && prec == Prec::F32 {
        "_ftz"
    } else {
        ""
    };
    let fast = if opts.fast && prec == Prec::F32 {
        "_fast"
    } else {
        ""
    };
    format!("__tilec_{}_{p}{ftz}{fast}", f.name())
}

/// The `.param` type, the value type and the register class of a precision.
fn param_types(prec: Prec) -> (&'static str, &'static str, RegClass) {
    match prec {
        Prec::F32 => (".b32", "f32", RegClass::F32),
        Prec::F64 => (".b64", "f64", RegClass::F64),
    }
}

/// The text of `f`'s subroutine: a `.func` taking the arguments and returning the result
/// in `.param` space (the PTX calling convention), whose body is [`emit`]'s sequence.
pub fn subroutine(f: MathFn, prec: Prec, opts: MathOpts) -> String {
    let name = subroutine_name(f, prec, opts);
    let (pty, ty, class) = param_types(prec);
    let mut s = VecSink::default();
    let args: Vec<String> = (0..f.arity()).map(|_| s.reg(class)).collect();
    for (i, a) in args.iter().enumerate() {
        s.line(format!("ld.param.{ty} {a}, [{name}_param_{i}];"));
    }
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let r = emit(&mut s, f, prec, opts, &refs);
    s.line(format!("st.param.{ty} [func_retval0], {r};"));
    s.line("ret;".to_string());
    let params: Vec<String> = (0..f.arity())
        .map(|i| format!("\t.param {pty} {name}_param_{i}"))
        .collect();
    let mut out = format!(
        ".func (.param {pty} func_retval0) {name}(\n{}\n)\n{{\n",
        params.join(",\n")
    );
    for d in s.declarations() {
        out.push_str(&format!("\t{d}\n"));
    }
    out.push('\n');
    for l in &s.lines {
        if l.ends_with(':') {
            out.push_str(&format!("{l}\n"));
        } else {
            out.push_str(&format!("\t{l}\n"));
        }
    }
    out.push_str("}\n");
    out
}

/// Emits a call of `f`'s subroutine (which the caller declares once per module, see
/// [`subroutine`]) and returns the register holding the result.
pub fn call(s: &mut dyn Sink, f: MathFn, prec: Prec, opts: MathOpts, args: &[&str]) -> String {
    let name = subroutine_name(f, prec, opts);
    let (pty, ty, class) = param_types(prec);
    let r = s.reg(class);
    s.line("{".to_string());
    for i in 0..args.len() {
        s.line(format!(".param {pty} param{i};"));
    }
    s.line(format!(".param {pty} retval0;"));
    for (i, a) in args.iter().enumerate() {
        s.line(format!("st.param.{ty} [param{i}], {a};"));
    }
    let params: Vec<String> = (0..args.len()).map(|i| format!("param{i}")).collect();
    s.line(format!(
        "call.uni (retval0), {name}, ({});",
        params.join(", ")
    ));
    s.line(format!("ld.param.{ty} {r}, [retval0];"));
    s.line("}".to_string());
    r
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

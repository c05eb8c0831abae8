//! Temporary stand-in for the math library while it is being written: hardware
//! approximations only.

use crate::sink::{RegClass, Sink};

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MathFn {
    Exp,
    Exp2,
    Log,
    Log2,
    Log10,
    Log1p,
    Sin,
    Cos,
    Tan,
    SinH,
    CosH,
    TanH,
    Sigmoid,
    Rsqrt,
    Pow,
    Atan2,
    Rem,
}
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Prec {
    F32,
    F64,
}
#[derive(Copy, Clone, Debug, Default)]
#[allow(dead_code)]
pub struct MathOpts {
    pub fast: bool,
    pub ftz: bool,
}

pub fn emit(s: &mut dyn Sink, f: MathFn, prec: Prec, _opts: MathOpts, args: &[&str]) -> String {
    let (x, narrow) = if prec == Prec::F64 {
        let t = s.reg(RegClass::F32);
        s.line(format!("cvt.rn.f32.f64 {t}, {};", args[0]));
        (t, true)
    } else {
        (args[0].to_string(), false)
    };
    let y = args.get(1).map(|y| {
        if narrow {
            let t = s.reg(RegClass::F32);
            s.line(format!("cvt.rn.f32.f64 {t}, {y};"));
            t
        } else {
            y.to_string()
        }
    });
    let r = s.reg(RegClass::F32);
    let t = s.reg(RegClass::F32);
    match f {
        MathFn::Exp => {
            s.line(format!("mul.f32 {t}, {x}, 0F3FB8AA3B;"));
            s.line(format!("ex2.approx.f32 {r}, {t};"));
        }
        MathFn::Exp2 => s.line(format!("ex2.approx.f32 {r}, {x};")),
        MathFn::Log => {
            s.line(format!("lg2.approx.f32 {t}, {x};"));
            s.line(format!("mul.f32 {r}, {t}, 0F3F317218;"));
        }
        MathFn::Log2 => s.line(format!("lg2.approx.f32 {r}, {x};")),
        MathFn::Log10 => {
            s.line(format!("lg2.approx.f32 {t}, {x};"));
            s.line(format!("mul.f32 {r}, {t}, 0F3E9A209B;"));
        }
        MathFn::Log1p => {
            s.line(format!("add.f32 {t}, {x}, 0F3F800000;"));
            s.line(format!("lg2.approx.f32 {t}, {t};"));
            s.line(format!("mul.f32 {r}, {t}, 0F3F317218;"));
        }
        MathFn::Sin => s.line(format!("sin.approx.f32 {r}, {x};")),
        MathFn::Cos => s.line(format!("cos.approx.f32 {r}, {x};")),
        MathFn::Tan => {
            let c = s.reg(RegClass::F32);
            s.line(format!("sin.approx.f32 {t}, {x};"));
            s.line(format!("cos.approx.f32 {c}, {x};"));
            s.line(format!("div.rn.f32 {r}, {t}, {c};"));
        }
        MathFn::TanH => s.line(format!("tanh.approx.f32 {r}, {x};")),
        MathFn::SinH | MathFn::CosH => {
            let u = s.reg(RegClass::F32);
            s.line(format!("mul.f32 {t}, {x}, 0F3FB8AA3B;"));
            s.line(format!("ex2.approx.f32 {t}, {t};"));
            s.line(format!("rcp.rn.f32 {u}, {t};"));
            if f == MathFn::SinH {
                s.line(format!("sub.f32 {t}, {t}, {u};"));
            } else {
                s.line(format!("add.f32 {t}, {t}, {u};"));
            }
            s.line(format!("mul.f32 {r}, {t}, 0F3F000000;"));
        }
        MathFn::Sigmoid => {
            s.line(format!("mul.f32 {t}, {x}, 0FBFB8AA3B;"));
            s.line(format!("ex2.approx.f32 {t}, {t};"));
            s.line(format!("add.f32 {t}, {t}, 0F3F800000;"));
            s.line(format!("rcp.rn.f32 {r}, {t};"));
        }
        MathFn::Rsqrt => s.line(format!("rsqrt.approx.f32 {r}, {x};")),
        MathFn::Pow => {
            let y = y.unwrap_or_default();
            s.line(format!("lg2.approx.f32 {t}, {x};"));
            s.line(format!("mul.f32 {t}, {t}, {y};"));
            s.line(format!("ex2.approx.f32 {r}, {t};"));
        }
        MathFn::Atan2 => {
            let y = y.unwrap_or_default();
            s.line(format!("div.rn.f32 {r}, {x}, {y};"));
        }
        MathFn::Rem => {
            let y = y.unwrap_or_default();
            s.line(format!("div.rz.f32 {t}, {x}, {y};"));
            s.line(format!("cvt.rzi.f32.f32 {t}, {t};"));
            s.line(format!("neg.f32 {t}, {t};"));
            s.line(format!("fma.rn.f32 {r}, {t}, {y}, {x};"));
        }
    }
    if narrow {
        let d = s.reg(RegClass::F64);
        s.line(format!("cvt.f64.f32 {d}, {r};"));
        return d;
    }
    r
}

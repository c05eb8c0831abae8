//! Elementwise ops: float and integer arithmetic, comparisons, select, conversions and
//! math functions. Every op here works slot by slot in the layout of its first operand.

use super::{Kernel, Tv, class_of};
use crate::math::{self, MathFn, MathOpts, Prec};
use crate::sink::{RegClass, Sink};
use std::rc::Rc;
use tilec_ir::attrs::{ComparisonOrdering, ComparisonPredicate, RoundingMode, Signedness};
use tilec_ir::{EnumKind, Op, Opcode, Type};

/// Integer width of an integer element type.
pub(crate) fn int_width(t: Type) -> u32 {
    match t {
        Type::I1 => 1,
        Type::I4 => 4,
        Type::I8 => 8,
        Type::I16 => 16,
        Type::I32 => 32,
        _ => 64,
    }
}

fn is_half(t: Type) -> bool {
    matches!(t, Type::F16 | Type::BF16)
}

/// The PTX rounding modifier for a float result.
fn rnd(mode: Option<RoundingMode>) -> &'static str {
    match mode {
        Some(RoundingMode::Zero) => ".rz",
        Some(RoundingMode::NegativeInf) => ".rm",
        Some(RoundingMode::PositiveInf) => ".rp",
        _ => ".rn",
    }
}

/// The PTX rounding modifier for a float-to-integer result.
fn rnd_int(mode: Option<RoundingMode>) -> &'static str {
    match mode {
        Some(RoundingMode::NearestEven) => ".rni",
        Some(RoundingMode::NegativeInf) => ".rmi",
        Some(RoundingMode::PositiveInf) => ".rpi",
        _ => ".rzi",
    }
}

impl Kernel<'_> {
    fn rounding(&self, op: Op) -> Option<RoundingMode> {
        self.enum_attr(op, "rounding_mode", EnumKind::RoundingMode)
            .and_then(RoundingMode::from_index)
    }

    pub(crate) fn signed(&self, op: Op, name: &str) -> bool {
        self.enum_attr(op, name, EnumKind::Signedness)
            .and_then(Signedness::from_index)
            != Some(Signedness::Unsigned)
    }

    fn has(&self, op: Op, name: &str) -> bool {
        self.m.attr_named(op, name).is_some()
    }

    /// Every elementwise op: operands in the first operand's layout, one result per slot.
    pub(crate) fn emit_elementwise(&mut self, op: Op) {
        let m = self.m;
        let operands: Vec<_> = m.operands(op).collect();
        if operands.is_empty() || m.num_results(op) != 1 {
            self.error_at_op(op, "this operation has no PTX lowering");
            return;
        }
        // The layout of the result, which convert-to-gpu gave every operand too.
        let layout = self.layout_of(m.result(op, 0));
        let tvs: Vec<Tv> = operands.iter().map(|v| self.tile_in(*v, &layout)).collect();
        let out_elem = self.elem(m.result(op, 0));
        let mut regs = Vec::with_capacity(layout.slots());
        for s in 0..layout.slots() {
            let args: Vec<String> = tvs.iter().map(|t| t.regs[s].clone()).collect();
            let elems: Vec<Type> = tvs.iter().map(|t| t.elem).collect();
            let r = self.scalar_op(op, &elems, &args, out_elem);
            regs.push(r);
        }
        let tv = Tv {
            layout: Rc::clone(&layout),
            regs,
            elem: out_elem,
        };
        self.set_tile(m.result(op, 0), tv);
    }

    fn scalar_op(&mut self, op: Op, elems: &[Type], a: &[String], out: Type) -> String {
        use Opcode as O;
        let t = elems[0];
        match self.m.opcode(op) {
            O::AddF | O::SubF | O::MulF | O::DivF => self.float_binary(op, t, a),
            O::Fma => self.float_fma(op, t, a),
            O::AbsF | O::NegF => self.float_sign(op, t, &a[0]),
            O::Ceil | O::Floor => {
                let m = if self.m.opcode(op) == O::Ceil {
                    ".rpi"
                } else {
                    ".rmi"
                };
                self.via_f32(t, &[&a[0]], None, |k, x, c| {
                    let ty = if c == RegClass::F64 { "f64" } else { "f32" };
                    let r = k.reg(c);
                    k.ins(format!("cvt{m}.{ty}.{ty} {r}, {};", x[0]));
                    r
                })
            }
            O::Sqrt => {
                let mode = self.rounding(op);
                let ftz = self.ftz(op, t);
                self.via_f32(t, &[&a[0]], mode, |k, x, c| {
                    let ty = if c == RegClass::F64 { "f64" } else { "f32" };
                    let r = k.reg(c);
                    let rm = if mode == Some(RoundingMode::Approx) && c == RegClass::F32 {
                        ".approx"
                    } else {
                        rnd(mode)
                    };
                    k.ins(format!("sqrt{rm}{ftz}.{ty} {r}, {};", x[0]));
                    r
                })
            }
            O::RecipF => self.via_f32(t, &[&a[0]], None, |k, x, c| {
                let ty = if c == RegClass::F64 { "f64" } else { "f32" };
                let r = k.reg(c);
                k.ins(format!("rcp.rn.{ty} {r}, {};", x[0]));
                r
            }),
            O::MaxF | O::MinF | O::MaximumF | O::MinimumF => self.float_minmax(op, t, a),
            O::CmpF => self.float_cmp(op, t, a),
            c if let Some(f) = MathFn::of_opcode(c) => self.math1(op, f, t, a),
            O::Select => self.select(out, a),
            O::CmpI => self.int_cmp(op, t, a),
            O::FToF | O::FToI | O::IToF | O::ExtI | O::TruncI | O::Bitcast => {
                self.convert_elem(op, t, out, &a[0])
            }
            O::IntToPtr | O::PtrToInt => a[0].clone(),
            _ => self.int_op(op, t, a),
        }
    }

    fn ftz(&self, op: Op, t: Type) -> &'static str {
        if t == Type::F32 && self.has(op, "flush_to_zero") {
            ".ftz"
        } else {
            ""
        }
    }

    /// Runs `f` on the operands widened to f32 (f16, bf16, tf32) or as they are (f32, f64)
    /// and narrows the result back with the rounding `mode`.
    fn via_f32(
        &mut self,
        t: Type,
        args: &[&str],
        mode: Option<RoundingMode>,
        f: impl FnOnce(&mut Self, &[String], RegClass) -> String,
    ) -> String {
        if is_half(t) {
            let wide: Vec<String> = args.iter().map(|x| self.half_to_f32(t, x)).collect();
            let r = f(self, &wide, RegClass::F32);
            self.f32_to_half(t, &r, mode)
        } else {
            let class = if t == Type::F64 {
                RegClass::F64
            } else {
                RegClass::F32
            };
            let owned: Vec<String> = args.iter().map(|s| s.to_string()).collect();
            f(self, &owned, class)
        }
    }

    pub(crate) fn half_to_f32(&mut self, t: Type, x: &str) -> String {
        let f = self.reg(RegClass::F32);
        if t == Type::BF16 {
            let r = self.reg(RegClass::B32);
            self.ins(format!("cvt.u32.u16 {r}, {x};"));
            self.ins(format!("shl.b32 {r}, {r}, 16;"));
            self.ins(format!("mov.b32 {f}, {r};"));
        } else {
            self.ins(format!("cvt.f32.f16 {f}, {x};"));
        }
        f
    }

    pub(crate) fn f32_to_half(&mut self, t: Type, x: &str, mode: Option<RoundingMode>) -> String {
        let r = self.reg(RegClass::B16);
        let ty = if t == Type::BF16 { "bf16" } else { "f16" };
        let m = match (t, rnd(mode)) {
            // cvt to bf16 takes .rn and .rz only; directed rounding goes through the sign.
            (Type::BF16, ".rm") | (Type::BF16, ".rp") => {
                return self.f32_to_bf16_directed(x, rnd(mode) == ".rp");
            }
            (_, m) => m,
        };
        self.ins(format!("cvt{m}.{ty}.f32 {r}, {x};"));
        r
    }

    /// f32 to bf16 rounding towards -inf (`up` false) or +inf: truncate, then step one ulp
    /// away from zero when the value was inexact and the direction says so.
    fn f32_to_bf16_directed(&mut self, x: &str, up: bool) -> String {
        let bits = self.reg(RegClass::B32);
        let trunc = self.reg(RegClass::B32);
        let p = self.reg(RegClass::Pred);
        let q = self.reg(RegClass::Pred);
        let n = self.reg(RegClass::Pred);
        self.ins(format!("mov.b32 {bits}, {x};"));
        self.ins(format!("and.b32 {trunc}, {bits}, -65536;"));
        self.ins(format!("setp.ne.b32 {p}, {trunc}, {bits};"));
        // Negative values round away from zero when going down, positive when going up.
        self.ins(format!("setp.lt.s32 {n}, {bits}, 0;"));
        if up {
            self.ins(format!("not.pred {n}, {n};"));
        }
        self.ins(format!("and.pred {q}, {p}, {n};"));
        // NaN stays NaN: keep the truncated payload (the quiet bit is in the upper half).
        // A NaN with low bits set (the canonical 0x7FFFFFFF that cvt.f32.f64 gives) must
        // not be stepped: the carry would run into the sign (-0 or +0).
        let num = self.reg(RegClass::Pred);
        self.ins(format!("setp.num.f32 {num}, {x}, {x};"));
        self.ins(format!("and.pred {q}, {q}, {num};"));
        self.ins(format!("@{q} add.s32 {trunc}, {trunc}, 65536;"));
        let r = self.reg(RegClass::B16);
        self.ins(format!("shr.u32 {trunc}, {trunc}, 16;"));
        self.ins(format!("cvt.u16.u32 {r}, {trunc};"));
        r
    }

    fn float_binary(&mut self, op: Op, t: Type, a: &[String]) -> String {
        let name = match self.m.opcode(op) {
            Opcode::AddF => "add",
            Opcode::SubF => "sub",
            Opcode::MulF => "mul",
            _ => "div",
        };
        let mode = self.rounding(op);
        let ftz = self.ftz(op, t);
        let directed = !matches!(rnd(mode), ".rn");
        if is_half(t) && directed {
            // Exact in f64, then rounded once more in the same direction (exact).
            return self.half_via_f64(t, &[&a[0], &a[1]], mode, |k, x| {
                let r = k.reg(RegClass::F64);
                k.ins(format!("{name}{}.f64 {r}, {}, {};", rnd(mode), x[0], x[1]));
                r
            });
        }
        self.via_f32(t, &[&a[0], &a[1]], mode, |k, x, c| {
            let ty = if c == RegClass::F64 { "f64" } else { "f32" };
            let r = k.reg(c);
            let m = match (name, mode, c) {
                ("div", Some(RoundingMode::Approx), RegClass::F32) => ".approx".to_string(),
                ("div", Some(RoundingMode::Full), RegClass::F32) => ".full".to_string(),
                _ => rnd(mode).to_string(),
            };
            k.ins(format!("{name}{m}{ftz}.{ty} {r}, {}, {};", x[0], x[1]));
            r
        })
    }

    fn half_via_f64(
        &mut self,
        t: Type,
        args: &[&str],
        mode: Option<RoundingMode>,
        f: impl FnOnce(&mut Self, &[String]) -> String,
    ) -> String {
        let wide: Vec<String> = args
            .iter()
            .map(|x| {
                let f = self.half_to_f32(t, x);
                let d = self.reg(RegClass::F64);
                self.ins(format!("cvt.f64.f32 {d}, {f};"));
                d
            })
            .collect();
        let r = f(self, &wide);
        let s = self.reg(RegClass::F32);
        self.ins(format!("cvt{}.f32.f64 {s}, {r};", rnd(mode)));
        self.f32_to_half(t, &s, mode)
    }

    fn float_fma(&mut self, op: Op, t: Type, a: &[String]) -> String {
        let mode = self.rounding(op);
        let ftz = self.ftz(op, t);
        if is_half(t) {
            if rnd(mode) == ".rn" {
                let ty = if t == Type::BF16 { "bf16" } else { "f16" };
                let r = self.reg(RegClass::B16);
                self.ins(format!("fma.rn.{ty} {r}, {}, {}, {};", a[0], a[1], a[2]));
                return r;
            }
            return self.half_via_f64(t, &[&a[0], &a[1], &a[2]], mode, |k, x| {
                let r = k.reg(RegClass::F64);
                k.ins(format!(
                    "fma{}.f64 {r}, {}, {}, {};",
                    rnd(mode),
                    x[0],
                    x[1],
                    x[2]
                ));
                r
            });
        }
        let (c, ty) = if t == Type::F64 {
            (RegClass::F64, "f64")
        } else {
            (RegClass::F32, "f32")
        };
        let r = self.reg(c);
        self.ins(format!(
            "fma{}{ftz}.{ty} {r}, {}, {}, {};",
            rnd(mode),
            a[0],
            a[1],
            a[2]
        ));
        r
    }

    /// `absf` and `negf` on the sign bit alone, as the interpreter (IEEE 754's bit
    /// operations) gives them: `abs.f32`/`neg.f32` are additions in SASS (`FADD d, -RZ,
    /// |a|`), whose NaN is the canonical one rather than the operand's.
    fn float_sign(&mut self, op: Op, t: Type, x: &str) -> String {
        let neg = self.m.opcode(op) == Opcode::NegF;
        match t {
            Type::F32 | Type::TF32 => {
                let r = self.reg(RegClass::F32);
                if neg {
                    self.ins(format!("xor.b32 {r}, {x}, 0x80000000;"));
                } else {
                    self.ins(format!("and.b32 {r}, {x}, 0x7FFFFFFF;"));
                }
                r
            }
            Type::F64 => {
                let r = self.reg(RegClass::F64);
                if neg {
                    self.ins(format!("xor.b64 {r}, {x}, 0x8000000000000000;"));
                } else {
                    self.ins(format!("and.b64 {r}, {x}, 0x7FFFFFFFFFFFFFFF;"));
                }
                r
            }
            _ => {
                let r = self.reg(RegClass::B16);
                if neg {
                    self.ins(format!("xor.b16 {r}, {x}, 0x8000;"));
                } else {
                    self.ins(format!("and.b16 {r}, {x}, 0x7FFF;"));
                }
                r
            }
        }
    }

    fn float_minmax(&mut self, op: Op, t: Type, a: &[String]) -> String {
        let (name, nan) = match self.m.opcode(op) {
            Opcode::MaxF => ("max", self.has(op, "propagate_nan")),
            Opcode::MinF => ("min", self.has(op, "propagate_nan")),
            Opcode::MaximumF => ("max", true),
            _ => ("min", true),
        };
        let ftz = self.ftz(op, t);
        self.via_f32(t, &[&a[0], &a[1]], None, |k, x, c| {
            let r = k.reg(c);
            if c == RegClass::F64 {
                k.ins(format!("{name}.f64 {r}, {}, {};", x[0], x[1]));
                if nan {
                    // f64 max/min has no .NaN form: pick a NaN operand explicitly.
                    let p = k.reg(RegClass::Pred);
                    k.ins(format!("setp.nan.f64 {p}, {}, {};", x[0], x[0]));
                    k.ins(format!("@{p} mov.f64 {r}, {};", x[0]));
                    k.ins(format!("setp.nan.f64 {p}, {}, {};", x[1], x[1]));
                    k.ins(format!("@{p} mov.f64 {r}, {};", x[1]));
                }
            } else {
                let n = if nan { ".NaN" } else { "" };
                k.ins(format!("{name}{ftz}{n}.f32 {r}, {}, {};", x[0], x[1]));
            }
            r
        })
    }

    fn float_cmp(&mut self, op: Op, t: Type, a: &[String]) -> String {
        let pred = self
            .enum_attr(op, "comparison_predicate", EnumKind::ComparisonPredicate)
            .and_then(ComparisonPredicate::from_index)
            .unwrap_or(ComparisonPredicate::Equal);
        let unordered = self
            .enum_attr(op, "comparison_ordering", EnumKind::ComparisonOrdering)
            .and_then(ComparisonOrdering::from_index)
            == Some(ComparisonOrdering::Unordered);
        let base = cmp_name(pred);
        let cmp = if unordered {
            format!("{base}u")
        } else {
            base.to_string()
        };
        let (x, y, ty) = if is_half(t) {
            (
                self.half_to_f32(t, &a[0]),
                self.half_to_f32(t, &a[1]),
                "f32",
            )
        } else {
            (
                a[0].clone(),
                a[1].clone(),
                if t == Type::F64 { "f64" } else { "f32" },
            )
        };
        let p = self.reg(RegClass::Pred);
        self.ins(format!("setp.{cmp}.{ty} {p}, {x}, {y};"));
        p
    }

    fn math1(&mut self, op: Op, f: MathFn, t: Type, a: &[String]) -> String {
        let ftz = !self.ftz(op, t).is_empty();
        // `exp`/`tanh ... rounding<approx>` (f32, verified) ask for the SFU sequence.
        let opts = MathOpts {
            fast: self.opts.fast_math || self.rounding(op) == Some(RoundingMode::Approx),
            ftz,
        };
        let args: Vec<&str> = a.iter().map(String::as_str).collect();
        self.via_f32(t, &args, None, |k, x, c| {
            let prec = if c == RegClass::F64 {
                Prec::F64
            } else {
                Prec::F32
            };
            let xs: Vec<&str> = x.iter().map(String::as_str).collect();
            let program = math::program(f, prec, opts);
            if program.len() > math::CALL_THRESHOLD {
                let name = math::subroutine_name(f, prec, opts);
                if !k.module_data.funcs.contains(&name) {
                    k.module_data.funcs.push(name);
                    k.module_data.decls.push(math::subroutine(f, prec, opts));
                }
                math::call(k, f, prec, opts, &xs)
            } else {
                program.emit(k, &xs)
            }
        })
    }

    fn select(&mut self, out: Type, a: &[String]) -> String {
        let c = class_of(out);
        let r = self.reg(c);
        if c == RegClass::Pred {
            let t = self.reg(RegClass::Pred);
            self.ins(format!("and.pred {r}, {}, {};", a[0], a[1]));
            self.ins(format!("not.pred {t}, {};", a[0]));
            self.ins(format!("and.pred {t}, {t}, {};", a[2]));
            self.ins(format!("or.pred {r}, {r}, {t};"));
        } else {
            let ty = match c {
                RegClass::B16 => "b16",
                RegClass::B32 => "b32",
                RegClass::F32 => "f32",
                RegClass::F64 => "f64",
                _ => "b64",
            };
            self.ins(format!("selp.{ty} {r}, {}, {}, {};", a[1], a[2], a[0]));
        }
        r
    }

    /// An i1 (predicate) as a 0/-1 `.b32` (sign-extended, like every narrow integer).
    fn widen_pred(&mut self, p: &str) -> String {
        let r = self.reg(RegClass::B32);
        self.ins(format!("selp.b32 {r}, -1, 0, {p};"));
        r
    }

    fn narrow_pred(&mut self, r: &str) -> String {
        let p = self.reg(RegClass::Pred);
        self.ins(format!("setp.ne.b32 {p}, {r}, 0;"));
        p
    }

    /// Re-normalises a narrow integer held in a `.b32` after an op that may leave its range.
    pub(crate) fn norm(&mut self, w: u32, r: &str) {
        match w {
            8 => self.ins(format!("cvt.s32.s8 {r}, {r};")),
            16 => self.ins(format!("cvt.s32.s16 {r}, {r};")),
            1 | 4 => {
                self.ins(format!("shl.b32 {r}, {r}, {};", 32 - w));
                self.ins(format!("shr.s32 {r}, {r}, {};", 32 - w));
            }
            _ => {}
        }
    }

    /// The unsigned (zero-extended) view of a narrow integer.
    pub(crate) fn zext(&mut self, w: u32, r: &str) -> String {
        if w >= 32 {
            return r.to_string();
        }
        let t = self.reg(RegClass::B32);
        self.ins(format!("and.b32 {t}, {r}, {};", (1u64 << w) - 1));
        t
    }

    fn int_cmp(&mut self, op: Op, t: Type, a: &[String]) -> String {
        let pred = self
            .enum_attr(op, "comparison_predicate", EnumKind::ComparisonPredicate)
            .and_then(ComparisonPredicate::from_index)
            .unwrap_or(ComparisonPredicate::Equal);
        let signed = self.signed(op, "signedness");
        let w = int_width(t);
        let (mut x, mut y) = (a[0].clone(), a[1].clone());
        if w == 1 {
            x = self.widen_pred(&x);
            y = self.widen_pred(&y);
        }
        if !signed {
            x = self.zext(w, &x);
            y = self.zext(w, &y);
        }
        let bits = if w == 64 { 64 } else { 32 };
        let sfx = if signed {
            format!("s{bits}")
        } else {
            format!("u{bits}")
        };
        let p = self.reg(RegClass::Pred);
        self.ins(format!("setp.{}.{sfx} {p}, {x}, {y};", cmp_name(pred)));
        p
    }

    fn int_op(&mut self, op: Op, t: Type, a: &[String]) -> String {
        use Opcode as O;
        let opcode = self.m.opcode(op);
        let w = int_width(t);
        if w == 1 {
            if let Some(name) = match opcode {
                O::AndI | O::MulI => Some("and"),
                O::OrI => Some("or"),
                O::XOrI | O::AddI | O::SubI => Some("xor"),
                _ => None,
            } {
                let p = self.reg(RegClass::Pred);
                self.ins(format!("{name}.pred {p}, {}, {};", a[0], a[1]));
                return p;
            }
            if opcode == O::NotI {
                let p = self.reg(RegClass::Pred);
                self.ins(format!("not.pred {p}, {};", a[0]));
                return p;
            }
            let wide: Vec<String> = a.iter().map(|x| self.widen_pred(x)).collect();
            let r = self.int_op_wide(op, 1, &wide);
            return self.narrow_pred(&r);
        }
        self.int_op_wide(op, w, a)
    }

    /// Integer ops on `.b32` (widths up to 32, sign-extended) or `.b64` registers.
    fn int_op_wide(&mut self, op: Op, w: u32, a: &[String]) -> String {
        use Opcode as O;
        let (c, bits) = if w == 64 {
            (RegClass::B64, 64)
        } else {
            (RegClass::B32, 32)
        };
        let s = format!("s{bits}");
        let u = format!("u{bits}");
        let b = format!("b{bits}");
        let r = self.reg(c);
        let opcode = self.m.opcode(op);
        let signed = match opcode {
            O::DivI | O::RemI | O::MaxI | O::MinI | O::ShRI => self.signed(op, "signedness"),
            _ => true,
        };
        let (x, y) = if signed || w >= 32 {
            (a[0].clone(), a.get(1).cloned().unwrap_or_default())
        } else {
            let y = a.get(1).map(|y| self.zext(w, y)).unwrap_or_default();
            (self.zext(w, &a[0]), y)
        };
        let ty = if signed { &s } else { &u };
        let shift_amount = |k: &mut Self, y: &str| -> String {
            if bits == 64 {
                let t = k.reg(RegClass::B32);
                k.ins(format!("cvt.u32.u64 {t}, {y};"));
                t
            } else {
                y.to_string()
            }
        };
        match opcode {
            O::AddI => self.ins(format!("add.{s} {r}, {x}, {y};")),
            O::SubI => self.ins(format!("sub.{s} {r}, {x}, {y};")),
            O::MulI => self.ins(format!("mul.lo.{s} {r}, {x}, {y};")),
            O::AndI => self.ins(format!("and.{b} {r}, {x}, {y};")),
            O::OrI => self.ins(format!("or.{b} {r}, {x}, {y};")),
            O::XOrI => self.ins(format!("xor.{b} {r}, {x}, {y};")),
            O::NotI => self.ins(format!("not.{b} {r}, {x};")),
            O::NegSI => self.ins(format!("neg.{s} {r}, {x};")),
            O::AbsI => self.ins(format!("abs.{s} {r}, {x};")),
            O::MaxI => self.ins(format!("max.{ty} {r}, {x}, {y};")),
            O::MinI => self.ins(format!("min.{ty} {r}, {x}, {y};")),
            O::ShLI => {
                let n = shift_amount(self, &y);
                self.ins(format!("shl.{b} {r}, {x}, {n};"));
            }
            O::ShRI => {
                let n = shift_amount(self, &y);
                self.ins(format!("shr.{ty} {r}, {x}, {n};"));
            }
            O::RemI => self.ins(format!("rem.{ty} {r}, {x}, {y};")),
            O::DivI => self.int_div(op, w, signed, &x, &y, &r),
            O::MulHI => {
                if w >= 32 {
                    self.ins(format!("mul.hi.{u} {r}, {}, {};", a[0], a[1]));
                } else {
                    let x = self.zext(w, &a[0]);
                    let y = self.zext(w, &a[1]);
                    self.ins(format!("mul.lo.u32 {r}, {x}, {y};"));
                    self.ins(format!("shr.u32 {r}, {r}, {w};"));
                }
            }
            O::PopCnt | O::Clz | O::Ctz | O::Brev => self.bit_count(opcode, w, &a[0], &r),
            _ => {
                self.error_at_op(op, "this operation has no PTX lowering");
                self.ins(format!("mov.{b} {r}, 0;"));
            }
        }
        self.norm(w, &r);
        r
    }

    fn int_div(&mut self, op: Op, w: u32, signed: bool, x: &str, y: &str, r: &str) {
        let bits = if w == 64 { 64 } else { 32 };
        let c = if w == 64 {
            RegClass::B64
        } else {
            RegClass::B32
        };
        let ty = if signed {
            format!("s{bits}")
        } else {
            format!("u{bits}")
        };
        self.ins(format!("div.{ty} {r}, {x}, {y};"));
        let mode = self
            .enum_attr(op, "rounding", EnumKind::RoundingMode)
            .and_then(RoundingMode::from_index);
        let (floor, ceil) = match mode {
            Some(RoundingMode::NegativeInf) => (true, false),
            Some(RoundingMode::PositiveInf) => (false, true),
            _ => return,
        };
        // Adjust the truncated quotient when the remainder is non-zero and its sign says so.
        let rem = self.reg(c);
        self.ins(format!("rem.{ty} {rem}, {x}, {y};"));
        let nz = self.reg(RegClass::Pred);
        self.ins(format!("setp.ne.{ty} {nz}, {rem}, 0;"));
        if !signed {
            if ceil {
                self.ins(format!("@{nz} add.{ty} {r}, {r}, 1;"));
            }
            return;
        }
        // Signs differ <=> (rem xor y) < 0.
        let t = self.reg(c);
        let diff = self.reg(RegClass::Pred);
        self.ins(format!("xor.b{bits} {t}, {rem}, {y};"));
        self.ins(format!("setp.lt.s{bits} {diff}, {t}, 0;"));
        let p = self.reg(RegClass::Pred);
        if floor {
            self.ins(format!("and.pred {p}, {nz}, {diff};"));
            self.ins(format!("@{p} sub.s{bits} {r}, {r}, 1;"));
        } else {
            self.ins(format!("not.pred {diff}, {diff};"));
            self.ins(format!("and.pred {p}, {nz}, {diff};"));
            self.ins(format!("@{p} add.s{bits} {r}, {r}, 1;"));
        }
    }

    fn bit_count(&mut self, opcode: Opcode, w: u32, x: &str, r: &str) {
        if w == 64 {
            let t = self.reg(RegClass::B32);
            match opcode {
                Opcode::PopCnt => self.ins(format!("popc.b64 {t}, {x};")),
                Opcode::Clz => self.ins(format!("clz.b64 {t}, {x};")),
                Opcode::Ctz => {
                    let v = self.reg(RegClass::B64);
                    self.ins(format!("brev.b64 {v}, {x};"));
                    self.ins(format!("clz.b64 {t}, {v};"));
                }
                _ => {
                    self.ins(format!("brev.b64 {r}, {x};"));
                    return;
                }
            }
            self.ins(format!("cvt.u64.u32 {r}, {t};"));
            return;
        }
        let z = self.zext(w, x);
        match opcode {
            Opcode::PopCnt => self.ins(format!("popc.b32 {r}, {z};")),
            Opcode::Clz => {
                self.ins(format!("clz.b32 {r}, {z};"));
                if w < 32 {
                    self.ins(format!("sub.s32 {r}, {r}, {};", 32 - w));
                }
            }
            Opcode::Ctz => {
                // A bit just above the width makes ctz(0) = w.
                let t = self.reg(RegClass::B32);
                if w < 32 {
                    self.ins(format!("or.b32 {t}, {z}, {};", 1u64 << w));
                } else {
                    self.ins(format!("mov.b32 {t}, {z};"));
                }
                self.ins(format!("brev.b32 {t}, {t};"));
                self.ins(format!("clz.b32 {r}, {t};"));
            }
            _ => {
                self.ins(format!("brev.b32 {r}, {z};"));
                if w < 32 {
                    self.ins(format!("shr.u32 {r}, {r}, {};", 32 - w));
                }
            }
        }
    }

    /// Conversions between element types.
    fn convert_elem(&mut self, op: Op, from: Type, to: Type, x: &str) -> String {
        use Opcode as O;
        let opcode = self.m.opcode(op);
        match opcode {
            O::Bitcast => self.bitcast(from, to, x),
            O::ExtI | O::TruncI => {
                let signed = opcode == O::TruncI || self.signed(op, "signedness");
                self.int_resize(from, to, signed, x)
            }
            O::IToF => {
                let signed = self.signed(op, "signedness");
                let mode = self.rounding(op);
                self.int_to_float(from, to, signed, mode, x)
            }
            O::FToI => {
                let signed = self.signed(op, "signedness");
                let mode = self.rounding(op);
                self.float_to_int(from, to, signed, mode, x)
            }
            _ => {
                let mode = self.rounding(op);
                self.float_to_float(from, to, mode, x)
            }
        }
    }

    pub(crate) fn int_resize(&mut self, from: Type, to: Type, signed: bool, x: &str) -> String {
        let (wf, wt) = (int_width(from), int_width(to));
        let src = if wf == 1 {
            let r = self.reg(RegClass::B32);
            let one = if signed { "-1" } else { "1" };
            self.ins(format!("selp.b32 {r}, {one}, 0, {x};"));
            r
        } else {
            x.to_string()
        };
        if wt == 1 {
            let t = self.reg(RegClass::B32);
            if wf == 64 {
                self.ins(format!("cvt.u32.u64 {t}, {src};"));
            } else {
                self.ins(format!("mov.b32 {t}, {src};"));
            }
            self.ins(format!("and.b32 {t}, {t}, 1;"));
            return self.narrow_pred(&t);
        }
        match (wf == 64, wt == 64) {
            (true, true) => src,
            (true, false) => {
                let r = self.reg(RegClass::B32);
                self.ins(format!("cvt.u32.u64 {r}, {src};"));
                self.norm(wt, &r);
                r
            }
            (false, true) => {
                let r = self.reg(RegClass::B64);
                if signed {
                    self.ins(format!("cvt.s64.s32 {r}, {src};"));
                } else {
                    let z = self.zext(wf.max(1), &src);
                    self.ins(format!("cvt.u64.u32 {r}, {z};"));
                }
                r
            }
            (false, false) => {
                let r = self.reg(RegClass::B32);
                if signed || wf >= wt {
                    self.ins(format!("mov.b32 {r}, {src};"));
                } else {
                    let z = self.zext(wf.max(1), &src);
                    self.ins(format!("mov.b32 {r}, {z};"));
                }
                self.norm(wt, &r);
                r
            }
        }
    }

    fn bitcast(&mut self, from: Type, to: Type, x: &str) -> String {
        let (cf, ct) = (class_of(from), class_of(to));
        if cf == ct {
            return x.to_string();
        }
        let r = self.reg(ct);
        match (cf, ct) {
            (RegClass::B32, RegClass::F32) | (RegClass::F32, RegClass::B32) => {
                self.ins(format!("mov.b32 {r}, {x};"))
            }
            (RegClass::B64, RegClass::F64) | (RegClass::F64, RegClass::B64) => {
                self.ins(format!("mov.b64 {r}, {x};"))
            }
            (RegClass::B32, RegClass::B16) => {
                // A narrow integer is held sign-extended; the float holds its bits only.
                let z = self.zext(int_width(from), x);
                self.ins(format!("cvt.u16.u32 {r}, {z};"));
            }
            (RegClass::B16, RegClass::B32) => {
                self.ins(format!("cvt.u32.u16 {r}, {x};"));
                self.norm(int_width(to), &r);
            }
            _ => {
                let p = self.widen_pred(x);
                return self.bitcast(Type::I32, to, &p);
            }
        }
        r
    }

    fn int_to_float(
        &mut self,
        from: Type,
        to: Type,
        signed: bool,
        mode: Option<RoundingMode>,
        x: &str,
    ) -> String {
        let w = int_width(from);
        let src = if w == 1 {
            self.int_resize(from, Type::I32, signed, x)
        } else if !signed {
            self.zext(w, x)
        } else {
            x.to_string()
        };
        let ity = match (w == 64, signed) {
            (true, true) => "s64",
            (true, false) => "u64",
            (false, true) => "s32",
            (false, false) => "u32",
        };
        let m = rnd(mode);
        match to {
            Type::F64 => {
                let r = self.reg(RegClass::F64);
                self.ins(format!("cvt{m}.f64.{ity} {r}, {src};"));
                r
            }
            Type::F16 => {
                let r = self.reg(RegClass::B16);
                self.ins(format!("cvt{m}.f16.{ity} {r}, {src};"));
                r
            }
            Type::BF16 if w == 64 => {
                // Rounded to odd in f32 (a 64-bit integer is not exact in f64, and an
                // f64 rounding to nearest could land on a bf16 midpoint: random kernel
                // seed 1214762, `itof` of a `brev`), then once to bf16.
                let f = self.int_to_f32_odd(ity, &src);
                self.f32_to_half(Type::BF16, &f, mode)
            }
            Type::BF16 => {
                // Exact in f64 for up to 32 bits; rounded once more to bf16.
                let d = self.reg(RegClass::F64);
                self.ins(format!("cvt.rn.f64.{ity} {d}, {src};"));
                self.f64_to_narrow(Type::BF16, mode, &d)
            }
            Type::F8E8M0FNU | Type::F4E2M1FN => {
                let f = self.int_to_f32_odd(ity, &src);
                self.f32_to_narrow(to, &f, mode)
            }
            _ => {
                let r = self.reg(RegClass::F32);
                self.ins(format!("cvt{m}.f32.{ity} {r}, {src};"));
                match to {
                    Type::TF32 => self.f32_to_tf32(&r, mode),
                    // Exact in f32 wherever f8 does not overflow (|x| <= 2^24), so one
                    // rounding, the way `ftof` to f8 rounds; but where `ftof` saturates,
                    // the spec's `itof` overflows to infinity (f8E5M2, from 61440 up,
                    // which rounds to 2^16) or to NaN (f8E4M3FN, above 464, the tie
                    // that rounds to 448).
                    Type::F8E4M3FN | Type::F8E5M2 => {
                        let code = self.f32_to_f8(to, &r);
                        let a = self.reg(RegClass::F32);
                        let over = self.reg(RegClass::Pred);
                        self.ins(format!("abs.f32 {a}, {r};"));
                        if to == Type::F8E4M3FN {
                            self.ins(format!("setp.gt.f32 {over}, {a}, 0f43E80000;"));
                            self.ins(format!("@{over} mov.b16 {code}, 127;"));
                        } else {
                            let neg = self.reg(RegClass::Pred);
                            self.ins(format!("setp.ge.f32 {over}, {a}, 0f47700000;"));
                            self.ins(format!("@{over} mov.b16 {code}, 124;"));
                            self.ins(format!("setp.lt.and.f32 {neg}, {r}, 0f00000000, {over};"));
                            self.ins(format!("@{neg} mov.b16 {code}, 252;"));
                        }
                        code
                    }
                    _ => r,
                }
            }
        }
    }

    fn float_to_int(
        &mut self,
        from: Type,
        to: Type,
        signed: bool,
        mode: Option<RoundingMode>,
        x: &str,
    ) -> String {
        let src = if is_half(from) {
            self.half_to_f32(from, x)
        } else if matches!(
            from,
            Type::F8E4M3FN | Type::F8E5M2 | Type::F8E8M0FNU | Type::F4E2M1FN
        ) {
            self.f8_to_f32(from, x)
        } else {
            x.to_string()
        };
        let fty = if from == Type::F64 { "f64" } else { "f32" };
        let m = rnd_int(mode);
        let w = int_width(to);
        if w == 64 {
            let r = self.reg(RegClass::B64);
            let ity = if signed { "s64" } else { "u64" };
            self.ins(format!("cvt{m}.{ity}.{fty} {r}, {src};"));
            return r;
        }
        let r = self.reg(RegClass::B32);
        let ity = if signed { "s32" } else { "u32" };
        self.ins(format!("cvt{m}.{ity}.{fty} {r}, {src};"));
        if w < 32 && w > 1 {
            // Saturate to the narrow range, as cvt does for 32 bits.
            if signed {
                let hi = (1i64 << (w - 1)) - 1;
                self.ins(format!("min.s32 {r}, {r}, {hi};"));
                self.ins(format!("max.s32 {r}, {r}, {};", -hi - 1));
            } else {
                self.ins(format!("min.u32 {r}, {r}, {};", (1u64 << w) - 1));
            }
            self.norm(w, &r);
        }
        if w == 1 {
            // The closest i1 value: signed i1 holds -1 and 0, so every negative value is
            // -1 (true) and every other is 0; unsigned i1 holds 0 and 1 (cvt already took
            // negative values to 0), so every non-zero value is 1.
            if signed {
                let p = self.reg(RegClass::Pred);
                self.ins(format!("setp.lt.s32 {p}, {r}, 0;"));
                return p;
            }
            return self.narrow_pred(&r);
        }
        r
    }

    pub(crate) fn float_to_float(
        &mut self,
        from: Type,
        to: Type,
        mode: Option<RoundingMode>,
        x: &str,
    ) -> String {
        if from == to {
            return x.to_string();
        }
        // Widen to f32 or f64 exactly first.
        let wide = match from {
            Type::F16 | Type::BF16 => self.half_to_f32(from, x),
            Type::F8E4M3FN | Type::F8E5M2 | Type::F8E8M0FNU | Type::F4E2M1FN => {
                self.f8_to_f32(from, x)
            }
            _ => x.to_string(),
        };
        let wide_ty = if from == Type::F64 {
            Type::F64
        } else {
            Type::F32
        };
        match (wide_ty, to) {
            // tf32 is held in an f32 register (its pattern in the top 19 bits): the value
            // is already the f32, but a NaN keeps the payload it came with, where a
            // conversion gives the canonical NaN (the interpreter's, and what `cvt` writes;
            // random kernel seed 8051 bitcast a tf32 argument's NaN so converted).
            // bf16 widens by a shift, which keeps a NaN's payload and sign too.
            (Type::F32, Type::F32) if matches!(from, Type::TF32 | Type::BF16) => {
                let p = self.reg(RegClass::Pred);
                let r = self.reg(RegClass::F32);
                self.ins(format!("setp.nan.f32 {p}, {wide}, {wide};"));
                self.ins(format!("selp.f32 {r}, 0f7FFFFFFF, {wide}, {p};"));
                r
            }
            (Type::F32, Type::F32) => wide,
            (Type::F32, Type::F64) => {
                let r = self.reg(RegClass::F64);
                self.ins(format!("cvt.f64.f32 {r}, {wide};"));
                r
            }
            (Type::F32, Type::TF32) => self.f32_to_tf32(&wide, mode),
            (Type::F32, Type::F16 | Type::BF16) => self.f32_to_half(to, &wide, mode),
            (Type::F32, _) => self.f32_to_narrow(to, &wide, mode),
            (_, Type::F32 | Type::TF32) => {
                let r = self.reg(RegClass::F32);
                self.ins(format!("cvt{}.f32.f64 {r}, {wide};", rnd(mode)));
                if to == Type::TF32 {
                    return self.f32_to_tf32(&r, mode);
                }
                r
            }
            _ => self.f64_to_narrow(to, mode, &wide),
        }
    }

    /// f64 to a type narrower than f32 with one rounding: f32 with round-to-odd (exact
    /// for the narrower rounding that follows), then the narrow conversion.
    fn f64_to_narrow(&mut self, to: Type, mode: Option<RoundingMode>, d: &str) -> String {
        let f = self.reg(RegClass::F32);
        self.ins(format!("cvt.rz.f32.f64 {f}, {d};"));
        let back = self.reg(RegClass::F64);
        let p = self.reg(RegClass::Pred);
        let bits = self.reg(RegClass::B32);
        self.ins(format!("cvt.f64.f32 {back}, {f};"));
        self.ins(format!("setp.neu.f64 {p}, {back}, {d};"));
        self.ins(format!("mov.b32 {bits}, {f};"));
        self.ins(format!("@{p} or.b32 {bits}, {bits}, 1;"));
        self.ins(format!("mov.b32 {f}, {bits};"));
        match to {
            Type::F16 | Type::BF16 => self.f32_to_half(to, &f, mode),
            _ => self.f32_to_narrow(to, &f, mode),
        }
    }

    /// f32 to one of the 8- and 4-bit float types.
    fn f32_to_narrow(&mut self, to: Type, x: &str, mode: Option<RoundingMode>) -> String {
        match to {
            Type::F8E8M0FNU => self.f32_to_e8m0(x, mode),
            Type::F4E2M1FN => self.f32_to_e2m1(x, mode),
            _ => self.f32_to_f8(to, x),
        }
    }

    /// f32 to tf32 (an f32 with the low 13 mantissa bits clear) in the op's rounding
    /// mode, with integer code on every target: `cvt.rna.tf32.f32` (sm_80) rounds ties
    /// away from zero, not to even, and the directed modes have no instruction before
    /// sm_90. Infinities and NaNs are kept as they are.
    fn f32_to_tf32(&mut self, x: &str, mode: Option<RoundingMode>) -> String {
        let b = self.reg(RegClass::B32);
        let t = self.reg(RegClass::B32);
        let special = self.reg(RegClass::Pred);
        self.ins(format!("mov.b32 {b}, {x};"));
        self.ins(format!("and.b32 {t}, {b}, 2139095040;"));
        self.ins(format!("setp.eq.u32 {special}, {t}, 2139095040;"));
        let out = self.reg(RegClass::B32);
        match rnd(mode) {
            ".rz" => self.ins(format!("and.b32 {out}, {b}, -8192;")),
            ".rm" | ".rp" => {
                // Truncate, then one tf32 ulp away from zero when inexact and the
                // direction says so (down for negative values, up for positive ones).
                let inexact = self.reg(RegClass::Pred);
                let sign = self.reg(RegClass::Pred);
                self.ins(format!("and.b32 {out}, {b}, -8192;"));
                self.ins(format!("setp.ne.b32 {inexact}, {out}, {b};"));
                self.ins(format!("setp.lt.s32 {sign}, {b}, 0;"));
                if rnd(mode) == ".rp" {
                    self.ins(format!("not.pred {sign}, {sign};"));
                }
                self.ins(format!("and.pred {inexact}, {inexact}, {sign};"));
                self.ins(format!("@{inexact} add.s32 {out}, {out}, 8192;"));
            }
            _ => {
                // To nearest, ties to even: add half an ulp less one, plus the lowest kept
                // bit, and truncate (a carry into the exponent is the right result, up to
                // infinity).
                self.ins(format!("shr.u32 {t}, {b}, 13;"));
                self.ins(format!("and.b32 {t}, {t}, 1;"));
                self.ins(format!("add.s32 {t}, {t}, 4095;"));
                self.ins(format!("add.s32 {out}, {b}, {t};"));
                self.ins(format!("and.b32 {out}, {out}, -8192;"));
            }
        }
        self.ins(format!("@{special} mov.b32 {out}, {b};"));
        let r = self.reg(RegClass::F32);
        self.ins(format!("mov.b32 {r}, {out};"));
        r
    }

    /// An f8 byte (in a `.b16`) widened to f32, exactly, with integer code (no sm_89
    /// instructions needed).
    pub(crate) fn f8_to_f32(&mut self, t: Type, x: &str) -> String {
        match t {
            Type::F8E8M0FNU => return self.e8m0_to_f32(x),
            Type::F4E2M1FN => return self.e2m1_to_f32(x),
            _ => {}
        }
        let (mbits, bias) = if t == Type::F8E4M3FN {
            (3u32, 7i32)
        } else {
            (2, 15)
        };
        let v = self.reg(RegClass::B32);
        self.ins(format!("cvt.u32.u16 {v}, {x};"));
        let sign = self.reg(RegClass::B32);
        let mag = self.reg(RegClass::B32);
        self.ins(format!("and.b32 {sign}, {v}, 128;"));
        self.ins(format!("shl.b32 {sign}, {sign}, 24;"));
        self.ins(format!("and.b32 {mag}, {v}, 127;"));
        // The magnitude as an integer times 2^(1 - bias - mbits) covers normals and
        // subnormals alike: value = mag' * 2^-(bias + mbits - 1) where mag' restores the
        // implicit bit. Computing it in f32 is exact (at most 8 significant bits).
        let e = self.reg(RegClass::B32);
        let m = self.reg(RegClass::B32);
        self.ins(format!("shr.u32 {e}, {mag}, {mbits};"));
        self.ins(format!("and.b32 {m}, {mag}, {};", (1 << mbits) - 1));
        let p = self.reg(RegClass::Pred);
        self.ins(format!("setp.ne.u32 {p}, {e}, 0;"));
        self.ins(format!("@{p} or.b32 {m}, {m}, {};", 1 << mbits));
        self.ins(format!("@{p} sub.s32 {e}, {e}, 1;"));
        // value = m * 2^(e + 1 - bias - mbits)
        let f = self.reg(RegClass::F32);
        self.ins(format!("cvt.rn.f32.u32 {f}, {m};"));
        let scale = self.reg(RegClass::B32);
        self.ins(format!(
            "add.s32 {scale}, {e}, {};",
            127 + 1 - bias - mbits as i32
        ));
        self.ins(format!("shl.b32 {scale}, {scale}, 23;"));
        let sf = self.reg(RegClass::F32);
        self.ins(format!("mov.b32 {sf}, {scale};"));
        self.ins(format!("mul.rn.f32 {f}, {f}, {sf};"));
        // Specials: e4m3fn has NaN at 0x7F only; e5m2 has inf (0x7C) and NaN (> 0x7C).
        // A NaN widens to the canonical NaN, without its sign, as the hardware's
        // conversions (f8 -> f16 -> f32) and the interpreter give it.
        let bits = self.reg(RegClass::B32);
        self.ins(format!("mov.b32 {bits}, {f};"));
        if t == Type::F8E5M2 {
            self.ins(format!("setp.eq.u32 {p}, {mag}, 124;"));
            self.ins(format!("@{p} mov.b32 {bits}, 2139095040;"));
        }
        self.ins(format!("or.b32 {bits}, {bits}, {sign};"));
        let nan_from = if t == Type::F8E4M3FN { "eq" } else { "gt" };
        let nan_mag = if t == Type::F8E4M3FN { 127 } else { 124 };
        self.ins(format!("setp.{nan_from}.u32 {p}, {mag}, {nan_mag};"));
        self.ins(format!("@{p} mov.b32 {bits}, 2147483647;"));
        let r = self.reg(RegClass::F32);
        self.ins(format!("mov.b32 {r}, {bits};"));
        r
    }

    /// f32 to an f8 type, round to nearest even, saturating to the largest finite value
    /// (the spec's conversion to f8 saturates; NaN stays NaN).
    fn f32_to_f8(&mut self, t: Type, x: &str) -> String {
        let (mbits, bias, max_code, nan) = if t == Type::F8E4M3FN {
            (3u32, 7i32, 126u32, 127u32)
        } else {
            (2, 15, 123, 127)
        };
        let bits = self.reg(RegClass::B32);
        self.ins(format!("mov.b32 {bits}, {x};"));
        let sign = self.reg(RegClass::B32);
        self.ins(format!("shr.u32 {sign}, {bits}, 24;"));
        self.ins(format!("and.b32 {sign}, {sign}, 128;"));
        let a = self.reg(RegClass::F32);
        self.ins(format!("abs.f32 {a}, {x};"));
        // Round |x| to a multiple of its f8 ulp: for normals ulp = 2^(E - mbits), for
        // subnormals 2^(1 - bias - mbits). Scaling by the inverse ulp and cvt.rni gives
        // round-half-even of the significand.
        let ab = self.reg(RegClass::B32);
        self.ins(format!("mov.b32 {ab}, {a};"));
        let e = self.reg(RegClass::B32);
        self.ins(format!("shr.u32 {e}, {ab}, 23;"));
        self.ins(format!("max.s32 {e}, {e}, {};", 127 + 1 - bias));
        // ulp exponent (biased f32): e - mbits; inverse: 254 - (e - mbits)
        let inv = self.reg(RegClass::B32);
        self.ins(format!("sub.s32 {inv}, {}, {e};", 254 + mbits as i32));
        self.ins(format!("shl.b32 {inv}, {inv}, 23;"));
        let invf = self.reg(RegClass::F32);
        self.ins(format!("mov.b32 {invf}, {inv};"));
        let q = self.reg(RegClass::F32);
        self.ins(format!("mul.rn.f32 {q}, {a}, {invf};"));
        self.ins(format!("cvt.rni.f32.f32 {q}, {q};"));
        // Back to the value, then encode: the code of a value v = q * ulp is
        // (E - (1 - bias)) << mbits + q for normals, q for subnormals; both equal
        // q + ((e - (128 - bias)) << mbits) with e clamped as above.
        let qi = self.reg(RegClass::B32);
        self.ins(format!("cvt.rzi.u32.f32 {qi}, {q};"));
        let code = self.reg(RegClass::B32);
        self.ins(format!("sub.s32 {code}, {e}, {};", 128 - bias));
        self.ins(format!("shl.b32 {code}, {code}, {mbits};"));
        self.ins(format!("add.s32 {code}, {code}, {qi};"));
        // q may be 2^(mbits+1) after rounding up: the sum above carries into the exponent,
        // which is exactly the next code. Saturate and handle NaN.
        self.ins(format!("min.u32 {code}, {code}, {max_code};"));
        // A NaN becomes the unsigned NaN code (as the interpreter and cuda_fp8.h's
        // conversions give it), whatever its sign.
        self.ins(format!("or.b32 {code}, {code}, {sign};"));
        let p = self.reg(RegClass::Pred);
        self.ins(format!("setp.nan.f32 {p}, {x}, {x};"));
        self.ins(format!("@{p} mov.b32 {code}, {nan};"));
        let r = self.reg(RegClass::B16);
        self.ins(format!("cvt.u16.u32 {r}, {code};"));
        r
    }
}

fn cmp_name(p: ComparisonPredicate) -> &'static str {
    match p {
        ComparisonPredicate::Equal => "eq",
        ComparisonPredicate::NotEqual => "ne",
        ComparisonPredicate::LessThan => "lt",
        ComparisonPredicate::LessThanOrEqual => "le",
        ComparisonPredicate::GreaterThan => "gt",
        ComparisonPredicate::GreaterThanOrEqual => "ge",
    }
}

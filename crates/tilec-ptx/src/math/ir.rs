//! The math library's micro-op language: a tiny register machine whose every instruction is
//! either IEEE-754 exact (correctly rounded to nearest even) or an integer/bit operation, so
//! that the same program can be printed as PTX ([`Program::emit`]) and run bit-exactly on the
//! CPU ([`Program::eval`]). Hardware approximations ([`Approx`]) are the one exception; the
//! evaluator models them by the correctly rounded function (used by fast mode only).

use crate::sink::{RegClass, Sink};

/// The type of a virtual register.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// A predicate.
    Pred,
    /// 32 raw bits (integers).
    B32,
    /// 64 raw bits (integers).
    B64,
    /// binary32.
    F32,
    /// binary64.
    F64,
}

impl Ty {
    fn class(self) -> RegClass {
        match self {
            Ty::Pred => RegClass::Pred,
            Ty::B32 => RegClass::B32,
            Ty::B64 => RegClass::B64,
            Ty::F32 => RegClass::F32,
            Ty::F64 => RegClass::F64,
        }
    }

    /// Width in bits (1 for predicates).
    pub fn bits(self) -> u32 {
        match self {
            Ty::Pred => 1,
            Ty::B32 | Ty::F32 => 32,
            Ty::B64 | Ty::F64 => 64,
        }
    }

    /// Whether the type is a floating-point type.
    pub fn is_float(self) -> bool {
        matches!(self, Ty::F32 | Ty::F64)
    }

    fn mask(self) -> u64 {
        if self.bits() == 64 {
            u64::MAX
        } else {
            (1u64 << self.bits()) - 1
        }
    }

    fn name(self, int_kind: char) -> String {
        match self {
            Ty::Pred => "pred".into(),
            Ty::F32 => "f32".into(),
            Ty::F64 => "f64".into(),
            _ => format!("{int_kind}{}", self.bits()),
        }
    }
}

/// A virtual register of a [`Program`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct R(pub(crate) u32);

/// Binary floating-point operations (round to nearest even).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FBin {
    /// `add.rn`
    Add,
    /// `sub.rn`
    Sub,
    /// `mul.rn`
    Mul,
    /// `div.rn`
    Div,
    /// `min` (a NaN operand yields the other operand)
    Min,
    /// `max` (a NaN operand yields the other operand)
    Max,
}

/// Unary floating-point operations.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FUn {
    /// `neg`
    Neg,
    /// `abs`
    Abs,
    /// `sqrt.rn`
    Sqrt,
    /// `cvt.rni` (round to nearest even integer)
    Rni,
    /// `cvt.rzi` (round toward zero to integer)
    Rzi,
}

/// Hardware approximations (fast mode only).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Approx {
    /// `ex2.approx.ftz.f32`
    Ex2,
    /// `lg2.approx.f32`
    Lg2,
    /// `sin.approx.f32`
    Sin,
    /// `cos.approx.f32`
    Cos,
    /// `rsqrt.approx.f32`
    Rsqrt,
    /// `rcp.approx.f32`
    Rcp,
    /// `tanh.approx.f32` (sm_75+)
    Tanh,
}

/// Binary integer operations (wrapping).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum IBin {
    /// `add`
    Add,
    /// `sub`
    Sub,
    /// `mul.lo`
    MulLo,
    /// `mul.hi.u` (unsigned)
    MulHiU,
    /// `rem.u` (unsigned)
    RemU,
    /// `and`
    And,
    /// `or`
    Or,
    /// `xor`
    Xor,
    /// `shl` (the amount is a B32 register; amounts at or above the width give 0)
    Shl,
    /// `shr.u` (logical)
    ShrU,
    /// `shr.s` (arithmetic)
    ShrS,
    /// `min.s`
    MinS,
    /// `max.s`
    MaxS,
}

/// Comparisons of `setp`. Float comparisons are ordered (false on NaN) except [`Cmp::Nan`];
/// integer comparisons are signed unless `unsigned` is set on the instruction.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cmp {
    /// `eq`
    Eq,
    /// `ne` (ordered for floats)
    Ne,
    /// `lt`
    Lt,
    /// `le`
    Le,
    /// `gt`
    Gt,
    /// `ge`
    Ge,
    /// `nan` (either operand NaN; floats only)
    Nan,
}

/// Predicate logic.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PBin {
    /// `and.pred`
    And,
    /// `or.pred`
    Or,
    /// `xor.pred`
    Xor,
}

/// Rounding of a float-to-integer conversion.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Rnd {
    /// to nearest even
    Rni,
    /// toward zero
    Rzi,
}

/// One instruction. Destinations may be written more than once (loops reassign with `Mov`).
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// `dst` = argument `idx`.
    Arg { dst: R, idx: usize },
    /// `dst` = raw bits.
    Const { dst: R, bits: u64 },
    /// `dst` = `src` (same type).
    Mov { dst: R, src: R },
    /// Reinterpret bits between a float and an integer register of the same width.
    Bits { dst: R, src: R },
    /// Float binary operation.
    FBin { op: FBin, dst: R, a: R, b: R },
    /// `fma.rn`: `a*b + c` with a single rounding.
    Fma { dst: R, a: R, b: R, c: R },
    /// Float unary operation.
    FUn { op: FUn, dst: R, a: R },
    /// Hardware approximation.
    Approx { op: Approx, dst: R, a: R },
    /// Integer binary operation.
    IBin { op: IBin, dst: R, a: R, b: R },
    /// `not` (bitwise).
    INot { dst: R, a: R },
    /// `clz.b64` / `clz.b32`, result in a B32 register.
    Clz { dst: R, a: R },
    /// Conversion between the types of `dst` and `src`: float-float (`rn`), float to signed or
    /// unsigned integer (`rnd`, saturating, NaN gives 0), integer to float (`rn`), integer
    /// widening (sign- or zero-extending) and narrowing.
    Cvt {
        dst: R,
        src: R,
        signed: bool,
        rnd: Rnd,
    },
    /// `setp`.
    Setp {
        cmp: Cmp,
        unsigned: bool,
        dst: R,
        a: R,
        b: R,
    },
    /// `selp`: `dst = p ? a : b`.
    Selp { dst: R, a: R, b: R, p: R },
    /// Predicate logic.
    PBin { op: PBin, dst: R, a: R, b: R },
    /// `not.pred`.
    PNot { dst: R, a: R },
    /// A label.
    Label(u32),
    /// A branch, taken when `cond` is absent or the predicate equals the given polarity.
    Bra {
        target: u32,
        cond: Option<(R, bool)>,
    },
}

/// A straight-line (possibly looping) program over typed virtual registers.
#[derive(Clone, Debug)]
pub struct Program {
    pub(crate) tys: Vec<Ty>,
    pub(crate) ops: Vec<Op>,
    pub(crate) args: Vec<Ty>,
    pub(crate) result: Option<R>,
    pub(crate) labels: u32,
    /// Whether f32 arithmetic flushes subnormal inputs and results to zero (`.ftz`).
    pub ftz: bool,
}

/// Maximum number of instructions the evaluator executes before giving up (guards loops).
const STEP_LIMIT: usize = 1 << 22;

impl Program {
    pub(crate) fn new(ftz: bool) -> Self {
        Program {
            tys: Vec::new(),
            ops: Vec::new(),
            args: Vec::new(),
            result: None,
            labels: 0,
            ftz,
        }
    }

    /// The instructions.
    pub fn ops(&self) -> &[Op] {
        &self.ops
    }

    /// The type of a register.
    pub fn ty(&self, r: R) -> Ty {
        self.tys[r.0 as usize]
    }

    /// The register holding the result.
    pub fn result(&self) -> R {
        self.result.expect("program has a result")
    }

    /// Runs the program on raw argument bits and returns the raw bits of the result.
    pub fn eval(&self, args: &[u64]) -> u64 {
        Evaluator {
            p: self,
            regs: vec![0; self.tys.len()],
        }
        .run(args)
    }

    /// Runs a one- or two-argument f32 program.
    pub fn eval_f32(&self, args: &[f32]) -> f32 {
        let a: Vec<u64> = args.iter().map(|x| u64::from(x.to_bits())).collect();
        f32::from_bits(self.eval(&a) as u32)
    }

    /// Runs a one- or two-argument f64 program.
    pub fn eval_f64(&self, args: &[f64]) -> f64 {
        let a: Vec<u64> = args.iter().map(|x| x.to_bits()).collect();
        f64::from_bits(self.eval(&a))
    }

    /// Prints the program as PTX into the sink, with the given argument registers, and
    /// returns the register holding the result.
    /// The number of micro-ops.
    pub fn len(&self) -> usize {
        self.ops.len()
    }

    /// True for a program without ops.
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }

    pub fn emit(&self, s: &mut dyn Sink, args: &[&str]) -> String {
        Printer::new(self, s, args).run()
    }
}

// ---------------------------------------------------------------------------------------
// Printer

struct Printer<'a> {
    p: &'a Program,
    s: &'a mut dyn Sink,
    names: Vec<Option<String>>,
    labels: Vec<Option<String>>,
}

fn float_lit(ty: Ty, bits: u64) -> String {
    match ty {
        Ty::F32 => format!("0f{:08X}", bits as u32),
        _ => format!("0d{bits:016X}"),
    }
}

impl<'a> Printer<'a> {
    fn new(p: &'a Program, s: &'a mut dyn Sink, args: &[&str]) -> Self {
        let mut names = vec![None; p.tys.len()];
        for op in &p.ops {
            if let Op::Arg { dst, idx } = op {
                names[dst.0 as usize] = Some(args[*idx].to_string());
            }
        }
        Printer {
            p,
            s,
            names,
            labels: vec![None; p.labels as usize],
        }
    }

    fn n(&mut self, r: R) -> String {
        let ty = self.p.ty(r);
        let s = &mut *self.s;
        self.names[r.0 as usize]
            .get_or_insert_with(|| s.reg(ty.class()))
            .clone()
    }

    fn label(&mut self, l: u32) -> String {
        let s = &mut *self.s;
        self.labels[l as usize]
            .get_or_insert_with(|| s.label())
            .clone()
    }

    /// `.ftz` for f32 arithmetic when the program flushes.
    fn ftz(&self, ty: Ty) -> &'static str {
        if self.p.ftz && ty == Ty::F32 {
            ".ftz"
        } else {
            ""
        }
    }

    fn emit(&mut self, text: String) {
        self.s.line(text);
    }

    fn run(mut self) -> String {
        let p = self.p;
        for op in &p.ops {
            self.op(op);
        }
        self.n(p.result())
    }

    fn op(&mut self, op: &Op) {
        let p = self.p;
        match *op {
            Op::Arg { .. } => {}
            Op::Const { dst, bits } => {
                let ty = p.ty(dst);
                let d = self.n(dst);
                let text = if ty.is_float() {
                    format!("mov.{} {d}, {};", ty.name('b'), float_lit(ty, bits))
                } else {
                    format!("mov.{} {d}, {};", ty.name('b'), bits as i64)
                };
                self.emit(text);
            }
            Op::Mov { dst, src } | Op::Bits { dst, src } => {
                let ty = p.ty(dst);
                let (d, a) = (self.n(dst), self.n(src));
                let name = if ty == Ty::Pred {
                    "pred".to_string()
                } else {
                    ty.name('b')
                };
                let name = if matches!(op, Op::Bits { .. }) {
                    format!("b{}", ty.bits())
                } else {
                    name
                };
                self.emit(format!("mov.{name} {d}, {a};"));
            }
            Op::FBin { op, dst, a, b } => {
                let ty = p.ty(dst);
                let m = match op {
                    FBin::Add => "add.rn",
                    FBin::Sub => "sub.rn",
                    FBin::Mul => "mul.rn",
                    FBin::Div => "div.rn",
                    FBin::Min => "min",
                    FBin::Max => "max",
                };
                let (d, a, b) = (self.n(dst), self.n(a), self.n(b));
                self.emit(format!(
                    "{m}{}.{} {d}, {a}, {b};",
                    self.ftz(ty),
                    ty.name('f')
                ));
            }
            Op::Fma { dst, a, b, c } => {
                let ty = p.ty(dst);
                let (d, a, b, c) = (self.n(dst), self.n(a), self.n(b), self.n(c));
                self.emit(format!(
                    "fma.rn{}.{} {d}, {a}, {b}, {c};",
                    self.ftz(ty),
                    ty.name('f')
                ));
            }
            Op::FUn { op, dst, a } => {
                let ty = p.ty(dst);
                let (d, a) = (self.n(dst), self.n(a));
                let (f, t) = (self.ftz(ty), ty.name('f'));
                self.emit(match op {
                    FUn::Neg => format!("neg{f}.{t} {d}, {a};"),
                    FUn::Abs => format!("abs{f}.{t} {d}, {a};"),
                    FUn::Sqrt => format!("sqrt.rn{f}.{t} {d}, {a};"),
                    FUn::Rni => format!("cvt.rni{f}.{t}.{t} {d}, {a};"),
                    FUn::Rzi => format!("cvt.rzi{f}.{t}.{t} {d}, {a};"),
                });
            }
            Op::Approx { op, dst, a } => {
                let (d, a) = (self.n(dst), self.n(a));
                let f = if self.p.ftz { ".ftz" } else { "" };
                let m = match op {
                    Approx::Ex2 => "ex2.approx.ftz".to_string(),
                    Approx::Lg2 => format!("lg2.approx{f}"),
                    Approx::Sin => format!("sin.approx{f}"),
                    Approx::Cos => format!("cos.approx{f}"),
                    Approx::Rsqrt => format!("rsqrt.approx{f}"),
                    Approx::Rcp => format!("rcp.approx{f}"),
                    Approx::Tanh => "tanh.approx".to_string(),
                };
                self.emit(format!("{m}.f32 {d}, {a};"));
            }
            Op::IBin { op, dst, a, b } => {
                let ty = p.ty(dst);
                let (m, k) = match op {
                    IBin::Add => ("add", 's'),
                    IBin::Sub => ("sub", 's'),
                    IBin::MulLo => ("mul.lo", 's'),
                    IBin::MulHiU => ("mul.hi", 'u'),
                    IBin::RemU => ("rem", 'u'),
                    IBin::And => ("and", 'b'),
                    IBin::Or => ("or", 'b'),
                    IBin::Xor => ("xor", 'b'),
                    IBin::Shl => ("shl", 'b'),
                    IBin::ShrU => ("shr", 'u'),
                    IBin::ShrS => ("shr", 's'),
                    IBin::MinS => ("min", 's'),
                    IBin::MaxS => ("max", 's'),
                };
                let (d, a, b) = (self.n(dst), self.n(a), self.n(b));
                self.emit(format!("{m}.{} {d}, {a}, {b};", ty.name(k)));
            }
            Op::INot { dst, a } => {
                let ty = p.ty(dst);
                let (d, a) = (self.n(dst), self.n(a));
                self.emit(format!("not.{} {d}, {a};", ty.name('b')));
            }
            Op::Clz { dst, a } => {
                let ty = p.ty(a);
                let (d, a) = (self.n(dst), self.n(a));
                self.emit(format!("clz.{} {d}, {a};", ty.name('b')));
            }
            Op::Cvt {
                dst,
                src,
                signed,
                rnd,
            } => self.cvt(dst, src, signed, rnd),
            Op::Setp {
                cmp,
                unsigned,
                dst,
                a,
                b,
            } => {
                let ty = p.ty(a);
                let c = match cmp {
                    Cmp::Eq => "eq",
                    Cmp::Ne => "ne",
                    Cmp::Lt => "lt",
                    Cmp::Le => "le",
                    Cmp::Gt => "gt",
                    Cmp::Ge => "ge",
                    Cmp::Nan => "nan",
                };
                let k = if unsigned { 'u' } else { 's' };
                let (d, a, b) = (self.n(dst), self.n(a), self.n(b));
                self.emit(format!(
                    "setp.{c}{}.{} {d}, {a}, {b};",
                    self.ftz(ty),
                    ty.name(k)
                ));
            }
            Op::Selp { dst, a, b, p: pr } => {
                let ty = p.ty(dst);
                let (d, a, b, pr) = (self.n(dst), self.n(a), self.n(b), self.n(pr));
                self.emit(format!("selp.{} {d}, {a}, {b}, {pr};", ty.name('b')));
            }
            Op::PBin { op, dst, a, b } => {
                let m = match op {
                    PBin::And => "and",
                    PBin::Or => "or",
                    PBin::Xor => "xor",
                };
                let (d, a, b) = (self.n(dst), self.n(a), self.n(b));
                self.emit(format!("{m}.pred {d}, {a}, {b};"));
            }
            Op::PNot { dst, a } => {
                let (d, a) = (self.n(dst), self.n(a));
                self.emit(format!("not.pred {d}, {a};"));
            }
            Op::Label(l) => {
                let l = self.label(l);
                self.emit(format!("{l}:"));
            }
            Op::Bra { target, cond } => {
                let l = self.label(target);
                let text = match cond {
                    None => format!("bra.uni {l};"),
                    Some((pr, pol)) => {
                        let pr = self.n(pr);
                        format!("@{}{pr} bra {l};", if pol { "" } else { "!" })
                    }
                };
                self.emit(text);
            }
        }
    }

    fn cvt(&mut self, dst: R, src: R, signed: bool, rnd: Rnd) {
        let (dt, st) = (self.p.ty(dst), self.p.ty(src));
        let k = if signed { 's' } else { 'u' };
        let (d, a) = (self.n(dst), self.n(src));
        let text = match (dt.is_float(), st.is_float()) {
            (true, true) if dt.bits() < st.bits() => {
                format!("cvt.rn{}.f32.f64 {d}, {a};", self.ftz(dt))
            }
            (true, true) => format!("cvt{}.f64.f32 {d}, {a};", self.ftz(st)),
            (false, true) => {
                let r = if rnd == Rnd::Rni { "rni" } else { "rzi" };
                format!(
                    "cvt.{r}{}.{}.{} {d}, {a};",
                    self.ftz(st),
                    dt.name(k),
                    st.name('f')
                )
            }
            (true, false) => format!("cvt.rn.{}.{} {d}, {a};", dt.name('f'), st.name(k)),
            (false, false) => format!("cvt.{}.{} {d}, {a};", dt.name(k), st.name(k)),
        };
        self.emit(text);
    }
}

// ---------------------------------------------------------------------------------------
// Evaluator

struct Evaluator<'a> {
    p: &'a Program,
    regs: Vec<u64>,
}

/// A float value of either width, for evaluation.
#[derive(Copy, Clone)]
enum Fv {
    S(f32),
    D(f64),
}

fn flush32(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

fn min_max(a: f64, b: f64, max: bool) -> f64 {
    if a.is_nan() {
        return b;
    }
    if b.is_nan() {
        return a;
    }
    if a == b {
        // -0 < +0
        let a_neg = a.is_sign_negative();
        return if a_neg != max { a } else { b };
    }
    if (a < b) != max { a } else { b }
}

impl Evaluator<'_> {
    fn get(&self, r: R) -> u64 {
        self.regs[r.0 as usize]
    }

    fn set(&mut self, r: R, v: u64) {
        self.regs[r.0 as usize] = v & self.p.ty(r).mask();
    }

    fn fget(&self, r: R) -> Fv {
        let v = self.get(r);
        match self.p.ty(r) {
            Ty::F32 => {
                let x = f32::from_bits(v as u32);
                Fv::S(if self.p.ftz { flush32(x) } else { x })
            }
            _ => Fv::D(f64::from_bits(v)),
        }
    }

    fn fset(&mut self, r: R, v: f64) {
        let bits = match self.p.ty(r) {
            Ty::F32 => {
                let x = v as f32;
                u64::from(if self.p.ftz { flush32(x) } else { x }.to_bits())
            }
            _ => v.to_bits(),
        };
        self.set(r, bits);
    }

    /// Applies an operation at the precision of `dst`'s operands: binary32 operations run in
    /// f32 (Rust's f32 arithmetic and `mul_add` are correctly rounded), binary64 in f64.
    fn farith(
        &mut self,
        dst: R,
        args: [R; 3],
        n: usize,
        f: fn([f64; 3]) -> f64,
        g: fn([f32; 3]) -> f32,
    ) {
        let mut d = [0f64; 3];
        let mut s = [0f32; 3];
        let mut single = false;
        for i in 0..n {
            match self.fget(args[i]) {
                Fv::S(x) => {
                    single = true;
                    s[i] = x;
                }
                Fv::D(x) => d[i] = x,
            }
        }
        let v = if single { f64::from(g(s)) } else { f(d) };
        self.fset(dst, v);
    }

    fn sval(&self, r: R) -> i64 {
        let v = self.get(r);
        match self.p.ty(r) {
            Ty::B32 => i64::from(v as u32 as i32),
            _ => v as i64,
        }
    }

    fn run(mut self, args: &[u64]) -> u64 {
        let p = self.p;
        let mut label_pos = vec![0usize; p.labels as usize];
        for (i, op) in p.ops.iter().enumerate() {
            if let Op::Label(l) = op {
                label_pos[*l as usize] = i;
            }
        }
        let mut pc = 0;
        let mut steps = 0;
        while pc < p.ops.len() {
            steps += 1;
            assert!(steps < STEP_LIMIT, "math program did not terminate");
            let op = &p.ops[pc];
            pc += 1;
            match *op {
                Op::Bra { target, cond } => {
                    let take = cond.is_none_or(|(r, pol)| (self.get(r) != 0) == pol);
                    if take {
                        pc = label_pos[target as usize];
                    }
                }
                _ => self.step(op, args),
            }
        }
        self.get(p.result())
    }

    fn step(&mut self, op: &Op, args: &[u64]) {
        match *op {
            Op::Arg { dst, idx } => self.set(dst, args[idx]),
            Op::Const { dst, bits } => self.set(dst, bits),
            Op::Mov { dst, src } | Op::Bits { dst, src } => self.set(dst, self.get(src)),
            Op::FBin { op, dst, a, b } => {
                let args = [a, b, a];
                match op {
                    FBin::Add => self.farith(dst, args, 2, |v| v[0] + v[1], |v| v[0] + v[1]),
                    FBin::Sub => self.farith(dst, args, 2, |v| v[0] - v[1], |v| v[0] - v[1]),
                    FBin::Mul => self.farith(dst, args, 2, |v| v[0] * v[1], |v| v[0] * v[1]),
                    FBin::Div => self.farith(dst, args, 2, |v| v[0] / v[1], |v| v[0] / v[1]),
                    FBin::Min => self.farith(
                        dst,
                        args,
                        2,
                        |v| min_max(v[0], v[1], false),
                        |v| min_max(f64::from(v[0]), f64::from(v[1]), false) as f32,
                    ),
                    FBin::Max => self.farith(
                        dst,
                        args,
                        2,
                        |v| min_max(v[0], v[1], true),
                        |v| min_max(f64::from(v[0]), f64::from(v[1]), true) as f32,
                    ),
                }
            }
            Op::Fma { dst, a, b, c } => self.farith(
                dst,
                [a, b, c],
                3,
                |v| v[0].mul_add(v[1], v[2]),
                |v| v[0].mul_add(v[1], v[2]),
            ),
            Op::FUn { op, dst, a } => {
                let args = [a, a, a];
                match op {
                    FUn::Neg => self.farith(dst, args, 1, |v| -v[0], |v| -v[0]),
                    FUn::Abs => self.farith(dst, args, 1, |v| v[0].abs(), |v| v[0].abs()),
                    FUn::Sqrt => self.farith(dst, args, 1, |v| v[0].sqrt(), |v| v[0].sqrt()),
                    FUn::Rni => self.farith(
                        dst,
                        args,
                        1,
                        |v| v[0].round_ties_even(),
                        |v| v[0].round_ties_even(),
                    ),
                    FUn::Rzi => self.farith(dst, args, 1, |v| v[0].trunc(), |v| v[0].trunc()),
                }
            }
            Op::Approx { op, dst, a } => {
                let f = match op {
                    Approx::Ex2 => f64::exp2,
                    Approx::Lg2 => f64::log2,
                    Approx::Sin => f64::sin,
                    Approx::Cos => f64::cos,
                    Approx::Rsqrt => |x: f64| 1.0 / x.sqrt(),
                    Approx::Rcp => |x: f64| 1.0 / x,
                    Approx::Tanh => f64::tanh,
                };
                let x = f32::from_bits(self.get(a) as u32);
                let x = if op == Approx::Ex2 || self.p.ftz {
                    flush32(x)
                } else {
                    x
                };
                let mut y = f(f64::from(x)) as f32;
                if op == Approx::Ex2 || self.p.ftz {
                    y = flush32(y);
                }
                self.set(dst, u64::from(y.to_bits()));
            }
            Op::IBin { op, dst, a, b } => {
                let v = self.ibin(op, self.p.ty(dst), a, b);
                self.set(dst, v);
            }
            Op::INot { dst, a } => self.set(dst, !self.get(a)),
            Op::Clz { dst, a } => {
                let ty = self.p.ty(a);
                let v = self.get(a);
                let n = if ty.bits() == 64 {
                    v.leading_zeros()
                } else {
                    (v as u32).leading_zeros()
                };
                self.set(dst, u64::from(n));
            }
            Op::Cvt {
                dst,
                src,
                signed,
                rnd,
            } => self.cvt(dst, src, signed, rnd),
            Op::Setp {
                cmp,
                unsigned,
                dst,
                a,
                b,
            } => {
                let r = self.setp(cmp, unsigned, a, b);
                self.set(dst, u64::from(r));
            }
            Op::Selp { dst, a, b, p } => {
                let v = if self.get(p) != 0 {
                    self.get(a)
                } else {
                    self.get(b)
                };
                self.set(dst, v);
            }
            Op::PBin { op, dst, a, b } => {
                let (x, y) = (self.get(a) != 0, self.get(b) != 0);
                let r = match op {
                    PBin::And => x && y,
                    PBin::Or => x || y,
                    PBin::Xor => x != y,
                };
                self.set(dst, u64::from(r));
            }
            Op::PNot { dst, a } => self.set(dst, u64::from(self.get(a) == 0)),
            Op::Label(_) | Op::Bra { .. } => {}
        }
    }

    fn ibin(&self, op: IBin, ty: Ty, a: R, b: R) -> u64 {
        let (x, y) = (self.get(a), self.get(b));
        let (sx, sy) = (self.sval(a), self.sval(b));
        let w = ty.bits();
        let m = ty.mask();
        match op {
            IBin::Add => x.wrapping_add(y),
            IBin::Sub => x.wrapping_sub(y),
            IBin::MulLo => x.wrapping_mul(y),
            IBin::MulHiU => ((u128::from(x) * u128::from(y)) >> w) as u64,
            IBin::RemU => x.checked_rem(y).unwrap_or(m),
            IBin::And => x & y,
            IBin::Or => x | y,
            IBin::Xor => x ^ y,
            IBin::Shl => {
                let s = y as u32;
                if s >= w { 0 } else { x << s }
            }
            IBin::ShrU => {
                let s = y as u32;
                if s >= w { 0 } else { x >> s }
            }
            IBin::ShrS => (sx >> (y as u32).min(w - 1).min(63)) as u64,
            IBin::MinS => sx.min(sy) as u64,
            IBin::MaxS => sx.max(sy) as u64,
        }
    }

    fn setp(&self, cmp: Cmp, unsigned: bool, a: R, b: R) -> bool {
        let ty = self.p.ty(a);
        if ty.is_float() {
            let f = |r: R| match self.fget(r) {
                Fv::S(x) => f64::from(x),
                Fv::D(x) => x,
            };
            let (x, y) = (f(a), f(b));
            return match cmp {
                Cmp::Eq => x == y,
                Cmp::Ne => x != y && !x.is_nan() && !y.is_nan(),
                Cmp::Lt => x < y,
                Cmp::Le => x <= y,
                Cmp::Gt => x > y,
                Cmp::Ge => x >= y,
                Cmp::Nan => x.is_nan() || y.is_nan(),
            };
        }
        let ord = if unsigned {
            self.get(a).cmp(&self.get(b))
        } else {
            self.sval(a).cmp(&self.sval(b))
        };
        match cmp {
            Cmp::Eq => ord.is_eq(),
            Cmp::Ne => ord.is_ne(),
            Cmp::Lt => ord.is_lt(),
            Cmp::Le => ord.is_le(),
            Cmp::Gt => ord.is_gt(),
            Cmp::Ge => ord.is_ge(),
            Cmp::Nan => false,
        }
    }

    fn cvt(&mut self, dst: R, src: R, signed: bool, rnd: Rnd) {
        let (dt, st) = (self.p.ty(dst), self.p.ty(src));
        match (dt.is_float(), st.is_float()) {
            (true, true) => {
                let x = match self.fget(src) {
                    Fv::S(x) => f64::from(x),
                    Fv::D(x) => x,
                };
                self.fset(dst, x);
            }
            (false, true) => {
                let x = match self.fget(src) {
                    Fv::S(x) => f64::from(x),
                    Fv::D(x) => x,
                };
                let x = if rnd == Rnd::Rni {
                    x.round_ties_even()
                } else {
                    x.trunc()
                };
                let v = match (dt, signed) {
                    (Ty::B32, true) => x as i32 as u64,
                    (Ty::B32, false) => u64::from(x as u32),
                    (_, true) => x as i64 as u64,
                    (_, false) => x as u64,
                };
                self.set(dst, v);
            }
            (true, false) => {
                let v = self.get(src);
                let x = if signed {
                    self.sval(src) as f64
                } else {
                    v as f64
                };
                // Integer to f32 must round once from the integer, not via f64.
                if dt == Ty::F32 {
                    let y = if signed {
                        self.sval(src) as f32
                    } else {
                        v as f32
                    };
                    self.set(dst, u64::from(y.to_bits()));
                } else {
                    self.fset(dst, x);
                }
            }
            (false, false) => {
                let v = if signed {
                    self.sval(src) as u64
                } else {
                    self.get(src)
                };
                self.set(dst, v);
            }
        }
    }
}

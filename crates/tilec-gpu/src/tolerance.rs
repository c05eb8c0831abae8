//! How closely the GPU must match the interpreter (docs/gpu-harness.md, "Comparison").
//!
//! A kernel whose float results depend only on exact or correctly rounded operations
//! (integer ops, conversions, `addf`/`subf`/`mulf`/`divf`/`fma`/`sqrt` in the IEEE
//! rounding modes, min/max, comparisons, data movement) must match bit for bit: the
//! interpreter computes what the spec defines, and so must the PTX.
//!
//! Two kinds of op make the result legitimately differ, and each adds an error term
//! ([`Source`]), relative to the magnitude of the values involved:
//! * accumulation whose order the spec leaves open: a float `reduce` or `scan` of n
//!   terms, `mmaf` with K products, an atomic `addf` from many tile blocks. Two orders of
//!   an n-term sum differ by at most 2·γ(n−1)·Σ|terms| ≈ 2(n−1)·u·Σ|terms|;
//! * approximate math (`exp`, `tanh`, ..., `divf` with `approx`/`full` rounding,
//!   `sqrt` `approx`, and everything under `--fast-math`): within the op's ULP bound
//!   (tilec_ptx::math::ulp_bound, measured in tests/math.rs), doubled for the error it
//!   passes on from its input.
//!
//! An element passes when |gpu − ref| ≤ B·(|ref| + S) + ulp(ref) + 4·m (B > 0), where B
//! is the sum of the terms, S the largest finite |ref| of the buffer (a stand-in for
//! Σ|terms|, which the harness does not track per element: it keeps cancellation from
//! failing a correct result), the one ulp of the buffer's type allows a result that lies
//! on a rounding boundary to round either way, and m, the type's smallest normal, allows
//! the residue of a sum that cancels exactly in one order and not in another. NaN
//! matches any NaN; an infinity only itself (unless a term is unbounded, as fast-math
//! `pow`'s: then any number). Where the terms that cancelled are far larger than S, a
//! mismatch is checked again against variant runs of the interpreter (other orders, and
//! approximations moved by their bound: [`Policy::variants`], [`compare_with`]). This is
//! loose next to a real rounding difference and tight next to a wrong index, a missed
//! mask or a lost tile, which is what it is for. Where inputs make every accumulation
//! exact (the sweep's `randint` inputs: small integers), the sweep asks for bit-exact
//! results instead ([`Policy::exact`]).
//!
//! Products: a float `reduce` or `scan` whose body multiplies or divides its terms
//! ([`Policy::products`]) can underflow to zero, or overflow, in one order where another
//! order stays in range (f64 terms from 5e-324 to 1.8e308, random kernel seed 4728: the
//! simulator's order gave 3.1e-115, the interpreter's 0), and 0 times infinity is NaN. A
//! float element that is zero, subnormal, infinite or NaN on one side then matches any
//! value on the other; every other element is held to the bound above.
//!
//! NaN payloads: f32, f16 and bf16 arithmetic on the GPU returns one canonical NaN, and
//! so does the interpreter, so their bits are compared like any others. f64 arithmetic
//! on the GPU passes an operand's payload on (measured on an H100: `inf - inf` gives
//! `0xFFF8000000000000`, `x + NaN` gives that NaN quieted, and with two NaN operands
//! either one, in an order ptxas picks), which the interpreter does not model (it returns
//! one canonical NaN). When a kernel bitcasts an f64 tile to integers
//! ([`Policy::f64_nan_payloads`]), a 64-bit integer element that reads as an f64 NaN on
//! both sides matches.
//!
//! Bitcasts: a float with a tolerance that a kernel bitcasts to integers and stores
//! carries its tolerance into the integer buffer (random kernel seed 9151: a bf16 product
//! reduction, bitcast to i16, one ulp apart). When the policy is not exact, an integer
//! buffer whose width is that of a float type the kernel bitcasts to integers
//! ([`Policy::bitcast_floats`]) is compared as that float type.
//!
//! Integers computed from inexact values: a kernel may shift, truncate or test the bits
//! of an inexact float (random kernel seed 23766: `atan2`'s bits shifted by their own low
//! bits), convert it to an integer and gather with it (seed 53507), or truncate an f64
//! NaN's open payload (seed 71326); one ulp then changes the integer arbitrarily. A
//! forward taint analysis finds the buffers a store may fill with such integers
//! ([`Policy::opaque_ints`]); an integer buffer among them is reported as not compared.

use tilec_ir::attrs::RoundingMode;
use tilec_ir::float::{self, FloatKind};
use tilec_ir::ops::{Effects, Traits};
use tilec_ir::{EnumKind, Module, Op, Opcode, Type, TypeData};
use tilec_ptx::math::{MathFn, Prec, ulp_bound};

/// One reason results may differ.
#[derive(Clone, Debug, PartialEq)]
pub struct Source {
    /// The op.
    pub op: Op,
    /// What it is: "reduce of 1024 f32 terms", "exp (1 ulp, f32)".
    pub what: String,
    /// Its error term, relative to the magnitude of the values (units of 1).
    pub relative: f64,
    /// It approximates a function (rather than combining terms in an open order, or
    /// rounding an input that differs): [`Policy::perturbation`].
    pub approximate: bool,
}

/// The comparison a kernel gets.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Policy {
    /// Every op whose result may legitimately differ. Empty: bit-exact.
    pub sources: Vec<Source>,
    /// Compare bit for bit even with sources (inputs that make every order exact).
    pub force_exact: bool,
    /// The kernel bitcasts f64 values to integers, so 64-bit integer results may carry
    /// f64 NaN payloads, which the spec leaves open (module documentation).
    pub f64_nan_payloads: bool,
    /// A reduction or scan multiplies or divides float terms, so an element at the edge
    /// of the range (zero, subnormal, infinite, NaN) on one side may be anything on the
    /// other (module documentation).
    pub products: bool,
    /// Float kinds the kernel bitcasts to integers: an integer buffer of one's width may
    /// hold such bits, which carry the float's tolerance, so its elements are compared
    /// as that float (module documentation).
    pub bitcast_floats: Vec<FloatKind>,
    /// Entry parameters (positions) of buffers that a store may fill with integers
    /// computed from inexact floats (through a bitcast, a comparison, a branch): such an
    /// integer buffer is not compared (module documentation).
    pub opaque_ints: Vec<usize>,
    /// A reduction or scan adds float terms, so a sum that overflows (to an infinity, or
    /// NaN from infinities of both signs) in one order may be finite in another: a
    /// non-finite element on one side matches any value (module documentation).
    pub sums: bool,
    /// Entry parameters (positions) of float buffers that a store may fill with values an
    /// ill-conditioned function (`sin`, `cos`, `tan`, `exp`, `exp2`, `sinh`, `cosh`,
    /// `pow`) or a discontinuous one (`remf`, `floor`, `ceil`, `ftoi`, a comparison)
    /// computed from an inexact value: it turns the input's difference into any
    /// difference, so such a buffer is held only to NaN where NaN (module
    /// documentation).
    pub amplified: Vec<usize>,
}

/// The unit roundoff of a float kind: 2^-precision.
fn unit_roundoff(k: FloatKind) -> f64 {
    (-(f64::from(k.precision()))).exp2()
}

/// The error term of an op within `ulps` ulps, computed in f32 (f64 for f64) and, for
/// narrower types, rounded once more: doubled for the error it passes on.
fn approx_term(k: FloatKind, ulps: f64) -> f64 {
    let wide = if k == FloatKind::F64 {
        FloatKind::F64
    } else {
        FloatKind::F32
    };
    let narrow = if k.precision() < wide.precision() {
        unit_roundoff(k)
    } else {
        0.0
    };
    2.0 * ulps * unit_roundoff(wide) + narrow
}

/// Whether a float op's result depends on the order its operands are combined in when
/// it is the body of a reduction (min/max and integer ops do not).
fn order_dependent(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::AddF | Opcode::SubF | Opcode::MulF | Opcode::DivF | Opcode::Fma
    )
}

impl Policy {
    /// The policy of `entry` compiled with `fast_math`, run on `grid` tile blocks.
    #[must_use]
    pub fn of(m: &Module, entry: Op, fast_math: bool, grid: [u32; 3]) -> Policy {
        let types = &m.ctx.types;
        let kind_of = |t: Type| tilec_ir::attrs::float_kind(types, types.element_type(t));
        let mut sources = Vec::new();
        // Roundings to a narrower float: exact on both sides of the same input, but an
        // input that differs by any amount (an inexact op upstream) can round to the
        // neighbouring value, one ulp of the narrow type, which the ops after it carry on.
        let mut narrowings: Vec<Source> = Vec::new();
        let mut f64_nan_payloads = false;
        let mut products = false;
        let mut sums = false;
        let mut bitcast_floats: Vec<FloatKind> = Vec::new();
        let mut add = |op: Op, what: String, relative: f64, approximate: bool| {
            sources.push(Source {
                op,
                what,
                relative,
                approximate,
            });
        };
        m.walk_op(entry, &mut |op| {
            let code = m.opcode(op);
            let result_kind = m.results(op).next().and_then(|v| kind_of(m.value_type(v)));
            if code == Opcode::Bitcast
                && let Some(src) = m.operands(op).next()
                && let Some(k) = kind_of(m.value_type(src))
                && result_kind.is_none()
            {
                f64_nan_payloads |= k == FloatKind::F64;
                if !bitcast_floats.contains(&k) {
                    bitcast_floats.push(k);
                }
            }
            if code == Opcode::FToF
                && let (Some(src), Some(k)) = (m.operands(op).next(), result_kind)
                && kind_of(m.value_type(src)).is_some_and(|w| w.precision() > k.precision())
            {
                narrowings.push(Source {
                    op,
                    what: format!(
                        "ftof to {} (an input that differs may round to the next value)",
                        k.name()
                    ),
                    relative: 2.0 * unit_roundoff(k),
                    approximate: false,
                });
            }
            match code {
                Opcode::Reduce | Opcode::Scan => {
                    let mut float_body = false;
                    m.walk_op(op, &mut |o| {
                        let t = m.results(o).next().map(|v| m.value_type(v));
                        let float = t.and_then(kind_of).is_some();
                        float_body |= order_dependent(m.opcode(o)) && float;
                        products |= matches!(m.opcode(o), Opcode::MulF | Opcode::DivF) && float;
                        sums |= matches!(m.opcode(o), Opcode::AddF | Opcode::SubF | Opcode::Fma)
                            && float;
                    });
                    let Some(src) = m.operands(op).next() else {
                        return;
                    };
                    let Some(k) = kind_of(m.value_type(src)).filter(|_| float_body) else {
                        return;
                    };
                    let shape = types.shape(m.value_type(src));
                    let n = if code == Opcode::Reduce {
                        let out: i64 = m
                            .results(op)
                            .next()
                            .map_or(1, |v| types.shape(m.value_type(v)).iter().product());
                        shape.iter().product::<i64>() / out.max(1)
                    } else {
                        shape.iter().copied().max().unwrap_or(1)
                    };
                    let name = if code == Opcode::Reduce {
                        "reduce"
                    } else {
                        "scan"
                    };
                    add(
                        op,
                        format!("{name} of {n} {} terms", k.name()),
                        2.0 * (n - 1).max(0) as f64 * unit_roundoff(k),
                        false,
                    );
                }
                Opcode::MmaF => {
                    let ops: Vec<_> = m.operands(op).collect();
                    let (Some(&a), Some(&c)) = (ops.first(), ops.get(2)) else {
                        return;
                    };
                    let kdim = types.shape(m.value_type(a)).last().copied().unwrap_or(1);
                    let Some(k) = kind_of(m.value_type(c)) else {
                        return;
                    };
                    add(
                        op,
                        format!("mmaf over K = {kdim} into {}", k.name()),
                        2.0 * kdim as f64 * unit_roundoff(k),
                        false,
                    );
                }
                Opcode::AtomicRmwTko => {
                    let mode = m
                        .attr_named(op, "mode")
                        .and_then(|a| m.ctx.attrs.get_enum(a, EnumKind::AtomicRmwMode))
                        .map(|i| EnumKind::AtomicRmwMode.cases()[usize::from(i)]);
                    let Some(k) = result_kind.filter(|_| mode == Some("addf")) else {
                        return;
                    };
                    let blocks = grid.iter().map(|&g| u64::from(g)).product::<u64>();
                    add(
                        op,
                        format!("atomic addf from {blocks} tile blocks ({})", k.name()),
                        2.0 * blocks as f64 * unit_roundoff(k),
                        false,
                    );
                }
                Opcode::DivF | Opcode::Sqrt => {
                    let mode = m
                        .attr_named(op, "rounding_mode")
                        .and_then(|a| m.ctx.attrs.get_enum(a, EnumKind::RoundingMode))
                        .and_then(RoundingMode::from_index);
                    let ulps = match mode {
                        Some(RoundingMode::Approx) => 4.0,
                        Some(RoundingMode::Full) => 2.0,
                        _ => return,
                    };
                    let Some(k) = result_kind else { return };
                    let name = if code == Opcode::DivF { "divf" } else { "sqrt" };
                    add(
                        op,
                        format!(
                            "{name} {} ({ulps} ulp, {})",
                            mode.map_or("", |m| m.name()),
                            k.name()
                        ),
                        approx_term(k, ulps),
                        true,
                    );
                }
                c => {
                    let (Some(f), Some(k)) = (MathFn::of_opcode(c), result_kind) else {
                        return;
                    };
                    let prec = if k == FloatKind::F64 {
                        Prec::F64
                    } else {
                        Prec::F32
                    };
                    // `rounding<approx>` on the op asks for the fast sequence, as
                    // `--fast-math` does for every op (tilec-ptx's math functions).
                    let fast = fast_math
                        || m.attr_named(op, "rounding_mode")
                            .and_then(|a| m.ctx.attrs.get_enum(a, EnumKind::RoundingMode))
                            .and_then(RoundingMode::from_index)
                            == Some(RoundingMode::Approx);
                    let ulps = ulp_bound(f, prec, fast);
                    if ulps == 0.0 {
                        return;
                    }
                    add(
                        op,
                        format!(
                            "{} ({ulps} ulp{}, {})",
                            m.def(op).name,
                            if fast { ", fast math" } else { "" },
                            k.name()
                        ),
                        approx_term(k, ulps + 1.0),
                        true,
                    );
                }
            }
        });
        let (opaque_ints, amplified) = if sources.is_empty() && !f64_nan_payloads {
            (Vec::new(), Vec::new())
        } else {
            let inexact: Vec<Op> = sources.iter().map(|s| s.op).collect();
            tainted_params(m, entry, &inexact)
        };
        if !sources.is_empty() {
            sources.extend(narrowings);
        }
        Policy {
            sources,
            force_exact: false,
            f64_nan_payloads,
            products,
            bitcast_floats,
            opaque_ints,
            sums,
            amplified,
        }
    }

    /// Whether results must match bit for bit.
    #[must_use]
    pub fn exact(&self) -> bool {
        self.force_exact || self.sources.is_empty()
    }

    /// B: the sum of the error terms (0 when [`Policy::exact`]).
    #[must_use]
    pub fn budget(&self) -> f64 {
        if self.exact() {
            0.0
        } else {
            self.sources.iter().map(|s| s.relative).sum()
        }
    }

    /// How far the variant runs of the interpreter move approximate results
    /// ([`tilec_interp::Variant::perturb`]): the largest term of an approximation (0 when
    /// there is none), finite.
    #[must_use]
    pub fn perturbation(&self) -> f64 {
        self.sources
            .iter()
            .filter(|s| s.approximate && s.relative.is_finite())
            .map(|s| s.relative)
            .fold(0.0, f64::max)
    }

    /// The variant runs of the interpreter that a mismatch is checked against again
    /// ([`compare_with`]): float reductions, scans and products pairwise with
    /// approximations moved up, and in reverse with approximations moved down. None when
    /// [`Policy::exact`].
    #[must_use]
    pub fn variants(&self) -> Vec<tilec_interp::Variant> {
        use tilec_interp::{Order, Variant};
        if self.exact() {
            return Vec::new();
        }
        let p = self.perturbation();
        vec![
            Variant {
                order: Order::Tree,
                perturb: p,
            },
            Variant {
                order: Order::Reversed,
                perturb: -p,
            },
        ]
    }
}

/// The entry parameters (positions) that a store may fill with values computed from the
/// results of `inexact` ops ([`Policy::opaque_ints`]; the first list), and those it may
/// fill with values an ill-conditioned function computed from such values
/// ([`Policy::amplified`]; the second): forward taint from those results through every op (an op
/// with a tainted operand taints its results; a region op whose operands or whose
/// terminators' operands are tainted taints its results and its blocks' arguments, all
/// but a `for`'s induction variable), then every store with a tainted operand (its
/// value, mask or addresses), or that sits in a region op with a tainted operand (a
/// branch or a trip count decided by an inexact value), names the parameters its
/// pointers and views come from. An over-approximation: it may name a parameter whose
/// values are in fact exact, never miss one.
fn tainted_params(m: &Module, entry: Op, inexact: &[Op]) -> (Vec<usize>, Vec<usize>) {
    use std::collections::HashSet;
    use tilec_ir::{Value, ValueDef};
    let types = &m.ctx.types;
    let mut tainted: HashSet<Value> = inexact.iter().flat_map(|&op| m.results(op)).collect();
    // Float bits as integers: f64's NaN payloads are open (the module documentation), an
    // inexact float's bits carry its error. Moved as they are, they reach a buffer whose
    // comparison allows for that (the NaN rule of 64-bit integers, integers compared as
    // the float they came from); any other op on them (a truncation, a shift,
    // arithmetic) taints its results.
    let mut payload: HashSet<Value> = HashSet::new();
    m.walk_op(entry, &mut |op| {
        if m.opcode(op) == Opcode::Bitcast
            && let (Some(src), Some(r)) = (m.operands(op).next(), m.results(op).next())
            && matches!(
                types.get(types.element_type(m.value_type(src))),
                TypeData::Float(FloatKind::F64)
            )
            && matches!(
                types.get(types.element_type(m.value_type(r))),
                TypeData::Int(_)
            )
        {
            payload.insert(r);
        }
    });
    let moves = |o: Op| {
        matches!(
            m.opcode(o),
            Opcode::Reshape
                | Opcode::Broadcast
                | Opcode::Extract
                | Opcode::Permute
                | Opcode::Cat
                | Opcode::Select
        )
    };
    let terminator = |o: Op| m.def(o).has(Traits::TERMINATOR);
    loop {
        let before = tainted.len() + payload.len();
        m.walk_op(entry, &mut |op| {
            // An inexact float's bits as integers, moved as they are, are compared as
            // that float ([`Policy::bitcast_floats`]).
            if m.opcode(op) == Opcode::Bitcast
                && m.operands(op).any(|v| tainted.contains(&v))
                && m.results(op).all(|r| {
                    matches!(
                        types.get(types.element_type(m.value_type(r))),
                        TypeData::Int(_)
                    )
                })
            {
                payload.extend(m.results(op));
                return;
            }
            if m.operands(op).any(|v| payload.contains(&v)) {
                if moves(op) {
                    payload.extend(m.results(op));
                } else if m.regions(op).is_empty() && !terminator(op) {
                    tainted.extend(m.results(op));
                }
            }
            let mut hit = m.operands(op).any(|v| tainted.contains(&v));
            if !m.regions(op).is_empty() {
                let mut moved = false;
                m.walk_op(op, &mut |inner| {
                    if terminator(inner) {
                        hit |= m.operands(inner).any(|v| tainted.contains(&v));
                        moved |= m.operands(inner).any(|v| payload.contains(&v));
                    }
                });
                if moved {
                    payload.extend(m.results(op));
                }
            }
            if hit {
                spread(m, op, &mut tainted);
            }
        });
        if tainted.len() + payload.len() == before {
            break;
        }
    }
    // Values an ill-conditioned or discontinuous function computed from an inexact
    // input, and everything computed from them.
    let mut amplified: HashSet<Value> = HashSet::new();
    m.walk_op(entry, &mut |op| {
        if matches!(
            m.opcode(op),
            Opcode::Sin
                | Opcode::Cos
                | Opcode::Tan
                | Opcode::Exp
                | Opcode::Exp2
                | Opcode::SinH
                | Opcode::CosH
                | Opcode::PowF
                // Discontinuous: a jump (of a floor, a remainder, a truncation to an
                // integer, a comparison that picks another value) anywhere.
                | Opcode::RemF
                | Opcode::Floor
                | Opcode::Ceil
                | Opcode::FToI
                | Opcode::CmpF
        ) && m.operands(op).any(|v| tainted.contains(&v))
        {
            amplified.extend(m.results(op));
        }
        // Floats from integers, pointers or conditions computed from inexact values (an
        // `itof`, a bitcast, a gather through such an index, a select by such a
        // condition: random kernels 603909, 613023): any value.
        let float_result = m.results(op).any(|r| {
            matches!(
                types.get(types.element_type(m.value_type(r))),
                TypeData::Float(_)
            )
        });
        if float_result
            && m.regions(op).is_empty()
            && m.operands(op).any(|v| {
                (tainted.contains(&v) || payload.contains(&v))
                    && !matches!(
                        types.get(types.element_type(m.value_type(v))),
                        TypeData::Float(_)
                    )
            })
        {
            amplified.extend(m.results(op));
        }
    });
    loop {
        let before = amplified.len();
        m.walk_op(entry, &mut |op| {
            let mut hit = m.operands(op).any(|v| amplified.contains(&v));
            if !m.regions(op).is_empty() {
                m.walk_op(op, &mut |inner| {
                    hit |= terminator(inner) && m.operands(inner).any(|v| amplified.contains(&v));
                });
            }
            if hit {
                spread(m, op, &mut amplified);
            }
        });
        if amplified.len() == before {
            break;
        }
    }
    let pointer_like = |v: Value| {
        let t = m.value_type(v);
        types.is_view(t) || matches!(types.get(types.element_type(t)), TypeData::Ptr(_))
    };
    let params: Vec<Value> = m
        .regions(entry)
        .first()
        .and_then(|&r| m.region_blocks(r).first())
        .map(|&b| m.block_args(b).to_vec())
        .unwrap_or_default();
    // The parameters every store with an operand in `set`, or under a region op with one,
    // may write.
    let targets = |set: &HashSet<Value>| {
        let mut out = Vec::new();
        m.walk_op(entry, &mut |op| {
            if !matches!(m.def(op).effects, Effects::Write | Effects::ReadWrite) {
                return;
            }
            let mut hit = m.operands(op).any(|v| set.contains(&v));
            let mut up = m.parent_op(op);
            while let Some(p) = up.filter(|&p| p != entry) {
                hit |= m.operands(p).any(|v| set.contains(&v));
                up = m.parent_op(p);
            }
            if !hit {
                return;
            }
            // The parameters behind its pointers and views.
            let mut stack: Vec<Value> = m.operands(op).filter(|&v| pointer_like(v)).collect();
            let mut seen = HashSet::new();
            while let Some(v) = stack.pop() {
                if !seen.insert(v) {
                    continue;
                }
                match m.value_def(v) {
                    ValueDef::Arg(b, _) => match params.iter().position(|&p| p == v) {
                        Some(i) if !out.contains(&i) => out.push(i),
                        Some(_) => {}
                        // A region's argument (a pointer carried by a loop): the pointers
                        // its op starts from.
                        None => {
                            if let Some(owner) = m.block_parent_op(b) {
                                stack.extend(m.operands(owner).filter(|&u| pointer_like(u)));
                            }
                        }
                    },
                    ValueDef::Result(d, _) => {
                        stack.extend(m.operands(d).filter(|&u| pointer_like(u)));
                    }
                    ValueDef::Placeholder => {}
                }
            }
        });
        out.sort_unstable();
        out
    };
    (targets(&tainted), targets(&amplified))
}

/// `op`'s results, and the arguments of its regions' blocks but a `for`'s induction
/// variable, join `set` (a value computed from one in the set reaches them).
fn spread(m: &Module, op: Op, set: &mut std::collections::HashSet<tilec_ir::Value>) {
    set.extend(m.results(op));
    let skip = usize::from(m.opcode(op) == Opcode::For);
    for &r in m.regions(op) {
        for &b in m.region_blocks(r) {
            set.extend(m.block_args(b).iter().skip(skip).copied());
        }
    }
}

/// One element that differs beyond what the policy allows.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// Its index (row-major).
    pub index: usize,
    /// What the GPU wrote (bit pattern, as [`tilec_interp::npy::Array`] holds elements).
    pub got: u64,
    /// What the interpreter computed.
    pub want: u64,
}

/// The comparison of one buffer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Compared {
    /// Elements compared.
    pub elements: usize,
    /// Elements that differ beyond the bound.
    pub mismatches: usize,
    /// The first few of them.
    pub first: Vec<Mismatch>,
    /// The largest difference seen, in ulps of the reference value (0 for integers and
    /// bit-exact matches).
    pub worst_ulps: f64,
    /// Elements that differ at all (within the bound or not).
    pub inexact: usize,
    /// Not compared: integers that may be computed from inexact floats
    /// ([`Policy::opaque_ints`]).
    pub unchecked: bool,
    /// Elements beyond the bound that pass within the spread of the variant runs
    /// ([`compare_with`]).
    pub within_spread: usize,
}

/// How many mismatches [`Compared::first`] keeps.
pub const FIRST_MISMATCHES: usize = 8;

/// The distance from |v| to the next representable magnitude of kind `k` (the gap below
/// for the largest finite value).
#[must_use]
pub fn ulp(k: FloatKind, bits: u64) -> f64 {
    let sign = 1u64 << (k.bit_width() - 1);
    let mag = bits & (sign - 1);
    let here = float::to_f64(k, mag);
    let up = float::to_f64(k, mag + 1);
    if up.is_finite() && !float::is_nan(k, mag + 1) {
        up - here
    } else {
        here - float::to_f64(k, mag - 1)
    }
}

/// Compares `got` with `want`, elements of type `elem`, under `policy`.
#[must_use]
pub fn compare(
    types: &tilec_ir::TypeStore,
    elem: Type,
    got: &[u64],
    want: &[u64],
    policy: &Policy,
) -> Compared {
    compare_with(types, elem, got, want, policy, &[])
}

/// [`compare`], with the same buffer from variant runs of the interpreter
/// ([`Policy::variants`]): an element of a float buffer also passes when it lies within
/// twice the variants' largest distance from `want` (beyond the bound), since the spec
/// allows each variant's result as well as the interpreter's own; where the result is
/// ill-conditioned (a sum whose terms cancel, `x - sinh(x)` for small x) they spread by
/// the amount a device may differ by. A variant that is not finite where `want` is
/// allows any finite value (a sum that overflows in some orders).
#[must_use]
pub fn compare_with(
    types: &tilec_ir::TypeStore,
    elem: Type,
    got: &[u64],
    want: &[u64],
    policy: &Policy,
    variants: &[Vec<u64>],
) -> Compared {
    let mut c = Compared {
        elements: want.len(),
        ..Compared::default()
    };
    let budget = policy.budget();
    let kind = match types.get(elem) {
        TypeData::Float(k) => Some(*k),
        // Integers that may be a float's bits (f16 before bf16 for 16 bits: the first
        // bitcast the kernel holds).
        TypeData::Int(w) if budget > 0.0 => policy
            .bitcast_floats
            .iter()
            .copied()
            .find(|k| k.bit_width() == *w),
        _ => None,
    };
    let scale = match kind {
        Some(k) if budget > 0.0 => want
            .iter()
            .map(|&b| float::to_f64(k, b).abs())
            .filter(|v| v.is_finite())
            .fold(0.0, f64::max),
        _ => 0.0,
    };
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        if g == w {
            continue;
        }
        let edge = |k: FloatKind, b: u64| {
            let v = float::to_f64(k, b);
            v == 0.0 || !v.is_finite() || float::is_subnormal(k, b)
        };
        let ok = match kind {
            Some(k) if policy.products && (edge(k, g) || edge(k, w)) => true,
            Some(k)
                if policy.sums
                    && budget > 0.0
                    && (!float::to_f64(k, g).is_finite() || !float::to_f64(k, w).is_finite()) =>
            {
                true
            }
            None if policy.f64_nan_payloads && types.get(elem) == &TypeData::Int(64) => {
                float::is_nan(FloatKind::F64, g) && float::is_nan(FloatKind::F64, w)
            }
            None => false,
            Some(k) if float::is_nan(k, g) || float::is_nan(k, w) => {
                float::is_nan(k, g) && float::is_nan(k, w)
            }
            Some(k) => {
                let (gv, wv) = (float::to_f64(k, g), float::to_f64(k, w));
                let unit = ulp(k, w);
                let diff = (gv - wv).abs();
                if diff.is_finite() {
                    c.worst_ulps = c.worst_ulps.max(diff / unit);
                }
                c.inexact += 1;
                // An unbounded term (fast-math `pow`) allows any number, an infinity
                // included: its overflow threshold moves with the approximation.
                // Near zero, a few of the smallest normals: the residue of a sum that
                // cancels exactly in one order and not in another (random kernel 616713:
                // a bf16 sum of near-minimal terms, 1.2e-38 against 0).
                let floor = 4.0 * float::to_f64(k, 1u64 << (k.precision() - 1));
                let bound = budget * (wv.abs() + scale) + unit + floor;
                let finite = wv.is_finite() && gv.is_finite();
                budget == f64::INFINITY
                    || budget > 0.0 && finite && diff <= bound
                    || budget > 0.0 && finite && {
                        let spread = variants
                            .iter()
                            .filter_map(|v| v.get(i))
                            .map(|&b| (float::to_f64(k, b) - wv).abs())
                            .map(|d| if d.is_nan() { f64::INFINITY } else { d })
                            .fold(0.0, f64::max);
                        let within = diff <= bound + 2.0 * spread;
                        c.within_spread += usize::from(within);
                        within
                    }
            }
        };
        if !ok {
            c.mismatches += 1;
            if c.first.len() < FIRST_MISMATCHES {
                c.first.push(Mismatch {
                    index: i,
                    got: g,
                    want: w,
                });
            }
        }
    }
    if got.len() != want.len() {
        c.mismatches += want.len().abs_diff(got.len());
    }
    c
}

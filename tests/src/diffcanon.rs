//! Differential canonicalization (issue 6): a module's functions are run by the reference
//! interpreter (tilec-interp) on random inputs before and after canonicalization, and must
//! give the same results.
//!
//! [`check_text`] parses and verifies a module and, for every function (`testing$func` or
//! `entry`) whose parameters are all tiles (of pointers too), draws [`Config::inputs`]
//! random inputs (biased to special values: ±0, ±infinity, NaNs, subnormals, the largest
//! finite value, integer minimum and maximum, 0, 1, -1; sometimes one value for the whole
//! tile, sometimes equal arguments). Each pointer argument gets its own buffer of random
//! elements: at least 64 elements for a `testing$func` (a tile of pointers points at
//! consecutive ones, forward or backward, or all at the first), 64 KiB for an `entry`,
//! whose integer arguments are then small (they are sizes, strides and trip counts).
//!
//! Each input runs on the original module, then on each [`Variant`]: the module
//! canonicalized in the spec personality, in the cuda-tile-opt personality (when the input
//! verifies there), canonicalized then `cse` and `dce`, canonicalized with the
//! FoldSelect fold disabled (so that the select patterns it shadows fire), NVIDIA's
//! `loop-split`, and NVIDIA's `fuse-fma`, which is not numeric-preserving and so is
//! compared modulo contraction ([`unfuse`]: both sides with every `fma` written back as
//! `mulf` + `addf`, then bit for bit). Every variant's output must verify. If the original run reports undefined behaviour (or a
//! failed `assert`), the input is skipped: the canonicalizer may assume it does not
//! happen; so is an input on which it runs more than 100,000 ops (a `loop` that may not
//! end). Otherwise each variant must run cleanly too and give the same results, the same
//! printed text and the same buffer contents, **bit for bit, NaNs included**. That is
//! exact, not lenient: no fold creates a NaN (FoldAddF refuses NaN and infinite operands
//! and overflowing sums), the interpreter's float arithmetic always returns one canonical
//! NaN, and a rewrite that only moves a NaN (`select`, a swapped `addf`) moves the same
//! bits.
//!
//! A function the interpreter cannot run at all (unregistered or GPU-level ops) is counted
//! as skipped, with the reason.

use crate::kernelgen::{Rng, float_bits, int_bits};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::rc::Rc;
use tilec_interp::value::Tile;
use tilec_interp::{Memory, RunError};
use tilec_ir::float::FloatKind;
use tilec_ir::ops::Traits;
use tilec_ir::{InsertPoint, Module, Op, OpSpec, Opcode, Type, TypeData};
use tilec_opt::{CanonOptions, Pass, PassOptions, Personality, Stats};

/// How much to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Random inputs per function of tiles only.
    pub inputs: usize,
    /// Random inputs per kernel (`entry`) with pointer parameters (they run bigger kernels).
    pub pointer_inputs: usize,
    /// Mixed into every input's seed.
    pub seed: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            inputs: 8,
            pointer_inputs: 1,
            seed: 0xd1ff,
        }
    }
}

/// A pipeline whose output is compared with its input.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Variant {
    /// `canonicalize` in the spec personality (with the expression simplifier).
    Canonicalize,
    /// `canonicalize` in the cuda-tile-opt personality.
    CanonicalizeCompat,
    /// `canonicalize,cse,dce` in the spec personality.
    CanonicalizeCseDce,
    /// `canonicalize --disable-patterns=FoldSelect` in the spec personality: the select
    /// patterns do the fold's work (they only fire where the fold does not).
    CanonicalizeNoFoldSelect,
    /// NVIDIA's `loop-split` (compared exactly: splitting a loop changes no value).
    LoopSplit,
    /// NVIDIA's `fuse-fma`, compared modulo contraction: see [`unfuse`].
    FuseFma,
}

impl Variant {
    /// Every variant.
    pub const ALL: &'static [Variant] = &[
        Variant::Canonicalize,
        Variant::CanonicalizeCompat,
        Variant::CanonicalizeCseDce,
        Variant::CanonicalizeNoFoldSelect,
        Variant::LoopSplit,
        Variant::FuseFma,
    ];

    /// A short name.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Canonicalize => "canonicalize",
            Variant::CanonicalizeCompat => "canonicalize (cuda-tile-opt)",
            Variant::CanonicalizeCseDce => "canonicalize,cse,dce",
            Variant::CanonicalizeNoFoldSelect => "canonicalize without FoldSelect",
            Variant::LoopSplit => "loop-split",
            Variant::FuseFma => "fuse-fma (modulo contraction)",
        }
    }

    fn personality(self) -> Personality {
        match self {
            Variant::CanonicalizeCompat => Personality::CudaTileOpt,
            Variant::Canonicalize
            | Variant::CanonicalizeCseDce
            | Variant::CanonicalizeNoFoldSelect
            | Variant::LoopSplit
            | Variant::FuseFma => Personality::Spec,
        }
    }

    fn passes(self) -> &'static [Pass] {
        match self {
            Variant::CanonicalizeCseDce => &[Pass::Canonicalize, Pass::Cse, Pass::Dce],
            Variant::LoopSplit => &[Pass::LoopSplit { split_threshold: 1 }],
            Variant::FuseFma => &[Pass::FuseFma],
            Variant::Canonicalize
            | Variant::CanonicalizeCompat
            | Variant::CanonicalizeNoFoldSelect => &[Pass::Canonicalize],
        }
    }
}

/// Replaces every `fma(a, b, c)` of `m` by `addf(mulf(a, b), c)`, both with the `fma`'s
/// rounding mode and flush-to-zero.
///
/// `fuse-fma` is not numeric-preserving (one rounding instead of two), so its output is not
/// compared with its input directly; a tolerance would not do either, since a last-bit
/// difference can grow without bound through later ops (a comparison, a conversion to
/// integer, a product that overflows in one and not the other). Instead both sides are
/// un-fused and compared **bit for bit**: `unfuse(fuse-fma(M))` must compute what
/// `unfuse(M)` computes. For each pair the pass fused, un-fusing gives back
/// `addf(mulf(a, b), c)` with the modes both ops had (the pass requires them equal), the
/// original's `addf(c, mulf(a, b))` up to commutation (IEEE addition commutes, and the
/// interpreter's NaN is canonical), and for `subf(mulf(a, b), c)` the sum with `negf(c)`,
/// which IEEE defines `x - c` to be. So exactly the contraction itself is abstracted away,
/// and everything else the pass does (which ops it pairs, operands, modes, the negation,
/// the folds and erasures of its greedy driver) is checked exactly.
pub fn unfuse(m: &mut Module) {
    let mut fmas = Vec::new();
    m.walk(|op| {
        if m.opcode(op) == Opcode::Fma {
            fmas.push(op);
        }
    });
    for f in fmas {
        let (a, b, c) = (m.operand(f, 0), m.operand(f, 1), m.operand(f, 2));
        let ty = m.value_type(m.result(f, 0));
        let attrs = [m.attr(f, 0), m.attr(f, 1)];
        let mul = m.create_op(
            &OpSpec {
                opcode: Opcode::MulF,
                operands: &[a, b],
                results: &[ty],
                attrs: &attrs,
                regions: 0,
            },
            InsertPoint::Before(f),
        );
        let prod = m.result(mul, 0);
        let add = m.create_op(
            &OpSpec {
                opcode: Opcode::AddF,
                operands: &[prod, c],
                results: &[ty],
                attrs: &attrs,
                regions: 0,
            },
            InsertPoint::Before(f),
        );
        let (from, to) = (m.result(f, 0), m.result(add, 0));
        m.replace_all_uses(from, to);
        m.erase_op(f);
    }
}

/// A difference between a module and its canonicalized form (or an invalid output).
#[derive(Clone, Debug)]
pub struct Failure {
    /// The case's name.
    pub case: String,
    /// The pipeline.
    pub variant: &'static str,
    /// The function (empty for a whole-module failure).
    pub function: String,
    /// What went wrong.
    pub what: String,
    /// The input module.
    pub module: String,
    /// The pipeline's output module.
    pub output: String,
    /// The arguments.
    pub input: String,
    /// What the original gave.
    pub before: String,
    /// What the output gave.
    pub after: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "MISMATCH in {} ({}), function @{}: {}",
            self.case, self.variant, self.function, self.what
        )?;
        writeln!(f, "--- module ---\n{}", self.module.trim_end())?;
        writeln!(
            f,
            "--- after {} ---\n{}",
            self.variant,
            self.output.trim_end()
        )?;
        if !self.input.is_empty() {
            writeln!(f, "--- input ---\n{}", self.input.trim_end())?;
            writeln!(f, "--- before ---\n{}", self.before.trim_end())?;
            writeln!(f, "--- after ---\n{}", self.after.trim_end())?;
        }
        Ok(())
    }
}

/// Figures of a differential run.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Modules checked.
    pub cases: u64,
    /// Modules that do not parse (with the first few names and errors).
    pub unparsed: u64,
    /// Modules that parse but do not verify.
    pub unverified: u64,
    /// Names and first diagnostics of unparsed or unverified modules (the first 20).
    pub rejected: Vec<String>,
    /// Functions seen.
    pub functions: u64,
    /// Functions run on at least one input.
    pub functions_run: u64,
    /// Functions not run, by reason.
    pub functions_skipped: BTreeMap<String, u64>,
    /// Inputs drawn.
    pub inputs: u64,
    /// Inputs on which the original reports undefined behaviour (skipped).
    pub inputs_ub: u64,
    /// Inputs on which the original runs past the operation limit (it may not terminate;
    /// skipped).
    pub inputs_over_limit: u64,
    /// Functions skipped because every input was undefined behaviour (or ran too long),
    /// with the last error (the first 50).
    pub ub_functions: Vec<String>,
    /// Runs of a pipeline's output compared with the original's.
    pub comparisons: u64,
    /// Variants not run, by reason.
    pub variants_skipped: BTreeMap<String, u64>,
    /// How often each rule fired, over every pipeline run.
    pub rules: BTreeMap<&'static str, u64>,
    /// Mismatches and invalid outputs.
    pub failures: Vec<Failure>,
}

impl Report {
    fn skip_function(&mut self, why: &str) {
        *self.functions_skipped.entry(why.to_string()).or_default() += 1;
    }

    fn skip_variant(&mut self, why: String) {
        *self.variants_skipped.entry(why).or_default() += 1;
    }

    /// A summary, one figure per line.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "modules checked:       {}", self.cases);
        let _ = writeln!(s, "  not parsed:          {}", self.unparsed);
        let _ = writeln!(s, "  not verified:        {}", self.unverified);
        let _ = writeln!(s, "functions:             {}", self.functions);
        let _ = writeln!(s, "  run:                 {}", self.functions_run);
        for (why, n) in &self.functions_skipped {
            let _ = writeln!(s, "  skipped ({why}): {n}");
        }
        let _ = writeln!(s, "inputs run:            {}", self.inputs);
        let _ = writeln!(s, "  skipped for UB:      {}", self.inputs_ub);
        let _ = writeln!(s, "  skipped, too long:   {}", self.inputs_over_limit);
        let _ = writeln!(s, "runs compared:         {}", self.comparisons);
        for (why, n) in &self.variants_skipped {
            let _ = writeln!(s, "  variant skipped ({why}): {n}");
        }
        let _ = writeln!(s, "mismatches:            {}", self.failures.len());
        let _ = writeln!(s, "rules fired (all pipelines):");
        for (k, v) in &self.rules {
            let _ = writeln!(s, "  {k:<24} {v}");
        }
        s
    }
}

/// A module text to check, with a name for reports.
#[derive(Clone, Debug)]
pub struct Case {
    /// Where it comes from (`file:line` or `file#chunk`).
    pub name: String,
    /// The module text.
    pub text: String,
}

/// The name of a function op.
fn func_name(m: &Module, f: Op) -> String {
    m.sym_name(f).unwrap_or("?").to_string()
}

fn functions(m: &Module) -> Vec<Op> {
    let mut out = Vec::new();
    m.walk(|op| {
        if m.def(op).has(Traits::FUNCTION) {
            out.push(op);
        }
    });
    out
}

fn verify_errors(m: &Module, personality: Personality) -> Vec<String> {
    tilec_verify::verify(
        m,
        &tilec_verify::VerifyOptions {
            personality,
            ..Default::default()
        },
    )
    .iter()
    .filter(|d| d.is_error())
    .map(|d| d.message.clone())
    .collect()
}

fn print(m: &Module) -> String {
    tilec_ir::print::print_module(m, &tilec_ir::print::PrintOptions::default())
}

/// The functions of a module that can run, with their parameters.
type Runnable = Vec<(Op, Vec<Param>)>;

/// What a parameter needs.
#[derive(Clone, Debug)]
enum Param {
    /// A tile of `elem` and `shape`.
    Tile(Type, Vec<i64>),
    /// A tile of pointers of `shape` (rank 0: one pointer) to elements of `pointee`.
    Pointer(Type, Type, Vec<i64>),
}

fn params(m: &Module, f: Op) -> Result<Vec<Param>, &'static str> {
    let Some(block) = m.entry_block(m.region(f, 0)) else {
        return Err("no body");
    };
    let types = &m.ctx.types;
    let mut out = Vec::new();
    for &a in m.block_args(block) {
        let ty = m.value_type(a);
        if !matches!(types.get(ty), TypeData::Tile { .. }) {
            return Err("a parameter is not a tile");
        }
        let elem = types.element_type(ty);
        let shape = types.shape(ty).to_vec();
        match types.get(elem) {
            TypeData::Int(_) | TypeData::Float(_) => out.push(Param::Tile(elem, shape)),
            TypeData::Ptr(p) => out.push(Param::Pointer(elem, *p, shape)),
            _ => return Err("a parameter is a tile of an unknown element type"),
        }
    }
    Ok(out)
}

/// A random element of `elem` for an argument; small non-negative integers when `small`
/// (the integer arguments of kernels with pointers are sizes, strides and trip counts:
/// large ones only make runs fail or take long).
fn arg_bits(rng: &mut Rng, m: &Module, elem: Type, small: bool) -> u64 {
    match m.ctx.types.get(elem) {
        TypeData::Float(k) => float_bits(rng, *k),
        TypeData::Int(w) => {
            if small {
                rng.pick(&[0u64, 1, 2, 3, 4, 8, 16, 32]) & mask(*w)
            } else {
                int_bits(rng, *w)
            }
        }
        _ => 0,
    }
}

fn mask(w: u32) -> u64 {
    if w >= 64 { u64::MAX } else { (1u64 << w) - 1 }
}

/// Size of each pointer argument's buffer for a kernel (`entry`); a `testing$func`'s
/// buffers hold 64 elements (what kernelgen's loads and stores reach).
const BUFFER_BYTES: usize = 64 * 1024;

/// Random arguments for `ps`, with their buffers in a fresh memory; integers are small
/// (sizes and strides) for kernels (`entry`) with pointers.
fn draw_args(rng: &mut Rng, m: &Module, ps: &[Param], entry: bool) -> (Vec<Tile>, Memory) {
    let small = entry && ps.iter().any(|p| matches!(p, Param::Pointer(..)));
    let mut mem = Memory::default();
    let mut args: Vec<Tile> = Vec::with_capacity(ps.len());
    for p in ps {
        match p {
            Param::Tile(elem, shape) => {
                // Sometimes an earlier argument of the same type again.
                if let Some(prev) = args
                    .iter()
                    .find(|t| t.elem == *elem && *t.shape == shape[..])
                    .filter(|_| rng.percent(20))
                {
                    args.push(prev.clone());
                    continue;
                }
                let n: i64 = shape.iter().product();
                let bits = if rng.percent(20) {
                    vec![arg_bits(rng, m, *elem, small); n as usize]
                } else {
                    (0..n).map(|_| arg_bits(rng, m, *elem, small)).collect()
                };
                args.push(Tile {
                    elem: *elem,
                    shape: Rc::from(&shape[..]),
                    bits,
                });
            }
            Param::Pointer(elem, pointee, shape) => {
                let types = &m.ctx.types;
                let size = tilec_interp::mem::elem_bytes(types, *pointee);
                let n = shape.iter().product::<i64>() as usize;
                let bytes = if entry {
                    BUFFER_BYTES
                } else {
                    n.max(64) * size
                };
                let mut data = Vec::with_capacity(bytes);
                while data.len() + size <= bytes {
                    let b = arg_bits(rng, m, *pointee, false);
                    let b = tilec_interp::mem::encode(types, *pointee, b);
                    data.extend_from_slice(&b.to_le_bytes()[..size]);
                }
                let i = mem.add(data);
                let base = mem.buffers[i].base;
                // A tile of pointers points at consecutive elements, sometimes in reverse
                // or all at the first one.
                let order = rng.below(3);
                let bits = (0..n as u64)
                    .map(|k| match order {
                        0 => base + k * size as u64,
                        1 => base + (n as u64 - 1 - k) * size as u64,
                        _ => base,
                    })
                    .collect();
                args.push(Tile {
                    elem: *elem,
                    shape: Rc::from(&shape[..]),
                    bits,
                });
            }
        }
    }
    (args, mem)
}

/// What a run gives: results, printed text and the buffers afterwards.
#[derive(Clone, Debug, PartialEq)]
struct Outcome {
    results: Vec<(String, Vec<i64>, Vec<u64>)>,
    printed: String,
    buffers: Vec<Vec<u8>>,
}

/// Most ops a function runs on one input before it is taken not to terminate (a `loop`
/// whose exit depends on the input); a pipeline's output may run four times as many.
const MAX_OPS: u64 = 100_000;

fn run(m: &Module, f: Op, args: &[Tile], mem: &Memory, max_ops: u64) -> Result<Outcome, RunError> {
    let mut mem = mem.clone();
    let nbuf = mem.buffers.len();
    let called = tilec_interp::call_limited(m, f, args.to_vec(), &mut mem, max_ops)?;
    Ok(Outcome {
        results: called
            .results
            .iter()
            .map(|t| {
                (
                    m.ctx.types.to_string(t.elem, false),
                    t.shape.to_vec(),
                    t.bits.clone(),
                )
            })
            .collect(),
        printed: called.printed,
        buffers: (0..nbuf).map(|i| mem.bytes(i)).collect(),
    })
}

/// A tile's elements, as bit patterns and (for floats) values.
fn show_tile(m: &Module, elem: Type, bits: &[u64]) -> String {
    show_bits(tilec_ir::attrs::float_kind(&m.ctx.types, elem), bits)
}

/// Elements as bit patterns and, for a float kind, values.
fn show_bits(kind: Option<FloatKind>, bits: &[u64]) -> String {
    let parts: Vec<String> = bits
        .iter()
        .map(|b| match kind {
            Some(k) => format!("{b:#x}({:e})", tilec_ir::float::to_f64(k, *b)),
            None => format!("{b:#x}"),
        })
        .collect();
    format!("[{}]", parts.join(", "))
}

fn show_args(m: &Module, args: &[Tile]) -> String {
    let mut s = String::new();
    for (i, t) in args.iter().enumerate() {
        let shape: Vec<String> = t.shape.iter().map(|d| d.to_string()).collect();
        let _ = writeln!(
            s,
            "arg{i}: {}x{} {}",
            shape.join("x"),
            m.ctx.types.to_string(t.elem, false),
            show_tile(m, t.elem, &t.bits)
        );
    }
    s
}

fn show_outcome(o: &Result<Outcome, RunError>) -> String {
    match o {
        Err(e) => format!("error: {}\nprinted: {:?}", e.message, e.printed),
        Ok(o) => {
            let mut s = String::new();
            for (i, (ty, shape, bits)) in o.results.iter().enumerate() {
                let shown = show_bits(FloatKind::from_name(ty), bits);
                let _ = writeln!(s, "result{i}: {ty} {shape:?} {shown}");
            }
            let _ = writeln!(s, "printed: {:?}", o.printed);
            for (i, b) in o.buffers.iter().enumerate() {
                let h = b.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, x| {
                    (h ^ u64::from(*x)).wrapping_mul(0x100_0000_01b3)
                });
                let _ = writeln!(s, "buffer{i}: {} bytes, hash {h:#x}", b.len());
            }
            s
        }
    }
}

fn over_limit(e: &RunError) -> bool {
    e.message.contains("executed more ops than the limit")
}

/// True for a run error that means "the interpreter cannot run this", not undefined
/// behaviour of the input.
fn cannot_run(e: &RunError) -> bool {
    let msg = &e.message;
    msg.contains("cannot run")
        || msg.contains("is not a tile IR operation")
        || msg.contains("GPU-level IR")
        || msg.contains("cannot be compared")
}

fn seed_of(name: &str, seed: u64) -> u64 {
    name.bytes().fold(seed ^ 0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// Parses and verifies `text` and lists its functions that can run, with their
/// parameters; counts what it skips.
fn load(name: &str, text: &str, report: &mut Report) -> Option<(Module, Runnable)> {
    report.cases += 1;
    let popts = tilec_parse::ParseOptions {
        allow_unregistered: true,
        ..Default::default()
    };
    let m = match tilec_parse::parse(text, tilec_diag::FileId(0), &popts) {
        Ok(m) => m,
        Err(d) => {
            report.unparsed += 1;
            if report.rejected.len() < 20 {
                let first = d.first().map(|d| d.message.clone()).unwrap_or_default();
                report
                    .rejected
                    .push(format!("{name}: does not parse: {first}"));
            }
            return None;
        }
    };
    let errs = verify_errors(&m, Personality::Spec);
    if !errs.is_empty() {
        report.unverified += 1;
        if report.rejected.len() < 20 {
            report
                .rejected
                .push(format!("{name}: does not verify: {}", errs[0]));
        }
        return None;
    }
    let mut runnable = Vec::new();
    for f in functions(&m) {
        report.functions += 1;
        match params(&m, f) {
            Ok(ps) => runnable.push((f, ps)),
            Err(why) => report.skip_function(why),
        }
    }
    Some((m, runnable))
}

/// Checks one module: see the module documentation. Adds to `report`.
pub fn check_text(name: &str, text: &str, cfg: &Config, report: &mut Report) {
    let Some((m, runnable)) = load(name, text, report) else {
        return;
    };
    if runnable.is_empty() {
        return;
    }
    // The pipelines' outputs.
    let mut outputs: Vec<(&'static str, Module)> = Vec::new();
    let mut fused: Option<Module> = None;
    for &v in Variant::ALL {
        let personality = v.personality();
        if personality != Personality::Spec && !verify_errors(&m, personality).is_empty() {
            report.skip_variant(format!(
                "{}: the input does not verify in that personality",
                v.name()
            ));
            continue;
        }
        let mut c = m.clone();
        let mut stats = Stats::default();
        let disabled = match v {
            Variant::CanonicalizeNoFoldSelect => vec![tilec_opt::Rule::FoldSelect],
            Variant::Canonicalize
            | Variant::CanonicalizeCompat
            | Variant::CanonicalizeCseDce
            | Variant::LoopSplit
            | Variant::FuseFma => Vec::new(),
        };
        let opts = PassOptions {
            canon: CanonOptions {
                personality,
                disabled,
                ..CanonOptions::default()
            },
            verify_each: false,
        };
        tilec_opt::run_pipeline(&mut c, v.passes(), &opts, &mut stats);
        for (k, n) in &stats.counts {
            *report.rules.entry(k).or_default() += n;
        }
        let errs = verify_errors(&c, personality);
        if !errs.is_empty() {
            report.failures.push(Failure {
                case: name.to_string(),
                variant: v.name(),
                function: String::new(),
                what: format!("the output does not verify: {}", errs.join("; ")),
                module: text.to_string(),
                output: print(&c),
                input: String::new(),
                before: String::new(),
                after: String::new(),
            });
            continue;
        }
        if v == Variant::FuseFma {
            fused = Some(c);
            continue;
        }
        outputs.push((v.name(), c));
    }
    compare(name, text, &m, runnable.clone(), &outputs, cfg, report);
    // fuse-fma: both sides un-fused (see `unfuse`).
    if let Some(mut c) = fused {
        unfuse(&mut c);
        let mut reference = m.clone();
        unfuse(&mut reference);
        compare(
            name,
            text,
            &reference,
            runnable,
            &[(Variant::FuseFma.name(), c)],
            cfg,
            report,
        );
    }
}

/// Checks that `rewritten` (a module with the same functions, in the same order, as
/// `original`) computes what `original` does: the comparison [`check_text`] makes, for a
/// rewrite given as text. Used to show that the checker sees a wrong rewrite.
pub fn check_rewrite(
    name: &str,
    original: &str,
    rewritten: &str,
    cfg: &Config,
    report: &mut Report,
) {
    let Some((m, runnable)) = load(name, original, report) else {
        return;
    };
    let popts = tilec_parse::ParseOptions {
        allow_unregistered: true,
        ..Default::default()
    };
    let Ok(r) = tilec_parse::parse(rewritten, tilec_diag::FileId(0), &popts) else {
        report.unparsed += 1;
        return;
    };
    compare(
        name,
        original,
        &m,
        runnable,
        &[("given rewrite", r)],
        cfg,
        report,
    );
}

/// Runs every runnable function of `m` and the same function of each output on random
/// inputs and records the differences.
fn compare(
    name: &str,
    text: &str,
    m: &Module,
    runnable: Runnable,
    outputs: &[(&'static str, Module)],
    cfg: &Config,
    report: &mut Report,
) {
    let all = functions(m);
    let mut rng = Rng::new(seed_of(name, cfg.seed));
    for (f, ps) in runnable {
        let fname = func_name(m, f);
        let index = all
            .iter()
            .position(|g| *g == f)
            .expect("a function of the module");
        let entry = m.opcode(f) == tilec_ir::Opcode::Entry;
        let has_ptr = ps.iter().any(|p| matches!(p, Param::Pointer(..)));
        let n = if has_ptr && entry {
            cfg.pointer_inputs
        } else {
            cfg.inputs
        };
        let mut ran = false;
        let mut unrunnable = false;
        let mut last_error = String::new();
        for _ in 0..n {
            let (args, mem) = draw_args(&mut rng, m, &ps, entry);
            report.inputs += 1;
            let before = match run(m, f, &args, &mem, MAX_OPS) {
                Err(e) if cannot_run(&e) => {
                    report.inputs -= 1;
                    unrunnable = true;
                    break;
                }
                Err(e) if over_limit(&e) => {
                    report.inputs_over_limit += 1;
                    last_error = e.message;
                    continue;
                }
                Err(e) => {
                    report.inputs_ub += 1;
                    last_error = e.message;
                    continue;
                }
                Ok(o) => o,
            };
            ran = true;
            for (vname, c) in outputs {
                report.comparisons += 1;
                let what = match functions(c).get(index) {
                    None => Some((
                        "the function is missing from the output".to_string(),
                        Err(()),
                    )),
                    Some(&g) => {
                        let after = run(c, g, &args, &mem, 4 * MAX_OPS);
                        match &after {
                            Err(e) => Some((
                                format!(
                                    "the output fails where the input runs cleanly: {}",
                                    e.message
                                ),
                                Ok(after),
                            )),
                            Ok(a) if *a != before => {
                                Some(("different results".to_string(), Ok(after)))
                            }
                            Ok(_) => None,
                        }
                    }
                };
                if let Some((what, after)) = what {
                    report.failures.push(Failure {
                        case: name.to_string(),
                        variant: vname,
                        function: fname.clone(),
                        what,
                        module: text.to_string(),
                        output: print(c),
                        input: show_args(m, &args),
                        before: show_outcome(&Ok(before.clone())),
                        after: match after {
                            Ok(a) => show_outcome(&a),
                            Err(_) => String::new(),
                        },
                    });
                }
            }
        }
        if unrunnable {
            report.skip_function("the interpreter cannot run it (unregistered or GPU-level ops)");
        } else if ran {
            report.functions_run += 1;
        } else {
            report.skip_function("undefined behaviour (or no end) on every input drawn");
            if report.ub_functions.len() < 50 {
                report
                    .ub_functions
                    .push(format!("{name} @{fname}: {last_error}"));
            }
        }
    }
}

/// The module texts between `r#"` and `"#` (or `r"` and `"`) in Rust source `src` that
/// hold a `cuda_tile.module`, with the line each starts on.
pub fn raw_string_modules(src: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let bytes = src.as_bytes();
    let mut i = 0;
    while i + 1 < bytes.len() {
        if bytes[i] == b'r' && (i == 0 || !(bytes[i - 1] as char).is_alphanumeric()) {
            let mut j = i + 1;
            let mut hashes = 0;
            while j < bytes.len() && bytes[j] == b'#' {
                hashes += 1;
                j += 1;
            }
            if j < bytes.len() && bytes[j] == b'"' {
                let close = format!("\"{}", "#".repeat(hashes));
                if let Some(end) = src[j + 1..].find(&close) {
                    let body = &src[j + 1..j + 1 + end];
                    if body.contains("cuda_tile.module") {
                        let line = src[..i].matches('\n').count() + 1;
                        out.push((line, body.to_string()));
                    }
                    i = j + 1 + end + close.len();
                    continue;
                }
            }
        }
        i += 1;
    }
    out
}

/// Every canonicalize test case of the repository: the module texts of tests/canon_*.rs
/// (inputs and expected outputs; not canon_diff.rs, whose modules are the checker's own),
/// the canonicalize corpus (examples, tests/corpus/cutile, and, when the shared directory is
/// present, the valid conformance files, canonicalize.mlir included, and the cuTile
/// samples), split on `// -----`. Returns the cases and what was missing.
pub fn canonicalize_cases() -> (Vec<Case>, Vec<String>) {
    let root = crate::repo_root();
    let mut cases = Vec::new();
    let mut missing = Vec::new();
    let mut rust: Vec<_> = std::fs::read_dir(root.join("tests"))
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    rust.retain(|p: &std::path::PathBuf| {
        p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
            (n.starts_with("canon_") && n.ends_with(".rs") && n != "canon_diff.rs")
                || n == "transforms.rs"
        })
    });
    rust.sort();
    for p in &rust {
        let Ok(src) = std::fs::read_to_string(p) else {
            continue;
        };
        let file = p.file_name().and_then(|n| n.to_str()).unwrap_or("?");
        for (line, text) in raw_string_modules(&src) {
            cases.push(Case {
                name: format!("tests/{file}:{line}"),
                text,
            });
        }
    }
    let mut files: Vec<std::path::PathBuf> = crate::example_files();
    let mut corpus: Vec<_> = std::fs::read_dir(root.join("tests/corpus/cutile"))
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    corpus.retain(|p: &std::path::PathBuf| p.extension().is_some_and(|x| x == "mlir"));
    corpus.sort();
    files.extend(corpus);
    match crate::shared_dir() {
        Some(shared) => {
            for dir in [
                "conformance/cuda-tile-13.1",
                "conformance/cutile-samples",
                "conformance/cuda-tile-13.3/test/Transforms",
            ] {
                let mut v: Vec<_> = std::fs::read_dir(shared.join(dir))
                    .map(|rd| rd.flatten().map(|e| e.path()).collect())
                    .unwrap_or_default();
                v.retain(|p: &std::path::PathBuf| p.extension().is_some_and(|x| x == "mlir"));
                v.sort();
                if !v.iter().any(|p| p.ends_with("canonicalize.mlir")) && dir.ends_with("13.1") {
                    missing.push(format!("{dir}/canonicalize.mlir"));
                }
                files.extend(v);
            }
        }
        None => missing.push("the shared conformance directory (../shared/conformance)".into()),
    }
    for p in files {
        let Ok(text) = std::fs::read_to_string(&p) else {
            continue;
        };
        // Files of expected diagnostics are not canonicalize inputs.
        if text.contains("expected-error") {
            continue;
        }
        let shown = p
            .strip_prefix(&root)
            .map(|r| r.display().to_string())
            .unwrap_or_else(|_| {
                p.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default()
            });
        let chunks = tilec_parse::split_input(&text);
        for (k, r) in chunks.iter().enumerate() {
            let name = if chunks.len() > 1 {
                format!("{shown}#{k}")
            } else {
                shown.clone()
            };
            cases.push(Case {
                name,
                text: text[r.clone()].to_string(),
            });
        }
    }
    (cases, missing)
}

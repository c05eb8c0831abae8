//! A seeded generator of random, well-typed tile IR modules (issue 6: differential
//! canonicalization).
//!
//! [`kernel`] returns the text of a `cuda_tile.module` holding a `testing$func` (one time
//! in ten a second one) with random tile parameters (rank 0 to 3, power-of-two sizes, at
//! most 64 elements, every integer and float element type, tf32 and f8 included) and
//! random results, whose body is a random chain of ops: integer and float arithmetic with
//! overflow flags, rounding modes and flush-to-zero, comparisons, `select`, bitwise ops
//! and shifts, min/max, math functions, conversions, constants (biased to the values folds
//! look for: 0, 1, -1, all ones, `true`/`false`, subnormals, the largest finite value;
//! splat or not), `broadcast`, `reshape`, `permute`, `cat`, `extract`, `iota`,
//! `reduce`/`scan` with bodies, `if` with yields (and `return`, `break` or `continue` in
//! branches), `for` and `loop` with iteration values (loops always end: a counter breaks
//! out), and `print`. Three functions in ten also take a pointer to a buffer and load from
//! and store to it (`offset`, `load_ptr_tko`, `store_ptr_tko`, masked or not), in
//! branches and loops too. Values nothing uses are printed at the end (as exact integer
//! bit patterns) three times in four, so that most ops are live and their values compared.
//!
//! Besides ops drawn at random, a *recipe* step writes one of the shapes each
//! canonicalization rule looks for (canonicalizers-and-folds.md and tilec-opt's `fold.rs`,
//! `ifs.rs`, `select.rs`, `simplify.rs`): `select` on a constant, same arms, `i1`
//! `true`/`false` arms, `select(x == y, x, y)`, inverted and nested conditions; `if` on a
//! constant, on `xori(c, true)`, with yield-only branches, equal yields, an empty else,
//! adjacent `if`s on one condition, nested `if`s, both branches returning; `addf` of
//! constants and `addf(c, mulf)`; and the expression simplifier's integer identities,
//! constant arithmetic (also where an overflow flag forbids folding), negation chains,
//! and/or chains and self-comparisons.
//!
//! *Entry mode* ([`entry_kernel`], for the GPU harness) writes one `entry @kernel` that a
//! GPU can launch instead, with the same op chains. Its parameters are rank-0 tiles: each
//! random input tile comes from a pointer to a buffer holding one tile per tile block
//! (`iota` indices offset by the block's linear index from `get_tile_block_id`,
//! `broadcast` and `offset` of the base pointer, `load_ptr_tko`); some rank-0 inputs are
//! scalar parameters instead; sometimes a 64-element buffer is there to gather from.
//! After the chain, the result values and the newest values nothing uses (up to six) are
//! stored (`store_ptr_tko`) to output buffers, each block to its own range, so blocks
//! never write the same element. `i1` tiles travel as `i8` and `tf32` as `f32`. It comes
//! with one `tilec run --arg` per parameter (`randint:`, `random:` or `special:` inputs, `zeros:`
//! outputs, scalars as bit patterns) and a grid of 1 to 4 blocks. What entry mode leaves
//! out: `print`, `return` before the end, stores through random offsets (the threads of a
//! block would race), masked loads without a padding value, random divisors, shift
//! amounts and `extract` indices (mostly undefined behaviour); it clamps infinities
//! before `ftoi`, writes overflow flags a quarter as often, and converts integers to f8
//! through f32 (tilec-ptx writes invalid PTX for `itof` to f8).
//!
//! Generation is deterministic: the same seed gives the same text. Every generated module
//! is meant to parse and verify; one that does not is a generator bug (the differential
//! checker counts them).

use tilec_ir::float::{self, FloatKind};

/// SplitMix64: a small, fast, seedable pseudo-random generator.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        crate::mutate::splitmix64(&mut self.0)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }

    /// True with probability `percent`/100.
    pub fn percent(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// A uniformly chosen element of `xs` (not empty).
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }

    /// An index drawn with the given weights.
    pub fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u64 = weights.iter().map(|w| u64::from(*w)).sum();
        let mut x = self.below(total);
        for (i, w) in weights.iter().enumerate() {
            if x < u64::from(*w) {
                return i;
            }
            x -= u64::from(*w);
        }
        weights.len() - 1
    }
}

/// An element type of a generated tile.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Elem {
    I1,
    I8,
    I16,
    I32,
    I64,
    F16,
    BF16,
    F32,
    F64,
    TF32,
    F8E4M3FN,
    F8E5M2,
}

use Elem::*;

const INTS: &[Elem] = &[I1, I8, I16, I32, I64];
const INTS8: &[Elem] = &[I8, I16, I32, I64];
const BASE_FLOATS: &[Elem] = &[F16, BF16, F32, F64];
const ALL_FLOATS: &[Elem] = &[F16, BF16, F32, F64, TF32, F8E4M3FN, F8E5M2];

impl Elem {
    /// The type's spelling.
    pub fn name(self) -> &'static str {
        match self {
            I1 => "i1",
            I8 => "i8",
            I16 => "i16",
            I32 => "i32",
            I64 => "i64",
            F16 => "f16",
            BF16 => "bf16",
            F32 => "f32",
            F64 => "f64",
            TF32 => "tf32",
            F8E4M3FN => "f8E4M3FN",
            F8E5M2 => "f8E5M2",
        }
    }

    /// True for the integer types.
    pub fn is_int(self) -> bool {
        INTS.contains(&self)
    }

    /// The float format, for float types.
    pub fn kind(self) -> Option<FloatKind> {
        Some(match self {
            F16 => FloatKind::F16,
            BF16 => FloatKind::BF16,
            F32 => FloatKind::F32,
            F64 => FloatKind::F64,
            TF32 => FloatKind::TF32,
            F8E4M3FN => FloatKind::F8E4M3FN,
            F8E5M2 => FloatKind::F8E5M2,
            _ => return None,
        })
    }

    /// Bit width (19 for tf32).
    pub fn width(self) -> u32 {
        match self {
            I1 => 1,
            I8 => 8,
            I16 => 16,
            I32 => 32,
            I64 => 64,
            other => other.kind().map_or(0, FloatKind::bit_width),
        }
    }
}

/// The identity of a reduction body's op (`addi`, `maxi signed`, `mulf`...) in `e`, as
/// the attribute text before ` : TYPE`: the value `x` with `op(x, y) == y` for every `y`.
fn monoid_identity(op: &str, e: Elem) -> String {
    let w = e.width();
    let (int_min, int_max) = if w >= 64 {
        (i64::MIN, i64::MAX)
    } else {
        (-(1i64 << (w - 1)), (1i64 << (w - 1)) - 1)
    };
    let inf = |neg: bool| -> String {
        let bits: u64 = match (e, neg) {
            (F16, false) => 0x7c00,
            (F16, true) => 0xfc00,
            (BF16, false) => 0x7f80,
            (BF16, true) => 0xff80,
            (F64, false) => 0x7ff0_0000_0000_0000,
            (F64, true) => 0xfff0_0000_0000_0000,
            (_, false) => 0x7f80_0000,
            (_, true) => 0xff80_0000,
        };
        format!("{bits:#x}")
    };
    match op {
        "muli" => "1".to_string(),
        "andi" | "mini unsigned" => "-1".to_string(),
        "maxi signed" => int_min.to_string(),
        "mini signed" => int_max.to_string(),
        "addf" => "-0.000000e+00".to_string(),
        "mulf" => "1.000000e+00".to_string(),
        "maxf" => inf(true),
        "minf" => inf(false),
        // addi, ori, xori, maxi unsigned
        _ => "0".to_string(),
    }
}

fn mask(w: u32) -> u64 {
    if w >= 64 { u64::MAX } else { (1u64 << w) - 1 }
}

/// A random integer of width `w` (zero-extended), biased to the values folds and edge cases
/// care about: 0, 1, -1 (all ones), 2, the signed minimum and maximum, small numbers.
pub fn int_bits(rng: &mut Rng, w: u32) -> u64 {
    let m = mask(w);
    let smin = 1u64 << (w - 1);
    let v = match rng.below(12) {
        0 => 0,
        1 => 1,
        2 => m,
        3 => 2,
        4 => smin,
        5 => smin.wrapping_sub(1),
        6 => rng.below(16),
        7 => rng.below(16).wrapping_neg(),
        8 => 1u64 << rng.below(u64::from(w)),
        _ => rng.next_u64(),
    };
    v & m
}

/// A random float bit pattern of `k`, biased to special values: ±0, ±infinity, NaNs (the
/// default one and others, quiet and signalling), the smallest and largest subnormals, the
/// smallest normal, the largest finite value, ±1, small integers and halves.
pub fn float_bits(rng: &mut Rng, k: FloatKind) -> u64 {
    let w = k.bit_width();
    let man = k.precision() - 1;
    let exp_bits = w - 1 - man;
    let sign = if rng.percent(35) { 1u64 << (w - 1) } else { 0 };
    let exp_all = ((1u64 << exp_bits) - 1) << man;
    let v = match rng.below(16) {
        0 => 0,
        1 => float::round_from_f64(k, f64::INFINITY),
        2 => float::round_from_f64(k, f64::NAN),
        3 => {
            if k == FloatKind::F8E4M3FN {
                exp_all | mask(man)
            } else {
                exp_all | (1 + rng.below(mask(man)))
            }
        }
        4 => 1,
        5 => mask(man),
        6 => 1u64 << man,
        7 => float::max_finite(k, false),
        8 => float::round_from_f64(k, 1.0),
        9 => float::round_from_f64(k, rng.range(-8, 8) as f64),
        10 => float::round_from_f64(k, rng.range(-16, 16) as f64 / 4.0),
        11 => 1 + rng.below(mask(man)),
        12 => rng.next_u64(),
        _ => {
            // A normal number of moderate magnitude.
            let bias = (1u64 << (exp_bits - 1)) - 1;
            let span = bias.min(6);
            let e = bias - span + rng.below(2 * span + 1);
            (e << man) | (rng.next_u64() & mask(man))
        }
    };
    (v | sign) & mask(w)
}

/// A random element of `e`.
pub fn elem_bits(rng: &mut Rng, e: Elem) -> u64 {
    match e.kind() {
        Some(k) => float_bits(rng, k),
        None => int_bits(rng, e.width()),
    }
}

/// A tile type: element type and shape.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Ty {
    elem: Elem,
    shape: Vec<i64>,
}

impl Ty {
    fn new(elem: Elem, shape: &[i64]) -> Ty {
        Ty {
            elem,
            shape: shape.to_vec(),
        }
    }

    fn text(&self) -> String {
        let mut s = String::from("tile<");
        for d in &self.shape {
            s.push_str(&format!("{d}x"));
        }
        s.push_str(self.elem.name());
        s.push('>');
        s
    }

    fn with_elem(&self, elem: Elem) -> Ty {
        Ty::new(elem, &self.shape)
    }

    fn len(&self) -> i64 {
        self.shape.iter().product()
    }
}

fn types_text(tys: &[Ty]) -> String {
    tys.iter().map(Ty::text).collect::<Vec<_>>().join(", ")
}

/// A value in scope.
#[derive(Clone, Debug)]
struct Val {
    name: String,
    ty: Ty,
}

/// The innermost enclosing loop, for `break`/`continue` in branches.
#[derive(Clone, Debug)]
struct LoopCtx {
    /// `loop` (break allowed) rather than `for`.
    is_loop: bool,
    /// Types of the iteration values (what `continue` takes; `break` too, for `loop`).
    tys: Vec<Ty>,
    /// For `loop`: the incremented counter every `continue`/`break` must carry first.
    counter: Option<String>,
}

/// Where statements go: which terminators are allowed.
#[derive(Clone, Debug)]
struct Ctx {
    /// A `return` may end a branch (not inside loops or reduction bodies).
    can_return: bool,
    lp: Option<LoopCtx>,
}

/// Largest element count of a generated tile.
const MAX_ELEMS: i64 = 64;

struct Gen<'r> {
    rng: &'r mut Rng,
    out: String,
    indent: usize,
    scopes: Vec<Vec<Val>>,
    next: u32,
    ops_left: i64,
    depth: u32,
    shapes: Vec<Vec<i64>>,
    ret: Vec<Ty>,
    /// In a `reduce`/`scan` body: only pure ops on rank-0 tiles, no regions.
    in_body: bool,
    /// The function's pointer parameter and its element type, if it has one.
    mem: Option<(String, Elem)>,
    /// The token memory ops take.
    token: String,
    /// Entry mode ([`entry_kernel`]): no `print`, no `return` before the end, loads
    /// through `mem` only (no random scatters: threads would race), and no divisors or
    /// shift amounts that are random values.
    entry: bool,
}

/// The text of a random module for `seed`.
pub fn kernel(seed: u64) -> String {
    let mut rng = Rng::new(seed ^ 0x6b65_726e_656c_6765);
    let mut g = Gen {
        rng: &mut rng,
        out: String::new(),
        indent: 0,
        scopes: vec![Vec::new()],
        next: 0,
        ops_left: 0,
        depth: 0,
        shapes: Vec::new(),
        ret: Vec::new(),
        in_body: false,
        mem: None,
        token: String::new(),
        entry: false,
    };
    g.module();
    g.out
}

/// A random kernel the GPU harness can launch (see [`entry_kernel`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenEntry {
    /// The module text: one `entry @kernel(...)`.
    pub text: String,
    /// One `tilec run --arg` value per entry parameter (e.g. "randint:f32:32:17",
    /// "random:f16:64:3", "zeros:i32:16", "i32:0x5"; the syntax of
    /// `tilec_interp::args`).
    pub args: Vec<String>,
    /// Tile blocks to launch (e.g. [1,1,1] or [2,1,1]).
    pub grid: [u32; 3],
}

/// A random entry for `seed`: the op chains of [`kernel`] between loads from input
/// buffers and stores to output buffers (see the module documentation).
pub fn entry_kernel(seed: u64) -> GenEntry {
    let mut rng = Rng::new(seed ^ 0x656e_7472_795f_6b72);
    let grid = match rng.below(20) {
        0..=10 => [1, 1, 1],
        11..=14 => [2, 1, 1],
        15 | 16 => [4, 1, 1],
        17 => [3, 1, 1],
        _ => [2, 2, 1],
    };
    let mut g = Gen {
        rng: &mut rng,
        out: String::new(),
        indent: 2,
        scopes: vec![Vec::new()],
        next: 0,
        ops_left: 0,
        depth: 0,
        shapes: Vec::new(),
        ret: Vec::new(),
        in_body: false,
        mem: None,
        token: String::new(),
        entry: true,
    };
    let (params, args) = g.entry_body(grid);
    let text = format!(
        "cuda_tile.module @kernels {{\n  entry @kernel({}) {{\n{}    return\n  }}\n}}\n",
        params.join(", "),
        g.out
    );
    GenEntry { text, args, grid }
}

/// The element type a buffer holds for tiles of `e`: `i1` tiles travel as `i8` (0 or 1)
/// and `tf32` tiles as `f32`.
fn storage_elem(e: Elem) -> Elem {
    match e {
        I1 => I8,
        TF32 => F32,
        other => other,
    }
}

/// Where a tile block's share of a buffer starts: the block's linear index and the number
/// of blocks.
#[derive(Clone, Debug)]
struct Launch {
    bid: String,
    blocks: i64,
    /// The element indices of the block's tile, per tile size: `bid * n + iota(n)`.
    indices: Vec<(i64, String)>,
}

impl Gen<'_> {
    fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%v{}", self.next)
    }

    fn define(&mut self, name: &str, ty: &Ty) {
        self.scopes.last_mut().expect("a scope").push(Val {
            name: name.to_string(),
            ty: ty.clone(),
        });
    }

    /// Emits `%r = TEXT` and defines `%r` of type `ty`.
    fn emit(&mut self, ty: &Ty, text: &str) -> String {
        let r = self.fresh();
        self.line(&format!("{r} = {text}"));
        self.define(&r, ty);
        r
    }

    /// The body of an entry launched over `grid`: loads of the inputs, a random op chain,
    /// stores of the results. Returns the parameters' text and their `--arg` values.
    fn entry_body(&mut self, grid: [u32; 3]) -> (Vec<String>, Vec<String>) {
        let (mut params, mut args) = (Vec::new(), Vec::new());
        self.shapes = vec![self.rand_shape()];
        if self.rng.percent(50) {
            self.shapes.push(Vec::new());
        } else if self.rng.percent(50) {
            let s = self.rand_shape();
            self.shapes.push(s);
        }
        self.token = self.fresh();
        let tok = self.token.clone();
        self.line(&format!("{tok} = make_token : token"));
        // The block's linear index (x fastest); the op chain may use it too.
        let i32t = Ty::new(I32, &[]);
        let (bx, by, bz) = (self.fresh(), self.fresh(), self.fresh());
        self.line(&format!("{bx}, {by}, {bz} = get_tile_block_id : tile<i32>"));
        self.define(&bx, &i32t);
        let bid = if grid[1] > 1 {
            let gx = self.int_const(I32, &[], i64::from(grid[0]));
            let row = self.emit(&i32t, &format!("muli {by}, {gx} : tile<i32>"));
            self.emit(&i32t, &format!("addi {row}, {bx} : tile<i32>"))
        } else {
            bx
        };
        let mut launch = Launch {
            bid,
            blocks: grid.iter().map(|g| i64::from(*g)).product(),
            indices: Vec::new(),
        };
        // Inputs: rank-0 ones sometimes as scalar parameters, the others loaded from a
        // buffer holding one tile per block.
        for i in 0..self.rng.range(1, 4) {
            let elem = self.param_elem();
            let shape = self.shape();
            let ty = Ty::new(elem, &shape);
            if shape.is_empty() && self.rng.percent(50) {
                let p = format!("%p{i}");
                params.push(format!("{p}: {}", ty.text()));
                let bits = elem_bits(self.rng, elem);
                args.push(format!("{}:{bits:#x}", elem.name()));
                self.define(&p, &ty);
                continue;
            }
            let st = storage_elem(elem);
            let p = format!("%a{i}");
            params.push(format!("{p}: tile<ptr<{}>>", st.name()));
            let source = if self.rng.percent(50) {
                "randint"
            } else {
                "random"
            };
            let n = launch.blocks * ty.len();
            let seed = self.rng.below(1000);
            // One `random` buffer in four holds special values too (NaNs, infinities,
            // signed zeros, subnormals, integer extremes), decided by its seed so that
            // the kernels a seed draws stay the same.
            let source = if source == "random" && seed.is_multiple_of(4) {
                "special"
            } else {
                source
            };
            args.push(format!("{source}:{}:{n}:{seed}", st.name()));
            let sty = ty.with_elem(st);
            let ptrs = self.block_ptrs(&p, &sty, &mut launch);
            let (v, t) = (self.fresh(), self.fresh());
            let pty = ptr_tile(&sty);
            self.line(&format!(
                "{v}, {t} = load_ptr_tko weak {ptrs} token={tok} : {pty} -> {}, token",
                sty.text()
            ));
            self.define(&v, &sty);
            match elem {
                I1 => {
                    self.emit(
                        &ty,
                        &format!("trunci {v} : {} -> {}", sty.text(), ty.text()),
                    );
                }
                TF32 => {
                    self.emit(&ty, &format!("ftof {v} : {} -> {}", sty.text(), ty.text()));
                }
                _ => {}
            }
        }
        // Sometimes a buffer of 64 elements the op chain gathers from.
        self.mem = None;
        if self.rng.percent(30) {
            let e = self.rng.pick(&[I8, I16, I32, I64, F16, BF16, F32, F64]);
            params.push(format!("%m0: tile<ptr<{}>>", e.name()));
            args.push(format!("random:{}:64:{}", e.name(), self.rng.below(1000)));
            self.mem = Some(("%m0".to_string(), e));
        }
        let first_op = self.next;
        self.ops_left = self.rng.range(6, 30);
        let ctx = Ctx {
            can_return: false,
            lp: None,
        };
        while self.ops_left > 0 {
            self.stmt(&ctx);
        }
        // Outputs: a few values of random types, then the newest values nothing uses (so
        // that most ops are live).
        let mut outs: Vec<Val> = Vec::new();
        for _ in 0..self.rng.range(1, 3) {
            let ty = if self.rng.percent(60) {
                self.any_val().ty
            } else {
                let e = self.param_elem();
                let s = self.shape();
                Ty::new(e, &s)
            };
            let name = self.recent(&ty);
            outs.push(Val { name, ty });
        }
        let id = |v: &Val| {
            v.name
                .strip_prefix("%v")
                .and_then(|n| n.parse::<u32>().ok())
        };
        let unused: Vec<Val> = self.scopes[0]
            .iter()
            .filter(|v| id(v).is_some_and(|n| n > first_op))
            .filter(|v| !outs.iter().any(|o| o.name == v.name))
            .filter(|v| !self.is_used(&v.name))
            .cloned()
            .collect();
        let skip = unused.len().saturating_sub(6);
        outs.extend(unused.into_iter().skip(skip));
        for (k, v) in outs.iter().enumerate() {
            let st = storage_elem(v.ty.elem);
            let sty = v.ty.with_elem(st);
            let x = match v.ty.elem {
                I1 => self.emit(
                    &sty,
                    &format!(
                        "exti {} unsigned : {} -> {}",
                        v.name,
                        v.ty.text(),
                        sty.text()
                    ),
                ),
                TF32 => self.emit(
                    &sty,
                    &format!("ftof {} : {} -> {}", v.name, v.ty.text(), sty.text()),
                ),
                _ => v.name.clone(),
            };
            let p = format!("%o{k}");
            params.push(format!("{p}: tile<ptr<{}>>", st.name()));
            args.push(format!(
                "zeros:{}:{}",
                st.name(),
                launch.blocks * v.ty.len()
            ));
            let ptrs = self.block_ptrs(&p, &sty, &mut launch);
            let t = self.fresh();
            self.line(&format!(
                "{t} = store_ptr_tko weak {ptrs}, {x} token={tok} : {}, {} -> token",
                ptr_tile(&sty),
                sty.text()
            ));
        }
        (params, args)
    }

    /// Pointers to this tile block's tile of type `ty` in the buffer at `base`: the
    /// elements `bid * n + (0, 1, ..., n - 1)` in row-major order (`n` elements per tile).
    fn block_ptrs(&mut self, base: &str, ty: &Ty, launch: &mut Launch) -> String {
        let n = ty.len();
        let pty = ptr_tile(ty);
        let flat = format!("tile<{n}xi32>");
        let idx = if ty.shape.is_empty() {
            if launch.blocks == 1 {
                return base.to_string();
            }
            launch.bid.clone()
        } else {
            let mut i = match launch.indices.iter().find(|(k, _)| *k == n) {
                Some((_, i)) => i.clone(),
                None => self.block_indices(n, launch),
            };
            if ty.shape.len() != 1 {
                let r = self.fresh();
                let it = ty.with_elem(I32).text();
                self.line(&format!("{r} = reshape {i} : {flat} -> {it}"));
                i = r;
            }
            i
        };
        let it = ty.with_elem(I32).text();
        let e = ty.elem.name();
        let p = if ty.shape.is_empty() {
            base.to_string()
        } else {
            let ones: String = ty.shape.iter().map(|_| "1x").collect();
            let oty = format!("tile<{ones}ptr<{e}>>");
            let r = self.fresh();
            self.line(&format!("{r} = reshape {base} : tile<ptr<{e}>> -> {oty}"));
            if ty.len() == 1 {
                r
            } else {
                let b = self.fresh();
                self.line(&format!("{b} = broadcast {r} : {oty} -> {pty}"));
                b
            }
        };
        let ptrs = self.fresh();
        self.line(&format!(
            "{ptrs} = offset {p}, {idx} : {pty}, {it} -> {pty}"
        ));
        ptrs
    }

    /// `bid * n + (0, 1, ..., n - 1)`: the indices of the block's `n` elements (just the
    /// `iota` for one block), written once per `n` (at the top level only).
    fn block_indices(&mut self, n: i64, launch: &mut Launch) -> String {
        let flat = format!("tile<{n}xi32>");
        let mut i = self.fresh();
        self.line(&format!("{i} = iota : {flat}"));
        if launch.blocks > 1 {
            let (k, s, s1) = (self.fresh(), self.fresh(), self.fresh());
            self.line(&format!("{k} = constant <i32: {n}> : tile<i32>"));
            self.line(&format!("{s} = muli {}, {k} : tile<i32>", launch.bid));
            self.line(&format!("{s1} = reshape {s} : tile<i32> -> tile<1xi32>"));
            let start = if n > 1 {
                let b = self.fresh();
                self.line(&format!("{b} = broadcast {s1} : tile<1xi32> -> {flat}"));
                b
            } else {
                s1
            };
            let sum = self.fresh();
            self.line(&format!("{sum} = addi {start}, {i} : {flat}"));
            i = sum;
        }
        launch.indices.push((n, i.clone()));
        i
    }

    fn module(&mut self) {
        self.line("cuda_tile.module @kernels {");
        self.indent += 1;
        self.function("f");
        if self.rng.percent(10) {
            // A second function: constants are uniqued per function, never across.
            self.scopes = vec![Vec::new()];
            self.function("g");
        }
        self.indent -= 1;
        self.line("}");
    }

    fn rand_shape(&mut self) -> Vec<i64> {
        if self.in_body {
            return Vec::new();
        }
        let rank = self.rng.weighted(&[3, 3, 3, 1]);
        let mut shape = Vec::with_capacity(rank);
        let mut total = 1;
        for _ in 0..rank {
            let d = self.rng.pick(&[1, 2, 2, 4, 4, 8]);
            let d = if total * d > MAX_ELEMS { 1 } else { d };
            total *= d;
            shape.push(d);
        }
        shape
    }

    /// A shape for a new value: usually one of the function's working shapes.
    fn shape(&mut self) -> Vec<i64> {
        if self.in_body {
            return Vec::new();
        }
        if self.rng.percent(80) {
            let i = self.rng.below(self.shapes.len() as u64) as usize;
            self.shapes[i].clone()
        } else {
            self.rand_shape()
        }
    }

    fn param_elem(&mut self) -> Elem {
        match self.rng.below(20) {
            0..=8 => self.rng.pick(INTS),
            9..=18 => self.rng.pick(BASE_FLOATS),
            _ => self.rng.pick(&[TF32, F8E4M3FN, F8E5M2]),
        }
    }

    fn function(&mut self, name: &str) {
        self.shapes = vec![self.rand_shape()];
        if self.rng.percent(50) {
            self.shapes.push(Vec::new());
        } else if self.rng.percent(50) {
            let s = self.rand_shape();
            self.shapes.push(s);
        }
        let nparams = self.rng.range(1, 4);
        let mut params = Vec::new();
        for i in 0..nparams {
            let elem = self.param_elem();
            let shape = self.shape();
            let ty = Ty::new(elem, &shape);
            let p = format!("%p{i}");
            params.push(format!("{p}: {}", ty.text()));
            self.define(&p, &ty);
        }
        // Sometimes a pointer to a buffer that the body loads from and stores to.
        self.mem = None;
        if self.rng.percent(30) {
            let e = self.rng.pick(&[I8, I16, I32, I64, F16, BF16, F32, F64]);
            params.push(format!("%m0: tile<ptr<{}>>", e.name()));
            self.mem = Some(("%m0".to_string(), e));
        }
        let nret = self.rng.range(1, 3);
        self.ret = (0..nret)
            .map(|_| {
                if self.rng.percent(60) {
                    let v = self.any_val();
                    v.ty
                } else {
                    let e = self.param_elem();
                    let s = self.shape();
                    Ty::new(e, &s)
                }
            })
            .collect();
        let ret = if self.ret.len() == 1 {
            format!(" -> {}", self.ret[0].text())
        } else {
            format!(" -> ({})", types_text(&self.ret))
        };
        self.line(&format!(
            "testing$func @{name}({}){ret} {{",
            params.join(", ")
        ));
        self.indent += 1;
        if self.mem.is_some() {
            self.token = self.fresh();
            let t = self.token.clone();
            self.line(&format!("{t} = make_token : token"));
        }
        self.ops_left = self.rng.range(6, 30);
        let ctx = Ctx {
            can_return: true,
            lp: None,
        };
        while self.ops_left > 0 {
            self.stmt(&ctx);
        }
        let tys = self.ret.clone();
        let vals: Vec<String> = tys.iter().map(|t| self.recent(t)).collect();
        if self.rng.percent(75) {
            self.sink(&vals);
        }
        if self.mem.is_some() && self.rng.percent(70) {
            self.mem_op(Some(true));
        }
        self.line(&format!(
            "return {} : {}",
            vals.join(", "),
            types_text(&tys)
        ));
        self.indent -= 1;
        self.line("}");
    }

    /// True if `name` occurs in the text written so far besides its definition.
    fn is_used(&self, name: &str) -> bool {
        let b = self.out.as_bytes();
        let mut count = 0;
        let mut from = 0;
        while let Some(i) = self.out[from..].find(name) {
            let end = from + i + name.len();
            if end >= b.len() || !(b[end].is_ascii_alphanumeric() || b[end] == b'_') {
                count += 1;
                if count >= 2 {
                    return true;
                }
            }
            from = end;
        }
        false
    }

    /// Prints the values of the function's body that nothing uses, as exact integer bit
    /// patterns, so that they are live and their values are compared too.
    fn sink(&mut self, returned: &[String]) {
        let unused: Vec<Val> = self.scopes[0]
            .iter()
            .filter(|v| !v.name.starts_with("%p") && !returned.contains(&v.name))
            .filter(|v| !self.is_used(&v.name))
            .cloned()
            .collect();
        let mut args = Vec::new();
        for v in unused {
            args.push(self.as_int_bits(&v));
        }
        for chunk in args.chunks(4) {
            let convs: Vec<&str> = chunk
                .iter()
                .map(|(_, t)| if t.elem == I1 { "%d" } else { "%llx" })
                .collect();
            let names: Vec<&str> = chunk.iter().map(|(n, _)| n.as_str()).collect();
            let tys: Vec<Ty> = chunk.iter().map(|(_, t)| t.clone()).collect();
            self.line(&format!(
                "print \"{}\\n\", {} : {}",
                convs.join(" "),
                names.join(", "),
                types_text(&tys)
            ));
        }
    }

    /// `v` as an integer tile of the same bits (floats bitcast; tf32 through f32).
    fn as_int_bits(&mut self, v: &Val) -> (String, Ty) {
        let to = match v.ty.elem {
            F16 | BF16 => I16,
            F32 => I32,
            F64 => I64,
            F8E4M3FN | F8E5M2 => I8,
            TF32 => {
                let ft = v.ty.with_elem(F32);
                let f = self.emit(
                    &ft,
                    &format!("ftof {} : {} -> {}", v.name, v.ty.text(), ft.text()),
                );
                let it = v.ty.with_elem(I32);
                let i = self.emit(
                    &it,
                    &format!("bitcast {f} : {} -> {}", ft.text(), it.text()),
                );
                return (i, it);
            }
            _ => return (v.name.clone(), v.ty.clone()),
        };
        let it = v.ty.with_elem(to);
        let i = self.emit(
            &it,
            &format!("bitcast {} : {} -> {}", v.name, v.ty.text(), it.text()),
        );
        (i, it)
    }

    fn all_vals(&self) -> impl Iterator<Item = &Val> {
        self.scopes.iter().flatten()
    }

    fn any_val(&mut self) -> Val {
        let all: Vec<Val> = self.all_vals().cloned().collect();
        all[self.rng.below(all.len() as u64) as usize].clone()
    }

    /// A value of type `ty`: an existing one (biased to the most recent) or a new one.
    fn operand(&mut self, ty: &Ty) -> String {
        let cands: Vec<String> = self
            .all_vals()
            .filter(|v| v.ty == *ty)
            .map(|v| v.name.clone())
            .collect();
        if !cands.is_empty() && self.rng.percent(75) {
            return self.pick_recent(&cands);
        }
        self.make(ty)
    }

    /// An existing value of type `ty` if there is one (the most recent ones first), else a
    /// new one.
    fn recent(&mut self, ty: &Ty) -> String {
        let cands: Vec<String> = self
            .all_vals()
            .filter(|v| v.ty == *ty)
            .map(|v| v.name.clone())
            .collect();
        if cands.is_empty() {
            self.make(ty)
        } else {
            self.pick_recent(&cands)
        }
    }

    fn pick_recent(&mut self, cands: &[String]) -> String {
        // Geometric from the end: the last one half of the time.
        let mut i = cands.len() - 1;
        while i > 0 && self.rng.percent(45) {
            i -= 1;
        }
        cands[i].clone()
    }

    /// A new value of type `ty`, from a constant, a conversion or a shape change.
    fn make(&mut self, ty: &Ty) -> String {
        match self.rng.below(10) {
            0..=3 => self.constant(ty),
            4..=6 => {
                let from: Vec<Val> = self
                    .all_vals()
                    .filter(|v| v.ty.shape == ty.shape && v.ty.elem != ty.elem)
                    .cloned()
                    .collect();
                if from.is_empty() {
                    return self.constant(ty);
                }
                let v = from[self.rng.below(from.len() as u64) as usize].clone();
                self.convert(&v, ty.elem)
            }
            _ => {
                let from: Vec<Val> = self
                    .all_vals()
                    .filter(|v| v.ty.elem == ty.elem && v.ty.shape != ty.shape)
                    .cloned()
                    .collect();
                if from.is_empty() {
                    return self.constant(ty);
                }
                let v = from[self.rng.below(from.len() as u64) as usize].clone();
                self.reshape_to(&v, ty)
            }
        }
    }

    /// `v` as a value of type `to` (same elements, another shape): a reshape when the
    /// element counts agree, a broadcast when `to` is a broadcast of `v`, otherwise a
    /// reduction-free route (reshape to all ones, then broadcast) from one element.
    fn reshape_to(&mut self, v: &Val, to: &Ty) -> String {
        if v.ty.len() == to.len() {
            return self.emit(
                to,
                &format!("reshape {} : {} -> {}", v.name, v.ty.text(), to.text()),
            );
        }
        let rank_ok = v.ty.shape.len() == to.shape.len()
            && v.ty
                .shape
                .iter()
                .zip(&to.shape)
                .all(|(a, b)| *a == *b || *a == 1);
        if rank_ok {
            return self.emit(
                to,
                &format!("broadcast {} : {} -> {}", v.name, v.ty.text(), to.text()),
            );
        }
        // One element of `v` (via extract of the first block), reshaped to 1x..x1, broadcast.
        let ones = Ty::new(v.ty.elem, &vec![1; v.ty.shape.len()]);
        let first = if v.ty.len() == 1 {
            v.name.clone()
        } else {
            let zero = self.int_const(I32, &[], 0);
            let idx = vec![zero; v.ty.shape.len()];
            self.emit(
                &ones,
                &format!(
                    "extract {}[{}] : {} -> {}",
                    v.name,
                    idx.join(", "),
                    v.ty.text(),
                    ones.text()
                ),
            )
        };
        let ones_to = Ty::new(v.ty.elem, &vec![1; to.shape.len()]);
        let from_ty = if v.ty.len() == 1 { &v.ty } else { &ones };
        let r = if *from_ty == ones_to {
            first
        } else {
            self.emit(
                &ones_to,
                &format!("reshape {first} : {} -> {}", from_ty.text(), ones_to.text()),
            )
        };
        if ones_to == *to {
            return r;
        }
        self.emit(
            to,
            &format!("broadcast {r} : {} -> {}", ones_to.text(), to.text()),
        )
    }

    /// `v` converted to element type `to` (same shape).
    fn convert(&mut self, v: &Val, to: Elem) -> String {
        let from = v.ty.elem;
        let ty = v.ty.with_elem(to);
        let (ft, tt) = (v.ty.text(), ty.text());
        let n = &v.name;
        let sign = if self.rng.percent(50) {
            "signed"
        } else {
            "unsigned"
        };
        let text = if from.width() == to.width() && self.rng.percent(60) {
            format!("bitcast {n} : {ft} -> {tt}")
        } else if from.is_int() && to.is_int() {
            if to.width() > from.width() {
                format!("exti {n} {sign} : {ft} -> {tt}")
            } else {
                let flag = self.overflow_flag(15);
                format!("trunci {n}{flag} : {ft} -> {tt}")
            }
        } else if from.is_int() {
            if self.entry && matches!(to, F8E4M3FN | F8E5M2) {
                // tilec-ptx writes invalid PTX for `itof` to f8 (a cvt of an f32 register
                // as a b16): entry mode goes through f32.
                let f = v.ty.with_elem(F32);
                let x = self.emit(&f, &format!("itof {n} {sign} : {ft} -> {}", f.text()));
                format!("ftof {x} : {} -> {tt}", f.text())
            } else {
                format!("itof {n} {sign} : {ft} -> {tt}")
            }
        } else if to.is_int() {
            if self.entry {
                // `ftoi` of an infinity is undefined behaviour: entry mode clamps first.
                let x = self.finite(v);
                format!("ftoi {} {sign} : {} -> {tt}", x.name, x.ty.text())
            } else {
                format!("ftoi {n} {sign} : {ft} -> {tt}")
            }
        } else {
            format!("ftof {n} : {ft} -> {tt}")
        };
        self.emit(&ty, &text)
    }

    /// `v` with infinities clamped to the largest finite value (`minf`/`maxf`, which also
    /// turn NaN into a number); `tf32` and `f8E5M2` through `f32`.
    fn finite(&mut self, v: &Val) -> Val {
        let v = match v.ty.elem {
            F8E4M3FN => return v.clone(),
            TF32 | F8E5M2 => {
                let ty = v.ty.with_elem(F32);
                let name = self.emit(
                    &ty,
                    &format!("ftof {} : {} -> {}", v.name, v.ty.text(), ty.text()),
                );
                Val { name, ty }
            }
            _ => v.clone(),
        };
        let (e, t) = (v.ty.elem, v.ty.text());
        let k = e.kind().expect("a float type");
        let max = float::max_finite(k, false);
        let sign = 1u64 << (k.bit_width() - 1);
        let hi = self.emit(&v.ty, &format!("constant <{}: 0x{max:X}> : {t}", e.name()));
        let lo = self.emit(
            &v.ty,
            &format!("constant <{}: 0x{:X}> : {t}", e.name(), max | sign),
        );
        let x = self.emit(&v.ty, &format!("minf {}, {hi} : {t}", v.name));
        let name = self.emit(&v.ty, &format!("maxf {x}, {lo} : {t}"));
        Val { name, ty: v.ty }
    }

    /// ` overflow<...>` with probability `percent`, else nothing (entry mode: a quarter
    /// as often, since most flags make a random input undefined behaviour).
    fn overflow_flag(&mut self, percent: u64) -> &'static str {
        let percent = if self.entry { percent / 4 } else { percent };
        if !self.rng.percent(percent) {
            return "";
        }
        self.rng.pick(&[
            " overflow<no_signed_wrap>",
            " overflow<no_unsigned_wrap>",
            " overflow<no_wrap>",
            " overflow<none>",
        ])
    }

    /// The literal text of one element.
    fn literal(&mut self, elem: Elem, bits: u64) -> String {
        match elem.kind() {
            Some(k) => {
                if self.rng.percent(20) {
                    let x = float::to_f64(k, bits);
                    // Decimal forms where they are exact and short.
                    if x.is_finite() && x == x.trunc() && x.abs() < 1e6 {
                        return format!("{x:.1}");
                    }
                }
                format!("0x{:X}", bits)
            }
            None if elem == I1 => if bits & 1 == 1 { "true" } else { "false" }.to_string(),
            None => {
                let w = elem.width();
                tilec_ir::util::sign_extend(bits, w).to_string()
            }
        }
    }

    /// A constant of type `ty`: usually a splat of a special value, sometimes a list.
    fn constant(&mut self, ty: &Ty) -> String {
        let splat = ty.shape.is_empty() || self.rng.percent(80);
        let body = if splat {
            let b = elem_bits(self.rng, ty.elem);
            self.literal(ty.elem, b)
        } else {
            let n = ty.len() as usize;
            let same = self.rng.percent(25).then(|| elem_bits(self.rng, ty.elem));
            let elems: Vec<String> = (0..n)
                .map(|_| {
                    let b = same.unwrap_or_else(|| elem_bits(self.rng, ty.elem));
                    self.literal(ty.elem, b)
                })
                .collect();
            nested(&elems, &ty.shape)
        };
        self.emit(
            ty,
            &format!("constant <{}: {body}> : {}", ty.elem.name(), ty.text()),
        )
    }

    fn int_const(&mut self, elem: Elem, shape: &[i64], v: i64) -> String {
        let ty = Ty::new(elem, shape);
        let lit = if elem == I1 {
            if v & 1 == 1 { "true" } else { "false" }.to_string()
        } else {
            tilec_ir::util::sign_extend(v as u64 & mask(elem.width()), elem.width()).to_string()
        };
        // Sometimes written out element by element (still one value: folds must see it).
        let lit = if !shape.is_empty() && self.rng.percent(15) {
            nested(&vec![lit; ty.len() as usize], shape)
        } else {
            lit
        };
        self.emit(
            &ty,
            &format!("constant <{}: {lit}> : {}", elem.name(), ty.text()),
        )
    }

    fn int_const_in(&mut self, elem: Elem, shape: &[i64], lo: i64, hi: i64) -> String {
        let v = self.rng.range(lo, hi);
        self.int_const(elem, shape, v)
    }

    fn rand_bool_const(&mut self, shape: &[i64]) -> String {
        let b = self.rng.percent(50);
        self.bool_const(shape, b)
    }

    fn pick_ty_mix(&mut self, int_percent: u64) -> Ty {
        let elems = if self.rng.percent(int_percent) {
            INTS
        } else {
            BASE_FLOATS
        };
        self.pick_ty(elems)
    }

    fn bool_const(&mut self, shape: &[i64], b: bool) -> String {
        self.int_const(I1, shape, i64::from(b))
    }

    /// A type for a new op of `class`: the type of an existing value of that class, or a
    /// new one.
    fn pick_ty(&mut self, elems: &[Elem]) -> Ty {
        let cands: Vec<Ty> = self
            .all_vals()
            .filter(|v| elems.contains(&v.ty.elem))
            .map(|v| v.ty.clone())
            .collect();
        if !cands.is_empty() && self.rng.percent(65) {
            let i = self.rng.below(cands.len() as u64) as usize;
            return cands[i].clone();
        }
        let e = self.rng.pick(elems);
        let s = self.shape();
        Ty::new(e, &s)
    }

    /// One element of `v`, as a rank-0 tile (an `extract` of a 1x..x1 block, reshaped).
    fn element_of(&mut self, v: &Val) -> Val {
        let et = Ty::new(v.ty.elem, &[]);
        if v.ty.shape.is_empty() {
            return v.clone();
        }
        let ones = Ty::new(v.ty.elem, &vec![1; v.ty.shape.len()]);
        let shape = v.ty.shape.clone();
        let idx: Vec<String> = shape
            .iter()
            .map(|d| self.int_const_in(I32, &[], 0, d - 1))
            .collect();
        let block = self.emit(
            &ones,
            &format!(
                "extract {}[{}] : {} -> {}",
                v.name,
                idx.join(", "),
                v.ty.text(),
                ones.text()
            ),
        );
        let name = self.emit(
            &et,
            &format!("reshape {block} : {} -> {}", ones.text(), et.text()),
        );
        Val { name, ty: et }
    }

    /// A rank-0 `i1` condition.
    fn cond(&mut self) -> String {
        let b = Ty::new(I1, &[]);
        let existing = self.all_vals().any(|v| v.ty == b);
        match self.rng.below(10) {
            0 => {
                let v = self.rng.percent(50);
                self.bool_const(&[], v)
            }
            1..=3 if existing => self.recent(&b),
            4..=6 => {
                // Depends on the inputs: an element of a recent value, compared.
                let all: Vec<Val> = self.all_vals().cloned().collect();
                let mut i = all.len() - 1;
                while i > 0 && self.rng.percent(60) {
                    i -= 1;
                }
                let mut x = self.element_of(&all[i]);
                if x.ty.elem == I1 {
                    return x.name;
                }
                if !x.ty.elem.is_int() && !BASE_FLOATS.contains(&x.ty.elem) {
                    let name = self.convert(&x, F32);
                    x = Val {
                        name,
                        ty: Ty::new(F32, &[]),
                    };
                }
                let y = self.operand(&x.ty);
                let pred = self
                    .rng
                    .pick(&["equal", "not_equal", "less_than", "greater_than"]);
                let t = x.ty.text();
                let text = if x.ty.elem.is_int() {
                    format!("cmpi {pred} {}, {y}, signed : {t} -> tile<i1>", x.name)
                } else {
                    format!("cmpf {pred} unordered {}, {y} : {t} -> tile<i1>", x.name)
                };
                self.emit(&b, &text)
            }
            _ => {
                let e = self.rng.pick(&[I8, I16, I32, I64, F16, F32, F64, I1]);
                let t = Ty::new(e, &[]);
                self.compare(&t)
            }
        }
    }

    /// A comparison of two values of `ty` (an `i1` tile of its shape).
    fn compare(&mut self, ty: &Ty) -> String {
        let a = self.operand(ty);
        let b = if self.rng.percent(15) {
            a.clone()
        } else {
            self.operand(ty)
        };
        let pred = self
            .rng
            .pick(tilec_ir::attrs::EnumKind::ComparisonPredicate.cases());
        let rt = ty.with_elem(I1);
        let text = if ty.elem.is_int() {
            let sign = self.rng.pick(&["signed", "unsigned"]);
            format!(
                "cmpi {pred} {a}, {b}, {sign} : {} -> {}",
                ty.text(),
                rt.text()
            )
        } else {
            let ord = self.rng.pick(&["ordered", "unordered"]);
            format!(
                "cmpf {pred} {ord} {a}, {b} : {} -> {}",
                ty.text(),
                rt.text()
            )
        };
        self.emit(&rt, &text)
    }

    /// One statement (one op, a region op with its contents, or a recipe).
    fn stmt(&mut self, ctx: &Ctx) {
        self.ops_left -= 1;
        let regions_ok = self.depth < 3 && !self.in_body;
        let free = u32::from(!self.in_body);
        let w = [
            14,                                             // int arithmetic
            3,                                              // int unary
            5,                                              // comparison
            12,                                             // float arithmetic
            5,                                              // float unary / fma
            5,                                              // select
            6,                                              // conversion
            2,                                              // constant
            8 * free,                                       // shape ops
            if regions_ok { 3 } else { 0 },                 // reduce / scan
            if regions_ok { 6 } else { 0 },                 // if
            if regions_ok { 2 } else { 0 },                 // for
            if regions_ok { 1 } else { 0 },                 // loop
            14,                                             // recipes
            free * u32::from(!self.entry),                  // print
            if self.mem.is_some() { 12 * free } else { 0 }, // load / store
        ];
        match self.rng.weighted(&w) {
            0 => {
                let ty = self.pick_ty(INTS);
                self.int_binary(&ty);
            }
            1 => {
                let ty = self.pick_ty(INTS);
                self.int_unary(&ty);
            }
            2 => {
                let elems = if self.rng.percent(50) {
                    INTS
                } else {
                    BASE_FLOATS
                };
                let ty = self.pick_ty(elems);
                self.compare(&ty);
            }
            3 => {
                let ty = self.pick_ty(BASE_FLOATS);
                self.float_binary(&ty);
            }
            4 => {
                let ty = self.pick_ty(BASE_FLOATS);
                self.float_unary(&ty);
            }
            5 => {
                let ty = self.pick_ty_mix(50);
                let c = self.operand(&ty.with_elem(I1));
                let a = self.operand(&ty);
                let b = self.operand(&ty);
                self.select(&c, &a, &b, &ty);
            }
            6 => {
                let v = self.any_val();
                let to = if self.rng.percent(70) {
                    self.param_elem()
                } else {
                    self.rng.pick(ALL_FLOATS)
                };
                if to != v.ty.elem {
                    self.convert(&v, to);
                }
            }
            7 => {
                let e = self.param_elem();
                let s = self.shape();
                self.constant(&Ty::new(e, &s));
            }
            8 => self.shape_op(),
            9 => self.reduce_or_scan(),
            10 => self.gen_if(ctx),
            11 => self.gen_for(ctx),
            12 => self.gen_loop(ctx),
            13 => self.recipe(ctx),
            14 => self.print(),
            // Entry mode: gathers only (a scatter through random offsets races).
            _ => self.mem_op(self.entry.then_some(false)),
        }
    }

    /// A `load_ptr_tko` or `store_ptr_tko` through pointers `base + (x & 63)` (the buffer
    /// holds at least 64 KiB), sometimes masked.
    fn mem_op(&mut self, store: Option<bool>) {
        let Some((base, e)) = self.mem.clone() else {
            return;
        };
        let shape = self.shape();
        let dims: String = shape.iter().map(|d| format!("{d}x")).collect();
        let pty = format!("tile<{dims}ptr<{}>>", e.name());
        let p = if shape.is_empty() {
            base
        } else {
            let ones: String = shape.iter().map(|_| "1x").collect();
            let oty = format!("tile<{ones}ptr<{}>>", e.name());
            let r = self.fresh();
            self.line(&format!(
                "{r} = reshape {base} : tile<ptr<{}>> -> {oty}",
                e.name()
            ));
            if shape.iter().all(|d| *d == 1) {
                r
            } else {
                let b = self.fresh();
                self.line(&format!("{b} = broadcast {r} : {oty} -> {pty}"));
                b
            }
        };
        let oty = Ty::new(I32, &shape);
        let x = self.operand(&oty);
        let m = self.int_const(I32, &shape, 63);
        let off = self.emit(&oty, &format!("andi {x}, {m} : {}", oty.text()));
        let ptrs = self.fresh();
        self.line(&format!(
            "{ptrs} = offset {p}, {off} : {pty}, {} -> {pty}",
            oty.text()
        ));
        let ty = Ty::new(e, &shape);
        let mty = Ty::new(I1, &shape);
        let tok = self.token.clone();
        let (mut operands, mut types) = (String::new(), String::new());
        let masked = self.rng.percent(30);
        if !store.unwrap_or_else(|| self.rng.percent(50)) {
            if masked {
                let k = self.operand(&mty);
                operands.push_str(&format!(", {k}"));
                types.push_str(&format!(", {}", mty.text()));
                // Entry mode: always a padding value (masked-off lanes are unspecified).
                if self.entry || self.rng.percent(50) {
                    let v = self.operand(&ty);
                    operands.push_str(&format!(", {v}"));
                    types.push_str(&format!(", {}", ty.text()));
                }
            }
            let (v, t) = (self.fresh(), self.fresh());
            self.line(&format!(
                "{v}, {t} = load_ptr_tko weak {ptrs}{operands} token={tok} : {pty}{types} -> {}, token",
                ty.text()
            ));
            self.define(&v, &ty);
        } else {
            let v = self.operand(&ty);
            if masked {
                let k = self.operand(&mty);
                operands.push_str(&format!(", {k}"));
                types.push_str(&format!(", {}", mty.text()));
            }
            let t = self.fresh();
            self.line(&format!(
                "{t} = store_ptr_tko weak {ptrs}, {v}{operands} token={tok} : {pty}, {}{types} -> token",
                ty.text()
            ));
        }
    }

    fn select(&mut self, c: &str, a: &str, b: &str, ty: &Ty) -> String {
        let ct = ty.with_elem(I1);
        self.emit(
            ty,
            &format!("select {c}, {a}, {b} : {}, {}", ct.text(), ty.text()),
        )
    }

    /// A shift amount for `ty`: usually in range (a constant, or `x & (w - 1)`).
    fn shift_amount(&mut self, ty: &Ty) -> String {
        let w = i64::from(ty.elem.width());
        // Entry mode: never a raw value (most would be out of range: undefined behaviour).
        let limit = if self.entry { 8 } else { 10 };
        match self.rng.below(limit) {
            0..=3 => {
                let k = self.rng.range(0, w - 1);
                self.int_const(ty.elem, &ty.shape, k)
            }
            4..=7 => {
                let x = self.operand(ty);
                let m = self.int_const(ty.elem, &ty.shape, w - 1);
                self.emit(ty, &format!("andi {x}, {m} : {}", ty.text()))
            }
            _ => self.operand(ty),
        }
    }

    /// A divisor for `ty`: often one that cannot be zero.
    fn divisor(&mut self, ty: &Ty) -> String {
        // Entry mode: never a raw value (the inputs hold zeros).
        let first = if self.entry { 4 } else { 0 };
        match first + self.rng.below(10 - first) {
            0..=3 => self.operand(ty),
            4..=6 => {
                let x = self.operand(ty);
                let one = self.int_const(ty.elem, &ty.shape, 1);
                self.emit(ty, &format!("ori {x}, {one} : {}", ty.text()))
            }
            _ => {
                let k = self.rng.pick(&[1, -1, 2, 3, 7, -8, i64::MAX, i64::MIN]);
                let k = if k & mask(ty.elem.width()) as i64 == 0 {
                    1
                } else {
                    k
                };
                self.int_const(ty.elem, &ty.shape, k)
            }
        }
    }

    fn int_binary(&mut self, ty: &Ty) -> String {
        let t = ty.text();
        let op = self.rng.pick(&[
            "addi", "subi", "muli", "shli", "andi", "ori", "xori", "divi", "remi", "maxi", "mini",
            "mulhi", "shri", "addi", "subi", "muli",
        ]);
        // `divi` is not pure (it may trap): not in reduction bodies.
        let op = if op == "divi" && self.in_body {
            "remi"
        } else {
            op
        };
        let a = self.operand(ty);
        let b = match op {
            "shli" | "shri" => self.shift_amount(ty),
            "divi" | "remi" => self.divisor(ty),
            _ if self.rng.percent(12) => a.clone(),
            _ => self.operand(ty),
        };
        let sign = self.rng.pick(&["signed", "unsigned"]);
        let text = match op {
            "addi" | "subi" | "muli" | "shli" => {
                let f = self.overflow_flag(20);
                format!("{op} {a}, {b}{f} : {t}")
            }
            "divi" => {
                let r = match self.rng.below(6) {
                    0 => " rounding<positive_inf>",
                    1 if sign == "signed" => " rounding<negative_inf>",
                    2 => " rounding<zero>",
                    _ => "",
                };
                format!("divi {a}, {b} {sign}{r} : {t}")
            }
            "remi" | "maxi" | "mini" | "shri" => format!("{op} {a}, {b} {sign} : {t}"),
            _ => format!("{op} {a}, {b} : {t}"),
        };
        self.emit(ty, &text)
    }

    fn int_unary(&mut self, ty: &Ty) -> String {
        let mut ops = vec!["absi", "negsi", "noti"];
        if ty.elem != I1 {
            ops.extend(["popcnt", "clz", "ctz", "brev"]);
        }
        let op = self.rng.pick(&ops);
        let a = self.operand(ty);
        self.emit(ty, &format!("{op} {a} : {}", ty.text()))
    }

    fn rounding(&mut self, extra: &[&'static str]) -> String {
        if self.rng.percent(50) {
            return String::new();
        }
        let mut modes = vec!["nearest_even", "zero", "negative_inf", "positive_inf"];
        modes.extend_from_slice(extra);
        format!(" rounding<{}>", self.rng.pick(&modes))
    }

    fn ftz(&mut self, ty: &Ty) -> &'static str {
        if ty.elem == F32 && self.rng.percent(30) {
            " flush_to_zero"
        } else {
            ""
        }
    }

    fn float_binary(&mut self, ty: &Ty) -> String {
        let t = ty.text();
        let op = self.rng.pick(&[
            "addf", "subf", "mulf", "divf", "maxf", "minf", "maximumf", "minimumf", "remf", "powf",
            "atan2", "addf", "mulf", "subf",
        ]);
        let a = self.operand(ty);
        let b = if self.rng.percent(10) {
            a.clone()
        } else {
            self.operand(ty)
        };
        let text = match op {
            "addf" | "subf" | "mulf" => {
                let r = self.rounding(&[]);
                let f = self.ftz(ty);
                format!("{op} {a}, {b}{r}{f} : {t}")
            }
            "divf" => {
                let extra: &[&str] = if ty.elem == F32 {
                    &["approx", "full"]
                } else {
                    &[]
                };
                let r = self.rounding(extra);
                let f = self.ftz(ty);
                format!("divf {a}, {b}{r}{f} : {t}")
            }
            "maxf" | "minf" => {
                let f = self.ftz(ty);
                let p = if self.rng.percent(40) {
                    " propagate_nan"
                } else {
                    ""
                };
                format!("{op} {a}, {b}{f}{p} : {t}")
            }
            "maximumf" | "minimumf" => {
                let f = self.ftz(ty);
                format!("{op} {a}, {b}{f} : {t}")
            }
            _ => format!("{op} {a}, {b} : {t}"),
        };
        self.emit(ty, &text)
    }

    fn float_unary(&mut self, ty: &Ty) -> String {
        let t = ty.text();
        let op = self.rng.pick(&[
            "absf", "negf", "ceil", "floor", "sqrt", "rsqrt", "exp", "exp2", "log", "log2",
            "log10", "log1p", "sin", "cos", "tan", "sinh", "cosh", "tanh", "sigmoid", "recipf",
            "fma", "fma", "absf", "negf",
        ]);
        let a = self.operand(ty);
        let text = match op {
            "fma" => {
                let b = self.operand(ty);
                let c = self.operand(ty);
                let r = self.rounding(&[]);
                let f = self.ftz(ty);
                format!("fma {a}, {b}, {c}{r}{f} : {t}")
            }
            "sqrt" => {
                let extra: &[&str] = if ty.elem == F32 { &["approx"] } else { &[] };
                let r = self.rounding(extra);
                let f = self.ftz(ty);
                format!("sqrt {a}{r}{f} : {t}")
            }
            "rsqrt" | "exp2" => {
                let f = self.ftz(ty);
                format!("{op} {a}{f} : {t}")
            }
            _ => format!("{op} {a} : {t}"),
        };
        self.emit(ty, &text)
    }

    fn shape_op(&mut self) {
        let v = self.any_val();
        let t = v.ty.clone();
        match self.rng.below(7) {
            // broadcast: a shape with some dimensions cut to 1, then back
            0 => {
                if t.shape.iter().all(|d| *d == 1) {
                    let to = self.rand_shape();
                    let to = Ty::new(t.elem, &to);
                    self.reshape_to(&v, &to);
                    return;
                }
                let mut small = t.shape.clone();
                for d in small.iter_mut() {
                    if *d > 1 && self.rng.percent(60) {
                        *d = 1;
                    }
                }
                if small == t.shape {
                    let i = t
                        .shape
                        .iter()
                        .position(|d| *d > 1)
                        .expect("a dimension > 1");
                    small[i] = 1;
                }
                let st = Ty::new(t.elem, &small);
                let src = self.operand(&st);
                self.emit(
                    &t,
                    &format!("broadcast {src} : {} -> {}", st.text(), t.text()),
                );
            }
            // reshape to another factorization of the element count
            1 => {
                let n = t.len();
                let k = n.trailing_zeros();
                let rank = self.rng.below(4) as usize;
                let mut shape = vec![1i64; rank];
                if rank == 0 && k > 0 {
                    shape = vec![n];
                } else {
                    for _ in 0..k {
                        let d = self.rng.below(rank as u64) as usize;
                        shape[d] *= 2;
                    }
                }
                let to = Ty::new(t.elem, &shape);
                self.emit(
                    &to,
                    &format!("reshape {} : {} -> {}", v.name, t.text(), to.text()),
                );
            }
            // permute
            2 => {
                let r = t.shape.len();
                if r < 2 {
                    return;
                }
                let mut perm: Vec<usize> = (0..r).collect();
                for i in (1..r).rev() {
                    let j = self.rng.below(i as u64 + 1) as usize;
                    perm.swap(i, j);
                }
                let shape: Vec<i64> = perm.iter().map(|p| t.shape[*p]).collect();
                let to = Ty::new(t.elem, &shape);
                let ps: Vec<String> = perm.iter().map(|p| p.to_string()).collect();
                self.emit(
                    &to,
                    &format!(
                        "permute {} [{}] : {} -> {}",
                        v.name,
                        ps.join(", "),
                        t.text(),
                        to.text()
                    ),
                );
            }
            // cat along a dimension
            3 => {
                let r = t.shape.len();
                if r == 0 || t.len() * 2 > MAX_ELEMS {
                    return;
                }
                let d = self.rng.below(r as u64) as usize;
                let other = self.operand(&t);
                let mut shape = t.shape.clone();
                shape[d] *= 2;
                let to = Ty::new(t.elem, &shape);
                let (a, b) = if self.rng.percent(50) {
                    (v.name.clone(), other)
                } else {
                    (other, v.name.clone())
                };
                self.emit(
                    &to,
                    &format!(
                        "cat {a}, {b} dim = {d} : {}, {} -> {}",
                        t.text(),
                        t.text(),
                        to.text()
                    ),
                );
            }
            // extract a block
            4 => {
                let r = t.shape.len();
                if r == 0 {
                    return;
                }
                let mut shape = t.shape.clone();
                let mut idx = Vec::new();
                for d in shape.iter_mut() {
                    let blocks = if *d > 1 && self.rng.percent(60) {
                        let b = self.rng.pick(&[2, 2, 4]).min(*d);
                        *d /= b;
                        b
                    } else {
                        1
                    };
                    // Entry mode: no raw index (most are out of bounds).
                    let limit = if self.entry { 9 } else { 10 };
                    let i = match self.rng.below(limit) {
                        0..=5 => {
                            let k = self.rng.range(0, blocks - 1);
                            self.int_const(I32, &[], k)
                        }
                        6..=8 => {
                            let x = self.operand(&Ty::new(I32, &[]));
                            let m = self.int_const(I32, &[], blocks - 1);
                            self.emit(&Ty::new(I32, &[]), &format!("andi {x}, {m} : tile<i32>"))
                        }
                        _ => self.operand(&Ty::new(I32, &[])),
                    };
                    idx.push(i);
                }
                let to = Ty::new(t.elem, &shape);
                self.emit(
                    &to,
                    &format!(
                        "extract {}[{}] : {} -> {}",
                        v.name,
                        idx.join(", "),
                        t.text(),
                        to.text()
                    ),
                );
            }
            // iota
            5 => {
                let e = self.rng.pick(INTS8);
                let n = self.rng.pick(&[1, 2, 4, 8, 16, 32]);
                self.emit(&Ty::new(e, &[n]), &format!("iota : tile<{n}x{}>", e.name()));
            }
            // reshape/broadcast to a working shape
            _ => {
                let s = self.shape();
                let to = Ty::new(t.elem, &s);
                if to != t {
                    self.reshape_to(&v, &to);
                }
            }
        }
    }

    /// The text of a reduction identity.
    fn identity(&mut self, e: Elem) -> String {
        match e.kind() {
            Some(_) => {
                let x = self
                    .rng
                    .pick(&["0.000000e+00", "1.000000e+00", "-0.000000e+00", "2.5"]);
                format!("{x} : {}", e.name())
            }
            None => {
                let x = self.rng.pick(&[0i64, 1, -1]);
                let x = if e == I1 { x & 1 } else { x };
                format!("{x} : {}", e.name())
            }
        }
    }

    fn reduce_or_scan(&mut self) {
        let cands: Vec<Val> = self
            .all_vals()
            .filter(|v| !v.ty.shape.is_empty() && v.ty.elem != I1 && v.ty.elem.width() >= 8)
            .filter(|v| v.ty.elem.is_int() || BASE_FLOATS.contains(&v.ty.elem))
            .cloned()
            .collect();
        if cands.is_empty() {
            return;
        }
        let v = cands[self.rng.below(cands.len() as u64) as usize].clone();
        let t = v.ty.clone();
        let d = self.rng.below(t.shape.len() as u64) as usize;
        let scan = self.rng.percent(40);
        let rt = if scan {
            t.clone()
        } else {
            let mut s = t.shape.clone();
            s.remove(d);
            Ty::new(t.elem, &s)
        };
        let et = Ty::new(t.elem, &[]);
        let id = self.identity(t.elem);
        let r = self.fresh();
        let head = if scan {
            let rev = self.rng.pick(&["false", "true"]);
            format!(
                "{r} = scan {} dim={d} reverse={rev} identities=[{id}] : {} -> {}",
                v.name,
                t.text(),
                rt.text()
            )
        } else {
            format!(
                "{r} = reduce {} dim={d} identities=[{id}] : {} -> {}",
                v.name,
                t.text(),
                rt.text()
            )
        };
        let head_at = self.out.len();
        self.line(&head);
        let (a, b) = (self.fresh(), self.fresh());
        self.line(&format!("({a}: {}, {b}: {}) {{", et.text(), et.text()));
        self.indent += 1;
        // The body sees only its arguments (and what it defines).
        let saved = std::mem::replace(&mut self.scopes, vec![Vec::new()]);
        self.define(&a, &et);
        self.define(&b, &et);
        self.depth += 1;
        let body_op;
        let res = if t.elem.is_int() {
            let op = self
                .rng
                .pick(&["addi", "muli", "andi", "ori", "xori", "maxi", "mini"]);
            let extra = match op {
                "maxi" | "mini" => format!(" {}", self.rng.pick(&["signed", "unsigned"])),
                _ => String::new(),
            };
            body_op = format!("{op}{extra}");
            let x = self.emit(&et, &format!("{op} {a}, {b}{extra} : {}", et.text()));
            if self.rng.percent(30) {
                // Something for the canonicalizer inside the body.
                let z = self.int_const(t.elem, &[], 0);
                self.emit(&et, &format!("addi {x}, {z} : {}", et.text()))
            } else {
                x
            }
        } else {
            let op = self.rng.pick(&["addf", "mulf", "maxf", "minf", "addf"]);
            body_op = op.to_string();
            let x = self.emit(&et, &format!("{op} {a}, {b} : {}", et.text()));
            // Entry mode keeps the body a true monoid (the GPU combines in its own order).
            if !self.entry && self.rng.percent(30) {
                let c = self.rand_bool_const(&[]);
                self.select(&c, &x, &a, &et)
            } else {
                x
            }
        };
        let res = if self.rng.percent(25) {
            // More ops (control flow included) in the body, on the arguments only.
            let saved_shapes = std::mem::replace(&mut self.shapes, vec![Vec::new()]);
            let inner = Ctx {
                can_return: false,
                lp: None,
            };
            let n = self.rng.range(1, 3);
            self.in_body = true;
            self.body(&inner, n);
            self.in_body = false;
            self.shapes = saved_shapes;
            if !self.entry && self.rng.percent(50) {
                self.recent(&et)
            } else {
                res
            }
        } else {
            res
        };
        if self.entry {
            // The identity of the body's op, as the spec requires of an identity: the
            // interpreter folds from it, the GPU may not use it at all.
            let true_id = format!("{} : {}", monoid_identity(&body_op, t.elem), t.elem.name());
            let from = format!("identities=[{id}]");
            let to = format!("identities=[{true_id}]");
            if let Some(i) = self.out[head_at..].find(&from) {
                self.out
                    .replace_range(head_at + i..head_at + i + from.len(), &to);
            }
        }
        self.line(&format!("yield {res} : {}", et.text()));
        self.depth -= 1;
        self.scopes = saved;
        self.indent -= 1;
        self.line("}");
        self.define(&r, &rt);
    }

    /// Statements of a region body: `n` statements in a new scope (the caller pops it).
    fn body(&mut self, ctx: &Ctx, n: i64) {
        self.depth += 1;
        let stop = self.ops_left - n;
        while self.ops_left > stop {
            self.stmt(ctx);
        }
        self.depth -= 1;
    }

    /// The terminator of a branch: a yield of `tys`, or (sometimes) a return, break or
    /// continue.
    fn branch_end(&mut self, ctx: &Ctx, tys: &[Ty], exit_percent: u64) {
        if self.rng.percent(exit_percent) {
            if let Some(lp) = ctx.lp.clone() {
                let brk = lp.is_loop && self.rng.percent(50);
                let mut vals = Vec::new();
                for (i, t) in lp.tys.iter().enumerate() {
                    match (&lp.counter, i) {
                        (Some(c), 0) => vals.push(c.clone()),
                        _ => vals.push(self.operand(t)),
                    }
                }
                let kw = if brk { "break" } else { "continue" };
                if vals.is_empty() {
                    self.line(kw);
                } else {
                    self.line(&format!(
                        "{kw} {} : {}",
                        vals.join(", "),
                        types_text(&lp.tys)
                    ));
                }
                return;
            }
            if ctx.can_return {
                self.ret_stmt();
                return;
            }
        }
        self.yield_stmt(tys);
    }

    fn ret_stmt(&mut self) {
        let tys = self.ret.clone();
        let vals: Vec<String> = tys.iter().map(|t| self.operand(t)).collect();
        self.line(&format!(
            "return {} : {}",
            vals.join(", "),
            types_text(&tys)
        ));
    }

    fn yield_stmt(&mut self, tys: &[Ty]) {
        if tys.is_empty() {
            if self.rng.percent(50) {
                self.line("yield");
            }
            return;
        }
        let vals: Vec<String> = tys.iter().map(|t| self.operand(t)).collect();
        self.line(&format!("yield {} : {}", vals.join(", "), types_text(tys)));
    }

    fn result_types(&mut self, max: i64) -> Vec<Ty> {
        let n = self.rng.range(0, max);
        (0..n)
            .map(|_| {
                if self.rng.percent(70) {
                    self.any_val().ty
                } else {
                    let e = self.param_elem();
                    let s = self.shape();
                    Ty::new(e, &s)
                }
            })
            .collect()
    }

    /// `%r... = if COND -> (TYS) {`, or `if COND {`; returns the result names.
    fn if_head(&mut self, cond: &str, tys: &[Ty]) -> Vec<String> {
        let names: Vec<String> = tys.iter().map(|_| self.fresh()).collect();
        if tys.is_empty() {
            self.line(&format!("if {cond} {{"));
        } else {
            self.line(&format!(
                "{} = if {cond} -> ({}) {{",
                names.join(", "),
                types_text(tys)
            ));
        }
        names
    }

    fn define_all(&mut self, names: &[String], tys: &[Ty]) {
        for (n, t) in names.iter().zip(tys) {
            self.define(n, t);
        }
    }

    /// [`Gen::branch`] with a random number of statements in `lo..=hi`.
    fn branch_n(&mut self, ctx: &Ctx, tys: &[Ty], (lo, hi): (i64, i64), exit_percent: u64) {
        let n = self.rng.range(lo, hi);
        self.branch(ctx, tys, n, exit_percent);
    }

    /// A branch: a scope with `n` statements, ended by `branch_end`.
    fn branch(&mut self, ctx: &Ctx, tys: &[Ty], n: i64, exit_percent: u64) {
        self.indent += 1;
        self.scopes.push(Vec::new());
        self.body(ctx, n);
        self.branch_end(ctx, tys, exit_percent);
        self.scopes.pop();
        self.indent -= 1;
    }

    fn gen_if(&mut self, ctx: &Ctx) {
        let c = self.cond();
        self.if_with(ctx, &c);
    }

    /// A general `if` on `c`.
    fn if_with(&mut self, ctx: &Ctx, c: &str) {
        let tys = self.result_types(3);
        let names = self.if_head(c, &tys);
        let exit = if ctx.can_return || ctx.lp.is_some() {
            12
        } else {
            0
        };
        let n = self.rng.range(0, 3);
        if tys.is_empty() && self.rng.percent(50) {
            // Something observable, so that the `if` is not dead.
            self.indent += 1;
            self.print();
            self.indent -= 1;
        }
        self.branch(ctx, &tys, n, exit);
        if !tys.is_empty() || self.rng.percent(70) {
            self.line("} else {");
            if tys.is_empty() && self.rng.percent(40) {
                self.indent += 1;
                self.print();
                self.indent -= 1;
            }
            let n = self.rng.range(0, 3);
            self.branch(ctx, &tys, n, exit);
        }
        self.line("}");
        self.define_all(&names, &tys);
    }

    fn gen_for(&mut self, ctx: &Ctx) {
        let ivt = self.rng.pick(&[I32, I32, I64, I16]);
        let it = Ty::new(ivt, &[]);
        let unsigned = self.rng.percent(20);
        let lb = self.int_const_in(ivt, &[], 0, 2);
        let ub = if self.rng.percent(50) {
            self.int_const_in(ivt, &[], 0, 5)
        } else {
            let x = self.operand(&it);
            let m = self.int_const(ivt, &[], 3);
            self.emit(&it, &format!("andi {x}, {m} : {}", it.text()))
        };
        let step = self.int_const_in(ivt, &[], 1, 2);
        let tys = self.result_types(2);
        let inits: Vec<String> = tys.iter().map(|t| self.operand(t)).collect();
        let names: Vec<String> = tys.iter().map(|_| self.fresh()).collect();
        let iv = self.fresh();
        let args: Vec<String> = tys.iter().map(|_| self.fresh()).collect();
        let u = if unsigned { "unsigned " } else { "" };
        let mut head = String::new();
        if !tys.is_empty() {
            head.push_str(&format!("{} = ", names.join(", ")));
        }
        head.push_str(&format!(
            "for {u}{iv} in ({lb} to {ub}, step {step}) : {}",
            it.text()
        ));
        if !tys.is_empty() {
            let pairs: Vec<String> = args
                .iter()
                .zip(&inits)
                .map(|(a, i)| format!("{a} = {i}"))
                .collect();
            head.push_str(&format!(
                " iter_values({}) -> ({})",
                pairs.join(", "),
                types_text(&tys)
            ));
        }
        head.push_str(" {");
        self.line(&head);
        self.indent += 1;
        self.scopes.push(Vec::new());
        self.define(&iv, &it);
        self.define_all(&args, &tys);
        let inner = Ctx {
            can_return: false,
            lp: Some(LoopCtx {
                is_loop: false,
                tys: tys.clone(),
                counter: None,
            }),
        };
        let n = self.rng.range(1, 4);
        self.body(&inner, n);
        let vals: Vec<String> = tys.iter().map(|t| self.operand(t)).collect();
        if vals.is_empty() {
            if self.rng.percent(50) {
                self.line("continue");
            }
        } else {
            self.line(&format!(
                "continue {} : {}",
                vals.join(", "),
                types_text(&tys)
            ));
        }
        self.scopes.pop();
        self.indent -= 1;
        self.line("}");
        let _ = ctx;
        self.define_all(&names, &tys);
    }

    fn gen_loop(&mut self, ctx: &Ctx) {
        let _ = ctx;
        let ct = Ty::new(I32, &[]);
        let zero = self.int_const(I32, &[], 0);
        let limit = self.rng.range(0, 4);
        let mut tys = vec![ct.clone()];
        tys.extend(self.result_types(2));
        let mut inits = vec![zero];
        for t in &tys[1..] {
            let v = self.operand(t);
            inits.push(v);
        }
        let names: Vec<String> = tys.iter().map(|_| self.fresh()).collect();
        let args: Vec<String> = tys.iter().map(|_| self.fresh()).collect();
        let pairs: Vec<String> = args
            .iter()
            .zip(&inits)
            .map(|(a, i)| format!("{a} = {i}"))
            .collect();
        self.line(&format!(
            "{} = loop iter_values({}) : {} -> {} {{",
            names.join(", "),
            pairs.join(", "),
            types_text(&tys),
            types_text(&tys)
        ));
        self.indent += 1;
        self.scopes.push(Vec::new());
        self.define_all(&args, &tys);
        let one = self.int_const(I32, &[], 1);
        let next = self.emit(&ct, &format!("addi {}, {one} : tile<i32>", args[0]));
        let lim = self.int_const(I32, &[], limit);
        let done = self.emit(
            &Ty::new(I1, &[]),
            &format!("cmpi greater_than {next}, {lim}, signed : tile<i32> -> tile<i1>"),
        );
        self.line(&format!("if {done} {{"));
        self.indent += 1;
        self.scopes.push(Vec::new());
        let mut vals = vec![next.clone()];
        for t in &tys[1..] {
            let v = self.operand(t);
            vals.push(v);
        }
        self.line(&format!("break {} : {}", vals.join(", "), types_text(&tys)));
        self.scopes.pop();
        self.indent -= 1;
        self.line("}");
        let inner = Ctx {
            can_return: false,
            lp: Some(LoopCtx {
                is_loop: true,
                tys: tys.clone(),
                counter: Some(next.clone()),
            }),
        };
        let n = self.rng.range(1, 4);
        self.body(&inner, n);
        let mut vals = vec![next];
        for t in &tys[1..] {
            let v = self.operand(t);
            vals.push(v);
        }
        self.line(&format!(
            "continue {} : {}",
            vals.join(", "),
            types_text(&tys)
        ));
        self.scopes.pop();
        self.indent -= 1;
        self.line("}");
        self.define_all(&names, &tys);
    }

    fn print(&mut self) {
        if self.entry {
            // A GPU's printf output is not compared.
            return;
        }
        let v = self.any_val();
        let conv = if v.ty.elem.is_int() {
            self.rng.pick(&["%d", "%i", "%u", "%x", "%lld"])
        } else {
            self.rng.pick(&["%f", "%e", "%g", "%.3f"])
        };
        self.line(&format!(
            "print \"v{} = {conv}\\n\", {} : {}",
            self.next,
            v.name,
            v.ty.text()
        ));
    }

    /// A shape the canonicalizer rewrites.
    fn recipe(&mut self, ctx: &Ctx) {
        let regions_ok = self.depth < 3 && !self.in_body;
        let n = 28;
        let k = self.rng.below(n);
        match k {
            // select with equal arms
            0 => {
                let ty = self.pick_ty_mix(50);
                let c = self.operand(&ty.with_elem(I1));
                let a = self.operand(&ty);
                self.select(&c, &a, &a, &ty);
            }
            // select on a constant condition
            1 => {
                let ty = self.pick_ty_mix(50);
                let c = self.rand_bool_const(&ty.shape);
                let a = self.operand(&ty);
                let b = self.operand(&ty);
                self.select(&c, &a, &b, &ty);
            }
            // i1 select with constant arms: c, or not c
            2 => {
                let shape = self.shape();
                let ty = Ty::new(I1, &shape);
                let c = self.operand(&ty);
                let tv = self.rng.percent(50);
                let t = self.bool_const(&shape, tv);
                let f = self.bool_const(&shape, !tv);
                self.select(&c, &t, &f, &ty);
            }
            // select(x == y, x, y) and variants
            3 => {
                let ty = self.pick_ty_mix(70);
                let x = self.operand(&ty);
                let y = self.operand(&ty);
                let pred = self.rng.pick(&["equal", "not_equal", "less_than"]);
                let ct = ty.with_elem(I1);
                let c = if ty.elem.is_int() {
                    self.emit(
                        &ct,
                        &format!(
                            "cmpi {pred} {x}, {y}, signed : {} -> {}",
                            ty.text(),
                            ct.text()
                        ),
                    )
                } else {
                    self.emit(
                        &ct,
                        &format!(
                            "cmpf {pred} ordered {x}, {y} : {} -> {}",
                            ty.text(),
                            ct.text()
                        ),
                    )
                };
                if self.rng.percent(50) {
                    self.select(&c, &x, &y, &ty);
                } else {
                    self.select(&c, &y, &x, &ty);
                }
            }
            // select on an inverted condition
            4 => {
                let ty = self.pick_ty_mix(50);
                let ct = ty.with_elem(I1);
                let c = self.operand(&ct);
                let t = self.bool_const(&ty.shape, true);
                let n = self.emit(&ct, &format!("xori {c}, {t} : {}", ct.text()));
                let a = self.operand(&ty);
                let b = self.operand(&ty);
                self.select(&n, &a, &b, &ty);
            }
            // nested select on the same condition
            5 => {
                let ty = self.pick_ty_mix(50);
                let c = self.operand(&ty.with_elem(I1));
                let a = self.operand(&ty);
                let b = self.operand(&ty);
                let d = self.operand(&ty);
                let inner = self.select(&c, &a, &b, &ty);
                if self.rng.percent(50) {
                    self.select(&c, &inner, &d, &ty);
                } else {
                    self.select(&c, &d, &inner, &ty);
                }
            }
            // addf of constants, sometimes a chain
            6 | 7 => {
                let ty = self.pick_ty(BASE_FLOATS);
                let mut a = self.constant(&ty);
                for _ in 0..self.rng.range(1, 3) {
                    let b = if self.rng.percent(20) {
                        a.clone()
                    } else {
                        self.constant(&ty)
                    };
                    let r = self.rounding(&[]);
                    let f = self.ftz(&ty);
                    let (x, y) = if self.rng.percent(50) { (a, b) } else { (b, a) };
                    a = self.emit(&ty, &format!("addf {x}, {y}{r}{f} : {}", ty.text()));
                }
            }
            // addf(c, mulf(a, b))
            8 => {
                let ty = self.pick_ty(BASE_FLOATS);
                let a = self.operand(&ty);
                let b = self.operand(&ty);
                let c = self.operand(&ty);
                let m = self.emit(&ty, &format!("mulf {a}, {b} : {}", ty.text()));
                let r = self.rounding(&[]);
                let f = self.ftz(&ty);
                self.emit(&ty, &format!("addf {c}, {m}{r}{f} : {}", ty.text()));
            }
            // if on a constant condition
            9 if regions_ok => {
                let c = self.rand_bool_const(&[]);
                self.if_with(ctx, &c);
            }
            // if on an inverted condition
            10 if regions_ok => {
                let c = self.cond();
                let t = self.bool_const(&[], true);
                let n = self.emit(&Ty::new(I1, &[]), &format!("xori {c}, {t} : tile<i1>"));
                self.if_with(ctx, &n);
            }
            // yield-only branches of values from above (ConvertToSelect), or equal yields
            11 if regions_ok => {
                let c = self.cond();
                let mut tys = self.result_types(3);
                if tys.is_empty() {
                    tys.push(Ty::new(self.param_elem(), &[]));
                }
                let a: Vec<String> = tys.iter().map(|t| self.operand(t)).collect();
                let same = self.rng.percent(30);
                let b: Vec<String> = if same {
                    a.clone()
                } else {
                    tys.iter().map(|t| self.operand(t)).collect()
                };
                let names = self.if_head(&c, &tys);
                self.indent += 1;
                self.line(&format!("yield {} : {}", a.join(", "), types_text(&tys)));
                self.indent -= 1;
                self.line("} else {");
                self.indent += 1;
                self.line(&format!("yield {} : {}", b.join(", "), types_text(&tys)));
                self.indent -= 1;
                self.line("}");
                self.define_all(&names, &tys);
            }
            // empty else branch
            12 if regions_ok => {
                let c = self.cond();
                self.line(&format!("if {c} {{"));
                self.indent += 1;
                self.print();
                self.indent -= 1;
                self.line("} else {");
                self.line("}");
            }
            // adjacent ifs on the same condition
            13 | 14 if regions_ok => {
                let c = self.cond();
                self.if_with(ctx, &c);
                self.if_with(ctx, &c);
            }
            // nested ifs
            15 if regions_ok => {
                let a = self.cond();
                let b = self.cond();
                let tys = self.result_types(2);
                let e: Vec<String> = tys.iter().map(|t| self.operand(t)).collect();
                let e2 = if self.rng.percent(85) {
                    e.clone()
                } else {
                    tys.iter().map(|t| self.operand(t)).collect()
                };
                let outer = self.if_head(&a, &tys);
                self.indent += 1;
                let inner = self.if_head(&b, &tys);
                self.branch_n(ctx, &tys, (0, 2), 0);
                let has_else = !tys.is_empty() || self.rng.percent(50);
                if has_else {
                    self.line("} else {");
                    self.indent += 1;
                    if !tys.is_empty() {
                        self.line(&format!("yield {} : {}", e.join(", "), types_text(&tys)));
                    }
                    self.indent -= 1;
                }
                self.line("}");
                if !tys.is_empty() {
                    self.line(&format!(
                        "yield {} : {}",
                        inner.join(", "),
                        types_text(&tys)
                    ));
                }
                self.indent -= 1;
                if has_else {
                    self.line("} else {");
                    self.indent += 1;
                    if !tys.is_empty() {
                        self.line(&format!("yield {} : {}", e2.join(", "), types_text(&tys)));
                    }
                    self.indent -= 1;
                }
                self.line("}");
                self.define_all(&outer, &tys);
            }
            // both branches leave (return, or break/continue in a loop)
            16 if regions_ok && (ctx.can_return || ctx.lp.is_some()) => {
                let c = self.cond();
                let tys = self.result_types(1);
                let names = self.if_head(&c, &tys);
                self.branch_n(ctx, &tys, (0, 2), 100);
                self.line("} else {");
                self.branch_n(ctx, &tys, (0, 2), 100);
                self.line("}");
                self.define_all(&names, &tys);
            }
            // one branch leaves, the other yields a value from above
            17 if regions_ok && (ctx.can_return || ctx.lp.is_some()) => {
                let c = self.cond();
                let tys = self.result_types(2);
                let names = self.if_head(&c, &tys);
                let first = self.rng.percent(50);
                self.branch_n(ctx, &tys, (0, 1), if first { 100 } else { 0 });
                self.line("} else {");
                self.branch_n(ctx, &tys, (0, 1), if first { 0 } else { 100 });
                self.line("}");
                self.define_all(&names, &tys);
            }
            // integer identities: x+0, x-0, x-x, x*1, x*0, x<<0, x>>0, x^x, x^0, x|0, x&-1
            18 | 19 => {
                let ty = self.pick_ty(INTS);
                let t = ty.text();
                let x = self.operand(&ty);
                let k = self.rng.pick(&[0, 1, -1]);
                let c = self.int_const(ty.elem, &ty.shape, k);
                let op = self.rng.pick(&[
                    "addi", "subi", "muli", "shli", "shri", "xori", "ori", "andi",
                ]);
                let text = match op {
                    "subi" if self.rng.percent(40) => format!("subi {x}, {x} : {t}"),
                    "xori" if self.rng.percent(30) => format!("xori {x}, {x} : {t}"),
                    "shli" | "shri" => {
                        let z = self.int_const(ty.elem, &ty.shape, 0);
                        if op == "shli" {
                            format!("shli {x}, {z} : {t}")
                        } else {
                            format!("shri {x}, {z} signed : {t}")
                        }
                    }
                    _ => {
                        let f = if matches!(op, "addi" | "subi" | "muli") {
                            self.overflow_flag(20)
                        } else {
                            ""
                        };
                        if self.rng.percent(50) && op != "subi" {
                            format!("{op} {c}, {x}{f} : {t}")
                        } else {
                            format!("{op} {x}, {c}{f} : {t}")
                        }
                    }
                };
                self.emit(&ty, &text);
            }
            // constant arithmetic (also where an overflow flag forbids folding)
            20 => {
                let ty = self.pick_ty(INTS);
                let t = ty.text();
                let w = ty.elem.width();
                let x = self.rng.pick(&[0i64, 1, -1, 2, 7, i64::MAX, i64::MIN]);
                let x = tilec_ir::util::sign_extend(x as u64 & mask(w), w);
                let a = self.int_const(ty.elem, &ty.shape, x);
                let op = self.rng.pick(&[
                    "addi", "subi", "muli", "shli", "shri", "andi", "ori", "xori",
                ]);
                let b = if matches!(op, "shli" | "shri") {
                    self.int_const_in(ty.elem, &ty.shape, 0, i64::from(w) - 1)
                } else {
                    let y = self.rng.pick(&[0i64, 1, -1, 2, 3, i64::MAX, i64::MIN]);
                    self.int_const(ty.elem, &ty.shape, y)
                };
                let text = match op {
                    "addi" | "subi" | "muli" | "shli" => {
                        let f = self.overflow_flag(30);
                        // Wrapping constants with a no-wrap flag are undefined behaviour
                        // whenever they run: keep them in a branch that may not run.
                        format!("{op} {a}, {b}{f} : {t}")
                    }
                    "shri" => format!(
                        "shri {a}, {b} {} : {t}",
                        self.rng.pick(&["signed", "unsigned"])
                    ),
                    _ => format!("{op} {a}, {b} : {t}"),
                };
                self.emit(&ty, &text);
            }
            // negation chains: not(not(x)), xori(xori(x, k1), k2), not(cmpi)
            21 => {
                let ty = self.pick_ty(INTS);
                let t = ty.text();
                let x = self.operand(&ty);
                let k1 = if ty.elem == I1 {
                    1
                } else {
                    self.rng.pick(&[-1, 1, 5])
                };
                let k2 = if ty.elem == I1 || self.rng.percent(50) {
                    k1
                } else {
                    self.rng.pick(&[-1, 1, 5])
                };
                let c1 = self.int_const(ty.elem, &ty.shape, k1);
                let c2 = self.int_const(ty.elem, &ty.shape, k2);
                let y = self.emit(&ty, &format!("xori {x}, {c1} : {t}"));
                self.emit(&ty, &format!("xori {y}, {c2} : {t}"));
            }
            22 => {
                let ty = self.pick_ty(INTS);
                let c = self.compare(&ty);
                let ct = ty.with_elem(I1);
                let one = self.bool_const(&ct.shape, true);
                self.emit(&ct, &format!("xori {c}, {one} : {}", ct.text()));
            }
            // and/or chains with constants, duplicates, negations
            23 | 24 => {
                let ty = self.pick_ty(INTS);
                let t = ty.text();
                let n = self.rng.range(2, 5);
                let mut acc = self.operand(&ty);
                let first = acc.clone();
                for _ in 0..n {
                    let op = if self.rng.percent(50) { "andi" } else { "ori" };
                    let leaf = match self.rng.below(5) {
                        0 => first.clone(),
                        1 => {
                            let k = self.rng.pick(&[0, -1, 1, 6]);
                            self.int_const(ty.elem, &ty.shape, k)
                        }
                        2 if ty.elem == I1 => {
                            let one = self.bool_const(&ty.shape, true);
                            self.emit(&ty, &format!("xori {first}, {one} : {t}"))
                        }
                        _ => self.operand(&ty),
                    };
                    acc = self.emit(&ty, &format!("{op} {acc}, {leaf} : {t}"));
                }
            }
            // select between the integers 1 and 0 (NVIDIA's 13.3 turns it into exti)
            26 => {
                let ty = self.pick_ty(INTS8);
                let c = self.operand(&ty.with_elem(I1));
                let one = self.int_const(ty.elem, &ty.shape, 1);
                let zero = self.int_const(ty.elem, &ty.shape, 0);
                if self.rng.percent(50) {
                    self.select(&c, &one, &zero, &ty);
                } else {
                    self.select(&c, &zero, &one, &ty);
                }
            }
            // the same (always true) assumption twice (not in a reduce or scan body,
            // which holds arithmetic only)
            27 if !self.in_body => {
                let ty = self.pick_ty(INTS8);
                let x = self.operand(&ty);
                let t = ty.text();
                let a = self.emit(&ty, &format!("assume div_by<1>, {x} : {t}"));
                self.emit(&ty, &format!("assume div_by<1>, {a} : {t}"));
            }
            // comparisons of a value with itself or of two constants
            _ => {
                let ty = self.pick_ty(INTS);
                let w = ty.elem.width();
                let (a, b) = if self.rng.percent(50) {
                    let x = self.operand(&ty);
                    (x.clone(), x)
                } else {
                    let x = tilec_ir::util::sign_extend(int_bits(self.rng, w), w);
                    let y = tilec_ir::util::sign_extend(int_bits(self.rng, w), w);
                    (
                        self.int_const(ty.elem, &ty.shape, x),
                        self.int_const(ty.elem, &ty.shape, y),
                    )
                };
                let pred = self.rng.pick(&[
                    "equal",
                    "not_equal",
                    "less_than",
                    "less_than_or_equal",
                    "greater_than",
                    "greater_than_or_equal",
                ]);
                let sign = self.rng.pick(&["signed", "unsigned"]);
                let ct = ty.with_elem(I1);
                self.emit(
                    &ct,
                    &format!(
                        "cmpi {pred} {a}, {b}, {sign} : {} -> {}",
                        ty.text(),
                        ct.text()
                    ),
                );
            }
        }
    }
}

/// The type of a tile of pointers to `ty`'s elements, of `ty`'s shape.
fn ptr_tile(ty: &Ty) -> String {
    let dims: String = ty.shape.iter().map(|d| format!("{d}x")).collect();
    format!("tile<{dims}ptr<{}>>", ty.elem.name())
}

/// `elems` (row-major) as a nested list literal of `shape`.
fn nested(elems: &[String], shape: &[i64]) -> String {
    if shape.len() <= 1 {
        return format!("[{}]", elems.join(", "));
    }
    let inner: i64 = shape[1..].iter().product();
    let parts: Vec<String> = elems
        .chunks(inner as usize)
        .map(|c| nested(c, &shape[1..]))
        .collect();
    format!("[{}]", parts.join(", "))
}

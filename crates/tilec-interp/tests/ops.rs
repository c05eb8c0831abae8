//! Every op of the spec, executed by small tile IR kernels whose results are compared
//! with values computed independently in Rust (native integer and float arithmetic, f64
//! math functions rounded once, index arithmetic for the structural ops), and the
//! undefined behaviour the interpreter reports. `every_op_of_the_spec_is_executed`
//! runs all of them and checks that together they executed every op of the op table
//! that is not GPU-level.

mod common;
use common::{func, module};
use std::cmp::Ordering;
use std::collections::BTreeSet;
use tilec_interp::value::Tile;
use tilec_interp::{Arg, Memory, RunError, call, run};
use tilec_ir::float::{self, FloatKind, Round};
use tilec_ir::{Module, Op, Opcode};

/// The opcodes a group of kernels ran.
type Ran = BTreeSet<Opcode>;

/// Tiles for the parameters of `f`, with the parameters' types and shapes and the
/// elements `args` gives (bit patterns, row-major).
fn tiles(m: &Module, f: Op, args: &[Vec<u64>]) -> Vec<Tile> {
    let block = m.entry_block(m.region(f, 0)).expect("a body");
    let params = m.block_args(block);
    assert_eq!(params.len(), args.len(), "argument count");
    params
        .iter()
        .zip(args)
        .map(|(p, bits)| {
            let ty = m.value_type(*p);
            let shape: Vec<i64> = m.ctx.types.shape(ty).to_vec();
            assert_eq!(
                shape.iter().product::<i64>() as usize,
                bits.len(),
                "argument elements"
            );
            Tile {
                elem: m.ctx.types.element_type(ty),
                shape: shape.into(),
                bits: bits.clone(),
            }
        })
        .collect()
}

/// Calls `name` with `args` (element bit patterns); its results' elements.
fn call_with(
    m: &Module,
    name: &str,
    args: &[Vec<u64>],
    mem: &mut Memory,
    ran: &mut Ran,
) -> Vec<Vec<u64>> {
    let f = func(m, name);
    let c = call(m, f, tiles(m, f, args), mem)
        .unwrap_or_else(|e| panic!("@{name} fails: {}", e.message));
    ran.extend(c.ops);
    c.results.into_iter().map(|t| t.bits).collect()
}

/// [`call_with`] without memory.
fn call_bits(m: &Module, name: &str, args: &[Vec<u64>], ran: &mut Ran) -> Vec<Vec<u64>> {
    call_with(m, name, args, &mut Memory::default(), ran)
}

/// Compares `got` with `want` element by element, naming the result.
fn check(what: &str, got: &[u64], want: &[u64]) {
    assert_eq!(got.len(), want.len(), "{what}: element count");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g, w, "{what}: element {i} is {g:#x}, expected {w:#x}");
    }
}

/// A deterministic pseudo-random sequence (64-bit LCG, high bits).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 ^ (self.0 >> 29)
    }
}

// ---------------------------------------------------------------- integers and bits

/// The integer ops on tiles of 256 `ty` elements: `%a`, `%b` (operands), `%s` (shift
/// amounts below the width), `%ds` (divisors for signed division: no zero, no MIN / -1),
/// `%du` (non-zero divisors for unsigned division).
const INT_OPS: &[&str] = &[
    "addi %a, %b",
    "subi %a, %b",
    "muli %a, %b",
    "maxi %a, %b signed",
    "maxi %a, %b unsigned",
    "mini %a, %b signed",
    "mini %a, %b unsigned",
    "mulhi %a, %b",
    "andi %a, %b",
    "ori %a, %b",
    "xori %a, %b",
    "shli %a, %s",
    "shri %a, %s signed",
    "shri %a, %s unsigned",
    "divi %a, %ds signed",
    "divi %a, %du unsigned",
    "divi %a, %ds signed rounding<negative_inf>",
    "divi %a, %ds signed rounding<positive_inf>",
    "divi %a, %du unsigned rounding<positive_inf>",
    "remi %a, %ds signed",
    "remi %a, %du unsigned",
    "negsi %a",
    "absi %a",
    "noti %a",
    "popcnt %a",
    "clz %a",
    "ctz %a",
    "brev %a",
];

/// Every comparison predicate, from the attribute table.
fn predicates() -> &'static [&'static str] {
    tilec_ir::attrs::EnumKind::ComparisonPredicate.cases()
}

fn int_kernel(ty: &str) -> String {
    let t = format!("tile<256x{ty}>");
    let mut body = String::new();
    let mut results = Vec::new();
    for (i, op) in INT_OPS.iter().enumerate() {
        body += &format!("    %r{i} = {op} : {t}\n");
        results.push(t.clone());
    }
    for sign in ["signed", "unsigned"] {
        for &p in predicates() {
            let i = results.len();
            body += &format!("    %r{i} = cmpi {p} %a, %b, {sign} : {t} -> tile<256xi1>\n");
            results.push("tile<256xi1>".into());
        }
    }
    let names: Vec<String> = (0..results.len()).map(|i| format!("%r{i}")).collect();
    format!(
        "cuda_tile.module @m {{\n  testing$func @f(%a: {t}, %b: {t}, %s: {t}, %ds: {t}, %du: {t}) -> ({}) {{\n{body}    return {} : {}\n  }}\n}}\n",
        results.join(", "),
        names.join(", "),
        results.join(", ")
    )
}

macro_rules! int_case {
    ($name:ident, $s:ty, $u:ty, $ty:literal) => {
        fn $name(ran: &mut Ran) {
            const W: u32 = <$s>::BITS;
            let edge: [$s; 12] = [
                0,
                1,
                -1,
                2,
                -2,
                3,
                -7,
                7,
                <$s>::MIN,
                <$s>::MAX,
                <$s>::MIN + 1,
                <$s>::MAX - 1,
            ];
            let (mut a, mut b) = (Vec::new(), Vec::new());
            for x in edge {
                for y in edge {
                    a.push(x);
                    b.push(y);
                }
            }
            let mut rng = Rng(u64::from(W));
            while a.len() < 256 {
                a.push(rng.next() as $s);
                b.push(rng.next() as $s);
            }
            let s: Vec<$s> = b.iter().map(|y| (*y as $u % W as $u) as $s).collect();
            let ds: Vec<$s> = a
                .iter()
                .zip(&b)
                .map(|(x, y)| {
                    if *y == 0 || (*x == <$s>::MIN && *y == -1) {
                        3
                    } else {
                        *y
                    }
                })
                .collect();
            let du: Vec<$s> = b.iter().map(|y| if *y == 0 { 5 } else { *y }).collect();
            let bits = |v: &[$s]| -> Vec<u64> { v.iter().map(|x| *x as $u as u64).collect() };
            let m = module(&int_kernel($ty));
            let got = call_bits(
                &m,
                "f",
                &[bits(&a), bits(&b), bits(&s), bits(&ds), bits(&du)],
                ran,
            );
            let u = |x: $s| x as $u;
            let floor_div = |x: $s, y: $s| {
                let q = x / y;
                if x % y != 0 && ((x < 0) != (y < 0)) {
                    q - 1
                } else {
                    q
                }
            };
            let ceil_div = |x: $s, y: $s| {
                let q = x / y;
                if x % y != 0 && ((x < 0) == (y < 0)) {
                    q + 1
                } else {
                    q
                }
            };
            for i in 0..256 {
                let (x, y, sh, d, e) = (a[i], b[i], s[i] as u32, ds[i], du[i]);
                let want: Vec<u64> = vec![
                    u(x.wrapping_add(y)) as u64,
                    u(x.wrapping_sub(y)) as u64,
                    u(x.wrapping_mul(y)) as u64,
                    u(x.max(y)) as u64,
                    u(x).max(u(y)) as u64,
                    u(x.min(y)) as u64,
                    u(x).min(u(y)) as u64,
                    ((u(x) as u128 * u(y) as u128) >> W) as u64,
                    u(x & y) as u64,
                    u(x | y) as u64,
                    u(x ^ y) as u64,
                    u(x << sh) as u64,
                    u(x >> sh) as u64,
                    (u(x) >> sh) as u64,
                    u(x / d) as u64,
                    (u(x) / u(e)) as u64,
                    u(floor_div(x, d)) as u64,
                    u(ceil_div(x, d)) as u64,
                    u(x).div_ceil(u(e)) as u64,
                    u(x % d) as u64,
                    (u(x) % u(e)) as u64,
                    u(x.wrapping_neg()) as u64,
                    u(x.wrapping_abs()) as u64,
                    u(!x) as u64,
                    u64::from(x.count_ones()),
                    u64::from(x.leading_zeros()),
                    u64::from(x.trailing_zeros()),
                    u(x.reverse_bits()) as u64,
                ];
                let cmp = |l: bool, e: bool, g: bool| [e, !e, l, l || e, g, g || e];
                let mut want = want;
                for c in cmp(x < y, x == y, x > y).into_iter().chain(cmp(
                    u(x) < u(y),
                    x == y,
                    u(x) > u(y),
                )) {
                    want.push(u64::from(c));
                }
                assert_eq!(want.len(), got.len());
                for (k, w) in want.iter().enumerate() {
                    let what = INT_OPS.get(k).copied().unwrap_or("cmpi");
                    assert_eq!(
                        got[k][i], *w,
                        "{}: `{what}` (result {k}) of {x} and {y} (shift {sh}, divisors {d}, {e})",
                        $ty
                    );
                }
            }
        }
    };
}

int_case!(integers_i8, i8, u8, "i8");
int_case!(integers_i16, i16, u16, "i16");
int_case!(integers_i32, i32, u32, "i32");
int_case!(integers_i64, i64, u64, "i64");

/// i1 arithmetic: an i1 is 0 or 1 unsigned, 0 or -1 signed; everything wraps mod 2.
fn integers_i1(ran: &mut Ran) {
    let m = module(
        "cuda_tile.module @m {
  testing$func @f(%a: tile<4xi1>, %b: tile<4xi1>) -> (tile<4xi1>, tile<4xi1>, tile<4xi1>, tile<4xi1>, tile<4xi1>, tile<4xi1>, tile<4xi1>, tile<4xi1>, tile<4xi1>, tile<4xi32>, tile<4xi32>) {
    %0 = addi %a, %b : tile<4xi1>
    %1 = subi %a, %b : tile<4xi1>
    %2 = muli %a, %b : tile<4xi1>
    %3 = maxi %a, %b signed : tile<4xi1>
    %4 = maxi %a, %b unsigned : tile<4xi1>
    %5 = negsi %a : tile<4xi1>
    %6 = noti %a : tile<4xi1>
    %7 = cmpi less_than %a, %b, signed : tile<4xi1> -> tile<4xi1>
    %8 = cmpi less_than %a, %b, unsigned : tile<4xi1> -> tile<4xi1>
    %9 = exti %a signed : tile<4xi1> -> tile<4xi32>
    %10 = exti %a unsigned : tile<4xi1> -> tile<4xi32>
    return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : tile<4xi1>, tile<4xi1>, tile<4xi1>, tile<4xi1>, tile<4xi1>, tile<4xi1>, tile<4xi1>, tile<4xi1>, tile<4xi1>, tile<4xi32>, tile<4xi32>
  }
}",
    );
    let (a, b) = (vec![0u64, 0, 1, 1], vec![0u64, 1, 0, 1]);
    let got = call_bits(&m, "f", &[a.clone(), b.clone()], ran);
    for i in 0..4 {
        let (x, y) = (a[i] == 1, b[i] == 1);
        // As signed integers.
        let (sx, sy) = (-i32::from(x), -i32::from(y));
        let bit = |v: i32| (v & 1) as u64;
        let want = [
            bit(sx + sy),
            bit(sx - sy),
            bit(sx * sy),
            bit(sx.max(sy)),
            u64::from(x | y),
            bit(-sx),
            u64::from(!x),
            u64::from(sx < sy),
            u64::from(!x & y),
            sx as u32 as u64,
            u64::from(x),
        ];
        for (k, w) in want.iter().enumerate() {
            assert_eq!(got[k][i], *w, "result {k} of {x} and {y}");
        }
    }
}

/// exti, trunci, and the overflow flags on values that do not overflow.
fn integer_widths_and_flags(ran: &mut Ran) {
    let m = module(
        "cuda_tile.module @m {
  testing$func @f(%a: tile<8xi8>, %w: tile<8xi64>, %s: tile<8xi32>, %t: tile<8xi32>) -> (tile<8xi16>, tile<8xi16>, tile<8xi64>, tile<8xi64>, tile<8xi32>, tile<8xi8>, tile<8xi1>, tile<8xi32>, tile<8xi32>, tile<8xi32>, tile<8xi32>, tile<8xi32>, tile<8xi16>) {
    %0 = exti %a signed : tile<8xi8> -> tile<8xi16>
    %1 = exti %a unsigned : tile<8xi8> -> tile<8xi16>
    %2 = exti %s signed : tile<8xi32> -> tile<8xi64>
    %3 = exti %s unsigned : tile<8xi32> -> tile<8xi64>
    %4 = trunci %w : tile<8xi64> -> tile<8xi32>
    %5 = trunci %s : tile<8xi32> -> tile<8xi8>
    %6 = trunci %s : tile<8xi32> -> tile<8xi1>
    %7 = addi %s, %t overflow<no_signed_wrap> : tile<8xi32>
    %8 = subi %s, %t overflow<no_signed_wrap> : tile<8xi32>
    %9 = muli %t, %t overflow<no_wrap> : tile<8xi32>
    %10 = shli %t, %t overflow<no_unsigned_wrap> : tile<8xi32>
    %11 = addi %t, %t overflow<no_unsigned_wrap> : tile<8xi32>
    %st = trunci %t overflow<no_wrap> : tile<8xi32> -> tile<8xi16>
    return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %st : tile<8xi16>, tile<8xi16>, tile<8xi64>, tile<8xi64>, tile<8xi32>, tile<8xi8>, tile<8xi1>, tile<8xi32>, tile<8xi32>, tile<8xi32>, tile<8xi32>, tile<8xi32>, tile<8xi16>
  }
}",
    );
    let a: [i8; 8] = [0, 1, -1, 127, -128, 64, -65, 5];
    let w: [i64; 8] = [
        0,
        -1,
        1 << 40,
        (1 << 33) + 7,
        i64::MIN,
        i64::MAX,
        -(1 << 31),
        0x1234_5678_9abc,
    ];
    // s + t and s - t stay inside i32; t * t, t << t and t + t fit unsigned.
    let s: [i32; 8] = [0, -1, i32::MAX - 12, i32::MIN + 20, 255, 256, -129, 1000];
    let t: [i32; 8] = [0, 1, 12, 15, 9, 11, 14, 3];
    let got = call_bits(
        &m,
        "f",
        &[
            a.iter().map(|x| *x as u8 as u64).collect(),
            w.iter().map(|x| *x as u64).collect(),
            s.iter().map(|x| *x as u32 as u64).collect(),
            t.iter().map(|x| *x as u32 as u64).collect(),
        ],
        ran,
    );
    for i in 0..8 {
        let (x, v, y, z) = (a[i], w[i], s[i], t[i]);
        let want = [
            i16::from(x) as u16 as u64,
            u64::from(x as u8),
            i64::from(y) as u64,
            u64::from(y as u32),
            u64::from(v as u32),
            u64::from(y as u8),
            (y & 1) as u64,
            (y + z) as u32 as u64,
            (y - z) as u32 as u64,
            (z * z) as u32 as u64,
            ((z as u32) << z) as u64,
            (z + z) as u32 as u64,
            u64::from(z as u16),
        ];
        for (k, want) in want.iter().enumerate() {
            assert_eq!(got[k][i], *want, "result {k}, element {i}");
        }
    }
}

/// A module with one function `@f`: `params` (name, type) and one result per line of
/// `lines` (the op text, with its types, and the result type).
fn kernel(params: &[(&str, &str)], lines: &[(String, &str)]) -> String {
    let ps: Vec<String> = params.iter().map(|(n, t)| format!("%{n}: {t}")).collect();
    let mut body = String::new();
    let mut names = Vec::new();
    let mut types = Vec::new();
    for (i, (line, ty)) in lines.iter().enumerate() {
        body += &format!("    %r{i} = {line}\n");
        names.push(format!("%r{i}"));
        types.push(ty.to_string());
    }
    format!(
        "cuda_tile.module @m {{\n  testing$func @f({}) -> ({}) {{\n{body}    return {} : {}\n  }}\n}}\n",
        ps.join(", "),
        types.join(", "),
        names.join(", "),
        types.join(", ")
    )
}

// ---------------------------------------------------------------- floats

/// Whether `got` (bits of `k`) is `want`: the same encoding, or both NaN (the spec does
/// not give NaN payloads).
fn same_float(k: FloatKind, got: u64, want: u64) -> bool {
    got == want || (float::is_nan(k, got) && float::is_nan(k, want))
}

fn check_floats(
    k: FloatKind,
    what: &str,
    got: &[u64],
    want: &[u64],
    inputs: &dyn Fn(usize) -> String,
) {
    assert_eq!(got.len(), want.len(), "{what}: element count");
    for i in 0..got.len() {
        assert!(
            same_float(k, got[i], want[i]),
            "{what} of {}: got {} ({:#x}), expected {} ({:#x})",
            inputs(i),
            float::to_f64(k, got[i]),
            got[i],
            float::to_f64(k, want[i]),
            want[i]
        );
    }
}

/// f32 edge values: zeros, subnormals, the extremes, infinities, NaN, and some ordinary
/// numbers.
fn f32_edges() -> Vec<f32> {
    vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        1.5,
        -2.75,
        3.0,
        0.1,
        1.0 / 3.0,
        7.0e-41,
        -1.2e-40,
        f32::MIN_POSITIVE,
        f32::MAX,
        -f32::MAX,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        1.0e30,
        -3.0e-30,
        16777217.0,
    ]
}

/// Every pair of edge values, then random pairs, `n` in all.
fn f32_pairs(n: usize, seed: u64) -> (Vec<f32>, Vec<f32>) {
    let e = f32_edges();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for x in &e {
        for y in &e {
            a.push(*x);
            b.push(*y);
        }
    }
    let mut rng = Rng(seed);
    while a.len() < n {
        // Random signs, exponents within a few binades of 1, random significands.
        let mut r = || {
            let x = rng.next();
            f32::from_bits(((x as u32) & 0x807f_ffff) | ((120 + (x >> 40) % 16) as u32) << 23)
        };
        a.push(r());
        b.push(r());
    }
    a.truncate(n);
    b.truncate(n);
    (a, b)
}

fn f32_bits(v: &[f32]) -> Vec<u64> {
    v.iter().map(|x| u64::from(x.to_bits())).collect()
}

fn f64_bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// A directed rounding.
#[derive(Clone, Copy, Debug)]
enum Dir {
    Zero,
    Down,
    Up,
}

const DIRS: [(Dir, &str); 3] = [
    (Dir::Zero, "zero"),
    (Dir::Down, "negative_inf"),
    (Dir::Up, "positive_inf"),
];

/// The result in direction `d`, from the round-to-nearest result `r` of finite operands
/// and the sign of (exact result - r).
fn directed(r: f32, err: Ordering, d: Dir) -> f32 {
    if r.is_infinite() {
        // Overflow: rounding toward zero (or away from the overflow's direction) stops
        // at the largest finite value.
        let max = f32::MAX.copysign(r);
        return match d {
            Dir::Zero => max,
            Dir::Down if r > 0.0 => max,
            Dir::Up if r < 0.0 => max,
            _ => r,
        };
    }
    match (d, err) {
        (Dir::Down, Ordering::Less) => r.next_down(),
        (Dir::Up, Ordering::Greater) => r.next_up(),
        (Dir::Zero, Ordering::Less) if r > 0.0 => r.next_down(),
        (Dir::Zero, Ordering::Greater) if r < 0.0 => r.next_up(),
        _ => r,
    }
}

/// The sign of (exact a + b) - r, where r is a + b rounded to f32 (TwoSum in f64).
fn add_error(a: f32, b: f32, r: f32) -> Ordering {
    let (x, y) = (f64::from(a), f64::from(b));
    let s = x + y;
    let bb = s - x;
    let e = (x - (s - bb)) + (y - bb);
    let d = s - f64::from(r);
    if d != 0.0 {
        d.partial_cmp(&0.0).unwrap()
    } else {
        e.partial_cmp(&0.0).unwrap()
    }
}

/// `maxf`/`minf` (and with NaN propagation `maximumf`/`minimumf`): -0 < +0.
fn max_f32(a: f32, b: f32, nan: bool, max: bool) -> f32 {
    if a.is_nan() || b.is_nan() {
        return if nan || (a.is_nan() && b.is_nan()) {
            f32::NAN
        } else if a.is_nan() {
            b
        } else {
            a
        };
    }
    let a_first = if a == b {
        // Equal values differ only in the sign of zero.
        a.is_sign_positive() == max
    } else {
        (a > b) == max
    };
    if a_first { a } else { b }
}

fn flush(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

/// f32 arithmetic and comparisons, round to nearest and directed, with flush-to-zero.
fn float_arithmetic_f32(ran: &mut Ran) {
    let n = 512;
    let (a, b) = f32_pairs(n, 1);
    let c: Vec<f32> = b.iter().zip(&a).map(|(x, y)| y * 0.5 - x).collect();
    let t = "tile<512xf32>";
    let bin = |op: &str| (format!("{op} : {t}"), t);
    let mut lines = vec![
        bin("addf %a, %b"),
        bin("subf %a, %b"),
        bin("mulf %a, %b"),
        bin("divf %a, %b"),
        bin("fma %a, %b, %c"),
        bin("remf %a, %b"),
        bin("absf %a"),
        bin("negf %a"),
        bin("sqrt %a"),
        bin("maxf %a, %b"),
        bin("minf %a, %b"),
        bin("maxf %a, %b propagate_nan"),
        bin("maximumf %a, %b"),
        bin("minimumf %a, %b"),
        bin("addf %a, %b flush_to_zero"),
        bin("mulf %a, %b flush_to_zero"),
        bin("addf %a, %b rounding<nearest_even>"),
        bin("maxf %a, %b flush_to_zero"),
        bin("divf %a, %b rounding<approx>"),
        bin("divf %a, %b rounding<full>"),
        bin("sqrt %a rounding<approx>"),
    ];
    for (_, d) in DIRS {
        for op in [
            "addf %a, %b",
            "subf %a, %b",
            "mulf %a, %b",
            "divf %a, %b",
            "sqrt %a",
        ] {
            lines.push(bin(&format!("{op} rounding<{d}>")));
        }
    }
    for o in ["ordered", "unordered"] {
        for &p in predicates() {
            lines.push((
                format!("cmpf {p} {o} %a, %b : {t} -> tile<512xi1>"),
                "tile<512xi1>",
            ));
        }
    }
    let m = module(&kernel(&[("a", t), ("b", t), ("c", t)], &lines));
    let got = call_bits(&m, "f", &[f32_bits(&a), f32_bits(&b), f32_bits(&c)], ran);
    let mut want: Vec<Vec<f32>> = vec![Vec::new(); 21 + 15];
    let mut cmps: Vec<Vec<u64>> = vec![Vec::new(); 12];
    for i in 0..n {
        let (x, y, z) = (a[i], b[i], c[i]);
        let nearest = [
            x + y,
            x - y,
            x * y,
            x / y,
            x.mul_add(y, z),
            x % y,
            x.abs(),
            -x,
            x.sqrt(),
            max_f32(x, y, false, true),
            max_f32(x, y, false, false),
            max_f32(x, y, true, true),
            max_f32(x, y, true, true),
            max_f32(x, y, true, false),
            flush(flush(x) + flush(y)),
            flush(flush(x) * flush(y)),
            x + y,
            max_f32(flush(x), flush(y), false, true),
            // approx and full round to nearest in the interpreter.
            x / y,
            x / y,
            x.sqrt(),
        ];
        for (k, v) in nearest.into_iter().enumerate() {
            want[k].push(v);
        }
        let finite = x.is_finite() && y.is_finite();
        let mut k = 21;
        for (d, _) in DIRS {
            // addf, subf: the sign of the error from TwoSum; an exact zero sum of
            // operands of opposite signs is -0 when rounding down.
            for (r, yy) in [(x + y, y), (x - y, -y)] {
                let v = if !finite {
                    r
                } else if r == 0.0 && add_error(x, yy, r) == Ordering::Equal {
                    if x.is_sign_negative() == yy.is_sign_negative() {
                        x
                    } else if matches!(d, Dir::Down) {
                        -0.0
                    } else {
                        0.0
                    }
                } else {
                    directed(r, add_error(x, yy, r), d)
                };
                want[k].push(v);
                k += 1;
            }
            // mulf: the product is exact in f64.
            let r = x * y;
            want[k].push(if finite {
                directed(
                    r,
                    (f64::from(x) * f64::from(y))
                        .partial_cmp(&f64::from(r))
                        .unwrap(),
                    d,
                )
            } else {
                r
            });
            k += 1;
            // divf: sign(a / b - r) = sign(a - r * b) * sign(b), r * b exact in f64.
            let r = x / y;
            want[k].push(if finite && y != 0.0 && r.is_finite() {
                let e = f64::from(x)
                    .partial_cmp(&(f64::from(r) * f64::from(y)))
                    .unwrap();
                directed(r, if y < 0.0 { e.reverse() } else { e }, d)
            } else if finite && y != 0.0 {
                directed(r, Ordering::Equal, d)
            } else {
                r
            });
            k += 1;
            // sqrt: sign(sqrt(a) - r) = sign(a - r * r), r * r exact in f64.
            let r = x.sqrt();
            want[k].push(if x.is_finite() && x > 0.0 {
                directed(
                    r,
                    f64::from(x)
                        .partial_cmp(&(f64::from(r) * f64::from(r)))
                        .unwrap(),
                    d,
                )
            } else {
                r
            });
            k += 1;
        }
        for (o, unordered) in [(0, false), (6, true)] {
            let un = x.is_nan() || y.is_nan();
            let preds = [x == y, x != y && !un, x < y, x <= y, x > y, x >= y];
            for (p, v) in preds.into_iter().enumerate() {
                cmps[o + p].push(u64::from(v || (un && unordered)));
            }
        }
    }
    for (k, w) in want.iter().enumerate() {
        check_floats(FloatKind::F32, &lines[k].0, &got[k], &f32_bits(w), &|i| {
            format!("{:e}, {:e}, {:e}", a[i], b[i], c[i])
        });
    }
    for (k, w) in cmps.iter().enumerate() {
        check(&lines[want.len() + k].0, &got[want.len() + k], w);
    }
}

/// Edge values of kind `k` (the nearest values to some f64s, and its extremes), every
/// pair of them, then random pairs of moderate values: `n` pairs.
fn kind_pairs(k: FloatKind, n: usize, seed: u64) -> (Vec<u64>, Vec<u64>) {
    let max = float::to_f64(k, float::max_finite(k, false));
    let min_sub = float::to_f64(k, 1);
    let edges: Vec<u64> = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        1.5,
        -2.75,
        3.0,
        0.1,
        1.0 / 3.0,
        min_sub,
        -3.0 * min_sub,
        max,
        -max,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        1000.0,
        -0.001,
    ]
    .iter()
    .map(|v| float::round_from_f64(k, *v))
    .collect();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for x in &edges {
        for y in &edges {
            a.push(*x);
            b.push(*y);
        }
    }
    let mut rng = Rng(seed);
    while a.len() < n {
        let mut r = || {
            let x = rng.next();
            let v = ((x >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 16.0;
            float::round_from_f64(k, v)
        };
        a.push(r());
        b.push(r());
    }
    a.truncate(n);
    b.truncate(n);
    (a, b)
}

/// `x + y` in f64 when it is exact (TwoSum's error is zero).
fn exact_sum(x: f64, y: f64) -> Option<f64> {
    let s = x + y;
    if !s.is_finite() {
        return Some(s);
    }
    let bb = s - x;
    let e = (x - (s - bb)) + (y - bb);
    (e == 0.0).then_some(s)
}

/// f16, bf16 and f64 arithmetic: each result computed in f64 (exactly, or for division and
/// square root correctly rounded to f64, which has more than twice the precision of f16 and
/// bf16, so rounding that once more is still correct) and rounded once to the type.
fn float_arithmetic_other_types(ran: &mut Ran) {
    type Ref = fn(f64, f64, f64) -> Option<f64>;
    let ops: &[(&str, Round, Ref)] = &[
        ("addf %a, %b", Round::NearestEven, |x, y, _| exact_sum(x, y)),
        ("subf %a, %b", Round::NearestEven, |x, y, _| {
            exact_sum(x, -y)
        }),
        ("mulf %a, %b", Round::NearestEven, |x, y, _| Some(x * y)),
        ("divf %a, %b", Round::NearestEven, |x, y, _| Some(x / y)),
        ("fma %a, %b, %c", Round::NearestEven, |x, y, z| {
            // The product is exact in f64 (at most 2 x 11 significant bits).
            if (x * y).is_finite() {
                exact_sum(x * y, z)
            } else {
                Some(x.mul_add(y, z))
            }
        }),
        ("remf %a, %b", Round::NearestEven, |x, y, _| Some(x % y)),
        ("sqrt %a", Round::NearestEven, |x, _, _| Some(x.sqrt())),
        ("absf %a", Round::NearestEven, |x, _, _| Some(x.abs())),
        ("negf %a", Round::NearestEven, |x, _, _| Some(-x)),
        (
            "addf %a, %b rounding<positive_inf>",
            Round::TowardPositive,
            |x, y, _| exact_sum(x, y),
        ),
        (
            "mulf %a, %b rounding<zero>",
            Round::TowardZero,
            |x, y, _| Some(x * y),
        ),
        (
            "subf %a, %b rounding<negative_inf>",
            Round::TowardNegative,
            |x, y, _| {
                // An exact zero sum of x and -y is -0 rounding down, unless both are +0.
                if x - y == 0.0 && x.is_finite() {
                    Some(if x.is_sign_positive() && (-y).is_sign_positive() {
                        0.0
                    } else {
                        -0.0
                    })
                } else {
                    exact_sum(x, -y)
                }
            },
        ),
    ];
    for (k, ty) in [
        (FloatKind::F16, "f16"),
        (FloatKind::BF16, "bf16"),
        (FloatKind::F64, "f64"),
    ] {
        let n = 512;
        let (a, b) = kind_pairs(k, n, 2);
        let c: Vec<u64> = b.iter().rev().copied().collect();
        let t = format!("tile<512x{ty}>");
        let mut lines: Vec<(String, &str)> = ops
            .iter()
            .map(|(op, _, _)| (format!("{op} : {t}"), t.as_str()))
            .collect();
        lines.push((format!("maxf %a, %b : {t}"), t.as_str()));
        lines.push((format!("minimumf %a, %b : {t}"), t.as_str()));
        lines.push((
            format!("cmpf less_than_or_equal unordered %a, %b : {t} -> tile<512xi1>"),
            "tile<512xi1>",
        ));
        let m = module(&kernel(&[("a", &t), ("b", &t), ("c", &t)], &lines));
        let got = call_bits(&m, "f", &[a.clone(), b.clone(), c.clone()], ran);
        let v = |bits: u64| float::to_f64(k, bits);
        let (mut checked, mut applicable) = (0, 0);
        for (j, (op, mode, f)) in ops.iter().enumerate() {
            // In f64 only the correctly rounded native operations are references.
            let wide = k == FloatKind::F64;
            if wide && *mode != Round::NearestEven {
                continue;
            }
            applicable += n;
            for i in 0..n {
                let (x, y, z) = (v(a[i]), v(b[i]), v(c[i]));
                let exact = if wide && op.starts_with("fma") {
                    Some(x.mul_add(y, z))
                } else {
                    f(x, y, z)
                };
                let Some(exact) = exact else { continue };
                // An exact result that overflows rounds toward zero to the largest finite value.
                let want = float::round_from_f64_with(k, exact, *mode);
                assert!(
                    same_float(k, got[j][i], want),
                    "{ty} `{op}` of {x:e}, {y:e}, {z:e}: got {:e}, expected {:e}",
                    v(got[j][i]),
                    v(want)
                );
                checked += 1;
            }
        }
        assert!(
            checked > applicable * 9 / 10,
            "{ty}: only {checked} results checked"
        );
        let j = ops.len();
        for i in 0..n {
            let (x, y) = (v(a[i]), v(b[i]));
            // maxf: a NaN loses; minimumf: a NaN wins; -0 < +0.
            let key = |q: f64| (q, q.is_sign_positive());
            let max = if x.is_nan() {
                b[i]
            } else if y.is_nan() || key(x) >= key(y) {
                a[i]
            } else {
                b[i]
            };
            let min = if x.is_nan() || (!y.is_nan() && key(x) <= key(y)) {
                a[i]
            } else {
                b[i]
            };
            assert!(same_float(k, got[j][i], max), "{ty} maxf {x} {y}");
            assert!(same_float(k, got[j + 1][i], min), "{ty} minimumf {x} {y}");
            assert_eq!(
                got[j + 2][i],
                u64::from(x.partial_cmp(&y) != Some(Ordering::Greater)),
                "{ty} cmpf ule {x} {y}"
            );
        }
    }
}

/// The math functions: computed in f64 and rounded once to the element type (the
/// interpreter's documented semantics).
/// A math function in f64.
type F64Fn = fn(f64) -> f64;

const MATH_UNARY: &[(&str, F64Fn)] = &[
    ("exp", f64::exp),
    ("exp2", f64::exp2),
    ("log", f64::ln),
    ("log2", f64::log2),
    ("log10", f64::log10),
    ("log1p", f64::ln_1p),
    ("sin", f64::sin),
    ("cos", f64::cos),
    ("tan", f64::tan),
    ("sinh", f64::sinh),
    ("cosh", f64::cosh),
    ("tanh", f64::tanh),
    ("tanhf", f64::tanh),
    ("sigmoid", |x| 1.0 / (1.0 + (-x).exp())),
    ("rsqrt", |x| 1.0 / x.sqrt()),
    ("recipf", |x| 1.0 / x),
    ("ceil", f64::ceil),
    ("floor", f64::floor),
];

/// A two-argument math function in f64.
type F64Fn2 = fn(f64, f64) -> f64;

const MATH_BINARY: &[(&str, F64Fn2)] = &[("powf", f64::powf), ("atan2", f64::atan2)];

fn math_functions(ran: &mut Ran) {
    for (k, ty) in [
        (FloatKind::F32, "f32"),
        (FloatKind::F16, "f16"),
        (FloatKind::BF16, "bf16"),
        (FloatKind::F64, "f64"),
    ] {
        let n = 64;
        let mut xs: Vec<f64> = vec![
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            2.0,
            10.0,
            -10.0,
            100.0,
            -100.0,
            1e-3,
            float::to_f64(k, 1),
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            3.25,
            -1.5,
            1e4,
            -0.75,
        ];
        let mut rng = Rng(3);
        while xs.len() < n {
            xs.push(((rng.next() >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 16.0);
        }
        let a: Vec<u64> = xs.iter().map(|x| float::round_from_f64(k, *x)).collect();
        let b: Vec<u64> = a.iter().rev().copied().collect();
        let t = format!("tile<64x{ty}>");
        let mut lines: Vec<(String, &str)> = MATH_UNARY
            .iter()
            .map(|(op, _)| (format!("{op} %a : {t}"), t.as_str()))
            .collect();
        lines.extend(
            MATH_BINARY
                .iter()
                .map(|(op, _)| (format!("{op} %a, %b : {t}"), t.as_str())),
        );
        let m = module(&kernel(&[("a", &t), ("b", &t)], &lines));
        let got = call_bits(&m, "f", &[a.clone(), b.clone()], ran);
        let v = |bits: u64| float::to_f64(k, bits);
        let round = |x: f64| float::round_from_f64(k, x);
        for i in 0..n {
            let (x, y) = (v(a[i]), v(b[i]));
            let want = MATH_UNARY
                .iter()
                .map(|(_, f)| round(f(x)))
                .chain(MATH_BINARY.iter().map(|(_, f)| round(f(x, y))));
            for (j, w) in want.enumerate() {
                assert!(
                    same_float(k, got[j][i], w),
                    "`{}` of {x:e}, {y:e}: got {:e}, expected {:e}",
                    lines[j].0,
                    v(got[j][i]),
                    v(w)
                );
            }
        }
    }
    // flush_to_zero: subnormal inputs read as zeros of their sign, subnormal results
    // become zeros.
    let m = module(&kernel(
        &[("a", "tile<4xf32>")],
        &[
            ("exp2 %a flush_to_zero : tile<4xf32>".into(), "tile<4xf32>"),
            ("rsqrt %a flush_to_zero : tile<4xf32>".into(), "tile<4xf32>"),
            ("exp2 %a : tile<4xf32>".into(), "tile<4xf32>"),
        ],
    ));
    let x = [-140.0f32, 1.0e-40, -1.0e-40, 4.0];
    let got = call_bits(&m, "f", &[f32_bits(&x)], ran);
    let f32s = |what: &str, got: &[u64], want: &[f32]| {
        check_floats(FloatKind::F32, what, got, &f32_bits(want), &|i| {
            x[i].to_string()
        })
    };
    f32s("exp2 flush_to_zero", &got[0], &[0.0, 1.0, 1.0, 16.0]);
    f32s(
        "rsqrt flush_to_zero",
        &got[1],
        &[f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 0.5],
    );
    f32s("exp2", &got[2], &[f64::exp2(-140.0) as f32, 1.0, 1.0, 16.0]);
}

/// ftof, ftoi, itof, bitcast and the pointer casts.
fn conversions(ran: &mut Ran) {
    let n = 64;
    let mut x: Vec<f32> = vec![
        0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.5, 65504.0, 65520.0, 1.0e5, -1.0e5,
        6.0e-8, 2.0e-8, 1.0e-40, 448.0, 464.0, 500.0, 57344.0, 1.0e20, -1.0e20, 3.0e9, 4.5e9,
        -3.0e9, 127.5, -128.5, 255.5, 300.0, -300.0, 0.1,
    ];
    x.extend([
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MAX,
        16777217.0,
        1.0 / 3.0,
    ]);
    let mut rng = Rng(4);
    while x.len() < n {
        x.push(f32::from_bits(rng.next() as u32 & 0xc7ff_ffff));
    }
    // The ftoi inputs: no infinities (undefined behaviour).
    let xi: Vec<f32> = x
        .iter()
        .map(|v| if v.is_infinite() { 7.75 } else { *v })
        .collect();
    let t32 = "tile<64xf32>";
    let mut lines: Vec<(String, &str)> = Vec::new();
    let mut want: Vec<(FloatKind, Vec<u64>)> = Vec::new();
    let b = |k: FloatKind, v: f64, r: Round| float::round_from_f64_with(k, v, r);
    // ftof to f8 saturates (as tileiras and PTX's cvt.satfinite do): a value out of range,
    // infinities included, gives the largest finite value of its sign; NaN stays NaN.
    let to_f8 = |k: FloatKind, v: f64| {
        let r = b(k, v, Round::NearestEven);
        let out = float::is_nan(k, r) || float::to_f64(k, r).is_infinite();
        if out && !v.is_nan() {
            float::max_finite(k, v < 0.0)
        } else {
            r
        }
    };
    // ftof from f32 (the verifier admits round to nearest even only).
    for (k, ty) in [
        (FloatKind::F16, "f16"),
        (FloatKind::BF16, "bf16"),
        (FloatKind::TF32, "tf32"),
        (FloatKind::F8E4M3FN, "f8E4M3FN"),
        (FloatKind::F8E5M2, "f8E5M2"),
    ] {
        lines.push((
            format!("ftof %x rounding<nearest_even> : {t32} -> tile<64x{ty}>"),
            "",
        ));
        let f8 = matches!(k, FloatKind::F8E4M3FN | FloatKind::F8E5M2);
        want.push((
            k,
            x.iter()
                .map(|v| {
                    if f8 {
                        to_f8(k, f64::from(*v))
                    } else {
                        b(k, f64::from(*v), Round::NearestEven)
                    }
                })
                .collect(),
        ));
    }
    lines.push((format!("ftof %x : {t32} -> tile<64xf64>"), "tile<64xf64>"));
    want.push((
        FloatKind::F64,
        x.iter().map(|v| f64::from(*v).to_bits()).collect(),
    ));
    // Widening back to f32 is exact: f16 -> f32, f64 -> f32 (of the widened value).
    lines.push(("ftof %r0 : tile<64xf16> -> tile<64xf32>".into(), t32));
    want.push((
        FloatKind::F32,
        x.iter()
            .map(|v| {
                let h = b(FloatKind::F16, f64::from(*v), Round::NearestEven);
                u64::from((float::to_f64(FloatKind::F16, h) as f32).to_bits())
            })
            .collect(),
    ));
    lines.push((
        "ftof %r4 : tile<64xf8E5M2> -> tile<64xbf16>".into(),
        "tile<64xbf16>",
    ));
    want.push((
        FloatKind::BF16,
        x.iter()
            .map(|v| {
                let e = to_f8(FloatKind::F8E5M2, f64::from(*v));
                b(
                    FloatKind::BF16,
                    float::to_f64(FloatKind::F8E5M2, e),
                    Round::NearestEven,
                )
            })
            .collect(),
    ));
    // ftoi: toward zero, saturating, NaN to 0 (Rust's `as`).
    type ToInt = fn(f32) -> u64;
    let ints: &[(&str, ToInt)] = &[
        ("signed : tile<64xf32> -> tile<64xi32>", |v| {
            v as i32 as u32 as u64
        }),
        ("unsigned : tile<64xf32> -> tile<64xi32>", |v| {
            u64::from(v as u32)
        }),
        ("signed : tile<64xf32> -> tile<64xi8>", |v| {
            u64::from(v as i8 as u8)
        }),
        ("unsigned : tile<64xf32> -> tile<64xi8>", |v| {
            u64::from(v as u8)
        }),
        ("signed : tile<64xf32> -> tile<64xi64>", |v| v as i64 as u64),
        ("unsigned : tile<64xf32> -> tile<64xi16>", |v| {
            u64::from(v as u16)
        }),
    ];
    let first_int = lines.len();
    for (tys, _) in ints {
        lines.push((format!("ftoi %xi {tys}"), ""));
    }
    // itof of integer patterns.
    let ii: Vec<i64> = x
        .iter()
        .enumerate()
        .map(|(i, v)| match i % 4 {
            0 => i64::from(v.to_bits() as i32),
            1 => (v.to_bits() as i64) << 31,
            2 => i64::from(i as i32 * 1000 - 7),
            _ => i64::MAX - i as i64,
        })
        .collect();
    let first_itof = lines.len();
    type ToF32 = fn(i64) -> f32;
    let itofs: &[(&str, ToF32)] = &[
        ("%i32 signed : tile<64xi32> -> tile<64xf32>", |v| {
            v as i32 as f32
        }),
        ("%i32 unsigned : tile<64xi32> -> tile<64xf32>", |v| {
            v as i32 as u32 as f32
        }),
        ("%i64 signed : tile<64xi64> -> tile<64xf32>", |v| v as f32),
        (
            "%i64 unsigned rounding<nearest_even> : tile<64xi64> -> tile<64xf32>",
            |v| v as u64 as f32,
        ),
    ];
    for (tys, _) in itofs {
        lines.push((format!("itof {tys}"), ""));
    }
    let first_rest = lines.len();
    lines.push(("itof %i64 signed : tile<64xi64> -> tile<64xf64>".into(), ""));
    lines.push(("itof %i32 signed : tile<64xi32> -> tile<64xf16>".into(), ""));
    lines.push(("bitcast %x : tile<64xf32> -> tile<64xi32>".into(), ""));
    lines.push(("bitcast %i32 : tile<64xi32> -> tile<64xf32>".into(), ""));
    lines.push(("bitcast %r3 : tile<64xf8E4M3FN> -> tile<64xi8>".into(), ""));
    lines.push(("bitcast %i8 : tile<64xi8> -> tile<64xf8E5M2>".into(), ""));
    lines.push(("bitcast %r0 : tile<64xf16> -> tile<64xi16>".into(), ""));
    lines.push(("bitcast %i64 : tile<64xi64> -> tile<64xf64>".into(), ""));
    lines.push((
        "int_to_ptr %i64 : tile<64xi64> -> tile<64xptr<f32>>".into(),
        "",
    ));
    let p = lines.len() - 1;
    lines.push((
        format!("ptr_to_ptr %r{p} : tile<64xptr<f32>> -> tile<64xptr<i8>>"),
        "",
    ));
    lines.push((
        format!("ptr_to_int %r{} : tile<64xptr<i8>> -> tile<64xi64>", p + 1),
        "",
    ));
    // Result types: what follows the last `->`.
    let types: Vec<String> = lines
        .iter()
        .map(|(l, _)| l.rsplit("-> ").next().unwrap().to_string())
        .collect();
    let lines: Vec<(String, &str)> = lines
        .iter()
        .zip(&types)
        .map(|((l, _), t)| (l.clone(), t.as_str()))
        .collect();
    let m = module(&kernel(
        &[
            ("x", t32),
            ("xi", t32),
            ("i32", "tile<64xi32>"),
            ("i64", "tile<64xi64>"),
            ("i8", "tile<64xi8>"),
        ],
        &lines,
    ));
    let got = call_bits(
        &m,
        "f",
        &[
            f32_bits(&x),
            f32_bits(&xi),
            ii.iter().map(|v| u64::from(*v as u32)).collect(),
            ii.iter().map(|v| *v as u64).collect(),
            ii.iter().map(|v| u64::from(*v as u8)).collect(),
        ],
        ran,
    );
    for (j, (k, w)) in want.iter().enumerate() {
        check_floats(*k, &lines[j].0, &got[j], w, &|i| format!("{:e}", x[i]));
    }
    for (j, (_, f)) in ints.iter().enumerate() {
        let w: Vec<u64> = xi.iter().map(|v| f(*v)).collect();
        check(&lines[first_int + j].0, &got[first_int + j], &w);
    }
    for (j, (_, f)) in itofs.iter().enumerate() {
        let w: Vec<f32> = ii.iter().map(|v| f(*v)).collect();
        check(
            &lines[first_itof + j].0,
            &got[first_itof + j],
            &f32_bits(&w),
        );
    }
    let r = first_rest;
    check(
        &lines[r].0,
        &got[r],
        &f64_bits(&ii.iter().map(|v| *v as f64).collect::<Vec<_>>()),
    );
    let h: Vec<u64> = ii
        .iter()
        .map(|v| float::round_from_f64(FloatKind::F16, f64::from(*v as i32)))
        .collect();
    check(&lines[r + 1].0, &got[r + 1], &h);
    check(&lines[r + 2].0, &got[r + 2], &f32_bits(&x));
    let i32s: Vec<u64> = ii.iter().map(|v| u64::from(*v as u32)).collect();
    check(&lines[r + 3].0, &got[r + 3], &i32s);
    // Bitcasts keep the bits: an f8 (the ftof result above) as an i8, and an i8 as an f8.
    check(&lines[r + 4].0, &got[r + 4], &got[3]);
    let i8s: Vec<u64> = ii.iter().map(|v| u64::from(*v as u8)).collect();
    check(&lines[r + 5].0, &got[r + 5], &i8s);
    check(&lines[r + 6].0, &got[r + 6], &got[0]);
    let i64s: Vec<u64> = ii.iter().map(|v| *v as u64).collect();
    for j in r + 7..r + 11 {
        check(&lines[j].0, &got[j], &i64s);
    }
}

/// Conversions from and to i1, from f16 and f64, and integer overflow into f8.
fn narrow_conversions(ran: &mut Ran) {
    let t = |e: &str| format!("tile<8x{e}>");
    let lines: Vec<(String, String)> = vec![
        (
            format!("ftoi %x signed : {} -> {}", t("f32"), t("i1")),
            t("i1"),
        ),
        (
            format!("ftoi %x unsigned : {} -> {}", t("f32"), t("i1")),
            t("i1"),
        ),
        (
            format!("ftoi %h signed : {} -> {}", t("f16"), t("i16")),
            t("i16"),
        ),
        (
            format!("itof %b signed : {} -> {}", t("i1"), t("f32")),
            t("f32"),
        ),
        (
            format!("itof %b unsigned : {} -> {}", t("i1"), t("f32")),
            t("f32"),
        ),
        (format!("ftof %d : {} -> {}", t("f64"), t("f32")), t("f32")),
        (
            format!("itof %i signed : {} -> {}", t("i32"), t("f8E4M3FN")),
            t("f8E4M3FN"),
        ),
        (
            format!("itof %i unsigned : {} -> {}", t("i32"), t("f8E5M2")),
            t("f8E5M2"),
        ),
    ];
    let lines: Vec<(String, &str)> = lines
        .iter()
        .map(|(l, ty)| (l.clone(), ty.as_str()))
        .collect();
    let m = module(&kernel(
        &[
            ("x", &t("f32")),
            ("h", &t("f16")),
            ("d", &t("f64")),
            ("b", &t("i1")),
            ("i", &t("i32")),
        ],
        &lines,
    ));
    let x = [0.5f32, -1.0, 1.0, -3.0, 2.5, -0.75, f32::NAN, 1.0e9];
    let h: Vec<u64> = [-32768.0, 40000.0, -6.0e4, 1.5, -2.5, 0.0, f64::NAN, 12.75]
        .iter()
        .map(|v| float::round_from_f64(FloatKind::F16, *v))
        .collect();
    let d = [
        0.1f64,
        1.0e300,
        -1.0e-300,
        3.0,
        f64::MIN_POSITIVE,
        -0.0,
        1.0 + 1.0e-16,
        16777217.0,
    ];
    let b = vec![0u64, 1, 1, 0, 1, 0, 0, 1];
    let i = [0i32, 448, 464, 480, 1000, -1000, 57344, 61440];
    let got = call_bits(
        &m,
        "f",
        &[f32_bits(&x), h.clone(), f64_bits(&d), b.clone(), ints32(&i)],
        ran,
    );
    let want: Vec<u64> = x
        .iter()
        .map(|v| ((v.trunc() as i8).clamp(-1, 0) & 1) as u64)
        .collect();
    check(&lines[0].0, &got[0], &want);
    let want: Vec<u64> = x.iter().map(|v| u64::from((*v as u8).min(1))).collect();
    check(&lines[1].0, &got[1], &want);
    let want: Vec<u64> = h
        .iter()
        .map(|v| u64::from(float::to_f64(FloatKind::F16, *v) as i16 as u16))
        .collect();
    check(&lines[2].0, &got[2], &want);
    let want: Vec<f32> = b.iter().map(|v| if *v == 1 { -1.0 } else { 0.0 }).collect();
    check(&lines[3].0, &got[3], &f32_bits(&want));
    let want: Vec<f32> = b.iter().map(|v| *v as f32).collect();
    check(&lines[4].0, &got[4], &f32_bits(&want));
    let want: Vec<f32> = d.iter().map(|v| *v as f32).collect();
    check(&lines[5].0, &got[5], &f32_bits(&want));
    // Out of range: NaN for f8E4M3FN (it has no infinity), infinity for f8E5M2.
    for (j, k) in [(6, FloatKind::F8E4M3FN), (7, FloatKind::F8E5M2)] {
        let want: Vec<u64> = i
            .iter()
            .map(|v| {
                let v = if j == 7 {
                    f64::from(*v as u32)
                } else {
                    f64::from(*v)
                };
                float::round_from_f64(k, v)
            })
            .collect();
        check_floats(k, &lines[j].0, &got[j], &want, &|e| i[e].to_string());
    }
    assert!(
        float::is_nan(FloatKind::F8E4M3FN, got[6][4]),
        "1000 in f8E4M3FN is NaN"
    );
    assert!(
        float::is_infinite(FloatKind::F8E5M2, got[7][7]),
        "61440 in f8E5M2 is infinite"
    );
}

// ---------------------------------------------------------------- shapes and data movement

/// Row-major index of `c` in `shape`.
fn at(shape: &[usize], c: &[usize]) -> usize {
    c.iter().zip(shape).fold(0, |acc, (x, n)| acc * n + x)
}

/// constant, broadcast, reshape, permute, cat, extract, iota, select, offset.
fn shapes(ran: &mut Ran) {
    let lines: Vec<(String, &str)> = vec![
        (
            "broadcast %col : tile<1x4xi32> -> tile<4x4xi32>".into(),
            "tile<4x4xi32>",
        ),
        (
            "broadcast %row : tile<2x1xi32> -> tile<2x4xi32>".into(),
            "tile<2x4xi32>",
        ),
        (
            "reshape %a : tile<2x4xi32> -> tile<4x2xi32>".into(),
            "tile<4x2xi32>",
        ),
        (
            "reshape %a : tile<2x4xi32> -> tile<2x2x2xi32>".into(),
            "tile<2x2x2xi32>",
        ),
        (
            "permute %a [1, 0] : tile<2x4xi32> -> tile<4x2xi32>".into(),
            "tile<4x2xi32>",
        ),
        (
            "permute %r3 [2, 0, 1] : tile<2x2x2xi32> -> tile<2x2x2xi32>".into(),
            "tile<2x2x2xi32>",
        ),
        (
            "cat %a, %b dim = 0 : tile<2x4xi32>, tile<2x4xi32> -> tile<4x4xi32>".into(),
            "tile<4x4xi32>",
        ),
        (
            "cat %a, %b dim = 1 : tile<2x4xi32>, tile<2x4xi32> -> tile<2x8xi32>".into(),
            "tile<2x8xi32>",
        ),
        ("constant <i32: 1> : tile<i32>".into(), "tile<i32>"),
        ("constant <i32: 3> : tile<i32>".into(), "tile<i32>"),
        (
            "extract %r7[%r8, %r9] : tile<2x8xi32> -> tile<1x2xi32>".into(),
            "tile<1x2xi32>",
        ),
        (
            "extract %r6[%r9, %r8] : tile<4x4xi32> -> tile<1x2xi32>".into(),
            "tile<1x2xi32>",
        ),
        ("iota : tile<8xi32>".into(), "tile<8xi32>"),
        ("iota : tile<256xi8>".into(), "tile<256xi8>"),
        (
            "select %c, %a, %b : tile<2x4xi1>, tile<2x4xi32>".into(),
            "tile<2x4xi32>",
        ),
        (
            "offset %p, %o : tile<8xptr<f32>>, tile<8xi32> -> tile<8xptr<f32>>".into(),
            "tile<8xptr<f32>>",
        ),
        (
            "offset %q, %o64 : tile<8xptr<f16>>, tile<8xi64> -> tile<8xptr<f16>>".into(),
            "tile<8xptr<f16>>",
        ),
        (
            "reshape %s : tile<i32> -> tile<1x1xi32>".into(),
            "tile<1x1xi32>",
        ),
        (
            "reshape %r17 : tile<1x1xi32> -> tile<i32>".into(),
            "tile<i32>",
        ),
        ("constant <i32: -5> : tile<2x2xi32>".into(), "tile<2x2xi32>"),
        (
            "constant dense<[[1, -2], [3, 2147483647]]> : tile<2x2xi32>".into(),
            "tile<2x2xi32>",
        ),
        (
            "constant dense<[1.5, -0.0, 0x7F800000, 3.0e-45]> : tile<4xf32>".into(),
            "tile<4xf32>",
        ),
        (
            "constant dense<[true, false, true, true]> : tile<4xi1>".into(),
            "tile<4xi1>",
        ),
        ("constant <f16: 0.1> : tile<2xf16>".into(), "tile<2xf16>"),
        (
            "constant <i64: -9223372036854775807> : tile<i64>".into(),
            "tile<i64>",
        ),
        (
            "constant dense<[-1, 255]> : tile<2xi8>".into(),
            "tile<2xi8>",
        ),
    ];
    let m = module(&kernel(
        &[
            ("a", "tile<2x4xi32>"),
            ("b", "tile<2x4xi32>"),
            ("c", "tile<2x4xi1>"),
            ("col", "tile<1x4xi32>"),
            ("row", "tile<2x1xi32>"),
            ("p", "tile<8xptr<f32>>"),
            ("o", "tile<8xi32>"),
            ("q", "tile<8xptr<f16>>"),
            ("o64", "tile<8xi64>"),
            ("s", "tile<i32>"),
        ],
        &lines,
    ));
    let a: Vec<u64> = (0..8).map(|i| 10 + i).collect();
    let b: Vec<u64> = (0..8).map(|i| 100 + i).collect();
    let c: Vec<u64> = vec![1, 0, 0, 1, 1, 1, 0, 0];
    let base = 0x1_0000_1000u64;
    let p: Vec<u64> = (0..8).map(|i| base + 64 * i).collect();
    let o: Vec<i64> = vec![
        0,
        1,
        -1,
        7,
        -16,
        1000,
        i64::from(i32::MAX),
        i64::from(i32::MIN),
    ];
    let got = call_bits(
        &m,
        "f",
        &[
            a.clone(),
            b.clone(),
            c.clone(),
            vec![1, 2, 3, 4],
            vec![5, 6],
            p.clone(),
            o.iter().map(|x| *x as u32 as u64).collect(),
            p.clone(),
            o.iter().map(|x| (*x * 3) as u64).collect(),
            vec![42],
        ],
        ran,
    );
    let name = |k: usize| lines[k].0.as_str();
    // broadcast: the size-1 dimension repeats.
    let want: Vec<u64> = (0..16).map(|i| [1, 2, 3, 4][i % 4]).collect();
    check(name(0), &got[0], &want);
    let want: Vec<u64> = (0..8).map(|i| [5, 6][i / 4]).collect();
    check(name(1), &got[1], &want);
    // reshape keeps the row-major order.
    check(name(2), &got[2], &a);
    check(name(3), &got[3], &a);
    // permute [1, 0]: result[i][j] = a[j][i].
    let mut want = vec![0; 8];
    for i in 0..4 {
        for j in 0..2 {
            want[at(&[4, 2], &[i, j])] = a[at(&[2, 4], &[j, i])];
        }
    }
    check(name(4), &got[4], &want);
    // permute [2, 0, 1]: result dimension d is source dimension perm[d], so
    // result[i][j][k] = src[j][k][i].
    let mut want = vec![0; 8];
    for i in 0..2 {
        for j in 0..2 {
            for k in 0..2 {
                want[at(&[2, 2, 2], &[i, j, k])] = a[at(&[2, 2, 2], &[j, k, i])];
            }
        }
    }
    check(name(5), &got[5], &want);
    let want: Vec<u64> = a.iter().chain(&b).copied().collect();
    check(name(6), &got[6], &want);
    let want: Vec<u64> = (0..16)
        .map(|i| {
            if i % 8 < 4 {
                a[i / 8 * 4 + i % 8]
            } else {
                b[i / 8 * 4 + i % 8 - 4]
            }
        })
        .collect();
    check(name(7), &got[7], &want);
    // extract [1, 3] of 1x2 blocks of the 2x8 cat: row 1, columns 6 and 7.
    check(name(10), &got[10], &[got[7][14], got[7][15]]);
    check(name(10), &got[10], &[b[6], b[7]]);
    // extract [3, 1] of the 4x4 cat: row 3, columns 2 and 3.
    check(name(11), &got[11], &[b[6], b[7]]);
    check(name(12), &got[12], &(0..8).collect::<Vec<_>>());
    check(name(13), &got[13], &(0..256).collect::<Vec<_>>());
    let want: Vec<u64> = (0..8)
        .map(|i| if c[i] == 1 { a[i] } else { b[i] })
        .collect();
    check(name(14), &got[14], &want);
    // offset: pointer plus offset times the pointee's size, the offset signed.
    let want: Vec<u64> = (0..8).map(|i| (p[i] as i64 + o[i] * 4) as u64).collect();
    check(name(15), &got[15], &want);
    let want: Vec<u64> = (0..8)
        .map(|i| (p[i] as i64 + o[i] * 3 * 2) as u64)
        .collect();
    check(name(16), &got[16], &want);
    check(name(17), &got[17], &[42]);
    check(name(18), &got[18], &[42]);
    check(name(19), &got[19], &[(-5i32) as u32 as u64; 4]);
    check(
        name(20),
        &got[20],
        &[1, (-2i32) as u32 as u64, 3, i32::MAX as u64],
    );
    let want = [1.5f32, -0.0, f32::INFINITY, 3.0e-45];
    check(name(21), &got[21], &f32_bits(&want));
    check(name(22), &got[22], &[1, 0, 1, 1]);
    let h = float::round_from_f64(FloatKind::F16, 0.1);
    check(name(23), &got[23], &[h, h]);
    check(name(24), &got[24], &[(-i64::MAX) as u64]);
    check(name(25), &got[25], &[0xff, 0xff]);
}

// ---------------------------------------------------------------- reduce, scan, mma

/// reduce and scan: each row folded in ascending index order from the identity, the body
/// called with (current element, accumulator) (descending for a reverse scan).
fn reduce_and_scan(ran: &mut Ran) {
    let m = module(
        "cuda_tile.module @m {
  testing$func @f(%x: tile<4x8xi32>, %v: tile<2x4x8xf32>, %ix: tile<2x4x8xi32>) -> (tile<4xi32>, tile<8xi32>, tile<4xi32>, tile<2x8xf32>, tile<2x8xi32>, tile<4x8xi32>, tile<4x8xi32>, tile<2x4x8xf32>, tile<2x8xf32>) {
    %sum = reduce %x dim=1 identities=[0 : i32] : tile<4x8xi32> -> tile<4xi32>
    (%c0: tile<i32>, %p0: tile<i32>) {
      %s = addi %c0, %p0 : tile<i32>
      yield %s : tile<i32>
    }
    %cols = reduce %x dim=0 identities=[-1 : i32] : tile<4x8xi32> -> tile<8xi32>
    (%c1: tile<i32>, %p1: tile<i32>) {
      %s = xori %c1, %p1 : tile<i32>
      yield %s : tile<i32>
    }
    %alt = reduce %x dim=1 identities=[1000 : i32] : tile<4x8xi32> -> tile<4xi32>
    (%c2: tile<i32>, %p2: tile<i32>) {
      %s = subi %c2, %p2 : tile<i32>
      yield %s : tile<i32>
    }
    %mx, %arg = reduce %v, %ix dim=1 identities=[0xFF800000 : f32, -1 : i32] : tile<2x4x8xf32>, tile<2x4x8xi32> -> tile<2x8xf32>, tile<2x8xi32>
    (%cv: tile<f32>, %pv: tile<f32>, %ci: tile<i32>, %pi: tile<i32>) {
      %gt = cmpf greater_than ordered %cv, %pv : tile<f32> -> tile<i1>
      %nv = select %gt, %cv, %pv : tile<i1>, tile<f32>
      %ni = select %gt, %ci, %pi : tile<i1>, tile<i32>
      yield %nv, %ni : tile<f32>, tile<i32>
    }
    %fwd = scan %x dim=1 reverse=false identities=[7 : i32] : tile<4x8xi32> -> tile<4x8xi32>
    (%c3: tile<i32>, %p3: tile<i32>) {
      %s = subi %c3, %p3 : tile<i32>
      yield %s : tile<i32>
    }
    %rev = scan %x dim=0 reverse=true identities=[0 : i32] : tile<4x8xi32> -> tile<4x8xi32>
    (%c4: tile<i32>, %p4: tile<i32>) {
      %s = addi %c4, %p4 : tile<i32>
      yield %s : tile<i32>
    }
    %prod = scan %v dim=2 reverse=false identities=[1.000000e+00 : f32] : tile<2x4x8xf32> -> tile<2x4x8xf32>
    (%c5: tile<f32>, %p5: tile<f32>) {
      %s = mulf %c5, %p5 : tile<f32>
      yield %s : tile<f32>
    }
    %fsum = reduce %v dim=1 identities=[-0.000000e+00 : f32] : tile<2x4x8xf32> -> tile<2x8xf32>
    (%c6: tile<f32>, %p6: tile<f32>) {
      %s = addf %c6, %p6 : tile<f32>
      yield %s : tile<f32>
    }
    return %sum, %cols, %alt, %mx, %arg, %fwd, %rev, %prod, %fsum : tile<4xi32>, tile<8xi32>, tile<4xi32>, tile<2x8xf32>, tile<2x8xi32>, tile<4x8xi32>, tile<4x8xi32>, tile<2x4x8xf32>, tile<2x8xf32>
  }
}",
    );
    let mut rng = Rng(5);
    let x: Vec<i32> = (0..32)
        .map(|i| {
            if i % 5 == 0 {
                i32::MAX - i
            } else {
                rng.next() as i32 >> 8
            }
        })
        .collect();
    let v: Vec<f32> = (0..64)
        .map(|i| {
            if i == 9 {
                f32::NAN
            } else {
                (rng.next() >> 40) as f32 / 3.0e6 - 2.5
            }
        })
        .collect();
    let ix: Vec<i32> = (0..64).collect();
    let got = call_bits(
        &m,
        "f",
        &[
            x.iter().map(|v| u64::from(*v as u32)).collect(),
            f32_bits(&v),
            ix.iter().map(|v| u64::from(*v as u32)).collect(),
        ],
        ran,
    );
    let u = |v: &[i32]| -> Vec<u64> { v.iter().map(|x| u64::from(*x as u32)).collect() };
    let xr = |r: usize, c: usize| x[r * 8 + c];
    let want: Vec<i32> = (0..4)
        .map(|r| (0..8).fold(0i32, |acc, c| xr(r, c).wrapping_add(acc)))
        .collect();
    check("reduce addi dim=1", &got[0], &u(&want));
    let want: Vec<i32> = (0..8)
        .map(|c| (0..4).fold(-1i32, |acc, r| xr(r, c) ^ acc))
        .collect();
    check("reduce xori dim=0", &got[1], &u(&want));
    let want: Vec<i32> = (0..4)
        .map(|r| (0..8).fold(1000i32, |acc, c| xr(r, c).wrapping_sub(acc)))
        .collect();
    check("reduce subi (current - accumulator)", &got[2], &u(&want));
    // The argmax over dimension 1 of 2x4x8: the first maximum wins (greater_than); NaN
    // never compares greater.
    let (mut mx, mut arg) = (Vec::new(), Vec::new());
    for b in 0..2 {
        for c in 0..8 {
            let (mut best, mut bi) = (f32::NEG_INFINITY, -1);
            for r in 0..4 {
                let i = b * 32 + r * 8 + c;
                if v[i] > best {
                    (best, bi) = (v[i], ix[i]);
                }
            }
            mx.push(best);
            arg.push(bi);
        }
    }
    check("variadic reduce (value)", &got[3], &f32_bits(&mx));
    check("variadic reduce (index)", &got[4], &u(&arg));
    let mut want = vec![0i32; 32];
    for r in 0..4 {
        let mut acc = 7i32;
        for c in 0..8 {
            acc = xr(r, c).wrapping_sub(acc);
            want[r * 8 + c] = acc;
        }
    }
    check("scan subi", &got[5], &u(&want));
    let mut want = vec![0i32; 32];
    for c in 0..8 {
        let mut acc = 0i32;
        for r in (0..4).rev() {
            acc = xr(r, c).wrapping_add(acc);
            want[r * 8 + c] = acc;
        }
    }
    check("scan reverse dim=0", &got[6], &u(&want));
    let mut want = vec![0f32; 64];
    for row in 0..8 {
        let mut acc = 1.0f32;
        for c in 0..8 {
            acc *= v[row * 8 + c];
            want[row * 8 + c] = acc;
        }
    }
    check_floats(
        FloatKind::F32,
        "scan mulf",
        &got[7],
        &f32_bits(&want),
        &|i| i.to_string(),
    );
    let mut want = Vec::new();
    for b in 0..2 {
        for c in 0..8 {
            want.push((0..4).fold(-0.0f32, |acc, r| v[b * 32 + r * 8 + c] + acc));
        }
    }
    check_floats(
        FloatKind::F32,
        "reduce addf",
        &got[8],
        &f32_bits(&want),
        &|i| i.to_string(),
    );
}

/// mmaf with every input type, mmai with every signedness pair, batched products: one
/// fused multiply-add per k in ascending k, in the accumulator's type.
fn matrix_products(ran: &mut Ran) {
    let mut rng = Rng(6);
    let mut rand = |k: FloatKind, n: usize, scale: f64| -> Vec<u64> {
        (0..n)
            .map(|_| {
                let v = ((rng.next() >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * scale;
                float::round_from_f64(k, v)
            })
            .collect()
    };
    // (input type, accumulator type, batch)
    let cases = [
        (FloatKind::F8E4M3FN, FloatKind::F16, 1),
        (FloatKind::F8E5M2, FloatKind::F32, 1),
        (FloatKind::F16, FloatKind::F16, 2),
        (FloatKind::BF16, FloatKind::F32, 2),
        (FloatKind::TF32, FloatKind::F32, 1),
        (FloatKind::F32, FloatKind::F32, 1),
        (FloatKind::F64, FloatKind::F64, 1),
    ];
    let name = |k: FloatKind| k.name();
    let (mm, kk, nn) = (4, 16, 8);
    for (ki, ka, batch) in cases {
        let dims = |r: usize, c: usize| {
            if batch > 1 {
                format!("{batch}x{r}x{c}")
            } else {
                format!("{r}x{c}")
            }
        };
        let (ta, tb, tc) = (
            format!("tile<{}x{}>", dims(mm, kk), name(ki)),
            format!("tile<{}x{}>", dims(kk, nn), name(ki)),
            format!("tile<{}x{}>", dims(mm, nn), name(ka)),
        );
        let m = module(&kernel(
            &[("a", &ta), ("b", &tb), ("c", &tc)],
            &[(format!("mmaf %a, %b, %c : {ta}, {tb}, {tc}"), tc.as_str())],
        ));
        // f16 accumulation of f16 products: values on a 2^-6 grid keep every step exact in
        // f64 (see mma_f16_with_f16_accumulator in examples.rs); the rest are random.
        let grid = |v: Vec<u64>, k: FloatKind| -> Vec<u64> {
            if ka == FloatKind::F16 {
                v.iter()
                    .map(|x| float::round_from_f64(k, (float::to_f64(k, *x) * 64.0).round() / 64.0))
                    .collect()
            } else {
                v
            }
        };
        let a = grid(rand(ki, batch * mm * kk, 8.0), ki);
        let b = grid(rand(ki, batch * kk * nn, 8.0), ki);
        let c = grid(rand(ka, batch * mm * nn, 64.0), ka);
        let got = call_bits(&m, "f", &[a.clone(), b.clone(), c.clone()], ran);
        let (fi, fa) = (|x: u64| float::to_f64(ki, x), |x: u64| float::to_f64(ka, x));
        let mut want = Vec::new();
        for p in 0..batch {
            for i in 0..mm {
                for j in 0..nn {
                    let mut acc = c[p * mm * nn + i * nn + j];
                    for k in 0..kk {
                        let (x, y) = (
                            fi(a[p * mm * kk + i * kk + k]),
                            fi(b[p * kk * nn + k * nn + j]),
                        );
                        acc = match ka {
                            FloatKind::F32 => {
                                u64::from((x as f32).mul_add(y as f32, fa(acc) as f32).to_bits())
                            }
                            FloatKind::F64 => x.mul_add(y, fa(acc)).to_bits(),
                            // Exact in f64, rounded once.
                            _ => float::round_from_f64(ka, x * y + fa(acc)),
                        };
                    }
                    want.push(acc);
                }
            }
        }
        let what = format!("mmaf {ta} x {tb} + {tc}");
        check_floats(ka, &what, &got[0], &want, &|i| i.to_string());
    }
    // mmai: i8 products summed in i32 with wrap-around.
    let (ta, tb, tc) = ("tile<2x4x32xi8>", "tile<2x32x8xi8>", "tile<2x4x8xi32>");
    let lines: Vec<(String, &str)> = [
        ("signed", "signed"),
        ("signed", "unsigned"),
        ("unsigned", "signed"),
        ("unsigned", "unsigned"),
    ]
    .iter()
    .map(|(l, r)| (format!("mmai %a, %b, %c {l} {r} : {ta}, {tb}, {tc}"), tc))
    .collect();
    let m = module(&kernel(&[("a", ta), ("b", tb), ("c", tc)], &lines));
    let a: Vec<u8> = (0..256)
        .map(|i| if i % 7 == 0 { 0x80 } else { rng.next() as u8 })
        .collect();
    let b: Vec<u8> = (0..512)
        .map(|i| if i % 5 == 0 { 0xff } else { rng.next() as u8 })
        .collect();
    let c: Vec<i32> = (0..64)
        .map(|i| {
            if i % 2 == 0 {
                i32::MAX - i
            } else {
                rng.next() as i32
            }
        })
        .collect();
    let got = call_bits(
        &m,
        "f",
        &[
            a.iter().map(|x| u64::from(*x)).collect(),
            b.iter().map(|x| u64::from(*x)).collect(),
            c.iter().map(|x| u64::from(*x as u32)).collect(),
        ],
        ran,
    );
    for (r, (sa, sb)) in [(true, true), (true, false), (false, true), (false, false)]
        .into_iter()
        .enumerate()
    {
        let val = |x: u8, s: bool| if s { i32::from(x as i8) } else { i32::from(x) };
        let mut want = Vec::new();
        for p in 0..2 {
            for i in 0..4 {
                for j in 0..8 {
                    let mut acc = c[p * 32 + i * 8 + j];
                    for k in 0..32 {
                        acc = acc.wrapping_add(
                            val(a[p * 128 + i * 32 + k], sa) * val(b[p * 256 + k * 8 + j], sb),
                        );
                    }
                    want.push(u64::from(acc as u32));
                }
            }
        }
        check(&lines[r].0, &got[r], &want);
    }
}

// ---------------------------------------------------------------- control flow

const CONTROL: &str = "cuda_tile.module @m {
  testing$func @f(%n: tile<i32>, %c: tile<i1>, %lb: tile<i32>, %st: tile<i32>) -> (tile<i32>, tile<f32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<f32>, tile<i32>) {
    %zero = constant <i32: 0> : tile<i32>
    %one = constant <i32: 1> : tile<i32>
    %three = constant <i32: 3> : tile<i32>
    // if with results and an else branch.
    %pick, %pf = if %c -> (tile<i32>, tile<f32>) {
      %x = constant <i32: 11> : tile<i32>
      %xf = constant <f32: 1.5> : tile<f32>
      yield %x, %xf : tile<i32>, tile<f32>
    } else {
      %y = constant <i32: 22> : tile<i32>
      %yf = constant <f32: -2.5> : tile<f32>
      yield %y, %yf : tile<i32>, tile<f32>
    }
    // if without else and without results.
    if %c {
      print \"then\\n\"
    }
    // for: the sum of the odd induction values in [lb, n) by st, skipping even ones with
    // a continue inside an if.
    %odd_sum = for %iv in (%lb to %n, step %st) : tile<i32> iter_values(%acc = %zero) -> (tile<i32>) {
      %bit = andi %iv, %one : tile<i32>
      %even = cmpi equal %bit, %zero, signed : tile<i32> -> tile<i1>
      if %even {
        continue %acc : tile<i32>
      }
      %next = addi %acc, %iv : tile<i32>
      continue %next : tile<i32>
    }
    // for: how many iterations; an if yielding inside.
    %count = for %j in (%lb to %n, step %st) : tile<i32> iter_values(%k = %zero) -> (tile<i32>) {
      %more = if %c -> (tile<i32>) {
        %k1 = addi %k, %one : tile<i32>
        yield %k1 : tile<i32>
      } else {
        %k2 = addi %k, %three : tile<i32>
        yield %k2 : tile<i32>
      }
      continue %more : tile<i32>
    }
    // loop with break: the Collatz steps from n down to 1.
    %last, %steps = loop iter_values(%v = %n, %s = %zero) : tile<i32>, tile<i32> -> tile<i32>, tile<i32> {
      %done = cmpi less_than_or_equal %v, %one, signed : tile<i32> -> tile<i1>
      if %done {
        break %v, %s : tile<i32>, tile<i32>
      }
      %s1 = addi %s, %one : tile<i32>
      %b = andi %v, %one : tile<i32>
      %odd = cmpi equal %b, %one, signed : tile<i32> -> tile<i1>
      %nv = if %odd -> (tile<i32>) {
        %t = muli %v, %three : tile<i32>
        %t1 = addi %t, %one : tile<i32>
        yield %t1 : tile<i32>
      } else {
        %h = shri %v, %one unsigned : tile<i32>
        yield %h : tile<i32>
      }
      continue %nv, %s1 : tile<i32>, tile<i32>
    }
    // loop whose result type differs from its carried value: break yields an f32.
    %half = loop iter_values(%w = %n) : tile<i32> -> tile<f32> {
      %small = cmpi less_than %w, %three, signed : tile<i32> -> tile<i1>
      if %small {
        %wf = itof %w signed : tile<i32> -> tile<f32>
        break %wf : tile<f32>
      }
      %w1 = subi %w, %three : tile<i32>
      continue %w1 : tile<i32>
    }
    // A loop without carried values that breaks at once.
    loop {
      break
    }
    // Nested: a for inside a loop, the loop broken after the for's second run.
    %outer = loop iter_values(%o = %zero, %r = %zero) : tile<i32>, tile<i32> -> tile<i32> {
      %two = constant <i32: 2> : tile<i32>
      %stop = cmpi equal %r, %two, signed : tile<i32> -> tile<i1>
      if %stop {
        break %o : tile<i32>
      }
      %inner = for %q in (%zero to %three, step %one) : tile<i32> iter_values(%z = %o) -> (tile<i32>) {
        %z1 = addi %z, %q : tile<i32>
        continue %z1 : tile<i32>
      }
      %r1 = addi %r, %one : tile<i32>
      continue %inner, %r1 : tile<i32>, tile<i32>
    }
    return %pick, %pf, %odd_sum, %count, %last, %steps, %half, %outer : tile<i32>, tile<f32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<f32>, tile<i32>
  }

  testing$func @early(%c: tile<i1>) -> tile<i32> {
    if %c {
      %a = constant <i32: 1> : tile<i32>
      return %a : tile<i32>
    }
    %b = constant <i32: 2> : tile<i32>
    return %b : tile<i32>
  }

  testing$func @ranges(%lb: tile<i32>, %ub: tile<i32>, %st: tile<i32>) -> (tile<i32>, tile<i32>) {
    %zero = constant <i32: 0> : tile<i32>
    %one = constant <i32: 1> : tile<i32>
    %s = for %i in (%lb to %ub, step %st) : tile<i32> iter_values(%k = %zero) -> (tile<i32>) {
      %k1 = addi %k, %one : tile<i32>
      continue %k1 : tile<i32>
    }
    %u = for unsigned %i in (%lb to %ub, step %st) : tile<i32> iter_values(%k = %zero) -> (tile<i32>) {
      %k1 = addi %k, %one : tile<i32>
      continue %k1 : tile<i32>
    }
    return %s, %u : tile<i32>, tile<i32>
  }
}";

fn control_flow(ran: &mut Ran) {
    let m = module(CONTROL);
    let collatz = |mut v: i32| {
        let mut s = 0;
        while v > 1 {
            v = if v % 2 == 1 { 3 * v + 1 } else { v / 2 };
            s += 1;
        }
        (v, s)
    };
    for (n, c, lb, st) in [
        (27, true, -7, 2),
        (10, false, 3, 3),
        (-4, true, 0, 1),
        (97, false, -100, 7),
    ] {
        let f = call(
            &m,
            func(&m, "f"),
            tiles(
                &m,
                func(&m, "f"),
                &[
                    vec![n as u32 as u64],
                    vec![u64::from(c)],
                    vec![lb as u32 as u64],
                    vec![st as u64],
                ],
            ),
            &mut Memory::default(),
        )
        .expect("runs");
        ran.extend(f.ops);
        let got: Vec<u64> = f.results.iter().map(|t| t.bits[0]).collect();
        let range: Vec<i32> = (lb..n).step_by(st as usize).collect();
        let odd: i32 = range.iter().filter(|i| *i % 2 != 0).sum();
        let count = range.len() as i32 * if c { 1 } else { 3 };
        let (last, steps) = collatz(n);
        let mut w = n;
        while w >= 3 {
            w -= 3;
        }
        let want = [
            if c { 11 } else { 22 } as u64,
            u64::from(if c { 1.5f32 } else { -2.5f32 }.to_bits()),
            odd as u32 as u64,
            count as u32 as u64,
            last as u32 as u64,
            steps as u32 as u64,
            u64::from((w as f32).to_bits()),
            6,
        ];
        check(
            &format!("control flow with n = {n}, c = {c}, [{lb}, {n}) by {st}"),
            &got,
            &want,
        );
        assert_eq!(f.printed, if c { "then\n" } else { "" });
    }
    for c in [true, false] {
        let got = call_bits(&m, "early", &[vec![u64::from(c)]], ran);
        check("an early return", &got[0], &[if c { 1 } else { 2 }]);
    }
    // Signed and unsigned bounds; an induction variable that would wrap ends the loop.
    for (lb, ub, st) in [
        (0i32, -16i32, 1 << 30),
        (-5, 3, 1),
        (i32::MAX - 5, i32::MAX, 4),
        (5, 5, 1),
        (-3, 2, 2),
    ] {
        let got = call_bits(
            &m,
            "ranges",
            &[
                vec![lb as u32 as u64],
                vec![ub as u32 as u64],
                vec![st as u32 as u64],
            ],
            ran,
        );
        let signed = (i64::from(lb)..i64::from(ub)).step_by(st as usize).count() as u64;
        let unsigned = (u64::from(lb as u32)..u64::from(ub as u32))
            .step_by(st as usize)
            .count() as u64;
        check(
            &format!("for over [{lb}, {ub}) by {st}"),
            &[got[0][0], got[1][0]],
            &[signed, unsigned],
        );
    }
}

// ---------------------------------------------------------------- assume, assert, print, tokens

const MISC: &str = "cuda_tile.module @m {
  testing$func @f(%x: tile<8xi32>, %p: tile<4xptr<f32>>, %ok: tile<4xi1>) -> (tile<8xi32>, tile<8xi32>, tile<8xi32>, tile<8xi32>, tile<8xi32>, tile<4xptr<f32>>) {
    %a = assume div_by<4>, %x : tile<8xi32>
    %b = assume div_by<16, every 4 along 0>, %x : tile<8xi32>
    %c = assume same_elements<[4]>, %x : tile<8xi32>
    %d = assume bounded<-8, 100>, %x : tile<8xi32>
    %e = assume bounded<?, 64>, %x : tile<8xi32>
    %q = assume div_by<16>, %p : tile<4xptr<f32>>
    assume %ok : tile<4xi1>
    assert %ok, \"all true\" : tile<4xi1>
    %t0 = make_token : token
    %t1 = make_token : token
    %t2 = join_tokens %t0, %t1 : token
    %t3 = barrier <block> token=%t2 : token
    %t4 = barrier <warp> : token
    %t5 = join_tokens %t3, %t4 : token
    return %a, %b, %c, %d, %e, %q : tile<8xi32>, tile<8xi32>, tile<8xi32>, tile<8xi32>, tile<8xi32>, tile<4xptr<f32>>
  }

  testing$func @show(%i: tile<i32>, %u: tile<i8>, %f: tile<f32>, %g: tile<f64>, %h: tile<f64>, %t: tile<2x2xi16>, %v: tile<2xf16>) {
    print \"d=%d i=%i u=%u x=%x X=%X o=%o |%5d|%-5d|%05d|%+d|\\n\", %i, %i, %u, %u, %u, %u, %i, %i, %i, %i : tile<i32>, tile<i32>, tile<i8>, tile<i8>, tile<i8>, tile<i8>, tile<i32>, tile<i32>, tile<i32>, tile<i32>
    %t0 = make_token : token
    %t1 = print \"f=%f .2f=%.2f e=%e E=%.3E g=%g %g %g %g pct=%% \", %f, %f, %f, %f, %f, %g, %h, %g token=%t0 : tile<f32>, tile<f32>, tile<f32>, tile<f32>, tile<f32>, tile<f64>, tile<f64>, tile<f64> -> token
    print \"t=%d v=%.3f\\n\", %t, %v : tile<2x2xi16>, tile<2xf16>
    return
  }
}";

fn assume_assert_print_tokens(ran: &mut Ran) {
    let m = module(MISC);
    // Multiples of 4; those at multiples of 4 along dimension 0 multiples of 16; all in
    // [-8, 64].
    let x: Vec<i32> = vec![16, 4, -8, 60, -0, 12, 20, 64];
    let xb: Vec<u64> = x.iter().map(|v| u64::from(*v as u32)).collect();
    let p: Vec<u64> = (0..4).map(|i| 0x1_0000_0000 + 48 * i).collect();
    let got = call_bits(&m, "f", &[xb.clone(), p.clone(), vec![1, 1, 1, 1]], ran);
    for r in &got[..5] {
        check("assume passes its value through", r, &xb);
    }
    check("assume on pointers", &got[5], &p);
    // print: C's printf conversions, tiles as nested lists.
    let f = func(&m, "show");
    let args = tiles(
        &m,
        f,
        &[
            vec![(-42i32) as u32 as u64],
            vec![0xff],
            vec![u64::from(1.23456f32.to_bits())],
            vec![999999.5f64.to_bits()],
            vec![0.0001f64.to_bits()],
            vec![1, 0xfffe, 3, 4],
            vec![
                float::round_from_f64(FloatKind::F16, 0.5),
                float::round_from_f64(FloatKind::F16, -1.25),
            ],
        ],
    );
    let c = call(&m, f, args, &mut Memory::default()).expect("prints");
    ran.extend(c.ops);
    assert_eq!(
        c.printed,
        "d=-42 i=-42 u=255 x=ff X=FF o=377 |  -42|-42  |-0042|-42|\n\
         f=1.234560 .2f=1.23 e=1.234560e+00 E=1.235E+00 g=1.23456 1e+06 0.0001 1e+06 pct=% \
         t=[[1, -2], [3, 4]] v=[0.500, -1.250]\n"
    );
}

// ---------------------------------------------------------------- memory

fn f32_mem(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn f32s_of(mem: &Memory, i: usize) -> Vec<f32> {
    mem.bytes(i)
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

const VIEWS: &str = "cuda_tile.module @m {
  testing$func @load(%src: tile<ptr<f32>>, %rows: tile<i32>, %cols: tile<i32>, %stride: tile<i32>, %bi: tile<i32>, %bj: tile<i32>) -> (tile<4x8xf32>, tile<4x8xf32>, tile<4x8xf32>, tile<4x8xf32>, tile<4x8xf32>, tile<4x8xf32>, tile<8x4xf32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>) {
    %tv = make_tensor_view %src, shape = [%rows, %cols], strides = [%stride, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %p0 = make_partition_view %tv : partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,1]>>
    %p1 = make_partition_view %tv : partition_view<tile=(4x8), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %p2 = make_partition_view %tv : partition_view<tile=(4x8), padding_value = neg_zero, tensor_view<?x?xf32, strides=[?,1]>>
    %p3 = make_partition_view %tv : partition_view<tile=(4x8), padding_value = nan, tensor_view<?x?xf32, strides=[?,1]>>
    %p4 = make_partition_view %tv : partition_view<tile=(4x8), padding_value = pos_inf, tensor_view<?x?xf32, strides=[?,1]>>
    %p5 = make_partition_view %tv : partition_view<tile=(4x8), padding_value = neg_inf, tensor_view<?x?xf32, strides=[?,1]>>
    %pt = make_partition_view %tv : partition_view<tile=(8x4), padding_value = neg_inf, tensor_view<?x?xf32, strides=[?,1]>, dim_map=[1, 0]>
    %tok = make_token : token
    %x0, %k0 = load_view_tko weak %p0[%bi, %bj] : partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<4x8xf32>, token
    %x1, %k1 = load_view_tko weak %p1[%bi, %bj] token = %tok : partition_view<tile=(4x8), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<4x8xf32>, token
    %x2, %k2 = load_view_tko relaxed device %p2[%bi, %bj] : partition_view<tile=(4x8), padding_value = neg_zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<4x8xf32>, token
    %x3, %k3 = load_view_tko acquire sys %p3[%bi, %bj] : partition_view<tile=(4x8), padding_value = nan, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<4x8xf32>, token
    %x4, %k4 = load_view_tko weak %p4[%bi, %bj] : partition_view<tile=(4x8), padding_value = pos_inf, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<4x8xf32>, token
    %x5, %k5 = load_view_tko weak %p5[%bi, %bj] : partition_view<tile=(4x8), padding_value = neg_inf, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<4x8xf32>, token
    %xt, %kt = load_view_tko weak %pt[%bj, %bi] : partition_view<tile=(8x4), padding_value = neg_inf, tensor_view<?x?xf32, strides=[?,1]>, dim_map=[1, 0]>, tile<i32> -> tile<8x4xf32>, token
    %s0, %s1 = get_tensor_shape %tv : tensor_view<?x?xf32, strides=[?,1]> -> tile<i32>
    %n0, %n1 = get_index_space_shape %p0 : partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
    %m0, %m1 = get_index_space_shape %pt : partition_view<tile=(8x4), padding_value = neg_inf, tensor_view<?x?xf32, strides=[?,1]>, dim_map=[1, 0]> -> tile<i32>
    return %x0, %x1, %x2, %x3, %x4, %x5, %xt, %s0, %s1, %n0, %n1, %m0, %m1 : tile<4x8xf32>, tile<4x8xf32>, tile<4x8xf32>, tile<4x8xf32>, tile<4x8xf32>, tile<4x8xf32>, tile<8x4xf32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>
  }

  testing$func @store(%dst: tile<ptr<f32>>, %rows: tile<i64>, %cols: tile<i64>, %stride: tile<i64>, %bi: tile<i64>, %bj: tile<i64>, %t: tile<4x8xf32>, %u: tile<8x4xf32>) {
    %tv = make_tensor_view %dst, shape = [%rows, %cols], strides = [%stride, 1] : tile<i64> -> tensor_view<?x?xf32, strides=[?,1]>
    %p = make_partition_view %tv : partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,1]>>
    %pt = make_partition_view %tv : partition_view<tile=(8x4), tensor_view<?x?xf32, strides=[?,1]>, dim_map=[1, 0]>
    %k0 = store_view_tko weak %t, %p[%bi, %bj] : tile<4x8xf32>, partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,1]>>, tile<i64> -> token
    %k1 = store_view_tko release device %u, %pt[%bj, %bi] token = %k0 : tile<8x4xf32>, partition_view<tile=(8x4), tensor_view<?x?xf32, strides=[?,1]>, dim_map=[1, 0]>, tile<i64> -> token
    return
  }

  testing$func @static(%src: tile<ptr<i16>>) -> tile<4x4xi16> {
    %tv0 = make_tensor_view %src, shape = [4, 4], strides = [1, 4] : tensor_view<4x4xi16, strides=[1,4]>
    %tv = assume div_by<16>, %tv0 : tensor_view<4x4xi16, strides=[1,4]>
    %p = make_partition_view %tv : partition_view<tile=(4x4), tensor_view<4x4xi16, strides=[1,4]>>
    %c0 = constant <i32: 0> : tile<i32>
    %x, %k = load_view_tko weak %p[%c0, %c0] : partition_view<tile=(4x4), tensor_view<4x4xi16, strides=[1,4]>>, tile<i32> -> tile<4x4xi16>, token
    return %x : tile<4x4xi16>
  }
}";

/// Tensor and partition views: dynamic shapes and strides, every padding value, a
/// transposing dim_map, loads and stores of edge tiles, shape queries.
fn views(ran: &mut Ran) {
    let m = module(VIEWS);
    let (rows, cols, stride) = (10usize, 13usize, 16usize);
    let data: Vec<f32> = (0..rows * stride).map(|i| i as f32 + 0.25).collect();
    let mut mem = Memory::default();
    let src = mem.add(f32_mem(&data));
    let base = mem.buffers[src].base;
    let elem = |r: usize, c: usize| -> Option<f32> {
        (r < rows && c < cols).then(|| data[r * stride + c])
    };
    for (bi, bj) in [(0usize, 0usize), (2, 1), (1, 1), (2, 0)] {
        let args = [
            base,
            rows as u64,
            cols as u64,
            stride as u64,
            bi as u64,
            bj as u64,
        ]
        .map(|x| vec![x]);
        let got = call_with(&m, "load", &args, &mut mem, ran);
        let pads = [
            0.0f32,
            0.0,
            -0.0,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ];
        for (k, pad) in pads.iter().enumerate() {
            let want: Vec<f32> = (0..32)
                .map(|i| elem(bi * 4 + i / 8, bj * 8 + i % 8).unwrap_or(*pad))
                .collect();
            check_floats(
                FloatKind::F32,
                &format!("load [{bi}, {bj}] padding {pad}"),
                &got[k],
                &f32_bits(&want),
                &|i| i.to_string(),
            );
        }
        // dim_map [1, 0]: tile dimension 0 runs along tensor dimension 1; the index is
        // (column tile, row tile).
        let want: Vec<f32> = (0..32)
            .map(|i| elem(bi * 4 + i % 4, bj * 8 + i / 4).unwrap_or(f32::NEG_INFINITY))
            .collect();
        check_floats(
            FloatKind::F32,
            "load through dim_map",
            &got[6],
            &f32_bits(&want),
            &|i| i.to_string(),
        );
        let shapes: Vec<u64> = got[7..].iter().map(|t| t[0]).collect();
        check(
            "get_tensor_shape, get_index_space_shape",
            &shapes,
            &[10, 13, 3, 2, 2, 3],
        );
    }
    // Stores: only the elements inside the tensor are written.
    let sentinel = -7.5f32;
    let dst = mem.add(f32_mem(&vec![sentinel; rows * stride]));
    let dbase = mem.buffers[dst].base;
    let t: Vec<f32> = (0..32).map(|i| 1000.0 + i as f32).collect();
    let u: Vec<f32> = (0..32).map(|i| 2000.0 + i as f32).collect();
    let mut want = vec![sentinel; rows * stride];
    for (bi, bj) in [(2usize, 1usize), (0, 0)] {
        let args = [
            vec![dbase],
            vec![rows as u64],
            vec![cols as u64],
            vec![stride as u64],
            vec![bi as u64],
            vec![bj as u64],
            f32_bits(&t),
            f32_bits(&u),
        ];
        call_with(&m, "store", &args, &mut mem, ran);
        for (i, x) in t.iter().enumerate() {
            let (r, c) = (bi * 4 + i / 8, bj * 8 + i % 8);
            if r < rows && c < cols {
                want[r * stride + c] = *x;
            }
        }
        // The transposed store at index (bj, bi): element (i, j) goes to row bi * 4 + j,
        // column bj * 8 + i.
        for (i, x) in u.iter().enumerate() {
            let (r, c) = (bi * 4 + i % 4, bj * 8 + i / 4);
            if r < rows && c < cols {
                want[r * stride + c] = *x;
            }
        }
        let got = f32s_of(&mem, dst);
        for (k, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(
                g.to_bits(),
                w.to_bits(),
                "stored element {k} after tile [{bi}, {bj}]"
            );
        }
    }
    // A static view with column-major strides.
    let v: Vec<u16> = (0..16).map(|i| 0x8000 | i).collect();
    let sp = mem.add(v.iter().flat_map(|x| x.to_le_bytes()).collect());
    let got = call_with(&m, "static", &[vec![mem.buffers[sp].base]], &mut mem, ran);
    let want: Vec<u64> = (0..16).map(|i| u64::from(v[(i % 4) * 4 + i / 4])).collect();
    check("a column-major static view", &got[0], &want);
}

const POINTERS: &str = "cuda_tile.module @m {
  testing$func @gather(%p: tile<8xptr<f32>>, %m: tile<8xi1>, %pad: tile<8xf32>, %b: tile<8xptr<i1>>, %s: tile<ptr<f32>>) -> (tile<8xf32>, tile<8xf32>, tile<8xf32>, tile<8xi1>, tile<f32>) {
    %t = make_token : token
    %v0, %k0 = load_ptr_tko weak %p : tile<8xptr<f32>> -> tile<8xf32>, token
    %v1, %k1 = load_ptr_tko relaxed device %p, %m token=%t : tile<8xptr<f32>>, tile<8xi1> -> tile<8xf32>, token
    %v2, %k2 = load_ptr_tko acquire tl_blk %p, %m, %pad : tile<8xptr<f32>>, tile<8xi1>, tile<8xf32> -> tile<8xf32>, token
    %v3, %k3 = load_ptr_tko weak %b : tile<8xptr<i1>> -> tile<8xi1>, token
    %v4, %k4 = load_ptr_tko weak %s : tile<ptr<f32>> -> tile<f32>, token
    return %v0, %v1, %v2, %v3, %v4 : tile<8xf32>, tile<8xf32>, tile<8xf32>, tile<8xi1>, tile<f32>
  }

  testing$func @scatter(%p: tile<8xptr<f32>>, %v: tile<8xf32>, %m: tile<8xi1>, %b: tile<8xptr<i1>>, %bv: tile<8xi1>, %h: tile<4xptr<f16>>, %hv: tile<4xf16>, %t: tile<4xptr<tf32>>, %tv: tile<4xtf32>) -> (tile<4xf16>, tile<4xtf32>) {
    %k0 = store_ptr_tko weak %p, %v, %m : tile<8xptr<f32>>, tile<8xf32>, tile<8xi1> -> token
    %k1 = store_ptr_tko relaxed sys %b, %bv token=%k0 : tile<8xptr<i1>>, tile<8xi1> -> token
    %k2 = store_ptr_tko release device %h, %hv : tile<4xptr<f16>>, tile<4xf16> -> token
    %k3 = store_ptr_tko weak %t, %tv : tile<4xptr<tf32>>, tile<4xtf32> -> token
    %h2, %k4 = load_ptr_tko weak %h token=%k2 : tile<4xptr<f16>> -> tile<4xf16>, token
    %t2, %k5 = load_ptr_tko weak %t token=%k3 : tile<4xptr<tf32>> -> tile<4xtf32>, token
    return %h2, %t2 : tile<4xf16>, tile<4xtf32>
  }
}";

/// load_ptr_tko and store_ptr_tko: gathers and scatters with masks and padding, i1 bytes
/// (any non-zero byte loads as 1), f16 and tf32 elements, duplicate addresses (the
/// elements run in row-major order, so the last store wins).
fn pointers(ran: &mut Ran) {
    let m = module(POINTERS);
    let mut mem = Memory::default();
    let data: Vec<f32> = (0..16).map(|i| i as f32 * 1.5 - 4.0).collect();
    let fb = mem.add(f32_mem(&data));
    let fbase = mem.buffers[fb].base;
    let bytes: Vec<u8> = vec![0, 1, 2, 0x80, 0xff, 0, 1, 0x10];
    let bb = mem.add(bytes.clone());
    let bbase = mem.buffers[bb].base;
    let idx: [u64; 8] = [3, 0, 15, 3, 7, 8, 1, 12];
    let p: Vec<u64> = idx.iter().map(|i| fbase + 4 * i).collect();
    let mask: Vec<u64> = vec![1, 0, 1, 1, 0, 0, 1, 1];
    let pad: Vec<f32> = (0..8).map(|i| -100.0 - i as f32).collect();
    let bp: Vec<u64> = (0..8).map(|i| bbase + 7 - i).collect();
    let got = call_with(
        &m,
        "gather",
        &[
            p.clone(),
            mask.clone(),
            f32_bits(&pad),
            bp.clone(),
            vec![fbase + 20],
        ],
        &mut mem,
        ran,
    );
    let gathered: Vec<f32> = idx.iter().map(|i| data[*i as usize]).collect();
    check("gather", &got[0], &f32_bits(&gathered));
    // Masked-off elements: zero without a padding operand (the interpreter's choice),
    // the padding with one.
    let masked: Vec<f32> = (0..8)
        .map(|i| if mask[i] == 1 { gathered[i] } else { 0.0 })
        .collect();
    check("masked gather", &got[1], &f32_bits(&masked));
    let padded: Vec<f32> = (0..8)
        .map(|i| if mask[i] == 1 { gathered[i] } else { pad[i] })
        .collect();
    check("masked gather with padding", &got[2], &f32_bits(&padded));
    let bools: Vec<u64> = (0..8).map(|i| u64::from(bytes[7 - i] != 0)).collect();
    check("i1 loads: a non-zero byte is 1", &got[3], &bools);
    check("a rank-0 load", &got[4], &f32_bits(&[data[5]]));
    // Scatter, with a duplicate address (elements 0 and 3 both go to index 3).
    let v: Vec<f32> = (0..8).map(|i| 50.0 + i as f32).collect();
    let bv: Vec<u64> = vec![1, 0, 1, 1, 0, 0, 1, 0];
    let hb = mem.add(vec![0; 8]);
    let tb = mem.add(vec![0; 16]);
    let hv: Vec<u64> = [0.5, -65504.0, 1.0e-7, 3.0]
        .iter()
        .map(|x| float::round_from_f64(FloatKind::F16, *x))
        .collect();
    let tv: Vec<u64> = [1.0f32, -2.5, 3.0e-39, 1.0 + 1.0 / 1024.0]
        .iter()
        .map(|x| float::round_from_f64(FloatKind::TF32, f64::from(*x)))
        .collect();
    let h: Vec<u64> = (0..4).map(|i| mem.buffers[hb].base + 2 * i).collect();
    let t: Vec<u64> = (0..4).map(|i| mem.buffers[tb].base + 4 * i).collect();
    let got = call_with(
        &m,
        "scatter",
        &[
            p.clone(),
            f32_bits(&v),
            mask.clone(),
            bp.clone(),
            bv.clone(),
            h,
            hv.clone(),
            t,
            tv.clone(),
        ],
        &mut mem,
        ran,
    );
    let mut want = data.clone();
    for i in 0..8 {
        if mask[i] == 1 {
            want[idx[i] as usize] = v[i];
        }
    }
    check("scatter", &f32_bits(&f32s_of(&mem, fb)), &f32_bits(&want));
    let stored: Vec<u8> = (0..8).map(|j| bv[7 - j] as u8).collect();
    assert_eq!(mem.bytes(bb), stored, "i1 stores: one byte, 0 or 1");
    let hm: Vec<u64> = mem
        .bytes(hb)
        .chunks(2)
        .map(|c| u64::from(u16::from_le_bytes([c[0], c[1]])))
        .collect();
    check("f16 stores", &hm, &hv);
    check("f16 loads", &got[0], &hv);
    // A tf32 is stored as the f32 of the same value (its low 13 bits zero).
    let tm: Vec<u64> = mem
        .bytes(tb)
        .chunks(4)
        .map(|c| u64::from(u32::from_le_bytes(c.try_into().unwrap())))
        .collect();
    let tf: Vec<u64> = tv
        .iter()
        .map(|b| u64::from((float::to_f64(FloatKind::TF32, *b) as f32).to_bits()))
        .collect();
    check("tf32 stores", &tm, &tf);
    check("tf32 loads", &got[1], &tv);
}

/// An atomic update: (old, operand) -> new.
type Update = fn(i32, i32) -> i32;

const ATOMICS: &[(&str, Update)] = &[
    ("and", |o, v| o & v),
    ("or", |o, v| o | v),
    ("xor", |o, v| o ^ v),
    ("add", |o, v| o.wrapping_add(v)),
    ("max", |o, v| o.max(v)),
    ("min", |o, v| o.min(v)),
    ("umax", |o, v| (o as u32).max(v as u32) as i32),
    ("umin", |o, v| (o as u32).min(v as u32) as i32),
    ("xchg", |_, v| v),
];

/// Every atomic read-modify-write mode, compare-and-swap, atomic loads and stores, with
/// masks and repeated addresses: the elements run one after another in row-major order
/// and each returns the value it replaced.
fn atomics(ran: &mut Ran) {
    let t8 = "tile<8xi32>";
    let p8 = "tile<8xptr<i32>>";
    let mut params = String::new();
    let mut body = String::new();
    let mut rets = Vec::new();
    for (k, (mode, _)) in ATOMICS.iter().enumerate() {
        params += &format!("%p{k}: {p8}, ");
        body += &format!(
            "    %o{k}, %t{k} = atomic_rmw_tko relaxed device %p{k}, {mode}, %v, %m : {p8}, {t8}, tile<8xi1> -> {t8}, token\n"
        );
        rets.push((format!("%o{k}"), t8));
    }
    body += "    %of, %tf = atomic_rmw_tko acq_rel sys %f, addf, %fv : tile<8xptr<f32>>, tile<8xf32> -> tile<8xf32>, token\n";
    body += &format!(
        "    %oc, %tc = atomic_cas_tko acq_rel device %q, %c, %v, %m : {p8}, {t8}, tile<8xi1> -> {t8}, token\n"
    );
    body += "    %ol, %tl = atomic_rmw_tko relaxed tl_blk %l, umax, %lv : tile<4xptr<i64>>, tile<4xi64> -> tile<4xi64>, token\n";
    body += &format!(
        "    %ld, %tld = atomic_load_tko acquire device %q, %m token=%tc : {p8}, tile<8xi1> -> {t8}, token\n"
    );
    body += "    %ld2, %tld2 = atomic_load_tko relaxed sys %l token=%tl : tile<4xptr<i64>> -> tile<4xi64>, token\n";
    body += &format!(
        "    %st = atomic_store_tko release sys %s, %v, %m : {p8}, {t8}, tile<8xi1> -> token\n"
    );
    body += "    %st2 = atomic_store_tko relaxed device %l, %lv token=%tld2 : tile<4xptr<i64>>, tile<4xi64> -> token\n";
    rets.extend([
        ("%of".to_string(), "tile<8xf32>"),
        ("%oc".to_string(), t8),
        ("%ol".to_string(), "tile<4xi64>"),
        ("%ld".to_string(), t8),
        ("%ld2".to_string(), "tile<4xi64>"),
    ]);
    let names: Vec<&str> = rets.iter().map(|(n, _)| n.as_str()).collect();
    let types: Vec<&str> = rets.iter().map(|(_, t)| *t).collect();
    let src = format!(
        "cuda_tile.module @m {{\n  testing$func @f({params}%v: {t8}, %m: tile<8xi1>, %f: tile<8xptr<f32>>, %fv: tile<8xf32>, %q: {p8}, %c: {t8}, %l: tile<4xptr<i64>>, %lv: tile<4xi64>, %s: {p8}) -> ({}) {{\n{body}    return {} : {}\n  }}\n}}\n",
        types.join(", "),
        names.join(", "),
        types.join(", ")
    );
    let m = module(&src);
    let mut mem = Memory::default();
    let words = |v: &[i32]| -> Vec<u8> { v.iter().flat_map(|x| x.to_le_bytes()).collect() };
    let init: Vec<i32> = vec![0x0f0f_0f0f, -5, 7, i32::MAX, i32::MIN, 0, -1, 123456];
    let ib: Vec<usize> = ATOMICS.iter().map(|_| mem.add(words(&init))).collect();
    let finit: Vec<f32> = vec![1.0, -0.0, 1.0e30, 0.1];
    let fb = mem.add(f32_mem(&finit));
    let qb = mem.add(words(&init));
    let sb = mem.add(words(&init));
    let linit: Vec<i64> = vec![-1, 5, i64::MAX, 0];
    let lb = mem.add(linit.iter().flat_map(|x| x.to_le_bytes()).collect());
    // Element i works on word slot[i]: words 0 and 3 are hit twice.
    let slot: [usize; 8] = [0, 3, 1, 0, 5, 3, 7, 6];
    let v: Vec<i32> = vec![0x00ff_00ff, 9, -3, 1, i32::MAX, -1, 0x5555_5555, -7];
    let mask: Vec<u64> = vec![1, 1, 1, 1, 0, 1, 1, 1];
    let fslot: [usize; 8] = [0, 1, 2, 3, 0, 0, 2, 1];
    let fv: Vec<f32> = vec![0.5, 0.0, -1.0e30, 0.2, 1.0e-8, -1.5, 7.0, -0.0];
    // Compare-and-swap: element i expects c[i] (elements 0 and 3 both on word 0: the
    // first succeeds, the second then sees the new value).
    let c: Vec<i32> = vec![0x0f0f_0f0f, -5, 7, 0x00ff_00ff, 0, 9, -1, 99];
    let lslot: [usize; 4] = [0, 1, 1, 3];
    let lv: Vec<i64> = vec![3, -2, 9, i64::MIN];
    let ptrs = |b: usize, size: u64, s: &[usize]| -> Vec<u64> {
        s.iter()
            .map(|i| mem.buffers[b].base + size * *i as u64)
            .collect()
    };
    let ints = |v: &[i32]| -> Vec<u64> { v.iter().map(|x| u64::from(*x as u32)).collect() };
    let mut args: Vec<Vec<u64>> = ib.iter().map(|b| ptrs(*b, 4, &slot)).collect();
    args.extend([
        ints(&v),
        mask.clone(),
        ptrs(fb, 4, &fslot),
        f32_bits(&fv),
        ptrs(qb, 4, &slot),
        ints(&c),
        ptrs(lb, 8, &lslot),
        lv.iter().map(|x| *x as u64).collect(),
        ptrs(sb, 4, &slot),
    ]);
    let got = call_with(&m, "f", &args, &mut mem, ran);
    let i32s = |b: usize| -> Vec<i32> {
        mem.bytes(b)
            .chunks(4)
            .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    let on = |i: usize| mask[i] == 1;
    for (k, (mode, f)) in ATOMICS.iter().enumerate() {
        let mut words = init.clone();
        for i in 0..8 {
            if !on(i) {
                continue;
            }
            let old = words[slot[i]];
            words[slot[i]] = f(old, v[i]);
            assert_eq!(
                got[k][i],
                u64::from(old as u32),
                "atomic {mode}: the old value of element {i}"
            );
        }
        assert_eq!(i32s(ib[k]), words, "atomic {mode}: memory");
    }
    let n = ATOMICS.len();
    let mut fw = finit.clone();
    for i in 0..8 {
        let old = fw[fslot[i]];
        fw[fslot[i]] = old + fv[i];
        assert_eq!(
            got[n][i],
            u64::from(old.to_bits()),
            "atomic addf: element {i}"
        );
    }
    check(
        "atomic addf: memory",
        &f32_bits(&f32s_of(&mem, fb)),
        &f32_bits(&fw),
    );
    let mut qw = init.clone();
    for i in 0..8 {
        if on(i) {
            let old = qw[slot[i]];
            if old == c[i] {
                qw[slot[i]] = v[i];
            }
            assert_eq!(got[n + 1][i], u64::from(old as u32), "cas: element {i}");
        }
    }
    assert_eq!(i32s(qb), qw, "cas: memory");
    let mut lw = linit.clone();
    for i in 0..4 {
        let old = lw[lslot[i]];
        lw[lslot[i]] = (old as u64).max(lv[i] as u64) as i64;
        assert_eq!(got[n + 2][i], old as u64, "atomic umax i64: element {i}");
    }
    // The atomic loads see memory after the CAS and the umax.
    for i in 0..8 {
        if on(i) {
            assert_eq!(
                got[n + 3][i],
                u64::from(qw[slot[i]] as u32),
                "atomic load: element {i}"
            );
        }
    }
    let want: Vec<u64> = lslot.iter().map(|s| lw[*s] as u64).collect();
    check("atomic load i64", &got[n + 4], &want);
    // The atomic stores: in row-major order (word 0 gets element 3's value), masked.
    let mut sw = init.clone();
    for i in 0..8 {
        if on(i) {
            sw[slot[i]] = v[i];
        }
    }
    assert_eq!(i32s(sb), sw, "atomic store i32");
    for i in 0..4 {
        lw[lslot[i]] = lv[i];
    }
    let lm: Vec<i64> = mem
        .bytes(lb)
        .chunks(8)
        .map(|c| i64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(lm, lw, "atomic store i64");
}

const GRID: &str = "cuda_tile.module @m {
  global @table dense<[10, 20, 30, 40]> : tile<4xi32>
  global @count alignment = 64 dense<0> : tile<2xi64>
  entry @k(%out: tile<ptr<i32>>) {
    %x, %y, %z = get_tile_block_id : tile<i32>
    %nx, %ny, %nz = get_num_tile_blocks : tile<i32>
    // linear = x + nx * (y + ny * z)
    %yz = muli %ny, %z : tile<i32>
    %y1 = addi %y, %yz : tile<i32>
    %xy = muli %nx, %y1 : tile<i32>
    %lin = addi %x, %xy : tile<i32>
    %eight = constant <i32: 8> : tile<i32>
    %at = muli %lin, %eight : tile<i32>
    %row = offset %out, %at : tile<ptr<i32>>, tile<i32> -> tile<ptr<i32>>
    %rows = reshape %row : tile<ptr<i32>> -> tile<1xptr<i32>>
    %ptrs = broadcast %rows : tile<1xptr<i32>> -> tile<8xptr<i32>>
    %iota = iota : tile<8xi32>
    %slots = offset %ptrs, %iota : tile<8xptr<i32>>, tile<8xi32> -> tile<8xptr<i32>>
    // The row: x, y, z, nx, ny, nz, table[linear % 4], linear.
    %four = constant <i32: 4> : tile<i32>
    %ti = remi %lin, %four unsigned : tile<i32>
    %tab = get_global @table : tile<ptr<i32>>
    %tp = offset %tab, %ti : tile<ptr<i32>>, tile<i32> -> tile<ptr<i32>>
    %tv, %tt = load_ptr_tko weak %tp : tile<ptr<i32>> -> tile<i32>, token
    %v0 = reshape %x : tile<i32> -> tile<1xi32>
    %v1 = reshape %y : tile<i32> -> tile<1xi32>
    %v2 = reshape %z : tile<i32> -> tile<1xi32>
    %v3 = reshape %nx : tile<i32> -> tile<1xi32>
    %v4 = reshape %ny : tile<i32> -> tile<1xi32>
    %v5 = reshape %nz : tile<i32> -> tile<1xi32>
    %v6 = reshape %tv : tile<i32> -> tile<1xi32>
    %v7 = reshape %lin : tile<i32> -> tile<1xi32>
    %w0 = cat %v0, %v1 dim = 0 : tile<1xi32>, tile<1xi32> -> tile<2xi32>
    %w1 = cat %v2, %v3 dim = 0 : tile<1xi32>, tile<1xi32> -> tile<2xi32>
    %w2 = cat %v4, %v5 dim = 0 : tile<1xi32>, tile<1xi32> -> tile<2xi32>
    %w3 = cat %v6, %v7 dim = 0 : tile<1xi32>, tile<1xi32> -> tile<2xi32>
    %u0 = cat %w0, %w1 dim = 0 : tile<2xi32>, tile<2xi32> -> tile<4xi32>
    %u1 = cat %w2, %w3 dim = 0 : tile<2xi32>, tile<2xi32> -> tile<4xi32>
    %all = cat %u0, %u1 dim = 0 : tile<4xi32>, tile<4xi32> -> tile<8xi32>
    %st = store_ptr_tko weak %slots, %all : tile<8xptr<i32>>, tile<8xi32> -> token
    // Count the blocks and sum their numbers in the second global.
    %cnt = get_global @count : tile<ptr<i64>>
    %one = constant <i64: 1> : tile<i64>
    %c1 = offset %cnt, %one : tile<ptr<i64>>, tile<i64> -> tile<ptr<i64>>
    %lin64 = exti %lin signed : tile<i32> -> tile<i64>
    %o0, %a0 = atomic_rmw_tko relaxed device %cnt, add, %one : tile<ptr<i64>>, tile<i64> -> tile<i64>, token
    %o1, %a1 = atomic_rmw_tko relaxed device %c1, add, %lin64 : tile<ptr<i64>>, tile<i64> -> tile<i64>, token
    return
  }
}";

/// get_tile_block_id, get_num_tile_blocks, global and get_global, over a 3-D grid, in the
/// deterministic and the parallel mode.
fn grid_and_globals(ran: &mut Ran) {
    let m = module(GRID);
    let grid = [3u32, 2, 4];
    let n = (grid[0] * grid[1] * grid[2]) as usize;
    let mut mem = Memory::default();
    let out = mem.add(vec![0xee; n * 32]);
    let k = func(&m, "k");
    let mut par = mem.clone();
    let o = run(&m, k, grid, &[Arg::Buffer(out)], &mut mem).expect("runs");
    ran.extend(o.ops);
    let opts = tilec_interp::Options {
        parallel: true,
        threads: 3,
        ..Default::default()
    };
    tilec_interp::run_with(&m, k, grid, &[Arg::Buffer(out)], &mut par, &opts)
        .expect("runs in parallel");
    // The globals follow the argument buffers, in module order.
    assert_eq!(mem.buffers.len(), 3);
    for b in 0..3 {
        assert_eq!(mem.bytes(b), par.bytes(b), "buffer {b} differs in parallel");
    }
    let got: Vec<i32> = mem
        .bytes(out)
        .chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let mut want = Vec::new();
    for z in 0..grid[2] as i32 {
        for y in 0..grid[1] as i32 {
            for x in 0..grid[0] as i32 {
                let lin = x + 3 * (y + 2 * z);
                want.extend([x, y, z, 3, 2, 4, [10, 20, 30, 40][lin as usize % 4], lin]);
            }
        }
    }
    assert_eq!(got, want, "block ids, grid size and the global table");
    let count: Vec<i64> = mem
        .bytes(2)
        .chunks(8)
        .map(|c| i64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(
        count,
        [n as i64, (n * (n - 1) / 2) as i64],
        "the counting global"
    );
    let table: Vec<i32> = mem
        .bytes(1)
        .chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(table, [10, 20, 30, 40], "the table global is unchanged");
}

/// The tests: one per group of kernels, and the coverage test running them all.
macro_rules! groups {
    ($($name:ident),* $(,)?) => {
        mod each {
            $(
                #[test]
                fn $name() {
                    super::$name(&mut super::Ran::new());
                }
            )*
        }
        const GROUPS: &[(&str, fn(&mut Ran))] = &[$((stringify!($name), $name)),*];
    };
}

groups!(
    integers_i8,
    integers_i16,
    integers_i32,
    integers_i64,
    integers_i1,
    integer_widths_and_flags,
    float_arithmetic_f32,
    float_arithmetic_other_types,
    math_functions,
    conversions,
    narrow_conversions,
    shapes,
    reduce_and_scan,
    matrix_products,
    control_flow,
    assume_assert_print_tokens,
    views,
    pointers,
    atomics,
    grid_and_globals,
    pack_and_unpack,
    scaled_mma,
    alloca,
    views_13_3,
    atomic_reductions_through_views,
);

/// `pack`/`unpack` (13.3): the elements as a little-endian bit stream, compared with the
/// bytes Rust's `to_le_bytes` gives and with bit and nibble orders written out here.
fn pack_and_unpack(ran: &mut Ran) {
    let src = "cuda_tile.module @m {
  testing$func @f(%h: tile<4xf16>, %w: tile<2xi32>, %b: tile<16xi1>, %y: tile<8xi8>) -> (tile<8xi8>, tile<8xi8>, tile<2xi8>, tile<16xf4E2M1FN>, tile<4xf16>, tile<64xi1>, tile<16xi4>) {
    %0 = pack %h : tile<4xf16> -> tile<8xi8>
    %1 = pack %w : tile<2xi32> -> tile<8xi8>
    %2 = pack %b : tile<16xi1> -> tile<2xi8>
    %3 = unpack %y : tile<8xi8> -> tile<16xf4E2M1FN>
    %4 = unpack %y : tile<8xi8> -> tile<4xf16>
    %5 = unpack %y : tile<8xi8> -> tile<64xi1>
    %6 = unpack %y : tile<8xi8> -> tile<16xi4>
    return %0, %1, %2, %3, %4, %5, %6 : tile<8xi8>, tile<8xi8>, tile<2xi8>, tile<16xf4E2M1FN>, tile<4xf16>, tile<64xi1>, tile<16xi4>
  }
}
";
    let m = module(src);
    let h: [u16; 4] = [0x3C00, 0xC000, 0x3800, 0x7E00];
    let w: [u32; 2] = [0x1234_5678, 0x9ABC_DEF0];
    let b: Vec<u64> = (0..16).map(|i| u64::from((0xA5C3u32 >> i) & 1)).collect();
    let y: Vec<u8> = vec![0x00, 0x3C, 0x21, 0xF7, 0x80, 0x7F, 0x5A, 0xE1];
    let got = call_bits(
        &m,
        "f",
        &[
            h.iter().map(|&x| u64::from(x)).collect(),
            w.iter().map(|&x| u64::from(x)).collect(),
            b.clone(),
            y.iter().map(|&x| u64::from(x)).collect(),
        ],
        ran,
    );
    let bytes = |v: Vec<u8>| -> Vec<u64> { v.into_iter().map(u64::from).collect() };
    let hb: Vec<u8> = h.iter().flat_map(|x| x.to_le_bytes()).collect();
    check("pack f16", &got[0], &bytes(hb));
    let wb: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
    check("pack i32", &got[1], &bytes(wb));
    check("pack i1 (bit i of byte i/8)", &got[2], &[0xC3, 0xA5]);
    // Element 2k is the low nibble of byte k.
    let nibbles: Vec<u64> = y
        .iter()
        .flat_map(|&x| [u64::from(x & 0xF), u64::from(x >> 4)])
        .collect();
    check("unpack f4E2M1FN", &got[3], &nibbles);
    check("unpack i4", &got[6], &nibbles);
    let halves: Vec<u64> = y
        .chunks(2)
        .map(|c| u64::from(u16::from_le_bytes([c[0], c[1]])))
        .collect();
    check("unpack f16", &got[4], &halves);
    let bits: Vec<u64> = y
        .iter()
        .flat_map(|&x| (0..8).map(move |i| u64::from((x >> i) & 1)))
        .collect();
    check("unpack i1", &got[5], &bits);
}

/// `mmaf_scaled` (13.3): MXFP8 (f8E4M3FN with f8E8M0FNU scales, blocks of 32) and NVFP4
/// (f4E2M1FN with f8E4M3FN scales, blocks of 16), against sums computed here from the
/// values the bit patterns stand for (all products and these sums are exact in f64).
fn scaled_mma(ran: &mut Ran) {
    use tilec_ir::float::{FloatKind, round_from_f64};
    let src = "cuda_tile.module @m {
  testing$func @mx(%a: tile<2x64xf8E4M3FN>, %b: tile<64x4xf8E4M3FN>, %c: tile<2x4xf32>, %sa: tile<2x2xf8E8M0FNU>, %sb: tile<2x4xf8E8M0FNU>) -> tile<2x4xf32> {
    %0 = mmaf_scaled %a, %b, %c, %sa, %sb : tile<2x64xf8E4M3FN>, tile<64x4xf8E4M3FN>, tile<2x4xf32>, tile<2x2xf8E8M0FNU>, tile<2x4xf8E8M0FNU>
    return %0 : tile<2x4xf32>
  }
  testing$func @nv(%a: tile<2x32xf4E2M1FN>, %b: tile<32x2xf4E2M1FN>, %c: tile<2x2xf32>, %sa: tile<2x2xf8E4M3FN>, %sb: tile<2x2xf8E4M3FN>) -> tile<2x2xf32> {
    %0 = mmaf_scaled %a, %b, %c, %sa, %sb : tile<2x32xf4E2M1FN>, tile<32x2xf4E2M1FN>, tile<2x2xf32>, tile<2x2xf8E4M3FN>, tile<2x2xf8E4M3FN>
    return %0 : tile<2x2xf32>
  }
}
";
    let m = module(src);
    // Values each format holds exactly.
    let f8 = [0.5, -1.0, 1.5, 2.0, -0.25, 3.0, 448.0, -0.125];
    let f4 = [0.5, -1.0, 1.5, 2.0, -3.0, 4.0, 6.0, -0.5];
    let e8m0 = [1.0, 0.5, 4.0, 2f64.powi(-20), 2f64.powi(20), 0.25];
    let nvs = [1.0, 0.5, 3.0, 0.875];
    // (value, bits) tiles filled cyclically from a value list, stepping by `stride`.
    let fill = |vals: &[f64], k: FloatKind, n: usize, stride: usize| -> (Vec<f64>, Vec<u64>) {
        let v: Vec<f64> = (0..n).map(|i| vals[(i * stride) % vals.len()]).collect();
        let b = v.iter().map(|&x| round_from_f64(k, x)).collect();
        (v, b)
    };
    #[allow(clippy::too_many_arguments)]
    fn reference(
        a: &[f64],
        b: &[f64],
        c: &[f64],
        sa: &[f64],
        sb: &[f64],
        (mm, nn, kk, blocks): (usize, usize, usize, usize),
    ) -> Vec<u64> {
        let v = kk / blocks;
        let mut out = Vec::new();
        for i in 0..mm {
            for j in 0..nn {
                let mut s = c[i * nn + j];
                for k in 0..kk {
                    s += a[i * kk + k]
                        * sa[i * blocks + k / v]
                        * b[k * nn + j]
                        * sb[(k / v) * nn + j];
                }
                out.push(u64::from((s as f32).to_bits()));
            }
        }
        out
    }
    let (a, ab) = fill(&f8, FloatKind::F8E4M3FN, 2 * 64, 3);
    let (b, bb) = fill(&f8, FloatKind::F8E4M3FN, 64 * 4, 5);
    let (c, cb) = fill(&[1.0, -2.5, 0.0], FloatKind::F32, 8, 1);
    let (sa, sab) = fill(&e8m0, FloatKind::F8E8M0FNU, 4, 1);
    let (sb, sbb) = fill(&e8m0, FloatKind::F8E8M0FNU, 8, 5);
    let got = call_bits(&m, "mx", &[ab, bb, cb, sab, sbb], ran);
    check(
        "mmaf_scaled MXFP8",
        &got[0],
        &reference(&a, &b, &c, &sa, &sb, (2, 4, 64, 2)),
    );
    let (a, ab) = fill(&f4, FloatKind::F4E2M1FN, 2 * 32, 3);
    let (b, bb) = fill(&f4, FloatKind::F4E2M1FN, 32 * 2, 5);
    let (c, cb) = fill(&[0.25, 7.0], FloatKind::F32, 4, 1);
    let (sa, sab) = fill(&nvs, FloatKind::F8E4M3FN, 4, 1);
    let (sb, sbb) = fill(&nvs, FloatKind::F8E4M3FN, 4, 3);
    let got = call_bits(&m, "nv", &[ab, bb, cb, sab, sbb], ran);
    check(
        "mmaf_scaled NVFP4",
        &got[0],
        &reference(&a, &b, &c, &sa, &sb, (2, 2, 32, 2)),
    );
}

/// `alloca` (13.3): a block-private buffer that a loop writes and reads back (each
/// iteration's allocation reuses the op's buffer), and an allocation over the
/// interpreter's limit refused with a message.
fn alloca(ran: &mut Ran) {
    let src = "cuda_tile.module @m {
  testing$func @f(%x: tile<4xi32>) -> tile<4xi32> {
    %lo = constant <i32: 0> : tile<i32>
    %hi = constant <i32: 3> : tile<i32>
    %one = constant <i32: 1> : tile<i32>
    %init = constant <i32: 0> : tile<4xi32>
    %i = iota : tile<4xi32>
    %r = for %k in (%lo to %hi, step %one) : tile<i32> iter_values(%acc = %init) -> (tile<4xi32>) {
      %p = alloca num_elem = 4, alignment = 16 : tile<ptr<i32>>
      %p1 = reshape %p : tile<ptr<i32>> -> tile<1xptr<i32>>
      %pb = broadcast %p1 : tile<1xptr<i32>> -> tile<4xptr<i32>>
      %q = offset %pb, %i : tile<4xptr<i32>>, tile<4xi32> -> tile<4xptr<i32>>
      %k1 = reshape %k : tile<i32> -> tile<1xi32>
      %kb = broadcast %k1 : tile<1xi32> -> tile<4xi32>
      %v = muli %x, %kb : tile<4xi32>
      %t = store_ptr_tko weak %q, %v : tile<4xptr<i32>>, tile<4xi32> -> token
      %w, %t2 = load_ptr_tko weak %q token = %t : tile<4xptr<i32>> -> tile<4xi32>, token
      %s = addi %acc, %w : tile<4xi32>
      continue %s : tile<4xi32>
    }
    return %r : tile<4xi32>
  }
  testing$func @big() {
    %p = alloca num_elem = 4611686018427387904, alignment = 8 : tile<ptr<i64>>
    return
  }
}
";
    let m = module(src);
    let x = [5u64, 7, 11, 13];
    let got = call_bits(&m, "f", &[x.to_vec()], ran);
    // sum over k = 0, 1, 2 of x * k = 3x.
    let want: Vec<u64> = x.iter().map(|v| v * 3).collect();
    check("alloca store/load", &got[0], &want);
    let e = try_call(&m, "big", &[], &mut Memory::default()).expect_err("refused");
    assert!(
        e.message.contains("exceeds the interpreter's limit"),
        "{}",
        e.message
    );
}

fn i32_mem(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn i32s_of(mem: &Memory, i: usize) -> Vec<i32> {
    mem.bytes(i)
        .chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

const VIEWS_13_3: &str = "cuda_tile.module @m {
  testing$func @load(%src: tile<ptr<f32>>, %rows: tile<4xi32>) -> (tile<4x4xf32>, tile<2x4xf32>, tile<4x4xf32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>) {
    %tv = make_tensor_view %src, shape = [6, 8], strides = [8, 1] : tensor_view<6x8xf32, strides=[8,1]>
    %s = make_strided_view %tv : strided_view<tile=(4x4), traversal_strides=[2,3], padding_value = nan, tensor_view<6x8xf32, strides=[8,1]>>
    %st = make_strided_view %tv : strided_view<tile=(2x4), traversal_strides=[3,1], tensor_view<6x8xf32, strides=[8,1]>, dim_map=[1, 0]>
    %g = make_gather_scatter_view %tv : gather_scatter_view<tile=(4x4), padding_value = zero, tensor_view<6x8xf32, strides=[8,1]>, sparse_dim=0>
    %c1 = constant <i32: 1> : tile<i32>
    %c2 = constant <i32: 2> : tile<i32>
    %x0, %k0 = load_view_tko weak %s[%c2, %c2] : strided_view<tile=(4x4), traversal_strides=[2,3], padding_value = nan, tensor_view<6x8xf32, strides=[8,1]>>, tile<i32> -> tile<4x4xf32>, token
    %x1, %k1 = load_view_tko weak %st[%c1, %c2] : strided_view<tile=(2x4), traversal_strides=[3,1], tensor_view<6x8xf32, strides=[8,1]>, dim_map=[1, 0]>, tile<i32> -> tile<2x4xf32>, token
    %x2, %k2 = load_view_tko relaxed device %g[%rows, %c1] : gather_scatter_view<tile=(4x4), padding_value = zero, tensor_view<6x8xf32, strides=[8,1]>, sparse_dim=0>, tile<4xi32>, tile<i32> -> tile<4x4xf32>, token
    %n0, %n1 = get_index_space_shape %s : strided_view<tile=(4x4), traversal_strides=[2,3], padding_value = nan, tensor_view<6x8xf32, strides=[8,1]>> -> tile<i32>
    %m0, %m1 = get_index_space_shape %st : strided_view<tile=(2x4), traversal_strides=[3,1], tensor_view<6x8xf32, strides=[8,1]>, dim_map=[1, 0]> -> tile<i32>
    %g0, %g1 = get_index_space_shape %g : gather_scatter_view<tile=(4x4), padding_value = zero, tensor_view<6x8xf32, strides=[8,1]>, sparse_dim=0> -> tile<i32>
    return %x0, %x1, %x2, %n0, %n1, %m0, %m1, %g0, %g1 : tile<4x4xf32>, tile<2x4xf32>, tile<4x4xf32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>
  }

  testing$func @store(%dst: tile<ptr<f32>>, %scatter: tile<ptr<f32>>, %rows: tile<4xi64>, %a: tile<4x4xf32>, %b: tile<4x4xf32>) {
    %tv = make_tensor_view %dst, shape = [6, 8], strides = [8, 1] : tensor_view<6x8xf32, strides=[8,1]>
    %s = make_strided_view %tv : strided_view<tile=(4x4), traversal_strides=[2,3], tensor_view<6x8xf32, strides=[8,1]>>
    %c0 = constant <i64: 0> : tile<i64>
    %c1 = constant <i64: 1> : tile<i64>
    %c2 = constant <i64: 2> : tile<i64>
    %k0 = store_view_tko weak %a, %s[%c0, %c0] : tile<4x4xf32>, strides_placeholder
    %k1 = store_view_tko weak %b, %s[%c0, %c1] token = %k0 : tile<4x4xf32>, strides_placeholder
    %k2 = store_view_tko weak %a, %s[%c2, %c2] token = %k1 : tile<4x4xf32>, strides_placeholder
    %tg = make_tensor_view %scatter, shape = [6, 8], strides = [8, 1] : tensor_view<6x8xf32, strides=[8,1]>
    %g = make_gather_scatter_view %tg : gather_scatter_view<tile=(4x4), tensor_view<6x8xf32, strides=[8,1]>, sparse_dim=0>
    %k3 = store_view_tko weak %b, %g[%rows, %c1] : tile<4x4xf32>, gather_scatter_view<tile=(4x4), tensor_view<6x8xf32, strides=[8,1]>, sparse_dim=0>, tile<4xi64>, tile<i64> -> token
    return
  }
}";

/// 13.3's strided and gather/scatter views: loads with padding, a transposing dim_map,
/// overlapping strided tiles, stores masking out-of-bounds elements, gathered and
/// scattered rows (one out of bounds), index spaces with partial tiles.
fn views_13_3(ran: &mut Ran) {
    let src = VIEWS_13_3.replace(
        "strides_placeholder",
        "strided_view<tile=(4x4), traversal_strides=[2,3], tensor_view<6x8xf32, strides=[8,1]>>, tile<i64> -> token",
    );
    let m = module(&src);
    let (rows, cols) = (6usize, 8usize);
    let data: Vec<f32> = (0..rows * cols).map(|i| i as f32 + 0.5).collect();
    let d = |r: i64, c: i64| -> Option<f32> {
        (r >= 0 && (r as usize) < rows && c >= 0 && (c as usize) < cols)
            .then(|| data[r as usize * cols + c as usize])
    };
    let mut mem = Memory::default();
    let src_buf = mem.add(f32_mem(&data));
    let base = mem.buffers[src_buf].base;
    let gather_rows: [i32; 4] = [5, 0, 7, 2];
    let got = call_with(
        &m,
        "load",
        &[
            vec![base],
            gather_rows.iter().map(|&r| r as u32 as u64).collect(),
        ],
        &mut mem,
        ran,
    );
    let f = |bits: &[u64]| -> Vec<f32> { bits.iter().map(|b| f32::from_bits(*b as u32)).collect() };
    // Strided tile (2, 2): rows 4..8, columns 6..10; rows 6, 7 and columns 8, 9 are padding.
    let x0 = f(&got[0]);
    for a in 0..4 {
        for b in 0..4 {
            let got = x0[a * 4 + b];
            match d(4 + a as i64, 6 + b as i64) {
                Some(w) => assert_eq!(got, w, "strided load ({a}, {b})"),
                None => assert!(got.is_nan(), "strided padding ({a}, {b}) is {got}"),
            }
        }
    }
    // dim_map=[1, 0]: tile dimension 0 runs along the columns from 1*3, dimension 1 along
    // the rows from 2*1; neighbouring tiles overlap (traversal 1 < tile 4).
    let want1: Vec<f32> = (0..2)
        .flat_map(|a| (0..4).map(move |b| (a, b)))
        .map(|(a, b)| d(2 + b, 3 + a).unwrap())
        .collect();
    assert_eq!(f(&got[1]), want1, "strided load with dim_map");
    // Gathered rows 5, 0, 7 (outside: zero padding), 2; columns 1..5: the dense index of
    // a gather/scatter view is an element offset, not a tile index.
    let want2: Vec<f32> = gather_rows
        .iter()
        .flat_map(|&r| (0..4).map(move |b| d(r as i64, 1 + b).unwrap_or(0.0)))
        .collect();
    assert_eq!(f(&got[2]), want2, "gather load");
    // Index spaces: ceil(6/2) x ceil(8/3); ceil(8/3) x ceil(6/1); 6 rows x 8 columns (a
    // gather/scatter view is indexed by elements).
    let shapes: Vec<u64> = got[3..].iter().map(|t| t[0]).collect();
    assert_eq!(shapes, [3, 3, 3, 6, 6, 8], "index space shapes");

    let mut mem = Memory::default();
    let dst = mem.add(vec![0u8; rows * cols * 4]);
    let scatter = mem.add(vec![0u8; rows * cols * 4]);
    let (dst_base, scatter_base) = (mem.buffers[dst].base, mem.buffers[scatter].base);
    let a: Vec<f32> = (0..16).map(|i| 100.0 + i as f32).collect();
    let b: Vec<f32> = (0..16).map(|i| 200.0 + i as f32).collect();
    let scatter_rows: [i64; 4] = [1, 3, -1, 4];
    let bits = |v: &[f32]| -> Vec<u64> { v.iter().map(|x| x.to_bits() as u64).collect() };
    call_with(
        &m,
        "store",
        &[
            vec![dst_base],
            vec![scatter_base],
            scatter_rows.iter().map(|&r| r as u64).collect(),
            bits(&a),
            bits(&b),
        ],
        &mut mem,
        ran,
    );
    // Tile (0, 0) covers rows 0..4, columns 0..4; tile (0, 1), stored after it, columns
    // 3..7 (column 3 is overwritten); tile (2, 2) rows 4..8, columns 6..10, masked
    // outside the tensor.
    let mut want = vec![0.0f32; rows * cols];
    let mut put = |t: &[f32], r0: usize, c0: usize| {
        for i in 0..4 {
            for j in 0..4 {
                if r0 + i < rows && c0 + j < cols {
                    want[(r0 + i) * cols + c0 + j] = t[i * 4 + j];
                }
            }
        }
    };
    put(&a, 0, 0);
    put(&b, 0, 3);
    put(&a, 4, 6);
    assert_eq!(f32s_of(&mem, dst), want, "strided stores");
    // Rows 1, 3, (outside: masked), 4 of columns 1..5.
    let mut want = vec![0.0f32; rows * cols];
    for (i, &r) in scatter_rows.iter().enumerate() {
        if r >= 0 {
            for j in 0..4 {
                want[r as usize * cols + 1 + j] = b[i * 4 + j];
            }
        }
    }
    assert_eq!(f32s_of(&mem, scatter), want, "scatter store");
}

/// `atomic_red_view_tko` (13.3): every integer mode on the tiles of a partition view,
/// `addf`, and overlapping tiles of a strided view, with the out-of-bounds elements of a
/// partial tile masked.
fn atomic_reductions_through_views(ran: &mut Ran) {
    let pv = "partition_view<tile=(2x2), tensor_view<4x4xi32, strides=[4,1]>>";
    let modes = ["add", "and", "or", "xor", "max", "min", "umax", "umin"];
    let mut body = String::new();
    body += "    %tv0 = make_tensor_view %p0, shape = [4, 4], strides = [4, 1] : tensor_view<4x4xi32, strides=[4,1]>\n";
    body += "    %tv1 = make_tensor_view %p1, shape = [4, 4], strides = [4, 1] : tensor_view<4x4xi32, strides=[4,1]>\n";
    body += &format!("    %v0 = make_partition_view %tv0 : {pv}\n");
    body += &format!("    %v1 = make_partition_view %tv1 : {pv}\n");
    body += "    %c0 = constant <i32: 0> : tile<i32>\n    %c1 = constant <i32: 1> : tile<i32>\n    %c2 = constant <i32: 2> : tile<i32>\n";
    for (k, mode) in modes.iter().enumerate() {
        let (i, j) = ((k / 2) % 2, k % 2);
        let v = if k < 4 { 0 } else { 1 };
        body += &format!(
            "    %t{k} = atomic_red_view_tko relaxed device %v{v}[%c{i}, %c{j}], {mode}, %x : tile<2x2xi32>, {pv}, tile<i32> -> token\n"
        );
    }
    body += "    %tf = make_tensor_view %pf, shape = [2, 4], strides = [4, 1] : tensor_view<2x4xf32, strides=[4,1]>\n";
    body += "    %vf = make_partition_view %tf : partition_view<tile=(2x2), tensor_view<2x4xf32, strides=[4,1]>>\n";
    body += "    %kf = atomic_red_view_tko relaxed tl_blk %vf[%c0, %c1], addf, %y : tile<2x2xf32>, partition_view<tile=(2x2), tensor_view<2x4xf32, strides=[4,1]>>, tile<i32> -> token\n";
    let sv =
        "strided_view<tile=(2x2), traversal_strides=[1,1], tensor_view<3x3xi32, strides=[3,1]>>";
    body += "    %ts = make_tensor_view %ps, shape = [3, 3], strides = [3, 1] : tensor_view<3x3xi32, strides=[3,1]>\n";
    body += &format!("    %vs = make_strided_view %ts : {sv}\n");
    body += "    %one = constant <i32: 1> : tile<2x2xi32>\n";
    let mut tok = String::new();
    for (i, j) in [(0, 0), (0, 1), (1, 0), (1, 1), (2, 2)] {
        body += &format!(
            "    %s{i}{j} = atomic_red_view_tko relaxed device %vs[%c{i}, %c{j}], add, %one{tok} : tile<2x2xi32>, {sv}, tile<i32> -> token\n"
        );
        tok = format!(" token = %s{i}{j}");
    }
    let src = format!(
        "cuda_tile.module @m {{\n  testing$func @red(%p0: tile<ptr<i32>>, %p1: tile<ptr<i32>>, %pf: tile<ptr<f32>>, %ps: tile<ptr<i32>>, %x: tile<2x2xi32>, %y: tile<2x2xf32>) {{\n{body}    return\n  }}\n}}\n"
    );
    let m = module(&src);
    let init: Vec<i32> = (0..16).map(|i| i * 7 - 50).collect();
    let x: [i32; 4] = [5, -3, 0x0F0F, -1];
    let finit: Vec<f32> = (0..8).map(|i| i as f32 * 0.5).collect();
    let y: [f32; 4] = [1.5, 2.25, -1.0, 0.5];
    let mut mem = Memory::default();
    let b0 = mem.add(i32_mem(&init));
    let b1 = mem.add(i32_mem(&init));
    let bf = mem.add(f32_mem(&finit));
    let bs = mem.add(vec![0u8; 36]);
    let base = |i: usize| mem.buffers[i].base;
    let args = [
        vec![base(b0)],
        vec![base(b1)],
        vec![base(bf)],
        vec![base(bs)],
        x.iter().map(|&v| v as u32 as u64).collect(),
        y.iter().map(|&v| v.to_bits() as u64).collect(),
    ];
    call_with(&m, "red", &args, &mut mem, ran);
    let apply = |mode: &str, old: i32, x: i32| -> i32 {
        match mode {
            "add" => old.wrapping_add(x),
            "and" => old & x,
            "or" => old | x,
            "xor" => old ^ x,
            "max" => old.max(x),
            "min" => old.min(x),
            "umax" => (old as u32).max(x as u32) as i32,
            "umin" => (old as u32).min(x as u32) as i32,
            _ => unreachable!(),
        }
    };
    let mut want = [init.clone(), init.clone()];
    for (k, mode) in modes.iter().enumerate() {
        let (i, j) = ((k / 2) % 2, k % 2);
        let w = &mut want[k / 4];
        for a in 0..2 {
            for b in 0..2 {
                let e = (2 * i + a) * 4 + 2 * j + b;
                w[e] = apply(mode, w[e], x[a * 2 + b]);
            }
        }
    }
    assert_eq!(i32s_of(&mem, b0), want[0], "add, and, or, xor");
    assert_eq!(i32s_of(&mem, b1), want[1], "max, min, umax, umin");
    let mut fwant = finit.clone();
    for a in 0..2 {
        for b in 0..2 {
            fwant[a * 4 + 2 + b] += y[a * 2 + b];
        }
    }
    assert_eq!(f32s_of(&mem, bf), fwant, "addf");
    // Tiles at (0,0), (0,1), (1,0), (1,1) overlap in the middle; tile (2,2) has one
    // element inside the tensor.
    assert_eq!(
        i32s_of(&mem, bs),
        [1, 2, 1, 2, 4, 2, 1, 2, 2],
        "overlapping strided reductions"
    );
}

/// Ops of the table that no kernel executes, and why.
const NOT_EXECUTED: &[(Opcode, &str)] = &[
    // Definitions: the interpreter enters them (a function is what `call` and `run`
    // start), but they are not ops that run inside a tile block.
    (Opcode::Module, "the compilation unit"),
    (Opcode::Entry, "a kernel definition (run enters its body)"),
    (
        Opcode::TestingFunc,
        "a test function definition (call enters its body)",
    ),
    // Not ops of tile IR programs: a placeholder inside the compiler, and ops of other
    // dialects kept as written. The interpreter refuses both (see the error tests).
    (
        Opcode::UnrealizedConversionCast,
        "a compiler-internal placeholder",
    ),
    (Opcode::Unregistered, "an op of another dialect"),
    // NVIDIA's bytecode-versioning test ops: no behaviour (refused, see the error tests).
    (
        Opcode::TestingBytecodeNewAttribute,
        "a bytecode-versioning test op",
    ),
    (
        Opcode::TestingBytecodeEvolution,
        "a bytecode-versioning test op",
    ),
];

#[test]
fn every_op_of_the_spec_is_executed() {
    let mut ran = Ran::new();
    for (name, group) in GROUPS {
        let mut r = Ran::new();
        group(&mut r);
        assert!(!r.is_empty(), "group {name} ran nothing");
        ran.extend(r);
    }
    // A `global` is a definition too; it is covered when `get_global` reads it.
    if ran.contains(&Opcode::GetGlobal) {
        ran.insert(Opcode::Global);
    }
    let excepted: BTreeSet<Opcode> = NOT_EXECUTED.iter().map(|(o, _)| *o).collect();
    let mut missing = Vec::new();
    let mut covered = 0;
    for d in tilec_ir::ops::all() {
        if d.family == tilec_ir::ops::Family::Gpu || excepted.contains(&d.opcode) {
            continue;
        }
        if ran.contains(&d.opcode) {
            covered += 1;
        } else {
            missing.push(d.name);
        }
    }
    assert!(
        missing.is_empty(),
        "ops of the spec no test executes: {}",
        missing.join(", ")
    );
    // The exceptions must really be unexecuted (and GPU-level ops never run).
    for o in &ran {
        assert!(
            !excepted.contains(o),
            "{o:?} is listed as not executed but ran"
        );
    }
    assert!(covered > 100, "only {covered} ops covered");
}

// ---------------------------------------------------------------- undefined behaviour

const UB: &str = "cuda_tile.module @m {
  testing$func @divi(%a: tile<4xi32>, %b: tile<4xi32>) -> tile<4xi32> {
    %q = divi %a, %b signed : tile<4xi32>
    return %q : tile<4xi32>
  }
  testing$func @remi(%a: tile<4xi32>, %b: tile<4xi32>) -> tile<4xi32> {
    %q = remi %a, %b unsigned : tile<4xi32>
    return %q : tile<4xi32>
  }
  testing$func @addi_nsw(%a: tile<4xi8>, %b: tile<4xi8>) -> tile<4xi8> {
    %s = addi %a, %b overflow<no_signed_wrap> : tile<4xi8>
    return %s : tile<4xi8>
  }
  testing$func @subi_nuw(%a: tile<4xi16>, %b: tile<4xi16>) -> tile<4xi16> {
    %s = subi %a, %b overflow<no_unsigned_wrap> : tile<4xi16>
    return %s : tile<4xi16>
  }
  testing$func @muli_nuw(%a: tile<4xi64>, %b: tile<4xi64>) -> tile<4xi64> {
    %s = muli %a, %b overflow<no_unsigned_wrap> : tile<4xi64>
    return %s : tile<4xi64>
  }
  testing$func @muli_nsw(%a: tile<4xi64>, %b: tile<4xi64>) -> tile<4xi64> {
    %s = muli %a, %b overflow<no_signed_wrap> : tile<4xi64>
    return %s : tile<4xi64>
  }
  testing$func @shli_nw(%a: tile<4xi32>, %b: tile<4xi32>) -> tile<4xi32> {
    %s = shli %a, %b overflow<no_wrap> : tile<4xi32>
    return %s : tile<4xi32>
  }
  testing$func @trunci_nsw(%a: tile<4xi32>) -> tile<4xi8> {
    %s = trunci %a overflow<no_signed_wrap> : tile<4xi32> -> tile<4xi8>
    return %s : tile<4xi8>
  }
  testing$func @trunci_nuw(%a: tile<4xi32>) -> tile<4xi8> {
    %s = trunci %a overflow<no_unsigned_wrap> : tile<4xi32> -> tile<4xi8>
    return %s : tile<4xi8>
  }
  testing$func @shli(%a: tile<4xi32>, %b: tile<4xi32>) -> tile<4xi32> {
    %s = shli %a, %b : tile<4xi32>
    return %s : tile<4xi32>
  }
  testing$func @shri(%a: tile<4xi16>, %b: tile<4xi16>) -> tile<4xi16> {
    %s = shri %a, %b signed : tile<4xi16>
    return %s : tile<4xi16>
  }
  testing$func @div_by(%a: tile<4xi32>) -> tile<4xi32> {
    %s = assume div_by<8>, %a : tile<4xi32>
    return %s : tile<4xi32>
  }
  testing$func @div_by_every(%a: tile<4x4xi32>) -> tile<4x4xi32> {
    %s = assume div_by<8, every 2 along 1>, %a : tile<4x4xi32>
    return %s : tile<4x4xi32>
  }
  testing$func @bounded(%a: tile<4xi32>) -> tile<4xi32> {
    %s = assume bounded<-3, 5>, %a : tile<4xi32>
    return %s : tile<4xi32>
  }
  testing$func @condition(%c: tile<4xi1>) {
    assume %c : tile<4xi1>
    return
  }
  testing$func @assert(%c: tile<4xi1>) {
    print \"before\\n\"
    assert %c, \"the condition\" : tile<4xi1>
    return
  }
  testing$func @extract(%a: tile<8xi32>, %i: tile<i32>) -> tile<2xi32> {
    %e = extract %a[%i] : tile<8xi32> -> tile<2xi32>
    return %e : tile<2xi32>
  }
  testing$func @load(%p: tile<4xptr<f32>>) -> tile<4xf32> {
    %v, %t = load_ptr_tko weak %p : tile<4xptr<f32>> -> tile<4xf32>, token
    return %v : tile<4xf32>
  }
  testing$func @masked(%p: tile<4xptr<f32>>, %m: tile<4xi1>) -> tile<4xf32> {
    %v, %t = load_ptr_tko weak %p, %m : tile<4xptr<f32>>, tile<4xi1> -> tile<4xf32>, token
    %k = store_ptr_tko weak %p, %v, %m token=%t : tile<4xptr<f32>>, tile<4xf32>, tile<4xi1> -> token
    return %v : tile<4xf32>
  }
  testing$func @store(%p: tile<4xptr<i16>>, %v: tile<4xi16>) {
    %t = store_ptr_tko weak %p, %v : tile<4xptr<i16>>, tile<4xi16> -> token
    return
  }
  testing$func @rmw(%p: tile<4xptr<i32>>, %v: tile<4xi32>) -> tile<4xi32> {
    %o, %t = atomic_rmw_tko relaxed device %p, add, %v : tile<4xptr<i32>>, tile<4xi32> -> tile<4xi32>, token
    return %o : tile<4xi32>
  }
  testing$func @view_at(%p: tile<ptr<f32>>, %n: tile<i32>, %i: tile<i32>) -> tile<8xf32> {
    %tv = make_tensor_view %p, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(8), tensor_view<?xf32, strides=[1]>>
    %v, %t = load_view_tko weak %pv[%i] : partition_view<tile=(8), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<8xf32>, token
    return %v : tile<8xf32>
  }
  testing$func @ftoi(%x: tile<4xf32>) -> tile<4xi32> {
    %r = ftoi %x signed : tile<4xf32> -> tile<4xi32>
    return %r : tile<4xi32>
  }
  testing$func @view(%p: tile<ptr<f32>>, %n: tile<i32>) -> tile<8xf32> {
    %tv = make_tensor_view %p, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(8), tensor_view<?xf32, strides=[1]>>
    %c0 = constant <i32: 0> : tile<i32>
    %v, %t = load_view_tko weak %pv[%c0] : partition_view<tile=(8), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<8xf32>, token
    return %v : tile<8xf32>
  }
  testing$func @for(%s: tile<i32>) -> tile<i32> {
    %z = constant <i32: 0> : tile<i32>
    %n = constant <i32: 4> : tile<i32>
    %r = for %i in (%z to %n, step %s) : tile<i32> iter_values(%a = %z) -> (tile<i32>) {
      %b = addi %a, %i : tile<i32>
      continue %b : tile<i32>
    }
    return %r : tile<i32>
  }
}";

/// Runs `name` of `m` with `args`: the result of the call.
fn try_call(
    m: &Module,
    name: &str,
    args: &[Vec<u64>],
    mem: &mut Memory,
) -> Result<Vec<Vec<u64>>, RunError> {
    let f = func(m, name);
    call(m, f, tiles(m, f, args), mem).map(|c| c.results.into_iter().map(|t| t.bits).collect())
}

/// `name` with `args` must stop at an op of kind `op` with a message containing `text`.
fn ub(
    m: &Module,
    name: &str,
    args: &[Vec<u64>],
    mem: &mut Memory,
    op: Opcode,
    text: &str,
) -> RunError {
    let e = match try_call(m, name, args, mem) {
        Ok(r) => {
            panic!("@{name} with {args:x?} ran (giving {r:x?}) instead of failing with '{text}'")
        }
        Err(e) => e,
    };
    assert!(
        e.message.contains(text),
        "@{name}: the message '{}' does not contain '{text}'",
        e.message
    );
    let at = e.op.map(|o| m.opcode(o));
    assert_eq!(at, Some(op), "@{name}: the error names {at:?}");
    assert_eq!(e.block, [0, 0, 0]);
    e
}

fn ints32(v: &[i32]) -> Vec<u64> {
    v.iter().map(|x| u64::from(*x as u32)).collect()
}

#[test]
fn undefined_behaviour_is_reported_at_the_op() {
    let m = module(UB);
    let mut mem = Memory::default();
    let mem = &mut mem;
    // Each function runs with good inputs, and fails with bad ones.
    let ok =
        |r: Result<Vec<Vec<u64>>, RunError>| r.unwrap_or_else(|e| panic!("fails: {}", e.message));
    let (a, b) = (ints32(&[7, -7, i32::MIN, 9]), ints32(&[2, 2, 1, -3]));
    check(
        "divi",
        &ok(try_call(&m, "divi", &[a.clone(), b], mem))[0],
        &ints32(&[3, -3, i32::MIN, -3]),
    );
    ub(
        &m,
        "divi",
        &[a.clone(), ints32(&[1, 0, 1, 1])],
        mem,
        Opcode::DivI,
        "integer division by zero in 'divi'",
    );
    ub(
        &m,
        "divi",
        &[a.clone(), ints32(&[1, 1, -1, 1])],
        mem,
        Opcode::DivI,
        "signed division overflows i32",
    );
    ub(
        &m,
        "remi",
        &[a.clone(), ints32(&[1, 1, 1, 0])],
        mem,
        Opcode::RemI,
        "integer division by zero in 'remi'",
    );
    let i8s = |v: &[i8]| -> Vec<u64> { v.iter().map(|x| u64::from(*x as u8)).collect() };
    ok(try_call(
        &m,
        "addi_nsw",
        &[i8s(&[100, -100, 127, 0]), i8s(&[27, -28, 0, -128])],
        mem,
    ));
    ub(
        &m,
        "addi_nsw",
        &[i8s(&[100, 0, 0, 0]), i8s(&[28, 0, 0, 0])],
        mem,
        Opcode::AddI,
        "overflows as signed",
    );
    ub(
        &m,
        "subi_nuw",
        &[vec![5, 3, 0, 0], vec![5, 4, 0, 0]],
        mem,
        Opcode::SubI,
        "overflows as unsigned",
    );
    // An i64 product whose unsigned value passes even i128's range.
    let big = vec![u64::MAX, u64::MAX, 1 << 32, 3];
    ok(try_call(
        &m,
        "muli_nuw",
        &[vec![1, 0, 1 << 31, 5], vec![u64::MAX, u64::MAX, 1 << 32, 7]],
        mem,
    ));
    ub(
        &m,
        "muli_nuw",
        &[big.clone(), big.clone()],
        mem,
        Opcode::MulI,
        "overflows as unsigned",
    );
    ok(try_call(
        &m,
        "muli_nsw",
        &[vec![u64::MAX; 4], vec![u64::MAX; 4]],
        mem,
    ));
    ub(
        &m,
        "muli_nsw",
        &[vec![1 << 62, 0, 0, 0], vec![2, 0, 0, 0]],
        mem,
        Opcode::MulI,
        "overflows as signed",
    );
    ok(try_call(
        &m,
        "shli_nw",
        &[ints32(&[1, 3, 0, -1]), ints32(&[30, 29, 31, 0])],
        mem,
    ));
    ub(
        &m,
        "shli_nw",
        &[ints32(&[1, 3, 0, 0]), ints32(&[31, 1, 0, 0])],
        mem,
        Opcode::ShLI,
        "overflows as signed",
    );
    ok(try_call(
        &m,
        "trunci_nsw",
        &[ints32(&[-128, 127, -1, 0])],
        mem,
    ));
    ub(
        &m,
        "trunci_nsw",
        &[ints32(&[128, 0, 0, 0])],
        mem,
        Opcode::TruncI,
        "no_signed_wrap",
    );
    ok(try_call(
        &m,
        "trunci_nuw",
        &[ints32(&[255, 0, 1, 128])],
        mem,
    ));
    ub(
        &m,
        "trunci_nuw",
        &[ints32(&[-1, 0, 0, 0])],
        mem,
        Opcode::TruncI,
        "no_unsigned_wrap",
    );
    ub(
        &m,
        "shli",
        &[ints32(&[1, 1, 1, 1]), ints32(&[0, 31, 32, 1])],
        mem,
        Opcode::ShLI,
        "shift amount 32 is not less than the width 32",
    );
    ub(
        &m,
        "shri",
        &[vec![1; 4], vec![0, 15, 0xffff, 0]],
        mem,
        Opcode::ShRI,
        "shift amount 65535 is not less than the width 16",
    );
    ok(try_call(&m, "div_by", &[ints32(&[8, -16, 0, 64])], mem));
    ub(
        &m,
        "div_by",
        &[ints32(&[8, -16, 4, 64])],
        mem,
        Opcode::Assume,
        "'assume div_by<8>' is violated: 4 is not a multiple of 8",
    );
    // Only the columns that are multiples of 2 are constrained.
    let grid: Vec<i32> = (0..16)
        .map(|i| if i % 2 == 0 { 8 * i } else { i })
        .collect();
    ok(try_call(&m, "div_by_every", &[ints32(&grid)], mem));
    let mut bad = grid.clone();
    bad[6] = 3;
    ub(
        &m,
        "div_by_every",
        &[ints32(&bad)],
        mem,
        Opcode::Assume,
        "3 is not a multiple of 8",
    );
    ok(try_call(&m, "bounded", &[ints32(&[-3, 5, 0, 1])], mem));
    ub(
        &m,
        "bounded",
        &[ints32(&[-3, 6, 0, 1])],
        mem,
        Opcode::Assume,
        "'assume bounded<-3, 5>' is violated by 6",
    );
    ub(
        &m,
        "bounded",
        &[ints32(&[-4, 0, 0, 1])],
        mem,
        Opcode::Assume,
        "violated by -4",
    );
    ok(try_call(&m, "condition", &[vec![1; 4]], mem));
    ub(
        &m,
        "condition",
        &[vec![1, 1, 0, 1]],
        mem,
        Opcode::Assume,
        "'assume' condition is false (element 2)",
    );
    ok(try_call(&m, "assert", &[vec![1; 4]], mem));
    let e = ub(
        &m,
        "assert",
        &[vec![1, 0, 1, 1]],
        mem,
        Opcode::Assert,
        "assertion failed: the condition",
    );
    assert_eq!(
        e.printed, "before\n",
        "text printed before the failure is kept"
    );
    let v: Vec<u64> = (0..8).collect();
    check(
        "extract",
        &ok(try_call(&m, "extract", &[v.clone(), vec![3]], mem))[0],
        &[6, 7],
    );
    ub(
        &m,
        "extract",
        &[v.clone(), vec![4]],
        mem,
        Opcode::Extract,
        "'extract' index 4 along dimension 0 is out of bounds",
    );
    ub(
        &m,
        "extract",
        &[v, ints32(&[-1])],
        mem,
        Opcode::Extract,
        "index -1",
    );
    let fb = mem.add(vec![0; 16]);
    let base = mem.buffers[fb].base;
    ok(try_call(
        &m,
        "load",
        &[vec![base, base + 4, base + 8, base + 12]],
        mem,
    ));
    ub(
        &m,
        "load",
        &[vec![base, base + 4, base + 16, base]],
        mem,
        Opcode::LoadPtrTko,
        "past the end of a 16-byte buffer",
    );
    ub(
        &m,
        "load",
        &[vec![base, base - 4, base, base]],
        mem,
        Opcode::LoadPtrTko,
        "outside every buffer",
    );
    ub(
        &m,
        "load",
        &[vec![base, base + 6, base, base]],
        mem,
        Opcode::LoadPtrTko,
        "misaligned access of 4 bytes",
    );
    // Masked-off elements are not accessed: their addresses may be anything.
    let wild = vec![base + 12, 0, base + 3, base + 64];
    ok(try_call(
        &m,
        "masked",
        &[wild.clone(), vec![1, 0, 0, 0]],
        mem,
    ));
    ub(
        &m,
        "masked",
        &[wild, vec![1, 0, 1, 0]],
        mem,
        Opcode::LoadPtrTko,
        "misaligned",
    );
    ub(
        &m,
        "store",
        &[vec![base, base + 16, base, base], vec![0; 4]],
        mem,
        Opcode::StorePtrTko,
        "past the end",
    );
    ub(
        &m,
        "store",
        &[vec![base + 1, base, base, base], vec![0; 4]],
        mem,
        Opcode::StorePtrTko,
        "misaligned access of 2 bytes",
    );
    ub(
        &m,
        "rmw",
        &[vec![base, 0, base, base], vec![1; 4]],
        mem,
        Opcode::AtomicRmwTko,
        "outside every buffer",
    );
    ub(
        &m,
        "rmw",
        &[vec![base + 2, base, base, base], vec![1; 4]],
        mem,
        Opcode::AtomicRmwTko,
        "misaligned",
    );
    // A view whose shape runs past its buffer: the elements inside the view are read.
    ok(try_call(&m, "view", &[vec![base], vec![4]], mem));
    ub(
        &m,
        "view",
        &[vec![base], vec![5]],
        mem,
        Opcode::LoadViewTko,
        "past the end",
    );
    // Tile indices of a partition view lie in its index space, ceil(4 / 8) = 1 tile here:
    // the ragged tile 0 reads padding past the tensor; tile 1, or -1, is out of bounds.
    let row = ok(try_call(
        &m,
        "view_at",
        &[vec![base], vec![4], vec![0]],
        mem,
    ));
    assert_eq!(&row[0][4..], &[0; 4], "padding past the tensor");
    for i in [1u64, u64::from(u32::MAX)] {
        ub(
            &m,
            "view_at",
            &[vec![base], vec![4], vec![i]],
            mem,
            Opcode::LoadViewTko,
            "is outside the view's index space (1): an out-of-bounds view access",
        );
    }
    // ftoi: the spec makes infinite inputs undefined behaviour (NaN converts to 0).
    let big = |v: f32| u64::from(v.to_bits());
    check(
        "ftoi",
        &ok(try_call(
            &m,
            "ftoi",
            &[vec![big(1.5), big(f32::NAN), big(-3e9), big(3e9)]],
            mem,
        ))[0],
        &ints32(&[1, 0, i32::MIN, i32::MAX]),
    );
    ub(
        &m,
        "ftoi",
        &[vec![big(1.0), big(2.0), big(f32::NEG_INFINITY), big(0.0)]],
        mem,
        Opcode::FToI,
        "'ftoi' of an infinite value (element 2) is undefined behavior",
    );
    check("for", &ok(try_call(&m, "for", &[vec![1]], mem))[0], &[6]);
    ub(
        &m,
        "for",
        &[vec![0]],
        mem,
        Opcode::For,
        "'for' step 0 is not positive",
    );
    ub(
        &m,
        "for",
        &[ints32(&[-2])],
        mem,
        Opcode::For,
        "'for' step -2 is not positive",
    );
}

/// In a grid, the error names the first failing tile block in grid order, and keeps what
/// earlier blocks printed, in both modes.
#[test]
fn the_first_failing_block_is_reported() {
    let m = module(
        "cuda_tile.module @m {
  entry @k(%n: tile<i32>) {
    %x, %y, %z = get_tile_block_id : tile<i32>
    print \"block %d %d\\n\", %x, %y : tile<i32>, tile<i32>
    %q = divi %n, %y signed : tile<i32>
    return
  }
}",
    );
    let k = func(&m, "k");
    for parallel in [false, true] {
        let opts = tilec_interp::Options {
            parallel,
            threads: 2,
            ..Default::default()
        };
        let e = tilec_interp::run_with(
            &m,
            k,
            [2, 3, 1],
            &[Arg::Scalar(5)],
            &mut Memory::default(),
            &opts,
        )
        .expect_err("block (0, 0, 0) divides by zero");
        assert_eq!(e.block, [0, 0, 0]);
        assert_eq!(e.printed, "block 0 0\n");
        assert_eq!(e.op.map(|o| m.opcode(o)), Some(Opcode::DivI));
    }
    // Shift the zero to the last row: blocks (0, 0) .. (1, 1) print, (0, 2) fails.
    let m2 = module(
        "cuda_tile.module @m {
  entry @k(%n: tile<i32>) {
    %x, %y, %z = get_tile_block_id : tile<i32>
    print \"block %d %d\\n\", %x, %y : tile<i32>, tile<i32>
    %d = subi %n, %y : tile<i32>
    %q = divi %n, %d signed : tile<i32>
    return
  }
}",
    );
    let k2 = func(&m2, "k");
    for parallel in [false, true] {
        let opts = tilec_interp::Options {
            parallel,
            threads: 2,
            ..Default::default()
        };
        let e = tilec_interp::run_with(
            &m2,
            k2,
            [2, 3, 1],
            &[Arg::Scalar(2)],
            &mut Memory::default(),
            &opts,
        )
        .expect_err("row 2 divides by zero");
        assert_eq!(e.block, [0, 2, 0]);
        assert_eq!(
            e.printed,
            "block 0 0\nblock 1 0\nblock 0 1\nblock 1 1\nblock 0 2\n"
        );
        assert!(e.message.contains("division by zero"), "{}", e.message);
    }
}

/// Ops that are not ops of tile IR programs are refused.
#[test]
fn non_tile_ir_ops_are_refused() {
    let src = "cuda_tile.module @m {
  testing$func @f(%a: tile<4xi32>) -> tile<4xi32> {
    %b = unrealized_conversion_cast %a : tile<4xi32> to tile<4xi32>
    return %b : tile<4xi32>
  }
}";
    let m = tilec_parse::parse(src, tilec_diag::FileId(0), &Default::default()).expect("parses");
    let e = try_call(&m, "f", &[vec![1, 2, 3, 4]], &mut Memory::default()).expect_err("refused");
    assert_eq!(
        e.message,
        "'unrealized_conversion_cast' is not a tile IR operation"
    );
    assert_eq!(
        e.op.map(|o| m.opcode(o)),
        Some(Opcode::UnrealizedConversionCast)
    );
    let src = "cuda_tile.module @m {
  testing$func @f(%a: tile<4xi32>) -> tile<4xi32> {
    %b = \"other.op\"(%a) : (tile<4xi32>) -> tile<4xi32>
    return %b : tile<4xi32>
  }
}";
    let opts = tilec_parse::ParseOptions {
        allow_unregistered: true,
        ..Default::default()
    };
    let m = tilec_parse::parse(src, tilec_diag::FileId(0), &opts).expect("parses");
    let e = try_call(&m, "f", &[vec![1, 2, 3, 4]], &mut Memory::default()).expect_err("refused");
    assert_eq!(
        e.op.map(|o| m.opcode(o)),
        Some(Opcode::Unregistered),
        "{}",
        e.message
    );
    let m = module(
        "cuda_tile.module @m {
  testing$func @f() {
    testing$bytecode_test_new_attribute new_flag
    return
  }
}",
    );
    let e = try_call(&m, "f", &[], &mut Memory::default()).expect_err("refused");
    assert_eq!(
        e.message,
        "'testing$bytecode_test_new_attribute' tests bytecode versioning and has no behaviour to run"
    );
}

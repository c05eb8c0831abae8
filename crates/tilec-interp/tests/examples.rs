//! The shipped examples, run by the interpreter and compared with results computed by
//! plain Rust loops in the test.

use tilec_interp::{Arg, Memory, Options, run, run_with};
use tilec_ir::{Module, Op, Opcode};

fn load(name: &str) -> Module {
    let path = format!("{}/../../examples/{name}.tile", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("example");
    let m = tilec_parse::parse(&text, tilec_diag::FileId(0), &Default::default()).expect("parses");
    assert!(
        tilec_verify::verify(&m, &Default::default()).is_empty(),
        "{name} verifies"
    );
    m
}

fn entry(m: &Module, name: &str) -> Op {
    let mut found = None;
    m.walk(|op| {
        if m.opcode(op) == Opcode::Entry
            && m.attr_named(op, "sym_name")
                .is_some_and(|a| matches!(m.ctx.attrs.get(a), tilec_ir::attrs::AttrData::String(s) if &**s == name))
        {
            found = Some(op);
        }
    });
    found.expect("entry")
}

/// Runs entry `name` in the deterministic mode, and in parallel (4 threads) on a copy of
/// the memory: both must leave every buffer the same.
fn run_both(m: &tilec_ir::Module, name: &str, grid: [u32; 3], args: &[Arg], mem: &mut Memory) {
    let mut par = mem.clone();
    run(m, entry(m, name), grid, args, mem).expect("runs");
    let opts = Options {
        parallel: true,
        threads: 4,
        ..Options::default()
    };
    run_with(m, entry(m, name), grid, args, &mut par, &opts).expect("runs in parallel");
    for i in 0..mem.buffers.len() {
        assert_eq!(mem.bytes(i), par.bytes(i), "buffer {i} differs in parallel");
    }
}

fn f32_buf(mem: &mut Memory, v: &[f32]) -> usize {
    mem.alloc(v.iter().flat_map(|x| x.to_le_bytes()).collect());
    mem.buffers.len() - 1
}

fn f32s(mem: &Memory, i: usize) -> Vec<f32> {
    mem.bytes(i)
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// A deterministic sequence of floats in [-1, 1).
fn values(seed: u64, n: usize) -> Vec<f32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        })
        .collect()
}

#[test]
fn vector_add_with_a_ragged_last_tile() {
    let m = load("vector_add");
    let n = 2500;
    let (a, b) = (values(1, n), values(2, n));
    let mut mem = Memory::default();
    let (pa, pb, pc) = (
        f32_buf(&mut mem, &a),
        f32_buf(&mut mem, &b),
        f32_buf(&mut mem, &vec![0.0; n]),
    );
    let len = Arg::Scalar(n as u64);
    let args = [
        Arg::Buffer(pa),
        len.clone(),
        Arg::Scalar(1),
        Arg::Buffer(pb),
        len.clone(),
        Arg::Scalar(1),
        Arg::Buffer(pc),
        len,
        Arg::Scalar(1),
    ];
    run_both(&m, "vector_add", [3, 1, 1], &args, &mut mem);
    let c = f32s(&mem, pc);
    for i in 0..n {
        assert_eq!(c[i].to_bits(), (a[i] + b[i]).to_bits(), "element {i}");
    }
}

fn buf(mem: &mut Memory, bytes: Vec<u8>) -> usize {
    mem.alloc(bytes);
    mem.buffers.len() - 1
}

fn i32s(mem: &Memory, i: usize) -> Vec<i32> {
    mem.bytes(i)
        .chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// A 1-D array argument as cuTile passes it: pointer, length, stride.
fn arr(i: usize, n: usize) -> [Arg; 3] {
    [Arg::Buffer(i), Arg::Scalar(n as u64), Arg::Scalar(1)]
}

/// A row-major 2-D array argument: pointer, rows, columns, row stride, column stride.
fn mat(i: usize, rows: usize, cols: usize) -> [Arg; 5] {
    [
        Arg::Buffer(i),
        Arg::Scalar(rows as u64),
        Arg::Scalar(cols as u64),
        Arg::Scalar(cols as u64),
        Arg::Scalar(1),
    ]
}

#[test]
fn saxpy_masks_the_tail() {
    let m = load("saxpy");
    let n = 1500;
    let (x, y) = (values(3, n), values(4, n));
    let a = 1.75f32;
    let mut mem = Memory::default();
    let (px, py) = (f32_buf(&mut mem, &x), f32_buf(&mut mem, &y));
    let mut args = vec![Arg::Scalar(a.to_bits() as u64)];
    args.extend(arr(px, n));
    args.extend(arr(py, n));
    run_both(&m, "saxpy", [2, 1, 1], &args, &mut mem);
    let got = f32s(&mem, py);
    for i in 0..n {
        // The kernel computes a * x + y with one rounding (fma).
        assert_eq!(
            got[i].to_bits(),
            a.mul_add(x[i], y[i]).to_bits(),
            "element {i}"
        );
    }
}

#[test]
fn relu_clips_negative_values() {
    let m = load("relu");
    let n = 1100;
    let x = values(5, n);
    let mut mem = Memory::default();
    let (px, py) = (f32_buf(&mut mem, &x), f32_buf(&mut mem, &vec![9.0; n]));
    let mut args = arr(px, n).to_vec();
    args.extend(arr(py, n));
    run_both(&m, "relu", [2, 1, 1], &args, &mut mem);
    let got = f32s(&mem, py);
    for i in 0..n {
        assert_eq!(got[i], x[i].max(0.0), "element {i}");
    }
}

#[test]
fn sum_reduction_folds_each_tile_in_order() {
    let m = load("sum_reduction");
    let n = 2100;
    let x = values(6, n);
    let blocks = n.div_ceil(1024);
    let mut mem = Memory::default();
    let (px, po) = (f32_buf(&mut mem, &x), f32_buf(&mut mem, &vec![0.0; blocks]));
    let mut args = arr(px, n).to_vec();
    args.extend(arr(po, blocks));
    run(
        &m,
        entry(&m, "sum_reduction"),
        [blocks as u32, 1, 1],
        &args,
        &mut mem,
    )
    .expect("runs");
    let got = f32s(&mem, po);
    for (b, g) in got.iter().enumerate() {
        // The interpreter folds in ascending order from the identity; padding adds zeros.
        let want = x[b * 1024..((b + 1) * 1024).min(n)]
            .iter()
            .fold(0.0f32, |acc, v| v + acc);
        assert_eq!(g.to_bits(), want.to_bits(), "block {b}");
    }
}

#[test]
fn prefix_sum_carries_the_total_across_tiles() {
    let m = load("prefix_sum");
    let n = 2500;
    let x = values(7, n);
    let mut mem = Memory::default();
    let (px, py) = (f32_buf(&mut mem, &x), f32_buf(&mut mem, &vec![0.0; n]));
    let mut args = arr(px, n).to_vec();
    args.extend(arr(py, n));
    run(&m, entry(&m, "prefix_sum"), [1, 1, 1], &args, &mut mem).expect("runs");
    let got = f32s(&mem, py);
    let mut carry = 0.0f32;
    for t in 0..n.div_ceil(1024) {
        let mut acc = 0.0f32;
        let mut last = 0.0f32;
        for i in t * 1024..(t + 1) * 1024 {
            acc += if i < n { x[i] } else { 0.0 };
            let v = acc + carry;
            if i < n {
                assert_eq!(got[i].to_bits(), v.to_bits(), "element {i}");
            }
            last = v;
        }
        carry = last;
    }
}

#[test]
fn histogram_counts_every_value_with_atomics() {
    let m = load("histogram");
    let n = 3000;
    let bins = 37;
    let mut s = 11u64;
    let x: Vec<i32> = (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 33) % 45) as i32 - 4
        })
        .collect();
    let mut mem = Memory::default();
    let px = buf(&mut mem, x.iter().flat_map(|v| v.to_le_bytes()).collect());
    let pb = buf(&mut mem, vec![0; bins * 4]);
    let mut args = arr(px, n).to_vec();
    args.extend(arr(pb, bins));
    run_both(&m, "histogram", [3, 1, 1], &args, &mut mem);
    let mut want = vec![0i32; bins];
    for v in &x {
        if (0..bins as i32).contains(v) {
            want[*v as usize] += 1;
        }
    }
    assert_eq!(i32s(&mem, pb), want);
}

#[test]
fn transpose_with_ragged_edges() {
    let m = load("transpose");
    let (rows, cols) = (100, 70);
    let a = values(8, rows * cols);
    let mut mem = Memory::default();
    let (pa, pb) = (
        f32_buf(&mut mem, &a),
        f32_buf(&mut mem, &vec![0.0; rows * cols]),
    );
    let mut args = mat(pa, rows, cols).to_vec();
    args.extend(mat(pb, cols, rows));
    let grid = [rows.div_ceil(64) as u32, cols.div_ceil(32) as u32, 1];
    run_both(&m, "transpose", grid, &args, &mut mem);
    let b = f32s(&mem, pb);
    for i in 0..rows {
        for j in 0..cols {
            assert_eq!(b[j * rows + i], a[i * cols + j], "({i}, {j})");
        }
    }
}

fn f16_bits(v: f32) -> u16 {
    tilec_ir::float::round_from_f64(tilec_ir::float::FloatKind::F16, v as f64) as u16
}

#[test]
fn matmul_accumulates_in_ascending_k() {
    let m = load("matmul");
    let (mm, kk, nn) = (70, 50, 66);
    let a: Vec<u16> = values(9, mm * kk).iter().map(|v| f16_bits(*v)).collect();
    let b: Vec<u16> = values(10, kk * nn).iter().map(|v| f16_bits(*v)).collect();
    let mut mem = Memory::default();
    let pa = buf(&mut mem, a.iter().flat_map(|v| v.to_le_bytes()).collect());
    let pb = buf(&mut mem, b.iter().flat_map(|v| v.to_le_bytes()).collect());
    let pc = buf(&mut mem, vec![0; mm * nn * 4]);
    let mut args = mat(pa, mm, kk).to_vec();
    args.extend(mat(pb, kk, nn));
    args.extend(mat(pc, mm, nn));
    let grid = [mm.div_ceil(64) as u32, nn.div_ceil(64) as u32, 1];
    run_both(&m, "matmul", grid, &args, &mut mem);
    let c = f32s(&mem, pc);
    let f = |h: u16| tilec_ir::float::to_f64(tilec_ir::float::FloatKind::F16, h as u64) as f32;
    for i in 0..mm {
        for j in 0..nn {
            // One fused multiply-add per k, in ascending k (K tiles of 32, zero-padded).
            let mut acc = 0.0f32;
            for k in 0..kk.div_ceil(32) * 32 {
                let (x, y) = if k < kk {
                    (f(a[i * kk + k]), f(b[k * nn + j]))
                } else {
                    (0.0, 0.0)
                };
                acc = x.mul_add(y, acc);
            }
            assert_eq!(c[i * nn + j].to_bits(), acc.to_bits(), "({i}, {j})");
        }
    }
}

/// `n` values in [-s, s).
fn scaled(seed: u64, n: usize, s: f32) -> Vec<f32> {
    values(seed, n).iter().map(|v| v * s).collect()
}

/// A row-major matrix argument whose row stride is `stride` (at least `cols`).
fn mat_strided(i: usize, rows: usize, cols: usize, stride: usize) -> [Arg; 5] {
    [
        Arg::Buffer(i),
        Arg::Scalar(rows as u64),
        Arg::Scalar(cols as u64),
        Arg::Scalar(stride as u64),
        Arg::Scalar(1),
    ]
}

#[test]
fn layernorm_normalizes_ragged_rows() {
    let m = load("layernorm");
    // N is not a multiple of the 1024-wide tile; x has a row stride past N (padding
    // columns that must not be read), y is dense.
    let (mm, nn, xs) = (5, 700, 720);
    let x = scaled(12, mm * xs, 3.0);
    let (gamma, beta) = (scaled(13, nn, 2.0), scaled(14, nn, 1.0));
    let eps = 1e-5f32;
    let mut mem = Memory::default();
    let px = f32_buf(&mut mem, &x);
    let py = f32_buf(&mut mem, &vec![f32::NAN; mm * nn]);
    let pw = f32_buf(&mut mem, &gamma);
    let pb = f32_buf(&mut mem, &beta);
    let mut args = mat_strided(px, mm, nn, xs).to_vec();
    args.extend(mat(py, mm, nn));
    args.extend(arr(pw, nn));
    args.extend(arr(pb, nn));
    args.push(Arg::Scalar(eps.to_bits() as u64));
    run_both(&m, "layernorm", [mm as u32, 1, 1], &args, &mut mem);
    let y = f32s(&mem, py);
    for r in 0..mm {
        // The row as the 1x1024 tile holds it: columns past N are zero padding.
        let row: Vec<f32> = (0..1024)
            .map(|j| if j < nn { x[r * xs + j] } else { 0.0 })
            .collect();
        let n_f = nn as f32;
        let sum = row.iter().fold(0.0f32, |acc, v| v + acc);
        let mean = sum / n_f;
        let diff: Vec<f32> = (0..1024)
            .map(|j| if j < nn { row[j] - mean } else { 0.0 })
            .collect();
        let sq_sum = diff.iter().fold(0.0f32, |acc, d| d * d + acc);
        let var = sq_sum / n_f;
        // rsqrt: computed in f64, rounded once to f32.
        let rstd = (1.0 / f64::from(var + eps).sqrt()) as f32;
        for j in 0..nn {
            let want = (diff[j] * rstd).mul_add(gamma[j], beta[j]);
            assert_eq!(y[r * nn + j].to_bits(), want.to_bits(), "({r}, {j})");
        }
    }
}

#[test]
fn row_softmax_pads_with_negative_infinity() {
    let m = load("row_softmax");
    let (mm, nn) = (6, 1000);
    let mut x = scaled(15, mm * nn, 8.0);
    // Every value negative in one row: a zero padding would win the maximum there.
    for v in &mut x[2 * nn..3 * nn] {
        *v = -v.abs() - 1.0;
    }
    let mut mem = Memory::default();
    let px = f32_buf(&mut mem, &x);
    let py = f32_buf(&mut mem, &vec![f32::NAN; mm * nn]);
    let mut args = mat(px, mm, nn).to_vec();
    args.extend(mat(py, mm, nn));
    run_both(&m, "row_softmax", [mm as u32, 1, 1], &args, &mut mem);
    let y = f32s(&mem, py);
    for r in 0..mm {
        let row: Vec<f32> = (0..1024)
            .map(|j| {
                if j < nn {
                    x[r * nn + j]
                } else {
                    f32::NEG_INFINITY
                }
            })
            .collect();
        let max = row
            .iter()
            .fold(f32::NEG_INFINITY, |acc, v| if *v > acc { *v } else { acc });
        // exp: computed in f64, rounded once; exp(-inf) = 0 for the padding.
        let num: Vec<f32> = row
            .iter()
            .map(|v| f64::from(v - max).exp() as f32)
            .collect();
        let sum = num.iter().fold(0.0f32, |acc, v| v + acc);
        let mut total = 0.0f64;
        for j in 0..nn {
            let want = num[j] / sum;
            assert_eq!(y[r * nn + j].to_bits(), want.to_bits(), "({r}, {j})");
            total += f64::from(want);
        }
        assert!((total - 1.0).abs() < 1e-4, "row {r} sums to {total}");
    }
}

#[test]
fn fused_bias_gelu_clips_edge_tiles() {
    let m = load("fused_bias_gelu");
    let (mm, nn) = (37, 300);
    let x = scaled(16, mm * nn, 3.0);
    let bias = scaled(17, nn, 1.0);
    let mut mem = Memory::default();
    let px = f32_buf(&mut mem, &x);
    let py = f32_buf(&mut mem, &vec![f32::NAN; mm * nn]);
    let pb = f32_buf(&mut mem, &bias);
    let mut args = mat(px, mm, nn).to_vec();
    args.extend(mat(py, mm, nn));
    args.extend(arr(pb, nn));
    let grid = [mm.div_ceil(16) as u32, nn.div_ceil(128) as u32, 1];
    run_both(&m, "fused_bias_gelu", grid, &args, &mut mem);
    let y = f32s(&mem, py);
    // The constants as the kernel writes them, read as the nearest f32.
    let c_cubic: f32 = "0.044715".parse().unwrap();
    let c_sqrt_2_pi: f32 = "0.7978845608".parse().unwrap();
    for r in 0..mm {
        for c in 0..nn {
            let h = x[r * nn + c] + bias[c];
            let h3 = h * h * h;
            let inner = c_sqrt_2_pi * c_cubic.mul_add(h3, h);
            let t = f64::from(inner).tanh() as f32;
            let want = (0.5 * h) * (1.0 + t);
            assert_eq!(y[r * nn + c].to_bits(), want.to_bits(), "({r}, {c})");
        }
    }
}

use tilec_ir::float::{FloatKind, round_from_f64, to_f64};

fn bits16(v: &[u16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn u16s(mem: &Memory, i: usize) -> Vec<u16> {
    mem.bytes(i)
        .chunks(2)
        .map(|c| u16::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// `D = A x B + C` over `batch` products of `mm x kk` by `kk x nn`, all row-major, with
/// `step(acc, a, b)` one accumulation step, in ascending k.
fn mma_ref<T: Copy>(
    (batch, mm, kk, nn): (usize, usize, usize, usize),
    a: &[T],
    b: &[T],
    c: &[T],
    step: impl Fn(T, T, T) -> T,
) -> Vec<T> {
    let mut d = c.to_vec();
    for p in 0..batch {
        for i in 0..mm {
            for j in 0..nn {
                let o = p * mm * nn + i * nn + j;
                for k in 0..kk {
                    d[o] = step(
                        d[o],
                        a[p * mm * kk + i * kk + k],
                        b[p * kk * nn + k * nn + j],
                    );
                }
            }
        }
    }
    d
}

/// Runs the one-block `entry` of mma_types with buffers `bufs` (inputs, then outputs).
fn run_mma(entry_name: &str, mem: &mut Memory, bufs: &[usize]) {
    let m = load("mma_types");
    let args: Vec<Arg> = bufs.iter().map(|b| Arg::Buffer(*b)).collect();
    run(&m, entry(&m, entry_name), [1, 1, 1], &args, mem).expect("runs");
}

fn f16_of(v: u16) -> f32 {
    to_f64(FloatKind::F16, v as u64) as f32
}

#[test]
fn mma_f16_with_f32_accumulator() {
    for (name, batch, mm, kk, nn) in [
        ("mma_f16_f32", 1, 64, 32, 64),
        ("mma_batched_f16_f32", 4, 32, 32, 8),
    ] {
        let a: Vec<u16> = values(20, batch * mm * kk)
            .iter()
            .map(|v| f16_bits(*v))
            .collect();
        let b: Vec<u16> = values(21, batch * kk * nn)
            .iter()
            .map(|v| f16_bits(*v))
            .collect();
        let c = scaled(22, batch * mm * nn, 4.0);
        let mut mem = Memory::default();
        let pa = buf(&mut mem, bits16(&a));
        let pb = buf(&mut mem, bits16(&b));
        let pc = f32_buf(&mut mem, &c);
        let pd = f32_buf(&mut mem, &vec![f32::NAN; batch * mm * nn]);
        run_mma(name, &mut mem, &[pa, pb, pc, pd]);
        let (af, bf): (Vec<f32>, Vec<f32>) = (
            a.iter().map(|x| f16_of(*x)).collect(),
            b.iter().map(|x| f16_of(*x)).collect(),
        );
        // f16 values are exact in f32; one fused multiply-add per k.
        let want = mma_ref((batch, mm, kk, nn), &af, &bf, &c, |acc, x, y| {
            x.mul_add(y, acc)
        });
        let got = f32s(&mem, pd);
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g.to_bits(), w.to_bits(), "{name} element {i}");
        }
    }
}

#[test]
fn mma_f16_with_f16_accumulator() {
    let (mm, kk, nn) = (32, 32, 32);
    // Multiples of 2^-8 in [-1, 1): every product and every sum with an f16 accumulator
    // (which stays a multiple of 2^-16 below 2^6) is exact in f64, so rounding the f64
    // result once to f16 is the fused multiply-add in f16.
    let dyadic = |seed: u64, n: usize| -> Vec<u16> {
        values(seed, n)
            .iter()
            .map(|v| f16_bits((v * 256.0).floor() / 256.0))
            .collect()
    };
    let (a, b, c) = (
        dyadic(23, mm * kk),
        dyadic(24, kk * nn),
        dyadic(25, mm * nn),
    );
    let mut mem = Memory::default();
    let pa = buf(&mut mem, bits16(&a));
    let pb = buf(&mut mem, bits16(&b));
    let pc = buf(&mut mem, bits16(&c));
    let pd = buf(&mut mem, vec![0xff; mm * nn * 2]);
    run_mma("mma_f16_f16", &mut mem, &[pa, pb, pc, pd]);
    let want = mma_ref((1, mm, kk, nn), &a, &b, &c, |acc, x, y| {
        let exact = f64::from(f16_of(x)) * f64::from(f16_of(y)) + f64::from(f16_of(acc));
        round_from_f64(FloatKind::F16, exact) as u16
    });
    let got = u16s(&mem, pd);
    let mut rounded = 0;
    for i in 0..mm * nn {
        assert_eq!(got[i], want[i], "element {i}");
        // The test means something only if the f16 accumulator rounds.
        let (r, col) = (i / nn, i % nn);
        let wide = (0..kk).fold(f64::from(f16_of(c[i])), |acc, k| {
            acc + f64::from(f16_of(a[r * kk + k])) * f64::from(f16_of(b[k * nn + col]))
        });
        if f64::from(f16_of(got[i])) != wide {
            rounded += 1;
        }
    }
    assert!(rounded > 100, "only {rounded} results rounded");
}

#[test]
fn mma_bf16_with_f32_accumulator() {
    let (mm, kk, nn) = (32, 32, 64);
    let bf16 = |v: f32| round_from_f64(FloatKind::BF16, v as f64) as u16;
    let a: Vec<u16> = values(26, mm * kk).iter().map(|v| bf16(*v)).collect();
    let b: Vec<u16> = values(27, kk * nn).iter().map(|v| bf16(*v)).collect();
    let c = scaled(28, mm * nn, 2.0);
    let mut mem = Memory::default();
    let pa = buf(&mut mem, bits16(&a));
    let pb = buf(&mut mem, bits16(&b));
    let pc = f32_buf(&mut mem, &c);
    let pd = f32_buf(&mut mem, &vec![f32::NAN; mm * nn]);
    run_mma("mma_bf16_f32", &mut mem, &[pa, pb, pc, pd]);
    // A bf16 value is the top half of the f32 with the same value.
    let widen = |v: &[u16]| -> Vec<f32> {
        v.iter()
            .map(|x| f32::from_bits((*x as u32) << 16))
            .collect()
    };
    let want = mma_ref((1, mm, kk, nn), &widen(&a), &widen(&b), &c, |acc, x, y| {
        x.mul_add(y, acc)
    });
    let got = f32s(&mem, pd);
    for i in 0..mm * nn {
        assert_eq!(got[i].to_bits(), want[i].to_bits(), "element {i}");
    }
}

#[test]
fn mma_tf32_rounds_the_f32_inputs() {
    let n = 32;
    let (a, b, c) = (values(29, n * n), values(30, n * n), values(31, n * n));
    let mut mem = Memory::default();
    let pa = f32_buf(&mut mem, &a);
    let pb = f32_buf(&mut mem, &b);
    let pc = f32_buf(&mut mem, &c);
    let pd = f32_buf(&mut mem, &vec![f32::NAN; n * n]);
    run_mma("mma_tf32_f32", &mut mem, &[pa, pb, pc, pd]);
    // ftof to tf32 (round to nearest even): keep 10 fraction bits of the f32 encoding.
    let tf32 = |v: &f32| {
        let u = v.to_bits();
        let low = u & 0x1fff;
        let mut t = u & !0x1fff;
        if low > 0x1000 || (low == 0x1000 && t & 0x2000 != 0) {
            t += 0x2000;
        }
        f32::from_bits(t)
    };
    let (at, bt): (Vec<f32>, Vec<f32>) =
        (a.iter().map(tf32).collect(), b.iter().map(tf32).collect());
    assert!(at.iter().zip(&a).filter(|(x, y)| x != y).count() > 900);
    let want = mma_ref((1, n, n, n), &at, &bt, &c, |acc, x, y| x.mul_add(y, acc));
    let got = f32s(&mem, pd);
    for i in 0..n * n {
        assert_eq!(got[i].to_bits(), want[i].to_bits(), "element {i}");
    }
}

#[test]
fn mma_i8_with_every_signedness_pair() {
    let (mm, kk, nn) = (32, 64, 32);
    let mut s = 32u64;
    let mut next = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        s >> 16
    };
    let a: Vec<u8> = (0..mm * kk).map(|_| next() as u8).collect();
    let b: Vec<u8> = (0..kk * nn).map(|_| next() as u8).collect();
    // Accumulators near the ends of i32, so that the sums wrap.
    let c: Vec<i32> = (0..mm * nn)
        .map(|i| match i % 3 {
            0 => i32::MAX - (next() % 1000) as i32,
            1 => i32::MIN + (next() % 1000) as i32,
            _ => next() as i32,
        })
        .collect();
    let mut mem = Memory::default();
    let pa = buf(&mut mem, a.clone());
    let pb = buf(&mut mem, b.clone());
    let pc = buf(&mut mem, c.iter().flat_map(|v| v.to_le_bytes()).collect());
    let outs: Vec<usize> = (0..4)
        .map(|_| buf(&mut mem, vec![0; mm * nn * 4]))
        .collect();
    run_mma(
        "mma_i8_i32",
        &mut mem,
        &[pa, pb, pc, outs[0], outs[1], outs[2], outs[3]],
    );
    let signed = |v: &[u8]| -> Vec<i32> { v.iter().map(|x| *x as i8 as i32).collect() };
    let unsigned = |v: &[u8]| -> Vec<i32> { v.iter().map(|x| *x as i32).collect() };
    // Outputs in the order ss, su, us, uu (lhs signedness first).
    for (o, (la, lb)) in outs.iter().zip([
        (signed(&a), signed(&b)),
        (signed(&a), unsigned(&b)),
        (unsigned(&a), signed(&b)),
        (unsigned(&a), unsigned(&b)),
    ]) {
        let want = mma_ref((1, mm, kk, nn), &la, &lb, &c, |acc, x, y| {
            acc.wrapping_add(x * y)
        });
        assert_eq!(i32s(&mem, *o), want, "output {o}");
    }
}

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

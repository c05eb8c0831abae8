//! Matrix-multiply kernels run end to end on the PTX interpreter (`tilec_tests::ptxsim`),
//! without a GPU: tilec compiles them, the interpreter executes the PTX (with `mma.sync`
//! from the ISA's fragment formulas and a shared-memory race detector), and the results
//! are compared with a plain matrix product. The data are small integers, so every
//! product and sum is exact in every element type and the comparison is exact.
//!
//! Covered: every kernel of examples/mma_types.tile (f16 -> f32, f16 -> f16, bf16 -> f32,
//! tf32 -> f32, i8 -> i32 with the four signedness pairs, batched f16), examples/matmul.tile
//! with ragged sizes (K loop, masked edges), and cuTile corpus kernels: f16 -> f32 with
//! 64x64 and 128x128 accumulators (the latter converts in chunks), tf32, bf16 (B read
//! through a transposing dim_map) and the shared-memory fallback (f32 inputs).

use tilec_tests::ptxsim::{self, Memory, bf16_to_f32, f16_to_f32, f32_to_bf16, f32_to_f16};
use tilec_tests::{repo_root, run_tilec};

fn compile(rel: &str, extra: &[&str]) -> Vec<ptxsim::Kernel> {
    let path = repo_root().join(rel);
    let p = path.to_str().expect("utf-8 path");
    let mut args = vec![p, "--arch", "sm_80", "-o", "-"];
    args.extend_from_slice(extra);
    let out = run_tilec(&args, "");
    assert_eq!(out.status, 0, "{rel}: {}", out.stderr);
    ptxsim::parse(&out.stdout)
}

fn kernel<'a>(ks: &'a [ptxsim::Kernel], name: &str) -> &'a ptxsim::Kernel {
    ks.iter()
        .find(|k| k.name == name || k.name.starts_with(name))
        .unwrap_or_else(|| panic!("no kernel {name}"))
}

/// Small deterministic integers in [-r, r].
struct Gen(u64);

impl Gen {
    fn next(&mut self, r: i64) -> i64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % (2 * r as u64 + 1)) as i64 - r
    }

    fn vec(&mut self, n: usize, r: i64) -> Vec<i64> {
        (0..n).map(|_| self.next(r)).collect()
    }
}

#[derive(Copy, Clone, Debug, PartialEq)]
enum Ty {
    F16,
    BF16,
    F32,
    I8,
    I32,
    E4M3,
    E5M2,
}

/// An exactly representable value's float8 bits.
fn f8_bits(kind: tilec_ir::float::FloatKind, x: i64) -> u8 {
    let bits = tilec_interp::fp::convert(
        tilec_ir::float::FloatKind::F32,
        kind,
        u64::from((x as f32).to_bits()),
        tilec_ir::float::Round::NearestEven,
        false,
    );
    bits as u8
}

fn encode(ty: Ty, v: &[i64]) -> Vec<u8> {
    v.iter()
        .flat_map(|x| match ty {
            Ty::F16 => f32_to_f16(*x as f32).to_le_bytes().to_vec(),
            Ty::BF16 => f32_to_bf16(*x as f32).to_le_bytes().to_vec(),
            Ty::F32 => (*x as f32).to_le_bytes().to_vec(),
            Ty::I8 => vec![*x as i8 as u8],
            Ty::I32 => (*x as i32).to_le_bytes().to_vec(),
            Ty::E4M3 => vec![f8_bits(tilec_ir::float::FloatKind::F8E4M3FN, *x)],
            Ty::E5M2 => vec![f8_bits(tilec_ir::float::FloatKind::F8E5M2, *x)],
        })
        .collect()
}

fn decode(ty: Ty, bytes: &[u8]) -> Vec<f64> {
    match ty {
        Ty::F16 => bytes
            .chunks(2)
            .map(|c| f16_to_f32(u16::from_le_bytes([c[0], c[1]])) as f64)
            .collect(),
        Ty::BF16 => bytes
            .chunks(2)
            .map(|c| bf16_to_f32(u16::from_le_bytes([c[0], c[1]])) as f64)
            .collect(),
        Ty::F32 => bytes
            .chunks(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f64)
            .collect(),
        Ty::I32 => bytes
            .chunks(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f64)
            .collect(),
        Ty::I8 => bytes.iter().map(|b| *b as i8 as f64).collect(),
        Ty::E4M3 | Ty::E5M2 => {
            let kind = if matches!(ty, Ty::E4M3) {
                tilec_ir::float::FloatKind::F8E4M3FN
            } else {
                tilec_ir::float::FloatKind::F8E5M2
            };
            bytes
                .iter()
                .map(|b| {
                    f64::from_bits(tilec_interp::fp::convert(
                        kind,
                        tilec_ir::float::FloatKind::F64,
                        u64::from(*b),
                        tilec_ir::float::Round::NearestEven,
                        false,
                    ))
                })
                .collect()
        }
    }
}

fn bytes_of(ty: Ty) -> usize {
    match ty {
        Ty::F16 | Ty::BF16 => 2,
        Ty::F32 | Ty::I32 => 4,
        Ty::I8 | Ty::E4M3 | Ty::E5M2 => 1,
    }
}

/// `batch` products of `m x k` by `k x n` plus `c`, all row-major.
fn reference(
    batch: usize,
    m: usize,
    n: usize,
    k: usize,
    a: &[i64],
    b: &[i64],
    c: &[i64],
) -> Vec<i64> {
    let mut d = c.to_vec();
    for bt in 0..batch {
        for i in 0..m {
            for j in 0..n {
                for x in 0..k {
                    d[bt * m * n + i * n + j] +=
                        a[bt * m * k + i * k + x] * b[bt * k * n + x * n + j];
                }
            }
        }
    }
    d
}

fn assert_same(what: &str, got: &[f64], want: &[i64]) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    let bad: Vec<String> = got
        .iter()
        .zip(want)
        .enumerate()
        .filter(|(_, (g, w))| **g != **w as f64)
        .take(8)
        .map(|(i, (g, w))| format!("[{i}] got {g} want {w}"))
        .collect();
    assert!(
        bad.is_empty(),
        "{what}: {} wrong, first: {}",
        got.iter()
            .zip(want)
            .filter(|(g, w)| **g != **w as f64)
            .count(),
        bad.join(", ")
    );
}

/// Runs a kernel of examples/mma_types.tile: D = A x B + C (whole matrices, one CTA).
#[allow(clippy::too_many_arguments)]
fn run_mma_types(
    ks: &[ptxsim::Kernel],
    name: &str,
    batch: usize,
    (m, n, k): (usize, usize, usize),
    (ta, tc): (Ty, Ty),
    seed: u64,
) -> ptxsim::Stats {
    let mut g = Gen(seed);
    let a = g.vec(batch * m * k, 3);
    let b = g.vec(batch * k * n, 3);
    let c = g.vec(batch * m * n, 8);
    let mut mem = Memory::default();
    let pa = mem.alloc(&encode(ta, &a));
    let pb = mem.alloc(&encode(ta, &b));
    let pc = mem.alloc(&encode(tc, &c));
    let pd = mem.alloc(&vec![0xAB; batch * m * n * bytes_of(tc)]);
    let st = ptxsim::run(kernel(ks, name), [1, 1, 1], &[pa, pb, pc, pd], &mut mem)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let got = decode(tc, mem.read(pd, batch * m * n * bytes_of(tc)));
    assert_same(name, &got, &reference(batch, m, n, k, &a, &b, &c));
    st
}

#[test]
fn mma_types_kernels_compute_the_product() {
    let ks = compile("examples/mma_types.tile", &[]);
    for (name, batch, shape, tys, mmas) in [
        ("mma_f16_f32", 1, (64, 64, 32), (Ty::F16, Ty::F32), 16),
        ("mma_f16_f16", 1, (32, 32, 32), (Ty::F16, Ty::F16), 4),
        ("mma_bf16_f32", 1, (32, 64, 32), (Ty::BF16, Ty::F32), 8),
        ("mma_tf32_f32", 1, (32, 32, 32), (Ty::F32, Ty::F32), 8),
        ("mma_batched_f16_f32", 4, (32, 8, 32), (Ty::F16, Ty::F32), 4),
    ] {
        let st = run_mma_types(&ks, name, batch, shape, tys, 7);
        assert_eq!(st.mma, mmas, "{name}: mma.sync count");
    }
}

#[test]
fn mma_i8_kernel_computes_every_signedness_pair() {
    let ks = compile("examples/mma_types.tile", &[]);
    let (m, n, k) = (32, 32, 64);
    let mut g = Gen(11);
    let a = g.vec(m * k, 127);
    let b = g.vec(k * n, 127);
    let c = g.vec(m * n, 1000);
    let mut mem = Memory::default();
    let pa = mem.alloc(&encode(Ty::I8, &a));
    let pb = mem.alloc(&encode(Ty::I8, &b));
    let pc = mem.alloc(&encode(Ty::I32, &c));
    let outs: Vec<u64> = (0..4).map(|_| mem.alloc(&vec![0xAB; m * n * 4])).collect();
    let mut params = vec![pa, pb, pc];
    params.extend(&outs);
    let st = ptxsim::run(kernel(&ks, "mma_i8_i32"), [1, 1, 1], &params, &mut mem)
        .unwrap_or_else(|e| panic!("mma_i8_i32: {e}"));
    assert_eq!(st.mma, 16);
    let unsigned = |v: &[i64]| v.iter().map(|x| *x as i8 as u8 as i64).collect::<Vec<_>>();
    for (i, (sa, sb)) in [(true, true), (true, false), (false, true), (false, false)]
        .into_iter()
        .enumerate()
    {
        let aa = if sa { a.clone() } else { unsigned(&a) };
        let bb = if sb { b.clone() } else { unsigned(&b) };
        let got = decode(Ty::I32, mem.read(outs[i], m * n * 4));
        assert_same(
            &format!("mmai signed {sa}/{sb}"),
            &got,
            &reference(1, m, n, k, &aa, &bb, &c),
        );
    }
}

/// A 2-D row-major matrix argument as the examples and cuTile pass it: pointer, rows,
/// cols, row stride, col stride.
fn matrix(mem: &mut Memory, ty: Ty, rows: usize, cols: usize, v: &[i64]) -> Vec<u64> {
    let p = mem.alloc(&encode(ty, v));
    vec![p, rows as u64, cols as u64, cols as u64, 1]
}

/// Runs a `C = A x B` kernel taking three (ptr, rows, cols, row stride, col stride)
/// matrices, with C tiles of `tm x tn`; `b_transposed`: B is passed as N x K.
#[allow(clippy::too_many_arguments)]
fn run_matmul(
    ks: &[ptxsim::Kernel],
    name: &str,
    (m, n, k): (usize, usize, usize),
    (tm, tn): (usize, usize),
    (ta, tc): (Ty, Ty),
    b_transposed: bool,
    seed: u64,
    plus: i64,
) -> ptxsim::Stats {
    let mut g = Gen(seed);
    let a = g.vec(m * k, 3);
    let b = g.vec(k * n, 3);
    let mut mem = Memory::default();
    let mut params = matrix(&mut mem, ta, m, k, &a);
    if b_transposed {
        let bt: Vec<i64> = (0..n * k).map(|i| b[(i % k) * n + i / k]).collect();
        params.extend(matrix(&mut mem, ta, n, k, &bt));
    } else {
        params.extend(matrix(&mut mem, ta, k, n, &b));
    }
    params.extend(matrix(&mut mem, tc, m, n, &vec![0; m * n]));
    let pc = params[10];
    let grid = [m.div_ceil(tm) as u64, n.div_ceil(tn) as u64, 1];
    let stats = ptxsim::run(kernel(ks, name), grid, &params, &mut mem)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let got = decode(tc, mem.read(pc, m * n * bytes_of(tc)));
    assert_same(
        name,
        &got,
        &reference(1, m, n, k, &a, &b, &vec![plus; m * n]),
    );
    stats
}

#[test]
fn matmul_example_with_ragged_edges() {
    // M and K not multiples of the tile: a partial C tile row-wise and a zero-padded K
    // tile. (Ragged N is the test below.)
    let ks = compile("examples/matmul.tile", &[]);
    run_matmul(
        &ks,
        "matmul",
        (80, 64, 48),
        (64, 64),
        (Ty::F16, Ty::F32),
        false,
        3,
        0,
    );
}

/// Fails with the fallback too (so not an mma matter): the view bounds check computes
/// `shape - thread_base` in 64 bits and compares it unsigned with each slot's offset, so a
/// thread whose base coordinate is already past the edge (here columns 76.. of a 72-wide C
/// in its second tile column) used to wrap around, pass the check and store into the next
/// row; the check is signed now.
#[test]
fn matmul_example_with_ragged_columns() {
    let ks = compile("examples/matmul.tile", &[]);
    run_matmul(
        &ks,
        "matmul",
        (64, 72, 32),
        (64, 64),
        (Ty::F16, Ty::F32),
        false,
        3,
        0,
    );
}

#[test]
fn matmul_example_with_other_warp_counts() {
    for w in ["1", "2", "8"] {
        let ks = compile("examples/matmul.tile", &["--num-warps", w]);
        run_matmul(
            &ks,
            "matmul",
            (64, 64, 64),
            (64, 64),
            (Ty::F16, Ty::F32),
            false,
            5,
            0,
        );
    }
}

#[test]
fn corpus_f16_kernels_including_a_chunked_accumulator() {
    let ks = compile("tests/corpus/cutile/matmul_f16_f32acc.mlir", &[]);
    let small =
        "matmul_f16_f32acc_Kt1_A2f16_1l0_2t1_p16_A2f16_1l0_2t1_p16_A2f32_1l0_2t1_p16_I64_I64_I64";
    let big =
        "matmul_f16_f32acc_Kt1_A2f16_1l0_2t1_p16_A2f16_1l0_2t1_p16_A2f32_1l0_2t1_p16_I128_I128_I32";
    run_matmul(
        &ks,
        small,
        (64, 128, 128),
        (64, 64),
        (Ty::F16, Ty::F32),
        false,
        1,
        0,
    );
    run_matmul(
        &ks,
        big,
        (128, 128, 64),
        (128, 128),
        (Ty::F16, Ty::F32),
        false,
        2,
        0,
    );
}

#[test]
fn corpus_tf32_bf16_and_fallback_kernels() {
    let ks = compile("tests/corpus/cutile/matmul_tf32.mlir", &[]);
    run_matmul(
        &ks,
        "matmul_tf32",
        (64, 64, 64),
        (64, 64),
        (Ty::F32, Ty::F32),
        false,
        4,
        0,
    );
    let ks = compile("tests/corpus/cutile/matmul_bf16.mlir", &[]);
    run_matmul(
        &ks,
        "matmul_bf16",
        (64, 64, 128),
        (64, 64),
        (Ty::BF16, Ty::BF16),
        true,
        6,
        0,
    );
    // f32 inputs have no tensor-core instruction: the shared-memory fallback.
    let ks = compile("tests/corpus/cutile/small_matmul_operator.mlir", &[]);
    run_matmul(
        &ks,
        "small_matmul_operator",
        (64, 64, 32),
        (64, 64),
        (Ty::F32, Ty::F32),
        false,
        8,
        1,
    );
}

fn dense(v: &[i64], rows: usize, cols: usize, float: bool) -> String {
    let row = |r: usize| {
        let items: Vec<String> = v[r * cols..(r + 1) * cols]
            .iter()
            .map(|x| {
                if float {
                    format!("{x}.0")
                } else {
                    x.to_string()
                }
            })
            .collect();
        format!("[{}]", items.join(", "))
    };
    format!("[{}]", (0..rows).map(row).collect::<Vec<_>>().join(", "))
}

/// Operands that need no conversion: a dense constant A is materialised straight in the
/// fragment layout, so its registers are packed (`prmt` for i8, `mov.b32 {lo, hi}` for
/// f16) instead of staged, and a constant accumulator needs no conversion either.
#[test]
fn constant_operands_are_packed_in_registers() {
    let mut g = Gen(21);
    let a8 = g.vec(32 * 32, 127);
    let a16 = g.vec(32 * 16, 3);
    let view = |name: &str, shape: &str, strides: &str, elem: &str| {
        let dims: Vec<&str> = shape.split('x').collect();
        let tv = format!("tensor_view<{shape}x{elem}, strides=[{strides}]>");
        let pv = format!("partition_view<tile=({shape}), {tv}>");
        (
            format!(
                "    %{name}_v = make_tensor_view %{name}_ptr, shape = [{}], strides = [{}] : {tv}\n    %{name}_t = make_partition_view %{name}_v : {pv}\n",
                dims.join(", "),
                strides.replace(',', ", ")
            ),
            pv,
        )
    };
    let (bv8, bp8) = view("b", "32x16", "16,1", "i8");
    let (dv8, dp8) = view("d", "32x16", "16,1", "i32");
    let (bv16, bp16) = view("b", "16x16", "16,1", "f16");
    let (dv16, dp16) = view("d", "32x16", "16,1", "f16");
    let src = format!(
        r#"cuda_tile.module @t {{
  entry @const_i8(%b_ptr: tile<ptr<i8>>, %d_ptr: tile<ptr<i32>>) {{
    %token = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
{bv8}    %b, %bt = load_view_tko weak %b_t[%c0, %c0] token = %token : {bp8}, tile<i32> -> tile<32x16xi8>, token
    %a = constant <i8: {a8}> : tile<32x32xi8>
    %c = constant <i32: 0> : tile<32x16xi32>
    %d = mmai %a, %b, %c unsigned signed : tile<32x32xi8>, tile<32x16xi8>, tile<32x16xi32>
{dv8}    %dt = store_view_tko weak %d, %d_t[%c0, %c0] token = %token : tile<32x16xi32>, {dp8}, tile<i32> -> token
    return
  }}
  entry @const_f16(%b_ptr: tile<ptr<f16>>, %d_ptr: tile<ptr<f16>>) {{
    %token = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
{bv16}    %b, %bt = load_view_tko weak %b_t[%c0, %c0] token = %token : {bp16}, tile<i32> -> tile<16x16xf16>, token
    %a = constant <f16: {a16}> : tile<32x16xf16>
    %c = constant <f16: 0.0> : tile<32x16xf16>
    %d = mmaf %a, %b, %c : tile<32x16xf16>, tile<16x16xf16>, tile<32x16xf16>
{dv16}    %dt = store_view_tko weak %d, %d_t[%c0, %c0] token = %token : tile<32x16xf16>, {dp16}, tile<i32> -> token
    return
  }}
}}
"#,
        a8 = dense(&a8, 32, 32, false),
        a16 = dense(&a16, 32, 16, true),
    );
    let out = run_tilec(&["-", "--arch", "sm_80", "-o", "-"], &src);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("prmt.b32"),
        "i8 A was not packed in registers"
    );
    let ks = ptxsim::parse(&out.stdout);

    let b8 = g.vec(32 * 16, 127);
    let mut mem = Memory::default();
    let pb = mem.alloc(&encode(Ty::I8, &b8));
    let pd = mem.alloc(&[0xAB; 32 * 16 * 4]);
    ptxsim::run(kernel(&ks, "const_i8"), [1, 1, 1], &[pb, pd], &mut mem)
        .unwrap_or_else(|e| panic!("const_i8: {e}"));
    let au: Vec<i64> = a8.iter().map(|x| *x as i8 as u8 as i64).collect();
    let got = decode(Ty::I32, mem.read(pd, 32 * 16 * 4));
    assert_same(
        "const_i8",
        &got,
        &reference(1, 32, 16, 32, &au, &b8, &[0; 32 * 16]),
    );

    let b16 = g.vec(16 * 16, 3);
    let mut mem = Memory::default();
    let pb = mem.alloc(&encode(Ty::F16, &b16));
    let pd = mem.alloc(&[0xAB; 32 * 16 * 2]);
    ptxsim::run(kernel(&ks, "const_f16"), [1, 1, 1], &[pb, pd], &mut mem)
        .unwrap_or_else(|e| panic!("const_f16: {e}"));
    let got = decode(Ty::F16, mem.read(pd, 32 * 16 * 2));
    assert_same(
        "const_f16",
        &got,
        &reference(1, 32, 16, 16, &a16, &b16, &[0; 32 * 16]),
    );
}

/// Streaming loops (emit/stream.rs): elementwise pipelines from memory to memory over
/// tiles with many slots per thread run as a loop over slot groups. Each kernel is run
/// looped and written out slot by slot (`--no-stream-loops`) on ragged shapes, and both
/// must give the reference result and leave every byte outside the tensor alone.
#[test]
fn streaming_loops_match_the_reference_and_the_unrolled_code() {
    let src = r#"cuda_tile.module @t {
  entry @view2d(%x_ptr: tile<ptr<f32>>, %rows: tile<i32>, %cols: tile<i32>, %stride: tile<i32>,
                %b_ptr: tile<ptr<f32>>, %y_ptr: tile<ptr<f32>>) {
    %token = make_token : token
    %xv = make_tensor_view %x_ptr, shape = [%rows, %cols], strides = [%stride, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %bv = make_tensor_view %b_ptr, shape = [%cols], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %yv = make_tensor_view %y_ptr, shape = [%rows, %cols], strides = [%stride, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %xp = make_partition_view %xv : partition_view<tile=(64x128), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %bp = make_partition_view %bv : partition_view<tile=(128), padding_value = zero, tensor_view<?xf32, strides=[1]>>
    %yp = make_partition_view %yv : partition_view<tile=(64x128), tensor_view<?x?xf32, strides=[?,1]>>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %x, %xt = load_view_tko weak %xp[%bx, %by] token = %token : partition_view<tile=(64x128), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<64x128xf32>, token
    %b, %bt = load_view_tko weak %bp[%by] token = %token : partition_view<tile=(128), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token
    %b2 = reshape %b : tile<128xf32> -> tile<1x128xf32>
    %bb = broadcast %b2 : tile<1x128xf32> -> tile<64x128xf32>
    %h = addf %x, %bb : tile<64x128xf32>
    %two = constant <f32: 2.0> : tile<64x128xf32>
    %h2 = mulf %h, %two : tile<64x128xf32>
    %zero = constant <f32: 0.0> : tile<64x128xf32>
    %r = maxf %h2, %zero : tile<64x128xf32>
    %yt = store_view_tko weak %r, %yp[%bx, %by] token = %token : tile<64x128xf32>, partition_view<tile=(64x128), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
  entry @ptr1d(%x_ptr: tile<ptr<i32>>, %y_ptr: tile<ptr<i32>>, %n: tile<i32>) {
    %token = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %lane = iota : tile<4096xi32>
    %c4096 = constant <i32: 4096> : tile<i32>
    %start = muli %bx, %c4096 : tile<i32>
    %start_r = reshape %start : tile<i32> -> tile<1xi32>
    %start_v = broadcast %start_r : tile<1xi32> -> tile<4096xi32>
    %idx = addi %start_v, %lane : tile<4096xi32>
    %n_r = reshape %n : tile<i32> -> tile<1xi32>
    %n_v = broadcast %n_r : tile<1xi32> -> tile<4096xi32>
    %mask = cmpi less_than %idx, %n_v, signed : tile<4096xi32> -> tile<4096xi1>
    %x_r = reshape %x_ptr : tile<ptr<i32>> -> tile<1xptr<i32>>
    %x_b = broadcast %x_r : tile<1xptr<i32>> -> tile<4096xptr<i32>>
    %x_ptrs = offset %x_b, %idx : tile<4096xptr<i32>>, tile<4096xi32> -> tile<4096xptr<i32>>
    %y_r = reshape %y_ptr : tile<ptr<i32>> -> tile<1xptr<i32>>
    %y_b = broadcast %y_r : tile<1xptr<i32>> -> tile<4096xptr<i32>>
    %y_ptrs = offset %y_b, %idx : tile<4096xptr<i32>>, tile<4096xi32> -> tile<4096xptr<i32>>
    %x, %xt = load_ptr_tko weak %x_ptrs, %mask token=%token : tile<4096xptr<i32>>, tile<4096xi1> -> tile<4096xi32>, token
    %three = constant <i32: 3> : tile<4096xi32>
    %t = muli %x, %three : tile<4096xi32>
    %u = addi %t, %idx : tile<4096xi32>
    %yt = store_ptr_tko weak %y_ptrs, %u, %mask token=%token : tile<4096xptr<i32>>, tile<4096xi32>, tile<4096xi1> -> token
    return
  }
}
"#;
    let (rows, cols, stride) = (100usize, 200usize, 208usize);
    let n = 5000usize;
    let mut g = Gen(33);
    let x = g.vec(rows * stride, 50);
    let bias = g.vec(cols, 50);
    let xi = g.vec(n, 1000);
    const SENTINEL: u8 = 0xA5;
    for extra in [&[][..], &["--no-stream-loops"][..]] {
        let mut args = vec!["-", "--arch", "sm_80", "-o", "-"];
        args.extend_from_slice(extra);
        let out = run_tilec(&args, src);
        assert_eq!(out.status, 0, "{}", out.stderr);
        let loops = out.stdout.matches(".pragma \"nounroll\"").count();
        assert_eq!(loops, if extra.is_empty() { 2 } else { 0 }, "{extra:?}");
        let ks = ptxsim::parse(&out.stdout);

        let mut mem = Memory::default();
        let px = mem.alloc(&encode(Ty::F32, &x));
        let pb = mem.alloc(&encode(Ty::F32, &bias));
        let py = mem.alloc(&vec![SENTINEL; rows * stride * 4 + 64]);
        let dims = [rows as u64, cols as u64, stride as u64];
        let params = [px, dims[0], dims[1], dims[2], pb, py];
        let grid = [rows.div_ceil(64) as u64, cols.div_ceil(128) as u64, 1];
        ptxsim::run(kernel(&ks, "view2d"), grid, &params, &mut mem)
            .unwrap_or_else(|e| panic!("view2d {extra:?}: {e}"));
        let out_bytes = mem.read(py, rows * stride * 4 + 64);
        for r in 0..rows {
            for c in 0..stride {
                let at = (r * stride + c) * 4;
                let got = &out_bytes[at..at + 4];
                if c < cols {
                    let want = (2 * (x[r * stride + c] + bias[c])).max(0) as f32;
                    assert_eq!(
                        f32::from_le_bytes(got.try_into().unwrap()),
                        want,
                        "view2d {extra:?} at ({r}, {c})"
                    );
                } else {
                    assert_eq!(
                        got, [SENTINEL; 4],
                        "view2d {extra:?} wrote padding ({r}, {c})"
                    );
                }
            }
        }
        assert!(
            out_bytes[rows * stride * 4..]
                .iter()
                .all(|b| *b == SENTINEL)
        );

        let mut mem = Memory::default();
        let px = mem.alloc(&encode(Ty::I32, &xi));
        let py = mem.alloc(&vec![SENTINEL; n * 4 + 64]);
        let grid = [n.div_ceil(4096) as u64, 1, 1];
        ptxsim::run(kernel(&ks, "ptr1d"), grid, &[px, py, n as u64], &mut mem)
            .unwrap_or_else(|e| panic!("ptr1d {extra:?}: {e}"));
        let got = mem.read(py, n * 4 + 64);
        for i in 0..n {
            let v = i32::from_le_bytes(got[i * 4..i * 4 + 4].try_into().unwrap());
            assert_eq!(v as i64, 3 * xi[i] + i as i64, "ptr1d {extra:?} at {i}");
        }
        assert!(
            got[n * 4..].iter().all(|b| *b == SENTINEL),
            "ptr1d wrote past n"
        );
    }
}

fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn i32s(bytes: &[u8]) -> Vec<i32> {
    bytes
        .chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// `scan` (a log-step scan through shared memory): the corpus prefix sums and running
/// max, forward and reverse, along either dimension of a 2-D tile, with two operands.
/// The data are small integers, so every association order gives the same f32 sums.
#[test]
fn scans_match_the_sequential_scan() {
    let mut g = Gen(44);
    // prefix_sum: f32 over 1024-element tiles (ragged), i32 over 128.
    let ks = compile("tests/corpus/cutile/prefix_sum.mlir", &[]);
    let n = 1500usize;
    let x = g.vec(n, 20);
    let mut mem = Memory::default();
    let px = mem.alloc(&encode(Ty::F32, &x));
    let py = mem.alloc(&vec![0; n * 4]);
    let params = [px, n as u64, 1, py, n as u64, 1];
    ptxsim::run(
        kernel(&ks, "prefix_sum_Kt1_A1f32"),
        [2, 1, 1],
        &params,
        &mut mem,
    )
    .unwrap_or_else(|e| panic!("prefix_sum f32: {e}"));
    let got = f32s(mem.read(py, n * 4));
    for i in 0..n {
        let start = i / 1024 * 1024;
        let want: i64 = x[start..=i].iter().sum();
        assert_eq!(got[i], want as f32, "prefix_sum f32 at {i}");
    }
    let n = 300usize;
    let x = g.vec(n, 1000);
    let mut mem = Memory::default();
    let px = mem.alloc(&encode(Ty::I32, &x));
    let py = mem.alloc(&vec![0; n * 4]);
    let params = [px, n as u64, 1, py, n as u64, 1];
    ptxsim::run(
        kernel(&ks, "prefix_sum_Kt1_A1i32"),
        [3, 1, 1],
        &params,
        &mut mem,
    )
    .unwrap_or_else(|e| panic!("prefix_sum i32: {e}"));
    let got = i32s(mem.read(py, n * 4));
    for i in 0..n {
        let start = i / 128 * 128;
        let want: i64 = x[start..=i].iter().sum();
        assert_eq!(got[i] as i64, want, "prefix_sum i32 at {i}");
    }

    // running_max_scan: max along dim 1 of 8x128 tiles.
    let ks = compile("tests/corpus/cutile/running_max_scan.mlir", &[]);
    let (rows, cols) = (8usize, 128usize);
    let x = g.vec(rows * cols, 100);
    let mut mem = Memory::default();
    let px = mem.alloc(&encode(Ty::F32, &x));
    let py = mem.alloc(&vec![0; rows * cols * 4]);
    let d = [rows as u64, cols as u64, cols as u64, 1];
    let params = [px, d[0], d[1], d[2], d[3], py, d[0], d[1], d[2], d[3]];
    ptxsim::run(
        kernel(&ks, "running_max_scan"),
        [1, 1, 1],
        &params,
        &mut mem,
    )
    .unwrap_or_else(|e| panic!("running_max_scan: {e}"));
    let got = f32s(mem.read(py, rows * cols * 4));
    for r in 0..rows {
        for c in 0..cols {
            let want = *x[r * cols..=r * cols + c].iter().max().unwrap();
            assert_eq!(got[r * cols + c], want as f32, "running max at ({r}, {c})");
        }
    }

    // Reverse scans along dim 0 with two operands: a suffix sum and a suffix count of
    // positive values.
    let src = r#"cuda_tile.module @t {
  entry @rev(%x_ptr: tile<ptr<i32>>, %y_ptr: tile<ptr<i32>>, %z_ptr: tile<ptr<i32>>) {
    %token = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %xv = make_tensor_view %x_ptr, shape = [32, 16], strides = [16, 1] : tensor_view<32x16xi32, strides=[16,1]>
    %yv = make_tensor_view %y_ptr, shape = [32, 16], strides = [16, 1] : tensor_view<32x16xi32, strides=[16,1]>
    %zv = make_tensor_view %z_ptr, shape = [32, 16], strides = [16, 1] : tensor_view<32x16xi32, strides=[16,1]>
    %xp = make_partition_view %xv : partition_view<tile=(32x16), tensor_view<32x16xi32, strides=[16,1]>>
    %yp = make_partition_view %yv : partition_view<tile=(32x16), tensor_view<32x16xi32, strides=[16,1]>>
    %zp = make_partition_view %zv : partition_view<tile=(32x16), tensor_view<32x16xi32, strides=[16,1]>>
    %x, %xt = load_view_tko weak %xp[%c0, %c0] token = %token : partition_view<tile=(32x16), tensor_view<32x16xi32, strides=[16,1]>>, tile<i32> -> tile<32x16xi32>, token
    %zero = constant <i32: 0> : tile<32x16xi32>
    %one = constant <i32: 1> : tile<32x16xi32>
    %pos = cmpi greater_than %x, %zero, signed : tile<32x16xi32> -> tile<32x16xi1>
    %cnt = select %pos, %one, %zero : tile<32x16xi1>, tile<32x16xi32>
    %s, %k = scan %x, %cnt dim=0 reverse=true identities=[0 : i32, 0 : i32] : tile<32x16xi32>, tile<32x16xi32> -> tile<32x16xi32>, tile<32x16xi32>
    (%a: tile<i32>, %b: tile<i32>, %c: tile<i32>, %d: tile<i32>) {
      %sum = addi %a, %b : tile<i32>
      %num = addi %c, %d : tile<i32>
      yield %sum, %num : tile<i32>, tile<i32>
    }
    %yt = store_view_tko weak %s, %yp[%c0, %c0] token = %token : tile<32x16xi32>, partition_view<tile=(32x16), tensor_view<32x16xi32, strides=[16,1]>>, tile<i32> -> token
    %zt = store_view_tko weak %k, %zp[%c0, %c0] token = %token : tile<32x16xi32>, partition_view<tile=(32x16), tensor_view<32x16xi32, strides=[16,1]>>, tile<i32> -> token
    return
  }
}
"#;
    let out = run_tilec(&["-", "--arch", "sm_80", "-o", "-"], src);
    assert_eq!(out.status, 0, "{}", out.stderr);
    let ks = ptxsim::parse(&out.stdout);
    let x = g.vec(32 * 16, 9);
    let mut mem = Memory::default();
    let px = mem.alloc(&encode(Ty::I32, &x));
    let py = mem.alloc(&[0; 32 * 16 * 4]);
    let pz = mem.alloc(&[0; 32 * 16 * 4]);
    ptxsim::run(kernel(&ks, "rev"), [1, 1, 1], &[px, py, pz], &mut mem)
        .unwrap_or_else(|e| panic!("rev: {e}"));
    let (ys, zs) = (
        i32s(mem.read(py, 32 * 16 * 4)),
        i32s(mem.read(pz, 32 * 16 * 4)),
    );
    for r in 0..32 {
        for c in 0..16 {
            let col = (r..32).map(|i| x[i * 16 + c]);
            let sum: i64 = col.clone().sum();
            let num = col.filter(|v| *v > 0).count() as i64;
            assert_eq!(ys[r * 16 + c] as i64, sum, "suffix sum at ({r}, {c})");
            assert_eq!(zs[r * 16 + c] as i64, num, "suffix count at ({r}, {c})");
        }
    }
}

/// A scan whose buffer would not fit one shared-memory stage (128x128 i32, 64 KiB) runs in
/// chunks of rows (dim 1) or of columns (dim 0); both directions.
#[test]
fn large_scans_run_in_chunks() {
    let mut g = Gen(45);
    let x = g.vec(128 * 128, 1000);
    for (dim, reverse) in [(1, false), (0, false), (1, true), (0, true)] {
        let ty = "tensor_view<128x128xi32, strides=[128,1]>";
        let pv = format!("partition_view<tile=(128x128), {ty}>");
        let src = format!(
            r#"cuda_tile.module @t {{
  entry @k(%x_ptr: tile<ptr<i32>>, %y_ptr: tile<ptr<i32>>) {{
    %token = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %xv = make_tensor_view %x_ptr, shape = [128, 128], strides = [128, 1] : {ty}
    %yv = make_tensor_view %y_ptr, shape = [128, 128], strides = [128, 1] : {ty}
    %xp = make_partition_view %xv : {pv}
    %yp = make_partition_view %yv : {pv}
    %x, %xt = load_view_tko weak %xp[%c0, %c0] token = %token : {pv}, tile<i32> -> tile<128x128xi32>, token
    %s = scan %x dim={dim} reverse={reverse} identities=[0 : i32] : tile<128x128xi32> -> tile<128x128xi32>
    (%a: tile<i32>, %b: tile<i32>) {{
      %c = addi %a, %b : tile<i32>
      yield %c : tile<i32>
    }}
    %yt = store_view_tko weak %s, %yp[%c0, %c0] token = %token : tile<128x128xi32>, {pv}, tile<i32> -> token
    return
  }}
}}
"#
        );
        let out = run_tilec(&["-", "--arch", "sm_80", "-o", "-"], &src);
        assert_eq!(out.status, 0, "{}", out.stderr);
        assert!(
            out.stdout.contains(".shared .align 16 .b8 __smem_k[16384]"),
            "dim {dim}: not chunked"
        );
        let ks = ptxsim::parse(&out.stdout);
        let mut mem = Memory::default();
        let px = mem.alloc(&encode(Ty::I32, &x));
        let py = mem.alloc(&[0; 128 * 128 * 4]);
        ptxsim::run(kernel(&ks, "k"), [1, 1, 1], &[px, py], &mut mem)
            .unwrap_or_else(|e| panic!("dim {dim} reverse {reverse}: {e}"));
        let got = i32s(mem.read(py, 128 * 128 * 4));
        for r in 0..128 {
            for c in 0..128 {
                let at = |i: usize, j: usize| x[i * 128 + j];
                let want: i64 = match (dim, reverse) {
                    (1, false) => (0..=c).map(|j| at(r, j)).sum(),
                    (1, true) => (c..128).map(|j| at(r, j)).sum(),
                    (0, false) => (0..=r).map(|i| at(i, c)).sum(),
                    _ => (r..128).map(|i| at(i, c)).sum(),
                };
                assert_eq!(
                    got[r * 128 + c] as i64,
                    want,
                    "dim {dim} reverse {reverse} at ({r}, {c})"
                );
            }
        }
    }
}

/// Transposes whose conversion back to the store layout is larger than one shared-memory
/// stage (128x128 and 256x64 i32): chunks picked by the source's register bits, some of
/// them thread bits of the destination (predicated reads).
#[test]
fn large_transposes_convert_in_chunks() {
    let mut g = Gen(46);
    for (rows, cols) in [(128usize, 128usize), (256, 64), (64, 256)] {
        let x = g.vec(rows * cols, 1000);
        let tv = |r: usize, c: usize| format!("tensor_view<{r}x{c}xi32, strides=[{c},1]>");
        let pv = |r: usize, c: usize| format!("partition_view<tile=({r}x{c}), {}>", tv(r, c));
        let src = format!(
            r#"cuda_tile.module @t {{
  entry @k(%x_ptr: tile<ptr<i32>>, %y_ptr: tile<ptr<i32>>) {{
    %token = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %xv = make_tensor_view %x_ptr, shape = [{rows}, {cols}], strides = [{cols}, 1] : {xtv}
    %yv = make_tensor_view %y_ptr, shape = [{cols}, {rows}], strides = [{rows}, 1] : {ytv}
    %xp = make_partition_view %xv : {xpv}
    %yp = make_partition_view %yv : {ypv}
    %x, %xt = load_view_tko weak %xp[%c0, %c0] token = %token : {xpv}, tile<i32> -> tile<{rows}x{cols}xi32>, token
    %t = permute %x [1, 0] : tile<{rows}x{cols}xi32> -> tile<{cols}x{rows}xi32>
    %yt = store_view_tko weak %t, %yp[%c0, %c0] token = %token : tile<{cols}x{rows}xi32>, {ypv}, tile<i32> -> token
    return
  }}
}}
"#,
            xtv = tv(rows, cols),
            ytv = tv(cols, rows),
            xpv = pv(rows, cols),
            ypv = pv(cols, rows),
        );
        let out = run_tilec(&["-", "--arch", "sm_80", "-o", "-"], &src);
        assert_eq!(out.status, 0, "{}", out.stderr);
        assert!(
            out.stdout.contains(".shared .align 16 .b8 __smem_k[16384]"),
            "{rows}x{cols}: not chunked"
        );
        let ks = ptxsim::parse(&out.stdout);
        let mut mem = Memory::default();
        let px = mem.alloc(&encode(Ty::I32, &x));
        let py = mem.alloc(&vec![0; rows * cols * 4]);
        ptxsim::run(kernel(&ks, "k"), [1, 1, 1], &[px, py], &mut mem)
            .unwrap_or_else(|e| panic!("{rows}x{cols}: {e}"));
        let got = i32s(mem.read(py, rows * cols * 4));
        for r in 0..rows {
            for c in 0..cols {
                assert_eq!(
                    got[c * rows + r] as i64,
                    x[r * cols + c],
                    "{rows}x{cols} at ({r}, {c})"
                );
            }
        }
    }
}

/// `extract` at a runtime index from a source larger than one shared-memory stage
/// (128x128 i32): the source goes through shared memory in chunks and each result element
/// is read in the chunk that holds it.
#[test]
fn extract_from_a_large_tile() {
    let mut g = Gen(47);
    let x = g.vec(128 * 128, 1000);
    let tv = |r: usize, c: usize| format!("tensor_view<{r}x{c}xi32, strides=[{c},1]>");
    let pv = |r: usize, c: usize| format!("partition_view<tile=({r}x{c}), {}>", tv(r, c));
    for (rr, rc) in [(1usize, 128usize), (16, 64), (128, 1)] {
        let src = format!(
            r#"cuda_tile.module @t {{
  entry @k(%x_ptr: tile<ptr<i32>>, %y_ptr: tile<ptr<i32>>, %i: tile<i32>, %j: tile<i32>) {{
    %token = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %xv = make_tensor_view %x_ptr, shape = [128, 128], strides = [128, 1] : {xtv}
    %yv = make_tensor_view %y_ptr, shape = [{rr}, {rc}], strides = [{rc}, 1] : {ytv}
    %xp = make_partition_view %xv : {xpv}
    %yp = make_partition_view %yv : {ypv}
    %x, %xt = load_view_tko weak %xp[%c0, %c0] token = %token : {xpv}, tile<i32> -> tile<128x128xi32>, token
    %e = extract %x[%i, %j] : tile<128x128xi32> -> tile<{rr}x{rc}xi32>
    %yt = store_view_tko weak %e, %yp[%c0, %c0] token = %token : tile<{rr}x{rc}xi32>, {ypv}, tile<i32> -> token
    return
  }}
}}
"#,
            xtv = tv(128, 128),
            ytv = tv(rr, rc),
            xpv = pv(128, 128),
            ypv = pv(rr, rc),
        );
        let out = run_tilec(&["-", "--arch", "sm_80", "-o", "-"], &src);
        assert_eq!(out.status, 0, "{}", out.stderr);
        assert!(out.stdout.contains(".shared .align 16 .b8 __smem_k[16384]"));
        let ks = ptxsim::parse(&out.stdout);
        let (bi, bj) = (128 / rr - 1, 128 / rc / 2);
        let mut mem = Memory::default();
        let px = mem.alloc(&encode(Ty::I32, &x));
        let py = mem.alloc(&vec![0; rr * rc * 4]);
        ptxsim::run(
            kernel(&ks, "k"),
            [1, 1, 1],
            &[px, py, bi as u64, bj as u64],
            &mut mem,
        )
        .unwrap_or_else(|e| panic!("{rr}x{rc}: {e}"));
        let got = i32s(mem.read(py, rr * rc * 4));
        for r in 0..rr {
            for c in 0..rc {
                let want = x[(bi * rr + r) * 128 + bj * rc + c];
                assert_eq!(got[r * rc + c] as i64, want, "{rr}x{rc} at ({r}, {c})");
            }
        }
    }
}

/// `extract` from a source that fits one stage, which the GPU-level IR lowers through
/// shared-memory views: `ttg.memdesc_subslice` at constant indices, and
/// `ttg.memdesc_reshape` + `ttg.memdesc_trans` + one `ttg.memdesc_index` per dimension at
/// run-time indices. Ranks 1 to 3, blocks of every aspect, every block index checked.
#[test]
fn extract_through_shared_memory_views() {
    let mut g = Gen(53);
    let dims = |s: &[usize]| {
        s.iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("x")
    };
    let strides = |s: &[usize]| {
        (0..s.len())
            .map(|d| s[d + 1..].iter().product::<usize>().to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let cases: [(&[usize], &[usize]); 7] = [
        (&[256], &[16]),
        (&[64, 32], &[8, 8]),
        (&[64, 32], &[1, 32]),
        (&[64, 32], &[64, 1]),
        (&[32, 64], &[16, 4]),
        (&[4, 16, 32], &[2, 4, 8]),
        (&[8, 8, 8], &[1, 8, 2]),
    ];
    for (ss, rs) in cases {
        let rank = ss.len();
        let x = g.vec(ss.iter().product(), 1 << 20);
        let blocks: Vec<usize> = ss.iter().zip(rs).map(|(s, r)| s / r).collect();
        let tv = |s: &[usize]| format!("tensor_view<{}xi32, strides=[{}]>", dims(s), strides(s));
        let pv = |s: &[usize]| format!("partition_view<tile=({}), {}>", dims(s), tv(s));
        let zeros = vec!["%c0"; rank].join(", ");
        let idx_params: String = (0..rank).map(|d| format!(", %i{d}: tile<i32>")).collect();
        let idx_args = (0..rank)
            .map(|d| format!("%i{d}"))
            .collect::<Vec<_>>()
            .join(", ");
        for constant in [false, true] {
            // Constant indices: the last block along every dimension (and block 1 of the
            // first when it has more than one); run-time ones: several random blocks.
            let picks: Vec<Vec<usize>> = if constant {
                vec![
                    blocks
                        .iter()
                        .enumerate()
                        .map(|(d, b)| if d == 0 && *b > 1 { 1 } else { b - 1 })
                        .collect(),
                ]
            } else {
                (0..4)
                    .map(|_| {
                        blocks
                            .iter()
                            .map(|b| g.next(1 << 20).unsigned_abs() as usize % b)
                            .collect()
                    })
                    .collect()
            };
            for pick in picks {
                let (params, consts, idx) = if constant {
                    let c: String = pick
                        .iter()
                        .enumerate()
                        .map(|(d, v)| format!("    %k{d} = constant <i32: {v}> : tile<i32>\n"))
                        .collect();
                    let names = (0..rank)
                        .map(|d| format!("%k{d}"))
                        .collect::<Vec<_>>()
                        .join(", ");
                    (String::new(), c, names)
                } else {
                    (idx_params.clone(), String::new(), idx_args.clone())
                };
                let src = format!(
                    r#"cuda_tile.module @t {{
  entry @k(%x_ptr: tile<ptr<i32>>, %y_ptr: tile<ptr<i32>>{params}) {{
    %token = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
{consts}    %xv = make_tensor_view %x_ptr, shape = [{xs}], strides = [{xst}] : {xtv}
    %yv = make_tensor_view %y_ptr, shape = [{ys}], strides = [{yst}] : {ytv}
    %xp = make_partition_view %xv : {xpv}
    %yp = make_partition_view %yv : {ypv}
    %x, %xt = load_view_tko weak %xp[{zeros}] token = %token : {xpv}, tile<i32> -> tile<{xd}xi32>, token
    %e = extract %x[{idx}] : tile<{xd}xi32> -> tile<{yd}xi32>
    %yt = store_view_tko weak %e, %yp[{zeros}] token = %token : tile<{yd}xi32>, {ypv}, tile<i32> -> token
    return
  }}
}}
"#,
                    xs = ss
                        .iter()
                        .map(|d| d.to_string())
                        .collect::<Vec<_>>()
                        .join(", "),
                    ys = rs
                        .iter()
                        .map(|d| d.to_string())
                        .collect::<Vec<_>>()
                        .join(", "),
                    xst = strides(ss).replace(',', ", "),
                    yst = strides(rs).replace(',', ", "),
                    xtv = tv(ss),
                    ytv = tv(rs),
                    xpv = pv(ss),
                    ypv = pv(rs),
                    xd = dims(ss),
                    yd = dims(rs),
                );
                let what = format!("{ss:?} -> {rs:?} at {pick:?} (constant: {constant})");
                let gpu = run_tilec(&["opt", "-", "-p", "convert-to-gpu"], &src);
                assert_eq!(gpu.status, 0, "{what}: {}", gpu.stderr);
                let view_op = if constant {
                    "ttg.memdesc_subslice"
                } else {
                    "ttg.memdesc_index"
                };
                assert!(
                    gpu.stdout.contains(view_op),
                    "{what}: no {view_op} in\n{}",
                    gpu.stdout
                );
                assert!(!gpu.stdout.contains("extract"), "{what}: {}", gpu.stdout);
                let out = run_tilec(&["-", "--arch", "sm_80", "-o", "-"], &src);
                assert_eq!(out.status, 0, "{what}: {}", out.stderr);
                let ks = ptxsim::parse(&out.stdout);
                let mut mem = Memory::default();
                let px = mem.alloc(&encode(Ty::I32, &x));
                let ny: usize = rs.iter().product();
                let py = mem.alloc(&vec![0; ny * 4]);
                let mut args = vec![px, py];
                if !constant {
                    args.extend(pick.iter().map(|p| *p as u64));
                }
                ptxsim::run(kernel(&ks, "k"), [1, 1, 1], &args, &mut mem)
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                let got = i32s(mem.read(py, ny * 4));
                for (e, got) in got.iter().enumerate() {
                    // Result coordinates, then the source element at block `pick`.
                    let mut rem = e;
                    let mut at = 0;
                    for d in 0..rank {
                        let inner: usize = rs[d + 1..].iter().product();
                        let c = rem / inner;
                        rem %= inner;
                        let outer: usize = ss[d + 1..].iter().product();
                        at += (pick[d] * rs[d] + c) * outer;
                    }
                    assert_eq!(*got as i64, x[at], "{what}: element {e}");
                }
            }
        }
    }
}

/// The `mmaf` fallback (f32: no tensor-core instruction) with A and B too large to stage
/// at once: K goes through shared memory in chunks (1 and 2 chunk bits), the accumulators
/// carrying across them.
#[test]
fn fallback_mma_stages_k_in_chunks() {
    let mut g = Gen(48);
    for (mm, nn, kk) in [(128usize, 64usize, 64usize), (64, 64, 256)] {
        let tv = |r: usize, c: usize| format!("tensor_view<{r}x{c}xf32, strides=[{c},1]>");
        let pv = |r: usize, c: usize| format!("partition_view<tile=({r}x{c}), {}>", tv(r, c));
        let tile = |r: usize, c: usize| format!("tile<{r}x{c}xf32>");
        let src = format!(
            r#"cuda_tile.module @t {{
  entry @k(%pa: tile<ptr<f32>>, %pb: tile<ptr<f32>>, %pc: tile<ptr<f32>>) {{
    %token = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %av = make_tensor_view %pa, shape = [{mm}, {kk}], strides = [{kk}, 1] : {atv}
    %bv = make_tensor_view %pb, shape = [{kk}, {nn}], strides = [{nn}, 1] : {btv}
    %cv = make_tensor_view %pc, shape = [{mm}, {nn}], strides = [{nn}, 1] : {ctv}
    %ap = make_partition_view %av : {apv}
    %bp = make_partition_view %bv : {bpv}
    %cp = make_partition_view %cv : {cpv}
    %a, %t1 = load_view_tko weak %ap[%c0, %c0] token = %token : {apv}, tile<i32> -> {at}, token
    %b, %t2 = load_view_tko weak %bp[%c0, %c0] token = %token : {bpv}, tile<i32> -> {bt}, token
    %c, %t3 = load_view_tko weak %cp[%c0, %c0] token = %token : {cpv}, tile<i32> -> {ct}, token
    %d = mmaf %a, %b, %c : {at}, {bt}, {ct}
    %t4 = store_view_tko weak %d, %cp[%c0, %c0] token = %token : {ct}, {cpv}, tile<i32> -> token
    return
  }}
}}
"#,
            atv = tv(mm, kk),
            btv = tv(kk, nn),
            ctv = tv(mm, nn),
            apv = pv(mm, kk),
            bpv = pv(kk, nn),
            cpv = pv(mm, nn),
            at = tile(mm, kk),
            bt = tile(kk, nn),
            ct = tile(mm, nn),
        );
        let out = run_tilec(&["-", "--arch", "sm_80", "-o", "-"], &src);
        assert_eq!(out.status, 0, "{}", out.stderr);
        let smem: usize = out
            .stdout
            .split(".b8 __smem_k[")
            .nth(1)
            .and_then(|r| r.split(']').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        assert!(
            smem <= 32768 && smem < (mm * kk + kk * nn) * 4,
            "{mm}x{nn}x{kk}: not chunked ({smem} bytes)"
        );
        let ks = ptxsim::parse(&out.stdout);
        let (a, b, c) = (g.vec(mm * kk, 3), g.vec(kk * nn, 3), g.vec(mm * nn, 3));
        let mut mem = Memory::default();
        let pa = mem.alloc(&encode(Ty::F32, &a));
        let pb = mem.alloc(&encode(Ty::F32, &b));
        let pc = mem.alloc(&encode(Ty::F32, &c));
        ptxsim::run(kernel(&ks, "k"), [1, 1, 1], &[pa, pb, pc], &mut mem)
            .unwrap_or_else(|e| panic!("{mm}x{nn}x{kk}: {e}"));
        let got = decode(Ty::F32, mem.read(pc, mm * nn * 4));
        assert_same(
            &format!("fallback {mm}x{nn}x{kk}"),
            &got,
            &reference(1, mm, nn, kk, &a, &b, &c),
        );
    }
}

/// The pipelined K loop of examples/matmul (two shared-memory stages, the next tiles
/// loaded during the product) with 1, 2, 3 and 5 K steps, and with none (K = 0: the
/// prologue's loads are bounds-checked padding and the product is the zero accumulator).
#[test]
fn pipelined_matmul_over_few_k_steps() {
    let ks = compile("examples/matmul.tile", &[]);
    let path = repo_root().join("examples/matmul.tile");
    let gpu = run_tilec(
        &[
            "opt",
            path.to_str().unwrap(),
            "-p",
            "canonicalize,convert-to-gpu",
        ],
        "",
    );
    // By default four stages of A (three prologue copies and the body's), B through
    // registers over two.
    assert_eq!(
        (
            gpu.stdout.matches("ttg.async_copy_global_to_local").count(),
            gpu.stdout.matches("ttg.local_store").count(),
            gpu.stdout.matches("ttg.async_wait {num = 2 : i32}").count(),
        ),
        (4, 2, 1),
        "four stages of A and two of B expected:\n{}",
        gpu.stdout
    );
    assert!(
        gpu.stdout.contains("!ttg.memdesc<4x64x32xf16"),
        "{}",
        gpu.stdout
    );
    // And with pipelining off (`--num-stages 1`).
    let single = compile("examples/matmul.tile", &["--num-stages", "1"]);
    for (k, seed) in [(32usize, 11u64), (64, 12), (96, 13), (160, 14), (0, 15)] {
        for ks in [&ks, &single] {
            run_matmul(
                ks,
                "matmul",
                (64, 64, k),
                (64, 64),
                (Ty::F16, Ty::F32),
                false,
                seed,
                0,
            );
        }
    }
}

/// A pipelined K loop that starts at K tile 1 (stages are `(k - lb) & 1`) and whose bound
/// is a kernel argument: D = sum over k in [1, n) of A[:, k] B[k, :].
#[test]
fn pipelined_loop_with_a_nonzero_lower_bound() {
    let src = k_loop_kernel(64, false, 1);
    let src = src.as_str();
    let gpu = run_tilec(&["opt", "-", "-p", "canonicalize,convert-to-gpu"], src);
    assert!(gpu.stdout.contains("ttg.memdesc_index"), "{}", gpu.stdout);
    let out = run_tilec(&["-", "--arch", "sm_80", "-o", "-"], src);
    assert_eq!(out.status, 0, "{}", out.stderr);
    let ks = ptxsim::parse(&out.stdout);
    run_k_loop(&ks, 49, 64, 1, &[1, 2, 3, 4, 8]);
}

/// The pipelined K loop with A provably 8-byte aligned (`assume div_by<16>` on the base,
/// static strides): A's stages are filled by vector `cp.async` with a source size that
/// zero-fills the ragged rows (60 of the tile's 64), for 1 to 8 K steps.
#[test]
fn pipelined_loop_with_vector_async_copies() {
    let src = k_loop_kernel(60, true, 0);
    let src = src.as_str();
    let out = run_tilec(&["-", "--arch", "sm_80", "-o", "-"], src);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("cp.async.ca.shared.global"),
        "no vector async copy:\n{}",
        out.stdout
    );
    let ks = ptxsim::parse(&out.stdout);
    run_k_loop(&ks, 50, 60, 0, &[1, 2, 5, 8]);
}

/// Pipelines of 1 to 6 stages (A by async copies into N stages, B through registers over
/// two) over 0, 1, 2, 3, 5 and 9 K steps, with ragged M, N and K edges (80 x 72 over 64 x 64
/// tiles, K = 32 steps - 7) and 1, 2, 4 and 8 warps: the GPU-level IR has the N stages
/// (`memdesc<N x ...>`, `async_wait {num = N - 2}`, N copies: N - 1 in the prologue), and
/// every result is exact.
#[test]
fn pipelines_of_one_to_six_stages() {
    let path = repo_root().join("examples/matmul.tile");
    for n in 1..=6u32 {
        let stages = n.to_string();
        let gpu = run_tilec(
            &[
                "opt",
                path.to_str().unwrap(),
                "-p",
                "canonicalize,convert-to-gpu",
                "--num-stages",
                &stages,
            ],
            "",
        );
        assert_eq!(gpu.status, 0, "{}", gpu.stderr);
        let copies = gpu.stdout.matches("ttg.async_copy_global_to_local").count();
        if n == 1 {
            assert_eq!(copies, 0, "{n} stages:\n{}", gpu.stdout);
        } else {
            assert_eq!(copies, n as usize, "{n} stages:\n{}", gpu.stdout);
            let wait = format!("ttg.async_wait {{num = {} : i32}}", n - 2);
            let buf = format!("!ttg.memdesc<{n}x64x32xf16");
            assert!(
                gpu.stdout.contains(&wait) && gpu.stdout.contains(&buf),
                "{n} stages:\n{}",
                gpu.stdout
            );
        }
        for warps in ["4", ["1", "2", "8"][n as usize % 3]] {
            let ks = compile(
                "examples/matmul.tile",
                &["--num-stages", &stages, "--num-warps", warps],
            );
            for (steps, seed) in [(0usize, 1u64), (1, 2), (2, 3), (3, 4), (5, 5), (9, 6)] {
                let k = (32 * steps).saturating_sub(7);
                run_matmul(
                    &ks,
                    "matmul",
                    (80, 72, k),
                    (64, 64),
                    (Ty::F16, Ty::F32),
                    false,
                    seed + 10 * n as u64,
                    0,
                );
            }
        }
    }
}

/// The K-loop kernel (lower bound 1, bound a kernel argument; A zero-padded with 60 rows,
/// vector `cp.async` with zero-fill) over 2 to 6 stages, for 0 to 9 K steps: fewer steps
/// than stages leave prologue copies masked off.
#[test]
fn pipelines_of_n_stages_from_a_nonzero_lower_bound() {
    for aligned in [false, true] {
        let src = k_loop_kernel(60, aligned, 1);
        for n in 2..=6 {
            let stages = n.to_string();
            let out = run_tilec(
                &["-", "--arch", "sm_80", "--num-stages", &stages, "-o", "-"],
                &src,
            );
            assert_eq!(out.status, 0, "{}", out.stderr);
            let wait = format!("cp.async.wait_group {};", n - 2);
            assert!(out.stdout.contains(&wait), "{n} stages:\n{}", out.stdout);
            assert_eq!(
                out.stdout.contains("cp.async.ca.shared.global"),
                aligned,
                "{n} stages"
            );
            let ks = ptxsim::parse(&out.stdout);
            run_k_loop(&ks, 60 + n as u64, 60, 1, &[0, 1, 2, 3, 4, 6, 8]);
        }
    }
}

/// The corpus bf16 product over 2 to 6 stages with aligned (K = 128, 192) and unaligned
/// (K = 130, 66) run-time row strides: each stage's copy is versioned on the stride.
#[test]
fn pipelines_of_n_stages_follow_the_run_time_row_stride() {
    for n in 2..=6 {
        let stages = n.to_string();
        let ks = compile(
            "tests/corpus/cutile/matmul_bf16.mlir",
            &["--num-stages", &stages],
        );
        for (k, seed) in [(128usize, 21u64), (192, 22), (130, 23), (66, 24), (40, 25)] {
            run_matmul(
                &ks,
                "matmul_bf16",
                (64, 64, k),
                (64, 64),
                (Ty::BF16, Ty::BF16),
                true,
                seed,
                0,
            );
        }
    }
}

/// Runs kernel `k(A, B, D, n)` of the K-loop tests: A is `rows x 128` f16, B `128 x 64`
/// f16, D the `64 x 64` f32 sum over K tiles `first..n` (16 columns each) of A B, with the
/// rows of A past `rows` zero (padding).
fn run_k_loop(ks: &[ptxsim::Kernel], seed: u64, rows: usize, first: usize, steps: &[usize]) {
    let mut g = Gen(seed);
    let (a, b) = (g.vec(rows * 128, 3), g.vec(128 * 64, 3));
    for &n in steps {
        let mut mem = Memory::default();
        let pa = mem.alloc(&encode(Ty::F16, &a));
        let pb = mem.alloc(&encode(Ty::F16, &b));
        let pd = mem.alloc(&[0; 64 * 64 * 4]);
        ptxsim::run(
            kernel(ks, "k"),
            [1, 1, 1],
            &[pa, pb, pd, n as u64],
            &mut mem,
        )
        .unwrap_or_else(|e| panic!("n = {n}: {e}"));
        let got = decode(Ty::F32, mem.read(pd, 64 * 64 * 4));
        let want: Vec<i64> = (0..64 * 64)
            .map(|e| {
                let (i, j) = (e / 64, e % 64);
                if i >= rows {
                    return 0;
                }
                (16 * first..16 * n)
                    .map(|k| a[i * 128 + k] * b[k * 64 + j])
                    .sum()
            })
            .collect();
        assert_same(&format!("K loop from {first}, n = {n}"), &got, &want);
    }
}

/// The kernel `k(A, B, D, n)` of the K-loop tests: D = sum over K tiles `first..n` of A B
/// (A `rows x 128` f16 in 64x16 tiles, zero padded; B `128 x 64` f16; D `64 x 64` f32),
/// with A's base assumed 16-byte aligned when `aligned`.
fn k_loop_kernel(rows: usize, aligned: bool, first: usize) -> String {
    let a_ptr = if aligned { "%pa0" } else { "%pa" };
    let assume = if aligned {
        "    %pa = assume div_by<16>, %pa0 : tile<ptr<f16>>\n"
    } else {
        ""
    };
    let atv = format!("tensor_view<{rows}x128xf16, strides=[128,1]>");
    let apv = format!("partition_view<tile=(64x16), padding_value = zero, {atv}>");
    let bpv = "partition_view<tile=(16x64), tensor_view<128x64xf16, strides=[64,1]>>";
    let dpv = "partition_view<tile=(64x64), tensor_view<64x64xf32, strides=[64,1]>>";
    format!(
        r#"cuda_tile.module @t {{
  entry @k({a_ptr}: tile<ptr<f16>>, %pb: tile<ptr<f16>>, %pd: tile<ptr<f32>>, %n: tile<i32>) {{
    %token = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %lb = constant <i32: {first}> : tile<i32>
{assume}    %av = make_tensor_view %pa, shape = [{rows}, 128], strides = [128, 1] : {atv}
    %bv = make_tensor_view %pb, shape = [128, 64], strides = [64, 1] : tensor_view<128x64xf16, strides=[64,1]>
    %dv = make_tensor_view %pd, shape = [64, 64], strides = [64, 1] : tensor_view<64x64xf32, strides=[64,1]>
    %at = make_partition_view %av : {apv}
    %bt = make_partition_view %bv : {bpv}
    %dt = make_partition_view %dv : {dpv}
    %z = constant <f32: 0.0> : tile<64x64xf32>
    %acc = for %k in (%lb to %n, step %c1) : tile<i32> iter_values(%x = %z) -> (tile<64x64xf32>) {{
      %a, %t1 = load_view_tko weak %at[%c0, %k] token = %token : {apv}, tile<i32> -> tile<64x16xf16>, token
      %b, %t2 = load_view_tko weak %bt[%k, %c0] token = %token : {bpv}, tile<i32> -> tile<16x64xf16>, token
      %d = mmaf %a, %b, %x : tile<64x16xf16>, tile<16x64xf16>, tile<64x64xf32>
      continue %d : tile<64x64xf32>
    }}
    %st = store_view_tko weak %acc, %dt[%c0, %c0] token = %token : tile<64x64xf32>, {dpv}, tile<i32> -> token
    return
  }}
}}
"#
    )
}

/// The corpus bf16 product (bases `assume div_by<16>`, run-time row strides) picks its A
/// copies at run time: 16-byte `cp.async` when the row stride is a multiple of 8 elements
/// (K = 128, 192), 8-byte ones when it is a multiple of 4 (K = 132), and element-wise
/// copies otherwise (K = 130, 66: rows start 4 bytes apart from a vector boundary), with
/// ragged K tiles.
#[test]
fn async_copies_follow_the_run_time_row_stride() {
    let ks = compile("tests/corpus/cutile/matmul_bf16.mlir", &[]);
    let ptx = run_tilec(
        &[
            repo_root()
                .join("tests/corpus/cutile/matmul_bf16.mlir")
                .to_str()
                .unwrap(),
            "--arch",
            "sm_80",
            "-o",
            "-",
        ],
        "",
    );
    assert!(ptx.stdout.contains("cp.async.ca.shared.global"));
    // A's row stride is K: a multiple of 8 bf16 takes the 16-byte copies, of 4 the 8-byte
    // ones, anything else the element-wise copy (counted by the simulator by width).
    for (k, seed, want) in [
        (128usize, 21u64, 128u32),
        (192, 22, 128),
        (132, 25, 64),
        (130, 23, 16),
        (66, 24, 16),
    ] {
        let stats = run_matmul(
            &ks,
            "matmul_bf16",
            (64, 64, k),
            (64, 64),
            (Ty::BF16, Ty::BF16),
            true,
            seed,
            0,
        );
        // A's 64 x K bf16 elements moved at that width (B, read through a transposing
        // dim_map, moves element by element; C's stores are 128-bit), and no 8-byte
        // accesses but A's.
        let at = stats.global.get(&want).copied().unwrap_or(0);
        assert!(at >= 64 * k as u64 * 2, "K = {k}: {:?}", stats.global);
        assert_eq!(
            stats.global.contains_key(&64),
            want == 64,
            "K = {k}: {:?}",
            stats.global
        );
    }
}

/// A kernel parsed and converted to the GPU-level IR, for tests that rewrite that IR.
fn gpu_module(src: &str) -> (tilec_ir::Module, tilec_ptx::Options) {
    let mut m =
        tilec_parse::parse(src, tilec_diag::FileId(0), &Default::default()).expect("kernel parses");
    let opts = tilec_ptx::Options {
        arch: tilec_ptx::Arch::Sm80,
        ..Default::default()
    };
    tilec_ptx::convert_to_gpu(&mut m, &opts);
    (m, opts)
}

/// The ops of `m` with `opcode`, in program order.
fn ops_of(m: &tilec_ir::Module, opcode: tilec_ir::Opcode) -> Vec<tilec_ir::Op> {
    let mut found = Vec::new();
    m.walk(|op| {
        if m.opcode(op) == opcode {
            found.push(op);
        }
    });
    found
}

/// `ttg.warp_id` (which convert-to-gpu does not produce: the warp number is only used
/// inside op lowerings) is each thread's warp: a kernel stores a constant, the test swaps
/// the constant for `ttg.warp_id` in the GPU-level IR, and each thread's element of the
/// blocked 128-element result (element e is held by thread e) holds e / 32.
#[test]
fn warp_id_is_the_warp_of_each_thread() {
    let src = r#"cuda_tile.module @t {
  entry @k(%y_ptr: tile<ptr<i32>>) {
    %token = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %w = constant <i32: 7> : tile<i32>
    %yv = make_tensor_view %y_ptr, shape = [128], strides = [1] : tensor_view<128xi32, strides=[1]>
    %yp = make_partition_view %yv : partition_view<tile=(128), tensor_view<128xi32, strides=[1]>>
    %r = reshape %w : tile<i32> -> tile<1xi32>
    %b = broadcast %r : tile<1xi32> -> tile<128xi32>
    %yt = store_view_tko weak %b, %yp[%c0] token = %token : tile<128xi32>, partition_view<tile=(128), tensor_view<128xi32, strides=[1]>>, tile<i32> -> token
    return
  }
}
"#;
    let (mut m, opts) = gpu_module(src);
    let reshape = ops_of(&m, tilec_ir::Opcode::Reshape)[0];
    let seven = m.defining_op(m.operand(reshape, 0)).expect("constant 7");
    let old = m.result(seven, 0);
    let ty = m.value_type(old);
    let w = m.create_op(
        &tilec_ir::OpSpec {
            opcode: tilec_ir::Opcode::WarpId,
            operands: &[],
            results: &[ty],
            attrs: &[None],
            regions: 0,
        },
        tilec_ir::InsertPoint::Before(seven),
    );
    let new = m.result(w, 0);
    m.replace_all_uses(old, new);
    m.erase_op(seven);
    tilec_ptx::verify_gpu(&m, &opts).expect("valid GPU-level IR");
    let ptx = tilec_ptx::compile_gpu(&[m], &opts, None).expect("compiles");
    assert!(ptx.contains("shr.u32"), "{ptx}");
    let ks = ptxsim::parse(&ptx);
    let mut mem = Memory::default();
    let py = mem.alloc(&[0; 512]);
    ptxsim::run(kernel(&ks, "k"), [1, 1, 1], &[py], &mut mem).expect("runs");
    let got = i32s(mem.read(py, 512));
    let want: Vec<i32> = (0..128).map(|e| e / 32).collect();
    assert_eq!(got, want);
}

/// `ttg.memdesc_reinterpret` (which convert-to-gpu does not produce) views the bytes of a
/// buffer with another element type: a 64 x i32 tile stored through a buffer read back as
/// 128 x i16 gives the same bytes.
#[test]
fn memdesc_reinterpret_keeps_the_bytes() {
    let src = r#"cuda_tile.module @t {
  entry @k(%x_ptr: tile<ptr<i32>>, %y_ptr: tile<ptr<i16>>) {
    %token = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %xv = make_tensor_view %x_ptr, shape = [64], strides = [1] : tensor_view<64xi32, strides=[1]>
    %xp = make_partition_view %xv : partition_view<tile=(64), tensor_view<64xi32, strides=[1]>>
    %yv = make_tensor_view %y_ptr, shape = [128], strides = [1] : tensor_view<128xi16, strides=[1]>
    %yp = make_partition_view %yv : partition_view<tile=(128), tensor_view<128xi16, strides=[1]>>
    %x, %xt = load_view_tko weak %xp[%c0] token = %token : partition_view<tile=(64), tensor_view<64xi32, strides=[1]>>, tile<i32> -> tile<64xi32>, token
    %z = constant <i16: 0> : tile<128xi16>
    %yt = store_view_tko weak %z, %yp[%c0] token = %xt : tile<128xi16>, partition_view<tile=(128), tensor_view<128xi16, strides=[1]>>, tile<i32> -> token
    return
  }
}
"#;
    use tilec_ir::{InsertPoint, OpSpec, Opcode, TypeData};
    let (mut m, opts) = gpu_module(src);
    let store = ops_of(&m, Opcode::StoreViewTko)[0];
    let x = m.result(ops_of(&m, Opcode::LoadViewTko)[0], 0);
    let y_ty = m.value_type(m.operand(store, 0));
    let md = |m: &mut tilec_ir::Module, shape: &[i64], elem| {
        m.ctx.types.intern(TypeData::MemDesc {
            shape: shape.into(),
            elem,
            mutable: false,
            order: tilec_ir::TypeStore::row_major_order(1),
            swizzle: tilec_ir::Swizzle::NONE,
        })
    };
    let (md32, md16) = (
        md(&mut m, &[64], tilec_ir::Type::I32),
        md(&mut m, &[128], tilec_ir::Type::I16),
    );
    let create = |m: &mut tilec_ir::Module,
                  opcode,
                  operands: &[tilec_ir::Value],
                  results: &[tilec_ir::Type],
                  attrs: &[Option<tilec_ir::Attr>]| {
        m.create_op(
            &OpSpec {
                opcode,
                operands,
                results,
                attrs,
                regions: 0,
            },
            InsertPoint::Before(store),
        )
    };
    let alloc = create(&mut m, Opcode::LocalAlloc, &[x], &[md32], &[]);
    let buf = m.result(alloc, 0);
    let local = m
        .ctx
        .attrs
        .enum_case(tilec_ir::attrs::EnumKind::AddrSpace, 1);
    create(&mut m, Opcode::GpuBarrier, &[], &[], &[Some(local)]);
    let re = create(&mut m, Opcode::MemDescReinterpret, &[buf], &[md16], &[]);
    let view = m.result(re, 0);
    let load = create(&mut m, Opcode::LocalLoad, &[view], &[y_ty], &[]);
    let y = m.result(load, 0);
    create(&mut m, Opcode::LocalDealloc, &[buf], &[], &[]);
    m.set_operand(store, 0, y);
    tilec_ptx::GpuPass::AllocateShared
        .run(&mut m, &opts)
        .expect("places the buffer");
    tilec_ptx::verify_gpu(&m, &opts).expect("valid GPU-level IR");
    let ptx = tilec_ptx::compile_gpu(&[m], &opts, None).expect("compiles");
    let ks = ptxsim::parse(&ptx);
    let mut g = Gen(59);
    let x = encode(Ty::I32, &g.vec(64, 1 << 30));
    let mut mem = Memory::default();
    let px = mem.alloc(&x);
    let py = mem.alloc(&[0; 256]);
    ptxsim::run(kernel(&ks, "k"), [1, 1, 1], &[px, py], &mut mem).expect("runs");
    assert_eq!(mem.read(py, 256), &x[..]);
}

/// A kernel in which every thread stores to shared byte 0: `VALUE` is the register stored.
fn shared_store_kernel(value: &str) -> String {
    format!(
        ".version 7.8\n.target sm_90\n.address_size 64\n.visible .entry k(\n\t.param .u64 k_param_0\n)\n.reqntid 64, 1, 1\n{{\n\t.reg .b32 \t%r<4>;\n\t.shared .align 16 .b8 __smem_k[16];\n\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r3, 7;\n\tmov.u32 %r2, __smem_k;\n\tst.shared.u32 [%r2+0], {value};\n\tret;\n}}\n"
    )
}

/// The race detector: threads storing different values to one shared word with no
/// barrier between is a race; storing the same value (a warp writing its reduced value
/// from every lane) is not.
#[test]
fn racing_shared_stores_are_caught_and_agreeing_ones_are_not() {
    let mut mem = Memory::default();
    let p = mem.alloc(&[0; 8]);
    let racy = ptxsim::parse(&shared_store_kernel("%r1"));
    let Err(e) = ptxsim::run(&racy[0], [1, 1, 1], &[p], &mut mem) else {
        panic!("the race went unnoticed")
    };
    assert!(
        e.contains("thread 1 overwrites shared byte 0 that thread 0 wrote with no barrier between"),
        "{e}"
    );
    let agreeing = ptxsim::parse(&shared_store_kernel("%r3"));
    ptxsim::run(&agreeing[0], [1, 1, 1], &[p], &mut mem).expect("same value from every thread");
}

/// Warp shuffles and global atomics as tilec's reductions and histograms use them.
#[test]
fn shuffles_and_atomics() {
    let ptx = ".version 7.8\n.target sm_90\n.address_size 64\n.visible .entry k(\n\t.param .u64 k_param_0\n)\n.reqntid 64, 1, 1\n{\n\t.reg .b32 \t%r<8>;\n\t.reg .b64 \t%rd<4>;\n\tmov.u32 %r1, %tid.x;\n\tshfl.sync.bfly.b32 %r2, %r1, 1, 31, -1;\n\tshfl.sync.down.b32 %r5, %r1, 4, 31, -1;\n\tld.param.u64 %rd1, [k_param_0];\n\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\tst.global.u32 [%rd3+0], %r2;\n\tst.global.u32 [%rd3+256], %r5;\n\tatom.relaxed.gpu.global.add.u32 %r3, [%rd1+512], %r1;\n\tatom.relaxed.gpu.global.max.s32 %r4, [%rd1+516], %r1;\n\tret;\n}\n";
    let k = ptxsim::parse(ptx);
    let mut mem = Memory::default();
    let p = mem.alloc(&[0; 520]);
    ptxsim::run(&k[0], [1, 1, 1], &[p], &mut mem).expect("runs");
    let words: Vec<u32> = mem
        .read(p, 520)
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let bfly: Vec<u32> = (0..64).map(|t| t ^ 1).collect();
    assert_eq!(&words[..64], &bfly[..]);
    // down by 4: lanes 28..31 of each warp keep their own value.
    let down: Vec<u32> = (0..64)
        .map(|t| if t % 32 < 28 { t + 4 } else { t })
        .collect();
    assert_eq!(&words[64..128], &down[..]);
    assert_eq!(words[128], (0..64).sum::<u32>());
    assert_eq!(words[129], 63);
}

/// `atomic_rmw_tko ... addf` on bf16 for sm_80, which has no `atom.add.bf16`: a
/// compare-and-swap loop on the 16-bit element. Four tile blocks add their tiles into one
/// buffer (the simulator runs them one after another); every step must be the correctly
/// rounded bf16 sum, and masked-out elements stay untouched.
#[test]
fn bf16_atomic_add_before_sm90_is_a_cas_loop() {
    let src = r#"cuda_tile.module @m {
  entry @acc(%dst: !cuda_tile.tile<ptr<bf16>>, %src: !cuda_tile.tile<ptr<bf16>>) {
    %bid, %by, %bz = get_tile_block_id : tile<i32>
    %i = iota : tile<8xi32>
    %c8 = constant <i32: 8> : tile<8xi32>
    %b1 = reshape %bid : tile<i32> -> tile<1xi32>
    %bb = broadcast %b1 : tile<1xi32> -> tile<8xi32>
    %row = muli %bb, %c8 : tile<8xi32>
    %j = addi %row, %i : tile<8xi32>
    %s1 = reshape %src : tile<ptr<bf16>> -> tile<1xptr<bf16>>
    %sb = broadcast %s1 : tile<1xptr<bf16>> -> tile<8xptr<bf16>>
    %sp = offset %sb, %j : tile<8xptr<bf16>>, tile<8xi32> -> tile<8xptr<bf16>>
    %v, %t0 = load_ptr_tko weak %sp : tile<8xptr<bf16>> -> tile<8xbf16>, token
    %d1 = reshape %dst : tile<ptr<bf16>> -> tile<1xptr<bf16>>
    %db = broadcast %d1 : tile<1xptr<bf16>> -> tile<8xptr<bf16>>
    %dp = offset %db, %i : tile<8xptr<bf16>>, tile<8xi32> -> tile<8xptr<bf16>>
    %c7 = constant <i32: 7> : tile<8xi32>
    %m = cmpi less_than %i, %c7, signed : tile<8xi32> -> tile<8xi1>
    %r, %t1 = atomic_rmw_tko relaxed device %dp, addf, %v, %m : tile<8xptr<bf16>>, tile<8xbf16>, tile<8xi1> -> tile<8xbf16>, token
    return
  }
}
"#;
    let out = run_tilec(&["-", "--arch", "sm_80", "-o", "-"], src);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("atom.relaxed.gpu.global.cas.b16"),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("add.noftz.bf16"), "{}", out.stdout);
    let ks = ptxsim::parse(&out.stdout);
    let start: Vec<f32> = vec![1.0, -3.5, 1.0e30, 0.0078125, 256.0, -0.0, 7.0, 99.0];
    // Addends that need rounding: halfway cases, cancellations, tiny against large.
    let adds: Vec<f32> = (0..32)
        .map(|i| match i % 8 {
            0 => 0.00390625,
            1 => 3.5 + i as f32,
            2 => 1.0e28,
            3 => -0.0078125 * (i as f32),
            4 => 1.0,
            5 => 0.0,
            6 => -7.0 + i as f32 * 0.25,
            _ => 1.0,
        })
        .collect();
    let bf = |v: &[f32]| -> Vec<u8> {
        v.iter()
            .flat_map(|&x| f32_to_bf16(x).to_le_bytes())
            .collect()
    };
    let mut mem = Memory::default();
    let pd = mem.alloc(&bf(&start));
    let ps = mem.alloc(&bf(&adds));
    ptxsim::run(kernel(&ks, "acc"), [4, 1, 1], &[pd, ps], &mut mem).expect("runs");
    let got: Vec<u16> = mem
        .read(pd, 16)
        .chunks(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    for e in 0..8 {
        let mut want = f32_to_bf16(start[e]);
        if e < 7 {
            for blk in 0..4 {
                // The exact sum of two bf16 values, rounded once to bf16 (f64 holds it).
                let sum = f64::from(bf16_to_f32(want))
                    + f64::from(bf16_to_f32(f32_to_bf16(adds[blk * 8 + e])));
                want = f32_to_bf16(sum as f32);
            }
        }
        assert_eq!(got[e], want, "element {e}");
    }
}

/// A kernel that loads a 1-D tile of `ty` through a view (base `div_by<16>`), applies
/// `body` (`%b` from `%a`) and stores it; and one that does the same through pointers
/// masked by `index < n` (`n` a multiple of 16, so that the mask is constant over every
/// vector).
fn narrow_kernels(ty: &str, tile: usize, body: &str) -> String {
    let tv = format!("tensor_view<?x{ty}, strides=[1]>");
    let pv_in = format!("partition_view<tile=({tile}), padding_value = zero, {tv}>");
    let pv_out = format!("partition_view<tile=({tile}), {tv}>");
    let t = format!("tile<{tile}x{ty}>");
    let ti = format!("tile<{tile}xi32>");
    let tp = format!("tile<{tile}xptr<{ty}>>");
    format!(
        r#"cuda_tile.module @narrow {{
  entry @view(%x: tile<ptr<{ty}>>, %y: tile<ptr<{ty}>>, %n: tile<i32>) {{
    %xa = assume div_by<16>, %x : tile<ptr<{ty}>>
    %ya = assume div_by<16>, %y : tile<ptr<{ty}>>
    %token = make_token : token
    %xv = make_tensor_view %xa, shape = [%n], strides = [1] : tile<i32> -> {tv}
    %yv = make_tensor_view %ya, shape = [%n], strides = [1] : tile<i32> -> {tv}
    %xp = make_partition_view %xv : {pv_in}
    %yp = make_partition_view %yv : {pv_out}
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %a, %t1 = load_view_tko weak %xp[%bx] token = %token : {pv_in}, tile<i32> -> {t}, token
    {body}
    %t2 = store_view_tko weak %b, %yp[%bx] token = %token : {t}, {pv_out}, tile<i32> -> token
    return
  }}
  entry @ptrs(%x: tile<ptr<{ty}>>, %y: tile<ptr<{ty}>>, %n: tile<i32>) {{
    %xa = assume div_by<16>, %x : tile<ptr<{ty}>>
    %ya = assume div_by<16>, %y : tile<ptr<{ty}>>
    %token = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %lane = iota : {ti}
    %size = constant <i32: {tile}> : tile<i32>
    %start = muli %bx, %size : tile<i32>
    %start_r = reshape %start : tile<i32> -> tile<1xi32>
    %start_v = broadcast %start_r : tile<1xi32> -> {ti}
    %idx = addi %start_v, %lane : {ti}
    %n16 = assume div_by<16>, %n : tile<i32>
    %n_r = reshape %n16 : tile<i32> -> tile<1xi32>
    %n_v = broadcast %n_r : tile<1xi32> -> {ti}
    %mask = cmpi less_than %idx, %n_v, signed : {ti} -> tile<{tile}xi1>
    %x_r = reshape %xa : tile<ptr<{ty}>> -> tile<1xptr<{ty}>>
    %x_b = broadcast %x_r : tile<1xptr<{ty}>> -> {tp}
    %x_ptrs = offset %x_b, %idx : {tp}, {ti} -> {tp}
    %y_r = reshape %ya : tile<ptr<{ty}>> -> tile<1xptr<{ty}>>
    %y_b = broadcast %y_r : tile<1xptr<{ty}>> -> {tp}
    %y_ptrs = offset %y_b, %idx : {tp}, {ti} -> {tp}
    %a, %t1 = load_ptr_tko weak %x_ptrs, %mask token=%token : {tp}, tile<{tile}xi1> -> {t}, token
    {body}
    %t2 = store_ptr_tko weak %y_ptrs, %b, %mask token=%token : {tp}, {t}, tile<{tile}xi1> -> token
    return
  }}
}}
"#
    )
}

/// 16-bit and 8-bit elements move 16 bytes per access (`ld/st.global.v4.b32`, unpacked
/// with `mov.b32 {lo, hi}` or `bfe.s32`, packed with `mov.b32` or `prmt.b32`), exactly,
/// with ragged ends (the partly-in-bounds vector goes element by element) and nothing
/// written past `n`.
#[test]
fn narrow_elements_move_in_128_bit_accesses() {
    // (element type, bytes, tile, body, reference on the raw bits)
    type Ref = fn(u64) -> u64;
    let cases: [(&str, usize, usize, String, Ref); 4] = [
        (
            "f16",
            2,
            1024,
            "%b = negf %a : tile<1024xf16>".into(),
            |x| x ^ 0x8000,
        ),
        (
            "bf16",
            2,
            1024,
            "%b = negf %a : tile<1024xbf16>".into(),
            |x| x ^ 0x8000,
        ),
        (
            "i16",
            2,
            1024,
            "%c = constant <i16: 1234> : tile<1024xi16>\n    %b = addi %a, %c : tile<1024xi16>"
                .into(),
            |x| (x + 1234) & 0xFFFF,
        ),
        (
            "i8",
            1,
            2048,
            "%c = constant <i8: -7> : tile<2048xi8>\n    %b = addi %a, %c : tile<2048xi8>".into(),
            |x| (x + 0xF9) & 0xFF,
        ),
    ];
    const SENTINEL: u8 = 0x5A;
    for (ty, size, tile, body, reference) in cases {
        let src = narrow_kernels(ty, tile, &body);
        let out = run_tilec(&["-", "--arch", "sm_80", "-o", "-"], &src);
        assert_eq!(out.status, 0, "{ty}: {}", out.stderr);
        for (what, want) in [("ld.global.v4.b32", 2), ("st.global.v4.b32", 2)] {
            // At least one in each kernel.
            assert!(
                out.stdout.matches(what).count() >= want,
                "{ty}: fewer than {want} {what}:\n{}",
                out.stdout
            );
        }
        if let Some(ptxas) = tilec_tests::ptxas::find() {
            let file =
                std::env::temp_dir().join(format!("tilec-narrow-{}-{ty}.ptx", std::process::id()));
            std::fs::write(&file, &out.stdout).unwrap();
            for arch in ["sm_80", "sm_90"] {
                let r = tilec_tests::ptxas::assemble(&ptxas, &file, arch);
                assert!(
                    r.ok && r.problems.is_empty(),
                    "{ty} {arch}: {:?}",
                    r.problems
                );
            }
            let _ = std::fs::remove_file(&file);
        }
        let ks = ptxsim::parse(&out.stdout);
        let mut g = Gen(size as u64 * 7 + tile as u64);
        for name in ["view", "ptrs"] {
            let sizes: &[usize] = if name == "view" {
                &[1, 7, 8, 15, 16, 17, tile - 1, tile, tile + 9, 3 * tile + 5]
            } else {
                &[16, 32, tile - 16, tile, tile + 16, 3 * tile + 48]
            };
            for &n in sizes {
                let x: Vec<u8> = (0..n * size).map(|_| g.next(127) as u8).collect();
                let mut mem = Memory::default();
                let px = mem.alloc(&x);
                let py = mem.alloc(&vec![SENTINEL; n * size + 64]);
                let grid = [n.div_ceil(tile) as u64, 1, 1];
                ptxsim::run(kernel(&ks, name), grid, &[px, py, n as u64], &mut mem)
                    .unwrap_or_else(|e| panic!("{ty} {name} n={n}: {e}"));
                let got = mem.read(py, n * size + 64).to_vec();
                for i in 0..n {
                    let le = |b: &[u8]| b.iter().rev().fold(0u64, |v, b| v << 8 | *b as u64);
                    let xi = le(&x[i * size..(i + 1) * size]);
                    let yi = le(&got[i * size..(i + 1) * size]);
                    assert_eq!(yi, reference(xi), "{ty} {name} n={n} at {i}");
                }
                assert!(
                    got[n * size..].iter().all(|b| *b == SENTINEL),
                    "{ty} {name} n={n}: wrote past the end"
                );
            }
        }
    }
}

/// The static bank-conflict check (`tilec_ptx::banks`) over every example and cuTile
/// corpus kernel, at 4 and 8 warps: the GPU-level IR `tilec opt -p
/// canonicalize,convert-to-gpu` prints is compiled with `tilec_ptx::compile_gpu_stats`;
/// every tensor-core operand fragment read from shared memory is an `ldmatrix` (the
/// writer's counts, and in the PTX: no `mma.sync` operand register of A or B is loaded by
/// anything but an `ldmatrix`, or packed in registers), and no `ldmatrix` phase nor vector
/// write (`st.shared.v*`, `cp.async`) into a swizzled operand buffer has a bank conflict
/// (element-wise writes are counted and printed: a 2-byte store per lane of a layout with
/// runs of 4 elements conflicts 2-way whatever the swizzle).
#[test]
fn mma_operand_reads_are_conflict_free_ldmatrix() {
    use std::collections::HashMap;
    let mut inputs = tilec_tests::example_files();
    let corpus = repo_root().join("tests/corpus/cutile");
    let mut files: Vec<_> = std::fs::read_dir(&corpus)
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "mlir"));
    files.sort();
    inputs.extend(files);
    let mut total = tilec_ptx::SmemStats::default();
    let (mut checked, mut with_mma) = (0, 0);
    for path in &inputs {
        let p = path.to_str().expect("utf-8 path");
        for warps in ["4", "8"] {
            let gpu = run_tilec(
                &[
                    "opt",
                    p,
                    "-p",
                    "canonicalize,convert-to-gpu",
                    "--num-warps",
                    warps,
                    "--arch",
                    "sm_90",
                ],
                "",
            );
            if gpu.status != 0 {
                // Split inputs and kernels the backend refuses (tests/ptx.rs checks them).
                continue;
            }
            let m = tilec_parse::parse(&gpu.stdout, tilec_diag::FileId(0), &Default::default())
                .unwrap_or_else(|e| panic!("{p}: GPU-level IR parses: {e:?}"));
            let opts = tilec_ptx::Options {
                arch: tilec_ptx::Arch::Sm90,
                num_warps: tilec_ptx::gpu_num_warps(&m),
                ..Default::default()
            };
            let (ptx, st) = tilec_ptx::compile_gpu_stats(&[m], &opts, None)
                .unwrap_or_else(|e| panic!("{p}: compiles: {e:?}"));
            checked += 1;
            // Independently, in the PTX: what defines each A and B register of an mma.
            let mut def: HashMap<String, String> = HashMap::new();
            let (mut mmas, mut ldmatrix) = (0, 0);
            for line in ptx.lines().map(str::trim) {
                let Some((opcode, args)) = line.split_once(' ') else {
                    continue;
                };
                if opcode.starts_with("ldmatrix") {
                    ldmatrix += 1;
                }
                let groups: Vec<&str> = args
                    .split('{')
                    .skip(1)
                    .filter_map(|g| g.split_once('}').map(|(g, _)| g))
                    .collect();
                if opcode.starts_with("mma.sync") {
                    mmas += 1;
                    for g in &groups[1..3] {
                        for r in g.split(',').map(str::trim) {
                            let d = def.get(r).map_or("(none)", String::as_str);
                            assert!(
                                d.starts_with("ldmatrix") || d == "mov.b32" || d == "prmt.b32",
                                "{p} ({warps} warps): mma operand {r} defined by {d}"
                            );
                        }
                    }
                }
                let dests: Vec<&str> = if args.trim_start().starts_with('{') {
                    groups
                        .first()
                        .map(|g| g.split(',').map(str::trim).collect())
                        .unwrap_or_default()
                } else {
                    args.split(',').next().map(str::trim).into_iter().collect()
                };
                for d in dests {
                    def.insert(d.to_string(), opcode.to_string());
                }
            }
            assert_eq!(ldmatrix, st.ldmatrix as usize, "{p}: ldmatrix count");
            assert_eq!(
                st.fragment_ld_shared, 0,
                "{p}: fragments read with ld.shared"
            );
            assert_eq!(
                st.read_conflicts, 0,
                "{p} ({warps} warps): ldmatrix conflicts"
            );
            assert_eq!(
                st.write_conflicts, 0,
                "{p} ({warps} warps): write conflicts"
            );
            if mmas > 0 && st.ldmatrix > 0 {
                with_mma += 1;
            }
            total.add(&st);
        }
    }
    println!(
        "{checked} compilations, {with_mma} with staged tensor-core operands: {} ldmatrix ({} phases, {} conflicts), {} fragment ld.shared; operand buffer writes: {} vector phases ({} conflicts), {} element-wise phases ({} conflicts)",
        total.ldmatrix,
        total.read_phases,
        total.read_conflicts,
        total.fragment_ld_shared,
        total.write_phases,
        total.write_conflicts,
        total.scalar_write_phases,
        total.scalar_write_conflicts,
    );
    assert!(checked >= 80, "{checked} compilations");
    assert!(
        with_mma >= 10,
        "{with_mma} compilations with staged operands"
    );
}

/// A one-CTA kernel `D = A x B + C` (`m x k` by `k x n`, row-major views) for one
/// tensor-core kind: `f16`, `bf16`, `tf32` (f32 in memory, `ftof` to tf32) or `i8` (`mmai`,
/// signed, i32 accumulator).
fn mma_kernel(kind: &str, m: usize, n: usize, k: usize) -> String {
    let (mem, acc) = match kind {
        "tf32" => ("f32", "f32"),
        "i8" => ("i8", "i32"),
        t => (t, "f32"),
    };
    let view = |name: &str, r: usize, c: usize, ty: &str| {
        format!(
            "    %{name}_view = make_tensor_view %{name}_ptr, shape = [{r}, {c}], strides = [{c}, 1] : tensor_view<{r}x{c}x{ty}, strides=[{c},1]>\n    %{name}_tiles = make_partition_view %{name}_view : partition_view<tile=({r}x{c}), tensor_view<{r}x{c}x{ty}, strides=[{c},1]>>\n"
        )
    };
    let load = |name: &str, r: usize, c: usize, ty: &str| {
        format!(
            "{}    %{name}, %{name}_tok = load_view_tko weak %{name}_tiles[%c0, %c0] token = %token : partition_view<tile=({r}x{c}), tensor_view<{r}x{c}x{ty}, strides=[{c},1]>>, tile<i32> -> tile<{r}x{c}x{ty}>, token\n",
            view(name, r, c, ty)
        )
    };
    let mut s = format!(
        "cuda_tile.module @m {{\n  entry @mma(%a_ptr: tile<ptr<{mem}>>, %b_ptr: tile<ptr<{mem}>>, %c_ptr: tile<ptr<{acc}>>, %d_ptr: tile<ptr<{acc}>>) {{\n    %token = make_token : token\n    %c0 = constant <i32: 0> : tile<i32>\n"
    );
    s += &load("a", m, k, mem);
    s += &load("b", k, n, mem);
    s += &load("c", m, n, acc);
    let (a, b, op) = match kind {
        "tf32" => {
            s += &format!("    %a_t = ftof %a : tile<{m}x{k}xf32> -> tile<{m}x{k}xtf32>\n");
            s += &format!("    %b_t = ftof %b : tile<{k}x{n}xf32> -> tile<{k}x{n}xtf32>\n");
            ("%a_t", "%b_t", "mmaf")
        }
        "i8" => ("%a", "%b", "mmai"),
        _ => ("%a", "%b", "mmaf"),
    };
    let ty = if kind == "tf32" { "tf32" } else { mem };
    let signed = if kind == "i8" { " signed signed" } else { "" };
    s += &format!(
        "    %d = {op} {a}, {b}, %c{signed} : tile<{m}x{k}x{ty}>, tile<{k}x{n}x{ty}>, tile<{m}x{n}x{acc}>\n"
    );
    s += &view("d", m, n, acc);
    s += &format!(
        "    %d_tok = store_view_tko weak %d, %d_tiles[%c0, %c0] token = %token : tile<{m}x{n}x{acc}>, partition_view<tile=({m}x{n}), tensor_view<{m}x{n}x{acc}, strides=[{n},1]>>, tile<i32> -> token\n    return\n  }}\n}}\n"
    );
    s
}

/// Tensor-core operands staged in swizzled shared memory and read with `ldmatrix`, for
/// every kind (f16, bf16, tf32, i8, and on sm_89 e4m3 and e5m2 into f32) at shapes whose
/// K rows are 32, 64, 128 and 256 bytes (every `perPhase`/`maxPhase` the swizzle choice
/// gives), with 1, 4 and 8 warps: the simulator (which checks `ldmatrix` row alignment and
/// shared-memory races) computes the product exactly.
#[test]
fn swizzled_staging_of_every_mma_kind() {
    let mut runs = 0;
    for (kind, kmin, ta, tc) in [
        ("f16", 16, Ty::F16, Ty::F32),
        ("bf16", 16, Ty::BF16, Ty::F32),
        ("tf32", 8, Ty::F32, Ty::F32),
        ("i8", 32, Ty::I8, Ty::I32),
        ("f8E4M3FN", 32, Ty::E4M3, Ty::F32),
        ("f8E5M2", 32, Ty::E5M2, Ty::F32),
    ] {
        // float8 products are sm_89's.
        let arch = if kind.starts_with("f8") {
            "sm_89"
        } else {
            "sm_80"
        };
        for (m, n, k, warps) in [
            (16, 8, kmin, "4"),
            (32, 32, 2 * kmin, "4"),
            (64, 32, 4 * kmin, "8"),
            (32, 64, 8 * kmin, "4"),
            (64, 16, 2 * kmin, "1"),
        ] {
            let src = mma_kernel(kind, m, n, k);
            let out = run_tilec(
                &["-", "--arch", arch, "--num-warps", warps, "-o", "-"],
                &src,
            );
            assert_eq!(out.status, 0, "{kind} {m}x{n}x{k}: {}\n{src}", out.stderr);
            let ldmatrix = out.stdout.matches("ldmatrix.sync").count();
            assert!(ldmatrix > 0, "{kind} {m}x{n}x{k}: no ldmatrix");
            // A's bytes are staged four to a 32-bit word (packed with `prmt`), up to 16
            // bytes a store, not one by one, where every thread holds 16 of them (B,
            // transposed on its way, still goes byte by byte).
            let threads = 32 * warps.parse::<usize>().expect("warps");
            if (ta == Ty::I8 || kind.starts_with("f8")) && m * k >= 16 * threads {
                assert!(
                    out.stdout.contains("prmt.b32")
                        && ["st.shared.b32", "st.shared.v2.b32", "st.shared.v4.b32"]
                            .iter()
                            .any(|st| out.stdout.contains(st)),
                    "{kind} {m}x{n}x{k}: A's bytes one by one"
                );
            }
            assert!(!out.stdout.contains("ld.shared.b32"), "{kind} {m}x{n}x{k}");
            let ks = ptxsim::parse(&out.stdout);
            let mut g = Gen(runs + 3);
            let r = if kind == "i8" { 127 } else { 3 };
            let a = g.vec(m * k, r);
            let b = g.vec(k * n, r);
            let c = g.vec(m * n, 100);
            let mut mem = Memory::default();
            let pa = mem.alloc(&encode(ta, &a));
            let pb = mem.alloc(&encode(ta, &b));
            let pc = mem.alloc(&encode(tc, &c));
            let pd = mem.alloc(&vec![0xAB; m * n * bytes_of(tc)]);
            let st = ptxsim::run(kernel(&ks, "mma"), [1, 1, 1], &[pa, pb, pc, pd], &mut mem)
                .unwrap_or_else(|e| panic!("{kind} {m}x{n}x{k} ({warps} warps): {e}"));
            assert!(st.mma > 0, "{kind} {m}x{n}x{k}: no mma.sync ran");
            let got = decode(tc, mem.read(pd, m * n * bytes_of(tc)));
            assert_same(
                &format!("{kind} {m}x{n}x{k} ({warps} warps)"),
                &got,
                &reference(1, m, n, k, &a, &b, &c),
            );
            runs += 1;
        }
    }
    assert_eq!(runs, 30);
}

/// Two conversions the simulator caught once it modelled PTX's canonical NaN and ran the
/// random sweep's math: f32 to tf32 rounds ties to even (`cvt.rna.tf32.f32` rounds them
/// away from zero), and a bf16 result rounded toward +inf from an f32 NaN stays NaN (the
/// step of one ulp carried the canonical NaN 0x7FFFFFFF into the sign: -0).
#[test]
fn tf32_ties_go_to_even_and_directed_bf16_keeps_nan() {
    let src = r#"cuda_tile.module @m {
  entry @k(%x: tile<ptr<f32>>, %y: tile<ptr<f32>>, %a: tile<ptr<bf16>>, %b: tile<ptr<bf16>>, %c: tile<ptr<bf16>>) {
    %t = make_token : token
    %i = iota : tile<8xi32>
    %xr = reshape %x : tile<ptr<f32>> -> tile<1xptr<f32>>
    %xb = broadcast %xr : tile<1xptr<f32>> -> tile<8xptr<f32>>
    %xp = offset %xb, %i : tile<8xptr<f32>>, tile<8xi32> -> tile<8xptr<f32>>
    %yr = reshape %y : tile<ptr<f32>> -> tile<1xptr<f32>>
    %yb = broadcast %yr : tile<1xptr<f32>> -> tile<8xptr<f32>>
    %yp = offset %yb, %i : tile<8xptr<f32>>, tile<8xi32> -> tile<8xptr<f32>>
    %v, %t1 = load_ptr_tko weak %xp token=%t : tile<8xptr<f32>> -> tile<8xf32>, token
    %w = ftof %v : tile<8xf32> -> tile<8xtf32>
    %z = ftof %w : tile<8xtf32> -> tile<8xf32>
    %t2 = store_ptr_tko weak %yp, %z token=%t1 : tile<8xptr<f32>>, tile<8xf32> -> token
    %ar = reshape %a : tile<ptr<bf16>> -> tile<1xptr<bf16>>
    %ab = broadcast %ar : tile<1xptr<bf16>> -> tile<8xptr<bf16>>
    %ap = offset %ab, %i : tile<8xptr<bf16>>, tile<8xi32> -> tile<8xptr<bf16>>
    %br = reshape %b : tile<ptr<bf16>> -> tile<1xptr<bf16>>
    %bb = broadcast %br : tile<1xptr<bf16>> -> tile<8xptr<bf16>>
    %bp = offset %bb, %i : tile<8xptr<bf16>>, tile<8xi32> -> tile<8xptr<bf16>>
    %cr = reshape %c : tile<ptr<bf16>> -> tile<1xptr<bf16>>
    %cb = broadcast %cr : tile<1xptr<bf16>> -> tile<8xptr<bf16>>
    %cp = offset %cb, %i : tile<8xptr<bf16>>, tile<8xi32> -> tile<8xptr<bf16>>
    %av, %t3 = load_ptr_tko weak %ap token=%t : tile<8xptr<bf16>> -> tile<8xbf16>, token
    %bv, %t4 = load_ptr_tko weak %bp token=%t : tile<8xptr<bf16>> -> tile<8xbf16>, token
    %q = divf %av, %bv rounding<positive_inf> : tile<8xbf16>
    %t5 = store_ptr_tko weak %cp, %q token=%t : tile<8xptr<bf16>>, tile<8xbf16> -> token
    return
  }
}
"#;
    // Values exactly halfway between two tf32 neighbours (bit 12 set, bits 0-11 clear),
    // with the kept lowest bit even and odd, both signs, and a few others.
    let xs: [u32; 8] = [
        0x3F80_1000,
        0x3F80_3000,
        0xBF80_1000,
        0xBF80_3000,
        0x3F80_1001,
        0x7F7F_F000,
        0x7F80_0000,
        0x0000_1000,
    ];
    let tf32_even = |b: u32| -> u32 {
        if b & 0x7F80_0000 == 0x7F80_0000 {
            return b;
        }
        (b + 0xFFF + ((b >> 13) & 1)) & !0x1FFF
    };
    let out = run_tilec(&["-", "--arch", "sm_80", "-o", "-"], src);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(!out.stdout.contains("cvt.rna.tf32"), "{}", out.stdout);
    let ks = ptxsim::parse(&out.stdout);
    let mut mem = Memory::default();
    let x: Vec<u8> = xs.iter().flat_map(|v| v.to_le_bytes()).collect();
    let px = mem.alloc(&x);
    let py = mem.alloc(&[0u8; 32]);
    // a / b with b a NaN (payloads with low bits set), and ordinary quotients.
    let a: [u16; 8] = [
        0xC10D, 0x4000, 0x3F80, 0xBF80, 0x4040, 0xC10D, 0x3F80, 0x0000,
    ];
    let b: [u16; 8] = [
        0x7F84, 0x7FC1, 0xFFC3, 0x4040, 0x4040, 0x7F80, 0x0000, 0x3F80,
    ];
    let bytes = |v: &[u16]| -> Vec<u8> { v.iter().flat_map(|h| h.to_le_bytes()).collect() };
    let pa = mem.alloc(&bytes(&a));
    let pb = mem.alloc(&bytes(&b));
    let pc = mem.alloc(&[0u8; 16]);
    ptxsim::run(kernel(&ks, "k"), [1, 1, 1], &[px, py, pa, pb, pc], &mut mem).unwrap();
    let got: Vec<u32> = mem
        .read(py, 32)
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    for (i, (&g, &x)) in got.iter().zip(&xs).enumerate() {
        assert_eq!(g, tf32_even(x), "tf32 of {x:#010x} (element {i})");
    }
    // 1.0 + half an ulp rounds to 1.0 (even), 1.0 + 1.5 ulps to 1.0 + 2 ulps.
    assert_eq!(got[0], 0x3F80_0000);
    assert_eq!(got[1], 0x3F80_4000);
    let c: Vec<u16> = mem
        .read(pc, 16)
        .chunks(2)
        .map(|h| u16::from_le_bytes([h[0], h[1]]))
        .collect();
    let is_nan = |h: u16| h & 0x7F80 == 0x7F80 && h & 0x7F != 0;
    for (i, &h) in c[..3].iter().enumerate() {
        assert!(is_nan(h), "element {i}: {h:#06x} is not NaN");
    }
    // -1/3 rounded up (toward zero: 0xBEAA), 3/3, -8.8/inf = -0, 1/0 = +inf, 0/1 = 0.
    assert_eq!(&c[3..], &[0xBEAA, 0x3F80, 0x8000, 0x7F80, 0x0000]);
}

/// The kernel `k(A, B, D, n)`: D (`128 x 128` f32) = sum over K tiles `0..n` of A B, A
/// `128 x 64n` f16 in 128x64 tiles and B `64n x 128` f16 in 64x128 tiles (bounds from the
/// kernel argument, `n * 64` elements of K), A's base assumed 16-byte aligned: three
/// stages of A and two of B are 80 KiB of shared memory.
fn wide_k_loop_kernel() -> String {
    let apv = "partition_view<tile=(128x64), padding_value = zero, tensor_view<128x?xf16, strides=[?,1]>>";
    let bpv = "partition_view<tile=(64x128), padding_value = zero, tensor_view<?x128xf16, strides=[128,1]>>";
    let dpv = "partition_view<tile=(128x128), tensor_view<128x128xf32, strides=[128,1]>>";
    format!(
        r#"cuda_tile.module @t {{
  entry @k(%pa0: tile<ptr<f16>>, %pb: tile<ptr<f16>>, %pd: tile<ptr<f32>>, %n: tile<i32>) {{
    %token = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %c64 = constant <i32: 64> : tile<i32>
    %kk = muli %n, %c64 : tile<i32>
    %pa = assume div_by<16>, %pa0 : tile<ptr<f16>>
    %av = make_tensor_view %pa, shape = [128, %kk], strides = [%kk, 1] : tile<i32> -> tensor_view<128x?xf16, strides=[?,1]>
    %bv = make_tensor_view %pb, shape = [%kk, 128], strides = [128, 1] : tile<i32> -> tensor_view<?x128xf16, strides=[128,1]>
    %dv = make_tensor_view %pd, shape = [128, 128], strides = [128, 1] : tensor_view<128x128xf32, strides=[128,1]>
    %at = make_partition_view %av : {apv}
    %bt = make_partition_view %bv : {bpv}
    %dt = make_partition_view %dv : {dpv}
    %z = constant <f32: 0.0> : tile<128x128xf32>
    %acc = for %k in (%c0 to %n, step %c1) : tile<i32> iter_values(%x = %z) -> (tile<128x128xf32>) {{
      %a, %t1 = load_view_tko weak %at[%c0, %k] token = %token : {apv}, tile<i32> -> tile<128x64xf16>, token
      %b, %t2 = load_view_tko weak %bt[%k, %c0] token = %token : {bpv}, tile<i32> -> tile<64x128xf16>, token
      %d = mmaf %a, %b, %x : tile<128x64xf16>, tile<64x128xf16>, tile<128x128xf32>
      continue %d : tile<128x128xf32>
    }}
    %st = store_view_tko weak %acc, %dt[%c0, %c0] token = %token : tile<128x128xf32>, {dpv}, tile<i32> -> token
    return
  }}
}}
"#
    )
}

/// A 128x128x64 f16 product over three stages needs 80 KiB of shared memory: the PTX
/// declares it `.extern .shared` with a `// tilec.dynamic_smem k 81920` line, the
/// simulator runs it with that much dynamic shared memory (0 to 5 K steps, exact), and a
/// launch with less faults on the first access past it.
#[test]
fn a_pipeline_over_48_kib_uses_dynamic_shared_memory() {
    let src = wide_k_loop_kernel();
    let out = run_tilec(
        &["-", "--arch", "sm_80", "--num-stages", "3", "-o", "-"],
        &src,
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    let ptx = &out.stdout;
    assert!(
        ptx.contains("// tilec.dynamic_smem k 81920\n.extern .shared .align 1024 .b8 __smem_k[];"),
        "{ptx}"
    );
    assert!(
        !ptx.contains("\t.shared .align 1024 .b8 __smem_k["),
        "{ptx}"
    );
    assert_eq!(tilec_gpu::dynamic_smem(ptx, "k"), 81920);
    assert_eq!(tilec_ptx::dynamic_smem(ptx), [("k".to_string(), 81920)]);
    let ks = ptxsim::parse(ptx);
    let k = kernel(&ks, "k");
    assert_eq!(k.dynamic_smem(), Some(81920));
    let mut g = Gen(77);
    let (a, b) = (g.vec(128 * 320, 3), g.vec(320 * 128, 3));
    for n in [0usize, 1, 2, 3, 5] {
        let kk = 64 * n;
        // A is 128 x kk (row stride kk), B kk x 128: the first kk columns / rows.
        let a_n: Vec<i64> = (0..128 * kk)
            .map(|e| a[(e / kk.max(1)) * 320 + e % kk.max(1)])
            .collect();
        let b_n: Vec<i64> = b[..kk * 128].to_vec();
        let mut mem = Memory::default();
        let pa = mem.alloc(&encode(Ty::F16, &a_n));
        let pb = mem.alloc(&encode(Ty::F16, &b_n));
        let pd = mem.alloc(&[0; 128 * 128 * 4]);
        ptxsim::run(k, [1, 1, 1], &[pa, pb, pd, n as u64], &mut mem)
            .unwrap_or_else(|e| panic!("n = {n}: {e}"));
        let got = decode(Ty::F32, mem.read(pd, 128 * 128 * 4));
        let want = reference(1, 128, 128, kk, &a_n, &b_n, &vec![0; 128 * 128]);
        assert_same(&format!("128x128x64, 3 stages, n = {n}"), &got, &want);
        if n == 2 {
            let short =
                ptxsim::run_with_smem(k, [1, 1, 1], &[pa, pb, pd, n as u64], &mut mem, 48 * 1024);
            let e = short.expect_err("a launch with 48 KiB of shared memory");
            assert!(e.contains("outside 49152 bytes"), "{e}");
        }
    }
}

/// What the 128x128x64 product's pipeline gets where the shared memory is smaller: on
/// sm_86 (99 KiB per CTA) four stages still fit (the loop only loads and multiplies, so
/// the epilogue reuses the stages' memory), with static shared memory only and no
/// opt-in (48 KiB) none, with its remark; `--num-stages` over the limit is shortened.
#[test]
fn pipeline_remarks_on_shared_memory() {
    let src = wide_k_loop_kernel();
    let remarks = |args: &[&str]| -> Vec<String> {
        let out = run_tilec(args, &src);
        assert_eq!(out.status, 0, "{}", out.stderr);
        out.stderr
            .lines()
            .filter_map(|l| l.strip_prefix("[E0903] Advice: "))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(
        remarks(&["-", "--arch", "sm_86", "-o", "-", "--remarks"]),
        ["K loop pipelined over 4 stages (4 of A and 2 of B, 98304 bytes of shared memory)"]
    );
    assert_eq!(
        remarks(&["-", "--arch", "sm_90", "-o", "-", "--remarks"]),
        ["K loop pipelined over 4 stages (4 of A and 2 of B, 98304 bytes of shared memory)"]
    );
    assert_eq!(
        remarks(&[
            "-",
            "--arch",
            "sm_80",
            "--num-stages",
            "6",
            "-o",
            "-",
            "--remarks"
        ]),
        ["K loop pipelined over 6 stages (6 of A and 2 of B, 131072 bytes of shared memory)",]
    );
    assert_eq!(
        remarks(&[
            "-",
            "--arch",
            "sm_89",
            "--num-stages",
            "6",
            "-o",
            "-",
            "--remarks"
        ]),
        [
            "K loop pipelined over 4 stages instead of 6: 6 stages of A (16384 bytes each) and 2 of B (16384 bytes each) need 131072 bytes of shared memory, more than the 100352 bytes the pipeline may use (101376 bytes of shared memory per CTA on sm_89 less 1024 for the kernel's other buffers)",
            "K loop pipelined over 4 stages (4 of A and 2 of B, 98304 bytes of shared memory)",
        ]
    );
    // Static shared memory only.
    let mut m =
        tilec_parse::parse(&src, tilec_diag::FileId(0), &Default::default()).expect("parses");
    let opts = tilec_ptx::Options {
        dynamic_smem: false,
        ..tilec_ptx::Options::default()
    };
    let r: Vec<String> = tilec_ptx::convert_to_gpu_remarks(&mut m, &opts)
        .into_iter()
        .filter(|d| d.code == tilec_diag::codes::PIPELINE)
        .map(|d| d.message)
        .collect();
    assert_eq!(
        r,
        [
            "K loop not pipelined: two stages of A (16384 bytes each) and B (16384 bytes each) need 65536 bytes of shared memory, more than the 48128 bytes the pipeline may use (49152 bytes of static shared memory less 1024 for the kernel's other buffers)",
        ]
    );
}

/// Pointer tiles proven consecutive (`offset` of a broadcast base by `iota + start`) but
/// neither aligned nor uniformly masked: each run of four is one `ld/st.global.v4` when,
/// at run time, its first pointer is 16-byte aligned and its four mask bits are set, and
/// four single accesses otherwise. Exact for aligned and misaligned bases and ragged
/// lengths, nothing written past the end, and the bytes move at the width the alignment
/// allows.
#[test]
fn pointer_runs_are_vectors_when_aligned_at_run_time() {
    let src = r#"cuda_tile.module @m {
  entry @k(%x: tile<ptr<f32>>, %y: tile<ptr<f32>>, %n: tile<i32>) {
    %t = make_token : token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %c = constant <i32: 1024> : tile<i32>
    %s = muli %bx, %c : tile<i32>
    %s1 = reshape %s : tile<i32> -> tile<1xi32>
    %sv = broadcast %s1 : tile<1xi32> -> tile<1024xi32>
    %i = iota : tile<1024xi32>
    %idx = addi %sv, %i : tile<1024xi32>
    %n1 = reshape %n : tile<i32> -> tile<1xi32>
    %nv = broadcast %n1 : tile<1xi32> -> tile<1024xi32>
    %mask = cmpi less_than %idx, %nv, signed : tile<1024xi32> -> tile<1024xi1>
    %xr = reshape %x : tile<ptr<f32>> -> tile<1xptr<f32>>
    %xb = broadcast %xr : tile<1xptr<f32>> -> tile<1024xptr<f32>>
    %xp = offset %xb, %idx : tile<1024xptr<f32>>, tile<1024xi32> -> tile<1024xptr<f32>>
    %yr = reshape %y : tile<ptr<f32>> -> tile<1xptr<f32>>
    %yb = broadcast %yr : tile<1xptr<f32>> -> tile<1024xptr<f32>>
    %yp = offset %yb, %idx : tile<1024xptr<f32>>, tile<1024xi32> -> tile<1024xptr<f32>>
    %v, %t1 = load_ptr_tko weak %xp, %mask token=%t : tile<1024xptr<f32>>, tile<1024xi1> -> tile<1024xf32>, token
    %two = constant <f32: 2.0> : tile<1024xf32>
    %w = mulf %v, %two : tile<1024xf32>
    %t2 = store_ptr_tko weak %yp, %w, %mask token=%t1 : tile<1024xptr<f32>>, tile<1024xf32>, tile<1024xi1> -> token
    return
  }
}
"#;
    let out = run_tilec(&["-", "--arch", "sm_80", "-o", "-"], src);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(out.stdout.contains("ld.global.v4.f32"), "{}", out.stdout);
    assert!(out.stdout.contains("st.global.v4.f32"), "{}", out.stdout);
    if let Some(ptxas) = tilec_tests::ptxas::find() {
        let file = std::env::temp_dir().join(format!("tilec-ptr-runs-{}.ptx", std::process::id()));
        std::fs::write(&file, &out.stdout).unwrap();
        for arch in ["sm_80", "sm_90"] {
            let r = tilec_tests::ptxas::assemble(&ptxas, &file, arch);
            assert!(r.ok && r.problems.is_empty(), "{arch}: {:?}", r.problems);
        }
        let _ = std::fs::remove_file(&file);
    }
    let ks = ptxsim::parse(&out.stdout);
    const SENTINEL: u8 = 0x3C;
    for (misalign, n) in [
        (0usize, 1024usize),
        (0, 1000),
        (0, 2051),
        (4, 1024),
        (4, 777),
    ] {
        let x: Vec<f32> = (0..n).map(|i| i as f32 - 300.0).collect();
        let mut bytes = vec![0u8; misalign];
        bytes.extend(x.iter().flat_map(|v| v.to_le_bytes()));
        let mut mem = Memory::default();
        let px = mem.alloc(&bytes) + misalign as u64;
        let py = mem.alloc(&vec![SENTINEL; n * 4 + 64 + misalign]) + misalign as u64;
        let grid = [n.div_ceil(1024) as u64, 1, 1];
        let stats = ptxsim::run(kernel(&ks, "k"), grid, &[px, py, n as u64], &mut mem)
            .unwrap_or_else(|e| panic!("misalign {misalign} n {n}: {e}"));
        let got = mem.read(py, n * 4 + 64);
        for i in 0..n {
            let v = f32::from_le_bytes(got[i * 4..i * 4 + 4].try_into().unwrap());
            assert_eq!(v, 2.0 * x[i], "misalign {misalign} n {n} at {i}");
        }
        assert!(got[n * 4..].iter().all(|b| *b == SENTINEL), "wrote past n");
        let wide = stats.global.get(&128).copied().unwrap_or(0);
        if misalign == 0 {
            // All but the ragged run's elements move in vectors.
            assert!(
                wide >= (n as u64 / 4 * 4 - 4) * 8,
                "n {n}: {:?}",
                stats.global
            );
        } else {
            assert_eq!(wide, 0, "misaligned base: {:?}", stats.global);
        }
    }
}

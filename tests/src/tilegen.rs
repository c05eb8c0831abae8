//! Structured random kernels for the GPU sweep: the shapes cuTile writes, with every size,
//! type and layout drawn at random.
//!
//! [`crate::kernelgen`]'s entry kernels combine any op on small tiles (at most 64
//! elements), which exercises every op's lowering but hardly the backend's big-tile
//! machinery: tensor views and partition views, tensor-core products and their K loops,
//! pipelines, shared-memory staging, the copy engine, reductions over many warps. The
//! kernels here are written as cuTile writes them (a `make_tensor_view` per array
//! argument, from a pointer, its shape and its strides, the innermost stride 1;
//! `make_partition_view`; `load_view_tko`/`store_view_tko` indexed by the tile block and
//! the loop), in three families:
//!
//! * **products**: C = epilogue(A · B) in a K loop over partition views, every input and
//!   accumulator pair `mmaf` takes (f16 into f16 or f32, bf16, tf32 from f32, f32, f64,
//!   f8E4M3FN and f8E5M2 into f16 or f32) and `mmai` (i8, each operand signed or
//!   unsigned); tile sizes 16 to 128; A or B stored transposed (`dim_map = [1, 0]`); M, N
//!   and K ragged or whole multiples of the tiles; row strides padded or not; an epilogue
//!   of `relu`, a scale by a scalar argument, a bias row and a conversion to a narrower
//!   type; sometimes a batch dimension;
//! * **rows**: a row-wise reduction pattern over a 2-D tile wide enough for the whole row
//!   (sum, max, softmax, mean-centring), in f32 or from f16, with the padding value the
//!   pattern needs (`zero`, `neg_inf`);
//! * **attention**: flash attention's loop (Q·K^T through a transposed view of K, keys
//!   past the sequence masked with `iota`/`cmpi`/`select`, the running row maximum and
//!   sum, P·V accumulated with rescaling), head sizes 16 to 64, blocks of 16 to 64 rows
//!   and keys, sequences ragged or not;
//! * **copies**: a tile moved between views of different layouts (a transpose through
//!   `dim_map`, a permute of a 3-D tile), with an elementwise op on the way.
//!
//! Each comes with its `tilec run --arg` values (buffers `random`/`randint` of the drawn
//! shapes, then the shape and stride scalars) and a grid covering the output. Where the
//! inputs are small integers (`randint`) and every partial sum stays exact in the
//! accumulator, the case asks for bit-exact results. Generation is deterministic.

use crate::kernelgen::{GenEntry, Rng};
use std::fmt::Write;

/// A structured random kernel and whether its results must match bit for bit.
pub struct Structured {
    /// The kernel, its arguments and its grid.
    pub entry: GenEntry,
    /// Every accumulation exact (small-integer inputs): compare bit for bit.
    pub exact: bool,
    /// What it is ("product f16 x f16 -> f32 64x32x16, A transposed, relu"), for labels.
    pub what: String,
}

/// The structured kernel of `seed`.
pub fn structured_kernel(seed: u64) -> Structured {
    let mut rng = Rng::new(seed ^ 0x7374_7275_6374_7572);
    match rng.below(12) {
        0..=5 => product(&mut rng, seed),
        6..=7 => rows(&mut rng, seed),
        8..=9 => attention(&mut rng, seed),
        _ => copy(&mut rng, seed),
    }
}

/// One array argument as cuTile passes it: a pointer, then its shape and its strides as
/// i32 scalars; the view is `tensor_view<?x..xT, strides=[?,..,1]>`.
struct Array {
    /// The parameter name's stem (`a`: `%a`, `%a_d0`, ..., `%a_s0`, ...).
    name: String,
    elem: &'static str,
    shape: Vec<i64>,
    /// Elements between rows of the innermost dimension (>= its size).
    row_stride: i64,
}

impl Array {
    /// An array of `shape` whose rows are `row_stride` elements apart (drawn: its last
    /// dimension, or padded).
    fn new(rng: &mut Rng, name: &str, elem: &str, shape: Vec<i64>) -> Array {
        let row_stride = row_stride(rng, *shape.last().unwrap_or(&1));
        Array {
            name: name.into(),
            elem: leak(elem),
            shape,
            row_stride,
        }
    }

    fn rank(&self) -> usize {
        self.shape.len()
    }

    /// The strides in elements (row-major, the last dimension's rows `row_stride` apart).
    fn strides(&self) -> Vec<i64> {
        let r = self.rank();
        let mut s = vec![1i64; r];
        if r >= 2 {
            s[r - 2] = self.row_stride;
            for d in (0..r - 2).rev() {
                s[d] = s[d + 1] * self.shape[d + 1];
            }
        }
        s
    }

    /// Elements the buffer must hold.
    fn len(&self) -> i64 {
        let s = self.strides();
        1 + self
            .shape
            .iter()
            .zip(&s)
            .map(|(n, st)| (n - 1).max(0) * st)
            .sum::<i64>()
    }

    fn params(&self) -> Vec<String> {
        let mut p = vec![format!("%{}: tile<ptr<{}>>", self.name, self.elem)];
        for d in 0..self.rank() {
            p.push(format!("%{}_d{d}: tile<i32>", self.name));
        }
        for d in 0..self.rank() {
            p.push(format!("%{}_s{d}: tile<i32>", self.name));
        }
        p
    }

    /// The `--arg` values: the buffer (`generator` of the element type, flat), its shape
    /// and its strides.
    fn args(&self, generator: &str, seed: u64) -> Vec<String> {
        let buf = match generator {
            "zeros" => format!("zeros:{}:{}", self.elem, self.len()),
            g => format!("{g}:{}:{}:{seed}", self.elem, self.len()),
        };
        let mut a = vec![buf];
        a.extend(self.shape.iter().map(|n| format!("i32:{n}")));
        a.extend(self.strides().iter().map(|s| format!("i32:{s}")));
        a
    }

    fn view_type(&self) -> String {
        let q = vec!["?"; self.rank()].join("x");
        let mut st = vec!["?"; self.rank()];
        if let Some(l) = st.last_mut() {
            *l = "1";
        }
        format!("tensor_view<{q}x{}, strides=[{}]>", self.elem, st.join(","))
    }

    /// The view's definition (`%NAME_v`), with `assume div_by<16>` on the base pointer
    /// when `aligned` (the buffers the harness allocates are 256-byte aligned).
    fn make_view(&self, out: &mut String, aligned: bool) {
        let n = &self.name;
        let base = if aligned {
            let _ = writeln!(
                out,
                "    %{n}_al = assume div_by<16>, %{n} : tile<ptr<{}>>",
                self.elem
            );
            format!("%{n}_al")
        } else {
            format!("%{n}")
        };
        let shape: Vec<String> = (0..self.rank()).map(|d| format!("%{n}_d{d}")).collect();
        let mut strides: Vec<String> = (0..self.rank()).map(|d| format!("%{n}_s{d}")).collect();
        if let Some(l) = strides.last_mut() {
            *l = "1".to_string();
        }
        let _ = writeln!(
            out,
            "    %{n}_v = make_tensor_view {base}, shape = [{}], strides = [{}] : tile<i32> -> {}",
            shape.join(", "),
            strides.join(", "),
            self.view_type()
        );
    }

    /// A partition view type of this array with tiles `tile` (tile dimension d along the
    /// array's dimension `dim_map[d]`).
    fn partition(&self, tile: &[i64], padding: Option<&str>, dim_map: Option<&[usize]>) -> String {
        let t: Vec<String> = tile.iter().map(i64::to_string).collect();
        let mut s = format!("partition_view<tile=({})", t.join("x"));
        if let Some(p) = padding {
            let _ = write!(s, ", padding_value = {p}");
        }
        let _ = write!(s, ", {}", self.view_type());
        if let Some(m) = dim_map {
            let m: Vec<String> = m.iter().map(usize::to_string).collect();
            let _ = write!(s, ", dim_map=[{}]", m.join(", "));
        }
        s.push('>');
        s
    }
}

fn pick<T: Copy>(rng: &mut Rng, xs: &[T]) -> T {
    xs[rng.below(xs.len() as u64) as usize]
}

/// A size for a dimension cut in tiles of `tile`: a whole number of tiles (1 to `max`),
/// or ragged (the last tile partial).
fn extent(rng: &mut Rng, tile: i64, max: i64) -> i64 {
    let whole = rng.range(1, max);
    if rng.percent(50) {
        whole * tile
    } else {
        ((whole - 1) * tile + rng.range(1, tile)).max(1)
    }
}

/// A row stride for rows of `n` elements: `n`, or padded by a few elements (so that rows
/// are not 16-byte aligned, or are at another multiple).
fn row_stride(rng: &mut Rng, n: i64) -> i64 {
    match rng.below(4) {
        0 => n + rng.range(1, 3),
        1 => cdiv(n, 16) * 16 + 16,
        _ => n,
    }
}

fn zero_const(elem: &str) -> &'static str {
    match elem {
        "i32" | "i8" | "i16" | "i64" => "0",
        _ => "0.000000e+00",
    }
}

/// C = epilogue(A x B) over partition views in a K loop.
fn product(rng: &mut Rng, seed: u64) -> Structured {
    // (A's stored type, the type the product takes, accumulator)
    let (stored, input, acc) = pick(
        rng,
        &[
            ("f16", "f16", "f32"),
            ("f16", "f16", "f32"),
            ("f16", "f16", "f16"),
            ("bf16", "bf16", "f32"),
            ("bf16", "bf16", "f32"),
            ("f32", "tf32", "f32"),
            ("f32", "f32", "f32"),
            ("f32", "f16", "f32"),
            ("f32", "bf16", "f32"),
            ("f64", "f64", "f64"),
            ("f8E4M3FN", "f8E4M3FN", "f32"),
            ("f8E5M2", "f8E5M2", "f16"),
            ("i8", "i8", "i32"),
            ("i8", "i8", "i32"),
        ],
    );
    let int = acc == "i32";
    let narrow_k = matches!(input, "i8" | "f8E4M3FN" | "f8E5M2");
    let tm = pick(rng, &[16, 32, 64, 64, 128]);
    let tn = pick(rng, &[16, 32, 64, 64, 128]);
    let tk = if narrow_k {
        pick(rng, &[32, 64])
    } else {
        pick(rng, &[16, 32, 64])
    };
    // Keep the simulator's work bounded: at most 128x128x128 per tile block.
    let max_k_tiles = (128 * 128 * 128 / (tm * tn * tk)).clamp(1, 4);
    let m = extent(rng, tm, 2);
    let n = extent(rng, tn, 2);
    let k = extent(rng, tk, max_k_tiles);
    let batch = if rng.percent(15) { rng.range(1, 2) } else { 0 };
    let a_t = rng.percent(30);
    let b_t = rng.percent(40);
    let exact_inputs = rng.percent(50);
    // Split-K: tile block z takes the K steps z, z + split, ... and adds its partial
    // product into C atomically (`atomic_red_view_tko ... addf`), as cuTile's split-K
    // GEMM does.
    let split = if batch == 0 && acc == "f32" && rng.percent(15) {
        rng.range(2, 4)
    } else {
        0
    };
    let epilogue_relu = !int && split == 0 && rng.percent(30);
    let epilogue_scale = !int && split == 0 && rng.percent(25);
    let epilogue_bias = split == 0 && rng.percent(25);
    let out_elem = match (int, acc, rng.below(3)) {
        (true, _, _) => "i32",
        _ if split > 0 => "f32",
        (_, "f32", 0) => "f16",
        (_, "f32", 1) => "bf16",
        (_, a, _) => a,
    };
    let aligned = rng.percent(70);
    let lead = |b: i64, r: i64, c: i64| {
        if batch > 0 { vec![b, r, c] } else { vec![r, c] }
    };
    let a_shape = if a_t {
        lead(batch, k, m)
    } else {
        lead(batch, m, k)
    };
    let a = Array::new(rng, "a", stored, a_shape);
    let b_shape = if b_t {
        lead(batch, n, k)
    } else {
        lead(batch, k, n)
    };
    let b = Array::new(rng, "b", stored, b_shape);
    let c = Array::new(rng, "c", out_elem, lead(batch, m, n));
    let bias = Array {
        name: "bias".into(),
        elem: leak(if int { "i32" } else { acc }),
        shape: vec![n],
        row_stride: n,
    };
    let b3 = batch > 0;
    let tile3 = |r: i64, cc: i64| if b3 { vec![1, r, cc] } else { vec![r, cc] };
    let map = |t: bool| -> Option<Vec<usize>> {
        match (t, b3) {
            (false, _) => None,
            (true, false) => Some(vec![1, 0]),
            (true, true) => Some(vec![0, 2, 1]),
        }
    };
    let a_map = map(a_t);
    let b_map = map(b_t);
    let pa = a.partition(&tile3(tm, tk), Some("zero"), a_map.as_deref());
    let pb = b.partition(&tile3(tk, tn), Some("zero"), b_map.as_deref());
    let pc = c.partition(&tile3(tm, tn), None, None);
    let pbias = bias.partition(&[tn], Some("zero"), None);

    let mut params = a.params();
    params.extend(b.params());
    params.extend(c.params());
    let gen_in = if exact_inputs { "randint" } else { "random" };
    let mut args = a.args(gen_in, seed.wrapping_mul(3) % 100_000);
    args.extend(b.args(gen_in, seed.wrapping_mul(5) % 100_000));
    args.extend(c.args("zeros", 0));
    if epilogue_bias {
        params.extend(bias.params());
        args.extend(bias.args(gen_in, seed.wrapping_mul(7) % 100_000));
    }
    if epilogue_scale {
        params.push("%alpha: tile<f32>".into());
        args.push(if exact_inputs { "f32:2.0" } else { "f32:0.75" }.into());
    }

    let mut o = String::new();
    let _ = writeln!(o, "    %tok = make_token : token");
    a.make_view(&mut o, aligned);
    b.make_view(&mut o, aligned);
    c.make_view(&mut o, aligned);
    if epilogue_bias {
        bias.make_view(&mut o, aligned);
    }
    let _ = writeln!(o, "    %bx, %by, %bz = get_tile_block_id : tile<i32>");
    let _ = writeln!(o, "    %pa = make_partition_view %a_v : {pa}");
    let _ = writeln!(o, "    %pb = make_partition_view %b_v : {pb}");
    let _ = writeln!(o, "    %pc = make_partition_view %c_v : {pc}");
    let rank = if b3 { 3 } else { 2 };
    let _ = writeln!(
        o,
        "    %ks:{rank} = get_index_space_shape %pa : {pa} -> tile<i32>"
    );
    let ct = |r: i64, cc: i64, e: &str| {
        if b3 {
            format!("tile<1x{r}x{cc}x{e}>")
        } else {
            format!("tile<{r}x{cc}x{e}>")
        }
    };
    let acc_t = ct(tm, tn, acc);
    let _ = writeln!(o, "    %c0 = constant <i32: 0> : tile<i32>");
    let _ = writeln!(o, "    %c1 = constant <i32: 1> : tile<i32>");
    let _ = writeln!(
        o,
        "    %zero = constant <{acc}: {}> : {acc_t}",
        zero_const(acc)
    );
    // Persistent: a few tile blocks loop over the output tiles (tile t at row t / n,
    // column t % n), the K loop nested in that loop, as cuTile's persistent GEMMs are.
    let persistent = !b3 && split == 0 && rng.percent(20);
    let (row, col, tok) = if persistent {
        let _ = writeln!(o, "    %gx, %gy, %gz = get_num_tile_blocks : tile<i32>");
        let _ = writeln!(
            o,
            "    %cs:2 = get_index_space_shape %pc : {pc} -> tile<i32>"
        );
        let _ = writeln!(o, "    %ntiles = muli %cs#0, %cs#1 : tile<i32>");
        let _ = writeln!(
            o,
            "    %outer = for %t in (%bx to %ntiles, step %gx) : tile<i32> iter_values(%tk0 = %tok) -> (token) {{"
        );
        let _ = writeln!(
            o,
            "    %ti = divi %t, %cs#1 signed rounding<negative_inf> : tile<i32>"
        );
        let _ = writeln!(o, "    %tj = remi %t, %cs#1 signed : tile<i32>");
        ("%ti", "%tj", "%tk0")
    } else {
        ("%bx", "%by", "%tok")
    };
    let (ai, bi) = if b3 {
        (format!("%bz, {row}, %k"), format!("%bz, %k, {col}"))
    } else {
        (format!("{row}, %k"), format!("%k, {col}"))
    };
    let kdim = rank - 1;
    if split > 0 {
        let _ = writeln!(o, "    %csplit = constant <i32: {split}> : tile<i32>");
    }
    // The K loop as a `for`, or as a `loop` that breaks out at the end (20%).
    let while_loop = split == 0 && rng.percent(20);
    if while_loop {
        let _ = writeln!(
            o,
            "    %acc, %kend = loop iter_values(%ai = %zero, %k = %c0) : {acc_t}, tile<i32> -> {acc_t}, tile<i32> {{"
        );
        let _ = writeln!(
            o,
            "      %done = cmpi greater_than_or_equal %k, %ks#{kdim}, signed : tile<i32> -> tile<i1>"
        );
        let _ = writeln!(o, "      if %done {{");
        let _ = writeln!(o, "        break %ai, %k : {acc_t}, tile<i32>");
        let _ = writeln!(o, "      }}");
    } else {
        let _ = writeln!(
            o,
            "    %acc = for %k in ({} to %ks#{kdim}, step {}) : tile<i32> iter_values(%ai = %zero) -> ({acc_t}) {{",
            if split > 0 { "%bz" } else { "%c0" },
            if split > 0 { "%csplit" } else { "%c1" },
        );
    }
    let a_tile = ct(tm, tk, stored);
    let b_tile = ct(tk, tn, stored);
    let _ = writeln!(
        o,
        "      %ta, %t1 = load_view_tko weak %pa[{ai}] token = %tok : {pa}, tile<i32> -> {a_tile}, token"
    );
    let _ = writeln!(
        o,
        "      %tb, %t2 = load_view_tko weak %pb[{bi}] token = %tok : {pb}, tile<i32> -> {b_tile}, token"
    );
    let (xa, xb) = if stored != input {
        let (ta, tb) = (ct(tm, tk, input), ct(tk, tn, input));
        let _ = writeln!(o, "      %ta2 = ftof %ta : {a_tile} -> {ta}");
        let _ = writeln!(o, "      %tb2 = ftof %tb : {b_tile} -> {tb}");
        ("%ta2", "%tb2")
    } else {
        ("%ta", "%tb")
    };
    let (ta_in, tb_in) = (ct(tm, tk, input), ct(tk, tn, input));
    // An operand transformed on its way (exact: doubled, or negatives cut to zero).
    let transform = if matches!(input, "f16" | "bf16" | "f32" | "f64") {
        rng.below(4)
    } else {
        0
    };
    let xa = match transform {
        1 => {
            let _ = writeln!(o, "      %two = constant <{input}: 2.0> : {ta_in}");
            let _ = writeln!(o, "      %ta3 = mulf {xa}, %two : {ta_in}");
            "%ta3"
        }
        2 => {
            let _ = writeln!(o, "      %z0 = constant <{input}: 0.0> : {ta_in}");
            let _ = writeln!(o, "      %ta3 = maxf {xa}, %z0 : {ta_in}");
            "%ta3"
        }
        _ => xa,
    };
    if int {
        let sa = pick(rng, &["signed", "unsigned"]);
        let sb = pick(rng, &["signed", "unsigned"]);
        let _ = writeln!(
            o,
            "      %d = mmai {xa}, {xb}, %ai {sa} {sb} : {ta_in}, {tb_in}, {acc_t}"
        );
    } else {
        let _ = writeln!(
            o,
            "      %d = mmaf {xa}, {xb}, %ai : {ta_in}, {tb_in}, {acc_t}"
        );
    }
    if while_loop {
        let _ = writeln!(o, "      %k1 = addi %k, %c1 : tile<i32>");
        let _ = writeln!(o, "      continue %d, %k1 : {acc_t}, tile<i32>");
    } else {
        let _ = writeln!(o, "      continue %d : {acc_t}");
    }
    let _ = writeln!(o, "    }}");
    let mut cur = "%acc".to_string();
    let mut what = vec![format!(
        "product {input} -> {acc} {tm}x{tn}x{tk}{}",
        if b3 { " batched" } else { "" }
    )];
    if while_loop {
        what.push("loop".into());
    }
    if a_t {
        what.push("A transposed".into());
    }
    match transform {
        1 => what.push("A doubled".into()),
        2 => what.push("A relu".into()),
        _ => {}
    }
    if b_t {
        what.push("B transposed".into());
    }
    if epilogue_bias {
        let bt = format!("tile<{tn}x{}>", bias.elem);
        let _ = writeln!(o, "    %pbias = make_partition_view %bias_v : {pbias}");
        let _ = writeln!(
            o,
            "    %bv, %t3 = load_view_tko weak %pbias[{col}] token = %tok : {pbias}, tile<i32> -> {bt}, token"
        );
        let one_row = if b3 {
            format!("tile<1x1x{tn}x{}>", bias.elem)
        } else {
            format!("tile<1x{tn}x{}>", bias.elem)
        };
        let _ = writeln!(o, "    %br = reshape %bv : {bt} -> {one_row}");
        let _ = writeln!(o, "    %bb = broadcast %br : {one_row} -> {acc_t}");
        let add = if int { "addi" } else { "addf" };
        let _ = writeln!(o, "    %e1 = {add} {cur}, %bb : {acc_t}");
        cur = "%e1".into();
        what.push("bias".into());
    }
    if epilogue_scale {
        let one = if b3 {
            "tile<1x1x1xf32>"
        } else {
            "tile<1x1xf32>"
        };
        let _ = writeln!(o, "    %al = reshape %alpha : tile<f32> -> {one}");
        let f32_t = ct(tm, tn, "f32");
        let _ = writeln!(o, "    %alb = broadcast %al : {one} -> {f32_t}");
        let scale = if acc == "f32" {
            "%alb".to_string()
        } else {
            let _ = writeln!(o, "    %alc = ftof %alb : {f32_t} -> {acc_t}");
            "%alc".to_string()
        };
        let _ = writeln!(o, "    %e2 = mulf {cur}, {scale} : {acc_t}");
        cur = "%e2".into();
        what.push("scaled".into());
    }
    if epilogue_relu {
        let _ = writeln!(
            o,
            "    %z = constant <{acc}: {}> : {acc_t}",
            zero_const(acc)
        );
        let _ = writeln!(o, "    %e3 = maxf {cur}, %z : {acc_t}");
        cur = "%e3".into();
        what.push("relu".into());
    }
    let out_t = ct(tm, tn, out_elem);
    if out_elem != acc {
        let _ = writeln!(o, "    %e4 = ftof {cur} : {acc_t} -> {out_t}");
        cur = "%e4".into();
        what.push(format!("to {out_elem}"));
    }
    let ci = if b3 {
        format!("%bz, {row}, {col}")
    } else {
        format!("{row}, {col}")
    };
    if split > 0 {
        let _ = writeln!(
            o,
            "    %st = atomic_red_view_tko relaxed device %pc[{ci}], addf, {cur} token = {tok} : {out_t}, {pc}, tile<i32> -> token"
        );
        what.push(format!("split-K {split}"));
    } else {
        let _ = writeln!(
            o,
            "    %st = store_view_tko weak {cur}, %pc[{ci}] token = {tok} : {out_t}, {pc}, tile<i32> -> token"
        );
    }
    let tiles = (cdiv(m, tm) * cdiv(n, tn)) as u32;
    let grid = if persistent {
        let _ = writeln!(o, "    continue %st : token");
        let _ = writeln!(o, "    }}");
        what.push("persistent".into());
        [tiles.min(rng.range(1, 3) as u32), 1, 1]
    } else {
        [
            cdiv(m, tm) as u32,
            cdiv(n, tn) as u32,
            batch.max(1).max(split) as u32,
        ]
    };
    // Exact: small integers (and a scale of 2), every partial sum exact in the
    // accumulator: an f16 accumulator holds the integers up to 2048, and |sum| <= 16 K,
    // plus the bias's 4, doubled by the scale.
    let bound =
        (16 * k * if transform == 1 { 2 } else { 1 } + 4) * if epilogue_scale { 2 } else { 1 };
    let exact = exact_inputs && (acc != "f16" || bound <= 2048);
    Structured {
        entry: GenEntry {
            text: module(&params, &o),
            args,
            grid,
        },
        exact,
        what: what.join(", "),
    }
}

/// A row-wise reduction pattern over tiles holding whole rows.
fn rows(rng: &mut Rng, seed: u64) -> Structured {
    let stored = pick(rng, &["f32", "f32", "f16", "bf16"]);
    let tc = pick(rng, &[32, 64, 128, 256, 512, 1024]);
    let tr = pick(rng, &[1, 2, 4, 8, 16]).min((4096 / tc).max(1));
    let cols = if rng.percent(50) {
        tc
    } else {
        rng.range((tc / 2).max(1), tc)
    };
    let rows_n = extent(rng, tr, 3);
    let pattern = pick(
        rng,
        &["sum", "max", "softmax", "centre", "cumsum", "argmax"],
    );
    let exact_inputs = pattern != "softmax" && rng.percent(40);
    let x = Array::new(rng, "x", stored, vec![rows_n, cols]);
    let y_cols = if matches!(pattern, "sum" | "max" | "argmax") {
        1
    } else {
        cols
    };
    let y = Array::new(rng, "y", stored, vec![rows_n, y_cols]);
    let aligned = rng.percent(70);
    let padding = if matches!(pattern, "max" | "softmax" | "argmax") {
        "neg_inf"
    } else {
        "zero"
    };
    let px = x.partition(&[tr, tc], Some(padding), None);
    let y_tile = if y_cols == 1 { 1 } else { tc };
    let py = y.partition(&[tr, y_tile], None, None);
    let mut params = x.params();
    params.extend(y.params());
    let gen_in = if exact_inputs { "randint" } else { "random" };
    let mut args = x.args(gen_in, seed % 100_000);
    args.extend(y.args("zeros", 0));
    let mut o = String::new();
    let _ = writeln!(o, "    %tok = make_token : token");
    x.make_view(&mut o, aligned);
    y.make_view(&mut o, aligned);
    let _ = writeln!(o, "    %bx, %by, %bz = get_tile_block_id : tile<i32>");
    let _ = writeln!(o, "    %c0 = constant <i32: 0> : tile<i32>");
    let _ = writeln!(o, "    %px = make_partition_view %x_v : {px}");
    let _ = writeln!(o, "    %py = make_partition_view %y_v : {py}");
    let xt = format!("tile<{tr}x{tc}x{stored}>");
    let ft = format!("tile<{tr}x{tc}xf32>");
    let rt = format!("tile<{tr}xf32>");
    let ct = format!("tile<{tr}x1xf32>");
    let _ = writeln!(
        o,
        "    %xv, %t1 = load_view_tko weak %px[%bx, %c0] token = %tok : {px}, tile<i32> -> {xt}, token"
    );
    let x32 = if stored == "f32" {
        "%xv".to_string()
    } else {
        let _ = writeln!(o, "    %x32 = ftof %xv : {xt} -> {ft}");
        "%x32".to_string()
    };
    let reduce = |o: &mut String, name: &str, src: &str, op: &str, id: &str| {
        let _ = writeln!(
            o,
            "    %{name} = reduce {src} dim=1 identities=[{id} : f32] : {ft} -> {rt}\n    (%{name}_e: tile<f32>, %{name}_a: tile<f32>) {{\n      %{name}_n = {op} %{name}_e, %{name}_a : tile<f32>\n      yield %{name}_n : tile<f32>\n    }}"
        );
    };
    let bcast = |o: &mut String, name: &str, src: &str| {
        let _ = writeln!(o, "    %{name}_r = reshape {src} : {rt} -> {ct}");
        let _ = writeln!(o, "    %{name} = broadcast %{name}_r : {ct} -> {ft}");
    };
    let result = match pattern {
        "sum" => {
            reduce(&mut o, "s", &x32, "addf", "0.000000e+00");
            "%s"
        }
        "max" => {
            reduce(&mut o, "s", &x32, "maxf", "0xFF800000");
            "%s"
        }
        "softmax" => {
            reduce(&mut o, "mx", &x32, "maxf", "0xFF800000");
            bcast(&mut o, "mxb", "%mx");
            let _ = writeln!(o, "    %sh = subf {x32}, %mxb : {ft}");
            let _ = writeln!(o, "    %ex = exp %sh : {ft}");
            reduce(&mut o, "sm", "%ex", "addf", "0.000000e+00");
            bcast(&mut o, "smb", "%sm");
            let _ = writeln!(o, "    %sf = divf %ex, %smb : {ft}");
            "%sf"
        }
        "cumsum" => {
            let reverse = rng.percent(30);
            let _ = writeln!(
                o,
                "    %cs = scan {x32} dim=1 reverse={reverse} identities=[0.000000e+00 : f32] : {ft} -> {ft}\n    (%cs_e: tile<f32>, %cs_a: tile<f32>) {{\n      %cs_n = addf %cs_e, %cs_a : tile<f32>\n      yield %cs_n : tile<f32>\n    }}"
            );
            "%cs"
        }
        "argmax" => {
            // The first index of the row's largest value (ties to the smaller index, so
            // that every order of the reduction agrees), as a float.
            let it = format!("tile<{tr}x{tc}xi32>");
            let _ = writeln!(o, "    %io = iota : tile<{tc}xi32>");
            let _ = writeln!(
                o,
                "    %ior = reshape %io : tile<{tc}xi32> -> tile<1x{tc}xi32>"
            );
            let _ = writeln!(o, "    %iob = broadcast %ior : tile<1x{tc}xi32> -> {it}");
            let _ = writeln!(
                o,
                "    %am:2 = reduce {x32}, %iob dim=1 identities=[0xFF800000 : f32, 2147483647 : i32] : {ft}, {it} -> {rt}, tile<{tr}xi32>\n    (%av: tile<f32>, %pv: tile<f32>, %ai: tile<i32>, %pi: tile<i32>) {{\n      %gt = cmpf greater_than ordered %av, %pv : tile<f32> -> tile<i1>\n      %eq = cmpf equal ordered %av, %pv : tile<f32> -> tile<i1>\n      %lt = cmpi less_than %ai, %pi, signed : tile<i32> -> tile<i1>\n      %tie = andi %eq, %lt : tile<i1>\n      %take = ori %gt, %tie : tile<i1>\n      %nv = select %take, %av, %pv : tile<i1>, tile<f32>\n      %ni = select %take, %ai, %pi : tile<i1>, tile<i32>\n      yield %nv, %ni : tile<f32>, tile<i32>\n    }}"
            );
            let _ = writeln!(o, "    %amf = itof %am#1 signed : tile<{tr}xi32> -> {rt}");
            "%amf"
        }
        _ => {
            // x - mean(x) over the row's real columns (padding is zero).
            reduce(&mut o, "s", &x32, "addf", "0.000000e+00");
            let _ = writeln!(o, "    %n = constant <f32: {cols}.0> : {rt}");
            let _ = writeln!(o, "    %mean = divf %s, %n : {rt}");
            bcast(&mut o, "mb", "%mean");
            let _ = writeln!(o, "    %cen = subf {x32}, %mb : {ft}");
            "%cen"
        }
    };
    let out_cols = if y_cols == 1 { 1 } else { tc };
    let res = if y_cols == 1 {
        let _ = writeln!(o, "    %res = reshape {result} : {rt} -> {ct}");
        "%res".to_string()
    } else {
        result.to_string()
    };
    let res_f32 = format!("tile<{tr}x{out_cols}xf32>");
    let out_t = format!("tile<{tr}x{out_cols}x{stored}>");
    let stored_v = if stored == "f32" {
        res
    } else {
        let _ = writeln!(o, "    %out = ftof {res} : {res_f32} -> {out_t}");
        "%out".to_string()
    };
    let _ = writeln!(
        o,
        "    %st = store_view_tko weak {stored_v}, %py[%bx, %c0] token = %tok : {out_t}, {py}, tile<i32> -> token"
    );
    // Small integers sum exactly in f32 (a scan too), and a max or its index is exact;
    // the mean divides.
    let exact = exact_inputs && pattern != "centre";
    Structured {
        entry: GenEntry {
            text: module(&params, &o),
            args,
            grid: [cdiv(rows_n, tr) as u32, 1, 1],
        },
        exact,
        what: format!("rows {pattern} {stored} {tr}x{tc} of {rows_n}x{cols}"),
    }
}

/// Flash attention over one head: O = softmax(Q K^T) V, the keys in blocks of `tn`.
fn attention(rng: &mut Rng, seed: u64) -> Structured {
    let elem = pick(rng, &["f16", "f16", "bf16"]);
    let d = pick(rng, &[16, 32, 64]);
    let tm = pick(rng, &[16, 32, 64]);
    let tn = pick(rng, &[16, 32, 64]);
    let m = extent(rng, tm, 2);
    let s_len = extent(rng, tn, 3);
    let aligned = rng.percent(70);
    let q = Array::new(rng, "q", elem, vec![m, d]);
    let k = Array::new(rng, "k", elem, vec![s_len, d]);
    let v = Array::new(rng, "v", elem, vec![s_len, d]);
    let o_elem = pick(rng, &["f32", elem]);
    let out = Array::new(rng, "o", o_elem, vec![m, d]);
    let pq = q.partition(&[tm, d], Some("zero"), None);
    let pk = k.partition(&[d, tn], Some("zero"), Some(&[1, 0]));
    let pv = v.partition(&[tn, d], Some("zero"), None);
    let po = out.partition(&[tm, d], None, None);
    let mut params = q.params();
    params.extend(k.params());
    params.extend(v.params());
    params.extend(out.params());
    let mut args = q.args("random", seed % 100_000);
    args.extend(k.args("random", (seed + 1) % 100_000));
    args.extend(v.args("random", (seed + 2) % 100_000));
    args.extend(out.args("zeros", 0));
    let mut o = String::new();
    let _ = writeln!(o, "    %tok = make_token : token");
    for a in [&q, &k, &v, &out] {
        a.make_view(&mut o, aligned);
    }
    let qt = format!("tile<{tm}x{d}x{elem}>");
    let kt = format!("tile<{d}x{tn}x{elem}>");
    let vt = format!("tile<{tn}x{d}x{elem}>");
    let st = format!("tile<{tm}x{tn}xf32>");
    let pt = format!("tile<{tm}x{tn}x{elem}>");
    let at = format!("tile<{tm}x{d}xf32>");
    let rt = format!("tile<{tm}xf32>");
    let ct = format!("tile<{tm}x1xf32>");
    let w = |o: &mut String, line: String| {
        let _ = writeln!(o, "    {line}");
    };
    w(
        &mut o,
        "%bx, %by, %bz = get_tile_block_id : tile<i32>".into(),
    );
    w(&mut o, format!("%pq = make_partition_view %q_v : {pq}"));
    w(&mut o, format!("%pk = make_partition_view %k_v : {pk}"));
    w(&mut o, format!("%pv = make_partition_view %v_v : {pv}"));
    w(&mut o, format!("%po = make_partition_view %o_v : {po}"));
    w(&mut o, "%c0 = constant <i32: 0> : tile<i32>".into());
    w(&mut o, "%c1 = constant <i32: 1> : tile<i32>".into());
    w(&mut o, format!("%ctn = constant <i32: {tn}> : tile<i32>"));
    w(
        &mut o,
        format!("%nb:2 = get_index_space_shape %pk : {pk} -> tile<i32>"),
    );
    w(
        &mut o,
        format!(
            "%qv, %t1 = load_view_tko weak %pq[%bx, %c0] token = %tok : {pq}, tile<i32> -> {qt}, token"
        ),
    );
    w(&mut o, format!("%ninf = constant <f32: 0xFF800000> : {rt}"));
    w(
        &mut o,
        format!("%ninfs = constant <f32: 0xFF800000> : {st}"),
    );
    w(&mut o, format!("%zl = constant <f32: 0.000000e+00> : {rt}"));
    w(
        &mut o,
        format!("%zacc = constant <f32: 0.000000e+00> : {at}"),
    );
    w(&mut o, format!("%zs = constant <f32: 0.000000e+00> : {st}"));
    w(&mut o, format!("%io = iota : tile<{tn}xi32>"));
    w(
        &mut o,
        "%slr = reshape %k_d0 : tile<i32> -> tile<1xi32>".into(),
    );
    w(
        &mut o,
        format!("%slb = broadcast %slr : tile<1xi32> -> tile<{tn}xi32>"),
    );
    let reduce = |o: &mut String, name: &str, src: &str, op: &str, id: &str| {
        let _ = writeln!(
            o,
            "      %{name} = reduce {src} dim=1 identities=[{id} : f32] : {st} -> {rt}\n      (%{name}_e: tile<f32>, %{name}_a: tile<f32>) {{\n        %{name}_n = {op} %{name}_e, %{name}_a : tile<f32>\n        yield %{name}_n : tile<f32>\n      }}"
        );
    };
    let _ = writeln!(
        o,
        "    %r:3 = for %j in (%c0 to %nb#1, step %c1) : tile<i32> iter_values(%m = %ninf, %l = %zl, %acc = %zacc) -> ({rt}, {rt}, {at}) {{"
    );
    let _ = writeln!(
        o,
        "      %kv, %t2 = load_view_tko weak %pk[%c0, %j] token = %tok : {pk}, tile<i32> -> {kt}, token"
    );
    let _ = writeln!(o, "      %s0 = mmaf %qv, %kv, %zs : {qt}, {kt}, {st}");
    // Keys past the sequence (the last block's padding) get -inf.
    let _ = writeln!(o, "      %off = muli %j, %ctn : tile<i32>");
    let _ = writeln!(o, "      %offr = reshape %off : tile<i32> -> tile<1xi32>");
    let _ = writeln!(
        o,
        "      %offb = broadcast %offr : tile<1xi32> -> tile<{tn}xi32>"
    );
    let _ = writeln!(o, "      %col = addi %io, %offb : tile<{tn}xi32>");
    let _ = writeln!(
        o,
        "      %in = cmpi less_than %col, %slb, signed : tile<{tn}xi32> -> tile<{tn}xi1>"
    );
    let _ = writeln!(
        o,
        "      %inr = reshape %in : tile<{tn}xi1> -> tile<1x{tn}xi1>"
    );
    let _ = writeln!(
        o,
        "      %inb = broadcast %inr : tile<1x{tn}xi1> -> tile<{tm}x{tn}xi1>"
    );
    let _ = writeln!(
        o,
        "      %s = select %inb, %s0, %ninfs : tile<{tm}x{tn}xi1>, {st}"
    );
    reduce(&mut o, "mx", "%s", "maxf", "0xFF800000");
    let _ = writeln!(o, "      %mn = maxf %m, %mx : {rt}");
    let _ = writeln!(o, "      %mnr = reshape %mn : {rt} -> {ct}");
    let _ = writeln!(o, "      %mnb = broadcast %mnr : {ct} -> {st}");
    let _ = writeln!(o, "      %sh = subf %s, %mnb : {st}");
    let _ = writeln!(o, "      %p = exp %sh : {st}");
    reduce(&mut o, "ps", "%p", "addf", "0.000000e+00");
    let _ = writeln!(o, "      %dm = subf %m, %mn : {rt}");
    let _ = writeln!(o, "      %al = exp %dm : {rt}");
    let _ = writeln!(o, "      %l2 = mulf %l, %al : {rt}");
    let _ = writeln!(o, "      %l3 = addf %l2, %ps : {rt}");
    let _ = writeln!(o, "      %alr = reshape %al : {rt} -> {ct}");
    let _ = writeln!(o, "      %alb = broadcast %alr : {ct} -> {at}");
    let _ = writeln!(o, "      %acc2 = mulf %acc, %alb : {at}");
    let _ = writeln!(o, "      %ph = ftof %p : {st} -> {pt}");
    let _ = writeln!(
        o,
        "      %vv, %t3 = load_view_tko weak %pv[%j, %c0] token = %tok : {pv}, tile<i32> -> {vt}, token"
    );
    let _ = writeln!(o, "      %pvv = mmaf %ph, %vv, %acc2 : {pt}, {vt}, {at}");
    let _ = writeln!(o, "      continue %mn, %l3, %pvv : {rt}, {rt}, {at}");
    let _ = writeln!(o, "    }}");
    w(&mut o, format!("%lr = reshape %r#1 : {rt} -> {ct}"));
    w(&mut o, format!("%lb = broadcast %lr : {ct} -> {at}"));
    w(&mut o, format!("%res = divf %r#2, %lb : {at}"));
    let ot = format!("tile<{tm}x{d}x{o_elem}>");
    let res = if o_elem == "f32" {
        "%res"
    } else {
        w(&mut o, format!("%resn = ftof %res : {at} -> {ot}"));
        "%resn"
    };
    w(
        &mut o,
        format!(
            "%st = store_view_tko weak {res}, %po[%bx, %c0] token = %tok : {ot}, {po}, tile<i32> -> token"
        ),
    );
    Structured {
        entry: GenEntry {
            text: module(&params, &o),
            args,
            grid: [cdiv(m, tm) as u32, 1, 1],
        },
        exact: false,
        what: format!("attention {elem} d={d} {tm}x{tn} of {m} queries, {s_len} keys, to {o_elem}"),
    }
}

/// A tile moved between views of different layouts, with an elementwise op on the way.
fn copy(rng: &mut Rng, seed: u64) -> Structured {
    let elem = pick(rng, &["f32", "f16", "bf16", "i32", "i8", "i16", "f64"]);
    let three = rng.percent(40);
    let aligned = rng.percent(70);
    let (tile, perm): (Vec<i64>, Vec<usize>) = if three {
        let t = vec![
            pick(rng, &[1, 2, 4]),
            pick(rng, &[4, 8, 16, 32]),
            pick(rng, &[8, 16, 32, 64]),
        ];
        let p = pick(
            rng,
            &[[0, 2, 1], [1, 0, 2], [2, 1, 0], [1, 2, 0], [2, 0, 1]],
        );
        (t, p.to_vec())
    } else {
        (
            vec![
                pick(rng, &[8, 16, 32, 64]),
                pick(rng, &[8, 16, 32, 64, 128]),
            ],
            vec![1, 0],
        )
    };
    let shape: Vec<i64> = tile.iter().map(|&t| extent(rng, t, 2)).collect();
    let x = Array::new(rng, "x", elem, shape.clone());
    // The output holds the input permuted: dimension d of y is dimension perm[d] of x.
    let yshape: Vec<i64> = perm.iter().map(|&p| shape[p]).collect();
    let y = Array::new(rng, "y", elem, yshape.clone());
    // y's partition view takes tiles of x's tile shape (tile dim d along y's dimension
    // inverse[d]), so that the loaded tile stores as it is.
    let mut inverse = vec![0usize; perm.len()];
    for (d, &p) in perm.iter().enumerate() {
        inverse[p] = d;
    }
    let px = x.partition(&tile, Some("zero"), None);
    let py = y.partition(&tile, None, Some(&inverse));
    let mut params = x.params();
    params.extend(y.params());
    let float = !elem.starts_with('i');
    let mut args = x.args(if float { "random" } else { "randint" }, seed % 100_000);
    args.extend(y.args("zeros", 0));
    let mut o = String::new();
    let _ = writeln!(o, "    %tok = make_token : token");
    x.make_view(&mut o, aligned);
    y.make_view(&mut o, aligned);
    let _ = writeln!(o, "    %bx, %by, %bz = get_tile_block_id : tile<i32>");
    let _ = writeln!(o, "    %px = make_partition_view %x_v : {px}");
    let _ = writeln!(o, "    %py = make_partition_view %y_v : {py}");
    let dims: Vec<String> = tile.iter().map(i64::to_string).collect();
    let tt = format!("tile<{}x{elem}>", dims.join("x"));
    let idx = if three { "%bx, %by, %bz" } else { "%bx, %by" };
    let _ = writeln!(
        o,
        "    %xv, %t1 = load_view_tko weak %px[{idx}] token = %tok : {px}, tile<i32> -> {tt}, token"
    );
    let op = if float { "addf" } else { "addi" };
    let _ = writeln!(o, "    %v2 = {op} %xv, %xv : {tt}");
    let _ = writeln!(
        o,
        "    %st = store_view_tko weak %v2, %py[{idx}] token = %tok : {tt}, {py}, tile<i32> -> token"
    );
    let g: Vec<u32> = shape
        .iter()
        .zip(&tile)
        .map(|(n, t)| cdiv(*n, *t) as u32)
        .collect();
    let grid = [g[0], g[1], g.get(2).copied().unwrap_or(1)];
    Structured {
        entry: GenEntry {
            text: module(&params, &o),
            args,
            grid,
        },
        exact: true,
        what: format!("copy {elem} tile {} permuted {perm:?}", dims.join("x")),
    }
}

fn module(params: &[String], body: &str) -> String {
    format!(
        "cuda_tile.module @kernels {{\n  entry @kernel({}) {{\n{body}    return\n  }}\n}}\n",
        params.join(", ")
    )
}

/// The element type names are `'static` already; this keeps [`Array::elem`] simple.
fn leak(s: &str) -> &'static str {
    match s {
        "f16" => "f16",
        "bf16" => "bf16",
        "f32" => "f32",
        "f64" => "f64",
        "f8E4M3FN" => "f8E4M3FN",
        "f8E5M2" => "f8E5M2",
        "i8" => "i8",
        "i16" => "i16",
        "i32" => "i32",
        _ => "i64",
    }
}

/// `a / b` rounded up (`a >= 0`, `b > 0`).
fn cdiv(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

//! Every structural op over a sweep of tile shapes and element types compiles, and ptxas
//! (sm_80) accepts the PTX with no error or warning: shapes from one element to 8192 and
//! 2-D/3-D tiles up to 64 KiB, so that chunked conversions and scans, replicated layouts
//! and the shared-memory limit are all exercised; and `mmaf`/`mmai` for every tensor-core
//! kind and fallback element type, from 1x1x1 to 256x128x32 (the fallback staging K in
//! chunks). A kernel that needs more than 48 KiB of shared memory gets it as dynamic
//! shared memory (docs/abi.md); one that would need more than the target allows a CTA
//! must be refused with E0901 instead; such cases (none at present) are listed in
//! `TOO_BIG` and checked to be refused.

use std::fmt::Write as _;
use tilec_tests::{ptxas, run_tilec, skipped};

const SHAPES: &[&[usize]] = &[
    &[1],
    &[2],
    &[32],
    &[128],
    &[1024],
    &[8192],
    &[1, 1],
    &[2, 64],
    &[64, 2],
    &[16, 16],
    &[64, 64],
    &[128, 128],
    &[256, 64],
    &[4, 8, 16],
    &[2, 64, 64],
];
const ELEMS: &[&str] = &["f32", "f16", "i32", "i8", "f64"];

/// Cases whose lowering needs more shared memory in one op than sm_80 allows a CTA (163
/// KiB): none of these shapes (the largest, a 64 KiB scan along a dimension that holds
/// every register bit, so no lines to split into chunks, uses dynamic shared memory).
const TOO_BIG: &[&str] = &[];

fn dims(shape: &[usize]) -> String {
    shape
        .iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("x")
}

/// `tile<SHAPExELEM>` (`tile<ELEM>` for rank 0).
fn tile(shape: &[usize], elem: &str) -> String {
    if shape.is_empty() {
        format!("tile<{elem}>")
    } else {
        format!("tile<{}x{elem}>", dims(shape))
    }
}

/// A dense row-major view and its whole-tile partition over `ptr`, named `name`.
fn view(name: &str, ptr: &str, shape: &[usize], elem: &str) -> (String, String) {
    let mut strides = vec![1usize; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * shape[i + 1];
    }
    let join = |v: &[usize], sep: &str| {
        v.iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(sep)
    };
    let tv = format!(
        "tensor_view<{}x{elem}, strides=[{}]>",
        dims(shape),
        join(&strides, ",")
    );
    let pv = format!("partition_view<tile=({}), {tv}>", dims(shape));
    let text = format!(
        "    %{name}_v = make_tensor_view %{ptr}, shape = [{}], strides = [{}] : {tv}\n    %{name}_p = make_partition_view %{name}_v : {pv}\n",
        join(shape, ", "),
        join(&strides, ", ")
    );
    (text, pv)
}

/// A kernel that loads `x` (of `shape`), runs `body` and stores the value `out` of
/// `out_shape` (nothing when it is rank 0).
fn kernel(shape: &[usize], elem: &str, body: &str, out: &str, out_shape: &[usize]) -> String {
    let zeros = |n: usize| vec!["%c0"; n].join(", ");
    let (xv, xp) = view("x", "x_ptr", shape, elem);
    let mut k = format!(
        "cuda_tile.module @t {{\n  entry @k(%x_ptr: tile<ptr<{elem}>>, %y_ptr: tile<ptr<{elem}>>, %i: tile<i32>) {{\n    %token = make_token : token\n    %c0 = constant <i32: 0> : tile<i32>\n{xv}    %x, %xt = load_view_tko weak %x_p[{}] token = %token : {xp}, tile<i32> -> {}, token\n{body}",
        zeros(shape.len()),
        tile(shape, elem)
    );
    if !out_shape.is_empty() {
        let (yv, yp) = view("y", "y_ptr", out_shape, elem);
        let _ = writeln!(
            k,
            "{yv}    %yt = store_view_tko weak %{out}, %y_p[{}] token = %token : {}, {yp}, tile<i32> -> token",
            zeros(out_shape.len()),
            tile(out_shape, elem)
        );
    }
    k.push_str("    return\n  }\n}\n");
    k
}

fn cases() -> Vec<(String, String)> {
    let mut v = Vec::new();
    for shape in SHAPES {
        let d = dims(shape);
        for elem in ELEMS {
            let float = elem.starts_with('f');
            let add = if float { "addf" } else { "addi" };
            let zero = if float { "0.0" } else { "0" };
            let t = tile(shape, elem);
            let body = format!("    %y = {add} %x, %x : {t}\n");
            v.push((
                format!("ew_{d}_{elem}"),
                kernel(shape, elem, &body, "y", shape),
            ));
            let combine = format!(
                "    (%a: tile<{elem}>, %b: tile<{elem}>) {{\n      %c = {add} %a, %b : tile<{elem}>\n      yield %c : tile<{elem}>\n    }}\n"
            );
            for dim in 0..shape.len() {
                let mut rs = shape.to_vec();
                rs.remove(dim);
                let body = format!(
                    "    %r = reduce %x dim={dim} identities=[{zero} : {elem}] : {t} -> {}\n{}",
                    tile(&rs, elem),
                    combine
                );
                v.push((
                    format!("reduce_{d}_{elem}_d{dim}"),
                    kernel(shape, elem, &body, "r", &rs),
                ));
                let body = format!(
                    "    %s = scan %x dim={dim} reverse=false identities=[{zero} : {elem}] : {t} -> {t}\n{combine}"
                );
                v.push((
                    format!("scan_{d}_{elem}_d{dim}"),
                    kernel(shape, elem, &body, "s", shape),
                ));
            }
            if shape.len() >= 2 {
                let n = shape.len();
                let mut perm: Vec<usize> = (0..n).collect();
                perm.swap(n - 2, n - 1);
                let ps: Vec<usize> = perm.iter().map(|p| shape[*p]).collect();
                let plist = perm
                    .iter()
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
                    .join(", ");
                let body = format!(
                    "    %p = permute %x [{plist}] : {t} -> {}\n",
                    tile(&ps, elem)
                );
                v.push((
                    format!("permute_{d}_{elem}"),
                    kernel(shape, elem, &body, "p", &ps),
                ));
                let mut cs = shape.to_vec();
                cs[0] *= 2;
                let body = format!(
                    "    %q = cat %x, %x dim = 0 : {t}, {t} -> {}\n",
                    tile(&cs, elem)
                );
                v.push((
                    format!("cat_{d}_{elem}"),
                    kernel(shape, elem, &body, "q", &cs),
                ));
                // A row broadcast back to the whole tile, added to it.
                let mut row = shape.to_vec();
                row[0] = 1;
                let body = format!(
                    "    %e = extract %x[%i{}] : {t} -> {}\n    %b = broadcast %e : {} -> {t}\n    %z = {add} %x, %b : {t}\n",
                    ", %c0".repeat(n - 1),
                    tile(&row, elem),
                    tile(&row, elem)
                );
                v.push((
                    format!("bcast_{d}_{elem}"),
                    kernel(shape, elem, &body, "z", shape),
                ));
            }
        }
    }
    v
}

/// `mmaf`/`mmai` over element types (tensor-core kinds and fallbacks) and shapes from 1x1x1
/// to 256x128x32, at 4 warps (and 1 and 8 for one shape each).
fn mma_cases() -> Vec<(String, String, u32)> {
    let mut v = Vec::new();
    let kinds: &[(&str, &str, &str)] = &[
        ("f16", "f32", "mmaf"),
        ("f16", "f16", "mmaf"),
        ("bf16", "f32", "mmaf"),
        ("tf32", "f32", "mmaf"),
        ("f32", "f32", "mmaf"),
        ("f64", "f64", "mmaf"),
        ("f8E4M3FN", "f32", "mmaf"),
        ("f8E5M2", "f16", "mmaf"),
        ("i8", "i32", "mmai"),
    ];
    let shapes: &[(usize, usize, usize)] = &[
        (1, 1, 1),
        (2, 4, 8),
        (16, 8, 16),
        (16, 8, 32),
        (32, 32, 32),
        (64, 16, 64),
        (64, 64, 32),
        (128, 128, 32),
        (128, 64, 64),
        (256, 128, 32),
    ];
    for (ea, ec, op) in kinds {
        for &(mm, nn, kk) in shapes {
            let warps: &[u32] = if (mm, nn, kk) == (64, 64, 32) {
                &[1, 4, 8]
            } else {
                &[4]
            };
            for &w in warps {
                let (av, ap) = view("a", "pa", &[mm, kk], ea);
                let (bv, bp) = view("b", "pb", &[kk, nn], ea);
                let (cv, cp) = view("c", "pc", &[mm, nn], ec);
                let (at, bt, ct) = (
                    tile(&[mm, kk], ea),
                    tile(&[kk, nn], ea),
                    tile(&[mm, nn], ec),
                );
                let sign = if *op == "mmai" { " signed signed" } else { "" };
                let src = format!(
                    "cuda_tile.module @t {{\n  entry @k(%pa: tile<ptr<{ea}>>, %pb: tile<ptr<{ea}>>, %pc: tile<ptr<{ec}>>) {{\n    %token = make_token : token\n    %c0 = constant <i32: 0> : tile<i32>\n{av}{bv}{cv}    %a, %t1 = load_view_tko weak %a_p[%c0, %c0] token = %token : {ap}, tile<i32> -> {at}, token\n    %b, %t2 = load_view_tko weak %b_p[%c0, %c0] token = %token : {bp}, tile<i32> -> {bt}, token\n    %c, %t3 = load_view_tko weak %c_p[%c0, %c0] token = %token : {cp}, tile<i32> -> {ct}, token\n    %d = {op} %a, %b, %c{sign} : {at}, {bt}, {ct}\n    %t4 = store_view_tko weak %d, %c_p[%c0, %c0] token = %token : {ct}, {cp}, tile<i32> -> token\n    return\n  }}\n}}\n"
                );
                v.push((format!("{op}_{ea}_{ec}_{mm}x{nn}x{kk}_w{w}"), src, w));
            }
        }
    }
    v
}

fn main() {
    let tool = ptxas::find();
    if tool.is_none() {
        skipped(
            "ptxas validation of the shape sweep",
            "ptxas not found (set TILEC_PTXAS or `pip install nvidia-cuda-nvcc`); only compilation is checked",
        );
    }
    let dir = std::env::temp_dir().join(format!("tilec-ptx-shapes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let cases: Vec<(String, String, u32)> = cases()
        .into_iter()
        .map(|(n, s)| (n, s, 4))
        .chain(mma_cases())
        .collect();
    let workers = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(8);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((name, src, warps)) = cases.get(i) else {
                        break;
                    };
                    if let Err(e) = check(name, src, *warps, tool.as_deref(), &dir) {
                        failures.lock().unwrap().push(format!("{name}: {e}"));
                    }
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
    let failures = failures.into_inner().unwrap();
    println!(
        "ptx_shapes: {} kernels, {} failed{}",
        cases.len(),
        failures.len(),
        if tool.is_some() {
            ""
        } else {
            " (ptxas SKIPPED)"
        }
    );
    if !failures.is_empty() {
        for f in &failures {
            eprintln!("{f}");
        }
        std::process::exit(1);
    }
}

fn check(
    name: &str,
    src: &str,
    warps: u32,
    tool: Option<&std::path::Path>,
    dir: &std::path::Path,
) -> Result<(), String> {
    let w = warps.to_string();
    let out = run_tilec(&["-", "--arch", "sm_80", "--num-warps", &w, "-o", "-"], src);
    if TOO_BIG.contains(&name) {
        return if out.status == 1 && out.stderr.contains("[E0901]") && out.stderr.contains("KiB") {
            Ok(())
        } else {
            Err(format!(
                "expected E0901, got status {}: {}",
                out.status, out.stderr
            ))
        };
    }
    if out.status != 0 {
        return Err(format!("tilec exit {}: {}", out.status, out.stderr));
    }
    let Some(tool) = tool else {
        return Ok(());
    };
    let path = dir.join(format!("{name}.ptx"));
    std::fs::write(&path, &out.stdout).map_err(|e| e.to_string())?;
    let r = ptxas::assemble(tool, &path, "sm_80");
    if !r.ok || !r.problems.is_empty() {
        return Err(format!("ptxas: {}", r.problems.join("; ")));
    }
    Ok(())
}

//! Vectorised global memory accesses: kernels whose contiguity and alignment are provable
//! get `ld.global.v2/.v4` / `st.global.v2/.v4`; views whose only unknown is the alignment
//! of the base address or of a dynamic row stride, and pointer tiles proven consecutive
//! but not aligned or not uniformly masked, get vectors under a check made when the kernel
//! runs, with per-element accesses otherwise; accesses without contiguity (stride not 1,
//! pointers not proven consecutive) stay one access per element; dynamic
//! shapes not known to be multiples of the vector width get the vector access plus
//! per-element accesses for a partly-in-bounds vector.
//!
//! With `TILEC_PTXAS` set to a ptxas binary, every kernel is also assembled for sm_80 and
//! must give no error and no warning.

use std::path::PathBuf;
use tilec_diag::FileId;
use tilec_ptx::{Arch, Options};

fn compile(src: &str) -> String {
    let m = tilec_parse::parse(src, FileId(0), &tilec_parse::ParseOptions::default())
        .unwrap_or_else(|e| panic!("parse error: {e:?}\n{src}"));
    let opts = Options {
        arch: Arch::Sm80,
        ..Options::default()
    };
    let ptx = tilec_ptx::compile(&m, &opts, Some(src))
        .unwrap_or_else(|e| panic!("compile error: {e:?}\n{src}"));
    assemble(&ptx);
    ptx
}

/// Assembles `ptx` with `$TILEC_PTXAS` when set; fails on any message.
fn assemble(ptx: &str) {
    let Some(tool) = std::env::var_os("TILEC_PTXAS") else {
        return;
    };
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let id = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("tilec-vector-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(format!("k{id}.ptx"));
    std::fs::write(&file, ptx).expect("write ptx");
    let out = std::process::Command::new(tool)
        .args(["-arch", "sm_80", "-o"])
        .arg(dir.join(format!("k{id}.cubin")))
        .arg(&file)
        .output()
        .expect("run ptxas");
    let msg = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success() && msg.trim().is_empty(),
        "ptxas: {msg}\n{ptx}"
    );
}

/// Global loads and stores, each counted as (vector width, is store).
fn accesses(ptx: &str) -> Vec<(u32, bool)> {
    ptx.lines()
        .map(str::trim)
        .map(|l| match l.strip_prefix('@') {
            Some(rest) => rest.split_once(' ').map_or("", |(_, r)| r),
            None => l,
        })
        .filter(|l| {
            let op = l.split(' ').next().unwrap_or("");
            (op.starts_with("ld.") || op.starts_with("st.")) && op.contains(".global")
        })
        .map(|l| {
            let op = l.split(' ').next().unwrap_or("");
            let w = if op.contains(".v4.") {
                4
            } else if op.contains(".v2.") {
                2
            } else {
                1
            };
            (w, op.starts_with("st."))
        })
        .collect()
}

fn count(ptx: &str, width: u32, store: bool) -> usize {
    accesses(ptx)
        .iter()
        .filter(|a| **a == (width, store))
        .count()
}

fn example(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(format!("{name}.tile"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A 1-D f32 copy through views of type `ty`: `ptr_assume` defines the base pointers
/// `%pa` and `%qa` from `%p` and `%q`, `shape_expr` the length `%ns` from `%nn`.
fn view_copy(ptr_assume: &str, shape_expr: &str, ty: &str) -> String {
    format!(
        r#"cuda_tile.module @m {{
  entry @copy(%p: tile<ptr<f32>>, %q: tile<ptr<f32>>, %n: tile<i32>) {{
    %t = make_token : token
    {ptr_assume}
    %nn = assume bounded<0, ?>, %n : tile<i32>
    {shape_expr}
    %v = make_tensor_view %pa, shape = [%ns], strides = [1] : tile<i32> -> {ty}
    %w = make_tensor_view %qa, shape = [%ns], strides = [1] : tile<i32> -> {ty}
    %pv = make_partition_view %v : partition_view<tile=(1024), {ty}>
    %pw = make_partition_view %w : partition_view<tile=(1024), {ty}>
    %b, %by, %bz = get_tile_block_id : tile<i32>
    %x, %t1 = load_view_tko weak %pv[%b] token = %t : partition_view<tile=(1024), {ty}>, tile<i32> -> tile<1024xf32>, token
    %t2 = store_view_tko weak %x, %pw[%b] token = %t1 : tile<1024xf32>, partition_view<tile=(1024), {ty}>, tile<i32> -> token
    return
  }}
}}
"#
    )
}

const VIEW_TY: &str = "tensor_view<?xf32, strides=[1]>";
const ALIGNED: &str = "%pa = assume div_by<16>, %p : tile<ptr<f32>>\n    %qa = assume div_by<16>, %q : tile<ptr<f32>>";

#[test]
fn vector_add_example_moves_four_floats_per_access() {
    let ptx = compile(&example("vector_add"));
    // 1024 elements over 128 threads: 8 slots, two vectors of 4 per thread and access.
    assert_eq!(count(&ptx, 4, false), 4, "{ptx}");
    assert_eq!(count(&ptx, 4, true), 2, "{ptx}");
    assert!(ptx.contains("ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd"));
    assert!(ptx.contains("st.global.v4.f32 [%rd"));
    // The length is dynamic and not known to be a multiple of 4: a partly-in-bounds
    // vector is moved element by element (3 per vector: the 4th is then out of bounds).
    assert_eq!(count(&ptx, 1, false), 2 * 2 * 3, "{ptx}");
    assert_eq!(count(&ptx, 1, true), 2 * 3, "{ptx}");
}

#[test]
fn view_with_divisible_shape_has_one_check_per_vector() {
    let src = view_copy(ALIGNED, "%ns = assume div_by<4>, %nn : tile<i32>", VIEW_TY);
    let ptx = compile(&src);
    assert_eq!(
        accesses(&ptx),
        vec![(4, false), (4, false), (4, true), (4, true)]
    );
    // One bound per vector: shape - c > first coordinate (0 and 512).
    assert!(ptx.contains("setp.gt.s64 %p2, %rd"), "{ptx}");
    assert!(ptx.contains(", 512;"), "{ptx}");
}

#[test]
fn static_shape_multiple_of_four_is_uniform() {
    let ty = "tensor_view<4096xf32, strides=[1]>";
    let src = view_copy(ALIGNED, "%ns = assume bounded<0, ?>, %nn : tile<i32>", ty).replace(
        "shape = [%ns], strides = [1] : tile<i32> ->",
        "shape = [4096], strides = [1] :",
    );
    let ptx = compile(&src);
    assert_eq!(
        accesses(&ptx),
        vec![(4, false), (4, false), (4, true), (4, true)]
    );
}

#[test]
fn unaligned_base_is_checked_when_the_kernel_runs() {
    // Only the element alignment (4 bytes) is known: the vectors run when the base
    // address is 16-byte aligned at run time, the elements one by one otherwise.
    let src = view_copy(
        "%pa = assume div_by<4>, %p : tile<ptr<f32>>\n    %qa = assume div_by<4>, %q : tile<ptr<f32>>",
        "%ns = assume div_by<4>, %nn : tile<i32>",
        VIEW_TY,
    );
    let ptx = compile(&src);
    assert_eq!(count(&ptx, 4, false), 2, "{ptx}");
    assert_eq!(count(&ptx, 4, true), 2, "{ptx}");
    // Every element of every vector has its fallback (the whole vector may be in bounds).
    assert_eq!(count(&ptx, 1, false), 8, "{ptx}");
    assert_eq!(count(&ptx, 1, true), 8, "{ptx}");
    // One check per access: base & 15 == 0.
    assert_eq!(ptx.matches(", 15;\n").count(), 2, "{ptx}");
}

#[test]
fn eight_byte_alignment_gives_v2() {
    let src = view_copy(
        "%pa = assume div_by<8>, %p : tile<ptr<f32>>\n    %qa = assume div_by<32>, %q : tile<ptr<f32>>",
        "%ns = assume div_by<4>, %nn : tile<i32>",
        VIEW_TY,
    );
    let ptx = compile(&src);
    assert_eq!(count(&ptx, 2, false), 4, "{ptx}");
    assert_eq!(count(&ptx, 4, true), 2, "{ptx}");
    assert!(ptx.contains("ld.global.v2.f32 {%f1, %f2}"), "{ptx}");
}

#[test]
fn odd_shape_divisibility_splits_but_never_reads_past_the_end() {
    // Shape divisible by 2 only: v4 with per-element fallback (the alignment allows 4).
    let src = view_copy(ALIGNED, "%ns = assume div_by<2>, %nn : tile<i32>", VIEW_TY);
    let ptx = compile(&src);
    assert_eq!(count(&ptx, 4, false), 2, "{ptx}");
    assert_eq!(count(&ptx, 1, false), 6, "{ptx}");
    // The vector needs its last element in bounds: shape - c > 3 (and > 515).
    assert!(ptx.contains(", 3;\n\t@%p"), "{ptx}");
    // Every scalar fallback is guarded by its own bound and by "not entirely in bounds".
    for l in ptx.lines().filter(|l| l.contains("ld.global.f32")) {
        assert!(l.trim_start().starts_with("@%p"), "unguarded: {l}");
    }
    assert!(ptx.contains("setp.le.s64"), "{ptx}");
}

#[test]
fn row_strides_are_checked_at_run_time_or_proven_and_strided_views_stay_scalar() {
    let two_d = |stride_line: &str| {
        format!(
            r#"cuda_tile.module @m {{
  entry @rows(%p: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>, %s: tile<i32>) {{
    %t = make_token : token
    %pa = assume div_by<16>, %p : tile<ptr<f32>>
    %n4 = assume div_by<4>, %n : tile<i32>
    {stride_line}
    %v = make_tensor_view %pa, shape = [%m, %n4], strides = [%st, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pv = make_partition_view %v : partition_view<tile=(4x256), tensor_view<?x?xf32, strides=[?,1]>>
    %b, %by, %bz = get_tile_block_id : tile<i32>
    %x, %t1 = load_view_tko weak %pv[%b, %by] token = %t : partition_view<tile=(4x256), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<4x256xf32>, token
    %t2 = store_view_tko weak %x, %pv[%by, %b] token = %t1 : tile<4x256xf32>, partition_view<tile=(4x256), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }}
}}
"#
        )
    };
    // Row stride unknown: rows may start anywhere, so the vectors run when the stride is
    // a multiple of 4 elements at run time (stride & 3 == 0), the elements otherwise.
    let ptx = compile(&two_d("%st = assume bounded<0, ?>, %s : tile<i32>"));
    assert_eq!(count(&ptx, 4, false), 2, "{ptx}");
    assert_eq!(count(&ptx, 1, false), 8, "{ptx}");
    assert_eq!(ptx.matches(", 3;\n").count(), 2, "{ptx}");
    // Row stride a multiple of 4 elements: every row start stays 16-byte aligned.
    let ptx = compile(&two_d("%st = assume div_by<4>, %s : tile<i32>"));
    assert_eq!(count(&ptx, 4, false), 2, "{ptx}");
    assert_eq!(count(&ptx, 4, true), 2, "{ptx}");
    assert_eq!(count(&ptx, 1, false), 0, "{ptx}");
    // A static stride of 2 in the innermost dimension: not contiguous.
    let src = view_copy(ALIGNED, "%ns = assume div_by<4>, %nn : tile<i32>", VIEW_TY)
        .replace(
            "strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>",
            "strides = [2] : tile<i32> -> tensor_view<?xf32, strides=[2]>",
        )
        .replace(
            "tensor_view<?xf32, strides=[1]>",
            "tensor_view<?xf32, strides=[2]>",
        );
    let ptx = compile(&src);
    assert!(accesses(&ptx).iter().all(|a| a.0 == 1), "{ptx}");
}

fn pointer_kernel(base: &str, n_line: &str, masked: &str) -> String {
    format!(
        r#"cuda_tile.module @m {{
  entry @ptrs(%p: tile<ptr<f32>>, %n: tile<i32>) {{
    %t = make_token : token
    {base}
    {n_line}
    %b, %by, %bz = get_tile_block_id : tile<i32>
    %c = constant <i32: 1024> : tile<i32>
    %s = muli %b, %c : tile<i32>
    %s1 = reshape %s : tile<i32> -> tile<1xi32>
    %sv = broadcast %s1 : tile<1xi32> -> tile<1024xi32>
    %i = iota : tile<1024xi32>
    %idx = addi %sv, %i : tile<1024xi32>
    %n1 = reshape %nn : tile<i32> -> tile<1xi32>
    %nv = broadcast %n1 : tile<1xi32> -> tile<1024xi32>
    %mask = cmpi less_than %idx, %nv, signed : tile<1024xi32> -> tile<1024xi1>
    %p1 = reshape %pa : tile<ptr<f32>> -> tile<1xptr<f32>>
    %pv = broadcast %p1 : tile<1xptr<f32>> -> tile<1024xptr<f32>>
    %ptrs = offset %pv, %idx : tile<1024xptr<f32>>, tile<1024xi32> -> tile<1024xptr<f32>>
    {masked}
    return
  }}
}}
"#
    )
}

const MASKED: &str = r#"%zero = constant <f32: 0.0> : tile<1024xf32>
    %x, %t1 = load_ptr_tko weak %ptrs, %mask, %zero token=%t : tile<1024xptr<f32>>, tile<1024xi1>, tile<1024xf32> -> tile<1024xf32>, token
    %t2 = store_ptr_tko weak %ptrs, %x, %mask token=%t1 : tile<1024xptr<f32>>, tile<1024xf32>, tile<1024xi1> -> token"#;

#[test]
fn pointer_tiles_from_iota_and_aligned_base() {
    let unmasked = r#"%x, %t1 = load_ptr_tko weak %ptrs token=%t : tile<1024xptr<f32>> -> tile<1024xf32>, token
    %t2 = store_ptr_tko weak %ptrs, %x token=%t1 : tile<1024xptr<f32>>, tile<1024xf32> -> token"#;
    let base = "%pa = assume div_by<16>, %p : tile<ptr<f32>>";
    let ptx = compile(&pointer_kernel(
        base,
        "%nn = assume bounded<0, ?>, %n : tile<i32>",
        unmasked,
    ));
    assert_eq!(
        accesses(&ptx),
        vec![(4, false), (4, false), (4, true), (4, true)]
    );
    // Masked by i < n with n a multiple of 4: the mask is constant over each vector.
    let ptx = compile(&pointer_kernel(
        base,
        "%nn = assume div_by<4>, %n : tile<i32>",
        MASKED,
    ));
    assert_eq!(
        accesses(&ptx),
        vec![(4, false), (4, false), (4, true), (4, true)]
    );
    // The padding still fills masked-off lanes: registers start as the padding value.
    assert!(ptx.contains("ld.global.v4.f32 {%f"), "{ptx}");
}

#[test]
fn pointer_tiles_without_the_proof_check_at_run_time() {
    // Consecutive pointers whose alignment or mask the IR cannot prove constant over a
    // run of four: per run, one vector access under "first pointer aligned and the four
    // mask bits set" (`and.b64 .., 15` then `setp.eq`), and each element on its own
    // otherwise.
    let checked = |ptx: &str, loads: usize, stores: usize| {
        let ptx = &ptx[ptx.find(".entry").unwrap_or(0)..];
        assert_eq!(count(ptx, 4, false), loads, "{ptx}");
        assert_eq!(count(ptx, 4, true), stores, "{ptx}");
        assert_eq!(count(ptx, 1, false), 4 * loads, "{ptx}");
        assert_eq!(count(ptx, 1, true), 4 * stores, "{ptx}");
        assert_eq!(ptx.matches(", 15;\n").count(), loads + stores, "{ptx}");
    };
    // A mask that may change inside a vector (n arbitrary).
    let base = "%pa = assume div_by<16>, %p : tile<ptr<f32>>";
    let ptx = compile(&pointer_kernel(
        base,
        "%nn = assume bounded<0, ?>, %n : tile<i32>",
        MASKED,
    ));
    checked(&ptx, 2, 2);
    // No alignment known for the base pointer.
    let ptx = compile(&pointer_kernel(
        "%pa = assume div_by<4>, %p : tile<ptr<f32>>",
        "%nn = assume div_by<4>, %n : tile<i32>",
        MASKED,
    ));
    checked(&ptx, 2, 2);
    // A varying mask (loaded from memory) on the store; the unmasked load is proven.
    let varying = r#"%zero = constant <f32: 0.0> : tile<1024xf32>
    %x, %t1 = load_ptr_tko weak %ptrs token=%t : tile<1024xptr<f32>> -> tile<1024xf32>, token
    %pos = cmpf greater_than ordered %x, %zero : tile<1024xf32> -> tile<1024xi1>
    %t2 = store_ptr_tko weak %ptrs, %zero, %pos token=%t1 : tile<1024xptr<f32>>, tile<1024xf32>, tile<1024xi1> -> token"#;
    let ptx = compile(&pointer_kernel(
        base,
        "%nn = assume bounded<0, ?>, %n : tile<i32>",
        varying,
    ));
    assert_eq!(count(&ptx, 4, false), 2, "{ptx}");
    assert_eq!(count(&ptx, 1, false), 0, "{ptx}");
    assert_eq!(count(&ptx, 4, true), 2, "{ptx}");
    assert_eq!(count(&ptx, 1, true), 8, "{ptx}");
    // Pointers one element off (iota + 1): the analysis keeps no runs through the
    // addition of a splat, so nothing is proven consecutive and every element goes alone.
    let ptx = compile(
        &pointer_kernel(base, "%nn = assume div_by<4>, %n : tile<i32>", MASKED).replace(
            "%idx = addi %sv, %i : tile<1024xi32>",
            "%one = constant <i32: 1> : tile<1024xi32>\n    %i1 = addi %i, %one : tile<1024xi32>\n    %idx = addi %sv, %i1 : tile<1024xi32>",
        ),
    );
    assert!(accesses(&ptx).iter().all(|a| a.0 == 1), "{ptx}");
}

#[test]
fn assume_every_along_gives_runs_to_pointer_tiles() {
    // Pointers computed from an unknown stride: nothing provable, until the producer
    // promises 16-byte aligned runs of 4 consecutive elements.
    let src = |assume: &str| {
        format!(
            r#"cuda_tile.module @m {{
  entry @k(%b: tile<ptr<f32>>, %k: tile<i64>) {{
    %t = make_token : token
    %b1 = reshape %b : tile<ptr<f32>> -> tile<1xptr<f32>>
    %bv = broadcast %b1 : tile<1xptr<f32>> -> tile<1024xptr<f32>>
    %k1 = reshape %k : tile<i64> -> tile<1xi64>
    %kv = broadcast %k1 : tile<1xi64> -> tile<1024xi64>
    %i = iota : tile<1024xi64>
    %o = muli %i, %kv : tile<1024xi64>
    %p = offset %bv, %o : tile<1024xptr<f32>>, tile<1024xi64> -> tile<1024xptr<f32>>
    {assume}
    %x, %t1 = load_ptr_tko weak %q token=%t : tile<1024xptr<f32>> -> tile<1024xf32>, token
    %t2 = store_ptr_tko weak %q, %x token=%t1 : tile<1024xptr<f32>>, tile<1024xf32> -> token
    return
  }}
}}
"#
        )
    };
    let ptx = compile(&src(
        "%q = assume div_by<16, every 4 along 0>, %p : tile<1024xptr<f32>>",
    ));
    assert_eq!(
        accesses(&ptx),
        vec![(4, false), (4, false), (4, true), (4, true)]
    );
    let ptx = compile(&src("%q = assume div_by<16>, %p : tile<1024xptr<f32>>"));
    assert!(accesses(&ptx).iter().all(|a| a.0 == 1), "{ptx}");
    let ptx = compile(&src(
        "%q = assume div_by<8, every 2 along 0>, %p : tile<1024xptr<f32>>",
    ));
    assert_eq!(
        accesses(&ptx),
        vec![(2, false); 4]
            .into_iter()
            .chain(vec![(2, true); 4])
            .collect::<Vec<_>>()
    );
}

#[test]
fn ordering_qualifiers_are_kept_on_vectors() {
    let src = view_copy(ALIGNED, "%ns = assume div_by<4>, %nn : tile<i32>", VIEW_TY)
        .replace(
            "load_view_tko weak %pv[%b] token = %t",
            "load_view_tko acquire device %pv[%b] token = %t",
        )
        .replace(
            "store_view_tko weak %x, %pw[%b]",
            "store_view_tko release device %x, %pw[%b]",
        );
    let ptx = compile(&src);
    assert!(ptx.contains("ld.acquire.gpu.global.v4.f32"), "{ptx}");
    assert!(ptx.contains("st.release.gpu.global.v4.f32"), "{ptx}");
}

#[test]
fn element_types_pick_their_vector_forms() {
    for (ty, align, want) in [
        ("f64", 16, "ld.global.v2.f64"),
        ("i64", 16, "ld.global.v2.u64"),
        ("f16", 8, "ld.global.v4.b16"),
        ("bf16", 8, "ld.global.v4.b16"),
        ("i8", 4, "ld.global.v4.s8"),
        ("i16", 8, "ld.global.v4.s16"),
        ("i32", 16, "ld.global.v4.u32"),
    ] {
        let vt = format!("tensor_view<4096x{ty}, strides=[1]>");
        let src = format!(
            r#"cuda_tile.module @m {{
  entry @k(%p: tile<ptr<{ty}>>) {{
    %t = make_token : token
    %pa = assume div_by<{align}>, %p : tile<ptr<{ty}>>
    %v = make_tensor_view %pa, shape = [4096], strides = [1] : {vt}
    %pv = make_partition_view %v : partition_view<tile=(1024), {vt}>
    %b, %by, %bz = get_tile_block_id : tile<i32>
    %x, %t1 = load_view_tko weak %pv[%b] token = %t : partition_view<tile=(1024), {vt}>, tile<i32> -> tile<1024x{ty}>, token
    %t2 = store_view_tko weak %x, %pv[%by] token = %t1 : tile<1024x{ty}>, partition_view<tile=(1024), {vt}>, tile<i32> -> token
    return
  }}
}}
"#
        );
        let ptx = compile(&src);
        assert!(ptx.contains(want), "{ty}: {ptx}");
        assert!(accesses(&ptx).iter().all(|a| a.0 > 1), "{ty}: {ptx}");
    }
}

#[test]
fn out_of_range_tiles_are_masked_off() {
    // A thread whose first coordinate is past the end must not touch memory: the bound is
    // compared signed (shape - c may be negative).
    let src = view_copy(ALIGNED, "%ns = assume div_by<4>, %nn : tile<i32>", VIEW_TY);
    let ptx = compile(&src);
    assert!(!ptx.contains("setp.gt.u64"), "{ptx}");
    // A block id is never negative: no check of the index.
    assert!(!ptx.contains("setp.lt.s64"), "{ptx}");
    // An index that may be negative masks the whole tile when it is.
    let ptx = compile(
        &src.replace("%n: tile<i32>)", "%n: tile<i32>, %j: tile<i32>)")
            .replace("load_view_tko weak %pv[%b]", "load_view_tko weak %pv[%j]"),
    );
    assert_eq!(ptx.matches("setp.lt.s64").count(), 1, "{ptx}");
    assert!(ptx.contains("mov.b64 %rd") && ptx.contains(", 0;"), "{ptx}");
}

#[test]
fn div_by_on_a_tensor_view_aligns_its_base() {
    let ty = "tensor_view<4096xf32, strides=[1]>";
    let src = |assume: &str| {
        format!(
            r#"cuda_tile.module @m {{
  entry @k(%p: tile<ptr<f32>>) {{
    %t = make_token : token
    %v0 = make_tensor_view %p, shape = [4096], strides = [1] : {ty}
    {assume}
    %pv = make_partition_view %v : partition_view<tile=(1024), {ty}>
    %b, %by, %bz = get_tile_block_id : tile<i32>
    %x, %t1 = load_view_tko weak %pv[%b] token = %t : partition_view<tile=(1024), {ty}>, tile<i32> -> tile<1024xf32>, token
    %t2 = store_view_tko weak %x, %pv[%by] token = %t1 : tile<1024xf32>, partition_view<tile=(1024), {ty}>, tile<i32> -> token
    return
  }}
}}
"#
        )
    };
    let ptx = compile(&src(&format!("%v = assume div_by<16>, %v0 : {ty}")));
    assert_eq!(
        accesses(&ptx),
        vec![(4, false), (4, false), (4, true), (4, true)]
    );
    let ptx = compile(&src(&format!("%v = assume div_by<8>, %v0 : {ty}")));
    assert_eq!(count(&ptx, 2, false), 4, "{ptx}");
    // 4-byte alignment proves no vector: checked when the kernel runs, with a fallback
    // per element.
    let ptx = compile(&src(&format!("%v = assume div_by<4>, %v0 : {ty}")));
    assert_eq!(count(&ptx, 4, false), 2, "{ptx}");
    assert_eq!(accesses(&ptx).len(), 2 + 2 + 16, "{ptx}");
}

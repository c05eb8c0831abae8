//! Thread-block clusters (docs/hopper.md, "Clusters"): a `num_cta_in_cga` hint (or
//! `--num-ctas`) spreads a kernel's tile block over a cluster of CTAs on sm_90 and newer.
//! The PTX declares the cluster and reads the tile block's id from the cluster's; every
//! example and corpus kernel the split takes matches the interpreter on the simulator
//! (which runs each cluster's CTAs, `%clusterid` and `%cluster_ctarank` included); the
//! kernels it does not take say why in a remark and compile as before; the printed
//! GPU-level IR parses back and compiles to the same PTX.

use tilec_tests::gpusweep::{self, SweepCase, Verdict};
use tilec_tests::simgpu::SimGpu;
use tilec_tests::{repo_root, run_tilec};

fn opts(arch: tilec_ptx::Arch, ctas: u32) -> tilec_ptx::Options {
    tilec_ptx::Options {
        arch,
        choose_warps: true,
        num_ctas: Some(ctas),
        ..tilec_ptx::Options::default()
    }
}

/// The GPU-level IR (`tilec opt -p convert-to-gpu`) of `src` for `arch` with every tile
/// block over a cluster of 2 CTAs, and `more` options.
fn gpu_ir(src: &str, arch: &str, more: &[&str]) -> String {
    let args = [
        &[
            "opt",
            "-",
            "-p",
            "convert-to-gpu",
            "--arch",
            arch,
            "--num-ctas",
            "2",
        ],
        more,
    ]
    .concat();
    let out = run_tilec(&args, src);
    assert_eq!(out.status, 0, "{}", out.stderr);
    out.stdout
}

/// PTX without its comment and `.file` lines (which name the input).
fn ptx_body(s: &str) -> String {
    s.lines()
        .filter(|l| !l.starts_with("//") && !l.starts_with(".file"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs every example and corpus case whose kernel the split takes on the simulator:
/// (cases run, distinct kernels split, cases the split left on one CTA).
fn run_split_cases(arch: tilec_ptx::Arch, ctas: u32) -> (usize, usize, usize) {
    let mut cases: Vec<SweepCase> = gpusweep::example_cases();
    cases.extend(gpusweep::corpus_cases().0);
    let o = opts(arch, ctas);
    let mut sim = SimGpu::default();
    let (mut ran, mut whole) = (0, 0);
    let mut kernels = std::collections::BTreeSet::new();
    let cluster = format!(".reqnctapercluster {ctas}, 1, 1\n.blocksareclusters");
    for c in &cases {
        let Ok(p) = gpusweep::prepare(c, &o) else {
            continue;
        };
        let head = format!(".visible .entry {}(", p.kernel);
        let decl = p.ptx.split(&head).nth(1).and_then(|s| s.split('{').next());
        if !decl.is_some_and(|d| d.contains(&cluster)) {
            whole += 1;
            continue;
        }
        kernels.insert((c.path.clone(), c.entry.clone()));
        match gpusweep::run_case(&mut sim, c, &o) {
            Verdict::Pass { .. } => ran += 1,
            Verdict::DeviceError(e) if gpusweep::simulator_limitation(&e) => {}
            v => panic!(
                "{} on a cluster of {ctas}: {} {v:?}\n{}",
                c.label,
                v.word(),
                c.command()
            ),
        }
    }
    (ran, kernels.len(), whole)
}

#[test]
fn split_kernels_match_the_interpreter_on_the_simulator_sm90() {
    let (ran, kernels, whole) = run_split_cases(tilec_ptx::Arch::Sm90, 2);
    println!(
        "sm_90, 2 CTAs: {ran} cases of {kernels} split kernels pass; {whole} cases stay on one CTA"
    );
    assert!(kernels >= 40, "only {kernels} kernels split");
    assert!(ran >= 100, "only {ran} cases ran");
}

#[test]
fn split_kernels_match_the_interpreter_on_the_simulator_sm90_4_ctas() {
    let (ran, kernels, whole) = run_split_cases(tilec_ptx::Arch::Sm90, 4);
    println!(
        "sm_90, 4 CTAs: {ran} cases of {kernels} split kernels pass; {whole} cases stay on one CTA"
    );
    assert!(kernels >= 30, "only {kernels} kernels split");
}

/// `examples/vector_add.tile` with `hints` on its entry.
fn vector_add_with(hints: &str) -> String {
    let src = std::fs::read_to_string(repo_root().join("examples/vector_add.tile")).unwrap();
    let at = src.find("entry @vector_add(").expect("entry");
    let close = at + src[at..].find(") {").expect("entry signature") + 1;
    format!("{} {hints}{}", &src[..close], &src[close..])
}

fn compile(src: &str, args: &[&str]) -> (String, String) {
    let out = run_tilec(&[&["-", "-o", "-"], args].concat(), src);
    assert_eq!(out.status, 0, "{}", out.stderr);
    (out.stdout, out.stderr)
}

/// The hint of the target's architecture (sm_90's for sm_90a), else `default`'s, decides;
/// below sm_90 there are no clusters.
#[test]
fn the_hint_declares_the_cluster_in_the_ptx() {
    let src = vector_add_with(
        "optimization_hints=<sm_90 = {num_cta_in_cga = 2}, default = {num_cta_in_cga = 4}>",
    );
    for arch in ["sm_90", "sm_90a"] {
        let (ptx, _) = compile(&src, &["--arch", arch]);
        assert!(ptx.contains(".version 9.0\n"), "{arch}:\n{ptx}");
        assert!(
            ptx.contains(".reqntid 128, 1, 1\n.reqnctapercluster 2, 1, 1\n.blocksareclusters\n"),
            "{arch}:\n{ptx}"
        );
        for sreg in ["%cluster_ctarank;", "%clusterid.x;", "%clusterid.y;"] {
            assert!(ptx.contains(sreg), "{arch}: no {sreg}");
        }
        assert!(!ptx.contains("%ctaid"), "{arch}: reads %ctaid");
    }
    let (ptx, _) = compile(&src, &["--arch", "sm_100"]);
    assert!(ptx.contains(".reqnctapercluster 4, 1, 1\n.blocksareclusters\n"));
    // --num-ctas overrides the hint.
    let (ptx, _) = compile(&src, &["--arch", "sm_90", "--num-ctas", "8"]);
    assert!(ptx.contains(".reqnctapercluster 8, 1, 1\n"));
    let (ptx, err) = compile(&src, &["--arch", "sm_80", "--remarks"]);
    assert!(!ptx.contains("cluster"), "{ptx}");
    assert!(!err.contains("E0905"), "{err}");
    // Each CTA of the pair loads and stores half of the 1024-element tile: 512 elements
    // over 128 threads, one 16-byte vector each.
    let (ptx, err) = compile(&src, &["--arch", "sm_90", "--remarks"]);
    assert!(
        err.contains("the tile block is spread over a cluster of 2 CTAs"),
        "{err}"
    );
    assert!(
        err.contains("load of a 512 f32 tile: 128-bit accesses"),
        "{err}"
    );
    assert_eq!(ptx.matches("ld.global.v4.f32").count(), 2, "{ptx}");
    assert_eq!(ptx.matches("st.global.v4.f32").count(), 1, "{ptx}");
}

/// A kernel that adds `x` to itself: loaded through `%pv`, stored through `store_view`
/// ordered by `token`.
fn doubling(store_view: &str, token: &str) -> String {
    format!(
        "cuda_tile.module @m {{
  entry @k(%p: tile<ptr<f32>>, %q: tile<ptr<f32>>, %n: tile<i32>) {{
    %t = make_token : token
    %tv = make_tensor_view %p, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>
    %tq = make_tensor_view %q, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %qv = make_partition_view %tq : partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>
    %b, %b1, %b2 = get_tile_block_id : tile<i32>
    %x, %xt = load_view_tko weak %pv[%b] token = %t : partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<256xf32>, token
    %y = addf %x, %x : tile<256xf32>
    %st = store_view_tko weak %y, {store_view}[%b] token = {token} : tile<256xf32>, partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }}
}}
"
    )
}

#[test]
fn kernels_the_split_does_not_take_say_why_and_stay_on_one_cta() {
    let refused = |src: &str, why: &str| {
        let (ptx, err) = compile(src, &["--arch", "sm_90", "--num-ctas", "2", "--remarks"]);
        let want = format!("the tile block stays on one CTA, not a cluster of 2: {why}");
        assert!(err.contains(&want), "{err}");
        assert!(!ptx.contains("cluster"));
        let (plain, _) = compile(src, &["--arch", "sm_90"]);
        assert_eq!(ptx, plain);
    };
    // A concatenation along the only dimension of the tile it writes.
    refused(
        "cuda_tile.module @m {
  entry @k(%p: tile<ptr<f32>>, %q: tile<ptr<f32>>, %n: tile<i32>) {
    %t = make_token : token
    %tv = make_tensor_view %p, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>
    %tq = make_tensor_view %q, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %qv = make_partition_view %tq : partition_view<tile=(512), tensor_view<?xf32, strides=[1]>>
    %b, %b1, %b2 = get_tile_block_id : tile<i32>
    %x, %xt = load_view_tko weak %pv[%b] token = %t : partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<256xf32>, token
    %y = cat %x, %x dim = 0 : tile<256xf32>, tile<256xf32> -> tile<512xf32>
    %st = store_view_tko weak %y, %qv[%b] token = %t : tile<512xf32>, partition_view<tile=(512), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
",
        "a concatenation runs along the dimension spread over the cluster's CTAs",
    );
}

/// What the split once refused: an extract from a split tile takes the whole tile,
/// gathered through the cluster (prefix_sum's carry, the last element of the CTAs'
/// parts); a scaled product splits as a product does, its scales with their operands;
/// pack and unpack split their one dimension. Each matches the interpreter on the
/// simulator (`split_kernels_match_the_interpreter_on_the_simulator_*` runs them).
#[test]
fn extracts_scaled_products_and_packs_split() {
    let read = |p: &str| std::fs::read_to_string(repo_root().join(p)).unwrap();
    let split = |src: &str| {
        let (ptx, err) = compile(src, &["--arch", "sm_90", "--num-ctas", "2", "--remarks"]);
        assert!(
            err.contains("the tile block is spread over a cluster of 2 CTAs"),
            "{err}"
        );
        assert!(ptx.contains(".reqnctapercluster 2, 1, 1"));
        ptx
    };
    let prefix = split(&read("examples/prefix_sum.tile"));
    // The whole 1024-element tile from both CTAs' 512: four elements a thread from each.
    assert_eq!(
        prefix.matches("ld.shared::cluster.v4.f32").count(),
        2,
        "{prefix}"
    );
    let gpu = gpu_ir(&read("examples/prefix_sum.tile"), "sm_90", &[]);
    assert!(gpu.contains("ttng.cluster_gather"), "{gpu}");
    // 64x64 products split by columns: B and its scales are 64x32 and 2x32 in each CTA.
    let scaled = gpu_ir(
        &read("tests/corpus/cutile/mma_scaled_f8.mlir"),
        "sm_90",
        &[],
    );
    assert!(
        scaled.contains("tile<2x32xf8E8M0FNU"),
        "{}",
        scaled
            .lines()
            .filter(|l| l.contains("mmaf_scaled"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    split(&read("tests/corpus/cutile/mma_scaled_f8.mlir"));
    split(&read("tests/corpus/cutile/mma_scaled_f4.mlir"));
    split(&read("tests/corpus/cutile/pack_unpack_bytes.mlir"));
}

/// A store ordered by a token after a load through another view (which may overlap it):
/// a cluster barrier between them (where the load's token is defined), so that no CTA
/// writes what another has not read yet. The store's token fresh, or the store through the same view and index (each CTA
/// writes back the part it read): none. A warp-specialized K loop in a kernel with a
/// cluster barrier is not split (the producer's warps would never reach the barrier).
#[test]
fn token_ordered_accesses_get_a_cluster_barrier() {
    let ordered = gpu_ir(&doubling("%qv", "%xt"), "sm_90", &[]);
    // Right after the load, whose token orders the store.
    let pos = |what: &str| {
        ordered
            .find(what)
            .unwrap_or_else(|| panic!("no {what}:\n{ordered}"))
    };
    assert!(
        pos("load_view_tko") < pos("ttng.cluster_barrier")
            && pos("ttng.cluster_barrier") < pos("store_view_tko")
    );
    assert!(ordered.contains("{ttg.num_ctas = 2 : i32}"));
    for src in [doubling("%qv", "%t"), doubling("%pv", "%xt")] {
        let out = gpu_ir(&src, "sm_90", &[]);
        assert!(!out.contains("cluster_barrier"), "{out}");
        assert!(out.contains("{ttg.num_ctas = 2 : i32}"));
    }
    let (ptx, _) = compile(
        &doubling("%qv", "%xt"),
        &["--arch", "sm_90", "--num-ctas", "2"],
    );
    assert_eq!(
        ptx.matches("barrier.cluster.arrive.release.aligned;")
            .count(),
        1
    );
    // The persistent GEMM: each tile's store is ordered after the last tile's, through
    // one view split alike (the CTAs' parts never meet): no barrier, and its K loop is
    // warp-specialized (a producer warp beside the MMA warpgroup).
    let src =
        std::fs::read_to_string(repo_root().join("tests/corpus/cutile/persistent_matmul.mlir"))
            .unwrap();
    let args = [
        "--arch",
        "sm_90a",
        "--num-ctas",
        "2",
        "--warp-specialize",
        "--remarks",
    ];
    let (ptx, _) = compile(&src, &args);
    assert!(!ptx.contains("barrier.cluster"));
    assert!(
        ptx.contains(".reqntid 160, 1, 1\n.reqnctapercluster 2, 1, 1\n"),
        "{ptx}"
    );
    // With its loads ordered after the last tile's store too (another view): a barrier
    // first in each tile's iteration, and the K loop stays whole.
    let ordered = src.replace(
        "] token = %0 : partition_view<tile=(64x64), padding_value = zero",
        "] token = %iterArg0 : partition_view<tile=(64x64), padding_value = zero",
    );
    assert_eq!(ordered.matches("token = %iterArg0").count(), 3);
    let gpu = gpu_ir(&ordered, "sm_90a", &[]);
    let at = gpu
        .find("iter_values(%iterArg0 = ")
        .expect("the loop over tiles");
    assert!(
        gpu[at..]
            .lines()
            .nth(1)
            .unwrap()
            .contains("ttng.cluster_barrier"),
        "{gpu}"
    );
    let (ptx, err) = compile(&ordered, &args);
    assert!(
        err.contains("K loop not warp-specialized: the kernel has cluster barriers, which every warp must reach"),
        "{err}"
    );
    assert!(ptx.contains(".reqntid 128, 1, 1\n"));
    assert_eq!(
        ptx.matches("barrier.cluster.wait.acquire.aligned;").count(),
        1
    );
}

/// A reduction along the split dimension: each CTA reduces its part, the parts meet in
/// shared memory behind cluster barriers (`ttng.cluster_gather`: `mapa` and
/// `ld.shared::cluster`), every CTA combines them in rank order, and the scalar result
/// is stored by rank 0 alone (`if rank == 0`).
#[test]
fn reductions_combine_the_ctas_parts_through_the_cluster() {
    let src = std::fs::read_to_string(repo_root().join("examples/sum_reduction.tile")).unwrap();
    let gpu = gpu_ir(&src, "sm_90", &[]);
    for want in [
        "ttng.cluster_gather %",
        ": !ttg.memdesc<f32, #shared, #smem> -> tile<2xf32,",
        "cmpi equal %0, %cst_0_i32, signed",
        "-> (token) {",
        "store_ptr_tko weak",
    ] {
        assert!(gpu.contains(want), "no {want}:\n{gpu}");
    }
    let (ptx, _) = compile(&src, &["--arch", "sm_90", "--num-ctas", "2"]);
    assert_eq!(
        ptx.matches(
            "barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;"
        )
        .count(),
        2,
        "{ptx}"
    );
    assert_eq!(ptx.matches("mapa.shared::cluster.u32").count(), 2);
    assert_eq!(ptx.matches("ld.shared::cluster.f32").count(), 2);
    // Parsed back, the GPU-level IR compiles to the same PTX.
    let via = run_tilec(&["-", "--arch", "sm_90", "-o", "-"], &gpu);
    assert_eq!(via.status, 0, "{}", via.stderr);
    assert_eq!(ptx_body(&ptx), ptx_body(&via.stdout));
    // On the simulator, over a ragged length: the sum of every element.
    let case = gpusweep::example_cases()
        .into_iter()
        .find(|c| c.label == "sum_reduction n=3000 randint")
        .expect("case");
    match gpusweep::run_case(
        &mut SimGpu::default(),
        &case,
        &opts(tilec_ptx::Arch::Sm90, 2),
    ) {
        Verdict::Pass { exact, .. } => assert!(exact),
        v => panic!("{} {v:?}", v.word()),
    }
}

/// A scan along the split dimension: each CTA scans its part, the parts' totals meet
/// through the cluster, a scan over the ranks gives each CTA the total of the CTAs
/// before it, and the body adds it into every element but on the first CTA; the
/// corpus's prefix sums match the interpreter bit for bit over 2 and 4 CTAs.
#[test]
fn scans_carry_the_earlier_ctas_totals() {
    let src =
        std::fs::read_to_string(repo_root().join("tests/corpus/cutile/prefix_sum.mlir")).unwrap();
    let gpu = gpu_ir(&src, "sm_90", &[]);
    let g = &gpu;
    assert_eq!(g.matches("ttng.cluster_gather").count(), 2, "{g}");
    assert_eq!(g.matches(" = scan ").count(), 4, "{g}");
    assert!(g.contains("-> tile<2x1xf32,"), "{g}");
    assert!(
        !g.contains("-> (token) {"),
        "the scan's parts are stored by every CTA:\n{g}"
    );
    for ctas in [2, 4] {
        let o = opts(tilec_ptx::Arch::Sm90, ctas);
        let mut ran = 0;
        for c in gpusweep::corpus_cases().0 {
            if !c.label.starts_with("prefix_sum.mlir") && !c.label.starts_with("atan2_cumprod.mlir")
            {
                continue;
            }
            match gpusweep::run_case(&mut SimGpu::default(), &c, &o) {
                Verdict::Pass { .. } => ran += 1,
                v => panic!("{} on {ctas} CTAs: {} {v:?}", c.label, v.word()),
            }
        }
        assert!(ran >= 6, "only {ran} cases");
    }
}

/// The GPU-level IR records the cluster (`ttg.num_ctas`, `ttng.cluster_cta_id`, the
/// tiles of one CTA) and compiles from its printed form to the same PTX.
#[test]
fn the_cluster_split_prints_and_parses_back() {
    for (file, arch) in [
        ("examples/matmul.tile", "sm_90"),
        ("examples/matmul_wide.tile", "sm_90a"),
        // A gathered extract; a scaled product with its register budget.
        ("examples/prefix_sum.tile", "sm_90"),
        ("tests/corpus/cutile/mma_scaled_f8.mlir", "sm_90"),
    ] {
        let path = repo_root().join(file);
        let p = path.to_str().unwrap();
        let out = run_tilec(
            &[
                "opt",
                p,
                "-p",
                "canonicalize,convert-to-gpu",
                "--arch",
                arch,
                "--num-ctas",
                "2",
            ],
            "",
        );
        assert_eq!(out.status, 0, "{}", out.stderr);
        let gpu = out.stdout;
        assert!(gpu.contains("ttng.cluster_cta_id : tile<i32"), "{gpu}");
        assert!(gpu.contains("ttg.num_ctas = 2 : i32"), "{gpu}");
        let again = run_tilec(&["opt", "-"], &gpu);
        assert_eq!(again.status, 0, "{}", again.stderr);
        assert_eq!(again.stdout, gpu);
        let direct = run_tilec(&[p, "--arch", arch, "--num-ctas", "2", "-o", "-"], "");
        let via = run_tilec(&["-", "--arch", arch, "-o", "-"], &gpu);
        assert_eq!(direct.status, 0, "{}", direct.stderr);
        assert_eq!(via.status, 0, "{}", via.stderr);
        assert_eq!(ptx_body(&direct.stdout), ptx_body(&via.stdout), "{file}");
        assert!(direct.stdout.contains(".blocksareclusters"), "{file}");
    }
}

/// The GPU-level verifier refuses a cluster where the target has none.
#[test]
fn clusters_need_sm90() {
    let path = repo_root().join("examples/vector_add.tile");
    let out = run_tilec(
        &[
            "opt",
            path.to_str().unwrap(),
            "-p",
            "convert-to-gpu",
            "--arch",
            "sm_90",
            "--num-ctas",
            "2",
        ],
        "",
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    let via = run_tilec(&["-", "--arch", "sm_80", "-o", "-"], &out.stdout);
    assert_eq!(via.status, 1, "{}", via.stdout);
    assert!(
        via.stderr
            .contains("thread-block clusters need sm_90 or newer"),
        "{}",
        via.stderr
    );
}

/// `examples/FILE` with `hints` on its (first) entry.
fn example_with(file: &str, hints: &str) -> String {
    let src = std::fs::read_to_string(repo_root().join("examples").join(file)).unwrap();
    let at = src.find("entry @").expect("entry");
    let close = at + src[at..].find(") {").expect("entry signature") + 1;
    format!("{} {hints}{}", &src[..close], &src[close..])
}

/// The `occupancy` hint of the target's architecture (else `default`'s) becomes
/// `.minnctapersm N`, from which ptxas caps the registers so that N CTAs fit an SM, as
/// tileiras does (80 registers for 3 CTAs of 256 threads); a warp-specialized kernel,
/// which sets its registers with `setmaxnreg`, says it does not apply it.
#[test]
fn the_occupancy_hint_caps_the_registers() {
    let src = example_with(
        "matmul_wide.tile",
        "optimization_hints=<sm_90 = {occupancy = 3}>",
    );
    let (ptx, _) = compile(&src, &["--arch", "sm_90"]);
    assert!(
        ptx.contains(".reqntid 256, 1, 1\n.minnctapersm 3\n"),
        "{ptx}"
    );
    let (ptx, _) = compile(&src, &["--arch", "sm_80"]);
    assert!(!ptx.contains(".minnctapersm"));
    let gpu = run_tilec(
        &["opt", "-", "-p", "convert-to-gpu", "--arch", "sm_90"],
        &src,
    );
    assert_eq!(gpu.status, 0, "{}", gpu.stderr);
    assert!(
        gpu.stdout.contains("ttg.min_ctas_per_sm = 3 : i32"),
        "{}",
        gpu.stdout
    );
    let (ptx, err) = compile(
        &src,
        &["--arch", "sm_90a", "--warp-specialize", "--remarks"],
    );
    assert!(!ptx.contains(".minnctapersm"));
    assert!(
        err.contains("the occupancy hint (3 CTAs per SM) is not applied: the warp-specialized kernel sets its warps' registers (setmaxnreg)"),
        "{err}"
    );
    let low = example_with(
        "vector_add.tile",
        "optimization_hints=<default = {occupancy = 2}>",
    );
    let (ptx, _) = compile(&low, &["--arch", "sm_80"]);
    assert!(ptx.contains(".minnctapersm 2\n"), "{ptx}");
    let Some(tool) = tilec_tests::ptxas::find() else {
        tilec_tests::skipped(
            "the occupancy hint under ptxas",
            "ptxas not found (set TILEC_PTXAS)",
        );
        return;
    };
    let dir = std::env::temp_dir().join(format!("tilec-occupancy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let regs = |src: &str| {
        let (ptx, _) = compile(src, &["--arch", "sm_90"]);
        let file = dir.join("k.ptx");
        std::fs::write(&file, ptx).unwrap();
        let report = tilec_tests::ptxas::assemble(&tool, &file, "sm_90");
        assert!(report.ok, "{:?}", report.problems);
        report.kernels[0].registers
    };
    let plain = std::fs::read_to_string(repo_root().join("examples/matmul_wide.tile")).unwrap();
    assert!(regs(&plain) > 80);
    assert_eq!(regs(&src), 80);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A scaled product (computed exactly per element, in f64 loops) gets a register budget
/// of all an SM's registers for one CTA (`ttg.max_registers`, `.maxnreg`): under its own
/// choice ptxas spills it when a thread holds few elements (mma_scaled_f8 at 2 and 4 CTAs
/// or 8 warps). Other kernels, and kernels with an occupancy hint, get none.
#[test]
fn scaled_products_get_the_registers_they_need() {
    let read = |p: &str| std::fs::read_to_string(repo_root().join(p)).unwrap();
    let f8 = read("tests/corpus/cutile/mma_scaled_f8.mlir");
    let (ptx, _) = compile(&f8, &["--arch", "sm_90"]);
    assert!(ptx.contains(".reqntid 128, 1, 1\n.maxnreg 255\n"), "{ptx}");
    let (ptx, _) = compile(&f8, &["--arch", "sm_90", "--num-warps", "16"]);
    assert!(ptx.contains(".reqntid 512, 1, 1\n.maxnreg 128\n"), "{ptx}");
    let gpu = gpu_ir(&f8, "sm_90", &[]);
    assert!(gpu.contains("ttg.max_registers = 255 : i32"), "{gpu}");
    let (ptx, _) = compile(&read("examples/matmul.tile"), &["--arch", "sm_90"]);
    assert!(!ptx.contains(".maxnreg"));
    let hinted = f8.replacen(
        "optimization_hints=<default = {}>",
        "optimization_hints=<default = {occupancy = 2}>",
        1,
    );
    assert_ne!(hinted, f8);
    let (ptx, _) = compile(&hinted, &["--arch", "sm_90"]);
    assert!(
        ptx.contains(".minnctapersm 2") && !ptx.contains(".maxnreg"),
        "{ptx}"
    );
    // The writer refuses a budget `.maxnreg` does not take.
    let bad = gpu.replace(
        "ttg.max_registers = 255 : i32",
        "ttg.max_registers = 300 : i32",
    );
    let out = run_tilec(&["-", "--arch", "sm_90", "-o", "-"], &bad);
    assert_eq!(out.status, 1, "{}", out.stdout);
    assert!(
        out.stderr.contains("a kernel's register budget (ttg.max_registers) is 24 to 255 registers per thread, not 300"),
        "{}",
        out.stderr
    );
    let Some(tool) = tilec_tests::ptxas::find() else {
        tilec_tests::skipped(
            "scaled products under ptxas",
            "ptxas not found (set TILEC_PTXAS)",
        );
        return;
    };
    let dir = std::env::temp_dir().join(format!("tilec-maxnreg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for args in [
        &["--arch", "sm_90", "--num-ctas", "2"][..],
        &["--arch", "sm_90a", "--num-ctas", "4"],
        &["--arch", "sm_90", "--num-warps", "8"],
        &["--arch", "sm_80"],
    ] {
        let (ptx, _) = compile(&f8, args);
        let file = dir.join("k.ptx");
        std::fs::write(&file, ptx).unwrap();
        let arch = args[1];
        let report = tilec_tests::ptxas::assemble(&tool, &file, arch);
        assert!(report.ok, "{args:?}: {:?}", report.problems);
        let k = &report.kernels[0];
        assert_eq!((k.spill_stores, k.spill_loads), (0, 0), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Deadlock and race freedom of the cluster's barriers: every example and corpus case
/// whose split kernel synchronizes its cluster (a gather of reductions' parts, an
/// ordering barrier) gives the interpreter's results under random warp interleavings
/// and random orders of the cluster's CTAs (two seeds), with no race and no hang.
#[test]
fn cluster_barriers_hold_under_random_schedules() {
    let mut cases = gpusweep::example_cases();
    cases.extend(gpusweep::corpus_cases().0);
    let o = opts(tilec_ptx::Arch::Sm90, 2);
    let mut runs = 0;
    for c in &cases {
        let Ok(p) = gpusweep::prepare(c, &o) else {
            continue;
        };
        if !p.ptx.contains("barrier.cluster") {
            continue;
        }
        for seed in 1..=2u64 {
            let mut sim = SimGpu::default();
            sim.seed = Some(seed);
            match gpusweep::run_case(&mut sim, c, &o) {
                Verdict::Pass { .. } | Verdict::Undefined(_) => runs += 1,
                v => panic!(
                    "{} (seed {seed}): {} {v:?}\n{}",
                    c.label,
                    v.word(),
                    c.command()
                ),
            }
        }
    }
    println!("{runs} runs of cluster-synchronized kernels under random schedules");
    assert!(runs >= 30, "only {runs} runs");
}

/// An iota stored through a view: each CTA stores its part of 0..256, offset by its rank
/// (the store's index moves although its tile is the iota's offset sum, a value the split
/// made), over a ragged length.
#[test]
fn a_split_iota_is_stored_in_place() {
    let text = "cuda_tile.module @m {
  entry @k(%p: tile<ptr<i32>>, %n: tile<i32>) {
    %t = make_token : token
    %tv = make_tensor_view %p, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(256), tensor_view<?xi32, strides=[1]>>
    %b, %b1, %b2 = get_tile_block_id : tile<i32>
    %i = iota : tile<256xi32>
    %st = store_view_tko weak %i, %pv[%b] token = %t : tile<256xi32>, partition_view<tile=(256), tensor_view<?xi32, strides=[1]>>, tile<i32> -> token
    return
  }
}
";
    let case = SweepCase {
        family: gpusweep::Family::Random,
        label: "iota stored through a view".into(),
        path: None,
        text: text.into(),
        entry: "k".into(),
        grid: [2, 1, 1],
        args: vec!["zeros:i32:300".into(), "i32:300".into()],
        exact: true,
    };
    for ctas in [2, 4] {
        let p = gpusweep::prepare(&case, &opts(tilec_ptx::Arch::Sm90, ctas)).unwrap();
        assert!(p.ptx.contains(".blocksareclusters"));
        match gpusweep::run_case(
            &mut SimGpu::default(),
            &case,
            &opts(tilec_ptx::Arch::Sm90, ctas),
        ) {
            Verdict::Pass { exact, .. } => assert!(exact),
            v => panic!("{ctas} CTAs: {} {v:?}", v.word()),
        }
    }
}

/// `--num-ctas` takes 2, 4, 8 or 16: anything else is a usage error, nothing written.
#[test]
fn num_ctas_takes_a_cluster_size() {
    let path = repo_root().join("examples/vector_add.tile");
    let p = path.to_str().unwrap();
    for bad in ["3", "1", "32", "two"] {
        let out = run_tilec(&[p, "--arch", "sm_90", "--num-ctas", bad, "-o", "-"], "");
        assert_eq!(out.status, 2, "{bad}");
        assert!(
            out.stderr
                .contains(&format!("'{bad}' is not 2, 4, 8 or 16")),
            "{}",
            out.stderr
        );
        assert!(out.stdout.is_empty());
    }
}

/// Strided and gather/scatter views split too: a sliding window of 128 every 32 is two
/// windows of 64 on a traversal of 32 (CTA r at index i + 2r); a gather of 16 rows is 8
/// rows a CTA, its row indices split with it. Both match the interpreter at 2 and 4 CTAs.
#[test]
fn strided_and_gather_views_split() {
    let read = |name: &str| {
        std::fs::read_to_string(repo_root().join("tests/corpus/cutile").join(name)).unwrap()
    };
    let g = gpu_ir(&read("sliding_window_sum.mlir"), "sm_90", &[]);
    assert!(
        g.contains("strided_view<tile=(64), traversal_strides=[32]"),
        "{g}"
    );
    let g = gpu_ir(&read("advanced_index_rows.mlir"), "sm_90", &[]);
    assert!(g.contains("gather_scatter_view<tile=(8x64)"), "{g}");
    assert!(g.contains("tile<8xi32, #"), "{g}");
    for ctas in [2, 4] {
        let o = opts(tilec_ptx::Arch::Sm90, ctas);
        let mut ran = 0;
        for c in gpusweep::corpus_cases().0 {
            if !c.label.starts_with("sliding_window_sum.mlir")
                && !c.label.starts_with("advanced_index_rows.mlir")
            {
                continue;
            }
            let p = gpusweep::prepare(&c, &o).unwrap();
            assert!(p.ptx.contains(".blocksareclusters"), "{}", c.label);
            match gpusweep::run_case(&mut SimGpu::default(), &c, &o) {
                Verdict::Pass { .. } => ran += 1,
                v => panic!("{} on {ctas} CTAs: {} {v:?}", c.label, v.word()),
            }
        }
        assert!(ran >= 4, "only {ran} cases");
    }
}

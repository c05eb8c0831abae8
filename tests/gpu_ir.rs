//! The GPU-level IR (`tilec opt -p convert-to-gpu`): the printed IR of every example
//! matches its golden file in tests/snapshots/gpu (`TILEC_BLESS=1` rewrites them), is the
//! same on every run, and follows the warp count. (Every tile value carrying a layout is
//! checked by the GPU-level verifier, which the pass runs; see crates/tilec-ptx/tests.)

use tilec_tests::{example_files, repo_root, run_tilec};

fn gpu_ir(path: &std::path::Path, warps: &str) -> String {
    gpu_ir_for(path, warps, &[])
}

/// [`gpu_ir`] with more options (`--arch`).
fn gpu_ir_for(path: &std::path::Path, warps: &str, more: &[&str]) -> String {
    let mut args = vec![
        "opt",
        path.to_str().unwrap(),
        "-p",
        "canonicalize,convert-to-gpu",
        "--num-warps",
        warps,
    ];
    args.extend_from_slice(more);
    let out = run_tilec(&args, "");
    assert_eq!(out.status, 0, "{}: {}", path.display(), out.stderr);
    out.stdout
}

#[test]
fn examples_match_their_golden_gpu_ir() {
    let bless = std::env::var_os("TILEC_BLESS").is_some();
    let dir = repo_root().join("tests/snapshots/gpu");
    let mut failures = Vec::new();
    for path in example_files() {
        let text = gpu_ir(&path, "4");
        assert_eq!(
            text,
            gpu_ir(&path, "4"),
            "{}: not deterministic",
            path.display()
        );
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let golden = dir.join(format!("{name}.mlir"));
        if bless {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&golden, &text).unwrap();
        } else if std::fs::read_to_string(&golden).ok().as_deref() != Some(text.as_str()) {
            failures.push(format!(
                "{name}: GPU-level IR differs from {} (TILEC_BLESS=1 to accept)",
                golden.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn warps_change_the_layouts() {
    let path = repo_root().join("examples/vector_add.tile");
    let four = gpu_ir(&path, "4");
    let one = gpu_ir(&path, "1");
    assert!(four.contains("warp = [[128], [256]]"), "{four}");
    assert!(one.contains("warp = []"), "{one}");
}

#[test]
fn convert_to_gpu_must_be_last() {
    let path = repo_root().join("examples/vector_add.tile");
    let out = run_tilec(
        &["opt", path.to_str().unwrap(), "-p", "convert-to-gpu,cse"],
        "",
    );
    assert_eq!(out.status, 2);
    assert_eq!(
        out.stderr,
        "tilec: error: cse runs on tile IR and cannot follow convert-to-gpu (its output is the GPU-level IR)\n"
    );
}

/// convert-to-gpu is five passes that `tilec opt -p` runs and prints one by one, each
/// output parsing back: gpu-assign-layouts on tile IR, then gpu-pipeline, gpu-vectorize,
/// gpu-allocate-shared and gpu-verify on GPU-level IR, which together print what
/// convert-to-gpu prints.
#[test]
fn convert_to_gpu_is_five_passes_run_one_by_one() {
    for example in ["matmul", "row_softmax", "mma_types", "vector_add"] {
        let path = repo_root().join(format!("examples/{example}.tile"));
        let p = path.to_str().unwrap();
        let whole = run_tilec(&["opt", p, "-p", "canonicalize,convert-to-gpu"], "");
        assert_eq!(whole.status, 0, "{}", whole.stderr);
        let mut text = run_tilec(&["opt", p, "-p", "canonicalize,gpu-assign-layouts"], "");
        assert_eq!(text.status, 0, "{}", text.stderr);
        assert!(text.stdout.contains("#ttg.linear"), "{}", text.stdout);
        assert!(!text.stdout.contains("ttg.vector"), "{}", text.stdout);
        assert!(
            !text.stdout.contains("allocation.offset"),
            "{}",
            text.stdout
        );
        if example == "matmul" {
            // The pipeline chosen, over operands staged as for one product.
            assert!(
                text.stdout.contains("ttg.pipeline_stages = 4 : i32"),
                "{}",
                text.stdout
            );
            assert!(
                !text.stdout.contains("ttg.async_copy_global_to_local"),
                "{}",
                text.stdout
            );
        }
        for pass in [
            "gpu-pipeline",
            "gpu-vectorize",
            "gpu-allocate-shared",
            "gpu-verify",
        ] {
            let again = run_tilec(&["opt", "-"], &text.stdout);
            assert_eq!(again.status, 0, "{example} before {pass}: {}", again.stderr);
            assert_eq!(again.stdout, text.stdout, "{example} before {pass}");
            text = run_tilec(&["opt", "-", "-p", pass], &text.stdout);
            assert_eq!(text.status, 0, "{example}: {pass}: {}", text.stderr);
        }
        assert_eq!(
            text.stdout, whole.stdout,
            "{example}: the passes one by one"
        );
    }
    let path = repo_root().join("examples/vector_add.tile");
    let p = path.to_str().unwrap();
    let out = run_tilec(&["opt", p, "-p", "gpu-vectorize"], "");
    assert_eq!(out.status, 2);
    assert_eq!(
        out.stderr,
        "tilec: error: gpu-vectorize runs on GPU-level IR: the input is tile IR (start with gpu-assign-layouts or convert-to-gpu)\n"
    );
    let gpu = gpu_ir(&path, "4");
    let out = run_tilec(&["opt", "-", "-p", "gpu-assign-layouts"], &gpu);
    assert_eq!(out.status, 2);
    assert_eq!(
        out.stderr,
        "tilec: error: the input is GPU-level IR (the output of convert-to-gpu): gpu-assign-layouts runs on tile IR\n"
    );
    let out = run_tilec(&["opt", p, "-p", "gpu-vectorize,gpu-assign-layouts"], "");
    assert_eq!(out.status, 2);
    assert_eq!(
        out.stderr,
        "tilec: error: gpu-vectorize runs on GPU-level IR: the input is tile IR (start with gpu-assign-layouts or convert-to-gpu)\n"
    );
}

/// The GPU-level IR parses back (issue 19: `tile<ptr<f32>, #linear>` was refused): for
/// every example and cuTile corpus kernel, at 1 and 4 warps, `tilec opt` of the printed
/// GPU-level IR prints it unchanged, and compiling it gives the same PTX as compiling the
/// tile IR (so a GPU-level pass can be tested on its own input and output).
#[test]
fn gpu_level_ir_parses_back_and_compiles_the_same() {
    let mut inputs = example_files();
    let corpus = repo_root().join("tests/corpus/cutile");
    let mut files: Vec<_> = std::fs::read_dir(&corpus)
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "mlir"));
    files.sort();
    inputs.extend(files);
    assert!(inputs.len() >= 40, "{} inputs", inputs.len());
    let ptx_body = |s: &str| -> String {
        s.lines()
            .filter(|l| !l.starts_with("//") && !l.starts_with(".file"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut checked = 0;
    let mut refused = Vec::new();
    for path in &inputs {
        let stem = path.file_stem().unwrap().to_str().unwrap();
        if path.starts_with(&corpus) && tilec_tests::ptx_refusal(stem).is_some() {
            // Not lowered yet: the GPU-level IR is refused as the PTX is.
            let p = path.to_str().unwrap();
            let out = run_tilec(&["opt", p, "-p", "convert-to-gpu"], "");
            tilec_tests::check_ptx_refusal(stem, out.status, &out.stderr)
                .unwrap_or_else(|e| panic!("convert-to-gpu: {e}"));
            refused.push(format!(
                "{stem}: {}",
                tilec_tests::ptx_refusal(stem).unwrap_or_default()
            ));
            continue;
        }
        for warps in ["4", "1"] {
            // Planned for the architecture it is compiled for (the plan depends on it:
            // swizzles for `stmatrix` on sm_90).
            let gpu = gpu_ir_for(path, warps, &["--arch", "sm_90"]);
            let again = run_tilec(&["opt", "-"], &gpu);
            assert_eq!(again.status, 0, "{}: {}", path.display(), again.stderr);
            assert_eq!(
                again.stdout,
                gpu,
                "{} ({warps} warps) prints differently",
                path.display()
            );
            let p = path.to_str().unwrap();
            let direct = run_tilec(&[p, "--arch", "sm_90", "--num-warps", warps, "-o", "-"], "");
            let via = run_tilec(&["-", "--arch", "sm_90", "-o", "-"], &gpu);
            assert_eq!(direct.status, 0, "{}: {}", path.display(), direct.stderr);
            assert_eq!(via.status, 0, "{}: {}", path.display(), via.stderr);
            assert_eq!(
                ptx_body(&direct.stdout),
                ptx_body(&via.stdout),
                "{} ({warps} warps): PTX from the GPU-level IR differs",
                path.display()
            );
            checked += 1;
        }
    }
    println!("{checked} GPU-level modules parsed back and compiled to the same PTX");
    tilec_tests::print_ptx_refusals("GPU-level IR", &refused);
    assert_eq!(refused.len(), tilec_tests::PTX_REFUSED_CORPUS.len());
    // Passes run on tile IR, not on GPU-level IR; and invalid GPU-level IR is located.
    let gpu = gpu_ir(&repo_root().join("examples/vector_add.tile"), "4");
    let out = run_tilec(&["opt", "-", "-p", "canonicalize"], &gpu);
    assert_eq!(out.status, 2, "{}", out.stderr);
    let broken = gpu.replacen("warp = [[128], [256]]", "warp = [[128], [128]]", 1);
    assert_refused(&broken, "error: invalid GPU-level IR: ");
    // The vectors gpu-vectorize recorded are checked against the access's layout.
    assert!(gpu.contains("ttg.vector = {"), "{gpu}");
    let broken = gpu.replacen("width = 4 : i32", "width = 32 : i32", 1);
    assert_ne!(broken, gpu);
    assert_refused(
        &broken,
        "op 'ttg.vector' width 32 is more than the 4 consecutive elements a thread holds",
    );
}

/// GPU-level IR `text` is refused by `tilec opt` with a diagnostic containing `why`.
fn assert_refused(text: &str, why: &str) {
    let out = run_tilec(&["opt", "-", "--diagnostic-format=mlir"], text);
    assert_eq!(out.status, 1, "{}", out.stdout);
    assert!(out.stderr.contains(why), "{}", out.stderr);
}

/// gpu-vectorize records which view indexes are provably non-negative
/// (`ttg.index_nonneg`); the writer follows it: without it, the access checks for a
/// negative index when it runs (the tile is then out of bounds); a malformed one is
/// refused at the op.
#[test]
fn nonnegative_view_indexes_are_recorded_and_followed() {
    let gpu = gpu_ir(&repo_root().join("examples/vector_add.tile"), "4");
    assert_eq!(
        gpu.matches("ttg.index_nonneg = array<i32: 0>").count(),
        3,
        "{gpu}"
    );
    let ptx = |text: &str| {
        let out = run_tilec(&["-", "--arch", "sm_90", "-o", "-"], text);
        assert_eq!(out.status, 0, "{}", out.stderr);
        out.stdout
    };
    let negative_checks = |p: &str| p.matches("setp.lt.s64").count();
    let proven = ptx(&gpu);
    let unproven = ptx(&gpu.replace("ttg.index_nonneg = array<i32: 0>, ", ""));
    assert_eq!(negative_checks(&proven), 0, "{proven}");
    assert_eq!(negative_checks(&unproven), 3, "{unproven}");
    for (bad, why) in [
        (
            "ttg.index_nonneg = array<i32: 1>",
            "'ttg.index_nonneg' must list index operand positions below 1 in increasing order",
        ),
        (
            "ttg.index_nonneg = 0 : i32",
            "attribute 'ttg.index_nonneg' must be an array<i32>",
        ),
    ] {
        let broken = gpu.replacen("ttg.index_nonneg = array<i32: 0>", bad, 1);
        assert_refused(
            &broken,
            &format!("error: invalid GPU-level IR: 'load_view_tko' op {why}"),
        );
    }
    let broken = gpu.replacen(
        "%1 = addf %tile, %tile_9  :",
        "%1 = addf %tile, %tile_9 {ttg.index_nonneg = array<i32: 0>} :",
        1,
    );
    assert_ne!(broken, gpu);
    assert_refused(
        &broken,
        "op has 'ttg.index_nonneg' but does not access a view at a tile index",
    );
}

/// The GPU-level IR of pipelines of 2 to 6 stages (examples/matmul.tile and the corpus
/// bf16 product, whose copies are versioned on the row stride) parses back, prints the
/// same, and compiles to the same PTX as the tile IR with `--num-stages N`.
#[test]
fn pipelines_of_n_stages_parse_back() {
    let ptx_body = |s: &str| -> String {
        s.lines()
            .filter(|l| !l.starts_with("//") && !l.starts_with(".file"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    // sm_90a: warpgroup MMA, its stages filled by the copy engine (tensor maps, mbarrier
    // rings: every new GPU-level op printed and parsed back).
    for (rel, arch) in [
        ("examples/matmul.tile", "sm_90"),
        ("tests/corpus/cutile/matmul_bf16.mlir", "sm_90"),
        ("examples/matmul.tile", "sm_90a"),
        ("tests/corpus/cutile/matmul_f16_f32acc.mlir", "sm_90a"),
    ] {
        let path = repo_root().join(rel);
        let p = path.to_str().unwrap();
        for n in ["2", "3", "4", "5", "6"] {
            let gpu = run_tilec(
                &[
                    "opt",
                    p,
                    "-p",
                    "canonicalize,convert-to-gpu",
                    "--num-stages",
                    n,
                    "--arch",
                    arch,
                ],
                "",
            );
            assert_eq!(gpu.status, 0, "{rel}: {}", gpu.stderr);
            assert!(
                gpu.stdout.contains(&format!("!ttg.memdesc<{n}x64x")),
                "{rel}, {n} stages:\n{}",
                gpu.stdout
            );
            let again = run_tilec(&["opt", "-"], &gpu.stdout);
            assert_eq!(again.status, 0, "{rel}: {}", again.stderr);
            assert_eq!(
                again.stdout, gpu.stdout,
                "{rel} ({n} stages) prints differently"
            );
            if arch == "sm_90a" {
                assert!(
                    gpu.stdout.contains("ttng.async_tma_copy_global_to_local")
                        && gpu.stdout.contains("ttng.wait_barrier"),
                    "{rel}, {n} stages:\n{}",
                    gpu.stdout
                );
            }
            let direct = run_tilec(&[p, "--arch", arch, "--num-stages", n, "-o", "-"], "");
            let via = run_tilec(&["-", "--arch", arch, "-o", "-"], &gpu.stdout);
            assert_eq!(direct.status, 0, "{rel}: {}", direct.stderr);
            assert_eq!(via.status, 0, "{rel}: {}", via.stderr);
            assert_eq!(
                ptx_body(&direct.stdout),
                ptx_body(&via.stdout),
                "{rel} ({n} stages): PTX from the GPU-level IR differs"
            );
        }
    }
}

/// The remarks of `tilec FILE -o OUT --remarks` (none without the flag): the stages a K
/// loop got, and why it got fewer than asked or none.
#[test]
fn pipeline_remarks_say_why() {
    let matmul = repo_root().join("examples/matmul.tile");
    let matmul = matmul.to_str().unwrap();
    let remarks = |args: &[&str], stdin: &str| -> Vec<String> {
        let out = run_tilec(args, stdin);
        assert_eq!(out.status, 0, "{}", out.stderr);
        out.stderr
            .lines()
            .filter_map(|l| l.strip_prefix("[E0903] Advice: "))
            .map(str::to_string)
            .collect()
    };
    let quiet = run_tilec(&[matmul, "-o", "-"], "");
    assert_eq!(quiet.stderr, "");
    assert_eq!(
        remarks(&[matmul, "-o", "-", "--remarks"], ""),
        ["K loop pipelined over 4 stages (4 of A and 2 of B, 24576 bytes of shared memory)"]
    );
    assert_eq!(
        remarks(&[matmul, "-o", "-", "--remarks", "--num-stages", "6"], ""),
        ["K loop pipelined over 6 stages (6 of A and 2 of B, 32768 bytes of shared memory)"]
    );
    assert_eq!(
        remarks(&[matmul, "-o", "-", "--remarks", "--num-stages", "1"], ""),
        ["K loop not pipelined: --num-stages 1 asked for"]
    );
    let src = std::fs::read_to_string(matmul).unwrap();
    // A padded with a nonzero value cannot be copied asynchronously: two stages.
    let padded = src.replace(
        "tile=(64x32), padding_value = zero",
        "tile=(64x32), padding_value = nan",
    );
    assert_ne!(padded, src);
    assert_eq!(
        remarks(&["-", "-o", "-", "--remarks"], &padded),
        [
            "K loop pipelined over 2 stages instead of 4: A's view pads with a nonzero value, so its tiles go through registers (cp.async fills with zeros), which hold one K step ahead",
            "K loop pipelined over 2 stages (2 of A and 2 of B, 16384 bytes of shared memory)"
        ]
    );
    // Operands converted after their load (cuTile's tf32 product: `ftof` of both tiles)
    // are loaded a K step ahead and converted in registers.
    let tf32 = repo_root().join("tests/corpus/cutile/matmul_tf32.mlir");
    assert_eq!(
        remarks(&[tf32.to_str().unwrap(), "-o", "-", "--remarks"], ""),
        [
            "K loop pipelined over 2 stages instead of 4: A is converted, so its tiles go through registers (cp.async copies bytes as they are), which hold one K step ahead",
            "K loop pipelined over 2 stages (2 of A and 2 of B, 32768 bytes of shared memory)"
        ]
    );
    // On sm_90a the copy engine fills stages of both as loaded, and each K step converts
    // them (and transposes B) in shared memory for the product (warpgroup MMA), which
    // stays in flight across K steps.
    assert_eq!(
        remarks(
            &[
                tf32.to_str().unwrap(),
                "--arch",
                "sm_90a",
                "-o",
                "-",
                "--remarks"
            ],
            ""
        ),
        [
            "K loop pipelined over 4 stages (4 of A and 4 of B, 114688 bytes of shared memory); B is staged as loaded and copied like A; A and B transformed in shared memory for the product (converted, B from K x N to K-major); each K step's warpgroup MMA stays in flight during the next",
            "K loop stages of A's and B's tiles filled by the copy engine (TMA: tensor maps built by the kernel, one mbarrier per stage) when the row strides are positive multiples of 16 bytes at run time (by cp.async otherwise)"
        ]
    );
    // cuTile's f16 products (16-byte-aligned pointers, B stored K x N): B is copied like
    // A, over as many stages; on sm_90a the 128x128 tiles' B (N rows of two swizzle
    // atoms) is staged column-blocked, a copy-engine box per block.
    let f16 = repo_root().join("tests/corpus/cutile/matmul_f16_f32acc.mlir");
    let f16 = f16.to_str().unwrap();
    let both = "K loop pipelined over 4 stages (4 of A and 4 of B, 65536 bytes of shared memory); B is staged as loaded and copied like A";
    let (tma, engine) = (
        "K loop stages of",
        "the copy engine (TMA: tensor maps built by the kernel, one mbarrier per stage)",
    );
    let checked = " when the row strides are positive multiples of 16 bytes at run time (by cp.async otherwise)";
    assert_eq!(
        remarks(&[f16, "--arch", "sm_80", "-o", "-", "--remarks"], ""),
        [both, both]
    );
    assert_eq!(
        remarks(&[f16, "--arch", "sm_90a", "-o", "-", "--remarks"], ""),
        [
            format!("{both}; each K step's warpgroup MMA stays in flight during the next"),
            format!("{both}; each K step's warpgroup MMA stays in flight during the next"),
            // gpu-pipeline's: the copy engine fills what is copied, under the strides'
            // check (the pointers are declared 16-byte aligned).
            format!("{tma} A's and B's tiles filled by {engine}{checked}"),
            format!("{tma} A's and B's tiles filled by {engine}{checked}"),
        ]
    );
    // The epilogue's store (E0904): by the copy engine from its conversion's buffer (the
    // 64x64 kernel's; the 128x128 accumulator converts in chunks, with no whole buffer).
    let out = run_tilec(&[f16, "--arch", "sm_90a", "-o", "-", "--remarks"], "");
    let stores = out
        .stderr
        .lines()
        .filter(|l| *l == "[E0904] Advice: store by the copy engine (TMA, a tensor map built by the kernel) from the shared-memory buffer of its layout conversion when the row strides are positive multiples of 16 bytes at run time (from registers otherwise)")
        .count();
    assert_eq!(stores, 1, "{}", out.stderr);
    // Without the copy engine: the same stages, filled by cp.async.
    assert_eq!(
        remarks(
            &[f16, "--arch", "sm_90a", "--no-tma", "-o", "-", "--remarks"],
            ""
        )
        .len(),
        2
    );
    // The first kernel's operands padded with a nonzero value: the copy engine fills
    // with zeros only (and cp.async too: they go through registers); the second kernel
    // keeps its copy engine.
    let text = std::fs::read_to_string(f16).unwrap();
    let nan = text.replace(
        "partition_view<tile=(64x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>",
        "partition_view<tile=(64x64), padding_value = nan, tensor_view<?x?xf16, strides=[?,1]>>",
    );
    assert_ne!(nan, text);
    let r = remarks(&["-", "--arch", "sm_90a", "-o", "-", "--remarks"], &nan);
    let engine_fills: Vec<&String> = r
        .iter()
        .filter(|l| l.contains("copy engine (TMA:"))
        .collect();
    assert_eq!(
        engine_fills,
        [&format!(
            "{tma} A's and B's tiles filled by {engine}{checked}"
        )],
        "{r:?}"
    );
}

/// The tensor-core instruction convert-to-gpu recorded on a product (`ttg.mma`) is what
/// the writer issues: checked against the operands when read back, and without it the
/// product runs in the fallback loop (no `mma.sync`).
#[test]
fn recorded_mma_instruction_is_checked_and_followed() {
    let gpu = gpu_ir(&repo_root().join("examples/matmul.tile"), "4");
    let recorded = "{ttg.mma = \"m16n8k16.f32.f16.f16.f32\"}";
    assert!(gpu.contains(recorded), "{gpu}");
    let wrong = gpu.replacen("m16n8k16.f32.f16.f16.f32", "m16n8k8.f32.tf32.tf32.f32", 1);
    assert_refused(
        &wrong,
        "op records 'm16n8k8.f32.tf32.tf32.f32' for operands of element types f16, f16 and f32",
    );
    let unknown = gpu.replacen("m16n8k16.f32.f16.f16.f32", "m64n8k16.f32.f16.f16.f32", 1);
    assert_refused(
        &unknown,
        "names no tensor-core instruction tilec issues: \"m64n8k16.f32.f16.f16.f32\"",
    );
    let with = run_tilec(&["-", "--arch", "sm_90", "-o", "-"], &gpu);
    assert_eq!(with.status, 0, "{}", with.stderr);
    assert!(
        with.stdout
            .contains("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32")
    );
    // Staged operands are read by the instruction only.
    let unrecorded = gpu.replacen(&format!(" {recorded}"), "", 1);
    assert_refused(
        &unrecorded,
        "op reads an operand from shared memory but records no tensor-core instruction ('ttg.mma')",
    );
    // A product in registers without the attribute runs in the fallback loop.
    let small = "cuda_tile.module @m {\n  entry @k(%p: tile<ptr<f32>>) {\n    %a = constant <f16: 1.0> : tile<16x16xf16>\n    %b = constant <f16: 2.0> : tile<16x8xf16>\n    %c = constant <f32: 0.0> : tile<16x8xf32>\n    %d = mmaf %a, %b, %c : tile<16x16xf16>, tile<16x8xf16>, tile<16x8xf32>\n    %t = make_token : token\n    %v = make_tensor_view %p, shape = [16, 8], strides = [8, 1] : tensor_view<16x8xf32, strides=[8,1]>\n    %pv = make_partition_view %v : partition_view<tile=(16x8), tensor_view<16x8xf32, strides=[8,1]>>\n    %z = constant <i32: 0> : tile<i32>\n    %s = store_view_tko weak %d, %pv[%z, %z] token = %t : tile<16x8xf32>, partition_view<tile=(16x8), tensor_view<16x8xf32, strides=[8,1]>>, tile<i32> -> token\n    return\n  }\n}\n";
    let small_gpu = run_tilec(&["opt", "-", "-p", "convert-to-gpu"], small);
    assert_eq!(small_gpu.status, 0, "{}", small_gpu.stderr);
    assert!(
        small_gpu.stdout.contains("ttg.mma = "),
        "{}",
        small_gpu.stdout
    );
    let bare = small_gpu
        .stdout
        .replacen(" {ttg.mma = \"m16n8k16.f32.f16.f16.f32\"}", "", 1);
    assert_ne!(bare, small_gpu.stdout);
    // The fallback loop needs scratch: unplaced, the writer refuses it; gpu-allocate-shared
    // places it.
    let out = run_tilec(&["-", "--arch", "sm_90", "-o", "-"], &bare);
    assert_eq!(out.status, 1, "{}", out.stdout);
    assert!(
        out.stderr.contains(
            "shared-memory scratch without 'allocation.offset' and 'allocation.size' (run gpu-allocate-shared)"
        ),
        "{}",
        out.stderr
    );
    let placed = run_tilec(&["opt", "-", "-p", "gpu-allocate-shared"], &bare);
    assert_eq!(placed.status, 0, "{}", placed.stderr);
    assert!(
        placed
            .stdout
            .contains("{allocation.offset = 0 : i32, allocation.size = 768 : i32}"),
        "{}",
        placed.stdout
    );
    // Its size is A's 16x16 and B's 16x8 f16 (the whole K in one chunk); recorded smaller,
    // the GPU-level verifier refuses it.
    let short = placed
        .stdout
        .replace("allocation.size = 768", "allocation.size = 512");
    assert_refused(
        &short,
        "'cuda_tile.mmaf' op 'allocation.size' 512 is smaller than the 768 bytes of shared memory its lowering uses",
    );
    let bare = placed.stdout;
    let with = run_tilec(&["-", "--arch", "sm_90", "-o", "-"], &small_gpu.stdout);
    let without = run_tilec(&["-", "--arch", "sm_90", "-o", "-"], &bare);
    assert_eq!(
        (with.status, without.status),
        (0, 0),
        "{}{}",
        with.stderr,
        without.stderr
    );
    assert!(with.stdout.contains("mma.sync"), "{}", with.stdout);
    assert!(!without.stdout.contains("mma.sync"), "{}", without.stdout);
}

/// gpu-allocate-shared places every buffer (`allocation.offset`); the places are checked
/// when GPU-level IR is read back: aligned (1024 bytes for swizzled buffers), and never
/// over a live buffer; the writer refuses a buffer not placed.
#[test]
fn shared_memory_offsets_are_recorded_and_checked() {
    let gpu = gpu_ir(&repo_root().join("examples/matmul.tile"), "4");
    // The four stages of A at the bottom, the two of B (K x N, as loaded) above them.
    assert!(
        gpu.contains(
            "ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<4x64x32xf16"
        ),
        "{gpu}"
    );
    assert!(
        gpu.contains(
            "ttg.local_alloc {allocation.offset = 16384 : i32} : () -> !ttg.memdesc<2x32x64xf16"
        ),
        "{gpu}"
    );
    let check = assert_refused;
    check(
        &gpu.replacen("allocation.offset = 16384", "allocation.offset = 8192", 1),
        "'ttg.local_alloc' op buffer at bytes 8192..16384 of shared memory overlaps the buffer of a live 'ttg.local_alloc' at bytes 0..16384",
    );
    check(
        &gpu.replacen("allocation.offset = 16384", "allocation.offset = 16392", 1),
        "'ttg.local_alloc' op 'allocation.offset' 16392 is not a multiple of its alignment 1024",
    );
    // Not placed: valid GPU-level IR (what the passes before gpu-allocate-shared print),
    // which the writer refuses at the buffer.
    let unplaced = gpu.replacen(" {allocation.offset = 16384 : i32}", "", 1);
    let out = run_tilec(&["opt", "-"], &unplaced);
    assert_eq!(out.status, 0, "{}", out.stderr);
    let out = run_tilec(&["-", "-o", "-", "--diagnostic-format=mlir"], &unplaced);
    assert_eq!(out.status, 1, "{}", out.stdout);
    assert!(
        out.stderr.contains("<stdin>:62:")
            && out.stderr.contains(
                "error: shared-memory buffer without 'allocation.offset' (run gpu-allocate-shared)"
            ),
        "{}",
        out.stderr
    );
    // Moved up, out of the way: still valid, and the writer puts the buffer there.
    let moved = gpu.replacen("allocation.offset = 16384", "allocation.offset = 32768", 1);
    let a = run_tilec(&["-", "--arch", "sm_90", "-o", "-"], &gpu);
    let b = run_tilec(&["-", "--arch", "sm_90", "-o", "-"], &moved);
    assert_eq!((a.status, b.status), (0, 0), "{}{}", a.stderr, b.stderr);
    let smem = |ptx: &str| {
        ptx.lines()
            .find(|l| l.contains(".shared") && l.contains("__smem"))
            .unwrap_or_default()
            .to_string()
    };
    assert!(
        smem(&a.stdout).contains("__smem_matmul[24576]"),
        "{}",
        smem(&a.stdout)
    );
    assert!(
        smem(&b.stdout).contains("__smem_matmul[40960]"),
        "{}",
        smem(&b.stdout)
    );
}

/// On sm_90a a f16 product runs on warpgroup MMA: gpu-assign-layouts records the
/// instruction, stages both operands (pipelined as for mma.sync), the GPU-level IR parses
/// back and compiles to the same PTX, which issues `wgmma.mma_async` with descriptors;
/// the same IR for sm_90 is refused at the product.
#[test]
fn warpgroup_mma_on_sm90a() {
    let path = repo_root().join("examples/matmul.tile");
    let p = path.to_str().unwrap();
    let gpu = run_tilec(
        &[
            "opt",
            p,
            "-p",
            "canonicalize,convert-to-gpu",
            "--arch",
            "sm_90a",
        ],
        "",
    );
    assert_eq!(gpu.status, 0, "{}", gpu.stderr);
    assert!(
        // Both operands by the copy engine: no proxy fence of its own (only in the
        // cp.async alternative, before it).
        gpu.stdout.contains(
            "{ttg.async_operands, ttg.mma = \"wgmma.m64n64k16.f32.f16.f16\", ttg.mma_async}"
        ),
        "{}",
        gpu.stdout
    );
    let direct = run_tilec(&[p, "--arch", "sm_90a", "-o", "-"], "");
    let via = run_tilec(&["-", "--arch", "sm_90a", "-o", "-"], &gpu.stdout);
    assert_eq!(
        (direct.status, via.status),
        (0, 0),
        "{}{}",
        direct.stderr,
        via.stderr
    );
    let body = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(body(&direct.stdout), body(&via.stdout));
    for want in [
        "fence.proxy.async.shared::cta;",
        "wgmma.fence.sync.aligned;",
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {",
        "wgmma.commit_group.sync.aligned;",
        // In flight across K steps: the previous step's group is awaited in the loop,
        // the last one after it (`ttng.warp_group_dot_wait`).
        "wgmma.wait_group.sync.aligned 1;",
        "wgmma.wait_group.sync.aligned 0;",
    ] {
        assert!(direct.stdout.contains(want), "{want}:\n{}", direct.stdout);
    }
    assert!(
        gpu.stdout
            .contains("ttng.warp_group_dot_wait %for {pendings = 0 : i32}"),
        "{}",
        gpu.stdout
    );
    // `ttg.mma_async` is a unit attribute.
    assert_refused(
        &gpu.stdout
            .replace(", ttg.mma_async}", ", ttg.mma_async = 3 : i32}"),
        "'ttg.mma_async' must be a unit attribute",
    );
    // The wait is checked like every GPU-level op.
    let broken = gpu.stdout.replace(
        "ttng.warp_group_dot_wait %for {pendings = 0 : i32}",
        "ttng.warp_group_dot_wait %for {pendings = 8 : i32}",
    );
    assert_refused(
        &broken,
        "'ttng.warp_group_dot_wait' op requires 'pendings', an integer from 0 to 7",
    );
    assert!(!direct.stdout.contains("ldmatrix"), "{}", direct.stdout);
    // Two k steps of 16 over K = 32.
    assert_eq!(direct.stdout.matches("wgmma.mma_async").count(), 2);
    // sm_90 (no `a`) keeps mma.sync; the sm_90a IR is refused there.
    let plain = run_tilec(&[p, "--arch", "sm_90", "-o", "-"], "");
    assert!(plain.stdout.contains("mma.sync") && !plain.stdout.contains("wgmma"));
    let out = run_tilec(
        &[
            "-",
            "--arch",
            "sm_90",
            "-o",
            "-",
            "--diagnostic-format=mlir",
        ],
        &gpu.stdout,
    );
    assert_eq!(out.status, 1, "{}", out.stdout);
    assert!(
        out.stderr
            .contains("error: warpgroup MMA needs --arch sm_90a"),
        "{}",
        out.stderr
    );
}

/// float8 products run on `mma.sync` from sm_89 (e4m3 into f32, the module's `.version`
/// raised to 8.4, which the instruction needs): the corpus's matmul_fp8 planned for sm_89
/// parses back and compiles for it; the same IR for sm_80 is refused at the product, and
/// sm_80 itself keeps the fallback loop.
#[test]
fn float8_products_on_mma_sync_from_sm89() {
    let path = repo_root().join("tests/corpus/cutile/matmul_fp8.mlir");
    if !path.exists() {
        eprintln!("SKIPPED: {} is missing", path.display());
        return;
    }
    let gpu = gpu_ir_for(&path, "4", &["--arch", "sm_89"]);
    assert!(
        gpu.contains("ttg.mma = \"m16n8k32.f32.e4m3.e4m3.f32\""),
        "{gpu}"
    );
    let ptx = run_tilec(&["-", "--arch", "sm_89", "-o", "-"], &gpu);
    assert_eq!(ptx.status, 0, "{}", ptx.stderr);
    assert!(
        ptx.stdout.contains(".version 8.4\n.target sm_89"),
        "{}",
        ptx.stdout
    );
    assert_eq!(
        ptx.stdout
            .matches("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32")
            .count(),
        16
    );
    let refused = run_tilec(
        &[
            "-",
            "--arch",
            "sm_80",
            "-o",
            "-",
            "--diagnostic-format=mlir",
        ],
        &gpu,
    );
    assert_eq!(refused.status, 1, "{}", refused.stdout);
    assert!(
        refused.stderr.contains(
            "error: mma.sync.aligned.m16n8k32.f32.e4m3.e4m3.f32 needs sm_89 or later (--arch sm_80)"
        ),
        "{}",
        refused.stderr
    );
    let p = path.to_str().unwrap();
    let sm80 = run_tilec(&[p, "--arch", "sm_80", "-o", "-"], "");
    assert_eq!(sm80.status, 0, "{}", sm80.stderr);
    assert!(!sm80.stdout.contains("mma.sync") && sm80.stdout.contains(".version 7.0"));
}

/// Loop-invariant work leaves the loop, broadcasts are made in the layout they are used
/// in, and values a loop carries from a constant take the layout its body carries them
/// on in: in the flash-attention corpus kernel, Q (A of `Q K^T`, loaded before the key
/// loop) is staged in its swizzled buffer once, before the loop, and neither a 64x64
/// score tile nor a 64x1 row statistic goes through shared memory.
#[test]
fn attention_stages_q_once_and_converts_no_score_tile() {
    let path = repo_root().join("tests/corpus/cutile/flash_attention.mlir");
    for arch in ["sm_80", "sm_90a"] {
        let out = run_tilec(
            &[
                "opt",
                path.to_str().unwrap(),
                "-p",
                "canonicalize,convert-to-gpu",
                "--arch",
                arch,
            ],
            "",
        );
        assert_eq!(out.status, 0, "{}", out.stderr);
        let text = &out.stdout;
        let loop_at = text.find(" = for %").expect("the key loop");
        let q_stage = text
            .find("ttg.local_alloc %tile ")
            .expect("Q staged in a buffer");
        assert!(
            q_stage < loop_at,
            "{arch}: Q staged inside the loop:\n{text}"
        );
        let in_loop = &text[loop_at..];
        assert!(
            !in_loop.contains("-> !ttg.memdesc<64x64xf32"),
            "{arch}: a 64x64 f32 tile goes through shared memory in the loop:\n{text}"
        );
        if arch == "sm_90a" {
            // P (computed, in the QK^T accumulator's layout, which is the A fragment's)
            // feeds the P V warpgroup MMA from registers.
            assert!(
                text.contains("{ttg.mma = \"wgmma.m64n64k16.f32.f16.f16\"} : tile<64x64xf16,"),
                "{text}"
            );
            let ptx = run_tilec(&[path.to_str().unwrap(), "--arch", arch, "-o", "-"], "");
            assert!(
                ptx.stdout
                    .contains("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {")
                    && ptx.stdout.contains("}, {%r"),
                "{}",
                ptx.stdout
            );
        }
        // The running max and sum are carried in the layout the row reductions give
        // them (learned by a first walk): no conversion of a 64x1 tile anywhere.
        assert!(
            !text.contains("-> !ttg.memdesc<64x1xf32"),
            "{arch}: a 64x1 f32 tile goes through shared memory:\n{text}"
        );
    }
}

/// `--warp-specialize` on sm_90a: matmul_wide.tile's K loop becomes a
/// `ttg.warp_specialize` (a producer warpgroup with its own tensor maps and the empty
/// ring's waits, the MMA warpgroups handing stages back `perWarp`), which prints, parses
/// back to the same text and compiles to the same PTX; the verifier refuses a partition
/// of 3 warps, registers that are no multiple of 8, and a CTA barrier in the partition.
#[test]
fn warp_specialized_ir_parses_back_and_compiles_the_same() {
    let path = repo_root().join("examples/matmul_wide.tile");
    let p = path.to_str().unwrap();
    let out = run_tilec(
        &[
            "opt",
            p,
            "-p",
            "convert-to-gpu",
            "--arch",
            "sm_90a",
            "--warp-specialize",
        ],
        "",
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    let gpu = out.stdout;
    for needle in [
        "ttg.warp_specialize {partitionNumWarps = array<i32: 4>, actualRegisters = array<i32: 232, 40>}",
        "} partition0 {",
        "ttg.warp_yield %for",
        "ttg.warp_return",
        "{perWarp}",
    ] {
        assert!(gpu.contains(needle), "no {needle}:\n{gpu}");
    }
    let direct =
        parses_back_and_compiles_the_same(&gpu, &[p, "--arch", "sm_90a", "--warp-specialize"]);
    assert!(direct.contains(".reqntid 384, 1, 1"), "{direct}");
    let broken = gpu.replacen(
        "partitionNumWarps = array<i32: 4>",
        "partitionNumWarps = array<i32: 3>",
        1,
    );
    assert_refused(
        &broken,
        "requires 'partitionNumWarps', one count of 1, 2, 4 or 8 warps",
    );
    let broken = gpu.replacen(
        "actualRegisters = array<i32: 232, 40>",
        "actualRegisters = array<i32: 236, 40>",
        1,
    );
    assert_refused(
        &broken,
        "requires 'actualRegisters' to be two register counts",
    );
    // Where it is asked for and cannot be had, a remark says why.
    let read = |file: &str| std::fs::read_to_string(repo_root().join(file)).expect("reads");
    let persistent = read("tests/corpus/cutile/persistent_matmul.mlir");
    // The K loop's bound taken from the loop around it: its steps per C tile vary.
    let varying = persistent.replacen(
        "to %5#1, step %cst_1_i32_18",
        "to %13, step %cst_1_i32_18",
        1,
    );
    assert_ne!(varying, persistent);
    for (label, src, more, why) in [
        (
            "examples/matmul.tile",
            read("examples/matmul.tile"),
            "--no-tma",
            "K loop not warp-specialized: its stages are not filled by the copy engine",
        ),
        (
            "persistent_matmul, K steps per tile varying",
            varying,
            "--num-stages=3",
            "K loop not warp-specialized: its bounds change with the loop around it",
        ),
    ] {
        let out = run_tilec(
            &[
                "-",
                "--arch",
                "sm_90a",
                "--warp-specialize",
                "--remarks",
                more,
                "-o",
                "-",
            ],
            &src,
        );
        assert_eq!(out.status, 0, "{label}: {}", out.stderr);
        assert!(out.stderr.contains(why), "{label}: {}", out.stderr);
        assert!(!out.stdout.contains("ttg.warp_specialize"), "{label}");
        assert!(!out.stdout.contains(".reqntid 160"), "{label}");
    }
    let broken = gpu.replacen(
        "      ttg.warp_return",
        "      ttg.barrier local\n      ttg.warp_return",
        1,
    );
    assert_ne!(broken, gpu);
    assert_refused(
        &broken,
        "partition must hold scalar code and no CTA barrier ('ttg.barrier' is neither)",
    );
}

/// A persistent GEMM warp-specialized whole (docs/hopper.md, "Warp specialization"): the
/// producer runs the loop over C's tiles again with the scalar code its copies'
/// coordinates come from, the rings are set up once before that loop and count K steps
/// on across its iterations, and the stages and rings stay outside it (the epilogue's
/// buffer above what the partition holds). The IR parses back and compiles the same.
#[test]
fn a_persistent_loop_is_warp_specialized_whole() {
    let path = repo_root().join("tests/corpus/cutile/persistent_matmul.mlir");
    let p = path.to_str().unwrap();
    let args = ["--arch", "sm_90a", "--warp-specialize"];
    let out = run_tilec(
        &[&["opt", p, "-p", "convert-to-gpu"], &args[..]].concat(),
        "",
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    let gpu = out.stdout;
    let (default, partition) = gpu
        .split_once("} partition0 {")
        .unwrap_or_else(|| panic!("no partition:\n{gpu}"));
    // The loop over C's tiles in both regions; the K loop inside each.
    let (before, default) = default
        .split_once("ttg.warp_specialize {partitionNumWarps = array<i32: 1>} : (token) default {")
        .unwrap_or_else(|| panic!("no warp_specialize:\n{gpu}"));
    for region in [default, partition] {
        assert!(
            region.contains("for %loopIdx in (%blockId_x to %")
                && region.contains(", step %gridSize_x)"),
            "{region}"
        );
    }
    // The rings and stages before the op, none in its regions.
    assert_eq!(before.matches("ttng.init_barrier").count(), 8, "{before}");
    assert_eq!(before.matches("ttg.local_alloc").count(), 4, "{before}");
    assert!(!default.contains("ttng.init_barrier"), "{default}");
    assert!(!partition.contains("ttng.init_barrier"), "{partition}");
    // The producer's coordinates: the tile's row and column again.
    assert!(partition.contains("= divi %loopIdx, %"), "{partition}");
    assert!(partition.contains("ttng.async_tma_copy_global_to_local"));
    assert!(!default.contains("ttng.async_tma_copy_global_to_local"));
    let direct = parses_back_and_compiles_the_same(&gpu, &[&[p], &args[..]].concat());
    assert!(direct.contains(".reqntid 160, 1, 1"));
}

/// Printed GPU-level IR `gpu` parses back to the same text, and compiles (sm_90a) to the
/// PTX that `tilec` writes with `args` (the input and its options) in one go, which it
/// returns.
fn parses_back_and_compiles_the_same(gpu: &str, args: &[&str]) -> String {
    let again = run_tilec(&["opt", "-"], gpu);
    assert_eq!(again.status, 0, "{}", again.stderr);
    assert_eq!(again.stdout, gpu);
    let direct = run_tilec(&[args, &["-o", "-"]].concat(), "");
    let via = run_tilec(&["-", "--arch", "sm_90a", "-o", "-"], gpu);
    assert_eq!(direct.status, 0, "{}", direct.stderr);
    assert_eq!(via.status, 0, "{}", via.stderr);
    let body = |s: &str| -> String {
        s.lines()
            .filter(|l| !l.starts_with("//") && !l.starts_with(".file"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(body(&direct.stdout), body(&via.stdout));
    direct.stdout
}

/// Not warp-specialized, a persistent GEMM's K loop still builds its tensor maps (and
/// checks their strides) once, before the loop over C's tiles, whose iterations run the
/// K loop alike; its mbarrier ring stays per tile. With the K loop's bound taken from the
/// loop around it, the maps stay inside.
#[test]
fn a_persistent_loop_builds_its_tensor_maps_once() {
    let src =
        std::fs::read_to_string(repo_root().join("tests/corpus/cutile/persistent_matmul.mlir"))
            .expect("reads");
    let varying = src.replacen(
        "to %5#1, step %cst_1_i32_18",
        "to %13, step %cst_1_i32_18",
        1,
    );
    assert_ne!(varying, src);
    for (text, hoisted) in [(src, true), (varying, false)] {
        let out = run_tilec(
            &["opt", "-", "-p", "convert-to-gpu", "--arch", "sm_90a"],
            &text,
        );
        assert_eq!(out.status, 0, "{}", out.stderr);
        let gpu = out.stdout;
        let (before, inside) = gpu
            .split_once("for %loopIdx in (%blockId_x to %")
            .unwrap_or_else(|| panic!("no loop over C's tiles:\n{gpu}"));
        assert_eq!(
            before.matches("ttng.tensormap_create").count(),
            if hoisted { 2 } else { 0 },
            "{gpu}"
        );
        assert_eq!(
            inside.matches("ttng.tensormap_create").count(),
            if hoisted { 0 } else { 2 },
            "{gpu}"
        );
        assert_eq!(inside.matches("ttng.init_barrier").count(), 4, "{gpu}");
    }
}

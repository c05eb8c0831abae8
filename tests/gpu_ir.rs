//! The GPU-level IR (`tilec opt -p convert-to-gpu`): the printed IR of every example
//! matches its golden file in tests/snapshots/gpu (`TILEC_BLESS=1` rewrites them), is the
//! same on every run, and follows the warp count. (Every tile value carrying a layout is
//! checked by the GPU-level verifier, which the pass runs; see crates/tilec-ptx/tests.)

use tilec_tests::{example_files, repo_root, run_tilec};

fn gpu_ir(path: &std::path::Path, warps: &str) -> String {
    let out = run_tilec(
        &[
            "opt",
            path.to_str().unwrap(),
            "-p",
            "canonicalize,convert-to-gpu",
            "--num-warps",
            warps,
        ],
        "",
    );
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
        "tilec: error: convert-to-gpu must be the last pass (its output is the GPU-level IR)\n"
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
            let gpu = gpu_ir(path, warps);
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
    let out = run_tilec(&["opt", "-", "--diagnostic-format=mlir"], &broken);
    assert_eq!(out.status, 1, "{}", out.stdout);
    assert!(
        out.stderr.contains("error: invalid GPU-level IR: "),
        "{}",
        out.stderr
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
    for rel in [
        "examples/matmul.tile",
        "tests/corpus/cutile/matmul_bf16.mlir",
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
            let direct = run_tilec(&[p, "--arch", "sm_90", "--num-stages", n, "-o", "-"], "");
            let via = run_tilec(&["-", "--arch", "sm_90", "-o", "-"], &gpu.stdout);
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
}

//! Mutation testing (a few hundred mutants; `cargo xtask fuzz` runs 100,000+): inputs made
//! by deleting, duplicating, swapping and replacing tokens, truncating and inserting random
//! bytes never crash or hang tilec; every rejected mutant gets a located diagnostic and exit
//! status 1; every accepted mutant prints to text that parses again and prints the same.
//! Bytecode mutants (bit flips, boundary bytes, ranges deleted, inserted, duplicated or
//! spliced, huge varints, truncation; `cargo xtask fuzz-bytecode` runs 100,000) hold the
//! same contract with errors located by byte offset.

use tilec_tests::mutate::{KINDS, Outcome, Rng, check_mutant, mutate, token_ranges};

fn seeds() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let root = tilec_tests::repo_root();
    let mut dirs = vec![root.join("examples")];
    if let Some(shared) = tilec_tests::shared_dir() {
        dirs.push(shared.join("conformance/cuda-tile-13.1"));
        dirs.push(shared.join("conformance/cutile-samples"));
    } else {
        tilec_tests::skipped(
            "mutation seeds from ../shared",
            "conformance files not found; using examples only",
        );
    }
    for d in dirs {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        let mut files: Vec<_> = rd.flatten().map(|e| e.path()).collect();
        files.sort();
        for p in files {
            if matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("mlir" | "tile")
            ) && let Ok(text) = std::fs::read_to_string(&p)
            {
                // Keep mutants small so that each run is fast: use the first chunk only.
                let chunk = text.split("\n// -----").next().unwrap_or("").to_string();
                out.push((p.display().to_string(), chunk));
            }
        }
    }
    out
}

#[test]
fn mutants_never_crash_and_always_explain_themselves() {
    let seeds = seeds();
    assert!(!seeds.is_empty(), "no seed inputs found");
    let per_seed = (400 / seeds.len()).max(20);
    let mut rng = Rng::new(0x711ec);
    let (mut accepted, mut rejected) = (0, 0);
    let mut failures = Vec::new();
    for (name, text) in &seeds {
        let tokens = token_ranges(text);
        for i in 0..per_seed {
            let kind = KINDS[i % KINDS.len()];
            let m = mutate(text, &tokens, kind, &mut rng);
            match check_mutant(&m) {
                Ok(Outcome::Accepted) => accepted += 1,
                Ok(Outcome::Rejected) => rejected += 1,
                Err(e) => failures.push(format!(
                    "{name} mutant {i} ({kind:?}): {e}\n--- mutant ---\n{}",
                    String::from_utf8_lossy(&m)
                )),
            }
        }
    }
    eprintln!(
        "mutation: {accepted} accepted, {rejected} rejected, {} failures",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(
        rejected > 0,
        "no mutant was rejected: the mutator is not doing its job"
    );
}

/// Nested input at the parser's nesting limit, built by wrapping `inner` `depth` times.
fn nest(depth: usize, open: &str, inner: &str, close: &str) -> String {
    let mut s = open.repeat(depth);
    s.push_str(inner);
    s.push_str(&close.repeat(depth));
    s
}

#[test]
fn deep_nesting_is_a_diagnostic_not_a_stack_overflow() {
    // Runs on a test thread (2 MiB of stack) in whatever profile the tests use: the limit
    // must hold there, for the parser and for printing what the parser accepts.
    let limit = tilec_parse::MAX_NESTING as usize;
    let regions = |d: usize| {
        format!(
            "%c = constant <i1: true> : tile<i1>\n{}\n",
            nest(
                d,
                "if %c {\n",
                "%x = constant <f32: 1.0> : tile<f32>\n",
                "}\n"
            )
        )
    };
    let arrays = |d: usize| {
        format!(
            "%t = make_token {{a = {}}} : token\n",
            nest(d, "[", "1", "]")
        )
    };
    let dense = |d: usize| {
        format!(
            "%0 = constant <i32: {}> : tile<{}i32>\n",
            nest(d, "[", "1", "]"),
            "1x".repeat(d)
        )
    };
    let locs = |d: usize| {
        format!(
            "%t = make_token : token loc({})\n",
            nest(d, "callsite(", "\"f\":1:1", " at \"g\":2:2)")
        )
    };
    let types = |d: usize| {
        format!(
            "%t = make_token {{t = {}}} : token\n",
            nest(d, "(", "i32", ") -> ()")
        )
    };
    for (what, make) in [
        ("regions", &regions as &dyn Fn(usize) -> String),
        ("arrays", &arrays),
        ("dense", &dense),
        ("locations", &locs),
        ("types", &types),
    ] {
        // Just inside the limit: no crash in parsing, printing and parsing again.
        let ok = make(limit - 10);
        match check_mutant(ok.as_bytes()) {
            Ok(Outcome::Accepted) => {}
            Ok(Outcome::Rejected) if what == "dense" => {} // rank limits apply first
            other => panic!("{what} at depth {}: {other:?}", limit - 10),
        }
        // Far beyond it: rejected with the nesting diagnostic.
        let deep = make(limit * 50);
        let out = tilec_tests::run_tilec(&["check", "--allow-unregistered-dialect", "-"], &deep);
        assert_eq!(out.status, 1, "{what}: {}", out.stderr);
        assert!(
            out.stderr
                .contains("nesting is too deep (the limit is 200 levels)"),
            "{what}: {}",
            out.stderr
        );
    }
}

#[test]
fn fuzz_findings_stay_fixed() {
    // Inputs `cargo xtask fuzz` once found to crash or to print text that did not parse
    // back; each must now be rejected with a located diagnostic or round-trip exactly.
    let findings: &[&str] = &[
        // An op using its own result: naming `%assume_...` after the producer recursed.
        "\"cuda_tile.module\"() <{sym_name = \"m\"}> ({\n  \"cuda_tile.testing$func\"() <{function_type = (!cuda_tile.tile<16xi8>) -> (), sym_name = \"f\"}> ({\n  ^bb0(%arg0: !cuda_tile.tile<16xi8>):\n    %0 = \"cuda_tile.assume\"(%0) <{predicate = #cuda_tile.bounded<-129, 6>}> : (!cuda_tile.tile<16xi8>) -> !cuda_tile.tile<16xi8>\n    \"cuda_tile.return\"() : () -> ()\n  }) : () -> ()\n}) : () -> ()\n",
        // A terminator in the middle of a block: `yield` then `%4 = ...` reads as `yield %4`.
        "cuda_tile.module @m {\n  entry @e(%arg0: tile<i1>) {\n    %1 = make_token : token\n    %2 = if %arg0 -> (token) {\n      yield make_token : token\n    } else {\n      yield %1 : token\n    }\n    return\n  }\n}\n",
        // More results than the custom syntax can express.
        "cuda_tile.module @m {\n  testing$func @k(%tv : !cuda_tile.tensor_view<64x64xf16, strides=[1,1]>) {\n    %0:3 = \"cuda_tile.get_tensor_shape\"(%tv) : (!cuda_tile.tensor_view<64x64xf16, strides=[1,1]>) -> (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>, !cuda_tile.tile<i32>)\n  }\n}\n",
        // A condition of the wrong type, and a region without a block.
        "%c = cuda_tile.constant <i32: 4> : !cuda_tile.tile<i32>\n\"cuda_tile.if\"(%c) ({\n  cuda_tile.yield\n}, {\n}) : (!cuda_tile.tile<i32>) -> ()\n",
        "cuda_tile.module @k {\n  \"cuda_tile.testing$func\"() ({ }) {function_type = () -> (), sym_name = \"foo\"} : () -> ()\n}\n",
        // A loop variable whose type differs from the bounds'.
        "%c0 = cuda_tile.constant <i32: 0> : !cuda_tile.tile<i32>\n\"cuda_tile.for\"(%c0, %c0, %c0) ({\n  ^bb0(%i : !cuda_tile.tile<f32>):\n    cuda_tile.continue\n}) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> ()\n",
        // Discardable attributes on a function.
        "\"cuda_tile.module\"() <{sym_name = \"m\"}> ({\n  \"cuda_tile.entry\"() <{function_type = () -> (), sym_name = \"k\"}> ({\n    \"cuda_tile.return\"() : () -> ()\n  }) {foo = 1 : i32} : () -> ()\n}) : () -> ()\n",
        // An i64 (or `unit`) dense array where an i32 one belongs: convert-to-gpu broke.
        "cuda_tile.module @m {\n  entry @k(%p: !cuda_tile.tile<ptr<f32>>) {\n    %x = constant <f32: 1.0> : tile<32x128xf32>\n    %y = \"cuda_tile.permute\"(%x) <{permutation = array<i64: 1, 0>}> : (!cuda_tile.tile<32x128xf32>) -> !cuda_tile.tile<128x32xf32>\n    return\n  }\n}\n",
        "cuda_tile.module @m {\n  entry @k(%p: !cuda_tile.tile<ptr<f32>>) {\n    %x = constant <f32: 1.0> : tile<32x128xf32>\n    %y = \"cuda_tile.permute\"(%x) <{permutation = array<unit: 1, 0>}> : (!cuda_tile.tile<32x128xf32>) -> !cuda_tile.tile<128x32xf32>\n    return\n  }\n}\n",
        // A 13.3 element type as a kernel argument: `tilec run` had no --arg for it.
        "cuda_tile.module @m {\n  entry @k(%s: !cuda_tile.tile<f8E8M0FNU>) {\n    %f = ftof %s : tile<f8E8M0FNU> -> tile<f32>\n    return\n  }\n}\n",
    ];
    for (i, f) in findings.iter().enumerate() {
        if let Err(e) = check_mutant(f.as_bytes()) {
            panic!("finding #{i}: {e}\n{f}");
        }
    }
}

#[test]
fn bytecode_mutants_never_crash_and_always_explain_themselves() {
    use tilec_tests::mutate::{
        BYTE_KINDS, bytecode_seeds, check_bytecode_mutant_detail, mutate_bytes,
    };
    let seeds = bytecode_seeds();
    assert!(seeds.len() >= 30, "only {} bytecode seeds", seeds.len());
    let per_seed = (6000 / seeds.len()).max(20);
    let mut rng = Rng::new(0xb17ec0de);
    let (mut accepted, mut rejected) = (0, 0);
    let mut slowest = (std::time::Duration::ZERO, String::new());
    let mut failures = Vec::new();
    for (s, (name, bytes)) in seeds.iter().enumerate() {
        let other = &seeds[(s * 7 + 3) % seeds.len()].1;
        for i in 0..per_seed {
            let kind = BYTE_KINDS[i % BYTE_KINDS.len()];
            let mut m = mutate_bytes(bytes, other, kind, &mut rng);
            if i % 5 == 4 {
                // Stack a second mutation of a random kind.
                let k = BYTE_KINDS[rng.below(BYTE_KINDS.len())];
                m = mutate_bytes(&m, other, k, &mut rng);
            }
            match check_bytecode_mutant_detail(&m) {
                Ok(o) => {
                    if o.outcome == Outcome::Accepted {
                        accepted += 1;
                    } else {
                        rejected += 1;
                    }
                    if o.elapsed > slowest.0 {
                        slowest = (o.elapsed, format!("{name} mutant {i} ({kind:?})"));
                    }
                }
                Err(e) => failures.push(format!(
                    "{name} mutant {i} ({kind:?}): {e}\n--- mutant (hex) ---\n{}",
                    m.iter().map(|b| format!("{b:02x}")).collect::<String>()
                )),
            }
        }
    }
    eprintln!(
        "bytecode mutation: {} seeds, {accepted} accepted, {rejected} rejected, {} failures; slowest {:.1} ms ({})",
        seeds.len(),
        failures.len(),
        slowest.0.as_secs_f64() * 1e3,
        slowest.1
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(
        rejected > 0 && accepted > 0,
        "the mutator is not doing its job"
    );
}

/// A bytecode mutant `cargo xtask fuzz-bytecode` found: a testing type whose base is not a
/// number type was read, then printed as text that does not parse. The reader refuses it
/// now, at its byte offset.
#[test]
fn bytecode_fuzz_findings_stay_fixed() {
    let hex = "7f54696c65495200fa010000821c08cb01000400011680600107100600826007010205010103c801095c0000841908cb01cbcbcbcbcbcbcb0000000000000000080000803f00000040834108cbcbcbcb01cbcbcb0000000005cbcbcbcbcbcbcb0000000000000000000000000000000000000000000000000000000000000000000000000000000001cbcbcb0000000000853f0408cbcbcb000000000100000002000000030000000a0000000e0000000f0000001a000000110405c801000701020210010300070d0501020000000000000011810904cbcb01cbcbcb000000006600";
    let bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect();
    if let Err(e) = tilec_tests::mutate::check_bytecode_mutant(&bytes) {
        panic!("{e}");
    }
    let err = tilec_bytecode::read(&bytes, tilec_diag::FileId(0)).expect_err("refused");
    assert_eq!(
        err.message,
        "the base type of 'testing$bytecode_test_evolved' is not a number type"
    );
}

/// The GPU-level IR `tilec opt -p canonicalize,convert-to-gpu` prints for `path` with
/// `more` options.
fn gpu_ir_of(path: &std::path::Path, more: &[&str]) -> String {
    let text = std::fs::read(path).expect("seed");
    let mut args = vec!["opt", "-", "-p", "canonicalize,convert-to-gpu"];
    args.extend_from_slice(more);
    let out = tilec_tests::mutate::run_bytes(&args, &text);
    assert_eq!(out.status, 0, "{} {more:?}: {}", path.display(), out.stderr);
    out.stdout
}

/// The GPU-level IR is an input too (`tilec opt -p ...,convert-to-gpu` prints it, and
/// `tilec FILE` compiles it to PTX): mutants of the GPU-level IR of six examples and
/// seven cuTile kernels, for sm_80, sm_89 and sm_90a (warpgroup MMA, pipelines, swizzled
/// buffers, operands transformed in shared memory, warp specialization), compiled to
/// PTX, never crash; each ends with exit status 0, or 1 and located diagnostics. 30
/// mutants per seed here (`TILEC_GPU_MUTANTS=N` for more: 600 per seed, 13,800 in all,
/// found nothing on 2026-11-27, 15:20 UTC; 2,000 per seed with the cluster seeds, 58,000
/// in all, nothing on 2026-11-27, 23:15 UTC).
#[test]
fn gpu_ir_mutants_never_crash_and_always_explain_themselves() {
    let root = tilec_tests::repo_root();
    let mut seeds = Vec::new();
    for name in [
        "examples/matmul.tile",
        "examples/layernorm.tile",
        "examples/row_softmax.tile",
        "examples/prefix_sum.tile",
        "examples/mma_types.tile",
        // Column-blocked operands (rows over one swizzle atom) on sm_90a.
        "examples/matmul_wide.tile",
        // cuTile's: both operands by async copies, B staged as loaded; attention.
        "tests/corpus/cutile/matmul_f16_f32acc.mlir",
        "tests/corpus/cutile/flash_attention.mlir",
    ] {
        for arch in ["sm_80", "sm_90a"] {
            let gpu = gpu_ir_of(&root.join(name), &["--arch", arch]);
            seeds.push((format!("{name} {arch}"), arch, gpu));
        }
    }
    // Operands transformed in shared memory (tf32 converted, 8-bit B made K-major),
    // split-K's loop of step 4 (warp-specialized), float8 on sm_89's mma.sync, and a K
    // loop nested in a persistent loop.
    for (name, arch, more) in [
        ("tests/corpus/cutile/matmul_tf32.mlir", "sm_90a", None),
        ("tests/corpus/cutile/matmul_fp8.mlir", "sm_90a", None),
        ("tests/corpus/cutile/matmul_fp8.mlir", "sm_89", None),
        (
            "tests/corpus/cutile/matmul_splitk.mlir",
            "sm_90a",
            Some("--warp-specialize"),
        ),
        ("tests/corpus/cutile/persistent_matmul.mlir", "sm_90a", None),
    ] {
        let mut args = vec!["--arch", arch];
        args.extend(more);
        let gpu = gpu_ir_of(&root.join(name), &args);
        seeds.push((format!("{name} {}", args.join(" ")), arch, gpu));
    }
    // Warp-specialized (a `ttg.warp_specialize` with its producer partition; the
    // persistent GEMM's holds the loop over C's tiles with its scalar code, attention's
    // fills two rings).
    for name in [
        "examples/matmul_wide.tile",
        "tests/corpus/cutile/matmul_bf16.mlir",
        "tests/corpus/cutile/persistent_matmul.mlir",
        "tests/corpus/cutile/flash_attention.mlir",
    ] {
        let gpu = gpu_ir_of(&root.join(name), &["--arch", "sm_90a", "--warp-specialize"]);
        assert!(gpu.contains("ttg.warp_specialize"), "{name}");
        seeds.push((format!("{name} sm_90a warp-specialized"), "sm_90a", gpu));
    }
    // Clusters (`--num-ctas`): tiles split over the CTAs, a reduction and a scan combined
    // through distributed shared memory, rank 0's whole writes, cluster barriers.
    for (name, arch, ctas) in [
        ("tests/corpus/cutile/block_sum_cluster.mlir", "sm_90", "2"),
        ("tests/corpus/cutile/matmul_cluster.mlir", "sm_90a", "2"),
        ("examples/layernorm.tile", "sm_90", "4"),
        ("tests/corpus/cutile/prefix_sum.mlir", "sm_90", "2"),
    ] {
        let gpu = gpu_ir_of(&root.join(name), &["--arch", arch, "--num-ctas", ctas]);
        assert!(gpu.contains("ttg.num_ctas"), "{name}");
        seeds.push((format!("{name} {arch} --num-ctas {ctas}"), arch, gpu));
    }
    let mut rng = Rng::new(0x6b0_1127);
    let (mut accepted, mut rejected) = (0, 0);
    let mut failures = Vec::new();
    for (name, arch, text) in &seeds {
        let tokens = token_ranges(text);
        for i in 0..std::env::var("TILEC_GPU_MUTANTS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(30)
        {
            let kind = KINDS[i % KINDS.len()];
            let m = mutate(text, &tokens, kind, &mut rng);
            let args = ["-", "-o", "-", "--arch", arch, "--diagnostic-format=json"];
            let out = std::panic::catch_unwind(|| tilec_tests::mutate::run_bytes(&args, &m));
            let problem = match out {
                Err(e) => Some(format!("panic: {}", tilec_gpu::panic_message(&*e))),
                Ok(o) if o.status == 0 => {
                    accepted += 1;
                    None
                }
                Ok(o) if o.status == 1 => {
                    rejected += 1;
                    let errors: Vec<&str> = o
                        .stdout
                        .lines()
                        .filter(|l| l.contains("\"severity\":\"error\""))
                        .collect();
                    if errors.is_empty() {
                        Some(format!("rejected without a diagnostic: {}", o.stderr))
                    } else {
                        errors
                            .iter()
                            .find(|l| l.contains("\"line\":null"))
                            .map(|l| format!("diagnostic without a location: {l}"))
                    }
                }
                Ok(o) => Some(format!(
                    "exit status {}: {}{}",
                    o.status, o.stdout, o.stderr
                )),
            };
            if let Some(p) = problem {
                failures.push(format!(
                    "{name} mutant {i} ({kind:?}): {p}\n--- mutant ---\n{}",
                    String::from_utf8_lossy(&m)
                ));
            }
        }
    }
    eprintln!(
        "GPU-level IR mutation: {accepted} accepted, {rejected} rejected, {} failures",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{}",
        failures
            .iter()
            .map(|f| f.chars().take(3000).collect::<String>())
            .collect::<Vec<_>>()
            .join("\n\n")
    );
    assert!(
        rejected > 0 && accepted > 0,
        "{accepted} accepted, {rejected} rejected"
    );
}

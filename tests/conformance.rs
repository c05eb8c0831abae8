//! Conformance tests against NVIDIA's own test files (read from `../shared`, never copied
//! into this repository):
//!
//! 1. every file of `conformance/cuda-tile-13.1` without `expected-error` annotations and
//!    every cuTile sample parses; `tilec fmt` output parses again and formatting it again is
//!    byte-identical; no op falls back to the generic form; the generic form parses back
//!    to the same custom form;
//! 2. the `// RUN:` lines of ops.mlir, types.mlir, syntax_omit_dialect_prefix.mlir,
//!    opt_hints.mlir, invalid.mlir, get_shape_invalid.mlir, permute_invalid.mlir and
//!    canonicalize.mlir pass unchanged with tilec in cuda-tile-opt's place (`tilec opt
//!    --compat=cuda-tile-opt`, which takes cuda-tile-opt's options) and FileCheck semantics.

use tilec_tests::{lit, round_trip, shared_dir, skipped};

fn main() {
    let Some(shared) = shared_dir() else {
        skipped(
            "conformance",
            "../shared/conformance not found (set TILEC_SHARED_DIR)",
        );
        return;
    };
    let mut failures: Vec<String> = Vec::new();
    let mut passed = 0usize;

    // 1. Round trips.
    let mut files = Vec::new();
    for dir in ["conformance/cuda-tile-13.1", "conformance/cutile-samples"] {
        let Ok(rd) = std::fs::read_dir(shared.join(dir)) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "mlir") {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut with_errors = 0;
    for p in &files {
        let text = std::fs::read_to_string(p).unwrap_or_default();
        if text.contains("expected-error") {
            with_errors += 1;
            continue;
        }
        match round_trip(p) {
            Ok(()) => {
                passed += 1;
                println!("round-trip {} ... ok", p.display());
            }
            Err(e) => failures.push(format!("round-trip {}: {e}", p.display())),
        }
    }
    println!("({with_errors} files with expected-error annotations belong to the verifier tests)");

    // 2. RUN lines with FileCheck.
    for name in [
        "ops.mlir",
        "types.mlir",
        "syntax_omit_dialect_prefix.mlir",
        "opt_hints.mlir",
        "invalid.mlir",
        "get_shape_invalid.mlir",
        "permute_invalid.mlir",
        "canonicalize.mlir",
    ] {
        let path = shared.join("conformance/cuda-tile-13.1").join(name);
        let Ok(text) = std::fs::read_to_string(&path) else {
            failures.push(format!("{name}: missing"));
            continue;
        };
        for (line, cmd) in lit::run_lines(&text) {
            if cmd.starts_with("%round_trip_test") {
                println!(
                    "{name}:{line}: `{cmd}` ... not applicable (bytecode round trip, see the bytecode tests)"
                );
                continue;
            }
            let steps = match lit::translate(&cmd, path.to_str().unwrap_or_default()) {
                Ok(s) => s,
                Err(e) => {
                    failures.push(format!("{name}:{line}: `{cmd}`: {e}"));
                    continue;
                }
            };
            match lit::execute(&steps, &text) {
                Ok(()) => {
                    passed += 1;
                    println!("{name}:{line}: `{cmd}` ... ok");
                }
                Err(e) => failures.push(format!("{name}:{line}: `{cmd}`: {e}")),
            }
        }
    }

    println!("\nconformance: {passed} passed, {} failed", failures.len());
    if !failures.is_empty() {
        for f in &failures {
            eprintln!("\nFAILED {f}");
        }
        std::process::exit(1);
    }
}

//! The verifier against NVIDIA's conformance files (read from `../shared`, never copied
//! into this repository):
//!
//! 1. invalid.mlir, get_shape_invalid.mlir and permute_invalid.mlir pass
//!    `tilec check --compat=cuda-tile-opt -verify-diagnostics -split-input-file`: every
//!    expected diagnostic is produced with NVIDIA's exact wording, nothing else is;
//! 2. in the default (spec) mode every expected error is at least located: some error is
//!    reported on its line;
//! 3. no false positives: every valid conformance file, every cuTile sample and every
//!    example verifies clean, in both personalities.
//!
//! The figures are printed; any miss fails the test.

use tilec_diag::expect::{self, Target};
use tilec_diag::{Diagnostic, FileId, Severity, SourceFile};
use tilec_tests::{example_files, shared_dir, skipped};
use tilec_verify::{Personality, VerifyOptions};

const INVALID: &[&str] = &[
    "invalid.mlir",
    "get_shape_invalid.mlir",
    "permute_invalid.mlir",
];

/// Parses and verifies one chunk. These are 13.1's files: both personalities run as
/// release 13.1 (NVIDIA's wording and type lists, and what 13.1 supports: no bf16 atomic
/// addition, for one).
fn diagnose(text: &str, range: std::ops::Range<usize>, p: Personality) -> Vec<Diagnostic> {
    let _ = p;
    let release_minor = Some(1);
    let opts = tilec_parse::ParseOptions {
        allow_unregistered: true,
        release_minor,
        ..Default::default()
    };
    match tilec_parse::parse_range(text, range.start, range.end, FileId(0), &opts) {
        Ok(m) => tilec_verify::verify(
            &m,
            &VerifyOptions {
                personality: p,
                release_minor,
                ..Default::default()
            },
        ),
        Err(d) => d,
    }
}

fn main() {
    let Some(shared) = shared_dir() else {
        skipped(
            "verify_conformance",
            "../shared/conformance not found (set TILEC_SHARED_DIR)",
        );
        return;
    };
    let dir = shared.join("conformance/cuda-tile-13.1");
    let mut failures = Vec::new();

    for name in INVALID {
        let Ok(text) = std::fs::read_to_string(dir.join(name)) else {
            failures.push(format!("{name}: cannot read"));
            continue;
        };
        let file = SourceFile::new(*name, text.clone());
        let chunks = tilec_parse::split_input(&text);
        let (mut pass, mut expected, mut located) = (0, 0, 0);
        for c in &chunks {
            // 1. NVIDIA's wording, exactly.
            let d = diagnose(&text, c.clone(), Personality::CudaTileOpt);
            let mismatches = expect::verify(&file, FileId(0), c.clone(), &d);
            if mismatches.is_empty() {
                pass += 1;
            }
            for m in mismatches {
                let (l, col) = file.line_col(m.location.map_or(0, |x| x.span.start));
                failures.push(format!("{name}:{l}:{col}: [compat] {}", m.message));
            }
            // 2. The spec's wording: located.
            let d = diagnose(&text, c.clone(), Personality::Spec);
            let lines: Vec<u32> = d
                .iter()
                .filter(|x| x.is_error())
                .filter_map(|x| x.location)
                .map(|l| file.line_col(l.span.start).0)
                .collect();
            let (exps, _) = expect::parse_expectations(&file, FileId(0), c.clone());
            for e in exps.iter().filter(|e| e.severity == Severity::Error) {
                expected += 1;
                match e.target {
                    Target::Line(l) if lines.contains(&(l as u32)) => located += 1,
                    _ => {
                        let (l, _) = file.line_col(e.start);
                        failures.push(format!(
                            "{name}:{l}: [spec] no error on the line this expects: {}",
                            e.text
                        ));
                    }
                }
            }
        }
        println!(
            "{name}: cuda-tile-opt mode {pass}/{} chunks exact; default mode {located}/{expected} expected errors located",
            chunks.len()
        );
    }

    // 3. No false positives.
    let mut valid = Vec::new();
    for d in ["conformance/cuda-tile-13.1", "conformance/cutile-samples"] {
        if let Ok(rd) = std::fs::read_dir(shared.join(d)) {
            for e in rd.flatten() {
                let p = e.path();
                let text = std::fs::read_to_string(&p).unwrap_or_default();
                if p.extension().is_some_and(|x| x == "mlir") && !text.contains("expected-error") {
                    valid.push(p);
                }
            }
        }
    }
    valid.extend(example_files());
    valid.sort();
    let mut clean = 0;
    for p in &valid {
        let text = std::fs::read_to_string(p).unwrap_or_default();
        let mut ok = true;
        for c in tilec_parse::split_input(&text) {
            for personality in [Personality::Spec, Personality::CudaTileOpt] {
                for d in diagnose(&text, c.clone(), personality) {
                    ok = false;
                    let f = SourceFile::new("", text.clone());
                    let (l, col) = f.line_col(d.location.map_or(0, |x| x.span.start));
                    failures.push(format!(
                        "{}:{l}:{col}: false positive ({personality:?}): {}",
                        p.display(),
                        d.message
                    ));
                }
            }
        }
        if ok {
            clean += 1;
        }
    }
    println!(
        "valid files verifying clean in both modes: {clean}/{}",
        valid.len()
    );

    if !failures.is_empty() {
        for f in &failures {
            eprintln!("{f}");
        }
        eprintln!("verify_conformance: {} failure(s)", failures.len());
        std::process::exit(1);
    }
}

//! `cargo xtask diff-canon [--kernels N] [--seed S] [--inputs K]`: differential
//! canonicalization at scale (issue 6, point 4).
//!
//! Runs every canonicalize test case of the repository, then N random kernels from
//! `tilec_tests::kernelgen` (default 10,000; kernel `i` has seed `S * 2^32 + i`), through
//! `tilec_tests::diffcanon`: each function is run by the interpreter on K random inputs
//! (default 8; 3 for kernels with pointers) before and after canonicalization in both
//! personalities, after canonicalize + cse + dce, with FoldSelect disabled, and after
//! NVIDIA's `loop-split`, and the results must agree bit for bit; after `fuse-fma` (not
//! numeric-preserving) they must agree bit for bit modulo contraction (both sides with
//! every `fma` written back as `mulf` + `addf`: `tilec_tests::diffcanon::unfuse`). The
//! Transforms lit files and tests/transforms.rs are among the test cases. Prints the figures (kernels generated and verified,
//! functions and inputs run, inputs skipped for undefined behaviour, rules fired,
//! mismatches, time) and the first mismatches; exits 1 on any mismatch or on a generated
//! kernel that does not verify.

use std::time::Instant;
use tilec_tests::diffcanon::{self, Config, Report};
use tilec_tests::kernelgen;

fn print_report(title: &str, r: &Report) {
    println!("== {title}");
    print!("{}", r.render());
    for x in &r.rejected {
        println!("  not checked: {x}");
    }
}

/// Runs the check; returns the exit status.
pub fn diff_canon(kernels: u64, seed: u64, inputs: usize) -> i32 {
    let t0 = Instant::now();
    let cfg = Config {
        inputs,
        pointer_inputs: inputs.min(3),
        seed,
    };
    println!(
        "diff-canon: seed {seed}, {inputs} inputs per function ({} for kernels with pointers)",
        cfg.pointer_inputs
    );
    let (cases, missing) = diffcanon::canonicalize_cases();
    for m in &missing {
        tilec_tests::skipped(
            "diff-canon: part of the canonicalize corpus",
            &format!("{m} not found"),
        );
    }
    let mut case_report = Report::default();
    for c in &cases {
        diffcanon::check_text(&c.name, &c.text, &cfg, &mut case_report);
    }
    let t_cases = t0.elapsed();
    print_report(
        &format!("canonicalize test cases ({:.1} s)", t_cases.as_secs_f64()),
        &case_report,
    );

    let t1 = Instant::now();
    let mut report = Report::default();
    for i in 0..kernels {
        let s = seed.wrapping_mul(1 << 32).wrapping_add(i);
        let text = kernelgen::kernel(s);
        diffcanon::check_text(&format!("kernel seed {s}"), &text, &cfg, &mut report);
    }
    let t_kernels = t1.elapsed();
    let verified = report.cases - report.unparsed - report.unverified;
    println!(
        "== random kernels ({:.1} s)\nkernels generated:     {}\nkernels verified:      {verified}",
        t_kernels.as_secs_f64(),
        report.cases,
    );
    print_report("random kernel figures", &report);
    let failures: Vec<_> = case_report
        .failures
        .iter()
        .chain(&report.failures)
        .collect();
    for f in failures.iter().take(3) {
        println!("\n{f}");
    }
    println!(
        "\ntotal: {} mismatches, {} generated kernels that do not verify, {:.1} s",
        failures.len(),
        report.cases - verified,
        t0.elapsed().as_secs_f64()
    );
    i32::from(!failures.is_empty() || verified != report.cases)
}

//! Differential canonicalization (issue 6, point 4): every canonicalize test case whose
//! functions can run, and a few hundred random kernels from `tilec_tests::kernelgen`, are
//! run by the reference interpreter on random inputs before and after canonicalization
//! (spec and cuda-tile-opt personalities, and canonicalize + cse + dce), and must give the
//! same results bit for bit (see `tilec_tests::diffcanon`). A mismatch prints the module,
//! the pipeline's output, the input and both results.
//!
//! `TILEC_DIFF_KERNELS=N` changes the number of random kernels (default 300);
//! `cargo xtask diff-canon` runs 10,000 in release.

use tilec_tests::diffcanon::{self, Config, Report};
use tilec_tests::kernelgen;

fn kernel_count() -> u64 {
    std::env::var("TILEC_DIFF_KERNELS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300)
}

#[track_caller]
fn assert_no_failures(report: &Report) {
    if report.failures.is_empty() {
        return;
    }
    for f in report.failures.iter().take(5) {
        eprintln!("{f}");
    }
    panic!(
        "{} mismatches (the first five are above)\n{}",
        report.failures.len(),
        report.render()
    );
}

#[test]
fn canonicalize_test_cases_agree() {
    let (cases, missing) = diffcanon::canonicalize_cases();
    for m in &missing {
        tilec_tests::skipped(
            "canon_diff: part of the canonicalize corpus",
            &format!("{m} not found"),
        );
    }
    let cfg = Config::default();
    let mut report = Report::default();
    let verbose = std::env::var_os("TILEC_DIFF_VERBOSE").is_some();
    for c in &cases {
        let t = std::time::Instant::now();
        diffcanon::check_text(&c.name, &c.text, &cfg, &mut report);
        if verbose {
            eprintln!("{} {:.2}s", c.name, t.elapsed().as_secs_f64());
        }
    }
    eprintln!("canonicalize test cases:\n{}", report.render());
    for r in &report.rejected {
        eprintln!("  not checked: {r}");
    }
    for r in &report.ub_functions {
        eprintln!("  not run: {r}");
    }
    assert_no_failures(&report);
    // The check ran real work: most cases' functions ran.
    assert!(report.functions_run >= 100, "{}", report.render());
    assert!(report.comparisons >= 1000, "{}", report.render());
}

#[test]
fn random_kernels_agree() {
    let cfg = Config::default();
    let mut report = Report::default();
    for seed in 0..kernel_count() {
        let text = kernelgen::kernel(seed);
        diffcanon::check_text(&format!("kernel {seed}"), &text, &cfg, &mut report);
    }
    eprintln!("random kernels:\n{}", report.render());
    for r in &report.rejected {
        eprintln!("  generator bug: {r}");
    }
    if std::env::var_os("TILEC_DIFF_VERBOSE").is_some() {
        for r in &report.ub_functions {
            eprintln!("  not run: {r}");
        }
    }
    assert_eq!(
        report.unparsed + report.unverified,
        0,
        "generated modules that do not parse or verify:\n{}",
        report.rejected.join("\n")
    );
    assert_no_failures(&report);
    assert!(
        report.functions_run * 10 >= report.functions * 8,
        "{}",
        report.render()
    );
    // The generator reaches every rule (and the simplifier), so each is checked.
    for rule in tilec_opt::Rule::ALL {
        assert!(
            report.rules.get(rule.name()).copied().unwrap_or(0) > 0,
            "{} never fired:\n{}",
            rule.name(),
            report.render()
        );
    }
    assert!(report.rules.get("Simplify").copied().unwrap_or(0) > 0);
}

#[test]
fn generator_is_deterministic_and_varied() {
    assert_eq!(kernelgen::kernel(7), kernelgen::kernel(7));
    assert_ne!(kernelgen::kernel(7), kernelgen::kernel(8));
}

/// The checker is not vacuous: a rewrite that changes a result, or that fails where the
/// original runs, is reported.
#[test]
fn checker_reports_wrong_rewrites() {
    let original = r#"
cuda_tile.module @m {
  testing$func @f(%a: tile<4xi32>, %b: tile<f32>) -> (tile<4xi32>, tile<f32>) {
    %one = constant <i32: 1> : tile<4xi32>
    %x = addi %a, %one : tile<4xi32>
    %y = negf %b : tile<f32>
    return %x, %y : tile<4xi32>, tile<f32>
  }
}
"#;
    let wrong_int = original.replace("<i32: 1>", "<i32: 2>");
    let wrong_nan = original.replace("negf %b", "absf %b");
    let new_ub = original.replace("addi %a, %one", "divi %a, %one signed");
    let new_ub = new_ub.replace("<i32: 1>", "<i32: 0>");
    let cfg = Config::default();
    for (what, rewritten) in [
        ("a wrong constant", wrong_int),
        ("a lost sign", wrong_nan),
        ("a division by zero", new_ub),
    ] {
        let mut report = Report::default();
        diffcanon::check_rewrite("self-test", original, &rewritten, &cfg, &mut report);
        assert_eq!(report.functions_run, 1, "{what}: {}", report.render());
        assert!(!report.failures.is_empty(), "{what} was not reported");
        let shown = report.failures[0].to_string();
        assert!(shown.contains("--- input ---") && shown.contains("--- before ---"));
    }
    // And the same module against itself passes.
    let mut report = Report::default();
    diffcanon::check_rewrite("self-test", original, original, &cfg, &mut report);
    assert!(report.failures.is_empty());
    assert_eq!(report.comparisons, cfg.inputs as u64);
}

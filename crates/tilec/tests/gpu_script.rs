//! `scripts/gpu/run_examples.py --dry-run --no-large` (no GPU needed): every kernel of every
//! example is covered by the GPU runner, with arguments that match the kernel's PTX
//! parameters, and the NumPy references run. Keeps the runner in step with the examples so
//! it works the day a GPU is there. Needs Python with NumPy (`TILEC_PYTHON`, else
//! `python3`); .ci/run provides it, elsewhere the test says SKIPPED.

mod common;

use std::path::Path;
use std::process::Command;

#[test]
fn gpu_runner_covers_every_example_kernel() {
    let Some(python) = common::python_with_numpy("GPU runner dry run") else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new(&python)
        .arg(root.join("scripts/gpu/run_examples.py"))
        .args([
            "--dry-run",
            "--no-large",
            "--tilec",
            env!("CARGO_BIN_EXE_tilec"),
        ])
        .current_dir(&root)
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "dry run failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    assert!(
        stdout.contains("DRY RUN: everything consistent"),
        "{stdout}"
    );
    assert!(stdout.contains("kernels covered (18)"), "{stdout}");
}

/// A Python to run the comparison scripts with (`TILEC_PYTHON`, else `python3`); `None`
/// after saying SKIPPED when there is none.
fn python(what: &str) -> Option<String> {
    let python = std::env::var("TILEC_PYTHON").unwrap_or_else(|_| "python3".into());
    let found = Command::new(&python)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        eprintln!("\n*** SKIPPED: {what}: {python} not found (set TILEC_PYTHON) ***\n");
    }
    found.then_some(python)
}

/// The standard output of `scripts/gpu/SCRIPT --tilec A --tileiras B`, which must
/// succeed.
fn compare(python: &str, script: &str, a: &Path, b: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new(python)
        .arg(root.join("scripts/gpu").join(script))
        .arg("--tilec")
        .arg(a)
        .arg("--tileiras")
        .arg(b)
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// `scripts/gpu/compare_junit.py` (the side-by-side table of cuTile's test suite run
/// through tilec and through NVIDIA's tileiras): the counts of each run, every test that
/// passes with tileiras only with its failure's first line, and the reverse. Needs
/// Python (`TILEC_PYTHON`, else `python3`); without it the test says SKIPPED.
#[test]
fn junit_comparison_lists_what_tileiras_passes_and_tilec_does_not() {
    let Some(python) = python("JUnit comparison") else {
        return;
    };
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("compare-junit");
    std::fs::create_dir_all(&dir).unwrap();
    let case = |class: &str, name: &str, inner: &str| {
        format!("<testcase classname=\"{class}\" name=\"{name}\">{inner}</testcase>")
    };
    let suite = |cases: &[String]| {
        format!(
            "<?xml version=\"1.0\"?><testsuites><testsuite name=\"pytest\">{}</testsuite></testsuites>",
            cases.concat()
        )
    };
    let ours = suite(&[
        case("test_copy", "test_a", ""),
        case(
            "test_copy",
            "test_b",
            "<failure message=\"AssertionError: 3 | 4 elements differ&#10;more\">trace</failure>",
        ),
        case("test_mma", "test_c", "<skipped message=\"needs sm_100\"/>"),
        case("test_mma", "test_d", ""),
    ]);
    let reference = suite(&[
        case("test_copy", "test_a", ""),
        case("test_copy", "test_b", ""),
        case("test_mma", "test_c", "<skipped message=\"needs sm_100\"/>"),
        case("test_mma", "test_d", "<error message=\"timeout\"/>"),
    ]);
    let (a, b) = (dir.join("tilec.xml"), dir.join("tileiras.xml"));
    std::fs::write(&a, ours).unwrap();
    std::fs::write(&b, reference).unwrap();
    let stdout = compare(&python, "compare_junit.py", &a, &b);
    for line in [
        "| tileiras (NVIDIA) | 4 | 2 | 0 | 1 | 1 |",
        "| tilec | 4 | 2 | 1 | 0 | 1 |",
        "Passing with tileiras, not with tilec: 1",
        "| `test_copy::test_b` | failed | AssertionError: 3 / 4 elements differ |",
        "Passing with tilec, not with tileiras: 1",
        "* `test_mma::test_d` (tileiras: error)",
    ] {
        assert!(
            stdout.lines().any(|l| l == line),
            "no {line:?} in:\n{stdout}"
        );
    }
}

/// `scripts/gpu/compare_bench.py` (cuTile's benchmarks run through tilec and through
/// NVIDIA's tileiras): each benchmark's median both ways and tileiras' over tilec's, the
/// geometric mean of the ratios, and what only one run measured. Needs Python
/// (`TILEC_PYTHON`, else `python3`); without it the test says SKIPPED.
#[test]
fn benchmark_comparison_gives_each_ratio_and_their_mean() {
    let Some(python) = python("benchmark comparison") else {
        return;
    };
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("compare-bench");
    std::fs::create_dir_all(&dir).unwrap();
    let report = |entries: &[(&str, f64)]| {
        let items: Vec<String> = entries
            .iter()
            .map(|(n, m)| {
                format!("{{\"name\": \"{n}\", \"fullname\": \"bench_x.py::{n}\", \"stats\": {{\"median\": {m}, \"mean\": 1.0}}}}")
            })
            .collect();
        format!("{{\"benchmarks\": [{}]}}", items.join(", "))
    };
    let (a, b) = (dir.join("tilec.json"), dir.join("tileiras.json"));
    // tilec: matmul twice as fast, vec_add half as fast; fft only through tilec.
    std::fs::write(
        &a,
        report(&[
            ("bench_matmul", 0.001),
            ("bench_vec_add", 0.004),
            ("bench_fft", 0.5),
        ]),
    )
    .unwrap();
    std::fs::write(
        &b,
        report(&[
            ("bench_matmul", 0.002),
            ("bench_vec_add", 0.002),
            ("bench_moe", 0.3),
        ]),
    )
    .unwrap();
    let stdout = compare(&python, "compare_bench.py", &a, &b);
    for line in [
        "| `bench_x.py::bench_matmul` | 2000.0 | 1000.0 | 2.00x |",
        "| `bench_x.py::bench_vec_add` | 2000.0 | 4000.0 | 0.50x |",
        "Geometric mean of tileiras / tilec over 2 benchmarks: 1.00x",
        "Measured with tilec only: 1",
        "* `bench_x.py::bench_fft`",
        "Measured with tileiras only: 1",
        "* `bench_x.py::bench_moe`",
    ] {
        assert!(
            stdout.lines().any(|l| l == line),
            "no {line:?} in:\n{stdout}"
        );
    }
}

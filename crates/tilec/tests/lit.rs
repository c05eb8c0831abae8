//! NVIDIA's lit tests, run unchanged by real `lit` with tilec standing in for
//! `cuda-tile-opt` and `cuda-tile-translate` (links to this crate's binary), PyPI's
//! `filecheck` as `FileCheck`, and lit's own `not` (tests/lit/lit.cfg.py; docs/lit.md).
//!
//! Needs `../shared` (or `TILEC_SHARED_DIR`) and a Python with `lit` and `filecheck`
//! (`TILEC_PYTHON`, else `python3`); without them the test says SKIPPED. The 13.1 files all
//! pass. Of the 13.3 files, those in tests/lit/passing-13.3.txt must pass (a ratchet: the
//! list grows as tilec implements 13.3, issue 20); the others are reported.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn skipped(why: &str) {
    println!("\n*** SKIPPED: NVIDIA's lit tests: {why} ***\n");
}

fn shared() -> Option<PathBuf> {
    match std::env::var_os("TILEC_SHARED_DIR") {
        Some(d) => Some(PathBuf::from(d)),
        None => Some(repo().join("../shared")),
    }
    .filter(|d| d.join("conformance").is_dir())
}

/// (passed, failed) test names of a lit run over `suite`.
fn run_lit(
    python: &str,
    bin: &Path,
    suite: &Path,
    round_trip: &Path,
) -> (Vec<String>, Vec<String>) {
    let out_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "lit-out-{}",
        suite.file_name().unwrap_or_default().to_string_lossy()
    ));
    let _ = std::fs::remove_dir_all(&out_dir);
    std::fs::create_dir_all(&out_dir).unwrap();
    let out = Command::new(python)
        .args([
            "-c",
            "import sys; from lit.main import main; sys.argv[0] = 'lit'; main()",
            "-v",
            "--no-progress-bar",
        ])
        .arg(repo().join("tests/lit"))
        .env("TILEC_LIT_SUITE", suite)
        .env("TILEC_LIT_BIN", bin)
        .env("TILEC_LIT_OUT", &out_dir)
        .env("TILEC_LIT_ROUND_TRIP", round_trip)
        .output()
        .expect("lit runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let name = |l: &str| {
        l.split(":: ")
            .nth(1)
            .and_then(|r| r.split(" (").next())
            .unwrap_or("")
            .to_string()
    };
    let passed = text
        .lines()
        .filter(|l| l.starts_with("PASS: "))
        .map(name)
        .collect();
    let failed = text
        .lines()
        .filter(|l| l.starts_with("FAIL: "))
        .map(name)
        .collect();
    (passed, failed)
}

#[test]
fn nvidia_lit_tests_run_unchanged() {
    let Some(shared) = shared() else {
        return skipped("../shared/conformance not found (set TILEC_SHARED_DIR)");
    };
    let python = std::env::var("TILEC_PYTHON").unwrap_or_else(|_| "python3".into());
    let has = |module: &str| {
        Command::new(&python)
            .args(["-c", &format!("import {module}")])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !has("lit") || !has("filecheck") {
        return skipped(&format!(
            "{python} cannot import lit and filecheck (pip install lit filecheck; TILEC_PYTHON)"
        ));
    }
    // filecheck's console script sits beside the interpreter that has the package.
    let script = Command::new(&python)
        .args([
            "-c",
            "import sys, os; print(os.path.dirname(sys.executable))",
        ])
        .output()
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()).join("filecheck"))
        .ok()
        .filter(|p| p.is_file());
    let Some(filecheck) = script else {
        return skipped("no `filecheck` script beside the Python interpreter");
    };
    let bin = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("lit-bin");
    let _ = std::fs::remove_dir_all(&bin);
    std::fs::create_dir_all(&bin).unwrap();
    let tilec = PathBuf::from(env!("CARGO_BIN_EXE_tilec"));
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&tilec, bin.join("cuda-tile-opt")).unwrap();
        std::os::unix::fs::symlink(&tilec, bin.join("cuda-tile-translate")).unwrap();
        std::os::unix::fs::symlink(&filecheck, bin.join("FileCheck")).unwrap();
    }
    let v13_3 = shared.join("conformance/cuda-tile-13.3/test");
    let round_trip = v13_3.join("Dialect/CudaTile/round_trip_test.sh");

    let (pass, fail) = run_lit(
        &python,
        &bin,
        &shared.join("conformance/cuda-tile-13.1"),
        &round_trip,
    );
    println!(
        "13.1: {} of {} lit files pass",
        pass.len(),
        pass.len() + fail.len()
    );
    assert!(!pass.is_empty(), "lit found no 13.1 tests");
    assert!(fail.is_empty(), "13.1 lit files fail: {fail:?}");

    if !v13_3.is_dir() {
        return skipped("the 13.3 suite is not in ../shared");
    }
    let (pass, fail) = run_lit(&python, &bin, &v13_3, &round_trip);
    let total = pass.len() + fail.len();
    println!(
        "13.3: {} of {total} lit files pass ({:.0}%)",
        pass.len(),
        100.0 * pass.len() as f64 / total.max(1) as f64
    );
    let list = std::fs::read_to_string(repo().join("tests/lit/passing-13.3.txt")).unwrap();
    let must: Vec<&str> = list
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let regressed: Vec<&&str> = must
        .iter()
        .filter(|f| !pass.iter().any(|p| p == **f))
        .collect();
    let newly: Vec<&String> = pass
        .iter()
        .filter(|p| !must.contains(&p.as_str()))
        .collect();
    if !newly.is_empty() {
        println!("newly passing (add them to tests/lit/passing-13.3.txt): {newly:?}");
    }
    println!("still failing: {fail:?}");
    assert!(
        regressed.is_empty(),
        "13.3 lit files that passed now fail: {regressed:?}"
    );
}

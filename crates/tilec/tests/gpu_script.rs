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

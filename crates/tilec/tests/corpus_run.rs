//! `tilec run` on the cuTile corpus (tests/corpus/cutile) against NumPy references:
//! `scripts/cutile_corpus/check_run.py` builds each kernel's inputs, runs the interpreter
//! with `--save-args`, and compares every buffer with its reference (outputs) or its input
//! (everything else). Corpus kernels without a reference yet are listed in the script's
//! `NO_REFERENCE` and printed. Needs Python with NumPy (`TILEC_PYTHON`, else `python3`);
//! without it the test says SKIPPED.

mod common;

use std::path::Path;
use std::process::Command;

/// The kernels with a NumPy reference: at least the ones using Tile IR 13.3's features.
const CHECKED: [&str; 12] = [
    "tile_atomic_accumulate",
    "array_atomic_add_unused",
    "sliding_window_sum",
    "advanced_index_rows",
    "gather_scatter_u32",
    "pack_unpack_bytes",
    "unsigned_arith_u32",
    "atan2_cumprod",
    "argmax_argmin_cols",
    "mma_scaled_f8",
    "mma_scaled_f4",
    "flash_attention",
];

#[test]
fn corpus_kernels_run_as_numpy_computes() {
    let Some(python) = common::python_with_numpy("cuTile corpus against NumPy") else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new(&python)
        .arg(root.join("scripts/cutile_corpus/check_run.py"))
        .args(["--tilec", env!("CARGO_BIN_EXE_tilec")])
        .current_dir(&root)
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "check_run.py failed:\n{stdout}\n{stderr}"
    );
    for k in CHECKED {
        let line = format!("{{\"kernel\": \"{k}\", \"ok\": true, ");
        assert!(stdout.contains(&line), "{k} not checked:\n{stdout}");
    }
    let summary = stdout.lines().last().unwrap_or("");
    assert!(
        summary.starts_with("{\"summary\": {\"checked\": ") && summary.contains("\"failed\": 0, "),
        "{summary}"
    );
}

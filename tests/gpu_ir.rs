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

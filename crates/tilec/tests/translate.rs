//! tilec as `cuda-tile-translate` (a link of that name): the testing bytecode versions
//! 250.0 and 250.1 of NVIDIA's test builds, their `testing$bytecode_test_*` ops, and
//! `--list-versions`. Exact outputs and messages.

use std::path::PathBuf;
use std::process::Command;

/// A `cuda-tile-translate` link to this crate's binary, in a fresh temporary folder.
fn translate() -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "tilec-translate-test-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let link = dir.join("cuda-tile-translate");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_tilec"), &link).unwrap();
    link
}

/// Runs `cuda-tile-translate ARGS` on `input` (written to a file); (status, stdout, stderr).
fn run(args: &[&str], input: &str) -> (i32, String, String) {
    let bin = translate();
    let file = bin.with_file_name("input.mlir");
    std::fs::write(&file, input).unwrap();
    let out = Command::new(&bin)
        .args(args)
        .arg(&file)
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).replace(file.to_str().unwrap(), "input.mlir"),
    )
}

const INPUT: &str = r#"cuda_tile.module @v {
  entry @e() {
    %input = constant <f32: [1.0, 2.0]> : !cuda_tile.tile<2xf32>
    %token_in = make_token : !cuda_tile.token
    %t = testing$bytecode_test_evolution (%input : !cuda_tile.tile<2xf32>) new_attr = 7 token = %token_in : !cuda_tile.token -> !cuda_tile.token
    testing$bytecode_test_new_attribute new_flag new_param = 123
    return
  }
}
"#;

#[test]
fn list_versions_names_releases_then_testing_versions() {
    let out = Command::new(translate())
        .arg("--list-versions")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "13.1\n13.2\n13.3\n250.0\n250.1\n"
    );
}

#[test]
fn testing_version_250_1_keeps_every_field() {
    let (status, out, err) = run(
        &[
            "-test-cudatile-roundtrip",
            "-no-implicit-module",
            "-bytecode-version=250.1",
        ],
        INPUT,
    );
    assert_eq!(status, 0, "{err}");
    assert_eq!(
        out,
        r#"cuda_tile.module @kernels {
  entry @e() {
    %cst_f32 = constant <f32: [1.000000e+00, 2.000000e+00]> : tile<2xf32>
    %0 = make_token : token
    %1 = testing$bytecode_test_evolution(%cst_f32 : !cuda_tile.tile<2xf32>) new_attr = 7 token = %0 : token -> token
    testing$bytecode_test_new_attribute new_flag new_param = 123
    return
  }
}
"#
    );
}

#[test]
fn testing_version_250_0_refuses_250_1_fields_and_drops_defaults() {
    let (status, _, err) = run(
        &[
            "-test-cudatile-roundtrip",
            "-no-implicit-module",
            "-bytecode-version=250.0",
        ],
        INPUT,
    );
    assert_eq!(status, 1);
    assert!(
        err.starts_with(
            "input.mlir:5:10: error: attribute 'new_attr' requires bytecode version 250.1+\n"
        ),
        "{err}"
    );
    // new_param at its default (42) is not encoded before 250.1, and reads back as absent.
    let (status, out, err) = run(
        &[
            "-test-cudatile-roundtrip",
            "-no-implicit-module",
            "-bytecode-version=250.0",
        ],
        "cuda_tile.module @v {\n  entry @e() {\n    testing$bytecode_test_new_attribute new_param = 42\n    return\n  }\n}\n",
    );
    assert_eq!(status, 0, "{err}");
    assert!(
        out.contains("    testing$bytecode_test_new_attribute\n"),
        "{out}"
    );
    let (status, _, err) = run(
        &[
            "-test-cudatile-roundtrip",
            "-no-implicit-module",
            "-bytecode-version=250.0",
        ],
        "cuda_tile.module @v {\n  entry @e() {\n    testing$bytecode_test_new_attribute new_param = 43\n    return\n  }\n}\n",
    );
    assert_eq!(status, 1);
    assert!(
        err.contains("error: attribute 'new_param' requires bytecode version 250.1+"),
        "{err}"
    );
}

#[test]
fn release_versions_refuse_the_testing_ops() {
    let (status, _, err) = run(
        &[
            "-mlir-to-cudatilebc",
            "-no-implicit-module",
            "-bytecode-version=13.3",
            "-o",
            "-",
        ],
        INPUT,
    );
    assert_eq!(status, 1);
    assert!(
        err.contains("error: 'cuda_tile.testing$bytecode_test_evolution' is not available in bytecode version 13.3 (it needs 250.0)"),
        "{err}"
    );
    let (status, _, err) = run(&["-mlir-to-cudatilebc", "-bytecode-version=9.9"], INPUT);
    assert_eq!(status, 1);
    assert_eq!(
        err,
        "cuda-tile-translate: for the --bytecode-version option: Invalid argument '9.9': the supported versions are [13.1 - 13.3]\n"
    );
}

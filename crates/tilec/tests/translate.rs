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

/// The rest of NVIDIA's testing records: the `priority` enum attribute (250.0, its case
/// `high` 250.1), the `test_attr` attribute `#cuda_tile.bytecode_test_value` (250.1) and
/// the type `testing$bytecode_test_evolved` (parameters after the first: 250.1).
#[test]
fn testing_attributes_and_type() {
    let src = r#"cuda_tile.module @v {
  testing$func @f(%e: !cuda_tile.testing$bytecode_test_evolved<i8, i64, #cuda_tile.padding_value<nan>, f16>, %g: !cuda_tile.testing$bytecode_test_evolved<f32, i32>) {
    %c = constant <f32: [1.0, 2.0]> : !cuda_tile.tile<2xf32>
    %t = testing$bytecode_test_evolution (%c : !cuda_tile.tile<2xf32>) priority = <high> test_attr = <-5> -> !cuda_tile.token
    %u = testing$bytecode_test_evolution (%c : !cuda_tile.tile<2xf32>) priority = <low> -> !cuda_tile.token
    return
  }
}
"#;
    let (status, out, err) = run(
        &[
            "-test-cudatile-roundtrip",
            "-no-implicit-module",
            "-bytecode-version=250.1",
        ],
        src,
    );
    assert_eq!(status, 0, "{err}");
    assert_eq!(
        out,
        r#"cuda_tile.module @kernels {
  testing$func @f(%arg0: testing$bytecode_test_evolved<i8, i64, #cuda_tile.padding_value<nan>, f16>, %arg1: testing$bytecode_test_evolved<f32>) {
    %cst_f32 = constant <f32: [1.000000e+00, 2.000000e+00]> : tile<2xf32>
    %0 = testing$bytecode_test_evolution(%cst_f32 : !cuda_tile.tile<2xf32>) priority = <high> test_attr = <-5> -> token
    %1 = testing$bytecode_test_evolution(%cst_f32 : !cuda_tile.tile<2xf32>) priority = <low> -> token
    return
  }
}
"#
    );
    let refused = |text: &str, want: &str| {
        let (status, _, err) = run(
            &[
                "-test-cudatile-roundtrip",
                "-no-implicit-module",
                "-bytecode-version=250.0",
            ],
            text,
        );
        assert_eq!(status, 1);
        assert!(err.contains(want), "{err}");
    };
    refused(
        src,
        "the parameters newType, optionalAttr and optionalType of type 'BytecodeTestEvolvedType' require bytecode version 250.1+, targeting 250.0",
    );
    let op = |attrs: &str| {
        format!(
            "cuda_tile.module @v {{\n  testing$func @f() {{\n    %c = constant <f32: [1.0, 2.0]> : !cuda_tile.tile<2xf32>\n    %t = testing$bytecode_test_evolution (%c : !cuda_tile.tile<2xf32>) {attrs} -> !cuda_tile.token\n    return\n  }}\n}}\n"
        )
    };
    refused(
        &op("test_attr = <1>"),
        "attribute 'test_attr' requires bytecode version 250.1+",
    );
    refused(
        &op("priority = <high>"),
        "enum case 'high' of attribute 'priority' requires bytecode version 250.1+, targeting 250.0",
    );
    // 250.0 keeps the base type and the 250.0 priorities.
    let (status, out, err) = run(
        &[
            "-test-cudatile-roundtrip",
            "-no-implicit-module",
            "-bytecode-version=250.0",
        ],
        "cuda_tile.module @v {\n  testing$func @f(%g: !cuda_tile.testing$bytecode_test_evolved<f32>) {\n    %c = constant <f32: [1.0, 2.0]> : !cuda_tile.tile<2xf32>\n    %t = testing$bytecode_test_evolution (%c : !cuda_tile.tile<2xf32>) priority = <normal> -> !cuda_tile.token\n    return\n  }\n}\n",
    );
    assert_eq!(status, 0, "{err}");
    assert!(
        out.contains("testing$func @f(%arg0: testing$bytecode_test_evolved<f32>)"),
        "{out}"
    );
    assert!(out.contains("priority = <normal> -> token"), "{out}");
}

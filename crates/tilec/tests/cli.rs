//! The `tilec` binary as users run it: arguments, streams, files and exit statuses
//! (0 success, 1 diagnostics, 2 usage or internal errors).

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn tilec(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tilec"))
        .args(args)
        .current_dir(repo())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tilec runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin)
        .expect("write stdin");
    child.wait_with_output().expect("tilec finishes")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tilec-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

const KERNEL: &str = "cuda_tile.module @m {\n  entry @k(%a: tile<f32>) {\n    %0 = addf %a, %a : tile<f32>\n    return\n  }\n}\n";

const CANONICAL: &str = "cuda_tile.module @m {\n  entry @k(%arg0: tile<f32>) {\n    %0 = addf %arg0, %arg0  : tile<f32>\n    return\n  }\n}\n";

#[test]
fn fmt_reads_stdin_and_writes_stdout() {
    let out = tilec(&["fmt", "-"], KERNEL.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), CANONICAL);
    assert!(out.stderr.is_empty());
    let dash = tilec(&["fmt", "-", "-o", "-"], KERNEL.as_bytes());
    assert_eq!(text(&dash.stdout), CANONICAL);
}

#[test]
fn fmt_writes_files() {
    let input = temp("in.tile");
    let output = temp("out.tile");
    std::fs::write(&input, KERNEL).expect("write input");
    let out = tilec(
        &[
            "fmt",
            input.to_str().expect("utf-8"),
            "-o",
            output.to_str().expect("utf-8"),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty());
    assert_eq!(std::fs::read_to_string(&output).expect("output"), CANONICAL);
}

#[test]
fn fmt_generic_form() {
    let out = tilec(&["fmt", "--generic", "-"], KERNEL.as_bytes());
    assert_eq!(out.status.code(), Some(0));
    let s = text(&out.stdout);
    assert!(
        s.starts_with("\"cuda_tile.module\"() <{sym_name = \"m\"}> ({\n"),
        "{s}"
    );
    assert!(
        s.contains("%0 = \"cuda_tile.addf\"(%arg0, %arg0) <{"),
        "{s}"
    );
    assert!(
        s.contains(": (!cuda_tile.tile<f32>, !cuda_tile.tile<f32>) -> !cuda_tile.tile<f32>\n"),
        "{s}"
    );
    // And it parses back to the canonical form.
    let back = tilec(&["fmt", "-"], s.as_bytes());
    assert_eq!(text(&back.stdout), CANONICAL);
}

#[test]
fn diagnostics_exit_1_with_file_line_and_column() {
    let bad = "cuda_tile.module @m {\n  entry @k() {\n    %0 = addf %x, %x : tile<f32>\n  }\n}\n";
    let out = tilec(&["check", "--diagnostic-format=mlir", "-"], bad.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "<stdin>:3:15: error: use of undeclared SSA value name\n    %0 = addf %x, %x : tile<f32>\n              ^\n"
    );
}

#[test]
fn json_diagnostics_go_to_stdout_one_object_per_line() {
    let bad = "%0 = constant <i8: 300> : tile<i8>\n%1 = bogus\n";
    let out = tilec(
        &[
            "check",
            "--diagnostic-format=json",
            "--split-input-file",
            "-",
        ],
        bad.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<String> = text(&out.stdout).lines().map(str::to_string).collect();
    assert_eq!(
        lines,
        [
            "{\"severity\":\"error\",\"code\":\"E0114\",\"message\":\"integer constant out of range for type\",\"file\":\"<stdin>\",\"line\":1,\"column\":20,\"end_line\":1,\"end_column\":23,\"notes\":[]}"
        ],
        "parsing stops at the first error of a chunk"
    );
}

#[test]
fn split_input_file_reports_every_chunk_with_whole_file_lines() {
    let src = "%0 = constant <i8: 300> : tile<i8>\n// -----\n%1 = addf %y, %y : tile<f32>\n// -----\n%2 = constant <i8: 1> : tile<i8>\n";
    let out = tilec(
        &[
            "check",
            "--split-input-file",
            "--diagnostic-format=mlir",
            "-",
        ],
        src.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1));
    let errors: Vec<String> = text(&out.stderr)
        .lines()
        .filter(|l| l.contains(": error: "))
        .map(str::to_string)
        .collect();
    assert_eq!(
        errors,
        [
            "<stdin>:1:20: error: integer constant out of range for type",
            "<stdin>:3:11: error: use of undeclared SSA value name",
        ]
    );
}

#[test]
fn check_accepts_several_files() {
    let out = tilec(&["check", "examples/relu.tile", "examples/saxpy.tile"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
}

#[test]
fn compile_says_ptx_is_not_implemented_yet() {
    let output = temp("k.ptx");
    let out = tilec(
        &[
            "examples/vector_add.tile",
            "-o",
            output.to_str().expect("utf-8"),
            "--diagnostic-format=mlir",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.starts_with(
            "examples/vector_add.tile:18:3: error: PTX emission is not implemented yet\n"
        ),
        "{err}"
    );
    assert!(!output.exists());
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["fmt"][..],
        &["fmt", "--bogus", "x"][..],
        &["check", "/nonexistent/input.tile"][..],
        &["--diagnostic-format=xml", "check", "-"][..],
    ] {
        let out = tilec(args, b"");
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn invalid_utf8_is_a_located_diagnostic() {
    let out = tilec(&["check", "--diagnostic-format=mlir", "-"], b"%0 = \xff\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("<stdin>:1:6: error: input is not valid UTF-8\n"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn help_version_explain_and_ops() {
    let v = tilec(&["--version"], b"");
    assert_eq!(v.status.code(), Some(0));
    assert_eq!(
        text(&v.stdout),
        format!("tilec {}\n", env!("CARGO_PKG_VERSION"))
    );
    let h = tilec(&["--help"], b"");
    assert_eq!(h.status.code(), Some(0));
    assert!(text(&h.stdout).contains("fmt"));
    let e = tilec(&["explain", "E0104"], b"");
    assert_eq!(e.status.code(), Some(0));
    assert!(text(&e.stdout).starts_with("E0104: use of undeclared SSA value\n"));
    let unknown = tilec(&["explain", "E9999"], b"");
    assert_eq!(unknown.status.code(), Some(2));
    let ops = tilec(&["ops"], b"");
    assert_eq!(ops.status.code(), Some(0));
    let listing = text(&ops.stdout);
    for op in [
        "cuda_tile.mmaf ",
        "cuda_tile.negsi ",
        "cuda_tile.testing$func ",
    ] {
        assert!(listing.contains(op), "`tilec ops` does not list {op}");
    }
}

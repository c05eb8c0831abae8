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
    // A command that fails on its arguments may exit before reading stdin; the
    // closed pipe is then expected, and the exit status is what the test checks.
    if let Err(e) = child.stdin.take().expect("stdin").write_all(stdin) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
    }
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

/// `KERNEL` as `tilec fmt` writes it: the author's value names.
const AS_WRITTEN: &str = "cuda_tile.module @m {\n  entry @k(%a: tile<f32>) {\n    %0 = addf %a, %a  : tile<f32>\n    return\n  }\n}\n";

#[test]
fn fmt_reads_stdin_and_writes_stdout() {
    let out = tilec(&["fmt", "-"], KERNEL.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), AS_WRITTEN);
    assert!(out.stderr.is_empty());
    let dash = tilec(&["fmt", "-", "-o", "-"], KERNEL.as_bytes());
    assert_eq!(text(&dash.stdout), AS_WRITTEN);
    // `opt` without passes prints NVIDIA's canonical form.
    let opt = tilec(&["opt", "-"], KERNEL.as_bytes());
    assert_eq!(text(&opt.stdout), CANONICAL);
}

/// `tilec fmt` keeps the author's comments (on lines of their own, after an op, before a
/// closing brace, before the module and at the end) and value names, and its output is a
/// fixed point; `tilec opt` drops both, as cuda-tile-opt does.
#[test]
fn fmt_keeps_comments_and_names() {
    let src = "// header\n\ncuda_tile.module @m {\n  // before the entry\n  entry @k(%x_ptr: tile<ptr<f32>>, %n: tile<i32>) {   // after the signature\n    %tok = make_token : token  // a token\n    // the value\n    %v, %t = load_ptr_tko weak %x_ptr token=%tok : tile<ptr<f32>> -> tile<f32>, token\n    %sum = addf %v, %v : tile<f32>\n    %done = store_ptr_tko weak %x_ptr, %sum token=%t : tile<ptr<f32>>, tile<f32> -> token\n    // at the end of the body\n  }\n}\n// trailer\n";
    let want = "// header\ncuda_tile.module @m {\n  // before the entry\n  // after the signature\n  entry @k(%x_ptr: tile<ptr<f32>>, %n: tile<i32>) {\n    %tok = make_token : token  // a token\n    // the value\n    %v, %t = load_ptr_tko weak %x_ptr token=%tok : tile<ptr<f32>> -> tile<f32>, token\n    %sum = addf %v, %v  : tile<f32>\n    %done = store_ptr_tko weak %x_ptr, %sum token=%t : tile<ptr<f32>>, tile<f32> -> token\n    return\n    // at the end of the body\n  }\n}\n// trailer\n";
    let out = tilec(&["fmt", "-"], src.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), want);
    let again = tilec(&["fmt", "-"], out.stdout.as_slice());
    assert_eq!(text(&again.stdout), want);
    let opt = text(&tilec(&["opt", "-"], src.as_bytes()).stdout);
    assert!(
        !opt.contains("//") && opt.contains("%arg0") && !opt.contains("%x_ptr"),
        "{opt}"
    );
    // A name the printer generates never clashes with the author's.
    let clash = "cuda_tile.module @m {\n  entry @k(%a: tile<i32>) {\n    %cst_1_i32 = addi %a, %a : tile<i32>\n    %c = constant <i32: 1> : tile<i32>\n    %d = addi %cst_1_i32, %c : tile<i32>\n    return\n  }\n}\n";
    let out = text(&tilec(&["fmt", "-"], clash.as_bytes()).stdout);
    assert!(
        out.contains("%cst_1_i32 = addi %a, %a") && out.contains("%c = constant <i32: 1>"),
        "{out}"
    );
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
    assert_eq!(
        std::fs::read_to_string(&output).expect("output"),
        AS_WRITTEN
    );
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
    // The author's names stay (`tilec opt --generic` gives NVIDIA's `%arg0`).
    assert!(s.contains("%0 = \"cuda_tile.addf\"(%a, %a) <{"), "{s}");
    assert!(
        s.contains(": (!cuda_tile.tile<f32>, !cuda_tile.tile<f32>) -> !cuda_tile.tile<f32>\n"),
        "{s}"
    );
    // And it parses back to the canonical form.
    let back = tilec(&["opt", "-"], s.as_bytes());
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
            "{\"severity\":\"error\",\"code\":\"E0114\",\"message\":\"integer constant out of range for type\",\"file\":\"<stdin>\",\"line\":1,\"column\":20,\"end_line\":1,\"end_column\":23,\"labels\":[],\"notes\":[]}"
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
    assert!(out.stdout.is_empty());
    // Several files end with a summary line on stderr.
    assert_eq!(
        text(&out.stderr),
        "tilec check: 2 files, 2 clean, 0 with errors (0 errors)\n"
    );
    let bad = temp("bad_check.tile");
    std::fs::write(
        &bad,
        "cuda_tile.module @m {\n  entry @k() {\n    %x = addf\n  }\n}\n",
    )
    .unwrap();
    let out = tilec(
        &[
            "check",
            "examples/relu.tile",
            bad.to_str().unwrap(),
            "nonexistent.tile",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr)
            .ends_with("tilec check: 3 files, 1 clean, 1 with errors (1 error), 1 unreadable\n"),
        "{}",
        text(&out.stderr)
    );
}

/// The output is never written over the input, whatever path names it (the same path, a
/// symbolic link, a hard link): exit 2, the source unchanged (issue 19).
#[test]
fn output_over_the_input_is_refused() {
    let src = temp("own.tile");
    std::fs::copy(repo().join("examples/vector_add.tile"), &src).unwrap();
    let before = std::fs::read(&src).unwrap();
    let link = temp("own_link.tile");
    let hard = temp("own_hard.tile");
    let _ = std::fs::remove_file(&link);
    let _ = std::fs::remove_file(&hard);
    #[cfg(unix)]
    std::os::unix::fs::symlink(&src, &link).unwrap();
    std::fs::hard_link(&src, &hard).unwrap();
    let s = src.to_str().unwrap();
    for (cmd, out) in [
        (vec![s, "-o", s], s),
        (
            vec![s, "-o", link.to_str().unwrap()],
            link.to_str().unwrap(),
        ),
        (vec!["fmt", hard.to_str().unwrap(), "-o", s], s),
        (
            vec![s, "--emit=bytecode", "-o", hard.to_str().unwrap()],
            hard.to_str().unwrap(),
        ),
    ] {
        let r = tilec(&cmd, b"");
        assert_eq!(r.status.code(), Some(2), "{cmd:?}");
        assert!(
            text(&r.stderr).contains(&format!("the output '{out}' is the input file")),
            "{cmd:?}: {}",
            text(&r.stderr)
        );
        assert_eq!(
            std::fs::read(&src).unwrap(),
            before,
            "{cmd:?} changed the source"
        );
    }
}

/// A failed write to standard output is exit 2 with a message, for every command that
/// writes there (issue 19: `tilec va.tile -o - > /dev/full` exited 0).
#[cfg(target_os = "linux")]
#[test]
fn write_errors_on_stdout_are_reported() {
    for args in [
        vec!["examples/vector_add.tile", "-o", "-"],
        vec!["examples/vector_add.tile", "--emit=bytecode", "-o", "-"],
        vec!["fmt", "examples/vector_add.tile"],
        vec!["ops"],
        vec!["explain", "E0102"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_tilec"))
            .args(&args)
            .current_dir(repo())
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains("cannot write to standard output: No space left on device"),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

/// Writing over an existing file keeps its permissions, and through a symbolic link
/// replaces the link's target (written beside it and renamed, so a failed write leaves the
/// old contents) and keeps the link.
#[cfg(unix)]
#[test]
fn output_keeps_the_mode_and_follows_links() {
    use std::os::unix::fs::PermissionsExt;
    let out = temp("mode.ptx");
    std::fs::write(&out, "old").unwrap();
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o600)).unwrap();
    let r = tilec(&["examples/relu.tile", "-o", out.to_str().unwrap()], b"");
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    let meta = std::fs::metadata(&out).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    assert!(std::fs::read_to_string(&out).unwrap().contains(".entry"));
    let target = temp("target.ptx");
    let link = temp("link.ptx");
    std::fs::write(&target, "old").unwrap();
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).unwrap();
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let r = tilec(&["examples/relu.tile", "-o", link.to_str().unwrap()], b"");
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(std::fs::read_to_string(&target).unwrap().contains(".entry"));
    assert_eq!(
        std::fs::metadata(&target).unwrap().permissions().mode() & 0o777,
        0o640
    );
}

/// `\n`, `\r\n` and lone `\r` line endings read alike: a `//` comment ends at any of them
/// (a CR-only file used to be one comment: no `.entry`, exit 0), and diagnostics count
/// lines the same way.
#[test]
fn every_line_ending_reads_alike() {
    let src = std::fs::read_to_string(repo().join("examples/vector_add.tile")).unwrap();
    let mut outputs = Vec::new();
    for (name, text_) in [
        ("lf.tile", src.clone()),
        ("crlf.tile", src.replace('\n', "\r\n")),
        ("cr.tile", src.replace('\n', "\r")),
    ] {
        let p = temp(name);
        std::fs::write(&p, text_).unwrap();
        let ptx = tilec(&[p.to_str().unwrap(), "-o", "-"], b"");
        assert_eq!(ptx.status.code(), Some(0), "{name}: {}", text(&ptx.stderr));
        assert_eq!(text(&ptx.stdout).matches(".entry").count(), 1, "{name}");
        let fmt = tilec(&["fmt", p.to_str().unwrap()], b"");
        outputs.push(text(&fmt.stdout));
    }
    assert!(outputs.iter().all(|o| o == &outputs[0] && !o.is_empty()));
    let bad = "cuda_tile.module @m {\r  entry @e() {\r    %x = addf\r  }\r}\r";
    let out = tilec(&["check", "-", "--diagnostic-format=mlir"], bad.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("<stdin>:3:14: error: expected SSA operand"),
        "{}",
        text(&out.stderr)
    );
}

/// A compile with no `entry` to lower is an error at the module, not an empty PTX file.
#[test]
fn compiling_nothing_is_an_error() {
    for src in ["", "cuda_tile.module @m {\n}\n"] {
        let out = tilec(&["-", "-o", "-"], src.as_bytes());
        assert_eq!(out.status.code(), Some(1), "{src:?}");
        assert!(out.stdout.is_empty());
        assert!(
            text(&out.stderr).contains("E0901")
                && text(&out.stderr).contains("no `entry` to compile"),
            "{}",
            text(&out.stderr)
        );
    }
}

/// `tilec run` says what it ran on stderr: the entry, the grid (and that none was given),
/// the time and the files `--save-args` wrote.
#[test]
fn run_prints_a_summary() {
    let k = "cuda_tile.module @m {\n  entry @e() {\n    return\n  }\n}\n";
    let out = tilec(&["run", "-"], k.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.starts_with("tilec run: @e on grid 1x1x1 (1 tile block; no --grid given) in "),
        "{err}"
    );
    let dir = temp("saved");
    let out = tilec(
        &[
            "run",
            "examples/relu.tile",
            "--grid",
            "2",
            "--arg",
            "random:f32:2000:1",
            "--arg",
            "i32:2000",
            "--arg",
            "i32:1",
            "--arg",
            "zeros:f32:2000",
            "--arg",
            "i32:2000",
            "--arg",
            "i32:1",
            "--save-args",
            dir.to_str().unwrap(),
        ],
        b"",
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.starts_with("tilec run: @relu on grid 2x1x1 (2 tile blocks) in "),
        "{err}"
    );
    assert!(
        err.trim_end()
            .ends_with(&format!("; wrote arg0.npy, arg3.npy to {}", dir.display())),
        "{err}"
    );
}

#[test]
fn compile_writes_ptx() {
    let output = temp("k.ptx");
    let out = tilec(
        &[
            "examples/vector_add.tile",
            "-o",
            output.to_str().expect("utf-8"),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let ptx = std::fs::read_to_string(&output).expect("PTX written");
    assert!(
        ptx.contains(".version 7.0\n.target sm_80\n.address_size 64\n"),
        "{ptx}"
    );
    assert!(ptx.contains(".visible .entry vector_add("), "{ptx}");
    assert!(ptx.contains(".reqntid 128, 1, 1"), "{ptx}");
    let out = tilec(
        &[
            "examples/vector_add.tile",
            "--arch",
            "sm_90",
            "--num-warps",
            "8",
            "-o",
            "-",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains(".target sm_90\n"));
    assert!(text(&out.stdout).contains(".reqntid 256, 1, 1"));
    for bad in [&["--arch", "sm_70"][..], &["--num-warps", "3"][..]] {
        let mut args = vec!["examples/vector_add.tile", "-o", "-"];
        args.extend_from_slice(bad);
        let out = tilec(&args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn compile_line_info_maps_back_to_the_source() {
    let out = tilec(&["examples/relu.tile", "-g", "-o", "-"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let ptx = text(&out.stdout);
    assert!(ptx.contains(".file 1 \"examples/relu.tile\"\n"), "{ptx}");
    assert!(
        ptx.lines().any(|l| l.trim_start().starts_with(".loc 1 ")),
        "{ptx}"
    );
}

/// Debug-info locations (`di_loc`, as cuTile writes them into bytecode) name their own
/// source file: `-g` gives it a `.file` of its own (under its `di_file`'s directory) and
/// the `.loc` lines point there, for text and bytecode input alike.
#[test]
fn compile_line_info_follows_debug_info_locations() {
    let src = r#"#di_file = #cuda_tile.di_file<"kernel.py" in "/src">
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 3, name = "k", linkageName = "k", compileUnit = #di_compile_unit, scopeLine = 3>
cuda_tile.module @m {
  entry @k(%p: !cuda_tile.tile<ptr<f32>>) {
    %c = constant <f32: 1.0> : tile<f32> loc(#cuda_tile.di_loc<loc("kernel.py":7:9) in #di_subprogram>)
    %t = store_ptr_tko weak %p, %c : tile<ptr<f32>>, tile<f32> -> token loc(#cuda_tile.di_loc<loc("kernel.py":8:5) in #di_subprogram>)
    return loc(#cuda_tile.di_loc<loc("other.py":2:1) in #di_subprogram>)
  } loc(#cuda_tile.di_loc<loc("kernel.py":3:1) in #di_subprogram>)
}
"#;
    let dir = std::env::temp_dir().join(format!("tilec-cli-dbg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bc = dir.join("k.tileirbc");
    let bc = bc.to_str().unwrap();
    let out = tilec(&["-", "--emit=bytecode", "-o", bc], src.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    for input in ["-", bc] {
        let out = tilec(&[input, "-g", "-O0", "-o", "-"], src.as_bytes());
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let ptx = text(&out.stdout);
        assert!(
            ptx.contains(".file 2 \"/src/kernel.py\"\n"),
            "{input}: {ptx}"
        );
        assert!(ptx.contains(".file 3 \"other.py\"\n"), "{input}: {ptx}");
        assert!(ptx.contains(".loc 2 8 5\n"), "{input}: {ptx}");
        assert!(ptx.contains(".loc 3 2 1\n"), "{input}: {ptx}");
    }
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

const TWO_BROKEN: &str =
    "%a = constant <i32: 1> : tile<i32>\n%0 = exp %a : tile<i32>\n%1 = log %a : tile<i32>\n";

#[test]
fn check_reports_every_broken_op_and_limits_with_max_errors() {
    let out = tilec(
        &["check", "-", "--diagnostic-format=mlir"],
        TWO_BROKEN.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert_eq!(err.matches(": error: ").count(), 2, "{err}");
    assert!(err.contains("<stdin>:2:6: error: 'cuda_tile.exp' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'"), "{err}");
    assert!(
        err.contains("<stdin>:3:6: error: 'cuda_tile.log' op operand #0"),
        "{err}"
    );
    let out = tilec(
        &[
            "check",
            "-",
            "--diagnostic-format=mlir",
            "--max-errors",
            "1",
        ],
        TWO_BROKEN.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert_eq!(err.matches(": error: ").count(), 1, "{err}");
    assert!(
        err.contains("tilec: 1 more error(s) not shown (--max-errors 1)"),
        "{err}"
    );
}

const EMPTY_THEN: &str = "%c = constant <i1: true> : tile<i1>\n\"cuda_tile.if\"(%c) ({\n^bb0:\n}, {\n}) : (!cuda_tile.tile<i1>) -> ()\n";

#[test]
fn compat_selects_nvidia_wording_and_cuda_tile_opt_options() {
    let spec = tilec(
        &["check", "-", "--diagnostic-format=mlir"],
        EMPTY_THEN.as_bytes(),
    );
    assert!(
        text(&spec.stderr)
            .contains("<stdin>:2:1: error: 'cuda_tile.if' op expect non-empty block\n"),
        "{}",
        text(&spec.stderr)
    );
    // One-dash MLIR options are accepted too.
    let nv = tilec(
        &[
            "check",
            "-",
            "--diagnostic-format=mlir",
            "--compat=cuda-tile-opt",
            "-allow-unregistered-dialect",
        ],
        EMPTY_THEN.as_bytes(),
    );
    assert_eq!(nv.status.code(), Some(1));
    assert!(
        text(&nv.stderr)
            .contains("<stdin>:2:1: error: empty block: expect at least a terminator\n"),
        "{}",
        text(&nv.stderr)
    );
}

#[test]
fn verify_diagnostics_matches_expected_comments() {
    let good = "%a = constant <i32: 1> : tile<i32>\n// expected-error @below {{must be tile of f16 or bf16 or f32 or f64 values}}\n%0 = exp %a : tile<i32>\n// -----\n// expected-error @+1 {{empty block}}\n\"cuda_tile.if\"() ({^bb0:\n}, {}) : () -> ()\n";
    let out = tilec(
        &[
            "check",
            "-",
            "--compat=cuda-tile-opt",
            "-verify-diagnostics",
            "-split-input-file",
        ],
        good.as_bytes(),
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "the if has no condition: {}",
        text(&out.stderr)
    );
    let good = good
        .replace(
            "\"cuda_tile.if\"() (",
            "%c = constant <i1: true> : tile<i1>\n\"cuda_tile.if\"(%c) (",
        )
        .replace("@+1", "@+2")
        .replace(": () -> ()", ": (!cuda_tile.tile<i1>) -> ()");
    let out = tilec(
        &[
            "check",
            "-",
            "--compat=cuda-tile-opt",
            "-verify-diagnostics",
            "-split-input-file",
        ],
        good.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(out.stderr.is_empty() && out.stdout.is_empty());
    // A wrong expectation: the expected one is missing and the real one is unexpected.
    let bad = "%a = constant <i32: 1> : tile<i32>\n// expected-error @below {{something else}}\n%0 = exp %a : tile<i32>\n";
    let out = tilec(
        &[
            "check",
            "-",
            "--verify-diagnostics",
            "--diagnostic-format=mlir",
        ],
        bad.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("<stdin>:3:6: error: unexpected error: 'cuda_tile.exp' op operand #0 must be"),
        "{err}"
    );
    assert!(
        err.contains("<stdin>:2:4: error: expected error \"something else\" was not produced"),
        "{err}"
    );
}

#[cfg(unix)]
#[test]
fn invoked_as_cuda_tile_opt() {
    let link = temp("cuda-tile-opt");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_tilec"), &link).expect("symlink");
    let input = temp("opt-input.mlir");
    std::fs::write(&input, "// expected-error @below {{empty block: expect at least a terminator}}\n\"cuda_tile.if\"(%c) ({^bb0:\n}, {}) : (!cuda_tile.tile<i1>) -> ()\n// -----\ncuda_tile.module @m {\n}\n").expect("write");
    let run = |args: &[&str]| {
        Command::new(&link)
            .args(args)
            .output()
            .expect("cuda-tile-opt runs")
    };
    let out = run(&[
        "-verify-diagnostics",
        "-split-input-file",
        input.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "%c is undefined: {}",
        text(&out.stderr)
    );
    std::fs::write(&input, "%c = cuda_tile.constant <i1: true> : !cuda_tile.tile<i1>\n// expected-error @below {{empty block: expect at least a terminator}}\n\"cuda_tile.if\"(%c) ({^bb0:\n}, {}) : (!cuda_tile.tile<i1>) -> ()\n// -----\ncuda_tile.module @m {\n}\n").expect("write");
    let out = run(&[
        "-verify-diagnostics",
        "-split-input-file",
        input.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "cuda_tile.module @m {\n}\n");
    let out = run(&[
        "-mlir-print-op-generic",
        "-split-input-file",
        input.to_str().unwrap(),
        "-o",
        "-",
    ]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn explain_prints_both_wordings_and_an_example() {
    let out = tilec(&["explain", "E0218"], b"");
    assert_eq!(out.status.code(), Some(0));
    let s = text(&out.stdout);
    assert!(s.starts_with("E0218: empty block\n"), "{s}");
    assert!(s.contains("    expect non-empty block\n"), "{s}");
    assert!(
        s.contains("    empty block: expect at least a terminator\n"),
        "{s}"
    );
    assert!(
        s.contains("A corrected example:\n\n    cuda_tile.loop {\n"),
        "{s}"
    );
}

#[test]
fn json_diagnostics_carry_code_labels_and_notes() {
    let src = "%a = constant <i32: 1> : tile<i32>\n%0 = exp %a : tile<i32>\n";
    let out = tilec(&["check", "-", "--diagnostic-format=json"], src.as_bytes());
    let s = text(&out.stdout);
    assert!(s.starts_with("{\"severity\":\"error\",\"code\":\"E0201\",\"message\":\"'cuda_tile.exp' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'\",\"file\":\"<stdin>\",\"line\":2,\"column\":6,"), "{s}");
    assert!(s.contains("\"labels\":[{\"message\":\"this value has type '!cuda_tile.tile<i32>'\",\"file\":\"<stdin>\",\"line\":1,"), "{s}");
    assert!(s.contains("\"notes\":[]"), "{s}");
}

const FOLDABLE: &str = "cuda_tile.module @m {\n  entry @k(%p: tile<ptr<f32>>) {\n    %a = constant <f32: 1.5> : tile<f32>\n    %b = constant <f32: 2.25> : tile<f32>\n    %s = addf %a, %b : tile<f32>\n    %dead = mulf %s, %s : tile<f32>\n    %t = store_ptr_tko weak %p, %s : tile<ptr<f32>>, tile<f32> -> token\n    return\n  }\n}\n";

const FOLDED: &str = "cuda_tile.module @m {\n  entry @k(%arg0: tile<ptr<f32>>) {\n    %cst_f32 = constant <f32: 3.750000e+00> : tile<f32>\n    %0 = store_ptr_tko weak %arg0, %cst_f32 : tile<ptr<f32>>, tile<f32> -> token\n    return\n  }\n}\n";

#[test]
fn opt_runs_passes_in_order_with_stats() {
    let out = tilec(
        &["opt", "-", "-p", "canonicalize", "--stats"],
        FOLDABLE.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), FOLDED);
    assert_eq!(
        text(&out.stderr),
        "tilec: pass statistics (canonicalize; canonicalizer rounds: 2):\n  EraseDeadOps  3\n  FoldAddF      1\n"
    );
    // Without passes, opt prints the canonical form, as `fmt` of the same IR with
    // NVIDIA's names would.
    let out = tilec(&["opt", "-"], FOLDABLE.as_bytes());
    let fmt = tilec(&["fmt", "-"], out.stdout.as_slice());
    assert_eq!(out.stdout, fmt.stdout);
    // cuda-tile-opt's flags, one dash accepted, and --verify-each.
    let out = tilec(
        &[
            "opt",
            "-",
            "-canonicalize",
            "-cse",
            "--dce",
            "--verify-each",
        ],
        FOLDABLE.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), FOLDED);
}

#[test]
fn opt_usage_errors_exit_2() {
    let out = tilec(
        &["opt", "-", "-p", "canonicalize,inline"],
        FOLDABLE.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "tilec: error: unknown pass 'inline' (known passes: canonicalize, cse, dce, fuse-fma, loop-split, synthesize-debug-info-scopes, convert-to-gpu, gpu-assign-layouts, gpu-pipeline, gpu-vectorize, gpu-allocate-shared, gpu-verify)\n"
    );
    let out = tilec(
        &[
            "opt",
            "-",
            "-p",
            "canonicalize",
            "--disable-patterns=CombineIf",
        ],
        FOLDABLE.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).starts_with(
            "tilec: error: unknown canonicalization rule 'CombineIf' (known rules: FoldConstant, "
        ),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn opt_iteration_cap_is_a_warning() {
    let out = tilec(
        &[
            "opt",
            "-",
            "-p",
            "canonicalize",
            "--max-iterations",
            "1",
            "--diagnostic-format=mlir",
        ],
        FOLDABLE.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), FOLDED);
    assert!(
        text(&out.stderr).starts_with(
            "<stdin>:2:3: warning: canonicalization did not converge in 1 iterations\n"
        ),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn compile_canonicalizes_unless_o0() {
    // 1.0 + 2.0 folds to 3.0 (0F40400000) unless -O0.
    let src = "cuda_tile.module @m {\n  entry @k(%p: tile<ptr<f32>>) {\n    %a = constant <f32: 1.0> : tile<f32>\n    %b = constant <f32: 2.0> : tile<f32>\n    %c = addf %a, %b : tile<f32>\n    %t = store_ptr_tko weak %p, %c : tile<ptr<f32>>, tile<f32> -> token\n    return\n  }\n}\n";
    for (args, folded) in [
        (&["-", "-o", "-"][..], true),
        (&["-", "-o", "-", "-O0"][..], false),
        (&["-", "-o", "-", "-O2"][..], true),
    ] {
        let out = tilec(args, src.as_bytes());
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let ptx = text(&out.stdout);
        assert_eq!(ptx.contains("0F40400000"), folded, "{args:?}\n{ptx}");
        assert_eq!(ptx.contains("add.rn.f32"), !folded, "{args:?}\n{ptx}");
    }
}

#[test]
fn rewrites_keep_source_locations() {
    // The select that replaces the `if` carries the `if`'s location.
    let input = "cuda_tile.module @m {\n  testing$func @f(%a: tile<i32>, %c: tile<i1>) -> tile<i32> {\n    %x = constant <i32: 1> : tile<i32> loc(\"a.py\":1:1)\n    %r = if %c -> (tile<i32>) {\n      yield %a : tile<i32> loc(\"a.py\":5:5)\n    } else {\n      yield %x : tile<i32> loc(\"a.py\":6:5)\n    } loc(\"a.py\":7:3)\n    return %r : tile<i32> loc(\"a.py\":9:1)\n  } loc(\"a.py\":2:1)\n} loc(\"a.py\":1:1)\n";
    let out = tilec(
        &["opt", "-", "-p", "canonicalize", "--print-locations"],
        input.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "cuda_tile.module @m {\n  testing$func @f(%arg0: tile<i32>, %arg1: tile<i1>) -> tile<i32> {\n    %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc)\n    %0 = select %arg1, %arg0, %cst_1_i32 : tile<i1>, tile<i32> loc(#loc2)\n    return %0 : tile<i32> loc(#loc3)\n  } loc(#loc1)\n} loc(#loc)\n#loc = loc(\"a.py\":1:1)\n#loc1 = loc(\"a.py\":2:1)\n#loc2 = loc(\"a.py\":7:3)\n#loc3 = loc(\"a.py\":9:1)\n"
    );
}

/// `-o FILE` replaces an existing file through a temporary file and a rename (so readers
/// never see half a file), but writes through symbolic links, hard links and device files
/// in place, and leaves no temporary file behind, also when it fails.
#[test]
fn output_files_are_replaced_whole_and_links_are_kept() {
    let dir = temp("outputs");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let ptx = |out: &std::path::Path| {
        let o = tilec(&["-", "-o", out.to_str().unwrap()], KERNEL.as_bytes());
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    };
    let expected = text(&tilec(&["-", "-o", "-"], KERNEL.as_bytes()).stdout);
    assert!(expected.contains(".entry k"));

    // A new file, then the same path again (replaced by rename: a new inode).
    let file = dir.join("k.ptx");
    ptx(&file);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), expected);
    std::fs::write(&file, "old contents that are longer than nothing").unwrap();
    ptx(&file);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), expected);

    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // A symbolic link stays a link; its target gets the output.
        let target = dir.join("target.ptx");
        std::fs::write(&target, "x").unwrap();
        let link = dir.join("link.ptx");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        ptx(&link);
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read_to_string(&target).unwrap(), expected);
        // Both names of a hard-linked file see the output.
        let a = dir.join("a.ptx");
        let b = dir.join("b.ptx");
        std::fs::write(&a, "x").unwrap();
        std::fs::hard_link(&a, &b).unwrap();
        ptx(&a);
        assert_eq!(std::fs::read_to_string(&b).unwrap(), expected);
        assert_eq!(
            std::fs::metadata(&a).unwrap().ino(),
            std::fs::metadata(&b).unwrap().ino()
        );
        // A device file is written, not replaced.
        ptx(std::path::Path::new("/dev/null"));
        assert!(
            !std::fs::symlink_metadata("/dev/null")
                .unwrap()
                .file_type()
                .is_file()
        );
    }

    // A directory that is not there: a usage error naming the file, exit 2.
    let missing = dir.join("no-such-dir").join("k.ptx");
    let o = tilec(&["-", "-o", missing.to_str().unwrap()], KERNEL.as_bytes());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("cannot write"),
        "{}",
        text(&o.stderr)
    );

    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

const SCAN_8192_F64: &str = r#"cuda_tile.module @t {
  entry @k(%x_ptr: tile<ptr<f64>>) {
    %token = make_token : token
    %c0 = constant <i32: 0> : tile<i32>
    %xv = make_tensor_view %x_ptr, shape = [8192], strides = [1] : tensor_view<8192xf64, strides=[1]>
    %xp = make_partition_view %xv : partition_view<tile=(8192), tensor_view<8192xf64, strides=[1]>>
    %x, %xt = load_view_tko weak %xp[%c0] token = %token : partition_view<tile=(8192), tensor_view<8192xf64, strides=[1]>>, tile<i32> -> tile<8192xf64>, token
    %s = scan %x dim=0 reverse=false identities=[0.0 : f64] : tile<8192xf64> -> tile<8192xf64>
    (%a: tile<f64>, %b: tile<f64>) {
      %c = addf %a, %b : tile<f64>
      yield %c : tile<f64>
    }
    %yt = store_view_tko weak %s, %xp[%c0] token = %token : tile<8192xf64>, partition_view<tile=(8192), tensor_view<8192xf64, strides=[1]>>, tile<i32> -> token
    return
  }
}
"#;

/// A kernel whose lowering would need more shared memory than a CTA may have (which the
/// launch would refuse) is refused with a diagnostic at the op that needs it: here a scan
/// along the only dimension of a 256 KiB tile, which has no lines to split into chunks.
/// (The 64 KiB one compiles, with dynamic shared memory: docs/abi.md.)
#[test]
fn too_much_shared_memory_is_a_located_error() {
    let big = SCAN_8192_F64.replace("8192", "32768");
    let out = tilec(
        &[
            "-",
            "--arch",
            "sm_90",
            "-o",
            "-",
            "--diagnostic-format=mlir",
        ],
        big.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty());
    assert_eq!(
        text(&out.stderr).lines().next().unwrap_or(""),
        "<stdin>:8:10: error: this operation needs 262144 bytes of shared memory, more than the 232448 bytes (227 KiB) a CTA may use on sm_90; use smaller tiles or fewer --num-stages"
    );
    let out = tilec(
        &["-", "--arch", "sm_80", "-o", "-"],
        SCAN_8192_F64.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let ptx = text(&out.stdout);
    assert!(
        ptx.contains("// tilec.dynamic_smem k 65536\n.extern .shared .align 16 .b8 __smem_k[];"),
        "{ptx}"
    );
}

/// A generic-form entry whose signature names an unknown type while its block argument is
/// a 2x2 tile (found by the fuzzer): compiling it is a located error about the kernel
/// argument, not an internal error in the GPU-level IR.
#[test]
fn non_scalar_kernel_argument_is_a_located_error() {
    let src = "\"cuda_tile.module\"() <{sym_name = \"m\"}> ({\n  \"cuda_tile.entry\"() <{function_type = (!other.tile<2x2xf32>) -> (), sym_name = \"k\"}> ({\n  ^bb0(%arg0: !cuda_tile.tile<2x2xf32>):\n    \"cuda_tile.return\"() : () -> ()\n  }) : () -> ()\n}) : () -> ()\n";
    let out = tilec(
        &["-", "-o", "-", "--diagnostic-format=mlir"],
        src.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr).lines().next().unwrap_or(""),
        "<stdin>:3:8: error: kernel arguments must be rank-0 tiles"
    );
}

const DIV_KERNEL: &str = "cuda_tile.module @m {\n  entry @k(%n: tile<i32>) {\n    %c = constant <i32: 7> : tile<i32>\n    %q = divi %c, %n signed : tile<i32>\n    print \"q = %d\\n\", %q : tile<i32>\n    return\n  }\n}\n";

#[test]
fn run_locates_undefined_behaviour_inside_a_region_at_the_op() {
    let src = "cuda_tile.module @m {\n  entry @k(%n: tile<i32>) {\n    %lb = constant <i32: 0> : tile<i32>\n    %ub = constant <i32: 4> : tile<i32>\n    %st = constant <i32: 1> : tile<i32>\n    for %i in (%lb to %ub, step %st) : tile<i32> {\n      %q = divi %i, %n signed : tile<i32>\n    }\n    return\n  }\n}\n";
    let out = tilec(
        &["run", "-", "--arg", "i32:0", "--diagnostic-format", "mlir"],
        src.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr),
        "<stdin>:7:12: error: integer division by zero in 'divi' (tile block (0, 0, 0))\n      %q = divi %i, %n signed : tile<i32>\n           ^\n"
    );
}

#[test]
fn run_stops_a_tile_block_past_the_op_limit() {
    let src = "cuda_tile.module @m {\n  entry @k() {\n    loop {\n      %c = constant <i32: 1> : tile<i32>\n      continue\n    }\n    return\n  }\n}\n";
    let out = tilec(
        &[
            "run",
            "-",
            "--grid",
            "2",
            "--max-ops",
            "1000",
            "--diagnostic-format",
            "mlir",
        ],
        src.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        // The loop is op 1; each iteration runs two more, so op 1001 is a `continue`.
        "<stdin>:5:7: error: the tile block executed more ops than the limit (--max-ops) allows; does a loop never end? (tile block (0, 0, 0))\n      continue\n      ^\n"
    );
}

#[test]
fn run_prints_and_reports_undefined_behaviour_at_the_op() {
    let ok = tilec(&["run", "-", "--arg", "i32:-2"], DIV_KERNEL.as_bytes());
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok.stderr));
    assert_eq!(text(&ok.stdout), "q = -3\n");
    let ub = tilec(
        &["run", "-", "--arg", "i32:0", "--diagnostic-format", "mlir"],
        DIV_KERNEL.as_bytes(),
    );
    assert_eq!(ub.status.code(), Some(1));
    assert_eq!(
        text(&ub.stderr),
        "<stdin>:4:10: error: integer division by zero in 'divi' (tile block (0, 0, 0))\n    %q = divi %c, %n signed : tile<i32>\n         ^\n"
    );
    let count = tilec(
        &["run", "-", "--diagnostic-format", "mlir"],
        DIV_KERNEL.as_bytes(),
    );
    assert_eq!(count.status.code(), Some(1));
    assert_eq!(
        text(&count.stderr),
        "<stdin>:2:3: error: the kernel takes 1 argument and 0 --arg were given\n  entry @k(%n: tile<i32>) {\n  ^\n"
    );
    let grid = tilec(
        &["run", "-", "--grid", "0", "--arg", "i32:1"],
        DIV_KERNEL.as_bytes(),
    );
    assert_eq!(grid.status.code(), Some(2));
    assert!(
        text(&grid.stderr).contains("--grid '0'"),
        "{}",
        text(&grid.stderr)
    );
}

/// The README's command table and `--help` agree: the same subcommands, and every long
/// option a row names exists in that command's help (the help comes from one place, the
/// clap definitions; `-h` and `--help` print the same text).
#[test]
fn readme_command_table_matches_the_help() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let section = readme
        .split("## Command line")
        .nth(1)
        .expect("README has a 'Command line' section");
    let rows: Vec<&str> = section
        .lines()
        .take_while(|l| !l.starts_with("## "))
        .filter(|l| l.starts_with("| `tilec"))
        .collect();
    assert!(rows.len() >= 8, "{rows:?}");
    let main_help = text(&tilec(&["--help"], b"").stdout);
    assert_eq!(
        main_help,
        text(&tilec(&["-h"], b"").stdout),
        "-h and --help differ"
    );
    let commands: std::collections::BTreeSet<String> = main_help
        .split("Commands:")
        .nth(1)
        .expect("a Commands section")
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect();
    let mut in_table = std::collections::BTreeSet::new();
    for row in rows {
        let usage = row.split('`').nth(1).unwrap();
        let word = usage.split_whitespace().nth(1).unwrap_or("");
        let sub = commands.contains(word).then_some(word);
        if let Some(s) = sub {
            in_table.insert(s.to_string());
        }
        let help = match sub {
            Some(s) => text(&tilec(&[s, "--help"], b"").stdout),
            None => main_help.clone(),
        };
        // Every `--option` of the row (up to `=` or a non-option character).
        for part in row.split("--").skip(1) {
            let name: String = part
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-')
                .collect();
            if name.is_empty() {
                continue;
            }
            assert!(
                help.contains(&format!("--{name}")),
                "README names --{name} for `{usage}`, which its --help does not list"
            );
        }
    }
    assert_eq!(
        in_table, commands,
        "README's command table and `tilec --help` list different subcommands"
    );
    // -O takes 0 to 3.
    let out = tilec(&["examples/relu.tile", "-O9", "-o", "-"], b"");
    assert_eq!(out.status.code(), Some(2));
    // `run --help` names every generator.
    let run_help = text(&tilec(&["run", "--help"], b"").stdout);
    for g in [
        "zeros:", "ones:", "iota:", "fill:", "random:", "randint:", "@x.npy",
    ] {
        assert!(run_help.contains(g), "run --help does not name {g}");
    }
}

/// Misspelled ops, types, attributes and keywords get a `did you mean` help (JSON
/// `help`, the human format's Help line), which the MLIR format leaves out so that
/// NVIDIA's expected output is unchanged.
#[test]
fn did_you_mean() {
    let cases = [
        (
            "%0 = addff %a, %a : tile<f32>",
            "custom op 'addff' is unknown",
            "addf",
        ),
        ("%0 = addf %a, %a : tiel<f32>", "unknown type: tiel", "tile"),
        ("%0 = addf %a, %a : tile<f3>", "unknown type: f3", "f32"),
        (
            "%0 = addf %a, %a rounding<nearest_evn> : tile<f32>",
            "got: 'nearest_evn'",
            "nearest_even",
        ),
        (
            "%0 = \"cuda_tile.addff\"(%a, %a) : (tile<f32>, tile<f32>) -> tile<f32>",
            "unregistered operation 'cuda_tile.addff'",
            "cuda_tile.addf",
        ),
    ];
    for (line, message, suggestion) in cases {
        let src = format!(
            "cuda_tile.module @m {{\n  entry @k(%a: tile<f32>) {{\n    {line}\n    return\n  }}\n}}\n"
        );
        let json = tilec(&["check", "-", "--diagnostic-format=json"], src.as_bytes());
        let first = text(&json.stdout).lines().next().unwrap_or("").to_string();
        assert!(first.contains(message), "{line}: {first}");
        assert!(
            first.ends_with(&format!("\"help\":\"did you mean '{suggestion}'?\"}}")),
            "{line}: {first}"
        );
        let human = tilec(&["check", "-", "--color=never"], src.as_bytes());
        assert!(
            text(&human.stderr).contains(&format!("Help: did you mean '{suggestion}'?")),
            "{line}: {}",
            text(&human.stderr)
        );
        let mlir = tilec(&["check", "-", "--diagnostic-format=mlir"], src.as_bytes());
        assert!(!text(&mlir.stderr).contains("did you mean"), "{line}");
    }
    // Nothing close: no help.
    let src = "cuda_tile.module @m {\n  entry @k(%a: tile<f32>) {\n    %0 = frobnicate %a : tile<f32>\n    return\n  }\n}\n";
    let json = tilec(&["check", "-", "--diagnostic-format=json"], src.as_bytes());
    assert!(
        !text(&json.stdout).contains("\"help\""),
        "{}",
        text(&json.stdout)
    );
}

/// A file that ends inside a region: the error keeps MLIR's wording and labels the '{'
/// that is never closed, with a help saying what to add.
#[test]
fn an_unclosed_brace_is_pointed_at() {
    let src = "cuda_tile.module @m {\n  entry @e(%a: tile<f32>) {\n    %0 = addf %a, %a : tile<f32>\n    return\n}\n";
    let json = tilec(&["check", "-", "--diagnostic-format=json"], src.as_bytes());
    let out = text(&json.stdout);
    assert!(
        out.contains("\"message\":\"expected operation name in quotes\""),
        "{out}"
    );
    assert!(
        out.contains("\"labels\":[{\"message\":\"this '{' is never closed\",\"file\":\"<stdin>\",\"line\":1,\"column\":21"),
        "{out}"
    );
    assert!(
        out.contains("\"help\":\"the file ends inside a region: add the missing '}'\""),
        "{out}"
    );
}

/// Control characters of the input (a binary file, an escape sequence) are not sent to
/// the terminal in a diagnostic's snippet.
#[test]
fn snippets_do_not_print_control_characters() {
    let mut src =
        b"cuda_tile.module @m {\n  entry @e() {\n    %x = addf \x1b[31mred\x07\n  }\n}\n".to_vec();
    let human = tilec(&["check", "-", "--color=never"], &src);
    let mlir = tilec(&["check", "-", "--diagnostic-format=mlir"], &src);
    for out in [&human.stderr, &mlir.stderr] {
        assert!(
            !out.iter().any(|b| *b == 0x1b || *b == 0x07),
            "{}",
            text(out)
        );
    }
    assert!(text(&mlir.stderr).contains("    %x = addf ?[31mred?\n              ^"));
    // Invalid UTF-8 with control bytes: the same.
    src = b"\x7fELF\x02\x01\x01\x00\x00\xff\xfe".to_vec();
    let human = tilec(&["check", "-", "--color=never"], &src);
    assert_eq!(human.status.code(), Some(1));
    assert!(
        !human.stderr.iter().any(|b| *b < 0x20 && *b != b'\n'),
        "{:?}",
        human.stderr
    );
}

/// `tilec run` names the buffer of an out-of-bounds access and the parameter of a wrong
/// argument, both numbered from 0 as `--save-args` names its files.
#[test]
fn run_errors_name_the_argument() {
    let base = [
        "run",
        "examples/relu.tile",
        "--grid",
        "2",
        "--diagnostic-format=mlir",
        "--arg",
    ];
    // relu's six arguments after the first: x's length and stride, y, y's length and stride.
    let rest = [
        "--arg",
        "i32:2000",
        "--arg",
        "i32:1",
        "--arg",
        "zeros:f32:2000",
        "--arg",
        "i32:2000",
        "--arg",
        "i32:1",
    ];
    let with_first = |first: &'static str| {
        let mut v = base.to_vec();
        v.push(first);
        v.extend(rest);
        v
    };
    let out = tilec(&with_first("random:f32:1000:1"), b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr)
            .contains("is past the end of argument 0 (%x_ptr), a 4000-byte buffer (offset 4000)"),
        "{}",
        text(&out.stderr)
    );
    let kind = with_first("i32:5");
    let out = tilec(&kind, b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with(
            "examples/relu.tile:13:15: error: argument 0 (%x_ptr) is a pointer to f32 (a buffer), but --arg gives an i32 scalar\n"
        ),
        "{}",
        text(&out.stderr)
    );
}

/// On a terminal, a run that takes more than a second shows its progress on stderr (and
/// clears it before the summary line); off a terminal it never does.
#[test]
fn long_runs_show_progress_on_a_terminal() {
    let kernel = "cuda_tile.module @m {\n  entry @e() {\n    return\n  }\n}\n";
    let path = temp("progress.tile");
    std::fs::write(&path, kernel).unwrap();
    let err_of = |tty: bool, grid: &str| {
        let (mut stdin, mut stdout, mut stderr) = (&b""[..], Vec::new(), Vec::new());
        let mut io = tilec::Io {
            stdin: &mut stdin,
            stdout: &mut stdout,
            stderr: &mut stderr,
            stderr_is_tty: tty,
        };
        let args = ["tilec", "run", path.to_str().unwrap(), "--grid", grid];
        let code = tilec::run(args.iter().map(std::ffi::OsString::from).collect(), &mut io);
        assert_eq!(code, 0);
        text(&stderr)
    };
    // Long enough to pass a second in a debug build, and short in a release one: grow
    // the grid until the run takes more than a second.
    let mut blocks = 1u64 << 20;
    loop {
        let start = std::time::Instant::now();
        let grid = format!("{},{}", blocks >> 10, 1024);
        let err = err_of(true, &grid);
        if start.elapsed().as_secs_f64() > 1.5 {
            assert!(
                err.contains("\rtilec run: ") && err.contains(" tile blocks ("),
                "{err:?}"
            );
            assert!(err.contains("\r\x1b[2Ktilec run: @e on grid"), "{err:?}");
            let quiet = err_of(false, &grid);
            assert!(!quiet.contains('\r'), "{quiet:?}");
            break;
        }
        if start.elapsed().as_secs_f64() < 0.9 {
            assert!(
                !err.contains('\r'),
                "a short run shows no progress: {err:?}"
            );
        }
        blocks *= 4;
        assert!(blocks <= 1 << 30, "runs never took a second");
    }
}

/// The README's commands write their outputs under `target/` (ignored by git), never into
/// the repository root, and its Layout table names every crate.
#[test]
fn readme_commands_write_under_target_and_name_every_crate() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let mut in_code = false;
    for line in readme.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if !in_code || !line.contains("tilec") {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        for w in words.windows(2) {
            if matches!(w[0], "-o" | "--save-args") {
                let out = w[1];
                assert!(
                    out == "-" || out.starts_with("target/") || out.starts_with('/'),
                    "README writes '{out}' outside target/: {line}"
                );
            }
        }
    }
    let layout = readme.split("## Layout").nth(1).expect("a Layout section");
    for e in std::fs::read_dir(repo().join("crates")).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        assert!(
            layout.contains(&format!("`crates/{name}`")),
            "README's Layout table does not name crates/{name}"
        );
    }
}

/// The README's first command, `cargo run --release -p tilec -- FILE ...`, runs tilec:
/// with more than one binary in the package (the wheel's `tileiras`), cargo would refuse
/// to choose without `default-run`.
#[test]
fn readme_first_command_runs_tilec() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let first = readme
        .lines()
        .find(|l| l.starts_with("cargo run"))
        .expect("a `cargo run` command in the README");
    assert!(first.contains("-p tilec --"), "{first}");
    let manifest = std::fs::read_to_string(repo().join("crates/tilec/Cargo.toml")).unwrap();
    let bins = manifest.matches("[[bin]]").count();
    assert!(
        bins <= 1 || manifest.contains("default-run = \"tilec\""),
        "crates/tilec has {bins} binaries and no `default-run = \"tilec\"`: `{first}` fails"
    );
}

#[test]
fn w_flags_choose_how_hint_problems_are_reported() {
    let src = b"cuda_tile.module @m {\n  entry @k() optimization_hints=<sm_75 = {num_cta_in_cga = 2}> {\n    return\n  }\n}\n";
    let run = |extra: &[&str]| {
        let mut args = vec!["check", "-", "--diagnostic-format=mlir"];
        args.extend_from_slice(extra);
        let o = tilec(&args, src);
        (o.status.code(), text(&o.stderr))
    };
    // tilec's own mode: an error.
    let (code, err) = run(&[]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("<stdin>:2:3: error: 'cuda_tile.entry' op unallowed key sm_75\n"),
        "{err}"
    );
    // cuda-tile-opt (13.3): silent unless asked.
    let (code, err) = run(&["--compat=cuda-tile-opt"]);
    assert_eq!((code, err.as_str()), (Some(0), ""));
    let (code, err) = run(&["--compat=cuda-tile-opt", "-Wunsupported-hints"]);
    assert_eq!(code, Some(0));
    assert!(
        err.contains("<stdin>:2:3: warning: 'cuda_tile.entry' op unknown hint key sm_75\n"),
        "{err}"
    );
    let (code, err) = run(&[
        "--compat=cuda-tile-opt",
        "-Wunsupported-hints",
        "-Werr-hints",
    ]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains(
            "<stdin>:2:3: error: 'cuda_tile.entry' op Optimization hints verification failed\n"
        ),
        "{err}"
    );
    // An unknown -W name is a usage error.
    let (code, _) = run(&["-Wbogus"]);
    assert_eq!(code, Some(2));
}

#[test]
fn thirteen_three_element_types_run_and_compile_and_4_bit_memory_is_refused() {
    let src = b"cuda_tile.module @m {\n  entry @k() {\n    %c = constant <f32: [0.3, 1.7, -2.6, 100.0]> : tile<4xf32>\n    %a = ftof %c : tile<4xf32> -> tile<4xf4E2M1FN>\n    %b = ftof %a : tile<4xf4E2M1FN> -> tile<4xf32>\n    %e = ftof %c rounding<zero> : tile<4xf32> -> tile<4xf8E8M0FNU>\n    %f = ftof %e : tile<4xf8E8M0FNU> -> tile<4xf32>\n    print \"%f|%f\\n\", %b, %f : tile<4xf32>, tile<4xf32>\n    return\n  }\n}\n";
    let r = tilec(&["run", "-"], src);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    assert_eq!(
        text(&r.stdout),
        "[0.500000, 1.500000, -3.000000, 6.000000]|[0.250000, 1.000000, nan, 64.000000]\n"
    );
    let r = tilec(&["-", "-o", "-", "--diagnostic-format=mlir"], src);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    assert!(text(&r.stdout).contains(".entry k("));
    // Two 4-bit elements to a byte of memory: refused, as `tilec run` does.
    let src = b"cuda_tile.module @m {\n  entry @k(%p: !cuda_tile.tile<ptr<f4E2M1FN>>) {\n    return\n  }\n}\n";
    let r = tilec(&["-", "-o", "-", "--diagnostic-format=mlir"], src);
    assert_eq!(r.status.code(), Some(1));
    let err = text(&r.stderr);
    assert!(
        err.starts_with("<stdin>:2:3: error: tilec's PTX backend does not lower memory of the 4-bit element type 'f4E2M1FN' (two elements to a byte; 'tilec run' refuses it too)"),
        "{err}"
    );
}

#[test]
fn cuda_tile_opt_words_type_constraints_as_the_release_asked_for() {
    let src = b"cuda_tile.module @m {\n  testing$func @f(%a: !cuda_tile.tile<ptr<tile<2xf32>>>) {\n  }\n}\n";
    let all = |extra: &[&str]| {
        let mut args = vec![
            "check",
            "-",
            "--diagnostic-format=mlir",
            "--compat=cuda-tile-opt",
        ];
        args.extend_from_slice(extra);
        text(&tilec(&args, src).stderr)
    };
    let run = |extra: &[&str]| all(extra).lines().next().unwrap_or_default().to_string();
    // 13.1 followed the type's error with a second one; 13.3 does not.
    assert!(!all(&[]).contains("expected valid keyword"));
    assert!(
        all(&["--cuda-tile-release=13.1"])
            .contains("<stdin>:2:43: error: expected valid keyword\n")
    );
    assert_eq!(
        run(&[]),
        "<stdin>:2:43: error: failed to verify 'pointeeType': f16 or bf16 or f32 or tf32 or f64 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN or i1 or i8 or i16 or i32 or i64"
    );
    assert_eq!(
        run(&["--cuda-tile-release=13.2"]),
        "<stdin>:2:43: error: failed to verify 'pointeeType': f16 or bf16 or f32 or tf32 or f64 or f8E4M3FN or f8E5M2 or f8E8M0FNU or i1 or i8 or i16 or i32 or i64"
    );
    assert_eq!(
        run(&["--cuda-tile-release=13.1"]),
        "<stdin>:2:43: error: failed to verify 'pointeeType': f16 or bf16 or f32 or tf32 or f64 or f8E4M3FN or f8E5M2 or i1 or i8 or i16 or i32 or i64"
    );
}

/// In NVIDIA's personality, an op a later release introduced is unknown when parsing for
/// an earlier release, as it is to that release's tools (`pack` is 13.3's; `atan2` 13.2's), in either form.
#[test]
fn ops_of_later_releases_are_unknown_to_earlier_ones() {
    let custom = "cuda_tile.module @m {\n  testing$func @f(%x: !cuda_tile.tile<4xi32>) {\n    %b = pack %x : tile<4xi32> -> tile<16xi8>\n  }\n}\n";
    let out = tilec(
        &[
            "check",
            "-",
            "--compat=cuda-tile-opt",
            "--cuda-tile-release=13.1",
            "--diagnostic-format=mlir",
        ],
        custom.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr)
            .contains("3:10: error: custom op 'pack' is unknown (tried 'cuda_tile.pack' as well)"),
        "{}",
        text(&out.stderr)
    );
    let out = tilec(
        &[
            "check",
            "-",
            "--compat=cuda-tile-opt",
            "--cuda-tile-release=13.3",
        ],
        custom.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let generic = "cuda_tile.module @m {\n  testing$func @f(%x: !cuda_tile.tile<4xf32>) {\n    %y = \"cuda_tile.atan2\"(%x, %x) : (!cuda_tile.tile<4xf32>, !cuda_tile.tile<4xf32>) -> !cuda_tile.tile<4xf32>\n  }\n}\n";
    let out = tilec(
        &[
            "check",
            "-",
            "--compat=cuda-tile-opt",
            "--cuda-tile-release=13.1",
            "--diagnostic-format=mlir",
        ],
        generic.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("error: unregistered operation 'cuda_tile.atan2' found in dialect ('cuda_tile') that does not allow unknown operations"),
        "{}",
        text(&out.stderr)
    );
    let out = tilec(
        &[
            "check",
            "-",
            "--compat=cuda-tile-opt",
            "--cuda-tile-release=13.2",
        ],
        generic.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // Element types: 13.1 had no f8E8M0FNU, 13.2 no i4.
    for (release, ty, list) in [
        (
            "13.1",
            "f8E8M0FNU",
            "f16 or bf16 or f32 or tf32 or f64 or f8E4M3FN or f8E5M2 or i1 or i8 or i16 or i32 or i64 or Pointer type",
        ),
        (
            "13.2",
            "i4",
            "f16 or bf16 or f32 or tf32 or f64 or f8E4M3FN or f8E5M2 or f8E8M0FNU or i1 or i8 or i16 or i32 or i64 or Pointer type",
        ),
    ] {
        let src = format!(
            "cuda_tile.module @m {{\n  testing$func @f(%x: !cuda_tile.tile<4x{ty}>) {{\n  }}\n}}\n"
        );
        let rel = format!("--cuda-tile-release={release}");
        let out = tilec(
            &[
                "check",
                "-",
                "--compat=cuda-tile-opt",
                &rel,
                "--diagnostic-format=mlir",
            ],
            src.as_bytes(),
        );
        assert_eq!(out.status.code(), Some(1));
        assert!(
            text(&out.stderr).contains(&format!(
                "2:38: error: failed to verify 'elementType': {list}\n"
            )),
            "{release}: {}",
            text(&out.stderr)
        );
        let out = tilec(&["check", "-", "--compat=cuda-tile-opt"], src.as_bytes());
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
}

/// A diagnostic at an op of a bytecode file whose debug info gives the op a source
/// position (cuTile's bytecode: the Python line) names that position in a note, in
/// every format: the corpus's split-K GEMM, whose K loop's remarks point at the `for`
/// line of scripts/cutile_corpus/kernels.py.
#[test]
fn bytecode_diagnostics_name_the_debug_info_source_position() {
    let bc = "tests/corpus/cutile/matmul_splitk.tileirbc";
    let py = repo().join("scripts/cutile_corpus/kernels.py");
    let (Ok(py), true) = (std::fs::read_to_string(&py), repo().join(bc).exists()) else {
        eprintln!("SKIPPED: the cuTile corpus is missing");
        return;
    };
    let line = py
        .lines()
        .position(|l| l.contains("for k in range(s, ct.num_tiles(a"))
        .expect("the split-K loop")
        + 1;
    let note = format!(
        "at scripts/cutile_corpus/kernels.py:{line}:4 (the source position in the bytecode's debug info)"
    );
    let out = tilec(
        &[
            bc,
            "--arch",
            "sm_90a",
            "--remarks",
            "--color=never",
            "-o",
            "-",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!(
            "remark[E0903]: K loop pipelined over 4 stages (4 of A and 4 of B, 65536 bytes of shared memory); B is staged as loaded and copied like A; each K step's warpgroup MMA stays in flight during the next\n  --> {bc}: byte offset 170 (0xaa)\n  = note: {note}\n"
        )),
        "{err}"
    );
    let out = tilec(
        &[bc, "--remarks", "--diagnostic-format=mlir", "-o", "-"],
        b"",
    );
    assert!(
        text(&out.stderr).contains(&format!("{bc}: byte offset 170 (0xaa): note: {note}")),
        "{}",
        text(&out.stderr)
    );
}

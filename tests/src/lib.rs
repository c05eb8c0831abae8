//! tilec's test harness.
//!
//! * [`filecheck`]: an LLVM-FileCheck-compatible matcher;
//! * [`run_tilec`]: runs the `tilec` command line in process, with in-memory streams;
//! * [`lit`]: interprets the `// RUN:` lines of MLIR-style test files, with `cuda-tile-opt`
//!   mapped to the matching `tilec` command;
//! * [`mutate`]: the input mutator used by the no-panic mutation tests and benchmark;
//! * [`ptxas`]: finds and runs NVIDIA's PTX assembler on tilec's output;
//! * [`codestats`]: static counts of global access widths, `cp.async`, `ldmatrix` and
//!   tensor-core instructions in PTX and in SASS (`cuobjdump`), for side-by-side tables;
//! * [`ptxsim`]: a PTX interpreter for the subset tilec's matrix-multiply kernels use;
//! * [`gpusweep`]: the GPU correctness sweep's plan and runner;
//! * [`simgpu`]: the PTX simulator behind the GPU harness's `Backend` trait;
//! * [`kernelgen`]: a seeded generator of random well-typed tile IR modules;
//! * [`diffcanon`]: differential canonicalization: functions run by the interpreter before
//!   and after canonicalization must agree;
//! * [`shared_dir`]: where the shared spec and conformance files live.

pub mod codestats;
pub mod diffcanon;
pub mod filecheck;
pub mod gpusweep;
pub mod kernelgen;
pub mod lit;
pub mod mutate;
pub mod ptxas;
pub mod tilegen;
pub use tilec_ptxsim as ptxsim;
pub use tilec_ptxsim::backend as simgpu;

use std::path::{Path, PathBuf};

/// The directory holding the shared spec and conformance data (`../shared` next to the
/// repository), if present. `TILEC_SHARED_DIR`, when set, is the only place looked at:
/// `TILEC_SHARED_DIR=/nonexistent cargo test` runs the suite as a fresh clone would.
pub fn shared_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("TILEC_SHARED_DIR") {
        let dir = PathBuf::from(dir);
        return dir.join("conformance").is_dir().then_some(dir);
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    [root.join("../shared"), root.join("shared")]
        .into_iter()
        .find(|p| p.join("conformance").is_dir())
}

/// The repository root.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The shipped example kernels (`examples/*.tile`), sorted.
pub fn example_files() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(repo_root().join("examples"))
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.retain(|p| p.extension().is_some_and(|x| x == "tile"));
    v.sort();
    v
}

/// cuTile corpus kernels (tests/corpus/cutile) that tilec's PTX backend refuses for now,
/// each with what its E0901 message names ("does not lower ... yet"). The PTX tests check
/// that each one is refused with exactly that message, print the list, and fail once a
/// kernel compiles: when the lowering lands, its kernel must leave this list (and then
/// go through ptxas like every other corpus kernel).
pub const PTX_REFUSED_CORPUS: &[(&str, &str)] = &[];

/// The expected E0901 refusal of a corpus file by the PTX backend (see
/// [`PTX_REFUSED_CORPUS`]), by file stem: the text its message must contain.
pub fn ptx_refusal(stem: &str) -> Option<String> {
    PTX_REFUSED_CORPUS
        .iter()
        .find(|(k, _)| *k == stem)
        .map(|(_, what)| format!("tilec's PTX backend does not lower {what} yet"))
}

/// Checks that a PTX compilation (exit status and stderr) of the corpus file `stem`
/// is refused as [`PTX_REFUSED_CORPUS`] says: `Ok(true)` refused as expected,
/// `Ok(false)` not on the list, `Err` refused otherwise or compiled though listed.
pub fn check_ptx_refusal(stem: &str, status: i32, stderr: &str) -> Result<bool, String> {
    let Some(want) = ptx_refusal(stem) else {
        return Ok(false);
    };
    if status == 0 {
        return Err(format!(
            "{stem}: compiles to PTX now: remove it from tilec_tests::PTX_REFUSED_CORPUS"
        ));
    }
    if stderr.contains("E0901") && stderr.contains(&want) {
        Ok(true)
    } else {
        Err(format!(
            "{stem}: expected E0901 \"{want}\", got exit {status}:\n{stderr}"
        ))
    }
}

/// Prints the expected PTX refusals (so that they are visible in every PTX test's output).
pub fn print_ptx_refusals(context: &str, refused: &[String]) {
    println!(
        "{context}: {} cuTile corpus kernels refused by the PTX backend as expected (tilec_tests::PTX_REFUSED_CORPUS):",
        refused.len()
    );
    for r in refused {
        println!("  EXPECTED REFUSAL: {r}");
    }
}

/// Prints a loud SKIPPED line (tests that need data or tools that are missing).
pub fn skipped(what: &str, why: &str) {
    eprintln!("\n*** SKIPPED: {what}: {why} ***\n");
}

/// The outcome of one in-process `tilec` run.
#[derive(Debug, Clone)]
pub struct Output {
    /// Exit status.
    pub status: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

/// Runs `tilec ARGS` in process with `stdin` as standard input.
pub fn run_tilec(args: &[&str], stdin: &str) -> Output {
    let mut argv: Vec<std::ffi::OsString> = vec!["tilec".into()];
    argv.extend(args.iter().map(|a| std::ffi::OsString::from(*a)));
    let mut input = std::io::Cursor::new(stdin.as_bytes().to_vec());
    let mut out = Vec::new();
    let mut err = Vec::new();
    let status = {
        let mut io = tilec::Io {
            stdin: &mut input,
            stdout: &mut out,
            stderr: &mut err,
            stderr_is_tty: false,
        };
        tilec::run(argv, &mut io)
    };
    Output {
        status,
        stdout: String::from_utf8_lossy(&out).into_owned(),
        stderr: String::from_utf8_lossy(&err).into_owned(),
    }
}

/// Runs `tilec` and returns stdout, or an error with the exit status and stderr.
pub fn fmt(args: &[&str], stdin: &str) -> Result<String, String> {
    let out = run_tilec(args, stdin);
    if out.status == 0 {
        Ok(out.stdout)
    } else {
        Err(format!("exit {}:\n{}", out.status, out.stderr))
    }
}

/// Checks that a file formats to a fixed point: `tilec fmt` output (names and comments as
/// written) parses again and prints byte-identically, no op falls back to the generic
/// form, the generic form parses back to the same canonical form (`tilec opt`), and
/// printing with locations is idempotent too.
pub fn round_trip(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let p = path.to_str().unwrap_or_default();
    let split = text.contains("\n// -----");
    let mut args = vec!["fmt", p];
    if split {
        args.push("--split-input-file");
    }
    let first = fmt(&args, "")?;
    // Valid IR prints in its custom form; the generic fallback is for ops that do not fit
    // their syntax (see `tilec_ir::ops::conform`).
    if let Some(line) = first.lines().find(|l| l.contains("\"cuda_tile.")) {
        return Err(format!(
            "a valid op was printed in the generic form: {line}"
        ));
    }
    let mut again_args = vec!["fmt", "-"];
    if split {
        again_args.push("--split-input-file");
    }
    let second =
        fmt(&again_args, &first).map_err(|e| format!("printed form does not parse: {e}"))?;
    if first != second {
        return Err(format!(
            "formatting is not idempotent:\n--- first ---\n{first}\n--- second ---\n{second}"
        ));
    }
    // The generic form, compared in NVIDIA's canonical form (`opt`): it names values and
    // places comments its own way.
    let opt_args: Vec<&str> = std::iter::once("opt")
        .chain(args[1..].iter().copied())
        .collect();
    let opt_again: Vec<&str> = std::iter::once("opt")
        .chain(again_args[1..].iter().copied())
        .collect();
    let canonical = fmt(&opt_args, "")?;
    let mut gen_args = opt_args.clone();
    gen_args.push("--generic");
    let generic = fmt(&gen_args, "")?;
    let back =
        fmt(&opt_again, &generic).map_err(|e| format!("generic form does not parse: {e}"))?;
    if back != canonical {
        return Err(format!(
            "generic form does not round-trip:\n--- custom ---\n{canonical}\n--- via generic ---\n{back}"
        ));
    }
    // The generic form as written parses back too.
    let mut gen_written = args.clone();
    gen_written.push("--generic");
    let generic = fmt(&gen_written, "")?;
    fmt(&again_args, &generic).map_err(|e| format!("generic form does not parse: {e}"))?;
    let mut loc_args = args.clone();
    loc_args.push("--print-locations");
    let with_locs = fmt(&loc_args, "")?;
    let mut loc_again = again_args.clone();
    loc_again.push("--print-locations");
    let locs_back = fmt(&loc_again, &with_locs)
        .map_err(|e| format!("form with locations does not parse: {e}"))?;
    if locs_back != with_locs {
        return Err("printing with locations is not idempotent".to_string());
    }
    Ok(())
}

/// Parses and verifies `src` in process and returns every diagnostic as
/// `"SEVERITY LINE:COL: MESSAGE"` (`error 3:5: 'cuda_tile.exti' op ...`), notes included
/// (as `note LINE:COL: ...`), in the order they were reported. `compat` selects NVIDIA's
/// wording (`--compat=cuda-tile-opt`). Parse errors are returned the same way.
pub fn verify_diags(src: &str, compat: bool) -> Vec<String> {
    let personality = if compat {
        tilec_verify::Personality::CudaTileOpt
    } else {
        tilec_verify::Personality::Spec
    };
    verify_diags_with(
        src,
        &tilec_verify::VerifyOptions {
            personality,
            ..Default::default()
        },
    )
}

/// [`verify_diags`] with any verifier options.
pub fn verify_diags_with(src: &str, vopts: &tilec_verify::VerifyOptions) -> Vec<String> {
    let mut sm = tilec_diag::SourceMap::new();
    let file = sm.add("t.tile", src.to_string());
    let opts = tilec_parse::ParseOptions {
        allow_unregistered: true,
        ..Default::default()
    };
    let diags = match tilec_parse::parse(src, file, &opts) {
        Ok(m) => tilec_verify::verify(&m, vopts),
        Err(d) => d,
    };
    let f = sm.get(file);
    let mut out = Vec::new();
    for d in &diags {
        let (l, c) = d.location.map_or((0, 0), |loc| f.line_col(loc.span.start));
        out.push(format!("{} {l}:{c}: {}", d.severity, d.message));
        for n in &d.notes {
            let (l, c) = n.location.map_or((0, 0), |loc| f.line_col(loc.span.start));
            out.push(format!("note {l}:{c}: {}", n.message));
        }
    }
    out
}

/// [`verify_diags`] in both personalities: `(spec wording, NVIDIA wording)`.
pub fn verify_both(src: &str) -> (Vec<String>, Vec<String>) {
    (verify_diags(src, false), verify_diags(src, true))
}

/// Asserts the diagnostics of each personality ([`verify_diags`] format).
#[track_caller]
pub fn assert_modes(src: &str, spec: &[&str], compat: &[&str]) {
    let (s, c) = verify_both(src);
    assert_eq!(s, spec, "default mode:\n{src}");
    assert_eq!(c, compat, "cuda-tile-opt mode:\n{src}");
}

/// Asserts the same diagnostics in both personalities.
#[track_caller]
pub fn assert_both(src: &str, want: &[&str]) {
    assert_modes(src, want, want);
}

/// Asserts that `src` verifies clean in both personalities.
#[track_caller]
pub fn assert_clean(src: &str) {
    assert_modes(src, &[], &[]);
}

/// A module holding `testing$func @f(ARGS)` whose body (`body`, as written) starts on
/// line 3.
pub fn test_func(args: &str, body: &str) -> String {
    format!("cuda_tile.module @m {{\n  testing$func @f({args}) {{\n{body}\n  }}\n}}\n")
}

/// [`test_func`] with one op per line: the first op is on line 3, column 5.
pub fn test_func_lines(args: &str, body: &[&str]) -> String {
    let mut s = format!("cuda_tile.module @m {{\n  testing$func @f({args}) {{\n");
    for line in body {
        s.push_str("    ");
        s.push_str(line);
        s.push('\n');
    }
    s.push_str("  }\n}\n");
    s
}

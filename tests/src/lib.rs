//! tilec's test harness.
//!
//! * [`filecheck`]: an LLVM-FileCheck-compatible matcher;
//! * [`run_tilec`]: runs the `tilec` command line in process, with in-memory streams;
//! * [`lit`]: interprets the `// RUN:` lines of MLIR-style test files, with `cuda-tile-opt`
//!   mapped to the matching `tilec` command;
//! * [`mutate`]: the input mutator used by the no-panic mutation tests and benchmark;
//! * [`shared_dir`]: where the shared spec and conformance files live.

pub mod filecheck;
pub mod lit;
pub mod mutate;

use std::path::PathBuf;

/// The directory holding the shared spec and conformance data (`../shared` next to the
/// repository), if present.
pub fn shared_dir() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let candidates = [
        std::env::var_os("TILEC_SHARED_DIR").map(PathBuf::from),
        Some(root.join("../shared")),
        Some(root.join("shared")),
    ];
    candidates
        .into_iter()
        .flatten()
        .find(|p| p.join("conformance").is_dir())
}

/// The repository root.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
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

//! Helpers shared by the canonicalizer tests (tests/canon_*.rs): run `tilec opt` in process
//! and check that every output is valid IR before comparing it exactly.
//!
//! Every run goes through [`opt`], which asserts that the input verifies, that the command
//! succeeds, that its output verifies again (in the same personality) and prints back
//! byte-identically, and, for a converged canonicalization, that canonicalizing the output
//! again changes nothing. Tests then compare the full output with `assert_eq!`.

#![allow(dead_code)]

use std::collections::BTreeMap;
use tilec_tests::{run_tilec, verify_diags};

/// One `tilec opt` run.
#[derive(Debug)]
pub struct Opt {
    /// The arguments after `opt -`.
    pub args: Vec<String>,
    /// Standard output (the printed module).
    pub stdout: String,
    /// Standard error (statistics, warnings).
    pub stderr: String,
}

/// A raw string literal written with its text starting on the next line: drops that first
/// newline.
pub fn text(s: &str) -> &str {
    s.strip_prefix('\n').unwrap_or(s)
}

fn is_compat(args: &[&str]) -> bool {
    args.iter()
        .any(|a| *a == "--compat=cuda-tile-opt" || *a == "cuda-tile-opt")
}

/// `tilec fmt` of `src` (the unchanged printed form).
#[track_caller]
pub fn fmt(src: &str) -> String {
    let out = run_tilec(&["opt", "-"], text(src));
    assert_eq!(out.status, 0, "fmt failed:\n{}", out.stderr);
    out.stdout
}

/// Runs `tilec opt - ARGS` on `src` and checks the contracts every output must keep: the
/// input verifies, the run exits 0, the output verifies in the same personality and prints
/// back unchanged, and (unless an iteration cap is given or the run warned) canonicalizing
/// the output again is a no-op.
#[track_caller]
pub fn opt(args: &[&str], src: &str) -> Opt {
    let src = text(src);
    let compat = is_compat(args);
    assert_eq!(
        verify_diags(src, compat),
        Vec::<String>::new(),
        "the test input does not verify:\n{src}"
    );
    let mut argv = vec!["opt", "-"];
    argv.extend_from_slice(args);
    let out = run_tilec(&argv, src);
    assert_eq!(
        out.status, 0,
        "tilec {argv:?} failed:\n{}\ninput:\n{src}",
        out.stderr
    );
    let diags = verify_diags(&out.stdout, compat);
    assert_eq!(
        diags,
        Vec::<String>::new(),
        "output of tilec {argv:?} does not verify:\n{}",
        out.stdout
    );
    let mut fmt_args = vec!["opt", "-"];
    if compat {
        fmt_args.push("--compat=cuda-tile-opt");
    }
    let again = run_tilec(&fmt_args, &out.stdout);
    assert_eq!(again.status, 0, "output does not parse:\n{}", again.stderr);
    assert_eq!(
        again.stdout, out.stdout,
        "output does not print back unchanged"
    );
    if only_canonicalize(args)
        && !args.iter().any(|a| a.starts_with("--max-iterations"))
        && !out.stderr.contains("warning")
    {
        let second = run_tilec(&argv, &out.stdout);
        assert_eq!(second.status, 0, "second run failed:\n{}", second.stderr);
        assert_eq!(
            second.stdout, out.stdout,
            "canonicalizing the output again changes it (tilec {argv:?})"
        );
    }
    Opt {
        args: args.iter().map(|s| s.to_string()).collect(),
        stdout: out.stdout,
        stderr: out.stderr,
    }
}

/// True if the passes `args` ask for are canonicalize only (then the output is a fixed
/// point: running the same command on it changes nothing).
fn only_canonicalize(args: &[&str]) -> bool {
    let mut passes = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match *a {
            "-p" | "--passes" => passes.extend(it.next().into_iter().flat_map(|p| p.split(','))),
            "--canonicalize" | "--cse" | "--dce" => passes.push(&a[2..]),
            _ => {}
        }
    }
    !passes.is_empty() && passes.iter().all(|p| *p == "canonicalize")
}

/// [`opt`] with `-p canonicalize --stats --verify-each` before `args`.
#[track_caller]
pub fn canon(args: &[&str], src: &str) -> Opt {
    let mut all = vec!["-p", "canonicalize", "--stats", "--verify-each"];
    all.extend_from_slice(args);
    opt(&all, src)
}

/// The number of lines naming a token-ordered memory operation (`*_tko`).
pub fn tko_count(text: &str) -> usize {
    text.lines().filter(|l| l.contains("_tko")).count()
}

impl Opt {
    /// The `--stats` table: counter name to count.
    pub fn stats(&self) -> BTreeMap<String, u64> {
        let mut map = BTreeMap::new();
        let mut in_table = false;
        for line in self.stderr.lines() {
            if line.starts_with("tilec: pass statistics (") {
                in_table = true;
                continue;
            }
            if !in_table || !line.starts_with("  ") {
                in_table = false;
                continue;
            }
            let mut parts = line.split_whitespace();
            if let (Some(name), Some(n), None) = (parts.next(), parts.next(), parts.next()) {
                map.insert(name.to_string(), n.parse().expect("a count"));
            }
        }
        map
    }

    /// How often counter `name` fired (0 if absent).
    pub fn stat(&self, name: &str) -> u64 {
        self.stats().get(name).copied().unwrap_or(0)
    }

    /// Asserts the full output.
    #[track_caller]
    pub fn assert_output(&self, want: &str) {
        assert_eq!(self.stdout, text(want), "tilec opt {:?}", self.args);
    }

    /// Asserts that the output is the input as `tilec fmt` prints it.
    #[track_caller]
    pub fn assert_unchanged(&self, src: &str) {
        assert_eq!(self.stdout, fmt(src), "tilec opt {:?}", self.args);
    }

    /// Asserts how often a rule fired.
    #[track_caller]
    pub fn assert_stat(&self, name: &str, n: u64) {
        assert_eq!(
            self.stat(name),
            n,
            "--stats count of {name} (tilec opt {:?}):\n{}",
            self.args,
            self.stderr
        );
    }

    /// Asserts that a rule did not fire.
    #[track_caller]
    pub fn assert_no_stat(&self, name: &str) {
        self.assert_stat(name, 0);
    }

    /// Asserts that standard error holds no warning or error.
    #[track_caller]
    pub fn assert_quiet(&self) {
        assert!(
            !self.stderr.contains("warning") && !self.stderr.contains("error"),
            "unexpected diagnostics:\n{}",
            self.stderr
        );
    }
}

//! The `tilec` command-line driver (orchestration only: argument parsing, reading inputs,
//! running the stages of the other crates and rendering diagnostics).
//!
//! [`run`] executes one command line with explicit I/O streams, so tests can run the CLI in
//! process; `main.rs` calls it with the real streams.
//!
//! Exit status: 0 on success, 1 when the input was rejected with diagnostics, 2 for usage
//! errors, unreadable files and internal errors.

#![warn(missing_docs)]

mod output;
pub mod pipeline;
pub mod ptxas;
mod run;
mod tileiras;
mod translate;

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::PathBuf;
use tilec_diag::render::{Format as DiagFormat, RenderOptions};
use tilec_diag::{Diagnostic, FileId, Location, SourceMap, Span, codes};
use tilec_ir::{Module, PrintOptions};
use tilec_opt::debuginfo::RenameOptions;
use tilec_parse::ParseOptions;

/// Exit status for success.
pub const EXIT_OK: i32 = 0;
/// Exit status when the input is rejected.
pub const EXIT_DIAGNOSTICS: i32 = 1;
/// Exit status for usage and internal errors.
pub const EXIT_USAGE: i32 = 2;

/// The pass that prints the PTX backend's GPU-level IR.
const GPU_PASS: &str = "convert-to-gpu";

#[derive(Parser, Debug)]
#[command(
    name = "tilec",
    version,
    about = "tilec: parse, check, format, optimize, run and compile NVIDIA CUDA Tile IR",
    long_about = "tilec compiles CUDA Tile IR (the cuda_tile dialect, as text or Tile IR \
                  bytecode) to PTX.\n\n\
                  `tilec FILE -o OUT` compiles; the subcommands below format, optimize, \
                  check, run, explain and list.",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    compile: CompileArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Format a file, keeping its `//` comments and value names.
    Fmt(FmtArgs),
    /// Run passes (`-p canonicalize,cse,dce`) and print the result in the canonical form
    /// NVIDIA's cuda-tile-opt prints; without passes, the input in that form.
    Opt(FmtArgs),
    /// Parse and check files; print diagnostics only.
    Check(CheckArgs),
    /// Explain a diagnostic code (e.g. `tilec explain E0104`).
    Explain {
        /// The code.
        code: String,
    },
    /// List the operations tilec knows.
    Ops,
    /// Run a kernel on the CPU with the reference interpreter.
    Run(run::RunArgs),
    /// Make `DIR/tileiras` a link to tilec, so that cuTile Python compiles through tilec
    /// (tilec run as `tileiras` writes cubins with ptxas).
    InstallTileirasShim {
        /// The folder for the link (put it first on PATH).
        dir: PathBuf,
    },
}

#[derive(Args, Debug, Clone)]
struct CommonArgs {
    /// Split the input at `// -----` lines and process each chunk on its own.
    #[arg(long = "split-input-file")]
    split_input_file: bool,
    /// How to print diagnostics: human (default), mlir (`file:line:col: error: ...`) or json
    /// (one object per line, on stdout).
    #[arg(long = "diagnostic-format", value_enum, default_value_t = DiagFormatArg::Human)]
    diagnostic_format: DiagFormatArg,
    /// Accept generic operations of other dialects.
    #[arg(long = "allow-unregistered-dialect")]
    allow_unregistered_dialect: bool,
    /// Colour diagnostics (human format): auto, always or never.
    #[arg(long, value_enum, default_value_t = ColorArg::Auto)]
    color: ColorArg,
    /// Diagnostic wording: `spec` (default) or `cuda-tile-opt` (NVIDIA's wording, for lit
    /// suites written against cuda-tile-opt).
    #[arg(long, value_enum, default_value_t = CompatArg::Spec)]
    compat: CompatArg,
    /// Check the diagnostics against `// expected-error {{...}}` comments in the input
    /// (MLIR's semantics); exit 1 on any difference.
    #[arg(long = "verify-diagnostics")]
    verify_diagnostics: bool,
    /// Accepted for MLIR tools' command lines: tilec never wraps its input in an implicit
    /// module.
    #[arg(long = "no-implicit-module", hide = true)]
    no_implicit_module: bool,
    /// `-Wunsupported-hints`: report problems in `optimization_hints` as warnings (tilec's
    /// default reports them as errors, cuda-tile-opt's not at all); `-Werr-hints` with it:
    /// warnings, then the op fails.
    #[arg(short = 'W', value_name = "WARNING", action = clap::ArgAction::Append,
          value_parser = ["unsupported-hints", "err-hints"])]
    warnings: Vec<String>,
    /// With --compat=cuda-tile-opt: word messages as NVIDIA's release 13.1, 13.2 or 13.3
    /// (default 13.3) does.
    #[arg(long = "cuda-tile-release", value_name = "13.N", hide = true,
          value_parser = ["13.1", "13.2", "13.3"])]
    cuda_tile_release: Option<String>,
}

/// The 13.x release whose wording the cuda-tile-opt personality follows:
/// `--cuda-tile-release=13.N`, else `TILEC_CUDA_TILE_RELEASE` (set by tests/lit/lit.cfg.py
/// for NVIDIA's 13.1 suite), else 13.3. Its type-constraint messages list only the element
/// types that release had.
fn release_minor(c: &CommonArgs) -> Option<u8> {
    if c.compat != CompatArg::CudaTileOpt {
        return None;
    }
    let r = c
        .cuda_tile_release
        .clone()
        .or_else(|| std::env::var("TILEC_CUDA_TILE_RELEASE").ok())?;
    match r.as_str() {
        "13.1" => Some(1),
        "13.2" => Some(2),
        _ => None,
    }
}

/// How the verifier reports hint problems, from `-W` flags.
fn hint_checks(c: &CommonArgs) -> tilec_verify::HintChecks {
    let has = |w: &str| c.warnings.iter().any(|x| x == w);
    match (has("unsupported-hints"), has("err-hints")) {
        (true, true) => tilec_verify::HintChecks::WarnError,
        (true, false) => tilec_verify::HintChecks::Warn,
        (false, true) => tilec_verify::HintChecks::Error,
        (false, false) => tilec_verify::HintChecks::Default,
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum CompatArg {
    Spec,
    #[value(name = "cuda-tile-opt")]
    CudaTileOpt,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum EmitArg {
    Ptx,
    Bytecode,
    Cubin,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum DiagFormatArg {
    Human,
    Mlir,
    Json,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ColorArg {
    Auto,
    Always,
    Never,
}

#[derive(Args, Debug)]
struct CompileArgs {
    /// Input file (`-` for stdin).
    input: Option<PathBuf>,
    /// Output file (`-` for stdout).
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,
    /// Optimization level: -O0 skips the canonicalizer; -O1, -O2 and -O3 (the default)
    /// run it.
    #[arg(short = 'O', value_name = "LEVEL", value_parser = clap::value_parser!(u8).range(0..=3))]
    opt_level: Option<u8>,
    /// Warps per tile block (1, 2, 4, 8 or 16); by default chosen per kernel from its tile
    /// sizes (each kernel's `.reqntid` says how many threads it takes).
    #[arg(long = "num-warps")]
    num_warps: Option<u32>,
    /// Target architecture: sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100, sm_100a, sm_103,
    /// sm_110, sm_120, sm_120a or sm_121.
    #[arg(long = "arch", default_value = "sm_80")]
    arch: String,
    /// Use the hardware approximations for math functions (see docs/math.md).
    #[arg(long = "fast-math")]
    fast_math: bool,
    /// Write every register slot out instead of looping over elementwise pipelines
    /// (see "Streaming loops" in docs/ptx-backend.md).
    #[arg(long = "no-stream-loops")]
    no_stream_loops: bool,
    /// Shared-memory stages of pipelined K loops (1 to 6): N keeps the loads of the next
    /// N-1 K steps in flight during the tensor cores' work, 1 turns pipelining off; by
    /// default as many as fit, up to 4 (see --remarks).
    #[arg(long = "num-stages", value_parser = clap::value_parser!(u32).range(1..=6))]
    num_stages: Option<u32>,
    /// sm_90a: fill the stages of warpgroup-MMA pipelines with `cp.async` instead of the
    /// copy engine (TMA).
    #[arg(long = "no-tma")]
    no_tma: bool,
    /// sm_90a: warp-specialize the copy engine's K-loop pipelines: a producer warp
    /// (a warpgroup, with `setmaxnreg`, beside two or more MMA warpgroups) issues the
    /// copies while the MMA warpgroups consume the stages.
    #[arg(long = "warp-specialize")]
    warp_specialize: bool,
    /// sm_90 and newer: spread every kernel's tile block over a thread-block cluster of
    /// N CTAs (2, 4, 8 or 16), as a `num_cta_in_cga` hint does (which it overrides); a
    /// kernel that cannot be split stays on one CTA (see --remarks).
    #[arg(long = "num-ctas", value_parser = parse_num_ctas)]
    num_ctas: Option<u32>,
    /// Print remarks: how many stages each K loop was pipelined over, and why a loop got
    /// fewer than asked or no pipeline.
    #[arg(long = "remarks")]
    remarks: bool,
    /// Emit `.file`/`.loc` line information mapping PTX back to the source.
    #[arg(short = 'g', long = "lineinfo")]
    line_info: bool,
    /// What to write: `ptx` (default), `bytecode` (NVIDIA's Tile IR bytecode, as
    /// tileiras takes it: the verified module as written, without canonicalization), or
    /// `cubin` (the PTX assembled by NVIDIA's ptxas for `--arch`, found as `tileiras`
    /// finds it: TILEC_PTXAS, beside tilec, the nvidia-cuda-nvcc wheel, PATH, CUDA_HOME).
    #[arg(long = "emit", value_enum, default_value_t = EmitArg::Ptx)]
    emit: EmitArg,
    /// Bytecode version for `--emit=bytecode`: 13.1, 13.2 or 13.3 (default: the lowest
    /// version that can encode the module, which the most tools read).
    #[arg(long = "bytecode-version", value_name = "VERSION")]
    bytecode_version: Option<String>,
    #[command(flatten)]
    common: CommonArgs,
}

#[derive(Args, Debug)]
struct FmtArgs {
    /// Input file (`-` for stdin).
    input: PathBuf,
    /// Output file (`-` for stdout, the default).
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,
    /// Print every operation in MLIR's generic form.
    #[arg(long, alias = "mlir-print-op-generic")]
    generic: bool,
    /// Print `loc(...)` locations (with `#loc` aliases at the end).
    #[arg(long = "print-locations", alias = "mlir-print-debuginfo")]
    print_locations: bool,
    #[command(flatten)]
    passes: PassArgs,
    #[command(flatten)]
    common: CommonArgs,
}

/// Pass selection and options (`tilec opt`).
#[derive(Args, Debug, Clone)]
struct PassArgs {
    /// Passes to run, in order, comma-separated: canonicalize, cse, dce, fuse-fma (not
    /// numeric-preserving), loop-split (option: `loop-split{split-threshold=N}`), and last
    /// the GPU-level passes: convert-to-gpu (the PTX backend's GPU-level IR), which is
    /// gpu-assign-layouts, gpu-pipeline, gpu-vectorize, gpu-allocate-shared and gpu-verify
    /// in order (each may be run on its own; all but gpu-assign-layouts on GPU-level IR).
    #[arg(short = 'p', long = "passes", value_name = "PIPELINE")]
    pipeline: Vec<String>,
    /// A pass pipeline in MLIR's spelling, as cuda-tile-opt takes it:
    /// `builtin.module(cuda_tile.module(cuda_tile.entry(loop-split{split-threshold=2})))`.
    /// A pass nested in `cuda_tile.entry(...)` runs on entries only, in
    /// `cuda_tile.testing$func(...)` on testing functions only, elsewhere on every function.
    /// Passes: canonicalize, cse, dce, fuse-fma, loop-split (run after the `-p` ones).
    #[arg(long = "pass-pipeline", value_name = "PIPELINE")]
    pass_pipeline: Vec<String>,
    /// cuda-tile-opt's test pass: rename a symbol, its uses and its debug-info linkage
    /// name, after the other passes: `symbol-to-rename=MODULE::NAME scope=MODULE
    /// new-name=NEW update-uses=true`.
    #[arg(
        long = "test-debuginfo-update-symbol-name",
        value_name = "OPTIONS",
        hide = true
    )]
    rename_symbol: Option<String>,
    /// Warps per tile block for convert-to-gpu (1, 2, 4, 8 or 16); by default chosen per
    /// kernel from its tile sizes.
    #[arg(long = "num-warps")]
    num_warps: Option<u32>,
    /// The target convert-to-gpu plans for (default sm_80; sm_90a plans warpgroup MMA).
    #[arg(long = "arch")]
    arch: Option<String>,
    /// Shared-memory stages of pipelined K loops for convert-to-gpu (1 to 6; default: as
    /// many as fit, up to 4).
    #[arg(long = "num-stages", value_parser = clap::value_parser!(u32).range(1..=6))]
    num_stages: Option<u32>,
    /// sm_90a: fill the stages of warpgroup-MMA pipelines with `cp.async` instead of the
    /// copy engine (TMA).
    #[arg(long = "no-tma")]
    no_tma: bool,
    /// sm_90a: warp-specialize the copy engine's K-loop pipelines: a producer warp
    /// (a warpgroup, with `setmaxnreg`, beside two or more MMA warpgroups) issues the
    /// copies while the MMA warpgroups consume the stages.
    #[arg(long = "warp-specialize")]
    warp_specialize: bool,
    /// sm_90 and newer: spread every kernel's tile block over a thread-block cluster of
    /// N CTAs (2, 4, 8 or 16), as a `num_cta_in_cga` hint does (which it overrides); a
    /// kernel that cannot be split stays on one CTA (see --remarks).
    #[arg(long = "num-ctas", value_parser = parse_num_ctas)]
    num_ctas: Option<u32>,
    /// Run the canonicalizer (cuda-tile-opt's spelling; in command-line order with --cse/--dce).
    #[arg(long)]
    canonicalize: bool,
    /// Run common subexpression elimination.
    #[arg(long)]
    cse: bool,
    /// Run dead code elimination.
    #[arg(long)]
    dce: bool,
    /// Verify the IR after every pass (a failure is an internal error, exit 2).
    #[arg(long = "verify-each")]
    verify_each: bool,
    /// Print how often each fold, pattern and clean-up fired (on stderr).
    #[arg(long)]
    stats: bool,
    /// Rounds of the canonicalizer's greedy driver before it stops with a warning.
    #[arg(long = "max-iterations", default_value_t = 10, value_name = "N")]
    max_iterations: u32,
    /// Run only these canonicalization rules (comma-separated names, see --stats).
    #[arg(long = "enable-patterns", value_delimiter = ',', value_name = "RULES")]
    enable_patterns: Vec<String>,
    /// Do not run these canonicalization rules.
    #[arg(long = "disable-patterns", value_delimiter = ',', value_name = "RULES")]
    disable_patterns: Vec<String>,
    /// Skip the canonicalizer's expression simplifier.
    #[arg(long = "no-simplify")]
    no_simplify: bool,
}

#[derive(Args, Debug)]
struct CheckArgs {
    /// Input files (`-` for stdin).
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Stop reporting after this many errors (0: no limit).
    #[arg(long = "max-errors", default_value_t = 0)]
    max_errors: usize,
    #[command(flatten)]
    common: CommonArgs,
}

/// I/O of one run.
pub struct Io<'a> {
    /// Standard input.
    pub stdin: &'a mut dyn Read,
    /// Standard output.
    pub stdout: &'a mut dyn Write,
    /// Standard error.
    pub stderr: &'a mut dyn Write,
    /// Whether stderr is a terminal (for colour).
    pub stderr_is_tty: bool,
}

/// MLIR-style options that cuda-tile-opt users write with one dash.
const SINGLE_DASH: &[&str] = &[
    "split-input-file",
    "verify-diagnostics",
    "allow-unregistered-dialect",
    "mlir-print-op-generic",
    "mlir-print-debuginfo",
    "canonicalize",
    "cse",
    "no-implicit-module",
    "pass-pipeline",
    "test-debuginfo-update-symbol-name",
];

/// Rewrites a command line into tilec's own: one-dash MLIR options get two dashes, and a
/// binary invoked as `cuda-tile-opt` (e.g. through a symlink) runs
/// `tilec opt --compat=cuda-tile-opt ...`, which takes cuda-tile-opt's options.
fn normalize_args(args: Vec<OsString>) -> Vec<OsString> {
    let mut args: Vec<OsString> = args
        .into_iter()
        .map(|a| match a.to_str() {
            // One help text: `-h` prints what `--help` prints.
            Some("-h") => OsString::from("--help"),
            Some(s) if s.starts_with('-') && !s.starts_with("--") => {
                let name = &s[1..];
                let base = name.split('=').next().unwrap_or(name);
                if SINGLE_DASH.contains(&base) {
                    OsString::from(format!("-{s}"))
                } else {
                    a
                }
            }
            _ => a,
        })
        .collect();
    if invoked_as(&args) == "cuda-tile-opt" {
        // Like every MLIR tool: standard input when no file is named, and diagnostics in
        // MLIR's `file:line:col: error:` form.
        const TAKES_VALUE: &[&str] = &[
            "-o",
            "--output",
            "-p",
            "--passes",
            "--pass-pipeline",
            "--num-warps",
            "--num-stages",
            "--max-iterations",
            "--enable-patterns",
            "--disable-patterns",
            "--diagnostic-format",
            "--color",
            "--compat",
        ];
        let mut positional = false;
        let mut i = 1;
        while i < args.len() {
            let a = args[i].to_string_lossy();
            if a == "-" || !a.starts_with('-') {
                positional = true;
            } else if TAKES_VALUE.contains(&a.as_ref()) {
                i += 1;
            }
            i += 1;
        }
        let format_given = args
            .iter()
            .any(|a| a.to_string_lossy().starts_with("--diagnostic-format"));
        let mut extra = vec![
            OsString::from("opt"),
            OsString::from("--compat=cuda-tile-opt"),
        ];
        if !format_given {
            extra.push(OsString::from("--diagnostic-format=mlir"));
        }
        args.splice(1..1, extra);
        if !positional {
            args.push(OsString::from("-"));
        }
    }
    args
}

/// The whole process: runs [`run`] with the process's streams and exits with its status.
/// A panic is an internal error: reported with exit status 2 instead of the default
/// abort message. Both binaries (`tilec`, and `tileiras` of the Python wheel) are this.
pub fn process_main(args: Vec<OsString>) -> ! {
    use std::io::IsTerminal;
    std::panic::set_hook(Box::new(|info| {
        eprintln!("tilec: internal error: {info}");
        eprintln!("tilec: this is a bug in tilec; please report it with the input that caused it");
        if std::env::var_os("RUST_BACKTRACE").is_some_and(|v| v != "0") {
            eprintln!("{}", std::backtrace::Backtrace::force_capture());
        }
    }));
    let status = std::panic::catch_unwind(|| {
        let stdin = std::io::stdin();
        let stdout = std::io::stdout();
        let stderr = std::io::stderr();
        let is_tty = stderr.is_terminal();
        let mut stdin = stdin.lock();
        let mut stdout = std::io::BufWriter::new(stdout.lock());
        let mut stderr = stderr.lock();
        let mut io = Io {
            stdin: &mut stdin,
            stdout: &mut stdout,
            stderr: &mut stderr,
            stderr_is_tty: is_tty,
        };
        let status = run(args, &mut io);
        let _ = stdout.flush();
        status
    })
    .unwrap_or(EXIT_USAGE);
    std::process::exit(status);
}

/// Runs a command line (`args[0]` is the program name). Returns the exit status.
pub fn run(args: Vec<OsString>, io: &mut Io<'_>) -> i32 {
    match invoked_as(&args) {
        "cuda-tile-translate" => return with_tracked_stdout(io, |io| translate::run(args, io)),
        "tileiras" => return with_tracked_stdout(io, |io| tileiras::run(args, io)),
        _ => {}
    }
    let args = normalize_args(args);
    let pass_flags: Vec<tilec_opt::Pass> = args
        .iter()
        .filter_map(|a| match a.to_str() {
            Some("--canonicalize") => Some(tilec_opt::Pass::Canonicalize),
            Some("--cse") => Some(tilec_opt::Pass::Cse),
            Some("--dce") => Some(tilec_opt::Pass::Dce),
            _ => None,
        })
        .collect();
    let cli = match Cli::try_parse_from(&args) {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { EXIT_OK };
            let text = e.render().to_string();
            if e.use_stderr() {
                let _ = io.stderr.write_all(text.as_bytes());
            } else {
                let _ = io.stdout.write_all(text.as_bytes());
            }
            return code;
        }
    };
    with_tracked_stdout(io, |io| {
        let mut d = Driver::new(io);
        match cli.command {
            Some(Command::Fmt(a)) => d.fmt(a, &pass_flags, true),
            Some(Command::Opt(a)) => d.fmt(a, &pass_flags, false),
            Some(Command::Check(a)) => d.check(a),
            Some(Command::Explain { code }) => d.explain(&code),
            Some(Command::Ops) => d.list_ops(),
            Some(Command::Run(a)) => d.run_kernel(a),
            Some(Command::InstallTileirasShim { dir }) => tileiras::install_shim(&dir, d.io),
            None => d.compile(cli.compile),
        }
    })
}

/// The name the binary was run as (`tilec`, or a personality through a link).
fn invoked_as(args: &[OsString]) -> &str {
    args.first()
        .map(std::path::Path::new)
        .and_then(|p| p.file_stem())
        .and_then(|s| s.to_str())
        .unwrap_or("")
}

/// Runs `f` with a standard output that remembers its first write error: a failed write
/// (a full disk, a closed pipe) is then exit status 2 with a message, never a silent 0,
/// even where the text was written with `let _ =`.
fn with_tracked_stdout(io: &mut Io<'_>, f: impl FnOnce(&mut Io<'_>) -> i32) -> i32 {
    let mut stdout = Tracked {
        inner: &mut *io.stdout,
        error: None,
    };
    let mut tracked_io = Io {
        stdin: &mut *io.stdin,
        stdout: &mut stdout,
        stderr: &mut *io.stderr,
        stderr_is_tty: io.stderr_is_tty,
    };
    let status = f(&mut tracked_io);
    let _ = stdout.flush();
    match stdout.error {
        Some(e) => {
            let _ = writeln!(
                io.stderr,
                "tilec: error: cannot write to standard output: {e}"
            );
            EXIT_USAGE
        }
        None => status,
    }
}

/// A writer that remembers the first error its inner writer returned.
struct Tracked<'a> {
    inner: &'a mut dyn Write,
    error: Option<std::io::Error>,
}

impl Tracked<'_> {
    fn note<T>(&mut self, r: std::io::Result<T>) -> std::io::Result<T> {
        if let Err(e) = &r
            && self.error.is_none()
        {
            self.error = Some(std::io::Error::new(e.kind(), e.to_string()));
        }
        r
    }
}

impl Write for Tracked<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let r = self.inner.write(buf);
        self.note(r)
    }
    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        let r = self.inner.write_all(buf);
        self.note(r)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        let r = self.inner.flush();
        self.note(r)
    }
}

fn personality(c: &CommonArgs) -> tilec_verify::Personality {
    match c.compat {
        CompatArg::Spec => tilec_verify::Personality::Spec,
        CompatArg::CudaTileOpt => tilec_verify::Personality::CudaTileOpt,
    }
}

struct Driver<'a, 'b> {
    io: &'a mut Io<'b>,
    sources: SourceMap,
    render: RenderOptions,
    errors: usize,
    /// Errors beyond this many are not printed (0: no limit).
    max_errors: usize,
    /// Errors not printed because of `max_errors`.
    suppressed: usize,
    /// Parse with the source's value names and comments (`tilec fmt`).
    keep_trivia: bool,
    /// For each bytecode input, the source position its debug info gives each op: what a
    /// diagnostic at that op names as its source (a Python line, for cuTile's bytecode).
    debug_locs: std::collections::HashMap<FileId, DebugLocs>,
}

/// The debug-info source positions of a bytecode file's ops: (the byte offset of the
/// op's encoding, sorted; the file's index in `files`; line; column).
#[derive(Default)]
struct DebugLocs {
    files: Vec<String>,
    ops: Vec<(u32, usize, u32, u32)>,
}

/// A loaded input: its file id and text.
struct Input {
    file: FileId,
    /// The raw bytes of a Tile IR bytecode input (recognised by its magic number).
    bytecode: Option<Vec<u8>>,
}

/// Verifies a module: the module if it has no error, and the diagnostics either way. A
/// module in the GPU-level IR (`tilec opt -p convert-to-gpu` output, read back) is checked
/// by the backend's GPU-level verifier instead.
fn verified(m: Module, opts: &tilec_verify::VerifyOptions) -> (Option<Module>, Vec<Diagnostic>) {
    let d = if tilec_ptx::is_gpu_level(&m) {
        tilec_ptx::verify_gpu_input(&m)
    } else {
        tilec_verify::verify(&m, opts)
    };
    let ok = !d.iter().any(Diagnostic::is_error);
    (ok.then_some(m), d)
}

impl<'a, 'b> Driver<'a, 'b> {
    fn new(io: &'a mut Io<'b>) -> Self {
        Driver {
            io,
            sources: SourceMap::new(),
            render: RenderOptions::default(),
            errors: 0,
            debug_locs: std::collections::HashMap::new(),
            max_errors: 0,
            suppressed: 0,
            keep_trivia: false,
        }
    }

    fn configure(&mut self, c: &CommonArgs) {
        self.render.format = match c.diagnostic_format {
            DiagFormatArg::Human => DiagFormat::Human,
            DiagFormatArg::Mlir => DiagFormat::Mlir,
            DiagFormatArg::Json => DiagFormat::Json,
        };
        self.render.color = match c.color {
            ColorArg::Always => true,
            ColorArg::Never => false,
            ColorArg::Auto => self.io.stderr_is_tty && std::env::var_os("NO_COLOR").is_none(),
        };
    }

    fn usage_error(&mut self, msg: &str) -> i32 {
        let _ = writeln!(self.io.stderr, "tilec: error: {msg}");
        EXIT_USAGE
    }

    fn emit(&mut self, d: &Diagnostic) {
        if d.is_error() {
            self.errors += 1;
            if self.max_errors > 0 && self.errors > self.max_errors {
                self.suppressed += 1;
                return;
            }
        } else if self.max_errors > 0 && self.errors > self.max_errors {
            return;
        }
        let with_source;
        let d = match self.debug_source(d) {
            Some(source) => {
                with_source = d.clone().with_note(
                    format!("at {source} (the source position in the bytecode's debug info)"),
                    None,
                );
                &with_source
            }
            None => d,
        };
        let text = tilec_diag::render::render(&self.sources, d, self.render);
        let out: &mut dyn Write = if self.render.format == DiagFormat::Json {
            &mut *self.io.stdout
        } else {
            &mut *self.io.stderr
        };
        let _ = out.write_all(text.as_bytes());
    }

    /// The source position the bytecode's debug info gives the op diagnostic `d` is at
    /// (`file:line:col`), when it is at an op of a bytecode input that has one.
    fn debug_source(&self, d: &Diagnostic) -> Option<String> {
        let loc = d.location?;
        let locs = self.debug_locs.get(&loc.file)?;
        let i = locs
            .ops
            .binary_search_by_key(&loc.span.start, |o| o.0)
            .ok()?;
        let (_, f, line, col) = locs.ops[i];
        Some(format!("{}:{line}:{col}", locs.files[f]))
    }

    /// Records the debug-info source positions of the ops of `m`, read from bytecode
    /// input `file` ([`Self::debug_source`]).
    fn record_debug_locs(&mut self, file: FileId, m: &Module) {
        let mut locs = DebugLocs::default();
        m.walk(|op| {
            let at = m.op_span(op).map(|s| s.start);
            let source = m.op_loc(op).and_then(|l| tileiras::file_line_col(m, l));
            if let (Some(at), Some((f, line, col))) = (at, source) {
                let fi = match locs.files.iter().position(|x| *x == f) {
                    Some(i) => i,
                    None => {
                        locs.files.push(f);
                        locs.files.len() - 1
                    }
                };
                locs.ops.push((at, fi, line, col));
            }
        });
        locs.ops.sort_unstable();
        locs.ops.dedup_by_key(|o| o.0);
        if !locs.ops.is_empty() {
            self.debug_locs.insert(file, locs);
        }
    }

    /// Reads an input file into the source map. Unreadable files are usage errors
    /// (`Err(exit status)`); invalid UTF-8 is a located diagnostic.
    fn load(&mut self, path: &std::path::Path) -> Result<Input, i32> {
        let (name, bytes) = if path.as_os_str() == "-" {
            let mut buf = Vec::new();
            if let Err(e) = self.io.stdin.read_to_end(&mut buf) {
                return Err(self.usage_error(&format!("cannot read standard input: {e}")));
            }
            ("<stdin>".to_string(), buf)
        } else {
            match std::fs::read(path) {
                Ok(b) => (path.display().to_string(), b),
                Err(e) => {
                    return Err(self.usage_error(&format!("cannot read '{}': {e}", path.display())));
                }
            }
        };
        if tilec_bytecode::is_bytecode(&bytes) {
            return Ok(Input {
                file: self.sources.add_binary(name),
                bytecode: Some(bytes),
            });
        }
        match String::from_utf8(bytes) {
            Ok(text) => Ok(Input {
                file: self.sources.add(name, text),
                bytecode: None,
            }),
            Err(e) => {
                let bad = e.utf8_error().valid_up_to();
                let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
                // The offset of the first invalid byte in the lossy text equals `bad`.
                let file = self.sources.add(name, text);
                let d = Diagnostic::error(codes::INPUT, "input is not valid UTF-8")
                    .at(Location::new(file, Span::new(bad as u32, bad as u32 + 1)));
                self.emit(&d);
                Err(EXIT_DIAGNOSTICS)
            }
        }
    }

    /// Parses and verifies an input (all chunks when splitting) and returns the modules of
    /// the chunks that are valid; diagnostics of the others are emitted. With
    /// `--verify-diagnostics`, each chunk's diagnostics are compared with its `expected-*`
    /// comments instead, and only the differences are emitted.
    fn parse(&mut self, input: &Input, common: &CommonArgs) -> Vec<Option<Module>> {
        self.parse_then(input, common, &|_| Vec::new())
    }

    /// [`Self::parse`], then `after` on each valid chunk (text input): its diagnostics
    /// join the chunk's, so that `--verify-diagnostics` checks those too (the bytecode
    /// writer's, for `cuda-tile-translate -mlir-to-cudatilebc -verify-diagnostics`).
    fn parse_then(
        &mut self,
        input: &Input,
        common: &CommonArgs,
        after: &dyn Fn(&Module) -> Vec<tilec_diag::Diagnostic>,
    ) -> Vec<Option<Module>> {
        let opts = ParseOptions {
            allow_unregistered: common.allow_unregistered_dialect,
            keep_trivia: self.keep_trivia,
            release_minor: release_minor(common),
        };
        let vopts = tilec_verify::VerifyOptions {
            personality: personality(common),
            hints: hint_checks(common),
            release_minor: release_minor(common),
        };
        let mut out = Vec::new();
        let mut diags = Vec::new();
        if let Some(bytes) = &input.bytecode {
            // A bytecode file is one module; located diagnostics give byte offsets.
            let ropts = tilec_bytecode::ReadOptions {
                nvidia: common.compat == CompatArg::CudaTileOpt,
            };
            match tilec_bytecode::read_with(bytes, input.file, ropts) {
                Ok(m) => {
                    self.record_debug_locs(input.file, &m);
                    let (m, d) = verified(m, &vopts);
                    diags.extend(d);
                    out.push(m);
                }
                Err(d) => {
                    diags.push(d);
                    out.push(None);
                }
            }
            for d in &diags {
                self.emit(d);
            }
            return out;
        }
        {
            // Borrow the text (no copy: inputs can be large); emit afterwards.
            let file = self.sources.get(input.file);
            let text = file.text();
            let chunks = if common.split_input_file {
                tilec_parse::split_input(text)
            } else {
                std::iter::once(0..text.len()).collect()
            };
            for c in chunks {
                let (module, mut chunk_diags) =
                    match tilec_parse::parse_range(text, c.start, c.end, input.file, &opts) {
                        Ok(m) => verified(m, &vopts),
                        Err(d) => (None, d),
                    };
                if let Some(m) = &module {
                    chunk_diags.extend(after(m));
                }
                if common.verify_diagnostics {
                    diags.extend(tilec_diag::expect::verify(
                        file,
                        input.file,
                        c.clone(),
                        &chunk_diags,
                    ));
                } else {
                    diags.extend(chunk_diags);
                }
                out.push(module);
            }
        }
        for d in &diags {
            self.emit(d);
        }
        out
    }

    fn status(&self) -> i32 {
        if self.errors > 0 {
            EXIT_DIAGNOSTICS
        } else {
            EXIT_OK
        }
    }

    /// The passes and options a command line asks for (`-p` pipelines first, then
    /// `--pass-pipeline`s, then the `--canonicalize`/`--cse`/`--dce` flags in command-line
    /// order), and the GPU-level passes that end them (convert-to-gpu: all of them).
    fn pass_setup(
        &mut self,
        a: &PassArgs,
        flags: &[tilec_opt::Pass],
        common: &CommonArgs,
    ) -> Result<
        (
            Vec<tilec_opt::Step>,
            tilec_opt::PassOptions,
            Vec<tilec_ptx::GpuPass>,
        ),
        i32,
    > {
        let mut items = Vec::new();
        for text in a.pipeline.iter().chain(&a.pass_pipeline) {
            match tilec_opt::parse_pipeline_items(text) {
                Ok(i) => items.extend(i),
                Err(e) => return Err(self.usage_error(&e)),
            }
        }
        let mut passes = Vec::new();
        let mut gpu: Vec<tilec_ptx::GpuPass> = Vec::new();
        // The last GPU-level pass as written (convert-to-gpu or one of its passes).
        let mut last_gpu: Option<String> = None;
        for item in items {
            if let Some(g) = tilec_ptx::GpuPass::from_name(&item.name) {
                last_gpu = Some(item.name.clone());
                if item.anchor != tilec_opt::Anchor::Functions || !item.options.is_empty() {
                    return Err(self.usage_error(&format!(
                        "{} runs on the whole module and takes no options",
                        item.name
                    )));
                }
                gpu.extend(g);
                continue;
            }
            if let Some(last) = &last_gpu {
                return Err(self.usage_error(&format!(
                    "{} runs on tile IR and cannot follow {last} (its output is the GPU-level IR)",
                    item.name
                )));
            }
            match tilec_opt::Pass::from_name(&item.name, &item.options) {
                Ok(pass) => passes.push(tilec_opt::Step {
                    pass,
                    anchor: item.anchor,
                }),
                Err(e) => {
                    let e = if e.starts_with("unknown pass") {
                        let gpu_passes: Vec<&str> =
                            tilec_ptx::GpuPass::ALL.iter().map(|p| p.name()).collect();
                        format!(
                            "{}, {GPU_PASS}, {})",
                            e.trim_end_matches(')'),
                            gpu_passes.join(", ")
                        )
                    } else {
                        e
                    };
                    return Err(self.usage_error(&e));
                }
            }
        }
        if let (Some(last), Some(flag)) = (&last_gpu, flags.first()) {
            return Err(self.usage_error(&format!(
                "{} runs on tile IR and cannot follow {last} (its output is the GPU-level IR)",
                flag.name()
            )));
        }
        passes.extend(flags.iter().map(|&pass| tilec_opt::Step {
            pass,
            anchor: tilec_opt::Anchor::Functions,
        }));
        let rules = |names: &[String]| -> Result<Vec<tilec_opt::Rule>, String> {
            names
                .iter()
                .map(|n| {
                    tilec_opt::Rule::from_name(n.trim()).ok_or_else(|| {
                        let known: Vec<&str> =
                            tilec_opt::Rule::ALL.iter().map(|r| r.name()).collect();
                        format!(
                            "unknown canonicalization rule '{n}' (known rules: {})",
                            known.join(", ")
                        )
                    })
                })
                .collect()
        };
        let enabled = match rules(&a.enable_patterns) {
            Ok(r) => (!r.is_empty()).then_some(r),
            Err(e) => return Err(self.usage_error(&e)),
        };
        let disabled = match rules(&a.disable_patterns) {
            Ok(r) => r,
            Err(e) => return Err(self.usage_error(&e)),
        };
        let opts = tilec_opt::PassOptions {
            canon: tilec_opt::CanonOptions {
                personality: personality(common),
                max_iterations: a.max_iterations,
                enabled,
                disabled,
                simplify: !a.no_simplify,
                release_minor: release_minor(common),
            },
            verify_each: a.verify_each,
        };
        Ok((passes, opts, gpu))
    }

    /// Runs passes over the valid modules; returns false if a pass failed (internal error).
    fn run_passes(
        &mut self,
        modules: &mut [Option<Module>],
        passes: &[tilec_opt::Step],
        opts: &tilec_opt::PassOptions,
        stats: &mut tilec_opt::Stats,
    ) -> bool {
        let mut ok = true;
        for m in modules.iter_mut().flatten() {
            let diags = tilec_opt::run_steps(m, passes, opts, stats);
            for d in &diags {
                self.emit(d);
                if d.is_error() {
                    ok = false;
                }
            }
        }
        ok
    }

    /// `tilec fmt` (`as_written`: keep the source's value names and comments) and `tilec
    /// opt` (NVIDIA's canonical form).
    fn fmt(&mut self, a: FmtArgs, flags: &[tilec_opt::Pass], as_written: bool) -> i32 {
        self.keep_trivia = as_written;
        self.configure(&a.common);
        let (passes, pass_opts, gpu) = match self.pass_setup(&a.passes, flags, &a.common) {
            Ok(x) => x,
            Err(code) => return code,
        };
        if let Err(code) = self.not_over_input(&a.input, a.output.as_deref()) {
            return code;
        }
        let rename = match a.passes.rename_symbol.as_deref().map(RenameOptions::parse) {
            None => None,
            Some(Ok(o)) => Some(o),
            Some(Err(e)) => {
                return self.usage_error(&format!("--test-debuginfo-update-symbol-name: {e}"));
            }
        };
        let input = match self.load(&a.input) {
            Ok(i) => i,
            Err(code) => return code,
        };
        // The rename's diagnostics join each chunk's (for --verify-diagnostics); it is
        // applied to the modules after the other passes.
        let mut modules = match &rename {
            Some(o) => self.parse_then(&input, &a.common, &|m| {
                tilec_opt::debuginfo::update_symbol_name(&mut m.clone(), o)
            }),
            None => self.parse(&input, &a.common),
        };
        // GPU-level IR read back: printed as it stands, or through the GPU-level passes
        // after gpu-assign-layouts; the other passes work on tile IR.
        let gpu_input = modules.iter().flatten().any(tilec_ptx::is_gpu_level);
        let assign = gpu.first() == Some(&tilec_ptx::GpuPass::AssignLayouts);
        if gpu_input && (!passes.is_empty() || assign) {
            let what = if passes.is_empty() {
                tilec_ptx::GpuPass::AssignLayouts.name()
            } else {
                passes[0].pass.name()
            };
            return self.usage_error(&format!(
                "the input is GPU-level IR (the output of convert-to-gpu): {what} runs on tile IR"
            ));
        }
        if !gpu_input && let Some(first) = gpu.first().filter(|_| !assign) {
            return self.usage_error(&format!(
                "{} runs on GPU-level IR: the input is tile IR (start with {} or convert-to-gpu)",
                first.name(),
                tilec_ptx::GpuPass::AssignLayouts.name()
            ));
        }
        if let Some(p) = gpu
            .iter()
            .skip(1)
            .find(|p| **p == tilec_ptx::GpuPass::AssignLayouts)
        {
            return self.usage_error(&format!(
                "{} runs on tile IR and cannot follow another GPU-level pass",
                p.name()
            ));
        }
        if self.errors == 0 && !passes.is_empty() {
            let mut stats = tilec_opt::Stats::default();
            if !self.run_passes(&mut modules, &passes, &pass_opts, &mut stats) {
                return EXIT_USAGE;
            }
            if a.passes.stats {
                let _ = write!(
                    self.io.stderr,
                    "tilec: pass statistics ({}; canonicalizer rounds: {}):\n{}",
                    passes
                        .iter()
                        .map(|p| p.pass.name())
                        .collect::<Vec<_>>()
                        .join(","),
                    stats.iterations,
                    stats.render()
                );
            }
        }
        if let Some(o) = &rename {
            // Reported when parsing; a module whose rename failed is not printed (as a
            // failed pass prints nothing).
            for slot in modules.iter_mut() {
                if let Some(m) = slot
                    && tilec_opt::debuginfo::update_symbol_name(m, o)
                        .iter()
                        .any(tilec_diag::Diagnostic::is_error)
                {
                    *slot = None;
                }
            }
        }
        if self.errors > 0 {
            return EXIT_DIAGNOSTICS;
        }
        let mut headers = vec![String::new(); modules.len()];
        if gpu_input && gpu.is_empty() {
            for (m, header) in modules.iter_mut().zip(headers.iter_mut()) {
                if let Some(m) = m {
                    *header = tilec_ptx::set_gpu_aliases(m);
                }
            }
        }
        if !gpu.is_empty() {
            if let Some(w) = a
                .passes
                .num_warps
                .filter(|w| !matches!(w, 1 | 2 | 4 | 8 | 16))
            {
                return self
                    .usage_error(&format!("--num-warps must be 1, 2, 4, 8 or 16 (got {w})"));
            }
            let arch = match a.passes.arch.as_deref().map(tilec_ptx::Arch::from_name) {
                None => tilec_ptx::Arch::Sm80,
                Some(Some(arch)) => arch,
                Some(None) => {
                    return self.usage_error(&format!(
                        "unknown architecture '{}' (known: {})",
                        a.passes.arch.as_deref().unwrap_or_default(),
                        tilec_ptx::Arch::names()
                    ));
                }
            };
            if assign {
                for m in modules.iter().flatten() {
                    for d in tilec_ptx::check_limits(m) {
                        self.emit(&d);
                    }
                }
                if self.errors > 0 {
                    return EXIT_DIAGNOSTICS;
                }
            }
            for (m, header) in modules.iter_mut().zip(headers.iter_mut()) {
                let Some(m) = m else { continue };
                // GPU-level input: the warps its layouts were made for.
                let popts = tilec_ptx::Options {
                    num_warps: if gpu_input {
                        tilec_ptx::gpu_num_warps(m)
                    } else {
                        a.passes.num_warps.unwrap_or(4)
                    },
                    choose_warps: !gpu_input && a.passes.num_warps.is_none(),
                    num_stages: a.passes.num_stages,
                    tma: !a.passes.no_tma,
                    warp_specialize: a.passes.warp_specialize,
                    num_ctas: a.passes.num_ctas,
                    arch,
                    ..tilec_ptx::Options::default()
                };
                for p in &gpu {
                    if let Err(errors) = p.run(m, &popts) {
                        for e in errors {
                            let _ = writeln!(
                                self.io.stderr,
                                "tilec: internal error: invalid GPU-level IR after {}: {}",
                                p.name(),
                                e.message
                            );
                        }
                        return EXIT_USAGE;
                    }
                }
                *header = tilec_ptx::set_gpu_aliases(m);
            }
        }
        let opts = PrintOptions {
            as_written,
            generic: a.generic,
            locations: a.print_locations,
            // The GPU-level ops are printed in their custom form as they stand.
            assume_verified: !gpu.is_empty() || gpu_input,
        };
        // Stream the text out: a big module is never held in memory as text.
        let modules: Vec<(&tilec_ir::Module, &String)> = modules
            .iter()
            .zip(&headers)
            .filter_map(|(m, h)| m.as_ref().map(|m| (m, h)))
            .collect();
        let write_all = |w: &mut dyn Write| -> std::io::Result<()> {
            for (i, (m, header)) in modules.iter().enumerate() {
                if i > 0 {
                    w.write_all(b"// -----\n")?;
                }
                w.write_all(header.as_bytes())?;
                tilec_ir::print_module_to(m, &opts, w)?;
            }
            w.flush()
        };
        let result = match a.output.as_deref() {
            Some(p) if p.as_os_str() != "-" => output::write_with(p, write_all),
            _ => write_all(&mut *self.io.stdout),
        };
        self.written(result, a.output.as_deref())
    }

    /// Refuses an output that is the input file itself (same device and inode, through
    /// links): writing it would destroy the source.
    fn not_over_input(
        &mut self,
        input: &std::path::Path,
        output: Option<&std::path::Path>,
    ) -> Result<(), i32> {
        match output {
            Some(out) if output::same_file(input, out) => Err(self.usage_error(&format!(
                "the output '{}' is the input file '{}'; refusing to overwrite it",
                out.display(),
                input.display()
            ))),
            _ => Ok(()),
        }
    }

    /// The exit status after writing an output: 0, or a usage error naming the file.
    fn written(&mut self, result: std::io::Result<()>, output: Option<&std::path::Path>) -> i32 {
        match result {
            Ok(()) => EXIT_OK,
            Err(e) => {
                let what = output.map_or("-".into(), |p| p.display().to_string());
                self.usage_error(&format!("cannot write '{what}': {e}"))
            }
        }
    }

    fn check(&mut self, a: CheckArgs) -> i32 {
        self.configure(&a.common);
        self.max_errors = a.max_errors;
        let mut status = EXIT_OK;
        let (mut failed, mut unreadable) = (0usize, 0usize);
        for path in &a.inputs {
            let before = self.errors;
            match self.load(path) {
                Ok(input) => {
                    self.parse(&input, &a.common);
                }
                Err(code) => {
                    status = status.max(code);
                    unreadable += 1;
                }
            }
            if self.errors > before {
                failed += 1;
            }
        }
        if self.suppressed > 0 {
            let _ = writeln!(
                self.io.stderr,
                "tilec: {} more error(s) not shown (--max-errors {})",
                self.suppressed, self.max_errors
            );
        }
        // Several files end with a count, so that a CI log says how it went at the end.
        let n = a.inputs.len();
        if n > 1 && !a.common.verify_diagnostics {
            let ok = n - failed - unreadable;
            let mut line = format!(
                "tilec check: {n} files, {ok} clean, {failed} with errors ({} error{})",
                self.errors,
                if self.errors == 1 { "" } else { "s" }
            );
            if unreadable > 0 {
                line.push_str(&format!(", {unreadable} unreadable"));
            }
            let _ = writeln!(self.io.stderr, "{line}");
        }
        status.max(self.status())
    }

    fn compile(&mut self, a: CompileArgs) -> i32 {
        self.configure(&a.common);
        let Some(path) = a.input.clone() else {
            return self.usage_error("no input file (try `tilec --help`)");
        };
        if let Err(code) = self.not_over_input(&path, a.output.as_deref()) {
            return code;
        }
        let input = match self.load(&path) {
            Ok(i) => i,
            Err(code) => return code,
        };
        let modules = self.parse(&input, &a.common);
        if self.errors > 0 {
            return EXIT_DIAGNOSTICS;
        }
        if a.emit == EmitArg::Bytecode {
            return self.emit_bytecode(&a, &modules);
        }
        let Some(arch) = tilec_ptx::Arch::from_name(&a.arch) else {
            return self.usage_error(&format!(
                "unknown architecture '{}' (known: {})",
                a.arch,
                tilec_ptx::Arch::names()
            ));
        };
        if let Some(w) = a.num_warps.filter(|w| !matches!(w, 1 | 2 | 4 | 8 | 16)) {
            return self.usage_error(&format!("--num-warps must be 1, 2, 4, 8 or 16 (got {w})"));
        }
        let name = if path.as_os_str() == "-" {
            "<stdin>".to_string()
        } else {
            path.display().to_string()
        };
        let all: Vec<Module> = modules.into_iter().flatten().collect();
        let lowers = |m: &Module| {
            let mut any = false;
            m.walk(|op| {
                any |= matches!(
                    m.opcode(op),
                    tilec_ir::Opcode::Entry | tilec_ir::Opcode::TestingFunc
                );
            });
            any
        };
        if !all.iter().any(lowers) {
            // A PTX file without a kernel or function is a mistake (an empty file, an
            // empty module): say so rather than write it.
            let mut at = Span::at(0);
            if let Some(m) = all.first() {
                let mut first = None;
                m.walk(|op| {
                    first = first.or(Some(op));
                });
                at = first.and_then(|op| m.op_span(op)).unwrap_or(at);
            }
            let d = Diagnostic::error(
                codes::PTX_LOWERING,
                "the input has no `entry` to compile: a PTX module holds kernels (`entry @name(...) { ... }`)",
            )
            .at(Location::new(input.file, at));
            self.emit(&d);
            return EXIT_DIAGNOSTICS;
        }
        // The rest of the way through the one pipeline (crate::pipeline): canonicalize
        // (`-O0` skips it; GPU-level IR input goes straight to the writer, with the warps
        // its layouts were made for), convert to the GPU-level IR, write PTX.
        let opts = pipeline::Options {
            canonicalize: a.opt_level != Some(0),
            passes: tilec_opt::PassOptions {
                canon: tilec_opt::CanonOptions {
                    personality: personality(&a.common),
                    ..tilec_opt::CanonOptions::default()
                },
                verify_each: false,
            },
            ptx: tilec_ptx::Options {
                arch,
                num_warps: a.num_warps.unwrap_or(4),
                choose_warps: a.num_warps.is_none(),
                fast_math: a.fast_math,
                line_info: a.line_info,
                file_name: name,
                unroll: a.no_stream_loops,
                num_stages: a.num_stages,
                tma: !a.no_tma,
                warp_specialize: a.warp_specialize,
                num_ctas: a.num_ctas,
                // A cubin cannot carry PTX's `// tilec.dynamic_smem` line: its shared
                // memory is static, so that the cubin says how much (above 48 KiB on
                // sm_90a/sm_100a/sm_120a, which a launcher opts in to, as cuTile's does).
                dynamic_smem: a.emit != EmitArg::Cubin,
                static_opt_in: a.emit == EmitArg::Cubin,
            },
            ..pipeline::Options::default()
        };
        let text = self.sources.get(input.file).text().to_string();
        let mut timings = pipeline::Timings::default();
        let ptx = match pipeline::back(all, Some(&text), &opts, &mut timings) {
            Ok(c) => {
                for d in &c.warnings {
                    self.emit(d);
                }
                if a.remarks {
                    for d in &c.remarks {
                        self.emit(d);
                    }
                }
                c.ptx
            }
            Err(f) => {
                for d in &f.diagnostics {
                    self.emit(d);
                }
                // Invalid GPU-level IR, or a canonicalizer error, is a bug in tilec, not in
                // the input.
                if f.stage == pipeline::Stage::Canonicalize
                    || f.diagnostics
                        .iter()
                        .any(|d| d.code == codes::GPU_INVALID_IR)
                {
                    return EXIT_USAGE;
                }
                if self.errors == 0 {
                    return EXIT_DIAGNOSTICS;
                }
                String::new()
            }
        };
        if self.errors > 0 {
            return EXIT_DIAGNOSTICS;
        }
        let bytes = match a.emit {
            EmitArg::Cubin => match tileiras::assemble(&ptx, arch, a.line_info) {
                Ok((cubin, report)) => {
                    for w in tileiras::spill_warnings(&report, arch.name()) {
                        let _ = writeln!(self.io.stderr, "{w}");
                    }
                    cubin
                }
                Err(e) => {
                    let _ = writeln!(self.io.stderr, "error: {}", e.message());
                    return EXIT_USAGE;
                }
            },
            EmitArg::Ptx | EmitArg::Bytecode => ptx.into_bytes(),
        };
        let result = match a.output.as_deref() {
            Some(p) if p.as_os_str() != "-" => output::write_file(p, &bytes),
            _ => self.io.stdout.write_all(&bytes),
        };
        self.written(result, a.output.as_deref())
    }

    /// `--emit=bytecode`: writes the one verified module as Tile IR bytecode.
    fn emit_bytecode(&mut self, a: &CompileArgs, modules: &[Option<Module>]) -> i32 {
        let version = match a.bytecode_version.as_deref() {
            None => None,
            Some(v) => match tilec_bytecode::Version::parse(v) {
                Some(v) => Some(v),
                None => {
                    return self.usage_error(&format!(
                        "unsupported bytecode version '{v}' (tilec writes 13.1, 13.2 and 13.3)"
                    ));
                }
            },
        };
        let [Some(m)] = modules else {
            return self
                .usage_error("--emit=bytecode writes one module; the input has several chunks");
        };
        let Some(bytes) = self.bytecode_of(m, version) else {
            return EXIT_DIAGNOSTICS;
        };
        let result = match a.output.as_deref() {
            Some(p) if p.as_os_str() != "-" => output::write_file(p, &bytes),
            _ => self.io.stdout.write_all(&bytes),
        };
        self.written(result, a.output.as_deref())
    }

    /// `m` as Tile IR bytecode of `version` (default: the lowest that can encode it), or
    /// `None` after emitting why it cannot be written.
    fn bytecode_of(
        &mut self,
        m: &Module,
        version: Option<tilec_bytecode::Version>,
    ) -> Option<Vec<u8>> {
        let version = version.unwrap_or_else(|| tilec_bytecode::lowest_version(m));
        match tilec_bytecode::write(m, version) {
            Ok(b) => Some(b),
            Err(diags) => {
                for d in &diags {
                    self.emit(d);
                }
                None
            }
        }
    }

    fn explain(&mut self, code: &str) -> i32 {
        match codes::lookup(&code.to_ascii_uppercase()) {
            Some(info) => {
                let _ = self.io.stdout.write_all(codes::explain(info).as_bytes());
                EXIT_OK
            }
            None => self.usage_error(&format!("unknown diagnostic code '{code}'")),
        }
    }

    fn list_ops(&mut self) -> i32 {
        for d in tilec_ir::ops::all() {
            if d.opcode == tilec_ir::Opcode::Unregistered {
                continue;
            }
            let aliases = if d.aliases.is_empty() {
                String::new()
            } else {
                format!(" (alias: {})", d.aliases.join(", "))
            };
            let _ = writeln!(
                self.io.stdout,
                "cuda_tile.{}{} [{:?}, since {}]: {}",
                d.name, aliases, d.family, d.since, d.summary
            );
        }
        EXIT_OK
    }
}

/// `--num-ctas`: a cluster of 2, 4, 8 or 16 CTAs.
fn parse_num_ctas(s: &str) -> Result<u32, String> {
    match s.parse::<u32>() {
        Ok(n @ (2 | 4 | 8 | 16)) => Ok(n),
        _ => Err(format!("'{s}' is not 2, 4, 8 or 16")),
    }
}

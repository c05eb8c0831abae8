//! The `tileiras` personality: tilec run under that name (`tilec install-tileiras-shim
//! DIR` makes the link) takes the command lines cuTile Python gives NVIDIA's tileiras and
//! writes a cubin: Tile IR (bytecode, or text) -> verified -> canonicalized -> PTX ->
//! ptxas -> cubin.
//!
//! `tileiras INPUT -o OUT.cubin --gpu-name sm_NN [-O0..-O3] [--lineinfo] [--device-debug]
//! [--preview=FEATURE]... [-l LIB]... [--remark-format=yaml --remarks=all
//! --remarks-output-file=F]`, and `--version`. Errors go to stderr as
//! `loc("file":line:col): error: message`, the form cuTile reads back into its exception,
//! with the Python source location of the op taken from the bytecode's debug info.
//!
//! ptxas is looked for where tileiras looks for its own: `TILEC_PTXAS`, beside the
//! executable, in an `nvidia/cu13/bin` (pip's nvidia-cuda-nvcc) of the Python environment
//! the executable is installed in, on `PATH`, then in `$CUDA_HOME/bin`.
//!
//! `TILEC_TILEIRAS_FLAGS` passes tilec's own backend options; `TILEC_TILEIRAS_KEEP=DIR`
//! keeps every input in DIR for replay ([`compile_kept`]).

use super::{EXIT_DIAGNOSTICS, EXIT_OK, EXIT_USAGE, Io};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use tilec_diag::{Diagnostic, SourceMap};
use tilec_ir::Module;

/// A parsed tileiras command line.
#[derive(Default)]
struct Args {
    input: Option<PathBuf>,
    output: Option<PathBuf>,
    gpu: Option<String>,
    opt_level: u8,
    line_info: bool,
    device_debug: bool,
    remarks_file: Option<PathBuf>,
}

fn parse_args(args: &[OsString]) -> Result<Args, String> {
    let mut a = Args {
        opt_level: 3,
        ..Args::default()
    };
    let mut i = 1;
    while i < args.len() {
        let arg = args[i].to_string_lossy().into_owned();
        i += 1;
        if arg == "-" || !arg.starts_with('-') {
            if a.input.replace(PathBuf::from(&arg)).is_some() {
                return Err("more than one input file".into());
            }
            continue;
        }
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) => (n.to_string(), Some(v.to_string())),
            None => (arg.clone(), None),
        };
        let value = |i: &mut usize| -> Result<String, String> {
            if let Some(v) = &inline {
                return Ok(v.clone());
            }
            let v = args
                .get(*i)
                .map(|v| v.to_string_lossy().into_owned())
                .ok_or_else(|| format!("option '{name}' needs a value"))?;
            *i += 1;
            Ok(v)
        };
        match name.as_str() {
            "-o" | "--output-file" => a.output = Some(PathBuf::from(value(&mut i)?)),
            "--gpu-name" | "-arch" | "--arch" => a.gpu = Some(value(&mut i)?),
            "-O0" | "-O1" | "-O2" | "-O3" => a.opt_level = name.as_bytes()[2] - b'0',
            "--lineinfo" | "-lineinfo" => a.line_info = true,
            "--device-debug" | "-g" => a.device_debug = true,
            // Preview features and libraries to link: tilec has neither kind, and takes the
            // options so that cuTile's command lines run.
            "--preview" => {
                value(&mut i)?;
            }
            "-l" => {
                value(&mut i)?;
            }
            "--remark-format" => {
                let f = value(&mut i)?;
                if f != "yaml" {
                    return Err(format!(
                        "unsupported remark format '{f}' (tilec writes yaml)"
                    ));
                }
            }
            "--remarks" => {
                value(&mut i)?;
            }
            "--remarks-output-file" => a.remarks_file = Some(PathBuf::from(value(&mut i)?)),
            _ => return Err(format!("unknown option '{arg}'")),
        }
    }
    Ok(a)
}

/// Runs a tileiras command line (`args[0]` is the program name).
pub(crate) fn run(args: Vec<OsString>, io: &mut Io<'_>) -> i32 {
    let rest: Vec<String> = args
        .iter()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if rest.iter().any(|a| a == "--version") {
        let _ = writeln!(
            io.stdout,
            "tileiras (tilec {}): Tile IR bytecode 13.1 to 13.3 to cubin through ptxas",
            env!("CARGO_PKG_VERSION")
        );
        return EXIT_OK;
    }
    if rest.iter().any(|a| a == "-h" || a == "--help") || rest.is_empty() {
        let _ = io.stdout.write_all(USAGE.as_bytes());
        return if rest.is_empty() { EXIT_USAGE } else { EXIT_OK };
    }
    let a = match parse_args(&args) {
        Ok(a) => a,
        Err(e) => {
            let _ = writeln!(io.stderr, "error: {e}");
            return EXIT_USAGE;
        }
    };
    match std::env::var_os("TILEC_TILEIRAS_KEEP") {
        Some(dir) if !dir.is_empty() => compile_kept(&a, io, Path::new(&dir)),
        _ => compile(&a, io),
    }
}

/// [`compile`], keeping its input in `dir` (`TILEC_TILEIRAS_KEEP`): a GPU session that
/// runs cuTile's test suite through tilec brings back every kernel the suite compiled, so
/// that a session without a GPU can replay them (`cargo xtask gpu-test --sim --corpus
/// DIR`). The input goes to `dir/HASH.tileirbc` (HASH: FNV-1a of its bytes, so a kernel
/// the suite compiles again is kept once); when the compile fails, `dir/HASH.err` gets
/// the command line, the exit code and what went to stderr. Keeping is best effort: a
/// directory that cannot be written changes nothing in the compile.
fn compile_kept(a: &Args, io: &mut Io<'_>, dir: &Path) -> i32 {
    let mut err = Vec::new();
    let code = {
        let mut tee = Io {
            stdin: &mut *io.stdin,
            stdout: &mut *io.stdout,
            stderr: &mut err,
            stderr_is_tty: false,
        };
        compile(a, &mut tee)
    };
    let _ = io.stderr.write_all(&err);
    let Some(bytes) = a.input.as_ref().and_then(|i| std::fs::read(i).ok()) else {
        return code;
    };
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    });
    let _ = std::fs::create_dir_all(dir);
    let kept = dir.join(format!("{hash:016x}.tileirbc"));
    if !kept.exists() {
        let _ = std::fs::write(&kept, &bytes);
    }
    if code != EXIT_OK {
        let text = format!(
            "gpu: {}\nexit: {code}\n{}",
            a.gpu.as_deref().unwrap_or("?"),
            String::from_utf8_lossy(&err)
        );
        let _ = std::fs::write(dir.join(format!("{hash:016x}.err")), text);
    }
    code
}

const USAGE: &str = "Usage: tileiras INPUT -o OUTPUT.cubin --gpu-name sm_NN [-O0|-O1|-O2|-O3] [--lineinfo] [--device-debug] [--remark-format=yaml --remarks=all --remarks-output-file=FILE]\n\ntilec's tileiras: compiles Tile IR bytecode (13.1 to 13.3) or text to a cubin with ptxas.\n";

/// `loc("file":line:col): error: message` for each error, the Python source location of
/// its op where the bytecode's debug info gives one.
fn report(io: &mut Io<'_>, sources: &SourceMap, m: Option<&Module>, diags: &[Diagnostic]) {
    for d in diags.iter().filter(|d| d.is_error()) {
        let mut at = None;
        if let (Some(m), Some(loc)) = (m, d.location) {
            // The op the diagnostic points at, and its debug location.
            let mut found = None;
            m.walk(|op| {
                if found.is_none() && m.op_span(op).is_some_and(|s| s.start == loc.span.start) {
                    found = Some(op);
                }
            });
            at = found
                .and_then(|op| m.op_loc(op))
                .and_then(|l| file_line_col(m, l));
        }
        if at.is_none()
            && let Some(loc) = d.location
        {
            let f = sources.get(loc.file);
            at = Some(if f.is_binary() {
                (f.name().to_string(), 0, 0)
            } else {
                let (line, col) = f.line_col(loc.span.start);
                (f.name().to_string(), line, col)
            });
        }
        match at {
            Some((file, line, col)) => {
                let _ = writeln!(
                    io.stderr,
                    "loc(\"{file}\":{line}:{col}): error: {}",
                    d.message
                );
            }
            None => {
                let _ = writeln!(io.stderr, "error: {}", d.message);
            }
        }
    }
}

/// The file, line and column of a location attribute (through names, call sites and
/// fused locations, to the first file position).
pub(crate) fn file_line_col(m: &Module, a: tilec_ir::Attr) -> Option<(String, u32, u32)> {
    use tilec_ir::AttrData;
    match m.ctx.attrs.get(a) {
        AttrData::LocFile {
            file, line, col, ..
        } => Some((file.to_string(), *line, *col)),
        AttrData::LocName { child, .. } => child.and_then(|c| file_line_col(m, c)),
        AttrData::LocCallSite { callee, .. } => file_line_col(m, *callee),
        AttrData::LocFused { locs, .. } => locs.iter().find_map(|l| file_line_col(m, *l)),
        AttrData::DiLoc { loc, .. } => file_line_col(m, *loc),
        _ => None,
    }
}

fn compile(a: &Args, io: &mut Io<'_>) -> i32 {
    let Some(input) = &a.input else {
        let _ = writeln!(io.stderr, "error: no input file");
        return EXIT_USAGE;
    };
    let Some(output) = &a.output else {
        let _ = writeln!(io.stderr, "error: no output file (-o OUT.cubin)");
        return EXIT_USAGE;
    };
    let Some(gpu) = &a.gpu else {
        let _ = writeln!(io.stderr, "error: no target (--gpu-name sm_NN)");
        return EXIT_USAGE;
    };
    let Some(arch) = tilec_ptx::Arch::from_name(gpu) else {
        let _ = writeln!(
            io.stderr,
            "error: unsupported GPU '{gpu}' (tilec targets {})",
            tilec_ptx::Arch::names()
        );
        return EXIT_USAGE;
    };
    // tileiras writes architecture-specific code for `--gpu-name sm_90`, `sm_100` and
    // `sm_120` (its cubins' ELF says sm_90a, sm_100a, sm_120a): warpgroup MMA, which an
    // H100 or H200 runs, and static shared memory above 48 KiB. So does tilec.
    let arch = match arch {
        tilec_ptx::Arch::Sm90 => tilec_ptx::Arch::Sm90a,
        tilec_ptx::Arch::Sm100 => tilec_ptx::Arch::Sm100a,
        tilec_ptx::Arch::Sm120 => tilec_ptx::Arch::Sm120a,
        a => a,
    };
    let bytes = match std::fs::read(input) {
        Ok(b) => b,
        Err(e) => {
            let _ = writeln!(io.stderr, "error: cannot read '{}': {e}", input.display());
            return EXIT_USAGE;
        }
    };
    // ptxas starts now, reading the PTX from a pipe, so that its start-up (a few
    // milliseconds: a 50 MB executable) overlaps tilec's compile; a module tilec rejects
    // gets it killed before it has read anything (it writes no cubin).
    let ptxas = find_ptxas().map(|p| {
        let spawned = spawn_piped(ptxas_command(&p, a, arch, output, true));
        (p, spawned)
    });
    let mut sources = SourceMap::new();
    let name = input.display().to_string();
    let file = if tilec_bytecode::is_bytecode(&bytes) {
        sources.add_binary(name)
    } else {
        sources.add(name, String::from_utf8_lossy(&bytes).into_owned())
    };
    let mut opts = crate::pipeline::Options {
        canonicalize: a.opt_level > 0,
        ptx: tilec_ptx::Options {
            arch,
            line_info: a.line_info || a.device_debug,
            file_name: input.display().to_string(),
            // cuTile's launcher passes no dynamic shared-memory size: static only, and
            // above 48 KiB on sm_90a/sm_100a, as tileiras's cubins are: the launcher opts
            // every kernel in to the device's limit less its static size.
            dynamic_smem: false,
            static_opt_in: true,
            // Warps chosen per kernel, as tileiras does: cuTile's launcher asks the
            // loaded kernel for its thread count (`.reqntid`).
            choose_warps: true,
            ..tilec_ptx::Options::default()
        },
        ..crate::pipeline::Options::default()
    };
    if let Err(e) = backend_flags(&mut opts.ptx) {
        if let Ok((_, Ok(child))) = ptxas {
            stop(child);
        }
        let _ = writeln!(io.stderr, "error: {e}");
        return EXIT_USAGE;
    }
    let (ptx, m, pipelines) = match crate::pipeline::compile(&bytes, file, &opts) {
        Ok(mut c) => (c.ptx, c.modules.pop(), c.remarks),
        Err(f) => {
            if let Ok((_, Ok(child))) = ptxas {
                stop(child);
            }
            report(io, &sources, f.modules.first(), &f.diagnostics);
            return EXIT_DIAGNOSTICS;
        }
    };
    let (ptxas, child) = match ptxas {
        Ok((p, Ok(child))) => (p, child),
        Ok((p, Err(e))) => {
            let _ = writeln!(io.stderr, "error: cannot run {}: {e}", p.display());
            return EXIT_USAGE;
        }
        Err(looked) => {
            let _ = writeln!(
                io.stderr,
                "error: ptxas not found (looked in: {}); install it with `pip install nvidia-cuda-nvcc` or set TILEC_PTXAS",
                looked.join(", ")
            );
            return EXIT_USAGE;
        }
    };
    let Some(m) = m else {
        stop(child);
        let _ = writeln!(io.stderr, "error: internal error: no module compiled");
        return 2;
    };
    let opts = opts.ptx;
    let (mut out, ptx) = feed(child, ptx);
    // A ptxas older than `--split-compile`: once more without it.
    if refused_split(&out) {
        out = spawn_piped(ptxas_command(&ptxas, a, arch, output, false))
            .and_then(|child| feed(child, ptx.clone()).0);
    }
    match out {
        Ok(o) if o.status.success() => {
            let report = format!(
                "{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            );
            for w in spill_warnings(&report, gpu) {
                let _ = writeln!(io.stderr, "{w}");
            }
        }
        Ok(o) => {
            let _ = writeln!(
                io.stderr,
                "error: ptxas ({}) rejected tilec's PTX: {}",
                ptxas.display(),
                String::from_utf8_lossy(&o.stderr).trim()
            );
            return 2;
        }
        Err(e) => {
            let _ = writeln!(io.stderr, "error: cannot run {}: {e}", ptxas.display());
            return EXIT_USAGE;
        }
    }
    if let Some(f) = &a.remarks_file
        && let Err(e) = std::fs::write(f, remarks(&m, gpu, &opts, &ptx, &pipelines))
    {
        let _ = writeln!(io.stderr, "error: cannot write '{}': {e}", f.display());
        return EXIT_USAGE;
    }
    EXIT_OK
}

/// A warning per kernel that ptxas reports spilling to local memory (from `ptxas -v`:
/// "Function properties for NAME" then "N bytes spill stores, M bytes spill loads").
pub(crate) fn spill_warnings(report: &str, gpu: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut function = None;
    for line in report.lines() {
        if let Some(i) = line.find("Function properties for ") {
            function = Some(line[i + 24..].trim().to_string());
            continue;
        }
        let number = |what: &str| -> u64 {
            line.find(what)
                .and_then(|i| line[..i].split_whitespace().last())
                .and_then(|n| n.parse().ok())
                .unwrap_or(0)
        };
        let (stores, loads) = (number("bytes spill stores"), number("bytes spill loads"));
        if stores + loads > 0
            && let Some(f) = function.take()
        {
            out.push(format!(
                "warning: kernel '{f}' spills registers to local memory on {gpu}: {stores} bytes of spill stores, {loads} bytes of spill loads (smaller tiles or fewer live values avoid it)"
            ));
        }
    }
    out
}

/// A YAML remark per kernel (LLVM's remark stream format): what tilec decided; then one
/// per remark of the backend (`pipelines`: the K loops' pipelines), under the kernel whose
/// source range holds its location.
fn remarks(
    m: &Module,
    gpu: &str,
    opts: &tilec_ptx::Options,
    ptx: &str,
    pipelines: &[tilec_diag::Diagnostic],
) -> String {
    let mut out = String::new();
    let stages = match opts.num_stages {
        Some(n) => n.to_string(),
        None => format!("up to {}", tilec_ptx::DEFAULT_STAGES),
    };
    let entries = m.entries();
    let threads = |name: &str| {
        tilec_ptx::kernel_threads(ptx, &tilec_ptx::ptx_ident(name)).unwrap_or(opts.threads())
    };
    for (name, _) in &entries {
        out.push_str(&format!(
            "--- !Analysis\nPass:            tilec\nName:            KernelCompiled\nFunction:        '{}'\nArgs:\n  - String:          'compiled for {gpu} with {} warps ({} threads per tile block), {stages} pipeline stages'\n...\n",
            name.replace('\'', "''"),
            threads(name) / 32,
            threads(name),
        ));
    }
    for d in pipelines {
        let at = d.location.map(|l| l.span.start);
        let function = entries
            .iter()
            .find(|(_, op)| {
                m.op_span(*op)
                    .zip(at)
                    .is_some_and(|(s, at)| s.start <= at && at < s.end)
            })
            .or(entries.first())
            .map_or(String::new(), |(n, _)| n.replace('\'', "''"));
        out.push_str(&format!(
            "--- !Analysis\nPass:            tilec\nName:            Pipeline\nFunction:        '{function}'\nArgs:\n  - String:          '{}'\n...\n",
            d.message.replace('\'', "''")
        ));
    }
    out
}

/// ptxas, where tileiras would find its own; `Err` lists where it looked.
/// `ptxas` with the flags `tileiras` arguments `a` ask for, reading its PTX from stdin,
/// writing `output` (`-v`: its resource report, from which spills become warnings).
fn ptxas_command(
    ptxas: &Path,
    a: &Args,
    arch: tilec_ptx::Arch,
    output: &Path,
    split: bool,
) -> std::process::Command {
    let mut cmd = if split {
        crate::ptxas::command(ptxas)
    } else {
        crate::ptxas::plain_command(ptxas)
    };
    cmd.arg(format!("-arch={}", arch.name())).arg(format!(
        "-O{}",
        if a.device_debug { 0 } else { a.opt_level }
    ));
    if a.device_debug {
        cmd.arg("-g");
    } else if a.line_info {
        cmd.arg("-lineinfo");
    }
    cmd.arg("-v").arg("/dev/stdin").arg("-o").arg(output);
    cmd
}

/// `cmd` started with its standard streams piped.
fn spawn_piped(mut cmd: std::process::Command) -> std::io::Result<std::process::Child> {
    cmd.stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
}

/// Whether ptxas failed because it does not know `--split-compile` (run it again
/// without).
fn refused_split(out: &std::io::Result<std::process::Output>) -> bool {
    out.as_ref().is_ok_and(|o| {
        !o.status.success()
            && crate::ptxas::refused_split_compile(&String::from_utf8_lossy(&o.stderr))
    })
}

/// Writes `ptx` to ptxas `child` from a thread (ptxas may write to its pipes before it
/// has read it all) and waits for ptxas to end: its output, and the PTX back.
fn feed(
    mut child: std::process::Child,
    ptx: String,
) -> (std::io::Result<std::process::Output>, String) {
    let stdin = child.stdin.take();
    let writer = std::thread::spawn(move || {
        if let Some(mut w) = stdin {
            use std::io::Write as _;
            // A ptxas that stops reading reports why on its stderr.
            let _ = w.write_all(ptx.as_bytes());
        }
        ptx
    });
    let out = child.wait_with_output();
    (out, writer.join().unwrap_or_default())
}

/// tilec's own backend options for the `tileiras` personality, which cuTile's command
/// line cannot carry: `TILEC_TILEIRAS_FLAGS`, space-separated, of `--warp-specialize`,
/// `--no-tma`, `--num-stages=N` (1 to 6) and `--num-ctas=N` (2, 4, 8, 16), as `tilec` takes
/// them. For measuring them
/// under cuTile (its tests and benchmarks) without changing cuTile.
fn backend_flags(o: &mut tilec_ptx::Options) -> Result<(), String> {
    let Some(flags) = std::env::var_os("TILEC_TILEIRAS_FLAGS") else {
        return Ok(());
    };
    for flag in flags.to_string_lossy().split_whitespace() {
        match flag.split_once('=') {
            None if flag == "--warp-specialize" => o.warp_specialize = true,
            None if flag == "--no-tma" => o.tma = false,
            Some(("--num-ctas", n)) => match n.parse::<u32>() {
                Ok(n @ (2 | 4 | 8 | 16)) => o.num_ctas = Some(n),
                _ => {
                    return Err(format!(
                        "TILEC_TILEIRAS_FLAGS: --num-ctas takes 2, 4, 8 or 16 (got '{n}')"
                    ));
                }
            },
            Some(("--num-stages", n)) => match n.parse::<u32>() {
                Ok(n @ 1..=6) => o.num_stages = Some(n),
                _ => {
                    return Err(format!(
                        "TILEC_TILEIRAS_FLAGS: --num-stages takes 1 to 6 (got '{n}')"
                    ));
                }
            },
            _ => {
                return Err(format!(
                    "TILEC_TILEIRAS_FLAGS: unknown flag '{flag}' (known: --warp-specialize, --no-tma, --num-stages=N, --num-ctas=N)"
                ));
            }
        }
    }
    Ok(())
}

/// Why [`assemble`] wrote no cubin.
pub(crate) enum AssembleError {
    /// No ptxas: where tilec looked.
    NotFound(Vec<String>),
    /// ptxas could not be run, or its cubin not read back.
    Io(PathBuf, std::io::Error),
    /// ptxas refused the PTX (its stderr).
    Rejected(PathBuf, String),
}

impl AssembleError {
    /// The message, for `error: ...`.
    pub(crate) fn message(&self) -> String {
        match self {
            AssembleError::NotFound(looked) => format!(
                "ptxas not found (looked in: {}); install it with `pip install nvidia-cuda-nvcc` or set TILEC_PTXAS",
                looked.join(", ")
            ),
            AssembleError::Io(p, e) => format!("cannot run {}: {e}", p.display()),
            AssembleError::Rejected(p, err) => {
                format!(
                    "ptxas ({}) rejected tilec's PTX: {}",
                    p.display(),
                    err.trim()
                )
            }
        }
    }
}

/// PTX to a cubin for `arch` with the ptxas tileiras would find (`tilec --emit=cubin`):
/// the cubin's bytes and ptxas' resource report (`-v`), or why there is none. ptxas
/// writes into a temporary file, so a failure leaves no partial output anywhere.
pub(crate) fn assemble(
    ptx: &str,
    arch: tilec_ptx::Arch,
    line_info: bool,
) -> Result<(Vec<u8>, String), AssembleError> {
    let ptxas = find_ptxas().map_err(AssembleError::NotFound)?;
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = std::env::temp_dir().join(format!("tilec-{}-{n}.cubin", std::process::id()));
    let a = Args {
        opt_level: 3,
        line_info,
        ..Args::default()
    };
    let run = |split: bool| {
        spawn_piped(ptxas_command(&ptxas, &a, arch, &tmp, split))
            .and_then(|child| feed(child, ptx.to_string()).0)
    };
    let mut out = run(true);
    if refused_split(&out) {
        out = run(false);
    }
    let result = match out {
        Ok(o) if o.status.success() => std::fs::read(&tmp)
            .map(|bytes| {
                let report = format!(
                    "{}{}",
                    String::from_utf8_lossy(&o.stdout),
                    String::from_utf8_lossy(&o.stderr)
                );
                (bytes, report)
            })
            .map_err(|e| AssembleError::Io(ptxas.clone(), e)),
        Ok(o) => Err(AssembleError::Rejected(
            ptxas.clone(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )),
        Err(e) => Err(AssembleError::Io(ptxas.clone(), e)),
    };
    let _ = std::fs::remove_file(&tmp);
    result
}

/// Stops a ptxas that has read nothing (it writes nothing).
fn stop(mut child: std::process::Child) {
    let _ = child.kill();
    let _ = child.wait();
}

fn find_ptxas() -> Result<PathBuf, Vec<String>> {
    let mut looked = Vec::new();
    let try_file = |p: PathBuf, looked: &mut Vec<String>| -> Option<PathBuf> {
        looked.push(p.display().to_string());
        p.is_file().then_some(p)
    };
    if let Some(p) = std::env::var_os("TILEC_PTXAS")
        && let Some(p) = try_file(PathBuf::from(p), &mut looked)
    {
        return Ok(p);
    }
    let exe = std::env::current_exe().ok();
    // Beside the executable (as tileiras is installed beside ptxas), through the link it
    // was run as too.
    let mut dirs: Vec<PathBuf> = Vec::new();
    if let Some(arg0) = std::env::args_os().next().map(PathBuf::from)
        && let Some(d) = arg0.parent().filter(|d| !d.as_os_str().is_empty())
    {
        dirs.push(d.to_path_buf());
    }
    if let Some(d) = exe.as_ref().and_then(|e| e.parent())
        && !dirs.iter().any(|x| x == d)
    {
        dirs.push(d.to_path_buf());
    }
    for d in &dirs {
        if let Some(p) = try_file(d.join("ptxas"), &mut looked) {
            return Ok(p);
        }
    }
    // A Python environment's bin/ holds the executable: its site-packages' nvidia wheels.
    for d in &dirs {
        if let Some(env) = d.parent()
            && let Ok(libs) = std::fs::read_dir(env.join("lib"))
        {
            for lib in libs.flatten() {
                let p = lib.path().join("site-packages/nvidia/cu13/bin/ptxas");
                if let Some(p) = try_file(p, &mut looked) {
                    return Ok(p);
                }
            }
        }
    }
    if let Some(path) = std::env::var_os("PATH") {
        for d in std::env::split_paths(&path) {
            if d.join("ptxas").is_file() {
                return Ok(d.join("ptxas"));
            }
        }
        looked.push("PATH".into());
    }
    if let Some(home) = std::env::var_os("CUDA_HOME")
        && let Some(p) = try_file(Path::new(&home).join("bin/ptxas"), &mut looked)
    {
        return Ok(p);
    }
    looked.push("$CUDA_HOME/bin".into());
    Err(looked)
}

/// `tilec install-tileiras-shim DIR`: a link `DIR/tileiras` to this executable, so that
/// cuTile Python (which runs the first `tileiras` on `PATH` when NVIDIA's package is not
/// installed) compiles through tilec.
pub(crate) fn install_shim(dir: &Path, io: &mut Io<'_>) -> i32 {
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => {
            let _ = writeln!(io.stderr, "tilec: error: cannot find this executable: {e}");
            return EXIT_USAGE;
        }
    };
    if let Err(e) = std::fs::create_dir_all(dir) {
        let _ = writeln!(
            io.stderr,
            "tilec: error: cannot create '{}': {e}",
            dir.display()
        );
        return EXIT_USAGE;
    }
    let link = dir.join("tileiras");
    if std::fs::symlink_metadata(&link).is_ok() {
        let _ = std::fs::remove_file(&link);
    }
    #[cfg(unix)]
    let made = std::os::unix::fs::symlink(&exe, &link);
    #[cfg(not(unix))]
    let made = std::fs::copy(&exe, &link).map(|_| ());
    match made {
        Ok(()) => {
            let _ = writeln!(
                io.stdout,
                "{} -> {}\nput {} first on PATH (cuTile uses NVIDIA's nvidia-cuda-tileiras package when it is installed)",
                link.display(),
                exe.display(),
                dir.display()
            );
            EXIT_OK
        }
        Err(e) => {
            let _ = writeln!(
                io.stderr,
                "tilec: error: cannot make '{}': {e}",
                link.display()
            );
            EXIT_USAGE
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn spills_in_the_ptxas_report_become_warnings() {
        let report = "ptxas info    : 0 bytes gmem\n\
ptxas info    : Compiling entry function 'k1' for 'sm_90'\n\
ptxas info    : Function properties for k1\n\
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n\
ptxas info    : Used 30 registers\n\
ptxas info    : Compiling entry function 'k2' for 'sm_90'\n\
ptxas info    : Function properties for k2\n\
    24 bytes stack frame, 16 bytes spill stores, 8 bytes spill loads\n\
ptxas info    : Used 255 registers\n";
        assert_eq!(
            super::spill_warnings(report, "sm_90"),
            vec![
                "warning: kernel 'k2' spills registers to local memory on sm_90: 16 bytes of spill stores, 8 bytes of spill loads (smaller tiles or fewer live values avoid it)"
                    .to_string()
            ]
        );
        assert!(super::spill_warnings("", "sm_90").is_empty());
    }
}

//! `cargo xtask bench-ptx [--runs N] [--arch sm_90] [--text]`: compile speed of tilec against
//! NVIDIA's tileiras on the cuTile corpus (`tests/corpus/cutile`: each kernel as the bytecode
//! cuTile Python wrote, `NAME.tileirbc`, and as Tile IR text, `NAME.mlir`).
//!
//! tilec and tileiras read the same input, the kernel's `NAME.tileirbc`; with `--text`, tilec
//! reads the `NAME.mlir` text instead (tileiras still reads the bytecode). For every kernel,
//! after one warm-up run, `N` runs (default 10) of, in this order:
//!
//! 1. tilec in process: the input to PTX through the library calls of `tilec FILE -o OUT`
//!    (`tilec::pipeline::compile`: read bytecode or parse text, verify, canonicalize,
//!    convert to the GPU-level IR, write PTX), timed per
//!    phase;
//! 2. tilec as a process: `tilec FILE -o OUT.ptx --arch ARCH` (process start, reading and
//!    writing included, as for tileiras);
//! 3. `ptxas -arch=ARCH -o OUT.cubin OUT.ptx`;
//! 4. `tileiras --gpu-name=ARCH -o OUT.cubin NAME.tileirbc` (bytecode to cubin; it runs its
//!    own ptxas).
//!
//! The runs are interleaved (1, 2, 3, 4, 1, 2, 3, 4, ...) so that a slow phase of a shared
//! machine hits every column alike; each figure is the median of its `N` runs, and the ratios
//! are ratios of medians of the same run. Tools are found like the test harness finds ptxas
//! (`TILEC_PTXAS` / `TILEC_TILEIRAS`, `PATH`, Python site-packages `nvidia/cu13/bin`); a
//! column whose tool is missing is reported as SKIPPED. The `tilec` binary is built first,
//! as shipped (`cargo xtask dist`: statically linked on Linux). Outputs go to
//! `bench-out/bench-ptx/`.
//!
//! Then a static table of the code itself, for every corpus kernel and every example (whose
//! bytecode `tilec --emit=bytecode` writes for tileiras): global accesses by width,
//! `cp.async`, `ldmatrix` and `mma` in tilec's PTX, and the same counts in the SASS of
//! tilec's cubin and of tileiras' cubin (`cuobjdump -sass`, PyPI `nvidia-cuda-cuobjdump`
//! and `nvidia-cuda-nvdisasm`), with registers and local (spill) bytes
//! (`tilec_tests::codestats`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};
use tilec_tests::ptxas::find_tool;

/// Target: tileiras time over tilec time (tilec alone).
const TARGET_TILEC: f64 = 50.0;
/// Target: tileiras time over tilec + ptxas time.
const TARGET_TILEC_PTXAS: f64 = 3.0;
/// Target: tileiras time over tilec run as `tileiras` (bytecode to cubin in one command, as
/// cuTile Python runs its compiler; issues 21 and 22).
const TARGET_AS_TILEIRAS: f64 = 5.0;

/// The in-process phases, in pipeline order (the first reads bytecode, or parses text with
/// `--text`).
const PHASES: [&str; 5] = [
    "read bytecode",
    "verify",
    "canonicalize",
    "GPU-level IR",
    "PTX",
];
const PHASES_TEXT: [&str; 5] = ["parse", "verify", "canonicalize", "GPU-level IR", "PTX"];

/// One corpus kernel.
struct Kernel {
    name: String,
    text_path: PathBuf,
    bytecode: Option<PathBuf>,
}

/// The samples of one kernel, in milliseconds.
#[derive(Default)]
struct Samples {
    in_process: Vec<f64>,
    phases: [Vec<f64>; 5],
    process: Vec<f64>,
    ptxas: Vec<f64>,
    /// `tileiras` (a link to tilec) writing the cubin, ptxas included.
    as_tileiras: Vec<f64>,
    tileiras: Vec<f64>,
    ops: usize,
    ptx_bytes: usize,
    /// The in-process PTX (for the static counts).
    ptx: String,
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn median(v: &[f64]) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    Some(if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    })
}

fn geomean(v: &[f64]) -> f64 {
    (v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64).exp()
}

/// Runs a command to completion (output captured) and returns its wall time, or its error
/// output when it fails.
fn time_command(cmd: &mut Command) -> Result<Duration, String> {
    cmd.stdin(Stdio::null());
    let t = Instant::now();
    let out = cmd.output().map_err(|e| format!("cannot run: {e}"))?;
    let dt = t.elapsed();
    if !out.status.success() {
        return Err(format!(
            "exit status {}: {}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(dt)
}

/// What `tilec FILE -o OUT --arch ARCH` computes, in process, with the time of each phase:
/// `tilec::pipeline::compile`, the function the command line calls, with the command
/// line's defaults (spec personality, canonicalizer on, warps chosen per kernel, accurate
/// math, no line info).
fn compile_in_process(
    input: &[u8],
    file_name: &str,
    arch: tilec_ptx::Arch,
) -> Result<(String, [Duration; 5], usize), String> {
    let opts = tilec::pipeline::Options {
        ptx: tilec_ptx::Options {
            arch,
            file_name: file_name.to_string(),
            choose_warps: true,
            ..tilec_ptx::Options::default()
        },
        ..tilec::pipeline::Options::default()
    };
    let c = tilec::pipeline::compile(input, tilec_diag::FileId(0), &opts)
        .map_err(|f| format!("{}: {}", f.stage.name(), f.message()))?;
    let ops = c.modules.iter().map(|m| m.count_ops()).sum();
    Ok((c.ptx, c.timings.0, ops))
}

/// The last line of `TOOL --version` (the release line for NVIDIA's tools).
fn version(tool: &Path) -> String {
    Command::new(tool)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .ok()
        .and_then(|o| {
            let s = String::from_utf8_lossy(&o.stdout).into_owned();
            s.lines()
                .rev()
                .find(|l| !l.trim().is_empty() && !l.starts_with("Build"))
                .map(str::to_string)
        })
        .unwrap_or_else(|| "(version unknown)".into())
}

/// CPU model, logical CPUs and memory from /proc.
fn machine() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map_or("unknown CPU".to_string(), |(_, v)| v.trim().to_string());
    let cpus = cpuinfo
        .lines()
        .filter(|l| l.starts_with("processor"))
        .count();
    let mem = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|s| {
            let l = s.lines().find(|l| l.starts_with("MemTotal:"))?;
            l.split_whitespace().nth(1)?.parse::<f64>().ok()
        })
        .map_or(String::new(), |kb| format!(", {:.0} GB RAM", kb / 1e6));
    format!("{model}, {cpus} logical CPUs{mem}")
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

/// The current UTC date and time (`YYYY-MM-DD HH:MM`).
fn utc_now() -> String {
    let secs = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60
    )
}

fn corpus(root: &Path) -> Vec<Kernel> {
    let dir = root.join("tests/corpus/cutile");
    let mut out: Vec<Kernel> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
                .map(|p| {
                    let bc = p.with_extension("tileirbc");
                    Kernel {
                        name: p
                            .file_stem()
                            .map(|s| s.to_string_lossy().into_owned())
                            .unwrap_or_default(),
                        bytecode: bc.is_file().then_some(bc),
                        text_path: p,
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

fn skipped(tool: &str, env: &str) {
    let msg = format!(
        "SKIPPED: {tool} not found (set {env}, put it on PATH, or pip install the wheel that provides nvidia/cu13/bin/{tool}); its columns are not measured"
    );
    println!("{msg}");
    eprintln!("{msg}");
}

/// Formats an optional figure.
fn fmt_opt(v: Option<f64>, digits: usize, suffix: &str) -> String {
    v.map_or("SKIPPED".into(), |v| format!("{v:.digits$}{suffix}"))
}

/// Measures every corpus kernel (tilec reading the bytecode, or the text with `text`);
/// returns the exit status.
pub fn bench_ptx(runs: usize, arch_name: &str, text_input: bool) -> i32 {
    let phases = if text_input { PHASES_TEXT } else { PHASES };
    let runs = runs.max(1);
    let Some(arch) = tilec_ptx::Arch::from_name(arch_name) else {
        eprintln!("unknown architecture '{arch_name}'");
        return 2;
    };
    let root = crate::root()
        .canonicalize()
        .unwrap_or_else(|_| crate::root());
    let kernels = corpus(&root);
    if kernels.is_empty() {
        eprintln!("no kernels in tests/corpus/cutile");
        return 1;
    }
    let out_dir = root.join("bench-out/bench-ptx");
    if let Err(e) = std::fs::create_dir_all(&out_dir) {
        eprintln!("cannot create {}: {e}", out_dir.display());
        return 1;
    }
    let tilec = crate::dist::build(&root)
        .map_err(|e| eprintln!("SKIPPED: tilec as a process: {e}"))
        .ok();
    let ptxas = find_tool("TILEC_PTXAS", "ptxas");
    let tileiras = find_tool("TILEC_TILEIRAS", "tileiras");
    if ptxas.is_none() {
        skipped("ptxas", "TILEC_PTXAS");
    }
    if tileiras.is_none() {
        skipped("tileiras", "TILEC_TILEIRAS");
    }
    // tilec under the name cuTile runs: a link `tileiras` to the built binary, finding the
    // same ptxas as the other columns.
    let shim = match (&tilec, &ptxas) {
        (Some(tilec), Some(_)) => {
            let dir = out_dir.join("shim");
            let link = dir.join("tileiras");
            let _ = std::fs::remove_file(&link);
            match std::fs::create_dir_all(&dir)
                .and_then(|_| std::os::unix::fs::symlink(tilec, &link))
            {
                Ok(()) => Some(link),
                Err(e) => {
                    println!(
                        "SKIPPED: tilec as tileiras: cannot link {}: {e}",
                        link.display()
                    );
                    None
                }
            }
        }
        _ => None,
    };

    println!(
        "# cargo xtask bench-ptx --runs {runs} --arch {arch_name}{}",
        if text_input { " --text" } else { "" }
    );
    println!();
    println!("date:     {}", utc_now());
    println!("machine:  {}", machine());
    println!("load:     {} (1, 5, 15 min) at the start", load_average());
    let rustc = Command::new("rustc")
        .arg("--version")
        .current_dir(&root)
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    println!("rustc:    {rustc}");
    for (what, tool) in [
        ("tilec", &tilec),
        ("ptxas", &ptxas),
        ("tileiras", &tileiras),
    ] {
        let what = format!("{what}:");
        match tool {
            Some(p) => println!("{what:<9} {} ({})", version(p), p.display()),
            None => println!("{what:<9} SKIPPED (not found)"),
        }
    }
    // The floor of a process: `TOOL --version` (start, dynamic loading, exit).
    let mut floors = Vec::new();
    for (what, tool) in [
        ("tilec", &tilec),
        ("ptxas", &ptxas),
        ("tileiras", &tileiras),
    ] {
        let Some(tool) = tool else { continue };
        let v: Vec<f64> = (0..=runs)
            .filter_map(|_| time_command(Command::new(tool).arg("--version")).ok())
            .skip(1)
            .map(ms)
            .collect();
        if let Some(m) = median(&v) {
            floors.push(format!("{what} {m:.2} ms"));
        }
    }
    println!(
        "start:    `TOOL --version` (process start and exit, median): {}",
        floors.join(", ")
    );
    println!(
        "input:    tilec reads {}; tileiras reads NAME.tileirbc",
        if text_input {
            "NAME.mlir (text)"
        } else {
            "NAME.tileirbc (the same bytecode)"
        }
    );
    println!(
        "ptxas:    run as tilec runs it: GLIBC_TUNABLES={} unless set ({})",
        tilec::ptxas::MALLOC_TUNABLES,
        std::env::var("GLIBC_TUNABLES").map_or("it is not".into(), |v| format!("set: {v}"))
    );
    println!(
        "method:   per kernel, 1 warm-up then {runs} interleaved runs of each column; medians in ms"
    );
    println!();

    let mut failures = Vec::new();
    let mut results: Vec<(&Kernel, Samples)> = Vec::new();
    for k in &kernels {
        let input_path = if text_input {
            &k.text_path
        } else if let Some(bc) = &k.bytecode {
            bc
        } else {
            println!("SKIPPED: {} has no .tileirbc", k.name);
            continue;
        };
        let input = match std::fs::read(input_path) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{}: cannot read: {e}", k.name));
                continue;
            }
        };
        let file_name = input_path.display().to_string();
        let ptx_path = out_dir.join(format!("{}.ptx", k.name));
        let ptx_cubin = out_dir.join(format!("{}.ptxas.cubin", k.name));
        let ir_cubin = out_dir.join(format!("{}.tileiras.cubin", k.name));
        let shim_cubin = out_dir.join(format!("{}.as-tileiras.cubin", k.name));
        // No cubin of an earlier run may stand in for one this run did not write.
        let _ = std::fs::remove_file(&ptx_cubin);
        let _ = std::fs::remove_file(&ir_cubin);
        let mut s = Samples::default();
        let mut in_process_ptx: String;
        let mut failed = false;
        for run in 0..=runs {
            let warm = run == 0;
            // 1. in process
            match compile_in_process(&input, &file_name, arch) {
                Ok((ptx, phases, ops)) => {
                    if !warm {
                        s.in_process
                            .push(phases.iter().map(|d| ms(*d)).sum::<f64>());
                        for (v, d) in s.phases.iter_mut().zip(phases) {
                            v.push(ms(d));
                        }
                    }
                    s.ops = ops;
                    s.ptx_bytes = ptx.len();
                    s.ptx.clone_from(&ptx);
                    in_process_ptx = ptx;
                }
                Err(e) => {
                    failures.push(format!("{}: tilec in process: {e}", k.name));
                    failed = true;
                    break;
                }
            }
            // 2. as a process
            if let Some(tilec) = &tilec {
                match time_command(
                    Command::new(tilec)
                        .arg(input_path)
                        .arg("-o")
                        .arg(&ptx_path)
                        .args(["--arch", arch_name]),
                ) {
                    Ok(d) if !warm => s.process.push(ms(d)),
                    Ok(_) => {
                        // The CLI and the library calls above must agree byte for byte.
                        if std::fs::read_to_string(&ptx_path).ok().as_deref()
                            != Some(in_process_ptx.as_str())
                        {
                            failures.push(format!(
                                "{}: the PTX of `tilec` differs from the in-process PTX",
                                k.name
                            ));
                        }
                    }
                    Err(e) => {
                        failures.push(format!("{}: tilec: {e}", k.name));
                        failed = true;
                        break;
                    }
                }
            } else if warm {
                // Without the binary, ptxas assembles the in-process PTX.
                if let Err(e) = std::fs::write(&ptx_path, &in_process_ptx) {
                    failures.push(format!("{}: cannot write PTX: {e}", k.name));
                    failed = true;
                    break;
                }
            }
            // 3. ptxas, run as tilec runs it
            if let Some(ptxas) = &ptxas {
                match time_command(
                    tilec::ptxas::command(ptxas)
                        .arg(format!("-arch={arch_name}"))
                        .arg("-o")
                        .arg(&ptx_cubin)
                        .arg(&ptx_path),
                ) {
                    Ok(d) if !warm => s.ptxas.push(ms(d)),
                    Ok(_) => {}
                    Err(e) => {
                        failures.push(format!("{}: ptxas: {e}", k.name));
                        failed = true;
                        break;
                    }
                }
            }
            // 4. tilec as `tileiras`: bytecode to cubin, the command cuTile runs
            if let (Some(shim), Some(ptxas), Some(bc)) = (&shim, &ptxas, &k.bytecode) {
                match time_command(
                    Command::new(shim)
                        .env("TILEC_PTXAS", ptxas)
                        .arg(format!("--gpu-name={arch_name}"))
                        .arg("-o")
                        .arg(&shim_cubin)
                        .arg(bc),
                ) {
                    Ok(d) if !warm => s.as_tileiras.push(ms(d)),
                    Ok(_) => {}
                    Err(e) => {
                        failures.push(format!("{}: tilec as tileiras: {e}", k.name));
                        failed = true;
                        break;
                    }
                }
            }
            // 5. tileiras (run from its own directory: it finds its ptxas and libnvvm
            //    relative to itself)
            if let (Some(tileiras), Some(bc)) = (&tileiras, &k.bytecode) {
                let mut cmd = Command::new(tileiras);
                cmd.arg(format!("--gpu-name={arch_name}"))
                    .arg("-o")
                    .arg(&ir_cubin)
                    .arg(bc);
                if let Some(dir) = tileiras.parent() {
                    cmd.current_dir(dir);
                }
                match time_command(&mut cmd) {
                    Ok(d) if !warm => s.tileiras.push(ms(d)),
                    Ok(_) => {}
                    // tileiras refuses some types below an architecture (f8E8M0FNU below
                    // sm_100): its column stays empty for that kernel.
                    Err(e) if e.contains("Incompatibility with architecture") => {
                        if warm {
                            println!(
                                "SKIPPED: tileiras refuses {} for {arch_name}: {}",
                                k.name,
                                e.lines()
                                    .find(|l| l.contains("Incompatibility"))
                                    .and_then(|l| l.rsplit("error: ").next())
                                    .unwrap_or_default()
                            );
                        }
                    }
                    Err(e) => {
                        failures.push(format!("{}: tileiras: {e}", k.name));
                        failed = true;
                        break;
                    }
                }
            }
        }
        if !failed {
            eprintln!("  {} done", k.name);
            results.push((k, s));
        }
    }
    for (k, _) in &results {
        if tileiras.is_some() && k.bytecode.is_none() {
            println!(
                "SKIPPED: {} has no .tileirbc; its tileiras column is empty",
                k.name
            );
        }
    }

    // Per-kernel table.
    println!(
        "| kernel | ops (canonical) | PTX KB | tilec in process | tilec process | ptxas | tilec + ptxas | tilec as tileiras | tileiras | tileiras / tilec (in process) | tileiras / tilec (process) | tileiras / (tilec + ptxas) | tileiras / tilec as tileiras |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    // Per kernel: the three ratios (None where a tool is missing).
    let mut ratios: Vec<[Option<f64>; 4]> = Vec::new();
    for (k, s) in &results {
        let inp = median(&s.in_process);
        let pro = median(&s.process);
        let asm = median(&s.ptxas);
        let both = pro.zip(asm).map(|(a, b)| a + b);
        let shim = median(&s.as_tileiras);
        let ir = median(&s.tileiras);
        let r = [
            ir.zip(inp).map(|(a, b)| a / b),
            ir.zip(pro).map(|(a, b)| a / b),
            ir.zip(both).map(|(a, b)| a / b),
            ir.zip(shim).map(|(a, b)| a / b),
        ];
        ratios.push(r);
        println!(
            "| {} | {} | {:.1} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            k.name,
            s.ops,
            s.ptx_bytes as f64 / 1024.0,
            fmt_opt(inp, 3, ""),
            fmt_opt(pro, 2, ""),
            fmt_opt(asm, 1, ""),
            fmt_opt(both, 1, ""),
            fmt_opt(shim, 1, ""),
            fmt_opt(ir, 1, ""),
            fmt_opt(r[0], 0, "x"),
            fmt_opt(r[1], 0, "x"),
            fmt_opt(r[2], 1, "x"),
            fmt_opt(r[3], 1, "x"),
        );
    }
    println!();
    println!(
        "Times in ms (medians). tilec + ptxas = tilec process + ptxas; tilec as tileiras = one command, bytecode to cubin (a link named tileiras, as cuTile runs it)."
    );
    println!();

    // Summary.
    println!("| ratio | min | median | geomean | target | holds for every kernel |");
    println!("|---|---:|---:|---:|---:|---|");
    let names = [
        ("tileiras / tilec (in process)", TARGET_TILEC),
        ("tileiras / tilec (process)", TARGET_TILEC),
        ("tileiras / (tilec + ptxas)", TARGET_TILEC_PTXAS),
        ("tileiras / tilec as tileiras", TARGET_AS_TILEIRAS),
    ];
    for (i, (name, target)) in names.iter().enumerate() {
        let v: Vec<f64> = ratios.iter().filter_map(|r| r[i]).collect();
        if v.is_empty() {
            println!("| {name} | SKIPPED | SKIPPED | SKIPPED | >= {target}x | SKIPPED |");
            continue;
        }
        let min = v.iter().copied().fold(f64::INFINITY, f64::min);
        let below: Vec<String> = results
            .iter()
            .zip(&ratios)
            .filter_map(|((k, _), r)| {
                let x = r[i]?;
                (x < *target).then(|| format!("{} {x:.1}x", k.name))
            })
            .collect();
        let verdict = if below.is_empty() {
            format!("yes ({} of {})", v.len(), v.len())
        } else {
            format!(
                "NO: {} of {} below ({})",
                below.len(),
                v.len(),
                below.join(", ")
            )
        };
        println!(
            "| {name} | {min:.1}x | {:.1}x | {:.1}x | >= {target}x | {verdict} |",
            median(&v).unwrap_or(0.0),
            geomean(&v)
        );
    }
    println!();

    // In-process phases: where tilec's time goes.
    println!("tilec in process, per phase (medians, ms):");
    println!();
    println!("| kernel | {} | total |", phases.join(" | "));
    println!("|---|---:|---:|---:|---:|---:|---:|");
    let mut totals = [0.0f64; 5];
    for (k, s) in &results {
        let ph: Vec<f64> = s.phases.iter().map(|v| median(v).unwrap_or(0.0)).collect();
        for (t, p) in totals.iter_mut().zip(&ph) {
            *t += p;
        }
        println!(
            "| {} | {} | {:.3} |",
            k.name,
            ph.iter()
                .map(|p| format!("{p:.3}"))
                .collect::<Vec<_>>()
                .join(" | "),
            median(&s.in_process).unwrap_or(0.0)
        );
    }
    let sum: f64 = totals.iter().sum();
    println!(
        "| share of the corpus total | {} | {:.3} ms |",
        totals
            .iter()
            .map(|t| format!("{:.0}%", 100.0 * t / sum.max(f64::MIN_POSITIVE)))
            .collect::<Vec<_>>()
            .join(" | "),
        sum
    );
    println!();
    println!("load:     {} (1, 5, 15 min) at the end", load_average());
    println!();

    // Static code counts, tilec and tileiras side by side.
    let mut statics: Vec<StaticInput> = results
        .iter()
        .map(|(k, s)| StaticInput {
            name: k.name.clone(),
            ptx: s.ptx.clone(),
            tilec_cubin: out_dir.join(format!("{}.ptxas.cubin", k.name)),
            tileiras_cubin: out_dir.join(format!("{}.tileiras.cubin", k.name)),
        })
        .collect();
    statics.extend(example_inputs(
        &root,
        &out_dir,
        arch,
        arch_name,
        tilec.as_deref(),
        ptxas.as_deref(),
        tileiras.as_deref(),
        &mut failures,
    ));
    static_table(&statics, arch_name);

    if !failures.is_empty() {
        for f in &failures {
            eprintln!("FAILED: {f}");
            println!("FAILED: {f}");
        }
        return 1;
    }
    0
}

/// A kernel file for the static table: its PTX and the two cubins (either may be missing).
struct StaticInput {
    name: String,
    ptx: String,
    tilec_cubin: PathBuf,
    tileiras_cubin: PathBuf,
}

/// The examples (examples/*.tile) for the static table: tilec's PTX (in process) and its
/// cubin (ptxas), and tileiras' cubin of the bytecode `tilec --emit=bytecode` writes.
#[allow(clippy::too_many_arguments)]
fn example_inputs(
    root: &Path,
    out_dir: &Path,
    arch: tilec_ptx::Arch,
    arch_name: &str,
    tilec: Option<&Path>,
    ptxas: Option<&Path>,
    tileiras: Option<&Path>,
    failures: &mut Vec<String>,
) -> Vec<StaticInput> {
    let mut out = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("examples"))
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|x| x == "tile"));
    files.sort();
    for path in files {
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let name = format!("examples/{stem}");
        let Ok(input) = std::fs::read(&path) else {
            failures.push(format!("{name}: cannot read"));
            continue;
        };
        let ptx = match compile_in_process(&input, &path.display().to_string(), arch) {
            Ok((ptx, _, _)) => ptx,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let ptx_path = out_dir.join(format!("example_{stem}.ptx"));
        let tilec_cubin = out_dir.join(format!("example_{stem}.ptxas.cubin"));
        let tileiras_cubin = out_dir.join(format!("example_{stem}.tileiras.cubin"));
        let _ = std::fs::remove_file(&tilec_cubin);
        let _ = std::fs::remove_file(&tileiras_cubin);
        if let Some(ptxas) = ptxas
            && std::fs::write(&ptx_path, &ptx).is_ok()
            && let Err(e) = time_command(
                tilec::ptxas::command(ptxas)
                    .arg(format!("-arch={arch_name}"))
                    .arg("-o")
                    .arg(&tilec_cubin)
                    .arg(&ptx_path),
            )
        {
            failures.push(format!("{name}: ptxas: {e}"));
        }
        if let (Some(tilec), Some(tileiras)) = (tilec, tileiras) {
            let bc = out_dir.join(format!("example_{stem}.tileirbc"));
            let wrote = time_command(
                Command::new(tilec)
                    .arg(&path)
                    .args(["--emit=bytecode", "-o"])
                    .arg(&bc),
            );
            if let Err(e) = wrote {
                failures.push(format!("{name}: tilec --emit=bytecode: {e}"));
            } else {
                let mut cmd = Command::new(tileiras);
                cmd.arg(format!("--gpu-name={arch_name}"))
                    .arg("-o")
                    .arg(&tileiras_cubin)
                    .arg(&bc);
                if let Some(dir) = tileiras.parent() {
                    cmd.current_dir(dir);
                }
                if let Err(e) = time_command(&mut cmd) {
                    failures.push(format!("{name}: tileiras: {e}"));
                }
            }
        }
        out.push(StaticInput {
            name,
            ptx,
            tilec_cubin,
            tileiras_cubin,
        });
    }
    out
}

use tilec_tests::codestats::width_list as widths;

fn percent(x: Option<f64>) -> String {
    x.map_or("-".into(), |x| format!("{:.0}%", 100.0 * x))
}

/// Prints the static counts of every kernel: tilec's PTX, the SASS of tilec's cubin and
/// of tileiras' cubin (`cuobjdump -sass`, `-res-usage`), side by side.
fn static_table(inputs: &[StaticInput], arch_name: &str) {
    use tilec_tests::codestats::{SassCounts, ptx_counts, sass_of_cubin};
    let cuobjdump = find_tool("TILEC_CUOBJDUMP", "cuobjdump");
    if cuobjdump.is_none() {
        skipped("cuobjdump", "TILEC_CUOBJDUMP");
    }
    println!("## Static code counts ({arch_name})");
    println!();
    println!(
        "Instructions in the program text (not executions). Global accesses are `bits:count` \
         (ld/st.global and cp.async in PTX; LDG/STG/LDGSTS in SASS); \"128b\" is the share of \
         the static global bytes moved by 128-bit instructions. SASS from `cuobjdump -sass`, \
         registers and local (spill) bytes from `cuobjdump -res-usage`."
    );
    println!();
    println!(
        "| kernel | PTX global | PTX 128b | cp.async | ldmatrix | mma | tilec SASS global | tilec 128b | LDGSTS | LDSM | MMA | regs | local | tileiras SASS global | tileiras 128b | LDGSTS | LDSM | MMA | regs | local |"
    );
    println!(
        "|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|"
    );
    let sass = |cubin: &Path| -> Vec<SassCounts> {
        match &cuobjdump {
            Some(c) if cubin.is_file() => sass_of_cubin(c, cubin).unwrap_or_else(|e| {
                eprintln!("cuobjdump: {e}");
                Vec::new()
            }),
            _ => Vec::new(),
        }
    };
    let cols = |s: Option<&SassCounts>| -> String {
        match s {
            Some(s) => format!(
                "{} | {} | {} | {} | {} | {} | {}",
                widths(&s.global),
                percent(s.share_128()),
                s.ldgsts,
                s.ldsm,
                s.mma,
                s.registers,
                s.local
            ),
            None => "SKIPPED | | | | | | ".into(),
        }
    };
    let (mut spilled, mut kernels) = (Vec::new(), 0);
    for input in inputs {
        let ours = sass(&input.tilec_cubin);
        let theirs = sass(&input.tileiras_cubin);
        for (i, p) in ptx_counts(&input.ptx).iter().enumerate() {
            kernels += 1;
            let t = ours.iter().find(|s| s.name == p.name);
            // tileiras names its kernels as the bytecode does; match by position when the
            // names differ (one kernel per corpus file).
            let r = theirs
                .iter()
                .find(|s| s.name == p.name)
                .or_else(|| theirs.get(i));
            if t.is_some_and(|t| t.local > 0) {
                spilled.push(p.name.clone());
            }
            let short = if inputs.len() > 1 && ptx_counts(&input.ptx).len() > 1 {
                format!("{} ({})", input.name, p.name)
            } else {
                input.name.clone()
            };
            println!(
                "| {short} | {} | {} | {} | {} | {} | {} | {} |",
                widths(&p.global),
                percent(p.share_128()),
                p.cp_async,
                p.ldmatrix,
                p.mma,
                cols(t),
                cols(r)
            );
        }
    }
    println!();
    println!(
        "tilec kernels with local memory (spills): {} of {kernels}{}",
        spilled.len(),
        if spilled.is_empty() {
            String::new()
        } else {
            format!(" ({})", spilled.join(", "))
        }
    );
}

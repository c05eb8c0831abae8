//! Developer tasks that are too long for the test suite.
//!
//! * `cargo xtask bench [--mb N]`: generates a module of about N MB (default 50) from the
//!   kernels in `examples/`, and measures parse and print throughput and peak memory.
//! * `cargo xtask bench-canon [--ops N]`: generates modules of about N and 2N ops (default
//!   1,000,000) of kernels that exercise every canonicalization rule, and measures
//!   `canonicalize` (parse excluded) on both, reporting the time and the scaling ratio.
//! * `cargo xtask fuzz [--mutants N] [--seed S]`: runs N mutants (default 100,000) of the
//!   examples and conformance files through `tilec fmt` in process and checks that none
//!   crashes, hangs, or is rejected without a located diagnostic.
//! * `cargo xtask fuzz-bytecode [--mutants N] [--seed S]`: runs N byte-level mutants
//!   (default 100,000) of Tile IR bytecode (the cuTile corpus and every example written as
//!   bytecode 13.1-13.3) through `tilec fmt -` in process and checks that none crashes,
//!   hangs, or is rejected without an error located by byte offset (see `fuzz_bytecode.rs`).
//! * `cargo xtask bench-ptx [--runs N] [--arch sm_90] [--text]`: compile speed on the cuTile
//!   corpus: tilec (in process and as a process) and tilec + ptxas against tileiras, all
//!   reading the same `.tileirbc` (`--text`: tilec reads the `.mlir` text instead), per
//!   kernel, the median of N runs (default 10) each, as ratios (see `bench_ptx.rs`).
//! * `cargo xtask bench-interp [--elems N] [--runs R]`: the reference interpreter's
//!   elementwise speed on one core, in element-ops per second (see `bench_interp.rs`).
//! * `cargo xtask diff-canon [--kernels N] [--seed S] [--inputs K]`: differential
//!   canonicalization: every canonicalize test case and N random kernels (default 10,000)
//!   run by the interpreter before and after canonicalization must agree (see
//!   `diff_canon.rs`).
//! * `cargo xtask gpu-test [--sim] [--random N] [--seed S] [--only NAME] [--arch A]
//!   [--num-warps W] [--fast-math] [--verbose]`: the GPU correctness sweep (every example,
//!   conformance and cuTile corpus entry that can run, N random kernels, default 200) run
//!   on the GPU and compared with the interpreter; without a GPU it says so, checks that
//!   every case compiles and marshals, and exits 0; `--sim` runs it on the PTX simulator
//!   (see `gpu_test.rs`).
//! * `cargo xtask gpu-bench [--reps N] [--warmup N] [--only NAME] [--arch sm_90] [--json OUT]`:
//!   tilec's kernels on the GPU: vector_add, row_softmax, layernorm and transpose in GB/s
//!   against the device's copy bandwidth, matmul in TFLOP/s against cuBLAS, each next to
//!   tileiras' code for the same cuTile kernel (see `gpu_bench.rs`, docs/gpu-harness.md).
//!   Without a GPU it says so and exits 0.

mod bench_interp;
mod bench_ptx;
mod diff_canon;
mod dist;
mod fuzz_bytecode;
mod fuzz_resource;
mod gpu_bench;
mod gpu_test;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opt = |name: &str| -> Option<String> {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let code = match args.first().map(String::as_str) {
        Some("bench") => bench(opt("--mb").and_then(|v| v.parse().ok()).unwrap_or(50)),
        Some("bench-canon") => bench_canon(
            opt("--ops")
                .and_then(|v| v.parse().ok())
                .unwrap_or(1_000_000),
        ),
        Some("fuzz") if args.iter().any(|a| a == "--resource") => fuzz_resource::fuzz_resource(
            opt("--mutants")
                .and_then(|v| v.parse().ok())
                .unwrap_or(100_000),
            opt("--seed").and_then(|v| v.parse().ok()).unwrap_or(1913),
        ),
        Some("fuzz") => fuzz(
            opt("--mutants")
                .and_then(|v| v.parse().ok())
                .unwrap_or(100_000),
            opt("--seed")
                .and_then(|v| v.parse().ok())
                .unwrap_or(0x711ec),
        ),
        Some("fuzz-bytecode") => fuzz_bytecode::fuzz_bytecode(
            opt("--mutants")
                .and_then(|v| v.parse().ok())
                .unwrap_or(100_000),
            opt("--seed").and_then(|v| v.parse().ok()).unwrap_or(2611),
        ),
        Some("bench-ptx") => bench_ptx::bench_ptx(
            opt("--runs").and_then(|v| v.parse().ok()).unwrap_or(10),
            opt("--arch").as_deref().unwrap_or("sm_90"),
            args.iter().any(|a| a == "--text"),
        ),
        Some("bench-interp") => bench_interp::bench_interp(
            opt("--elems").and_then(|v| v.parse().ok()).unwrap_or(65536),
            opt("--runs").and_then(|v| v.parse().ok()).unwrap_or(5),
        ),
        Some("diff-canon") => diff_canon::diff_canon(
            opt("--kernels")
                .and_then(|v| v.parse().ok())
                .unwrap_or(10_000),
            opt("--seed").and_then(|v| v.parse().ok()).unwrap_or(1),
            opt("--inputs").and_then(|v| v.parse().ok()).unwrap_or(8),
        ),
        Some("gpu-test") => gpu_test::gpu_test(&gpu_test::Options {
            sim: args.iter().any(|a| a == "--sim"),
            random: opt("--random").and_then(|v| v.parse().ok()).unwrap_or(200),
            seed: opt("--seed").and_then(|v| v.parse().ok()).unwrap_or(1),
            only: opt("--only"),
            arch: opt("--arch"),
            num_warps: opt("--num-warps").and_then(|v| v.parse().ok()),
            fast_math: args.iter().any(|a| a == "--fast-math"),
            warp_specialize: args.iter().any(|a| a == "--warp-specialize"),
            num_ctas: opt("--num-ctas").and_then(|v| v.parse().ok()),
            verbose: args.iter().any(|a| a == "--verbose"),
            dump: opt("--dump").map(PathBuf::from),
            from: opt("--from").and_then(|v| v.parse().ok()).unwrap_or(0),
            corpus: opt("--corpus").map(PathBuf::from),
            structured: opt("--structured")
                .and_then(|v| v.parse().ok())
                .unwrap_or(50),
        }),
        Some("dist") => dist::dist(),
        Some("gpu-bench") => gpu_bench::gpu_bench(&args[1..]),
        Some("__time") => time(args.get(1).map(PathBuf::from)),
        Some("__memory") => memory(args.get(1).map(PathBuf::from)),
        Some("__cli") => cli(args.get(1).map(PathBuf::from)),
        _ => {
            eprintln!(
                "usage: cargo xtask bench [--mb N] | cargo xtask bench-canon [--ops N] | cargo xtask fuzz [--resource] [--mutants N] [--seed S] | cargo xtask fuzz-bytecode [--mutants N] [--seed S] | cargo xtask bench-ptx [--runs N] [--arch sm_90] [--text] | cargo xtask bench-interp [--elems N] [--runs R] | cargo xtask diff-canon [--kernels N] [--seed S] [--inputs K] | cargo xtask gpu-test [--sim] [--random N] [--seed S] [--only NAME] [--arch sm_90] [--num-warps W] [--fast-math] [--warp-specialize] [--num-ctas N] [--from K] [--dump DIR] | cargo xtask gpu-bench [--reps N] [--warmup N] [--only NAME] [--arch sm_90] [--json OUT] | cargo xtask dist"
            );
            2
        }
    };
    std::process::exit(code);
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Peak resident memory of this process in bytes (Linux `VmHWM`).
fn peak_rss() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn example_texts() -> Vec<String> {
    tilec_tests::example_files()
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .collect()
}

/// The bodies of the example modules in canonical form (as `tilec fmt` prints them: no
/// comments, NVIDIA's spacing and value names), one string of entries per example.
fn canonical_bodies() -> Vec<String> {
    let opts = tilec_parse::ParseOptions::default();
    example_texts()
        .iter()
        .filter_map(|t| {
            let m = tilec_parse::parse(t, tilec_diag::FileId(0), &opts).ok()?;
            let printed = tilec_ir::print_module(&m, &tilec_ir::PrintOptions::default());
            // Drop the `cuda_tile.module @examples {` line and the closing brace.
            let body = printed.split_once('\n')?.1.trim_end().strip_suffix('}')?;
            Some(body.to_string())
        })
        .collect()
}

/// Builds one `cuda_tile.module` of about `bytes` bytes holding copies of the examples'
/// kernels in canonical form, each entry renamed to be unique: the op mix of the examples,
/// as a frontend or `tilec fmt` would write it.
fn generate(bytes: usize) -> String {
    let bodies = canonical_bodies();
    let mut out = String::with_capacity(bytes + 64 * 1024);
    out.push_str("cuda_tile.module @bench {\n");
    let mut n = 0usize;
    while out.len() < bytes && !bodies.is_empty() {
        for b in &bodies {
            out.push_str(&b.replace("  entry @", &format!("  entry @k{n}_")));
            n += 1;
        }
    }
    out.push_str("}\n");
    out
}

fn bench(mb: usize) -> i32 {
    let text = generate(mb * 1024 * 1024);
    if text.is_empty() {
        eprintln!("no examples found in examples/");
        return 1;
    }
    let dir = root().join("bench-out");
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join("bench.tile");
    if let Err(e) = std::fs::write(&path, &text) {
        eprintln!("cannot write {}: {e}", path.display());
        return 1;
    }
    let size = text.len() as f64;
    drop(text);
    println!(
        "input: {} ({:.1} MB, {} lines)",
        path.display(),
        size / 1e6,
        std::fs::read_to_string(&path)
            .map(|t| t.lines().count())
            .unwrap_or(0)
    );
    // Each measurement runs in a fresh process: peak memory is then that of the measured
    // work alone (not of the generator, nor of earlier runs).
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("xtask"));
    for mode in ["__time", "__memory", "__cli"] {
        let status = std::process::Command::new(&exe)
            .arg(mode)
            .arg(&path)
            .status();
        if !matches!(status, Ok(s) if s.success()) {
            eprintln!("{mode} failed");
            return 1;
        }
    }
    0
}

/// A kernel in which every canonicalization rule fires (folds, if and select patterns,
/// dead code, constants to unique and hoist); `@k0` is renamed per copy.
const CANON_KERNEL: &str = include_str!("canon_kernel.tile");

/// A module of about `ops` ops: copies of [`CANON_KERNEL`]'s entry.
fn generate_canon(ops: usize) -> String {
    let entry = CANON_KERNEL
        .split_once('\n')
        .map(|x| x.1)
        .and_then(|b| b.trim_end().strip_suffix('}'))
        .unwrap_or("");
    let one = format!("cuda_tile.module @bench {{\n{entry}}}\n");
    let per_copy = parse_or_report(&one)
        .map_or(1, |m| m.count_ops() - 2)
        .max(1);
    let copies = ops.div_ceil(per_copy);
    let mut out = String::with_capacity(copies * entry.len() + 64);
    out.push_str("cuda_tile.module @bench {\n");
    for i in 0..copies {
        out.push_str(&entry.replace("entry @k0", &format!("entry @k{i}")));
    }
    out.push_str("}\n");
    out
}

/// Canonicalization time for generated modules of `ops` and `2 * ops` ops.
fn bench_canon(ops: usize) -> i32 {
    let mut results = Vec::new();
    for n in [ops, 2 * ops] {
        let text = generate_canon(n);
        let runs = 3;
        let mut best = Duration::MAX;
        let mut before = 0;
        let mut after = 0;
        let mut stats = tilec_opt::Stats::default();
        for _ in 0..runs {
            let Some(mut m) = parse_or_report(&text) else {
                return 1;
            };
            before = m.count_ops();
            let opts = tilec_opt::CanonOptions::default();
            stats = tilec_opt::Stats::default();
            let t = Instant::now();
            let diags = tilec_opt::canonicalize(&mut m, &opts, &mut stats);
            best = best.min(t.elapsed());
            after = m.count_ops();
            if !diags.is_empty() {
                eprintln!("canonicalize: {}", diags[0].message);
                return 1;
            }
            let v = tilec_verify::verify(&m, &tilec_verify::VerifyOptions::default());
            if !v.is_empty() {
                eprintln!("canonicalized module does not verify: {}", v[0].message);
                return 1;
            }
        }
        println!(
            "canonicalize {before:>9} ops ({:.1} MB): {:.3} s best of {runs} = {:.2} M ops/s; {after} ops after, {} rounds",
            text.len() as f64 / 1e6,
            best.as_secs_f64(),
            before as f64 / 1e6 / best.as_secs_f64(),
            stats.iterations
        );
        results.push((before, best));
    }
    let ratio = results[1].1.as_secs_f64() / results[0].1.as_secs_f64();
    println!(
        "scaling: {:.2}x the ops took {ratio:.2}x the time",
        results[1].0 as f64 / results[0].0 as f64
    );
    0
}

/// Counts the bytes written to it.
struct Count(usize);

impl std::io::Write for Count {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0 += b.len();
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn read_input(path: Option<PathBuf>) -> Option<String> {
    let path = path?;
    std::fs::read_to_string(&path)
        .map_err(|e| eprintln!("{}: {e}", path.display()))
        .ok()
}

fn parse_or_report(text: &str) -> Option<tilec_ir::Module> {
    let opts = tilec_parse::ParseOptions::default();
    tilec_parse::parse(text, tilec_diag::FileId(0), &opts)
        .map_err(|d| eprintln!("parse failed: {:?}", d.first()))
        .ok()
}

/// Throughput: the best of three runs of parsing, streamed printing and string printing.
fn time(path: Option<PathBuf>) -> i32 {
    let Some(text) = read_input(path) else {
        return 1;
    };
    let size = text.len() as f64;
    let runs = 3;
    let mut best_parse = Duration::MAX;
    let mut module: Option<tilec_ir::Module> = None;
    for _ in 0..runs {
        drop(module.take()); // free the previous module before parsing again
        let t = Instant::now();
        let m = parse_or_report(&text);
        best_parse = best_parse.min(t.elapsed());
        module = m;
        if module.is_none() {
            return 1;
        }
    }
    let Some(m) = module else { return 1 };
    let ops = m.count_ops();
    let opts = tilec_ir::PrintOptions::default();
    let mut best_stream = Duration::MAX;
    let mut streamed = 0usize;
    for _ in 0..runs {
        let mut sink = Count(0);
        let t = Instant::now();
        if let Err(e) = tilec_ir::print_module_to(&m, &opts, &mut sink) {
            eprintln!("print failed: {e}");
            return 1;
        }
        best_stream = best_stream.min(t.elapsed());
        streamed = sink.0;
    }
    let mut best_string = Duration::MAX;
    let mut out_len = 0usize;
    for _ in 0..runs {
        let t = Instant::now();
        let s = tilec_ir::print_module(&m, &opts);
        best_string = best_string.min(t.elapsed());
        out_len = s.len();
    }
    let mut best_verify = Duration::MAX;
    for personality in [
        tilec_verify::Personality::Spec,
        tilec_verify::Personality::CudaTileOpt,
    ] {
        for _ in 0..runs {
            let t = Instant::now();
            let d = tilec_verify::verify(
                &m,
                &tilec_verify::VerifyOptions {
                    personality,
                    ..Default::default()
                },
            );
            best_verify = best_verify.min(t.elapsed());
            if !d.is_empty() {
                eprintln!("verification failed: {}", d[0].message);
                return 1;
            }
        }
    }
    let mbs = |bytes: f64, d: Duration| bytes / 1e6 / d.as_secs_f64();
    println!("ops: {ops}");
    println!(
        "parse:            {:.3} s best of {runs} = {:6.1} MB/s ({:.2} M ops/s)",
        best_parse.as_secs_f64(),
        mbs(size, best_parse),
        ops as f64 / 1e6 / best_parse.as_secs_f64()
    );
    println!(
        "verify:           {:.3} s best of {} = {:6.1} MB/s of input ({:.2} M ops/s)",
        best_verify.as_secs_f64(),
        2 * runs,
        mbs(size, best_verify),
        ops as f64 / 1e6 / best_verify.as_secs_f64()
    );
    println!(
        "print (streamed): {:.3} s best of {runs} = {:6.1} MB/s of output ({:.1} MB)",
        best_stream.as_secs_f64(),
        mbs(streamed as f64, best_stream),
        streamed as f64 / 1e6
    );
    println!(
        "print (string):   {:.3} s best of {runs} = {:6.1} MB/s of output ({:.1} MB)",
        best_string.as_secs_f64(),
        mbs(out_len as f64, best_string),
        out_len as f64 / 1e6
    );
    0
}

/// Peak memory (the process's RSS high-water mark, the input text included) after one
/// parse, then one streamed print, then one print into a string.
fn memory(path: Option<PathBuf>) -> i32 {
    let Some(text) = read_input(path) else {
        return 1;
    };
    let size = text.len() as f64;
    let base = peak_rss().unwrap_or(0);
    let Some(m) = parse_or_report(&text) else {
        return 1;
    };
    let after_parse = peak_rss().unwrap_or(0);
    let opts = tilec_ir::PrintOptions::default();
    let mut sink = Count(0);
    if let Err(e) = tilec_ir::print_module_to(&m, &opts, &mut sink) {
        eprintln!("print failed: {e}");
        return 1;
    }
    let after_stream = peak_rss().unwrap_or(0);
    let s = tilec_ir::print_module(&m, &opts);
    let after_string = peak_rss().unwrap_or(0);
    drop(s);
    let line = |what: &str, b: u64, note: &str| {
        println!(
            "  {what:<22} {:6.1} MB ({:.2}x input){note}",
            b as f64 / 1e6,
            b as f64 / size
        )
    };
    println!("peak memory (RSS high-water mark, input text included):");
    line("input read", base, "");
    line("parsed", after_parse, "");
    line("printed, streamed", after_stream, "");
    line(
        "printed into a string",
        after_string,
        " (the whole output held as well)",
    );
    0
}

/// The command line end to end: `tilec fmt INPUT -o OUTPUT` in process, timed, with its
/// peak memory.
fn cli(path: Option<PathBuf>) -> i32 {
    let Some(path) = path else { return 2 };
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0) as f64;
    let out = path.with_extension("fmt.tile");
    let args: Vec<std::ffi::OsString> = vec![
        "tilec".into(),
        "opt".into(),
        path.clone().into(),
        "-o".into(),
        out.clone().into(),
    ];
    let (mut stdin, mut stdout, mut stderr) =
        (std::io::empty(), std::io::sink(), std::io::stderr());
    let mut io = tilec::Io {
        stdin: &mut stdin,
        stdout: &mut stdout,
        stderr: &mut stderr,
        stderr_is_tty: false,
    };
    let t = Instant::now();
    let status = tilec::run(args, &mut io);
    let dt = t.elapsed();
    let peak = peak_rss().unwrap_or(0);
    let same = std::fs::read(&out).ok() == std::fs::read(&path).ok();
    let _ = std::fs::remove_file(&out);
    if status != 0 {
        eprintln!("tilec fmt exited {status}");
        return 1;
    }
    println!(
        "tilec fmt (read, parse, print, write): {:.3} s = {:.1} MB/s, peak memory {:.1} MB ({:.2}x input), output {} the input",
        dt.as_secs_f64(),
        size / 1e6 / dt.as_secs_f64(),
        peak as f64 / 1e6,
        peak as f64 / size,
        if same { "identical to" } else { "differs from" }
    );
    0
}

fn fuzz(mutants: usize, seed: u64) -> i32 {
    use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};
    use tilec_tests::mutate::{KINDS, Outcome, Rng, check_mutant, mutate, token_ranges};

    let mut seeds: Vec<(String, String)> = Vec::new();
    let mut dirs = vec![
        root().join("examples"),
        root().join("tests/op_samples"),
        root().join("tests/corpus/cutile"),
    ];
    if let Some(shared) = tilec_tests::shared_dir() {
        dirs.push(shared.join("conformance/cuda-tile-13.1"));
        dirs.push(shared.join("conformance/cutile-samples"));
        let t = shared.join("conformance/cuda-tile-13.3/test");
        for d in [
            "Dialect/CudaTile",
            "Bytecode",
            "Bytecode/versioning",
            "Bytecode/invalid",
            "Transforms",
        ] {
            dirs.push(t.join(d));
        }
    }
    for d in &dirs {
        let Ok(rd) = std::fs::read_dir(d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if matches!(
                p.extension().and_then(|x| x.to_str()),
                Some("tile" | "mlir")
            ) && let Ok(t) = std::fs::read_to_string(&p)
            {
                // Split files into their chunks: smaller seeds, more mutants per second.
                for (i, chunk) in t.split("\n// -----").enumerate() {
                    if chunk.trim().is_empty() {
                        continue;
                    }
                    seeds.push((format!("{}#{i}", p.display()), chunk.to_string()));
                }
            }
        }
    }
    // The canonicalization benchmark's kernel, where every rewrite rule fires: its
    // mutants exercise the canonicalizer on near-miss inputs.
    seeds.push((
        "xtask/src/canon_kernel.tile".into(),
        CANON_KERNEL.to_string(),
    ));
    if seeds.is_empty() {
        eprintln!("no seeds found");
        return 1;
    }
    // The generic form of every seed that parses is a seed too: mutating it reaches ops
    // that the custom syntax cannot express (and the printer's generic fallback).
    let generic_opts = tilec_ir::PrintOptions {
        generic: true,
        ..Default::default()
    };
    let parse_opts = tilec_parse::ParseOptions {
        allow_unregistered: true,
        ..Default::default()
    };
    let generic: Vec<(String, String)> = seeds
        .iter()
        .filter_map(|(name, text)| {
            let m = tilec_parse::parse(text, tilec_diag::FileId(0), &parse_opts).ok()?;
            Some((
                format!("{name} (generic)"),
                tilec_ir::print_module(&m, &generic_opts),
            ))
        })
        .collect();
    seeds.extend(generic);
    let seeds = Arc::new(seeds);
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2);
    let next = Arc::new(AtomicUsize::new(0));
    let counts = Arc::new([AtomicUsize::new(0), AtomicUsize::new(0)]);
    // (description, mutant) of every failure.
    type Failures = Arc<Mutex<Vec<(String, Vec<u8>)>>>;
    let failures: Failures = Arc::new(Mutex::new(Vec::new()));
    let heartbeats: Arc<Vec<AtomicU64>> =
        Arc::new((0..threads).map(|_| AtomicU64::new(0)).collect());
    let done = Arc::new(AtomicBool::new(false));
    let start = Instant::now();
    let mut handles = Vec::new();
    for t in 0..threads {
        let (seeds, next, counts, failures, heartbeats) = (
            seeds.clone(),
            next.clone(),
            counts.clone(),
            failures.clone(),
            heartbeats.clone(),
        );
        handles.push(std::thread::spawn(move || {
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= mutants {
                    break;
                }
                heartbeats[t].store(start.elapsed().as_millis() as u64 + 1, Ordering::Relaxed);
                let (name, text) = &seeds[i % seeds.len()];
                let mut rng = Rng::new(seed ^ (i as u64).wrapping_mul(0x2545_F491_4F6C_DD1D));
                let tokens = token_ranges(text);
                let kind = KINDS[(i / seeds.len()) % KINDS.len()];
                let mut m = mutate(text, &tokens, kind, &mut rng);
                // Every fourth round stacks up to three more mutations of random kinds.
                if (i / (seeds.len() * KINDS.len())) % 4 == 3 {
                    for _ in 0..1 + rng.below(3) {
                        let text = String::from_utf8_lossy(&m).into_owned();
                        let tokens = token_ranges(&text);
                        let k = KINDS[rng.below(KINDS.len())];
                        m = mutate(&text, &tokens, k, &mut rng);
                    }
                }
                // With TILEC_FUZZ_TRACE=prefix, each thread keeps its current mutant in
                // `prefix.<thread>`, so that a mutant that kills the process can be found.
                if let Some(prefix) = std::env::var_os("TILEC_FUZZ_TRACE") {
                    let mut path = std::path::PathBuf::from(prefix);
                    path.as_mut_os_string().push(format!(".{t}"));
                    let _ = std::fs::write(path, &m);
                }
                match check_mutant(&m) {
                    Ok(Outcome::Accepted) => {
                        counts[0].fetch_add(1, Ordering::Relaxed);
                    }
                    Ok(Outcome::Rejected) => {
                        counts[1].fetch_add(1, Ordering::Relaxed);
                    }
                    Err(e) => {
                        if let Ok(mut f) = failures.lock() {
                            f.push((format!("{name} #{i} {kind:?}: {e}"), m));
                        }
                    }
                }
            }
            heartbeats[t].store(0, Ordering::Relaxed);
        }));
    }
    // Watchdog: a mutant that runs for more than 20 s is a hang.
    let watchdog = {
        let (heartbeats, done) = (heartbeats.clone(), done.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(500));
                let now = start.elapsed().as_millis() as u64;
                for hb in heartbeats.iter() {
                    let t = hb.load(Ordering::Relaxed);
                    if t != 0 && now.saturating_sub(t) > 20_000 {
                        eprintln!("HANG: a mutant has been running for more than 20 s");
                        std::process::exit(1);
                    }
                }
            }
        })
    };
    let mut last = Instant::now();
    while next.load(Ordering::Relaxed) < mutants {
        std::thread::sleep(Duration::from_millis(200));
        if last.elapsed() > Duration::from_secs(10) {
            last = Instant::now();
            eprintln!(
                "  {} / {mutants} mutants",
                next.load(Ordering::Relaxed).min(mutants)
            );
        }
    }
    for h in handles {
        let _ = h.join();
    }
    done.store(true, Ordering::Relaxed);
    let _ = watchdog.join();
    let failures = failures.lock().map(|f| f.clone()).unwrap_or_default();
    let secs = start.elapsed().as_secs_f64();
    println!(
        "fuzz: {mutants} mutants of {} seeds in {secs:.1} s ({:.0}/s): {} accepted, {} rejected with located diagnostics, {} failures",
        seeds.len(),
        mutants as f64 / secs,
        counts[0].load(Ordering::Relaxed),
        counts[1].load(Ordering::Relaxed),
        failures.len()
    );
    if !failures.is_empty() {
        let dir = root().join("bench-out/fuzz-failures");
        let _ = std::fs::create_dir_all(&dir);
        for (i, (msg, bytes)) in failures.iter().enumerate().take(50) {
            let p: PathBuf = dir.join(format!("failure-{i}.tile"));
            let _ = std::fs::write(&p, bytes);
            eprintln!("FAILURE {msg}\n  saved as {}", p.display());
        }
        return 1;
    }
    let _ = Path::new(".");
    0
}

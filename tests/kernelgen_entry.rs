//! Entry mode of the kernel generator (`tilec_tests::kernelgen::entry_kernel`): random
//! entries for the GPU harness. Over 100 seeds every module parses and verifies, its
//! `--arg` values bind to the entry's parameters, at least 90% run in the interpreter
//! without undefined behaviour, every one compiles with the PTX backend for sm_90 (after
//! canonicalization), and ptxas accepts the PTX (when it is installed: `TILEC_PTXAS`,
//! `PATH` or a CUDA wheel; otherwise that part is skipped, loudly). The same seed gives
//! the same module.
//!
//! `TILEC_GEN_ENTRIES=N` changes the number of seeds (default 100).

use std::path::Path;
use tilec_ir::{Module, Op, Opcode};
use tilec_tests::{kernelgen, ptxas};

fn seed_count() -> u64 {
    std::env::var("TILEC_GEN_ENTRIES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100)
}

/// What happened to one generated entry.
struct Checked {
    text: String,
    grid: [u32; 3],
    /// The verified module, before canonicalization, and its arguments.
    module: Module,
    bound: tilec_interp::args::Bound,
    /// The interpreter's error (undefined behaviour on these arguments), if any.
    run: Result<(), String>,
    /// The PTX, or the backend's errors.
    ptx: Result<String, String>,
}

fn the_entry(m: &Module) -> Op {
    let mut found = None;
    m.walk(|op| {
        if m.opcode(op) == Opcode::Entry {
            found = Some(op);
        }
    });
    found.expect("an entry")
}

/// Parses, verifies, binds and runs the entry of `seed`, then compiles it; `Err` for what
/// must never happen (a module that does not verify, arguments that do not bind).
fn check(seed: u64) -> Result<Checked, String> {
    let g = kernelgen::entry_kernel(seed);
    let fail = |what: &str, e: String| Err(format!("seed {seed}: {what}: {e}\n{}", g.text));
    let popts = tilec_parse::ParseOptions::default();
    let mut m = match tilec_parse::parse(&g.text, tilec_diag::FileId(0), &popts) {
        Ok(m) => m,
        Err(d) => return fail("does not parse", format!("{:?}", d.first())),
    };
    let errs: Vec<String> = tilec_verify::verify(&m, &tilec_verify::VerifyOptions::default())
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("{}: {}", d.code, d.message))
        .collect();
    if !errs.is_empty() {
        return fail("does not verify", errs.join("\n"));
    }
    let entry = the_entry(&m);
    let params: Vec<tilec_ir::Type> = m
        .entry_block(m.region(entry, 0))
        .map(|b| m.block_args(b).iter().map(|v| m.value_type(*v)).collect())
        .unwrap_or_default();
    let mut specs = Vec::new();
    for a in &g.args {
        let mut read = |_: &Path| Err(std::io::Error::other("no files"));
        match tilec_interp::args::parse(a, &mut read) {
            Ok(s) => specs.push(s),
            Err(e) => return fail("bad argument", e),
        }
    }
    let bound = match tilec_interp::args::bind(&m.ctx.types, &params, specs) {
        Ok(b) => b,
        Err(e) => return fail("arguments do not bind", e.to_string()),
    };
    let opts = tilec_interp::Options {
        parallel: false,
        threads: 1,
        max_ops: Some(1_000_000),
        conflicting_stores: false,
        variant: tilec_interp::Variant::default(),
    };
    let mut mem = bound.memory.clone();
    let module = m.clone();
    let run = tilec_interp::run_with(&m, entry, g.grid, &bound.args, &mut mem, &opts)
        .map(|_| ())
        .map_err(|e| e.message);
    tilec_opt::run_pipeline(
        &mut m,
        &[tilec_opt::Pass::Canonicalize],
        &Default::default(),
        &mut Default::default(),
    );
    let ptx_opts = tilec_ptx::Options {
        arch: tilec_ptx::Arch::Sm90,
        ..Default::default()
    };
    let ptx = tilec_ptx::compile(&m, &ptx_opts, None).map_err(|d| {
        d.iter()
            .map(|d| format!("{}: {}", d.code, d.message))
            .collect::<Vec<_>>()
            .join("\n")
    });
    Ok(Checked {
        text: g.text,
        grid: g.grid,
        module,
        bound,
        run,
        ptx,
    })
}

/// ptxas's complaints about `ptx` (empty when it assembles cleanly).
fn ptxas_problems(tool: &Path, dir: &Path, seed: u64, ptx: &str) -> Vec<String> {
    let file = dir.join(format!("entry{seed}.ptx"));
    std::fs::write(&file, ptx).expect("write the PTX");
    let report = ptxas::assemble(tool, &file, "sm_90");
    if report.ok && report.problems.is_empty() {
        let _ = std::fs::remove_file(&file);
        return Vec::new();
    }
    let mut p = report.problems;
    if p.is_empty() {
        p.push("ptxas failed".into());
    }
    p
}

fn temp_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tilec-gen-entry-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn entry_kernels_verify_run_and_compile() {
    let n = seed_count();
    let tool = ptxas::find();
    if tool.is_none() {
        tilec_tests::skipped(
            "ptxas not found",
            "kernelgen_entry checks that the entries compile, not that ptxas accepts them \
             (set TILEC_PTXAS or `pip install nvidia-cuda-nvcc`)",
        );
    }
    let dir = temp_dir();
    let (mut ran, mut failures) = (0u64, Vec::new());
    let mut ub = Vec::new();
    for seed in 0..n {
        let c = match check(seed) {
            Ok(c) => c,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        match &c.run {
            Ok(()) => ran += 1,
            Err(e) => ub.push(format!("seed {seed}: {e}")),
        }
        match &c.ptx {
            Err(e) => failures.push(format!("seed {seed}: does not compile: {e}\n{}", c.text)),
            Ok(ptx) => {
                if let Some(tool) = &tool {
                    let p = ptxas_problems(tool, &dir, seed, ptx);
                    if !p.is_empty() {
                        failures.push(format!("seed {seed}: ptxas: {}\n{}", p.join("\n"), c.text));
                    }
                }
            }
        }
    }
    let _ = std::fs::remove_dir(&dir);
    for u in &ub {
        eprintln!("  undefined behaviour: {u}");
    }
    eprintln!("{ran} of {n} entries ran without undefined behaviour");
    for f in failures.iter().take(3) {
        eprintln!("{f}");
    }
    assert!(failures.is_empty(), "{} failures", failures.len());
    assert!(ran * 10 >= n * 9, "only {ran} of {n} ran without UB");
}

#[test]
fn entry_kernels_are_deterministic() {
    for seed in [0, 1, 7, 1234] {
        assert_eq!(kernelgen::entry_kernel(seed), kernelgen::entry_kernel(seed));
    }
    assert_ne!(
        kernelgen::entry_kernel(1).text,
        kernelgen::entry_kernel(2).text
    );
}

/// The figures (`cargo test --test kernelgen_entry -- --ignored --nocapture`, with
/// `TILEC_GEN_ENTRIES`; `TILEC_GEN_DUMP=SEED` prints one entry instead): how many verify, run, compile and assemble, and why not.
#[test]
#[ignore]
fn entry_kernel_figures() {
    let n = seed_count();
    if let Some(seed) = std::env::var("TILEC_GEN_DUMP")
        .ok()
        .and_then(|s| s.parse().ok())
    {
        let g = kernelgen::entry_kernel(seed);
        eprintln!(
            "{}--arg {}\n--grid {:?}",
            g.text,
            g.args.join(" --arg "),
            g.grid
        );
        return;
    }
    // The simulator panics on PTX it does not cover (caught, and counted below).
    std::panic::set_hook(Box::new(|_| {}));
    let tool = ptxas::find();
    let dir = temp_dir();
    let (mut verified, mut ran, mut compiled, mut assembled) = (0, 0, 0, 0);
    let (mut simulated, mut agreed) = (0, 0);
    let mut why = std::collections::BTreeMap::<String, (u32, u64)>::new();
    let mut note = |k: String, seed: u64| why.entry(k).or_insert((0, seed)).0 += 1;
    for seed in 0..n {
        let c = match check(seed) {
            Ok(c) => c,
            Err(e) => {
                note(e.lines().next().unwrap_or_default().to_string(), seed);
                continue;
            }
        };
        verified += 1;
        match &c.run {
            Ok(()) => ran += 1,
            Err(e) => note(format!("UB: {}", first_words(e)), seed),
        }
        match &c.ptx {
            Err(e) => note(format!("backend: {}", first_words(e)), seed),
            Ok(ptx) => {
                compiled += 1;
                if c.run.is_ok() {
                    match on_simulator(&c, ptx) {
                        Ok(()) => (simulated, agreed) = (simulated + 1, agreed + 1),
                        Err((true, e)) => {
                            simulated += 1;
                            note(format!("ptxsim differs: {}", first_words(&e)), seed);
                        }
                        Err((false, e)) => note(format!("ptxsim: {}", first_words(&e)), seed),
                    }
                }
                if let Some(tool) = &tool {
                    let p = ptxas_problems(tool, &dir, seed, ptx);
                    if p.is_empty() {
                        assembled += 1;
                    } else {
                        note(format!("ptxas: {}", first_words(&p[0])), seed);
                    }
                }
            }
        }
    }
    let pct = |k: u64| 100.0 * k as f64 / n as f64;
    eprintln!(
        "{n} seeds: verify {:.1}%, no UB {:.1}%, compile {:.1}%, ptxas {:.1}%{}",
        pct(verified),
        pct(ran),
        pct(compiled),
        pct(assembled),
        if tool.is_none() { " (no ptxas)" } else { "" }
    );
    eprintln!("ptxsim ran {simulated} of those without UB; {agreed} agree with the interpreter");
    for (k, (count, seed)) in &why {
        eprintln!("  {count:4} {k} (first: seed {seed})");
    }
}

/// Runs `c` on the PTX simulator and compares its buffers with the interpreter's:
/// `Err((true, _))` for a difference, `Err((false, _))` where the simulator cannot run it.
fn on_simulator(c: &Checked, ptx: &str) -> Result<(), (bool, String)> {
    let entry = the_entry(&c.module);
    let case = tilec_gpu::Case {
        module: &c.module,
        entry,
        ptx,
        kernel: "kernel",
        grid: c.grid,
        num_warps: 4,
        bound: &c.bound,
        policy: tilec_gpu::Policy::of(&c.module, entry, false, c.grid),
        max_ops: 1_000_000,
    };
    let mut sim = tilec_tests::simgpu::SimGpu::default();
    match tilec_gpu::check(&mut sim, &case) {
        Ok(r) if r.passed() => Ok(()),
        Ok(r) => Err((true, r.render(&c.module).replace('\n', " "))),
        Err(e) => Err((false, format!("{e:?}"))),
    }
}

/// The start of `s`'s first line, without line numbers and paths (to group reasons).
fn first_words(s: &str) -> String {
    let line = s.lines().next().unwrap_or_default();
    let words: Vec<&str> = line
        .split_whitespace()
        .filter(|w| !w.contains('/') && w.trim_end_matches([':', ';', ',']).parse::<u64>().is_err())
        .collect();
    words.join(" ").chars().take(90).collect()
}

/// `itof` to f8E4M3FN / f8E5M2 converts through f32 and then to the f8 type (the PTX
/// used to hand the f32 register on as the f8 value, which ptxas rejected: "Arguments
/// mismatch for instruction 'cvt'"), from every integer source type.
#[test]
fn itof_to_f8_assembles() {
    let mut body = String::new();
    let mut params = String::new();
    for (k, src) in ["i1", "i8", "i16", "i32", "i64"].iter().enumerate() {
        for (j, f8) in ["f8E4M3FN", "f8E5M2"].iter().enumerate() {
            for sg in ["signed", "unsigned"] {
                let n = format!("{k}_{j}_{sg}");
                params.push_str(&format!("%o{n}: tile<ptr<{f8}>>, "));
                body.push_str(&format!(
                    "    %x{n} = constant <{src}: 1> : tile<{src}>\n    %c{n} = itof %x{n} {sg} : tile<{src}> -> tile<{f8}>\n    %s{n} = store_ptr_tko weak %o{n}, %c{n} token=%t : tile<ptr<{f8}>>, tile<{f8}> -> token\n"
                ));
            }
        }
    }
    let text = format!(
        "cuda_tile.module @kernels {{\n  entry @kernel({}) {{\n    %t = make_token : token\n{body}    return\n  }}\n}}\n",
        params.trim_end_matches(", ")
    );
    let out = tilec_tests::run_tilec(&["-", "--arch", "sm_90", "-o", "-"], &text);
    assert_eq!(out.status, 0, "{}", out.stderr);
    let Some(tool) = ptxas::find() else {
        eprintln!("ptxas not found: only compilation is checked");
        return;
    };
    let problems = ptxas_problems(&tool, &temp_dir(), 0xf8, &out.stdout);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

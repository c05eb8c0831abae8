//! `tilec run FILE --grid X[,Y[,Z]] --arg VALUE...`: executes a kernel with the reference
//! interpreter (tilec-interp; docs/interpreter.md).

use super::{CommonArgs, Driver, EXIT_DIAGNOSTICS, EXIT_OK, EXIT_USAGE};
use clap::Args;
use std::path::PathBuf;
use tilec_diag::{Diagnostic, Location, codes};
use tilec_ir::{Module, Op};

#[derive(Args, Debug)]
pub(crate) struct RunArgs {
    /// Input file (`-` for stdin).
    input: PathBuf,
    /// The entry to run (needed when the module has several).
    #[arg(long)]
    entry: Option<String>,
    /// Tile blocks: `X`, `X,Y` or `X,Y,Z` (default: one tile block, which the summary
    /// line says).
    #[arg(long)]
    grid: Option<String>,
    /// One per kernel parameter, in order: a scalar `TYPE:VALUE` (`i32:5`, `f32:1.5`,
    /// `f16:0x3c00`), a buffer from a NumPy file `@x.npy`, or a generated buffer:
    /// `zeros:TYPE:SHAPE`, `ones:TYPE:SHAPE`, `iota:TYPE:SHAPE`, `fill:TYPE:SHAPE:VALUE`,
    /// `random:TYPE:SHAPE:SEED` (uniform in [-1, 1) for floats),
    /// `randint:TYPE:SHAPE:SEED` (small integers, exact in every type) or
    /// `special:TYPE:SHAPE:SEED` (`random` with NaNs, infinities, signed zeros, subnormals
    /// and integer extremes mixed in). SHAPE is `N` or `AxB...`; see
    /// docs/interpreter-args.md.
    #[arg(long = "arg", allow_hyphen_values = true, value_name = "VALUE")]
    args: Vec<String>,
    /// After the run, write every buffer argument to `DIR/argN.npy` (N: its position).
    #[arg(long = "save-args", value_name = "DIR")]
    save_args: Option<PathBuf>,
    /// Run tile blocks one after another in grid order on one thread. By default they run
    /// in parallel on every core, which changes nothing unless blocks race on memory or
    /// add floats atomically (then the order, and the result, may vary from run to run).
    #[arg(long)]
    deterministic: bool,
    /// Threads for a parallel run (default: one per core).
    #[arg(long, short = 'j', value_name = "N")]
    jobs: Option<usize>,
    /// Stop a tile block that executes more than N ops (each execution of an op counts
    /// once), reporting where: a kernel that never ends is stopped rather than hung.
    #[arg(long, value_name = "N", default_value_t = 1_000_000_000)]
    max_ops: u64,
    /// Also run the kernel on the GPU (the CUDA driver, loaded at run time) and compare
    /// every buffer with the interpreter's: bit for bit, or within the bound
    /// docs/gpu-harness.md derives where accumulation order or approximate math may
    /// change results. Prints a report; exit status 1 on a difference. Without a GPU it
    /// compiles the kernel, checks the arguments against the PTX, says that no GPU is
    /// present and exits 0.
    #[arg(long)]
    device: bool,
    /// With --device: the PTX target (default: the newest the GPU runs; sm_90 without one).
    #[arg(long, requires = "device")]
    arch: Option<String>,
    /// With --device: warps per tile block (default: chosen per kernel, as `tilec`
    /// compiles it).
    #[arg(long = "num-warps", requires = "device")]
    num_warps: Option<u32>,
    /// With --device: compile math functions with the hardware approximations.
    #[arg(long = "fast-math", requires = "device")]
    fast_math: bool,
    /// With --device: shared-memory stages of pipelined K loops (1 to 6; default: as many
    /// as fit, up to 4).
    #[arg(long = "num-stages", requires = "device",
          value_parser = clap::value_parser!(u32).range(1..=6))]
    num_stages: Option<u32>,
    #[command(flatten)]
    common: CommonArgs,
}

/// A duration for people: `850 µs`, `12.3 ms`, `4.56 s`.
fn human_time(d: std::time::Duration) -> String {
    let us = d.as_secs_f64() * 1e6;
    if us < 1000.0 {
        format!("{us:.0} µs")
    } else if us < 1e6 {
        format!("{:.1} ms", us / 1e3)
    } else {
        format!("{:.2} s", us / 1e6)
    }
}

/// Parses `X[,Y[,Z]]`.
fn parse_grid(s: &str) -> Option<[u32; 3]> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    if parts.is_empty() || parts.len() > 3 {
        return None;
    }
    let mut g = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        g[i] = p.parse().ok().filter(|n| *n > 0)?;
    }
    Some(g)
}

impl Driver<'_, '_> {
    fn setup_error(&mut self, m: &Module, op: Op, msg: String) -> i32 {
        let file = m.file().unwrap_or(tilec_diag::FileId(0));
        let span = m.op_span(op).unwrap_or_default();
        let d = Diagnostic::error(codes::RUN_SETUP, msg).at(Location::new(file, span));
        self.emit(&d);
        EXIT_DIAGNOSTICS
    }

    pub(crate) fn run_kernel(&mut self, a: RunArgs) -> i32 {
        self.configure(&a.common);
        let Some(grid) = parse_grid(a.grid.as_deref().unwrap_or("1")) else {
            return self.usage_error(&format!(
                "--grid '{}' is not X, X,Y or X,Y,Z with positive counts",
                a.grid.as_deref().unwrap_or_default()
            ));
        };
        let input = match self.load(&a.input) {
            Ok(i) => i,
            Err(code) => return code,
        };
        let modules = self.parse(&input, &a.common);
        if self.errors > 0 {
            return EXIT_DIAGNOSTICS;
        }
        let Some(m) = modules.into_iter().flatten().next() else {
            return self.usage_error("the input holds no module");
        };
        let all = m.entries();
        let entry = match (&a.entry, all.as_slice()) {
            (Some(name), _) => match all.iter().find(|(n, _)| n == name) {
                Some((_, op)) => *op,
                None => {
                    let names: Vec<String> = all.iter().map(|(n, _)| format!("@{n}")).collect();
                    return self.usage_error(&format!(
                        "no entry @{name} (entries: {})",
                        if names.is_empty() {
                            "none".into()
                        } else {
                            names.join(", ")
                        }
                    ));
                }
            },
            (None, [(_, op)]) => *op,
            (None, []) => return self.usage_error("the module has no entry to run"),
            (None, _) => {
                let names: Vec<String> = all.iter().map(|(n, _)| format!("@{n}")).collect();
                return self.usage_error(&format!(
                    "the module has several entries ({}): choose one with --entry",
                    names.join(", ")
                ));
            }
        };
        let params: Vec<tilec_ir::Type> = m
            .entry_block(m.region(entry, 0))
            .map(|b| m.block_args(b).iter().map(|v| m.value_type(*v)).collect())
            .unwrap_or_default();
        let mut specs = Vec::with_capacity(a.args.len());
        for (i, text) in a.args.iter().enumerate() {
            let mut read = |p: &std::path::Path| std::fs::read(p);
            match tilec_interp::args::parse(text, &mut read) {
                Ok(s) => specs.push(s),
                Err(e) => return self.usage_error(&format!("argument {i}: {e}")),
            }
        }
        let bound = match tilec_interp::args::bind(&m.ctx.types, &params, specs) {
            Ok(b) => b,
            Err(e) => {
                // A wrong kind is about one parameter: name it, and point at it.
                let param = e.position.and_then(|p| {
                    let v = *m
                        .entry_block(m.region(entry, 0))
                        .map(|b| m.block_args(b))?
                        .get(p)?;
                    m.value_span(v)
                });
                return match (e.position, param) {
                    (Some(p), Some(span)) => {
                        let file = m.file().unwrap_or(tilec_diag::FileId(0));
                        let name = self
                            .param_names(&m, entry)
                            .get(p)
                            .cloned()
                            .flatten()
                            .map(|n| format!(" ({n})"))
                            .unwrap_or_default();
                        let d = Diagnostic::error(
                            codes::RUN_SETUP,
                            format!("argument {p}{name} {}", e.message),
                        )
                        .at(Location::new(file, span));
                        self.emit(&d);
                        EXIT_DIAGNOSTICS
                    }
                    _ => self.setup_error(&m, entry, e.to_string()),
                };
            }
        };
        if a.device {
            return self.run_on_device(&m, entry, grid, &bound, &a);
        }
        let opts = tilec_interp::Options {
            parallel: !a.deterministic && a.jobs != Some(1),
            threads: a.jobs.unwrap_or(0),
            max_ops: Some(a.max_ops),
            conflicting_stores: false,
            variant: tilec_interp::Variant::default(),
        };
        let mut mem = bound.memory.clone();
        // Out-of-bounds messages name the argument: "argument 3 (%y_ptr)".
        let names = self.param_names(&m, entry);
        for b in &bound.buffers {
            let name = names.get(b.position).cloned().flatten();
            let label = match name {
                Some(n) => format!("argument {} ({n})", b.position),
                None => format!("argument {}", b.position),
            };
            mem.set_name(b.index, label);
        }
        let started = std::time::Instant::now();
        // On a terminal, a run longer than a second shows how far it got.
        let tty = self.io.stderr_is_tty;
        let stderr = &mut *self.io.stderr;
        let mut shown = false;
        let mut last = std::time::Instant::now();
        let mut progress = |done: u64, total: u64| {
            if !tty || started.elapsed().as_secs_f64() < 1.0 || done >= total {
                return;
            }
            if shown && last.elapsed().as_millis() < 100 {
                return;
            }
            last = std::time::Instant::now();
            shown = true;
            let _ = write!(
                stderr,
                "\rtilec run: {done}/{total} tile blocks ({:.1}%), {}",
                100.0 * done as f64 / total as f64,
                human_time(started.elapsed())
            );
            let _ = stderr.flush();
        };
        let outcome = tilec_interp::run_with_progress(
            &m,
            entry,
            grid,
            &bound.args,
            &mut mem,
            &opts,
            &mut progress,
        );
        if shown {
            // Clear the progress line.
            let _ = write!(self.io.stderr, "\r\x1b[2K");
        }
        let elapsed = started.elapsed();
        let (printed, status) = match outcome {
            Ok(o) => (o.printed, EXIT_OK),
            Err(e) => {
                // What ran before the error was printed, as a GPU would have printed it.
                let _ = self.io.stdout.write_all(e.printed.as_bytes());
                self.interp_error(&m, &e);
                (String::new(), EXIT_DIAGNOSTICS)
            }
        };
        let _ = self.io.stdout.write_all(printed.as_bytes());
        if status != EXIT_OK {
            return status;
        }
        let mut saved = Vec::new();
        if let Some(dir) = &a.save_args {
            if let Err(e) = std::fs::create_dir_all(dir) {
                return self.usage_error(&format!("cannot create '{}': {e}", dir.display()));
            }
            for b in &bound.buffers {
                let arr = bound.array(&m.ctx.types, &mem, b);
                let pos = b.position;
                let path = dir.join(format!("arg{pos}.npy"));
                if let Err(e) = std::fs::write(&path, tilec_interp::npy::write(&arr)) {
                    return self.usage_error(&format!("cannot write '{}': {e}", path.display()));
                }
                saved.push(format!("arg{pos}.npy"));
            }
        }
        // One line on stderr (standard output carries what the kernel printed): what ran,
        // where the grid came from, how long it took, what was written.
        let blocks = grid.iter().map(|&g| u64::from(g)).product::<u64>();
        let mut line = format!(
            "tilec run: @{} on grid {}x{}x{} ({} tile block{}{}) in {}",
            m.sym_name(entry).unwrap_or_default(),
            grid[0],
            grid[1],
            grid[2],
            blocks,
            if blocks == 1 { "" } else { "s" },
            if a.grid.is_none() {
                "; no --grid given"
            } else {
                ""
            },
            human_time(elapsed)
        );
        if let Some(dir) = &a.save_args {
            line.push_str(&format!(
                "; wrote {} to {}",
                if saved.is_empty() {
                    "no buffer".to_string()
                } else {
                    saved.join(", ")
                },
                dir.display()
            ));
        }
        let _ = writeln!(self.io.stderr, "{line}");
        EXIT_OK
    }

    /// The names the entry's parameters have in the source (`%x_ptr`), where the source
    /// is text (`None` for bytecode or generated names).
    fn param_names(&self, m: &Module, entry: Op) -> Vec<Option<String>> {
        let file = m.file().unwrap_or(tilec_diag::FileId(0));
        let src = self.sources.get(file);
        let params = m
            .entry_block(m.region(entry, 0))
            .map(|b| m.block_args(b).to_vec())
            .unwrap_or_default();
        params
            .iter()
            .map(|&v| {
                let span = m.value_span(v)?;
                if src.is_binary() {
                    return None;
                }
                src.text()
                    .get(span.start as usize..span.end as usize)
                    .filter(|n| n.starts_with('%') && !n.contains(['\n', '\r', ' ']))
                    .map(str::to_string)
            })
            .collect()
    }

    fn interp_error(&mut self, m: &Module, e: &tilec_interp::RunError) {
        let file = m.file().unwrap_or(tilec_diag::FileId(0));
        let span = e.op.and_then(|op| m.op_span(op)).unwrap_or_default();
        let code = if e.message.starts_with("the interpreter cannot run")
            || e.message.contains("is not a tile IR operation")
            || e.message.contains("GPU-level IR")
        {
            codes::RUN_SETUP
        } else {
            codes::RUN_UB
        };
        let d = Diagnostic::error(
            code,
            format!(
                "{} (tile block ({}, {}, {}))",
                e.message, e.block[0], e.block[1], e.block[2]
            ),
        )
        .at(Location::new(file, span));
        self.emit(&d);
    }

    /// `tilec run --device`: the kernel on the GPU and in the interpreter, compared.
    fn run_on_device(
        &mut self,
        m: &Module,
        entry: Op,
        grid: [u32; 3],
        bound: &tilec_interp::args::Bound,
        a: &RunArgs,
    ) -> i32 {
        if let Some(w) = a.num_warps.filter(|w| !matches!(w, 1 | 2 | 4 | 8 | 16)) {
            return self.usage_error(&format!("--num-warps must be 1, 2, 4, 8 or 16 (got {w})"));
        }
        let mut device = match tilec_gpu::open() {
            tilec_gpu::Probe::Present(d) => Some(d),
            tilec_gpu::Probe::Absent(why) => {
                let _ = writeln!(self.io.stdout, "no GPU present ({why}): nothing run");
                None
            }
        };
        let arch = match (&a.arch, &device) {
            (Some(name), _) => match tilec_ptx::Arch::from_name(name) {
                Some(arch) => arch,
                None => {
                    return self.usage_error(&format!(
                        "unknown architecture '{name}' (known: {})",
                        tilec_ptx::Arch::names()
                    ));
                }
            },
            (None, Some(d)) => d.arch(),
            (None, None) => tilec_ptx::Arch::Sm90,
        };
        // The PTX is compiled as `tilec FILE -o K.ptx` compiles it (canonicalized, through
        // crate::pipeline); the interpreter runs the module as written, so the check covers
        // both.
        let opts = crate::pipeline::Options {
            ptx: tilec_ptx::Options {
                arch,
                num_warps: a.num_warps.unwrap_or(4),
                choose_warps: a.num_warps.is_none(),
                fast_math: a.fast_math,
                num_stages: a.num_stages,
                ..tilec_ptx::Options::default()
            },
            ..crate::pipeline::Options::default()
        };
        let mut timings = crate::pipeline::Timings::default();
        let ptx = match crate::pipeline::back(vec![m.clone()], None, &opts, &mut timings) {
            Ok(c) => {
                for d in &c.warnings {
                    self.emit(d);
                }
                c.ptx
            }
            Err(f) => {
                for d in &f.diagnostics {
                    self.emit(d);
                }
                return EXIT_DIAGNOSTICS;
            }
        };
        let name = tilec_ptx::ptx_ident(m.sym_name(entry).unwrap_or_default());
        let case = tilec_gpu::Case {
            module: m,
            entry,
            ptx: &ptx,
            kernel: &name,
            grid,
            num_warps: a.num_warps.unwrap_or(4),
            bound,
            policy: tilec_gpu::Policy::of(m, entry, a.fast_math, grid),
            max_ops: a.max_ops,
        };
        let file = m.file().unwrap_or(tilec_diag::FileId(0));
        let at = Location::new(file, m.op_span(entry).unwrap_or_default());
        let Some(device) = device.as_mut() else {
            // No GPU: check what can be checked without one, the arguments against the PTX.
            if let Err(e) = tilec_gpu::check::marshal_placeholder(&case) {
                let d = Diagnostic::error(codes::RUN_DEVICE, e).at(at);
                self.emit(&d);
                return EXIT_USAGE;
            }
            return EXIT_OK;
        };
        match tilec_gpu::check(device, &case) {
            Ok(report) => {
                let _ = self.io.stdout.write_all(report.render(m).as_bytes());
                if report.passed() {
                    EXIT_OK
                } else {
                    let bad = report
                        .buffers
                        .iter()
                        .filter(|b| b.compared.mismatches > 0 || b.guard_writes.1 > 0)
                        .map(|b| b.position.to_string())
                        .collect::<Vec<_>>();
                    let d = Diagnostic::error(
                        codes::RUN_MISMATCH,
                        format!(
                            "the GPU's results differ from the interpreter's in argument{} {} (report on stdout)",
                            if bad.len() == 1 { "" } else { "s" },
                            bad.join(", ")
                        ),
                    )
                    .at(at);
                    self.emit(&d);
                    EXIT_DIAGNOSTICS
                }
            }
            Err(tilec_gpu::CheckError::Undefined(e)) => {
                // Not launched: the GPU's result would mean nothing.
                self.interp_error(m, &e);
                EXIT_DIAGNOSTICS
            }
            Err(tilec_gpu::CheckError::Params(e)) => {
                let d = Diagnostic::error(codes::RUN_DEVICE, e).at(at);
                self.emit(&d);
                EXIT_USAGE
            }
            Err(tilec_gpu::CheckError::Gpu(e)) => {
                let d = Diagnostic::error(codes::RUN_DEVICE, format!("on {}: {e}", device.name()))
                    .at(at);
                self.emit(&d);
                EXIT_DIAGNOSTICS
            }
        }
    }
}

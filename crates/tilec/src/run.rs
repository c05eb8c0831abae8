//! `tilec run FILE --grid X[,Y[,Z]] --arg VALUE...`: executes a kernel with the reference
//! interpreter (tilec-interp; docs/interpreter.md).

use super::{CommonArgs, Driver, EXIT_DIAGNOSTICS, EXIT_OK};
use clap::Args;
use std::path::PathBuf;
use tilec_diag::{Diagnostic, Location, codes};
use tilec_interp::args::ArgSpec;
use tilec_interp::{Arg, Memory};
use tilec_ir::{Module, Op, Opcode, TypeData};

#[derive(Args, Debug)]
pub(crate) struct RunArgs {
    /// Input file (`-` for stdin).
    input: PathBuf,
    /// The entry to run (needed when the module has several).
    #[arg(long)]
    entry: Option<String>,
    /// Tile blocks: `X`, `X,Y` or `X,Y,Z`.
    #[arg(long, default_value = "1")]
    grid: String,
    /// One per kernel parameter, in order: a scalar `TYPE:VALUE` (`i32:5`, `f32:1.5`), a
    /// buffer from a NumPy file `@x.npy`, or a generated buffer `zeros:TYPE:SHAPE`,
    /// `iota:TYPE:SHAPE`, `random:TYPE:SHAPE:SEED` (SHAPE is `N` or `AxB...`).
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
    #[command(flatten)]
    common: CommonArgs,
}

/// The entries of `m` by name, in order.
fn entries(m: &Module) -> Vec<(String, Op)> {
    let mut out = Vec::new();
    m.walk(|op| {
        if m.opcode(op) == Opcode::Entry {
            let name = match m.attr_named(op, "sym_name").map(|a| m.ctx.attrs.get(a)) {
                Some(tilec_ir::attrs::AttrData::String(s)) => s.to_string(),
                _ => String::new(),
            };
            out.push((name, op));
        }
    });
    out
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
        let Some(grid) = parse_grid(&a.grid) else {
            return self.usage_error(&format!(
                "--grid '{}' is not X, X,Y or X,Y,Z with positive counts",
                a.grid
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
        let all = entries(&m);
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
        if params.len() != a.args.len() {
            return self.setup_error(
                &m,
                entry,
                format!(
                    "the kernel takes {} argument{} and {} --arg {} given",
                    params.len(),
                    if params.len() == 1 { "" } else { "s" },
                    a.args.len(),
                    if a.args.len() == 1 { "was" } else { "were" }
                ),
            );
        }
        let mut mem = Memory::default();
        let mut run_args = Vec::with_capacity(params.len());
        // (argument position, buffer index, shape) of every buffer argument.
        let mut buffers = Vec::new();
        for (i, (text, ty)) in a.args.iter().zip(&params).enumerate() {
            let mut read = |p: &std::path::Path| std::fs::read(p);
            let spec = match tilec_interp::args::parse(text, &mut read) {
                Ok(s) => s,
                Err(e) => return self.usage_error(&format!("--arg {}: {e}", i + 1)),
            };
            let types = &m.ctx.types;
            let elem = types.element_type(*ty);
            let pointee = match types.get(elem) {
                TypeData::Ptr(p) => Some(*p),
                _ => None,
            };
            let type_name = |t| types.to_string(t, false);
            // bf16, tf32 and f8 buffers come from .npy files as integers of their width.
            let spec = match (spec, pointee) {
                (ArgSpec::Buffer(arr), Some(p)) if arr.elem != p => {
                    match arr.clone().reinterpret(p) {
                        Ok(r) => ArgSpec::Buffer(r),
                        Err(_) => ArgSpec::Buffer(arr),
                    }
                }
                (s, _) => s,
            };
            match (spec, pointee) {
                (ArgSpec::Scalar { elem: e, bits }, None) if e == elem => {
                    run_args.push(Arg::Scalar(bits))
                }
                (ArgSpec::Buffer(arr), Some(p)) if arr.elem == p => {
                    let size = tilec_interp::mem::elem_bytes(types, p);
                    let mut data = Vec::with_capacity(arr.bits.len() * size);
                    for b in &arr.bits {
                        let b = tilec_interp::mem::encode(types, p, *b);
                        data.extend_from_slice(&b.to_le_bytes()[..size]);
                    }
                    let index = mem.add(data);
                    buffers.push((i, index, arr.shape.clone(), p));
                    run_args.push(Arg::Buffer(index));
                }
                (spec, _) => {
                    let given = match spec {
                        ArgSpec::Scalar { elem, .. } => format!("a {} scalar", type_name(elem)),
                        ArgSpec::Buffer(arr) => format!("a {} buffer", type_name(arr.elem)),
                    };
                    let want = match pointee {
                        Some(p) => format!("a pointer to {} (a buffer)", type_name(p)),
                        None => format!("a {} scalar", type_name(elem)),
                    };
                    return self.setup_error(
                        &m,
                        entry,
                        format!("argument {} is {want}, but --arg gives {given}", i + 1),
                    );
                }
            }
        }
        let opts = tilec_interp::Options {
            parallel: !a.deterministic && a.jobs != Some(1),
            threads: a.jobs.unwrap_or(0),
            max_ops: Some(a.max_ops),
        };
        let outcome = tilec_interp::run_with(&m, entry, grid, &run_args, &mut mem, &opts);
        let (printed, status) = match outcome {
            Ok(o) => (o.printed, EXIT_OK),
            Err(e) => {
                // What ran before the error was printed, as a GPU would have printed it.
                let _ = self.io.stdout.write_all(e.printed.as_bytes());
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
                (String::new(), EXIT_DIAGNOSTICS)
            }
        };
        let _ = self.io.stdout.write_all(printed.as_bytes());
        if status != EXIT_OK {
            return status;
        }
        if let Some(dir) = &a.save_args {
            if let Err(e) = std::fs::create_dir_all(dir) {
                return self.usage_error(&format!("cannot create '{}': {e}", dir.display()));
            }
            for (pos, index, shape, elem) in buffers {
                let size = tilec_interp::mem::elem_bytes(&m.ctx.types, elem);
                let bits = mem
                    .bytes(index)
                    .chunks(size)
                    .map(|c| {
                        let mut b = [0u8; 8];
                        b[..size].copy_from_slice(c);
                        let v = u64::from_le_bytes(b);
                        tilec_interp::mem::decode(&m.ctx.types, elem, v)
                    })
                    .collect();
                let arr = tilec_interp::npy::Array { elem, shape, bits };
                let path = dir.join(format!("arg{pos}.npy"));
                if let Err(e) = std::fs::write(&path, tilec_interp::npy::write(&arr)) {
                    return self.usage_error(&format!("cannot write '{}': {e}", path.display()));
                }
            }
        }
        EXIT_OK
    }
}

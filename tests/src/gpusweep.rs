//! The GPU correctness sweep (issue 7): which kernels run, on which arguments, and how
//! each one is checked. `cargo xtask gpu-test` runs the plan on the GPU (or, with
//! `--sim`, on the PTX simulator for the kernels it covers); tests/gpu_harness.rs checks
//! the plan and runs what the simulator can without a GPU.
//!
//! The plan:
//! * every entry of every example, on ragged shapes (sizes that are not multiples of the
//!   tile, so the clipped edges run), with random inputs and, where the kernel
//!   accumulates floats, with `randint` inputs too (small integers: every sum and
//!   product is exact in every order, so those runs are compared bit for bit);
//! * every `entry` of the conformance files and of the cuTile corpus
//!   (tests/corpus/cutile), with arguments chosen by [`auto_args`]: pointers get buffers,
//!   cuTile's (pointer, sizes, strides) groups get ragged then aligned shapes, and the
//!   grid is the largest of a few on which the interpreter runs the kernel without
//!   undefined behaviour ("can run" means exactly that);
//! * random kernels from [`crate::kernelgen`], each with its own arguments and grid.
//!
//! Each case is also a command line: `tilec run FILE --device --grid ... --arg ...`
//! reproduces it ([`SweepCase::command`]).

use std::path::{Path, PathBuf};
use tilec_gpu::check::{Case, CheckError, entry_params};
use tilec_gpu::{Backend, Policy};
use tilec_interp::args::{self, Bound};
use tilec_ir::{Module, Op, Type, TypeData};

/// Where a case comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// examples/*.tile
    Example,
    /// ../shared/conformance/cuda-tile-13.1/*.mlir
    Conformance,
    /// tests/corpus/cutile/*.mlir
    Corpus,
    /// kernelgen's random kernels
    Random,
    /// Tile IR (bytecode or text) of a directory given to the sweep (`gpu-test --corpus
    /// DIR`): the kernels a GPU session kept from cuTile's test suite
    /// (`TILEC_TILEIRAS_KEEP`), or any other collection.
    Kept,
    /// [`crate::tilegen`]'s structured random kernels (products, row reductions, copies
    /// through views, with big tiles).
    Structured,
}

impl Family {
    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Family::Example => "example",
            Family::Conformance => "conformance",
            Family::Corpus => "cutile corpus",
            Family::Random => "random",
            Family::Kept => "kept",
            Family::Structured => "structured",
        }
    }
}

/// One kernel launch of the sweep.
#[derive(Clone, Debug)]
pub struct SweepCase {
    /// Where it comes from.
    pub family: Family,
    /// "vector_add n=2500", shown in the report.
    pub label: String,
    /// The source file, when there is one.
    pub path: Option<PathBuf>,
    /// The module text.
    pub text: String,
    /// The entry to launch.
    pub entry: String,
    /// Tile blocks.
    pub grid: [u32; 3],
    /// One `--arg` value per parameter.
    pub args: Vec<String>,
    /// The inputs make every accumulation exact: compare bit for bit.
    pub exact: bool,
}

impl SweepCase {
    /// The command line that runs this case alone (a random kernel's text is printed by
    /// `TILEC_GEN_DUMP=SEED cargo test -p tilec-tests --test kernelgen_entry -- --ignored`).
    pub fn command(&self) -> String {
        let file = self
            .path
            .as_ref()
            .map_or_else(|| "KERNEL.tile".to_string(), |p| p.display().to_string());
        let mut s = format!(
            "tilec run {file} --device --entry {} --grid {},{},{}",
            self.entry, self.grid[0], self.grid[1], self.grid[2]
        );
        for a in &self.args {
            s.push_str(" --arg ");
            s.push_str(a);
        }
        s
    }
}

/// A 1-D cuTile array argument group: buffer, length, stride.
fn arr(buffer: String, n: usize) -> Vec<String> {
    vec![buffer, format!("i32:{n}"), "i32:1".to_string()]
}

/// A row-major 2-D array: buffer of `rows x stride`, rows, cols, row stride, 1.
fn mat(buffer: String, rows: usize, cols: usize, stride: usize) -> Vec<String> {
    vec![
        buffer,
        format!("i32:{rows}"),
        format!("i32:{cols}"),
        format!("i32:{stride}"),
        "i32:1".to_string(),
    ]
}

struct Builder {
    out: Vec<SweepCase>,
    seed: u64,
}

impl Builder {
    fn next_seed(&mut self) -> u64 {
        self.seed += 1;
        self.seed
    }

    /// `generator:TYPE:SHAPE:SEED` with a fresh seed.
    fn buf(&mut self, generator: &str, ty: &str, shape: &str) -> String {
        match generator {
            "random" | "randint" => format!("{generator}:{ty}:{shape}:{}", self.next_seed()),
            _ => format!("{generator}:{ty}:{shape}"),
        }
    }

    fn push(
        &mut self,
        file: &str,
        entry: &str,
        label: String,
        grid: [u32; 3],
        args: Vec<String>,
        exact: bool,
    ) {
        let path = crate::repo_root().join("examples").join(file);
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        self.out.push(SweepCase {
            family: Family::Example,
            label,
            path: Some(PathBuf::from("examples").join(file)),
            text,
            entry: entry.to_string(),
            grid,
            args,
            exact,
        });
    }
}

fn blocks(n: usize, tile: usize) -> u32 {
    n.div_ceil(tile).max(1) as u32
}

/// Every example entry on its shapes (see the module docs).
pub fn example_cases() -> Vec<SweepCase> {
    let mut b = Builder {
        out: Vec::new(),
        seed: 0x5eed,
    };
    for n in [1, 1000, 2500, 4096] {
        let mut a = arr(b.buf("random", "f32", &n.to_string()), n);
        a.extend(arr(b.buf("random", "f32", &n.to_string()), n));
        a.extend(arr(b.buf("zeros", "f32", &n.to_string()), n));
        b.push(
            "vector_add.tile",
            "vector_add",
            format!("vector_add n={n}"),
            [blocks(n, 1024), 1, 1],
            a,
            false,
        );
    }
    for n in [1000, 3001] {
        let mut a = arr(b.buf("random", "f32", &n.to_string()), n);
        a.extend(arr(b.buf("zeros", "f32", &n.to_string()), n));
        b.push(
            "relu.tile",
            "relu",
            format!("relu n={n}"),
            [blocks(n, 1024), 1, 1],
            a,
            false,
        );
        let mut a = vec!["f32:1.5".to_string()];
        a.extend(arr(b.buf("random", "f32", &n.to_string()), n));
        a.extend(arr(b.buf("random", "f32", &n.to_string()), n));
        b.push(
            "saxpy.tile",
            "saxpy",
            format!("saxpy n={n}"),
            [blocks(n, 1024), 1, 1],
            a,
            false,
        );
    }
    for generator in ["random", "randint"] {
        let exact = generator == "randint";
        for n in [1024, 3000] {
            let k = blocks(n, 1024) as usize;
            let mut a = arr(b.buf(generator, "f32", &n.to_string()), n);
            a.extend(arr(b.buf("zeros", "f32", &k.to_string()), k));
            b.push(
                "sum_reduction.tile",
                "sum_reduction",
                format!("sum_reduction n={n} {generator}"),
                [k as u32, 1, 1],
                a,
                exact,
            );
        }
        for n in [1000, 2500] {
            let mut a = arr(b.buf(generator, "f32", &n.to_string()), n);
            a.extend(arr(b.buf("zeros", "f32", &n.to_string()), n));
            b.push(
                "prefix_sum.tile",
                "prefix_sum",
                format!("prefix_sum n={n} {generator}"),
                [1, 1, 1],
                a,
                exact,
            );
        }
        // matmul.tile's 64 x 64 tiles; matmul_wide.tile's 128 x 128 tiles with K steps of
        // 128 (column-blocked operands on sm_90a), where 300 columns of f16 (600-byte
        // rows, not a multiple of 16 bytes) take the copy engine's run-time alternative,
        // and K = 1024 wraps the stage rings twice.
        type Shapes = &'static [(usize, usize, usize)];
        let gemms: [(&str, usize, Shapes); 2] = [
            (
                "matmul",
                64,
                &[(64, 64, 64), (100, 70, 50), (64, 64, 352), (128, 128, 160)],
            ),
            (
                "matmul_wide",
                128,
                &[(128, 128, 256), (200, 130, 300), (128, 128, 1024)],
            ),
        ];
        for (entry, tile, shapes) in gemms {
            for &(m, n, k) in shapes {
                let mut a = mat(b.buf(generator, "f16", &format!("{m}x{k}")), m, k, k);
                a.extend(mat(b.buf(generator, "f16", &format!("{k}x{n}")), k, n, n));
                a.extend(mat(b.buf("zeros", "f32", &format!("{m}x{n}")), m, n, n));
                b.push(
                    &format!("{entry}.tile"),
                    entry,
                    format!("{entry} {m}x{n}x{k} {generator}"),
                    [blocks(m, tile), blocks(n, tile), 1],
                    a,
                    exact,
                );
            }
        }
        for entry in [
            "mma_f16_f32",
            "mma_f16_f16",
            "mma_bf16_f32",
            "mma_tf32_f32",
            "mma_batched_f16_f32",
        ] {
            let (ti, tc) = match entry {
                "mma_f16_f16" => ("f16", "f16"),
                "mma_bf16_f32" => ("bf16", "f32"),
                "mma_tf32_f32" => ("f32", "f32"),
                _ => ("f16", "f32"),
            };
            let a = vec![
                b.buf(generator, ti, "4096"),
                b.buf(generator, ti, "4096"),
                b.buf(generator, tc, "4096"),
                b.buf("zeros", tc, "4096"),
            ];
            b.push(
                "mma_types.tile",
                entry,
                format!("{entry} {generator}"),
                [1, 1, 1],
                a,
                exact,
            );
        }
    }
    let mut a = vec![
        b.buf("random", "i8", "4096"),
        b.buf("random", "i8", "4096"),
        b.buf("random", "i32", "4096"),
    ];
    a.extend((0..4).map(|_| "zeros:i32:4096".to_string()));
    b.push(
        "mma_types.tile",
        "mma_i8_i32",
        "mma_i8_i32".to_string(),
        [1, 1, 1],
        a,
        false,
    );
    for (n, bins) in [(3000, 1000), (1500, 37)] {
        let mut a = arr(b.buf("random", "i32", &n.to_string()), n);
        a.extend(arr(b.buf("zeros", "i32", &bins.to_string()), bins));
        b.push(
            "histogram.tile",
            "histogram",
            format!("histogram n={n} bins={bins}"),
            [blocks(n, 1024), 1, 1],
            a,
            false,
        );
    }
    for (m, n) in [(64, 32), (100, 70)] {
        let mut a = mat(b.buf("random", "f32", &format!("{m}x{n}")), m, n, n);
        a.extend(mat(b.buf("zeros", "f32", &format!("{n}x{m}")), n, m, m));
        b.push(
            "transpose.tile",
            "transpose",
            format!("transpose {m}x{n}"),
            [blocks(m, 64), blocks(n, 32), 1],
            a,
            false,
        );
    }
    for (m, n, stride) in [(5, 700, 720), (3, 1024, 1024)] {
        let mut a = mat(
            b.buf("random", "f32", &format!("{m}x{stride}")),
            m,
            n,
            stride,
        );
        a.extend(mat(b.buf("zeros", "f32", &format!("{m}x{n}")), m, n, n));
        a.extend(arr(b.buf("random", "f32", &n.to_string()), n));
        a.extend(arr(b.buf("random", "f32", &n.to_string()), n));
        a.push("f32:1e-5".to_string());
        b.push(
            "layernorm.tile",
            "layernorm",
            format!("layernorm {m}x{n} stride {stride}"),
            [m as u32, 1, 1],
            a,
            false,
        );
    }
    for (m, n) in [(7, 333), (3, 1024)] {
        let mut a = mat(b.buf("random", "f32", &format!("{m}x{n}")), m, n, n);
        a.extend(mat(b.buf("zeros", "f32", &format!("{m}x{n}")), m, n, n));
        b.push(
            "row_softmax.tile",
            "row_softmax",
            format!("row_softmax {m}x{n}"),
            [m as u32, 1, 1],
            a,
            false,
        );
    }
    for (m, n) in [(16, 128), (20, 200)] {
        let mut a = mat(b.buf("random", "f32", &format!("{m}x{n}")), m, n, n);
        a.extend(mat(b.buf("zeros", "f32", &format!("{m}x{n}")), m, n, n));
        a.extend(arr(b.buf("random", "f32", &n.to_string()), n));
        b.push(
            "fused_bias_gelu.tile",
            "fused_bias_gelu",
            format!("fused_bias_gelu {m}x{n}"),
            [blocks(m, 16), blocks(n, 128), 1],
            a,
            false,
        );
    }
    b.out
}

/// Parses and verifies one module.
///
/// # Errors
///
/// The first diagnostic's message.
pub fn load(text: &str) -> Result<Module, String> {
    let popts = tilec_parse::ParseOptions {
        allow_unregistered: false,
        ..Default::default()
    };
    let opts = tilec::pipeline::Options {
        parse: popts,
        verify: tilec_verify::VerifyOptions {
            personality: tilec_verify::Personality::Spec,
            ..Default::default()
        },
        ..tilec::pipeline::Options::default()
    };
    let (m, _) = tilec::pipeline::front(
        text.as_bytes(),
        tilec_diag::FileId(0),
        &opts,
        &mut tilec::pipeline::Timings::default(),
    )
    .map_err(|f| {
        f.diagnostics
            .first()
            .map(|d| d.message.clone())
            .unwrap_or_default()
    })?;
    Ok(m)
}

/// The shapes [`auto_args`] tries, in its order: ragged (sizes that are no multiple of
/// anything), aligned (small powers of two) and large (aligned, and long enough in the
/// innermost dimension that 16-bit and 8-bit elements fill 128-bit vectors: what the share
/// of 128-bit traffic is measured on).
pub const SHAPE_VARIANTS: [&str; 3] = ["ragged", "aligned", "large"];

/// Argument candidates for an entry, best first (each with a grid to try): every pointer
/// gets a buffer; a pointer followed by 2k integers (cuTile's sizes then strides) gets a
/// k-dimensional shape, one per [`SHAPE_VARIANTS`]; other integers get small values.
pub fn auto_args(m: &Module, entry: Op, seed: u64) -> Vec<Vec<String>> {
    let types = &m.ctx.types;
    let params = entry_params(m, entry);
    let name = |t: Type| args::elem_name(t).map(str::to_string);
    let shapes: [&[usize]; 3] = [&[37, 100, 3], &[64, 128, 4], &[8, 64, 256]];
    let mut out = Vec::new();
    for (variant, dims_pool) in shapes.iter().enumerate() {
        let mut a = Vec::new();
        let mut i = 0;
        let mut seed = seed.wrapping_mul(31).wrapping_add(variant as u64);
        let mut ok = true;
        while i < params.len() {
            let elem = types.element_type(params[i]);
            if let TypeData::Ptr(p) = types.get(elem) {
                let Some(pname) = name(*p) else {
                    ok = false;
                    break;
                };
                // Integers right after the pointer: sizes then strides.
                let ints = params[i + 1..]
                    .iter()
                    .take_while(|t| matches!(types.element_type(**t), Type::I32 | Type::I64))
                    .count();
                let k = if ints >= 2 && ints % 2 == 0 {
                    (ints / 2).min(3)
                } else {
                    0
                };
                let dims: Vec<usize> = (0..k).map(|d| dims_pool[(d + 3 - k) % 3]).collect();
                let count: usize = if k == 0 { 4096 } else { dims.iter().product() };
                seed += 1;
                let generator = if tilec_ir::attrs::float_kind(types, *p).is_some() {
                    "random"
                } else {
                    "randint"
                };
                a.push(format!("{generator}:{pname}:{count}:{seed}"));
                let ity = |t: Type| name(types.element_type(t)).unwrap_or_else(|| "i32".into());
                for d in 0..k {
                    a.push(format!("{}:{}", ity(params[i + 1 + d]), dims[d]));
                }
                for d in 0..k {
                    let stride: usize = dims[d + 1..].iter().product();
                    a.push(format!("{}:{stride}", ity(params[i + 1 + k + d])));
                }
                i += 1 + 2 * k;
                continue;
            }
            let v = match elem {
                Type::I1 => "i1:true".to_string(),
                Type::I8 | Type::I16 | Type::I32 | Type::I64 => {
                    format!("{}:{}", name(elem).unwrap_or_default(), 3 + variant)
                }
                Type::F16 | Type::BF16 | Type::F32 | Type::F64 | Type::TF32 => {
                    format!("{}:1.5", name(elem).unwrap_or_default())
                }
                Type::F8E4M3FN | Type::F8E5M2 => format!("{}:1.5", name(elem).unwrap_or_default()),
                _ => {
                    ok = false;
                    break;
                }
            };
            a.push(v);
            i += 1;
        }
        if ok {
            out.push(a);
        }
    }
    out
}

/// The arguments without their generators' seeds (to tell candidates apart by shape).
fn strip_seeds(a: &[String]) -> Vec<String> {
    a.iter()
        .map(|x| match x.split(':').collect::<Vec<_>>().as_slice() {
            [g @ ("random" | "randint"), t, s, _] => format!("{g}:{t}:{s}"),
            _ => x.clone(),
        })
        .collect()
}

/// Grids [`auto_cases`] tries, largest first.
const AUTO_GRIDS: [[u32; 3]; 3] = [[3, 2, 1], [2, 1, 1], [1, 1, 1]];

/// The cases of every entry of a file that can run: for each entry and each argument
/// candidate, the largest grid on which the interpreter runs without undefined
/// behaviour.
/// Returns the cases and the entries left out, with why.
pub fn auto_cases(family: Family, path: &Path, shown: &Path) -> (Vec<SweepCase>, Vec<String>) {
    let mut cases = Vec::new();
    let mut skipped = Vec::new();
    let Some(text) = std::fs::read(path).ok().and_then(|b| as_text(&b)) else {
        return (
            cases,
            vec![format!("{}: cannot read as Tile IR", shown.display())],
        );
    };
    for (k, r) in tilec_parse::split_input(&text).into_iter().enumerate() {
        let chunk = &text[r];
        let Ok(m) = load(chunk) else {
            continue; // invalid on purpose (verifier tests), or not tile IR
        };
        for (name, entry) in m.entries() {
            let params = entry_params(&m, entry);
            if params.is_empty() {
                skipped.push(format!(
                    "{}#{k} @{name}: no parameters, nothing to compare",
                    shown.display()
                ));
                continue;
            }
            // Each argument candidate (ragged, aligned, large shapes) that runs becomes a
            // case, on the largest grid that runs; identical candidates only once.
            let mut found: Vec<(Vec<String>, [u32; 3])> = Vec::new();
            for (variant, a) in auto_args(&m, entry, k as u64).into_iter().enumerate() {
                if found.iter().any(|(f, _)| strip_seeds(f) == strip_seeds(&a)) {
                    continue;
                }
                let Ok(bound) = bind(&m, entry, &a) else {
                    continue;
                };
                for grid in AUTO_GRIDS {
                    let mut mem = bound.memory.clone();
                    let opts = tilec_interp::Options {
                        parallel: false,
                        threads: 1,
                        max_ops: Some(1_000_000),
                        conflicting_stores: true,
                        variant: tilec_interp::Variant::default(),
                    };
                    if tilec_interp::run_with(&m, entry, grid, &bound.args, &mut mem, &opts).is_ok()
                    {
                        let shape = SHAPE_VARIANTS.get(variant).copied().unwrap_or("other");
                        cases.push(SweepCase {
                            family,
                            label: format!(
                                "{}#{k} @{name} ({shape})",
                                shown.file_name().unwrap_or_default().to_string_lossy()
                            ),
                            path: Some(shown.to_path_buf()),
                            text: chunk.to_string(),
                            entry: name.clone(),
                            grid,
                            args: a.clone(),
                            exact: false,
                        });
                        found.push((a, grid));
                        break;
                    }
                }
            }
            if found.is_empty() {
                skipped.push(format!(
                    "{}#{k} @{name}: undefined behaviour or unsupported parameters on every candidate",
                    shown.display()
                ));
            }
        }
    }
    (cases, skipped)
}

/// A file's Tile IR as text: itself, or bytecode read and printed (which parses back).
fn as_text(bytes: &[u8]) -> Option<String> {
    if !tilec_bytecode::is_bytecode(bytes) {
        return String::from_utf8(bytes.to_vec()).ok();
    }
    let m = tilec_bytecode::read(bytes, tilec_diag::FileId(0)).ok()?;
    Some(tilec_ir::print::print_module(
        &m,
        &tilec_ir::print::PrintOptions::default(),
    ))
}

/// Every entry of the Tile IR files of `dir` (`.tileirbc` bytecode, `.mlir` and `.tile`
/// text) that can run (see [`auto_cases`]), as the [`Family::Kept`] family.
pub fn dir_cases(dir: &Path) -> (Vec<SweepCase>, Vec<String>) {
    let mut cases = Vec::new();
    let mut skipped = Vec::new();
    for ext in ["tileirbc", "mlir", "tile"] {
        let (c, s) = files_cases(Family::Kept, dir, ext);
        cases.extend(c);
        skipped.extend(s);
    }
    if cases.is_empty() && skipped.is_empty() {
        skipped.push(format!("{}: no Tile IR files", dir.display()));
    }
    (cases, skipped)
}

/// Every conformance entry that can run (see [`auto_cases`]).
pub fn conformance_cases() -> (Vec<SweepCase>, Vec<String>) {
    let Some(dir) = crate::shared_dir().map(|d| d.join("conformance/cuda-tile-13.1")) else {
        return (Vec::new(), vec!["conformance files not found".to_string()]);
    };
    files_cases(Family::Conformance, &dir, "mlir")
}

/// Every cuTile corpus entry that can run (see [`auto_cases`]).
pub fn corpus_cases() -> (Vec<SweepCase>, Vec<String>) {
    files_cases(
        Family::Corpus,
        &crate::repo_root().join("tests/corpus/cutile"),
        "mlir",
    )
}

fn files_cases(family: Family, dir: &Path, ext: &str) -> (Vec<SweepCase>, Vec<String>) {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == ext));
    files.sort();
    let root = crate::repo_root();
    let mut cases = Vec::new();
    let mut skipped = Vec::new();
    for f in files {
        let shown = f
            .strip_prefix(&root)
            .map_or_else(|_| f.clone(), Path::to_path_buf);
        let (c, s) = auto_cases(family, &f, &shown);
        cases.extend(c);
        skipped.extend(s);
    }
    (cases, skipped)
}

/// Binds `--arg` texts to an entry's parameters.
///
/// # Errors
///
/// A bad argument or a mismatch with the parameters.
pub fn bind(m: &Module, entry: Op, texts: &[String]) -> Result<Bound, String> {
    let mut specs = Vec::with_capacity(texts.len());
    for t in texts {
        specs.push(args::parse(t, &mut |p| std::fs::read(p))?);
    }
    Ok(args::bind(&m.ctx.types, &entry_params(m, entry), specs)?)
}

/// A case ready to launch.
pub struct Prepared {
    /// The verified module.
    pub module: Module,
    /// Its entry.
    pub entry: Op,
    /// The PTX.
    pub ptx: String,
    /// The kernel's PTX name.
    pub kernel: String,
    /// The arguments.
    pub bound: Bound,
}

impl Prepared {
    /// The harness's view of it: launched on `grid` with `num_warps` warps, compared
    /// under `policy`.
    pub fn case(&self, grid: [u32; 3], num_warps: u32, policy: Policy) -> Case<'_> {
        Case {
            module: &self.module,
            entry: self.entry,
            ptx: &self.ptx,
            kernel: &self.kernel,
            grid,
            num_warps,
            bound: &self.bound,
            policy,
            max_ops: 100_000_000,
        }
    }
}

/// Parses, verifies, binds and compiles a case (canonicalized, as `tilec FILE` compiles).
///
/// # Errors
///
/// Why it cannot run: a parse, verify or binding error, or the backend's refusal.
pub fn prepare(case: &SweepCase, opts: &tilec_ptx::Options) -> Result<Prepared, String> {
    let module = load(&case.text)?;
    let (_, entry) = module
        .entries()
        .into_iter()
        .find(|(n, _)| *n == case.entry)
        .ok_or_else(|| format!("no entry @{}", case.entry))?;
    let bound = bind(&module, entry, &case.args)?;
    // Canonicalized and lowered as `tilec FILE` compiles it (tilec::pipeline).
    let popts = tilec::pipeline::Options {
        ptx: opts.clone(),
        ..tilec::pipeline::Options::default()
    };
    let ptx = tilec::pipeline::back(
        vec![module.clone()],
        None,
        &popts,
        &mut tilec::pipeline::Timings::default(),
    )
    .map_err(|f| format!("the PTX backend refuses it: {}", f.message()))?
    .ptx;
    Ok(Prepared {
        kernel: tilec_ptx::ptx_ident(&case.entry),
        module,
        entry,
        ptx,
        bound,
    })
}

/// How one case ended.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// Every buffer matched.
    Pass {
        /// Compared bit for bit.
        exact: bool,
        /// The largest difference, in ulps.
        worst_ulps: f64,
    },
    /// A mismatch or a write outside a buffer: the report.
    Fail(String),
    /// Not run: the interpreter found undefined behaviour on these inputs.
    Undefined(String),
    /// Not run: it does not compile (backend limits) or the backend cannot execute it.
    Unsupported(String),
    /// The device failed: a load, launch or fault (a bug unless the backend is a
    /// simulator that lacks an instruction).
    DeviceError(String),
}

/// Whether a device error is the simulator's limit (an instruction or form it does not
/// run: "ptxsim: line N: unsupported ...", or a panic inside it), not a fault it found in
/// the program. Everything else the simulator reports (a data race with the copy engine
/// or between threads, a misaligned or out-of-bounds access, a register of a running
/// `wgmma` touched, a barrier in divergent code, a deadlock) is what the hardware would
/// do wrong or leave undefined: a failure of the case.
pub fn simulator_limitation(e: &str) -> bool {
    e.starts_with("ptxsim cannot run it")
        || (e.starts_with("ptxsim: ") && e.contains("unsupported"))
}

impl Verdict {
    /// A short word for tables.
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Pass { exact: true, .. } => "pass (bit-exact)",
            Verdict::Pass { .. } => "pass",
            Verdict::Fail(_) => "FAIL",
            Verdict::Undefined(_) => "skipped (UB)",
            Verdict::Unsupported(_) => "unsupported",
            Verdict::DeviceError(_) => "DEVICE ERROR",
        }
    }
}

/// Runs one case on `backend` and in the interpreter, and compares.
pub fn run_case(backend: &mut dyn Backend, case: &SweepCase, opts: &tilec_ptx::Options) -> Verdict {
    let p = match prepare(case, opts) {
        Ok(p) => p,
        Err(e) => return Verdict::Unsupported(e),
    };
    let mut policy = Policy::of(&p.module, p.entry, opts.fast_math, case.grid);
    policy.force_exact = case.exact;
    let c = p.case(case.grid, opts.num_warps, policy);
    match tilec_gpu::check(backend, &c) {
        Ok(r) if r.passed() => Verdict::Pass {
            exact: r.policy.exact(),
            worst_ulps: r.worst_ulps(),
        },
        Ok(r) => Verdict::Fail(format!("{}\n{}", case.command(), r.render(&p.module))),
        Err(CheckError::Undefined(e)) => Verdict::Undefined(e.message),
        Err(CheckError::Params(e)) => Verdict::DeviceError(format!("arguments: {e}")),
        Err(CheckError::Gpu(e)) => Verdict::DeviceError(e.to_string()),
    }
}

/// `n` structured random kernels from [`crate::tilegen`] (seeds `seed`, `seed + 1`, ...).
pub fn structured_cases(n: usize, seed: u64) -> Vec<SweepCase> {
    (0..n as u64)
        .map(|i| {
            let s = seed.wrapping_add(i);
            let g = crate::tilegen::structured_kernel(s);
            SweepCase {
                family: Family::Structured,
                label: format!("structured kernel seed {s} ({})", g.what),
                path: None,
                text: g.entry.text,
                entry: "kernel".to_string(),
                grid: g.entry.grid,
                args: g.entry.args,
                exact: g.exact,
            }
        })
        .collect()
}

/// `n` random kernels from [`crate::kernelgen`] (seeds `seed`, `seed + 1`, ...).
pub fn random_cases(n: usize, seed: u64) -> Vec<SweepCase> {
    (0..n as u64)
        .map(|i| {
            let s = seed.wrapping_add(i);
            let g = crate::kernelgen::entry_kernel(s);
            SweepCase {
                family: Family::Random,
                label: format!("random kernel seed {s}"),
                path: None,
                text: g.text,
                entry: "kernel".to_string(),
                grid: g.grid,
                args: g.args,
                exact: false,
            }
        })
        .collect()
}

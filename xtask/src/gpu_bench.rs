//! `cargo xtask gpu-bench [--reps N] [--warmup N] [--only NAME] [--arch sm_90] [--json OUT]`:
//! the speed of tilec's PTX on a GPU (docs/gpu-harness.md, "gpu-bench").
//!
//! * memory-bound kernels (`examples/vector_add`, `row_softmax`, `layernorm`, `transpose`)
//!   in GB/s: the bytes the kernel must read and write, over the median time, and that as a
//!   percentage of the device's own device-to-device copy bandwidth
//!   ([`tilec_gpu::CudaDevice::copy_bandwidth`]);
//! * the GEMMs in TFLOP/s (2·M·N·K over the median time), and that as a percentage of
//!   `torch.mm` (cuBLAS) on the same shapes and dtypes: `examples/matmul` (f16 in, f32
//!   out, 64x64x32 tiles), and two cuTile kernels compiled from the bytecode cuTile Python
//!   wrote (`tests/corpus/cutile`), so that tilec and tileiras compile the very same
//!   kernel: `matmul_128` (`matmul_f16_f32acc` with 128x128x32 tiles, f16 in, f32 out)
//!   and `matmul_bf16` (`matmul_bf16` with 64x64x64 tiles, C = A·B^T, all bf16);
//! * every kernel next to the same kernel written in cuTile Python and compiled by
//!   NVIDIA's tileiras, launched by `scripts/gpu/bench_reference.py` on the same shapes.
//!
//! Each kernel is compiled in process as `tilec FILE -o OUT --arch ARCH` compiles it
//! (canonicalized; the examples at 4 warps, the cuTile GEMMs at the warps tilec chooses;
//! `ARCH` the device's unless `--arch`), launched with the threads of its `.reqntid`, its
//! arguments are checked against the `.param` list of the PTX, its output is checked once
//! on sampled rows against a host computation (a fast wrong kernel is reported as wrong,
//! not as fast), and then it is timed with CUDA events: `--warmup` launches (default 10),
//! then the median of `--reps` (default 100), each launch between its own pair of events.
//! The reference script runs afterwards, in its own process, with the same shapes and
//! counts.
//!
//! Without a GPU it compiles every benchmark kernel, checks the arguments against the PTX,
//! says that no GPU is present and exits 0. Exit status 1: a benchmark kernel failed
//! (compile, argument check, launch, wrong result); 2: bad options.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use tilec_gpu::{Backend, CudaDevice, KernelId, Probe};
use tilec_interp::Arg;
use tilec_ir::float::{FloatKind, round_from_f64, to_f64};
use tilec_ir::{Module, Op, Opcode, Type, TypeData};
use tilec_ptx::Arch;

/// Warps per tile block of the examples (tilec's default `--num-warps`); the cuTile GEMMs
/// take the warps tilec chooses. Every launch has the threads of the kernel's `.reqntid`.
pub const NUM_WARPS: u32 = 4;
/// Bytes of each device-to-device copy that measures the copy bandwidth.
pub const COPY_BYTES: usize = 256 << 20;

/// Command-line options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Timed launches per kernel.
    pub reps: usize,
    /// Untimed launches before them.
    pub warmup: usize,
    /// Only these benchmarks (kernel names); empty: all.
    pub only: Vec<String>,
    /// PTX target (default: the device's).
    pub arch: Option<Arch>,
    /// Also write every figure here as JSON.
    pub json: Option<PathBuf>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            reps: 100,
            warmup: 10,
            only: Vec::new(),
            arch: None,
            json: None,
        }
    }
}

/// Parses the options after `gpu-bench`.
///
/// # Errors
///
/// A one-line description of the first bad option.
pub fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut o = Options::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{a} needs a value"))
        };
        match a.as_str() {
            "--reps" => {
                o.reps = value()?
                    .parse()
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or("--reps must be a positive integer")?;
            }
            "--warmup" => {
                o.warmup = value()?
                    .parse()
                    .map_err(|_| "--warmup must be a non-negative integer")?;
            }
            "--only" => {
                for name in value()?.split(',').filter(|s| !s.is_empty()) {
                    if Kind::from_name(name).is_none() {
                        return Err(format!(
                            "--only {name}: no such benchmark (known: {})",
                            Kind::ALL.map(Kind::name).join(", ")
                        ));
                    }
                    o.only.push(name.to_string());
                }
            }
            "--arch" => {
                let name = value()?;
                o.arch = Some(Arch::from_name(&name).ok_or_else(|| {
                    format!(
                        "unknown architecture '{name}' (known: {})",
                        Arch::ALL.map(Arch::name).join(", ")
                    )
                })?);
            }
            "--json" => o.json = Some(PathBuf::from(value()?)),
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    Ok(o)
}

/// The benchmarked examples.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `examples/vector_add.tile`: c = a + b, f32.
    VectorAdd,
    /// `examples/row_softmax.tile`: softmax of each row, f32, N <= 1024.
    RowSoftmax,
    /// `examples/layernorm.tile`: layer norm of each row, f32, N <= 1024.
    Layernorm,
    /// `examples/transpose.tile`: B = A^T, f32.
    Transpose,
    /// `examples/matmul.tile`: C (f32) = A (f16) x B (f16), 64x64x32 tiles.
    Matmul,
    /// cuTile's `matmul_f16_f32acc` with 128x128x32 tiles (`tests/corpus/cutile`): C (f32)
    /// = A (f16) x B (f16).
    Matmul128,
    /// cuTile's `matmul_bf16` with 64x64x64 tiles (`tests/corpus/cutile`): C (bf16) =
    /// A (bf16) x B^T, B stored N x K (bf16).
    MatmulBf16,
    /// `examples/matmul_wide.tile`: C (f32) = A (f16) x B (f16), 128x128x128 tiles (on
    /// sm_90a both operands column-blocked), at the warps tilec chooses.
    MatmulWide,
    /// [`Kind::MatmulWide`] compiled with `--warp-specialize` (on sm_90a a producer
    /// warpgroup beside the two MMA warpgroups; elsewhere the same kernel).
    MatmulWideWs,
    /// cuTile's `persistent_matmul` (`tests/corpus/cutile`): C (f32) = A (f16) x B (f16)
    /// with 64x64x64 tiles, `P` tile blocks (the shape's fourth number: one per SM)
    /// walking C's tiles.
    Persistent,
    /// [`Kind::Persistent`] compiled with `--warp-specialize` (on sm_90a the loop over
    /// C's tiles split whole: a producer warp beside the MMA warpgroup).
    PersistentWs,
    /// cuTile's `flash_attention` (`tests/corpus/cutile`): one head, O = softmax(Q K^T
    /// / 8) V with Q, K, V and O `S x 64` f16, 64 query rows per block and keys in blocks
    /// of 64 (the online softmax); measured in TFLOP/s (4·S²·64) against torch's
    /// `scaled_dot_product_attention`.
    Attention,
    /// [`Kind::Attention`] compiled with `--warp-specialize` (on sm_90a a producer warp
    /// filling K's and V's rings).
    AttentionWs,
    /// cuTile's `vector_add_cluster` (`tests/corpus/cutile`): [`Kind::VectorAdd`] with
    /// `num_ctas=2` (each 1024-element tile block over a cluster of 2 CTAs on sm_90+).
    VectorAddCluster,
    /// cuTile's `matmul_cluster` (`tests/corpus/cutile`): C (f32) = A (f16) x B (f16),
    /// 128x128x64 tiles, `num_ctas=2` (each C tile over a cluster of 2 CTAs on sm_90+).
    MatmulCluster,
}

/// Attention's head dimension (the corpus kernel's D).
pub const HEAD_DIM: u32 = 64;

/// Attention's softmax scale, 1/sqrt(64).
pub const ATTENTION_SCALE: f32 = 0.125;

/// Where a benchmark's kernel comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Source {
    /// The file, relative to the repository root; for a `.tileirbc` file, the `.mlir`
    /// text of the same name stands in when the bytecode is missing.
    pub file: &'static str,
    /// The entry's name.
    pub entry: &'static str,
    /// Fixed warps per tile block, or `None`: the warps tilec's command line chooses
    /// (`tilec_ptx::Options::choose_warps`).
    pub warps: Option<u32>,
    /// Compiled with `--warp-specialize`.
    pub warp_specialize: bool,
}

impl Kind {
    /// Every benchmark kind.
    pub const ALL: [Kind; 15] = [
        Kind::VectorAdd,
        Kind::RowSoftmax,
        Kind::Layernorm,
        Kind::Transpose,
        Kind::Matmul,
        Kind::Matmul128,
        Kind::MatmulBf16,
        Kind::MatmulWide,
        Kind::MatmulWideWs,
        Kind::Persistent,
        Kind::PersistentWs,
        Kind::Attention,
        Kind::AttentionWs,
        Kind::VectorAddCluster,
        Kind::MatmulCluster,
    ];

    /// The benchmark's name (`--only`, the table, the reference script); for the
    /// examples also the file stem and the entry's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Kind::VectorAdd => "vector_add",
            Kind::RowSoftmax => "row_softmax",
            Kind::Layernorm => "layernorm",
            Kind::Transpose => "transpose",
            Kind::Matmul => "matmul",
            Kind::Matmul128 => "matmul_128",
            Kind::MatmulBf16 => "matmul_bf16",
            Kind::MatmulWide => "matmul_wide",
            Kind::MatmulWideWs => "matmul_wide_ws",
            Kind::Persistent => "persistent",
            Kind::PersistentWs => "persistent_ws",
            Kind::Attention => "attention",
            Kind::AttentionWs => "attention_ws",
            Kind::VectorAddCluster => "vector_add_cluster",
            Kind::MatmulCluster => "matmul_cluster",
        }
    }

    /// The kernel: `examples/NAME.tile`, entry `NAME`, at [`NUM_WARPS`] warps; for the
    /// cuTile GEMMs the bytecode cuTile Python wrote for the kernel the reference script
    /// launches (so both sides run the same kernel), at the warps tilec chooses.
    #[must_use]
    pub fn source(self) -> Source {
        let example = |file, entry| Source {
            file,
            entry,
            warps: Some(NUM_WARPS),
            warp_specialize: false,
        };
        match self {
            Kind::VectorAdd => example("examples/vector_add.tile", "vector_add"),
            Kind::RowSoftmax => example("examples/row_softmax.tile", "row_softmax"),
            Kind::Layernorm => example("examples/layernorm.tile", "layernorm"),
            Kind::Transpose => example("examples/transpose.tile", "transpose"),
            Kind::Matmul => example("examples/matmul.tile", "matmul"),
            Kind::Matmul128 => Source {
                file: "tests/corpus/cutile/matmul_f16_f32acc.tileirbc",
                entry: "matmul_f16_f32acc_Kt1_A2f16_1l0_2t1_p16_A2f16_1l0_2t1_p16_A2f32_1l0_2t1_p16_I128_I128_I32",
                warps: None,
                warp_specialize: false,
            },
            Kind::MatmulBf16 => Source {
                file: "tests/corpus/cutile/matmul_bf16.tileirbc",
                entry: "matmul_bf16_Kt1_A2bf16_1l0_2t1_p16_A2bf16_1l0_2t1_p16_A2bf16_1l0_2t1_p16_I64_I64_I64",
                warps: None,
                warp_specialize: false,
            },
            Kind::MatmulWide | Kind::MatmulWideWs => Source {
                file: "examples/matmul_wide.tile",
                entry: "matmul_wide",
                warps: None,
                warp_specialize: self == Kind::MatmulWideWs,
            },
            Kind::Persistent | Kind::PersistentWs => Source {
                file: "tests/corpus/cutile/persistent_matmul.tileirbc",
                entry: "persistent_matmul_Kt1_A2f16_1l0_2t1_p16_A2f16_1l0_2t1_p16_A2f32_1l0_2t1_p16_I64_I64_I64",
                warps: None,
                warp_specialize: self == Kind::PersistentWs,
            },
            Kind::Attention | Kind::AttentionWs => Source {
                file: "tests/corpus/cutile/flash_attention.tileirbc",
                entry: "flash_attention_Kt1_A2f16_1l0_2t1_p16_A2f16_1l0_2t1_p16_A2f16_1l0_2t1_p16_A2f16_1l0_2t1_p16_Sf32_I64_I64_I64",
                warps: None,
                warp_specialize: self == Kind::AttentionWs,
            },
            Kind::VectorAddCluster => Source {
                file: "tests/corpus/cutile/vector_add_cluster.tileirbc",
                entry: "vector_add_cluster_Kt1_A1f32_1t1_p16_A1f32_1t1_p16_A1f32_1t1_p16_I1024",
                warps: None,
                warp_specialize: false,
            },
            Kind::MatmulCluster => Source {
                file: "tests/corpus/cutile/matmul_cluster.tileirbc",
                entry: "matmul_cluster_Kt1_A2f16_1l0_2t1_p16_A2f16_1l0_2t1_p16_A2f32_1l0_2t1_p16_I128_I128_I64",
                warps: None,
                warp_specialize: false,
            },
        }
    }

    /// Whether it is a matrix product (measured in TFLOP/s against cuBLAS).
    #[must_use]
    pub fn is_gemm(self) -> bool {
        matches!(
            self,
            Kind::Matmul
                | Kind::Matmul128
                | Kind::MatmulCluster
                | Kind::MatmulBf16
                | Kind::MatmulWide
                | Kind::MatmulWideWs
                | Kind::Persistent
                | Kind::PersistentWs
        )
    }

    /// Whether it is measured in TFLOP/s (the GEMMs and attention) rather than GB/s.
    #[must_use]
    pub fn counts_flops(self) -> bool {
        self.is_gemm() || self.is_attention()
    }

    /// What the `torch` reference runs: cuBLAS for the GEMMs, torch's fused attention.
    #[must_use]
    pub fn torch_reference(self) -> Option<&'static str> {
        if self.is_gemm() {
            Some("cuBLAS")
        } else if self.is_attention() {
            Some("torch SDPA")
        } else {
            None
        }
    }

    /// Whether it is attention (either build).
    #[must_use]
    pub fn is_attention(self) -> bool {
        matches!(self, Kind::Attention | Kind::AttentionWs)
    }

    /// The kind named `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The number of dimensions of its shape.
    #[must_use]
    pub fn rank(self) -> usize {
        match self {
            Kind::VectorAdd | Kind::VectorAddCluster | Kind::Attention | Kind::AttentionWs => 1,
            Kind::RowSoftmax | Kind::Layernorm | Kind::Transpose => 2,
            Kind::Matmul
            | Kind::Matmul128
            | Kind::MatmulCluster
            | Kind::MatmulBf16
            | Kind::MatmulWide
            | Kind::MatmulWideWs => 3,
            // M, N, K and the tile blocks.
            Kind::Persistent | Kind::PersistentWs => 4,
        }
    }
}

/// One benchmark: a kernel on one shape (`[n]`, `[M, N]`, or `[M, N, K]` for the GEMMs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bench {
    /// The kernel.
    pub kind: Kind,
    /// The shape.
    pub dims: Vec<u32>,
}

/// A buffer's element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    /// IEEE half.
    F16,
    /// bfloat16.
    BF16,
    /// IEEE single.
    F32,
}

impl Elem {
    /// Bytes per element.
    #[must_use]
    pub fn size(self) -> usize {
        match self {
            Elem::F16 | Elem::BF16 => 2,
            Elem::F32 => 4,
        }
    }

    fn ir_type(self) -> Type {
        match self {
            Elem::F16 => Type::F16,
            Elem::BF16 => Type::BF16,
            Elem::F32 => Type::F32,
        }
    }
}

/// One buffer a benchmark allocates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferSpec {
    /// Its name in the example's header.
    pub name: &'static str,
    /// Element type.
    pub elem: Elem,
    /// Elements.
    pub len: usize,
    /// Whether the kernel writes it (the one checked).
    pub output: bool,
}

/// One kernel argument, in the entry's order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KArg {
    /// The device address of buffer `i` of [`Bench::buffers`].
    Buffer(usize),
    /// A `tile<i32>`.
    I32(i32),
    /// A `tile<f32>`.
    F32(f32),
}

/// Layer norm's epsilon.
pub const EPS: f32 = 1e-5;

fn div_ceil(a: u32, b: u32) -> u32 {
    a.div_ceil(b)
}

impl Bench {
    /// A benchmark; `None` when the shape does not fit the kernel (rank, zero sizes, the
    /// row kernels' N <= 1024, element counts and offsets that overflow i32).
    #[must_use]
    pub fn new(kind: Kind, dims: &[u32]) -> Option<Bench> {
        if dims.len() != kind.rank() || dims.iter().any(|d| *d == 0 || *d > i32::MAX as u32) {
            return None;
        }
        if matches!(kind, Kind::RowSoftmax | Kind::Layernorm) && dims[1] > 1024 {
            return None;
        }
        let b = Bench {
            kind,
            dims: dims.to_vec(),
        };
        // The kernels index with i32: every buffer's element count must fit.
        b.buffers()
            .iter()
            .all(|s| s.len <= i32::MAX as usize)
            .then_some(b)
    }

    fn d(&self, i: usize) -> u32 {
        self.dims[i]
    }

    fn du(&self, i: usize) -> usize {
        self.dims[i] as usize
    }

    /// `32768x1024`.
    #[must_use]
    pub fn shape_text(&self) -> String {
        self.dims
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join("x")
    }

    /// `row_softmax:32768x1024`, as the reference script takes it.
    #[must_use]
    pub fn spec(&self) -> String {
        format!("{}:{}", self.kind.name(), self.shape_text())
    }

    /// The tile blocks, as the example's header says.
    #[must_use]
    pub fn grid(&self) -> [u32; 3] {
        match self.kind {
            Kind::VectorAdd | Kind::VectorAddCluster => [div_ceil(self.d(0), 1024), 1, 1],
            Kind::RowSoftmax | Kind::Layernorm => [self.d(0), 1, 1],
            Kind::Transpose => [div_ceil(self.d(0), 64), div_ceil(self.d(1), 32), 1],
            Kind::Matmul | Kind::MatmulBf16 => {
                [div_ceil(self.d(0), 64), div_ceil(self.d(1), 64), 1]
            }
            Kind::Matmul128 | Kind::MatmulCluster | Kind::MatmulWide | Kind::MatmulWideWs => {
                [div_ceil(self.d(0), 128), div_ceil(self.d(1), 128), 1]
            }
            Kind::Persistent | Kind::PersistentWs => [self.d(3), 1, 1],
            Kind::Attention | Kind::AttentionWs => [div_ceil(self.d(0), 64), 1, 1],
        }
    }

    /// The buffers, in the order [`KArg::Buffer`] numbers them.
    #[must_use]
    pub fn buffers(&self) -> Vec<BufferSpec> {
        let b = |name, elem, len, output| BufferSpec {
            name,
            elem,
            len,
            output,
        };
        match self.kind {
            Kind::VectorAdd | Kind::VectorAddCluster => {
                let n = self.du(0);
                vec![
                    b("a", Elem::F32, n, false),
                    b("b", Elem::F32, n, false),
                    b("c", Elem::F32, n, true),
                ]
            }
            Kind::RowSoftmax => {
                let mn = self.du(0) * self.du(1);
                vec![b("x", Elem::F32, mn, false), b("y", Elem::F32, mn, true)]
            }
            Kind::Layernorm => {
                let (m, n) = (self.du(0), self.du(1));
                vec![
                    b("x", Elem::F32, m * n, false),
                    b("y", Elem::F32, m * n, true),
                    b("gamma", Elem::F32, n, false),
                    b("beta", Elem::F32, n, false),
                ]
            }
            Kind::Transpose => {
                let mn = self.du(0) * self.du(1);
                vec![b("a", Elem::F32, mn, false), b("b", Elem::F32, mn, true)]
            }
            Kind::Matmul
            | Kind::Matmul128
            | Kind::MatmulCluster
            | Kind::MatmulWide
            | Kind::MatmulWideWs
            | Kind::Persistent
            | Kind::PersistentWs => {
                let (m, n, k) = (self.du(0), self.du(1), self.du(2));
                vec![
                    b("a", Elem::F16, m * k, false),
                    b("b", Elem::F16, k * n, false),
                    b("c", Elem::F32, m * n, true),
                ]
            }
            Kind::MatmulBf16 => {
                // B is stored N x K.
                let (m, n, k) = (self.du(0), self.du(1), self.du(2));
                vec![
                    b("a", Elem::BF16, m * k, false),
                    b("b", Elem::BF16, n * k, false),
                    b("c", Elem::BF16, m * n, true),
                ]
            }
            Kind::Attention | Kind::AttentionWs => {
                let sd = self.du(0) * HEAD_DIM as usize;
                vec![
                    b("q", Elem::F16, sd, false),
                    b("k", Elem::F16, sd, false),
                    b("v", Elem::F16, sd, false),
                    b("out", Elem::F16, sd, true),
                ]
            }
        }
    }

    /// The kernel's arguments, in the order of its entry (an example's header comment;
    /// cuTile's calling convention for the corpus kernels): each array as pointer, sizes,
    /// strides (in elements).
    #[must_use]
    pub fn args(&self) -> Vec<KArg> {
        let i = |v: u32| KArg::I32(v as i32);
        let vector = |buf: usize, n: u32| vec![KArg::Buffer(buf), i(n), i(1)];
        let matrix = |buf: usize, rows: u32, cols: u32| {
            vec![KArg::Buffer(buf), i(rows), i(cols), i(cols), i(1)]
        };
        match self.kind {
            Kind::VectorAdd | Kind::VectorAddCluster => {
                let n = self.d(0);
                [vector(0, n), vector(1, n), vector(2, n)].concat()
            }
            Kind::RowSoftmax => {
                let (m, n) = (self.d(0), self.d(1));
                [matrix(0, m, n), matrix(1, m, n)].concat()
            }
            Kind::Layernorm => {
                let (m, n) = (self.d(0), self.d(1));
                [
                    matrix(0, m, n),
                    matrix(1, m, n),
                    vector(2, n),
                    vector(3, n),
                    vec![KArg::F32(EPS)],
                ]
                .concat()
            }
            Kind::Transpose => {
                let (m, n) = (self.d(0), self.d(1));
                [matrix(0, m, n), matrix(1, n, m)].concat()
            }
            Kind::Matmul
            | Kind::Matmul128
            | Kind::MatmulCluster
            | Kind::MatmulWide
            | Kind::MatmulWideWs
            | Kind::Persistent
            | Kind::PersistentWs => {
                let (m, n, k) = (self.d(0), self.d(1), self.d(2));
                [matrix(0, m, k), matrix(1, k, n), matrix(2, m, n)].concat()
            }
            Kind::MatmulBf16 => {
                let (m, n, k) = (self.d(0), self.d(1), self.d(2));
                [matrix(0, m, k), matrix(1, n, k), matrix(2, m, n)].concat()
            }
            Kind::Attention | Kind::AttentionWs => {
                let s = self.d(0);
                [
                    matrix(0, s, HEAD_DIM),
                    matrix(1, s, HEAD_DIM),
                    matrix(2, s, HEAD_DIM),
                    matrix(3, s, HEAD_DIM),
                    vec![KArg::F32(ATTENTION_SCALE)],
                ]
                .concat()
            }
        }
    }

    /// Bytes a memory-bound kernel must move: every input element read once, every
    /// output element written once (layernorm's gamma and beta once, not once per row);
    /// `None` for the GEMMs and attention, which are measured in FLOP/s.
    #[must_use]
    pub fn bytes_moved(&self) -> Option<u64> {
        (!self.kind.counts_flops()).then(|| {
            self.buffers()
                .iter()
                .map(|b| (b.len * b.elem.size()) as u64)
                .sum()
        })
    }

    /// Floating-point operations of a GEMM, 2·M·N·K, and of attention, 4·S²·64 (its
    /// two products; the softmax not counted); `None` for the others.
    #[must_use]
    pub fn flops(&self) -> Option<u64> {
        if self.kind.is_gemm() {
            Some(2 * u64::from(self.d(0)) * u64::from(self.d(1)) * u64::from(self.d(2)))
        } else if self.kind.is_attention() {
            let s = u64::from(self.d(0));
            Some(4 * s * s * u64::from(HEAD_DIM))
        } else {
            None
        }
    }

    /// GB/s (10^9 bytes per second) or TFLOP/s at `ms` milliseconds, with its unit.
    #[must_use]
    pub fn rate(&self, ms: f64) -> (f64, &'static str) {
        let s = ms * 1e-3;
        match (self.bytes_moved(), self.flops()) {
            (Some(b), _) => (b as f64 / s / 1e9, "GB/s"),
            (_, Some(f)) => (f as f64 / s / 1e12, "TFLOP/s"),
            _ => (0.0, ""),
        }
    }

    /// Which elements of the output are checked: (first element, count) ranges, a few
    /// whole rows (for vector_add, chunks at the start, middle and end).
    #[must_use]
    pub fn sample_ranges(&self) -> Vec<(usize, usize)> {
        let rows = |count: usize, len: usize| {
            let mut r = vec![0, count / 2, count - 1];
            r.dedup();
            r.into_iter().map(|i| (i * len, len)).collect::<Vec<_>>()
        };
        match self.kind {
            Kind::VectorAdd | Kind::VectorAddCluster => {
                let n = self.du(0);
                let chunk = n.min(4096);
                let mut v = vec![(0, chunk), ((n - chunk) / 2, chunk), (n - chunk, chunk)];
                v.dedup();
                v
            }
            Kind::RowSoftmax | Kind::Layernorm => rows(self.du(0), self.du(1)),
            // B is N x M: rows of B are columns of A.
            Kind::Transpose => rows(self.du(1), self.du(0)),
            Kind::Matmul
            | Kind::Matmul128
            | Kind::MatmulCluster
            | Kind::MatmulBf16
            | Kind::MatmulWide
            | Kind::MatmulWideWs
            | Kind::Persistent
            | Kind::PersistentWs => rows(self.du(0), self.du(1)),
            Kind::Attention | Kind::AttentionWs => rows(self.du(0), HEAD_DIM as usize),
        }
    }

    /// The expected value and the allowed absolute error of output elements
    /// `[first, first + count)`, computed on the host from the inputs (`inputs[i]` the
    /// bytes of buffer i). Tolerances as `scripts/gpu/run_examples.py`: exact for
    /// vector_add and transpose, 1e-5 relative (plus 1e-7 / 1e-5 absolute) for softmax
    /// and layer norm, 1e-3 of Σ|a·b| for the GEMMs (plus, for a bf16 result, its
    /// rounding to bf16: 2^-8 of the value).
    #[must_use]
    pub fn expected(&self, inputs: &[Vec<u8>], first: usize, count: usize) -> Vec<(f64, f64)> {
        // The output as rows of `width` elements: each row's values are computed at once.
        let width = match self.kind {
            Kind::VectorAdd | Kind::VectorAddCluster => count.max(1),
            Kind::RowSoftmax
            | Kind::Layernorm
            | Kind::Matmul
            | Kind::Matmul128
            | Kind::MatmulCluster
            | Kind::MatmulBf16
            | Kind::MatmulWide
            | Kind::MatmulWideWs
            | Kind::Persistent
            | Kind::PersistentWs => self.du(1),
            Kind::Transpose => self.du(0),
            Kind::Attention | Kind::AttentionWs => HEAD_DIM as usize,
        };
        let mut out = Vec::with_capacity(count);
        let mut e = first;
        while e < first + count {
            let (r, j0) = (e / width, e % width);
            let n = (width - j0).min(first + count - e);
            out.extend(self.expected_row(inputs, r, j0, n, e));
            e += n;
        }
        out
    }

    /// [`Bench::expected`] for elements `[j0, j0 + n)` of output row `r` (element `e`
    /// of the buffer is the first).
    fn expected_row(
        &self,
        inputs: &[Vec<u8>],
        r: usize,
        j0: usize,
        n: usize,
        e: usize,
    ) -> Vec<(f64, f64)> {
        let f32s = |i: usize, at: usize, n: usize| decode(Elem::F32, &inputs[i], at, n);
        match self.kind {
            Kind::VectorAdd | Kind::VectorAddCluster => {
                let (a, b) = (f32s(0, e, n), f32s(1, e, n));
                // f32 addition, correctly rounded on both sides.
                a.iter()
                    .zip(&b)
                    .map(|(x, y)| (f64::from(*x as f32 + *y as f32), 0.0))
                    .collect()
            }
            Kind::RowSoftmax => {
                let cols = self.du(1);
                let x = f32s(0, r * cols, cols);
                let max = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let sum: f64 = x.iter().map(|v| (v - max).exp()).sum();
                x[j0..j0 + n]
                    .iter()
                    .map(|v| {
                        let y = (v - max).exp() / sum;
                        (y, 1e-5 * y.abs() + 1e-7)
                    })
                    .collect()
            }
            Kind::Layernorm => {
                let cols = self.du(1);
                let x = f32s(0, r * cols, cols);
                let (gamma, beta) = (f32s(2, 0, cols), f32s(3, 0, cols));
                let nf = cols as f64;
                let mean = x.iter().sum::<f64>() / nf;
                let var = x.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / nf;
                let rstd = 1.0 / (var + f64::from(EPS)).sqrt();
                (j0..j0 + n)
                    .map(|j| {
                        let y = (x[j] - mean) * rstd * gamma[j] + beta[j];
                        (y, 1e-5 * y.abs() + 1e-5)
                    })
                    .collect()
            }
            Kind::Transpose => {
                // B[r, c] = A[c, r]; A is M x N.
                let cols = self.du(1);
                (j0..j0 + n)
                    .map(|c| (f32s(0, c * cols + r, 1)[0], 0.0))
                    .collect()
            }
            Kind::Matmul
            | Kind::Matmul128
            | Kind::MatmulCluster
            | Kind::MatmulWide
            | Kind::MatmulWideWs
            | Kind::Persistent
            | Kind::PersistentWs => {
                let (cols, k) = (self.du(1), self.du(2));
                let a = decode(Elem::F16, &inputs[0], r * k, k);
                let mut sum = vec![0.0; n];
                let mut mag = vec![0.0; n];
                for (kk, av) in a.iter().enumerate() {
                    let b = decode(Elem::F16, &inputs[1], kk * cols + j0, n);
                    for (j, bv) in b.iter().enumerate() {
                        sum[j] += av * bv;
                        mag[j] += (av * bv).abs();
                    }
                }
                sum.into_iter()
                    .zip(mag)
                    .map(|(s, m)| (s, 1e-3 * m + 1e-6))
                    .collect()
            }
            Kind::MatmulBf16 => {
                // C[r, j] = Σ A[r, kk] · B[j, kk]: B is N x K; an f32 sum rounded to bf16.
                let k = self.du(2);
                let a = decode(Elem::BF16, &inputs[0], r * k, k);
                (j0..j0 + n)
                    .map(|j| {
                        let b = decode(Elem::BF16, &inputs[1], j * k, k);
                        let (s, m) = a
                            .iter()
                            .zip(&b)
                            .fold((0.0, 0.0), |(s, m), (x, y)| (s + x * y, m + (x * y).abs()));
                        (s, s.abs() / 256.0 + 1e-3 * m + 1e-6)
                    })
                    .collect()
            }
            Kind::Attention | Kind::AttentionWs => {
                // O[r] = Σ_j softmax_j(Q[r]·K[j] / 8) V[j], computed in f64; the kernel
                // rounds P to f16 before its product and O to f16: a few f16 ulps.
                let (s, d) = (self.du(0), HEAD_DIM as usize);
                let q = decode(Elem::F16, &inputs[0], r * d, d);
                let scores: Vec<f64> = (0..s)
                    .map(|j| {
                        let k = decode(Elem::F16, &inputs[1], j * d, d);
                        q.iter().zip(&k).map(|(a, b)| a * b).sum::<f64>()
                            * f64::from(ATTENTION_SCALE)
                    })
                    .collect();
                let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let p: Vec<f64> = scores.iter().map(|x| (x - max).exp()).collect();
                let sum: f64 = p.iter().sum();
                let mut o = vec![0.0; n];
                for (j, pj) in p.iter().enumerate() {
                    let v = decode(Elem::F16, &inputs[2], j * d + j0, n);
                    for (x, vv) in o.iter_mut().zip(&v) {
                        *x += pj * vv;
                    }
                }
                o.into_iter()
                    .map(|x| {
                        let y = x / sum;
                        (y, 2e-3 * y.abs() + 1e-3)
                    })
                    .collect()
            }
        }
    }
}

/// Elements `[at, at + n)` of a buffer of `elem`s, as f64.
#[must_use]
pub fn decode(elem: Elem, bytes: &[u8], at: usize, n: usize) -> Vec<f64> {
    let size = elem.size();
    bytes[at * size..(at + n) * size]
        .chunks_exact(size)
        .map(|c| match elem {
            Elem::F32 => f64::from(f32::from_le_bytes([c[0], c[1], c[2], c[3]])),
            Elem::F16 => to_f64(FloatKind::F16, u64::from(u16::from_le_bytes([c[0], c[1]]))),
            Elem::BF16 => to_f64(FloatKind::BF16, u64::from(u16::from_le_bytes([c[0], c[1]]))),
        })
        .collect()
}

/// Whether `got` is within `tol` of `want` (NaN never is).
fn within(got: f64, want: f64, tol: f64) -> bool {
    (got - want).abs() <= tol
}

/// Compares output elements `got` (bytes, starting at element `first`) with
/// [`Bench::expected`]. Returns the number of elements checked.
///
/// # Errors
///
/// How many were wrong, and the first.
pub fn check_sample(
    bench: &Bench,
    inputs: &[Vec<u8>],
    first: usize,
    got: &[u8],
) -> Result<usize, String> {
    let out = bench
        .buffers()
        .into_iter()
        .find(|b| b.output)
        .expect("one output");
    let count = got.len() / out.elem.size();
    let got = decode(out.elem, got, 0, count);
    let want = bench.expected(inputs, first, count);
    let bad: Vec<usize> = (0..count)
        .filter(|i| !within(got[*i], want[*i].0, want[*i].1))
        .collect();
    match bad.first() {
        None => Ok(count),
        Some(&i) => Err(format!(
            "{} of {count} checked elements wrong; first: element {} = {} (expected {} within {:.1e})",
            bad.len(),
            first + i,
            got[i],
            want[i].0,
            want[i].1
        )),
    }
}

/// The default plan: sizes large enough to be bound by memory bandwidth (or, for the
/// GEMMs, by the tensor cores), within the kernels' limits.
#[must_use]
pub fn default_plan() -> Vec<Bench> {
    [
        (Kind::VectorAdd, vec![1 << 26]),
        (Kind::RowSoftmax, vec![32768, 1024]),
        (Kind::Layernorm, vec![32768, 1024]),
        (Kind::Transpose, vec![8192, 8192]),
        (Kind::Matmul, vec![4096, 4096, 4096]),
        (Kind::Matmul, vec![8192, 8192, 8192]),
        (Kind::Matmul128, vec![4096, 4096, 4096]),
        (Kind::Matmul128, vec![8192, 8192, 8192]),
        (Kind::MatmulBf16, vec![4096, 4096, 4096]),
        (Kind::MatmulBf16, vec![8192, 8192, 8192]),
        (Kind::MatmulWide, vec![4096, 4096, 4096]),
        (Kind::MatmulWide, vec![8192, 8192, 8192]),
        (Kind::MatmulWideWs, vec![4096, 4096, 4096]),
        (Kind::MatmulWideWs, vec![8192, 8192, 8192]),
        // One tile block per SM of an H100 SXM or H200 (132).
        (Kind::Persistent, vec![8192, 8192, 8192, 132]),
        (Kind::PersistentWs, vec![8192, 8192, 8192, 132]),
        (Kind::Attention, vec![16384]),
        (Kind::AttentionWs, vec![16384]),
        // Each tile block over a cluster of 2 CTAs (sm_90+), beside the same kernels on one.
        (Kind::VectorAddCluster, vec![1 << 26]),
        (Kind::MatmulCluster, vec![8192, 8192, 8192]),
    ]
    .into_iter()
    .filter_map(|(k, d)| Bench::new(k, &d))
    .collect()
}

/// The plan, restricted to `only` (kernel names) when it is not empty.
#[must_use]
pub fn plan(only: &[String]) -> Vec<Bench> {
    default_plan()
        .into_iter()
        .filter(|b| only.is_empty() || only.iter().any(|o| o == b.kind.name()))
        .collect()
}

/// Deterministic inputs: SplitMix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// The initial bytes of every buffer: inputs uniform in [-1, 1) (f16: multiples of
/// 1/1024 in [-1, 1]; bf16: multiples of 1/128 in [-1, 1], which it holds exactly),
/// outputs all 0xFF bytes (NaN), so an element the kernel does not write fails the check.
#[must_use]
pub fn inputs(bench: &Bench, seed: u64) -> Vec<Vec<u8>> {
    let table = |kind, steps: i32| -> Vec<[u8; 2]> {
        (-steps..=steps)
            .map(|k| (round_from_f64(kind, f64::from(k) / f64::from(steps)) as u16).to_le_bytes())
            .collect()
    };
    let f16_table = table(FloatKind::F16, 1024);
    let bf16_table = table(FloatKind::BF16, 128);
    bench
        .buffers()
        .iter()
        .enumerate()
        .map(|(i, spec)| {
            if spec.output {
                return vec![0xFF; spec.len * spec.elem.size()];
            }
            let mut rng = Rng(seed ^ ((i as u64 + 1) << 32));
            let mut out = Vec::with_capacity(spec.len * spec.elem.size());
            for _ in 0..spec.len {
                match spec.elem {
                    Elem::F32 => {
                        let v = (rng.next() >> 40) as f32 / (1u32 << 23) as f32 - 1.0;
                        out.extend_from_slice(&v.to_le_bytes());
                    }
                    Elem::F16 => {
                        out.extend_from_slice(&f16_table[(rng.next() % 2049) as usize]);
                    }
                    Elem::BF16 => {
                        out.extend_from_slice(&bf16_table[(rng.next() % 257) as usize]);
                    }
                }
            }
            out
        })
        .collect()
}

/// A benchmark's kernel compiled to PTX.
pub struct Compiled {
    /// The verified module (not canonicalized).
    pub module: Module,
    /// Its entry.
    pub entry: Op,
    /// The PTX (of the canonicalized module).
    pub ptx: String,
    /// The kernel's name in the PTX.
    pub kernel: String,
    /// Threads per tile block: the kernel's `.reqntid` (32 per warp).
    pub threads: u32,
}

impl Compiled {
    /// Warps per tile block.
    #[must_use]
    pub fn warps(&self) -> u32 {
        self.threads / 32
    }
}

/// The file a kind's kernel is read from: [`Source::file`], or for bytecode that is
/// missing the `.mlir` text of the same name.
#[must_use]
pub fn source_path(kind: Kind) -> PathBuf {
    let path = crate::root().join(kind.source().file);
    if path.extension().is_some_and(|e| e == "tileirbc") && !path.exists() {
        let text = path.with_extension("mlir");
        if text.exists() {
            return text;
        }
    }
    path
}

/// Compiles a benchmark's kernel ([`Kind::source`]) as `tilec FILE -o OUT --arch ARCH`
/// compiles it (read, verify, canonicalize, PTX), at [`NUM_WARPS`] warps for the examples
/// (`--num-warps 4`) and for the cuTile GEMMs at the warps the command line chooses when
/// `--num-warps` is not given.
///
/// # Errors
///
/// The first diagnostic of a failing step; no `.reqntid` for the kernel in the PTX.
pub fn compile(kind: Kind, arch: Arch) -> Result<Compiled, String> {
    let path = source_path(kind);
    let input = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    compile_input(&input, &path.display().to_string(), kind.source(), arch)
}

/// [`compile`] of `input` (bytecode or text; `what` names it in messages).
fn compile_input(input: &[u8], what: &str, src: Source, arch: Arch) -> Result<Compiled, String> {
    let opts = tilec::pipeline::Options {
        ptx: tilec_ptx::Options {
            arch,
            num_warps: src.warps.unwrap_or(NUM_WARPS),
            choose_warps: src.warps.is_none(),
            warp_specialize: src.warp_specialize,
            ..tilec_ptx::Options::default()
        },
        ..tilec::pipeline::Options::default()
    };
    let mut timings = tilec::pipeline::Timings::default();
    let (module, _) = tilec::pipeline::front(input, tilec_diag::FileId(0), &opts, &mut timings)
        .map_err(|f| format!("{what}: {}: {}", f.stage.name(), f.message()))?;
    let ptx = tilec::pipeline::back(vec![module.clone()], None, &opts, &mut timings)
        .map_err(|f| format!("{what}: {}: {}", f.stage.name(), f.message()))?
        .ptx;
    let mut entry = None;
    module.walk(|op| {
        if module.opcode(op) == Opcode::Entry
            && matches!(module.attr_named(op, "sym_name").map(|a| module.ctx.attrs.get(a)),
                Some(tilec_ir::AttrData::String(s)) if &**s == src.entry)
        {
            entry = Some(op);
        }
    });
    let entry = entry.ok_or_else(|| format!("{what} has no entry @{}", src.entry))?;
    let kernel = tilec_ptx::ptx_ident(src.entry);
    let threads = tilec_ptx::kernel_threads(&ptx, &kernel)
        .filter(|t| *t > 0 && t % 32 == 0)
        .ok_or_else(|| format!("{what}: the PTX of @{} has no .reqntid", src.entry))?;
    Ok(Compiled {
        module,
        entry,
        ptx,
        kernel,
        threads,
    })
}

/// The parameter values of a launch of `c` with `args` (buffers at `addresses`), after
/// checking the entry's parameters against the PTX's `.param` list and every argument
/// against its parameter: the count, a buffer for each `ptr<T>` (of T's element type),
/// an i32 for each `tile<i32>`, an f32 for each `tile<f32>`.
///
/// # Errors
///
/// The first mismatch.
pub fn marshal(
    c: &Compiled,
    buffers: &[BufferSpec],
    args: &[KArg],
    addresses: &[u64],
) -> Result<Vec<Vec<u8>>, String> {
    let types = &c.module.ctx.types;
    let params = tilec_gpu::check::entry_params(&c.module, c.entry);
    let declared = tilec_gpu::params::ptx_params(&c.ptx, &c.kernel)
        .ok_or_else(|| format!("the PTX has no kernel '{}'", c.kernel))?;
    tilec_gpu::params::check_params(types, &params, &declared)?;
    if args.len() != params.len() {
        return Err(format!(
            "{} arguments for the {} parameters of @{}",
            args.len(),
            params.len(),
            c.kernel
        ));
    }
    let mut out = Vec::with_capacity(args.len());
    for (i, (arg, ty)) in args.iter().zip(&params).enumerate() {
        let elem = types.element_type(*ty);
        let ok = match (arg, types.get(elem)) {
            (KArg::Buffer(b), TypeData::Ptr(pointee)) => buffers
                .get(*b)
                .is_some_and(|s| types.element_type(*pointee) == s.elem.ir_type()),
            (KArg::I32(_), _) => elem == Type::I32,
            (KArg::F32(_), _) => elem == Type::F32,
            _ => false,
        };
        if !ok {
            return Err(format!(
                "argument {} ({arg:?}) does not fit parameter {} of type {}",
                i + 1,
                i + 1,
                types.to_string(*ty, false)
            ));
        }
        let a = match arg {
            KArg::Buffer(b) => Arg::Buffer(*b),
            KArg::I32(v) => Arg::Scalar(u64::from(*v as u32)),
            KArg::F32(v) => Arg::Scalar(u64::from(v.to_bits())),
        };
        let bytes = tilec_gpu::params::param_bytes(types, *ty, &a, addresses);
        if bytes.len() != declared[i].bytes {
            return Err(format!(
                "argument {} is {} bytes but .param {} is {}",
                i + 1,
                bytes.len(),
                declared[i].name,
                declared[i].bytes
            ));
        }
        out.push(bytes);
    }
    Ok(out)
}

/// Addresses that stand in for device buffers where there is no device.
fn fake_addresses(n: usize) -> Vec<u64> {
    (0..n as u64)
        .map(|i| 0x7f00_0000_0000 + (i << 32))
        .collect()
}

/// A value parsed from the reference script's JSON lines (flat objects only).
#[derive(Clone, Debug, PartialEq)]
pub enum JsonValue {
    /// A string.
    Str(String),
    /// A number.
    Num(f64),
    /// true or false.
    Bool(bool),
    /// null.
    Null,
}

/// Parses one flat JSON object (`{"k": "v", "n": 1.5, "x": null}`: string, number,
/// boolean and null values; no nesting), as `json.dumps` writes it.
#[must_use]
pub fn parse_flat_json(line: &str) -> Option<HashMap<String, JsonValue>> {
    let mut p = JsonParser {
        s: line.trim().as_bytes(),
        i: 0,
    };
    let mut map = HashMap::new();
    p.expect(b'{')?;
    p.ws();
    if p.peek() == Some(b'}') {
        p.i += 1;
        return p.at_end().then_some(map);
    }
    loop {
        p.ws();
        let key = p.string()?;
        p.ws();
        p.expect(b':')?;
        p.ws();
        let value = p.value()?;
        map.insert(key, value);
        p.ws();
        match p.peek()? {
            b',' => p.i += 1,
            b'}' => {
                p.i += 1;
                return p.at_end().then_some(map);
            }
            _ => return None,
        }
    }
}

struct JsonParser<'a> {
    s: &'a [u8],
    i: usize,
}

impl JsonParser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            self.i += 1;
        }
    }

    fn at_end(&mut self) -> bool {
        self.ws();
        self.i == self.s.len()
    }

    fn expect(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }

    fn value(&mut self) -> Option<JsonValue> {
        match self.peek()? {
            b'"' => self.string().map(JsonValue::Str),
            b't' => self.word("true").map(|()| JsonValue::Bool(true)),
            b'f' => self.word("false").map(|()| JsonValue::Bool(false)),
            b'n' => self.word("null").map(|()| JsonValue::Null),
            b'N' => self.word("NaN").map(|()| JsonValue::Num(f64::NAN)),
            b'I' => self
                .word("Infinity")
                .map(|()| JsonValue::Num(f64::INFINITY)),
            b'-' if self.s[self.i..].starts_with(b"-Infinity") => {
                self.i += "-Infinity".len();
                Some(JsonValue::Num(f64::NEG_INFINITY))
            }
            _ => {
                let start = self.i;
                while matches!(
                    self.peek(),
                    Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                ) {
                    self.i += 1;
                }
                let text = std::str::from_utf8(&self.s[start..self.i]).ok()?;
                text.parse().ok().map(JsonValue::Num)
            }
        }
    }

    fn word(&mut self, w: &str) -> Option<()> {
        self.s[self.i..]
            .starts_with(w.as_bytes())
            .then(|| self.i += w.len())
    }

    fn hex4(&mut self) -> Option<u32> {
        let h = std::str::from_utf8(self.s.get(self.i..self.i + 4)?).ok()?;
        let v = u32::from_str_radix(h, 16).ok()?;
        self.i += 4;
        Some(v)
    }

    fn string(&mut self) -> Option<String> {
        self.expect(b'"')?;
        let mut out = Vec::new();
        loop {
            let c = self.peek()?;
            self.i += 1;
            match c {
                b'"' => return String::from_utf8(out).ok(),
                b'\\' => {
                    let e = self.peek()?;
                    self.i += 1;
                    let ch = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&hi)
                                && self.s[self.i..].starts_with(b"\\u")
                            {
                                self.i += 2;
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return None;
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else {
                                hi
                            };
                            char::from_u32(code).unwrap_or('\u{FFFD}')
                        }
                        _ => return None,
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                _ => out.push(c),
            }
        }
    }
}

/// What the reference script reported for one benchmark and implementation.
#[derive(Clone, Debug, PartialEq)]
pub enum RefTime {
    /// The median in milliseconds, and the script's note.
    Ms(f64, String),
    /// Not measured, and why ("torch not installed").
    Skipped(String),
    /// It failed.
    Error(String),
}

/// Everything the reference script printed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reference {
    /// The device name it saw.
    pub device: Option<String>,
    /// Versions: ("cutile", "1.7.0"), ("torch", "2.5.1").
    pub versions: Vec<(String, String)>,
    /// (bench spec `name:shape`, impl `cutile`/`torch`) -> time.
    pub times: HashMap<(String, String), RefTime>,
    /// Plan records of a dry run: bench spec -> grid.
    pub planned: HashMap<String, String>,
    /// Whether the final `done` record arrived.
    pub done: bool,
    /// Lines that were not records.
    pub unparsed: Vec<String>,
}

impl Reference {
    /// The time of `bench` by `imp` ("cutile" or "torch"), if reported.
    #[must_use]
    pub fn time(&self, bench: &Bench, imp: &str) -> Option<&RefTime> {
        self.times.get(&(bench.spec(), imp.to_string()))
    }
}

/// Parses the reference script's standard output.
#[must_use]
pub fn parse_reference(stdout: &str) -> Reference {
    let mut r = Reference::default();
    for line in stdout.lines().filter(|l| !l.trim().is_empty()) {
        let Some(obj) = parse_flat_json(line) else {
            r.unparsed.push(line.to_string());
            continue;
        };
        let s = |k: &str| match obj.get(k) {
            Some(JsonValue::Str(v)) => Some(v.clone()),
            _ => None,
        };
        let key = || Some((format!("{}:{}", s("bench")?, s("shape")?), s("impl")?));
        match s("record").as_deref() {
            Some("device") => {
                r.device = s("name");
                for k in ["cutile", "torch", "cupy"] {
                    if let Some(v) = s(k) {
                        r.versions.push((k.to_string(), v));
                    }
                }
            }
            Some("result") => {
                if let (Some(k), Some(JsonValue::Num(ms))) = (key(), obj.get("median_ms")) {
                    r.times
                        .insert(k, RefTime::Ms(*ms, s("note").unwrap_or_default()));
                }
            }
            Some("skip") => {
                if let Some(k) = key() {
                    r.times
                        .insert(k, RefTime::Skipped(s("reason").unwrap_or_default()));
                }
            }
            Some("error") => {
                if let Some(k) = key() {
                    r.times
                        .insert(k, RefTime::Error(s("message").unwrap_or_default()));
                }
            }
            Some("plan") => {
                if let Some((spec, _)) = key() {
                    r.planned.insert(spec, s("grid").unwrap_or_default());
                }
            }
            Some("done") => r.done = true,
            _ => r.unparsed.push(line.to_string()),
        }
    }
    r
}

/// The Python that runs the reference script: `TILEC_PYTHON`, else `python3`.
fn python() -> String {
    std::env::var("TILEC_PYTHON").unwrap_or_else(|_| "python3".into())
}

fn script() -> PathBuf {
    crate::root().join("scripts/gpu/bench_reference.py")
}

/// Runs the reference script (`extra` before the benchmarks) and parses what it printed.
///
/// # Errors
///
/// It could not be started, or it failed without printing records.
pub fn run_reference(plan: &[Bench], extra: &[String]) -> Result<Reference, String> {
    let py = python();
    let mut cmd = Command::new(&py);
    cmd.arg(script()).args(extra);
    for b in plan {
        cmd.arg("--bench").arg(b.spec());
    }
    let out = cmd
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run {py}: {e}"))?;
    let r = parse_reference(&String::from_utf8_lossy(&out.stdout));
    if !out.status.success() && r.times.is_empty() && r.planned.is_empty() {
        return Err(format!(
            "{py} {} failed ({})",
            script().display(),
            out.status
        ));
    }
    Ok(r)
}

/// What tilec's run of one benchmark gave.
#[derive(Clone, Debug, PartialEq)]
pub enum Measured {
    /// Median milliseconds (output checked).
    Ms(f64),
    /// Compile, argument check, launch or result failure.
    Failed(String),
}

/// One row of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The benchmark.
    pub bench: Bench,
    /// tilec's result.
    pub tilec: Measured,
    /// Warps per tile block of tilec's kernel (`None`: it did not compile).
    pub warps: Option<u32>,
}

fn us(ms: f64) -> String {
    format!("{:.1}", ms * 1e3)
}

fn ref_cell(t: Option<&RefTime>) -> String {
    match t {
        Some(RefTime::Ms(ms, _)) => us(*ms),
        Some(RefTime::Skipped(why)) => format!("skipped: {why}"),
        Some(RefTime::Error(e)) => format!("FAILED: {}", e.lines().next().unwrap_or("")),
        None => "not run".into(),
    }
}

/// The Markdown table: one row per benchmark.
#[must_use]
pub fn render_table(rows: &[Row], copy_gbs: Option<f64>, reference: &Reference) -> String {
    let mut out = String::new();
    out.push_str(
        "| kernel | shape | warps | tilec µs | tilec rate | % of copy bandwidth / of cuBLAS | cuTile (tileiras) µs | tilec / cuTile time |\n",
    );
    out.push_str("|---|---|---:|---:|---:|---:|---:|---:|\n");
    for row in rows {
        let b = &row.bench;
        let cutile = reference.time(b, "cutile");
        let (time, rate, share, ratio) = match &row.tilec {
            Measured::Failed(e) => (
                format!("FAILED: {}", e.lines().next().unwrap_or("")),
                String::new(),
                String::new(),
                String::new(),
            ),
            Measured::Ms(ms) => {
                let (v, unit) = b.rate(*ms);
                let share = if let Some(lib) = b.kind.torch_reference() {
                    match reference.time(b, "torch") {
                        Some(RefTime::Ms(t, _)) => {
                            let (theirs, _) = b.rate(*t);
                            format!("{:.1}% ({lib} {theirs:.1} TFLOP/s)", 100.0 * v / theirs)
                        }
                        other => format!("{lib} {}", ref_cell(other)),
                    }
                } else {
                    copy_gbs.map_or("copy not measured".into(), |c| {
                        format!("{:.1}% (copy {c:.0} GB/s)", 100.0 * v / c)
                    })
                };
                let ratio = match cutile {
                    Some(RefTime::Ms(t, _)) if *t > 0.0 => format!("{:.2}", ms / t),
                    _ => "-".into(),
                };
                (us(*ms), format!("{v:.1} {unit}"), share, ratio)
            }
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {time} | {rate} | {share} | {} | {ratio} |",
            b.kind.name(),
            b.shape_text(),
            row.warps.map_or("-".into(), |w| w.to_string()),
            ref_cell(cutile),
        );
    }
    out
}

fn json_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json_num(v: Option<f64>) -> String {
    v.filter(|v| v.is_finite())
        .map_or("null".into(), |v| format!("{v}"))
}

/// Every figure as one JSON document (for `--json OUT`).
#[must_use]
pub fn render_json(
    device: &str,
    arch: Arch,
    opts: &Options,
    copy_gbs: Option<f64>,
    rows: &[Row],
    reference: &Reference,
) -> String {
    let mut out = String::from("{\n");
    let _ = writeln!(out, "  \"device\": {},", json_str(device));
    let _ = writeln!(out, "  \"arch\": {},", json_str(arch.name()));
    let _ = writeln!(
        out,
        "  \"reps\": {},\n  \"warmup\": {},",
        opts.reps, opts.warmup
    );
    let _ = writeln!(out, "  \"copy_gb_per_s\": {},", json_num(copy_gbs));
    out.push_str("  \"reference\": {");
    let versions: Vec<String> = reference
        .versions
        .iter()
        .map(|(k, v)| format!("{}: {}", json_str(k), json_str(v)))
        .collect();
    out.push_str(&versions.join(", "));
    out.push_str("},\n  \"results\": [\n");
    let items: Vec<String> = rows
        .iter()
        .map(|r| {
            let b = &r.bench;
            let (ms, err) = match &r.tilec {
                Measured::Ms(ms) => (Some(*ms), None),
                Measured::Failed(e) => (None, Some(e.as_str())),
            };
            let reft = |imp: &str| match reference.time(b, imp) {
                Some(RefTime::Ms(t, _)) => Some(*t),
                _ => None,
            };
            let rate = ms.map(|m| b.rate(m).0);
            format!(
                "    {{\"kernel\": {}, \"shape\": {}, \"warps\": {}, \"tilec_ms\": {}, \"tilec_error\": {}, \"bytes\": {}, \"flops\": {}, \"rate\": {}, \"unit\": {}, \"cutile_ms\": {}, \"cublas_ms\": {}, \"torch_sdpa_ms\": {}}}",
                json_str(b.kind.name()),
                json_str(&b.shape_text()),
                r.warps.map_or("null".into(), |w| w.to_string()),
                json_num(ms),
                err.map_or("null".into(), json_str),
                b.bytes_moved().map_or("null".into(), |v| v.to_string()),
                b.flops().map_or("null".into(), |v| v.to_string()),
                json_num(rate),
                json_str(b.rate(1.0).1),
                json_num(reft("cutile")),
                json_num(reft("torch").filter(|_| b.kind.is_gemm())),
                json_num(reft("torch").filter(|_| b.kind.is_attention())),
            )
        })
        .collect();
    out.push_str(&items.join(",\n"));
    out.push_str("\n  ]\n}\n");
    out
}

/// `cargo xtask gpu-bench ARGS`.
pub fn gpu_bench(args: &[String]) -> i32 {
    let opts = match parse_options(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("gpu-bench: {e}");
            return 2;
        }
    };
    run(&opts, tilec_gpu::open(), &mut std::io::stdout())
}

/// The whole command on the device `probe` found, printing to `out`.
pub fn run(opts: &Options, probe: Probe, out: &mut dyn std::io::Write) -> i32 {
    let plan = plan(&opts.only);
    if plan.is_empty() {
        let _ = writeln!(out, "gpu-bench: nothing to run");
        return 2;
    }
    let mut device = match probe {
        Probe::Present(d) => d,
        Probe::Absent(why) => return no_gpu(opts, &plan, &why, out),
    };
    let arch = opts.arch.unwrap_or_else(|| device.arch());
    let name = device.describe();
    eprintln!("gpu-bench: {name}; PTX for {}", arch.name());
    let copy_gbs = match device.copy_bandwidth(COPY_BYTES, opts.reps) {
        Ok(v) => Some(v),
        Err(e) => {
            eprintln!("gpu-bench: copy bandwidth: {e}");
            None
        }
    };
    let mut compiled: HashMap<Kind, Result<(Compiled, KernelId), String>> = HashMap::new();
    let mut rows = Vec::new();
    for b in &plan {
        // A kernel that hangs keeps the device: every later launch would wait for it.
        if device.hung() {
            rows.push(Row {
                bench: b.clone(),
                tilec: Measured::Failed("not run: an earlier kernel hangs on the device".into()),
                warps: None,
            });
            continue;
        }
        eprintln!("gpu-bench: {} {}", b.kind.name(), b.shape_text());
        let c = compiled.entry(b.kind).or_insert_with(|| {
            let c = compile(b.kind, arch)?;
            let k = device.load(&c.ptx, &c.kernel).map_err(|e| e.to_string())?;
            Ok((c, k))
        });
        let tilec = match c {
            Ok((c, k)) => match measure(&mut device, b, c, *k, opts) {
                Ok(ms) => Measured::Ms(ms),
                Err(e) => Measured::Failed(e),
            },
            Err(e) => Measured::Failed(e.clone()),
        };
        device.free_all();
        if let Measured::Failed(e) = &tilec {
            eprintln!(
                "gpu-bench: {} {}: FAILED: {e}",
                b.kind.name(),
                b.shape_text()
            );
        }
        let warps = c.as_ref().ok().map(|(c, _)| c.warps());
        rows.push(Row {
            bench: b.clone(),
            tilec,
            warps,
        });
    }
    // The reference runs in its own process, after tilec's runs (one at a time on the GPU).
    let extra = vec![
        "--reps".to_string(),
        opts.reps.to_string(),
        "--warmup".to_string(),
        opts.warmup.to_string(),
    ];
    // Not beside a kernel that hangs (it holds the device): the reference says why.
    let reference = if device.hung() {
        Err("not run: a tilec kernel hangs on the device".to_string())
    } else {
        run_reference(&plan, &extra)
    };
    let reference = reference.unwrap_or_else(|e| {
        eprintln!("gpu-bench: reference script: {e}");
        let mut r = Reference::default();
        for b in &plan {
            for imp in ["cutile", "torch"] {
                r.times
                    .insert((b.spec(), imp.into()), RefTime::Error(e.clone()));
            }
        }
        r
    });
    let _ = writeln!(out, "## gpu-bench on {name}\n");
    let _ = writeln!(
        out,
        "PTX for {}, warps per tile block as the warps column gives them (the examples at {NUM_WARPS}, the cuTile GEMMs at tilec's choice); the median of {} runs after {} warm-ups, CUDA events; device-to-device copy: {}; reference: {}.\n",
        arch.name(),
        opts.reps,
        opts.warmup,
        copy_gbs.map_or("not measured".into(), |c| format!("{c:.0} GB/s")),
        if reference.versions.is_empty() {
            "no versions reported".to_string()
        } else {
            reference
                .versions
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        }
    );
    let _ = write!(out, "{}", render_table(&rows, copy_gbs, &reference));
    // What each torch reference ran, one line per library.
    let mut notes: Vec<(&str, Vec<&str>)> = Vec::new();
    for b in &plan {
        if let (Some(RefTime::Ms(_, note)), Some(lib)) =
            (reference.time(b, "torch"), b.kind.torch_reference())
            && !note.is_empty()
        {
            match notes.iter_mut().find(|(l, _)| *l == lib) {
                Some((_, n)) if !n.contains(&note.as_str()) => n.push(note),
                Some(_) => {}
                None => notes.push((lib, vec![note])),
            }
        }
    }
    if !notes.is_empty() {
        let _ = writeln!(out);
    }
    for (lib, n) in notes {
        let _ = writeln!(out, "{lib}: {}", n.join("; "));
    }
    if let Some(path) = &opts.json {
        let text = render_json(&name, arch, opts, copy_gbs, &rows, &reference);
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("gpu-bench: cannot write {}: {e}", path.display());
            return 2;
        }
    }
    i32::from(rows.iter().any(|r| matches!(r.tilec, Measured::Failed(_))))
}

/// No device: compile every benchmark kernel and check its arguments against the PTX.
fn no_gpu(opts: &Options, plan: &[Bench], why: &str, out: &mut dyn std::io::Write) -> i32 {
    let _ = writeln!(out, "no GPU present ({why}): nothing measured");
    let arch = opts.arch.unwrap_or(Arch::Sm90);
    let mut failed = 0;
    let mut compiled: Vec<(Kind, Result<Compiled, String>)> = Vec::new();
    for b in plan {
        if !compiled.iter().any(|(k, _)| *k == b.kind) {
            compiled.push((b.kind, compile(b.kind, arch)));
        }
        let c = &compiled
            .iter()
            .find(|(k, _)| *k == b.kind)
            .expect("compiled")
            .1;
        let r = c.as_ref().map_err(Clone::clone).and_then(|c| {
            let buffers = b.buffers();
            marshal(c, &buffers, &b.args(), &fake_addresses(buffers.len()))
        });
        if let Err(e) = r {
            let _ = writeln!(out, "{} {}: {e}", b.kind.name(), b.shape_text());
            failed += 1;
        }
    }
    let warps: Vec<String> = compiled
        .iter()
        .filter_map(|(k, c)| Some(format!("{} {}", k.name(), c.as_ref().ok()?.warps())))
        .collect();
    let _ = writeln!(out, "warps per tile block: {}", warps.join(", "));
    let _ = writeln!(
        out,
        "checked the arguments of {} benchmark(s) against their PTX ({}): {}",
        plan.len(),
        arch.name(),
        if failed == 0 {
            "all fit".to_string()
        } else {
            format!("{failed} do not")
        }
    );
    i32::from(failed > 0)
}

/// Uploads the inputs, launches once and checks the sampled output, then times the
/// kernel. Returns the median milliseconds.
fn measure(
    device: &mut CudaDevice,
    b: &Bench,
    c: &Compiled,
    kernel: KernelId,
    opts: &Options,
) -> Result<f64, String> {
    let buffers = b.buffers();
    let data = inputs(b, 0x5EED);
    let mut addresses = Vec::with_capacity(data.len());
    for d in &data {
        addresses.push(device.alloc(d).map_err(|e| e.to_string())?);
    }
    let params = marshal(c, &buffers, &b.args(), &addresses)?;
    let threads = c.threads;
    device
        .launch(kernel, b.grid(), threads, &params)
        .map_err(|e| e.to_string())?;
    let out = buffers.iter().position(|s| s.output).expect("one output");
    let size = buffers[out].elem.size();
    for (first, count) in b.sample_ranges() {
        let got = device
            .read(addresses[out] + (first * size) as u64, count * size)
            .map_err(|e| e.to_string())?;
        check_sample(b, &data, first, &got).map_err(|e| format!("wrong result: {e}"))?;
    }
    let mut times = device
        .time(kernel, b.grid(), threads, &params, opts.warmup, opts.reps)
        .map_err(|e| e.to_string())?;
    Ok(tilec_gpu::median(&mut times))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_string()).collect()
    }

    #[test]
    fn options() {
        assert_eq!(parse_options(&[]), Ok(Options::default()));
        let o = parse_options(&strings(&[
            "--reps",
            "7",
            "--warmup",
            "0",
            "--only",
            "matmul,transpose",
            "--arch",
            "sm_80",
            "--json",
            "x.json",
        ]))
        .unwrap();
        assert_eq!(o.reps, 7);
        assert_eq!(o.warmup, 0);
        assert_eq!(o.only, strings(&["matmul", "transpose"]));
        assert_eq!(o.arch, Some(Arch::Sm80));
        assert_eq!(o.json, Some(PathBuf::from("x.json")));
        for bad in [
            &["--reps", "0"][..],
            &["--reps"],
            &["--only", "gemm"],
            &["--arch", "sm_70"],
            &["--frobnicate"],
        ] {
            assert!(parse_options(&strings(bad)).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_plan_covers_every_kernel_within_its_limits() {
        let p = default_plan();
        assert_eq!(p.len(), 20, "a shape of the default plan was rejected");
        for k in Kind::ALL {
            assert!(p.iter().any(|b| b.kind == k), "{k:?} is not benchmarked");
            assert_eq!(Kind::from_name(k.name()), Some(k));
        }
        assert_eq!(plan(&strings(&["matmul"])).len(), 2);
        assert_eq!(plan(&strings(&["matmul_128", "matmul_bf16"])).len(), 4);
        for k in [Kind::Matmul, Kind::Matmul128, Kind::MatmulBf16] {
            assert!(k.is_gemm());
            assert_eq!(k.rank(), 3);
            for d in [4096, 8192] {
                assert!(p.contains(&Bench::new(k, &[d, d, d]).unwrap()), "{k:?} {d}");
            }
        }
        assert!(!Kind::Transpose.is_gemm());
        assert!(Bench::new(Kind::MatmulBf16, &[10, 10]).is_none());
        assert!(Bench::new(Kind::RowSoftmax, &[10, 1025]).is_none());
        assert!(Bench::new(Kind::Layernorm, &[10, 1024]).is_some());
        assert!(Bench::new(Kind::Matmul, &[10, 10]).is_none());
        assert!(Bench::new(Kind::Transpose, &[65536, 65536]).is_none());
        assert!(Bench::new(Kind::VectorAdd, &[0]).is_none());
        assert!(Bench::new(Kind::Persistent, &[64, 64, 64]).is_none());
        assert!(Bench::new(Kind::PersistentWs, &[64, 64, 64, 0]).is_none());
    }

    #[test]
    fn bytes_flops_and_rates() {
        let va = Bench::new(Kind::VectorAdd, &[1 << 26]).unwrap();
        assert_eq!(va.bytes_moved(), Some(12 << 26));
        assert_eq!(va.flops(), None);
        assert_eq!(va.grid(), [65536, 1, 1]);
        let sm = Bench::new(Kind::RowSoftmax, &[32768, 1024]).unwrap();
        assert_eq!(sm.bytes_moved(), Some(8 * 32768 * 1024));
        assert_eq!(sm.grid(), [32768, 1, 1]);
        let ln = Bench::new(Kind::Layernorm, &[32768, 1024]).unwrap();
        assert_eq!(ln.bytes_moved(), Some(8 * 32768 * 1024 + 8 * 1024));
        let tr = Bench::new(Kind::Transpose, &[8192, 4096]).unwrap();
        assert_eq!(tr.bytes_moved(), Some(8 * 8192 * 4096));
        assert_eq!(tr.grid(), [128, 128, 1]);
        let mm = Bench::new(Kind::Matmul, &[4096, 2048, 1024]).unwrap();
        assert_eq!(mm.flops(), Some(2 * 4096 * 2048 * 1024));
        assert_eq!(mm.bytes_moved(), None);
        assert_eq!(mm.grid(), [64, 32, 1]);
        // 12 * 2^26 bytes in 1 ms: 805.3 GB/s; 2 * 4096 * 2048 * 1024 flops in 1 ms: 17.2 TFLOP/s.
        let (gbs, unit) = va.rate(1.0);
        assert_eq!(unit, "GB/s");
        assert!((gbs - 805.306_368).abs() < 1e-6, "{gbs}");
        let (tf, unit) = mm.rate(1.0);
        assert_eq!(unit, "TFLOP/s");
        assert!((tf - 17.179_869_184).abs() < 1e-9, "{tf}");
        assert_eq!(mm.spec(), "matmul:4096x2048x1024");
        let m128 = Bench::new(Kind::Matmul128, &[4096, 2048, 1024]).unwrap();
        assert_eq!(m128.flops(), mm.flops());
        assert_eq!(m128.bytes_moved(), None);
        assert_eq!(m128.grid(), [32, 16, 1]);
        assert_eq!(m128.rate(1.0).1, "TFLOP/s");
        assert_eq!(
            Bench::new(Kind::Matmul128, &[4097, 100, 8]).unwrap().grid(),
            [33, 1, 1]
        );
        let bf = Bench::new(Kind::MatmulBf16, &[4096, 2048, 1024]).unwrap();
        assert_eq!(bf.flops(), mm.flops());
        assert_eq!(bf.bytes_moved(), None);
        assert_eq!(bf.grid(), [64, 32, 1]);
        assert_eq!(bf.spec(), "matmul_bf16:4096x2048x1024");
        // B is N x K, every array bf16.
        let sizes: Vec<(Elem, usize)> = bf.buffers().iter().map(|s| (s.elem, s.len)).collect();
        assert_eq!(
            sizes,
            vec![
                (Elem::BF16, 4096 * 1024),
                (Elem::BF16, 2048 * 1024),
                (Elem::BF16, 4096 * 2048)
            ]
        );
        let i = KArg::I32;
        assert_eq!(
            bf.args()[5..10],
            [KArg::Buffer(1), i(2048), i(1024), i(1024), i(1)]
        );
        // The persistent GEMM: the fourth number is its tile blocks, not a size.
        let pm = Bench::new(Kind::Persistent, &[4096, 2048, 1024, 132]).unwrap();
        assert_eq!(pm.flops(), mm.flops());
        assert_eq!(pm.grid(), [132, 1, 1]);
        assert_eq!(pm.spec(), "persistent:4096x2048x1024x132");
        assert_eq!(pm.args(), mm.args());
    }

    /// Every benchmark's arguments fit its kernel's entry and the PTX `.param` list, for
    /// Ampere, Hopper (with and without its architecture-specific features) and
    /// Blackwell; the launch's threads are the kernel's `.reqntid`: 4 warps for the
    /// examples, the warps tilec's command line chooses for the cuTile GEMMs.
    #[test]
    fn arguments_match_the_ptx_of_every_benchmark_kernel() {
        for arch in [Arch::Sm80, Arch::Sm90, Arch::Sm90a, Arch::Sm100] {
            let mut compiled: HashMap<Kind, Compiled> = HashMap::new();
            for b in default_plan() {
                let c = compiled.entry(b.kind).or_insert_with(|| {
                    compile(b.kind, arch)
                        .unwrap_or_else(|e| panic!("{} on {}: {e}", b.kind.name(), arch.name()))
                });
                let buffers = b.buffers();
                let params = marshal(c, &buffers, &b.args(), &fake_addresses(buffers.len()))
                    .unwrap_or_else(|e| panic!("{} on {}: {e}", b.kind.name(), arch.name()));
                let declared = tilec_gpu::params::ptx_params(&c.ptx, &c.kernel).unwrap();
                assert_eq!(params.len(), declared.len());
                if b.kind.is_gemm() {
                    assert_eq!(params.len(), 15, "three arrays of five parameters");
                }
                for (p, d) in params.iter().zip(&declared) {
                    assert_eq!(p.len(), d.bytes);
                }
                assert_eq!(
                    tilec_ptx::kernel_threads(&c.ptx, &c.kernel),
                    Some(c.threads)
                );
                // The cluster kinds' hint: a cluster of 2 CTAs from sm_90, whose tiles
                // (and so warps) are each CTA's half.
                let cluster = c
                    .ptx
                    .contains(".reqnctapercluster 2, 1, 1\n.blocksareclusters");
                let hinted = matches!(b.kind, Kind::VectorAddCluster | Kind::MatmulCluster);
                assert_eq!(
                    cluster,
                    hinted && arch != Arch::Sm80,
                    "{} on {}",
                    b.kind.name(),
                    arch.name()
                );
                if cluster {
                    continue;
                }
                // The layouts' warps, and a warp-specialized producer warpgroup's
                // (sm_90a, beside matmul_wide's two MMA warpgroups).
                let src = b.kind.source();
                let mma = src
                    .warps
                    .unwrap_or_else(|| tilec_ptx::gpu::choose_warps(&c.module, c.entry));
                // A producer warpgroup beside two or more MMA warpgroups, a warp
                // beside one.
                let want = mma
                    + match (src.warp_specialize && arch == Arch::Sm90a, mma >= 8) {
                        (true, true) => 4,
                        (true, false) => 1,
                        (false, _) => 0,
                    };
                assert_eq!(c.warps(), want, "{} on {}", b.kind.name(), arch.name());
            }
            // A 128x128 f32 accumulator: 8 warps (64 registers a thread).
            assert_eq!(compiled[&Kind::Matmul128].warps(), 8);
            // Warp-specialized on sm_90a: a producer warpgroup beside the two MMA ones.
            let ws = compiled[&Kind::MatmulWideWs].warps();
            assert_eq!(ws, if arch == Arch::Sm90a { 12 } else { 8 });
            // The persistent GEMM's loop over C's tiles split whole: a producer warp.
            let ws = compiled[&Kind::PersistentWs].warps();
            assert_eq!(ws, if arch == Arch::Sm90a { 5 } else { 4 });
            assert_eq!(compiled[&Kind::Matmul].warps(), NUM_WARPS);
        }
    }

    /// The cuTile GEMMs are read from cuTile's bytecode; its `.mlir` text (the fallback
    /// when the bytecode is missing) gives the same PTX.
    #[test]
    fn corpus_bytecode_and_text_give_the_same_kernel() {
        for kind in [Kind::Matmul128, Kind::MatmulBf16] {
            let src = kind.source();
            assert!(src.file.ends_with(".tileirbc"));
            assert_eq!(source_path(kind), crate::root().join(src.file));
            let bc = compile(kind, Arch::Sm90).unwrap();
            let text_path = crate::root().join(src.file).with_extension("mlir");
            let text = std::fs::read(&text_path).unwrap();
            let t = compile_input(&text, "text", src, Arch::Sm90).unwrap();
            assert_eq!(bc.kernel, t.kernel);
            assert_eq!(bc.threads, t.threads);
            assert_eq!(bc.ptx, t.ptx, "{}", kind.name());
        }
        let mut src = Kind::Matmul128.source();
        src.entry = "no_such_entry";
        let text = std::fs::read(crate::root().join(src.file)).unwrap();
        assert!(compile_input(&text, "x", src, Arch::Sm90).is_err());
    }

    #[test]
    fn marshal_rejects_wrong_arguments() {
        let b = Bench::new(Kind::Layernorm, &[4, 100]).unwrap();
        let c = compile(b.kind, Arch::Sm90).unwrap();
        let buffers = b.buffers();
        let addrs = fake_addresses(buffers.len());
        let mut args = b.args();
        assert!(marshal(&c, &buffers, &args, &addrs).is_ok());
        let eps = args.pop().unwrap();
        assert!(
            marshal(&c, &buffers, &args, &addrs).is_err(),
            "one argument short"
        );
        args.push(KArg::I32(1));
        assert!(marshal(&c, &buffers, &args, &addrs).is_err(), "i32 for f32");
        args.pop();
        args.push(eps);
        args.swap(0, 1);
        assert!(
            marshal(&c, &buffers, &args, &addrs).is_err(),
            "i32 for a pointer"
        );
        // A buffer of the wrong element type.
        let mut f16 = buffers.clone();
        f16[0].elem = Elem::F16;
        assert!(marshal(&c, &f16, &b.args(), &addrs).is_err());
        // bf16 is not f16.
        let b = Bench::new(Kind::MatmulBf16, &[64, 64, 64]).unwrap();
        let c = compile(b.kind, Arch::Sm90).unwrap();
        let mut buffers = b.buffers();
        let addrs = fake_addresses(buffers.len());
        assert!(marshal(&c, &buffers, &b.args(), &addrs).is_ok());
        buffers[1].elem = Elem::F16;
        assert!(marshal(&c, &buffers, &b.args(), &addrs).is_err());
    }

    /// The host checks agree with the reference interpreter running the very kernels on
    /// small shapes (ragged edges included) with the benchmark's argument lists, and catch
    /// a corrupted element.
    #[test]
    fn host_checks_agree_with_the_interpreter() {
        let small = [
            Bench::new(Kind::VectorAdd, &[3000]).unwrap(),
            Bench::new(Kind::RowSoftmax, &[5, 300]).unwrap(),
            Bench::new(Kind::Layernorm, &[5, 1024]).unwrap(),
            Bench::new(Kind::Transpose, &[130, 70]).unwrap(),
            Bench::new(Kind::Matmul, &[70, 66, 40]).unwrap(),
            Bench::new(Kind::Matmul128, &[128, 128, 96]).unwrap(),
            Bench::new(Kind::Matmul128, &[150, 70, 50]).unwrap(),
            Bench::new(Kind::MatmulBf16, &[64, 64, 128]).unwrap(),
            Bench::new(Kind::MatmulBf16, &[100, 70, 90]).unwrap(),
            // Attention: a ragged last key block (150 = 2 x 64 + 22).
            Bench::new(Kind::Attention, &[150]).unwrap(),
            Bench::new(Kind::AttentionWs, &[150]).unwrap(),
            // 3 x 3 C tiles over 4 tile blocks, ragged K; warp-specialized the same.
            Bench::new(Kind::Persistent, &[150, 130, 100, 4]).unwrap(),
            Bench::new(Kind::PersistentWs, &[150, 130, 100, 4]).unwrap(),
            Bench::new(Kind::VectorAddCluster, &[3000]).unwrap(),
            Bench::new(Kind::MatmulCluster, &[200, 130, 150]).unwrap(),
        ];
        for b in small {
            let c = compile(b.kind, Arch::Sm90).unwrap();
            let data = inputs(&b, 7);
            let mut mem = tilec_interp::Memory::default();
            let indices: Vec<usize> = data.iter().map(|d| mem.add(d.clone())).collect();
            let buffers = b.buffers();
            // The interpreter's arguments, through the same checks as a launch.
            marshal(&c, &buffers, &b.args(), &fake_addresses(buffers.len())).unwrap();
            let args: Vec<Arg> = b
                .args()
                .iter()
                .map(|a| match a {
                    KArg::Buffer(i) => Arg::Buffer(indices[*i]),
                    KArg::I32(v) => Arg::Scalar(u64::from(*v as u32)),
                    KArg::F32(v) => Arg::Scalar(u64::from(v.to_bits())),
                })
                .collect();
            let iopts = tilec_interp::Options {
                parallel: true,
                threads: 0,
                max_ops: None,
                conflicting_stores: true,
                variant: tilec_interp::Variant::default(),
            };
            tilec_interp::run_with(&c.module, c.entry, b.grid(), &args, &mut mem, &iopts)
                .unwrap_or_else(|e| panic!("{}: {}", b.kind.name(), e.message));
            let out = buffers.iter().position(|s| s.output).unwrap();
            let result = mem.bytes(indices[out]);
            let size = buffers[out].elem.size();
            let mut checked = 0;
            for (first, count) in b.sample_ranges() {
                let got = &result[first * size..(first + count) * size];
                checked += check_sample(&b, &data, first, got)
                    .unwrap_or_else(|e| panic!("{}: {e}", b.kind.name()));
            }
            assert!(checked > 0);
            // One wrong element in the last sampled range is caught.
            let (first, count) = *b.sample_ranges().last().unwrap();
            let mut got = result[first * size..(first + count) * size].to_vec();
            got[(count / 2) * size + size - 1] ^= 0x40;
            assert!(
                check_sample(&b, &data, first, &got).is_err(),
                "{}: a corrupted element passed",
                b.kind.name()
            );
        }
    }

    /// The inputs are exact in their types: f16 multiples of 1/1024 and bf16 multiples
    /// of 1/128, all in [-1, 1], both ends reached; the outputs start as NaN.
    #[test]
    fn inputs_are_exact_multiples_in_their_types() {
        for (kind, steps) in [(Kind::Matmul128, 1024.0), (Kind::MatmulBf16, 128.0)] {
            let b = Bench::new(kind, &[64, 64, 64]).unwrap();
            let data = inputs(&b, 3);
            for (spec, bytes) in b.buffers().iter().zip(&data) {
                let v = decode(spec.elem, bytes, 0, spec.len);
                if spec.output {
                    assert!(v.iter().all(|x| x.is_nan()), "{kind:?}");
                    continue;
                }
                for x in &v {
                    let k = x * steps;
                    assert!(k == k.round() && k.abs() <= steps, "{kind:?}: {x}");
                }
                let (lo, hi) = v
                    .iter()
                    .fold((0.0f64, 0.0f64), |(l, h), x| (l.min(*x), h.max(*x)));
                assert!(lo < -0.99 && hi > 0.99, "{kind:?}: [{lo}, {hi}]");
            }
        }
    }

    #[test]
    fn sample_ranges_stay_inside_the_output() {
        for b in default_plan().into_iter().chain([
            Bench::new(Kind::VectorAdd, &[10]).unwrap(),
            Bench::new(Kind::Transpose, &[1, 1]).unwrap(),
        ]) {
            let len = b.buffers().iter().find(|s| s.output).unwrap().len;
            let r = b.sample_ranges();
            assert!(!r.is_empty());
            for (first, count) in r {
                assert!(count > 0 && first + count <= len, "{b:?}");
            }
        }
    }

    #[test]
    fn flat_json() {
        let m = parse_flat_json(
            r#"{"record": "result", "median_ms": 0.25, "runs": 100, "ok": true, "x": null, "s": "a\"b\\c\u00e9\ud83d\ude00\n", "e": -1.5e-3}"#,
        )
        .unwrap();
        assert_eq!(m["record"], JsonValue::Str("result".into()));
        assert_eq!(m["median_ms"], JsonValue::Num(0.25));
        assert_eq!(m["runs"], JsonValue::Num(100.0));
        assert_eq!(m["ok"], JsonValue::Bool(true));
        assert_eq!(m["x"], JsonValue::Null);
        assert_eq!(m["s"], JsonValue::Str("a\"b\\c\u{e9}\u{1F600}\n".into()));
        assert_eq!(m["e"], JsonValue::Num(-1.5e-3));
        assert_eq!(parse_flat_json("{}"), Some(HashMap::new()));
        for bad in [
            "",
            "{",
            r#"{"a": 1"#,
            r#"{"a" 1}"#,
            r#"{"a": [1]}"#,
            r#"{"a": 1} x"#,
            "not json",
        ] {
            assert_eq!(parse_flat_json(bad), None, "{bad}");
        }
    }

    #[test]
    fn reference_output() {
        let text = r#"{"record": "device", "name": "NVIDIA H100 80GB HBM3", "torch": "2.5.1", "cupy": null, "cutile": "1.7.0"}
{"record": "result", "bench": "vector_add", "shape": "67108864", "impl": "cutile", "median_ms": 0.25, "runs": 100, "note": ""}
{"record": "result", "bench": "matmul", "shape": "4096x4096x4096", "impl": "torch", "median_ms": 0.2, "runs": 100, "note": "torch.mm f16 x f16 -> f32"}
{"record": "skip", "bench": "matmul", "shape": "4096x4096x4096", "impl": "cutile", "reason": "no"}
{"record": "error", "bench": "transpose", "shape": "8192x8192", "impl": "cutile", "message": "boom"}
warning: something
{"record": "done"}
"#;
        let r = parse_reference(text);
        assert_eq!(r.device.as_deref(), Some("NVIDIA H100 80GB HBM3"));
        assert_eq!(
            r.versions,
            vec![
                ("cutile".to_string(), "1.7.0".to_string()),
                ("torch".to_string(), "2.5.1".to_string())
            ]
        );
        assert!(r.done);
        assert_eq!(r.unparsed, vec!["warning: something".to_string()]);
        let va = Bench::new(Kind::VectorAdd, &[1 << 26]).unwrap();
        let mm = Bench::new(Kind::Matmul, &[4096, 4096, 4096]).unwrap();
        let tr = Bench::new(Kind::Transpose, &[8192, 8192]).unwrap();
        let bf = Bench::new(Kind::MatmulBf16, &[4096, 4096, 4096]).unwrap();
        assert_eq!(
            r.time(&va, "cutile"),
            Some(&RefTime::Ms(0.25, String::new()))
        );
        assert!(matches!(r.time(&mm, "torch"), Some(RefTime::Ms(t, _)) if *t == 0.2));
        assert_eq!(r.time(&mm, "cutile"), Some(&RefTime::Skipped("no".into())));
        assert_eq!(r.time(&tr, "cutile"), Some(&RefTime::Error("boom".into())));

        // The table: rates, shares and ratios from these figures.
        let rows = vec![
            Row {
                bench: va.clone(),
                tilec: Measured::Ms(0.3),
                warps: Some(4),
            },
            Row {
                bench: mm.clone(),
                tilec: Measured::Ms(0.4),
                warps: Some(4),
            },
            Row {
                bench: tr.clone(),
                tilec: Measured::Failed("wrong result: 3 of 8192 checked elements wrong".into()),
                warps: Some(4),
            },
            Row {
                bench: bf.clone(),
                tilec: Measured::Ms(0.5),
                warps: Some(8),
            },
            Row {
                bench: Bench::new(Kind::Matmul128, &[4096, 4096, 4096]).unwrap(),
                tilec: Measured::Failed("ptx: boom".into()),
                warps: None,
            },
        ];
        let table = render_table(&rows, Some(3000.0), &r);
        assert!(table.contains("| vector_add | 67108864 | 4 | 300.0 | 2684.4 GB/s | 89.5% (copy 3000 GB/s) | 250.0 | 1.20 |"), "{table}");
        assert!(table.contains("| matmul | 4096x4096x4096 | 4 | 400.0 | 343.6 TFLOP/s | 50.0% (cuBLAS 687.2 TFLOP/s) | skipped: no | - |"), "{table}");
        assert!(
            table.contains("| transpose | 8192x8192 | 4 | FAILED: wrong result"),
            "{table}"
        );
        // Every GEMM is compared with cuBLAS.
        assert!(table.contains("| matmul_bf16 | 4096x4096x4096 | 8 | 500.0 | 274.9 TFLOP/s | cuBLAS not run | not run | - |"), "{table}");
        assert!(
            table.contains("| matmul_128 | 4096x4096x4096 | - | FAILED: ptx: boom"),
            "{table}"
        );
        let json = render_json(
            "dev \"x\"",
            Arch::Sm90,
            &Options::default(),
            Some(3000.0),
            &rows,
            &r,
        );
        assert!(json.contains("\"device\": \"dev \\\"x\\\"\""), "{json}");
        assert!(json.contains("\"tilec_ms\": 0.3"), "{json}");
        assert!(json.contains("\"cublas_ms\": 0.2"), "{json}");
        assert!(
            json.contains(
                "\"kernel\": \"matmul_bf16\", \"shape\": \"4096x4096x4096\", \"warps\": 8,"
            ),
            "{json}"
        );
        assert!(json.contains("\"warps\": null"), "{json}");
    }

    #[test]
    fn without_a_gpu_it_says_so_and_exits_0() {
        let mut out = Vec::new();
        let code = run(
            &Options::default(),
            Probe::Absent("no driver here".into()),
            &mut out,
        );
        let text = String::from_utf8(out).unwrap();
        assert_eq!(code, 0, "{text}");
        assert!(
            text.contains("no GPU present (no driver here): nothing measured"),
            "{text}"
        );
        assert!(
            text.contains(
                "checked the arguments of 20 benchmark(s) against their PTX (sm_90): all fit"
            ),
            "{text}"
        );
        assert!(
            text.contains("warps per tile block: vector_add 4, row_softmax 4, layernorm 4, transpose 4, matmul 4, matmul_128 8, matmul_bf16 "),
            "{text}"
        );
    }

    /// The reference script's dry run (no GPU: it compiles the cuTile kernels with
    /// tileiras for sm_90 and prints its plan) has a plan record, with the same grid, for
    /// every benchmark. Needs `TILEC_PYTHON` with cuda-tile installed.
    #[test]
    fn reference_script_dry_run() {
        let Some(python) = std::env::var_os("TILEC_PYTHON") else {
            eprintln!(
                "\n*** SKIPPED: bench_reference.py --dry-run: TILEC_PYTHON not set (a Python with cuda-tile) ***\n"
            );
            return;
        };
        let has_cutile = std::process::Command::new(&python)
            .args(["-c", "import cuda.tile"])
            .output()
            .is_ok_and(|o| o.status.success());
        if !has_cutile {
            eprintln!(
                "\n*** SKIPPED: bench_reference.py --dry-run: TILEC_PYTHON cannot import cuda.tile (pip install cuda-tile nvidia-cuda-tileiras) ***\n"
            );
            return;
        }
        let plan = default_plan();
        let r = run_reference(&plan, &strings(&["--dry-run", "--arch", "sm_90"])).unwrap();
        assert!(r.done, "{r:?}");
        assert!(r.unparsed.is_empty(), "{r:?}");
        assert!(r.times.is_empty(), "errors: {:?}", r.times);
        for b in &plan {
            let g = b.grid();
            assert_eq!(
                r.planned.get(&b.spec()),
                Some(&format!("{}x{}x{}", g[0], g[1], g[2])),
                "{}",
                b.spec()
            );
        }
    }
}

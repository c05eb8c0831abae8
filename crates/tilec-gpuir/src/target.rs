//! Targets and code generation options.

/// A GPU architecture tilec can emit PTX for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Arch {
    /// Ampere A100.
    Sm80,
    /// Ampere GA10x.
    Sm86,
    /// Ada.
    Sm89,
    /// Hopper.
    Sm90,
    /// Hopper with the architecture-specific features.
    Sm90a,
    /// Blackwell (B100/B200).
    Sm100,
    /// Blackwell with the architecture-specific features.
    Sm100a,
    /// Blackwell Ultra (B300).
    Sm103,
    /// Blackwell (Thor).
    Sm110,
    /// Blackwell (GeForce RTX 50, RTX PRO).
    Sm120,
    /// Blackwell (GeForce RTX 50, RTX PRO) with the architecture-specific features.
    Sm120a,
    /// Blackwell (DGX Spark).
    Sm121,
}

impl Arch {
    /// Every supported architecture.
    pub const ALL: [Arch; 12] = [
        Arch::Sm80,
        Arch::Sm86,
        Arch::Sm89,
        Arch::Sm90,
        Arch::Sm90a,
        Arch::Sm100,
        Arch::Sm100a,
        Arch::Sm103,
        Arch::Sm110,
        Arch::Sm120,
        Arch::Sm120a,
        Arch::Sm121,
    ];

    /// The name used by `--arch` and `.target`.
    pub fn name(self) -> &'static str {
        match self {
            Arch::Sm80 => "sm_80",
            Arch::Sm86 => "sm_86",
            Arch::Sm89 => "sm_89",
            Arch::Sm90 => "sm_90",
            Arch::Sm90a => "sm_90a",
            Arch::Sm100 => "sm_100",
            Arch::Sm100a => "sm_100a",
            Arch::Sm103 => "sm_103",
            Arch::Sm110 => "sm_110",
            Arch::Sm120 => "sm_120",
            Arch::Sm120a => "sm_120a",
            Arch::Sm121 => "sm_121",
        }
    }

    /// Parses an `--arch` value.
    pub fn from_name(s: &str) -> Option<Arch> {
        Arch::ALL.into_iter().find(|a| a.name() == s)
    }

    /// The names of every architecture, for messages (`sm_80, sm_86, ...`).
    pub fn names() -> String {
        Arch::ALL.map(Arch::name).join(", ")
    }

    /// The lowest PTX ISA version that supports the target (the `.version` line; checked
    /// against ptxas 13.5 for the Blackwell targets) and what tilec emits for it: sm_90a
    /// takes 8.3, the first with `tensormap.replace`, which its copy-engine pipelines use.
    pub fn ptx_version(self) -> &'static str {
        match self {
            Arch::Sm80 => "7.0",
            Arch::Sm86 => "7.1",
            Arch::Sm89 | Arch::Sm90 => "7.8",
            Arch::Sm90a => "8.3",
            Arch::Sm100 | Arch::Sm100a => "8.6",
            Arch::Sm120 | Arch::Sm120a => "8.7",
            Arch::Sm103 | Arch::Sm121 => "8.8",
            Arch::Sm110 => "9.0",
        }
    }

    /// The compute capability as a number (80, 86, ...).
    pub fn sm(self) -> u32 {
        match self {
            Arch::Sm80 => 80,
            Arch::Sm86 => 86,
            Arch::Sm89 => 89,
            Arch::Sm90 | Arch::Sm90a => 90,
            Arch::Sm100 | Arch::Sm100a => 100,
            Arch::Sm103 => 103,
            Arch::Sm110 => 110,
            Arch::Sm120 | Arch::Sm120a => 120,
            Arch::Sm121 => 121,
        }
    }

    /// The most shared memory one CTA may use, in bytes (the CUDA programming guide's
    /// "maximum amount of shared memory per thread block", which a kernel gets by opting
    /// in to dynamic shared memory above 48 KiB): 163 KiB on sm_80, 99 KiB on sm_86,
    /// sm_89 and sm_120/121, 227 KiB on sm_90, sm_100, sm_103 and sm_110.
    pub fn max_smem(self) -> u32 {
        1024 * match self {
            Arch::Sm80 => 163,
            Arch::Sm86 | Arch::Sm89 | Arch::Sm120 | Arch::Sm120a | Arch::Sm121 => 99,
            Arch::Sm90 | Arch::Sm90a | Arch::Sm100 | Arch::Sm100a | Arch::Sm103 | Arch::Sm110 => {
                227
            }
        }
    }

    /// Architecture-specific targets (`a`): their code runs on that architecture only, so
    /// a device is never given one it did not ask for.
    pub fn is_specific(self) -> bool {
        matches!(self, Arch::Sm90a | Arch::Sm100a | Arch::Sm120a)
    }
}

/// Options of one compilation.
#[derive(Clone, Debug)]
pub struct Options {
    /// Target architecture.
    pub arch: Arch,
    /// Warps per CTA (a power of two from 1 to 16), unless `choose_warps`.
    pub num_warps: u32,
    /// Choose the warps of each kernel from its tile sizes ([`crate::gpu::choose_warps`])
    /// instead of `num_warps`: what `tilec` does when `--num-warps` is not given. Each
    /// kernel's PTX says its threads (`.reqntid`), which launches read (docs/abi.md).
    pub choose_warps: bool,
    /// Use the hardware approximations for math ops.
    pub fast_math: bool,
    /// Emit `.file`/`.loc` line information.
    pub line_info: bool,
    /// The source file name for `.file` (when `line_info`).
    pub file_name: String,
    /// Write every register slot out, with no streaming loops (emit/stream.rs).
    pub unroll: bool,
    /// Shared-memory stages of a pipelined K loop (docs/ptx-backend.md, "Pipelining"): 2
    /// to 6 pipeline the tensor-core operands over that many stages (fewer, with a remark,
    /// when they do not fit the shared memory), 1 stages each K step on its own; `None`
    /// chooses per loop (`gpu::DEFAULT_STAGES`, or as many as fit).
    pub num_stages: Option<u32>,
    /// Whether a kernel may declare more than 48 KiB of shared memory, as dynamic shared
    /// memory (`.extern .shared`, its size given at launch: docs/abi.md), up to the
    /// target's limit ([`Arch::max_smem`]). The `tileiras` personality turns it off:
    /// cuTile's launcher passes no dynamic size.
    pub dynamic_smem: bool,
    /// Without `dynamic_smem`: declare more than 48 KiB statically, up to the target's
    /// limit, on an architecture-specific target (sm_90a, sm_100a, sm_120a: ptxas takes
    /// it there and nowhere else). The launch must opt the kernel in
    /// (`CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES`), as cuTile's launcher does for
    /// every kernel it loads (docs/abi.md, "Shared memory"); the `tileiras` personality
    /// turns it on.
    pub static_opt_in: bool,
    /// Whether sm_90a's warpgroup-MMA pipelines may fill their stages with the copy engine
    /// (TMA, docs/hopper.md) rather than `cp.async`.
    pub tma: bool,
    /// sm_90a: warp-specialize the copy engine's K-loop pipelines (docs/hopper.md, "Warp
    /// specialization"): a producer warp(group) issues the copies, the MMA warpgroups
    /// consume the stages and hand them back through a second ring of mbarriers.
    pub warp_specialize: bool,
    /// CTAs per thread-block cluster for every kernel (sm_90 and newer; 2, 4, 8 or 16),
    /// overriding their `num_cta_in_cga` hints (`None`: as the hints say). A kernel the
    /// cluster split refuses stays on one CTA, with a remark (docs/hopper.md, "Clusters").
    pub num_ctas: Option<u32>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            arch: Arch::Sm80,
            num_warps: 4,
            choose_warps: false,
            fast_math: false,
            line_info: false,
            file_name: String::new(),
            unroll: false,
            num_stages: None,
            dynamic_smem: true,
            static_opt_in: false,
            tma: true,
            warp_specialize: false,
            num_ctas: None,
        }
    }
}

impl Options {
    /// Threads per CTA.
    pub fn threads(&self) -> u32 {
        32 * self.num_warps
    }

    /// The shared memory a kernel may use, in bytes: the target's limit
    /// ([`Arch::max_smem`]) with `dynamic_smem` or [`Options::static_opt_in`] on an
    /// architecture-specific target, 48 KiB (static) otherwise.
    pub fn smem_limit(&self) -> u32 {
        if self.dynamic_smem || (self.static_opt_in && self.arch.is_specific()) {
            self.arch.max_smem()
        } else {
            crate::sizes::MAX_STATIC_SMEM
        }
    }

    /// log2 of the number of warps.
    pub fn warp_bits(&self) -> u32 {
        self.num_warps.trailing_zeros()
    }

    /// These options with `num_warps` warps, fixed (for one kernel).
    pub fn with_warps(&self, num_warps: u32) -> Options {
        Options {
            num_warps,
            choose_warps: false,
            ..self.clone()
        }
    }
}

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
    /// Blackwell.
    Sm100,
}

impl Arch {
    /// Every supported architecture.
    pub const ALL: [Arch; 6] = [
        Arch::Sm80,
        Arch::Sm86,
        Arch::Sm89,
        Arch::Sm90,
        Arch::Sm90a,
        Arch::Sm100,
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
        }
    }

    /// Parses an `--arch` value.
    pub fn from_name(s: &str) -> Option<Arch> {
        Arch::ALL.into_iter().find(|a| a.name() == s)
    }

    /// The lowest PTX ISA version that supports the target (the `.version` line).
    pub fn ptx_version(self) -> &'static str {
        match self {
            Arch::Sm80 => "7.0",
            Arch::Sm86 => "7.1",
            Arch::Sm89 | Arch::Sm90 => "7.8",
            Arch::Sm90a => "8.0",
            Arch::Sm100 => "8.6",
        }
    }

    /// The compute capability as a number (80, 86, ...).
    pub fn sm(self) -> u32 {
        match self {
            Arch::Sm80 => 80,
            Arch::Sm86 => 86,
            Arch::Sm89 => 89,
            Arch::Sm90 | Arch::Sm90a => 90,
            Arch::Sm100 => 100,
        }
    }
}

/// Options of one compilation.
#[derive(Clone, Debug)]
pub struct Options {
    /// Target architecture.
    pub arch: Arch,
    /// Warps per CTA (a power of two from 1 to 16).
    pub num_warps: u32,
    /// Use the hardware approximations for math ops.
    pub fast_math: bool,
    /// Emit `.file`/`.loc` line information.
    pub line_info: bool,
    /// The source file name for `.file` (when `line_info`).
    pub file_name: String,
    /// Write every register slot out, with no streaming loops (emit/stream.rs).
    pub unroll: bool,
    /// Shared-memory stages of a pipelined K loop: 2 pipelines the tensor-core operands
    /// (docs/ptx-backend.md, "Pipelining"), 1 stages each K step on its own.
    pub num_stages: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            arch: Arch::Sm80,
            num_warps: 4,
            fast_math: false,
            line_info: false,
            file_name: String::new(),
            unroll: false,
            num_stages: 2,
        }
    }
}

impl Options {
    /// Threads per CTA.
    pub fn threads(&self) -> u32 {
        32 * self.num_warps
    }

    /// log2 of the number of warps.
    pub fn warp_bits(&self) -> u32 {
        self.num_warps.trailing_zeros()
    }
}

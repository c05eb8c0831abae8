//! tilec's PTX backend. See docs/ptx-backend.md for the design.

mod axis;
pub mod banks;
mod emit;
pub mod gpu;
pub mod layout;
pub mod math;
pub mod sink;
pub mod target;

pub use banks::{SmemStats, bank_conflicts};
pub use emit::{
    REGISTER_FILE_BYTES, check_limits, compile, compile_all, compile_gpu, compile_gpu_stats,
    compile_stats, ptx_ident,
};
pub use gpu::{
    GpuError, convert_to_gpu, gpu_num_warps, is_gpu_level, set_gpu_aliases, verify_gpu,
    verify_gpu_input,
};
pub use target::{Arch, Options};

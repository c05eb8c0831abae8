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
    DYNAMIC_SMEM_MARK, REGISTER_FILE_BYTES, check_limits, compile, compile_all, compile_gpu,
    compile_gpu_stats, compile_stats, dynamic_smem, ptx_ident,
};
pub use gpu::{
    DEFAULT_STAGES, GpuError, convert_to_gpu, convert_to_gpu_remarks, gpu_num_warps, is_gpu_level,
    set_gpu_aliases, verify_gpu, verify_gpu_input,
};
pub use target::{Arch, Options};

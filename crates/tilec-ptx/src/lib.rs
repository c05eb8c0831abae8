//! tilec's PTX backend. See docs/ptx-backend.md for the design.

mod emit;
pub mod math;
pub mod sink;

// The GPU-level IR this writer reads (crates/tilec-gpuir), under the names it had here.
pub use tilec_gpuir::{axis, banks, gpu, layout, mma, sizes, smem, target, vectorize};

pub use banks::{SmemStats, bank_conflicts};
pub use emit::{
    DYNAMIC_SMEM_MARK, REGISTER_FILE_BYTES, Written, check_limits, compile, compile_all,
    compile_gpu, compile_gpu_report, compile_gpu_stats, compile_stats, dynamic_smem,
    kernel_threads, ptx_ident,
};
pub use gpu::{
    DEFAULT_STAGES, GpuError, GpuPass, convert_to_gpu, convert_to_gpu_remarks, gpu_num_warps,
    is_gpu_level, set_gpu_aliases, verify_gpu, verify_gpu_input,
};
pub use target::{Arch, Options};

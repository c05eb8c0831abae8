//! tilec's GPU-level IR (docs/ptx-backend.md, "The GPU-level IR"): everything the backend
//! decides before any PTX is written. Layouts (`layout`), the axis/contiguity analysis
//! (`axis`), tensor-core plans (`mma`), the target and its limits (`target`, `sizes`),
//! convert-to-gpu and the GPU-level verifier (`gpu`), and the static bank-conflict check
//! (`banks`). `tilec-ptx` is the writer that reads what this crate produces.

pub mod axis;
pub mod banks;
pub mod cluster;
pub mod gpu;
pub mod hints;
pub mod layout;
pub mod mma;
pub mod sizes;
pub mod smem;
pub mod target;
pub mod vectorize;
pub mod wgmma;

pub use banks::{SmemStats, bank_conflicts};
pub use gpu::ws;
pub use gpu::{
    DEFAULT_STAGES, GpuError, GpuPass, convert_to_gpu, convert_to_gpu_remarks, gpu_num_warps,
    is_gpu_level, set_gpu_aliases, verify_gpu, verify_gpu_input,
};
pub use target::{Arch, Options};

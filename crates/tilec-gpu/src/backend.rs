//! What the harness needs from a device: load a kernel, hold buffers, launch.
//!
//! [`crate::driver::CudaDevice`] is the real one (the CUDA driver). Tests put a PTX
//! simulator behind the same trait (crates/tilec-ptxsim), which proves the whole
//! path (marshalling, buffers, guards, comparison) on machines without a GPU.

use thiserror::Error;

/// A kernel a [`Backend`] has loaded.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct KernelId(pub usize);

/// A failure of the device or its driver.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum GpuError {
    /// A driver call failed.
    #[error("{call} failed: {name} ({text})")]
    Driver {
        /// The driver function (`cuLaunchKernel`).
        call: &'static str,
        /// The error's name (`CUDA_ERROR_ILLEGAL_ADDRESS`).
        name: String,
        /// The driver's description of it.
        text: String,
    },
    /// The driver rejected the PTX; `log` is its JIT error log.
    #[error("the driver could not load the PTX: {name}\n{log}")]
    Load {
        /// The error's name (`CUDA_ERROR_INVALID_PTX`).
        name: String,
        /// The JIT compiler's error log.
        log: String,
    },
    /// The module has no kernel of that name.
    #[error("the PTX has no kernel '{0}'")]
    NoKernel(String),
    /// Anything else the backend cannot do (a simulator's unsupported instruction).
    #[error("{0}")]
    Other(String),
    /// A launch still running after the watchdog's limit (`TILEC_GPU_LAUNCH_TIMEOUT`
    /// seconds, 30 by default): a kernel that never finishes (a deadlock). The device
    /// cannot be used again in this process (its context holds the running kernel).
    #[error(
        "the kernel was still running after {0} s: it hangs (the device is unusable until this process exits)"
    )]
    Hang(u64),
}

/// A device that runs kernels.
pub trait Backend {
    /// What it is, for reports: "NVIDIA H100 80GB HBM3 (sm_90, driver 12.8)".
    fn describe(&self) -> String;
    /// Loads `ptx` and finds its kernel `entry` (the PTX name, see [`tilec_ptx::ptx_ident`]).
    ///
    /// # Errors
    ///
    /// The driver's rejection of the PTX, or no such kernel.
    fn load(&mut self, ptx: &str, entry: &str) -> Result<KernelId, GpuError>;
    /// Allocates a buffer holding `data` (at least 256-byte aligned, as `cuMemAlloc`) and
    /// returns its device address.
    ///
    /// # Errors
    ///
    /// Out of memory.
    fn alloc(&mut self, data: &[u8]) -> Result<u64, GpuError>;
    /// Reads `len` bytes at `addr` (after every launch so far has finished).
    ///
    /// # Errors
    ///
    /// A failed copy, or an error left by a launch (an illegal address).
    fn read(&mut self, addr: u64, len: usize) -> Result<Vec<u8>, GpuError>;
    /// Launches `kernel` on `grid` tile blocks of `threads` threads, one byte string per
    /// kernel parameter (its value, little-endian, of the parameter's size), and waits for
    /// it to finish.
    ///
    /// # Errors
    ///
    /// A launch failure or a fault while it ran.
    fn launch(
        &mut self,
        kernel: KernelId,
        grid: [u32; 3],
        threads: u32,
        params: &[Vec<u8>],
    ) -> Result<(), GpuError>;
    /// Frees every buffer [`Backend::alloc`] gave (kernels stay loaded).
    fn free_all(&mut self);

    /// Bytes of global memory moved by the launches so far, by the width in bits of the
    /// instruction that moved them (`ld/st.global`, `cp.async`), summed over threads:
    /// what a simulator can count and a device cannot (`None`).
    fn global_bytes(&self) -> Option<std::collections::BTreeMap<u32, u64>> {
        None
    }
}

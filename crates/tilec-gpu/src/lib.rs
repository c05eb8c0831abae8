//! tilec's GPU harness (docs/gpu-harness.md): runs the PTX tilec compiles on a real GPU
//! through the CUDA driver and checks it against the reference interpreter (tilec-interp)
//! on the same inputs.
//!
//! * [`driver`]: the CUDA driver via `cudarc`, with `libcuda` opened at run time, so that
//!   tilec builds and runs on machines without CUDA ([`driver::open`] then says why there
//!   is no device);
//! * [`backend`]: the [`Backend`] trait the checks run on (the driver, or in tests a PTX
//!   simulator);
//! * [`params`]: kernel arguments by docs/abi.md, checked against the PTX's `.param` list;
//! * [`tolerance`]: bit-exact where the spec fixes every bit, bounds where accumulation
//!   order or approximate math may change them;
//! * [`check`]: one kernel run both ways and compared, with guard bytes around every buffer.

pub mod backend;
pub mod check;
pub mod driver;
pub mod params;
pub mod tolerance;

pub use backend::{Backend, GpuError, KernelId};
pub use check::{Case, CheckError, Report, check};
pub use driver::{CudaDevice, Probe, open};
pub use tolerance::Policy;

/// The dynamic shared memory (bytes) kernel `entry` of a PTX module tilec wrote needs at
/// launch: the `// tilec.dynamic_smem ENTRY BYTES` line tilec writes before the
/// `.extern .shared` array of a kernel over 48 KiB (docs/abi.md, "Shared memory"); 0 when
/// there is none (static shared memory only). A launcher sets the function's
/// `CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES` to it and passes it as
/// `sharedMemBytes`.
pub fn dynamic_smem(ptx: &str, entry: &str) -> u32 {
    ptx.lines()
        .filter_map(|l| {
            let mut w = l.strip_prefix("// tilec.dynamic_smem ")?.split_whitespace();
            (w.next()? == entry).then(|| w.next()?.parse().ok())?
        })
        .next()
        .unwrap_or(0)
}

/// The CTAs per cluster kernel `entry` of a PTX module declares (`.reqnctapercluster`,
/// docs/abi.md "Clusters"; 1 when it declares none).
#[must_use]
pub fn cluster_ctas(ptx: &str, entry: &str) -> u32 {
    let head = format!(".visible .entry {entry}(");
    ptx.lines()
        .skip_while(|l| *l != head)
        .take_while(|l| !l.starts_with('{'))
        .find_map(|l| l.strip_prefix(".reqnctapercluster "))
        .map_or(1, |r| {
            r.split(',')
                .map(|d| d.trim().parse::<u32>().unwrap_or(1))
                .product()
        })
}

/// The message of a caught panic (`catch_unwind`'s payload), or "" when it has none.
#[must_use]
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_string()))
        .unwrap_or_default()
}

/// The median of `v` (sorted in place); 0 for an empty slice.
#[must_use]
pub fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

//! A [`tilec_gpu::Backend`] over [`crate`] (the PTX simulator): the GPU harness's whole path
//! (marshalling by docs/abi.md, buffers with guard bytes, launch, comparison with the
//! interpreter) runs without a GPU for the kernels the simulator covers. A kernel it
//! cannot execute gives [`GpuError::Other`] naming the reason.

use crate as ptxsim;
use std::panic::{AssertUnwindSafe, catch_unwind};
use tilec_gpu::{Backend, GpuError, KernelId};

/// The simulator as a device.
#[derive(Default)]
pub struct SimGpu {
    /// The kernels loaded, with the dynamic shared memory their launches pass (as the
    /// driver backend reads it from the PTX: [`tilec_gpu::dynamic_smem`]).
    kernels: Vec<(ptxsim::Kernel, usize)>,
    mem: ptxsim::Memory,
    /// Instructions executed by all launches so far (per thread, summed).
    pub instructions: u64,
    /// Global bytes moved by all launches so far, by instruction width in bits.
    pub global: std::collections::BTreeMap<u32, u64>,
    /// The warp interleaving of every launch: round robin (`None`), or random from the
    /// seed ([`ptxsim::RunOptions::seed`]).
    pub seed: Option<u64>,
}

thread_local! {
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` catching panics, without the panic message and backtrace the default hook
/// prints (the simulator panics on PTX outside its subset; that is a result here).
fn quietly<T>(f: impl FnOnce() -> T) -> std::thread::Result<T> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(std::cell::Cell::get) {
                default(info);
            }
        }));
    });
    QUIET.with(|q| q.set(true));
    let r = catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(false));
    r
}

impl Backend for SimGpu {
    fn describe(&self) -> String {
        "ptxsim (crates/tilec-ptxsim, a PTX simulator)".to_string()
    }

    fn load(&mut self, ptx: &str, entry: &str) -> Result<KernelId, GpuError> {
        let parsed = quietly(|| ptxsim::parse(ptx)).map_err(|p| {
            GpuError::Other(format!(
                "ptxsim cannot parse the PTX: {}",
                tilec_gpu::panic_message(&*p)
            ))
        })?;
        let k = parsed
            .into_iter()
            .find(|k| k.name == entry)
            .ok_or_else(|| GpuError::NoKernel(entry.to_string()))?;
        let shared = tilec_gpu::dynamic_smem(ptx, entry) as usize;
        self.kernels.push((k, shared));
        Ok(KernelId(self.kernels.len() - 1))
    }

    fn alloc(&mut self, data: &[u8]) -> Result<u64, GpuError> {
        Ok(self.mem.alloc(data))
    }

    fn read(&mut self, addr: u64, len: usize) -> Result<Vec<u8>, GpuError> {
        let end = addr as usize + len;
        if end > self.mem.bytes.len() {
            return Err(GpuError::Other(format!(
                "read past the simulator's memory at {addr:#x}"
            )));
        }
        Ok(self.mem.read(addr, len).to_vec())
    }

    fn launch(
        &mut self,
        kernel: KernelId,
        grid: [u32; 3],
        threads: u32,
        params: &[Vec<u8>],
    ) -> Result<(), GpuError> {
        let (k, shared) = (&self.kernels[kernel.0].0, self.kernels[kernel.0].1);
        if k.threads() != threads as usize {
            return Err(GpuError::Driver {
                call: "cuLaunchKernel",
                name: "CUDA_ERROR_INVALID_VALUE".to_string(),
                text: format!(
                    "the kernel requires {} threads, launched with {threads}",
                    k.threads()
                ),
            });
        }
        // Scalars by value; larger parameters (a tensor map) by their bytes.
        let values: Vec<ptxsim::Param> = params
            .iter()
            .map(|p| {
                if p.len() > 8 {
                    return ptxsim::Param::Bytes(p.clone());
                }
                let mut b = [0u8; 8];
                b[..p.len()].copy_from_slice(p);
                ptxsim::Param::Value(u64::from_le_bytes(b))
            })
            .collect();
        let grid = grid.map(u64::from);
        let mem = &mut self.mem;
        let opts = ptxsim::RunOptions {
            shared_bytes: Some(shared),
            seed: self.seed,
            ..ptxsim::RunOptions::default()
        };
        let r = quietly(|| ptxsim::run_with_options(k, grid, &values, mem, &opts));
        match r {
            Ok(Ok(stats)) => {
                self.instructions += stats.instructions;
                for (bits, bytes) in stats.global {
                    *self.global.entry(bits).or_insert(0) += bytes;
                }
                // The copy engine's loads under width 0, its stores under width 1.
                if stats.tma_bytes_loaded > 0 {
                    *self.global.entry(0).or_insert(0) += stats.tma_bytes_loaded;
                }
                if stats.tma_bytes_stored > 0 {
                    *self.global.entry(1).or_insert(0) += stats.tma_bytes_stored;
                }
                Ok(())
            }
            Ok(Err(e)) => Err(GpuError::Other(format!("ptxsim: {e}"))),
            Err(p) => Err(GpuError::Other(format!(
                "ptxsim cannot run it: {}",
                tilec_gpu::panic_message(&*p)
            ))),
        }
    }

    fn free_all(&mut self) {
        self.mem = ptxsim::Memory::default();
        self.kernels.clear();
    }

    fn global_bytes(&self) -> Option<std::collections::BTreeMap<u32, u64>> {
        Some(self.global.clone())
    }
}

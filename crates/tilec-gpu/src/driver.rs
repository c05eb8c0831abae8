//! The CUDA driver, through `cudarc`'s raw bindings with `libcuda` opened at run time.
//!
//! Only a handful of driver calls are used, all present since CUDA 4 (module load with a
//! JIT log, memory, launch, events), so any driver that can run the PTX works.
//! `TILEC_NO_GPU=1` makes [`open`] report no device, to exercise the no-GPU path on a
//! machine that has one.

use crate::backend::{Backend, GpuError, KernelId};
use cudarc::driver::result::{self, DriverError};
use cudarc::driver::sys;
use std::ffi::{CString, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// What [`open`] found.
pub enum Probe {
    /// A device, ready.
    Present(CudaDevice),
    /// No device: why (no driver library, no device, `TILEC_NO_GPU`...).
    Absent(String),
}

/// The first CUDA device with its primary context current on this thread.
pub struct CudaDevice {
    device: sys::CUdevice,
    context: sys::CUcontext,
    name: String,
    capability: (i32, i32),
    driver_version: i32,
    modules: Vec<sys::CUmodule>,
    functions: Vec<sys::CUfunction>,
    /// Each function's dynamic shared memory (`sharedMemBytes` of its launches), from the
    /// PTX's `// tilec.dynamic_smem` line ([`crate::dynamic_smem`]); 0 for a cubin.
    shared: Vec<u32>,
    allocations: Vec<sys::CUdeviceptr>,
    /// A launch hung ([`GpuError::Hang`]): the context holds the running kernel, so the
    /// destructor leaves it to the process's exit (freeing or releasing would wait).
    hung: bool,
}

fn driver_error(call: &'static str, e: DriverError) -> GpuError {
    let name = e
        .error_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|_| format!("CUresult {}", e.0 as i32));
    let text = e
        .error_string()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    GpuError::Driver { call, name, text }
}

/// Runs `f`, turning a panic inside the bindings (a symbol the driver lacks) into an error.
fn guarded<T>(what: &'static str, f: impl FnOnce() -> Result<T, GpuError>) -> Result<T, GpuError> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|p| {
        let msg = crate::panic_message(&*p);
        Err(GpuError::Other(format!(
            "{what}: the CUDA driver library failed: {msg}"
        )))
    })
}

/// Opens the first CUDA device, or says why there is none.
#[must_use]
pub fn open() -> Probe {
    if std::env::var_os("TILEC_NO_GPU").is_some_and(|v| !v.is_empty() && v != "0") {
        return Probe::Absent("TILEC_NO_GPU is set".to_string());
    }
    // SAFETY: only tries to dlopen the library.
    if !unsafe { sys::is_culib_present() } {
        return Probe::Absent("the CUDA driver library (libcuda) is not installed".to_string());
    }
    match guarded("cuInit", open_device) {
        Ok(Some(d)) => Probe::Present(d),
        Ok(None) => Probe::Absent("the CUDA driver reports no device".to_string()),
        Err(GpuError::Driver { name, .. }) if name == "CUDA_ERROR_NO_DEVICE" => {
            Probe::Absent("the CUDA driver reports no device".to_string())
        }
        Err(e) => Probe::Absent(e.to_string()),
    }
}

fn open_device() -> Result<Option<CudaDevice>, GpuError> {
    result::init().map_err(|e| driver_error("cuInit", e))?;
    let count = result::device::get_count().map_err(|e| driver_error("cuDeviceGetCount", e))?;
    if count < 1 {
        return Ok(None);
    }
    let device = result::device::get(0).map_err(|e| driver_error("cuDeviceGet", e))?;
    let name = result::device::get_name(device).map_err(|e| driver_error("cuDeviceGetName", e))?;
    let attr = |a| {
        // SAFETY: `device` is a valid device handle.
        unsafe { result::device::get_attribute(device, a) }
            .map_err(|e| driver_error("cuDeviceGetAttribute", e))
    };
    let major = attr(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?;
    let minor = attr(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?;
    let mut driver_version = 0;
    // SAFETY: writes one int.
    unsafe { sys::cuDriverGetVersion(&mut driver_version) }
        .result()
        .map_err(|e| driver_error("cuDriverGetVersion", e))?;
    // SAFETY: `device` is valid; the primary context is released in Drop.
    let context = unsafe { result::primary_ctx::retain(device) }
        .map_err(|e| driver_error("cuDevicePrimaryCtxRetain", e))?;
    // SAFETY: a context just retained.
    unsafe { result::ctx::set_current(context) }.map_err(|e| driver_error("cuCtxSetCurrent", e))?;
    Ok(Some(CudaDevice {
        device,
        context,
        name,
        capability: (major, minor),
        driver_version,
        modules: Vec::new(),
        functions: Vec::new(),
        shared: Vec::new(),
        allocations: Vec::new(),
        hung: false,
    }))
}

impl CudaDevice {
    /// Whether a launch hung ([`GpuError::Hang`]): its kernel still holds the device,
    /// which nothing more should be asked of in this process.
    #[must_use]
    pub fn hung(&self) -> bool {
        self.hung
    }

    /// The device's name as the driver gives it ("NVIDIA H100 80GB HBM3").
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The compute capability (9, 0).
    #[must_use]
    pub fn capability(&self) -> (i32, i32) {
        self.capability
    }

    /// The newest PTX target tilec has that the device runs: sm_90 on an H100, sm_100 on
    /// Blackwell, sm_80 on an A100.
    #[must_use]
    pub fn arch(&self) -> tilec_ptx::Arch {
        let sm = (self.capability.0 * 10 + self.capability.1) as u32;
        tilec_ptx::Arch::ALL
            .into_iter()
            .filter(|a| !a.is_specific() && a.sm() <= sm)
            .max_by_key(|a| a.sm())
            .unwrap_or(tilec_ptx::Arch::Sm80)
    }

    /// Starts over after a fault: a kernel that faulted (an illegal address) leaves the
    /// context unusable, so every later call would fail too. Destroys the primary context
    /// (with every allocation and module in it) and makes a fresh one current.
    ///
    /// # Errors
    ///
    /// The driver cannot reset or retain the context.
    pub fn reset(&mut self) -> Result<(), GpuError> {
        guarded("cuDevicePrimaryCtxReset", || {
            self.allocations.clear();
            self.modules.clear();
            self.functions.clear();
            // SAFETY: the device is valid; its context's resources are forgotten above.
            unsafe {
                let _ = result::primary_ctx::release(self.device);
                sys::cuDevicePrimaryCtxReset_v2(self.device)
                    .result()
                    .map_err(|e| driver_error("cuDevicePrimaryCtxReset", e))?;
                self.context = result::primary_ctx::retain(self.device)
                    .map_err(|e| driver_error("cuDevicePrimaryCtxRetain", e))?;
            }
            self.make_current()
        })
    }

    fn make_current(&self) -> Result<(), GpuError> {
        // SAFETY: the context is retained for the device's lifetime.
        unsafe { result::ctx::set_current(self.context) }
            .map_err(|e| driver_error("cuCtxSetCurrent", e))
    }

    /// Loads a module image (PTX text, NUL-terminated here, or a cubin) and finds `entry`.
    ///
    /// # Errors
    ///
    /// The driver's rejection (with the JIT log) or no such kernel.
    pub fn load_image(&mut self, image: &[u8], entry: &str) -> Result<KernelId, GpuError> {
        guarded("cuModuleLoadDataEx", || {
            self.make_current()?;
            let mut data = image.to_vec();
            data.push(0);
            let mut log = vec![0u8; 16 * 1024];
            let mut options = [
                sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
                sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
            ];
            let mut values = [log.as_mut_ptr().cast::<c_void>(), log.len() as *mut c_void];
            let mut module = std::ptr::null_mut();
            // SAFETY: `data` outlives the call; the log buffer is as large as declared.
            let r = unsafe {
                sys::cuModuleLoadDataEx(
                    &mut module,
                    data.as_ptr().cast(),
                    options.len() as u32,
                    options.as_mut_ptr(),
                    values.as_mut_ptr(),
                )
            };
            if let Err(e) = r.result() {
                let GpuError::Driver { name, .. } = driver_error("cuModuleLoadDataEx", e) else {
                    unreachable!("driver_error gives Driver")
                };
                let end = log.iter().position(|b| *b == 0).unwrap_or(log.len());
                return Err(GpuError::Load {
                    name,
                    log: String::from_utf8_lossy(&log[..end]).trim_end().to_string(),
                });
            }
            self.modules.push(module);
            let cname = CString::new(entry).map_err(|_| GpuError::NoKernel(entry.to_string()))?;
            // SAFETY: a module just loaded.
            let f = unsafe { result::module::get_function(module, cname) }
                .map_err(|_| GpuError::NoKernel(entry.to_string()))?;
            // Over 48 KiB of shared memory is dynamic: the function must be allowed that
            // much before a launch may pass it (docs/abi.md, "Shared memory").
            let shared = std::str::from_utf8(image)
                .map(|ptx| crate::dynamic_smem(ptx, entry))
                .unwrap_or(0);
            if shared > 0 {
                // SAFETY: a function just loaded.
                unsafe {
                    result::function::set_function_attribute(
                        f,
                        sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                        shared as i32,
                    )
                }
                .map_err(|e| driver_error("cuFuncSetAttribute", e))?;
            } else {
                // Static shared memory above 48 KiB (sm_90a/sm_100a code from the
                // `tileiras` personality, or a tileiras cubin) needs the same opt-in: the
                // device's limit less the static size, as cuTile's launcher sets it.
                // SAFETY: a function just loaded; `self.device` is its device.
                let (fixed, limit) = unsafe {
                    (
                        result::function::get_function_attribute(
                            f,
                            sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                        ),
                        result::device::get_attribute(
                            self.device,
                            sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                        ),
                    )
                };
                let fixed = fixed.map_err(|e| driver_error("cuFuncGetAttribute", e))?;
                let limit = limit.map_err(|e| driver_error("cuDeviceGetAttribute", e))?;
                if fixed > tilec_ptx::sizes::MAX_STATIC_SMEM as i32 && limit > fixed {
                    // SAFETY: a function just loaded.
                    unsafe {
                        result::function::set_function_attribute(
                            f,
                            sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                            limit - fixed,
                        )
                    }
                    .map_err(|e| driver_error("cuFuncSetAttribute", e))?;
                }
            }
            // Clusters of more than 8 CTAs are "non-portable": the function must be
            // allowed them (docs/abi.md, "Clusters").
            let ctas = std::str::from_utf8(image)
                .map(|ptx| crate::cluster_ctas(ptx, entry))
                .unwrap_or(1);
            if ctas > 8 {
                // SAFETY: a function just loaded.
                unsafe {
                    result::function::set_function_attribute(
                        f,
                        sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED,
                        1,
                    )
                }
                .map_err(|e| driver_error("cuFuncSetAttribute", e))?;
            }
            self.functions.push(f);
            self.shared.push(shared);
            Ok(KernelId(self.functions.len() - 1))
        })
    }

    /// Launches and times `kernel` with CUDA events: `warmup` launches, then `reps` timed
    /// ones, each between its own pair of events. Returns the milliseconds of each.
    ///
    /// # Errors
    ///
    /// A launch failure.
    pub fn time(
        &mut self,
        kernel: KernelId,
        grid: [u32; 3],
        threads: u32,
        params: &[Vec<u8>],
        warmup: usize,
        reps: usize,
    ) -> Result<Vec<f64>, GpuError> {
        guarded("cuLaunchKernel", || {
            for _ in 0..warmup {
                self.launch_async(kernel, grid, threads, params)?;
            }
            self.timed(reps, |d| d.launch_async(kernel, grid, threads, params))
        })
    }

    /// Times `reps` calls of `f`, each between two events on the default stream.
    fn timed(
        &mut self,
        reps: usize,
        mut f: impl FnMut(&mut Self) -> Result<(), GpuError>,
    ) -> Result<Vec<f64>, GpuError> {
        let ev = |()| {
            result::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT)
                .map_err(|e| driver_error("cuEventCreate", e))
        };
        let start = ev(())?;
        let stop = ev(())?;
        let mut times = Vec::with_capacity(reps);
        let mut run = || -> Result<(), GpuError> {
            for _ in 0..reps {
                // SAFETY: events just created, the default stream.
                unsafe { result::event::record(start, std::ptr::null_mut()) }
                    .map_err(|e| driver_error("cuEventRecord", e))?;
                f(self)?;
                // SAFETY: as above.
                unsafe { result::event::record(stop, std::ptr::null_mut()) }
                    .map_err(|e| driver_error("cuEventRecord", e))?;
                poll_event(stop)?;
                // SAFETY: a recorded event, complete (or its work faulted: reported here).
                unsafe { result::event::synchronize(stop) }
                    .map_err(|e| driver_error("cuEventSynchronize", e))?;
                // SAFETY: both events recorded and complete.
                let ms = unsafe { result::event::elapsed(start, stop) }
                    .map_err(|e| driver_error("cuEventElapsedTime", e))?;
                times.push(f64::from(ms));
            }
            Ok(())
        };
        let r = run();
        self.hung |= matches!(r, Err(GpuError::Hang(_)));
        // SAFETY: events created above, no longer used.
        unsafe {
            let _ = result::event::destroy(start);
            let _ = result::event::destroy(stop);
        }
        r.map(|()| times)
    }

    /// The device's own copy bandwidth: `reps` device-to-device copies of `bytes` bytes
    /// (after 3 warm-ups), timed with events. Returns GB/s (10^9 bytes read plus written,
    /// per second) of the median copy.
    ///
    /// # Errors
    ///
    /// Out of memory or a failed copy.
    pub fn copy_bandwidth(&mut self, bytes: usize, reps: usize) -> Result<f64, GpuError> {
        guarded("cuMemcpyDtoD", || {
            self.make_current()?;
            let src = self.alloc(&vec![0u8; bytes])?;
            let dst = self.alloc(&vec![0u8; bytes])?;
            let copy = |_: &mut Self| {
                // SAFETY: both allocations hold `bytes` bytes.
                unsafe { sys::cuMemcpyDtoDAsync_v2(dst, src, bytes, std::ptr::null_mut()) }
                    .result()
                    .map_err(|e| driver_error("cuMemcpyDtoDAsync", e))
            };
            self.timed(3, copy)?;
            let mut t = self.timed(reps, copy)?;
            let ms = crate::median(&mut t);
            Ok(2.0 * bytes as f64 / (ms * 1e-3) / 1e9)
        })
    }

    fn launch_async(
        &mut self,
        kernel: KernelId,
        grid: [u32; 3],
        threads: u32,
        params: &[Vec<u8>],
    ) -> Result<(), GpuError> {
        let f = *self
            .functions
            .get(kernel.0)
            .ok_or_else(|| GpuError::Other(format!("no kernel #{}", kernel.0)))?;
        let shared = self.shared.get(kernel.0).copied().unwrap_or(0);
        // The driver reads each parameter through its pointer during the call.
        let mut values: Vec<Vec<u8>> = params.to_vec();
        let mut ptrs: Vec<*mut c_void> = values
            .iter_mut()
            .map(|v| v.as_mut_ptr().cast::<c_void>())
            .collect();
        // SAFETY: `f` is a loaded kernel; `ptrs` has one pointer per parameter, each to a
        // value of the parameter's size (checked against the PTX by crate::params).
        unsafe {
            result::launch_kernel(
                f,
                (grid[0], grid[1], grid[2]),
                (threads, 1, 1),
                shared,
                std::ptr::null_mut(),
                &mut ptrs,
            )
        }
        .map_err(|e| driver_error("cuLaunchKernel", e))
    }
}

/// The watchdog's limit on one launch, in seconds: `TILEC_GPU_LAUNCH_TIMEOUT`, else 30
/// (read once per process).
fn launch_timeout() -> u64 {
    static LIMIT: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *LIMIT.get_or_init(|| {
        std::env::var("TILEC_GPU_LAUNCH_TIMEOUT")
            .ok()
            .and_then(|v| v.parse().ok())
            .filter(|s| *s > 0)
            .unwrap_or(30)
    })
}

/// Waits for the work queued on the default stream so far, polling an event recorded
/// after it, for at most [`launch_timeout`] seconds: a kernel that never finishes gives
/// [`GpuError::Hang`] instead of blocking the caller for ever (a sweep can then say
/// which case hung and go on in a new process).
fn wait_with_watchdog() -> Result<(), GpuError> {
    let ev = result::event::create(sys::CUevent_flags::CU_EVENT_DISABLE_TIMING)
        .map_err(|e| driver_error("cuEventCreate", e))?;
    // SAFETY: an event just created, the default stream.
    let r = unsafe { result::event::record(ev, std::ptr::null_mut()) }
        .map_err(|e| driver_error("cuEventRecord", e))
        .and_then(|()| poll_event(ev));
    if !matches!(r, Err(GpuError::Hang(_))) {
        // SAFETY: created above; no longer used (a hung one is left to the context).
        unsafe {
            let _ = result::event::destroy(ev);
        }
    }
    r
}

/// Polls recorded event `ev` until it completes, for at most [`launch_timeout`]
/// seconds ([`GpuError::Hang`] after that). A fault of the work before it also ends the
/// wait: the next synchronizing call reports it by name.
fn poll_event(ev: sys::CUevent) -> Result<(), GpuError> {
    let limit = launch_timeout();
    let start = std::time::Instant::now();
    let mut pause = std::time::Duration::from_micros(20);
    loop {
        // SAFETY: a recorded event.
        match unsafe { result::event::query(ev) } {
            Err(e) if e.0 == sys::CUresult::CUDA_ERROR_NOT_READY => {
                if start.elapsed().as_secs() >= limit {
                    return Err(GpuError::Hang(limit));
                }
                std::thread::sleep(pause);
                pause = (pause * 2).min(std::time::Duration::from_millis(5));
            }
            Ok(()) | Err(_) => return Ok(()),
        }
    }
}

impl Backend for CudaDevice {
    fn describe(&self) -> String {
        format!(
            "{} (compute capability {}.{}, driver {}.{})",
            self.name,
            self.capability.0,
            self.capability.1,
            self.driver_version / 1000,
            self.driver_version % 1000 / 10
        )
    }

    fn load(&mut self, ptx: &str, entry: &str) -> Result<KernelId, GpuError> {
        self.load_image(ptx.as_bytes(), entry)
    }

    fn alloc(&mut self, data: &[u8]) -> Result<u64, GpuError> {
        guarded("cuMemAlloc", || {
            self.make_current()?;
            // SAFETY: a plain allocation of at least one byte.
            let p = unsafe { result::malloc_sync(data.len().max(1)) }
                .map_err(|e| driver_error("cuMemAlloc", e))?;
            self.allocations.push(p);
            if !data.is_empty() {
                // SAFETY: `p` holds `data.len()` bytes.
                unsafe { result::memcpy_htod_sync(p, data) }
                    .map_err(|e| driver_error("cuMemcpyHtoD", e))?;
            }
            Ok(p)
        })
    }

    fn read(&mut self, addr: u64, len: usize) -> Result<Vec<u8>, GpuError> {
        guarded("cuMemcpyDtoH", || {
            self.make_current()?;
            result::ctx::synchronize().map_err(|e| driver_error("cuCtxSynchronize", e))?;
            let mut out = vec![0u8; len];
            if len > 0 {
                // SAFETY: the caller reads within an allocation.
                unsafe { result::memcpy_dtoh_sync(&mut out, addr) }
                    .map_err(|e| driver_error("cuMemcpyDtoH", e))?;
            }
            Ok(out)
        })
    }

    fn launch(
        &mut self,
        kernel: KernelId,
        grid: [u32; 3],
        threads: u32,
        params: &[Vec<u8>],
    ) -> Result<(), GpuError> {
        guarded("cuLaunchKernel", || {
            self.make_current()?;
            self.launch_async(kernel, grid, threads, params)?;
            if let Err(e) = wait_with_watchdog() {
                self.hung |= matches!(e, GpuError::Hang(_));
                return Err(e);
            }
            result::ctx::synchronize().map_err(|e| driver_error("cuCtxSynchronize", e))
        })
    }

    fn free_all(&mut self) {
        if self.hung {
            return;
        }
        for p in self.allocations.drain(..) {
            // SAFETY: allocated by `alloc` and not freed before.
            let _ = unsafe { result::free_sync(p) };
        }
    }
}

impl Drop for CudaDevice {
    fn drop(&mut self) {
        if self.hung {
            return;
        }
        let _ = catch_unwind(AssertUnwindSafe(|| {
            self.free_all();
            for m in self.modules.drain(..) {
                // SAFETY: loaded by `load_image`, unloaded once.
                let _ = unsafe { result::module::unload(m) };
            }
            // SAFETY: retained in `open_device`.
            let _ = unsafe { result::primary_ctx::release(self.device) };
        }));
    }
}

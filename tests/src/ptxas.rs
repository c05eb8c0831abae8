//! Finding and running NVIDIA's `ptxas` (PyPI `nvidia-cuda-nvcc`) to validate tilec's PTX
//! (and finding the other tools of the CUDA wheels, such as `tileiras`, the same way).
//!
//! The assembler is looked up in `TILEC_PTXAS`, then on `PATH`, then in the
//! `nvidia/cu13/bin` (or `nvidia/cuda_nvcc/bin`) folder of every Python site-packages
//! directory `python3` reports, so `pip install nvidia-cuda-nvcc` is enough.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The `ptxas` to use, if one is installed.
pub fn find() -> Option<PathBuf> {
    find_tool("TILEC_PTXAS", "ptxas")
}

/// An NVIDIA tool of the CUDA wheels (`ptxas`, `tileiras`, ...): the file named by the
/// environment variable `env` if set (nothing if that is not a file), else `name` on `PATH`,
/// else `nvidia/cu13/bin/NAME` or `nvidia/cuda_nvcc/bin/NAME` under a Python site-packages
/// directory that `python3` (or `python`) reports.
pub fn find_tool(env: &str, name: &str) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(env) {
        let p = PathBuf::from(p);
        return p.is_file().then_some(p);
    }
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    let script = "import site, sys\nfor p in site.getsitepackages() + [site.getusersitepackages()] + sys.path: print(p)";
    for py in ["python3", "python"] {
        let Ok(out) = Command::new(py).args(["-c", script]).output() else {
            continue;
        };
        for dir in String::from_utf8_lossy(&out.stdout).lines() {
            for sub in ["nvidia/cu13/bin", "nvidia/cuda_nvcc/bin"] {
                let p = Path::new(dir).join(sub).join(name);
                if p.is_file() {
                    return Some(p);
                }
            }
        }
    }
    None
}

/// What `ptxas -v` said about one PTX file.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Exit status was 0.
    pub ok: bool,
    /// Every line that is an error or a warning.
    pub problems: Vec<String>,
    /// Per entry: (name, registers, spill store bytes, spill load bytes, shared bytes).
    pub kernels: Vec<KernelInfo>,
}

/// Resource use of one kernel, from `ptxas -v`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KernelInfo {
    /// Entry name.
    pub name: String,
    /// Registers per thread.
    pub registers: u32,
    /// Spill store bytes.
    pub spill_stores: u32,
    /// Spill load bytes.
    pub spill_loads: u32,
    /// Static shared memory bytes.
    pub smem: u32,
}

fn number_before(line: &str, what: &str) -> Option<u32> {
    let i = line.find(what)?;
    line[..i].split_whitespace().last()?.parse().ok()
}

/// Assembles `ptx` for `arch` with `ptxas -v` and parses its report.
pub fn assemble(ptxas: &Path, ptx: &Path, arch: &str) -> Report {
    let out_file = ptx.with_extension(format!("{arch}.cubin"));
    let out = Command::new(ptxas)
        .arg("-v")
        .arg(format!("-arch={arch}"))
        .arg(ptx)
        .arg("-o")
        .arg(&out_file)
        .output();
    let _ = std::fs::remove_file(&out_file);
    let Ok(out) = out else {
        return Report {
            ok: false,
            problems: vec![format!("cannot run {}", ptxas.display())],
            kernels: Vec::new(),
        };
    };
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let mut report = Report {
        ok: out.status.success(),
        ..Report::default()
    };
    for line in text.lines() {
        let l = line.to_ascii_lowercase();
        if l.contains("error") || l.contains("warning") {
            report.problems.push(line.to_string());
        }
        if let Some(i) = line.find("Compiling entry function '") {
            let rest = &line[i + 26..];
            let name = rest.split('\'').next().unwrap_or_default().to_string();
            report.kernels.push(KernelInfo {
                name,
                ..KernelInfo::default()
            });
        } else if let Some(k) = report.kernels.last_mut() {
            if line.contains("bytes spill stores") {
                k.spill_stores = number_before(line, "bytes spill stores").unwrap_or(0);
                k.spill_loads = number_before(line, "bytes spill loads").unwrap_or(0);
            }
            if line.contains("Used") && line.contains("registers") {
                k.registers = number_before(line, "registers").unwrap_or(0);
                k.smem = number_before(line, "bytes smem").unwrap_or(0);
            }
        }
    }
    report
}

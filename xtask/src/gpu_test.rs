//! `cargo xtask gpu-test`: the GPU correctness sweep (issue 7; docs/gpu-harness.md).
//!
//! Runs every case of the plan in tests/src/gpusweep.rs (every example entry on ragged
//! shapes, every conformance and cuTile corpus entry that can run, N random kernels) on
//! the GPU and in the interpreter on the same inputs, compares every buffer (bit for bit,
//! or within the bound of tilec_gpu::tolerance), and prints one line per case and the
//! totals. Exit status 1 when any case fails or the device fails on it.
//!
//! Without a GPU it says so and checks what it can on the CPU: every case compiles and
//! its arguments fit the PTX's parameter list; then exits 0. `--sim` runs the sweep on
//! the PTX simulator (crates/tilec-ptxsim) instead, for the kernels inside its subset.

use tilec_gpu::Backend;
use tilec_tests::gpusweep::{self, Family, SweepCase, Verdict};

/// Options of the sweep.
pub struct Options {
    pub sim: bool,
    pub random: usize,
    pub seed: u64,
    pub only: Option<String>,
    pub arch: Option<String>,
    /// Warps per CTA; `None`: chosen per kernel, as `tilec` does.
    pub num_warps: Option<u32>,
    pub fast_math: bool,
    /// `--warp-specialize` (sm_90a's copy-engine K loops split into producer and MMA
    /// warps, docs/hopper.md).
    pub warp_specialize: bool,
    /// `--num-ctas N`: every kernel's tile block over a cluster of N CTAs where the
    /// cluster split takes it (docs/hopper.md, "Clusters").
    pub num_ctas: Option<u32>,
    pub verbose: bool,
    /// Write each planned case's kernel to DIR/LABEL.tile with its `tilec run` line
    /// (DIR/LABEL.sh) and stop: how a failure seen on a GPU is reproduced elsewhere.
    pub dump: Option<std::path::PathBuf>,
    /// `--from K`: start at case K of the plan (numbered from 0, after `--only`): where a
    /// sweep goes on after a case that hung (exit status 3 names K).
    pub from: usize,
    /// `--corpus DIR`: every entry of the Tile IR files of DIR too (the `kept` family:
    /// what a GPU session kept from cuTile's test suite, `TILEC_TILEIRAS_KEEP`).
    pub corpus: Option<std::path::PathBuf>,
    /// `--structured N`: N structured random kernels (tilec_tests::tilegen: products,
    /// row reductions and copies through views, with big tiles), seeds from `--seed`.
    pub structured: usize,
}

/// The sweep's plan: every case, and what was left out of it.
pub fn plan(o: &Options) -> (Vec<SweepCase>, Vec<String>) {
    let mut cases = gpusweep::example_cases();
    let (conf, mut left) = gpusweep::conformance_cases();
    let (corpus, l2) = gpusweep::corpus_cases();
    left.extend(l2);
    cases.extend(conf);
    cases.extend(corpus);
    cases.extend(gpusweep::random_cases(o.random, o.seed));
    cases.extend(gpusweep::structured_cases(o.structured, o.seed));
    if let Some(dir) = &o.corpus {
        let (kept, l3) = gpusweep::dir_cases(dir);
        cases.extend(kept);
        left.extend(l3);
    }
    if let Some(only) = &o.only {
        cases.retain(|c| c.label.contains(only.as_str()) || c.family.name() == only);
    }
    (cases, left)
}

pub fn gpu_test(o: &Options) -> i32 {
    if let Some(dir) = &o.dump {
        return dump(o, dir);
    }
    let probe = if o.sim { None } else { Some(tilec_gpu::open()) };
    match probe {
        None => {
            let mut sim = tilec_tests::simgpu::SimGpu::default();
            let arch = o.arch.as_deref().unwrap_or("sm_90");
            sweep(&mut sim, arch, o, true)
        }
        Some(tilec_gpu::Probe::Present(d)) => {
            let arch = o
                .arch
                .clone()
                .unwrap_or_else(|| d.arch().name().to_string());
            let mut device = Resetting(d);
            let code = sweep(&mut device, &arch, o, false);
            if code == HUNG_EXIT {
                // The running kernel keeps the device: exit before anything (the device's
                // destructor) waits for it.
                use std::io::Write;
                let _ = std::io::stdout().flush();
                std::process::exit(code);
            }
            code
        }
        Some(tilec_gpu::Probe::Absent(why)) => {
            println!("no GPU present ({why}): nothing run on a device.");
            println!(
                "Checking on the CPU that every case compiles and its arguments fit the PTX (`--sim` runs the simulator)."
            );
            dry_run(o)
        }
    }
}

/// The exit status of a sweep stopped by a launch that hangs.
pub const HUNG_EXIT: i32 = 3;

/// The device, reset after every failed launch so that one faulting kernel (a sticky
/// error such as an illegal address) does not fail every case after it; not after one
/// that hangs (the reset would wait for it: [`Watchful`] stops the sweep).
struct Resetting(tilec_gpu::CudaDevice);

impl Backend for Resetting {
    fn describe(&self) -> String {
        self.0.describe()
    }
    fn load(&mut self, ptx: &str, entry: &str) -> Result<tilec_gpu::KernelId, tilec_gpu::GpuError> {
        self.0.load(ptx, entry)
    }
    fn alloc(&mut self, data: &[u8]) -> Result<u64, tilec_gpu::GpuError> {
        self.0.alloc(data)
    }
    fn read(&mut self, addr: u64, len: usize) -> Result<Vec<u8>, tilec_gpu::GpuError> {
        self.0.read(addr, len)
    }
    fn launch(
        &mut self,
        k: tilec_gpu::KernelId,
        grid: [u32; 3],
        threads: u32,
        params: &[Vec<u8>],
    ) -> Result<(), tilec_gpu::GpuError> {
        let r = self.0.launch(k, grid, threads, params);
        if let Err(e) = &r
            && !matches!(e, tilec_gpu::GpuError::Hang(_))
            && let Err(e) = self.0.reset()
        {
            eprintln!("could not reset the device after a failed launch: {e}");
        }
        r
    }
    fn free_all(&mut self) {
        self.0.free_all();
    }
}

/// Any backend, left alone once a launch hangs (`GpuError::Hang`): the device's context
/// holds the running kernel, so nothing more may be asked of it (a free or a copy would
/// wait for ever); the sweep reports the case and stops with [`HUNG_EXIT`].
struct Watchful<'a> {
    inner: &'a mut dyn Backend,
    hung: bool,
}

impl Watchful<'_> {
    fn refuse<T>(&self) -> Result<T, tilec_gpu::GpuError> {
        Err(tilec_gpu::GpuError::Other(
            "an earlier launch hangs: the device is not used again".into(),
        ))
    }
}

impl Backend for Watchful<'_> {
    fn describe(&self) -> String {
        self.inner.describe()
    }
    fn load(&mut self, ptx: &str, entry: &str) -> Result<tilec_gpu::KernelId, tilec_gpu::GpuError> {
        if self.hung {
            return self.refuse();
        }
        self.inner.load(ptx, entry)
    }
    fn alloc(&mut self, data: &[u8]) -> Result<u64, tilec_gpu::GpuError> {
        if self.hung {
            return self.refuse();
        }
        self.inner.alloc(data)
    }
    fn read(&mut self, addr: u64, len: usize) -> Result<Vec<u8>, tilec_gpu::GpuError> {
        if self.hung {
            return self.refuse();
        }
        self.inner.read(addr, len)
    }
    fn launch(
        &mut self,
        k: tilec_gpu::KernelId,
        grid: [u32; 3],
        threads: u32,
        params: &[Vec<u8>],
    ) -> Result<(), tilec_gpu::GpuError> {
        if self.hung {
            return self.refuse();
        }
        let r = self.inner.launch(k, grid, threads, params);
        self.hung = matches!(r, Err(tilec_gpu::GpuError::Hang(_)));
        r
    }
    fn free_all(&mut self) {
        if !self.hung {
            self.inner.free_all();
        }
    }
    fn global_bytes(&self) -> Option<std::collections::BTreeMap<u32, u64>> {
        self.inner.global_bytes()
    }
}

fn ptx_options(arch: &str, o: &Options) -> Option<tilec_ptx::Options> {
    Some(tilec_ptx::Options {
        arch: tilec_ptx::Arch::from_name(arch)?,
        num_warps: o.num_warps.unwrap_or(4),
        choose_warps: o.num_warps.is_none(),
        fast_math: o.fast_math,
        warp_specialize: o.warp_specialize,
        num_ctas: o.num_ctas,
        ..tilec_ptx::Options::default()
    })
}

/// Without a device: every case compiles (or the backend refuses it with a located
/// error) and its arguments marshal against its PTX.
fn dry_run(o: &Options) -> i32 {
    let Some(popts) = ptx_options(o.arch.as_deref().unwrap_or("sm_90"), o) else {
        eprintln!("unknown --arch");
        return 2;
    };
    let (cases, left) = plan(o);
    let mut ok = 0;
    let mut refused = 0;
    let mut bad = 0;
    for c in &cases {
        match gpusweep::prepare(c, &popts) {
            Ok(p) => {
                let case = p.case(
                    c.grid,
                    o.num_warps.unwrap_or(4),
                    tilec_gpu::Policy::default(),
                );
                match tilec_gpu::check::marshal_placeholder(&case) {
                    Ok(_) => ok += 1,
                    Err(e) => {
                        bad += 1;
                        println!("ARGUMENTS DO NOT FIT: {}: {e}", c.label);
                    }
                }
            }
            Err(e) => {
                refused += 1;
                if o.verbose {
                    println!("not compiled: {}: {e}", c.label);
                }
            }
        }
    }
    println!(
        "plan: {} cases ({}); {ok} compile and marshal, {refused} refused by the backend, {bad} with arguments that do not fit; {} entries left out of the plan",
        cases.len(),
        family_counts(&cases),
        left.len()
    );
    if bad > 0 { 1 } else { 0 }
}

fn family_counts(cases: &[SweepCase]) -> String {
    let mut parts = Vec::new();
    for f in [
        Family::Example,
        Family::Conformance,
        Family::Corpus,
        Family::Random,
        Family::Structured,
        Family::Kept,
    ] {
        let n = cases.iter().filter(|c| c.family == f).count();
        parts.push(format!("{n} {}", f.name()));
    }
    parts.join(", ")
}

#[derive(Default)]
struct Tally {
    pass: usize,
    exact: usize,
    fail: usize,
    undefined: usize,
    unsupported: usize,
    device: usize,
    worst: f64,
}

fn sweep(device: &mut dyn Backend, arch: &str, o: &Options, sim: bool) -> i32 {
    let Some(popts) = ptx_options(arch, o) else {
        eprintln!("unknown --arch {arch}");
        return 2;
    };
    let mut watchful = Watchful {
        inner: device,
        hung: false,
    };
    let backend = &mut watchful;
    let (cases, left) = plan(o);
    println!("device: {}", backend.describe());
    println!(
        "target: {arch}, {}{}",
        match o.num_warps {
            Some(w) => format!("{w} warps"),
            None => "warps chosen per kernel".to_string(),
        },
        if o.fast_math { ", fast math" } else { "" }
    );
    println!();
    // What the backend can count of the global traffic (the simulator: bytes by the width
    // of the instruction that moved them), per case and in all.
    let counts = backend.global_bytes().is_some();
    if counts {
        println!(
            "| family | case | result | worst ulps | global bytes by width (bits:bytes; tma: the copy engine) | 128-bit or TMA share |"
        );
        println!("|---|---|---|---|---|---|");
    } else {
        println!("| family | case | result | worst ulps |");
        println!("|---|---|---|---|");
    }
    let mut total: std::collections::BTreeMap<u32, u64> = Default::default();
    let mut by_family: std::collections::BTreeMap<Family, std::collections::BTreeMap<u32, u64>> =
        Default::default();
    // The corpus and conformance cases by the shape of their arguments.
    let mut by_shape: std::collections::BTreeMap<&str, std::collections::BTreeMap<u32, u64>> =
        Default::default();
    let mut tallies: std::collections::BTreeMap<Family, Tally> = Default::default();
    let mut failures = Vec::new();
    let start = std::time::Instant::now();
    let mut hung_at = None;
    for (k, c) in cases.iter().enumerate().skip(o.from) {
        if o.verbose {
            eprintln!("case {k}: {}", c.label);
        }
        let before = backend.global_bytes().unwrap_or_default();
        let v = gpusweep::run_case(&mut *backend, c, &popts);
        let moved: std::collections::BTreeMap<u32, u64> = backend
            .global_bytes()
            .unwrap_or_default()
            .into_iter()
            .map(|(w, b)| (w, b - before.get(&w).copied().unwrap_or(0)))
            .filter(|(_, b)| *b > 0)
            .collect();
        if matches!(v, Verdict::Pass { .. }) {
            for (w, b) in &moved {
                *total.entry(*w).or_insert(0) += b;
                *by_family
                    .entry(c.family)
                    .or_default()
                    .entry(*w)
                    .or_insert(0) += b;
                if let Some(v) = gpusweep::SHAPE_VARIANTS
                    .iter()
                    .find(|v| c.label.ends_with(&format!("({v})")))
                {
                    *by_shape.entry(v).or_default().entry(*w).or_insert(0) += b;
                }
            }
        }
        let t = tallies.entry(c.family).or_default();
        let (word, ulps) = match &v {
            Verdict::Pass { exact, worst_ulps } => {
                t.pass += 1;
                t.exact += usize::from(*exact);
                t.worst = t.worst.max(*worst_ulps);
                (v.word().to_string(), format!("{worst_ulps:.1}"))
            }
            Verdict::Fail(r) => {
                t.fail += 1;
                failures.push(r.clone());
                (v.word().to_string(), String::new())
            }
            Verdict::Undefined(e) => {
                t.undefined += 1;
                (format!("{} {}", v.word(), first_line(e)), String::new())
            }
            Verdict::Unsupported(e) => {
                t.unsupported += 1;
                (format!("{} {}", v.word(), first_line(e)), String::new())
            }
            Verdict::DeviceError(e) if sim && gpusweep::simulator_limitation(e) => {
                t.unsupported += 1;
                (
                    format!("outside the simulator: {}", first_line(e)),
                    String::new(),
                )
            }
            Verdict::DeviceError(e) => {
                t.device += 1;
                failures.push(format!("{}\n{e}", c.command()));
                (format!("{} {}", v.word(), first_line(e)), String::new())
            }
        };
        if counts {
            println!(
                "| {} | {} | {word} | {ulps} | {} | {} |",
                c.family.name(),
                c.label,
                width_list(&moved),
                share_128(&moved)
            );
        } else {
            println!("| {} | {} | {word} | {ulps} |", c.family.name(), c.label);
        }
        if backend.hung {
            hung_at = Some(k);
            break;
        }
    }
    println!();
    println!(
        "| family | cases | pass | bit-exact | FAIL | device error | skipped (UB) | not run |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    let mut bad = 0;
    for (f, t) in &tallies {
        let n = t.pass + t.fail + t.undefined + t.unsupported + t.device;
        println!(
            "| {} | {n} | {} | {} | {} | {} | {} | {} |",
            f.name(),
            t.pass,
            t.exact,
            t.fail,
            t.device,
            t.undefined,
            t.unsupported
        );
        bad += t.fail + t.device;
    }
    println!();
    let ran: usize = tallies
        .values()
        .map(|t| t.pass + t.fail + t.undefined + t.unsupported + t.device)
        .sum();
    println!(
        "{ran} cases in {:.1} s; {} entries left out of the plan (no parameters, or undefined behaviour on every candidate argument)",
        start.elapsed().as_secs_f64(),
        left.len()
    );
    if counts {
        println!();
        println!(
            "Global memory traffic of the passing cases, as executed (bytes summed over threads, by the width of the instruction):"
        );
        println!();
        println!("| family | bytes by width (bits:bytes) | 128-bit share |");
        println!("|---|---|---|");
        for (f, m) in &by_family {
            println!("| {} | {} | {} |", f.name(), width_list(m), share_128(m));
        }
        println!("| all | {} | {} |", width_list(&total), share_128(&total));
        if !by_shape.is_empty() {
            println!();
            println!("The corpus and conformance cases by the shape of their arguments:");
            println!();
            println!("| shapes | bytes by width (bits:bytes) | 128-bit share |");
            println!("|---|---|---|");
            for v in gpusweep::SHAPE_VARIANTS {
                if let Some(m) = by_shape.get(v) {
                    println!("| {v} | {} | {} |", width_list(m), share_128(m));
                }
            }
        }
    }
    for f in &failures {
        println!("\n{f}");
    }
    if let Some(k) = hung_at {
        println!(
            "\nHANG: case {k} ({}) was still running after the watchdog's limit; the cases after it did not run: go on with --from {}",
            cases[k].label,
            k + 1
        );
        return HUNG_EXIT;
    }
    if bad > 0 { 1 } else { 0 }
}

use tilec_tests::codestats::width_list;

/// The share of the bytes moved by 128-bit instructions, as a percentage.
fn share_128(m: &std::collections::BTreeMap<u32, u64>) -> String {
    tilec_tests::codestats::share_128_of_bytes(m)
        .map_or("-".into(), |x| format!("{:.0}%", 100.0 * x))
}

fn first_line(s: &str) -> String {
    let l = s.lines().next().unwrap_or("");
    if l.len() > 100 {
        format!("{}...", &l[..l.floor_char_boundary(100)])
    } else {
        l.to_string()
    }
}

/// `--dump DIR`: each case of the plan as a kernel file and the command that runs it.
fn dump(o: &Options, dir: &std::path::Path) -> i32 {
    let (cases, _) = plan(o);
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("cannot create {}: {e}", dir.display());
        return 2;
    }
    for c in &cases {
        let name: String = c
            .label
            .chars()
            .map(|ch| if ch.is_ascii_alphanumeric() { ch } else { '_' })
            .collect();
        let tile = dir.join(format!("{name}.tile"));
        let grid = c.grid.map(|g| g.to_string()).join(",");
        let cmd = format!(
            "tilec run {} --device --entry {} --grid {grid} {}\n",
            tile.display(),
            c.entry,
            c.args
                .iter()
                .map(|a| format!("--arg {a}"))
                .collect::<Vec<_>>()
                .join(" ")
        );
        let written = std::fs::write(&tile, &c.text)
            .and_then(|_| std::fs::write(dir.join(format!("{name}.sh")), cmd));
        if let Err(e) = written {
            eprintln!("cannot write {}: {e}", tile.display());
            return 2;
        }
    }
    println!("wrote {} cases to {}", cases.len(), dir.display());
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The simulator, but launch `hang_at` (counted from 0) hangs, and every call after
    /// it is counted.
    struct Hangs {
        sim: tilec_tests::simgpu::SimGpu,
        launches: usize,
        hang_at: usize,
        after: usize,
    }

    impl Backend for Hangs {
        fn describe(&self) -> String {
            "a device that hangs".into()
        }
        fn load(
            &mut self,
            ptx: &str,
            entry: &str,
        ) -> Result<tilec_gpu::KernelId, tilec_gpu::GpuError> {
            self.after += usize::from(self.launches > self.hang_at);
            self.sim.load(ptx, entry)
        }
        fn alloc(&mut self, data: &[u8]) -> Result<u64, tilec_gpu::GpuError> {
            self.after += usize::from(self.launches > self.hang_at);
            self.sim.alloc(data)
        }
        fn read(&mut self, addr: u64, len: usize) -> Result<Vec<u8>, tilec_gpu::GpuError> {
            self.after += usize::from(self.launches > self.hang_at);
            self.sim.read(addr, len)
        }
        fn launch(
            &mut self,
            k: tilec_gpu::KernelId,
            grid: [u32; 3],
            threads: u32,
            params: &[Vec<u8>],
        ) -> Result<(), tilec_gpu::GpuError> {
            self.launches += 1;
            if self.launches - 1 == self.hang_at {
                return Err(tilec_gpu::GpuError::Hang(30));
            }
            self.after += usize::from(self.launches > self.hang_at.saturating_add(1));
            self.sim.launch(k, grid, threads, params)
        }
        fn free_all(&mut self) {
            self.after += usize::from(self.launches > self.hang_at);
            self.sim.free_all();
        }
    }

    fn options(from: usize) -> Options {
        Options {
            sim: true,
            random: 0,
            seed: 1,
            only: Some("vector_add".into()),
            arch: None,
            num_warps: None,
            fast_math: false,
            warp_specialize: false,
            num_ctas: None,
            verbose: false,
            dump: None,
            from,
            corpus: None,
            structured: 0,
        }
    }

    /// A launch that hangs stops the sweep with [`HUNG_EXIT`] and nothing more is asked
    /// of the device (no free, no copy: they would wait for the running kernel); `--from`
    /// skips the cases before it.
    #[test]
    fn a_hanging_launch_stops_the_sweep() {
        let (cases, _) = plan(&options(0));
        assert!(cases.len() >= 3, "{} cases", cases.len());
        let mut dev = Hangs {
            sim: Default::default(),
            launches: 0,
            hang_at: 1,
            after: 0,
        };
        assert_eq!(sweep(&mut dev, "sm_80", &options(0), true), HUNG_EXIT);
        assert_eq!((dev.launches, dev.after), (2, 0));
        // From the case after it, the rest run (and pass).
        let mut dev = Hangs {
            sim: Default::default(),
            launches: 0,
            hang_at: usize::MAX,
            after: 0,
        };
        assert_eq!(sweep(&mut dev, "sm_80", &options(2), true), 0);
        assert_eq!(dev.launches, cases.len() - 2);
    }
}

//! One kernel run on a device and in the interpreter, on the same inputs, compared.

use crate::backend::{Backend, GpuError};
use crate::params::{check_params, param_bytes, ptx_params};
use crate::tolerance::{Compared, Policy, compare, compare_with};
use tilec_interp::args::{Bound, decode_elements, value_text};
use tilec_interp::{Memory, RunError};
use tilec_ir::{Module, Op, Type};

/// Bytes of sentinel before and after every buffer on the device: a store that the
/// kernel's bounds should have dropped lands there and is reported.
pub const GUARD: usize = 256;
/// The sentinel byte.
pub const SENTINEL: u8 = 0xA5;

/// One run to check.
pub struct Case<'a> {
    /// The verified module (what the interpreter runs).
    pub module: &'a Module,
    /// The entry.
    pub entry: Op,
    /// The PTX compiled from it.
    pub ptx: &'a str,
    /// The kernel's name in the PTX.
    pub kernel: &'a str,
    /// Tile blocks.
    pub grid: [u32; 3],
    /// Warps per tile block the PTX was compiled for, when its `.reqntid` does not say
    /// (the kernel is launched with the threads its PTX requires).
    pub num_warps: u32,
    /// The arguments.
    pub bound: &'a Bound,
    /// How results are compared.
    pub policy: Policy,
    /// The interpreter's op limit per tile block.
    pub max_ops: u64,
}

/// Why a case was not compared.
#[derive(Debug)]
pub enum CheckError {
    /// The interpreter found undefined behaviour (or hit its limit) on these inputs: the
    /// GPU's result would mean nothing, so the kernel is not launched.
    Undefined(RunError),
    /// The arguments do not fit the PTX's parameter list (a bug in the ABI or backend).
    Params(String),
    /// The device failed (load, launch, fault).
    Gpu(GpuError),
}

impl From<GpuError> for CheckError {
    fn from(e: GpuError) -> CheckError {
        CheckError::Gpu(e)
    }
}

/// The outcome of one buffer argument.
#[derive(Clone, Debug)]
pub struct BufferReport {
    /// The kernel parameter (0-based).
    pub position: usize,
    /// Element type.
    pub elem: Type,
    /// The argument's shape.
    pub shape: Vec<usize>,
    /// The comparison of its elements.
    pub compared: Compared,
    /// Offsets (relative to the buffer's start; negative before it) of guard bytes the
    /// GPU changed: the first few, and how many.
    pub guard_writes: (Vec<i64>, usize),
}

/// What a checked case found.
#[derive(Clone, Debug)]
pub struct Report {
    /// The device.
    pub device: String,
    /// The comparison used.
    pub policy: Policy,
    /// Every buffer argument.
    pub buffers: Vec<BufferReport>,
}

impl Report {
    /// Whether every buffer matched and no guard byte changed.
    #[must_use]
    pub fn passed(&self) -> bool {
        self.buffers
            .iter()
            .all(|b| b.compared.mismatches == 0 && b.guard_writes.1 == 0)
    }

    /// The largest difference seen in any buffer, in ulps.
    #[must_use]
    pub fn worst_ulps(&self) -> f64 {
        self.buffers
            .iter()
            .map(|b| b.compared.worst_ulps)
            .fold(0.0, f64::max)
    }

    /// The report as text: the comparison, then one line per buffer and the first
    /// mismatches.
    #[must_use]
    pub fn render(&self, m: &Module) -> String {
        use std::fmt::Write;
        let types = &m.ctx.types;
        let mut out = String::new();
        let _ = writeln!(out, "device: {}", self.device);
        if self.policy.exact() {
            let _ = writeln!(out, "comparison: bit-exact");
        } else {
            let _ = writeln!(
                out,
                "comparison: |gpu - interp| <= {:.3e} * (|interp| + max |interp|) + 1 ulp",
                self.policy.budget()
            );
            for s in &self.policy.sources {
                let _ = writeln!(out, "  from {} ({:.3e})", s.what, s.relative);
            }
        }
        if self.policy.products {
            let _ = writeln!(
                out,
                "  a float element that is zero, subnormal, infinite or NaN on one side matches any value (a reduction or scan multiplies: an intermediate may underflow or overflow in one order and not another)"
            );
        }
        if self.policy.sums {
            let _ = writeln!(
                out,
                "  a float element that is infinite or NaN on one side matches any value (a reduction or scan adds: a sum may overflow in one order and not another)"
            );
        }
        if !self.policy.amplified.is_empty() {
            let _ = writeln!(
                out,
                "  arguments {:?}: any number matches a number (an ill-conditioned function of an inexact value: sin, cos, tan, exp, exp2, sinh, cosh or pow)",
                self.policy.amplified
            );
        }
        if self.policy.f64_nan_payloads {
            let _ = writeln!(
                out,
                "  64-bit integers that read as f64 NaNs match any such NaN (f64 bitcast to integers: NaN payloads are open)"
            );
        }
        for b in &self.buffers {
            let name = types.to_string(b.elem, false);
            let dims: Vec<String> = b.shape.iter().map(usize::to_string).collect();
            let c = &b.compared;
            let verdict = if c.unchecked {
                format!(
                    "{} elements not compared (integers that may be computed from inexact floats)",
                    c.elements
                )
            } else if c.mismatches > 0 {
                format!("{} of {} elements MISMATCH", c.mismatches, c.elements)
            } else if c.inexact > 0 {
                format!(
                    "{} elements match ({} within the bound{}, worst {:.2} ulp)",
                    c.elements,
                    c.inexact,
                    if c.within_spread > 0 {
                        format!(
                            ", {} of them only within the spread of the interpreter's variant runs",
                            c.within_spread
                        )
                    } else {
                        String::new()
                    },
                    c.worst_ulps
                )
            } else {
                format!("{} elements match bit for bit", c.elements)
            };
            let _ = writeln!(
                out,
                "argument {} ({name} buffer {}): {verdict}",
                b.position,
                if dims.is_empty() {
                    "()".to_string()
                } else {
                    dims.join("x")
                }
            );
            for mm in &c.first {
                let _ = writeln!(
                    out,
                    "  element {}: gpu {} interpreter {}",
                    element_index(&b.shape, mm.index),
                    value_text(b.elem, mm.got),
                    value_text(b.elem, mm.want)
                );
            }
            if b.guard_writes.1 > 0 {
                let at: Vec<String> = b.guard_writes.0.iter().map(i64::to_string).collect();
                let _ = writeln!(
                    out,
                    "  {} bytes written outside the buffer (byte offsets {}{})",
                    b.guard_writes.1,
                    at.join(", "),
                    if b.guard_writes.1 > at.len() {
                        ", ..."
                    } else {
                        ""
                    }
                );
            }
        }
        out
    }
}

/// `[i, j]` for a row-major index into `shape`.
fn element_index(shape: &[usize], mut i: usize) -> String {
    if shape.len() <= 1 {
        return format!("[{i}]");
    }
    let mut c = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        let n = shape[d].max(1);
        c[d] = i % n;
        i /= n;
    }
    let c: Vec<String> = c.iter().map(usize::to_string).collect();
    format!("[{}]", c.join(", "))
}

/// Runs the interpreter on a copy of the case's memory.
///
/// # Errors
///
/// Undefined behaviour (or the op limit) on these inputs.
pub fn reference(case: &Case) -> Result<Memory, RunError> {
    reference_as(case, tilec_interp::Variant::default())
}

/// [`reference`] as the interpreter's `variant` run.
fn reference_as(case: &Case, variant: tilec_interp::Variant) -> Result<Memory, RunError> {
    let mut mem = case.bound.memory.clone();
    let opts = tilec_interp::Options {
        parallel: true,
        threads: 0,
        max_ops: Some(case.max_ops),
        conflicting_stores: true,
        variant,
    };
    tilec_interp::run_with(
        case.module,
        case.entry,
        case.grid,
        &case.bound.args,
        &mut mem,
        &opts,
    )?;
    Ok(mem)
}

/// The memories of the policy's variant runs ([`Policy::variants`]) that finish (one that
/// finds undefined behaviour on its path is left out).
fn variant_memories(case: &Case) -> Vec<Memory> {
    case.policy
        .variants()
        .into_iter()
        .filter_map(|v| reference_as(case, v).ok())
        .collect()
}

/// The entry's parameter types.
#[must_use]
pub fn entry_params(m: &Module, entry: Op) -> Vec<Type> {
    m.entry_block(m.region(entry, 0))
        .map(|b| m.block_args(b).iter().map(|v| m.value_type(*v)).collect())
        .unwrap_or_default()
}

/// The parameter values of a launch: buffers at `addresses` (by memory index).
///
/// # Errors
///
/// The PTX has no such kernel, or its `.param` list does not fit the entry.
pub fn marshal(case: &Case, addresses: &[u64]) -> Result<Vec<Vec<u8>>, String> {
    let types = &case.module.ctx.types;
    let params = entry_params(case.module, case.entry);
    let declared = ptx_params(case.ptx, case.kernel)
        .ok_or_else(|| format!("the PTX has no kernel '{}'", case.kernel))?;
    check_params(types, &params, &declared)?;
    Ok(params
        .iter()
        .zip(&case.bound.args)
        .map(|(t, a)| param_bytes(types, *t, a, addresses))
        .collect())
}

/// [`marshal`] with placeholder device addresses (256-byte aligned, one per buffer):
/// checks the arguments against the PTX without a device.
///
/// # Errors
///
/// As [`marshal`].
pub fn marshal_placeholder(case: &Case) -> Result<Vec<Vec<u8>>, String> {
    let addresses: Vec<u64> = (0..case.bound.memory.buffers.len() as u64)
        .map(|i| 0x7f00_0000_0000 + (i << 32))
        .collect();
    marshal(case, &addresses)
}

/// Runs `case` in the interpreter and on `backend`, and compares every buffer.
///
/// # Errors
///
/// See [`CheckError`].
pub fn check(backend: &mut dyn Backend, case: &Case) -> Result<Report, CheckError> {
    let want = reference(case).map_err(CheckError::Undefined)?;
    let r = on_device(backend, case, &want);
    backend.free_all();
    r
}

fn on_device(backend: &mut dyn Backend, case: &Case, want: &Memory) -> Result<Report, CheckError> {
    let types = &case.module.ctx.types;
    let kernel = backend.load(case.ptx, case.kernel)?;
    let initial = &case.bound.memory;
    let mut addresses = Vec::with_capacity(initial.buffers.len());
    for i in 0..initial.buffers.len() {
        let data = initial.bytes(i);
        let mut with_guards = vec![SENTINEL; GUARD];
        with_guards.extend_from_slice(&data);
        with_guards.extend(std::iter::repeat_n(SENTINEL, GUARD));
        addresses.push(backend.alloc(&with_guards)? + GUARD as u64);
    }
    let params = marshal(case, &addresses).map_err(CheckError::Params)?;
    let threads = tilec_ptx::kernel_threads(case.ptx, case.kernel).unwrap_or(32 * case.num_warps);
    backend.launch(kernel, case.grid, threads, &params)?;
    let mut buffers = Vec::new();
    let mut variants: Option<Vec<Memory>> = None;
    for b in &case.bound.buffers {
        let len = initial.buffers[b.index].len();
        let all = backend.read(addresses[b.index] - GUARD as u64, len + 2 * GUARD)?;
        let body = &all[GUARD..GUARD + len];
        let mut writes = Vec::new();
        let mut count = 0;
        for (i, &byte) in all.iter().enumerate() {
            if (GUARD..GUARD + len).contains(&i) || byte == SENTINEL {
                continue;
            }
            count += 1;
            if writes.len() < 4 {
                writes.push(i as i64 - GUARD as i64);
            }
        }
        let got = decode_elements(types, b.elem, body);
        let expect = decode_elements(types, b.elem, &want.bytes(b.index));
        let mut compared = compare_buffer(case, b.position, b.elem, &got, &expect, &[]);
        // Beyond the bound: checked again against the spread of other legitimate runs,
        // which the interpreter makes only now (they cost a run each).
        if compared.mismatches > 0 && !case.policy.exact() {
            let variants = variants.get_or_insert_with(|| variant_memories(case));
            let theirs: Vec<Vec<u64>> = variants
                .iter()
                .map(|v| decode_elements(types, b.elem, &v.bytes(b.index)))
                .collect();
            compared = compare_buffer(case, b.position, b.elem, &got, &expect, &theirs);
        }
        buffers.push(BufferReport {
            position: b.position,
            elem: b.elem,
            shape: b.shape.clone(),
            compared,
            guard_writes: (writes, count),
        });
    }
    Ok(Report {
        device: backend.describe(),
        policy: case.policy.clone(),
        buffers,
    })
}

/// The comparison of the buffer at parameter `position` under the case's policy, with
/// the same buffer from variant runs ([`compare_with`]).
fn compare_buffer(
    case: &Case,
    position: usize,
    elem: Type,
    got: &[u64],
    expect: &[u64],
    variants: &[Vec<u64>],
) -> Compared {
    let types = &case.module.ctx.types;
    // Inputs that make every accumulation exact (`force_exact`) leave nothing to relax.
    let relaxed = !case.policy.force_exact;
    if relaxed
        && case.policy.opaque_ints.contains(&position)
        && matches!(types.get(elem), tilec_ir::TypeData::Int(_))
    {
        Compared {
            elements: expect.len(),
            unchecked: true,
            ..Compared::default()
        }
    } else if relaxed
        && case.policy.amplified.contains(&position)
        && matches!(types.get(elem), tilec_ir::TypeData::Float(_))
    {
        // Any number matches a number; NaN is still held to NaN.
        let mut loose = case.policy.clone();
        loose.sources.push(crate::tolerance::Source {
            op: case.entry,
            what: "an ill-conditioned function of an inexact value".to_string(),
            relative: f64::INFINITY,
            approximate: false,
        });
        compare(types, elem, got, expect, &loose)
    } else {
        compare_with(types, elem, got, expect, &case.policy, variants)
    }
}

//! `convert-to-gpu`: tile IR to the GPU-level IR, and the GPU-level verifier.
//!
//! The pass gives every tile value of every `entry` a layout (a `#ttg.linear` encoding on
//! its type) and makes every data movement between threads explicit, so that the PTX
//! writer never decides anything about layouts: it reads them from the types and lowers
//! each op where it stands.
//!
//! Layouts are assigned in one forward walk in program order (docs/ptx-backend.md,
//! "Assignment"): loads, `iota` and `extract` produce the blocked layout (a view load that
//! only feeds a broadcast produces the layout the broadcast needs); elementwise ops
//! take the layout of their first non-constant operand; structural ops derive theirs
//! (`crate::layout`'s `broadcast_layout`, `permute_layout`, `cat_layout`, `reduce_layout`);
//! loop-carried values take the layout of their initial value and `if` results that of the
//! first value yielded. Constants take the layout of their first use. Where an operand
//! arrives in another layout than its op needs, the pass inserts
//!
//! * `ttg.convert_layout` when the conversion moves no data between threads (the two
//!   layouts give every thread the same elements, or the source is a constant that is
//!   simply materialised again), or
//! * `ttg.local_alloc` / `ttg.barrier local` / `ttg.local_load` / `ttg.local_dealloc`, a
//!   round trip through shared memory, otherwise.
//!
//! `mmaf`/`mmai` on tensor cores get C in the accumulator layout and A and B either in
//! their fragment layouts or staged in shared memory (`ttg.local_alloc`, with B permuted
//! and viewed through `ttg.memdesc_trans`), released by `ttg.local_dealloc` after the op;
//! in a K loop whose A and B come from view loads, the staging is pipelined over two
//! stages (`Assign::pipeline`: `ttg.memdesc_index`, `ttg.local_store`, async copies,
//! `ttg.predicate_stage` and `ttg.mask`).
//! `reduce` across warps, `scan`, `extract` and the `mmaf`/`mmai` fallback use shared
//! memory inside their own lowering; their operands and results are still explicit here.

use crate::layout::{
    Layout, broadcast_layout, broadcast_source, cat_layout, gather_layout, narrow_low,
    permute_layout, reduce_layout, shape_bits, widen_low,
};
use crate::mma::MmaPlan;

mod tma;
pub mod ws;
use crate::target::Options;
use std::ops::Not;
use std::rc::Rc;
use tilec_ir::attrs::{AttrData, PaddingValue};
use tilec_ir::segments::operand_group;
use tilec_ir::util::{FxHashMap, FxHashSet};
use tilec_ir::{EnumKind, InsertPoint, Module, Op, OpSpec, Opcode, Swizzle, Type, TypeData, Value};

/// The permutation that swaps the last two of `rank` dimensions.
/// The swizzle of a row-major shared-memory buffer of shape `shape` (its last dimension
/// K, the one the fragment registers run along) that tensor-core fragments are read from
/// with `ldmatrix`: 16-byte vectors (`vec = 16 / element bytes`) XORed with the row's
/// phase, so that the 8 rows of 16 bytes of one `ldmatrix` phase (8 consecutive rows at
/// the same column) fall into the 8 different 16-byte bank groups of a 128-byte line, and
/// so that 16-byte writes of consecutive vectors of a row stay conflict-free. A row of
/// `R` bytes covers `R / 16` groups, so `maxPhase = min(8, R / 16)` phases, each shared by
/// `perPhase = max(1, 128 / R)` rows (the rows that share a 128-byte line). Rows of 16
/// bytes or less need none (8 of them are one line).
pub fn mma_swizzle(shape: &[i64], elem: Type) -> Swizzle {
    let bytes = crate::sizes::elem_bytes(elem) as i64;
    let Some(&cols) = shape.last() else {
        return Swizzle::NONE;
    };
    let row = cols * bytes;
    if shape.len() < 2 || bytes > 16 || row <= 16 || !(row as u64).is_power_of_two() {
        return Swizzle::NONE;
    }
    Swizzle {
        vec: (16 / bytes) as u32,
        per_phase: (128 / row).max(1) as u32,
        max_phase: (row / 16).min(8) as u32,
    }
}

/// The 128-byte swizzle atoms side by side of a 2-D tile `[R, C]` staged column-blocked:
/// `Some(atoms)` when its rows are wider than one atom (a multiple of 128 bytes, elements
/// of 1, 2 or 4 bytes), which warpgroup MMA reads only as `[atoms x R x C / atoms]`, each
/// block one 128-byte swizzled matrix ([`crate::wgmma`]: A over several atoms along K, B
/// MN-major over several along N).
pub fn column_blocks(shape: &[i64], elem: Type) -> Option<i64> {
    let bytes = crate::sizes::elem_bytes(elem) as i64;
    let [_, cols] = shape else {
        return None;
    };
    let row = cols * bytes;
    (matches!(bytes, 1 | 2 | 4) && row > 128 && row % 128 == 0).then_some(row / 128)
}

/// A column-blocked stage ([`Assign::column_blocked_stage`]) as gpu-assign-layouts leaves
/// it: the empty buffer, its `ttg.memdesc_trans` and `ttg.memdesc_reshape` views, and the
/// `ttg.local_store` of the tile through the last.
#[derive(Clone, Copy)]
struct ColumnBlockedStage {
    alloc: Op,
    trans: Op,
    reshape: Op,
    store: Op,
    tile: Value,
}

/// The column-blocked stage read through view `v` whose tile is stored in `body`.
fn column_blocked_stage_of(
    m: &Module,
    v: Value,
    body: tilec_ir::Block,
) -> Option<ColumnBlockedStage> {
    let def = |v: Value, opcode: Opcode, operands: usize| {
        m.defining_op(v)
            .filter(|d| m.opcode(*d) == opcode && m.num_operands(*d) == operands)
    };
    let reshape = def(v, Opcode::MemDescReshape, 1)?;
    let trans = def(m.operand(reshape, 0), Opcode::MemDescTrans, 1)?;
    let alloc = def(m.operand(trans, 0), Opcode::LocalAlloc, 0)?;
    let store = m
        .users(v)
        .find(|u| m.opcode(*u) == Opcode::LocalStore && m.op_block(*u) == Some(body))?;
    Some(ColumnBlockedStage {
        alloc,
        trans,
        reshape,
        store,
        tile: m.operand(store, 0),
    })
}

/// The `!ttg.memdesc` of a column-blocked buffer of the 2-D tile `shape` (`atoms` blocks),
/// `[depth x] atoms x R x (C / atoms)`, each block swizzled as an operand matrix.
fn column_blocked_type(
    m: &mut Module,
    shape: &[i64],
    elem: Type,
    atoms: i64,
    depth: Option<i64>,
) -> Type {
    let block = [shape[0], shape[1] / atoms];
    let dims: Vec<i64> = depth
        .into_iter()
        .chain([atoms])
        .chain(block.iter().copied())
        .collect();
    m.ctx.types.intern(TypeData::MemDesc {
        order: tilec_ir::TypeStore::row_major_order(dims.len()),
        shape: dims.into(),
        elem,
        mutable: true,
        swizzle: mma_swizzle(&block, elem),
    })
}

/// The largest constant step a K loop may have and be pipelined: its steps ahead
/// (`(n - 1) x step`, n at most 6) stay far inside i32.
const MAX_PIPELINED_STEP: i64 = 1 << 24;

/// The layouts of a `K x N` tile made K-major through registers over `2^warp_bits`
/// warps: each thread's registers start with a 4 x 4 block, N bits 0-1 then K bits 0-1
/// (rows of 4 elements to read as vectors), and the same threads with K bits 0-1 first
/// (to write 4 elements along K as a vector once transposed); the lanes and warps take
/// the other bits in ascending order. `None` when a dimension has fewer than 4.
fn k_major_blocks(shape: &[i64], warp_bits: u32) -> Option<(Layout, Layout)> {
    let [k, n] = shape else {
        return None;
    };
    let (kb, nb) = (crate::mma::log2(*k)?, crate::mma::log2(*n)?);
    if kb < 2 || nb < 2 {
        return None;
    }
    let nb = nb as u8;
    let nbits = kb + u32::from(nb);
    let block = [0, 1, nb, nb + 1];
    let mut rest = (0..nbits as u8).filter(|b| !block.contains(b));
    let lane: [Option<u8>; 5] = std::array::from_fn(|_| rest.next());
    let warp: Vec<Option<u8>> = (0..warp_bits).map(|_| rest.next()).collect();
    let rows = Layout::with_free_registers(nbits, block.to_vec(), lane, warp.clone());
    let mut reg = rows.reg.clone();
    reg.swap(0, 2);
    reg.swap(1, 3);
    let cols = Layout {
        nbits,
        reg,
        lane,
        warp,
    };
    Some((rows, cols))
}

/// The step of `for` loop `f` when it is a constant from 1 to [`MAX_PIPELINED_STEP`]:
/// a pipelined K loop's stages and phases count its iterations, `(k - lb) / step`.
pub(crate) fn constant_step(m: &Module, f: Op) -> Option<i64> {
    let d = m.defining_op(m.operand(f, 2))?;
    if m.opcode(d) != Opcode::Constant {
        return None;
    }
    match m.attr(d, 0).map(|a| m.ctx.attrs.get(a)) {
        Some(AttrData::Dense(x)) => x
            .values
            .first()
            .map(|v| *v as i64)
            .filter(|v| (1..=MAX_PIPELINED_STEP).contains(v)),
        _ => None,
    }
}

fn swap_last_two(rank: usize) -> Vec<usize> {
    let mut p: Vec<usize> = (0..rank).collect();
    p.swap(rank - 2, rank - 1);
    p
}

/// Shared memory the tensor-core lowering may stage the A and B operands of an
/// unpipelined product in, at least (more where the kernel may use more).
const MMA_STAGED_BYTES: u64 = 32 * 1024;

/// The attribute gpu-assign-layouts records on a product whose K loop is to be pipelined:
/// the number of shared-memory stages of A (2 to 6), which gpu-pipeline builds.
pub const STAGES_ATTR: &str = "ttg.pipeline_stages";

/// Converts every `entry` of `m` to the GPU-level IR, in place.
pub fn convert_to_gpu(m: &mut Module, opts: &Options) {
    convert_to_gpu_remarks(m, opts);
}

/// Whether product `op` (in the body of `for` `f`) accumulates in place over the loop:
/// its accumulator is a value the loop carries, used by nothing else in the body, and its
/// result is what the loop carries on, used by nothing else. A warpgroup MMA can then
/// stay in flight until the next K step's (its accumulator registers are the carried
/// ones, touched by no other instruction).
pub fn accumulates_in_place(m: &Module, op: Op, f: Op) -> bool {
    let Some(body) = m.op_block(op) else {
        return false;
    };
    if m.block_parent_op(body) != Some(f) || m.num_operands(op) < 3 {
        return false;
    }
    let acc = m.operand(op, 2);
    let Some(pos) = m.block_args(body).iter().position(|a| *a == acc) else {
        return false;
    };
    if pos == 0 || m.num_uses(acc) != 1 || m.num_results(op) != 1 {
        return false;
    }
    let r = m.result(op, 0);
    let Some(term) = m.last_op(body) else {
        return false;
    };
    m.opcode(term) == Opcode::Continue
        && m.num_uses(r) == 1
        && m.num_operands(term) >= pos
        && m.operand(term, pos - 1) == r
}

/// Whether the A operand of product `op` in loop `f` is computed in the loop (a block
/// argument or a result of an op inside `f`): written again at every K step, in its
/// registers or in its one buffer, outside the rotating stages of a pipeline. A warpgroup
/// MMA that stayed in flight into the next step would read it while the next step
/// rewrites it (`mov.b32` into the A fragment of the `wgmma.mma_async` still running:
/// structured random kernel 3029, A doubled in the loop).
pub fn a_computed_in_loop(m: &Module, op: Op, f: Op) -> bool {
    ws::defined_in(m, m.operand(op, 0), f)
}

/// Whether product `op` in K loop `f` may stay in flight into the next K step: a
/// warpgroup MMA (`wgmma`) accumulating in place over the loop whose A is one of the
/// pipeline's loads (`a_pipelined`: in rotating stages) or not computed in the loop.
fn may_stay_in_flight(m: &Module, op: Op, f: Op, wgmma: bool, a_pipelined: bool) -> bool {
    wgmma && accumulates_in_place(m, op, f) && (a_pipelined || !a_computed_in_loop(m, op, f))
}

/// The stages a pipelined K loop gets when `--num-stages` does not say (fewer when they
/// do not fit the shared memory).
pub const DEFAULT_STAGES: u32 = 4;

/// [`convert_to_gpu`], returning its remarks: why a K loop is pipelined over fewer stages
/// than asked, or not at all, and how many stages each pipelined loop got (each located
/// at its loop), then the width of every global access through a view. It runs
/// [`GpuPass::CONVERT_TO_GPU`]'s passes but the verifier.
pub fn convert_to_gpu_remarks(m: &mut Module, opts: &Options) -> Vec<tilec_diag::Diagnostic> {
    let mut remarks = assign_layouts(m, opts);
    remarks.extend(pipeline_loops(m, opts));
    remarks.extend(crate::vectorize::vectorize(m, opts.warp_bits()));
    crate::smem::allocate_shared(m);
    remarks
}

/// The passes from tile IR to the GPU-level IR, each of which `tilec opt -p` runs and
/// prints on its own (its output parses back).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GpuPass {
    /// `gpu-assign-layouts`: tile IR to GPU-level IR: a layout for every tile value,
    /// conversions between layouts, tensor-core instructions (`ttg.mma`) and their
    /// operands staged in swizzled shared memory, pipelined K loops.
    AssignLayouts,
    /// `gpu-pipeline`: the N-stage pipelines of the K loops gpu-assign-layouts chose
    /// (`ttg.pipeline_stages` on a product with staged operands).
    Pipeline,
    /// `gpu-vectorize`: the width of every global access (`ttg.vector`).
    Vectorize,
    /// `gpu-allocate-shared`: the place of every shared-memory buffer
    /// (`allocation.offset`).
    AllocateShared,
    /// `gpu-verify`: the GPU-level verifier ([`verify_gpu`]).
    Verify,
}

impl GpuPass {
    pub const ALL: [GpuPass; 5] = [
        GpuPass::AssignLayouts,
        GpuPass::Pipeline,
        GpuPass::Vectorize,
        GpuPass::AllocateShared,
        GpuPass::Verify,
    ];

    /// `convert-to-gpu`: every pass, in order.
    pub const CONVERT_TO_GPU: [GpuPass; 5] = GpuPass::ALL;

    pub fn name(self) -> &'static str {
        match self {
            GpuPass::AssignLayouts => "gpu-assign-layouts",
            GpuPass::Pipeline => "gpu-pipeline",
            GpuPass::Vectorize => "gpu-vectorize",
            GpuPass::AllocateShared => "gpu-allocate-shared",
            GpuPass::Verify => "gpu-verify",
        }
    }

    /// The pass named `name`; `convert-to-gpu` is all of them.
    pub fn from_name(name: &str) -> Option<Vec<GpuPass>> {
        if name == "convert-to-gpu" {
            return Some(GpuPass::CONVERT_TO_GPU.to_vec());
        }
        GpuPass::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .map(|p| vec![p])
    }

    /// Runs the pass on `m` (GPU-level IR but for [`GpuPass::AssignLayouts`], which
    /// takes tile IR): its remarks, or the verifier's errors.
    pub fn run(
        self,
        m: &mut Module,
        opts: &Options,
    ) -> Result<Vec<tilec_diag::Diagnostic>, Vec<GpuError>> {
        Ok(match self {
            GpuPass::AssignLayouts => assign_layouts(m, opts),
            GpuPass::Pipeline => pipeline_loops(m, opts),
            GpuPass::Vectorize => crate::vectorize::vectorize(m, opts.warp_bits()),
            GpuPass::AllocateShared => {
                crate::smem::allocate_shared(m);
                Vec::new()
            }
            GpuPass::Verify => {
                verify_gpu(m, opts)?;
                Vec::new()
            }
        })
    }
}

/// The `gpu-pipeline` pass ([`GpuPass::Pipeline`]): builds the pipeline of every product
/// that records [`STAGES_ATTR`] over its staged operands (`Assign::expand_pipeline`).
pub fn pipeline_loops(m: &mut Module, opts: &Options) -> Vec<tilec_diag::Diagnostic> {
    let mut remarks = Vec::new();
    for e in entries(m) {
        let mut products = Vec::new();
        m.walk_op(e, &mut |op| {
            if matches!(m.opcode(op), Opcode::MmaF | Opcode::MmaI)
                && m.attr_named(op, STAGES_ATTR).is_some()
            {
                products.push(op);
            }
        });
        let stores = opts.arch == crate::target::Arch::Sm90a && opts.tma;
        if products.is_empty() && !stores {
            continue;
        }
        // The layouts the types carry, made for the entry's warps.
        let warp_bits = entry_warp_bits(m, e).unwrap_or(opts.warp_bits());
        let mut layout = FxHashMap::default();
        for (v, _) in entry_values(m, e) {
            let ty = m.value_type(v);
            let types = &m.ctx.types;
            if let Some(l) = types.encoding(ty).and_then(|enc| {
                Layout::from_encoding(types.get(enc), types.shape(ty), warp_bits).ok()
            }) {
                layout.insert(v, Rc::new(l));
            }
        }
        let body = m.entry_block(m.region(e, 0));
        let mut a = Assign {
            m,
            warp_bits,
            arch: opts.arch,
            tma: opts.tma,
            ws: opts.warp_specialize,
            layout,
            ifs: Vec::new(),
            loops: Vec::new(),
            prefer: FxHashMap::default(),
            hoisted: FxHashSet::default(),
            pipelined_smem: FxHashMap::default(),
            carried: FxHashMap::default(),
            learned: FxHashMap::default(),
            body,
            stages: opts.num_stages,
            smem_limit: opts.smem_limit(),
            remarks: Vec::new(),
            vec_bits: FxHashMap::default(),
            pending_ws: Vec::new(),
            ws_refused: FxHashSet::default(),
        };
        a.vec_bits = global_vec_bits(a.m, e);
        for op in products {
            a.expand_pipeline(op);
        }
        a.split_pending();
        a.tma_stores(e);
        a.finish(e);
        remarks.append(&mut a.remarks);
        // A warp-specialized kernel sets its warps' registers itself (`setmaxnreg`),
        // which a register cap from the occupancy hint would contradict.
        if ws::partition_warps(m, e) > 0 {
            m.remove_extra_attr(e, crate::cluster::MAX_REGISTERS_ATTR);
        }
        if ws::partition_warps(m, e) > 0
            && let Some(n) = crate::cluster::entry_min_ctas(m, e)
        {
            m.remove_extra_attr(e, crate::cluster::MIN_CTAS_ATTR);
            remarks.push(remark_at(
                m,
                tilec_diag::codes::CLUSTER,
                e,
                format!(
                    "the occupancy hint ({n} CTAs per SM) is not applied: the warp-specialized kernel sets its warps' registers (setmaxnreg)"
                ),
            ));
        }
    }
    remarks
}

/// A remark of code `code` located at `at`.
fn remark_at(m: &Module, code: &'static str, at: Op, message: String) -> tilec_diag::Diagnostic {
    let span = m.op_span(at).unwrap_or(tilec_diag::Span::new(0, 0));
    let file = m.file().unwrap_or(tilec_diag::FileId(0));
    tilec_diag::Diagnostic::remark(code, message).at(tilec_diag::Location::new(file, span))
}

/// The `gpu-assign-layouts` pass ([`GpuPass::AssignLayouts`]), with its remarks on the
/// pipelines.
pub fn assign_layouts(m: &mut Module, opts: &Options) -> Vec<tilec_diag::Diagnostic> {
    let mut remarks = Vec::new();
    for e in entries(m) {
        let ctas = crate::cluster::requested_ctas(m, e, opts);
        if ctas > 1 {
            let (at, message) = match crate::cluster::split_cluster(m, e, ctas) {
                Ok(()) => (
                    e,
                    format!("the tile block is spread over a cluster of {ctas} CTAs"),
                ),
                Err((at, why)) => (
                    at,
                    format!("the tile block stays on one CTA, not a cluster of {ctas}: {why}"),
                ),
            };
            remarks.push(remark_at(m, tilec_diag::codes::CLUSTER, at, message));
        }
        crate::cluster::record_occupancy(m, e, opts);
        if opts.arch == crate::target::Arch::Sm90a && opts.tma {
            tma::transposed_b_loads(m, e, opts.arch);
        }
        let chosen = |m: &Module| {
            let w = choose_warps(m, e);
            // On sm_90a no more warps than lets every product run on warpgroup MMA.
            match (opts.arch == crate::target::Arch::Sm90a)
                .then(|| wgmma_warp_cap(m, e))
                .flatten()
            {
                Some(cap) => w.min(cap),
                None => w,
            }
        };
        // `--num-warps`, else the kernel's `num_worker_warps_per_cta` hint, else chosen
        // from its tiles.
        let hinted = crate::hints::int_hint(m, e, opts.arch, "num_worker_warps_per_cta");
        let warps = match hinted {
            _ if !opts.choose_warps => opts.num_warps,
            Some(w) if (1..=16).contains(&w) && w.count_ones() == 1 => {
                remarks.push(remark_at(
                    m,
                    tilec_diag::codes::HINTS,
                    e,
                    format!("{w} warps per CTA, as the num_worker_warps_per_cta hint asks"),
                ));
                w as u32
            }
            Some(w) => {
                let c = chosen(m);
                remarks.push(remark_at(
                    m,
                    tilec_diag::codes::HINTS,
                    e,
                    format!(
                        "the num_worker_warps_per_cta hint ({w}) is not applied: tilec runs 1, 2, 4, 8 or 16 warps per CTA; {c} chosen from the tiles"
                    ),
                ));
                c
            }
            None => chosen(m),
        };
        crate::cluster::record_register_budget(m, e, warps);
        // A first walk, on a copy, when a loop carries a value from a constant: the layouts
        // its body carries such values on in (one walk is forward only).
        // (A product's accumulator carried from a constant already has its layout:
        // `Assign::carried_acc`; GEMM loops need no first walk.)
        let carries_constants = {
            let mut any = false;
            m.walk_op(e, &mut |op| {
                if m.opcode(op) != Opcode::For {
                    return;
                }
                let yielded: Vec<Value> = m
                    .entry_block(m.region(op, 0))
                    .and_then(|b| m.last_op(b))
                    .map(|t| m.operands(t).collect())
                    .unwrap_or_default();
                let inits = operand_group(m, op, "initValues");
                any |= inits.iter().enumerate().any(|(i, v)| {
                    let from_product = yielded
                        .get(i)
                        .and_then(|y| m.defining_op(*y))
                        .is_some_and(|d| matches!(m.opcode(d), Opcode::MmaF | Opcode::MmaI));
                    !from_product
                        && m.defining_op(*v)
                            .is_some_and(|d| m.opcode(d) == Opcode::Constant)
                });
            });
            any
        };
        let carried = if carries_constants {
            let mut probe = m.clone();
            let mut a = Assign::new(&mut probe, warps.trailing_zeros(), opts);
            a.vec_bits = global_vec_bits(a.m, e);
            a.entry(e);
            std::mem::take(&mut a.learned)
        } else {
            FxHashMap::default()
        };
        let mut a = Assign::new(m, warps.trailing_zeros(), opts);
        a.carried = carried;
        a.vec_bits = global_vec_bits(a.m, e);
        a.entry(e);
        a.finish(e);
        remarks.append(&mut a.remarks);
    }
    remarks
}

impl<'a> Assign<'a> {
    /// A walk over `m` with `warp_bits` of warps and the target options.
    fn new(m: &'a mut Module, warp_bits: u32, opts: &Options) -> Assign<'a> {
        Assign {
            m,
            warp_bits,
            arch: opts.arch,
            tma: opts.tma,
            ws: opts.warp_specialize,
            layout: FxHashMap::default(),
            ifs: Vec::new(),
            loops: Vec::new(),
            prefer: FxHashMap::default(),
            hoisted: FxHashSet::default(),
            pipelined_smem: FxHashMap::default(),
            carried: FxHashMap::default(),
            learned: FxHashMap::default(),
            body: None,
            stages: opts.num_stages,
            smem_limit: opts.smem_limit(),
            remarks: Vec::new(),
            vec_bits: FxHashMap::default(),
            pending_ws: Vec::new(),
            ws_refused: FxHashSet::default(),
        }
    }
}

/// A frame of the walk for a `for` or `loop`: the carried values' layouts and the
/// results' layouts (chosen by the first `break`).
struct LoopFrame {
    op: Op,
    iter: Vec<Rc<Layout>>,
    results: Vec<Option<Rc<Layout>>>,
}

struct Assign<'a> {
    m: &'a mut Module,
    warp_bits: u32,
    arch: crate::target::Arch,
    /// `Options::tma`.
    tma: bool,
    /// `Options::warp_specialize`.
    ws: bool,
    layout: FxHashMap<Value, Rc<Layout>>,
    ifs: Vec<(Op, Vec<Option<Rc<Layout>>>)>,
    loops: Vec<LoopFrame>,
    /// Layouts some load results are better produced in (`prefer_broadcast_sources`).
    prefer: FxHashMap<Value, Rc<Layout>>,
    /// Operand buffers staged once before the loops around their product
    /// (`staged_buffer`), released after them rather than after the product.
    hoisted: FxHashSet<Value>,
    /// Shared memory the stages of the pipelines built so far in each loop take (by
    /// `for`): a loop's pipelines share its budget.
    pipelined_smem: FxHashMap<Op, u64>,
    /// Layouts for the values `for` loops carry from a constant (by loop and position),
    /// learned by a first walk ([`assign_layouts`]): the layout the body carries them on
    /// in, so that the loop needs no conversion of them.
    carried: FxHashMap<(Op, usize), Rc<Layout>>,
    /// What this walk learned for [`Assign::carried`]: a value carried from a constant
    /// whose body yields it in another layout.
    learned: FxHashMap<(Op, usize), Rc<Layout>>,
    /// The body block of the entry being converted.
    body: Option<tilec_ir::Block>,
    /// `Options::num_stages` (`None`: [`DEFAULT_STAGES`], fewer if they do not fit).
    stages: Option<u32>,
    /// `Options::smem_limit`.
    smem_limit: u32,
    /// Remarks on the pipelines (`convert_to_gpu_remarks`).
    remarks: Vec<tilec_diag::Diagnostic>,
    /// The copy-engine pipelines to warp-specialize, by K loop, once every product of
    /// the entry is planned ([`Assign::split_pending`]).
    pending_ws: Vec<(Op, ws::WsPipeline)>,
    /// The K loops one of whose pipelines could not be warp-specialized: none of their
    /// pipelines is.
    ws_refused: FxHashSet<Op>,
    /// log2 of the most contiguous elements a thread holds in the `blocked` layout, by
    /// tile size ([`global_vec_bits`]).
    vec_bits: FxHashMap<u32, u32>,
}

/// log2 of the elements per thread that make the entry's `blocked` vectors 16 bytes, per
/// tile size (log2 of the element count: the `blocked` layout is defined on the linear
/// index, so reshapes share it): 2 (four elements) unless every tile of that size the
/// entry loads or stores in global memory has 16-bit elements (3: eight) or bytes (4:
/// sixteen; 3 for a product's operands). One width per size, so that tiles of one size loaded and stored with
/// different element types (an f16 load widened to f32 and stored) share one layout and
/// never convert between widths; the f16 operands of a product get 16-byte vectors beside
/// its f32 accumulator.
fn global_vec_bits(m: &Module, entry: Op) -> FxHashMap<u32, u32> {
    let mut widest: FxHashMap<u32, u32> = FxHashMap::default();
    // Sizes of tiles loaded straight into a product: their bytes stop at eight per thread
    // (sixteen i8 operands, held sign-extended in 32-bit registers, made the i8 product of
    // examples/mma_types.tile spill).
    let mut mma_operand: tilec_ir::util::FxHashSet<u32> = Default::default();
    m.walk_op(entry, &mut |op| {
        // The tile a global load or store moves (the ops the writer vectorises; async
        // copies come later, from the pipelines).
        let tile = crate::vectorize::global_access(m, op)
            .filter(|(a, _)| *a != crate::vectorize::Access::AsyncCopy)
            .map(|(_, t)| t);
        if let Some(t) = tile {
            let ty = m.value_type(t);
            let elem = m.ctx.types.element_type(ty);
            // Element bytes where 16 of them move as packed words, else 4 (the width
            // the ordinary four-element vectors are made for).
            let size = crate::sizes::elem_bytes(elem);
            let bytes = if crate::sizes::packed_words(elem, (16 / size) as usize).is_some() {
                size
            } else {
                4
            };
            let nbits = shape_bits(m.ctx.types.shape(ty));
            let w = widest.entry(nbits).or_insert(0);
            *w = (*w).max(bytes);
            if m.users(t)
                .any(|u| matches!(m.opcode(u), Opcode::MmaF | Opcode::MmaI))
            {
                mma_operand.insert(nbits);
            }
        }
    });
    widest
        .into_iter()
        .map(|(nbits, bytes)| {
            let vec_bits = match bytes {
                1 if !mma_operand.contains(&nbits) => 4,
                1 | 2 => 3,
                _ => 2,
            };
            (nbits, vec_bits)
        })
        .collect()
}

impl Assign<'_> {
    fn shape(&self, v: Value) -> Vec<i64> {
        self.m.ctx.types.shape(self.m.value_type(v)).to_vec()
    }

    fn is_tile(&self, v: Value) -> bool {
        self.m.ctx.types.is_tile(self.m.value_type(v))
    }

    fn is_constant(&self, v: Value) -> bool {
        self.m
            .defining_op(v)
            .is_some_and(|d| self.m.opcode(d) == Opcode::Constant)
    }

    /// log2 of the `blocked` vector for tiles of `2^nbits` elements ([`global_vec_bits`]).
    fn vec_bits_for(&self, nbits: u32) -> u32 {
        self.vec_bits.get(&nbits).copied().unwrap_or(2)
    }

    fn blocked(&self, shape: &[i64]) -> Rc<Layout> {
        let nbits = shape_bits(shape);
        Rc::new(Layout::blocked_vec(
            nbits,
            self.warp_bits,
            self.vec_bits_for(nbits),
        ))
    }

    /// The blocked layout of a tile accessed through view `view_v`: blocked in the order
    /// of the elements in memory, so that consecutive lanes and a thread's vector run
    /// along the view's innermost dimension, also when a transposing `dim_map` puts it on
    /// another tile dimension than the last (then the tile's layout is the blocked layout
    /// of the tile permuted into the view's order, permuted back).
    fn view_blocked(&self, view_v: Value, shape: &[i64]) -> Rc<Layout> {
        let dim_map: Vec<usize> = match self.m.ctx.types.get(self.m.value_type(view_v)) {
            TypeData::PartitionView { dim_map, .. } | TypeData::StridedView { dim_map, .. } => {
                dim_map.iter().map(|d| *d as usize).collect()
            }
            _ => Vec::new(),
        };
        let identity = dim_map.iter().enumerate().all(|(i, d)| i == *d);
        if dim_map.len() != shape.len() || identity {
            return self.blocked(shape);
        }
        // Memory order: dimension j of `ms` is the tile dimension on view dimension j.
        let mut ms = vec![0; shape.len()];
        for (i, d) in dim_map.iter().enumerate() {
            match ms.get_mut(*d) {
                Some(x) => *x = shape[i],
                None => return self.blocked(shape),
            }
        }
        Rc::new(permute_layout(&self.blocked(&ms), &ms, shape, &dim_map))
    }

    fn scalar(&self) -> Rc<Layout> {
        Rc::new(Layout::replicated(0, self.warp_bits))
    }

    fn set(&mut self, v: Value, l: Rc<Layout>) {
        self.layout.insert(v, l);
    }

    /// Operand `i` of `op`, in whatever layout it has. A constant is wanted in the blocked
    /// layout (the writer materialises constants there when nothing asks otherwise).
    fn any(&mut self, op: Op, i: usize) -> Rc<Layout> {
        let v = self.m.operand(op, i);
        if !self.is_tile(v) {
            return self.scalar();
        }
        if self.is_constant(v) || !self.layout.contains_key(&v) {
            let l = self.blocked(&self.shape(v));
            self.want(op, i, &l);
            return l;
        }
        self.layout[&v].clone()
    }

    /// Operand `i` of `op` in layout `l`: converts it before `op` when it is in another.
    fn want(&mut self, op: Op, i: usize, l: &Rc<Layout>) {
        let v = self.m.operand(op, i);
        if !self.is_tile(v) {
            return;
        }
        let Some(from) = self.layout.get(&v).cloned() else {
            // First use of a constant (or of a value nothing defined a layout for).
            self.set(v, l.clone());
            return;
        };
        if *from == **l {
            return;
        }
        let free = self.is_constant(v) || from.converts_freely(l);
        if !free && self.rematerialize_broadcast(op, i, l) {
            return;
        }
        let ty = self.m.value_type(v);
        let span = self.m.op_span(op);
        let loc = self.m.op_loc(op);
        // A value from outside the loops around `op` is converted once, before them.
        let at = self.hoist_point(op, v);
        // Tiles over STAGE_BYTES convert in chunks inside one `ttg.convert_layout` (a single
        // buffer would not fit the 48 KiB of static shared memory).
        let elem = self.m.ctx.types.element_type(ty);
        let big = (crate::sizes::elem_bytes(elem) as u64) << from.nbits > crate::sizes::STAGE_BYTES;
        let mut created = Vec::new();
        let new = if free || big {
            let c = self.create(Opcode::ConvertLayout, &[v], &[ty], &[], at);
            created.push(c);
            self.m.result(c, 0)
        } else {
            // Swizzled where the writer stores the tile with `stmatrix` (8 rows of 16 bytes
            // at once, which an unswizzled buffer puts in one bank group).
            let swizzled = self.stmatrix_swizzle(v, &from);
            let buf = self.alloc_buffer(v, at, swizzled);
            let alloc = self.m.defining_op(buf).expect("local_alloc");
            let bar = self.cta_barrier_at(InsertPoint::Before(at), at);
            let load = self.create(Opcode::LocalLoad, &[buf], &[ty], &[], at);
            let dealloc = self.create(Opcode::LocalDealloc, &[buf], &[], &[], at);
            created.extend([alloc, bar, load, dealloc]);
            self.m.result(load, 0)
        };
        for c in created {
            self.m.set_op_span(c, span);
            self.m.set_op_loc(c, loc);
        }
        self.set(new, l.clone());
        self.m.set_operand(op, i, new);
    }

    /// Where to put the ops that prepare value `v` for `op`: before the outermost `for` or
    /// `loop` around `op` (crossing only loops) that `v` is not defined in, so that a
    /// loop-invariant tile is converted or staged once; `op` itself otherwise.
    fn hoist_point(&self, op: Op, v: Value) -> Op {
        let m = &*self.m;
        let def_block = match m.value_def(v) {
            tilec_ir::ValueDef::Result(d, _) => m.op_block(d),
            tilec_ir::ValueDef::Arg(b, _) => Some(b),
            _ => None,
        };
        // Whether block `b` is inside op `p`'s regions (at any depth).
        let inside = |mut b: tilec_ir::Block, p: Op| loop {
            match m.block_parent_op(b) {
                Some(o) if o == p => return true,
                Some(o) => match m.op_block(o) {
                    Some(ob) => b = ob,
                    None => return false,
                },
                None => return false,
            }
        };
        let mut at = op;
        while let Some(parent) = m.op_block(at).and_then(|b| m.block_parent_op(b)) {
            if !matches!(m.opcode(parent), Opcode::For | Opcode::Loop)
                || def_block.is_none_or(|b| inside(b, parent))
            {
                break;
            }
            at = parent;
        }
        at
    }

    /// Operand `i` of `op` is a `broadcast` result in another layout than `l`: a copy of
    /// the broadcast right before `op` makes it in `l` from its (smaller) source, wanted in
    /// the layout that broadcasts to `l` in registers, instead of moving the whole
    /// broadcast tile through shared memory (a scale, a row max or a mask row combined
    /// with a product's accumulator). False when the operand is no broadcast.
    fn rematerialize_broadcast(&mut self, op: Op, i: usize, l: &Rc<Layout>) -> bool {
        let v = self.m.operand(op, i);
        let Some(b) = self
            .m
            .defining_op(v)
            .filter(|b| self.m.opcode(*b) == Opcode::Broadcast)
        else {
            return false;
        };
        let converted = self.m.operand(b, 0);
        if !self.is_tile(converted) {
            return false;
        }
        // The source as it was before this walk converted it for the first broadcast.
        let src = self.unconverted(converted);
        let (ss, rs) = (self.shape(src), self.shape(v));
        let attrs: Vec<Option<tilec_ir::Attr>> = (0..self.m.def(b).attrs.len())
            .map(|k| self.m.attr(b, k))
            .collect();
        let ty = self.m.value_type(v);
        let copy = self.create(Opcode::Broadcast, &[src], &[ty], &attrs, op);
        let need = Rc::new(broadcast_source(l, &ss, &rs));
        self.want(copy, 0, &need);
        let r = self.m.result(copy, 0);
        self.set(r, l.clone());
        self.m.set_operand(op, i, r);
        if !self.m.has_uses(v) {
            self.m.erase_op(b);
            if converted != src {
                self.erase_dead_conversion(converted);
            }
        }
        true
    }

    /// The value a conversion this walk inserted (`ttg.convert_layout`, or the
    /// `local_alloc`, barrier, `local_load`, `local_dealloc` round trip) converts, else
    /// `v` itself.
    fn unconverted(&self, v: Value) -> Value {
        let m = &*self.m;
        let Some(d) = m.defining_op(v) else {
            return v;
        };
        if m.opcode(d) == Opcode::ConvertLayout {
            return m.operand(d, 0);
        }
        // The round trip: `local_load` of a buffer `local_alloc` filled with the value.
        if m.opcode(d) != Opcode::LocalLoad {
            return v;
        }
        m.defining_op(m.operand(d, 0))
            .filter(|a| m.opcode(*a) == Opcode::LocalAlloc && m.num_operands(*a) == 1)
            .map_or(v, |a| m.operand(a, 0))
    }

    /// Erases the conversion that defines `v` (see [`Assign::unconverted`]) when nothing
    /// uses `v` any more.
    fn erase_dead_conversion(&mut self, v: Value) {
        if self.m.has_uses(v) {
            return;
        }
        let Some(d) = self.m.defining_op(v) else {
            return;
        };
        if self.m.opcode(d) == Opcode::ConvertLayout {
            self.m.erase_op(d);
            return;
        }
        if self.m.opcode(d) != Opcode::LocalLoad {
            return;
        }
        let buf = self.m.operand(d, 0);
        let bar = self
            .m
            .prev_op(d)
            .filter(|b| self.m.opcode(*b) == Opcode::GpuBarrier);
        self.m.erase_op(d);
        if let Some(b) = bar {
            self.m.erase_op(b);
        }
        let users: Vec<Op> = self.m.users(buf).collect();
        if users
            .iter()
            .all(|u| self.m.opcode(*u) == Opcode::LocalDealloc)
        {
            for u in users {
                self.m.erase_op(u);
            }
            if let Some(a) = self.m.defining_op(buf) {
                self.m.erase_op(a);
            }
        }
    }

    fn create(
        &mut self,
        opcode: Opcode,
        operands: &[Value],
        results: &[Type],
        attrs: &[Option<tilec_ir::Attr>],
        before: Op,
    ) -> Op {
        self.create_at(
            opcode,
            operands,
            results,
            attrs,
            InsertPoint::Before(before),
            before,
        )
    }

    fn entry(&mut self, e: Op) {
        let Some(block) = self.m.entry_block(self.m.region(e, 0)) else {
            return;
        };
        self.prefer_broadcast_sources(e);
        self.body = Some(block);
        for a in self.m.block_args(block).to_vec() {
            // Kernel arguments are rank-0 (the writer reports any other); a layout that
            // covers the argument's shape keeps the GPU-level IR valid either way.
            let bits = if self.is_tile(a) {
                shape_bits(&self.shape(a))
            } else {
                0
            };
            self.set(a, Rc::new(Layout::replicated(bits, self.warp_bits)));
        }
        self.block(block);
    }

    /// Loads whose only use is (through `reshape`s and one-operand elementwise ops, each
    /// used once) the source of a `broadcast` load straight into the layout that
    /// broadcasts to `blocked` in registers ([`broadcast_source`]): threads that share the
    /// broadcast elements read the same addresses, which is cheaper than loading in
    /// `blocked` and moving the tile through shared memory (a bias row added to a matrix).
    fn prefer_broadcast_sources(&mut self, e: Op) {
        let mut casts = Vec::new();
        self.m.walk_op(e, &mut |op| {
            if self.m.opcode(op) == Opcode::Broadcast {
                casts.push(op);
            }
        });
        for b in casts {
            let src = self.m.operand(b, 0);
            if !self.is_tile(src) {
                continue;
            }
            let (ss, rs) = (self.shape(src), self.shape(self.m.result(b, 0)));
            let need = Rc::new(broadcast_source(&self.blocked(&rs), &ss, &rs));
            let mut v = src;
            loop {
                if self.m.num_uses(v) != 1 {
                    break;
                }
                let Some(d) = self.m.defining_op(v) else {
                    break;
                };
                let def = self.m.def(d);
                let through = self.m.opcode(d) == Opcode::Reshape
                    || (def.traits.contains(
                        tilec_ir::ops::Traits::PURE.or(tilec_ir::ops::Traits::ELEMENTWISE),
                    ) && self.m.num_operands(d) == 1
                        && self.m.num_results(d) == 1);
                if through {
                    v = self.m.operand(d, 0);
                    continue;
                }
                if self.m.opcode(d) == Opcode::LoadViewTko && self.m.result(d, 0) == v {
                    self.prefer.insert(v, need.clone());
                }
                break;
            }
        }
    }

    fn block(&mut self, b: tilec_ir::Block) {
        let ops: Vec<Op> = self.m.block_ops(b).collect();
        for op in ops {
            self.op(op);
        }
    }

    fn body(&mut self, op: Op, r: usize) {
        if let Some(b) = self.m.regions(op).get(r).copied()
            && let Some(b) = self.m.entry_block(b)
        {
            self.block(b);
        }
    }

    fn results(&mut self, op: Op, l: &Rc<Layout>) {
        for r in self.m.results(op) {
            if self.is_tile(r) {
                self.set(r, l.clone());
            }
        }
    }

    fn op(&mut self, op: Op) {
        use Opcode as O;
        let n = self.m.num_operands(op);
        match self.m.opcode(op) {
            O::Constant | O::MakeToken | O::JoinTokens | O::Return | O::Barrier => {}
            O::Module | O::Entry | O::Global | O::TestingFunc => {}
            O::Assume | O::PtrToPtr | O::Reshape => {
                let l = self.any(op, 0);
                self.results(op, &l);
            }
            O::GetTileBlockId
            | O::WarpId
            | O::ClusterCtaId
            | O::ClusterBarrier
            | O::GetNumTileBlocks
            | O::GetGlobal
            | O::GetTensorShape
            | O::GetIndexSpaceShape
            | O::MakeTensorView
            | O::MakePartitionView
            | O::MakeStridedView
            | O::MakeGatherScatterView => {
                for i in 0..n {
                    self.any(op, i);
                }
                let s = self.scalar();
                self.results(op, &s);
            }
            O::Yield => self.yield_(op),
            O::Continue => {
                if let Some(f) = self.loops.last() {
                    let (loop_op, iter) = (f.op, f.iter.clone());
                    for (i, l) in iter.iter().enumerate().take(n) {
                        let v = self.m.operand(op, i);
                        if let Some(got) = self.layout.get(&v).cloned()
                            && got != *l
                            && self.m.opcode(loop_op) == Opcode::For
                            && self.is_constant(operand_group(self.m, loop_op, "initValues")[i])
                        {
                            self.learned.insert((loop_op, i), got);
                        }
                        self.want(op, i, l);
                    }
                }
            }
            O::Break => {
                let Some(mut results) = self
                    .loops
                    .last_mut()
                    .map(|f| std::mem::take(&mut f.results))
                else {
                    return;
                };
                self.first_or_want(op, &mut results);
                if let Some(f) = self.loops.last_mut() {
                    f.results = results;
                }
            }
            O::If => {
                self.any(op, 0);
                self.ifs.push((op, vec![None; self.m.num_results(op)]));
                self.body(op, 0);
                self.body(op, 1);
                let (_, results) = self.ifs.pop().expect("if frame");
                self.set_results(op, results);
            }
            O::For => {
                for i in 0..3 {
                    self.any(op, i);
                }
                let inits = operand_group(self.m, op, "initValues").len();
                let iter: Vec<Rc<Layout>> = (3..3 + inits)
                    .map(|i| {
                        let pick = self
                            .carried_acc(op, i - 3)
                            .map(Rc::new)
                            .or_else(|| self.carried.get(&(op, i - 3)).cloned());
                        match pick {
                            Some(l) => {
                                self.want(op, i, &l);
                                l
                            }
                            None => self.any(op, i),
                        }
                    })
                    .collect();
                let block = self.m.entry_block(self.m.region(op, 0));
                if let Some(b) = block {
                    let args = self.m.block_args(b).to_vec();
                    let s = self.scalar();
                    self.set(args[0], s);
                    for (a, l) in args[1..].iter().zip(&iter) {
                        self.set(*a, l.clone());
                    }
                }
                self.loops.push(LoopFrame {
                    op,
                    iter: iter.clone(),
                    results: Vec::new(),
                });
                self.body(op, 0);
                self.loops.pop();
                for (r, l) in self.m.results(op).zip(iter) {
                    self.set(r, l);
                }
            }
            O::Loop => {
                let iter: Vec<Rc<Layout>> = (0..n).map(|i| self.any(op, i)).collect();
                if let Some(b) = self.m.entry_block(self.m.region(op, 0)) {
                    for (a, l) in self.m.block_args(b).to_vec().iter().zip(&iter) {
                        self.set(*a, l.clone());
                    }
                }
                self.loops.push(LoopFrame {
                    op,
                    iter,
                    results: vec![None; self.m.num_results(op)],
                });
                self.body(op, 0);
                let f = self.loops.pop().expect("loop frame");
                self.set_results(op, f.results);
            }
            O::Assert => {
                self.any(op, 0);
            }
            O::Print => {
                // The largest argument drives the printing (emit::control::print_driver);
                // arguments of its size are wanted in its layout, smaller ones as they are.
                let args = operand_group(self.m, op, "args");
                let Some(driver) = crate::sizes::print_driver(self.m, &args) else {
                    return;
                };
                let di = args.iter().position(|v| *v == driver).unwrap_or(0);
                let l = self.any(op, di);
                let bits = shape_bits(&self.shape(driver));
                for i in 0..args.len() {
                    if shape_bits(&self.shape(self.m.operand(op, i))) == bits {
                        self.want(op, i, &l);
                    } else {
                        self.any(op, i);
                    }
                }
            }
            O::LoadViewTko | O::StoreViewTko => {
                let load = self.m.opcode(op) == O::LoadViewTko;
                let tile_i = (!load).then(|| operand_index(self.m, op, "tile"));
                let shape = match tile_i {
                    Some(i) => self.shape(self.m.operand(op, i)),
                    None => self.shape(self.m.result(op, 0)),
                };
                let view_v = operand_group(self.m, op, "view")[0];
                let l = match tile_i {
                    None => {
                        let r = self.m.result(op, 0);
                        self.prefer
                            .get(&r)
                            .cloned()
                            .unwrap_or_else(|| self.view_blocked(view_v, &shape))
                    }
                    Some(_) => self.view_blocked(view_v, &shape),
                };
                // A gather/scatter view's row indices: in the layout that broadcasts in
                // registers to the tile's along the other dimensions, so that each thread
                // holds the rows of its own elements.
                let rows = match self.m.ctx.types.get(self.m.value_type(view_v)) {
                    TypeData::GatherScatterView { sparse_dim, .. } => {
                        let sd = *sparse_dim as usize;
                        let mut ss = vec![1; shape.len()];
                        if let Some(x) = ss.get_mut(sd) {
                            *x = shape[sd];
                        }
                        let at = operand_index(self.m, op, "index") + sd;
                        Some((at, Rc::new(broadcast_source(&l, &ss, &shape))))
                    }
                    _ => None,
                };
                for i in 0..n {
                    if Some(i) == tile_i {
                        self.want(op, i, &l);
                    } else if let Some((_, rl)) = rows.as_ref().filter(|(at, _)| *at == i) {
                        self.want(op, i, rl);
                    } else {
                        self.any(op, i);
                    }
                }
                if load {
                    let r = self.m.result(op, 0);
                    self.set(r, l);
                }
            }
            O::AtomicRedViewTko => {
                // The value is reduced from the blocked (coalesced) layout, like a store.
                let vi = operand_index(self.m, op, "value");
                let l = self.blocked(&self.shape(self.m.operand(op, vi)));
                for i in 0..n {
                    if i == vi {
                        self.want(op, i, &l);
                    } else {
                        self.any(op, i);
                    }
                }
            }
            O::LoadPtrTko
            | O::StorePtrTko
            | O::AtomicRmwTko
            | O::AtomicCasTko
            | O::AtomicLoadTko
            | O::AtomicStoreTko
            | O::Offset => {
                let l = self.any(op, 0);
                for i in 1..n {
                    self.want(op, i, &l);
                }
                self.results(op, &l);
            }
            O::Broadcast => {
                // The result is wanted in the blocked layout, like the tiles it is combined
                // with: the (smaller) source is converted to the layout that broadcasts to
                // it in registers, rather than the result after the fact.
                let ss = self.shape(self.m.operand(op, 0));
                let r = self.m.result(op, 0);
                let rs = self.shape(r);
                let target = self.blocked(&rs);
                if self.is_tile(self.m.operand(op, 0)) {
                    let need = Rc::new(broadcast_source(&target, &ss, &rs));
                    self.want(op, 0, &need);
                }
                let src = self.any(op, 0);
                let l = Rc::new(broadcast_layout(
                    &src,
                    &ss,
                    &rs,
                    self.warp_bits,
                    self.vec_bits_for(shape_bits(&rs)),
                ));
                self.set(r, l);
            }
            O::Pack | O::Unpack => self.pack(op),
            O::Permute => {
                let src = self.any(op, 0);
                let ss = self.shape(self.m.operand(op, 0));
                let r = self.m.result(op, 0);
                let rs = self.shape(r);
                let perm = permutation(self.m, op, ss.len());
                let l = Rc::new(permute_layout(&src, &ss, &rs, &perm));
                self.set(r, l);
            }
            O::Cat => {
                let a = self.any(op, 0);
                self.want(op, 1, &a);
                let s = self.shape(self.m.operand(op, 0));
                let r = self.m.result(op, 0);
                let rs = self.shape(r);
                let dim = int_attr(self.m, op, "dim") as usize;
                let l = Rc::new(cat_layout(&a, &s, &rs, dim));
                self.set(r, l);
            }
            O::Extract => {
                for i in 0..n {
                    self.any(op, i);
                }
                let r = self.m.result(op, 0);
                let l = self.blocked(&self.shape(r));
                self.set(r, l);
                self.extract_through_smem(op);
            }
            O::Iota => {
                let r = self.m.result(op, 0);
                let l = self.blocked(&self.shape(r));
                self.set(r, l);
            }
            O::Reduce => {
                let l = self.any(op, 0);
                for i in 1..n {
                    self.want(op, i, &l);
                }
                let shape = self.shape(self.m.operand(op, 0));
                let dim = int_attr(self.m, op, "dim") as usize;
                let out = Rc::new(reduce_layout(&l, &shape, dim));
                self.results(op, &out);
                self.scalar_body(op);
            }
            O::Scan => {
                let shape = self.shape(self.m.operand(op, 0));
                let l = self.blocked(&shape);
                for i in 0..n {
                    self.want(op, i, &l);
                }
                self.results(op, &l);
                self.scalar_body(op);
            }
            O::ClusterGather => {
                // Each CTA's part in its layout, the cluster's ranks in more registers;
                // the part is staged in shared memory for the other CTAs to read.
                let src = self.m.operand(op, 0);
                let l = self.any(op, 0);
                let r = self.m.result(op, 0);
                let n = self.shape(r).first().copied().unwrap_or(1);
                self.set(r, Rc::new(gather_layout(&l, n)));
                if self.is_tile(src) {
                    let buf = self.alloc_buffer(src, op, false);
                    self.m.set_operand(op, 0, buf);
                    let at = match self.m.next_op(op) {
                        Some(next) => InsertPoint::Before(next),
                        None => InsertPoint::End(self.m.op_block(op).expect("in a block")),
                    };
                    self.create_at(Opcode::LocalDealloc, &[buf], &[], &[], at, op);
                }
            }
            O::MmaF | O::MmaI => match self.mma_plan(op) {
                _ if self.wgmma(op) => {}
                Some(plan) => self.mma_operands(op, &plan),
                None => {
                    // The fallback stages its operands inside its own lowering and keeps
                    // C's layout.
                    self.any(op, 0);
                    self.any(op, 1);
                    let c = self.any(op, 2);
                    self.results(op, &c);
                }
            },
            O::ConvertLayout
            | O::LocalAlloc
            | O::LocalLoad
            | O::LocalStore
            | O::LocalDealloc
            | O::MemDescIndex
            | O::MemDescTrans
            | O::MemDescSubslice
            | O::MemDescReshape
            | O::MemDescReinterpret
            | O::PredicateStage
            | O::Mask
            | O::MaskReturn
            | O::AsyncCopyGlobalToLocal
            | O::AsyncCommitGroup
            | O::AsyncWait
            | O::WarpGroupDotWait
            | O::GpuBarrier
            | O::GlobalScratchAlloc
            | O::TensormapCreate
            | O::InitBarrier
            | O::InvalBarrier
            | O::BarrierExpect
            | O::ArriveBarrier
            | O::WaitBarrier
            | O::AsyncTmaCopyGlobalToLocal
            | O::FenceAsyncShared
            | O::AsyncTmaCopyLocalToGlobal
            | O::AsyncTmaStoreWait
            | O::WarpSpecialize
            | O::WarpYield
            | O::WarpReturn
            | O::UnrealizedConversionCast
            | O::Unregistered => {}
            // 13.3 ops without a lowering yet and the testing ops: `check_limits` refuses
            // them by name before conversion.
            O::Alloca => {
                let s = self.scalar();
                self.results(op, &s);
            }
            O::MmaFScaled => {
                // Emulated: the operands are staged in shared memory inside the lowering;
                // the result keeps the accumulator's layout.
                for i in [0, 1, 3, 4] {
                    self.any(op, i);
                }
                let c = self.any(op, 2);
                self.results(op, &c);
            }
            O::TestingBytecodeNewAttribute | O::TestingBytecodeEvolution => {}
            // The elementwise ops (tilec_ir::elementwise_opcodes) and nothing else: a new op
            // must be placed above.
            tilec_ir::elementwise_opcodes!() | O::Select => self.elementwise(op),
        }
    }

    /// `pack`/`unpack`: the pieces of each wide element stay in its thread, in the register
    /// slots above its own ([`widen_low`]); when the narrow side is the operand (several
    /// elements make one result element) it is wanted in a layout whose low element bits
    /// are register bits, which the blocked layout of the result widened provides.
    fn pack(&mut self, op: Op) {
        let (src, res) = (self.m.operand(op, 0), self.m.result(op, 0));
        let elem = |v: Value| self.m.ctx.types.element_type(self.m.value_type(v));
        let sw = self.m.ctx.types.storage_bits(elem(src));
        let rw = self.m.ctx.types.storage_bits(elem(res));
        let l = self.any(op, 0);
        let out = if sw > rw {
            widen_low(&l, (sw / rw).trailing_zeros())
        } else {
            let k = (rw / sw).trailing_zeros();
            match narrow_low(&l, k) {
                Some(out) => out,
                None => {
                    let out = self.blocked(&self.shape(res));
                    self.want(op, 0, &Rc::new(widen_low(&out, k)));
                    (*out).clone()
                }
            }
        };
        self.set(res, Rc::new(out));
    }

    /// The tensor-core plan of an `mmaf`/`mmai`, if it runs on tensor cores.
    fn mma_plan(&self, op: Op) -> Option<MmaPlan> {
        let m = &*self.m;
        let (a, b, c) = (m.operand(op, 0), m.operand(op, 1), m.operand(op, 2));
        let elem = |v: Value| m.ctx.types.element_type(m.value_type(v));
        crate::mma::mma_plan(
            &self.shape(a),
            &self.shape(b),
            elem(a),
            elem(b),
            elem(c),
            self.warp_bits,
            self.arch,
        )
    }

    /// The accumulator layout of an `mmaf`/`mmai` that runs on tensor cores.
    fn mma_acc(&self, op: Op) -> Option<Layout> {
        self.mma_plan(op).map(|p| p.c)
    }

    /// The operands of an `mmaf`/`mmai` on tensor cores. C is converted to the
    /// accumulator layout (free when it is a constant or already there). A and B are taken
    /// in their fragment layouts when that costs no data movement (constants, values
    /// already in place); otherwise they are staged in swizzled shared memory
    /// ([`mma_swizzle`]), where the lowering reads the fragments with `ldmatrix`: A row-major
    /// (`ttg.local_alloc`), B transposed so that K runs fastest (`permute` in registers,
    /// `ttg.local_alloc` of the `N x K` tile and a `ttg.memdesc_trans` view of it as
    /// `K x N`). Both buffers are released after the product. An operand too large to
    /// stage (A and B together over 32 KiB) is converted to its fragment layout instead.
    /// Warpgroup MMA for `op` when [`crate::wgmma::wgmma_plan`] has a plan and its
    /// staged operands fit the shared memory: the instruction recorded (`ttg.mma`), C in
    /// the accumulator layout, A and B always staged in swizzled shared memory (A as it
    /// is; B as it is, MN-major, where the plan allows it
    /// ([`crate::wgmma::WgmmaPlan::b_mn_major_allowed`]), else transposed, as for
    /// `mma.sync`), pipelined like them. False when it does not apply (the product then
    /// takes `mma.sync`).
    fn wgmma(&mut self, op: Op) -> bool {
        let m = &*self.m;
        let (a, b, c) = (m.operand(op, 0), m.operand(op, 1), m.operand(op, 2));
        let elem = |v: Value| m.ctx.types.element_type(m.value_type(v));
        // `mmai`'s operands are signed unless their signedness says unsigned.
        let signed = |name: &str| {
            m.attr_named(op, name)
                .and_then(|a| m.ctx.attrs.get_enum(a, EnumKind::Signedness))
                != Some(0)
        };
        let Some(plan) = crate::wgmma::wgmma_plan(
            &self.shape(a),
            &self.shape(b),
            elem(a),
            elem(b),
            elem(c),
            (signed("signedness_lhs"), signed("signedness_rhs")),
            self.warp_bits,
            self.arch,
        ) else {
            return false;
        };
        let staged = u64::from(plan.row_bytes()) * u64::from(plan.m + plan.n);
        let budget = self
            .smem_limit
            .saturating_sub(crate::sizes::STAGE_BYTES as u32) as u64;
        if staged > budget {
            return false;
        }
        let b_mn = plan.b_mn_major_allowed() && !b_k_fastest(self.m, b);
        let name = self
            .m
            .ctx
            .attrs
            .intern(AttrData::String(plan.name().into()));
        self.m.remove_extra_attr(op, crate::mma::MMA_ATTR);
        self.m.push_extra_attr(op, crate::mma::MMA_ATTR, name);
        let acc = Rc::new(plan.c.clone());
        self.want(op, 2, &acc);
        let pipeline = self.pipeline(op, None, b_mn);
        if let Some((n, _)) = pipeline {
            let a = self.m.ctx.attrs.int(n as i64, Type::I32);
            self.m.remove_extra_attr(op, STAGES_ATTR);
            self.m.push_extra_attr(op, STAGES_ATTR, a);
        }
        // A computed in registers (not loaded: attention's P) stays there, in the
        // instruction's A fragment, unless a pipeline loads it; a loaded A is staged in
        // shared memory (once, when it is loop-invariant).
        let computed = self
            .m
            .defining_op(a)
            .is_some_and(|d| !matches!(self.m.opcode(d), Opcode::LoadViewTko | Opcode::LoadPtrTko));
        // (A converted from a load in a pipelined loop is the pipeline's: staged.)
        let a_pipelined = pipeline.is_some_and(|(_, a_loaded)| a_loaded);
        let a_regs = !a_pipelined && computed && plan.a_in_registers_allowed();
        let a_buf = if a_regs {
            self.want(op, 0, &Rc::new(plan.a_layout()));
            None
        } else {
            let (buf, view) = self.staged_buffer(a, op, plan.a_atoms() > 1);
            self.m.set_operand(op, 0, view);
            Some(buf)
        };
        let b_buf = if b_mn && plan.b_mn_atoms() > 1 {
            // MN-major over several swizzle atoms: the blocks of 64 columns side by side,
            // B stored through the `K x N` view the product reads.
            let (buf, view) = self.column_blocked_stage(b, op, op);
            self.m.set_operand(op, 1, view);
            buf
        } else if b_mn {
            // MN-major: `K x N` as it is (no transposition in registers).
            let buf = self.alloc_buffer(b, op, true);
            self.m.set_operand(op, 1, buf);
            buf
        } else {
            let perm = swap_last_two(self.shape(b).len());
            let (_, t) = self.permuted(b, &perm, InsertPoint::Before(op), op);
            // K rows over one swizzle atom: `N x K` column-blocked like A.
            let (buf, nk) = if plan.a_atoms() > 1 {
                self.column_blocked_stage(t, op, op)
            } else {
                let buf = self.alloc_buffer(t, op, true);
                (buf, buf)
            };
            let view = self.trans_view(nk, &perm, op);
            self.m.set_operand(op, 1, view);
            buf
        };
        let bufs: Vec<Value> = a_buf
            .into_iter()
            .chain([b_buf])
            .filter(|b| !self.hoisted.contains(b))
            .collect();
        self.staged(op, &bufs, &acc);
        true
    }

    /// Operand A of product `op` (the tile `v`) in a swizzled buffer: right before `op`,
    /// or, when `v` comes from outside the loops around `op`
    /// ([`Assign::hoist_point`]), once before them and released after them (the
    /// buffer is then in `hoisted`: not released after `op`).
    /// With `blocked` the buffer is column-blocked ([`Assign::column_blocked_stage`]).
    /// The buffer and the view the product reads (the buffer itself unless `blocked`).
    fn staged_buffer(&mut self, v: Value, op: Op, blocked: bool) -> (Value, Value) {
        let at = self.hoist_point(op, v);
        let (buf, view) = if blocked {
            self.column_blocked_stage(v, at, op)
        } else {
            let buf = self.alloc_buffer(v, at, true);
            (buf, buf)
        };
        if at != op {
            // Written once: visible to every thread before the loops start.
            self.cta_barrier_at(InsertPoint::Before(at), at);
            self.create_at(
                Opcode::LocalDealloc,
                &[buf],
                &[],
                &[],
                InsertPoint::After(at),
                op,
            );
            self.hoisted.insert(buf);
        }
        (buf, view)
    }

    /// The 2-D tile `v` stored, right before `at`, into a new column-blocked buffer
    /// ([`column_blocks`]) through its `R x C` view: the buffer and the view.
    fn column_blocked_stage(&mut self, v: Value, at: Op, origin: Op) -> (Value, Value) {
        let shape = self.shape(v);
        let elem = self.m.ctx.types.element_type(self.m.value_type(v));
        let atoms = column_blocks(&shape, elem).unwrap_or(1);
        let ty = column_blocked_type(self.m, &shape, elem, atoms, None);
        let alloc = self.create(Opcode::LocalAlloc, &[], &[ty], &[], at);
        self.located(alloc, origin);
        let buf = self.m.result(alloc, 0);
        let (last, view) = self.column_blocked_view(buf, InsertPoint::Before(at), origin);
        self.create_at(
            Opcode::LocalStore,
            &[v, view],
            &[],
            &[],
            InsertPoint::After(last),
            origin,
        );
        (buf, view)
    }

    /// The end of staging the operands of product `op` in `bufs`: a barrier before it
    /// (the buffers written), its result in the accumulator layout `acc`, and the buffers
    /// released right after it, in reverse order of allocation.
    fn staged(&mut self, op: Op, bufs: &[Value], acc: &Rc<Layout>) {
        let bar = self.cta_barrier_at(InsertPoint::Before(op), op);
        self.located(bar, op);
        self.results(op, acc);
        for &buf in bufs {
            self.create_at(
                Opcode::LocalDealloc,
                &[buf],
                &[],
                &[],
                InsertPoint::After(op),
                op,
            );
        }
    }

    fn mma_operands(&mut self, op: Op, plan: &MmaPlan) {
        let kind = self
            .m
            .ctx
            .attrs
            .intern(AttrData::String(plan.kind.name().into()));
        self.m.remove_extra_attr(op, crate::mma::MMA_ATTR);
        self.m.push_extra_attr(op, crate::mma::MMA_ATTR, kind);
        self.want(op, 2, &Rc::new(plan.c.clone()));
        // A pipelined K loop (gpu-pipeline builds it from the staged form below, with the
        // stages recorded here) stages whatever the size: its stages were budgeted.
        // B MN-major (`K x N` as it is, read with `ldmatrix.trans`) where the plan allows
        // it and B is not better staged K-fastest.
        let b_mn = plan.b_mn_major_allowed() && !b_k_fastest(self.m, self.m.operand(op, 1));
        let limit = match self.pipeline(op, Some((&plan.a, &plan.b)), b_mn) {
            Some((n, _)) => {
                let a = self.m.ctx.attrs.int(n as i64, Type::I32);
                self.m.remove_extra_attr(op, STAGES_ATTR);
                self.m.push_extra_attr(op, STAGES_ATTR, a);
                u64::MAX
            }
            // Unpipelined: as much as the kernel's shared memory leaves beside one stage's
            // worth for its other buffers (dynamic shared memory: a 128x128x128 f16 product
            // stages both operands on sm_86/sm_89, whose B in the fragment layout spilled).
            None => (u64::from(self.smem_limit))
                .saturating_sub(crate::sizes::STAGE_BYTES)
                .max(MMA_STAGED_BYTES),
        };
        let mut staged_bytes = 0u64;
        let mut bufs = Vec::new();
        for (i, frag) in [(0usize, &plan.a), (1, &plan.b)] {
            let v = self.m.operand(op, i);
            let frag = Rc::new(frag.clone());
            let moves = !self.is_constant(v)
                && self
                    .layout
                    .get(&v)
                    .is_some_and(|l| !l.converts_freely(&frag));
            let elem = self.m.ctx.types.element_type(self.m.value_type(v));
            let bytes =
                ((crate::sizes::elem_bytes(elem) as u64) << frag.nbits).next_multiple_of(16);
            if !moves || staged_bytes.saturating_add(bytes) > limit {
                self.want(op, i, &frag);
                continue;
            }
            staged_bytes += bytes;
            let buf = if i == 0 {
                let (buf, _) = self.staged_buffer(v, op, false);
                self.m.set_operand(op, 0, buf);
                if self.hoisted.contains(&buf) {
                    continue;
                }
                buf
            } else if b_mn {
                let buf = self.alloc_buffer(v, op, true);
                self.m.set_operand(op, 1, buf);
                buf
            } else {
                // B transposed: N x K in memory, viewed as K x N.
                let perm = swap_last_two(self.shape(v).len());
                let (_, t) = self.permuted(v, &perm, InsertPoint::Before(op), op);
                let buf = self.alloc_buffer(t, op, true);
                let view = self.trans_view(buf, &perm, op);
                self.m.set_operand(op, 1, view);
                buf
            };
            bufs.push(buf);
        }
        if bufs.is_empty() {
            return self.results(op, &Rc::new(plan.c.clone()));
        }
        self.staged(op, &bufs, &Rc::new(plan.c.clone()));
    }

    /// Software pipelining of a K loop: an `mmaf`/`mmai` on tensor cores in the body of a
    /// `for` with step 1 whose A and B both come from view loads in that body (indexed by
    /// the induction variable and loop-invariant values, used only by the product, weak,
    /// not ordered after anything in the loop) gets `n` shared-memory stages for A (when
    /// its view pads with zero, so that `ttg.async_copy_global_to_local` can fill them)
    /// and two for B (which goes through registers: see [`Assign::pipeline_stages`]; a
    /// warpgroup MMA's B staged MN-major is copied like A, over A's stages, when
    /// [`Assign::b_by_copies`] holds, each K step's copies of both one group; and when A is
    /// not loaded in the loop (computed there, as attention's P, or from outside it),
    /// B alone is loaded ahead, by copies, A staying as gpu-assign-layouts staged it):
    ///
    /// ```text
    /// %a_st = ttg.local_alloc : () -> !ttg.memdesc<nxMxK, mutable>       (before the loop)
    /// copy A[lb + j] into stage j, commit                       (prologue, j = 0..n-2;
    ///                                                            masked on lb + j < ub)
    /// %b0 = load_view_tko ...[.., %lb]; ttg.local_store %b0, %b_st[0]
    /// for %k ... {
    ///   ttg.async_wait {num = n - 2}                     (the copy of step k has landed)
    ///   ttg.barrier local
    ///   %ahead = ttg.predicate_stage %k, %ub, %c1 maxStage n-1 stage 0   (k + n-1 < ub)
    ///   ttg.mask %ahead { copy A[k + n - 1] into stage (k - lb + n - 1) mod n }; commit
    ///   %more = ttg.predicate_stage %k, %ub, %c1 maxStage n-1 stage n-2  (k + 1 < ub)
    ///   %b_next = ttg.mask %more { load_view_tko ...[.., %k + 1] }
    ///   %d = mmaf %a_st[(%k - %lb) mod n], %b_st[(%k - %lb) & 1]
    ///   ttg.local_store %b_next, %b_st[(%k + 1 - %lb) & 1]
    /// }
    /// ttg.async_wait {num = 0}; ttg.local_dealloc %b_st, %a_st             (after the loop)
    /// ```
    ///
    /// (`mod n` is an `andi` for a power of two, an unsigned `remi` by the constant
    /// otherwise, which ptxas turns into a multiply.) The copies of the next `n - 1` K steps
    /// are in flight during the product of this one, and one barrier per iteration orders
    /// every stage: the copy issued in iteration k goes into the stage iteration k - 1
    /// read, which every thread has left once it passes the barrier. A whose view pads with
    /// a nonzero value goes through registers like B, over two stages. The last iterations
    /// skip the copies and loads past the end (`ttg.mask`, each iteration still commits a
    /// group, so that the wait's count holds); the prologue's first copy is bounds-checked
    /// like any view load, so a loop that runs zero times reads nothing outside the
    /// tensor, and the wait after the loop drains it. Returns false when the pattern does
    /// not hold, with a remark (in `remarks`) when the product is in a loop that could
    /// have been pipelined but is not, or is over fewer stages than asked.
    /// Returns the stages and whether A is one of the pipeline's loads.
    fn pipeline(
        &mut self,
        op: Op,
        frags: Option<(&Layout, &Layout)>,
        b_mn: bool,
    ) -> Option<(u32, bool)> {
        let (f, loads) = match self.pipeline_pattern(op, frags) {
            Ok(p) => p,
            Err(Some((f, why))) => {
                self.remark(f, format!("K loop not pipelined: {why}"));
                return None;
            }
            Err(None) => return None,
        };
        let (a_async, b_async, raw) = self.copied_operands(&loads, b_mn, frags.is_none());
        // Warpgroup MMA (no fragment layouts) accumulating in place over the loop can stay
        // in flight across K steps: what goes through registers then needs a third stage
        // (see [`Assign::build_pipeline`]).
        let overlap = may_stay_in_flight(self.m, op, f, frags.is_none(), loads[0].is_some());
        if loads[0].is_none() && !b_async {
            self.remark(
                f,
                "K loop not pipelined: A is not loaded in the loop, and B cannot be copied asynchronously (staged transposed, converted, padded with a nonzero value, or its base not known 16-byte aligned)".into(),
            );
            return None;
        }
        let a_registers = if a_async || loads[0].is_none() {
            None
        } else if loads[0].is_some_and(|(_, conv)| conv.is_some()) {
            Some(
                "A is converted, so its tiles go through registers (cp.async copies bytes as they are)",
            )
        } else {
            Some(
                "A's view pads with a nonzero value, so its tiles go through registers (cp.async fills with zeros)",
            )
        };
        let a_loaded = loads[0].is_some();
        let n = self.pipeline_stages(op, f, a_registers, overlap, b_async, a_loaded, raw)?;
        self.m.remove_extra_attr(op, crate::wgmma::ASYNC_ATTR);
        if overlap && n >= 3 {
            let unit = self.m.ctx.attrs.intern(AttrData::Unit);
            self.m.push_extra_attr(op, crate::wgmma::ASYNC_ATTR, unit);
        }
        Some((n, a_loaded))
    }

    /// gpu-pipeline of one product: when `op` records [`STAGES_ATTR`] and its A and B
    /// are staged as gpu-assign-layouts stages them (A: `ttg.local_alloc` of its view
    /// load; B: `ttg.memdesc_trans` of the `ttg.local_alloc` of its load `permute`d; a
    /// `ttg.barrier local` before the product, the buffers released after it), the
    /// staging is taken apart and the pipeline of [`Assign::pipeline`] built in its
    /// place. Returns false when the form is not that one: unchanged when the staging
    /// differs, and with the operands unstaged (which the verifier then refuses) when the
    /// loads are not the pipelining pattern, which only hand-edited IR can do.
    fn expand_pipeline(&mut self, op: Op) -> bool {
        let m = &*self.m;
        let Some(n) = m
            .attr_named(op, STAGES_ATTR)
            .and_then(|a| m.ctx.attrs.get_int(a))
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| (2..=6).contains(n))
        else {
            return false;
        };
        let recorded = m
            .attr_named(op, crate::mma::MMA_ATTR)
            .and_then(|a| m.ctx.attrs.get_str(a))
            .map(str::to_owned);
        let Some(recorded) = recorded else {
            return false;
        };
        let def = |v: Value, opcode: Opcode, operands: usize| {
            m.defining_op(v)
                .filter(|d| m.opcode(*d) == opcode && m.num_operands(*d) == operands)
        };
        let a_view = m.operand(op, 0);
        let Some(body) = m.op_block(op) else {
            return false;
        };
        // A: the buffer of its tile loaded in the loop (column-blocked: the view of the
        // buffer its tile is stored into), which the pipeline takes over, or anything else
        // (A computed, or from outside the loop: registers, or a buffer staged in or
        // before the loop), which stays as it is while only B is loaded ahead.
        let a_blocked = column_blocked_stage_of(m, a_view, body);
        let (a_alloc, a_tile) = match a_blocked {
            Some(s) if is_load_in(m, s.tile, body) => (Some(s.alloc), Some(s.tile)),
            Some(_) => (None, None),
            None => {
                let alloc = def(a_view, Opcode::LocalAlloc, 1).filter(|a| {
                    m.op_block(*a) == Some(body) && is_load_in(m, m.operand(*a, 0), body)
                });
                (alloc, alloc.map(|a| m.operand(a, 0)))
            }
        };
        let a_blocked = a_blocked.filter(|_| a_alloc.is_some());
        let a_buf = a_alloc.map_or(a_view, |a| m.result(a, 0));
        // B: the `ttg.memdesc_trans` of the buffer of its tile permuted, or (MN-major)
        // the buffer of its tile, or (MN-major, column-blocked) the `K x N` view of an
        // empty buffer its tile is stored into.
        // (Transposed and column-blocked: the `ttg.memdesc_trans` of the `N x K` view of
        // an empty buffer its permuted tile is stored into.)
        let b_blocked = column_blocked_stage_of(m, m.operand(op, 1), body);
        let mut b_blocked_nk = None;
        let (b_buf, b_trans, b_alloc, b_perm) =
            match (b_blocked, def(m.operand(op, 1), Opcode::MemDescTrans, 1)) {
                (Some(s), _) => (m.result(s.alloc, 0), None, s.alloc, None),
                (None, Some(t)) => {
                    let buf = m.operand(t, 0);
                    let (buf, alloc, permuted) = match column_blocked_stage_of(m, buf, body) {
                        Some(s) => {
                            b_blocked_nk = Some(s);
                            (m.result(s.alloc, 0), s.alloc, s.tile)
                        }
                        None => {
                            let Some(alloc) = def(buf, Opcode::LocalAlloc, 1) else {
                                return false;
                            };
                            (buf, alloc, m.operand(alloc, 0))
                        }
                    };
                    let Some(perm) = def(permuted, Opcode::Permute, 1) else {
                        return false;
                    };
                    (buf, Some(t), alloc, Some(perm))
                }
                (None, None) => {
                    let buf = m.operand(op, 1);
                    let Some(alloc) = def(buf, Opcode::LocalAlloc, 1) else {
                        return false;
                    };
                    (buf, None, alloc, None)
                }
            };
        let Some(bar) = m.prev_op(op).filter(|b| m.opcode(*b) == Opcode::GpuBarrier) else {
            return false;
        };
        let b_tile = match b_blocked {
            Some(s) => s.tile,
            None => m.operand(b_perm.unwrap_or(b_alloc), 0),
        };
        // The barrier before the product stays where A is still staged in the loop.
        let a_staged_here = a_alloc.is_none()
            && (column_blocked_stage_of(m, a_view, body).is_some()
                || m.defining_op(a_view).is_some_and(|d| {
                    m.opcode(d) == Opcode::LocalAlloc && m.op_block(d) == Some(body)
                }));
        let deallocs: Vec<Op> = a_alloc
            .map(|_| a_buf)
            .into_iter()
            .chain([b_buf])
            .flat_map(|b| m.users(b).collect::<Vec<_>>())
            .filter(|u| m.opcode(*u) == Opcode::LocalDealloc)
            .collect();
        let views = |s: Option<ColumnBlockedStage>| {
            s.into_iter()
                .flat_map(|s| [m.result(s.trans, 0), m.result(s.reshape, 0)])
        };
        let single_use = a_alloc
            .map(|_| a_buf)
            .into_iter()
            .chain([b_buf])
            .chain(b_perm.map(|p| m.result(p, 0)))
            .chain(b_trans.map(|t| m.result(t, 0)))
            .chain(views(a_blocked))
            .chain(views(b_blocked))
            .chain(views(b_blocked_nk))
            .all(|v| m.users(v).count() <= 2);
        if !single_use {
            return false;
        }
        let shape = |v: Value| m.ctx.types.shape(m.value_type(v)).to_vec();
        let (sa, sb) = (shape(a_tile.unwrap_or(a_buf)), shape(b_tile));
        // The accumulator layout, and the fragment layouts A and B would otherwise be in
        // (none for warpgroup MMA, which reads both from shared memory).
        let (c, frags) =
            if let Some(p) = crate::wgmma::wgmma_plan_for(&recorded, &sa, &sb, self.warp_bits) {
                (p.c, None)
            } else {
                let plan = crate::mma::MmaKind::from_name(&recorded)
                    .and_then(|k| crate::mma::mma_plan_for(k, &sa, &sb, self.warp_bits));
                match plan {
                    Some(p) => (p.c, Some((p.a, p.b))),
                    None => return false,
                }
            };
        let b_mn = b_trans.is_none();
        if let Some(t) = a_tile {
            self.m.set_operand(op, 0, t);
        }
        self.m.set_operand(op, 1, b_tile);
        for d in deallocs {
            self.m.erase_op(d);
        }
        let parts = |s: Option<ColumnBlockedStage>| {
            s.into_iter().flat_map(|s| [s.store, s.reshape, s.trans])
        };
        let erased: Vec<Op> = [(!a_staged_here).then_some(bar), b_trans]
            .into_iter()
            .flatten()
            .chain(parts(b_blocked))
            .chain(parts(b_blocked_nk))
            .chain([b_alloc])
            .chain(b_perm)
            .chain(parts(a_blocked))
            .chain(a_alloc)
            .collect();
        for o in erased {
            self.m.erase_op(o);
        }
        self.m.remove_extra_attr(op, STAGES_ATTR);
        let frags = frags.as_ref().map(|(a, b)| (a, b));
        let Ok((f, loads)) = self.pipeline_pattern(op, frags) else {
            return false;
        };
        let (a_async, b_async, raw) = self.copied_operands(&loads, b_mn, frags.is_none());
        let overlap = self.m.attr_named(op, crate::wgmma::ASYNC_ATTR).is_some();
        if overlap
            && !(n >= 3 && may_stay_in_flight(self.m, op, f, frags.is_none(), loads[0].is_some()))
        {
            self.m.remove_extra_attr(op, crate::wgmma::ASYNC_ATTR);
            return self.build_pipeline(
                op,
                &c,
                f,
                &loads,
                (a_async, b_mn, b_async, raw),
                n,
                false,
                frags.is_none(),
            );
        }
        self.build_pipeline(
            op,
            &c,
            f,
            &loads,
            (a_async, b_mn, b_async, raw),
            n,
            overlap,
            frags.is_none(),
        )
    }

    /// The `for` around `op` and the view loads of its A and B when the pipelining
    /// pattern holds (A's `None` when A is not loaded in the loop: computed there, or from
    /// outside it; only B can then be loaded ahead); otherwise `Err(Some((loop, why)))`
    /// when `op` is in the body of a `for` or a `loop`, and `Err(None)` when it is in no
    /// loop at all.
    #[allow(clippy::type_complexity)]
    fn pipeline_pattern(
        &self,
        op: Op,
        frags: Option<(&Layout, &Layout)>,
    ) -> Result<(Op, Vec<Option<(Op, Option<Op>)>>), Option<(Op, String)>> {
        let m = &*self.m;
        let body = m.op_block(op).ok_or(None)?;
        let f = m.block_parent_op(body).ok_or(None)?;
        let why = |s: String| Err(Some((f, s)));
        if m.opcode(f) == Opcode::Loop && m.entry_block(m.region(f, 0)) == Some(body) {
            return why(
                "it is a `loop` that breaks out, not a `for`: the stages are filled ahead from a trip count known before the loop starts".into(),
            );
        }
        if m.opcode(f) != Opcode::For || m.entry_block(m.region(f, 0)) != Some(body) {
            return Err(None);
        }
        if constant_step(m, f).is_none() {
            return why(format!(
                "its step is not a constant from 1 to {MAX_PIPELINED_STEP}"
            ));
        }
        let iv = m.block_args(body)[0];
        if m.ctx.types.element_type(m.value_type(iv)) != Type::I32 {
            return why("its induction variable is not an i32".into());
        }
        let inside = |v: Value| match m.value_def(v) {
            tilec_ir::ValueDef::Result(d, _) => m.op_block(d) == Some(body),
            tilec_ir::ValueDef::Arg(b, _) => b == body,
            _ => false,
        };
        let mut loads = Vec::new();
        for (i, name) in [(0usize, "A"), (1, "B")] {
            let v = m.operand(op, i);
            // The operand may be a conversion of the loaded tile (an elementwise op of one
            // operand in the body, its only use the product: f32 to tf32, a dequantising
            // cast), applied in registers when the tile arrives.
            // B may also be the transpose of a tile loaded N x K (attention's `Q K^T`),
            // which is then staged as loaded.
            let conv = m.defining_op(v).filter(|c| {
                (m.def(*c)
                    .traits
                    .contains(tilec_ir::ops::Traits::ELEMENTWISE)
                    || (i == 1 && transposes(m, *c)))
                    && m.num_operands(*c) == 1
                    && m.num_results(*c) == 1
                    && m.op_block(*c) == Some(body)
                    && m.num_uses(v) == 1
            });
            let loaded = conv.map_or(v, |c| m.operand(c, 0));
            let d = match m.defining_op(loaded) {
                Some(d) if m.opcode(d) == Opcode::LoadViewTko && m.op_block(d) == Some(body) => d,
                // A not loaded in the loop: only B is loaded ahead.
                _ if i == 0 && !is_load_in(m, v, body) => {
                    loads.push(None);
                    continue;
                }
                _ => {
                    return why(format!(
                        "operand {name} of the product is not a view load (`load_view_tko`) in the loop body, or one conversion of one"
                    ));
                }
            };
            let weak = m
                .attr_named(d, "memory_ordering_semantics")
                .and_then(|a| m.ctx.attrs.get_enum(a, EnumKind::MemoryOrdering))
                .is_none_or(|o| o == 0);
            if m.num_uses(loaded) != 1 || m.num_uses(v) != 1 {
                return why(format!(
                    "the tile loaded for operand {name} has uses other than the product"
                ));
            }
            if m.has_uses(m.result(d, 1)) {
                return why(format!(
                    "the load of operand {name} orders other memory operations (its token is used)"
                ));
            }
            if !weak {
                return why(format!("the load of operand {name} is not weak"));
            }
            if !m.operands(d).all(|w| w == iv || !inside(w)) {
                return why(format!(
                    "the load of operand {name} is indexed by values computed in the loop body (only the induction variable and values from outside the loop can be loaded ahead)"
                ));
            }
            // (Warpgroup MMA reads both from shared memory: always staged.)
            let moves = frags.is_none_or(|(a, b)| {
                self.layout
                    .get(&v)
                    .is_some_and(|l| !l.converts_freely(if i == 0 { a } else { b }))
            });
            if !moves {
                return why(format!(
                    "operand {name} is already in its fragment layout (nothing to stage)"
                ));
            }
            loads.push(Some((d, conv)));
        }
        if m.first_op(body).is_none() {
            return Err(None);
        }
        Ok((f, loads))
    }

    /// The bytes of one shared-memory stage of operand `i` of `op`.
    fn stage_bytes(&self, op: Op, i: usize) -> u64 {
        let v = self.m.operand(op, i);
        let elem = self.m.ctx.types.element_type(self.m.value_type(v));
        ((crate::sizes::elem_bytes(elem) as u64) << shape_bits(&self.shape(v))).next_multiple_of(16)
    }

    /// Whether loop `f`, the innermost around product `op`, holds nothing else that takes
    /// shared memory while it runs: in an entry without `alloca`s nor buffers staged
    /// before it, no other product in a loop around it (whose buffers or stages could be
    /// alive across it), and its body is the product, the loads of its operands (and
    /// their conversions), scalar arithmetic and the terminator.
    fn bare_k_loop(&self, op: Op, f: Op) -> bool {
        let m = &*self.m;
        let Some(body) = m.op_block(op) else {
            return false;
        };
        // The ops around `f`, up to its entry.
        let mut around = Vec::new();
        let mut at = f;
        let entry = loop {
            let Some(p) = m.op_block(at).and_then(|b| m.block_parent_op(b)) else {
                return false;
            };
            if m.opcode(p) == Opcode::Entry {
                break p;
            }
            around.push(p);
            at = p;
        };
        let mut other = !self.hoisted.is_empty();
        m.walk_op(entry, &mut |x| {
            let product = matches!(
                m.opcode(x),
                Opcode::MmaF | Opcode::MmaI | Opcode::MmaFScaled
            );
            other |= m.opcode(x) == Opcode::Alloca
                || (product
                    && x != op
                    && m.op_block(x)
                        .and_then(|b| m.block_parent_op(b))
                        .is_some_and(|l| around.contains(&l)));
        });
        if other {
            return false;
        }
        let scalar = |v: Value| {
            let t = m.value_type(v);
            !m.ctx.types.is_tile(t) || m.ctx.types.shape(t).is_empty()
        };
        // Feeds the product: its only use is `op` or one conversion whose only use is.
        let feeds = |x: Op| {
            let r = m.result(x, 0);
            m.users(r).all(|u| {
                u == op || (m.num_results(u) == 1 && m.users(m.result(u, 0)).all(|w| w == op))
            })
        };
        let mut x = m.first_op(body);
        while let Some(o) = x {
            let fine = o == op
                || m.def(o).traits.contains(tilec_ir::ops::Traits::TERMINATOR)
                || (m.regions(o).is_empty()
                    && (m.results(o).all(scalar) || (m.num_results(o) >= 1 && feeds(o))));
            if !fine {
                return false;
            }
            x = m.next_op(o);
        }
        true
    }

    /// How many stages the pipeline of loop `f` around `op` gets, with a remark on the
    /// loop when they are fewer than asked (`--num-stages`, or [`DEFAULT_STAGES`]) or when
    /// there is no pipeline at all (`None`). A's stages are filled by async copies, so any
    /// number of them may be in flight; B goes through registers (`cp.async` cannot
    /// transpose it into the K-fastest order the fragments read; a warpgroup MMA's B
    /// staged MN-major is copied like A and gets as many stages, `b_async`), which holds
    /// one K step ahead whatever the stage count: it keeps two stages, and so does A when its view
    /// pads with a nonzero value (`cp.async` zero-fills). `n` stages of A and two of B must
    /// fit the shared memory the pipeline may use: the kernel's limit
    /// ([`Options::smem_limit`]) less [`crate::sizes::STAGE_BYTES`] for its other buffers.
    #[allow(clippy::too_many_arguments)]
    fn pipeline_stages(
        &mut self,
        op: Op,
        f: Op,
        a_registers: Option<&str>,
        overlap: bool,
        b_async: bool,
        a_loaded: bool,
        raw: [bool; 2],
    ) -> Option<u32> {
        if self.stages == Some(1) {
            self.remark(f, "K loop not pipelined: --num-stages 1 asked for".into());
            return None;
        }
        let want = self.stages.unwrap_or(DEFAULT_STAGES);
        // A not loaded in the loop has no stages of the pipeline's.
        let a = if a_loaded { self.stage_bytes(op, 0) } else { 0 };
        let b = self.stage_bytes(op, 1);
        // The loop's other pipelines (another product in the same loop) take their part.
        let taken = self.pipelined_smem.get(&f).copied().unwrap_or(0);
        // Stages the copy engine may fill (sm_90a) bring an mbarrier ring and, before the
        // loop, a tensor map's scratch: a little shared memory, and the padding up to the
        // next 1024-byte aligned stage buffer.
        let copies = b_async || (a_loaded && a_registers.is_none());
        // The kernel's other buffers while the loop runs: one stage's worth
        // (`STAGE_BYTES`: a conversion's or a reduction's scratch, a staged operand),
        // unless the loop body does nothing but load and multiply (then A's buffer when
        // the loop does not load it, and 1 KiB for the alignment of the stage buffers);
        // what comes after the loop (the epilogue's conversion) reuses the stages' shared
        // memory.
        let others = if self.bare_k_loop(op, f) {
            1024 + if a_loaded { 0 } else { self.stage_bytes(op, 0) }
        } else {
            crate::sizes::STAGE_BYTES
        };
        let reserved = others
            + if copies && self.tma && self.arch == crate::target::Arch::Sm90a {
                tma::RING_RESERVE
            } else {
                0
            };
        let budget = (self.smem_limit.saturating_sub(reserved as u32) as u64).saturating_sub(taken);
        let others = if taken > 0 {
            format!(" and {taken} for the loop's other pipelines")
        } else {
            String::new()
        };
        let limit_text = if self.smem_limit > crate::sizes::MAX_STATIC_SMEM {
            format!(
                "{} bytes of shared memory per CTA on {} less {} for the kernel's other buffers{others}",
                self.smem_limit,
                self.arch.name(),
                reserved
            )
        } else {
            format!(
                "{} bytes of static shared memory less {} for the kernel's other buffers{others}",
                self.smem_limit, reserved
            )
        };
        // B's stages: as many as A's when async copies fill them too; otherwise two, three
        // when a warpgroup MMA stays in flight (3 stages of A or more).
        let b_stages = |n: u32| {
            if b_async {
                n
            } else if overlap && n >= 3 {
                3
            } else {
                2
            }
        };
        // An operand transformed in shared memory has, beside its stages as loaded, the
        // buffer the product reads: two stages, three while the product is in flight.
        let transformed = |n: u32| {
            let depth = if overlap && n >= 3 { 3 } else { 2 };
            depth * (u64::from(raw[0]) * a + u64::from(raw[1]) * b)
        };
        let need = |n: u32| n as u64 * a + b_stages(n) as u64 * b + transformed(n);
        if need(2) > budget {
            self.remark(
                f,
                format!(
                    "K loop not pipelined: two stages of A ({a} bytes each) and B ({b} bytes each) need {} bytes of shared memory, more than the {budget} bytes the pipeline may use ({limit_text})",
                    need(2)
                ),
            );
            return None;
        }
        let mut n = want;
        let mut why = Vec::new();
        // Through registers, A is one K step ahead whatever its stages: two, or three for a
        // product in flight (the stage it reads is not the one the next step is stored in).
        let a_most = if overlap { 3 } else { 2 };
        if let Some(reason) = a_registers
            && n > a_most
        {
            n = a_most;
            why.push(format!("{reason}, which hold one K step ahead"));
        }
        if need(n) > budget {
            let fit = (2..n).rev().find(|&k| need(k) <= budget).unwrap_or(2);
            why.push(format!(
                "{n} stages of A ({a} bytes each) and {} of B ({b} bytes each) need {} bytes of shared memory, more than the {budget} bytes the pipeline may use ({limit_text})",
                b_stages(n),
                need(n)
            ));
            n = fit;
        }
        if n < want {
            self.remark(
                f,
                format!(
                    "K loop pipelined over {n} stages instead of {want}: {}",
                    why.join("; ")
                ),
            );
        }
        self.remark(
            f,
            format!(
                "K loop pipelined over {n} stages ({}, {} bytes of shared memory){}{}{}",
                if a_loaded {
                    format!("{n} of A and {} of B", b_stages(n))
                } else {
                    format!("{} of B; A is not loaded in the loop", b_stages(n))
                },
                need(n),
                match (b_async, a_loaded) {
                    (true, true) => "; B is staged as loaded and copied like A",
                    (true, false) => "; B is staged as loaded and copied asynchronously",
                    (false, _) => "",
                },
                match raw {
                    [true, true] => "; A and B transformed in shared memory for the product (converted, B from K x N to K-major)",
                    [true, false] => "; A converted in shared memory for the product",
                    [false, true] => "; B transformed in shared memory for the product (from K x N to K-major, converted where it is)",
                    [false, false] => "",
                },
                if overlap && n >= 3 {
                    "; each K step's warpgroup MMA stays in flight during the next"
                } else {
                    ""
                }
            ),
        );
        *self.pipelined_smem.entry(f).or_default() += need(n);
        Some(n)
    }

    /// A remark located at `at`.
    fn remark(&mut self, at: Op, message: String) {
        self.remark_as(tilec_diag::codes::PIPELINE, at, message);
    }

    /// A remark of code `code` at `at`.
    fn remark_as(&mut self, code: &'static str, at: Op, message: String) {
        let r = remark_at(self.m, code, at, message);
        self.remarks.push(r);
    }

    /// A rank-0 integer constant of type `ty` before `f`.
    fn int_const(&mut self, value: u64, ty: Type, f: Op, origin: Op) -> Value {
        self.int_const_at(value, ty, InsertPoint::Before(f), origin)
    }

    /// The iteration of a loop from `lb` by the constant `step` that `k` is in, `(k - lb) /
    /// step` (a shift for a power of two), at `at`.
    fn iteration(&mut self, k: Value, lb: Value, step: u64, at: InsertPoint, origin: Op) -> Value {
        let ty = self.m.value_type(k);
        let rel = self.scalar_at(Opcode::SubI, &[k, lb], ty, &[], at, origin);
        if step == 1 {
            return rel;
        }
        self.udiv_by_const(rel, step, at, at, origin)
    }

    /// `v / c` for a non-negative `v` and a constant `c` (a shift for a power of two),
    /// the constant made at `consts_at` and the division at `at`.
    fn udiv_by_const(
        &mut self,
        v: Value,
        c: u64,
        consts_at: InsertPoint,
        at: InsertPoint,
        origin: Op,
    ) -> Value {
        let ty = self.m.value_type(v);
        let unsigned = self.m.ctx.attrs.enum_case(EnumKind::Signedness, 0);
        let (opcode, by) = if c.is_power_of_two() {
            (Opcode::ShRI, u64::from(c.trailing_zeros()))
        } else {
            (Opcode::DivI, c)
        };
        let k = self.int_const_at(by, ty, consts_at, origin);
        self.scalar_at(opcode, &[v, k], ty, &[Some(unsigned)], at, origin)
    }

    /// A rank-0 integer constant of type `ty` at `at`.
    fn int_const_at(&mut self, value: u64, ty: Type, at: InsertPoint, origin: Op) -> Value {
        let a = self
            .m
            .ctx
            .attrs
            .intern(tilec_ir::attrs::dense(ty, vec![value]));
        self.scalar_at(Opcode::Constant, &[], ty, &[Some(a)], at, origin)
    }

    /// Which operands' stages async copies fill: (A's, B's, and which of them are
    /// [`Assign::transformed_in_smem`]), for a product on warpgroup MMA (`wgmma`) or not.
    fn copied_operands(
        &self,
        loads: &[Option<(Op, Option<Op>)>],
        b_mn: bool,
        wgmma: bool,
    ) -> (bool, bool, [bool; 2]) {
        let raw = [0, 1].map(|i| self.transformed_in_smem(loads, i, b_mn, wgmma));
        let a_async = self.a_by_copies(loads) || raw[0];
        let b_async =
            self.b_by_copies(loads, a_async, b_mn) || (raw[1] && (a_async || loads[0].is_none()));
        let raw = [raw[0], raw[1] && b_async];
        (a_async, b_async, raw)
    }

    /// Whether operand `i` of a warpgroup MMA (`wgmma`) is copied as it is loaded into
    /// stages of its own, by the copy engine (sm_90a, its `cp.async` alternative where the
    /// engine cannot take a view at run time), and transformed in shared memory on its way
    /// to the product: a tile converted after its load into a type of the same size (f32
    /// to tf32, whose rounding the copies cannot do), or B, `K x N`, which warpgroup MMA
    /// reads only K-major for its type (tf32, 8-bit): each K step loads the landed stage
    /// into registers, converts it, and stores it (B transposed) into a buffer of two
    /// stages (three when the product stays in flight) that the product reads.
    fn transformed_in_smem(
        &self,
        loads: &[Option<(Op, Option<Op>)>],
        i: usize,
        b_mn: bool,
        wgmma: bool,
    ) -> bool {
        let Some((d, conv)) = loads[i] else {
            return false;
        };
        if !(wgmma && self.engine_for(d) && self.async_copyable(d)) {
            return false;
        }
        let m = &*self.m;
        let loaded = m.result(d, 0);
        if self.shape(loaded).len() != 2 {
            return false;
        }
        let bytes = |v: Value| crate::sizes::elem_bytes(m.ctx.types.element_type(m.value_type(v)));
        match conv {
            // Staged as loaded and read transposed (attention's `K^T`).
            Some(c) if transposes(m, c) => false,
            Some(c) => bytes(m.result(c, 0)) == bytes(loaded),
            None => i == 1 && !b_mn,
        }
    }

    /// Whether view load or store `op` may go by the copy engine (TMA): on sm_90a, unless
    /// `--no-tma` or its `allow_tma` hint says no.
    pub(super) fn engine_for(&self, op: Op) -> bool {
        self.tma
            && self.arch == crate::target::Arch::Sm90a
            && crate::hints::allows_tma(self.m, op, self.arch)
    }

    /// Whether A's stages are filled by async copies: A loaded in the loop, not converted,
    /// its view padding with zero.
    fn a_by_copies(&self, loads: &[Option<(Op, Option<Op>)>]) -> bool {
        loads[0].is_some_and(|(d, conv)| conv.is_none() && self.async_copyable(d))
    }

    /// Whether B's stages are filled by async copies like A's: B staged MN-major (as it
    /// is loaded), not converted, its view padding with zero, a 2-D tile whose base is
    /// aligned to 16 bytes (so that its copies move vectors, under the run-time stride
    /// check of [`Assign::alignment_versions`]; otherwise its loads in registers are
    /// better: they check their alignment at run time), and A by copies too (both then
    /// share the stages' indices and commit groups).
    fn b_by_copies(&self, loads: &[Option<(Op, Option<Op>)>], a_async: bool, b_mn: bool) -> bool {
        let Some((d, conv)) = loads[1] else {
            return false;
        };
        // Staged as loaded: MN-major and unconverted, or N x K as loaded and transposed.
        let as_loaded = match conv {
            None => b_mn,
            Some(c) => !b_mn && transposes(self.m, c),
        };
        // Where the copy engine fills the stages (its base alignment checked at run time,
        // `cp.async` the alternative), also batched tiles (`1 x K x N`) and bases not
        // known to be aligned; elsewhere the `cp.async` copies of those would not be
        // vectorized.
        let engine = self.engine_for(d);
        let rank = self.shape(self.m.result(d, 0)).len();
        (a_async || loads[0].is_none())
            && as_loaded
            && self.async_copyable(d)
            && (rank == 2 || engine)
            && (engine
                || self.body.is_some_and(|body| {
                    crate::axis::Axis::run(self.m, body)
                        .view(self.m.operand(d, 0))
                        .is_some_and(|v| v.base_div >= 16)
                }))
    }

    /// Builds the pipeline of [`Assign::pipeline`] with `n` stages for A (`n` is 2 when A
    /// does not go by async copies); B is staged MN-major (`K x N` as loaded) with `b_mn`,
    /// transposed otherwise, and with `b_async` its stages are filled by async copies
    /// like A's, each K step's copies of A and B committed as one group.
    #[allow(clippy::too_many_arguments)]
    fn build_pipeline(
        &mut self,
        op: Op,
        c: &Layout,
        f: Op,
        loads: &[Option<(Op, Option<Op>)>],
        (a_async, b_mn, b_async, raw): (bool, bool, bool, [bool; 2]),
        n: u32,
        overlap: bool,
        wgmma: bool,
    ) -> bool {
        // Stages filled by async copies (A's, B's or both), over `n` stages with their own
        // indices; the rest go through registers over two (three in flight).
        let copies = a_async || b_async;
        // On sm_90a a warpgroup MMA's copied operands go by the copy engine when every one
        // of them can (gpu/tma.rs), under a check before the loop where it is needed.
        let tma_copies: Vec<tma::TmaCopy> = if wgmma && copies {
            let copied = loads.iter().enumerate().filter_map(|(i, l)| {
                let by_copies = (i == 0 && a_async) || (i == 1 && b_async);
                l.filter(|_| by_copies).map(|(d, _)| (i, d))
            });
            // The entry's analysis, once for both operands (none where the target or
            // `--no-tma` rules the copy engine out: `tma_copy` says so first).
            let axis = (self.tma && self.arch == crate::target::Arch::Sm90a)
                .then_some(self.body)
                .flatten()
                .map(|b| crate::axis::Axis::run(self.m, b));
            let all: Result<Vec<tma::TmaCopy>, Option<String>> = copied
                .map(|(i, d)| self.tma_copy(i, d, axis.as_ref()))
                .collect();
            match all {
                Ok(mut all) => {
                    self.block_views(&mut all, op);
                    all
                }
                Err(why) => {
                    if let Some(why) = why {
                        self.remark(
                            f,
                            format!(
                                "K loop stages filled by cp.async, not the copy engine (TMA): {why}"
                            ),
                        );
                    }
                    Vec::new()
                }
            }
        } else {
            Vec::new()
        };
        let tma = !tma_copies.is_empty();
        if tma {
            let remark = self.tma_remark(&tma_copies);
            self.remark(f, remark);
        }
        // Warp-specialized across a persistent loop (gpu/ws.rs) when the K loop is the
        // body of one: the setup (the run-time check, the stages, the tensor maps and the
        // ring) goes before that loop, and the K steps count on across its iterations.
        let all_copied = loads
            .iter()
            .enumerate()
            .all(|(i, l)| l.is_none() || (i == 0 && a_async) || (i == 1 && b_async));
        let mut persistent_refusal = None;
        let persistent = if self.ws && wgmma && tma && all_copied {
            match self.persistent_loop(f, &tma_copies, op) {
                Ok(q) => q,
                Err(why) => {
                    persistent_refusal = Some(why);
                    None
                }
            }
        } else {
            None
        };
        let setup = persistent.as_ref().map_or(f, |q| q.outer);
        // The tensor maps and their run-time check: before the loop around the K loop
        // whenever its iterations run the K loop alike (built once, not per iteration).
        let maps_at = match &persistent {
            Some(q) => q.outer,
            None if tma => self
                .invariant_outer(f, &tma_copies)
                .ok()
                .flatten()
                .unwrap_or(f),
            None => f,
        };
        let m = &*self.m;
        let Some(body) = m.op_block(op) else {
            return false;
        };
        let Some(first) = m.first_op(body) else {
            return false;
        };
        let (lb, ub, step) = (m.operand(f, 0), m.operand(f, 1), m.operand(f, 2));
        let iv = m.block_args(body)[0];
        let i32_ty = m.value_type(iv);
        let at_top =
            |k: &mut Self, opcode: Opcode, operands: &[Value], attrs: &[Option<tilec_ir::Attr>]| {
                k.scalar_at(
                    opcode,
                    operands,
                    i32_ty,
                    attrs,
                    InsertPoint::Before(first),
                    op,
                )
            };
        let token_ty = self
            .m
            .ctx
            .types
            .intern(TypeData::Opaque("!ttg.async.token".into()));
        let i1_ty = self.m.ctx.types.intern(TypeData::Tile {
            shape: Box::new([]),
            elem: Type::I1,
            encoding: None,
        });
        // Constants before the loop: the stage numbers of the prologue and n - 1, n.
        let count = if n == 2 {
            1
        } else if n.is_power_of_two() {
            n as u64
        } else {
            n as u64 + 1
        };
        let consts: Vec<Value> = (0..count)
            .map(|j| self.int_const(j, i32_ty, f, op))
            .collect();
        // A's stages are filled by async copies: wait until at most n - 2 groups are
        // pending (the copy of this step has landed) before the barrier that makes the
        // stage visible to every thread.
        // With `overlap` (a warpgroup MMA in flight across K steps, `n` >= 3), A's copies
        // run `n - 2` steps ahead, not `n - 1`: the copy issued in iteration k goes into
        // the stage of step k - 2, whose product every warpgroup has awaited once it
        // passes this iteration's barrier (`wgmma.wait_group 1` after each product), and
        // B keeps three stages for the same reason.
        let dist = if overlap { n - 2 } else { n - 1 };
        let tma_ok = if tma {
            self.tma_condition(&tma_copies, maps_at, op)
        } else {
            None
        };
        // `cp.async` copies: without the copy engine, or as its run-time alternative.
        let cp_async = copies && (!tma || tma_ok.is_some());
        let not_tma = tma_ok.map(|ok| self.negation(ok, InsertPoint::Before(maps_at), op));
        // The K steps of the persistent loop's earlier iterations.
        let done = persistent.as_ref().and_then(|q| {
            let t = *self.m.block_args(self.m.op_block(f)?).first()?;
            Some(self.steps_before(q, t, InsertPoint::Before(f), op))
        });
        let mut tma_bufs: Vec<(usize, Value, Type)> = Vec::new();
        if cp_async {
            let w = self.create(Opcode::AsyncWait, &[], &[token_ty], &[], first);
            let num = self.m.ctx.attrs.int(dist as i64 - 1, Type::I32);
            self.m.push_extra_attr(w, "num", num);
            self.located(w, op);
        }
        let bar = self.cta_barrier_at(InsertPoint::Before(first), first);
        self.located(bar, op);
        let top_barrier = bar;
        // Stage numbers count iterations, i = (k - lb) / step (the step a constant): B's
        // (and A's for two stages) i & 1 now and (i + 1) & 1 next; A's i mod n now and
        // (i + n - 1) mod n for the copy issued in this iteration.
        let step_c = constant_step(self.m, f).unwrap_or(1) as u64;
        let one = if step_c == 1 {
            step
        } else {
            self.int_const(1, i32_ty, f, op)
        };
        let next_k = at_top(self, Opcode::AddI, &[iv, step], &[]);
        let mut rel = self.iteration(iv, lb, step_c, InsertPoint::Before(first), op);
        if let Some(done) = done {
            rel = at_top(self, Opcode::AddI, &[done, rel], &[]);
        }
        let (cur, nxt) = if overlap {
            // B over three stages: i mod 3 and (i + 1) mod 3.
            let three = consts[3];
            let unsigned = self.m.ctx.attrs.enum_case(EnumKind::Signedness, 0);
            let rel1 = at_top(self, Opcode::AddI, &[rel, one], &[]);
            let c = at_top(self, Opcode::RemI, &[rel, three], &[Some(unsigned)]);
            let x = at_top(self, Opcode::RemI, &[rel1, three], &[Some(unsigned)]);
            (c, x)
        } else {
            let c = at_top(self, Opcode::AndI, &[rel, one], &[]);
            let x = at_top(self, Opcode::XOrI, &[c, one], &[]);
            (c, x)
        };
        // K steps `j` iterations from `lb` (`lb + j x step`), as constants before the loop.
        let k_offset = |k: &mut Self, j: u32| {
            if step_c == 1 {
                k.int_const(u64::from(j), i32_ty, f, op)
            } else {
                k.int_const(u64::from(j) * step_c, i32_ty, f, op)
            }
        };
        let (a_cur, a_nxt, a_k) = if n == 2 || !copies {
            (cur, nxt, next_k)
        } else {
            let last = consts[dist as usize];
            let ahead = at_top(self, Opcode::AddI, &[rel, last], &[]);
            let last_k = if step_c == 1 {
                last
            } else {
                k_offset(self, dist)
            };
            let a_k = at_top(self, Opcode::AddI, &[iv, last_k], &[]);
            if n.is_power_of_two() {
                let mask = consts[n as usize - 1];
                let c = at_top(self, Opcode::AndI, &[rel, mask], &[]);
                let x = at_top(self, Opcode::AndI, &[ahead, mask], &[]);
                (c, x, a_k)
            } else {
                let count = consts[n as usize];
                let unsigned = self.m.ctx.attrs.enum_case(EnumKind::Signedness, 0);
                let c = at_top(self, Opcode::RemI, &[rel, count], &[Some(unsigned)]);
                let x = at_top(self, Opcode::RemI, &[ahead, count], &[Some(unsigned)]);
                (c, x, a_k)
            }
        };
        // Whether a K step is still to come: iv + (maxStage - stage) * step < ub; k + 1
        // for B, k + n - 1 for A.
        let predicate = |k: &mut Self, iv: Value, ahead: u32, at: InsertPoint| {
            let (max_stage, stage) = (
                k.m.ctx.attrs.int(n as i64 - 1, Type::I32),
                k.m.ctx.attrs.int((n - 1 - ahead) as i64, Type::I32),
            );
            let ps = k.create_at(
                Opcode::PredicateStage,
                &[iv, ub, step],
                &[i1_ty],
                &[Some(max_stage), Some(stage)],
                at,
                op,
            );
            let r = k.m.result(ps, 0);
            let sc = k.scalar();
            k.set(r, sc);
            (ps, r)
        };
        let (mut anchor, has_next) = predicate(self, iv, 1, InsertPoint::Before(first));
        let a_has_next = if n == 2 || !copies {
            has_next
        } else {
            let (ps, r) = predicate(self, iv, dist, InsertPoint::Before(first));
            anchor = ps;
            r
        };
        let zero = consts[0];
        let mut stages: Vec<Value> = Vec::new();
        // Operands transformed in shared memory: made after the wait for their stage.
        struct Transform {
            i: usize,
            /// The stages as loaded: the buffer, one stage's type, column-blocked.
            stage: (Value, Type, bool),
            load: Op,
            conv: Option<Op>,
            layout: Rc<Layout>,
            /// The buffer the product reads: the buffer, one stage's type, column-blocked.
            operand: (Value, Type, bool),
            to_k_major: bool,
        }
        let mut transforms: Vec<Transform> = Vec::new();
        for (i, &load) in loads.iter().enumerate() {
            // A not loaded in the loop stays as gpu-assign-layouts staged it.
            let Some((d, conv)) = load else {
                continue;
            };
            let v = self.m.operand(op, i);
            let shape = self.shape(v);
            let rank = shape.len();
            // An operand transformed in shared memory is staged as loaded.
            let raw_i = raw[i];
            let staged = if raw_i { self.m.result(d, 0) } else { v };
            let elem = self.m.ctx.types.element_type(self.m.value_type(staged));
            let src_l = self.layout[&v].clone();
            let by_copies = (i == 0 && a_async) || (i == 1 && b_async);
            // With B by copies too, each K step's copies of A and B form one group: B's
            // commits close them (A's prologue copies all join the first group, which
            // only makes them land earlier).
            let commits = by_copies && !(i == 0 && b_async) && cp_async;
            let depth = if by_copies {
                n
            } else if overlap {
                3
            } else {
                2
            };
            // What goes into shared memory: A as it is, B transposed (N x K) unless it is
            // staged MN-major (or as loaded, to be transposed in shared memory).
            let transposed = i == 1 && !b_mn && !raw_i;
            let perm: Vec<usize> = if transposed {
                swap_last_two(rank)
            } else {
                (0..rank).collect()
            };
            let st_shape: Vec<i64> = perm.iter().map(|p| shape[*p]).collect();
            let buf_shape: Vec<i64> = std::iter::once(depth as i64)
                .chain(st_shape.iter().copied())
                .collect();
            let swizzle = mma_swizzle(&st_shape, elem);
            let stage_ty = |k: &mut Self, sh: &[i64], mutable: bool| {
                k.m.ctx.types.intern(TypeData::MemDesc {
                    shape: sh.into(),
                    elem,
                    mutable,
                    order: tilec_ir::TypeStore::row_major_order(sh.len()),
                    swizzle,
                })
            };
            // Rows over one swizzle atom (warpgroup MMA: A's and B's K rows, B's N rows
            // MN-major): stages of column blocks, read and written through their
            // `M x K`, `N x K` or `K x N` views.
            let blocked = wgmma.then(|| column_blocks(&st_shape, elem)).flatten();
            let (buf_ty, one_ty) = match blocked {
                Some(atoms) => (
                    column_blocked_type(self.m, &st_shape, elem, atoms, Some(depth as i64)),
                    column_blocked_type(self.m, &st_shape, elem, atoms, None),
                ),
                None => (
                    stage_ty(self, &buf_shape, true),
                    stage_ty(self, &st_shape, true),
                ),
            };
            let blocked = blocked.is_some();
            let alloc = self.create(Opcode::LocalAlloc, &[], &[buf_ty], &[], setup);
            self.located(alloc, op);
            let buf = self.m.result(alloc, 0);
            // Stores a loaded tile (B: permuted in registers first) into stage `s`, the
            // new ops placed one after the other from `at`.
            let store = |k: &mut Self, tile: Value, s: Value, at: InsertPoint| {
                let (mut at, mut t) = (at, tile);
                if transposed {
                    let (p, pt) = k.permuted(tile, &perm, at, op);
                    (at, t) = (InsertPoint::After(p), pt);
                }
                let ix = k.create_at(Opcode::MemDescIndex, &[buf, s], &[one_ty], &[], at, op);
                let (mut last, mut ixv) = (ix, k.m.result(ix, 0));
                if blocked {
                    (last, ixv) = k.column_blocked_view(ixv, InsertPoint::After(ix), op);
                }
                k.create_at(
                    Opcode::LocalStore,
                    &[t, ixv],
                    &[],
                    &[],
                    InsertPoint::After(last),
                    op,
                );
            };
            if by_copies {
                // A goes from global to shared memory by async copies: the prologue's of
                // the first n - 1 K steps into stages 0 to n - 2, and in the body the one
                // of step k + n - 1 (under the mask) into the stage step k - 1 used, each
                // committed as a group. Where A's vectors are aligned only for some row
                // strides, every copy is written twice, under `aligned` and under its
                // negation, the first with `contiguity` (Triton's attribute: the vector
                // width to use).
                // Beside the copy engine, one plain version (its run-time alternative:
                // strides the copy engine cannot take, where vector widths matter less).
                let versions = match (cp_async, not_tma) {
                    (false, _) => Vec::new(),
                    (true, Some(nt)) => vec![(Some(nt), 0)],
                    (true, None) => self.alignment_versions(d, f, op),
                };
                if tma {
                    tma_bufs.push((i, buf, one_ty));
                }
                for j in 0..dist {
                    // Every step ahead under its predicate, the first too: a loop that
                    // runs no step (a split-K tile block past the last K tile) issues
                    // no copy that nothing waits for (a tensor copy in flight while the
                    // epilogue reused its stage, structured random kernel 8062).
                    let (k_j, pred) = if j == 0 {
                        (lb, Some(predicate(self, lb, 0, InsertPoint::Before(f)).1))
                    } else {
                        let off = if step_c == 1 {
                            consts[j as usize]
                        } else {
                            k_offset(self, j)
                        };
                        let kj = self.scalar_at(
                            Opcode::AddI,
                            &[lb, off],
                            i32_ty,
                            &[],
                            InsertPoint::Before(f),
                            op,
                        );
                        let (_, p) = predicate(self, lb, j, InsertPoint::Before(f));
                        (kj, Some(p))
                    };
                    let stage = match done {
                        // Stage (done + j) mod n across a persistent loop.
                        Some(done) => self.stage_after(done, j, n, InsertPoint::Before(f), op),
                        None => consts[j as usize],
                    };
                    let subst = |w: Value| if w == iv { k_j } else { w };
                    for (vp, contiguity) in &versions {
                        let p = match (pred, *vp) {
                            (Some(a), Some(b)) => Some(self.scalar_at(
                                Opcode::AndI,
                                &[a, b],
                                i1_ty,
                                &[],
                                InsertPoint::Before(f),
                                op,
                            )),
                            (Some(a), None) | (None, Some(a)) => Some(a),
                            (None, None) => None,
                        };
                        let at = match p {
                            Some(p) => {
                                let (_, block) = self.mask_at(p, &[], InsertPoint::Before(f), op);
                                InsertPoint::End(block)
                            }
                            None => InsertPoint::Before(f),
                        };
                        let c = self
                            .async_copy(d, &subst, buf, stage, one_ty, blocked, token_ty, at, op);
                        self.set_contiguity(c, *contiguity);
                        if let InsertPoint::End(block) = at {
                            self.end_mask(block, &[], op);
                        }
                    }
                    if commits {
                        self.create_at(
                            Opcode::AsyncCommitGroup,
                            &[],
                            &[token_ty],
                            &[],
                            InsertPoint::Before(f),
                            op,
                        );
                    }
                }
                let mut last = anchor;
                for (pred, contiguity) in &versions {
                    let p = match pred {
                        Some(p) => {
                            let at = InsertPoint::After(last);
                            let r =
                                self.scalar_at(Opcode::AndI, &[a_has_next, *p], i1_ty, &[], at, op);
                            last = self.m.defining_op(r).unwrap_or(last);
                            r
                        }
                        None => a_has_next,
                    };
                    let (mask, block) = self.mask_at(p, &[], InsertPoint::After(last), op);
                    let ahead = |w: Value| if w == iv { a_k } else { w };
                    let at = InsertPoint::End(block);
                    let c =
                        self.async_copy(d, &ahead, buf, a_nxt, one_ty, blocked, token_ty, at, op);
                    self.set_contiguity(c, *contiguity);
                    self.end_mask(block, &[], op);
                    last = mask;
                }
                anchor = if commits {
                    self.create_at(
                        Opcode::AsyncCommitGroup,
                        &[],
                        &[token_ty],
                        &[],
                        InsertPoint::After(last),
                        op,
                    )
                } else {
                    last
                };
                if raw_i {
                    // The buffer the product reads, made from the landed stage in each K
                    // step (after the wait for it: below).
                    let to_k_major = i == 1 && !b_mn;
                    let op_elem = self.m.ctx.types.element_type(self.m.value_type(v));
                    let op_shape: Vec<i64> = if to_k_major {
                        swap_last_two(rank).iter().map(|p| shape[*p]).collect()
                    } else {
                        shape.clone()
                    };
                    let op_depth: i64 = if overlap { 3 } else { 2 };
                    let op_blocked = wgmma.then(|| column_blocks(&op_shape, op_elem)).flatten();
                    let (op_buf_ty, op_one_ty) = match op_blocked {
                        Some(atoms) => (
                            column_blocked_type(self.m, &op_shape, op_elem, atoms, Some(op_depth)),
                            column_blocked_type(self.m, &op_shape, op_elem, atoms, None),
                        ),
                        None => {
                            let swizzle = mma_swizzle(&op_shape, op_elem);
                            let ty = |k: &mut Self, sh: Vec<i64>| {
                                k.m.ctx.types.intern(TypeData::MemDesc {
                                    order: tilec_ir::TypeStore::row_major_order(sh.len()),
                                    shape: sh.into(),
                                    elem: op_elem,
                                    mutable: true,
                                    swizzle,
                                })
                            };
                            let with_depth: Vec<i64> = std::iter::once(op_depth)
                                .chain(op_shape.iter().copied())
                                .collect();
                            (ty(self, with_depth), ty(self, op_shape.clone()))
                        }
                    };
                    let op_alloc = self.create(Opcode::LocalAlloc, &[], &[op_buf_ty], &[], setup);
                    self.located(op_alloc, op);
                    let op_buf = self.m.result(op_alloc, 0);
                    let layout = self
                        .layout
                        .get(&self.m.result(d, 0))
                        .cloned()
                        .unwrap_or_else(|| src_l.clone());
                    transforms.push(Transform {
                        i,
                        stage: (buf, one_ty, blocked),
                        load: d,
                        conv,
                        layout,
                        operand: (op_buf, op_one_ty, op_blocked.is_some()),
                        to_k_major,
                    });
                    stages.push(buf);
                    stages.push(op_buf);
                    continue;
                }
                let cur_ix = self.create(Opcode::MemDescIndex, &[buf, a_cur], &[one_ty], &[], op);
                self.located(cur_ix, op);
                let mut operand = self.m.result(cur_ix, 0);
                if blocked {
                    operand = self
                        .column_blocked_view(operand, InsertPoint::Before(op), op)
                        .1;
                }
                if transposed {
                    // B loaded N x K and transposed (attention's K): the stage holds the
                    // tile as loaded, the product reads its transposed view.
                    operand = self.trans_view(operand, &perm, op);
                }
                self.m.set_operand(op, i, operand);
                if let Some(c) = conv {
                    self.m.erase_op(c);
                }
                self.m.erase_op(d);
                stages.push(buf);
                continue;
            }
            // Prologue: the load at lb (converted), stored into stage 0.
            let pro = self.clone_op(d, &|w| if w == iv { lb } else { w }, InsertPoint::Before(f));
            self.located(pro, op);
            let mut pro_tile = self.m.result(pro, 0);
            let mut pro_last = pro;
            if let Some(c) = conv {
                let raw = self.m.result(d, 0);
                let pc = self.clone_op(
                    c,
                    &|w| if w == raw { pro_tile } else { w },
                    InsertPoint::After(pro),
                );
                pro_last = pc;
                pro_tile = self.m.result(pc, 0);
            }
            self.set(pro_tile, src_l.clone());
            store(self, pro_tile, zero, InsertPoint::After(pro_last));
            // The body's load now fetches the next K step.
            for j in 0..self.m.num_operands(d) {
                if self.m.operand(d, j) == iv {
                    self.m.set_operand(d, j, next_k);
                }
            }
            if d != anchor {
                self.m.move_op(d, InsertPoint::After(anchor));
            }
            anchor = d;
            // The product reads this iteration's stage; the next one is stored after it.
            let cur_ix = self.create(Opcode::MemDescIndex, &[buf, cur], &[one_ty], &[], op);
            self.located(cur_ix, op);
            let mut operand = self.m.result(cur_ix, 0);
            if blocked {
                operand = self
                    .column_blocked_view(operand, InsertPoint::Before(op), op)
                    .1;
            }
            if transposed {
                operand = self.trans_view(operand, &perm, op);
            }
            self.m.set_operand(op, i, operand);
            // The next K step's load runs only when there is a next step (`ttg.mask`);
            // its tile goes into the other stage after the product.
            let mut loaded = self.masked(d, has_next, op);
            // The next load goes after this one's mask (and conversion), not into it.
            anchor = self.m.defining_op(loaded).unwrap_or(anchor);
            if let Some(c) = conv {
                // The conversion now reads the masked load; it runs after it.
                self.m.move_op(c, InsertPoint::After(anchor));
                anchor = c;
                loaded = self.m.result(c, 0);
            }
            store(self, loaded, nxt, InsertPoint::After(op));
            stages.push(buf);
        }
        // Warp-specialized (gpu/ws.rs): every operand staged by the copy engine, the
        // cp.async alternative's prologue moving into the default region.
        let ws_prologue: Vec<Op> = if !self.ws || persistent.is_some() {
            Vec::new()
        } else {
            let m = &*self.m;
            m.op_block(f)
                .map(|b| {
                    m.block_ops(b)
                        .take_while(|o| *o != f)
                        .filter(|o| {
                            let mut copies = false;
                            if m.opcode(*o) == Opcode::Mask {
                                m.walk_op(*o, &mut |x| {
                                    copies |= m.opcode(x) == Opcode::AsyncCopyGlobalToLocal;
                                });
                            }
                            copies || m.opcode(*o) == Opcode::AsyncCommitGroup
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        let ws = persistent.is_some()
            || self.ws && wgmma && {
                let why = if let Some(why) = persistent_refusal {
                    Some(why)
                } else if !tma {
                    Some("its stages are not filled by the copy engine".to_string())
                } else if tma_bufs.len() != loads.iter().flatten().count() {
                    Some("an operand is staged through registers".to_string())
                } else {
                    self.warp_specialize_refusal(f, &ws_prologue)
                };
                if let Some(why) = &why {
                    self.ws_refused.insert(f);
                    self.remark(f, format!("K loop not warp-specialized: {why}"));
                }
                why.is_none()
            };
        let mut ws_maps = Vec::new();
        let mut ws_fills: Vec<Op> = Vec::new();
        let ring = tma.then(|| {
            let maps = self.tensor_maps(&tma_copies, tma_ok, maps_at, op);
            let ring = self.barrier_ring(n, setup, op);
            ws_maps.clone_from(&maps);
            // The prologue's fills, stages 0 to dist - 1 (recorded: warp-specialized, the
            // partition's replace them).
            let before_fills = self.m.prev_op(f);
            for j in 0..dist {
                let (k_j, pred) = if j == 0 {
                    (lb, Some(predicate(self, lb, 0, InsertPoint::Before(f)).1))
                } else {
                    let c = k_offset(self, j);
                    let kj = self.scalar_at(
                        Opcode::AddI,
                        &[lb, c],
                        i32_ty,
                        &[],
                        InsertPoint::Before(f),
                        op,
                    );
                    (kj, Some(predicate(self, lb, j, InsertPoint::Before(f)).1))
                };
                let stage = match done {
                    Some(done) => self.stage_after(done, j, n, InsertPoint::Before(f), op),
                    None => self.int_const(u64::from(j), i32_ty, f, op),
                };
                let subst = |w: Value| if w == iv { k_j } else { w };
                let at = InsertPoint::Before(f);
                self.tma_fill(
                    &tma_copies,
                    &maps,
                    &tma_bufs,
                    ring,
                    stage,
                    &subst,
                    pred,
                    tma_ok,
                    at,
                    op,
                );
            }
            ws_fills = self.ops_between(before_fills, f);
            // In the loop, step k + dist into its stage, after the other fills.
            if let Some(next) = self.m.next_op(anchor) {
                let before_fill = self.m.prev_op(next);
                let ahead = |w: Value| if w == iv { a_k } else { w };
                let at = InsertPoint::Before(next);
                self.tma_fill(
                    &tma_copies,
                    &maps,
                    &tma_bufs,
                    ring,
                    a_nxt,
                    &ahead,
                    Some(a_has_next),
                    tma_ok,
                    at,
                    op,
                );
                let made = self.ops_between(before_fill, next);
                ws_fills.extend(made);
            }
            // The product waits for its stage: phase ((k - lb) / n) & 1.
            let before = InsertPoint::Before(op);
            let turn = self.udiv_by_const(rel, u64::from(n), InsertPoint::Before(f), before, op);
            let phase = self.scalar_at(Opcode::AndI, &[turn, one], i32_ty, &[], before, op);
            let bar = self.barrier_at(ring.0, a_cur, ring.1, before, op);
            self.create_at(Opcode::WaitBarrier, &[bar, phase], &[], &[], before, op);
            // Both operands by the copy engine: the product needs no proxy fence nor CTA
            // barrier of its own, but in the cp.async alternative (fenced and
            // synchronised here).
            if tma_bufs.len() == 2 && transforms.is_empty() {
                if let Some(nt) = not_tma {
                    let (_, block) = self.mask_at(nt, &[], before, op);
                    let inner = InsertPoint::End(block);
                    self.create_at(Opcode::FenceAsyncShared, &[], &[], &[], inner, op);
                    self.cta_barrier_at(inner, op);
                    self.end_mask(block, &[], op);
                }
                let unit = self.m.ctx.attrs.intern(AttrData::Unit);
                self.m
                    .put_extra_attr_sorted(op, crate::wgmma::ASYNC_OPERANDS_ATTR, unit);
            }
            ring
        });
        // Each transformed operand, once its stage has landed (the wait or barrier above):
        // the stage loaded into registers, converted, B transposed, stored into the
        // buffer the product reads (the writer fences and synchronises before a product
        // whose operands threads wrote).
        for t in transforms {
            let before = InsertPoint::Before(op);
            let (buf, one_ty, blocked) = t.stage;
            let ix = self.create_at(
                Opcode::MemDescIndex,
                &[buf, a_cur],
                &[one_ty],
                &[],
                before,
                op,
            );
            let mut src = self.m.result(ix, 0);
            if blocked {
                src = self.column_blocked_view(src, before, op).1;
            }
            let raw = self.m.result(t.load, 0);
            let raw_ty = self.m.value_type(raw);
            // Made K-major: each thread takes 4 x 4 blocks (4 elements along N from 4 K
            // rows, one vector each) and, its registers renamed, writes 4 elements along
            // K as one vector; the load's layout would write them one by one.
            let blocks = t
                .to_k_major
                .then(|| k_major_blocks(&self.shape(raw), self.warp_bits))
                .flatten();
            let ld = self.create_at(Opcode::LocalLoad, &[src], &[raw_ty], &[], before, op);
            let mut tile = self.m.result(ld, 0);
            let loaded_layout = match &blocks {
                Some((rows, _)) => Rc::new(rows.clone()),
                None => t.layout.clone(),
            };
            self.set(tile, loaded_layout.clone());
            if let Some(c) = t.conv {
                let c2 = self.clone_op(c, &|w| if w == raw { tile } else { w }, before);
                tile = self.m.result(c2, 0);
                self.set(tile, loaded_layout);
            }
            if let Some((_, cols)) = blocks {
                let ty = self.m.value_type(tile);
                let cv = self.create_at(Opcode::ConvertLayout, &[tile], &[ty], &[], before, op);
                tile = self.m.result(cv, 0);
                self.set(tile, Rc::new(cols));
            }
            if t.to_k_major {
                tile = self.permuted(tile, &[1, 0], before, op).1;
            }
            let (op_buf, op_one_ty, op_blocked) = t.operand;
            let view = |k: &mut Self| {
                let ix = k.create_at(
                    Opcode::MemDescIndex,
                    &[op_buf, cur],
                    &[op_one_ty],
                    &[],
                    before,
                    op,
                );
                let v = k.m.result(ix, 0);
                if op_blocked {
                    k.column_blocked_view(v, before, op).1
                } else {
                    v
                }
            };
            let dst = view(self);
            self.create_at(Opcode::LocalStore, &[tile, dst], &[], &[], before, op);
            let mut operand = view(self);
            if t.to_k_major {
                operand = self.trans_view(operand, &[1, 0], op);
            }
            self.m.set_operand(op, t.i, operand);
            if let Some(c) = t.conv {
                self.m.erase_op(c);
            }
            self.m.erase_op(t.load);
        }
        // Each inserted right after the loop, so the last allocated is released first.
        for &buf in &stages {
            self.create_at(
                Opcode::LocalDealloc,
                &[buf],
                &[],
                &[],
                InsertPoint::After(setup),
                op,
            );
        }
        if let Some(ring) = ring {
            // Every barrier invalidated once no thread waits on it any more, then released.
            self.release_ring(ring, n, setup, op);
        }
        if cp_async {
            // Copies the loop issued and never waited for (the prologue's, when it runs
            // fewer times than there are stages) land before the buffers are released.
            let w = self.create_at(
                Opcode::AsyncWait,
                &[],
                &[token_ty],
                &[],
                InsertPoint::After(f),
                op,
            );
            let num = self.m.ctx.attrs.int(0, Type::I32);
            self.m.push_extra_attr(w, "num", num);
        }
        self.results(op, &Rc::new(c.clone()));
        if overlap {
            // The last product is awaited right after the loop, before its buffers are
            // released and before anything reads the accumulator.
            // The loop result that carries the accumulator (block argument 0 is the
            // induction variable).
            let cv = self.m.operand(op, 2);
            let j = self
                .m
                .op_block(op)
                .and_then(|body| self.m.block_args(body).iter().position(|a| *a == cv))
                .and_then(|p| p.checked_sub(1));
            if let Some(j) = j {
                let out = self.m.result(f, j);
                let ty = self.m.value_type(out);
                let users: Vec<Op> = self.m.users(out).collect();
                let w = self.create_at(
                    Opcode::WarpGroupDotWait,
                    &[out],
                    &[ty],
                    &[],
                    InsertPoint::After(f),
                    op,
                );
                let zero = self.m.ctx.attrs.int(0, Type::I32);
                self.m.push_extra_attr(w, crate::wgmma::PENDINGS_ATTR, zero);
                let awaited = self.m.result(w, 0);
                self.set(awaited, Rc::new(c.clone()));
                for u in users {
                    for k in 0..self.m.num_operands(u) {
                        if self.m.operand(u, k) == out {
                            self.m.set_operand(u, k, awaited);
                        }
                    }
                }
            }
        }
        if let Some(ring) = ring.filter(|_| ws) {
            let p = ws::WsPipeline {
                op,
                copies: tma_copies,
                maps: ws_maps,
                bufs: tma_bufs,
                ring,
                stages: n,
                overlap,
                tma_ok,
                not_tma,
                prologue: ws_prologue,
                persistent: persistent.zip(done),
                fills: ws_fills,
                top_barrier,
            };
            self.pending_ws.push((f, p));
        }
        true
    }

    /// Stage `(done + j) mod n` at `at`: step `j` of a K loop whose steps count on from
    /// `done` (a persistent loop's earlier iterations).
    fn stage_after(&mut self, done: Value, j: u32, n: u32, at: InsertPoint, origin: Op) -> Value {
        let ty = self.m.value_type(done);
        let jc = self.int_const_at(u64::from(j), ty, at, origin);
        let g = self.scalar_at(Opcode::AddI, &[done, jc], ty, &[], at, origin);
        let nc = self.int_const_at(u64::from(n), ty, at, origin);
        let unsigned = self.m.ctx.attrs.enum_case(EnumKind::Signedness, 0);
        self.scalar_at(Opcode::RemI, &[g, nc], ty, &[Some(unsigned)], at, origin)
    }

    /// The ops of `before`'s block after `after` (from its first op when `None`) and
    /// before `before`, in order.
    fn ops_between(&self, after: Option<Op>, before: Op) -> Vec<Op> {
        let m = &*self.m;
        let mut cur = match after {
            Some(a) => m.next_op(a),
            None => m.op_block(before).and_then(|b| m.first_op(b)),
        };
        let mut out = Vec::new();
        while let Some(o) = cur.filter(|o| *o != before) {
            out.push(o);
            cur = m.next_op(o);
        }
        out
    }

    /// A copy of `src` at `at` with its operands mapped by `map` (attributes, extra
    /// attributes and result types kept); its results get the layouts of `src`'s.
    fn clone_op(&mut self, src: Op, map: &dyn Fn(Value) -> Value, at: InsertPoint) -> Op {
        let operands: Vec<Value> = self.m.operands(src).map(map).collect();
        let results: Vec<Type> = self.m.results(src).map(|r| self.m.value_type(r)).collect();
        let attrs: Vec<Option<tilec_ir::Attr>> = (0..self.m.def(src).attrs.len())
            .map(|i| self.m.attr(src, i))
            .collect();
        let c = self.create_at(self.m.opcode(src), &operands, &results, &attrs, at, src);
        for (k, a) in self.m.extra_attrs(src).to_vec() {
            self.m.push_extra_attr(c, &k, a);
        }
        for (r, n) in self.m.results(src).zip(self.m.results(c)) {
            if let Some(l) = self.layout.get(&r).cloned() {
                self.set(n, l);
            }
        }
        c
    }

    /// The versions of A's async copies: `[(None, 0)]` (one copy, vector width from what
    /// the IR proves) unless the view's base is aligned for the layout's vectors but its
    /// dynamic row stride is not known to be, when it is `[(aligned, w), (!aligned, 0)]`
    /// with `aligned = (stride & (w - 1)) == 0` computed before the loop `f`.
    fn alignment_versions(&mut self, d: Op, f: Op, origin: Op) -> Vec<(Option<Value>, usize)> {
        let plain = vec![(None, 0)];
        let m = &*self.m;
        let Some(body) = self.body else {
            return plain;
        };
        let view_v = m.operand(d, 0);
        let tile = m.result(d, 0);
        let shape = self.shape(tile);
        let elem = m.ctx.types.element_type(m.value_type(tile));
        let size = crate::sizes::elem_bytes(elem) as u64;
        let layout = crate::sizes::async_copy_layout(&shape, elem, self.warp_bits, 16);
        let w = crate::sizes::vector_slots(&layout, &shape, elem);
        if shape.len() != 2 || w < 2 || !matches!(w as u64 * size, 4 | 8 | 16) {
            return plain;
        }
        // The tensor view behind the partition view: strides [?, 1].
        let Some(pv) = m.defining_op(view_v) else {
            return plain;
        };
        if m.opcode(pv) != Opcode::MakePartitionView {
            return plain;
        }
        let Some(tv_op) = m.defining_op(m.operand(pv, 0)) else {
            return plain;
        };
        if m.opcode(tv_op) != Opcode::MakeTensorView {
            return plain;
        }
        let dynamic_first = match m.ctx.types.get(m.value_type(m.result(tv_op, 0))) {
            TypeData::TensorView { strides, .. } => {
                strides.len() == 2 && strides[1] == 1 && strides[0] == tilec_ir::types::DYNAMIC
            }
            _ => false,
        };
        let Some(&stride) = operand_group(m, tv_op, "dynamicStrides").first() else {
            return plain;
        };
        if !dynamic_first {
            return plain; // static strides: the writer decides from them
        }
        // The tile's rows along the view's rows: a `dim_map` that transposes them puts
        // the unit stride along the tile's first dimension, which no version vectorizes.
        if crate::vectorize::view_desc(m, view_v).is_none_or(|v| v.dim_map != [0, 1]) {
            return plain;
        }
        let axis = crate::axis::Axis::run(m, body);
        let Some(info) = axis.view(view_v) else {
            return plain;
        };
        // The widths worth a version: the layout's whole vector, and half of it when that
        // is still a `cp.async` size (a 16-byte copy needs the row stride a multiple of 8
        // f16 elements, an 8-byte one of 4), each where the base is aligned for it and the
        // stride is not provably so.
        let stride_div = info.stride_div.first().copied().unwrap_or(1);
        let widths: Vec<usize> = [w, w / 2]
            .into_iter()
            .filter(|&wi| {
                let bytes = wi as u64 * size;
                wi >= 2 && bytes >= 4 && info.base_div >= bytes && stride_div * size < bytes
            })
            .collect();
        if widths.is_empty() {
            return plain; // base not aligned, or the stride provably is
        }
        // aligned_w = (stride & (w - 1)) == 0, before the loop; the versions are taken in
        // order, each under its own alignment and none of the wider ones'.
        let sty = m.value_type(stride);
        let i1_ty = self.m.ctx.types.intern(TypeData::Tile {
            shape: Box::new([]),
            elem: Type::I1,
            encoding: None,
        });
        let before = InsertPoint::Before(f);
        let scalar_op =
            |k: &mut Self, opcode, operands: &[Value], ty, attrs: &[Option<tilec_ir::Attr>]| {
                k.scalar_at(opcode, operands, ty, attrs, before, origin)
            };
        let zero = self
            .m
            .ctx
            .attrs
            .intern(tilec_ir::attrs::dense(sty, vec![0]));
        let one = self
            .m
            .ctx
            .attrs
            .intern(tilec_ir::attrs::dense(i1_ty, vec![1]));
        let zero = scalar_op(self, Opcode::Constant, &[], sty, &[Some(zero)]);
        let one = scalar_op(self, Opcode::Constant, &[], i1_ty, &[Some(one)]);
        let eq = self.m.ctx.attrs.enum_case(EnumKind::ComparisonPredicate, 0);
        let signed = self.m.ctx.attrs.enum_case(EnumKind::Signedness, 0);
        let mut versions = Vec::new();
        // Not aligned for any wider version so far.
        let mut none_wider: Option<Value> = None;
        for wi in widths {
            let lanes = self
                .m
                .ctx
                .attrs
                .intern(tilec_ir::attrs::dense(sty, vec![wi as u64 - 1]));
            let lanes = scalar_op(self, Opcode::Constant, &[], sty, &[Some(lanes)]);
            let low = scalar_op(self, Opcode::AndI, &[stride, lanes], sty, &[]);
            let aligned = scalar_op(
                self,
                Opcode::CmpI,
                &[low, zero],
                i1_ty,
                &[Some(eq), Some(signed)],
            );
            let unaligned = scalar_op(self, Opcode::XOrI, &[aligned, one], i1_ty, &[]);
            let this = match none_wider {
                Some(nw) => scalar_op(self, Opcode::AndI, &[aligned, nw], i1_ty, &[]),
                None => aligned,
            };
            versions.push((Some(this), wi));
            none_wider = Some(match none_wider {
                Some(nw) => scalar_op(self, Opcode::AndI, &[unaligned, nw], i1_ty, &[]),
                None => unaligned,
            });
        }
        versions.push((none_wider, 0));
        versions
    }

    /// An op with one rank-0 result of type `ty` at `at` (with `origin`'s position);
    /// its result, in the replicated layout.
    fn scalar_at(
        &mut self,
        opcode: Opcode,
        operands: &[Value],
        ty: Type,
        attrs: &[Option<tilec_ir::Attr>],
        at: InsertPoint,
        origin: Op,
    ) -> Value {
        let o = self.create_at(opcode, operands, &[ty], attrs, at, origin);
        let r = self.m.result(o, 0);
        let sc = self.scalar();
        self.set(r, sc);
        r
    }

    /// Ends a `ttg.mask` body with `ttg.mask.return %values`.
    fn end_mask(&mut self, block: tilec_ir::Block, values: &[Value], origin: Op) {
        self.create_at(
            Opcode::MaskReturn,
            values,
            &[],
            &[],
            InsertPoint::End(block),
            origin,
        );
    }

    /// An empty `ttg.mask %pred` with results of `types` at `at`, and its body block.
    fn mask_at(
        &mut self,
        pred: Value,
        types: &[Type],
        at: InsertPoint,
        origin: Op,
    ) -> (Op, tilec_ir::Block) {
        let mask = self.m.create_op(
            &OpSpec {
                opcode: Opcode::Mask,
                operands: &[pred],
                results: types,
                attrs: &[],
                regions: 1,
            },
            at,
        );
        self.located(mask, origin);
        let block = self.m.append_block(self.m.region(mask, 0));
        (mask, block)
    }

    /// Records on an async copy the vector width (elements) it may use whatever the IR
    /// proves (Triton's `contiguity`); nothing for 0.
    fn set_contiguity(&mut self, copy: Op, contiguity: usize) {
        if contiguity > 0 {
            let a = self.m.ctx.attrs.int(contiguity as i64, Type::I32);
            self.m.push_extra_attr(copy, "contiguity", a);
        }
    }

    /// Whether a (weak) view load can become `ttg.async_copy_global_to_local`: its
    /// out-of-bounds elements are zero (zero padding or none: `cp.async` fills with zeros).
    fn async_copyable(&self, d: Op) -> bool {
        let m = &*self.m;
        let view_ty = m.value_type(m.operand(d, 0));
        matches!(
            m.ctx.types.get(view_ty),
            TypeData::PartitionView {
                padding: None | Some(PaddingValue::Zero),
                ..
            }
        )
    }

    /// `ttg.async_copy_global_to_local` of the tile view load `d` would read (its view and
    /// indices mapped by `map`) into stage `stage` of `buf` (through its `K x N` view
    /// when the stage is `blocked`: [`column_blocks`]; the caller commits the group).
    /// Returns the copy.
    #[allow(clippy::too_many_arguments)]
    fn async_copy(
        &mut self,
        d: Op,
        map: &dyn Fn(Value) -> Value,
        buf: Value,
        stage: Value,
        stage_ty: Type,
        blocked: bool,
        token_ty: Type,
        at: InsertPoint,
        origin: Op,
    ) -> Op {
        let view = self.m.operand(d, 0);
        let index: Vec<Value> = operand_group(self.m, d, "index")
            .iter()
            .map(|v| map(*v))
            .collect();
        let ix = self.create_at(
            Opcode::MemDescIndex,
            &[buf, stage],
            &[stage_ty],
            &[],
            at,
            origin,
        );
        let (mut last, mut dst) = (ix, self.m.result(ix, 0));
        if blocked {
            (last, dst) = self.column_blocked_view(dst, InsertPoint::After(ix), origin);
        }
        let operands: Vec<Value> = std::iter::once(view).chain(index).chain([dst]).collect();
        self.create_at(
            Opcode::AsyncCopyGlobalToLocal,
            &operands,
            &[token_ty],
            &[],
            InsertPoint::After(last),
            origin,
        )
    }

    /// Wraps `d` (an op with one tile result and an unused token) in `ttg.mask %pred`:
    /// the mask takes `d`'s place and its result replaces `d`'s tile everywhere.
    fn masked(&mut self, d: Op, pred: Value, origin: Op) -> Value {
        let tile = self.m.result(d, 0);
        let ty = self.m.value_type(tile);
        let (mask, block) = self.mask_at(pred, &[ty], InsertPoint::After(d), origin);
        let r = self.m.result(mask, 0);
        self.m.replace_all_uses(tile, r);
        let l = self.layout[&tile].clone();
        self.set(r, l);
        self.m.move_op(d, InsertPoint::End(block));
        self.end_mask(block, &[tile], origin);
        r
    }

    /// Creates an op at `at`, with the source position of `origin`.
    fn create_at(
        &mut self,
        opcode: Opcode,
        operands: &[Value],
        results: &[Type],
        attrs: &[Option<tilec_ir::Attr>],
        at: InsertPoint,
        origin: Op,
    ) -> Op {
        let o = self.m.create_op(
            &OpSpec {
                opcode,
                operands,
                results,
                attrs,
                regions: 0,
            },
            at,
        );
        self.located(o, origin);
        o
    }

    /// A CTA barrier over shared memory (`ttg.barrier local`) at `at`, located at
    /// `origin`.
    fn cta_barrier_at(&mut self, at: InsertPoint, origin: Op) -> Op {
        let local = self.m.ctx.attrs.enum_case(EnumKind::AddrSpace, 1);
        self.create_at(Opcode::GpuBarrier, &[], &[], &[Some(local)], at, origin)
    }

    /// `permute %v perm` at `at` (free in registers: the layout's bits move with the
    /// dimensions); the op and its result.
    fn permuted(&mut self, v: Value, perm: &[usize], at: InsertPoint, origin: Op) -> (Op, Value) {
        let shape = self.shape(v);
        let t_shape: Vec<i64> = perm.iter().map(|p| shape[*p]).collect();
        let elem = self.m.ctx.types.element_type(self.m.value_type(v));
        let t_ty = self.m.ctx.types.intern(TypeData::Tile {
            shape: t_shape.clone().into(),
            elem,
            encoding: None,
        });
        let perm_attr = self.m.ctx.attrs.intern(AttrData::DenseI32Array(
            perm.iter().map(|p| *p as i32).collect(),
        ));
        let p = self.create_at(
            Opcode::Permute,
            &[v],
            &[t_ty],
            &[Some(perm_attr)],
            at,
            origin,
        );
        let t = self.m.result(p, 0);
        let l = Rc::new(permute_layout(&self.layout[&v], &shape, &t_shape, perm));
        self.set(t, l);
        (p, t)
    }

    /// `ttg.memdesc_trans %buf {order = perm}` before `op`: the buffer with its dimensions
    /// (and their memory order) permuted.
    fn trans_view(&mut self, buf: Value, perm: &[usize], op: Op) -> Value {
        self.trans_view_at(buf, perm, InsertPoint::Before(op), op)
            .map_or(buf, |(_, v)| v)
    }

    /// [`Assign::trans_view`] at `at`: the op and the view (`None` for a value that is
    /// not a buffer).
    fn trans_view_at(
        &mut self,
        buf: Value,
        perm: &[usize],
        at: InsertPoint,
        origin: Op,
    ) -> Option<(Op, Value)> {
        let TypeData::MemDesc {
            shape,
            elem,
            mutable,
            order,
            swizzle,
        } = self.m.ctx.types.get(self.m.value_type(buf)).clone()
        else {
            return None;
        };
        // Result dimension i is source dimension perm[i]; the swizzle follows the
        // dimensions of the memory order.
        let view_ty = self.m.ctx.types.intern(TypeData::MemDesc {
            shape: perm.iter().map(|p| shape[*p]).collect(),
            elem,
            mutable,
            order: permuted_order(&order, perm).into(),
            swizzle,
        });
        let perm_attr = self.m.ctx.attrs.intern(AttrData::DenseI32Array(
            perm.iter().map(|p| *p as i32).collect(),
        ));
        let trans = self.create_at(Opcode::MemDescTrans, &[buf], &[view_ty], &[], at, origin);
        self.m.push_extra_attr(trans, "order", perm_attr);
        Some((trans, self.m.result(trans, 0)))
    }

    /// The `R x C` view of column-blocked buffer `buf` (`atoms x R x C / atoms`, see
    /// [`column_blocks`]): `ttg.memdesc_trans {order = [1, 0, 2]}` then
    /// `ttg.memdesc_reshape`, made one after the other at `at`. The last op made and the
    /// view.
    fn column_blocked_view(&mut self, buf: Value, at: InsertPoint, origin: Op) -> (Op, Value) {
        let Some((trans, t)) = self.trans_view_at(buf, &[1, 0, 2], at, origin) else {
            unreachable!("a column-blocked buffer is a !ttg.memdesc");
        };
        let TypeData::MemDesc {
            shape,
            elem,
            mutable,
            swizzle,
            ..
        } = self.m.ctx.types.get(self.m.value_type(buf)).clone()
        else {
            unreachable!("a column-blocked buffer is a !ttg.memdesc");
        };
        let v_ty = self.m.ctx.types.intern(TypeData::MemDesc {
            shape: Box::new([shape[1], shape[0] * shape[2]]),
            elem,
            mutable,
            order: tilec_ir::TypeStore::row_major_order(2),
            swizzle,
        });
        let reshape = self.create_at(
            Opcode::MemDescReshape,
            &[t],
            &[v_ty],
            &[],
            InsertPoint::After(trans),
            origin,
        );
        (reshape, self.m.result(reshape, 0))
    }

    /// A `!ttg.memdesc` type like `buf`'s with `shape` and `order` (row-major when `None`).
    fn view_type(&mut self, buf: Value, shape: &[i64], order: Option<Vec<u8>>) -> Type {
        let TypeData::MemDesc { elem, mutable, .. } =
            self.m.ctx.types.get(self.m.value_type(buf)).clone()
        else {
            return self.m.value_type(buf);
        };
        self.m.ctx.types.intern(TypeData::MemDesc {
            shape: shape.into(),
            elem,
            mutable,
            order: order
                .map(Into::into)
                .unwrap_or_else(|| tilec_ir::TypeStore::row_major_order(shape.len())),
            swizzle: Swizzle::NONE,
        })
    }

    /// An op `opcode` (no attributes) of `operands` with result type `ty`, before `op`;
    /// its result.
    fn view_op(&mut self, opcode: Opcode, operands: &[Value], ty: Type, op: Op) -> Value {
        let o = self.create(opcode, operands, &[ty], &[], op);
        self.m.result(o, 0)
    }

    /// An `extract` whose source fits one stage becomes a shared-memory round trip in the
    /// GPU-level IR: `ttg.local_alloc` of the source, `ttg.barrier`, a view of the
    /// extracted block, `ttg.local_load` of it in the result's layout, `ttg.local_dealloc`.
    /// The view is `ttg.memdesc_subslice` at the block's offsets when every index is a
    /// constant in range; otherwise the source is reshaped to [S0/r0, r0, S1/r1, r1, ...]
    /// (`ttg.memdesc_reshape`), its block dimensions moved to the front
    /// (`ttg.memdesc_trans`) and indexed once per dimension (`ttg.memdesc_index`). A larger
    /// source stays one op: its lowering reads it in chunks.
    fn extract_through_smem(&mut self, op: Op) {
        let src = self.m.operand(op, 0);
        let res = self.m.result(op, 0);
        let (ss, rs) = (self.shape(src), self.shape(res));
        let elem = self.m.ctx.types.element_type(self.m.value_type(src));
        let bytes = (crate::sizes::elem_bytes(elem) as u64) << shape_bits(&ss);
        if bytes > crate::sizes::STAGE_BYTES || ss.is_empty() {
            return;
        }
        let idx: Vec<Value> = self.m.operands(op).skip(1).collect();
        let blocks: Vec<i64> = ss.iter().zip(&rs).map(|(s, r)| s / r).collect();
        let consts: Option<Vec<i64>> = idx
            .iter()
            .zip(&blocks)
            .map(|(v, n)| self.const_index(*v).filter(|i| (0..*n).contains(i)))
            .collect();
        let buf = self.alloc_buffer(src, op, false);
        self.cta_barrier_at(InsertPoint::Before(op), op);
        let view = match consts {
            Some(c) => {
                let ty = self.view_type(buf, &rs, None);
                let offsets = c.iter().zip(&rs).map(|(i, r)| (i * r) as i32).collect();
                let attr = self.m.ctx.attrs.intern(AttrData::DenseI32Array(offsets));
                let sub = self.create(Opcode::MemDescSubslice, &[buf], &[ty], &[Some(attr)], op);
                self.m.result(sub, 0)
            }
            None => {
                let split: Vec<i64> = blocks.iter().zip(&rs).flat_map(|(n, r)| [*n, *r]).collect();
                let ty = self.view_type(buf, &split, None);
                let mut v = self.view_op(Opcode::MemDescReshape, &[buf], ty, op);
                let rank = ss.len();
                if rank > 1 {
                    let perm: Vec<usize> = (0..rank)
                        .map(|d| 2 * d)
                        .chain((0..rank).map(|d| 2 * d + 1))
                        .collect();
                    v = self.trans_view(v, &perm, op);
                }
                for i in idx {
                    let TypeData::MemDesc { shape, order, .. } =
                        self.m.ctx.types.get(self.m.value_type(v)).clone()
                    else {
                        break;
                    };
                    let order = order.iter().filter(|d| **d != 0).map(|d| d - 1).collect();
                    let ty = self.view_type(v, &shape[1..], Some(order));
                    v = self.view_op(Opcode::MemDescIndex, &[v, i], ty, op);
                }
                v
            }
        };
        let rty = self.m.value_type(res);
        let loaded = self.view_op(Opcode::LocalLoad, &[view], rty, op);
        self.create(Opcode::LocalDealloc, &[buf], &[], &[], op);
        let l = self.layout[&res].clone();
        self.set(loaded, l);
        self.m.replace_all_uses(res, loaded);
        self.m.erase_op(op);
    }

    /// The value of a rank-0 integer constant.
    fn const_index(&self, v: Value) -> Option<i64> {
        let d = self.m.defining_op(v)?;
        if self.m.opcode(d) != Opcode::Constant {
            return None;
        }
        match self.m.ctx.attrs.get(self.m.attr_named(d, "value")?) {
            AttrData::Dense(dense) if dense.splat || dense.values.len() == 1 => {
                Some(tilec_ir::util::sign_extend(dense.values[0], 32))
            }
            _ => None,
        }
    }

    /// Whether a round trip of `v` (in layout `from`) through shared memory should use the
    /// tensor-core operands' swizzle ([`mma_swizzle`]): the writer stores the tile with
    /// `stmatrix` under it ([`crate::mma::stmatrix_writes`]), whose 8 rows of 16 bytes an
    /// unswizzled buffer with rows of 128 bytes or more puts in one bank group.
    fn stmatrix_swizzle(&self, v: Value, from: &Layout) -> bool {
        let shape = self.shape(v);
        let elem = self.m.ctx.types.element_type(self.m.value_type(v));
        let swizzle = mma_swizzle(&shape, elem);
        if swizzle.is_identity() {
            return false;
        }
        let order = tilec_ir::TypeStore::row_major_order(shape.len());
        let pairs = crate::layout::swizzle_pairs(&shape, &order, swizzle);
        crate::mma::stmatrix_writes(self.arch, elem, from, &pairs).is_some()
    }

    /// `ttg.local_alloc %v` before `op`: a row-major buffer holding `v`, swizzled for
    /// tensor-core fragment reads ([`mma_swizzle`]) when `mma_operand`.
    fn alloc_buffer(&mut self, v: Value, op: Op, mma_operand: bool) -> Value {
        let ty = self.m.value_type(v);
        let shape: Box<[i64]> = self.shape(v).into();
        let elem = self.m.ctx.types.element_type(ty);
        let order = tilec_ir::TypeStore::row_major_order(shape.len());
        let swizzle = if mma_operand {
            mma_swizzle(&shape, elem)
        } else {
            Swizzle::NONE
        };
        let md = self.m.ctx.types.intern(TypeData::MemDesc {
            shape,
            elem,
            mutable: false,
            order,
            swizzle,
        });
        let alloc = self.create(Opcode::LocalAlloc, &[v], &[md], &[], op);
        self.located(alloc, op);
        self.m.result(alloc, 0)
    }

    /// Gives `new` (created for `op`) the source position of `op`.
    fn located(&mut self, new: Op, op: Op) {
        let (span, loc) = (self.m.op_span(op), self.m.op_loc(op));
        self.m.set_op_span(new, span);
        self.m.set_op_loc(new, loc);
    }

    /// For carried value `i` of a `for` whose initial value is a constant and whose body
    /// carries on the result of an `mmaf`/`mmai` on tensor cores: the accumulator layout,
    /// so that the accumulator stays in its fragments across iterations (the constant is
    /// materialised in it for free).
    fn carried_acc(&self, for_op: Op, i: usize) -> Option<Layout> {
        let m = &*self.m;
        let init = operand_group(m, for_op, "initValues")[i];
        if !self.is_constant(init) {
            return None;
        }
        let body = m.entry_block(m.region(for_op, 0))?;
        let term = m.last_op(body)?;
        if m.opcode(term) != Opcode::Continue || m.num_operands(term) <= i {
            return None;
        }
        let def = m.defining_op(m.operand(term, i))?;
        if !matches!(m.opcode(def), Opcode::MmaF | Opcode::MmaI) || m.op_block(def) != Some(body) {
            return None;
        }
        self.mma_acc(def)
    }

    /// Elementwise ops: every operand in the layout of the first operand that is neither a
    /// constant nor a broadcast (which are made again in any layout, see
    /// [`Assign::rematerialize_broadcast`]), else of the first non-constant one.
    fn elementwise(&mut self, op: Op) {
        let n = self.m.num_operands(op);
        if n == 0 {
            return;
        }
        let known: Vec<Value> = (0..n)
            .map(|i| self.m.operand(op, i))
            .filter(|v| !self.is_constant(*v) && self.layout.contains_key(v))
            .collect();
        // Weak: a broadcast (made again in any layout) or a value a `for` carries from a
        // constant (whose layout the second walk takes from the body).
        let weak = |v: &Value| match self.m.value_def(*v) {
            tilec_ir::ValueDef::Result(d, _) => self.m.opcode(d) == Opcode::Broadcast,
            tilec_ir::ValueDef::Arg(b, k) => self.m.block_parent_op(b).is_some_and(|f| {
                self.m.opcode(f) == Opcode::For
                    && k >= 1
                    && operand_group(self.m, f, "initValues")
                        .get(k as usize - 1)
                        .is_some_and(|init| self.is_constant(*init))
            }),
            _ => false,
        };
        let l = known
            .iter()
            .find(|v| !weak(v))
            .or(known.first())
            .map(|v| self.layout[v].clone())
            .unwrap_or_else(|| self.blocked(&self.shape(self.m.operand(op, 0))));
        for i in 0..n {
            self.want(op, i, &l);
        }
        self.results(op, &l);
    }

    /// A reduce or scan body: runs on single elements held by every thread.
    fn scalar_body(&mut self, op: Op) {
        if let Some(b) = self.m.entry_block(self.m.region(op, 0)) {
            for a in self.m.block_args(b).to_vec() {
                let s = self.scalar();
                self.set(a, s);
            }
            self.block(b);
        }
    }

    /// `yield` of an `if`: the first yield fixes each result's layout; later ones convert.
    fn yield_(&mut self, op: Op) {
        let Some(parent) = self.m.op_block(op).and_then(|b| self.m.block_parent_op(b)) else {
            return;
        };
        if self.m.opcode(parent) != Opcode::If {
            return; // reduce/scan bodies yield single elements
        }
        let Some(pos) = self.ifs.iter().rposition(|(o, _)| *o == parent) else {
            return;
        };
        let mut slots = std::mem::take(&mut self.ifs[pos].1);
        self.first_or_want(op, &mut slots);
        self.ifs[pos].1 = slots;
    }

    /// For each operand of a terminator: the slot's layout if set (converting the operand
    /// to it), else the operand's own layout, which then becomes the slot's.
    fn first_or_want(&mut self, op: Op, slots: &mut [Option<Rc<Layout>>]) {
        for (i, slot) in slots.iter_mut().enumerate().take(self.m.num_operands(op)) {
            match slot {
                Some(l) => {
                    let l = l.clone();
                    self.want(op, i, &l);
                }
                None => *slot = Some(self.any(op, i)),
            }
        }
    }

    fn set_results(&mut self, op: Op, results: Vec<Option<Rc<Layout>>>) {
        for (i, l) in results.into_iter().enumerate() {
            let r = self.m.result(op, i);
            let l = l.unwrap_or_else(|| self.blocked(&self.shape(r)));
            self.set(r, l);
        }
    }

    /// Writes the layouts into the types: every tile value of the entry gets an encoding
    /// (values nothing used get the blocked layout).
    fn finish(&mut self, e: Op) {
        for (v, _) in entry_values(self.m, e) {
            let ty = self.m.value_type(v);
            if !self.m.ctx.types.is_tile(ty) {
                continue;
            }
            let shape = self.shape(v);
            let l = self
                .layout
                .get(&v)
                .cloned()
                .unwrap_or_else(|| self.blocked(&shape));
            let enc = self.m.ctx.types.intern(l.to_encoding(&shape));
            let t = self.m.ctx.types.with_encoding(ty, Some(enc));
            self.m.set_value_type(v, t);
        }
    }
}

/// The `entry` ops of a module.
fn entries(m: &Module) -> Vec<Op> {
    let mut entries = Vec::new();
    m.walk(|op| {
        if m.opcode(op) == Opcode::Entry {
            entries.push(op);
        }
    });
    entries
}

/// Every value an `entry` defines (its arguments, op results and block arguments), each
/// with the op it belongs to (the entry itself for its arguments).
fn entry_values(m: &Module, e: Op) -> Vec<(Value, Op)> {
    let mut values = Vec::new();
    if let Some(b) = m.entry_block(m.region(e, 0)) {
        values.extend(m.block_args(b).iter().map(|a| (*a, e)));
    }
    m.walk_op(e, &mut |op| {
        values.extend(m.results(op).map(|r| (r, op)));
        for &r in m.regions(op) {
            for &b in m.region_blocks(r) {
                values.extend(m.block_args(b).iter().map(|a| (*a, op)));
            }
        }
    });
    values
}

fn operand_index(m: &Module, op: Op, group: &str) -> usize {
    let v = operand_group(m, op, group)[0];
    m.operands(op).position(|o| o == v).unwrap_or(0)
}

/// The integer attribute `name` of `op` (0 when absent).
pub fn int_attr(m: &Module, op: Op, name: &str) -> i64 {
    m.attr_named(op, name)
        .and_then(|a| m.ctx.attrs.get_int(a))
        .unwrap_or(0)
}

/// Whether `v` is a view or pointer load in `body`, or one elementwise op of one operand
/// applied to one (a conversion of a loaded tile).
fn is_load_in(m: &Module, v: Value, body: tilec_ir::Block) -> bool {
    let load = |v: Value| {
        m.defining_op(v).is_some_and(|d| {
            matches!(m.opcode(d), Opcode::LoadViewTko | Opcode::LoadPtrTko)
                && m.op_block(d) == Some(body)
        })
    };
    load(v)
        || m.defining_op(v).is_some_and(|c| {
            m.def(c).traits.contains(tilec_ir::ops::Traits::ELEMENTWISE)
                && m.num_operands(c) == 1
                && load(m.operand(c, 0))
        })
}

/// Whether B operand `b` of a product is better staged `N x K` (K fastest) than as it
/// is: a transposed tile (`permute` of its last two dimensions, which the staging's
/// permute cancels) or one loaded with K contiguous in memory ([`loaded_k_fastest`]:
/// copies keep the memory order).
fn b_k_fastest(m: &Module, b: Value) -> bool {
    let rank = m.ctx.types.shape(m.value_type(b)).len();
    let perm = swap_last_two(rank.max(2));
    m.defining_op(b)
        .is_some_and(|d| m.opcode(d) == Opcode::Permute && permutation(m, d, rank) == perm)
        || loaded_k_fastest(m, b)
}

/// Whether tile `v` is a view load (or one elementwise conversion of one) whose
/// second-to-last dimension is the tensor's last, contiguous one (`dim_map`): a `K x N`
/// operand stored `N x K`.
fn loaded_k_fastest(m: &Module, v: Value) -> bool {
    let mut d = m.defining_op(v);
    if let Some(c) = d.filter(|c| {
        m.def(*c)
            .traits
            .contains(tilec_ir::ops::Traits::ELEMENTWISE)
            && m.num_operands(*c) == 1
    }) {
        d = m.defining_op(m.operand(c, 0));
    }
    let Some(load) = d.filter(|l| m.opcode(*l) == Opcode::LoadViewTko) else {
        return false;
    };
    match m.ctx.types.get(m.value_type(m.operand(load, 0))) {
        TypeData::PartitionView { tile, dim_map, .. } => {
            let r = tile.len();
            r >= 2 && dim_map.len() == r && dim_map[r - 2] as usize == r - 1
        }
        _ => false,
    }
}

/// The `permutation` of a `permute` (identity when absent).
/// Whether `op` is a `permute` swapping the two dimensions of a matrix.
fn transposes(m: &Module, op: Op) -> bool {
    m.opcode(op) == Opcode::Permute
        && m.num_operands(op) == 1
        && m.ctx.types.shape(m.value_type(m.operand(op, 0))).len() == 2
        && permutation(m, op, 2) == [1, 0]
}

pub(crate) fn permutation(m: &Module, op: Op, rank: usize) -> Vec<usize> {
    match m.attr_named(op, "permutation").map(|a| m.ctx.attrs.get(a)) {
        Some(AttrData::DenseI32Array(p)) => p.iter().map(|x| *x as usize).collect(),
        _ => (0..rank).collect(),
    }
}

// ---- the GPU-level verifier ------------------------------------------------------------

/// Whether a `!ttg.memdesc` type is laid out row-major.
fn row_major(t: &TypeData) -> bool {
    matches!(t, TypeData::MemDesc { order, .. }
        if **order == *tilec_ir::TypeStore::row_major_order(order.len()))
}

/// Whether a `!ttg.memdesc` type has no swizzle.
fn unswizzled(t: &TypeData) -> bool {
    matches!(t, TypeData::MemDesc { swizzle, .. } if swizzle.is_identity())
}

/// Why a buffer of `shape` in `order` cannot have `swizzle`, if it cannot: the parameters
/// are powers of two, and a swizzle that moves elements needs a row dimension
/// (`order[1]`) and a fastest dimension holding `vec x maxPhase` elements (the XOR of a
/// phase must stay inside the row).
fn swizzle_error(shape: &[i64], order: &[u8], swizzle: Swizzle) -> Option<String> {
    let Swizzle {
        vec,
        per_phase,
        max_phase,
    } = swizzle;
    if ![vec, per_phase, max_phase]
        .iter()
        .all(|x| x.is_power_of_two())
    {
        return Some(format!(
            "swizzle parameters vec = {vec}, perPhase = {per_phase}, maxPhase = {max_phase} must be powers of two"
        ));
    }
    if swizzle.is_identity() {
        return None;
    }
    if shape.len() < 2 || order.len() != shape.len() {
        return Some(
            "a swizzled buffer needs a row and a column dimension (rank 2 or more)".into(),
        );
    }
    let cols = shape[order[0] as usize];
    if (vec as i64) * (max_phase as i64) > cols {
        return Some(format!(
            "swizzle vec x maxPhase = {} exceeds the {cols} elements of the fastest dimension",
            vec as u64 * max_phase as u64
        ));
    }
    None
}

/// Whether buffer `v` is a contiguous block of its allocation: a `ttg.local_alloc`, or a
/// `memdesc_index`, `memdesc_reshape` or `memdesc_reinterpret` of a contiguous row-major
/// buffer.
fn contiguous(m: &Module, v: Value) -> bool {
    let Some(d) = m.defining_op(v) else {
        return false;
    };
    match m.opcode(d) {
        Opcode::LocalAlloc => true,
        Opcode::MemDescIndex | Opcode::MemDescReshape | Opcode::MemDescReinterpret => {
            let src = m.operand(d, 0);
            row_major(m.ctx.types.get(m.value_type(src))) && contiguous(m, src)
        }
        _ => false,
    }
}

/// The memory order (fastest dimension first) of a view of a buffer in `order` with its
/// dimensions permuted by `perm` (result dimension `i` is source dimension `perm[i]`).
fn permuted_order(order: &[u8], perm: &[usize]) -> Vec<u8> {
    let mut inv = vec![0u8; perm.len()];
    for (i, p) in perm.iter().enumerate() {
        inv[*p] = i as u8;
    }
    order.iter().map(|d| inv[*d as usize]).collect()
}

/// Whether `m` is in the GPU-level IR (the output of [`convert_to_gpu`], read back): it has
/// a `ttg` op, a tile type with a layout, or a shared-memory buffer.
pub fn is_gpu_level(m: &Module) -> bool {
    let types = &m.ctx.types;
    let gpu_type = |t: Type| {
        matches!(
            types.get(t),
            TypeData::Tile {
                encoding: Some(_),
                ..
            } | TypeData::MemDesc { .. }
        )
    };
    let mut found = false;
    m.walk(|op| {
        found |= m.def(op).family == tilec_ir::ops::Family::Gpu
            || m.results(op).any(|v| gpu_type(m.value_type(v)))
            || m.regions(op).iter().any(|r| {
                m.region_blocks(*r)
                    .iter()
                    .any(|b| m.block_args(*b).iter().any(|a| gpu_type(m.value_type(*a))))
            });
    });
    found
}

/// The warps per tile block that the layouts of GPU-level IR `m` were made for (from the
/// number of warp bases of its layouts; 4 when it has none).
pub fn gpu_num_warps(m: &Module) -> u32 {
    let types = &m.ctx.types;
    let mut bits = None;
    m.walk(|op| {
        for v in m.results(op) {
            if let TypeData::Tile {
                encoding: Some(e), ..
            } = types.get(m.value_type(v))
                && let TypeData::LinearEncoding { warp, .. } = types.get(*e)
            {
                bits = Some(warp.len() as u32);
            }
        }
    });
    bits.map_or(4, |b| 1 << b.min(4))
}

/// Why the tensor-core instruction recorded on `mmaf`/`mmai` `op` ([`crate::mma::MMA_ATTR`])
/// does not fit it, if it does not: an unknown instruction, operand element types it does
/// not take, shapes it does not tile, or operands and result not in the layouts of its
/// plan (A and B may be staged in shared memory instead).
fn mma_error(m: &Module, op: Op, warp_bits: u32) -> Option<String> {
    let types = &m.ctx.types;
    let ty = |i: usize| m.value_type(m.operand(op, i));
    if let Some(a) = m.attr_named(op, crate::wgmma::ASYNC_ATTR) {
        let async_attr = crate::wgmma::ASYNC_ATTR;
        if !matches!(m.ctx.attrs.get(a), AttrData::Unit) {
            return Some(format!("'{async_attr}' must be a unit attribute"));
        }
        if crate::wgmma::recorded(m, op).is_none() {
            return Some(format!("has '{async_attr}' but records no warpgroup MMA"));
        }
        let in_place = m
            .op_block(op)
            .and_then(|b| m.block_parent_op(b))
            .is_some_and(|f| m.opcode(f) == Opcode::For && accumulates_in_place(m, op, f));
        if !in_place {
            return Some(format!(
                "has '{async_attr}' but does not accumulate in place over a loop (its accumulator a value the loop carries and its result what the loop carries on, neither used otherwise)"
            ));
        }
        let a_registers = types.is_tile(ty(0));
        let f = m.op_block(op).and_then(|b| m.block_parent_op(b));
        if a_registers && f.is_some_and(|f| a_computed_in_loop(m, op, f)) {
            return Some(format!(
                "has '{async_attr}' but its A operand is in registers and computed in the loop (the next K step writes them while the product in flight reads them)"
            ));
        }
    }
    if let Some(a) = m.attr_named(op, STAGES_ATTR)
        && !m.ctx.attrs.get_int(a).is_some_and(|n| (2..=6).contains(&n))
    {
        return Some(format!("'{STAGES_ATTR}' must be an integer from 2 to 6"));
    }
    let layout = |t: Type| {
        types
            .encoding(t)
            .and_then(|e| Layout::from_encoding(types.get(e), types.shape(t), warp_bits).ok())
    };
    if let Some(name) = crate::wgmma::recorded(m, op) {
        let Some(plan) =
            crate::wgmma::wgmma_plan_for(name, types.shape(ty(0)), types.shape(ty(1)), warp_bits)
        else {
            return Some(format!(
                "records '{name}', which does not fit its operand shapes and warps"
            ));
        };
        let elems = (0..3)
            .map(|i| types.element_type(ty(i)))
            .collect::<Vec<_>>();
        if elems != [plan.elem_a, plan.elem_b, plan.acc] {
            return Some(format!(
                "records '{name}' for operands of other element types"
            ));
        }
        if types.is_tile(ty(1)) {
            return Some(format!(
                "records '{name}', which reads B from shared memory"
            ));
        }
        if types.is_tile(ty(0))
            && (!plan.a_in_registers_allowed() || layout(ty(0)).as_ref() != Some(&plan.a_layout()))
        {
            return Some(format!(
                "records '{name}' with A in registers, which must be a 16-bit tile in the instruction's A fragment layout"
            ));
        }
        for t in [ty(2), m.value_type(m.result(op, 0))] {
            if layout(t).as_ref() != Some(&plan.c) {
                return Some(format!(
                    "records '{name}' but its accumulator is not in the instruction's layout"
                ));
            }
        }
        return None;
    }
    let kind = match crate::mma::MmaKind::recorded(m, op) {
        Some(Ok(k)) => k,
        Some(Err(why)) => return Some(why),
        // The fallback loop reads its operands from registers.
        None if (0..2).any(|i| types.is_tile(ty(i)).not()) => {
            return Some(format!(
                "reads an operand from shared memory but records no tensor-core instruction ('{}')",
                crate::mma::MMA_ATTR
            ));
        }
        None => return None,
    };
    let elems = (0..3)
        .map(|i| types.element_type(ty(i)))
        .collect::<Vec<_>>();
    if crate::mma::mma_kind(elems[0], elems[1], elems[2]) != Some(kind) {
        return Some(format!(
            "records '{}' for operands of element types {}, {} and {}",
            kind.name(),
            types.to_string(elems[0], false),
            types.to_string(elems[1], false),
            types.to_string(elems[2], false)
        ));
    }
    let Some(plan) =
        crate::mma::mma_plan_for(kind, types.shape(ty(0)), types.shape(ty(1)), warp_bits)
    else {
        return Some(format!(
            "records '{}' but its operand shapes do not tile by it",
            kind.name()
        ));
    };
    let want = [
        (ty(0), &plan.a, "A"),
        (ty(1), &plan.b, "B"),
        (ty(2), &plan.c, "C"),
        (m.value_type(m.result(op, 0)), &plan.c, "the result"),
    ];
    for (t, l, what) in want {
        if types.is_tile(t) && layout(t).as_ref() != Some(l) {
            return Some(format!(
                "records '{}' but {what} is not in the instruction's fragment layout",
                kind.name()
            ));
        }
    }
    None
}

/// Verifies GPU-level IR read from text ([`verify_gpu`] with the warps its layouts were
/// made for), as located E0902 diagnostics.
pub fn verify_gpu_input(m: &Module) -> Vec<tilec_diag::Diagnostic> {
    let opts = Options {
        num_warps: gpu_num_warps(m),
        ..Options::default()
    };
    let file = m.file().unwrap_or(tilec_diag::FileId(0));
    match verify_gpu(m, &opts) {
        Ok(()) => Vec::new(),
        Err(errors) => errors
            .into_iter()
            .map(|e| {
                let span = e.op.and_then(|op| m.op_span(op)).unwrap_or_default();
                tilec_diag::Diagnostic::error(
                    tilec_diag::codes::GPU_INVALID_IR,
                    format!("invalid GPU-level IR: {}", e.message),
                )
                .at(tilec_diag::Location::new(file, span))
            })
            .collect(),
    }
}

/// A violated rule of the GPU-level IR: the op (if any) and the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuError {
    /// The offending op.
    pub op: Option<Op>,
    /// What is wrong.
    pub message: String,
}

/// Checks the GPU-level IR of every `entry` of `m` against the rules of tritongpu-ops.md
/// and the invariants the PTX writer relies on:
///
/// * every tile value has a `#ttg.linear` encoding that is a layout of its shape for the
///   CTA's warps (each element bit selected exactly once);
/// * `ttg.convert_layout` keeps shape and element type;
/// * `ttg.local_alloc` yields a `!ttg.memdesc` whose shape and element type are those of
///   its initial tile, and without one the buffer is mutable;
/// * `ttg.local_load` reads a `!ttg.memdesc` into a tile of the same shape and element type;
/// * `ttg.local_dealloc` releases a `!ttg.memdesc` and is its last use;
/// * `ttg.memdesc_index` takes one element along dimension 0 of a row-major buffer with
///   a rank-0 index; `ttg.local_store` writes a tile of the buffer's shape into a mutable
///   buffer;
/// * `ttg.async_copy_global_to_local` copies a partition view tile (zero padding) into a
///   mutable buffer of its shape;
/// * `ttg.predicate_stage` maps rank-0 integers to a rank-0 i1; `ttg.mask` has a rank-0
///   i1 predicate and a body ending in a `ttg.mask.return` of its result types;
/// * `ttg.memdesc_trans` permutes its buffer's dimensions (and their memory order) by a
///   permutation `order`;
/// * `mmaf`/`mmai` operands (tiles or buffers) have consistent shapes, the accumulator in
///   registers;
/// * `ttg.barrier` has its address space;
/// * `ttg.global_scratch_alloc` is in its entry's body and its pointer only the map of
///   `ttng.tensormap_create` (of a partition view, swizzle mode 0 to 3) and of
///   `ttng.async_tma_copy_global_to_local`, which copies a view tile through a map made
///   for that view into a mutable buffer of its shape, completing on a barrier;
/// * the `ttng` barrier ops take a mutable `!ttg.memdesc<1xi64>`, a positive count or
///   size, an i1 predicate (`barrier_expect`) and an i32 phase (`wait_barrier`);
/// * the tile operands and results of elementwise ops share one encoding.
pub fn verify_gpu(m: &Module, opts: &Options) -> Result<(), Vec<GpuError>> {
    let mut errors = Vec::new();
    for e in entries(m) {
        // Each entry's layouts are made for its own warps (the first layout says how
        // many; every other must agree).
        let warp_bits = entry_warp_bits(m, e).unwrap_or(opts.warp_bits());
        verify_entry(m, e, warp_bits, &mut errors);
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// log2 of the warps the layouts of `entry` were made for (its first tile value with a
/// layout says), if any has one.
pub fn entry_warp_bits(m: &Module, entry: Op) -> Option<u32> {
    let types = &m.ctx.types;
    entry_values(m, entry).into_iter().find_map(|(v, _)| {
        let enc = types.encoding(m.value_type(v))?;
        match types.get(enc) {
            TypeData::LinearEncoding { warp, .. } => Some(warp.len() as u32),
            _ => None,
        }
    })
}

/// The most warps (4 or 8) at which every product of `entry` that warpgroup MMA can run
/// with 4 warps still can (its M holds 64 rows per warpgroup): `None` when none can.
/// [`choose_warps`] may ask for more (a wide B tile counts many registers), which would
/// leave a product of 64 rows on `mma.sync`.
fn wgmma_warp_cap(m: &Module, entry: Op) -> Option<u32> {
    let types = &m.ctx.types;
    let mut cap: Option<u32> = None;
    m.walk_op(entry, &mut |op| {
        if !matches!(m.opcode(op), Opcode::MmaF | Opcode::MmaI) {
            return;
        }
        let ty = |i: usize| m.value_type(m.operand(op, i));
        let plan = |warp_bits: u32| {
            crate::wgmma::wgmma_plan(
                types.shape(ty(0)),
                types.shape(ty(1)),
                types.element_type(ty(0)),
                types.element_type(ty(1)),
                types.element_type(ty(2)),
                (true, true),
                warp_bits,
                crate::target::Arch::Sm90a,
            )
        };
        if plan(2).is_some() {
            let most = if plan(3).is_some() { 8 } else { 4 };
            cap = Some(cap.map_or(most, |c| c.min(most)));
        }
    });
    cap
}

/// The warps for `entry` when `--num-warps` does not say: enough that the largest tile
/// it holds takes at most 64 registers per thread (64 elements of 32 bits: a 128x128 f32
/// accumulator gets 8 warps), and otherwise as few as keep a 16-byte vector per thread in
/// its largest global access (a 128-element f32 tile: one warp), at most 4; 1, 2, 4 or 8.
pub fn choose_warps(m: &Module, entry: Op) -> u32 {
    let types = &m.ctx.types;
    let mut regs_elems: u64 = 0;
    let mut global_bytes: u64 = 0;
    let tile_size = |v: Value| -> (u64, u64) {
        let ty = m.value_type(v);
        if !types.is_tile(ty) {
            return (0, 0);
        }
        let n: u64 = types.shape(ty).iter().map(|d| (*d).max(1) as u64).product();
        let elem = types.element_type(ty);
        let bytes = match types.get(elem) {
            TypeData::Ptr(_) => 8,
            _ => crate::sizes::elem_bytes(elem) as u64,
        };
        (n * bytes.div_ceil(4), n * bytes)
    };
    m.walk_op(entry, &mut |op| {
        for r in m.results(op) {
            regs_elems = regs_elems.max(tile_size(r).0);
        }
        if let Some((_, v)) = crate::vectorize::global_access(m, op) {
            global_bytes = global_bytes.max(tile_size(v).1);
        }
    });
    let floor_pow2 = |x: u64| 1u64 << (63 - x.max(1).leading_zeros());
    let by_vectors = floor_pow2((global_bytes / (32 * 16)).clamp(1, 4));
    let by_registers = regs_elems.div_ceil(32 * 64).max(1).next_power_of_two();
    by_vectors.max(by_registers).min(8) as u32
}

/// [`verify_gpu`] of one entry whose layouts are made for `2^warp_bits` warps.
fn verify_entry(m: &Module, e: Op, warp_bits: u32, errors: &mut Vec<GpuError>) {
    let types = &m.ctx.types;
    let mut err = |op: Option<Op>, message: String| errors.push(GpuError { op, message });
    let check_value = |v: Value, err: &mut dyn FnMut(String)| {
        let ty = m.value_type(v);
        if let TypeData::Tile {
            shape, encoding, ..
        } = types.get(ty)
        {
            match encoding {
                None => err(format!(
                    "tile value of type '{}' has no layout encoding",
                    types.to_string(ty, false)
                )),
                Some(e) => {
                    if let Err(why) = Layout::from_encoding(types.get(*e), shape, warp_bits) {
                        err(format!(
                            "invalid layout for '{}': {why}",
                            types.to_string(ty, false)
                        ));
                    }
                }
            }
        }
    };
    let plain = |t: Type| -> Option<(Vec<i64>, Type)> {
        match types.get(t) {
            TypeData::Tile { shape, elem, .. } | TypeData::MemDesc { shape, elem, .. } => {
                Some((shape.to_vec(), *elem))
            }
            _ => None,
        }
    };
    let is_memdesc = |t: Type| matches!(types.get(t), TypeData::MemDesc { .. });
    // A copy engine's copy `op` goes through a map (operand 0) that a
    // `ttng.tensormap_create` of its view (operand 1) writes.
    let map_made_for_view = |op: Op| {
        let (map, view) = (m.operand(op, 0), m.operand(op, 1));
        m.users(map)
            .any(|u| m.opcode(u) == Opcode::TensormapCreate && m.operand(u, 1) == view)
    };
    let is_barrier = |t: Type| matches!(types.get(t), TypeData::MemDesc { shape, elem: Type::I64, mutable: true, .. } if **shape == [1]);
    {
        for (v, op) in entry_values(m, e) {
            check_value(v, &mut |s| err(Some(op), s));
        }
        for (op, why) in crate::smem::allocation_errors(m, e) {
            err(Some(op), why);
        }
        m.walk_op(e, &mut |op| {
            let name = m.def(op).name;
            let operand_ty = |i: usize| m.value_type(m.operand(op, i));
            for r in m.results(op) {
                if let TypeData::MemDesc { shape, order, swizzle, .. } = types.get(m.value_type(r))
                    && let Some(why) = swizzle_error(shape, order, *swizzle)
                {
                    err(Some(op), format!("'{name}' op result: {why}"));
                }
            }
            if let Some(why) = crate::vectorize::vector_error(m, op, warp_bits) {
                err(Some(op), format!("'{name}' op {why}"));
            }
            if let Some(why) = crate::vectorize::nonneg_error(m, op) {
                err(Some(op), format!("'{name}' op {why}"));
            }
            match m.opcode(op) {
                Opcode::ConvertLayout => {
                    if plain(operand_ty(0)) != plain(m.value_type(m.result(op, 0))) {
                        err(
                            Some(op),
                            format!("'{name}' op requires the same shape and element type for its source and result"),
                        );
                    }
                }
                Opcode::LocalAlloc => {
                    let rt = m.value_type(m.result(op, 0));
                    match types.get(rt) {
                        TypeData::MemDesc { mutable, .. } => {
                            if m.num_operands(op) == 0 && !mutable {
                                err(Some(op), format!("'{name}' op without an initial value must return a mutable buffer"));
                            }
                            if m.num_operands(op) == 1 && plain(operand_ty(0)) != plain(rt) {
                                err(Some(op), format!("'{name}' op requires the buffer's shape and element type to match its initial value"));
                            }
                        }
                        _ => err(Some(op), format!("'{name}' op must return a !ttg.memdesc")),
                    }
                }
                Opcode::LocalLoad => {
                    if !is_memdesc(operand_ty(0)) {
                        err(Some(op), format!("'{name}' op must read a !ttg.memdesc"));
                    } else if plain(operand_ty(0)) != plain(m.value_type(m.result(op, 0))) {
                        err(Some(op), format!("'{name}' op requires the result's shape and element type to match the buffer's"));
                    }
                }
                Opcode::LocalDealloc => {
                    let buf = m.operand(op, 0);
                    if !is_memdesc(m.value_type(buf)) {
                        err(Some(op), format!("'{name}' op must release a !ttg.memdesc"));
                    }
                    let mut after = m.next_op(op);
                    while let Some(o) = after {
                        if m.operands(o).any(|v| v == buf) {
                            err(Some(o), format!("buffer used after its '{name}'"));
                        }
                        after = m.next_op(o);
                    }
                }
                Opcode::MemDescIndex => {
                    match (types.get(operand_ty(0)), types.get(m.value_type(m.result(op, 0)))) {
                        (
                            TypeData::MemDesc { shape: ss, elem: se, mutable: sm, order: so, swizzle: ssw },
                            TypeData::MemDesc { shape: rs, elem: re, mutable: rm, order: ro, swizzle: rsw },
                        ) => {
                            // Dimension 0 leaves the memory order; the others keep theirs.
                            let order: Vec<u8> = so.iter().filter(|d| **d != 0).map(|d| d - 1).collect();
                            if ss.len() < 2 || ss[1..] != **rs || se != re || sm != rm || **ro != *order {
                                err(Some(op), format!("'{name}' op result must be one element along dimension 0 of its source"));
                            } else if ssw != rsw {
                                err(Some(op), format!("'{name}' op result must keep its source's swizzle"));
                            } else if !ssw.is_identity() && so.iter().take(2).any(|d| *d == 0) {
                                // The writer swizzles inside the matrices of the row and
                                // column dimensions; an index may only pick a whole one.
                                err(Some(op), format!("'{name}' op cannot index the row or column dimension of a swizzled buffer"));
                            }
                        }
                        _ => err(Some(op), format!("'{name}' op must index a !ttg.memdesc into a !ttg.memdesc")),
                    }
                    if !types.is_tile(operand_ty(1)) || !types.shape(operand_ty(1)).is_empty() {
                        err(Some(op), format!("'{name}' op requires a rank-0 index"));
                    }
                }
                Opcode::LocalStore => {
                    match types.get(operand_ty(1)) {
                        TypeData::MemDesc { mutable, .. } => {
                            if !mutable {
                                err(Some(op), format!("'{name}' op requires a mutable buffer"));
                            }
                            if plain(operand_ty(0)) != plain(operand_ty(1)) {
                                err(Some(op), format!("'{name}' op requires the tile's shape and element type to match the buffer's"));
                            }
                        }
                        _ => err(Some(op), format!("'{name}' op must write a !ttg.memdesc")),
                    }
                }
                Opcode::AsyncCopyGlobalToLocal => {
                    let n = m.num_operands(op);
                    let view = types.get(operand_ty(0));
                    let dst = types.get(operand_ty(n - 1));
                    match (view, dst) {
                        (
                            TypeData::PartitionView { tile, padding, .. },
                            TypeData::MemDesc { shape, mutable: true, .. },
                        ) => {
                            if tile != shape || n - 2 != tile.len() {
                                err(Some(op), format!("'{name}' op requires a buffer of the view's tile shape and one index per dimension"));
                            }
                            if !matches!(padding, None | Some(PaddingValue::Zero)) {
                                err(Some(op), format!("'{name}' op fills out-of-bounds elements with zeros: the view must pad with zero"));
                            }
                        }
                        _ => err(Some(op), format!("'{name}' op copies a partition view tile into a mutable !ttg.memdesc")),
                    }
                }
                Opcode::PredicateStage => {
                    let scalar_int = |t: Type| {
                        types.is_tile(t) && types.shape(t).is_empty() && matches!(types.element_type(t), Type::I8 | Type::I16 | Type::I32 | Type::I64)
                    };
                    let result = m.value_type(m.result(op, 0));
                    if !(0..3).all(|i| scalar_int(operand_ty(i)))
                        || types.element_type(result) != Type::I1
                        || !types.shape(result).is_empty()
                    {
                        err(Some(op), format!("'{name}' op takes rank-0 integer iv, ub and step and returns a rank-0 i1"));
                    }
                }
                Opcode::Mask => {
                    let pred = operand_ty(0);
                    if !types.is_tile(pred) || !types.shape(pred).is_empty() || types.element_type(pred) != Type::I1 {
                        err(Some(op), format!("'{name}' op requires a rank-0 i1 predicate"));
                    }
                    let term = m.entry_block(m.region(op, 0)).and_then(|b| m.last_op(b));
                    let returned: Option<Vec<Type>> = term
                        .filter(|t| m.opcode(*t) == Opcode::MaskReturn)
                        .map(|t| m.operands(t).map(|v| m.value_type(v)).collect());
                    let results: Vec<Type> = m.results(op).map(|r| m.value_type(r)).collect();
                    if returned.as_ref() != Some(&results) {
                        err(Some(op), format!("'{name}' op body must end with a 'ttg.mask.return' of the op's result types"));
                    }
                }
                Opcode::MemDescTrans => {
                    let perm: Vec<usize> = match m.attr_named(op, "order").map(|a| m.ctx.attrs.get(a)) {
                        Some(AttrData::DenseI32Array(p)) => p.iter().map(|x| *x as usize).collect(),
                        _ => Vec::new(),
                    };
                    match (types.get(operand_ty(0)), types.get(m.value_type(m.result(op, 0)))) {
                        (
                            TypeData::MemDesc { shape: ss, elem: se, order: so, swizzle: ssw, .. },
                            TypeData::MemDesc { shape: rs, elem: re, order: ro, swizzle: rsw, .. },
                        ) => {
                            let mut sorted = perm.clone();
                            sorted.sort_unstable();
                            if sorted != (0..ss.len()).collect::<Vec<_>>() {
                                err(Some(op), format!("'{name}' op requires 'order' to be a permutation of the buffer's dimensions"));
                            } else {
                                // Result dim i is source dim perm[i]; the memory order
                                // follows the dimensions.
                                let shape: Vec<i64> = perm.iter().map(|p| ss[*p]).collect();
                                let order = permuted_order(so, &perm);
                                if se != re || **rs != *shape || **ro != *order {
                                    err(Some(op), format!("'{name}' op result must be the source buffer with its dimensions permuted by 'order'"));
                                } else if ssw != rsw {
                                    err(Some(op), format!("'{name}' op result must keep its source's swizzle"));
                                }
                            }
                        }
                        _ => err(Some(op), format!("'{name}' op must view a !ttg.memdesc as a !ttg.memdesc")),
                    }
                }
                Opcode::MemDescSubslice => {
                    let offsets: Vec<i64> = match m.attr_named(op, "offsets").map(|a| m.ctx.attrs.get(a)) {
                        Some(AttrData::DenseI32Array(o)) => o.iter().map(|x| *x as i64).collect(),
                        _ => Vec::new(),
                    };
                    match (types.get(operand_ty(0)), types.get(m.value_type(m.result(op, 0)))) {
                        (
                            TypeData::MemDesc { shape: ss, elem: se, mutable: sm, order: so, swizzle: ssw },
                            TypeData::MemDesc { shape: rs, elem: re, mutable: rm, order: ro, swizzle: rsw },
                        ) => {
                            if !ssw.is_identity() || !rsw.is_identity() {
                                // A block of a swizzled matrix is not swizzled as a matrix
                                // of its own shape: the writer cannot address it.
                                err(Some(op), format!("'{name}' op cannot take a block of a swizzled buffer"));
                            } else if ss.len() != rs.len() || se != re || sm != rm || so != ro {
                                err(Some(op), format!("'{name}' op result must be a block of its source: same rank, element type, mutability and order"));
                            } else if offsets.len() != ss.len()
                                || (0..ss.len()).any(|d| offsets[d] < 0 || offsets[d] % rs[d] != 0 || offsets[d] + rs[d] > ss[d])
                            {
                                err(Some(op), format!("'{name}' op requires one offset per dimension, a multiple of the result's size there and inside the source"));
                            }
                        }
                        _ => err(Some(op), format!("'{name}' op must view a !ttg.memdesc as a !ttg.memdesc")),
                    }
                }
                Opcode::MemDescReshape | Opcode::MemDescReinterpret => {
                    let reinterpret = m.opcode(op) == Opcode::MemDescReinterpret;
                    match (types.get(operand_ty(0)), types.get(m.value_type(m.result(op, 0)))) {
                        (
                            src @ TypeData::MemDesc { shape: ss, elem: se, mutable: sm, order: so, swizzle: ssw },
                            res @ TypeData::MemDesc { shape: rs, elem: re, mutable: rm, order: ro, swizzle: rsw },
                        ) => {
                            let bytes = |s: &[i64], e: &Type| s.iter().product::<i64>() * crate::sizes::elem_bytes(*e) as i64;
                            // A swizzled view reshaped into a row-major one whose XOR pattern
                            // falls on the same bits of the row-major index, which a reshape
                            // keeps (a column-blocked buffer's `K x N` view).
                            let pairs = crate::layout::swizzle_pairs;
                            let same_swizzle = !reinterpret
                                && ssw == rsw
                                && !ssw.is_identity()
                                && row_major(res)
                                && pairs(ss, so, *ssw) == pairs(rs, ro, *rsw);
                            if same_swizzle {
                                if se != re || sm != rm || ss.iter().product::<i64>() != rs.iter().product::<i64>() {
                                    err(Some(op), format!("'{name}' op requires the same mutability and element type and number of elements in its source and result"));
                                }
                            } else if !row_major(src) || !row_major(res) {
                                err(Some(op), format!("'{name}' op requires a row-major source and result"));
                            } else if !unswizzled(src) || !unswizzled(res) {
                                err(Some(op), format!("'{name}' op requires an unswizzled source and result"));
                            } else if sm != rm
                                || (!reinterpret && (se != re || ss.iter().product::<i64>() != rs.iter().product::<i64>()))
                                || (reinterpret && bytes(ss, se) != bytes(rs, re))
                            {
                                let what = if reinterpret { "bytes" } else { "element type and number of elements" };
                                err(Some(op), format!("'{name}' op requires the same mutability and {what} in its source and result"));
                            } else if reinterpret && !contiguous(m, m.operand(op, 0)) {
                                err(Some(op), format!("'{name}' op requires a contiguous source (not a 'ttg.memdesc_subslice' view)"));
                            }
                        }
                        _ => err(Some(op), format!("'{name}' op must view a !ttg.memdesc as a !ttg.memdesc")),
                    }
                }
                Opcode::ClusterGather => {
                    // [N] + the part's shape, N a cluster size; the part in shared memory.
                    let src_ty = m.value_type(m.operand(op, 0));
                    let rs = types.shape(m.value_type(m.result(op, 0)));
                    let n = rs.first().copied().unwrap_or(0);
                    if !matches!(types.get(src_ty), TypeData::MemDesc { .. })
                        || rs.get(1..) != Some(types.shape(src_ty))
                        || !(2..=16).contains(&n)
                        || !(n as u64).is_power_of_two()
                    {
                        err(
                            Some(op),
                            format!(
                                "'{name}' gathers a shared-memory buffer into a tile of 2 to 16 of it along a new leading dimension"
                            ),
                        );
                    }
                }
                Opcode::WarpId | Opcode::ClusterCtaId => {
                    let t = m.value_type(m.result(op, 0));
                    if !types.is_tile(t) || !types.shape(t).is_empty() || types.element_type(t) != Type::I32 {
                        err(Some(op), format!("'{name}' op returns a rank-0 i32"));
                    }
                }
                Opcode::MmaF | Opcode::MmaI => {
                    // A and B may be shared-memory buffers (staged operands); the shapes
                    // must still be [b x] M x K, [b x] K x N and [b x] M x N, and C is a tile.
                    let full = m.def(op).full_name();
                    let shapes: Vec<Vec<i64>> = (0..3)
                        .map(|i| plain(operand_ty(i)).map(|p| p.0).unwrap_or_default())
                        .collect();
                    let dim = |s: &[i64], back: usize| s.len().checked_sub(back).map(|i| s[i]);
                    let (a, b, c) = (&shapes[0], &shapes[1], &shapes[2]);
                    if dim(a, 1) != dim(b, 2) || dim(a, 2) != dim(c, 2) || dim(b, 1) != dim(c, 1) {
                        err(Some(op), format!("'{full}' op requires operands of shapes [b x] M x K, [b x] K x N and [b x] M x N"));
                    }
                    if is_memdesc(operand_ty(2)) {
                        err(Some(op), format!("'{full}' op requires its accumulator in registers"));
                    }
                    if let Some(why) = mma_error(m, op, warp_bits) {
                        err(Some(op), format!("'{full}' op {why}"));
                    }
                }
                Opcode::GpuBarrier => {
                    if m.attr_named(op, "addrSpace").is_none() {
                        err(Some(op), format!("'{name}' op requires an address space"));
                    }
                }
                Opcode::GlobalScratchAlloc => {
                    let int = |n: &str| m.attr_named(op, n).and_then(|a| m.ctx.attrs.get_int(a)).unwrap_or(0);
                    // In the entry's body, or in the partition of a `ttg.warp_specialize`
                    // there (whose first warp then claims it).
                    let top = m.entry_block(m.region(e, 0));
                    let block = m.op_block(op);
                    let in_partition = block
                        .and_then(|b| m.block_parent_op(b))
                        .is_some_and(|w| {
                            m.opcode(w) == Opcode::WarpSpecialize
                                && m.entry_block(m.region(w, 1)) == block
                                && m.op_block(w) == top
                        });
                    if block != top && !in_partition {
                        err(Some(op), format!("'{name}' op must be in the body of its entry or of a warp-specialized partition there (it claims a slot once per CTA)"));
                    }
                    if !(1..=1 << 16).contains(&int("nbytes")) || !(int("alignment") as u64).is_power_of_two() {
                        err(Some(op), format!("'{name}' op requires 'nbytes' from 1 to 65536 and a power-of-two 'alignment'"));
                    }
                    // Only warp 0 holds the address (tensor maps are built and used there).
                    let r = m.result(op, 0);
                    let used_right = m.users(r).all(|u| {
                        matches!(
                            m.opcode(u),
                            Opcode::TensormapCreate | Opcode::AsyncTmaCopyGlobalToLocal | Opcode::AsyncTmaCopyLocalToGlobal
                        )
                            && m.operands(u).enumerate().all(|(i, v)| v != r || i == 0)
                    });
                    if !used_right || !types.shape(m.value_type(r)).is_empty() {
                        err(Some(op), format!("'{name}' op returns a rank-0 pointer used only as the map of 'ttng.tensormap_create' and the copy engine's copies"));
                    }
                }
                Opcode::TensormapCreate => {
                    let slot = m.defining_op(m.operand(op, 0)).filter(|d| m.opcode(*d) == Opcode::GlobalScratchAlloc);
                    let bytes = slot
                        .and_then(|d| m.attr_named(d, "nbytes"))
                        .and_then(|a| m.ctx.attrs.get_int(a))
                        .unwrap_or(0);
                    if bytes < 128 {
                        err(Some(op), format!("'{name}' op writes its 128-byte map into a 'ttg.global_scratch_alloc' of at least 128 bytes"));
                    }
                    if !matches!(types.get(operand_ty(1)), TypeData::PartitionView { .. }) {
                        err(Some(op), format!("'{name}' op maps a partition view"));
                    }
                    let mode = m.attr_named(op, "swizzle_mode").and_then(|a| m.ctx.attrs.get_int(a));
                    if !mode.is_some_and(|x| (0..4).contains(&x)) {
                        err(Some(op), format!("'{name}' op requires 'swizzle_mode' from 0 (none) to 3 (128 bytes)"));
                    }
                }
                Opcode::InitBarrier
                | Opcode::InvalBarrier
                | Opcode::BarrierExpect
                | Opcode::ArriveBarrier
                | Opcode::WaitBarrier => {
                    if !is_barrier(operand_ty(0)) {
                        err(Some(op), format!("'{name}' op requires a mutable !ttg.memdesc<1xi64> barrier"));
                    }
                    let int = |n: &str| m.attr_named(op, n).and_then(|a| m.ctx.attrs.get_int(a));
                    let rank0 = |t: Type, elems: &[Type]| {
                        types.is_tile(t) && types.shape(t).is_empty() && elems.contains(&types.element_type(t))
                    };
                    let code = m.opcode(op);
                    if matches!(code, Opcode::InitBarrier | Opcode::ArriveBarrier) && int("count").is_none_or(|c| c < 1) {
                        err(Some(op), format!("'{name}' op requires a positive 'count'"));
                    }
                    if code == Opcode::BarrierExpect && (int("size").is_none_or(|c| c < 1) || !rank0(operand_ty(1), &[Type::I1])) {
                        err(Some(op), format!("'{name}' op requires a positive 'size' and a rank-0 i1 predicate"));
                    }
                    if code == Opcode::WaitBarrier && !rank0(operand_ty(1), &[Type::I32]) {
                        err(Some(op), format!("'{name}' op requires a rank-0 i32 phase"));
                    }
                }
                Opcode::AsyncTmaCopyGlobalToLocal => {
                    let n = m.num_operands(op);
                    if !map_made_for_view(op) {
                        err(Some(op), format!("'{name}' op requires a map that a 'ttng.tensormap_create' of its view writes"));
                    }
                    match (types.get(operand_ty(1)), types.get(operand_ty(n - 2))) {
                        (TypeData::PartitionView { tile, .. }, TypeData::MemDesc { shape, mutable: true, .. }) => {
                            if tile != shape || n - 4 != tile.len() {
                                err(Some(op), format!("'{name}' op requires a buffer of the view's tile shape and one index per dimension"));
                            }
                        }
                        _ => err(Some(op), format!("'{name}' op copies a partition view tile into a mutable !ttg.memdesc")),
                    }
                    if !is_barrier(operand_ty(n - 1)) {
                        err(Some(op), format!("'{name}' op completes on a mutable !ttg.memdesc<1xi64> barrier"));
                    }
                }
                Opcode::AsyncTmaCopyLocalToGlobal => {
                    let n = m.num_operands(op);
                    if !map_made_for_view(op) {
                        err(Some(op), format!("'{name}' op requires a map that a 'ttng.tensormap_create' of its view writes"));
                    }
                    match (types.get(operand_ty(1)), types.get(operand_ty(n - 1))) {
                        (TypeData::PartitionView { tile, .. }, TypeData::MemDesc { shape, swizzle, .. }) => {
                            if tile != shape || n - 3 != tile.len() || !swizzle.is_identity() {
                                err(Some(op), format!("'{name}' op requires an unswizzled buffer of the view's tile shape and one index per dimension"));
                            }
                        }
                        _ => err(Some(op), format!("'{name}' op stores a !ttg.memdesc into a partition view tile")),
                    }
                }
                Opcode::AsyncTmaStoreWait => {
                    let pendings = m
                        .attr_named(op, crate::wgmma::PENDINGS_ATTR)
                        .and_then(|a| m.ctx.attrs.get_int(a));
                    if !pendings.is_some_and(|n| (0..8).contains(&n)) {
                        err(Some(op), format!("'{name}' op requires 'pendings', an integer from 0 to 7"));
                    }
                }
                Opcode::FenceAsyncShared => {}
                Opcode::WarpSpecialize => {
                    if let Some(why) = ws::warp_specialize_error(m, e, op, warp_bits) {
                        err(Some(op), format!("'{name}' op {why}"));
                    }
                }
                Opcode::WarpGroupDotWait => {
                    if operand_ty(0) != m.value_type(m.result(op, 0)) {
                        err(Some(op), format!("'{name}' op requires its result of its input's type"));
                    }
                    let pendings = m
                        .attr_named(op, crate::wgmma::PENDINGS_ATTR)
                        .and_then(|a| m.ctx.attrs.get_int(a));
                    if !pendings.is_some_and(|n| (0..8).contains(&n)) {
                        err(Some(op), format!("'{name}' op requires 'pendings', an integer from 0 to 7"));
                    }
                }
                _ => {
                    let def = m.def(op);
                    if def.traits.contains(tilec_ir::ops::Traits::ELEMENTWISE) && m.num_results(op) == 1 {
                        let enc = types.encoding(m.value_type(m.result(op, 0)));
                        let mismatch = m.operands(op).any(|v| {
                            let t = m.value_type(v);
                            types.is_tile(t) && types.encoding(t) != enc
                        });
                        if mismatch {
                            err(Some(op), format!("'{}' op requires its tile operands in the layout of its result", def.full_name()));
                        }
                    }
                }
            }
        });
    }
}

// ---- printing ----------------------------------------------------------------------------

/// Gives the GPU-level encodings of `m` short names, as MLIR prints attribute aliases:
/// `#linear`, `#linear1`, ... for distributed layouts in order of first appearance,
/// `#shared`, `#shared1`, ... for shared-memory layouts and `#smem` for the shared memory
/// space. Returns the alias definitions to print before the module.
pub fn set_gpu_aliases(m: &mut Module) -> String {
    let mut linear: Vec<String> = Vec::new();
    let mut shared: Vec<String> = Vec::new();
    let mut smem = false;
    {
        let types = &m.ctx.types;
        let mut note = |t: Type| match types.get(t) {
            TypeData::Tile {
                encoding: Some(e), ..
            } => {
                let text = types.encoding_text(*e);
                if !linear.contains(&text) {
                    linear.push(text);
                }
            }
            TypeData::MemDesc { order, swizzle, .. } => {
                let text = tilec_ir::TypeStore::shared_encoding_text(*swizzle, order);
                if !shared.contains(&text) {
                    shared.push(text);
                }
                smem = true;
            }
            _ => {}
        };
        m.walk(|op| {
            for r in m.results(op) {
                note(m.value_type(r));
            }
            for &r in m.regions(op) {
                for &b in m.region_blocks(r) {
                    for a in m.block_args(b) {
                        note(m.value_type(*a));
                    }
                }
            }
        });
    }
    let name = |base: &str, i: usize| {
        if i == 0 {
            format!("#{base}")
        } else {
            format!("#{base}{i}")
        }
    };
    let mut aliases = Vec::new();
    let mut header = String::new();
    for (group, base) in [(&linear, "linear"), (&shared, "shared")] {
        for (i, text) in group.iter().enumerate() {
            let n = name(base, i);
            header.push_str(&format!("{n} = {text}\n"));
            aliases.push((text.clone(), n));
        }
    }
    if smem {
        header.push_str("#smem = #ttg.shared_memory\n");
        aliases.push(("#ttg.shared_memory".to_string(), "#smem".to_string()));
    }
    m.ctx.types.set_aliases(aliases);
    header
}

//! Thread-block clusters (docs/hopper.md, "Clusters"): a tile block spread over the
//! `num_cta_in_cga` CTAs of a cluster, as tileiras does with the hint.
//!
//! The launch's grid counts clusters (PTX's `.blocksareclusters`), so cuTile's grid of
//! tile blocks is unchanged and each tile block becomes a cluster of N CTAs. Before
//! layouts are assigned, [`split_cluster`] gives every tile value of the kernel a *split*:
//! either replicated (each CTA computes all of it) or split along one dimension (CTA `r`
//! of the cluster holds the `r`-th of N equal parts of that dimension). The split values'
//! types shrink to one CTA's part, the view accesses of split tiles move their tile index
//! (`i` becomes `i * N + r`, over a view whose tile is N times smaller along that
//! dimension), an `iota` adds its part's offset, and `get_tile_block_id` reads the
//! cluster's id (the writer's job, from [`NUM_CTAS_ATTR`]). Every later pass sees a kernel
//! on smaller tiles; the CTAs of a cluster exchange nothing but reductions' partials.
//!
//! The split is chosen from the kernel's writes: each store or atomic's tile is split
//! along its first dimension that N divides (a write with none is done by rank 0 alone),
//! then from the loads left whole, and the split flows through the ops that relate their
//! operands' and results' dimensions (elementwise ops, broadcasts, permutes, reshapes of
//! the leading dimension, reductions and scans along any dimension: along the split one,
//! each CTA's partial results (a scan's totals) meet through the cluster's shared memory,
//! `ttng.cluster_gather`, and a copy of the op combines them; products: C and A by rows,
//! B replicated, or by columns). A kernel is left on one CTA, with a remark saying why,
//! when nothing in it can be split, a split has to cross a concatenation along its own
//! dimension, or one value would need two different splits. A memory
//! operation ordered by a token after another one that may touch another CTA's part (one
//! of them writing) gets a cluster barrier where its token is defined; accesses of the
//! CTAs' own parts (tiles of one view split alike, or the same split pointer tile) need
//! none.

use crate::target::Options;
use tilec_ir::attrs::AttrData;
use tilec_ir::builder::Builder;
use tilec_ir::module::{InsertPoint, Module, Op, Value, ValueDef};
use tilec_ir::ops::Opcode;
use tilec_ir::segments::operand_group;
use tilec_ir::types::{Type, TypeData};
use tilec_ir::util::FxHashMap;

/// The entry attribute that records a kernel's CTAs per cluster (2 to 16), when more than
/// one: the writer declares `.reqnctapercluster N, 1, 1` and `.blocksareclusters` and
/// reads tile block ids from `%clusterid`.
pub const NUM_CTAS_ATTR: &str = "ttg.num_ctas";

/// The CTAs per cluster `entry` asks for on the target: `--num-ctas` when given, else its
/// `num_cta_in_cga` hint; 1 below sm_90 (no clusters) or when neither says.
pub fn requested_ctas(m: &Module, entry: Op, opts: &Options) -> u32 {
    if opts.arch.sm() < 90 {
        return 1;
    }
    let n = opts
        .num_ctas
        .map(i64::from)
        .or_else(|| crate::hints::int_hint(m, entry, opts.arch, "num_cta_in_cga"))
        .unwrap_or(1);
    if (2..=16).contains(&n) && (n as u64).is_power_of_two() {
        n as u32
    } else {
        1
    }
}

/// The CTAs per cluster recorded on GPU-level `entry` ([`NUM_CTAS_ATTR`]; 1 without it).
pub fn entry_ctas(m: &Module, entry: Op) -> u32 {
    match m
        .attr_named(entry, NUM_CTAS_ATTR)
        .map(|a| m.ctx.attrs.get(a))
    {
        Some(AttrData::Int { value, .. }) => u32::try_from(*value).unwrap_or(1),
        _ => 1,
    }
}

/// The entry attribute that records how many CTAs of a kernel should fit on one SM (its
/// `occupancy` hint for the target, 1 to 32): the writer declares `.minnctapersm N`, from
/// which ptxas caps the registers per thread (tileiras does the same with the hint).
pub const MIN_CTAS_ATTR: &str = "ttg.min_ctas_per_sm";

/// Records `entry`'s `occupancy` hint for the target ([`MIN_CTAS_ATTR`]).
pub fn record_occupancy(m: &mut Module, entry: Op, opts: &Options) {
    if let Some(n) =
        crate::hints::int_hint(m, entry, opts.arch, "occupancy").filter(|n| (1..=32).contains(n))
    {
        let a = m.ctx.attrs.int(n, Type::I32);
        m.put_extra_attr_sorted(entry, MIN_CTAS_ATTR, a);
    }
}

/// The CTAs per SM recorded on GPU-level `entry` ([`MIN_CTAS_ATTR`]), if any.
pub fn entry_min_ctas(m: &Module, entry: Op) -> Option<u32> {
    match m
        .attr_named(entry, MIN_CTAS_ATTR)
        .map(|a| m.ctx.attrs.get(a))
    {
        Some(AttrData::Int { value, .. }) => u32::try_from(*value).ok(),
        _ => None,
    }
}

/// The entry attribute that caps a kernel's registers per thread: the writer declares
/// `.maxnreg N`. Recorded for kernels whose code ptxas is known to spill under its own
/// choice of registers: a scaled product (`mmaf_scaled`, computed exactly per element
/// in f64), whose long dependent loops ptxas fits into fewer registers than they need
/// when a thread holds few elements (mma_scaled_f8 at 2 CTAs: 72 registers and 48 bytes
/// spilled; with `.maxnreg 255`, 108 and none).
pub const MAX_REGISTERS_ATTR: &str = "ttg.max_registers";

/// Records [`MAX_REGISTERS_ATTR`] on `entry` (of `warps` warps) when it holds a scaled
/// product and no occupancy hint caps its registers already: all of an SM's 64K
/// registers for one CTA, at most 255 per thread.
pub fn record_register_budget(m: &mut Module, entry: Op, warps: u32) {
    if entry_min_ctas(m, entry).is_some() {
        return;
    }
    let mut scaled = false;
    m.walk_op(entry, &mut |o| scaled |= m.opcode(o) == Opcode::MmaFScaled);
    if scaled {
        let n = (65536 / (32 * warps.max(1))).min(255);
        let a = m.ctx.attrs.int(i64::from(n), Type::I32);
        m.put_extra_attr_sorted(entry, MAX_REGISTERS_ATTR, a);
    }
}

/// The registers per thread recorded on GPU-level `entry` ([`MAX_REGISTERS_ATTR`]), if
/// any (a value outside what `.maxnreg` takes, 24 to 255, is an error of the writer's).
pub fn entry_max_registers(m: &Module, entry: Op) -> Option<i64> {
    match m
        .attr_named(entry, MAX_REGISTERS_ATTR)
        .map(|a| m.ctx.attrs.get(a))
    {
        Some(AttrData::Int { value, .. }) => Some(*value),
        _ => None,
    }
}

/// How one tile value is spread over the CTAs of a cluster.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Split {
    /// Every CTA holds all of it.
    Rep,
    /// CTA `r` holds the `r`-th part of this dimension.
    Dim(usize),
}

/// Why a kernel stays on one CTA: the op to locate the remark at, and the reason.
type Refusal = (Op, String);

/// Spreads `entry`'s tile block over clusters of `n` CTAs (a power of two, 2 to 16);
/// `Err` with the op and the reason when the kernel cannot be split (it is then left
/// unchanged).
pub fn split_cluster(m: &mut Module, entry: Op, n: u32) -> Result<(), Refusal> {
    let plan = Plan::build(m, entry, n as i64)?;
    let barriers = plan.ordered_accesses();
    let split = plan.split;
    apply(m, entry, n as i64, &split, &barriers);
    Ok(())
}

struct Plan<'a> {
    m: &'a Module,
    n: i64,
    split: FxHashMap<Value, Split>,
    queue: Vec<Value>,
    /// Every op of the kernel, in walk order.
    ops: Vec<Op>,
}

/// The memory operations: their result tokens order what takes them.
fn is_memory(op: Opcode) -> bool {
    use Opcode as O;
    matches!(
        op,
        O::LoadViewTko
            | O::StoreViewTko
            | O::LoadPtrTko
            | O::StorePtrTko
            | O::AtomicCasTko
            | O::AtomicLoadTko
            | O::AtomicRmwTko
            | O::AtomicRedViewTko
            | O::AtomicStoreTko
    )
}

/// The tile a write writes (its split decides which CTA writes what), for the ops that
/// write memory.
fn written_tile(m: &Module, op: Op) -> Option<Value> {
    use Opcode as O;
    let group = match m.opcode(op) {
        O::StoreViewTko => "tile",
        O::AtomicRedViewTko => "value",
        O::StorePtrTko => "destination",
        O::AtomicCasTko | O::AtomicRmwTko => "pointers",
        O::AtomicStoreTko => "ptr",
        _ => return None,
    };
    operand_group(m, op, group).first().copied()
}

/// Whether `o` (of a reduction's or scan's body) is an elementwise op, a constant or the
/// body's `yield`: the body then applies to whole tiles, op by op.
fn elementwise_or_constant(m: &Module, o: Op) -> bool {
    let def = m.def(o);
    matches!(m.opcode(o), Opcode::Constant | Opcode::Yield)
        || (def.traits.contains(tilec_ir::ops::Traits::ELEMENTWISE) && m.regions(o).is_empty())
}

/// The tile a view access (`load_view_tko`, `store_view_tko`, `atomic_red_view_tko`)
/// reads or writes.
fn view_access_tile(m: &Module, op: Op) -> Option<Value> {
    match m.opcode(op) {
        Opcode::LoadViewTko => Some(m.result(op, 0)),
        Opcode::StoreViewTko => operand_group(m, op, "tile").first().copied(),
        Opcode::AtomicRedViewTko => operand_group(m, op, "value").first().copied(),
        _ => None,
    }
}

/// The `for`/`loop` whose `continue`/`break` `t` is, or the `if` whose `yield` it is.
fn terminator_owner(m: &Module, t: Op) -> Option<Op> {
    let mut p = m.parent_op(t)?;
    match m.opcode(t) {
        Opcode::Yield => (m.opcode(p) == Opcode::If).then_some(p),
        Opcode::Continue | Opcode::Break => loop {
            if matches!(m.opcode(p), Opcode::For | Opcode::Loop) {
                return Some(p);
            }
            p = m.parent_op(p)?;
        },
        _ => None,
    }
}

/// How control op `c` passes values on: per carried value (or result), the values that
/// flow in (an initial value, the operands of the terminators that pass it on) and
/// those that take them (a block argument, a result).
fn control_flows(m: &Module, c: Op) -> Vec<(Vec<Value>, Vec<Value>)> {
    let mut terms: Vec<Op> = Vec::new();
    for r in m.regions(c) {
        for b in m.region_blocks(*r) {
            let mut stack: Vec<Op> = m.block_ops(*b).collect();
            while let Some(o) = stack.pop() {
                if matches!(
                    m.opcode(o),
                    Opcode::Yield | Opcode::Continue | Opcode::Break
                ) && terminator_owner(m, o) == Some(c)
                {
                    terms.push(o);
                }
                for r in m.regions(o) {
                    for b in m.region_blocks(*r) {
                        stack.extend(m.block_ops(*b));
                    }
                }
            }
        }
    }
    let of = |t: Opcode, i: usize| -> Vec<Value> {
        terms
            .iter()
            .filter(|o| m.opcode(**o) == t && m.num_operands(**o) > i)
            .map(|o| m.operand(*o, i))
            .collect()
    };
    let args: Vec<Value> = m
        .regions(c)
        .first()
        .and_then(|r| m.entry_block(*r))
        .map(|b| m.block_args(b).to_vec())
        .unwrap_or_default();
    let code = m.opcode(c);
    if code == Opcode::For {
        let inits = operand_group(m, c, "initValues");
        (0..inits.len())
            .map(|i| {
                let mut sources = vec![inits[i]];
                sources.extend(of(Opcode::Continue, i));
                let mut targets = vec![m.result(c, i)];
                targets.extend(args.get(i + 1));
                (sources, targets)
            })
            .collect()
    } else if code == Opcode::Loop {
        let inits = operand_group(m, c, "initValues");
        let mut flows: Vec<(Vec<Value>, Vec<Value>)> = (0..inits.len())
            .map(|i| {
                let mut sources = vec![inits[i]];
                sources.extend(of(Opcode::Continue, i));
                (sources, args.get(i).copied().into_iter().collect())
            })
            .collect();
        flows.extend((0..m.num_results(c)).map(|k| (of(Opcode::Break, k), vec![m.result(c, k)])));
        flows
    } else if code == Opcode::If {
        (0..m.num_results(c))
            .map(|k| (of(Opcode::Yield, k), vec![m.result(c, k)]))
            .collect()
    } else {
        Vec::new()
    }
}

/// The values of control op `c` that hold the same thing and so take one split (the
/// sources and targets of each of its [`control_flows`]).
fn control_groups(m: &Module, c: Op) -> Vec<Vec<Value>> {
    control_flows(m, c)
        .into_iter()
        .map(|(mut sources, targets)| {
            sources.extend(targets);
            sources
        })
        .collect()
}

/// The first dimension of `shape` that is not 1 (the one whose parts are contiguous
/// ranges of the row-major element order).
fn leading(shape: &[i64]) -> Option<usize> {
    shape.iter().position(|d| *d != 1)
}

impl<'a> Plan<'a> {
    fn build(m: &'a Module, entry: Op, n: i64) -> Result<Plan<'a>, Refusal> {
        let mut ops = Vec::new();
        m.walk_op(entry, &mut |o| ops.push(o));
        let mut plan = Plan {
            m,
            n,
            split: FxHashMap::default(),
            queue: Vec::new(),
            ops: ops.clone(),
        };
        plan.check_ops(&ops)?;
        // Each write's tile along its first dimension whose split propagates (a write of
        // a tile with no dimension of n or more elements stays whole, done by rank 0);
        // then each load not split yet, where its split propagates (a reduction of it
        // then combines the CTAs' parts through the cluster).
        for &op in &ops {
            let Some(t) = written_tile(m, op) else {
                continue;
            };
            if let Some(Err(e)) = plan.seed(t, op) {
                return Err(e);
            }
        }
        for &op in &ops {
            if matches!(m.opcode(op), Opcode::LoadViewTko | Opcode::LoadPtrTko) {
                plan.seed(m.result(op, 0), op);
            }
        }
        if !plan.split.values().any(|s| matches!(s, Split::Dim(_))) {
            return Err((
                entry,
                format!(
                    "no tile of the kernel has a dimension of {n} or more elements to spread over the cluster's CTAs"
                ),
            ));
        }
        for &op in &ops {
            // A write of a whole tile is done by rank 0 alone: what it returns besides
            // its token (an atomic's old values) would be missing elsewhere.
            if let Some(t) = written_tile(m, op)
                && !matches!(plan.split.get(&t), Some(Split::Dim(_)))
                && m.results(op).any(|r| !plan.is_token(r) && m.has_uses(r))
            {
                return Err((
                    op,
                    "this atomic's results would be needed by every CTA, but only one CTA of the cluster can do it".into(),
                ));
            }
        }
        Ok(plan)
    }

    /// Ops the split does not handle anywhere in the kernel.
    fn check_ops(&self, ops: &[Op]) -> Result<(), Refusal> {
        for &op in ops {
            let code = self.m.opcode(op);
            if code == Opcode::Print {
                return Err((op, "a print would run on every CTA of the cluster".into()));
            }
            if code == Opcode::Alloca {
                return Err((
                    op,
                    "memory from alloca is the tile block's, not one CTA's".into(),
                ));
            }
            // A write the split does not know (a new op) could run on every CTA.
            let def = self.m.def(op);
            if matches!(
                def.effects,
                tilec_ir::ops::Effects::Write | tilec_ir::ops::Effects::ReadWrite
            ) && written_tile(self.m, op).is_none()
                && code != Opcode::Barrier
                && def.family != tilec_ir::ops::Family::Gpu
            {
                return Err((
                    op,
                    format!(
                        "'{}' writes memory in a way the cluster split does not know",
                        def.name
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Splits tile `t` (of `op`) along its first dimension whose split propagates
    /// without a conflict, if it is not split yet: `None` when it was, or has no such
    /// dimension; else the outcome of the last dimension tried.
    fn seed(&mut self, t: Value, op: Op) -> Option<Result<(), Refusal>> {
        if self.split.contains_key(&t) {
            return None;
        }
        let n = self.n;
        let shape = self.shape(t).to_vec();
        let mut last = None;
        // Of the dimensions whose split propagates, the one that leaves the products the
        // most rows per CTA (warpgroup MMA wants 64 per warpgroup), else the first.
        let mut best: Option<(i64, FxHashMap<Value, Split>)> = None;
        for d in (0..shape.len()).filter(|d| shape[*d] >= n && shape[*d] % n == 0) {
            let mut trial = Plan {
                m: self.m,
                n,
                split: self.split.clone(),
                queue: Vec::new(),
                ops: self.ops.clone(),
            };
            match trial.assign(t, Split::Dim(d), op).and_then(|_| trial.run()) {
                Ok(()) => {
                    let rows = trial.product_rows();
                    if best.as_ref().is_none_or(|(r, _)| rows > *r) {
                        best = Some((rows, trial.split));
                    }
                }
                Err(e) => last = Some(Err(e)),
            }
        }
        match best {
            Some((_, split)) => {
                self.split = split;
                Some(Ok(()))
            }
            None => last,
        }
    }

    /// The fewest rows (M) per CTA of the kernel's products under the splits so far
    /// (`i64::MAX` without products).
    fn product_rows(&self) -> i64 {
        let m = self.m;
        let mut rows = i64::MAX;
        for &op in &self.ops {
            if matches!(
                m.opcode(op),
                Opcode::MmaF | Opcode::MmaI | Opcode::MmaFScaled
            ) {
                let r = m.result(op, 0);
                let shape = self.shape(r);
                let Some(at) = shape.len().checked_sub(2) else {
                    continue;
                };
                let split = self.split.get(&r) == Some(&Split::Dim(at));
                let mrows = shape[at] / if split { self.n } else { 1 };
                rows = rows.min(mrows);
            }
        }
        rows
    }

    /// The tokens that order a memory operation after another one that may touch what
    /// a different CTA of the cluster touches, one of them writing: without a cluster
    /// barrier where such a token is defined, a CTA might miss (or see) another CTA's
    /// write, which the tile block's order requires (or forbids). A pair through the same
    /// split tile of the same view (or the same split pointer tile) needs none: each CTA
    /// accesses its own part in both.
    fn ordered_accesses(&self) -> Vec<Value> {
        let m = self.m;
        let ops = &self.ops;
        // The memory operations each token is ordered after.
        let mut after: FxHashMap<Value, Vec<Op>> = FxHashMap::default();
        let add = |after: &mut FxHashMap<Value, Vec<Op>>, v: Value, from: &[Op]| -> bool {
            let set = after.entry(v).or_default();
            let before = set.len();
            for o in from {
                if !set.contains(o) {
                    set.push(*o);
                }
            }
            set.len() != before
        };
        let deps_of = |after: &FxHashMap<Value, Vec<Op>>, op: Op| -> Vec<Op> {
            m.operands(op)
                .filter_map(|v| after.get(&v))
                .flatten()
                .copied()
                .collect()
        };
        loop {
            let mut changed = false;
            for &op in ops {
                let code = m.opcode(op);
                if is_memory(code) {
                    let mut from = deps_of(&after, op);
                    from.push(op);
                    for r in m.results(op).filter(|r| self.is_token(*r)) {
                        changed |= add(&mut after, r, &from);
                    }
                } else if matches!(code, Opcode::JoinTokens | Opcode::Barrier) {
                    // A barrier's token is ordered after its operand's (a CTA barrier
                    // orders one CTA only: a cluster barrier follows where needed).
                    let from = deps_of(&after, op);
                    changed |= add(&mut after, m.result(op, 0), &from);
                } else if matches!(code, Opcode::For | Opcode::Loop | Opcode::If) {
                    for (sources, targets) in control_flows(m, op) {
                        let from: Vec<Op> = sources
                            .iter()
                            .filter_map(|v| after.get(v))
                            .flatten()
                            .copied()
                            .collect();
                        for v in targets {
                            changed |= add(&mut after, v, &from);
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        let mut tokens = Vec::new();
        for &op in ops.iter().filter(|op| is_memory(m.opcode(**op))) {
            for t in m.operands(op).filter(|v| after.contains_key(v)) {
                let conflict = after[&t].iter().any(|a| {
                    (written_tile(m, *a).is_some() || written_tile(m, op).is_some())
                        && !self.own_parts(*a, op)
                });
                if conflict && !tokens.contains(&t) {
                    tokens.push(t);
                }
            }
        }
        tokens
    }

    /// Whether memory operations `a` and `b` touch only what their own CTA touches in
    /// the other: tiles of one view split along one dimension (views of one tensor view,
    /// of one type: the CTAs' parts of its tiles never overlap), or the same split tile
    /// of pointers.
    fn own_parts(&self, a: Op, b: Op) -> bool {
        let m = self.m;
        let view_of = |op: Op| -> Option<(Value, Type, Value)> {
            let tile = view_access_tile(m, op)?;
            let view = *operand_group(m, op, "view").first()?;
            let d = m.defining_op(view)?;
            (m.opcode(d) == Opcode::MakePartitionView).then_some(())?;
            Some((m.operand(d, 0), m.value_type(view), tile))
        };
        let split = |v: Value| match self.split.get(&v) {
            Some(Split::Dim(d)) => Some(*d),
            _ => None,
        };
        if let (Some(x), Some(y)) = (view_of(a), view_of(b)) {
            // The tiles of a partition view do not overlap, so the parts of two CTAs
            // never meet, whatever the indices.
            return x.0 == y.0 && x.1 == y.1 && split(x.2).is_some() && split(x.2) == split(y.2);
        }
        let pointers = |op: Op| -> Option<Value> {
            match m.opcode(op) {
                Opcode::LoadPtrTko
                | Opcode::StorePtrTko
                | Opcode::AtomicCasTko
                | Opcode::AtomicLoadTko
                | Opcode::AtomicRmwTko
                | Opcode::AtomicStoreTko => Some(m.operand(op, 0)),
                _ => None,
            }
        };
        match (pointers(a), pointers(b)) {
            (Some(p), Some(q)) => p == q && split(p).is_some(),
            _ => false,
        }
    }

    /// Whether an op of `op`'s body has regions of its own (which the cluster's
    /// combination of a reduction's parts does not copy).
    fn body_has_regions(&self, op: Op) -> bool {
        let m = self.m;
        m.regions(op).iter().any(|r| {
            m.region_blocks(*r)
                .iter()
                .any(|b| m.block_ops(*b).any(|o| !m.regions(o).is_empty()))
        })
    }

    /// Whether every op of `op`'s body is elementwise (or a constant, or its `yield`), so
    /// that the body applies to whole tiles.
    fn body_is_elementwise(&self, op: Op) -> bool {
        let m = self.m;
        m.regions(op).iter().all(|r| {
            m.region_blocks(*r)
                .iter()
                .all(|b| m.block_ops(*b).all(|o| elementwise_or_constant(m, o)))
        })
    }

    fn is_token(&self, v: Value) -> bool {
        matches!(self.m.ctx.types.get(self.m.value_type(v)), TypeData::Token)
    }

    fn is_tile(&self, v: Value) -> bool {
        self.m.ctx.types.is_tile(self.m.value_type(v))
    }

    fn shape(&self, v: Value) -> &[i64] {
        self.m.ctx.types.shape(self.m.value_type(v))
    }

    /// Gives `v` split `s` (`at`: where to locate a refusal).
    fn assign(&mut self, v: Value, s: Split, at: Op) -> Result<(), Refusal> {
        if !self.is_tile(v) {
            return Ok(());
        }
        if let Split::Dim(d) = s {
            let size = self.shape(v).get(d).copied().unwrap_or(0);
            if size < self.n || size % self.n != 0 {
                return Err((
                    at,
                    format!(
                        "a tile would be spread over the cluster's {} CTAs along a dimension of {size} elements",
                        self.n
                    ),
                ));
            }
        }
        match self.split.get(&v) {
            Some(old) if *old == s => Ok(()),
            Some(old) => Err((
                at,
                format!(
                    "a value would be needed {} and {}",
                    describe(*old),
                    describe(s)
                ),
            )),
            None => {
                self.split.insert(v, s);
                self.queue.push(v);
                Ok(())
            }
        }
    }

    /// Propagates the queued values' splits to everything they determine.
    fn run(&mut self) -> Result<(), Refusal> {
        while let Some(v) = self.queue.pop() {
            let m = self.m;
            let mut visit: Vec<Op> = Vec::new();
            match m.value_def(v) {
                ValueDef::Result(op, _) => visit.push(op),
                ValueDef::Placeholder => {}
                ValueDef::Arg(b, _) => visit.extend(m.block_parent_op(b)),
            }
            for u in m.users(v) {
                match m.opcode(u) {
                    Opcode::Yield | Opcode::Continue | Opcode::Break => {
                        visit.extend(terminator_owner(m, u))
                    }
                    _ => visit.push(u),
                }
            }
            for op in visit {
                self.derive(op)?;
            }
        }
        Ok(())
    }

    /// The split of every tile value of `op` that the splits known so far imply.
    fn derive(&mut self, op: Op) -> Result<(), Refusal> {
        use Opcode as O;
        let m = self.m;
        let get = |p: &Plan, v: Value| p.split.get(&v).copied();
        let tiles: Vec<Value> = m
            .operands(op)
            .chain(m.results(op))
            .filter(|v| self.is_tile(*v) && !self.shape(*v).is_empty())
            .collect();
        match m.opcode(op) {
            O::For | O::Loop | O::If => {
                for g in control_groups(m, op) {
                    if let Some(s) = g.iter().find_map(|v| get(self, *v)) {
                        for v in g {
                            self.assign(v, s, op)?;
                        }
                    }
                }
                Ok(())
            }
            // Elementwise: operands and results of one shape, one split.
            O::AbsF
            | O::AddF
            | O::Atan2
            | O::Ceil
            | O::CmpF
            | O::CosH
            | O::Cos
            | O::DivF
            | O::Exp2
            | O::Exp
            | O::Floor
            | O::Fma
            | O::Log10
            | O::Log1p
            | O::Log2
            | O::Log
            | O::MaxF
            | O::MaximumF
            | O::MinF
            | O::MinimumF
            | O::Brev
            | O::Clz
            | O::Ctz
            | O::PopCnt
            | O::MulF
            | O::NegF
            | O::PowF
            | O::RecipF
            | O::RemF
            | O::Rsqrt
            | O::Sigmoid
            | O::SinH
            | O::Sin
            | O::Sqrt
            | O::SubF
            | O::Tan
            | O::TanHF
            | O::TanH
            | O::AbsI
            | O::AddI
            | O::AndI
            | O::CmpI
            | O::DivI
            | O::MaxI
            | O::MinI
            | O::MulHI
            | O::MulI
            | O::NegSI
            | O::NotI
            | O::OrI
            | O::RemI
            | O::ShLI
            | O::ShRI
            | O::SubI
            | O::XOrI
            | O::Bitcast
            | O::ExtI
            | O::FToF
            | O::FToI
            | O::IToF
            | O::IntToPtr
            | O::PtrToInt
            | O::PtrToPtr
            | O::TruncI
            | O::Select
            | O::Offset
            | O::Assume
            | O::LoadPtrTko
            | O::StorePtrTko
            | O::AtomicCasTko
            | O::AtomicLoadTko
            | O::AtomicRmwTko
            | O::AtomicStoreTko => {
                if let Some(s) = tiles.iter().find_map(|v| get(self, *v)) {
                    for v in tiles {
                        self.assign(v, s, op)?;
                    }
                }
                Ok(())
            }
            O::Broadcast => {
                let (src, r) = (m.operand(op, 0), m.result(op, 0));
                let ss = self.shape(src).to_vec();
                match (get(self, r), get(self, src)) {
                    (Some(Split::Dim(d)), _) => {
                        let s = if ss.get(d) == Some(&1) || ss.is_empty() {
                            Split::Rep
                        } else {
                            Split::Dim(d)
                        };
                        self.assign(src, s, op)
                    }
                    (Some(Split::Rep), _) => self.assign(src, Split::Rep, op),
                    (None, Some(Split::Dim(d))) => self.assign(r, Split::Dim(d), op),
                    _ => Ok(()),
                }
            }
            O::Reshape => {
                let (src, r) = (m.operand(op, 0), m.result(op, 0));
                let (ls, lr) = (leading(self.shape(src)), leading(self.shape(r)));
                let from = |p: &Plan, a: Value, la: Option<usize>, lb: Option<usize>| match (
                    get(p, a),
                    la,
                    lb,
                ) {
                    (Some(Split::Rep), _, _) => Ok(Some(Split::Rep)),
                    (Some(Split::Dim(d)), Some(l), Some(o)) if d == l => Ok(Some(Split::Dim(o))),
                    (Some(Split::Dim(_)), _, _) => Err((
                        op,
                        "a reshape would move the dimension a tile is spread along".to_string(),
                    )),
                    (None, _, _) => Ok(None),
                };
                if let Some(s) = from(self, r, lr, ls)? {
                    self.assign(src, s, op)?;
                }
                if let Some(s) = from(self, src, ls, lr)? {
                    self.assign(r, s, op)?;
                }
                Ok(())
            }
            O::Permute => {
                let (src, r) = (m.operand(op, 0), m.result(op, 0));
                let perm = crate::gpu::permutation(m, op, self.shape(src).len());
                if let Some(s) = get(self, r) {
                    let t = match s {
                        Split::Dim(i) => Split::Dim(perm[i]),
                        Split::Rep => Split::Rep,
                    };
                    self.assign(src, t, op)?;
                }
                if let Some(s) = get(self, src) {
                    let t = match s {
                        Split::Dim(d) => Split::Dim(perm.iter().position(|p| *p == d).unwrap_or(0)),
                        Split::Rep => Split::Rep,
                    };
                    self.assign(r, t, op)?;
                }
                Ok(())
            }
            O::Reduce | O::Scan | O::Cat => {
                let dim = crate::gpu::int_attr(m, op, "dim") as usize;
                let reduce = m.opcode(op) == O::Reduce;
                let what = if reduce {
                    "a reduction"
                } else if m.opcode(op) == O::Scan {
                    "a scan"
                } else {
                    "a concatenation"
                };
                let ins: Vec<Value> = m.operands(op).collect();
                let outs: Vec<Value> = m.results(op).collect();
                // Operand dimension `d` is result dimension `d` (minus one past a reduced
                // one).
                let out_dim = |d: usize| if reduce && d > dim { d - 1 } else { d };
                let in_dim = |d: usize| if reduce && d >= dim { d + 1 } else { d };
                let known = ins
                    .iter()
                    .find_map(|v| get(self, *v))
                    .map(|s| (s, true))
                    .or_else(|| outs.iter().find_map(|v| get(self, *v)).map(|s| (s, false)));
                let Some((s, from_in)) = known else {
                    return Ok(());
                };
                let (sin, sout) = match (s, from_in) {
                    // A whole result may come from whole operands, or from the CTAs'
                    // parts combined through the cluster (`ttng.cluster_gather`).
                    (Split::Rep, false) if reduce => {
                        for v in outs {
                            self.assign(v, Split::Rep, op)?;
                        }
                        return Ok(());
                    }
                    (Split::Dim(d), true) if d == dim && reduce => {
                        if self.body_has_regions(op) {
                            return Err((op, "a reduction whose body has regions runs along the dimension spread over the cluster's CTAs".into()));
                        }
                        (Split::Dim(d), Split::Rep)
                    }
                    (Split::Rep, _) => (Split::Rep, Split::Rep),
                    // Along the split: each CTA scans its part, then combines the earlier
                    // CTAs' totals (through the cluster) into every element.
                    (Split::Dim(d), _) if d == dim && m.opcode(op) == O::Scan => {
                        if !self.body_is_elementwise(op) {
                            return Err((op, "a scan whose body is not elementwise runs along the dimension spread over the cluster's CTAs".into()));
                        }
                        (Split::Dim(d), Split::Dim(d))
                    }
                    (Split::Dim(d), true) if d == dim => {
                        return Err((
                            op,
                            format!(
                                "{what} runs along the dimension spread over the cluster's CTAs"
                            ),
                        ));
                    }
                    (Split::Dim(d), true) => (Split::Dim(d), Split::Dim(out_dim(d))),
                    (Split::Dim(d), false) => (Split::Dim(in_dim(d)), Split::Dim(d)),
                };
                if m.opcode(op) == O::Cat && sin == Split::Dim(dim) {
                    return Err((
                        op,
                        format!("{what} runs along the dimension spread over the cluster's CTAs"),
                    ));
                }
                for v in ins {
                    self.assign(v, sin, op)?;
                }
                for v in outs {
                    self.assign(v, sout, op)?;
                }
                Ok(())
            }
            // From a whole tile, each CTA extracts its part of a split result (`apply`
            // moves the index); from a split tile, the whole result, out of the CTAs'
            // parts gathered through the cluster.
            O::Extract => {
                let (src, r) = (m.operand(op, 0), m.result(op, 0));
                if let Some(Split::Dim(_)) = get(self, src) {
                    return self.assign(r, Split::Rep, op);
                }
                if get(self, r).is_some() {
                    self.assign(src, Split::Rep, op)?;
                }
                Ok(())
            }
            O::Iota => Ok(()),
            O::LoadViewTko | O::StoreViewTko | O::AtomicRedViewTko => {
                // A view access may take any split of its tile when its view is made here
                // (the rewrite moves its index): a partition view, a strided view, or a
                // gather/scatter view, whose row indices are split with its sparse
                // dimension and whole otherwise.
                let Some(view) = operand_group(m, op, "view").first().copied() else {
                    return Ok(());
                };
                let Some(tile) = view_access_tile(m, op) else {
                    return Ok(());
                };
                let made = m.defining_op(view).map(|d| m.opcode(d));
                if let Some(O::MakeGatherScatterView) = made
                    && let TypeData::GatherScatterView { sparse_dim, .. } =
                        m.ctx.types.get(m.value_type(view))
                {
                    let sd = *sparse_dim as usize;
                    let rows = operand_group(m, op, "index")[sd];
                    match (get(self, tile), get(self, rows)) {
                        (Some(Split::Dim(d)), _) if d == sd => {
                            self.assign(rows, Split::Dim(0), op)?
                        }
                        (Some(_), _) => self.assign(rows, Split::Rep, op)?,
                        (None, Some(Split::Dim(_))) => self.assign(tile, Split::Dim(sd), op)?,
                        (None, _) => {}
                    }
                    return Ok(());
                }
                let split = matches!(get(self, tile), Some(Split::Dim(_)));
                if split && !matches!(made, Some(O::MakePartitionView | O::MakeStridedView)) {
                    return Err((
                        op,
                        "a tile spread over the cluster's CTAs is accessed through a view not made in the kernel".into(),
                    ));
                }
                Ok(())
            }
            O::Constant => {
                let r = m.result(op, 0);
                if let Some(Split::Dim(_)) = get(self, r) {
                    let splat = m.attr(op, 0).is_some_and(
                        |a| matches!(m.ctx.attrs.get(a), AttrData::Dense(d) if d.splat),
                    );
                    if !splat {
                        return Err((
                            op,
                            "a constant of different elements would be spread over the cluster's CTAs".into(),
                        ));
                    }
                }
                Ok(())
            }
            O::MmaF | O::MmaI | O::MmaFScaled => {
                let (a, b, c, r) = (
                    m.operand(op, 0),
                    m.operand(op, 1),
                    m.operand(op, 2),
                    m.result(op, 0),
                );
                // A scaled product's scales (M x K/V and K/V x N) go with their operands.
                let scales =
                    (m.opcode(op) == O::MmaFScaled).then(|| (m.operand(op, 3), m.operand(op, 4)));
                let rank = self.shape(r).len();
                // Result dimension d: (A's split, B's split).
                let of = |d: usize| -> (Split, Split) {
                    if d + 2 == rank {
                        (Split::Dim(d), Split::Rep)
                    } else if d + 1 == rank {
                        (Split::Rep, Split::Dim(d))
                    } else {
                        (Split::Dim(d), Split::Dim(d))
                    }
                };
                let k_a = rank - 1;
                let k_b = rank - 2;
                // An operand's split implies the result's, but along its K dimension.
                let implied = |p: &Plan, v: Value, k: usize| match get(p, v) {
                    Some(Split::Dim(d)) if d == k => Err((
                        op,
                        "a product's K dimension would be spread over the cluster's CTAs"
                            .to_string(),
                    )),
                    Some(Split::Dim(d)) => Ok(Some(Split::Dim(d))),
                    _ => Ok(None),
                };
                let from_a = implied(self, a, k_a)?;
                let from_b = implied(self, b, k_b)?;
                let (from_sa, from_sb) = match scales {
                    Some((sa, sb)) => (implied(self, sa, k_a)?, implied(self, sb, k_b)?),
                    None => (None, None),
                };
                let known = get(self, r)
                    .or_else(|| get(self, c))
                    .or(from_a)
                    .or(from_b)
                    .or(from_sa)
                    .or(from_sb);
                let Some(s) = known else {
                    return Ok(());
                };
                self.assign(r, s, op)?;
                self.assign(c, s, op)?;
                let (sa, sb) = match s {
                    Split::Rep => (Split::Rep, Split::Rep),
                    Split::Dim(d) => of(d),
                };
                self.assign(a, sa, op)?;
                self.assign(b, sb, op)?;
                if let Some((a_scale, b_scale)) = scales {
                    self.assign(a_scale, sa, op)?;
                    self.assign(b_scale, sb, op)?;
                }
                Ok(())
            }
            // Rank 1: each CTA's contiguous part of the elements is its part of the bytes
            // (`assign` checks that both divide).
            O::Pack | O::Unpack => {
                if let Some(s) = tiles.iter().find_map(|v| get(self, *v)) {
                    for v in tiles {
                        self.assign(v, s, op)?;
                    }
                }
                Ok(())
            }
            // No tile operand or result whose shape relates to another's.
            O::Assert
            | O::Break
            | O::Continue
            | O::Return
            | O::Yield
            | O::JoinTokens
            | O::Alloca
            | O::MakeToken
            | O::GetIndexSpaceShape
            | O::GetTensorShape
            | O::MakePartitionView
            | O::MakeStridedView
            | O::MakeGatherScatterView
            | O::MakeTensorView
            | O::Barrier
            | O::Entry
            | O::GetGlobal
            | O::GetNumTileBlocks
            | O::GetTileBlockId
            | O::Global
            | O::Module
            | O::Print
            | O::TestingFunc => Ok(()),
            O::TestingBytecodeNewAttribute
            | O::TestingBytecodeEvolution
            | O::Unregistered
            | O::ConvertLayout
            | O::LocalAlloc
            | O::LocalLoad
            | O::LocalDealloc
            | O::MemDescIndex
            | O::LocalStore
            | O::AsyncCopyGlobalToLocal
            | O::AsyncCommitGroup
            | O::AsyncWait
            | O::WarpGroupDotWait
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
            | O::PredicateStage
            | O::Mask
            | O::MaskReturn
            | O::MemDescTrans
            | O::MemDescSubslice
            | O::MemDescReshape
            | O::MemDescReinterpret
            | O::WarpId
            | O::ClusterCtaId
            | O::ClusterGather
            | O::ClusterBarrier
            | O::WarpSpecialize
            | O::WarpYield
            | O::WarpReturn
            | O::GpuBarrier
            | O::UnrealizedConversionCast => {
                if tiles.iter().any(|v| get(self, *v).is_some()) {
                    return Err((
                        op,
                        format!(
                            "'{}' is not spread over the cluster's CTAs",
                            m.op_mnemonic(op)
                        ),
                    ));
                }
                Ok(())
            }
        }
    }
}

/// Rewrites the kernel for `split`: the split values' types, the view accesses' indices,
/// iota's offsets, and the entry's [`NUM_CTAS_ATTR`].
fn apply(m: &mut Module, entry: Op, n: i64, split: &FxHashMap<Value, Split>, barriers: &[Value]) {
    {
        let Some(body) = m.entry_block(m.region(entry, 0)) else {
            return;
        };
        // The CTA's rank in its cluster, first thing in the kernel.
        let i32_ty = m.ctx.types.tile(&[], Type::I32);
        let rank = {
            let at = match m.first_op(body) {
                Some(o) => InsertPoint::Before(o),
                None => InsertPoint::End(body),
            };
            let mut b = Builder::new(m);
            b.set_insertion_point(at);
            let op = b
                .create(Opcode::ClusterCtaId, &[], &[i32_ty], &[], 0)
                .expect("cluster_cta_id");
            b.module.result(op, 0)
        };
        let mut splits: Vec<(Value, usize)> = split
            .iter()
            .filter_map(|(v, s)| match s {
                Split::Dim(d) => Some((*v, *d)),
                Split::Rep => None,
            })
            .collect();
        splits.sort_by_key(|(v, _)| *v);
        let shrink = |m: &mut Module, ty: Type, d: usize| -> Type {
            let mut shape = m.ctx.types.shape(ty).to_vec();
            shape[d] /= n;
            let elem = m.ctx.types.element_type(ty);
            m.ctx.types.tile(&shape, elem)
        };
        for (v, d) in &splits {
            let ty = m.value_type(*v);
            let t = shrink(m, ty, *d);
            m.set_value_type(*v, t);
        }
        let mut ops = Vec::new();
        m.walk_op(entry, &mut |o| ops.push(o));
        let ops_before = ops.clone();
        let dim_of = |v: Value| match split.get(&v) {
            Some(Split::Dim(d)) => Some(*d),
            _ => None,
        };
        // The writes of whole tiles, the split view accesses, and the reductions and scans
        // along the split, found before any value is replaced by one the split does not
        // list (an iota's by its offset sum, a scan's by its fixed-up values).
        let whole_writes: Vec<Op> = ops_before
            .iter()
            .copied()
            .filter(|op| written_tile(m, *op).is_some_and(|t| dim_of(t).is_none()))
            .collect();
        let view_dims: FxHashMap<Op, usize> = ops_before
            .iter()
            .filter_map(|op| Some((*op, view_access_tile(m, *op).and_then(dim_of)?)))
            .collect();
        // An extract's source and result dimensions along the split (an iota source is
        // replaced by its offset sum before the extract is rewritten: random kernel seed
        // 63073 over 2 CTAs read element 3 of a 2-element part).
        let extract_dims: FxHashMap<Op, (Option<usize>, Option<usize>)> = ops_before
            .iter()
            .filter(|op| m.opcode(**op) == Opcode::Extract)
            .map(|op| {
                let (src, r) = (m.operand(*op, 0), m.result(*op, 0));
                (*op, (dim_of(src), dim_of(r)))
            })
            .collect();
        let across: Vec<Op> = ops_before
            .iter()
            .copied()
            .filter(|op| {
                matches!(m.opcode(*op), Opcode::Reduce | Opcode::Scan)
                    && dim_of(m.operand(*op, 0))
                        == Some(crate::gpu::int_attr(m, *op, "dim") as usize)
            })
            .collect();
        // `rank` in each index type that needs it.
        let mut ranks: FxHashMap<Type, Value> = FxHashMap::default();
        ranks.insert(i32_ty, rank);
        let rank_as = |m: &mut Module, ranks: &mut FxHashMap<Type, Value>, ty: Type| {
            if let Some(r) = ranks.get(&ty) {
                return *r;
            }
            let def = m.defining_op(rank).expect("rank op");
            let mut b = Builder::new(m);
            let at = after(b.module, def);
            b.set_insertion_point(at);
            let elem = b.module.ctx.types.element_type(ty);
            let width = |t: Type| match t {
                Type::I8 => 8,
                Type::I16 => 16,
                Type::I32 => 32,
                _ => 64,
            };
            let op = if width(elem) > 32 {
                let s = b.enum_attr(
                    tilec_ir::attrs::EnumKind::Signedness,
                    tilec_ir::attrs::Signedness::Unsigned as u8,
                );
                b.create(Opcode::ExtI, &[&[rank]], &[ty], &[("signedness", s)], 0)
            } else {
                b.create(Opcode::TruncI, &[&[rank]], &[ty], &[], 0)
            }
            .expect("rank conversion");
            let r = b.module.result(op, 0);
            ranks.insert(ty, r);
            r
        };
        // `i * n + rank`, once per index, where `i` is defined (so it serves every use).
        let mut moved_of: FxHashMap<(Value, i64, i64), Value> = FxHashMap::default();
        // `i * a + rank * b`, once per (i, a, b), where `i` is defined (so it serves every
        // use): a view index moved to this CTA's part.
        let mut moved =
            |m: &mut Module, ranks: &mut FxHashMap<Type, Value>, i: Value, a: i64, bk: i64| {
                if let Some(v) = moved_of.get(&(i, a, bk)) {
                    return *v;
                }
                let ty = m.value_type(i);
                let r = rank_as(m, ranks, ty);
                // After `i`'s definition, and after the rank's (and its conversion's) when
                // `i` is an argument of the block that starts with them (the kernel's).
                let rank_def = m.defining_op(r).expect("rank op (or its conversion)");
                let at = match m.value_def(i) {
                    ValueDef::Result(d, _) => after(m, d),
                    ValueDef::Arg(b, _) if m.op_block(rank_def) == Some(b) => after(m, rank_def),
                    ValueDef::Arg(b, _) => match m.first_op(b) {
                        Some(o) => InsertPoint::Before(o),
                        None => InsertPoint::End(b),
                    },
                    ValueDef::Placeholder => InsertPoint::Detached,
                };
                let mut b = Builder::new(m);
                b.set_insertion_point(at);
                let mut scaled = |v: Value, k: i64| {
                    if k == 1 {
                        return v;
                    }
                    let c = b.constant_int(ty, k);
                    b.binary(Opcode::MulI, v, c)
                };
                let p = scaled(i, a);
                let q = scaled(r, bk);
                let v = b.binary(Opcode::AddI, p, q);
                moved_of.insert((i, a, bk), v);
                v
            };
        let mut views: FxHashMap<(Value, usize), Value> = FxHashMap::default();
        for op in ops {
            let code = m.opcode(op);
            if code == Opcode::Constant {
                {
                    let r = m.result(op, 0);
                    if dim_of(r).is_some()
                        && let Some(a) = m.attr(op, 0)
                        && let AttrData::Dense(d) = m.ctx.attrs.get(a).clone()
                    {
                        let ty = m.value_type(r);
                        let na = m
                            .ctx
                            .attrs
                            .intern(AttrData::Dense(tilec_ir::attrs::DenseElements { ty, ..d }));
                        m.set_attr(op, 0, Some(na));
                    }
                }
            } else if code == Opcode::Iota {
                {
                    let r = m.result(op, 0);
                    if dim_of(r).is_none() {
                        continue;
                    }
                    let ty = m.value_type(r);
                    let part = m.ctx.types.shape(ty)[0];
                    let elem = m.ctx.types.element_type(ty);
                    let scalar = m.ctx.types.tile(&[], elem);
                    let one = m.ctx.types.tile(&[1], elem);
                    let rk = rank_as(m, &mut ranks, scalar);
                    let mut b = Builder::new(m);
                    let at = after(b.module, op);
                    b.set_insertion_point(at);
                    let c = b.constant_int(scalar, part);
                    let off = b.binary(Opcode::MulI, rk, c);
                    let off = b.cast(Opcode::Reshape, off, one);
                    let off = b.cast(Opcode::Broadcast, off, ty);
                    let sum = b.binary(Opcode::AddI, r, off);
                    let sum_op = b.module.defining_op(sum).expect("addi");
                    let users: Vec<Op> = m.users(r).filter(|u| *u != sum_op).collect();
                    for u in users {
                        for i in 0..m.num_operands(u) {
                            if m.operand(u, i) == r {
                                m.set_operand(u, i, sum);
                            }
                        }
                    }
                }
            } else if matches!(
                code,
                Opcode::LoadViewTko | Opcode::StoreViewTko | Opcode::AtomicRedViewTko
            ) {
                {
                    let Some(&d) = view_dims.get(&op) else {
                        continue;
                    };
                    let view = operand_group(m, op, "view")[0];
                    let view_at = m.operands(op).position(|v| v == view).unwrap_or(0);
                    let Some(def) = m.defining_op(view) else {
                        continue;
                    };
                    let vt = m.value_type(view);
                    // The view of this CTA's parts (its tile `n` times smaller along `d`),
                    // and how index `d` moves: `i * a + rank * b` (`None`: it stays, a
                    // gather's rows split with the tile).
                    let (nt, step) = match m.ctx.types.get(vt).clone() {
                        TypeData::PartitionView {
                            tile,
                            padding,
                            tensor_view,
                            dim_map,
                        } => {
                            let mut tile = tile.to_vec();
                            tile[d] /= n;
                            let t = TypeData::PartitionView {
                                tile: tile.into(),
                                padding,
                                tensor_view,
                                dim_map,
                            };
                            (t, Some((n, 1)))
                        }
                        TypeData::StridedView {
                            tile,
                            traversal_strides,
                            padding,
                            tensor_view,
                            dim_map,
                        } => {
                            // Origin `i * s + rank * part` on a traversal of gcd(s, part).
                            let mut tile = tile.to_vec();
                            tile[d] /= n;
                            let part = tile[d];
                            let mut strides = traversal_strides.to_vec();
                            let g = gcd(strides[d], part);
                            let a = strides[d] / g;
                            strides[d] = g;
                            let t = TypeData::StridedView {
                                tile: tile.into(),
                                traversal_strides: strides.into(),
                                padding,
                                tensor_view,
                                dim_map,
                            };
                            (t, Some((a, part / g)))
                        }
                        TypeData::GatherScatterView {
                            tile,
                            padding,
                            tensor_view,
                            sparse_dim,
                        } => {
                            // Element offsets along the other dimensions.
                            let mut tile = tile.to_vec();
                            tile[d] /= n;
                            let part = tile[d];
                            let t = TypeData::GatherScatterView {
                                tile: tile.into(),
                                padding,
                                tensor_view,
                                sparse_dim,
                            };
                            (t, (d != sparse_dim as usize).then_some((1, part)))
                        }
                        // The split refuses a tile through any other view (`derive`).
                        _ => unreachable!("a split view access through a view the split refuses"),
                    };
                    let nv = match views.get(&(view, d)) {
                        Some(v) => *v,
                        None => {
                            let nt = m.ctx.types.intern(nt);
                            let tv = m.operand(def, 0);
                            let code = m.opcode(def);
                            let mut b = Builder::new(m);
                            let at = after(b.module, def);
                            b.set_insertion_point(at);
                            let c = b.create(code, &[&[tv]], &[nt], &[], 0).expect("a view");
                            let nv = b.module.result(c, 0);
                            views.insert((view, d), nv);
                            nv
                        }
                    };
                    m.set_operand(op, view_at, nv);
                    if let Some((a, bk)) = step {
                        let index = operand_group(m, op, "index");
                        let first = m.operands(op).position(|v| v == index[0]).unwrap_or(0);
                        let ni = moved(m, &mut ranks, index[d], a, bk);
                        m.set_operand(op, first + d, ni);
                    }
                }
            } else if code == Opcode::Extract {
                let (src_dim, r_dim) = extract_dims.get(&op).copied().unwrap_or_default();
                if let Some(d) = r_dim {
                    let i = m.operand(op, 1 + d);
                    let ni = moved(m, &mut ranks, i, n, 1);
                    m.set_operand(op, 1 + d, ni);
                } else if let Some(d) = src_dim {
                    let whole = gathered_whole(m, op, m.operand(op, 0), d, n);
                    m.set_operand(op, 0, whole);
                }
            }
        }
        for &op in &across {
            if m.opcode(op) == Opcode::Reduce {
                combine_parts(m, op, n);
            } else {
                combine_scan_parts(m, op, n, rank);
            }
        }
        // A cluster barrier where each token that orders a memory operation after
        // another CTA's is defined (after the op, or first in the block of an argument):
        // every path from the earlier access to the later one passes it, once.
        for &t in barriers {
            let at = match m.value_def(t) {
                ValueDef::Result(d, _) => after(m, d),
                ValueDef::Arg(b, _) => match m.first_op(b) {
                    Some(o) => InsertPoint::Before(o),
                    None => InsertPoint::End(b),
                },
                ValueDef::Placeholder => continue,
            };
            m.create_op(
                &tilec_ir::module::OpSpec {
                    opcode: Opcode::ClusterBarrier,
                    operands: &[],
                    results: &[],
                    attrs: &[],
                    regions: 0,
                },
                at,
            );
        }
        for &op in &whole_writes {
            by_rank_zero(m, op, rank);
        }
        // The views the split accesses replaced.
        for (view, _) in views.keys() {
            if !m.has_uses(*view)
                && let Some(d) = m.defining_op(*view)
            {
                m.erase_op(d);
            }
        }
        let a = m.ctx.attrs.int(n, Type::I32);
        m.put_extra_attr_sorted(entry, NUM_CTAS_ATTR, a);
    }
}

/// A reduction `op` along the dimension its operands are split along: each CTA's
/// results are its part's; `ttng.cluster_gather` brings every CTA's parts together and
/// a copy of the reduction along the gathered (rank) dimension combines them, in rank
/// order, the same in every CTA.
fn combine_parts(m: &mut Module, op: Op, n: i64) {
    let results: Vec<Value> = m.results(op).collect();
    let at = after(m, op);
    let mut gathered = Vec::new();
    for r in &results {
        let ty = m.value_type(*r);
        let mut shape = vec![n];
        shape.extend_from_slice(m.ctx.types.shape(ty));
        let elem = m.ctx.types.element_type(ty);
        let gty = m.ctx.types.tile(&shape, elem);
        let g = m.create_op(
            &tilec_ir::module::OpSpec {
                opcode: Opcode::ClusterGather,
                operands: &[*r],
                results: &[gty],
                attrs: &[],
                regions: 0,
            },
            at,
        );
        gathered.push(m.result(g, 0));
    }
    let types: Vec<Type> = results.iter().map(|r| m.value_type(*r)).collect();
    let combined = over_ranks(m, op, &gathered, &types, at);
    for (k, r) in results.iter().enumerate() {
        let g = m.defining_op(gathered[k]);
        let users: Vec<Op> = m.users(*r).filter(|u| Some(*u) != g).collect();
        let nr = m.result(combined, k);
        for u in users {
            for i in 0..m.num_operands(u) {
                if m.operand(u, i) == *r {
                    m.set_operand(u, i, nr);
                }
            }
        }
    }
}

/// The whole of tile `part` (each CTA's part along dimension `d`) in every CTA, before
/// `op`: the parts gathered through the cluster (`ttng.cluster_gather`: N x the part),
/// the rank dimension moved next to `d` and merged with it (the parts are contiguous
/// ranges along `d`, in rank order).
fn gathered_whole(m: &mut Module, op: Op, part: Value, d: usize, n: i64) -> Value {
    let ty = m.value_type(part);
    let shape = m.ctx.types.shape(ty).to_vec();
    let elem = m.ctx.types.element_type(ty);
    let mut gshape = vec![n];
    gshape.extend_from_slice(&shape);
    let gty = m.ctx.types.tile(&gshape, elem);
    let g = m.create_op(
        &tilec_ir::module::OpSpec {
            opcode: Opcode::ClusterGather,
            operands: &[part],
            results: &[gty],
            attrs: &[],
            regions: 0,
        },
        InsertPoint::Before(op),
    );
    let mut whole = m.result(g, 0);
    let mut b = Builder::new(m);
    b.set_insertion_point(InsertPoint::Before(op));
    if d > 0 {
        // Result dimension k is gathered dimension perm[k]: [1, .., d, 0, d + 1, ..].
        let perm: Vec<i32> = (1..=d as i32)
            .chain([0])
            .chain(d as i32 + 1..=shape.len() as i32)
            .collect();
        let pshape: Vec<i64> = perm.iter().map(|k| gshape[*k as usize]).collect();
        let pty = b.module.ctx.types.tile(&pshape, elem);
        let attr = b
            .module
            .ctx
            .attrs
            .intern(AttrData::DenseI32Array(perm.into_boxed_slice()));
        let p = b
            .create(
                Opcode::Permute,
                &[&[whole]],
                &[pty],
                &[("permutation", attr)],
                0,
            )
            .expect("permute");
        whole = b.module.result(p, 0);
    }
    let mut wshape = shape;
    wshape[d] *= n;
    let wty = b.module.ctx.types.tile(&wshape, elem);
    b.cast(Opcode::Reshape, whole, wty)
}

/// A scan `op` along the dimension its operands are split along: each CTA's results are
/// its part's scan; the parts' totals (the last slice along the dimension, the first
/// for a reverse scan) meet through the cluster (`ttng.cluster_gather`), a copy of the
/// scan over the gathered (rank) dimension gives every CTA the totals of the CTAs
/// before it, and the body combines them into each element (as the earlier operand), but
/// on the first CTA.
fn combine_scan_parts(m: &mut Module, op: Op, n: i64, rank: Value) {
    let results: Vec<Value> = m.results(op).collect();
    let dim = crate::gpu::int_attr(m, op, "dim") as usize;
    let reverse = matches!(
        m.attr_named(op, "reverse").map(|a| m.ctx.attrs.get(a)),
        Some(AttrData::Bool(true))
    );
    let part = m.ctx.types.shape(m.value_type(results[0])).to_vec();
    let mut slice = part.clone();
    slice[dim] = 1;
    let i32_ty = m.value_type(rank);
    // What follows the scan now: the fix-up goes before it.
    let stop = m.next_op(op);
    let mut b = Builder::new(m);
    b.set_insertion_point(after(b.module, op));
    // Each result's total: its last (first) slice along the dimension.
    let idx: Vec<Value> = (0..part.len())
        .map(|d| {
            let i = if d == dim && !reverse { part[d] - 1 } else { 0 };
            b.constant_int(i32_ty, i)
        })
        .collect();
    let mut gathered = Vec::new();
    for r in &results {
        let elem = b.module.ctx.types.element_type(b.module.value_type(*r));
        let sty = b.module.ctx.types.tile(&slice, elem);
        let t = b
            .create(Opcode::Extract, &[&[*r], &idx], &[sty], &[], 0)
            .expect("extract");
        let t = b.module.result(t, 0);
        let mut gshape = vec![n];
        gshape.extend(&slice);
        let gty = b.module.ctx.types.tile(&gshape, elem);
        let g = b
            .create(Opcode::ClusterGather, &[&[t]], &[gty], &[], 0)
            .expect("cluster_gather");
        gathered.push(b.module.result(g, 0));
    }
    // The scan over the ranks, with the op's body and identities.
    let at = b.insertion_point();
    let m = b.module;
    let gtypes: Vec<Type> = gathered.iter().map(|g| m.value_type(*g)).collect();
    let over_ranks = over_ranks(m, op, &gathered, &gtypes, at);
    // The CTAs before this one (after it, reversed): the scan over ranks at r - 1
    // (r + 1), clamped; the first CTA keeps its own part's scan.
    let mut b = Builder::new(m);
    b.set_insertion_point(at);
    let one = b.constant_int(i32_ty, 1);
    let (edge, step) = if reverse {
        (b.constant_int(i32_ty, n - 1), Opcode::AddI)
    } else {
        (b.constant_int(i32_ty, 0), Opcode::SubI)
    };
    let first = b.cmpi(
        tilec_ir::attrs::ComparisonPredicate::Equal,
        rank,
        edge,
        tilec_ir::attrs::Signedness::Signed,
    );
    let moved = b.binary(step, rank, one);
    let before = b.select(first, rank, moved);
    let mut offsets = Vec::new();
    for k in 0..results.len() {
        let over = b.module.result(over_ranks, k);
        let elem = b.module.ctx.types.element_type(b.module.value_type(over));
        let mut one_shape = vec![1];
        one_shape.extend(&slice);
        let oty = b.module.ctx.types.tile(&one_shape, elem);
        let mut index = vec![before];
        let zeros: Vec<Value> = (0..slice.len())
            .map(|_| b.constant_int(i32_ty, 0))
            .collect();
        index.extend(zeros);
        let e = b
            .create(Opcode::Extract, &[&[over], &index], &[oty], &[], 0)
            .expect("extract");
        let e = b.module.result(e, 0);
        let sty = b.module.ctx.types.tile(&slice, elem);
        let e = b.cast(Opcode::Reshape, e, sty);
        let pty = b.module.ctx.types.tile(&part, elem);
        offsets.push(b.cast(Opcode::Broadcast, e, pty));
    }
    // The body on whole tiles: (this CTA's element, the earlier CTAs' total).
    let at = b.insertion_point();
    let combined = apply_body(b.module, op, &results, &offsets, &part, at);
    let mut b = Builder::new(m);
    b.set_insertion_point(at);
    let one_ty = b.module.ctx.types.tile(&vec![1; part.len()], Type::I1);
    let first_t = b.cast(Opcode::Reshape, first, one_ty);
    let mask_ty = b.module.ctx.types.tile(&part, Type::I1);
    let first_t = b.cast(Opcode::Broadcast, first_t, mask_ty);
    let finals: Vec<Value> = results
        .iter()
        .zip(&combined)
        .map(|(r, c)| b.select(first_t, *r, *c))
        .collect();
    // Every use of the op's results but the fix-up's own takes the fixed-up values.
    let mut ours: Vec<Op> = Vec::new();
    let mut cur = m.next_op(op);
    while let Some(o) = cur.filter(|o| Some(*o) != stop) {
        ours.push(o);
        cur = m.next_op(o);
    }
    for (r, f) in results.iter().zip(&finals) {
        let users: Vec<Op> = m.users(*r).filter(|u| !ours.contains(u)).collect();
        for u in users {
            for i in 0..m.num_operands(u) {
                if m.operand(u, i) == *r {
                    m.set_operand(u, i, *f);
                }
            }
        }
    }
}

/// A copy of reduction or scan `op` (its attributes, identities and body) over the
/// gathered tiles `gathered` along their leading (rank) dimension, with results of
/// `types`, at `at`.
fn over_ranks(m: &mut Module, op: Op, gathered: &[Value], types: &[Type], at: InsertPoint) -> Op {
    let dim_slot = m
        .def(op)
        .attr_index("dim")
        .expect("reductions and scans have dim");
    let mut attrs: Vec<Option<tilec_ir::Attr>> =
        (0..m.def(op).attrs.len()).map(|i| m.attr(op, i)).collect();
    attrs[dim_slot] = Some(m.ctx.attrs.int(0, Type::I32));
    let copy = m.create_op(
        &tilec_ir::module::OpSpec {
            opcode: m.opcode(op),
            operands: gathered,
            results: types,
            attrs: &attrs,
            regions: 1,
        },
        at,
    );
    let span = m.op_span(op);
    m.set_op_span(copy, span);
    clone_body(m, op, copy);
    copy
}

/// Copies the body of reduction or scan `from` into `to` (whose region is empty).
fn clone_body(m: &mut Module, from: Op, to: Op) {
    let old_body = m.entry_block(m.region(from, 0)).expect("a body");
    let new_body = m.append_block(m.region(to, 0));
    let mut map: FxHashMap<Value, Value> = FxHashMap::default();
    for a in m.block_args(old_body).to_vec() {
        let ty = m.value_type(a);
        let na = m.append_block_arg(new_body, ty);
        map.insert(a, na);
    }
    let body_ops: Vec<Op> = m.block_ops(old_body).collect();
    for o in body_ops {
        copy_op(m, o, &mut map, None, InsertPoint::End(new_body));
    }
}

/// A copy of body op `o` at `at`, its operands mapped by `map` (which gains its
/// results); with `shape`, its results are tiles of that shape (a constant's value
/// too: the op applied to whole tiles).
fn copy_op(
    m: &mut Module,
    o: Op,
    map: &mut FxHashMap<Value, Value>,
    shape: Option<&[i64]>,
    at: InsertPoint,
) -> Op {
    let operands: Vec<Value> = m
        .operands(o)
        .map(|v| map.get(&v).copied().unwrap_or(v))
        .collect();
    let types: Vec<Type> = m
        .results(o)
        .map(|r| m.value_type(r))
        .collect::<Vec<_>>()
        .into_iter()
        .map(|t| match shape {
            Some(s) => {
                let elem = m.ctx.types.element_type(t);
                m.ctx.types.tile(s, elem)
            }
            None => t,
        })
        .collect();
    let mut attrs: Vec<Option<tilec_ir::Attr>> =
        (0..m.def(o).attrs.len()).map(|i| m.attr(o, i)).collect();
    if shape.is_some()
        && m.opcode(o) == Opcode::Constant
        && let Some(Some(a)) = attrs.first()
        && let AttrData::Dense(d) = m.ctx.attrs.get(*a).clone()
    {
        let ty = types[0];
        attrs[0] = Some(
            m.ctx
                .attrs
                .intern(AttrData::Dense(tilec_ir::attrs::DenseElements { ty, ..d })),
        );
    }
    let c = m.create_op(
        &tilec_ir::module::OpSpec {
            opcode: m.opcode(o),
            operands: &operands,
            results: &types,
            attrs: &attrs,
            regions: 0,
        },
        at,
    );
    for (k, a) in m.extra_attrs(o).to_vec() {
        m.push_extra_attr(c, &k, a);
    }
    for (r, nr) in m.results(o).zip(m.results(c)) {
        map.insert(r, nr);
    }
    c
}

/// The body of reduction or scan `op` applied to whole tiles of shape `shape` at `at`:
/// its arguments (`cur[k]`, `prev[k]`) per operand, its ops elementwise; the values its
/// `yield` gives.
fn apply_body(
    m: &mut Module,
    op: Op,
    cur: &[Value],
    prev: &[Value],
    shape: &[i64],
    at: InsertPoint,
) -> Vec<Value> {
    let body = m.entry_block(m.region(op, 0)).expect("a body");
    let mut map: FxHashMap<Value, Value> = FxHashMap::default();
    for (k, a) in m.block_args(body).to_vec().iter().enumerate() {
        map.insert(*a, if k % 2 == 0 { cur[k / 2] } else { prev[k / 2] });
    }
    let body_ops: Vec<Op> = m.block_ops(body).collect();
    for o in body_ops {
        if m.opcode(o) == Opcode::Yield {
            return m
                .operands(o)
                .map(|v| map.get(&v).copied().unwrap_or(v))
                .collect();
        }
        copy_op(m, o, &mut map, Some(shape), at);
    }
    Vec::new()
}

/// Write `op` of a tile no CTA holds a part of: done by rank 0 alone, inside
/// `if rank == 0`, which yields its token (the one it was ordered by otherwise).
fn by_rank_zero(m: &mut Module, op: Op, rank: Value) {
    let tokens: Vec<Value> = m
        .results(op)
        .filter(|r| matches!(m.ctx.types.get(m.value_type(*r)), TypeData::Token))
        .collect();
    let token_ty = tokens.first().map(|t| m.value_type(*t));
    let input = operand_group(m, op, "token").first().copied();
    let users: Vec<(Op, usize)> = tokens
        .iter()
        .flat_map(|t| {
            m.users(*t)
                .flat_map(|u| {
                    (0..m.num_operands(u))
                        .filter(|i| m.operand(u, *i) == *t)
                        .map(move |i| (u, i))
                        .collect::<Vec<_>>()
                })
                .collect::<Vec<_>>()
        })
        .collect();
    let ity = m.value_type(rank);
    let mut b = Builder::new(m);
    b.set_insertion_point(InsertPoint::Before(op));
    let zero = b.constant_int(ity, 0);
    let first = b.cmpi(
        tilec_ir::attrs::ComparisonPredicate::Equal,
        rank,
        zero,
        tilec_ir::attrs::Signedness::Signed,
    );
    let result_types: Vec<Type> = token_ty.into_iter().collect();
    let (if_op, then_b, else_b) = b.if_(first, &result_types, true);
    let else_b = else_b.expect("else block");
    b.module.move_op(op, InsertPoint::End(then_b));
    b.set_insertion_point(InsertPoint::End(then_b));
    b.yield_(&tokens[..tokens.len().min(1)]);
    b.set_insertion_point(InsertPoint::End(else_b));
    let other = match (token_ty, input) {
        (Some(_), Some(t)) => vec![t],
        (Some(_), None) => vec![b.make_token()],
        (None, _) => Vec::new(),
    };
    b.yield_(&other);
    let span = m.op_span(op);
    m.set_op_span(if_op, span);
    if let Some(r) = m.results(if_op).next() {
        for (u, i) in users {
            m.set_operand(u, i, r);
        }
    }
}

/// The greatest common divisor of two positive numbers.
fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a.max(1) } else { gcd(b, a % b) }
}

/// The insertion point right after `op` (ops created there one after another stay in
/// order).
fn after(m: &Module, op: Op) -> InsertPoint {
    match (m.next_op(op), m.op_block(op)) {
        (Some(next), _) => InsertPoint::Before(next),
        (None, Some(b)) => InsertPoint::End(b),
        (None, None) => InsertPoint::Detached,
    }
}

fn describe(s: Split) -> String {
    match s {
        Split::Rep => "whole by every CTA".into(),
        Split::Dim(d) => format!("spread along dimension {d}"),
    }
}

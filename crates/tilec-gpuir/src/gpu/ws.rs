//! Warp specialization (`--warp-specialize`, docs/hopper.md, "Warp specialization"): a
//! copy-engine K-loop pipeline split between a producer partition, which waits for a
//! stage to be free, arms its mbarrier and issues the copies of each K step, and the
//! warpgroups of the default region, which wait for each stage, multiply, and hand the
//! stage back through a second ring of mbarriers (the "empty" ring) once the product
//! that read it is done.
//!
//! tilec's `ttg.warp_specialize` has one partition, whose warps come after the default
//! region's (threads `32 * W` and up). Everything before the op runs on every warp of the
//! CTA: the pass only builds one where that code is safe to run on extra warps (code that
//! only reads memory and computes in registers, constants, and the single-thread setup of
//! mbarriers, whose thread 0 is the default region's); the partition uses what it
//! computed, and claims and builds its own tensor maps. The partition's warps end the
//! kernel at `ttg.warp_return`, and from the op on, CTA barriers count the default
//! region's threads only.

use super::*;

/// The registers a producer warpgroup keeps (`setmaxnreg.dec`): it only computes
/// coordinates and issues copies.
pub const PRODUCER_REGISTERS: u32 = 40;

/// The registers a thread of a CTA of `threads` threads may hold (a multiple of 8, at
/// most 248: 64 Ki registers per SM).
fn registers_per_thread(threads: u32) -> u32 {
    ((65536 / threads.max(1)) / 8 * 8).min(248)
}

fn i32s(m: &Module, op: Op, name: &str) -> Vec<i32> {
    match m.attr_named(op, name).map(|a| m.ctx.attrs.get(a)) {
        Some(AttrData::DenseI32Array(v)) => v.to_vec(),
        _ => Vec::new(),
    }
}

/// The warps of the partition of `ttg.warp_specialize` op `op`.
pub fn warps_of(m: &Module, op: Op) -> u32 {
    i32s(m, op, "partitionNumWarps")
        .first()
        .map_or(0, |w| u32::try_from(*w).unwrap_or(0))
}

/// The warps entry `e`'s `ttg.warp_specialize` adds to the layouts' (0 without one).
pub fn partition_warps(m: &Module, e: Op) -> u32 {
    let mut n = 0;
    m.walk_op(e, &mut |o| {
        if m.opcode(o) == Opcode::WarpSpecialize {
            n = n.max(warps_of(m, o));
        }
    });
    n
}

/// The register counts (`actualRegisters`) of the default region's warps and the
/// partition's, when the op rebalances them.
pub fn actual_registers(m: &Module, op: Op) -> Option<(u32, u32)> {
    match i32s(m, op, "actualRegisters")[..] {
        [d, p] => Some((u32::try_from(d).ok()?, u32::try_from(p).ok()?)),
        _ => None,
    }
}

/// Whether op `o`, before a `ttg.warp_specialize`, may run on the partition's warps too:
/// code that only reads memory and computes in registers (those warps alias the layouts'
/// first warps: they read what those read and compute the same values, which nothing
/// after the op uses), and the setup that one thread of the default region does (tensor
/// maps, mbarriers), or a mask of such. Not: writes, shared-memory scratch and its
/// barriers, tensor-core products.
fn safe_on_every_warp(m: &Module, o: Op) -> bool {
    use Opcode as O;
    let code = m.opcode(o);
    // The single-thread setup, and places in shared memory (an empty buffer).
    let setup = matches!(
        code,
        O::Constant
            | O::GlobalScratchAlloc
            | O::TensormapCreate
            | O::InitBarrier
            | O::GpuBarrier
            | O::MemDescIndex
            | O::LocalDealloc
            | O::MaskReturn
    ) || (code == O::LocalAlloc && m.num_operands(o) == 0);
    // A mask of such.
    let mask = code == O::Mask
        && m.regions(o).iter().all(|r| {
            m.entry_block(*r)
                .is_none_or(|b| m.block_ops(b).all(|x| safe_on_every_warp(m, x)))
        });
    // By the op table: no regions, no writes, no scratch; not a tensor-core product.
    let reads = m.regions(o).is_empty()
        && matches!(
            m.def(o).effects,
            tilec_ir::ops::Effects::None | tilec_ir::ops::Effects::Read
        )
        && !crate::smem::uses_scratch(m, o)
        && !matches!(code, O::MmaF | O::MmaI | O::MmaFScaled | O::LocalAlloc);
    setup || mask || reads
}

/// Whether value `v` is defined inside op `o` (by an op nested in it, or as an argument
/// of one of its blocks or of a block nested in it).
pub(super) fn defined_in(m: &Module, v: Value, o: Op) -> bool {
    let owner = match m.value_def(v) {
        tilec_ir::ValueDef::Result(d, _) => m.parent_op(d),
        tilec_ir::ValueDef::Arg(b, _) => m.block_parent_op(b),
        tilec_ir::ValueDef::Placeholder => None,
    };
    owner.is_some_and(|p| within(m, p, o))
}

/// A persistent kernel's loop around a K loop, which warp specialization splits whole
/// ([`Assign::persistent_loop`]): the loop, the K loop's trip count (computed before the
/// loop), and the scalar ops of the loop's body that the K loop's copies take their
/// coordinates from (in program order), which the producer runs again.
pub(super) struct Persistent {
    pub outer: Op,
    pub trips: Value,
    pub slice: Vec<Op>,
}

/// What [`Assign::warp_specialize`] needs of a pipeline `build_pipeline` made.
pub(super) struct WsPipeline {
    /// The product the pipeline feeds.
    pub op: Op,
    pub copies: Vec<tma::TmaCopy>,
    pub maps: Vec<Value>,
    pub bufs: Vec<(usize, Value, Type)>,
    pub ring: (Value, Type),
    pub stages: u32,
    pub overlap: bool,
    pub tma_ok: Option<Value>,
    /// Its negation, made before the loop (when there is a `tma_ok`).
    pub not_tma: Option<Value>,
    /// The ops made before the loop that belong to the default region: the `cp.async`
    /// alternative's prologue copies and their commits.
    pub prologue: Vec<Op>,
    /// Split across a persistent loop: the loop, and the K steps done in its earlier
    /// iterations (made before the K loop), which the stages and phases count from.
    pub persistent: Option<(Persistent, Value)>,
    /// The copy-engine fills the pipeline made itself (its prologue's and the loop's),
    /// which the partition's replace: erased when the loop is split.
    pub fills: Vec<Op>,
    /// The CTA barrier at the top of each K step, which kept a refill behind every read
    /// of its stage.
    pub top_barrier: Op,
}

/// Whether op `x` is `o` or nested in it.
fn within(m: &Module, x: Op, o: Op) -> bool {
    let mut at = Some(x);
    while let Some(p) = at {
        if p == o {
            return true;
        }
        at = m.parent_op(p);
    }
    false
}

impl Assign<'_> {
    /// Splits the loops whose copy-engine pipelines were all planned warp-specialized
    /// (`pending_ws`; none refused), each once with all its pipelines. A loop of several pipelines
    /// around which a persistent loop's setup was made stays as planned, unsplit (its
    /// fills and stages are those of a single-role pipeline counting steps across the
    /// persistent loop).
    pub(super) fn split_pending(&mut self) {
        let pending = std::mem::take(&mut self.pending_ws);
        let mut loops: Vec<(Op, Vec<WsPipeline>)> = Vec::new();
        for (f, p) in pending {
            match loops.iter_mut().find(|(g, _)| *g == f) {
                Some((_, ps)) => ps.push(p),
                None => loops.push((f, vec![p])),
            }
        }
        let mut split = false;
        for (f, ps) in loops {
            let why = if split {
                Some("an earlier K loop of the kernel is")
            } else if self.ws_refused.contains(&f) {
                // Its other pipeline's fills and copies stay with every warp.
                Some("another of its pipelines is not")
            } else if ps.len() > 1 && ps.iter().any(|p| p.persistent.is_some()) {
                Some("it holds several pipelines and is nested in a persistent loop")
            } else {
                None
            };
            if let Some(why) = why {
                self.remark(f, format!("K loop not warp-specialized: {why}"));
                continue;
            }
            let moved = self.movable_ops(f);
            self.warp_specialize(f, &ps, &moved);
            split = true;
        }
    }

    /// The ops around K loop `f` in the kernel's body that the producer's warps must not
    /// run but the default region may run instead, where they move when `f` is split:
    /// before `f`, each `ttg.local_alloc` of a value (an operand staged once in shared
    /// memory: attention's `Q`) whose buffer only `f` uses; after `f`, the
    /// `ttg.local_dealloc` that releases it. (The split puts a CTA barrier after the moved
    /// stores; the one that followed them stays where it was.)
    fn movable_ops(&self, f: Op) -> (Vec<Op>, Vec<Op>) {
        let m = &*self.m;
        let Some(body) = self.body.filter(|b| m.op_block(f) == Some(*b)) else {
            return (Vec::new(), Vec::new());
        };
        let (mut before, mut after) = (Vec::new(), Vec::new());
        for o in m.block_ops(body).take_while(|o| *o != f) {
            if m.opcode(o) != Opcode::LocalAlloc || m.num_operands(o) == 0 {
                continue;
            }
            let release =
                |u: Op| m.opcode(u) == Opcode::LocalDealloc && m.op_block(u) == Some(body);
            let only_f = m
                .results(o)
                .all(|r| m.users(r).all(|u| within(m, u, f) || release(u)));
            if !only_f {
                continue;
            }
            before.push(o);
            for r in m.results(o) {
                after.extend(m.users(r).filter(|u| release(*u)));
            }
        }
        (before, after)
    }

    /// The loop around K loop `f` (whose stages `copies` fill) whose iterations all run
    /// `f` alike, so that the copies' tensor maps and run-time check can be made once
    /// before it: `f` is the body of a `for` in the kernel's body, and `f`'s bounds, the
    /// copies' views and their checked strides and bases are defined before that loop.
    /// `Ok(None)` when `f` is in the kernel's body; why not otherwise.
    pub(super) fn invariant_outer(
        &self,
        f: Op,
        copies: &[tma::TmaCopy],
    ) -> Result<Option<Op>, String> {
        let m = &*self.m;
        let (Some(body), Some(fb)) = (self.body, m.op_block(f)) else {
            return Ok(None);
        };
        if fb == body {
            return Ok(None);
        }
        let nested = || "it is nested in other code than a loop in the kernel's body".to_string();
        let outer = m.block_parent_op(fb).ok_or_else(nested)?;
        if m.opcode(outer) != Opcode::For || m.op_block(outer) != Some(body) {
            return Err(nested());
        }
        if (0..3).any(|i| defined_in(m, m.operand(f, i), outer)) {
            return Err("its bounds change with the loop around it".into());
        }
        let invariant = copies.iter().all(|c| {
            !defined_in(m, c.view, outer)
                && c.checks.iter().all(|(v, _)| !defined_in(m, *v, outer))
                && c.base_check.is_none_or(|v| !defined_in(m, v, outer))
        });
        if !invariant {
            return Err("its tensor maps change with the loop around it".into());
        }
        Ok(Some(outer))
    }

    /// Whether K loop `f`, whose stages `copies` fill, is warp-specialized across a
    /// persistent loop: `Ok(None)` when `f` is in the kernel's body (it is split itself);
    /// the [`Persistent`] loop when `f` is the body of a loop whose iterations run it
    /// alike ([`Assign::invariant_outer`]) and whose copies' coordinates are scalar code
    /// of that loop's body (the trip count is made before the loop); why not otherwise.
    pub(super) fn persistent_loop(
        &mut self,
        f: Op,
        copies: &[tma::TmaCopy],
        origin: Op,
    ) -> Result<Option<Persistent>, String> {
        let Some(outer) = self.invariant_outer(f, copies)? else {
            return Ok(None);
        };
        let m = &*self.m;
        let nested = || "it is nested in other code than a loop in the kernel's body".to_string();
        let (Some(body), Some(fb), Some(&iv)) = (
            self.body,
            m.op_block(f),
            m.op_block(origin)
                .map(|b| m.block_args(b))
                .and_then(|a| a.first()),
        ) else {
            return Err(nested());
        };
        // The coordinates: scalar ops of the outer body, none with regions or effects.
        let mut slice: FxHashSet<Op> = FxHashSet::default();
        let mut work: Vec<Value> = copies
            .iter()
            .flat_map(|c| c.index.iter().copied())
            .filter(|v| *v != iv)
            .collect();
        while let Some(v) = work.pop() {
            if !defined_in(m, v, outer) {
                continue;
            }
            let d = m
                .defining_op(v)
                .filter(|d| m.op_block(*d) == Some(fb) && *d != f)
                .filter(|d| {
                    m.regions(*d).is_empty()
                        && matches!(m.def(*d).effects, tilec_ir::ops::Effects::None)
                        && m.results(*d).all(|r| {
                            let t = m.value_type(r);
                            m.ctx.types.is_tile(t) && m.ctx.types.shape(t).is_empty()
                        })
                });
            let is_iv = m.block_args(fb).first() == Some(&v);
            match d {
                Some(d) => {
                    if slice.insert(d) {
                        work.extend(m.operands(d));
                    }
                }
                None if is_iv => {}
                None => {
                    return Err(
                        "the coordinates of its copies are not scalar code of the loop around it"
                            .into(),
                    );
                }
            }
        }
        let slice: Vec<Op> = m.block_ops(fb).filter(|o| slice.contains(o)).collect();
        if let Some(why) = self.split_refusal(body, outer, &[], "the loop around it") {
            return Err(why);
        }
        let trips = self.trip_count(f, InsertPoint::Before(outer), origin);
        Ok(Some(Persistent {
            outer,
            trips,
            slice,
        }))
    }

    /// The iterations of loop `f` (`max(ceil((ub - lb) / step), 0)`, its step a
    /// constant or not), at `at`.
    fn trip_count(&mut self, f: Op, at: InsertPoint, origin: Op) -> Value {
        let (lb, ub, step) = (
            self.m.operand(f, 0),
            self.m.operand(f, 1),
            self.m.operand(f, 2),
        );
        let ty = self.m.value_type(lb);
        let signed = self.m.ctx.attrs.enum_case(EnumKind::Signedness, 1);
        let span = self.scalar_at(Opcode::SubI, &[ub, lb], ty, &[], at, origin);
        let trips = match super::constant_step(self.m, f) {
            Some(1) => span,
            Some(c) => {
                let round = self.int_const_at(c as u64 - 1, ty, at, origin);
                let span = self.scalar_at(Opcode::AddI, &[span, round], ty, &[], at, origin);
                let by = self.int_const_at(c as u64, ty, at, origin);
                self.scalar_at(Opcode::DivI, &[span, by], ty, &[Some(signed)], at, origin)
            }
            None => {
                let one = self.int_const_at(1, ty, at, origin);
                let round = self.scalar_at(Opcode::SubI, &[step, one], ty, &[], at, origin);
                let span = self.scalar_at(Opcode::AddI, &[span, round], ty, &[], at, origin);
                self.scalar_at(Opcode::DivI, &[span, step], ty, &[Some(signed)], at, origin)
            }
        };
        let zero = self.int_const_at(0, ty, at, origin);
        self.scalar_at(
            Opcode::MaxI,
            &[trips, zero],
            ty,
            &[Some(signed)],
            at,
            origin,
        )
    }

    /// The K steps done before the current iteration of persistent loop `p` (its
    /// iteration times the K loop's trip count), with `t` its induction variable, at `at`.
    pub(super) fn steps_before(
        &mut self,
        p: &Persistent,
        t: Value,
        at: InsertPoint,
        origin: Op,
    ) -> Value {
        let (lb, step) = (self.m.operand(p.outer, 0), self.m.operand(p.outer, 2));
        let ty = self.m.value_type(t);
        let signed = self.m.ctx.attrs.enum_case(EnumKind::Signedness, 1);
        let rel = self.scalar_at(Opcode::SubI, &[t, lb], ty, &[], at, origin);
        let iter = match super::constant_step(self.m, p.outer) {
            Some(1) => rel,
            Some(c) => self.udiv_by_const(rel, c as u64, at, at, origin),
            None => self.scalar_at(Opcode::DivI, &[rel, step], ty, &[Some(signed)], at, origin),
        };
        self.scalar_at(Opcode::MulI, &[iter, p.trips], ty, &[], at, origin)
    }

    /// Why the copy-engine pipeline in loop `f` cannot be warp-specialized, if it cannot:
    /// the loop must be at the entry's top level and its first, on whole warpgroups, and
    /// everything before it safe on extra warps (`skip`: ops that move into the default
    /// region).
    pub(super) fn warp_specialize_refusal(&self, f: Op, skip: &[Op]) -> Option<String> {
        let m = &*self.m;
        if self.warp_bits < 2 {
            return Some("its warps are not whole warpgroups".into());
        }
        let body = self.body?;
        if m.op_block(f) != Some(body) {
            return Some(
                "it is nested in other code (only a K loop in the kernel's body is split)".into(),
            );
        }
        // Ops that move into the default region, and the fills of the loop's pipelines
        // already planned warp-specialized (the split erases them).
        let mut skip = skip.to_vec();
        skip.extend(self.movable_ops(f).0);
        for (g, p) in &self.pending_ws {
            if *g == f {
                skip.extend(p.fills.iter().copied());
            }
        }
        self.split_refusal(body, f, &skip, "it")
    }

    /// Why op `split` of the kernel's body `body` cannot be split into a producer
    /// partition and the default region, if it cannot: the warps must be whole
    /// warpgroups, no earlier op split, and everything before `split` (but `skip`: ops
    /// that move into the default region) safe on extra warps. `what` names `split` in
    /// the reason.
    fn split_refusal(
        &self,
        body: tilec_ir::Block,
        split: Op,
        skip: &[Op],
        what: &str,
    ) -> Option<String> {
        let m = &*self.m;
        if self.warp_bits < 2 {
            return Some("its warps are not whole warpgroups".into());
        }
        let e = m.block_parent_op(body)?;
        if partition_warps(m, e) > 0 {
            return Some("an earlier K loop of the kernel is".into());
        }
        // A cluster barrier waits for every thread of the cluster, the producer's too.
        let mut gathers = false;
        m.walk_op(e, &mut |o| {
            gathers |= matches!(m.opcode(o), Opcode::ClusterGather | Opcode::ClusterBarrier)
        });
        if gathers {
            return Some("the kernel has cluster barriers, which every warp must reach".into());
        }
        m.block_ops(body)
            .take_while(|o| *o != split)
            .find(|o| !skip.contains(o) && !safe_on_every_warp(m, *o))
            .map(|o| {
                format!(
                    "'{}' comes before {what}, which the producer's warps would run too",
                    m.def(o).name
                )
            })
    }

    /// Splits the copy-engine pipelines `ps` of the products in loop `f` into a producer
    /// partition and the default region (see the module's documentation): the loop (or
    /// the persistent loop around it), the ops `moved` from before it and the pipelines'
    /// `cp.async` prologues move into the default region of a `ttg.warp_specialize` made
    /// where the loop was, whose results replace the loop's; the fills the pipelines
    /// made are erased, and the partition runs the K steps again, each waiting for each
    /// pipeline's stage in its empty ring and filling it; after each product, the default
    /// region's warps release the stage of the product that is done.
    pub(super) fn warp_specialize(
        &mut self,
        f: Op,
        ps: &[WsPipeline],
        (moved, released): &(Vec<Op>, Vec<Op>),
    ) {
        let Some(first) = ps.first() else {
            return;
        };
        let op = first.op;
        let warps = 1u32 << self.warp_bits;
        let (lb, ub, step) = (
            self.m.operand(f, 0),
            self.m.operand(f, 1),
            self.m.operand(f, 2),
        );
        let Some(body) = self.m.op_block(op) else {
            return;
        };
        let iv = self.m.block_args(body)[0];
        let i32_ty = self.m.value_type(iv);
        // Stages and phases count iterations, (k - lb) / step.
        let step_c = super::constant_step(self.m, f).unwrap_or(1) as u64;
        // A producer warpgroup, with registers moved to the MMA warpgroups, beside two or
        // more of them; a producer warp beside one.
        let (extra, regs) = if warps >= 8 && warps.is_multiple_of(4) {
            let groups = warps / 4;
            let base = registers_per_thread(32 * (warps + 4));
            let mma = ((base * (groups + 1) - PRODUCER_REGISTERS) / groups / 8 * 8).min(256);
            (4, Some((mma, PRODUCER_REGISTERS)))
        } else {
            (1, None)
        };
        // The fills the pipelines made themselves: the partition's replace them.
        for p in ps {
            for &o in p.fills.iter().rev() {
                if self.m.is_attached(o) {
                    self.m.erase_op(o);
                }
            }
        }
        // What the op replaces: the K loop, or the persistent loop around it (one
        // pipeline only).
        let persistent = first.persistent.as_ref().filter(|_| ps.len() == 1);
        let split = persistent.map_or(f, |(q, _)| q.outer);
        // The empty rings: one arrival per MMA warp.
        let empties: Vec<(Value, Type)> = ps
            .iter()
            .map(|p| self.barrier_ring_of(p.stages, warps, split, p.op))
            .collect();
        // The op, where the loop was.
        let result_tys: Vec<Type> = self
            .m
            .results(split)
            .map(|r| self.m.value_type(r))
            .collect();
        let nw = self
            .m
            .ctx
            .attrs
            .intern(AttrData::DenseI32Array(vec![extra].into()));
        let actual = regs.map(|(d, q)| {
            self.m
                .ctx
                .attrs
                .intern(AttrData::DenseI32Array(vec![d as i32, q as i32].into()))
        });
        let ws = self.m.create_op(
            &OpSpec {
                opcode: Opcode::WarpSpecialize,
                operands: &[],
                results: &result_tys,
                attrs: &[Some(nw), actual],
                regions: 2,
            },
            InsertPoint::Before(split),
        );
        self.located(ws, split);
        let default = self.m.append_block(self.m.region(ws, 0));
        let partition = self.m.append_block(self.m.region(ws, 1));
        // The default region: the ops moved from before the loop, the cp.async
        // prologues, the loop, its results yielded.
        let outs: Vec<Value> = self.m.results(split).collect();
        let uses: Vec<(Op, usize, usize)> = outs
            .iter()
            .enumerate()
            .flat_map(|(j, r)| {
                let m = &*self.m;
                m.users(*r)
                    .flat_map(move |u| {
                        (0..m.num_operands(u))
                            .filter(move |k| m.operand(u, *k) == *r)
                            .map(move |k| (u, k, j))
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        for &o in moved {
            self.m.move_op(o, InsertPoint::End(default));
        }
        if !moved.is_empty() {
            // The moved stores seen by every MMA warp before the loop reads them.
            self.cta_barrier_at(InsertPoint::End(default), op);
        }
        let mut prologue: Vec<Op> = Vec::new();
        for &o in ps.iter().flat_map(|p| p.prologue.iter()) {
            if !prologue.contains(&o) {
                prologue.push(o);
            }
        }
        for o in prologue {
            self.m.move_op(o, InsertPoint::End(default));
        }
        self.m.move_op(split, InsertPoint::End(default));
        for &o in released {
            self.m.move_op(o, InsertPoint::End(default));
        }
        self.create_at(
            Opcode::WarpYield,
            &outs,
            &[],
            &[],
            InsertPoint::End(default),
            op,
        );
        // Each result in the layout of the loop's (used after the op or not).
        for (j, out) in outs.iter().enumerate() {
            if let Some(l) = self.layout.get(out).cloned() {
                let r = self.m.result(ws, j);
                self.set(r, l);
            }
        }
        for (u, k, j) in uses {
            let r = self.m.result(ws, j);
            self.m.set_operand(u, k, r);
        }
        // The empty rings are invalidated and released once every warp of the default
        // region is done with them (a barrier: the last arrivals), every copy the
        // partition issued having landed (the default region waited for each).
        for (p, &e) in ps.iter().zip(&empties) {
            self.release_ring(e, p.stages, ws, p.op);
        }
        // The partition: its tensor maps (claimed, built and used by its own first
        // warp and thread), then every K step, then it waits for the last copies to land
        // before it gives the maps' slots back and ends.
        let at = InsertPoint::End(partition);
        let mut setup: Vec<Op> = Vec::new();
        let maps: Vec<Value> = ps.iter().flat_map(|p| p.maps.iter().copied()).collect();
        for &map in &maps {
            let m = &*self.m;
            if let Some(d) = m.defining_op(map).filter(|d| !setup.contains(d)) {
                setup.push(d);
            }
        }
        for &map in &maps {
            let m = &*self.m;
            for u in m
                .users(map)
                .filter(|u| m.opcode(*u) == Opcode::TensormapCreate)
            {
                // The create, or the mask around it at the entry's top.
                let mut o = u;
                while let Some(parent) = m.op_block(o).and_then(|b| m.block_parent_op(b)) {
                    if m.opcode(parent) != Opcode::Mask {
                        break;
                    }
                    o = parent;
                }
                if !setup.contains(&o) {
                    setup.push(o);
                }
            }
        }
        for o in setup {
            self.m.move_op(o, at);
        }
        // Persistent: the loop around the K loop again, with the scalar code the copies'
        // coordinates come from; the K steps count on across its iterations.
        let mut map: FxHashMap<Value, Value> = FxHashMap::default();
        let (k_at, done) = match persistent {
            Some((q, _)) => {
                let bounds = [0, 1, 2].map(|i| self.m.operand(q.outer, i));
                let (obody, t) = self.scalar_loop(bounds, at, q.outer);
                let oend = InsertPoint::End(obody);
                if let Some(b) = self.m.op_block(f) {
                    map.insert(self.m.block_args(b)[0], t);
                }
                for &o in &q.slice {
                    let c = self.clone_op(o, &|w| map.get(&w).copied().unwrap_or(w), oend);
                    let pairs: Vec<(Value, Value)> =
                        self.m.results(o).zip(self.m.results(c)).collect();
                    map.extend(pairs);
                }
                let done = self.steps_before(q, t, oend, op);
                (oend, Some((obody, done)))
            }
            None => (at, None),
        };
        let (pbody, j) = self.scalar_loop([lb, ub, step], k_at, f);
        let end = InsertPoint::End(pbody);
        let mut rel = self.iteration(j, lb, step_c, end, op);
        if let Some((_, done)) = done {
            rel = self.scalar_at(Opcode::AddI, &[done, rel], i32_ty, &[], end, op);
        }
        map.insert(iv, j);
        // Each pipeline's stage in turn (in the order of their products).
        for (p, &(empty, one_ty)) in ps.iter().zip(&empties) {
            let (stage, turn) = self.stage_and_turn(rel, p.stages, end, p.op);
            let one = self.int_const_at(1, i32_ty, end, p.op);
            let parity = self.scalar_at(Opcode::AndI, &[turn, one], i32_ty, &[], end, p.op);
            // A fresh barrier's phase of parity 1 counts as complete: the first n steps
            // find their stages free.
            let phase = self.scalar_at(Opcode::XOrI, &[parity, one], i32_ty, &[], end, p.op);
            let e = self.barrier_at(empty, stage, one_ty, end, p.op);
            self.create_at(Opcode::WaitBarrier, &[e, phase], &[], &[], end, p.op);
            let subst = |w: Value| map.get(&w).copied().unwrap_or(w);
            self.tma_fill(
                &p.copies, &p.maps, &p.bufs, p.ring, stage, &subst, None, p.tma_ok, end, p.op,
            );
        }
        self.create_at(Opcode::Continue, &[], &[], &[], end, op);
        if let Some((obody, _)) = done {
            self.create_at(Opcode::Continue, &[], &[], &[], InsertPoint::End(obody), op);
        }
        // The drains: the last min(n, steps) K steps' stages of each ring, at their
        // phases.
        let signed = self.m.ctx.attrs.enum_case(EnumKind::Signedness, 1);
        if let Some((q, _)) = persistent {
            // Every K step of every iteration counted: the last min(n, total) of them.
            let n = first.stages;
            let outer_trips = self.trip_count(q.outer, at, op);
            let total = self.scalar_at(Opcode::MulI, &[outer_trips, q.trips], i32_ty, &[], at, op);
            let back = self.int_const_at(u64::from(n), i32_ty, at, op);
            let from = self.scalar_at(Opcode::SubI, &[total, back], i32_ty, &[], at, op);
            let zero = self.int_const_at(0, i32_ty, at, op);
            let from = self.scalar_at(Opcode::MaxI, &[from, zero], i32_ty, &[Some(signed)], at, op);
            let one = self.int_const_at(1, i32_ty, at, op);
            let (dbody, g) = self.scalar_loop([from, total, one], at, f);
            let end = InsertPoint::End(dbody);
            self.wait_landed(first, g, end, op);
            self.create_at(Opcode::Continue, &[], &[], &[], end, op);
        } else {
            for p in ps {
                self.drain(p, f, at, p.op);
            }
        }
        self.create_at(Opcode::WarpReturn, &[], &[], &[], at, op);
        for (p, &(empty, one_ty)) in ps.iter().zip(&empties) {
            self.keep_cta_barrier_for_cp_async(p);
            self.release_stages(p, empty, one_ty);
        }
    }

    /// The partition's drain of a K loop `f` (not persistent) at `at`: it waits for the
    /// last min(n, steps) K steps' stages to land, at their phases.
    fn drain(&mut self, p: &WsPipeline, f: Op, at: InsertPoint, op: Op) {
        let (lb, ub, step) = (
            self.m.operand(f, 0),
            self.m.operand(f, 1),
            self.m.operand(f, 2),
        );
        let i32_ty = self.m.value_type(lb);
        let n = p.stages;
        let step_c = super::constant_step(self.m, f).unwrap_or(1) as u64;
        let signed = self.m.ctx.attrs.enum_case(EnumKind::Signedness, 1);
        let from = if step_c == 1 {
            let steps_back = self.int_const_at(u64::from(n), i32_ty, at, op);
            let from = self.scalar_at(Opcode::SubI, &[ub, steps_back], i32_ty, &[], at, op);
            self.scalar_at(Opcode::MaxI, &[from, lb], i32_ty, &[Some(signed)], at, op)
        } else {
            // lb + max(trips - n, 0) x step.
            let trips = self.trip_count(f, at, op);
            let steps_back = self.int_const_at(u64::from(n), i32_ty, at, op);
            let first = self.scalar_at(Opcode::SubI, &[trips, steps_back], i32_ty, &[], at, op);
            let zero = self.int_const_at(0, i32_ty, at, op);
            let first = self.scalar_at(
                Opcode::MaxI,
                &[first, zero],
                i32_ty,
                &[Some(signed)],
                at,
                op,
            );
            let off = self.scalar_at(Opcode::MulI, &[first, step], i32_ty, &[], at, op);
            self.scalar_at(Opcode::AddI, &[lb, off], i32_ty, &[], at, op)
        };
        let (dbody, jd) = self.scalar_loop([from, ub, step], at, f);
        let end = InsertPoint::End(dbody);
        let rel = self.iteration(jd, lb, step_c, end, op);
        self.wait_landed(p, rel, end, op);
        self.create_at(Opcode::Continue, &[], &[], &[], end, op);
    }

    /// At `at`: a wait for the stage of K step `rel` (counted from the first) to land,
    /// its full barrier at the step's phase.
    fn wait_landed(&mut self, p: &WsPipeline, rel: Value, at: InsertPoint, op: Op) {
        let ty = self.m.value_type(rel);
        let (stage, turn) = self.stage_and_turn(rel, p.stages, at, op);
        let one = self.int_const_at(1, ty, at, op);
        let phase = self.scalar_at(Opcode::AndI, &[turn, one], ty, &[], at, op);
        let full = self.barrier_at(p.ring.0, stage, p.ring.1, at, op);
        self.create_at(Opcode::WaitBarrier, &[full, phase], &[], &[], at, op);
    }

    /// The CTA barrier at the top of each K step of pipeline `p` kept a refill behind
    /// every read of its stage; the empty ring does that now, so it stays only for the
    /// `cp.async` alternative (its copies' visibility), under its condition.
    fn keep_cta_barrier_for_cp_async(&mut self, p: &WsPipeline) {
        let bar = p.top_barrier;
        if !self.m.is_attached(bar) {
            return;
        }
        match p.not_tma {
            Some(nt) => {
                let (_, block) = self.mask_at(nt, &[], InsertPoint::Before(bar), p.op);
                self.m.move_op(bar, InsertPoint::End(block));
                self.end_mask(block, &[], p.op);
            }
            None => self.m.erase_op(bar),
        }
    }

    /// The default region hands back the stage of `p`'s product once it is done: with the
    /// product in flight across steps, the previous step's (none at the very first step);
    /// otherwise this step's. Steps count on across a persistent loop's iterations.
    fn release_stages(&mut self, p: &WsPipeline, empty: Value, one_ty: Type) {
        let op = p.op;
        let Some(body) = self.m.op_block(op) else {
            return;
        };
        let Some(f) = self.m.block_parent_op(body) else {
            return;
        };
        let iv = self.m.block_args(body)[0];
        let lb = self.m.operand(f, 0);
        let i32_ty = self.m.value_type(iv);
        let n = p.stages;
        let step_c = super::constant_step(self.m, f).unwrap_or(1) as u64;
        let Some(next) = self.m.next_op(op) else {
            return;
        };
        let at = InsertPoint::Before(next);
        let mut rel_k = self.iteration(iv, lb, step_c, at, op);
        if let Some((_, done)) = &p.persistent {
            rel_k = self.scalar_at(Opcode::AddI, &[*done, rel_k], i32_ty, &[], at, op);
        }
        let (released, pred) = if p.overlap {
            let back = self.int_const_at(u64::from(n - 1), i32_ty, at, op);
            let prev = self.scalar_at(Opcode::AddI, &[rel_k, back], i32_ty, &[], at, op);
            let (s, _) = self.stage_and_turn(prev, n, at, op);
            let zero = self.int_const_at(0, i32_ty, at, op);
            let started = self.compare(tma::GREATER_THAN, true, [rel_k, zero], at, op);
            (s, Some(started))
        } else {
            (self.stage_and_turn(rel_k, n, at, op).0, None)
        };
        let (mask, block, inner) = self.mask_if(pred, at, op);
        let b = self.barrier_at(empty, released, one_ty, inner, op);
        let count = self.m.ctx.attrs.int(1, Type::I32);
        let per_warp = self.m.ctx.attrs.intern(AttrData::Unit);
        self.create_at(
            Opcode::ArriveBarrier,
            &[b],
            &[],
            &[Some(count), Some(per_warp)],
            inner,
            op,
        );
        if let Some(block) = block {
            self.end_mask(block, &[], op);
        }
        let _ = mask;
    }

    /// An empty `for %j in (lb to ub, step step)` at `at` carrying nothing (located at
    /// `origin`): its body and its induction variable. The caller ends the body.
    fn scalar_loop(
        &mut self,
        bounds: [Value; 3],
        at: InsertPoint,
        origin: Op,
    ) -> (tilec_ir::Block, Value) {
        let ty = self.m.value_type(bounds[0]);
        let f = self.m.create_op(
            &OpSpec {
                opcode: Opcode::For,
                operands: &bounds,
                results: &[],
                attrs: &[],
                regions: 1,
            },
            at,
        );
        self.located(f, origin);
        let body = self.m.append_block(self.m.region(f, 0));
        let iv = self.m.append_block_arg(body, ty);
        let sc = self.scalar();
        self.set(iv, sc);
        (body, iv)
    }

    /// Stage `rel mod n` and turn `rel / n` of K step `rel` (from the loop's lower bound),
    /// at `at` (in that order).
    fn stage_and_turn(
        &mut self,
        rel: Value,
        n: u32,
        at: InsertPoint,
        origin: Op,
    ) -> (Value, Value) {
        let ty = self.m.value_type(rel);
        let unsigned = self.m.ctx.attrs.enum_case(EnumKind::Signedness, 0);
        if n.is_power_of_two() {
            let mask = self.int_const_at(u64::from(n - 1), ty, at, origin);
            let s = self.scalar_at(Opcode::AndI, &[rel, mask], ty, &[], at, origin);
            let sh = self.int_const_at(u64::from(n.trailing_zeros()), ty, at, origin);
            let t = self.scalar_at(Opcode::ShRI, &[rel, sh], ty, &[Some(unsigned)], at, origin);
            (s, t)
        } else {
            let c = self.int_const_at(u64::from(n), ty, at, origin);
            let s = self.scalar_at(Opcode::RemI, &[rel, c], ty, &[Some(unsigned)], at, origin);
            let t = self.scalar_at(Opcode::DivI, &[rel, c], ty, &[Some(unsigned)], at, origin);
            (s, t)
        }
    }
}

/// Why `ttg.warp_specialize` op `op` of entry `e` (whose layouts are made for
/// `2^warp_bits` warps) is invalid, if it is: its warps and registers, its place (the
/// entry's body, once, after code that is safe on the partition's warps too), its
/// regions' terminators, and a partition of scalar code with no CTA barrier.
pub(crate) fn warp_specialize_error(m: &Module, e: Op, op: Op, warp_bits: u32) -> Option<String> {
    let warps = i32s(m, op, "partitionNumWarps");
    if !matches!(warps[..], [1 | 2 | 4 | 8]) {
        return Some("requires 'partitionNumWarps', one count of 1, 2, 4 or 8 warps".into());
    }
    let regs = i32s(m, op, "actualRegisters");
    if !regs.is_empty() {
        let fits = |r: &i32| (24..=256).contains(r) && r % 8 == 0;
        if regs.len() != 2 || !regs.iter().all(fits) {
            return Some("requires 'actualRegisters' to be two register counts, multiples of 8 from 24 to 256".into());
        }
        if warps[0] % 4 != 0 || !(1u32 << warp_bits).is_multiple_of(4) {
            return Some(
                "moves registers ('actualRegisters', setmaxnreg) only between whole warpgroups"
                    .into(),
            );
        }
    }
    let top = m.entry_block(m.region(e, 0));
    if m.op_block(op) != top {
        return Some("must be in the body of its entry".into());
    }
    let top = top?;
    let mut count = 0;
    m.walk_op(e, &mut |o| {
        count += usize::from(m.opcode(o) == Opcode::WarpSpecialize)
    });
    if count > 1 {
        return Some("must be the only one of its entry".into());
    }
    if let Some(o) = m
        .block_ops(top)
        .take_while(|o| *o != op)
        .find(|o| !safe_on_every_warp(m, *o))
    {
        return Some(format!(
            "follows '{}', which the partition's warps would run too (only scalar code and the setup of tensor maps and mbarriers may come before)",
            m.def(o).name
        ));
    }
    let last = |r: usize| m.entry_block(m.region(op, r)).and_then(|b| m.last_op(b));
    let yielded: Option<Vec<Type>> = last(0)
        .filter(|t| m.opcode(*t) == Opcode::WarpYield)
        .map(|t| m.operands(t).map(|v| m.value_type(v)).collect());
    let results: Vec<Type> = m.results(op).map(|r| m.value_type(r)).collect();
    if yielded.as_ref() != Some(&results) {
        return Some(
            "default region must end with a 'ttg.warp_yield' of the op's result types".into(),
        );
    }
    if last(1).is_none_or(|t| m.opcode(t) != Opcode::WarpReturn) {
        return Some("partition region must end with a 'ttg.warp_return'".into());
    }
    let mut bad = None;
    if let Some(b) = m.entry_block(m.region(op, 1)) {
        let mut check = |x: Op| {
            let tile = m
                .results(x)
                .chain(
                    m.regions(x)
                        .iter()
                        .filter_map(|r| m.entry_block(*r))
                        .flat_map(|b| m.block_args(b).to_vec()),
                )
                .any(|v| {
                    let t = m.value_type(v);
                    m.ctx.types.is_tile(t) && !m.ctx.types.shape(t).is_empty()
                });
            if bad.is_none() && (m.opcode(x) == Opcode::GpuBarrier || tile) {
                bad = Some(m.def(x).name);
            }
        };
        for o in m.block_ops(b) {
            check(o);
            m.walk_op(o, &mut check);
        }
    }
    bad.map(|name| {
        format!("partition must hold scalar code and no CTA barrier ('{name}' is neither): its warps have no layouts")
    })
}

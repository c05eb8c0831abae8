//! Execution: the grid of tile blocks, regions and control flow, and the dispatch of every
//! op to its semantics (elementwise ops in `elementwise`, structural ops in `shape`, memory
//! in `memory`).

use crate::mem::Memory;
use crate::value::{Tile, Val};
use std::rc::Rc;
use tilec_ir::attrs::AttrData;
use tilec_ir::segments::operand_group;
use tilec_ir::util::FxHashMap;
use tilec_ir::{Block, Module, Op, Opcode, Type, TypeData, Value};

/// A run-time error: undefined behaviour the program reached, a failed `assert`, or an op
/// the interpreter cannot run. `op` locates it; `block` is the tile block that hit it.
#[derive(Clone, Debug)]
pub struct RunError {
    pub op: Option<Op>,
    pub block: [i64; 3],
    pub message: String,
    /// What `print` ops printed before the error (blocks before the failing one, in grid
    /// order, then the failing block up to the error).
    pub printed: String,
}

pub(crate) type R<T> = Result<T, String>;

/// How a region's execution ended.
pub(crate) enum Flow {
    /// The block ran to its end (or to a `yield`) with these values.
    Yield(Vec<Val>),
    Continue(Vec<Val>),
    Break(Vec<Val>),
    /// A `return` with its operands.
    Return(Vec<Val>),
}

/// The state of one tile block.
pub(crate) struct Ctx<'a, 'm> {
    pub m: &'m Module,
    pub mem: &'a Memory,
    pub out: String,
    /// Which opcodes ran (indexed by opcode).
    pub ran: Vec<bool>,
    /// Ops this block may still execute (see [`Options::max_ops`]).
    pub fuel: u64,
    pub globals: &'a FxHashMap<String, u64>,
    pub bid: [i64; 3],
    pub grid: [i64; 3],
    pub vals: FxHashMap<Value, Val>,
    /// The op being executed (for error locations).
    pub cur: Option<Op>,
    /// Values that die after each op ([`last_uses`]).
    pub dead: &'a FxHashMap<Op, Vec<Value>>,
    /// The block's `alloca` buffers, one per `alloca` op: an op that runs again (in a
    /// loop) reuses its buffer, since the previous allocation's lifetime has ended.
    pub local: Memory,
    pub allocas: FxHashMap<Op, u64>,
    /// [`Options::conflicting_stores`].
    pub conflicting_stores: bool,
    /// [`Options::variant`].
    pub variant: Variant,
}

/// For each op, the values defined in its block that are not used after it: their last
/// use is the op or an op nested in it, or they are never used. The interpreter frees
/// them once the op has run, so a chain of ops on big tiles keeps a few tiles alive, not
/// every intermediate result (40 chained `addf` on 2^24-element tiles once grew by 131 MB
/// an op). A value used inside a loop body but defined outside it lives until the loop op
/// (its ancestor in the defining block) is done.
pub(crate) fn last_uses(m: &Module) -> FxHashMap<Op, Vec<Value>> {
    let mut dead: FxHashMap<Op, Vec<Value>> = FxHashMap::default();
    let mut visit = |block: Block| {
        let ops: Vec<Op> = m.block_ops(block).collect();
        let pos: FxHashMap<Op, usize> = ops.iter().enumerate().map(|(i, o)| (*o, i)).collect();
        // The op of this block that contains `user` (itself, or an ancestor).
        let in_block = |mut user: Op| -> Option<usize> {
            loop {
                if m.op_block(user) == Some(block) {
                    return pos.get(&user).copied();
                }
                user = m.parent_op(user)?;
            }
        };
        let mut note = |v: Value, def_pos: Option<usize>| {
            let last = m.users(v).filter_map(in_block).max();
            let at = match (last, def_pos) {
                (Some(l), _) => Some(l),
                (None, Some(d)) => Some(d),
                (None, None) => None,
            };
            if let Some(i) = at {
                dead.entry(ops[i]).or_default().push(v);
            }
        };
        for &a in m.block_args(block) {
            note(a, None);
        }
        for (i, &op) in ops.iter().enumerate() {
            for r in m.results(op) {
                note(r, Some(i));
            }
        }
    };
    fn blocks(m: &Module, b: Block, out: &mut Vec<Block>) {
        out.push(b);
        for op in m.block_ops(b) {
            for &r in m.regions(op) {
                for &nb in m.region_blocks(r) {
                    blocks(m, nb, out);
                }
            }
        }
    }
    let mut all = Vec::new();
    blocks(m, m.body(), &mut all);
    for b in all {
        visit(b);
    }
    dead
}

impl<'a, 'm> Ctx<'a, 'm> {
    /// The state of tile block `bid` of `grid`, before it runs, allowed `fuel` ops.
    pub fn new(
        m: &'m Module,
        mem: &'a Memory,
        globals: &'a FxHashMap<String, u64>,
        dead: &'a FxHashMap<Op, Vec<Value>>,
        bid: [i64; 3],
        grid: [i64; 3],
        fuel: u64,
    ) -> Self {
        Ctx {
            m,
            mem,
            out: String::new(),
            ran: vec![false; tilec_ir::ops::all().len()],
            fuel,
            globals,
            bid,
            grid,
            vals: FxHashMap::default(),
            local: Memory::local(),
            allocas: FxHashMap::default(),
            cur: None,
            dead,
            conflicting_stores: false,
            variant: Variant::default(),
        }
    }

    pub fn val(&self, v: Value) -> R<&Val> {
        self.vals
            .get(&v)
            .ok_or_else(|| "internal error: value used before it was computed".to_string())
    }

    pub fn tile(&self, v: Value) -> R<&Tile> {
        match self.val(v)? {
            Val::Tile(t) => Ok(t),
            _ => Err("internal error: expected a tile".into()),
        }
    }

    /// The single element of a rank-0 tile.
    pub fn scalar(&self, v: Value) -> R<u64> {
        Ok(self.tile(v)?.bits[0])
    }

    /// A rank-0 integer operand as a signed value.
    pub fn int(&self, v: Value) -> R<i64> {
        let t = self.tile(v)?;
        Ok(tilec_ir::util::sign_extend(t.bits[0], int_width(t.elem)))
    }

    pub fn set(&mut self, v: Value, x: Val) {
        self.vals.insert(v, x);
    }

    pub fn set_tile(&mut self, v: Value, t: Tile) {
        self.vals.insert(v, Val::Tile(t));
    }

    pub fn shape_of(&self, v: Value) -> Rc<[i64]> {
        Rc::from(self.m.ctx.types.shape(self.m.value_type(v)))
    }

    pub fn elem_of(&self, v: Value) -> Type {
        self.m.ctx.types.element_type(self.m.value_type(v))
    }

    pub fn attr(&self, op: Op, name: &str) -> Option<&AttrData> {
        self.m.attr_named(op, name).map(|a| self.m.ctx.attrs.get(a))
    }

    pub fn enum_attr(&self, op: Op, name: &str, kind: tilec_ir::EnumKind) -> Option<u8> {
        self.m
            .attr_named(op, name)
            .and_then(|a| self.m.ctx.attrs.get_enum(a, kind))
    }

    pub fn int_attr(&self, op: Op, name: &str) -> i64 {
        self.m
            .attr_named(op, name)
            .and_then(|a| self.m.ctx.attrs.get_int(a))
            .unwrap_or(0)
    }

    /// Runs `block` with `args` bound to its arguments.
    pub fn run_block(&mut self, block: Block, args: Vec<Val>) -> R<Flow> {
        let m = self.m;
        for (a, v) in m.block_args(block).iter().zip(args) {
            self.vals.insert(*a, v);
        }
        for op in m.block_ops(block) {
            self.cur = Some(op);
            self.ran[m.opcode(op) as usize] = true;
            if self.fuel == 0 {
                return Err(
                    "the tile block executed more ops than the limit (--max-ops) allows; \
                     does a loop never end?"
                        .into(),
                );
            }
            self.fuel -= 1;
            if let Some(flow) = self.op(op)? {
                return Ok(flow);
            }
            if let Some(dead) = self.dead.get(&op) {
                for v in dead {
                    self.vals.remove(v);
                }
            }
        }
        Ok(Flow::Yield(Vec::new()))
    }

    /// Runs region `r` of `op`.
    pub fn run_region(&mut self, op: Op, r: usize, args: Vec<Val>) -> R<Flow> {
        let region = self.m.region(op, r);
        match self.m.entry_block(region) {
            Some(b) => {
                let saved = self.cur;
                let f = self.run_block(b, args)?;
                // An error keeps the op that failed inside the region as its location.
                self.cur = saved;
                Ok(f)
            }
            None => Ok(Flow::Yield(Vec::new())),
        }
    }

    fn operand_vals(&self, op: Op) -> R<Vec<Val>> {
        self.m.operands(op).map(|v| self.val(v).cloned()).collect()
    }

    fn group_vals(&self, op: Op, name: &str) -> R<Vec<Val>> {
        operand_group(self.m, op, name)
            .into_iter()
            .map(|v| self.val(v).cloned())
            .collect()
    }

    fn set_results(&mut self, op: Op, vals: Vec<Val>) {
        for (r, v) in self.m.results(op).zip(vals) {
            self.vals.insert(r, v);
        }
    }

    /// Executes one op; `Some` for a terminator that ends the block.
    fn op(&mut self, op: Op) -> R<Option<Flow>> {
        use Opcode as O;
        let m = self.m;
        match m.opcode(op) {
            O::Yield => return Ok(Some(Flow::Yield(self.operand_vals(op)?))),
            O::Continue => return Ok(Some(Flow::Continue(self.operand_vals(op)?))),
            O::Break => return Ok(Some(Flow::Break(self.operand_vals(op)?))),
            O::Return => return Ok(Some(Flow::Return(self.operand_vals(op)?))),
            O::If => {
                let c = self.scalar(m.operand(op, 0))? & 1 == 1;
                let r = if c { 0 } else { 1 };
                let flow = if r < m.regions(op).len() {
                    self.run_region(op, r, Vec::new())?
                } else {
                    Flow::Yield(Vec::new())
                };
                match flow {
                    Flow::Yield(v) => self.set_results(op, v),
                    other => return Ok(Some(other)),
                }
            }
            O::For => {
                let w = int_width(self.elem_of(m.operand(op, 0)));
                let unsigned = m.attr_named(op, "unsignedCmp").is_some();
                let (lb, ub, step) = (
                    self.scalar(m.operand(op, 0))?,
                    self.scalar(m.operand(op, 1))?,
                    self.scalar(m.operand(op, 2))?,
                );
                let ity = self.elem_of(m.operand(op, 0));
                let step_s = tilec_ir::util::sign_extend(step, w);
                if step_s <= 0 {
                    return Err(format!("'for' step {step_s} is not positive"));
                }
                let lt = |a: u64, b: u64| {
                    if unsigned {
                        a < b
                    } else {
                        tilec_ir::util::sign_extend(a, w) < tilec_ir::util::sign_extend(b, w)
                    }
                };
                let mut iter = self.group_vals(op, "initValues")?;
                let mut iv = lb;
                while lt(iv, ub) {
                    let mut args = vec![Val::Tile(Tile::scalar(ity, iv))];
                    args.extend(iter.iter().cloned());
                    match self.run_region(op, 0, args)? {
                        Flow::Continue(v) | Flow::Yield(v) => iter = v,
                        Flow::Break(v) => {
                            iter = v;
                            break;
                        }
                        Flow::Return(v) => return Ok(Some(Flow::Return(v))),
                    }
                    let next = iv.wrapping_add(step) & mask(w);
                    // The induction variable must not wrap past the bound.
                    if !lt(iv, next) {
                        break;
                    }
                    iv = next;
                }
                self.set_results(op, iter);
            }
            O::Loop => {
                let mut iter = self.group_vals(op, "initValues")?;
                loop {
                    match self.run_region(op, 0, iter.clone())? {
                        Flow::Continue(v) | Flow::Yield(v) => iter = v,
                        Flow::Break(v) => {
                            self.set_results(op, v);
                            break;
                        }
                        Flow::Return(v) => return Ok(Some(Flow::Return(v))),
                    }
                }
            }
            O::Module | O::Entry | O::Global | O::TestingFunc => {}
            O::MakeToken | O::JoinTokens => self.set(m.result(op, 0), Val::Token),
            O::Barrier => {
                if m.num_results(op) > 0 {
                    self.set(m.result(op, 0), Val::Token);
                }
            }
            O::Assume => self.assume(op)?,
            O::Constant => {
                let r = m.result(op, 0);
                let (shape, elem) = (self.shape_of(r), self.elem_of(r));
                let n = shape.iter().product::<i64>() as usize;
                let bits = match self.attr(op, "value") {
                    Some(AttrData::Dense(d)) if d.splat || d.values.len() == 1 => {
                        vec![d.values[0]; n]
                    }
                    Some(AttrData::Dense(d)) if d.values.len() == n => d.values.to_vec(),
                    _ => return Err("constant without a usable value".into()),
                };
                self.set_tile(r, Tile { elem, shape, bits });
            }
            O::GetTileBlockId => {
                for d in 0..3 {
                    let r = m.result(op, d);
                    let e = self.elem_of(r);
                    self.set_tile(r, Tile::scalar(e, self.bid[d] as u64 & mask(int_width(e))));
                }
            }
            O::GetNumTileBlocks => {
                for d in 0..3 {
                    let r = m.result(op, d);
                    let e = self.elem_of(r);
                    self.set_tile(r, Tile::scalar(e, self.grid[d] as u64 & mask(int_width(e))));
                }
            }
            O::GetGlobal => {
                let name = match self.attr(op, "name") {
                    Some(AttrData::SymbolRef(s)) | Some(AttrData::String(s)) => s.to_string(),
                    _ => String::new(),
                };
                let addr = *self
                    .globals
                    .get(&name)
                    .ok_or_else(|| format!("no global named @{name}"))?;
                let r = m.result(op, 0);
                self.set_tile(r, Tile::scalar(self.elem_of(r), addr));
            }
            O::Assert => {
                let c = self.tile(m.operand(op, 0))?;
                if c.bits.iter().any(|b| b & 1 == 0) {
                    let msg = match self.attr(op, "message") {
                        Some(AttrData::String(s)) => s.to_string(),
                        _ => String::new(),
                    };
                    return Err(format!("assertion failed: {msg}"));
                }
            }
            O::Print => self.print(op)?,
            O::Alloca => self.alloca(op)?,
            O::MakeTensorView
            | O::MakePartitionView
            | O::MakeStridedView
            | O::MakeGatherScatterView
            | O::AtomicRedViewTko
            | O::GetTensorShape
            | O::GetIndexSpaceShape
            | O::LoadViewTko
            | O::StoreViewTko
            | O::LoadPtrTko
            | O::StorePtrTko
            | O::AtomicRmwTko
            | O::AtomicCasTko
            | O::AtomicLoadTko
            | O::AtomicStoreTko => self.memory_op(op)?,
            O::Broadcast
            | O::Reshape
            | O::Permute
            | O::Cat
            | O::Extract
            | O::Iota
            | O::Select
            | O::Reduce
            | O::Scan
            | O::MmaF
            | O::MmaFScaled
            | O::MmaI
            | O::Offset => self.shape_op(op)?,
            O::Pack | O::Unpack => self.pack(op)?,
            O::UnrealizedConversionCast | O::Unregistered => {
                return Err(format!("'{}' is not a tile IR operation", m.def(op).name));
            }
            O::TestingBytecodeNewAttribute | O::TestingBytecodeEvolution => {
                return Err(format!(
                    "'{}' tests bytecode versioning and has no behaviour to run",
                    m.def(op).name
                ));
            }
            O::ConvertLayout
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
            | O::GpuBarrier => {
                return Err(format!(
                    "'{}' belongs to the GPU-level IR, which the interpreter does not run",
                    m.def(op).name
                ));
            }
            // Element by element: the shared list (tilec_ir::elementwise_opcodes), and
            // nothing else, so that a new op is a compile error here.
            tilec_ir::elementwise_opcodes!() | O::PtrToPtr => self.elementwise(op)?,
        }
        Ok(None)
    }

    /// `assume`: the value passes through; a predicate it violates is undefined behaviour.
    /// The spec's form without a predicate or result, `assume %cond`, assumes a tile of
    /// `i1` is true: a false element is undefined behaviour.
    fn assume(&mut self, op: Op) -> R<()> {
        let m = self.m;
        let v = self.val(m.operand(op, 0))?.clone();
        match (&v, self.attr(op, "predicate")) {
            (Val::Tile(t), Some(p)) => crate::elementwise::check_assume(t, p)?,
            (Val::Tile(t), None) if t.elem == Type::I1 => {
                if let Some(i) = t.bits.iter().position(|b| b & 1 == 0) {
                    return Err(format!("'assume' condition is false (element {i})"));
                }
            }
            _ => {}
        }
        if m.num_results(op) > 0 {
            self.set(m.result(op, 0), v);
        }
        Ok(())
    }

    /// `print`: the format string with `%`-conversions replaced by the arguments' elements
    /// (every element of a tile argument, as `[a, b, ...]`, row by row).
    fn print(&mut self, op: Op) -> R<()> {
        let m = self.m;
        let fmt = match self.attr(op, "str") {
            Some(AttrData::String(s)) => s.to_string(),
            _ => String::new(),
        };
        let args: Vec<Tile> = operand_group(m, op, "args")
            .into_iter()
            .map(|v| self.tile(v).cloned())
            .collect::<R<_>>()?;
        let text = crate::print::format(m, &fmt, &args)?;
        self.out.push_str(&text);
        if m.num_results(op) > 0 {
            self.set(m.result(op, 0), Val::Token);
        }
        Ok(())
    }
}

/// The width of an integer element type (64 for pointers).
pub fn int_width(t: Type) -> u32 {
    match t {
        Type::I1 => 1,
        Type::I4 => 4,
        Type::I8 => 8,
        Type::I16 => 16,
        Type::I32 => 32,
        _ => 64,
    }
}

/// The first op that uses a pointer to, or a view of, a 4-bit element type (whose memory
/// layout, two elements to a byte, the interpreter does not model yet).
fn sub_byte_memory(m: &Module) -> Option<(Op, &'static str)> {
    let types = &m.ctx.types;
    let sub_byte = |elem: Type| match elem {
        Type::F4E2M1FN => Some("f4E2M1FN"),
        Type::I4 => Some("i4"),
        _ => None,
    };
    let in_memory = |t: Type| -> Option<&'static str> {
        let t = match types.get(t) {
            TypeData::PartitionView { tensor_view, .. }
            | TypeData::StridedView { tensor_view, .. }
            | TypeData::GatherScatterView { tensor_view, .. } => *tensor_view,
            _ => t,
        };
        match types.get(t) {
            TypeData::TensorView { elem, .. } => sub_byte(*elem),
            TypeData::Tile { elem, .. } => match types.get(*elem) {
                TypeData::Ptr(p) => sub_byte(*p),
                _ => None,
            },
            TypeData::Ptr(p) => sub_byte(*p),
            _ => None,
        }
    };
    let mut found = None;
    m.walk(|op| {
        if found.is_some() {
            return;
        }
        let args = m
            .regions(op)
            .iter()
            .flat_map(|&r| m.region_blocks(r).iter())
            .flat_map(|&b| m.block_args(b).iter().copied());
        if let Some(name) = m
            .operands(op)
            .chain(m.results(op))
            .chain(args)
            .find_map(|v| in_memory(m.value_type(v)))
        {
            found = Some((op, name));
        }
    });
    found
}

/// The mask of the low `w` bits.
pub fn mask(w: u32) -> u64 {
    if w >= 64 { u64::MAX } else { (1u64 << w) - 1 }
}

/// What running a kernel produced.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Text printed by `print` ops, blocks in grid order.
    pub printed: String,
    /// The opcodes that ran at least once, in opcode order.
    pub ops: Vec<Opcode>,
}

/// A kernel argument.
#[derive(Clone, Debug)]
pub enum Arg {
    /// A rank-0 tile value (its bit pattern).
    Scalar(u64),
    /// A pointer to buffer `i` of the memory.
    Buffer(usize),
}

/// How [`run_with`] runs the grid.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Run tile blocks on the host's cores (rayon). Blocks share memory as on a GPU: plain
    /// accesses are word-atomic and tile IR atomics are atomic, so a kernel whose blocks do
    /// not race gives the same results either way; racing stores and the order of atomic
    /// float additions may differ from run to run. Printed text is still gathered in grid
    /// order, and an error is reported for the first failing block in grid order. Without
    /// it (the deterministic mode), blocks run one after another in grid order on the
    /// calling thread.
    pub parallel: bool,
    /// Worker threads for a parallel run; 0 means rayon's default (one per core).
    pub threads: usize,
    /// The most ops one tile block may execute (each op once per execution, whatever its
    /// tile's size); past it the run stops with an error at the op, as a watchdog would
    /// stop a kernel that never ends. `None`: no limit.
    pub max_ops: Option<u64>,
    /// Stop with an error when two elements of one `store_ptr_tko` or
    /// `atomic_store_tko` write different values to the same address: which of them the
    /// memory keeps is not determined (a GPU may keep either), so a result to compare
    /// against does not exist. Off: the later element in index order wins.
    pub conflicting_stores: bool,
    /// Evaluate as another legitimate execution would ([`Variant`]); the default is the
    /// interpreter's own.
    pub variant: Variant,
}

/// The order in which a float reduction, scan or `mmaf` combines its terms. The spec
/// leaves it open; the interpreter's own is sequential, in index order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// In index order (a `reverse` scan: from the far end).
    #[default]
    Sequential,
    /// Reductions and `mmaf` in the opposite order; scans stay sequential.
    Reversed,
    /// Pairwise: a reduction and `mmaf`'s products as a balanced tree, a scan in log steps
    /// (element i combines with element i - 2^s at step s), as GPUs do.
    Tree,
}

/// Another execution that the spec allows as well as the interpreter's own: float
/// reductions, scans and `mmaf` in another [`Order`], and approximate math (the
/// transcendental functions, `pow`, `atan2`, `divf` and `sqrt` with `approx` or `full`
/// rounding) off by a relative `perturb` (each result times 1 + `perturb` before it is
/// rounded to its type). Only float reductions (every operand a float tile) are
/// reordered, so integers, and with them control flow and indices, are the same as in
/// the interpreter's own run. A harness compares a device's results with the spread of
/// such runs where a result is ill-conditioned (a sum that cancels): see tilec-gpu's
/// tolerance.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Variant {
    pub order: Order,
    pub perturb: f64,
}

/// Runs entry `entry` of `m` over `grid` tile blocks in the deterministic mode: one block
/// after another, x fastest, then y, then z, with `args` (one per kernel parameter), on
/// `mem`. The module must be verified.
pub fn run(
    m: &Module,
    entry: Op,
    grid: [u32; 3],
    args: &[Arg],
    mem: &mut Memory,
) -> Result<Outcome, RunError> {
    run_with(m, entry, grid, args, mem, &Options::default())
}

/// The threads a parallel run of `blocks` tile blocks starts when `requested` were asked
/// for (0: rayon's default, one per core): never more than the blocks, nor than four per
/// core; more only cost their stacks (`-j 1000000000` on a 2-block grid tried to start a
/// billion threads).
#[must_use]
pub fn worker_threads(requested: usize, blocks: usize, cores: usize) -> usize {
    if requested == 0 {
        0
    } else {
        requested.min(blocks.max(1)).min(cores.max(1) * 4)
    }
}

/// [`run`] with [`Options`].
pub fn run_with(
    m: &Module,
    entry: Op,
    grid: [u32; 3],
    args: &[Arg],
    mem: &mut Memory,
    opts: &Options,
) -> Result<Outcome, RunError> {
    run_with_progress(m, entry, grid, args, mem, opts, &mut |_, _| {})
}

/// [`run_with`], calling `progress(done, total)` with the tile blocks run so far after
/// every few thousand blocks (for a progress display of long runs).
pub fn run_with_progress(
    m: &Module,
    entry: Op,
    grid: [u32; 3],
    args: &[Arg],
    mem: &mut Memory,
    opts: &Options,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Outcome, RunError> {
    let err0 = |message: String| RunError {
        op: Some(entry),
        block: [0; 3],
        message,
        printed: String::new(),
    };
    if let Some((op, name)) = sub_byte_memory(m) {
        return Err(RunError {
            op: Some(op),
            ..err0(format!(
                "'tilec run' does not model memory of the element type '{name}' yet (two elements to a byte); tiles of it in registers are supported"
            ))
        });
    }
    let globals = crate::memory::alloc_globals(m, mem);
    let mem: &Memory = mem;
    let Some(block) = m.entry_block(m.region(entry, 0)) else {
        return Err(err0("the entry has no body".into()));
    };
    let params = m.block_args(block).to_vec();
    if params.len() != args.len() {
        return Err(err0(format!(
            "the kernel takes {} arguments, {} given",
            params.len(),
            args.len()
        )));
    }
    let mut scalars: Vec<(Type, u64)> = Vec::with_capacity(args.len());
    for (p, a) in params.iter().zip(args) {
        let ty = m.value_type(*p);
        let elem = m.ctx.types.element_type(ty);
        let bits =
            match a {
                Arg::Scalar(b) => *b,
                Arg::Buffer(i) => mem.buffers.get(*i).map(|b| b.base).ok_or_else(|| {
                    err0(format!("argument names buffer {i}, which does not exist"))
                })?,
            };
        if !matches!(m.ctx.types.get(ty), TypeData::Tile { .. }) {
            return Err(err0("kernel parameters must be tiles".into()));
        }
        scalars.push((elem, bits));
    }
    let dead = last_uses(m);
    let g = [grid[0] as i64, grid[1] as i64, grid[2] as i64];
    let n = (g[0] * g[1] * g[2]) as usize;
    let nops = tilec_ir::ops::all().len();
    // Runs block `i` (in grid order); its printed text, the opcodes it ran, and its error.
    let one = |i: usize| -> (String, Vec<bool>, Option<RunError>) {
        let i = i as i64;
        let bid = [i % g[0], i / g[0] % g[1], i / (g[0] * g[1])];
        let fuel = opts.max_ops.unwrap_or(u64::MAX);
        let mut ctx = Ctx::new(m, mem, &globals, &dead, bid, g, fuel);
        ctx.conflicting_stores = opts.conflicting_stores;
        ctx.variant = opts.variant;
        let args = scalars
            .iter()
            .map(|&(e, b)| Val::Tile(Tile::scalar(e, b)))
            .collect();
        let err = ctx.run_block(block, args).err().map(|message| RunError {
            op: ctx.cur,
            block: bid,
            message,
            printed: String::new(),
        });
        (ctx.out, ctx.ran, err)
    };
    // Blocks run in chunks of CHUNK, in grid order: the memory a run takes does not grow
    // with the grid (a 65536^3 grid is legal CUDA), and the printed text and the first
    // error come out in grid order however the blocks of a chunk were scheduled.
    const CHUNK: usize = 4096;
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let threads = worker_threads(opts.threads, n, cores);
    let pool = if opts.parallel && n > 1 && threads > 0 {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .ok()
    } else {
        None
    };
    let mut printed = String::new();
    let mut ran = vec![false; nops];
    let mut start = 0usize;
    while start < n {
        let end = (start + CHUNK).min(n);
        let results: Vec<(String, Vec<bool>, Option<RunError>)> = if opts.parallel && n > 1 {
            use rayon::prelude::*;
            // Blocks after the first failure need not run.
            let first_failure = std::sync::atomic::AtomicUsize::new(usize::MAX);
            let par = || {
                (start..end)
                    .into_par_iter()
                    .map(|i| {
                        if i > first_failure.load(std::sync::atomic::Ordering::Relaxed) {
                            return (String::new(), Vec::new(), None);
                        }
                        let r = one(i);
                        if r.2.is_some() {
                            first_failure.fetch_min(i, std::sync::atomic::Ordering::Relaxed);
                        }
                        r
                    })
                    .collect()
            };
            match &pool {
                Some(pool) => pool.install(par),
                None => par(),
            }
        } else {
            let mut v = Vec::with_capacity(end - start);
            for i in start..end {
                let r = one(i);
                let failed = r.2.is_some();
                v.push(r);
                if failed {
                    break;
                }
            }
            v
        };
        for (out, r, err) in results {
            printed.push_str(&out);
            for (a, b) in ran.iter_mut().zip(r) {
                *a |= b;
            }
            if let Some(mut e) = err {
                e.printed = printed;
                return Err(e);
            }
        }
        start = end;
        progress(start as u64, n as u64);
    }
    Ok(Outcome {
        printed,
        ops: ran_ops(&ran),
    })
}

/// What [`call`] gives back.
#[derive(Debug)]
pub struct Called {
    /// The tiles the function's `return` gives (none for an entry).
    pub results: Vec<Tile>,
    /// Text printed by `print` ops.
    pub printed: String,
    /// The opcodes that ran at least once, in opcode order.
    pub ops: Vec<Opcode>,
}

/// The opcodes marked in `ran`, in opcode order.
fn ran_ops(ran: &[bool]) -> Vec<Opcode> {
    tilec_ir::ops::all()
        .iter()
        .filter(|d| ran[d.opcode as usize])
        .map(|d| d.opcode)
        .collect()
}

/// Calls function `func` of `m` (a `testing$func` or an entry) once, as tile block
/// (0, 0, 0) of a 1x1x1 grid, with `args` bound to its parameters. Parameters may be tiles
/// of any shape, pointers into `mem` included (as [`Tile`]s of pointer elements).
pub fn call(m: &Module, func: Op, args: Vec<Tile>, mem: &mut Memory) -> Result<Called, RunError> {
    call_limited(m, func, args, mem, u64::MAX)
}

/// [`call`] that stops with an error after executing `max_ops` operations (ops in
/// regions count each time they run; an elementwise op counts once whatever its shape),
/// for running code that may not terminate (a `loop` whose exit depends on the input).
pub fn call_limited(
    m: &Module,
    func: Op,
    args: Vec<Tile>,
    mem: &mut Memory,
    max_ops: u64,
) -> Result<Called, RunError> {
    let globals = crate::memory::alloc_globals(m, mem);
    let err = |op, message: String, printed| RunError {
        op,
        block: [0; 3],
        message,
        printed,
    };
    let Some(block) = m.entry_block(m.region(func, 0)) else {
        return Err(err(
            Some(func),
            "the function has no body".into(),
            String::new(),
        ));
    };
    let nparams = m.block_args(block).len();
    if nparams != args.len() {
        return Err(err(
            Some(func),
            format!(
                "the function takes {nparams} arguments, {} given",
                args.len()
            ),
            String::new(),
        ));
    }
    let dead = last_uses(m);
    let mut ctx = Ctx::new(m, mem, &globals, &dead, [0; 3], [1; 3], max_ops);
    let flow = ctx.run_block(block, args.into_iter().map(Val::Tile).collect());
    let vals = match flow {
        Ok(Flow::Return(v)) | Ok(Flow::Yield(v)) => v,
        Ok(_) => Vec::new(),
        Err(message) => return Err(err(ctx.cur, message, ctx.out)),
    };
    let results = vals
        .into_iter()
        .map(|v| match v {
            Val::Tile(t) => Ok(t),
            _ => Err(err(
                Some(func),
                "the function returns a view or token, which cannot be compared".into(),
                String::new(),
            )),
        })
        .collect::<Result<_, _>>()?;
    Ok(Called {
        results,
        printed: ctx.out,
        ops: ran_ops(&ctx.ran),
    })
}

#[cfg(test)]
mod thread_tests {
    use super::worker_threads;

    #[test]
    fn worker_threads_are_capped_by_blocks_and_cores() {
        assert_eq!(worker_threads(1_000_000_000, 2, 16), 2);
        assert_eq!(worker_threads(1_000_000_000, 1 << 30, 2), 8);
        assert_eq!(worker_threads(3, 100, 16), 3);
        assert_eq!(worker_threads(0, 100, 16), 0);
        assert_eq!(worker_threads(5, 0, 0), 1);
    }
}

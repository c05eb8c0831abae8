//! The rewriter: every IR change the canonicalizer makes goes through it, so that use lists
//! stay exact, new ops inherit the span and `loc` of the op they replace, constants are
//! uniqued and hoisted, and the driver's worklist learns what changed.

use crate::Stats;
use crate::ir;
use cranelift_entity::SecondaryMap;
use tilec_ir::util::FxHashMap;
use tilec_ir::{Attr, AttrData, Block, InsertPoint, Module, Op, OpSpec, Opcode, Type, Value};
use tilec_verify::Personality;

/// The IR being rewritten plus the driver's bookkeeping.
pub struct Rewriter<'m> {
    /// The module.
    pub m: &'m mut Module,
    /// Which tool's behaviour to follow where the spec and NVIDIA differ.
    pub personality: Personality,
    /// How often each rule fired.
    pub stats: &'m mut Stats,
    worklist: Vec<Op>,
    queued: SecondaryMap<Op, bool>,
    /// Uniqued constants per function: (function, value, type) -> constant op.
    constants: FxHashMap<(Op, Attr, Type), Op>,
    /// Constants owned by the table (hoisted to their function's entry block).
    owned: SecondaryMap<Op, bool>,
    /// Set by every change.
    pub changed: bool,
    /// Number of rewrites so far (fold and pattern applications, erasures).
    pub rewrites: u64,
}

impl<'m> Rewriter<'m> {
    /// A rewriter over `m`.
    pub fn new(m: &'m mut Module, personality: Personality, stats: &'m mut Stats) -> Self {
        Rewriter {
            m,
            personality,
            stats,
            worklist: Vec::new(),
            queued: SecondaryMap::new(),
            constants: FxHashMap::default(),
            owned: SecondaryMap::new(),
            changed: false,
            rewrites: 0,
        }
    }

    // ------------------------------------------------------------------ worklist

    /// Queues an op for (re)processing.
    pub fn push(&mut self, op: Op) {
        if !self.queued[op] {
            self.queued[op] = true;
            self.worklist.push(op);
        }
    }

    /// Takes the next op to process (last in, first out).
    pub fn pop(&mut self) -> Option<Op> {
        let op = self.worklist.pop()?;
        self.queued[op] = false;
        Some(op)
    }

    /// Empties the worklist.
    pub fn clear_worklist(&mut self) {
        while self.pop().is_some() {}
    }

    fn push_users(&mut self, v: Value) {
        let users: Vec<Op> = self.m.users(v).collect();
        for u in users {
            self.push(u);
        }
    }

    fn push_operand_defs(&mut self, op: Op) {
        for i in 0..self.m.num_operands(op) {
            let v = self.m.operand(op, i);
            if let Some(d) = self.m.defining_op(v) {
                self.push(d);
            }
            // A block argument's owner may have become simplifiable too.
            if let tilec_ir::ValueDef::Arg(b, _) = self.m.value_def(v)
                && let Some(p) = self.m.block_parent_op(b)
            {
                self.push(p);
            }
        }
    }

    /// Records that `op` changed in place: it and its users are revisited.
    pub fn modified(&mut self, op: Op) {
        self.changed = true;
        self.push(op);
        // Patterns look at the previous op (CombineIfs): the next one may match now.
        if let Some(n) = self.m.next_op(op) {
            self.push(n);
        }
        for r in self.m.results(op) {
            self.push_users(r);
        }
        if let Some(p) = self.m.parent_op(op) {
            self.push(p);
        }
    }

    // ------------------------------------------------------------------ changes

    /// Makes every use of `from` use `to`.
    pub fn replace_value(&mut self, from: Value, to: Value) {
        if from == to {
            return;
        }
        self.changed = true;
        self.push_users(from);
        self.m.replace_all_uses(from, to);
        // The producer of `from` may be dead now; the producer of `to` has new users.
        for v in [from, to] {
            if let Some(d) = self.m.defining_op(v) {
                self.push(d);
            }
        }
    }

    /// Replaces the results of `op` with `values` and erases it.
    pub fn replace_op(&mut self, op: Op, values: &[Value]) {
        debug_assert_eq!(values.len(), self.m.num_results(op));
        for (i, v) in values.iter().enumerate() {
            let r = self.m.result(op, i);
            self.replace_value(r, *v);
        }
        self.erase(op);
    }

    /// Erases `op` (its results must be unused) with everything in its regions.
    pub fn erase(&mut self, op: Op) {
        self.changed = true;
        self.forget(op);
        if let Some(p) = self.m.parent_op(op) {
            self.push(p);
        }
        if let Some(n) = self.m.prev_op(op) {
            self.push(n);
        }
        if let Some(n) = self.m.next_op(op) {
            self.push(n);
        }
        self.m.erase_op(op);
    }

    /// Drops `op` and its nested ops from the constant table and queues the producers of
    /// their operands (which may have become dead).
    fn forget(&mut self, op: Op) {
        self.push_operand_defs(op);
        if self.owned[op] {
            self.owned[op] = false;
            if let (Some(f), Some(a)) = (ir::function_of(self.m, op), self.m.attr(op, 0)) {
                let key = (f, a, self.m.value_type(self.m.result(op, 0)));
                if self.constants.get(&key) == Some(&op) {
                    self.constants.remove(&key);
                }
            }
        }
        for r in self.m.regions(op).to_vec() {
            for b in self.m.region_blocks(r).to_vec() {
                let ops: Vec<Op> = self.m.block_ops(b).collect();
                for o in ops {
                    self.forget(o);
                }
            }
        }
    }

    /// Erases the ops from `first` to the end of its block (last first): code after a
    /// terminator is unreachable.
    pub fn erase_tail(&mut self, first: Op) {
        let Some(b) = self.m.op_block(first) else {
            return;
        };
        while let Some(last) = self.m.last_op(b) {
            // Results of unreachable ops can only be used by later unreachable ops, which
            // are gone by now; nested uses go with their op.
            for r in self.m.results(last).collect::<Vec<_>>() {
                debug_assert!(!self.m.has_uses(r));
            }
            let stop = last == first;
            self.erase(last);
            if stop {
                break;
            }
        }
    }

    /// Moves an op to a new place; it and its neighbours are revisited.
    pub fn move_op(&mut self, op: Op, at: InsertPoint) {
        self.changed = true;
        self.m.move_op(op, at);
        self.push(op);
        if let Some(n) = self.m.next_op(op) {
            self.push(n);
        }
    }

    /// Moves the ops of `from` (all of them, or all but the terminator) before `before`.
    pub fn move_block_ops_before(&mut self, from: Block, before: Op, with_terminator: bool) {
        let ops: Vec<Op> = self.m.block_ops(from).collect();
        let n = ops.len() - usize::from(!with_terminator && !ops.is_empty());
        for o in ops.into_iter().take(n) {
            self.move_op(o, InsertPoint::Before(before));
        }
    }

    /// Moves all ops of `from` to the end of `to`.
    pub fn append_block_ops(&mut self, from: Block, to: Block) {
        let ops: Vec<Op> = self.m.block_ops(from).collect();
        for o in ops {
            self.move_op(o, InsertPoint::End(to));
        }
    }

    /// Sets operand `i` of `op`.
    pub fn set_operand(&mut self, op: Op, i: usize, v: Value) {
        let old = self.m.operand(op, i);
        self.m.set_operand(op, i, v);
        if let Some(d) = self.m.defining_op(old) {
            self.push(d);
        }
        self.modified(op);
    }

    /// Creates an op at `at`; it takes the span and `loc` of `like`.
    pub fn create(&mut self, spec: &OpSpec<'_>, at: InsertPoint, like: Op) -> Op {
        let op = self.m.create_op(spec, at);
        let span = self.m.op_span(like);
        self.m.set_op_span(op, span);
        let loc = self.m.op_loc(like);
        self.m.set_op_loc(op, loc);
        self.changed = true;
        self.push(op);
        if let Some(n) = self.m.next_op(op) {
            self.push(n);
        }
        op
    }

    /// Creates a single-result op with no attributes or regions before `before`.
    pub fn create_simple(
        &mut self,
        opcode: Opcode,
        operands: &[Value],
        ty: Type,
        before: Op,
    ) -> Value {
        let op = self.create(
            &OpSpec {
                opcode,
                operands,
                results: &[ty],
                attrs: &[],
                regions: 0,
            },
            InsertPoint::Before(before),
            before,
        );
        self.m.result(op, 0)
    }

    /// Creates an `if` without regions' blocks, before `before`, like `like`.
    pub fn create_if(&mut self, cond: Value, results: &[Type], before: Op, like: Op) -> Op {
        self.create(
            &OpSpec {
                opcode: Opcode::If,
                operands: &[cond],
                results,
                attrs: &[],
                regions: 2,
            },
            InsertPoint::Before(before),
            like,
        )
    }

    /// Creates a `yield` of `values` at the end of `b`.
    pub fn create_yield(&mut self, values: &[Value], b: Block, like: Op) -> Op {
        self.create(
            &OpSpec {
                opcode: Opcode::Yield,
                operands: values,
                results: &[],
                attrs: &[],
                regions: 0,
            },
            InsertPoint::End(b),
            like,
        )
    }

    // ------------------------------------------------------------------ constants

    /// A constant of type `ty` with value `value` for use by `near`: an existing uniqued
    /// constant of the enclosing function, or a new one at the start of its entry block.
    pub fn constant(&mut self, value: Attr, ty: Type, near: Op) -> Value {
        let func = ir::function_of(self.m, near);
        if let Some(f) = func
            && let Some(&c) = self.constants.get(&(f, value, ty))
        {
            return self.m.result(c, 0);
        }
        let at = match func.and_then(|f| ir::region_block(self.m, f, 0)) {
            Some(b) => match self.m.first_op(b) {
                Some(first) => InsertPoint::Before(first),
                None => InsertPoint::End(b),
            },
            None => InsertPoint::Before(near),
        };
        let op = self.m.create_op(
            &OpSpec {
                opcode: Opcode::Constant,
                operands: &[],
                results: &[ty],
                attrs: &[Some(value)],
                regions: 0,
            },
            at,
        );
        self.changed = true;
        if let Some(f) = func {
            self.constants.insert((f, value, ty), op);
            self.owned[op] = true;
        }
        self.m.result(op, 0)
    }

    /// A constant from raw element bits (one for a splat) of tile type `ty`.
    pub fn constant_bits(&mut self, ty: Type, bits: Vec<u64>, near: Op) -> Value {
        let attr = self.m.ctx.attrs.intern(tilec_ir::attrs::dense(ty, bits));
        self.constant(attr, ty, near)
    }

    /// A splat `i1` constant shaped like `like_ty`.
    pub fn bool_constant(&mut self, ty: Type, b: bool, near: Op) -> Value {
        self.constant_bits(ty, vec![u64::from(b)], near)
    }

    /// MLIR's `OperationFolder::insertKnownConstant` for an existing `constant` op: merges it
    /// into an equal uniqued constant of its function (returning false: `op` is gone), or
    /// makes it the uniqued one and hoists it to the start of the function's entry block
    /// (keeping the order of constants already there).
    pub fn insert_known_constant(&mut self, op: Op) -> bool {
        let Some(func) = ir::function_of(self.m, op) else {
            return true;
        };
        let Some(value) = self.m.attr(op, 0) else {
            return true;
        };
        if !matches!(self.m.ctx.attrs.get(value), AttrData::Dense(_)) {
            return true;
        }
        let ty = self.m.value_type(self.m.result(op, 0));
        let block = self.m.op_block(op);
        let entry = ir::region_block(self.m, func, 0);
        let prev_owned = |s: &Self| s.m.prev_op(op).is_some_and(|p| s.owned[p]);
        if self.owned[op] {
            if self.m.first_op(block.expect("attached")) != Some(op) && !prev_owned(self) {
                let first = self
                    .m
                    .first_op(block.expect("attached"))
                    .expect("non-empty");
                self.m.move_op(op, InsertPoint::Before(first));
            }
            return true;
        }
        if let Some(&existing) = self.constants.get(&(func, value, ty))
            && existing != op
        {
            let r = self.m.result(op, 0);
            let to = self.m.result(existing, 0);
            self.replace_value(r, to);
            self.erase(op);
            self.stats.bump("FoldConstant");
            return false;
        }
        if let Some(entry) = entry
            && (block != Some(entry) || (self.m.first_op(entry) != Some(op) && !prev_owned(self)))
        {
            let first = self
                .m
                .first_op(entry)
                .expect("entry block holds the op's ancestor");
            self.m.move_op(op, InsertPoint::Before(first));
            if block != Some(entry) {
                self.changed = true;
            }
        }
        self.constants.insert((func, value, ty), op);
        self.owned[op] = true;
        true
    }

    /// Forgets all uniqued constants (between iterations of the driver).
    pub fn reset_constants(&mut self) {
        self.constants.clear();
        self.owned.clear();
    }
}

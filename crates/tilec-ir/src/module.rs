//! The SSA IR container: operations, values, blocks and regions in arenas.
//!
//! A [`Module`] holds one parsed file (or one `// -----` chunk of it). Its top-level
//! [`Module::body`] block contains the top-level operations, normally `cuda_tile.module`
//! ops whose single region holds globals, entries and functions, each with regions made of
//! blocks of operations.
//!
//! Storage follows cranelift: entities are small integer handles into [`PrimaryMap`]s, and
//! lists of entities (operands, block arguments, regions, attributes) live in
//! [`ListPool`]s. Operation order inside a block is a doubly linked list threaded through
//! the operations, so insertion and removal are O(1). Every value keeps a doubly linked
//! list of its uses ([`Use`]), so `replace_all_uses` and erasure cost O(uses).
//!
//! Spans (byte ranges into the source file) live in side tables, never inside the op data:
//! one per op (the op name, or the first result name), one per value (its definition) and
//! one per attribute written in the source. Ops created by passes carry no span unless the
//! pass copies one (see [`Module::set_op_span`]).

use crate::attrs::{Attr, AttrStore};
use crate::ops::{self, OpDef, Opcode};
use crate::types::{Type, TypeStore};
use crate::util::FxHashMap;
use cranelift_entity::packed_option::{PackedOption, ReservedValue};
use cranelift_entity::{EntityList, EntityRef, ListPool, PrimaryMap, SecondaryMap};
use tilec_diag::{FileId, Span};

/// Handle of an operation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Op(u32);
cranelift_entity::entity_impl!(Op, "op");

/// Handle of an SSA value (an op result or a block argument).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Value(u32);
cranelift_entity::entity_impl!(Value, "v");

/// Handle of a block.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Block(u32);
cranelift_entity::entity_impl!(Block, "bb");

/// Handle of a region.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Region(u32);
cranelift_entity::entity_impl!(Region, "region");

/// Handle of one operand slot (a use of a value by an op).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Use(u32);
cranelift_entity::entity_impl!(Use, "use");

/// Type and attribute interning tables shared by everything in a module.
#[derive(Debug, Clone, Default)]
pub struct Context {
    /// Types.
    pub types: TypeStore,
    /// Attributes.
    pub attrs: AttrStore,
}

impl Context {
    /// A fresh context.
    pub fn new() -> Context {
        Context::default()
    }
}

/// What defines a value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ValueDef {
    /// Result `index` of an op.
    Result(Op, u32),
    /// Argument `index` of a block.
    Arg(Block, u32),
    /// A placeholder for a name used before its definition (parser only); a finished
    /// module contains none.
    Placeholder,
}

#[derive(Clone, Debug)]
struct ValueData {
    ty: Type,
    def: PackedDef,
    first_use: PackedOption<Use>,
}

/// A [`ValueDef`] in 8 bytes instead of 12: the op or block index, and the result or
/// argument number with the top bit set for arguments (`u32::MAX` owner: placeholder).
#[derive(Copy, Clone, Debug)]
struct PackedDef(u32, u32);

impl PackedDef {
    const ARG: u32 = 1 << 31;

    fn pack(d: ValueDef) -> PackedDef {
        match d {
            ValueDef::Result(op, i) => PackedDef(op.as_u32(), i & !Self::ARG),
            ValueDef::Arg(b, i) => PackedDef(b.as_u32(), i | Self::ARG),
            ValueDef::Placeholder => PackedDef(u32::MAX, 0),
        }
    }

    fn unpack(self) -> ValueDef {
        match self {
            PackedDef(u32::MAX, _) => ValueDef::Placeholder,
            PackedDef(b, i) if i & Self::ARG != 0 => {
                ValueDef::Arg(Block::from_u32(b), i & !Self::ARG)
            }
            PackedDef(op, i) => ValueDef::Result(Op::from_u32(op), i),
        }
    }
}

#[derive(Clone, Debug)]
struct UseData {
    value: Value,
    owner: Op,
    prev: PackedOption<Use>,
    next: PackedOption<Use>,
}

#[derive(Clone, Debug)]
struct OpData {
    opcode: Opcode,
    /// Which spelling of the op name was used (0 = primary, i = alias i-1).
    spelling: u8,
    /// The op was written in MLIR's generic form (`"cuda_tile.addf"(...)`).
    generic: bool,
    num_results: u32,
    first_result: PackedOption<Value>,
    operands: EntityList<Use>,
    /// Attribute slots, one per `OpDef::attrs` entry (trailing absent slots trimmed);
    /// absent slots hold `Attr::reserved_value()`.
    attrs: EntityList<Attr>,
    regions: EntityList<Region>,
    block: PackedOption<Block>,
    prev: PackedOption<Op>,
    next: PackedOption<Op>,
}

#[derive(Clone, Debug, Default)]
struct BlockData {
    args: EntityList<Value>,
    first: PackedOption<Op>,
    last: PackedOption<Op>,
    region: PackedOption<Region>,
}

#[derive(Clone, Debug, Default)]
struct RegionData {
    blocks: EntityList<Block>,
    parent: PackedOption<Op>,
}

/// A packed optional span (the "no span" marker is explicit, not an empty range).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct SpanSlot(u32, u32);

impl Default for SpanSlot {
    fn default() -> Self {
        SpanSlot(u32::MAX, u32::MAX)
    }
}

impl SpanSlot {
    fn get(self) -> Option<Span> {
        (self.0 != u32::MAX).then_some(Span::new(self.0, self.1))
    }
    fn from(s: Option<Span>) -> SpanSlot {
        match s {
            Some(s) => SpanSlot(s.start, s.end),
            None => SpanSlot::default(),
        }
    }
}

/// Optional per-op information that most ops do not have.
#[derive(Clone, Debug, Default)]
struct Extras {
    /// Names of unregistered ops (generic form with `-allow-unregistered-dialect`).
    unregistered: FxHashMap<Op, Box<str>>,
    /// Discardable attributes written in `{...}` that are not op table slots.
    attrs: FxHashMap<Op, Vec<(Box<str>, Attr)>>,
    /// Source locations written with `loc(...)`.
    op_locs: FxHashMap<Op, Attr>,
    /// Locations of block arguments.
    value_locs: FxHashMap<Value, Attr>,
    /// Spans of attributes written in the source, per op and slot.
    /// Sorted by (op, slot); the parser appends in that order, so recording is a push.
    attr_spans: Vec<(u32, u16, SpanSlot)>,
}

/// A tile IR module: the arenas, the interning context and the top-level block.
#[derive(Clone)]
pub struct Module {
    /// Types and attributes.
    pub ctx: Context,
    ops: PrimaryMap<Op, OpData>,
    values: PrimaryMap<Value, ValueData>,
    blocks: PrimaryMap<Block, BlockData>,
    regions: PrimaryMap<Region, RegionData>,
    uses: PrimaryMap<Use, UseData>,
    use_pool: ListPool<Use>,
    value_pool: ListPool<Value>,
    attr_pool: ListPool<Attr>,
    region_pool: ListPool<Region>,
    block_pool: ListPool<Block>,
    op_spans: SecondaryMap<Op, SpanSlot>,
    /// Spans of block arguments (results use their op's span).
    arg_spans: FxHashMap<Value, Span>,
    extras: Extras,
    body: Block,
    file: Option<FileId>,
    /// Value names and comments of the source text, when the parser kept them.
    pub trivia: crate::trivia::Trivia,
    /// The attributes of MLIR's builtin `module attributes {...} { ... }` wrapper written
    /// around the top-level ops (empty: no wrapper, or one without attributes, which is
    /// not printed back). tilec has no builtin dialect: they are kept only to be printed
    /// back around the ops, as cuda-tile-opt prints them.
    pub wrapper_attrs: Vec<(Box<str>, Attr)>,
}

impl std::fmt::Debug for Module {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::print::print_module(
            self,
            &crate::print::PrintOptions::default(),
        ))
    }
}

impl Default for Module {
    fn default() -> Self {
        Module::new()
    }
}

/// Where to insert a new op.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum InsertPoint {
    /// At the end of a block.
    End(Block),
    /// Before an op.
    Before(Op),
    /// After an op.
    After(Op),
    /// Nowhere: the op is created detached and can be inserted later.
    Detached,
}

/// Everything needed to create an op.
#[derive(Clone, Debug)]
pub struct OpSpec<'a> {
    /// The opcode.
    pub opcode: Opcode,
    /// Operand values, all operand slots flattened in order.
    pub operands: &'a [Value],
    /// Result types.
    pub results: &'a [Type],
    /// Attributes by slot index into `OpDef::attrs` (`None` = absent).
    pub attrs: &'a [Option<Attr>],
    /// Number of regions to create (each empty, without blocks).
    pub regions: usize,
}

impl Module {
    /// An empty module with a fresh context.
    pub fn new() -> Module {
        Module::with_context(Context::new())
    }

    /// An empty module using an existing context.
    pub fn with_context(ctx: Context) -> Module {
        let mut blocks = PrimaryMap::new();
        let body = blocks.push(BlockData::default());
        Module {
            ctx,
            ops: PrimaryMap::new(),
            values: PrimaryMap::new(),
            blocks,
            regions: PrimaryMap::new(),
            uses: PrimaryMap::new(),
            use_pool: ListPool::new(),
            value_pool: ListPool::new(),
            attr_pool: ListPool::new(),
            region_pool: ListPool::new(),
            block_pool: ListPool::new(),
            op_spans: SecondaryMap::new(),
            arg_spans: FxHashMap::default(),
            extras: Extras::default(),
            body,
            file: None,
            trivia: crate::trivia::Trivia::default(),
            wrapper_attrs: Vec::new(),
        }
    }

    /// Reserves capacity for about `ops` operations (used by the parser from the input size).
    ///
    /// Reserving up front avoids the copies (and the moments of holding both the old and
    /// the new buffer) of growing arrays; reserved memory that is never written costs no
    /// physical memory.
    pub fn reserve(&mut self, ops: usize) {
        let values = ops + ops / 4;
        self.ops.reserve(ops);
        self.values.reserve(values);
        self.uses.reserve(ops * 2);
        if self.ops.is_empty() {
            self.op_spans = SecondaryMap::with_capacity(ops);
            // Operand lists take about 4 words per op (length and up to 3 operands).
            self.use_pool = ListPool::with_capacity(ops * 4);
            self.attr_pool = ListPool::with_capacity(ops * 2);
        }
    }

    /// The top-level block.
    pub fn body(&self) -> Block {
        self.body
    }

    /// The source file the module was parsed from, if any.
    pub fn file(&self) -> Option<FileId> {
        self.file
    }

    /// Records the source file.
    pub fn set_file(&mut self, file: Option<FileId>) {
        self.file = file;
    }

    // ------------------------------------------------------------------ ops

    /// Creates an op with fresh result values and empty regions, and inserts it.
    pub fn create_op(&mut self, spec: &OpSpec<'_>, at: InsertPoint) -> Op {
        let mut attrs = EntityList::new();
        let len = spec
            .attrs
            .iter()
            .rposition(Option::is_some)
            .map_or(0, |i| i + 1);
        for a in &spec.attrs[..len] {
            attrs.push(a.unwrap_or_else(Attr::reserved_value), &mut self.attr_pool);
        }
        let op = self.ops.push(OpData {
            opcode: spec.opcode,
            spelling: 0,
            generic: false,
            num_results: spec.results.len() as u32,
            first_result: PackedOption::default(),
            operands: EntityList::new(),
            attrs,
            regions: EntityList::new(),
            block: PackedOption::default(),
            prev: PackedOption::default(),
            next: PackedOption::default(),
        });
        for (i, &ty) in spec.results.iter().enumerate() {
            let v = self.values.push(ValueData {
                ty,
                def: PackedDef::pack(ValueDef::Result(op, i as u32)),
                first_use: PackedOption::default(),
            });
            if i == 0 {
                self.ops[op].first_result = v.into();
            }
        }
        for &v in spec.operands {
            self.append_operand(op, v);
        }
        for _ in 0..spec.regions {
            let r = self.regions.push(RegionData {
                blocks: EntityList::new(),
                parent: op.into(),
            });
            self.ops[op].regions.push(r, &mut self.region_pool);
        }
        self.insert(op, at);
        op
    }

    /// The opcode of an op.
    pub fn opcode(&self, op: Op) -> Opcode {
        self.ops[op].opcode
    }

    /// The op table entry of an op.
    pub fn def(&self, op: Op) -> &'static OpDef {
        ops::def(self.ops[op].opcode)
    }

    /// The spelling index of the op's name (see [`OpDef::spelling`]).
    pub fn spelling(&self, op: Op) -> u8 {
        self.ops[op].spelling
    }

    /// Sets the spelling index.
    pub fn set_spelling(&mut self, op: Op, spelling: u8) {
        self.ops[op].spelling = spelling;
    }

    /// True if the op was written in MLIR's generic form. Some checks of NVIDIA's tools
    /// happen in their custom parsers only, so they depend on the form.
    pub fn written_generic(&self, op: Op) -> bool {
        self.ops[op].generic
    }

    /// Records that the op was written in the generic form.
    pub fn set_written_generic(&mut self, op: Op, generic: bool) {
        self.ops[op].generic = generic;
    }

    /// Number of ops ever created (including erased ones).
    pub fn op_capacity(&self) -> usize {
        self.ops.len()
    }

    /// Number of values ever created.
    pub fn value_capacity(&self) -> usize {
        self.values.len()
    }

    /// Operands of an op, in order (all slots flattened).
    pub fn operands(&self, op: Op) -> impl ExactSizeIterator<Item = Value> + '_ {
        self.ops[op]
            .operands
            .as_slice(&self.use_pool)
            .iter()
            .map(|u| self.uses[*u].value)
    }

    /// The `i`-th operand.
    pub fn operand(&self, op: Op, i: usize) -> Value {
        let u = self.ops[op].operands.as_slice(&self.use_pool)[i];
        self.uses[u].value
    }

    /// Number of operands.
    pub fn num_operands(&self, op: Op) -> usize {
        self.ops[op].operands.len(&self.use_pool)
    }

    /// Collects the operands into a vector.
    pub fn operand_vec(&self, op: Op) -> Vec<Value> {
        self.operands(op).collect()
    }

    /// Results of an op.
    pub fn results(&self, op: Op) -> impl ExactSizeIterator<Item = Value> + use<> {
        let d = &self.ops[op];
        let first = d.first_result.expand().map_or(0, |v| v.index());
        (first..first + d.num_results as usize).map(Value::new)
    }

    /// The `i`-th result.
    pub fn result(&self, op: Op, i: usize) -> Value {
        let d = &self.ops[op];
        assert!(i < d.num_results as usize, "result index out of range");
        Value::new(d.first_result.expand().map_or(0, |v| v.index()) + i)
    }

    /// Number of results.
    pub fn num_results(&self, op: Op) -> usize {
        self.ops[op].num_results as usize
    }

    /// Attribute in slot `i` of the op table entry, if present.
    pub fn attr(&self, op: Op, slot: usize) -> Option<Attr> {
        let a = *self.ops[op].attrs.as_slice(&self.attr_pool).get(slot)?;
        (a != Attr::reserved_value()).then_some(a)
    }

    /// The `sym_name` of an op that has one (`entry @k` gives "k").
    pub fn sym_name(&self, op: Op) -> Option<&str> {
        match self.ctx.attrs.get(self.attr_named(op, "sym_name")?) {
            crate::attrs::AttrData::String(s) | crate::attrs::AttrData::SymbolRef(s) => Some(s),
            _ => None,
        }
    }

    /// Every `entry` op of the module, in order, with its name.
    pub fn entries(&self) -> Vec<(String, Op)> {
        let mut out = Vec::new();
        self.walk(|op| {
            if self.opcode(op) == Opcode::Entry {
                out.push((self.sym_name(op).unwrap_or_default().to_string(), op));
            }
        });
        out
    }

    /// Attribute by name (op table slots and discardable attributes).
    pub fn attr_named(&self, op: Op, name: &str) -> Option<Attr> {
        if let Some(i) = self.def(op).attr_index(name) {
            return self.attr(op, i);
        }
        self.extras
            .attrs
            .get(&op)?
            .iter()
            .find(|(k, _)| &**k == name)
            .map(|(_, a)| *a)
    }

    /// Sets (or clears) attribute slot `i`.
    pub fn set_attr(&mut self, op: Op, slot: usize, value: Option<Attr>) {
        let list = &mut self.ops[op].attrs;
        while list.len(&self.attr_pool) <= slot {
            if value.is_none() {
                return;
            }
            list.push(Attr::reserved_value(), &mut self.attr_pool);
        }
        list.as_mut_slice(&mut self.attr_pool)[slot] = value.unwrap_or_else(Attr::reserved_value);
    }

    /// Discardable attributes (written in `{...}`, not op table slots).
    pub fn extra_attrs(&self, op: Op) -> &[(Box<str>, Attr)] {
        self.extras.attrs.get(&op).map_or(&[], |v| v.as_slice())
    }

    /// Adds a discardable attribute.
    pub fn push_extra_attr(&mut self, op: Op, name: &str, value: Attr) {
        self.extras
            .attrs
            .entry(op)
            .or_default()
            .push((name.into(), value));
    }

    /// Sets the discardable attribute `name` of `op`, keeping the attributes in the order
    /// of their names (as the parser reads an attribute dictionary back).
    pub fn put_extra_attr_sorted(&mut self, op: Op, name: &str, value: Attr) {
        let list = self.extras.attrs.entry(op).or_default();
        list.retain(|(k, _)| &**k != name);
        let at = list.partition_point(|(k, _)| &**k < name);
        list.insert(at, (name.into(), value));
    }

    /// Removes the discardable attribute `name` of `op`, if it has one.
    pub fn remove_extra_attr(&mut self, op: Op, name: &str) {
        if let Some(list) = self.extras.attrs.get_mut(&op) {
            list.retain(|(k, _)| &**k != name);
        }
    }

    /// Regions of an op.
    pub fn regions(&self, op: Op) -> &[Region] {
        self.ops[op].regions.as_slice(&self.region_pool)
    }

    /// The `i`-th region.
    pub fn region(&self, op: Op, i: usize) -> Region {
        self.regions(op)[i]
    }

    /// The name of an unregistered op.
    pub fn unregistered_name(&self, op: Op) -> Option<&str> {
        self.extras.unregistered.get(&op).map(|s| &**s)
    }

    /// Marks an op as an unregistered op with the given full name.
    pub fn set_unregistered_name(&mut self, op: Op, name: &str) {
        self.extras.unregistered.insert(op, name.into());
    }

    /// The name the printer uses for an op: the spelling the input used, without prefix.
    pub fn op_mnemonic(&self, op: Op) -> &str {
        if let Some(n) = self.unregistered_name(op) {
            return n;
        }
        self.def(op).spelling(self.ops[op].spelling)
    }

    /// The block containing an op.
    pub fn op_block(&self, op: Op) -> Option<Block> {
        self.ops[op].block.expand()
    }

    /// The op whose region contains `op`, if any.
    pub fn parent_op(&self, op: Op) -> Option<Op> {
        let b = self.op_block(op)?;
        self.block_parent_op(b)
    }

    /// Next op in the block.
    pub fn next_op(&self, op: Op) -> Option<Op> {
        self.ops[op].next.expand()
    }

    /// Previous op in the block.
    pub fn prev_op(&self, op: Op) -> Option<Op> {
        self.ops[op].prev.expand()
    }

    /// Source span of an op, if it came from source.
    pub fn op_span(&self, op: Op) -> Option<Span> {
        self.op_spans.get(op).and_then(|s| s.get())
    }

    /// Sets the span of an op (rewrites copy the span of the op they replace).
    pub fn set_op_span(&mut self, op: Op, span: Option<Span>) {
        self.op_spans[op] = SpanSlot::from(span);
    }

    /// The `loc(...)` attribute of an op, if the source gave one.
    pub fn op_loc(&self, op: Op) -> Option<Attr> {
        self.extras.op_locs.get(&op).copied()
    }

    /// Sets the `loc(...)` of an op.
    pub fn set_op_loc(&mut self, op: Op, loc: Option<Attr>) {
        match loc {
            Some(l) => {
                self.extras.op_locs.insert(op, l);
            }
            None => {
                self.extras.op_locs.remove(&op);
            }
        }
    }

    /// Span of an attribute slot as written in the source.
    pub fn attr_span(&self, op: Op, slot: usize) -> Option<Span> {
        let key = (op.as_u32(), slot as u16);
        let v = &self.extras.attr_spans;
        v.binary_search_by(|e| (e.0, e.1).cmp(&key))
            .ok()
            .and_then(|i| v[i].2.get())
    }

    /// Records the span of an attribute slot.
    pub fn set_attr_span(&mut self, op: Op, slot: usize, span: Span) {
        let key = (op.as_u32(), slot as u16);
        let entry = (key.0, key.1, SpanSlot::from(Some(span)));
        let v = &mut self.extras.attr_spans;
        match v.last() {
            Some(l) if (l.0, l.1) >= key => match v.binary_search_by(|e| (e.0, e.1).cmp(&key)) {
                Ok(i) => v[i] = entry,
                Err(i) => v.insert(i, entry),
            },
            _ => v.push(entry),
        }
    }

    /// Inserts a detached op.
    pub fn insert(&mut self, op: Op, at: InsertPoint) {
        debug_assert!(self.ops[op].block.is_none(), "op already inserted");
        let (block, prev, next) = match at {
            InsertPoint::Detached => return,
            InsertPoint::End(b) => (b, self.blocks[b].last.expand(), None),
            InsertPoint::Before(o) => {
                let b = self.ops[o]
                    .block
                    .expand()
                    .expect("insertion point not in a block");
                (b, self.ops[o].prev.expand(), Some(o))
            }
            InsertPoint::After(o) => {
                let b = self.ops[o]
                    .block
                    .expand()
                    .expect("insertion point not in a block");
                (b, Some(o), self.ops[o].next.expand())
            }
        };
        let d = &mut self.ops[op];
        d.block = block.into();
        d.prev = prev.into();
        d.next = next.into();
        match prev {
            Some(p) => self.ops[p].next = op.into(),
            None => self.blocks[block].first = op.into(),
        }
        match next {
            Some(n) => self.ops[n].prev = op.into(),
            None => self.blocks[block].last = op.into(),
        }
    }

    /// Removes an op from its block without destroying it.
    pub fn detach(&mut self, op: Op) {
        let Some(block) = self.ops[op].block.expand() else {
            return;
        };
        let (prev, next) = (self.ops[op].prev.expand(), self.ops[op].next.expand());
        match prev {
            Some(p) => self.ops[p].next = next.into(),
            None => self.blocks[block].first = next.into(),
        }
        match next {
            Some(n) => self.ops[n].prev = prev.into(),
            None => self.blocks[block].last = prev.into(),
        }
        let d = &mut self.ops[op];
        d.block = None.into();
        d.prev = None.into();
        d.next = None.into();
    }

    /// Erases an op: drops its operand uses and erases the ops of its regions. Its results
    /// must have no uses left.
    pub fn erase_op(&mut self, op: Op) {
        for r in self.regions(op).to_vec() {
            for b in self.region_blocks(r).to_vec() {
                let ops: Vec<Op> = self.block_ops(b).collect();
                for o in ops.into_iter().rev() {
                    self.erase_op(o);
                }
            }
        }
        self.detach(op);
        let uses: Vec<Use> = self.ops[op].operands.as_slice(&self.use_pool).to_vec();
        for u in uses {
            self.unlink_use(u);
        }
        self.ops[op].operands.clear(&mut self.use_pool);
    }

    /// Moves an op (detaching it first) to another place.
    pub fn move_op(&mut self, op: Op, at: InsertPoint) {
        self.detach(op);
        self.insert(op, at);
    }

    /// True if the op is in a block (not detached or erased).
    pub fn is_attached(&self, op: Op) -> bool {
        self.ops[op].block.is_some()
    }

    // ------------------------------------------------------------------ operands and uses

    /// Appends an operand.
    pub fn append_operand(&mut self, op: Op, value: Value) {
        let u = self.uses.push(UseData {
            value,
            owner: op,
            prev: PackedOption::default(),
            next: PackedOption::default(),
        });
        self.link_use(u);
        self.ops[op].operands.push(u, &mut self.use_pool);
    }

    /// Replaces operand `i` of `op`.
    pub fn set_operand(&mut self, op: Op, i: usize, value: Value) {
        let u = self.ops[op].operands.as_slice(&self.use_pool)[i];
        self.unlink_use(u);
        self.uses[u].value = value;
        self.link_use(u);
    }

    /// Removes operand `i` of `op` (later operands shift down).
    pub fn remove_operand(&mut self, op: Op, i: usize) {
        let u = self.ops[op].operands.as_slice(&self.use_pool)[i];
        self.unlink_use(u);
        self.ops[op].operands.remove(i, &mut self.use_pool);
    }

    fn link_use(&mut self, u: Use) {
        let v = self.uses[u].value;
        let head = self.values[v].first_use;
        self.uses[u].prev = None.into();
        self.uses[u].next = head;
        if let Some(h) = head.expand() {
            self.uses[h].prev = u.into();
        }
        self.values[v].first_use = u.into();
    }

    fn unlink_use(&mut self, u: Use) {
        let v = self.uses[u].value;
        let (prev, next) = (self.uses[u].prev, self.uses[u].next);
        match prev.expand() {
            Some(p) => self.uses[p].next = next,
            None => self.values[v].first_use = next,
        }
        if let Some(n) = next.expand() {
            self.uses[n].prev = prev;
        }
        self.uses[u].prev = None.into();
        self.uses[u].next = None.into();
    }

    /// The ops using a value (one entry per use).
    pub fn users(&self, v: Value) -> impl Iterator<Item = Op> + '_ {
        let mut cur = self.values[v].first_use.expand();
        std::iter::from_fn(move || {
            let u = cur?;
            cur = self.uses[u].next.expand();
            Some(self.uses[u].owner)
        })
    }

    /// True if the value has at least one use.
    pub fn has_uses(&self, v: Value) -> bool {
        self.values[v].first_use.is_some()
    }

    /// Number of uses of a value.
    pub fn num_uses(&self, v: Value) -> usize {
        self.users(v).count()
    }

    /// Makes every use of `from` use `to` instead. O(uses of `from`).
    pub fn replace_all_uses(&mut self, from: Value, to: Value) {
        if from == to {
            return;
        }
        while let Some(u) = self.values[from].first_use.expand() {
            self.unlink_use(u);
            self.uses[u].value = to;
            self.link_use(u);
        }
    }

    // ------------------------------------------------------------------ values

    /// Type of a value.
    pub fn value_type(&self, v: Value) -> Type {
        self.values[v].ty
    }

    /// Changes the type of a value.
    pub fn set_value_type(&mut self, v: Value, ty: Type) {
        self.values[v].ty = ty;
    }

    /// What defines a value.
    pub fn value_def(&self, v: Value) -> ValueDef {
        self.values[v].def.unpack()
    }

    /// The op defining a value, if it is an op result.
    pub fn defining_op(&self, v: Value) -> Option<Op> {
        match self.values[v].def.unpack() {
            ValueDef::Result(op, _) => Some(op),
            _ => None,
        }
    }

    /// Source span of a value's definition: the block argument's name for arguments, the
    /// defining op's span for results (as in MLIR, a result's location is its op's).
    pub fn value_span(&self, v: Value) -> Option<Span> {
        match self.values[v].def.unpack() {
            ValueDef::Result(op, _) => self.op_span(op),
            _ => self.arg_spans.get(&v).copied(),
        }
    }

    /// Sets the span of a block argument (results take their op's span; for them this
    /// does nothing).
    pub fn set_value_span(&mut self, v: Value, span: Option<Span>) {
        if matches!(self.values[v].def.unpack(), ValueDef::Result(..)) {
            return;
        }
        match span {
            Some(s) => {
                self.arg_spans.insert(v, s);
            }
            None => {
                self.arg_spans.remove(&v);
            }
        }
    }

    /// The `loc(...)` of a block argument.
    pub fn value_loc(&self, v: Value) -> Option<Attr> {
        self.extras.value_locs.get(&v).copied()
    }

    /// Sets the `loc(...)` of a block argument.
    pub fn set_value_loc(&mut self, v: Value, loc: Option<Attr>) {
        match loc {
            Some(l) => {
                self.extras.value_locs.insert(v, l);
            }
            None => {
                self.extras.value_locs.remove(&v);
            }
        }
    }

    /// Creates a placeholder value (for forward references while parsing).
    pub fn create_placeholder(&mut self, ty: Type) -> Value {
        self.values.push(ValueData {
            ty,
            def: PackedDef::pack(ValueDef::Placeholder),
            first_use: None.into(),
        })
    }

    // ------------------------------------------------------------------ blocks and regions

    /// Creates a block at the end of a region.
    pub fn append_block(&mut self, region: Region) -> Block {
        let b = self.blocks.push(BlockData {
            region: region.into(),
            ..BlockData::default()
        });
        self.regions[region].blocks.push(b, &mut self.block_pool);
        b
    }

    /// Adds an argument to a block.
    pub fn append_block_arg(&mut self, block: Block, ty: Type) -> Value {
        let idx = self.blocks[block].args.len(&self.value_pool) as u32;
        let v = self.values.push(ValueData {
            ty,
            def: PackedDef::pack(ValueDef::Arg(block, idx)),
            first_use: None.into(),
        });
        self.blocks[block].args.push(v, &mut self.value_pool);
        v
    }

    /// Arguments of a block.
    pub fn block_args(&self, block: Block) -> &[Value] {
        self.blocks[block].args.as_slice(&self.value_pool)
    }

    /// Ops of a block, in order.
    pub fn block_ops(&self, block: Block) -> impl Iterator<Item = Op> + '_ {
        let mut cur = self.blocks[block].first.expand();
        std::iter::from_fn(move || {
            let op = cur?;
            cur = self.ops[op].next.expand();
            Some(op)
        })
    }

    /// First op of a block.
    pub fn first_op(&self, block: Block) -> Option<Op> {
        self.blocks[block].first.expand()
    }

    /// Last op of a block.
    pub fn last_op(&self, block: Block) -> Option<Op> {
        self.blocks[block].last.expand()
    }

    /// The region containing a block (`None` for the top-level block).
    pub fn block_region(&self, block: Block) -> Option<Region> {
        self.blocks[block].region.expand()
    }

    /// The op owning the region that contains a block.
    pub fn block_parent_op(&self, block: Block) -> Option<Op> {
        self.regions[self.blocks[block].region.expand()?]
            .parent
            .expand()
    }

    /// Creates a region that belongs to no op yet (the parser creates regions before the op
    /// that owns them); attach it with [`Module::attach_region`].
    pub fn create_region(&mut self) -> Region {
        self.regions.push(RegionData::default())
    }

    /// Appends a detached region to an op's regions.
    pub fn attach_region(&mut self, op: Op, region: Region) {
        self.regions[region].parent = op.into();
        self.ops[op].regions.push(region, &mut self.region_pool);
    }

    /// Swaps two regions of an op (e.g. the branches of an `if`).
    pub fn swap_regions(&mut self, op: Op, i: usize, j: usize) {
        self.ops[op]
            .regions
            .as_mut_slice(&mut self.region_pool)
            .swap(i, j);
    }

    /// Moves all blocks of `from` to the end of `to`.
    pub fn move_region_blocks(&mut self, from: Region, to: Region) {
        let blocks = self.region_blocks(from).to_vec();
        self.regions[from].blocks.clear(&mut self.block_pool);
        for b in blocks {
            self.blocks[b].region = to.into();
            self.regions[to].blocks.push(b, &mut self.block_pool);
        }
    }

    /// Erases a block: its ops (innermost and last first) and its place in its region.
    pub fn erase_block(&mut self, block: Block) {
        let ops: Vec<Op> = self.block_ops(block).collect();
        for o in ops.into_iter().rev() {
            self.erase_op(o);
        }
        if let Some(r) = self.blocks[block].region.expand() {
            let list = &mut self.regions[r].blocks;
            if let Some(i) = list
                .as_slice(&self.block_pool)
                .iter()
                .position(|b| *b == block)
            {
                list.remove(i, &mut self.block_pool);
            }
            self.blocks[block].region = None.into();
        }
    }

    /// Blocks of a region.
    pub fn region_blocks(&self, region: Region) -> &[Block] {
        self.regions[region].blocks.as_slice(&self.block_pool)
    }

    /// The op owning a region.
    pub fn region_parent(&self, region: Region) -> Option<Op> {
        self.regions[region].parent.expand()
    }

    /// The first block of a region, if it has one.
    pub fn entry_block(&self, region: Region) -> Option<Block> {
        self.region_blocks(region).first().copied()
    }

    /// Visits all ops in pre-order (an op before the ops of its regions).
    pub fn walk(&self, mut f: impl FnMut(Op)) {
        fn rec(m: &Module, b: Block, f: &mut dyn FnMut(Op)) {
            for op in m.block_ops(b) {
                f(op);
                for &r in m.regions(op) {
                    for &b in m.region_blocks(r) {
                        rec(m, b, f);
                    }
                }
            }
        }
        rec(self, self.body, &mut f);
    }

    /// Visits the ops nested in `op` (not `op` itself) in pre-order.
    pub fn walk_op(&self, op: Op, f: &mut dyn FnMut(Op)) {
        for &r in self.regions(op) {
            for &b in self.region_blocks(r) {
                let mut cur = self.first_op(b);
                while let Some(o) = cur {
                    f(o);
                    self.walk_op(o, f);
                    cur = self.next_op(o);
                }
            }
        }
    }

    /// Counts the live ops (those reachable from the top-level block).
    pub fn count_ops(&self) -> usize {
        let mut n = 0;
        self.walk(|_| n += 1);
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn constant(m: &mut Module, at: InsertPoint) -> Op {
        let t = m.ctx.types.scalar(Type::I32);
        m.create_op(
            &OpSpec {
                opcode: Opcode::Constant,
                operands: &[],
                results: &[t],
                attrs: &[],
                regions: 0,
            },
            at,
        )
    }

    #[test]
    fn attribute_spans_in_any_order() {
        let mut m = Module::new();
        let body = m.body();
        let a = constant(&mut m, InsertPoint::End(body));
        let b = constant(&mut m, InsertPoint::End(body));
        m.set_attr_span(b, 1, Span::new(30, 40));
        m.set_attr_span(a, 0, Span::new(1, 2));
        m.set_attr_span(b, 0, Span::new(20, 25));
        m.set_attr_span(a, 0, Span::new(3, 4));
        assert_eq!(m.attr_span(a, 0), Some(Span::new(3, 4)));
        assert_eq!(m.attr_span(b, 0), Some(Span::new(20, 25)));
        assert_eq!(m.attr_span(b, 1), Some(Span::new(30, 40)));
        assert_eq!(m.attr_span(a, 1), None);
    }

    #[test]
    fn layout_and_uses() {
        let mut m = Module::new();
        let body = m.body();
        let a = constant(&mut m, InsertPoint::End(body));
        let b = constant(&mut m, InsertPoint::End(body));
        let t = m.value_type(m.result(a, 0));
        let va = m.result(a, 0);
        let vb = m.result(b, 0);
        let add = m.create_op(
            &OpSpec {
                opcode: Opcode::AddI,
                operands: &[va, va],
                results: &[t],
                attrs: &[],
                regions: 0,
            },
            InsertPoint::End(body),
        );
        assert_eq!(m.block_ops(body).collect::<Vec<_>>(), vec![a, b, add]);
        assert_eq!(m.num_uses(va), 2);
        assert!(!m.has_uses(vb));
        m.replace_all_uses(va, vb);
        assert_eq!(m.num_uses(vb), 2);
        assert!(!m.has_uses(va));
        assert_eq!(m.operand_vec(add), vec![vb, vb]);
        m.erase_op(a);
        assert_eq!(m.block_ops(body).collect::<Vec<_>>(), vec![b, add]);
        let c = constant(&mut m, InsertPoint::Before(add));
        assert_eq!(m.block_ops(body).collect::<Vec<_>>(), vec![b, c, add]);
        m.set_operand(add, 1, m.result(c, 0));
        assert_eq!(m.num_uses(vb), 1);
        m.erase_op(add);
        assert!(!m.has_uses(vb));
        assert_eq!(m.count_ops(), 2);
    }

    #[test]
    fn attribute_slots() {
        let mut m = Module::new();
        let body = m.body();
        let op = constant(&mut m, InsertPoint::End(body));
        assert_eq!(m.attr(op, 0), None);
        m.set_attr(op, 0, Some(Attr::UNIT));
        assert_eq!(m.attr(op, 0), Some(Attr::UNIT));
        m.set_attr(op, 0, None);
        assert_eq!(m.attr(op, 0), None);
    }
}

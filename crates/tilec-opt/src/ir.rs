//! Small queries on the IR shared by the folds, patterns and passes.

use tilec_ir::attrs::{AttrData, DenseElements};
use tilec_ir::ops::{Effects, Traits};
use tilec_ir::{Block, Module, Op, Opcode, TypeData, Value};

/// The dense payload of a value defined by `constant`.
pub fn dense(m: &Module, v: Value) -> Option<&DenseElements> {
    let op = m.defining_op(v)?;
    if m.opcode(op) != Opcode::Constant {
        return None;
    }
    match m.ctx.attrs.get(m.attr(op, 0)?) {
        AttrData::Dense(d) => Some(d),
        _ => None,
    }
}

/// The case of the enum attribute in slot `slot` of `op`, if present and of that kind.
pub fn enum_case(m: &Module, op: Op, slot: usize, kind: tilec_ir::EnumKind) -> Option<u8> {
    m.ctx.attrs.get_enum(m.attr(op, slot)?, kind)
}

/// The element value of a constant whose elements are all equal.
pub fn splat_bits(m: &Module, v: Value) -> Option<u64> {
    let d = dense(m, v)?;
    let first = *d.values.first()?;
    (d.splat || d.values.iter().all(|x| *x == first)).then_some(first)
}

/// True if `v` is a constant `i1` tile whose elements are all `b`.
pub fn is_bool_const(m: &Module, v: Value, b: bool) -> bool {
    is_i1(m, v) && splat_bits(m, v).map(|x| x & 1 == 1) == Some(b)
}

/// The value of an `i1` constant whose elements are all equal.
pub fn bool_const(m: &Module, v: Value) -> Option<bool> {
    if !is_i1(m, v) {
        return None;
    }
    splat_bits(m, v).map(|x| x & 1 == 1)
}

/// True if `v` is a tile of `i1`.
pub fn is_i1(m: &Module, v: Value) -> bool {
    let t = m.value_type(v);
    m.ctx.types.is_tile(t) && m.ctx.types.element_type(t) == tilec_ir::Type::I1
}

/// True if `v` is a rank-0 tile.
pub fn is_rank0_tile(m: &Module, v: Value) -> bool {
    matches!(m.ctx.types.get(m.value_type(v)), TypeData::Tile { shape, .. } if shape.is_empty())
}

/// True if `v` is a tile (of any rank).
pub fn is_tile(m: &Module, v: Value) -> bool {
    matches!(m.ctx.types.get(m.value_type(v)), TypeData::Tile { .. })
}

/// The op defining `v`, if it has the given opcode.
pub fn def_with(m: &Module, v: Value, opcode: Opcode) -> Option<Op> {
    m.defining_op(v).filter(|op| m.opcode(*op) == opcode)
}

/// For `xori(x, true)` (the boolean negation NVIDIA's frontends emit), returns `x`.
pub fn negated(m: &Module, v: Value) -> Option<Value> {
    let x = def_with(m, v, Opcode::XOrI)?;
    is_bool_const(m, m.operand(x, 1), true).then(|| m.operand(x, 0))
}

/// The single block of region `i` of `op`, if it has one.
pub fn region_block(m: &Module, op: Op, i: usize) -> Option<Block> {
    m.regions(op).get(i).and_then(|r| m.entry_block(*r))
}

/// The terminator (last op) of a block.
pub fn terminator(m: &Module, b: Block) -> Option<Op> {
    m.last_op(b)
}

/// The yield ending a block, if the block ends in one.
pub fn yield_of(m: &Module, b: Block) -> Option<Op> {
    terminator(m, b).filter(|t| m.opcode(*t) == Opcode::Yield)
}

/// True for terminators that leave the enclosing `if` for an outer op
/// (`return`, `break`, `continue`).
pub fn is_exit(m: &Module, op: Op) -> bool {
    matches!(
        m.opcode(op),
        Opcode::Return | Opcode::Break | Opcode::Continue
    )
}

/// True if `v` is defined inside one of `op`'s regions (at any depth).
pub fn defined_inside(m: &Module, v: Value, op: Op) -> bool {
    let block = match m.value_def(v) {
        tilec_ir::ValueDef::Result(d, _) => m.op_block(d),
        tilec_ir::ValueDef::Arg(b, _) => Some(b),
        tilec_ir::ValueDef::Placeholder => None,
    };
    let mut cur = block.and_then(|b| m.block_parent_op(b));
    while let Some(p) = cur {
        if p == op {
            return true;
        }
        cur = m.parent_op(p);
    }
    false
}

/// True if `user` is nested (at any depth) inside region `i` of `op`.
pub fn nested_in_region(m: &Module, user: Op, op: Op, i: usize) -> bool {
    let Some(&region) = m.regions(op).get(i) else {
        return false;
    };
    let mut block = m.op_block(user);
    while let Some(b) = block {
        if m.block_region(b) == Some(region) {
            return true;
        }
        block = m.block_parent_op(b).and_then(|p| m.op_block(p));
    }
    false
}

/// True for token-ordered memory operations (loads, stores, atomics, barriers): the ops
/// canonicalization must never reorder, duplicate or erase.
pub fn is_token_ordered(m: &Module, op: Op) -> bool {
    matches!(
        m.def(op).effects,
        Effects::Read | Effects::Write | Effects::ReadWrite
    )
}

/// True if `op` is or contains a token-ordered memory operation.
pub fn contains_token_ordered(m: &Module, op: Op) -> bool {
    if is_token_ordered(m, op) {
        return true;
    }
    m.regions(op).iter().any(|r| {
        m.region_blocks(*r)
            .iter()
            .any(|b| m.block_ops(*b).any(|o| contains_token_ordered(m, o)))
    })
}

/// True if any op from `first` to the end of its block is or contains a token-ordered
/// memory operation.
pub fn tail_has_token_ordered(m: &Module, first: Option<Op>) -> bool {
    let mut cur = first;
    while let Some(o) = cur {
        if contains_token_ordered(m, o) {
            return true;
        }
        cur = m.next_op(o);
    }
    false
}

/// True if a block contains a token-ordered memory operation.
pub fn block_has_token_ordered(m: &Module, b: Option<Block>) -> bool {
    b.is_some_and(|b| tail_has_token_ordered(m, m.first_op(b)))
}

/// The nearest enclosing function-like op (entry or testing function).
pub fn function_of(m: &Module, op: Op) -> Option<Op> {
    let mut cur = Some(op);
    while let Some(o) = cur {
        if m.def(o).has(Traits::FUNCTION) {
            return Some(o);
        }
        cur = m.parent_op(o);
    }
    None
}

/// True if an op without used results can be erased: pure ops, and `if`/`for` ops whose
/// regions contain only such ops and terminators that stay inside them. `loop` is kept (it
/// may not terminate) and so is everything with memory or other side effects.
pub fn is_trivially_dead(m: &Module, op: Op) -> bool {
    let def = m.def(op);
    if def.has(Traits::TERMINATOR) || m.results(op).any(|r| m.has_uses(r)) {
        return false;
    }
    if def.has(Traits::PURE) {
        return true;
    }
    if matches!(m.opcode(op), Opcode::If | Opcode::For) {
        let depth = usize::from(m.opcode(op) == Opcode::For);
        return regions_removable(m, op, depth);
    }
    false
}

fn regions_removable(m: &Module, op: Op, loops: usize) -> bool {
    m.regions(op).iter().all(|r| {
        m.region_blocks(*r).iter().all(|b| {
            m.block_ops(*b).all(|o| match m.opcode(o) {
                Opcode::Yield => true,
                Opcode::Continue | Opcode::Break => loops > 0,
                Opcode::If => regions_removable(m, o, loops),
                Opcode::For => regions_removable(m, o, loops + 1),
                _ => m.def(o).has(Traits::PURE) && m.regions(o).is_empty(),
            })
        })
    })
}

/// The name of the op owning the block `b`, for terminator-parent checks.
pub fn block_owner_name(m: &Module, b: Block) -> Option<&'static str> {
    m.block_parent_op(b).map(|p| m.def(p).name)
}

/// True if terminator `term` may end block `b` (its op table `parents` list names the op
/// owning `b`).
pub fn terminator_allowed_in(m: &Module, term: Op, b: Block) -> bool {
    block_owner_name(m, b).is_some_and(|n| m.def(term).parents.contains(&n))
}

/// A deep copy of `op` (with its regions) at `at`: operands are looked up in `map` (values
/// not in it are kept), and the copy's results and block arguments are added to it.
/// Attributes, discardable attributes, spelling, span and `loc` are kept (MLIR's
/// `Operation::clone` with an `IRMapping`).
pub fn clone_op(
    m: &mut Module,
    op: Op,
    map: &mut tilec_ir::util::FxHashMap<Value, Value>,
    at: tilec_ir::InsertPoint,
) -> Op {
    let operands: Vec<Value> = m
        .operands(op)
        .map(|v| map.get(&v).copied().unwrap_or(v))
        .collect();
    let results: Vec<tilec_ir::Type> = m.results(op).map(|r| m.value_type(r)).collect();
    let attrs: Vec<Option<tilec_ir::Attr>> =
        (0..m.def(op).attrs.len()).map(|i| m.attr(op, i)).collect();
    let regions = m.regions(op).to_vec();
    let copy = m.create_op(
        &tilec_ir::OpSpec {
            opcode: m.opcode(op),
            operands: &operands,
            results: &results,
            attrs: &attrs,
            regions: regions.len(),
        },
        at,
    );
    for (k, a) in m.extra_attrs(op).to_vec() {
        m.push_extra_attr(copy, &k, a);
    }
    if let Some(name) = m.unregistered_name(op).map(str::to_owned) {
        m.set_unregistered_name(copy, &name);
    }
    m.set_spelling(copy, m.spelling(op));
    m.set_written_generic(copy, m.written_generic(op));
    m.set_op_span(copy, m.op_span(op));
    m.set_op_loc(copy, m.op_loc(op));
    for (r, c) in m.results(op).zip(m.results(copy)) {
        map.insert(r, c);
    }
    for (i, r) in regions.into_iter().enumerate() {
        let to = m.region(copy, i);
        for b in m.region_blocks(r).to_vec() {
            let nb = m.append_block(to);
            for a in m.block_args(b).to_vec() {
                let na = m.append_block_arg(nb, m.value_type(a));
                m.set_value_loc(na, m.value_loc(a));
                map.insert(a, na);
            }
            let ops: Vec<Op> = m.block_ops(b).collect();
            for o in ops {
                clone_op(m, o, map, tilec_ir::InsertPoint::End(nb));
            }
        }
    }
    copy
}

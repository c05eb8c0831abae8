//! The eight rewrite patterns of `cuda_tile.if` (canonicalizers-and-folds.md, "IfOp
//! Canonicalization Pattern Set"). Each returns true if it rewrote the op.
//!
//! Region rewrites never reorder, duplicate or erase a token-ordered memory operation: a
//! pattern that would drop a branch or unreachable code containing one does not apply.

use crate::ir;
use crate::rewriter::Rewriter;
use tilec_ir::{Block, Op, Opcode, Type, Value};
use tilec_verify::Personality;

fn then_block(rw: &Rewriter<'_>, op: Op) -> Option<Block> {
    ir::region_block(rw.m, op, 0)
}

fn else_block(rw: &Rewriter<'_>, op: Op) -> Option<Block> {
    ir::region_block(rw.m, op, 1)
}

fn yield_operands(rw: &Rewriter<'_>, b: Option<Block>) -> Option<Vec<Value>> {
    let y = ir::yield_of(rw.m, b?)?;
    Some(rw.m.operand_vec(y))
}

fn result_types(rw: &Rewriter<'_>, op: Op) -> Vec<Type> {
    rw.m.results(op).map(|r| rw.m.value_type(r)).collect()
}

/// RemoveUnusedResults: an `if` with unused results is rebuilt with the used ones only.
pub fn remove_unused_results(rw: &mut Rewriter<'_>, op: Op) -> bool {
    let m = &*rw.m;
    let results: Vec<Value> = m.results(op).collect();
    let used: Vec<usize> = (0..results.len())
        .filter(|i| m.has_uses(results[*i]))
        .collect();
    if used.len() == results.len() {
        return false;
    }
    let types: Vec<Type> = used.iter().map(|i| m.value_type(results[*i])).collect();
    let cond = m.operand(op, 0);
    let new = rw.create_if(cond, &types, op, op);
    for i in 0..2 {
        let (from, to) = (rw.m.region(op, i), rw.m.region(new, i));
        rw.m.move_region_blocks(from, to);
        if let Some(b) = rw.m.entry_block(to)
            && let Some(y) = ir::yield_of(rw.m, b)
        {
            for k in (0..results.len()).rev() {
                if !used.contains(&k) {
                    rw.m.remove_operand(y, k);
                }
            }
            rw.modified(y);
        }
    }
    for (j, &i) in used.iter().enumerate() {
        let to = rw.m.result(new, j);
        rw.replace_value(results[i], to);
    }
    rw.erase(op);
    true
}

/// ReplaceYieldWithValue: a result that both branches yield as the same value is that
/// value. When one branch leaves the parent (return, break, continue), the other branch's
/// yielded value is the result wherever execution continues after the `if`, so a value
/// defined above the `if` replaces the result too.
pub fn replace_yield_with_value(rw: &mut Rewriter<'_>, op: Op) -> bool {
    let m = &*rw.m;
    if m.num_results(op) == 0 {
        return false;
    }
    let (tb, eb) = (then_block(rw, op), else_block(rw, op));
    let (ty, ey) = (yield_operands(rw, tb), yield_operands(rw, eb));
    let t_exits = tb
        .and_then(|b| ir::terminator(m, b))
        .is_some_and(|t| ir::is_exit(m, t));
    let e_exits = eb
        .and_then(|b| ir::terminator(m, b))
        .is_some_and(|t| ir::is_exit(m, t));
    let mut replaced = false;
    for i in 0..m.num_results(op) {
        let r = rw.m.result(op, i);
        if !rw.m.has_uses(r) {
            continue;
        }
        let m = &*rw.m;
        let v = match (&ty, &ey) {
            (Some(t), Some(e)) if t[i] == e[i] => Some(t[i]),
            (Some(t), None) if e_exits && !ir::defined_inside(m, t[i], op) => Some(t[i]),
            (None, Some(e)) if t_exits && !ir::defined_inside(m, e[i], op) => Some(e[i]),
            _ => None,
        };
        if let Some(v) = v {
            rw.replace_value(r, v);
            replaced = true;
        }
    }
    if replaced {
        rw.modified(op);
    }
    replaced
}

/// RemoveStaticCondition: an `if` on a constant condition becomes the chosen branch's
/// contents. If that branch ends in `return`/`break`/`continue`, the terminator moves into
/// the parent block and the now unreachable rest of the block is erased.
pub fn remove_static_condition(rw: &mut Rewriter<'_>, op: Op) -> bool {
    let m = &*rw.m;
    let Some(b) = ir::bool_const(m, m.operand(op, 0)) else {
        return false;
    };
    let (chosen, dropped) = if b {
        (then_block(rw, op), else_block(rw, op))
    } else {
        (else_block(rw, op), then_block(rw, op))
    };
    if ir::block_has_token_ordered(m, dropped) {
        return false;
    }
    let Some(chosen) = chosen else {
        // `if false` without an else branch (and so without results): nothing runs.
        rw.erase(op);
        return true;
    };
    let Some(term) = ir::terminator(m, chosen) else {
        return false;
    };
    if ir::is_exit(m, term) {
        let parent = m.op_block(op).expect("attached");
        if !ir::terminator_allowed_in(m, term, parent)
            || ir::tail_has_token_ordered(m, m.next_op(op))
        {
            return false;
        }
        rw.move_block_ops_before(chosen, op, true);
        rw.erase_tail(op);
        return true;
    }
    let values = rw.m.operand_vec(term);
    rw.move_block_ops_before(chosen, op, false);
    rw.replace_op(op, &values);
    true
}

/// ConvertToSelect: results whose yielded values are both defined above the `if` become
/// `select`s on the condition. Rank-0 tiles are converted; tokens stay branches, and so do
/// bigger tiles except in NVIDIA's 13.3 (`minor` >= 3 in the cuda-tile-opt personality),
/// which reshapes the condition to rank 1s and broadcasts it to the tile's shape first. In
/// the spec's personality both branches must consist of the yield alone and every result
/// converts; the cuda-tile-opt personality converts the results it can and keeps an `if`
/// for the others.
pub fn convert_to_select(
    rw: &mut Rewriter<'_>,
    op: Op,
    personality: Personality,
    minor: u8,
) -> bool {
    let any_tile = personality == Personality::CudaTileOpt && minor >= 3;
    let m = &*rw.m;
    let n = m.num_results(op);
    if n == 0 {
        return false;
    }
    let (Some(tb), Some(eb)) = (then_block(rw, op), else_block(rw, op)) else {
        return false;
    };
    let (Some(ty), Some(ey)) = (yield_operands(rw, Some(tb)), yield_operands(rw, Some(eb))) else {
        return false;
    };
    let hoistable: Vec<bool> = (0..n)
        .map(|i| {
            !ir::defined_inside(m, ty[i], op)
                && !ir::defined_inside(m, ey[i], op)
                && (ir::is_rank0_tile(m, ty[i]) || (any_tile && ir::is_tile(m, ty[i])))
        })
        .collect();
    match personality {
        Personality::Spec => {
            let yield_only = |b| m.first_op(b) == m.last_op(b);
            if !hoistable.iter().all(|h| *h) || !yield_only(tb) || !yield_only(eb) {
                return false;
            }
        }
        Personality::CudaTileOpt => {
            if !hoistable.iter().any(|h| *h) {
                return false;
            }
        }
    }
    let cond = m.operand(op, 0);
    let keep_types: Vec<Type> = (0..n)
        .filter(|i| !hoistable[*i])
        .map(|i| m.value_type(ty[i]))
        .collect();
    let new = rw.create_if(cond, &keep_types, op, op);
    for i in 0..2 {
        let (from, to) = (rw.m.region(op, i), rw.m.region(new, i));
        rw.m.move_region_blocks(from, to);
    }
    let mut results = Vec::with_capacity(n);
    let mut kept = 0;
    for i in 0..n {
        if !hoistable[i] {
            results.push(rw.m.result(new, kept));
            kept += 1;
        } else if ty[i] == ey[i] {
            results.push(ty[i]);
        } else {
            let t = rw.m.value_type(ty[i]);
            let shape = rw.m.ctx.types.shape(t).to_vec();
            // A tile condition of the values' shape: reshape to 1x...x1, then broadcast.
            let c = if shape.is_empty() {
                cond
            } else {
                let ones = vec![1; shape.len()];
                let t1 = rw.m.ctx.types.tile(&ones, Type::I1);
                let tn = rw.m.ctx.types.tile(&shape, Type::I1);
                let r = rw.create_simple(Opcode::Reshape, &[cond], t1, new);
                rw.create_simple(Opcode::Broadcast, &[r], tn, new)
            };
            results.push(rw.create_simple(Opcode::Select, &[c, ty[i], ey[i]], t, new));
        }
    }
    for b in [tb, eb] {
        let y = ir::yield_of(rw.m, b).expect("checked above");
        for i in (0..n).rev() {
            if hoistable[i] {
                rw.m.remove_operand(y, i);
            }
        }
        rw.modified(y);
    }
    rw.replace_op(op, &results);
    true
}

/// RemoveEmptyElseBranch: an else branch that only yields nothing is dropped.
pub fn remove_empty_else_branch(rw: &mut Rewriter<'_>, op: Op) -> bool {
    let m = &*rw.m;
    if m.num_results(op) != 0 {
        return false;
    }
    let Some(eb) = else_block(rw, op) else {
        return false;
    };
    match ir::yield_of(m, eb) {
        Some(y) if m.first_op(eb) == Some(y) && m.num_operands(y) == 0 => {}
        _ => return false,
    }
    rw.m.erase_block(eb);
    rw.modified(op);
    true
}

/// Uses of `prev`'s results inside region `i` of `next` take the values `prev`'s branch
/// `i` yields (the merged branch computes them first).
fn forward_into(rw: &mut Rewriter<'_>, prev: Op, next: Op, i: usize, yielded: &[Value]) {
    for (k, &y) in yielded.iter().enumerate() {
        let r = rw.m.result(prev, k);
        let users: Vec<Op> = rw.m.users(r).collect();
        for u in users {
            if !ir::nested_in_region(rw.m, u, next, i) {
                continue;
            }
            for j in 0..rw.m.num_operands(u) {
                if rw.m.operand(u, j) == r {
                    rw.set_operand(u, j, y);
                }
            }
        }
    }
}

/// Appends branch `second` to the merged branch `merged` (which holds the first `if`'s
/// branch): concatenates the ops and the yield lists. If the first branch leaves the parent,
/// the second one is unreachable and dropped; if the second one leaves, the first one's
/// yield is dropped.
fn merge_branch(rw: &mut Rewriter<'_>, merged: Block, second: Option<Block>, like: Op) {
    let m = &*rw.m;
    let Some(first_yield) = ir::yield_of(m, merged) else {
        return; // The first branch leaves: the second one never runs here.
    };
    let Some(second) = second else {
        return; // Nothing to add (the second `if` has no results).
    };
    let mut values = rw.m.operand_vec(first_yield);
    rw.erase(first_yield);
    let second_yield = ir::yield_of(rw.m, second);
    if let Some(y) = second_yield {
        values.extend(rw.m.operand_vec(y));
        rw.erase(y);
    }
    rw.append_block_ops(second, merged);
    if second_yield.is_some() {
        rw.create_yield(&values, merged, like);
    }
}

/// CombineIfs: `next` and the `if` right before it test the same SSA value: they become one
/// `if` whose branches are the concatenations and whose results are the first's followed by
/// the second's.
pub fn combine_ifs(rw: &mut Rewriter<'_>, next: Op) -> bool {
    let m = &*rw.m;
    let Some(prev) = m.prev_op(next) else {
        return false;
    };
    if m.opcode(prev) != Opcode::If || m.operand(prev, 0) != m.operand(next, 0) {
        return false;
    }
    let (t1, e1) = (then_block(rw, prev), else_block(rw, prev));
    let (t2, e2) = (then_block(rw, next), else_block(rw, next));
    let exits = |b: Option<Block>| {
        b.and_then(|b| ir::terminator(m, b))
            .is_some_and(|t| ir::is_exit(m, t))
    };
    // Code that becomes unreachable must not hold token-ordered memory operations.
    if (exits(t1) && ir::block_has_token_ordered(m, t2))
        || (exits(e1) && ir::block_has_token_ordered(m, e2))
    {
        return false;
    }
    let Some(t1) = t1 else {
        return false;
    };
    if let Some(y) = yield_operands(rw, Some(t1)) {
        forward_into(rw, prev, next, 0, &y);
    }
    if let Some(y) = yield_operands(rw, e1) {
        forward_into(rw, prev, next, 1, &y);
    }
    let mut types = result_types(rw, prev);
    types.extend(result_types(rw, next));
    let cond = rw.m.operand(prev, 0);
    let new = rw.create_if(cond, &types, next, prev);
    let (nt, ne) = (rw.m.region(new, 0), rw.m.region(new, 1));
    let r = rw.m.region(prev, 0);
    rw.m.move_region_blocks(r, nt);
    merge_branch(rw, t1, t2, next);
    match (e1, e2) {
        (None, None) => {}
        (Some(e1), _) => {
            let r = rw.m.region(prev, 1);
            rw.m.move_region_blocks(r, ne);
            merge_branch(rw, e1, e2, next);
        }
        (None, Some(_)) => {
            // The first `if` has no else (and no results): the merged else is the second's.
            let r = rw.m.region(next, 1);
            rw.m.move_region_blocks(r, ne);
        }
    }
    let n1 = rw.m.num_results(prev);
    let merged: Vec<Value> = rw.m.results(new).collect();
    let next_results: Vec<Value> = rw.m.results(next).collect();
    for (k, r) in next_results.into_iter().enumerate() {
        rw.replace_value(r, merged[n1 + k]);
    }
    rw.erase(next);
    let prev_results: Vec<Value> = rw.m.results(prev).collect();
    for (k, r) in prev_results.into_iter().enumerate() {
        rw.replace_value(r, merged[k]);
    }
    rw.erase(prev);
    true
}

/// CombineNestedIfs: `if (a) { r = if (b) {X} else {E}; yield r } else {E}` becomes
/// `if (a && b) {X} else {E}`. Tile IR has no poison, so the pattern requires what makes
/// the rewrite exact: both else branches are absent or only yield, and yield the same
/// values (nothing observable differs when `a` holds and `b` does not).
pub fn combine_nested_ifs(rw: &mut Rewriter<'_>, outer: Op) -> bool {
    let m = &*rw.m;
    let Some(tb) = then_block(rw, outer) else {
        return false;
    };
    let Some(inner) = m.first_op(tb) else {
        return false;
    };
    if m.opcode(inner) != Opcode::If {
        return false;
    }
    let Some(fwd) = m.next_op(inner) else {
        return false;
    };
    if m.opcode(fwd) != Opcode::Yield || m.next_op(fwd).is_some() {
        return false;
    }
    let inner_results: Vec<Value> = m.results(inner).collect();
    if m.operand_vec(fwd) != inner_results || m.num_results(outer) != inner_results.len() {
        return false;
    }
    let yield_only = |b: Option<Block>| match b {
        None => Some(Vec::new()),
        Some(b) => {
            let y = ir::yield_of(m, b)?;
            (m.first_op(b) == Some(y)).then(|| m.operand_vec(y))
        }
    };
    let (Some(outer_else), Some(inner_else)) = (
        yield_only(else_block(rw, outer)),
        yield_only(else_block(rw, inner)),
    ) else {
        return false;
    };
    if outer_else != inner_else {
        return false;
    }
    let (a, b) = (m.operand(outer, 0), m.operand(inner, 0));
    if !ir::is_rank0_tile(m, a) || !ir::is_i1(m, a) || !ir::is_rank0_tile(m, b) || !ir::is_i1(m, b)
    {
        return false;
    }
    let Some(inner_then) = then_block(rw, inner) else {
        return false;
    };
    let ty = m.value_type(a);
    let conj = rw.create_simple(Opcode::AndI, &[a, b], ty, outer);
    rw.set_operand(outer, 0, conj);
    rw.erase(fwd);
    rw.append_block_ops(inner_then, tb);
    rw.erase(inner);
    rw.modified(outer);
    true
}

/// MoveTerminatorToParent: when both branches end in `return` (or `break`/`continue`), the
/// code after the `if` is unreachable: the else branch's contents replace it in the parent
/// block, and the `if` keeps its then branch only.
pub fn move_terminator_to_parent(rw: &mut Rewriter<'_>, op: Op) -> bool {
    let m = &*rw.m;
    let (Some(tb), Some(eb)) = (then_block(rw, op), else_block(rw, op)) else {
        return false;
    };
    let (Some(tt), Some(et)) = (ir::terminator(m, tb), ir::terminator(m, eb)) else {
        return false;
    };
    if !ir::is_exit(m, tt) || !ir::is_exit(m, et) {
        return false;
    }
    let parent = m.op_block(op).expect("attached");
    if !ir::terminator_allowed_in(m, et, parent) || ir::tail_has_token_ordered(m, m.next_op(op)) {
        return false;
    }
    let cond = m.operand(op, 0);
    let new = rw.create_if(cond, &[], op, op);
    let (from, to) = (rw.m.region(op, 0), rw.m.region(new, 0));
    rw.m.move_region_blocks(from, to);
    rw.move_block_ops_before(eb, op, true);
    rw.erase_tail(op);
    true
}

//! The three rewrite patterns of `cuda_tile.select`. They overlap with the select fold but
//! apply where the fold is disabled or skipped (for example after another rewrite turned a
//! condition into a constant).

use crate::ir;
use crate::rewriter::Rewriter;
use tilec_ir::Op;

/// ReplaceConstantSelect: `select(true, a, b)` is `a`; `select(false, a, b)` is `b`.
pub fn replace_constant_select(rw: &mut Rewriter<'_>, op: Op) -> bool {
    let m = &*rw.m;
    let Some(b) = ir::bool_const(m, m.operand(op, 0)) else {
        return false;
    };
    let v = m.operand(op, if b { 1 } else { 2 });
    rw.replace_op(op, &[v]);
    true
}

/// ReplaceIdenticalSelect: `select(c, a, a)` is `a`.
pub fn replace_identical_select(rw: &mut Rewriter<'_>, op: Op) -> bool {
    let m = &*rw.m;
    let (t, f) = (m.operand(op, 1), m.operand(op, 2));
    if t != f {
        return false;
    }
    rw.replace_op(op, &[t]);
    true
}

/// InverseConditionSelect: `select(xori(c, true), a, b)` becomes `select(c, b, a)`.
pub fn inverse_condition_select(rw: &mut Rewriter<'_>, op: Op) -> bool {
    let m = &*rw.m;
    let Some(c) = ir::negated(m, m.operand(op, 0)) else {
        return false;
    };
    let (t, f) = (m.operand(op, 1), m.operand(op, 2));
    rw.set_operand(op, 0, c);
    rw.set_operand(op, 1, f);
    rw.set_operand(op, 2, t);
    true
}

/// SelectI1ToNot (cuda-tile-opt personality): `select(c, false, true)` on `i1` tiles is
/// `xori(c, true)`.
pub fn select_i1_to_not(rw: &mut Rewriter<'_>, op: Op) -> bool {
    let m = &*rw.m;
    let (c, t, f) = (m.operand(op, 0), m.operand(op, 1), m.operand(op, 2));
    if !ir::is_bool_const(m, t, false) || !ir::is_bool_const(m, f, true) {
        return false;
    }
    let ty = m.value_type(c);
    let one = rw.bool_constant(ty, true, op);
    let not = rw.create_simple(tilec_ir::Opcode::XOrI, &[c, one], ty, op);
    rw.replace_op(op, &[not]);
    true
}

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

/// SelectToExtI (NVIDIA's 13.3): `select(c, 1, 0)` on integers wider than `i1` becomes
/// `exti c unsigned`, and `select(c, 0, 1)` `exti (xori c, true) unsigned`.
pub fn select_to_exti(rw: &mut Rewriter<'_>, op: Op) -> bool {
    let m = &*rw.m;
    let (c, t, f) = (m.operand(op, 0), m.operand(op, 1), m.operand(op, 2));
    let ty = m.value_type(m.result(op, 0));
    let elem = m.ctx.types.element_type(ty);
    if !matches!(m.ctx.types.get(elem), tilec_ir::TypeData::Int(w) if *w > 1) {
        return false;
    }
    let splat = |v| ir::dense(m, v).filter(|d| d.splat).map(|d| d.values[0]);
    let negate = match (splat(t), splat(f)) {
        (Some(1), Some(0)) => false,
        (Some(0), Some(1)) => true,
        _ => return false,
    };
    let cty = m.value_type(c);
    let c = if negate {
        let one = rw.bool_constant(cty, true, op);
        rw.create_simple(tilec_ir::Opcode::XOrI, &[c, one], cty, op)
    } else {
        c
    };
    let e = rw.create_simple(tilec_ir::Opcode::ExtI, &[c], ty, op);
    let ext = rw.m.defining_op(e).expect("just created");
    // `unsigned`: the signedness attribute's case 0.
    let unsigned = rw.m.ctx.attrs.intern(tilec_ir::attrs::AttrData::Enum(
        tilec_ir::EnumKind::Signedness,
        0,
    ));
    rw.m.set_attr(ext, 0, Some(unsigned));
    rw.replace_op(op, &[e]);
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

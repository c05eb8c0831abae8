//! Generic, ODS-style verification read from the op table, in the order MLIR's generated
//! verifiers use: slot counts, attributes, operand and result type constraints, region
//! shapes, the declarative [`Check`]s and same-type groups, then terminator placement.
//!
//! Where the spec gives a domain diagnostic for a condition a generic check would catch
//! first, the family's `precheck` runs before the declarative checks in the spec
//! personality, so users of the default mode see the spec's wording.

use crate::{VResult, Verifier};
use tilec_diag::catalog::generic as cat;
use tilec_ir::module::{Op, Value};
use tilec_ir::ops::{Arity, Check, Elems, Opcode, Presence, Slot, Traits, TyC};
use tilec_ir::types::{Type, TypeData};

/// Runs the generic checks of one (registered) op.
pub(crate) fn verify(v: &mut Verifier<'_>, op: Op) -> VResult {
    let m = v.m;
    let def = m.def(op);
    counts(v, op)?;
    if !v.upstream && def.family == tilec_ir::ops::Family::Mma {
        // The spec's verify_mma restates mma's attribute and type constraints in its own
        // words (and order): in the default mode it runs first.
        crate::mma::precheck(v, op)?;
    }
    for (i, a) in def.attrs.iter().enumerate() {
        if a.presence == Presence::Required && m.attr(op, i).is_none() {
            return Err(v.error(op, &cat::MISSING_ATTRIBUTE, &[("name", &a.name)]));
        }
    }
    // An attribute of the wrong kind (possible in the generic form: `permutation =
    // array<i64: ...>`) is refused before anything reads it.
    for (i, a) in def.attrs.iter().enumerate() {
        if let Some(x) = m.attr(op, i)
            && !tilec_ir::ops::conform::attr_fits(a.kind, m.ctx.attrs.get(x))
        {
            let span = v.attr_span(op, a.name);
            let failed = v.error(
                op,
                &cat::ATTRIBUTE_CONSTRAINT,
                &[("name", &a.name), ("constraint", &kind_description(a.kind))],
            );
            v.label(span, format!("'{}' has the wrong kind", a.name));
            return Err(failed);
        }
    }
    for c in def.checks {
        // The spec words a negative reduce/scan dimension as out of range (aggregate.rs).
        let spec_range = !v.upstream && def.family == tilec_ir::ops::Family::Aggregate;
        if let Check::NonNegative(name) = c
            && !spec_range
            && v.int_attr(op, name).is_some_and(|x| x < 0)
        {
            // MLIR reports attribute constraints at the op; the label shows the attribute.
            let span = v.attr_span(op, name);
            let failed = v.error(
                op,
                &cat::ATTRIBUTE_CONSTRAINT,
                &[
                    ("name", name),
                    (
                        "constraint",
                        &"32-bit signless integer attribute whose value is non-negative",
                    ),
                ],
            );
            v.label(span, format!("'{name}' is negative"));
            return Err(failed);
        }
        if let Check::MinValue(name, min) = *c
            && let Some(x) = v.int_attr(op, name)
            && x < min
        {
            let span = v.attr_span(op, name);
            let constraint =
                format!("64-bit signless integer attribute whose minimum value is {min}");
            let failed = v.error(
                op,
                &cat::ATTRIBUTE_CONSTRAINT,
                &[("name", &name), ("constraint", &constraint)],
            );
            v.label(span, format!("'{name}' is {x}"));
            return Err(failed);
        }
    }
    slot_types(v, op)?;
    regions(v, op)?;
    if !v.upstream {
        precheck(v, op)?;
    }
    declared_checks(v, op)?;
    terminator_position(v, op)?;
    parents(v, op)
}

/// The spec-mode domain checks that run before the declarative checks.
fn precheck(v: &mut Verifier<'_>, op: Op) -> VResult {
    use tilec_ir::ops::Family as F;
    match v.m.def(op).family {
        F::FloatArith | F::Integer => crate::arith::precheck(v, op),
        F::Conversion => crate::conversion::precheck(v, op),
        F::TokenMemory | F::Atomics => crate::memory::precheck(v, op),
        F::ControlFlow => crate::control::precheck(v, op),
        F::ViewAndShape => crate::view::precheck(v, op),
        F::Aggregate => crate::aggregate::precheck(v, op),
        F::Mma => Ok(()), // ran before the attribute checks
        F::Assumption | F::Misc => Ok(()),
        // GPU-level ops never come from the parser; tilec-ptx verifies them.
        F::Gpu => Ok(()),
    }
}

fn counts(v: &mut Verifier<'_>, op: Op) -> VResult {
    let m = v.m;
    let def = m.def(op);
    slot_count(v, op, def.operands, m.num_operands(op), &cat::OPERAND_COUNT)?;
    slot_count(v, op, def.results, m.num_results(op), &cat::RESULT_COUNT)?;
    let n = m.regions(op).len();
    if n == 0 && !v.upstream && def.opcode == Opcode::If {
        return Err(v.error(op, &tilec_diag::catalog::control::IF_THEN_REGION, &[]));
    }
    if n != def.regions.len() {
        return Err(v.error(
            op,
            &cat::REGION_COUNT,
            &[("expected", &def.regions.len()), ("found", &n)],
        ));
    }
    Ok(())
}

/// Checks that `n` values fill `slots`: exactly the fixed slots, or at least them when a
/// slot is optional or variadic.
fn slot_count(
    v: &mut Verifier<'_>,
    op: Op,
    slots: &[Slot],
    n: usize,
    e: &'static tilec_diag::codes::CodeInfo,
) -> VResult {
    let fixed = slots.iter().filter(|s| s.arity == Arity::One).count();
    let open = slots.iter().any(|s| s.arity != Arity::One);
    if (!open && n != fixed) || n < fixed {
        let expected = if open {
            format!("{fixed} or more")
        } else {
            fixed.to_string()
        };
        return Err(v.error(op, e, &[("expected", &expected), ("found", &n)]));
    }
    Ok(())
}

fn slot_types(v: &mut Verifier<'_>, op: Op) -> VResult {
    let m = v.m;
    let def = m.def(op);
    let simple = def.operands.iter().all(|s| s.arity == Arity::One);
    if simple {
        for (i, (slot, value)) in def.operands.iter().zip(m.operands(op)).enumerate() {
            check_value(v, op, slot, value, i, false)?;
        }
    } else {
        let ranges = tilec_ir::segments::operand_ranges(m, op);
        for (slot, r) in def.operands.iter().zip(ranges) {
            for i in r {
                check_value(v, op, slot, m.operand(op, i), i, false)?;
            }
        }
    }
    if def.results.iter().all(|s| s.arity == Arity::One) {
        for (i, (slot, value)) in def.results.iter().zip(m.results(op)).enumerate() {
            check_value(v, op, slot, value, i, true)?;
        }
        return Ok(());
    }
    let ranges = tilec_ir::segments::result_ranges(m, op);
    for (slot, r) in def.results.iter().zip(ranges) {
        for i in r {
            check_value(v, op, slot, m.result(op, i), i, true)?;
        }
    }
    Ok(())
}

fn check_value(
    v: &mut Verifier<'_>,
    op: Op,
    slot: &Slot,
    value: Value,
    index: usize,
    result: bool,
) -> VResult {
    let t = v.m.value_type(value);
    if fits(v, slot.ty, t) {
        return Ok(());
    }
    let constraint = describe(v.m.opcode(op), slot, v.minor);
    let ty = v.ty(t);
    let e = if result {
        &cat::RESULT_TYPE
    } else {
        &cat::OPERAND_TYPE
    };
    let span = if result { None } else { v.m.op_span(op) };
    let failed = v.error_at(
        op,
        span,
        e,
        &[
            ("index", &index),
            ("constraint", &constraint),
            ("type", &ty),
        ],
    );
    if !result {
        v.label(v.m.value_span(value), format!("this value has type '{ty}'"));
    }
    Err(failed)
}

/// The element class of an element type.
pub(crate) fn elem_class(v: &Verifier<'_>, elem: Type) -> Option<Elems> {
    Elems::of(v.data(elem))
}

/// MLIR's description of an attribute constraint, for attributes of the wrong kind.
fn kind_description(k: tilec_ir::ops::AttrKind) -> String {
    use tilec_ir::ops::AttrKind as K;
    match k {
        K::Enum(e) => format!("one of {}", e.cases().join(", ")),
        K::Unit => "unit attribute".into(),
        K::Bool => "bool attribute".into(),
        K::I64 => "64-bit signless integer attribute".into(),
        K::I32 => "32-bit signless integer attribute".into(),
        K::String | K::SymbolName => "string attribute".into(),
        K::SymbolRef => "flat symbol reference attribute".into(),
        K::Dense => "dense constant attribute".into(),
        K::TypeAttr => "type attribute of function type".into(),
        K::DictArray => "Array of dictionary attributes".into(),
        K::OptHints => "optimization hints attribute".into(),
        K::AssumePredicate => "assume predicate attribute".into(),
        K::DenseI32Array | K::OperandSegments => "i32 dense array attribute".into(),
        K::Array => "array attribute".into(),
        K::BytecodeTestValue => "bytecode test value attribute".into(),
    }
}

/// True if type `t` satisfies constraint `c`.
pub(crate) fn fits(v: &Verifier<'_>, c: TyC, t: Type) -> bool {
    match c {
        TyC::Any => true,
        TyC::Token => t == Type::TOKEN,
        TyC::TensorView => matches!(v.data(t), TypeData::TensorView { .. }),
        TyC::View => v.m.ctx.types.is_tile_view(t),
        TyC::Tile(set) | TyC::Scalar(set) => match v.data(t) {
            TypeData::Tile { shape, elem, .. } => {
                (matches!(c, TyC::Tile(_)) || shape.is_empty())
                    && elem_class(v, *elem).is_some_and(|e| set.contains(e))
            }
            _ => false,
        },
    }
}

/// NVIDIA's description of a slot's constraint (`tile of f16 or bf16 or f32 or f64
/// values`).
pub(crate) fn describe(opcode: Opcode, slot: &Slot, minor: u8) -> String {
    let elems_list = |e: Elems| e.describe_in(minor);
    let base = match (opcode, slot.name, slot.ty) {
        (Opcode::MmaF, "lhs" | "rhs", TyC::Tile(e)) => {
            format!("mmaf operand tile type of {} values", elems_list(e))
        }
        (Opcode::MmaF, _, TyC::Tile(e)) => {
            format!("mmaf acc/result tile type of {} values", elems_list(e))
        }
        (Opcode::MmaFScaled, "lhs" | "rhs", TyC::Tile(e)) => {
            format!("mmaf_scaled operand tile type of {} values", elems_list(e))
        }
        (Opcode::MmaFScaled, "lhs_scale" | "rhs_scale", TyC::Tile(e)) => {
            format!("mmaf_scaled scale tile type of {} values", elems_list(e))
        }
        (Opcode::MmaFScaled, _, TyC::Tile(e)) => {
            format!("mmaf_scaled result tile type of {} values", elems_list(e))
        }
        (Opcode::MmaI, "lhs" | "rhs", TyC::Tile(e)) => {
            format!("mmai operand tile type of {} values", elems_list(e))
        }
        (Opcode::MmaI, "acc", TyC::Tile(e)) => {
            format!("mmai acc tile type of {} values", elems_list(e))
        }
        (Opcode::MmaI, _, TyC::Tile(e)) => {
            format!("mmai result tile type of {} values", elems_list(e))
        }
        (_, _, TyC::Tile(e)) => format!("tile of {} values", elems_list(e)),
        (_, _, TyC::Scalar(e)) => format!("0D tile of {} values", elems_list(e)),
        (_, _, TyC::Token) => "cuda_tile token type".to_string(),
        (_, _, TyC::TensorView) => "cuda_tile tensor_view type".to_string(),
        (_, _, TyC::View) => "cuda_tile tile view type".to_string(),
        (_, _, TyC::Any) => "any type".to_string(),
    };
    if slot.arity == Arity::Variadic {
        format!("variadic of {base}")
    } else {
        base
    }
}

fn regions(v: &mut Verifier<'_>, op: Op) -> VResult {
    let m = v.m;
    let def = m.def(op);
    for (i, (&r, rd)) in m.regions(op).iter().zip(def.regions).enumerate() {
        let blocks = m.region_blocks(r).len();
        let ok = blocks == 1 || (rd.optional && blocks == 0);
        if !ok {
            return Err(v.error(
                op,
                &cat::REGION_BLOCKS,
                &[("index", &i), ("name", &rd.name)],
            ));
        }
    }
    Ok(())
}

fn declared_checks(v: &mut Verifier<'_>, op: Op) -> VResult {
    let m = v.m;
    let def = m.def(op);
    for c in def.checks {
        match *c {
            Check::SameElementType(slots) => {
                same_by(v, op, slots, &cat::SAME_ELEMENT_TYPE, |v, t| v.elem_of(t))?
            }
            Check::SameRank(slots) => same_by(v, op, slots, &cat::SAME_RANK, |v, t| {
                v.shape(t).len() as u32
            })?,
            Check::SameShape(slots) => {
                same_by(v, op, slots, &cat::SAME_SHAPE, |v, t| v.shape(t).to_vec())?
            }
            Check::SameType(slots) => same_by(v, op, slots, &cat::SAME_TYPE, |_, t| t)?,
            Check::SameOperandsAndResultElementType => all_same(
                v,
                op,
                true,
                &cat::SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE,
                |v, t| v.elem_of(t),
            )?,
            Check::SameOperandsAndResultShape => {
                all_same(v, op, true, &cat::SAME_OPERANDS_AND_RESULT_SHAPE, |v, t| {
                    v.shape(t).to_vec()
                })?
            }
            Check::SameOperandsShape => {
                all_same(v, op, false, &cat::SAME_OPERANDS_SHAPE, |v, t| {
                    v.shape(t).to_vec()
                })?
            }
            Check::NonNegative(_) | Check::MinValue(..) => {}
        }
    }
    for group in def.same_type {
        same_by(v, op, group, &cat::SAME_TYPE, |_, t| t)?;
    }
    if def.has(Traits::SAME_SHAPE)
        && !def
            .checks
            .iter()
            .any(|c| matches!(c, Check::SameOperandsAndResultShape))
    {
        all_same(v, op, true, &cat::SAME_OPERANDS_AND_RESULT_SHAPE, |v, t| {
            v.shape(t).to_vec()
        })?;
    }
    Ok(())
}

/// The types of the values of the named slots (operands and results).
fn slot_values(v: &Verifier<'_>, op: Op, slots: &[&str]) -> Vec<Type> {
    let m = v.m;
    let def = m.def(op);
    // Fast path: every slot holds exactly one value, so slot `i` is value `i`.
    if def.operands.iter().all(|s| s.arity == Arity::One)
        && def.results.iter().all(|s| s.arity == Arity::One)
        && m.num_operands(op) == def.operands.len()
        && m.num_results(op) == def.results.len()
    {
        let mut out = Vec::with_capacity(slots.len());
        for s in slots {
            if let Some(i) = def.operands.iter().position(|d| d.name == *s) {
                out.push(m.value_type(m.operand(op, i)));
            } else if let Some(i) = def.results.iter().position(|d| d.name == *s) {
                out.push(m.value_type(m.result(op, i)));
            }
        }
        return out;
    }
    let mut out = Vec::new();
    for s in slots {
        let vals = v.operands_of(op, s);
        if vals.is_empty() {
            out.extend(v.results_of(op, s).into_iter().map(|x| v.vty(x)));
        } else {
            out.extend(vals.into_iter().map(|x| v.vty(x)));
        }
    }
    out
}

fn same_by<K: PartialEq>(
    v: &mut Verifier<'_>,
    op: Op,
    slots: &[&str],
    e: &'static tilec_diag::codes::CodeInfo,
    key: impl Fn(&Verifier<'_>, Type) -> K,
) -> VResult {
    let types = slot_values(v, op, slots);
    let Some((&first, rest)) = types.split_first() else {
        return Ok(());
    };
    let k0 = key(v, first);
    if rest.iter().all(|&t| key(v, t) == k0) {
        return Ok(());
    }
    let list = slots.join(", ");
    Err(v.error(op, e, &[("slots", &list)]))
}

fn all_same<K: PartialEq>(
    v: &mut Verifier<'_>,
    op: Op,
    with_results: bool,
    e: &'static tilec_diag::codes::CodeInfo,
    key: impl Fn(&Verifier<'_>, Type) -> K,
) -> VResult {
    let m = v.m;
    let mut types = m
        .operands(op)
        .map(|x| m.value_type(x))
        .filter(|&t| t != Type::TOKEN);
    let first = match types.next() {
        Some(t) => t,
        None => return Ok(()),
    };
    let k0 = key(v, first);
    let mut ok = types.all(|t| key(v, t) == k0);
    if ok && with_results {
        ok = m
            .results(op)
            .map(|x| m.value_type(x))
            .filter(|&t| t != Type::TOKEN)
            .all(|t| key(v, t) == k0);
    }
    if ok { Ok(()) } else { Err(v.error(op, e, &[])) }
}

fn terminator_position(v: &mut Verifier<'_>, op: Op) -> VResult {
    let m = v.m;
    let def = m.def(op);
    if def.has(Traits::TERMINATOR) && m.next_op(op).is_some() {
        return Err(v.error(op, &cat::TERMINATOR_NOT_LAST, &[]));
    }
    for (&r, rd) in m.regions(op).iter().zip(def.regions) {
        let Some(expected) = rd.implicit_terminator else {
            continue;
        };
        for &b in m.region_blocks(r) {
            match m.last_op(b) {
                None => return Err(v.error(op, &cat::EMPTY_BLOCK, &[])),
                Some(last)
                    if m.unregistered_name(last).is_none()
                        && m.def(last).has(Traits::TERMINATOR) => {}
                Some(last) => {
                    let exp = format!("cuda_tile.{}", tilec_ir::ops::def(expected).name);
                    let found = v.op_name(last);
                    let failed = v.error(
                        op,
                        &cat::WRONG_TERMINATOR,
                        &[("expected", &exp), ("found", &found)],
                    );
                    v.note(
                        format!(
                            "in custom textual format, the absence of terminator implies '{exp}'"
                        ),
                        None,
                    );
                    return Err(failed);
                }
            }
        }
    }
    Ok(())
}

fn parents(v: &mut Verifier<'_>, op: Op) -> VResult {
    let m = v.m;
    let def = m.def(op);
    if def.parents.is_empty() || def.family == tilec_ir::ops::Family::ControlFlow {
        return Ok(());
    }
    let Some(parent) = m.parent_op(op) else {
        // The top level acts as an implicit module.
        return Ok(());
    };
    let name = m
        .unregistered_name(parent)
        .map(str::to_string)
        .unwrap_or_else(|| m.def(parent).name.to_string());
    if def.parents.contains(&name.as_str()) {
        return Ok(());
    }
    Err(v.error(op, &cat::PARENT, &[("parents", &parent_list(def))]))
}

/// `cuda_tile.for, cuda_tile.if`: the op table's allowed parents, as messages list them.
pub(crate) fn parent_list(def: &tilec_ir::OpDef) -> String {
    let list: Vec<String> = def
        .parents
        .iter()
        .map(|p| format!("cuda_tile.{p}"))
        .collect();
    list.join(", ")
}

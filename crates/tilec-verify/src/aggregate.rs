//! reduce and scan (`verify_aggregate` and the block-structure rules).
//!
//! Checks, in the spec's order: inputs and results, the reduction dimension, the
//! identities, the result types (reduce drops `dim`, scan keeps the input type), then the
//! body: a non-empty block ending in `yield`, two rank-0 tile arguments per input whose
//! element types agree with the input, only pure ops on rank-0 tiles, and a `yield` of one
//! rank-0 value per input. NVIDIA's verifier checks the identities before the dimension and the yield before
//! purity; the compat personality follows that order.

use crate::control::quoted_list;
use crate::{VResult, Verifier};
use tilec_diag::catalog::aggregate as cat;
use tilec_diag::catalog::generic as gen_cat;
use tilec_ir::attrs::AttrData;
use tilec_ir::module::{Block, Op};
use tilec_ir::ops::{Effects, Opcode, Traits};
use tilec_ir::types::{Type, TypeData};

/// Checks one op of this family.
pub(crate) fn verify(v: &mut Verifier<'_>, op: Op) -> VResult {
    let m = v.m;
    let operands: Vec<Type> = m.operands(op).map(|x| m.value_type(x)).collect();
    let results: Vec<Type> = m.results(op).map(|x| m.value_type(x)).collect();
    let body = m.regions(op).first().and_then(|&r| m.entry_block(r));
    if v.upstream && body.is_some_and(|b| m.last_op(b).is_none()) {
        // MLIR checks that blocks end in a terminator before the op's own checks.
        return Err(v.error(op, &gen_cat::EMPTY_BLOCK, &[]));
    }
    if operands.is_empty() {
        return Err(v.error(op, &cat::NO_INPUT, &[]));
    }
    if operands.len() != results.len() {
        return Err(v.error(op, &cat::RESULT_COUNT, &[]));
    }
    if v.upstream {
        identities(v, op, &operands)?;
        dim(v, op, &operands)?;
    } else {
        dim(v, op, &operands)?;
        identities(v, op, &operands)?;
    }
    result_types(v, op, &operands, &results)?;
    let Some(body) = body else {
        return Ok(());
    };
    let Some(term) = m.last_op(body) else {
        return Err(v.error(op, &gen_cat::EMPTY_BLOCK, &[]));
    };
    if m.unregistered_name(term).is_some() || m.opcode(term) != Opcode::Yield {
        if m.unregistered_name(term).is_none() && m.def(term).has(Traits::TERMINATOR) {
            // Another terminator: it reports its own placement.
            return Ok(());
        }
        let found = v.op_name(term);
        return Err(v.error(
            op,
            &gen_cat::WRONG_TERMINATOR,
            &[("expected", &"cuda_tile.yield"), ("found", &found)],
        ));
    }
    block_args(v, op, body, &operands)?;
    if v.upstream {
        yields(v, op, body, term, &operands)?;
        purity(v, op, body)
    } else {
        purity(v, op, body)?;
        body_ranks(v, op, body, term)?;
        yields(v, op, body, term, &operands)
    }
}

/// Spec-personality checks that run before the declarative op-table checks, so that the
/// spec's wording wins where a generic check would catch the same problem.
pub(crate) fn precheck(v: &mut Verifier<'_>, op: Op) -> VResult {
    let _ = (v, op);
    Ok(())
}

/// `dim` within the rank of the inputs (negative values fail the generic checks).
fn dim(v: &mut Verifier<'_>, op: Op, operands: &[Type]) -> VResult {
    let rank = v.rank(operands[0]);
    let dim = v.int_attr(op, "dim").unwrap_or(0);
    if dim < 0 || dim >= rank as i64 {
        return Err(v.error(op, &cat::DIM, &[("dim", &dim), ("rank", &rank)]));
    }
    Ok(())
}

/// The type of a typed attribute (`0 : i32`, `1.0 : f32`).
fn attr_type(a: &AttrData) -> Option<Type> {
    match a {
        AttrData::Int { ty, .. } => Some(ty.unwrap_or(Type::I64)),
        AttrData::Float { ty, .. } => Some(*ty),
        AttrData::Bool(_) => Some(Type::I1),
        _ => None,
    }
}

/// One identity per input, of the input's element type.
fn identities(v: &mut Verifier<'_>, op: Op, operands: &[Type]) -> VResult {
    let Some(AttrData::Array(ids)) = v.attr(op, "identities") else {
        return Ok(());
    };
    if ids.len() != operands.len() {
        return Err(v.error(
            op,
            &cat::IDENTITY_COUNT,
            &[("operands", &operands.len()), ("identities", &ids.len())],
        ));
    }
    for (i, (&id, &t)) in ids.iter().zip(operands).enumerate() {
        let Some(id_ty) = attr_type(v.m.ctx.attrs.get(id)) else {
            continue;
        };
        let elem = v.elem_of(t);
        // NVIDIA accepts f16 identities for bf16 inputs and the reverse.
        let half = [Type::F16, Type::BF16];
        if elem == id_ty || (half.contains(&elem) && half.contains(&id_ty)) {
            continue;
        }
        let (a, b) = (v.elem(t), v.ty(id_ty));
        return Err(v.error(
            op,
            &cat::IDENTITY_TYPE,
            &[("index", &i), ("operand", &a), ("identity", &b)],
        ));
    }
    Ok(())
}

/// `!cuda_tile.tile<4xf32>` for a shape and element type.
fn tile_string(v: &Verifier<'_>, shape: &[i64], elem: Type) -> String {
    let mut s = String::from("!cuda_tile.tile<");
    for d in shape {
        s.push_str(&d.to_string());
        s.push('x');
    }
    s.push_str(&v.m.ctx.types.to_string(elem, false));
    s.push('>');
    s
}

/// scan: each result has its input's type; reduce: its input's type without `dim`.
fn result_types(v: &mut Verifier<'_>, op: Op, operands: &[Type], results: &[Type]) -> VResult {
    if v.m.opcode(op) == Opcode::Scan {
        if let Some(i) = (0..operands.len()).find(|&i| operands[i] != results[i]) {
            return Err(v.error(op, &cat::SCAN_RESULT_TYPE, &[("index", &i)]));
        }
        return Ok(());
    }
    let dim = v.int_attr(op, "dim").unwrap_or(0) as usize;
    let mut inferred = Vec::new();
    let mut ok = true;
    for (&t, &r) in operands.iter().zip(results) {
        let mut shape = v.shape(t).to_vec();
        if dim < shape.len() {
            shape.remove(dim);
        }
        let elem = v.elem_of(t);
        ok &= matches!(v.data(r), TypeData::Tile { .. })
            && v.shape(r) == shape
            && v.elem_of(r) == elem;
        inferred.push(format!("'{}'", tile_string(v, &shape, elem)));
    }
    if ok {
        return Ok(());
    }
    let (a, b) = (inferred.join(", "), quoted_list(v, results));
    let f = v.error(
        op,
        &cat::REDUCE_INFERRED,
        &[("inferred", &a), ("results", &b)],
    );
    v.error(op, &cat::INFER_FAILED, &[]);
    Err(f)
}

/// Two rank-0 tile arguments per input, pairwise of one element type, that of the input.
fn block_args(v: &mut Verifier<'_>, op: Op, body: Block, operands: &[Type]) -> VResult {
    let m = v.m;
    let args: Vec<Type> = m
        .block_args(body)
        .iter()
        .map(|&a| m.value_type(a))
        .collect();
    if args.len() != 2 * operands.len() {
        return Err(v.error(
            op,
            &cat::ARG_COUNT,
            &[("expected", &(2 * operands.len())), ("found", &args.len())],
        ));
    }
    for (i, &t) in args.iter().enumerate() {
        let is_tile = matches!(v.data(t), TypeData::Tile { .. });
        if is_tile && v.rank(t) == 0 {
            continue;
        }
        let e = if is_tile {
            &cat::ARG_RANK
        } else {
            &cat::ARG_NOT_TILE
        };
        let (ts, list) = (v.ty(t), quoted_list(v, &args));
        return Err(v.error(op, e, &[("index", &i), ("type", &ts), ("types", &list)]));
    }
    for i in (0..args.len()).step_by(2) {
        let (a, b) = (v.elem_of(args[i]), v.elem_of(args[i + 1]));
        if a != b {
            let (x, y) = (v.ty(a), v.ty(b));
            return Err(v.error(
                op,
                &cat::ARG_PAIR,
                &[("first", &i), ("second", &(i + 1)), ("a", &x), ("b", &y)],
            ));
        }
    }
    for (i, &t) in operands.iter().enumerate() {
        let (a, b) = (v.elem_of(t), v.elem_of(args[2 * i]));
        if a != b {
            let (x, y) = (v.ty(a), v.ty(b));
            return Err(v.error(
                op,
                &cat::ARG_OPERAND,
                &[
                    ("index", &i),
                    ("arg", &(2 * i)),
                    ("operand", &x),
                    ("argtype", &y),
                ],
            ));
        }
    }
    Ok(())
}

/// The body's `yield`: one value per input, of the input's element type (the spec: of the
/// type of the input's current-element argument).
fn yields(v: &mut Verifier<'_>, op: Op, body: Block, term: Op, operands: &[Type]) -> VResult {
    let m = v.m;
    let vals: Vec<Type> = m.operands(term).map(|x| m.value_type(x)).collect();
    if vals.len() != operands.len() {
        return Err(v.error(
            op,
            &cat::YIELD_COUNT,
            &[("found", &vals.len()), ("expected", &operands.len())],
        ));
    }
    let args = m.block_args(body);
    for (i, (&t, &y)) in operands.iter().zip(&vals).enumerate() {
        let arg = m.value_type(args[2 * i]);
        let y_tile = matches!(v.data(y), TypeData::Tile { .. });
        let bad = if v.upstream {
            !y_tile || v.elem_of(t) != v.elem_of(y)
        } else {
            y != arg
        };
        if !bad {
            continue;
        }
        let e = if y_tile {
            &cat::YIELD_TYPE
        } else {
            &cat::YIELD_NOT_TILE
        };
        let (ys, as_) = (format!("'{}'", v.ty(y)), format!("'{}'", v.ty(arg)));
        let (oe, ye, ot, yt) = (v.elem(t), v.elem(y), v.ty(t), v.ty(y));
        return Err(v.error(
            op,
            e,
            &[
                ("index", &i),
                ("term", &ys),
                ("arg", &as_),
                ("operand", &oe),
                ("termelem", &ye),
                ("operandtype", &ot),
                ("termtype", &yt),
            ],
        ));
    }
    Ok(())
}

/// The spec: every op of the body works on rank-0 tiles (the final `yield` is checked
/// against the inputs). NVIDIA's verifier does not check this.
fn body_ranks(v: &mut Verifier<'_>, op: Op, body: Block, term: Op) -> VResult {
    let m = v.m;
    for inner in m.block_ops(body).filter(|&o| o != term) {
        let bad = m
            .operands(inner)
            .chain(m.results(inner))
            .map(|x| m.value_type(x))
            .find(|&t| !matches!(v.data(t), TypeData::Tile { shape, .. } if shape.is_empty()));
        if let Some(t) = bad {
            let (name, ts) = (v.op_name(inner), v.ty(t));
            let span = v.span(inner);
            return Err(v.error_at(op, span, &cat::BODY_RANK, &[("name", &name), ("type", &ts)]));
        }
    }
    Ok(())
}

/// Effects of an op itself, regions aside.
fn has_memory_effects(v: &Verifier<'_>, op: Op) -> bool {
    matches!(
        v.m.def(op).effects,
        Effects::Read | Effects::Write | Effects::ReadWrite | Effects::SideEffect
    )
}

/// Only pure ops in the body, found in a post-order walk (nested regions first), as
/// NVIDIA's verifier walks it; the remark points at the offending op.
fn purity(v: &mut Verifier<'_>, op: Op, body: Block) -> VResult {
    let Some(bad) = first_impure(v, body) else {
        return Ok(());
    };
    let name = v.op_name(bad);
    let registered = v.m.unregistered_name(bad).is_none();
    let impure = registered && has_memory_effects(v, bad);
    if impure && v.upstream && v.minor >= 3 {
        // NVIDIA's 13.3 verifier reports it at the op, without a remark.
        let parent = v.op_name(op);
        return Err(v.error(bad, &cat::IMPURE_AT_OP, &[("parent", &parent)]));
    }
    let e = if impure {
        &cat::IMPURE
    } else {
        &cat::INVALID_OP
    };
    let f = v.error(op, e, &[("name", &name)]);
    v.remark(bad, format!("invalid op: {name}"));
    Err(f)
}

fn first_impure(v: &Verifier<'_>, b: Block) -> Option<Op> {
    let m = v.m;
    for op in m.block_ops(b) {
        for &r in m.regions(op) {
            for &inner in m.region_blocks(r) {
                if let Some(bad) = first_impure(v, inner) {
                    return Some(bad);
                }
            }
        }
        if m.unregistered_name(op).is_some() || !m.def(op).has(Traits::PURE) {
            return Some(op);
        }
    }
    None
}

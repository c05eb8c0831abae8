//! Structured control flow (`verify_if`, `verify_for`, early exits, terminators).
//!
//! The op table gives the direct parents of the terminators; the generic checker leaves them
//! to this module, which also walks the ancestor chain of `break`, `continue` and `return`
//! (through any number of `if`s) to the loop or function they leave, and checks that their
//! operands match what that op expects. The yields of an `if` are checked by the `if` (and
//! those of `reduce` and `scan` by the aggregate verifier), not by the yield itself.
//!
//! NVIDIA's verifier stops at the first failing op; where an `if` between an early exit and
//! its loop or function has failed, the compat personality does not report the exit again.

use crate::{Failed, VResult, Verifier};
use tilec_diag::Span;
use tilec_diag::catalog::control as cat;
use tilec_diag::catalog::generic as gen_cat;
use tilec_diag::codes::CodeInfo;
use tilec_ir::attrs::AttrData;
use tilec_ir::module::{Op, Value};
use tilec_ir::ops::Opcode;
use tilec_ir::types::{Type, TypeData};

/// Checks one op of this family.
pub(crate) fn verify(v: &mut Verifier<'_>, op: Op) -> VResult {
    match v.m.opcode(op) {
        Opcode::Break => verify_break(v, op),
        Opcode::Continue => verify_continue(v, op),
        Opcode::Return => verify_return(v, op),
        Opcode::Yield => direct_parent(v, op, &gen_cat::PARENT),
        Opcode::If => match if_problem(v, op) {
            Some(p) => Err(p.emit(v, op)),
            None => Ok(()),
        },
        Opcode::For => verify_for(v, op),
        Opcode::Loop => verify_loop(v, op),
        _ => Ok(()),
    }
}

/// Spec-personality checks that run before the declarative op-table checks, so that the
/// spec's wording wins where a generic check would catch the same problem.
pub(crate) fn precheck(v: &mut Verifier<'_>, op: Op) -> VResult {
    if v.m.opcode(op) == Opcode::For {
        let lb = v.operand_of(op, "lowerBound").map(|x| v.vty(x));
        let ub = v.operand_of(op, "upperBound").map(|x| v.vty(x));
        let step = v.operand_of(op, "step").map(|x| v.vty(x));
        if lb != ub || lb != step {
            return Err(for_iv_type(v, op, None));
        }
    }
    Ok(())
}

// ---- helpers ---------------------------------------------------------------------------

/// True if `op` is the registered op `opcode`.
fn is(v: &Verifier<'_>, op: Op, opcode: Opcode) -> bool {
    v.m.unregistered_name(op).is_none() && v.m.opcode(op) == opcode
}

/// The types of some values.
fn types_of(v: &Verifier<'_>, values: impl IntoIterator<Item = Value>) -> Vec<Type> {
    values.into_iter().map(|x| v.vty(x)).collect()
}

/// `'!cuda_tile.tile<i32>', 'f32'`: types as MLIR lists them in diagnostics.
pub(crate) fn quoted_list(v: &Verifier<'_>, types: &[Type]) -> String {
    let parts: Vec<String> = types.iter().map(|&t| format!("'{}'", v.ty(t))).collect();
    parts.join(", ")
}

/// `tensor_view` or `tile view` for view types (how NVIDIA names them in messages).
fn view_kind(v: &Verifier<'_>, t: Type) -> Option<&'static str> {
    match v.data(t) {
        TypeData::TensorView { .. } => Some("tensor_view"),
        TypeData::PartitionView { .. }
        | TypeData::StridedView { .. }
        | TypeData::GatherScatterView { .. } => Some("tile view"),
        _ => None,
    }
}

/// The arguments of a region's entry block (empty if the region has no block).
fn region_args(v: &Verifier<'_>, op: Op, index: usize) -> Vec<Value> {
    let m = v.m;
    m.regions(op)
        .get(index)
        .and_then(|&r| m.entry_block(r))
        .map(|b| m.block_args(b).to_vec())
        .unwrap_or_default()
}

/// The last op of a region's entry block.
fn region_terminator(v: &Verifier<'_>, op: Op, index: usize) -> Option<Op> {
    let m = v.m;
    let r = *m.regions(op).get(index)?;
    m.last_op(m.entry_block(r)?)
}

/// Checks the direct parent of a terminator against the op table's list.
fn direct_parent(v: &mut Verifier<'_>, op: Op, e: &'static CodeInfo) -> VResult {
    let m = v.m;
    let def = m.def(op);
    let ok = m
        .parent_op(op)
        .is_some_and(|p| m.unregistered_name(p).is_none() && def.parents.contains(&m.def(p).name));
    if ok {
        return Ok(());
    }
    Err(v.error(op, e, &[("parents", &crate::generic::parent_list(def))]))
}

/// Walks up from `op` through enclosing `if`s; returns the first other ancestor (`None` at
/// the top level) and whether one of the `if`s passed on the way fails its own checks.
fn exit_target(v: &Verifier<'_>, op: Op) -> (Option<Op>, bool) {
    let mut failed_if = false;
    let mut cur = v.m.parent_op(op);
    while let Some(p) = cur {
        if !is(v, p, Opcode::If) {
            break;
        }
        failed_if |= if_problem(v, p).is_some();
        cur = v.m.parent_op(p);
    }
    (cur, failed_if)
}

/// Placement of `break` and `continue`: direct parent, then the chain of `if`s up to a loop
/// of one of the `loops` kinds, which is returned (`None`: stop checking this op).
fn early_exit_loop(v: &mut Verifier<'_>, op: Op, loops: &[Opcode]) -> Result<Option<Op>, Failed> {
    direct_parent(v, op, &cat::EARLY_EXIT_PARENT)?;
    let (target, failed_if) = exit_target(v, op);
    let found = target.filter(|&t| loops.iter().any(|&k| is(v, t, k)));
    let Some(target_loop) = found else {
        let mut names: Vec<String> = loops
            .iter()
            .map(|&k| format!("'cuda_tile.{}'", tilec_ir::ops::def(k).name))
            .collect();
        names.push("'cuda_tile.if'".to_string());
        let f = v.error(op, &cat::EARLY_EXIT_ANCESTOR, &[("ops", &names.join(", "))]);
        let at: Option<Span> = target.and_then(|t| v.span(t));
        v.note("see unexpected ancestor operation", at);
        return Err(f);
    };
    if v.upstream && failed_if {
        // NVIDIA's verifier has stopped at the failing `if`.
        return Ok(None);
    }
    Ok(Some(target_loop))
}

fn verify_break(v: &mut Verifier<'_>, op: Op) -> VResult {
    let Some(lp) = early_exit_loop(v, op, &[Opcode::Loop])? else {
        return Ok(());
    };
    let found = types_of(v, v.m.operands(op));
    let expected = types_of(v, v.m.results(lp));
    if found != expected {
        let (f, e) = (quoted_list(v, &found), quoted_list(v, &expected));
        return Err(v.error(op, &cat::BREAK_TYPES, &[("found", &f), ("expected", &e)]));
    }
    Ok(())
}

fn verify_continue(v: &mut Verifier<'_>, op: Op) -> VResult {
    let Some(lp) = early_exit_loop(v, op, &[Opcode::For, Opcode::Loop])? else {
        return Ok(());
    };
    let found = types_of(v, v.m.operands(op));
    let (expected, e) = if is(v, lp, Opcode::Loop) {
        (types_of(v, v.m.operands(lp)), &cat::CONTINUE_LOOP_TYPES)
    } else {
        let results = types_of(v, v.m.results(lp));
        if v.upstream && types_of(v, v.operands_of(lp, "initValues")) != results {
            // NVIDIA's verifier has stopped at the `for` (its results differ from its
            // initial values).
            return Ok(());
        }
        (results, &cat::CONTINUE_FOR_TYPES)
    };
    if found != expected {
        let (f, x) = (quoted_list(v, &found), quoted_list(v, &expected));
        return Err(v.error(op, e, &[("found", &f), ("expected", &x)]));
    }
    Ok(())
}

/// The name and result types of a function-like op (`entry`, `testing$func`).
fn function_sig<'m>(v: &Verifier<'m>, f: Op) -> (&'m str, &'m [Type]) {
    let name = match v.attr(f, "sym_name") {
        Some(AttrData::String(s)) => s.as_ref(),
        _ => "",
    };
    let results: &[Type] = match v.attr(f, "function_type") {
        Some(AttrData::Type(t)) => match v.data(*t) {
            TypeData::Function { results, .. } => results,
            _ => &[],
        },
        _ => &[],
    };
    (name, results)
}

fn verify_return(v: &mut Verifier<'_>, op: Op) -> VResult {
    direct_parent(v, op, &gen_cat::PARENT)?;
    let (target, failed_if) = exit_target(v, op);
    let function = target.filter(|&t| is(v, t, Opcode::Entry) || is(v, t, Opcode::TestingFunc));
    let Some(function) = function else {
        return Err(v.error(op, &cat::RETURN_OUTSIDE_FUNCTION, &[]));
    };
    if v.upstream && failed_if {
        // NVIDIA's verifier has stopped at the failing `if`.
        return Ok(());
    }
    let (name, results) = function_sig(v, function);
    if is(v, function, Opcode::Entry) && !results.is_empty() {
        // The entry itself is reported: kernels return nothing.
        return Ok(());
    }
    let found = types_of(v, v.m.operands(op));
    if found.len() != results.len() {
        return Err(v.error(
            op,
            &cat::RETURN_COUNT,
            &[
                ("found", &found.len()),
                ("name", &name),
                ("expected", &results.len()),
            ],
        ));
    }
    for (i, (&t, &r)) in found.iter().zip(results).enumerate() {
        if t != r {
            let (ts, rs) = (v.ty(t), v.ty(r));
            return Err(v.error(
                op,
                &cat::RETURN_TYPE,
                &[
                    ("index", &i),
                    ("type", &ts),
                    ("expected", &rs),
                    ("name", &name),
                ],
            ));
        }
    }
    Ok(())
}

// ---- if --------------------------------------------------------------------------------

/// A failed check, kept so that it can be reported or just tested for.
struct Problem {
    entry: &'static CodeInfo,
    args: Vec<(&'static str, String)>,
}

impl Problem {
    fn new(entry: &'static CodeInfo, args: &[(&'static str, String)]) -> Problem {
        Problem {
            entry,
            args: args.to_vec(),
        }
    }

    fn emit(&self, v: &mut Verifier<'_>, op: Op) -> Failed {
        let args: Vec<(&str, &dyn std::fmt::Display)> = self
            .args
            .iter()
            .map(|(k, s)| (*k, s as &dyn std::fmt::Display))
            .collect();
        v.error(op, self.entry, &args)
    }
}

/// The first failing check of an `if`, in the current personality's order.
fn if_problem(v: &Verifier<'_>, op: Op) -> Option<Problem> {
    for i in 0..v.m.regions(op).len() {
        if !region_args(v, op, i).is_empty() {
            return Some(Problem::new(
                &cat::IF_REGION_ARGS,
                &[("index", i.to_string())],
            ));
        }
    }
    let results = types_of(v, v.m.results(op));
    let has_else =
        v.m.regions(op)
            .get(1)
            .is_some_and(|&r| !v.m.region_blocks(r).is_empty());
    if v.upstream {
        if let Some(p) = if_view_result(v, &results) {
            return Some(p);
        }
        if let Some(p) = branch_yield(v, op, 0, &results) {
            return Some(p);
        }
        if !has_else {
            return (!results.is_empty()).then(|| Problem::new(&cat::IF_ELSE_MISSING, &[]));
        }
        return branch_yield(v, op, 1, &results);
    }
    if !results.is_empty() && !has_else {
        return Some(Problem::new(&cat::IF_ELSE_MISSING, &[]));
    }
    if let Some(p) = branch_yield(v, op, 0, &results) {
        return Some(p);
    }
    if has_else && let Some(p) = branch_yield(v, op, 1, &results) {
        return Some(p);
    }
    if_view_result(v, &results)
}

fn if_view_result(v: &Verifier<'_>, results: &[Type]) -> Option<Problem> {
    results.iter().enumerate().find_map(|(i, &t)| {
        let kind = view_kind(v, t)?;
        Some(Problem::new(
            &cat::IF_VIEW_RESULT,
            &[("index", i.to_string()), ("kind", kind.to_string())],
        ))
    })
}

/// The yield ending branch `index` (0: then, 1: else) against the `if`'s result types.
/// Branches that end in `break`, `continue` or `return` leave the `if` and yield nothing.
fn branch_yield(v: &Verifier<'_>, op: Op, index: usize, results: &[Type]) -> Option<Problem> {
    let term = region_terminator(v, op, index).filter(|&t| is(v, t, Opcode::Yield))?;
    let yields = types_of(v, v.m.operands(term));
    if yields == results {
        return None;
    }
    let branch = if index == 0 { "then" } else { "else" };
    let args = |extra: &[(&'static str, String)]| {
        let mut a = vec![
            ("branch", branch.to_string()),
            ("yields", quoted_list(v, &yields)),
            ("results", quoted_list(v, results)),
            ("found", yields.len().to_string()),
            ("expected", results.len().to_string()),
        ];
        a.extend_from_slice(extra);
        a
    };
    let entry = if yields.is_empty() {
        &cat::IF_YIELD_NOTHING
    } else if results.is_empty() {
        &cat::IF_YIELD_UNEXPECTED
    } else if yields.len() != results.len() {
        &cat::IF_YIELD_ARITY
    } else {
        let (y, r) = yields
            .iter()
            .zip(results)
            .find(|(y, r)| y != r)
            .map(|(&y, &r)| (y, r))?;
        let extra = [
            ("yield", format!("'{}'", v.ty(y))),
            ("result", format!("'{}'", v.ty(r))),
        ];
        return Some(Problem::new(&cat::IF_YIELD_TYPE, &args(&extra)));
    };
    Some(Problem::new(entry, &args(&[])))
}

// ---- for and loop ----------------------------------------------------------------------

/// The induction-variable type error: the spec's wording for any disagreement of the
/// induction variable, bounds and step; NVIDIA's names the induction variable's type.
fn for_iv_type(v: &mut Verifier<'_>, op: Op, iv: Option<Type>) -> Failed {
    let lb = v.operand_of(op, "lowerBound").map(|x| v.vty(x));
    let ivs = iv.map(|t| v.ty(t)).unwrap_or_default();
    let lbs = lb.map(|t| v.ty(t)).unwrap_or_default();
    v.error(op, &cat::FOR_IV_TYPE, &[("iv", &ivs), ("lb", &lbs)])
}

fn verify_for(v: &mut Verifier<'_>, op: Op) -> VResult {
    let inits = types_of(v, v.operands_of(op, "initValues"));
    let results = types_of(v, v.m.results(op));
    if v.upstream && inits != results {
        // NVIDIA: the `AllTypesMatch<["initValues", "resultValues"]>` trait, checked before
        // the region.
        return Err(v.error(op, &cat::FOR_RESULT_TYPES, &[]));
    }
    let args = types_of(v, region_args(v, op, 0));
    let Some((&iv, iters)) = args.split_first() else {
        return Err(v.error(op, &cat::FOR_NO_IV, &[]));
    };
    let lb = v.operand_of(op, "lowerBound").map(|x| v.vty(x));
    if Some(iv) != lb {
        return Err(for_iv_type(v, op, Some(iv)));
    }
    if iters.len() != inits.len() {
        return Err(v.error(
            op,
            &cat::FOR_ITER_COUNT,
            &[("iters", &iters.len()), ("inits", &inits.len())],
        ));
    }
    if v.upstream {
        for (i, (&init, &iter)) in inits.iter().zip(iters).enumerate() {
            if let Some(kind) = view_kind(v, iter) {
                return Err(v.error(op, &cat::FOR_VIEW, &[("index", &i), ("kind", &kind)]));
            }
            if init != iter {
                return Err(iter_type(v, op, &cat::FOR_ITER_TYPE, i, init, iter));
            }
        }
        return Ok(());
    }
    if let Some(i) = (0..inits.len()).find(|&i| inits[i] != iters[i]) {
        return Err(iter_type(v, op, &cat::FOR_ITER_TYPE, i, inits[i], iters[i]));
    }
    if results != iters {
        return Err(v.error(op, &cat::FOR_RESULT_TYPES, &[]));
    }
    for (i, &t) in results.iter().enumerate() {
        if let Some(kind) = view_kind(v, t) {
            return Err(v.error(op, &cat::FOR_VIEW, &[("index", &i), ("kind", &kind)]));
        }
    }
    Ok(())
}

fn iter_type(
    v: &mut Verifier<'_>,
    op: Op,
    e: &'static CodeInfo,
    i: usize,
    init: Type,
    iter: Type,
) -> Failed {
    let (a, b) = (v.ty(init), v.ty(iter));
    v.error(op, e, &[("index", &i), ("init", &a), ("iter", &b)])
}

fn verify_loop(v: &mut Verifier<'_>, op: Op) -> VResult {
    let inits = types_of(v, v.operands_of(op, "initValues"));
    let iters = types_of(v, region_args(v, op, 0));
    if iters.len() != inits.len() {
        return Err(v.error(
            op,
            &cat::LOOP_ITER_COUNT,
            &[("iters", &iters.len()), ("inits", &inits.len())],
        ));
    }
    for (i, (&init, &iter)) in inits.iter().zip(&iters).enumerate() {
        if let Some(kind) = view_kind(v, iter) {
            return Err(v.error(
                op,
                &cat::LOOP_VIEW_CARRIED,
                &[("index", &i), ("kind", &kind)],
            ));
        }
        if init != iter {
            return Err(iter_type(v, op, &cat::LOOP_ITER_TYPE, i, init, iter));
        }
    }
    let results = types_of(v, v.m.results(op));
    for (i, &t) in results.iter().enumerate() {
        if let Some(kind) = view_kind(v, t) {
            return Err(v.error(
                op,
                &cat::LOOP_VIEW_RESULT,
                &[("index", &i), ("kind", &kind)],
            ));
        }
    }
    Ok(())
}

//! The greedy driver: folds and rewrite patterns to a fixed point, then the expression
//! simplifier, both repeated until nothing changes (bounded by the iteration cap).
//!
//! Each round walks every function in post-order and queues its ops (constants are uniqued
//! and hoisted to the start of their function on the way, as MLIR's `OperationFolder`
//! does), then pops ops from the back of the worklist (so a function is processed from its
//! end, an op before the ops nested in it) until the worklist is empty. For each op it
//! erases it if it is dead, otherwise tries the op table's fold and then its patterns in
//! order; every change queues the ops it may enable. When the worklist is empty (the
//! greedy fixed point) the expression simplifier runs once over the residual IR, and the
//! ops it changed are processed the same way. A round that changes nothing ends the loop,
//! so the result is a fixed point of both (canonicalize is idempotent). If the cap is reached while rounds still change the IR, a warning is reported.

use crate::rewriter::Rewriter;
use crate::{CanonOptions, Stats, fold, ifs, ir, select, simplify};
use tilec_diag::{Diagnostic, Location, Span, codes};
use tilec_ir::ops::{Rule, Traits};
use tilec_ir::{Module, Op, Opcode};

/// Canonicalizes `m` in place. Returns warnings (non-convergence), never errors.
pub fn canonicalize(m: &mut Module, opts: &CanonOptions, stats: &mut Stats) -> Vec<Diagnostic> {
    let funcs = functions(m);
    run_greedy(m, &funcs, opts, stats, None)
}

/// Extra patterns a pass adds to the greedy driver (tried after the op table's rules).
pub(crate) type ExtraPatterns<'a> = &'a dyn Fn(&mut Rewriter<'_>, Op) -> bool;

/// The greedy driver over the functions `funcs` of `m`, with the op table's rules that
/// `opts` runs and `extra` patterns.
pub(crate) fn run_greedy(
    m: &mut Module,
    funcs: &[Op],
    opts: &CanonOptions,
    stats: &mut Stats,
    extra: Option<ExtraPatterns<'_>>,
) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let funcs = funcs.to_vec();
    let mut rw = Rewriter::new(m, opts.personality, stats);
    let mut iterations = 0;
    let mut converged = false;
    // Bound on rewrites per round: far above what any real input needs, so that two rules
    // undoing each other cannot hang the compiler.
    let budget = 64 * rw.m.op_capacity() as u64 + 10_000;
    while iterations < opts.max_iterations.max(1) {
        iterations += 1;
        rw.changed = false;
        rw.rewrites = 0;
        rw.reset_constants();
        for &f in &funcs {
            populate(&mut rw, f, opts);
        }
        let populated_changes = rw.changed;
        rw.changed = false;
        let exhausted = drain(&mut rw, opts, budget, extra);
        let mut changed = rw.changed || populated_changes || exhausted;
        // The greedy phase is at its fixed point (the worklist is empty): the expression
        // simplifier runs over the residual IR, and what it enables (dead ops, constant
        // conditions) is processed in the same round.
        if opts.runs_simplifier() && simplify::simplify_module(&mut rw, &funcs) {
            changed = true;
            drain(&mut rw, opts, budget, extra);
        }
        if !changed {
            converged = true;
            break;
        }
    }
    rw.stats.iterations = iterations;
    if !converged {
        let span = funcs
            .first()
            .and_then(|f| rw.m.op_span(*f))
            .unwrap_or(Span::new(0, 0));
        let mut d = Diagnostic::warning(
            codes::OPT_NOT_CONVERGED,
            format!(
                "canonicalization did not converge in {} iterations",
                opts.max_iterations.max(1)
            ),
        );
        if let Some(file) = rw.m.file() {
            d = d.at(Location::new(file, span));
        }
        diags.push(d);
    }
    diags
}

/// Processes the worklist until it is empty; true if the rewrite budget ran out.
fn drain(
    rw: &mut Rewriter<'_>,
    opts: &CanonOptions,
    budget: u64,
    extra: Option<ExtraPatterns<'_>>,
) -> bool {
    while let Some(op) = rw.pop() {
        if rw.rewrites > budget {
            rw.clear_worklist();
            return true;
        }
        process(rw, op, opts, extra);
    }
    false
}

/// The function-like ops of the module (entries and testing functions), in order.
pub(crate) fn functions(m: &Module) -> Vec<Op> {
    let mut out = Vec::new();
    m.walk(|op| {
        if m.def(op).has(Traits::FUNCTION) {
            out.push(op);
        }
    });
    out
}

/// Queues the ops of a function in post-order, uniquing and hoisting constants.
fn populate(rw: &mut Rewriter<'_>, func: Op, opts: &CanonOptions) {
    let mut order = Vec::new();
    post_order(rw.m, func, &mut order);
    for op in order {
        if rw.m.opcode(op) == Opcode::Constant && opts.runs(Rule::FoldConstant) {
            rw.insert_known_constant(op);
        } else {
            rw.push(op);
        }
    }
}

fn post_order(m: &Module, op: Op, out: &mut Vec<Op>) {
    for &r in m.regions(op) {
        for &b in m.region_blocks(r) {
            for o in m.block_ops(b) {
                post_order(m, o, out);
                out.push(o);
            }
        }
    }
}

/// Processes one op: dead-op erasure, then the fold, then the patterns.
fn process(rw: &mut Rewriter<'_>, op: Op, opts: &CanonOptions, extra: Option<ExtraPatterns<'_>>) {
    if !rw.m.is_attached(op) {
        return;
    }
    if ir::is_trivially_dead(rw.m, op) {
        rw.erase(op);
        rw.rewrites += 1;
        rw.stats.bump("EraseDeadOps");
        return;
    }
    let def = rw.m.def(op);
    if let Some(f) = def.canon.fold
        && opts.runs(f)
    {
        let fired = match f {
            Rule::FoldConstant => {
                // Constants created by rewrites are uniqued here.
                !rw.insert_known_constant(op)
            }
            _ => apply_rule(rw, f, op, opts),
        };
        if fired {
            rw.rewrites += 1;
            if f != Rule::FoldConstant {
                rw.stats.bump(f.name());
            }
            return;
        }
    }
    for &p in def.canon.patterns {
        if opts.runs(p) && apply_rule(rw, p, op, opts) {
            rw.rewrites += 1;
            rw.stats.bump(p.name());
            return;
        }
    }
    if let Some(extra) = extra
        && extra(rw, op)
    {
        rw.rewrites += 1;
    }
}

/// Applies fold or pattern `p` to `op`; true if it changed something. Every rule of the op
/// table is matched here, so a new rule is a compile error until it is implemented.
fn apply_rule(rw: &mut Rewriter<'_>, p: Rule, op: Op, opts: &CanonOptions) -> bool {
    match p {
        Rule::FoldAddF => fold::fold_addf(rw, op),
        Rule::FoldIfInversion => fold::fold_if_negated_condition(rw, op),
        Rule::FoldSelect => fold::fold_select(rw, op),
        Rule::RemoveUnusedResults => ifs::remove_unused_results(rw, op),
        Rule::ReplaceYieldWithValue => ifs::replace_yield_with_value(rw, op),
        Rule::RemoveStaticCondition => ifs::remove_static_condition(rw, op),
        Rule::ConvertToSelect => ifs::convert_to_select(
            rw,
            op,
            opts.personality,
            opts.release_minor.unwrap_or(tilec_ir::ops::LATEST_MINOR),
        ),
        Rule::RemoveEmptyElseBranch => ifs::remove_empty_else_branch(rw, op),
        Rule::CombineIfs => ifs::combine_ifs(rw, op),
        Rule::CombineNestedIfs => ifs::combine_nested_ifs(rw, op),
        Rule::MoveTerminatorToParent => ifs::move_terminator_to_parent(rw, op),
        Rule::ReplaceConstantSelect => select::replace_constant_select(rw, op),
        Rule::ReplaceIdenticalSelect => select::replace_identical_select(rw, op),
        Rule::InverseConditionSelect => select::inverse_condition_select(rw, op),
        Rule::FoldRepeatedAssume => {
            opts.release_minor.unwrap_or(tilec_ir::ops::LATEST_MINOR) >= 3
                && fold::fold_repeated_assume(rw, op)
        }
        Rule::SelectToExtI => {
            opts.release_minor.unwrap_or(tilec_ir::ops::LATEST_MINOR) >= 3
                && select::select_to_exti(rw, op)
        }
        Rule::AddFMulLhs => fold::addf_mul_lhs(rw, op),
        Rule::SelectI1ToNot => select::select_i1_to_not(rw, op),
        // Uniqued by the driver itself (`insert_known_constant`).
        Rule::FoldConstant => false,
    }
}

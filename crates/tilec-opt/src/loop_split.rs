//! The `loop-split` pass (NVIDIA's `LoopSplitPass`, CUDA Tile IR 13.3 `Transforms/`): a
//! `for` loop containing an `if` whose condition compares the induction variable with a
//! loop-invariant value is split at the point where the condition changes, into two loops
//! that each keep only the branch taken in their range.
//!
//! ```text
//! for %i in (%lb to %ub, step %s) {          %split = [n + 1 for > and <=]
//!   %c = cmpi greater_than %i, %n, signed      (aligned to lb + k*step when step != 1)
//!   if %c { A } else { B }              ==>  %hi = mini %split, %ub signed
//!   ...                                      %lo = maxi %split, %lb signed
//! }                                          for %i in (%lb to %hi, step %s) { B ... }
//!                                            for %i in (%lo to %ub, step %s) { A ... }
//! ```
//!
//! What is split, as NVIDIA's pass does it:
//!
//! * The condition is a `cmpi` of the induction variable (either side; `<`, `<=`, `>`,
//!   `>=`) with a value defined outside the loop, with the loop's signedness (`for
//!   unsigned` compares unsigned). `equal` and `not_equal` are not split.
//! * Every `if` directly in the loop body using that `cmpi` is replaced by the contents of
//!   the branch its loop takes (its results by what that branch yields; a `continue` in it
//!   ends the body there). If the `cmpi` has other users (an `if` nested deeper, any other
//!   op), it is replaced in each loop by the constant it has there.
//! * Loops are visited innermost first; each loop is split at most once per run (at the
//!   first splittable `if` in post-order), and the new loops are not visited again.
//! * The threshold: the `split-threshold` option (default 1) or the discardable attribute
//!   `cuda_tile.loop_split = N` on the `if`, else on the loop, else on the function (the
//!   most precise wins). 0 turns splitting off; 1 splits always; N > 1 splits only when a
//!   branch of some `if` on the condition has at least N ops besides its terminator, or
//!   contains a load, store, `mma`, `reduce`, `if` or `for`.
//!
//! tilec differs from NVIDIA's pass only where NVIDIA's would change the meaning or
//! produce invalid IR:
//!
//! * A block argument defined inside the loop (the induction variable itself, a
//!   loop-carried value) is not loop-invariant here (NVIDIA's treats every block argument
//!   as invariant).
//! * An `if` whose branch ends in `return` or `break` is not split (NVIDIA's would put that
//!   terminator into the loop body).
//! * For `>` and `<=` the split point is `n + (n == MAX ? 0 : 1)` (a `cmpi`, a `select`,
//!   then the `addi`), where NVIDIA's `n + 1` wraps around for the type's largest value
//!   and sends every iteration to the wrong loop (`cargo xtask diff-canon` found it).
//!
//! What remains: with a step other than 1 the alignment `lb + ceil((split - lb) / step) *
//! step` can wrap around when `split - lb` does not fit the type (bounds near both ends of
//! its range, or, in a `for unsigned`, a split point below the lower bound), as in
//! NVIDIA's pass; such loops should not be split (`cuda_tile.loop_split = 0`).

use crate::ir;
use tilec_ir::attrs::{ComparisonPredicate, RoundingMode, Signedness};
use tilec_ir::builder::Builder;
use tilec_ir::util::{FxHashMap, FxHashSet};
use tilec_ir::{AttrData, EnumKind, InsertPoint, Module, Op, Opcode, Value};

/// The discardable attribute carrying a split threshold.
pub const HINT_ATTR: &str = "cuda_tile.loop_split";

/// Runs `loop-split` on the functions `funcs` of `m`; returns how many loops it split.
pub(crate) fn run(m: &mut Module, funcs: &[Op], split_threshold: i32) -> u64 {
    let mut splits = 0;
    for &f in funcs {
        let entry_hint = hint(m, f);
        let mut fors = Vec::new();
        post_order(m, f, Opcode::For, &mut fors);
        for l in fors {
            if !m.is_attached(l) {
                continue;
            }
            let for_hint = hint(m, l);
            let mut ifs = Vec::new();
            post_order(m, l, Opcode::If, &mut ifs);
            for i in ifs {
                let threshold = hint(m, i)
                    .or(for_hint)
                    .or(entry_hint)
                    .unwrap_or(split_threshold);
                if let Some(plan) = splittable(m, l, i, threshold) {
                    split(m, l, &plan);
                    splits += 1;
                    break;
                }
            }
        }
    }
    splits
}

/// The ops with `opcode` nested in `op`, in post-order (MLIR's default walk order).
fn post_order(m: &Module, op: Op, opcode: Opcode, out: &mut Vec<Op>) {
    for &r in m.regions(op) {
        for &b in m.region_blocks(r) {
            for o in m.block_ops(b) {
                post_order(m, o, opcode, out);
                if m.opcode(o) == opcode {
                    out.push(o);
                }
            }
        }
    }
}

/// The `cuda_tile.loop_split` threshold of `op`, if it has an integer one.
fn hint(m: &Module, op: Op) -> Option<i32> {
    m.extra_attrs(op)
        .iter()
        .find(|(k, _)| &**k == HINT_ATTR)
        .and_then(|(_, a)| match m.ctx.attrs.get(*a) {
            AttrData::Int { value, .. } => Some(*value as i32),
            _ => None,
        })
}

/// What a split needs.
struct Plan {
    /// The comparison, normalized to `iv <pred> rhs`.
    pred: ComparisonPredicate,
    rhs: Value,
    cmp: Op,
    /// The `if`s directly in the loop body that use `cmp`.
    ifs: FxHashSet<Op>,
    /// The second loop takes the then branches (`>`, `>=`).
    second_then: bool,
    /// `cmp` has users besides `ifs`: each loop gets the constant it has there.
    copy_cmp: bool,
}

fn signedness_of_for(m: &Module, l: Op) -> Signedness {
    if m.attr(l, 0).is_some() {
        Signedness::Unsigned
    } else {
        Signedness::Signed
    }
}

/// The predicate of `pred` with its operands swapped (`None` for `==` and `!=`).
fn swapped(pred: ComparisonPredicate) -> Option<ComparisonPredicate> {
    match pred {
        ComparisonPredicate::LessThan => Some(ComparisonPredicate::GreaterThan),
        ComparisonPredicate::LessThanOrEqual => Some(ComparisonPredicate::GreaterThanOrEqual),
        ComparisonPredicate::GreaterThan => Some(ComparisonPredicate::LessThan),
        ComparisonPredicate::GreaterThanOrEqual => Some(ComparisonPredicate::LessThanOrEqual),
        ComparisonPredicate::Equal | ComparisonPredicate::NotEqual => None,
    }
}

/// True if splitting at `i` seems worth it under `threshold` (NVIDIA's
/// `isSplitProfitable`).
fn profitable(m: &Module, i: Op, threshold: i32) -> bool {
    if threshold == 1 {
        return true;
    }
    let mut heavy = false;
    let mut sizes = [0i64; 2];
    for (k, &r) in m.regions(i).iter().take(2).enumerate() {
        let mut count = 0i64;
        for &b in m.region_blocks(r) {
            for o in m.block_ops(b) {
                heavy |= matches!(
                    m.opcode(o),
                    Opcode::LoadPtrTko
                        | Opcode::LoadViewTko
                        | Opcode::StorePtrTko
                        | Opcode::StoreViewTko
                        | Opcode::MmaF
                        | Opcode::MmaI
                        | Opcode::Reduce
                        | Opcode::If
                        | Opcode::For
                );
                count += 1;
            }
        }
        sizes[k] = count - 1;
    }
    let t = i64::from(threshold);
    sizes[0] >= t || sizes[1] >= t || heavy
}

/// True if a branch of `i` ends in `return` or `break` (which cannot move into a `for`
/// body).
fn leaves_loop(m: &Module, i: Op) -> bool {
    (0..m.regions(i).len()).any(|k| {
        ir::region_block(m, i, k)
            .and_then(|b| m.last_op(b))
            .is_some_and(|t| matches!(m.opcode(t), Opcode::Return | Opcode::Break))
    })
}

/// NVIDIA's `isSplittableCondition`: the split of loop `l` at `if` `i`, if there is one.
fn splittable(m: &Module, l: Op, i: Op, threshold: i32) -> Option<Plan> {
    if threshold == 0 {
        return None;
    }
    let cmp = ir::def_with(m, m.operand(i, 0), Opcode::CmpI)?;
    let pred =
        ComparisonPredicate::from_index(ir::enum_case(m, cmp, 0, EnumKind::ComparisonPredicate)?)?;
    let signedness = Signedness::from_index(ir::enum_case(m, cmp, 1, EnumKind::Signedness)?)?;
    if signedness != signedness_of_for(m, l) {
        return None;
    }
    let body = ir::region_block(m, l, 0)?;
    let iv = *m.block_args(body).first()?;
    let (pred, rhs) = if m.operand(cmp, 0) == iv {
        (pred, m.operand(cmp, 1))
    } else if m.operand(cmp, 1) == iv {
        (swapped(pred)?, m.operand(cmp, 0))
    } else {
        return None;
    };
    // The bound must not change inside the loop.
    if ir::defined_inside(m, rhs, l) {
        return None;
    }
    let second_then = match pred {
        ComparisonPredicate::GreaterThan | ComparisonPredicate::GreaterThanOrEqual => true,
        ComparisonPredicate::LessThan | ComparisonPredicate::LessThanOrEqual => false,
        ComparisonPredicate::Equal | ComparisonPredicate::NotEqual => return None,
    };
    let mut ifs = FxHashSet::default();
    let mut copy_cmp = false;
    let mut worth = false;
    let users: Vec<Op> = m.users(m.result(cmp, 0)).collect();
    for u in users {
        if m.opcode(u) == Opcode::If {
            worth |= profitable(m, u, threshold);
            if m.parent_op(u) == Some(l) {
                if leaves_loop(m, u) {
                    return None;
                }
                ifs.insert(u);
                continue;
            }
        }
        copy_cmp = true;
    }
    if !worth {
        return None;
    }
    Some(Plan {
        pred,
        rhs,
        cmp,
        ifs,
        second_then,
        copy_cmp,
    })
}

/// NVIDIA's `performLoopSplit`: the split point, the two loops, and the original replaced.
fn split(m: &mut Module, l: Op, plan: &Plan) {
    let lb = m.operand(l, 0);
    let ub = m.operand(l, 1);
    let step = m.operand(l, 2);
    let inits: Vec<Value> = (3..m.num_operands(l)).map(|k| m.operand(l, k)).collect();
    let signedness = signedness_of_for(m, l);
    let ty = m.value_type(step);
    let step_is_one = ir::def_with(m, step, Opcode::Constant).is_some()
        && matches!(
            m.ctx.types.get(m.ctx.types.element_type(ty)),
            tilec_ir::TypeData::Int(_)
        )
        && ir::splat_bits(m, step) == Some(1);
    let mut b = Builder::new(m);
    b.set_insertion_point(InsertPoint::Before(l));
    let mut at = plan.rhs;
    if matches!(
        plan.pred,
        ComparisonPredicate::GreaterThan | ComparisonPredicate::LessThanOrEqual
    ) {
        // `n + 1`, except `n` itself when `n` is the type's largest value (then the
        // condition `iv > n` is never true and `iv <= n` always: the split point `n` puts
        // every iteration in the right loop; NVIDIA's `n + 1` wraps around to the smallest
        // value and puts every iteration in the wrong one).
        let types = &b.module.ctx.types;
        let bits = types.storage_bits(types.element_type(ty));
        let max = match signedness {
            Signedness::Signed => (1u64 << (bits.clamp(1, 64) - 1)) - 1,
            Signedness::Unsigned => u64::MAX >> (64 - bits.clamp(1, 64)),
        };
        let largest = b.constant_bits(ty, vec![max]);
        let at_max = b.cmpi(ComparisonPredicate::Equal, at, largest, signedness);
        let zero = b.constant_int(ty, 0);
        let one = b.constant_int(ty, 1);
        let inc = b.select(at_max, zero, one);
        at = b.binary(Opcode::AddI, at, inc);
    }
    if !step_is_one {
        // Align the split point to the iteration space: lb + ceil((split - lb) / step) * step.
        let diff = b.binary(Opcode::SubI, at, lb);
        let s = b.enum_attr(EnumKind::Signedness, signedness as u8);
        let r = b.enum_attr(EnumKind::RoundingMode, RoundingMode::PositiveInf as u8);
        let div = b
            .create(
                Opcode::DivI,
                &[&[diff], &[step]],
                &[ty],
                &[("signedness", s), ("rounding", r)],
                0,
            )
            .unwrap_or_else(|e| unreachable!("divi: {e}"));
        let k = b.module.result(div, 0);
        let kstep = b.binary(Opcode::MulI, k, step);
        at = b.binary(Opcode::AddI, lb, kstep);
    }
    let hi = b.binary_signed(Opcode::MinI, at, ub, signedness);
    let lo = b.binary_signed(Opcode::MaxI, at, lb, signedness);
    let Some(body) = ir::region_block(m, l, 0) else {
        return;
    };
    let ops: Vec<Op> = m
        .block_ops(body)
        .filter(|o| plan.copy_cmp || *o != plan.cmp)
        .collect();
    let first = copy_loop(m, l, plan, &ops, lb, hi, &inits, !plan.second_then);
    let carried: Vec<Value> = m.results(first).collect();
    let second = copy_loop(m, l, plan, &ops, lo, ub, &carried, plan.second_then);
    let results: Vec<Value> = m.results(l).collect();
    for (k, r) in results.into_iter().enumerate() {
        let to = m.result(second, k);
        m.replace_all_uses(r, to);
    }
    m.erase_op(l);
}

/// NVIDIA's `copyLoop`: a copy of loop `l` before it over `lb..ub` starting from `inits`,
/// with `ops` of its body copied and each split `if` replaced by its then (`then`) or else
/// branch.
#[allow(clippy::too_many_arguments)]
fn copy_loop(
    m: &mut Module,
    l: Op,
    plan: &Plan,
    ops: &[Op],
    lb: Value,
    ub: Value,
    inits: &[Value],
    then: bool,
) -> Op {
    let step = m.operand(l, 2);
    let unsigned = m.attr(l, 0);
    let mut b = Builder::new(m);
    b.set_insertion_point(InsertPoint::Before(l));
    let (copy, body, iv, args) = b.for_(lb, ub, step, inits);
    m.set_attr(copy, 0, unsigned);
    m.set_op_span(copy, m.op_span(l));
    m.set_op_loc(copy, m.op_loc(l));
    let mut map: FxHashMap<Value, Value> = FxHashMap::default();
    if let Some(old) = ir::region_block(m, l, 0) {
        let old_args = m.block_args(old).to_vec();
        let new_args: Vec<Value> = std::iter::once(iv).chain(args).collect();
        for (o, n) in old_args.into_iter().zip(new_args) {
            map.insert(o, n);
        }
    }
    let at = InsertPoint::End(body);
    for &op in ops {
        if op == plan.cmp {
            let t = m.value_type(m.result(op, 0));
            let mut b = Builder::new(m);
            b.set_insertion_point(at);
            let c = b.constant_bits(t, vec![u64::from(then)]);
            map.insert(m.result(op, 0), c);
            continue;
        }
        if !plan.ifs.contains(&op) {
            ir::clone_op(m, op, &mut map, at);
            continue;
        }
        // A split `if`: the branch this loop takes, inline.
        let Some(branch) = ir::region_block(m, op, usize::from(!then)) else {
            continue;
        };
        let mut ended = false;
        let inner: Vec<Op> = m.block_ops(branch).collect();
        for o in inner {
            if m.opcode(o) == Opcode::Continue {
                ir::clone_op(m, o, &mut map, at);
                ended = true;
                break;
            }
            if m.opcode(o) == Opcode::Yield {
                let results: Vec<Value> = m.results(op).collect();
                for (r, y) in results.into_iter().zip(m.operands(o).collect::<Vec<_>>()) {
                    let v = map.get(&y).copied().unwrap_or(y);
                    map.insert(r, v);
                }
            } else {
                ir::clone_op(m, o, &mut map, at);
            }
        }
        if ended {
            break;
        }
    }
    copy
}

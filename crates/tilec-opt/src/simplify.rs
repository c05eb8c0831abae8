//! The recursive expression simplifier (canonicalizers-and-folds.md, "Recursive Expression
//! Simplifier"): boolean negation cleanup, variadic and/or folding, integer comparison
//! folding, arithmetic simplification, bit-vector constants and select simplification, on
//! integer and `i1` tiles.
//!
//! It runs after the greedy driver reaches its fixed point. Each function is visited in
//! order; every pure, region-free op with an integer or `i1` tile result is simplified by
//! [`Simplifier::simplify`], which first simplifies the op's operands (recursively, with a
//! depth cap), then applies the rules of the op's kind, and memoizes the result per value.
//! A simplified value is an existing value that dominates the original (an operand or a
//! hoisted constant) or a new op inserted right before the original's definition, so all
//! uses of the original can take it. Float ops are never touched (their folds are the fold
//! surface's business), nor are region-bearing ops (the patterns' business).

use crate::ir;
use crate::rewriter::Rewriter;
use tilec_ir::attrs::{ComparisonPredicate as P, Overflow, Signedness};
use tilec_ir::ops::Traits;
use tilec_ir::util::FxHashMap;
use tilec_ir::{EnumKind, Op, Opcode, Type, TypeData, Value};

/// Recursion depth beyond which values are kept as they are.
pub const MAX_DEPTH: u32 = 32;

/// Simplifies every function; true if anything changed.
pub fn simplify_module(rw: &mut Rewriter<'_>, funcs: &[Op]) -> bool {
    let mut s = Simplifier {
        memo: FxHashMap::default(),
        changed: false,
    };
    for &f in funcs {
        // Values never cross functions (they are isolated from above): a memo table per
        // function stays small.
        s.memo.clear();
        let mut ops = Vec::new();
        rw.m.walk_op(f, &mut |o| ops.push(o));
        for op in ops {
            if !rw.m.is_attached(op) || !candidate(rw, op) {
                continue;
            }
            let v = rw.m.result(op, 0);
            let r = s.simplify(rw, v, 0);
            if r != v {
                rw.replace_value(v, r);
                rw.stats.bump("Simplify");
                s.changed = true;
            }
        }
    }
    s.changed
}

/// The simplifier's state: the memo table.
pub struct Simplifier {
    memo: FxHashMap<Value, Value>,
    changed: bool,
}

/// Integer width of a tile's elements, if it is an integer tile.
fn int_width(rw: &Rewriter<'_>, ty: Type) -> Option<u32> {
    let t = &rw.m.ctx.types;
    if !t.is_tile(ty) {
        return None;
    }
    match t.get(t.element_type(ty)) {
        TypeData::Int(w) if *w <= 64 => Some(*w),
        _ => None,
    }
}

fn candidate(rw: &Rewriter<'_>, op: Op) -> bool {
    let m = &*rw.m;
    let kind_ok = matches!(
        m.opcode(op),
        Opcode::AndI
            | Opcode::OrI
            | Opcode::XOrI
            | Opcode::CmpI
            | Opcode::AddI
            | Opcode::SubI
            | Opcode::MulI
            | Opcode::ShLI
            | Opcode::ShRI
            | Opcode::Select
    );
    kind_ok
        && m.def(op).has(Traits::PURE)
        && m.regions(op).is_empty()
        && m.num_results(op) == 1
        && int_width(rw, m.value_type(m.result(op, 0))).is_some()
}

fn mask(w: u32) -> u64 {
    if w >= 64 { u64::MAX } else { (1u64 << w) - 1 }
}

use tilec_ir::util::sign_extend as sext;

impl Simplifier {
    /// The simplest known equivalent of `v` (memoized; `v` itself when nothing applies).
    pub fn simplify(&mut self, rw: &mut Rewriter<'_>, v: Value, depth: u32) -> Value {
        if depth > MAX_DEPTH {
            return v;
        }
        if let Some(&r) = self.memo.get(&v) {
            return r;
        }
        let Some(op) = rw.m.defining_op(v) else {
            return v;
        };
        if !candidate(rw, op) {
            return v;
        }
        // Simplify the operands first (they were visited before `op`, so usually this is a
        // memo hit; deeper chains are bounded by the depth cap).
        for i in 0..rw.m.num_operands(op) {
            let o = rw.m.operand(op, i);
            let s = self.simplify(rw, o, depth + 1);
            if s != o {
                rw.set_operand(op, i, s);
            }
        }
        let r = self.rule(rw, op).unwrap_or(v);
        self.memo.insert(v, r);
        if r != v {
            self.memo.insert(r, r);
        }
        r
    }

    fn constant(rw: &mut Rewriter<'_>, op: Op, bits: u64) -> Value {
        let ty = rw.m.value_type(rw.m.result(op, 0));
        let w = int_width(rw, ty).unwrap_or(64);
        rw.constant_bits(ty, vec![bits & mask(w)], op)
    }

    fn rule(&mut self, rw: &mut Rewriter<'_>, op: Op) -> Option<Value> {
        let m = &*rw.m;
        let ty = m.value_type(m.result(op, 0));
        let w = int_width(rw, ty)?;
        let all = mask(w);
        let k = |v: Value| ir::splat_bits(m, v).map(|x| x & all);
        match m.opcode(op) {
            Opcode::AndI | Opcode::OrI => self.and_or(rw, op, w),
            Opcode::XOrI => {
                let (a, b) = (m.operand(op, 0), m.operand(op, 1));
                match (k(a), k(b)) {
                    (Some(x), Some(y)) => Some(Self::constant(rw, op, x ^ y)),
                    _ if a == b => Some(Self::constant(rw, op, 0)),
                    (_, Some(0)) => Some(a),
                    (Some(0), _) => Some(b),
                    (_, Some(y)) => self.xor_const(rw, op, a, y, w),
                    _ => None,
                }
            }
            Opcode::CmpI => {
                let (a, b) = (m.operand(op, 0), m.operand(op, 1));
                let pred = P::from_index(ir::enum_case(m, op, 0, EnumKind::ComparisonPredicate)?)?;
                let signed =
                    ir::enum_case(m, op, 1, EnumKind::Signedness) == Some(Signedness::Signed as u8);
                let opw = int_width(rw, m.value_type(a))?;
                let result = if a == b {
                    matches!(pred, P::Equal | P::LessThanOrEqual | P::GreaterThanOrEqual)
                } else {
                    let x = ir::splat_bits(m, a)? & mask(opw);
                    let y = ir::splat_bits(m, b)? & mask(opw);
                    let ord = if signed {
                        sext(x, opw).cmp(&sext(y, opw))
                    } else {
                        x.cmp(&y)
                    };
                    use std::cmp::Ordering::*;
                    match pred {
                        P::Equal => ord == Equal,
                        P::NotEqual => ord != Equal,
                        P::LessThan => ord == Less,
                        P::LessThanOrEqual => ord != Greater,
                        P::GreaterThan => ord == Greater,
                        P::GreaterThanOrEqual => ord != Less,
                    }
                };
                Some(Self::constant(rw, op, u64::from(result)))
            }
            Opcode::AddI | Opcode::SubI | Opcode::MulI | Opcode::ShLI => {
                let (a, b) = (m.operand(op, 0), m.operand(op, 1));
                let opc = m.opcode(op);
                let flags = ir::enum_case(m, op, 0, EnumKind::Overflow)
                    .and_then(Overflow::from_index)
                    .unwrap_or(Overflow::None);
                if let (Some(x), Some(y)) = (k(a), k(b)) {
                    let r = arith(opc, x, y, w, flags)?;
                    return Some(Self::constant(rw, op, r));
                }
                match (opc, k(a), k(b)) {
                    (Opcode::AddI | Opcode::SubI | Opcode::ShLI, _, Some(0)) => Some(a),
                    (Opcode::AddI, Some(0), _) => Some(b),
                    (Opcode::SubI, _, _) if a == b => Some(Self::constant(rw, op, 0)),
                    (Opcode::MulI, _, Some(1)) => Some(a),
                    (Opcode::MulI, Some(1), _) => Some(b),
                    (Opcode::MulI, _, Some(0)) | (Opcode::MulI, Some(0), _) => {
                        Some(Self::constant(rw, op, 0))
                    }
                    _ => None,
                }
            }
            Opcode::ShRI => {
                let (a, b) = (m.operand(op, 0), m.operand(op, 1));
                let signed =
                    ir::enum_case(m, op, 0, EnumKind::Signedness) == Some(Signedness::Signed as u8);
                match (k(a), k(b)) {
                    (_, Some(0)) => Some(a),
                    (Some(x), Some(s)) if s < u64::from(w) => {
                        let r = if signed {
                            (sext(x, w) >> s) as u64
                        } else {
                            x >> s
                        };
                        Some(Self::constant(rw, op, r))
                    }
                    _ => None,
                }
            }
            Opcode::Select => {
                let (c, t, f) = (m.operand(op, 0), m.operand(op, 1), m.operand(op, 2));
                if t == f {
                    return Some(t);
                }
                if let Some(b) = ir::bool_const(m, c) {
                    return Some(if b { t } else { f });
                }
                if w == 1 {
                    match (k(t), k(f)) {
                        (Some(1), Some(0)) => return Some(c),
                        (Some(0), Some(1)) => {
                            let one = Self::constant(rw, op, 1);
                            let ty = rw.m.value_type(c);
                            return Some(rw.create_simple(Opcode::XOrI, &[c, one], ty, op));
                        }
                        _ => {}
                    }
                }
                None
            }
            _ => None,
        }
    }

    /// `xori(x, k)`: double negation and inverted comparisons.
    fn xor_const(
        &mut self,
        rw: &mut Rewriter<'_>,
        op: Op,
        a: Value,
        y: u64,
        w: u32,
    ) -> Option<Value> {
        let m = &*rw.m;
        let inner = m.defining_op(a)?;
        match m.opcode(inner) {
            // xori(xori(x, k1), k2) = xori(x, k1 ^ k2).
            Opcode::XOrI => {
                let k1 = ir::splat_bits(m, m.operand(inner, 1))? & mask(w);
                let x = m.operand(inner, 0);
                if k1 ^ y == 0 {
                    return Some(x);
                }
                let kc = Self::constant(rw, op, k1 ^ y);
                let ty = rw.m.value_type(a);
                Some(rw.create_simple(Opcode::XOrI, &[x, kc], ty, op))
            }
            // not(cmpi p, a, b) = cmpi !p, a, b (when the comparison has no other use).
            Opcode::CmpI if w == 1 && y == 1 && m.num_uses(a) == 1 => {
                let pred =
                    P::from_index(ir::enum_case(m, inner, 0, EnumKind::ComparisonPredicate)?)?;
                let inv = match pred {
                    P::Equal => P::NotEqual,
                    P::NotEqual => P::Equal,
                    P::LessThan => P::GreaterThanOrEqual,
                    P::LessThanOrEqual => P::GreaterThan,
                    P::GreaterThan => P::LessThanOrEqual,
                    P::GreaterThanOrEqual => P::LessThan,
                };
                let pa =
                    rw.m.ctx
                        .attrs
                        .enum_case(EnumKind::ComparisonPredicate, inv as u8);
                let sign = rw.m.attr(inner, 1);
                let operands = [rw.m.operand(inner, 0), rw.m.operand(inner, 1)];
                let ty = rw.m.value_type(a);
                let new = rw.create(
                    &tilec_ir::OpSpec {
                        opcode: Opcode::CmpI,
                        operands: &operands,
                        results: &[ty],
                        attrs: &[Some(pa), sign],
                        regions: 0,
                    },
                    tilec_ir::InsertPoint::Before(op),
                    inner,
                );
                Some(rw.m.result(new, 0))
            }
            _ => None,
        }
    }

    /// Variadic `andi`/`ori`: flattens chains, drops identities and duplicates, folds
    /// absorbing constants and `x op not(x)`, and rebuilds a left-deep chain if that is
    /// shorter.
    fn and_or(&mut self, rw: &mut Rewriter<'_>, op: Op, w: u32) -> Option<Value> {
        let m = &*rw.m;
        let opc = m.opcode(op);
        let all = mask(w);
        let (identity, absorbing) = if opc == Opcode::AndI {
            (all, 0)
        } else {
            (0, all)
        };
        let mut leaves = Vec::new();
        flatten(rw, op, opc, &mut leaves, 0);
        let m = &*rw.m;
        let mut acc = identity;
        let mut kept: Vec<Value> = Vec::new();
        for &l in &leaves {
            match ir::splat_bits(m, l) {
                Some(x) => {
                    acc = if opc == Opcode::AndI {
                        acc & x
                    } else {
                        acc | x
                    } & all;
                }
                None => {
                    if !kept.contains(&l) {
                        kept.push(l);
                    }
                }
            }
        }
        if acc == absorbing {
            return Some(Self::constant(rw, op, absorbing));
        }
        if w == 1 {
            for &l in &kept {
                if let Some(x) = ir::negated(m, l)
                    && kept.contains(&x)
                {
                    return Some(Self::constant(rw, op, absorbing));
                }
            }
        }
        // A constant that neither absorbs nor vanishes stays, as the last operand.
        let with_const = usize::from(acc != identity);
        if kept.len() + with_const >= leaves.len() {
            return None; // Nothing to drop or merge: the op is as simple as it gets.
        }
        if acc != identity {
            let c = Self::constant(rw, op, acc);
            kept.push(c);
        }
        match kept.len() {
            0 => Some(Self::constant(rw, op, identity)),
            1 => Some(kept[0]),
            _ => {
                let ty = rw.m.value_type(rw.m.result(op, 0));
                let mut v = kept[0];
                for &l in &kept[1..] {
                    v = rw.create_simple(opc, &[v, l], ty, op);
                }
                Some(v)
            }
        }
    }
}

/// Leaves of a chain of `opc` ops rooted at `op` (inner ops only when they have one use, so
/// that shared subexpressions are not duplicated).
fn flatten(rw: &Rewriter<'_>, op: Op, opc: Opcode, out: &mut Vec<Value>, depth: u32) {
    let m = &*rw.m;
    for i in 0..2 {
        let v = m.operand(op, i);
        match m.defining_op(v) {
            Some(d) if m.opcode(d) == opc && m.num_uses(v) == 1 && depth < MAX_DEPTH => {
                flatten(rw, d, opc, out, depth + 1)
            }
            _ => out.push(v),
        }
    }
}

/// Integer arithmetic on splat constants with wrap-around; `None` where the op's overflow
/// flag promises no wrap and the result would wrap (undefined behaviour is not folded), or
/// for shifts by the width or more.
fn arith(opc: Opcode, x: u64, y: u64, w: u32, flags: Overflow) -> Option<u64> {
    let all = mask(w);
    let (sx, sy) = (sext(x, w) as i128, sext(y, w) as i128);
    let (ux, uy) = (x as u128, y as u128);
    let (exact_s, exact_u, r) = match opc {
        Opcode::AddI => (sx + sy, ux + uy, x.wrapping_add(y)),
        // Unsigned subtraction wraps exactly when y > x (checked below).
        Opcode::SubI => (sx - sy, 0, x.wrapping_sub(y)),
        Opcode::MulI => (sx * sy, ux * uy, x.wrapping_mul(y)),
        Opcode::ShLI => {
            if y >= u64::from(w) {
                return None;
            }
            (sx << y, ux << y, x << y)
        }
        _ => return None,
    };
    let r = r & all;
    let signed_ok = exact_s == sext(r, w) as i128;
    let unsigned_ok = if opc == Opcode::SubI {
        x >= y
    } else {
        exact_u == r as u128
    };
    let ok = match flags {
        Overflow::None => true,
        Overflow::NoSignedWrap => signed_ok,
        Overflow::NoUnsignedWrap => unsigned_ok,
        Overflow::NoWrap => signed_ok && unsigned_ok,
    };
    ok.then_some(r)
}

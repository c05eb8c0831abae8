//! Does an op fit its custom syntax?
//!
//! An op's custom form leaves out what its op table entry implies: the types that
//! [`infer`](super::infer) recovers, the counts of fixed slots, the implicit terminators of
//! regions, the operand segment sizes. An op that breaks those rules (it can be built with
//! the [`Builder`](crate::Builder) or written in the generic form) cannot be printed in its
//! custom form without changing its meaning: the text would fail to parse again, or parse
//! into a different op. MLIR's printer guards against this by verifying an op before
//! printing it and falling back to the generic form when verification fails; the printer
//! here asks [`fits_custom_syntax`] instead and prints only the offending op generically.
//!
//! This is deliberately the part of verification that the syntax depends on, and nothing
//! else; the verifier proper reports every rule with its exact wording.

use super::format::{Anchor, Custom, Elem, Format, TypeRef};
use super::infer::{SlotTypes, TypeList, infer_types};
use super::{Arity, AttrKind, CustomSyntax, OpDef, Opcode, Traits};
use crate::attrs::AttrData;
use crate::module::{Module, Op, Region, Value};
use crate::segments;
use crate::types::{DYNAMIC, Type, TypeData};
use crate::util::FxHashMap;
use std::ops::Range;
use std::sync::OnceLock;

/// Why an op cannot be printed in its custom form.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Misfit {
    /// Not a registered op: only the generic form exists.
    Unregistered,
    /// The op table entry has no usable custom syntax.
    NoSyntax,
    /// The operands do not split into the op's operand slots (counts or segment sizes).
    Operands,
    /// The results do not split into the op's result slots.
    Results,
    /// An operand slot's type is not the one the custom form implies.
    OperandType(usize),
    /// A result slot's type is not the one the custom form implies.
    ResultType(usize),
    /// An attribute is missing, has the wrong kind, or has no place in the custom form.
    Attribute(usize),
    /// A region has the wrong number of blocks, block arguments the form does not show,
    /// or lacks the terminator the parser would add.
    Region(usize),
    /// A terminator is followed by more ops: its trailing optional operand list would
    /// swallow the names of the next op's results (`yield` then `%4 = ...`).
    TerminatorNotLast,
    /// A rule of a hand-written syntax is broken (e.g. a `for` whose induction variable
    /// differs in type from its bounds).
    Custom,
}

/// Checks that printing `op` in its custom form and parsing the text again yields the same
/// op (regions' contents aside: nested ops are checked on their own). To check many ops,
/// use a [`Checker`], which remembers the answers for ops of the same signature.
pub fn fits_custom_syntax(m: &Module, op: Op) -> Result<(), Misfit> {
    Checker::default().check(m, op)
}

/// Checks ops against their custom syntax, remembering the answer for each op signature
/// (opcode, operand and result types, attributes, entry-block argument types): a module
/// has few distinct signatures, so most checks are one hash lookup. Only the structure of
/// regions (blocks, terminators) is looked at for every op.
#[derive(Default)]
pub struct Checker {
    memo: FxHashMap<Box<[u32]>, Result<(), Misfit>>,
    key: Vec<u32>,
}

impl Checker {
    /// A checker with nothing remembered yet.
    pub fn new() -> Checker {
        Checker::default()
    }

    /// Like [`fits_custom_syntax`].
    pub fn check(&mut self, m: &Module, op: Op) -> Result<(), Misfit> {
        if m.unregistered_name(op).is_some() {
            return Err(Misfit::Unregistered);
        }
        let def = m.def(op);
        if m.regions(op).len() != def.regions.len() {
            return Err(Misfit::Region(m.regions(op).len().min(def.regions.len())));
        }
        if def.has(Traits::TERMINATOR) && m.next_op(op).is_some() {
            return Err(Misfit::TerminatorNotLast);
        }
        self.signature_key(m, op);
        let verdict = match self.memo.get(self.key.as_slice()) {
            Some(v) => *v,
            None => {
                let v = signature_fits(m, op, def);
                self.memo.insert(self.key.as_slice().into(), v);
                v
            }
        };
        verdict?;
        let args_shown = region_args_shown(def);
        for (i, &r) in m.regions(op).iter().enumerate() {
            check_region(m, def, i, r, args_shown & bit(i) != 0)?;
        }
        Ok(())
    }

    /// Everything [`signature_fits`] reads, as a flat key.
    fn signature_key(&mut self, m: &Module, op: Op) {
        let k = &mut self.key;
        k.clear();
        k.push(m.opcode(op) as u32);
        k.push(m.num_operands(op) as u32);
        k.extend(m.operands(op).map(|v| m.value_type(v).as_u32()));
        k.push(m.num_results(op) as u32);
        k.extend(m.results(op).map(|v| m.value_type(v).as_u32()));
        for i in 0..m.def(op).attrs.len() {
            k.push(m.attr(op, i).map_or(u32::MAX, |a| a.as_u32()));
        }
        for &r in m.regions(op) {
            let blocks = m.region_blocks(r);
            k.push(blocks.len() as u32);
            if let Some(&b) = blocks.first() {
                k.push(m.block_args(b).len() as u32);
                k.extend(m.block_args(b).iter().map(|a| m.value_type(*a).as_u32()));
            }
        }
    }
}

/// The checks that depend only on an op's signature (see [`Checker`]).
fn signature_fits(m: &Module, op: Op, def: &OpDef) -> Result<(), Misfit> {
    let operands = operand_slots(m, op, def)?;
    let results = result_slots(m, op, def)?;
    check_attr_kinds(m, op, def)?;
    match (def.custom(), def.format()) {
        (Some(c), _) => check_custom(m, op, def, c),
        (None, Some(f)) => check_format(m, op, def, f, &operands, &results),
        (None, None) => Err(Misfit::NoSyntax),
    }
}

/// The regions whose block arguments the op's syntax shows, as a bit set: all regions of
/// hand-written syntaxes, and those a format prints as plain regions or with
/// `custom<ArgRegion>`.
fn region_args_shown(def: &OpDef) -> u64 {
    static SHOWN: OnceLock<Vec<u64>> = OnceLock::new();
    SHOWN.get_or_init(|| {
        super::all()
            .iter()
            .map(|d| match (d.custom(), d.format()) {
                (Some(_), _) => u64::MAX,
                (None, Some(f)) => {
                    let mut shown = 0;
                    visit(&f.elems, &mut |e| {
                        if let Elem::Region(i) | Elem::Custom(Custom::ArgRegion(i)) = e {
                            shown |= bit(*i);
                        }
                    });
                    shown
                }
                (None, None) => 0,
            })
            .collect()
    })[def.opcode as usize]
}

/// The operand range of each slot, checked against the slots' arities.
fn operand_slots(m: &Module, op: Op, def: &OpDef) -> Result<Vec<Range<usize>>, Misfit> {
    let n = m.num_operands(op);
    if def.needs_segments() {
        // The printer leaves the sizes out: they must be exactly what the text implies.
        let seg = def
            .attrs
            .iter()
            .position(|a| a.kind == AttrKind::OperandSegments)
            .and_then(|i| m.attr(op, i))
            .map(|a| m.ctx.attrs.get(a));
        match seg {
            Some(AttrData::DenseI32Array(v))
                if v.len() == def.operands.len()
                    && v.iter().all(|x| *x >= 0)
                    && v.iter().map(|x| *x as usize).sum::<usize>() == n => {}
            _ => return Err(Misfit::Operands),
        }
    }
    let ranges = segments::operand_ranges(m, op);
    let total: usize = ranges.iter().map(|r| r.len()).sum();
    if ranges.len() != def.operands.len() || total != n {
        return Err(Misfit::Operands);
    }
    for (r, s) in ranges.iter().zip(def.operands) {
        if !arity_allows(s.arity, r.len()) {
            return Err(Misfit::Operands);
        }
    }
    Ok(ranges)
}

/// The result range of each slot, checked against the slots' arities.
fn result_slots(m: &Module, op: Op, def: &OpDef) -> Result<Vec<Range<usize>>, Misfit> {
    let ranges = segments::result_ranges(m, op);
    let total: usize = ranges.iter().map(|r| r.len()).sum();
    if total != m.num_results(op) {
        return Err(Misfit::Results);
    }
    for (r, s) in ranges.iter().zip(def.results) {
        if !arity_allows(s.arity, r.len()) {
            return Err(Misfit::Results);
        }
    }
    Ok(ranges)
}

fn arity_allows(a: Arity, n: usize) -> bool {
    match a {
        Arity::One => n == 1,
        Arity::Optional => n <= 1,
        Arity::Variadic => true,
    }
}

/// Every attribute in a slot has the slot's kind, and required ones are present.
fn check_attr_kinds(m: &Module, op: Op, def: &OpDef) -> Result<(), Misfit> {
    for (i, a) in def.attrs.iter().enumerate() {
        let fits = match m.attr(op, i) {
            None => a.presence != super::Presence::Required,
            Some(v) => attr_fits(a.kind, m.ctx.attrs.get(v)),
        };
        if !fits {
            return Err(Misfit::Attribute(i));
        }
    }
    Ok(())
}

/// True if attribute data has the shape an attribute kind expects.
pub fn attr_fits(kind: AttrKind, d: &AttrData) -> bool {
    match kind {
        AttrKind::Enum(k) => {
            matches!(d, AttrData::Enum(k2, v) if *k2 == k && (*v as usize) < k.cases().len())
        }
        AttrKind::Unit => matches!(d, AttrData::Unit),
        AttrKind::Bool => matches!(d, AttrData::Bool(_)),
        AttrKind::I64 | AttrKind::I32 => matches!(d, AttrData::Int { .. }),
        AttrKind::String | AttrKind::SymbolName => matches!(d, AttrData::String(_)),
        AttrKind::SymbolRef => matches!(d, AttrData::SymbolRef(_)),
        AttrKind::Dense => matches!(d, AttrData::Dense(_)),
        AttrKind::TypeAttr => matches!(d, AttrData::Type(_)),
        AttrKind::DictArray | AttrKind::Array => matches!(d, AttrData::Array(_)),
        AttrKind::OptHints => matches!(d, AttrData::OptHints(_)),
        AttrKind::AssumePredicate => matches!(
            d,
            AttrData::DivBy { .. } | AttrData::SameElements(_) | AttrData::Bounded { .. }
        ),
        AttrKind::DenseI32Array | AttrKind::OperandSegments => {
            matches!(d, AttrData::DenseI32Array(_))
        }
        AttrKind::BytecodeTestValue => matches!(d, AttrData::BytecodeTestValue(_)),
    }
}

/// What a format writes for one op: which slots' types, which attributes.
#[derive(Default)]
struct Written {
    operand_types: u64,
    result_types: u64,
    attrs: u64,
    /// The format has an `attr-dict`, where the attributes it does not place go.
    dict: bool,
    /// The attribute slot of a dense constant printed with the result's type.
    dense_of_result: Option<usize>,
}

fn bit(i: usize) -> u64 {
    1u64 << (i & 63)
}

/// True if an optional group anchored at `a` is printed for `op`.
pub(crate) fn anchor_present(
    m: &Module,
    op: Op,
    operands: &[Range<usize>],
    results: &[Range<usize>],
    a: Anchor,
) -> bool {
    match a {
        Anchor::Operand(i) => operands.get(i).is_some_and(|r| !r.is_empty()),
        Anchor::Result(i) => results.get(i).is_some_and(|r| !r.is_empty()),
        Anchor::Region(i) => m
            .regions(op)
            .get(i)
            .is_some_and(|r| !m.region_blocks(*r).is_empty()),
        Anchor::Attr(i) => {
            let def = m.def(op);
            match m.attr(op, i) {
                None => false,
                Some(v) => match def.attrs[i].presence {
                    super::Presence::DefaultEnum(d) => {
                        !matches!(m.ctx.attrs.get(v), AttrData::Enum(_, x) if *x == d)
                    }
                    super::Presence::DefaultInt(d) => m.ctx.attrs.get_int(v) != Some(d),
                    _ => true,
                },
            }
        }
    }
}

fn collect_written(
    m: &Module,
    op: Op,
    operands: &[Range<usize>],
    results: &[Range<usize>],
    elems: &[Elem],
    present: bool,
    w: &mut Written,
) {
    for e in elems {
        match e {
            Elem::Type(TypeRef::Operand(i)) | Elem::QualifiedType(TypeRef::Operand(i))
                if present =>
            {
                w.operand_types |= bit(*i)
            }
            Elem::Type(TypeRef::Result(i)) | Elem::QualifiedType(TypeRef::Result(i)) if present => {
                w.result_types |= bit(*i)
            }
            Elem::SplatType(i) if present => w.operand_types |= bit(*i),
            // Attributes count as written wherever they appear: an absent optional group
            // stands for an absent (or default) attribute, which the parser restores.
            Elem::Attr(i) => w.attrs |= bit(*i),
            Elem::OIList(clauses) => {
                for (_, i) in clauses {
                    w.attrs |= bit(*i);
                }
            }
            Elem::Custom(c) => match *c {
                Custom::Rounding(i)
                | Custom::DivFRounding(i)
                | Custom::SqrtRounding(i)
                | Custom::ApproxRounding(i)
                | Custom::IntRounding(i)
                | Custom::Signedness(i)
                | Custom::Predicate(i)
                | Custom::Ordering(i)
                | Custom::Visibility(i) => w.attrs |= bit(i),
                Custom::Dense { value, result } => {
                    w.attrs |= bit(value);
                    if result.is_some() {
                        w.dense_of_result = Some(value);
                    }
                    if let Some(r) = result
                        && present
                    {
                        w.result_types |= bit(r);
                    }
                }
                Custom::Memory { ordering, scope } => w.attrs |= bit(ordering) | bit(scope),
                Custom::ArgRegion(_) | Custom::IfRegion(_) => {}
            },
            Elem::Optional { elems, anchor } => {
                let p = present && anchor_present(m, op, operands, results, *anchor);
                collect_written(m, op, operands, results, elems, p, w);
            }
            Elem::AttrDict { .. } => w.dict = true,
            _ => {}
        }
    }
}

fn check_format(
    m: &Module,
    op: Op,
    def: &OpDef,
    f: &Format,
    operands: &[Range<usize>],
    results: &[Range<usize>],
) -> Result<(), Misfit> {
    let mut w = Written::default();
    collect_written(m, op, operands, results, &f.elems, true, &mut w);

    // Attributes the format has no place for would be lost.
    for (i, a) in def.attrs.iter().enumerate() {
        if a.kind != AttrKind::OperandSegments
            && w.attrs & bit(i) == 0
            && !w.dict
            && m.attr(op, i).is_some()
        {
            return Err(Misfit::Attribute(i));
        }
    }
    // A constant's value is printed with the result's type.
    if let Some(value) = w.dense_of_result
        && let Some(a) = m.attr(op, value)
        && let AttrData::Dense(d) = m.ctx.attrs.get(a)
        && (m.num_results(op) != 1 || d.ty != m.value_type(m.result(op, 0)))
    {
        return Err(Misfit::Attribute(value));
    }

    // Types: what the format writes, plus what inference recovers, must be the truth.
    let all_operands: Vec<Value> = m.operands(op).collect();
    let all_results: Vec<Value> = m.results(op).collect();
    let actual_operands: Vec<Vec<Type>> = operands
        .iter()
        .map(|r| types(m, all_operands[r.clone()].iter().copied()))
        .collect();
    let actual_results: Vec<Vec<Type>> = results
        .iter()
        .map(|r| types(m, all_results[r.clone()].iter().copied()))
        .collect();
    // A splat type list (`splat-type`) writes one type when all are equal and every type
    // otherwise (NVIDIA's view index types), so any list of types prints.
    let mut t = SlotTypes {
        operands: actual_operands
            .iter()
            .enumerate()
            .map(|(i, v)| (w.operand_types & bit(i) != 0).then(|| TypeList::from_slice(v)))
            .collect(),
        results: actual_results
            .iter()
            .enumerate()
            .map(|(i, v)| (w.result_types & bit(i) != 0).then(|| TypeList::from_slice(v)))
            .collect(),
    };
    let counts: Vec<usize> = operands.iter().map(|r| r.len()).collect();
    let types = &m.ctx.types;
    infer_types(def, &counts, &mut t, &mut |lhs| {
        let shape: Box<[i64]> = match types.get(lhs) {
            TypeData::Tile { shape, .. } => shape.clone(),
            _ => Box::new([]),
        };
        types.lookup(&TypeData::Tile {
            shape,
            elem: Type::I1,
            encoding: None,
        })
    });
    for (i, actual) in actual_operands.iter().enumerate() {
        if t.operands[i].as_deref() != Some(actual.as_slice()) {
            return Err(Misfit::OperandType(i));
        }
    }
    for (i, actual) in actual_results.iter().enumerate() {
        if t.results[i].as_deref() != Some(actual.as_slice()) {
            return Err(Misfit::ResultType(i));
        }
    }

    Ok(())
}

/// Calls `f` on every element of a format, optional groups and their contents included.
fn visit(elems: &[Elem], f: &mut impl FnMut(&Elem)) {
    for e in elems {
        f(e);
        if let Elem::Optional { elems, .. } = e {
            visit(elems, f);
        }
    }
}

/// A region holds at most one block (exactly one unless optional); block arguments only
/// where the syntax shows them; and the terminator the parser would otherwise add.
fn check_region(
    m: &Module,
    def: &OpDef,
    i: usize,
    r: Region,
    args_shown: bool,
) -> Result<(), Misfit> {
    let rd = &def.regions[i];
    let blocks = m.region_blocks(r);
    match blocks.len() {
        0 if rd.optional => return Ok(()),
        1 => {}
        _ => return Err(Misfit::Region(i)),
    }
    let b = blocks[0];
    if !args_shown && !m.block_args(b).is_empty() {
        return Err(Misfit::Region(i));
    }
    if rd.implicit_terminator.is_some() {
        let ends_in_terminator = m
            .last_op(b)
            .is_some_and(|l| m.unregistered_name(l).is_none() && m.def(l).has(Traits::TERMINATOR));
        if !ends_in_terminator {
            return Err(Misfit::Region(i));
        }
    }
    Ok(())
}

fn types(m: &Module, vs: impl Iterator<Item = Value>) -> Vec<Type> {
    vs.map(|v| m.value_type(v)).collect()
}

fn check_custom(m: &Module, op: Op, def: &OpDef, c: CustomSyntax) -> Result<(), Misfit> {
    let ok = |b: bool| if b { Ok(()) } else { Err(Misfit::Custom) };
    let attr = |name: &str| def.attr_index(name).and_then(|i| m.attr(op, i));
    // Only these attributes have a place in the hand-written syntaxes.
    let shown: &[&str] = match c {
        CustomSyntax::Function => &["sym_name", "function_type", "optimization_hints"],
        CustomSyntax::For => &["unsignedCmp"],
        CustomSyntax::Assume => &["predicate"],
        CustomSyntax::MakeTensorView => &["operandSegmentSizes"],
        _ => &[],
    };
    for (i, a) in def.attrs.iter().enumerate() {
        if m.attr(op, i).is_some() && !shown.contains(&a.name) {
            return Err(Misfit::Attribute(i));
        }
    }
    let operand_types = types(m, m.operands(op));
    let result_types = types(m, m.results(op));
    let body = m.regions(op).first().copied();
    let entry_args: Vec<Type> = body
        .and_then(|r| m.entry_block(r))
        .map(|b| types(m, m.block_args(b).iter().copied()))
        .unwrap_or_default();
    match c {
        CustomSyntax::Function => {
            let Some(AttrData::Type(ft)) = attr("function_type").map(|a| m.ctx.attrs.get(a)) else {
                return Err(Misfit::Custom);
            };
            let TypeData::Function { inputs, .. } = m.ctx.types.get(*ft) else {
                return Err(Misfit::Custom);
            };
            ok(**inputs == *entry_args && m.num_operands(op) == 0 && m.num_results(op) == 0)
        }
        CustomSyntax::For => {
            let Some((iv, iters)) = entry_args.split_first() else {
                return Err(Misfit::Custom);
            };
            ok(operand_types.len() >= 3
                && operand_types[..3].iter().all(|t| t == iv)
                && operand_types[3..] == *iters
                && result_types == iters)
        }
        CustomSyntax::Loop => ok(operand_types == entry_args),
        CustomSyntax::MakeTensorView => {
            let groups = segments::operand_groups(m, op);
            let [rt] = result_types[..] else {
                return Err(Misfit::Custom);
            };
            let TypeData::TensorView {
                shape,
                strides,
                elem,
            } = m.ctx.types.get(rt)
            else {
                return Err(Misfit::Custom);
            };
            let dynamic = |dims: &[i64]| dims.iter().filter(|d| **d == DYNAMIC).count();
            let index_types = types(m, groups[1].iter().chain(&groups[2]).copied());
            let base = m.ctx.types.lookup(&TypeData::Ptr(*elem)).and_then(|p| {
                m.ctx.types.lookup(&TypeData::Tile {
                    shape: Box::new([]),
                    elem: p,
                    encoding: None,
                })
            });
            ok(groups[1].len() == dynamic(shape)
                && groups[2].len() == dynamic(strides)
                && index_types.windows(2).all(|p| p[0] == p[1])
                && base == Some(operand_types[0]))
        }
        CustomSyntax::MakePartitionView => match (&operand_types[..], &result_types[..]) {
            ([tv], [pv]) => ok(match (m.ctx.types.get(*pv), def.opcode) {
                (TypeData::PartitionView { tensor_view, .. }, Opcode::MakePartitionView)
                | (TypeData::StridedView { tensor_view, .. }, Opcode::MakeStridedView)
                | (
                    TypeData::GatherScatterView { tensor_view, .. },
                    Opcode::MakeGatherScatterView,
                ) => tensor_view == tv,
                _ => false,
            }),
            _ => Err(Misfit::Custom),
        },
        CustomSyntax::GetShape => {
            let [src] = operand_types[..] else {
                return Err(Misfit::Custom);
            };
            let rank = match (m.ctx.types.get(src), def.opcode) {
                (TypeData::TensorView { shape, .. }, Opcode::GetTensorShape) => shape.len(),
                (
                    TypeData::PartitionView { tile, .. }
                    | TypeData::StridedView { tile, .. }
                    | TypeData::GatherScatterView { tile, .. },
                    Opcode::GetIndexSpaceShape,
                ) => tile.len(),
                _ => return Err(Misfit::Custom),
            };
            ok(result_types.len() == rank && result_types.windows(2).all(|p| p[0] == p[1]))
        }
        CustomSyntax::Assume => {
            let [t] = operand_types[..] else {
                return Err(Misfit::Custom);
            };
            // NVIDIA's form (with a predicate) has a result of the operand's type; the
            // spec's form (`assume %cond : tile<i1>`) has none.
            ok(match attr("predicate") {
                Some(_) => result_types == [t],
                None => result_types.is_empty(),
            })
        }
    }
}

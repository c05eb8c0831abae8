//! Printing ops from their op-table format.
//!
//! Spacing follows MLIR's generated printers exactly. Two flags evolve while walking the
//! format: `space` ("a space may be needed before the next element") and `punct` ("the last
//! element was punctuation"). They are updated for every element of an optional group
//! whether or not the group is printed — MLIR computes them when it generates the printer,
//! not when it runs — which is why, for example, `addf %a, %b  : tile<f32>` has two spaces
//! when the rounding mode is the default.

use super::Printer;
use crate::attrs::{Attr, AttrData, EnumKind, RoundingMode, write_string_literal, write_symbol};
use crate::module::{Op, Value};
use crate::ops::conform::anchor_present;
use crate::ops::format::{Anchor, Custom, Elem, Format, TypeRef};
use crate::ops::{AttrKind, OpDef};
use crate::util::push_i64;
use std::ops::Range;

struct Flags {
    space: bool,
    punct: bool,
}

pub(super) fn print_format(p: &mut Printer<'_>, op: Op, f: &Format) {
    let mut flags = Flags {
        space: true,
        punct: false,
    };
    let m = p.m;
    let slots = Slots {
        operands: m.operand_vec(op),
        operand_ranges: crate::segments::operand_ranges(m, op),
        results: m.results(op).collect(),
        result_ranges: crate::segments::result_ranges(m, op),
    };
    for e in &f.elems {
        elem(p, op, &slots, e, &mut flags, true);
    }
}

/// An op's operands and results, split into its slots.
struct Slots {
    operands: Vec<Value>,
    operand_ranges: Vec<Range<usize>>,
    results: Vec<Value>,
    result_ranges: Vec<Range<usize>>,
}

impl Slots {
    fn operand_slot(&self, i: usize) -> &[Value] {
        self.operand_ranges
            .get(i)
            .map_or(&[], |r| &self.operands[r.clone()])
    }

    fn result_slot(&self, i: usize) -> &[Value] {
        self.result_ranges
            .get(i)
            .map_or(&[], |r| &self.results[r.clone()])
    }
}

fn space_before(lit: &str, punct: bool) -> bool {
    if lit.len() != 1 && lit != "->" {
        return true;
    }
    let c = lit.as_bytes()[0];
    if punct {
        !b">)}],".contains(&c)
    } else {
        !b"<>(){}[],".contains(&c)
    }
}

fn literal(p: &mut Printer<'_>, lit: &str, f: &mut Flags, emit: bool) {
    if emit {
        if f.space && space_before(lit, f.punct) {
            p.out.push(' ');
        }
        p.out.push_str(lit);
    }
    let c = lit.as_bytes()[0];
    f.space = lit.len() != 1 || !b"<({[".contains(&c);
    f.punct = c != b'_' && !c.is_ascii_alphabetic();
}

fn lead(p: &mut Printer<'_>, f: &mut Flags, emit: bool) {
    if emit && (f.space || !f.punct) {
        p.out.push(' ');
    }
    f.punct = false;
    f.space = true;
}

fn elem(p: &mut Printer<'_>, op: Op, slots: &Slots, e: &Elem, f: &mut Flags, emit: bool) {
    let m = p.m;
    match e {
        Elem::Lit(l) => literal(p, l, f, emit),
        Elem::Space => {
            if emit {
                p.out.push(' ');
            }
            f.punct = false;
            f.space = false;
        }
        Elem::NoSpace => {
            f.punct = true;
            f.space = false;
        }
        Elem::AttrDict { with_keyword } => {
            if emit {
                p.print_extra_attrs(op, *with_keyword);
            }
            f.punct = false;
        }
        Elem::Optional { elems, anchor } => {
            let present =
                emit && anchor_present(m, op, &slots.operand_ranges, &slots.result_ranges, *anchor);
            // A unit-attribute anchor that is not the first element is not printed itself.
            let elided = match anchor {
                Anchor::Attr(i) if m.def(op).attrs[*i].kind == AttrKind::Unit => elems
                    .iter()
                    .position(|x| *x == Elem::Attr(*i))
                    .filter(|&pos| pos != 0),
                _ => None,
            };
            for (k, c) in elems.iter().enumerate() {
                if Some(k) == elided {
                    continue;
                }
                elem(p, op, slots, c, f, present);
            }
        }
        Elem::OIList(clauses) => {
            for (kw, a) in clauses {
                let present = emit && m.attr(op, *a).is_some();
                literal(p, kw, f, present);
            }
        }
        Elem::Operand(i) => {
            lead(p, f, emit);
            if emit {
                p.write_values(slots.operand_slot(*i).iter().copied());
            }
        }
        Elem::Attr(i) => {
            lead(p, f, emit);
            if emit && let Some(a) = m.attr(op, *i) {
                write_attr_value(p, m.def(op), *i, a);
            }
        }
        Elem::Region(i) => {
            lead(p, f, emit);
            if emit && let Some(&r) = m.regions(op).get(*i) {
                p.print_region(r, true, true, false, false);
            }
        }
        Elem::Type(t) => {
            lead(p, f, emit);
            if emit {
                let vs = match t {
                    TypeRef::Operand(i) => slots.operand_slot(*i),
                    TypeRef::Result(i) => slots.result_slot(*i),
                };
                p.write_types(vs.iter().map(|v| m.value_type(*v)));
            }
        }
        Elem::QualifiedType(t) => {
            lead(p, f, emit);
            if emit {
                let vs = match t {
                    TypeRef::Operand(i) => slots.operand_slot(*i),
                    TypeRef::Result(i) => slots.result_slot(*i),
                };
                for (k, v) in vs.iter().enumerate() {
                    if k > 0 {
                        p.out.push_str(", ");
                    }
                    p.write_qualified_type(m.value_type(*v));
                }
            }
        }
        Elem::SplatType(i) => {
            lead(p, f, emit);
            let vs = slots.operand_slot(*i);
            if emit && let Some(v) = vs.first() {
                let first = m.value_type(*v);
                if vs.iter().all(|x| m.value_type(*x) == first) {
                    p.write_type(first);
                } else {
                    p.write_types(vs.iter().map(|x| m.value_type(*x)));
                }
            }
        }
        Elem::Custom(c) => {
            lead(p, f, emit);
            if emit {
                custom(p, op, *c);
            }
        }
    }
}

/// Prints an attribute the way an assembly format prints `$attr`.
fn write_attr_value(p: &mut Printer<'_>, def: &OpDef, slot: usize, a: Attr) {
    let m = p.m;
    match (def.attrs[slot].kind, m.ctx.attrs.get(a)) {
        (AttrKind::Enum(k), AttrData::Enum(_, v)) => {
            let name = k.cases().get(*v as usize).copied().unwrap_or("?");
            if k.mnemonic().is_some() {
                p.out.push('<');
                p.out.push_str(name);
                p.out.push('>');
            } else {
                p.out.push_str(name);
            }
        }
        (_, AttrData::Int { value, .. }) => push_i64(&mut p.out, *value),
        (_, AttrData::Bool(b)) => p.out.push_str(if *b { "true" } else { "false" }),
        (AttrKind::SymbolName, AttrData::String(s)) => write_symbol(&mut p.out, s),
        (_, AttrData::String(s)) => write_string_literal(&mut p.out, s),
        (_, AttrData::SymbolRef(s)) => write_symbol(&mut p.out, s),
        (_, AttrData::DenseI32Array(v)) => {
            p.out.push('[');
            for (i, x) in v.iter().enumerate() {
                if i > 0 {
                    p.out.push_str(", ");
                }
                push_i64(&mut p.out, *x as i64);
            }
            p.out.push(']');
        }
        (AttrKind::BytecodeTestValue, AttrData::BytecodeTestValue(v)) => {
            p.out.push('<');
            push_i64(&mut p.out, *v);
            p.out.push('>');
        }
        (_, AttrData::OptHints(d)) => {
            let d = *d;
            let mut s = std::mem::take(&mut p.out);
            p.attr_printer_write_opt_hints(&mut s, d);
            p.out = s;
        }
        _ => p.write_attr(a),
    }
}

impl Printer<'_> {
    fn attr_printer_write_opt_hints(&self, out: &mut String, dict: Attr) {
        crate::attrs::AttrPrinter {
            types: &self.m.ctx.types,
            attrs: &self.m.ctx.attrs,
            aliases: None,
        }
        .write_opt_hints_body(out, dict);
    }
}

fn rounding(p: &mut Printer<'_>, op: Op, slot: usize, default: RoundingMode) {
    let m = p.m;
    if let Some(a) = m.attr(op, slot)
        && let Some(v) = m.ctx.attrs.get_enum(a, EnumKind::RoundingMode)
        && v != default as u8
    {
        p.out.push_str("rounding<");
        p.out.push_str(EnumKind::RoundingMode.cases()[v as usize]);
        p.out.push('>');
    }
}

fn enum_keyword(p: &mut Printer<'_>, op: Op, slot: usize) {
    let m = p.m;
    if let Some(AttrData::Enum(k, v)) = m.attr(op, slot).map(|a| m.ctx.attrs.get(a)) {
        p.out
            .push_str(k.cases().get(*v as usize).copied().unwrap_or("?"));
    }
}

fn custom(p: &mut Printer<'_>, op: Op, c: Custom) {
    let m = p.m;
    match c {
        Custom::Rounding(s) | Custom::DivFRounding(s) | Custom::SqrtRounding(s) => {
            rounding(p, op, s, RoundingMode::NearestEven)
        }
        Custom::IntRounding(s) => rounding(p, op, s, RoundingMode::NearestIntToZero),
        Custom::ApproxRounding(s) => rounding(p, op, s, RoundingMode::Full),
        Custom::Signedness(s) | Custom::Predicate(s) | Custom::Ordering(s) => {
            enum_keyword(p, op, s)
        }
        Custom::Visibility(s) => {
            if let Some(AttrData::Enum(_, v)) = m.attr(op, s).map(|a| m.ctx.attrs.get(a))
                && *v != 0
            {
                enum_keyword(p, op, s);
                p.out.push(' ');
            }
        }
        Custom::Dense { value, result } => {
            let Some(a) = m.attr(op, value) else { return };
            let AttrData::Dense(d) = m.ctx.attrs.get(a) else {
                p.write_attr(a);
                return;
            };
            let ty = match result {
                Some(_) if m.num_results(op) > 0 => m.value_type(m.result(op, 0)),
                _ => d.ty,
            };
            let elem = m.ctx.types.element_type(ty);
            p.out.push('<');
            p.write_type(elem);
            p.out.push_str(": ");
            crate::attrs::write_dense_values(&mut p.out, &m.ctx.types, d);
            p.out.push_str("> : ");
            p.write_type(ty);
        }
        Custom::Memory { ordering, scope } => {
            enum_keyword(p, op, ordering);
            if m.attr(op, scope).is_some() {
                p.out.push(' ');
                enum_keyword(p, op, scope);
            }
        }
        Custom::ArgRegion(i) => {
            let Some(&r) = m.regions(op).get(i) else {
                return;
            };
            p.newline();
            let args = m
                .entry_block(r)
                .map(|b| m.block_args(b).to_vec())
                .unwrap_or_default();
            p.print_arg_list(&args);
            p.out.push(' ');
            p.print_region(r, false, true, false, false);
        }
        Custom::IfRegion(i) => {
            let Some(&r) = m.regions(op).get(i) else {
                return;
            };
            p.print_region(r, false, true, false, true);
        }
    }
}

//! Printing the ops whose syntax is hand-written (see
//! [`CustomSyntax`](crate::ops::CustomSyntax)).

use super::Printer;
use crate::attrs::{AttrData, AttrPrinter, write_symbol};
use crate::module::{Op, Value};
use crate::ops::CustomSyntax;
use crate::types::{DYNAMIC, Type, TypeData};
use crate::util::push_i64;

pub(super) fn print_custom(p: &mut Printer<'_>, op: Op, c: CustomSyntax) {
    match c {
        CustomSyntax::Function => function(p, op),
        CustomSyntax::For => for_op(p, op),
        CustomSyntax::Loop => loop_op(p, op),
        CustomSyntax::MakeTensorView => make_tensor_view(p, op),
        CustomSyntax::MakePartitionView => {
            p.out.push(' ');
            let v = p.m.operand(op, 0);
            p.write_value(v);
            p.print_extra_attrs(op, false);
            p.out.push_str(" : ");
            let t = p.m.value_type(p.m.result(op, 0));
            p.write_type(t);
        }
        CustomSyntax::GetShape => {
            let m = p.m;
            p.out.push(' ');
            p.write_value(m.operand(op, 0));
            p.out.push_str(" : ");
            p.write_type(m.value_type(m.operand(op, 0)));
            p.out.push_str(" -> ");
            // A rank-0 view has no results; the parser still expects a type.
            let t = if m.num_results(op) > 0 {
                m.value_type(m.result(op, 0))
            } else {
                Type::TILE_I32
            };
            p.write_type(t);
        }
        CustomSyntax::Assume => assume(p, op),
    }
}

fn function(p: &mut Printer<'_>, op: Op) {
    let m = p.m;
    let def = m.def(op);
    p.out.push(' ');
    if let Some(AttrData::String(name)) = def
        .attr_index("sym_name")
        .and_then(|i| m.attr(op, i))
        .map(|a| m.ctx.attrs.get(a))
    {
        write_symbol(&mut p.out, name);
    }
    let body = m.regions(op).first().copied();
    let args: Vec<Value> = body
        .and_then(|r| m.entry_block(r))
        .map(|b| m.block_args(b).to_vec())
        .unwrap_or_default();
    p.print_arg_list(&args);
    let results: Vec<Type> = match def
        .attr_index("function_type")
        .and_then(|i| m.attr(op, i))
        .map(|a| m.ctx.attrs.get(a))
    {
        Some(AttrData::Type(t)) => match m.ctx.types.get(*t) {
            TypeData::Function { results, .. } => results.to_vec(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    if !results.is_empty() {
        p.out.push_str(" -> ");
        if results.len() == 1 {
            p.write_type(results[0]);
        } else {
            p.out.push('(');
            p.write_types(results);
            p.out.push(')');
        }
    }
    if let Some(h) = def
        .attr_index("optimization_hints")
        .and_then(|i| m.attr(op, i))
        && let AttrData::OptHints(d) = m.ctx.attrs.get(h)
    {
        let non_empty = matches!(m.ctx.attrs.get(*d), AttrData::Dict(e) if !e.is_empty());
        if non_empty {
            p.out.push_str(" optimization_hints=");
            let mut s = std::mem::take(&mut p.out);
            AttrPrinter {
                types: &m.ctx.types,
                attrs: &m.ctx.attrs,
                aliases: None,
            }
            .write_opt_hints_body(&mut s, *d);
            p.out = s;
        }
    }
    // Discardable attributes come before the body, after `attributes`, as MLIR's
    // function printer puts them; NVIDIA's `entry` printer puts them after the body.
    let trailing = m.opcode(op) == crate::ops::Opcode::Entry;
    if !trailing {
        p.print_extra_attrs(op, true);
    }
    p.out.push(' ');
    if let Some(r) = body {
        p.print_region(r, false, true, false, false);
    }
    if trailing {
        p.print_extra_attrs(op, false);
    }
}

fn iter_values(p: &mut Printer<'_>, inner: &[Value], outer: &[Value]) {
    p.out.push_str("iter_values(");
    for (i, (a, b)) in inner.iter().zip(outer).enumerate() {
        if i > 0 {
            p.out.push_str(", ");
        }
        p.write_value(*a);
        p.out.push_str(" = ");
        p.write_value(*b);
    }
    p.out.push(')');
}

fn for_op(p: &mut Printer<'_>, op: Op) {
    let m = p.m;
    let def = m.def(op);
    if def
        .attr_index("unsignedCmp")
        .and_then(|i| m.attr(op, i))
        .is_some()
    {
        p.out.push_str(" unsigned");
    }
    let r = m.region(op, 0);
    let args: Vec<Value> = m
        .entry_block(r)
        .map(|b| m.block_args(b).to_vec())
        .unwrap_or_default();
    let operands = m.operand_vec(op);
    p.out.push(' ');
    if let Some(iv) = args.first() {
        p.write_value(*iv);
    }
    p.out.push_str(" in (");
    p.write_value(operands[0]);
    p.out.push_str(" to ");
    p.write_value(operands[1]);
    p.out.push_str(", step ");
    p.write_value(operands[2]);
    p.out.push_str(") : ");
    let iv_ty = args
        .first()
        .map_or_else(|| m.value_type(operands[0]), |v| m.value_type(*v));
    p.write_type(iv_ty);
    p.out.push(' ');
    let inits = &operands[3..];
    if !inits.is_empty() {
        iter_values(p, args.get(1..).unwrap_or(&[]), inits);
        p.out.push_str(" -> (");
        let tys: Vec<Type> = inits.iter().map(|v| m.value_type(*v)).collect();
        p.write_types(tys);
        p.out.push_str(") ");
    }
    p.print_region(r, false, true, false, true);
    p.print_extra_attrs(op, false);
}

fn loop_op(p: &mut Printer<'_>, op: Op) {
    let m = p.m;
    let r = m.region(op, 0);
    let args: Vec<Value> = m
        .entry_block(r)
        .map(|b| m.block_args(b).to_vec())
        .unwrap_or_default();
    let inits = m.operand_vec(op);
    let results: Vec<Type> = m.results(op).map(|v| m.value_type(v)).collect();
    p.out.push(' ');
    let has_iters = !inits.is_empty();
    let has_return = !results.is_empty();
    if has_iters {
        iter_values(p, &args, &inits);
        p.out.push(' ');
    }
    if has_iters || has_return {
        p.out.push_str(": ");
    }
    if has_iters {
        let tys: Vec<Type> = inits.iter().map(|v| m.value_type(*v)).collect();
        p.write_types(tys);
        p.out.push(' ');
        if has_return {
            p.out.push_str("-> ");
        }
    }
    if has_return {
        p.write_types(results);
        p.out.push(' ');
    }
    p.print_region(r, false, true, false, true);
    p.print_extra_attrs(op, false);
}

fn make_tensor_view(p: &mut Printer<'_>, op: Op) {
    let m = p.m;
    let groups = crate::segments::operand_groups(m, op);
    let rt = m.value_type(m.result(op, 0));
    let (shape, strides) = match m.ctx.types.get(rt) {
        TypeData::TensorView { shape, strides, .. } => (shape.to_vec(), strides.to_vec()),
        _ => (Vec::new(), Vec::new()),
    };
    p.out.push(' ');
    p.write_value(m.operand(op, 0));
    p.out.push_str(", shape = [");
    mixed(p, &shape, groups.get(1).map_or(&[][..], |g| g.as_slice()));
    p.out.push_str("], strides = [");
    mixed(p, &strides, groups.get(2).map_or(&[][..], |g| g.as_slice()));
    p.out.push(']');
    p.print_extra_attrs(op, false);
    p.out.push_str(" : ");
    let dynamic = groups
        .get(1)
        .and_then(|g| g.first())
        .or_else(|| groups.get(2).and_then(|g| g.first()));
    if let Some(v) = dynamic {
        p.write_type(m.value_type(*v));
        p.out.push_str(" -> ");
    }
    p.write_type(rt);
}

fn mixed(p: &mut Printer<'_>, elems: &[i64], dynamic: &[Value]) {
    let mut dyn_it = dynamic.iter();
    for (i, e) in elems.iter().enumerate() {
        if i > 0 {
            p.out.push_str(", ");
        }
        if *e == DYNAMIC {
            match dyn_it.next() {
                Some(v) => p.write_value(*v),
                None => p.out.push('?'),
            }
        } else {
            push_i64(&mut p.out, *e);
        }
    }
}

fn assume(p: &mut Printer<'_>, op: Op) {
    let m = p.m;
    p.out.push(' ');
    if let Some(pred) = m.attr(op, 0) {
        let mut s = std::mem::take(&mut p.out);
        AttrPrinter {
            types: &m.ctx.types,
            attrs: &m.ctx.attrs,
            aliases: None,
        }
        .write_predicate_body(&mut s, pred);
        p.out = s;
        p.out.push_str(", ");
    }
    p.write_value(m.operand(op, 0));
    p.print_extra_attrs(op, false);
    p.out.push_str(" : ");
    p.write_type(m.value_type(m.operand(op, 0)));
}

//! Symbols: within each symbol table (a `cuda_tile.module`, or the top level, which acts
//! like MLIR's implicit module) symbol names are unique, and every symbol reference names a
//! suitable symbol of the nearest enclosing table (`get_global` a `global` whose element
//! type is the pointee of its result).

use crate::{VResult, Verifier};
use tilec_diag::catalog::misc as cat;
use tilec_diag::{Diagnostic, codes};
use tilec_ir::attrs::AttrData;
use tilec_ir::module::{Block, Module, Op};
use tilec_ir::ops::{AttrKind, Opcode, Traits};
use tilec_ir::types::TypeData;
use tilec_ir::util::FxHashMap;

/// The symbols of each symbol table block.
pub(crate) type Tables<'m> = FxHashMap<Block, FxHashMap<&'m str, Op>>;

/// Builds the symbol tables and reports duplicate symbols.
pub(crate) fn build(v: &mut Verifier<'_>) {
    let m = v.m;
    let mut table_blocks = vec![m.body()];
    m.walk(|op| {
        if m.unregistered_name(op).is_none() && m.def(op).has(Traits::SYMBOL_TABLE) {
            table_blocks.extend(m.regions(op).iter().filter_map(|r| m.entry_block(*r)));
        }
    });
    let mut tables: Tables<'_> = FxHashMap::default();
    for b in table_blocks {
        let mut symbols: FxHashMap<&str, Op> = FxHashMap::default();
        for op in m.block_ops(b) {
            let Some(name) = symbol_name(m, op) else {
                continue;
            };
            match symbols.get(name) {
                Some(&first) => {
                    let d = Diagnostic::error(
                        codes::SYMBOL,
                        format!("redefinition of symbol named '{name}'"),
                    )
                    .at(v.loc(m.op_span(op)))
                    .with_note(
                        "see existing symbol definition here",
                        Some(v.loc(m.op_span(first))),
                    );
                    v.push(d);
                }
                None => {
                    symbols.insert(name, op);
                }
            }
        }
        tables.insert(b, symbols);
    }
    v.symbols = Some(tables);
}

/// Checks the symbol references of one op.
pub(crate) fn verify_op(v: &mut Verifier<'_>, op: Op) -> VResult {
    let m = v.m;
    let def = m.def(op);
    for (i, a) in def.attrs.iter().enumerate() {
        if a.kind != AttrKind::SymbolRef {
            continue;
        }
        let Some(AttrData::SymbolRef(name)) = m.attr(op, i).map(|x| m.ctx.attrs.get(x)) else {
            continue;
        };
        let target = nearest_table(m, op)
            .and_then(|b| v.symbols.as_ref().and_then(|t| t.get(&b)))
            .and_then(|t| t.get(name.as_ref()).copied());
        let span = m.attr_span(op, i);
        match (def.opcode, target) {
            (Opcode::GetGlobal, Some(g)) if m.opcode(g) == Opcode::Global => {
                get_global_type(v, op, g, name)?;
            }
            (Opcode::GetGlobal, _) => {
                return Err(v.error_at(op, span, &cat::UNKNOWN_GLOBAL, &[("name", name)]));
            }
            // Only get_global refers to symbols today; other references are resolved
            // by the ops that gain them.
            _ => {}
        }
    }
    Ok(())
}

/// `get_global`'s result points to the global's element type.
fn get_global_type(v: &mut Verifier<'_>, op: Op, global: Op, name: &str) -> VResult {
    let m = v.m;
    let Some(r) = m.results(op).next() else {
        return Ok(());
    };
    let ptr = v.elem_of(m.value_type(r));
    let TypeData::Ptr(pointee) = v.data(ptr) else {
        return Ok(());
    };
    let Some(gt) = global_type(v, global) else {
        return Ok(());
    };
    let gelem = v.elem_of(gt);
    if *pointee == gelem {
        return Ok(());
    }
    let result = v.ty(ptr);
    let ty = v.m.ctx.types.to_string(gelem, false);
    Err(v.error(
        op,
        &cat::GLOBAL_POINTEE,
        &[("result", &result), ("type", &ty), ("name", &name)],
    ))
}

/// The tile type of a global (the type of its `value`).
fn global_type(v: &Verifier<'_>, global: Op) -> Option<tilec_ir::types::Type> {
    match v.attr(global, "value")? {
        AttrData::Dense(d) => Some(d.ty),
        _ => None,
    }
}

/// The symbol an op defines, if any.
fn symbol_name(m: &Module, op: Op) -> Option<&str> {
    if m.unregistered_name(op).is_some() || !m.def(op).has(Traits::SYMBOL) {
        return None;
    }
    match m.ctx.attrs.get(m.attr_named(op, "sym_name")?) {
        AttrData::String(s) => Some(s),
        _ => None,
    }
}

/// The block of the nearest symbol table enclosing `op`.
fn nearest_table(m: &Module, op: Op) -> Option<Block> {
    let mut cur = op;
    loop {
        let block = m.op_block(cur)?;
        match m.block_parent_op(block) {
            None => return Some(block),
            Some(p) if m.unregistered_name(p).is_none() && m.def(p).has(Traits::SYMBOL_TABLE) => {
                return Some(block);
            }
            Some(p) => cur = p,
        }
    }
}

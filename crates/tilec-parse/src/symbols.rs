//! Symbol resolution, the last step of parsing: within each symbol table (a
//! `cuda_tile.module`, or the top level, which acts like MLIR's implicit module) symbol names
//! are unique, and every symbol reference names a symbol of the nearest enclosing table.

use tilec_diag::{Diagnostic, FileId, Location, Span, codes};
use tilec_ir::attrs::AttrData;
use tilec_ir::module::{Block, Module, Op};
use tilec_ir::ops::{AttrKind, Opcode, Traits};
use tilec_ir::util::FxHashMap;

/// Reports duplicate symbols and unresolved symbol references, in source order.
pub(crate) fn check(m: &Module, file: FileId) -> Vec<Diagnostic> {
    let loc = |s: Option<Span>| Location::new(file, s.unwrap_or_default());
    let mut diags = Vec::new();
    let mut tables: FxHashMap<Block, FxHashMap<&str, Op>> = FxHashMap::default();

    // One walk finds the tables and the ops that refer to symbols.
    let mut table_blocks = vec![m.body()];
    let mut referrers = Vec::new();
    m.walk(|op| {
        if m.unregistered_name(op).is_some() {
            return;
        }
        let def = m.def(op);
        if def.has(Traits::SYMBOL_TABLE) {
            table_blocks.extend(m.regions(op).iter().filter_map(|r| m.entry_block(*r)));
        }
        if def.attrs.iter().any(|a| a.kind == AttrKind::SymbolRef) {
            referrers.push(op);
        }
    });

    // The symbols of each table.
    for b in table_blocks {
        let mut symbols: FxHashMap<&str, Op> = FxHashMap::default();
        for op in m.block_ops(b) {
            let Some(name) = symbol_name(m, op) else {
                continue;
            };
            match symbols.get(name) {
                Some(&first) => diags.push(
                    Diagnostic::error(
                        codes::SYMBOL,
                        format!("redefinition of symbol named '{name}'"),
                    )
                    .at(loc(m.op_span(op)))
                    .with_note(
                        "see existing symbol definition here",
                        Some(loc(m.op_span(first))),
                    ),
                ),
                None => {
                    symbols.insert(name, op);
                }
            }
        }
        tables.insert(b, symbols);
    }

    // The references.
    for op in referrers {
        let def = m.def(op);
        for (i, a) in def.attrs.iter().enumerate() {
            if a.kind != AttrKind::SymbolRef {
                continue;
            }
            let Some(AttrData::SymbolRef(name)) = m.attr(op, i).map(|x| m.ctx.attrs.get(x)) else {
                continue;
            };
            let target = nearest_table(m, op)
                .and_then(|b| tables.get(&b))
                .and_then(|t| t.get(name.as_ref()).copied());
            let ok = match (def.opcode, target) {
                (Opcode::GetGlobal, Some(t)) => m.opcode(t) == Opcode::Global,
                (_, t) => t.is_some(),
            };
            if !ok {
                let what = if def.opcode == Opcode::GetGlobal {
                    "global"
                } else {
                    "symbol"
                };
                diags.push(
                    Diagnostic::error(
                        codes::SYMBOL,
                        format!(
                            "'{}' op '{name}' does not reference a valid {what}",
                            def.full_name()
                        ),
                    )
                    .at(loc(m.attr_span(op, i).or(m.op_span(op)))),
                );
            }
        }
    }
    diags.sort_by_key(|d| d.location.map(|l| l.span.start));
    diags
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

//! Debug-info passes: `synthesize-debug-info-scopes` (13.3's `Transforms/`) and the symbol
//! rename behind cuda-tile-opt's `--test-debuginfo-update-symbol-name`.
//!
//! **synthesize-debug-info-scopes** gives every function a `#cuda_tile.di_subprogram` and
//! every op in it a `#cuda_tile.di_loc`, so that a frontend that only writes file locations
//! (or none) still gets a line table. Per module: the compile unit's file is the first file
//! location found in the module's own location (`"<unknown>"` when there is none). Per
//! function: a function that already has a `di_loc` keeps it and its scope; otherwise its
//! subprogram is named after the symbol, lives in the file of the function's first file
//! location, and starts at that location's line (line 1 without one). Ops then get
//! `di_loc<L in scope>` where `L` is the first file location inside their own location
//! (`fused[...]` in order, a call site's callee before its caller, a name's child), or the
//! function's when they have none. Ops that already carry a `di_loc` are left alone.
//!
//! **update-symbol-name** renames a symbol (`module::function`), optionally its uses inside
//! a scope (`update-uses`), and the `linkageName` of its debug-info subprogram. The scope
//! must enclose the symbol; otherwise the pass reports it and changes nothing.

use tilec_diag::{Diagnostic, Location, codes};
use tilec_ir::attrs::AttrData;
use tilec_ir::{Attr, Module, Op, Opcode};

/// The first file location inside `loc`.
fn file_loc(m: &Module, loc: Attr) -> Option<Attr> {
    match m.ctx.attrs.get(loc) {
        AttrData::LocFile { .. } => Some(loc),
        AttrData::LocName { child, .. } => child.and_then(|c| file_loc(m, c)),
        AttrData::LocCallSite { callee, caller } => {
            let (callee, caller) = (*callee, *caller);
            file_loc(m, callee).or_else(|| file_loc(m, caller))
        }
        AttrData::LocFused { locs, .. } => {
            let locs = locs.clone();
            locs.iter().find_map(|&l| file_loc(m, l))
        }
        AttrData::DiLoc { loc, .. } => file_loc(m, *loc),
        _ => None,
    }
}

fn is_di_loc(m: &Module, loc: Option<Attr>) -> bool {
    loc.is_some_and(|l| matches!(m.ctx.attrs.get(l), AttrData::DiLoc { .. }))
}

fn untyped(m: &mut Module, v: i64) -> Attr {
    m.ctx.attrs.intern(AttrData::Int { value: v, ty: None })
}

fn di_file(m: &mut Module, loc: Option<Attr>) -> Attr {
    let name: Box<str> = match loc.map(|l| m.ctx.attrs.get(l)) {
        Some(AttrData::LocFile { file, .. }) => file.clone(),
        _ => "<unknown>".into(),
    };
    m.ctx.attrs.intern(AttrData::DiFile {
        name,
        directory: "".into(),
    })
}

fn sym_name(m: &Module, op: Op) -> Option<String> {
    let a = m.attr_named(op, "sym_name")?;
    match m.ctx.attrs.get(a) {
        AttrData::String(s) | AttrData::SymbolRef(s) => Some(s.to_string()),
        _ => None,
    }
}

fn is_function(m: &Module, op: Op) -> bool {
    matches!(m.opcode(op), Opcode::Entry | Opcode::TestingFunc)
}

/// Every op nested in `op` (not `op` itself), outermost first.
fn nested(m: &Module, op: Op) -> Vec<Op> {
    let mut out = Vec::new();
    let mut stack = vec![op];
    while let Some(o) = stack.pop() {
        for &r in m.regions(o) {
            for &b in m.region_blocks(r) {
                for inner in m.block_ops(b) {
                    out.push(inner);
                    stack.push(inner);
                }
            }
        }
    }
    out
}

/// `synthesize-debug-info-scopes` over every `cuda_tile.module` of `m`.
pub fn synthesize_scopes(m: &mut Module) {
    let modules: Vec<Op> = m
        .block_ops(m.body())
        .filter(|&o| m.opcode(o) == Opcode::Module)
        .collect();
    for module in modules {
        let cu_loc = m.op_loc(module).and_then(|l| file_loc(m, l));
        let cu_file = di_file(m, cu_loc);
        let cu = m.ctx.attrs.intern(AttrData::DiStruct {
            mnemonic: "di_compile_unit".into(),
            fields: vec![("file".into(), cu_file)].into(),
        });
        let funcs: Vec<Op> = nested(m, module)
            .into_iter()
            .filter(|&o| is_function(m, o))
            .collect();
        for f in funcs {
            let own = m.op_loc(f);
            let (anchor, scope) = if is_di_loc(m, own) {
                let Some(AttrData::DiLoc { loc, scope }) = own.map(|l| m.ctx.attrs.get(l)) else {
                    continue;
                };
                (*loc, *scope)
            } else {
                let at = own.and_then(|l| file_loc(m, l));
                let line = match at.map(|l| m.ctx.attrs.get(l)) {
                    Some(AttrData::LocFile { line, .. }) => i64::from(*line),
                    _ => 1,
                };
                let file = di_file(m, at);
                let anchor = at.unwrap_or_else(|| {
                    m.ctx.attrs.intern(AttrData::LocFile {
                        file: "<unknown>".into(),
                        line: 1,
                        col: 0,
                    })
                });
                let name = sym_name(m, f).unwrap_or_default();
                let name = m.ctx.attrs.string(&name);
                let line_attr = untyped(m, line);
                let fields = vec![
                    ("file".into(), file),
                    ("line".into(), line_attr),
                    ("name".into(), name),
                    ("linkageName".into(), name),
                    ("compileUnit".into(), cu),
                    ("scopeLine".into(), line_attr),
                ];
                let sp = m.ctx.attrs.intern(AttrData::DiStruct {
                    mnemonic: "di_subprogram".into(),
                    fields: fields.into(),
                });
                let loc = m.ctx.attrs.intern(AttrData::DiLoc {
                    loc: anchor,
                    scope: sp,
                });
                m.set_op_loc(f, Some(loc));
                (anchor, sp)
            };
            for op in nested(m, f) {
                let own = m.op_loc(op);
                if is_di_loc(m, own) {
                    continue;
                }
                let at = own.and_then(|l| file_loc(m, l)).unwrap_or(anchor);
                let loc = m.ctx.attrs.intern(AttrData::DiLoc { loc: at, scope });
                m.set_op_loc(op, Some(loc));
            }
        }
    }
}

/// Options of the symbol rename (`--test-debuginfo-update-symbol-name="..."`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RenameOptions {
    /// The symbol, as a path of symbol names (`kernels::test_func`).
    pub symbol: String,
    /// The op whose region the uses are updated in (`kernels`).
    pub scope: String,
    /// The new name.
    pub new_name: String,
    /// Rewrite references to the symbol inside the scope too.
    pub update_uses: bool,
}

impl RenameOptions {
    /// Parses `symbol-to-rename=A::B scope=A new-name=N update-uses=true` (space- or
    /// comma-separated `key=value` pairs, as MLIR pass options are written).
    pub fn parse(text: &str) -> Result<RenameOptions, String> {
        let mut o = RenameOptions::default();
        for part in text.split([' ', ',']).filter(|s| !s.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("expected 'key=value', got '{part}'"))?;
            match k {
                "symbol-to-rename" => o.symbol = v.to_string(),
                "scope" => o.scope = v.to_string(),
                "new-name" => o.new_name = v.to_string(),
                "update-uses" => {
                    o.update_uses = match v {
                        "true" | "1" => true,
                        "false" | "0" => false,
                        _ => return Err(format!("update-uses takes true or false, got '{v}'")),
                    }
                }
                _ => {
                    return Err(format!(
                        "unknown option '{k}' (known: symbol-to-rename, scope, new-name, update-uses)"
                    ));
                }
            }
        }
        for (what, v) in [
            ("symbol-to-rename", &o.symbol),
            ("scope", &o.scope),
            ("new-name", &o.new_name),
        ] {
            if v.is_empty() {
                return Err(format!("the option '{what}' is required"));
            }
        }
        Ok(o)
    }
}

/// The op named by `path` (`a::b`: symbol `b` inside symbol `a`), from the top level.
fn resolve(m: &Module, path: &str) -> Option<Op> {
    let mut ops: Vec<Op> = m.block_ops(m.body()).collect();
    let mut found = None;
    for part in path.split("::") {
        let op = ops
            .iter()
            .copied()
            .find(|&o| sym_name(m, o).as_deref() == Some(part))?;
        found = Some(op);
        ops = m
            .regions(op)
            .iter()
            .flat_map(|&r| m.region_blocks(r).iter())
            .flat_map(|&b| m.block_ops(b))
            .collect();
    }
    found
}

fn location(m: &Module, op: Op) -> Option<Location> {
    Some(Location::new(m.file()?, m.op_span(op).unwrap_or_default()))
}

/// Replaces `from` by `to` wherever it occurs inside location attribute `a`.
fn subst(m: &mut Module, a: Attr, from: Attr, to: Attr) -> Attr {
    if a == from {
        return to;
    }
    let data = m.ctx.attrs.get(a).clone();
    let new = match data {
        AttrData::DiLoc { loc, scope } => AttrData::DiLoc {
            loc: subst(m, loc, from, to),
            scope: subst(m, scope, from, to),
        },
        AttrData::DiStruct { mnemonic, fields } => AttrData::DiStruct {
            mnemonic,
            fields: fields
                .iter()
                .map(|(k, v)| (k.clone(), subst(m, *v, from, to)))
                .collect(),
        },
        AttrData::LocFused { locs, metadata } => AttrData::LocFused {
            locs: locs.iter().map(|&l| subst(m, l, from, to)).collect(),
            metadata,
        },
        AttrData::LocCallSite { callee, caller } => AttrData::LocCallSite {
            callee: subst(m, callee, from, to),
            caller: subst(m, caller, from, to),
        },
        AttrData::LocName { name, child } => AttrData::LocName {
            name,
            child: child.map(|c| subst(m, c, from, to)),
        },
        _ => return a,
    };
    m.ctx.attrs.intern(new)
}

/// Renames a symbol (see the module documentation). On a failed precondition, returns the
/// error and leaves `m` unchanged.
pub fn update_symbol_name(m: &mut Module, o: &RenameOptions) -> Vec<Diagnostic> {
    let at_module = |m: &Module, msg: String| {
        let mut d = Diagnostic::error(codes::OPT_PASS_PRECONDITION, msg);
        if let Some(file) = m.file() {
            d = d.at(Location::new(file, tilec_diag::Span::new(0, 0)));
        }
        vec![d]
    };
    let Some(symbol) = resolve(m, &o.symbol) else {
        return at_module(m, format!("no symbol '{}' to rename", o.symbol));
    };
    let Some(scope) = resolve(m, &o.scope) else {
        return at_module(m, format!("no symbol '{}' to use as the scope", o.scope));
    };
    let mut p = Some(symbol);
    while p.is_some_and(|x| x != scope) {
        p = p.and_then(|x| m.parent_op(x));
    }
    if p.is_none() {
        let mut d = Diagnostic::error(
            codes::OPT_PASS_PRECONDITION,
            "attempted to update symbol names in a scope that did not enclose the symbol itself",
        );
        if let Some(l) = location(m, symbol) {
            d = d.at(l);
        }
        return vec![d.with_note("scope defined here", location(m, scope))];
    }
    let Some(old) = sym_name(m, symbol) else {
        return Vec::new();
    };
    if let Some(slot) = m
        .def(symbol)
        .attrs
        .iter()
        .position(|a| a.name == "sym_name")
    {
        let name = m.ctx.attrs.string(&o.new_name);
        m.set_attr(symbol, slot, Some(name));
    }
    // The subprogram that names the symbol gets the new linkage name.
    if let Some(loc) = m.op_loc(symbol)
        && let AttrData::DiLoc { scope: sp, .. } = m.ctx.attrs.get(loc).clone()
        && let AttrData::DiStruct { mnemonic, fields } = m.ctx.attrs.get(sp).clone()
        && &*mnemonic == "di_subprogram"
    {
        let new_link = m.ctx.attrs.string(&o.new_name);
        let fields: Box<[(Box<str>, Attr)]> = fields
            .iter()
            .map(|(k, v)| {
                let old_link = matches!(m.ctx.attrs.get(*v), AttrData::String(s) if **s == *old);
                if &**k == "linkageName" && old_link {
                    (k.clone(), new_link)
                } else {
                    (k.clone(), *v)
                }
            })
            .collect();
        let new_sp = m.ctx.attrs.intern(AttrData::DiStruct { mnemonic, fields });
        let mut ops = nested(m, symbol);
        ops.push(symbol);
        for op in ops {
            if let Some(l) = m.op_loc(op) {
                let l = subst(m, l, sp, new_sp);
                m.set_op_loc(op, Some(l));
            }
        }
    }
    if o.update_uses {
        let new_ref = m
            .ctx
            .attrs
            .intern(AttrData::SymbolRef(o.new_name.as_str().into()));
        for op in nested(m, scope) {
            for slot in 0..m.def(op).attrs.len() {
                if let Some(a) = m.attr(op, slot)
                    && matches!(m.ctx.attrs.get(a), AttrData::SymbolRef(s) if **s == *old)
                {
                    m.set_attr(op, slot, Some(new_ref));
                }
            }
        }
    }
    Vec::new()
}

//! The printer: custom form (as NVIDIA's tools print it) and MLIR's generic form.
//!
//! The custom form follows `cuda-tile-opt`:
//!
//! * ops inside `cuda_tile.module`, `entry` and the other region ops are printed without the
//!   `cuda_tile.` prefix, top-level ops with it;
//! * types are printed short (`tile<4xf32>`), constants as `<f32: 1.000000e+00>`;
//! * value names follow MLIR's numbering scheme (values are numbered region by region, nested
//!   regions after their parent region, entry-block arguments are `%argN`) together with
//!   the naming hints of the op table (`%cst_1_i32`, `%tview`, `%tile, %result_token`, ...);
//! * spacing follows MLIR's generated printers (see [`format`]).
//!
//! The generic form (`"cuda_tile.addf"(%0, %1) <{...}> : (...) -> ...`) is printed with
//! [`PrintOptions::generic`]. Locations (`loc(...)`) are printed with
//! [`PrintOptions::locations`], using `#loc` aliases listed at the end of the output.

mod custom;
mod format;
mod names;

use crate::attrs::{AttrData, AttrPrinter, write_string_literal};
use crate::module::{Block, Module, Op, Region, Value};
use crate::ops::Traits;
use crate::types::Type;
use crate::util::FxHashMap;
use names::Names;

/// Printer options.
#[derive(Copy, Clone, Debug, Default)]
pub struct PrintOptions {
    /// Print every op in the generic form.
    pub generic: bool,
    /// Print `loc(...)` locations.
    pub locations: bool,
    /// Trust that every op fits its custom syntax (the verifier has run) and skip the
    /// check. Without it, an op that does not fit (see [`fits_custom_syntax`]) is printed
    /// in the generic form, as MLIR prints ops that fail verification, so that the output
    /// always parses back into the same IR.
    ///
    /// [`fits_custom_syntax`]: crate::ops::conform::fits_custom_syntax
    pub assume_verified: bool,
    /// Print the module as its source text wrote it where the IR allows: the names the
    /// author gave values and the `//` comments ([`crate::trivia::Trivia`], kept by the
    /// parser's `keep_trivia`). `tilec fmt` uses it; `tilec opt` prints NVIDIA's form.
    pub as_written: bool,
}

/// Prints a whole module.
pub fn print_module(m: &Module, opts: &PrintOptions) -> String {
    let mut p = Printer::new(m, *opts);
    // Printed tile IR takes about 80 bytes per op.
    p.out.reserve(m.op_capacity() * 80);
    p.print_top();
    p.finish();
    p.out
}

/// Prints a whole module to a writer, a chunk at a time, so that the text is never held
/// in memory as a whole. Returns the first write error.
pub fn print_module_to(
    m: &Module,
    opts: &PrintOptions,
    w: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let mut p = Printer::new(m, *opts);
    p.out.reserve(FLUSH_AT + 4096);
    p.sink = Some(w);
    p.print_top();
    p.finish();
    p.flush();
    match p.io_error.take() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// When printing to a writer, the buffered text is written out once it reaches this size
/// (at the end of an op).
const FLUSH_AT: usize = 1 << 16;

/// Prints a single op (and its regions) on its own, with names local to the op. Used in
/// diagnostics and debugging.
pub fn print_op(m: &Module, op: Op, opts: &PrintOptions) -> String {
    let mut p = Printer::new(m, *opts);
    p.names = Names::compute_for_op(m, op, opts.generic);
    p.print_op(op, false);
    p.out
}

pub(crate) struct Printer<'m> {
    pub(crate) m: &'m Module,
    pub(crate) out: String,
    pub(crate) opts: PrintOptions,
    pub(crate) names: Names,
    pub(crate) indent: usize,
    /// Cache of short-form type strings by type index.
    type_cache: Vec<Option<Box<str>>>,
    /// Location aliases (when printing locations).
    loc_aliases: FxHashMap<crate::attrs::Attr, String>,
    alias_defs: Vec<(String, crate::attrs::Attr)>,
    /// Decides which ops fit their custom syntax.
    checker: crate::ops::conform::Checker,
    /// Where the text goes when printing to a writer (see [`print_module_to`]).
    sink: Option<&'m mut dyn std::io::Write>,
    /// The first error the sink returned.
    io_error: Option<std::io::Error>,
}

impl<'m> Printer<'m> {
    fn new(m: &'m Module, opts: PrintOptions) -> Printer<'m> {
        let mut p = Printer {
            m,
            out: String::new(),
            opts,
            names: Names::default(),
            indent: 0,
            type_cache: Vec::new(),
            loc_aliases: FxHashMap::default(),
            alias_defs: Vec::new(),
            checker: crate::ops::conform::Checker::new(),
            sink: None,
            io_error: None,
        };
        if opts.locations {
            p.compute_aliases();
        }
        p
    }

    /// Appends what comes after the ops: the location alias definitions.
    fn finish(&mut self) {
        if !self.alias_defs.is_empty() {
            let defs = std::mem::take(&mut self.alias_defs);
            for (name, attr) in &defs {
                self.out.push('#');
                self.out.push_str(name);
                self.out.push_str(" = ");
                self.write_attr_no_self_alias(*attr);
                self.out.push('\n');
            }
        }
    }

    /// Writes the buffered text to the sink, if there is one.
    fn flush(&mut self) {
        if let Some(w) = self.sink.as_mut() {
            if self.io_error.is_none()
                && let Err(e) = w.write_all(self.out.as_bytes())
            {
                self.io_error = Some(e);
            }
            self.out.clear();
        }
    }

    fn print_top(&mut self) {
        self.names = Names::compute(self.m, self.opts.generic, self.opts.as_written);
        let body = self.m.body();
        let ops: Vec<Op> = self.m.block_ops(body).collect();
        // MLIR's builtin `module attributes {...} {` wrapper, as cuda-tile-opt prints it.
        let wrapped = !self.m.wrapper_attrs.is_empty();
        if wrapped {
            self.out.push_str("module attributes ");
            let mut s = std::mem::take(&mut self.out);
            self.attr_printer()
                .write_dict(&mut s, &self.m.wrapper_attrs, false);
            self.out = s;
            self.out.push_str(" {\n");
            self.indent += 2;
        }
        for op in ops {
            self.print_leading_comments(op);
            self.print_op(op, false);
        }
        if wrapped {
            self.indent -= 2;
            self.out.push_str("}\n");
        }
        if self.opts.as_written {
            for c in &self.m.trivia.file_end {
                self.out.push_str(c);
                self.out.push('\n');
            }
        }
    }

    /// The comments on the lines before `op` (and, for an op with regions, the one after
    /// it on its line, which the op's first line cannot end with), each on its own line.
    fn print_leading_comments(&mut self, op: Op) {
        if !self.opts.as_written {
            return;
        }
        let m = self.m;
        if let Some(cs) = m.trivia.leading.get(&op) {
            for c in cs {
                self.write_indent();
                self.out.push_str(c);
                self.out.push('\n');
            }
        }
        if !m.regions(op).is_empty()
            && let Some(c) = m.trivia.trailing.get(&op)
        {
            self.write_indent();
            self.out.push_str(c);
            self.out.push('\n');
        }
    }

    fn attr_printer(&self) -> AttrPrinter<'_> {
        AttrPrinter {
            types: &self.m.ctx.types,
            attrs: &self.m.ctx.attrs,
            aliases: if self.loc_aliases.is_empty() {
                None
            } else {
                Some(&self.loc_aliases)
            },
        }
    }

    /// Appends a generic-form attribute.
    pub(crate) fn write_attr(&mut self, a: crate::attrs::Attr) {
        let mut s = std::mem::take(&mut self.out);
        self.attr_printer().write(&mut s, a);
        self.out = s;
    }

    fn write_attr_no_self_alias(&mut self, a: crate::attrs::Attr) {
        let mut s = std::mem::take(&mut self.out);
        let mut aliases = self.loc_aliases.clone();
        aliases.remove(&a);
        let ap = AttrPrinter {
            types: &self.m.ctx.types,
            attrs: &self.m.ctx.attrs,
            aliases: Some(&aliases),
        };
        if matches!(
            self.m.ctx.attrs.get(a),
            AttrData::LocUnknown
                | AttrData::LocFile { .. }
                | AttrData::LocName { .. }
                | AttrData::LocCallSite { .. }
                | AttrData::LocFused { .. }
        ) {
            s.push_str("loc(");
            ap.write_loc_inner(&mut s, a);
            s.push(')');
        } else {
            ap.write(&mut s, a);
        }
        self.out = s;
    }

    /// Appends a type in the short form.
    pub(crate) fn write_type(&mut self, t: Type) {
        let i = cranelift_entity::EntityRef::index(t);
        if i >= self.type_cache.len() {
            self.type_cache.resize(i + 1, None);
        }
        if self.type_cache[i].is_none() {
            self.type_cache[i] = Some(self.m.ctx.types.to_string(t, false).into());
        }
        if let Some(s) = &self.type_cache[i] {
            self.out.push_str(s);
        }
    }

    /// Appends a type in the qualified form (`!cuda_tile.tile<...>`).
    pub(crate) fn write_qualified_type(&mut self, t: Type) {
        self.m.ctx.types.write(&mut self.out, t, true);
    }

    /// Appends types separated by `, `.
    pub(crate) fn write_types(&mut self, types: impl IntoIterator<Item = Type>) {
        for (i, t) in types.into_iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.write_type(t);
        }
    }

    /// Appends `%name` (with `#N` for members of result groups).
    pub(crate) fn write_value(&mut self, v: Value) {
        self.names.write_use(self.m, &mut self.out, v);
    }

    /// Appends values separated by `, `.
    pub(crate) fn write_values(&mut self, vs: impl IntoIterator<Item = Value>) {
        for (i, v) in vs.into_iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.write_value(v);
        }
    }

    pub(crate) fn newline(&mut self) {
        self.out.push('\n');
        for _ in 0..self.indent {
            self.out.push(' ');
        }
    }

    fn write_indent(&mut self) {
        for _ in 0..self.indent {
            self.out.push(' ');
        }
    }

    /// Prints one op on its own line(s), including the trailing newline.
    pub(crate) fn print_op(&mut self, op: Op, in_default_dialect: bool) {
        self.write_indent();
        let m = self.m;
        if m.num_results(op) > 0 {
            self.names.write_def_groups(m, &mut self.out, op);
            self.out.push_str(" = ");
        }
        let generic = self.opts.generic
            || m.unregistered_name(op).is_some()
            || (!self.opts.assume_verified && self.checker.check(m, op).is_err());
        if generic {
            self.print_generic(op);
        } else {
            if !in_default_dialect && m.def(op).family != crate::ops::Family::Gpu {
                self.out.push_str("cuda_tile.");
            }
            self.out.push_str(m.op_mnemonic(op));
            let def = m.def(op);
            match def.custom() {
                Some(c) => custom::print_custom(self, op, c),
                None => match def.format() {
                    Some(f) => format::print_format(self, op, f),
                    None => self.print_generic_tail(op),
                },
            }
        }
        self.print_trailing_loc(m.op_loc(op));
        if self.opts.as_written
            && m.regions(op).is_empty()
            && let Some(c) = m.trivia.trailing.get(&op)
        {
            self.out.push_str("  ");
            self.out.push_str(c);
        }
        self.out.push('\n');
        if self.out.len() >= FLUSH_AT && self.sink.is_some() {
            self.flush();
        }
    }

    fn print_trailing_loc(&mut self, loc: Option<crate::attrs::Attr>) {
        if !self.opts.locations {
            return;
        }
        let loc = loc.unwrap_or(crate::attrs::Attr::UNKNOWN_LOC);
        self.out.push_str(" loc(");
        let mut s = std::mem::take(&mut self.out);
        self.attr_printer().write_loc_inner(&mut s, loc);
        self.out = s;
        self.out.push(')');
    }

    /// Prints the generic form after the result list.
    fn print_generic(&mut self, op: Op) {
        let m = self.m;
        let name = match m.unregistered_name(op) {
            Some(n) => n.to_string(),
            None => format!("cuda_tile.{}", m.op_mnemonic(op)),
        };
        write_string_literal(&mut self.out, &name);
        self.out.push('(');
        self.write_values(m.operand_vec(op));
        self.out.push(')');
        // Properties: the op table's attribute slots, sorted by name.
        let def = m.def(op);
        let mut props: Vec<(&str, crate::attrs::Attr)> = Vec::new();
        if m.unregistered_name(op).is_none() {
            for (i, a) in def.attrs.iter().enumerate() {
                if let Some(v) = m.attr(op, i) {
                    props.push((a.name, v));
                }
            }
        }
        props.sort_by(|a, b| a.0.cmp(b.0));
        if !props.is_empty() {
            self.out.push_str(" <{");
            for (i, (k, v)) in props.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.out.push_str(k);
                if *v != crate::attrs::Attr::UNIT {
                    self.out.push_str(" = ");
                    self.write_attr(*v);
                }
            }
            self.out.push_str("}>");
        }
        let regions = m.regions(op).to_vec();
        if !regions.is_empty() {
            self.out.push_str(" (");
            for (i, r) in regions.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.print_region(*r, true, true, true, false);
            }
            self.out.push(')');
        }
        self.print_extra_attrs(op, false);
        self.out.push_str(" : (");
        for (i, v) in m.operands(op).enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            let t = m.value_type(v);
            self.write_qualified_type(t);
        }
        self.out.push_str(") -> ");
        let results: Vec<Value> = m.results(op).collect();
        let paren = results.len() != 1
            || matches!(
                m.ctx.types.get(m.value_type(results[0])),
                crate::types::TypeData::Function { .. }
            );
        if paren {
            self.out.push('(');
        }
        for (i, v) in results.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            let t = m.value_type(*v);
            self.write_qualified_type(t);
        }
        if paren {
            self.out.push(')');
        }
    }

    /// Fallback for registered ops without a usable format: generic operands and types.
    fn print_generic_tail(&mut self, op: Op) {
        self.out.push(' ');
        self.print_generic(op);
    }

    /// Prints ` {k = v, ...}` for discardable attributes (after `attributes` with `with_keyword`).
    pub(crate) fn print_extra_attrs(&mut self, op: Op, with_keyword: bool) {
        let def = self.m.def(op);
        // Declared attributes that the format does not write itself come first (the
        // module's `producer`), then the undeclared ones, as written.
        let mut entries: Vec<(Box<str>, crate::attrs::Attr)> = Vec::new();
        if let Some(f) = def.format() {
            for (i, a) in def.attrs.iter().enumerate() {
                if a.kind == crate::ops::AttrKind::OperandSegments || f.references_attr(i) {
                    continue;
                }
                if let Some(v) = self.m.attr(op, i) {
                    entries.push((a.name.into(), v));
                }
            }
        }
        entries.extend(self.m.extra_attrs(op).iter().cloned());
        if entries.is_empty() {
            return;
        }
        if with_keyword {
            self.out.push_str(" attributes");
        }
        self.out.push(' ');
        let mut s = std::mem::take(&mut self.out);
        self.attr_printer().write_dict(&mut s, &entries, false);
        self.out = s;
    }

    /// Prints a region: `{`, the blocks, `}` (no trailing newline).
    ///
    /// `entry_args`: print the entry block's label and arguments; `terminators`: print a
    /// trailing terminator; `empty_block`: print the header of an empty entry block;
    /// `elide_implicit`: elide a terminator that is the region's implicit terminator and has
    /// no operands (custom form of if/for/loop).
    pub(crate) fn print_region(
        &mut self,
        r: Region,
        entry_args: bool,
        terminators: bool,
        empty_block: bool,
        elide_implicit: bool,
    ) {
        let m = self.m;
        self.out.push_str("{\n");
        let parent = m.region_parent(r);
        let default_dialect =
            !self.opts.generic && parent.is_some_and(|p| m.def(p).has(Traits::DEFAULT_DIALECT));
        let blocks = m.region_blocks(r).to_vec();
        for (i, b) in blocks.iter().enumerate() {
            let header = if i == 0 {
                (empty_block && m.first_op(*b).is_none())
                    || (entry_args && !m.block_args(*b).is_empty())
            } else {
                true
            };
            let mut print_terms = terminators;
            if elide_implicit && let Some(last) = m.last_op(*b) {
                let implicit = parent.and_then(|p| {
                    let idx = m.regions(p).iter().position(|x| *x == r)?;
                    m.def(p).regions.get(idx)?.implicit_terminator
                });
                if implicit == Some(m.opcode(last)) && m.num_operands(last) == 0 {
                    print_terms = false;
                }
            }
            self.print_block(*b, header, print_terms, default_dialect);
        }
        if self.opts.as_written
            && let Some(cs) = m.trivia.region_end.get(&r)
        {
            for c in cs {
                self.write_indent();
                self.out.push_str("  ");
                self.out.push_str(c);
                self.out.push('\n');
            }
        }
        self.write_indent();
        self.out.push('}');
    }

    fn print_block(&mut self, b: Block, header: bool, terminators: bool, default_dialect: bool) {
        let m = self.m;
        if header {
            self.write_indent();
            self.names.write_block(&mut self.out, b);
            let args = m.block_args(b).to_vec();
            if !args.is_empty() {
                self.out.push('(');
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.write_value(*a);
                    self.out.push_str(": ");
                    let t = m.value_type(*a);
                    if self.opts.generic {
                        self.write_qualified_type(t);
                    } else {
                        self.write_type(t);
                    }
                    if self.opts.locations
                        && let Some(l) = m.value_loc(*a)
                    {
                        self.print_trailing_loc(Some(l));
                    }
                }
                self.out.push(')');
            }
            self.out.push_str(":\n");
        }
        self.indent += 2;
        let last = m.last_op(b);
        let ops: Vec<Op> = m.block_ops(b).collect();
        for op in ops {
            if !terminators && Some(op) == last && m.def(op).has(Traits::TERMINATOR) {
                // An elided terminator's comments stay.
                self.print_leading_comments(op);
                continue;
            }
            self.print_leading_comments(op);
            self.print_op(op, default_dialect);
        }
        self.indent -= 2;
    }

    /// Prints a function-style argument list: `(%a: type, ...)`.
    pub(crate) fn print_arg_list(&mut self, args: &[Value]) {
        self.out.push('(');
        for (i, a) in args.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.write_value(*a);
            self.out.push_str(": ");
            self.write_type(self.m.value_type(*a));
            if self.opts.locations
                && let Some(l) = self.m.value_loc(*a)
            {
                self.print_trailing_loc(Some(l));
            }
        }
        self.out.push(')');
    }

    fn compute_aliases(&mut self) {
        use crate::attrs::Attr;
        let m = self.m;
        let mut order: Vec<Attr> = Vec::new();
        let mut seen: crate::util::FxHashSet<Attr> = Default::default();
        fn visit(
            m: &Module,
            a: Attr,
            seen: &mut crate::util::FxHashSet<Attr>,
            order: &mut Vec<Attr>,
        ) {
            if !seen.insert(a) {
                return;
            }
            match m.ctx.attrs.get(a) {
                AttrData::DiLoc { loc, scope } => {
                    visit(m, *loc, seen, order);
                    visit(m, *scope, seen, order);
                }
                AttrData::DiStruct { fields, .. } => {
                    for (_, f) in fields.iter() {
                        if matches!(
                            m.ctx.attrs.get(*f),
                            AttrData::DiFile { .. } | AttrData::DiStruct { .. }
                        ) {
                            visit(m, *f, seen, order);
                        }
                    }
                }
                AttrData::LocName { child: Some(c), .. } => visit(m, *c, seen, order),
                AttrData::LocCallSite { callee, caller } => {
                    visit(m, *callee, seen, order);
                    visit(m, *caller, seen, order);
                }
                AttrData::LocFused { locs, .. } => {
                    for l in locs.iter() {
                        visit(m, *l, seen, order);
                    }
                }
                _ => {}
            }
            order.push(a);
        }
        m.walk(|op| {
            for &r in m.regions(op) {
                for &b in m.region_blocks(r) {
                    for &a in m.block_args(b) {
                        if let Some(l) = m.value_loc(a) {
                            visit(m, l, &mut seen, &mut order);
                        }
                    }
                }
            }
            visit(
                m,
                m.op_loc(op).unwrap_or(Attr::UNKNOWN_LOC),
                &mut seen,
                &mut order,
            );
        });
        // Depth: aliases are defined after the ones they refer to.
        let mut depth: FxHashMap<Attr, usize> = FxHashMap::default();
        for &a in &order {
            let d = match m.ctx.attrs.get(a) {
                AttrData::DiLoc { loc, scope } => 1 + depth[loc].max(depth[scope]),
                AttrData::DiStruct { fields, .. } => {
                    1 + fields
                        .iter()
                        .filter_map(|(_, f)| depth.get(f))
                        .copied()
                        .max()
                        .unwrap_or(0)
                }
                _ => 0,
            };
            depth.insert(a, d);
        }
        let mut sorted: Vec<(usize, usize, Attr)> = order
            .iter()
            .enumerate()
            .map(|(i, a)| (depth[a], i, *a))
            .collect();
        sorted.sort();
        let mut counters: FxHashMap<&'static str, usize> = FxHashMap::default();
        for (_, _, a) in sorted {
            let prefix: &'static str = match m.ctx.attrs.get(a) {
                AttrData::DiFile { .. } => "di_file",
                AttrData::DiStruct { mnemonic, .. } => match &**mnemonic {
                    "di_compile_unit" => "di_compile_unit",
                    "di_subprogram" => "di_subprogram",
                    "di_lexical_block" => "di_lexical_block",
                    _ => "di",
                },
                _ => "loc",
            };
            let n = counters.entry(prefix).or_insert(0);
            let name = if *n == 0 {
                prefix.to_string()
            } else {
                format!("{prefix}{n}")
            };
            *n += 1;
            self.loc_aliases.insert(a, name.clone());
            self.alias_defs.push((name, a));
        }
    }
}

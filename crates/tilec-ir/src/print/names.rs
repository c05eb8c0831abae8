//! Value and block naming, following MLIR's printer so that the output reads the same as
//! `cuda-tile-opt`'s.
//!
//! Values are numbered region by region: all ops of a region first, then each nested region
//! starting from the counters at the end of its parent region (so sibling regions reuse the
//! same numbers). Entry-block arguments are `%argN`. Ops with naming hints get names
//! (`%cst_1_i32`, `%tview`, ...); a name already used in an enclosing scope gets a `_N`
//! suffix from a counter shared by all names.

use crate::attrs::{AttrData, EnumKind};
use crate::float::FloatKind;
use crate::module::{Block, Module, Op, Region, Value, ValueDef};
use crate::ops::NameHint;
use crate::types::TypeData;
use crate::util::{FxHashMap, FxHashSet, push_u64};
use cranelift_entity::SecondaryMap;
use std::borrow::Cow;

/// A value's name in 4 bytes: unset, a number (`%12`) or an interned name (`%tview`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Name(u32);

impl Name {
    const STR: u32 = 1 << 31;
    const UNSET: Name = Name(u32::MAX);

    fn number(n: u32) -> Name {
        Name(n & !Self::STR)
    }

    fn string(id: u32) -> Name {
        Name(id | Self::STR)
    }
}

impl Default for Name {
    fn default() -> Self {
        Name::UNSET
    }
}

#[derive(Default)]
pub(crate) struct Names {
    names: SecondaryMap<Value, Name>,
    /// Distinct value names, by id (`Name::Str`).
    strings: Vec<Box<str>>,
    /// Whether the naming hints apply (not in the generic form); see [`Names::split`].
    hints: bool,
    blocks: FxHashMap<Block, u32>,
}

struct State<'m> {
    m: &'m Module,
    names: Names,
    next_value: u32,
    next_arg: u32,
    next_conflict: u32,
    /// Name ids by text: names repeat across functions, so each is stored once.
    ids: FxHashMap<Box<str>, u32>,
    /// The ids of the names used in the enclosing scopes, and the same as a stack whose
    /// tail is popped when a region's scope ends.
    used: FxHashSet<u32>,
    used_stack: Vec<u32>,
    generic: bool,
    /// Scratch text for building names.
    scratch: String,
    /// Constant name ids by value attribute (constants repeat).
    constant_names: FxHashMap<crate::attrs::Attr, u32>,
    /// Name values as the source text did ([`crate::trivia::Trivia::names`]).
    as_written: bool,
}

impl Names {
    /// Names for a whole module; `as_written`: the names the source text gave values
    /// where it gave them (numbers excepted), generated names elsewhere.
    pub(crate) fn compute(m: &Module, generic: bool, as_written: bool) -> Names {
        let mut st = State::new(m, generic);
        st.as_written = as_written && !m.trivia.names.is_empty();
        // The top-level block behaves like the region of MLIR's implicit top-level module.
        st.number_block(m.body(), true);
        let regions: Vec<Region> = m
            .block_ops(m.body())
            .flat_map(|op| m.regions(op).to_vec())
            .collect();
        st.number_nested(regions);
        st.names
    }

    /// Names for one op printed on its own.
    pub(crate) fn compute_for_op(m: &Module, op: Op, generic: bool) -> Names {
        let mut st = State::new(m, generic);
        // Operands defined outside get their own numbers first.
        for v in m.operands(op) {
            if st.names.names[v] == Name::UNSET {
                st.set_number(v);
            }
        }
        st.number_op(op);
        st.number_nested(m.regions(op).to_vec());
        st.names
    }

    /// True if each result of `op` has its own name (ops that name their results after
    /// their result slots: `%tile, %result_token`); otherwise all results form one group
    /// (`%0:2`, used as `%0#1`).
    fn split(&self, m: &Module, op: Op) -> bool {
        self.hints && m.unregistered_name(op).is_none() && m.def(op).names == NameHint::Slots
    }

    /// Writes the defining result list of an op (`%a, %b` or `%a:2`).
    pub(crate) fn write_def_groups(&self, m: &Module, out: &mut String, op: Op) {
        let n = m.num_results(op);
        if self.split(m, op) {
            for i in 0..n {
                if i > 0 {
                    out.push_str(", ");
                }
                self.write_name(out, m.result(op, i));
            }
            return;
        }
        self.write_name(out, m.result(op, 0));
        if n > 1 {
            out.push(':');
            push_u64(out, n as u64);
        }
    }

    fn write_name(&self, out: &mut String, v: Value) {
        out.push('%');
        match self.names.get(v).copied().unwrap_or_default() {
            Name::UNSET => out.push_str("<<UNKNOWN SSA VALUE>>"),
            Name(n) if n & Name::STR != 0 => out.push_str(&self.strings[(n & !Name::STR) as usize]),
            Name(n) => push_u64(out, n as u64),
        }
    }

    /// Writes a use of a value: `%name` or `%name#k`.
    pub(crate) fn write_use(&self, m: &Module, out: &mut String, v: Value) {
        if let ValueDef::Result(op, idx) = m.value_def(v)
            && m.num_results(op) > 1
            && !self.split(m, op)
        {
            self.write_name(out, m.result(op, 0));
            out.push('#');
            push_u64(out, idx as u64);
            return;
        }
        self.write_name(out, v);
    }

    /// Writes a block label (`^bb0`).
    pub(crate) fn write_block(&self, out: &mut String, b: Block) {
        out.push_str("^bb");
        push_u64(out, self.blocks.get(&b).copied().unwrap_or(0) as u64);
    }
}

impl<'m> State<'m> {
    fn new(m: &'m Module, generic: bool) -> State<'m> {
        State {
            m,
            names: Names {
                names: SecondaryMap::with_capacity(m.value_capacity()),
                hints: !generic,
                ..Names::default()
            },
            next_value: 0,
            next_arg: 0,
            next_conflict: 0,
            ids: FxHashMap::default(),
            used: FxHashSet::default(),
            used_stack: Vec::new(),
            generic,
            scratch: String::new(),
            constant_names: FxHashMap::default(),
            as_written: false,
        }
    }

    /// Names `v` as the source did, if it should and the source named it; a name that is a
    /// number (`%12`) is left to the numbering, whose numbers it could clash with.
    fn take_source_name(&mut self, v: Value) -> bool {
        if !self.as_written {
            return false;
        }
        let Some(name) = self.m.trivia.names.get(&v) else {
            return false;
        };
        if name.is_empty() || name.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
        let name = name.clone();
        self.set_name(v, &name);
        true
    }

    fn set_number(&mut self, v: Value) {
        self.names.names[v] = Name::number(self.next_value);
        self.next_value += 1;
    }

    /// The id of a name, interning it.
    fn intern(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.names.strings.len() as u32;
        self.names.strings.push(name.into());
        self.ids.insert(name.into(), id);
        id
    }

    fn set_name(&mut self, v: Value, hint: &str) {
        if hint.is_empty() {
            self.set_number(v);
            return;
        }
        let mut text = std::mem::take(&mut self.scratch);
        text.clear();
        sanitize_into(&mut text, hint);
        let id = self.intern(&text);
        self.scratch = text;
        self.set_name_id(v, id);
    }

    /// Names `v` after the interned (sanitized) name `id`, with a `_N` suffix if the name
    /// is taken in an enclosing scope.
    fn set_name_id(&mut self, v: Value, mut id: u32) {
        if self.used.contains(&id) {
            let mut text = std::mem::take(&mut self.scratch);
            text.clear();
            text.push_str(&self.names.strings[id as usize]);
            let base_len = text.len();
            loop {
                text.truncate(base_len);
                text.push('_');
                push_u64(&mut text, self.next_conflict as u64);
                self.next_conflict += 1;
                id = self.intern(&text);
                if !self.used.contains(&id) {
                    break;
                }
            }
            self.scratch = text;
        }
        self.used.insert(id);
        self.used_stack.push(id);
        self.names.names[v] = Name::string(id);
    }

    /// Numbers nested regions breadth-first by region, each starting from the counters at
    /// the end of its parent region, with its own name scope.
    fn number_nested(&mut self, regions: Vec<Region>) {
        let saved = (
            self.next_value,
            self.next_arg,
            self.next_conflict,
            self.used_stack.len(),
        );
        for r in regions {
            (self.next_value, self.next_arg, self.next_conflict) = (saved.0, saved.1, saved.2);
            self.number_region(r);
            // Pop this region's names.
            while self.used_stack.len() > saved.3 {
                if let Some(n) = self.used_stack.pop() {
                    self.used.remove(&n);
                }
            }
        }
        (self.next_value, self.next_arg, self.next_conflict) = (saved.0, saved.1, saved.2);
    }

    fn number_region(&mut self, r: Region) {
        let m = self.m;
        if !self.generic
            && let Some(parent) = m.region_parent(r)
        {
            self.block_arg_hints(parent, r);
        }
        let blocks = m.region_blocks(r).to_vec();
        for (i, &b) in blocks.iter().enumerate() {
            self.names.blocks.insert(b, i as u32);
            self.number_block(b, i == 0);
        }
        let nested: Vec<Region> = blocks
            .iter()
            .flat_map(|&b| {
                m.block_ops(b)
                    .flat_map(|op| m.regions(op).to_vec())
                    .collect::<Vec<_>>()
            })
            .collect();
        self.number_nested(nested);
    }

    fn block_arg_hints(&mut self, parent: Op, r: Region) {
        let m = self.m;
        let Some(b) = m.entry_block(r) else { return };
        let args = m.block_args(b).to_vec();
        if self.as_written && args.iter().any(|a| m.trivia.names.contains_key(a)) {
            // The source named the region's arguments: number_block keeps those names.
            return;
        }
        match m.def(parent).names {
            NameHint::For => {
                for (i, a) in args.iter().enumerate() {
                    let n = if i == 0 {
                        "loopIdx".to_string()
                    } else {
                        format!("iterArg{}", i - 1)
                    };
                    self.set_name(*a, &n);
                }
            }
            NameHint::Reduce => {
                let many = args.len() > 2;
                for (i, a) in args.iter().enumerate() {
                    let mut n = if i % 2 == 0 {
                        "reduce_lhs".to_string()
                    } else {
                        "reduce_rhs".to_string()
                    };
                    if many {
                        n.push_str(&(i / 2).to_string());
                    }
                    self.set_name(*a, &n);
                }
            }
            _ => {}
        }
    }

    fn number_block(&mut self, b: Block, entry: bool) {
        let m = self.m;
        for &a in m.block_args(b) {
            if self.names.names[a] != Name::UNSET || self.take_source_name(a) {
                continue;
            }
            if entry {
                let mut n = String::with_capacity(8);
                n.push_str("arg");
                push_u64(&mut n, self.next_arg as u64);
                self.next_arg += 1;
                self.set_name(a, &n);
            } else {
                self.set_number(a);
            }
        }
        for op in m.block_ops(b) {
            self.number_op(op);
        }
    }

    fn number_op(&mut self, op: Op) {
        let m = self.m;
        let n = m.num_results(op);
        if n == 0 {
            return;
        }
        if self.take_source_name(m.result(op, 0)) {
            for i in 1..n {
                let r = m.result(op, i);
                if !self.take_source_name(r)
                    && self.names.split(m, op)
                    && let Some(hint) = result_hint(m, op, i, 0)
                {
                    self.set_name(r, &hint);
                }
            }
            for i in 1..n {
                let r = m.result(op, i);
                if self.names.names[r] == Name::UNSET && self.names.split(m, op) {
                    self.set_number(r);
                }
            }
            return;
        }
        if !self.generic && m.unregistered_name(op).is_none() {
            match (m.def(op).names, m.attr(op, 0)) {
                // Constants repeat: their names are made once per value.
                (NameHint::Constant, Some(a)) => {
                    let id = match self.constant_names.get(&a) {
                        Some(&id) => id,
                        None => {
                            let mut text = String::new();
                            sanitize_into(&mut text, &constant_name(m, op));
                            let id = self.intern(&text);
                            self.constant_names.insert(a, id);
                            id
                        }
                    };
                    self.set_name_id(m.result(op, 0), id);
                }
                _ => {
                    for i in 0..n {
                        if let Some(hint) = result_hint(m, op, i, 0) {
                            self.set_name(m.result(op, i), &hint);
                        }
                    }
                }
            }
        }
        let first = m.result(op, 0);
        if self.names.names[first] == Name::UNSET {
            self.set_number(first);
        }
    }
}

/// The naming hint of result `i` of `op`, if it has one. `depth` bounds the recursion of
/// chains of assumes (see [`assume_name`]).
fn result_hint(m: &Module, op: Op, i: usize, depth: u32) -> Option<Cow<'static, str>> {
    let def = m.def(op);
    match def.names {
        NameHint::None => None,
        NameHint::Slots => def.results.get(i).map(|s| Cow::Borrowed(s.name)),
        _ if i != 0 => None,
        NameHint::Fixed(s) => Some(Cow::Borrowed(s)),
        NameHint::For => Some(Cow::Borrowed("for")),
        NameHint::Reduce => Some(Cow::Borrowed("reduce")),
        NameHint::Constant => Some(Cow::Owned(constant_name(m, op))),
        NameHint::Assume => (depth <= 16).then(|| Cow::Owned(assume_name(m, op, depth))),
    }
}

/// `%assume`, or `%assume_<hint>` where `<hint>` is the naming hint of the assumed value's
/// producer (recursively for chains of assumes). `depth` counts the assumes followed so far:
/// a cycle of assumes, which only invalid IR has, must not recurse forever.
fn assume_name(m: &Module, op: Op, depth: u32) -> String {
    let mut name = "assume".to_string();
    let Some(v) = m.operands(op).next() else {
        return name;
    };
    let Some(producer) = m.defining_op(v) else {
        return name;
    };
    if !has_asm_interface(m.def(producer)) {
        return name;
    }
    name.push('_');
    let ValueDef::Result(_, idx) = m.value_def(v) else {
        return name;
    };
    if let Some(h) = result_hint(m, producer, idx as usize, depth + 1) {
        name.push_str(&h);
    }
    name
}

/// Ops that implement MLIR's OpAsmOpInterface in NVIDIA's dialect (they either name their
/// results or provide a default dialect for their regions).
fn has_asm_interface(def: &crate::ops::OpDef) -> bool {
    def.names != NameHint::None || def.has(crate::ops::Traits::DEFAULT_DIALECT)
}

/// `%cst_<value>_<type>` naming of constants (`%true`/`%false` for `i1`).
fn constant_name(m: &Module, op: Op) -> String {
    let Some(a) = m.attr(op, 0) else {
        return "cst".to_string();
    };
    let AttrData::Dense(d) = m.ctx.attrs.get(a) else {
        return "cst".to_string();
    };
    let types = &m.ctx.types;
    let elem = types.element_type(d.ty);
    let count: i64 = types.shape(d.ty).iter().product();
    let single = d.splat || count == 1;
    match types.get(elem) {
        TypeData::Int(1) => {
            if d.values.iter().all(|v| v & 1 == 1) {
                "true".to_string()
            } else if d.values.iter().all(|v| v & 1 == 0) {
                "false".to_string()
            } else {
                "cst_i1".to_string()
            }
        }
        TypeData::Int(w) => {
            let mut s = "cst".to_string();
            if single {
                let bits = d.values.first().copied().unwrap_or(0);
                let w = (*w).clamp(1, 64);
                let v = if w == 64 {
                    bits as i64
                } else {
                    ((bits << (64 - w)) as i64) >> (64 - w)
                };
                s.push('_');
                s.push_str(&v.to_string());
            }
            s.push('_');
            s.push_str(&types.to_string(elem, false));
            s
        }
        TypeData::Float(k) => {
            let mut s = "cst".to_string();
            if single {
                let bits = d.values.first().copied().unwrap_or(0);
                if crate::float::is_nan(*k, bits) {
                    s.push_str("_NaN");
                } else if let Some(v) = exact_u64(*k, bits) {
                    s.push('_');
                    s.push_str(&v.to_string());
                }
            }
            s.push('_');
            s.push_str(k.name());
            s
        }
        _ => "cst".to_string(),
    }
}

/// The value as an unsigned 64-bit integer if the conversion is exact.
fn exact_u64(k: FloatKind, bits: u64) -> Option<u64> {
    let v = crate::float::to_f64(k, bits);
    if v.is_finite() && v >= 0.0 && v.trunc() == v && v < 18446744073709551616.0 {
        Some(v as u64)
    } else {
        None
    }
}

/// MLIR's identifier sanitizing for value names: invalid characters become `_`, a leading
/// digit gets a `_` prefix.
fn sanitize_into(out: &mut String, name: &str) {
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        out.push('_');
    }
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '$' | '.' | '_' | '-') {
            out.push(c);
        } else {
            out.push('_');
        }
    }
}

// Keep the enum import used for documentation links of hint kinds.
#[allow(dead_code)]
const _: Option<EnumKind> = None;

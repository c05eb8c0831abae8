//! The writer: a verified module to bytecode.

use crate::enc::{pad, put_int_list, put_svarint, put_varint};
use crate::schema::{self, Bit, Field};
use crate::{Section, Version, dbg_tag, type_tag};
use std::collections::HashMap;
use tilec_diag::{Diagnostic, Location, codes};
use tilec_ir::attrs::{AttrData, DenseElements};
use tilec_ir::float::FloatKind;
use tilec_ir::types::TypeData;
use tilec_ir::{Attr, Block, Module, Op, Opcode, Type, Value};

/// An encoding failure: the message and the op it concerns.
struct Fail(String, Option<Op>);

type W<T> = Result<T, Fail>;

/// Interning table whose ids are insertion order.
struct Table<K> {
    items: Vec<Vec<u8>>,
    map: HashMap<K, u64>,
}

impl<K: std::hash::Hash + Eq> Table<K> {
    fn new() -> Self {
        Table {
            items: Vec::new(),
            map: HashMap::new(),
        }
    }
}

struct Writer<'m> {
    m: &'m Module,
    version: Version,
    strings: Table<String>,
    types: Table<Type>,
    constants: Table<Vec<u8>>,
    /// Debug attributes (ids start at 1; 0 is the unknown location).
    debug: Table<Attr>,
    /// Per function: its own location and each op's, in write order.
    debug_per_fn: Vec<Vec<u64>>,
    values: HashMap<Value, u64>,
    next_value: u64,
}

/// Writes `m` as bytecode of `version`. `m` must hold one module (a `cuda_tile.module`, or
/// items at the top level as NVIDIA's disassembler prints them).
pub fn write(m: &Module, version: Version) -> Result<Vec<u8>, Vec<Diagnostic>> {
    let mut w = Writer {
        m,
        version,
        strings: Table::new(),
        types: Table::new(),
        constants: Table::new(),
        debug: Table::new(),
        debug_per_fn: Vec::new(),
        values: HashMap::new(),
        next_value: 0,
    };
    let located = |mut d: Diagnostic, op: Option<Op>| {
        if let (Some(op), Some(file)) = (op, m.file())
            && let Some(span) = m.op_span(op)
        {
            d = d.at(Location::new(file, span));
        }
        d
    };
    if let Some((msg, container, culprit)) = not_self_contained(m) {
        return Err(vec![
            located(
                Diagnostic::error(codes::BYTECODE_WRITE, msg),
                container.or(Some(culprit)),
            ),
            located(
                Diagnostic::remark(codes::BYTECODE_WRITE, "invalid op"),
                Some(culprit),
            ),
        ]);
    }
    w.run()
        .map_err(|Fail(msg, op)| vec![located(Diagnostic::error(codes::BYTECODE_WRITE, msg), op)])
}

/// A module is encodable only if it holds nothing but `cuda_tile` ops and its body holds
/// only functions and globals. Returns NVIDIA's message, the module (the container the
/// error is reported on) and the offending op, which gets a remark.
fn not_self_contained(m: &Module) -> Option<(&'static str, Option<Op>, Op)> {
    let top: Vec<Op> = m.block_ops(m.body()).collect();
    let module = top.iter().copied().find(|&o| m.opcode(o) == Opcode::Module);
    let mut foreign = None;
    m.walk(|op| {
        if foreign.is_none() && m.unregistered_name(op).is_some() {
            foreign = Some(op);
        }
    });
    if let Some(op) = foreign {
        return Some((
            "only ops from the 'cuda_tile' dialect are allowed",
            module,
            op,
        ));
    }
    let items: Vec<Op> = match module {
        Some(md) if top.len() == 1 => m
            .region_blocks(m.region(md, 0))
            .first()
            .map(|&b| m.block_ops(b).collect())
            .unwrap_or_default(),
        _ => top,
    };
    let stray = items.into_iter().find(|&op| {
        !matches!(
            m.opcode(op),
            Opcode::Global | Opcode::Entry | Opcode::TestingFunc | Opcode::Module
        )
    })?;
    Some((
        "only function and global ops are allowed in the body",
        module,
        stray,
    ))
}

/// NVIDIA's message for a field that the target version cannot encode.
fn requires(name: &str, since: Version, operand: bool) -> String {
    let what = if operand { "operand" } else { "attribute" };
    format!("{what} '{name}' requires bytecode version {since}+")
}

impl<'m> Writer<'m> {
    fn run(&mut self) -> W<Vec<u8>> {
        let items = self.items()?;
        let mut globals = Vec::new();
        let mut funcs = Vec::new();
        for op in items {
            match self.m.opcode(op) {
                Opcode::Global => globals.push(op),
                Opcode::Entry | Opcode::TestingFunc => funcs.push(op),
                _ => {
                    return Err(Fail(
                        format!(
                            "'cuda_tile.{}' cannot be encoded in bytecode: a module holds only globals and entries",
                            self.m.op_mnemonic(op)
                        ),
                        Some(op),
                    ));
                }
            }
        }
        let mut out = Vec::new();
        out.extend_from_slice(&crate::MAGIC);
        out.push(self.version.major);
        out.push(self.version.minor);
        out.extend_from_slice(&self.version.tag.to_le_bytes());

        // Function bodies first: they register the strings, types and constants.
        let mut func_section = Vec::new();
        put_varint(&mut func_section, funcs.len() as u64);
        for &f in &funcs {
            self.function(f, &mut func_section)?;
        }
        let global_section = self.globals(&globals)?;

        if !globals.is_empty() {
            section(&mut out, Section::Global, &global_section, 1);
        }
        section(&mut out, Section::Func, &func_section, 8);
        if !self.constants.items.is_empty() {
            let body = table_body(&self.constants.items, 8, 0);
            section(&mut out, Section::Constant, &body, 8);
        }
        if !self.debug_per_fn.is_empty() {
            let body = self.debug_section();
            section(&mut out, Section::Debug, &body, 8);
        }
        // The producer (13.3 on; older versions have no place for it and drop it, as
        // NVIDIA's writer does).
        if self.version >= Version::V13_3
            && let Some(p) = self.producer()
        {
            let mut body = Vec::new();
            let i = self.string(&p);
            put_varint(&mut body, i);
            section(&mut out, Section::Producer, &body, 1);
        }
        let body = table_body(&self.types.items, 4, 0);
        section(&mut out, Section::Type, &body, 4);
        let body = table_body(&self.strings.items, 4, 0);
        section(&mut out, Section::String, &body, 4);
        out.push(Section::End as u8);
        Ok(out)
    }

    /// The items of the one module.
    fn items(&self) -> W<Vec<Op>> {
        let m = self.m;
        let top: Vec<Op> = m.block_ops(m.body()).collect();
        let modules: Vec<Op> = top
            .iter()
            .copied()
            .filter(|&o| m.opcode(o) == Opcode::Module)
            .collect();
        match modules.as_slice() {
            [] => Ok(top),
            [one] if top.len() == 1 => Ok(m
                .region_blocks(m.region(*one, 0))
                .first()
                .map(|&b| m.block_ops(b).collect())
                .unwrap_or_default()),
            _ => Err(Fail(
                format!(
                    "a bytecode file holds one module; the input has {} top-level operations",
                    top.len()
                ),
                top.get(1).copied(),
            )),
        }
    }

    /// The module's `producer` attribute.
    fn producer(&self) -> Option<String> {
        let m = self.m;
        let module = m
            .block_ops(m.body())
            .find(|&o| m.opcode(o) == Opcode::Module)?;
        match m.ctx.attrs.get(m.attr(module, 1)?) {
            AttrData::String(s) => Some(s.to_string()),
            _ => None,
        }
    }

    fn string(&mut self, s: &str) -> u64 {
        if let Some(&i) = self.strings.map.get(s) {
            return i;
        }
        let i = self.strings.items.len() as u64;
        self.strings.items.push(s.as_bytes().to_vec());
        self.strings.map.insert(s.to_string(), i);
        i
    }

    fn ty(&mut self, t: Type, op: Option<Op>) -> W<u64> {
        if let Some(&i) = self.types.map.get(&t) {
            return Ok(i);
        }
        let mut b = Vec::new();
        let data = self.m.ctx.types.get(t).clone();
        // Types a later version added: NVIDIA's writer reports them without a location.
        let since = |name: &str, v: Version| -> W<()> {
            if self.version < v {
                return Err(Fail(
                    format!(
                        "type '{name}' requires bytecode version {v}+, targeting {}",
                        self.version
                    ),
                    None,
                ));
            }
            Ok(())
        };
        match data {
            TypeData::Int(w) => b.push(match w {
                1 => type_tag::I1,
                4 => {
                    since("Int4", Version::V13_3)?;
                    type_tag::I4
                }
                8 => type_tag::I8,
                16 => type_tag::I16,
                32 => type_tag::I32,
                64 => type_tag::I64,
                _ => {
                    return Err(Fail(
                        format!("unsupported type in bytecode writer: 'i{w}'"),
                        op,
                    ));
                }
            }),
            TypeData::Float(k) => b.push(match k {
                FloatKind::F16 => type_tag::F16,
                FloatKind::BF16 => type_tag::BF16,
                FloatKind::F32 => type_tag::F32,
                FloatKind::TF32 => type_tag::TF32,
                FloatKind::F64 => type_tag::F64,
                FloatKind::F8E4M3FN => type_tag::F8E4M3FN,
                FloatKind::F8E5M2 => type_tag::F8E5M2,
                FloatKind::F8E8M0FNU => {
                    since("Float8E8M0FNU", Version::V13_2)?;
                    type_tag::F8E8M0FNU
                }
                FloatKind::F4E2M1FN => {
                    since("Float4E2M1FN", Version::V13_3)?;
                    type_tag::F4E2M1FN
                }
            }),
            TypeData::Token => b.push(type_tag::TOKEN),
            TypeData::Ptr(e) => {
                let e = self.ty(e, op)?;
                b.push(type_tag::PTR);
                put_varint(&mut b, e);
            }
            TypeData::Tile {
                shape,
                elem,
                encoding: None,
            } => {
                let e = self.ty(elem, op)?;
                b.push(type_tag::TILE);
                put_varint(&mut b, e);
                put_int_list(&mut b, &shape, 8);
            }
            TypeData::TestEvolved {
                base,
                new,
                attr,
                optional,
            } => {
                since("BytecodeTestEvolvedType", Version::V250_0)?;
                let bi = self.ty(base, op)?;
                let ni = new.map(|n| self.ty(n, op)).transpose()?;
                let oi = optional.map(|o| self.ty(o, op)).transpose()?;
                // Tags are varints: 200 takes two bytes.
                put_varint(&mut b, u64::from(type_tag::TEST_EVOLVED));
                put_varint(&mut b, bi);
                if self.version >= Version::V250_1 {
                    let flags = u64::from(ni.is_some())
                        | u64::from(attr.is_some()) << 1
                        | u64::from(oi.is_some()) << 2;
                    put_varint(&mut b, flags);
                    if let Some(n) = ni {
                        put_varint(&mut b, n);
                    }
                    if let Some(p) = attr {
                        put_varint(&mut b, p as u64);
                    }
                    if let Some(o) = oi {
                        put_varint(&mut b, o);
                    }
                } else if new.is_some() || attr.is_some() || optional.is_some() {
                    return Err(Fail(
                        format!(
                            "the parameters newType, optionalAttr and optionalType of type 'BytecodeTestEvolvedType' require bytecode version 250.1+, targeting {}",
                            self.version
                        ),
                        None,
                    ));
                }
            }
            TypeData::TensorView {
                elem,
                shape,
                strides,
            } => {
                let e = self.ty(elem, op)?;
                b.push(type_tag::TENSOR_VIEW);
                put_varint(&mut b, e);
                put_int_list(&mut b, &shape, 8);
                put_int_list(&mut b, &strides, 8);
            }
            TypeData::PartitionView {
                tile,
                padding,
                tensor_view,
                dim_map,
            } => {
                let tv = self.ty(tensor_view, op)?;
                let tile: Vec<i64> = tile.to_vec();
                let dims: Vec<i64> = dim_map.iter().map(|&d| d as i64).collect();
                b.push(type_tag::PARTITION_VIEW);
                if self.version >= Version::V13_3 {
                    put_varint(&mut b, padding.is_some() as u64);
                    put_int_list(&mut b, &tile, 4);
                    put_varint(&mut b, tv);
                    put_int_list(&mut b, &dims, 4);
                } else {
                    put_int_list(&mut b, &tile, 4);
                    put_varint(&mut b, tv);
                    put_int_list(&mut b, &dims, 4);
                    put_varint(&mut b, padding.is_some() as u64);
                }
                if let Some(p) = padding {
                    put_varint(&mut b, p as u64);
                }
            }
            // 13.3's views: the tag, a bit set of the optional parameters present (bit 0:
            // the padding value), then the parameters in NVIDIA's declaration order, the
            // padding value last and only when present.
            TypeData::StridedView {
                tile,
                traversal_strides,
                padding,
                tensor_view,
                dim_map,
            } => {
                since("StridedViewType", Version::V13_3)?;
                let tv = self.ty(tensor_view, op)?;
                let dims: Vec<i64> = dim_map.iter().map(|&d| d as i64).collect();
                b.push(type_tag::STRIDED_VIEW);
                put_varint(&mut b, padding.is_some() as u64);
                put_int_list(&mut b, &tile, 4);
                put_int_list(&mut b, &traversal_strides, 4);
                put_varint(&mut b, tv);
                put_int_list(&mut b, &dims, 4);
                if let Some(p) = padding {
                    put_varint(&mut b, p as u64);
                }
            }
            TypeData::GatherScatterView {
                tile,
                padding,
                tensor_view,
                sparse_dim,
            } => {
                since("GatherScatterViewType", Version::V13_3)?;
                let tv = self.ty(tensor_view, op)?;
                b.push(type_tag::GATHER_SCATTER_VIEW);
                put_varint(&mut b, padding.is_some() as u64);
                put_int_list(&mut b, &tile, 4);
                put_varint(&mut b, tv);
                put_varint(&mut b, u64::from(sparse_dim));
                if let Some(p) = padding {
                    put_varint(&mut b, p as u64);
                }
            }
            TypeData::Function { inputs, results } => {
                let ins: Vec<u64> = inputs.iter().map(|&t| self.ty(t, op)).collect::<W<_>>()?;
                let outs: Vec<u64> = results.iter().map(|&t| self.ty(t, op)).collect::<W<_>>()?;
                b.push(type_tag::FUNCTION);
                put_varint(&mut b, ins.len() as u64);
                ins.iter().for_each(|&i| put_varint(&mut b, i));
                put_varint(&mut b, outs.len() as u64);
                outs.iter().for_each(|&i| put_varint(&mut b, i));
            }
            _ => {
                return Err(Fail(
                    format!(
                        "unsupported type in bytecode writer: '{}'",
                        self.m.ctx.types.to_string(t, false)
                    ),
                    op,
                ));
            }
        }
        let i = self.types.items.len() as u64;
        self.types.items.push(b);
        self.types.map.insert(t, i);
        Ok(i)
    }

    fn constant(&mut self, d: &DenseElements, op: Option<Op>) -> W<u64> {
        let raw = dense_raw(self.m, d).ok_or_else(|| {
            Fail(
                "constant has no bytecode encoding (its element type is not a number)".into(),
                op,
            )
        })?;
        let mut b = Vec::new();
        put_varint(&mut b, raw.len() as u64);
        b.extend_from_slice(&raw);
        if let Some(&i) = self.constants.map.get(&b) {
            return Ok(i);
        }
        let i = self.constants.items.len() as u64;
        self.constants.items.push(b.clone());
        self.constants.map.insert(b, i);
        Ok(i)
    }

    /// A self-describing (tagged) attribute.
    fn tagged(&mut self, a: Attr, out: &mut Vec<u8>, op: Option<Op>) -> W<()> {
        let data = self.m.ctx.attrs.get(a).clone();
        match data {
            AttrData::Int { value, ty } => {
                let ty = ty.unwrap_or(Type::I64);
                let t = self.ty(ty, op)?;
                out.push(crate::attr_tag::INTEGER);
                put_varint(out, t);
                let w = int_width(self.m, ty);
                put_varint(out, zext(value, w));
            }
            AttrData::Float { bits, ty } => {
                let t = self.ty(ty, op)?;
                out.push(crate::attr_tag::FLOAT);
                put_varint(out, t);
                put_apint(out, bits, float_width(self.m, ty));
            }
            AttrData::Bool(v) => {
                out.push(crate::attr_tag::BOOL);
                out.push(v as u8);
            }
            AttrData::Type(t) => {
                let t = self.ty(t, op)?;
                out.push(crate::attr_tag::TYPE);
                put_varint(out, t);
            }
            AttrData::String(s) | AttrData::SymbolRef(s) => {
                let s = self.string(&s);
                out.push(crate::attr_tag::STRING);
                put_varint(out, s);
            }
            AttrData::Array(items) => {
                out.push(crate::attr_tag::ARRAY);
                put_varint(out, items.len() as u64);
                for &i in items.iter() {
                    self.tagged(i, out, op)?;
                }
            }
            AttrData::Dense(d) => {
                let t = self.ty(d.ty, op)?;
                let c = self.constant(&d, op)?;
                out.push(crate::attr_tag::DENSE);
                put_varint(out, t);
                put_varint(out, c);
            }
            AttrData::DivBy {
                divisor,
                every,
                along,
            } => {
                out.push(crate::attr_tag::DIV_BY);
                put_varint(out, divisor);
                out.push(every.is_some() as u8 | (along.is_some() as u8) << 1);
                if let Some(e) = every {
                    put_svarint(out, e);
                }
                if let Some(a) = along {
                    put_svarint(out, a);
                }
            }
            AttrData::BytecodeTestValue(v) => {
                if self.version < Version::V250_1 {
                    return Err(Fail(
                        format!(
                            "attribute 'BytecodeTestValue' requires bytecode version 250.1+, targeting {}",
                            self.version
                        ),
                        op,
                    ));
                }
                // Tags are varints: 200 takes two bytes.
                put_varint(out, u64::from(crate::attr_tag::BYTECODE_TEST_VALUE));
                put_svarint(out, v);
            }
            AttrData::SameElements(v) => {
                out.push(crate::attr_tag::SAME_ELEMENTS);
                put_int_list(out, &v, 8);
            }
            AttrData::Dict(items) => {
                out.push(crate::attr_tag::DICTIONARY);
                self.dict(&items, out, op)?;
            }
            AttrData::OptHints(d) => {
                out.push(crate::attr_tag::OPT_HINTS);
                self.hints_untagged(d, out, op)?;
            }
            AttrData::Bounded { lb, ub } => {
                out.push(crate::attr_tag::BOUNDED);
                out.push(lb.is_some() as u8 | (ub.is_some() as u8) << 1);
                if let Some(l) = lb {
                    put_svarint(out, l);
                }
                if let Some(u) = ub {
                    put_svarint(out, u);
                }
            }
            _ => {
                return Err(Fail(
                    format!("attribute '{}' has no bytecode encoding", {
                        let mut s = String::new();
                        tilec_ir::attrs::AttrPrinter {
                            types: &self.m.ctx.types,
                            attrs: &self.m.ctx.attrs,
                            aliases: None,
                        }
                        .write(&mut s, a);
                        s
                    }),
                    op,
                ));
            }
        }
        Ok(())
    }

    fn dict(&mut self, items: &[(Box<str>, Attr)], out: &mut Vec<u8>, op: Option<Op>) -> W<()> {
        put_varint(out, items.len() as u64);
        for (k, v) in items {
            let k = self.string(k);
            put_varint(out, k);
            self.tagged(*v, out, op)?;
        }
        Ok(())
    }

    /// Optimization hints without their tag: `arch -> dictionary` entries.
    fn hints_untagged(&mut self, hints: Attr, out: &mut Vec<u8>, op: Option<Op>) -> W<()> {
        let a = match self.m.ctx.attrs.get(hints) {
            AttrData::OptHints(d) => *d,
            _ => hints,
        };
        match self.m.ctx.attrs.get(a).clone() {
            AttrData::Dict(items) => self.dict(&items, out, op),
            _ => Err(Fail("malformed optimization hints".into(), op)),
        }
    }

    fn function(&mut self, f: Op, out: &mut Vec<u8>) -> W<()> {
        let m = self.m;
        let def = m.def(f);
        let name = m
            .sym_name(f)
            .ok_or_else(|| Fail("entry without a name".into(), Some(f)))?
            .to_string();
        let fty = def
            .attr_index("function_type")
            .and_then(|i| m.attr(f, i))
            .and_then(|a| match m.ctx.attrs.get(a) {
                AttrData::Type(t) => Some(*t),
                _ => None,
            })
            .ok_or_else(|| Fail("entry without a function type".into(), Some(f)))?;
        let hints = def
            .attr_index("optimization_hints")
            .and_then(|i| m.attr(f, i));
        let n = self.string(&name);
        put_varint(out, n);
        let t = self.ty(fty, Some(f))?;
        put_varint(out, t);
        // Kernels set bit 1; NVIDIA's test functions (`testing$func`) are written as
        // device functions (bit 1 clear), which only tilec reads back.
        let kernel = if m.opcode(f) == Opcode::Entry {
            0x02
        } else {
            0
        };
        out.push(kernel | if hints.is_some() { 0x04 } else { 0 });
        // Function location index: functions are numbered from 1 in the debug section.
        self.debug_per_fn.push(Vec::new());
        let fn_index = self.debug_per_fn.len() as u64;
        put_varint(out, fn_index);
        let loc = self.debug_index(m.op_loc(f));
        self.debug_per_fn.last_mut().unwrap().push(loc);
        if let Some(h) = hints {
            out.push(crate::attr_tag::OPT_HINTS);
            self.hints_untagged(h, out, Some(f))?;
        }
        let mut body = Vec::new();
        self.values.clear();
        self.next_value = 0;
        let block = m
            .region_blocks(m.region(f, 0))
            .first()
            .copied()
            .ok_or_else(|| Fail("entry without a body".into(), Some(f)))?;
        for &a in m.block_args(block) {
            self.values.insert(a, self.next_value);
            self.next_value += 1;
        }
        for op in m.block_ops(block) {
            self.op(op, &mut body)?;
        }
        put_varint(out, body.len() as u64);
        out.extend_from_slice(&body);
        Ok(())
    }

    fn globals(&mut self, globals: &[Op]) -> W<Vec<u8>> {
        let m = self.m;
        let mut out = Vec::new();
        put_varint(&mut out, globals.len() as u64);
        for &g in globals {
            let def = m.def(g);
            let name = m.sym_name(g).unwrap_or_default().to_string();
            let value = def.attr_index("value").and_then(|i| m.attr(g, i));
            let Some(AttrData::Dense(d)) = value.map(|a| m.ctx.attrs.get(a).clone()) else {
                return Err(Fail("global without a value".into(), Some(g)));
            };
            let align = def
                .attr_index("alignment")
                .and_then(|i| m.attr(g, i))
                .and_then(|a| m.ctx.attrs.get_int(a))
                .unwrap_or(0);
            let n = self.string(&name);
            put_varint(&mut out, n);
            let t = self.ty(d.ty, Some(g))?;
            put_varint(&mut out, t);
            let c = self.constant(&d, Some(g))?;
            put_varint(&mut out, c);
            put_varint(&mut out, align as u64);
            let private = matches!(
                def.attr_index("symbol_visibility")
                    .and_then(|i| m.attr(g, i))
                    .map(|a| m.ctx.attrs.get(a)),
                Some(AttrData::Enum(_, 1))
            );
            let constant = def
                .attr_index("constant")
                .and_then(|i| m.attr(g, i))
                .is_some();
            if self.version >= Version::V13_3 {
                put_varint(&mut out, private as u64);
                put_varint(&mut out, constant as u64);
            } else if private {
                return Err(Fail(
                    format!(
                        "global `{name}` uses non-public symbol visibility, which cannot be encoded in bytecode version {} (requires bytecode 13.3+)",
                        self.version
                    ),
                    Some(g),
                ));
            } else if constant {
                return Err(Fail(
                    format!(
                        "constant global `{name}` cannot be encoded in bytecode version {} (the `constant` attribute requires bytecode 13.3+)",
                        self.version
                    ),
                    Some(g),
                ));
            }
        }
        Ok(out)
    }

    fn debug_index(&mut self, loc: Option<Attr>) -> u64 {
        let Some(loc) = loc else { return 0 };
        self.debug_attr(loc).unwrap_or(0)
    }

    /// The debug-table id of a location or debug-info attribute (`None`: not encodable,
    /// written as the unknown location).
    fn debug_attr(&mut self, a: Attr) -> Option<u64> {
        if let Some(&i) = self.debug.map.get(&a) {
            return Some(i);
        }
        let data = self.m.ctx.attrs.get(a).clone();
        let mut b = Vec::new();
        match data {
            AttrData::DiLoc { loc, scope } => {
                let AttrData::LocFile { file, line, col } = self.m.ctx.attrs.get(loc).clone()
                else {
                    return None;
                };
                let s = self.debug_attr(scope)?;
                b.push(dbg_tag::DI_LOC);
                put_varint(&mut b, s);
                let f = self.string(&file);
                put_varint(&mut b, f);
                put_varint(&mut b, line as u64);
                put_varint(&mut b, col as u64);
            }
            AttrData::DiFile { name, directory } => {
                b.push(dbg_tag::DI_FILE);
                let n = self.string(&name);
                put_varint(&mut b, n);
                let d = self.string(&directory);
                put_varint(&mut b, d);
            }
            AttrData::DiStruct { mnemonic, fields } => {
                let field = |k: &str| fields.iter().find(|(n, _)| &**n == k).map(|(_, v)| *v);
                let int = |w: &Self, k: &str| -> Option<u64> {
                    w.m.ctx.attrs.get_int(field(k)?).map(|v| v as u64)
                };
                let string = |w: &Self, k: &str| -> Option<String> {
                    match w.m.ctx.attrs.get(field(k)?) {
                        AttrData::String(s) => Some(s.to_string()),
                        _ => None,
                    }
                };
                match &*mnemonic {
                    "di_compile_unit" => {
                        let f = self.debug_attr(field("file")?)?;
                        b.push(dbg_tag::DI_COMPILE_UNIT);
                        put_varint(&mut b, f);
                    }
                    "di_lexical_block" => {
                        let s = self.debug_attr(field("scope")?)?;
                        let f = self.debug_attr(field("file")?)?;
                        let (l, c) = (int(self, "line")?, int(self, "column").unwrap_or(0));
                        b.push(dbg_tag::DI_LEXICAL_BLOCK);
                        for v in [s, f, l, c] {
                            put_varint(&mut b, v);
                        }
                    }
                    "di_subprogram" => {
                        let f = self.debug_attr(field("file")?)?;
                        let line = int(self, "line")?;
                        let name = string(self, "name")?;
                        let link = string(self, "linkageName").unwrap_or_default();
                        let cu = self.debug_attr(field("compileUnit")?)?;
                        let sl = int(self, "scopeLine").unwrap_or(0);
                        b.push(dbg_tag::DI_SUBPROGRAM);
                        put_varint(&mut b, f);
                        put_varint(&mut b, line);
                        let n = self.string(&name);
                        put_varint(&mut b, n);
                        let l = self.string(&link);
                        put_varint(&mut b, l);
                        put_varint(&mut b, cu);
                        put_varint(&mut b, sl);
                    }
                    _ => return None,
                }
            }
            AttrData::LocCallSite { callee, caller } => {
                let c = self.debug_attr(callee)?;
                let r = self.debug_attr(caller)?;
                b.push(dbg_tag::CALL_SITE);
                put_varint(&mut b, c);
                put_varint(&mut b, r);
            }
            _ => return None,
        }
        let i = self.debug.items.len() as u64 + 1;
        self.debug.items.push(b);
        self.debug.map.insert(a, i);
        Some(i)
    }

    fn debug_section(&self) -> Vec<u8> {
        let mut out = Vec::new();
        put_varint(&mut out, self.debug_per_fn.len() as u64);
        pad(&mut out, 0, 4);
        let mut offset = 0u32;
        for f in &self.debug_per_fn {
            out.extend_from_slice(&offset.to_le_bytes());
            offset += f.len() as u32;
        }
        put_varint(&mut out, offset as u64);
        pad(&mut out, 0, 8);
        for f in &self.debug_per_fn {
            for &i in f {
                out.extend_from_slice(&i.to_le_bytes());
            }
        }
        // NVIDIA's reader rejects an empty attribute table: keep one placeholder entry.
        let mut items = self.debug.items.clone();
        if items.is_empty() {
            items.push(vec![dbg_tag::UNKNOWN]);
        }
        out.extend_from_slice(&table_body(&items, 4, out.len()));
        out
    }

    fn op(&mut self, op: Op, out: &mut Vec<u8>) -> W<()> {
        let m = self.m;
        let opcode = m.opcode(op);
        let Some(enc) = schema::by_op(opcode) else {
            return Err(Fail(
                format!(
                    "'cuda_tile.{}' has no encoding in Tile IR bytecode",
                    m.op_mnemonic(op)
                ),
                Some(op),
            ));
        };
        if self.version < enc.since {
            return Err(Fail(
                format!(
                    "'cuda_tile.{}' is not available in bytecode version {} (it needs {})",
                    m.op_mnemonic(op),
                    self.version,
                    enc.since
                ),
                Some(op),
            ));
        }
        let def = m.def(op);
        let loc = self.debug_index(m.op_loc(op));
        if let Some(list) = self.debug_per_fn.last_mut() {
            list.push(loc);
        }
        put_varint(out, enc.code);
        // From 13.2 on `print` always produces a token; a tokenless `print` (13.1 form)
        // gets an unused one so that readers number the values as the writer does.
        let phantom = usize::from(
            opcode == Opcode::Print && m.num_results(op) == 0 && self.version >= Version::V13_2,
        );
        // Before 13.2 `print` has no result: its token is not written (NVIDIA's rule for
        // versioned results), which only works when nothing uses it.
        let dropped =
            opcode == Opcode::Print && m.num_results(op) == 1 && self.version < Version::V13_2;
        if dropped && m.has_uses(m.result(op, 0)) {
            return Err(Fail(
                format!(
                    "the token result of 'cuda_tile.print_tko' requires bytecode version 13.2+, targeting {}",
                    self.version
                ),
                Some(op),
            ));
        }
        let groups = tilec_ir::segments::operand_groups(m, op);
        let slot = |name: &str| -> W<&Vec<Value>> {
            def.operands
                .iter()
                .position(|s| s.name == name)
                .map(|i| &groups[i])
                .ok_or_else(|| Fail(format!("internal: no operand slot '{name}'"), Some(op)))
        };
        let attr = |name: &str| def.attr_index(name).and_then(|i| m.attr(op, i));
        for f in enc.fields {
            match *f {
                Field::Results => {
                    for r in m.results(op) {
                        let t = self.ty(m.value_type(r), Some(op))?;
                        put_varint(out, t);
                    }
                }
                Field::SizedResults if dropped => put_varint(out, 0),
                Field::SizedResults => {
                    put_varint(out, (m.num_results(op) + phantom) as u64);
                    for r in m.results(op) {
                        let t = self.ty(m.value_type(r), Some(op))?;
                        put_varint(out, t);
                    }
                    if phantom == 1 {
                        let t = self.ty(Type::TOKEN, Some(op))?;
                        put_varint(out, t);
                    }
                }
                Field::Flags(bits, since) => {
                    let mut v = 0u64;
                    for (i, b) in bits.iter().enumerate() {
                        let set = match *b {
                            Bit::Unit(n) => attr(n).is_some(),
                            Bit::Present(n) => {
                                match def.operands.iter().position(|s| s.name == n) {
                                    Some(k) => !groups[k].is_empty(),
                                    None => attr(n).is_some(),
                                }
                            }
                        };
                        v |= (set as u64) << i;
                    }
                    if self.version >= since {
                        put_varint(out, v);
                    } else if v != 0 {
                        let first = bits[v.trailing_zeros() as usize];
                        let (name, operand) = match first {
                            Bit::Unit(n) => (n, false),
                            Bit::Present(n) => (n, def.operands.iter().any(|s| s.name == n)),
                        };
                        return Err(Fail(requires(name, since, operand), Some(op)));
                    }
                }
                Field::EnumSince(n, since) => {
                    let default = match def.attrs.iter().find(|a| a.name == n).map(|a| a.presence) {
                        Some(tilec_ir::ops::Presence::DefaultEnum(d)) => d as u64,
                        _ => 0,
                    };
                    let v = match attr(n).map(|a| m.ctx.attrs.get(a)) {
                        Some(AttrData::Enum(_, v)) => *v as u64,
                        _ => default,
                    };
                    if self.version >= since {
                        put_varint(out, v);
                    } else if v != default {
                        return Err(Fail(requires(n, since, false), Some(op)));
                    }
                }
                Field::Enum(n) => {
                    let v = match attr(n).map(|a| m.ctx.attrs.get(a)) {
                        Some(AttrData::Enum(_, v)) => *v as u64,
                        _ => match def.attrs.iter().find(|a| a.name == n).map(|a| a.presence) {
                            Some(tilec_ir::ops::Presence::DefaultEnum(d)) => d as u64,
                            _ => {
                                return Err(Fail(
                                    format!("internal: missing attribute '{n}'"),
                                    Some(op),
                                ));
                            }
                        },
                    };
                    put_varint(out, v);
                }
                Field::OptEnum(n) => {
                    if let Some(AttrData::Enum(k, v)) = attr(n).map(|a| m.ctx.attrs.get(a)) {
                        // The one enum case added after its enum: the testing priority
                        // `high` (250.1).
                        if *k == tilec_ir::attrs::EnumKind::BytecodeTestPriority
                            && *v == 2
                            && self.version < Version::V250_1
                        {
                            return Err(Fail(
                                format!(
                                    "enum case 'high' of attribute '{n}' requires bytecode version 250.1+, targeting {}",
                                    self.version
                                ),
                                Some(op),
                            ));
                        }
                        put_varint(out, *v as u64);
                    }
                }
                Field::OptHints(n) => {
                    if let Some(h) = attr(n) {
                        self.hints_untagged(h, out, Some(op))?;
                    }
                }
                Field::Int(n) => {
                    let v = attr(n).and_then(|a| m.ctx.attrs.get_int(a)).unwrap_or(0);
                    put_varint(out, v as u64);
                }
                Field::IntSince(n, since) => {
                    let default = match def.attrs.iter().find(|a| a.name == n).map(|a| a.presence) {
                        Some(tilec_ir::ops::Presence::DefaultInt(d)) => d,
                        _ => 0,
                    };
                    let v = attr(n)
                        .and_then(|a| m.ctx.attrs.get_int(a))
                        .unwrap_or(default);
                    if self.version >= since {
                        put_varint(out, v as u64);
                    } else if v != default {
                        return Err(Fail(requires(n, since, false), Some(op)));
                    }
                }
                Field::OptInt(n) => {
                    if let Some(v) = attr(n).and_then(|a| m.ctx.attrs.get_int(a)) {
                        put_varint(out, v as u64);
                    }
                }
                Field::Bool(n) => {
                    let v = matches!(
                        attr(n).map(|a| m.ctx.attrs.get(a)),
                        Some(AttrData::Bool(true))
                    );
                    out.push(v as u8);
                }
                Field::Str(n) => {
                    let s = match attr(n).map(|a| m.ctx.attrs.get(a)) {
                        Some(AttrData::String(s) | AttrData::SymbolRef(s)) => s.to_string(),
                        _ => String::new(),
                    };
                    let i = self.string(&s);
                    put_varint(out, i);
                }
                Field::Array(n) => {
                    let items = match attr(n).map(|a| m.ctx.attrs.get(a).clone()) {
                        Some(AttrData::Array(items)) => items.to_vec(),
                        _ => Vec::new(),
                    };
                    put_varint(out, items.len() as u64);
                    for a in items {
                        self.tagged(a, out, Some(op))?;
                    }
                }
                Field::Tagged(n) => match attr(n) {
                    Some(a) => self.tagged(a, out, Some(op))?,
                    None => {
                        return Err(Fail(
                            "'cuda_tile.assume' without a predicate (the spec's condition form) has no bytecode encoding".into(),
                            Some(op),
                        ));
                    }
                },
                Field::OptTagged(n) => {
                    if let Some(a) = attr(n) {
                        self.tagged(a, out, Some(op))?;
                    }
                }
                Field::Dense(n) => {
                    let Some(AttrData::Dense(d)) = attr(n).map(|a| m.ctx.attrs.get(a).clone())
                    else {
                        return Err(Fail(format!("internal: missing constant '{n}'"), Some(op)));
                    };
                    let c = self.constant(&d, Some(op))?;
                    put_varint(out, c);
                }
                Field::I32Array(n) => {
                    let v: Vec<i64> = match attr(n).map(|a| m.ctx.attrs.get(a)) {
                        Some(AttrData::DenseI32Array(v)) => v.iter().map(|&x| x as i64).collect(),
                        _ => Vec::new(),
                    };
                    put_int_list(out, &v, 4);
                }
                // An optional operand's presence is in the flags: write what the slot holds.
                Field::Operand(n) | Field::OptOperand(n) => {
                    for &v in slot(n)? {
                        self.value(v, op, out)?;
                    }
                }
                Field::Sized(n) => {
                    let vs = slot(n)?.clone();
                    put_varint(out, vs.len() as u64);
                    for v in vs {
                        self.value(v, op, out)?;
                    }
                }
                Field::AllOperands => {
                    put_varint(out, m.num_operands(op) as u64);
                    for v in m.operands(op) {
                        self.value(v, op, out)?;
                    }
                }
            }
        }
        // Values of nested regions are numbered from the op's first result index on and
        // go out of scope after the region; then the results take those indices.
        if !m.regions(op).is_empty() {
            let regions = m.regions(op).to_vec();
            put_varint(out, regions.len() as u64);
            for r in regions {
                let blocks = m.region_blocks(r).to_vec();
                put_varint(out, blocks.len() as u64);
                for b in blocks {
                    self.block(b, out)?;
                }
            }
        }
        if !dropped {
            for r in m.results(op) {
                self.values.insert(r, self.next_value);
                self.next_value += 1;
            }
        }
        self.next_value += phantom as u64;
        Ok(())
    }

    fn block(&mut self, b: Block, out: &mut Vec<u8>) -> W<()> {
        let m = self.m;
        let saved = self.next_value;
        let args = m.block_args(b).to_vec();
        put_varint(out, args.len() as u64);
        for &a in &args {
            let t = self.ty(m.value_type(a), None)?;
            put_varint(out, t);
            self.values.insert(a, self.next_value);
            self.next_value += 1;
        }
        let ops: Vec<Op> = m.block_ops(b).collect();
        put_varint(out, ops.len() as u64);
        for op in ops {
            self.op(op, out)?;
        }
        self.next_value = saved;
        Ok(())
    }

    fn value(&mut self, v: Value, op: Op, out: &mut Vec<u8>) -> W<()> {
        match self.values.get(&v) {
            Some(&i) => {
                put_varint(out, i);
                Ok(())
            }
            None => Err(Fail(
                "operand is not defined before its use".into(),
                Some(op),
            )),
        }
    }
}

/// Appends a section: id (with the alignment flag), length, alignment and padding, data.
fn section(out: &mut Vec<u8>, id: Section, data: &[u8], align: usize) {
    out.push(id as u8 | if align > 1 { 0x80 } else { 0 });
    put_varint(out, data.len() as u64);
    if align > 1 {
        put_varint(out, align as u64);
        pad(out, 0, align);
    }
    out.extend_from_slice(data);
}

/// A table: count, padding to `width` (counted from `base`, the table's offset in its
/// aligned section), one offset per item, the items.
fn table_body(items: &[Vec<u8>], width: usize, base: usize) -> Vec<u8> {
    let mut out = Vec::new();
    put_varint(&mut out, items.len() as u64);
    pad(&mut out, base, width);
    let mut off = 0u64;
    for it in items {
        out.extend_from_slice(&off.to_le_bytes()[..width]);
        off += it.len() as u64;
    }
    for it in items {
        out.extend_from_slice(it);
    }
    out
}

fn int_width(m: &Module, t: Type) -> u32 {
    match m.ctx.types.get(t) {
        TypeData::Int(w) => *w,
        _ => 64,
    }
}

fn float_width(m: &Module, t: Type) -> u32 {
    match m.ctx.types.get(t) {
        TypeData::Float(k) => k.bit_width(),
        _ => 64,
    }
}

fn zext(v: i64, w: u32) -> u64 {
    if w >= 64 {
        v as u64
    } else {
        (v as u64) & ((1u64 << w) - 1)
    }
}

/// An APInt as NVIDIA's format writes it: a byte up to 8 bits, else a zigzag varint.
pub(crate) fn put_apint(out: &mut Vec<u8>, bits: u64, width: u32) {
    if width <= 8 {
        out.push(bits as u8);
    } else {
        put_svarint(out, bits as i64);
    }
}

/// Bytes per element of a dense constant's element type (`None`: not a number type).
pub(crate) fn elem_bytes(m: &Module, elem: Type) -> Option<usize> {
    match m.ctx.types.get(elem) {
        TypeData::Int(w) => Some((*w as usize).div_ceil(8)),
        TypeData::Float(k) => Some((k.bit_width() as usize).div_ceil(8)),
        _ => None,
    }
}

/// The raw little-endian buffer of a dense constant (one element for a splat). `i1`
/// follows MLIR's dense encoding, which NVIDIA's readers take: a splat is one byte, 0x00
/// or 0xFF; other constants are bit-packed, eight elements a byte, the first in the low
/// bit (one byte per element is refused: "payload size 4 is not a recognized encoding").
fn dense_raw(m: &Module, d: &DenseElements) -> Option<Vec<u8>> {
    let elem = m.ctx.types.element_type(d.ty);
    if matches!(m.ctx.types.get(elem), TypeData::Int(1)) {
        if d.values.len() == 1 {
            return Some(vec![if d.values[0] & 1 == 1 { 0xFF } else { 0 }]);
        }
        let mut out = vec![0u8; d.values.len().div_ceil(8)];
        for (i, v) in d.values.iter().enumerate() {
            out[i / 8] |= ((v & 1) as u8) << (i % 8);
        }
        return Some(out);
    }
    let n = elem_bytes(m, elem)?;
    let mut out = Vec::with_capacity(d.values.len() * n);
    for v in d.values.iter() {
        out.extend_from_slice(&v.to_le_bytes()[..n]);
    }
    Some(out)
}

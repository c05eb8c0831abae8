//! The reader: bytecode to a module. Every failure is an error at a byte offset.

use crate::enc::{Cursor, Error, Res, count_of};
use crate::schema::{self, Bit, Field};
use crate::{Section, Version, attr_tag, dbg_tag, type_tag};
use std::collections::HashMap;
use tilec_diag::{Diagnostic, FileId, Location, Span, codes};
use tilec_ir::attrs::{AttrData, dense};
use tilec_ir::builder::Builder;
use tilec_ir::float::FloatKind;
use tilec_ir::ops::{Arity, AttrKind, Presence};
use tilec_ir::types::{DYNAMIC, TypeData};
use tilec_ir::{Attr, Block, InsertPoint, Module, Op, Opcode, Type, Value};

/// Deepest nesting of attributes, types or regions the reader follows.
const MAX_DEPTH: usize = 64;

/// Reads a bytecode file. Ops get the byte offset of their encoding as their span in
/// `file`, so later diagnostics point into the binary.
pub fn read(bytes: &[u8], file: FileId) -> Result<Module, Diagnostic> {
    read_with(bytes, file, ReadOptions::default())
}

/// How [`read_with`] reads.
#[derive(Copy, Clone, Debug, Default)]
pub struct ReadOptions {
    /// Read as NVIDIA's 13.3 reader does (`cuda-tile-translate`, `cuda-tile-opt`): its
    /// wording for the errors it also reports, and 13.1's `print` read as `print_tko` with
    /// a token result.
    pub nvidia: bool,
}

/// [`read`] with options.
pub fn read_with(bytes: &[u8], file: FileId, opts: ReadOptions) -> Result<Module, Diagnostic> {
    let mut r = Reader {
        nvidia: opts.nvidia,
        m: Module::new(),
        strings: Vec::new(),
        types: Vec::new(),
        type_cache: HashMap::new(),
        constants: Vec::new(),
        debug: Debug::default(),
        version: Version::V13_1,
        values: Vec::new(),
        depth: 0,
    };
    r.m.set_file(Some(file));
    match r.run(bytes) {
        Ok(()) => Ok(r.m),
        Err(e) => {
            let at = e.offset as u32;
            Err(Diagnostic::error(codes::BYTECODE_READ, e.message)
                .at(Location::new(file, Span::new(at, at + 1))))
        }
    }
}

#[derive(Default)]
struct Debug<'a> {
    /// Per function: the range of its entries in `indices`.
    per_fn: Vec<(usize, usize)>,
    indices: Vec<u64>,
    /// Attribute table entries (id 1 is the first).
    items: Vec<Cursor<'a>>,
    /// Resolved entries (`None`: the unknown location).
    cache: HashMap<u64, Option<Attr>>,
    /// Entries being resolved (a reference back to one is a cycle).
    busy: std::collections::HashSet<u64>,
}

struct Reader<'a> {
    /// NVIDIA's wording for the errors its reader shares.
    nvidia: bool,
    m: Module,
    /// The string table; an entry that is out of range or not UTF-8 is an error only when
    /// something uses it, as in NVIDIA's reader.
    strings: Vec<Res<(usize, &'a str)>>,
    /// Type table entries.
    types: Vec<Cursor<'a>>,
    type_cache: HashMap<u64, Option<Type>>,
    constants: Vec<Cursor<'a>>,
    debug: Debug<'a>,
    version: Version,
    /// Values in scope, by bytecode index.
    values: Vec<Value>,
    depth: usize,
}

/// Splits a table section: count, padding, `width`-byte offsets, data.
fn table<'a>(c: &mut Cursor<'a>, width: usize, what: &str) -> Res<Vec<Cursor<'a>>> {
    table_entries(c, width, what)?.into_iter().collect()
}

/// [`table`], with each entry's range checked separately.
fn table_entries<'a>(c: &mut Cursor<'a>, width: usize, what: &str) -> Res<Vec<Res<Cursor<'a>>>> {
    let n = c.count(width, &format!("number of {what}"))?;
    c.align(width, &format!("{what} table padding"))?;
    let mut offs = Vec::with_capacity(n);
    for _ in 0..n {
        let at = c.offset();
        let o = if width == 4 {
            c.u32(&format!("{what} offset"))? as u64
        } else {
            c.u64(&format!("{what} offset"))?
        };
        offs.push((at, o));
    }
    let data_start = c.pos();
    let data_len = c.remaining();
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let (at, o) = offs[i];
        let end = offs.get(i + 1).map_or(data_len as u64, |x| x.1);
        if o > end || end > data_len as u64 {
            out.push(Err(Error {
                offset: at,
                message: format!(
                    "{what} {i}: offset {o} is out of range (the data is {data_len} bytes)"
                ),
            }));
            continue;
        }
        out.push(
            c.slice(data_start + o as usize, data_start + end as usize)
                .ok_or_else(|| c.error("internal: bad slice")),
        );
    }
    Ok(out)
}

impl<'a> Reader<'a> {
    fn run(&mut self, bytes: &'a [u8]) -> Res<()> {
        let mut c = Cursor::new(bytes, 0);
        let magic = c.bytes(8.min(bytes.len()), "the magic number")?;
        if magic != crate::MAGIC {
            return Err(Error {
                offset: 0,
                message: "not a Tile IR bytecode file (wrong magic number)".into(),
            });
        }
        let at = c.offset();
        let major = c.byte("the version")?;
        let minor = c.byte("the version")?;
        let tb = c.bytes(2, "the version tag")?;
        let version = Version {
            major,
            minor,
            tag: u16::from_le_bytes([tb[0], tb[1]]),
        };
        if !version.is_supported() {
            let message = if self.nvidia {
                format!(
                    "unsupported Tile version {}.{}.{}, this reader supports versions [13.1 - 13.3]",
                    version.major, version.minor, version.tag
                )
            } else {
                format!("unsupported bytecode version {version} (tilec reads 13.1 to 13.3)")
            };
            return Err(Error {
                offset: at,
                message,
            });
        }
        self.version = version;

        let mut sections: [Option<Cursor<'a>>; 8] = [None; 8];
        loop {
            let at = c.offset();
            let id_byte = c.byte("a section header")?;
            let id = id_byte & 0x7f;
            if id == Section::End as u8 {
                if !c.at_end() {
                    if self.nvidia {
                        return Err(Error {
                            offset: at,
                            message: "end section is not the last section".into(),
                        });
                    }
                    return c.err(format!(
                        "{} after the end-of-bytecode marker",
                        count_of(c.remaining() as u64, "byte")
                    ));
                }
                break;
            }
            if id as usize >= sections.len() {
                return Err(Error {
                    offset: at,
                    message: if self.nvidia {
                        format!("unknown section ID: {id}")
                    } else {
                        format!("unknown section id {id}")
                    },
                });
            }
            let len_at = c.offset();
            let len = c.varint("a section length")?;
            if id_byte & 0x80 != 0 {
                let align = c.varint("a section alignment")?;
                if align == 0 || !align.is_power_of_two() || align > 4096 {
                    return c.err(format!("invalid section alignment {align}"));
                }
                c.align(align as usize, "section padding")?;
            }
            if len > c.remaining() as u64 {
                return Err(Error {
                    offset: len_at,
                    message: format!(
                        "section {id} is {} long but only {} {}",
                        count_of(len, "byte"),
                        count_of(c.remaining() as u64, "byte"),
                        if c.remaining() == 1 {
                            "remains"
                        } else {
                            "remain"
                        }
                    ),
                });
            }
            if sections[id as usize].is_some() {
                return Err(Error {
                    offset: at,
                    message: format!("section {id} appears twice"),
                });
            }
            sections[id as usize] = Some(c.sub(len as usize, "a section")?);
        }

        let Some(mut s) = sections[Section::String as usize] else {
            return c.err("the string section is missing");
        };
        for (i, item) in table_entries(&mut s, 4, "strings")?.into_iter().enumerate() {
            let entry = item.and_then(|item| {
                let text = std::str::from_utf8(item.data()).map_err(|_| Error {
                    offset: item.offset(),
                    message: format!("string {i} is not valid UTF-8"),
                })?;
                Ok((item.offset(), text))
            });
            self.strings.push(entry);
        }
        if let Some(mut s) = sections[Section::Type as usize] {
            self.types = table(&mut s, 4, "types")?;
        }
        if let Some(mut s) = sections[Section::Constant as usize] {
            self.constants = table(&mut s, 8, "constants")?;
        }
        if let Some(mut s) = sections[Section::Debug as usize] {
            self.debug_section(&mut s)?;
        }
        let producer = match sections[Section::Producer as usize] {
            Some(mut s) => Some(self.string(&mut s, "the producer")?),
            None => None,
        };
        let (module, body) = Builder::new(&mut self.m).module("kernels");
        if let Some(p) = producer {
            let a = self.m.ctx.attrs.string(p);
            self.m.set_attr(module, 1, Some(a));
        }
        if let Some(mut s) = sections[Section::Global as usize] {
            self.globals(&mut s, body)?;
        }
        let Some(mut s) = sections[Section::Func as usize] else {
            return c.err("the function section is missing");
        };
        let n = s.count(4, "number of functions")?;
        for _ in 0..n {
            self.function(&mut s, body)?;
        }
        Ok(())
    }

    /// A type that a file of an older version cannot hold (NVIDIA's wording).
    fn type_since(&self, at: &Cursor<'a>, name: &str, v: Version) -> Res<()> {
        if self.version < v {
            return at.err(format!(
                "type '{name}' requires bytecode version {v}+, file version is {}",
                self.version
            ));
        }
        Ok(())
    }

    fn string(&mut self, c: &mut Cursor<'a>, what: &str) -> Res<&'a str> {
        let at = *c;
        let i = c.varint(what)?;
        match self.strings.get(i as usize) {
            Some(Ok((_, s))) => Ok(s),
            Some(Err(e)) => Err(e.clone()),
            None => at.err(format!(
                "{what}: string index {i} is out of range ({})",
                count_of(self.strings.len() as u64, "string")
            )),
        }
    }

    fn ty(&mut self, c: &mut Cursor<'a>, what: &str) -> Res<Type> {
        let at = *c;
        let i = c.varint(what)?;
        self.type_at(i, &at, what)
    }

    fn type_at(&mut self, i: u64, at: &Cursor<'a>, what: &str) -> Res<Type> {
        match self.type_cache.get(&i) {
            Some(Some(t)) => return Ok(*t),
            Some(None) => return at.err(format!("{what}: type {i} refers to itself")),
            None => {}
        }
        let Some(&item) = self.types.get(i as usize) else {
            return at.err(format!(
                "{what}: type index {i} is out of range ({})",
                count_of(self.types.len() as u64, "type")
            ));
        };
        if self.depth > MAX_DEPTH {
            return at.err(format!("{what}: types nest too deeply"));
        }
        self.type_cache.insert(i, None);
        self.depth += 1;
        let t = self.parse_type(item);
        self.depth -= 1;
        let t = t?;
        self.type_cache.insert(i, Some(t));
        Ok(t)
    }

    fn parse_type(&mut self, mut c: Cursor<'a>) -> Res<Type> {
        let at = c;
        let tag = c.varint("a type tag")?;
        let data = match tag as u8 {
            _ if tag > u8::MAX as u64 => return at.err(format!("unknown type tag {tag}")),
            type_tag::I1 => TypeData::Int(1),
            type_tag::I8 => TypeData::Int(8),
            type_tag::I16 => TypeData::Int(16),
            type_tag::I32 => TypeData::Int(32),
            type_tag::I64 => TypeData::Int(64),
            type_tag::F16 => TypeData::Float(FloatKind::F16),
            type_tag::BF16 => TypeData::Float(FloatKind::BF16),
            type_tag::F32 => TypeData::Float(FloatKind::F32),
            type_tag::TF32 => TypeData::Float(FloatKind::TF32),
            type_tag::F64 => TypeData::Float(FloatKind::F64),
            type_tag::F8E4M3FN => TypeData::Float(FloatKind::F8E4M3FN),
            type_tag::F8E5M2 => TypeData::Float(FloatKind::F8E5M2),
            type_tag::TOKEN => TypeData::Token,
            type_tag::PTR => TypeData::Ptr(self.ty(&mut c, "the pointee type")?),
            type_tag::TILE => {
                let elem = self.ty(&mut c, "the element type")?;
                let shape = c.int_list(8, "the tile shape")?;
                TypeData::Tile {
                    shape: shape.into(),
                    elem,
                    encoding: None,
                }
            }
            type_tag::TENSOR_VIEW => {
                let elem = self.ty(&mut c, "the element type")?;
                let shape = c.int_list(8, "the tensor view shape")?;
                let strides = c.int_list(8, "the tensor view strides")?;
                TypeData::TensorView {
                    elem,
                    shape: shape.into(),
                    strides: strides.into(),
                }
            }
            type_tag::PARTITION_VIEW => {
                let unified = self.version >= Version::V13_3;
                let mut flags = 0;
                if unified {
                    flags = c.varint("the partition view flags")?;
                }
                let tile = c.int_list(4, "the partition tile shape")?;
                let tensor_view = self.ty(&mut c, "the partitioned tensor view")?;
                let dims = c.int_list(4, "the partition dim_map")?;
                if !unified {
                    flags = c.varint("the padding flag")?;
                }
                let padding = padding_value(&mut c, flags)?;
                TypeData::PartitionView {
                    tile: tile.into(),
                    padding,
                    tensor_view,
                    dim_map: dims.iter().map(|&d| d as i32).collect(),
                }
            }
            type_tag::STRIDED_VIEW | type_tag::GATHER_SCATTER_VIEW => {
                let strided = tag as u8 == type_tag::STRIDED_VIEW;
                let name = if strided {
                    "StridedViewType"
                } else {
                    "GatherScatterViewType"
                };
                self.type_since(&at, name, Version::V13_3)?;
                let flags = c.varint("the view flags")?;
                let tile = c.int_list(4, "the view tile shape")?;
                let traversal = if strided {
                    c.int_list(4, "the traversal strides")?
                } else {
                    Vec::new()
                };
                let tensor_view = self.ty(&mut c, "the viewed tensor view")?;
                let (dims, sparse_dim) = if strided {
                    (c.int_list(4, "the view dim_map")?, 0)
                } else {
                    let s_at = c;
                    let s = c.varint("the sparse dimension")?;
                    let s = u32::try_from(s).or_else(|_| {
                        s_at.err(format!("sparse_dim value {s} exceeds uint32_t range"))
                    })?;
                    (Vec::new(), s)
                };
                let padding = padding_value(&mut c, flags)?;
                if strided {
                    TypeData::StridedView {
                        tile: tile.into(),
                        traversal_strides: traversal.into(),
                        padding,
                        tensor_view,
                        dim_map: dims.iter().map(|&d| d as i32).collect(),
                    }
                } else {
                    TypeData::GatherScatterView {
                        tile: tile.into(),
                        padding,
                        tensor_view,
                        sparse_dim,
                    }
                }
            }
            type_tag::FUNCTION => {
                let n = c.count(1, "number of parameters")?;
                let mut inputs = Vec::with_capacity(n);
                for _ in 0..n {
                    inputs.push(self.ty(&mut c, "a parameter type")?);
                }
                let n = c.count(1, "number of results")?;
                let mut results = Vec::with_capacity(n);
                for _ in 0..n {
                    results.push(self.ty(&mut c, "a result type")?);
                }
                TypeData::Function {
                    inputs: inputs.into(),
                    results: results.into(),
                }
            }
            type_tag::TEST_EVOLVED => {
                self.type_since(&at, "BytecodeTestEvolvedType", Version::V250_0)?;
                let base = self.ty(&mut c, "the base type")?;
                let (mut new, mut attr, mut optional) = (None, None, None);
                if self.version >= Version::V250_1 {
                    let f = c.varint("the type parameter flags")?;
                    if f & 1 != 0 {
                        new = Some(self.ty(&mut c, "the new type")?);
                    }
                    if f & 2 != 0 {
                        attr = padding_value(&mut c, 1)?;
                    }
                    if f & 4 != 0 {
                        optional = Some(self.ty(&mut c, "the optional type")?);
                    }
                }
                TypeData::TestEvolved {
                    base,
                    new,
                    attr,
                    optional,
                }
            }
            type_tag::F8E8M0FNU => {
                self.type_since(&at, "Float8E8M0FNU", Version::V13_2)?;
                TypeData::Float(FloatKind::F8E8M0FNU)
            }
            type_tag::F4E2M1FN => {
                self.type_since(&at, "Float4E2M1FN", Version::V13_3)?;
                TypeData::Float(FloatKind::F4E2M1FN)
            }
            type_tag::I4 => {
                self.type_since(&at, "Int4", Version::V13_3)?;
                TypeData::Int(4)
            }
            t => return at.err(format!("unknown type tag {t}")),
        };
        if !c.at_end() {
            return c.err(format!("{} unexpected bytes after a type", c.remaining()));
        }
        if let Err(msg) = self.check_type(&data) {
            return at.err(msg);
        }
        Ok(self.m.ctx.types.intern(data))
    }

    /// The invariants the text parser enforces when it builds a type: a type that could not
    /// be written as text is an error here too.
    fn check_type(&self, data: &TypeData) -> Result<(), String> {
        let types = &self.m.ctx.types;
        use tilec_ir::ops::Elems;
        let number = |t: Type| Elems::of(types.get(t)).is_some_and(|e| Elems::NUMBERS.contains(e));
        let tile_shape = |shape: &[i64]| match tilec_ir::types::tile_shape_error(shape) {
            Some(msg) => Err(msg),
            None => Ok(()),
        };
        match data {
            TypeData::Ptr(p) if !number(*p) => Err("the pointee type is not a number type".into()),
            TypeData::TestEvolved { base, .. } if !number(*base) => {
                Err("the base type of 'testing$bytecode_test_evolved' is not a number type".into())
            }
            TypeData::Tile { shape, elem, .. } => {
                if !Elems::of(types.get(*elem)).is_some_and(|e| Elems::ALL.contains(e)) {
                    return Err("the tile element type is not a number or pointer type".into());
                }
                if let Some(msg) = tilec_ir::types::tile_element_error(shape, types.get(*elem)) {
                    return Err(msg.into());
                }
                tile_shape(shape)
            }
            TypeData::TensorView {
                elem,
                shape,
                strides,
            } => {
                if !number(*elem) {
                    return Err("the tensor view element type is not a number type".into());
                }
                if shape.len() != strides.len() {
                    return Err(format!(
                        "tensor view shape of rank {} and strides of rank {}",
                        shape.len(),
                        strides.len()
                    ));
                }
                if shape
                    .iter()
                    .chain(strides.iter())
                    .any(|&d| d <= 0 && d != DYNAMIC)
                {
                    return Err(format!(
                        "tensor view sizes and strides must be positive, got {shape:?} and {strides:?}"
                    ));
                }
                Ok(())
            }
            TypeData::PartitionView {
                tile,
                padding,
                tensor_view,
                dim_map,
            } => {
                let TypeData::TensorView {
                    shape: tv_shape,
                    elem: tv_elem,
                    ..
                } = types.get(*tensor_view)
                else {
                    return Err("a partition view of a type that is not a tensor view".into());
                };
                if tile.is_empty() || tile.len() != tv_shape.len() || dim_map.len() != tile.len() {
                    return Err(format!(
                        "partition view of rank {} with a tensor view of rank {} and {} dim_map entries",
                        tile.len(),
                        tv_shape.len(),
                        dim_map.len()
                    ));
                }
                if tile.iter().any(|&d| d > i32::MAX as i64) {
                    return Err(format!("partition tile dimensions exceed i32: {tile:?}"));
                }
                tile_shape(tile)?;
                let mut used = vec![false; tile.len()];
                for &d in dim_map.iter() {
                    match usize::try_from(d).ok().and_then(|d| used.get_mut(d)) {
                        Some(u) if !*u => *u = true,
                        _ => return Err(format!("invalid partition view dim_map {dim_map:?}")),
                    }
                }
                if padding.is_some_and(|p| p != tilec_ir::attrs::PaddingValue::Zero)
                    && !matches!(types.get(*tv_elem), TypeData::Float(_))
                {
                    return Err("a non-zero padding value for an integer tensor view".into());
                }
                Ok(())
            }
            TypeData::StridedView {
                tile,
                traversal_strides,
                padding,
                tensor_view,
                dim_map,
            } => {
                self.check_type(&TypeData::PartitionView {
                    tile: tile.clone(),
                    padding: *padding,
                    tensor_view: *tensor_view,
                    dim_map: dim_map.clone(),
                })?;
                if traversal_strides.len() != tile.len()
                    || traversal_strides.iter().any(|&s| s <= 0)
                {
                    return Err(format!(
                        "invalid strided view traversal strides {traversal_strides:?} for a tile of rank {}",
                        tile.len()
                    ));
                }
                Ok(())
            }
            TypeData::GatherScatterView {
                tile,
                padding,
                tensor_view,
                sparse_dim,
            } => {
                let identity: Box<[i32]> = (0..tile.len() as i32).collect();
                self.check_type(&TypeData::PartitionView {
                    tile: tile.clone(),
                    padding: *padding,
                    tensor_view: *tensor_view,
                    dim_map: identity,
                })?;
                if *sparse_dim as usize >= tile.len() {
                    return Err(format!(
                        "gather/scatter view sparse_dim {sparse_dim} for a tile of rank {}",
                        tile.len()
                    ));
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn constant(&mut self, c: &mut Cursor<'a>, ty: Type) -> Res<Attr> {
        let at = *c;
        let i = c.varint("a constant index")?;
        let Some(&item) = self.constants.get(i as usize) else {
            return at.err(format!(
                "constant index {i} is out of range ({})",
                count_of(self.constants.len() as u64, "constant")
            ));
        };
        self.dense(item, ty)
    }

    fn dense(&mut self, mut item: Cursor<'a>, ty: Type) -> Res<Attr> {
        let at = item;
        let n = item.count(1, "the constant size")?;
        let raw = item.bytes(n, "the constant data")?;
        let types = &self.m.ctx.types;
        if !matches!(types.get(ty), TypeData::Tile { .. }) {
            return at.err(format!(
                "a constant of type '{}' (constants are tiles)",
                types.to_string(ty, false)
            ));
        }
        let elem = types.element_type(ty);
        let width = match types.get(elem) {
            TypeData::Int(w) => *w as usize,
            TypeData::Float(k) => k.bit_width() as usize,
            _ => return at.err("a constant whose element type is not a number"),
        };
        let eb = width.div_ceil(8);
        let count: u64 = types.shape(ty).iter().map(|&d| d.max(0) as u64).product();
        let mask = if width >= 64 {
            u64::MAX
        } else {
            (1u64 << width) - 1
        };
        // i1 as MLIR stores it: a splat is one byte 0x00 or 0xFF, anything else is
        // bit-packed (the first element in the low bit); one byte per element is taken too.
        let i1_splat =
            width == 1 && raw.len() == 1 && (raw[0] == 0 || raw[0] == 0xFF || count == 1);
        let values: Vec<u64> = if i1_splat {
            vec![u64::from(raw[0] != 0)]
        } else if width == 1 && raw.len() as u64 == count.div_ceil(8) {
            (0..count as usize)
                .map(|i| ((raw[i / 8] >> (i % 8)) & 1) as u64)
                .collect()
        } else if raw.len() == eb {
            vec![le(raw) & mask]
        } else if raw.len() as u64 == count.saturating_mul(eb as u64) {
            raw.chunks(eb).map(|b| le(b) & mask).collect()
        } else {
            return at.err(format!(
                "constant data is {} bytes, but type '{}' needs {} (or {eb} for a splat)",
                raw.len(),
                types.to_string(ty, false),
                count.saturating_mul(eb as u64)
            ));
        };
        Ok(self.m.ctx.attrs.intern(dense(ty, values)))
    }

    fn debug_section(&mut self, c: &mut Cursor<'a>) -> Res<()> {
        let n = c.count(4, "number of functions with debug info")?;
        c.align(4, "debug info padding")?;
        let mut starts = Vec::with_capacity(n);
        for _ in 0..n {
            starts.push(c.u32("a debug info offset")? as usize);
        }
        let total = c.count(8, "number of debug info indices")?;
        c.align(8, "debug info padding")?;
        for _ in 0..total {
            self.debug.indices.push(c.u64("a debug info index")?);
        }
        for (i, &s) in starts.iter().enumerate() {
            let e = starts.get(i + 1).copied().unwrap_or(total);
            if s > e || e > total {
                return c.err(format!(
                    "debug info offset {s} of function {i} is out of range"
                ));
            }
            self.debug.per_fn.push((s, e));
        }
        self.debug.items = table(c, 4, "debug info attributes")?;
        Ok(())
    }

    /// The location with debug table id `i` (0: unknown, `None`).
    fn debug_attr(&mut self, i: u64, at: &Cursor<'a>) -> Res<Option<Attr>> {
        if i == 0 {
            return Ok(None);
        }
        if let Some(a) = self.debug.cache.get(&i) {
            return Ok(*a);
        }
        if self.debug.busy.contains(&i) {
            return at.err(format!("debug info attribute {i} refers to itself"));
        }
        let Some(&item) = self.debug.items.get(i as usize - 1) else {
            return at.err(format!(
                "debug info index {i} is out of range ({})",
                count_of(self.debug.items.len() as u64, "attribute")
            ));
        };
        if self.depth > MAX_DEPTH {
            return at.err("debug info nests too deeply");
        }
        self.debug.busy.insert(i);
        self.depth += 1;
        let a = self.parse_debug(item);
        self.depth -= 1;
        self.debug.busy.remove(&i);
        let a = a?;
        self.debug.cache.insert(i, a);
        Ok(a)
    }

    fn dbg_ref(&mut self, c: &mut Cursor<'a>, what: &str) -> Res<Option<Attr>> {
        let at = *c;
        let i = c.varint(what)?;
        self.debug_attr(i, &at)
    }

    fn parse_debug(&mut self, mut c: Cursor<'a>) -> Res<Option<Attr>> {
        let at = c;
        let tag = c.varint("a debug info tag")?;
        let need =
            |a: Option<Attr>, what: &str| a.ok_or_else(|| at.error(format!("{what} is missing")));
        let data = match tag {
            t if t == dbg_tag::UNKNOWN as u64 => return Ok(None),
            t if t == dbg_tag::DI_FILE as u64 => {
                let name = self.string(&mut c, "the file name")?.into();
                let directory = self.string(&mut c, "the directory")?.into();
                AttrData::DiFile { name, directory }
            }
            t if t == dbg_tag::DI_COMPILE_UNIT as u64 => {
                let f = self.dbg_ref(&mut c, "the compile unit's file")?;
                AttrData::DiStruct {
                    mnemonic: "di_compile_unit".into(),
                    fields: vec![("file".into(), need(f, "the compile unit's file")?)].into(),
                }
            }
            t if t == dbg_tag::DI_LEXICAL_BLOCK as u64 => {
                let s = self.dbg_ref(&mut c, "the block's scope")?;
                let f = self.dbg_ref(&mut c, "the block's file")?;
                let line = c.varint("the line")?;
                let col = c.varint("the column")?;
                // Untyped, as the text form writes them (`line = 8`).
                let untyped = |v: u64| AttrData::Int {
                    value: v as i64,
                    ty: None,
                };
                let line = self.m.ctx.attrs.intern(untyped(line));
                let col = self.m.ctx.attrs.intern(untyped(col));
                AttrData::DiStruct {
                    mnemonic: "di_lexical_block".into(),
                    fields: vec![
                        ("scope".into(), need(s, "the block's scope")?),
                        ("file".into(), need(f, "the block's file")?),
                        ("line".into(), line),
                        ("column".into(), col),
                    ]
                    .into(),
                }
            }
            t if t == dbg_tag::DI_SUBPROGRAM as u64 => {
                let f = self.dbg_ref(&mut c, "the subprogram's file")?;
                let line = c.varint("the line")?;
                let name = self.string(&mut c, "the subprogram name")?;
                let link = self.string(&mut c, "the linkage name")?;
                let cu = self.dbg_ref(&mut c, "the compile unit")?;
                let sl = c.varint("the scope line")?;
                let attrs = &mut self.m.ctx.attrs;
                let line = attrs.intern(AttrData::Int {
                    value: line as i64,
                    ty: None,
                });
                let sl = attrs.intern(AttrData::Int {
                    value: sl as i64,
                    ty: None,
                });
                let fields = vec![
                    ("file".into(), need(f, "the subprogram's file")?),
                    ("line".into(), line),
                    ("name".into(), attrs.string(name)),
                    ("linkageName".into(), attrs.string(link)),
                    ("compileUnit".into(), need(cu, "the compile unit")?),
                    ("scopeLine".into(), sl),
                ];
                AttrData::DiStruct {
                    mnemonic: "di_subprogram".into(),
                    fields: fields.into(),
                }
            }
            t if t == dbg_tag::DI_LOC as u64 => {
                let scope = self.dbg_ref(&mut c, "the location's scope")?;
                let file = self.string(&mut c, "the file name")?.into();
                let line = c.varint("the line")?;
                let col = c.varint("the column")?;
                let loc = self.m.ctx.attrs.intern(AttrData::LocFile {
                    file,
                    line: line as u32,
                    col: col as u32,
                });
                AttrData::DiLoc {
                    loc,
                    scope: need(scope, "the location's scope")?,
                }
            }
            t if t == dbg_tag::CALL_SITE as u64 => {
                let callee = self.dbg_ref(&mut c, "the callee")?;
                let caller = self.dbg_ref(&mut c, "the caller")?;
                let unknown = Attr::UNKNOWN_LOC;
                AttrData::LocCallSite {
                    callee: callee.unwrap_or(unknown),
                    caller: caller.unwrap_or(unknown),
                }
            }
            t => return at.err(format!("unknown debug info tag {t}")),
        };
        Ok(Some(self.m.ctx.attrs.intern(data)))
    }

    fn globals(&mut self, c: &mut Cursor<'a>, body: Block) -> Res<()> {
        let n = c.count(4, "number of globals")?;
        for _ in 0..n {
            let at = c.offset();
            let name = self.string(c, "the global's name")?.to_string();
            let ty = self.ty(c, "the global's type")?;
            let value = self.constant(c, ty)?;
            let align = c.varint("the global's alignment")?;
            let (mut private, mut constant) = (false, false);
            if self.version >= Version::V13_3 {
                let vis_at = *c;
                let vis = c.varint("the global's visibility")?;
                if vis > 1 {
                    return vis_at.err(format!("invalid symbol visibility {vis}"));
                }
                private = vis == 1;
                let k_at = *c;
                let k = c.varint("the global's constant flag")?;
                if k > 1 {
                    return k_at.err(format!("invalid constant flag {k}"));
                }
                constant = k == 1;
            }
            let sym = self.m.ctx.attrs.string(&name);
            let align = (align != 0).then(|| self.m.ctx.attrs.int(align as i64, Type::I64));
            let constant = constant.then_some(Attr::UNIT);
            let vis = private.then(|| {
                self.m.ctx.attrs.intern(AttrData::Enum(
                    tilec_ir::attrs::EnumKind::SymbolVisibility,
                    1,
                ))
            });
            let op = self.m.create_op(
                &tilec_ir::OpSpec {
                    opcode: Opcode::Global,
                    operands: &[],
                    results: &[],
                    attrs: &[Some(sym), Some(value), align, constant, vis],
                    regions: 0,
                },
                InsertPoint::End(body),
            );
            self.m.set_op_span(op, Some(span(at)));
        }
        Ok(())
    }

    fn function(&mut self, c: &mut Cursor<'a>, body: Block) -> Res<()> {
        let at = c.offset();
        // The name is looked up after the header is read, as NVIDIA's reader does (which
        // decides which error a damaged file reports first).
        let mut name_at = *c;
        c.varint("the function name")?;
        let sig_at = *c;
        let sig = self.ty(c, "the function signature")?;
        let TypeData::Function { inputs, results } = self.m.ctx.types.get(sig).clone() else {
            return sig_at.err("the function signature is not a function type");
        };
        let flags_at = *c;
        let flags = c.byte("the function flags")?;
        if flags & !0x07 != 0 {
            return flags_at.err(format!("unknown function flags {flags:#x}"));
        }
        // Bit 1: a kernel (`entry`); without it, a device function, which tilec reads as
        // NVIDIA's test function `testing$func`.
        let opcode = if flags & 0x02 != 0 {
            Opcode::Entry
        } else {
            Opcode::TestingFunc
        };
        let loc_at = *c;
        let loc_index = c.varint("the function location index")?;
        let hints = if flags & 0x04 != 0 {
            Some(self.tagged(c, "the function's optimization hints")?)
        } else {
            None
        };
        let name = self.string(&mut name_at, "the function name")?.to_string();
        if opcode == Opcode::Entry && !results.is_empty() {
            return sig_at.err(format!("entry '{name}' has results"));
        }
        let len = c.count(1, "the function body length")?;
        let mut b = c.sub(len, "the function body")?;

        // The debug entries of this function: its own location, then one per op.
        let dbg: Vec<u64> = if loc_index == 0 {
            Vec::new()
        } else {
            match self.debug.per_fn.get(loc_index as usize - 1) {
                Some(&(s, e)) => self.debug.indices[s..e].to_vec(),
                None => {
                    return loc_at.err(format!(
                        "function location index {loc_index} is out of range ({} functions have debug info)",
                        self.debug.per_fn.len()
                    ));
                }
            }
        };
        let mut dbg = dbg.into_iter();

        let mut builder = Builder::new(&mut self.m);
        builder.set_end_of(body);
        let (op, block, args) = builder.function(opcode, &name, &inputs, &results);
        self.m.set_op_span(op, Some(span(at)));
        if let Some(h) = hints {
            let i = self.m.def(op).attr_index("optimization_hints").unwrap_or(0);
            let h = match self.m.ctx.attrs.get(h) {
                AttrData::OptHints(_) => h,
                _ => return loc_at.err("the function's hints are not optimization hints"),
            };
            self.m.set_attr(op, i, Some(h));
        }
        let floc = self.next_loc(&mut dbg, &loc_at)?;
        self.m.set_op_loc(op, floc);
        self.values = args;
        while !b.at_end() {
            self.op(&mut b, block, &mut dbg)?;
        }
        Ok(())
    }

    fn next_loc(
        &mut self,
        dbg: &mut std::vec::IntoIter<u64>,
        at: &Cursor<'a>,
    ) -> Res<Option<Attr>> {
        match dbg.next() {
            Some(i) => self.debug_attr(i, at),
            None => Ok(None),
        }
    }

    fn value(&self, c: &mut Cursor<'a>) -> Res<Value> {
        let at = *c;
        let i = c.varint("an operand")?;
        self.values.get(i as usize).copied().ok_or_else(|| {
            at.error(format!(
                "operand index {i} is out of range ({} defined here)",
                count_of(self.values.len() as u64, "value")
            ))
        })
    }

    fn op(
        &mut self,
        c: &mut Cursor<'a>,
        block: Block,
        dbg: &mut std::vec::IntoIter<u64>,
    ) -> Res<Op> {
        let at = *c;
        let code = c.varint("an opcode")?;
        let Some(enc) = schema::by_code(code) else {
            return at.err(match schema::unsupported_name(code) {
                Some(n) => format!("'cuda_tile.{n}' (opcode {code:#x}) is not supported inside a function body by tilec"),
                None => format!("unknown opcode {code:#x}"),
            });
        };
        if self.version < enc.since {
            return at.err(format!(
                "opcode {code:#x} is not part of bytecode version {}",
                self.version
            ));
        }
        let def = tilec_ir::ops::def(enc.op);
        let mut results: Vec<Type> = Vec::new();
        let mut slots: Vec<Vec<Value>> = vec![Vec::new(); def.operands.len()];
        let mut attrs: Vec<(&'static str, Attr)> = Vec::new();
        let mut flags: &[Bit] = &[];
        let mut flag_bits = 0u64;
        let flag = |bits: &[Bit], v: u64, name: &str| {
            bits.iter().enumerate().any(|(i, b)| {
                v & (1 << i) != 0 && matches!(b, Bit::Present(n) | Bit::Unit(n) if *n == name)
            })
        };
        let slot_index = |name: &str| def.operands.iter().position(|s| s.name == name);
        for f in enc.fields {
            match *f {
                Field::Results => {
                    for _ in 0..def.results.len() {
                        results.push(self.ty(c, "a result type")?);
                    }
                }
                Field::SizedResults => {
                    let n_at = *c;
                    let n = c.count(1, "number of results")?;
                    let fixed = def.results.iter().filter(|s| s.arity == Arity::One).count();
                    let flexible = def.results.iter().any(|s| s.arity != Arity::One);
                    if n < fixed || (!flexible && n != fixed) {
                        return n_at.err(format!(
                            "'cuda_tile.{}' has {n} results in the bytecode",
                            def.name
                        ));
                    }
                    for _ in 0..n {
                        results.push(self.ty(c, "a result type")?);
                    }
                }
                Field::Flags(bits, since) => {
                    flags = bits;
                    // An op may have several flag words (one per version that added
                    // some): a word older files lack reads as all clear.
                    flag_bits = 0;
                    if self.version >= since {
                        let f_at = *c;
                        flag_bits = c.varint("the op flags")?;
                        if flag_bits >> bits.len() != 0 {
                            return f_at.err(format!(
                                "unknown flags {flag_bits:#x} for 'cuda_tile.{}'",
                                def.name
                            ));
                        }
                    }
                    for (i, b) in bits.iter().enumerate() {
                        if let Bit::Unit(n) = b
                            && flag_bits & (1 << i) != 0
                        {
                            attrs.push((n, Attr::UNIT));
                        }
                    }
                }
                Field::Enum(n) => {
                    let a = self.enum_attr(c, def, n)?;
                    if let Some(a) = a {
                        attrs.push((n, a));
                    }
                }
                Field::EnumSince(n, since) => {
                    if self.version >= since
                        && let Some(a) = self.enum_attr(c, def, n)?
                    {
                        attrs.push((n, a));
                    }
                }
                Field::OptEnum(n) => {
                    if flag(flags, flag_bits, n)
                        && let Some(a) = self.enum_attr(c, def, n)?
                    {
                        attrs.push((n, a));
                    }
                }
                Field::OptHints(n) => {
                    if flag(flags, flag_bits, n) {
                        let d = self.dict(c, "optimization hints")?;
                        let h = self.m.ctx.attrs.intern(AttrData::OptHints(d));
                        attrs.push((n, h));
                    }
                }
                Field::Int(n) => {
                    let v = c.varint("an integer attribute")?;
                    let a = self.int_attr(def, n, v);
                    attrs.push((n, a));
                }
                Field::IntSince(n, since) => {
                    if self.version >= since {
                        let v = c.varint("an integer attribute")?;
                        let a = self.int_attr(def, n, v);
                        attrs.push((n, a));
                    }
                }
                Field::OptInt(n) => {
                    if flag(flags, flag_bits, n) {
                        let v = c.varint("an integer attribute")?;
                        let a = self.int_attr(def, n, v);
                        attrs.push((n, a));
                    }
                }
                Field::Bool(n) => {
                    let b_at = *c;
                    let v = c.byte("a boolean attribute")?;
                    if v > 1 {
                        return b_at.err(format!("invalid boolean {v}"));
                    }
                    attrs.push((n, if v == 1 { Attr::TRUE } else { Attr::FALSE }));
                }
                Field::Str(n) => {
                    let s = self.string(c, "a string attribute")?;
                    let kind = def.attrs.iter().find(|a| a.name == n).map(|a| a.kind);
                    let data = if kind == Some(AttrKind::SymbolRef) {
                        AttrData::SymbolRef(s.into())
                    } else {
                        AttrData::String(s.into())
                    };
                    attrs.push((n, self.m.ctx.attrs.intern(data)));
                }
                Field::Array(n) => {
                    let count = c.count(1, "number of array elements")?;
                    let mut items = Vec::with_capacity(count);
                    for _ in 0..count {
                        items.push(self.tagged(c, "an array element")?);
                    }
                    attrs.push((n, self.m.ctx.attrs.intern(AttrData::Array(items.into()))));
                }
                Field::Tagged(n) => {
                    let a = self.tagged(c, "an attribute")?;
                    attrs.push((n, a));
                }
                Field::OptTagged(n) => {
                    if flag(flags, flag_bits, n) {
                        let a = self.tagged(c, "an attribute")?;
                        attrs.push((n, a));
                    }
                }
                Field::Dense(n) => {
                    let Some(&ty) = results.first() else {
                        return c.err("a constant without a result type");
                    };
                    let a = self.constant(c, ty)?;
                    attrs.push((n, a));
                }
                Field::I32Array(n) => {
                    let list_at = *c;
                    let v = c.int_list(4, "an i32 array")?;
                    let v: Box<[i32]> = v.iter().map(|&x| x as i32).collect();
                    // i32::MIN is the "dynamic" marker of MLIR's integer arrays, never a
                    // value; NVIDIA's reader refuses it with these words.
                    if let Some(x) = v.iter().find(|&&x| x == i32::MIN) {
                        return list_at.err(format!("array contains unsupported value {x}"));
                    }
                    attrs.push((n, self.m.ctx.attrs.intern(AttrData::DenseI32Array(v))));
                }
                Field::Operand(n) => {
                    let v = self.value(c)?;
                    if let Some(i) = slot_index(n) {
                        slots[i].push(v);
                    }
                }
                Field::OptOperand(n) => {
                    if flag(flags, flag_bits, n) {
                        let v = self.value(c)?;
                        if let Some(i) = slot_index(n) {
                            slots[i].push(v);
                        }
                    }
                }
                Field::Sized(n) => {
                    let count = c.count(1, "number of operands")?;
                    for _ in 0..count {
                        let v = self.value(c)?;
                        if let Some(i) = slot_index(n) {
                            slots[i].push(v);
                        }
                    }
                }
                Field::AllOperands => {
                    let n_at = *c;
                    let count = c.count(1, "number of operands")?;
                    let fixed = def
                        .operands
                        .iter()
                        .filter(|s| s.arity == Arity::One)
                        .count();
                    let flexible = def.operands.iter().any(|s| s.arity != Arity::One);
                    if count < fixed || (!flexible && count != fixed) {
                        return n_at.err(format!(
                            "'cuda_tile.{}' has {count} operands in the bytecode",
                            def.name
                        ));
                    }
                    let mut extra = count - fixed;
                    for (i, s) in def.operands.iter().enumerate() {
                        let take = if s.arity == Arity::One {
                            1
                        } else {
                            std::mem::take(&mut extra)
                        };
                        for _ in 0..take {
                            let v = self.value(c)?;
                            slots[i].push(v);
                        }
                    }
                }
            }
        }
        // 13.1's `print` has no result; NVIDIA's reader turns it into 13.2's `print_tko`,
        // whose token nothing in a 13.1 file can use (so it takes no value number). The
        // spec's `print` has no token, so tilec's own reading keeps the op as written.
        let legacy_print = self.nvidia
            && enc.op == Opcode::Print
            && results.is_empty()
            && self.version < Version::V13_2;
        if legacy_print {
            results.push(Type::TOKEN);
        }
        let loc = self.next_loc(dbg, &at)?;
        let num_regions = def.regions.len();
        let slot_refs: Vec<&[Value]> = slots.iter().map(Vec::as_slice).collect();
        let mut builder = Builder::new(&mut self.m);
        builder.set_insertion_point(InsertPoint::End(block));
        let op = builder
            .create(enc.op, &slot_refs, &results, &attrs, num_regions)
            .map_err(|e| at.error(format!("cannot build 'cuda_tile.{}': {}", def.name, e.0)))?;
        self.m.set_op_span(op, Some(span(at.offset())));
        self.m.set_op_loc(op, loc);
        // Spell the op as NVIDIA's tools do where its name differs from the spec's.
        let nvidia = match enc.op {
            Opcode::PowF => Some("pow"),
            Opcode::NegSI => Some("negi"),
            Opcode::MulHI => Some("mulhii"),
            Opcode::Print if !results.is_empty() => Some("print_tko"),
            _ => None,
        };
        if let Some(i) = nvidia.and_then(|n| def.aliases.iter().position(|a| *a == n)) {
            self.m.set_spelling(op, i as u8 + 1);
        }
        if num_regions > 0 {
            let r_at = *c;
            let n = c.count(1, "number of regions")?;
            if n != num_regions {
                return r_at.err(format!(
                    "'cuda_tile.{}' has {n} regions in the bytecode, expected {num_regions}",
                    def.name
                ));
            }
            if self.depth > MAX_DEPTH {
                return r_at.err("regions nest too deeply");
            }
            self.depth += 1;
            for i in 0..n {
                let region = self.m.region(op, i);
                let nb = c.count(2, "number of blocks")?;
                if nb > 1 {
                    self.depth -= 1;
                    return r_at.err("a region with more than one block");
                }
                for _ in 0..nb {
                    let saved = self.values.len();
                    let b = self.m.append_block(region);
                    let na = c.count(1, "number of block arguments")?;
                    for _ in 0..na {
                        let t = self.ty(c, "a block argument type")?;
                        let v = self.m.append_block_arg(b, t);
                        self.values.push(v);
                    }
                    let nops = c.count(1, "number of operations")?;
                    for _ in 0..nops {
                        self.op(c, b, dbg)?;
                    }
                    self.values.truncate(saved);
                }
            }
            self.depth -= 1;
        }
        if !legacy_print {
            self.values.extend(self.m.results(op));
        }
        Ok(op)
    }
    /// An integer attribute of `def`'s slot `n`, typed as the slot declares (`i32` or
    /// `i64`).
    fn int_attr(&mut self, def: &tilec_ir::ops::OpDef, n: &str, v: u64) -> Attr {
        let kind = def.attrs.iter().find(|a| a.name == n).map(|a| a.kind);
        let ty = if kind == Some(AttrKind::I32) {
            Type::I32
        } else {
            Type::I64
        };
        self.m.ctx.attrs.int(v as i64, ty)
    }

    fn enum_attr(
        &mut self,
        c: &mut Cursor<'a>,
        def: &tilec_ir::ops::OpDef,
        name: &str,
    ) -> Res<Option<Attr>> {
        let at = *c;
        let v = c.varint("an enum attribute")?;
        let Some(adef) = def.attrs.iter().find(|a| a.name == name) else {
            return Ok(None);
        };
        let AttrKind::Enum(kind) = adef.kind else {
            return Ok(None);
        };
        if v >= kind.cases().len() as u64 {
            return at.err(format!(
                "invalid value {v} for the enum attribute '{name}' of 'cuda_tile.{}'",
                def.name
            ));
        }
        if adef.presence == Presence::DefaultEnum(v as u8) {
            return Ok(None);
        }
        Ok(Some(self.m.ctx.attrs.intern(AttrData::Enum(kind, v as u8))))
    }

    /// A dictionary without its tag: count, then (string key, tagged value) pairs.
    fn dict(&mut self, c: &mut Cursor<'a>, what: &str) -> Res<Attr> {
        let n = c.count(2, &format!("number of entries of {what}"))?;
        let mut items: Vec<(Box<str>, Attr)> = Vec::with_capacity(n);
        for i in 0..n {
            let k_at = *c;
            let k = self.string(c, "a dictionary key")?;
            if k.is_empty() {
                return k_at.err(format!(
                    "invalid empty attribute name for DictionaryAttr element {i}"
                ));
            }
            let v = self.tagged(c, "a dictionary value")?;
            items.push((k.into(), v));
        }
        items.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(self.m.ctx.attrs.intern(AttrData::Dict(items.into())))
    }

    /// A self-describing attribute.
    fn tagged(&mut self, c: &mut Cursor<'a>, what: &str) -> Res<Attr> {
        if self.depth > MAX_DEPTH {
            return c.err(format!("{what}: attributes nest too deeply"));
        }
        self.depth += 1;
        let r = self.tagged_inner(c, what);
        self.depth -= 1;
        r
    }

    fn tagged_inner(&mut self, c: &mut Cursor<'a>, what: &str) -> Res<Attr> {
        let at = *c;
        let tag = c.varint(what)?;
        let data = match tag {
            t if t == attr_tag::INTEGER as u64 => {
                let ty = self.ty(c, "an integer's type")?;
                let v = c.varint("an integer")?;
                let w = match self.m.ctx.types.get(ty) {
                    TypeData::Int(w) => *w,
                    _ => return at.err("an integer attribute whose type is not an integer"),
                };
                let value = if w >= 64 {
                    v as i64
                } else {
                    ((v << (64 - w)) as i64) >> (64 - w)
                };
                AttrData::Int {
                    value,
                    ty: Some(ty),
                }
            }
            t if t == attr_tag::FLOAT as u64 => {
                let ty = self.ty(c, "a float's type")?;
                let TypeData::Float(k) = *self.m.ctx.types.get(ty) else {
                    return at.err("a float attribute whose type is not a float");
                };
                let w = k.bit_width();
                let bits = if w <= 8 {
                    c.byte("a float")? as u64
                } else {
                    c.svarint("a float")? as u64
                };
                let mask = if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
                AttrData::Float {
                    bits: bits & mask,
                    ty,
                }
            }
            t if t == attr_tag::BOOL as u64 => AttrData::Bool(c.byte("a boolean")? != 0),
            t if t == attr_tag::TYPE as u64 => AttrData::Type(self.ty(c, "a type attribute")?),
            t if t == attr_tag::STRING as u64 => AttrData::String(self.string(c, what)?.into()),
            t if t == attr_tag::ARRAY as u64 => {
                let n = c.count(1, "number of array elements")?;
                let mut items = Vec::with_capacity(n);
                for _ in 0..n {
                    items.push(self.tagged(c, "an array element")?);
                }
                AttrData::Array(items.into())
            }
            t if t == attr_tag::DENSE as u64 => {
                let ty = self.ty(c, "a constant's type")?;
                return self.constant(c, ty);
            }
            t if t == attr_tag::BYTECODE_TEST_VALUE as u64 => {
                AttrData::BytecodeTestValue(c.svarint("a test value")?)
            }
            t if t == attr_tag::DIV_BY as u64 => {
                let divisor = c.varint("a divisor")?;
                let f = c.byte("div_by flags")?;
                let every = if f & 1 != 0 {
                    Some(c.svarint("div_by every")?)
                } else {
                    None
                };
                let along = if f & 2 != 0 {
                    Some(c.svarint("div_by along")?)
                } else {
                    None
                };
                AttrData::DivBy {
                    divisor,
                    every,
                    along,
                }
            }
            t if t == attr_tag::SAME_ELEMENTS as u64 => {
                AttrData::SameElements(c.int_list(8, "same_elements values")?.into())
            }
            t if t == attr_tag::DICTIONARY as u64 => return self.dict(c, "a dictionary"),
            t if t == attr_tag::OPT_HINTS as u64 => {
                let d = self.dict(c, "optimization hints")?;
                // As in text: one dictionary per architecture, each key once.
                if let AttrData::Dict(items) = self.m.ctx.attrs.get(d) {
                    for (i, (k, v)) in items.iter().enumerate() {
                        if !matches!(self.m.ctx.attrs.get(*v), AttrData::Dict(_)) {
                            return at.err(format!(
                                "optimization hints entry `{k}` is not a dictionary"
                            ));
                        }
                        if i > 0 && items[i - 1].0 == *k {
                            return at.err(format!("duplicate optimization hints key `{k}`"));
                        }
                    }
                }
                AttrData::OptHints(d)
            }
            t if t == attr_tag::BOUNDED as u64 => {
                let f = c.byte("bounded flags")?;
                let lb = if f & 1 != 0 {
                    Some(c.svarint("a lower bound")?)
                } else {
                    None
                };
                let ub = if f & 2 != 0 {
                    Some(c.svarint("an upper bound")?)
                } else {
                    None
                };
                AttrData::Bounded { lb, ub }
            }
            t => return at.err(format!("{what}: unknown attribute tag {t}")),
        };
        Ok(self.m.ctx.attrs.intern(data))
    }
}

fn span(at: usize) -> Span {
    Span::new(at as u32, at as u32 + 1)
}

fn le(b: &[u8]) -> u64 {
    let mut a = [0u8; 8];
    a[..b.len().min(8)].copy_from_slice(&b[..b.len().min(8)]);
    u64::from_le_bytes(a)
}

/// A view type's padding value, present when bit 0 of its flags is set.
fn padding_value(c: &mut Cursor<'_>, flags: u64) -> Res<Option<tilec_ir::attrs::PaddingValue>> {
    if flags & 1 == 0 {
        return Ok(None);
    }
    let p_at = *c;
    let p = c.varint("the padding value")?;
    u8::try_from(p)
        .ok()
        .and_then(tilec_ir::attrs::PaddingValue::from_index)
        .map(Some)
        .ok_or_else(|| p_at.error(format!("invalid padding value {p}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_location_entry_may_be_referenced_twice() {
        let unknown = [dbg_tag::UNKNOWN];
        let mut r = Reader {
            nvidia: false,
            m: Module::new(),
            strings: Vec::new(),
            types: Vec::new(),
            type_cache: HashMap::new(),
            constants: Vec::new(),
            debug: Debug::default(),
            version: Version::V13_3,
            values: Vec::new(),
            depth: 0,
        };
        r.debug.items.push(Cursor::new(&unknown, 100));
        let at = Cursor::new(&[], 0);
        assert_eq!(r.debug_attr(1, &at), Ok(None));
        assert_eq!(r.debug_attr(1, &at), Ok(None));
        assert_eq!(
            r.debug_attr(2, &at).unwrap_err().message,
            "debug info index 2 is out of range (1 attribute)"
        );
    }
}

//! Attributes: compile-time constants attached to operations, interned.
//!
//! An [`Attr`] is a 4-byte handle into the [`AttrStore`] of a
//! [`Context`](crate::Context); equal attributes share a handle. [`AttrData`] covers every
//! attribute tile IR uses: the enums of the spec ([`EnumKind`]: rounding modes, signedness,
//! overflow, comparison predicate and ordering, memory ordering and scope, atomic RMW kinds,
//! padding, barrier scope), integers, floats, strings, symbols, types, arrays, dictionaries
//! (optimization hints), dense constants ([`DenseElements`]), the assume predicates
//! (`div_by`, `bounded`, `same_elements`), locations and debug-info attributes.

use crate::float::{self, FloatKind};
use crate::types::{Type, TypeData, TypeStore};
use crate::util::{FxHashMap, push_i64, push_u64};

/// Handle of an interned attribute.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Attr(u32);
cranelift_entity::entity_impl!(Attr, "attr");

impl Attr {
    /// The unit attribute (presence flags such as `flush_to_zero`).
    pub const UNIT: Attr = Attr(0);
    /// `true`.
    pub const TRUE: Attr = Attr(1);
    /// `false`.
    pub const FALSE: Attr = Attr(2);
    /// `loc(unknown)`.
    pub const UNKNOWN_LOC: Attr = Attr(3);
}

macro_rules! enums {
    ($(
        $(#[$doc:meta])*
        $name:ident / $kind:ident, mnemonic $mn:expr, {
            $($(#[$vdoc:meta])* $variant:ident = $text:literal),* $(,)?
        }
    )*) => {
        $(
            $(#[$doc])*
            #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
            #[repr(u8)]
            pub enum $name { $($(#[$vdoc])* $variant),* }
            impl $name {
                /// All cases in declaration order.
                pub const ALL: &'static [$name] = &[$($name::$variant),*];
                /// The keyword spelling.
                pub fn name(self) -> &'static str {
                    match self { $($name::$variant => $text),* }
                }
                /// Parses the keyword spelling.
                pub fn from_name(s: &str) -> Option<$name> {
                    match s { $($text => Some($name::$variant),)* _ => None }
                }
                /// The case with the given index.
                pub fn from_index(i: u8) -> Option<$name> {
                    $name::ALL.get(i as usize).copied()
                }
            }
        )*

        /// The enum attribute families.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum EnumKind { $(#[doc = concat!("The `", stringify!($name), "` cases.")] $kind),* }

        impl EnumKind {
            /// The keyword spellings of the cases, indexed by case number.
            pub fn cases(self) -> &'static [&'static str] {
                match self { $(EnumKind::$kind => &[$($text),*]),* }
            }
            /// The attribute mnemonic used in the generic form
            /// (`#cuda_tile.<mnemonic><case>`), or `None` for enums that the generic form
            /// writes as a plain `i32`.
            pub fn mnemonic(self) -> Option<&'static str> {
                match self { $(EnumKind::$kind => $mn),* }
            }
        }
    };
}

enums! {
    /// Rounding modes of floating-point operations and conversions.
    RoundingMode / RoundingMode, mnemonic Some("rounding"), {
        /// Round to nearest, ties to even.
        NearestEven = "nearest_even",
        /// Round towards zero.
        Zero = "zero",
        /// Round towards negative infinity.
        NegativeInf = "negative_inf",
        /// Round towards positive infinity.
        PositiveInf = "positive_inf",
        /// Approximate (fast) operation.
        Approx = "approx",
        /// Full-precision operation.
        Full = "full",
        /// Round to an integer towards zero (float-to-int conversions).
        NearestIntToZero = "nearest_int_to_zero",
    }
    /// How integer operands are interpreted.
    Signedness / Signedness, mnemonic Some("signedness"), {
        /// Unsigned.
        Unsigned = "unsigned",
        /// Signed (two's complement).
        Signed = "signed",
    }
    /// Overflow assumptions of integer arithmetic.
    Overflow / Overflow, mnemonic Some("overflow"), {
        /// No assumption.
        None = "none",
        /// No signed wrap-around.
        NoSignedWrap = "no_signed_wrap",
        /// No unsigned wrap-around.
        NoUnsignedWrap = "no_unsigned_wrap",
        /// No wrap-around either way.
        NoWrap = "no_wrap",
    }
    /// Comparison predicates.
    ComparisonPredicate / ComparisonPredicate, mnemonic Some("comparison_predicate"), {
        /// `==`
        Equal = "equal",
        /// `!=`
        NotEqual = "not_equal",
        /// `<`
        LessThan = "less_than",
        /// `<=`
        LessThanOrEqual = "less_than_or_equal",
        /// `>`
        GreaterThan = "greater_than",
        /// `>=`
        GreaterThanOrEqual = "greater_than_or_equal",
    }
    /// NaN handling of float comparisons.
    ComparisonOrdering / ComparisonOrdering, mnemonic Some("comparison_ordering"), {
        /// True if either operand is NaN (for `not_equal`), false otherwise.
        Unordered = "unordered",
        /// False if either operand is NaN.
        Ordered = "ordered",
    }
    /// Memory ordering semantics of token-ordered memory operations.
    MemoryOrdering / MemoryOrdering, mnemonic None, {
        /// No concurrent access.
        Weak = "weak",
        /// Concurrent access without happens-before.
        Relaxed = "relaxed",
        /// Acquire.
        Acquire = "acquire",
        /// Release.
        Release = "release",
        /// Acquire and release.
        AcqRel = "acq_rel",
    }
    /// Communication scope of memory operations.
    MemoryScope / MemoryScope, mnemonic None, {
        /// The tile block.
        TlBlk = "tl_blk",
        /// The device.
        Device = "device",
        /// The whole system.
        Sys = "sys",
    }
    /// Atomic read-modify-write operations.
    AtomicRmwMode / AtomicRmwMode, mnemonic None, {
        /// Bitwise and.
        And = "and",
        /// Bitwise or.
        Or = "or",
        /// Bitwise xor.
        Xor = "xor",
        /// Integer add.
        Add = "add",
        /// Float add.
        AddF = "addf",
        /// Signed max.
        Max = "max",
        /// Signed min.
        Min = "min",
        /// Unsigned max.
        UMax = "umax",
        /// Unsigned min.
        UMin = "umin",
        /// Exchange.
        Xchg = "xchg",
    }
    /// Value of out-of-bounds elements of padded partition views.
    PaddingValue / PaddingValue, mnemonic Some("padding_value"), {
        /// `+0`.
        Zero = "zero",
        /// `-0.0`.
        NegZero = "neg_zero",
        /// NaN.
        Nan = "nan",
        /// `+inf`.
        PosInf = "pos_inf",
        /// `-inf`.
        NegInf = "neg_inf",
    }
    /// Scope of a barrier.
    BarrierScope / BarrierScope, mnemonic Some("barrier_scope"), {
        /// A warp.
        Warp = "warp",
        /// A thread block.
        Block = "block",
        /// A thread block cluster.
        Cluster = "cluster",
    }
    /// Who may access a global (13.3).
    SymbolVisibility / SymbolVisibility, mnemonic Some("symbol_visibility"), {
        /// Accessible from the host (the default).
        Public = "public",
        /// Device-only.
        Private = "private",
    }
    /// The priority of NVIDIA's bytecode-versioning test op (`testing$bytecode_test_evolution`;
    /// testing versions only: `high` from 250.1).
    BytecodeTestPriority / BytecodeTestPriority, mnemonic Some("bytecode_test_priority"), {
        /// Low.
        Low = "low",
        /// Normal.
        Normal = "normal",
        /// High (250.1).
        High = "high",
    }
    /// The address spaces a GPU-level `ttg.barrier` makes visible (tritongpu-ops.md; only
    /// single spaces: tilec never emits a combination).
    AddrSpace / AddrSpace, mnemonic None, {
        /// Control-only synchronisation.
        None = "none",
        /// Shared memory.
        Local = "local",
        /// Global reads.
        GlobalRead = "global_read",
        /// Global writes.
        GlobalWrite = "global_write",
        /// Tensor-memory reads.
        TensorRead = "tensor_read",
        /// Tensor-memory writes.
        TensorWrite = "tensor_write",
        /// Every address space.
        All = "all",
    }
}

/// The payload of a dense constant: one raw bit pattern per element (integers truncated to
/// their width, floats as their encoding), or one pattern for a splat.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct DenseElements {
    /// The tile type of the constant.
    pub ty: Type,
    /// The element values; a single value when `splat`.
    pub values: Box<[u64]>,
    /// All elements are equal and `values` holds one of them.
    pub splat: bool,
}

/// The structure of an attribute.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum AttrData {
    /// The unit attribute.
    Unit,
    /// A boolean.
    Bool(bool),
    /// An integer; `ty` is the integer type written after it (`0 : i32`), or `None` for
    /// untyped integers inside other attributes.
    Int {
        /// The value.
        value: i64,
        /// Its type.
        ty: Option<Type>,
    },
    /// A typed float (`0.000000e+00 : f32`), stored as its bit pattern.
    Float {
        /// Raw encoding in the type's format.
        bits: u64,
        /// The float type.
        ty: Type,
    },
    /// A string.
    String(Box<str>),
    /// A flat symbol reference `@name`.
    SymbolRef(Box<str>),
    /// A type used as an attribute (e.g. `function_type`).
    Type(Type),
    /// An array of attributes.
    Array(Box<[Attr]>),
    /// A dictionary, sorted by key.
    Dict(Box<[(Box<str>, Attr)]>),
    /// `array<i32: ...>` (e.g. the permutation of `permute`).
    DenseI32Array(Box<[i32]>),
    /// `array<i64: ...>`.
    DenseI64Array(Box<[i64]>),
    /// A dense constant.
    Dense(DenseElements),
    /// A case of an enum attribute.
    Enum(EnumKind, u8),
    /// `#cuda_tile.bytecode_test_value<N>`: the attribute NVIDIA's bytecode-versioning tests
    /// add in testing version 250.1.
    BytecodeTestValue(i64),
    /// `div_by<divisor[, every N along D]>`.
    DivBy {
        /// Divisor.
        divisor: u64,
        /// `every` value.
        every: Option<i64>,
        /// `along` dimension.
        along: Option<i64>,
    },
    /// `same_elements<[...]>`.
    SameElements(Box<[i64]>),
    /// `bounded<lb, ub>`, `?` for an open bound.
    Bounded {
        /// Lower bound.
        lb: Option<i64>,
        /// Upper bound.
        ub: Option<i64>,
    },
    /// `optimization_hints<arch = {key = value, ...}, ...>`; the payload is a [`AttrData::Dict`].
    OptHints(Attr),
    /// `loc(unknown)`.
    LocUnknown,
    /// `loc("file":line:col)`.
    LocFile {
        /// File name.
        file: Box<str>,
        /// Line.
        line: u32,
        /// Column.
        col: u32,
    },
    /// `loc("name"(child))`.
    LocName {
        /// The name.
        name: Box<str>,
        /// Optional child location.
        child: Option<Attr>,
    },
    /// `loc(callsite(callee at caller))`.
    LocCallSite {
        /// Callee location.
        callee: Attr,
        /// Caller location.
        caller: Attr,
    },
    /// `loc(fused[...])` or `loc(fused<metadata>[...])`.
    LocFused {
        /// Fused locations.
        locs: Box<[Attr]>,
        /// Optional metadata attribute.
        metadata: Option<Attr>,
    },
    /// `#cuda_tile.di_loc<loc in scope>`: a location with a debug-info scope.
    DiLoc {
        /// The source location.
        loc: Attr,
        /// The scope (a subprogram or lexical block).
        scope: Attr,
    },
    /// `#cuda_tile.di_file<"name" in "directory">`.
    DiFile {
        /// File name.
        name: Box<str>,
        /// Directory.
        directory: Box<str>,
    },
    /// A debug-info attribute written as `#cuda_tile.<mnemonic><key = value, ...>`
    /// (`di_compile_unit`, `di_subprogram`, `di_lexical_block`), keys in written order.
    DiStruct {
        /// `di_compile_unit`, `di_subprogram` or `di_lexical_block`.
        mnemonic: Box<str>,
        /// Parameters.
        fields: Box<[(Box<str>, Attr)]>,
    },
    /// An attribute of another dialect, kept verbatim (e.g. `#foo.bar<1>`).
    Opaque(Box<str>),
}

/// The interning table for attributes.
#[derive(Debug, Clone)]
pub struct AttrStore {
    data: Vec<AttrData>,
    map: FxHashMap<AttrData, Attr>,
}

impl Default for AttrStore {
    fn default() -> Self {
        AttrStore::new()
    }
}

impl AttrStore {
    /// A store with the predefined attributes at their fixed handles.
    pub fn new() -> AttrStore {
        let mut s = AttrStore {
            data: Vec::new(),
            map: FxHashMap::default(),
        };
        s.intern(AttrData::Unit);
        s.intern(AttrData::Bool(true));
        s.intern(AttrData::Bool(false));
        s.intern(AttrData::LocUnknown);
        s
    }

    /// Interns an attribute.
    pub fn intern(&mut self, data: AttrData) -> Attr {
        if let Some(&a) = self.map.get(&data) {
            return a;
        }
        let a = Attr(self.data.len() as u32);
        self.data.push(data.clone());
        self.map.insert(data, a);
        a
    }

    /// The structure of an attribute.
    pub fn get(&self, a: Attr) -> &AttrData {
        &self.data[a.0 as usize]
    }

    /// Number of distinct attributes.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Always false (predefined attributes exist).
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// An enum case.
    pub fn enum_case(&mut self, kind: EnumKind, case: u8) -> Attr {
        self.intern(AttrData::Enum(kind, case))
    }

    /// A typed integer.
    pub fn int(&mut self, value: i64, ty: Type) -> Attr {
        self.intern(AttrData::Int {
            value,
            ty: Some(ty),
        })
    }

    /// A string.
    pub fn string(&mut self, s: &str) -> Attr {
        self.intern(AttrData::String(s.into()))
    }

    /// The enum case of an attribute, if it is one of `kind`.
    pub fn get_enum(&self, a: Attr, kind: EnumKind) -> Option<u8> {
        match self.get(a) {
            AttrData::Enum(k, v) if *k == kind => Some(*v),
            _ => None,
        }
    }

    /// The integer value of an integer attribute.
    pub fn get_int(&self, a: Attr) -> Option<i64> {
        match self.get(a) {
            AttrData::Int { value, .. } => Some(*value),
            _ => None,
        }
    }

    /// The text of a string attribute.
    pub fn get_str(&self, a: Attr) -> Option<&str> {
        match self.get(a) {
            AttrData::String(s) => Some(s),
            _ => None,
        }
    }
}

/// A dense constant builder helper: checks whether all values are equal and builds the
/// attribute data.
pub fn dense(ty: Type, values: Vec<u64>) -> AttrData {
    let splat = values.len() > 1 && values.iter().all(|v| *v == values[0]) || values.len() == 1;
    let values: Box<[u64]> = if splat && !values.is_empty() {
        Box::new([values[0]])
    } else {
        values.into()
    };
    AttrData::Dense(DenseElements { ty, values, splat })
}

/// Appends a string literal with MLIR escaping (`\"`, `\\`, `\n`, `\t`, and `\XX` hex for
/// other non-printable bytes).
pub fn write_string_literal(out: &mut String, s: &str) {
    out.push('"');
    for b in s.bytes() {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\t' => out.push_str("\\t"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                const HEX: &[u8; 16] = b"0123456789ABCDEF";
                out.push('\\');
                out.push(HEX[(b >> 4) as usize] as char);
                out.push(HEX[(b & 15) as usize] as char);
            }
        }
    }
    out.push('"');
}

/// True if `s` can be written as a bare identifier (`[a-zA-Z_][a-zA-Z0-9_$.]*`).
pub fn is_bare_identifier(s: &str) -> bool {
    let mut it = s.bytes();
    match it.next() {
        Some(c) if c.is_ascii_alphabetic() || c == b'_' => {}
        _ => return false,
    }
    it.all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.'))
}

/// Appends `@name`, quoting the name if it is not a bare identifier.
pub fn write_symbol(out: &mut String, name: &str) {
    out.push('@');
    if is_bare_identifier(name) {
        out.push_str(name);
    } else {
        write_string_literal(out, name);
    }
}

/// Appends one element of a dense constant, as MLIR prints it.
pub fn write_element(out: &mut String, types: &TypeStore, elem: Type, bits: u64) {
    match types.get(elem) {
        TypeData::Int(1) => out.push_str(if bits & 1 != 0 { "true" } else { "false" }),
        TypeData::Int(w) => {
            let w = (*w).clamp(1, 64);
            let v = if w == 64 {
                bits as i64
            } else {
                ((bits << (64 - w)) as i64) >> (64 - w)
            };
            push_i64(out, v);
        }
        TypeData::Float(k) => float::write_mlir(out, *k, bits),
        _ => push_u64(out, bits),
    }
}

/// Appends the value part of a dense constant: a single element for splats, otherwise
/// nested `[...]` lists following the shape.
pub fn write_dense_values(out: &mut String, types: &TypeStore, d: &DenseElements) {
    let elem = types.element_type(d.ty);
    if d.splat {
        write_element(out, types, elem, d.values.first().copied().unwrap_or(0));
        return;
    }
    let shape = types.shape(d.ty).to_vec();
    if shape.is_empty() {
        write_element(out, types, elem, d.values.first().copied().unwrap_or(0));
        return;
    }
    let mut idx = 0usize;
    write_nested(out, types, elem, &shape, &d.values, &mut idx);
}

fn write_nested(
    out: &mut String,
    types: &TypeStore,
    elem: Type,
    shape: &[i64],
    values: &[u64],
    idx: &mut usize,
) {
    out.push('[');
    let n = shape[0].max(0) as usize;
    for i in 0..n {
        if i > 0 {
            out.push_str(", ");
        }
        if shape.len() > 1 {
            write_nested(out, types, elem, &shape[1..], values, idx);
        } else {
            write_element(out, types, elem, values.get(*idx).copied().unwrap_or(0));
            *idx += 1;
        }
    }
    out.push(']');
}

/// Prints attributes in MLIR's generic syntax.
pub struct AttrPrinter<'a> {
    /// Types.
    pub types: &'a TypeStore,
    /// Attributes.
    pub attrs: &'a AttrStore,
    /// Optional alias names for attributes (debug info and locations), used by the module
    /// printer when it prints location aliases.
    pub aliases: Option<&'a FxHashMap<Attr, String>>,
}

impl AttrPrinter<'_> {
    /// Appends the generic form of `a` (e.g. `#cuda_tile.rounding<zero>`, `0 : i32`,
    /// `dense<1.000000e+00> : !cuda_tile.tile<f32>`).
    pub fn write(&self, out: &mut String, a: Attr) {
        if let Some(name) = self.aliases.and_then(|m| m.get(&a)) {
            out.push('#');
            out.push_str(name);
            return;
        }
        let types = self.types;
        match self.attrs.get(a) {
            AttrData::Unit => out.push_str("unit"),
            AttrData::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            AttrData::Int { value, ty } => match ty {
                Some(t) if *t == Type::I1 => {
                    out.push_str(if *value != 0 { "true" } else { "false" })
                }
                Some(t) => {
                    push_i64(out, *value);
                    out.push_str(" : ");
                    types.write(out, *t, true);
                }
                None => push_i64(out, *value),
            },
            AttrData::Float { bits, ty } => {
                if let TypeData::Float(k) = types.get(*ty) {
                    float::write_mlir(out, *k, *bits);
                } else {
                    push_u64(out, *bits);
                }
                out.push_str(" : ");
                types.write(out, *ty, true);
            }
            AttrData::String(s) => write_string_literal(out, s),
            AttrData::SymbolRef(s) => write_symbol(out, s),
            AttrData::Type(t) => types.write(out, *t, true),
            AttrData::Array(items) => {
                out.push('[');
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.write(out, *x);
                }
                out.push(']');
            }
            AttrData::Dict(entries) => self.write_dict(out, entries, false),
            AttrData::DenseI32Array(v) => {
                out.push_str("array<i32");
                for (i, x) in v.iter().enumerate() {
                    out.push_str(if i == 0 { ": " } else { ", " });
                    push_i64(out, *x as i64);
                }
                out.push('>');
            }
            AttrData::DenseI64Array(v) => {
                out.push_str("array<i64");
                for (i, x) in v.iter().enumerate() {
                    out.push_str(if i == 0 { ": " } else { ", " });
                    push_i64(out, *x);
                }
                out.push('>');
            }
            AttrData::Dense(d) => {
                out.push_str("dense<");
                write_dense_values(out, types, d);
                out.push_str("> : ");
                types.write(out, d.ty, true);
            }
            AttrData::Enum(kind, v) => {
                let name = kind.cases().get(*v as usize).copied().unwrap_or("?");
                match kind.mnemonic() {
                    Some(m) => {
                        out.push_str("#cuda_tile.");
                        out.push_str(m);
                        out.push('<');
                        out.push_str(name);
                        out.push('>');
                    }
                    None => {
                        push_u64(out, *v as u64);
                        out.push_str(" : i32");
                    }
                }
            }
            AttrData::DivBy { .. } | AttrData::SameElements(_) | AttrData::Bounded { .. } => {
                out.push_str("#cuda_tile.");
                self.write_predicate_body(out, a);
            }
            AttrData::BytecodeTestValue(v) => {
                out.push_str("#cuda_tile.bytecode_test_value<");
                push_i64(out, *v);
                out.push('>');
            }
            AttrData::OptHints(dict) => {
                out.push_str("#cuda_tile.optimization_hints");
                self.write_opt_hints_body(out, *dict);
            }
            AttrData::LocUnknown
            | AttrData::LocFile { .. }
            | AttrData::LocName { .. }
            | AttrData::LocCallSite { .. }
            | AttrData::LocFused { .. } => {
                out.push_str("loc(");
                self.write_loc_inner(out, a);
                out.push(')');
            }
            AttrData::DiLoc { loc, scope } => {
                out.push_str("#cuda_tile.di_loc<");
                self.write(out, *loc);
                out.push_str(" in ");
                self.write(out, *scope);
                out.push('>');
            }
            AttrData::DiFile { name, directory } => {
                out.push_str("#cuda_tile.di_file<");
                write_string_literal(out, name);
                out.push_str(" in ");
                write_string_literal(out, directory);
                out.push('>');
            }
            AttrData::DiStruct { mnemonic, fields } => {
                out.push_str("#cuda_tile.");
                out.push_str(mnemonic);
                out.push('<');
                for (i, (k, v)) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(k);
                    out.push_str(" = ");
                    self.write(out, *v);
                }
                out.push('>');
            }
            AttrData::Opaque(s) => out.push_str(s),
        }
    }

    /// Appends `{k = v, ...}` (unit values print the key alone). With `without_type`,
    /// integers and floats are printed without their `: type` suffix.
    pub fn write_dict(&self, out: &mut String, entries: &[(Box<str>, Attr)], without_type: bool) {
        out.push('{');
        for (i, (k, v)) in entries.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            write_key(out, k);
            if *v != Attr::UNIT {
                out.push_str(" = ");
                if without_type {
                    self.write_without_type(out, *v);
                } else {
                    self.write(out, *v);
                }
            }
        }
        out.push('}');
    }

    /// Appends an attribute without the `: type` suffix of integers and floats.
    pub fn write_without_type(&self, out: &mut String, a: Attr) {
        match self.attrs.get(a) {
            AttrData::Int { value, ty } => {
                if *ty == Some(Type::I1) {
                    out.push_str(if *value != 0 { "true" } else { "false" });
                } else {
                    push_i64(out, *value);
                }
            }
            AttrData::Float { bits, ty } => {
                if let TypeData::Float(k) = self.types.get(*ty) {
                    float::write_mlir(out, *k, *bits);
                }
            }
            _ => self.write(out, a),
        }
    }

    /// Appends the body of an optimization-hints attribute: `<arch = {k = v}, ...>`.
    pub fn write_opt_hints_body(&self, out: &mut String, dict: Attr) {
        out.push('<');
        if let AttrData::Dict(entries) = self.attrs.get(dict) {
            for (i, (k, v)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(k);
                out.push_str(" = ");
                match self.attrs.get(*v) {
                    AttrData::Dict(inner) => {
                        out.push('{');
                        for (j, (ik, iv)) in inner.iter().enumerate() {
                            if j > 0 {
                                out.push_str(", ");
                            }
                            out.push_str(ik);
                            out.push_str(" = ");
                            self.write_without_type(out, *iv);
                        }
                        out.push('}');
                    }
                    _ => self.write(out, *v),
                }
            }
        }
        out.push('>');
    }

    /// Appends an assume predicate without the `#cuda_tile.` prefix (`div_by<32>`).
    pub fn write_predicate_body(&self, out: &mut String, a: Attr) {
        match self.attrs.get(a) {
            AttrData::DivBy {
                divisor,
                every,
                along,
            } => {
                out.push_str("div_by<");
                push_u64(out, *divisor);
                if let (Some(e), Some(d)) = (every, along) {
                    out.push_str(", every ");
                    push_i64(out, *e);
                    out.push_str(" along ");
                    push_i64(out, *d);
                }
                out.push('>');
            }
            AttrData::SameElements(v) => {
                out.push_str("same_elements<[");
                for (i, x) in v.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    push_i64(out, *x);
                }
                out.push_str("]>");
            }
            AttrData::Bounded { lb, ub } => {
                out.push_str("bounded<");
                match lb {
                    Some(v) => push_i64(out, *v),
                    None => out.push('?'),
                }
                out.push_str(", ");
                match ub {
                    Some(v) => push_i64(out, *v),
                    None => out.push('?'),
                }
                out.push('>');
            }
            _ => self.write(out, a),
        }
    }

    /// Appends the inside of `loc(...)` for a location attribute.
    pub fn write_loc_inner(&self, out: &mut String, a: Attr) {
        if let Some(name) = self.aliases.and_then(|m| m.get(&a)) {
            out.push('#');
            out.push_str(name);
            return;
        }
        match self.attrs.get(a) {
            AttrData::LocUnknown => out.push_str("unknown"),
            AttrData::LocFile { file, line, col } => {
                write_string_literal(out, file);
                out.push(':');
                push_u64(out, *line as u64);
                out.push(':');
                push_u64(out, *col as u64);
            }
            AttrData::LocName { name, child } => {
                write_string_literal(out, name);
                if let Some(c) = child {
                    out.push('(');
                    self.write_loc_inner(out, *c);
                    out.push(')');
                }
            }
            AttrData::LocCallSite { callee, caller } => {
                out.push_str("callsite(");
                self.write_loc_inner(out, *callee);
                out.push_str(" at ");
                self.write_loc_inner(out, *caller);
                out.push(')');
            }
            AttrData::LocFused { locs, metadata } => {
                out.push_str("fused");
                if let Some(m) = metadata {
                    out.push('<');
                    self.write(out, *m);
                    out.push('>');
                }
                out.push('[');
                for (i, l) in locs.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.write_loc_inner(out, *l);
                }
                out.push(']');
            }
            _ => self.write(out, a),
        }
    }
}

fn write_key(out: &mut String, k: &str) {
    if is_bare_identifier(k) {
        out.push_str(k);
    } else {
        write_string_literal(out, k);
    }
}

/// The float kind of a float type, if it is one.
pub fn float_kind(types: &TypeStore, t: Type) -> Option<FloatKind> {
    match types.get(t) {
        TypeData::Float(k) => Some(*k),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn print(types: &TypeStore, attrs: &AttrStore, a: Attr) -> String {
        let mut s = String::new();
        AttrPrinter {
            types,
            attrs,
            aliases: None,
        }
        .write(&mut s, a);
        s
    }

    #[test]
    fn enum_names_round_trip() {
        for m in RoundingMode::ALL {
            assert_eq!(RoundingMode::from_name(m.name()), Some(*m));
        }
        assert_eq!(EnumKind::AtomicRmwMode.cases()[9], "xchg");
        assert_eq!(
            RoundingMode::from_index(6),
            Some(RoundingMode::NearestIntToZero)
        );
    }

    #[test]
    fn generic_printing() {
        let mut types = TypeStore::new();
        let mut attrs = AttrStore::new();
        let r = attrs.enum_case(EnumKind::RoundingMode, RoundingMode::Zero as u8);
        assert_eq!(print(&types, &attrs, r), "#cuda_tile.rounding<zero>");
        let m = attrs.enum_case(EnumKind::MemoryOrdering, MemoryOrdering::Relaxed as u8);
        assert_eq!(print(&types, &attrs, m), "1 : i32");
        let i = attrs.int(0, Type::I64);
        assert_eq!(print(&types, &attrs, i), "0 : i64");
        let t = types.tile(&[2], Type::F32);
        let d = attrs.intern(dense(t, vec![0x3f80_0000, 0x4000_0000]));
        assert_eq!(
            print(&types, &attrs, d),
            "dense<[1.000000e+00, 2.000000e+00]> : !cuda_tile.tile<2xf32>"
        );
        let s = attrs.intern(dense(t, vec![0x3f80_0000, 0x3f80_0000]));
        assert_eq!(
            print(&types, &attrs, s),
            "dense<1.000000e+00> : !cuda_tile.tile<2xf32>"
        );
        let b = attrs.intern(AttrData::Bounded {
            lb: Some(0),
            ub: None,
        });
        assert_eq!(print(&types, &attrs, b), "#cuda_tile.bounded<0, ?>");
        let dv = attrs.intern(AttrData::DivBy {
            divisor: 1,
            every: Some(4),
            along: Some(1),
        });
        assert_eq!(
            print(&types, &attrs, dv),
            "#cuda_tile.div_by<1, every 4 along 1>"
        );
        let l = attrs.intern(AttrData::LocFile {
            file: "k.py".into(),
            line: 3,
            col: 4,
        });
        assert_eq!(print(&types, &attrs, l), "loc(\"k.py\":3:4)");
    }

    #[test]
    fn string_escapes() {
        let mut s = String::new();
        write_string_literal(&mut s, "a\"b\\c\nd\x01");
        assert_eq!(s, "\"a\\\"b\\\\c\\nd\\01\"");
    }
}

//! Types of tile IR values, interned.
//!
//! A [`Type`] is a 4-byte handle into the [`TypeStore`] of a [`Context`](crate::Context);
//! equal types always have equal handles, so type equality is a handle comparison. The
//! scalar element types and `token` have fixed handles ([`Type::I32`], [`Type::F32`], ...)
//! that are valid in every context.
//!
//! The structure of a type lives in [`TypeData`]:
//!
//! * element types: signless integers `i1 i8 i16 i32 i64` and the floats of
//!   [`FloatKind`] (`f16 bf16 f32 f64 tf32 f8E4M3FN f8E5M2`, 13.3's `f8E8M0FNU
//!   f4E2M1FN`), 13.3's `i4`, and `ptr<elem>`;
//! * `tile<SHAPE x ELEM>` of any rank, including rank 0 (`tile<f32>`);
//! * `token`;
//! * `tensor_view<SHAPE x ELEM, strides=[...]>` with static or dynamic (`?`) dimensions
//!   and strides;
//! * `partition_view<tile=(...), [padding_value = P,] tensor_view<...>[, dim_map=[...]]>`;
//! * 13.3's `strided_view<tile=(...), traversal_strides=[...], [padding_value = P,]
//!   tensor_view<...>[, dim_map=[...]]>` and `gather_scatter_view<tile=(...), [padding_value
//!   = P,] tensor_view<...>, sparse_dim=N>`;
//! * function types (the `function_type` of entries and functions);
//! * opaque types: anything else written in the input (`tensor<f32>`, `!foo.bar<...>`),
//!   kept verbatim so that the verifier can reject it with a precise message.

use crate::attrs::PaddingValue;
use crate::float::FloatKind;
use crate::util::FxHashMap;
use std::fmt::Write as _;

/// Handle of an interned type.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Type(u32);
cranelift_entity::entity_impl!(Type, "type");

/// The marker for a dynamic (`?`) dimension or stride.
pub const DYNAMIC: i64 = i64::MIN;

/// Largest number of elements a tile may have.
pub const MAX_TILE_ELEMENTS: i64 = 1 << 24;

/// Why `shape` is not a valid tile shape (every dimension a positive power of two, at most
/// [`MAX_TILE_ELEMENTS`] elements in all), or `None`. The parser and the bytecode reader
/// both check tile shapes with it.
pub fn tile_shape_error(shape: &[i64]) -> Option<String> {
    let join = || {
        shape
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut n: i64 = 1;
    for &d in shape {
        if d <= 0 {
            return Some(format!(
                "all dimensions must be positive constants, got {}",
                join()
            ));
        }
        if (d as u64).count_ones() != 1 {
            return Some(format!(
                "all dimensions must be powers of two, got {}",
                join()
            ));
        }
        if n > MAX_TILE_ELEMENTS / d {
            return Some(format!(
                "tile would exceed the maximum of {MAX_TILE_ELEMENTS} elements"
            ));
        }
        n *= d;
    }
    None
}

/// Why a tile of `shape` cannot hold `elem`, or `None`: 13.3's four-bit float is stored two
/// to a byte, so its tiles have an even number of elements (NVIDIA's words).
pub fn tile_element_error(shape: &[i64], elem: &TypeData) -> Option<&'static str> {
    let n = shape.iter().try_fold(1i64, |n, &d| n.checked_mul(d));
    (matches!(elem, TypeData::Float(FloatKind::F4E2M1FN)) && n.is_some_and(|n| n % 2 != 0))
        .then_some("F4E2M1FN tiles must have an even number of elements")
}

/// The parameters of Triton's `#ttg.swizzled_shared` encoding: for a row `r` (the
/// dimension `order[1]`) and column `c` (the fastest, `order[0]`) of a buffer,
/// `phase = (r / per_phase) % max_phase` and the element is stored at column
/// `((c / vec) ^ phase) * vec + c % vec` of its row. Dimensions after `order[1]` stack
/// whole swizzled matrices. `max_phase == 1` is no swizzling.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle {
    /// Elements moved together (a vector of `vec` consecutive columns).
    pub vec: u32,
    /// Rows that share a phase.
    pub per_phase: u32,
    /// Number of distinct phases.
    pub max_phase: u32,
}

impl Swizzle {
    /// No swizzling: `vec = 1, perPhase = 1, maxPhase = 1`.
    pub const NONE: Swizzle = Swizzle {
        vec: 1,
        per_phase: 1,
        max_phase: 1,
    };

    /// Whether the swizzle moves any element.
    pub fn is_identity(&self) -> bool {
        self.max_phase <= 1
    }
}

/// The structure of a type.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum TypeData {
    /// A signless integer of the given width. Tile IR uses 1, 8, 16, 32 and 64; other widths
    /// can be written (`i28`) and are rejected by the verifier.
    Int(u32),
    /// A floating-point element type.
    Float(FloatKind),
    /// `ptr<elem>`: a global-memory pointer to `elem`.
    Ptr(Type),
    /// `tile<shape x elem>`; an empty shape is a rank-0 tile.
    Tile {
        /// Dimensions (positive when valid; the verifier checks).
        shape: Box<[i64]>,
        /// Element type (an integer, float or pointer type).
        elem: Type,
        /// The distributed layout of the GPU-level IR (a [`TypeData::LinearEncoding`]);
        /// `None` in tile IR.
        encoding: Option<Type>,
    },
    /// A distributed layout of the GPU-level IR, Triton's `#ttg.linear` encoding: for each
    /// bit of the register-slot number, of the lane id and of the warp id, the coordinates
    /// of the tile element it selects (all zeros: the tile is replicated over that bit).
    /// Used only as the `encoding` of a tile type.
    LinearEncoding {
        /// Bases of the register-slot bits.
        register: Box<[Box<[i64]>]>,
        /// Bases of the lane-id bits.
        lane: Box<[Box<[i64]>]>,
        /// Bases of the warp-id bits.
        warp: Box<[Box<[i64]>]>,
    },
    /// `!ttg.memdesc<shape x elem, #shared, #smem[, mutable]>`: a shared-memory buffer of
    /// the GPU-level IR, with `#shared` a `#ttg.swizzled_shared` encoding.
    MemDesc {
        /// Dimensions.
        shape: Box<[i64]>,
        /// Element type.
        elem: Type,
        /// Whether the buffer may be written after its allocation.
        mutable: bool,
        /// The dimensions from fastest- to slowest-varying in memory, as Triton's shared
        /// encodings write `order` (`[rank-1, ..., 0]`: row-major).
        order: Box<[u8]>,
        /// The XOR swizzle of the buffer's rows ([`Swizzle::NONE`]: unswizzled).
        swizzle: Swizzle,
    },
    /// `token`, which orders memory operations.
    Token,
    /// `tensor_view<shape x elem, strides=[...]>`.
    TensorView {
        /// Element type.
        elem: Type,
        /// Dimensions; [`DYNAMIC`] for `?`.
        shape: Box<[i64]>,
        /// Strides in elements; [`DYNAMIC`] for `?`. Same length as `shape`.
        strides: Box<[i64]>,
    },
    /// `partition_view<tile=(...), ..., tensor_view<...>, dim_map=[...]>`.
    PartitionView {
        /// Shape of one tile of the partition.
        tile: Box<[i64]>,
        /// Padding for out-of-bounds elements, if any.
        padding: Option<PaddingValue>,
        /// The partitioned tensor view type.
        tensor_view: Type,
        /// Which tensor-view dimension each tile dimension maps to (identity by default).
        dim_map: Box<[i32]>,
    },
    /// 13.3's `strided_view<tile=(...), traversal_strides=[...], ..., tensor_view<...>,
    /// dim_map=[...]>`: tiles whose origins lie `traversal_strides` elements apart.
    StridedView {
        /// Shape of one tile.
        tile: Box<[i64]>,
        /// Distance in elements between the origins of neighbouring tiles, per tile
        /// dimension.
        traversal_strides: Box<[i64]>,
        /// Padding for out-of-bounds elements, if any.
        padding: Option<PaddingValue>,
        /// The viewed tensor view type.
        tensor_view: Type,
        /// Which tensor-view dimension each tile dimension maps to (identity by default).
        dim_map: Box<[i32]>,
    },
    /// 13.3's `gather_scatter_view<tile=(...), ..., tensor_view<...>, sparse_dim=N>`: tiles
    /// whose rows along `sparse_dim` are chosen one by one.
    GatherScatterView {
        /// Shape of one tile.
        tile: Box<[i64]>,
        /// Padding for out-of-bounds elements, if any.
        padding: Option<PaddingValue>,
        /// The viewed tensor view type.
        tensor_view: Type,
        /// The gathered/scattered dimension.
        sparse_dim: u32,
    },
    /// NVIDIA's bytecode-versioning test type
    /// `testing$bytecode_test_evolved<base[, new][, #padding][, optional]>`: `new` (default
    /// `i32`), the padding attribute and `optional` were added in testing version 250.1.
    TestEvolved {
        /// A number type (250.0).
        base: Type,
        /// A type, `i32` when not written (250.1).
        new: Option<Type>,
        /// A padding value (250.1).
        attr: Option<PaddingValue>,
        /// A type (250.1).
        optional: Option<Type>,
    },
    /// A function type `(inputs) -> (results)`.
    Function {
        /// Argument types.
        inputs: Box<[Type]>,
        /// Result types.
        results: Box<[Type]>,
    },
    /// A type that is not part of tile IR, kept as written (e.g. `tensor<f32>`).
    Opaque(Box<str>),
}

impl Type {
    /// `i1`.
    pub const I1: Type = Type(0);
    /// `i8`.
    pub const I8: Type = Type(1);
    /// `i16`.
    pub const I16: Type = Type(2);
    /// `i32`.
    pub const I32: Type = Type(3);
    /// `i64`.
    pub const I64: Type = Type(4);
    /// `f16`.
    pub const F16: Type = Type(5);
    /// `bf16`.
    pub const BF16: Type = Type(6);
    /// `f32`.
    pub const F32: Type = Type(7);
    /// `f64`.
    pub const F64: Type = Type(8);
    /// `tf32`.
    pub const TF32: Type = Type(9);
    /// `f8E4M3FN`.
    pub const F8E4M3FN: Type = Type(10);
    /// `f8E5M2`.
    pub const F8E5M2: Type = Type(11);
    /// `token`.
    pub const TOKEN: Type = Type(12);
    /// `tile<i1>`: the type of conditions.
    pub const TILE_I1: Type = Type(13);
    /// `tile<i32>`: the type of indices and tile block ids.
    pub const TILE_I32: Type = Type(14);
    /// `f8E8M0FNU` (13.2).
    pub const F8E8M0FNU: Type = Type(15);
    /// `f4E2M1FN` (13.3).
    pub const F4E2M1FN: Type = Type(16);
    /// `i4` (13.3).
    pub const I4: Type = Type(17);

    /// The fixed handle of a float element type.
    pub const fn float(kind: FloatKind) -> Type {
        match kind {
            FloatKind::F16 => Type::F16,
            FloatKind::BF16 => Type::BF16,
            FloatKind::F32 => Type::F32,
            FloatKind::F64 => Type::F64,
            FloatKind::TF32 => Type::TF32,
            FloatKind::F8E4M3FN => Type::F8E4M3FN,
            FloatKind::F8E5M2 => Type::F8E5M2,
            FloatKind::F8E8M0FNU => Type::F8E8M0FNU,
            FloatKind::F4E2M1FN => Type::F4E2M1FN,
        }
    }
}

/// The interning table for types.
#[derive(Debug, Clone)]
pub struct TypeStore {
    data: Vec<TypeData>,
    map: FxHashMap<TypeData, Type>,
    /// Names printed instead of GPU-level encodings (full text -> `#alias`), set by the
    /// printer of the GPU-level IR.
    aliases: FxHashMap<String, String>,
}

impl Default for TypeStore {
    fn default() -> Self {
        TypeStore::new()
    }
}

impl TypeStore {
    /// A store holding the predefined types at their fixed handles.
    pub fn new() -> TypeStore {
        let mut s = TypeStore {
            data: Vec::new(),
            map: FxHashMap::default(),
            aliases: FxHashMap::default(),
        };
        for w in [1, 8, 16, 32, 64] {
            s.intern(TypeData::Int(w));
        }
        for k in [
            FloatKind::F16,
            FloatKind::BF16,
            FloatKind::F32,
            FloatKind::F64,
            FloatKind::TF32,
            FloatKind::F8E4M3FN,
            FloatKind::F8E5M2,
        ] {
            s.intern(TypeData::Float(k));
        }
        s.intern(TypeData::Token);
        s.scalar(Type::I1);
        s.scalar(Type::I32);
        debug_assert_eq!(s.intern(TypeData::Token), Type::TOKEN);
        debug_assert_eq!(s.scalar(Type::I1), Type::TILE_I1);
        debug_assert_eq!(s.scalar(Type::I32), Type::TILE_I32);
        let e8m0 = s.intern(TypeData::Float(FloatKind::F8E8M0FNU));
        let e2m1 = s.intern(TypeData::Float(FloatKind::F4E2M1FN));
        let i4 = s.intern(TypeData::Int(4));
        debug_assert_eq!(
            (e8m0, e2m1, i4),
            (Type::F8E8M0FNU, Type::F4E2M1FN, Type::I4)
        );
        s
    }

    /// The handle of a type if it has been interned (equal types have equal handles, so a
    /// type that was never interned is not the type of anything).
    pub fn lookup(&self, data: &TypeData) -> Option<Type> {
        self.map.get(data).copied()
    }

    /// Interns a type.
    pub fn intern(&mut self, data: TypeData) -> Type {
        if let Some(&t) = self.map.get(&data) {
            return t;
        }
        let t = Type(self.data.len() as u32);
        self.data.push(data.clone());
        self.map.insert(data, t);
        t
    }

    /// The structure of a type.
    pub fn get(&self, t: Type) -> &TypeData {
        &self.data[t.0 as usize]
    }

    /// Number of distinct types.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Always false: the predefined types are always present.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The integer type of a width.
    pub fn int(&mut self, width: u32) -> Type {
        self.intern(TypeData::Int(width))
    }

    /// `ptr<elem>`.
    pub fn ptr(&mut self, elem: Type) -> Type {
        self.intern(TypeData::Ptr(elem))
    }

    /// `tile<shape x elem>`.
    pub fn tile(&mut self, shape: &[i64], elem: Type) -> Type {
        self.intern(TypeData::Tile {
            shape: shape.into(),
            elem,
            encoding: None,
        })
    }

    /// The rank-0 tile `tile<elem>`.
    pub fn scalar(&mut self, elem: Type) -> Type {
        self.tile(&[], elem)
    }

    /// A function type.
    pub fn function(&mut self, inputs: &[Type], results: &[Type]) -> Type {
        self.intern(TypeData::Function {
            inputs: inputs.into(),
            results: results.into(),
        })
    }

    /// The bits one element of type `t` takes in a packed stream (`pack`/`unpack`) and in
    /// memory: `i1` one, `i4` and `f4E2M1FN` four, `tf32` the 32 bits of its f32 pattern,
    /// every other number its own width, a pointer 64.
    pub fn storage_bits(&self, t: Type) -> u32 {
        match self.get(t) {
            TypeData::Int(w) => *w,
            TypeData::Float(crate::float::FloatKind::TF32) => 32,
            TypeData::Float(k) => k.bit_width(),
            _ => 64,
        }
    }

    /// The element type of a tile, or the type itself for element types.
    pub fn element_type(&self, t: Type) -> Type {
        match self.get(t) {
            TypeData::Tile { elem, .. }
            | TypeData::TensorView { elem, .. }
            | TypeData::MemDesc { elem, .. } => *elem,
            TypeData::PartitionView { tensor_view, .. }
            | TypeData::StridedView { tensor_view, .. }
            | TypeData::GatherScatterView { tensor_view, .. } => self.element_type(*tensor_view),
            _ => t,
        }
    }

    /// The shape of a tile (empty for non-tiles).
    pub fn shape(&self, t: Type) -> &[i64] {
        match self.get(t) {
            TypeData::Tile { shape, .. }
            | TypeData::TensorView { shape, .. }
            | TypeData::MemDesc { shape, .. } => shape,
            TypeData::PartitionView { tile, .. }
            | TypeData::StridedView { tile, .. }
            | TypeData::GatherScatterView { tile, .. } => tile,
            _ => &[],
        }
    }

    /// True for `tile<...>` types.
    pub fn is_tile(&self, t: Type) -> bool {
        matches!(self.get(t), TypeData::Tile { .. })
    }

    /// True for tensor views and tile views.
    pub fn is_view(&self, t: Type) -> bool {
        matches!(self.get(t), TypeData::TensorView { .. }) || self.is_tile_view(t)
    }

    /// True for the tile views: `partition_view`, `strided_view`, `gather_scatter_view`.
    pub fn is_tile_view(&self, t: Type) -> bool {
        matches!(
            self.get(t),
            TypeData::PartitionView { .. }
                | TypeData::StridedView { .. }
                | TypeData::GatherScatterView { .. }
        )
    }

    /// The tile shape and the tensor view of a tile view (`None` for other types).
    pub fn tile_view_parts(&self, t: Type) -> Option<(&[i64], Type)> {
        match self.get(t) {
            TypeData::PartitionView {
                tile, tensor_view, ..
            }
            | TypeData::StridedView {
                tile, tensor_view, ..
            }
            | TypeData::GatherScatterView {
                tile, tensor_view, ..
            } => Some((tile, *tensor_view)),
            _ => None,
        }
    }

    /// The padding value of a tile view.
    pub fn tile_view_padding(&self, t: Type) -> Option<PaddingValue> {
        match self.get(t) {
            TypeData::PartitionView { padding, .. }
            | TypeData::StridedView { padding, .. }
            | TypeData::GatherScatterView { padding, .. } => *padding,
            _ => None,
        }
    }

    /// The tile type with the same shape as `like` and element type `elem`. For non-tile
    /// `like`, the rank-0 tile of `elem`.
    pub fn with_element(&mut self, like: Type, elem: Type) -> Type {
        let shape: Box<[i64]> = match self.get(like) {
            TypeData::Tile { shape, .. } => shape.clone(),
            _ => Box::new([]),
        };
        self.intern(TypeData::Tile {
            shape,
            elem,
            encoding: None,
        })
    }

    /// The tile type `t` (a tile) with the GPU-level layout `encoding` (or none).
    pub fn with_encoding(&mut self, t: Type, encoding: Option<Type>) -> Type {
        match self.get(t) {
            TypeData::Tile { shape, elem, .. } => {
                let (shape, elem) = (shape.clone(), *elem);
                self.intern(TypeData::Tile {
                    shape,
                    elem,
                    encoding,
                })
            }
            _ => t,
        }
    }

    /// The encoding of a tile type of the GPU-level IR.
    pub fn encoding(&self, t: Type) -> Option<Type> {
        match self.get(t) {
            TypeData::Tile { encoding, .. } => *encoding,
            _ => None,
        }
    }

    /// Sets the aliases printed for GPU-level encodings: pairs of the encoding's full text
    /// (as [`TypeStore::encoding_text`] writes it) and its `#name`. An empty list clears them.
    pub fn set_aliases(&mut self, aliases: Vec<(String, String)>) {
        self.aliases = aliases.into_iter().collect();
    }

    /// The full text of an encoding type (`#ttg.linear<...>`), ignoring aliases.
    pub fn encoding_text(&self, t: Type) -> String {
        let mut out = String::new();
        if let TypeData::LinearEncoding {
            register,
            lane,
            warp,
        } = self.get(t)
        {
            out.push_str("#ttg.linear<{");
            for (i, (name, bases)) in [("register", register), ("lane", lane), ("warp", warp)]
                .into_iter()
                .enumerate()
            {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(name);
                out.push_str(" = [");
                for (j, b) in bases.iter().enumerate() {
                    if j > 0 {
                        out.push_str(", ");
                    }
                    push_i64_list(&mut out, b);
                }
                out.push(']');
            }
            out.push_str(", block = []}>");
        }
        out
    }

    /// The `order` of a row-major buffer of rank `rank`: `[rank-1, ..., 0]`.
    pub fn row_major_order(rank: usize) -> Box<[u8]> {
        (0..rank as u8).rev().collect()
    }

    /// The shared-memory encoding of a buffer whose dimensions vary in memory from fastest
    /// to slowest in `order`, swizzled by `swizzle`.
    pub fn shared_encoding_text(swizzle: Swizzle, order: &[u8]) -> String {
        let order: Vec<i64> = order.iter().map(|d| *d as i64).collect();
        let mut out = String::from("#ttg.swizzled_shared<{vec = ");
        crate::util::push_u64(&mut out, swizzle.vec as u64);
        out.push_str(", perPhase = ");
        crate::util::push_u64(&mut out, swizzle.per_phase as u64);
        out.push_str(", maxPhase = ");
        crate::util::push_u64(&mut out, swizzle.max_phase as u64);
        out.push_str(", order = ");
        push_i64_list(&mut out, &order);
        out.push_str("}>");
        out
    }

    fn write_aliased(&self, out: &mut String, text: String) {
        match self.aliases.get(&text) {
            Some(a) => out.push_str(a),
            None => out.push_str(&text),
        }
    }

    /// Appends the textual form of `t`. With `qualified`, tile IR types get the `!cuda_tile.`
    /// prefix (as in diagnostics and the generic op form); nested element types are always
    /// written in the short form, as NVIDIA's tools do.
    pub fn write(&self, out: &mut String, t: Type, qualified: bool) {
        match self.get(t) {
            TypeData::Int(w) => {
                out.push('i');
                crate::util::push_u64(out, *w as u64);
            }
            TypeData::Float(k) => out.push_str(k.name()),
            TypeData::Function { inputs, results } => {
                out.push('(');
                for (i, t) in inputs.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.write(out, *t, qualified);
                }
                out.push_str(") -> ");
                let paren =
                    results.len() != 1 || matches!(self.get(results[0]), TypeData::Function { .. });
                if paren {
                    out.push('(');
                }
                for (i, t) in results.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.write(out, *t, qualified);
                }
                if paren {
                    out.push(')');
                }
            }
            TypeData::Opaque(s) => out.push_str(s),
            TypeData::LinearEncoding { .. } => self.write_aliased(out, self.encoding_text(t)),
            TypeData::MemDesc {
                shape,
                elem,
                mutable,
                order,
                swizzle,
            } => {
                out.push_str("!ttg.memdesc<");
                write_dims(out, shape);
                self.write(out, *elem, false);
                out.push_str(", ");
                self.write_aliased(out, Self::shared_encoding_text(*swizzle, order));
                out.push_str(", ");
                self.write_aliased(out, "#ttg.shared_memory".to_string());
                if *mutable {
                    out.push_str(", mutable");
                }
                out.push('>');
            }
            _ => {
                if qualified {
                    out.push_str("!cuda_tile.");
                }
                self.write_short_dialect(out, t);
            }
        }
    }

    fn write_short_dialect(&self, out: &mut String, t: Type) {
        match self.get(t) {
            TypeData::TestEvolved {
                base,
                new,
                attr,
                optional,
            } => {
                out.push_str("testing$bytecode_test_evolved<");
                self.write(out, *base, false);
                if let Some(n) = new {
                    out.push_str(", ");
                    self.write(out, *n, false);
                }
                if let Some(p) = attr {
                    out.push_str(", #cuda_tile.padding_value<");
                    out.push_str(p.name());
                    out.push('>');
                }
                if let Some(o) = optional {
                    out.push_str(", ");
                    self.write(out, *o, false);
                }
                out.push('>');
            }
            TypeData::Ptr(e) => {
                out.push_str("ptr<");
                self.write(out, *e, false);
                out.push('>');
            }
            TypeData::Tile {
                shape,
                elem,
                encoding,
            } => {
                out.push_str("tile<");
                write_dims(out, shape);
                self.write(out, *elem, false);
                if let Some(e) = encoding {
                    out.push_str(", ");
                    self.write_aliased(out, self.encoding_text(*e));
                }
                out.push('>');
            }
            TypeData::Token => out.push_str("token"),
            TypeData::TensorView {
                elem,
                shape,
                strides,
            } => {
                out.push_str("tensor_view<");
                write_dims(out, shape);
                self.write(out, *elem, false);
                if !shape.is_empty() {
                    out.push_str(", strides=[");
                    for (i, s) in strides.iter().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        write_dim(out, *s);
                    }
                    out.push(']');
                }
                out.push('>');
            }
            TypeData::PartitionView {
                tile,
                padding,
                tensor_view,
                dim_map,
            } => {
                out.push_str("partition_view<tile=(");
                for (i, d) in tile.iter().enumerate() {
                    if i > 0 {
                        out.push('x');
                    }
                    crate::util::push_i64(out, *d);
                }
                out.push_str("), ");
                if let Some(p) = padding {
                    out.push_str("padding_value = ");
                    out.push_str(p.name());
                    out.push_str(", ");
                }
                self.write(out, *tensor_view, false);
                write_dim_map(out, dim_map);
                out.push('>');
            }
            TypeData::StridedView {
                tile,
                traversal_strides,
                padding,
                tensor_view,
                dim_map,
            } => {
                out.push_str("strided_view<");
                write_view_tile(out, tile);
                out.push_str("traversal_strides=[");
                for (i, d) in traversal_strides.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    crate::util::push_i64(out, *d);
                }
                out.push_str("], ");
                write_padding(out, *padding);
                self.write(out, *tensor_view, false);
                write_dim_map(out, dim_map);
                out.push('>');
            }
            TypeData::GatherScatterView {
                tile,
                padding,
                tensor_view,
                sparse_dim,
            } => {
                out.push_str("gather_scatter_view<");
                write_view_tile(out, tile);
                write_padding(out, *padding);
                self.write(out, *tensor_view, false);
                out.push_str(", sparse_dim=");
                crate::util::push_u64(out, *sparse_dim as u64);
                out.push('>');
            }
            _ => self.write(out, t, false),
        }
    }

    /// The textual form of a type as a new string (see [`TypeStore::write`]).
    pub fn to_string(&self, t: Type, qualified: bool) -> String {
        let mut s = String::new();
        self.write(&mut s, t, qualified);
        s
    }
}

/// `tile=(AxB), `.
fn write_view_tile(out: &mut String, tile: &[i64]) {
    out.push_str("tile=(");
    for (i, d) in tile.iter().enumerate() {
        if i > 0 {
            out.push('x');
        }
        crate::util::push_i64(out, *d);
    }
    out.push_str("), ");
}

/// `padding_value = P, ` when there is one.
fn write_padding(out: &mut String, padding: Option<PaddingValue>) {
    if let Some(p) = padding {
        out.push_str("padding_value = ");
        out.push_str(p.name());
        out.push_str(", ");
    }
}

/// `, dim_map=[...]` unless it is the identity (which NVIDIA's printer leaves out).
fn write_dim_map(out: &mut String, dim_map: &[i32]) {
    let identity = dim_map.iter().enumerate().all(|(i, &d)| d as usize == i);
    if !identity {
        out.push_str(", dim_map=[");
        for (i, d) in dim_map.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            crate::util::push_i64(out, *d as i64);
        }
        out.push(']');
    }
}

fn write_dim(out: &mut String, d: i64) {
    if d == DYNAMIC {
        out.push('?');
    } else {
        crate::util::push_i64(out, d);
    }
}

fn push_i64_list(out: &mut String, v: &[i64]) {
    out.push('[');
    for (i, x) in v.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        crate::util::push_i64(out, *x);
    }
    out.push(']');
}

fn write_dims(out: &mut String, shape: &[i64]) {
    for d in shape {
        write_dim(out, *d);
        out.push('x');
    }
}

/// Formats a list of types separated by `, ` (short form).
pub fn join_types(store: &TypeStore, types: &[Type], qualified: bool) -> String {
    let mut s = String::new();
    for (i, t) in types.iter().enumerate() {
        if i > 0 {
            let _ = write!(s, ", ");
        }
        store.write(&mut s, *t, qualified);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predefined_handles() {
        let s = TypeStore::new();
        assert_eq!(s.get(Type::I1), &TypeData::Int(1));
        assert_eq!(s.get(Type::F32), &TypeData::Float(FloatKind::F32));
        assert_eq!(s.get(Type::F8E5M2), &TypeData::Float(FloatKind::F8E5M2));
        assert_eq!(s.get(Type::TOKEN), &TypeData::Token);
    }

    #[test]
    fn interning_and_printing() {
        let mut s = TypeStore::new();
        let p = s.ptr(Type::F32);
        let a = s.tile(&[8], p);
        let b = s.tile(&[8], p);
        assert_eq!(a, b);
        assert_eq!(s.to_string(a, false), "tile<8xptr<f32>>");
        assert_eq!(s.to_string(a, true), "!cuda_tile.tile<8xptr<f32>>");
        let z = s.scalar(Type::I1);
        assert_eq!(s.to_string(z, false), "tile<i1>");
        let tv = s.intern(TypeData::TensorView {
            elem: Type::F32,
            shape: vec![DYNAMIC, 2].into(),
            strides: vec![1, DYNAMIC].into(),
        });
        assert_eq!(
            s.to_string(tv, false),
            "tensor_view<?x2xf32, strides=[1,?]>"
        );
        let pv = s.intern(TypeData::PartitionView {
            tile: vec![2, 2].into(),
            padding: Some(PaddingValue::NegInf),
            tensor_view: tv,
            dim_map: vec![1, 0].into(),
        });
        assert_eq!(
            s.to_string(pv, false),
            "partition_view<tile=(2x2), padding_value = neg_inf, tensor_view<?x2xf32, strides=[1,?]>, dim_map=[1, 0]>"
        );
        let f = s.function(&[z], &[]);
        assert_eq!(s.to_string(f, true), "(!cuda_tile.tile<i1>) -> ()");
    }
}

//! The op table: one declarative entry per operation.
//!
//! This table is the single source of truth about operations. Every consumer reads it
//! instead of keeping its own list:
//!
//! * the **parser** finds ops by name or alias, parses operands, attributes, types and
//!   regions by interpreting the entry's [`Syntax`] (a small assembly-format language, see
//!   [`format`](mod@format)) and infers the types the text leaves implicit from the entry's type
//!   constraints and same-type groups;
//! * the **printer** prints the custom form from the same format (reproducing the spacing
//!   rules of MLIR's generated printers) and the generic form from the attribute names;
//! * the **verifier** checks operand, result, region and attribute counts and the type
//!   constraints ([`TyC`]) and traits, and dispatches on the [`Family`];
//! * the **canonicalizer** and **lowering** read traits and memory [`Effects`].
//!
//! Ops are identified by [`Opcode`], one variant per entry. Where the spec's name differs from
//! NVIDIA's, the spec's is the primary [`OpDef::name`] and NVIDIA's is an alias
//! (`negsi`/`negi`, `mulhi`/`mulhii`, `powf`/`pow`, `print`/`print_tko`); the printer
//! keeps the spelling the input used.

pub mod bytecode;
pub mod conform;
pub mod format;
pub mod infer;
mod table;

pub use table::Opcode;

/// The or-pattern of the element-by-element ops (float and integer arithmetic, the
/// value conversions) that every consumer handles by its one elementwise path: the
/// interpreter, convert-to-gpu and the PTX writer match `elementwise_opcodes!()` (plus
/// their own extras) in otherwise exhaustive matches, so that a new op is a compile error
/// in each until it is placed, here or in an arm of its own.
#[macro_export]
macro_rules! elementwise_opcodes {
    () => {
        $crate::ops::Opcode::AbsF
            | $crate::ops::Opcode::AddF
            | $crate::ops::Opcode::Atan2
            | $crate::ops::Opcode::Ceil
            | $crate::ops::Opcode::CmpF
            | $crate::ops::Opcode::CosH
            | $crate::ops::Opcode::Cos
            | $crate::ops::Opcode::DivF
            | $crate::ops::Opcode::Exp2
            | $crate::ops::Opcode::Exp
            | $crate::ops::Opcode::Floor
            | $crate::ops::Opcode::Fma
            | $crate::ops::Opcode::Log10
            | $crate::ops::Opcode::Log1p
            | $crate::ops::Opcode::Log2
            | $crate::ops::Opcode::Log
            | $crate::ops::Opcode::MaxF
            | $crate::ops::Opcode::MaximumF
            | $crate::ops::Opcode::MinF
            | $crate::ops::Opcode::MinimumF
            | $crate::ops::Opcode::MulF
            | $crate::ops::Opcode::NegF
            | $crate::ops::Opcode::PowF
            | $crate::ops::Opcode::RecipF
            | $crate::ops::Opcode::RemF
            | $crate::ops::Opcode::Rsqrt
            | $crate::ops::Opcode::Sigmoid
            | $crate::ops::Opcode::SinH
            | $crate::ops::Opcode::Sin
            | $crate::ops::Opcode::Sqrt
            | $crate::ops::Opcode::SubF
            | $crate::ops::Opcode::Tan
            | $crate::ops::Opcode::TanHF
            | $crate::ops::Opcode::TanH
            | $crate::ops::Opcode::AbsI
            | $crate::ops::Opcode::AddI
            | $crate::ops::Opcode::AndI
            | $crate::ops::Opcode::Brev
            | $crate::ops::Opcode::Clz
            | $crate::ops::Opcode::CmpI
            | $crate::ops::Opcode::Ctz
            | $crate::ops::Opcode::DivI
            | $crate::ops::Opcode::MaxI
            | $crate::ops::Opcode::MinI
            | $crate::ops::Opcode::MulHI
            | $crate::ops::Opcode::MulI
            | $crate::ops::Opcode::NegSI
            | $crate::ops::Opcode::NotI
            | $crate::ops::Opcode::OrI
            | $crate::ops::Opcode::PopCnt
            | $crate::ops::Opcode::RemI
            | $crate::ops::Opcode::ShLI
            | $crate::ops::Opcode::ShRI
            | $crate::ops::Opcode::SubI
            | $crate::ops::Opcode::XOrI
            | $crate::ops::Opcode::Bitcast
            | $crate::ops::Opcode::ExtI
            | $crate::ops::Opcode::FToF
            | $crate::ops::Opcode::FToI
            | $crate::ops::Opcode::IToF
            | $crate::ops::Opcode::IntToPtr
            | $crate::ops::Opcode::PtrToInt
            | $crate::ops::Opcode::TruncI
    };
}

use crate::attrs::EnumKind;
use std::sync::OnceLock;

/// How many values an operand or result slot takes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Arity {
    /// Exactly one.
    One,
    /// Zero or one.
    Optional,
    /// Any number.
    Variadic,
}

/// The minor version of the newest 13.x release tilec implements.
pub const LATEST_MINOR: u8 = 3;

/// Element-type classes, as a bit set.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Elems(pub u16);

impl Elems {
    /// `i1`.
    pub const I1: Elems = Elems(1 << 0);
    /// `i8`.
    pub const I8: Elems = Elems(1 << 1);
    /// `i16`.
    pub const I16: Elems = Elems(1 << 2);
    /// `i32`.
    pub const I32: Elems = Elems(1 << 3);
    /// `i64`.
    pub const I64: Elems = Elems(1 << 4);
    /// `f16`.
    pub const F16: Elems = Elems(1 << 5);
    /// `bf16`.
    pub const BF16: Elems = Elems(1 << 6);
    /// `f32`.
    pub const F32: Elems = Elems(1 << 7);
    /// `f64`.
    pub const F64: Elems = Elems(1 << 8);
    /// `tf32`.
    pub const TF32: Elems = Elems(1 << 9);
    /// `f8E4M3FN`.
    pub const F8E4M3FN: Elems = Elems(1 << 10);
    /// `f8E5M2`.
    pub const F8E5M2: Elems = Elems(1 << 11);
    /// `ptr<...>`.
    pub const PTR: Elems = Elems(1 << 12);
    /// `f8E8M0FNU` (13.2).
    pub const F8E8M0FNU: Elems = Elems(1 << 13);
    /// `f4E2M1FN` (13.3).
    pub const F4E2M1FN: Elems = Elems(1 << 14);
    /// `i4` (13.3): only data movement, `exti`/`trunci` and `pack`/`unpack` take it.
    pub const I4: Elems = Elems(1 << 15);
    /// The integer types of arithmetic (ODS `IntTileType`: `i1 i8 i16 i32 i64`).
    pub const INTS: Elems = Elems(0b11111);
    /// Integers of at least 8 bits.
    pub const INTS8: Elems = Elems(0b11110);
    /// `f16 bf16 f32 f64`: the types of float arithmetic.
    pub const BASE_FLOATS: Elems = Elems(0b1111 << 5);
    /// The float types of 13.1 (`mmaf`'s operand types).
    pub const FLOATS_13_1: Elems = Elems(0b1111111 << 5);
    /// All float types (ODS `FloatTileType`).
    pub const FLOATS: Elems = Elems(Elems::FLOATS_13_1.0 | Elems::F8E8M0FNU.0 | Elems::F4E2M1FN.0);
    /// All integer and float types (ODS `NumberTileType`; no `i4`).
    pub const NUMBERS: Elems = Elems(Elems::INTS.0 | Elems::FLOATS.0);
    /// Every element type (ODS `TileElementType`).
    pub const ALL: Elems = Elems(Elems::NUMBERS.0 | Elems::PTR.0 | Elems::I4.0);

    /// The element class of an element type (`None` for anything else: `i28`, a tile).
    pub fn of(d: &crate::types::TypeData) -> Option<Elems> {
        use crate::float::FloatKind as K;
        use crate::types::TypeData;
        Some(match d {
            TypeData::Int(1) => Elems::I1,
            TypeData::Int(4) => Elems::I4,
            TypeData::Int(8) => Elems::I8,
            TypeData::Int(16) => Elems::I16,
            TypeData::Int(32) => Elems::I32,
            TypeData::Int(64) => Elems::I64,
            TypeData::Float(k) => match k {
                K::F16 => Elems::F16,
                K::BF16 => Elems::BF16,
                K::F32 => Elems::F32,
                K::F64 => Elems::F64,
                K::TF32 => Elems::TF32,
                K::F8E4M3FN => Elems::F8E4M3FN,
                K::F8E5M2 => Elems::F8E5M2,
                K::F8E8M0FNU => Elems::F8E8M0FNU,
                K::F4E2M1FN => Elems::F4E2M1FN,
            },
            TypeData::Ptr(_) => Elems::PTR,
            _ => return None,
        })
    }

    /// The element types of NVIDIA's release `13.minor`: 13.1 has none of `f8E8M0FNU`,
    /// `f4E2M1FN` and `i4`; 13.2 adds `f8E8M0FNU`; 13.3 the other two.
    pub const fn of_release(minor: u8) -> Elems {
        match minor {
            0 | 1 => Elems(Elems::ALL.0 & !(Elems::F8E8M0FNU.0 | Elems::F4E2M1FN.0 | Elems::I4.0)),
            2 => Elems(Elems::ALL.0 & !(Elems::F4E2M1FN.0 | Elems::I4.0)),
            _ => Elems::ALL,
        }
    }

    /// The names of the types in the set, joined with ` or ` in the order of NVIDIA's
    /// `TileOf` constraints (integers, floats, then `i4` and pointers): `i1 or i8 or ...`.
    pub fn describe(self) -> String {
        self.describe_in(LATEST_MINOR)
    }

    /// [`Elems::describe`] as NVIDIA's release `13.minor` words it: the types it did not
    /// have yet are left out.
    pub fn describe_in(self, minor: u8) -> String {
        let self_ = Elems(self.0 & Elems::of_release(minor).0);
        const NAMES: [(Elems, &str); 16] = [
            (Elems::I1, "i1"),
            (Elems::I8, "i8"),
            (Elems::I16, "i16"),
            (Elems::I32, "i32"),
            (Elems::I64, "i64"),
            (Elems::F16, "f16"),
            (Elems::BF16, "bf16"),
            (Elems::F32, "f32"),
            (Elems::F64, "f64"),
            (Elems::TF32, "tf32"),
            (Elems::F8E4M3FN, "f8E4M3FN"),
            (Elems::F8E5M2, "f8E5M2"),
            (Elems::F8E8M0FNU, "f8E8M0FNU"),
            (Elems::F4E2M1FN, "f4E2M1FN"),
            (Elems::I4, "i4"),
            (Elems::PTR, "Pointer type"),
        ];
        let parts: Vec<&str> = NAMES
            .iter()
            .filter(|(b, _)| self_.contains(*b))
            .map(|(_, n)| *n)
            .collect();
        parts.join(" or ")
    }

    /// The description of NVIDIA's `NumberType` (`AnyTypeOf<[AnyFloat, AnyInt]>`: floats
    /// first), as its type parameters' verifiers print it.
    pub fn describe_number_type(minor: u8) -> String {
        // `AnyFloat` lists tf32 before f64, unlike the `TileOf` constraints.
        let floats = [
            Elems::F16,
            Elems::BF16,
            Elems::F32,
            Elems::TF32,
            Elems::F64,
            Elems::F8E4M3FN,
            Elems::F8E5M2,
            Elems::F8E8M0FNU,
            Elems::F4E2M1FN,
        ]
        .map(|e| e.describe_in(minor))
        .into_iter()
        .filter(|n| !n.is_empty())
        .collect::<Vec<_>>()
        .join(" or ");
        format!("{floats} or {}", Elems::INTS.describe_in(minor))
    }

    /// The description of NVIDIA's `TileElementType` (numbers, pointers, `i4`).
    pub fn describe_tile_element_type(minor: u8) -> String {
        let i4 = if Elems::of_release(minor).contains(Elems::I4) {
            " or i4"
        } else {
            ""
        };
        format!("{} or Pointer type{i4}", Elems::describe_number_type(minor))
    }

    /// Union.
    pub const fn or(self, o: Elems) -> Elems {
        Elems(self.0 | o.0)
    }

    /// True if all bits of `o` are in `self`.
    pub const fn contains(self, o: Elems) -> bool {
        self.0 & o.0 == o.0
    }
}

/// A type constraint on an operand or result.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TyC {
    /// Any type.
    Any,
    /// A tile of any rank whose element type is in the set.
    Tile(Elems),
    /// A rank-0 tile whose element type is in the set.
    Scalar(Elems),
    /// `token`.
    Token,
    /// A `tensor_view`.
    TensorView,
    /// A tile view (`partition_view`).
    View,
}

impl TyC {
    /// A rank-0 `i32` tile constraint that defaults to `tile<i32>` when the text gives no
    /// type (view indices).
    pub const INDEX: TyC = TyC::Scalar(Elems::INTS);
    /// The indices of view loads, stores and reductions (ODS `Variadic<IntTileType>`): the
    /// view checks their ranks (a gather/scatter view takes a 1-d tile of rows); defaults
    /// to `tile<i32>` when the text gives no type.
    pub const VIEW_INDEX: TyC = TyC::Tile(Elems::INTS);
}

/// A named operand or result slot.
#[derive(Copy, Clone, Debug)]
pub struct Slot {
    /// The name (as in NVIDIA's ODS, so that diagnostics read the same).
    pub name: &'static str,
    /// How many values.
    pub arity: Arity,
    /// The type constraint.
    pub ty: TyC,
}

/// Kinds of attributes an op can carry.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AttrKind {
    /// A case of an enum.
    Enum(EnumKind),
    /// A presence flag (unit attribute).
    Unit,
    /// A boolean.
    Bool,
    /// A 64-bit integer.
    I64,
    /// A 32-bit integer.
    I32,
    /// A string.
    String,
    /// The symbol an op defines (`@name` of `entry`, `global`, `module`).
    SymbolName,
    /// A reference to a symbol (`@name` of `get_global`).
    SymbolRef,
    /// A dense constant.
    Dense,
    /// A type (the `function_type` of functions).
    TypeAttr,
    /// An array of dictionaries (argument attributes of functions).
    DictArray,
    /// Optimization hints.
    OptHints,
    /// An assume predicate (`div_by`, `bounded`, `same_elements`).
    AssumePredicate,
    /// `array<i32: ...>`, written `[a, b, ...]` in the custom form.
    DenseI32Array,
    /// An array of attributes.
    Array,
    /// The operand segment sizes of ops with several optional or variadic operands.
    OperandSegments,
    /// `#cuda_tile.bytecode_test_value<N>` (NVIDIA's testing attribute).
    BytecodeTestValue,
}

/// Whether an attribute must be present.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Presence {
    /// Must be present.
    Required,
    /// May be absent.
    Optional,
    /// May be absent; absent means this enum case (the printer omits the default).
    DefaultEnum(u8),
    /// May be absent; absent means this integer.
    DefaultInt(i64),
}

/// An attribute slot.
#[derive(Copy, Clone, Debug)]
pub struct AttrDef {
    /// Attribute name (as in NVIDIA's ODS; the generic form uses it).
    pub name: &'static str,
    /// Its kind.
    pub kind: AttrKind,
    /// Presence rule.
    pub presence: Presence,
}

/// A region slot.
#[derive(Copy, Clone, Debug)]
pub struct RegionDef {
    /// Region name.
    pub name: &'static str,
    /// The terminator the parser inserts when a block does not end in one, if any.
    pub implicit_terminator: Option<Opcode>,
    /// May be empty (no block), like the else region of `if`.
    pub optional: bool,
}

/// Op traits, as a bit set.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Traits(pub u32);

impl Traits {
    /// No traits.
    pub const NONE: Traits = Traits(0);
    /// No memory effects; may be speculated and removed when unused.
    pub const PURE: Traits = Traits(1 << 0);
    /// Must be the last op of its block.
    pub const TERMINATOR: Traits = Traits(1 << 1);
    /// Regions cannot use values defined outside the op.
    pub const ISOLATED_FROM_ABOVE: Traits = Traits(1 << 2);
    /// Defines a symbol (`sym_name`).
    pub const SYMBOL: Traits = Traits(1 << 3);
    /// Holds a symbol table.
    pub const SYMBOL_TABLE: Traits = Traits(1 << 4);
    /// Operands and results have the same shape.
    pub const SAME_SHAPE: Traits = Traits(1 << 5);
    /// Applies element-wise.
    pub const ELEMENTWISE: Traits = Traits(1 << 6);
    /// Produces a constant from its attributes.
    pub const CONSTANT_LIKE: Traits = Traits(1 << 7);
    /// Returns control to the parent op (yield, break, continue, return).
    pub const RETURN_LIKE: Traits = Traits(1 << 8);
    /// Region blocks need no terminator (module).
    pub const NO_TERMINATOR: Traits = Traits(1 << 9);
    /// Ops in its regions print without the `cuda_tile.` prefix.
    pub const DEFAULT_DIALECT: Traits = Traits(1 << 10);
    /// A function-like op (entry, testing$func).
    pub const FUNCTION: Traits = Traits(1 << 11);
    /// Has several optional or variadic operand groups whose sizes are recorded.
    pub const ATTR_SIZED_OPERANDS: Traits = Traits(1 << 12);
    /// Its regions take no arguments.
    pub const NO_REGION_ARGS: Traits = Traits(1 << 13);
    /// `lhs op rhs == rhs op lhs`.
    pub const COMMUTATIVE: Traits = Traits(1 << 14);

    /// Union.
    pub const fn or(self, o: Traits) -> Traits {
        Traits(self.0 | o.0)
    }

    /// True if all of `o` is set.
    pub const fn contains(self, o: Traits) -> bool {
        self.0 & o.0 == o.0
    }
}

/// Memory effects of an op.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Effects {
    /// None.
    None,
    /// Reads memory.
    Read,
    /// Writes memory.
    Write,
    /// Reads and writes memory.
    ReadWrite,
    /// Whatever the ops in its regions do.
    Recursive,
    /// Observable side effects other than memory (printing, trapping).
    SideEffect,
}

/// Op families, used to dispatch domain verification and lowering.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Float arithmetic and math.
    FloatArith,
    /// Integer arithmetic and bitwise ops.
    Integer,
    /// Conversions between element types.
    Conversion,
    /// Token-ordered memory ops (load, store, tokens).
    TokenMemory,
    /// Atomics.
    Atomics,
    /// Structured control flow and terminators.
    ControlFlow,
    /// Views, shapes and data movement.
    ViewAndShape,
    /// reduce and scan.
    Aggregate,
    /// Matrix multiply-accumulate.
    Mma,
    /// assume.
    Assumption,
    /// Everything else (constants, globals, modules, functions, debugging).
    Misc,
    /// Ops of the GPU-level IR (`ttg.*`), produced by the PTX backend only.
    Gpu,
}

/// Ops whose syntax is written by hand rather than with a format.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CustomSyntax {
    /// `entry` and `testing$func`: `@name(%a: type, ...) [-> results] [optimization_hints=<...>] { ... }`.
    Function,
    /// `for [unsigned] %iv in (%lb to %ub, step %s) : type [iter_values(...) -> (types)] { ... }`.
    For,
    /// `loop [iter_values(...) : types] [-> types] { ... }`.
    Loop,
    /// `make_tensor_view %base, shape = [...], strides = [...] : [type ->] tensor_view<...>`.
    MakeTensorView,
    /// `make_partition_view %tv : partition_view<...>`, and 13.3's `make_strided_view` and
    /// `make_gather_scatter_view` (the same with their view types).
    MakePartitionView,
    /// `get_tensor_shape` / `get_index_space_shape`: `%v : view-type -> result-type`,
    /// one result per dimension.
    GetShape,
    /// `assume predicate, %v : type` (NVIDIA) or `assume %cond : tile<i1>` (spec).
    Assume,
}

/// How an op is written.
#[derive(Copy, Clone, Debug)]
pub enum Syntax {
    /// An assembly format, interpreted by the parser and printer (see [`format`](mod@format)).
    Format(&'static str),
    /// A hand-written syntax.
    Custom(CustomSyntax),
}

/// How the printer names an op's results and block arguments (NVIDIA's naming hints).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NameHint {
    /// Numbered values (`%0`).
    None,
    /// The single result gets this name (`%tview`).
    Fixed(&'static str),
    /// Each result is named after its result slot (`%tile, %result_token`).
    Slots,
    /// Constants: `%cst_<value>_<type>`, `%true`, `%false`.
    Constant,
    /// `assume`: `%assume` or `%assume_<producer name>`.
    Assume,
    /// `for`: result `%for`, block arguments `%loopIdx`, `%iterArgN`.
    For,
    /// `reduce`: result `%reduce`, block arguments `%reduce_lhs`, `%reduce_rhs`.
    Reduce,
}

/// Type inference rules beyond same-type groups and buildable constraints.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Infer {
    /// Nothing extra.
    None,
    /// A comparison: the result, when not written, is an `i1` tile shaped like `lhs`.
    Comparison,
}

/// A declarative constraint the generic verifier checks (NVIDIA's ODS traits and
/// predicates, by the same names), after the slot type constraints.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// `AllElementTypesMatch`: the named slots have one element type.
    SameElementType(&'static [&'static str]),
    /// `AllRanksMatch`: the named slots have one rank.
    SameRank(&'static [&'static str]),
    /// `AllShapesMatch`: the named slots have one shape.
    SameShape(&'static [&'static str]),
    /// `AllTypesMatch`: the named slots have one type.
    SameType(&'static [&'static str]),
    /// `SameOperandsAndResultElementType`.
    SameOperandsAndResultElementType,
    /// `SameOperandsAndResultShape`.
    SameOperandsAndResultShape,
    /// `SameOperandsShape`.
    SameOperandsShape,
    /// An integer attribute that must not be negative.
    NonNegative(&'static str),
    /// An integer attribute with a minimum value (ODS `IntMinValue<n>` on an `I64Attr`).
    MinValue(&'static str, i64),
}

/// A canonicalization rule: a fold or a named rewrite pattern. The op table says which
/// rules belong to which op ([`OpDef::canon`]); `tilec-opt` implements them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// `constant`: the op folds to its literal; duplicates are merged and hoisted.
    FoldConstant,
    /// `addf` of two finite constants becomes a constant.
    FoldAddF,
    /// `if (xori(c, true))` becomes `if (c)` with the regions swapped.
    FoldIfInversion,
    /// `select`'s identity, constant-condition, boolean, compare, invert and nested folds.
    FoldSelect,
    /// Drops `if` results that have no uses.
    RemoveUnusedResults,
    /// An `if` result yielded as the same value by both branches becomes that value.
    ReplaceYieldWithValue,
    /// An `if` on a constant condition becomes the chosen branch's contents.
    RemoveStaticCondition,
    /// Results of an `if` whose branches yield values defined above become `select`s.
    ConvertToSelect,
    /// Drops an else branch that is empty and yields nothing.
    RemoveEmptyElseBranch,
    /// Two adjacent `if`s on the same condition become one.
    CombineIfs,
    /// `if (a) { if (b) {...} }` becomes `if (a && b) {...}`.
    CombineNestedIfs,
    /// When both branches leave the parent block, the else branch is hoisted past the `if`.
    MoveTerminatorToParent,
    /// `select(true, a, b)` is `a`; `select(false, a, b)` is `b`.
    ReplaceConstantSelect,
    /// `select(c, a, a)` is `a`.
    ReplaceIdenticalSelect,
    /// `select(not c, a, b)` becomes `select(c, b, a)`.
    InverseConditionSelect,
    /// `addf(x, mulf(..))` becomes `addf(mulf(..), x)` (NVIDIA's FMA-friendly order;
    /// `cuda-tile-opt` personality only).
    AddFMulLhs,
    /// `select(c, false, true)` on `i1` becomes `xori(c, true)` (NVIDIA's; `cuda-tile-opt`
    /// personality only: the spec's expression simplifier does it in the default one).
    SelectI1ToNot,
    /// `select(c, 1, 0)` on integers becomes `exti c unsigned`, and `select(c, 0, 1)`
    /// `exti (xori c, true) unsigned` (NVIDIA's 13.3; `cuda-tile-opt` personality only).
    SelectToExtI,
    /// `assume P, (assume P, x)` is `assume P, x`: a repeated predicate adds nothing
    /// (NVIDIA's 13.3; `cuda-tile-opt` personality only).
    FoldRepeatedAssume,
}

impl Rule {
    /// Every rule, in the order the driver tries them on an op.
    pub const ALL: &'static [Rule] = &[
        Rule::FoldConstant,
        Rule::FoldAddF,
        Rule::FoldIfInversion,
        Rule::FoldSelect,
        Rule::RemoveUnusedResults,
        Rule::ReplaceYieldWithValue,
        Rule::RemoveStaticCondition,
        Rule::ConvertToSelect,
        Rule::RemoveEmptyElseBranch,
        Rule::CombineIfs,
        Rule::CombineNestedIfs,
        Rule::MoveTerminatorToParent,
        Rule::ReplaceConstantSelect,
        Rule::ReplaceIdenticalSelect,
        Rule::InverseConditionSelect,
        Rule::AddFMulLhs,
        Rule::SelectI1ToNot,
        Rule::SelectToExtI,
        Rule::FoldRepeatedAssume,
    ];

    /// The rule's name (as `--stats` prints it and `--enable-patterns` takes it).
    pub fn name(self) -> &'static str {
        match self {
            Rule::FoldConstant => "FoldConstant",
            Rule::FoldAddF => "FoldAddF",
            Rule::FoldIfInversion => "FoldIfInversion",
            Rule::FoldSelect => "FoldSelect",
            Rule::RemoveUnusedResults => "RemoveUnusedResults",
            Rule::ReplaceYieldWithValue => "ReplaceYieldWithValue",
            Rule::RemoveStaticCondition => "RemoveStaticCondition",
            Rule::ConvertToSelect => "ConvertToSelect",
            Rule::RemoveEmptyElseBranch => "RemoveEmptyElseBranch",
            Rule::CombineIfs => "CombineIfs",
            Rule::CombineNestedIfs => "CombineNestedIfs",
            Rule::MoveTerminatorToParent => "MoveTerminatorToParent",
            Rule::ReplaceConstantSelect => "ReplaceConstantSelect",
            Rule::ReplaceIdenticalSelect => "ReplaceIdenticalSelect",
            Rule::InverseConditionSelect => "InverseConditionSelect",
            Rule::AddFMulLhs => "AddFMulLhs",
            Rule::SelectI1ToNot => "SelectI1ToNot",
            Rule::SelectToExtI => "SelectToExtI",
            Rule::FoldRepeatedAssume => "FoldRepeatedAssume",
        }
    }

    /// The rule with this name.
    pub fn from_name(name: &str) -> Option<Rule> {
        Rule::ALL.iter().copied().find(|r| r.name() == name)
    }

    /// True for folds (which rewrite an op into existing values or constants, or in place).
    pub fn is_fold(self) -> bool {
        matches!(
            self,
            Rule::FoldConstant
                | Rule::FoldAddF
                | Rule::FoldIfInversion
                | Rule::FoldSelect
                | Rule::FoldRepeatedAssume
        )
    }

    /// True for rules only the `cuda-tile-opt` personality runs (NVIDIA behaviour the spec
    /// does not describe).
    pub fn compat_only(self) -> bool {
        matches!(
            self,
            Rule::AddFMulLhs | Rule::SelectI1ToNot | Rule::SelectToExtI | Rule::FoldRepeatedAssume
        )
    }
}

/// The canonicalization rules of an op: at most one fold and its rewrite patterns.
#[derive(Copy, Clone, Debug)]
pub struct Canon {
    /// The fold, if any.
    pub fold: Option<Rule>,
    /// Rewrite patterns, tried in order after the fold.
    pub patterns: &'static [Rule],
}

impl Canon {
    /// No rules.
    pub const NONE: Canon = Canon {
        fold: None,
        patterns: &[],
    };
}

/// One op table entry.
#[derive(Debug)]
pub struct OpDef {
    /// The opcode.
    pub opcode: Opcode,
    /// Primary mnemonic (the spec's), without the `cuda_tile.` prefix.
    pub name: &'static str,
    /// Other accepted mnemonics (NVIDIA's, where they differ).
    pub aliases: &'static [&'static str],
    /// One-line summary.
    pub summary: &'static str,
    /// The family.
    pub family: Family,
    /// Since which Tile IR version the op exists ("spec" for ops only the spec defines).
    pub since: &'static str,
    /// Operand slots, in order.
    pub operands: &'static [Slot],
    /// Result slots, in order.
    pub results: &'static [Slot],
    /// Attribute slots.
    pub attrs: &'static [AttrDef],
    /// Region slots.
    pub regions: &'static [RegionDef],
    /// Traits.
    pub traits: Traits,
    /// Memory effects.
    pub effects: Effects,
    /// Groups of operand/result slot names whose types must be equal.
    pub same_type: &'static [&'static [&'static str]],
    /// Ops that may directly enclose this op (for terminators), by mnemonic.
    pub parents: &'static [&'static str],
    /// The textual syntax.
    pub syntax: Syntax,
    /// Printer naming hint.
    pub names: NameHint,
    /// Extra type inference.
    pub infer: Infer,
    /// Constraints for the generic verifier, in the order it checks them.
    pub checks: &'static [Check],
    /// Canonicalization rules (folds and rewrite patterns).
    pub canon: Canon,
    /// The bytecode encoding (`None`: an op with no bytecode form, such as the spec's
    /// ops NVIDIA's format lacks and the GPU-level ops).
    pub bytecode: Option<bytecode::Bytecode>,
}

/// Where a named slot lives.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SlotRef {
    /// Operand slot index.
    Operand(usize),
    /// Result slot index.
    Result(usize),
    /// Attribute slot index.
    Attr(usize),
    /// Region slot index.
    Region(usize),
}

impl OpDef {
    /// The full name, e.g. `cuda_tile.addf`.
    pub fn full_name(&self) -> String {
        if self.family == Family::Gpu {
            self.name.to_string()
        } else {
            format!("cuda_tile.{}", self.name)
        }
    }

    /// The mnemonic for a spelling index (0 = primary, `i` = `aliases[i-1]`).
    pub fn spelling(&self, index: u8) -> &'static str {
        match index {
            0 => self.name,
            i => self
                .aliases
                .get(i as usize - 1)
                .copied()
                .unwrap_or(self.name),
        }
    }

    /// True if the op has the trait(s).
    pub fn has(&self, t: Traits) -> bool {
        self.traits.contains(t)
    }

    /// Finds a named slot.
    pub fn slot(&self, name: &str) -> Option<SlotRef> {
        if let Some(i) = self.operands.iter().position(|s| s.name == name) {
            return Some(SlotRef::Operand(i));
        }
        if let Some(i) = self.results.iter().position(|s| s.name == name) {
            return Some(SlotRef::Result(i));
        }
        if let Some(i) = self.attrs.iter().position(|s| s.name == name) {
            return Some(SlotRef::Attr(i));
        }
        self.regions
            .iter()
            .position(|s| s.name == name)
            .map(SlotRef::Region)
    }

    /// Index of the attribute slot with this name.
    pub fn attr_index(&self, name: &str) -> Option<usize> {
        self.attrs.iter().position(|a| a.name == name)
    }

    /// True if the operand segment sizes must be recorded (several optional or variadic
    /// operand slots).
    pub fn needs_segments(&self) -> bool {
        self.operands
            .iter()
            .filter(|s| s.arity != Arity::One)
            .count()
            > 1
    }

    /// The compiled format, for ops written with one.
    pub fn format(&self) -> Option<&'static format::Format> {
        match self.syntax {
            Syntax::Format(src) => compiled_format(def(self.opcode), src),
            Syntax::Custom(_) => None,
        }
    }

    /// The custom syntax kind, for hand-written ops.
    pub fn custom(&self) -> Option<CustomSyntax> {
        match self.syntax {
            Syntax::Custom(c) => Some(c),
            Syntax::Format(_) => None,
        }
    }
}

/// All op definitions, indexed by [`Opcode`].
pub fn all() -> &'static [OpDef] {
    table::OPS
}

/// The definition of an opcode.
pub fn def(op: Opcode) -> &'static OpDef {
    &table::OPS[op as usize]
}

/// Looks up an op by mnemonic (`addf`, `negi`), full name (`cuda_tile.addf`) or the
/// testing function name (`testing$func`). Returns the opcode and the spelling index.
pub fn lookup(name: &str) -> Option<(Opcode, u8)> {
    let name = name.strip_prefix("cuda_tile.").unwrap_or(name);
    name_index().get(name).copied()
}

fn name_index() -> &'static crate::util::FxHashMap<&'static str, (Opcode, u8)> {
    static INDEX: OnceLock<crate::util::FxHashMap<&'static str, (Opcode, u8)>> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut m = crate::util::FxHashMap::default();
        for d in all() {
            m.insert(d.name, (d.opcode, 0));
            for (i, a) in d.aliases.iter().enumerate() {
                m.insert(*a, (d.opcode, i as u8 + 1));
            }
        }
        m
    })
}

/// Each op's compiled format, compiled the first time the op is parsed or printed: a
/// process that compiles one small kernel touches a few dozen of the op table's formats,
/// so compiling all of them up front would be most of its start-up work.
fn compiled_formats() -> &'static [OnceLock<Option<format::Format>>] {
    static FORMATS: OnceLock<Vec<OnceLock<Option<format::Format>>>> = OnceLock::new();
    FORMATS.get_or_init(|| all().iter().map(|_| OnceLock::new()).collect())
}

/// Compiles the format `src` of `d`. The op table's formats are checked by the
/// `all_formats_compile` test, so a failure here cannot reach users; an unparsable format
/// yields `None` and the op falls back to the generic syntax.
fn compiled_format(d: &'static OpDef, src: &'static str) -> Option<&'static format::Format> {
    compiled_formats()[d.opcode as usize]
        .get_or_init(|| format::compile(d, src).ok())
        .as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every op of NVIDIA's releases and testing versions has its bytecode encoding in its
    /// table entry (except the three the format keeps outside function bodies: `module`,
    /// `entry`, `global`, and `testing$func`, written in the function table); the spec's own
    /// ops and the GPU-level ops have none. Opcodes are unique, and no op is encoded
    /// before the release that introduced it.
    #[test]
    fn bytecode_encodings_live_in_the_table() {
        let structural = [
            Opcode::Module,
            Opcode::Entry,
            Opcode::Global,
            Opcode::TestingFunc,
        ];
        let mut codes = std::collections::HashMap::new();
        for d in all() {
            let nvidia = d.since.starts_with("13.") || d.since.starts_with("250.");
            match d.bytecode {
                Some(b) => {
                    assert!(nvidia, "{} ({}) has a bytecode encoding", d.name, d.since);
                    assert_eq!(b.since.to_string(), d.since, "{}: encoded since", d.name);
                    if let Some(other) = codes.insert(b.code, d.name) {
                        panic!("{} and {other} share opcode {:#x}", d.name, b.code);
                    }
                }
                None => assert!(
                    !nvidia || structural.contains(&d.opcode),
                    "{} ({}) has no bytecode encoding",
                    d.name,
                    d.since
                ),
            }
        }
        assert!(codes.len() >= 99, "{} encodings", codes.len());
    }

    #[test]
    fn table_is_indexed_by_opcode() {
        for (i, d) in all().iter().enumerate() {
            assert_eq!(d.opcode as usize, i, "{}", d.name);
        }
    }

    #[test]
    fn all_formats_compile() {
        for d in all() {
            if let Syntax::Format(src) = d.syntax
                && let Err(e) = format::compile(d, src)
            {
                panic!("format of {} does not compile: {e}", d.name);
            }
        }
    }

    #[test]
    fn names_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for d in all() {
            assert!(seen.insert(d.name), "duplicate {}", d.name);
            for a in d.aliases {
                assert!(seen.insert(*a), "duplicate {a}");
            }
        }
    }

    #[test]
    fn lookup_accepts_prefix_and_aliases() {
        assert_eq!(lookup("addf").map(|x| x.0), Some(Opcode::AddF));
        assert_eq!(lookup("cuda_tile.addf").map(|x| x.0), Some(Opcode::AddF));
        assert_eq!(lookup("negi"), Some((Opcode::NegSI, 1)));
        assert_eq!(lookup("pow"), Some((Opcode::PowF, 1)));
        assert_eq!(lookup("print_tko"), Some((Opcode::Print, 1)));
        assert_eq!(lookup("mulhii"), Some((Opcode::MulHI, 1)));
        assert_eq!(
            lookup("testing$func").map(|x| x.0),
            Some(Opcode::TestingFunc)
        );
        assert_eq!(lookup("nope"), None);
    }

    #[test]
    fn slot_names_are_unique_per_op() {
        for d in all() {
            let mut seen = std::collections::HashSet::new();
            for n in d
                .operands
                .iter()
                .map(|s| s.name)
                .chain(d.results.iter().map(|s| s.name))
                .chain(d.attrs.iter().map(|a| a.name))
                .chain(d.regions.iter().map(|r| r.name))
            {
                assert!(seen.insert(n), "{}: duplicate slot {n}", d.name);
            }
            for g in d.same_type {
                for n in *g {
                    assert!(
                        matches!(d.slot(n), Some(SlotRef::Operand(_) | SlotRef::Result(_))),
                        "{}: same_type names unknown slot {n}",
                        d.name
                    );
                }
            }
        }
    }
}

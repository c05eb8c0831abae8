//! The op table itself: one entry per operation of the spec (tile-ir-operations.md and
//! tile-ir-views.md) and of NVIDIA's 13.1 tools.
//!
//! Slot and attribute names follow NVIDIA's op definitions so that generic-form input and
//! diagnostics line up with `cuda-tile-opt`; formats follow the textual syntax NVIDIA's tools
//! print (see the conformance files), extended where the spec's own examples differ (for
//! example `dense<...>` constants and view loads without an index type).

use super::bytecode::{Bit, Bit as B, Bytecode, Field, Field as F, Version as V};
use super::{
    Arity, AttrDef, AttrKind, Canon, Check, CustomSyntax, Effects, Elems, Family, Infer, NameHint,
    OpDef, Presence, RegionDef, Rule, Slot, Syntax, Traits, TyC,
};
use crate::attrs::EnumKind;

const fn one(name: &'static str, ty: TyC) -> Slot {
    Slot {
        name,
        arity: Arity::One,
        ty,
    }
}
const fn opt(name: &'static str, ty: TyC) -> Slot {
    Slot {
        name,
        arity: Arity::Optional,
        ty,
    }
}
const fn var(name: &'static str, ty: TyC) -> Slot {
    Slot {
        name,
        arity: Arity::Variadic,
        ty,
    }
}
const fn req(name: &'static str, kind: AttrKind) -> AttrDef {
    AttrDef {
        name,
        kind,
        presence: Presence::Required,
    }
}
const fn optional(name: &'static str, kind: AttrKind) -> AttrDef {
    AttrDef {
        name,
        kind,
        presence: Presence::Optional,
    }
}

const FT: TyC = TyC::Tile(Elems::BASE_FLOATS);
const ANY_FT: TyC = TyC::Tile(Elems::FLOATS);
const IT: TyC = TyC::Tile(Elems::INTS);
const IT8: TyC = TyC::Tile(Elems::INTS8);
/// Integers and 13.3's `i4` (`exti`, `trunci`).
const IT4: TyC = TyC::Tile(Elems::INTS.or(Elems::I4));
const NT: TyC = TyC::Tile(Elems::NUMBERS);
const TILE: TyC = TyC::Tile(Elems::ALL);
const PT: TyC = TyC::Tile(Elems::PTR);
const BT: TyC = TyC::Tile(Elems::I1);
const ANY: TyC = TyC::Any;
const TOKEN: TyC = TyC::Token;

const PURE: Traits = Traits::PURE;
const PURE_EW: Traits = Traits::PURE.or(Traits::ELEMENTWISE).or(Traits::SAME_SHAPE);
const PURE_EW_C: Traits = PURE_EW.or(Traits::COMMUTATIVE);
const TERM: Traits = Traits::TERMINATOR.or(Traits::RETURN_LIKE);

const ROUNDING: AttrDef = req("rounding_mode", AttrKind::Enum(EnumKind::RoundingMode));
const ROUNDING_DEFAULT: AttrDef = AttrDef {
    name: "rounding_mode",
    kind: AttrKind::Enum(EnumKind::RoundingMode),
    presence: Presence::DefaultEnum(0),
};
/// `exp` (13.3) and `tanh` (13.2): `rounding<approx>` or the default `full`.
const ROUNDING_FULL: AttrDef = AttrDef {
    name: "rounding_mode",
    kind: AttrKind::Enum(EnumKind::RoundingMode),
    presence: Presence::DefaultEnum(crate::attrs::RoundingMode::Full as u8),
};
const FTZ: AttrDef = optional("flush_to_zero", AttrKind::Unit);
const OVERFLOW: AttrDef = AttrDef {
    name: "overflow",
    kind: AttrKind::Enum(EnumKind::Overflow),
    presence: Presence::DefaultEnum(0),
};
const SIGNEDNESS: AttrDef = req("signedness", AttrKind::Enum(EnumKind::Signedness));
const ORDERING: AttrDef = req(
    "memory_ordering_semantics",
    AttrKind::Enum(EnumKind::MemoryOrdering),
);
const SCOPE: AttrDef = req("memory_scope", AttrKind::Enum(EnumKind::MemoryScope));
const OPT_SCOPE: AttrDef = optional("memory_scope", AttrKind::Enum(EnumKind::MemoryScope));
const HINTS: AttrDef = optional("optimization_hints", AttrKind::OptHints);
const SEGMENTS: AttrDef = optional("operandSegmentSizes", AttrKind::OperandSegments);

const MINMAX_ATTRS: &[AttrDef] = &[FTZ, optional("propagate_nan", AttrKind::Unit)];
const FTZ_ONLY: &[AttrDef] = &[FTZ];
const UNARY_F: &[Slot] = &[one("source", FT)];
const UNARY_I: &[Slot] = &[one("source", IT)];
const UNARY_I8: &[Slot] = &[one("source", IT8)];
const BINARY_F: &[Slot] = &[one("lhs", FT), one("rhs", FT)];
const BINARY_I: &[Slot] = &[one("lhs", IT), one("rhs", IT)];
const RESULT_F: &[Slot] = &[one("result", FT)];
const RESULT_I: &[Slot] = &[one("result", IT)];
const RESULT_I8: &[Slot] = &[one("result", IT8)];
const RESULT_TOKEN: &[Slot] = &[one("result_token", TOKEN)];
const SAME_UNARY: &[&[&str]] = &[&["source", "result"]];
const SAME_BINARY: &[&[&str]] = &[&["lhs", "rhs", "result"]];

const FMT_UNARY: Syntax = Syntax::Format("$source attr-dict `:` type($result)");
const FMT_BINARY: Syntax = Syntax::Format("$lhs `,` $rhs attr-dict `:` type($result)");
const FMT_CAST: Syntax = Syntax::Format("$source attr-dict `:` type($source) `->` type($result)");
const FMT_TERMINATOR: Syntax = Syntax::Format("attr-dict ($operands^ `:` type($operands))?");

const DEFAULT: OpDef = OpDef {
    opcode: Opcode::AbsF,
    name: "",
    aliases: &[],
    summary: "",
    family: Family::Misc,
    since: "13.1",
    operands: &[],
    results: &[],
    attrs: &[],
    regions: &[],
    traits: Traits::NONE,
    effects: Effects::None,
    same_type: &[],
    parents: &[],
    syntax: Syntax::Format("attr-dict"),
    names: NameHint::None,
    infer: Infer::None,
    checks: &[],
    canon: Canon::NONE,
    bytecode: None,
};

// ---------------------------------------------------------------- bytecode field lists

/// `result = op source`.
const BC_UNARY: &[Field] = &[F::Results, F::Operand("source")];
/// `result = op lhs, rhs`.
const BC_BINARY: &[Field] = &[F::Results, F::Operand("lhs"), F::Operand("rhs")];
const BC_FTZ: &[Bit] = &[B::Unit("flush_to_zero")];
const BC_FLOAT_ROUNDED: &[Field] = &[
    F::Results,
    F::Flags(BC_FTZ, V::V13_1),
    F::Enum("rounding_mode"),
    F::Operand("lhs"),
    F::Operand("rhs"),
];
const BC_INT_OVERFLOW: &[Field] = &[
    F::Results,
    F::Enum("overflow"),
    F::Operand("lhs"),
    F::Operand("rhs"),
];
const BC_INT_SIGNED: &[Field] = &[
    F::Results,
    F::Enum("signedness"),
    F::Operand("lhs"),
    F::Operand("rhs"),
];
const BC_FLOAT_MINMAX: &[Field] = &[
    F::Results,
    F::Flags(
        &[B::Unit("propagate_nan"), B::Unit("flush_to_zero")],
        V::V13_1,
    ),
    F::Operand("lhs"),
    F::Operand("rhs"),
];
const BC_FTZ_UNARY: &[Field] = &[F::Results, F::Flags(BC_FTZ, V::V13_1), F::Operand("source")];
const BC_CAST: &[Field] = &[F::Results, F::Operand("source")];
const BC_TERMINATOR: &[Field] = &[F::SizedResults, F::AllOperands];

/// A float unary math op (`exp`, `sin`, ...).
macro_rules! float_unary {
    ($opcode:expr, $name:expr, $summary:expr) => {
        OpDef {
            opcode: $opcode,
            name: $name,
            summary: $summary,
            family: Family::FloatArith,
            operands: UNARY_F,
            results: RESULT_F,
            traits: PURE_EW,
            same_type: SAME_UNARY,
            syntax: FMT_UNARY,
            ..DEFAULT
        }
    };
}

/// An integer unary op.
macro_rules! int_unary {
    ($opcode:expr, $name:expr, $summary:expr) => {
        OpDef {
            opcode: $opcode,
            name: $name,
            summary: $summary,
            family: Family::Integer,
            operands: UNARY_I,
            results: RESULT_I,
            traits: PURE_EW,
            same_type: SAME_UNARY,
            syntax: FMT_UNARY,
            ..DEFAULT
        }
    };
}

/// A bit-counting op on integers of at least 8 bits.
macro_rules! bit_unary {
    ($opcode:expr, $name:expr, $summary:expr) => {
        OpDef {
            opcode: $opcode,
            name: $name,
            summary: $summary,
            family: Family::Integer,
            operands: UNARY_I8,
            results: RESULT_I8,
            traits: PURE_EW,
            same_type: SAME_UNARY,
            syntax: FMT_UNARY,
            since: "spec",
            ..DEFAULT
        }
    };
}

/// A float binary op with a rounding mode and flush-to-zero.
macro_rules! float_rounded {
    ($opcode:expr, $name:expr, $summary:expr) => {
    OpDef {
        opcode: $opcode,
        name: $name,
        summary: $summary,
        family: Family::FloatArith,
        operands: BINARY_F,
        results: RESULT_F,
        attrs: &[ROUNDING, FTZ],
        traits: PURE_EW,
        same_type: SAME_BINARY,
        syntax: Syntax::Format(
            "$lhs `,` $rhs custom<Rounding>($rounding_mode) (`flush_to_zero` $flush_to_zero^)? attr-dict `:` type($result)",
        ),
        ..DEFAULT
    }
    };
}

/// An integer binary op with an overflow flag.
macro_rules! int_overflow {
    ($opcode:expr, $name:expr, $summary:expr, $commutative:expr) => {
        OpDef {
            opcode: $opcode,
            name: $name,
            summary: $summary,
            family: Family::Integer,
            operands: BINARY_I,
            results: RESULT_I,
            attrs: &[OVERFLOW],
            traits: if $commutative { PURE_EW_C } else { PURE_EW },
            same_type: SAME_BINARY,
            syntax: Syntax::Format(
                "$lhs `,` $rhs (`overflow` `` $overflow^)? attr-dict `:` type($result)",
            ),
            ..DEFAULT
        }
    };
}

/// An integer binary op with a signedness.
macro_rules! int_signed {
    ($opcode:expr, $name:expr, $summary:expr, $commutative:expr) => {
        OpDef {
            opcode: $opcode,
            name: $name,
            summary: $summary,
            family: Family::Integer,
            operands: BINARY_I,
            results: RESULT_I,
            attrs: &[SIGNEDNESS],
            traits: if $commutative { PURE_EW_C } else { PURE_EW },
            same_type: SAME_BINARY,
            syntax: Syntax::Format(
                "$lhs `,` $rhs custom<Signedness>($signedness) attr-dict `:` type($result)",
            ),
            ..DEFAULT
        }
    };
}

/// A bitwise binary op.
macro_rules! bitwise {
    ($opcode:expr, $name:expr, $summary:expr) => {
        OpDef {
            opcode: $opcode,
            name: $name,
            summary: $summary,
            family: Family::Integer,
            operands: BINARY_I,
            results: RESULT_I,
            traits: PURE_EW_C,
            same_type: SAME_BINARY,
            syntax: FMT_BINARY,
            ..DEFAULT
        }
    };
}

/// A float min/max.
macro_rules! float_minmax {
    ($opcode:expr, $name:expr, $summary:expr, $nvidia:expr) => {
    OpDef {
        opcode: $opcode,
        name: $name,
        summary: $summary,
        family: Family::FloatArith,
        operands: BINARY_F,
        results: RESULT_F,
        attrs: if $nvidia { MINMAX_ATTRS } else { FTZ_ONLY },
        traits: PURE_EW_C,
        same_type: SAME_BINARY,
        syntax: if $nvidia {
            Syntax::Format(
                "$lhs `,` $rhs oilist(`flush_to_zero` $flush_to_zero | `propagate_nan` $propagate_nan) attr-dict `:` type($result)",
            )
        } else {
            Syntax::Format("$lhs `,` $rhs (`flush_to_zero` $flush_to_zero^)? attr-dict `:` type($result)")
        },
        since: if $nvidia { "13.1" } else { "spec" },
        ..DEFAULT
    }
    };
}

/// A conversion `from -> to` with extra attributes.
macro_rules! conversion {
    ($opcode:expr, $name:expr, $summary:expr, $from:expr, $to:expr, $attrs:expr, $syntax:expr $(,)?) => {
        OpDef {
            opcode: $opcode,
            name: $name,
            summary: $summary,
            family: Family::Conversion,
            operands: &[Slot {
                name: "from",
                arity: Arity::One,
                ty: $from,
            }],
            results: &[Slot {
                name: "to",
                arity: Arity::One,
                ty: $to,
            }],
            attrs: $attrs,
            traits: PURE_EW,
            syntax: Syntax::Format($syntax),
            ..DEFAULT
        }
    };
}

/// A pointer or bit cast `source -> result`.
macro_rules! cast {
    ($opcode:expr, $name:expr, $summary:expr, $from:expr, $to:expr) => {
        cast!($opcode, $name, $summary, $from, $to, &[])
    };
    ($opcode:expr, $name:expr, $summary:expr, $from:expr, $to:expr, $checks:expr) => {
        OpDef {
            checks: $checks,
            opcode: $opcode,
            name: $name,
            summary: $summary,
            family: Family::Conversion,
            operands: &[Slot {
                name: "source",
                arity: Arity::One,
                ty: $from,
            }],
            results: &[Slot {
                name: "result",
                arity: Arity::One,
                ty: $to,
            }],
            traits: PURE_EW,
            syntax: FMT_CAST,
            ..DEFAULT
        }
    };
}

/// A shape op `source -> result` (broadcast, reshape).
macro_rules! shape_cast {
    ($opcode:expr, $name:expr, $summary:expr, $hint:expr) => {
        shape_cast!($opcode, $name, $summary, $hint, &[])
    };
    ($opcode:expr, $name:expr, $summary:expr, $hint:expr, $checks:expr) => {
        OpDef {
            checks: $checks,
            opcode: $opcode,
            name: $name,
            summary: $summary,
            family: Family::ViewAndShape,
            operands: const { &[one("source", TILE)] },
            results: const { &[one("result", TILE)] },
            traits: PURE,
            syntax: FMT_CAST,
            names: NameHint::Fixed($hint),
            ..DEFAULT
        }
    };
}

/// A block terminator with variadic operands.
macro_rules! terminator {
    ($opcode:expr, $name:expr, $summary:expr, $parents:expr, $pure:expr) => {
        OpDef {
            opcode: $opcode,
            name: $name,
            summary: $summary,
            family: Family::ControlFlow,
            operands: const { &[var("operands", ANY)] },
            traits: if $pure { TERM.or(Traits::PURE) } else { TERM },
            parents: $parents,
            syntax: FMT_TERMINATOR,
            ..DEFAULT
        }
    };
}

/// A shape query on a view: one result per dimension.
macro_rules! get_shape {
    ($opcode:expr, $name:expr, $summary:expr, $src:expr) => {
        OpDef {
            opcode: $opcode,
            name: $name,
            summary: $summary,
            family: Family::ViewAndShape,
            operands: const { &[one("src", $src)] },
            results: const { &[var("result", TyC::Scalar(Elems::INTS))] },
            traits: PURE,
            syntax: Syntax::Custom(CustomSyntax::GetShape),
            ..DEFAULT
        }
    };
}

const FUNCTION_ATTRS: &[AttrDef] = &[
    req("sym_name", AttrKind::SymbolName),
    req("function_type", AttrKind::TypeAttr),
    optional("arg_attrs", AttrKind::DictArray),
    optional("res_attrs", AttrKind::DictArray),
    HINTS,
];

macro_rules! table {
    ($($variant:ident => $def:expr,)*) => {
        /// Operation codes, one per op table entry (in table order).
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u16)]
        pub enum Opcode { $(#[doc = concat!("`", stringify!($variant), "`")] $variant),* }

        pub(super) static OPS: &[OpDef] = &[$($def),*];
    };
}

table! {
    // ---------------------------------------------------------------- float arithmetic
    AbsF => OpDef { bytecode: Some(Bytecode { code: 0x00, since: V::V13_1, fields: BC_UNARY }), ..float_unary!(Opcode::AbsF, "absf", "Element-wise floating-point absolute value") },
    AddF => OpDef {
        bytecode: Some(Bytecode { code: 0x02, since: V::V13_1, fields: BC_FLOAT_ROUNDED }),
        canon: Canon { fold: Some(Rule::FoldAddF), patterns: &[Rule::AddFMulLhs] },
        ..float_rounded!(Opcode::AddF, "addf", "Element-wise floating-point addition")
    },
    Atan2 => OpDef {
        bytecode: Some(Bytecode { code: 0x6E, since: V::V13_2, fields: &[F::Results, F::Operand("x"), F::Operand("y")] }),
        opcode: Opcode::Atan2,
        name: "atan2",
        summary: "Element-wise two-argument arctangent",
        family: Family::FloatArith,
        operands: &[one("x", FT), one("y", FT)],
        results: RESULT_F,
        traits: PURE_EW,
        same_type: &[&["x", "y", "result"]],
        syntax: Syntax::Format("$x `,` $y attr-dict `:` type($result)"),
        since: "13.2",
        ..DEFAULT
    },
    Ceil => OpDef { bytecode: Some(Bytecode { code: 0x0D, since: V::V13_1, fields: BC_UNARY }), ..float_unary!(Opcode::Ceil, "ceil", "Element-wise ceiling") },
    CmpF => OpDef {
        bytecode: Some(Bytecode { code: 0x0E, since: V::V13_1, fields: &[
            F::Results,
            F::Enum("comparison_predicate"),
            F::Enum("comparison_ordering"),
            F::Operand("lhs"),
            F::Operand("rhs"),
        ] }),
        opcode: Opcode::CmpF,
        name: "cmpf",
        summary: "Element-wise floating-point comparison",
        family: Family::FloatArith,
        operands: BINARY_F,
        results: &[one("result", BT)],
        attrs: &[
            req("comparison_predicate", AttrKind::Enum(EnumKind::ComparisonPredicate)),
            req("comparison_ordering", AttrKind::Enum(EnumKind::ComparisonOrdering)),
        ],
        traits: PURE_EW,
        same_type: &[&["lhs", "rhs"]],
        syntax: Syntax::Format(
            "custom<Predicate>($comparison_predicate) custom<Ordering>($comparison_ordering) $lhs `,` $rhs attr-dict `:` type($lhs) (`->` type($result)^)?",
        ),
        infer: Infer::Comparison,
        ..DEFAULT
    },
    CosH => OpDef { bytecode: Some(Bytecode { code: 0x13, since: V::V13_1, fields: BC_UNARY }), ..float_unary!(Opcode::CosH, "cosh", "Element-wise hyperbolic cosine") },
    Cos => OpDef { bytecode: Some(Bytecode { code: 0x12, since: V::V13_1, fields: BC_UNARY }), ..float_unary!(Opcode::Cos, "cos", "Element-wise cosine") },
    DivF => OpDef {
        bytecode: Some(Bytecode { code: 0x14, since: V::V13_1, fields: BC_FLOAT_ROUNDED }),
        attrs: &[ROUNDING, FTZ],
        syntax: Syntax::Format(
            "$lhs `,` $rhs custom<DivFRounding>($rounding_mode) (`flush_to_zero` $flush_to_zero^)? attr-dict `:` type($result)",
        ),
        ..float_rounded!(Opcode::DivF, "divf", "Element-wise floating-point division")
    },
    Exp2 => OpDef {
        bytecode: Some(Bytecode { code: 0x18, since: V::V13_1, fields: BC_FTZ_UNARY }),
        attrs: &[FTZ],
        syntax: Syntax::Format("$source (`flush_to_zero` $flush_to_zero^)? attr-dict `:` type($result)"),
        ..float_unary!(Opcode::Exp2, "exp2", "Element-wise power of two")
    },
    Exp => OpDef {
        bytecode: Some(Bytecode { code: 0x17, since: V::V13_1, fields: &[
            F::Results,
            F::EnumSince("rounding_mode", V::V13_3),
            F::Operand("source")
        ] }),
        attrs: &[ROUNDING_FULL],
        syntax: Syntax::Format("$source custom<ApproxRounding>($rounding_mode) attr-dict `:` type($result)"),
        ..float_unary!(Opcode::Exp, "exp", "Element-wise exponential")
    },
    Floor => OpDef { bytecode: Some(Bytecode { code: 0x27, since: V::V13_1, fields: BC_UNARY }), ..float_unary!(Opcode::Floor, "floor", "Element-wise floor") },
    Fma => OpDef {
        bytecode: Some(Bytecode { code: 0x28, since: V::V13_1, fields: &[
            F::Results,
            F::Flags(BC_FTZ, V::V13_1),
            F::Enum("rounding_mode"),
            F::Operand("lhs"),
            F::Operand("rhs"),
            F::Operand("acc"),
        ] }),
        opcode: Opcode::Fma,
        name: "fma",
        summary: "Floating-point fused multiply-add",
        family: Family::FloatArith,
        operands: &[one("lhs", FT), one("rhs", FT), one("acc", FT)],
        results: RESULT_F,
        attrs: &[ROUNDING, FTZ],
        traits: PURE_EW,
        same_type: &[&["lhs", "rhs", "acc", "result"]],
        syntax: Syntax::Format(
            "$lhs `,` $rhs `,` $acc custom<Rounding>($rounding_mode) (`flush_to_zero` $flush_to_zero^)? attr-dict `:` type($result)",
        ),
        ..DEFAULT
    },
    Log10 => OpDef { since: "spec", ..float_unary!(Opcode::Log10, "log10", "Element-wise base-10 logarithm") },
    Log1p => OpDef { since: "spec", ..float_unary!(Opcode::Log1p, "log1p", "Element-wise logarithm of (1 + x)") },
    Log2 => OpDef { bytecode: Some(Bytecode { code: 0x40, since: V::V13_1, fields: BC_UNARY }), ..float_unary!(Opcode::Log2, "log2", "Element-wise base-2 logarithm") },
    Log => OpDef { bytecode: Some(Bytecode { code: 0x3F, since: V::V13_1, fields: BC_UNARY }), ..float_unary!(Opcode::Log, "log", "Element-wise natural logarithm") },
    MaxF => OpDef { bytecode: Some(Bytecode { code: 0x45, since: V::V13_1, fields: BC_FLOAT_MINMAX }), ..float_minmax!(Opcode::MaxF, "maxf", "Element-wise floating-point maximum", true) },
    MaximumF => float_minmax!(Opcode::MaximumF, "maximumf", "Element-wise floating-point maximum (propagates NaN)", false),
    MinF => OpDef { bytecode: Some(Bytecode { code: 0x47, since: V::V13_1, fields: BC_FLOAT_MINMAX }), ..float_minmax!(Opcode::MinF, "minf", "Element-wise floating-point minimum", true) },
    MinimumF => float_minmax!(Opcode::MinimumF, "minimumf", "Element-wise floating-point minimum (propagates NaN)", false),
    MulF => OpDef {
        bytecode: Some(Bytecode { code: 0x4C, since: V::V13_1, fields: BC_FLOAT_ROUNDED }),
        traits: PURE_EW_C,
        ..float_rounded!(Opcode::MulF, "mulf", "Element-wise floating-point multiplication")
    },
    NegF => OpDef { bytecode: Some(Bytecode { code: 0x4F, since: V::V13_1, fields: BC_UNARY }), ..float_unary!(Opcode::NegF, "negf", "Element-wise floating-point negation") },
    PowF => OpDef {
        bytecode: Some(Bytecode { code: 0x54, since: V::V13_1, fields: &[F::Results, F::Operand("source"), F::Operand("exponent")] }),
        opcode: Opcode::PowF,
        name: "powf",
        aliases: &["pow", "fpowf"],
        summary: "Element-wise power",
        family: Family::FloatArith,
        operands: &[one("source", FT), one("exponent", FT)],
        results: RESULT_F,
        traits: PURE_EW,
        same_type: &[&["source", "exponent", "result"]],
        syntax: Syntax::Format("$source `,` $exponent attr-dict `:` type($result)"),
        ..DEFAULT
    },
    RecipF => OpDef { since: "spec", ..float_unary!(Opcode::RecipF, "recipf", "Element-wise reciprocal") },
    RemF => OpDef {
        bytecode: Some(Bytecode { code: 0x59, since: V::V13_1, fields: BC_BINARY }),
        opcode: Opcode::RemF,
        name: "remf",
        summary: "Element-wise floating-point remainder",
        family: Family::FloatArith,
        operands: BINARY_F,
        results: RESULT_F,
        traits: PURE_EW,
        same_type: SAME_BINARY,
        syntax: FMT_BINARY,
        ..DEFAULT
    },
    Rsqrt => OpDef {
        bytecode: Some(Bytecode { code: 0x5D, since: V::V13_1, fields: BC_FTZ_UNARY }),
        attrs: &[FTZ],
        syntax: Syntax::Format("$source (`flush_to_zero` $flush_to_zero^)? attr-dict `:` type($result)"),
        ..float_unary!(Opcode::Rsqrt, "rsqrt", "Element-wise reciprocal square root")
    },
    Sigmoid => OpDef { since: "spec", ..float_unary!(Opcode::Sigmoid, "sigmoid", "Element-wise sigmoid") },
    SinH => OpDef { bytecode: Some(Bytecode { code: 0x63, since: V::V13_1, fields: BC_UNARY }), ..float_unary!(Opcode::SinH, "sinh", "Element-wise hyperbolic sine") },
    Sin => OpDef { bytecode: Some(Bytecode { code: 0x62, since: V::V13_1, fields: BC_UNARY }), ..float_unary!(Opcode::Sin, "sin", "Element-wise sine") },
    Sqrt => OpDef {
        bytecode: Some(Bytecode { code: 0x64, since: V::V13_1, fields: &[
            F::Results,
            F::Flags(BC_FTZ, V::V13_1),
            F::Enum("rounding_mode"),
            F::Operand("source"),
        ] }),
        attrs: &[ROUNDING, FTZ],
        syntax: Syntax::Format(
            "$source custom<SqrtRounding>($rounding_mode) (`flush_to_zero` $flush_to_zero^)? attr-dict `:` type($result)",
        ),
        ..float_unary!(Opcode::Sqrt, "sqrt", "Element-wise square root")
    },
    SubF => OpDef { bytecode: Some(Bytecode { code: 0x67, since: V::V13_1, fields: BC_FLOAT_ROUNDED }), ..float_rounded!(Opcode::SubF, "subf", "Element-wise floating-point subtraction") },
    Tan => OpDef { bytecode: Some(Bytecode { code: 0x69, since: V::V13_1, fields: BC_UNARY }), ..float_unary!(Opcode::Tan, "tan", "Element-wise tangent") },
    TanHF => OpDef { since: "spec", ..float_unary!(Opcode::TanHF, "tanhf", "Element-wise hyperbolic tangent (alternative name)") },
    TanH => OpDef {
        bytecode: Some(Bytecode { code: 0x6A, since: V::V13_1, fields: &[
            F::Results,
            F::EnumSince("rounding_mode", V::V13_2),
            F::Operand("source")
        ] }),
        attrs: &[ROUNDING_FULL],
        syntax: Syntax::Format("$source custom<ApproxRounding>($rounding_mode) attr-dict `:` type($result)"),
        ..float_unary!(Opcode::TanH, "tanh", "Element-wise hyperbolic tangent")
    },

    // ---------------------------------------------------------------- integer and bitwise
    AbsI => OpDef { bytecode: Some(Bytecode { code: 0x01, since: V::V13_1, fields: BC_UNARY }), ..int_unary!(Opcode::AbsI, "absi", "Element-wise integer absolute value") },
    AddI => OpDef { bytecode: Some(Bytecode { code: 0x03, since: V::V13_1, fields: BC_INT_OVERFLOW }), ..int_overflow!(Opcode::AddI, "addi", "Element-wise integer addition", true) },
    AndI => OpDef { bytecode: Some(Bytecode { code: 0x04, since: V::V13_1, fields: BC_BINARY }), ..bitwise!(Opcode::AndI, "andi", "Element-wise bitwise and") },
    Brev => bit_unary!(Opcode::Brev, "brev", "Element-wise bit reversal"),
    Clz => bit_unary!(Opcode::Clz, "clz", "Element-wise count of leading zeros"),
    CmpI => OpDef {
        bytecode: Some(Bytecode { code: 0x0F, since: V::V13_1, fields: &[
            F::Results,
            F::Enum("comparison_predicate"),
            F::Enum("signedness"),
            F::Operand("lhs"),
            F::Operand("rhs"),
        ] }),
        opcode: Opcode::CmpI,
        name: "cmpi",
        summary: "Element-wise integer comparison",
        family: Family::Integer,
        operands: BINARY_I,
        results: &[one("result", BT)],
        attrs: &[req("comparison_predicate", AttrKind::Enum(EnumKind::ComparisonPredicate)), SIGNEDNESS],
        traits: PURE_EW,
        same_type: &[&["lhs", "rhs"]],
        syntax: Syntax::Format(
            "custom<Predicate>($comparison_predicate) $lhs `,` $rhs `,` custom<Signedness>($signedness) attr-dict `:` type($lhs) (`->` type($result)^)?",
        ),
        infer: Infer::Comparison,
        ..DEFAULT
    },
    Ctz => bit_unary!(Opcode::Ctz, "ctz", "Element-wise count of trailing zeros"),
    DivI => OpDef {
        bytecode: Some(Bytecode { code: 0x15, since: V::V13_1, fields: &[
            F::Results,
            F::Enum("signedness"),
            F::Enum("rounding"),
            F::Operand("lhs"),
            F::Operand("rhs"),
        ] }),
        attrs: &[
            SIGNEDNESS,
            AttrDef { name: "rounding", kind: AttrKind::Enum(EnumKind::RoundingMode), presence: Presence::DefaultEnum(1) },
        ],
        traits: Traits::ELEMENTWISE.or(Traits::SAME_SHAPE),
        syntax: Syntax::Format(
            "$lhs `,` $rhs custom<Signedness>($signedness) (`rounding` `` $rounding^)? attr-dict `:` type($result)",
        ),
        ..int_signed!(Opcode::DivI, "divi", "Element-wise integer division", false)
    },
    MaxI => OpDef { bytecode: Some(Bytecode { code: 0x46, since: V::V13_1, fields: BC_INT_SIGNED }), ..int_signed!(Opcode::MaxI, "maxi", "Element-wise integer maximum", true) },
    MinI => OpDef { bytecode: Some(Bytecode { code: 0x48, since: V::V13_1, fields: BC_INT_SIGNED }), ..int_signed!(Opcode::MinI, "mini", "Element-wise integer minimum", true) },
    MulHI => OpDef {
        bytecode: Some(Bytecode { code: 0x4D, since: V::V13_1, fields: &[F::Results, F::Operand("x"), F::Operand("y")] }),
        opcode: Opcode::MulHI,
        name: "mulhi",
        aliases: &["mulhii"],
        summary: "Element-wise high half of an integer product",
        family: Family::Integer,
        operands: &[one("x", IT), one("y", IT)],
        results: RESULT_I,
        traits: PURE_EW_C,
        same_type: &[&["x", "y", "result"]],
        syntax: Syntax::Format("$x `,` $y attr-dict `:` type($result)"),
        ..DEFAULT
    },
    MulI => OpDef { bytecode: Some(Bytecode { code: 0x4E, since: V::V13_1, fields: BC_INT_OVERFLOW }), ..int_overflow!(Opcode::MulI, "muli", "Element-wise integer multiplication", true) },
    NegSI => OpDef {
        bytecode: Some(Bytecode { code: 0x50, since: V::V13_1, fields: &[F::Results, F::EnumSince("overflow", V::V13_2), F::Operand("source")] }),
        aliases: &["negi"],
        // NVIDIA's 13.2 `negi` has an overflow flag (`no_signed_wrap` makes negating the
        // minimum value undefined); the spec's `negsi` has none, so it is optional.
        attrs: &[OVERFLOW],
        syntax: Syntax::Format("$source (`overflow` `` $overflow^)? attr-dict `:` type($result)"),
        ..int_unary!(Opcode::NegSI, "negsi", "Element-wise integer negation")
    },
    NotI => OpDef { since: "spec", ..int_unary!(Opcode::NotI, "noti", "Element-wise bitwise not") },
    OrI => OpDef { bytecode: Some(Bytecode { code: 0x52, since: V::V13_1, fields: BC_BINARY }), ..bitwise!(Opcode::OrI, "ori", "Element-wise bitwise or") },
    PopCnt => bit_unary!(Opcode::PopCnt, "popcnt", "Element-wise population count"),
    RemI => OpDef { bytecode: Some(Bytecode { code: 0x5A, since: V::V13_1, fields: BC_INT_SIGNED }), ..int_signed!(Opcode::RemI, "remi", "Element-wise integer remainder", false) },
    ShLI => OpDef { bytecode: Some(Bytecode { code: 0x60, since: V::V13_1, fields: BC_INT_OVERFLOW }), ..int_overflow!(Opcode::ShLI, "shli", "Element-wise left shift", false) },
    ShRI => OpDef { bytecode: Some(Bytecode { code: 0x61, since: V::V13_1, fields: BC_INT_SIGNED }), ..int_signed!(Opcode::ShRI, "shri", "Element-wise right shift", false) },
    SubI => OpDef { bytecode: Some(Bytecode { code: 0x68, since: V::V13_1, fields: BC_INT_OVERFLOW }), ..int_overflow!(Opcode::SubI, "subi", "Element-wise integer subtraction", false) },
    XOrI => OpDef { bytecode: Some(Bytecode { code: 0x6C, since: V::V13_1, fields: BC_BINARY }), ..bitwise!(Opcode::XOrI, "xori", "Element-wise bitwise xor") },

    // ---------------------------------------------------------------- conversions
    Bitcast => OpDef { bytecode: Some(Bytecode { code: 0x09, since: V::V13_1, fields: BC_CAST }), ..cast!(
        Opcode::Bitcast, "bitcast", "Reinterpret the bits of a tile as another element type", NT, NT,
        &[Check::SameShape(&["source", "result"])]
    ) },
    ExtI => OpDef { bytecode: Some(Bytecode { code: 0x25, since: V::V13_1, fields: &[F::Results, F::Enum("signedness"), F::Operand("from")] }), ..conversion!(
        Opcode::ExtI, "exti", "Extend the width of an integer tile", IT4, IT4, &[SIGNEDNESS],
        "$from custom<Signedness>($signedness) attr-dict `:` type($from) `->` type($to)",
    ) },
    FToF => OpDef { bytecode: Some(Bytecode { code: 0x2A, since: V::V13_1, fields: &[F::Results, F::Enum("rounding_mode"), F::Operand("from")] }), ..conversion!(
        Opcode::FToF, "ftof", "Convert between floating-point types", ANY_FT, ANY_FT, &[ROUNDING_DEFAULT],
        "$from custom<Rounding>($rounding_mode) attr-dict `:` type($from) `->` type($to)",
    ) },
    FToI => OpDef { bytecode: Some(Bytecode { code: 0x2B, since: V::V13_1, fields: &[
            F::Results,
            F::Enum("signedness"),
            F::Enum("rounding_mode"),
            F::Operand("from")
        ] }), ..conversion!(
        Opcode::FToI, "ftoi", "Convert floating-point values to integers", ANY_FT, IT, &[SIGNEDNESS, ROUNDING],
        "$from custom<Signedness>($signedness) custom<IntRounding>($rounding_mode) attr-dict `:` type($from) `->` type($to)",
    ) },
    IToF => OpDef { bytecode: Some(Bytecode { code: 0x3B, since: V::V13_1, fields: &[
            F::Results,
            F::Enum("signedness"),
            F::Enum("rounding_mode"),
            F::Operand("from")
        ] }), ..conversion!(
        Opcode::IToF, "itof", "Convert integers to floating-point values", IT, ANY_FT, &[SIGNEDNESS, ROUNDING],
        "$from custom<Signedness>($signedness) custom<Rounding>($rounding_mode) attr-dict `:` type($from) `->` type($to)",
    ) },
    IntToPtr => OpDef { bytecode: Some(Bytecode { code: 0x33, since: V::V13_1, fields: BC_CAST }), ..cast!(Opcode::IntToPtr, "int_to_ptr", "Convert a tile of i64 to a tile of pointers", TyC::Tile(Elems::I64), PT) },
    PtrToInt => OpDef { bytecode: Some(Bytecode { code: 0x56, since: V::V13_1, fields: BC_CAST }), ..cast!(Opcode::PtrToInt, "ptr_to_int", "Convert a tile of pointers to a tile of i64", PT, TyC::Tile(Elems::I64)) },
    PtrToPtr => OpDef { bytecode: Some(Bytecode { code: 0x57, since: V::V13_1, fields: BC_CAST }), ..cast!(Opcode::PtrToPtr, "ptr_to_ptr", "Reinterpret a tile of pointers as another pointer type", PT, PT) },
    TruncI => OpDef { bytecode: Some(Bytecode { code: 0x6B, since: V::V13_1, fields: &[F::Results, F::Enum("overflow"), F::Operand("from")] }), ..conversion!(
        Opcode::TruncI, "trunci", "Truncate the width of an integer tile", IT4, IT4, &[OVERFLOW],
        "$from (`overflow` `` $overflow^)? attr-dict `:` type($from) `->` type($to)",
    ) },

    // ---------------------------------------------------------------- control flow
    Assert => OpDef {
        bytecode: Some(Bytecode { code: 0x05, since: V::V13_1, fields: &[F::Str("message"), F::Operand("condition")] }),
        opcode: Opcode::Assert,
        name: "assert",
        summary: "Report an error if any element of the condition is false",
        family: Family::ControlFlow,
        operands: &[one("condition", BT)],
        attrs: &[req("message", AttrKind::String)],
        effects: Effects::SideEffect,
        syntax: Syntax::Format("$condition `,` $message attr-dict `:` type($condition)"),
        ..DEFAULT
    },
    Break => OpDef { bytecode: Some(Bytecode { code: 0x0A, since: V::V13_1, fields: BC_TERMINATOR }), ..terminator!(Opcode::Break, "break", "Break from the innermost loop", &["if", "loop"], false) },
    Continue => OpDef { bytecode: Some(Bytecode { code: 0x11, since: V::V13_1, fields: BC_TERMINATOR }), ..terminator!(Opcode::Continue, "continue", "Continue with the next loop iteration", &["for", "if", "loop"], false) },
    For => OpDef {
        bytecode: Some(Bytecode { code: 0x29, since: V::V13_1, fields: &[
            F::SizedResults,
            F::Flags(&[B::Unit("unsignedCmp")], V::V13_2),
            F::AllOperands
        ] }),
        opcode: Opcode::For,
        name: "for",
        summary: "Loop over an integer range",
        family: Family::ControlFlow,
        operands: &[
            one("lowerBound", TyC::Scalar(Elems::INTS)),
            one("upperBound", TyC::Scalar(Elems::INTS)),
            one("step", TyC::Scalar(Elems::INTS)),
            var("initValues", ANY),
        ],
        results: &[var("resultValues", ANY)],
        attrs: &[optional("unsignedCmp", AttrKind::Unit)],
        regions: &[RegionDef { name: "region", implicit_terminator: Some(Opcode::Continue), optional: false }],
        traits: Traits::DEFAULT_DIALECT,
        effects: Effects::Recursive,
        same_type: &[&["lowerBound", "upperBound", "step"]],
        syntax: Syntax::Custom(CustomSyntax::For),
        names: NameHint::For,
        ..DEFAULT
    },
    If => OpDef {
        bytecode: Some(Bytecode { code: 0x32, since: V::V13_1, fields: &[F::SizedResults, F::Operand("condition")] }),
        opcode: Opcode::If,
        name: "if",
        summary: "Conditional execution",
        family: Family::ControlFlow,
        operands: &[one("condition", TyC::Scalar(Elems::I1))],
        results: &[var("results", ANY)],
        regions: &[
            RegionDef { name: "thenRegion", implicit_terminator: Some(Opcode::Yield), optional: false },
            RegionDef { name: "elseRegion", implicit_terminator: Some(Opcode::Yield), optional: true },
        ],
        traits: Traits::DEFAULT_DIALECT.or(Traits::NO_REGION_ARGS),
        effects: Effects::Recursive,
        syntax: Syntax::Format(
            "$condition (`->` `(` type($results)^ `)`)? custom<IfRegion>($thenRegion) (`else` custom<IfRegion>($elseRegion)^)? attr-dict",
        ),
        canon: Canon {
            fold: Some(Rule::FoldIfInversion),
            patterns: &[
                Rule::RemoveUnusedResults,
                Rule::ReplaceYieldWithValue,
                Rule::RemoveStaticCondition,
                Rule::ConvertToSelect,
                Rule::RemoveEmptyElseBranch,
                Rule::CombineIfs,
                Rule::CombineNestedIfs,
                Rule::MoveTerminatorToParent,
            ],
        },
        ..DEFAULT
    },
    Loop => OpDef {
        bytecode: Some(Bytecode { code: 0x41, since: V::V13_1, fields: &[F::SizedResults, F::AllOperands] }),
        opcode: Opcode::Loop,
        name: "loop",
        summary: "Loop until a break",
        family: Family::ControlFlow,
        operands: &[var("initValues", ANY)],
        results: &[var("resultValues", ANY)],
        regions: &[RegionDef { name: "region", implicit_terminator: Some(Opcode::Continue), optional: false }],
        traits: Traits::DEFAULT_DIALECT,
        effects: Effects::Recursive,
        syntax: Syntax::Custom(CustomSyntax::Loop),
        ..DEFAULT
    },
    Return => OpDef { bytecode: Some(Bytecode { code: 0x5C, since: V::V13_1, fields: BC_TERMINATOR }), ..terminator!(Opcode::Return, "return", "Return from a function or kernel", &["entry", "if", "testing$func"], false) },
    Yield => OpDef { bytecode: Some(Bytecode { code: 0x6D, since: V::V13_1, fields: BC_TERMINATOR }), ..terminator!(Opcode::Yield, "yield", "Yield values to the parent operation", &["if", "reduce", "scan"], true) },

    // ---------------------------------------------------------------- token-ordered memory
    JoinTokens => OpDef {
        bytecode: Some(Bytecode { code: 0x3C, since: V::V13_1, fields: &[F::SizedResults, F::AllOperands] }),
        opcode: Opcode::JoinTokens,
        name: "join_tokens",
        summary: "Produce a token that depends on all input tokens",
        family: Family::TokenMemory,
        operands: &[var("tokens", TOKEN)],
        results: &[one("result", TOKEN)],
        traits: PURE,
        syntax: Syntax::Format("$tokens attr-dict `:` type($result)"),
        ..DEFAULT
    },
    Alloca => OpDef {
        bytecode: Some(Bytecode { code: 0x71, since: V::V13_3, fields: &[
            F::Results,
            F::Flags(&[B::Unit("global")], V::V13_3),
            F::Int("num_elem"),
            F::Int("alignment"),
        ] }),
        opcode: Opcode::Alloca,
        name: "alloca",
        summary: "Allocate memory for the lifetime of the enclosing block",
        family: Family::TokenMemory,
        since: "13.3",
        results: &[one("result", TyC::Scalar(Elems::PTR))],
        attrs: &[
            req("num_elem", AttrKind::I64),
            req("alignment", AttrKind::I64),
            optional("global", AttrKind::Unit),
        ],
        checks: &[Check::MinValue("num_elem", 0), Check::MinValue("alignment", 0)],
        effects: Effects::SideEffect,
        syntax: Syntax::Format(
            "`num_elem` `=` $num_elem `,` `alignment` `=` $alignment (`global` $global^)? attr-dict `:` type($result)",
        ),
        ..DEFAULT
    },
    LoadPtrTko => OpDef {
        bytecode: Some(Bytecode { code: 0x3D, since: V::V13_1, fields: &[
            F::Results,
            F::Flags(
                &[
                    B::Present("memory_scope"),
                    B::Present("optimization_hints"),
                    B::Present("mask"),
                    B::Present("paddingValue"),
                    B::Present("token"),
                ],
                V::V13_1
            ),
            F::Enum("memory_ordering_semantics"),
            F::OptEnum("memory_scope"),
            F::OptHints("optimization_hints"),
            F::Operand("source"),
            F::OptOperand("mask"),
            F::OptOperand("paddingValue"),
            F::OptOperand("token"),
        ] }),
        opcode: Opcode::LoadPtrTko,
        name: "load_ptr_tko",
        summary: "Gather a tile from global memory through a tile of pointers",
        family: Family::TokenMemory,
        operands: &[one("source", PT), opt("mask", BT), opt("paddingValue", NT), opt("token", TOKEN)],
        results: &[one("result", TILE), one("result_token", TOKEN)],
        attrs: &[ORDERING, OPT_SCOPE, HINTS, SEGMENTS],
        traits: Traits::ATTR_SIZED_OPERANDS,
        effects: Effects::Read,
        syntax: Syntax::Format(
            "$memory_ordering_semantics ($memory_scope^)? $source (`,` $mask^)? (`,` $paddingValue^)? (`token` `` `=` `` $token^)? (`optimization_hints` `=` $optimization_hints^)? attr-dict `:` type($source) (`,` type($mask)^)? (`,` type($paddingValue)^)? `->` type($result) `,` type($result_token)",
        ),
        names: NameHint::Slots,
        ..DEFAULT
    },
    MakeToken => OpDef {
        bytecode: Some(Bytecode { code: 0x44, since: V::V13_1, fields: &[F::Results] }),
        opcode: Opcode::MakeToken,
        name: "make_token",
        summary: "Create a fresh token",
        family: Family::TokenMemory,
        results: &[one("result", TOKEN)],
        traits: PURE,
        syntax: Syntax::Format("attr-dict `:` type($result)"),
        ..DEFAULT
    },
    StorePtrTko => OpDef {
        bytecode: Some(Bytecode { code: 0x65, since: V::V13_1, fields: &[
            F::Results,
            F::Flags(
                &[
                    B::Present("memory_scope"),
                    B::Present("optimization_hints"),
                    B::Present("mask"),
                    B::Present("token"),
                ],
                V::V13_1
            ),
            F::Enum("memory_ordering_semantics"),
            F::OptEnum("memory_scope"),
            F::OptHints("optimization_hints"),
            F::Operand("destination"),
            F::Operand("value"),
            F::OptOperand("mask"),
            F::OptOperand("token"),
        ] }),
        opcode: Opcode::StorePtrTko,
        name: "store_ptr_tko",
        summary: "Scatter a tile to global memory through a tile of pointers",
        family: Family::TokenMemory,
        operands: &[one("destination", PT), one("value", TILE), opt("mask", BT), opt("token", TOKEN)],
        results: RESULT_TOKEN,
        attrs: &[ORDERING, OPT_SCOPE, HINTS, SEGMENTS],
        traits: Traits::ATTR_SIZED_OPERANDS,
        effects: Effects::Write,
        syntax: Syntax::Format(
            "$memory_ordering_semantics ($memory_scope^)? $destination `,` $value (`,` $mask^)? (`token` `` `=` `` $token^)? (`optimization_hints` `=` $optimization_hints^)? attr-dict `:` type($destination) `,` type($value) (`,` type($mask)^)? `->` type($result_token)",
        ),
        ..DEFAULT
    },

    // ---------------------------------------------------------------- atomics
    AtomicCasTko => OpDef {
        bytecode: Some(Bytecode { code: 0x07, since: V::V13_1, fields: &[
            F::Results,
            F::Flags(&[B::Present("mask"), B::Present("token")], V::V13_1),
            F::Enum("memory_ordering_semantics"),
            F::Enum("memory_scope"),
            F::Operand("pointers"),
            F::Operand("cmp"),
            F::Operand("val"),
            F::OptOperand("mask"),
            F::OptOperand("token"),
        ] }),
        opcode: Opcode::AtomicCasTko,
        name: "atomic_cas_tko",
        summary: "Atomic compare-and-swap",
        family: Family::Atomics,
        operands: &[one("pointers", PT), one("cmp", TILE), one("val", TILE), opt("mask", BT), opt("token", TOKEN)],
        results: &[one("result", TILE), one("result_token", TOKEN)],
        attrs: &[ORDERING, SCOPE, SEGMENTS],
        // The mask's shape is checked by the atomics verifier, after the element type,
        // where NVIDIA's tool checks it.
        checks: &[Check::SameShape(&["pointers", "cmp", "val", "result"])],
        traits: Traits::ATTR_SIZED_OPERANDS,
        effects: Effects::ReadWrite,
        same_type: &[&["cmp", "val", "result"]],
        syntax: Syntax::Format(
            "$memory_ordering_semantics $memory_scope $pointers `,` $cmp `,` $val (`,` $mask^)? (`token` `` `=` `` $token^)? attr-dict `:` type($pointers) `,` type($val) (`,` type($mask)^)? `->` type($result) `,` type($result_token)",
        ),
        names: NameHint::Slots,
        ..DEFAULT
    },
    AtomicLoadTko => OpDef {
        opcode: Opcode::AtomicLoadTko,
        name: "atomic_load_tko",
        summary: "Atomic load",
        family: Family::Atomics,
        since: "spec",
        operands: &[one("ptr", PT), opt("mask", BT), opt("token", TOKEN)],
        results: &[one("result", TILE), one("result_token", TOKEN)],
        attrs: &[ORDERING, SCOPE, SEGMENTS],
        traits: Traits::ATTR_SIZED_OPERANDS,
        effects: Effects::Read,
        syntax: Syntax::Format(
            "$memory_ordering_semantics $memory_scope $ptr (`,` $mask^)? (`token` `` `=` `` $token^)? attr-dict `:` type($ptr) (`,` type($mask)^)? `->` type($result) `,` type($result_token)",
        ),
        names: NameHint::Slots,
        ..DEFAULT
    },
    AtomicRmwTko => OpDef {
        bytecode: Some(Bytecode { code: 0x08, since: V::V13_1, fields: &[
            F::Results,
            F::Flags(&[B::Present("mask"), B::Present("token")], V::V13_1),
            F::Enum("memory_ordering_semantics"),
            F::Enum("memory_scope"),
            F::Enum("mode"),
            F::Operand("pointers"),
            F::Operand("arg"),
            F::OptOperand("mask"),
            F::OptOperand("token"),
        ] }),
        opcode: Opcode::AtomicRmwTko,
        name: "atomic_rmw_tko",
        summary: "Atomic read-modify-write",
        family: Family::Atomics,
        operands: &[one("pointers", PT), one("arg", TILE), opt("mask", BT), opt("token", TOKEN)],
        results: &[one("result", TILE), one("result_token", TOKEN)],
        checks: &[
            Check::SameShape(&["pointers", "arg", "result"]),
            Check::SameShape(&["pointers", "arg", "mask"]),
        ],
        attrs: &[ORDERING, SCOPE, req("mode", AttrKind::Enum(EnumKind::AtomicRmwMode)), SEGMENTS],
        traits: Traits::ATTR_SIZED_OPERANDS,
        effects: Effects::ReadWrite,
        same_type: &[&["arg", "result"]],
        syntax: Syntax::Format(
            "$memory_ordering_semantics $memory_scope $pointers `,` $mode `,` $arg (`,` $mask^)? (`token` `` `=` `` $token^)? attr-dict `:` type($pointers) `,` type($arg) (`,` type($mask)^)? `->` type($result) `,` type($result_token)",
        ),
        names: NameHint::Slots,
        ..DEFAULT
    },
    AtomicRedViewTko => OpDef {
        bytecode: Some(Bytecode { code: 0x75, since: V::V13_3, fields: &[
            F::SizedResults,
            F::Flags(&[B::Present("token")], V::V13_3),
            F::Enum("memory_ordering_semantics"),
            F::Enum("memory_scope"),
            F::Enum("mode"),
            F::Operand("view"),
            F::Sized("index"),
            F::Operand("value"),
            F::OptOperand("token"),
        ] }),
        opcode: Opcode::AtomicRedViewTko,
        name: "atomic_red_view_tko",
        summary: "View-based atomic reduction on global memory",
        family: Family::Atomics,
        since: "13.3",
        operands: &[one("view", TyC::View), var("index", TyC::VIEW_INDEX), one("value", TILE), opt("token", TOKEN)],
        results: RESULT_TOKEN,
        attrs: &[ORDERING, SCOPE, req("mode", AttrKind::Enum(EnumKind::AtomicRmwMode)), SEGMENTS],
        traits: Traits::ATTR_SIZED_OPERANDS,
        effects: Effects::ReadWrite,
        syntax: Syntax::Format(
            "$memory_ordering_semantics ($memory_scope^)? $view `[` $index `]` `,` $mode `,` $value (`token` `=` $token^)? attr-dict-with-keyword `:` type($value) `,` type($view) (`,` splat-type($index)^)? `->` type($result_token)",
        ),
        ..DEFAULT
    },
    AtomicStoreTko => OpDef {
        opcode: Opcode::AtomicStoreTko,
        name: "atomic_store_tko",
        summary: "Atomic store",
        family: Family::Atomics,
        since: "spec",
        operands: &[one("ptr", PT), one("value", TILE), opt("mask", BT), opt("token", TOKEN)],
        results: RESULT_TOKEN,
        attrs: &[ORDERING, SCOPE, SEGMENTS],
        traits: Traits::ATTR_SIZED_OPERANDS,
        effects: Effects::Write,
        syntax: Syntax::Format(
            "$memory_ordering_semantics $memory_scope $ptr `,` $value (`,` $mask^)? (`token` `` `=` `` $token^)? attr-dict `:` type($ptr) `,` type($value) (`,` type($mask)^)? `->` type($result_token)",
        ),
        ..DEFAULT
    },

    // ---------------------------------------------------------------- views and shapes
    Broadcast => OpDef { bytecode: Some(Bytecode { code: 0x0B, since: V::V13_1, fields: BC_CAST }), ..shape_cast!(
        Opcode::Broadcast, "broadcast", "Broadcast size-1 dimensions of a tile", "bcast",
        &[Check::SameOperandsAndResultElementType, Check::SameRank(&["source", "result"])]
    ) },
    Cat => OpDef {
        bytecode: Some(Bytecode { code: 0x0C, since: V::V13_1, fields: &[F::Results, F::Int("dim"), F::Operand("lhs"), F::Operand("rhs")] }),
        opcode: Opcode::Cat,
        name: "cat",
        summary: "Concatenate two tiles along a dimension",
        family: Family::ViewAndShape,
        operands: &[one("lhs", TILE), one("rhs", TILE)],
        results: &[one("result", TILE)],
        attrs: &[req("dim", AttrKind::I64)],
        traits: PURE,
        checks: &[
            Check::SameElementType(&["lhs", "rhs", "result"]),
            Check::SameRank(&["lhs", "rhs", "result"]),
        ],
        syntax: Syntax::Format(
            "$lhs `,` $rhs `dim` `=` $dim attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)",
        ),
        ..DEFAULT
    },
    Extract => OpDef {
        bytecode: Some(Bytecode { code: 0x26, since: V::V13_1, fields: &[F::SizedResults, F::AllOperands] }),
        opcode: Opcode::Extract,
        name: "extract",
        summary: "Extract a subtile",
        family: Family::ViewAndShape,
        operands: &[one("source", TILE), var("indices", TyC::Scalar(Elems::I32))],
        results: &[one("result", TILE)],
        traits: PURE,
        checks: &[Check::SameRank(&["source", "result"])],
        syntax: Syntax::Format("$source `[` $indices `]` attr-dict `:` type($source) `->` type($result)"),
        ..DEFAULT
    },
    GetIndexSpaceShape => OpDef { bytecode: Some(Bytecode { code: 0x2D, since: V::V13_1, fields: &[F::SizedResults, F::Operand("src")] }), ..get_shape!(Opcode::GetIndexSpaceShape, "get_index_space_shape", "Shape of the index space of a view", TyC::View) },
    GetTensorShape => OpDef { bytecode: Some(Bytecode { code: 0x2F, since: V::V13_1, fields: &[F::SizedResults, F::Operand("src")] }), ..get_shape!(Opcode::GetTensorShape, "get_tensor_shape", "Shape of the tensor behind a tensor view", TyC::TensorView) },
    Iota => OpDef {
        bytecode: Some(Bytecode { code: 0x3A, since: V::V13_1, fields: &[F::Results] }),
        opcode: Opcode::Iota,
        name: "iota",
        summary: "A 1-d tile holding 0, 1, ..., n-1",
        family: Family::ViewAndShape,
        results: &[one("result", IT)],
        traits: PURE,
        syntax: Syntax::Format("attr-dict `:` type($result)"),
        ..DEFAULT
    },
    LoadViewTko => OpDef {
        bytecode: Some(Bytecode { code: 0x3E, since: V::V13_1, fields: &[
            F::SizedResults,
            F::Flags(
                &[
                    B::Present("memory_scope"),
                    B::Present("optimization_hints"),
                    B::Present("token"),
                ],
                V::V13_1
            ),
            F::Enum("memory_ordering_semantics"),
            F::OptEnum("memory_scope"),
            F::OptHints("optimization_hints"),
            F::Operand("view"),
            F::Sized("index"),
            F::OptOperand("token"),
        ] }),
        opcode: Opcode::LoadViewTko,
        name: "load_view_tko",
        summary: "Load a tile from a view",
        family: Family::TokenMemory,
        operands: &[one("view", TyC::View), var("index", TyC::VIEW_INDEX), opt("token", TOKEN)],
        results: &[one("tile", TILE), one("result_token", TOKEN)],
        attrs: &[ORDERING, OPT_SCOPE, HINTS, SEGMENTS],
        traits: Traits::ATTR_SIZED_OPERANDS,
        effects: Effects::Read,
        syntax: Syntax::Format(
            "custom<Memory>($memory_ordering_semantics, $memory_scope) $view `[` $index `]` (`token` `=` $token^)? (`optimization_hints` `=` $optimization_hints^)? attr-dict-with-keyword `:` type($view) (`,` splat-type($index)^)? `->` type($tile) `,` type($result_token)",
        ),
        names: NameHint::Slots,
        ..DEFAULT
    },
    MakePartitionView => OpDef {
        bytecode: Some(Bytecode { code: 0x42, since: V::V13_1, fields: &[F::Results, F::Operand("tensor_view")] }),
        opcode: Opcode::MakePartitionView,
        name: "make_partition_view",
        summary: "Partition a tensor view into tiles",
        family: Family::ViewAndShape,
        operands: &[one("tensor_view", TyC::TensorView)],
        results: &[one("result", TyC::View)],
        traits: PURE,
        syntax: Syntax::Custom(CustomSyntax::MakePartitionView),
        names: NameHint::Fixed("pview"),
        ..DEFAULT
    },
    MakeStridedView => OpDef {
        bytecode: Some(Bytecode { code: 0x74, since: V::V13_3, fields: &[F::Results, F::Operand("tensor_view")] }),
        opcode: Opcode::MakeStridedView,
        name: "make_strided_view",
        summary: "Create a strided view from a tensor view",
        family: Family::ViewAndShape,
        since: "13.3",
        operands: &[one("tensor_view", TyC::TensorView)],
        results: &[one("result", TyC::View)],
        traits: PURE,
        syntax: Syntax::Custom(CustomSyntax::MakePartitionView),
        names: NameHint::Fixed("sview"),
        ..DEFAULT
    },
    MakeGatherScatterView => OpDef {
        bytecode: Some(Bytecode { code: 0x73, since: V::V13_3, fields: &[F::Results, F::Operand("tensor_view")] }),
        opcode: Opcode::MakeGatherScatterView,
        name: "make_gather_scatter_view",
        summary: "Create a gather/scatter view from a tensor view",
        family: Family::ViewAndShape,
        since: "13.3",
        operands: &[one("tensor_view", TyC::TensorView)],
        results: &[one("result", TyC::View)],
        traits: PURE,
        syntax: Syntax::Custom(CustomSyntax::MakePartitionView),
        names: NameHint::Fixed("gsview"),
        ..DEFAULT
    },
    MakeTensorView => OpDef {
        bytecode: Some(Bytecode { code: 0x43, since: V::V13_1, fields: &[
            F::SizedResults,
            F::Operand("base"),
            F::Sized("dynamicShape"),
            F::Sized("dynamicStrides"),
        ] }),
        opcode: Opcode::MakeTensorView,
        name: "make_tensor_view",
        summary: "Create a tensor view from a pointer, shape and strides",
        family: Family::ViewAndShape,
        operands: &[
            one("base", TyC::Scalar(Elems::PTR)),
            var("dynamicShape", TyC::INDEX),
            var("dynamicStrides", TyC::INDEX),
        ],
        results: &[one("result", TyC::TensorView)],
        attrs: &[SEGMENTS],
        traits: PURE.or(Traits::ATTR_SIZED_OPERANDS),
        syntax: Syntax::Custom(CustomSyntax::MakeTensorView),
        names: NameHint::Fixed("tview"),
        ..DEFAULT
    },
    Offset => OpDef {
        bytecode: Some(Bytecode { code: 0x51, since: V::V13_1, fields: &[F::Results, F::Operand("ptr"), F::Operand("offset")] }),
        opcode: Opcode::Offset,
        name: "offset",
        summary: "Advance a tile of pointers by a tile of offsets",
        family: Family::ViewAndShape,
        operands: &[one("ptr", PT), one("offset", IT)],
        results: &[one("result", PT)],
        traits: PURE_EW,
        checks: &[Check::SameType(&["result", "ptr"])],
        same_type: &[&["ptr", "result"]],
        syntax: Syntax::Format("$ptr `,` $offset attr-dict `:` type($ptr) `,` type($offset) `->` type($result)"),
        ..DEFAULT
    },
    Permute => OpDef {
        bytecode: Some(Bytecode { code: 0x53, since: V::V13_1, fields: &[F::Results, F::I32Array("permutation"), F::Operand("source")] }),
        opcode: Opcode::Permute,
        name: "permute",
        summary: "Permute the dimensions of a tile",
        family: Family::ViewAndShape,
        operands: &[one("source", TILE)],
        results: &[one("result", TILE)],
        attrs: &[req("permutation", AttrKind::DenseI32Array)],
        traits: PURE,
        checks: &[
            Check::SameRank(&["source", "result"]),
            Check::SameElementType(&["source", "result"]),
        ],
        syntax: Syntax::Format("$source $permutation attr-dict `:` type($source) `->` type($result)"),
        ..DEFAULT
    },
    Pack => OpDef {
        bytecode: Some(Bytecode { code: 0x6F, since: V::V13_3, fields: BC_UNARY }),
        opcode: Opcode::Pack,
        name: "pack",
        summary: "Reinterpret a rank-1 tile as its bytes",
        family: Family::ViewAndShape,
        since: "13.3",
        operands: &[one("source", TyC::Tile(Elems::NUMBERS.or(Elems::I4)))],
        results: &[one("result", TyC::Tile(Elems::I8))],
        traits: PURE,
        checks: &[Check::SameRank(&["source", "result"])],
        syntax: FMT_CAST,
        ..DEFAULT
    },
    Unpack => OpDef {
        bytecode: Some(Bytecode { code: 0x70, since: V::V13_3, fields: BC_UNARY }),
        opcode: Opcode::Unpack,
        name: "unpack",
        summary: "Reinterpret the bytes of a rank-1 i8 tile as another element type",
        family: Family::ViewAndShape,
        since: "13.3",
        operands: &[one("source", TyC::Tile(Elems::I8))],
        results: &[one("result", TyC::Tile(Elems::NUMBERS.or(Elems::I4)))],
        traits: PURE,
        checks: &[Check::SameRank(&["source", "result"])],
        syntax: FMT_CAST,
        ..DEFAULT
    },
    Reshape => OpDef { bytecode: Some(Bytecode { code: 0x5B, since: V::V13_1, fields: BC_CAST }), ..shape_cast!(
        Opcode::Reshape, "reshape", "Change the shape of a tile", "reshape",
        &[Check::SameOperandsAndResultElementType]
    ) },
    Select => OpDef {
        bytecode: Some(Bytecode { code: 0x5F, since: V::V13_1, fields: &[
            F::Results,
            F::Operand("cond"),
            F::Operand("val_if_true"),
            F::Operand("val_if_false"),
        ] }),
        opcode: Opcode::Select,
        name: "select",
        summary: "Element-wise choice between two tiles",
        family: Family::ViewAndShape,
        operands: &[one("cond", BT), one("val_if_true", TILE), one("val_if_false", TILE)],
        results: &[one("result", TILE)],
        traits: PURE_EW,
        checks: &[Check::SameShape(&["cond", "val_if_true", "val_if_false", "result"])],
        same_type: &[&["val_if_true", "val_if_false", "result"]],
        syntax: Syntax::Format("$cond `,` $val_if_true `,` $val_if_false attr-dict `:` type($cond) `,` type($result)"),
        canon: Canon {
            fold: Some(Rule::FoldSelect),
            patterns: &[
                Rule::ReplaceConstantSelect,
                Rule::ReplaceIdenticalSelect,
                Rule::InverseConditionSelect,
                Rule::SelectI1ToNot,
                Rule::SelectToExtI,
            ],
        },
        ..DEFAULT
    },
    StoreViewTko => OpDef {
        bytecode: Some(Bytecode { code: 0x66, since: V::V13_1, fields: &[
            F::SizedResults,
            F::Flags(
                &[
                    B::Present("memory_scope"),
                    B::Present("optimization_hints"),
                    B::Present("token"),
                ],
                V::V13_1
            ),
            F::Enum("memory_ordering_semantics"),
            F::OptEnum("memory_scope"),
            F::OptHints("optimization_hints"),
            F::Operand("tile"),
            F::Operand("view"),
            F::Sized("index"),
            F::OptOperand("token"),
        ] }),
        opcode: Opcode::StoreViewTko,
        name: "store_view_tko",
        summary: "Store a tile into a view",
        family: Family::TokenMemory,
        operands: &[one("tile", TILE), one("view", TyC::View), var("index", TyC::VIEW_INDEX), opt("token", TOKEN)],
        results: RESULT_TOKEN,
        attrs: &[ORDERING, OPT_SCOPE, HINTS, SEGMENTS],
        traits: Traits::ATTR_SIZED_OPERANDS,
        effects: Effects::Write,
        syntax: Syntax::Format(
            "custom<Memory>($memory_ordering_semantics, $memory_scope) $tile `,` $view `[` $index `]` (`token` `=` $token^)? (`optimization_hints` `=` $optimization_hints^)? attr-dict-with-keyword `:` type($tile) `,` type($view) (`,` splat-type($index)^)? `->` type($result_token)",
        ),
        ..DEFAULT
    },

    // ---------------------------------------------------------------- aggregates
    Reduce => OpDef {
        bytecode: Some(Bytecode { code: 0x58, since: V::V13_1, fields: &[F::SizedResults, F::Int("dim"), F::Array("identities"), F::AllOperands] }),
        opcode: Opcode::Reduce,
        name: "reduce",
        summary: "Reduce tiles along a dimension",
        family: Family::Aggregate,
        operands: &[var("operands", TILE)],
        results: &[var("results", TILE)],
        attrs: &[req("dim", AttrKind::I32), req("identities", AttrKind::Array)],
        checks: &[Check::NonNegative("dim"), Check::SameOperandsShape],
        regions: &[RegionDef { name: "body", implicit_terminator: None, optional: false }],
        traits: Traits::DEFAULT_DIALECT,
        effects: Effects::Recursive,
        syntax: Syntax::Format(
            "$operands attr-dict ` ` `dim` `` `=` `` $dim `identities` `` `=` `` $identities `:` type($operands) `->` type($results) custom<ArgRegion>($body)",
        ),
        names: NameHint::Reduce,
        ..DEFAULT
    },
    Scan => OpDef {
        bytecode: Some(Bytecode { code: 0x5E, since: V::V13_1, fields: &[
            F::SizedResults,
            F::Int("dim"),
            F::Bool("reverse"),
            F::Array("identities"),
            F::AllOperands,
        ] }),
        opcode: Opcode::Scan,
        name: "scan",
        summary: "Prefix scan of tiles along a dimension",
        family: Family::Aggregate,
        operands: &[var("operands", TILE)],
        results: &[var("results", TILE)],
        attrs: &[req("dim", AttrKind::I32), req("reverse", AttrKind::Bool), req("identities", AttrKind::Array)],
        checks: &[Check::NonNegative("dim"), Check::SameOperandsShape],
        regions: &[RegionDef { name: "body", implicit_terminator: None, optional: false }],
        traits: Traits::DEFAULT_DIALECT,
        effects: Effects::Recursive,
        syntax: Syntax::Format(
            "$operands attr-dict ` ` `dim` `` `=` `` $dim `reverse` `` `=` `` $reverse `identities` `` `=` `` $identities `:` type($operands) `->` type($results) custom<ArgRegion>($body)",
        ),
        ..DEFAULT
    },

    // ---------------------------------------------------------------- mma
    MmaF => OpDef {
        bytecode: Some(Bytecode { code: 0x49, since: V::V13_1, fields: &[
            F::Results,
            F::Flags(&[B::Unit("fast_acc")], V::V13_3),
            F::Operand("lhs"),
            F::Operand("rhs"),
            F::Operand("acc"),
        ] }),
        opcode: Opcode::MmaF,
        name: "mmaf",
        summary: "Floating-point matrix multiply-accumulate",
        family: Family::Mma,
        operands: &[
            one("lhs", TyC::Tile(Elems::FLOATS_13_1)),
            one("rhs", TyC::Tile(Elems::FLOATS_13_1)),
            one("acc", TyC::Tile(Elems::F16.or(Elems::F32).or(Elems::F64))),
        ],
        results: &[one("result", TyC::Tile(Elems::F16.or(Elems::F32).or(Elems::F64)))],
        attrs: &[optional("fast_acc", AttrKind::Unit)],
        traits: PURE,
        checks: &[
            Check::SameElementType(&["lhs", "rhs"]),
            Check::SameRank(&["lhs", "rhs", "acc"]),
        ],
        same_type: &[&["acc", "result"]],
        syntax: Syntax::Format("$lhs `,` $rhs `,` $acc (`fast_acc` $fast_acc^)? attr-dict `:` type($lhs) `,` type($rhs) `,` type($acc)"),
        ..DEFAULT
    },
    MmaFScaled => OpDef {
        bytecode: Some(Bytecode { code: 0x72, since: V::V13_3, fields: &[
            F::Results,
            F::Operand("lhs"),
            F::Operand("rhs"),
            F::Operand("acc"),
            F::Operand("lhs_scale"),
            F::Operand("rhs_scale"),
        ] }),
        opcode: Opcode::MmaFScaled,
        name: "mmaf_scaled",
        summary: "Floating-point matrix multiply-accumulate with block-scaled inputs",
        family: Family::Mma,
        since: "13.3",
        operands: &[
            one("lhs", TyC::Tile(Elems::F8E4M3FN.or(Elems::F8E5M2).or(Elems::F4E2M1FN))),
            one("rhs", TyC::Tile(Elems::F8E4M3FN.or(Elems::F8E5M2).or(Elems::F4E2M1FN))),
            one("acc", TyC::Tile(Elems::F32)),
            one("lhs_scale", TyC::Tile(Elems::F8E4M3FN.or(Elems::F8E8M0FNU))),
            one("rhs_scale", TyC::Tile(Elems::F8E4M3FN.or(Elems::F8E8M0FNU))),
        ],
        results: &[one("result", TyC::Tile(Elems::F32))],
        traits: PURE,
        checks: &[
            Check::SameElementType(&["lhs", "rhs"]),
            Check::SameElementType(&["lhs_scale", "rhs_scale"]),
            Check::SameRank(&["lhs", "rhs", "acc", "lhs_scale", "rhs_scale"]),
        ],
        same_type: &[&["acc", "result"]],
        syntax: Syntax::Format(
            "$lhs `,` $rhs `,` $acc `,` $lhs_scale `,` $rhs_scale attr-dict `:` type($lhs) `,` type($rhs) `,` type($acc) `,` type($lhs_scale) `,` type($rhs_scale)",
        ),
        ..DEFAULT
    },
    MmaI => OpDef {
        bytecode: Some(Bytecode { code: 0x4A, since: V::V13_1, fields: &[
            F::Results,
            F::Enum("signedness_lhs"),
            F::Enum("signedness_rhs"),
            F::Operand("lhs"),
            F::Operand("rhs"),
            F::Operand("acc"),
        ] }),
        opcode: Opcode::MmaI,
        name: "mmai",
        summary: "Integer matrix multiply-accumulate",
        family: Family::Mma,
        operands: &[one("lhs", TyC::Tile(Elems::I8)), one("rhs", TyC::Tile(Elems::I8)), one("acc", TyC::Tile(Elems::I32))],
        results: &[one("result", TyC::Tile(Elems::I32))],
        attrs: &[
            req("signedness_lhs", AttrKind::Enum(EnumKind::Signedness)),
            req("signedness_rhs", AttrKind::Enum(EnumKind::Signedness)),
        ],
        traits: PURE,
        checks: &[Check::SameRank(&["lhs", "rhs", "acc"])],
        same_type: &[&["acc", "result"]],
        syntax: Syntax::Format(
            "$lhs `,` $rhs `,` $acc custom<Signedness>($signedness_lhs) custom<Signedness>($signedness_rhs) attr-dict `:` type($lhs) `,` type($rhs) `,` type($acc)",
        ),
        ..DEFAULT
    },

    // ---------------------------------------------------------------- assumptions
    Assume => OpDef {
        bytecode: Some(Bytecode { code: 0x06, since: V::V13_1, fields: &[F::Results, F::Tagged("predicate"), F::Operand("value")] }),
        opcode: Opcode::Assume,
        name: "assume",
        summary: "Tell the compiler a fact about a value",
        family: Family::Assumption,
        operands: &[one("value", ANY)],
        results: &[opt("result", ANY)],
        attrs: &[optional("predicate", AttrKind::AssumePredicate)],
        same_type: &[&["value", "result"]],
        syntax: Syntax::Custom(CustomSyntax::Assume),
        names: NameHint::Assume,
        canon: Canon {
            fold: Some(Rule::FoldRepeatedAssume),
            patterns: &[],
        },
        ..DEFAULT
    },

    // ---------------------------------------------------------------- misc and structure
    Barrier => OpDef {
        opcode: Opcode::Barrier,
        name: "barrier",
        summary: "Synchronize the threads of a scope",
        family: Family::Misc,
        since: "spec",
        operands: &[opt("token", TOKEN)],
        results: RESULT_TOKEN,
        attrs: &[req("scope", AttrKind::Enum(EnumKind::BarrierScope))],
        effects: Effects::ReadWrite,
        syntax: Syntax::Format("$scope (`token` `` `=` `` $token^)? attr-dict `:` type($result_token)"),
        ..DEFAULT
    },
    Constant => OpDef {
        bytecode: Some(Bytecode { code: 0x10, since: V::V13_1, fields: &[F::Results, F::Dense("value")] }),
        opcode: Opcode::Constant,
        name: "constant",
        summary: "A constant tile",
        family: Family::Misc,
        results: &[one("result", NT)],
        attrs: &[req("value", AttrKind::Dense)],
        traits: PURE.or(Traits::CONSTANT_LIKE),
        syntax: Syntax::Format("custom<Dense>($value, $result) attr-dict"),
        names: NameHint::Constant,
        canon: Canon { fold: Some(Rule::FoldConstant), patterns: &[] },
        ..DEFAULT
    },
    Entry => OpDef {
        opcode: Opcode::Entry,
        name: "entry",
        summary: "A tile kernel",
        family: Family::Misc,
        parents: &["module"],
        attrs: FUNCTION_ATTRS,
        regions: &[RegionDef { name: "body", implicit_terminator: Some(Opcode::Return), optional: false }],
        traits: Traits::ISOLATED_FROM_ABOVE.or(Traits::SYMBOL).or(Traits::FUNCTION).or(Traits::DEFAULT_DIALECT),
        effects: Effects::Recursive,
        syntax: Syntax::Custom(CustomSyntax::Function),
        ..DEFAULT
    },
    GetGlobal => OpDef {
        bytecode: Some(Bytecode { code: 0x2C, since: V::V13_1, fields: &[F::Results, F::Str("name")] }),
        opcode: Opcode::GetGlobal,
        name: "get_global",
        summary: "Pointer to a global variable",
        family: Family::Misc,
        results: &[one("result", TyC::Scalar(Elems::PTR))],
        attrs: &[req("name", AttrKind::SymbolRef)],
        traits: PURE,
        syntax: Syntax::Format("$name attr-dict `:` type($result)"),
        ..DEFAULT
    },
    GetNumTileBlocks => OpDef {
        bytecode: Some(Bytecode { code: 0x2E, since: V::V13_1, fields: &[F::Results] }),
        opcode: Opcode::GetNumTileBlocks,
        name: "get_num_tile_blocks",
        summary: "Number of tile blocks in each grid dimension",
        family: Family::Misc,
        results: &[
            one("gridSize_x", TyC::Scalar(Elems::I32)),
            one("gridSize_y", TyC::Scalar(Elems::I32)),
            one("gridSize_z", TyC::Scalar(Elems::I32)),
        ],
        traits: PURE,
        same_type: &[&["gridSize_x", "gridSize_y", "gridSize_z"]],
        syntax: Syntax::Format("attr-dict `:` type($gridSize_x)"),
        names: NameHint::Slots,
        ..DEFAULT
    },
    GetTileBlockId => OpDef {
        bytecode: Some(Bytecode { code: 0x30, since: V::V13_1, fields: &[F::Results] }),
        opcode: Opcode::GetTileBlockId,
        name: "get_tile_block_id",
        summary: "Coordinates of the executing tile block",
        family: Family::Misc,
        results: &[
            one("blockId_x", TyC::Scalar(Elems::I32)),
            one("blockId_y", TyC::Scalar(Elems::I32)),
            one("blockId_z", TyC::Scalar(Elems::I32)),
        ],
        traits: PURE,
        same_type: &[&["blockId_x", "blockId_y", "blockId_z"]],
        syntax: Syntax::Format("attr-dict `:` type($blockId_x)"),
        names: NameHint::Slots,
        ..DEFAULT
    },
    Global => OpDef {
        opcode: Opcode::Global,
        name: "global",
        summary: "A statically allocated global variable",
        family: Family::Misc,
        parents: &["module"],
        attrs: &[
            req("sym_name", AttrKind::SymbolName),
            req("value", AttrKind::Dense),
            AttrDef { name: "alignment", kind: AttrKind::I64, presence: Presence::DefaultInt(0) },
            optional("constant", AttrKind::Unit),
            AttrDef {
                name: "symbol_visibility",
                kind: AttrKind::Enum(EnumKind::SymbolVisibility),
                presence: Presence::DefaultEnum(0),
            },
        ],
        traits: Traits::SYMBOL,
        syntax: Syntax::Format(
            "custom<SymbolVisibility>($symbol_visibility) (`constant` $constant^)? $sym_name (`alignment` `=` $alignment^)? attr-dict custom<Dense>($value)",
        ),
        ..DEFAULT
    },
    Module => OpDef {
        opcode: Opcode::Module,
        name: "module",
        summary: "A compilation unit",
        family: Family::Misc,
        attrs: &[req("sym_name", AttrKind::SymbolName), optional("producer", AttrKind::String)],
        regions: &[RegionDef { name: "body", implicit_terminator: None, optional: true }],
        traits: Traits::ISOLATED_FROM_ABOVE
            .or(Traits::SYMBOL_TABLE)
            .or(Traits::NO_TERMINATOR)
            .or(Traits::DEFAULT_DIALECT)
            .or(Traits::NO_REGION_ARGS),
        effects: Effects::Recursive,
        syntax: Syntax::Format("$sym_name attr-dict-with-keyword $body"),
        ..DEFAULT
    },
    Print => OpDef {
        bytecode: Some(Bytecode { code: 0x55, since: V::V13_1, fields: &[
            F::SizedResults,
            F::Flags(&[B::Present("token")], V::V13_2),
            F::Str("str"),
            F::Sized("args"),
            F::OptOperand("token"),
        ] }),
        opcode: Opcode::Print,
        name: "print",
        aliases: &["print_tko"],
        summary: "Print formatted values (debugging)",
        family: Family::Misc,
        operands: &[var("args", TILE), opt("token", TOKEN)],
        results: &[opt("result_token", TOKEN)],
        attrs: &[req("str", AttrKind::String), SEGMENTS],
        traits: Traits::ATTR_SIZED_OPERANDS,
        effects: Effects::SideEffect,
        syntax: Syntax::Format(
            "$str (`,` $args^)? (`token` `` `=` `` $token^)? attr-dict (`:` type($args)^)? (`->` type($result_token)^)?",
        ),
        ..DEFAULT
    },
    TestingFunc => OpDef {
        opcode: Opcode::TestingFunc,
        name: "testing$func",
        summary: "A function used by NVIDIA's conformance tests",
        family: Family::Misc,
        since: "testing",
        attrs: FUNCTION_ATTRS,
        regions: &[RegionDef { name: "body", implicit_terminator: Some(Opcode::Return), optional: false }],
        traits: Traits::ISOLATED_FROM_ABOVE.or(Traits::SYMBOL).or(Traits::FUNCTION).or(Traits::DEFAULT_DIALECT),
        effects: Effects::Recursive,
        syntax: Syntax::Custom(CustomSyntax::Function),
        ..DEFAULT
    },
    // NVIDIA's bytecode-versioning test ops (TestingOps.td; testing versions 250.0/250.1):
    // text and bytecode only, to run NVIDIA's versioning tests.
    TestingBytecodeNewAttribute => OpDef {
        bytecode: Some(Bytecode { code: 0x3000, since: V::V250_0, fields: &[
            F::Flags(&[B::Unit("new_flag")], V::V250_1),
            F::IntSince("new_param", V::V250_1)
        ] }),
        opcode: Opcode::TestingBytecodeNewAttribute,
        name: "testing$bytecode_test_new_attribute",
        summary: "A bytecode-versioning test op: attributes added in testing version 250.1",
        family: Family::Misc,
        since: "250.0",
        attrs: &[
            optional("new_flag", AttrKind::Unit),
            AttrDef {
                name: "new_param",
                kind: AttrKind::I32,
                presence: Presence::DefaultInt(42),
            },
        ],
        effects: Effects::SideEffect,
        syntax: Syntax::Format("(`new_flag` $new_flag^)? (`new_param` `=` $new_param^)? attr-dict"),
        ..DEFAULT
    },
    TestingBytecodeEvolution => OpDef {
        bytecode: Some(Bytecode { code: 0x3002, since: V::V250_0, fields: &[
            F::Results,
            // A flag word per version that added optional parts.
            F::Flags(&[B::Present("priority")], V::V250_0),
            F::OptEnum("priority"),
            F::Flags(&[B::Present("new_attr"), B::Present("optional_token"), B::Present("test_attr")], V::V250_1),
            F::Sized("inputs"),
            F::OptInt("new_attr"),
            F::OptOperand("optional_token"),
            F::OptTagged("test_attr"),
        ] }),
        opcode: Opcode::TestingBytecodeEvolution,
        name: "testing$bytecode_test_evolution",
        summary: "A bytecode-versioning test op: an operand and an attribute added in testing version 250.1",
        family: Family::Misc,
        since: "250.0",
        operands: &[var("inputs", TILE), opt("optional_token", TOKEN)],
        results: RESULT_TOKEN,
        attrs: &[
            optional("new_attr", AttrKind::I32),
            optional("priority", AttrKind::Enum(EnumKind::BytecodeTestPriority)),
            optional("test_attr", AttrKind::BytecodeTestValue),
            SEGMENTS,
        ],
        traits: Traits::ATTR_SIZED_OPERANDS,
        effects: Effects::SideEffect,
        syntax: Syntax::Format(
            "`(` $inputs `:` qualified(type($inputs)) `)` (`new_attr` `=` $new_attr^)? (`token` `=` $optional_token^ `:` type($optional_token))? (`priority` `=` $priority^)? (`test_attr` `=` $test_attr^)? `->` type($result_token) attr-dict",
        ),
        ..DEFAULT
    },
    Unregistered => OpDef {
        opcode: Opcode::Unregistered,
        name: "<unregistered>",
        summary: "An operation of another dialect, kept as written (generic form only)",
        family: Family::Misc,
        since: "-",
        operands: &[var("operands", ANY)],
        results: &[var("results", ANY)],
        effects: Effects::SideEffect,
        ..DEFAULT
    },
    // ---------------------------------------------------------------- GPU-level IR
    // The ops of tritongpu-ops.md that tilec's PTX backend produces (`tilec opt -p
    // convert-to-gpu`). They exist only in the GPU-level IR: the parser does not accept them.
    ConvertLayout => OpDef {
        opcode: Opcode::ConvertLayout,
        name: "ttg.convert_layout",
        summary: "Move a tile to another distributed layout",
        family: Family::Gpu,
        since: "gpu",
        operands: &[one("src", TILE)],
        results: &[one("result", TILE)],
        traits: PURE,
        syntax: Syntax::Format("$src attr-dict `:` type($src) `->` type($result)"),
        ..DEFAULT
    },
    LocalAlloc => OpDef {
        opcode: Opcode::LocalAlloc,
        name: "ttg.local_alloc",
        summary: "Allocate a shared-memory buffer, optionally initialised from a tile",
        family: Family::Gpu,
        since: "gpu",
        operands: &[opt("src", TILE)],
        results: &[one("result", ANY)],
        effects: Effects::ReadWrite,
        syntax: Syntax::Format("($src^)? attr-dict `:` `(` `` type($src) `` `)` `->` type($result)"),
        ..DEFAULT
    },
    LocalLoad => OpDef {
        opcode: Opcode::LocalLoad,
        name: "ttg.local_load",
        summary: "Load a shared-memory buffer into a distributed tile",
        family: Family::Gpu,
        since: "gpu",
        operands: &[one("src", ANY)],
        results: &[one("result", TILE)],
        effects: Effects::Read,
        syntax: Syntax::Format("$src attr-dict `:` type($src) `->` type($result)"),
        ..DEFAULT
    },
    LocalDealloc => OpDef {
        opcode: Opcode::LocalDealloc,
        name: "ttg.local_dealloc",
        summary: "Release a shared-memory buffer",
        family: Family::Gpu,
        since: "gpu",
        operands: &[one("src", ANY)],
        effects: Effects::ReadWrite,
        syntax: Syntax::Format("$src attr-dict `:` type($src)"),
        ..DEFAULT
    },
    MemDescIndex => OpDef {
        opcode: Opcode::MemDescIndex,
        name: "ttg.memdesc_index",
        summary: "View element `index` along dimension 0 of a shared-memory buffer",
        family: Family::Gpu,
        since: "gpu",
        operands: &[one("src", ANY), one("index", TILE)],
        results: &[one("result", ANY)],
        traits: PURE,
        syntax: Syntax::Format("$src `[` $index `]` attr-dict `:` type($src) `->` type($result)"),
        ..DEFAULT
    },
    LocalStore => OpDef {
        opcode: Opcode::LocalStore,
        name: "ttg.local_store",
        summary: "Store a distributed tile into a shared-memory buffer",
        family: Family::Gpu,
        since: "gpu",
        operands: &[one("src", TILE), one("dst", ANY)],
        effects: Effects::Write,
        syntax: Syntax::Format("$src `,` $dst attr-dict `:` type($src) `->` type($dst)"),
        ..DEFAULT
    },
    AsyncCopyGlobalToLocal => OpDef {
        opcode: Opcode::AsyncCopyGlobalToLocal,
        name: "ttg.async_copy_global_to_local",
        summary: "Copy a tile of a view into a shared-memory buffer asynchronously (tilec's form: through a partition view, zero padding)",
        family: Family::Gpu,
        since: "gpu",
        operands: &[one("view", ANY), var("index", TILE), one("dst", ANY)],
        results: &[one("token", ANY)],
        effects: Effects::ReadWrite,
        syntax: Syntax::Format(
            "$view `[` $index `]` `,` $dst attr-dict `:` type($view) `->` type($dst)",
        ),
        ..DEFAULT
    },
    AsyncCommitGroup => OpDef {
        opcode: Opcode::AsyncCommitGroup,
        name: "ttg.async_commit_group",
        summary: "Close the current batch of async copies into a group that can be waited on",
        family: Family::Gpu,
        since: "gpu",
        operands: &[var("inputTokens", ANY)],
        results: &[one("asyncToken", ANY)],
        effects: Effects::ReadWrite,
        syntax: Syntax::Format("(`tokens` $inputTokens^)? attr-dict"),
        ..DEFAULT
    },
    AsyncWait => OpDef {
        opcode: Opcode::AsyncWait,
        name: "ttg.async_wait",
        summary: "Wait until at most `num` async copy groups are outstanding (no CTA synchronisation)",
        family: Family::Gpu,
        since: "gpu",
        operands: &[var("asyncToken", ANY)],
        results: &[one("retToken", ANY)],
        // `num` (an i32) is carried in the attribute dictionary, where Triton prints it.
        effects: Effects::ReadWrite,
        syntax: Syntax::Format("($asyncToken^)? attr-dict"),
        ..DEFAULT
    },
    WarpGroupDotWait => OpDef {
        opcode: Opcode::WarpGroupDotWait,
        name: "ttng.warp_group_dot_wait",
        summary: "Wait until at most `pendings` groups of warpgroup MMAs issued by this warpgroup are in flight; the result is the accumulator the awaited products wrote",
        family: Family::Gpu,
        since: "gpu",
        operands: &[one("input", TILE)],
        results: &[one("output", TILE)],
        // `pendings` (an i32) is carried in the attribute dictionary, where Triton's NVIDIA
        // dialect prints it.
        effects: Effects::ReadWrite,
        syntax: Syntax::Format("$input attr-dict `:` type($input) `->` type($output)"),
        ..DEFAULT
    },
    GlobalScratchAlloc => OpDef {
        opcode: Opcode::GlobalScratchAlloc,
        name: "ttg.global_scratch_alloc",
        summary: "Global memory private to the CTA until the kernel ends (tilec: a slot of a per-kernel table, claimed here and released at the kernel's exit)",
        family: Family::Gpu,
        since: "gpu",
        results: &[one("result", PT)],
        attrs: &[req("nbytes", AttrKind::I32), req("alignment", AttrKind::I32)],
        effects: Effects::ReadWrite,
        syntax: Syntax::Format("attr-dict `:` type($result)"),
        ..DEFAULT
    },
    TensormapCreate => OpDef {
        opcode: Opcode::TensormapCreate,
        name: "ttng.tensormap_create",
        summary: "Build the 128-byte tensor map of a partition view's tiles at `desc_ptr` and make it visible to the copy engine (tilec's form: the fields come from the view)",
        family: Family::Gpu,
        since: "gpu",
        operands: &[one("desc_ptr", PT), one("view", ANY)],
        attrs: &[req("swizzle_mode", AttrKind::I32)],
        effects: Effects::ReadWrite,
        syntax: Syntax::Format("$desc_ptr `,` $view attr-dict `:` type($desc_ptr) `,` type($view)"),
        ..DEFAULT
    },
    InitBarrier => OpDef {
        opcode: Opcode::InitBarrier,
        name: "ttng.init_barrier",
        summary: "Initialise an mbarrier in shared memory with its arrival count (one thread)",
        family: Family::Gpu,
        since: "gpu",
        operands: &[one("alloc", ANY)],
        attrs: &[req("count", AttrKind::I32)],
        effects: Effects::ReadWrite,
        syntax: Syntax::Format("$alloc `,` $count attr-dict `:` type($alloc)"),
        ..DEFAULT
    },
    InvalBarrier => OpDef {
        opcode: Opcode::InvalBarrier,
        name: "ttng.inval_barrier",
        summary: "Invalidate an mbarrier so that its shared memory can be used again (one thread)",
        family: Family::Gpu,
        since: "gpu",
        operands: &[one("alloc", ANY)],
        effects: Effects::ReadWrite,
        syntax: Syntax::Format("$alloc attr-dict `:` type($alloc)"),
        ..DEFAULT
    },
    BarrierExpect => OpDef {
        opcode: Opcode::BarrierExpect,
        name: "ttng.barrier_expect",
        summary: "When `pred` holds, one thread arrives on the mbarrier expecting `size` bytes of copies to complete on it",
        family: Family::Gpu,
        since: "gpu",
        operands: &[one("alloc", ANY), one("pred", TILE)],
        attrs: &[req("size", AttrKind::I32)],
        effects: Effects::ReadWrite,
        syntax: Syntax::Format("$alloc `,` $size `,` $pred attr-dict `:` type($alloc)"),
        ..DEFAULT
    },
    ArriveBarrier => OpDef {
        opcode: Opcode::ArriveBarrier,
        name: "ttng.arrive_barrier",
        summary: "One thread arrives `count` times on the mbarrier (with `perWarp`: lane 0 of every warp, after the warp's earlier work)",
        family: Family::Gpu,
        since: "gpu",
        operands: &[one("alloc", ANY)],
        attrs: &[req("count", AttrKind::I32), optional("perWarp", AttrKind::Unit)],
        effects: Effects::ReadWrite,
        syntax: Syntax::Format("$alloc `,` $count attr-dict `:` type($alloc)"),
        ..DEFAULT
    },
    WaitBarrier => OpDef {
        opcode: Opcode::WaitBarrier,
        name: "ttng.wait_barrier",
        summary: "Every thread waits until the mbarrier's phase of parity `phase` has completed",
        family: Family::Gpu,
        since: "gpu",
        operands: &[one("alloc", ANY), one("phase", TILE)],
        effects: Effects::ReadWrite,
        syntax: Syntax::Format("$alloc `,` $phase attr-dict `:` type($alloc) `,` type($phase)"),
        ..DEFAULT
    },
    AsyncTmaCopyGlobalToLocal => OpDef {
        opcode: Opcode::AsyncTmaCopyGlobalToLocal,
        name: "ttng.async_tma_copy_global_to_local",
        summary: "One thread has the copy engine copy a tile of a partition view, through its tensor map, into a shared-memory buffer, completing on an mbarrier (tilec's form: the view gives the tile)",
        family: Family::Gpu,
        since: "gpu",
        operands: &[one("desc", PT), one("view", ANY), var("index", TILE), one("result", ANY), one("barrier", ANY)],
        effects: Effects::ReadWrite,
        syntax: Syntax::Format(
            "$desc `,` $view `[` $index `]` `,` $result `,` $barrier attr-dict `:` type($desc) `,` type($view) `,` type($barrier) `->` type($result)",
        ),
        ..DEFAULT
    },
    FenceAsyncShared => OpDef {
        opcode: Opcode::FenceAsyncShared,
        name: "ttng.fence_async_shared",
        summary: "Every thread orders its shared-memory writes before the copy engine's and tensor cores' reads (async proxy)",
        family: Family::Gpu,
        since: "gpu",
        effects: Effects::ReadWrite,
        syntax: Syntax::Format("attr-dict"),
        ..DEFAULT
    },
    AsyncTmaCopyLocalToGlobal => OpDef {
        opcode: Opcode::AsyncTmaCopyLocalToGlobal,
        name: "ttng.async_tma_copy_local_to_global",
        summary: "One thread has the copy engine store a shared-memory buffer into a tile of a partition view through its tensor map (clipped at the tensor's edges), as one bulk group (tilec's form: the view gives the tile)",
        family: Family::Gpu,
        since: "gpu",
        operands: &[one("desc", PT), one("view", ANY), var("index", TILE), one("src", ANY)],
        effects: Effects::ReadWrite,
        syntax: Syntax::Format(
            "$desc `,` $view `[` $index `]` `,` $src attr-dict `:` type($desc) `,` type($view) `,` type($src)",
        ),
        ..DEFAULT
    },
    AsyncTmaStoreWait => OpDef {
        opcode: Opcode::AsyncTmaStoreWait,
        name: "ttng.async_tma_store_wait",
        summary: "The thread that issued the copy engine's stores waits until at most `pendings` bulk groups are in flight",
        family: Family::Gpu,
        since: "gpu",
        // `pendings` (an i32) is carried in the attribute dictionary, where Triton's NVIDIA
        // dialect prints it.
        effects: Effects::ReadWrite,
        syntax: Syntax::Format("attr-dict"),
        ..DEFAULT
    },
    PredicateStage => OpDef {
        opcode: Opcode::PredicateStage,
        name: "ttg.predicate_stage",
        summary: "Whether pipeline stage `stage` of iteration `iv` runs: iv + (maxStage - stage) * step < ub",
        family: Family::Gpu,
        since: "gpu",
        operands: &[one("iv", TILE), one("ub", TILE), one("step", TILE)],
        results: &[one("result", TILE)],
        attrs: &[req("maxStage", AttrKind::I32), req("stage", AttrKind::I32)],
        traits: PURE,
        syntax: Syntax::Format(
            "$iv `,` $ub `,` $step `maxStage` $maxStage `stage` $stage attr-dict `:` type($iv) `->` type($result)",
        ),
        ..DEFAULT
    },
    Mask => OpDef {
        opcode: Opcode::Mask,
        name: "ttg.mask",
        summary: "Run the body only when `pred` holds (its results are undefined otherwise)",
        family: Family::Gpu,
        since: "gpu",
        operands: &[one("pred", TILE)],
        results: &[var("result", ANY)],
        regions: &[RegionDef { name: "body", implicit_terminator: None, optional: false }],
        effects: Effects::Recursive,
        syntax: Syntax::Format("$pred attr-dict `:` type($pred) `->` `(` type($result) `)` $body"),
        ..DEFAULT
    },
    MaskReturn => OpDef {
        opcode: Opcode::MaskReturn,
        name: "ttg.mask.return",
        summary: "Terminate a `ttg.mask` body with its results",
        family: Family::Gpu,
        since: "gpu",
        operands: &[var("result", ANY)],
        traits: Traits::TERMINATOR.or(Traits::RETURN_LIKE),
        parents: &["ttg.mask"],
        syntax: Syntax::Format("($result^ `:` type($result))? attr-dict"),
        ..DEFAULT
    },
    MemDescTrans => OpDef {
        opcode: Opcode::MemDescTrans,
        name: "ttg.memdesc_trans",
        summary: "View a shared-memory buffer with its dimensions permuted",
        family: Family::Gpu,
        since: "gpu",
        operands: &[one("src", ANY)],
        results: &[one("result", ANY)],
        // `order` (a dense i32 array) is carried in the attribute dictionary, where
        // Triton prints it: `ttg.memdesc_trans %b {order = array<i32: 1, 0>} : ...`.
        traits: PURE,
        syntax: Syntax::Format("$src attr-dict `:` type($src) `->` type($result)"),
        ..DEFAULT
    },
    MemDescSubslice => OpDef {
        opcode: Opcode::MemDescSubslice,
        name: "ttg.memdesc_subslice",
        summary: "View a block of a shared-memory buffer at static offsets",
        family: Family::Gpu,
        since: "gpu",
        operands: &[one("src", ANY)],
        results: &[one("result", ANY)],
        attrs: &[req("offsets", AttrKind::DenseI32Array)],
        traits: PURE,
        syntax: Syntax::Format("$src $offsets attr-dict `:` type($src) `->` type($result)"),
        ..DEFAULT
    },
    MemDescReshape => OpDef {
        opcode: Opcode::MemDescReshape,
        name: "ttg.memdesc_reshape",
        summary: "View a row-major shared-memory buffer with another shape",
        family: Family::Gpu,
        since: "gpu",
        operands: &[one("src", ANY)],
        results: &[one("result", ANY)],
        traits: PURE,
        syntax: Syntax::Format("$src attr-dict `:` type($src) `->` type($result)"),
        ..DEFAULT
    },
    MemDescReinterpret => OpDef {
        opcode: Opcode::MemDescReinterpret,
        name: "ttg.memdesc_reinterpret",
        summary: "View the bytes of a contiguous shared-memory buffer with another element type and shape",
        family: Family::Gpu,
        since: "gpu",
        operands: &[one("src", ANY)],
        results: &[one("result", ANY)],
        traits: PURE,
        syntax: Syntax::Format("$src attr-dict `:` type($src) `->` type($result)"),
        ..DEFAULT
    },
    WarpId => OpDef {
        opcode: Opcode::WarpId,
        name: "ttg.warp_id",
        summary: "The warp number of the executing thread inside its CTA",
        family: Family::Gpu,
        since: "gpu",
        results: &[one("result", TILE)],
        attrs: &[optional("omitUniformHint", AttrKind::Unit)],
        traits: PURE,
        syntax: Syntax::Format("attr-dict `:` type($result)"),
        ..DEFAULT
    },
    ClusterCtaId => OpDef {
        opcode: Opcode::ClusterCtaId,
        name: "ttng.cluster_cta_id",
        summary: "The rank of the executing CTA in its cluster (0 to the cluster's CTAs minus 1; 0 without clusters)",
        family: Family::Gpu,
        since: "gpu",
        results: &[one("result", TILE)],
        traits: PURE,
        syntax: Syntax::Format("attr-dict `:` type($result)"),
        ..DEFAULT
    },
    ClusterGather => OpDef {
        opcode: Opcode::ClusterGather,
        name: "ttng.cluster_gather",
        summary: "Every CTA of the cluster's `src` (a shared-memory buffer after gpu-assign-layouts), gathered along a new leading dimension of the cluster's size in rank order, the same in every CTA; the CTAs wait for each other (a cluster barrier) before they read each other's buffers and again after, so that none leaves or reuses its buffer while another reads it",
        family: Family::Gpu,
        since: "gpu",
        operands: &[one("src", ANY)],
        results: &[one("result", TILE)],
        effects: Effects::ReadWrite,
        syntax: Syntax::Format("$src attr-dict `:` type($src) `->` type($result)"),
        ..DEFAULT
    },
    ClusterBarrier => OpDef {
        opcode: Opcode::ClusterBarrier,
        name: "ttng.cluster_barrier",
        summary: "Every thread of every CTA of the cluster arrives, then waits for all: the memory accesses before it (release, at cluster scope) happen before those after it (acquire) in every CTA",
        family: Family::Gpu,
        since: "gpu",
        effects: Effects::ReadWrite,
        syntax: Syntax::Format("attr-dict"),
        ..DEFAULT
    },
    WarpSpecialize => OpDef {
        opcode: Opcode::WarpSpecialize,
        name: "ttg.warp_specialize",
        summary: "Run the default region on the warps that reach the op and, at the same time, the partition on `partitionNumWarps` more warps of the CTA (tilec: one partition, whose warps run nothing else and end the kernel at its `ttg.warp_return`)",
        family: Family::Gpu,
        since: "gpu",
        results: &[var("defaultPassthrough", ANY)],
        // `actualRegisters`: the register counts (`setmaxnreg`) of the default region's
        // warps and of the partition's, when they are rebalanced.
        attrs: &[
            req("partitionNumWarps", AttrKind::DenseI32Array),
            optional("actualRegisters", AttrKind::DenseI32Array),
        ],
        regions: &[
            RegionDef { name: "default", implicit_terminator: None, optional: false },
            RegionDef { name: "partition0", implicit_terminator: None, optional: false },
        ],
        effects: Effects::Recursive,
        syntax: Syntax::Format(
            "attr-dict `:` `(` type($defaultPassthrough) `)` `default` $default `partition0` $partition0",
        ),
        ..DEFAULT
    },
    WarpYield => OpDef {
        opcode: Opcode::WarpYield,
        name: "ttg.warp_yield",
        summary: "Terminate the default region of `ttg.warp_specialize` with the op's results",
        family: Family::Gpu,
        since: "gpu",
        operands: &[var("values", ANY)],
        traits: Traits::TERMINATOR.or(Traits::RETURN_LIKE),
        parents: &["ttg.warp_specialize"],
        syntax: Syntax::Format("($values^ `:` type($values))? attr-dict"),
        ..DEFAULT
    },
    WarpReturn => OpDef {
        opcode: Opcode::WarpReturn,
        name: "ttg.warp_return",
        summary: "Terminate a partition region of `ttg.warp_specialize` (tilec: its warps end there)",
        family: Family::Gpu,
        since: "gpu",
        traits: Traits::TERMINATOR.or(Traits::RETURN_LIKE),
        parents: &["ttg.warp_specialize"],
        syntax: Syntax::Format("attr-dict"),
        ..DEFAULT
    },
    GpuBarrier => OpDef {
        opcode: Opcode::GpuBarrier,
        name: "ttg.barrier",
        summary: "Synchronise the CTA and make the selected address spaces visible",
        family: Family::Gpu,
        since: "gpu",
        attrs: &[req("addrSpace", AttrKind::Enum(EnumKind::AddrSpace))],
        effects: Effects::ReadWrite,
        syntax: Syntax::Format("$addrSpace attr-dict"),
        ..DEFAULT
    },
    UnrealizedConversionCast => OpDef {
        opcode: Opcode::UnrealizedConversionCast,
        name: "unrealized_conversion_cast",
        summary: "Placeholder conversion used inside the compiler",
        family: Family::Misc,
        since: "spec",
        operands: &[var("inputs", ANY)],
        results: &[var("outputs", ANY)],
        traits: PURE,
        syntax: Syntax::Format("($inputs^ `:` type($inputs))? `to` type($outputs) attr-dict"),
        ..DEFAULT
    },
}

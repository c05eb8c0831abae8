//! The encoding of each operation in Tile IR bytecode.
//!
//! The op table (`tilec_ir::ops`) is the source of truth for an op's operand, result and
//! attribute slots; this table adds only what the binary format needs on top: the op's
//! bytecode opcode, the version that introduced it, and the order in which its fields are
//! written. Fields name the op table's slots, so the reader and the writer interpret one
//! description instead of each keeping its own per-op code.

use crate::Version;
use tilec_ir::Opcode;

/// One bit of an op's flags varint.
#[derive(Copy, Clone, Debug)]
pub enum Bit {
    /// A unit attribute (presence flag) such as `flush_to_zero`.
    Unit(&'static str),
    /// An optional attribute or operand is present (its value follows later).
    Present(&'static str),
}

/// One field of an op's encoding, in stream order.
#[derive(Copy, Clone, Debug)]
pub enum Field {
    /// One type index per result (the op has a fixed number of results).
    Results,
    /// A result count, then one type index per result.
    SizedResults,
    /// A flags varint (present from the given version on; older versions have none and
    /// every bit reads as 0).
    Flags(&'static [Bit], Version),
    /// A required enum attribute, as a varint.
    Enum(&'static str),
    /// An enum attribute with a default that a later version added: written from the
    /// given version on; older versions have no field (reading gives the default, and
    /// writing a non-default value is an error naming the version it needs).
    EnumSince(&'static str, Version),
    /// An optional enum attribute, present when its flag bit is set.
    OptEnum(&'static str),
    /// Optional optimization hints, present when the flag bit is set.
    OptHints(&'static str),
    /// An integer attribute as a varint.
    Int(&'static str),
    /// An integer attribute with a default that a later version added: a varint from the
    /// given version on (older versions have none: reading gives no attribute, the
    /// default; writing a non-default value is an error naming the version it needs).
    IntSince(&'static str, Version),
    /// An optional integer attribute, a varint present when its flag bit is set.
    OptInt(&'static str),
    /// A boolean attribute as one byte.
    Bool(&'static str),
    /// A string attribute (or symbol reference) as a string-table index.
    Str(&'static str),
    /// An array of self-describing attributes.
    Array(&'static str),
    /// A self-describing attribute (the assume predicate).
    Tagged(&'static str),
    /// A dense constant, as a constant-pool index.
    Dense(&'static str),
    /// `array<i32: ...>` as a count and 4-byte little-endian values.
    I32Array(&'static str),
    /// One operand (a value index).
    Operand(&'static str),
    /// An optional operand, present when its flag bit is set.
    OptOperand(&'static str),
    /// A count, then that many operands of one variadic slot.
    Sized(&'static str),
    /// The total operand count, then every operand of the op.
    AllOperands,
}

/// The bytecode description of one op.
#[derive(Copy, Clone, Debug)]
pub struct Encoding {
    /// tilec's opcode.
    pub op: Opcode,
    /// The bytecode opcode.
    pub code: u64,
    /// The first bytecode version that has the op.
    pub since: Version,
    /// The fields, in stream order.
    pub fields: &'static [Field],
}

use Bit::*;
use Field::*;

const V13_1: Version = Version::V13_1;
const V13_2: Version = Version::V13_2;
const V13_3: Version = Version::V13_3;
const V250_0: Version = Version::V250_0;
const V250_1: Version = Version::V250_1;

/// `result = op source`.
const UNARY: &[Field] = &[Results, Operand("source")];
/// `result = op lhs, rhs`.
const BINARY: &[Field] = &[Results, Operand("lhs"), Operand("rhs")];
const FTZ: &[Bit] = &[Unit("flush_to_zero")];
const FLOAT_ROUNDED: &[Field] = &[
    Results,
    Flags(FTZ, V13_1),
    Enum("rounding_mode"),
    Operand("lhs"),
    Operand("rhs"),
];
const INT_OVERFLOW: &[Field] = &[Results, Enum("overflow"), Operand("lhs"), Operand("rhs")];
const INT_SIGNED: &[Field] = &[Results, Enum("signedness"), Operand("lhs"), Operand("rhs")];
const FLOAT_MINMAX: &[Field] = &[
    Results,
    Flags(&[Unit("propagate_nan"), Unit("flush_to_zero")], V13_1),
    Operand("lhs"),
    Operand("rhs"),
];
const FTZ_UNARY: &[Field] = &[Results, Flags(FTZ, V13_1), Operand("source")];
const CAST: &[Field] = &[Results, Operand("source")];
const TERMINATOR: &[Field] = &[SizedResults, AllOperands];

macro_rules! enc {
    ($op:ident, $code:expr, $fields:expr) => {
        enc!($op, $code, $fields, V13_1)
    };
    ($op:ident, $code:expr, $fields:expr, $since:expr) => {
        Encoding {
            op: Opcode::$op,
            code: $code,
            since: $since,
            fields: $fields,
        }
    };
}

/// Every op that has a bytecode encoding, by bytecode opcode.
pub static ENCODINGS: &[Encoding] = &[
    enc!(AbsF, 0x00, UNARY),
    enc!(AbsI, 0x01, UNARY),
    enc!(AddF, 0x02, FLOAT_ROUNDED),
    enc!(AddI, 0x03, INT_OVERFLOW),
    enc!(AndI, 0x04, BINARY),
    enc!(Assert, 0x05, &[Str("message"), Operand("condition")]),
    enc!(
        Assume,
        0x06,
        &[Results, Tagged("predicate"), Operand("value")]
    ),
    enc!(
        AtomicCasTko,
        0x07,
        &[
            Results,
            Flags(&[Present("mask"), Present("token")], V13_1),
            Enum("memory_ordering_semantics"),
            Enum("memory_scope"),
            Operand("pointers"),
            Operand("cmp"),
            Operand("val"),
            OptOperand("mask"),
            OptOperand("token"),
        ]
    ),
    enc!(
        AtomicRmwTko,
        0x08,
        &[
            Results,
            Flags(&[Present("mask"), Present("token")], V13_1),
            Enum("memory_ordering_semantics"),
            Enum("memory_scope"),
            Enum("mode"),
            Operand("pointers"),
            Operand("arg"),
            OptOperand("mask"),
            OptOperand("token"),
        ]
    ),
    enc!(Bitcast, 0x09, CAST),
    enc!(Break, 0x0A, TERMINATOR),
    enc!(Broadcast, 0x0B, CAST),
    enc!(
        Cat,
        0x0C,
        &[Results, Int("dim"), Operand("lhs"), Operand("rhs")]
    ),
    enc!(Ceil, 0x0D, UNARY),
    enc!(
        CmpF,
        0x0E,
        &[
            Results,
            Enum("comparison_predicate"),
            Enum("comparison_ordering"),
            Operand("lhs"),
            Operand("rhs"),
        ]
    ),
    enc!(
        CmpI,
        0x0F,
        &[
            Results,
            Enum("comparison_predicate"),
            Enum("signedness"),
            Operand("lhs"),
            Operand("rhs"),
        ]
    ),
    enc!(Constant, 0x10, &[Results, Dense("value")]),
    enc!(Continue, 0x11, TERMINATOR),
    enc!(Cos, 0x12, UNARY),
    enc!(CosH, 0x13, UNARY),
    enc!(DivF, 0x14, FLOAT_ROUNDED),
    enc!(
        DivI,
        0x15,
        &[
            Results,
            Enum("signedness"),
            Enum("rounding"),
            Operand("lhs"),
            Operand("rhs"),
        ]
    ),
    enc!(
        Exp,
        0x17,
        &[
            Results,
            EnumSince("rounding_mode", V13_3),
            Operand("source")
        ]
    ),
    enc!(Exp2, 0x18, FTZ_UNARY),
    enc!(ExtI, 0x25, &[Results, Enum("signedness"), Operand("from")]),
    enc!(Extract, 0x26, &[SizedResults, AllOperands]),
    enc!(Floor, 0x27, UNARY),
    enc!(
        Fma,
        0x28,
        &[
            Results,
            Flags(FTZ, V13_1),
            Enum("rounding_mode"),
            Operand("lhs"),
            Operand("rhs"),
            Operand("acc"),
        ]
    ),
    enc!(
        For,
        0x29,
        &[
            SizedResults,
            Flags(&[Unit("unsignedCmp")], V13_2),
            AllOperands
        ]
    ),
    enc!(
        FToF,
        0x2A,
        &[Results, Enum("rounding_mode"), Operand("from")]
    ),
    enc!(
        FToI,
        0x2B,
        &[
            Results,
            Enum("signedness"),
            Enum("rounding_mode"),
            Operand("from")
        ]
    ),
    enc!(GetGlobal, 0x2C, &[Results, Str("name")]),
    enc!(GetIndexSpaceShape, 0x2D, &[SizedResults, Operand("src")]),
    enc!(GetNumTileBlocks, 0x2E, &[Results]),
    enc!(GetTensorShape, 0x2F, &[SizedResults, Operand("src")]),
    enc!(GetTileBlockId, 0x30, &[Results]),
    enc!(If, 0x32, &[SizedResults, Operand("condition")]),
    enc!(IntToPtr, 0x33, CAST),
    enc!(Iota, 0x3A, &[Results]),
    enc!(
        IToF,
        0x3B,
        &[
            Results,
            Enum("signedness"),
            Enum("rounding_mode"),
            Operand("from")
        ]
    ),
    enc!(JoinTokens, 0x3C, &[SizedResults, AllOperands]),
    enc!(
        LoadPtrTko,
        0x3D,
        &[
            Results,
            Flags(
                &[
                    Present("memory_scope"),
                    Present("optimization_hints"),
                    Present("mask"),
                    Present("paddingValue"),
                    Present("token"),
                ],
                V13_1
            ),
            Enum("memory_ordering_semantics"),
            OptEnum("memory_scope"),
            OptHints("optimization_hints"),
            Operand("source"),
            OptOperand("mask"),
            OptOperand("paddingValue"),
            OptOperand("token"),
        ]
    ),
    enc!(
        LoadViewTko,
        0x3E,
        &[
            SizedResults,
            Flags(
                &[
                    Present("memory_scope"),
                    Present("optimization_hints"),
                    Present("token"),
                ],
                V13_1
            ),
            Enum("memory_ordering_semantics"),
            OptEnum("memory_scope"),
            OptHints("optimization_hints"),
            Operand("view"),
            Sized("index"),
            OptOperand("token"),
        ]
    ),
    enc!(Log, 0x3F, UNARY),
    enc!(Log2, 0x40, UNARY),
    enc!(Loop, 0x41, &[SizedResults, AllOperands]),
    enc!(MakePartitionView, 0x42, &[Results, Operand("tensor_view")]),
    enc!(
        MakeTensorView,
        0x43,
        &[
            SizedResults,
            Operand("base"),
            Sized("dynamicShape"),
            Sized("dynamicStrides"),
        ]
    ),
    enc!(MakeToken, 0x44, &[Results]),
    enc!(MaxF, 0x45, FLOAT_MINMAX),
    enc!(MaxI, 0x46, INT_SIGNED),
    enc!(MinF, 0x47, FLOAT_MINMAX),
    enc!(MinI, 0x48, INT_SIGNED),
    enc!(
        MmaF,
        0x49,
        &[
            Results,
            Flags(&[Unit("fast_acc")], V13_3),
            Operand("lhs"),
            Operand("rhs"),
            Operand("acc"),
        ]
    ),
    enc!(
        MmaI,
        0x4A,
        &[
            Results,
            Enum("signedness_lhs"),
            Enum("signedness_rhs"),
            Operand("lhs"),
            Operand("rhs"),
            Operand("acc"),
        ]
    ),
    enc!(MulF, 0x4C, FLOAT_ROUNDED),
    enc!(MulHI, 0x4D, &[Results, Operand("x"), Operand("y")]),
    enc!(MulI, 0x4E, INT_OVERFLOW),
    enc!(NegF, 0x4F, UNARY),
    enc!(
        NegSI,
        0x50,
        &[Results, EnumSince("overflow", V13_2), Operand("source")]
    ),
    enc!(Offset, 0x51, &[Results, Operand("ptr"), Operand("offset")]),
    enc!(OrI, 0x52, BINARY),
    enc!(
        Permute,
        0x53,
        &[Results, I32Array("permutation"), Operand("source")]
    ),
    enc!(
        PowF,
        0x54,
        &[Results, Operand("source"), Operand("exponent")]
    ),
    enc!(
        Print,
        0x55,
        &[
            SizedResults,
            Flags(&[Present("token")], V13_2),
            Str("str"),
            Sized("args"),
            OptOperand("token"),
        ]
    ),
    enc!(PtrToInt, 0x56, CAST),
    enc!(PtrToPtr, 0x57, CAST),
    enc!(
        Reduce,
        0x58,
        &[SizedResults, Int("dim"), Array("identities"), AllOperands]
    ),
    enc!(RemF, 0x59, BINARY),
    enc!(RemI, 0x5A, INT_SIGNED),
    enc!(Reshape, 0x5B, CAST),
    enc!(Return, 0x5C, TERMINATOR),
    enc!(Rsqrt, 0x5D, FTZ_UNARY),
    enc!(
        Scan,
        0x5E,
        &[
            SizedResults,
            Int("dim"),
            Bool("reverse"),
            Array("identities"),
            AllOperands,
        ]
    ),
    enc!(
        Select,
        0x5F,
        &[
            Results,
            Operand("cond"),
            Operand("val_if_true"),
            Operand("val_if_false"),
        ]
    ),
    enc!(ShLI, 0x60, INT_OVERFLOW),
    enc!(ShRI, 0x61, INT_SIGNED),
    enc!(Sin, 0x62, UNARY),
    enc!(SinH, 0x63, UNARY),
    enc!(
        Sqrt,
        0x64,
        &[
            Results,
            Flags(FTZ, V13_1),
            Enum("rounding_mode"),
            Operand("source"),
        ]
    ),
    enc!(
        StorePtrTko,
        0x65,
        &[
            Results,
            Flags(
                &[
                    Present("memory_scope"),
                    Present("optimization_hints"),
                    Present("mask"),
                    Present("token"),
                ],
                V13_1
            ),
            Enum("memory_ordering_semantics"),
            OptEnum("memory_scope"),
            OptHints("optimization_hints"),
            Operand("destination"),
            Operand("value"),
            OptOperand("mask"),
            OptOperand("token"),
        ]
    ),
    enc!(
        StoreViewTko,
        0x66,
        &[
            SizedResults,
            Flags(
                &[
                    Present("memory_scope"),
                    Present("optimization_hints"),
                    Present("token"),
                ],
                V13_1
            ),
            Enum("memory_ordering_semantics"),
            OptEnum("memory_scope"),
            OptHints("optimization_hints"),
            Operand("tile"),
            Operand("view"),
            Sized("index"),
            OptOperand("token"),
        ]
    ),
    enc!(SubF, 0x67, FLOAT_ROUNDED),
    enc!(SubI, 0x68, INT_OVERFLOW),
    enc!(Tan, 0x69, UNARY),
    enc!(
        TanH,
        0x6A,
        &[
            Results,
            EnumSince("rounding_mode", V13_2),
            Operand("source")
        ]
    ),
    enc!(TruncI, 0x6B, &[Results, Enum("overflow"), Operand("from")]),
    enc!(XOrI, 0x6C, BINARY),
    enc!(Yield, 0x6D, TERMINATOR),
    enc!(Atan2, 0x6E, &[Results, Operand("x"), Operand("y")], V13_2),
    enc!(Pack, 0x6F, UNARY, V13_3),
    enc!(Unpack, 0x70, UNARY, V13_3),
    enc!(
        Alloca,
        0x71,
        &[
            Results,
            Flags(&[Unit("global")], V13_3),
            Int("num_elem"),
            Int("alignment"),
        ],
        V13_3
    ),
    enc!(
        MmaFScaled,
        0x72,
        &[
            Results,
            Operand("lhs"),
            Operand("rhs"),
            Operand("acc"),
            Operand("lhs_scale"),
            Operand("rhs_scale"),
        ],
        V13_3
    ),
    // NVIDIA's testing ops (0x3000 on), for the testing versions 250.x only.
    enc!(
        TestingBytecodeNewAttribute,
        0x3000,
        &[
            Flags(&[Unit("new_flag")], V250_1),
            IntSince("new_param", V250_1)
        ],
        V250_0
    ),
    enc!(
        TestingBytecodeEvolution,
        0x3002,
        &[
            Results,
            Flags(&[Present("new_attr"), Present("optional_token")], V250_1),
            Sized("inputs"),
            OptInt("new_attr"),
            OptOperand("optional_token"),
        ],
        V250_0
    ),
    enc!(
        MakeGatherScatterView,
        0x73,
        &[Results, Operand("tensor_view")],
        V13_3
    ),
    enc!(
        MakeStridedView,
        0x74,
        &[Results, Operand("tensor_view")],
        V13_3
    ),
    enc!(
        AtomicRedViewTko,
        0x75,
        &[
            SizedResults,
            Flags(&[Present("token")], V13_3),
            Enum("memory_ordering_semantics"),
            Enum("memory_scope"),
            Enum("mode"),
            Operand("view"),
            Sized("index"),
            Operand("value"),
            OptOperand("token"),
        ],
        V13_3
    ),
];

/// Bytecode opcodes of the ops that live outside function bodies.
pub mod structural {
    /// `entry` (encoded in the function table).
    pub const ENTRY: u64 = 0x16;
    /// `global` (encoded in the global section).
    pub const GLOBAL: u64 = 0x31;
    /// `module` (the file itself).
    pub const MODULE: u64 = 0x4B;
}

/// The names of NVIDIA's ops that tilec does not implement, by bytecode opcode (for the
/// reader's messages).
pub fn unsupported_name(code: u64) -> Option<&'static str> {
    Some(match code {
        0x16 => "entry",
        0x31 => "global",
        0x4B => "module",
        0x6F => "pack",
        0x70 => "unpack",
        0x71 => "alloca",
        0x72 => "mmaf_scaled",
        _ => return None,
    })
}

/// The encoding of a tilec op, if it has one.
pub fn by_op(op: Opcode) -> Option<&'static Encoding> {
    static MAP: std::sync::OnceLock<Vec<Option<u16>>> = std::sync::OnceLock::new();
    let map = MAP.get_or_init(|| {
        let n = tilec_ir::ops::all().len();
        let mut v = vec![None; n];
        for (i, e) in ENCODINGS.iter().enumerate() {
            v[e.op as usize] = Some(i as u16);
        }
        v
    });
    map.get(op as usize)
        .copied()
        .flatten()
        .map(|i| &ENCODINGS[i as usize])
}

/// The encoding with a bytecode opcode.
pub fn by_code(code: u64) -> Option<&'static Encoding> {
    ENCODINGS.iter().find(|e| e.code == code)
}

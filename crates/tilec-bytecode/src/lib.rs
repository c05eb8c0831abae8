//! # tilec-bytecode: NVIDIA's Tile IR bytecode
//!
//! A reader and a writer for the binary form of CUDA Tile IR that NVIDIA's `tileiras`
//! compiles and cuTile Python produces, versions 13.1 to 13.3. The layout is described in
//! `docs/bytecode.md`; in short:
//!
//! * a header: the magic bytes `7F 'T' 'i' 'l' 'e' 'I' 'R' 00`, then the version as major
//!   (u8), minor (u8) and tag (u16, little-endian);
//! * sections, each an id byte (high bit: an alignment follows), a varint length, the
//!   optional alignment and padding, and the data: strings, types, constants, globals,
//!   functions (with their op streams), debug info and (13.3) the producer; a 0 byte ends
//!   the file.
//!
//! [`read`] turns bytes into a [`tilec_ir::Module`] (every malformed input is an error with
//! the byte offset it was found at, never a panic); [`write`] turns a module back into
//! bytes. Ops are described once, in [`schema`], in terms of the op table's slots.

#![warn(missing_docs)]

pub mod enc;
mod read;
pub mod schema;
mod write;

pub use read::{ReadOptions, read, read_with};
pub use write::write;

/// The first eight bytes of every bytecode file.
pub const MAGIC: [u8; 8] = [0x7F, b'T', b'i', b'l', b'e', b'I', b'R', 0x00];

/// True if `bytes` starts with the bytecode magic.
pub fn is_bytecode(bytes: &[u8]) -> bool {
    bytes.starts_with(&MAGIC)
}

pub use tilec_ir::ops::bytecode::Version;

/// Section ids.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Section {
    /// Ends the file.
    End = 0,
    /// Strings.
    String = 1,
    /// Functions and their bodies.
    Func = 2,
    /// Debug info.
    Debug = 3,
    /// Constants.
    Constant = 4,
    /// Types.
    Type = 5,
    /// Globals.
    Global = 6,
    /// The producer string (13.3).
    Producer = 7,
}

/// Type tags.
pub mod type_tag {
    #![allow(missing_docs)]
    pub const I1: u8 = 0;
    pub const I8: u8 = 1;
    pub const I16: u8 = 2;
    pub const I32: u8 = 3;
    pub const I64: u8 = 4;
    pub const F16: u8 = 5;
    pub const BF16: u8 = 6;
    pub const F32: u8 = 7;
    pub const TF32: u8 = 8;
    pub const F64: u8 = 9;
    pub const F8E4M3FN: u8 = 10;
    pub const F8E5M2: u8 = 11;
    pub const PTR: u8 = 12;
    pub const TILE: u8 = 13;
    pub const TENSOR_VIEW: u8 = 14;
    pub const PARTITION_VIEW: u8 = 15;
    pub const FUNCTION: u8 = 16;
    pub const TOKEN: u8 = 17;
    pub const F8E8M0FNU: u8 = 18;
    pub const F4E2M1FN: u8 = 19;
    pub const GATHER_SCATTER_VIEW: u8 = 20;
    pub const STRIDED_VIEW: u8 = 21;
    pub const I4: u8 = 22;
    /// NVIDIA's testing type `testing$bytecode_test_evolved` (testing versions only).
    pub const TEST_EVOLVED: u8 = 200;
}

/// Tags of self-describing attributes.
pub mod attr_tag {
    #![allow(missing_docs)]
    pub const INTEGER: u8 = 1;
    pub const FLOAT: u8 = 2;
    pub const BOOL: u8 = 3;
    pub const TYPE: u8 = 4;
    pub const STRING: u8 = 5;
    pub const ARRAY: u8 = 6;
    pub const DENSE: u8 = 7;
    pub const DIV_BY: u8 = 8;
    pub const SAME_ELEMENTS: u8 = 9;
    pub const DICTIONARY: u8 = 10;
    pub const OPT_HINTS: u8 = 11;
    /// `#cuda_tile.bytecode_test_value` (testing versions; tag 200 in NVIDIA's records).
    pub const BYTECODE_TEST_VALUE: u8 = 200;
    pub const BOUNDED: u8 = 12;
}

/// Tags of debug-info attributes.
pub mod dbg_tag {
    #![allow(missing_docs)]
    pub const UNKNOWN: u8 = 0;
    pub const DI_COMPILE_UNIT: u8 = 1;
    pub const DI_FILE: u8 = 2;
    pub const DI_LEXICAL_BLOCK: u8 = 3;
    pub const DI_LOC: u8 = 4;
    pub const DI_SUBPROGRAM: u8 = 5;
    pub const CALL_SITE: u8 = 6;
}

/// The lowest version that can encode `m`, which the most readers take (13.3 when none
/// can, so that the error names what the newest version lacks). A module with a
/// `producer` gets 13.3, the first version that keeps it (an explicit older version drops
/// it, as NVIDIA's writer does).
pub fn lowest_version(m: &tilec_ir::Module) -> Version {
    let producer = m
        .block_ops(m.body())
        .any(|o| m.opcode(o) == tilec_ir::Opcode::Module && m.attr(o, 1).is_some());
    // The testing versions come last: only a module with testing ops needs them.
    Version::SUPPORTED
        .into_iter()
        .chain(Version::TESTING)
        .filter(|v| !producer || *v >= Version::V13_3)
        .find(|v| write(m, *v).is_ok())
        .unwrap_or(Version::V13_3)
}

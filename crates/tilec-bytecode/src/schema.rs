//! The encoding of each operation in Tile IR bytecode: each op's entry in the op table
//! (`tilec_ir::ops`, [`tilec_ir::ops::OpDef::bytecode`]) holds its bytecode opcode, the
//! version that introduced it, and the order in which its fields are written, naming the
//! op's slots; this module indexes those descriptions for the reader (by opcode) and the
//! writer (by op), so there is one description per op and no list of its own here.

use crate::Version;
use tilec_ir::Opcode;
pub use tilec_ir::ops::bytecode::{Bit, Field};

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

/// Every op's encoding, from the op table, in opcode order.
fn encodings() -> &'static [Encoding] {
    static ALL: std::sync::OnceLock<Vec<Encoding>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        tilec_ir::ops::all()
            .iter()
            .filter_map(|d| {
                d.bytecode.map(|b| Encoding {
                    op: d.opcode,
                    code: b.code,
                    since: b.since,
                    fields: b.fields,
                })
            })
            .collect()
    })
}

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
        _ => return None,
    })
}

/// The encoding of a tilec op, if it has one.
pub fn by_op(op: Opcode) -> Option<&'static Encoding> {
    static MAP: std::sync::OnceLock<Vec<Option<u16>>> = std::sync::OnceLock::new();
    let map = MAP.get_or_init(|| {
        let n = tilec_ir::ops::all().len();
        let mut v = vec![None; n];
        for (i, e) in encodings().iter().enumerate() {
            v[e.op as usize] = Some(i as u16);
        }
        v
    });
    map.get(op as usize)
        .copied()
        .flatten()
        .map(|i| &encodings()[i as usize])
}

/// The encoding with a bytecode opcode.
pub fn by_code(code: u64) -> Option<&'static Encoding> {
    encodings().iter().find(|e| e.code == code)
}

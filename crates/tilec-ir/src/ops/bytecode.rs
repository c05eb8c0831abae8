//! The bytecode encoding of an op, part of its op-table entry ([`super::OpDef::bytecode`]):
//! its opcode, the version that introduced it, and the order in which its fields are
//! written, each field naming one of the op's operand, result or attribute slots (with the
//! version a field appeared in). `tilec-bytecode` interprets these descriptions to read
//! and write every op; it keeps no list of its own.

/// A bytecode version.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    /// Major version.
    pub major: u8,
    /// Minor version.
    pub minor: u8,
    /// Tag (0 for releases).
    pub tag: u16,
}

impl Version {
    /// 13.1, the oldest version tilec reads and writes.
    pub const V13_1: Version = Version::new(13, 1);
    /// 13.2.
    pub const V13_2: Version = Version::new(13, 2);
    /// 13.3, the newest version tilec reads and writes.
    pub const V13_3: Version = Version::new(13, 3);
    /// The versions tilec supports, oldest first.
    pub const SUPPORTED: [Version; 3] = [Version::V13_1, Version::V13_2, Version::V13_3];
    /// 250.0, the first of NVIDIA's testing versions (`TILE_IR_INCLUDE_TESTS` builds): it
    /// has every 13.x feature plus the `testing$bytecode_test_*` ops.
    pub const V250_0: Version = Version::new(250, 0);
    /// 250.1: the testing version that adds fields to the testing ops.
    pub const V250_1: Version = Version::new(250, 1);
    /// The testing versions, which only cuda-tile-translate's `-bytecode-version=` and
    /// `--list-versions` offer (NVIDIA's release tools do not read them).
    pub const TESTING: [Version; 2] = [Version::V250_0, Version::V250_1];
    /// The version written by default: 13.1, which every 13.x tileiras reads.
    pub const DEFAULT: Version = Version::V13_1;

    const fn new(major: u8, minor: u8) -> Version {
        Version {
            major,
            minor,
            tag: 0,
        }
    }

    /// Parses `13.1`, `13.2` or `13.3`.
    pub fn parse(s: &str) -> Option<Version> {
        Version::SUPPORTED.into_iter().find(|v| v.to_string() == s)
    }

    /// Parses a release or a testing version (`13.3`, `250.1`).
    pub fn parse_with_testing(s: &str) -> Option<Version> {
        Version::SUPPORTED
            .into_iter()
            .chain(Version::TESTING)
            .find(|v| v.to_string() == s)
    }

    /// True for the versions tilec reads (13.1 to 13.3 and the testing versions, any tag).
    pub fn is_supported(self) -> bool {
        Version::SUPPORTED
            .iter()
            .chain(&Version::TESTING)
            .any(|v| v.major == self.major && v.minor == self.minor)
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.tag == 0 {
            write!(f, "{}.{}", self.major, self.minor)
        } else {
            write!(f, "{}.{}.{}", self.major, self.minor, self.tag)
        }
    }
}

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
    /// An optional self-describing attribute, present when its flag bit is set.
    OptTagged(&'static str),
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

/// An op's bytecode encoding.
#[derive(Copy, Clone, Debug)]
pub struct Bytecode {
    /// The bytecode opcode.
    pub code: u64,
    /// The first bytecode version that has the op.
    pub since: Version,
    /// The fields, in stream order.
    pub fields: &'static [Field],
}

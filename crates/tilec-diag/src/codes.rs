//! The catalog of diagnostic codes.
//!
//! Every diagnostic tilec emits carries one of these codes. Codes are stable: a code keeps
//! its meaning forever, and tests and CI scripts may match on them. The message text of each
//! individual diagnostic is part of the contract too (it follows NVIDIA's tools where they
//! have a wording), but several messages can share one code.
//!
//! Ranges: `E00xx` driver and input handling, `E01xx` lexing and parsing, `E09xx` features
//! that are not implemented yet.

/// One entry of the catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeInfo {
    /// The code, e.g. `E0104`.
    pub code: &'static str,
    /// A one-line title.
    pub title: &'static str,
    /// What the diagnostic means and how to fix it.
    pub explanation: &'static str,
}

macro_rules! codes {
    ($($(#[$doc:meta])* $name:ident = $code:literal, $title:literal, $expl:literal;)*) => {
        $($(#[$doc])* pub const $name: &str = $code;)*
        /// All codes, in ascending order.
        pub static CATALOG: &[CodeInfo] = &[
            $(CodeInfo { code: $code, title: $title, explanation: $expl },)*
        ];
    };
}

codes! {
    /// The input could not be read or is not valid UTF-8.
    INPUT = "E0001", "unreadable input",
        "The input file could not be read, or it is not UTF-8 text.";
    /// Invalid character or malformed token.
    LEX = "E0101", "invalid token",
        "The lexer found a character or token that is not part of the tile IR text syntax, such as an unterminated string literal or a stray character.";
    /// A token other than the one the grammar requires.
    SYNTAX = "E0102", "unexpected token",
        "The parser expected a particular token or construct (the message says which) and found something else. Fix the syntax at the reported location.";
    /// Unknown operation name.
    UNKNOWN_OP = "E0103", "unknown operation",
        "The operation name is not a cuda_tile operation. Operation names may be written with or without the `cuda_tile.` prefix; check the spelling against the op table (`tilec ops`).";
    /// Use of an SSA value that is never defined.
    UNDECLARED_VALUE = "E0104", "use of undeclared SSA value",
        "An operand names an SSA value that is not defined in any enclosing scope. Values defined inside a region are not visible after the region ends, and an operation's operands cannot use values defined in its own regions.";
    /// An SSA name defined twice in the same scope.
    REDEFINED_VALUE = "E0105", "redefinition of SSA value",
        "The same SSA name is defined twice where both definitions are visible. Sibling regions may reuse names; nested regions may not redefine a name of an enclosing region.";
    /// An SSA value used with a type that differs from its definition.
    VALUE_TYPE_MISMATCH = "E0106", "SSA value used with a different type",
        "The type written (or implied) for an operand differs from the type the value was defined with. The note points at the definition or prior use.";
    /// Wrong number of result names.
    RESULT_COUNT = "E0107", "wrong number of result names",
        "The number of SSA names on the left of `=` (counting `%x:N` packs) differs from the number of results the operation defines.";
    /// A malformed or invalid type.
    INVALID_TYPE = "E0108", "invalid type",
        "A type is malformed or violates a type constraint (for example a dynamic `?` dimension in a tile, a non-positive dimension, or an unsupported element type).";
    /// A malformed or invalid attribute or literal.
    INVALID_ATTRIBUTE = "E0109", "invalid attribute",
        "An attribute or literal is malformed or out of range for its type (for example an enum keyword that is not one of the allowed values, or an integer that does not fit).";
    /// Number of operands and types differ.
    OPERAND_TYPE_COUNT = "E0110", "operand and type counts differ",
        "The operation lists a different number of operands than types.";
    /// Invalid region or block structure.
    REGION = "E0111", "invalid region or block",
        "A region or block is malformed: an undefined or duplicate block label, block arguments in the wrong place, or an entry argument name that is already in use.";
    /// Reference to an undefined alias.
    UNDEFINED_ALIAS = "E0112", "undefined alias",
        "A `#name` or `!name` alias (for example a `#loc3` location alias) is used but never defined in the file.";
    /// A symbol defined twice, or a reference to a symbol that does not exist.
    SYMBOL = "E0113", "unknown or duplicate symbol",
        "Two items of one module (`global`, `entry`, functions) have the same `@name`, or an op refers to a symbol that the enclosing module does not define (for example `get_global @g` without a `global @g`).";
    /// A malformed dense constant.
    DENSE = "E0114", "invalid constant literal",
        "A dense constant (`<f32: [...]>` or `dense<...>`) is malformed: its element type or shape does not match the tile type, its nesting is inconsistent, or it is empty.";
    /// A construct the parser does not support.
    UNSUPPORTED_SYNTAX = "E0190", "unsupported syntax",
        "The construct is valid MLIR syntax but has no meaning in tile IR (for example block successors).";
    /// Compilation to PTX is not available yet.
    PTX_NOT_IMPLEMENTED = "E0901", "PTX emission not implemented",
        "This build of tilec parses and checks tile IR but cannot emit PTX yet.";
}

/// Looks up a code.
pub fn lookup(code: &str) -> Option<&'static CodeInfo> {
    CATALOG.iter().find(|c| c.code == code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_sorted() {
        for w in CATALOG.windows(2) {
            assert!(w[0].code < w[1].code, "{} !< {}", w[0].code, w[1].code);
        }
        assert_eq!(
            lookup("E0104").unwrap().title,
            "use of undeclared SSA value"
        );
        assert!(lookup("E9999").is_none());
    }
}

//! The verifier's message catalog: one [`CodeInfo`] per rule, with the spec's wording and
//! NVIDIA's (see [`CodeInfo::template`]). Each family of rules has its own file and code
//! range; `tilec explain` and docs/diagnostics.md are generated from these entries.
//!
//! Wording is a contract: frontends' tests match these messages byte for byte (after the
//! `'cuda_tile.OP' op ` prefix that MLIR puts before op errors). Never reword an entry;
//! add a new one.

use crate::codes::CodeInfo;

/// Defines catalog entries and the list of them.
macro_rules! catalog {
    ($($(#[$m:meta])* $name:ident = $e:expr;)*) => {
        $($(#[$m])* pub static $name: CodeInfo = $e;)*
        /// Every entry of this file.
        pub(crate) static ENTRIES: &[&CodeInfo] = &[$(&$name),*];
    };
}

pub mod aggregate;
pub mod arith;
pub mod assume;
pub mod control;
pub mod conversion;
pub mod generic;
pub mod memory;
pub mod misc;
pub mod mma;
pub mod view;

/// All verifier entries, in file order.
pub fn entries() -> impl Iterator<Item = &'static CodeInfo> {
    [
        generic::ENTRIES,
        arith::ENTRIES,
        conversion::ENTRIES,
        memory::ENTRIES,
        control::ENTRIES,
        view::ENTRIES,
        aggregate::ENTRIES,
        mma::ENTRIES,
        assume::ENTRIES,
        misc::ENTRIES,
    ]
    .into_iter()
    .flatten()
    .copied()
}

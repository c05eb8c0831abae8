//! # tilec-parse: the textual tile IR front end
//!
//! A logos lexer ([`lexer`]) and a hand-written recursive-descent parser that turns the
//! textual form of NVIDIA CUDA Tile IR into a [`tilec_ir::Module`]. It accepts:
//!
//! * NVIDIA's syntax as `cuda-tile-opt` and `tileirdisasm` print it (`constant <i32: 4> :
//!   tile<i32>`, ops with or without the `cuda_tile.` prefix, types with or without
//!   `!cuda_tile.`, `loc(...)` locations and `#loc` aliases, entries at the top level);
//! * the spec's example syntax (`constant dense<0> : tile<i32>`, view loads without an
//!   index type, the spec's op names such as `negsi` and `powf`);
//! * MLIR's generic op form (`"cuda_tile.addf"(%0, %1) <{...}> : (...) -> ...`), `%x:2`
//!   result packs and `%x#1` uses, block labels and arguments.
//!
//! Ops are parsed by interpreting the assembly format of their op table entry; a handful of
//! ops with irregular syntax have hand-written parsers (see
//! [`tilec_ir::ops::CustomSyntax`]).
//!
//! Errors are [`tilec_diag::Diagnostic`]s with the wording of MLIR's parser (`expected '<'`,
//! `use of undeclared SSA value name`, ...). Like MLIR, parsing a chunk stops at its first
//! syntax error; [`split_input`] cuts a file at `// -----` lines so that every chunk is
//! parsed (and reported) on its own, with line numbers of the whole file.

#![warn(missing_docs)]

mod attr;
mod custom;
mod format;
pub mod lexer;
mod ops;
mod parser;
mod types;

pub use parser::{MAX_NESTING, ParseOptions, Parser};

use tilec_diag::{Diagnostic, FileId};
use tilec_ir::Module;

/// Parses a whole source text into a module.
pub fn parse(src: &str, file: FileId, opts: &ParseOptions) -> Result<Module, Vec<Diagnostic>> {
    parse_range(src, 0, src.len(), file, opts)
}

/// Parses `src[start..end]`; spans in the module and the diagnostics are offsets into the
/// whole of `src`.
pub fn parse_range(
    src: &str,
    start: usize,
    end: usize,
    file: FileId,
    opts: &ParseOptions,
) -> Result<Module, Vec<Diagnostic>> {
    Parser::new(src, start, end, file, opts.clone()).parse_module()
}

/// The byte ranges of the chunks of a file split at lines that start with `// -----`
/// (MLIR's `-split-input-file` convention). Without a marker, the whole file is one chunk.
pub fn split_input(src: &str) -> Vec<std::ops::Range<usize>> {
    let mut chunks = Vec::new();
    let mut start = 0;
    let mut line_start = 0;
    for (i, line) in src.split_inclusive('\n').enumerate() {
        let _ = i;
        if line.starts_with("// -----") {
            chunks.push(start..line_start);
            start = line_start + line.len();
        }
        line_start += line.len();
    }
    chunks.push(start..src.len());
    chunks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_at_marker_lines_only() {
        let s = "a\n// -----\nb\n  // ----- not\n// -----  x\nc";
        let c = split_input(s);
        assert_eq!(c.len(), 3);
        assert_eq!(&s[c[0].clone()], "a\n");
        assert_eq!(&s[c[1].clone()], "b\n  // ----- not\n");
        assert_eq!(&s[c[2].clone()], "c");
        assert_eq!(split_input("x"), vec![0..1]);
    }
}

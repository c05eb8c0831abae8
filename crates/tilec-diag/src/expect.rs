//! `--verify-diagnostics`: checking diagnostics against `// expected-error {{...}}`
//! comments in the source, with MLIR's semantics. (Being written.)

//! `E12xx`: globals, functions and entries, constants, printing, misc.

use crate::codes::CodeInfo;

catalog! {
    /// `get_global` names no global.
    UNKNOWN_GLOBAL = CodeInfo::rule("E1201", "unknown global",
        "'{name}' does not reference a valid global")
        .explain("`get_global @g` must name a `global` of the enclosing module (or of the top level, for files without a module).")
        .example("cuda_tile.module @m {\n  cuda_tile.global @g <f32: [1.0, 2.0]> : !cuda_tile.tile<2xf32>\n  cuda_tile.entry @k() {\n    %p = cuda_tile.get_global @g : !cuda_tile.tile<!cuda_tile.ptr<f32>>\n  }\n}");
    /// A symbol reference names nothing.
    UNKNOWN_SYMBOL = CodeInfo::rule("E1202", "unknown symbol",
        "'{name}' does not reference a valid symbol")
        .explain("A symbol reference must name a symbol (global, entry, function) of the enclosing module.")
        .example("cuda_tile.module @m {\n  cuda_tile.global @g <f32: [1.0, 2.0]> : !cuda_tile.tile<2xf32>\n}");
    /// `get_global`'s pointer type differs from the global's element type.
    GLOBAL_POINTEE = CodeInfo::rule("E1203", "get_global pointee type",
        "pointee type of result type '{result}' does not match type '{type}' of the global @{name}")
        .explain("`get_global` returns a pointer to the global's elements: its result is a rank-0 tile of `ptr<T>` where `T` is the element type of the global.")
        .example("cuda_tile.global @g <f16: [1.0, 2.0]> : !cuda_tile.tile<2xf16>\n%p = cuda_tile.get_global @g : !cuda_tile.tile<!cuda_tile.ptr<f16>>");
}

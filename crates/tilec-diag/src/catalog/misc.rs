//! `E12xx`: globals, functions and entries, constants, printing, misc.

use crate::codes::CodeInfo;

catalog! {
    /// `get_global` names no global.
    UNKNOWN_GLOBAL = CodeInfo::rule("E1201", "unknown global",
        "'{name}' does not reference a valid global")
        .explain("`get_global @g` must name a `global` of the enclosing module (or of the top level, for files without a module).")
        .example("cuda_tile.module @m {\n  cuda_tile.global @g <f32: [1.0, 2.0]> : !cuda_tile.tile<2xf32>\n  cuda_tile.entry @k() {\n    %p = cuda_tile.get_global @g : !cuda_tile.tile<!cuda_tile.ptr<f32>>\n  }\n}");
    /// `get_global`'s pointer type differs from the global's element type.
    GLOBAL_POINTEE = CodeInfo::rule("E1203", "get_global pointee type",
        "pointee type of result type '{result}' does not match type '{type}' of the global @{name}")
        .explain("`get_global` returns a pointer to the global's elements: its result is a rank-0 tile of `ptr<T>` where `T` is the element type of the global.")
        .example("cuda_tile.global @g <f16: [1.0, 2.0]> : !cuda_tile.tile<2xf16>\n%p = cuda_tile.get_global @g : !cuda_tile.tile<!cuda_tile.ptr<f16>>");
    /// An entry (kernel) that declares results.
    ENTRY_RESULTS = CodeInfo::rule("E1204", "entry results",
        "entry op must not return values")
        .explain("A kernel is launched from the host and cannot return anything: an `entry` has no results (write results to global memory through pointer or view arguments instead).")
        .example("cuda_tile.entry @k(%out: !cuda_tile.tile<!cuda_tile.ptr<f32>>) {\n  cuda_tile.return\n}");
    /// An entry argument that is a tile of rank 1 or more.
    ENTRY_ARG_RANK = CodeInfo::rule("E1205", "entry argument rank",
        "entry op must have scalar types (rank 0 !cuda_tile.tile)")
        .explain("Kernel arguments are passed by value from the host: tile arguments of an `entry` are rank-0 tiles (scalars, or pointers to the data). Pass arrays as pointers and build views or tiles of pointers inside the kernel.")
        .example("cuda_tile.entry @k(%p: !cuda_tile.tile<!cuda_tile.ptr<f32>>, %n: !cuda_tile.tile<i32>) {\n}");
    /// A global whose value is not a 1-d tile.
    GLOBAL_RANK = CodeInfo::rule("E1206", "global rank",
        "type must have rank 1")
        .explain("A `global` is a 1-dimensional allocation in global memory: its initial value is a rank-1 tile (flatten the data; `get_global` returns a pointer to its first element).")
        .example("cuda_tile.global @g <f16: [1.0, 2.0, 3.0, 4.0]> : !cuda_tile.tile<4xf16>");
    /// A constant whose value does not have the result's type.
    CONSTANT_TYPE = CodeInfo::rule("E1207", "constant value type",
        "constant value of type '{value}' and result of type '{result}' must have the same shape and element type")
        .upstream("failed to verify that all of {value, result} have same type")
        .explain("The value of a `constant` is a dense literal of the result's type: same shape and same element type. This can only go wrong in the generic form, where the literal's type and the result type are written separately.")
        .example("%c = \"cuda_tile.constant\"() {value = dense<[1, 2]> : !cuda_tile.tile<2xi32>} : () -> !cuda_tile.tile<2xi32>");
    /// A `print` format string with a `%` that starts no complete format expression.
    PRINT_UNTERMINATED = CodeInfo::rule("E1208", "print format expression",
        "found unterminated format expression")
        .explain("Each `%` of a `print` format string starts a printf-style format expression that ends with a conversion character (`d`, `i`, `u`, `o`, `x`, `X`, `e`, `E`, `f`, `F`, `g`, `G`, `a`, `A`, `c`, `s`, `p` or `n`); `%%` prints a percent sign.")
        .example("cuda_tile.print \"x = %f, 100%%\\n\", %x : !cuda_tile.tile<4xf32>");
    /// A `print` whose format expressions and operands differ in number.
    PRINT_OPERANDS = CodeInfo::rule("E1209", "print operand count",
        "incorrect number of operands: expected {expected}, found {found}")
        .explain("`print` formats one operand per format expression of its format string (`%%` takes none).")
        .example("cuda_tile.print \"%f and %f\\n\", %x, %y : !cuda_tile.tile<4xf32>, !cuda_tile.tile<4xf32>");
    /// A global whose alignment is not a power of two.
    GLOBAL_ALIGNMENT = CodeInfo::rule("E1210", "global alignment",
        "alignment must be a power of two, got {alignment}")
        .explain("The `alignment` of a `global` is the byte alignment of its allocation; it becomes PTX's `.align`, which takes powers of two. 0 or no alignment means the element type's natural alignment.")
        .example("cuda_tile.global @g alignment = 128 <f32: [1.0, 2.0, 3.0, 4.0]> : !cuda_tile.tile<4xf32>");
}

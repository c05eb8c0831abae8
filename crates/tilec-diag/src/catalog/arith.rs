//! `E03xx`: float and integer arithmetic.

use crate::codes::CodeInfo;

catalog! {
    /// Operands and results of a float op with different element types.
    FLOAT_ELEMENT_TYPES = CodeInfo::rule("E0301", "float op element types differ",
        "expected matching operand and result element types")
        .explain("Float arithmetic never converts implicitly: every operand and the result of a float op (both operands of `cmpf`) have the same element type. Convert with `ftof` first.")
        .example("%x = cuda_tile.ftof %h : !cuda_tile.tile<4xf16> -> !cuda_tile.tile<4xf32>\n%r = cuda_tile.addf %x, %y : !cuda_tile.tile<4xf32>");
    /// `flush_to_zero` on a type other than f32.
    FTZ_F32 = CodeInfo::rule("E0302", "flush_to_zero requires f32",
        "flush-to-zero is only legal for f32 element type")
        .upstream("flush_to_zero modifier only supported for f32 data type, but got: '{type}'")
        .explain("The `flush_to_zero` modifier (flush subnormal inputs and results to zero) exists for f32 only. Drop it for f16, bf16 and f64 operations.")
        .example("%r = cuda_tile.addf %a, %b flush_to_zero : !cuda_tile.tile<4xf32>\n%s = cuda_tile.addf %c, %d : !cuda_tile.tile<4xf64>");
    /// A rounding mode `divf` does not accept.
    DIVF_ROUNDING = CodeInfo::rule("E0303", "invalid divf rounding mode",
        "invalid rounding mode for divf")
        .upstream("invalid rounding error specified, expect one of [nearest_even, zero, negative_inf, positive_inf, approx, full]")
        .explain("`divf` accepts the IEEE rounding modes (`nearest_even`, `zero`, `negative_inf`, `positive_inf`) and the f32-only `approx` and `full` modes; `nearest_int_to_zero` is for float-to-integer conversions.")
        .example("%q = cuda_tile.divf %a, %b rounding<zero> : !cuda_tile.tile<4xf32>");
    /// `approx` or `full` on a type other than f32.
    APPROX_FULL_F32 = CodeInfo::rule("E0304", "approx and full rounding require f32",
        "approx and full rounding modes require f32")
        .upstream("{mode} modifier only supported for f32 data type, but got: '{type}'")
        .explain("The fast `approx` division and square root and the `full`-range division are f32 instructions; other element types use an IEEE rounding mode.")
        .example("%q = cuda_tile.divf %a, %b rounding<approx> : !cuda_tile.tile<4xf32>\n%r = cuda_tile.divf %c, %d : !cuda_tile.tile<4xf64>");
    /// A rounding mode other than the IEEE ones on a float op that is not `divf`.
    ROUNDING_OUTSIDE_DIVF = CodeInfo::rule("E0305", "rounding mode not allowed on this op",
        "rounding mode not allowed outside divf")
        .upstream("invalid rounding error specified, expect one of [{modes}]")
        .explain("`addf`, `subf`, `mulf` and `fma` accept the IEEE rounding modes (`nearest_even`, `zero`, `negative_inf`, `positive_inf`); `sqrt` also accepts `approx`; `exp` and `tanh` take only `approx` (f32) and their default `full`. The `full` mode is otherwise for `divf` only and `nearest_int_to_zero` for `ftoi`.")
        .example("%r = cuda_tile.addf %a, %b rounding<zero> : !cuda_tile.tile<4xf32>");
    /// A rounding mode the op's custom syntax does not accept (a parse error in NVIDIA's tool).
    ROUNDING_SYNTAX = CodeInfo::rule("E0306", "rounding mode not accepted by the op's syntax",
        "custom op '{op}' expected rounding mode to be one of: {modes}, got: '{mode}'")
        .bare()
        .explain("With `--compat=cuda-tile-opt`: NVIDIA's parser only accepts the rounding modes an op supports in its `rounding<...>` modifier (the IEEE modes for `addf`, `subf`, `mulf`, `fma`, `ftof` and `itof`; `nearest_int_to_zero` for `ftoi`) and reports others as a syntax error. In the default mode the op's own rule reports them.")
        .example("%i = cuda_tile.ftoi %x signed : !cuda_tile.tile<4xf32> -> !cuda_tile.tile<4xi32>\n%f = cuda_tile.itof %i signed rounding<nearest_even> : !cuda_tile.tile<4xi32> -> !cuda_tile.tile<4xf32>");
    /// A rounding mode `divi` does not accept.
    DIVI_ROUNDING = CodeInfo::rule("E0307", "invalid divi rounding mode",
        "invalid rounding error specified, expect one of [zero, negative_inf, positive_inf]")
        .explain("Integer division rounds towards zero by default; `rounding<positive_inf>` gives a ceiling division and `rounding<negative_inf>` a floor division. Other modes have no meaning for integers.")
        .example("%q = cuda_tile.divi %a, %b signed rounding<negative_inf> : !cuda_tile.tile<4xi32>");
    /// Floor division of unsigned integers.
    DIVI_UNSIGNED_FLOOR = CodeInfo::rule("E0308", "divi floor rounding of unsigned integers",
        "rounding mode 'negative_inf' is not allowed with 'unsigned' flag")
        .explain("For unsigned operands the quotient is never negative, so floor division is the same as the default truncating division; `divi` rejects the combination. Drop the rounding modifier.")
        .example("%q = cuda_tile.divi %a, %b unsigned : !cuda_tile.tile<4xi32>");
    /// `negi` with an unsigned overflow flag (13.2).
    NEGI_OVERFLOW = CodeInfo::rule("E0309", "negi overflow flag",
        "'{flag}' overflow flag is not supported")
        .explain("`negi` treats its operand as signed, so only `no_signed_wrap` (negating the minimum value is undefined) has a meaning; `no_unsigned_wrap` and `no_wrap` are refused.")
        .example("%n = cuda_tile.negi %x overflow<no_signed_wrap> : !cuda_tile.tile<4xi32>");
}

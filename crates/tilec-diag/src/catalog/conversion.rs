//! `E04xx`: conversions (exti, trunci, ftof, itof, ftoi, bitcast, ptr casts).

use crate::codes::CodeInfo;

catalog! {
    /// `exti` that does not widen.
    EXTI_WIDTH = CodeInfo::rule("E0401", "exti must widen",
        "exti requires the result width to be strictly greater than the input width")
        .upstream("extending to smaller or identical integer")
        .explain("`exti` sign- or zero-extends integers to a strictly wider type. Use `trunci` to narrow; a same-width extension is a no-op and must be left out.")
        .example("%w = cuda_tile.exti %x signed : !cuda_tile.tile<4xi16> -> !cuda_tile.tile<4xi32>");
    /// `trunci` that does not narrow.
    TRUNCI_WIDTH = CodeInfo::rule("E0402", "trunci must narrow",
        "trunci requires the result width to be strictly less than the input width")
        .upstream("truncating to larger or identical integer")
        .explain("`trunci` drops the most significant bits, so the result type is strictly narrower than the input. Use `exti` to widen; a same-width truncation is a no-op and must be left out.")
        .example("%n = cuda_tile.trunci %x : !cuda_tile.tile<4xi32> -> !cuda_tile.tile<4xi8>");
    /// `ftof` between identical types.
    FTOF_IDENTITY = CodeInfo::rule("E0403", "ftof identity conversion",
        "ftof rejects identity conversions")
        .upstream("converting tiles must not be a no-op")
        .explain("`ftof` converts between two different floating-point element types; converting a type to itself would hide a no-op cast. Use the value directly.")
        .example("%w = cuda_tile.ftof %x : !cuda_tile.tile<4xf16> -> !cuda_tile.tile<4xf32>");
    /// `ftof` with a rounding mode other than `nearest_even`.
    FTOF_ROUNDING = CodeInfo::rule("E0404", "ftof rounding mode",
        "ftof requires nearest-even rounding")
        .upstream("invalid rounding mode specified. Only 'nearest_even' is supported")
        .upstream_13_1("invalid rounding mode specified for ftof. Only 'nearest_even' is supported")
        .explain("Float-to-float conversions round to nearest, ties to even; other rounding modes are not supported. Drop the `rounding<...>` modifier.")
        .example("%n = cuda_tile.ftof %x : !cuda_tile.tile<4xf32> -> !cuda_tile.tile<4xf16>");
    /// `ftof` to `f8E8M0FNU` rounding to nearest (it has no nearest for most values).
    FTOF_E8M0_ROUNDING = CodeInfo::rule("E0408", "ftof to f8E8M0FNU rounding mode",
        "ftof to f8E8M0FNU requires rounding<zero> or rounding<positive_inf>")
        .upstream("invalid rounding mode specified for conversion to f8E8M0FNU. Only 'zero' and 'positive_inf' are supported")
        .explain("`f8E8M0FNU` holds only powers of two (block scales). A conversion to it rounds down (`rounding<zero>`) or up (`rounding<positive_inf>`) to a power of two; the default, `nearest_even`, is not supported, so the rounding must be written.")
        .example("%s = cuda_tile.ftof %x rounding<positive_inf> : !cuda_tile.tile<4xf32> -> !cuda_tile.tile<4xf8E8M0FNU>");
    /// `itof` with a rounding mode other than `nearest_even`.
    ITOF_ROUNDING = CodeInfo::rule("E0405", "itof rounding mode",
        "itof requires nearest-even rounding")
        .upstream("invalid rounding mode specified. Only 'nearest_even' is supported")
        .upstream_13_1("invalid rounding error specified. Only 'nearest_even' is supported")
        .explain("Integer-to-float conversions round to nearest, ties to even; other rounding modes are not supported. Drop the `rounding<...>` modifier.")
        .example("%f = cuda_tile.itof %i signed : !cuda_tile.tile<4xi32> -> !cuda_tile.tile<4xf32>");
    /// `ftoi` with a rounding mode other than `nearest_int_to_zero`.
    FTOI_ROUNDING = CodeInfo::rule("E0406", "ftoi rounding mode",
        "ftoi requires truncation toward zero")
        .upstream("invalid rounding error specified. Only 'nearest_int_to_zero' is supported")
        .explain("Float-to-integer conversions truncate towards zero (`nearest_int_to_zero`, the default); other rounding modes are not supported. Use `floor` or `ceil` before the conversion for other roundings.")
        .example("%i = cuda_tile.ftoi %x signed : !cuda_tile.tile<4xf32> -> !cuda_tile.tile<4xi32>");
    /// `bitcast` between element types of different widths.
    BITCAST_WIDTH = CodeInfo::rule("E0407", "bitcast width mismatch",
        "bitcast requires equal-width source and destination element types")
        .upstream("types must be equal width, cannot convert '{source}' of width {from} to type '{result}' of width {to}")
        .explain("`bitcast` reinterprets the bits of each element, so the source and result element types have the same bit width (for example i32 and f32). Change the width with `exti`, `trunci` or `ftof` instead.")
        .example("%b = cuda_tile.bitcast %x : !cuda_tile.tile<4xf32> -> !cuda_tile.tile<4xi32>");
}

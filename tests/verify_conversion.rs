//! Verifier diagnostics of the conversion family: every catalog entry produced exactly, in both
//! personalities, and valid near-misses that verify clean.

use tilec_tests::{assert_clean as clean, assert_modes as modes, test_func as func};

const ARGS: &str =
    "%i: !cuda_tile.tile<4xi32>, %f: !cuda_tile.tile<4xf32>, %h: !cuda_tile.tile<4xf16>";

#[test]
fn exti_widens() {
    for to in ["i32", "i16"] {
        let src = func(
            ARGS,
            &format!("    %0 = exti %i signed : !cuda_tile.tile<4xi32> -> !cuda_tile.tile<4x{to}>"),
        );
        modes(
            &src,
            &[
                "error 3:10: 'cuda_tile.exti' op exti requires the result width to be strictly greater than the input width",
            ],
            &["error 3:10: 'cuda_tile.exti' op extending to smaller or identical integer"],
        );
    }
    clean(&func(
        ARGS,
        "    %0 = exti %i unsigned : !cuda_tile.tile<4xi32> -> !cuda_tile.tile<4xi64>",
    ));
}

#[test]
fn trunci_narrows() {
    for to in ["i32", "i64"] {
        let src = func(
            ARGS,
            &format!("    %0 = trunci %i : !cuda_tile.tile<4xi32> -> !cuda_tile.tile<4x{to}>"),
        );
        modes(
            &src,
            &[
                "error 3:10: 'cuda_tile.trunci' op trunci requires the result width to be strictly less than the input width",
            ],
            &["error 3:10: 'cuda_tile.trunci' op truncating to larger or identical integer"],
        );
    }
    clean(&func(
        ARGS,
        "    %0 = trunci %i overflow<no_wrap> : !cuda_tile.tile<4xi32> -> !cuda_tile.tile<4xi1>",
    ));
}

#[test]
fn ftof_identity() {
    let src = func(
        ARGS,
        "    %0 = ftof %f : !cuda_tile.tile<4xf32> -> !cuda_tile.tile<4xf32>",
    );
    modes(
        &src,
        &["error 3:10: 'cuda_tile.ftof' op ftof rejects identity conversions"],
        &["error 3:10: 'cuda_tile.ftof' op converting tiles must not be a no-op"],
    );
    // Same width, different types.
    clean(&func(
        ARGS,
        "    %0 = ftof %h : !cuda_tile.tile<4xf16> -> !cuda_tile.tile<4xbf16>\n    %1 = ftof %f : !cuda_tile.tile<4xf32> -> !cuda_tile.tile<4xf16>\n    %2 = ftof %h rounding<nearest_even> : !cuda_tile.tile<4xf16> -> !cuda_tile.tile<4xf64>",
    ));
}

#[test]
fn ftof_rounding() {
    let src = func(
        ARGS,
        "    %0 = ftof %f rounding<negative_inf> : !cuda_tile.tile<4xf32> -> !cuda_tile.tile<4xf64>",
    );
    modes(
        &src,
        &["error 3:10: 'cuda_tile.ftof' op ftof requires nearest-even rounding"],
        &[
            "error 3:10: 'cuda_tile.ftof' op invalid rounding mode specified. Only 'nearest_even' is supported",
        ],
    );
    // Not an IEEE mode: a syntax error for NVIDIA's parser, before the identity check.
    let src = func(
        ARGS,
        "    %0 = ftof %f rounding<approx> : !cuda_tile.tile<4xf32> -> !cuda_tile.tile<4xf32>",
    );
    modes(
        &src,
        &["error 3:10: 'cuda_tile.ftof' op ftof rejects identity conversions"],
        &[
            "error 3:18: custom op 'cuda_tile.ftof' expected rounding mode to be one of: 'nearest_even', 'zero', 'negative_inf', 'positive_inf', got: 'approx'",
        ],
    );
    let src = func(
        ARGS,
        "    %0 = \"cuda_tile.ftof\"(%f) <{rounding_mode = #cuda_tile.rounding<full>}> : (!cuda_tile.tile<4xf32>) -> !cuda_tile.tile<4xf16>",
    );
    modes(
        &src,
        &["error 3:10: 'cuda_tile.ftof' op ftof requires nearest-even rounding"],
        &[
            "error 3:10: 'cuda_tile.ftof' op invalid rounding mode specified. Only 'nearest_even' is supported",
        ],
    );
}

#[test]
fn ftof_to_e8m0_rounds_down_or_up() {
    // f8E8M0FNU holds powers of two: only rounding<zero> and rounding<positive_inf>, and
    // the default (nearest_even) is refused too.
    for r in ["", " rounding<nearest_even>", " rounding<negative_inf>"] {
        let src = func(
            ARGS,
            &format!(
                "    %0 = ftof %f{r} : !cuda_tile.tile<4xf32> -> !cuda_tile.tile<4xf8E8M0FNU>"
            ),
        );
        modes(
            &src,
            &[
                "error 3:10: 'cuda_tile.ftof' op ftof to f8E8M0FNU requires rounding<zero> or rounding<positive_inf>",
            ],
            &[
                "error 3:10: 'cuda_tile.ftof' op invalid rounding mode specified for conversion to f8E8M0FNU. Only 'zero' and 'positive_inf' are supported",
            ],
        );
    }
    clean(&func(
        ARGS,
        "    %0 = ftof %f rounding<zero> : !cuda_tile.tile<4xf32> -> !cuda_tile.tile<4xf8E8M0FNU>\n    %1 = ftof %h rounding<positive_inf> : !cuda_tile.tile<4xf16> -> !cuda_tile.tile<4xf8E8M0FNU>\n    %2 = ftof %0 : !cuda_tile.tile<4xf8E8M0FNU> -> !cuda_tile.tile<4xf32>\n    %3 = ftof %f : !cuda_tile.tile<4xf32> -> !cuda_tile.tile<4xf4E2M1FN>",
    ));
}

#[test]
fn itof_rounding() {
    let src = func(
        ARGS,
        "    %0 = itof %i unsigned rounding<negative_inf> : !cuda_tile.tile<4xi32> -> !cuda_tile.tile<4xf32>",
    );
    modes(
        &src,
        &["error 3:10: 'cuda_tile.itof' op itof requires nearest-even rounding"],
        &[
            "error 3:10: 'cuda_tile.itof' op invalid rounding mode specified. Only 'nearest_even' is supported",
        ],
    );
    let src = func(
        ARGS,
        "    %0 = itof %i signed rounding<nearest_int_to_zero> : !cuda_tile.tile<4xi32> -> !cuda_tile.tile<4xf32>",
    );
    modes(
        &src,
        &["error 3:10: 'cuda_tile.itof' op itof requires nearest-even rounding"],
        &[
            "error 3:25: custom op 'cuda_tile.itof' expected rounding mode to be one of: 'nearest_even', 'zero', 'negative_inf', 'positive_inf', got: 'nearest_int_to_zero'",
        ],
    );
    clean(&func(
        ARGS,
        "    %0 = itof %i signed : !cuda_tile.tile<4xi32> -> !cuda_tile.tile<4xf32>\n    %1 = itof %i unsigned rounding<nearest_even> : !cuda_tile.tile<4xi32> -> !cuda_tile.tile<4xf16>",
    ));
}

#[test]
fn ftoi_rounding() {
    let src = func(
        ARGS,
        "    %0 = ftoi %f unsigned rounding<nearest_even> : !cuda_tile.tile<4xf32> -> !cuda_tile.tile<4xi64>",
    );
    modes(
        &src,
        &["error 3:10: 'cuda_tile.ftoi' op ftoi requires truncation toward zero"],
        &[
            "error 3:27: custom op 'cuda_tile.ftoi' expected rounding mode to be one of: 'nearest_int_to_zero', got: 'nearest_even'",
        ],
    );
    let src = func(
        ARGS,
        "    %0 = \"cuda_tile.ftoi\"(%f) <{signedness = #cuda_tile.signedness<signed>, rounding_mode = #cuda_tile.rounding<zero>}> : (!cuda_tile.tile<4xf32>) -> !cuda_tile.tile<4xi32>",
    );
    modes(
        &src,
        &["error 3:10: 'cuda_tile.ftoi' op ftoi requires truncation toward zero"],
        &[
            "error 3:10: 'cuda_tile.ftoi' op invalid rounding error specified. Only 'nearest_int_to_zero' is supported",
        ],
    );
    clean(&func(
        ARGS,
        "    %0 = ftoi %f signed : !cuda_tile.tile<4xf32> -> !cuda_tile.tile<4xi32>\n    %1 = ftoi %h unsigned rounding<nearest_int_to_zero> : !cuda_tile.tile<4xf16> -> !cuda_tile.tile<4xi8>",
    ));
}

#[test]
fn bitcast_widths() {
    let src = func(
        ARGS,
        "    %0 = bitcast %i : !cuda_tile.tile<4xi32> -> !cuda_tile.tile<4xi16>",
    );
    modes(
        &src,
        &[
            "error 3:10: 'cuda_tile.bitcast' op bitcast requires equal-width source and destination element types",
        ],
        &[
            "error 3:10: 'cuda_tile.bitcast' op types must be equal width, cannot convert '!cuda_tile.tile<4xi32>' of width 32 to type '!cuda_tile.tile<4xi16>' of width 16",
        ],
    );
    // tf32 is 19 bits wide, as in MLIR.
    let src = func(
        ARGS,
        "    %0 = bitcast %f : !cuda_tile.tile<4xf32> -> !cuda_tile.tile<4xtf32>",
    );
    modes(
        &src,
        &[
            "error 3:10: 'cuda_tile.bitcast' op bitcast requires equal-width source and destination element types",
        ],
        &[
            "error 3:10: 'cuda_tile.bitcast' op types must be equal width, cannot convert '!cuda_tile.tile<4xf32>' of width 32 to type '!cuda_tile.tile<4xtf32>' of width 19",
        ],
    );
    clean(&func(
        ARGS,
        "    %0 = bitcast %i : !cuda_tile.tile<4xi32> -> !cuda_tile.tile<4xf32>\n    %1 = bitcast %h : !cuda_tile.tile<4xf16> -> !cuda_tile.tile<4xi16>\n    %2 = bitcast %f : !cuda_tile.tile<4xf32> -> !cuda_tile.tile<4xf32>",
    ));
}

#[test]
fn pointer_casts_verify_clean() {
    clean(&func(
        "%p: !cuda_tile.tile<4x!cuda_tile.ptr<f32>>",
        "    %0 = ptr_to_int %p : !cuda_tile.tile<4x!cuda_tile.ptr<f32>> -> !cuda_tile.tile<4xi64>\n    %1 = int_to_ptr %0 : !cuda_tile.tile<4xi64> -> !cuda_tile.tile<4x!cuda_tile.ptr<f16>>\n    %2 = ptr_to_ptr %p : !cuda_tile.tile<4x!cuda_tile.ptr<f32>> -> !cuda_tile.tile<4x!cuda_tile.ptr<i8>>",
    ));
}

/// NVIDIA's 13.1 worded the ftof and itof rounding errors differently.
#[test]
fn rounding_wording_of_13_1() {
    let release_13_1 = tilec_verify::VerifyOptions {
        personality: tilec_verify::Personality::CudaTileOpt,
        release_minor: Some(1),
        ..Default::default()
    };
    let src = func(
        ARGS,
        "    %0 = ftof %f rounding<zero> : !cuda_tile.tile<4xf32> -> !cuda_tile.tile<4xf64>\n    %1 = itof %i signed rounding<zero> : !cuda_tile.tile<4xi32> -> !cuda_tile.tile<4xf32>",
    );
    assert_eq!(
        tilec_tests::verify_diags_with(&src, &release_13_1),
        [
            "error 3:10: 'cuda_tile.ftof' op invalid rounding mode specified for ftof. Only 'nearest_even' is supported",
            "error 4:10: 'cuda_tile.itof' op invalid rounding error specified. Only 'nearest_even' is supported",
        ]
    );
}

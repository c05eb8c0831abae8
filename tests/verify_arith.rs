//! Verifier diagnostics of the arith family: every catalog entry produced exactly, in both
//! personalities, and valid near-misses that verify clean.

use tilec_tests::{
    assert_both as both, assert_clean as clean, assert_modes as modes, test_func as func,
};

const F32: &str = "%a: !cuda_tile.tile<4xf32>";
const F64: &str = "%a: !cuda_tile.tile<4xf64>";
const I32: &str = "%a: !cuda_tile.tile<4xi32>";

#[test]
fn element_types_must_match() {
    let src = func(
        "%a: !cuda_tile.tile<4xf32>, %b: !cuda_tile.tile<4xf64>",
        "    %0 = \"cuda_tile.addf\"(%a, %b) <{rounding_mode = #cuda_tile.rounding<nearest_even>}> : (!cuda_tile.tile<4xf32>, !cuda_tile.tile<4xf64>) -> !cuda_tile.tile<4xf32>",
    );
    modes(
        &src,
        &["error 3:10: 'cuda_tile.addf' op expected matching operand and result element types"],
        &[
            "error 3:10: 'cuda_tile.addf' op failed to verify that all of {lhs, rhs, result} have same type",
        ],
    );
    // The result element type counts too.
    let src = func(
        F32,
        "    %0 = \"cuda_tile.exp\"(%a) : (!cuda_tile.tile<4xf32>) -> !cuda_tile.tile<4xf16>",
    );
    modes(
        &src,
        &["error 3:10: 'cuda_tile.exp' op expected matching operand and result element types"],
        &[
            "error 3:10: 'cuda_tile.exp' op failed to verify that all of {source, result} have same type",
        ],
    );
    // A shape mismatch alone is the generic check's.
    let src = func(
        "%a: !cuda_tile.tile<4xf32>, %b: !cuda_tile.tile<8xf32>",
        "    %0 = \"cuda_tile.maxf\"(%a, %b) : (!cuda_tile.tile<4xf32>, !cuda_tile.tile<8xf32>) -> !cuda_tile.tile<4xf32>",
    );
    both(
        &src,
        &[
            "error 3:10: 'cuda_tile.maxf' op failed to verify that all of {lhs, rhs, result} have same type",
        ],
    );
    // cmpf: the operands match, the i1 result does not take part.
    clean(&func(
        "%a: !cuda_tile.tile<4xf32>, %b: !cuda_tile.tile<4xf32>",
        "    %0 = cmpf less_than ordered %a, %b : !cuda_tile.tile<4xf32> -> !cuda_tile.tile<4xi1>",
    ));
    let src = func(
        "%a: !cuda_tile.tile<4xf32>, %b: !cuda_tile.tile<4xf16>",
        "    %0 = \"cuda_tile.cmpf\"(%a, %b) <{comparison_predicate = #cuda_tile.comparison_predicate<less_than>, comparison_ordering = #cuda_tile.comparison_ordering<ordered>}> : (!cuda_tile.tile<4xf32>, !cuda_tile.tile<4xf16>) -> !cuda_tile.tile<4xi1>",
    );
    modes(
        &src,
        &["error 3:10: 'cuda_tile.cmpf' op expected matching operand and result element types"],
        &["error 3:10: 'cuda_tile.cmpf' op failed to verify that all of {lhs, rhs} have same type"],
    );
    clean(&func(
        "%a: !cuda_tile.tile<4xf32>, %b: !cuda_tile.tile<4xf32>, %c: !cuda_tile.tile<4xf32>",
        "    %0 = fma %a, %b, %c : !cuda_tile.tile<4xf32>\n    %1 = powf %a, %b : !cuda_tile.tile<4xf32>",
    ));
}

#[test]
fn flush_to_zero_requires_f32() {
    for (op, body) in [
        ("addf", "addf %a, %a rounding<nearest_even> flush_to_zero"),
        ("mulf", "mulf %a, %a flush_to_zero"),
        ("divf", "divf %a, %a flush_to_zero"),
        ("fma", "fma %a, %a, %a rounding<zero> flush_to_zero"),
        ("exp2", "exp2 %a flush_to_zero"),
        ("rsqrt", "rsqrt %a flush_to_zero"),
        ("sqrt", "sqrt %a flush_to_zero"),
        ("maxf", "maxf %a, %a flush_to_zero propagate_nan"),
        ("minf", "minf %a, %a flush_to_zero"),
    ] {
        let src = func(F64, &format!("    %0 = {body} : !cuda_tile.tile<4xf64>"));
        modes(
            &src,
            &[&format!(
                "error 3:10: 'cuda_tile.{op}' op flush-to-zero is only legal for f32 element type"
            )],
            &[&format!(
                "error 3:10: 'cuda_tile.{op}' op flush_to_zero modifier only supported for f32 data type, but got: 'f64'"
            )],
        );
        clean(&func(
            F32,
            &format!("    %0 = {body} : !cuda_tile.tile<4xf32>"),
        ));
    }
    let src = func(
        "%a: !cuda_tile.tile<2x4xbf16>",
        "    %0 = subf %a, %a flush_to_zero : !cuda_tile.tile<2x4xbf16>",
    );
    modes(
        &src,
        &["error 3:10: 'cuda_tile.subf' op flush-to-zero is only legal for f32 element type"],
        &[
            "error 3:10: 'cuda_tile.subf' op flush_to_zero modifier only supported for f32 data type, but got: 'bf16'",
        ],
    );
    clean(&func(
        "%a: !cuda_tile.tile<2x4xbf16>",
        "    %0 = subf %a, %a rounding<zero> : !cuda_tile.tile<2x4xbf16>",
    ));
}

#[test]
fn divf_rounding_modes() {
    let src = func(
        F32,
        "    %0 = divf %a, %a rounding<nearest_int_to_zero> : !cuda_tile.tile<4xf32>",
    );
    modes(
        &src,
        &["error 3:10: 'cuda_tile.divf' op invalid rounding mode for divf"],
        &[
            "error 3:10: 'cuda_tile.divf' op invalid rounding error specified, expect one of [nearest_even, zero, negative_inf, positive_inf, approx, full]",
        ],
    );
    for mode in [
        "nearest_even",
        "zero",
        "negative_inf",
        "positive_inf",
        "approx",
        "full",
    ] {
        clean(&func(
            F32,
            &format!(
                "    %0 = divf %a, %a rounding<{mode}> flush_to_zero : !cuda_tile.tile<4xf32>"
            ),
        ));
    }
    for mode in ["nearest_even", "zero", "negative_inf", "positive_inf"] {
        clean(&func(
            F64,
            &format!("    %0 = divf %a, %a rounding<{mode}> : !cuda_tile.tile<4xf64>"),
        ));
    }
}

#[test]
fn approx_and_full_require_f32() {
    for mode in ["approx", "full"] {
        let src = func(
            F64,
            &format!("    %0 = divf %a, %a rounding<{mode}> : !cuda_tile.tile<4xf64>"),
        );
        modes(
            &src,
            &["error 3:10: 'cuda_tile.divf' op approx and full rounding modes require f32"],
            &[&format!(
                "error 3:10: 'cuda_tile.divf' op {mode} modifier only supported for f32 data type, but got: 'f64'"
            )],
        );
    }
    let src = func(
        "%a: !cuda_tile.tile<4xf16>",
        "    %0 = sqrt %a rounding<approx> : !cuda_tile.tile<4xf16>",
    );
    modes(
        &src,
        &["error 3:10: 'cuda_tile.sqrt' op approx and full rounding modes require f32"],
        &[
            "error 3:10: 'cuda_tile.sqrt' op approx modifier only supported for f32 data type, but got: 'f16'",
        ],
    );
    clean(&func(
        F32,
        "    %0 = sqrt %a rounding<approx> flush_to_zero : !cuda_tile.tile<4xf32>",
    ));
    // flush_to_zero is checked first.
    let src = func(
        F64,
        "    %0 = divf %a, %a rounding<approx> flush_to_zero : !cuda_tile.tile<4xf64>",
    );
    modes(
        &src,
        &["error 3:10: 'cuda_tile.divf' op flush-to-zero is only legal for f32 element type"],
        &[
            "error 3:10: 'cuda_tile.divf' op flush_to_zero modifier only supported for f32 data type, but got: 'f64'",
        ],
    );
}

#[test]
fn rounding_mode_outside_divf() {
    // The custom syntax: NVIDIA's parser rejects the mode.
    for (op, body) in [
        ("addf", "addf %a, %a rounding<approx>"),
        ("subf", "subf %a, %a rounding<full>"),
        ("mulf", "mulf %a, %a rounding<nearest_int_to_zero>"),
        ("fma", "fma %a, %a, %a rounding<approx>"),
    ] {
        let src = func(F32, &format!("    %0 = {body} : !cuda_tile.tile<4xf32>"));
        let got = body.split('<').nth(1).unwrap().trim_end_matches('>');
        let col = 10 + body.find(" rounding").unwrap() + 1;
        modes(
            &src,
            &[&format!(
                "error 3:10: 'cuda_tile.{op}' op rounding mode not allowed outside divf"
            )],
            &[&format!(
                "error 3:{col}: custom op 'cuda_tile.{op}' expected rounding mode to be one of: 'nearest_even', 'zero', 'negative_inf', 'positive_inf', got: '{got}'"
            )],
        );
    }
    // The generic form: NVIDIA's verifier rejects it.
    let src = func(
        F32,
        "    %0 = \"cuda_tile.addf\"(%a, %a) <{rounding_mode = #cuda_tile.rounding<approx>}> : (!cuda_tile.tile<4xf32>, !cuda_tile.tile<4xf32>) -> !cuda_tile.tile<4xf32>",
    );
    modes(
        &src,
        &["error 3:10: 'cuda_tile.addf' op rounding mode not allowed outside divf"],
        &[
            "error 3:10: 'cuda_tile.addf' op invalid rounding error specified, expect one of [nearest_even, zero, negative_inf, positive_inf]",
        ],
    );
    // sqrt accepts approx, not full.
    let src = func(
        F32,
        "    %0 = sqrt %a rounding<full> : !cuda_tile.tile<4xf32>",
    );
    modes(
        &src,
        &["error 3:10: 'cuda_tile.sqrt' op rounding mode not allowed outside divf"],
        &[
            "error 3:10: 'cuda_tile.sqrt' op invalid rounding error specified, expect one of [nearest_even, zero, negative_inf, positive_inf, approx]",
        ],
    );
    // NVIDIA's parser comes first: the mode is reported before flush_to_zero.
    let src = func(
        F64,
        "    %0 = addf %a, %a rounding<approx> flush_to_zero : !cuda_tile.tile<4xf64>",
    );
    modes(
        &src,
        &["error 3:10: 'cuda_tile.addf' op flush-to-zero is only legal for f32 element type"],
        &[
            "error 3:22: custom op 'cuda_tile.addf' expected rounding mode to be one of: 'nearest_even', 'zero', 'negative_inf', 'positive_inf', got: 'approx'",
        ],
    );
    for mode in ["nearest_even", "zero", "negative_inf", "positive_inf"] {
        clean(&func(
            F64,
            &format!(
                "    %0 = addf %a, %a rounding<{mode}> : !cuda_tile.tile<4xf64>\n    %1 = subf %a, %a rounding<{mode}> : !cuda_tile.tile<4xf64>\n    %2 = mulf %a, %a rounding<{mode}> : !cuda_tile.tile<4xf64>\n    %3 = fma %a, %a, %a rounding<{mode}> : !cuda_tile.tile<4xf64>\n    %4 = sqrt %a rounding<{mode}> : !cuda_tile.tile<4xf64>"
            ),
        ));
    }
}

#[test]
fn divi_rounding_modes() {
    let src = func(
        I32,
        "    %0 = divi %a, %a signed rounding<nearest_even> : !cuda_tile.tile<4xi32>",
    );
    both(
        &src,
        &[
            "error 3:10: 'cuda_tile.divi' op invalid rounding error specified, expect one of [zero, negative_inf, positive_inf]",
        ],
    );
    let src = func(
        I32,
        "    %0 = divi %a, %a unsigned rounding<negative_inf> : !cuda_tile.tile<4xi32>",
    );
    both(
        &src,
        &[
            "error 3:10: 'cuda_tile.divi' op rounding mode 'negative_inf' is not allowed with 'unsigned' flag",
        ],
    );
    clean(&func(
        I32,
        "    %0 = divi %a, %a signed rounding<negative_inf> : !cuda_tile.tile<4xi32>\n    %1 = divi %a, %a unsigned rounding<positive_inf> : !cuda_tile.tile<4xi32>\n    %2 = divi %a, %a unsigned rounding<zero> : !cuda_tile.tile<4xi32>\n    %3 = divi %a, %a unsigned : !cuda_tile.tile<4xi32>",
    ));
}

#[test]
fn integer_ops_verify_clean() {
    clean(&func(
        I32,
        "    %0 = addi %a, %a overflow<no_signed_wrap> : !cuda_tile.tile<4xi32>\n    %1 = muli %a, %a : !cuda_tile.tile<4xi32>\n    %2 = maxi %a, %a unsigned : !cuda_tile.tile<4xi32>\n    %3 = remi %a, %a signed : !cuda_tile.tile<4xi32>\n    %4 = xori %a, %a : !cuda_tile.tile<4xi32>\n    %5 = shri %a, %a unsigned : !cuda_tile.tile<4xi32>",
    ));
}

#[test]
fn exp_and_tanh_rounding() {
    // 13.3's exp and 13.2's tanh: `approx` (f32 only) or the default `full` (any type).
    for op in ["exp", "tanh"] {
        clean(&func(
            F32,
            &format!("    %0 = {op} %a rounding<approx> : !cuda_tile.tile<4xf32>"),
        ));
        clean(&func(
            F64,
            &format!("    %0 = {op} %a rounding<full> : !cuda_tile.tile<4xf64>"),
        ));
        let src = func(
            F64,
            &format!("    %0 = {op} %a rounding<approx> : !cuda_tile.tile<4xf64>"),
        );
        modes(
            &src,
            &[&format!(
                "error 3:10: 'cuda_tile.{op}' op approx and full rounding modes require f32"
            )],
            &[&format!(
                "error 3:10: 'cuda_tile.{op}' op approx modifier only supported for f32 data type, but got: 'f64'"
            )],
        );
        let src = func(
            F32,
            &format!("    %0 = {op} %a rounding<zero> : !cuda_tile.tile<4xf32>"),
        );
        modes(
            &src,
            &[&format!(
                "error 3:10: 'cuda_tile.{op}' op rounding mode not allowed outside divf"
            )],
            &[&format!(
                "error 3:10: 'cuda_tile.{op}' op invalid rounding error specified, expect one of [approx, full]"
            )],
        );
    }
}

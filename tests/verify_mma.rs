//! Verifier diagnostics of the mma family: every catalog entry produced exactly, in both
//! personalities, and valid near-misses that verify clean.

use tilec_tests::{assert_clean as clean, verify_both};

/// A function taking `lhs`, `rhs` and `acc` of the given types, whose line 3 is `body`
/// (an op written at column 10 as `%0 = ...`).
fn func(lhs: &str, rhs: &str, acc: &str, body: &str) -> String {
    format!(
        "cuda_tile.module @m {{\n  testing$func @f(%a: !cuda_tile.tile<{lhs}>, %b: !cuda_tile.tile<{rhs}>, %c: !cuda_tile.tile<{acc}>) {{\n    {body}\n  }}\n}}\n"
    )
}

/// `mmaf %a, %b, %c` in the custom form.
fn mmaf(lhs: &str, rhs: &str, acc: &str) -> String {
    let body = format!(
        "%0 = cuda_tile.mmaf %a, %b, %c : !cuda_tile.tile<{lhs}>, !cuda_tile.tile<{rhs}>, !cuda_tile.tile<{acc}>"
    );
    func(lhs, rhs, acc, &body)
}

/// `mmaf %a, %b, %c` in the generic form, with its own result type.
fn mmaf_generic(lhs: &str, rhs: &str, acc: &str, result: &str) -> String {
    let body = format!(
        "%0 = \"cuda_tile.mmaf\"(%a, %b, %c) : (!cuda_tile.tile<{lhs}>, !cuda_tile.tile<{rhs}>, !cuda_tile.tile<{acc}>) -> !cuda_tile.tile<{result}>"
    );
    func(lhs, rhs, acc, &body)
}

/// `mmai %a, %b, %c signed unsigned` in the custom form.
fn mmai(lhs: &str, rhs: &str, acc: &str) -> String {
    let body = format!(
        "%0 = cuda_tile.mmai %a, %b, %c signed unsigned : !cuda_tile.tile<{lhs}>, !cuda_tile.tile<{rhs}>, !cuda_tile.tile<{acc}>"
    );
    func(lhs, rhs, acc, &body)
}

fn one(msg: &str) -> Vec<String> {
    vec![format!("error 3:10: {msg}")]
}

/// Asserts the single diagnostic of `src` in each personality.
#[track_caller]
fn both(src: &str, spec: &str, nvidia: &str) {
    let (s, n) = verify_both(src);
    assert_eq!(s, one(spec), "spec wording\n{src}");
    assert_eq!(n, one(nvidia), "NVIDIA wording\n{src}");
}

const SAME_RANK: &str =
    "'cuda_tile.mmaf' op failed to verify that all of {lhs, rhs, acc} have same rank";
const ACC_RESULT: &str =
    "'cuda_tile.mmaf' op failed to verify that all of {acc, result} have same type";

#[test]
fn e1001_operand_a_rank() {
    // All rank 1: the ranks agree, so NVIDIA's own check reports it too.
    both(
        &mmaf("8xf32", "8xf32", "8xf32"),
        "'cuda_tile.mmaf' op mma operand A must be rank-2 or rank-3",
        "'cuda_tile.mmaf' op operands must be 2D or 3D tiles",
    );
    both(
        &mmaf("2x2x2x2xf16", "2x2x2x2xf16", "2x2x2x2xf32"),
        "'cuda_tile.mmaf' op mma operand A must be rank-2 or rank-3",
        "'cuda_tile.mmaf' op operands must be 2D or 3D tiles",
    );
    both(
        &mmai("8xi8", "8xi8", "8xi32"),
        "'cuda_tile.mmai' op mma operand A must be rank-2 or rank-3",
        "'cuda_tile.mmai' op operands must be 2D or 3D tiles",
    );
    // A rank-1 lhs beside rank-2 operands: the spec checks A's rank first, NVIDIA the
    // shared rank.
    both(
        &mmaf("8xf32", "8x2xf32", "8x2xf32"),
        "'cuda_tile.mmaf' op mma operand A must be rank-2 or rank-3",
        SAME_RANK,
    );
}

#[test]
fn e1002_shared_rank() {
    both(
        &mmaf("2x8xf32", "8xf32", "2x4xf32"),
        "'cuda_tile.mmaf' op mma operands must share rank",
        SAME_RANK,
    );
    both(
        &mmaf("2x2x8xf32", "2x8x4xf32", "2x4xf32"),
        "'cuda_tile.mmaf' op mma operands must share rank",
        SAME_RANK,
    );
    both(
        &mmai("2x8xi8", "2x8x4xi8", "2x4xi32"),
        "'cuda_tile.mmai' op mma operands must share rank",
        "'cuda_tile.mmai' op failed to verify that all of {lhs, rhs, acc} have same rank",
    );
    // The result's rank counts too (generic form).
    both(
        &mmaf_generic("2x8xf32", "8x4xf32", "2x4xf32", "1x2x4xf32"),
        "'cuda_tile.mmaf' op mma operands must share rank",
        ACC_RESULT,
    );
}

#[test]
fn e1003_batch() {
    both(
        &mmaf("2x4x8xf16", "2x8x16xf16", "4x4x16xf32"),
        "'cuda_tile.mmaf' op mma batch dimension mismatch",
        "'cuda_tile.mmaf' op shape error: dim 0 of lhs (2) and dim 0 of acc (4) must match, but got lhs shape (2, 4, 8) and acc shape (4, 4, 16)",
    );
    both(
        &mmaf("2x4x8xf16", "8x8x16xf16", "2x4x16xf32"),
        "'cuda_tile.mmaf' op mma batch dimension mismatch",
        "'cuda_tile.mmaf' op shape error: dim 0 of lhs (2) and dim 0 of rhs (8) must match, but got lhs shape (2, 4, 8) and rhs shape (8, 8, 16)",
    );
    both(
        &mmai("4x2x8xi8", "2x8x2xi8", "4x2x2xi32"),
        "'cuda_tile.mmai' op mma batch dimension mismatch",
        "'cuda_tile.mmai' op shape error: dim 0 of lhs (4) and dim 0 of rhs (2) must match, but got lhs shape (4, 2, 8) and rhs shape (2, 8, 2)",
    );
}

#[test]
fn e1004_contracting_dimension() {
    // NVIDIA's message for the unbatched checks starts with a space: `op  shape error`.
    both(
        &mmaf("2x8xf32", "4x2xf32", "2x2xf32"),
        "'cuda_tile.mmaf' op mma contracting dimension mismatch",
        "'cuda_tile.mmaf' op  shape error: dim 1 of lhs (8) and dim 0 of rhs (4) must match, but got lhs shape (2, 8) and rhs shape (4, 2)",
    );
    both(
        &mmaf("2x2x8xf32", "2x4x2xf32", "2x2x2xf32"),
        "'cuda_tile.mmaf' op mma contracting dimension mismatch",
        "'cuda_tile.mmaf' op  shape error: dim 2 of lhs (8) and dim 1 of rhs (4) must match, but got lhs shape (2, 2, 8) and rhs shape (2, 4, 2)",
    );
    both(
        &mmai("2x16xi8", "32x2xi8", "2x2xi32"),
        "'cuda_tile.mmai' op mma contracting dimension mismatch",
        "'cuda_tile.mmai' op  shape error: dim 1 of lhs (16) and dim 0 of rhs (32) must match, but got lhs shape (2, 16) and rhs shape (32, 2)",
    );
}

#[test]
fn e1005_accumulator_m_and_n() {
    both(
        &mmaf("8x4xf32", "4x2xf32", "2x2xf32"),
        "'cuda_tile.mmaf' op mma accumulator must agree with A and B on M and N",
        "'cuda_tile.mmaf' op  shape error: dim 0 of lhs (8) and dim 0 of acc (2) must match, but got lhs shape (8, 4) and acc shape (2, 2)",
    );
    both(
        &mmaf("2x4xf32", "4x8xf32", "2x2xf32"),
        "'cuda_tile.mmaf' op mma accumulator must agree with A and B on M and N",
        "'cuda_tile.mmaf' op  shape error: dim 1 of rhs (8) and dim 1 of acc (2) must match, but got rhs shape (4, 8) and acc shape (2, 2)",
    );
    both(
        &mmai("2x2x4xi8", "2x4x8xi8", "2x2x4xi32"),
        "'cuda_tile.mmai' op mma accumulator must agree with A and B on M and N",
        "'cuda_tile.mmai' op  shape error: dim 2 of rhs (8) and dim 2 of acc (4) must match, but got rhs shape (2, 4, 8) and acc shape (2, 2, 4)",
    );
}

#[test]
fn e1006_accumulator_and_result_shape() {
    both(
        &mmaf_generic("2x8xf32", "8x4xf32", "2x4xf32", "4x2xf32"),
        "'cuda_tile.mmaf' op mma accumulator and result shapes must match",
        ACC_RESULT,
    );
}

#[test]
fn e1007_float_input_and_accumulator_types() {
    for (input, acc, allowed) in [
        ("bf16", "f16", "{'f32'}"),
        ("tf32", "f16", "{'f32'}"),
        ("f32", "f16", "{'f32'}"),
        ("f32", "f64", "{'f32'}"),
        ("f16", "f64", "{'f16', 'f32'}"),
        ("f8E4M3FN", "f64", "{'f16', 'f32'}"),
        ("f8E5M2", "f64", "{'f16', 'f32'}"),
        ("f64", "f32", "{'f64'}"),
        ("f64", "f16", "{'f64'}"),
    ] {
        both(
            &mmaf(
                &format!("2x4x{input}"),
                &format!("4x8x{input}"),
                &format!("2x8x{acc}"),
            ),
            "'cuda_tile.mmaf' op floating mma input/accumulator pair is not supported on the target",
            &format!(
                "'cuda_tile.mmaf' op unsupported combination of element types. Input type '{input}' expects accumulator/result type to be one of {allowed}, but got '{acc}'"
            ),
        );
    }
}

#[test]
fn e1008_float_accumulator_and_result_type() {
    both(
        &mmaf_generic("2x8xf16", "8x4xf16", "2x4xf32", "2x4xf16"),
        "'cuda_tile.mmaf' op floating mma accumulator and result must share type",
        ACC_RESULT,
    );
}

#[test]
fn spec_order_puts_shapes_before_the_declarative_checks() {
    // Different input element types and a contracting mismatch: the spec's verify_mma
    // (shapes first) wins in the default mode, the generic predicate in NVIDIA's.
    both(
        &mmaf("2x8xf32", "4x2xf16", "2x2xf32"),
        "'cuda_tile.mmaf' op mma contracting dimension mismatch",
        "'cuda_tile.mmaf' op failed to verify that all of {lhs, rhs} have the same element type",
    );
    // Matching shapes: the element-type predicate reports it in both personalities.
    let same =
        "'cuda_tile.mmaf' op failed to verify that all of {lhs, rhs} have the same element type";
    both(&mmaf("2x8xf32", "8x2xf16", "2x2xf32"), same, same);
    // An unsupported pair is reported after the shapes, in both.
    both(
        &mmaf("2x8xbf16", "4x2xbf16", "2x2xf16"),
        "'cuda_tile.mmaf' op mma contracting dimension mismatch",
        "'cuda_tile.mmaf' op  shape error: dim 1 of lhs (8) and dim 0 of rhs (4) must match, but got lhs shape (2, 8) and rhs shape (4, 2)",
    );
}

#[test]
fn e1009_to_e1011_integer_mma_in_the_spec_wording() {
    // The spec's integer rules restate mmai's attribute and type constraints; in the
    // default mode its wording wins, cuda-tile-opt reports the generic constraint.
    both(
        &mmai("2x4xi16", "4x2xi16", "2x2xi32"),
        "'cuda_tile.mmai' op integer mma inputs must share a legal integer element type",
        "'cuda_tile.mmai' op operand #0 must be mmai operand tile type of i8 values, but got '!cuda_tile.tile<2x4xi16>'",
    );
    both(
        &mmai("2x4xi8", "4x2xi8", "2x2xi16"),
        "'cuda_tile.mmai' op integer mma accumulator and result must be i32",
        "'cuda_tile.mmai' op operand #2 must be mmai acc tile type of i32 values, but got '!cuda_tile.tile<2x2xi16>'",
    );
    let generic = func(
        "2x4xi8",
        "4x2xi8",
        "2x2xi32",
        "%0 = \"cuda_tile.mmai\"(%a, %b, %c) : (!cuda_tile.tile<2x4xi8>, !cuda_tile.tile<4x2xi8>, !cuda_tile.tile<2x2xi32>) -> !cuda_tile.tile<2x2xi32>",
    );
    both(
        &generic,
        "'cuda_tile.mmai' op expect signedness attribute for operand A",
        "'cuda_tile.mmai' op requires attribute 'signedness_lhs'",
    );
    clean(&mmai("2x4xi8", "4x2xi8", "2x2xi32"));
}

#[test]
fn float_accumulator_pairs_in_the_spec_wording() {
    // A bf16 accumulator: the spec's pair rule in the default mode, the slot constraint
    // in cuda-tile-opt's.
    both(
        &mmaf("2x4xbf16", "4x2xbf16", "2x2xbf16"),
        "'cuda_tile.mmaf' op floating mma input/accumulator pair is not supported on the target",
        "'cuda_tile.mmaf' op operand #2 must be mmaf acc/result tile type of f16 or f32 or f64 values, but got '!cuda_tile.tile<2x2xbf16>'",
    );
}

#[test]
fn legal_mma_configurations_verify_clean() {
    for (input, acc) in [
        ("f8E4M3FN", "f16"),
        ("f8E4M3FN", "f32"),
        ("f8E5M2", "f16"),
        ("f8E5M2", "f32"),
        ("f16", "f16"),
        ("f16", "f32"),
        ("bf16", "f32"),
        ("tf32", "f32"),
        ("f32", "f32"),
        ("f64", "f64"),
    ] {
        clean(&mmaf(
            &format!("4x8x{input}"),
            &format!("8x2x{input}"),
            &format!("4x2x{acc}"),
        ));
        clean(&mmaf(
            &format!("2x4x8x{input}"),
            &format!("2x8x2x{input}"),
            &format!("2x4x2x{acc}"),
        ));
    }
    // Square and degenerate shapes, and the generic form with the accumulator's type.
    clean(&mmaf("16x16xf16", "16x16xf16", "16x16xf32"));
    clean(&mmaf("1x1xf32", "1x1xf32", "1x1xf32"));
    clean(&mmaf_generic("2x8xf16", "8x4xf16", "2x4xf32", "2x4xf32"));
    clean(&mmai("4x8xi8", "8x2xi8", "4x2xi32"));
    clean(&mmai("2x4x8xi8", "2x8x2xi8", "2x4x2xi32"));
    clean(&func(
        "4x8xi8",
        "8x2xi8",
        "4x2xi32",
        "%0 = cuda_tile.mmai %a, %b, %c unsigned signed : !cuda_tile.tile<4x8xi8>, !cuda_tile.tile<8x2xi8>, !cuda_tile.tile<4x2xi32>",
    ));
}

/// `mmaf_scaled %a, %b, %c, %sa, %sb` (13.3) with the given types.
fn scaled(lhs: &str, rhs: &str, acc: &str, sa: &str, sb: &str) -> String {
    format!(
        "cuda_tile.module @m {{\n  testing$func @f(%a: !cuda_tile.tile<{lhs}>, %b: !cuda_tile.tile<{rhs}>, %c: !cuda_tile.tile<{acc}>, %sa: !cuda_tile.tile<{sa}>, %sb: !cuda_tile.tile<{sb}>) {{\n    %0 = cuda_tile.mmaf_scaled %a, %b, %c, %sa, %sb : !cuda_tile.tile<{lhs}>, !cuda_tile.tile<{rhs}>, !cuda_tile.tile<{acc}>, !cuda_tile.tile<{sa}>, !cuda_tile.tile<{sb}>\n  }}\n}}\n"
    )
}

#[test]
fn mmaf_scaled_rules() {
    let both = |src: String, msg: &str| {
        let want = one(&format!("'cuda_tile.mmaf_scaled' op {msg}"));
        assert_eq!(verify_both(&src), (want.clone(), want), "{src}");
    };
    // MXFP8, MXFP4 (blocks of 16 and 32), NVFP4, batched.
    clean(&scaled(
        "16x64xf8E5M2",
        "64x8xf8E5M2",
        "16x8xf32",
        "16x2xf8E8M0FNU",
        "2x8xf8E8M0FNU",
    ));
    clean(&scaled(
        "16x64xf4E2M1FN",
        "64x8xf4E2M1FN",
        "16x8xf32",
        "16x4xf8E8M0FNU",
        "4x8xf8E8M0FNU",
    ));
    clean(&scaled(
        "16x64xf4E2M1FN",
        "64x8xf4E2M1FN",
        "16x8xf32",
        "16x2xf8E8M0FNU",
        "2x8xf8E8M0FNU",
    ));
    clean(&scaled(
        "16x64xf4E2M1FN",
        "64x8xf4E2M1FN",
        "16x8xf32",
        "16x4xf8E4M3FN",
        "4x8xf8E4M3FN",
    ));
    clean(&scaled(
        "2x16x64xf8E4M3FN",
        "2x64x8xf8E4M3FN",
        "2x16x8xf32",
        "2x16x2xf8E8M0FNU",
        "2x2x8xf8E8M0FNU",
    ));
    both(
        scaled(
            "16x64xf8E5M2",
            "64x8xf8E5M2",
            "16x8xf32",
            "16x2xf8E4M3FN",
            "2x8xf8E4M3FN",
        ),
        "unsupported combination of element types. Scale type 'f8E4M3FN' expects lhs and rhs element types to be 'f4E2M1FN', but got 'f8E5M2'",
    );
    both(
        scaled(
            "16x64xf8E5M2",
            "64x8xf8E5M2",
            "16x8xf32",
            "8x2xf8E8M0FNU",
            "2x8xf8E8M0FNU",
        ),
        "shape error: dim 0 of lhs (16) and dim 0 of lhs_scale (8) must match, but got lhs shape (16, 64) and lhs_scale shape (8, 2)",
    );
    both(
        scaled(
            "16x64xf8E5M2",
            "64x8xf8E5M2",
            "16x8xf32",
            "16x2xf8E8M0FNU",
            "2x4xf8E8M0FNU",
        ),
        "shape error: dim 1 of rhs (8) and dim 1 of rhs_scale (4) must match, but got rhs shape (64, 8) and rhs_scale shape (2, 4)",
    );
    both(
        scaled(
            "16x64xf8E5M2",
            "64x8xf8E5M2",
            "16x8xf32",
            "16x2xf8E8M0FNU",
            "4x8xf8E8M0FNU",
        ),
        "shape error: dim 1 of lhs_scale (2) and dim 0 of rhs_scale (4) must match, but got lhs_scale shape (16, 2) and rhs_scale shape (4, 8)",
    );
    both(
        scaled(
            "16x64xf8E5M2",
            "64x8xf8E5M2",
            "16x8xf32",
            "16x4xf8E8M0FNU",
            "4x8xf8E8M0FNU",
        ),
        "shape error: f8 element type requires block scale factor of lhs_scale and rhs_scale to be 32, but got 16",
    );
    both(
        scaled(
            "16x64xf4E2M1FN",
            "64x8xf4E2M1FN",
            "16x8xf32",
            "16x2xf8E4M3FN",
            "2x8xf8E4M3FN",
        ),
        "shape error: f4E2M1FN element type with f8E4M3FN scales requires block scale factor of lhs_scale and rhs_scale to be 16, but got 32",
    );
    // K = 64 in 8 blocks of 8; K = 64 in 128 blocks: a fraction.
    both(
        scaled(
            "16x64xf4E2M1FN",
            "64x8xf4E2M1FN",
            "16x8xf32",
            "16x8xf8E8M0FNU",
            "8x8xf8E8M0FNU",
        ),
        "shape error: f4E2M1FN element type with f8E8M0FNU scales requires block scale factor of lhs_scale and rhs_scale to be 16 or 32, but got 8",
    );
    both(
        scaled(
            "16x64xf4E2M1FN",
            "64x8xf4E2M1FN",
            "16x8xf32",
            "16x128xf8E8M0FNU",
            "128x8xf8E8M0FNU",
        ),
        "shape error: f4E2M1FN element type with f8E8M0FNU scales requires block scale factor of lhs_scale and rhs_scale to be 16 or 32, but got 64/128",
    );
    both(
        scaled(
            "16x64xf16",
            "64x8xf16",
            "16x8xf32",
            "16x2xf8E8M0FNU",
            "2x8xf8E8M0FNU",
        ),
        "operand #0 must be mmaf_scaled operand tile type of f8E4M3FN or f8E5M2 or f4E2M1FN values, but got '!cuda_tile.tile<16x64xf16>'",
    );
}

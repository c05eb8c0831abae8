//! Verifier diagnostics of the view family: every catalog entry produced exactly, in both
//! personalities, and valid near-misses that verify clean.

use tilec_tests::{assert_clean, test_func_lines as func, verify_diags, verify_diags_with};

/// `reshape` to another element type: the spec's wording wins over the generic check; NVIDIA reports the generic one.
#[test]
fn reshape_element_types_differ() {
    let src = func(
        r#"%a: !cuda_tile.tile<2x2xf32>"#,
        &[r#"%r = cuda_tile.reshape %a : !cuda_tile.tile<2x2xf32> -> !cuda_tile.tile<4xi32>"#],
    );
    assert_eq!(
        verify_diags(&src, false),
        ["error 3:10: 'cuda_tile.reshape' op reshape requires matching element types",]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:10: 'cuda_tile.reshape' op requires the same element type for all operands and results",
        ]
    );
}

/// `reshape` that changes the element count (64 in, 32 out).
#[test]
fn reshape_element_count_differs() {
    let src = func(
        r#"%a: !cuda_tile.tile<8x8xf32>"#,
        &[r#"%r = cuda_tile.reshape %a : !cuda_tile.tile<8x8xf32> -> !cuda_tile.tile<4x8xf32>"#],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:10: 'cuda_tile.reshape' op reshape element-count mismatch: source has 64 elements, result has 32",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:10: 'cuda_tile.reshape' op expected source tile and result tile to have the same number of elements",
        ]
    );
}

/// A rank-0 tile holds one element.
#[test]
fn reshape_scalar_to_many() {
    let src = func(
        r#"%a: !cuda_tile.tile<i16>"#,
        &[r#"%r = cuda_tile.reshape %a : !cuda_tile.tile<i16> -> !cuda_tile.tile<1x2x1xi16>"#],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:10: 'cuda_tile.reshape' op reshape element-count mismatch: source has 1 elements, result has 2",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:10: 'cuda_tile.reshape' op expected source tile and result tile to have the same number of elements",
        ]
    );
}

/// Same element type and element count, including a rank-0 source.
#[test]
fn reshape_valid() {
    let src = func(
        r#"%a: !cuda_tile.tile<8x8xf32>, %s: !cuda_tile.tile<i8>"#,
        &[
            r#"%r = cuda_tile.reshape %a : !cuda_tile.tile<8x8xf32> -> !cuda_tile.tile<4x16xf32>"#,
            r#"%q = cuda_tile.reshape %s : !cuda_tile.tile<i8> -> !cuda_tile.tile<1x1x1xi8>"#,
        ],
    );
    assert_clean(&src);
}

/// A source dimension that is neither 1 nor the result's.
#[test]
fn broadcast_incompatible_shape() {
    let src = func(
        r#"%a: !cuda_tile.tile<4x4xf32>"#,
        &[r#"%r = cuda_tile.broadcast %a : !cuda_tile.tile<4x4xf32> -> !cuda_tile.tile<2x4xf32>"#],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:10: 'cuda_tile.broadcast' op expects the shape of source tile to be compatible with that of the result tile, but got: 4, 4 and 2, 4",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:10: 'cuda_tile.broadcast' op expects the shape of source tile to be compatible with that of the result tile, but got: 4, 4 and 2, 4",
        ]
    );
}

/// Size-1 dimensions stretch; the others stay.
#[test]
fn broadcast_valid() {
    let src = func(
        r#"%a: !cuda_tile.tile<1x4xf32>"#,
        &[
            r#"%r = cuda_tile.broadcast %a : !cuda_tile.tile<1x4xf32> -> !cuda_tile.tile<2x4xf32>"#,
            r#"%q = cuda_tile.broadcast %a : !cuda_tile.tile<1x4xf32> -> !cuda_tile.tile<1x4xf32>"#,
        ],
    );
    assert_clean(&src);
}

/// `extract` cannot convert elements.
#[test]
fn extract_element_types_differ() {
    let src = func(
        r#"%t: !cuda_tile.tile<8xf32>, %i: !cuda_tile.tile<i32>"#,
        &[r#"%r = cuda_tile.extract %t[%i] : !cuda_tile.tile<8xf32> -> !cuda_tile.tile<2xi32>"#],
    );
    assert_eq!(
        verify_diags(&src, false),
        ["error 3:10: 'cuda_tile.extract' op source and result element type do not match",]
    );
    assert_eq!(
        verify_diags(&src, true),
        ["error 3:10: 'cuda_tile.extract' op source and result element type do not match",]
    );
}

/// A result dimension larger than the source's does not divide it.
#[test]
fn extract_slice_does_not_divide() {
    let src = func(
        r#"%t: !cuda_tile.tile<8x8xf32>, %i: !cuda_tile.tile<i32>"#,
        &[
            r#"%r = cuda_tile.extract %t[%i, %i] : !cuda_tile.tile<8x8xf32> -> !cuda_tile.tile<16x2xf32>"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        ["error 3:10: 'cuda_tile.extract' op result dim size must divide source dim size evenly",]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:10: 'cuda_tile.extract' op source dimension 0 size (8) must be evenly divisible by result dimension 0 size (16)",
        ]
    );
    assert_eq!(
        verify_diags_with(&src, &release_13_1()),
        ["error 3:10: 'cuda_tile.extract' op result dim size must divide source dim size evenly",]
    );
}

/// One slice index per source dimension.
#[test]
fn extract_index_count() {
    let src = func(
        r#"%t: !cuda_tile.tile<8xf32>, %i: !cuda_tile.tile<i32>"#,
        &[
            r#"%r = cuda_tile.extract %t[%i, %i] : !cuda_tile.tile<8xf32> -> !cuda_tile.tile<2xf32>"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        ["error 3:10: 'cuda_tile.extract' op incorrect number of indices, expected 1, but found 2",]
    );
    assert_eq!(
        verify_diags(&src, true),
        ["error 3:10: 'cuda_tile.extract' op expected 1 indices, but got 2",]
    );
    assert_eq!(
        verify_diags_with(&src, &release_13_1()),
        ["error 3:10: 'cuda_tile.extract' op incorrect number of indices, expected 1, but found 2",]
    );
}

/// Slices that divide the source, one index per dimension.
#[test]
fn extract_valid() {
    let src = func(
        r#"%t: !cuda_tile.tile<32x8xf32>, %i: !cuda_tile.tile<i32>"#,
        &[
            r#"%r = cuda_tile.extract %t[%i, %i] : !cuda_tile.tile<32x8xf32> -> !cuda_tile.tile<4x2xf32>"#,
            r#"%q = cuda_tile.extract %t[%i, %i] : !cuda_tile.tile<32x8xf32> -> !cuda_tile.tile<32x8xf32>"#,
        ],
    );
    assert_clean(&src);
}

/// `dim` below 0 and at the rank.
#[test]
fn cat_dim_out_of_range() {
    let src = func(
        r#"%a: !cuda_tile.tile<2x2xf32>"#,
        &[
            r#"%r = cuda_tile.cat %a, %a dim = -1 : !cuda_tile.tile<2x2xf32>, !cuda_tile.tile<2x2xf32> -> !cuda_tile.tile<2x4xf32>"#,
            r#"%q = cuda_tile.cat %a, %a dim = 2 : !cuda_tile.tile<2x2xf32>, !cuda_tile.tile<2x2xf32> -> !cuda_tile.tile<2x4xf32>"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:10: 'cuda_tile.cat' op expect dim to be [0, 2), but got: -1",
            "error 4:10: 'cuda_tile.cat' op expect dim to be [0, 2), but got: 2",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:10: 'cuda_tile.cat' op expect dim to be [0, 2), but got: -1",
            "error 4:10: 'cuda_tile.cat' op expect dim to be [0, 2), but got: 2",
        ]
    );
}

/// The result's size along `dim` is the sum of the operands'.
#[test]
fn cat_concat_size() {
    let src = func(
        r#"%a: !cuda_tile.tile<2x2xf32>"#,
        &[
            r#"%r = cuda_tile.cat %a, %a dim = 1 : !cuda_tile.tile<2x2xf32>, !cuda_tile.tile<2x2xf32> -> !cuda_tile.tile<2x16xf32>"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        ["error 3:10: 'cuda_tile.cat' op invalid concat at position 1, expected: 4 but got: 16",]
    );
    assert_eq!(
        verify_diags(&src, true),
        ["error 3:10: 'cuda_tile.cat' op invalid concat at position 1, expected: 4 but got: 16",]
    );
}

/// Outside `dim`, operands and result agree (NVIDIA's message names the lhs size as expected).
#[test]
fn cat_other_size() {
    let src = func(
        r#"%a: !cuda_tile.tile<2x2xf32>, %b: !cuda_tile.tile<4x2xf32>"#,
        &[
            r#"%r = cuda_tile.cat %a, %a dim = 1 : !cuda_tile.tile<2x2xf32>, !cuda_tile.tile<2x2xf32> -> !cuda_tile.tile<4x4xf32>"#,
            r#"%q = cuda_tile.cat %a, %b dim = 1 : !cuda_tile.tile<2x2xf32>, !cuda_tile.tile<4x2xf32> -> !cuda_tile.tile<2x4xf32>"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:10: 'cuda_tile.cat' op expect {lhs, rhs, and result} shape to match at non-concat position 0, expected: 2 but got: 4",
            "error 4:10: 'cuda_tile.cat' op expect {lhs, rhs, and result} shape to match at non-concat position 0, expected: 2 but got: 2",
        ]
    );
    assert_eq!(
        verify_diags_with(&src, &release_13_1()),
        [
            "error 3:10: 'cuda_tile.cat' op expect {lhs, rhs, and result} shape to match at non-concat position 0, expected: 2 but got: 4",
            "error 4:10: 'cuda_tile.cat' op expect {lhs, rhs, and result} shape to match at non-concat position 0, expected: 2 but got: 2",
        ]
    );
    // NVIDIA's 13.3 names the operand.
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:10: 'cuda_tile.cat' op expect lhs and result shapes to match at non-concat position 0, expected: 2 but got: 4",
            "error 4:10: 'cuda_tile.cat' op expect rhs and result shapes to match at non-concat position 0, expected: 4 but got: 2",
        ]
    );
}

/// Concatenation along either dimension.
#[test]
fn cat_valid() {
    let src = func(
        r#"%a: !cuda_tile.tile<2x4xf32>, %b: !cuda_tile.tile<2x4xf32>"#,
        &[
            r#"%r = cuda_tile.cat %a, %b dim = 1 : !cuda_tile.tile<2x4xf32>, !cuda_tile.tile<2x4xf32> -> !cuda_tile.tile<2x8xf32>"#,
            r#"%q = cuda_tile.cat %a, %a dim = 0 : !cuda_tile.tile<2x4xf32>, !cuda_tile.tile<2x4xf32> -> !cuda_tile.tile<4x4xf32>"#,
        ],
    );
    assert_clean(&src);
}

/// `permute` needs a source of rank 2 or more.
#[test]
fn permute_rank_1() {
    let src = func(
        r#"%a: !cuda_tile.tile<2xf32>"#,
        &[r#"%r = cuda_tile.permute %a [0] : !cuda_tile.tile<2xf32> -> !cuda_tile.tile<2xf32>"#],
    );
    assert_eq!(
        verify_diags(&src, false),
        ["error 3:10: 'cuda_tile.permute' op expects at least rank 2, but got: 1",]
    );
    assert_eq!(
        verify_diags(&src, true),
        ["error 3:10: 'cuda_tile.permute' op expects at least rank 2, but got: 1",]
    );
}

/// One permutation entry per source dimension.
#[test]
fn permute_size() {
    let src = func(
        r#"%a: !cuda_tile.tile<1x2xf32>, %b: !cuda_tile.tile<1x2x4xf32>"#,
        &[
            r#"%r = cuda_tile.permute %a [0, 1, 100] : !cuda_tile.tile<1x2xf32> -> !cuda_tile.tile<1x2xf32>"#,
            r#"%q = cuda_tile.permute %b [0, 1] : !cuda_tile.tile<1x2x4xf32> -> !cuda_tile.tile<1x2x4xf32>"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:10: 'cuda_tile.permute' op expect permutation size (3) to equal the rank of the source (2)",
            "error 4:10: 'cuda_tile.permute' op expect permutation size (2) to equal the rank of the source (3)",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:10: 'cuda_tile.permute' op expect permutation size (3) to equal the rank of the source (2)",
            "error 4:10: 'cuda_tile.permute' op expect permutation size (2) to equal the rank of the source (3)",
        ]
    );
}

/// Entries are unique (checked before their range).
#[test]
fn permute_repeated_entry() {
    let src = func(
        r#"%a: !cuda_tile.tile<1x2xf32>"#,
        &[
            r#"%r = cuda_tile.permute %a [0, 0] : !cuda_tile.tile<1x2xf32> -> !cuda_tile.tile<1x2xf32>"#,
            r#"%q = cuda_tile.permute %a [5, 5] : !cuda_tile.tile<1x2xf32> -> !cuda_tile.tile<1x2xf32>"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:10: 'cuda_tile.permute' op expect permutation elements to be unique",
            "error 4:10: 'cuda_tile.permute' op expect permutation elements to be unique",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:10: 'cuda_tile.permute' op expect permutation elements to be unique",
            "error 4:10: 'cuda_tile.permute' op expect permutation elements to be unique",
        ]
    );
}

/// Entries are source dimensions.
#[test]
fn permute_entry_out_of_bound() {
    let src = func(
        r#"%a: !cuda_tile.tile<1x2xf32>"#,
        &[
            r#"%r = cuda_tile.permute %a [0, 100] : !cuda_tile.tile<1x2xf32> -> !cuda_tile.tile<1x2xf32>"#,
            r#"%q = cuda_tile.permute %a [-1, 1] : !cuda_tile.tile<1x2xf32> -> !cuda_tile.tile<1x2xf32>"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:10: 'cuda_tile.permute' op permutation element at index 1 (100) is out of bound [0, 2)",
            "error 4:10: 'cuda_tile.permute' op permutation element at index 0 (-1) is out of bound [0, 2)",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:10: 'cuda_tile.permute' op permutation element at index 1 (100) is out of bound [0, 2)",
            "error 4:10: 'cuda_tile.permute' op permutation element at index 0 (-1) is out of bound [0, 2)",
        ]
    );
}

/// The result shape is the permuted source shape.
#[test]
fn permute_result_shape() {
    let src = func(
        r#"%a: !cuda_tile.tile<1x2xf32>"#,
        &[
            r#"%r = cuda_tile.permute %a [1, 0] : !cuda_tile.tile<1x2xf32> -> !cuda_tile.tile<1x2xf32>"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:10: 'cuda_tile.permute' op result shape invalid at index 0, expected: 2, but got: 1",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:10: 'cuda_tile.permute' op result shape invalid at index 0, expected: 2, but got: 1",
        ]
    );
}

/// Identity and proper permutations.
#[test]
fn permute_valid() {
    let src = func(
        r#"%a: !cuda_tile.tile<2x4x8xf16>"#,
        &[
            r#"%r = cuda_tile.permute %a [2, 0, 1] : !cuda_tile.tile<2x4x8xf16> -> !cuda_tile.tile<8x2x4xf16>"#,
            r#"%q = cuda_tile.permute %a [0, 1, 2] : !cuda_tile.tile<2x4x8xf16> -> !cuda_tile.tile<2x4x8xf16>"#,
        ],
    );
    assert_clean(&src);
}

/// `iota` results are rank 1.
#[test]
fn iota_not_1d() {
    let src = func(
        r#""#,
        &[
            r#"%r = cuda_tile.iota : !cuda_tile.tile<i64>"#,
            r#"%q = cuda_tile.iota : !cuda_tile.tile<32x64xi64>"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:10: 'cuda_tile.iota' op expects result type to be 1-d tile",
            "error 4:10: 'cuda_tile.iota' op expects result type to be 1-d tile",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:10: 'cuda_tile.iota' op expects result type to be 1-d tile",
            "error 4:10: 'cuda_tile.iota' op expects result type to be 1-d tile",
        ]
    );
}

/// 512 elements do not fit `i8`; 4 do not fit `i1`.
#[test]
fn iota_extent_too_large() {
    let src = func(
        r#""#,
        &[
            r#"%r = cuda_tile.iota : !cuda_tile.tile<512xi8>"#,
            r#"%q = cuda_tile.iota : !cuda_tile.tile<4xi1>"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:10: 'cuda_tile.iota' op the number of elements 512 exceeds the maximum value of element type 'i8'",
            "error 4:10: 'cuda_tile.iota' op the number of elements 4 exceeds the maximum value of element type 'i1'",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:10: 'cuda_tile.iota' op the number of elements 512 exceeds the maximum value of element type 'i8'",
            "error 4:10: 'cuda_tile.iota' op the number of elements 4 exceeds the maximum value of element type 'i1'",
        ]
    );
}

/// Extents up to 2^w fit a w-bit element type.
#[test]
fn iota_valid() {
    let src = func(
        r#""#,
        &[
            r#"%r = cuda_tile.iota : !cuda_tile.tile<256xi8>"#,
            r#"%q = cuda_tile.iota : !cuda_tile.tile<2xi1>"#,
            r#"%s = cuda_tile.iota : !cuda_tile.tile<1024xi64>"#,
        ],
    );
    assert_clean(&src);
}

/// The base pointer points to the view's element type (only the generic form can get this wrong).
#[test]
fn make_tensor_view_pointee() {
    let src = func(
        r#"%b: !cuda_tile.tile<!cuda_tile.ptr<f16>>"#,
        &[
            r#"%v = "cuda_tile.make_tensor_view"(%b) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (!cuda_tile.tile<!cuda_tile.ptr<f16>>) -> !cuda_tile.tensor_view<32x32xf32, strides=[32,1]>"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:10: 'cuda_tile.make_tensor_view' op expected pointer to 'f32' to build tensor_view of this type, got 'f16'",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:10: 'cuda_tile.make_tensor_view' op expected pointer to 'f32' to build tensor_view of this type, got 'f16'",
        ]
    );
}

/// One dynamic shape operand per `?` dimension.
#[test]
fn make_tensor_view_dynamic_shape_count() {
    let src = func(
        r#"%b: !cuda_tile.tile<!cuda_tile.ptr<f32>>, %n: !cuda_tile.tile<i32>"#,
        &[
            r#"%v = "cuda_tile.make_tensor_view"(%b, %n) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (!cuda_tile.tile<!cuda_tile.ptr<f32>>, !cuda_tile.tile<i32>) -> !cuda_tile.tensor_view<32x32xf32, strides=[32,1]>"#,
            r#"%w = "cuda_tile.make_tensor_view"(%b) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (!cuda_tile.tile<!cuda_tile.ptr<f32>>) -> !cuda_tile.tensor_view<?x32xf32, strides=[32,1]>"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:10: 'cuda_tile.make_tensor_view' op expected 0 dynamic shape operands, got 1",
            "error 4:10: 'cuda_tile.make_tensor_view' op expected 1 dynamic shape operands, got 0",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:10: 'cuda_tile.make_tensor_view' op expected 0 dynamic shape operands, got 1",
            "error 4:10: 'cuda_tile.make_tensor_view' op expected 1 dynamic shape operands, got 0",
        ]
    );
}

/// One dynamic stride operand per `?` stride.
#[test]
fn make_tensor_view_dynamic_stride_count() {
    let src = func(
        r#"%b: !cuda_tile.tile<!cuda_tile.ptr<f32>>, %n: !cuda_tile.tile<i32>"#,
        &[
            r#"%v = "cuda_tile.make_tensor_view"(%b, %n) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (!cuda_tile.tile<!cuda_tile.ptr<f32>>, !cuda_tile.tile<i32>) -> !cuda_tile.tensor_view<32x32xf32, strides=[32,1]>"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        ["error 3:10: 'cuda_tile.make_tensor_view' op expected 0 dynamic stride operands, got 1",]
    );
    assert_eq!(
        verify_diags(&src, true),
        ["error 3:10: 'cuda_tile.make_tensor_view' op expected 0 dynamic stride operands, got 1",]
    );
}

/// All dynamic operands share one type: shape operands, then strides against the first shape operand.
#[test]
fn make_tensor_view_dynamic_types() {
    let src = func(
        r#"%b: !cuda_tile.tile<!cuda_tile.ptr<f32>>, %n: !cuda_tile.tile<i32>, %m: !cuda_tile.tile<i64>"#,
        &[
            r#"%v = "cuda_tile.make_tensor_view"(%b, %n, %m) <{operandSegmentSizes = array<i32: 1, 2, 0>}> : (!cuda_tile.tile<!cuda_tile.ptr<f32>>, !cuda_tile.tile<i32>, !cuda_tile.tile<i64>) -> !cuda_tile.tensor_view<?x?xf32, strides=[32,1]>"#,
            r#"%w = "cuda_tile.make_tensor_view"(%b, %n, %m) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (!cuda_tile.tile<!cuda_tile.ptr<f32>>, !cuda_tile.tile<i32>, !cuda_tile.tile<i64>) -> !cuda_tile.tensor_view<?x32xf32, strides=[?,1]>"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:10: 'cuda_tile.make_tensor_view' op expected dynamic shape index 1 to be of the same type as the other dynamic values ('!cuda_tile.tile<i32>'), got '!cuda_tile.tile<i64>'",
            "error 4:10: 'cuda_tile.make_tensor_view' op expected dynamic stride index 0 to be of the same type as the other dynamic values ('!cuda_tile.tile<i32>'), got '!cuda_tile.tile<i64>'",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:10: 'cuda_tile.make_tensor_view' op expected dynamic shape index 1 to be of the same type as the other dynamic values ('!cuda_tile.tile<i32>'), got '!cuda_tile.tile<i64>'",
            "error 4:10: 'cuda_tile.make_tensor_view' op expected dynamic stride index 0 to be of the same type as the other dynamic values ('!cuda_tile.tile<i32>'), got '!cuda_tile.tile<i64>'",
        ]
    );
}

/// Static, partly and fully dynamic views; strides alone may be dynamic.
#[test]
fn make_tensor_view_valid() {
    let src = func(
        r#"%b: !cuda_tile.tile<!cuda_tile.ptr<f32>>, %n: !cuda_tile.tile<i64>"#,
        &[
            r#"%v = cuda_tile.make_tensor_view %b, shape = [32, 32], strides = [32, 1] : !cuda_tile.tensor_view<32x32xf32, strides=[32,1]>"#,
            r#"%w = cuda_tile.make_tensor_view %b, shape = [%n, %n], strides = [%n, 1] : !cuda_tile.tile<i64> -> !cuda_tile.tensor_view<?x?xf32, strides=[?,1]>"#,
            r#"%x = cuda_tile.make_tensor_view %b, shape = [32, 32], strides = [%n, 1] : !cuda_tile.tile<i64> -> !cuda_tile.tensor_view<32x32xf32, strides=[?,1]>"#,
            r#"%y = cuda_tile.make_tensor_view %b, shape = [], strides = [] : !cuda_tile.tensor_view<f32>"#,
        ],
    );
    assert_clean(&src);
}

/// The operand is the tensor view the partition type names (only the generic form can get this wrong).
#[test]
fn make_partition_view_tensor_view() {
    let src = func(
        r#"%tv: !cuda_tile.tensor_view<128xf32, strides=[1]>"#,
        &[
            r#"%p = "cuda_tile.make_partition_view"(%tv) : (!cuda_tile.tensor_view<128xf32, strides=[1]>) -> !cuda_tile.partition_view<tile=(8), tensor_view<256xf32, strides=[1]>>"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:10: 'cuda_tile.make_partition_view' op expected the type of the provided tensor_view value ('!cuda_tile.tensor_view<128xf32, strides=[1]>') to be the same as the view's tensor_view type ('!cuda_tile.tensor_view<256xf32, strides=[1]>')",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:10: 'cuda_tile.make_partition_view' op expected the type of the provided tensor_view value ('!cuda_tile.tensor_view<128xf32, strides=[1]>') to be the same as the view's tensor_view type ('!cuda_tile.tensor_view<256xf32, strides=[1]>')",
        ]
    );
}

/// Custom and generic forms over the right tensor view.
#[test]
fn make_partition_view_valid() {
    let src = func(
        r#"%tv: !cuda_tile.tensor_view<128xf32, strides=[1]>"#,
        &[
            r#"%p = cuda_tile.make_partition_view %tv : !cuda_tile.partition_view<tile=(8), tensor_view<128xf32, strides=[1]>>"#,
            r#"%q = "cuda_tile.make_partition_view"(%tv) : (!cuda_tile.tensor_view<128xf32, strides=[1]>) -> !cuda_tile.partition_view<tile=(16), tensor_view<128xf32, strides=[1]>>"#,
        ],
    );
    assert_clean(&src);
}

/// One result per tensor dimension (the custom form cannot get this wrong).
#[test]
fn get_tensor_shape_result_count() {
    let src = func(
        r#"%tv: !cuda_tile.tensor_view<64x64xf16, strides=[64,1]>"#,
        &[
            r#"%s:3 = "cuda_tile.get_tensor_shape"(%tv) : (!cuda_tile.tensor_view<64x64xf16, strides=[64,1]>) -> (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>, !cuda_tile.tile<i32>)"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:12: 'cuda_tile.get_tensor_shape' op expected 2 results due to tensor rank, but got 3",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:12: 'cuda_tile.get_tensor_shape' op expected 2 results due to tensor rank, but got 3",
        ]
    );
}

/// One result per index-space dimension.
#[test]
fn get_index_space_shape_result_count() {
    let src = func(
        r#"%pv: !cuda_tile.partition_view<tile=(4x4), tensor_view<?x?xf32, strides=[?,1]>>"#,
        &[
            r#"%s = "cuda_tile.get_index_space_shape"(%pv) : (!cuda_tile.partition_view<tile=(4x4), tensor_view<?x?xf32, strides=[?,1]>>) -> !cuda_tile.tile<i32>"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:10: 'cuda_tile.get_index_space_shape' op expected 2 results due to view index space rank, but got 1",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:10: 'cuda_tile.get_index_space_shape' op expected 2 results due to view index space rank, but got 1",
        ]
    );
}

/// Custom and generic forms with one result per dimension.
#[test]
fn get_shape_valid() {
    let src = func(
        r#"%tv: !cuda_tile.tensor_view<64x64xf16, strides=[64,1]>, %pv: !cuda_tile.partition_view<tile=(4x4), tensor_view<?x?xf32, strides=[?,1]>>"#,
        &[
            r#"%a, %b = cuda_tile.get_tensor_shape %tv : !cuda_tile.tensor_view<64x64xf16, strides=[64,1]> -> !cuda_tile.tile<i64>"#,
            r#"%c:2 = "cuda_tile.get_tensor_shape"(%tv) : (!cuda_tile.tensor_view<64x64xf16, strides=[64,1]>) -> (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>)"#,
            r#"%d, %e = cuda_tile.get_index_space_shape %pv : !cuda_tile.partition_view<tile=(4x4), tensor_view<?x?xf32, strides=[?,1]>> -> !cuda_tile.tile<i32>"#,
        ],
    );
    assert_clean(&src);
}

/// NVIDIA's wording as of its 13.1 release.
fn release_13_1() -> tilec_verify::VerifyOptions {
    tilec_verify::VerifyOptions {
        personality: tilec_verify::Personality::CudaTileOpt,
        release_minor: Some(1),
        ..Default::default()
    }
}

/// `pack`/`unpack` (13.3): same rank, rank 1, not between 8-bit types, the same bytes.
#[test]
fn pack_and_unpack_rules() {
    let case = |args: &str, line: &str| func(args, &[line]);
    let both = |src: &str, msg: &str| {
        let want = [format!("error 3:10: {msg}")];
        assert_eq!(verify_diags(src, false), want, "{src}");
        assert_eq!(verify_diags(src, true), want, "{src}");
    };
    both(
        &case(
            "%x: !cuda_tile.tile<32xf16>",
            "%r = cuda_tile.pack %x : !cuda_tile.tile<32xf16> -> !cuda_tile.tile<32x2xi8>",
        ),
        "'cuda_tile.pack' op failed to verify that all of {source, result} have same rank",
    );
    both(
        &case(
            "%x: !cuda_tile.tile<32x32xf16>",
            "%r = cuda_tile.pack %x : !cuda_tile.tile<32x32xf16> -> !cuda_tile.tile<32x64xi8>",
        ),
        "'cuda_tile.pack' op expects source and result to be rank-1 tiles",
    );
    both(
        &case(
            "%x: !cuda_tile.tile<32xf16>",
            "%r = cuda_tile.pack %x : !cuda_tile.tile<32xf16> -> !cuda_tile.tile<32xi8>",
        ),
        "'cuda_tile.pack' op expects source and result to have the same size in bytes, but got source tile size 64 bytes and result tile size 32 bytes",
    );
    both(
        &case(
            "%x: !cuda_tile.tile<32xi8>",
            "%r = cuda_tile.unpack %x : !cuda_tile.tile<32xi8> -> !cuda_tile.tile<32xf8E4M3FN>",
        ),
        "'cuda_tile.unpack' op expects source and result to have different element type widths",
    );
    both(
        &case(
            "%x: !cuda_tile.tile<64xi8>",
            "%r = cuda_tile.unpack %x : !cuda_tile.tile<64xi8> -> !cuda_tile.tile<64xf16>",
        ),
        "'cuda_tile.unpack' op expects source and result to have the same size in bytes, but got source tile size 64 bytes and result tile size 128 bytes",
    );
    assert_clean(&func(
        "%x: !cuda_tile.tile<64xi8>, %b: !cuda_tile.tile<16xi1>, %t: !cuda_tile.tile<4xtf32>",
        &[
            "%r = cuda_tile.unpack %x : !cuda_tile.tile<64xi8> -> !cuda_tile.tile<128xf4E2M1FN>",
            "%s = cuda_tile.unpack %x : !cuda_tile.tile<64xi8> -> !cuda_tile.tile<512xi1>",
            "%p = cuda_tile.pack %b : !cuda_tile.tile<16xi1> -> !cuda_tile.tile<2xi8>",
            "%q = cuda_tile.pack %t : !cuda_tile.tile<4xtf32> -> !cuda_tile.tile<16xi8>",
        ],
    ));
}

// ---------------------------------------------------------------- 13.3 views

const SV: &str = "!cuda_tile.strided_view<tile=(2x2), traversal_strides=[1,3], tensor_view<4x4xi32, strides=[4,1]>>";
const GV: &str = "!cuda_tile.gather_scatter_view<tile=(4x2), tensor_view<16x4xf32, strides=[4,1]>, sparse_dim=0>";
const PV: &str = "!cuda_tile.partition_view<tile=(2x2), tensor_view<2x2xi32, strides=[2,1]>>";

/// Both personalities report the same (NVIDIA's) words for the 13.3 views.
fn both(src: &str, want: &str) {
    assert_eq!(verify_diags(src, false), [want], "spec personality");
    assert_eq!(verify_diags(src, true), [want], "cuda-tile-opt personality");
}

/// Loads and stores through strided and gather/scatter views, with index types mixed
/// (the row tile and the scalars), verify clean.
#[test]
fn strided_and_gather_scatter_accesses_verify() {
    assert_clean(&func(
        &format!(
            "%s: {SV}, %g: {GV}, %i: !cuda_tile.tile<i32>, %r: !cuda_tile.tile<4xi64>, %j: !cuda_tile.tile<i16>"
        ),
        &[
            &format!(
                "%x, %t = cuda_tile.load_view_tko weak %s[%i, %i] : {SV}, !cuda_tile.tile<i32> -> !cuda_tile.tile<2x2xi32>, !cuda_tile.token"
            ),
            &format!(
                "%y, %u = cuda_tile.load_view_tko weak %g[%r, %j] : {GV}, !cuda_tile.tile<4xi64>, !cuda_tile.tile<i16> -> !cuda_tile.tile<4x2xf32>, !cuda_tile.token"
            ),
            &format!(
                "%v = cuda_tile.store_view_tko weak %y, %g[%r, %j] : !cuda_tile.tile<4x2xf32>, {GV}, !cuda_tile.tile<4xi64>, !cuda_tile.tile<i16> -> !cuda_tile.token"
            ),
        ],
    ));
}

/// A rank-1 index of a strided view (E0740).
#[test]
fn strided_view_index_must_be_scalar() {
    let src = func(
        &format!("%s: {SV}, %i: !cuda_tile.tile<1xi32>"),
        &[&format!(
            "%x, %t = cuda_tile.load_view_tko weak %s[%i, %i] : {SV}, !cuda_tile.tile<1xi32> -> !cuda_tile.tile<2x2xi32>, !cuda_tile.token"
        )],
    );
    both(
        &src,
        "error 3:14: 'cuda_tile.load_view_tko' op expected index type to be a scalar tile, got '!cuda_tile.tile<1xi32>'",
    );
}

/// The gather/scatter index rules (E0741-E0744), in NVIDIA's order.
#[test]
fn gather_scatter_index_rules() {
    let load = |types: &str| {
        func(
            &format!(
                "%g: {GV}, %r: !cuda_tile.tile<4xi32>, %r8: !cuda_tile.tile<8xi32>, %i: !cuda_tile.tile<i32>, %k: !cuda_tile.tile<i64>"
            ),
            &[&format!(
                "%x, %t = cuda_tile.load_view_tko weak %g[{types} -> !cuda_tile.tile<4x2xf32>, !cuda_tile.token"
            )],
        )
    };
    both(
        &load(&format!("%i, %i] : {GV}, !cuda_tile.tile<i32>")),
        "error 3:14: 'cuda_tile.load_view_tko' op expected index at sparse_dim position 0 to be a 1D tensor for GatherScatterView, got rank 0",
    );
    both(
        &load(&format!(
            "%r8, %i] : {GV}, !cuda_tile.tile<8xi32>, !cuda_tile.tile<i32>"
        )),
        "error 3:14: 'cuda_tile.load_view_tko' op expected gather/scatter index size (8) to match tile shape at gather/scatter dimension 0 (4)",
    );
    both(
        &load(&format!("%r, %r] : {GV}, !cuda_tile.tile<4xi32>")),
        "error 3:14: 'cuda_tile.load_view_tko' op expected index 1 to be a scalar tile for GatherScatterView",
    );
    let gv3 = "!cuda_tile.gather_scatter_view<tile=(2x4x2), tensor_view<8x8x8xf32, strides=[64,8,1]>, sparse_dim=1>";
    let src = func(
        &format!(
            "%g: {gv3}, %r: !cuda_tile.tile<4xi32>, %i: !cuda_tile.tile<i32>, %k: !cuda_tile.tile<i64>"
        ),
        &[&format!(
            "%x, %t = cuda_tile.load_view_tko weak %g[%i, %r, %k] : {gv3}, !cuda_tile.tile<i32>, !cuda_tile.tile<4xi32>, !cuda_tile.tile<i64> -> !cuda_tile.tile<2x4x2xf32>, !cuda_tile.token"
        )],
    );
    both(
        &src,
        "error 3:14: 'cuda_tile.load_view_tko' op expected scalar index 2 to have the same type as other scalar indices ('!cuda_tile.tile<i32>'), got '!cuda_tile.tile<i64>'",
    );
}

/// `make_strided_view` of another tensor view type (E0745), and of a partition view type
/// written in the generic form (E0746).
#[test]
fn make_strided_view_types() {
    let src = func(
        "%v: !cuda_tile.tensor_view<4x8xi32, strides=[8,1]>",
        &[&format!(
            r#"%s = "cuda_tile.make_strided_view"(%v) : (!cuda_tile.tensor_view<4x8xi32, strides=[8,1]>) -> {SV}"#
        )],
    );
    both(
        &src,
        "error 3:10: 'cuda_tile.make_strided_view' op expected the type of the provided tensor_view value ('!cuda_tile.tensor_view<4x8xi32, strides=[8,1]>') to be the same as the view's tensor_view type ('!cuda_tile.tensor_view<4x4xi32, strides=[4,1]>')",
    );
    let pv = "!cuda_tile.partition_view<tile=(2x2), tensor_view<4x4xi32, strides=[4,1]>>";
    let src = func(
        "%v: !cuda_tile.tensor_view<4x4xi32, strides=[4,1]>",
        &[&format!(
            r#"%s = "cuda_tile.make_gather_scatter_view"(%v) : (!cuda_tile.tensor_view<4x4xi32, strides=[4,1]>) -> {pv}"#
        )],
    );
    both(
        &src,
        &format!(
            "error 3:10: 'cuda_tile.make_gather_scatter_view' op result #0 must be gather/scatter view type, but got '{pv}'"
        ),
    );
}

/// Every `atomic_red_view_tko` rule (E0750-E0760) with NVIDIA's words.
#[test]
fn atomic_red_view_rules() {
    let red = |view: &str, ord: &str, mode: &str, value: &str, index: &str, itype: &str| {
        func(
            &format!(
                "%v: {view}, %x: !cuda_tile.tile<{value}>, %c: !cuda_tile.tile<i32>, %r: !cuda_tile.tile<1xi32>"
            ),
            &[&format!(
                "%t = cuda_tile.atomic_red_view_tko {ord} %v[{index}], {mode}, %x : !cuda_tile.tile<{value}>, {view}, {itype} -> !cuda_tile.token"
            )],
        )
    };
    let it = "!cuda_tile.tile<i32>";
    let op = "error 3:10: 'cuda_tile.atomic_red_view_tko' op";
    assert_clean(&red(PV, "relaxed device", "add", "2x2xi32", "%c, %c", it));
    assert_clean(&red(SV, "relaxed tl_blk", "umin", "2x2xi32", "%c, %c", it));
    let fpv = "!cuda_tile.partition_view<tile=(2x2), tensor_view<2x2xbf16, strides=[2,1]>>";
    assert_clean(&red(
        fpv,
        "relaxed device",
        "addf",
        "2x2xbf16",
        "%c, %c",
        it,
    ));
    both(
        &red(GV, "relaxed device", "addf", "4x2xf32", "%c, %c", it),
        &format!("{op} gather_scatter_view is not supported; use partition_view instead"),
    );
    let padded = "!cuda_tile.strided_view<tile=(2x2), traversal_strides=[2, 2], padding_value = zero, tensor_view<2x2xi32, strides=[2, 1]>>";
    both(
        &red(padded, "relaxed device", "add", "2x2xi32", "%c, %c", it),
        &format!("{op} views with padding_value are not supported for atomic reductions"),
    );
    both(
        &red(PV, "relaxed device", "addf", "2x2xf32", "%c, %c", it),
        &format!("{op} view element type ('i32') must match value element type ('f32')"),
    );
    let pv4 = "!cuda_tile.partition_view<tile=(4x4), tensor_view<4x4xi32, strides=[4, 1]>>";
    both(
        &red(pv4, "relaxed device", "add", "2x2xi32", "%c, %c", it),
        &format!(
            "{op} view tile shape 4, 4 must match value shape 2, 2 for element-wise atomic operations"
        ),
    );
    both(
        &red(PV, "relaxed device", "xchg", "2x2xi32", "%c, %c", it),
        &format!("{op} atomic_red_view_tko op cannot use xchg operation"),
    );
    let pvf = "!cuda_tile.partition_view<tile=(2x2), tensor_view<2x2xf32, strides=[2, 1]>>";
    both(
        &red(pvf, "relaxed device", "max", "2x2xf32", "%c, %c", it),
        &format!("{op} 'max' works only with integers i32 and i64"),
    );
    both(
        &red(PV, "relaxed device", "addf", "2x2xi32", "%c, %c", it),
        &format!("{op} 'addf' works only with floats f16, bf16, f32, and f64"),
    );
    both(
        &red(PV, "weak device", "add", "2x2xi32", "%c, %c", it),
        &format!(
            "{op} only 'relaxed' memory ordering is supported for view-based atomic reductions"
        ),
    );
    both(
        &red(PV, "relaxed sys", "add", "2x2xi32", "%c, %c", it),
        &format!(
            "{op} memory scope 'sys' is not supported for view-based atomic reductions; use 'tl_blk' or 'device' for TMA compatibility"
        ),
    );
    both(
        &red(PV, "relaxed device", "add", "2x2xi32", "%c", it),
        &format!("{op} expected 2 index operand(s) for view with tile rank 2, got 1"),
    );
    both(
        &red(
            PV,
            "relaxed device",
            "add",
            "2x2xi32",
            "%r, %r",
            "!cuda_tile.tile<1xi32>",
        ),
        &format!("{op} index operand 0 must be a scalar tile (rank 0), got shape 1"),
    );
}

/// The type rules of the 13.3 views, checked as the types are read (NVIDIA's type
/// verifiers' words).
#[test]
fn view_type_rules() {
    let parse_err = |ty: &str| -> String {
        let src = func(&format!("%v: {ty}"), &[]);
        match tilec_parse::parse(&src, tilec_diag::FileId(0), &Default::default()) {
            Ok(_) => "parsed".into(),
            Err(ds) => ds
                .iter()
                .map(|d| d.message.clone())
                .collect::<Vec<_>>()
                .join("; "),
        }
    };
    let tv = "tensor_view<16x16xf32, strides=[16,1]>";
    assert_eq!(
        parse_err(&format!(
            "!cuda_tile.strided_view<tile=(4x4), traversal_strides=[4], {tv}>"
        )),
        "expected 2 traversal strides, got 1"
    );
    assert_eq!(
        parse_err(&format!(
            "!cuda_tile.strided_view<tile=(4x4), traversal_strides=[4, 0], {tv}>"
        )),
        "traversal strides must be strictly positive but got [4, 0]"
    );
    assert_eq!(
        parse_err(&format!(
            "!cuda_tile.strided_view<tile=(4x3), traversal_strides=[4, 1], {tv}>"
        )),
        "tile shape dimensions must have power of two length but got [4, 3]"
    );
    assert_eq!(
        parse_err(&format!(
            "!cuda_tile.strided_view<tile=(4x4), traversal_strides=[4, 1], {tv}, dim_map=[0, 0]>"
        )),
        "target dimension 0 mapped at least twice (for tile dimensions 0 and 1)"
    );
    assert_eq!(
        parse_err(&format!(
            "!cuda_tile.gather_scatter_view<tile=(4x4), {tv}, sparse_dim=2>"
        )),
        "gather dimension is outside of tensor view dimensions, expected strictly less than 2, got 2"
    );
    assert_eq!(
        parse_err(
            "!cuda_tile.gather_scatter_view<tile=(4x4), padding_value = nan, tensor_view<16x16xi32, strides=[16,1]>, sparse_dim=0>"
        ),
        "padding_value nan can only be used with floating point element types, got 'i32'"
    );
    assert_eq!(
        parse_err(&format!(
            "!cuda_tile.strided_view<tile=(4x4), traversal_strides=[4,4], !cuda_tile.partition_view<tile=(4x4), {tv}>>"
        )),
        format!(
            "expected 'tensor_view' type, but got '!cuda_tile.partition_view<tile=(4x4), {tv}>'"
        )
    );
    // NVIDIA's printer: traversal strides without spaces, identity dim_map and absent
    // padding left out.
    let ty = format!(
        "!cuda_tile.strided_view<tile=(4x4), traversal_strides=[4, 1], padding_value = neg_inf, {tv}, dim_map=[0, 1]>"
    );
    let src = func(&format!("%v: {ty}"), &[]);
    let m = tilec_parse::parse(&src, tilec_diag::FileId(0), &Default::default()).unwrap();
    let printed = tilec_ir::print_module(&m, &Default::default());
    assert!(
        printed.contains(&format!(
            "strided_view<tile=(4x4), traversal_strides=[4,1], padding_value = neg_inf, {tv}>"
        )),
        "{printed}"
    );
}

/// `select` (13.3) refuses the 4-bit element types; 8-bit floats are fine.
#[test]
fn select_on_sub_byte_types() {
    for (ty, name) in [("f4E2M1FN", "F4E2M1FN"), ("i4", "I4")] {
        let src = func(
            &format!("%c: !cuda_tile.tile<4xi1>, %a: !cuda_tile.tile<4x{ty}>"),
            &[&format!(
                "%r = cuda_tile.select %c, %a, %a : !cuda_tile.tile<4xi1>, !cuda_tile.tile<4x{ty}>"
            )],
        );
        let want = [format!(
            "error 3:10: 'cuda_tile.select' op cannot operate on sub-byte type {name}"
        )];
        assert_eq!(verify_diags(&src, false), want, "{src}");
        assert_eq!(verify_diags(&src, true), want, "{src}");
    }
    assert_clean(&func(
        "%c: !cuda_tile.tile<4xi1>, %a: !cuda_tile.tile<4xf8E8M0FNU>",
        &["%r = cuda_tile.select %c, %a, %a : !cuda_tile.tile<4xi1>, !cuda_tile.tile<4xf8E8M0FNU>"],
    ));
}

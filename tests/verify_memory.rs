//! Verifier diagnostics of the memory family (token-ordered memory and atomics): every catalog entry produced exactly, in both
//! personalities, and valid near-misses that verify clean.

use tilec_tests::{assert_clean, test_func_lines as func, verify_diags, verify_diags_with};

/// The pointers point to the loaded element type.
#[test]
fn load_ptr_pointee() {
    let src = func(
        r#"%p: !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, %x: !cuda_tile.tile<8xf32>, %m: !cuda_tile.tile<8xi1>"#,
        &[
            r#"%r, %t = cuda_tile.load_ptr_tko weak %p : !cuda_tile.tile<8x!cuda_tile.ptr<f32>> -> !cuda_tile.tile<8xi32>, !cuda_tile.token"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:14: 'cuda_tile.load_ptr_tko' op pointer pointee element type must match value element type",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:14: 'cuda_tile.load_ptr_tko' op failed to verify that `source` type is expected a pointer type of `result` type",
        ]
    );
}

/// One pointer per loaded element.
#[test]
fn load_ptr_shape() {
    let src = func(
        r#"%p: !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, %x: !cuda_tile.tile<8xf32>, %m: !cuda_tile.tile<8xi1>"#,
        &[
            r#"%r, %t = cuda_tile.load_ptr_tko weak %p : !cuda_tile.tile<8x!cuda_tile.ptr<f32>> -> !cuda_tile.tile<4xf32>, !cuda_tile.token"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        ["error 3:14: 'cuda_tile.load_ptr_tko' op pointer tile shape must match value shape",]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:14: 'cuda_tile.load_ptr_tko' op failed to verify that `source` type is expected a pointer type of `result` type",
        ]
    );
}

/// The same rules for stores, whose NVIDIA message names `destination` and `value`.
#[test]
fn store_ptr_pointee_and_shape() {
    let src = func(
        r#"%p: !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, %x: !cuda_tile.tile<8xf32>, %m: !cuda_tile.tile<8xi1>, %y: !cuda_tile.tile<8xf16>, %z: !cuda_tile.tile<16xf32>"#,
        &[
            r#"%t = cuda_tile.store_ptr_tko weak %p, %y : !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, !cuda_tile.tile<8xf16> -> !cuda_tile.token"#,
            r#"%u = cuda_tile.store_ptr_tko weak %p, %z : !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, !cuda_tile.tile<16xf32> -> !cuda_tile.token"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:10: 'cuda_tile.store_ptr_tko' op pointer pointee element type must match value element type",
            "error 4:10: 'cuda_tile.store_ptr_tko' op pointer tile shape must match value shape",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:10: 'cuda_tile.store_ptr_tko' op failed to verify that `destination` type is expected a pointer type of `value` type",
            "error 4:10: 'cuda_tile.store_ptr_tko' op failed to verify that `destination` type is expected a pointer type of `value` type",
        ]
    );
}

/// The mask has the value's shape (NVIDIA's load and store messages name the slots in different orders).
#[test]
fn mask_shape() {
    let src = func(
        r#"%p: !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, %x: !cuda_tile.tile<8xf32>, %m: !cuda_tile.tile<8xi1>, %n: !cuda_tile.tile<4xi1>"#,
        &[
            r#"%r, %t = cuda_tile.load_ptr_tko weak %p, %n : !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, !cuda_tile.tile<4xi1> -> !cuda_tile.tile<8xf32>, !cuda_tile.token"#,
            r#"%u = cuda_tile.store_ptr_tko weak %p, %x, %n : !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, !cuda_tile.tile<8xf32>, !cuda_tile.tile<4xi1> -> !cuda_tile.token"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:14: 'cuda_tile.load_ptr_tko' op mask shape must match value shape",
            "error 4:10: 'cuda_tile.store_ptr_tko' op mask shape must match value shape",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:14: 'cuda_tile.load_ptr_tko' op failed to verify that shape of 'mask' must match the shape of 'source'",
            "error 4:10: 'cuda_tile.store_ptr_tko' op failed to verify that shape of 'destination' must match the shape of 'mask'",
        ]
    );
}

/// The padding value has the loaded tile's type.
#[test]
fn padding_type() {
    let src = func(
        r#"%p: !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, %x: !cuda_tile.tile<8xf32>, %m: !cuda_tile.tile<8xi1>, %pad: !cuda_tile.tile<8xf16>"#,
        &[
            r#"%r, %t = cuda_tile.load_ptr_tko weak %p, %m, %pad : !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, !cuda_tile.tile<8xi1>, !cuda_tile.tile<8xf16> -> !cuda_tile.tile<8xf32>, !cuda_tile.token"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:14: 'cuda_tile.load_ptr_tko' op failed to verify that type of 'paddingValue' must match the type of 'result'",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:14: 'cuda_tile.load_ptr_tko' op failed to verify that type of 'paddingValue' must match the type of 'result'",
        ]
    );
}

/// Loads are weak, relaxed or acquire.
#[test]
fn load_ordering() {
    let src = func(
        r#"%p: !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, %x: !cuda_tile.tile<8xf32>, %m: !cuda_tile.tile<8xi1>"#,
        &[
            r#"%r, %t = cuda_tile.load_ptr_tko release device %p : !cuda_tile.tile<8x!cuda_tile.ptr<f32>> -> !cuda_tile.tile<8xf32>, !cuda_tile.token"#,
            r#"%s, %u = cuda_tile.load_ptr_tko acq_rel sys %p : !cuda_tile.tile<8x!cuda_tile.ptr<f32>> -> !cuda_tile.tile<8xf32>, !cuda_tile.token"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:14: 'cuda_tile.load_ptr_tko' op load ordering must be weak, relaxed, or acquire",
            "error 4:14: 'cuda_tile.load_ptr_tko' op load ordering must be weak, relaxed, or acquire",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:14: 'cuda_tile.load_ptr_tko' op expect one of: weak, relaxed, or acquire, but got: release",
            "error 4:14: 'cuda_tile.load_ptr_tko' op expect one of: weak, relaxed, or acquire, but got: acq_rel",
        ]
    );
}

/// Stores are weak, relaxed or release.
#[test]
fn store_ordering() {
    let src = func(
        r#"%p: !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, %x: !cuda_tile.tile<8xf32>, %m: !cuda_tile.tile<8xi1>"#,
        &[
            r#"%t = cuda_tile.store_ptr_tko acquire device %p, %x : !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, !cuda_tile.tile<8xf32> -> !cuda_tile.token"#,
            r#"%u = cuda_tile.store_ptr_tko acq_rel device %p, %x : !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, !cuda_tile.tile<8xf32> -> !cuda_tile.token"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:10: 'cuda_tile.store_ptr_tko' op store ordering must be weak, relaxed, or release",
            "error 4:10: 'cuda_tile.store_ptr_tko' op store ordering must be weak, relaxed, or release",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:10: 'cuda_tile.store_ptr_tko' op expect one of: weak, relaxed, or release, but got: acquire",
            "error 4:10: 'cuda_tile.store_ptr_tko' op expect one of: weak, relaxed, or release, but got: acq_rel",
        ]
    );
}

/// Weak accesses name no scope.
#[test]
fn weak_with_scope() {
    let src = func(
        r#"%p: !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, %x: !cuda_tile.tile<8xf32>, %m: !cuda_tile.tile<8xi1>"#,
        &[
            r#"%r, %t = cuda_tile.load_ptr_tko weak device %p : !cuda_tile.tile<8x!cuda_tile.ptr<f32>> -> !cuda_tile.tile<8xf32>, !cuda_tile.token"#,
            r#"%u = cuda_tile.store_ptr_tko weak tl_blk %p, %x : !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, !cuda_tile.tile<8xf32> -> !cuda_tile.token"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:14: 'cuda_tile.load_ptr_tko' op weak memory ordering must not carry a scope",
            "error 4:10: 'cuda_tile.store_ptr_tko' op weak memory ordering must not carry a scope",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:14: 'cuda_tile.load_ptr_tko' op weak load must not have memory scope",
            "error 4:10: 'cuda_tile.store_ptr_tko' op weak store must not have memory scope",
        ]
    );
}

/// Relaxed, acquire and release accesses name a scope.
#[test]
fn scope_required() {
    let src = func(
        r#"%p: !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, %x: !cuda_tile.tile<8xf32>, %m: !cuda_tile.tile<8xi1>"#,
        &[
            r#"%r, %t = cuda_tile.load_ptr_tko relaxed %p : !cuda_tile.tile<8x!cuda_tile.ptr<f32>> -> !cuda_tile.tile<8xf32>, !cuda_tile.token"#,
            r#"%u = cuda_tile.store_ptr_tko release %p, %x : !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, !cuda_tile.tile<8xf32> -> !cuda_tile.token"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:14: 'cuda_tile.load_ptr_tko' op non-weak memory ordering requires an explicit scope",
            "error 4:10: 'cuda_tile.store_ptr_tko' op non-weak memory ordering requires an explicit scope",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:14: 'cuda_tile.load_ptr_tko' op memory scope is required for relaxed load",
            "error 4:10: 'cuda_tile.store_ptr_tko' op memory scope is required for release store",
        ]
    );
}

/// Every legal ordering, with and without mask, padding and token.
#[test]
fn ptr_access_valid() {
    let src = func(
        r#"%p: !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, %x: !cuda_tile.tile<8xf32>, %m: !cuda_tile.tile<8xi1>"#,
        &[
            r#"%r, %t = cuda_tile.load_ptr_tko weak %p, %m, %x : !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, !cuda_tile.tile<8xi1>, !cuda_tile.tile<8xf32> -> !cuda_tile.tile<8xf32>, !cuda_tile.token"#,
            r#"%r1, %t1 = cuda_tile.load_ptr_tko relaxed device %p token=%t : !cuda_tile.tile<8x!cuda_tile.ptr<f32>> -> !cuda_tile.tile<8xf32>, !cuda_tile.token"#,
            r#"%r2, %t2 = cuda_tile.load_ptr_tko acquire sys %p, %m : !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, !cuda_tile.tile<8xi1> -> !cuda_tile.tile<8xf32>, !cuda_tile.token"#,
            r#"%t3 = cuda_tile.store_ptr_tko weak %p, %x, %m : !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, !cuda_tile.tile<8xf32>, !cuda_tile.tile<8xi1> -> !cuda_tile.token"#,
            r#"%t4 = cuda_tile.store_ptr_tko relaxed tl_blk %p, %x : !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, !cuda_tile.tile<8xf32> -> !cuda_tile.token"#,
            r#"%t5 = cuda_tile.store_ptr_tko release device %p, %x token=%t4 : !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, !cuda_tile.tile<8xf32> -> !cuda_tile.token"#,
        ],
    );
    assert_clean(&src);
}

/// One index per dimension of the view's index space.
#[test]
fn view_index_count() {
    let src = func(
        r#"%v: !cuda_tile.partition_view<tile=(64x64), tensor_view<8192x128xf32, strides=[128,1]>>, %i: !cuda_tile.tile<i32>, %x: !cuda_tile.tile<64x64xf32>"#,
        &[
            r#"%r, %t = cuda_tile.load_view_tko weak %v[%i] : !cuda_tile.partition_view<tile=(64x64), tensor_view<8192x128xf32, strides=[128,1]>>, !cuda_tile.tile<i32> -> !cuda_tile.tile<64x64xf32>, !cuda_tile.token"#,
            r#"%u = cuda_tile.store_view_tko weak %x, %v[%i, %i, %i] : !cuda_tile.tile<64x64xf32>, !cuda_tile.partition_view<tile=(64x64), tensor_view<8192x128xf32, strides=[128,1]>>, !cuda_tile.tile<i32> -> !cuda_tile.token"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:14: 'cuda_tile.load_view_tko' op expected 2 index operands (based on view type), got 1",
            "error 4:10: 'cuda_tile.store_view_tko' op expected 2 index operands (based on view type), got 3",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:14: 'cuda_tile.load_view_tko' op expected 2 index operands (based on view type), got 1",
            "error 4:10: 'cuda_tile.store_view_tko' op expected 2 index operands (based on view type), got 3",
        ]
    );
}

/// The tile has the view's element type and tile shape.
#[test]
fn view_tile_type() {
    let src = func(
        r#"%v: !cuda_tile.partition_view<tile=(64x64), tensor_view<8192x128xf32, strides=[128,1]>>, %i: !cuda_tile.tile<i32>, %x: !cuda_tile.tile<64x64xf32>, %y: !cuda_tile.tile<64x32xf32>"#,
        &[
            r#"%r, %t = cuda_tile.load_view_tko weak %v[%i, %i] : !cuda_tile.partition_view<tile=(64x64), tensor_view<8192x128xf32, strides=[128,1]>>, !cuda_tile.tile<i32> -> !cuda_tile.tile<64x64xf16>, !cuda_tile.token"#,
            r#"%u = cuda_tile.store_view_tko weak %y, %v[%i, %i] : !cuda_tile.tile<64x32xf32>, !cuda_tile.partition_view<tile=(64x64), tensor_view<8192x128xf32, strides=[128,1]>>, !cuda_tile.tile<i32> -> !cuda_tile.token"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:14: 'cuda_tile.load_view_tko' op view element type must match value element type: expected '!cuda_tile.tile<64x64xf32>' (based on view type), got '!cuda_tile.tile<64x64xf16>'",
            "error 4:10: 'cuda_tile.store_view_tko' op view tile shape must match value shape: expected '!cuda_tile.tile<64x64xf32>' (based on view type), got '!cuda_tile.tile<64x32xf32>'",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:14: 'cuda_tile.load_view_tko' op expected tile type to be '!cuda_tile.tile<64x64xf32>' (based on view type), got '!cuda_tile.tile<64x64xf16>'",
            "error 4:10: 'cuda_tile.store_view_tko' op expected tile type to be '!cuda_tile.tile<64x64xf32>' (based on view type), got '!cuda_tile.tile<64x32xf32>'",
        ]
    );
}

/// All indices have one type (only the generic form can mix them).
#[test]
fn view_index_types() {
    let src = func(
        r#"%v: !cuda_tile.partition_view<tile=(64x64), tensor_view<8192x128xf32, strides=[128,1]>>, %i: !cuda_tile.tile<i32>, %x: !cuda_tile.tile<64x64xf32>, %j: !cuda_tile.tile<i64>"#,
        &[
            r#"%r, %t = "cuda_tile.load_view_tko"(%v, %i, %j) <{memory_ordering_semantics = 0 : i32, operandSegmentSizes = array<i32: 1, 2, 0>}> : (!cuda_tile.partition_view<tile=(64x64), tensor_view<8192x128xf32, strides=[128,1]>>, !cuda_tile.tile<i32>, !cuda_tile.tile<i64>) -> (!cuda_tile.tile<64x64xf32>, !cuda_tile.token)"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:14: 'cuda_tile.load_view_tko' op expected index type 1 to be the same as other index types ('!cuda_tile.tile<i32>'), got '!cuda_tile.tile<i64>'",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:14: 'cuda_tile.load_view_tko' op expected index type 1 to be the same as other index types ('!cuda_tile.tile<i32>'), got '!cuda_tile.tile<i64>'",
        ]
    );
}

/// View loads and stores follow the load and store ordering rules.
#[test]
fn view_ordering() {
    let src = func(
        r#"%v: !cuda_tile.partition_view<tile=(64x64), tensor_view<8192x128xf32, strides=[128,1]>>, %i: !cuda_tile.tile<i32>, %x: !cuda_tile.tile<64x64xf32>"#,
        &[
            r#"%r, %t = cuda_tile.load_view_tko release device %v[%i, %i] : !cuda_tile.partition_view<tile=(64x64), tensor_view<8192x128xf32, strides=[128,1]>>, !cuda_tile.tile<i32> -> !cuda_tile.tile<64x64xf32>, !cuda_tile.token"#,
            r#"%u = cuda_tile.store_view_tko relaxed %x, %v[%i, %i] : !cuda_tile.tile<64x64xf32>, !cuda_tile.partition_view<tile=(64x64), tensor_view<8192x128xf32, strides=[128,1]>>, !cuda_tile.tile<i32> -> !cuda_tile.token"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:14: 'cuda_tile.load_view_tko' op load ordering must be weak, relaxed, or acquire",
            "error 4:10: 'cuda_tile.store_view_tko' op non-weak memory ordering requires an explicit scope",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:14: 'cuda_tile.load_view_tko' op expect one of: weak, relaxed, or acquire, but got: release",
            "error 4:10: 'cuda_tile.store_view_tko' op memory scope is required for relaxed store",
        ]
    );
}

/// Loads and stores of the view's tiles.
#[test]
fn view_access_valid() {
    let src = func(
        r#"%v: !cuda_tile.partition_view<tile=(64x64), tensor_view<8192x128xf32, strides=[128,1]>>, %i: !cuda_tile.tile<i32>, %x: !cuda_tile.tile<64x64xf32>"#,
        &[
            r#"%r, %t = cuda_tile.load_view_tko weak %v[%i, %i] : !cuda_tile.partition_view<tile=(64x64), tensor_view<8192x128xf32, strides=[128,1]>>, !cuda_tile.tile<i32> -> !cuda_tile.tile<64x64xf32>, !cuda_tile.token"#,
            r#"%r1, %t1 = cuda_tile.load_view_tko acquire device %v[%i, %i] token = %t : !cuda_tile.partition_view<tile=(64x64), tensor_view<8192x128xf32, strides=[128,1]>>, !cuda_tile.tile<i32> -> !cuda_tile.tile<64x64xf32>, !cuda_tile.token"#,
            r#"%u = cuda_tile.store_view_tko weak %x, %v[%i, %i] : !cuda_tile.tile<64x64xf32>, !cuda_tile.partition_view<tile=(64x64), tensor_view<8192x128xf32, strides=[128,1]>>, !cuda_tile.tile<i32> -> !cuda_tile.token"#,
            r#"%u1 = cuda_tile.store_view_tko release sys %x, %v[%i, %i] token = %u : !cuda_tile.tile<64x64xf32>, !cuda_tile.partition_view<tile=(64x64), tensor_view<8192x128xf32, strides=[128,1]>>, !cuda_tile.tile<i32> -> !cuda_tile.token"#,
        ],
    );
    assert_clean(&src);
}

/// `join_tokens` joins two or more tokens.
#[test]
fn join_tokens_count() {
    let src = func(
        r#""#,
        &[
            r#"%t = cuda_tile.make_token : !cuda_tile.token"#,
            r#"%u = cuda_tile.join_tokens %t : !cuda_tile.token"#,
            r#"%w = cuda_tile.join_tokens %t, %t, %t : !cuda_tile.token"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        ["error 4:10: 'cuda_tile.join_tokens' op expect two or more tokens",]
    );
    assert_eq!(
        verify_diags(&src, true),
        ["error 4:10: 'cuda_tile.join_tokens' op expect two or more tokens",]
    );
}

/// The pointers point to the value's element type (`arg` of rmw, `val` of cas).
#[test]
fn atomic_pointee() {
    let src = func(
        r#"%p: !cuda_tile.tile<2x!cuda_tile.ptr<f32>>, %x: !cuda_tile.tile<2xi32>"#,
        &[
            r#"%r, %t = cuda_tile.atomic_rmw_tko relaxed device %p, add, %x : !cuda_tile.tile<2x!cuda_tile.ptr<f32>>, !cuda_tile.tile<2xi32> -> !cuda_tile.tile<2xi32>, !cuda_tile.token"#,
            r#"%s, %u = cuda_tile.atomic_cas_tko relaxed device %p, %x, %x : !cuda_tile.tile<2x!cuda_tile.ptr<f32>>, !cuda_tile.tile<2xi32> -> !cuda_tile.tile<2xi32>, !cuda_tile.token"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:14: 'cuda_tile.atomic_rmw_tko' op pointer pointee element type must match value element type",
            "error 4:14: 'cuda_tile.atomic_cas_tko' op pointer pointee element type must match value element type",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:14: 'cuda_tile.atomic_rmw_tko' op expected pointee type ('f32') to match element type of 'arg' ('i32')",
            "error 4:14: 'cuda_tile.atomic_cas_tko' op expected pointee type ('f32') to match element type of 'val' ('i32')",
        ]
    );
}

/// Pointer and mask shapes: the spec's messages come before the table's same-shape checks.
#[test]
fn atomic_shape_and_mask() {
    let src = func(
        r#"%p: !cuda_tile.tile<2x!cuda_tile.ptr<i32>>, %x: !cuda_tile.tile<2xi32>, %q: !cuda_tile.tile<4x!cuda_tile.ptr<i32>>, %m: !cuda_tile.tile<4xi1>"#,
        &[
            r#"%r, %t = cuda_tile.atomic_rmw_tko relaxed device %q, add, %x : !cuda_tile.tile<4x!cuda_tile.ptr<i32>>, !cuda_tile.tile<2xi32> -> !cuda_tile.tile<2xi32>, !cuda_tile.token"#,
            r#"%s, %u = cuda_tile.atomic_rmw_tko relaxed device %p, and, %x, %m : !cuda_tile.tile<2x!cuda_tile.ptr<i32>>, !cuda_tile.tile<2xi32>, !cuda_tile.tile<4xi1> -> !cuda_tile.tile<2xi32>, !cuda_tile.token"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:14: 'cuda_tile.atomic_rmw_tko' op pointer tile shape must match value shape",
            "error 4:14: 'cuda_tile.atomic_rmw_tko' op mask shape must match value shape",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:14: 'cuda_tile.atomic_rmw_tko' op failed to verify that all of {pointers, arg, result} have same shape",
            "error 4:14: 'cuda_tile.atomic_rmw_tko' op failed to verify that all of {pointers, arg, mask} have same shape",
        ]
    );
}

/// Integer modes need i32 or i64 elements.
#[test]
fn rmw_integer_mode() {
    let src = func(
        r#"%p: !cuda_tile.tile<2x!cuda_tile.ptr<i16>>, %x: !cuda_tile.tile<2xi16>, %q: !cuda_tile.tile<2x!cuda_tile.ptr<f32>>, %y: !cuda_tile.tile<2xf32>"#,
        &[
            r#"%r, %t = cuda_tile.atomic_rmw_tko relaxed device %p, add, %x : !cuda_tile.tile<2x!cuda_tile.ptr<i16>>, !cuda_tile.tile<2xi16> -> !cuda_tile.tile<2xi16>, !cuda_tile.token"#,
            r#"%s, %u = cuda_tile.atomic_rmw_tko relaxed device %q, umin, %y : !cuda_tile.tile<2x!cuda_tile.ptr<f32>>, !cuda_tile.tile<2xf32> -> !cuda_tile.tile<2xf32>, !cuda_tile.token"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:14: 'cuda_tile.atomic_rmw_tko' op integer rmw mode requires i32 or i64 element type",
            "error 4:14: 'cuda_tile.atomic_rmw_tko' op integer rmw mode requires i32 or i64 element type",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:14: 'cuda_tile.atomic_rmw_tko' op 'add' works only with integers i32 and i64",
            "error 4:14: 'cuda_tile.atomic_rmw_tko' op 'umin' works only with integers i32 and i64",
        ]
    );
}

/// `addf` needs f16, bf16 (from release 13.3), f32 or f64 elements.
#[test]
fn rmw_addf() {
    let src = func(
        r#"%p: !cuda_tile.tile<2x!cuda_tile.ptr<bf16>>, %x: !cuda_tile.tile<2xbf16>, %q: !cuda_tile.tile<2x!cuda_tile.ptr<i32>>, %y: !cuda_tile.tile<2xi32>"#,
        &[
            r#"%r, %t = cuda_tile.atomic_rmw_tko relaxed device %p, addf, %x : !cuda_tile.tile<2x!cuda_tile.ptr<bf16>>, !cuda_tile.tile<2xbf16> -> !cuda_tile.tile<2xbf16>, !cuda_tile.token"#,
            r#"%s, %u = cuda_tile.atomic_rmw_tko relaxed device %q, addf, %y : !cuda_tile.tile<2x!cuda_tile.ptr<i32>>, !cuda_tile.tile<2xi32> -> !cuda_tile.tile<2xi32>, !cuda_tile.token"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 4:14: 'cuda_tile.atomic_rmw_tko' op floating-add rmw requires a target-supported floating width",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 4:14: 'cuda_tile.atomic_rmw_tko' op 'addf' works only with floats f16, bf16, f32, and f64",
        ]
    );
    // Release 13.1: no bf16, and its wording.
    let in_13_1 = |personality| {
        verify_diags_with(
            &src,
            &tilec_verify::VerifyOptions {
                personality,
                release_minor: Some(1),
                ..Default::default()
            },
        )
    };
    assert_eq!(
        in_13_1(tilec_verify::Personality::Spec),
        [
            "error 3:14: 'cuda_tile.atomic_rmw_tko' op floating-add rmw requires a target-supported floating width",
            "error 4:14: 'cuda_tile.atomic_rmw_tko' op floating-add rmw requires a target-supported floating width",
        ]
    );
    assert_eq!(
        in_13_1(tilec_verify::Personality::CudaTileOpt),
        [
            "error 3:14: 'cuda_tile.atomic_rmw_tko' op 'addf' works only with floats f16, f32, and f64",
            "error 4:14: 'cuda_tile.atomic_rmw_tko' op 'addf' works only with floats f16, f32, and f64",
        ]
    );
}

/// `xchg` needs 32- or 64-bit elements (tf32 counts as 19 bits).
#[test]
fn rmw_xchg() {
    let src = func(
        r#"%p: !cuda_tile.tile<2x!cuda_tile.ptr<tf32>>, %x: !cuda_tile.tile<2xtf32>, %q: !cuda_tile.tile<2x!cuda_tile.ptr<i8>>, %y: !cuda_tile.tile<2xi8>"#,
        &[
            r#"%r, %t = cuda_tile.atomic_rmw_tko relaxed device %p, xchg, %x : !cuda_tile.tile<2x!cuda_tile.ptr<tf32>>, !cuda_tile.tile<2xtf32> -> !cuda_tile.tile<2xtf32>, !cuda_tile.token"#,
            r#"%s, %u = cuda_tile.atomic_rmw_tko relaxed device %q, xchg, %y : !cuda_tile.tile<2x!cuda_tile.ptr<i8>>, !cuda_tile.tile<2xi8> -> !cuda_tile.tile<2xi8>, !cuda_tile.token"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:14: 'cuda_tile.atomic_rmw_tko' op xchg rmw requires a target-supported atomic width",
            "error 4:14: 'cuda_tile.atomic_rmw_tko' op xchg rmw requires a target-supported atomic width",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:14: 'cuda_tile.atomic_rmw_tko' op 'xchg' works only with integers or float of 32 or 64 bitwidth",
            "error 4:14: 'cuda_tile.atomic_rmw_tko' op 'xchg' works only with integers or float of 32 or 64 bitwidth",
        ]
    );
}

/// Compare-and-swap needs 32- or 64-bit elements.
#[test]
fn cas_width() {
    let src = func(
        r#"%p: !cuda_tile.tile<2x!cuda_tile.ptr<i8>>, %x: !cuda_tile.tile<2xi8>, %q: !cuda_tile.tile<2x!cuda_tile.ptr<f16>>, %y: !cuda_tile.tile<2xf16>"#,
        &[
            r#"%r, %t = cuda_tile.atomic_cas_tko relaxed device %p, %x, %x : !cuda_tile.tile<2x!cuda_tile.ptr<i8>>, !cuda_tile.tile<2xi8> -> !cuda_tile.tile<2xi8>, !cuda_tile.token"#,
            r#"%s, %u = cuda_tile.atomic_cas_tko relaxed device %q, %y, %y : !cuda_tile.tile<2x!cuda_tile.ptr<f16>>, !cuda_tile.tile<2xf16> -> !cuda_tile.tile<2xf16>, !cuda_tile.token"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:14: 'cuda_tile.atomic_cas_tko' op expect only float or integer types with 32 or 64 bit",
            "error 4:14: 'cuda_tile.atomic_cas_tko' op expect only float or integer types with 32 or 64 bit",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:14: 'cuda_tile.atomic_cas_tko' op expect only float or integer types with 32 or 64 bit",
            "error 4:14: 'cuda_tile.atomic_cas_tko' op expect only float or integer types with 32 or 64 bit",
        ]
    );
}

/// Atomics are never weak: the spec reports the (always present) scope before the mode rules; NVIDIA reports the ordering after them.
#[test]
fn atomic_weak() {
    let src = func(
        r#"%p: !cuda_tile.tile<2x!cuda_tile.ptr<i32>>, %x: !cuda_tile.tile<2xi32>, %q: !cuda_tile.tile<2x!cuda_tile.ptr<i16>>, %y: !cuda_tile.tile<2xi16>"#,
        &[
            r#"%r, %t = cuda_tile.atomic_rmw_tko weak device %p, add, %x : !cuda_tile.tile<2x!cuda_tile.ptr<i32>>, !cuda_tile.tile<2xi32> -> !cuda_tile.tile<2xi32>, !cuda_tile.token"#,
            r#"%s, %u = cuda_tile.atomic_cas_tko weak sys %p, %x, %x : !cuda_tile.tile<2x!cuda_tile.ptr<i32>>, !cuda_tile.tile<2xi32> -> !cuda_tile.tile<2xi32>, !cuda_tile.token"#,
            r#"%a, %b = cuda_tile.atomic_rmw_tko weak device %q, max, %y : !cuda_tile.tile<2x!cuda_tile.ptr<i16>>, !cuda_tile.tile<2xi16> -> !cuda_tile.tile<2xi16>, !cuda_tile.token"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:14: 'cuda_tile.atomic_rmw_tko' op weak memory ordering must not carry a scope",
            "error 4:14: 'cuda_tile.atomic_cas_tko' op weak memory ordering must not carry a scope",
            "error 5:14: 'cuda_tile.atomic_rmw_tko' op weak memory ordering must not carry a scope",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:14: 'cuda_tile.atomic_rmw_tko' op memory ordering semantics must be one of: relaxed, acquire, release, acq_rel",
            "error 4:14: 'cuda_tile.atomic_cas_tko' op memory ordering semantics must be one of: relaxed, acquire, release, acq_rel",
            "error 5:14: 'cuda_tile.atomic_rmw_tko' op 'max' works only with integers i32 and i64",
        ]
    );
}

/// Every mode on an element type it accepts, every non-weak ordering, masks and tokens.
#[test]
fn atomic_valid() {
    let src = func(
        r#"%p: !cuda_tile.tile<2x!cuda_tile.ptr<i32>>, %x: !cuda_tile.tile<2xi32>, %q: !cuda_tile.tile<2x!cuda_tile.ptr<f16>>, %y: !cuda_tile.tile<2xf16>, %pl: !cuda_tile.tile<2x!cuda_tile.ptr<i64>>, %z: !cuda_tile.tile<2xi64>, %pf: !cuda_tile.tile<2x!cuda_tile.ptr<f64>>, %w: !cuda_tile.tile<2xf64>, %m: !cuda_tile.tile<2xi1>"#,
        &[
            r#"%r0, %t0 = cuda_tile.atomic_rmw_tko relaxed device %p, and, %x : !cuda_tile.tile<2x!cuda_tile.ptr<i32>>, !cuda_tile.tile<2xi32> -> !cuda_tile.tile<2xi32>, !cuda_tile.token"#,
            r#"%r1, %t1 = cuda_tile.atomic_rmw_tko acquire sys %pl, umax, %z, %m token=%t0 : !cuda_tile.tile<2x!cuda_tile.ptr<i64>>, !cuda_tile.tile<2xi64>, !cuda_tile.tile<2xi1> -> !cuda_tile.tile<2xi64>, !cuda_tile.token"#,
            r#"%r2, %t2 = cuda_tile.atomic_rmw_tko release tl_blk %q, addf, %y : !cuda_tile.tile<2x!cuda_tile.ptr<f16>>, !cuda_tile.tile<2xf16> -> !cuda_tile.tile<2xf16>, !cuda_tile.token"#,
            r#"%r3, %t3 = cuda_tile.atomic_rmw_tko acq_rel device %pf, xchg, %w : !cuda_tile.tile<2x!cuda_tile.ptr<f64>>, !cuda_tile.tile<2xf64> -> !cuda_tile.tile<2xf64>, !cuda_tile.token"#,
            r#"%r4, %t4 = cuda_tile.atomic_cas_tko acq_rel device %pf, %w, %w, %m : !cuda_tile.tile<2x!cuda_tile.ptr<f64>>, !cuda_tile.tile<2xf64>, !cuda_tile.tile<2xi1> -> !cuda_tile.tile<2xf64>, !cuda_tile.token"#,
            r#"%r5, %t5 = cuda_tile.atomic_cas_tko relaxed sys %p, %x, %x : !cuda_tile.tile<2x!cuda_tile.ptr<i32>>, !cuda_tile.tile<2xi32> -> !cuda_tile.tile<2xi32>, !cuda_tile.token"#,
        ],
    );
    assert_clean(&src);
}

/// `atomic_load_tko` and `atomic_store_tko` (spec-only ops) follow the load and store rules.
#[test]
fn atomic_load_store() {
    let src = func(
        r#"%p: !cuda_tile.tile<2x!cuda_tile.ptr<i32>>, %x: !cuda_tile.tile<2xi32>, %m: !cuda_tile.tile<4xi1>"#,
        &[
            r#"%r0, %t0 = cuda_tile.atomic_load_tko relaxed device %p : !cuda_tile.tile<2x!cuda_tile.ptr<i32>> -> !cuda_tile.tile<2xf32>, !cuda_tile.token"#,
            r#"%r1, %t1 = cuda_tile.atomic_load_tko relaxed device %p : !cuda_tile.tile<2x!cuda_tile.ptr<i32>> -> !cuda_tile.tile<4xi32>, !cuda_tile.token"#,
            r#"%r2, %t2 = cuda_tile.atomic_load_tko release device %p : !cuda_tile.tile<2x!cuda_tile.ptr<i32>> -> !cuda_tile.tile<2xi32>, !cuda_tile.token"#,
            r#"%t3 = cuda_tile.atomic_store_tko weak device %p, %x : !cuda_tile.tile<2x!cuda_tile.ptr<i32>>, !cuda_tile.tile<2xi32> -> !cuda_tile.token"#,
            r#"%t4 = cuda_tile.atomic_store_tko relaxed device %p, %x, %m : !cuda_tile.tile<2x!cuda_tile.ptr<i32>>, !cuda_tile.tile<2xi32>, !cuda_tile.tile<4xi1> -> !cuda_tile.token"#,
            r#"%t5 = cuda_tile.atomic_store_tko acquire device %p, %x : !cuda_tile.tile<2x!cuda_tile.ptr<i32>>, !cuda_tile.tile<2xi32> -> !cuda_tile.token"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        [
            "error 3:16: 'cuda_tile.atomic_load_tko' op pointer pointee element type must match value element type",
            "error 4:16: 'cuda_tile.atomic_load_tko' op pointer tile shape must match value shape",
            "error 5:16: 'cuda_tile.atomic_load_tko' op load ordering must be weak, relaxed, or acquire",
            "error 6:11: 'cuda_tile.atomic_store_tko' op weak memory ordering must not carry a scope",
            "error 7:11: 'cuda_tile.atomic_store_tko' op mask shape must match value shape",
            "error 8:11: 'cuda_tile.atomic_store_tko' op store ordering must be weak, relaxed, or release",
        ]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:16: 'cuda_tile.atomic_load_tko' op expected pointee type ('i32') to match element type of 'result' ('f32')",
            "error 4:16: 'cuda_tile.atomic_load_tko' op failed to verify that `ptr` type is expected a pointer type of `result` type",
            "error 5:16: 'cuda_tile.atomic_load_tko' op expect one of: weak, relaxed, or acquire, but got: release",
            "error 6:11: 'cuda_tile.atomic_store_tko' op weak store must not have memory scope",
            "error 7:11: 'cuda_tile.atomic_store_tko' op failed to verify that shape of 'ptr' must match the shape of 'mask'",
            "error 8:11: 'cuda_tile.atomic_store_tko' op expect one of: weak, relaxed, or release, but got: acquire",
        ]
    );
}

/// Legal atomic loads and stores.
#[test]
fn atomic_load_store_valid() {
    let src = func(
        r#"%p: !cuda_tile.tile<2x!cuda_tile.ptr<i32>>, %x: !cuda_tile.tile<2xi32>, %m: !cuda_tile.tile<2xi1>"#,
        &[
            r#"%r0, %t0 = cuda_tile.atomic_load_tko acquire device %p, %m : !cuda_tile.tile<2x!cuda_tile.ptr<i32>>, !cuda_tile.tile<2xi1> -> !cuda_tile.tile<2xi32>, !cuda_tile.token"#,
            r#"%t1 = cuda_tile.atomic_store_tko release sys %p, %x token=%t0 : !cuda_tile.tile<2x!cuda_tile.ptr<i32>>, !cuda_tile.tile<2xi32> -> !cuda_tile.token"#,
            r#"%r2, %t2 = cuda_tile.atomic_load_tko relaxed tl_blk %p : !cuda_tile.tile<2x!cuda_tile.ptr<i32>> -> !cuda_tile.tile<2xi32>, !cuda_tile.token"#,
        ],
    );
    assert_clean(&src);
}

/// Compare-and-swap's mask has the shape of its pointers and values; NVIDIA's tool checks
/// it after the element type, in its own words.
#[test]
fn cas_mask_shape() {
    let src = func(
        r#"%p: !cuda_tile.tile<2x!cuda_tile.ptr<i32>>, %x: !cuda_tile.tile<2xi32>, %m: !cuda_tile.tile<4xi1>, %n: !cuda_tile.tile<2xi1>"#,
        &[
            r#"%r, %t = cuda_tile.atomic_cas_tko relaxed device %p, %x, %x, %m : !cuda_tile.tile<2x!cuda_tile.ptr<i32>>, !cuda_tile.tile<2xi32>, !cuda_tile.tile<4xi1> -> !cuda_tile.tile<2xi32>, !cuda_tile.token"#,
            r#"%s, %u = cuda_tile.atomic_cas_tko relaxed device %p, %x, %x, %n : !cuda_tile.tile<2x!cuda_tile.ptr<i32>>, !cuda_tile.tile<2xi32>, !cuda_tile.tile<2xi1> -> !cuda_tile.tile<2xi32>, !cuda_tile.token"#,
        ],
    );
    assert_eq!(
        verify_diags(&src, false),
        ["error 3:14: 'cuda_tile.atomic_cas_tko' op mask shape must match value shape"]
    );
    assert_eq!(
        verify_diags(&src, true),
        [
            "error 3:14: 'cuda_tile.atomic_cas_tko' op failed to verify that all of {pointers, val, cmp and mask} have same shape"
        ]
    );
}

#[test]
fn alloca_rules() {
    let f = |line: &str| {
        format!("cuda_tile.module @m {{\n  entry @k() {{\n    {line}\n    return\n  }}\n}}\n")
    };
    tilec_tests::assert_clean(&f(
        "%0 = alloca num_elem = 64, alignment = 16 global : tile<ptr<f32>>",
    ));
    tilec_tests::assert_clean(&f(
        "%0 = alloca num_elem = 0, alignment = 1 : tile<ptr<i8>>",
    ));
    let both = |line: &str, msg: &str| {
        let want = format!("error 3:10: 'cuda_tile.alloca' op {msg}");
        tilec_tests::assert_both(&f(line), &[&want]);
    };
    both(
        "%0 = alloca num_elem = 32, alignment = -10 : tile<ptr<f32>>",
        "attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 0",
    );
    both(
        "%0 = alloca num_elem = -1, alignment = 8 : tile<ptr<f32>>",
        "attribute 'num_elem' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 0",
    );
    for align in [0, 3, 24] {
        both(
            &format!("%0 = alloca num_elem = 64, alignment = {align} : tile<ptr<f32>>"),
            "'alignment' must be power of two",
        );
    }
    both(
        "%0 = alloca num_elem = 64, alignment = 2 : tile<ptr<f32>>",
        "'alignment' (2) must be at least the natural size (4 bytes) for element type 'f32'",
    );
    both(
        "%0 = alloca num_elem = 64, alignment = 4 : tile<ptr<i64>>",
        "'alignment' (4) must be at least the natural size (8 bytes) for element type 'i64'",
    );
}

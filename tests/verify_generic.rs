//! Generic (op-table) and structural verifier diagnostics: each produced exactly, in both
//! personalities where the spec has no wording of its own, and valid near-misses that
//! verify clean.

use tilec_tests::{
    assert_both as both, assert_clean as clean, test_func as func, verify_both, verify_diags,
    verify_diags_with,
};

/// Asserts the diagnostics of the cuda-tile-opt personality (where the spec mode reports a
/// domain diagnostic of its own instead, tested with the family).
fn compat(src: &str, want: &[&str]) {
    assert_eq!(verify_diags(src, true), want, "cuda-tile-opt mode");
    assert!(
        !verify_diags(src, false).is_empty(),
        "default mode accepts:\n{src}"
    );
}

#[test]
fn operand_type_constraint() {
    both(
        "%a = cuda_tile.constant <i32: 1> : !cuda_tile.tile<i32>\n%0 = cuda_tile.exp %a : !cuda_tile.tile<i32>\n",
        &[
            "error 2:6: 'cuda_tile.exp' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'",
        ],
    );
    clean(
        "%a = cuda_tile.constant <f32: 1.0> : !cuda_tile.tile<f32>\n%0 = cuda_tile.exp %a : !cuda_tile.tile<f32>\n",
    );
}

#[test]
fn result_type_constraint() {
    both(
        "%x, %y, %z = cuda_tile.get_tile_block_id : !cuda_tile.tile<i64>\n",
        &[
            "error 1:14: 'cuda_tile.get_tile_block_id' op result #0 must be 0D tile of i32 values, but got '!cuda_tile.tile<i64>'",
        ],
    );
    clean("%x, %y, %z = cuda_tile.get_tile_block_id : !cuda_tile.tile<i32>\n");
}

#[test]
fn operand_result_and_region_counts() {
    both(
        "%a = cuda_tile.constant <i32: 1> : !cuda_tile.tile<i32>\n%0 = \"cuda_tile.addi\"(%a) : (!cuda_tile.tile<i32>) -> !cuda_tile.tile<i32>\n",
        &["error 2:6: 'cuda_tile.addi' op expected 2 operands, but found 1"],
    );
    both(
        "%a = cuda_tile.constant <i32: 1> : !cuda_tile.tile<i32>\n%0:2 = \"cuda_tile.addi\"(%a, %a) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>)\n",
        &["error 2:8: 'cuda_tile.addi' op expected 1 results, but found 2"],
    );
    both(
        "%c = cuda_tile.constant <i1: true> : !cuda_tile.tile<i1>\n\"cuda_tile.if\"(%c) ({\n  cuda_tile.yield\n}) : (!cuda_tile.tile<i1>) -> ()\n",
        &["error 2:1: 'cuda_tile.if' op expected 2 regions, but found 1"],
    );
    // No region at all: the spec's wording in the default mode.
    let (spec, compat) = verify_both(
        "%c = cuda_tile.constant <i1: true> : !cuda_tile.tile<i1>\n\"cuda_tile.if\"(%c) : (!cuda_tile.tile<i1>) -> ()\n",
    );
    assert_eq!(
        spec,
        ["error 2:1: 'cuda_tile.if' op if requires a then-region"]
    );
    assert_eq!(
        compat,
        ["error 2:1: 'cuda_tile.if' op expected 2 regions, but found 0"]
    );
    clean(
        "%a = cuda_tile.constant <i32: 1> : !cuda_tile.tile<i32>\n%0 = \"cuda_tile.addi\"(%a, %a) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> !cuda_tile.tile<i32>\n",
    );
}

#[test]
fn required_attribute() {
    both(
        "%0 = \"cuda_tile.constant\"() : () -> !cuda_tile.tile<i32>\n",
        &["error 1:6: 'cuda_tile.constant' op requires attribute 'value'"],
    );
}

#[test]
fn attribute_constraint() {
    let src = func(
        "%a: !cuda_tile.tile<8xf32>",
        "    %0 = cuda_tile.reduce %a dim=-1 identities=[0.000000e+0 : f32] : !cuda_tile.tile<8xf32> -> !cuda_tile.tile<f32>\n    (%x : !cuda_tile.tile<f32>, %y : !cuda_tile.tile<f32>) {\n      cuda_tile.yield %x : !cuda_tile.tile<f32>\n    }",
    );
    // The spec words a negative dimension as out of range.
    assert_eq!(
        verify_diags(&src, false),
        ["error 3:10: 'cuda_tile.reduce' op reduction dimension is out of range"]
    );
    let out = verify_diags(&src, true);
    assert_eq!(
        out,
        [
            "error 3:10: 'cuda_tile.reduce' op attribute 'dim' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative"
        ]
    );
}

#[test]
fn same_type_predicates() {
    compat(
        &func(
            "%a: !cuda_tile.tile<2x2xf32>, %b: !cuda_tile.tile<2x2xf64>",
            "    %0 = cuda_tile.cat %a, %b dim = 1 : !cuda_tile.tile<2x2xf32>, !cuda_tile.tile<2x2xf64> -> !cuda_tile.tile<2x4xf32>",
        ),
        &[
            "error 3:10: 'cuda_tile.cat' op failed to verify that all of {lhs, rhs, result} have the same element type",
        ],
    );
    compat(
        &func(
            "%a: !cuda_tile.tile<2xf32>",
            "    %0 = cuda_tile.broadcast %a : !cuda_tile.tile<2xf32> -> !cuda_tile.tile<2x2xf32>",
        ),
        &[
            "error 3:10: 'cuda_tile.broadcast' op failed to verify that all of {source, result} have same rank",
        ],
    );
    compat(
        &func(
            "%c: !cuda_tile.tile<i1>, %a: !cuda_tile.tile<4xi32>",
            "    %0 = cuda_tile.select %c, %a, %a : !cuda_tile.tile<i1>, !cuda_tile.tile<4xi32>",
        ),
        &[
            "error 3:10: 'cuda_tile.select' op failed to verify that all of {cond, val_if_true, val_if_false, result} have same shape",
        ],
    );
    compat(
        &func(
            "%p: !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, %o: !cuda_tile.tile<8xi32>",
            "    %0 = cuda_tile.offset %p, %o : !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, !cuda_tile.tile<8xi32> -> !cuda_tile.tile<8x!cuda_tile.ptr<f64>>",
        ),
        &[
            "error 3:10: 'cuda_tile.offset' op failed to verify that all of {result, ptr} have same type",
        ],
    );
    clean(&func(
        "%p: !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, %o: !cuda_tile.tile<8xi32>",
        "    %0 = cuda_tile.offset %p, %o : !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, !cuda_tile.tile<8xi32> -> !cuda_tile.tile<8x!cuda_tile.ptr<f32>>",
    ));
}

#[test]
fn same_operand_and_result_traits() {
    compat(
        &func(
            "%a: !cuda_tile.tile<1xf32>",
            "    %0 = cuda_tile.reshape %a : !cuda_tile.tile<1xf32> -> !cuda_tile.tile<i32>",
        ),
        &[
            "error 3:10: 'cuda_tile.reshape' op requires the same element type for all operands and results",
        ],
    );
    compat(
        &func(
            "%p: !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, %o: !cuda_tile.tile<i32>",
            "    %0 = cuda_tile.offset %p, %o : !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, !cuda_tile.tile<i32> -> !cuda_tile.tile<8x!cuda_tile.ptr<f32>>",
        ),
        &["error 3:10: 'cuda_tile.offset' op requires the same shape for all operands and results"],
    );
    compat(
        &func(
            "%a: !cuda_tile.tile<8xf32>, %b: !cuda_tile.tile<16xi32>",
            "    %0:2 = cuda_tile.reduce %a, %b dim=0 identities=[0.000000e+0 : f32, 0 : i32] : !cuda_tile.tile<8xf32>, !cuda_tile.tile<16xi32> -> !cuda_tile.tile<f32>, !cuda_tile.tile<i32>\n    (%x : !cuda_tile.tile<f32>, %y : !cuda_tile.tile<f32>, %z : !cuda_tile.tile<i32>, %w : !cuda_tile.tile<i32>) {\n      cuda_tile.yield %x, %z : !cuda_tile.tile<f32>, !cuda_tile.tile<i32>\n    }",
        ),
        &["error 3:12: 'cuda_tile.reduce' op requires the same shape for all operands"],
    );
}

#[test]
fn region_structure() {
    both(
        "%c = cuda_tile.constant <i1: true> : !cuda_tile.tile<i1>\n\"cuda_tile.if\"(%c) ({\n  %a = cuda_tile.constant <i32: 1> : !cuda_tile.tile<i32>\n}, {\n}) : (!cuda_tile.tile<i1>) -> ()\n",
        &[
            "error 2:1: 'cuda_tile.if' op expects regions to end with 'cuda_tile.yield', found 'cuda_tile.constant'",
            "note 2:1: in custom textual format, the absence of terminator implies 'cuda_tile.yield'",
        ],
    );
    let (spec, compat) = verify_both(
        "%c = cuda_tile.constant <i1: true> : !cuda_tile.tile<i1>\n\"cuda_tile.if\"(%c) ({\n^bb0:\n}, {\n}) : (!cuda_tile.tile<i1>) -> ()\n",
    );
    assert_eq!(
        spec,
        ["error 2:1: 'cuda_tile.if' op expect non-empty block"]
    );
    assert_eq!(
        compat,
        ["error 2:1: empty block: expect at least a terminator"]
    );
    both(
        "cuda_tile.module @m {\n  \"cuda_tile.testing$func\"() ({ }) {function_type = () -> (), sym_name = \"foo\"} : () -> ()\n}\n",
        &[
            "error 2:3: 'cuda_tile.testing$func' op region #0 ('body') failed to verify constraint: region with 1 blocks",
        ],
    );
    both(
        "%c = cuda_tile.constant <i1: true> : !cuda_tile.tile<i1>\ncuda_tile.if %c {\n  cuda_tile.yield\n  cuda_tile.print \"x\"\n}\n",
        &["error 3:3: 'cuda_tile.yield' op must be the last operation in the parent block"],
    );
}

#[test]
fn dominance_and_isolation() {
    both(
        "%a = cuda_tile.constant <i32: 1> : !cuda_tile.tile<i32>\n%b = cuda_tile.addi %a, %c : !cuda_tile.tile<i32>\n%c = cuda_tile.constant <i32: 2> : !cuda_tile.tile<i32>\n",
        &[
            "error 2:6: 'cuda_tile.addi' op operand #1 does not dominate this use",
            "note 3:6: operand defined here",
        ],
    );
    both(
        "%v = cuda_tile.constant <i32: 1> : !cuda_tile.tile<i32>\ncuda_tile.module @m {\n  cuda_tile.entry @k() {\n    %b = cuda_tile.addi %v, %v : !cuda_tile.tile<i32>\n  }\n}\n",
        &[
            "error 4:10: 'cuda_tile.addi' op using value defined outside the region",
            "note 3:3: required by region isolation constraints",
        ],
    );
    clean(
        "%c = cuda_tile.constant <i1: true> : !cuda_tile.tile<i1>\n%v = cuda_tile.constant <i32: 1> : !cuda_tile.tile<i32>\ncuda_tile.if %c {\n  %b = cuda_tile.addi %v, %v : !cuda_tile.tile<i32>\n}\n",
    );
}

#[test]
fn parents() {
    both(
        "cuda_tile.module @m {\n  cuda_tile.entry @k() {\n    cuda_tile.global @g <f32: [1.0, 2.0]> : !cuda_tile.tile<2xf32>\n  }\n}\n",
        &["error 3:5: 'cuda_tile.global' op expects parent op to be one of 'cuda_tile.module'"],
    );
    clean(
        "cuda_tile.module @m {\n  cuda_tile.global @g <f32: [1.0, 2.0]> : !cuda_tile.tile<2xf32>\n}\n",
    );
    clean("cuda_tile.global @g <f32: [1.0, 2.0]> : !cuda_tile.tile<2xf32>\n");
}

#[test]
fn one_run_reports_every_broken_op() {
    let src = "%a = cuda_tile.constant <i32: 1> : !cuda_tile.tile<i32>\n%0 = cuda_tile.exp %a : !cuda_tile.tile<i32>\n%1 = cuda_tile.log %a : !cuda_tile.tile<i32>\n";
    assert_eq!(verify_diags(src, false).len(), 2);
}

#[test]
fn optimization_hints() {
    use tilec_verify::{HintChecks, Personality, VerifyOptions};
    // Spec mode: each problem is an error. cuda-tile-opt (13.3): none by default; with
    // -Wunsupported-hints a warning in NVIDIA's words; with -Werr-hints too, the warning
    // and then an error.
    let check = |src: &str, at: &str, op: &str, spec_msg: &str, nvidia_msg: &str| {
        let (spec, compat) = verify_both(src);
        assert_eq!(spec, [format!("error {at}: '{op}' op {spec_msg}")], "{src}");
        assert!(compat.is_empty(), "{src}: {compat:?}");
        let nvidia = |hints| {
            verify_diags_with(
                src,
                &VerifyOptions {
                    personality: Personality::CudaTileOpt,
                    hints,
                    ..Default::default()
                },
            )
        };
        let warning = format!("warning {at}: '{op}' op {nvidia_msg}");
        assert_eq!(
            nvidia(HintChecks::Warn),
            std::slice::from_ref(&warning),
            "{src}"
        );
        assert_eq!(
            nvidia(HintChecks::WarnError),
            [
                warning,
                format!("error {at}: '{op}' op Optimization hints verification failed")
            ],
            "{src}"
        );
    };
    let entry = |hints: &str| {
        format!(
            "cuda_tile.module @m {{\n  cuda_tile.entry @k() optimization_hints=<{hints}> {{\n  }}\n}}\n"
        )
    };
    let cases = [
        (
            "sm_75 = {num_cta_in_cga = 2}",
            "unallowed key sm_75",
            "unknown hint key sm_75",
        ),
        (
            "sm_90 = {latency = 2}",
            "latency is not allowed for current Operation",
            "latency is not known hint for current Operation",
        ),
        (
            "sm_90 = {num_cta_in_cga = 3}",
            "expected power-of-two ≤ 16 for sm_90.num_cta_in_cga",
            "expected power-of-two ≤ 16 for sm_90.num_cta_in_cga",
        ),
        (
            "sm_100 = {num_cta_in_cga = 32}",
            "expected power-of-two ≤ 16 for sm_100.num_cta_in_cga",
            "expected power-of-two ≤ 16 for sm_100.num_cta_in_cga",
        ),
        (
            "sm_90 = {num_cta_in_cga = \"two\"}",
            "integer value expected for sm_90.num_cta_in_cga",
            "integer value expected for sm_90.num_cta_in_cga",
        ),
        (
            "sm_90 = {occupancy = 33}",
            "integer value in the range [1, 32] is expected for sm_90.occupancy",
            "integer value in the range [1, 32] is expected for sm_90.occupancy",
        ),
        (
            "sm_100 = {num_worker_warps_per_cta = 9}",
            "expected power-of-two ≤ 32 for sm_100.num_worker_warps_per_cta",
            "expected power-of-two ≤ 32 for sm_100.num_worker_warps_per_cta",
        ),
        (
            "sm_100 = {num_worker_warps_per_cta = 64}",
            "expected power-of-two ≤ 32 for sm_100.num_worker_warps_per_cta",
            "expected power-of-two ≤ 32 for sm_100.num_worker_warps_per_cta",
        ),
    ];
    for (hints, spec_msg, nvidia_msg) in cases {
        check(
            &entry(hints),
            "2:3",
            "cuda_tile.entry",
            spec_msg,
            nvidia_msg,
        );
    }
    clean(&entry(
        "sm_90 = {num_cta_in_cga = 2, occupancy = 4}, sm_89 = {num_worker_warps_per_cta = 8}, sm_120 = {num_cta_in_cga = 16}",
    ));

    let load = |hints: &str| {
        func(
            "%v: !cuda_tile.partition_view<tile=(8), tensor_view<64xf32, strides=[1]>>, %i: !cuda_tile.tile<i32>",
            &format!(
                "    %t, %tok = load_view_tko weak %v[%i] optimization_hints = <{hints}> : partition_view<tile=(8), tensor_view<64xf32, strides=[1]>>, tile<i32> -> tile<8xf32>, token"
            ),
        )
    };
    let cases = [
        (
            "sm_90 = {latency = 11}",
            "integer value in the range [1, 10] is expected for sm_90.latency",
            "integer value in the range [1, 10] is expected for sm_90.latency",
        ),
        (
            "sm_90 = {latency = true}",
            "integer value expected for sm_90.latency",
            "integer value expected for sm_90.latency",
        ),
        (
            "sm_90 = {allow_tma = 1}",
            "boolean value expected for sm_90.allow_tma",
            "boolean value expected for sm_90.allow_tma",
        ),
        (
            "sm_90 = {occupancy = 2}",
            "occupancy is not allowed for current Operation",
            "occupancy is not known hint for current Operation",
        ),
    ];
    for (hints, spec_msg, nvidia_msg) in cases {
        check(
            &load(hints),
            "3:16",
            "cuda_tile.load_view_tko",
            spec_msg,
            nvidia_msg,
        );
    }
    clean(&load("sm_90 = {latency = 3, allow_tma = false}"));
    // An unknown hint on an op tilec does not restrict.
    let unknown = "cuda_tile.module @m {\n  testing$func @f() optimization_hints=<sm_90 = {speed = 1}> {\n  }\n}\n";
    let (spec, _) = verify_both(unknown);
    assert_eq!(
        spec,
        ["error 2:3: 'cuda_tile.testing$func' op unknown param speed for sm_90"]
    );
}

/// An attribute of the wrong kind (the generic form lets one through the parser) is
/// refused by the verifier before anything reads it.
#[test]
fn attribute_of_the_wrong_kind() {
    let src = "cuda_tile.module @m {\n  testing$func @f(%x: !cuda_tile.tile<2x4xf32>) {\n    %r = \"cuda_tile.permute\"(%x) <{permutation = array<i64: 1, 0>}> : (!cuda_tile.tile<2x4xf32>) -> !cuda_tile.tile<4x2xf32>\n  }\n}\n";
    let want = [
        "error 3:10: 'cuda_tile.permute' op attribute 'permutation' failed to satisfy constraint: i32 dense array attribute",
    ];
    assert_eq!(tilec_tests::verify_diags(src, false), want);
    assert_eq!(tilec_tests::verify_diags(src, true), want);
}

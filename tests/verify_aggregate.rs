//! Verifier diagnostics of the aggregate family: every catalog entry produced exactly, in both
//! personalities, and valid near-misses that verify clean.

use tilec_tests::{assert_both as both, assert_clean as clean, assert_modes as check};

/// A test function over `%x: 4x8xi32`, `%y: 4x8xf32`, `%c: i1` and a token `%k`, with
/// `body`.
fn func(body: &str) -> String {
    format!(
        "cuda_tile.module @m {{\n  testing$func @f(%x: !cuda_tile.tile<4x8xi32>, %y: !cuda_tile.tile<4x8xf32>, %c: !cuda_tile.tile<i1>, %k: !cuda_tile.token) {{\n{body}\n  }}\n}}\n"
    )
}

/// A `reduce` of `%x` along `dim`, with a body (arguments and ops).
fn reduce(dim: &str, ids: &str, result: &str, args: &str, ops: &str) -> String {
    func(&format!(
        "    %r = cuda_tile.reduce %x dim={dim} identities=[{ids}] : !cuda_tile.tile<4x8xi32> -> {result}\n    ({args}) {{\n{ops}\n    }}"
    ))
}

const ARGS: &str = "%a : !cuda_tile.tile<i32>, %b : !cuda_tile.tile<i32>";
const SUM: &str = "      %s = cuda_tile.addi %a, %b : !cuda_tile.tile<i32>\n      cuda_tile.yield %s : !cuda_tile.tile<i32>";
const R4: &str = "!cuda_tile.tile<4xi32>";

#[test]
fn valid_reduce_and_scan() {
    clean(&reduce("1", "0 : i32", R4, ARGS, SUM));
    clean(&reduce("0", "0 : i32", "!cuda_tile.tile<8xi32>", ARGS, SUM));
    clean(&func(
        "    %r:2 = cuda_tile.scan %x, %y dim=1 reverse=true identities=[0 : i32, 1.000000e+00 : f32] : !cuda_tile.tile<4x8xi32>, !cuda_tile.tile<4x8xf32> -> !cuda_tile.tile<4x8xi32>, !cuda_tile.tile<4x8xf32>\n    (%a : !cuda_tile.tile<i32>, %b : !cuda_tile.tile<i32>, %p : !cuda_tile.tile<f32>, %q : !cuda_tile.tile<f32>) {\n      %s = cuda_tile.addi %a, %b : !cuda_tile.tile<i32>\n      %t = cuda_tile.mulf %p, %q rounding<nearest_even> : !cuda_tile.tile<f32>\n      cuda_tile.yield %s, %t : !cuda_tile.tile<i32>, !cuda_tile.tile<f32>\n    }",
    ));
    // An f16 identity is accepted for bf16 inputs.
    clean(
        "cuda_tile.module @m {\n  testing$func @f(%x: !cuda_tile.tile<8xbf16>) {\n    %r = cuda_tile.reduce %x dim=0 identities=[0.000000e+00 : f16] : !cuda_tile.tile<8xbf16> -> !cuda_tile.tile<bf16>\n    (%a : !cuda_tile.tile<bf16>, %b : !cuda_tile.tile<bf16>) {\n      %s = cuda_tile.maxf %a, %b : !cuda_tile.tile<bf16>\n      cuda_tile.yield %s : !cuda_tile.tile<bf16>\n    }\n  }\n}\n",
    );
}

#[test]
fn no_input() {
    check(
        "\"cuda_tile.reduce\"() <{dim = 0 : i32, identities = []}> ({\n^bb0:\n  cuda_tile.yield\n}) : () -> ()\n",
        &["error 1:1: 'cuda_tile.reduce' op reduce/scan requires at least one input"],
        &["error 1:1: 'cuda_tile.reduce' op expect at least 1 operand"],
    );
}

#[test]
fn result_count() {
    check(
        &func(
            "    %r:2 = cuda_tile.reduce %x dim=1 identities=[0 : i32] : !cuda_tile.tile<4x8xi32> -> !cuda_tile.tile<4xi32>, !cuda_tile.tile<4xi32>\n    (%a : !cuda_tile.tile<i32>, %b : !cuda_tile.tile<i32>) {\n      cuda_tile.yield %a : !cuda_tile.tile<i32>\n    }",
        ),
        &["error 3:12: 'cuda_tile.reduce' op reduce/scan must produce one result per input"],
        &["error 3:12: 'cuda_tile.reduce' op expect same number of operands and results"],
    );
}

#[test]
fn identity_count() {
    both(
        &reduce("1", "0 : i32, 0 : i32", R4, ARGS, SUM),
        &[
            "error 3:10: 'cuda_tile.reduce' op expect identities to match the number of operands but got: 1 operands and 2 identities",
        ],
    );
}

#[test]
fn identity_type() {
    check(
        &reduce("1", "0 : i64", R4, ARGS, SUM),
        &["error 3:10: 'cuda_tile.reduce' op identity element type must match input element type"],
        &[
            "error 3:10: 'cuda_tile.reduce' op expect same type for operand at index: 0 and identity at index: 0 but got: 'i32' and 'i64'",
        ],
    );
}

#[test]
fn dimension_out_of_range() {
    check(
        &reduce("2", "0 : i32", R4, ARGS, SUM),
        &["error 3:10: 'cuda_tile.reduce' op reduction dimension is out of range"],
        &["error 3:10: 'cuda_tile.reduce' op dimension (2) is out of bound [0, 2)"],
    );
    // NVIDIA checks the identities first; the spec the dimension.
    check(
        &reduce("2", "0 : i64", R4, ARGS, SUM),
        &["error 3:10: 'cuda_tile.reduce' op reduction dimension is out of range"],
        &[
            "error 3:10: 'cuda_tile.reduce' op expect same type for operand at index: 0 and identity at index: 0 but got: 'i32' and 'i64'",
        ],
    );
}

#[test]
fn scan_result_type() {
    both(
        &func(
            "    %r = cuda_tile.scan %x dim=0 reverse=false identities=[0 : i32] : !cuda_tile.tile<4x8xi32> -> !cuda_tile.tile<4x8xi64>\n    (%a : !cuda_tile.tile<i32>, %b : !cuda_tile.tile<i32>) {\n      cuda_tile.yield %a : !cuda_tile.tile<i32>\n    }",
        ),
        &[
            "error 3:10: 'cuda_tile.scan' op expect same type for operand at index: 0 and result at index: 0",
        ],
    );
}

#[test]
fn reduce_result_type() {
    both(
        &reduce("1", "0 : i32", "!cuda_tile.tile<8xi32>", ARGS, SUM),
        &[
            "error 3:10: 'cuda_tile.reduce' op inferred type(s) '!cuda_tile.tile<4xi32>' are incompatible with return type(s) of operation '!cuda_tile.tile<8xi32>'",
            "error 3:10: 'cuda_tile.reduce' op failed to infer returned types",
        ],
    );
}

#[test]
fn body_argument_count() {
    check(
        &reduce(
            "1",
            "0 : i32",
            R4,
            "%a : !cuda_tile.tile<i32>",
            "      cuda_tile.yield %a : !cuda_tile.tile<i32>",
        ),
        &[
            "error 3:10: 'cuda_tile.reduce' op reduce/scan body must take two rank-zero arguments per input",
        ],
        &["error 3:10: 'cuda_tile.reduce' op expect 2 block arguments but got: 1"],
    );
}

#[test]
fn body_argument_not_a_tile() {
    check(
        &reduce(
            "1",
            "0 : i32",
            R4,
            "%a : !cuda_tile.tile<i32>, %b : i32",
            "      cuda_tile.yield %a : !cuda_tile.tile<i32>",
        ),
        &[
            "error 3:10: 'cuda_tile.reduce' op expected TileType for block arguments but got types: '!cuda_tile.tile<i32>', 'i32'",
        ],
        &["error 3:10: 'cuda_tile.reduce' op expect 0-rank tile type at index: 1 but got: 'i32'"],
    );
}

#[test]
fn body_argument_rank() {
    check(
        &reduce(
            "1",
            "0 : i32",
            R4,
            "%a : !cuda_tile.tile<i32>, %b : !cuda_tile.tile<2xi32>",
            "      cuda_tile.yield %a : !cuda_tile.tile<i32>",
        ),
        &["error 3:10: 'cuda_tile.reduce' op expect 0-rank tile type at index: 1"],
        &[
            "error 3:10: 'cuda_tile.reduce' op expect 0-rank tile type at index: 1 but got: '!cuda_tile.tile<2xi32>'",
        ],
    );
}

#[test]
fn body_argument_pair() {
    both(
        &reduce(
            "1",
            "0 : i32",
            R4,
            "%a : !cuda_tile.tile<i32>, %b : !cuda_tile.tile<i16>",
            "      cuda_tile.yield %a : !cuda_tile.tile<i32>",
        ),
        &[
            "error 3:10: 'cuda_tile.reduce' op expect same element type for block argument at index: 0 and 1 but got: 'i32' and 'i16'",
        ],
    );
}

#[test]
fn body_argument_type() {
    both(
        &reduce(
            "1",
            "0 : i32",
            R4,
            "%a : !cuda_tile.tile<f32>, %b : !cuda_tile.tile<f32>",
            "      cuda_tile.yield %a : !cuda_tile.tile<f32>",
        ),
        &[
            "error 3:10: 'cuda_tile.reduce' op expect same type for operand at index: 0 and block argument at index: 0 but got: 'i32' and 'f32'",
        ],
    );
}

#[test]
fn impure_op() {
    // The spec and NVIDIA's 13.1 report it at the reduce, with a remark at the op;
    // NVIDIA's 13.3 at the op itself.
    let src = reduce(
        "1",
        "0 : i32",
        R4,
        ARGS,
        "      cuda_tile.print \"%d\", %a : !cuda_tile.tile<i32>\n      cuda_tile.yield %a : !cuda_tile.tile<i32>",
    );
    let old = [
        "error 3:10: 'cuda_tile.reduce' op only pure operations allowed",
        "remark 5:7: invalid op: cuda_tile.print",
    ];
    check(
        &src,
        &old,
        &[
            "error 5:7: 'cuda_tile.print' op only pure operations are allowed inside 'cuda_tile.reduce'",
        ],
    );
    let release_13_1 = tilec_verify::VerifyOptions {
        personality: tilec_verify::Personality::CudaTileOpt,
        release_minor: Some(1),
        ..Default::default()
    };
    assert_eq!(tilec_tests::verify_diags_with(&src, &release_13_1), old);
    // Nested regions are walked first.
    check(
        &reduce(
            "1",
            "0 : i32",
            R4,
            ARGS,
            "      cuda_tile.if %c {\n        cuda_tile.assert %c, \"no\" : !cuda_tile.tile<i1>\n      }\n      cuda_tile.yield %a : !cuda_tile.tile<i32>",
        ),
        &[
            "error 3:10: 'cuda_tile.reduce' op only pure operations allowed",
            "remark 6:9: invalid op: cuda_tile.assert",
        ],
        &[
            "error 6:9: 'cuda_tile.assert' op only pure operations are allowed inside 'cuda_tile.reduce'",
        ],
    );
}

#[test]
fn invalid_op() {
    check(
        &reduce(
            "1",
            "0 : i32",
            R4,
            ARGS,
            "      cuda_tile.if %c {\n        cuda_tile.yield\n      }\n      cuda_tile.yield %a : !cuda_tile.tile<i32>",
        ),
        &[
            "error 3:10: 'cuda_tile.reduce' op invalid op: cuda_tile.if",
            "remark 5:7: invalid op: cuda_tile.if",
        ],
        &[
            "error 3:10: 'cuda_tile.reduce' op only pure operations allowed",
            "remark 5:7: invalid op: cuda_tile.if",
        ],
    );
    check(
        &reduce(
            "1",
            "0 : i32",
            R4,
            ARGS,
            "      %q = cuda_tile.divi %a, %b signed : !cuda_tile.tile<i32>\n      cuda_tile.yield %q : !cuda_tile.tile<i32>",
        ),
        &[
            "error 3:10: 'cuda_tile.reduce' op invalid op: cuda_tile.divi",
            "remark 5:12: invalid op: cuda_tile.divi",
        ],
        &[
            "error 3:10: 'cuda_tile.reduce' op only pure operations allowed",
            "remark 5:12: invalid op: cuda_tile.divi",
        ],
    );
}

#[test]
fn yield_count() {
    check(
        &reduce(
            "1",
            "0 : i32",
            R4,
            ARGS,
            "      cuda_tile.yield %a, %b : !cuda_tile.tile<i32>, !cuda_tile.tile<i32>",
        ),
        &[
            "error 3:10: 'cuda_tile.reduce' op expect number of terminators operands (2) to match expected (1)",
        ],
        &[
            "error 3:10: 'cuda_tile.reduce' op expect number of terminators operands (2) to match number of operands (1)",
        ],
    );
    // NVIDIA checks the yield before purity; the spec purity first.
    check(
        &reduce(
            "1",
            "0 : i32",
            R4,
            ARGS,
            "      cuda_tile.print \"x\"\n      cuda_tile.yield",
        ),
        &[
            "error 3:10: 'cuda_tile.reduce' op only pure operations allowed",
            "remark 5:7: invalid op: cuda_tile.print",
        ],
        &[
            "error 3:10: 'cuda_tile.reduce' op expect number of terminators operands (0) to match number of operands (1)",
        ],
    );
}

#[test]
fn yield_type() {
    check(
        &reduce(
            "1",
            "0 : i32",
            R4,
            ARGS,
            "      %t = cuda_tile.trunci %a : !cuda_tile.tile<i32> -> !cuda_tile.tile<i16>\n      cuda_tile.yield %t : !cuda_tile.tile<i16>",
        ),
        &[
            "error 3:10: 'cuda_tile.reduce' op expected TileType for operand and terminator types but got: '!cuda_tile.tile<i16>' vs '!cuda_tile.tile<i32>'",
        ],
        &[
            "error 3:10: 'cuda_tile.reduce' op expect same type for operand at index: 0 and terminator argument at index: 0 but got: 'i32' and 'i16'",
        ],
    );
}

#[test]
fn yield_not_a_tile() {
    check(
        &reduce(
            "1",
            "0 : i32",
            R4,
            ARGS,
            "      cuda_tile.yield %k : !cuda_tile.token",
        ),
        &[
            "error 3:10: 'cuda_tile.reduce' op expected TileType for operand and terminator types but got: '!cuda_tile.token' vs '!cuda_tile.tile<i32>'",
        ],
        &[
            "error 3:10: 'cuda_tile.reduce' op expected TileType for operand and terminator types but got: '!cuda_tile.tile<4x8xi32>' and '!cuda_tile.token'",
        ],
    );
}

#[test]
fn body_structure() {
    check(
        &reduce("1", "0 : i32", R4, ARGS, ""),
        &["error 3:10: 'cuda_tile.reduce' op expect non-empty block"],
        &["error 3:10: empty block: expect at least a terminator"],
    );
    both(
        &reduce(
            "1",
            "0 : i32",
            R4,
            ARGS,
            "      %s = cuda_tile.addi %a, %b : !cuda_tile.tile<i32>",
        ),
        &[
            "error 3:10: 'cuda_tile.reduce' op expects regions to end with 'cuda_tile.yield', found 'cuda_tile.addi'",
        ],
    );
    // Another terminator reports its own placement.
    check(
        &reduce("1", "0 : i32", R4, ARGS, "      cuda_tile.break"),
        &[
            "error 5:7: 'cuda_tile.break' op early-exit must be enclosed by a compatible loop or for",
        ],
        &[
            "error 5:7: 'cuda_tile.break' op expects parent op to be one of 'cuda_tile.if, cuda_tile.loop'",
        ],
    );
}

#[test]
fn body_ops_on_rank_zero_tiles() {
    // A spec rule that NVIDIA's tool does not check.
    check(
        &reduce(
            "1",
            "0 : i32",
            R4,
            ARGS,
            "      %t = cuda_tile.reshape %a : !cuda_tile.tile<i32> -> !cuda_tile.tile<1xi32>\n      cuda_tile.yield %a : !cuda_tile.tile<i32>",
        ),
        &[
            "error 5:12: 'cuda_tile.reduce' op reduce/scan body operation cuda_tile.reshape must use rank-zero tiles, but uses '!cuda_tile.tile<1xi32>'",
        ],
        &[],
    );
    clean(&reduce(
        "1",
        "0 : i32",
        R4,
        ARGS,
        "      %t = cuda_tile.reshape %a : !cuda_tile.tile<i32> -> !cuda_tile.tile<i32>\n      cuda_tile.yield %t : !cuda_tile.tile<i32>",
    ));
}

//! Verifier diagnostics of the assume family: every catalog entry produced exactly, in both
//! personalities, and valid near-misses that verify clean.

use tilec_tests::{assert_both as both, assert_clean as clean, assert_modes as modes};

/// `assume PRED, %a : TYPE` in a function taking `%a: TYPE`, at line 3 column 10.
fn assume(pred: &str, ty: &str) -> String {
    format!(
        "cuda_tile.module @m {{\n  testing$func @f(%a: {ty}) {{\n    %0 = cuda_tile.assume {pred}, %a : {ty}\n  }}\n}}\n"
    )
}

fn one(pred: &str, ty: &str, message: &str) {
    both(
        &assume(pred, ty),
        &[&format!("error 3:10: 'cuda_tile.assume' op {message}")],
    );
}

const I32: &str = "!cuda_tile.tile<16xi32>";
const PTR0: &str = "!cuda_tile.tile<!cuda_tile.ptr<f16>>";
const VIEW: &str = "!cuda_tile.tensor_view<64x64xf16, strides=[64,1]>";

#[test]
fn div_by_divisor() {
    for d in ["0", "7", "24"] {
        one(
            &format!("div_by<{d}>"),
            I32,
            "'cuda_tile.div_by' divisor must be a power of 2",
        );
    }
    one(
        "div_by<9223372036854775808>",
        "!cuda_tile.tile<i8>",
        "'cuda_tile.div_by' divisor is too large",
    );
    clean(&assume(
        "div_by<4611686018427387904>",
        "!cuda_tile.tile<i64>",
    ));
    clean(&assume("div_by<1>", I32));
    clean(&assume("#cuda_tile.div_by<16>", I32));
}

#[test]
fn div_by_types() {
    for ty in [
        "!cuda_tile.tile<f32>",
        "!cuda_tile.tile<4xf16>",
        "!cuda_tile.partition_view<tile=(16x16), tensor_view<64x64xf16, strides=[64,1]>>",
    ] {
        one(
            "div_by<16>",
            ty,
            "'cuda_tile.div_by' is valid only for tile of integer/pointer or tensor_view values",
        );
    }
    clean(&assume("div_by<16>", PTR0));
    clean(&assume("div_by<16>", VIEW));
    clean(&assume("div_by<16>", "!cuda_tile.tile<i1>"));
}

#[test]
fn div_by_every_along() {
    one(
        "div_by<1, every 8 along 0>",
        VIEW,
        "'cuda_tile.div_by' 'every'/'along' cannot be used if the constrained value is a tensor_view",
    );
    one(
        "div_by<1, every 8 along 0>",
        PTR0,
        "'cuda_tile.div_by' 'every'/'along' cannot be used if the constrained value is a 0D tile",
    );
    // The 0D check comes before the element type check.
    one(
        "div_by<1, every 8 along 0>",
        "!cuda_tile.tile<f32>",
        "'cuda_tile.div_by' 'every'/'along' cannot be used if the constrained value is a 0D tile",
    );
    one(
        "div_by<1, every 2 along 1>",
        I32,
        "'cuda_tile.div_by' every_dim (1) must be >= 0 and < tile rank (1)",
    );
    one(
        "div_by<1, every 2 along -1>",
        "!cuda_tile.tile<4x8xi32>",
        "'cuda_tile.div_by' every_dim (-1) must be >= 0 and < tile rank (2)",
    );
    one(
        "div_by<1, every 24 along 0>",
        I32,
        "expected 'cuda_tile.div_by' every_dim to be within 0 and the size of the respective dimension (16)",
    );
    one(
        "div_by<4, every -1 along 1>",
        "!cuda_tile.tile<4x8xi32>",
        "expected 'cuda_tile.div_by' every_dim to be within 0 and the size of the respective dimension (8)",
    );
    clean(&assume("div_by<4, every 16 along 0>", I32));
    clean(&assume(
        "div_by<4, every 0 along 1>",
        "!cuda_tile.tile<4x8x!cuda_tile.ptr<f32>>",
    ));
}

#[test]
fn same_elements() {
    for ty in ["!cuda_tile.tile<16xf32>", VIEW] {
        one(
            "same_elements<[8]>",
            ty,
            "'cuda_tile.same_elements' is valid only for tile of integer/pointer values",
        );
    }
    one(
        "same_elements<[8]>",
        PTR0,
        "expected number of values in 'cuda_tile.same_elements' (1) to match rank of constrained tile (0)",
    );
    one(
        "same_elements<[24]>",
        I32,
        "expected 'cuda_tile.same_elements' value 0 to be within 0 and the size of the respective dimension (16)",
    );
    one(
        "same_elements<[2, -1]>",
        "!cuda_tile.tile<4x8xi32>",
        "expected 'cuda_tile.same_elements' value 1 to be within 0 and the size of the respective dimension (8)",
    );
    clean(&assume("same_elements<[16]>", I32));
    clean(&assume(
        "same_elements<[4, 0]>",
        "!cuda_tile.tile<4x8x!cuda_tile.ptr<f32>>",
    ));
    clean(&assume("same_elements<[]>", PTR0));
}

#[test]
fn bounded() {
    for ty in ["!cuda_tile.tile<16xf32>", PTR0, VIEW] {
        one(
            "bounded<0, 0>",
            ty,
            "'cuda_tile.bounded' is valid only for tile of integer values",
        );
    }
    const I8: &str = "!cuda_tile.tile<16xi8>";
    one(
        "bounded<0, 128>",
        I8,
        "'cuda_tile.bounded' expects upper bound to be within [-128, 127]",
    );
    one(
        "bounded<-129, 6>",
        I8,
        "'cuda_tile.bounded' expects lower bound to be within [-128, 127]",
    );
    // The lower bound is checked first.
    one(
        "bounded<-129, 200>",
        I8,
        "'cuda_tile.bounded' expects lower bound to be within [-128, 127]",
    );
    one(
        "bounded<?, 1>",
        "!cuda_tile.tile<i1>",
        "'cuda_tile.bounded' expects upper bound to be within [-1, 0]",
    );
    one(
        "bounded<8, 6>",
        I8,
        "'cuda_tile.bounded' expects lower bound to be less than or equal to upper bound",
    );
    clean(&assume("bounded<-128, 127>", I8));
    clean(&assume("bounded<6, 6>", I8));
    clean(&assume("bounded<0, ?>", "!cuda_tile.tile<i32>"));
    clean(&assume("bounded<?, ?>", "!cuda_tile.tile<i1>"));
    clean(&assume(
        "bounded<-9223372036854775808, 9223372036854775807>",
        "!cuda_tile.tile<i64>",
    ));
}

#[test]
fn predicate_form_needs_a_result() {
    let src = "cuda_tile.module @m {\n  testing$func @f(%a: !cuda_tile.tile<i32>) {\n    \"cuda_tile.assume\"(%a) <{predicate = #cuda_tile.bounded<0, 1>}> : (!cuda_tile.tile<i32>) -> ()\n  }\n}\n";
    both(
        src,
        &["error 3:5: 'cuda_tile.assume' op expected 1 results, but found 0"],
    );
}

/// The spec's form: `assume %cond : tile<i1>`, no predicate and no result. NVIDIA's parser
/// does not accept it.
#[test]
fn condition_form() {
    let func = |ty: &str, line: &str| {
        format!("cuda_tile.module @m {{\n  testing$func @f(%c: {ty}) {{\n    {line}\n  }}\n}}\n")
    };
    let compat = [
        "error 3:5: custom op 'cuda_tile.assume' expected valid keyword",
        "error 3:5: custom op 'cuda_tile.assume' expected attribute name",
    ];
    let src = func(
        "!cuda_tile.tile<4xi1>",
        "cuda_tile.assume %c : !cuda_tile.tile<4xi1>",
    );
    modes(&src, &[], &compat);
    let src = func("!cuda_tile.tile<i1>", "assume %c : !cuda_tile.tile<i1>");
    modes(&src, &[], &compat);
    let src = func(
        "!cuda_tile.tile<4xf32>",
        "cuda_tile.assume %c : !cuda_tile.tile<4xf32>",
    );
    modes(
        &src,
        &[
            "error 3:5: 'cuda_tile.assume' op operand #0 must be tile of i1 values, but got '!cuda_tile.tile<4xf32>'",
        ],
        &compat,
    );
    // The generic form.
    let src = func(
        "!cuda_tile.tile<4xi32>",
        "\"cuda_tile.assume\"(%c) : (!cuda_tile.tile<4xi32>) -> ()",
    );
    modes(
        &src,
        &[
            "error 3:5: 'cuda_tile.assume' op operand #0 must be tile of i1 values, but got '!cuda_tile.tile<4xi32>'",
        ],
        &["error 3:5: 'cuda_tile.assume' op requires attribute 'predicate'"],
    );
    let src = func(
        "!cuda_tile.tile<4xi1>",
        "%0 = \"cuda_tile.assume\"(%c) : (!cuda_tile.tile<4xi1>) -> !cuda_tile.tile<4xi1>",
    );
    modes(
        &src,
        &["error 3:10: 'cuda_tile.assume' op expected 0 results, but found 1"],
        &["error 3:10: 'cuda_tile.assume' op requires attribute 'predicate'"],
    );
}

//! `E08xx`: reduce and scan.

use crate::codes::CodeInfo;

/// A valid reduction, shown as the corrected example of most entries.
macro_rules! reduce_example {
    () => {
        "%s = cuda_tile.reduce %x dim=0 identities=[0.000000e+00 : f32] : !cuda_tile.tile<8xf32> -> !cuda_tile.tile<f32>\n(%a : !cuda_tile.tile<f32>, %b : !cuda_tile.tile<f32>) {\n  %r = cuda_tile.addf %a, %b : !cuda_tile.tile<f32>\n  cuda_tile.yield %r : !cuda_tile.tile<f32>\n}"
    };
}

/// A valid scan.
macro_rules! scan_example {
    () => {
        "%s = cuda_tile.scan %x dim=0 reverse=false identities=[0.000000e+00 : f32] : !cuda_tile.tile<8xf32> -> !cuda_tile.tile<8xf32>\n(%a : !cuda_tile.tile<f32>, %b : !cuda_tile.tile<f32>) {\n  %r = cuda_tile.addf %a, %b : !cuda_tile.tile<f32>\n  cuda_tile.yield %r : !cuda_tile.tile<f32>\n}"
    };
}

catalog! {
    /// A reduce or scan without inputs.
    NO_INPUT = CodeInfo::rule("E0801", "reduce/scan without inputs",
        "reduce/scan requires at least one input")
        .upstream("expect at least 1 operand")
        .explain("`reduce` and `scan` combine the elements of one or more input tiles; at least one input is required. This can only go wrong in the generic form.")
        .example(reduce_example!());
    /// A reduce or scan with another number of results than inputs.
    RESULT_COUNT = CodeInfo::rule("E0802", "reduce/scan result count",
        "reduce/scan must produce one result per input")
        .upstream("expect same number of operands and results")
        .explain("`reduce` and `scan` produce one result per input tile.")
        .example(reduce_example!());
    /// Another number of identities than inputs.
    IDENTITY_COUNT = CodeInfo::rule("E0803", "reduce/scan identity count",
        "expect identities to match the number of operands but got: {operands} operands and {identities} identities")
        .explain("`identities` holds one identity value of the combining function per input tile, in input order.")
        .example(reduce_example!());
    /// An identity of another type than its input's elements.
    IDENTITY_TYPE = CodeInfo::rule("E0804", "reduce/scan identity type",
        "identity element type must match input element type")
        .upstream("expect same type for operand at index: {index} and identity at index: {index} but got: '{operand}' and '{identity}'")
        .explain("Identity `i` is a value of the element type of input `i` (an `f16` identity is accepted for a `bf16` input and the reverse).")
        .example(reduce_example!());
    /// `dim` beyond the rank of the inputs.
    DIM = CodeInfo::rule("E0805", "reduce/scan dimension out of range",
        "reduction dimension is out of range")
        .upstream("dimension ({dim}) is out of bound [0, {rank})")
        .explain("`dim` names the dimension to reduce or scan along: it is at least 0 and less than the rank of the inputs.")
        .example(reduce_example!());
    /// A scan result of another type than its input.
    SCAN_RESULT_TYPE = CodeInfo::rule("E0806", "scan result type",
        "expect same type for operand at index: {index} and result at index: {index}")
        .explain("`scan` keeps the shape: each result has exactly the type of its input.")
        .example(scan_example!());
    /// A reduce result that is not its input without the reduced dimension.
    REDUCE_INFERRED = CodeInfo::rule("E0807", "reduce result type",
        "inferred type(s) {inferred} are incompatible with return type(s) of operation {results}")
        .explain("`reduce` removes dimension `dim`: each result is a tile of its input's element type whose shape is the input's shape without that dimension (a rank-1 input gives a rank-0 tile).")
        .example(reduce_example!());
    /// Follows a result type that differs from the inferred one.
    INFER_FAILED = CodeInfo::rule("E0808", "result type inference failed",
        "failed to infer returned types")
        .explain("Reported after E0807: the result types written in the op differ from the ones the op implies.")
        .example(reduce_example!());
    /// A body with another number of arguments than two per input.
    ARG_COUNT = CodeInfo::rule("E0809", "reduce/scan body argument count",
        "reduce/scan body must take two rank-zero arguments per input")
        .upstream("expect {expected} block arguments but got: {found}")
        .explain("The body of `reduce` and `scan` combines two elements per input: it takes the arguments `[input0_current, input0_accumulator, input1_current, input1_accumulator, ...]`.")
        .example(reduce_example!());
    /// A body argument that is not a tile.
    ARG_NOT_TILE = CodeInfo::rule("E0810", "reduce/scan body argument not a tile",
        "expected TileType for block arguments but got types: {types}")
        .upstream("expect 0-rank tile type at index: {index} but got: '{type}'")
        .explain("The body of `reduce` and `scan` works on single elements: its arguments are rank-0 tiles (`!cuda_tile.tile<f32>`), not bare element types.")
        .example(reduce_example!());
    /// A body argument of rank above zero.
    ARG_RANK = CodeInfo::rule("E0811", "reduce/scan body argument rank",
        "expect 0-rank tile type at index: {index}")
        .upstream("expect 0-rank tile type at index: {index} but got: '{type}'")
        .explain("The body of `reduce` and `scan` works on single elements: its arguments are rank-0 tiles.")
        .example(reduce_example!());
    /// The two body arguments of one input with different element types.
    ARG_PAIR = CodeInfo::rule("E0812", "reduce/scan body argument pair",
        "expect same element type for block argument at index: {first} and {second} but got: '{a}' and '{b}'")
        .explain("The two body arguments of an input (its current element and the accumulator) have the same element type.")
        .example(reduce_example!());
    /// Body arguments of another element type than their input.
    ARG_OPERAND = CodeInfo::rule("E0813", "reduce/scan body argument type",
        "expect same type for operand at index: {index} and block argument at index: {arg} but got: '{operand}' and '{argtype}'")
        .explain("The body arguments of input `i` (at indices `2i` and `2i+1`) have the element type of that input.")
        .example(reduce_example!());
    /// An op with memory effects in the body.
    IMPURE = CodeInfo::rule("E0814", "impure op in a reduce/scan body",
        "only pure operations allowed")
        .explain("The body of `reduce` and `scan` may run any number of times, in any order: it can only hold pure ops (no loads, stores, prints or assertions). A remark points at the offending op.")
        .example(reduce_example!());
    /// An op with memory effects in the body, reported at that op (NVIDIA's 13.3 form).
    IMPURE_AT_OP = CodeInfo::rule("E0820", "impure op in a reduce/scan body (at the op)",
        "")
        .upstream("only pure operations are allowed inside '{parent}'")
        .explain("NVIDIA's 13.3 verifier reports an op with memory effects in the body of `reduce` or `scan` at that op; tilec's own wording reports it at the `reduce` or `scan` (E0814). The body may run any number of times, in any order: it can only hold pure ops.")
        .example(reduce_example!());
    /// An op the body of reduce and scan does not accept.
    INVALID_OP = CodeInfo::rule("E0815", "invalid op in a reduce/scan body",
        "invalid op: {name}")
        .upstream("only pure operations allowed")
        .explain("The body of `reduce` and `scan` holds pure tile IR ops on rank-0 tiles and ends in `yield`: control flow, terminators other than its `yield`, ops that may trap (such as integer division) and ops of other dialects are rejected. A remark points at the offending op.")
        .example(reduce_example!());
    /// A body `yield` with another number of values than inputs.
    YIELD_COUNT = CodeInfo::rule("E0816", "reduce/scan yield count",
        "expect number of terminators operands ({found}) to match expected ({expected})")
        .upstream("expect number of terminators operands ({found}) to match number of operands ({expected})")
        .explain("The `yield` ending the body of `reduce` and `scan` returns one combined value per input.")
        .example(reduce_example!());
    /// A body `yield` value of another type than its input's elements.
    YIELD_TYPE = CodeInfo::rule("E0817", "reduce/scan yield type",
        "expected TileType for operand and terminator types but got: {term} vs {arg}")
        .upstream("expect same type for operand at index: {index} and terminator argument at index: {index} but got: '{operand}' and '{termelem}'")
        .explain("Value `i` of the body's `yield` is a rank-0 tile of the element type of input `i`, the type of the input's body arguments.")
        .example(reduce_example!());
    /// A body `yield` value that is not a tile.
    YIELD_NOT_TILE = CodeInfo::rule("E0818", "reduce/scan yield of a non-tile",
        "expected TileType for operand and terminator types but got: {term} vs {arg}")
        .upstream("expected TileType for operand and terminator types but got: '{operandtype}' and '{termtype}'")
        .explain("The body of `reduce` and `scan` yields rank-0 tiles, one per input, of the input's element type.")
        .example(reduce_example!());
    /// A body op on values other than rank-0 tiles (a spec rule NVIDIA's tool does not check).
    BODY_RANK = CodeInfo::rule("E0819", "reduce/scan body op on a non-scalar",
        "reduce/scan body operation {name} must use rank-zero tiles, but uses '{type}'")
        .explain("Every op of a `reduce` or `scan` body combines single elements: its operands and results are rank-0 tiles. Reshape or broadcast outside the body instead.")
        .example(reduce_example!());
}

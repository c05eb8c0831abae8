//! `E02xx`: generic (ODS-style) and structural verification: slot counts and type
//! constraints, required attributes, same-type predicates, regions and terminators,
//! dominance and isolation.

use crate::codes::CodeInfo;

catalog! {
    /// An operand violates its slot's type constraint.
    OPERAND_TYPE = CodeInfo::rule("E0201", "operand type constraint",
        "operand #{index} must be {constraint}, but got '{type}'")
        .explain("Each operand slot of an op accepts a class of types (for example `tile of f16 or bf16 or f32 or f64 values` for the float math ops). The operand at this index has a type outside that class.")
        .example("%r = cuda_tile.exp %x : !cuda_tile.tile<4xf32>");
    /// A result violates its slot's type constraint.
    RESULT_TYPE = CodeInfo::rule("E0202", "result type constraint",
        "result #{index} must be {constraint}, but got '{type}'")
        .explain("Each result slot of an op produces a class of types. The result at this index is declared with a type outside that class (for example `get_tile_block_id` results are rank-0 `i32` tiles).")
        .example("%x, %y, %z = cuda_tile.get_tile_block_id : !cuda_tile.tile<i32>");
    /// Wrong number of operands.
    OPERAND_COUNT = CodeInfo::rule("E0203", "operand count",
        "expected {expected} operands, but found {found}")
        .explain("The op takes a fixed number of operands (or at least a minimum number, where a slot is variadic) and was given a different number. This can only happen in the generic form, where the operand list is written explicitly.")
        .example("%r = \"cuda_tile.addi\"(%a, %b) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> !cuda_tile.tile<i32>");
    /// Wrong number of results.
    RESULT_COUNT = CodeInfo::rule("E0204", "result count",
        "expected {expected} results, but found {found}")
        .explain("The op defines a fixed number of results (or a minimum, where a slot is variadic) and was declared with a different number.")
        .example("%r = \"cuda_tile.addi\"(%a, %b) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> !cuda_tile.tile<i32>");
    /// Wrong number of regions.
    REGION_COUNT = CodeInfo::rule("E0205", "region count",
        "expected {expected} regions, but found {found}")
        .explain("The op has a fixed number of regions (for example `if` has a then and an else region, the else region possibly empty) and was written with a different number.")
        .example("cuda_tile.if %cond {\n  cuda_tile.yield\n}");
    /// A region that must have exactly one block.
    REGION_BLOCKS = CodeInfo::rule("E0206", "region must have one block",
        "region #{index} ('{name}') failed to verify constraint: region with 1 blocks")
        .explain("Tile IR regions are single blocks. The region at this index is empty (or has several blocks) where the op requires exactly one block.")
        .example("%s = cuda_tile.reduce %x dim=0 identities=[0.000000e+00 : f32] : !cuda_tile.tile<8xf32> -> !cuda_tile.tile<f32>\n(%a : !cuda_tile.tile<f32>, %b : !cuda_tile.tile<f32>) {\n  %r = cuda_tile.addf %a, %b : !cuda_tile.tile<f32>\n  cuda_tile.yield %r : !cuda_tile.tile<f32>\n}");
    /// A required attribute is missing.
    MISSING_ATTRIBUTE = CodeInfo::rule("E0207", "missing attribute",
        "requires attribute '{name}'")
        .explain("The op has an attribute that must always be present (for example the `value` of `constant` or the `permutation` of `permute`); the generic form omitted it.")
        .example("%c = \"cuda_tile.constant\"() {value = dense<1> : tensor<i32>} : () -> !cuda_tile.tile<i32>");
    /// An attribute of the wrong kind or out of range.
    ATTRIBUTE_CONSTRAINT = CodeInfo::rule("E0208", "attribute constraint",
        "attribute '{name}' failed to satisfy constraint: {constraint}")
        .explain("The attribute is present but of the wrong kind, or its value is outside the range the op accepts (for example a negative `dim`).")
        .example("%s = cuda_tile.reduce %x dim=0 identities=[0.000000e+00 : f32] : !cuda_tile.tile<8xf32> -> !cuda_tile.tile<f32>\n(%a : !cuda_tile.tile<f32>, %b : !cuda_tile.tile<f32>) {\n  %r = cuda_tile.addf %a, %b : !cuda_tile.tile<f32>\n  cuda_tile.yield %r : !cuda_tile.tile<f32>\n}");
    /// Named slots must share an element type.
    SAME_ELEMENT_TYPE = CodeInfo::rule("E0209", "slots must share an element type",
        "failed to verify that all of {{slots}} have the same element type")
        .explain("The listed operands and results must all have the same element type (their shapes may differ).")
        .example("%r = cuda_tile.cat %a, %b dim = 1 : !cuda_tile.tile<2x2xf32>, !cuda_tile.tile<2x2xf32> -> !cuda_tile.tile<2x4xf32>");
    /// Named slots must share a rank.
    SAME_RANK = CodeInfo::rule("E0210", "slots must share a rank",
        "failed to verify that all of {{slots}} have same rank")
        .explain("The listed operands and results must all have the same rank (number of dimensions).")
        .example("%r = cuda_tile.broadcast %a : !cuda_tile.tile<1x4xf32> -> !cuda_tile.tile<4x4xf32>");
    /// Named slots must share a shape.
    SAME_SHAPE = CodeInfo::rule("E0211", "slots must share a shape",
        "failed to verify that all of {{slots}} have same shape")
        .explain("The listed operands and results must all have the same shape.")
        .example("%r = cuda_tile.select %c, %a, %b : !cuda_tile.tile<4xi1>, !cuda_tile.tile<4xi32>");
    /// Named slots must share a type.
    SAME_TYPE = CodeInfo::rule("E0212", "slots must share a type",
        "failed to verify that all of {{slots}} have same type")
        .explain("The listed operands and results must all have exactly the same type.")
        .example("%p2 = cuda_tile.offset %p, %o : !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, !cuda_tile.tile<8xi32> -> !cuda_tile.tile<8x!cuda_tile.ptr<f32>>");
    /// All operands and results must share an element type.
    SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE = CodeInfo::rule("E0213", "operands and results must share an element type",
        "requires the same element type for all operands and results")
        .explain("Every operand and result of this op has the same element type; shape-changing ops (reshape, broadcast) never convert elements.")
        .example("%r = cuda_tile.reshape %a : !cuda_tile.tile<2x2xf32> -> !cuda_tile.tile<4xf32>");
    /// All operands and results must share a shape.
    SAME_OPERANDS_AND_RESULT_SHAPE = CodeInfo::rule("E0214", "operands and results must share a shape",
        "requires the same shape for all operands and results")
        .explain("Every operand and result of this op has the same shape; rank-0 tiles are not broadcast implicitly.")
        .example("%p2 = cuda_tile.offset %p, %o : !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, !cuda_tile.tile<8xi32> -> !cuda_tile.tile<8x!cuda_tile.ptr<f32>>");
    /// All operands must share a shape.
    SAME_OPERANDS_SHAPE = CodeInfo::rule("E0215", "operands must share a shape",
        "requires the same shape for all operands")
        .explain("Every operand of this op has the same shape (for example all inputs of one reduce or scan).")
        .example("%s:2 = cuda_tile.reduce %a, %b dim=0 identities=[0.000000e+00 : f32, 0 : i32] : !cuda_tile.tile<8xf32>, !cuda_tile.tile<8xi32> -> !cuda_tile.tile<f32>, !cuda_tile.tile<i32>\n(%a0 : !cuda_tile.tile<f32>, %a1 : !cuda_tile.tile<f32>, %b0 : !cuda_tile.tile<i32>, %b1 : !cuda_tile.tile<i32>) {\n  cuda_tile.yield %a0, %b0 : !cuda_tile.tile<f32>, !cuda_tile.tile<i32>\n}");
    /// A terminator in the middle of a block.
    TERMINATOR_NOT_LAST = CodeInfo::rule("E0216", "terminator not last",
        "must be the last operation in the parent block")
        .explain("Terminators (`yield`, `continue`, `break`, `return`) end their block; ops after them would never run. Move the terminator to the end of the block or remove the ops after it.")
        .example("cuda_tile.if %cond {\n  cuda_tile.print \"then\"\n  cuda_tile.yield\n}");
    /// A block that does not end with the terminator its op requires.
    WRONG_TERMINATOR = CodeInfo::rule("E0217", "block must end with a terminator",
        "expects regions to end with '{expected}', found '{found}'")
        .explain("The region's block must end with a specific terminator (for example `yield` in the regions of `if`, `reduce` and `scan`). In the custom syntax an omitted terminator is implied; in the generic form it must be written.")
        .example("cuda_tile.if %cond {\n  cuda_tile.yield\n}");
    /// A region whose entry block is empty.
    EMPTY_BLOCK = CodeInfo::rule("E0218", "empty block",
        "expect non-empty block")
        .upstream("empty block: expect at least a terminator")
        .bare()
        .explain("A region's entry block contains no operations, not even a terminator.")
        .example("cuda_tile.loop {\n  cuda_tile.break\n}");
    /// A value used where its definition does not dominate.
    DOMINANCE = CodeInfo::rule("E0220", "use not dominated by its definition",
        "operand #{index} does not dominate this use")
        .explain("An SSA value is used before it is defined in the same block, or inside the op that defines it. Every use must come after its definition, in the same block or in a region nested in that block.")
        .example("%a = cuda_tile.constant <i32: 1> : !cuda_tile.tile<i32>\n%b = cuda_tile.addi %a, %a : !cuda_tile.tile<i32>");
    /// A value from outside an isolated op's regions.
    ISOLATION = CodeInfo::rule("E0221", "value captured across an isolated region",
        "using value defined outside the region")
        .explain("`entry`, functions and `module` are isolated from above: their regions cannot use values defined outside them. Pass the value as an argument instead.")
        .example("cuda_tile.entry @k(%n: !cuda_tile.tile<i32>) {\n  %m = cuda_tile.addi %n, %n : !cuda_tile.tile<i32>\n}");
    /// An op nested where its parent does not allow it.
    PARENT = CodeInfo::rule("E0222", "op outside its allowed parents",
        "expects parent op to be one of '{parents}'")
        .explain("This op may only appear directly inside certain ops (for example `global` and `entry` inside a module).")
        .example("cuda_tile.module @m {\n  cuda_tile.global @g <f32: [1.0, 2.0]> : !cuda_tile.tile<2xf32>\n}");
    /// An optimization-hints entry for an unknown architecture.
    HINT_ARCH = CodeInfo::rule("E0230", "optimization hints: unknown architecture",
        "unallowed key {key}")
        .upstream("unknown hint key {key}")
        .explain("`optimization_hints` maps architectures to hints. The keys are sm_80, sm_90, sm_100, sm_103, sm_110, sm_120 and sm_121, and `default` for hints that apply to every architecture (cuTile Python writes `optimization_hints=<default = {}>`).")
        .example("cuda_tile.entry @k(%p: !cuda_tile.tile<!cuda_tile.ptr<f32>>) optimization_hints=<sm_90 = {num_cta_in_cga = 2, occupancy = 4}, sm_100 = {num_cta_in_cga = 8}> {\n}");
    /// A hint the op does not take.
    HINT_NOT_ALLOWED = CodeInfo::rule("E0231", "optimization hint not allowed on this op",
        "{key} is not allowed for current Operation")
        .upstream("{key} is not known hint for current Operation")
        .explain("Each op takes some hints only: `entry` takes `num_cta_in_cga`, `num_worker_warps_per_cta` and `occupancy`; `load_view_tko` and `store_view_tko` take `latency` and `allow_tma`; `load_ptr_tko` and `store_ptr_tko` take `latency`.")
        .example("cuda_tile.entry @k(%p: !cuda_tile.tile<!cuda_tile.ptr<f32>>) optimization_hints=<sm_90 = {num_cta_in_cga = 2, occupancy = 4}, sm_100 = {num_cta_in_cga = 8}> {\n}");
    /// `num_cta_in_cga` that is not a power of two up to 16.
    HINT_NUM_CTA = CodeInfo::rule("E0232", "num_cta_in_cga out of range",
        "expected power-of-two ≤ 16 for {arch}.{key}")
        .explain("`num_cta_in_cga`, the number of CTAs in a cluster (CGA), must be 1, 2, 4, 8 or 16.")
        .example("cuda_tile.entry @k(%p: !cuda_tile.tile<!cuda_tile.ptr<f32>>) optimization_hints=<sm_90 = {num_cta_in_cga = 2, occupancy = 4}, sm_100 = {num_cta_in_cga = 8}> {\n}");
    /// A hint that needs an integer.
    HINT_INTEGER = CodeInfo::rule("E0233", "optimization hint needs an integer",
        "integer value expected for {arch}.{key}")
        .explain("`num_cta_in_cga`, `occupancy` and `latency` take integers.")
        .example("cuda_tile.entry @k(%p: !cuda_tile.tile<!cuda_tile.ptr<f32>>) optimization_hints=<sm_90 = {num_cta_in_cga = 2, occupancy = 4}, sm_100 = {num_cta_in_cga = 8}> {\n}");
    /// `allow_tma` that is not a boolean.
    HINT_BOOLEAN = CodeInfo::rule("E0234", "optimization hint needs a boolean",
        "boolean value expected for {arch}.{key}")
        .explain("`allow_tma` takes `true` or `false`.")
        .example("%t, %tok = cuda_tile.load_view_tko weak %v[%i] optimization_hints = <sm_90 = {allow_tma = false, latency = 3}> : !cuda_tile.partition_view<tile=(8), !cuda_tile.tensor_view<64xf32, strides=[1]>>, !cuda_tile.tile<i32> -> !cuda_tile.tile<8xf32>, !cuda_tile.token");
    /// `latency` out of range.
    HINT_LATENCY = CodeInfo::rule("E0235", "latency hint out of range",
        "integer value in the range [1, 10] is expected for {arch}.{key}")
        .explain("`latency` is a relative hint from 1 (low) to 10 (high).")
        .example("%t, %tok = cuda_tile.load_view_tko weak %v[%i] optimization_hints = <sm_90 = {latency = 3}> : !cuda_tile.partition_view<tile=(8), !cuda_tile.tensor_view<64xf32, strides=[1]>>, !cuda_tile.tile<i32> -> !cuda_tile.tile<8xf32>, !cuda_tile.token");
    /// `occupancy` out of range.
    HINT_OCCUPANCY = CodeInfo::rule("E0236", "occupancy hint out of range",
        "integer value in the range [1, 32] is expected for {arch}.{key}")
        .explain("`occupancy`, the number of CTAs the kernel should fit on one SM, is 1 to 32.")
        .example("cuda_tile.entry @k(%p: !cuda_tile.tile<!cuda_tile.ptr<f32>>) optimization_hints=<sm_90 = {num_cta_in_cga = 2, occupancy = 4}, sm_100 = {num_cta_in_cga = 8}> {\n}");
    /// `num_worker_warps_per_cta` that is not a power of two up to 32.
    HINT_WORKER_WARPS = CodeInfo::rule("E0238", "num_worker_warps_per_cta out of range",
        "expected power-of-two ≤ 32 for {arch}.{key}")
        .explain("`num_worker_warps_per_cta`, the number of warps per CTA that do the kernel's work, must be a power of two up to 32 (NVIDIA's compiler uses 4 or 8 today).")
        .example("cuda_tile.entry @k(%p: !cuda_tile.tile<!cuda_tile.ptr<f32>>) optimization_hints=<sm_100 = {num_cta_in_cga = 2, num_worker_warps_per_cta = 8}> {\n}");
    /// Hint problems reported as errors after their warnings (`-Werr-hints`).
    HINTS_FAILED = CodeInfo::rule("E0239", "optimization hints rejected",
        "Optimization hints verification failed")
        .explain("With `-Wunsupported-hints -Werr-hints` (cuda-tile-opt's flags), each problem in an op's `optimization_hints` is a warning, and the op then fails verification with this error.")
        .example("cuda_tile.entry @k(%p: !cuda_tile.tile<!cuda_tile.ptr<f32>>) optimization_hints=<sm_100 = {num_cta_in_cga = 2}> {\n}");
    /// A hint tilec does not know.
    HINT_UNKNOWN = CodeInfo::rule("E0237", "unknown optimization hint",
        "unknown param {key} for {arch}")
        .explain("The hints are `num_cta_in_cga`, `occupancy`, `latency` and `allow_tma`.")
        .example("cuda_tile.entry @k(%p: !cuda_tile.tile<!cuda_tile.ptr<f32>>) optimization_hints=<sm_90 = {num_cta_in_cga = 2, occupancy = 4}, sm_100 = {num_cta_in_cga = 8}> {\n}");
}

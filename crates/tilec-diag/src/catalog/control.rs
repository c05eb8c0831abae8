//! `E06xx`: structured control flow (if, for, loop, break, continue, yield, return).

use crate::codes::CodeInfo;

catalog! {
    /// `break` or `continue` directly inside an op that is not a loop or an `if`.
    EARLY_EXIT_PARENT = CodeInfo::rule("E0601", "early exit outside a loop",
        "early-exit must be enclosed by a compatible loop or for")
        .upstream("expects parent op to be one of '{parents}'")
        .explain("`break` ends the innermost enclosing `loop`; `continue` ends the current iteration of the innermost enclosing `loop` or `for`. Either must sit directly in the body of such a loop, or in an `if` nested in it.")
        .example("cuda_tile.loop {\n  cuda_tile.break\n}");
    /// `break` or `continue` in an `if` whose ancestors reach something other than a loop.
    EARLY_EXIT_ANCESTOR = CodeInfo::rule("E0602", "early exit outside a loop (through if)",
        "early-exit must be enclosed by a compatible loop or for")
        .upstream("can only be nested within a ancestor chain of {ops} operations")
        .explain("`break` and `continue` leave through any number of enclosing `if`s to the nearest loop; the first enclosing op that is not an `if` must be a `loop` (for `break`) or a `loop` or `for` (for `continue`). The note points at the op found instead.")
        .example("cuda_tile.loop {\n  %c = cuda_tile.constant <i1: true> : !cuda_tile.tile<i1>\n  cuda_tile.if %c {\n    cuda_tile.break\n  }\n}");
    /// `break` operands differ from the loop's result types.
    BREAK_TYPES = CodeInfo::rule("E0603", "break operands must match the loop results",
        "early-exit operand types must match the enclosing region contract")
        .upstream("operand types must correspond to the parent loop result types: ({found}) vs ({expected})")
        .explain("`break` ends its `loop` and yields the loop's results: it takes one operand per result of the enclosing `loop`, of the same type.")
        .example("%c0 = cuda_tile.constant <i32: 0> : !cuda_tile.tile<i32>\n%r = cuda_tile.loop : tile<i32> {\n  cuda_tile.break %c0 : !cuda_tile.tile<i32>\n}");
    /// `continue` operands differ from the `loop`'s loop-carried values.
    CONTINUE_LOOP_TYPES = CodeInfo::rule("E0604", "continue operands must match the loop-carried values",
        "early-exit operand types must match the enclosing region contract")
        .upstream("`loop` is missing a valid terminator. `continue` op should have operand types that match the parent loop iter_values: ({expected}), but found: ({found})")
        .bare()
        .explain("`continue` in a `loop` starts the next iteration with new loop-carried values: it takes one operand per `iter_values` entry, of the same type. A body without a terminator ends in an implicit `continue` without operands.")
        .example("%c0 = cuda_tile.constant <i32: 0> : !cuda_tile.tile<i32>\ncuda_tile.loop iter_values(%x = %c0) : tile<i32> {\n  cuda_tile.continue %x : !cuda_tile.tile<i32>\n}");
    /// `continue` operands differ from the `for`'s result types.
    CONTINUE_FOR_TYPES = CodeInfo::rule("E0605", "continue operands must match the for results",
        "early-exit operand types must match the enclosing region contract")
        .upstream("`for` is missing a valid terminator. `continue` op should have operand types that match the parent loop return types: ({expected}), but found: ({found})")
        .bare()
        .explain("`continue` in a `for` yields the next values of the loop-carried variables: one operand per result of the `for`, of the same type.")
        .example("%c0 = cuda_tile.constant <i32: 0> : !cuda_tile.tile<i32>\n%c1 = cuda_tile.constant <i32: 1> : !cuda_tile.tile<i32>\ncuda_tile.for %iv in (%c0 to %c1, step %c1) : !cuda_tile.tile<i32> {\n  cuda_tile.continue\n}");
    /// `return` whose enclosing `if`s are not in a function.
    RETURN_OUTSIDE_FUNCTION = CodeInfo::rule("E0606", "return outside a function",
        "must be used within a cuda_tile.testing$func, cuda_tile.entry, or cuda_tile.if operation")
        .explain("`return` ends the enclosing function or kernel. It may sit in the body of an `entry` (or a test function) or in `if`s nested in it, but not in a loop: leave the loop first, then return.")
        .example("cuda_tile.module @m {\n  cuda_tile.entry @k() {\n    cuda_tile.return\n  }\n}");
    /// `return` with a different number of operands than the function has results.
    RETURN_COUNT = CodeInfo::rule("E0607", "return operand count",
        "has {found} operands, but enclosing function (@{name}) returns {expected}")
        .explain("`return` takes one operand per result of the enclosing function; kernels (`entry`) return nothing. A body without a terminator ends in an implicit `return` without operands.")
        .example("cuda_tile.module @m {\n  testing$func @f(%a: !cuda_tile.tile<2xi16>) -> !cuda_tile.tile<2xi16> {\n    cuda_tile.return %a : !cuda_tile.tile<2xi16>\n  }\n}");
    /// `return` operand of another type than the function result.
    RETURN_TYPE = CodeInfo::rule("E0608", "return operand type",
        "type of return operand {index} ('{type}') doesn't match function result type ('{expected}') in function @{name}")
        .bare()
        .explain("Each `return` operand has the type of the corresponding result of the enclosing function.")
        .example("cuda_tile.module @m {\n  testing$func @f(%a: !cuda_tile.tile<2xi16>) -> !cuda_tile.tile<2xi16> {\n    cuda_tile.return %a : !cuda_tile.tile<2xi16>\n  }\n}");
    /// A `for` body without the induction-variable argument.
    FOR_NO_IV = CodeInfo::rule("E0609", "for without induction variable",
        "expected at least one block argument for induction variable")
        .explain("The first argument of a `for` body is the induction variable; the loop-carried values follow. The custom syntax always declares it; in the generic form the body block must list it.")
        .example("%c0 = cuda_tile.constant <i32: 0> : !cuda_tile.tile<i32>\n%c1 = cuda_tile.constant <i32: 1> : !cuda_tile.tile<i32>\ncuda_tile.for %iv in (%c0 to %c1, step %c1) : !cuda_tile.tile<i32> {\n  cuda_tile.continue\n}");
    /// Induction variable, bounds and step of different types.
    FOR_IV_TYPE = CodeInfo::rule("E0610", "for induction variable type",
        "for induction, lower, upper, and step must share an integer type")
        .upstream("expected induction variable to be same type as bounds and step: '{iv}' vs '{lb}'")
        .explain("The induction variable of a `for` takes the values of the range: it has the type of the lower bound, upper bound and step, which all share one rank-0 integer tile type.")
        .example("%c0 = cuda_tile.constant <i32: 0> : !cuda_tile.tile<i32>\n%c1 = cuda_tile.constant <i32: 1> : !cuda_tile.tile<i32>\ncuda_tile.for %iv in (%c0 to %c1, step %c1) : !cuda_tile.tile<i32> {\n  cuda_tile.continue\n}");
    /// `for` results that differ from its loop-carried values.
    FOR_RESULT_TYPES = CodeInfo::rule("E0611", "for results must match the loop-carried values",
        "for result types must match region iter-arg types")
        .upstream("failed to verify that all of {initValues, resultValues} have same type")
        .explain("A `for` produces the final values of its loop-carried variables: one result per `iter_values` entry, of the same type.")
        .example("%c0 = cuda_tile.constant <i32: 0> : !cuda_tile.tile<i32>\n%c1 = cuda_tile.constant <i32: 1> : !cuda_tile.tile<i32>\n%r = cuda_tile.for %iv in (%c0 to %c1, step %c1) : !cuda_tile.tile<i32> iter_values(%x = %c0) -> (!cuda_tile.tile<i32>) {\n  cuda_tile.continue %x : !cuda_tile.tile<i32>\n}");
    /// `for` body arguments that do not match the initial values in number.
    FOR_ITER_COUNT = CodeInfo::rule("E0612", "for loop-carried value count",
        "for init values must match region iter-arg types")
        .upstream("mismatch in number of region iterator values and loop iterator inits: {iters} vs {inits}")
        .explain("After the induction variable, a `for` body takes one argument per initial value (`iter_values`). This can only go wrong in the generic form, where the body block lists its arguments.")
        .example("%c0 = cuda_tile.constant <i32: 0> : !cuda_tile.tile<i32>\n%c1 = cuda_tile.constant <i32: 1> : !cuda_tile.tile<i32>\n%r = cuda_tile.for %iv in (%c0 to %c1, step %c1) : !cuda_tile.tile<i32> iter_values(%x = %c0) -> (!cuda_tile.tile<i32>) {\n  cuda_tile.continue %x : !cuda_tile.tile<i32>\n}");
    /// `for` body argument of another type than its initial value.
    FOR_ITER_TYPE = CodeInfo::rule("E0613", "for loop-carried value type",
        "for init values must match region iter-arg types")
        .upstream("init value {index} and region iter_value {index} have different type: '{init}' != '{iter}'")
        .explain("Each loop-carried body argument of a `for` has the type of its initial value.")
        .example("%c0 = cuda_tile.constant <i32: 0> : !cuda_tile.tile<i32>\n%c1 = cuda_tile.constant <i32: 1> : !cuda_tile.tile<i32>\n%r = cuda_tile.for %iv in (%c0 to %c1, step %c1) : !cuda_tile.tile<i32> iter_values(%x = %c0) -> (!cuda_tile.tile<i32>) {\n  cuda_tile.continue %x : !cuda_tile.tile<i32>\n}");
    /// A view carried through a `for`.
    FOR_VIEW = CodeInfo::rule("E0614", "view carried by a for",
        "view-typed for results are not permitted")
        .upstream("loop-carried value {index} is a {kind}, which is not supported")
        .explain("Loop-carried values (and so the results) of a `for` cannot be tensor views or partition views: views must not escape the region that uses them. Carry the tiles or pointers instead and build the view inside the loop.")
        .example("%c0 = cuda_tile.constant <i32: 0> : !cuda_tile.tile<i32>\n%c1 = cuda_tile.constant <i32: 1> : !cuda_tile.tile<i32>\n%r = cuda_tile.for %iv in (%c0 to %c1, step %c1) : !cuda_tile.tile<i32> iter_values(%x = %c0) -> (!cuda_tile.tile<i32>) {\n  cuda_tile.continue %x : !cuda_tile.tile<i32>\n}");
    /// `loop` body arguments that do not match the initial values in number.
    LOOP_ITER_COUNT = CodeInfo::rule("E0615", "loop loop-carried value count",
        "mismatch in number of region iterator values and loop iterator inits: {iters} vs {inits}")
        .explain("A `loop` body takes one argument per initial value (`iter_values`). This can only go wrong in the generic form, where the body block lists its arguments.")
        .example("%c0 = cuda_tile.constant <i32: 0> : !cuda_tile.tile<i32>\ncuda_tile.loop iter_values(%x = %c0) : tile<i32> {\n  cuda_tile.continue %x : !cuda_tile.tile<i32>\n}");
    /// `loop` body argument of another type than its initial value.
    LOOP_ITER_TYPE = CodeInfo::rule("E0616", "loop loop-carried value type",
        "init value {index} and region iter_value {index} have different type: '{init}' != '{iter}'")
        .explain("Each body argument of a `loop` has the type of its initial value.")
        .example("%c0 = cuda_tile.constant <i32: 0> : !cuda_tile.tile<i32>\ncuda_tile.loop iter_values(%x = %c0) : tile<i32> {\n  cuda_tile.continue %x : !cuda_tile.tile<i32>\n}");
    /// A view carried through a `loop`.
    LOOP_VIEW_CARRIED = CodeInfo::rule("E0617", "view carried by a loop",
        "loop-carried value {index} is a {kind}, which is not supported")
        .explain("Loop-carried values of a `loop` cannot be tensor views or partition views: views must not escape the region that uses them. Carry the tiles or pointers instead and build the view inside the loop.")
        .example("%c0 = cuda_tile.constant <i32: 0> : !cuda_tile.tile<i32>\ncuda_tile.loop iter_values(%x = %c0) : tile<i32> {\n  cuda_tile.continue %x : !cuda_tile.tile<i32>\n}");
    /// A `loop` result that is a view.
    LOOP_VIEW_RESULT = CodeInfo::rule("E0618", "view result of a loop",
        "result type {index} is a {kind}, which is not supported")
        .explain("The results of a `loop` (the operands of its `break`s) cannot be tensor views or partition views: views must not escape the region that builds them.")
        .example("%c0 = cuda_tile.constant <i32: 0> : !cuda_tile.tile<i32>\n%r = cuda_tile.loop : tile<i32> {\n  cuda_tile.break %c0 : !cuda_tile.tile<i32>\n}");
    /// An `if` region with block arguments.
    IF_REGION_ARGS = CodeInfo::rule("E0619", "if regions take no arguments",
        "region #{index} should have no arguments")
        .explain("The then and else regions of an `if` have no block arguments; they use the values of the enclosing block directly.")
        .example("%c = cuda_tile.constant <i1: true> : !cuda_tile.tile<i1>\ncuda_tile.if %c {\n  cuda_tile.yield\n}");
    /// An `if` result that is a view.
    IF_VIEW_RESULT = CodeInfo::rule("E0620", "view result of an if",
        "view-typed if results are not permitted")
        .upstream("result type {index} is a {kind}, which is not supported")
        .explain("The results of an `if` cannot be tensor views or partition views: views must not escape the region that builds them. Select the tiles or pointers instead and build the view after the `if`.")
        .example("%c = cuda_tile.constant <i1: true> : !cuda_tile.tile<i1>\n%a = cuda_tile.constant <i32: 1> : !cuda_tile.tile<i32>\n%r = cuda_tile.if %c -> (!cuda_tile.tile<i32>) {\n  cuda_tile.yield %a : !cuda_tile.tile<i32>\n} else {\n  cuda_tile.yield %a : !cuda_tile.tile<i32>\n}");
    /// An `if` with results but no else branch.
    IF_ELSE_MISSING = CodeInfo::rule("E0621", "if with results needs an else branch",
        "if with results requires an else-region")
        .upstream("has non-empty return type, must define else branch")
        .explain("An `if` that produces values must produce them on both paths: when it has results, the else branch is required and yields them too.")
        .example("%c = cuda_tile.constant <i1: true> : !cuda_tile.tile<i1>\n%a = cuda_tile.constant <i32: 1> : !cuda_tile.tile<i32>\n%r = cuda_tile.if %c -> (!cuda_tile.tile<i32>) {\n  cuda_tile.yield %a : !cuda_tile.tile<i32>\n} else {\n  cuda_tile.yield %a : !cuda_tile.tile<i32>\n}");
    /// A branch of an `if` with results that yields nothing.
    IF_YIELD_NOTHING = CodeInfo::rule("E0622", "if branch yields nothing",
        "expect number of terminators operands ({found}) to match expected ({expected})")
        .upstream("has return type of {results} but {branch} branch does not yield anything")
        .explain("Each branch of an `if` with results ends in a `yield` of one value per result (or leaves through `break`, `continue` or `return`). A branch without a terminator ends in an implicit `yield` without operands.")
        .example("%c = cuda_tile.constant <i1: true> : !cuda_tile.tile<i1>\n%a = cuda_tile.constant <i32: 1> : !cuda_tile.tile<i32>\n%r = cuda_tile.if %c -> (!cuda_tile.tile<i32>) {\n  cuda_tile.yield %a : !cuda_tile.tile<i32>\n} else {\n  cuda_tile.yield %a : !cuda_tile.tile<i32>\n}");
    /// A branch of an `if` without results that yields values.
    IF_YIELD_UNEXPECTED = CodeInfo::rule("E0623", "if branch yields values",
        "expect number of terminators operands ({found}) to match expected ({expected})")
        .upstream("does not return a value, but {branch} branch yields {yields}")
        .explain("An `if` without results ends its branches in a `yield` without operands. To produce values, declare them as results of the `if` (`-> (types)`).")
        .example("%c = cuda_tile.constant <i1: true> : !cuda_tile.tile<i1>\n%a = cuda_tile.constant <i32: 1> : !cuda_tile.tile<i32>\n%r = cuda_tile.if %c -> (!cuda_tile.tile<i32>) {\n  cuda_tile.yield %a : !cuda_tile.tile<i32>\n} else {\n  cuda_tile.yield %a : !cuda_tile.tile<i32>\n}");
    /// A branch of an `if` that yields another number of values than it has results.
    IF_YIELD_ARITY = CodeInfo::rule("E0624", "if branch yield count",
        "expect number of terminators operands ({found}) to match expected ({expected})")
        .upstream("type does not match yield type, {branch} branch yields {yields} but op result type is {results}")
        .explain("The `yield` ending a branch of an `if` has one operand per result of the `if`.")
        .example("%c = cuda_tile.constant <i1: true> : !cuda_tile.tile<i1>\n%a = cuda_tile.constant <i32: 1> : !cuda_tile.tile<i32>\n%r = cuda_tile.if %c -> (!cuda_tile.tile<i32>) {\n  cuda_tile.yield %a : !cuda_tile.tile<i32>\n} else {\n  cuda_tile.yield %a : !cuda_tile.tile<i32>\n}");
    /// A branch of an `if` that yields a value of another type than the result.
    IF_YIELD_TYPE = CodeInfo::rule("E0625", "if branch yield type",
        "expected TileType for operand and terminator types but got: {yield} vs {result}")
        .upstream("type does not match yield type, {branch} branch yields {yields} but op result type is {results}")
        .explain("Each value yielded by a branch of an `if` has the type of the corresponding result of the `if`; there are no implicit conversions.")
        .example("%c = cuda_tile.constant <i1: true> : !cuda_tile.tile<i1>\n%a = cuda_tile.constant <i32: 1> : !cuda_tile.tile<i32>\n%r = cuda_tile.if %c -> (!cuda_tile.tile<i32>) {\n  cuda_tile.yield %a : !cuda_tile.tile<i32>\n} else {\n  cuda_tile.yield %a : !cuda_tile.tile<i32>\n}");
    /// An `if` without regions (generic form).
    IF_THEN_REGION = CodeInfo::rule("E0626", "if without a then-region",
        "if requires a then-region")
        .upstream("expected 2 regions, but found {found}")
        .explain("`if` has a then-region and an else-region (which may be empty). In the generic form both must be written: `({ ... }, { })`. cuda-tile-opt reports the region count (E0205).")
        .example("%c = cuda_tile.constant <i1: true> : !cuda_tile.tile<i1>\n\"cuda_tile.if\"(%c) ({\n  cuda_tile.yield\n}, {\n}) : (!cuda_tile.tile<i1>) -> ()");
}

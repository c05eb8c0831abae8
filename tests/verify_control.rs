//! Verifier diagnostics of the control family: every catalog entry produced exactly, in both
//! personalities, and valid near-misses that verify clean.

use tilec_tests::{
    assert_both as both, assert_clean as clean, assert_modes as check, verify_diags,
};

/// A module with one test function taking `args` and returning `results`.
fn func(args: &str, results: &str, body: &str) -> String {
    let ret = if results.is_empty() {
        String::new()
    } else {
        format!(" -> {results}")
    };
    format!("cuda_tile.module @m {{\n  testing$func @f({args}){ret} {{\n{body}\n  }}\n}}\n")
}

/// `%c0`, `%c1` (i32) and `%cond` (i1) at the top level, then `body`.
fn top(body: &str) -> String {
    format!(
        "%c0 = cuda_tile.constant <i32: 0> : !cuda_tile.tile<i32>\n%c1 = cuda_tile.constant <i32: 1> : !cuda_tile.tile<i32>\n%cond = cuda_tile.constant <i1: true> : !cuda_tile.tile<i1>\n{body}"
    )
}

// ---- break and continue placement ------------------------------------------------------

#[test]
fn early_exit_parent() {
    check(
        "cuda_tile.break\n",
        &[
            "error 1:1: 'cuda_tile.break' op early-exit must be enclosed by a compatible loop or for",
        ],
        &[
            "error 1:1: 'cuda_tile.break' op expects parent op to be one of 'cuda_tile.if, cuda_tile.loop'",
        ],
    );
    check(
        &top(
            "cuda_tile.for %i in (%c0 to %c1, step %c1) : !cuda_tile.tile<i32> {\n  cuda_tile.break\n}\n",
        ),
        &[
            "error 5:3: 'cuda_tile.break' op early-exit must be enclosed by a compatible loop or for",
        ],
        &[
            "error 5:3: 'cuda_tile.break' op expects parent op to be one of 'cuda_tile.if, cuda_tile.loop'",
        ],
    );
    check(
        &func("", "", "    cuda_tile.continue"),
        &[
            "error 3:5: 'cuda_tile.continue' op early-exit must be enclosed by a compatible loop or for",
        ],
        &[
            "error 3:5: 'cuda_tile.continue' op expects parent op to be one of 'cuda_tile.for, cuda_tile.if, cuda_tile.loop'",
        ],
    );
    clean("cuda_tile.loop {\n  cuda_tile.break\n}\n");
    clean(&top(
        "cuda_tile.for %i in (%c0 to %c1, step %c1) : !cuda_tile.tile<i32> {\n  cuda_tile.continue\n}\ncuda_tile.loop {\n  cuda_tile.continue\n}\n",
    ));
}

#[test]
fn early_exit_ancestor() {
    let src = func(
        "%c: !cuda_tile.tile<i1>",
        "",
        "    cuda_tile.if %c {\n      cuda_tile.if %c {\n        cuda_tile.break\n      }\n    }",
    );
    check(
        &src,
        &[
            "error 5:9: 'cuda_tile.break' op early-exit must be enclosed by a compatible loop or for",
            "note 2:3: see unexpected ancestor operation",
        ],
        &[
            "error 5:9: 'cuda_tile.break' op can only be nested within a ancestor chain of 'cuda_tile.loop', 'cuda_tile.if' operations",
            "note 2:3: see unexpected ancestor operation",
        ],
    );
    // `continue` leaves through the `if` to a `for`; a `for` is no target for `break`.
    let src = top(
        "cuda_tile.loop {\n  cuda_tile.for %i in (%c0 to %c1, step %c1) : !cuda_tile.tile<i32> {\n    cuda_tile.if %cond {\n      cuda_tile.break\n    }\n  }\n}\n",
    );
    check(
        &src,
        &[
            "error 7:7: 'cuda_tile.break' op early-exit must be enclosed by a compatible loop or for",
            "note 5:3: see unexpected ancestor operation",
        ],
        &[
            "error 7:7: 'cuda_tile.break' op can only be nested within a ancestor chain of 'cuda_tile.loop', 'cuda_tile.if' operations",
            "note 5:3: see unexpected ancestor operation",
        ],
    );
    check(
        &top("cuda_tile.if %cond {\n  cuda_tile.continue\n}\n"),
        &[
            "error 5:3: 'cuda_tile.continue' op early-exit must be enclosed by a compatible loop or for",
            "note 5:3: see unexpected ancestor operation",
        ],
        &[
            "error 5:3: 'cuda_tile.continue' op can only be nested within a ancestor chain of 'cuda_tile.for', 'cuda_tile.loop', 'cuda_tile.if' operations",
            "note 5:3: see unexpected ancestor operation",
        ],
    );
    clean(&top(
        "cuda_tile.for %i in (%c0 to %c1, step %c1) : !cuda_tile.tile<i32> {\n  cuda_tile.if %cond {\n    cuda_tile.if %cond {\n      cuda_tile.continue\n    }\n  }\n}\ncuda_tile.loop {\n  cuda_tile.if %cond {\n    cuda_tile.break\n  }\n}\n",
    ));
}

// ---- break and continue operands -------------------------------------------------------

#[test]
fn break_types() {
    check(
        &top(
            "%r = cuda_tile.loop : tile<i64> {\n  cuda_tile.if %cond {\n    cuda_tile.break %c0 : !cuda_tile.tile<i32>\n  }\n}\n",
        ),
        &[
            "error 6:5: 'cuda_tile.break' op early-exit operand types must match the enclosing region contract",
        ],
        &[
            "error 6:5: 'cuda_tile.break' op operand types must correspond to the parent loop result types: ('!cuda_tile.tile<i32>') vs ('!cuda_tile.tile<i64>')",
        ],
    );
    check(
        &top(
            "cuda_tile.loop {\n  cuda_tile.break %c0, %c1 : !cuda_tile.tile<i32>, !cuda_tile.tile<i32>\n}\n",
        ),
        &[
            "error 5:3: 'cuda_tile.break' op early-exit operand types must match the enclosing region contract",
        ],
        &[
            "error 5:3: 'cuda_tile.break' op operand types must correspond to the parent loop result types: ('!cuda_tile.tile<i32>', '!cuda_tile.tile<i32>') vs ()",
        ],
    );
    // Loop results may differ from the loop-carried values.
    clean(&top(
        "%r = cuda_tile.loop iter_values(%x = %c0) : tile<i32> -> tile<i1> {\n  cuda_tile.if %cond {\n    cuda_tile.break %cond : !cuda_tile.tile<i1>\n  }\n  cuda_tile.continue %x : !cuda_tile.tile<i32>\n}\n",
    ));
}

#[test]
fn continue_loop_types() {
    // The implicit `continue` of a body without terminator takes the loop's position.
    check(
        &top("cuda_tile.loop iter_values(%x = %c0) : tile<i32> {\n}\n"),
        &[
            "error 4:1: 'cuda_tile.continue' op early-exit operand types must match the enclosing region contract",
        ],
        &[
            "error 4:1: `loop` is missing a valid terminator. `continue` op should have operand types that match the parent loop iter_values: ('!cuda_tile.tile<i32>'), but found: ()",
        ],
    );
    check(
        &top(
            "cuda_tile.loop iter_values(%x = %c0) : tile<i32> {\n  cuda_tile.if %cond {\n    cuda_tile.continue %cond : !cuda_tile.tile<i1>\n  }\n  cuda_tile.continue %x : !cuda_tile.tile<i32>\n}\n",
        ),
        &[
            "error 6:5: 'cuda_tile.continue' op early-exit operand types must match the enclosing region contract",
        ],
        &[
            "error 6:5: `loop` is missing a valid terminator. `continue` op should have operand types that match the parent loop iter_values: ('!cuda_tile.tile<i32>'), but found: ('!cuda_tile.tile<i1>')",
        ],
    );
    clean(&top(
        "cuda_tile.loop iter_values(%x = %c0) : tile<i32> {\n  cuda_tile.if %cond {\n    cuda_tile.continue %c1 : !cuda_tile.tile<i32>\n  }\n  cuda_tile.break\n}\n",
    ));
}

#[test]
fn continue_for_types() {
    check(
        &top(
            "cuda_tile.for %i in (%c0 to %c1, step %c1) : !cuda_tile.tile<i32> {\n  cuda_tile.continue %cond : !cuda_tile.tile<i1>\n}\n",
        ),
        &[
            "error 5:3: 'cuda_tile.continue' op early-exit operand types must match the enclosing region contract",
        ],
        &[
            "error 5:3: `for` is missing a valid terminator. `continue` op should have operand types that match the parent loop return types: (), but found: ('!cuda_tile.tile<i1>')",
        ],
    );
    check(
        &top(
            "%r = cuda_tile.for %i in (%c0 to %c1, step %c1) : !cuda_tile.tile<i32> iter_values(%x = %c0) -> (!cuda_tile.tile<i32>) {\n}\n",
        ),
        &[
            "error 4:6: 'cuda_tile.continue' op early-exit operand types must match the enclosing region contract",
        ],
        &[
            "error 4:6: `for` is missing a valid terminator. `continue` op should have operand types that match the parent loop return types: ('!cuda_tile.tile<i32>'), but found: ()",
        ],
    );
    clean(&top(
        "%r = cuda_tile.for %i in (%c0 to %c1, step %c1) : !cuda_tile.tile<i32> iter_values(%x = %c0) -> (!cuda_tile.tile<i32>) {\n  cuda_tile.if %cond {\n    cuda_tile.continue %i : !cuda_tile.tile<i32>\n  }\n  cuda_tile.continue %x : !cuda_tile.tile<i32>\n}\n",
    ));
}

// ---- return and yield --------------------------------------------------------------------

#[test]
fn return_and_yield_parents() {
    both(
        "cuda_tile.return\n",
        &[
            "error 1:1: 'cuda_tile.return' op expects parent op to be one of 'cuda_tile.entry, cuda_tile.if, cuda_tile.testing$func'",
        ],
    );
    both(
        "cuda_tile.loop {\n  cuda_tile.return\n}\n",
        &[
            "error 2:3: 'cuda_tile.return' op expects parent op to be one of 'cuda_tile.entry, cuda_tile.if, cuda_tile.testing$func'",
        ],
    );
    both(
        "cuda_tile.yield\n",
        &[
            "error 1:1: 'cuda_tile.yield' op expects parent op to be one of 'cuda_tile.if, cuda_tile.reduce, cuda_tile.scan'",
        ],
    );
    both(
        "cuda_tile.loop {\n  cuda_tile.yield\n}\n",
        &[
            "error 2:3: 'cuda_tile.yield' op expects parent op to be one of 'cuda_tile.if, cuda_tile.reduce, cuda_tile.scan'",
        ],
    );
    clean(&func(
        "%c: !cuda_tile.tile<i1>",
        "",
        "    cuda_tile.if %c {\n      cuda_tile.yield\n    }\n    cuda_tile.return",
    ));
}

#[test]
fn return_outside_function() {
    let src = func(
        "%c: !cuda_tile.tile<i1>",
        "",
        "    cuda_tile.loop {\n      cuda_tile.if %c {\n        cuda_tile.return\n      }\n      cuda_tile.break\n    }",
    );
    both(
        &src,
        &[
            "error 5:9: 'cuda_tile.return' op must be used within a cuda_tile.testing$func, cuda_tile.entry, or cuda_tile.if operation",
        ],
    );
    clean(&func(
        "%c: !cuda_tile.tile<i1>",
        "",
        "    cuda_tile.if %c {\n      cuda_tile.if %c {\n        cuda_tile.return\n      }\n    }",
    ));
    clean("cuda_tile.module @m {\n  cuda_tile.entry @k() {\n    cuda_tile.return\n  }\n}\n");
}

#[test]
fn return_count() {
    // The implicit `return` of a body without terminator takes the function's position.
    both(
        &func("%a: !cuda_tile.tile<4xi16>", "!cuda_tile.tile<4xi16>", ""),
        &["error 2:3: 'cuda_tile.return' op has 0 operands, but enclosing function (@f) returns 1"],
    );
    both(
        "cuda_tile.module @m {\n  cuda_tile.entry @k(%a: !cuda_tile.tile<i32>) {\n    cuda_tile.return %a : !cuda_tile.tile<i32>\n  }\n}\n",
        &["error 3:5: 'cuda_tile.return' op has 1 operands, but enclosing function (@k) returns 0"],
    );
    clean(&func(
        "%a: !cuda_tile.tile<4xi16>",
        "!cuda_tile.tile<4xi16>",
        "    cuda_tile.return %a : !cuda_tile.tile<4xi16>",
    ));
}

#[test]
fn return_in_entry_with_results_is_left_to_the_entry() {
    let src = "cuda_tile.module @m {\n  cuda_tile.entry @k(%a: !cuda_tile.tile<i32>) -> !cuda_tile.tile<i32> {\n    cuda_tile.return %a : !cuda_tile.tile<i32>\n  }\n}\n";
    for compat in [false, true] {
        let d = verify_diags(src, compat);
        assert!(!d.is_empty(), "the entry is reported");
        assert!(d.iter().all(|m| !m.contains("cuda_tile.return")), "{d:?}");
    }
}

#[test]
fn return_type() {
    let src = func(
        "%c: !cuda_tile.tile<i1>, %a: !cuda_tile.tile<4xi16>, %b: !cuda_tile.tile<4xf32>",
        "!cuda_tile.tile<4xi16>",
        "    cuda_tile.if %c {\n      cuda_tile.return %b : !cuda_tile.tile<4xf32>\n    }\n    cuda_tile.return %a : !cuda_tile.tile<4xi16>",
    );
    check(
        &src,
        &[
            "error 4:7: 'cuda_tile.return' op type of return operand 0 ('!cuda_tile.tile<4xf32>') doesn't match function result type ('!cuda_tile.tile<4xi16>') in function @f",
        ],
        &[
            "error 4:7: type of return operand 0 ('!cuda_tile.tile<4xf32>') doesn't match function result type ('!cuda_tile.tile<4xi16>') in function @f",
        ],
    );
    clean(&func(
        "%c: !cuda_tile.tile<i1>, %a: !cuda_tile.tile<4xi16>",
        "!cuda_tile.tile<4xi16>",
        "    cuda_tile.if %c {\n      cuda_tile.return %a : !cuda_tile.tile<4xi16>\n    }\n    cuda_tile.return %a : !cuda_tile.tile<4xi16>",
    ));
}

// ---- for --------------------------------------------------------------------------------

const I32: &str = "!cuda_tile.tile<i32>";

/// A generic-form `for` over `%c0` with the given body arguments, initial values and
/// results (at most one).
fn generic_for(args: &str, inits: &[(&str, &str)], results: &[&str], cont: &str) -> String {
    let mut operands = vec!["%c0", "%c0", "%c0"];
    let mut types = vec![I32, I32, I32];
    for (v, t) in inits {
        operands.push(v);
        types.push(t);
    }
    let lhs = if results.is_empty() { "" } else { "%r = " };
    top(&format!(
        "{lhs}\"cuda_tile.for\"({ops}) ({{\n^bb0({args}):\n  cuda_tile.continue {cont}\n}}) : ({tys}) -> ({res})\n",
        ops = operands.join(", "),
        tys = types.join(", "),
        res = results.join(", "),
    ))
}

#[test]
fn for_no_induction_variable() {
    both(
        &top(
            "\"cuda_tile.for\"(%c0, %c1, %c1) ({\n  cuda_tile.continue\n}) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> ()\n",
        ),
        &[
            "error 4:1: 'cuda_tile.for' op expected at least one block argument for induction variable",
        ],
    );
    clean(&top(
        "\"cuda_tile.for\"(%c0, %c1, %c1) ({\n^bb0(%i: !cuda_tile.tile<i32>):\n  cuda_tile.continue\n}) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> ()\n",
    ));
}

#[test]
fn for_induction_variable_type() {
    check(
        &top(
            "\"cuda_tile.for\"(%c0, %c1, %c1) ({\n^bb0(%i: !cuda_tile.tile<i64>):\n  cuda_tile.continue\n}) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> ()\n",
        ),
        &[
            "error 4:1: 'cuda_tile.for' op for induction, lower, upper, and step must share an integer type",
        ],
        &[
            "error 4:1: 'cuda_tile.for' op expected induction variable to be same type as bounds and step: '!cuda_tile.tile<i64>' vs '!cuda_tile.tile<i32>'",
        ],
    );
    // Bounds of different types: the spec's wording, or the generic same-type check.
    check(
        &top(
            "%c9 = cuda_tile.constant <i64: 9> : !cuda_tile.tile<i64>\n\"cuda_tile.for\"(%c0, %c9, %c1) ({\n^bb0(%i: !cuda_tile.tile<i32>):\n  cuda_tile.continue\n}) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i64>, !cuda_tile.tile<i32>) -> ()\n",
        ),
        &[
            "error 5:1: 'cuda_tile.for' op for induction, lower, upper, and step must share an integer type",
        ],
        &[
            "error 5:1: 'cuda_tile.for' op failed to verify that all of {lowerBound, upperBound, step} have same type",
        ],
    );
    clean(
        "%a = cuda_tile.constant <i64: 0> : !cuda_tile.tile<i64>\ncuda_tile.for %i in (%a to %a, step %a) : !cuda_tile.tile<i64> {\n}\n",
    );
}

#[test]
fn for_result_types() {
    let f32 = "!cuda_tile.tile<f32>";
    let src = generic_for(
        "%i: !cuda_tile.tile<i32>, %x: !cuda_tile.tile<f32>",
        &[("%f", f32)],
        &[I32],
        "%c1 : !cuda_tile.tile<i32>",
    )
    .replace(
        "%r = ",
        "%f = cuda_tile.constant <f32: 1.0> : !cuda_tile.tile<f32>\n%r = ",
    );
    check(
        &src,
        &["error 5:6: 'cuda_tile.for' op for result types must match region iter-arg types"],
        &[
            "error 5:6: 'cuda_tile.for' op failed to verify that all of {initValues, resultValues} have same type",
        ],
    );
    // NVIDIA stops at the `for`; the spec mode also reports the `continue`.
    let src = generic_for(
        "%i: !cuda_tile.tile<i32>, %x: !cuda_tile.tile<i32>",
        &[("%c1", I32)],
        &[],
        "%x : !cuda_tile.tile<i32>",
    );
    check(
        &src,
        &[
            "error 4:1: 'cuda_tile.for' op for result types must match region iter-arg types",
            "error 6:3: 'cuda_tile.continue' op early-exit operand types must match the enclosing region contract",
        ],
        &[
            "error 4:1: 'cuda_tile.for' op failed to verify that all of {initValues, resultValues} have same type",
        ],
    );
    clean(&generic_for(
        "%i: !cuda_tile.tile<i32>, %x: !cuda_tile.tile<i32>",
        &[("%c1", I32)],
        &[I32],
        "%x : !cuda_tile.tile<i32>",
    ));
}

#[test]
fn for_iter_count() {
    let src = generic_for(
        "%i: !cuda_tile.tile<i32>",
        &[("%c1", I32)],
        &[I32],
        "%c1 : !cuda_tile.tile<i32>",
    );
    check(
        &src,
        &["error 4:6: 'cuda_tile.for' op for init values must match region iter-arg types"],
        &[
            "error 4:6: 'cuda_tile.for' op mismatch in number of region iterator values and loop iterator inits: 0 vs 1",
        ],
    );
}

#[test]
fn for_iter_type() {
    let src = generic_for(
        "%i: !cuda_tile.tile<i32>, %x: !cuda_tile.tile<i1>",
        &[("%c1", I32)],
        &[I32],
        "%c1 : !cuda_tile.tile<i32>",
    );
    check(
        &src,
        &["error 4:6: 'cuda_tile.for' op for init values must match region iter-arg types"],
        &[
            "error 4:6: 'cuda_tile.for' op init value 0 and region iter_value 0 have different type: '!cuda_tile.tile<i32>' != '!cuda_tile.tile<i1>'",
        ],
    );
}

const TV: &str = "tensor_view<4xf32, strides=[1]>";
const PV: &str = "partition_view<tile=(4), tensor_view<4xf32, strides=[1]>>";

#[test]
fn for_view() {
    for (ty, kind) in [(TV, "tensor_view"), (PV, "tile view")] {
        let src = func(
            &format!("%v: !cuda_tile.{ty}, %n: !cuda_tile.tile<i32>"),
            "",
            &format!(
                "    %r = cuda_tile.for %i in (%n to %n, step %n) : !cuda_tile.tile<i32> iter_values(%x = %v) -> (!cuda_tile.{ty}) {{\n      cuda_tile.continue %x : !cuda_tile.{ty}\n    }}"
            ),
        );
        check(
            &src,
            &["error 3:10: 'cuda_tile.for' op view-typed for results are not permitted"],
            &[&format!(
                "error 3:10: 'cuda_tile.for' op loop-carried value 0 is a {kind}, which is not supported"
            )],
        );
    }
}

// ---- loop -------------------------------------------------------------------------------

/// A generic-form `loop` with the given body arguments, initial values and result types.
fn generic_loop(args: &str, inits: &[&str], types: &[&str], results: &[&str]) -> String {
    top(&format!(
        "%f = cuda_tile.constant <f32: 1.0> : !cuda_tile.tile<f32>\n%r = \"cuda_tile.loop\"({}) ({{\n^bb0({args}):\n  cuda_tile.break %f : !cuda_tile.tile<f32>\n}}) : ({}) -> ({})\n",
        inits.join(", "),
        types.join(", "),
        results.join(", "),
    ))
}

#[test]
fn loop_iter_count() {
    both(
        &generic_loop(
            "%x: !cuda_tile.tile<i32>, %y: !cuda_tile.tile<i32>",
            &["%c0"],
            &[I32],
            &["!cuda_tile.tile<f32>"],
        ),
        &[
            "error 5:6: 'cuda_tile.loop' op mismatch in number of region iterator values and loop iterator inits: 2 vs 1",
        ],
    );
    clean(&generic_loop(
        "%x: !cuda_tile.tile<i32>",
        &["%c0"],
        &[I32],
        &["!cuda_tile.tile<f32>"],
    ));
}

#[test]
fn loop_iter_type() {
    both(
        &generic_loop(
            "%x: !cuda_tile.tile<i1>",
            &["%c0"],
            &[I32],
            &["!cuda_tile.tile<f32>"],
        ),
        &[
            "error 5:6: 'cuda_tile.loop' op init value 0 and region iter_value 0 have different type: '!cuda_tile.tile<i32>' != '!cuda_tile.tile<i1>'",
        ],
    );
}

#[test]
fn loop_views() {
    for (ty, kind) in [(TV, "tensor_view"), (PV, "tile view")] {
        both(
            &func(
                &format!("%v: !cuda_tile.{ty}"),
                "",
                &format!(
                    "    cuda_tile.loop iter_values(%x = %v) : {ty} {{\n      cuda_tile.continue %x : !cuda_tile.{ty}\n    }}"
                ),
            ),
            &[&format!(
                "error 3:5: 'cuda_tile.loop' op loop-carried value 0 is a {kind}, which is not supported"
            )],
        );
        both(
            &func(
                &format!("%v: !cuda_tile.{ty}"),
                "",
                &format!(
                    "    %r = cuda_tile.loop : {ty} {{\n      cuda_tile.break %v : !cuda_tile.{ty}\n    }}"
                ),
            ),
            &[&format!(
                "error 3:10: 'cuda_tile.loop' op result type 0 is a {kind}, which is not supported"
            )],
        );
    }
    // Views may be used inside the loop; only carrying them is rejected.
    clean(&func(
        &format!("%v: !cuda_tile.{TV}, %n: !cuda_tile.tile<i32>"),
        "",
        &format!(
            "    %r = cuda_tile.loop iter_values(%x = %n) : tile<i32> -> tile<i32> {{\n      %s = cuda_tile.get_tensor_shape %v : !cuda_tile.{TV} -> !cuda_tile.tile<i32>\n      cuda_tile.break %s : !cuda_tile.tile<i32>\n    }}"
        ),
    ));
}

// ---- if ---------------------------------------------------------------------------------

#[test]
fn if_region_arguments() {
    both(
        &top(
            "\"cuda_tile.if\"(%cond) ({\n^bb0(%a: !cuda_tile.tile<i32>):\n  cuda_tile.yield\n}, {\n}) : (!cuda_tile.tile<i1>) -> ()\n",
        ),
        &["error 4:1: 'cuda_tile.if' op region #0 should have no arguments"],
    );
    clean(&top(
        "\"cuda_tile.if\"(%cond) ({\n  cuda_tile.yield\n}, {\n}) : (!cuda_tile.tile<i1>) -> ()\n",
    ));
}

#[test]
fn if_view_result() {
    for (ty, kind) in [(TV, "tensor_view"), (PV, "tile view")] {
        let src = func(
            &format!("%c: !cuda_tile.tile<i1>, %v: !cuda_tile.{ty}"),
            &format!("!cuda_tile.{ty}"),
            &format!(
                "    %r = cuda_tile.if %c -> (!cuda_tile.{ty}) {{\n      cuda_tile.return %v : !cuda_tile.{ty}\n    }} else {{\n      cuda_tile.return %v : !cuda_tile.{ty}\n    }}\n    cuda_tile.return %v : !cuda_tile.{ty}"
            ),
        );
        check(
            &src,
            &["error 3:10: 'cuda_tile.if' op view-typed if results are not permitted"],
            &[&format!(
                "error 3:10: 'cuda_tile.if' op result type 0 is a {kind}, which is not supported"
            )],
        );
    }
    // NVIDIA's verifier stops at the `if`; the spec mode also reports the returns.
    let src = func(
        &format!("%c: !cuda_tile.tile<i1>, %v: !cuda_tile.{TV}"),
        "",
        &format!(
            "    %r = cuda_tile.if %c -> (!cuda_tile.{TV}) {{\n      cuda_tile.return %v : !cuda_tile.{TV}\n    }} else {{\n      cuda_tile.yield %v : !cuda_tile.{TV}\n    }}"
        ),
    );
    check(
        &src,
        &[
            "error 3:10: 'cuda_tile.if' op view-typed if results are not permitted",
            "error 4:7: 'cuda_tile.return' op has 1 operands, but enclosing function (@f) returns 0",
        ],
        &["error 3:10: 'cuda_tile.if' op result type 0 is a tensor_view, which is not supported"],
    );
}

#[test]
fn if_else_missing() {
    check(
        &top(
            "%r = cuda_tile.if %cond -> (!cuda_tile.tile<i32>) {\n  cuda_tile.yield %c0 : !cuda_tile.tile<i32>\n}\n",
        ),
        &["error 4:6: 'cuda_tile.if' op if with results requires an else-region"],
        &["error 4:6: 'cuda_tile.if' op has non-empty return type, must define else branch"],
    );
    clean(&top(
        "%r = cuda_tile.if %cond -> (!cuda_tile.tile<i32>) {\n  cuda_tile.yield %c0 : !cuda_tile.tile<i32>\n} else {\n  cuda_tile.yield %c1 : !cuda_tile.tile<i32>\n}\ncuda_tile.if %cond {\n}\n",
    ));
}

#[test]
fn if_yields_nothing() {
    check(
        &top(
            "%r = cuda_tile.if %cond -> (!cuda_tile.tile<i32>) {\n  cuda_tile.yield %c0 : !cuda_tile.tile<i32>\n} else {\n}\n",
        ),
        &[
            "error 4:6: 'cuda_tile.if' op expect number of terminators operands (0) to match expected (1)",
        ],
        &[
            "error 4:6: 'cuda_tile.if' op has return type of '!cuda_tile.tile<i32>' but else branch does not yield anything",
        ],
    );
}

#[test]
fn if_yields_unexpected() {
    check(
        &top(
            "cuda_tile.if %cond {\n  cuda_tile.yield %c0, %c1 : !cuda_tile.tile<i32>, !cuda_tile.tile<i32>\n}\n",
        ),
        &[
            "error 4:1: 'cuda_tile.if' op expect number of terminators operands (2) to match expected (0)",
        ],
        &[
            "error 4:1: 'cuda_tile.if' op does not return a value, but then branch yields '!cuda_tile.tile<i32>', '!cuda_tile.tile<i32>'",
        ],
    );
}

#[test]
fn if_yield_arity() {
    check(
        &top(
            "%r:2 = cuda_tile.if %cond -> (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>) {\n  cuda_tile.yield %c0, %c1 : !cuda_tile.tile<i32>, !cuda_tile.tile<i32>\n} else {\n  cuda_tile.yield %c1 : !cuda_tile.tile<i32>\n}\n",
        ),
        &[
            "error 4:8: 'cuda_tile.if' op expect number of terminators operands (1) to match expected (2)",
        ],
        &[
            "error 4:8: 'cuda_tile.if' op type does not match yield type, else branch yields '!cuda_tile.tile<i32>' but op result type is '!cuda_tile.tile<i32>', '!cuda_tile.tile<i32>'",
        ],
    );
}

#[test]
fn if_yield_type() {
    check(
        &top(
            "%r:2 = cuda_tile.if %cond -> (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>) {\n  cuda_tile.yield %c0, %cond : !cuda_tile.tile<i32>, !cuda_tile.tile<i1>\n} else {\n  cuda_tile.yield %c0, %c1 : !cuda_tile.tile<i32>, !cuda_tile.tile<i32>\n}\n",
        ),
        &[
            "error 4:8: 'cuda_tile.if' op expected TileType for operand and terminator types but got: '!cuda_tile.tile<i1>' vs '!cuda_tile.tile<i32>'",
        ],
        &[
            "error 4:8: 'cuda_tile.if' op type does not match yield type, then branch yields '!cuda_tile.tile<i32>', '!cuda_tile.tile<i1>' but op result type is '!cuda_tile.tile<i32>', '!cuda_tile.tile<i32>'",
        ],
    );
}

#[test]
fn if_branches_may_leave_instead_of_yielding() {
    clean(&top(
        "%r = cuda_tile.loop : tile<i32> {\n  %v = cuda_tile.if %cond -> (!cuda_tile.tile<i32>) {\n    cuda_tile.break %c0 : !cuda_tile.tile<i32>\n  } else {\n    cuda_tile.yield %c1 : !cuda_tile.tile<i32>\n  }\n  cuda_tile.continue\n}\n",
    ));
    clean(&func(
        "%c: !cuda_tile.tile<i1>, %a: !cuda_tile.tile<i32>",
        "!cuda_tile.tile<i32>",
        "    %r = cuda_tile.if %c -> (!cuda_tile.tile<i32>) {\n      cuda_tile.return %a : !cuda_tile.tile<i32>\n    } else {\n      cuda_tile.yield %a : !cuda_tile.tile<i32>\n    }\n    cuda_tile.return %r : !cuda_tile.tile<i32>",
    ));
    clean(&top(
        "cuda_tile.assert %cond, \"never\" : !cuda_tile.tile<i1>\n",
    ));
}

//! The canonicalizer's rules one by one (canonicalizers-and-folds.md): for each fold and
//! pattern of `tilec_ir::ops::Rule` a test where it fires (exact output and its `--stats`
//! count) and tests where its predicate does not hold (output unchanged); the spec's worked
//! examples for CombineIfs and CombineNestedIfs; and the token-ordering contract. The select
//! rules are in canon_select.rs, FoldAddF in canon_float.rs.
//!
//! Every output is also re-verified, re-printed and re-canonicalized (see canon_common.rs).

mod canon_common;

use canon_common::{canon, fmt, tko_count};

/// The input shared by several tests below.
const ADDF_MUL_LHS_FIRES_IN_COMPAT_INPUT: &str = r#"
cuda_tile.module @m {
  testing$func @f(%a: tile<f32>, %b: tile<f32>, %c: tile<f32>) -> tile<f32> {
    %m = mulf %a, %b : tile<f32>
    %r = addf %c, %m rounding<zero> flush_to_zero : tile<f32>
    return %r : tile<f32>
  }
}
"#;

/// FoldConstant: equal constants (same value and type) are merged into the first one, which
/// moves to the function's entry block with the other constants, also from inside a branch.
#[test]
fn fold_constant_uniques_and_hoists() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%a: tile<i32>, %c: tile<i1>) -> tile<i32> {
    %x = addi %a, %a : tile<i32>
    %one = constant <i32: 1> : tile<i32>
    %y = addi %x, %one : tile<i32>
    %r = if %c -> (tile<i32>) {
      %one_again = constant <i32: 1> : tile<i32>
      %z = divi %y, %one_again signed : tile<i32>
      yield %z : tile<i32>
    } else {
      %two = constant <i32: 2> : tile<i32>
      %w = divi %y, %two signed : tile<i32>
      yield %w : tile<i32>
    }
    return %r : tile<i32>
  }
}
"#;
    let out = canon(&["--no-simplify"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i32>, %arg1: tile<i1>) -> tile<i32> {
    %cst_2_i32 = constant <i32: 2> : tile<i32>
    %cst_1_i32 = constant <i32: 1> : tile<i32>
    %0 = addi %arg0, %arg0 : tile<i32>
    %1 = addi %0, %cst_1_i32 : tile<i32>
    %2 = if %arg1 -> (tile<i32>) {
      %3 = divi %1, %cst_1_i32 signed : tile<i32>
      yield %3 : tile<i32>
    } else {
      %3 = divi %1, %cst_2_i32 signed : tile<i32>
      yield %3 : tile<i32>
    }
    return %2 : tile<i32>
  }
}
"#,
    );
    out.assert_stat("FoldConstant", 1);
}

/// FoldConstant: constants that differ in value or in type are not merged; constants already at
/// the top of the entry block stay in place.
#[test]
fn fold_constant_keeps_distinct_constants() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%a: tile<i32>) -> tile<i64> {
    %one = constant <i32: 1> : tile<i32>
    %two = constant <i32: 2> : tile<i32>
    %one64 = constant <i64: 1> : tile<i64>
    %x = divi %a, %one signed : tile<i32>
    %y = divi %x, %two signed : tile<i32>
    %e = exti %y signed : tile<i32> -> tile<i64>
    %z = divi %e, %one64 signed : tile<i64>
    return %z : tile<i64>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i32>) -> tile<i64> {
    %cst_1_i32 = constant <i32: 1> : tile<i32>
    %cst_2_i32 = constant <i32: 2> : tile<i32>
    %cst_1_i64 = constant <i64: 1> : tile<i64>
    %0 = divi %arg0, %cst_1_i32 signed : tile<i32>
    %1 = divi %0, %cst_2_i32 signed : tile<i32>
    %2 = exti %1 signed : tile<i32> -> tile<i64>
    %3 = divi %2, %cst_1_i64 signed : tile<i64>
    return %3 : tile<i64>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("FoldConstant");
}

/// FoldConstant: constants are uniqued per function, never across functions.
#[test]
fn fold_constant_per_function() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%a: tile<i32>) -> tile<i32> {
    %one = constant <i32: 1> : tile<i32>
    %x = divi %a, %one signed : tile<i32>
    return %x : tile<i32>
  }
  testing$func @g(%a: tile<i32>) -> tile<i32> {
    %one = constant <i32: 1> : tile<i32>
    %x = divi %a, %one signed : tile<i32>
    return %x : tile<i32>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i32>) -> tile<i32> {
    %cst_1_i32 = constant <i32: 1> : tile<i32>
    %0 = divi %arg0, %cst_1_i32 signed : tile<i32>
    return %0 : tile<i32>
  }
  testing$func @g(%arg0: tile<i32>) -> tile<i32> {
    %cst_1_i32 = constant <i32: 1> : tile<i32>
    %0 = divi %arg0, %cst_1_i32 signed : tile<i32>
    return %0 : tile<i32>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("FoldConstant");
}

/// FoldIfInversion: `if (xori(c, true)) A else B` becomes `if (c) B else A`; the negation is then
/// dead and erased.
#[test]
fn fold_if_inversion_swaps_branches() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%x: tile<i32>, %y: tile<i32>, %c: tile<i1>) -> tile<i32> {
    %true = constant <i1: true> : tile<i1>
    %n = xori %c, %true : tile<i1>
    %r = if %n -> (tile<i32>) {
      %a = addi %x, %y : tile<i32>
      yield %a : tile<i32>
    } else {
      %b = muli %x, %y : tile<i32>
      yield %b : tile<i32>
    }
    return %r : tile<i32>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i32>, %arg1: tile<i32>, %arg2: tile<i1>) -> tile<i32> {
    %0 = if %arg2 -> (tile<i32>) {
      %1 = muli %arg0, %arg1 : tile<i32>
      yield %1 : tile<i32>
    } else {
      %1 = addi %arg0, %arg1 : tile<i32>
      yield %1 : tile<i32>
    }
    return %0 : tile<i32>
  }
}
"#,
    );
    out.assert_stat("FoldIfInversion", 1);
}

/// FoldIfInversion on an `if` without results: the branches (with their side effects) swap.
#[test]
fn fold_if_inversion_without_result_swaps_side_effects() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%x: tile<i32>, %y: tile<i32>, %c: tile<i1>) {
    %true = constant <i1: true> : tile<i1>
    %n = xori %c, %true : tile<i1>
    if %n {
      print "then %d", %x : tile<i32>
    } else {
      print "else %d", %y : tile<i32>
    }
    return
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i32>, %arg1: tile<i32>, %arg2: tile<i1>) {
    if %arg2 {
      print "else %d", %arg1 : tile<i32>
    } else {
      print "then %d", %arg0 : tile<i32>
    }
    return
  }
}
"#,
    );
    out.assert_stat("FoldIfInversion", 1);
}

/// FoldIfInversion does not apply without an else region, when `true` is the LHS of the xori (the
/// spec's predicate names the RHS), when the RHS is `false` or not a constant.
#[test]
fn fold_if_inversion_negative() {
    let src = r#"
cuda_tile.module @m {
  testing$func @no_else(%x: tile<i32>, %c: tile<i1>) {
    %true = constant <i1: true> : tile<i1>
    %n = xori %c, %true : tile<i1>
    if %n {
      print "%d", %x : tile<i32>
    }
    return
  }
  testing$func @true_on_lhs(%x: tile<i32>, %y: tile<i32>, %c: tile<i1>) -> tile<i32> {
    %true = constant <i1: true> : tile<i1>
    %n = xori %true, %c : tile<i1>
    %r = if %n -> (tile<i32>) {
      %a = addi %x, %y : tile<i32>
      yield %a : tile<i32>
    } else {
      %b = muli %x, %y : tile<i32>
      yield %b : tile<i32>
    }
    return %r : tile<i32>
  }
  testing$func @xor_false(%x: tile<i32>, %y: tile<i32>, %c: tile<i1>) -> tile<i32> {
    %false = constant <i1: false> : tile<i1>
    %n = xori %c, %false : tile<i1>
    %r = if %n -> (tile<i32>) {
      %a = addi %x, %y : tile<i32>
      yield %a : tile<i32>
    } else {
      %b = muli %x, %y : tile<i32>
      yield %b : tile<i32>
    }
    return %r : tile<i32>
  }
  testing$func @xor_var(%x: tile<i32>, %y: tile<i32>, %c: tile<i1>, %d: tile<i1>) -> tile<i32> {
    %n = xori %c, %d : tile<i1>
    %r = if %n -> (tile<i32>) {
      %a = addi %x, %y : tile<i32>
      yield %a : tile<i32>
    } else {
      %b = muli %x, %y : tile<i32>
      yield %b : tile<i32>
    }
    return %r : tile<i32>
  }
}
"#;
    let out = canon(&["--no-simplify"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @no_else(%arg0: tile<i32>, %arg1: tile<i1>) {
    %true = constant <i1: true> : tile<i1>
    %0 = xori %arg1, %true : tile<i1>
    if %0 {
      print "%d", %arg0 : tile<i32>
    }
    return
  }
  testing$func @true_on_lhs(%arg0: tile<i32>, %arg1: tile<i32>, %arg2: tile<i1>) -> tile<i32> {
    %true = constant <i1: true> : tile<i1>
    %0 = xori %true, %arg2 : tile<i1>
    %1 = if %0 -> (tile<i32>) {
      %2 = addi %arg0, %arg1 : tile<i32>
      yield %2 : tile<i32>
    } else {
      %2 = muli %arg0, %arg1 : tile<i32>
      yield %2 : tile<i32>
    }
    return %1 : tile<i32>
  }
  testing$func @xor_false(%arg0: tile<i32>, %arg1: tile<i32>, %arg2: tile<i1>) -> tile<i32> {
    %false = constant <i1: false> : tile<i1>
    %0 = xori %arg2, %false : tile<i1>
    %1 = if %0 -> (tile<i32>) {
      %2 = addi %arg0, %arg1 : tile<i32>
      yield %2 : tile<i32>
    } else {
      %2 = muli %arg0, %arg1 : tile<i32>
      yield %2 : tile<i32>
    }
    return %1 : tile<i32>
  }
  testing$func @xor_var(%arg0: tile<i32>, %arg1: tile<i32>, %arg2: tile<i1>, %arg3: tile<i1>) -> tile<i32> {
    %0 = xori %arg2, %arg3 : tile<i1>
    %1 = if %0 -> (tile<i32>) {
      %2 = addi %arg0, %arg1 : tile<i32>
      yield %2 : tile<i32>
    } else {
      %2 = muli %arg0, %arg1 : tile<i32>
      yield %2 : tile<i32>
    }
    return %1 : tile<i32>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("FoldIfInversion");
}

/// RemoveUnusedResults: the unused second result and its yield operands go.
#[test]
fn remove_unused_results_fires() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%a: tile<i32>, %b: tile<i32>, %c: tile<i1>) -> tile<i32> {
    %r, %s = if %c -> (tile<i32>, tile<i32>) {
      %x = addi %a, %b : tile<i32>
      yield %x, %a : tile<i32>, tile<i32>
    } else {
      %y = subi %a, %b : tile<i32>
      yield %y, %b : tile<i32>, tile<i32>
    }
    return %r : tile<i32>
  }
}
"#;
    let out = canon(&["--enable-patterns=RemoveUnusedResults"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i32>, %arg1: tile<i32>, %arg2: tile<i1>) -> tile<i32> {
    %0 = if %arg2 -> (tile<i32>) {
      %1 = addi %arg0, %arg1 : tile<i32>
      yield %1 : tile<i32>
    } else {
      %1 = subi %arg0, %arg1 : tile<i32>
      yield %1 : tile<i32>
    }
    return %0 : tile<i32>
  }
}
"#,
    );
    out.assert_stat("RemoveUnusedResults", 1);
}

/// RemoveUnusedResults on an `if` whose results are all unused but whose branch prints: the `if`
/// stays, without results (and the now empty else goes too).
#[test]
fn remove_unused_results_keeps_side_effects() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%a: tile<i32>, %b: tile<i32>, %c: tile<i1>) {
    %r = if %c -> (tile<i32>) {
      print "%d", %a : tile<i32>
      yield %a : tile<i32>
    } else {
      yield %b : tile<i32>
    }
    return
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i32>, %arg1: tile<i32>, %arg2: tile<i1>) {
    if %arg2 {
      print "%d", %arg0 : tile<i32>
    }
    return
  }
}
"#,
    );
    out.assert_stat("RemoveUnusedResults", 1);
    out.assert_stat("RemoveEmptyElseBranch", 1);
}

/// RemoveUnusedResults does not apply when every result is used.
#[test]
fn remove_unused_results_negative() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%a: tile<i32>, %b: tile<i32>, %c: tile<i1>) -> (tile<i32>, tile<i32>) {
    %r, %s = if %c -> (tile<i32>, tile<i32>) {
      %x = addi %a, %b : tile<i32>
      yield %x, %a : tile<i32>, tile<i32>
    } else {
      %y = subi %a, %b : tile<i32>
      yield %y, %b : tile<i32>, tile<i32>
    }
    return %r, %s : tile<i32>, tile<i32>
  }
}
"#;
    let out = canon(&["--enable-patterns=RemoveUnusedResults"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i32>, %arg1: tile<i32>, %arg2: tile<i1>) -> (tile<i32>, tile<i32>) {
    %0:2 = if %arg2 -> (tile<i32>, tile<i32>) {
      %1 = addi %arg0, %arg1 : tile<i32>
      yield %1, %arg0 : tile<i32>, tile<i32>
    } else {
      %1 = subi %arg0, %arg1 : tile<i32>
      yield %1, %arg1 : tile<i32>, tile<i32>
    }
    return %0#0, %0#1 : tile<i32>, tile<i32>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("RemoveUnusedResults");
}

/// ReplaceYieldWithValue: a result both branches yield as the same value is that value; when one
/// branch returns, a result the other yields as a value defined above the `if` is that value.
#[test]
fn replace_yield_with_value_fires() {
    let src = r#"
cuda_tile.module @m {
  testing$func @same(%a: tile<i32>, %b: tile<i32>, %c: tile<i1>) -> (tile<i32>, tile<i32>) {
    %r, %s = if %c -> (tile<i32>, tile<i32>) {
      %x = addi %a, %b : tile<i32>
      yield %x, %a : tile<i32>, tile<i32>
    } else {
      %y = subi %a, %b : tile<i32>
      yield %y, %a : tile<i32>, tile<i32>
    }
    return %r, %s : tile<i32>, tile<i32>
  }
  testing$func @exit(%a: tile<i32>, %b: tile<i32>, %c: tile<i1>) -> tile<i32> {
    %r, %s = if %c -> (tile<i32>, tile<i32>) {
      yield %a, %b : tile<i32>, tile<i32>
    } else {
      return %b : tile<i32>
    }
    %t = addi %r, %s : tile<i32>
    return %t : tile<i32>
  }
}
"#;
    let out = canon(&["--enable-patterns=ReplaceYieldWithValue"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @same(%arg0: tile<i32>, %arg1: tile<i32>, %arg2: tile<i1>) -> (tile<i32>, tile<i32>) {
    %0:2 = if %arg2 -> (tile<i32>, tile<i32>) {
      %1 = addi %arg0, %arg1 : tile<i32>
      yield %1, %arg0 : tile<i32>, tile<i32>
    } else {
      %1 = subi %arg0, %arg1 : tile<i32>
      yield %1, %arg0 : tile<i32>, tile<i32>
    }
    return %0#0, %arg0 : tile<i32>, tile<i32>
  }
  testing$func @exit(%arg0: tile<i32>, %arg1: tile<i32>, %arg2: tile<i1>) -> tile<i32> {
    %0:2 = if %arg2 -> (tile<i32>, tile<i32>) {
      yield %arg0, %arg1 : tile<i32>, tile<i32>
    } else {
      return %arg1 : tile<i32>
    }
    %1 = addi %arg0, %arg1 : tile<i32>
    return %1 : tile<i32>
  }
}
"#,
    );
    out.assert_stat("ReplaceYieldWithValue", 2);
}

/// ReplaceYieldWithValue does not apply to results yielded as different values, nor when the
/// non-exiting branch yields a value it defines itself (it does not dominate the uses).
#[test]
fn replace_yield_with_value_negative() {
    let src = r#"
cuda_tile.module @m {
  testing$func @different(%a: tile<i32>, %b: tile<i32>, %c: tile<i1>) -> tile<i32> {
    %r = if %c -> (tile<i32>) {
      yield %a : tile<i32>
    } else {
      yield %b : tile<i32>
    }
    return %r : tile<i32>
  }
  testing$func @inside(%a: tile<i32>, %b: tile<i32>, %c: tile<i1>) -> tile<i32> {
    %r = if %c -> (tile<i32>) {
      %x = addi %a, %b : tile<i32>
      yield %x : tile<i32>
    } else {
      return %b : tile<i32>
    }
    return %r : tile<i32>
  }
}
"#;
    let out = canon(&["--enable-patterns=ReplaceYieldWithValue"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @different(%arg0: tile<i32>, %arg1: tile<i32>, %arg2: tile<i1>) -> tile<i32> {
    %0 = if %arg2 -> (tile<i32>) {
      yield %arg0 : tile<i32>
    } else {
      yield %arg1 : tile<i32>
    }
    return %0 : tile<i32>
  }
  testing$func @inside(%arg0: tile<i32>, %arg1: tile<i32>, %arg2: tile<i1>) -> tile<i32> {
    %0 = if %arg2 -> (tile<i32>) {
      %1 = addi %arg0, %arg1 : tile<i32>
      yield %1 : tile<i32>
    } else {
      return %arg1 : tile<i32>
    }
    return %0 : tile<i32>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("ReplaceYieldWithValue");
}

/// RemoveStaticCondition: `if true` / `if false` become the chosen branch's ops; `if false` without
/// an else disappears.
#[test]
fn remove_static_condition_fires() {
    let src = r#"
cuda_tile.module @m {
  testing$func @t(%a: tile<i32>, %b: tile<i32>) -> tile<i32> {
    %true = constant <i1: true> : tile<i1>
    %r = if %true -> (tile<i32>) {
      %x = addi %a, %b : tile<i32>
      yield %x : tile<i32>
    } else {
      yield %b : tile<i32>
    }
    return %r : tile<i32>
  }
  testing$func @f(%a: tile<i32>, %b: tile<i32>) -> tile<i32> {
    %false = constant <i1: false> : tile<i1>
    %r = if %false -> (tile<i32>) {
      %x = addi %a, %b : tile<i32>
      yield %x : tile<i32>
    } else {
      print "%d", %a : tile<i32>
      %y = muli %a, %b : tile<i32>
      yield %y : tile<i32>
    }
    return %r : tile<i32>
  }
  testing$func @f_no_else(%a: tile<i32>) {
    %false = constant <i1: false> : tile<i1>
    if %false {
      print "%d", %a : tile<i32>
    }
    return
  }
}
"#;
    let out = canon(&["--enable-patterns=RemoveStaticCondition"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @t(%arg0: tile<i32>, %arg1: tile<i32>) -> tile<i32> {
    %0 = addi %arg0, %arg1 : tile<i32>
    return %0 : tile<i32>
  }
  testing$func @f(%arg0: tile<i32>, %arg1: tile<i32>) -> tile<i32> {
    print "%d", %arg0 : tile<i32>
    %0 = muli %arg0, %arg1 : tile<i32>
    return %0 : tile<i32>
  }
  testing$func @f_no_else(%arg0: tile<i32>) {
    return
  }
}
"#,
    );
    out.assert_stat("RemoveStaticCondition", 3);
}

/// RemoveStaticCondition when the chosen branch returns or breaks: the terminator moves into the
/// parent block and the unreachable rest of the block goes.
#[test]
fn remove_static_condition_with_exits() {
    let src = r#"
cuda_tile.module @m {
  testing$func @ret(%a: tile<i32>, %b: tile<i32>) -> tile<i32> {
    %true = constant <i1: true> : tile<i1>
    %r = if %true -> (tile<i32>) {
      return %a : tile<i32>
    } else {
      yield %b : tile<i32>
    }
    %s = addi %r, %b : tile<i32>
    return %s : tile<i32>
  }
  testing$func @brk(%a: tile<i32>) -> tile<i32> {
    %true = constant <i1: true> : tile<i1>
    %l = loop iter_values(%x = %a) : tile<i32> -> tile<i32> {
      %r = if %true -> (tile<i32>) {
        break %x : tile<i32>
      } else {
        yield %a : tile<i32>
      }
      %s = addi %r, %x : tile<i32>
      continue %s : tile<i32>
    }
    return %l : tile<i32>
  }
}
"#;
    let out = canon(&["--enable-patterns=RemoveStaticCondition"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @ret(%arg0: tile<i32>, %arg1: tile<i32>) -> tile<i32> {
    return %arg0 : tile<i32>
  }
  testing$func @brk(%arg0: tile<i32>) -> tile<i32> {
    %0 = loop iter_values(%arg1 = %arg0) : tile<i32> -> tile<i32> {
      break %arg1 : tile<i32>
    }
    return %0 : tile<i32>
  }
}
"#,
    );
    out.assert_stat("RemoveStaticCondition", 2);
}

/// RemoveStaticCondition does not apply when it would drop a token-ordered memory operation: in
/// the branch not taken (with or without results), or after a `return` the chosen branch moves
/// up (unreachable, but never erased).
#[test]
fn remove_static_condition_negative_token_ordered() {
    let src = r#"
cuda_tile.module @m {
  testing$func @dropped_branch(%p: tile<ptr<i32>>, %a: tile<i32>, %b: tile<i32>) -> tile<i32> {
    %false = constant <i1: false> : tile<i1>
    %r = if %false -> (tile<i32>) {
      %t = store_ptr_tko weak %p, %a : tile<ptr<i32>>, tile<i32> -> token
      yield %a : tile<i32>
    } else {
      yield %b : tile<i32>
    }
    return %r : tile<i32>
  }
  testing$func @no_else(%p: tile<ptr<i32>>, %a: tile<i32>) {
    %false = constant <i1: false> : tile<i1>
    if %false {
      %t = store_ptr_tko weak %p, %a : tile<ptr<i32>>, tile<i32> -> token
    }
    return
  }
  testing$func @unreachable_tail(%p: tile<ptr<i32>>, %a: tile<i32>, %b: tile<i32>) -> tile<i32> {
    %true = constant <i1: true> : tile<i1>
    %r = if %true -> (tile<i32>) {
      return %a : tile<i32>
    } else {
      yield %b : tile<i32>
    }
    %t = store_ptr_tko weak %p, %r : tile<ptr<i32>>, tile<i32> -> token
    return %r : tile<i32>
  }
}
"#;
    let out = canon(&["--enable-patterns=RemoveStaticCondition"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @dropped_branch(%arg0: tile<ptr<i32>>, %arg1: tile<i32>, %arg2: tile<i32>) -> tile<i32> {
    %false = constant <i1: false> : tile<i1>
    %0 = if %false -> (tile<i32>) {
      %1 = store_ptr_tko weak %arg0, %arg1 : tile<ptr<i32>>, tile<i32> -> token
      yield %arg1 : tile<i32>
    } else {
      yield %arg2 : tile<i32>
    }
    return %0 : tile<i32>
  }
  testing$func @no_else(%arg0: tile<ptr<i32>>, %arg1: tile<i32>) {
    %false = constant <i1: false> : tile<i1>
    if %false {
      %0 = store_ptr_tko weak %arg0, %arg1 : tile<ptr<i32>>, tile<i32> -> token
    }
    return
  }
  testing$func @unreachable_tail(%arg0: tile<ptr<i32>>, %arg1: tile<i32>, %arg2: tile<i32>) -> tile<i32> {
    %true = constant <i1: true> : tile<i1>
    %0 = if %true -> (tile<i32>) {
      return %arg1 : tile<i32>
    } else {
      yield %arg2 : tile<i32>
    }
    %1 = store_ptr_tko weak %arg0, %0 : tile<ptr<i32>>, tile<i32> -> token
    return %0 : tile<i32>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("RemoveStaticCondition");
}

/// ConvertToSelect: yield-only branches yielding rank-0 tiles defined above become one `select`
/// per result.
#[test]
fn convert_to_select_fires() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%a: tile<i32>, %b: tile<i32>, %x: tile<f16>, %c: tile<i1>) -> (tile<i32>, tile<i32>, tile<f16>) {
    %r, %s, %t = if %c -> (tile<i32>, tile<i32>, tile<f16>) {
      yield %a, %b, %x : tile<i32>, tile<i32>, tile<f16>
    } else {
      yield %b, %a, %x : tile<i32>, tile<i32>, tile<f16>
    }
    return %r, %s, %t : tile<i32>, tile<i32>, tile<f16>
  }
}
"#;
    let out = canon(&["--enable-patterns=ConvertToSelect"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i32>, %arg1: tile<i32>, %arg2: tile<f16>, %arg3: tile<i1>) -> (tile<i32>, tile<i32>, tile<f16>) {
    %0 = select %arg3, %arg0, %arg1 : tile<i1>, tile<i32>
    %1 = select %arg3, %arg1, %arg0 : tile<i1>, tile<i32>
    return %0, %1, %arg2 : tile<i32>, tile<i32>, tile<f16>
  }
}
"#,
    );
    out.assert_stat("ConvertToSelect", 1);
}

/// ConvertToSelect (spec personality) does not apply to token results, to tiles of rank above 0,
/// when a yielded value is defined inside a branch, or when a branch does more than yield.
#[test]
fn convert_to_select_negative() {
    let src = r#"
cuda_tile.module @m {
  testing$func @vector(%a: tile<4xi32>, %b: tile<4xi32>, %c: tile<i1>) -> tile<4xi32> {
    %r = if %c -> (tile<4xi32>) {
      yield %a : tile<4xi32>
    } else {
      yield %b : tile<4xi32>
    }
    return %r : tile<4xi32>
  }
  testing$func @token(%a: token, %b: token, %c: tile<i1>) -> token {
    %r = if %c -> (token) {
      yield %a : token
    } else {
      yield %b : token
    }
    return %r : token
  }
  testing$func @inside(%a: tile<i32>, %b: tile<i32>, %c: tile<i1>) -> (tile<i32>, tile<i32>) {
    %r, %s = if %c -> (tile<i32>, tile<i32>) {
      %x = addi %a, %b : tile<i32>
      yield %a, %x : tile<i32>, tile<i32>
    } else {
      yield %b, %a : tile<i32>, tile<i32>
    }
    return %r, %s : tile<i32>, tile<i32>
  }
  testing$func @not_yield_only(%a: tile<i32>, %b: tile<i32>, %c: tile<i1>) -> tile<i32> {
    %r = if %c -> (tile<i32>) {
      print "%d", %a : tile<i32>
      yield %a : tile<i32>
    } else {
      yield %b : tile<i32>
    }
    return %r : tile<i32>
  }
}
"#;
    let out = canon(&["--enable-patterns=ConvertToSelect"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @vector(%arg0: tile<4xi32>, %arg1: tile<4xi32>, %arg2: tile<i1>) -> tile<4xi32> {
    %0 = if %arg2 -> (tile<4xi32>) {
      yield %arg0 : tile<4xi32>
    } else {
      yield %arg1 : tile<4xi32>
    }
    return %0 : tile<4xi32>
  }
  testing$func @token(%arg0: token, %arg1: token, %arg2: tile<i1>) -> token {
    %0 = if %arg2 -> (token) {
      yield %arg0 : token
    } else {
      yield %arg1 : token
    }
    return %0 : token
  }
  testing$func @inside(%arg0: tile<i32>, %arg1: tile<i32>, %arg2: tile<i1>) -> (tile<i32>, tile<i32>) {
    %0:2 = if %arg2 -> (tile<i32>, tile<i32>) {
      %1 = addi %arg0, %arg1 : tile<i32>
      yield %arg0, %1 : tile<i32>, tile<i32>
    } else {
      yield %arg1, %arg0 : tile<i32>, tile<i32>
    }
    return %0#0, %0#1 : tile<i32>, tile<i32>
  }
  testing$func @not_yield_only(%arg0: tile<i32>, %arg1: tile<i32>, %arg2: tile<i1>) -> tile<i32> {
    %0 = if %arg2 -> (tile<i32>) {
      print "%d", %arg0 : tile<i32>
      yield %arg0 : tile<i32>
    } else {
      yield %arg1 : tile<i32>
    }
    return %0 : tile<i32>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("ConvertToSelect");
}

/// ConvertToSelect in the cuda-tile-opt personality converts the convertible results and keeps an
/// `if` for the others (NVIDIA's `test_if_select_many`); in 13.1 tokens and vectors still stay.
#[test]
fn convert_to_select_compat_converts_what_it_can() {
    let src = r#"
cuda_tile.module @m {
  testing$func @inside(%a: tile<i32>, %b: tile<i32>, %c: tile<i1>) -> (tile<i32>, tile<i32>) {
    %r, %s = if %c -> (tile<i32>, tile<i32>) {
      %x = addi %a, %b : tile<i32>
      yield %a, %x : tile<i32>, tile<i32>
    } else {
      yield %b, %a : tile<i32>, tile<i32>
    }
    return %r, %s : tile<i32>, tile<i32>
  }
  testing$func @printing(%a: tile<i32>, %b: tile<i32>, %c: tile<i1>) -> tile<i32> {
    %r = if %c -> (tile<i32>) {
      print "%d", %a : tile<i32>
      yield %a : tile<i32>
    } else {
      yield %b : tile<i32>
    }
    return %r : tile<i32>
  }
  testing$func @mixed(%a: tile<i32>, %v: tile<4xi32>, %w: tile<4xi32>, %c: tile<i1>) -> (tile<i32>, tile<4xi32>) {
    %r, %s = if %c -> (tile<i32>, tile<4xi32>) {
      yield %a, %v : tile<i32>, tile<4xi32>
    } else {
      yield %a, %w : tile<i32>, tile<4xi32>
    }
    return %r, %s : tile<i32>, tile<4xi32>
  }
}
"#;
    let out = canon(
        &[
            "--compat=cuda-tile-opt",
            "--cuda-tile-release=13.1",
            "--enable-patterns=ConvertToSelect,RemoveEmptyElseBranch",
        ],
        src,
    );
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @inside(%arg0: tile<i32>, %arg1: tile<i32>, %arg2: tile<i1>) -> (tile<i32>, tile<i32>) {
    %0 = select %arg2, %arg0, %arg1 : tile<i1>, tile<i32>
    %1 = if %arg2 -> (tile<i32>) {
      %2 = addi %arg0, %arg1 : tile<i32>
      yield %2 : tile<i32>
    } else {
      yield %arg0 : tile<i32>
    }
    return %0, %1 : tile<i32>, tile<i32>
  }
  testing$func @printing(%arg0: tile<i32>, %arg1: tile<i32>, %arg2: tile<i1>) -> tile<i32> {
    %0 = select %arg2, %arg0, %arg1 : tile<i1>, tile<i32>
    if %arg2 {
      print "%d", %arg0 : tile<i32>
    }
    return %0 : tile<i32>
  }
  testing$func @mixed(%arg0: tile<i32>, %arg1: tile<4xi32>, %arg2: tile<4xi32>, %arg3: tile<i1>) -> (tile<i32>, tile<4xi32>) {
    %0 = if %arg3 -> (tile<4xi32>) {
      yield %arg1 : tile<4xi32>
    } else {
      yield %arg2 : tile<4xi32>
    }
    return %arg0, %0 : tile<i32>, tile<4xi32>
  }
}
"#,
    );
    out.assert_stat("ConvertToSelect", 3);
    out.assert_stat("RemoveEmptyElseBranch", 1);
}

/// NVIDIA's 13.3 converts tile results of any rank too: the condition is reshaped to
/// 1x...x1 and broadcast to the values' shape.
#[test]
fn convert_to_select_13_3_converts_tiles_of_any_rank() {
    let src = r#"
cuda_tile.module @m {
  testing$func @mixed(%a: tile<i32>, %v: tile<4x2xi32>, %w: tile<4x2xi32>, %c: tile<i1>) -> (tile<i32>, tile<4x2xi32>) {
    %r, %s = if %c -> (tile<i32>, tile<4x2xi32>) {
      yield %a, %v : tile<i32>, tile<4x2xi32>
    } else {
      yield %a, %w : tile<i32>, tile<4x2xi32>
    }
    return %r, %s : tile<i32>, tile<4x2xi32>
  }
}
"#;
    let out = canon(
        &[
            "--compat=cuda-tile-opt",
            "--enable-patterns=ConvertToSelect",
        ],
        src,
    );
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @mixed(%arg0: tile<i32>, %arg1: tile<4x2xi32>, %arg2: tile<4x2xi32>, %arg3: tile<i1>) -> (tile<i32>, tile<4x2xi32>) {
    %reshape = reshape %arg3 : tile<i1> -> tile<1x1xi1>
    %bcast = broadcast %reshape : tile<1x1xi1> -> tile<4x2xi1>
    %0 = select %bcast, %arg1, %arg2 : tile<4x2xi1>, tile<4x2xi32>
    return %arg0, %0 : tile<i32>, tile<4x2xi32>
  }
}
"#,
    );
    out.assert_stat("ConvertToSelect", 1);
}

/// SelectToExtI (NVIDIA's 13.3): `select(c, 1, 0)` is `exti c unsigned` and
/// `select(c, 0, 1)` `exti (xori c, true) unsigned`; not in 13.1 nor in the spec's
/// personality.
#[test]
fn select_to_exti_fires_in_13_3() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%c: tile<4xi1>) -> (tile<4xi32>, tile<4xi8>) {
    %one = constant <i32: 1> : tile<4xi32>
    %zero = constant <i32: 0> : tile<4xi32>
    %a = select %c, %one, %zero : tile<4xi1>, tile<4xi32>
    %one8 = constant <i8: 1> : tile<4xi8>
    %zero8 = constant <i8: 0> : tile<4xi8>
    %b = select %c, %zero8, %one8 : tile<4xi1>, tile<4xi8>
    return %a, %b : tile<4xi32>, tile<4xi8>
  }
}
"#;
    let out = canon(&["--compat=cuda-tile-opt"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<4xi1>) -> (tile<4xi32>, tile<4xi8>) {
    %true = constant <i1: true> : tile<4xi1>
    %0 = exti %arg0 unsigned : tile<4xi1> -> tile<4xi32>
    %1 = xori %arg0, %true : tile<4xi1>
    %2 = exti %1 unsigned : tile<4xi1> -> tile<4xi8>
    return %0, %2 : tile<4xi32>, tile<4xi8>
  }
}
"#,
    );
    out.assert_stat("SelectToExtI", 2);
    canon(&["--compat=cuda-tile-opt", "--cuda-tile-release=13.1"], src)
        .assert_no_stat("SelectToExtI");
    canon(&[], src).assert_no_stat("SelectToExtI");
}

/// FoldRepeatedAssume (NVIDIA's 13.3): the second of two identical assumptions goes.
#[test]
fn repeated_assumptions_fold_in_13_3() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%p: tile<ptr<f32>>, %i: tile<i32>) -> (tile<ptr<f32>>, tile<i32>) {
    %a = assume div_by<16>, %p : tile<ptr<f32>>
    %b = assume div_by<16>, %a : tile<ptr<f32>>
    %c = assume div_by<8>, %b : tile<ptr<f32>>
    %d = assume bounded<0, 42>, %i : tile<i32>
    %e = assume bounded<0, 42>, %d : tile<i32>
    return %c, %e : tile<ptr<f32>>, tile<i32>
  }
}
"#;
    let out = canon(&["--compat=cuda-tile-opt"], src);
    out.assert_stat("FoldRepeatedAssume", 2);
    let text = &out.stdout;
    assert_eq!(text.matches("div_by<16>").count(), 1, "{text}");
    assert_eq!(text.matches("bounded<0, 42>").count(), 1, "{text}");
    assert!(text.contains("div_by<8>"), "{text}");
    canon(&[], src).assert_no_stat("FoldRepeatedAssume");
}

/// RemoveEmptyElseBranch: an else branch that only yields nothing goes.
#[test]
fn remove_empty_else_branch_fires() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%a: tile<i32>, %c: tile<i1>) {
    if %c {
      print "%d", %a : tile<i32>
    } else {
    }
    return
  }
}
"#;
    let out = canon(&["--enable-patterns=RemoveEmptyElseBranch"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i32>, %arg1: tile<i1>) {
    if %arg1 {
      print "%d", %arg0 : tile<i32>
    }
    return
  }
}
"#,
    );
    out.assert_stat("RemoveEmptyElseBranch", 1);
}

/// RemoveEmptyElseBranch does not apply to an else branch that does something or yields values.
#[test]
fn remove_empty_else_branch_negative() {
    let src = r#"
cuda_tile.module @m {
  testing$func @prints(%a: tile<i32>, %c: tile<i1>) {
    if %c {
      print "%d", %a : tile<i32>
    } else {
      print "%d", %a : tile<i32>
    }
    return
  }
  testing$func @yields(%a: tile<i32>, %b: tile<i32>, %c: tile<i1>) -> tile<i32> {
    %r = if %c -> (tile<i32>) {
      yield %a : tile<i32>
    } else {
      yield %b : tile<i32>
    }
    return %r : tile<i32>
  }
}
"#;
    let out = canon(&["--enable-patterns=RemoveEmptyElseBranch"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @prints(%arg0: tile<i32>, %arg1: tile<i1>) {
    if %arg1 {
      print "%d", %arg0 : tile<i32>
    } else {
      print "%d", %arg0 : tile<i32>
    }
    return
  }
  testing$func @yields(%arg0: tile<i32>, %arg1: tile<i32>, %arg2: tile<i1>) -> tile<i32> {
    %0 = if %arg2 -> (tile<i32>) {
      yield %arg0 : tile<i32>
    } else {
      yield %arg1 : tile<i32>
    }
    return %0 : tile<i32>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("RemoveEmptyElseBranch");
}

/// CombineIfs: adjacent `if`s on the same SSA condition merge; uses of the first's results in
/// the second's branches take the values the first's branches yield.
#[test]
fn combine_ifs_fires() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%a: tile<i32>, %b: tile<i32>, %c: tile<i1>) -> (tile<i32>, tile<i32>) {
    %r = if %c -> (tile<i32>) {
      %x = addi %a, %b : tile<i32>
      yield %x : tile<i32>
    } else {
      yield %a : tile<i32>
    }
    %s = if %c -> (tile<i32>) {
      %y = muli %r, %r : tile<i32>
      yield %y : tile<i32>
    } else {
      %z = subi %r, %b : tile<i32>
      yield %z : tile<i32>
    }
    return %r, %s : tile<i32>, tile<i32>
  }
}
"#;
    let out = canon(&["--enable-patterns=CombineIfs"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i32>, %arg1: tile<i32>, %arg2: tile<i1>) -> (tile<i32>, tile<i32>) {
    %0:2 = if %arg2 -> (tile<i32>, tile<i32>) {
      %1 = addi %arg0, %arg1 : tile<i32>
      %2 = muli %1, %1 : tile<i32>
      yield %1, %2 : tile<i32>, tile<i32>
    } else {
      %1 = subi %arg0, %arg1 : tile<i32>
      yield %arg0, %1 : tile<i32>, tile<i32>
    }
    return %0#0, %0#1 : tile<i32>, tile<i32>
  }
}
"#,
    );
    out.assert_stat("CombineIfs", 1);
}

/// CombineIfs on two `if`s that store: the merged branch stores in the original order.
#[test]
fn combine_ifs_keeps_store_order() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%p: tile<ptr<i32>>, %a: tile<i32>, %b: tile<i32>, %c: tile<i1>) {
    if %c {
      %t = store_ptr_tko weak %p, %a : tile<ptr<i32>>, tile<i32> -> token
    }
    if %c {
      %t = store_ptr_tko weak %p, %b : tile<ptr<i32>>, tile<i32> -> token
    }
    return
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<ptr<i32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i1>) {
    if %arg3 {
      %0 = store_ptr_tko weak %arg0, %arg1 : tile<ptr<i32>>, tile<i32> -> token
      %1 = store_ptr_tko weak %arg0, %arg2 : tile<ptr<i32>>, tile<i32> -> token
    }
    return
  }
}
"#,
    );
    out.assert_stat("CombineIfs", 1);
    assert_eq!(tko_count(&out.stdout), tko_count(src));
}

/// CombineIfs does not apply to different conditions (even equal in value), to `if`s with an
/// op between them (side-effecting or pure), or when the first `if` returns and the second
/// branch, then unreachable, holds a token-ordered op.
#[test]
fn combine_ifs_negative() {
    let src = r#"
cuda_tile.module @m {
  testing$func @different(%a: tile<i32>, %b: tile<i32>, %c: tile<i1>, %d: tile<i1>) -> (tile<i32>, tile<i32>) {
    %r = if %c -> (tile<i32>) {
      %x = addi %a, %b : tile<i32>
      yield %x : tile<i32>
    } else {
      yield %a : tile<i32>
    }
    %s = if %d -> (tile<i32>) {
      %y = muli %r, %r : tile<i32>
      yield %y : tile<i32>
    } else {
      yield %b : tile<i32>
    }
    return %r, %s : tile<i32>, tile<i32>
  }
  testing$func @equal_values(%a: tile<i32>, %b: tile<i32>) -> (tile<i32>, tile<i32>) {
    %c = cmpi less_than %a, %b, signed : tile<i32> -> tile<i1>
    %d = cmpi less_than %a, %b, signed : tile<i32> -> tile<i1>
    %r = if %c -> (tile<i32>) {
      %x = addi %a, %b : tile<i32>
      yield %x : tile<i32>
    } else {
      yield %a : tile<i32>
    }
    %s = if %d -> (tile<i32>) {
      %y = muli %r, %r : tile<i32>
      yield %y : tile<i32>
    } else {
      yield %b : tile<i32>
    }
    return %r, %s : tile<i32>, tile<i32>
  }
  testing$func @print_between(%a: tile<i32>, %b: tile<i32>, %c: tile<i1>) -> (tile<i32>, tile<i32>) {
    %r = if %c -> (tile<i32>) {
      %x = addi %a, %b : tile<i32>
      yield %x : tile<i32>
    } else {
      yield %a : tile<i32>
    }
    print "%d", %a : tile<i32>
    %s = if %c -> (tile<i32>) {
      %y = muli %r, %r : tile<i32>
      yield %y : tile<i32>
    } else {
      yield %b : tile<i32>
    }
    return %r, %s : tile<i32>, tile<i32>
  }
  testing$func @pure_between(%a: tile<i32>, %b: tile<i32>, %c: tile<i1>) -> (tile<i32>, tile<i32>) {
    %r = if %c -> (tile<i32>) {
      %x = addi %a, %b : tile<i32>
      yield %x : tile<i32>
    } else {
      yield %a : tile<i32>
    }
    %m = muli %a, %b : tile<i32>
    %s = if %c -> (tile<i32>) {
      %y = muli %r, %m : tile<i32>
      yield %y : tile<i32>
    } else {
      yield %b : tile<i32>
    }
    return %r, %s : tile<i32>, tile<i32>
  }
  testing$func @return_then_store(%p: tile<ptr<i32>>, %a: tile<i32>, %c: tile<i1>) {
    if %c {
      return
    }
    if %c {
      %t = store_ptr_tko weak %p, %a : tile<ptr<i32>>, tile<i32> -> token
    }
    return
  }
}
"#;
    let out = canon(&["--enable-patterns=CombineIfs"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @different(%arg0: tile<i32>, %arg1: tile<i32>, %arg2: tile<i1>, %arg3: tile<i1>) -> (tile<i32>, tile<i32>) {
    %0 = if %arg2 -> (tile<i32>) {
      %2 = addi %arg0, %arg1 : tile<i32>
      yield %2 : tile<i32>
    } else {
      yield %arg0 : tile<i32>
    }
    %1 = if %arg3 -> (tile<i32>) {
      %2 = muli %0, %0 : tile<i32>
      yield %2 : tile<i32>
    } else {
      yield %arg1 : tile<i32>
    }
    return %0, %1 : tile<i32>, tile<i32>
  }
  testing$func @equal_values(%arg0: tile<i32>, %arg1: tile<i32>) -> (tile<i32>, tile<i32>) {
    %0 = cmpi less_than %arg0, %arg1, signed : tile<i32> -> tile<i1>
    %1 = cmpi less_than %arg0, %arg1, signed : tile<i32> -> tile<i1>
    %2 = if %0 -> (tile<i32>) {
      %4 = addi %arg0, %arg1 : tile<i32>
      yield %4 : tile<i32>
    } else {
      yield %arg0 : tile<i32>
    }
    %3 = if %1 -> (tile<i32>) {
      %4 = muli %2, %2 : tile<i32>
      yield %4 : tile<i32>
    } else {
      yield %arg1 : tile<i32>
    }
    return %2, %3 : tile<i32>, tile<i32>
  }
  testing$func @print_between(%arg0: tile<i32>, %arg1: tile<i32>, %arg2: tile<i1>) -> (tile<i32>, tile<i32>) {
    %0 = if %arg2 -> (tile<i32>) {
      %2 = addi %arg0, %arg1 : tile<i32>
      yield %2 : tile<i32>
    } else {
      yield %arg0 : tile<i32>
    }
    print "%d", %arg0 : tile<i32>
    %1 = if %arg2 -> (tile<i32>) {
      %2 = muli %0, %0 : tile<i32>
      yield %2 : tile<i32>
    } else {
      yield %arg1 : tile<i32>
    }
    return %0, %1 : tile<i32>, tile<i32>
  }
  testing$func @pure_between(%arg0: tile<i32>, %arg1: tile<i32>, %arg2: tile<i1>) -> (tile<i32>, tile<i32>) {
    %0 = if %arg2 -> (tile<i32>) {
      %3 = addi %arg0, %arg1 : tile<i32>
      yield %3 : tile<i32>
    } else {
      yield %arg0 : tile<i32>
    }
    %1 = muli %arg0, %arg1 : tile<i32>
    %2 = if %arg2 -> (tile<i32>) {
      %3 = muli %0, %1 : tile<i32>
      yield %3 : tile<i32>
    } else {
      yield %arg1 : tile<i32>
    }
    return %0, %2 : tile<i32>, tile<i32>
  }
  testing$func @return_then_store(%arg0: tile<ptr<i32>>, %arg1: tile<i32>, %arg2: tile<i1>) {
    if %arg2 {
      return
    }
    if %arg2 {
      %0 = store_ptr_tko weak %arg0, %arg1 : tile<ptr<i32>>, tile<i32> -> token
    }
    return
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("CombineIfs");
}

/// CombineNestedIfs without results: `if (a) { if (b) {X} }` becomes `if (andi(a, b)) {X}`.
#[test]
fn combine_nested_ifs_fires() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%x: tile<i32>, %a: tile<i1>, %b: tile<i1>) {
    if %a {
      if %b {
        print "%d", %x : tile<i32>
      }
    }
    return
  }
}
"#;
    let out = canon(&["--enable-patterns=CombineNestedIfs"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i32>, %arg1: tile<i1>, %arg2: tile<i1>) {
    %0 = andi %arg1, %arg2 : tile<i1>
    if %0 {
      print "%d", %arg0 : tile<i32>
    }
    return
  }
}
"#,
    );
    out.assert_stat("CombineNestedIfs", 1);
}

/// CombineNestedIfs does not apply when the else branches yield different values, when the inner
/// else does something, when the outer then-branch holds more than the inner `if` and its
/// forwarding yield, or when the forwarding yield permutes the inner results.
#[test]
fn combine_nested_ifs_negative() {
    let src = r#"
cuda_tile.module @m {
  testing$func @different_else(%x: tile<64xi32>, %y: tile<64xi32>, %a: tile<i1>, %b: tile<i1>) -> tile<64xi32> {
    %r = if %a -> (tile<64xi32>) {
      %inner = if %b -> (tile<64xi32>) {
        %v = muli %x, %y : tile<64xi32>
        yield %v : tile<64xi32>
      } else {
        yield %x : tile<64xi32>
      }
      yield %inner : tile<64xi32>
    } else {
      yield %y : tile<64xi32>
    }
    return %r : tile<64xi32>
  }
  testing$func @inner_else_computes(%x: tile<64xi32>, %y: tile<64xi32>, %a: tile<i1>, %b: tile<i1>) -> tile<64xi32> {
    %r = if %a -> (tile<64xi32>) {
      %inner = if %b -> (tile<64xi32>) {
        %v = muli %x, %y : tile<64xi32>
        yield %v : tile<64xi32>
      } else {
        %w = addi %x, %y : tile<64xi32>
        yield %w : tile<64xi32>
      }
      yield %inner : tile<64xi32>
    } else {
      yield %x : tile<64xi32>
    }
    return %r : tile<64xi32>
  }
  testing$func @inner_else_prints(%x: tile<i32>, %a: tile<i1>, %b: tile<i1>) {
    if %a {
      if %b {
        print "b %d", %x : tile<i32>
      } else {
        print "not b %d", %x : tile<i32>
      }
    }
    return
  }
  testing$func @more_in_outer(%x: tile<i32>, %a: tile<i1>, %b: tile<i1>) {
    if %a {
      print "a %d", %x : tile<i32>
      if %b {
        print "b %d", %x : tile<i32>
      }
    }
    return
  }
  testing$func @permuted(%x: tile<i32>, %y: tile<i32>, %a: tile<i1>, %b: tile<i1>) -> (tile<i32>, tile<i32>) {
    %r, %s = if %a -> (tile<i32>, tile<i32>) {
      %i, %j = if %b -> (tile<i32>, tile<i32>) {
        %v = muli %x, %y : tile<i32>
        yield %v, %x : tile<i32>, tile<i32>
      } else {
        yield %x, %x : tile<i32>, tile<i32>
      }
      yield %j, %i : tile<i32>, tile<i32>
    } else {
      yield %x, %x : tile<i32>, tile<i32>
    }
    return %r, %s : tile<i32>, tile<i32>
  }
}
"#;
    let out = canon(&["--enable-patterns=CombineNestedIfs"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @different_else(%arg0: tile<64xi32>, %arg1: tile<64xi32>, %arg2: tile<i1>, %arg3: tile<i1>) -> tile<64xi32> {
    %0 = if %arg2 -> (tile<64xi32>) {
      %1 = if %arg3 -> (tile<64xi32>) {
        %2 = muli %arg0, %arg1 : tile<64xi32>
        yield %2 : tile<64xi32>
      } else {
        yield %arg0 : tile<64xi32>
      }
      yield %1 : tile<64xi32>
    } else {
      yield %arg1 : tile<64xi32>
    }
    return %0 : tile<64xi32>
  }
  testing$func @inner_else_computes(%arg0: tile<64xi32>, %arg1: tile<64xi32>, %arg2: tile<i1>, %arg3: tile<i1>) -> tile<64xi32> {
    %0 = if %arg2 -> (tile<64xi32>) {
      %1 = if %arg3 -> (tile<64xi32>) {
        %2 = muli %arg0, %arg1 : tile<64xi32>
        yield %2 : tile<64xi32>
      } else {
        %2 = addi %arg0, %arg1 : tile<64xi32>
        yield %2 : tile<64xi32>
      }
      yield %1 : tile<64xi32>
    } else {
      yield %arg0 : tile<64xi32>
    }
    return %0 : tile<64xi32>
  }
  testing$func @inner_else_prints(%arg0: tile<i32>, %arg1: tile<i1>, %arg2: tile<i1>) {
    if %arg1 {
      if %arg2 {
        print "b %d", %arg0 : tile<i32>
      } else {
        print "not b %d", %arg0 : tile<i32>
      }
    }
    return
  }
  testing$func @more_in_outer(%arg0: tile<i32>, %arg1: tile<i1>, %arg2: tile<i1>) {
    if %arg1 {
      print "a %d", %arg0 : tile<i32>
      if %arg2 {
        print "b %d", %arg0 : tile<i32>
      }
    }
    return
  }
  testing$func @permuted(%arg0: tile<i32>, %arg1: tile<i32>, %arg2: tile<i1>, %arg3: tile<i1>) -> (tile<i32>, tile<i32>) {
    %0:2 = if %arg2 -> (tile<i32>, tile<i32>) {
      %1:2 = if %arg3 -> (tile<i32>, tile<i32>) {
        %2 = muli %arg0, %arg1 : tile<i32>
        yield %2, %arg0 : tile<i32>, tile<i32>
      } else {
        yield %arg0, %arg0 : tile<i32>, tile<i32>
      }
      yield %1#1, %1#0 : tile<i32>, tile<i32>
    } else {
      yield %arg0, %arg0 : tile<i32>, tile<i32>
    }
    return %0#0, %0#1 : tile<i32>, tile<i32>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("CombineNestedIfs");
}

/// MoveTerminatorToParent: when both branches return (or break/continue), the else branch's ops
/// replace the unreachable code after the `if`.
#[test]
fn move_terminator_to_parent_fires() {
    let src = r#"
cuda_tile.module @m {
  testing$func @returns(%a: tile<i32>, %b: tile<i32>, %c: tile<i1>) -> tile<i32> {
    if %c {
      %x = addi %a, %b : tile<i32>
      return %x : tile<i32>
    } else {
      %y = subi %a, %b : tile<i32>
      return %y : tile<i32>
    }
    return %a : tile<i32>
  }
  testing$func @loop(%a: tile<i32>, %c: tile<i1>) -> tile<i32> {
    %l = loop iter_values(%v = %a) : tile<i32> -> tile<i32> {
      if %c {
        break %v : tile<i32>
      } else {
        %w = addi %v, %v : tile<i32>
        continue %w : tile<i32>
      }
      continue %v : tile<i32>
    }
    return %l : tile<i32>
  }
}
"#;
    let out = canon(&["--enable-patterns=MoveTerminatorToParent"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @returns(%arg0: tile<i32>, %arg1: tile<i32>, %arg2: tile<i1>) -> tile<i32> {
    if %arg2 {
      %1 = addi %arg0, %arg1 : tile<i32>
      return %1 : tile<i32>
    }
    %0 = subi %arg0, %arg1 : tile<i32>
    return %0 : tile<i32>
  }
  testing$func @loop(%arg0: tile<i32>, %arg1: tile<i1>) -> tile<i32> {
    %0 = loop iter_values(%arg2 = %arg0) : tile<i32> -> tile<i32> {
      if %arg1 {
        break %arg2 : tile<i32>
      }
      %1 = addi %arg2, %arg2 : tile<i32>
      continue %1 : tile<i32>
    }
    return %0 : tile<i32>
  }
}
"#,
    );
    out.assert_stat("MoveTerminatorToParent", 2);
}

/// MoveTerminatorToParent does not apply when only one branch exits, nor when the unreachable
/// code after the `if` holds a token-ordered op.
#[test]
fn move_terminator_to_parent_negative() {
    let src = r#"
cuda_tile.module @m {
  testing$func @one_exit(%a: tile<i32>, %b: tile<i32>, %c: tile<i1>) -> tile<i32> {
    if %c {
      %x = addi %a, %b : tile<i32>
      return %x : tile<i32>
    } else {
      print "%d", %a : tile<i32>
    }
    return %a : tile<i32>
  }
  testing$func @store_after(%p: tile<ptr<i32>>, %a: tile<i32>, %b: tile<i32>, %c: tile<i1>) -> tile<i32> {
    if %c {
      return %a : tile<i32>
    } else {
      return %b : tile<i32>
    }
    %t = store_ptr_tko weak %p, %a : tile<ptr<i32>>, tile<i32> -> token
    return %a : tile<i32>
  }
}
"#;
    let out = canon(&["--enable-patterns=MoveTerminatorToParent"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @one_exit(%arg0: tile<i32>, %arg1: tile<i32>, %arg2: tile<i1>) -> tile<i32> {
    if %arg2 {
      %0 = addi %arg0, %arg1 : tile<i32>
      return %0 : tile<i32>
    } else {
      print "%d", %arg0 : tile<i32>
    }
    return %arg0 : tile<i32>
  }
  testing$func @store_after(%arg0: tile<ptr<i32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i1>) -> tile<i32> {
    if %arg3 {
      return %arg1 : tile<i32>
    } else {
      return %arg2 : tile<i32>
    }
    %0 = store_ptr_tko weak %arg0, %arg1 : tile<ptr<i32>>, tile<i32> -> token
    return %arg1 : tile<i32>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("MoveTerminatorToParent");
}

/// AddFMulLhs (cuda-tile-opt personality): a `mulf` operand of `addf` goes to the left; rounding
/// and flush-to-zero stay.
#[test]
fn addf_mul_lhs_fires_in_compat() {
    let src = ADDF_MUL_LHS_FIRES_IN_COMPAT_INPUT;
    let out = canon(&["--compat=cuda-tile-opt"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<f32>, %arg1: tile<f32>, %arg2: tile<f32>) -> tile<f32> {
    %0 = mulf %arg0, %arg1  : tile<f32>
    %1 = addf %0, %arg2 rounding<zero> flush_to_zero : tile<f32>
    return %1 : tile<f32>
  }
}
"#,
    );
    out.assert_stat("AddFMulLhs", 1);
}

/// AddFMulLhs does not apply when the `mulf` is already on the left or both operands are `mulf`s
/// (cuda-tile-opt personality).
#[test]
fn addf_mul_lhs_negative() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%a: tile<f32>, %b: tile<f32>, %c: tile<f32>) -> (tile<f32>, tile<f32>) {
    %m = mulf %a, %b : tile<f32>
    %n = mulf %b, %c : tile<f32>
    %r = addf %m, %c : tile<f32>
    %s = addf %m, %n : tile<f32>
    return %r, %s : tile<f32>, tile<f32>
  }
}
"#;
    let out = canon(&["--compat=cuda-tile-opt"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<f32>, %arg1: tile<f32>, %arg2: tile<f32>) -> (tile<f32>, tile<f32>) {
    %0 = mulf %arg0, %arg1  : tile<f32>
    %1 = mulf %arg1, %arg2  : tile<f32>
    %2 = addf %0, %arg2  : tile<f32>
    %3 = addf %0, %1  : tile<f32>
    return %2, %3 : tile<f32>, tile<f32>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("AddFMulLhs");
}

/// AddFMulLhs is NVIDIA's, not the spec's: the default personality keeps the operand order.
#[test]
fn addf_mul_lhs_not_in_spec_personality() {
    let src = ADDF_MUL_LHS_FIRES_IN_COMPAT_INPUT;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<f32>, %arg1: tile<f32>, %arg2: tile<f32>) -> tile<f32> {
    %0 = mulf %arg0, %arg1  : tile<f32>
    %1 = addf %arg2, %0 rounding<zero> flush_to_zero : tile<f32>
    return %1 : tile<f32>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("AddFMulLhs");
}

/// SelectI1ToNot (cuda-tile-opt personality): `select(c, false, true)` is `xori(c, true)`.
#[test]
fn select_i1_to_not_fires_in_compat() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%c: tile<4xi1>) -> tile<4xi1> {
    %t = constant <i1: true> : tile<4xi1>
    %f = constant <i1: false> : tile<4xi1>
    %r = select %c, %f, %t : tile<4xi1>, tile<4xi1>
    return %r : tile<4xi1>
  }
}
"#;
    let out = canon(&["--compat=cuda-tile-opt"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<4xi1>) -> tile<4xi1> {
    %true = constant <i1: true> : tile<4xi1>
    %0 = xori %arg0, %true : tile<4xi1>
    return %0 : tile<4xi1>
  }
}
"#,
    );
    out.assert_stat("SelectI1ToNot", 1);
}

/// SelectI1ToNot does not apply when an arm is not a constant, nor in the spec personality (where
/// the expression simplifier does the same; with --no-simplify the select stays).
#[test]
fn select_i1_to_not_negative() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%c: tile<i1>, %d: tile<i1>) -> tile<i1> {
    %f = constant <i1: false> : tile<i1>
    %r = select %c, %f, %d : tile<i1>, tile<i1>
    return %r : tile<i1>
  }
}
"#;
    let out = canon(&["--compat=cuda-tile-opt"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i1>, %arg1: tile<i1>) -> tile<i1> {
    %false = constant <i1: false> : tile<i1>
    %0 = select %arg0, %false, %arg1 : tile<i1>, tile<i1>
    return %0 : tile<i1>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("SelectI1ToNot");
}

/// SelectI1ToNot does not run in the spec personality.
#[test]
fn select_i1_to_not_not_in_spec_personality() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%c: tile<i1>) -> tile<i1> {
    %t = constant <i1: true> : tile<i1>
    %f = constant <i1: false> : tile<i1>
    %r = select %c, %f, %t : tile<i1>, tile<i1>
    return %r : tile<i1>
  }
}
"#;
    let out = canon(&["--no-simplify"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i1>) -> tile<i1> {
    %true = constant <i1: true> : tile<i1>
    %false = constant <i1: false> : tile<i1>
    %0 = select %arg0, %false, %true : tile<i1>, tile<i1>
    return %0 : tile<i1>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("SelectI1ToNot");
}

/// The spec's CombineIfs input/output pair, with `%zero`/`%fmask` as constants and `%lhs`, `%rhs`,
/// `%thr` as arguments: one `if` with the three results, `%a` forwarded as `%x` in the then
/// branch and as `%zero` in the else branch.
#[test]
fn spec_example_combine_ifs() {
    let src = r#"
cuda_tile.module @m {
  testing$func @combine_ifs(%cond: tile<i1>, %lhs: tile<128xf32>, %rhs: tile<128xf32>, %thr: tile<128xf32>) -> (tile<128xf32>, tile<128xi1>, tile<128xf32>) {
    %zero = constant <f32: 0.0> : tile<128xf32>
    %fmask = constant <i1: false> : tile<128xi1>
    %a, %b = if %cond -> (tile<128xf32>, tile<128xi1>) {
      %x = mulf %lhs, %rhs : tile<128xf32>
      %m = cmpf less_than ordered %x, %thr : tile<128xf32> -> tile<128xi1>
      yield %x, %m : tile<128xf32>, tile<128xi1>
    } else {
      yield %zero, %fmask : tile<128xf32>, tile<128xi1>
    }
    %c = if %cond -> (tile<128xf32>) {
      %y = addf %a, %a : tile<128xf32>
      yield %y : tile<128xf32>
    } else {
      yield %a : tile<128xf32>
    }
    return %a, %b, %c : tile<128xf32>, tile<128xi1>, tile<128xf32>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @combine_ifs(%arg0: tile<i1>, %arg1: tile<128xf32>, %arg2: tile<128xf32>, %arg3: tile<128xf32>) -> (tile<128xf32>, tile<128xi1>, tile<128xf32>) {
    %cst_0_f32 = constant <f32: 0.000000e+00> : tile<128xf32>
    %false = constant <i1: false> : tile<128xi1>
    %0:3 = if %arg0 -> (tile<128xf32>, tile<128xi1>, tile<128xf32>) {
      %1 = mulf %arg1, %arg2  : tile<128xf32>
      %2 = cmpf less_than ordered %1, %arg3 : tile<128xf32> -> tile<128xi1>
      %3 = addf %1, %1  : tile<128xf32>
      yield %1, %2, %3 : tile<128xf32>, tile<128xi1>, tile<128xf32>
    } else {
      yield %cst_0_f32, %false, %cst_0_f32 : tile<128xf32>, tile<128xi1>, tile<128xf32>
    }
    return %0#0, %0#1, %0#2 : tile<128xf32>, tile<128xi1>, tile<128xf32>
  }
}
"#,
    );
    out.assert_stat("CombineIfs", 1);
}

/// The spec's CombineNestedIfs example on tile<64xi32> without results (tile IR has no poison):
/// the inner then-branch stores; the stores stay, under `andi %a, %b`.
#[test]
fn spec_example_combine_nested_ifs_without_results() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%p: tile<64xptr<i32>>, %x: tile<64xi32>, %y: tile<64xi32>, %a: tile<i1>, %b: tile<i1>) {
    if %a {
      if %b {
        %v = muli %x, %y : tile<64xi32>
        %t = store_ptr_tko weak %p, %v : tile<64xptr<i32>>, tile<64xi32> -> token
      }
    }
    return
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<64xptr<i32>>, %arg1: tile<64xi32>, %arg2: tile<64xi32>, %arg3: tile<i1>, %arg4: tile<i1>) {
    %0 = andi %arg3, %arg4 : tile<i1>
    if %0 {
      %1 = muli %arg1, %arg2 : tile<64xi32>
      %2 = store_ptr_tko weak %arg0, %1 : tile<64xptr<i32>>, tile<64xi32> -> token
    }
    return
  }
}
"#,
    );
    out.assert_stat("CombineNestedIfs", 1);
    assert_eq!(tko_count(&out.stdout), tko_count(src));
}

/// The spec's CombineNestedIfs example on tile<64xi32> with a result: both else branches yield the
/// same `%x` (in place of the spec's poison), so `if (andi(a, b)) {muli} else {x}` is exact.
#[test]
fn spec_example_combine_nested_ifs_with_results() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%x: tile<64xi32>, %y: tile<64xi32>, %a: tile<i1>, %b: tile<i1>) -> tile<64xi32> {
    %r = if %a -> (tile<64xi32>) {
      %inner = if %b -> (tile<64xi32>) {
        %v = muli %x, %y : tile<64xi32>
        yield %v : tile<64xi32>
      } else {
        yield %x : tile<64xi32>
      }
      yield %inner : tile<64xi32>
    } else {
      yield %x : tile<64xi32>
    }
    return %r : tile<64xi32>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<64xi32>, %arg1: tile<64xi32>, %arg2: tile<i1>, %arg3: tile<i1>) -> tile<64xi32> {
    %0 = andi %arg2, %arg3 : tile<i1>
    %1 = if %0 -> (tile<64xi32>) {
      %2 = muli %arg0, %arg1 : tile<64xi32>
      yield %2 : tile<64xi32>
    } else {
      yield %arg0 : tile<64xi32>
    }
    return %1 : tile<64xi32>
  }
}
"#,
    );
    out.assert_stat("CombineNestedIfs", 1);
}

/// RemoveStaticCondition inside a `for` body: the chosen branch's `continue` becomes the body's
/// terminator.
#[test]
fn remove_static_condition_continue_in_for() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%a: tile<i32>) -> tile<i32> {
    %lo = constant <i32: 0> : tile<i32>
    %hi = constant <i32: 4> : tile<i32>
    %st = constant <i32: 1> : tile<i32>
    %true = constant <i1: true> : tile<i1>
    %r = for %i in (%lo to %hi, step %st) : tile<i32> iter_values(%acc = %a) -> (tile<i32>) {
      %x = if %true -> (tile<i32>) {
        continue %acc : tile<i32>
      } else {
        yield %i : tile<i32>
      }
      %y = addi %x, %acc : tile<i32>
      continue %y : tile<i32>
    }
    return %r : tile<i32>
  }
}
"#;
    let out = canon(&["--enable-patterns=RemoveStaticCondition"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i32>) -> tile<i32> {
    %cst_0_i32 = constant <i32: 0> : tile<i32>
    %cst_4_i32 = constant <i32: 4> : tile<i32>
    %cst_1_i32 = constant <i32: 1> : tile<i32>
    %for = for %loopIdx in (%cst_0_i32 to %cst_4_i32, step %cst_1_i32) : tile<i32> iter_values(%iterArg0 = %arg0) -> (tile<i32>) {
      continue %iterArg0 : tile<i32>
    }
    return %for : tile<i32>
  }
}
"#,
    );
    out.assert_stat("RemoveStaticCondition", 1);
}

/// Contract 1: canonicalization never erases or duplicates a token-ordered memory operation,
/// even in a branch a constant condition never takes, in code made unreachable by a
/// `return`/`break`, or when its results are unused. Counted as lines naming a `*_tko` op,
/// before and after, in both personalities and through the cse/dce pipeline.
#[test]
fn token_ordered_ops_are_never_dropped() {
    let src = r#"cuda_tile.module @m {
  testing$func @static_else(%p: tile<ptr<i32>>, %a: tile<i32>) {
    %true = constant <i1: true> : tile<i1>
    if %true {
      print "%d", %a : tile<i32>
    } else {
      %t = store_ptr_tko weak %p, %a : tile<ptr<i32>>, tile<i32> -> token
    }
    return
  }
  testing$func @static_then_with_result(%p: tile<ptr<i32>>, %a: tile<i32>, %b: tile<i32>) -> tile<i32> {
    %false = constant <i1: false> : tile<i1>
    %r = if %false -> (tile<i32>) {
      %v, %t = load_ptr_tko weak %p : tile<ptr<i32>> -> tile<i32>, token
      yield %v : tile<i32>
    } else {
      yield %b : tile<i32>
    }
    return %r : tile<i32>
  }
  testing$func @dead_load(%p: tile<ptr<i32>>) {
    %v, %t = load_ptr_tko weak %p : tile<ptr<i32>> -> tile<i32>, token
    return
  }
  testing$func @atomics(%p: tile<2xptr<i32>>, %a: tile<2xi32>) {
    %false = constant <i1: false> : tile<i1>
    if %false {
      %v, %t = atomic_rmw_tko relaxed device %p, add, %a : tile<2xptr<i32>>, tile<2xi32> -> tile<2xi32>, token
    }
    %v2, %t2 = atomic_rmw_tko relaxed device %p, add, %a : tile<2xptr<i32>>, tile<2xi32> -> tile<2xi32>, token
    return
  }
  testing$func @unreachable_in_loop(%p: tile<ptr<i32>>, %a: tile<i32>) {
    loop {
      %true = constant <i1: true> : tile<i1>
      if %true {
        break
      }
      %t = store_ptr_tko weak %p, %a : tile<ptr<i32>>, tile<i32> -> token
      continue
    }
    return
  }
  testing$func @for_store(%p: tile<ptr<i32>>) {
    %lo = constant <i32: 0> : tile<i32>
    %hi = constant <i32: 4> : tile<i32>
    %st = constant <i32: 1> : tile<i32>
    for %i in (%lo to %hi, step %st) : tile<i32> {
      %t = store_ptr_tko weak %p, %i : tile<ptr<i32>>, tile<i32> -> token
    }
    return
  }
  testing$func @after_static_return(%p: tile<ptr<i32>>, %a: tile<i32>) {
    %true = constant <i1: true> : tile<i1>
    if %true {
      return
    }
    %t = store_ptr_tko weak %p, %a : tile<ptr<i32>>, tile<i32> -> token
    return
  }
  testing$func @after_both_return(%p: tile<ptr<i32>>, %a: tile<i32>, %c: tile<i1>) {
    if %c {
      return
    } else {
      return
    }
    %t = store_ptr_tko weak %p, %a : tile<ptr<i32>>, tile<i32> -> token
    return
  }
  testing$func @combine_after_return(%p: tile<ptr<i32>>, %a: tile<i32>, %c: tile<i1>) {
    if %c {
      return
    }
    if %c {
      %t = store_ptr_tko weak %p, %a : tile<ptr<i32>>, tile<i32> -> token
    }
    return
  }
  testing$func @unused_result(%p: tile<ptr<i32>>, %a: tile<i32>, %c: tile<i1>) {
    %r = if %c -> (tile<i32>) {
      %t = store_ptr_tko weak %p, %a : tile<ptr<i32>>, tile<i32> -> token
      yield %a : tile<i32>
    } else {
      yield %a : tile<i32>
    }
    return
  }
  testing$func @select_branch(%p: tile<ptr<i32>>, %a: tile<i32>, %b: tile<i32>, %c: tile<i1>) -> tile<i32> {
    %r = if %c -> (tile<i32>) {
      %t = store_ptr_tko weak %p, %a : tile<ptr<i32>>, tile<i32> -> token
      yield %a : tile<i32>
    } else {
      yield %b : tile<i32>
    }
    return %r : tile<i32>
  }
}
"#;
    let before = tko_count(&fmt(src));
    assert_eq!(before, 12);
    for args in [
        &[][..],
        &["--compat=cuda-tile-opt"][..],
        &["--no-simplify"][..],
        &["-p", "cse,dce"][..],
    ] {
        let out = canon(args, src);
        assert_eq!(tko_count(&out.stdout), before, "{args:?}:\n{}", out.stdout);
    }
}

/// Constant uniquing and hoisting is the FoldConstant rule (docs/canonicalizer.md): with
/// only another rule enabled the constants stay where they are; with FoldConstant the
/// duplicate is merged and the survivor hoisted.
#[test]
fn constant_uniquing_is_the_fold_constant_rule() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%a: tile<i32>) -> tile<i32> {
    %x = addi %a, %a : tile<i32>
    %one = constant <i32: 1> : tile<i32>
    %y = divi %x, %one signed : tile<i32>
    %one_again = constant <i32: 1> : tile<i32>
    %z = divi %y, %one_again signed : tile<i32>
    return %z : tile<i32>
  }
}
"#;
    let out = canon(&["--enable-patterns=ConvertToSelect"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i32>) -> tile<i32> {
    %0 = addi %arg0, %arg0 : tile<i32>
    %cst_1_i32 = constant <i32: 1> : tile<i32>
    %1 = divi %0, %cst_1_i32 signed : tile<i32>
    %cst_1_i32_0 = constant <i32: 1> : tile<i32>
    %2 = divi %1, %cst_1_i32_0 signed : tile<i32>
    return %2 : tile<i32>
  }
}
"#,
    );
    let out = canon(&["--enable-patterns=FoldConstant"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i32>) -> tile<i32> {
    %cst_1_i32 = constant <i32: 1> : tile<i32>
    %0 = addi %arg0, %arg0 : tile<i32>
    %1 = divi %0, %cst_1_i32 signed : tile<i32>
    %2 = divi %1, %cst_1_i32 signed : tile<i32>
    return %2 : tile<i32>
  }
}
"#,
    );
}

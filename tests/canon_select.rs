//! The select rules (canonicalizers-and-folds.md, "Select Rules" and "SelectOp
//! Canonicalization Pattern Set"): every case of the FoldSelect fold in the spec's order, the
//! order itself where it is observable, and the three select patterns on their own (they
//! overlap with the fold, so they are isolated with `--enable-patterns` or
//! `--disable-patterns=FoldSelect`). `--no-simplify` keeps the expression simplifier (which
//! has select rules of its own) out of the way.
//!
//! Every output is also re-verified, re-printed and re-canonicalized (see canon_common.rs).

mod canon_common;

use canon_common::canon;

/// The input shared by several tests below.
const FOLD_SELECT_SHADOWS_THE_PATTERNS_INPUT: &str = r#"
cuda_tile.module @m {
  testing$func @f(%c: tile<i1>, %a: tile<i32>, %b: tile<i32>) -> (tile<i32>, tile<i32>, tile<i32>) {
    %t = constant <i1: true> : tile<i1>
    %n = xori %c, %t : tile<i1>
    %r = select %t, %a, %b : tile<i1>, tile<i32>
    %s = select %c, %a, %a : tile<i1>, tile<i32>
    %u = select %n, %a, %b : tile<i1>, tile<i32>
    return %r, %s, %u : tile<i32>, tile<i32>, tile<i32>
  }
}
"#;

/// select(c, a, a) is a.
#[test]
fn fold_select_same_arms() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%c: tile<4xi1>, %a: tile<4xi32>) -> tile<4xi32> {
    %r = select %c, %a, %a : tile<4xi1>, tile<4xi32>
    return %r : tile<4xi32>
  }
}
"#;
    let out = canon(&["--no-simplify"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<4xi1>, %arg1: tile<4xi32>) -> tile<4xi32> {
    return %arg1 : tile<4xi32>
  }
}
"#,
    );
    out.assert_stat("FoldSelect", 1);
}

/// select(true, a, b) is a and select(false, a, b) is b, for splat conditions of any shape.
#[test]
fn fold_select_constant_condition() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%a: tile<i32>, %b: tile<i32>, %v: tile<2xf32>, %w: tile<2xf32>) -> (tile<i32>, tile<i32>, tile<2xf32>) {
    %t = constant <i1: true> : tile<i1>
    %f = constant <i1: false> : tile<i1>
    %f2 = constant <i1: [false, false]> : tile<2xi1>
    %r = select %t, %a, %b : tile<i1>, tile<i32>
    %s = select %f, %a, %b : tile<i1>, tile<i32>
    %u = select %f2, %v, %w : tile<2xi1>, tile<2xf32>
    return %r, %s, %u : tile<i32>, tile<i32>, tile<2xf32>
  }
}
"#;
    let out = canon(&["--no-simplify"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i32>, %arg1: tile<i32>, %arg2: tile<2xf32>, %arg3: tile<2xf32>) -> (tile<i32>, tile<i32>, tile<2xf32>) {
    return %arg0, %arg1, %arg3 : tile<i32>, tile<i32>, tile<2xf32>
  }
}
"#,
    );
    out.assert_stat("FoldSelect", 3);
}

/// A condition constant whose elements differ is not a constant condition.
#[test]
fn fold_select_constant_condition_negative() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%v: tile<2xf32>, %w: tile<2xf32>) -> tile<2xf32> {
    %m = constant <i1: [true, false]> : tile<2xi1>
    %u = select %m, %v, %w : tile<2xi1>, tile<2xf32>
    return %u : tile<2xf32>
  }
}
"#;
    let out = canon(&["--no-simplify"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<2xf32>, %arg1: tile<2xf32>) -> tile<2xf32> {
    %cst_i1 = constant <i1: [true, false]> : tile<2xi1>
    %0 = select %cst_i1, %arg0, %arg1 : tile<2xi1>, tile<2xf32>
    return %0 : tile<2xf32>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("FoldSelect");
}

/// On i1 tiles select(c, true, false) is c (rank 0 and rank 1).
#[test]
fn fold_select_i1_identity() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%c: tile<i1>, %d: tile<8xi1>) -> (tile<i1>, tile<8xi1>) {
    %t = constant <i1: true> : tile<i1>
    %f = constant <i1: false> : tile<i1>
    %t8 = constant <i1: true> : tile<8xi1>
    %f8 = constant <i1: false> : tile<8xi1>
    %r = select %c, %t, %f : tile<i1>, tile<i1>
    %s = select %d, %t8, %f8 : tile<8xi1>, tile<8xi1>
    return %r, %s : tile<i1>, tile<8xi1>
  }
}
"#;
    let out = canon(&["--no-simplify"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i1>, %arg1: tile<8xi1>) -> (tile<i1>, tile<8xi1>) {
    return %arg0, %arg1 : tile<i1>, tile<8xi1>
  }
}
"#,
    );
    out.assert_stat("FoldSelect", 2);
}

/// select(c, false, true) is not c (the spec personality's fold leaves it; the expression
/// simplifier, off here, would make it xori(c, true)), nor is select(c, 1, 0) on i32.
#[test]
fn fold_select_i1_identity_negative() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%c: tile<i1>) -> (tile<i1>, tile<i32>) {
    %t = constant <i1: true> : tile<i1>
    %f = constant <i1: false> : tile<i1>
    %one = constant <i32: 1> : tile<i32>
    %zero = constant <i32: 0> : tile<i32>
    %r = select %c, %f, %t : tile<i1>, tile<i1>
    %s = select %c, %one, %zero : tile<i1>, tile<i32>
    return %r, %s : tile<i1>, tile<i32>
  }
}
"#;
    let out = canon(&["--no-simplify"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i1>) -> (tile<i1>, tile<i32>) {
    %true = constant <i1: true> : tile<i1>
    %false = constant <i1: false> : tile<i1>
    %cst_1_i32 = constant <i32: 1> : tile<i32>
    %cst_0_i32 = constant <i32: 0> : tile<i32>
    %0 = select %arg0, %false, %true : tile<i1>, tile<i1>
    %1 = select %arg0, %cst_1_i32, %cst_0_i32 : tile<i1>, tile<i32>
    return %0, %1 : tile<i1>, tile<i32>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("FoldSelect");
}

/// select(x == y, x, y) is y, select(x == y, y, x) is x, select(x != y, x, y) is x and
/// select(x != y, y, x) is y; the comparisons are then dead.
#[test]
fn fold_select_compare() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%x: tile<i32>, %y: tile<i32>) -> (tile<i32>, tile<i32>, tile<i32>, tile<i32>) {
    %eq = cmpi equal %x, %y, signed : tile<i32> -> tile<i1>
    %ne = cmpi not_equal %x, %y, unsigned : tile<i32> -> tile<i1>
    %r1 = select %eq, %x, %y : tile<i1>, tile<i32>
    %r2 = select %eq, %y, %x : tile<i1>, tile<i32>
    %r3 = select %ne, %x, %y : tile<i1>, tile<i32>
    %r4 = select %ne, %y, %x : tile<i1>, tile<i32>
    return %r1, %r2, %r3, %r4 : tile<i32>, tile<i32>, tile<i32>, tile<i32>
  }
}
"#;
    let out = canon(&["--no-simplify"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i32>, %arg1: tile<i32>) -> (tile<i32>, tile<i32>, tile<i32>, tile<i32>) {
    return %arg1, %arg0, %arg0, %arg1 : tile<i32>, tile<i32>, tile<i32>, tile<i32>
  }
}
"#,
    );
    out.assert_stat("FoldSelect", 4);
}

/// The compare fold works element-wise on tiles too.
#[test]
fn fold_select_compare_on_vectors() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%x: tile<4xi16>, %y: tile<4xi16>) -> tile<4xi16> {
    %eq = cmpi equal %y, %x, signed : tile<4xi16> -> tile<4xi1>
    %r = select %eq, %x, %y : tile<4xi1>, tile<4xi16>
    return %r : tile<4xi16>
  }
}
"#;
    let out = canon(&["--no-simplify"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<4xi16>, %arg1: tile<4xi16>) -> tile<4xi16> {
    return %arg1 : tile<4xi16>
  }
}
"#,
    );
    out.assert_stat("FoldSelect", 1);
}

/// No compare fold for cmpf (-0 == +0 makes the arms distinguishable), for other predicates, or
/// when the arms are not the compared values.
#[test]
fn fold_select_compare_negative() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%x: tile<f32>, %y: tile<f32>, %i: tile<i32>, %j: tile<i32>, %k: tile<i32>) -> (tile<f32>, tile<f32>, tile<i32>, tile<i32>) {
    %feq = cmpf equal ordered %x, %y : tile<f32> -> tile<i1>
    %fne = cmpf not_equal unordered %x, %y : tile<f32> -> tile<i1>
    %lt = cmpi less_than %i, %j, signed : tile<i32> -> tile<i1>
    %eq = cmpi equal %i, %j, signed : tile<i32> -> tile<i1>
    %r1 = select %feq, %x, %y : tile<i1>, tile<f32>
    %r2 = select %fne, %x, %y : tile<i1>, tile<f32>
    %r3 = select %lt, %i, %j : tile<i1>, tile<i32>
    %r4 = select %eq, %i, %k : tile<i1>, tile<i32>
    return %r1, %r2, %r3, %r4 : tile<f32>, tile<f32>, tile<i32>, tile<i32>
  }
}
"#;
    let out = canon(&["--no-simplify"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<f32>, %arg1: tile<f32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>) -> (tile<f32>, tile<f32>, tile<i32>, tile<i32>) {
    %0 = cmpf equal ordered %arg0, %arg1 : tile<f32> -> tile<i1>
    %1 = cmpf not_equal unordered %arg0, %arg1 : tile<f32> -> tile<i1>
    %2 = cmpi less_than %arg2, %arg3, signed : tile<i32> -> tile<i1>
    %3 = cmpi equal %arg2, %arg3, signed : tile<i32> -> tile<i1>
    %4 = select %0, %arg0, %arg1 : tile<i1>, tile<f32>
    %5 = select %1, %arg0, %arg1 : tile<i1>, tile<f32>
    %6 = select %2, %arg2, %arg3 : tile<i1>, tile<i32>
    %7 = select %3, %arg2, %arg4 : tile<i1>, tile<i32>
    return %4, %5, %6, %7 : tile<f32>, tile<f32>, tile<i32>, tile<i32>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("FoldSelect");
}

/// select(xori(c, true), a, b) becomes select(c, b, a) in place; the negation is then dead.
#[test]
fn fold_select_inverted_condition() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%c: tile<4xi1>, %a: tile<4xi32>, %b: tile<4xi32>) -> tile<4xi32> {
    %t = constant <i1: true> : tile<4xi1>
    %n = xori %c, %t : tile<4xi1>
    %r = select %n, %a, %b : tile<4xi1>, tile<4xi32>
    return %r : tile<4xi32>
  }
}
"#;
    let out = canon(&["--no-simplify"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<4xi1>, %arg1: tile<4xi32>, %arg2: tile<4xi32>) -> tile<4xi32> {
    %0 = select %arg0, %arg2, %arg1 : tile<4xi1>, tile<4xi32>
    return %0 : tile<4xi32>
  }
}
"#,
    );
    out.assert_stat("FoldSelect", 1);
}

/// No inversion for xori(c, false), xori(true, c) or xori(c, d).
#[test]
fn fold_select_inverted_condition_negative() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%c: tile<i1>, %d: tile<i1>, %a: tile<i32>, %b: tile<i32>) -> (tile<i32>, tile<i32>, tile<i32>) {
    %t = constant <i1: true> : tile<i1>
    %f = constant <i1: false> : tile<i1>
    %n1 = xori %c, %f : tile<i1>
    %n2 = xori %t, %c : tile<i1>
    %n3 = xori %c, %d : tile<i1>
    %r1 = select %n1, %a, %b : tile<i1>, tile<i32>
    %r2 = select %n2, %a, %b : tile<i1>, tile<i32>
    %r3 = select %n3, %a, %b : tile<i1>, tile<i32>
    return %r1, %r2, %r3 : tile<i32>, tile<i32>, tile<i32>
  }
}
"#;
    let out = canon(&["--no-simplify"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i1>, %arg1: tile<i1>, %arg2: tile<i32>, %arg3: tile<i32>) -> (tile<i32>, tile<i32>, tile<i32>) {
    %true = constant <i1: true> : tile<i1>
    %false = constant <i1: false> : tile<i1>
    %0 = xori %arg0, %false : tile<i1>
    %1 = xori %true, %arg0 : tile<i1>
    %2 = xori %arg0, %arg1 : tile<i1>
    %3 = select %0, %arg2, %arg3 : tile<i1>, tile<i32>
    %4 = select %1, %arg2, %arg3 : tile<i1>, tile<i32>
    %5 = select %2, %arg2, %arg3 : tile<i1>, tile<i32>
    return %3, %4, %5 : tile<i32>, tile<i32>, tile<i32>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("FoldSelect");
}

/// select(c, select(c, a, b), d) is select(c, a, d) and select(c, a, select(c, b, d)) is
/// select(c, a, d), in place; the inner selects are then dead.
#[test]
fn fold_select_nested_same_condition() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%c: tile<i1>, %a: tile<i32>, %b: tile<i32>, %d: tile<i32>) -> (tile<i32>, tile<i32>) {
    %i = select %c, %a, %b : tile<i1>, tile<i32>
    %r = select %c, %i, %d : tile<i1>, tile<i32>
    %j = select %c, %b, %d : tile<i1>, tile<i32>
    %s = select %c, %a, %j : tile<i1>, tile<i32>
    return %r, %s : tile<i32>, tile<i32>
  }
}
"#;
    let out = canon(&["--no-simplify"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i1>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>) -> (tile<i32>, tile<i32>) {
    %0 = select %arg0, %arg1, %arg3 : tile<i1>, tile<i32>
    %1 = select %arg0, %arg1, %arg3 : tile<i1>, tile<i32>
    return %0, %1 : tile<i32>, tile<i32>
  }
}
"#,
    );
    out.assert_stat("FoldSelect", 2);
}

/// No nested fold when the inner select tests another condition.
#[test]
fn fold_select_nested_negative() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%c: tile<i1>, %e: tile<i1>, %a: tile<i32>, %b: tile<i32>, %d: tile<i32>) -> (tile<i32>, tile<i32>) {
    %i = select %e, %a, %b : tile<i1>, tile<i32>
    %r = select %c, %i, %d : tile<i1>, tile<i32>
    %s = select %c, %d, %i : tile<i1>, tile<i32>
    return %r, %s : tile<i32>, tile<i32>
  }
}
"#;
    let out = canon(&["--no-simplify"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i1>, %arg1: tile<i1>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>) -> (tile<i32>, tile<i32>) {
    %0 = select %arg1, %arg2, %arg3 : tile<i1>, tile<i32>
    %1 = select %arg0, %0, %arg4 : tile<i1>, tile<i32>
    %2 = select %arg0, %arg4, %0 : tile<i1>, tile<i32>
    return %1, %2 : tile<i32>, tile<i32>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("FoldSelect");
}

/// The i1 identity fold runs before the inverted-condition fold: select(xori(c, true), true,
/// false) is the negation itself, not select(c, false, true).
#[test]
fn fold_select_order_identity_before_inversion() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%c: tile<i1>) -> tile<i1> {
    %t = constant <i1: true> : tile<i1>
    %f = constant <i1: false> : tile<i1>
    %n = xori %c, %t : tile<i1>
    %r = select %n, %t, %f : tile<i1>, tile<i1>
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
    %0 = xori %arg0, %true : tile<i1>
    return %0 : tile<i1>
  }
}
"#,
    );
    out.assert_stat("FoldSelect", 1);
}

/// Folds chain: the inversion leaves select(c, b, select(c, a, b)), the nested fold makes it
/// select(c, b, b), which is b.
#[test]
fn fold_select_chain() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%c: tile<i1>, %a: tile<i32>, %b: tile<i32>) -> tile<i32> {
    %t = constant <i1: true> : tile<i1>
    %n = xori %c, %t : tile<i1>
    %i = select %c, %a, %b : tile<i1>, tile<i32>
    %r = select %n, %i, %b : tile<i1>, tile<i32>
    return %r : tile<i32>
  }
}
"#;
    let out = canon(&["--no-simplify"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i1>, %arg1: tile<i32>, %arg2: tile<i32>) -> tile<i32> {
    return %arg2 : tile<i32>
  }
}
"#,
    );
    out.assert_stat("FoldSelect", 3);
}

/// ReplaceConstantSelect: select(true, a, b) is a, select(false, a, b) is b.
#[test]
fn replace_constant_select_fires() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%a: tile<i32>, %b: tile<i32>) -> (tile<i32>, tile<i32>) {
    %t = constant <i1: true> : tile<i1>
    %f = constant <i1: false> : tile<i1>
    %r = select %t, %a, %b : tile<i1>, tile<i32>
    %s = select %f, %a, %b : tile<i1>, tile<i32>
    return %r, %s : tile<i32>, tile<i32>
  }
}
"#;
    let out = canon(
        &["--no-simplify", "--enable-patterns=ReplaceConstantSelect"],
        src,
    );
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i32>, %arg1: tile<i32>) -> (tile<i32>, tile<i32>) {
    return %arg0, %arg1 : tile<i32>, tile<i32>
  }
}
"#,
    );
    out.assert_stat("ReplaceConstantSelect", 2);
    out.assert_no_stat("FoldSelect");
}

/// With the select fold disabled, ReplaceConstantSelect catches the constant condition that
/// RemoveStaticCondition leaves: the `if` on `true` yields the `true` constant the select tests.
#[test]
fn replace_constant_select_after_peer_rewrite() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%a: tile<i32>, %b: tile<i32>, %d: tile<i1>) -> tile<i32> {
    %t = constant <i1: true> : tile<i1>
    %c = if %t -> (tile<i1>) {
      yield %t : tile<i1>
    } else {
      yield %d : tile<i1>
    }
    %r = select %c, %a, %b : tile<i1>, tile<i32>
    return %r : tile<i32>
  }
}
"#;
    let out = canon(&["--no-simplify", "--disable-patterns=FoldSelect"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i32>, %arg1: tile<i32>, %arg2: tile<i1>) -> tile<i32> {
    return %arg0 : tile<i32>
  }
}
"#,
    );
    out.assert_stat("ReplaceConstantSelect", 1);
    out.assert_stat("RemoveStaticCondition", 1);
    out.assert_no_stat("FoldSelect");
}

/// ReplaceConstantSelect does not apply to a variable condition or to a constant whose elements
/// differ.
#[test]
fn replace_constant_select_negative() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%c: tile<2xi1>, %a: tile<2xi32>, %b: tile<2xi32>) -> (tile<2xi32>, tile<2xi32>) {
    %m = constant <i1: [true, false]> : tile<2xi1>
    %r = select %c, %a, %b : tile<2xi1>, tile<2xi32>
    %s = select %m, %a, %b : tile<2xi1>, tile<2xi32>
    return %r, %s : tile<2xi32>, tile<2xi32>
  }
}
"#;
    let out = canon(
        &["--no-simplify", "--enable-patterns=ReplaceConstantSelect"],
        src,
    );
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<2xi1>, %arg1: tile<2xi32>, %arg2: tile<2xi32>) -> (tile<2xi32>, tile<2xi32>) {
    %cst_i1 = constant <i1: [true, false]> : tile<2xi1>
    %0 = select %arg0, %arg1, %arg2 : tile<2xi1>, tile<2xi32>
    %1 = select %cst_i1, %arg1, %arg2 : tile<2xi1>, tile<2xi32>
    return %0, %1 : tile<2xi32>, tile<2xi32>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("ReplaceConstantSelect");
}

/// ReplaceIdenticalSelect: select(c, a, a) is a.
#[test]
fn replace_identical_select_fires() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%c: tile<i1>, %a: tile<f64>) -> tile<f64> {
    %r = select %c, %a, %a : tile<i1>, tile<f64>
    return %r : tile<f64>
  }
}
"#;
    let out = canon(
        &["--no-simplify", "--enable-patterns=ReplaceIdenticalSelect"],
        src,
    );
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i1>, %arg1: tile<f64>) -> tile<f64> {
    return %arg1 : tile<f64>
  }
}
"#,
    );
    out.assert_stat("ReplaceIdenticalSelect", 1);
    out.assert_no_stat("FoldSelect");
}

/// ReplaceIdenticalSelect compares SSA values: different values, even equal computations (the
/// canonicalizer does no CSE), are different arms.
#[test]
fn replace_identical_select_negative() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%c: tile<i1>, %a: tile<i32>, %b: tile<i32>) -> (tile<i32>, tile<i32>) {
    %k1 = addi %a, %b : tile<i32>
    %k2 = addi %a, %b : tile<i32>
    %r = select %c, %a, %b : tile<i1>, tile<i32>
    %s = select %c, %k1, %k2 : tile<i1>, tile<i32>
    return %r, %s : tile<i32>, tile<i32>
  }
}
"#;
    let out = canon(
        &["--no-simplify", "--enable-patterns=ReplaceIdenticalSelect"],
        src,
    );
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i1>, %arg1: tile<i32>, %arg2: tile<i32>) -> (tile<i32>, tile<i32>) {
    %0 = addi %arg1, %arg2 : tile<i32>
    %1 = addi %arg1, %arg2 : tile<i32>
    %2 = select %arg0, %arg1, %arg2 : tile<i1>, tile<i32>
    %3 = select %arg0, %0, %1 : tile<i1>, tile<i32>
    return %2, %3 : tile<i32>, tile<i32>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("ReplaceIdenticalSelect");
}

/// InverseConditionSelect: select(xori(c, true), a, b) becomes select(c, b, a).
#[test]
fn inverse_condition_select_fires() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%c: tile<i1>, %a: tile<i32>, %b: tile<i32>) -> tile<i32> {
    %t = constant <i1: true> : tile<i1>
    %n = xori %c, %t : tile<i1>
    %r = select %n, %a, %b : tile<i1>, tile<i32>
    return %r : tile<i32>
  }
}
"#;
    let out = canon(
        &["--no-simplify", "--enable-patterns=InverseConditionSelect"],
        src,
    );
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i1>, %arg1: tile<i32>, %arg2: tile<i32>) -> tile<i32> {
    %0 = select %arg0, %arg2, %arg1 : tile<i1>, tile<i32>
    return %0 : tile<i32>
  }
}
"#,
    );
    out.assert_stat("InverseConditionSelect", 1);
    out.assert_no_stat("FoldSelect");
}

/// InverseConditionSelect does not apply to xori(c, false) or to a condition that is no negation.
#[test]
fn inverse_condition_select_negative() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%c: tile<i1>, %a: tile<i32>, %b: tile<i32>) -> (tile<i32>, tile<i32>) {
    %f = constant <i1: false> : tile<i1>
    %n = xori %c, %f : tile<i1>
    %r = select %n, %a, %b : tile<i1>, tile<i32>
    %s = select %c, %a, %b : tile<i1>, tile<i32>
    return %r, %s : tile<i32>, tile<i32>
  }
}
"#;
    let out = canon(
        &["--no-simplify", "--enable-patterns=InverseConditionSelect"],
        src,
    );
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i1>, %arg1: tile<i32>, %arg2: tile<i32>) -> (tile<i32>, tile<i32>) {
    %false = constant <i1: false> : tile<i1>
    %0 = xori %arg0, %false : tile<i1>
    %1 = select %0, %arg1, %arg2 : tile<i1>, tile<i32>
    %2 = select %arg0, %arg1, %arg2 : tile<i1>, tile<i32>
    return %1, %2 : tile<i32>, tile<i32>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("InverseConditionSelect");
}

/// By default the fold runs first and the overlapping patterns never fire.
#[test]
fn fold_select_shadows_the_patterns() {
    let src = FOLD_SELECT_SHADOWS_THE_PATTERNS_INPUT;
    let out = canon(&["--no-simplify"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i1>, %arg1: tile<i32>, %arg2: tile<i32>) -> (tile<i32>, tile<i32>, tile<i32>) {
    %0 = select %arg0, %arg2, %arg1 : tile<i1>, tile<i32>
    return %arg1, %arg1, %0 : tile<i32>, tile<i32>, tile<i32>
  }
}
"#,
    );
    out.assert_stat("FoldSelect", 3);
    out.assert_no_stat("ReplaceConstantSelect");
    out.assert_no_stat("ReplaceIdenticalSelect");
    out.assert_no_stat("InverseConditionSelect");
}

/// With --disable-patterns=FoldSelect the three patterns do the same work.
#[test]
fn select_patterns_without_the_fold() {
    let src = FOLD_SELECT_SHADOWS_THE_PATTERNS_INPUT;
    let out = canon(&["--no-simplify", "--disable-patterns=FoldSelect"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i1>, %arg1: tile<i32>, %arg2: tile<i32>) -> (tile<i32>, tile<i32>, tile<i32>) {
    %0 = select %arg0, %arg2, %arg1 : tile<i1>, tile<i32>
    return %arg1, %arg1, %0 : tile<i32>, tile<i32>, tile<i32>
  }
}
"#,
    );
    out.assert_no_stat("FoldSelect");
    out.assert_stat("ReplaceConstantSelect", 1);
    out.assert_stat("ReplaceIdenticalSelect", 1);
    out.assert_stat("InverseConditionSelect", 1);
}

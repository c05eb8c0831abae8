//! The recursive expression simplifier (canonicalizers-and-folds.md, "Recursive Expression
//! Simplifier"), which runs in the spec personality after the greedy fixed point: boolean
//! negation cleanup, variadic and/or folding, integer comparison folding, arithmetic
//! simplification with wrap-around (but not across an overflow flag's promise), bit-vector
//! constants and select simplification; float ops are never touched; `--no-simplify` and the
//! cuda-tile-opt personality turn it off.
//!
//! Every output is also re-verified, re-printed and re-canonicalized (see canon_common.rs).

mod canon_common;

use canon_common::canon;

/// The input shared by several tests below.
const DOUBLE_NEGATION_INPUT: &str = r#"
cuda_tile.module @m {
  testing$func @f(%c: tile<i1>, %v: tile<4xi1>) -> (tile<i1>, tile<4xi1>) {
    %t = constant <i1: true> : tile<i1>
    %t4 = constant <i1: true> : tile<4xi1>
    %n = xori %c, %t : tile<i1>
    %nn = xori %n, %t : tile<i1>
    %m = xori %v, %t4 : tile<4xi1>
    %mm = xori %m, %t4 : tile<4xi1>
    return %nn, %mm : tile<i1>, tile<4xi1>
  }
}
"#;

/// Boolean negation: xori(xori(x, true), true) is x (rank 0 and rank 1).
#[test]
fn simplify_double_negation() {
    let src = DOUBLE_NEGATION_INPUT;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i1>, %arg1: tile<4xi1>) -> (tile<i1>, tile<4xi1>) {
    return %arg0, %arg1 : tile<i1>, tile<4xi1>
  }
}
"#,
    );
    out.assert_stat("Simplify", 2);
}

/// The double negation stays with --no-simplify, and in the cuda-tile-opt personality
/// (which never runs the simplifier).
#[test]
fn simplify_off_with_no_simplify_or_in_compat_personality() {
    let src = DOUBLE_NEGATION_INPUT;
    for args in [&["--no-simplify"], &["--compat=cuda-tile-opt"]] {
        let out = canon(args, src);
        out.assert_output(
            r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i1>, %arg1: tile<4xi1>) -> (tile<i1>, tile<4xi1>) {
    %true = constant <i1: true> : tile<i1>
    %true_0 = constant <i1: true> : tile<4xi1>
    %0 = xori %arg0, %true : tile<i1>
    %1 = xori %0, %true : tile<i1>
    %2 = xori %arg1, %true_0 : tile<4xi1>
    %3 = xori %2, %true_0 : tile<4xi1>
    return %1, %3 : tile<i1>, tile<4xi1>
  }
}
"#,
        );
        out.assert_unchanged(src);
        out.assert_no_stat("Simplify");
    }
}

/// not(cmpi p, a, b) is cmpi !p, a, b for every predicate, keeping the signedness.
#[test]
fn simplify_not_of_comparison() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%x: tile<i32>, %y: tile<i32>) -> (tile<i1>, tile<i1>, tile<i1>, tile<i1>, tile<i1>, tile<i1>) {
    %t = constant <i1: true> : tile<i1>
    %c1 = cmpi equal %x, %y, signed : tile<i32> -> tile<i1>
    %c2 = cmpi not_equal %x, %y, signed : tile<i32> -> tile<i1>
    %c3 = cmpi less_than %x, %y, signed : tile<i32> -> tile<i1>
    %c4 = cmpi less_than_or_equal %x, %y, unsigned : tile<i32> -> tile<i1>
    %c5 = cmpi greater_than %x, %y, unsigned : tile<i32> -> tile<i1>
    %c6 = cmpi greater_than_or_equal %x, %y, signed : tile<i32> -> tile<i1>
    %n1 = xori %c1, %t : tile<i1>
    %n2 = xori %c2, %t : tile<i1>
    %n3 = xori %c3, %t : tile<i1>
    %n4 = xori %c4, %t : tile<i1>
    %n5 = xori %c5, %t : tile<i1>
    %n6 = xori %c6, %t : tile<i1>
    return %n1, %n2, %n3, %n4, %n5, %n6 : tile<i1>, tile<i1>, tile<i1>, tile<i1>, tile<i1>, tile<i1>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i32>, %arg1: tile<i32>) -> (tile<i1>, tile<i1>, tile<i1>, tile<i1>, tile<i1>, tile<i1>) {
    %0 = cmpi not_equal %arg0, %arg1, signed : tile<i32> -> tile<i1>
    %1 = cmpi equal %arg0, %arg1, signed : tile<i32> -> tile<i1>
    %2 = cmpi greater_than_or_equal %arg0, %arg1, signed : tile<i32> -> tile<i1>
    %3 = cmpi greater_than %arg0, %arg1, unsigned : tile<i32> -> tile<i1>
    %4 = cmpi less_than_or_equal %arg0, %arg1, unsigned : tile<i32> -> tile<i1>
    %5 = cmpi less_than %arg0, %arg1, signed : tile<i32> -> tile<i1>
    return %0, %1, %2, %3, %4, %5 : tile<i1>, tile<i1>, tile<i1>, tile<i1>, tile<i1>, tile<i1>
  }
}
"#,
    );
    out.assert_stat("Simplify", 6);
}

/// not(cmpi) stays when the comparison has another use (no duplicated comparison).
#[test]
fn simplify_not_of_shared_comparison_kept() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%x: tile<i32>, %y: tile<i32>) -> (tile<i1>, tile<i1>) {
    %t = constant <i1: true> : tile<i1>
    %c = cmpi less_than %x, %y, signed : tile<i32> -> tile<i1>
    %n = xori %c, %t : tile<i1>
    return %c, %n : tile<i1>, tile<i1>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i32>, %arg1: tile<i32>) -> (tile<i1>, tile<i1>) {
    %true = constant <i1: true> : tile<i1>
    %0 = cmpi less_than %arg0, %arg1, signed : tile<i32> -> tile<i1>
    %1 = xori %0, %true : tile<i1>
    return %0, %1 : tile<i1>, tile<i1>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("Simplify");
}

/// Variadic and/or: and(x, true) is x, and(x, false) is false, or(x, x) is x,
/// and(a, and(b, a)) is and(a, b), or(b, true) is true, and(a, not a) is false, or(not b, b) is
/// true.
#[test]
fn simplify_and_or() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%a: tile<i1>, %b: tile<i1>) -> (tile<i1>, tile<i1>, tile<i1>, tile<i1>, tile<i1>, tile<i1>, tile<i1>) {
    %t = constant <i1: true> : tile<i1>
    %f = constant <i1: false> : tile<i1>
    %r1 = andi %a, %t : tile<i1>
    %r2 = andi %a, %f : tile<i1>
    %r3 = ori %a, %a : tile<i1>
    %i = andi %b, %a : tile<i1>
    %r4 = andi %a, %i : tile<i1>
    %r5 = ori %b, %t : tile<i1>
    %na = xori %a, %t : tile<i1>
    %r6 = andi %a, %na : tile<i1>
    %nb = xori %b, %t : tile<i1>
    %r7 = ori %nb, %b : tile<i1>
    return %r1, %r2, %r3, %r4, %r5, %r6, %r7 : tile<i1>, tile<i1>, tile<i1>, tile<i1>, tile<i1>, tile<i1>, tile<i1>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i1>, %arg1: tile<i1>) -> (tile<i1>, tile<i1>, tile<i1>, tile<i1>, tile<i1>, tile<i1>, tile<i1>) {
    %true = constant <i1: true> : tile<i1>
    %false = constant <i1: false> : tile<i1>
    %0 = andi %arg0, %arg1 : tile<i1>
    return %arg0, %false, %arg0, %0, %true, %false, %true : tile<i1>, tile<i1>, tile<i1>, tile<i1>, tile<i1>, tile<i1>, tile<i1>
  }
}
"#,
    );
    out.assert_stat("Simplify", 7);
}

/// and/or on wider integers: constants combine (and(and(x, 0xFF), 0x0F) is and(x, 0x0F)),
/// and(x, -1) and or(x, 0) are x, or(x, -1) is -1.
#[test]
fn simplify_and_or_integer_masks() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%x: tile<i32>) -> (tile<i32>, tile<i32>, tile<i32>, tile<i32>) {
    %ff = constant <i32: 255> : tile<i32>
    %f = constant <i32: 15> : tile<i32>
    %ones = constant <i32: -1> : tile<i32>
    %z = constant <i32: 0> : tile<i32>
    %a = andi %x, %ff : tile<i32>
    %r1 = andi %a, %f : tile<i32>
    %r2 = andi %x, %ones : tile<i32>
    %r3 = ori %x, %z : tile<i32>
    %r4 = ori %x, %ones : tile<i32>
    return %r1, %r2, %r3, %r4 : tile<i32>, tile<i32>, tile<i32>, tile<i32>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i32>) -> (tile<i32>, tile<i32>, tile<i32>, tile<i32>) {
    %cst_15_i32 = constant <i32: 15> : tile<i32>
    %cst_-1_i32 = constant <i32: -1> : tile<i32>
    %0 = andi %arg0, %cst_15_i32 : tile<i32>
    return %0, %arg0, %arg0, %cst_-1_i32 : tile<i32>, tile<i32>, tile<i32>, tile<i32>
  }
}
"#,
    );
    out.assert_stat("Simplify", 4);
}

/// and/or chains with nothing to drop stay as written.
#[test]
fn simplify_and_or_negative() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%a: tile<i1>, %b: tile<i1>, %c: tile<i1>, %x: tile<i32>) -> (tile<i1>, tile<i32>) {
    %k = constant <i32: 12> : tile<i32>
    %i = andi %a, %b : tile<i1>
    %r = ori %i, %c : tile<i1>
    %s = andi %x, %k : tile<i32>
    return %r, %s : tile<i1>, tile<i32>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i1>, %arg1: tile<i1>, %arg2: tile<i1>, %arg3: tile<i32>) -> (tile<i1>, tile<i32>) {
    %cst_12_i32 = constant <i32: 12> : tile<i32>
    %0 = andi %arg0, %arg1 : tile<i1>
    %1 = ori %0, %arg2 : tile<i1>
    %2 = andi %arg3, %cst_12_i32 : tile<i32>
    return %1, %2 : tile<i1>, tile<i32>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("Simplify");
}

/// Comparisons of constants fold, signed or unsigned as the op says (-1 < 1 signed, not
/// unsigned); x == x, x <= x, x >= x are true and x != x, x < x, x > x false.
#[test]
fn simplify_integer_comparisons() {
    let src = r#"
cuda_tile.module @m {
  testing$func @k() -> (tile<i1>, tile<i1>, tile<i1>, tile<i1>) {
    %m1 = constant <i8: -1> : tile<i8>
    %one = constant <i8: 1> : tile<i8>
    %r1 = cmpi less_than %m1, %one, signed : tile<i8> -> tile<i1>
    %r2 = cmpi less_than %m1, %one, unsigned : tile<i8> -> tile<i1>
    %r3 = cmpi greater_than_or_equal %m1, %one, unsigned : tile<i8> -> tile<i1>
    %r4 = cmpi equal %m1, %one, signed : tile<i8> -> tile<i1>
    return %r1, %r2, %r3, %r4 : tile<i1>, tile<i1>, tile<i1>, tile<i1>
  }
  testing$func @same(%x: tile<4xi32>) -> (tile<4xi1>, tile<4xi1>, tile<4xi1>, tile<4xi1>, tile<4xi1>, tile<4xi1>) {
    %r1 = cmpi equal %x, %x, signed : tile<4xi32> -> tile<4xi1>
    %r2 = cmpi not_equal %x, %x, signed : tile<4xi32> -> tile<4xi1>
    %r3 = cmpi less_than %x, %x, signed : tile<4xi32> -> tile<4xi1>
    %r4 = cmpi less_than_or_equal %x, %x, unsigned : tile<4xi32> -> tile<4xi1>
    %r5 = cmpi greater_than %x, %x, unsigned : tile<4xi32> -> tile<4xi1>
    %r6 = cmpi greater_than_or_equal %x, %x, signed : tile<4xi32> -> tile<4xi1>
    return %r1, %r2, %r3, %r4, %r5, %r6 : tile<4xi1>, tile<4xi1>, tile<4xi1>, tile<4xi1>, tile<4xi1>, tile<4xi1>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @k() -> (tile<i1>, tile<i1>, tile<i1>, tile<i1>) {
    %false = constant <i1: false> : tile<i1>
    %true = constant <i1: true> : tile<i1>
    return %true, %false, %true, %false : tile<i1>, tile<i1>, tile<i1>, tile<i1>
  }
  testing$func @same(%arg0: tile<4xi32>) -> (tile<4xi1>, tile<4xi1>, tile<4xi1>, tile<4xi1>, tile<4xi1>, tile<4xi1>) {
    %false = constant <i1: false> : tile<4xi1>
    %true = constant <i1: true> : tile<4xi1>
    return %true, %false, %false, %true, %false, %true : tile<4xi1>, tile<4xi1>, tile<4xi1>, tile<4xi1>, tile<4xi1>, tile<4xi1>
  }
}
"#,
    );
    out.assert_stat("Simplify", 10);
}

/// A comparison the simplifier folds to a constant lets RemoveStaticCondition fire in the next
/// round.
#[test]
fn simplify_comparison_feeds_static_condition() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%x: tile<i32>, %a: tile<i32>, %b: tile<i32>) -> tile<i32> {
    %c = cmpi equal %x, %x, signed : tile<i32> -> tile<i1>
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
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i32>, %arg1: tile<i32>, %arg2: tile<i32>) -> tile<i32> {
    print "%d", %arg1 : tile<i32>
    return %arg1 : tile<i32>
  }
}
"#,
    );
    out.assert_stat("Simplify", 1);
    out.assert_stat("RemoveStaticCondition", 1);
}

/// x + 0, 0 + x, x - 0, x * 1, 1 * x, x - x, x * 0, x << 0, x >> 0.
#[test]
fn simplify_arithmetic() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%x: tile<i32>, %y: tile<i32>) -> (tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>) {
    %z = constant <i32: 0> : tile<i32>
    %one = constant <i32: 1> : tile<i32>
    %r1 = addi %x, %z : tile<i32>
    %r2 = addi %z, %y : tile<i32>
    %r3 = subi %x, %z : tile<i32>
    %r4 = muli %x, %one : tile<i32>
    %r5 = muli %one, %y : tile<i32>
    %r6 = subi %x, %x : tile<i32>
    %r7 = muli %y, %z : tile<i32>
    %r8 = shli %x, %z : tile<i32>
    %r9 = shri %y, %z signed : tile<i32>
    return %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9 : tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i32>, %arg1: tile<i32>) -> (tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>) {
    %cst_0_i32 = constant <i32: 0> : tile<i32>
    return %arg0, %arg1, %arg0, %arg0, %arg1, %cst_0_i32, %cst_0_i32, %arg0, %arg1 : tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>
  }
}
"#,
    );
    out.assert_stat("Simplify", 9);
}

/// 0 - x, x + 1, x * 2, x / 1 and x + y stay.
#[test]
fn simplify_arithmetic_negative() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%x: tile<i32>, %y: tile<i32>) -> (tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>) {
    %z = constant <i32: 0> : tile<i32>
    %one = constant <i32: 1> : tile<i32>
    %two = constant <i32: 2> : tile<i32>
    %r1 = subi %z, %x : tile<i32>
    %r2 = addi %x, %one : tile<i32>
    %r3 = muli %x, %two : tile<i32>
    %r4 = divi %x, %one signed : tile<i32>
    %r5 = addi %x, %y : tile<i32>
    return %r1, %r2, %r3, %r4, %r5 : tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i32>, %arg1: tile<i32>) -> (tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>) {
    %cst_0_i32 = constant <i32: 0> : tile<i32>
    %cst_1_i32 = constant <i32: 1> : tile<i32>
    %cst_2_i32 = constant <i32: 2> : tile<i32>
    %0 = subi %cst_0_i32, %arg0 : tile<i32>
    %1 = addi %arg0, %cst_1_i32 : tile<i32>
    %2 = muli %arg0, %cst_2_i32 : tile<i32>
    %3 = divi %arg0, %cst_1_i32 signed : tile<i32>
    %4 = addi %arg0, %arg1 : tile<i32>
    return %0, %1, %2, %3, %4 : tile<i32>, tile<i32>, tile<i32>, tile<i32>, tile<i32>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("Simplify");
}

/// Constant arithmetic wraps around in the element width: 127 + 1 is -128 in i8, -128 - 1 is 127,
/// 100 * 3 is 44, 1 << 7 is -128, -128 >> 7 is -1 (signed) or 1 (unsigned), 3 + 4 is 7 in i64.
#[test]
fn simplify_constant_arithmetic_wraps() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f() -> (tile<i8>, tile<i8>, tile<i8>, tile<i8>, tile<i8>, tile<i8>, tile<i64>) {
    %a = constant <i8: 127> : tile<i8>
    %b = constant <i8: 1> : tile<i8>
    %c = constant <i8: -128> : tile<i8>
    %d = constant <i8: 100> : tile<i8>
    %e = constant <i8: 3> : tile<i8>
    %s = constant <i8: 7> : tile<i8>
    %three = constant <i64: 3> : tile<i64>
    %four = constant <i64: 4> : tile<i64>
    %r1 = addi %a, %b : tile<i8>
    %r2 = subi %c, %b : tile<i8>
    %r3 = muli %d, %e : tile<i8>
    %r4 = shli %b, %s : tile<i8>
    %r5 = shri %c, %s signed : tile<i8>
    %r6 = shri %c, %s unsigned : tile<i8>
    %r7 = addi %three, %four : tile<i64>
    return %r1, %r2, %r3, %r4, %r5, %r6, %r7 : tile<i8>, tile<i8>, tile<i8>, tile<i8>, tile<i8>, tile<i8>, tile<i64>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f() -> (tile<i8>, tile<i8>, tile<i8>, tile<i8>, tile<i8>, tile<i8>, tile<i64>) {
    %cst_7_i64 = constant <i64: 7> : tile<i64>
    %cst_-1_i8 = constant <i8: -1> : tile<i8>
    %cst_44_i8 = constant <i8: 44> : tile<i8>
    %cst_127_i8 = constant <i8: 127> : tile<i8>
    %cst_1_i8 = constant <i8: 1> : tile<i8>
    %cst_-128_i8 = constant <i8: -128> : tile<i8>
    return %cst_-128_i8, %cst_127_i8, %cst_44_i8, %cst_-128_i8, %cst_-1_i8, %cst_1_i8, %cst_7_i64 : tile<i8>, tile<i8>, tile<i8>, tile<i8>, tile<i8>, tile<i8>, tile<i64>
  }
}
"#,
    );
    out.assert_stat("Simplify", 7);
}

/// A fold that would break an overflow flag's promise is not made (the op's result is undefined
/// behaviour there): 127 + 1 with no_signed_wrap, 0 - 1 with no_unsigned_wrap, 16 * 16 in i8 with
/// no_wrap, 64 << 1 with no_signed_wrap. Where the promise holds the fold is made: 127 + 1 with
/// no_unsigned_wrap is 128 (printed -128), 5 - 3 with no_wrap is 2.
#[test]
fn simplify_respects_overflow_flags() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f() -> (tile<i8>, tile<i8>, tile<i8>, tile<i8>, tile<i8>, tile<i8>) {
    %a = constant <i8: 127> : tile<i8>
    %b = constant <i8: 1> : tile<i8>
    %z = constant <i8: 0> : tile<i8>
    %s = constant <i8: 16> : tile<i8>
    %sf = constant <i8: 64> : tile<i8>
    %five = constant <i8: 5> : tile<i8>
    %three = constant <i8: 3> : tile<i8>
    %n1 = addi %a, %b overflow<no_signed_wrap> : tile<i8>
    %n2 = subi %z, %b overflow<no_unsigned_wrap> : tile<i8>
    %n3 = muli %s, %s overflow<no_wrap> : tile<i8>
    %n4 = shli %sf, %b overflow<no_signed_wrap> : tile<i8>
    %y1 = addi %a, %b overflow<no_unsigned_wrap> : tile<i8>
    %y2 = subi %five, %three overflow<no_wrap> : tile<i8>
    return %n1, %n2, %n3, %n4, %y1, %y2 : tile<i8>, tile<i8>, tile<i8>, tile<i8>, tile<i8>, tile<i8>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f() -> (tile<i8>, tile<i8>, tile<i8>, tile<i8>, tile<i8>, tile<i8>) {
    %cst_2_i8 = constant <i8: 2> : tile<i8>
    %cst_-128_i8 = constant <i8: -128> : tile<i8>
    %cst_127_i8 = constant <i8: 127> : tile<i8>
    %cst_1_i8 = constant <i8: 1> : tile<i8>
    %cst_0_i8 = constant <i8: 0> : tile<i8>
    %cst_16_i8 = constant <i8: 16> : tile<i8>
    %cst_64_i8 = constant <i8: 64> : tile<i8>
    %0 = addi %cst_127_i8, %cst_1_i8 overflow<no_signed_wrap> : tile<i8>
    %1 = subi %cst_0_i8, %cst_1_i8 overflow<no_unsigned_wrap> : tile<i8>
    %2 = muli %cst_16_i8, %cst_16_i8 overflow<no_wrap> : tile<i8>
    %3 = shli %cst_64_i8, %cst_1_i8 overflow<no_signed_wrap> : tile<i8>
    return %0, %1, %2, %3, %cst_-128_i8, %cst_2_i8 : tile<i8>, tile<i8>, tile<i8>, tile<i8>, tile<i8>, tile<i8>
  }
}
"#,
    );
    out.assert_stat("Simplify", 2);
}

/// Shifts by the element width or more are not folded.
#[test]
fn simplify_shift_by_width_not_folded() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f() -> (tile<i8>, tile<i8>) {
    %b = constant <i8: 1> : tile<i8>
    %w = constant <i8: 8> : tile<i8>
    %r1 = shli %b, %w : tile<i8>
    %r2 = shri %b, %w unsigned : tile<i8>
    return %r1, %r2 : tile<i8>, tile<i8>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f() -> (tile<i8>, tile<i8>) {
    %cst_1_i8 = constant <i8: 1> : tile<i8>
    %cst_8_i8 = constant <i8: 8> : tile<i8>
    %0 = shli %cst_1_i8, %cst_8_i8 : tile<i8>
    %1 = shri %cst_1_i8, %cst_8_i8 unsigned : tile<i8>
    return %0, %1 : tile<i8>, tile<i8>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("Simplify");
}

/// andi, ori and xori of constants are constants; xori(x, x) is 0.
#[test]
fn simplify_bit_vector_constants() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%x: tile<i16>) -> (tile<i16>, tile<i16>, tile<i16>, tile<i16>) {
    %a = constant <i16: 12> : tile<i16>
    %b = constant <i16: 10> : tile<i16>
    %r1 = andi %a, %b : tile<i16>
    %r2 = ori %a, %b : tile<i16>
    %r3 = xori %a, %b : tile<i16>
    %r4 = xori %x, %x : tile<i16>
    return %r1, %r2, %r3, %r4 : tile<i16>, tile<i16>, tile<i16>, tile<i16>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i16>) -> (tile<i16>, tile<i16>, tile<i16>, tile<i16>) {
    %cst_0_i16 = constant <i16: 0> : tile<i16>
    %cst_6_i16 = constant <i16: 6> : tile<i16>
    %cst_14_i16 = constant <i16: 14> : tile<i16>
    %cst_8_i16 = constant <i16: 8> : tile<i16>
    return %cst_8_i16, %cst_14_i16, %cst_6_i16, %cst_0_i16 : tile<i16>, tile<i16>, tile<i16>, tile<i16>
  }
}
"#,
    );
    out.assert_stat("Simplify", 4);
}

/// Select simplification on what the select fold leaves: select(c, false, true) is xori(c, true).
#[test]
fn simplify_select() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%c: tile<2xi1>) -> tile<2xi1> {
    %t = constant <i1: true> : tile<2xi1>
    %f = constant <i1: false> : tile<2xi1>
    %r = select %c, %f, %t : tile<2xi1>, tile<2xi1>
    return %r : tile<2xi1>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<2xi1>) -> tile<2xi1> {
    %true = constant <i1: true> : tile<2xi1>
    %0 = xori %arg0, %true : tile<2xi1>
    return %0 : tile<2xi1>
  }
}
"#,
    );
    out.assert_stat("Simplify", 1);
}

/// The simplifier works bottom-up: select(x == x, a, b) becomes a once the comparison folds, and
/// select(c, x + 0, x) becomes x once its arm does.
#[test]
fn simplify_select_of_simplified_operands() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%x: tile<i32>, %a: tile<i32>, %b: tile<i32>, %c: tile<i1>) -> (tile<i32>, tile<i32>) {
    %z = constant <i32: 0> : tile<i32>
    %e = cmpi equal %x, %x, signed : tile<i32> -> tile<i1>
    %r = select %e, %a, %b : tile<i1>, tile<i32>
    %y = addi %x, %z : tile<i32>
    %s = select %c, %y, %x : tile<i1>, tile<i32>
    return %r, %s : tile<i32>, tile<i32>
  }
}
"#;
    let out = canon(&["--disable-patterns=FoldSelect"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i32>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i1>) -> (tile<i32>, tile<i32>) {
    return %arg1, %arg0 : tile<i32>, tile<i32>
  }
}
"#,
    );
    out.assert_stat("Simplify", 4);
    out.assert_no_stat("FoldSelect");
}

/// Float ops are never simplified: x + 0.0, x * 1.0, x - x stay.
#[test]
fn simplify_leaves_float_ops() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%x: tile<f32>) -> (tile<f32>, tile<f32>, tile<f32>) {
    %z = constant <f32: 0.0> : tile<f32>
    %one = constant <f32: 1.0> : tile<f32>
    %r1 = addf %x, %z : tile<f32>
    %r2 = mulf %x, %one : tile<f32>
    %r3 = subf %x, %x : tile<f32>
    return %r1, %r2, %r3 : tile<f32>, tile<f32>, tile<f32>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<f32>) -> (tile<f32>, tile<f32>, tile<f32>) {
    %cst_0_f32 = constant <f32: 0.000000e+00> : tile<f32>
    %cst_1_f32 = constant <f32: 1.000000e+00> : tile<f32>
    %0 = addf %arg0, %cst_0_f32  : tile<f32>
    %1 = mulf %arg0, %cst_1_f32  : tile<f32>
    %2 = subf %arg0, %arg0  : tile<f32>
    return %0, %1, %2 : tile<f32>, tile<f32>, tile<f32>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("Simplify");
}

/// Values inside branches and loop bodies are simplified too; constants go to the function entry.
#[test]
fn simplify_inside_regions() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%x: tile<i32>, %c: tile<i1>) -> tile<i32> {
    %z = constant <i32: 0> : tile<i32>
    %r = if %c -> (tile<i32>) {
      %a = addi %x, %z : tile<i32>
      %b = muli %a, %x : tile<i32>
      yield %b : tile<i32>
    } else {
      %d = subi %x, %x : tile<i32>
      %e = cmpi equal %d, %z, signed : tile<i32> -> tile<i1>
      print "%d", %e : tile<i1>
      yield %x : tile<i32>
    }
    return %r : tile<i32>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i32>, %arg1: tile<i1>) -> tile<i32> {
    %true = constant <i1: true> : tile<i1>
    %0 = if %arg1 -> (tile<i32>) {
      %1 = muli %arg0, %arg0 : tile<i32>
      yield %1 : tile<i32>
    } else {
      print "%d", %true : tile<i1>
      yield %arg0 : tile<i32>
    }
    return %0 : tile<i32>
  }
}
"#,
    );
    out.assert_stat("Simplify", 3);
}

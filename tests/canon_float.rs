//! FoldAddF, the only float fold (canonicalizers-and-folds.md, "Constant and AddF", and the
//! second contract): `addf` of two finite constants folds to the exactly rounded sum in the
//! declared rounding mode, honouring flush-to-zero, for f16, bf16, f32 and f64, splat or
//! not; NaN and infinite operands and overflowing sums are not folded; no other float op
//! folds.
//!
//! Constants are written in decimal or as hexadecimal bit patterns; 2^-30 is
//! 9.31322574615478515625E-10 and the f32 spacing just above 1.0 is 2^-23, so
//! 1 + 2^-30 is 1.0 except when rounding toward positive infinity (1.00000012).
//!
//! Every output is also re-verified, re-printed and re-canonicalized (see canon_common.rs).

mod canon_common;

use canon_common::canon;
use tilec_tests::verify_diags;

/// 1 + 2^-30 and -1 - 2^-30 in f32 under each rounding mode: only the direction away from
/// zero moves off ±1.0 (by one ulp).
#[test]
fn addf_rounding_modes_f32() {
    let src = r#"
cuda_tile.module @m {
  testing$func @pos() -> (tile<f32>, tile<f32>, tile<f32>, tile<f32>) {
    %one = constant <f32: 1.0> : tile<f32>
    %tiny = constant <f32: 9.31322574615478515625E-10> : tile<f32>
    %ne = addf %one, %tiny : tile<f32>
    %rz = addf %one, %tiny rounding<zero> : tile<f32>
    %rn = addf %one, %tiny rounding<negative_inf> : tile<f32>
    %rp = addf %one, %tiny rounding<positive_inf> : tile<f32>
    return %ne, %rz, %rn, %rp : tile<f32>, tile<f32>, tile<f32>, tile<f32>
  }
  testing$func @neg() -> (tile<f32>, tile<f32>, tile<f32>, tile<f32>) {
    %one = constant <f32: -1.0> : tile<f32>
    %tiny = constant <f32: -9.31322574615478515625E-10> : tile<f32>
    %ne = addf %one, %tiny rounding<nearest_even> : tile<f32>
    %rz = addf %one, %tiny rounding<zero> : tile<f32>
    %rn = addf %one, %tiny rounding<negative_inf> : tile<f32>
    %rp = addf %one, %tiny rounding<positive_inf> : tile<f32>
    return %ne, %rz, %rn, %rp : tile<f32>, tile<f32>, tile<f32>, tile<f32>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @pos() -> (tile<f32>, tile<f32>, tile<f32>, tile<f32>) {
    %cst_f32 = constant <f32: 1.00000012> : tile<f32>
    %cst_1_f32 = constant <f32: 1.000000e+00> : tile<f32>
    return %cst_1_f32, %cst_1_f32, %cst_1_f32, %cst_f32 : tile<f32>, tile<f32>, tile<f32>, tile<f32>
  }
  testing$func @neg() -> (tile<f32>, tile<f32>, tile<f32>, tile<f32>) {
    %cst_f32 = constant <f32: -1.00000012> : tile<f32>
    %cst_f32_0 = constant <f32: -1.000000e+00> : tile<f32>
    return %cst_f32_0, %cst_f32_0, %cst_f32, %cst_f32_0 : tile<f32>, tile<f32>, tile<f32>, tile<f32>
  }
}
"#,
    );
    out.assert_stat("FoldAddF", 8);
}

/// -1 + 2^-30 is just above -1: toward zero (and toward +inf) it is -0.99999994 (1 - 2^-24),
/// otherwise -1.0.
#[test]
fn addf_rounding_toward_zero_below_one() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f() -> (tile<f32>, tile<f32>, tile<f32>, tile<f32>) {
    %one = constant <f32: -1.0> : tile<f32>
    %tiny = constant <f32: 9.31322574615478515625E-10> : tile<f32>
    %ne = addf %one, %tiny : tile<f32>
    %rz = addf %one, %tiny rounding<zero> : tile<f32>
    %rn = addf %one, %tiny rounding<negative_inf> : tile<f32>
    %rp = addf %one, %tiny rounding<positive_inf> : tile<f32>
    return %ne, %rz, %rn, %rp : tile<f32>, tile<f32>, tile<f32>, tile<f32>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f() -> (tile<f32>, tile<f32>, tile<f32>, tile<f32>) {
    %cst_f32 = constant <f32: -0.99999994> : tile<f32>
    %cst_f32_0 = constant <f32: -1.000000e+00> : tile<f32>
    return %cst_f32_0, %cst_f32, %cst_f32_0, %cst_f32 : tile<f32>, tile<f32>, tile<f32>, tile<f32>
  }
}
"#,
    );
    out.assert_stat("FoldAddF", 4);
}

/// Ties round to even: 1 + 2^-24 (half an ulp) is 1.0, (1 + 2^-23) + 2^-24 is 1 + 2^-22.
#[test]
fn addf_ties_to_even() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f() -> (tile<f32>, tile<f32>) {
    %one = constant <f32: 1.0> : tile<f32>
    %odd = constant <f32: 0x3F800001> : tile<f32>
    %half_ulp = constant <f32: 5.9604644775390625E-8> : tile<f32>
    %a = addf %one, %half_ulp : tile<f32>
    %b = addf %odd, %half_ulp : tile<f32>
    return %a, %b : tile<f32>, tile<f32>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f() -> (tile<f32>, tile<f32>) {
    %cst_f32 = constant <f32: 1.00000024> : tile<f32>
    %cst_1_f32 = constant <f32: 1.000000e+00> : tile<f32>
    return %cst_1_f32, %cst_f32 : tile<f32>, tile<f32>
  }
}
"#,
    );
    out.assert_stat("FoldAddF", 2);
}

/// Zero signs follow IEEE 754: -0 + -0 is -0; x + (-x) is +0, or -0 rounding toward negative
/// infinity; a flushed negative subnormal plus -0 is -0.
#[test]
fn addf_signed_zeros() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f() -> (tile<f32>, tile<f32>, tile<f32>, tile<f32>, tile<f32>) {
    %nz = constant <f32: -0.0> : tile<f32>
    %pz = constant <f32: 0.0> : tile<f32>
    %one = constant <f32: 1.0> : tile<f32>
    %mone = constant <f32: -1.0> : tile<f32>
    %nsub = constant <f32: -1.0E-40> : tile<f32>
    %a = addf %nz, %nz : tile<f32>
    %b = addf %one, %mone : tile<f32>
    %c = addf %one, %mone rounding<negative_inf> : tile<f32>
    %d = addf %nsub, %nz flush_to_zero : tile<f32>
    %e = addf %nz, %pz rounding<positive_inf> : tile<f32>
    return %a, %b, %c, %d, %e : tile<f32>, tile<f32>, tile<f32>, tile<f32>, tile<f32>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f() -> (tile<f32>, tile<f32>, tile<f32>, tile<f32>, tile<f32>) {
    %cst_0_f32 = constant <f32: -0.000000e+00> : tile<f32>
    %cst_0_f32_0 = constant <f32: 0.000000e+00> : tile<f32>
    return %cst_0_f32, %cst_0_f32_0, %cst_0_f32, %cst_0_f32, %cst_0_f32_0 : tile<f32>, tile<f32>, tile<f32>, tile<f32>, tile<f32>
  }
}
"#,
    );
    out.assert_stat("FoldAddF", 5);
}

/// flush_to_zero: a subnormal operand counts as zero (1.0E-40 + 0 is 0, and 1 + 1.0E-40 toward
/// +inf stays 1.0), and a subnormal sum becomes zero (1.5 * 2^-126 - 2^-126); without it the
/// subnormals take part.
#[test]
fn addf_flush_to_zero() {
    let src = r#"
cuda_tile.module @m {
  testing$func @ftz() -> (tile<f32>, tile<f32>, tile<f32>) {
    %sub = constant <f32: 1.0E-40> : tile<f32>
    %zero = constant <f32: 0.0> : tile<f32>
    %one = constant <f32: 1.0> : tile<f32>
    %big = constant <f32: 0x00C00000> : tile<f32>
    %small = constant <f32: 0x80800000> : tile<f32>
    %a = addf %sub, %zero flush_to_zero : tile<f32>
    %b = addf %sub, %one rounding<positive_inf> flush_to_zero : tile<f32>
    %c = addf %big, %small flush_to_zero : tile<f32>
    return %a, %b, %c : tile<f32>, tile<f32>, tile<f32>
  }
  testing$func @no_ftz() -> (tile<f32>, tile<f32>, tile<f32>) {
    %sub = constant <f32: 1.0E-40> : tile<f32>
    %zero = constant <f32: 0.0> : tile<f32>
    %one = constant <f32: 1.0> : tile<f32>
    %big = constant <f32: 0x00C00000> : tile<f32>
    %small = constant <f32: 0x80800000> : tile<f32>
    %a = addf %sub, %zero : tile<f32>
    %b = addf %sub, %one rounding<positive_inf> : tile<f32>
    %c = addf %big, %small : tile<f32>
    return %a, %b, %c : tile<f32>, tile<f32>, tile<f32>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @ftz() -> (tile<f32>, tile<f32>, tile<f32>) {
    %cst_0_f32 = constant <f32: 0.000000e+00> : tile<f32>
    %cst_1_f32 = constant <f32: 1.000000e+00> : tile<f32>
    return %cst_0_f32, %cst_1_f32, %cst_0_f32 : tile<f32>, tile<f32>, tile<f32>
  }
  testing$func @no_ftz() -> (tile<f32>, tile<f32>, tile<f32>) {
    %cst_f32 = constant <f32: 1.00000012> : tile<f32>
    %cst_f32_0 = constant <f32: 5.87747175E-39> : tile<f32>
    %cst_f32_1 = constant <f32: 9.999940e-41> : tile<f32>
    return %cst_f32_1, %cst_f32, %cst_f32_0 : tile<f32>, tile<f32>, tile<f32>
  }
}
"#,
    );
    out.assert_stat("FoldAddF", 6);
}

/// f16: 1 + 2^-11 is 1.0, toward +inf 1 + 2^-10; bf16: 1 + 2^-9 is 1.0, toward +inf 1 + 2^-7;
/// f64: 0.1 + 0.2 is 0.30000000000000004 to nearest and the double nearest 0.3 toward zero,
/// 1 + 2^-60 toward +inf is 1 + 2^-52.
#[test]
fn addf_other_types() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f() -> (tile<f16>, tile<f16>, tile<bf16>, tile<bf16>, tile<f64>, tile<f64>, tile<f64>) {
    %h1 = constant <f16: 1.0> : tile<f16>
    %h2 = constant <f16: 4.8828125E-4> : tile<f16>
    %h = addf %h1, %h2 : tile<f16>
    %hp = addf %h1, %h2 rounding<positive_inf> : tile<f16>
    %b1 = constant <bf16: 1.0> : tile<bf16>
    %b2 = constant <bf16: 0.001953125> : tile<bf16>
    %b = addf %b1, %b2 : tile<bf16>
    %bp = addf %b1, %b2 rounding<positive_inf> : tile<bf16>
    %d1 = constant <f64: 0.1> : tile<f64>
    %d2 = constant <f64: 0.2> : tile<f64>
    %d = addf %d1, %d2 : tile<f64>
    %dz = addf %d1, %d2 rounding<zero> : tile<f64>
    %one = constant <f64: 1.0> : tile<f64>
    %tiny = constant <f64: 8.673617379884035472059622406959533691406250E-19> : tile<f64>
    %dp = addf %one, %tiny rounding<positive_inf> : tile<f64>
    return %h, %hp, %b, %bp, %d, %dz, %dp : tile<f16>, tile<f16>, tile<bf16>, tile<bf16>, tile<f64>, tile<f64>, tile<f64>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f() -> (tile<f16>, tile<f16>, tile<bf16>, tile<bf16>, tile<f64>, tile<f64>, tile<f64>) {
    %cst_f16 = constant <f16: 1.000980e+00> : tile<f16>
    %cst_bf16 = constant <bf16: 1.007810e+00> : tile<bf16>
    %cst_f64 = constant <f64: 0.30000000000000004> : tile<f64>
    %cst_f64_0 = constant <f64: 3.000000e-01> : tile<f64>
    %cst_f64_1 = constant <f64: 1.0000000000000002> : tile<f64>
    %cst_1_bf16 = constant <bf16: 1.000000e+00> : tile<bf16>
    %cst_1_f16 = constant <f16: 1.000000e+00> : tile<f16>
    return %cst_1_f16, %cst_f16, %cst_1_bf16, %cst_bf16, %cst_f64, %cst_f64_0, %cst_f64_1 : tile<f16>, tile<f16>, tile<bf16>, tile<bf16>, tile<f64>, tile<f64>, tile<f64>
  }
}
"#,
    );
    out.assert_stat("FoldAddF", 7);
}

/// Non-splat constants fold element by element, also against a splat; the f16 elements cancel
/// and add.
#[test]
fn addf_non_splat() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f() -> (tile<4xf32>, tile<2xf16>, tile<2x2xbf16>, tile<2xf64>) {
    %v1 = constant <f32: [1.0, 2.0, -3.5, 0.25]> : tile<4xf32>
    %v2 = constant <f32: 0.5> : tile<4xf32>
    %v = addf %v1, %v2 : tile<4xf32>
    %w1 = constant <f16: [65504.0, 1.0]> : tile<2xf16>
    %w2 = constant <f16: [-65504.0, 2.0]> : tile<2xf16>
    %w = addf %w1, %w2 : tile<2xf16>
    %m1 = constant <bf16: [[1.0, 2.0], [3.0, 4.0]]> : tile<2x2xbf16>
    %m2 = constant <bf16: [[0.5, 0.5], [-3.0, 4.0]]> : tile<2x2xbf16>
    %m = addf %m1, %m2 rounding<zero> : tile<2x2xbf16>
    %d1 = constant <f64: [0.1, 1.0E+300]> : tile<2xf64>
    %d2 = constant <f64: [0.2, 1.0E+300]> : tile<2xf64>
    %d = addf %d1, %d2 : tile<2xf64>
    return %v, %w, %m, %d : tile<4xf32>, tile<2xf16>, tile<2x2xbf16>, tile<2xf64>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f() -> (tile<4xf32>, tile<2xf16>, tile<2x2xbf16>, tile<2xf64>) {
    %cst_f32 = constant <f32: [1.500000e+00, 2.500000e+00, -3.000000e+00, 7.500000e-01]> : tile<4xf32>
    %cst_f16 = constant <f16: [0.000000e+00, 3.000000e+00]> : tile<2xf16>
    %cst_bf16 = constant <bf16: [[1.500000e+00, 2.500000e+00], [0.000000e+00, 8.000000e+00]]> : tile<2x2xbf16>
    %cst_f64 = constant <f64: [0.30000000000000004, 2.000000e+300]> : tile<2xf64>
    return %cst_f32, %cst_f16, %cst_bf16, %cst_f64 : tile<4xf32>, tile<2xf16>, tile<2x2xbf16>, tile<2xf64>
  }
}
"#,
    );
    out.assert_stat("FoldAddF", 4);
}

/// Folded sums fold again: (1 + 2) + 3 is 6.
#[test]
fn addf_chain() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f() -> tile<f32> {
    %a = constant <f32: 1.0> : tile<f32>
    %b = constant <f32: 2.0> : tile<f32>
    %c = constant <f32: 3.0> : tile<f32>
    %s = addf %a, %b : tile<f32>
    %t = addf %s, %c : tile<f32>
    return %t : tile<f32>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f() -> tile<f32> {
    %cst_6_f32 = constant <f32: 6.000000e+00> : tile<f32>
    return %cst_6_f32 : tile<f32>
  }
}
"#,
    );
    out.assert_stat("FoldAddF", 2);
}

/// FoldAddF also runs in the cuda-tile-opt personality.
#[test]
fn addf_folds_in_compat_personality() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f() -> tile<f32> {
    %a = constant <f32: 1.0> : tile<f32>
    %b = constant <f32: 2.0> : tile<f32>
    %s = addf %a, %b rounding<zero> : tile<f32>
    return %s : tile<f32>
  }
}
"#;
    let out = canon(&["--compat=cuda-tile-opt"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f() -> tile<f32> {
    %cst_3_f32 = constant <f32: 3.000000e+00> : tile<f32>
    return %cst_3_f32 : tile<f32>
  }
}
"#,
    );
    out.assert_stat("FoldAddF", 1);
}

/// Sums beyond the largest finite value are not folded, in any rounding mode (no infinity is
/// created, nothing saturates silently): max + max in f32 and f16, -max - max, and max + 2^103
/// (a tie that rounds up to infinity).
#[test]
fn addf_overflow_not_folded() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f() -> (tile<f32>, tile<f32>, tile<f32>, tile<f32>, tile<f16>) {
    %max = constant <f32: 3.4028234663852886E+38> : tile<f32>
    %nmax = constant <f32: -3.4028234663852886E+38> : tile<f32>
    %half = constant <f32: 0x73000000> : tile<f32>
    %hmax = constant <f16: 65504.0> : tile<f16>
    %a = addf %max, %max : tile<f32>
    %b = addf %max, %max rounding<zero> : tile<f32>
    %c = addf %nmax, %nmax rounding<positive_inf> : tile<f32>
    %d = addf %max, %half : tile<f32>
    %e = addf %hmax, %hmax rounding<negative_inf> : tile<f16>
    return %a, %b, %c, %d, %e : tile<f32>, tile<f32>, tile<f32>, tile<f32>, tile<f16>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f() -> (tile<f32>, tile<f32>, tile<f32>, tile<f32>, tile<f16>) {
    %cst_f32 = constant <f32: 3.40282347E+38> : tile<f32>
    %cst_f32_0 = constant <f32: -3.40282347E+38> : tile<f32>
    %cst_f32_1 = constant <f32: 1.01412048E+31> : tile<f32>
    %cst_65504_f16 = constant <f16: 6.550400e+04> : tile<f16>
    %0 = addf %cst_f32, %cst_f32  : tile<f32>
    %1 = addf %cst_f32, %cst_f32 rounding<zero> : tile<f32>
    %2 = addf %cst_f32_0, %cst_f32_0 rounding<positive_inf> : tile<f32>
    %3 = addf %cst_f32, %cst_f32_1  : tile<f32>
    %4 = addf %cst_65504_f16, %cst_65504_f16 rounding<negative_inf> : tile<f16>
    return %0, %1, %2, %3, %4 : tile<f32>, tile<f32>, tile<f32>, tile<f32>, tile<f16>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("FoldAddF");
}

/// A sum that lands exactly on the largest finite value still folds.
#[test]
fn addf_largest_finite_sum_folds() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f() -> tile<f16> {
    %a = constant <f16: 65472.0> : tile<f16>
    %b = constant <f16: 32.0> : tile<f16>
    %s = addf %a, %b : tile<f16>
    return %s : tile<f16>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f() -> tile<f16> {
    %cst_65504_f16 = constant <f16: 6.550400e+04> : tile<f16>
    return %cst_65504_f16 : tile<f16>
  }
}
"#,
    );
    out.assert_stat("FoldAddF", 1);
}

/// NaN or infinite operands are never folded: inf + 1, 1 + NaN, -inf + inf, a signalling NaN
/// bit pattern, and a non-splat constant with one NaN element (no element folds then).
#[test]
fn addf_nan_and_inf_not_folded() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f() -> (tile<f32>, tile<f32>, tile<f32>, tile<f32>, tile<2xf64>) {
    %inf = constant <f32: inf> : tile<f32>
    %ninf = constant <f32: -inf> : tile<f32>
    %nan = constant <f32: nan> : tile<f32>
    %hnan = constant <f32: 0xFF800001> : tile<f32>
    %one = constant <f32: 1.0> : tile<f32>
    %v = constant <f64: [1.0, nan]> : tile<2xf64>
    %w = constant <f64: [2.0, 3.0]> : tile<2xf64>
    %a = addf %inf, %one : tile<f32>
    %b = addf %one, %nan : tile<f32>
    %c = addf %ninf, %inf : tile<f32>
    %d = addf %hnan, %one rounding<zero> : tile<f32>
    %e = addf %v, %w : tile<2xf64>
    return %a, %b, %c, %d, %e : tile<f32>, tile<f32>, tile<f32>, tile<f32>, tile<2xf64>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f() -> (tile<f32>, tile<f32>, tile<f32>, tile<f32>, tile<2xf64>) {
    %cst_f32 = constant <f32: 0x7F800000> : tile<f32>
    %cst_f32_0 = constant <f32: 0xFF800000> : tile<f32>
    %cst_NaN_f32 = constant <f32: 0x7FC00000> : tile<f32>
    %cst_NaN_f32_1 = constant <f32: 0xFF800001> : tile<f32>
    %cst_1_f32 = constant <f32: 1.000000e+00> : tile<f32>
    %cst_f64 = constant <f64: [1.000000e+00, 0x7FF8000000000000]> : tile<2xf64>
    %cst_f64_2 = constant <f64: [2.000000e+00, 3.000000e+00]> : tile<2xf64>
    %0 = addf %cst_f32, %cst_1_f32  : tile<f32>
    %1 = addf %cst_1_f32, %cst_NaN_f32  : tile<f32>
    %2 = addf %cst_f32_0, %cst_f32  : tile<f32>
    %3 = addf %cst_NaN_f32_1, %cst_1_f32 rounding<zero> : tile<f32>
    %4 = addf %cst_f64, %cst_f64_2  : tile<2xf64>
    return %0, %1, %2, %3, %4 : tile<f32>, tile<f32>, tile<f32>, tile<f32>, tile<2xf64>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("FoldAddF");
}

/// FoldAddF needs both operands constant: x + 0.0 stays (no algebraic float identities).
#[test]
fn addf_with_a_variable_not_folded() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%x: tile<f32>) -> (tile<f32>, tile<f32>) {
    %zero = constant <f32: 0.0> : tile<f32>
    %nz = constant <f32: -0.0> : tile<f32>
    %a = addf %x, %zero : tile<f32>
    %b = addf %nz, %x : tile<f32>
    return %a, %b : tile<f32>, tile<f32>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<f32>) -> (tile<f32>, tile<f32>) {
    %cst_0_f32 = constant <f32: 0.000000e+00> : tile<f32>
    %cst_0_f32_0 = constant <f32: -0.000000e+00> : tile<f32>
    %0 = addf %arg0, %cst_0_f32  : tile<f32>
    %1 = addf %cst_0_f32_0, %arg0  : tile<f32>
    return %0, %1 : tile<f32>, tile<f32>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("FoldAddF");
}

/// No other float op folds, even on constants: subf, mulf, divf, negf.
#[test]
fn other_float_ops_not_folded() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f() -> (tile<f32>, tile<f32>, tile<f32>, tile<f32>) {
    %a = constant <f32: 1.0> : tile<f32>
    %b = constant <f32: 2.0> : tile<f32>
    %s = subf %a, %b : tile<f32>
    %m = mulf %a, %b : tile<f32>
    %d = divf %a, %b : tile<f32>
    %n = negf %a : tile<f32>
    return %s, %m, %d, %n : tile<f32>, tile<f32>, tile<f32>, tile<f32>
  }
}
"#;
    let out = canon(&[], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f() -> (tile<f32>, tile<f32>, tile<f32>, tile<f32>) {
    %cst_1_f32 = constant <f32: 1.000000e+00> : tile<f32>
    %cst_2_f32 = constant <f32: 2.000000e+00> : tile<f32>
    %0 = subf %cst_1_f32, %cst_2_f32  : tile<f32>
    %1 = mulf %cst_1_f32, %cst_2_f32  : tile<f32>
    %2 = divf %cst_1_f32, %cst_2_f32  : tile<f32>
    %3 = negf %cst_1_f32 : tile<f32>
    return %0, %1, %2, %3 : tile<f32>, tile<f32>, tile<f32>, tile<f32>
  }
}
"#,
    );
    out.assert_unchanged(src);
    out.assert_no_stat("FoldAddF");
}

/// `addf` takes only the four IEEE rounding directions: `approx` and `full` (divf's modes) are
/// rejected by the verifier before any folding could be attempted.
#[test]
fn addf_approx_and_full_rounding_rejected() {
    for mode in ["approx", "full"] {
        let src = format!(
            "cuda_tile.module @m {{\n  testing$func @f() -> tile<f32> {{\n    %a = constant <f32: 1.0> : tile<f32>\n    %s = addf %a, %a rounding<{mode}> : tile<f32>\n    return %s : tile<f32>\n  }}\n}}\n"
        );
        assert_eq!(
            verify_diags(&src, false),
            ["error 4:10: 'cuda_tile.addf' op rounding mode not allowed outside divf"]
        );
        let out = tilec_tests::run_tilec(&["opt", "-", "-p", "canonicalize"], &src);
        assert_eq!(out.status, 1, "{}", out.stderr);
        assert_eq!(out.stdout, "");
    }
}

//! NVIDIA's 13.3 `Transforms/` passes in tilec: `fuse-fma` and `loop-split` (exact printed
//! IR, the cases that must not change, options and `cuda_tile.loop_split` hints), the
//! `--pass-pipeline=` spelling with its anchors, malformed pipelines (usage errors), and
//! the syntax NVIDIA's tests for them use (a builtin `module attributes {...}` wrapper, an
//! `entry`'s trailing attribute dictionary).
//!
//! Every output is also re-verified and re-printed (see canon_common.rs). NVIDIA's own lit
//! files (Transforms/fuse-fma.mlir, Transforms/loop_split.mlir) run in
//! crates/tilec/tests/lit.rs.

mod canon_common;

use canon_common::{opt, text};
use tilec_tests::run_tilec;
const FMA_INPUT: &str = r#"
cuda_tile.module @m {
  testing$func @f(%a: tile<4xf32>, %b: tile<4xf32>, %c: tile<4xf32>, %s: tile<f32>) -> (tile<4xf32>, tile<4xf32>, tile<4xf32>) {
    %m1 = mulf %a, %b rounding<zero> flush_to_zero : tile<4xf32>
    %r1 = addf %c, %m1 rounding<zero> flush_to_zero : tile<4xf32>
    %m2 = mulf %a, %c : tile<4xf32>
    %sr = reshape %s : tile<f32> -> tile<1xf32>
    %sb = broadcast %sr : tile<1xf32> -> tile<4xf32>
    %r2 = subf %m2, %sb : tile<4xf32>
    %m3 = mulf %b, %c : tile<4xf32>
    %r3 = addf %m3, %r2 : tile<4xf32>
    return %r1, %r2, %r3 : tile<4xf32>, tile<4xf32>, tile<4xf32>
  }
}
"#;
const NO_FMA_INPUT: &str = r#"
cuda_tile.module @m {
  testing$func @f(%a: tile<f32>, %b: tile<f32>, %c: tile<f32>) -> (tile<f32>, tile<f32>, tile<f32>, tile<f32>) {
    %m1 = mulf %a, %b : tile<f32>
    %r1 = addf %m1, %c rounding<zero> : tile<f32>
    %m2 = mulf %a, %c flush_to_zero : tile<f32>
    %r2 = subf %m2, %b : tile<f32>
    %m3 = mulf %b, %c : tile<f32>
    %r3 = addf %m3, %a : tile<f32>
    %r4 = subf %a, %m3 : tile<f32>
    return %r1, %r2, %r3, %r4 : tile<f32>, tile<f32>, tile<f32>, tile<f32>
  }
}
"#;
const SPLIT_INPUT: &str = r#"
cuda_tile.module @m {
  entry @k(%p: tile<ptr<i32>>, %n: tile<i32>) {
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %c16 = constant <i32: 16> : tile<i32>
    %r = for %i in (%c0 to %c16, step %c1) : tile<i32> iter_values(%acc = %c0) -> (tile<i32>) {
      %gt = cmpi greater_than %i, %n, signed : tile<i32> -> tile<i1>
      %v = if %gt -> (tile<i32>) {
        %d = muli %i, %i : tile<i32>
        yield %d : tile<i32>
      } else {
        yield %i : tile<i32>
      }
      %s = addi %acc, %v : tile<i32>
      continue %s : tile<i32>
    }
    %t = store_ptr_tko weak %p, %r : tile<ptr<i32>>, tile<i32> -> token
    return
  }
}
"#;
const SPLIT_STEP_INPUT: &str = r#"
cuda_tile.module @m {
  entry @k(%p: tile<ptr<i32>>, %n: tile<i32>, %lb: tile<i32>) {
    %c0 = constant <i32: 0> : tile<i32>
    %c3 = constant <i32: 3> : tile<i32>
    %c16 = constant <i32: 16> : tile<i32>
    %r = for %i in (%lb to %c16, step %c3) : tile<i32> iter_values(%acc = %c0) -> (tile<i32>) {
      %lt = cmpi less_than_or_equal %n, %i, signed : tile<i32> -> tile<i1>
      %v = if %lt -> (tile<i32>) {
        yield %c3 : tile<i32>
      } else {
        yield %i : tile<i32>
      }
      %s = addi %acc, %v : tile<i32>
      continue %s : tile<i32>
    }
    %t = store_ptr_tko weak %p, %r : tile<ptr<i32>>, tile<i32> -> token
    return
  }
}
"#;
const NO_SPLIT_INPUT: &str = r#"
cuda_tile.module @m {
  entry @k(%p: tile<ptr<i32>>, %n: tile<i32>) {
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %c16 = constant <i32: 16> : tile<i32>
    %r = for %i in (%c0 to %c16, step %c1) : tile<i32> iter_values(%acc = %c0) -> (tile<i32>) {
      %eq = cmpi equal %i, %n, signed : tile<i32> -> tile<i1>
      %a = if %eq -> (tile<i32>) {
        yield %c1 : tile<i32>
      } else {
        yield %i : tile<i32>
      }
      %lt = cmpi less_than %i, %acc, signed : tile<i32> -> tile<i1>
      %b = if %lt -> (tile<i32>) {
        yield %c1 : tile<i32>
      } else {
        yield %a : tile<i32>
      }
      %ge = cmpi greater_than_or_equal %i, %n, signed : tile<i32> -> tile<i1>
      %c = if %ge -> (tile<i32>) {
        yield %c1 : tile<i32>
      } else {
        yield %b : tile<i32>
      } {cuda_tile.loop_split = 0}
      %s = addi %acc, %c : tile<i32>
      continue %s : tile<i32>
    }
    %t = store_ptr_tko weak %p, %r : tile<ptr<i32>>, tile<i32> -> token
    return
  }
  testing$func @f(%n: tile<i32>) -> tile<i32> {
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %c16 = constant <i32: 16> : tile<i32>
    %r = for %i in (%c0 to %c16, step %c1) : tile<i32> iter_values(%acc = %c0) -> (tile<i32>) {
      %gt = cmpi greater_than %i, %n, signed : tile<i32> -> tile<i1>
      %v = if %gt -> (tile<i32>) {
        yield %i : tile<i32>
      } else {
        yield %c1 : tile<i32>
      }
      %s = addi %acc, %v : tile<i32>
      continue %s : tile<i32>
    }
    return %r : tile<i32>
  }
}
"#;
const WRAPPED_INPUT: &str = r#"
module attributes {gpu.container_module} {
  cuda_tile.module @m {
    entry @k() {
      return
    } {cuda_tile.loop_split = 0}
  }
}
"#;

/// `addf(c, mulf)` is commuted and fused (keeping `rounding<zero> flush_to_zero`); `subf(mulf, bcast)` becomes
/// `fma(a, b, negf(bcast))` with the broadcast addend used as it is; a fused result can be
/// the addend of the next `fma`; the multiplications are gone.
#[test]
fn fuse_fma_fuses_add_sub_and_commuted_add() {
    let out = opt(&["-p", "fuse-fma", "--verify-each"], FMA_INPUT);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<4xf32>, %arg1: tile<4xf32>, %arg2: tile<4xf32>, %arg3: tile<f32>) -> (tile<4xf32>, tile<4xf32>, tile<4xf32>) {
    %0 = fma %arg0, %arg1, %arg2 rounding<zero> flush_to_zero : tile<4xf32>
    %reshape = reshape %arg3 : tile<f32> -> tile<1xf32>
    %bcast = broadcast %reshape : tile<1xf32> -> tile<4xf32>
    %1 = negf %bcast : tile<4xf32>
    %2 = fma %arg0, %arg2, %1  : tile<4xf32>
    %3 = fma %arg1, %arg2, %2  : tile<4xf32>
    return %0, %2, %3 : tile<4xf32>, tile<4xf32>, tile<4xf32>
  }
}
"#,
    );
}

/// No fusion: different rounding modes, different flush-to-zero, a product with two uses,
/// and a product on the right of `subf`.
#[test]
fn fuse_fma_leaves_mismatched_and_shared_products() {
    let out = opt(&["-p", "fuse-fma"], NO_FMA_INPUT);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<f32>, %arg1: tile<f32>, %arg2: tile<f32>) -> (tile<f32>, tile<f32>, tile<f32>, tile<f32>) {
    %0 = mulf %arg0, %arg1  : tile<f32>
    %1 = addf %0, %arg2 rounding<zero> : tile<f32>
    %2 = mulf %arg0, %arg2  flush_to_zero : tile<f32>
    %3 = subf %2, %arg1  : tile<f32>
    %4 = mulf %arg1, %arg2  : tile<f32>
    %5 = addf %4, %arg0  : tile<f32>
    %6 = subf %arg0, %4  : tile<f32>
    return %1, %3, %5, %6 : tile<f32>, tile<f32>, tile<f32>, tile<f32>
  }
}
"#,
    );
}

/// `iv > n`: the split point is `n + 1` (`n` if `n` is the largest `i32`, where `n + 1`
/// would wrap), the first loop keeps the else branch and the
/// second the then branch (its results by the yielded values); the second loop starts
/// from the first one's results.
#[test]
fn loop_split_splits_at_an_invariant_bound() {
    let out = opt(&["-p", "loop-split", "--verify-each"], SPLIT_INPUT);
    out.assert_output(
        r#"
cuda_tile.module @m {
  entry @k(%arg0: tile<ptr<i32>>, %arg1: tile<i32>) {
    %cst_0_i32 = constant <i32: 0> : tile<i32>
    %cst_1_i32 = constant <i32: 1> : tile<i32>
    %cst_16_i32 = constant <i32: 16> : tile<i32>
    %cst_2147483647_i32 = constant <i32: 2147483647> : tile<i32>
    %0 = cmpi equal %arg1, %cst_2147483647_i32, signed : tile<i32> -> tile<i1>
    %cst_0_i32_0 = constant <i32: 0> : tile<i32>
    %cst_1_i32_1 = constant <i32: 1> : tile<i32>
    %1 = select %0, %cst_0_i32_0, %cst_1_i32_1 : tile<i1>, tile<i32>
    %2 = addi %arg1, %1 : tile<i32>
    %3 = mini %2, %cst_16_i32 signed : tile<i32>
    %4 = maxi %2, %cst_0_i32 signed : tile<i32>
    %for = for %loopIdx in (%cst_0_i32 to %3, step %cst_1_i32) : tile<i32> iter_values(%iterArg0 = %cst_0_i32) -> (tile<i32>) {
      %6 = addi %iterArg0, %loopIdx : tile<i32>
      continue %6 : tile<i32>
    }
    %for_2 = for %loopIdx in (%4 to %cst_16_i32, step %cst_1_i32) : tile<i32> iter_values(%iterArg0 = %for) -> (tile<i32>) {
      %6 = muli %loopIdx, %loopIdx : tile<i32>
      %7 = addi %iterArg0, %6 : tile<i32>
      continue %7 : tile<i32>
    }
    %5 = store_ptr_tko weak %arg0, %for_2 : tile<ptr<i32>>, tile<i32> -> token
    return
  }
}
"#,
    );
}

/// `n <= iv` with step 3 and a dynamic lower bound: the split point is aligned to
/// `lb + ceil((n - lb) / 3) * 3`, and no `+ 1` for `>=`.
#[test]
fn loop_split_aligns_the_split_point_to_the_step() {
    let out = opt(
        &["--pass-pipeline=builtin.module(cuda_tile.module(cuda_tile.entry(loop-split)))"],
        SPLIT_STEP_INPUT,
    );
    out.assert_output(
        r#"
cuda_tile.module @m {
  entry @k(%arg0: tile<ptr<i32>>, %arg1: tile<i32>, %arg2: tile<i32>) {
    %cst_0_i32 = constant <i32: 0> : tile<i32>
    %cst_3_i32 = constant <i32: 3> : tile<i32>
    %cst_16_i32 = constant <i32: 16> : tile<i32>
    %0 = subi %arg1, %arg2 : tile<i32>
    %1 = divi %0, %cst_3_i32 signed rounding<positive_inf> : tile<i32>
    %2 = muli %1, %cst_3_i32 : tile<i32>
    %3 = addi %arg2, %2 : tile<i32>
    %4 = mini %3, %cst_16_i32 signed : tile<i32>
    %5 = maxi %3, %arg2 signed : tile<i32>
    %for = for %loopIdx in (%arg2 to %4, step %cst_3_i32) : tile<i32> iter_values(%iterArg0 = %cst_0_i32) -> (tile<i32>) {
      %7 = addi %iterArg0, %loopIdx : tile<i32>
      continue %7 : tile<i32>
    }
    %for_0 = for %loopIdx in (%5 to %cst_16_i32, step %cst_3_i32) : tile<i32> iter_values(%iterArg0 = %for) -> (tile<i32>) {
      %7 = addi %iterArg0, %cst_3_i32 : tile<i32>
      continue %7 : tile<i32>
    }
    %6 = store_ptr_tko weak %arg0, %for_0 : tile<ptr<i32>>, tile<i32> -> token
    return
  }
}
"#,
    );
}

/// Not split: `equal`, a bound carried by the loop (tilec does not take block arguments as
/// invariant), and an `if` with `cuda_tile.loop_split = 0`; the `testing$func` is outside
/// the `cuda_tile.entry` anchor.
#[test]
fn loop_split_leaves_unsplittable_loops_and_testing_functions() {
    let out = opt(
        &["--pass-pipeline=builtin.module(cuda_tile.module(cuda_tile.entry(loop-split)))"],
        NO_SPLIT_INPUT,
    );
    out.assert_output(
        r#"
cuda_tile.module @m {
  entry @k(%arg0: tile<ptr<i32>>, %arg1: tile<i32>) {
    %cst_0_i32 = constant <i32: 0> : tile<i32>
    %cst_1_i32 = constant <i32: 1> : tile<i32>
    %cst_16_i32 = constant <i32: 16> : tile<i32>
    %for = for %loopIdx in (%cst_0_i32 to %cst_16_i32, step %cst_1_i32) : tile<i32> iter_values(%iterArg0 = %cst_0_i32) -> (tile<i32>) {
      %1 = cmpi equal %loopIdx, %arg1, signed : tile<i32> -> tile<i1>
      %2 = if %1 -> (tile<i32>) {
        yield %cst_1_i32 : tile<i32>
      } else {
        yield %loopIdx : tile<i32>
      }
      %3 = cmpi less_than %loopIdx, %iterArg0, signed : tile<i32> -> tile<i1>
      %4 = if %3 -> (tile<i32>) {
        yield %cst_1_i32 : tile<i32>
      } else {
        yield %2 : tile<i32>
      }
      %5 = cmpi greater_than_or_equal %loopIdx, %arg1, signed : tile<i32> -> tile<i1>
      %6 = if %5 -> (tile<i32>) {
        yield %cst_1_i32 : tile<i32>
      } else {
        yield %4 : tile<i32>
      } {cuda_tile.loop_split = 0 : i64}
      %7 = addi %iterArg0, %6 : tile<i32>
      continue %7 : tile<i32>
    }
    %0 = store_ptr_tko weak %arg0, %for : tile<ptr<i32>>, tile<i32> -> token
    return
  }
  testing$func @f(%arg0: tile<i32>) -> tile<i32> {
    %cst_0_i32 = constant <i32: 0> : tile<i32>
    %cst_1_i32 = constant <i32: 1> : tile<i32>
    %cst_16_i32 = constant <i32: 16> : tile<i32>
    %for = for %loopIdx in (%cst_0_i32 to %cst_16_i32, step %cst_1_i32) : tile<i32> iter_values(%iterArg0 = %cst_0_i32) -> (tile<i32>) {
      %0 = cmpi greater_than %loopIdx, %arg0, signed : tile<i32> -> tile<i1>
      %1 = if %0 -> (tile<i32>) {
        yield %loopIdx : tile<i32>
      } else {
        yield %cst_1_i32 : tile<i32>
      }
      %2 = addi %iterArg0, %1 : tile<i32>
      continue %2 : tile<i32>
    }
    return %for : tile<i32>
  }
}
"#,
    );
}

/// The number of `for` loops in a printed module.
fn loops(s: &str) -> usize {
    s.lines().filter(|l| l.contains(" = for ")).count()
}

/// `split-threshold=2`: a branch of one op (besides its terminator) and no heavy op is not
/// worth splitting; a `cuda_tile.loop_split = 1` hint on the loop overrides the option.
#[test]
fn loop_split_threshold_option_and_loop_hint() {
    let out = opt(&["-p", "loop-split{split-threshold=2}"], SPLIT_INPUT);
    assert_eq!(loops(&out.stdout), 1, "{}", out.stdout);
    let out = opt(
        &["--pass-pipeline=loop-split{split-threshold=1}"],
        SPLIT_INPUT,
    );
    assert_eq!(loops(&out.stdout), 2, "{}", out.stdout);
    let hinted = SPLIT_INPUT.replace(
        "      continue %s : tile<i32>\n    }\n",
        "      continue %s : tile<i32>\n    } {cuda_tile.loop_split = 1}\n",
    );
    assert_ne!(hinted, SPLIT_INPUT);
    let out = opt(&["-p", "loop-split{split-threshold=2}"], &hinted);
    assert_eq!(loops(&out.stdout), 2, "{}", out.stdout);
    // `cuda_tile.loop_split = 0` on the entry turns it off there.
    let off = SPLIT_INPUT.replace(
        "    return\n  }\n}",
        "    return\n  } {cuda_tile.loop_split = 0}\n}",
    );
    assert_ne!(off, SPLIT_INPUT);
    let out = opt(&["-p", "loop-split"], &off);
    assert_eq!(loops(&out.stdout), 1, "{}", out.stdout);
}

/// Anchors: `-p loop-split` runs on every function, `cuda_tile.testing$func(...)` on testing
/// functions only (here the one whose loop splits), `cuda_tile.entry(...)` on entries only.
#[test]
fn pass_pipeline_anchors() {
    assert_eq!(loops(&opt(&["-p", "loop-split"], NO_SPLIT_INPUT).stdout), 3);
    let t = "--pass-pipeline=builtin.module(cuda_tile.module(cuda_tile.testing$func(loop-split)))";
    assert_eq!(loops(&opt(&[t], NO_SPLIT_INPUT).stdout), 3);
    let e = "--pass-pipeline=builtin.module(cuda_tile.module(cuda_tile.entry(loop-split)))";
    assert_eq!(loops(&opt(&[e], NO_SPLIT_INPUT).stdout), 2);
    // fuse-fma anchored on entries leaves a testing function alone.
    let e = "--pass-pipeline=builtin.module(cuda_tile.module(cuda_tile.entry(fuse-fma)))";
    opt(&[e], FMA_INPUT).assert_output(&canon_common::fmt(FMA_INPUT));
    // Several passes and nestings in one pipeline, with canonicalize.
    let out = opt(
        &[
            "--pass-pipeline=builtin.module(cuda_tile.module(cuda_tile.testing$func(fuse-fma),canonicalize), cse)",
        ],
        FMA_INPUT,
    );
    assert_eq!(out.stdout.matches("fma ").count(), 3, "{}", out.stdout);
}

/// Malformed pipelines and unknown passes or options are usage errors (exit 2) naming the
/// problem, never a panic.
#[test]
fn malformed_pass_pipelines_are_usage_errors() {
    let cases = [
        ("builtin.module(", "expected ')'"),
        (
            "builtin.module(cuda_tile.module(loop-split)",
            "expected ')'",
        ),
        (
            "builtin.module(cuda_tile.entry(cuda_tile.module(cse)))",
            "cannot be nested here",
        ),
        ("cuda_tile.entry", "expected '(' after 'cuda_tile.entry'"),
        ("canonicalize)", "unexpected text"),
        ("canonicalize,,cse", "expected a pass or operation name"),
        (
            "func.func(cse)",
            "'func.func' is not an operation passes can be nested under",
        ),
        (
            "loop-split{split-threshold}",
            "expected '=' after option 'split-threshold'",
        ),
        (
            "loop-split{split-threshold=}",
            "expected a value for option 'split-threshold'",
        ),
        (
            "loop-split{split-threshold=two}",
            "invalid value 'two' for option 'split-threshold'",
        ),
        ("loop-split{split-threshold=1", "expected '}'"),
        ("fuse-fma{x=1}", "pass 'fuse-fma' has no option 'x'"),
        (
            "builtin.module(no-such-pass)",
            "unknown pass 'no-such-pass'",
        ),
        (
            "cuda_tile.entry(convert-to-gpu)",
            "convert-to-gpu runs on the whole module",
        ),
        ("(", "expected a pass or operation name"),
        (
            "builtin.module(cuda_tile.module(\u{e9}))",
            "expected a pass or operation name",
        ),
    ];
    for (pipeline, want) in cases {
        for args in [
            vec![
                "opt".to_string(),
                "-".into(),
                format!("--pass-pipeline={pipeline}"),
            ],
            vec![
                "opt".to_string(),
                "-".into(),
                "-p".into(),
                pipeline.to_string(),
            ],
            vec![
                "opt".to_string(),
                "-".into(),
                "--compat=cuda-tile-opt".into(),
                format!("-pass-pipeline={pipeline}"),
            ],
        ] {
            let argv: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = run_tilec(&argv, text(SPLIT_INPUT));
            assert_eq!(out.status, 2, "{argv:?}: {}", out.stderr);
            assert!(out.stdout.is_empty(), "{argv:?}");
            assert!(
                out.stderr.contains(want),
                "{argv:?}: expected '{want}' in:\n{}",
                out.stderr
            );
        }
    }
}

/// `tilec opt -p fuse-fma,loop-split`: both passes, in order, on every function.
#[test]
fn both_passes_in_one_pipeline() {
    let src = format!(
        "{}\n{}",
        text(FMA_INPUT).replace("@m", "@a"),
        text(SPLIT_INPUT).replace("@m", "@b")
    );
    let out = opt(&["-p", "fuse-fma,loop-split", "--stats"], &src);
    assert_eq!(out.stdout.matches("fma ").count(), 3, "{}", out.stdout);
    assert_eq!(loops(&out.stdout), 2, "{}", out.stdout);
    out.assert_stat("FuseMulAdd", 2);
    out.assert_stat("FuseMulSub", 1);
    out.assert_stat("LoopSplit", 1);
}

/// NVIDIA's tests wrap their modules in `module attributes {gpu.container_module} {...}`
/// and give `entry` a trailing attribute dictionary: both parse and print back as
/// cuda-tile-opt prints them.
#[test]
fn builtin_module_attributes_and_entry_trailing_attributes() {
    opt(&[], WRAPPED_INPUT).assert_output(
        r#"
module attributes {gpu.container_module} {
  cuda_tile.module @m {
    entry @k() {
      return
    } {cuda_tile.loop_split = 0 : i64}
  }
}
"#,
    );
}

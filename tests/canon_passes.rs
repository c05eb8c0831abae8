//! The canonicalization driver's iteration cap and the pass pipeline around it: the
//! non-convergence warning (exit status 0, valid output), `-p canonicalize,cse,dce` and the
//! `--canonicalize`/`--cse`/`--dce` flags in command-line order, what `cse` merges and what
//! `dce` erases, and `--verify-each`.
//!
//! Every output is also re-verified and re-printed (see canon_common.rs).

mod canon_common;

use canon_common::{opt, text, tko_count};

/// The input shared by several tests below.
const ITERATION_CAP_WARNS_AND_SUCCEEDS_INPUT: &str = r#"
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

/// The input shared by several tests below.
const PIPELINE_INPUT: &str = r#"
cuda_tile.module @m {
  testing$func @f(%p: tile<ptr<i32>>, %a: tile<i32>, %b: tile<i32>, %c: tile<i1>) -> (tile<i1>, tile<i32>, tile<i32>) {
    %x = addi %a, %b : tile<i32>
    %y = addi %a, %b : tile<i32>
    %e = cmpi equal %x, %y, signed : tile<i32> -> tile<i1>
    %r = if %c -> (tile<i32>) {
      %u = muli %a, %b : tile<i32>
      %u2 = addi %a, %b : tile<i32>
      %s = addi %u, %u2 : tile<i32>
      yield %s : tile<i32>
    } else {
      %v = muli %a, %b : tile<i32>
      yield %v : tile<i32>
    }
    %l1, %t1 = load_ptr_tko weak %p : tile<ptr<i32>> -> tile<i32>, token
    %l2, %t2 = load_ptr_tko weak %p : tile<ptr<i32>> -> tile<i32>, token
    %l = addi %l1, %l2 : tile<i32>
    %dead = muli %x, %x : tile<i32>
    %st = store_ptr_tko weak %p, %a : tile<ptr<i32>>, tile<i32> -> token
    print "%d", %a : tile<i32>
    return %e, %r, %l : tile<i1>, tile<i32>, tile<i32>
  }
}
"#;

/// With --max-iterations 1 a change in the only round leaves convergence unconfirmed: the warning
/// (MLIR format: location of the first function, message, source line, caret) and exit status 0,
/// with valid output.
#[test]
fn iteration_cap_warns_and_succeeds() {
    let src = ITERATION_CAP_WARNS_AND_SUCCEEDS_INPUT;
    let out = opt(
        &[
            "-p",
            "canonicalize",
            "--max-iterations",
            "1",
            "--diagnostic-format=mlir",
        ],
        src,
    );
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
    assert_eq!(
        out.stderr,
        text(
            r#"
<stdin>:2:3: warning: canonicalization did not converge in 1 iterations
  testing$func @f(%x: tile<i32>, %a: tile<i32>, %b: tile<i32>) -> tile<i32> {
  ^
"#
        )
    );
}

/// Two rounds are enough for the same input: the second changes nothing.
#[test]
fn iteration_cap_reached_by_second_round() {
    let src = ITERATION_CAP_WARNS_AND_SUCCEEDS_INPUT;
    let out = opt(
        &[
            "-p",
            "canonicalize",
            "--max-iterations",
            "2",
            "--diagnostic-format=mlir",
        ],
        src,
    );
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
    assert_eq!(out.stderr, "");
}

/// An input with nothing to rewrite converges in one round, even with --max-iterations 1.
#[test]
fn iteration_cap_without_changes_is_quiet() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%a: tile<i32>, %b: tile<i32>) -> tile<i32> {
    %x = addi %a, %b : tile<i32>
    return %x : tile<i32>
  }
}
"#;
    let out = opt(
        &[
            "-p",
            "canonicalize",
            "--max-iterations",
            "1",
            "--diagnostic-format=mlir",
        ],
        src,
    );
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<i32>, %arg1: tile<i32>) -> tile<i32> {
    %0 = addi %arg0, %arg1 : tile<i32>
    return %0 : tile<i32>
  }
}
"#,
    );
    out.assert_unchanged(src);
    assert_eq!(out.stderr, "");
}

/// cse merges equal pure ops in the same block and into nested blocks, never across sibling
/// regions (the two muli) and never token-ordered ops (the two loads); dead ops stay.
#[test]
fn cse_merges_pure_duplicates() {
    let src = PIPELINE_INPUT;
    let out = opt(&["-p", "cse", "--stats"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<ptr<i32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i1>) -> (tile<i1>, tile<i32>, tile<i32>) {
    %0 = addi %arg1, %arg2 : tile<i32>
    %1 = cmpi equal %0, %0, signed : tile<i32> -> tile<i1>
    %2 = if %arg3 -> (tile<i32>) {
      %6 = muli %arg1, %arg2 : tile<i32>
      %7 = addi %6, %0 : tile<i32>
      yield %7 : tile<i32>
    } else {
      %6 = muli %arg1, %arg2 : tile<i32>
      yield %6 : tile<i32>
    }
    %result, %result_token = load_ptr_tko weak %arg0 : tile<ptr<i32>> -> tile<i32>, token
    %result_0, %result_token_1 = load_ptr_tko weak %arg0 : tile<ptr<i32>> -> tile<i32>, token
    %3 = addi %result, %result_0 : tile<i32>
    %4 = muli %0, %0 : tile<i32>
    %5 = store_ptr_tko weak %arg0, %arg1 : tile<ptr<i32>>, tile<i32> -> token
    print "%d", %arg1 : tile<i32>
    return %1, %2, %3 : tile<i1>, tile<i32>, tile<i32>
  }
}
"#,
    );
    out.assert_stat("cse", 2);
    assert_eq!(tko_count(&out.stdout), tko_count(src));
}

/// dce erases unused pure ops (whole chains) and an `if` with nothing observable inside; loads,
/// stores and prints stay even when their results are unused.
#[test]
fn dce_erases_unused_pure_ops() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%p: tile<ptr<i32>>, %a: tile<i32>, %c: tile<i1>) -> tile<i32> {
    %x = addi %a, %a : tile<i32>
    %y = muli %x, %x : tile<i32>
    %z = subi %y, %a : tile<i32>
    %r = if %c -> (tile<i32>) {
      %u = muli %a, %a : tile<i32>
      yield %u : tile<i32>
    } else {
      yield %a : tile<i32>
    }
    %v, %t = load_ptr_tko weak %p : tile<ptr<i32>> -> tile<i32>, token
    %s = store_ptr_tko weak %p, %a : tile<ptr<i32>>, tile<i32> -> token
    print "%d", %a : tile<i32>
    return %a : tile<i32>
  }
}
"#;
    let out = opt(&["-p", "dce", "--stats"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<ptr<i32>>, %arg1: tile<i32>, %arg2: tile<i1>) -> tile<i32> {
    %result, %result_token = load_ptr_tko weak %arg0 : tile<ptr<i32>> -> tile<i32>, token
    %0 = store_ptr_tko weak %arg0, %arg1 : tile<ptr<i32>>, tile<i32> -> token
    print "%d", %arg1 : tile<i32>
    return %arg1 : tile<i32>
  }
}
"#,
    );
    out.assert_stat("dce", 4);
    assert_eq!(tko_count(&out.stdout), tko_count(src));
}

/// -p canonicalize,cse,dce with --verify-each: canonicalize cannot see that %x and %y are equal,
/// cse merges them afterwards (the comparison stays, as x == x).
#[test]
fn pipeline_canonicalize_cse_dce() {
    let src = PIPELINE_INPUT;
    let out = opt(
        &["-p", "canonicalize,cse,dce", "--verify-each", "--stats"],
        src,
    );
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<ptr<i32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i1>) -> (tile<i1>, tile<i32>, tile<i32>) {
    %0 = addi %arg1, %arg2 : tile<i32>
    %1 = cmpi equal %0, %0, signed : tile<i32> -> tile<i1>
    %2 = if %arg3 -> (tile<i32>) {
      %5 = muli %arg1, %arg2 : tile<i32>
      %6 = addi %5, %0 : tile<i32>
      yield %6 : tile<i32>
    } else {
      %5 = muli %arg1, %arg2 : tile<i32>
      yield %5 : tile<i32>
    }
    %result, %result_token = load_ptr_tko weak %arg0 : tile<ptr<i32>> -> tile<i32>, token
    %result_0, %result_token_1 = load_ptr_tko weak %arg0 : tile<ptr<i32>> -> tile<i32>, token
    %3 = addi %result, %result_0 : tile<i32>
    %4 = store_ptr_tko weak %arg0, %arg1 : tile<ptr<i32>>, tile<i32> -> token
    print "%d", %arg1 : tile<i32>
    return %1, %2, %3 : tile<i1>, tile<i32>, tile<i32>
  }
}
"#,
    );
    out.assert_stat("cse", 2);
    assert!(
        out.stderr
            .starts_with("tilec: pass statistics (canonicalize,cse,dce"),
        "{}",
        out.stderr
    );
    assert_eq!(tko_count(&out.stdout), tko_count(src));
}

/// -p cse,canonicalize: after cse the comparison is x == x, which the simplifier folds to true.
#[test]
fn pipeline_cse_then_canonicalize() {
    let src = PIPELINE_INPUT;
    let out = opt(&["-p", "cse,canonicalize", "--verify-each", "--stats"], src);
    out.assert_output(
        r#"
cuda_tile.module @m {
  testing$func @f(%arg0: tile<ptr<i32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i1>) -> (tile<i1>, tile<i32>, tile<i32>) {
    %true = constant <i1: true> : tile<i1>
    %0 = addi %arg1, %arg2 : tile<i32>
    %1 = if %arg3 -> (tile<i32>) {
      %4 = muli %arg1, %arg2 : tile<i32>
      %5 = addi %4, %0 : tile<i32>
      yield %5 : tile<i32>
    } else {
      %4 = muli %arg1, %arg2 : tile<i32>
      yield %4 : tile<i32>
    }
    %result, %result_token = load_ptr_tko weak %arg0 : tile<ptr<i32>> -> tile<i32>, token
    %result_0, %result_token_1 = load_ptr_tko weak %arg0 : tile<ptr<i32>> -> tile<i32>, token
    %2 = addi %result, %result_0 : tile<i32>
    %3 = store_ptr_tko weak %arg0, %arg1 : tile<ptr<i32>>, tile<i32> -> token
    print "%d", %arg1 : tile<i32>
    return %true, %1, %2 : tile<i1>, tile<i32>, tile<i32>
  }
}
"#,
    );
    out.assert_stat("cse", 2);
    out.assert_stat("Simplify", 1);
    assert!(
        out.stderr
            .starts_with("tilec: pass statistics (cse,canonicalize"),
        "{}",
        out.stderr
    );
    assert_eq!(tko_count(&out.stdout), tko_count(src));
}

/// The `--cse`, `--canonicalize` and `--dce` flags append passes in command-line order, after
/// the `-p` pipeline: `--cse --canonicalize` is `-p cse,canonicalize`, `-p dce --cse` is
/// dce then cse.
#[test]
fn pass_flags_run_in_command_line_order() {
    let src = PIPELINE_INPUT;
    let flags = opt(&["--cse", "--canonicalize", "--stats"], src);
    let pipeline = opt(&["-p", "cse,canonicalize", "--stats"], src);
    assert_eq!(flags.stdout, pipeline.stdout);
    assert_eq!(flags.stats(), pipeline.stats());
    assert!(
        flags
            .stderr
            .starts_with("tilec: pass statistics (cse,canonicalize"),
        "{}",
        flags.stderr
    );
    let reversed = opt(&["--canonicalize", "--cse"], src);
    assert_eq!(
        reversed.stdout,
        opt(&["-p", "canonicalize,cse"], src).stdout
    );
    assert_ne!(reversed.stdout, flags.stdout);
    let mixed = opt(&["-p", "dce", "--cse", "--stats"], src);
    assert!(
        mixed.stderr.starts_with("tilec: pass statistics (dce,cse"),
        "{}",
        mixed.stderr
    );
    assert_eq!(mixed.stat("dce"), 1);
    assert_eq!(mixed.stat("cse"), 2);
}

/// `--verify-each` passes on the inputs of these tests in both personalities, through the full
/// pipeline, and keeps every token-ordered op.
#[test]
fn verify_each_on_full_pipeline() {
    for src in [
        r#"
cuda_tile.module @m {
  testing$func @f(%p: tile<ptr<i32>>, %a: tile<i32>, %b: tile<i32>, %c: tile<i1>) -> (tile<i1>, tile<i32>, tile<i32>) {
    %x = addi %a, %b : tile<i32>
    %y = addi %a, %b : tile<i32>
    %e = cmpi equal %x, %y, signed : tile<i32> -> tile<i1>
    %r = if %c -> (tile<i32>) {
      %u = muli %a, %b : tile<i32>
      %u2 = addi %a, %b : tile<i32>
      %s = addi %u, %u2 : tile<i32>
      yield %s : tile<i32>
    } else {
      %v = muli %a, %b : tile<i32>
      yield %v : tile<i32>
    }
    %l1, %t1 = load_ptr_tko weak %p : tile<ptr<i32>> -> tile<i32>, token
    %l2, %t2 = load_ptr_tko weak %p : tile<ptr<i32>> -> tile<i32>, token
    %l = addi %l1, %l2 : tile<i32>
    %dead = muli %x, %x : tile<i32>
    %st = store_ptr_tko weak %p, %a : tile<ptr<i32>>, tile<i32> -> token
    print "%d", %a : tile<i32>
    return %e, %r, %l : tile<i1>, tile<i32>, tile<i32>
  }
}
"#,
        r#"
cuda_tile.module @m {
  testing$func @f(%p: tile<ptr<i32>>, %a: tile<i32>, %c: tile<i1>) -> tile<i32> {
    %x = addi %a, %a : tile<i32>
    %y = muli %x, %x : tile<i32>
    %z = subi %y, %a : tile<i32>
    %r = if %c -> (tile<i32>) {
      %u = muli %a, %a : tile<i32>
      yield %u : tile<i32>
    } else {
      yield %a : tile<i32>
    }
    %v, %t = load_ptr_tko weak %p : tile<ptr<i32>> -> tile<i32>, token
    %s = store_ptr_tko weak %p, %a : tile<ptr<i32>>, tile<i32> -> token
    print "%d", %a : tile<i32>
    return %a : tile<i32>
  }
}
"#,
        r#"
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
"#,
    ] {
        for compat in [false, true] {
            let mut args = vec!["-p", "canonicalize,cse,dce,canonicalize", "--verify-each"];
            if compat {
                args.push("--compat=cuda-tile-opt");
            }
            let out = opt(&args, src);
            assert_eq!(out.stderr, "");
            assert_eq!(tko_count(&out.stdout), tko_count(text(src)));
        }
    }
}

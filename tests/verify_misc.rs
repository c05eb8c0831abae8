//! Verifier diagnostics of the misc family: every catalog entry produced exactly, in both
//! personalities, and valid near-misses that verify clean.

use tilec_tests::{assert_both as same, assert_clean as clean, assert_modes as both};

/// A module whose line 2 onwards is `items`.
fn module(items: &str) -> String {
    format!("cuda_tile.module @m {{\n{items}\n}}\n")
}

/// An entry whose line 3 onwards is `body`.
fn kernel(body: &str) -> String {
    module(&format!("  cuda_tile.entry @k() {{\n{body}\n  }}"))
}

#[test]
fn e1201_unknown_global() {
    same(
        &kernel("    %p = cuda_tile.get_global @nowhere : !cuda_tile.tile<!cuda_tile.ptr<f32>>"),
        &["error 3:31: 'cuda_tile.get_global' op 'nowhere' does not reference a valid global"],
    );
    // A symbol that exists but is not a global.
    same(
        &kernel("    %p = cuda_tile.get_global @k : !cuda_tile.tile<!cuda_tile.ptr<f32>>"),
        &["error 3:31: 'cuda_tile.get_global' op 'k' does not reference a valid global"],
    );
    // A global of another module is not visible.
    same(
        "cuda_tile.module @a {\n  cuda_tile.global @g <f32: [1.0, 2.0]> : !cuda_tile.tile<2xf32>\n}\ncuda_tile.module @b {\n  cuda_tile.entry @k() {\n    %p = cuda_tile.get_global @g : !cuda_tile.tile<!cuda_tile.ptr<f32>>\n  }\n}\n",
        &["error 6:31: 'cuda_tile.get_global' op 'g' does not reference a valid global"],
    );
}

#[test]
fn e1203_get_global_pointee() {
    same(
        &module(
            "  cuda_tile.global @g <i32: [1, 2]> : !cuda_tile.tile<2xi32>\n  cuda_tile.entry @k() {\n    %p = cuda_tile.get_global @g : !cuda_tile.tile<!cuda_tile.ptr<i64>>\n  }",
        ),
        &[
            "error 4:10: 'cuda_tile.get_global' op pointee type of result type '!cuda_tile.ptr<i64>' does not match type 'i32' of the global @g",
        ],
    );
}

#[test]
fn globals_and_get_global_verify_clean() {
    clean(&module(
        "  cuda_tile.global @g <f16: [1.0, 2.0, 3.0, 4.0]> : !cuda_tile.tile<4xf16>\n  cuda_tile.global @h alignment = 128 <i8: [1, 2]> : !cuda_tile.tile<2xi8>\n  cuda_tile.entry @k() {\n    %p = cuda_tile.get_global @g : !cuda_tile.tile<!cuda_tile.ptr<f16>>\n    %q = cuda_tile.get_global @h : !cuda_tile.tile<!cuda_tile.ptr<i8>>\n  }",
    ));
    // At the top level, which acts as a module.
    clean(
        "cuda_tile.global @g <f32: [1.0, 2.0]> : !cuda_tile.tile<2xf32>\ncuda_tile.entry @k() {\n  %p = cuda_tile.get_global @g : !cuda_tile.tile<!cuda_tile.ptr<f32>>\n}\n",
    );
}

#[test]
fn e1204_entry_results() {
    same(
        &module(
            "  cuda_tile.entry @k(%a: !cuda_tile.tile<f32>) -> !cuda_tile.tile<f32> {\n    cuda_tile.return %a : !cuda_tile.tile<f32>\n  }",
        ),
        &["error 2:3: 'cuda_tile.entry' op entry op must not return values"],
    );
}

#[test]
fn e1205_entry_argument_rank() {
    same(
        &module(
            "  cuda_tile.entry @k(%a: !cuda_tile.tile<f32>, %b: !cuda_tile.tile<4x!cuda_tile.ptr<f32>>) {\n  }",
        ),
        &[
            "error 2:3: 'cuda_tile.entry' op entry op must have scalar types (rank 0 !cuda_tile.tile)",
        ],
    );
    // Results are checked first.
    same(
        &module(
            "  cuda_tile.entry @k(%a: !cuda_tile.tile<2xf32>) -> !cuda_tile.tile<2xf32> {\n    cuda_tile.return %a : !cuda_tile.tile<2xf32>\n  }",
        ),
        &["error 2:3: 'cuda_tile.entry' op entry op must not return values"],
    );
}

#[test]
fn entries_and_functions_verify_clean() {
    // Rank-0 tiles (numbers and pointers) and non-tile arguments.
    clean(&module(
        "  cuda_tile.entry @k(%a: !cuda_tile.tile<f32>, %p: !cuda_tile.tile<!cuda_tile.ptr<f16>>, %n: !cuda_tile.tile<i64>, %v: !cuda_tile.tensor_view<8x8xf32, strides=[8,1]>) {\n  }",
    ));
    // Functions (testing$func) may take tiles of any rank and return values.
    clean(&module(
        "  testing$func @f(%a: !cuda_tile.tile<4x4xf32>) -> !cuda_tile.tile<4x4xf32> {\n    cuda_tile.return %a : !cuda_tile.tile<4x4xf32>\n  }",
    ));
}

#[test]
fn e1206_global_rank() {
    same(
        &module("  cuda_tile.global @g <f32: [[1.0, 2.0], [3.0, 4.0]]> : !cuda_tile.tile<2x2xf32>"),
        &["error 2:3: 'cuda_tile.global' op type must have rank 1"],
    );
    same(
        &module("  cuda_tile.global @g <i32: 7> : !cuda_tile.tile<i32>"),
        &["error 2:3: 'cuda_tile.global' op type must have rank 1"],
    );
}

#[test]
fn e1207_constant_type() {
    both(
        &kernel(
            "    %c = \"cuda_tile.constant\"() {value = dense<1> : !cuda_tile.tile<4xi32>} : () -> !cuda_tile.tile<i32>",
        ),
        &[
            "error 3:10: 'cuda_tile.constant' op constant value of type '!cuda_tile.tile<4xi32>' and result of type '!cuda_tile.tile<i32>' must have the same shape and element type",
        ],
        &[
            "error 3:10: 'cuda_tile.constant' op failed to verify that all of {value, result} have same type",
        ],
    );
    both(
        &kernel(
            "    %c = \"cuda_tile.constant\"() {value = dense<1.0> : !cuda_tile.tile<2xf16>} : () -> !cuda_tile.tile<2xf32>",
        ),
        &[
            "error 3:10: 'cuda_tile.constant' op constant value of type '!cuda_tile.tile<2xf16>' and result of type '!cuda_tile.tile<2xf32>' must have the same shape and element type",
        ],
        &[
            "error 3:10: 'cuda_tile.constant' op failed to verify that all of {value, result} have same type",
        ],
    );
}

#[test]
fn constants_verify_clean() {
    clean(&kernel(
        "    %a = \"cuda_tile.constant\"() {value = dense<1> : !cuda_tile.tile<4xi32>} : () -> !cuda_tile.tile<4xi32>\n    %b = cuda_tile.constant <f32: [1.0, 2.0]> : !cuda_tile.tile<2xf32>\n    %c = cuda_tile.constant <i1: true> : !cuda_tile.tile<2x2xi1>",
    ));
}

#[test]
fn e1208_print_unterminated_format() {
    same(
        &kernel("    cuda_tile.print \"50%\""),
        &["error 3:5: 'cuda_tile.print' op found unterminated format expression"],
    );
    same(
        &kernel(
            "    %x = cuda_tile.constant <f32: 1.0> : !cuda_tile.tile<f32>\n    cuda_tile.print \"x = %5.2\", %x : !cuda_tile.tile<f32>",
        ),
        &["error 4:5: 'cuda_tile.print' op found unterminated format expression"],
    );
}

#[test]
fn e1209_print_operand_count() {
    same(
        &kernel(
            "    %x = cuda_tile.constant <i32: 1> : !cuda_tile.tile<i32>\n    cuda_tile.print \"%d and %d\\n\", %x : !cuda_tile.tile<i32>",
        ),
        &["error 4:5: 'cuda_tile.print' op incorrect number of operands: expected 2, found 1"],
    );
    same(
        &kernel(
            "    %x = cuda_tile.constant <i32: 1> : !cuda_tile.tile<i32>\n    cuda_tile.print \"100%%\", %x : !cuda_tile.tile<i32>",
        ),
        &["error 4:5: 'cuda_tile.print' op incorrect number of operands: expected 0, found 1"],
    );
}

#[test]
fn prints_verify_clean() {
    clean(&kernel(
        "    %x = cuda_tile.constant <i32: 1> : !cuda_tile.tile<i32>\n    %y = cuda_tile.constant <f32: [1.0, 2.0]> : !cuda_tile.tile<2xf32>\n    cuda_tile.print \"plain\"\n    cuda_tile.print \"%%%%\"\n    cuda_tile.print \"%d, %+08.3f %%\\n\", %x, %y : !cuda_tile.tile<i32>, !cuda_tile.tile<2xf32>\n    cuda_tile.print \"%lld%f\", %x, %y : !cuda_tile.tile<i32>, !cuda_tile.tile<2xf32>",
    ));
}

#[test]
fn block_ids_and_counts() {
    let ids = "    %x, %y, %z = cuda_tile.get_tile_block_id : !cuda_tile.tile<i32>\n    %a, %b, %c = cuda_tile.get_num_tile_blocks : !cuda_tile.tile<i32>";
    clean(&kernel(ids));
    same(
        &kernel("    %x, %y, %z = cuda_tile.get_tile_block_id : !cuda_tile.tile<i64>"),
        &[
            "error 3:18: 'cuda_tile.get_tile_block_id' op result #0 must be 0D tile of i32 values, but got '!cuda_tile.tile<i64>'",
        ],
    );
    same(
        &kernel("    %x, %y, %z = cuda_tile.get_num_tile_blocks : !cuda_tile.tile<2xi32>"),
        &[
            "error 3:18: 'cuda_tile.get_num_tile_blocks' op result #0 must be 0D tile of i32 values, but got '!cuda_tile.tile<2xi32>'",
        ],
    );
}

#[test]
fn e1210_global_alignment() {
    let src = |a: &str| {
        format!(
            "cuda_tile.module @m {{\n  cuda_tile.global @g alignment = {a} <f32: [1.0, 2.0]> : !cuda_tile.tile<2xf32>\n}}\n"
        )
    };
    let want = ["error 2:3: 'cuda_tile.global' op alignment must be a power of two, got 3"];
    let (spec, nv) = tilec_tests::verify_both(&src("3"));
    assert_eq!(spec, want);
    assert_eq!(nv, want);
    for ok in ["1", "16", "128"] {
        let (spec, nv) = tilec_tests::verify_both(&src(ok));
        assert!(
            spec.is_empty() && nv.is_empty(),
            "alignment {ok}: {spec:?} {nv:?}"
        );
    }
}

//! The textual syntax tilec accepts, pinned by exact output: the spec's example syntax and
//! NVIDIA's, ops and types with or without the dialect prefix, NVIDIA's and the spec's op
//! names (the spelling is kept), `%x:N` packs and `%x#i` uses, comments, `loc(...)` and
//! `#loc` aliases, cuTile's top-level entries, other dialects' ops in the generic form, and
//! every element type.

use tilec_tests::run_tilec;

/// `(what, extra fmt arguments, input, expected output)`.
const CASES: &[(&str, &[&str], &str, &str)] = &[
    (
        "the spec's syntax and NVIDIA's, prefixes optional, aliases kept, result packs",
        &[],
        "// comments are fine\ncuda_tile.module @m {\n  cuda_tile.testing$func @k(%a: !cuda_tile.tile<4xf32>, %b: tile<4xf32>) {\n    %c0 = constant dense<0> : tile<i32>\n    %c1 = cuda_tile.constant <i64: 1> : !cuda_tile.tile<i64>\n    %f = constant dense<[0.0, 1.0, 2.0, 3.0]> : tile<4xf32>\n    %s = addf %a, %b : tile<4xf32>\n    %n = negsi %c0 : tile<i32>\n    %n2 = negi %c0 : tile<i32>\n    %p = pow %a, %b : tile<4xf32>\n    %q = powf %a, %b : tile<4xf32>\n    %x:3 = get_tile_block_id : tile<i32>\n    %y = addi %x#0, %x#2 : tile<i32>\n    print \"x: %d, y: %d\\n\", %x#1, %y : tile<i32>, tile<i32>\n    %t = print_tko \"done\\n\" -> token\n    return\n  }\n}\n",
        "cuda_tile.module @m {\n  testing$func @k(%arg0: tile<4xf32>, %arg1: tile<4xf32>) {\n    %cst_0_i32 = constant <i32: 0> : tile<i32>\n    %cst_1_i64 = constant <i64: 1> : tile<i64>\n    %cst_f32 = constant <f32: [0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00]> : tile<4xf32>\n    %0 = addf %arg0, %arg1  : tile<4xf32>\n    %1 = negsi %cst_0_i32 : tile<i32>\n    %2 = negi %cst_0_i32 : tile<i32>\n    %3 = pow %arg0, %arg1 : tile<4xf32>\n    %4 = powf %arg0, %arg1 : tile<4xf32>\n    %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>\n    %5 = addi %blockId_x, %blockId_z : tile<i32>\n    print \"x: %d, y: %d\\n\", %blockId_y, %5 : tile<i32>, tile<i32>\n    %6 = print_tko \"done\\n\" -> token\n    return\n  }\n}\n",
    ),
    (
        "cuTile's top-level entries with locations (dropped unless asked for)",
        &[],
        "#loc = loc(\"k.py\":3:0)\nentry @k(%a: tile<ptr<f32>> loc(\"k.py\":3:10)) {\n  %t = make_token : token loc(#loc1)\n  return loc(#loc)\n} loc(#loc)\n#loc1 = loc(\"k.py\":4:4)\n",
        "cuda_tile.entry @k(%arg0: tile<ptr<f32>>) {\n  %0 = make_token : token\n  return\n}\n",
    ),
    (
        "locations and #loc aliases kept with --print-locations",
        &["--print-locations"],
        "#loc = loc(\"k.py\":3:0)\nentry @k(%a: tile<ptr<f32>> loc(\"k.py\":3:10)) {\n  %t = make_token : token loc(#loc1)\n  return loc(#loc)\n} loc(#loc)\n#loc1 = loc(\"k.py\":4:4)\n",
        "cuda_tile.entry @k(%arg0: tile<ptr<f32>> loc(#loc)) {\n  %0 = make_token : token loc(#loc2)\n  return loc(#loc1)\n} loc(#loc1)\n#loc = loc(\"k.py\":3:10)\n#loc1 = loc(\"k.py\":3:0)\n#loc2 = loc(\"k.py\":4:4)\n",
    ),
    (
        "ops of other dialects in the generic form",
        &["--allow-unregistered-dialect"],
        "\"cuda_tile.module\"() <{sym_name = \"m\"}> ({\n  \"other.op\"() : () -> ()\n}) : () -> ()\n",
        "cuda_tile.module @m {\n  \"other.op\"() : () -> ()\n}\n",
    ),
    (
        "element types: the spec's fp8 aliases, hex bit patterns, booleans",
        &[],
        "%0 = constant <f8E5M2: 0x7C> : tile<fp8e5m2>\n%1 = constant <i1: true> : tile<2x2xi1>\n%2 = constant <bf16: -2.5> : tile<bf16>\n%3 = constant <tf32: 1.0> : tile<tf32>\n%4 = constant <f32: 0x7F800000> : tile<f32>\n%5 = constant <fp8e4m3fn: [1.0, 2.0]> : tile<2xfp8e4m3fn>\n",
        "%cst_f8E5M2 = cuda_tile.constant <f8E5M2: 0x7C> : tile<f8E5M2>\n%true = cuda_tile.constant <i1: true> : tile<2x2xi1>\n%cst_bf16 = cuda_tile.constant <bf16: -2.500000e+00> : tile<bf16>\n%cst_1_tf32 = cuda_tile.constant <tf32: 1.000000e+00> : tile<tf32>\n%cst_f32 = cuda_tile.constant <f32: 0x7F800000> : tile<f32>\n%cst_f8E4M3FN = cuda_tile.constant <f8E4M3FN: [1.000000e+00, 2.000000e+00]> : tile<2xf8E4M3FN>\n",
    ),
];

#[test]
fn accepted_syntax_prints_canonically() {
    let mut failures = Vec::new();
    for (what, extra, input, expected) in CASES {
        let mut args = vec!["opt"];
        args.extend_from_slice(extra);
        args.push("-");
        let out = run_tilec(&args, input);
        if out.status != 0 || out.stdout != *expected {
            failures.push(format!(
                "{what}: exit {}\n{}\n--- expected ---\n{expected}--- got ---\n{}",
                out.status, out.stderr, out.stdout
            ));
            continue;
        }
        // The canonical form is a fixed point.
        let again = run_tilec(&args, &out.stdout);
        if again.stdout != out.stdout {
            failures.push(format!(
                "{what}: printing again changes the text:\n{}",
                again.stdout
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

//! The debug-info passes of tilec-opt: `synthesize-debug-info-scopes` (NVIDIA 13.3's
//! `Transforms/`) and the symbol rename behind `--test-debuginfo-update-symbol-name`,
//! checked on exact printed IR with locations.

use tilec_diag::FileId;
use tilec_ir::print::{PrintOptions, print_module};
use tilec_opt::debuginfo::{RenameOptions, synthesize_scopes, update_symbol_name};

fn parse(src: &str) -> tilec_ir::Module {
    tilec_parse::parse(src, FileId(0), &Default::default())
        .unwrap_or_else(|e| panic!("does not parse: {e:?}\n{src}"))
}

fn print(m: &tilec_ir::Module) -> String {
    let opts = PrintOptions {
        locations: true,
        ..Default::default()
    };
    print_module(m, &opts)
}

/// Runs synthesize-debug-info-scopes on `src` and compares the printed module.
#[track_caller]
fn synthesized(src: &str, want: &str) {
    let mut m = parse(src);
    synthesize_scopes(&mut m);
    let got = print(&m);
    assert_eq!(got, want, "\n{got}");
    // Its output parses back and prints the same.
    let again = print(&parse(&got));
    assert_eq!(again, got);
}

#[test]
fn synthesize_without_any_location() {
    synthesized(
        "cuda_tile.module @test {\n  testing$func @func_no_debug() {\n    return loc(unknown)\n  } loc(unknown)\n} loc(unknown)\n",
        r#"cuda_tile.module @test {
  testing$func @func_no_debug() {
    return loc(#loc2)
  } loc(#loc2)
} loc(#loc)
#loc = loc(unknown)
#loc1 = loc("<unknown>":1:0)
#di_file = #cuda_tile.di_file<"<unknown>" in "">
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 1, name = "func_no_debug", linkageName = "func_no_debug", compileUnit = #di_compile_unit, scopeLine = 1>
#loc2 = #cuda_tile.di_loc<#loc1 in #di_subprogram>
"#,
    );
}

#[test]
fn synthesize_from_call_site_fused_and_name_locations() {
    // The first file location of each: a call site's caller when its callee has none, the
    // first of a fused list, a name's child (the module's, for the compile unit).
    synthesized(
        "cuda_tile.module @test {\n  testing$func @func_with_other_locs() {\n    return loc(callsite(unknown at \"file.py\":12:4))\n  } loc(fused[\"file.py\":10:4, unknown])\n} loc(\"blah\"(\"other_file.py\":1:1))\n",
        r#"cuda_tile.module @test {
  testing$func @func_with_other_locs() {
    return loc(#loc5)
  } loc(#loc4)
} loc(#loc1)
#loc = loc("other_file.py":1:1)
#loc1 = loc("blah"(#loc))
#loc2 = loc("file.py":10:4)
#di_file = #cuda_tile.di_file<"file.py" in "">
#di_file1 = #cuda_tile.di_file<"other_file.py" in "">
#loc3 = loc("file.py":12:4)
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file1>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 10, name = "func_with_other_locs", linkageName = "func_with_other_locs", compileUnit = #di_compile_unit, scopeLine = 10>
#loc4 = #cuda_tile.di_loc<#loc2 in #di_subprogram>
#loc5 = #cuda_tile.di_loc<#loc3 in #di_subprogram>
"#,
    );
}

#[test]
fn synthesize_keeps_existing_scopes() {
    // The function's subprogram stays (no scopeLine added); the op without one gets the
    // function's location in that subprogram.
    let src = r#"#di_file = #cuda_tile.di_file<"k.py" in "/src">
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 15, name = "f", linkageName = "f", compileUnit = #di_compile_unit>
cuda_tile.module @test {
  testing$func @f() {
    return loc(unknown)
  } loc(#cuda_tile.di_loc<loc("k.py":15:1) in #di_subprogram>)
}
"#;
    synthesized(
        src,
        r#"cuda_tile.module @test {
  testing$func @f() {
    return loc(#loc2)
  } loc(#loc2)
} loc(#loc)
#loc = loc(unknown)
#loc1 = loc("k.py":15:1)
#di_file = #cuda_tile.di_file<"k.py" in "/src">
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 15, name = "f", linkageName = "f", compileUnit = #di_compile_unit>
#loc2 = #cuda_tile.di_loc<#loc1 in #di_subprogram>
"#,
    );
}

const RENAME_INPUT: &str = r#"cuda_tile.module @kernels {
  global @g <i32: [1, 2]> : tile<2xi32>
  entry @test_func() {
    %0 = get_global @g : tile<ptr<i32>>
    return
  }
  entry @foo() {
    return
  }
}
"#;

fn rename(src: &str, opts: &str) -> (tilec_ir::Module, Vec<String>) {
    let mut m = parse(src);
    let o = RenameOptions::parse(opts).expect("options parse");
    let d = update_symbol_name(&mut m, &o);
    let msgs = d
        .iter()
        .map(|d| {
            let notes: Vec<&str> = d.notes.iter().map(|n| n.message.as_str()).collect();
            format!("{}: {} {notes:?}", d.code, d.message)
        })
        .collect();
    (m, msgs)
}

#[test]
fn rename_requires_an_enclosing_scope() {
    let (m, d) = rename(
        RENAME_INPUT,
        "symbol-to-rename=kernels::test_func scope=kernels::foo new-name=_fqZtest_func_f32 update-uses=true",
    );
    assert_eq!(
        d,
        [
            "E1310: attempted to update symbol names in a scope that did not enclose the symbol itself [\"scope defined here\"]"
        ]
    );
    assert_eq!(print(&m), print(&parse(RENAME_INPUT)), "unchanged");
    let (_, d) = rename(
        RENAME_INPUT,
        "symbol-to-rename=kernels::nope scope=kernels new-name=x",
    );
    assert_eq!(d, ["E1310: no symbol 'kernels::nope' to rename []"]);
    for bad in [
        "symbol-to-rename=a",
        "scope=a new-name=b update-uses=maybe",
        "colour=red",
    ] {
        assert!(RenameOptions::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn rename_updates_uses_and_linkage_name() {
    let src = r#"#di_file = #cuda_tile.di_file<"k.py" in "">
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 3, name = "k", linkageName = "k", compileUnit = #di_compile_unit>
cuda_tile.module @kernels {
  global @g <i32: [1, 2]> : tile<2xi32>
  entry @k() {
    %0 = get_global @g : tile<ptr<i32>>
    return loc(#cuda_tile.di_loc<loc("k.py":4:1) in #di_subprogram>)
  } loc(#cuda_tile.di_loc<loc("k.py":3:1) in #di_subprogram>)
}
"#;
    let (m, d) = rename(
        src,
        "symbol-to-rename=kernels::k scope=kernels new-name=_Z1kv update-uses=true",
    );
    assert!(d.is_empty(), "{d:?}");
    let out = print(&m);
    assert_eq!(
        out,
        r#"cuda_tile.module @kernels {
  global  @g <i32: [1, 2]> : tile<2xi32> loc(#loc)
  entry @_Z1kv() {
    %0 = get_global @g : tile<ptr<i32>> loc(#loc)
    return loc(#loc4)
  } loc(#loc3)
} loc(#loc)
#loc = loc(unknown)
#loc1 = loc("k.py":3:1)
#di_file = #cuda_tile.di_file<"k.py" in "">
#loc2 = loc("k.py":4:1)
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 3, name = "k", linkageName = "_Z1kv", compileUnit = #di_compile_unit>
#loc3 = #cuda_tile.di_loc<#loc1 in #di_subprogram>
#loc4 = #cuda_tile.di_loc<#loc2 in #di_subprogram>
"#
    );
    // Uses: every reference inside the scope, or none.
    let (m, _) = rename(
        src,
        "symbol-to-rename=kernels::g scope=kernels new-name=h update-uses=true",
    );
    let out = print(&m);
    assert!(
        out.contains("global  @h <i32") && out.contains("get_global @h "),
        "{out}"
    );
    let (m, _) = rename(
        src,
        "symbol-to-rename=kernels::g scope=kernels new-name=h update-uses=false",
    );
    let out = print(&m);
    assert!(
        out.contains("global  @h <i32") && out.contains("get_global @g "),
        "{out}"
    );
}

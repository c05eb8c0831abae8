//! `tilec::pipeline`, the one place the stages are chained: the command line writes what
//! it computes, text and bytecode of one kernel compile to the same PTX, each failure is
//! reported at its stage, and `-O0` skips the canonicalizer.

use std::path::PathBuf;
use tilec::pipeline::{self, Options, Stage};
use tilec_diag::FileId;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn example(name: &str) -> (PathBuf, String) {
    let p = repo().join(format!("examples/{name}.tile"));
    let text = std::fs::read_to_string(&p).unwrap();
    (p, text)
}

/// Runs the command line in process; (status, stdout).
fn cli(args: &[&str]) -> (i32, String) {
    let mut argv: Vec<std::ffi::OsString> = vec!["tilec".into()];
    argv.extend(args.iter().map(std::ffi::OsString::from));
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut input = std::io::empty();
    let status = tilec::run(
        argv,
        &mut tilec::Io {
            stdin: &mut input,
            stdout: &mut out,
            stderr: &mut err,
            stderr_is_tty: false,
        },
    );
    (status, String::from_utf8(out).unwrap())
}

#[test]
fn the_command_line_writes_what_the_pipeline_computes() {
    for name in ["vector_add", "matmul", "layernorm", "mma_types"] {
        let (path, text) = example(name);
        let p = path.to_str().unwrap();
        let opts = Options {
            ptx: tilec_ptx::Options {
                file_name: p.to_string(),
                ..tilec_ptx::Options::default()
            },
            ..Options::default()
        };
        let c = pipeline::compile(text.as_bytes(), FileId(0), &opts).unwrap();
        let (status, stdout) = cli(&[p, "-o", "-"]);
        assert_eq!(status, 0, "{name}");
        assert_eq!(stdout, c.ptx, "{name}");
        assert!(c.timings.total() > std::time::Duration::ZERO);
        assert_eq!(c.modules.len(), 1);
    }
}

#[test]
fn text_and_bytecode_compile_to_the_same_ptx() {
    let (_, text) = example("saxpy");
    let opts = Options::default();
    let from_text = pipeline::compile(text.as_bytes(), FileId(0), &opts).unwrap();
    let (m, _) = pipeline::front(
        text.as_bytes(),
        FileId(0),
        &opts,
        &mut pipeline::Timings::default(),
    )
    .unwrap();
    let bc = tilec_bytecode::write(&m, tilec_bytecode::lowest_version(&m)).unwrap();
    let from_bytecode = pipeline::compile(&bc, FileId(0), &opts).unwrap();
    assert_eq!(from_text.ptx, from_bytecode.ptx);
}

#[test]
fn each_failure_is_reported_at_its_stage() {
    let opts = Options::default();
    let f = pipeline::compile(
        b"cuda_tile.module @m {\n  entry @k() {\n    retur\n  }\n}\n",
        FileId(0),
        &opts,
    )
    .unwrap_err();
    assert_eq!(f.stage, Stage::Read);
    let f = pipeline::compile(b"\xff\xfe", FileId(0), &opts).unwrap_err();
    assert_eq!(f.stage, Stage::Read);
    assert_eq!(f.diagnostics[0].code, tilec_diag::codes::INPUT);
    assert_eq!(f.message(), "input is not valid UTF-8");
    // A verifier error: iota of floats.
    let bad =
        "cuda_tile.module @m {\n  entry @k() {\n    %x = iota : tile<4xf32>\n    return\n  }\n}\n";
    let f = pipeline::compile(bad.as_bytes(), FileId(0), &opts).unwrap_err();
    assert_eq!(f.stage, Stage::Verify, "{:?}", f.diagnostics);
    assert_eq!(f.modules.len(), 1);
    // What the backend refuses: a product whose accumulator no tile block can hold.
    let big = "cuda_tile.module @m {\n  entry @k() {\n    %a = constant <f16: 1.0> : tile<2048x2048xf16>\n    %c = constant <f32: 0.0> : tile<2048x2048xf32>\n    %d = mmaf %a, %a, %c : tile<2048x2048xf16>, tile<2048x2048xf16>, tile<2048x2048xf32>\n    return\n  }\n}\n";
    // (Not canonicalized: the product is dead and would be removed.)
    let raw = Options {
        canonicalize: false,
        ..Options::default()
    };
    let f = pipeline::compile(big.as_bytes(), FileId(0), &raw).unwrap_err();
    assert_eq!(f.stage, Stage::Gpu, "{:?}", f.diagnostics);
    assert_eq!(f.diagnostics[0].code, tilec_diag::codes::PTX_LOWERING);
}

/// Folds to one constant when canonicalized.
const FOLDS: &str = "cuda_tile.module @m {
  entry @k(%p: tile<ptr<i32>>) {
    %a = constant <i32: 2> : tile<i32>
    %b = constant <i32: 3> : tile<i32>
    %c = addi %a, %b : tile<i32>
    %t = make_token : token
    %t2 = store_ptr_tko weak %p, %c token=%t : tile<ptr<i32>>, tile<i32> -> token
    return
  }
}
";

#[test]
fn without_the_canonicalizer_the_module_stays_as_written() {
    let on = pipeline::compile(FOLDS.as_bytes(), FileId(0), &Options::default()).unwrap();
    let off = Options {
        canonicalize: false,
        ..Options::default()
    };
    let off = pipeline::compile(FOLDS.as_bytes(), FileId(0), &off).unwrap();
    assert_eq!(
        off.timings.of(Stage::Canonicalize),
        std::time::Duration::ZERO
    );
    assert!(on.timings.of(Stage::Canonicalize) > std::time::Duration::ZERO);
    let (m, _) = pipeline::front(
        FOLDS.as_bytes(),
        FileId(0),
        &Options::default(),
        &mut pipeline::Timings::default(),
    )
    .unwrap();
    assert_eq!(off.modules[0].count_ops(), m.count_ops());
    assert!(on.modules[0].count_ops() < m.count_ops());
    assert!(
        off.ptx.contains("add.s32") || off.ptx.contains("add.u32"),
        "{}",
        off.ptx
    );
    assert!(
        !on.ptx.contains("add.s32") && !on.ptx.contains("add.u32"),
        "{}",
        on.ptx
    );
    // `-O0` on the command line is the same choice.
    let (_, text) = example("relu");
    let path = repo().join("examples/relu.tile");
    let (status, stdout) = cli(&[path.to_str().unwrap(), "-O0", "-o", "-"]);
    assert_eq!(status, 0);
    let opts = Options {
        canonicalize: false,
        ptx: tilec_ptx::Options {
            file_name: path.to_str().unwrap().to_string(),
            ..tilec_ptx::Options::default()
        },
        ..Options::default()
    };
    assert_eq!(
        stdout,
        pipeline::compile(text.as_bytes(), FileId(0), &opts)
            .unwrap()
            .ptx
    );
}

/// The writer says how each global access through a view moves its tile (E0904).
#[test]
fn remarks_say_how_global_accesses_move() {
    let remarks = |src: &str| -> Vec<String> {
        let c = pipeline::compile(src.as_bytes(), FileId(0), &Options::default()).unwrap();
        c.remarks
            .iter()
            .filter(|d| d.code == tilec_diag::codes::VECTOR_ACCESS)
            .map(|d| d.message.clone())
            .collect()
    };
    let kernel = |assume: &str, stride: &str| {
        format!(
            r#"cuda_tile.module @m {{
  entry @k(%p: tile<ptr<f32>>, %n: tile<i32>) {{
    %t = make_token : token
    {assume}
    %v = make_tensor_view %q, shape = [%n], strides = [{stride}] : tile<i32> -> tensor_view<?xf32, strides=[{stride}]>
    %pv = make_partition_view %v : partition_view<tile=(1024), tensor_view<?xf32, strides=[{stride}]>>
    %b, %by, %bz = get_tile_block_id : tile<i32>
    %x, %t1 = load_view_tko weak %pv[%b] token = %t : partition_view<tile=(1024), tensor_view<?xf32, strides=[{stride}]>>, tile<i32> -> tile<1024xf32>, token
    %t2 = store_view_tko weak %x, %pv[%by] token = %t1 : tile<1024xf32>, partition_view<tile=(1024), tensor_view<?xf32, strides=[{stride}]>>, tile<i32> -> token
    return
  }}
}}
"#
        )
    };
    let proven = remarks(&kernel("%q = assume div_by<16>, %p : tile<ptr<f32>>", "1"));
    assert_eq!(
        proven,
        [
            "load of a 1024 f32 tile: 128-bit accesses (4 elements each), the alignment is proven",
            "store of a 1024 f32 tile: 128-bit accesses (4 elements each), the alignment is proven"
        ]
    );
    let checked = remarks(&kernel("%q = assume div_by<4>, %p : tile<ptr<f32>>", "1"));
    assert_eq!(
        checked[0],
        "load of a 1024 f32 tile: 128-bit accesses (4 elements each), when the base address and the row strides are aligned for it at run time; one element per access otherwise"
    );
    let strided = remarks(&kernel("%q = assume div_by<16>, %p : tile<ptr<f32>>", "2"));
    assert_eq!(
        strided[0],
        "load of a 1024 f32 tile: one element per access: the view's innermost dimension is not contiguous in memory (its stride is not 1)"
    );
}

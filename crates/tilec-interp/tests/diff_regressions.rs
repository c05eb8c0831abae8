//! Interpreter bugs found by differential canonicalization (tests/canon_diff.rs,
//! `cargo xtask diff-canon`), one test each, run through the library's `call`.

use std::rc::Rc;
use tilec_interp::value::Tile;
use tilec_interp::{Called, Memory, RunError, call};
use tilec_ir::{Module, Op, Type};

fn load(src: &str) -> (Module, Op) {
    let m = tilec_parse::parse(src, tilec_diag::FileId(0), &Default::default()).expect("parses");
    let errors: Vec<_> = tilec_verify::verify(&m, &Default::default())
        .into_iter()
        .filter(|d| d.is_error())
        .collect();
    assert!(errors.is_empty(), "does not verify: {errors:?}");
    let mut f = None;
    m.walk(|op| {
        if m.opcode(op) == tilec_ir::Opcode::TestingFunc && f.is_none() {
            f = Some(op);
        }
    });
    (m, f.expect("a testing$func"))
}

fn call_text(src: &str, args: Vec<Tile>) -> Result<Called, RunError> {
    let (m, f) = load(src);
    call(&m, f, args, &mut Memory::default())
}

fn tile(elem: Type, shape: &[i64], bits: &[u64]) -> Tile {
    Tile {
        elem,
        shape: Rc::from(shape),
        bits: bits.to_vec(),
    }
}

/// `%d` of the smallest i64 printed by negating it, which overflows.
#[test]
fn print_of_the_smallest_i64() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%a: tile<2xi64>, %b: tile<i8>) {
    print "%d %lld|%i\n", %a, %a, %b : tile<2xi64>, tile<2xi64>, tile<i8>
  }
}
"#;
    let out = call_text(
        src,
        vec![
            tile(Type::I64, &[2], &[1 << 63, 5]),
            tile(Type::I8, &[], &[0x80]),
        ],
    )
    .expect("runs");
    assert_eq!(
        out.printed,
        "[-9223372036854775808, 5] [-9223372036854775808, 5]|-128\n"
    );
}

/// `muli` of two i64 values whose unsigned product exceeds i128 overflowed the
/// interpreter's own arithmetic.
#[test]
fn muli_of_large_unsigned_i64() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%a: tile<2xi64>, %b: tile<2xi64>) -> (tile<2xi64>, tile<2xi64>) {
    %p = muli %a, %b : tile<2xi64>
    %q = muli %a, %b overflow<no_signed_wrap> : tile<2xi64>
    return %p, %q : tile<2xi64>, tile<2xi64>
  }
}
"#;
    // -1 * -1 = 1 (no signed wrap; read unsigned it is (2^64 - 1)^2), and (2^63 - 1) * 1.
    let a = tile(Type::I64, &[2], &[u64::MAX, i64::MAX as u64]);
    let b = tile(Type::I64, &[2], &[u64::MAX, 1]);
    let out = call_text(src, vec![a, b]).expect("runs");
    assert_eq!(out.results[0].bits, vec![1, i64::MAX as u64]);
    assert_eq!(out.results[1].bits, vec![1, i64::MAX as u64]);
    // With no_unsigned_wrap the same product is undefined behaviour.
    let nuw = src.replace("no_signed_wrap", "no_unsigned_wrap");
    let a = tile(Type::I64, &[2], &[u64::MAX, 1]);
    let b = tile(Type::I64, &[2], &[u64::MAX, 1]);
    let err = call_text(&nuw, vec![a, b]).expect_err("overflows");
    assert!(err.message.contains("no_unsigned_wrap"), "{}", err.message);
}

/// `call_limited` stops a run that would not end, and lets a short one finish.
#[test]
fn call_limited_stops_a_loop_without_end() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%c: tile<i1>, %a: tile<i32>) -> tile<i32> {
    %l = loop iter_values(%v = %a) : tile<i32> -> tile<i32> {
      if %c {
        break %v : tile<i32>
      }
      %w = addi %v, %v : tile<i32>
      continue %w : tile<i32>
    }
    return %l : tile<i32>
  }
}
"#;
    let (m, f) = load(src);
    let args = |c: u64| vec![tile(Type::I1, &[], &[c]), tile(Type::I32, &[], &[3])];
    let done = tilec_interp::call_limited(&m, f, args(1), &mut Memory::default(), 100)
        .expect("ends at once");
    assert_eq!(done.results[0].bits, vec![3]);
    let err = tilec_interp::call_limited(&m, f, args(0), &mut Memory::default(), 1000)
        .expect_err("never ends");
    assert!(err.message.contains("limit"), "{}", err.message);
}

/// `offset` by an i64 whose byte offset does not fit in an i64 overflowed the interpreter's
/// own arithmetic; the address wraps around (using it is what is undefined).
#[test]
fn offset_by_a_huge_i64() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%p: tile<2xptr<f32>>, %o: tile<2xi64>) -> tile<2xptr<f32>> {
    %q = offset %p, %o : tile<2xptr<f32>>, tile<2xi64> -> tile<2xptr<f32>>
    return %q : tile<2xptr<f32>>
  }
}
"#;
    let (m, f) = load(src);
    let ptr = m.value_type(m.block_args(m.entry_block(m.region(f, 0)).unwrap())[0]);
    let elem = m.ctx.types.element_type(ptr);
    let base = 1u64 << 32;
    let p = tile(elem, &[2], &[base, base]);
    let o = tile(Type::I64, &[2], &[i64::MIN as u64, 3]);
    let out = call(&m, f, vec![p, o], &mut Memory::default()).expect("runs");
    // i64::MIN * 4 wraps to 0; 3 * 4 = 12.
    assert_eq!(out.results[0].bits, vec![base, base + 12]);
}

/// Math functions return the canonical NaN (all bits but the sign), as every other
/// operation does and as the GPU does: `cos` of the f16 NaN `0x7E00` came back as
/// `0x7E00`, which a bitcast to bf16 turned into a number (random kernel seed 1105 on an
/// H100).
#[test]
fn math_functions_return_the_canonical_nan() {
    let src = r#"
cuda_tile.module @m {
  testing$func @f(%a: tile<2xf16>, %b: tile<2xf32>, %c: tile<2xf32>) -> (tile<2xf16>, tile<2xf32>, tile<2xf32>) {
    %x = cos %a : tile<2xf16>
    %y = log1p %b : tile<2xf32>
    %z = atan2 %b, %c : tile<2xf32>
    return %x, %y, %z : tile<2xf16>, tile<2xf32>, tile<2xf32>
  }
}
"#;
    let out = call_text(
        src,
        vec![
            tile(Type::F16, &[2], &[0x7E00, 0xFE01]),
            tile(Type::F32, &[2], &[0xFFC0_0000, 0x7F80_0001]),
            tile(Type::F32, &[2], &[0x3F80_0000, 0x3F80_0000]),
        ],
    )
    .expect("runs");
    assert_eq!(out.results[0].bits, vec![0x7FFF, 0x7FFF]);
    assert_eq!(out.results[1].bits, vec![0x7FFF_FFFF, 0x7FFF_FFFF]);
    assert_eq!(out.results[2].bits, vec![0x7FFF_FFFF, 0x7FFF_FFFF]);
}

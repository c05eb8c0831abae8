//! The shipped examples, run by the interpreter and compared with results computed by
//! plain Rust loops in the test.

use tilec_interp::{Arg, Memory, run};
use tilec_ir::{Module, Op, Opcode};

fn load(name: &str) -> Module {
    let path = format!("{}/../../examples/{name}.tile", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("example");
    let m = tilec_parse::parse(&text, tilec_diag::FileId(0), &Default::default()).expect("parses");
    assert!(
        tilec_verify::verify(&m, &Default::default()).is_empty(),
        "{name} verifies"
    );
    m
}

fn entry(m: &Module, name: &str) -> Op {
    let mut found = None;
    m.walk(|op| {
        if m.opcode(op) == Opcode::Entry
            && m.attr_named(op, "sym_name")
                .is_some_and(|a| matches!(m.ctx.attrs.get(a), tilec_ir::attrs::AttrData::String(s) if &**s == name))
        {
            found = Some(op);
        }
    });
    found.expect("entry")
}

fn f32_buf(mem: &mut Memory, v: &[f32]) -> usize {
    mem.alloc(v.iter().flat_map(|x| x.to_le_bytes()).collect());
    mem.buffers.len() - 1
}

fn f32s(mem: &Memory, i: usize) -> Vec<f32> {
    mem.buffers[i]
        .data
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// A deterministic sequence of floats in [-1, 1).
fn values(seed: u64, n: usize) -> Vec<f32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        })
        .collect()
}

#[test]
fn vector_add_with_a_ragged_last_tile() {
    let m = load("vector_add");
    let n = 2500;
    let (a, b) = (values(1, n), values(2, n));
    let mut mem = Memory::default();
    let (pa, pb, pc) = (
        f32_buf(&mut mem, &a),
        f32_buf(&mut mem, &b),
        f32_buf(&mut mem, &vec![0.0; n]),
    );
    let len = Arg::Scalar(n as u64);
    let args = [
        Arg::Buffer(pa),
        len.clone(),
        Arg::Scalar(1),
        Arg::Buffer(pb),
        len.clone(),
        Arg::Scalar(1),
        Arg::Buffer(pc),
        len,
        Arg::Scalar(1),
    ];
    run(&m, entry(&m, "vector_add"), [3, 1, 1], &args, &mut mem).expect("runs");
    let c = f32s(&mem, pc);
    for i in 0..n {
        assert_eq!(c[i].to_bits(), (a[i] + b[i]).to_bits(), "element {i}");
    }
}

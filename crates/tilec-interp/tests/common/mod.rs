//! Helpers shared by the interpreter's test files.

use tilec_ir::attrs::AttrData;
use tilec_ir::{Module, Op, Opcode};

/// Parses and verifies `src`; panics with the diagnostics otherwise.
pub fn module(src: &str) -> Module {
    let m = tilec_parse::parse(src, tilec_diag::FileId(0), &Default::default())
        .unwrap_or_else(|e| panic!("does not parse: {e:?}\n{src}"));
    let errors = tilec_verify::verify(&m, &Default::default());
    assert!(errors.is_empty(), "does not verify: {errors:?}\n{src}");
    m
}

/// The `entry` or `testing$func` named `name`.
pub fn func(m: &Module, name: &str) -> Op {
    let mut found = None;
    m.walk(|op| {
        if matches!(m.opcode(op), Opcode::Entry | Opcode::TestingFunc)
            && m.attr_named(op, "sym_name")
                .is_some_and(|a| matches!(m.ctx.attrs.get(a), AttrData::String(s) if &**s == name))
        {
            found = Some(op);
        }
    });
    found.unwrap_or_else(|| panic!("no function @{name}"))
}

//! Every op of the op table, end to end: parsed and verified, printed (and parsed back to
//! the same text), encoded in bytecode at the lowest version that holds it and read back,
//! and lowered to PTX inside an `entry` (or refused by name, from an explicit list this
//! test holds to). Interpretation is checked per op by tilec-interp's
//! `every_op_of_the_spec_is_executed`.
//!
//! The ops come from the repository's own texts (examples, the cuTile corpus) and the
//! samples below, so the test needs nothing beside the repository.

use std::collections::{BTreeMap, BTreeSet};
use tilec_diag::FileId;
use tilec_ir::ops::{Family, Opcode};
use tilec_ir::{Module, print::PrintOptions};
use tilec_tests::{example_files, repo_root};

/// Kernels (tests/op_samples/) for the ops the other texts do not hold inside an `entry`.
const SAMPLES: &[&str] = &[
    include_str!("op_samples/float_math.tile"),
    include_str!("op_samples/int_and_casts.tile"),
    include_str!("op_samples/spec_only.tile"),
    include_str!("op_samples/control_and_memory.tile"),
    include_str!("op_samples/release_13_3.tile"),
    include_str!("op_samples/testing_ops.tile"),
];

/// Ops the PTX backend refuses by name (E0901), with the reason. The test fails when one
/// of them lowers, so that the list only shrinks.
const NOT_LOWERED: &[(Opcode, &str)] = &[
    (
        Opcode::TestingBytecodeNewAttribute,
        "a bytecode-versioning test op with no behaviour",
    ),
    (
        Opcode::TestingBytecodeEvolution,
        "a bytecode-versioning test op with no behaviour",
    ),
];

/// Ops outside the coverage: the GPU-level ops (their own tests), and what is not a tile IR
/// op.
fn excluded(op: Opcode) -> bool {
    tilec_ir::ops::def(op).family == Family::Gpu
        || matches!(op, Opcode::Unregistered | Opcode::UnrealizedConversionCast)
}

fn sources() -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = example_files()
        .into_iter()
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    let corpus = repo_root().join("tests/corpus/cutile");
    let mut files: Vec<_> = std::fs::read_dir(&corpus)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    files.sort();
    for p in files {
        v.push((
            p.display().to_string(),
            std::fs::read_to_string(&p).unwrap(),
        ));
    }
    for (i, s) in SAMPLES.iter().enumerate() {
        v.push((format!("sample #{i}"), s.to_string()));
    }
    v
}

/// The verified modules of a text (each `// -----` chunk).
fn modules(text: &str) -> Vec<Module> {
    tilec_parse::split_input(text)
        .into_iter()
        .filter_map(|c| {
            let m = tilec_parse::parse_range(text, c.start, c.end, FileId(0), &Default::default())
                .ok()?;
            tilec_verify::verify(&m, &Default::default())
                .is_empty()
                .then_some(m)
        })
        .collect()
}

/// Opcodes used anywhere in `m`, and those used inside an `entry`.
fn used(m: &Module) -> (BTreeSet<Opcode>, BTreeSet<Opcode>) {
    let (mut all, mut in_entry) = (BTreeSet::new(), BTreeSet::new());
    m.walk(|op| {
        all.insert(m.opcode(op));
        let mut p = m.parent_op(op);
        while let Some(x) = p {
            if m.opcode(x) == Opcode::Entry {
                in_entry.insert(m.opcode(op));
                break;
            }
            p = m.parent_op(x);
        }
    });
    (all, in_entry)
}

fn print(m: &Module) -> String {
    tilec_ir::print_module(m, &PrintOptions::default())
}

#[test]
fn every_op_is_parsed_printed_encoded_and_lowered() {
    let mut parsed: BTreeMap<Opcode, String> = BTreeMap::new();
    let mut printed = BTreeSet::new();
    let mut encoded = BTreeSet::new();
    let mut lowered = BTreeSet::new();
    let mut refused: BTreeMap<Opcode, String> = BTreeMap::new();
    let opts = tilec_ptx::Options::default();
    let ptxas = tilec_tests::ptxas::find();
    let dir = std::env::temp_dir().join(format!("tilec-op-coverage-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut assembled = 0;
    for (name, text) in sources() {
        for m in modules(&text) {
            let (all, in_entry) = used(&m);
            for &op in &all {
                parsed.entry(op).or_insert_with(|| name.clone());
            }
            // Printing: the printed text parses back and prints the same.
            let p = print(&m);
            let back = tilec_parse::parse(&p, FileId(0), &Default::default())
                .unwrap_or_else(|e| panic!("{name}: printed text does not parse: {e:?}\n{p}"));
            assert_eq!(print(&back), p, "{name}: printing is not stable");
            printed.extend(all.iter().copied());
            // Bytecode, where the module fits one file.
            let v = tilec_bytecode::lowest_version(&m);
            if let Ok(bytes) = tilec_bytecode::write(&m, v) {
                let r = tilec_bytecode::read(&bytes, FileId(0))
                    .unwrap_or_else(|d| panic!("{name} ({v}): read back: {}", d.message));
                let (back_ops, _) = used(&r);
                for &op in &all {
                    if tilec_ir::ops::def(op).bytecode.is_some() && back_ops.contains(&op) {
                        encoded.insert(op);
                    }
                }
            }
            // PTX: the entries of the module.
            if in_entry.is_empty() {
                continue;
            }
            match tilec_ptx::compile(&m, &opts, None) {
                Ok(ptx) => {
                    // The samples' PTX goes through ptxas (the repository's other texts
                    // have their own ptxas tests).
                    if let (Some(ptxas), true) = (&ptxas, name.starts_with("sample")) {
                        let f = dir.join("k.ptx");
                        std::fs::write(&f, &ptx).unwrap();
                        let r = tilec_tests::ptxas::assemble(ptxas, &f, "sm_80");
                        assert!(r.ok, "{name}: ptxas: {:?}", r.problems);
                        assert!(
                            r.kernels
                                .iter()
                                .all(|k| k.spill_stores == 0 && k.spill_loads == 0),
                            "{name}: spills: {:?}",
                            r.kernels
                        );
                        assembled += 1;
                    }
                    lowered.extend(in_entry.iter().copied());
                    // Globals live outside entries and become `.global` data.
                    if all.contains(&Opcode::Global) {
                        lowered.insert(Opcode::Global);
                    }
                }
                Err(d) => {
                    for &op in &in_entry {
                        refused
                            .entry(op)
                            .or_insert_with(|| format!("{name}: {}", d[0].message));
                    }
                }
            }
        }
    }
    let mut missing = Vec::new();
    for d in tilec_ir::ops::all() {
        let op = d.opcode;
        if excluded(op) {
            continue;
        }
        if !parsed.contains_key(&op) {
            missing.push(format!("{}: no text uses it", d.name));
            continue;
        }
        if !printed.contains(&op) {
            missing.push(format!("{}: not printed", d.name));
        }
        if d.bytecode.is_some() && !encoded.contains(&op) {
            missing.push(format!("{}: not encoded and read back", d.name));
        }
        let listed = NOT_LOWERED.iter().any(|(o, _)| *o == op);
        let structural = matches!(op, Opcode::Module | Opcode::Entry | Opcode::TestingFunc);
        if !structural && !listed && !lowered.contains(&op) {
            missing.push(match refused.get(&op) {
                Some(why) => format!("{}: refused by the PTX backend ({why})", d.name),
                None => format!("{}: in no entry", d.name),
            });
        }
        if listed && lowered.contains(&op) {
            missing.push(format!("{}: lowers now; take it off NOT_LOWERED", d.name));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    if ptxas.is_none() {
        tilec_tests::skipped("ptxas on the op samples", "ptxas not found");
    }
    eprintln!(
        "op coverage: {} ops parsed, {} encoded, {} lowered ({assembled} sample modules through ptxas); refused by name: {:?}",
        parsed.len(),
        encoded.len(),
        lowered.len(),
        NOT_LOWERED
            .iter()
            .map(|(o, _)| tilec_ir::ops::def(*o).name)
            .collect::<Vec<_>>()
    );
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

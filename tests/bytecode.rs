//! Tile IR bytecode end to end:
//!
//! * text -> bytecode -> text is the identity (up to value names and the module's name,
//!   which the format does not carry) for every example and every valid chunk of the
//!   conformance files, in each version tilec writes (13.1, 13.2, 13.3);
//! * the cuTile corpus bytecode (cuTile Python's output) reads to the same IR as
//!   `tileirdisasm` prints, and compiles to PTX that ptxas accepts;
//! * with pip's `nvidia-cuda-tileiras` installed (`.ci/run` installs it): `tileirdisasm`
//!   accepts tilec's bytecode and prints the same IR back, and `tileiras` compiles it for
//!   sm_90;
//! * malformed bytecode is rejected with the exact message at the exact byte offset.

use std::path::{Path, PathBuf};
use std::process::Command;
use tilec_bytecode::Version;
use tilec_diag::FileId;
use tilec_ir::{Module, Opcode};
use tilec_tests::{example_files, ptxas, repo_root, run_tilec, shared_dir, skipped};

/// The printed items (globals, entries, functions) of a module, in order, with every op
/// spelled by its primary name (the bytecode does not record which alias the text used).
fn items(m: &Module) -> Vec<String> {
    let mut m = m.clone();
    let mut ops = Vec::new();
    m.walk(|op| ops.push(op));
    for op in ops {
        m.set_spelling(op, 0);
    }
    let m = &m;
    let mut out = Vec::new();
    m.walk(|op| {
        if matches!(
            m.opcode(op),
            Opcode::Entry | Opcode::Global | Opcode::TestingFunc
        ) {
            out.push(tilec_ir::print_op(m, op, &Default::default()));
        }
    });
    out
}

/// Asserts equal item lists, showing the first differing line.
fn same(got: &[String], want: &[String], what: &str) {
    if got == want {
        return;
    }
    let g = got.join("");
    let w = want.join("");
    let line = g
        .lines()
        .zip(w.lines())
        .find(|(a, b)| a != b)
        .map(|(a, b)| format!("got:  {a}\nwant: {b}"))
        .unwrap_or_else(|| format!("{} vs {} items", got.len(), want.len()));
    panic!("{what}: the IR differs\n{line}");
}

/// Valid conformance files (NVIDIA's, split at `// -----`).
const CONFORMANCE: [&str; 5] = [
    "ops.mlir",
    "canonicalize.mlir",
    "opt_hints.mlir",
    "syntax_omit_dialect_prefix.mlir",
    "types.mlir",
];

/// The valid files of NVIDIA's 13.3 suite (under `conformance/cuda-tile-13.3/test`): their
/// chunks that verify (tilec's own text tests cover the rest). The testing-version files
/// (250.x ops) are left out: no release writer or reader takes them; so is
/// Transforms/loop_split.mlir, whose `{cuda_tile.loop_split = N}` loop hints are
/// discardable attributes, which the bytecode format has no place for (NVIDIA's writer
/// drops them too).
const CONFORMANCE_13_3: [&str; 19] = [
    "Bytecode/constantTest.mlir",
    "Bytecode/debug_info.mlir",
    "Bytecode/edgeCasesTest.mlir",
    "Bytecode/emptyModuleTest.mlir",
    "Bytecode/globalSectionTest.mlir",
    "Bytecode/multidimTensorTest.mlir",
    "Bytecode/optionalFieldsTest.mlir",
    "Bytecode/producerTest.mlir",
    "Bytecode/versionCompatibilityTest.mlir",
    "Bytecode/versioning/multiple_globals_legacy_bytecode.mlir",
    "Bytecode/versioning/print_tko_backward_compat.mlir",
    "Bytecode/versioning/producer_attr_backward_compat.mlir",
    "Bytecode/versioning/versioned_op.mlir",
    "Bytecode/versioning/versioned_results_backward_compat.mlir",
    "Dialect/CudaTile/canonicalize.mlir",
    "Dialect/CudaTile/ops.mlir",
    "Dialect/CudaTile/opt_hints.mlir",
    "Dialect/CudaTile/types.mlir",
    "Transforms/fuse-fma.mlir",
];

/// One text module to write: its name and parsed, verified module.
struct Case {
    name: String,
    module: Module,
}

fn parse_verified(text: &str, start: usize, end: usize) -> Option<Module> {
    let m = tilec_parse::parse_range(text, start, end, FileId(0), &Default::default()).ok()?;
    let d = tilec_verify::verify(&m, &Default::default());
    (!d.iter().any(|d| d.is_error())).then_some(m)
}

fn text_cases() -> Vec<Case> {
    let mut v = Vec::new();
    for p in example_files() {
        let text = std::fs::read_to_string(&p).unwrap();
        let module = parse_verified(&text, 0, text.len()).expect("examples verify");
        v.push(Case {
            name: p.file_name().unwrap().to_string_lossy().into(),
            module,
        });
    }
    match shared_dir() {
        Some(shared) => {
            for f in CONFORMANCE {
                let text =
                    std::fs::read_to_string(shared.join("conformance/cuda-tile-13.1").join(f))
                        .unwrap();
                for (i, c) in tilec_parse::split_input(&text).into_iter().enumerate() {
                    if let Some(module) = parse_verified(&text, c.start, c.end) {
                        v.push(Case {
                            name: format!("{f}#{i}"),
                            module,
                        });
                    }
                }
            }
            for f in CONFORMANCE_13_3 {
                let path = shared.join("conformance/cuda-tile-13.3/test").join(f);
                let Ok(text) = std::fs::read_to_string(&path) else {
                    continue;
                };
                for (i, c) in tilec_parse::split_input(&text).into_iter().enumerate() {
                    if let Some(module) = parse_verified(&text, c.start, c.end) {
                        v.push(Case {
                            name: format!("13.3/{f}#{i}"),
                            module,
                        });
                    }
                }
            }
        }
        None => skipped("conformance round trips", "../shared/conformance not found"),
    }
    v
}

fn corpus() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(repo_root().join("tests/corpus/cutile"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "tileirbc"))
        .collect();
    v.sort();
    assert!(v.len() >= 30, "the cuTile corpus is missing");
    if let Some(shared) = shared_dir() {
        for f in ["vector_add.tileirbc", "row_softmax.tileirbc"] {
            v.push(shared.join("conformance/cutile-samples").join(f));
        }
    }
    v
}

fn has_tokenless_print(m: &Module) -> bool {
    let mut found = false;
    m.walk(|op| found |= m.opcode(op) == Opcode::Print && m.num_results(op) == 0);
    found
}

fn has_token_print(m: &Module) -> bool {
    let mut found = false;
    m.walk(|op| found |= m.opcode(op) == Opcode::Print && m.num_results(op) == 1);
    found
}

fn count_prints(m: &Module) -> usize {
    let mut n = 0;
    m.walk(|op| n += usize::from(m.opcode(op) == Opcode::Print));
    n
}

fn has_testing_func(m: &Module) -> bool {
    let mut found = false;
    m.walk(|op| found |= m.opcode(op) == Opcode::TestingFunc);
    found
}

#[test]
fn text_bytecode_text_is_the_identity() {
    let cases = text_cases();
    let (mut identical, mut refused, mut print_token) = (0, Vec::new(), 0);
    let mut too_new = 0;
    for c in &cases {
        let lowest = tilec_bytecode::lowest_version(&c.module);
        for v in Version::SUPPORTED {
            let bytes = match tilec_bytecode::write(&c.module, v) {
                Ok(b) => b,
                // A newer feature in an older version: refused, naming the version.
                Err(d)
                    if v < lowest
                        && (d[0].message.contains("requires bytecode version")
                            || d[0]
                                .message
                                .contains("is not available in bytecode version")) =>
                {
                    too_new += 1;
                    continue;
                }
                Err(d) => {
                    refused.push(format!("{} ({v}): {}", c.name, d[0].message));
                    continue;
                }
            };
            let back = tilec_bytecode::read(&bytes, FileId(0))
                .unwrap_or_else(|d| panic!("{} ({v}): read back: {}", c.name, d.message));
            if v >= Version::V13_2 && has_tokenless_print(&c.module) {
                // From 13.2 on `print` always yields a token: the read-back print has one.
                print_token += 1;
                continue;
            }
            if v < Version::V13_2 && has_token_print(&c.module) {
                // Before 13.2 the (unused) token of `print_tko` is not written: the
                // read-back print has none, as NVIDIA's reader gives it.
                assert_eq!(
                    count_prints(&back),
                    count_prints(&c.module),
                    "{} ({v})",
                    c.name
                );
                print_token += 1;
                continue;
            }
            same(
                &items(&back),
                &items(&c.module),
                &format!("{} ({v})", c.name),
            );
            identical += 1;
        }
    }
    eprintln!(
        "bytecode round trips: {} modules x 3 versions: {identical} identical, {print_token} with a print whose token one version has and the other lacks, {too_new} refused below the version their features need, {} refused",
        cases.len(),
        refused.len()
    );
    // The only module the format cannot hold is a file of several modules.
    assert_eq!(
        refused,
        Version::SUPPORTED
            .iter()
            .map(|v| format!(
                "syntax_omit_dialect_prefix.mlir#0 ({v}): a bytecode file holds one module; the input has 4 top-level operations"
            ))
            .collect::<Vec<_>>()
            .into_iter()
            .filter(|_| shared_dir().is_some())
            .collect::<Vec<_>>()
    );
    assert!(identical >= 12 * 3);
}

#[test]
fn corpus_bytecode_reads_as_tileirdisasm_prints_it() {
    let files = corpus();
    for p in &files {
        let bytes = std::fs::read(p).unwrap();
        let m = tilec_bytecode::read(&bytes, FileId(0))
            .unwrap_or_else(|d| panic!("{}: {}", p.display(), d.message));
        assert!(
            tilec_verify::verify(&m, &Default::default())
                .iter()
                .all(|d| !d.is_error()),
            "{}: does not verify",
            p.display()
        );
        let text = std::fs::read_to_string(p.with_extension("mlir")).unwrap();
        let t = tilec_parse::parse(&text, FileId(0), &Default::default()).unwrap();
        same(&items(&m), &items(&t), &p.display().to_string());
        // And tilec writes it back byte for byte the same IR.
        let again = tilec_bytecode::write(&m, Version::V13_3).unwrap();
        let m2 = tilec_bytecode::read(&again, FileId(0)).unwrap();
        assert_eq!(items(&m2), items(&m), "{}: rewrite", p.display());
    }
    eprintln!(
        "cuTile bytecode read: {} files, all identical to tileirdisasm's text",
        files.len()
    );
}

#[test]
fn corpus_bytecode_compiles_to_ptx_that_ptxas_accepts() {
    let files = corpus();
    let dir = std::env::temp_dir().join(format!("tilec-bc-ptx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ptxas = ptxas::find();
    if ptxas.is_none() {
        skipped(
            "ptxas on PTX compiled from bytecode",
            "ptxas not found (pip install nvidia-cuda-nvcc)",
        );
    }
    let mut kernels = 0;
    let mut refused = Vec::new();
    for p in &files {
        let out = dir.join(p.file_stem().unwrap()).with_extension("ptx");
        let r = run_tilec(
            &[
                p.to_str().unwrap(),
                "--arch",
                "sm_90",
                "-o",
                out.to_str().unwrap(),
            ],
            "",
        );
        let stem = p.file_stem().unwrap().to_str().unwrap();
        let in_corpus = p.starts_with(repo_root().join("tests/corpus/cutile"));
        if in_corpus
            && tilec_tests::check_ptx_refusal(stem, r.status, &r.stderr)
                .unwrap_or_else(|e| panic!("{e}"))
        {
            refused.push(format!(
                "{stem}: {}",
                tilec_tests::ptx_refusal(stem).unwrap_or_default()
            ));
            continue;
        }
        assert_eq!(r.status, 0, "{}: {}", p.display(), r.stderr);
        if let Some(ptxas) = &ptxas {
            let rep = ptxas::assemble(ptxas, &out, "sm_90");
            assert!(
                rep.ok && rep.problems.is_empty(),
                "{}: {:?}",
                p.display(),
                rep.problems
            );
            kernels += rep.kernels.len();
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    tilec_tests::print_ptx_refusals("bytecode to PTX", &refused);
    assert_eq!(refused.len(), tilec_tests::PTX_REFUSED_CORPUS.len());
    eprintln!(
        "cuTile bytecode to PTX: {} files, {} refused as expected, {kernels} kernels accepted by ptxas",
        files.len(),
        refused.len()
    );
}

fn nvidia_tool(name: &str) -> Option<PathBuf> {
    let env = format!("TILEC_{}", name.to_ascii_uppercase());
    ptxas::find_tool(&env, name).or_else(|| {
        // Next to ptxas (the wheels install the tools side by side).
        let p = ptxas::find()?.with_file_name(name);
        p.is_file().then_some(p)
    })
}

fn run_tool(tool: &Path, args: &[&str]) -> (bool, String, String) {
    // tileiras finds libnvvm and ptxas relative to its own folder.
    let out = Command::new(tool)
        .args(args)
        .current_dir(tool.parent().unwrap())
        .output()
        .expect("run tool");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Text modules plus the corpus (as text) that NVIDIA's tools are asked to read.
fn interop_cases() -> Vec<Case> {
    let mut v = text_cases();
    for p in corpus() {
        let text = std::fs::read_to_string(p.with_extension("mlir")).unwrap();
        v.push(Case {
            name: p.file_name().unwrap().to_string_lossy().into(),
            module: parse_verified(&text, 0, text.len()).unwrap(),
        });
    }
    v
}

#[test]
fn tileirdisasm_reads_tilec_bytecode_back_to_the_same_ir() {
    let Some(disasm) = nvidia_tool("tileirdisasm") else {
        skipped(
            "tileirdisasm interop",
            "tileirdisasm not found (pip install nvidia-cuda-tileiras)",
        );
        return;
    };
    let dir = std::env::temp_dir().join(format!("tilec-bc-dis-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut accepted, mut device_fns, mut total) = (0, 0, 0);
    for c in interop_cases() {
        for v in Version::SUPPORTED {
            let Ok(bytes) = tilec_bytecode::write(&c.module, v) else {
                continue;
            };
            total += 1;
            let f = dir.join("k.tileirbc");
            std::fs::write(&f, &bytes).unwrap();
            let (ok, out, err) = run_tool(&disasm, &[f.to_str().unwrap()]);
            if has_testing_func(&c.module) {
                // NVIDIA's readers take only kernels; device functions are a preview
                // feature of theirs.
                assert!(
                    !ok && err.contains("preview feature"),
                    "{} ({v}): {err}",
                    c.name
                );
                device_fns += 1;
                continue;
            }
            assert!(
                ok,
                "{} ({v}): tileirdisasm rejected tilec's bytecode: {err}",
                c.name
            );
            let t = parse_verified(&out, 0, out.len())
                .unwrap_or_else(|| panic!("{} ({v}): tileirdisasm's text does not verify", c.name));
            if v >= Version::V13_2 && has_tokenless_print(&c.module) {
                accepted += 1;
                continue;
            }
            same(
                &items(&t),
                &items(&c.module),
                &format!("{} ({v}) via tileirdisasm", c.name),
            );
            accepted += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "tileirdisasm: {total} bytecode files written by tilec: {accepted} accepted and printed back to the same IR, {device_fns} with testing$func refused as expected"
    );
    assert_eq!(accepted + device_fns, total);
}

#[test]
fn tileiras_compiles_tilec_bytecode_for_sm_90() {
    let Some(tileiras) = nvidia_tool("tileiras") else {
        skipped(
            "tileiras interop",
            "tileiras not found (pip install nvidia-cuda-tileiras)",
        );
        return;
    };
    let dir = std::env::temp_dir().join(format!("tilec-bc-ras-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut compiled, mut sm_100) = (0, 0);
    let cases: Vec<Case> = interop_cases()
        .into_iter()
        .filter(|c| !has_testing_func(&c.module) && !c.name.contains(".mlir#"))
        .collect();
    for c in &cases {
        // The lowest version that holds the module (13.3's views need 13.3).
        let v = tilec_bytecode::lowest_version(&c.module);
        let bytes = tilec_bytecode::write(&c.module, v).unwrap();
        let f = dir.join("k.tileirbc");
        std::fs::write(&f, &bytes).unwrap();
        let cubin = dir.join("k.cubin");
        let compile = |arch: &str| {
            let _ = std::fs::remove_file(&cubin);
            run_tool(
                &tileiras,
                &[
                    &format!("--gpu-name={arch}"),
                    "-o",
                    cubin.to_str().unwrap(),
                    f.to_str().unwrap(),
                ],
            )
        };
        let (ok, _, err) = compile("sm_90");
        let blackwell = TILEIRAS_SM_100_ONLY
            .iter()
            .any(|k| c.name == format!("{k}.tileirbc"));
        if blackwell {
            // Refused for sm_90 exactly as NVIDIA's own output is; compiled for sm_100.
            assert!(
                !ok && err.contains(
                    "Incompatibility with architecture 'sm_90': unsupported type 'f8E8M0FNU'"
                ),
                "{}: tileiras on sm_90 (listed in TILEIRAS_SM_100_ONLY): ok={ok} {err}",
                c.name
            );
            let (ok, _, err) = compile("sm_100");
            assert!(
                ok,
                "{}: tileiras rejected tilec's bytecode for sm_100: {err}",
                c.name
            );
            println!(
                "  tileiras: {} refused for sm_90 (f8E8M0FNU), compiled for sm_100",
                c.name
            );
            sm_100 += 1;
        } else {
            assert!(ok, "{}: tileiras rejected tilec's bytecode: {err}", c.name);
        }
        assert!(cubin.is_file());
        compiled += 1;
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(sm_100, TILEIRAS_SM_100_ONLY.len());
    eprintln!(
        "tileiras: {compiled} of {} kernels' bytecode compiled, {} of them for sm_100 only, the rest for sm_90",
        cases.len(),
        sm_100
    );
}

/// cuTile corpus kernels whose types tileiras takes only from sm_100 on (the MX scale type
/// f8E8M0FNU of `mmaf_scaled`): it refuses them for sm_90, tilec's bytecode as NVIDIA's.
const TILEIRAS_SM_100_ONLY: [&str; 2] = ["mma_scaled_f4", "mma_scaled_f8"];

/// Bytes of a small valid file (vector_add in 13.1).
fn valid() -> Vec<u8> {
    let text = std::fs::read_to_string(repo_root().join("examples/vector_add.tile")).unwrap();
    let m = parse_verified(&text, 0, text.len()).unwrap();
    tilec_bytecode::write(&m, Version::V13_1).unwrap()
}

fn read_err(bytes: &[u8]) -> String {
    match tilec_bytecode::read(bytes, FileId(0)) {
        Ok(_) => "accepted".into(),
        Err(d) => format!("{}: {}", d.location.unwrap().span.start, d.message),
    }
}

#[test]
fn malformed_bytecode_is_rejected_at_the_byte_offset() {
    let good = valid();
    assert!(tilec_bytecode::read(&good, FileId(0)).is_ok());
    assert_eq!(
        read_err(b"\x7fTileIR\x00\x0d"),
        "9: unexpected end of data while reading the version"
    );
    assert_eq!(
        read_err(b"\x7fTileIX\x00\x0d\x01\x00\x00"),
        "0: not a Tile IR bytecode file (wrong magic number)"
    );
    assert_eq!(
        read_err(b"\x7fTileIR\x00\x0c\x07\x00\x00\x00"),
        "8: unsupported bytecode version 12.7 (tilec reads 13.1 to 13.3)"
    );
    // Truncated in the middle of the function section.
    assert_eq!(
        read_err(&good[..40]),
        format!(
            "13: section 2 is {} bytes long but only 24 bytes remain",
            good[13]
        )
    );
    // An unknown section id.
    let mut b = good[..12].to_vec();
    b.extend_from_slice(&[0x09, 0x00, 0x00]);
    assert_eq!(read_err(&b), "12: unknown section id 9");
    // A section that claims more bytes than the file has.
    let mut b = good[..12].to_vec();
    b.extend_from_slice(&[0x01, 0xff, 0xff, 0x03, 0x00]);
    assert_eq!(
        read_err(&b),
        "13: section 1 is 65535 bytes long but only 1 byte remains"
    );
    // No string section.
    assert_eq!(
        read_err(b"\x7fTileIR\x00\x0d\x01\x00\x00\x00"),
        "13: the string section is missing"
    );
    // Trailing bytes after the end marker.
    let mut b = good.clone();
    b.push(0);
    assert_eq!(
        read_err(&b),
        format!("{}: 1 byte after the end-of-bytecode marker", good.len())
    );
    // An operand index out of range: `addi %a, %a` is opcode 3, the result type, the
    // overflow mode 0 and the operands (value 0 twice); make the second operand 99.
    let text = "cuda_tile.module @m {\n  entry @k(%a: tile<i32>) {\n    %0 = addi %a, %a : tile<i32>\n    return\n  }\n}\n";
    let m = parse_verified(text, 0, text.len()).unwrap();
    let small = tilec_bytecode::write(&m, Version::V13_1).unwrap();
    let addi = small
        .windows(6)
        .position(|w| w[0] == 0x03 && w[2..] == [0, 0, 0, 0x5c])
        .expect("addi then return");
    let mut b = small.clone();
    let operand = addi + 4;
    b[operand] = 99;
    assert_eq!(
        read_err(&b),
        format!("{operand}: operand index 99 is out of range (1 value defined here)")
    );
    // The CLI reports it with the file name and the offset, exit status 1.
    let dir = std::env::temp_dir().join(format!("tilec-bc-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.tileirbc");
    std::fs::write(&f, &b).unwrap();
    let r = run_tilec(
        &["check", "--diagnostic-format=mlir", f.to_str().unwrap()],
        "",
    );
    assert_eq!(r.status, 1);
    assert_eq!(
        r.stderr,
        format!(
            "{}: byte offset {operand} ({operand:#x}): error: operand index 99 is out of range (1 value defined here)\n",
            f.display()
        )
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cli_writes_formats_and_compiles_bytecode() {
    let dir = std::env::temp_dir().join(format!("tilec-bc-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ex = repo_root().join("examples/vector_add.tile");
    let bc = dir.join("v.tileirbc");
    for v in ["13.1", "13.2", "13.3"] {
        let r = run_tilec(
            &[
                ex.to_str().unwrap(),
                "--emit=bytecode",
                "--bytecode-version",
                v,
                "-o",
                bc.to_str().unwrap(),
            ],
            "",
        );
        assert_eq!(r.status, 0, "{}", r.stderr);
        let bytes = std::fs::read(&bc).unwrap();
        assert!(tilec_bytecode::is_bytecode(&bytes));
        assert_eq!(&bytes[8..10], &[13, v[3..].parse::<u8>().unwrap()]);
    }
    // `fmt` disassembles; the text is the example's (module name aside).
    let r = run_tilec(&["opt", bc.to_str().unwrap()], "");
    assert_eq!(r.status, 0, "{}", r.stderr);
    let want = run_tilec(&["opt", ex.to_str().unwrap()], "").stdout;
    let strip = |s: &str| s.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(strip(&r.stdout), strip(&want));
    assert!(r.stdout.starts_with("cuda_tile.module @kernels {"));
    // Compiling the bytecode gives the same PTX as compiling the text.
    let from_bc = run_tilec(&[bc.to_str().unwrap(), "-o", "-"], "");
    let from_text = run_tilec(&[ex.to_str().unwrap(), "-o", "-"], "");
    assert_eq!(from_bc.status, 0);
    let body = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with("//") && !l.contains(".file"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(body(&from_bc.stdout), body(&from_text.stdout));
    // An unknown version is a usage error; an op the version lacks is a located error.
    let r = run_tilec(
        &[
            ex.to_str().unwrap(),
            "--emit=bytecode",
            "--bytecode-version",
            "13.9",
        ],
        "",
    );
    assert_eq!(r.status, 2);
    assert!(
        r.stderr.contains("unsupported bytecode version '13.9'"),
        "{}",
        r.stderr
    );
    let src = dir.join("atan2.tile");
    std::fs::write(
        &src,
        "cuda_tile.module @m {\n  entry @k(%a: tile<f32>) {\n    %0 = atan2 %a, %a : tile<f32>\n    return\n  }\n}\n",
    )
    .unwrap();
    // Without --bytecode-version: the lowest version that encodes it, 13.2 (bytes 8 and 9
    // of the header are the major and minor version).
    let r = run_tilec(
        &[
            src.to_str().unwrap(),
            "--emit=bytecode",
            "-o",
            bc.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert_eq!(&std::fs::read(&bc).unwrap()[8..10], &[13, 2]);
    let r = run_tilec(
        &[
            src.to_str().unwrap(),
            "--emit=bytecode",
            "--bytecode-version",
            "13.1",
            "--diagnostic-format=mlir",
            "-o",
            bc.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(r.status, 1);
    assert!(
        r.stderr.contains(":3:10: error: 'cuda_tile.atan2' is not available in bytecode version 13.1 (it needs 13.2)"),
        "{}",
        r.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `i1` constants as MLIR encodes them (issue 20): a splat is one byte 0x00 or 0xFF, other
/// constants are bit-packed. tilec wrote one byte per element, which NVIDIA's readers
/// refuse ("i1 dense attribute payload size 4 is not a recognized encoding for 4
/// elements"); and a bit-packed constant of up to 8 elements must not read as a splat.
#[test]
fn i1_constants_are_bit_packed() {
    let src = "cuda_tile.module @m {\n  entry @k(%p: tile<ptr<i8>>) {\n    %c = constant <i1: [true, false, true, true]> : tile<4xi1>\n    %d = constant <i1: true> : tile<4xi1>\n    %e = constant <i1: [true, false, true, true, false, false, true, false, true, true, false, false, false, false, false, true]> : tile<16xi1>\n    %x = exti %c unsigned : tile<4xi1> -> tile<4xi8>\n    %y = exti %d unsigned : tile<4xi1> -> tile<4xi8>\n    %z = exti %e unsigned : tile<16xi1> -> tile<16xi8>\n    return\n  }\n}\n";
    let m = parse_verified(src, 0, src.len()).unwrap();
    let bytes = tilec_bytecode::write(&m, Version::V13_1).unwrap();
    // The payloads: 0b1101 for the first, 0xFF for the splat, 0b01001101 0b10000011.
    let has = |needle: &[u8]| bytes.windows(needle.len()).any(|w| w == needle);
    assert!(has(&[0b1101]) && has(&[0xFF]) && has(&[0b0100_1101, 0b1000_0011]));
    let back = tilec_bytecode::read(&bytes, tilec_diag::FileId(0)).unwrap();
    same(&items(&back), &items(&m), "i1 constants");
    let Some(disasm) = nvidia_tool("tileirdisasm") else {
        skipped(
            "i1 constants through tileirdisasm",
            "tileirdisasm not found",
        );
        return;
    };
    let f = std::env::temp_dir().join(format!("tilec-i1-{}.tileirbc", std::process::id()));
    std::fs::write(&f, &bytes).unwrap();
    let (ok, out, err) = run_tool(&disasm, &[f.to_str().unwrap()]);
    let _ = std::fs::remove_file(&f);
    assert!(ok, "tileirdisasm rejected the i1 constants: {err}");
    for want in [
        "constant <i1: [true, false, true, true]> : tile<4xi1>",
        "constant <i1: true> : tile<4xi1>",
        "constant <i1: [true, false, true, true, false, false, true, false, true, true, false, false, false, false, false, true]> : tile<16xi1>",
    ] {
        assert!(out.contains(want), "tileirdisasm printed:\n{out}");
    }
}

fn read_nvidia(bytes: &[u8]) -> Result<Module, String> {
    let opts = tilec_bytecode::ReadOptions { nvidia: true };
    tilec_bytecode::read_with(bytes, FileId(0), opts)
        .map_err(|d| format!("{}: {}", d.location.unwrap().span.start, d.message))
}

fn write_err(text: &str, v: Version) -> Vec<String> {
    let m = tilec_parse::parse(text, FileId(0), &Default::default()).unwrap();
    match tilec_bytecode::write(&m, v) {
        Ok(_) => vec!["written".into()],
        Err(ds) => ds
            .iter()
            .map(|d| format!("{} {}", d.severity, d.message))
            .collect(),
    }
}

#[test]
fn versions_producer_and_nvidia_reading() {
    // The producer: written from 13.3 on (and chosen by the default version), dropped
    // for older versions.
    let text = "cuda_tile.module @kernels attributes {producer = \"gen 1.0\"} {\n  entry @k() {\n    return\n  }\n}\n";
    let m = parse_verified(text, 0, text.len()).unwrap();
    assert_eq!(tilec_bytecode::lowest_version(&m), Version::V13_3);
    let print = |bytes: &[u8]| {
        let back = tilec_bytecode::read(bytes, FileId(0)).unwrap();
        tilec_ir::print_module(&back, &Default::default())
    };
    let b = tilec_bytecode::write(&m, Version::V13_3).unwrap();
    assert!(
        print(&b).starts_with("cuda_tile.module @kernels attributes {producer = \"gen 1.0\"} {\n")
    );
    let b = tilec_bytecode::write(&m, Version::V13_1).unwrap();
    assert!(print(&b).starts_with("cuda_tile.module @kernels {\n"));

    // A field that a version cannot encode names itself and the version it needs.
    let negi = |overflow: &str| {
        format!(
            "cuda_tile.module @m {{\n  entry @k() {{\n    %c = constant <i32: [1, -2]> : tile<2xi32>\n    %r = negi %c{overflow} : tile<2xi32>\n    return\n  }}\n}}\n"
        )
    };
    assert_eq!(
        write_err(&negi(" overflow<no_signed_wrap>"), Version::V13_1),
        ["error attribute 'overflow' requires bytecode version 13.2+"]
    );
    assert_eq!(write_err(&negi(""), Version::V13_1), ["written"]);
    let t = negi(" overflow<no_signed_wrap>");
    let m = parse_verified(&t, 0, t.len()).unwrap();
    let b = tilec_bytecode::write(&m, Version::V13_2).unwrap();
    assert!(print(&b).contains("overflow<no_signed_wrap> : tile<2xi32>"));

    // 13.3 globals: visibility and `constant`, printed with NVIDIA's spacing (its custom
    // directive leaves a double space), encoded from 13.3 on and refused before.
    let text = "cuda_tile.module @kernels {\n  global private constant @g <i32: [7]> : tile<1xi32>\n  global public @h <f32: [1.0]> : tile<1xf32>\n}\n";
    let m = parse_verified(text, 0, text.len()).unwrap();
    assert_eq!(tilec_bytecode::lowest_version(&m), Version::V13_3);
    let b = tilec_bytecode::write(&m, Version::V13_3).unwrap();
    assert_eq!(
        print(&b),
        "cuda_tile.module @kernels {\n  global private  constant @g <i32: 7> : tile<1xi32>\n  global  @h <f32: 1.000000e+00> : tile<1xf32>\n}\n"
    );
    assert_eq!(
        write_err(text, Version::V13_2),
        [
            "error global `g` uses non-public symbol visibility, which cannot be encoded in bytecode version 13.2 (requires bytecode 13.3+)"
        ]
    );
    assert_eq!(
        write_err(&text.replace("private ", ""), Version::V13_1),
        [
            "error constant global `g` cannot be encoded in bytecode version 13.1 (the `constant` attribute requires bytecode 13.3+)"
        ]
    );

    // Types a version cannot hold: NVIDIA's words, without a location (as its writer
    // reports them), and on reading a file that claims an older version.
    let e8m0 = "cuda_tile.module @m {\n  entry @k(%a: tile<f8E8M0FNU>) {\n    return\n  }\n}\n";
    assert_eq!(
        write_err(e8m0, Version::V13_1),
        ["error type 'Float8E8M0FNU' requires bytecode version 13.2+, targeting 13.1"]
    );
    let f4 = "cuda_tile.module @m {\n  entry @k() {\n    %c = constant <f4E2M1FN: [1.0, -6.0]> : tile<2xf4E2M1FN>\n    return\n  }\n}\n";
    assert_eq!(
        write_err(f4, Version::V13_2),
        ["error type 'Float4E2M1FN' requires bytecode version 13.3+, targeting 13.2"]
    );
    let m = parse_verified(f4, 0, f4.len()).unwrap();
    assert_eq!(tilec_bytecode::lowest_version(&m), Version::V13_3);
    let mut b = tilec_bytecode::write(&m, Version::V13_3).unwrap();
    assert!(
        print(&b).contains("constant <f4E2M1FN: [1.000000e+00, -6.000000e+00]> : tile<2xf4E2M1FN>")
    );
    b[9] = 1; // claim 13.1
    let err = read_err(&b);
    assert!(
        err.ends_with(
            ": type 'Float4E2M1FN' requires bytecode version 13.3+, file version is 13.1"
        ),
        "{err}"
    );

    // Only cuda_tile ops, and only functions and globals at the top.
    assert_eq!(
        write_err(
            "cuda_tile.module @m {\n  cuda_tile.constant <f32: 5.0> : !cuda_tile.tile<f32>\n}\n",
            Version::V13_3
        ),
        [
            "error only function and global ops are allowed in the body",
            "remark invalid op"
        ]
    );

    // NVIDIA's reading of a 13.1 `print`: 13.2's `print_tko` with a token that takes no
    // value number (the op after it still finds its operands); tilec's own keeps `print`.
    let text = "cuda_tile.module @m {\n  entry @k() {\n    %c = constant <i32: 1> : tile<i32>\n    print \"x\"\n    %d = addi %c, %c : tile<i32>\n    print \"%d\", %d : tile<i32>\n    return\n  }\n}\n";
    let m = parse_verified(text, 0, text.len()).unwrap();
    let b = tilec_bytecode::write(&m, Version::V13_1).unwrap();
    assert!(print(&b).contains("    print \"x\"\n"));
    let nv = tilec_ir::print_module(&read_nvidia(&b).unwrap(), &Default::default());
    assert!(nv.contains("= print_tko \"x\" -> token\n"), "{nv}");
    assert!(
        nv.contains("%1 = addi %cst_1_i32, %cst_1_i32 : tile<i32>\n    %2 = print_tko \"%d\", %1 : tile<i32> -> token\n"),
        "{nv}"
    );

    // NVIDIA's words for the reader errors it shares.
    let good = valid();
    let mut b = good[..8].to_vec();
    b.extend_from_slice(&[0x12, 0x00, 0x00, 0x00]);
    assert_eq!(
        read_nvidia(&b).unwrap_err(),
        "8: unsupported Tile version 18.0.0, this reader supports versions [13.1 - 13.3]"
    );
    let mut b = good[..12].to_vec();
    b.extend_from_slice(&[0x7f, 0x01, 0x00]);
    assert_eq!(read_nvidia(&b).unwrap_err(), "12: unknown section ID: 127");
    let mut b = good[..12].to_vec();
    b.extend_from_slice(&[0x00, 0xff]);
    assert_eq!(
        read_nvidia(&b).unwrap_err(),
        "12: end section is not the last section"
    );
}

/// 13.3's strided and gather/scatter views and `atomic_red_view_tko`: written at 13.3
/// (tags 21 and 20, opcodes 0x73-0x75), read back to the same text, refused at 13.2 with
/// NVIDIA's words, and read by tileirdisasm to what tilec prints.
#[test]
fn views_13_3_round_trip() {
    let text = r#"cuda_tile.module @kernels {
  entry @k(%src: tile<ptr<f32>>, %dst: tile<ptr<i32>>) {
    %rows = constant <i32: [5, 0, 7, 2]> : tile<4xi32>
    %tv = make_tensor_view %src, shape = [6, 8], strides = [8, 1] : tensor_view<6x8xf32, strides=[8,1]>
    %s = make_strided_view %tv : strided_view<tile=(4x4), traversal_strides=[2,3], padding_value = nan, tensor_view<6x8xf32, strides=[8,1]>>
    %st = make_strided_view %tv : strided_view<tile=(2x4), traversal_strides=[3,1], tensor_view<6x8xf32, strides=[8,1]>, dim_map=[1, 0]>
    %g = make_gather_scatter_view %tv : gather_scatter_view<tile=(4x4), padding_value = zero, tensor_view<6x8xf32, strides=[8,1]>, sparse_dim=0>
    %c1 = constant <i32: 1> : tile<i32>
    %x0, %k0 = load_view_tko weak %s[%c1, %c1] : strided_view<tile=(4x4), traversal_strides=[2,3], padding_value = nan, tensor_view<6x8xf32, strides=[8,1]>>, tile<i32> -> tile<4x4xf32>, token
    %x1, %k1 = load_view_tko weak %st[%c1, %c1] : strided_view<tile=(2x4), traversal_strides=[3,1], tensor_view<6x8xf32, strides=[8,1]>, dim_map=[1, 0]>, tile<i32> -> tile<2x4xf32>, token
    %x2, %k2 = load_view_tko weak %g[%rows, %c1] : gather_scatter_view<tile=(4x4), padding_value = zero, tensor_view<6x8xf32, strides=[8,1]>, sparse_dim=0>, tile<4xi32>, tile<i32> -> tile<4x4xf32>, token
    %k3 = store_view_tko weak %x2, %g[%rows, %c1] : tile<4x4xf32>, gather_scatter_view<tile=(4x4), padding_value = zero, tensor_view<6x8xf32, strides=[8,1]>, sparse_dim=0>, tile<4xi32>, tile<i32> -> token
    %tvi = make_tensor_view %dst, shape = [4, 4], strides = [4, 1] : tensor_view<4x4xi32, strides=[4,1]>
    %pv = make_partition_view %tvi : partition_view<tile=(2x2), tensor_view<4x4xi32, strides=[4,1]>>
    %sv = make_strided_view %tvi : strided_view<tile=(2x2), traversal_strides=[1,1], tensor_view<4x4xi32, strides=[4,1]>>
    %v = constant <i32: 3> : tile<2x2xi32>
    %t0 = atomic_red_view_tko relaxed device %pv[%c1, %c1], add, %v : tile<2x2xi32>, partition_view<tile=(2x2), tensor_view<4x4xi32, strides=[4,1]>>, tile<i32> -> token
    %t1 = atomic_red_view_tko relaxed tl_blk %sv[%c1, %c1], umax, %v token = %t0 : tile<2x2xi32>, strided_view<tile=(2x2), traversal_strides=[1,1], tensor_view<4x4xi32, strides=[4,1]>>, tile<i32> -> token
  }
}
"#;
    let m = parse_verified(text, 0, text.len()).unwrap();
    assert_eq!(tilec_bytecode::lowest_version(&m), Version::V13_3);
    let printed = tilec_ir::print_module(&m, &Default::default());
    let b = tilec_bytecode::write(&m, Version::V13_3).unwrap();
    let back = tilec_bytecode::read(&b, FileId(0)).unwrap();
    assert_eq!(tilec_ir::print_module(&back, &Default::default()), printed);
    assert!(printed.contains("strided_view<tile=(4x4), traversal_strides=[2,3], padding_value = nan, tensor_view<6x8xf32, strides=[8,1]>>"));
    assert!(printed.contains("gather_scatter_view<tile=(4x4), padding_value = zero, tensor_view<6x8xf32, strides=[8,1]>, sparse_dim=0>, tile<4xi32>, tile<i32> -> tile<4x4xf32>, token"));
    let tf = "cuda_tile.module @m {\n  testing$func @f(%v: !cuda_tile.strided_view<tile=(2x2), traversal_strides=[1,1], tensor_view<4x4xi32, strides=[4,1]>>) {\n    return\n  }\n}\n";
    assert_eq!(
        write_err(tf, Version::V13_2),
        ["error type 'StridedViewType' requires bytecode version 13.3+, targeting 13.2"]
    );
    let gf = tf.replace(
        "strided_view<tile=(2x2), traversal_strides=[1,1], tensor_view<4x4xi32, strides=[4,1]>>",
        "gather_scatter_view<tile=(2x2), tensor_view<4x4xi32, strides=[4,1]>, sparse_dim=1>",
    );
    assert_eq!(
        write_err(&gf, Version::V13_1),
        ["error type 'GatherScatterViewType' requires bytecode version 13.3+, targeting 13.1"]
    );
    let Some(disasm) = nvidia_tool("tileirdisasm") else {
        skipped("tileirdisasm of 13.3 views", "tileirdisasm not found");
        return;
    };
    let dir = std::env::temp_dir().join(format!("tilec-bc-views-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("views.tileirbc");
    std::fs::write(&path, &b).unwrap();
    let (ok, out, err) = run_tool(&disasm, &[path.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(ok, "tileirdisasm failed: {err}");
    let ours: Vec<&str> = printed
        .lines()
        .skip(1)
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let theirs: Vec<&str> = out
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    for l in &ours[..ours.len() - 1] {
        assert!(theirs.contains(l), "tileirdisasm lacks {l:?}:\n{out}");
    }
}

/// `print_tko`'s token is a 13.2 result: a 13.1 file leaves it out (NVIDIA's rule for
/// versioned results, so that the values after it keep their numbers), and refuses a
/// module that uses it.
#[test]
fn print_token_below_13_2() {
    let unused = "cuda_tile.module @m {\n  entry @k() {\n    %c = constant <i32: 1> : tile<i32>\n    %t = print_tko \"%d\", %c : tile<i32> -> token\n    %d = constant <i32: 2> : tile<i32>\n    %u = print_tko \"%d\", %d : tile<i32> -> token\n    return\n  }\n}\n";
    let m = tilec_parse::parse(unused, FileId(0), &Default::default()).unwrap();
    let bytes = tilec_bytecode::write(&m, Version::V13_1).expect("writes");
    let back = read_nvidia(&bytes).expect("reads");
    let text = tilec_ir::print_module(&back, &Default::default());
    assert!(
        text.contains("print_tko \"%d\", %cst_1_i32 : tile<i32> -> token"),
        "{text}"
    );
    assert!(
        text.contains("print_tko \"%d\", %cst_2_i32 : tile<i32> -> token"),
        "{text}"
    );
    let used = "cuda_tile.module @m {\n  entry @k() {\n    %c = constant <i32: 1> : tile<i32>\n    %t = print_tko \"%d\", %c : tile<i32> -> token\n    %u = print_tko \"%d\", %c token = %t : tile<i32> -> token\n    return\n  }\n}\n";
    assert_eq!(
        write_err(used, Version::V13_1),
        [
            "error the token result of 'cuda_tile.print_tko' requires bytecode version 13.2+, targeting 13.1"
        ]
    );
}

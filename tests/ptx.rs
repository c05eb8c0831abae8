//! The PTX backend end to end: every example, every entry kernel of the valid conformance
//! files, NVIDIA's cuTile samples and tilec's own cuTile corpus compile to PTX for sm_80,
//! sm_90, sm_90a (warpgroup MMA), sm_100 and sm_120a (what the `tileiras` personality
//! compiles cuTile's sm_120 for; the examples and the corpus also for sm_90 and
//! sm_90a with every tile block over a cluster of 2 CTAs, `--num-ctas 2`); ptxas assembles every file with no error and no warning; no kernel
//! spills;
//! compiling twice gives the same bytes; the examples' PTX matches the golden files in
//! tests/snapshots/ptx (`TILEC_BLESS=1` rewrites them). Corpus kernels the backend does not
//! lower yet (`tilec_tests::PTX_REFUSED_CORPUS`) must be refused by name on every target,
//! and are listed in the output; one that compiles fails the test.
//!
//! Without ptxas (PyPI `nvidia-cuda-nvcc`; `.ci/run` installs it) the assembler checks
//! print SKIPPED and the rest still runs.

use std::path::{Path, PathBuf};
use tilec_tests::{example_files, ptxas, repo_root, run_tilec, shared_dir, skipped};

const ARCHS: [&str; 5] = ["sm_80", "sm_90", "sm_90a", "sm_100", "sm_120a"];

/// The targets the examples and the corpus are also compiled for with every tile block
/// spread over a cluster of 2 CTAs (`--num-ctas 2`, docs/hopper.md "Clusters").
const CLUSTER_ARCHS: [&str; 2] = ["sm_90", "sm_90a"];

struct Input {
    path: PathBuf,
    split: bool,
    example: bool,
}

fn inputs() -> Vec<Input> {
    let mut v: Vec<Input> = example_files()
        .into_iter()
        .map(|path| Input {
            path,
            split: false,
            example: true,
        })
        .collect();
    let mut corpus: Vec<PathBuf> = std::fs::read_dir(repo_root().join("tests/corpus/cutile"))
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    corpus.retain(|p| p.extension().is_some_and(|x| x == "mlir"));
    corpus.sort();
    assert!(corpus.len() >= 12, "the cuTile corpus is missing");
    v.extend(corpus.into_iter().map(|path| Input {
        path,
        split: false,
        example: false,
    }));
    match shared_dir() {
        Some(shared) => {
            for f in [
                "ops.mlir",
                "canonicalize.mlir",
                "opt_hints.mlir",
                "syntax_omit_dialect_prefix.mlir",
                "types.mlir",
            ] {
                v.push(Input {
                    path: shared.join("conformance/cuda-tile-13.1").join(f),
                    split: true,
                    example: false,
                });
            }
            for f in ["vector_add.mlir", "vector_add.g.mlir", "row_softmax.mlir"] {
                v.push(Input {
                    path: shared.join("conformance/cutile-samples").join(f),
                    split: false,
                    example: false,
                });
            }
        }
        None => skipped("conformance kernels", "../shared/conformance not found"),
    }
    v
}

fn compile(input: &Input, arch: &str, cluster: bool) -> Result<String, String> {
    let path = input.path.to_str().expect("utf-8 path");
    let mut args = vec![path, "--arch", arch, "-o", "-"];
    if input.split {
        args.push("--split-input-file");
    }
    if cluster {
        args.extend(["--num-ctas", "2"]);
    }
    let out = run_tilec(&args, "");
    if out.status != 0 {
        return Err(format!("tilec exit {}:\n{}", out.status, out.stderr));
    }
    Ok(out.stdout)
}

struct Row {
    name: String,
    arch: &'static str,
    kernels: usize,
    max_regs: u32,
    spills: u32,
    smem: u32,
}

fn check_one(
    input: &Input,
    arch: &'static str,
    cluster: bool,
    tool: Option<&Path>,
    dir: &Path,
) -> Result<Option<Row>, String> {
    let stem = input
        .path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("?");
    let name = if cluster {
        format!("{stem} (2 CTAs)")
    } else {
        stem.to_string()
    };
    let ptx = compile(input, arch, cluster).map_err(|e| format!("{name} {arch}: {e}"))?;
    let again = compile(input, arch, cluster).map_err(|e| format!("{name} {arch}: {e}"))?;
    if ptx != again {
        return Err(format!("{name} {arch}: two compilations differ"));
    }
    let entries = ptx.matches(".entry ").count();
    if input.example {
        if entries == 0 {
            return Err(format!("{name}: no .entry emitted"));
        }
        if arch == "sm_80" && !cluster {
            let golden = repo_root()
                .join("tests/snapshots/ptx")
                .join(format!("{name}.ptx"));
            if std::env::var_os("TILEC_BLESS").is_some() {
                std::fs::create_dir_all(golden.parent().expect("dir"))
                    .map_err(|e| e.to_string())?;
                std::fs::write(&golden, &ptx).map_err(|e| e.to_string())?;
            } else {
                let want = std::fs::read_to_string(&golden).map_err(|e| {
                    format!(
                        "{name}: golden {} missing ({e}); run with TILEC_BLESS=1",
                        golden.display()
                    )
                })?;
                if want != ptx {
                    let line = want
                        .lines()
                        .zip(ptx.lines())
                        .position(|(a, b)| a != b)
                        .map_or(want.lines().count().min(ptx.lines().count()), |i| i)
                        + 1;
                    return Err(format!(
                        "{name}: PTX differs from {} at line {line} (TILEC_BLESS=1 to accept)",
                        golden.display()
                    ));
                }
            }
        }
    }
    let Some(tool) = tool else { return Ok(None) };
    if entries == 0 {
        return Ok(Some(Row {
            name,
            arch,
            kernels: 0,
            max_regs: 0,
            spills: 0,
            smem: 0,
        }));
    }
    let file = dir.join(format!(
        "{stem}.{arch}{}.ptx",
        if cluster { ".c2" } else { "" }
    ));
    std::fs::write(&file, &ptx).map_err(|e| e.to_string())?;
    let report = ptxas::assemble(tool, &file, arch);
    if !report.ok || !report.problems.is_empty() {
        return Err(format!(
            "{name} {arch}: ptxas rejected the PTX ({}):\n{}",
            file.display(),
            report.problems.join("\n")
        ));
    }
    let spills: u32 = report
        .kernels
        .iter()
        .map(|k| k.spill_stores + k.spill_loads)
        .sum();
    if spills > 0 {
        return Err(format!("{name} {arch}: spills {spills} bytes"));
    }
    Ok(Some(Row {
        name,
        arch,
        kernels: report.kernels.len(),
        max_regs: report
            .kernels
            .iter()
            .map(|k| k.registers)
            .max()
            .unwrap_or(0),
        spills,
        smem: report.kernels.iter().map(|k| k.smem).max().unwrap_or(0),
    }))
}

fn main() {
    let tool = ptxas::find();
    if tool.is_none() {
        skipped(
            "ptxas validation",
            "ptxas not found (set TILEC_PTXAS or `pip install nvidia-cuda-nvcc`); only compilation, determinism and golden files are checked",
        );
    }
    let dir = std::env::temp_dir().join(format!("tilec-ptx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut inputs = inputs();
    // Corpus kernels the backend does not lower yet: refused by name, on every target,
    // listed in the output; one that compiles fails the test (the list must shrink).
    let corpus_dir = repo_root().join("tests/corpus/cutile");
    let mut failures = Vec::new();
    let mut refused = Vec::new();
    inputs.retain(|input| {
        let stem = input
            .path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("?");
        if input.path.parent() != Some(corpus_dir.as_path())
            || tilec_tests::ptx_refusal(stem).is_none()
        {
            return true;
        }
        for arch in ARCHS {
            let p = input.path.to_str().expect("utf-8 path");
            let out = run_tilec(&[p, "--arch", arch, "-o", "-"], "");
            match tilec_tests::check_ptx_refusal(stem, out.status, &out.stderr) {
                Ok(_) => refused.push(format!(
                    "{stem} {arch}: {}",
                    tilec_tests::ptx_refusal(stem).unwrap_or_default()
                )),
                Err(e) => failures.push(e),
            }
        }
        false
    });
    tilec_tests::print_ptx_refusals("PTX", &refused);
    assert_eq!(
        refused.len() + failures.len(),
        tilec_tests::PTX_REFUSED_CORPUS.len() * ARCHS.len(),
        "a kernel of PTX_REFUSED_CORPUS is not in tests/corpus/cutile"
    );
    let mut jobs: Vec<(&Input, &'static str, bool)> = inputs
        .iter()
        .flat_map(|i| ARCHS.iter().map(move |a| (i, *a, false)))
        .collect();
    jobs.extend(
        inputs
            .iter()
            .filter(|i| !i.split)
            .flat_map(|i| CLUSTER_ARCHS.iter().map(move |a| (i, *a, true))),
    );
    let workers = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(8);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((input, arch, cluster)) = jobs.get(i) else {
                        break;
                    };
                    let r = check_one(input, arch, *cluster, tool.as_deref(), &dir);
                    results.lock().expect("lock").push((i, r));
                }
            });
        }
    });
    let mut results = results.into_inner().expect("lock");
    results.sort_by_key(|r| r.0);
    let _ = std::fs::remove_dir_all(&dir);
    let mut rows = Vec::new();
    for (_, r) in results {
        match r {
            Ok(Some(row)) => rows.push(row),
            Ok(None) => {}
            Err(e) => failures.push(e),
        }
    }
    if !rows.is_empty() {
        println!(
            "{:<34} {:<6} {:>7} {:>8} {:>7} {:>7}",
            "file", "arch", "kernels", "max regs", "spills", "smem"
        );
        for r in &rows {
            println!(
                "{:<34} {:<6} {:>7} {:>8} {:>7} {:>7}",
                r.name, r.arch, r.kernels, r.max_regs, r.spills, r.smem
            );
        }
        let kernels: usize = rows.iter().map(|r| r.kernels).sum();
        println!(
            "ptxas accepted {} files ({kernels} kernels) with no error or warning",
            rows.len()
        );
    }
    println!(
        "{} compilations checked, {} failures",
        jobs.len(),
        failures.len()
    );
    if !failures.is_empty() {
        for f in &failures {
            eprintln!("FAIL: {f}");
        }
        std::process::exit(1);
    }
}

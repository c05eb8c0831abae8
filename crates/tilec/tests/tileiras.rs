//! tilec as `tileiras` (issue 21): the command lines cuTile Python builds, cubins through
//! ptxas, cuTile's version probe, errors in the form cuTile reads, a missing ptxas; and
//! cuTile itself compiling every corpus kernel through tilec, offline.
//!
//! Needs ptxas (`TILEC_PTXAS`, or `ptxas` on PATH) for the cubins and a Python with
//! cuda-tile (`TILEC_PYTHON`) for the cuTile run; each part says SKIPPED without them.

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn skipped(what: &str, why: &str) {
    println!("\n*** SKIPPED: {what}: {why} ***\n");
}

fn ptxas() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("TILEC_PTXAS") {
        return Some(PathBuf::from(p)).filter(|p| p.is_file());
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join("ptxas"))
        .find(|p| p.is_file())
}

/// A folder holding `tileiras`, a link to this crate's tilec (and nothing else).
fn shim(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tilec"))
        .args(["install-tileiras-shim"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(dir.join("tileiras").is_file());
    dir
}

fn tileiras(shim: &Path, args: &[&str], ptxas: Option<&Path>) -> Output {
    let mut cmd = Command::new(shim.join("tileiras"));
    cmd.args(args).current_dir(repo());
    cmd.env_remove("CUDA_HOME");
    match ptxas {
        Some(p) => cmd.env("TILEC_PTXAS", p),
        None => cmd.env_remove("TILEC_PTXAS").env("PATH", ""),
    };
    cmd.output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Writes a module as bytecode of `version` through tilec.
fn bytecode(src: &str, version: &str, out: &Path) {
    let tile = out.with_extension("tile");
    std::fs::write(&tile, src).unwrap();
    let r = Command::new(env!("CARGO_BIN_EXE_tilec"))
        .arg(&tile)
        .args(["--emit=bytecode", "--bytecode-version", version, "-o"])
        .arg(out)
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", text(&r.stderr));
}

#[test]
fn tileiras_command_lines_write_cubins() {
    let dir = shim("tileiras-shim");
    let Some(ptxas) = ptxas() else {
        return skipped("tileiras cubins", "ptxas not found (TILEC_PTXAS)");
    };
    let out_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tileiras-out");
    std::fs::create_dir_all(&out_dir).unwrap();
    // cuTile's command line, on a cuTile bytecode file, for each architecture.
    for arch in ["sm_80", "sm_90", "sm_100", "sm_120"] {
        let cubin = out_dir.join(format!("va-{arch}.cubin"));
        let remarks = out_dir.join(format!("va-{arch}.yaml"));
        let r = tileiras(
            &dir,
            &[
                "tests/corpus/cutile/vector_add.tileirbc",
                "-o",
                cubin.to_str().unwrap(),
                "--gpu-name",
                arch,
                "-O3",
                "--lineinfo",
                "--preview=none",
                "--remark-format=yaml",
                "--remarks=all",
                &format!("--remarks-output-file={}", remarks.display()),
            ],
            Some(&ptxas),
        );
        assert!(r.status.success(), "{arch}: {}", text(&r.stderr));
        assert_eq!(&std::fs::read(&cubin).unwrap()[..4], b"\x7fELF", "{arch}");
        // Architecture-specific code where tileiras writes it: sm_90a, sm_100a, sm_120a.
        if let Some(cuobjdump) = std::env::var_os("TILEC_CUOBJDUMP") {
            let listed = Command::new(cuobjdump)
                .arg("-lelf")
                .arg(&cubin)
                .output()
                .unwrap();
            let want = if arch == "sm_80" {
                format!(".{arch}.cubin")
            } else {
                format!(".{arch}a.cubin")
            };
            assert!(
                text(&listed.stdout).contains(&want),
                "{arch}: {}",
                text(&listed.stdout)
            );
        }
        let y = std::fs::read_to_string(&remarks).unwrap();
        assert!(
            y.starts_with("--- !Analysis\nPass:            tilec\n"),
            "{y}"
        );
        assert!(
            y.contains(&format!("compiled for {arch} with 4 warps")),
            "{y}"
        );
    }
    // -O0 and --device-debug.
    let cubin = out_dir.join("va-debug.cubin");
    let r = tileiras(
        &dir,
        &[
            "tests/corpus/cutile/vector_add.tileirbc",
            "-o",
            cubin.to_str().unwrap(),
            "--gpu-name=sm_90",
            "-O0",
            "--device-debug",
        ],
        Some(&ptxas),
    );
    assert!(r.status.success(), "{}", text(&r.stderr));
    // cuTile's probe: an empty module of each version, for sm_120.
    for v in ["13.1", "13.2", "13.3"] {
        let bc = out_dir.join(format!("probe{v}.tileirbc"));
        bytecode("cuda_tile.module @kernels {\n}\n", v, &bc);
        let r = tileiras(
            &dir,
            &[
                bc.to_str().unwrap(),
                "-o",
                out_dir.join("probe.cubin").to_str().unwrap(),
                "--gpu-name",
                "sm_120",
            ],
            Some(&ptxas),
        );
        assert!(r.status.success(), "probe {v}: {}", text(&r.stderr));
    }
    // A kernel tilec refuses: `loc("file":line:col): error: ...`, exit 1, no cubin.
    let bad = out_dir.join("bad.tile");
    std::fs::write(
        &bad,
        "cuda_tile.module @m {\n  entry @k(%a: tile<f32>) {\n    %0 = addf %a, %a : tile<f16>\n    return\n  }\n}\n",
    )
    .unwrap();
    let cubin = out_dir.join("bad.cubin");
    let _ = std::fs::remove_file(&cubin);
    let compile_bad = || {
        tileiras(
            &dir,
            &[
                bad.to_str().unwrap(),
                "-o",
                cubin.to_str().unwrap(),
                "--gpu-name",
                "sm_90",
            ],
            Some(&ptxas),
        )
    };
    let r = compile_bad();
    assert_eq!(r.status.code(), Some(1));
    assert!(
        text(&r.stderr).starts_with(&format!(
            "loc(\"{}\":3:15): error: use of value",
            bad.display()
        )),
        "{}",
        text(&r.stderr)
    );
    assert!(!cubin.exists());
    // ptxas, started before tilec compiles, is stopped before it reads anything: a file
    // already at the output path is left as it was.
    std::fs::write(&cubin, b"earlier").unwrap();
    let r = compile_bad();
    assert_eq!(r.status.code(), Some(1));
    assert_eq!(std::fs::read(&cubin).unwrap(), b"earlier");
    // An architecture tilec does not target.
    let r = tileiras(
        &dir,
        &[
            "tests/corpus/cutile/vector_add.tileirbc",
            "-o",
            "/dev/null",
            "--gpu-name",
            "sm_75",
        ],
        Some(&ptxas),
    );
    assert_eq!(r.status.code(), Some(2));
    assert!(
        text(&r.stderr).contains("unsupported GPU 'sm_75'"),
        "{}",
        text(&r.stderr)
    );
    // --version names tilec.
    let r = tileiras(&dir, &["--version"], None);
    assert!(
        text(&r.stdout).starts_with("tileiras (tilec "),
        "{}",
        text(&r.stdout)
    );
}

/// Without a ptxas anywhere, the error names where tilec looked.
#[test]
fn a_missing_ptxas_is_reported() {
    let dir = shim("tileiras-no-ptxas");
    let r = tileiras(
        &dir,
        &[
            "tests/corpus/cutile/vector_add.tileirbc",
            "-o",
            "/dev/null",
            "--gpu-name",
            "sm_90",
        ],
        None,
    );
    assert_eq!(r.status.code(), Some(2));
    let err = text(&r.stderr);
    assert!(
        err.starts_with("error: ptxas not found (looked in: "),
        "{err}"
    );
    assert!(
        err.contains(&dir.join("ptxas").display().to_string()),
        "{err}"
    );
    assert!(err.contains("pip install nvidia-cuda-nvcc"), "{err}");
}

/// A ptxas older than `--split-compile` (a stand-in that refuses the option as ptxas
/// does, then runs the real one): tilec runs it again without the option and writes the
/// cubin; the stand-in's log shows both command lines.
#[test]
fn a_ptxas_without_split_compile_is_run_again_without_it() {
    let Some(real) = ptxas() else {
        return skipped(
            "ptxas without --split-compile",
            "ptxas not found (TILEC_PTXAS)",
        );
    };
    if std::thread::available_parallelism().map_or(1, |n| n.get()) < 2 {
        return skipped(
            "ptxas without --split-compile",
            "one CPU: tilec passes no --split-compile",
        );
    }
    let dir = shim("tileiras-old-ptxas");
    let log = dir.join("log");
    let old = dir.join("old-ptxas");
    std::fs::write(
        &old,
        format!(
            "#!/bin/sh\necho \"$*\" >> '{}'\nfor a in \"$@\"; do\n  if [ \"$a\" = --split-compile ]; then\n    cat > /dev/null\n    echo \"ptxas fatal   : Unknown option '-split-compile'\" >&2\n    exit 1\n  fi\ndone\nexec '{}' \"$@\"\n",
            log.display(),
            real.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o755)).unwrap();
    let cubin = dir.join("va.cubin");
    let r = tileiras(
        &dir,
        &[
            "tests/corpus/cutile/vector_add.tileirbc",
            "-o",
            cubin.to_str().unwrap(),
            "--gpu-name",
            "sm_90",
        ],
        Some(&old),
    );
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert_eq!(&std::fs::read(&cubin).unwrap()[..4], b"\x7fELF");
    let lines = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = lines.lines().collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("--split-compile "), "{lines:?}");
    assert!(!lines[1].contains("--split-compile"), "{lines:?}");
}

/// `tilec FILE --emit=cubin` (issue 21's `tilec compile --emit=cubin`): the PTX assembled
/// by the ptxas tileiras would find, for the `--arch` given, with line information under
/// `-g`; the cubin names the kernel and cuobjdump reads it for that architecture. Without
/// a ptxas: exit 2, where tilec looked, and an existing output file left as it was.
#[test]
fn emit_cubin_assembles_with_ptxas() {
    let tilec = env!("CARGO_BIN_EXE_tilec");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("emit-cubin");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("matmul.cubin");
    std::fs::write(&out, b"old").unwrap();
    let run = |ptxas: Option<&Path>, arch: &str, extra: &[&str]| {
        let mut cmd = Command::new(tilec);
        cmd.args(["examples/matmul.tile", "--emit=cubin", "--arch", arch, "-o"])
            .arg(&out)
            .args(extra)
            .current_dir(repo())
            .env_remove("CUDA_HOME");
        match ptxas {
            Some(p) => cmd.env("TILEC_PTXAS", p),
            None => cmd.env("TILEC_PTXAS", "/nonexistent/ptxas").env("PATH", ""),
        };
        cmd.output().unwrap()
    };
    let r = run(None, "sm_90a", &[]);
    assert_eq!(r.status.code(), Some(2), "{}", text(&r.stderr));
    let err = text(&r.stderr);
    assert!(
        err.starts_with("error: ptxas not found (looked in: /nonexistent/ptxas, "),
        "{err}"
    );
    assert_eq!(std::fs::read(&out).unwrap(), b"old");
    let Some(ptxas) = ptxas() else {
        return skipped("--emit=cubin", "ptxas not found (TILEC_PTXAS)");
    };
    for (arch, extra) in [("sm_80", &[][..]), ("sm_90a", &["-g"][..])] {
        let r = run(Some(&ptxas), arch, extra);
        assert!(r.status.success(), "{arch}: {}", text(&r.stderr));
        let cubin = std::fs::read(&out).unwrap();
        assert_eq!(&cubin[..4], b"\x7fELF", "{arch}");
        assert!(cubin.windows(6).any(|w| w == b"matmul"), "{arch}");
        let Some(cuobjdump) = std::env::var_os("TILEC_CUOBJDUMP") else {
            continue;
        };
        let listed = Command::new(cuobjdump)
            .arg("-lelf")
            .arg(&out)
            .output()
            .unwrap();
        assert!(
            text(&listed.stdout).contains(&format!("{arch}.cubin")),
            "{arch}: {}",
            text(&listed.stdout)
        );
    }
}

/// `--emit=cubin` declares shared memory statically (a cubin has no place for PTX's
/// `// tilec.dynamic_smem` line, and its static size is what a launcher can read): for
/// sm_90a above 48 KiB (matmul_wide's copy-engine stages, as many as fit the target),
/// which `cuobjdump -res-usage` reports; for sm_90 at most 48 KiB (`-res-usage` counts
/// the 1 KiB the system reserves too).
#[test]
fn emit_cubin_declares_shared_memory_statically() {
    let Some(ptxas) = ptxas() else {
        return skipped(
            "--emit=cubin shared memory",
            "ptxas not found (TILEC_PTXAS)",
        );
    };
    let Some(cuobjdump) = std::env::var_os("TILEC_CUOBJDUMP") else {
        return skipped(
            "--emit=cubin shared memory",
            "cuobjdump not found (TILEC_CUOBJDUMP)",
        );
    };
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("emit-cubin-smem");
    std::fs::create_dir_all(&dir).unwrap();
    let shared = |arch: &str| -> u64 {
        let out = dir.join(format!("wide-{arch}.cubin"));
        let r = Command::new(env!("CARGO_BIN_EXE_tilec"))
            .args([
                "examples/matmul_wide.tile",
                "--emit=cubin",
                "--arch",
                arch,
                "-o",
            ])
            .arg(&out)
            .env("TILEC_PTXAS", &ptxas)
            .current_dir(repo())
            .output()
            .unwrap();
        assert!(r.status.success(), "{arch}: {}", text(&r.stderr));
        let usage = Command::new(&cuobjdump)
            .arg("-res-usage")
            .arg(&out)
            .output()
            .unwrap();
        let t = text(&usage.stdout);
        t.split("SHARED:")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{arch}: {t}"))
    };
    let wide = shared("sm_90a");
    assert!(wide > 49 * 1024, "sm_90a: {wide} bytes");
    let plain = shared("sm_90");
    assert!(plain <= 49 * 1024, "sm_90: {plain} bytes");
}

/// `TILEC_TILEIRAS_FLAGS` passes tilec's own backend options through cuTile's command
/// line: `--warp-specialize` splits matmul_bf16's K loop (a producer warp beside the MMA
/// warpgroup: 160 threads, which the remarks report), `--num-stages=2` shortens its
/// pipeline, `--num-ctas=2` spreads its tile blocks over clusters; an unknown flag or a
/// bad value is refused before anything is written.
#[test]
fn tileiras_flags_from_the_environment() {
    let Some(ptxas) = ptxas() else {
        return skipped("TILEC_TILEIRAS_FLAGS", "ptxas not found (TILEC_PTXAS)");
    };
    let dir = shim("tileiras-flags");
    let run = |flags: &str, name: &str| {
        let cubin = dir.join(format!("{name}.cubin"));
        let remarks = dir.join(format!("{name}.yaml"));
        let mut cmd = Command::new(dir.join("tileiras"));
        cmd.args(["tests/corpus/cutile/matmul_bf16.tileirbc", "-o"])
            .arg(&cubin)
            .args([
                "--gpu-name",
                "sm_90",
                "--remark-format=yaml",
                "--remarks=all",
            ])
            .arg(format!("--remarks-output-file={}", remarks.display()))
            .current_dir(repo())
            .env_remove("CUDA_HOME")
            .env("TILEC_PTXAS", &ptxas)
            .env("TILEC_TILEIRAS_FLAGS", flags);
        let out = cmd.output().unwrap();
        (
            out,
            cubin,
            std::fs::read_to_string(&remarks).unwrap_or_default(),
        )
    };
    let (out, cubin, yaml) = run("", "plain");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        yaml.contains("with 4 warps (128 threads per tile block)"),
        "{yaml}"
    );
    assert!(std::fs::read(&cubin).unwrap().starts_with(b"\x7fELF"));
    let (out, _, yaml) = run("--warp-specialize --num-stages=2", "ws");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        yaml.contains("(160 threads per tile block), 2 pipeline stages"),
        "{yaml}"
    );
    // Every tile block over a cluster of 2 CTAs (as a num_cta_in_cga hint asks).
    let (out, cubin, yaml) = run("--num-ctas=2", "cluster");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        yaml.contains("'the tile block is spread over a cluster of 2 CTAs'"),
        "{yaml}"
    );
    assert!(std::fs::read(&cubin).unwrap().starts_with(b"\x7fELF"));
    let (out, cubin, _) = run("--num-ctas=3", "bad-ctas");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr)
            .starts_with("error: TILEC_TILEIRAS_FLAGS: --num-ctas takes 2, 4, 8 or 16 (got '3')"),
        "{}",
        text(&out.stderr)
    );
    assert!(!cubin.exists());
    let (out, cubin, _) = run("--fast", "bad");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).starts_with("error: TILEC_TILEIRAS_FLAGS: unknown flag '--fast'"),
        "{}",
        text(&out.stderr)
    );
    assert!(!cubin.exists());
}

/// cuTile Python compiles every corpus kernel (scripts/cutile_corpus) to cubins for
/// sm_80, sm_90 and sm_100 with tilec as its compiler, offline; its probe finds 13.3; and
/// a kernel tilec refuses reaches cuTile's exception with the kernel's file and line.
#[test]
fn cutile_compiles_the_corpus_through_tilec() {
    let Some(python) = std::env::var_os("TILEC_PYTHON") else {
        return skipped(
            "cuTile through tilec",
            "TILEC_PYTHON not set (a Python with cuda-tile)",
        );
    };
    let has = Command::new(&python)
        .args(["-c", "import cuda.tile"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has {
        return skipped(
            "cuTile through tilec",
            "TILEC_PYTHON cannot import cuda.tile",
        );
    }
    let Some(ptxas) = ptxas() else {
        return skipped("cuTile through tilec", "ptxas not found (TILEC_PTXAS)");
    };
    let dir = shim("tileiras-cutile");
    // cuTile passes its own PATH to the compiler: ptxas beside the shim is found.
    std::os::unix::fs::symlink(&ptxas, dir.join("ptxas")).unwrap();
    // The corpus kernels tilec's PTX backend does not lower yet: the one list, kept in
    // tests/src/lib.rs (tilec_tests::PTX_REFUSED_CORPUS), read from there.
    // (Empty once every corpus kernel lowers; `None` only when the list is not found.)
    let refused = ptx_refused_corpus().expect("PTX_REFUSED_CORPUS not found");
    let expect: Vec<String> = refused
        .iter()
        .flat_map(|(k, what)| {
            [
                "--expect-refused".to_string(),
                format!("{k}=tilec's PTX backend does not lower {what} yet"),
            ]
        })
        .collect();
    let out = Command::new(&python)
        .arg(repo().join("scripts/cutile_tilec/export_cubins.py"))
        .arg(&dir)
        .arg("--hide-pip-tileiras")
        .args(&expect)
        .env_remove("TILEC_PTXAS")
        .env("TMPDIR", env!("CARGO_TARGET_TMPDIR"))
        .current_dir(repo())
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    let summary = stdout.lines().last().unwrap_or("");
    println!("{summary}");
    assert!(out.status.success(), "{}\n{}", stdout, text(&out.stderr));
    assert!(
        summary.contains("\"failed\": 0") && summary.contains("\"bytecode_version\": \"V_13_3\""),
        "{summary}"
    );
    let ok: usize = stdout
        .lines()
        .filter(|l| l.contains("\"ok\": true"))
        .count();
    assert!(ok >= 90, "only {ok} cubins");
    // With cuobjdump, every cubin's kernels are the bytecode's and none spills.
    if summary.contains("\"symbols_checked\": \"SKIPPED\"") {
        skipped(
            "kernel symbols and spills of cuTile's cubins",
            "cuobjdump not found (pip install nvidia-cuda-cuobjdump)",
        );
    } else {
        let checked: usize = summary
            .split("\"symbols_checked\": ")
            .nth(1)
            .and_then(|r| r.split([',', '}']).next())
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or(0);
        assert_eq!(checked, ok, "{summary}");
        assert!(
            stdout
                .lines()
                .filter(|l| l.contains("\"ok\": true"))
                .all(|l| l.contains("\"local_bytes\": 0") && l.contains("\"symbols\": [\"")),
            "{stdout}"
        );
    }
    // The expected refusals, shown; each listed kernel is refused on some architecture.
    let expected: Vec<&str> = stdout
        .lines()
        .filter(|l| {
            l.contains("\"refused_as_expected\": true")
                || l.contains("\"arch_unsupported_as_expected\": true")
        })
        .collect();
    println!("{} expected refusals:", expected.len());
    for l in &expected {
        println!(
            "  EXPECTED REFUSAL: {}",
            l.chars().take(240).collect::<String>()
        );
    }
    for (k, _) in &refused {
        assert!(
            expected
                .iter()
                .any(|l| l.starts_with(&format!("{{\"kernel\": \"{k}\""))
                    && l.contains("\"refused_as_expected\": true")),
            "{k}: not refused by tilec's PTX backend through cuTile"
        );
    }
    let rejected = stdout
        .lines()
        .find(|l| l.starts_with("{\"rejected\""))
        .unwrap();
    assert!(
        rejected.contains("\"error\": \"CompilerExecutionError\""),
        "{rejected}"
    );
    assert!(
        rejected.contains("more than the 256 KiB of registers"),
        "{rejected}"
    );
    assert!(
        rejected.contains("\"file\": \"export_cubins.py\""),
        "{rejected}"
    );
    let line = |key: &str| {
        rejected
            .split(&format!("\"{key}\": "))
            .nth(1)
            .and_then(|r| r.split([',', '}']).next())
            .map(str::to_string)
    };
    assert_eq!(line("line"), line("expected_line"), "{rejected}");
}

/// `tilec_tests::PTX_REFUSED_CORPUS` (tests/src/lib.rs): (kernel, what E0901 names).
fn ptx_refused_corpus() -> Option<Vec<(String, String)>> {
    let src = std::fs::read_to_string(repo().join("tests/src/lib.rs")).unwrap();
    let start = src.find("pub const PTX_REFUSED_CORPUS")?;
    if src[start..].lines().next()?.trim_end().ends_with("= &[];") {
        return Some(Vec::new());
    }
    let list = src[start..]
        .lines()
        .skip(1)
        .take_while(|l| l.trim() != "];")
        .filter_map(|l| {
            let l = l.trim().strip_prefix("(\"")?.strip_suffix("\"),")?;
            let (k, what) = l.split_once("\", \"")?;
            Some((k.to_string(), what.to_string()))
        })
        .collect();
    Some(list)
}

/// Every corpus bytecode file through tilec as `tileiras --gpu-name sm_90` (warpgroup
/// MMA, the copy engine, static shared memory only: cuTile's launcher passes no dynamic
/// size, but opts every kernel in to the device's limit, so sm_90a code declares up to
/// 227 KiB statically, which ptxas takes for sm_90a alone) writes a cubin;
/// flash_attention's two pipelines once needed 1 KiB more than the 48 KiB that was the
/// limit (the mbarrier ring's alignment padding, outside the pipelines' budget).
#[test]
fn every_corpus_kernel_fits_the_static_shared_memory_at_sm_90() {
    let dir = shim("tileiras-corpus-shim");
    let Some(ptxas) = ptxas() else {
        return skipped("corpus cubins at sm_90", "ptxas not found (TILEC_PTXAS)");
    };
    let out_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tileiras-corpus-out");
    std::fs::create_dir_all(&out_dir).unwrap();
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo().join("tests/corpus/cutile"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "tileirbc"))
        .collect();
    files.sort();
    assert!(files.len() >= 40, "{} files", files.len());
    for f in &files {
        let stem = f.file_stem().unwrap().to_str().unwrap();
        let cubin = out_dir.join(format!("{stem}.cubin"));
        let r = tileiras(
            &dir,
            &[
                f.to_str().unwrap(),
                "-o",
                cubin.to_str().unwrap(),
                "--gpu-name",
                "sm_90",
            ],
            Some(&ptxas),
        );
        assert!(r.status.success(), "{stem}: {}", text(&r.stderr));
        assert_eq!(&std::fs::read(&cubin).unwrap()[..4], b"\x7fELF", "{stem}");
    }
}

/// `TILEC_TILEIRAS_KEEP=DIR`: every input is kept once, by the hash of its bytes; a
/// failed compile also leaves its command's target, exit code and stderr beside it (what
/// a GPU session brings back from cuTile's test suite for replay without a GPU).
#[test]
fn inputs_are_kept_for_replay_when_asked() {
    let dir = shim("tileiras-keep");
    let keep = dir.join("kept");
    let run = |input: &str, ptxas: Option<&Path>| {
        let mut cmd = Command::new(dir.join("tileiras"));
        cmd.args([input, "-o", "/dev/null", "--gpu-name", "sm_90"])
            .current_dir(repo())
            .env_remove("CUDA_HOME")
            .env("TILEC_TILEIRAS_KEEP", &keep);
        match ptxas {
            Some(p) => cmd.env("TILEC_PTXAS", p),
            None => cmd.env_remove("TILEC_PTXAS").env("PATH", ""),
        };
        cmd.output().unwrap()
    };
    let listing = || {
        let mut v: Vec<String> = std::fs::read_dir(&keep)
            .map(|rd| {
                rd.flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        v.sort();
        v
    };
    let input = "tests/corpus/cutile/vector_add.tileirbc";
    let bytes = std::fs::read(repo().join(input)).unwrap();
    // Without ptxas the compile fails (exit 2): input and error kept.
    let r = run(input, None);
    assert_eq!(r.status.code(), Some(2));
    let err = text(&r.stderr);
    assert!(err.starts_with("error: ptxas not found"), "{err}");
    let files = listing();
    assert_eq!(files.len(), 2, "{files:?}");
    let stem = files[0]
        .strip_suffix(".err")
        .expect("an .err first")
        .to_string();
    assert_eq!(files[1], format!("{stem}.tileirbc"));
    assert_eq!(std::fs::read(keep.join(&files[1])).unwrap(), bytes);
    let kept_err = std::fs::read_to_string(keep.join(&files[0])).unwrap();
    assert_eq!(kept_err, format!("gpu: sm_90\nexit: 2\n{err}"));
    // A kernel tilec rejects: its located diagnostic is kept (exit 1).
    let bad = dir.join("bad.tile");
    std::fs::write(
        &bad,
        "cuda_tile.module @m {\n  entry @k() {\n    %x = constant <i32: 1> : tile<2xi32>\n    %y = addf %x, %x : tile<2xi32>\n    return\n  }\n}\n",
    )
    .unwrap();
    let r = run(bad.to_str().unwrap(), None);
    assert_eq!(r.status.code(), Some(1), "{}", text(&r.stderr));
    assert_eq!(listing().len(), 4, "{:?}", listing());
    // With ptxas the same input compiles: kept once already, nothing added.
    let Some(p) = ptxas() else {
        return skipped("a kept input that compiles", "no ptxas");
    };
    std::fs::remove_file(keep.join(&files[0])).unwrap();
    let r = run(input, Some(&p));
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert_eq!(listing().len(), 3, "{:?}", listing());
}

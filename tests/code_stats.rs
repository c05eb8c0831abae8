//! Static code counts (`tilec_tests::codestats`): the PTX and SASS counters on known text,
//! and the counts of every example and cuTile corpus kernel's sm_90 PTX against the golden
//! table tests/snapshots/code-stats-sm_90.txt (`TILEC_BLESS=1` rewrites it), so that every
//! change in how tilec moves data (access widths, `cp.async`, `ldmatrix`, `mma`) shows in
//! review. With ptxas and cuobjdump installed, the SASS counter is checked against ptxas'
//! own report on the examples.

use std::path::PathBuf;
use tilec_tests::codestats::{PtxCounts, ptx_counts, sass_counts, sass_of_cubin};
use tilec_tests::{example_files, ptxas, repo_root, run_tilec, skipped};

const PTX: &str = r#"
.visible .entry k1(
	.param .u64 p
)
{
	ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];
	@%p1 ld.global.b16 %h1, [%rd2+2];
	@!%p2 st.global.v2.b32 [%rd3], {%r1, %r2};
	ld.acquire.gpu.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];
	ld.param.u64 %rd1, [p];
	cp.async.ca.shared.global [%r37+1024], [%rd24], 8, %r39;
	cp.async.cg.shared.global [%r37], [%rd24], 16, %r39;
	ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2, %r3, %r4}, [%r5];
	ld.shared.b32 %r1, [%r2+4];
	st.shared.v4.b32 [%r2], {%r1, %r1, %r1, %r1};
	mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f1, %f2, %f3, %f4};
	atom.global.add.u32 %r1, [%rd1], 1;
	// ld.global.v4.f32 in a comment
L1:
	ret;
}
.visible .entry k2()
{
	st.global.u8 [%rd1], %r1;
}
"#;

#[test]
fn ptx_counter_counts_known_text() {
    let k = ptx_counts(PTX);
    assert_eq!(k.len(), 2);
    assert_eq!(k[0].name, "k1");
    // Two v4.f32 loads and a 16-byte cp.async are 128 bits; a b16 load; a v2.b32 store and
    // an 8-byte cp.async are 64 bits.
    assert_eq!(k[0].widths(), "16:1 64:2 128:3");
    assert_eq!(k[0].cp_async, 2);
    assert_eq!(k[0].ldmatrix, 1);
    assert_eq!(k[0].ld_shared, 1);
    assert_eq!(k[0].st_shared, 1);
    assert_eq!(k[0].mma, 1);
    assert_eq!(k[0].atomics, 1);
    assert_eq!(k[0].global_bytes(), 2 + 2 * 8 + 3 * 16);
    assert_eq!(k[0].share_128(), Some(48.0 / 66.0));
    assert_eq!(
        k[1],
        PtxCounts {
            name: "k2".into(),
            global: [(8, 1)].into_iter().collect(),
            ..PtxCounts::default()
        }
    );
    assert_eq!(ptx_counts("").len(), 0);
}

const SASS: &str = r#"
	code for sm_90
		Function : kern
	.headerflags	@"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                                    /* 0x00000a00ff017b82 */
                                                                                             /* 0x000fe20000000800 */
        /*0010*/                   LDG.E.128 R4, desc[UR4][R2.64] ;
        /*0020*/              @!P0 LDGSTS.E.64.ZFILL [R7], desc[UR12][R12.64], P3 ;
        /*0030*/                   STG.E.U16 desc[UR4][R2.64], R5 ;
        /*0040*/                   LDSM.16.M88.4 R8, [R9] ;
        /*0050*/                   HMMA.16816.F32.BF16 R12, R8, R4, R12 ;
        /*0060*/                   NOP ;
        /*0070*/                   LDG.E R4, desc[UR4][R2.64] ;
        /*0080*/                   EXIT ;
"#;

const RES: &str = "
Resource usage:
 Common:
  GLOBAL:0
 Function kern:
  REG:96 STACK:0 SHARED:33792 LOCAL:8 CONSTANT[0]:600 TEXTURE:0 SURFACE:0 SAMPLER:0
";

#[test]
fn sass_counter_counts_known_text() {
    let k = sass_counts(SASS, RES);
    assert_eq!(k.len(), 1);
    let k = &k[0];
    assert_eq!(k.name, "kern");
    assert_eq!(
        k.global,
        [(16, 1), (32, 1), (64, 1), (128, 1)].into_iter().collect()
    );
    assert_eq!((k.ldgsts, k.ldsm, k.mma, k.tma), (1, 1, 1, 0));
    assert_eq!(k.instructions, 8);
    assert_eq!((k.registers, k.local, k.shared), (96, 8, 33792));
    assert_eq!(k.share_128(), Some(16.0 / 30.0));
}

/// The inputs of the table: every example and every corpus kernel (as text).
fn inputs() -> Vec<PathBuf> {
    let mut v = example_files();
    let corpus = repo_root().join("tests/corpus/cutile");
    let mut c: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    c.retain(|p| p.extension().is_some_and(|x| x == "mlir"));
    c.sort();
    v.extend(c);
    v
}

fn ptx_of(path: &std::path::Path) -> String {
    let out = run_tilec(&[path.to_str().unwrap(), "-o", "-", "--arch", "sm_90"], "");
    assert_eq!(out.status, 0, "{}: {}", path.display(), out.stderr);
    out.stdout
}

/// One line per kernel: `file kernel | global widths | share128 | cp.async | ldmatrix |
/// ld/st.shared | mma | atomics`.
fn table() -> String {
    let mut s = String::from(
        "# file | kernel | global accesses by bits:count | 128-bit share of global bytes | cp.async | ldmatrix | ld.shared | st.shared | mma | atomics\n",
    );
    for path in inputs() {
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        for k in ptx_counts(&ptx_of(&path)) {
            let share = k
                .share_128()
                .map_or("-".to_string(), |x| format!("{:.0}%", 100.0 * x));
            s.push_str(&format!(
                "{file} | {} | {} | {share} | {} | {} | {} | {} | {} | {}\n",
                k.name,
                k.widths(),
                k.cp_async,
                k.ldmatrix,
                k.ld_shared,
                k.st_shared,
                k.mma,
                k.atomics
            ));
        }
    }
    s
}

#[test]
fn code_counts_match_the_golden_table() {
    let text = table();
    let golden = repo_root().join("tests/snapshots/code-stats-sm_90.txt");
    if std::env::var_os("TILEC_BLESS").is_some() {
        std::fs::write(&golden, &text).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&golden).unwrap_or_default();
    if want != text {
        let diff: Vec<String> = want
            .lines()
            .zip(text.lines())
            .filter(|(a, b)| a != b)
            .map(|(a, b)| format!("- {a}\n+ {b}"))
            .collect();
        panic!(
            "the static code counts differ from {} (TILEC_BLESS=1 to accept; {} vs {} lines):\n{}",
            golden.display(),
            want.lines().count(),
            text.lines().count(),
            diff.join("\n")
        );
    }
}

/// The SASS counter against ptxas' own report: the same registers, and every PTX vector
/// access of 128 bits is a 128-bit SASS instruction or more (ptxas never narrows them).
#[test]
fn sass_counts_agree_with_ptxas() {
    let Some(ptxas) = ptxas::find() else {
        skipped("SASS counts", "ptxas not found");
        return;
    };
    let Some(cuobjdump) = ptxas::find_tool("TILEC_CUOBJDUMP", "cuobjdump") else {
        skipped(
            "SASS counts",
            "cuobjdump not found (pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm)",
        );
        return;
    };
    let dir = std::env::temp_dir().join(format!("tilec-code-stats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut checked = 0;
    for path in example_files() {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let ptx_text = ptx_of(&path);
        let ptx = dir.join(format!("{name}.ptx"));
        let cubin = dir.join(format!("{name}.cubin"));
        std::fs::write(&ptx, &ptx_text).unwrap();
        let report = ptxas::assemble(&ptxas, &ptx, "sm_90");
        assert!(report.ok, "{name}: {:?}", report.problems);
        let st = std::process::Command::new(&ptxas)
            .args(["-arch=sm_90", "-o"])
            .arg(&cubin)
            .arg(&ptx)
            .status()
            .unwrap();
        assert!(st.success());
        let sass = match sass_of_cubin(&cuobjdump, &cubin) {
            Ok(s) => s,
            Err(e) if e.contains("nvdisasm") => {
                skipped("SASS counts", &e);
                return;
            }
            Err(e) => panic!("{e}"),
        };
        let ptx_k = ptx_counts(&ptx_text);
        assert_eq!(sass.len(), ptx_k.len(), "{name}");
        for p in &ptx_k {
            let s = sass.iter().find(|s| s.name == p.name).unwrap();
            let r = report.kernels.iter().find(|k| k.name == p.name).unwrap();
            assert_eq!(s.registers, r.registers, "{name} {}", p.name);
            assert!(s.instructions > 0);
            let wide_ptx = p.global.get(&128).copied().unwrap_or(0);
            let wide_sass = s.global.get(&128).copied().unwrap_or(0);
            assert!(
                wide_sass >= wide_ptx,
                "{name} {}: {wide_ptx} 128-bit PTX accesses, {wide_sass} in SASS",
                p.name
            );
            assert_eq!(s.mma > 0, p.mma > 0, "{name} {}", p.name);
            checked += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(checked > 10, "{checked}");
}

/// `--split-compile` (which tilec passes ptxas when it has CPUs to spare: tilec's
/// `ptxas::split_compile`) changes how long ptxas takes, not what it writes: for every
/// corpus module of two or more kernels, the sm_90 SASS is the same with and without it.
#[test]
fn split_compile_writes_the_same_sass() {
    let Some(ptxas) = ptxas::find() else {
        skipped("--split-compile", "ptxas not found");
        return;
    };
    let Some(cuobjdump) = ptxas::find_tool("TILEC_CUOBJDUMP", "cuobjdump") else {
        skipped(
            "--split-compile",
            "cuobjdump not found (pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm)",
        );
        return;
    };
    let dir = std::env::temp_dir().join(format!("tilec-split-compile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut checked = 0;
    for path in inputs() {
        let ptx_text = ptx_of(&path);
        if ptx_text.matches(".entry ").count() < 2 {
            continue;
        }
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let ptx = dir.join(format!("{name}.ptx"));
        std::fs::write(&ptx, &ptx_text).unwrap();
        let mut sass = Vec::new();
        for split in [false, true] {
            let cubin = dir.join(format!("{name}-{split}.cubin"));
            let mut cmd = tilec::ptxas::plain_command(&ptxas);
            if split {
                cmd.args(["--split-compile", "2"]);
            }
            let out = cmd
                .args(["-arch=sm_90", "-o"])
                .arg(&cubin)
                .arg(&ptx)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{name}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let text = std::process::Command::new(&cuobjdump)
                .arg("-sass")
                .arg(&cubin)
                .output()
                .unwrap();
            if !text.status.success() {
                skipped("--split-compile", &String::from_utf8_lossy(&text.stderr));
                return;
            }
            sass.push(String::from_utf8_lossy(&text.stdout).into_owned());
        }
        assert!(sass[0].contains("Function :"), "{name}: {}", sass[0]);
        assert_eq!(sass[0], sass[1], "{name}");
        checked += 1;
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(checked >= 8, "{checked}");
}

//! The PTX lowering of Tile IR 13.3's ops and element types (`pack`/`unpack`,
//! `f8E8M0FNU`, `f4E2M1FN`, `i4`, ...): every kernel here is compiled for sm_80, sm_90 and
//! sm_100, run on the PTX simulator (tests/src/ptxsim.rs) and compared with the
//! interpreter bit for bit on the same inputs, and assembled by ptxas (when installed)
//! with no error, warning or spill.

use tilec_ptx::Arch;
use tilec_tests::gpusweep::{self, Family, SweepCase, Verdict};
use tilec_tests::ptxas;
use tilec_tests::simgpu::SimGpu;

const ARCHS: [Arch; 3] = [Arch::Sm80, Arch::Sm90, Arch::Sm100];

/// Compiles `src` for every target, runs entry `@k` on the simulator with `args` and
/// compares every buffer with the interpreter, bit for bit; ptxas assembles the PTX.
/// Returns the PTX of each target.
fn check(label: &str, src: &str, grid: [u32; 3], args: &[&str]) -> Vec<String> {
    let case = SweepCase {
        family: Family::Example,
        label: label.to_string(),
        path: None,
        text: src.to_string(),
        entry: "k".to_string(),
        grid,
        args: args.iter().map(|a| a.to_string()).collect(),
        exact: true,
    };
    let mut out = Vec::new();
    for arch in ARCHS {
        let opts = tilec_ptx::Options {
            arch,
            ..tilec_ptx::Options::default()
        };
        match gpusweep::run_case(&mut SimGpu::default(), &case, &opts) {
            Verdict::Pass { exact: true, .. } => {}
            v => panic!("{label} on {}: {} {v:?}", arch.name(), v.word()),
        }
        let p = gpusweep::prepare(&case, &opts).expect("prepares");
        assemble(label, &p.ptx, arch);
        out.push(p.ptx);
    }
    out
}

fn assemble(label: &str, ptx: &str, arch: Arch) {
    let Some(tool) = ptxas::find() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("tilec-ptx13-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let name: String = label
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let file = dir.join(format!("{name}.{}.ptx", arch.name()));
    std::fs::write(&file, ptx).expect("writes");
    let r = ptxas::assemble(&tool, &file, arch.name());
    assert!(
        r.ok && r.problems.is_empty(),
        "{label} {}: ptxas rejected {}:\n{}",
        arch.name(),
        file.display(),
        r.problems.join("\n")
    );
    for k in &r.kernels {
        assert_eq!(
            k.spill_stores + k.spill_loads,
            0,
            "{label} {}: spills",
            arch.name()
        );
    }
}

/// A kernel that loads `n` elements of `ety` from `%src`, applies `body` (which reads
/// `%v` and defines `%r` of `n2` elements of `rty`), and stores `%r` to `%dst`.
fn kernel(n: usize, ety: &str, body: &str, n2: usize, rty: &str) -> String {
    format!(
        r#"cuda_tile.module @m {{
  entry @k(%src: !cuda_tile.tile<ptr<{ety}>>, %dst: !cuda_tile.tile<ptr<{rty}>>) {{
    %i = iota : tile<{n}xi32>
    %s1 = reshape %src : tile<ptr<{ety}>> -> tile<1xptr<{ety}>>
    %sb = broadcast %s1 : tile<1xptr<{ety}>> -> tile<{n}xptr<{ety}>>
    %sp = offset %sb, %i : tile<{n}xptr<{ety}>>, tile<{n}xi32> -> tile<{n}xptr<{ety}>>
    %v, %t0 = load_ptr_tko weak %sp : tile<{n}xptr<{ety}>> -> tile<{n}x{ety}>, token
{body}
    %j = iota : tile<{n2}xi32>
    %d1 = reshape %dst : tile<ptr<{rty}>> -> tile<1xptr<{rty}>>
    %db = broadcast %d1 : tile<1xptr<{rty}>> -> tile<{n2}xptr<{rty}>>
    %dp = offset %db, %j : tile<{n2}xptr<{rty}>>, tile<{n2}xi32> -> tile<{n2}xptr<{rty}>>
    %t1 = store_ptr_tko weak %dp, %r : tile<{n2}xptr<{rty}>>, tile<{n2}x{rty}> -> token
    return
  }}
}}
"#
    )
}

/// `pack` of every 13.1 element type into bytes and `unpack` back, on tiles smaller and
/// larger than a CTA (so that the pieces of an element sit in lanes, warps and
/// registers), with the bytes stored so every bit is compared.
#[test]
fn pack_and_unpack_of_wide_types() {
    for (ty, bits) in [
        ("i16", 16),
        ("i32", 32),
        ("i64", 64),
        ("f16", 16),
        ("bf16", 16),
        ("f32", 32),
        ("f64", 64),
    ] {
        for n in [2usize, 16, 64, 512] {
            let bytes = n * bits / 8;
            let pack = format!("    %r = pack %v : tile<{n}x{ty}> -> tile<{bytes}xi8>");
            let src = kernel(n, ty, &pack, bytes, "i8");
            check(
                &format!("pack {n}x{ty}"),
                &src,
                [1, 1, 1],
                &[
                    &format!("random:{ty}:{n}:{n}"),
                    &format!("zeros:i8:{bytes}"),
                ],
            );
            let unpack = format!("    %r = unpack %v : tile<{bytes}xi8> -> tile<{n}x{ty}>");
            let src = kernel(bytes, "i8", &unpack, n, ty);
            check(
                &format!("unpack {n}x{ty}"),
                &src,
                [1, 1, 1],
                &[
                    &format!("random:i8:{bytes}:{n}"),
                    &format!("zeros:{ty}:{n}"),
                ],
            );
        }
    }
}

/// `i1` packs eight to a byte, bit 0 first; `tf32` as the 32 bits of its f32 pattern (and
/// back, keeping the 19 bits a tf32 holds).
#[test]
fn pack_and_unpack_of_i1_and_tf32() {
    for n in [8usize, 64, 1024] {
        let b = n / 8;
        let body = format!(
            "    %p = pack %v : tile<{n}xi1> -> tile<{b}xi8>\n    %u = unpack %p : tile<{b}xi8> -> tile<{n}xi1>\n    %q = pack %u : tile<{n}xi1> -> tile<{b}xi8>\n    %r = addi %p, %q : tile<{b}xi8>"
        );
        check(
            &format!("pack {n}xi1"),
            &kernel(n, "i1", &body, b, "i8"),
            [1, 1, 1],
            &[&format!("random:i1:{n}:3"), &format!("zeros:i8:{b}")],
        );
        let body = format!("    %r = unpack %v : tile<{b}xi8> -> tile<{n}xi1>");
        check(
            &format!("unpack {n}xi1"),
            &kernel(b, "i8", &body, n, "i1"),
            [1, 1, 1],
            &[&format!("random:i8:{b}:4"), &format!("zeros:i1:{n}")],
        );
    }
    for n in [4usize, 256] {
        let b = n * 4;
        let body = format!(
            "    %p = pack %v : tile<{n}xtf32> -> tile<{b}xi8>\n    %r = unpack %p : tile<{b}xi8> -> tile<{n}xtf32>"
        );
        check(
            &format!("tf32 {n}"),
            &kernel(n, "tf32", &body, n, "tf32"),
            [1, 1, 1],
            &[&format!("random:tf32:{n}:5"), &format!("zeros:tf32:{n}")],
        );
        let body = format!("    %r = unpack %v : tile<{b}xi8> -> tile<{n}xtf32>");
        check(
            &format!("unpack tf32 {n}"),
            &kernel(b, "i8", &body, n, "tf32"),
            [1, 1, 1],
            &[&format!("random:i8:{b}:6"), &format!("zeros:tf32:{n}")],
        );
    }
}

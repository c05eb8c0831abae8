//! The PTX lowering of Tile IR 13.3's ops and element types (`pack`/`unpack`,
//! `f8E8M0FNU`, `f4E2M1FN`, `i4`, ...): every kernel here is compiled for sm_80, sm_90 and
//! sm_100, run on the PTX simulator (crates/tilec-ptxsim) and compared with the
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

/// A kernel `@k(%a0, %a1, ..., %dst)` that loads `n` elements of each input type into
/// `%v0`, `%v1`, ..., runs `body` (which defines `%r`, `n2` elements of `rty`) and stores
/// `%r` to `%dst`.
fn kernel_n(inputs: &[(&str, usize)], body: &str, n2: usize, rty: &str) -> String {
    let mut params = Vec::new();
    let mut loads = String::new();
    for (i, (ety, n)) in inputs.iter().enumerate() {
        params.push(format!("%a{i}: !cuda_tile.tile<ptr<{ety}>>"));
        loads.push_str(&format!(
            r#"    %i{i} = iota : tile<{n}xi32>
    %s{i} = reshape %a{i} : tile<ptr<{ety}>> -> tile<1xptr<{ety}>>
    %b{i} = broadcast %s{i} : tile<1xptr<{ety}>> -> tile<{n}xptr<{ety}>>
    %p{i} = offset %b{i}, %i{i} : tile<{n}xptr<{ety}>>, tile<{n}xi32> -> tile<{n}xptr<{ety}>>
    %v{i}, %t{i} = load_ptr_tko weak %p{i} : tile<{n}xptr<{ety}>> -> tile<{n}x{ety}>, token
"#
        ));
    }
    params.push(format!("%dst: !cuda_tile.tile<ptr<{rty}>>"));
    format!(
        r#"cuda_tile.module @m {{
  entry @k({}) {{
{loads}{body}
    %j = iota : tile<{n2}xi32>
    %d1 = reshape %dst : tile<ptr<{rty}>> -> tile<1xptr<{rty}>>
    %db = broadcast %d1 : tile<1xptr<{rty}>> -> tile<{n2}xptr<{rty}>>
    %dp = offset %db, %j : tile<{n2}xptr<{rty}>>, tile<{n2}xi32> -> tile<{n2}xptr<{rty}>>
    %tout = store_ptr_tko weak %dp, %r : tile<{n2}xptr<{rty}>>, tile<{n2}x{rty}> -> token
    return
  }}
}}
"#,
        params.join(", ")
    )
}

/// f32 bit patterns at the edges of the new formats: zeros, NaNs, infinities, f32's
/// largest values and 2^127 around its midpoints, subnormals around 2^-127 and its
/// midpoint, the ties of f4E2M1FN (0.25, 0.75, 1.25, ..., 7), negative values.
fn edge_f32() -> Vec<u32> {
    let mut v: Vec<u32> = vec![
        0,
        0x8000_0000,
        0x7FC0_0000,
        0x7F80_0001,
        0xFFC0_0000,
        0x7F80_0000,
        0xFF80_0000,
        0x7F7F_FFFF,
        0x7F00_0000,
        0x7F40_0000,
        0x7F3F_FFFF,
        0x7F40_0001,
        0x0000_0001,
        0x003F_FFFF,
        0x0040_0000,
        0x0040_0001,
        0x005F_FFFF,
        0x0060_0000,
        0x0060_0001,
        0x007F_FFFF,
        0x0080_0000,
        0x00C0_0000,
        0x3F80_0000,
        0x3FC0_0000,
        0x3FC0_0001,
        0x3FBF_FFFF,
        0x4040_0000,
        0x0080_0001,
        0x80C0_0000,
        0xBF80_0000,
        0x8000_0001,
    ];
    for x in [
        0.25f32, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0, 7.0, 6.5, 5.5, 0.5, 8.0, 1e30, 0.2499, 0.2501,
        0.7499, 0.7501, 6.0, 6.0001, 12.0, 1e-30, 3.0, 4.0, 2.0, 1.0,
    ] {
        v.push(x.to_bits());
        v.push((-x).to_bits());
    }
    v.resize(128, 0x3F80_0000);
    v
}

/// Writes `bits` as an `i32` .npy file and returns the `--arg` naming it.
fn npy_i32(name: &str, bits: &[u32]) -> String {
    let a = tilec_interp::npy::Array {
        elem: tilec_ir::Type::I32,
        shape: vec![bits.len()],
        bits: bits.iter().map(|b| u64::from(*b)).collect(),
    };
    let dir = std::env::temp_dir().join(format!("tilec-ptx13-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("{name}.npy"));
    std::fs::write(&path, tilec_interp::npy::write(&a)).expect("writes");
    format!("@{}", path.display())
}

/// `ftof` from f32 and f64 to f8E8M0FNU and f4E2M1FN in every rounding mode the verifier
/// takes, on the edge values and on random bit patterns (every exponent, NaNs, negative
/// values), stored as bytes.
#[test]
fn conversions_to_the_new_floats() {
    let edges = npy_i32("edges", &edge_f32());
    for (ty, modes) in [
        ("f8E8M0FNU", &["zero", "positive_inf"][..]),
        ("f4E2M1FN", &["nearest_even"][..]),
    ] {
        for mode in modes {
            let store = |n: usize, src: &str| {
                if ty == "f4E2M1FN" {
                    (
                        format!(
                            "    %e = ftof {src} rounding<{mode}> : tile<{n}xf32> -> tile<{n}x{ty}>\n    %r = pack %e : tile<{n}x{ty}> -> tile<{}xi8>",
                            n / 2
                        ),
                        n / 2,
                    )
                } else {
                    (
                        format!(
                            "    %e = ftof {src} rounding<{mode}> : tile<{n}xf32> -> tile<{n}x{ty}>\n    %r = bitcast %e : tile<{n}x{ty}> -> tile<{n}xi8>"
                        ),
                        n,
                    )
                }
            };
            // The edge values, as f32 bit patterns.
            let (conv, nb) = store(128, "%f");
            let body = format!("    %f = bitcast %v0 : tile<128xi32> -> tile<128xf32>\n{conv}");
            check(
                &format!("{ty} {mode} edges"),
                &kernel_n(&[("i32", 128)], &body, nb, "i8"),
                [1, 1, 1],
                &[&edges, &format!("zeros:i8:{nb}")],
            );
            // Random f32 bit patterns.
            let (conv, nb) = store(256, "%f");
            let body = format!("    %f = unpack %v0 : tile<1024xi8> -> tile<256xf32>\n{conv}");
            check(
                &format!("{ty} {mode} random f32"),
                &kernel_n(&[("i8", 1024)], &body, nb, "i8"),
                [1, 1, 1],
                &[
                    &format!("random:i8:1024:{}", mode.len()),
                    &format!("zeros:i8:{nb}"),
                ],
            );
            // f64: random bit patterns, and values with long fractions.
            let f64conv = |n: usize| {
                let (c, nb) = store(n, "%f");
                (
                    c.replace(
                        &format!("ftof %f rounding<{mode}> : tile<{n}xf32>"),
                        &format!("ftof %f rounding<{mode}> : tile<{n}xf64>"),
                    ),
                    nb,
                )
            };
            let (conv, nb) = f64conv(128);
            let body = format!("    %f = unpack %v0 : tile<1024xi8> -> tile<128xf64>\n{conv}");
            check(
                &format!("{ty} {mode} random f64"),
                &kernel_n(&[("i8", 1024)], &body, nb, "i8"),
                [1, 1, 1],
                &[
                    &format!("random:i8:1024:{}", mode.len() + 7),
                    &format!("zeros:i8:{nb}"),
                ],
            );
            let body = format!(
                "    %g = mulf %v0, %v1 : tile<128xf64>\n{}",
                conv.replace("ftof %f", "ftof %g")
            );
            check(
                &format!("{ty} {mode} f64 fractions"),
                &kernel_n(&[("f64", 128), ("f64", 128)], &body, nb, "i8"),
                [1, 1, 1],
                &[
                    "random:f64:128:11",
                    &format!(
                        "fill:f64:128:{}",
                        if ty == "f4E2M1FN" { "6.0" } else { "1e30" }
                    ),
                    &format!("zeros:i8:{nb}"),
                ],
            );
            // itof from i32 and i64 (signed and unsigned), which rounds to nearest even.
            if *mode != modes[0] {
                continue;
            }
            for (ity, sign) in [
                ("i32", "signed"),
                ("i32", "unsigned"),
                ("i64", "signed"),
                ("i64", "unsigned"),
            ] {
                let n = 128;
                let (c, nb) = store(n, "%f");
                let conv = c.replace(
                    &format!("ftof %f rounding<{mode}> : tile<{n}xf32>"),
                    &format!("itof %f {sign} : tile<{n}x{ity}>"),
                );
                let bytes = if ity == "i32" { 512 } else { 1024 };
                let body =
                    format!("    %f = unpack %v0 : tile<{bytes}xi8> -> tile<{n}x{ity}>\n{conv}");
                check(
                    &format!("{ty} {mode} itof {sign} {ity}"),
                    &kernel_n(&[("i8", bytes)], &body, nb, "i8"),
                    [1, 1, 1],
                    &[&format!("random:i8:{bytes}:21"), &format!("zeros:i8:{nb}")],
                );
                let body = format!("    %f = addi %v0, %v0 : tile<{n}x{ity}>\n{conv}");
                check(
                    &format!("{ty} {mode} itof {sign} small {ity}"),
                    &kernel_n(&[(ity, n)], &body, nb, "i8"),
                    [1, 1, 1],
                    &[&format!("random:{ity}:{n}:22"), &format!("zeros:i8:{nb}")],
                );
                // Every integer below 1024 (the ties 3 * 2^k of f8E8M0FNU, 5, 7, ... of
                // f4E2M1FN), negated too.
                for neg in ["", "\n    %f = negi %f0 : tile<1024xITY>"] {
                    let (c, nb) = store(1024, "%f");
                    let conv = c
                        .replace(
                            "ftof %f rounding<nearest_even> : tile<1024xf32>",
                            &format!("itof %f {sign} : tile<1024x{ity}>"),
                        )
                        .replace(
                            "ftof %f rounding<zero> : tile<1024xf32>",
                            &format!("itof %f {sign} : tile<1024x{ity}>"),
                        );
                    let def = if neg.is_empty() { "%f" } else { "%f0" };
                    let body = format!(
                        "    {def} = iota : tile<1024x{ity}>{}\n{conv}",
                        neg.replace("ITY", ity)
                    );
                    check(
                        &format!("{ty} itof {sign} iota {ity} {neg}"),
                        &kernel_n(&[(ity, 4)], &body, nb, "i8"),
                        [1, 1, 1],
                        &[&format!("zeros:{ity}:4"), &format!("zeros:i8:{nb}")],
                    );
                }
            }
        }
    }
}

/// `ftof` from the new floats to every float type, and `ftoi` to integers, on every
/// pattern (256 bytes of f8E8M0FNU; every nibble of f4E2M1FN).
#[test]
fn conversions_from_the_new_floats() {
    for to in [
        "f32", "f64", "f16", "bf16", "f8E4M3FN", "f8E5M2", "tf32", "f4E2M1FN",
    ] {
        let body = format!(
            "    %e = bitcast %v0 : tile<256xi8> -> tile<256xf8E8M0FNU>\n    %r = ftof %e : tile<256xf8E8M0FNU> -> tile<256x{to}>"
        );
        let body = if to == "f4E2M1FN" {
            body.replace("%r = ftof", "%q = ftof")
                + "\n    %r = pack %q : tile<256xf4E2M1FN> -> tile<128xi8>"
        } else {
            body
        };
        let (n, rty) = if to == "f4E2M1FN" {
            (128, "i8")
        } else {
            (256, to)
        };
        check(
            &format!("f8E8M0FNU to {to}"),
            &kernel_n(&[("i8", 256)], &body, n, rty),
            [1, 1, 1],
            &["iota:i8:256", &format!("zeros:{rty}:{n}")],
        );
        if to == "f4E2M1FN" {
            continue;
        }
        let body = format!(
            "    %e = unpack %v0 : tile<128xi8> -> tile<256xf4E2M1FN>\n    %r = ftof %e : tile<256xf4E2M1FN> -> tile<256x{to}>"
        );
        check(
            &format!("f4E2M1FN to {to}"),
            &kernel_n(&[("i8", 128)], &body, 256, to),
            [1, 1, 1],
            &["iota:i8:128", &format!("zeros:{to}:256")],
        );
    }
    for ity in ["i8", "i32", "i64"] {
        for sign in ["signed", "unsigned"] {
            let body = format!(
                "    %e = bitcast %v0 : tile<256xi8> -> tile<256xf8E8M0FNU>\n    %r = ftoi %e {sign} : tile<256xf8E8M0FNU> -> tile<256x{ity}>"
            );
            check(
                &format!("f8E8M0FNU ftoi {sign} {ity}"),
                &kernel_n(&[("i8", 256)], &body, 256, ity),
                [1, 1, 1],
                &["iota:i8:256", &format!("zeros:{ity}:256")],
            );
            let body = format!(
                "    %e = unpack %v0 : tile<128xi8> -> tile<256xf4E2M1FN>\n    %r = ftoi %e {sign} : tile<256xf4E2M1FN> -> tile<256x{ity}>"
            );
            check(
                &format!("f4E2M1FN ftoi {sign} {ity}"),
                &kernel_n(&[("i8", 128)], &body, 256, ity),
                [1, 1, 1],
                &["iota:i8:128", &format!("zeros:{ity}:256")],
            );
        }
    }
}

/// i4: `unpack` from bytes, `exti` (both signednesses), `trunci`, `pack`; and the 4-bit
/// types moved between threads (a transpose through shared memory) and between layouts.
#[test]
fn i4_and_data_movement_of_the_new_types() {
    for sign in ["signed", "unsigned"] {
        let body = format!(
            "    %e = unpack %v0 : tile<128xi8> -> tile<256xi4>\n    %r = exti %e {sign} : tile<256xi4> -> tile<256xi32>"
        );
        check(
            &format!("i4 exti {sign}"),
            &kernel_n(&[("i8", 128)], &body, 256, "i32"),
            [1, 1, 1],
            &["iota:i8:128", "zeros:i32:256"],
        );
    }
    let body = "    %e = trunci %v0 : tile<256xi32> -> tile<256xi4>\n    %r = pack %e : tile<256xi4> -> tile<128xi8>";
    check(
        "i4 trunci",
        &kernel_n(&[("i32", 256)], body, 128, "i8"),
        [1, 1, 1],
        &["random:i32:256:9", "zeros:i8:128"],
    );
    for (ty, n) in [
        ("i4", 64),
        ("f4E2M1FN", 64),
        ("i4", 4096),
        ("f4E2M1FN", 4096),
    ] {
        let half = n / 2;
        let side = (n as f64).sqrt() as usize;
        let (rows, cols) = if side * side == n {
            (side, side)
        } else {
            (side, side * 2)
        };
        let body = format!(
            "    %e = unpack %v0 : tile<{half}xi8> -> tile<{n}x{ty}>\n    %m = reshape %e : tile<{n}x{ty}> -> tile<{rows}x{cols}x{ty}>\n    %t = permute %m [1, 0] : tile<{rows}x{cols}x{ty}> -> tile<{cols}x{rows}x{ty}>\n    %f = reshape %t : tile<{cols}x{rows}x{ty}> -> tile<{n}x{ty}>\n    %r = pack %f : tile<{n}x{ty}> -> tile<{half}xi8>"
        );
        check(
            &format!("transpose {n}x{ty}"),
            &kernel_n(&[("i8", half)], &body, half, "i8"),
            [1, 1, 1],
            &[
                &format!("random:i8:{half}:{n}"),
                &format!("zeros:i8:{half}"),
            ],
        );
    }
    // f8E8M0FNU through memory (a byte), a constant and select.
    let body = "    %e = bitcast %v0 : tile<128xi8> -> tile<128xf8E8M0FNU>\n    %c = constant <f8E8M0FNU: 0.5> : tile<128xf8E8M0FNU>\n    %z = constant <i8: 0> : tile<128xi8>\n    %m = cmpi less_than %v0, %z, signed : tile<128xi8> -> tile<128xi1>\n    %s = select %m, %c, %e : tile<128xi1>, tile<128xf8E8M0FNU>\n    %r = bitcast %s : tile<128xf8E8M0FNU> -> tile<128xi8>";
    check(
        "f8E8M0FNU select",
        &kernel_n(&[("i8", 128)], body, 128, "i8"),
        [1, 1, 1],
        &["iota:i8:128", "zeros:i8:128"],
    );
}

/// `atomic_red_view_tko` of a `rows x cols` tile of `%src` into a `20x40` tensor at tile
/// `(bid.x, bid.y)` of `view` (a partition or strided view type over it): the grids
/// cover it partly, so edge tiles are masked, and strided views with a traversal smaller
/// than the tile make blocks reduce into the same elements.
fn red_kernel(ty: &str, mode: &str, rows: usize, cols: usize, view: &str) -> String {
    format!(
        r#"cuda_tile.module @m {{
  entry @k(%dst: tile<ptr<{ty}>>, %src: tile<ptr<{ty}>>) {{
    %c0 = constant <i32: 0> : tile<i32>
    %sv = make_tensor_view %src, shape = [{rows}, {cols}], strides = [{cols}, 1] : tensor_view<{rows}x{cols}x{ty}, strides=[{cols},1]>
    %sp = make_partition_view %sv : partition_view<tile=({rows}x{cols}), tensor_view<{rows}x{cols}x{ty}, strides=[{cols},1]>>
    %v, %t0 = load_view_tko weak %sp[%c0, %c0] : partition_view<tile=({rows}x{cols}), tensor_view<{rows}x{cols}x{ty}, strides=[{cols},1]>>, tile<i32> -> tile<{rows}x{cols}x{ty}>, token
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %dv = make_tensor_view %dst, shape = [20, 40], strides = [40, 1] : tensor_view<20x40x{ty}, strides=[40,1]>
    %dp = {view} %dv : {view_ty}
    %t1 = atomic_red_view_tko relaxed device %dp[%bx, %by], {mode}, %v : tile<{rows}x{cols}x{ty}>, {view_ty}, tile<i32> -> token
    return
  }}
}}
"#,
        view = if view.starts_with("strided") {
            "make_strided_view"
        } else {
            "make_partition_view"
        },
        view_ty = view.replace("$T", &format!("tensor_view<20x40x{ty}, strides=[40,1]>")),
    )
}

/// Every reduction mode on every element type it takes, on partial tiles (masked), on
/// tiles smaller than the CTA (replicated: each element is reduced once) and through
/// strided views whose tiles overlap (several blocks reduce into one element: integers
/// only, as the interpreter runs blocks in parallel and float sums depend on the order) or
/// leave gaps.
#[test]
fn atomic_red_view() {
    let modes: &[(&str, &[&str])] = &[
        (
            "i32",
            &["add", "and", "or", "xor", "max", "min", "umax", "umin"],
        ),
        ("i64", &["add", "max", "umin", "xor"]),
        ("f32", &["addf"]),
        ("f64", &["addf"]),
        ("f16", &["addf"]),
        ("bf16", &["addf"]),
    ];
    for (ty, ms) in modes {
        for mode in *ms {
            let overlap = if ty.starts_with('i') {
                "strided_view<tile=(8x16), traversal_strides=[4,8], $T>"
            } else {
                "strided_view<tile=(8x16), traversal_strides=[14,30], $T>"
            };
            for (rows, cols, view, grid) in [
                (16, 32, "partition_view<tile=(16x32), $T>", [2, 2, 1]),
                (2, 4, "partition_view<tile=(2x4), $T>", [10, 10, 1]),
                (8, 16, overlap, [5, 5, 1]),
            ] {
                let grid = if view == overlap && !ty.starts_with('i') {
                    [2, 2, 1]
                } else {
                    grid
                };
                let src = red_kernel(ty, mode, rows, cols, view);
                let generator = if ty.starts_with('i') {
                    "randint"
                } else {
                    "random"
                };
                check(
                    &format!("atomic_red_view {ty} {mode} {rows}x{cols} {view}"),
                    &src,
                    grid,
                    &[
                        &format!("{generator}:{ty}:800:3"),
                        &format!("{generator}:{ty}:{}:5", rows * cols),
                    ],
                );
            }
        }
    }
}

/// Loads through a strided view (padded, overlapping or gapped traversals, a dim map)
/// and stores through another (masked at the tensor's edges), per tile block, on a
/// tensor with a dynamic row stride: block `(x, y)` copies tile `(x, y)` of the source
/// view into tile `(x, y)` of the destination view (overlapping tiles store the same
/// values, so the order of the blocks does not matter).
#[test]
fn strided_view_loads_and_stores() {
    for (ty, tile, trav, dmap, pad, grid) in [
        (
            "f32",
            "8x16",
            "[4,8]",
            "",
            ", padding_value = nan",
            [5, 5, 1],
        ),
        (
            "f32",
            "4x4",
            "[6,11]",
            "",
            ", padding_value = neg_inf",
            [4, 4, 1],
        ),
        ("i32", "16x8", "[3,5]", ", dim_map=[1, 0]", "", [7, 4, 1]),
        (
            "f16",
            "2x32",
            "[5,2]",
            "",
            ", padding_value = zero",
            [4, 7, 1],
        ),
        ("i64", "4x8", "[4,8]", ", dim_map=[1, 0]", "", [10, 3, 1]),
    ] {
        let (r, c) = tile.split_once('x').unwrap();
        let (r, c): (usize, usize) = (r.parse().unwrap(), c.parse().unwrap());
        // With a dim map the tile's dimensions run along the tensor's swapped ones.
        let tv = format!("tensor_view<20x?x{ty}, strides=[?,1]>");
        let sv = format!("strided_view<tile=({tile}), traversal_strides={trav}{pad}, {tv}{dmap}>");
        let dv = format!("strided_view<tile=({tile}), traversal_strides={trav}, {tv}{dmap}>");
        let src = format!(
            r#"cuda_tile.module @m {{
  entry @k(%src: tile<ptr<{ty}>>, %dst: tile<ptr<{ty}>>, %n: tile<i32>) {{
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %a = make_tensor_view %src, shape = [20, %n], strides = [%n, 1] : tile<i32> -> {tv}
    %b = make_tensor_view %dst, shape = [20, %n], strides = [%n, 1] : tile<i32> -> {tv}
    %sa = make_strided_view %a : {sv}
    %sb = make_strided_view %b : {dv}
    %v, %t0 = load_view_tko weak %sa[%bx, %by] : {sv}, tile<i32> -> tile<{r}x{c}x{ty}>, token
    %t1 = store_view_tko weak %v, %sb[%bx, %by] : tile<{r}x{c}x{ty}>, {dv}, tile<i32> -> token
    return
  }}
}}
"#
        );
        let generator = if ty.starts_with('i') {
            "randint"
        } else {
            "random"
        };
        check(
            &format!("strided {ty} {tile} {trav}{dmap}{pad}"),
            &src,
            grid,
            &[
                &format!("{generator}:{ty}:800:3"),
                &format!("zeros:{ty}:800"),
                "i32:40",
            ],
        );
    }
}

/// Gathers through a `gather_scatter_view` and scatters the tile back through another:
/// the sparse dimension's indices `3 i - 4 + bid.x` (some negative, some past the end:
/// padded on the load, masked on the store), the dense dimensions' indices element
/// offsets (`bid.y`), on a tensor with a dynamic row stride.
#[test]
fn gather_scatter_view_loads_and_stores() {
    for (ty, tile, sd, pad, grid) in [
        (
            "f32",
            &[16usize, 32][..],
            0usize,
            ", padding_value = nan",
            [3, 5, 1],
        ),
        ("i32", &[8, 4][..], 1, "", [2, 3, 1]),
        (
            "f16",
            &[4, 64][..],
            0,
            ", padding_value = neg_inf",
            [2, 1, 1],
        ),
        ("i64", &[32, 2][..], 1, ", padding_value = zero", [3, 7, 1]),
    ] {
        let n = tile[sd];
        let ts = format!("{}x{}", tile[0], tile[1]);
        let tv = format!("tensor_view<20x?x{ty}, strides=[?,1]>");
        let gv = format!("gather_scatter_view<tile=({ts}){pad}, {tv}, sparse_dim={sd}>");
        let sv = format!("gather_scatter_view<tile=({ts}), {tv}, sparse_dim={sd}>");
        let (ix, it) = if sd == 0 {
            ("%rows, %by", format!("tile<{n}xi32>, tile<i32>"))
        } else {
            ("%by, %rows", format!("tile<i32>, tile<{n}xi32>"))
        };
        let src = format!(
            r#"cuda_tile.module @m {{
  entry @k(%src: tile<ptr<{ty}>>, %dst: tile<ptr<{ty}>>, %n: tile<i32>) {{
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %i = iota : tile<{n}xi32>
    %c3 = constant <i32: 3> : tile<{n}xi32>
    %c4 = constant <i32: 4> : tile<{n}xi32>
    %b1 = reshape %bx : tile<i32> -> tile<1xi32>
    %bb = broadcast %b1 : tile<1xi32> -> tile<{n}xi32>
    %i3 = muli %i, %c3 : tile<{n}xi32>
    %i4 = subi %i3, %c4 : tile<{n}xi32>
    %rows = addi %i4, %bb : tile<{n}xi32>
    %a = make_tensor_view %src, shape = [20, %n], strides = [%n, 1] : tile<i32> -> {tv}
    %b = make_tensor_view %dst, shape = [20, %n], strides = [%n, 1] : tile<i32> -> {tv}
    %ga = make_gather_scatter_view %a : {gv}
    %sb = make_gather_scatter_view %b : {sv}
    %v, %t0 = load_view_tko weak %ga[{ix}] : {gv}, {it} -> tile<{ts}x{ty}>, token
    %t1 = store_view_tko weak %v, %sb[{ix}] : tile<{ts}x{ty}>, {sv}, {it} -> token
    return
  }}
}}
"#
        );
        let generator = if ty.starts_with('i') {
            "randint"
        } else {
            "random"
        };
        check(
            &format!("gather {ty} {ts} sparse {sd}{pad}"),
            &src,
            grid,
            &[
                &format!("{generator}:{ty}:800:3"),
                &format!("zeros:{ty}:800"),
                "i32:40",
            ],
        );
    }
}

/// `alloca`: a tile stored through pointers into the buffer and read back reversed (each
/// element by another thread; the token orders them), the zero fill read before any
/// store, and an `alloca` in a loop whose buffer accumulates across iterations (the
/// interpreter reuses an `alloca`'s buffer); tiles larger and smaller than the CTA.
#[test]
fn alloca_buffers() {
    for (ty, n, add) in [
        ("f32", 256usize, "addf"),
        ("i32", 64, "addi"),
        ("f16", 8, "addf"),
        ("i64", 512, "addi"),
    ] {
        let src = format!(
            r#"cuda_tile.module @m {{
  entry @k(%src: tile<ptr<{ty}>>, %dst: tile<ptr<{ty}>>) {{
    %i = iota : tile<{n}xi32>
    %c = constant <i32: {last}> : tile<{n}xi32>
    %rev = subi %c, %i : tile<{n}xi32>
    %s1 = reshape %src : tile<ptr<{ty}>> -> tile<1xptr<{ty}>>
    %sb = broadcast %s1 : tile<1xptr<{ty}>> -> tile<{n}xptr<{ty}>>
    %sp = offset %sb, %i : tile<{n}xptr<{ty}>>, tile<{n}xi32> -> tile<{n}xptr<{ty}>>
    %v, %t0 = load_ptr_tko weak %sp : tile<{n}xptr<{ty}>> -> tile<{n}x{ty}>, token
    %a = alloca num_elem = {n2}, alignment = 64 : tile<ptr<{ty}>>
    %a1 = reshape %a : tile<ptr<{ty}>> -> tile<1xptr<{ty}>>
    %ab = broadcast %a1 : tile<1xptr<{ty}>> -> tile<{n}xptr<{ty}>>
    %ap = offset %ab, %i : tile<{n}xptr<{ty}>>, tile<{n}xi32> -> tile<{n}xptr<{ty}>>
    %ar = offset %ab, %rev : tile<{n}xptr<{ty}>>, tile<{n}xi32> -> tile<{n}xptr<{ty}>>
    %z, %t1 = load_ptr_tko weak %ap : tile<{n}xptr<{ty}>> -> tile<{n}x{ty}>, token
    %t2 = store_ptr_tko weak %ap, %v token = %t1 : tile<{n}xptr<{ty}>>, tile<{n}x{ty}> -> token
    %w, %t3 = load_ptr_tko weak %ar token = %t2 : tile<{n}xptr<{ty}>> -> tile<{n}x{ty}>, token
    %lb = constant <i32: 0> : tile<i32>
    %ub = constant <i32: 3> : tile<i32>
    %st = constant <i32: 1> : tile<i32>
    %acc, %tk = for %iv in (%lb to %ub, step %st) : tile<i32> iter_values(%x = %z, %tt = %t3) -> (tile<{n}x{ty}>, token) {{
      %b = alloca num_elem = {n}, alignment = 16 : tile<ptr<{ty}>>
      %b1 = reshape %b : tile<ptr<{ty}>> -> tile<1xptr<{ty}>>
      %bb = broadcast %b1 : tile<1xptr<{ty}>> -> tile<{n}xptr<{ty}>>
      %bp = offset %bb, %rev : tile<{n}xptr<{ty}>>, tile<{n}xi32> -> tile<{n}xptr<{ty}>>
      %old, %u1 = load_ptr_tko weak %bp token = %tt : tile<{n}xptr<{ty}>> -> tile<{n}x{ty}>, token
      %new = {add} %old, %w : tile<{n}x{ty}>
      %u2 = store_ptr_tko weak %bp, %new token = %u1 : tile<{n}xptr<{ty}>>, tile<{n}x{ty}> -> token
      %x2 = {add} %x, %new : tile<{n}x{ty}>
      continue %x2, %u2 : tile<{n}x{ty}>, token
    }}
    %d1 = reshape %dst : tile<ptr<{ty}>> -> tile<1xptr<{ty}>>
    %db = broadcast %d1 : tile<1xptr<{ty}>> -> tile<{n}xptr<{ty}>>
    %dp = offset %db, %i : tile<{n}xptr<{ty}>>, tile<{n}xi32> -> tile<{n}xptr<{ty}>>
    %t9 = store_ptr_tko weak %dp, %acc token = %tk : tile<{n}xptr<{ty}>>, tile<{n}x{ty}> -> token
    return
  }}
}}
"#,
            last = n - 1,
            n2 = n + 3,
        );
        let generator = if ty.starts_with('i') {
            "randint"
        } else {
            "random"
        };
        let ptx = check(
            &format!("alloca {n}x{ty}"),
            &src,
            [2, 1, 1],
            &[
                &format!("{generator}:{ty}:{n}:3"),
                &format!("zeros:{ty}:{n}"),
            ],
        );
        assert!(ptx[0].contains("cvta.shared.u64"), "{}", ptx[0]);
    }
}

/// `alloca`s beyond the 48 KiB of static shared memory are refused with E0901 at the
/// `alloca` that crosses the limit, not handed to ptxas.
#[test]
fn alloca_over_the_shared_memory_limit() {
    let src = r#"cuda_tile.module @m {
  entry @k() {
    %a = alloca num_elem = 8192, alignment = 16 : tile<ptr<f32>>
    %b = alloca num_elem = 8192, alignment = 16 : tile<ptr<f32>>
    return
  }
}
"#;
    let out = tilec_tests::run_tilec(&["-", "--arch", "sm_80", "-o", "-"], src);
    assert_eq!(out.status, 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("[E0901]")
            && out.stderr.contains("65536 bytes")
            && out.stderr.contains("48 KiB"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("%b = alloca"), "{}", out.stderr);
}

/// `mmaf_scaled` (emulated on every target) against the interpreter, bit for bit: MXFP8
/// (both f8 formats), MXFP4 (V = 16 and 32) and NVFP4 inputs, all made in the kernel from
/// random f32s (no 4-bit buffers): the inputs `x * 6` converted to their type, the scales
/// `|x| * 16` converted to theirs (powers of two from 2^-127 up, or e4m3 values); a
/// random accumulator; batched operands.
#[test]
fn mmaf_scaled_matches_the_interpreter() {
    for (ta, ts, shape_a, shape_b, kb) in [
        ("f8E4M3FN", "f8E8M0FNU", "16x64", "64x16", 2),
        ("f8E5M2", "f8E8M0FNU", "32x32", "32x64", 1),
        ("f4E2M1FN", "f8E8M0FNU", "16x64", "64x32", 4),
        ("f4E2M1FN", "f8E8M0FNU", "16x64", "64x16", 2),
        ("f4E2M1FN", "f8E4M3FN", "2x16x32", "2x32x16", 2),
    ] {
        let dims = |s: &str| -> Vec<usize> { s.split('x').map(|d| d.parse().unwrap()).collect() };
        let n = |s: &str| -> usize { dims(s).iter().product() };
        let (da, db) = (dims(shape_a), dims(shape_b));
        let r = da.len();
        let (mm, nn) = (da[r - 2], db[r - 1]);
        let pre = if r == 3 {
            format!("{}x", da[0])
        } else {
            String::new()
        };
        let sa_shape = format!("{pre}{mm}x{kb}");
        let sb_shape = format!("{pre}{kb}x{nn}");
        let c_shape = format!("{pre}{mm}x{nn}");
        // Loads f32 buffer `%name` as a tile `%{name}v` of `shape`, and converts
        // `|x| * k` or `x * k` to `ty` as `%{name}s`.
        let load = |name: &str, shape: &str, ty: &str, k: &str, abs: bool| -> String {
            let len = n(shape);
            let mut t = format!(
                r#"    %{name}i = iota : tile<{len}xi32>
    %{name}1 = reshape %{name} : tile<ptr<f32>> -> tile<1xptr<f32>>
    %{name}b = broadcast %{name}1 : tile<1xptr<f32>> -> tile<{len}xptr<f32>>
    %{name}p = offset %{name}b, %{name}i : tile<{len}xptr<f32>>, tile<{len}xi32> -> tile<{len}xptr<f32>>
    %{name}f, %{name}t = load_ptr_tko weak %{name}p : tile<{len}xptr<f32>> -> tile<{len}xf32>, token
    %{name}v = reshape %{name}f : tile<{len}xf32> -> tile<{shape}xf32>
"#
            );
            if ty != "f32" {
                let src = if abs {
                    t += &format!("    %{name}a = absf %{name}v : tile<{shape}xf32>\n");
                    format!("%{name}a")
                } else {
                    format!("%{name}v")
                };
                t += &format!(
                    r#"    %{name}k = constant <f32: {k}> : tile<{shape}xf32>
    %{name}m = mulf {src}, %{name}k : tile<{shape}xf32>
    %{name}s = ftof %{name}m{round} : tile<{shape}xf32> -> tile<{shape}x{ty}>
"#,
                    round = if ty == "f8E8M0FNU" {
                        " rounding<positive_inf>"
                    } else {
                        ""
                    }
                );
            }
            t
        };
        let cn = n(&c_shape);
        let src = format!(
            r#"cuda_tile.module @m {{
  entry @k(%a: tile<ptr<f32>>, %b: tile<ptr<f32>>, %x: tile<ptr<f32>>, %y: tile<ptr<f32>>, %c: tile<ptr<f32>>, %d: tile<ptr<f32>>) {{
{la}{lb}{lx}{ly}{lc}    %r = mmaf_scaled %as, %bs, %cv, %xs, %ys : tile<{shape_a}x{ta}>, tile<{shape_b}x{ta}>, tile<{c_shape}xf32>, tile<{sa_shape}x{ts}>, tile<{sb_shape}x{ts}>
    %rf = reshape %r : tile<{c_shape}xf32> -> tile<{cn}xf32>
    %di = iota : tile<{cn}xi32>
    %d1 = reshape %d : tile<ptr<f32>> -> tile<1xptr<f32>>
    %db = broadcast %d1 : tile<1xptr<f32>> -> tile<{cn}xptr<f32>>
    %dp = offset %db, %di : tile<{cn}xptr<f32>>, tile<{cn}xi32> -> tile<{cn}xptr<f32>>
    %t9 = store_ptr_tko weak %dp, %rf : tile<{cn}xptr<f32>>, tile<{cn}xf32> -> token
    return
  }}
}}
"#,
            la = load("a", shape_a, ta, "6.0", false),
            lb = load("b", shape_b, ta, "6.0", false),
            lx = load("x", &sa_shape, ts, "16.0", true),
            ly = load("y", &sb_shape, ts, "16.0", true),
            lc = load("c", &c_shape, "f32", "", false),
        );
        check(
            &format!("mmaf_scaled {ta} {ts} {shape_a} {shape_b}"),
            &src,
            [1, 1, 1],
            &[
                &format!("random:f32:{}:1", n(shape_a)),
                &format!("random:f32:{}:2", n(shape_b)),
                &format!("random:f32:{}:3", n(&sa_shape)),
                &format!("random:f32:{}:4", n(&sb_shape)),
                &format!("random:f32:{cn}:5"),
                &format!("zeros:f32:{cn}"),
            ],
        );
    }
}

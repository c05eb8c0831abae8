//! Accuracy and special-value tests of the math library's CPU twin, and a ptxas check of
//! every emitted sequence.
//!
//! Method: each accurate program is evaluated bit-exactly on the CPU (`Program::eval`) on
//! special values, hard cases and pseudo-random inputs (random bit patterns over the whole
//! range plus random values in each function's interesting range). binary32 results are
//! compared with the binary64 libm value (relative error about 2^-52, so the measured
//! error is exact to ~1e-7 ulp); binary64 results are compared with the platform libm
//! (glibc), as the distance in ulps between the two doubles (see docs/math.md for glibc's
//! own documented error per function).

use std::io::Write;
use std::path::PathBuf;
use std::process::Command;
use tilec_ptx::math::{MathFn, MathOpts, Prec, emit, program, ulp_bound};
use tilec_ptx::sink::VecSink;

/// xorshift64* (deterministic).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
}

/// Number of random inputs per function and precision.
fn count() -> usize {
    if let Ok(n) = std::env::var("TILEC_MATH_N") {
        return n.parse().expect("TILEC_MATH_N is a number");
    }
    if cfg!(debug_assertions) {
        60_000
    } else {
        400_000
    }
}

/// The reference value in binary64 (for binary32 arguments this is far more accurate than
/// the binary32 result; for binary64 it is glibc's result).
fn reference(f: MathFn, a: &[f64]) -> f64 {
    let x = a[0];
    match f {
        MathFn::Exp => x.exp(),
        MathFn::Exp2 => x.exp2(),
        MathFn::Log => x.ln(),
        MathFn::Log2 => x.log2(),
        MathFn::Log10 => x.log10(),
        MathFn::Log1p => x.ln_1p(),
        MathFn::Sin => x.sin(),
        MathFn::Cos => x.cos(),
        MathFn::Tan => x.tan(),
        MathFn::SinH => x.sinh(),
        MathFn::CosH => x.cosh(),
        MathFn::TanH => x.tanh(),
        MathFn::Sigmoid => {
            if x < 0.0 {
                let e = x.exp();
                e / (1.0 + e)
            } else {
                1.0 / (1.0 + (-x).exp())
            }
        }
        MathFn::Rsqrt => 1.0 / x.sqrt(),
        MathFn::Pow => x.powf(a[1]),
        MathFn::Atan2 => x.atan2(a[1]),
        MathFn::Rem => x % a[1],
    }
}

/// Error in binary32 ulps of `got` against the (more precise) `want`; infinite when special
/// values or signs of zero differ.
fn ulp_err_f32(got: f32, want: f64) -> f64 {
    if want.is_nan() || got.is_nan() {
        return if want.is_nan() && got.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if want == 0.0 && got == 0.0 {
        return if want.is_sign_negative() == got.is_sign_negative() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    let w32 = want as f32;
    if w32.is_infinite() {
        return if got == w32 { 0.0 } else { f64::INFINITY };
    }
    let g = if got.is_infinite() {
        2f64.powi(128).copysign(f64::from(got))
    } else {
        f64::from(got)
    };
    let a = want.abs().max(f64::from(f32::MIN_POSITIVE));
    let e = a.log2().floor() as i32;
    let ulp = 2f64.powi(e.max(-126) - 23);
    (g - want).abs() / ulp
}

fn ordered(x: f64) -> i128 {
    let b = x.to_bits();
    if b >> 63 == 1 {
        -i128::from(b & !(1u64 << 63))
    } else {
        i128::from(b)
    }
}

/// Distance in binary64 ulps; infinite when NaN-ness or signs of zero differ.
fn ulp_err_f64(got: f64, want: f64) -> f64 {
    if want.is_nan() || got.is_nan() {
        return if want.is_nan() && got.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if want == 0.0 && got == 0.0 && want.is_sign_negative() != got.is_sign_negative() {
        return f64::INFINITY;
    }
    (ordered(got) - ordered(want)).unsigned_abs() as f64
}

/// Interesting ranges of the first argument (and second for two-argument functions).
fn ranges(f: MathFn, single: bool) -> Vec<[(f64, f64); 2]> {
    let w = (-1.0, 1.0);
    let big = if single { 3e38 } else { 1e300 };
    match f {
        MathFn::Exp | MathFn::SinH | MathFn::CosH | MathFn::Sigmoid => {
            let l = if single { 104.0 } else { 746.0 };
            vec![[(-l, l), w], [(-1.0, 1.0), w], [(-1e-6, 1e-6), w]]
        }
        MathFn::Exp2 => {
            let l = if single { 150.0 } else { 1075.0 };
            vec![[(-l, l), w], [(-1.0, 1.0), w]]
        }
        MathFn::TanH => vec![[(-20.0, 20.0), w], [(-1.0, 1.0), w], [(-1e-4, 1e-4), w]],
        MathFn::Log | MathFn::Log2 | MathFn::Log10 | MathFn::Rsqrt => {
            vec![[(0.5, 2.0), w], [(0.0, 1e6), w], [(0.99, 1.01), w]]
        }
        MathFn::Log1p => vec![[(-1.0, 1.0), w], [(-1e-5, 1e-5), w], [(-0.3, 1e6), w]],
        MathFn::Sin | MathFn::Cos | MathFn::Tan => {
            vec![
                [(-10.0, 10.0), w],
                [(-1e6, 1e6), w],
                [(-big, big), w],
                [(-1.6, 1.6), w],
            ]
        }
        MathFn::Pow => vec![
            [(0.0, 10.0), (-40.0, 40.0)],
            [(0.9, 1.1), (-2000.0, 2000.0)],
            [(-10.0, 10.0), (-30.0, 30.0)],
            [(0.0, 2.0), (-3.0, 3.0)],
            [(1.5, 3.0), (-900.0, 900.0)],
            // |y log2 x| up to ~1000 across the whole reduced range of the logarithm
            [(0.7, 1.42), (-2100.0, 2100.0)],
        ],
        MathFn::Atan2 => vec![[(-1.0, 1.0), (-1.0, 1.0)], [(-1e6, 1e6), (-1.0, 1.0)]],
        MathFn::Rem => vec![[(-1e6, 1e6), (-10.0, 10.0)], [(-big, big), (-1e-3, 1e-3)]],
    }
}

/// Special and hard inputs (each combined pairwise for two-argument functions).
fn specials(single: bool) -> Vec<f64> {
    let mut v = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        2.0,
        -2.0,
        3.0,
        -3.0,
        0.25,
        10.0,
        -10.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        std::f64::consts::PI,
        std::f64::consts::FRAC_PI_2,
        -std::f64::consts::FRAC_PI_4,
        std::f64::consts::E,
        88.72,
        -87.3,
        -103.9,
        709.7,
        -745.0,
        710.4,
        1e-30,
        -1e-30,
        1e30,
        1e22,
        5.0e-324,
        2.2250738585072014e-308,
        1.7976931348623157e308,
        1.0e-310,
    ];
    if single {
        v.extend([
            f64::from(f32::MAX),
            f64::from(f32::MIN_POSITIVE),
            f64::from(f32::from_bits(1)),
            f64::from(f32::from_bits(0x007f_ffff)),
            16777216.0,
            16777217.0,
            f64::from(f32::from_bits(0x5922_aa0d)),
            102_940.0,
            1e9,
        ]);
    }
    v
}

/// The maximum error, the arguments where it occurred, and the number of inputs.
type Measured = (f64, Vec<f64>, usize);

/// Runs `f` over all inputs.
fn measure(f: MathFn, prec: Prec, opts: MathOpts, n: usize) -> Measured {
    let p = program(f, prec, opts);
    let single = prec == Prec::F32;
    let arity = f.arity();
    let mut inputs: Vec<Vec<f64>> = Vec::new();
    let sp = specials(single);
    for &x in &sp {
        if arity == 1 {
            inputs.push(vec![x]);
        } else {
            for &y in &sp {
                inputs.push(vec![x, y]);
            }
        }
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ ((f as u64 + 1) * 0x1234_5678));
    let rs = ranges(f, single);
    for i in 0..n {
        let mut a = Vec::with_capacity(arity);
        for range in rs[(i / 2) % rs.len()].iter().take(arity) {
            let v = if i % 2 == 0 {
                if single {
                    f64::from(f32::from_bits(rng.next() as u32))
                } else {
                    f64::from_bits(rng.next())
                }
            } else {
                rng.range(range.0, range.1)
            };
            a.push(v);
        }
        inputs.push(a);
    }
    let mut worst = (0.0f64, Vec::new());
    for a in &inputs {
        let (err, args) = if single {
            let a32: Vec<f32> = a.iter().map(|v| *v as f32).collect();
            let ad: Vec<f64> = a32.iter().map(|v| f64::from(*v)).collect();
            let got = p.eval_f32(&a32);
            (ulp_err_f32(got, reference(f, &ad)), ad)
        } else {
            (ulp_err_f64(p.eval_f64(a), reference(f, a)), a.clone())
        };
        if err > worst.0 || err.is_nan() {
            worst = (err, args);
        }
    }
    (worst.0, worst.1, inputs.len())
}

fn check_all(prec: Prec) {
    let n = count();
    let start = std::time::Instant::now();
    let results: Vec<(MathFn, Measured)> = std::thread::scope(|s| {
        let handles: Vec<_> = MathFn::ALL
            .iter()
            .map(|&f| s.spawn(move || (f, measure(f, prec, MathOpts::default(), n))))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("worker"))
            .collect()
    });
    let mut failed = Vec::new();
    for (f, (err, at, cnt)) in results {
        let bound = ulp_bound(f, prec, false);
        println!(
            "{prec:?} {f:?}: max {err:.3} ulp (bound {bound}) over {cnt} inputs; worst at {at:?}"
        );
        if err.is_nan() || err > bound {
            failed.push(format!("{f:?}: {err} > {bound} at {at:?}"));
        }
    }
    println!("{prec:?}: {:.1} s", start.elapsed().as_secs_f64());
    assert!(
        failed.is_empty(),
        "{prec:?} accuracy failures:\n{}",
        failed.join("\n")
    );
}

#[test]
fn accuracy_f32() {
    check_all(Prec::F32);
}

#[test]
fn accuracy_f64() {
    check_all(Prec::F64);
}

/// Hard cases of binary64 argument reduction, against correctly rounded values computed
/// offline with exact rational arithmetic (1600-bit π; glibc is 16 ulp off on the first).
#[test]
fn trig_hard_cases_f64() {
    // (x, sin x, cos x) bit patterns
    let cases: [(u64, u64, u64); 3] = [
        (
            0x7506_ac5b_262c_a1ff,
            0x3ff0_0000_0000_0000,
            0xbc21_4ae7_2e6b_a22f,
        ),
        (
            0x4480_f0cf_064d_d592,
            0xbfeb_453a_b76b_f397,
            0x3fe0_be2c_ef01_c8f4,
        ),
        (
            0x7fe8_0000_0000_0000,
            0x3fe3_f5dd_1b2a_e20c,
            0x3fe9_02fa_f66a_7398,
        ),
    ];
    let sin = program(MathFn::Sin, Prec::F64, MathOpts::default());
    let cos = program(MathFn::Cos, Prec::F64, MathOpts::default());
    for (x, s, c) in cases {
        let x = f64::from_bits(x);
        for (p, want, neg) in [(&sin, s, false), (&cos, c, false), (&sin, s, true)] {
            let (arg, want) = if neg {
                (-x, -f64::from_bits(want))
            } else {
                (x, f64::from_bits(want))
            };
            let got = p.eval_f64(&[arg]);
            assert!(
                ulp_err_f64(got, want) <= 1.0,
                "{arg:e}: got {got:e}, want {want:e}"
            );
        }
    }
}

/// Exact special values required by C99 Annex F (spot checks beyond the sweeps above).
#[test]
fn annex_f_specials() {
    let inf = f64::INFINITY;
    let cases: &[(MathFn, &[f64], f64)] = &[
        (MathFn::Log, &[0.0], -inf),
        (MathFn::Log, &[-0.0], -inf),
        (MathFn::Log2, &[1.0], 0.0),
        (MathFn::Log1p, &[-1.0], -inf),
        (MathFn::Log1p, &[-0.0], -0.0),
        (MathFn::Exp, &[-inf], 0.0),
        (MathFn::Exp, &[inf], inf),
        (MathFn::Sin, &[-0.0], -0.0),
        (MathFn::Tan, &[-0.0], -0.0),
        (MathFn::SinH, &[-0.0], -0.0),
        (MathFn::TanH, &[-inf], -1.0),
        (MathFn::Rsqrt, &[-0.0], -inf),
        (MathFn::Rsqrt, &[inf], 0.0),
        (MathFn::Sigmoid, &[-inf], 0.0),
        (MathFn::Pow, &[f64::NAN, 0.0], 1.0),
        (MathFn::Pow, &[1.0, f64::NAN], 1.0),
        (MathFn::Pow, &[-0.0, -3.0], -inf),
        (MathFn::Pow, &[-1.0, inf], 1.0),
        (MathFn::Pow, &[-inf, 3.0], -inf),
        (MathFn::Pow, &[-8.0, 1.0 / 3.0], f64::NAN),
        (MathFn::Atan2, &[-0.0, -0.0], -std::f64::consts::PI),
        (
            MathFn::Atan2,
            &[inf, -inf],
            3.0 * std::f64::consts::FRAC_PI_4,
        ),
        (MathFn::Rem, &[-5.0, 3.0], -2.0),
        (MathFn::Rem, &[-0.0, 3.0], -0.0),
        (MathFn::Rem, &[5.0, inf], 5.0),
        (MathFn::Rem, &[inf, 3.0], f64::NAN),
        (MathFn::Rem, &[1.0, 0.0], f64::NAN),
    ];
    for &(f, args, want) in cases {
        for prec in [Prec::F32, Prec::F64] {
            let p = program(f, prec, MathOpts::default());
            let got = if prec == Prec::F32 {
                let a: Vec<f32> = args.iter().map(|v| *v as f32).collect();
                f64::from(p.eval_f32(&a))
            } else {
                p.eval_f64(args)
            };
            let ok = if want.is_nan() {
                got.is_nan()
            } else {
                got.to_bits() == (want as f32 as f64).to_bits() || got.to_bits() == want.to_bits()
            };
            assert!(ok, "{f:?} {prec:?} {args:?}: got {got:?}, want {want:?}");
        }
    }
}

/// Fast mode and ftz mode run and keep NaN/inf behaviour (the evaluator models the SFU
/// approximations by correctly rounded functions, so accuracy is not measured here).
#[test]
fn fast_and_ftz_modes() {
    for f in MathFn::ALL {
        for opts in [
            MathOpts {
                fast: true,
                ftz: false,
            },
            MathOpts {
                fast: true,
                ftz: true,
            },
            MathOpts {
                fast: false,
                ftz: true,
            },
        ] {
            let p = program(f, Prec::F32, opts);
            let a = vec![f32::NAN; f.arity()];
            assert!(p.eval_f32(&a).is_nan(), "{f:?} {opts:?}: NaN in, NaN out");
            let a = vec![1.5f32; f.arity()];
            let want = reference(f, &vec![1.5; f.arity()]);
            let got = p.eval_f32(&a);
            assert!(
                ulp_err_f32(got, want) <= 4.0,
                "{f:?} {opts:?}: {got} vs {want}"
            );
        }
    }
}

/// Every binary32 sequence returns the canonical NaN `0x7FFFFFFF` for a NaN result, as
/// the GPU's own binary32 arithmetic and the interpreter do, whatever NaN came in (seen
/// on an H100: `log1p` of the NaN `0xFFC00000` handed that NaN back, so its bits after
/// a bitcast differed from the interpreter's).
#[test]
fn binary32_nan_results_are_canonical() {
    for f in MathFn::ALL {
        for (fast, ftz) in [(false, false), (true, false), (false, true), (true, true)] {
            let p = program(f, Prec::F32, MathOpts { fast, ftz });
            for nan in [0xFFC0_0000u64, 0x7FC0_0001, 0x7F80_0001, 0xFFFF_FFFF] {
                let args = vec![nan; f.arity()];
                let got = p.eval(&args) & 0xFFFF_FFFF;
                assert_eq!(got, 0x7FFF_FFFF, "{f:?} fast={fast} ftz={ftz} of {nan:#x}");
            }
        }
    }
}

/// binary64 likewise: every math function's NaN result is 0x7FFFFFFFFFFFFFFF, the
/// interpreter's (its hardware arithmetic would give 0xFFF8000000000000 for `log2(-1)`,
/// or pass an operand's payload on), whatever the NaN operand; and an invalid operation
/// (`log2(-1)`, `log(-1)`, `pow(-2, 0.5)`, `rem(1, 0)`) gives it too.
#[test]
fn binary64_nan_results_are_canonical() {
    for f in MathFn::ALL {
        let p = program(f, Prec::F64, MathOpts::default());
        for nan in [
            0xFFF8_0000_0000_0000u64,
            0x7FF8_0000_0000_0001,
            0x7FF0_0000_0000_0001,
            u64::MAX,
        ] {
            let args = vec![nan; f.arity()];
            assert_eq!(p.eval(&args), 0x7FFF_FFFF_FFFF_FFFF, "{f:?} of {nan:#x}");
        }
    }
    let bits = |v: f64| v.to_bits();
    for (f, args) in [
        (MathFn::Log2, vec![bits(-1.0)]),
        (MathFn::Log, vec![bits(-1.0)]),
        (MathFn::Pow, vec![bits(-2.0), bits(0.5)]),
        (MathFn::Rem, vec![bits(1.0), bits(0.0)]),
    ] {
        let p = program(f, Prec::F64, MathOpts::default());
        assert_eq!(p.eval(&args), 0x7FFF_FFFF_FFFF_FFFF, "{f:?} of {args:x?}");
    }
}

/// Finds ptxas: `TILEC_PTXAS`, else `ptxas` on PATH.
fn ptxas() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("TILEC_PTXAS") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("ptxas"))
        .find(|p| p.is_file())
}

/// One `.entry` kernel computing `f` on values loaded from a pointer parameter.
fn kernel(name: &str, f: MathFn, prec: Prec, opts: MathOpts) -> String {
    use tilec_ptx::sink::{RegClass, Sink};
    let mut s = VecSink::default();
    let (class, ty, size) = match prec {
        Prec::F32 => (RegClass::F32, "f32", 4),
        Prec::F64 => (RegClass::F64, "f64", 8),
    };
    let pin = s.reg(RegClass::B64);
    let pout = s.reg(RegClass::B64);
    let mut body = vec![
        format!("ld.param.u64 {pin}, [{name}_in];"),
        format!("ld.param.u64 {pout}, [{name}_out];"),
        format!("cvta.to.global.u64 {pin}, {pin};"),
        format!("cvta.to.global.u64 {pout}, {pout};"),
    ];
    let args: Vec<String> = (0..f.arity()).map(|_| s.reg(class)).collect();
    for (i, a) in args.iter().enumerate() {
        body.push(format!("ld.global.{ty} {a}, [{pin}+{}];", i * size));
    }
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let r = emit(&mut s, f, prec, opts, &refs);
    let lines = std::mem::take(&mut s.lines);
    body.extend(lines);
    body.push(format!("st.global.{ty} [{pout}], {r};"));
    body.push("ret;".into());
    let mut out =
        format!(".visible .entry {name}(.param .u64 {name}_in, .param .u64 {name}_out)\n{{\n");
    for d in s.declarations() {
        out += &format!("    {d}\n");
    }
    for l in body {
        out += &format!("    {l}\n");
    }
    out + "}\n"
}

#[test]
fn ptxas_accepts_every_sequence() {
    let Some(ptxas) = ptxas() else {
        println!("SKIPPED: ptxas not found (set TILEC_PTXAS or pip install nvidia-cuda-nvcc)");
        eprintln!("SKIPPED: ptxas not found (set TILEC_PTXAS or pip install nvidia-cuda-nvcc)");
        return;
    };
    let dir = std::env::temp_dir().join(format!("tilec-math-ptx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (version, arch) in [("7.0", "sm_80"), ("7.8", "sm_90")] {
        let mut module = format!(".version {version}\n.target {arch}\n.address_size 64\n\n");
        for f in MathFn::ALL {
            for prec in [Prec::F32, Prec::F64] {
                for (m, opts) in [
                    ("acc", MathOpts::default()),
                    (
                        "fast",
                        MathOpts {
                            fast: true,
                            ftz: false,
                        },
                    ),
                    (
                        "ftz",
                        MathOpts {
                            fast: true,
                            ftz: true,
                        },
                    ),
                    (
                        "accftz",
                        MathOpts {
                            fast: false,
                            ftz: true,
                        },
                    ),
                ] {
                    module += &kernel(&format!("{f:?}_{prec:?}_{m}").to_lowercase(), f, prec, opts);
                }
            }
        }
        let file = dir.join(format!("math_{arch}.ptx"));
        std::fs::File::create(&file)
            .and_then(|mut h| h.write_all(module.as_bytes()))
            .expect("write ptx");
        let out = Command::new(&ptxas)
            .args([&format!("-arch={arch}"), "-o"])
            .arg(dir.join(format!("math_{arch}.cubin")))
            .arg(&file)
            .output()
            .expect("run ptxas");
        let msg = String::from_utf8_lossy(&out.stderr).into_owned()
            + &String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && msg.trim().is_empty(),
            "ptxas {arch} ({}):\n{msg}",
            file.display()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

//! The element types of Tile IR 13.2/13.3 in the interpreter: `f4E2M1FN` (OCP FP4),
//! `f8E8M0FNU` (the MX block-scale format) and `i4`. Conversions are checked against
//! references written here from the formats' definitions (the value lists, not tilec's
//! rounding code), over edge values and a few thousand pseudo-random f32s.

mod common;
use common::{func, module};
use tilec_interp::value::Tile;
use tilec_interp::{Memory, call};
use tilec_ir::{Module, Opcode, Type};

/// Calls `@name(x: tile<Nxf32>)` and returns the bits of its results.
fn run_f32(m: &Module, name: &str, x: &[f32]) -> Vec<Vec<u64>> {
    let f = func(m, name);
    let arg = Tile {
        elem: Type::F32,
        shape: vec![x.len() as i64].into(),
        bits: x.iter().map(|v| u64::from(v.to_bits())).collect(),
    };
    let c = call(m, f, vec![arg], &mut Memory::default())
        .unwrap_or_else(|e| panic!("@{name} fails: {}", e.message));
    c.results.into_iter().map(|t| t.bits).collect()
}

/// The eight magnitudes of f4E2M1FN, by code.
const E2M1: [f64; 8] = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0];

/// f32 -> f4E2M1FN, round to nearest even, saturating (no infinity) and NaN to +6.
fn to_e2m1(x: f32) -> u64 {
    if x.is_nan() {
        return 0x7;
    }
    let sign = if x.is_sign_negative() { 0x8 } else { 0 };
    let a = f64::from(x.abs());
    if a >= 6.0 {
        return sign | 0x7;
    }
    let mut best = 0usize;
    for (c, v) in E2M1.iter().enumerate().skip(1) {
        let (d, db) = ((v - a).abs(), (E2M1[best] - a).abs());
        if d < db || (d == db && c % 2 == 0) {
            best = c;
        }
    }
    sign | best as u64
}

/// f32 -> f8E8M0FNU rounding toward zero (`up` false) or toward +inf (`up` true).
fn to_e8m0(x: f32, up: bool) -> u64 {
    if x.is_nan() || x.is_infinite() || (x < 0.0) {
        return 0xFF;
    }
    if x == 0.0 {
        return 0x00; // no zero: the smallest value, 2^-127
    }
    let a = f64::from(x);
    // The exact powers of two around `a`.
    let mut k = -127i32;
    while k < 128 && 2f64.powi(k + 1) <= a {
        k += 1;
    }
    // 2^k <= a < 2^(k+1) when a >= 2^-127; k = -127 with a < 2^-127 otherwise.
    let exact = 2f64.powi(k) == a;
    let e = if a < 2f64.powi(-127) {
        -127
    } else if up && !exact {
        k + 1
    } else {
        k
    };
    if e > 127 {
        return if up { 0xFF } else { 0xFE };
    }
    (e + 127) as u64
}

fn e8m0_value(code: u64) -> f32 {
    if code == 0xFF {
        f32::NAN
    } else {
        2f64.powi(code as i32 - 127) as f32
    }
}

fn inputs() -> Vec<f32> {
    let mut v = vec![
        0.0,
        -0.0,
        0.25,
        0.75,
        1.25,
        1.75,
        2.5,
        3.5,
        5.0,
        5.999,
        6.0,
        7.0,
        1e30,
        -1e30,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::MIN_POSITIVE,
        f32::from_bits(1),
        f32::from_bits(0x0040_0000),
        f32::from_bits(0x0040_0001),
        f32::MAX,
        1.0,
        3.0,
        -3.0,
        2f32.powi(127),
        2f32.powi(127) * 1.5,
    ];
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    while v.len() < 4096 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        // Values of every binade, and a dense range around the f4 values.
        let x = if s & 1 == 0 {
            f32::from_bits((s >> 32) as u32)
        } else {
            ((s >> 40) as f32 / (1u64 << 24) as f32) * 16.0 - 8.0
        };
        v.push(x);
    }
    v
}

#[test]
fn f4_and_e8m0_conversions_match_their_definitions() {
    let x = inputs();
    let n = x.len();
    let m = module(&format!(
        "cuda_tile.module @m {{
  testing$func @f(%x: !cuda_tile.tile<{n}xf32>) -> (!cuda_tile.tile<{n}xf4E2M1FN>, !cuda_tile.tile<{n}xf32>, !cuda_tile.tile<{n}xf8E8M0FNU>, !cuda_tile.tile<{n}xf8E8M0FNU>, !cuda_tile.tile<{n}xf32>) {{
    %a = ftof %x : tile<{n}xf32> -> tile<{n}xf4E2M1FN>
    %b = ftof %a : tile<{n}xf4E2M1FN> -> tile<{n}xf32>
    %z = ftof %x rounding<zero> : tile<{n}xf32> -> tile<{n}xf8E8M0FNU>
    %u = ftof %x rounding<positive_inf> : tile<{n}xf32> -> tile<{n}xf8E8M0FNU>
    %w = ftof %u : tile<{n}xf8E8M0FNU> -> tile<{n}xf32>
    return %a, %b, %z, %u, %w : tile<{n}xf4E2M1FN>, tile<{n}xf32>, tile<{n}xf8E8M0FNU>, tile<{n}xf8E8M0FNU>, tile<{n}xf32>
  }}
}}
"
    ));
    let got = run_f32(&m, "f", &x);
    for (i, &v) in x.iter().enumerate() {
        let f4 = to_e2m1(v);
        assert_eq!(got[0][i], f4, "f4E2M1FN of {v:e} ({:#x})", v.to_bits());
        let back = (if f4 & 8 != 0 { -1.0 } else { 1.0 }) * E2M1[(f4 & 7) as usize] as f32;
        assert_eq!(
            got[1][i],
            u64::from(back.to_bits()),
            "f4E2M1FN {f4:#x} to f32"
        );
        assert_eq!(
            got[2][i],
            to_e8m0(v, false),
            "f8E8M0FNU rounding<zero> of {v:e}"
        );
        assert_eq!(
            got[3][i],
            to_e8m0(v, true),
            "f8E8M0FNU rounding<positive_inf> of {v:e}"
        );
        let w = f32::from_bits(got[4][i] as u32);
        let want = e8m0_value(got[3][i]);
        assert!(
            w.to_bits() == want.to_bits() || (w.is_nan() && want.is_nan()),
            "f8E8M0FNU {:#x} to f32: {w:e}, want {want:e}",
            got[3][i]
        );
    }
}

#[test]
fn i4_extends_and_truncates() {
    let m = module(
        "cuda_tile.module @m {
  testing$func @f(%x: !cuda_tile.tile<16xi8>) -> (!cuda_tile.tile<16xi8>, !cuda_tile.tile<16xi8>) {
    %t = trunci %x : tile<16xi8> -> tile<16xi4>
    %s = exti %t signed : tile<16xi4> -> tile<16xi8>
    %u = exti %t unsigned : tile<16xi4> -> tile<16xi8>
    return %s, %u : tile<16xi8>, tile<16xi8>
  }
}
",
    );
    let f = func(&m, "f");
    let x: Vec<u64> = (0..16u64).map(|i| (i * 0x13 + 5) & 0xFF).collect();
    let arg = Tile {
        elem: Type::I8,
        shape: vec![16].into(),
        bits: x.clone(),
    };
    let c = call(&m, f, vec![arg], &mut Memory::default()).expect("runs");
    for (i, v) in x.iter().enumerate() {
        let low = v & 0xF;
        let signed = if low & 8 != 0 { low | 0xF0 } else { low };
        assert_eq!(c.results[0].bits[i] & 0xFF, signed, "exti signed of {v:#x}");
        assert_eq!(c.results[1].bits[i] & 0xFF, low, "exti unsigned of {v:#x}");
    }
}

#[test]
fn memory_of_four_bit_elements_is_refused_by_name() {
    let m = module(
        "cuda_tile.module @m {
  entry @k(%p: !cuda_tile.tile<!cuda_tile.ptr<f4E2M1FN>>) {
    return
  }
}
",
    );
    let entry = {
        let mut e = None;
        m.walk(|op| {
            if m.opcode(op) == Opcode::Entry {
                e = Some(op);
            }
        });
        e.unwrap()
    };
    let err = tilec_interp::run(
        &m,
        entry,
        [1, 1, 1],
        &[tilec_interp::Arg::Scalar(0)],
        &mut Memory::default(),
    )
    .unwrap_err();
    assert_eq!(
        err.message,
        "'tilec run' does not model memory of the element type 'f4E2M1FN' yet (two elements to a byte); tiles of it in registers are supported"
    );
}

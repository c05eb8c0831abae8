use super::*;
use std::collections::HashMap;

/// Parse with an in-memory file system.
fn parse_with(s: &str, files: &HashMap<&str, Vec<u8>>) -> Result<ArgSpec, String> {
    let mut read = |p: &Path| {
        files
            .get(p.to_str().unwrap())
            .cloned()
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"))
    };
    parse(s, &mut read)
}

fn p(s: &str) -> Result<ArgSpec, String> {
    parse_with(s, &HashMap::new())
}

fn scalar(s: &str) -> (Type, u64) {
    match p(s) {
        Ok(ArgSpec::Scalar { elem, bits }) => (elem, bits),
        other => panic!("{s}: {other:?}"),
    }
}

fn buffer(s: &str) -> Array {
    match p(s) {
        Ok(ArgSpec::Buffer(a)) => a,
        other => panic!("{s}: {other:?}"),
    }
}

fn err(s: &str) -> String {
    let e = p(s).expect_err(s);
    let prefix = format!("bad --arg '{s}': ");
    assert!(e.starts_with(&prefix), "{e}");
    assert!(!e.contains('\n'), "{e}");
    e[prefix.len()..].to_string()
}

#[test]
fn element_names() {
    let names = [
        "i1",
        "i8",
        "i16",
        "i32",
        "i64",
        "f16",
        "bf16",
        "f32",
        "f64",
        "tf32",
        "f8E4M3FN",
        "f8E5M2",
        "f8E8M0FNU",
        "f4E2M1FN",
        "i4",
    ];
    for (i, n) in names.iter().enumerate() {
        let t = elem_from_name(n).unwrap();
        assert_eq!(elem_name(t), Some(*n));
        assert_eq!(t, ELEMS[i].1);
    }
    for bad in ["", "I32", "i2", "f12", "f8e4m3fn", "index", "ptr"] {
        assert_eq!(elem_from_name(bad), None, "{bad}");
    }
    assert_eq!(elem_name(Type::TOKEN), None);
}

#[test]
fn integer_scalars() {
    let cases: &[(&str, Type, u64)] = &[
        ("i32:5", Type::I32, 5),
        ("i32:-1", Type::I32, 0xffff_ffff),
        ("i32:+7", Type::I32, 7),
        ("i32:0x10", Type::I32, 16),
        ("i32:0XfF", Type::I32, 255),
        ("i32:-0x10", Type::I32, 0xffff_fff0),
        ("i32:4294967295", Type::I32, 0xffff_ffff),
        ("i32:-2147483648", Type::I32, 0x8000_0000),
        ("i64:-3", Type::I64, (-3i64) as u64),
        ("i64:18446744073709551615", Type::I64, u64::MAX),
        ("i64:-9223372036854775808", Type::I64, 1 << 63),
        ("i64:0xffffffffffffffff", Type::I64, u64::MAX),
        ("i8:-128", Type::I8, 0x80),
        ("i8:255", Type::I8, 0xff),
        ("i8:-1", Type::I8, 0xff),
        ("i16:-32768", Type::I16, 0x8000),
        ("i16:65535", Type::I16, 0xffff),
        ("i16:007", Type::I16, 7),
        ("i1:true", Type::I1, 1),
        ("i1:false", Type::I1, 0),
        ("i1:1", Type::I1, 1),
        ("i1:0", Type::I1, 0),
        ("i1:-1", Type::I1, 1),
        ("i1:0x1", Type::I1, 1),
    ];
    for &(s, t, bits) in cases {
        assert_eq!(scalar(s), (t, bits), "{s}");
    }
}

#[test]
fn integer_errors() {
    let cases = [
        ("i32:1e3", "'1e3' is not an i32"),
        ("i32:1.0", "'1.0' is not an i32"),
        ("i32:", "'' is not an i32"),
        ("i32:-", "'-' is not an i32"),
        ("i32:0x", "'0x' is not an i32"),
        ("i32:0xg", "'0xg' is not an i32"),
        ("i32:+-1", "'+-1' is not an i32"),
        ("i32: 1", "' 1' is not an i32"),
        ("i32:1_000", "'1_000' is not an i32"),
        ("i1:True", "'True' is not an i1"),
        ("i1:2", "'2' is out of range for i1 (-1..=1)"),
        ("i1:-2", "'-2' is out of range for i1 (-1..=1)"),
        ("i8:256", "'256' is out of range for i8 (-128..=255)"),
        ("i8:-129", "'-129' is out of range for i8 (-128..=255)"),
        (
            "i16:0x10000",
            "'0x10000' is out of range for i16 (-32768..=65535)",
        ),
        (
            "i32:4294967296",
            "'4294967296' is out of range for i32 (-2147483648..=4294967295)",
        ),
        (
            "i64:18446744073709551616",
            "'18446744073709551616' is out of range for i64 (-9223372036854775808..=18446744073709551615)",
        ),
        (
            "i64:-9223372036854775809",
            "'-9223372036854775809' is out of range for i64 (-9223372036854775808..=18446744073709551615)",
        ),
        (
            "i64:999999999999999999999999999999999999999999",
            "'999999999999999999999999999999999999999999' is not an i64",
        ),
    ];
    for (s, msg) in cases {
        assert_eq!(err(s), msg, "{s}");
    }
}

#[test]
fn float_scalars() {
    let cases: &[(&str, Type, u64)] = &[
        ("f32:1.5", Type::F32, 0x3fc0_0000),
        ("f32:-2", Type::F32, 0xc000_0000),
        ("f32:.5", Type::F32, 0x3f00_0000),
        ("f32:1e-3", Type::F32, 0.001f32.to_bits() as u64),
        ("f32:1E+2", Type::F32, 0x42c8_0000),
        ("f32:0.1", Type::F32, 0.1f32.to_bits() as u64),
        ("f32:-0", Type::F32, 0x8000_0000),
        ("f32:inf", Type::F32, 0x7f80_0000),
        ("f32:-inf", Type::F32, 0xff80_0000),
        ("f32:+Infinity", Type::F32, 0x7f80_0000),
        ("f32:nan", Type::F32, 0x7fc0_0000),
        ("f32:NaN", Type::F32, 0x7fc0_0000),
        ("f32:-nan", Type::F32, 0xffc0_0000),
        ("f32:0x7fc00001", Type::F32, 0x7fc0_0001),
        ("f32:1e39", Type::F32, 0x7f80_0000),
        ("f64:0.1", Type::F64, 0.1f64.to_bits()),
        ("f64:-1e-320", Type::F64, (-1e-320f64).to_bits()),
        ("f16:-0.5", Type::F16, 0xb800),
        ("f16:65504", Type::F16, 0x7bff),
        ("f16:65520", Type::F16, 0x7c00),
        ("f16:inf", Type::F16, 0x7c00),
        // 2049 is halfway between the f16 values 2048 and 2050: ties to even.
        ("f16:2049", Type::F16, 0x6800),
        // Just above the halfway point, beyond f64's precision: no double rounding.
        ("f16:2049.0000000000000000001", Type::F16, 0x6801),
        ("bf16:1", Type::BF16, 0x3f80),
        ("bf16:-2.5", Type::BF16, 0xc020),
        ("tf32:1", Type::TF32, 0x1fc00),
        ("tf32:-inf", Type::TF32, 0x7fc00),
        ("tf32:0x7ffff", Type::TF32, 0x7ffff),
        ("f8E4M3FN:448", Type::F8E4M3FN, 0x7e),
        ("f8E4M3FN:nan", Type::F8E4M3FN, 0x7f),
        // 464 is halfway between 448 and the first value beyond (480).
        ("f8E4M3FN:460", Type::F8E4M3FN, 0x7e),
        ("f8E4M3FN:470", Type::F8E4M3FN, 0x7f),
        ("f8E4M3FN:-1e9", Type::F8E4M3FN, 0xff),
        ("f8E5M2:-inf", Type::F8E5M2, 0xfc),
        ("f8E5M2:1.5", Type::F8E5M2, 0x3e),
    ];
    for &(s, t, bits) in cases {
        assert_eq!(scalar(s), (t, bits), "{s}");
    }
}

#[test]
fn float_errors() {
    let cases = [
        ("f32:abc", "'abc' is not an f32"),
        ("f32:", "'' is not an f32"),
        ("f32:1e", "'1e' is not an f32"),
        ("f32:1e+", "'1e+' is not an f32"),
        ("f32:1.5f", "'1.5f' is not an f32"),
        ("f32:1,5", "'1,5' is not an f32"),
        ("f32:--1", "'--1' is not an f32"),
        ("f32:infinite", "'infinite' is not an f32"),
        ("f32:0x", "'0x' is not an f32"),
        ("f32:0x1.8p3", "'0x1.8p3' is not an f32"),
        ("f32:-0x1", "'-0x1' is not an f32"),
        (
            "f32:0x100000000",
            "bit pattern 0x100000000 does not fit the 32 bits of f32",
        ),
        (
            "tf32:0x80000",
            "bit pattern 0x80000 does not fit the 19 bits of tf32",
        ),
        ("f8E4M3FN:inf", "f8E4M3FN has no infinity"),
        ("f8E4M3FN:-Infinity", "f8E4M3FN has no infinity"),
    ];
    for (s, msg) in cases {
        assert_eq!(err(s), msg, "{s}");
    }
}

#[test]
fn form_errors() {
    let cases = [
        (
            "5",
            "expected TYPE:VALUE, @FILE.npy or zeros|ones|iota|fill|random|randint|special:TYPE:SHAPE[:...]",
        ),
        (
            "",
            "expected TYPE:VALUE, @FILE.npy or zeros|ones|iota|fill|random|randint|special:TYPE:SHAPE[:...]",
        ),
        ("f12:3", "unknown element type 'f12'"),
        (":3", "missing element type"),
        ("zeros:f12:4", "unknown element type 'f12'"),
        ("zeros::4", "missing element type"),
        ("zeros:f32", "zeros needs a shape: zeros:f32:SHAPE"),
        ("random:f32", "random needs a shape: random:f32:SHAPE"),
        ("zeros:f32:", "empty shape (write N or AxBxC)"),
        (
            "zeros:f32:4x",
            "bad shape '4x': '' is not a dimension (write N or AxBxC)",
        ),
        (
            "zeros:f32:4X4",
            "bad shape '4X4': '4X4' is not a dimension (write N or AxBxC)",
        ),
        (
            "zeros:f32:-4",
            "bad shape '-4': '-4' is not a dimension (write N or AxBxC)",
        ),
        (
            "zeros:f32:4,4",
            "bad shape '4,4': '4,4' is not a dimension (write N or AxBxC)",
        ),
        ("zeros:f32:4:5", "unexpected ':5' after the shape of zeros"),
        ("iota:i32:4:", "unexpected ':' after the shape of iota"),
        ("random:f32:4", "random needs a seed: random:f32:4:SEED"),
        ("random:f32:4:x", "seed 'x' is not a u64"),
        ("random:f32:4:-1", "seed '-1' is not a u64"),
        (
            "random:f32:4:18446744073709551616",
            "seed '18446744073709551616' is not a u64",
        ),
        ("fill:f32:4", "fill needs a value: fill:f32:4:VALUE"),
        ("fill:i8:4:300", "'300' is out of range for i8 (-128..=255)"),
        ("fill:f32:4:x", "'x' is not an f32"),
        (
            "ones:f32:65536x65536",
            "shape '65536x65536' has more than 67108864 (2^26) elements",
        ),
        (
            "ones:f32:16384x16385",
            "shape '16384x16385' has more than 67108864 (2^26) elements",
        ),
        (
            "zeros:i8:4294967296x4294967296",
            "shape '4294967296x4294967296' has more than 67108864 (2^26) elements",
        ),
        (
            "zeros:i8:99999999999999999999999",
            "shape '99999999999999999999999' has more than 67108864 (2^26) elements",
        ),
        ("@", "'@' needs a file name"),
    ];
    for (s, msg) in cases {
        assert_eq!(err(s), msg, "{s}");
    }
    // A zero dimension makes any other dimension fine.
    let a = buffer("zeros:i8:0x4294967296x3");
    assert_eq!((a.shape, a.bits.len()), (vec![0, 4_294_967_296, 3], 0));
}

#[test]
fn generated_buffers() {
    assert_eq!(
        buffer("zeros:f32:2x3"),
        Array {
            elem: Type::F32,
            shape: vec![2, 3],
            bits: vec![0; 6]
        }
    );
    assert_eq!(buffer("zeros:i64:0").shape, [0]);
    assert_eq!(buffer("zeros:i64:0").bits, []);
    assert_eq!(buffer("ones:f16:3").bits, [0x3c00; 3]);
    assert_eq!(buffer("ones:bf16:1").bits, [0x3f80]);
    assert_eq!(buffer("ones:tf32:1").bits, [0x1fc00]);
    assert_eq!(buffer("ones:f8E4M3FN:1").bits, [0x38]);
    assert_eq!(buffer("ones:f8E5M2:1").bits, [0x3c]);
    assert_eq!(buffer("ones:i1:2").bits, [1, 1]);
    assert_eq!(buffer("ones:i32:1x1x1").bits, [1]);
    assert_eq!(buffer("ones:i32:1x1x1").shape, [1, 1, 1]);
    assert_eq!(buffer("iota:i32:2x2").bits, [0, 1, 2, 3]);
    assert_eq!(buffer("iota:i1:4").bits, [0, 1, 0, 1]);
    let i8s = buffer("iota:i8:300").bits;
    assert_eq!((i8s[255], i8s[256], i8s[299]), (255, 0, 43));
    assert_eq!(buffer("iota:f32:3").bits, [0, 0x3f80_0000, 0x4000_0000]);
    // f8E5M2 has 3 significant bits: 9 rounds to 8 (tie to even), 10 is exact.
    let f8 = buffer("iota:f8E5M2:11").bits;
    assert_eq!((f8[8], f8[9], f8[10]), (0x48, 0x48, 0x49));
    assert_eq!(buffer("fill:f32:2:-1.5").bits, [0xbfc0_0000; 2]);
    assert_eq!(buffer("fill:i16:3:-2").bits, [0xfffe; 3]);
    assert_eq!(buffer("fill:f32:1:nan").bits, [0x7fc0_0000]);
    assert_eq!(buffer("fill:i1:2:true").bits, [1, 1]);
}

#[test]
fn splitmix64_reference_values() {
    // The first outputs of SplitMix64 from state 0 (as in the reference C code).
    let mut s = 0;
    assert_eq!(splitmix64(&mut s), 0xe220_a839_7b1d_cdaf);
    assert_eq!(splitmix64(&mut s), 0x6e78_9e6a_a1b9_65f4);
    assert_eq!(splitmix64(&mut s), 0x06c4_5d18_8009_454f);
}

#[test]
fn random_buffers() {
    // Deterministic: the same seed gives the same values, another seed others.
    for ty in [
        "i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64", "tf32", "f8E4M3FN", "f8E5M2",
    ] {
        let a = buffer(&format!("random:{ty}:64x64:7"));
        assert_eq!(a.shape, [64, 64]);
        assert_eq!(a, buffer(&format!("random:{ty}:64x64:0x7")));
        assert_ne!(a.bits, buffer(&format!("random:{ty}:64x64:8")).bits, "{ty}");
    }
    // The documented recipe, for f32 and i32.
    let mut state = 42;
    let x = splitmix64(&mut state);
    let v = (x >> 11) as f64 / (1u64 << 52) as f64 - 1.0;
    assert_eq!(buffer("random:f64:1:42").bits, [v.to_bits()]);
    assert_eq!(
        buffer("random:f32:1:42").bits,
        [u64::from((v as f32).to_bits())]
    );
    let i = ((u128::from(x) * 2001) >> 64) as i64 - 1000;
    assert_eq!(buffer("random:i32:1:42").bits, [u64::from(i as u32)]);
    assert_eq!(buffer("random:i64:1:42").bits, [i as u64]);
    assert_eq!(buffer("random:i16:1:42").bits, [x >> 48]);
    assert_eq!(buffer("random:i8:1:42").bits, [x >> 56]);
    assert_eq!(buffer("random:i1:1:42").bits, [x >> 63]);
    // Ranges and spread.
    let f = buffer("random:f64:10000:1").bits;
    let vals: Vec<f64> = f.iter().map(|&b| f64::from_bits(b)).collect();
    assert!(vals.iter().all(|v| (-1.0..1.0).contains(v)));
    assert!(vals.iter().any(|&v| v < -0.99) && vals.iter().any(|&v| v > 0.99));
    let mean = vals.iter().sum::<f64>() / vals.len() as f64;
    assert!(mean.abs() < 0.05, "{mean}");
    for ty in ["i32", "i64"] {
        let ints: Vec<i64> = buffer(&format!("random:{ty}:10000:3"))
            .bits
            .iter()
            .map(|&b| {
                if ty == "i32" {
                    i64::from(b as u32 as i32)
                } else {
                    b as i64
                }
            })
            .collect();
        assert!(ints.iter().all(|v| (-1000..=1000).contains(v)));
        assert!(ints.iter().any(|&v| v < -990) && ints.iter().any(|&v| v > 990));
    }
    let bytes = buffer("random:i8:10000:5").bits;
    assert!(bytes.iter().all(|&b| b <= 0xff));
    assert!(bytes.iter().any(|&b| b >= 0xf0) && bytes.iter().any(|&b| b < 0x10));
    let bools = buffer("random:i1:1000:5").bits;
    let ones = bools.iter().filter(|&&b| b == 1).count();
    assert!(bools.iter().all(|&b| b <= 1) && (400..600).contains(&ones));
    let tf = buffer("random:tf32:1000:5").bits;
    assert!(tf.iter().all(|&b| b < 1 << 19));
    let e4 = buffer("random:f8E4M3FN:1000:5").bits;
    for b in e4 {
        let v = float::to_f64(FloatKind::F8E4M3FN, b);
        assert!((-1.0..=1.0).contains(&v), "{b:#x}");
    }
}

#[test]
fn npy_files() {
    let a = Array {
        elem: Type::F32,
        shape: vec![2, 2],
        bits: vec![0x3f80_0000, 0, 0, 0x3f80_0000],
    };
    let mut files = HashMap::new();
    files.insert("data/eye.npy", npy::write(&a));
    files.insert("bad.npy", b"\x93NUMPY\x09\x00".to_vec());
    assert_eq!(parse_with("@data/eye.npy", &files), Ok(ArgSpec::Buffer(a)));
    assert_eq!(
        parse_with("@missing.npy", &files).unwrap_err(),
        "bad --arg '@missing.npy': cannot read 'missing.npy': no such file"
    );
    assert_eq!(
        parse_with("@bad.npy", &files).unwrap_err(),
        "bad --arg '@bad.npy': 'bad.npy': byte 6: unsupported .npy format version 9.0 \
         (1.0, 2.0 and 3.0 are read)"
    );
}

#[test]
fn describe_arguments() {
    let cases = [
        ("i32:5", "i32 scalar 5"),
        ("i32:0xffffffff", "i32 scalar -1"),
        ("i8:200", "i8 scalar -56"),
        ("i64:-3", "i64 scalar -3"),
        ("i1:true", "i1 scalar true"),
        ("i1:0", "i1 scalar false"),
        ("f32:1.5", "f32 scalar 1.5"),
        ("f32:0.1", "f32 scalar 0.1"),
        ("f64:0.1", "f64 scalar 0.1"),
        ("f16:-0.5", "f16 scalar -0.5"),
        ("f16:0.1", "f16 scalar 0.0999755859375"),
        ("bf16:inf", "bf16 scalar inf"),
        ("f32:nan", "f32 scalar NaN"),
        ("f8E4M3FN:448", "f8E4M3FN scalar 448"),
        ("zeros:f32:1024", "f32 buffer of shape 1024"),
        ("ones:bf16:64x64", "bf16 buffer of shape 64x64"),
        ("iota:i8:2x0x3", "i8 buffer of shape 2x0x3"),
    ];
    for (s, d) in cases {
        assert_eq!(describe(&p(s).unwrap()), d, "{s}");
    }
    let zero_d = ArgSpec::Buffer(Array {
        elem: Type::I64,
        shape: vec![],
        bits: vec![1],
    });
    assert_eq!(describe(&zero_d), "i64 buffer of shape ()");
}

/// Random strings built from the pieces of the syntax give a value or an error, never
/// a panic. (Strings with more than 4 digits are skipped: they could ask for buffers of
/// up to 2^26 elements, whose limit `form_errors` checks.)
#[test]
fn no_panics_on_random_input() {
    let pieces = [
        "i1",
        "i8",
        "i32",
        "i64",
        "f16",
        "tf32",
        "f8E4M3FN",
        "bf16",
        ":",
        ":",
        ":",
        "x",
        "0x",
        "-",
        "+",
        "1",
        "9",
        "65",
        "1e",
        ".",
        "inf",
        "nan",
        "zeros",
        "ones",
        "iota",
        "fill",
        "random",
        "@",
        "true",
        "\u{e9}",
        " ",
        "ff",
        "99999999999999999999",
        "0",
    ];
    let mut state = 99;
    for _ in 0..20_000 {
        let n = 1 + splitmix64(&mut state) % 8;
        let s: String = (0..n)
            .map(|_| pieces[(splitmix64(&mut state) % pieces.len() as u64) as usize])
            .collect();
        if s.bytes().filter(u8::is_ascii_digit).count() > 4 {
            continue;
        }
        if let Ok(ArgSpec::Buffer(a)) = p(&s) {
            assert_eq!(Array::num_elements(&a.shape), Some(a.bits.len()), "{s}");
        }
    }
}

#[test]
fn randint_buffers_hold_small_integers_in_every_type() {
    let mut state = 9;
    let x = splitmix64(&mut state);
    let v = ((u128::from(x) * 9) >> 64) as i64 - 4;
    assert_eq!(buffer("randint:i32:1:9").bits, [u64::from(v as i32 as u32)]);
    assert_eq!(
        buffer("randint:f32:1:9").bits,
        [u64::from((v as f32).to_bits())]
    );
    for ty in [
        "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64", "tf32", "f8E4M3FN", "f8E5M2",
    ] {
        let a = buffer(&format!("randint:{ty}:2000:3"));
        let elem = elem_from_name(ty).unwrap();
        let vals: Vec<i64> = a
            .bits
            .iter()
            .map(|&b| match float_kind(elem) {
                Some(k) => {
                    let f = float::to_f64(k, b);
                    assert_eq!(f, f.trunc(), "{ty}: {f}");
                    f as i64
                }
                None => {
                    let w = int_width(elem).unwrap();
                    ((b << (64 - w)) as i64) >> (64 - w)
                }
            })
            .collect();
        for want in -4..=4 {
            assert!(vals.contains(&want), "{ty}: {want} missing");
        }
        assert!(vals.iter().all(|v| (-4..=4).contains(v)), "{ty}");
    }
    let bools = buffer("randint:i1:1000:5").bits;
    assert!(bools.iter().all(|&b| b <= 1) && bools.contains(&0) && bools.contains(&1));
    assert_eq!(
        parse("randint:f32:4", &mut |_| unreachable!()).unwrap_err(),
        "bad --arg 'randint:f32:4': randint needs a seed: randint:f32:4:SEED"
    );
}

/// `special` is `random` but where the stream's low two bits are 0, and there every
/// special value of the type turns up: NaNs of both signs, infinities, signed zeros,
/// subnormals, the smallest normal, ±1 for floats; 0, ±1 and the extremes for integers.
#[test]
fn special_buffers_mix_special_values_into_random_ones() {
    let n = 4000;
    let sp = buffer(&format!("special:f32:{n}:11")).bits;
    let rnd = buffer(&format!("random:f32:{n}:11")).bits;
    let mut state = 11;
    let mut replaced = 0;
    for (s, r) in sp.iter().zip(&rnd) {
        if splitmix64(&mut state) & 3 != 0 {
            assert_eq!(s, r);
        } else {
            replaced += 1;
        }
    }
    assert!((800..1200).contains(&replaced), "{replaced}");
    for want in [
        0x7FC0_0000u64,
        0xFFC0_0001,
        0x7F80_0000,
        0xFF80_0000,
        0,
        0x8000_0000,
        1,
        0x807F_FFFF,
        0x0080_0000,
        0x3F80_0000,
        0xBF80_0000,
    ] {
        assert!(sp.contains(&want), "{want:#x} missing");
    }
    let h = buffer(&format!("special:bf16:{n}:2")).bits;
    assert!(h.contains(&0xFFC1) && h.contains(&0x7F80) && h.contains(&0x807F));
    let i = buffer(&format!("special:i8:{n}:3")).bits;
    for want in [0u64, 1, 0xFF, 0x80, 0x7F, 0x81, 0x7E] {
        assert!(i.contains(&want), "i8 {want:#x} missing");
    }
    let b = buffer(&format!("special:i1:{n}:4")).bits;
    assert!(b.iter().all(|&v| v <= 1));
    let f8 = buffer(&format!("special:f8E4M3FN:{n}:5")).bits;
    assert!(f8.contains(&0x7F) && f8.contains(&0x80));
}

/// 13.3's element types: scalars of all three (rounded as `ftof` rounds), buffers of
/// f8E8M0FNU, and 4-bit buffers refused by name.
#[test]
fn types_of_release_13_3() {
    let mut no_files = |_: &Path| -> std::io::Result<Vec<u8>> { unreachable!() };
    let scalar = |s: &str, no_files: &mut dyn FnMut(&Path) -> std::io::Result<Vec<u8>>| match parse(
        s, no_files,
    ) {
        Ok(ArgSpec::Scalar { bits, .. }) => bits,
        other => panic!("{s}: {other:?}"),
    };
    // 2^0 is 127; 1.5 is halfway between 1 and 2 and rounds to even (2: 128).
    assert_eq!(scalar("f8E8M0FNU:1", &mut no_files), 127);
    assert_eq!(scalar("f8E8M0FNU:1.5", &mut no_files), 128);
    assert_eq!(scalar("f4E2M1FN:-6", &mut no_files), 0xF);
    assert_eq!(scalar("f4E2M1FN:0.5", &mut no_files), 0x1);
    assert_eq!(scalar("i4:-8", &mut no_files), 0x8);
    let e = parse("i4:16", &mut no_files).unwrap_err();
    assert!(e.starts_with("bad --arg 'i4:16': "), "{e}");
    match parse("ones:f8E8M0FNU:4", &mut no_files) {
        Ok(ArgSpec::Buffer(a)) => assert_eq!(a.bits, vec![127; 4]),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        parse("zeros:f4E2M1FN:8", &mut no_files).unwrap_err(),
        "bad --arg 'zeros:f4E2M1FN:8': buffers of 'f4E2M1FN' are not supported: the interpreter has no 4-bit memory (pass a scalar f4E2M1FN:VALUE, or an i8 buffer to unpack)"
    );
}

/// f8E8M0FNU (the MX scale type of `mmaf_scaled`): scalars are powers of two, 0 rounds to
/// the smallest value 2^-127 and negatives to NaN (LLVM's rules); a `|u1` .npy buffer
/// reinterprets to it byte for byte.
#[test]
fn e8m0_scalars_and_buffers() {
    let bits = |t: &str| match parse(t, &mut |_| unreachable!()).unwrap() {
        ArgSpec::Scalar { elem, bits } => {
            assert_eq!(elem, Type::F8E8M0FNU);
            bits
        }
        ArgSpec::Buffer(_) => panic!("{t}: a buffer"),
    };
    assert_eq!(bits("f8E8M0FNU:1"), 127);
    assert_eq!(bits("f8E8M0FNU:0.25"), 125);
    assert_eq!(bits("f8E8M0FNU:0"), 0);
    assert_eq!(bits("f8E8M0FNU:-2"), 0xff);
    assert_eq!(bits("f8E8M0FNU:0x80"), 0x80);
    let a = npy::Array {
        elem: Type::I8,
        shape: vec![3],
        bits: vec![0, 127, 0xff],
    };
    let e = a.reinterpret(Type::F8E8M0FNU).unwrap();
    assert_eq!((e.elem, e.bits), (Type::F8E8M0FNU, vec![0, 127, 0xff]));
    assert_eq!(npy::dtype_of(Type::F8E8M0FNU), "|u1");
}

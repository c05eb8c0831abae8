use super::*;
use crate::args::splitmix64;

const ELEMS: [Type; 12] = [
    Type::I1,
    Type::I8,
    Type::I16,
    Type::I32,
    Type::I64,
    Type::F16,
    Type::BF16,
    Type::F32,
    Type::F64,
    Type::TF32,
    Type::F8E4M3FN,
    Type::F8E5M2,
];

/// Concatenate byte strings.
fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

fn arr(elem: Type, shape: &[usize], bits: &[u64]) -> Array {
    Array {
        elem,
        shape: shape.to_vec(),
        bits: bits.to_vec(),
    }
}

/// A valid random bit pattern of `elem`.
fn random_bits(elem: Type, state: &mut u64) -> u64 {
    let x = splitmix64(state);
    match elem {
        Type::I1 => x & 1,
        Type::I8 | Type::F8E4M3FN | Type::F8E5M2 => x & 0xff,
        Type::I16 | Type::F16 | Type::BF16 => x & 0xffff,
        Type::I32 | Type::F32 => x & 0xffff_ffff,
        Type::TF32 => x & 0x7_ffff,
        _ => x,
    }
}

/// The element type a written file of `elem` reads back as.
fn read_back_type(elem: Type) -> Type {
    match elem {
        Type::BF16 => Type::I16,
        Type::TF32 => Type::I32,
        Type::F8E4M3FN | Type::F8E5M2 => Type::I8,
        t => t,
    }
}

#[test]
fn round_trip_every_type_and_shape() {
    let shapes: [&[usize]; 8] = [
        &[],
        &[0],
        &[1],
        &[7],
        &[2, 3],
        &[2, 0, 3],
        &[3, 1, 4, 2],
        &[130],
    ];
    let mut state = 1;
    for elem in ELEMS {
        for shape in shapes {
            let n = Array::num_elements(shape).unwrap();
            let bits: Vec<u64> = (0..n).map(|_| random_bits(elem, &mut state)).collect();
            let a = arr(elem, shape, &bits);
            let file = write(&a);
            // NumPy's layout: version 1.0, data aligned to 64 bytes after a '\n'.
            assert_eq!(&file[..8], b"\x93NUMPY\x01\x00");
            let hlen = usize::from(u16::from_le_bytes([file[8], file[9]]));
            assert_eq!((10 + hlen) % 64, 0, "{elem:?} {shape:?}");
            assert_eq!(file[10 + hlen - 1], b'\n');
            let descr = format!("'descr': '{}'", dtype_of(elem));
            assert!(
                String::from_utf8_lossy(&file[10..10 + hlen]).contains(&descr),
                "{elem:?}"
            );
            let back = read(&file).unwrap_or_else(|e| panic!("{elem:?} {shape:?}: {e}"));
            assert_eq!(back.elem, read_back_type(elem));
            assert_eq!(back.reinterpret(elem).unwrap(), a, "{elem:?} {shape:?}");
        }
    }
}

#[test]
fn write_ignores_bits_above_the_width() {
    let a = arr(Type::I8, &[2], &[0x1ff, 0xffff_ffff_ffff_ff80]);
    assert_eq!(read(&write(&a)).unwrap().bits, [0xff, 0x80]);
    let a = arr(Type::I1, &[2], &[2, 3]);
    assert_eq!(read(&write(&a)).unwrap().bits, [0, 1]);
}

#[test]
fn dtypes_written() {
    let table = [
        (Type::I1, "|b1"),
        (Type::I8, "|i1"),
        (Type::I16, "<i2"),
        (Type::I32, "<i4"),
        (Type::I64, "<i8"),
        (Type::F16, "<f2"),
        (Type::BF16, "<u2"),
        (Type::F32, "<f4"),
        (Type::F64, "<f8"),
        (Type::TF32, "<u4"),
        (Type::F8E4M3FN, "|u1"),
        (Type::F8E5M2, "|u1"),
    ];
    for (t, d) in table {
        assert_eq!(dtype_of(t), d);
    }
}

#[test]
fn tf32_is_written_as_f32_bits() {
    // tf32 1.0 is 0 01111111 0000000000 = 0x1fc00; as f32 bits 0x3f800000.
    let file = write(&arr(Type::TF32, &[1], &[0x1fc00]));
    assert_eq!(&file[file.len() - 4..], &0x3f80_0000u32.to_le_bytes());
}

/// The bytes NumPy 2.4 `np.save` writes (header padded with the growth space for the
/// first dimension and to a multiple of 64 bytes).
#[test]
fn write_is_byte_identical_to_numpy() {
    // np.save(f, np.zeros((2, 3), np.float32))
    let expected = cat(&[
        b"\x93NUMPY\x01\x00v\x00",
        b"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
        &[b' '; 58],
        b"\n",
        &[0; 24],
    ]);
    assert_eq!(write(&arr(Type::F32, &[2, 3], &[0; 6])), expected);
    // np.save(f, np.array(5, np.int16))
    let expected = cat(&[
        b"\x93NUMPY\x01\x00v\x00",
        b"{'descr': '<i2', 'fortran_order': False, 'shape': (), }",
        &[b' '; 62],
        b"\n\x05\x00",
    ]);
    assert_eq!(write(&arr(Type::I16, &[], &[5])), expected);
    // np.save(f, np.zeros(0, np.bool_))
    let expected = cat(&[
        b"\x93NUMPY\x01\x00v\x00",
        b"{'descr': '|b1', 'fortran_order': False, 'shape': (0,), }",
        &[b' '; 60],
        b"\n",
    ]);
    assert_eq!(write(&arr(Type::I1, &[0], &[])), expected);
    // np.save(f, np.array([1.5, -2.0], np.float16))
    let expected = cat(&[
        b"\x93NUMPY\x01\x00v\x00",
        b"{'descr': '<f2', 'fortran_order': False, 'shape': (2,), }",
        &[b' '; 60],
        b"\n\x00>\x00\xc0",
    ]);
    assert_eq!(write(&arr(Type::F16, &[2], &[0x3e00, 0xc000])), expected);
    // np.save(f, np.zeros((1,) * 64)): the header takes 0x136 = 310 bytes.
    let ones = vec!["1"; 64].join(", ");
    let dict = format!("{{'descr': '<f8', 'fortran_order': False, 'shape': ({ones}), }}");
    let expected = cat(&[
        b"\x93NUMPY\x01\x006\x01",
        dict.as_bytes(),
        &[b' '; 64],
        b"\n",
        &[0; 8],
    ]);
    assert_eq!(write(&arr(Type::F64, &[1; 64], &[0])), expected);
}

#[test]
fn write_uses_version_2_for_huge_headers() {
    // 25000 dimensions of 1: the shape alone takes 75000 bytes.
    let a = arr(Type::I32, &[1; 25_000], &[42]);
    let file = write(&a);
    assert_eq!(&file[..8], b"\x93NUMPY\x02\x00");
    let hlen = u32::from_le_bytes(file[8..12].try_into().unwrap()) as usize;
    assert!(hlen > 65_535);
    assert_eq!((12 + hlen) % 64, 0);
    assert_eq!(read(&file).unwrap(), a);
}

/// Files as NumPy writes them, from `np.save` output (NumPy 2.4 unless noted).
#[test]
fn reads_numpy_files() {
    let v1 = |dict: &[u8], pad: usize, data: &[u8]| {
        cat(&[
            b"\x93NUMPY\x01\x00v\x00",
            dict,
            &vec![b' '; pad],
            b"\n",
            data,
        ])
    };
    // np.array([[1, 2, 3], [4, 5, 6]], dtype='>i2')
    let f = v1(
        b"{'descr': '>i2', 'fortran_order': False, 'shape': (2, 3), }",
        58,
        b"\x00\x01\x00\x02\x00\x03\x00\x04\x00\x05\x00\x06",
    );
    assert_eq!(
        read(&f).unwrap(),
        arr(Type::I16, &[2, 3], &[1, 2, 3, 4, 5, 6])
    );
    // np.array([True, False, True])
    let f = v1(
        b"{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }",
        60,
        b"\x01\x00\x01",
    );
    assert_eq!(read(&f).unwrap(), arr(Type::I1, &[3], &[1, 0, 1]));
    // np.array(7, np.int64)
    let f = v1(
        b"{'descr': '<i8', 'fortran_order': False, 'shape': (), }",
        62,
        b"\x07\0\0\0\0\0\0\0",
    );
    assert_eq!(read(&f).unwrap(), arr(Type::I64, &[], &[7]));
    // np.zeros((0, 3), np.float32)
    let f = v1(
        b"{'descr': '<f4', 'fortran_order': False, 'shape': (0, 3), }",
        58,
        b"",
    );
    assert_eq!(read(&f).unwrap(), arr(Type::F32, &[0, 3], &[]));
    // np.asfortranarray(np.array([[1, 2, 3], [4, 5, 6]], dtype=np.int32))
    let f = v1(
        b"{'descr': '<i4', 'fortran_order': True, 'shape': (2, 3), }",
        59,
        b"\x01\0\0\0\x04\0\0\0\x02\0\0\0\x05\0\0\0\x03\0\0\0\x06\0\0\0",
    );
    assert_eq!(
        read(&f).unwrap(),
        arr(Type::I32, &[2, 3], &[1, 2, 3, 4, 5, 6])
    );
    // np.asfortranarray(np.arange(24, dtype='<u2').reshape(2, 3, 4))
    let data: Vec<u8> = [
        0u16, 12, 4, 16, 8, 20, 1, 13, 5, 17, 9, 21, 2, 14, 6, 18, 10, 22, 3, 15, 7, 19, 11, 23,
    ]
    .iter()
    .flat_map(|v| v.to_le_bytes())
    .collect();
    let f = v1(
        b"{'descr': '<u2', 'fortran_order': True, 'shape': (2, 3, 4), }",
        56,
        &data,
    );
    let iota: Vec<u64> = (0..24).collect();
    assert_eq!(read(&f).unwrap(), arr(Type::I16, &[2, 3, 4], &iota));
    // np.array([0.1, -0.0, np.inf, np.nan], dtype='>f8')
    let f = v1(
        b"{'descr': '>f8', 'fortran_order': False, 'shape': (4,), }",
        60,
        b"?\xb9\x99\x99\x99\x99\x99\x9a\x80\0\0\0\0\0\0\0\x7f\xf0\0\0\0\0\0\0\x7f\xf8\0\0\0\0\0\0",
    );
    let bits = [0.1f64, -0.0, f64::INFINITY, f64::NAN].map(f64::to_bits);
    assert_eq!(read(&f).unwrap(), arr(Type::F64, &[4], &bits));
    // np.array([-1, 200], np.uint8), np.array([-1], np.int8)
    let f = v1(
        b"{'descr': '|u1', 'fortran_order': False, 'shape': (2,), }",
        60,
        b"\xff\xc8",
    );
    assert_eq!(read(&f).unwrap(), arr(Type::I8, &[2], &[0xff, 0xc8]));
    // np.array([-2], '>i8')
    let f = v1(
        b"{'descr': '>i8', 'fortran_order': False, 'shape': (1,), }",
        60,
        b"\xff\xff\xff\xff\xff\xff\xff\xfe",
    );
    assert_eq!(read(&f).unwrap(), arr(Type::I64, &[1], &[(-2i64) as u64]));
    // np.array([1.0, -2.5], '>f4'), np.array([1.0], '>f2')
    let f = v1(
        b"{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }",
        60,
        b"\x3f\x80\0\0\xc0\x20\0\0",
    );
    assert_eq!(
        read(&f).unwrap(),
        arr(Type::F32, &[2], &[0x3f80_0000, 0xc020_0000])
    );
    let f = v1(
        b"{'descr': '>f2', 'fortran_order': False, 'shape': (1,), }",
        60,
        b"\x3c\x00",
    );
    assert_eq!(read(&f).unwrap(), arr(Type::F16, &[1], &[0x3c00]));
}

#[test]
fn reads_older_and_other_writers_headers() {
    // NumPy before 1.14 aligned the data to 16 bytes: header length 0x46 = 70.
    let f = cat(&[
        b"\x93NUMPY\x01\x00F\x00",
        b"{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }",
        &[b' '; 12],
        b"\n",
        b"\0\0\x80\x3f\0\0\0\x40\0\0\x40\x40",
    ]);
    assert_eq!(
        read(&f).unwrap(),
        arr(Type::F32, &[3], &[0x3f80_0000, 0x4000_0000, 0x4040_0000])
    );
    // NumPy 1.x (before the growth space) with 64-byte alignment; Python 2 long ints.
    let f = cat(&[
        b"\x93NUMPY\x01\x00v\x00",
        b"{'descr': '<i8', 'fortran_order': False, 'shape': (2L, 1L), }",
        &[b' '; 56],
        b"\n",
        b"\x01\0\0\0\0\0\0\0\x02\0\0\0\0\0\0\0",
    ]);
    assert_eq!(read(&f).unwrap(), arr(Type::I64, &[2, 1], &[1, 2]));
    // Version 2.0 (4-byte header length), as write_array_header_2_0 writes it.
    let f = cat(&[
        b"\x93NUMPY\x02\x00t\x00\x00\x00",
        b"{'descr': '<i2', 'fortran_order': False, 'shape': (2,), }",
        &[b' '; 58],
        b"\n",
        b"\x05\x00\xfb\xff",
    ]);
    assert_eq!(read(&f).unwrap(), arr(Type::I16, &[2], &[5, 0xfffb]));
    // Version 3.0 (UTF-8 header), written by hand: double quotes, other key order, no
    // trailing comma, other whitespace in the padding (57 + 13 = 70 = 0x46 bytes).
    let f = cat(&[
        b"\x93NUMPY\x03\x00\x46\x00\x00\x00",
        b"{\"shape\": (1, 2), \"fortran_order\": False, \"descr\": \"<u4\"}",
        b"\t      \r   \n ",
        b"\x01\0\0\0\xff\xff\xff\xff",
    ]);
    assert_eq!(
        read(&f).unwrap(),
        arr(Type::I32, &[1, 2], &[1, 0xffff_ffff])
    );
    // A UTF-8 character in the padding is not whitespace.
    let f = cat(&[
        b"\x93NUMPY\x03\x00\x46\x00\x00\x00",
        b"{\"shape\": (1, 2), \"fortran_order\": False, \"descr\": \"<u4\"}",
        "  \u{e9}         ".as_bytes(),
        b"\x01\0\0\0\xff\xff\xff\xff",
    ]);
    let e = read(&f).unwrap_err();
    assert_eq!(e.offset(), 12 + 57 + 2, "{e}");
    assert!(e.to_string().contains("after the header dict"), "{e}");
}

#[test]
fn reads_ml_dtypes_spellings() {
    let file = |descr: &str, data: &[u8]| {
        let dict = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': (1,), }}");
        cat(&[b"\x93NUMPY\x01\x00\x3e\x00", dict.as_bytes(), b"\n", data])
    };
    let cases: [(&str, &[u8], Type, u64); 6] = [
        ("<V2", b"\x80\x3f", Type::BF16, 0x3f80),
        ("bfloat16", b"\x80\x3f", Type::BF16, 0x3f80),
        ("float8_e4m3fn", b"\x38", Type::F8E4M3FN, 0x38),
        ("float8_e5m2", b"\x3c", Type::F8E5M2, 0x3c),
        ("<f1", b"\x3c", Type::F8E5M2, 0x3c),
        ("|f1", b"\x3c", Type::F8E5M2, 0x3c),
    ];
    for (descr, data, elem, bits) in cases {
        let mut f = file(descr, data);
        // Fix the header length for the descr's size.
        let hlen = f.len() - 10 - data.len();
        f[8..10].copy_from_slice(&u16::try_from(hlen).unwrap().to_le_bytes());
        assert_eq!(read(&f).unwrap(), arr(elem, &[1], &[bits]), "{descr}");
    }
}

#[test]
fn one_byte_types_take_any_byte_order() {
    for descr in [
        "|i1", "<i1", ">i1", "|u1", "<u1", ">u1", "|b1", "<b1", ">b1",
    ] {
        let dict = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': (), }}");
        let hlen = u16::try_from(dict.len() + 1).unwrap().to_le_bytes();
        let f = cat(&[b"\x93NUMPY\x01\x00", &hlen, dict.as_bytes(), b"\n\x02"]);
        let a = read(&f).unwrap();
        if descr.ends_with("b1") {
            // NumPy's truthiness: any nonzero byte is true.
            assert_eq!(a, arr(Type::I1, &[], &[1]));
        } else {
            assert_eq!(a, arr(Type::I8, &[], &[2]));
        }
    }
}

/// A version 1.0 file with the header `dict` and the data `data`.
fn file_with(dict: &str, data: &[u8]) -> Vec<u8> {
    let hlen = u16::try_from(dict.len() + 1).unwrap().to_le_bytes();
    cat(&[b"\x93NUMPY\x01\x00", &hlen, dict.as_bytes(), b"\n", data])
}

/// The error reading `dict` (with `data`), and its offset within the dict.
fn header_error(dict: &str, data: &[u8]) -> (NpyError, usize) {
    let e = read(&file_with(dict, data)).unwrap_err();
    let off = e.offset() - 10;
    (e, off)
}

#[test]
fn prefix_errors() {
    let good = write(&arr(Type::F32, &[2], &[0, 0]));
    assert_eq!(
        read(b""),
        Err(NpyError::Truncated {
            offset: 0,
            what: "magic string"
        })
    );
    assert_eq!(read(b"\x93NUM").unwrap_err().offset(), 0);
    assert_eq!(
        read(b"\x93NUMPZ\x01\x00"),
        Err(NpyError::BadMagic { offset: 5 })
    );
    assert_eq!(read(b"PK\x03\x04"), Err(NpyError::BadMagic { offset: 0 }));
    assert_eq!(
        read(b"\x93NUMPY\x01"),
        Err(NpyError::Truncated {
            offset: 6,
            what: "format version"
        })
    );
    for (major, minor) in [(1, 1), (4, 0), (0, 0), (2, 1)] {
        let mut f = good.clone();
        f[6] = major;
        f[7] = minor;
        assert_eq!(
            read(&f),
            Err(NpyError::UnsupportedVersion {
                offset: 6,
                major,
                minor
            })
        );
    }
    assert_eq!(
        read(b"\x93NUMPY\x02\x00\x10\x00\x00"),
        Err(NpyError::Truncated {
            offset: 8,
            what: "header length"
        })
    );
    assert_eq!(
        read(&good[..100]),
        Err(NpyError::Truncated {
            offset: 10,
            what: "header"
        })
    );
    // A 4 GiB header length in a short file.
    assert_eq!(
        read(b"\x93NUMPY\x02\x00\xff\xff\xff\xff{}"),
        Err(NpyError::Truncated {
            offset: 12,
            what: "header"
        })
    );
}

#[test]
fn header_errors() {
    let ok_data = [0u8; 4];
    let cases: &[(&str, usize, &str)] = &[
        ("", 1, "not a dict"),
        ("[1, 2]", 0, "not a dict"),
        (
            "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), } x",
            58,
            "after the header",
        ),
        (
            "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), ",
            57,
            "end of the header",
        ),
        ("{'descr' '<f4'}", 9, "expected ':'"),
        ("{'descr': '<f4'x}", 15, "after a literal"),
        (
            "{'descr': '<f4' 'shape': (1,)}",
            16,
            "expected ',' or '}' in a dict",
        ),
        (
            "{'descr': '<f4', 'fortran_order': False 'shape': (1,)}",
            40,
            "expected ',' or '}'",
        ),
        (
            "{'descr': '<f4, 'fortran_order': False}",
            17,
            "after a literal",
        ),
        ("{'descr': '<f4", 10, "unterminated string"),
        ("{'descr': '<\\f4'}", 12, "escape"),
        (
            "{'descr': '<f4', 'fortran_order': Maybe, 'shape': (1,)}",
            34,
            "unexpected name 'Maybe'",
        ),
        (
            "{'descr': '<f4', 'fortran_order': False, 'shape': (1 2)}",
            53,
            "expected ',' or ')'",
        ),
        (
            "{'descr': '<f4', 'fortran_order': False}",
            0,
            "no 'shape' key",
        ),
        (
            "{'fortran_order': False, 'shape': (1,)}",
            0,
            "no 'descr' key",
        ),
        (
            "{'descr': '<f4', 'shape': (1,)}",
            0,
            "no 'fortran_order' key",
        ),
        (
            "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}",
            56,
            "unexpected key 'x'",
        ),
        (
            "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,)}",
            17,
            "duplicate key",
        ),
        ("{1: '<f4'}", 1, "a key is an integer"),
        (
            "{'descr': 4, 'fortran_order': False, 'shape': (1,)}",
            10,
            "'descr' is an integer",
        ),
        (
            "{'descr': '<f4', 'fortran_order': 0, 'shape': (1,)}",
            34,
            "'fortran_order' is an integer",
        ),
        (
            "{'descr': '<f4', 'fortran_order': False, 'shape': [1]}",
            50,
            "'shape' is a list",
        ),
        (
            "{'descr': '<f4', 'fortran_order': False, 'shape': (1)}",
            50,
            "'shape' is an integer",
        ),
        (
            "{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}",
            51,
            "negative dimension",
        ),
        (
            "{'descr': '<f4', 'fortran_order': False, 'shape': ('1',)}",
            51,
            "a dimension is a string",
        ),
    ];
    for &(dict, off, text) in cases {
        let (e, at) = header_error(dict, &ok_data);
        assert!(matches!(e, NpyError::BadHeader { .. }), "{dict}: {e}");
        assert_eq!(at, off, "{dict}: {e}");
        assert!(e.to_string().contains(text), "{dict}: {e}");
        assert!(
            e.to_string()
                .starts_with(&format!("byte {}: bad .npy header: ", off + 10))
        );
    }
    // Integers too large for u128 and for usize.
    let (e, at) = header_error(
        "{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000000000000000000000000000000000000,)}",
        &ok_data,
    );
    assert_eq!(
        (at, e.to_string().contains("integer too large")),
        (51, true),
        "{e}"
    );
    let (e, at) = header_error(
        "{'descr': '<f4', 'fortran_order': False, 'shape': (100000000000000000000000,)}",
        &ok_data,
    );
    assert_eq!(
        (at, e.to_string().contains("dimension too large")),
        (51, true),
        "{e}"
    );
    // More elements than the address space.
    let (e, at) = header_error(
        "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296)}",
        &ok_data,
    );
    assert_eq!(
        (at, e.to_string().contains("more elements")),
        (50, true),
        "{e}"
    );
    // Nesting.
    let deep = format!("{{'descr': {}1{}}}", "(".repeat(100), ")".repeat(100));
    let (e, _) = header_error(&deep, &ok_data);
    assert!(e.to_string().contains("nested too deeply"), "{e}");
    // A version 3.0 header that is not UTF-8.
    let mut f = file_with(
        "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }",
        &ok_data,
    );
    f[6] = 3;
    f.splice(8..10, [f[8], f[9], 0, 0]);
    f[14] = 0xff;
    let e = read(&f).unwrap_err();
    assert_eq!(e.offset(), 14, "{e}");
    assert!(e.to_string().contains("not UTF-8"), "{e}");
}

#[test]
fn dtype_errors() {
    for descr in [
        "<c8", "<U3", "|S4", "<M8[ns]", "<f16", "<i3", "|f4", "=f4", "<V4", "|V2", "<b2", "f4", "",
        "<f4 ",
    ] {
        let dict = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': (), }}");
        let (e, at) = header_error(&dict, &[0; 4]);
        assert_eq!(
            e,
            NpyError::UnknownDtype {
                offset: 20,
                descr: descr.to_string()
            }
        );
        assert_eq!(at, 10);
        assert_eq!(
            e.to_string(),
            format!("byte 20: unsupported dtype '{descr}'")
        );
    }
    let (e, _) = header_error(
        "{'descr': '|O', 'fortran_order': False, 'shape': (1,), }",
        &[0; 8],
    );
    assert_eq!(
        e,
        NpyError::Unsupported {
            offset: 20,
            what: "object arrays"
        }
    );
    assert_eq!(e.to_string(), "byte 20: object arrays are not supported");
    let (e, _) = header_error(
        "{'descr': [('a', '<f4'), ('b', '<i4')], 'fortran_order': False, 'shape': (1,), }",
        &[0; 8],
    );
    assert_eq!(
        e,
        NpyError::Unsupported {
            offset: 20,
            what: "structured dtypes"
        }
    );
    // Non-ASCII descr bytes are escaped in the message.
    let mut f = file_with(
        "{'descr': '<fX', 'fortran_order': False, 'shape': (), }",
        &[0; 4],
    );
    f[23] = 0xe9;
    let e = read(&f).unwrap_err();
    assert_eq!(e.to_string(), "byte 20: unsupported dtype '<f\\xe9'");
}

#[test]
fn data_length_errors() {
    let dict = "{'descr': '<i2', 'fortran_order': False, 'shape': (2, 3), }";
    let data_start = 10 + dict.len() + 1;
    for len in [0, 1, 11, 13, 24] {
        let e = read(&file_with(dict, &vec![0; len])).unwrap_err();
        assert_eq!(
            e,
            NpyError::DataLength {
                offset: data_start,
                expected: 12,
                found: len
            }
        );
        assert_eq!(
            e.to_string(),
            format!(
                "byte {data_start}: the header calls for 12 bytes of data but the file has {len}"
            )
        );
    }
    assert!(read(&file_with(dict, &[0; 12])).is_ok());
    // A huge shape whose size fits the address space but not the file.
    let dict = "{'descr': '<f8', 'fortran_order': True, 'shape': (1000000, 1000000, 1000), }";
    assert!(matches!(
        read(&file_with(dict, &[0; 8])),
        Err(NpyError::DataLength {
            expected: 8_000_000_000_000_000,
            found: 8,
            ..
        })
    ));
}

#[test]
fn error_is_std_error() {
    let e: Box<dyn std::error::Error> = Box::new(NpyError::BadMagic { offset: 0 });
    assert_eq!(
        e.to_string(),
        "byte 0: not a .npy file (it does not start with \\x93NUMPY)"
    );
}

#[test]
fn fortran_order_shapes() {
    // 0-d, 1-d and empty Fortran arrays need no reordering; a 2x3x2 one does.
    for shape in [
        vec![],
        vec![3],
        vec![0, 4],
        vec![2, 3, 2],
        vec![1, 5],
        vec![4, 1, 3],
    ] {
        let n = Array::num_elements(&shape).unwrap();
        let dims: Vec<String> = shape.iter().map(|d| format!("{d}, ")).collect();
        let dict = format!(
            "{{'descr': '<u2', 'fortran_order': True, 'shape': ({}), }}",
            dims.concat()
        );
        // Element (i0, i1, ...) holds its row-major index; store it column-major.
        let mut data = vec![0u8; 2 * n];
        for c in 0..n {
            let mut rest = c;
            let mut idx = vec![0; shape.len()];
            for d in (0..shape.len()).rev() {
                idx[d] = rest % shape[d];
                rest /= shape[d];
            }
            let mut f = 0;
            for d in (0..shape.len()).rev() {
                f = f * shape[d] + idx[d];
            }
            data[2 * f..2 * f + 2].copy_from_slice(&(c as u16).to_le_bytes());
        }
        let a = read(&file_with(&dict, &data)).unwrap();
        let iota: Vec<u64> = (0..n as u64).collect();
        assert_eq!(a, arr(Type::I16, &shape, &iota), "{shape:?}");
    }
}

#[test]
fn reinterpret() {
    let a = arr(Type::I16, &[2], &[0x3f80, 0xc000]);
    let b = a.clone().reinterpret(Type::BF16).unwrap();
    assert_eq!(b, arr(Type::BF16, &[2], &[0x3f80, 0xc000]));
    assert_eq!(b.clone().reinterpret(Type::I16).unwrap(), a);
    assert_eq!(b.clone().reinterpret(Type::BF16).unwrap(), b);
    let a = arr(Type::I32, &[1], &[0x3f80_0000]);
    assert_eq!(
        a.reinterpret(Type::TF32).unwrap(),
        arr(Type::TF32, &[1], &[0x1fc00])
    );
    assert_eq!(
        arr(Type::TF32, &[1], &[0x1fc00])
            .reinterpret(Type::I32)
            .unwrap(),
        arr(Type::I32, &[1], &[0x3f80_0000])
    );
    let e = arr(Type::I32, &[2], &[0, 0x3f80_0001])
        .reinterpret(Type::TF32)
        .unwrap_err();
    assert_eq!(
        e,
        "element 1 (raw bits 0x3f800001) is not a valid tf32 pattern"
    );
    assert_eq!(
        arr(Type::I8, &[1], &[1]).reinterpret(Type::I1).unwrap(),
        arr(Type::I1, &[1], &[1])
    );
    assert!(arr(Type::I8, &[1], &[2]).reinterpret(Type::I1).is_err());
    assert_eq!(
        arr(Type::F16, &[1], &[0])
            .reinterpret(Type::BF16)
            .unwrap_err(),
        "cannot reinterpret f16 as bf16: one of them must be an integer type"
    );
    assert_eq!(
        arr(Type::I32, &[1], &[0])
            .reinterpret(Type::F16)
            .unwrap_err(),
        "cannot reinterpret i32 (4 bytes) as f16 (2 bytes)"
    );
    assert_eq!(
        arr(Type::F32, &[1], &[0x4000_0000])
            .reinterpret(Type::I32)
            .unwrap(),
        arr(Type::I32, &[1], &[0x4000_0000])
    );
}

/// Apply 1 to 4 random edits (overwrite, insert, remove, truncate) to `f`.
fn mutate(f: &mut Vec<u8>, state: &mut u64) {
    let interesting = b"\x00\xff'\"(),:[]{}-0123456789LTrueFalse<>|bifuVO \n\\";
    let edits = 1 + splitmix64(state) % 4;
    for _ in 0..edits {
        let r = splitmix64(state);
        let pos = (r >> 8) as usize % (f.len() + 1);
        let byte = if r & 0x10 != 0 {
            interesting[(r >> 40) as usize % interesting.len()]
        } else {
            (r >> 32) as u8
        };
        match r % 8 {
            0..=2 if pos < f.len() => f[pos] = byte,
            3 | 4 => f.insert(pos, byte),
            5 | 6 if pos < f.len() => {
                f.remove(pos);
            }
            _ => f.truncate(pos),
        }
    }
}

/// Every truncation of valid files, and thousands of random mutations, give an array
/// or an error, never a panic.
#[test]
fn no_panics_on_truncation_or_mutation() {
    let mut seeds = vec![
        write(&arr(Type::F32, &[2, 3], &[0x3f80_0000; 6])),
        write(&arr(Type::I1, &[], &[1])),
        write(&arr(Type::I64, &[3, 0, 2], &[])),
        file_with(
            "{'descr': '>u2', 'fortran_order': True, 'shape': (2L, 3, 1), }",
            &[1; 12],
        ),
        file_with(
            "{\"descr\": [('a', '<f4')], \"fortran_order\": False, \"shape\": ((1, 2), [3], {}),}",
            &[],
        ),
    ];
    let mut v3 = write(&arr(Type::F8E5M2, &[4], &[1, 2, 3, 4]));
    v3[6] = 3;
    v3.splice(8..10, [v3[8], v3[9], 0, 0]);
    assert!(read(&v3).is_ok());
    seeds.push(v3);
    for f in &seeds {
        for len in 0..f.len() {
            assert!(read(&f[..len]).is_err());
        }
    }
    let mut state = 0x5eed;
    let mut ok = 0;
    for round in 0..20_000 {
        let seed = &seeds[round % seeds.len()];
        let f = if round % 2 == 0 {
            // Anywhere in the file.
            let mut f = seed.clone();
            mutate(&mut f, &mut state);
            f
        } else {
            // In the header text, with the header length then fixed up (version 1.0),
            // and sometimes in the data too.
            let hlen = usize::from(u16::from_le_bytes([seed[8], seed[9]]));
            let mut header = seed[10..10 + hlen].to_vec();
            let mut data = seed[10 + hlen..].to_vec();
            mutate(&mut header, &mut state);
            if round % 6 == 1 {
                mutate(&mut data, &mut state);
            }
            let hlen = u16::try_from(header.len()).unwrap().to_le_bytes();
            cat(&[b"\x93NUMPY\x01\x00", &hlen, &header, &data])
        };
        if let Ok(a) = read(&f) {
            // Whatever reads must write and read back as the same array.
            assert_eq!(read(&write(&a)).unwrap(), a);
            ok += 1;
        }
    }
    // The mutations reach the data decoding, too.
    assert!(ok > 100, "{ok}");
}

//! The `--arg VALUE` syntax of `tilec run`: one value per kernel parameter.
//!
//! * `TYPE:VALUE`: a scalar, e.g. `i32:5`, `i64:-3`, `i32:0x10`, `i1:true`, `f32:1.5`,
//!   `f16:-0.5`, `f32:1e-3`, `f32:inf`, `f32:-inf`, `f32:nan`, `f32:0x7fc00001`.
//!   - Integers (`i1 i8 i16 i32 i64`): decimal with an optional sign, or hexadecimal
//!     with `0x` (also with a sign); the value must fit the width as a signed or as an
//!     unsigned number (`i8` takes -128..=255) and is stored as its low `width` bits.
//!     `i1` also takes `true` and `false`.
//!   - Floats (`f16 bf16 f32 f64 tf32 f8E4M3FN f8E5M2 f8E8M0FNU`): a decimal literal (`1`, `-2.5`,
//!     `.5`, `1e-3`) correctly rounded to the nearest value of the type, ties to even,
//!     without double rounding ([`tilec_ir::float::parse_decimal_exact`]); values beyond
//!     the largest finite one round to infinity (to NaN for `f8E4M3FN`, which has no
//!     infinity), as LLVM rounds float constants. `inf`, `infinity` and `nan` (any case,
//!     optional sign) give infinity and the default quiet NaN (`f8E4M3FN:inf` is an
//!     error). `f8E8M0FNU` (the MX scale format: powers of two only, unsigned, no zero)
//!     rounds 0 to its smallest value 2^-127 and negative values to NaN, as LLVM does.
//!     As in MLIR's float attributes, `0x...` is the bit pattern itself, which
//!     must fit the type's width (19 bits for `tf32`).
//! * `@PATH`: a buffer read from a `.npy` file (see [`crate::npy`]).
//! * Generated buffers, with `SHAPE` written `N` or `AxBxC` (e.g. `64x64`; dimensions
//!   may be 0; at most [`MAX_ELEMENTS`] elements):
//!   - `zeros:TYPE:SHAPE`, `ones:TYPE:SHAPE`;
//!   - `iota:TYPE:SHAPE`: 0, 1, 2, ... in row-major order; integers wrap modulo
//!     2^width (`i1` alternates 0, 1), floats are the index rounded to the type;
//!   - `fill:TYPE:SHAPE:VALUE`: every element `VALUE`, written as for a scalar;
//!   - `random:TYPE:SHAPE:SEED`: deterministic pseudo-random values; `SEED` is a `u64`
//!     (decimal or `0x` hex). The generator is SplitMix64 ([`splitmix64`]), one output
//!     per element in row-major order. From an output `x`: floats are
//!     `(x >> 11) * 2^-52 - 1`, uniform in [-1, 1) on a grid of 2^-52, rounded to nearest
//!     even into the type (so narrow types can produce exactly 1.0); `i1` is `x >> 63`;
//!     `i8` and `i16` are the top `width` bits of `x` (uniform over the whole width);
//!     `i32` and `i64` are `((x * 2001) >> 64) - 1000` computed in 128 bits (uniform
//!     over [-1000, 1000] up to a bias below 2^-53).
//!   - `randint:TYPE:SHAPE:SEED`: small integers, uniform in [-4, 4] (`i1`: 0 or 1),
//!     from the same SplitMix64 stream as `((x * 9) >> 64) - 4`; in every element type,
//!     floats included. Sums and products of such values are exact in f32 for any
//!     realistic length, so a float reduction or matrix product gives the same bits in
//!     every order: the GPU harness uses them to compare such kernels bit for bit.
//!   - `special:TYPE:SHAPE:SEED`: `random`'s values with one element in four (chosen by
//!     the output's low two bits) replaced by a special value of the type, picked by
//!     the output's next bits ([`special`]): for floats NaNs (quiet, and negative with a
//!     payload), infinities, zeros of both signs, the smallest subnormal, the largest
//!     negative subnormal, the smallest normal, 1 and -1; for integers 0, 1, -1 and the
//!     extremes of the type and their neighbours.
//!
//! Errors are one line, `bad --arg 'TEXT': ...`, naming the part at fault.

use crate::npy::{self, Array};
use crate::{Arg, Memory};
use std::path::Path;
use tilec_ir::float::{self, FloatKind, Round};
use tilec_ir::{Type, TypeData, TypeStore};

/// One `--arg` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgSpec {
    /// A scalar parameter: its element type and bit pattern (as [`npy::Array`] holds
    /// elements).
    Scalar {
        /// The element type.
        elem: Type,
        /// The value's bit pattern in the low bits.
        bits: u64,
    },
    /// A buffer argument: the kernel gets a pointer to its elements.
    Buffer(Array),
}

/// The most elements a generated buffer may have: 2^26. The interpreter holds each element
/// as a `u64` while it builds the buffer and then its bytes twice (the encoded data and the
/// buffer's words), so 2^26 f64 elements peak near 1.5 GB, inside the 2 GB that hostile
/// inputs are tested under (2^28 took over 4 GB).
pub const MAX_ELEMENTS: usize = 1 << 26;

const ELEMS: [(&str, Type); 15] = [
    ("i1", Type::I1),
    ("i8", Type::I8),
    ("i16", Type::I16),
    ("i32", Type::I32),
    ("i64", Type::I64),
    ("f16", Type::F16),
    ("bf16", Type::BF16),
    ("f32", Type::F32),
    ("f64", Type::F64),
    ("tf32", Type::TF32),
    ("f8E4M3FN", Type::F8E4M3FN),
    ("f8E5M2", Type::F8E5M2),
    ("f8E8M0FNU", Type::F8E8M0FNU),
    ("f4E2M1FN", Type::F4E2M1FN),
    ("i4", Type::I4),
];

/// The element type of an MLIR element-type name: "i1", "i8", "i16", "i32", "i64",
/// "f16", "bf16", "f32", "f64", "tf32", "f8E4M3FN", "f8E5M2", and 13.3's "f8E8M0FNU",
/// "f4E2M1FN", "i4" (scalars only for the 4-bit types: the interpreter has no 4-bit
/// memory).
#[must_use]
pub fn elem_from_name(s: &str) -> Option<Type> {
    ELEMS.iter().find(|(n, _)| *n == s).map(|&(_, t)| t)
}

/// The MLIR name of one of the fifteen element types (the inverse of [`elem_from_name`]).
#[must_use]
pub fn elem_name(t: Type) -> Option<&'static str> {
    ELEMS.iter().find(|(_, e)| *e == t).map(|&(n, _)| n)
}

/// The float kind of a float element type.
fn float_kind(t: Type) -> Option<FloatKind> {
    Some(match t {
        Type::F16 => FloatKind::F16,
        Type::BF16 => FloatKind::BF16,
        Type::F32 => FloatKind::F32,
        Type::F64 => FloatKind::F64,
        Type::TF32 => FloatKind::TF32,
        Type::F8E4M3FN => FloatKind::F8E4M3FN,
        Type::F8E5M2 => FloatKind::F8E5M2,
        Type::F8E8M0FNU => FloatKind::F8E8M0FNU,
        Type::F4E2M1FN => FloatKind::F4E2M1FN,
        _ => return None,
    })
}

/// The width of an integer element type.
fn int_width(t: Type) -> Option<u32> {
    Some(match t {
        Type::I1 => 1,
        Type::I8 => 8,
        Type::I16 => 16,
        Type::I32 => 32,
        Type::I64 => 64,
        Type::I4 => 4,
        _ => return None,
    })
}

fn low_mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// One step of SplitMix64 (Steele, Lea and Flood, 2014; the generator of Java's
/// `SplittableRandom`): advances `state` by the golden-ratio increment and returns the
/// mixed output. `random:` buffers start from `state = SEED`.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Parse one `--arg` value (see the module docs for the forms). `read_file` reads the
/// file of an `@PATH` argument.
///
/// # Errors
///
/// A one-line message `bad --arg 'TEXT': ...` naming the part at fault.
pub fn parse(
    s: &str,
    read_file: &mut dyn FnMut(&Path) -> std::io::Result<Vec<u8>>,
) -> Result<ArgSpec, String> {
    parse_inner(s, read_file).map_err(|e| format!("bad --arg '{s}': {e}"))
}

fn parse_inner(
    s: &str,
    read_file: &mut dyn FnMut(&Path) -> std::io::Result<Vec<u8>>,
) -> Result<ArgSpec, String> {
    if let Some(path) = s.strip_prefix('@') {
        if path.is_empty() {
            return Err("'@' needs a file name".to_string());
        }
        let bytes = read_file(Path::new(path)).map_err(|e| format!("cannot read '{path}': {e}"))?;
        let a = npy::read(&bytes).map_err(|e| format!("'{path}': {e}"))?;
        return Ok(ArgSpec::Buffer(a));
    }
    let Some((head, rest)) = s.split_once(':') else {
        return Err(
            "expected TYPE:VALUE, @FILE.npy or zeros|ones|iota|fill|random|randint|special:TYPE:SHAPE[:...]"
                .to_string(),
        );
    };
    let generator = match head {
        "zeros" | "ones" | "iota" | "fill" | "random" | "randint" | "special" => head,
        _ => {
            let elem = parse_elem(head)?;
            let bits = parse_scalar(elem, rest)?;
            return Ok(ArgSpec::Scalar { elem, bits });
        }
    };
    let mut parts = rest.splitn(3, ':');
    let ty = parts.next().unwrap_or("");
    let elem = parse_elem(ty)?;
    if matches!(elem, Type::F4E2M1FN | Type::I4) {
        return Err(format!(
            "buffers of '{ty}' are not supported: the interpreter has no 4-bit memory (pass a scalar {ty}:VALUE, or an i8 buffer to unpack)"
        ));
    }
    let Some(shape_text) = parts.next() else {
        return Err(format!("{generator} needs a shape: {generator}:{ty}:SHAPE"));
    };
    let extra = parts.next();
    let shape = parse_shape(shape_text)?;
    let count = Array::num_elements(&shape).ok_or_else(|| too_many(shape_text))?;
    if count > MAX_ELEMENTS {
        return Err(too_many(shape_text));
    }
    let bits = match (generator, extra) {
        ("fill", None) => {
            return Err(format!("fill needs a value: fill:{ty}:{shape_text}:VALUE"));
        }
        ("random" | "randint" | "special", None) => {
            return Err(format!(
                "{generator} needs a seed: {generator}:{ty}:{shape_text}:SEED"
            ));
        }
        ("zeros" | "ones" | "iota", Some(x)) => {
            return Err(format!("unexpected ':{x}' after the shape of {generator}"));
        }
        ("zeros", None) => vec![0; count],
        ("ones", None) => vec![one(elem); count],
        ("iota", None) => (0..count).map(|i| iota(elem, i)).collect(),
        ("fill", Some(v)) => vec![parse_scalar(elem, v)?; count],
        (_, Some(seed)) => {
            let mut state = parse_u64(seed).ok_or_else(|| format!("seed '{seed}' is not a u64"))?;
            let f = match generator {
                "randint" => randint,
                "special" => special,
                _ => random,
            };
            (0..count)
                .map(|_| f(elem, splitmix64(&mut state)))
                .collect()
        }
        _ => unreachable!("generators are matched above"),
    };
    Ok(ArgSpec::Buffer(Array { elem, shape, bits }))
}

fn too_many(shape: &str) -> String {
    format!("shape '{shape}' has more than {MAX_ELEMENTS} (2^26) elements")
}

fn parse_elem(s: &str) -> Result<Type, String> {
    elem_from_name(s).ok_or_else(|| {
        if s.is_empty() {
            "missing element type".to_string()
        } else {
            format!("unknown element type '{s}'")
        }
    })
}

fn parse_shape(s: &str) -> Result<Vec<usize>, String> {
    if s.is_empty() {
        return Err("empty shape (write N or AxBxC)".to_string());
    }
    s.split('x')
        .map(|d| {
            if !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()) {
                // Too many digits: beyond the element limit anyway.
                Ok(d.parse::<usize>().unwrap_or(usize::MAX))
            } else {
                Err(format!(
                    "bad shape '{s}': '{d}' is not a dimension (write N or AxBxC)"
                ))
            }
        })
        .collect()
}

/// A u64 in decimal or `0x` hex.
fn parse_u64(s: &str) -> Option<u64> {
    parse_magnitude(s).and_then(|m| u64::try_from(m).ok())
}

/// An unsigned decimal or `0x` hexadecimal number, digits only.
fn parse_magnitude(s: &str) -> Option<u128> {
    let (digits, radix) = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => (h, 16),
        None => (s, 10),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    u128::from_str_radix(digits, radix).ok()
}

/// The bits of a scalar `text` of type `elem`.
fn parse_scalar(elem: Type, text: &str) -> Result<u64, String> {
    let name = elem_name(elem).unwrap_or("?");
    if let Some(width) = int_width(elem) {
        return parse_int(width, name, text);
    }
    let kind = float_kind(elem).ok_or("not an element type")?;
    parse_float(kind, text)
}

fn parse_int(width: u32, name: &str, text: &str) -> Result<u64, String> {
    if width == 1 {
        match text {
            "true" => return Ok(1),
            "false" => return Ok(0),
            _ => {}
        }
    }
    let (neg, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let not_int = || format!("'{text}' is not an {name}");
    let mag = parse_magnitude(digits).ok_or_else(not_int)?;
    let min = 1u128 << (width - 1); // the magnitude of the most negative value
    let max = (1u128 << width) - 1;
    let in_range = if neg { mag <= min } else { mag <= max };
    if !in_range {
        return Err(format!(
            "'{text}' is out of range for {name} (-{min}..={max})"
        ));
    }
    let v = if neg {
        (mag as u64).wrapping_neg()
    } else {
        mag as u64
    };
    Ok(v & low_mask(width))
}

fn parse_float(kind: FloatKind, text: &str) -> Result<u64, String> {
    let name = kind.name();
    let not_float = || format!("'{text}' is not an {name}");
    let (neg, body) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let special = body.to_ascii_lowercase();
    if special == "inf" || special == "infinity" {
        if !kind.has_infinity() {
            return Err(format!("{name} has no infinity"));
        }
        let v = if neg {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        return Ok(float::round_from_f64(kind, v));
    }
    if special == "nan" {
        let v = if neg { -f64::NAN } else { f64::NAN };
        return Ok(float::round_from_f64(kind, v));
    }
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        let bits = parse_magnitude(text).ok_or_else(not_float)?;
        let width = kind.bit_width();
        if bits > u128::from(low_mask(width)) {
            return Err(format!(
                "bit pattern 0x{hex} does not fit the {width} bits of {name}"
            ));
        }
        return Ok(bits as u64);
    }
    // `parse_decimal_exact` takes "1e" as "1"; require digits after an exponent mark.
    if let Some(e) = body.find(['e', 'E']) {
        let exp = body[e + 1..].trim_start_matches(['+', '-']);
        if exp.is_empty() {
            return Err(not_float());
        }
    }
    float::parse_decimal_exact(kind, text).ok_or_else(not_float)
}

/// One in the type.
fn one(elem: Type) -> u64 {
    match float_kind(elem) {
        Some(k) => float::round_from_f64(k, 1.0),
        None => 1,
    }
}

/// The `i`th element of `iota`.
fn iota(elem: Type, i: usize) -> u64 {
    match float_kind(elem) {
        Some(k) => float::round_from_f64(k, i as f64),
        None => i as u64 & low_mask(int_width(elem).unwrap_or(64)),
    }
}

/// An element of `random` from one SplitMix64 output.
fn random(elem: Type, x: u64) -> u64 {
    if let Some(k) = float_kind(elem) {
        // (x >> 11) < 2^53: the value is exact in f64, in [-1, 1).
        let v = (x >> 11) as f64 * (1.0 / (1u64 << 52) as f64) - 1.0;
        return float::round_from_f64_with(k, v, Round::NearestEven);
    }
    match int_width(elem) {
        Some(w @ (1 | 8 | 16)) => x >> (64 - w),
        Some(w) => {
            let v = ((u128::from(x) * 2001) >> 64) as i64 - 1000;
            v as u64 & low_mask(w)
        }
        None => 0,
    }
}

/// An element of `special` from one SplitMix64 output: `random`'s value, or (when the
/// output's low two bits are 0) the special value of the type its bits 2.. pick.
fn special(elem: Type, x: u64) -> u64 {
    if x & 3 != 0 {
        return random(elem, x);
    }
    let pick = (x >> 2) as usize;
    if let Some(k) = float_kind(elem) {
        let width = k.bit_width();
        let mant = k.precision() - 1;
        let ieee = matches!(
            k,
            FloatKind::F16 | FloatKind::BF16 | FloatKind::F32 | FloatKind::F64 | FloatKind::TF32
        );
        if ieee {
            let sign = 1u64 << (width - 1);
            let inf = low_mask(width - 1) & !low_mask(mant);
            let quiet = 1u64 << (mant - 1);
            let table = [
                inf | quiet,
                sign | inf | quiet | 1,
                inf,
                sign | inf,
                0,
                sign,
                1,
                sign | low_mask(mant),
                1u64 << mant,
                float::round_from_f64(k, 1.0),
                float::round_from_f64(k, -1.0),
            ];
            return table[pick % table.len()];
        }
        let table = [f64::NAN, 0.0, -0.0, 1.0, -1.0, f64::MIN_POSITIVE, 0.5];
        return float::round_from_f64(k, table[pick % table.len()]);
    }
    let w = int_width(elem).unwrap_or(64);
    let m = low_mask(w);
    let min = 1u64 << (w - 1);
    let table = [0, 1, m, min, min - 1, min + 1, min.wrapping_sub(2)];
    table[pick % table.len()] & m
}

/// An element of `randint` from one SplitMix64 output: an integer in [-4, 4].
fn randint(elem: Type, x: u64) -> u64 {
    if elem == Type::I1 {
        return x >> 63;
    }
    let v = ((u128::from(x) * 9) >> 64) as i64 - 4;
    match float_kind(elem) {
        Some(k) => float::round_from_f64(k, v as f64),
        None => v as u64 & low_mask(int_width(elem).unwrap_or(64)),
    }
}

/// A short description of an argument for messages: "i32 scalar 5", "f32 scalar 1.5",
/// "f32 buffer of shape 1024", "bf16 buffer of shape 64x64", "i8 buffer of shape ()"
/// (0-d).
#[must_use]
pub fn describe(a: &ArgSpec) -> String {
    match a {
        ArgSpec::Scalar { elem, bits } => {
            let name = elem_name(*elem).unwrap_or("?");
            format!("{name} scalar {}", value_text(*elem, *bits))
        }
        ArgSpec::Buffer(a) => {
            let name = elem_name(a.elem).unwrap_or("?");
            let shape = if a.shape.is_empty() {
                "()".to_string()
            } else {
                let dims: Vec<String> = a.shape.iter().map(usize::to_string).collect();
                dims.join("x")
            };
            format!("{name} buffer of shape {shape}")
        }
    }
}

/// An element's value as text: integers signed (`i1` as true/false), f32 and f64 in
/// their shortest round-trip form, the other floats as their exact value.
#[must_use]
pub fn value_text(elem: Type, bits: u64) -> String {
    match (elem, float_kind(elem), int_width(elem)) {
        (Type::I1, _, _) => (bits & 1 == 1).to_string(),
        (_, _, Some(w)) => {
            let sh = 64 - w;
            (((bits << sh) as i64) >> sh).to_string()
        }
        (Type::F32, _, _) => f32::from_bits(bits as u32).to_string(),
        (_, Some(k), _) => float::to_f64(k, bits).to_string(),
        _ => format!("{bits:#x}"),
    }
}

/// A buffer argument of a [`Bound`] kernel call.
#[derive(Clone, Debug)]
pub struct BoundBuffer {
    /// The kernel parameter it is passed to (0-based).
    pub position: usize,
    /// Its index in [`Bound::memory`] (the [`crate::Arg::Buffer`] passed).
    pub index: usize,
    /// The shape the argument gave (`--arg random:f32:64x64:1` gives `[64, 64]`).
    pub shape: Vec<usize>,
    /// The pointee type.
    pub elem: Type,
}

/// Arguments bound to a kernel's parameters: what [`crate::run_with`] takes.
#[derive(Clone, Debug)]
pub struct Bound {
    /// One per parameter.
    pub args: Vec<Arg>,
    /// The buffers, in the order of the buffer arguments.
    pub memory: Memory,
    /// Every buffer argument.
    pub buffers: Vec<BoundBuffer>,
}

impl Bound {
    /// The elements of buffer `b` in `mem` (a copy of [`Bound::memory`] after a run).
    #[must_use]
    pub fn array(&self, types: &TypeStore, mem: &Memory, b: &BoundBuffer) -> Array {
        Array {
            elem: b.elem,
            shape: b.shape.clone(),
            bits: decode_elements(types, b.elem, &mem.bytes(b.index)),
        }
    }
}

/// The elements of type `elem` stored in `bytes` (little-endian, as [`crate::mem`]
/// stores them), as [`Array`] bit patterns.
#[must_use]
pub fn decode_elements(types: &TypeStore, elem: Type, bytes: &[u8]) -> Vec<u64> {
    let size = crate::mem::elem_bytes(types, elem);
    bytes
        .chunks_exact(size)
        .map(|c| {
            let mut b = [0u8; 8];
            b[..size].copy_from_slice(c);
            crate::mem::decode(types, elem, u64::from_le_bytes(b))
        })
        .collect()
}

/// The bytes [`crate::mem`] stores for the elements of `a`.
#[must_use]
pub fn encode_elements(types: &TypeStore, a: &Array) -> Vec<u8> {
    let size = crate::mem::elem_bytes(types, a.elem);
    let mut data = Vec::with_capacity(a.bits.len() * size);
    for b in &a.bits {
        let b = crate::mem::encode(types, a.elem, *b);
        data.extend_from_slice(&b.to_le_bytes()[..size]);
    }
    data
}

/// Why arguments do not bind to a kernel's parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BindError {
    /// The parameter the error is about (0-based, as `--save-args` numbers `argN.npy`), or
    /// `None` when the count is wrong.
    pub position: Option<usize>,
    /// What is wrong, without the argument's number: "the kernel takes 9 arguments and 8
    /// --arg were given", or "is a pointer to f32 (a buffer), but --arg gives an i32 scalar".
    pub message: String,
}

impl std::fmt::Display for BindError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.position {
            Some(p) => write!(f, "argument {p} {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl From<BindError> for String {
    fn from(e: BindError) -> String {
        e.to_string()
    }
}

/// Binds `specs` to the parameters `params` (the entry's argument types): a scalar to a
/// rank-0 tile of its type, a buffer to a rank-0 tile of pointers to its element type
/// (bf16, tf32 and f8 buffers read from `.npy` files as integers of their width are
/// reinterpreted).
///
/// # Errors
///
/// The count is wrong ("the kernel takes N arguments and M --arg were given"), or an
/// argument is of the wrong kind ("argument 0 is a pointer to f32 (a buffer), but --arg
/// gives an i32 scalar"; arguments are numbered from 0).
pub fn bind(types: &TypeStore, params: &[Type], specs: Vec<ArgSpec>) -> Result<Bound, BindError> {
    if params.len() != specs.len() {
        return Err(BindError {
            position: None,
            message: format!(
                "the kernel takes {} argument{} and {} --arg {} given",
                params.len(),
                if params.len() == 1 { "" } else { "s" },
                specs.len(),
                if specs.len() == 1 { "was" } else { "were" }
            ),
        });
    }
    let mut memory = Memory::default();
    let mut args = Vec::with_capacity(params.len());
    let mut buffers = Vec::new();
    for (position, (spec, ty)) in specs.into_iter().zip(params).enumerate() {
        let elem = types.element_type(*ty);
        let pointee = match types.get(elem) {
            TypeData::Ptr(p) => Some(*p),
            _ => None,
        };
        let spec = match (spec, pointee) {
            (ArgSpec::Buffer(arr), Some(p)) if arr.elem != p => match arr.clone().reinterpret(p) {
                Ok(r) => ArgSpec::Buffer(r),
                Err(_) => ArgSpec::Buffer(arr),
            },
            (s, _) => s,
        };
        match (spec, pointee) {
            (ArgSpec::Scalar { elem: e, bits }, None) if e == elem => args.push(Arg::Scalar(bits)),
            (ArgSpec::Buffer(arr), Some(p)) if arr.elem == p => {
                let index = memory.add(encode_elements(types, &arr));
                buffers.push(BoundBuffer {
                    position,
                    index,
                    shape: arr.shape,
                    elem: p,
                });
                args.push(Arg::Buffer(index));
            }
            (spec, _) => {
                let name = |t| types.to_string(t, false);
                // "an i32", "an f16", "a bf16": the article of the type's spoken name.
                let a = |n: &str| {
                    if n.starts_with(['a', 'e', 'i', 'o', 'f', 'h', 'l', 'm', 'n', 'r', 's', 'x']) {
                        format!("an {n}")
                    } else {
                        format!("a {n}")
                    }
                };
                let given = match spec {
                    ArgSpec::Scalar { elem, .. } => format!("{} scalar", a(&name(elem))),
                    ArgSpec::Buffer(arr) => format!("{} buffer", a(&name(arr.elem))),
                };
                let want = match pointee {
                    Some(p) => format!("a pointer to {} (a buffer)", name(p)),
                    None => format!("{} scalar", a(&name(elem))),
                };
                return Err(BindError {
                    position: Some(position),
                    message: format!("is {want}, but --arg gives {given}"),
                });
            }
        }
    }
    Ok(Bound {
        args,
        memory,
        buffers,
    })
}

#[cfg(test)]
mod tests;

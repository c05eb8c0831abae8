//! NumPy `.npy` files: the format of buffer arguments and results of `tilec run`.
//!
//! The format (NumPy's `numpy.lib.format`, NEP 1) is a 6-byte magic `\x93NUMPY`, a
//! major and a minor version byte, the length of the header as a little-endian `u16`
//! (version 1.0) or `u32` (versions 2.0 and 3.0), and the header: a Python dict literal
//! such as `{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }` padded with
//! spaces and ended with a newline (Latin-1 in versions 1.0 and 2.0, UTF-8 in 3.0). The
//! elements follow, `prod(shape)` items of the dtype in C (row-major) or Fortran
//! (column-major) order.
//!
//! [`read()`] accepts versions 1.0, 2.0 and 3.0, both byte orders and Fortran order (the
//! elements are transposed into C order); [`write()`] produces exactly the bytes NumPy 2's
//! `np.save` writes for the same array (version 1.0, or 2.0 when the header does not fit
//! a 16-bit length).
//!
//! Elements are held as in the interpreter: the bit pattern of the element type in a
//! `u64` (integers as their low `width` bits, `i1` as 0 or 1, floats as their encoding).
//!
//! # Element types and dtypes
//!
//! | element type | written as | also read from |
//! |---|---|---|
//! | `i1` | `\|b1` | |
//! | `i8` | `\|i1` | `\|u1` |
//! | `i16` | `<i2` | `<u2`, `>i2`, `>u2` |
//! | `i32` | `<i4` | `<u4`, `>i4`, `>u4` |
//! | `i64` | `<i8` | `<u8`, `>i8`, `>u8` |
//! | `f16` | `<f2` | `>f2` |
//! | `f32` | `<f4` | `>f4` |
//! | `f64` | `<f8` | `>f8` |
//! | `bf16` | `<u2` (raw bits) | `<V2`, `bfloat16` (see below) |
//! | `tf32` | `<u4` (the 19-bit pattern in the top bits: f32 bits) | |
//! | `f8E4M3FN` | `\|u1` (raw bits) | `float8_e4m3fn` |
//! | `f8E5M2` | `\|u1` (raw bits) | `<f1`, `float8_e5m2` |
//! | `f8E8M0FNU` | `\|u1` (raw bits) | `float8_e8m0fnu` |
//!
//! One-byte dtypes are read with any of the byte-order characters `|`, `<` and `>`.
//!
//! NumPy has no dtype for `bf16`, `tf32` or the 8-bit floats. The `ml_dtypes` package
//! defines NumPy dtypes for `bfloat16` and the float8 types, but `np.save` writes them
//! with the descr `<V2` / `<V1` (an opaque void type: `np.load` gives raw bytes) or, for
//! `float8_e5m2` in older releases, `<f1` (which `np.load` rejects), so an `ml_dtypes`
//! file is not portable. tilec therefore writes these types as unsigned integers holding
//! the raw bit patterns, which any NumPy loads (`np.load(f).view(ml_dtypes.bfloat16)`
//! recovers the values; for `tf32`, `.view(np.float32)` gives the exact values). Such a
//! file reads back as the integer type of the same width; [`Array::reinterpret`] turns it
//! into the float type the kernel expects. For convenience [`read()`] also accepts the
//! spellings `ml_dtypes` produces: `<V2` as `bf16` (the only two-byte `ml_dtypes` type),
//! `<f1` as `f8E5M2`, and the dtype names `bfloat16`, `float8_e4m3fn` and `float8_e5m2`
//! (which some tools write as the descr; NumPy reads them once `ml_dtypes` is imported),
//! all little-endian raw bits.
//!
//! Object arrays, structured dtypes, strings, complex numbers, dates and every other
//! dtype are rejected with an [`NpyError`].

use std::fmt;
use tilec_ir::Type;

/// An array of elements in row-major (C) order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Array {
    /// The element type: one of the thirteen scalar element types ([`Type::I1`] ..
    /// [`Type::F8E5M2`]).
    pub elem: Type,
    /// The dimensions; empty for a 0-d array (one element).
    pub shape: Vec<usize>,
    /// The elements' bit patterns, `shape.iter().product()` of them, row-major.
    pub bits: Vec<u64>,
}

impl Array {
    /// Number of elements the shape holds (1 for a 0-d array), or `None` on overflow. A
    /// zero dimension makes it 0 wherever it stands (`0x2^32x2^32` and `2^32x2^32x0` are
    /// the same empty array).
    #[must_use]
    pub fn num_elements(shape: &[usize]) -> Option<usize> {
        if shape.contains(&0) {
            return Some(0);
        }
        shape.iter().try_fold(1usize, |n, &d| n.checked_mul(d))
    }

    /// The same bits seen as another element type of the same storage size, for files
    /// that hold raw bit patterns: from an integer type to any type (`i16` -> `bf16`,
    /// `i8` -> `f8E4M3FN`, `i32` holding f32 bits -> `tf32`) or from any type to an
    /// integer type. The bits must be valid for the new type: 0 or 1 for `i1`, and for
    /// `tf32` f32 patterns whose low 13 bits are zero. Returns the array unchanged when
    /// `elem` is already its type.
    ///
    /// # Errors
    ///
    /// A message when the storage sizes differ, neither type is an integer type, or an
    /// element is not a valid pattern of `elem` (naming its index).
    pub fn reinterpret(mut self, elem: Type) -> Result<Array, String> {
        if elem == self.elem {
            return Ok(self);
        }
        let (Some(from), Some(to)) = (Storage::of(self.elem), Storage::of(elem)) else {
            return Err("not an element type".to_string());
        };
        let names = (elem_name(self.elem), elem_name(elem));
        if from.size != to.size {
            return Err(format!(
                "cannot reinterpret {} ({} bytes) as {} ({} bytes)",
                names.0, from.size, names.1, to.size
            ));
        }
        if !is_int(self.elem) && !is_int(elem) {
            return Err(format!(
                "cannot reinterpret {} as {}: one of them must be an integer type",
                names.0, names.1
            ));
        }
        for (i, b) in self.bits.iter_mut().enumerate() {
            let raw = from.encode(*b);
            *b = to.decode(raw).ok_or_else(|| {
                format!(
                    "element {i} (raw bits {raw:#x}) is not a valid {} pattern",
                    names.1
                )
            })?;
        }
        self.elem = elem;
        Ok(self)
    }
}

/// The MLIR name of an element type, "?" for other types.
fn elem_name(t: Type) -> &'static str {
    crate::args::elem_name(t).unwrap_or("?")
}

fn is_int(t: Type) -> bool {
    [Type::I1, Type::I8, Type::I16, Type::I32, Type::I64].contains(&t)
}

/// How an element type is stored in a file: its descr, item size and the mapping
/// between the interpreter's bit pattern and the stored little-endian integer.
#[derive(Copy, Clone, Debug)]
struct Storage {
    descr: &'static str,
    size: usize,
    kind: StoreKind,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum StoreKind {
    /// The low `8 * size` bits as they are.
    Plain,
    /// `i1`: one byte, 0 or 1.
    Bool,
    /// `tf32`: the 19-bit pattern shifted into the top of 32 bits.
    Tf32,
}

impl Storage {
    fn of(t: Type) -> Option<Storage> {
        let (descr, size, kind) = match t {
            Type::I1 => ("|b1", 1, StoreKind::Bool),
            Type::I8 => ("|i1", 1, StoreKind::Plain),
            Type::I16 => ("<i2", 2, StoreKind::Plain),
            Type::I32 => ("<i4", 4, StoreKind::Plain),
            Type::I64 => ("<i8", 8, StoreKind::Plain),
            Type::F16 => ("<f2", 2, StoreKind::Plain),
            Type::BF16 => ("<u2", 2, StoreKind::Plain),
            Type::F32 => ("<f4", 4, StoreKind::Plain),
            Type::F64 => ("<f8", 8, StoreKind::Plain),
            Type::TF32 => ("<u4", 4, StoreKind::Tf32),
            Type::F8E4M3FN | Type::F8E5M2 | Type::F8E8M0FNU => ("|u1", 1, StoreKind::Plain),
            _ => return None,
        };
        Some(Storage { descr, size, kind })
    }

    fn mask(self) -> u64 {
        if self.size >= 8 {
            u64::MAX
        } else {
            (1u64 << (8 * self.size)) - 1
        }
    }

    /// The stored integer for an element's bits.
    fn encode(self, bits: u64) -> u64 {
        match self.kind {
            StoreKind::Plain => bits & self.mask(),
            StoreKind::Bool => bits & 1,
            StoreKind::Tf32 => (bits & 0x7_ffff) << 13,
        }
    }

    /// The element's bits for a stored integer, if it is a valid pattern.
    fn decode(self, raw: u64) -> Option<u64> {
        match self.kind {
            StoreKind::Plain => Some(raw & self.mask()),
            StoreKind::Bool => (raw <= 1).then_some(raw),
            StoreKind::Tf32 => (raw & 0x1fff == 0 && raw >> 32 == 0).then_some(raw >> 13),
        }
    }
}

/// The descr [`write()`] uses for an element type (see the table in the module docs).
///
/// # Panics
///
/// If `elem` is not one of the thirteen scalar element types.
#[must_use]
pub fn dtype_of(elem: Type) -> &'static str {
    match Storage::of(elem) {
        Some(s) => s.descr,
        None => panic!("npy::dtype_of: {elem:?} is not a scalar element type"),
    }
}

/// Why a `.npy` file could not be read. Every variant carries the byte offset in the
/// file where the problem lies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NpyError {
    /// The file ends inside the magic string, the version or the header.
    Truncated {
        /// Where the incomplete part starts.
        offset: usize,
        /// The incomplete part ("magic string", "header", ...).
        what: &'static str,
    },
    /// The file does not start with `\x93NUMPY`.
    BadMagic {
        /// The first byte that differs.
        offset: usize,
    },
    /// A format version other than 1.0, 2.0 and 3.0.
    UnsupportedVersion {
        /// Offset of the version bytes (6).
        offset: usize,
        /// The major version.
        major: u8,
        /// The minor version.
        minor: u8,
    },
    /// The header is not a dict literal with the keys `descr`, `fortran_order` and
    /// `shape` of the right kinds.
    BadHeader {
        /// Where in the file the problem is.
        offset: usize,
        /// What is wrong.
        message: String,
    },
    /// A dtype with no element type (complex, strings, dates, `<f16`, ...).
    UnknownDtype {
        /// Offset of the descr string.
        offset: usize,
        /// The descr as written (non-ASCII bytes escaped).
        descr: String,
    },
    /// A dtype NumPy has but tilec does not read: object arrays and structured dtypes.
    Unsupported {
        /// Offset of the descr.
        offset: usize,
        /// "object arrays" or "structured dtypes".
        what: &'static str,
    },
    /// The data after the header is not `prod(shape) * itemsize` bytes long.
    DataLength {
        /// Where the data starts.
        offset: usize,
        /// The number of bytes the header calls for.
        expected: u128,
        /// The number of bytes present.
        found: usize,
    },
}

impl NpyError {
    /// The byte offset in the file where the problem lies.
    #[must_use]
    pub fn offset(&self) -> usize {
        match *self {
            NpyError::Truncated { offset, .. }
            | NpyError::BadMagic { offset }
            | NpyError::UnsupportedVersion { offset, .. }
            | NpyError::BadHeader { offset, .. }
            | NpyError::UnknownDtype { offset, .. }
            | NpyError::Unsupported { offset, .. }
            | NpyError::DataLength { offset, .. } => offset,
        }
    }
}

impl fmt::Display for NpyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}: ", self.offset())?;
        match self {
            NpyError::Truncated { what, .. } => write!(f, "the file ends inside the {what}"),
            NpyError::BadMagic { .. } => {
                write!(f, "not a .npy file (it does not start with \\x93NUMPY)")
            }
            NpyError::UnsupportedVersion { major, minor, .. } => write!(
                f,
                "unsupported .npy format version {major}.{minor} (1.0, 2.0 and 3.0 are read)"
            ),
            NpyError::BadHeader { message, .. } => write!(f, "bad .npy header: {message}"),
            NpyError::UnknownDtype { descr, .. } => write!(f, "unsupported dtype '{descr}'"),
            NpyError::Unsupported { what, .. } => write!(f, "{what} are not supported"),
            NpyError::DataLength {
                expected, found, ..
            } => write!(
                f,
                "the header calls for {expected} bytes of data but the file has {found}"
            ),
        }
    }
}

impl std::error::Error for NpyError {}

const MAGIC: &[u8; 6] = b"\x93NUMPY";

/// Read a `.npy` file (versions 1.0, 2.0 and 3.0) into a C-order array.
///
/// # Errors
///
/// An [`NpyError`] with the byte offset of the problem for anything but a well-formed
/// file of a supported dtype whose data is exactly as long as the header says.
pub fn read(bytes: &[u8]) -> Result<Array, NpyError> {
    for (i, &m) in MAGIC.iter().enumerate() {
        match bytes.get(i) {
            None => {
                return Err(NpyError::Truncated {
                    offset: 0,
                    what: "magic string",
                });
            }
            Some(&b) if b != m => return Err(NpyError::BadMagic { offset: i }),
            Some(_) => {}
        }
    }
    let (Some(&major), Some(&minor)) = (bytes.get(6), bytes.get(7)) else {
        return Err(NpyError::Truncated {
            offset: 6,
            what: "format version",
        });
    };
    let len_size = match (major, minor) {
        (1, 0) => 2,
        (2 | 3, 0) => 4,
        _ => {
            return Err(NpyError::UnsupportedVersion {
                offset: 6,
                major,
                minor,
            });
        }
    };
    let header_start = 8 + len_size;
    let Some(len_bytes) = bytes.get(8..header_start) else {
        return Err(NpyError::Truncated {
            offset: 8,
            what: "header length",
        });
    };
    let header_len = len_bytes
        .iter()
        .rev()
        .fold(0usize, |acc, &b| (acc << 8) | usize::from(b));
    let Some(header) = header_start
        .checked_add(header_len)
        .and_then(|end| bytes.get(header_start..end))
    else {
        return Err(NpyError::Truncated {
            offset: header_start,
            what: "header",
        });
    };
    if major == 3
        && let Err(e) = std::str::from_utf8(header)
    {
        return Err(NpyError::BadHeader {
            offset: header_start + e.valid_up_to(),
            message: "the header of a version 3.0 file is not UTF-8".to_string(),
        });
    }
    let h = parse_header(header, header_start)?;
    let data_start = header_start + header_len;
    decode_data(&h, &bytes[data_start..], data_start)
}

/// The meaning of a header.
struct Header {
    elem: Type,
    /// Item size and byte order of the stored elements.
    size: usize,
    big_endian: bool,
    shape: Vec<usize>,
    fortran: bool,
    /// Offset of the shape value, for errors about its size.
    shape_offset: usize,
}

fn decode_data(h: &Header, data: &[u8], offset: usize) -> Result<Array, NpyError> {
    let count = Array::num_elements(&h.shape);
    let expected = count.and_then(|n| n.checked_mul(h.size));
    let Some((count, expected)) = count.zip(expected) else {
        return Err(NpyError::BadHeader {
            offset: h.shape_offset,
            message: "the shape holds more elements than this machine can address".to_string(),
        });
    };
    if data.len() != expected {
        return Err(NpyError::DataLength {
            offset,
            expected: expected as u128,
            found: data.len(),
        });
    }
    let storage = Storage::of(h.elem).expect("dtypes map to element types");
    let mut bits = Vec::with_capacity(count);
    for item in data.chunks_exact(h.size) {
        let raw = if h.big_endian {
            item.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b))
        } else {
            item.iter()
                .rev()
                .fold(0u64, |acc, &b| (acc << 8) | u64::from(b))
        };
        // Storage kinds of readable dtypes: booleans are normalised (any nonzero byte is
        // true, as in NumPy), everything else is kept as raw bits.
        bits.push(match storage.kind {
            StoreKind::Bool => u64::from(raw != 0),
            _ => raw,
        });
    }
    if h.fortran && h.shape.len() > 1 {
        bits = fortran_to_c(&bits, &h.shape);
    }
    Ok(Array {
        elem: h.elem,
        shape: h.shape.clone(),
        bits,
    })
}

/// Reorder column-major elements into row-major order.
fn fortran_to_c(src: &[u64], shape: &[usize]) -> Vec<u64> {
    let rank = shape.len();
    let mut c_strides = vec![1usize; rank];
    for d in (0..rank.saturating_sub(1)).rev() {
        c_strides[d] = c_strides[d + 1] * shape[d + 1];
    }
    let mut out = vec![0u64; src.len()];
    let mut index = vec![0usize; rank];
    let mut dst = 0usize;
    for &v in src {
        out[dst] = v;
        // Advance the column-major index: dimension 0 varies fastest.
        for d in 0..rank {
            index[d] += 1;
            dst += c_strides[d];
            if index[d] < shape[d] {
                break;
            }
            dst -= c_strides[d] * shape[d];
            index[d] = 0;
        }
    }
    out
}

/// A Python literal of a header.
#[derive(Debug)]
enum Lit {
    Str(Vec<u8>),
    Bool(bool),
    None,
    Int { neg: bool, mag: u128 },
    Tuple(Vec<(usize, Lit)>),
    List,
    Dict(Vec<((usize, Lit), (usize, Lit))>),
}

impl Lit {
    fn kind(&self) -> &'static str {
        match self {
            Lit::Str(_) => "a string",
            Lit::Bool(_) => "a boolean",
            Lit::None => "None",
            Lit::Int { .. } => "an integer",
            Lit::Tuple(_) => "a tuple",
            Lit::List => "a list",
            Lit::Dict(_) => "a dict",
        }
    }
}

/// Nesting limit of header literals (NumPy's own headers nest at most 2 deep).
const MAX_DEPTH: usize = 32;

/// A parser of Python literals over the header bytes.
struct Parser<'a> {
    b: &'a [u8],
    i: usize,
    /// Offset of the header in the file.
    base: usize,
}

impl Parser<'_> {
    fn err_at(&self, i: usize, message: impl Into<String>) -> NpyError {
        NpyError::BadHeader {
            offset: self.base + i,
            message: message.into(),
        }
    }

    fn err(&self, message: impl Into<String>) -> NpyError {
        self.err_at(self.i, message)
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')) {
            self.i += 1;
        }
    }

    /// Parse one literal; returns its offset in the header and the literal.
    fn value(&mut self, depth: usize) -> Result<(usize, Lit), NpyError> {
        self.skip_ws();
        let start = self.i;
        if depth > MAX_DEPTH {
            return Err(self.err("literals nested too deeply"));
        }
        let lit = match self.peek() {
            None => return Err(self.err("unexpected end of the header")),
            Some(q @ (b'\'' | b'"')) => {
                self.i += 1;
                let s = self.i;
                loop {
                    match self.peek() {
                        None | Some(b'\n') => {
                            return Err(self.err_at(start, "unterminated string"));
                        }
                        Some(b'\\') => {
                            return Err(self.err("escape sequences in strings are not supported"));
                        }
                        Some(c) if c == q => break,
                        Some(_) => self.i += 1,
                    }
                }
                let text = self.b[s..self.i].to_vec();
                self.i += 1;
                Lit::Str(text)
            }
            Some(b'(') => {
                self.i += 1;
                let (items, trailing_comma) = self.sequence(b')', depth)?;
                if items.len() == 1 && !trailing_comma {
                    // `(x)` is `x` in parentheses, not a tuple.
                    items.into_iter().next().expect("one item").1
                } else {
                    Lit::Tuple(items)
                }
            }
            Some(b'[') => {
                self.i += 1;
                self.sequence(b']', depth)?;
                Lit::List
            }
            Some(b'{') => {
                self.i += 1;
                let mut entries = Vec::new();
                loop {
                    self.skip_ws();
                    if self.peek() == Some(b'}') {
                        self.i += 1;
                        break;
                    }
                    let key = self.value(depth + 1)?;
                    self.skip_ws();
                    if self.peek() != Some(b':') {
                        return Err(self.err("expected ':' after a dict key"));
                    }
                    self.i += 1;
                    let value = self.value(depth + 1)?;
                    entries.push((key, value));
                    self.skip_ws();
                    match self.peek() {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {}
                        _ => return Err(self.err("expected ',' or '}' in a dict")),
                    }
                }
                Lit::Dict(entries)
            }
            Some(b'-' | b'+' | b'0'..=b'9') => {
                let neg = self.peek() == Some(b'-');
                if matches!(self.peek(), Some(b'-' | b'+')) {
                    self.i += 1;
                    self.skip_ws();
                }
                let s = self.i;
                let mut mag: u128 = 0;
                while let Some(c @ b'0'..=b'9') = self.peek() {
                    mag = mag
                        .checked_mul(10)
                        .and_then(|m| m.checked_add(u128::from(c - b'0')))
                        .ok_or_else(|| self.err_at(start, "integer too large"))?;
                    self.i += 1;
                }
                if self.i == s {
                    return Err(self.err("expected digits"));
                }
                // Python 2 wrote long integers with an `L` suffix: `(3L, 4L)`.
                if matches!(self.peek(), Some(b'L' | b'l')) {
                    self.i += 1;
                }
                Lit::Int { neg, mag }
            }
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => {
                while matches!(self.peek(), Some(c) if c.is_ascii_alphanumeric() || c == b'_') {
                    self.i += 1;
                }
                match &self.b[start..self.i] {
                    b"True" => Lit::Bool(true),
                    b"False" => Lit::Bool(false),
                    b"None" => Lit::None,
                    word => {
                        return Err(self.err_at(
                            start,
                            format!("unexpected name '{}'", String::from_utf8_lossy(word)),
                        ));
                    }
                }
            }
            Some(_) => return Err(self.err("expected a Python literal")),
        };
        if let Some(c) = self.peek()
            && (c.is_ascii_alphanumeric() || c == b'_' || c == b'\'' || c == b'"')
        {
            return Err(self.err("unexpected character after a literal"));
        }
        Ok((start, lit))
    }

    /// The items of a tuple or list up to `close` (consumed); also whether the last
    /// item was followed by a comma.
    fn sequence(&mut self, close: u8, depth: usize) -> Result<(Vec<(usize, Lit)>, bool), NpyError> {
        let mut items = Vec::new();
        let mut trailing_comma = false;
        loop {
            self.skip_ws();
            if self.peek() == Some(close) {
                self.i += 1;
                return Ok((items, trailing_comma));
            }
            items.push(self.value(depth + 1)?);
            self.skip_ws();
            match self.peek() {
                Some(b',') => {
                    self.i += 1;
                    trailing_comma = true;
                }
                Some(c) if c == close => trailing_comma = false,
                _ => {
                    return Err(self.err(format!("expected ',' or '{}'", char::from(close))));
                }
            }
        }
    }
}

fn parse_header(header: &[u8], base: usize) -> Result<Header, NpyError> {
    let mut p = Parser {
        b: header,
        i: 0,
        base,
    };
    p.skip_ws();
    if p.peek() != Some(b'{') {
        return Err(p.err("the header is not a dict literal"));
    }
    let (_, lit) = p.value(0)?;
    p.skip_ws();
    if p.i != header.len() {
        return Err(p.err("unexpected text after the header dict"));
    }
    let Lit::Dict(entries) = lit else {
        unreachable!("a literal starting with '{{' is a dict")
    };
    let mut descr = None;
    let mut fortran = None;
    let mut shape = None;
    for ((key_off, key), value) in entries {
        let slot = match &key {
            Lit::Str(k) if k == b"descr" => &mut descr,
            Lit::Str(k) if k == b"fortran_order" => &mut fortran,
            Lit::Str(k) if k == b"shape" => &mut shape,
            Lit::Str(k) => {
                return Err(p.err_at(
                    key_off,
                    format!("unexpected key '{}'", String::from_utf8_lossy(k)),
                ));
            }
            other => {
                return Err(p.err_at(key_off, format!("a key is {}", other.kind())));
            }
        };
        if slot.is_some() {
            return Err(p.err_at(key_off, "duplicate key"));
        }
        *slot = Some(value);
    }
    let missing = |name: &str| p.err_at(0, format!("the header has no '{name}' key"));
    let (descr_off, descr) = descr.ok_or_else(|| missing("descr"))?;
    let (fortran_off, fortran) = fortran.ok_or_else(|| missing("fortran_order"))?;
    let (shape_off, shape) = shape.ok_or_else(|| missing("shape"))?;

    let (elem, size, big_endian) = match descr {
        Lit::Str(s) => parse_descr(&s).ok_or_else(|| {
            if s.get(1) == Some(&b'O') || s == b"O" {
                NpyError::Unsupported {
                    offset: base + descr_off,
                    what: "object arrays",
                }
            } else {
                NpyError::UnknownDtype {
                    offset: base + descr_off,
                    descr: s.escape_ascii().to_string(),
                }
            }
        })?,
        Lit::List | Lit::Dict(_) => {
            return Err(NpyError::Unsupported {
                offset: base + descr_off,
                what: "structured dtypes",
            });
        }
        other => {
            return Err(p.err_at(
                descr_off,
                format!("'descr' is {}, not a string", other.kind()),
            ));
        }
    };
    let fortran = match fortran {
        Lit::Bool(b) => b,
        other => {
            return Err(p.err_at(
                fortran_off,
                format!("'fortran_order' is {}, not True or False", other.kind()),
            ));
        }
    };
    let Lit::Tuple(dims) = shape else {
        return Err(p.err_at(
            shape_off,
            format!("'shape' is {}, not a tuple", shape.kind()),
        ));
    };
    let mut out = Vec::with_capacity(dims.len());
    for (off, d) in dims {
        match d {
            Lit::Int { neg, mag } if !neg || mag == 0 => match usize::try_from(mag) {
                Ok(n) => out.push(n),
                Err(_) => return Err(p.err_at(off, "dimension too large")),
            },
            Lit::Int { .. } => return Err(p.err_at(off, "negative dimension")),
            other => {
                return Err(p.err_at(
                    off,
                    format!("a dimension is {}, not an integer", other.kind()),
                ));
            }
        }
    }
    Ok(Header {
        elem,
        size,
        big_endian,
        shape: out,
        fortran,
        shape_offset: base + shape_off,
    })
}

/// The element type, item size and byte order (true: big-endian) of a descr.
fn parse_descr(s: &[u8]) -> Option<(Type, usize, bool)> {
    // The dtype names of ml_dtypes, stored little-endian.
    match s {
        b"bfloat16" => return Some((Type::BF16, 2, false)),
        b"float8_e4m3fn" => return Some((Type::F8E4M3FN, 1, false)),
        b"float8_e5m2" => return Some((Type::F8E5M2, 1, false)),
        b"float8_e8m0fnu" => return Some((Type::F8E8M0FNU, 1, false)),
        _ => {}
    }
    let [order, kind, size @ ..] = s else {
        return None;
    };
    let size = match size {
        b"1" => 1,
        b"2" => 2,
        b"4" => 4,
        b"8" => 8,
        _ => return None,
    };
    let big_endian = match (order, size) {
        (b'<', _) | (b'|', 1) => false,
        (b'>', _) => true,
        _ => return None,
    };
    let elem = match (kind, size) {
        (b'b', 1) => Type::I1,
        (b'i' | b'u', 1) => Type::I8,
        (b'i' | b'u', 2) => Type::I16,
        (b'i' | b'u', 4) => Type::I32,
        (b'i' | b'u', 8) => Type::I64,
        (b'f', 1) => Type::F8E5M2,
        (b'f', 2) => Type::F16,
        (b'f', 4) => Type::F32,
        (b'f', 8) => Type::F64,
        (b'V', 2) if *order == b'<' => Type::BF16,
        _ => return None,
    };
    Some((elem, size, big_endian))
}

/// NumPy leaves room in the header for the first dimension to grow to this many digits
/// (`GROWTH_AXIS_MAX_DIGITS` in `numpy/lib/_format_impl.py`).
const GROWTH_AXIS_MAX_DIGITS: usize = 21;

/// Alignment of the data (`ARRAY_ALIGN`).
const ARRAY_ALIGN: usize = 64;

/// Write an array as a `.npy` file, in C order, with the descr [`dtype_of`] gives: the
/// same bytes as NumPy 2's `np.save` (format version 1.0, or 2.0 when the header is
/// longer than 65535 bytes). Bits above an element's width are ignored.
///
/// # Panics
///
/// If `a.elem` is not a scalar element type or `a.bits` does not hold
/// `prod(a.shape)` elements.
#[must_use]
pub fn write(a: &Array) -> Vec<u8> {
    let Some(storage) = Storage::of(a.elem) else {
        panic!("npy::write: {:?} is not a scalar element type", a.elem)
    };
    assert_eq!(
        Array::num_elements(&a.shape),
        Some(a.bits.len()),
        "npy::write: {} elements for shape {:?}",
        a.bits.len(),
        a.shape
    );
    let shape = match a.shape.as_slice() {
        [] => "()".to_string(),
        [d] => format!("({d},)"),
        dims => {
            let items: Vec<String> = dims.iter().map(usize::to_string).collect();
            format!("({})", items.join(", "))
        }
    };
    let mut header = format!(
        "{{'descr': '{}', 'fortran_order': False, 'shape': {shape}, }}",
        storage.descr
    );
    if let Some(first) = a.shape.first() {
        let digits = first.to_string().len();
        header.extend(std::iter::repeat_n(
            ' ',
            GROWTH_AXIS_MAX_DIGITS.saturating_sub(digits),
        ));
    }
    // The header ends with '\n' and is padded with spaces so that the data starts at a
    // multiple of ARRAY_ALIGN; NumPy pads by 1 to ARRAY_ALIGN spaces.
    let padded = |prefix: usize| {
        let hlen = header.len() + 1;
        hlen + ARRAY_ALIGN - (prefix + hlen) % ARRAY_ALIGN
    };
    let mut out = Vec::with_capacity(128 + a.bits.len() * storage.size);
    out.extend_from_slice(MAGIC);
    let total = padded(10);
    let total = if let Ok(len) = u16::try_from(total) {
        out.extend_from_slice(&[1, 0]);
        out.extend_from_slice(&len.to_le_bytes());
        total
    } else {
        let total = padded(12);
        out.extend_from_slice(&[2, 0]);
        out.extend_from_slice(
            &u32::try_from(total)
                .expect("headers are far below 4 GiB")
                .to_le_bytes(),
        );
        total
    };
    out.extend_from_slice(header.as_bytes());
    out.resize(out.len() + total - header.len() - 1, b' ');
    out.push(b'\n');
    for &b in &a.bits {
        out.extend_from_slice(&storage.encode(b).to_le_bytes()[..storage.size]);
    }
    out
}

#[cfg(test)]
mod tests;

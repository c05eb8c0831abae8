//! Byte-level primitives: LEB128 varints, zigzag signed varints, little-endian integers, and
//! a bounds-checked cursor whose every failure carries the byte offset it happened at.

/// `n` and the noun, plural unless `n` is 1 (`1 byte`, `2 bytes`).
pub fn count_of(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// A decoding failure: what went wrong and the absolute byte offset in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// Absolute byte offset.
    pub offset: usize,
    /// What went wrong.
    pub message: String,
}

/// Result of a decoding step.
pub type Res<T> = Result<T, Error>;

/// Appends `v` as an unsigned LEB128 varint.
pub fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// Appends `v` zigzag-encoded (the sign in the low bit) as a varint.
pub fn put_svarint(out: &mut Vec<u8>, v: i64) {
    put_varint(out, ((v as u64) << 1) ^ ((v >> 63) as u64));
}

/// Appends a count and then each value as a little-endian integer of `width` bytes.
pub fn put_int_list(out: &mut Vec<u8>, values: &[i64], width: usize) {
    put_varint(out, values.len() as u64);
    for v in values {
        out.extend_from_slice(&v.to_le_bytes()[..width]);
    }
}

/// Pads `out` with 0xCB bytes up to a multiple of `align`, counting from `base`.
pub fn pad(out: &mut Vec<u8>, base: usize, align: usize) {
    while !(base + out.len()).is_multiple_of(align) {
        out.push(0xCB);
    }
}

/// A cursor over a slice that knows the slice's absolute offset in the file.
#[derive(Clone, Copy)]
pub struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
    base: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor over `data`, which starts at absolute offset `base`.
    pub fn new(data: &'a [u8], base: usize) -> Cursor<'a> {
        Cursor { data, pos: 0, base }
    }

    /// Absolute offset of the next byte.
    pub fn offset(&self) -> usize {
        self.base + self.pos
    }

    /// Bytes left.
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// True when every byte was consumed.
    pub fn at_end(&self) -> bool {
        self.pos == self.data.len()
    }

    /// An error at the current offset.
    pub fn err<T>(&self, message: impl Into<String>) -> Res<T> {
        Err(self.error(message))
    }

    /// An error value at the current offset.
    pub fn error(&self, message: impl Into<String>) -> Error {
        Error {
            offset: self.offset(),
            message: message.into(),
        }
    }

    fn eof<T>(&self, what: &str) -> Res<T> {
        self.err(format!("unexpected end of data while reading {what}"))
    }

    /// One byte.
    pub fn byte(&mut self, what: &str) -> Res<u8> {
        match self.data.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => self.eof(what),
        }
    }

    /// `n` bytes.
    pub fn bytes(&mut self, n: usize, what: &str) -> Res<&'a [u8]> {
        if n > self.remaining() {
            return self.err(format!(
                "{what} needs {} but only {} {}",
                count_of(n as u64, "byte"),
                self.remaining(),
                if self.remaining() == 1 {
                    "remains"
                } else {
                    "remain"
                }
            ));
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    /// An unsigned LEB128 varint of at most 64 bits.
    pub fn varint(&mut self, what: &str) -> Res<u64> {
        let start = *self;
        let mut v: u64 = 0;
        for i in 0..10 {
            let b = self.byte(what)?;
            let bits = (b & 0x7f) as u64;
            if i == 9 && bits > 1 {
                return start.err(format!("{what}: varint does not fit in 64 bits"));
            }
            v |= bits << (7 * i);
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        start.err(format!("{what}: varint does not fit in 64 bits"))
    }

    /// A zigzag-encoded signed varint.
    pub fn svarint(&mut self, what: &str) -> Res<i64> {
        let v = self.varint(what)?;
        Ok(((v >> 1) as i64) ^ -((v & 1) as i64))
    }

    /// A varint used as a count of items that take at least `min_item` bytes each: the
    /// count is rejected when the remaining data cannot hold that many.
    pub fn count(&mut self, min_item: usize, what: &str) -> Res<usize> {
        let start = *self;
        let n = self.varint(what)?;
        if n.saturating_mul(min_item.max(1) as u64) > self.remaining() as u64 && min_item > 0 {
            return start.err(format!(
                "{what} {n} exceeds the {} that remain",
                count_of(self.remaining() as u64, "byte")
            ));
        }
        usize::try_from(n).or_else(|_| start.err(format!("{what} {n} is too large")))
    }

    /// A count followed by that many little-endian integers of `width` bytes
    /// (sign-extended).
    pub fn int_list(&mut self, width: usize, what: &str) -> Res<Vec<i64>> {
        let n = self.count(width, what)?;
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            let b = self.bytes(width, what)?;
            let mut buf = [0u8; 8];
            buf[..width].copy_from_slice(b);
            let shift = 64 - 8 * width as u32;
            out.push((i64::from_le_bytes(buf) << shift) >> shift);
        }
        Ok(out)
    }

    /// A little-endian u32.
    pub fn u32(&mut self, what: &str) -> Res<u32> {
        let b = self.bytes(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A little-endian u64.
    pub fn u64(&mut self, what: &str) -> Res<u64> {
        let b = self.bytes(8, what)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }

    /// Skips alignment padding up to a multiple of `align` (absolute offsets).
    pub fn align(&mut self, align: usize, what: &str) -> Res<()> {
        while !self.offset().is_multiple_of(align.max(1)) {
            self.byte(what)?;
        }
        Ok(())
    }

    /// A sub-cursor over the next `n` bytes (the cursor moves past them).
    pub fn sub(&mut self, n: usize, what: &str) -> Res<Cursor<'a>> {
        let base = self.offset();
        let data = self.bytes(n, what)?;
        Ok(Cursor::new(data, base))
    }

    /// A cursor over `[at, end)` of this cursor's data (`at` relative to its start).
    pub fn slice(&self, at: usize, end: usize) -> Option<Cursor<'a>> {
        (at <= end && end <= self.data.len())
            .then(|| Cursor::new(&self.data[at..end], self.base + at))
    }

    /// The position relative to this cursor's start.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// The data this cursor covers.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip() {
        for v in [0u64, 1, 127, 128, 300, u32::MAX as u64, u64::MAX] {
            let mut b = Vec::new();
            put_varint(&mut b, v);
            assert_eq!(Cursor::new(&b, 0).varint("x").unwrap(), v);
        }
        for v in [0i64, -1, 1, -64, 64, i64::MIN, i64::MAX] {
            let mut b = Vec::new();
            put_svarint(&mut b, v);
            assert_eq!(Cursor::new(&b, 0).svarint("x").unwrap(), v);
        }
        assert_eq!(
            Cursor::new(&[0xff; 11], 5).varint("x").unwrap_err().offset,
            5
        );
        assert_eq!(
            Cursor::new(&[0x80], 3).varint("n").unwrap_err().message,
            "unexpected end of data while reading n"
        );
    }
}

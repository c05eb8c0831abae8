//! Global memory: the buffers a kernel can reach (its buffer arguments and the module's
//! globals), each at its own address range. Every access is checked: an address outside
//! every buffer, or an element that straddles a buffer's end, is undefined behaviour and
//! reported.

/// Where buffers start: far from zero (a null pointer is never valid) and 4 GiB apart,
/// so that running past one buffer cannot reach the next.
const FIRST_BASE: u64 = 1 << 32;
const SPACING: u64 = 1 << 32;

/// One allocation.
#[derive(Clone, Debug)]
pub struct Buffer {
    pub base: u64,
    pub data: Vec<u8>,
}

/// All of a run's buffers.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    pub buffers: Vec<Buffer>,
}

impl Memory {
    /// Allocates a buffer holding `data`; returns its base address (256-byte aligned).
    pub fn alloc(&mut self, data: Vec<u8>) -> u64 {
        let base = FIRST_BASE + SPACING * self.buffers.len() as u64;
        self.buffers.push(Buffer { base, data });
        base
    }

    /// The buffer containing `[addr, addr + size)` and the offset of `addr` in it.
    fn locate(&self, addr: u64, size: usize) -> Result<(usize, usize), String> {
        let i = addr
            .checked_sub(FIRST_BASE)
            .map(|o| (o / SPACING) as usize)
            .filter(|i| *i < self.buffers.len())
            .ok_or_else(|| format!("address {addr:#x} is outside every buffer"))?;
        let b = &self.buffers[i];
        let off = (addr - b.base) as usize;
        if off + size > b.data.len() {
            return Err(format!(
                "access of {size} bytes at {addr:#x} is past the end of a {}-byte buffer (offset {off})",
                b.data.len()
            ));
        }
        Ok((i, off))
    }

    /// Reads `size` bytes (1, 2, 4 or 8) at `addr`, little-endian, zero-extended.
    pub fn read(&self, addr: u64, size: usize) -> Result<u64, String> {
        if !addr.is_multiple_of(size as u64) {
            return Err(format!("misaligned access of {size} bytes at {addr:#x}"));
        }
        let (i, off) = self.locate(addr, size)?;
        let mut b = [0u8; 8];
        b[..size].copy_from_slice(&self.buffers[i].data[off..off + size]);
        Ok(u64::from_le_bytes(b))
    }

    /// Writes the low `size` bytes of `bits` at `addr`, little-endian.
    pub fn write(&mut self, addr: u64, size: usize, bits: u64) -> Result<(), String> {
        if !addr.is_multiple_of(size as u64) {
            return Err(format!("misaligned access of {size} bytes at {addr:#x}"));
        }
        let (i, off) = self.locate(addr, size)?;
        self.buffers[i].data[off..off + size].copy_from_slice(&bits.to_le_bytes()[..size]);
        Ok(())
    }
}

/// Bytes of one element of `elem` in memory (i1 takes a byte; pointers 8).
pub fn elem_bytes(types: &tilec_ir::TypeStore, elem: tilec_ir::Type) -> usize {
    use tilec_ir::TypeData;
    match types.get(elem) {
        TypeData::Int(1) => 1,
        TypeData::Int(w) => (*w as usize).div_ceil(8),
        TypeData::Float(k) => match k {
            tilec_ir::float::FloatKind::F16 | tilec_ir::float::FloatKind::BF16 => 2,
            tilec_ir::float::FloatKind::F32 | tilec_ir::float::FloatKind::TF32 => 4,
            tilec_ir::float::FloatKind::F64 => 8,
            _ => 1,
        },
        _ => 8,
    }
}

/// An element of float kind `k` as stored in memory: TF32 (a 19-bit pattern here) is
/// stored as the f32 with its low 13 bits zero; every other kind as its own bits.
pub fn to_memory(k: tilec_ir::float::FloatKind, bits: u64) -> u64 {
    match k {
        tilec_ir::float::FloatKind::TF32 => (bits & 0x7_ffff) << 13,
        _ => bits,
    }
}

/// The inverse of [`to_memory`].
pub fn from_memory(k: tilec_ir::float::FloatKind, bits: u64) -> u64 {
    match k {
        tilec_ir::float::FloatKind::TF32 => (bits >> 13) & 0x7_ffff,
        _ => bits,
    }
}

/// [`to_memory`] for any element type (integers and pointers are stored as they are).
pub fn encode(types: &tilec_ir::TypeStore, elem: tilec_ir::Type, bits: u64) -> u64 {
    tilec_ir::attrs::float_kind(types, elem).map_or(bits, |k| to_memory(k, bits))
}

/// [`from_memory`] for any element type (`i1` keeps its low bit).
pub fn decode(types: &tilec_ir::TypeStore, elem: tilec_ir::Type, bits: u64) -> u64 {
    match tilec_ir::attrs::float_kind(types, elem) {
        Some(k) => from_memory(k, bits),
        None if elem == tilec_ir::Type::I1 => bits & 1,
        None => bits,
    }
}

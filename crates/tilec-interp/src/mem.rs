//! Global memory: the buffers a kernel can reach (its buffer arguments and the module's
//! globals), each at its own address range. Every access is checked: an address outside
//! every buffer, or an element that straddles a buffer's end, is undefined behaviour and
//! reported.
//!
//! Buffers are arrays of atomic 64-bit words, so tile blocks running on several threads
//! share them safely (`&Memory` is all an access needs). An aligned access of 1, 2, 4 or 8
//! bytes always lies within one word: plain loads and stores are relaxed word accesses
//! (a store of less than a word merges its bytes with a compare-and-swap loop, leaving
//! the word's other bytes as other threads write them), and a tile IR atomic is one
//! compare-and-swap loop on its word ([`Memory::update`]).

use std::sync::atomic::{AtomicU64, Ordering};

/// Where buffers start: far from zero (a null pointer is never valid) and 4 GiB apart,
/// so that running past one buffer cannot reach the next.
const FIRST_BASE: u64 = 1 << 32;
const SPACING: u64 = 1 << 32;
/// Where a tile block's `alloca` buffers start (its own [`Memory`], see [`Memory::local`]):
/// above every buffer the run's memory can hold.
pub(crate) const LOCAL_BASE: u64 = 1 << 62;

/// One allocation: `len` bytes, held in little-endian 64-bit words.
#[derive(Debug)]
pub struct Buffer {
    pub base: u64,
    len: usize,
    words: Box<[AtomicU64]>,
    /// What the buffer is, for messages ("argument 0 (%x_ptr)", "global @table").
    pub name: Option<String>,
}

impl Buffer {
    fn new(base: u64, data: &[u8]) -> Buffer {
        let words = data
            .chunks(8)
            .map(|c| {
                let mut b = [0u8; 8];
                b[..c.len()].copy_from_slice(c);
                AtomicU64::new(u64::from_le_bytes(b))
            })
            .collect();
        Buffer {
            base,
            len: data.len(),
            words,
            name: None,
        }
    }

    /// The buffer's size in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The buffer's contents.
    pub fn bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.words.len() * 8);
        for w in self.words.iter() {
            out.extend_from_slice(&w.load(Ordering::Relaxed).to_le_bytes());
        }
        out.truncate(self.len);
        out
    }
}

impl Clone for Buffer {
    fn clone(&self) -> Buffer {
        let mut b = Buffer::new(self.base, &self.bytes());
        b.name.clone_from(&self.name);
        b
    }
}

/// All of a run's buffers.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    pub buffers: Vec<Buffer>,
    /// Where the first buffer starts: 0 for [`FIRST_BASE`], [`LOCAL_BASE`] for a tile
    /// block's allocas.
    origin: u64,
}

/// The bit mask of the low `size` bytes.
fn byte_mask(size: usize) -> u64 {
    if size >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * size)) - 1
    }
}

impl Memory {
    /// Allocates a buffer holding `data`; returns its base address (256-byte aligned).
    pub fn alloc(&mut self, data: Vec<u8>) -> u64 {
        let base = self.first_base() + SPACING * self.buffers.len() as u64;
        self.buffers.push(Buffer::new(base, &data));
        base
    }

    /// The memory of one tile block's `alloca`s, at addresses no run buffer has.
    pub(crate) fn local() -> Memory {
        Memory {
            buffers: Vec::new(),
            origin: LOCAL_BASE,
        }
    }

    fn first_base(&self) -> u64 {
        if self.origin == 0 {
            FIRST_BASE
        } else {
            self.origin
        }
    }

    /// Allocates a buffer holding `data`; returns its index (for [`crate::Arg::Buffer`]).
    pub fn add(&mut self, data: Vec<u8>) -> usize {
        self.alloc(data);
        self.buffers.len() - 1
    }

    /// Names buffer `i` for messages (an out-of-bounds access names the buffer).
    pub fn set_name(&mut self, i: usize, name: impl Into<String>) {
        if let Some(b) = self.buffers.get_mut(i) {
            b.name = Some(name.into());
        }
    }

    /// The contents of buffer `i`.
    pub fn bytes(&self, i: usize) -> Vec<u8> {
        self.buffers[i].bytes()
    }

    /// The word holding `[addr, addr + size)` and the bit position of `addr` in it.
    fn locate(&self, addr: u64, size: usize) -> Result<(&AtomicU64, u32), String> {
        if !addr.is_multiple_of(size as u64) {
            return Err(format!("misaligned access of {size} bytes at {addr:#x}"));
        }
        let i = addr
            .checked_sub(self.first_base())
            .map(|o| (o / SPACING) as usize)
            .filter(|i| *i < self.buffers.len())
            .ok_or_else(|| format!("address {addr:#x} is outside every buffer"))?;
        let b = &self.buffers[i];
        let off = (addr - b.base) as usize;
        if off + size > b.len {
            return Err(match &b.name {
                Some(name) => format!(
                    "access of {size} bytes at {addr:#x} is past the end of {name}, a {}-byte buffer (offset {off})",
                    b.len
                ),
                None => format!(
                    "access of {size} bytes at {addr:#x} is past the end of a {}-byte buffer (offset {off})",
                    b.len
                ),
            });
        }
        Ok((&b.words[off / 8], 8 * (off % 8) as u32))
    }

    /// Reads `size` bytes (1, 2, 4 or 8) at `addr`, little-endian, zero-extended.
    pub fn read(&self, addr: u64, size: usize) -> Result<u64, String> {
        let (w, shift) = self.locate(addr, size)?;
        Ok((w.load(Ordering::Relaxed) >> shift) & byte_mask(size))
    }

    /// Writes the low `size` bytes of `bits` at `addr`, little-endian.
    pub fn write(&self, addr: u64, size: usize, bits: u64) -> Result<(), String> {
        let (w, shift) = self.locate(addr, size)?;
        if size == 8 {
            w.store(bits, Ordering::Relaxed);
        } else {
            let m = byte_mask(size) << shift;
            let _ = w.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |old| {
                Some((old & !m) | ((bits << shift) & m))
            });
        }
        Ok(())
    }

    /// Atomically replaces the `size` bytes at `addr` by `f` of their old value (called
    /// again if another thread changed the word meanwhile); returns the old value.
    pub fn update(&self, addr: u64, size: usize, f: impl Fn(u64) -> u64) -> Result<u64, String> {
        let (w, shift) = self.locate(addr, size)?;
        let m = byte_mask(size);
        let old = w
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |word| {
                let new = f((word >> shift) & m) & m;
                Some((word & !(m << shift)) | (new << shift))
            })
            .unwrap_or_else(|w| w);
        Ok((old >> shift) & m)
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

/// [`from_memory`] for any element type (an `i1` byte reads as 1 when it is not zero,
/// as the spec's loads canonicalize it).
pub fn decode(types: &tilec_ir::TypeStore, elem: tilec_ir::Type, bits: u64) -> u64 {
    match tilec_ir::attrs::float_kind(types, elem) {
        Some(k) => from_memory(k, bits),
        None if elem == tilec_ir::Type::I1 => u64::from(bits != 0),
        None => bits,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sub_word_accesses_keep_their_neighbours() {
        let mut m = Memory::default();
        let base = m.alloc((0u8..11).collect());
        assert_eq!(m.read(base + 2, 2).unwrap(), 0x0302);
        m.write(base + 2, 2, 0xbeef).unwrap();
        m.write(base + 9, 1, 0xff).unwrap();
        assert_eq!(m.bytes(0), [0, 1, 0xef, 0xbe, 4, 5, 6, 7, 8, 0xff, 10]);
        let old = m.update(base + 4, 4, |x| x + 1).unwrap();
        assert_eq!(old, 0x0706_0504);
        assert_eq!(m.read(base, 8).unwrap(), 0x0706_0505_beef_0100);
        // The last word is partial: a 2-byte access at offset 10 runs past the end.
        assert!(m.read(base + 10, 2).unwrap_err().contains("past the end"));
        assert!(m.read(base + 1, 2).unwrap_err().contains("misaligned"));
        assert!(
            m.read(base - 8, 8)
                .unwrap_err()
                .contains("outside every buffer")
        );
    }

    #[test]
    fn atomic_updates_from_many_threads_all_land() {
        let mut m = Memory::default();
        let base = m.alloc(vec![0; 8]);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..1000 {
                        m.update(base + 2, 2, |x| x + 1).unwrap();
                        m.update(base + 4, 4, |x| x + 3).unwrap();
                    }
                });
            }
        });
        assert_eq!(m.read(base + 2, 2).unwrap(), 4000);
        assert_eq!(m.read(base + 4, 4).unwrap(), 12000);
        assert_eq!(m.read(base, 2).unwrap(), 0);
    }
}

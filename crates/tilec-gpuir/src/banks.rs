//! A static bank-conflict check for shared-memory accesses.
//!
//! Shared memory has 32 banks of 4 bytes: byte `a` is in bank `(a / 4) % 32`. The lanes
//! served together (one *phase*: a whole warp for accesses of 4 bytes or less, half a warp
//! for 8 bytes, a quarter warp for 16 bytes, and each 8x8 matrix of an `ldmatrix`, whose
//! 8 lanes supply one row address of 16 bytes each) take one wavefront when no two of
//! them touch different 4-byte words of the same bank (lanes reading the same word share
//! it); otherwise the phase takes as many wavefronts as the most words any bank must
//! serve. [`bank_conflicts`] counts the extra ones.
//!
//! The PTX writer evaluates, for every `ldmatrix` (or fallback `ld.shared.b32`) that reads
//! a tensor-core operand fragment and every write into a swizzled operand buffer, the byte
//! offset each lane of each warp accesses (from the layout and the swizzle, the same
//! functions the emitted address arithmetic implements) and adds the phases up in
//! [`SmemStats`], which [`crate::compile_gpu_stats`] returns with the PTX.

use crate::layout::Layout;

/// The extra wavefronts (bank conflicts) of one phase of a shared-memory access: the
/// lanes' `(byte address, bytes)`. 0 when the phase is served in one wavefront (or is
/// empty).
pub fn bank_conflicts(accesses: &[(u64, u32)]) -> u32 {
    let mut words: Vec<u64> = accesses
        .iter()
        .flat_map(|&(a, n)| (a / 4..(a + n.max(1) as u64).div_ceil(4)).collect::<Vec<_>>())
        .collect();
    words.sort_unstable();
    words.dedup();
    let mut per_bank = [0u32; 32];
    for w in words {
        per_bank[(w % 32) as usize] += 1;
    }
    per_bank
        .iter()
        .max()
        .copied()
        .unwrap_or(0)
        .saturating_sub(1)
}

/// Lanes per phase of an access of `bytes` per lane (`ld`/`st`/`cp.async`).
pub fn lanes_per_phase(bytes: u32) -> usize {
    match bytes {
        0..=4 => 32,
        5..=8 => 16,
        _ => 8,
    }
}

/// The element index that thread `tid` holds in layout `l` at slot part 0 (its lane and
/// warp bits).
pub fn thread_elem(l: &Layout, tid: u32) -> u64 {
    let (lane, warp) = (tid % 32, tid / 32);
    let mut e = 0u64;
    for (k, b) in l.lane.iter().enumerate() {
        if let Some(b) = b
            && lane >> k & 1 == 1
        {
            e |= 1 << b;
        }
    }
    for (k, b) in l.warp.iter().enumerate() {
        if let Some(b) = b
            && warp >> k & 1 == 1
        {
            e |= 1 << b;
        }
    }
    e
}

/// Shared-memory traffic of the tensor-core operands of a compilation, counted by the PTX
/// writer (instructions are static counts; phases and conflicts are summed over every
/// warp of the CTA, once per instruction in the program text).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SmemStats {
    /// `ldmatrix` instructions reading operand fragments.
    pub ldmatrix: u32,
    /// `stmatrix` instructions writing 16-bit tiles in fragment layouts (sm_90).
    pub stmatrix: u32,
    /// Operand fragment registers read with `ld.shared.b32` instead (the fallback).
    pub fragment_ld_shared: u32,
    /// Phases of those reads, and their extra wavefronts.
    pub read_phases: u64,
    pub read_conflicts: u64,
    /// Phases of the vector writes (`st.shared.v2/v4`, `cp.async` of 8 or 16 bytes) into
    /// swizzled operand buffers, and their extra wavefronts.
    pub write_phases: u64,
    pub write_conflicts: u64,
    /// The same for element-wise writes (`st.shared` of one element: the element-wise
    /// form of an async copy, tiles whose layout has no run of consecutive elements).
    pub scalar_write_phases: u64,
    pub scalar_write_conflicts: u64,
}

impl SmemStats {
    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &SmemStats) {
        self.ldmatrix += other.ldmatrix;
        self.stmatrix += other.stmatrix;
        self.fragment_ld_shared += other.fragment_ld_shared;
        self.read_phases += other.read_phases;
        self.read_conflicts += other.read_conflicts;
        self.write_phases += other.write_phases;
        self.write_conflicts += other.write_conflicts;
        self.scalar_write_phases += other.scalar_write_phases;
        self.scalar_write_conflicts += other.scalar_write_conflicts;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_banks_do_not_conflict() {
        let phase: Vec<(u64, u32)> = (0..32).map(|i| (4 * i, 4)).collect();
        assert_eq!(bank_conflicts(&phase), 0);
        // The same word read by every lane is a broadcast.
        assert_eq!(bank_conflicts(&[(64, 4); 32]), 0);
        // Two halves of one word.
        assert_eq!(bank_conflicts(&[(8, 2), (10, 2)]), 0);
        assert_eq!(bank_conflicts(&[]), 0);
    }

    #[test]
    fn strided_words_conflict() {
        // A stride of 128 bytes: every lane in bank 0.
        let phase: Vec<(u64, u32)> = (0..32).map(|i| (128 * i, 4)).collect();
        assert_eq!(bank_conflicts(&phase), 31);
        // A stride of 8 bytes: two words per bank.
        let phase: Vec<(u64, u32)> = (0..32).map(|i| (8 * i, 4)).collect();
        assert_eq!(bank_conflicts(&phase), 1);
    }

    #[test]
    fn rows_of_16_bytes() {
        // 8 rows of an unswizzled 64-byte-wide buffer: rows 0, 2, 4, 6 share banks 0-3.
        let phase: Vec<(u64, u32)> = (0..8).map(|r| (64 * r, 16)).collect();
        assert_eq!(bank_conflicts(&phase), 3);
        // Swizzled (perPhase 2, maxPhase 4): chunk (r / 2) % 4 of row r.
        let phase: Vec<(u64, u32)> = (0..8).map(|r| (64 * r + 16 * ((r / 2) % 4), 16)).collect();
        assert_eq!(bank_conflicts(&phase), 0);
    }

    #[test]
    fn phases_by_width() {
        assert_eq!(lanes_per_phase(2), 32);
        assert_eq!(lanes_per_phase(8), 16);
        assert_eq!(lanes_per_phase(16), 8);
    }

    #[test]
    fn thread_elements() {
        let l = Layout::blocked(10, 2);
        // Blocked 1024 over 128 threads: 8 per thread (4 contiguous), lanes then warps.
        assert_eq!(thread_elem(&l, 0), 0);
        assert_eq!(thread_elem(&l, 1), l.lane[0].map_or(0, |b| 1 << b));
        assert_eq!(thread_elem(&l, 32), l.warp[0].map_or(0, |b| 1 << b));
    }
}

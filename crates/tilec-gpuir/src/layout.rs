//! Layouts: which thread holds which tile element in which register slot.
//!
//! Tile dimensions are powers of two, so an element is named by the bits of its row-major
//! linear index. A [`Layout`] gives, for every bit of the register-slot number, of the lane
//! id and of the warp id, the element-index bit it sets (or none, for lanes and warps: the
//! tile is then replicated over them). Every element bit has exactly one source, so the
//! element of slot `s` in thread `t` is `thread_part(t) | reg_part(s)`.

use std::fmt;
use tilec_ir::TypeData;

/// Where each element-index bit comes from. See the module documentation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    /// log2 of the number of elements.
    pub nbits: u32,
    /// Element bit set by each register-slot bit.
    pub reg: Vec<u8>,
    /// Element bit set by each of the 5 lane-id bits, if any.
    pub lane: [Option<u8>; 5],
    /// Element bit set by each warp-id bit, if any.
    pub warp: Vec<Option<u8>>,
}

impl Layout {
    /// Every thread holds every element (rank-0 tiles, small reduction results).
    pub fn replicated(nbits: u32, warp_bits: u32) -> Layout {
        Layout {
            nbits,
            reg: (0..nbits as u8).collect(),
            lane: [None; 5],
            warp: vec![None; warp_bits as usize],
        }
    }

    /// The default layout for elementwise work, loads and stores: a vector of up to four
    /// contiguous elements per thread, then lanes, then warps, then more registers.
    pub fn blocked(nbits: u32, warp_bits: u32) -> Layout {
        Self::blocked_vec(nbits, warp_bits, 2)
    }

    /// [`Layout::blocked`] with vectors of up to `2^max_vec_bits` contiguous elements per
    /// thread (3 for 16-bit elements and 4 for bytes make a vector 16 bytes, one 128-bit
    /// access).
    pub fn blocked_vec(nbits: u32, warp_bits: u32, max_vec_bits: u32) -> Layout {
        let thread_bits = 5 + warp_bits;
        let vec_bits = nbits.saturating_sub(thread_bits).min(max_vec_bits);
        let mut next = 0u8;
        let mut take = |limit: u32| {
            if (next as u32) < limit {
                next += 1;
                Some(next - 1)
            } else {
                None
            }
        };
        let mut reg: Vec<u8> = (0..vec_bits).filter_map(|_| take(nbits)).collect();
        let mut lane = [None; 5];
        for l in lane.iter_mut() {
            *l = take(nbits);
        }
        let warp: Vec<Option<u8>> = (0..warp_bits).map(|_| take(nbits)).collect();
        while let Some(b) = take(nbits) {
            reg.push(b);
        }
        Layout {
            nbits,
            reg,
            lane,
            warp,
        }
    }

    /// The number of register slots per thread.
    /// The layout of `nbits` element bits with these register, lane and warp bits, and
    /// every element bit none of them takes as a further register bit, in ascending order.
    pub fn with_free_registers(
        nbits: u32,
        mut reg: Vec<u8>,
        lane: [Option<u8>; 5],
        warp: Vec<Option<u8>>,
    ) -> Layout {
        let taken: u64 = reg
            .iter()
            .copied()
            .chain(lane.iter().flatten().copied())
            .chain(warp.iter().flatten().copied())
            .fold(0, |acc, b| acc | 1 << b);
        reg.extend((0..nbits as u8).filter(|b| taken >> b & 1 == 0));
        Layout {
            nbits,
            reg,
            lane,
            warp,
        }
    }

    pub fn slots(&self) -> usize {
        1 << self.reg.len()
    }

    /// The register part of the element index of slot `s`.
    pub fn slot_elem(&self, s: usize) -> u64 {
        let mut e = 0u64;
        for (i, b) in self.reg.iter().enumerate() {
            if s >> i & 1 == 1 {
                e |= 1 << b;
            }
        }
        e
    }

    /// The slot holding the element whose register part is `e` (which must have no thread
    /// bits set).
    pub fn elem_slot(&self, e: u64) -> Option<usize> {
        let mut s = 0usize;
        let mut rest = e;
        for (i, b) in self.reg.iter().enumerate() {
            if e >> b & 1 == 1 {
                s |= 1 << i;
                rest &= !(1u64 << b);
            }
        }
        (rest == 0).then_some(s)
    }

    /// Element bits held by thread bits (lane and warp), as a mask.
    pub fn thread_mask(&self) -> u64 {
        self.lane
            .iter()
            .chain(self.warp.iter())
            .flatten()
            .fold(0, |m, b| m | 1 << b)
    }

    /// True if no lane or warp bit selects elements (every thread holds everything).
    pub fn is_replicated(&self) -> bool {
        self.thread_mask() == 0
    }

    /// True if some lane or warp bit replicates (threads differing in it hold the same
    /// elements).
    pub fn has_replication(&self) -> bool {
        self.lane
            .iter()
            .chain(self.warp.iter())
            .any(Option::is_none)
    }

    /// True if `other` holds the same elements in every thread, so that converting
    /// between the two only renames register slots.
    pub fn same_threads(&self, other: &Layout) -> bool {
        self.nbits == other.nbits && self.lane == other.lane && self.warp == other.warp
    }

    /// True if converting from this layout to `to` moves no data between threads: both
    /// give every thread the same elements, or this one is a rank-0 value every thread holds.
    pub fn converts_freely(&self, to: &Layout) -> bool {
        self.same_threads(to) || self.is_replicated() && self.nbits == 0
    }

    /// The layout of the result of an op that maps element bit `b` of this layout to bit
    /// `map[b]` of a result with `nbits` bits (`None`: the bit disappears). Result bits no
    /// source bit maps to are `fresh` bits, given to replicated lanes and warps first, then
    /// to new register bits.
    pub fn remap(&self, nbits: u32, map: &[Option<u8>], fresh: &[u8]) -> Layout {
        let f = |b: &Option<u8>| b.and_then(|b| map[b as usize]);
        let mut lane = [None; 5];
        for (i, l) in self.lane.iter().enumerate() {
            lane[i] = f(l);
        }
        let mut warp: Vec<Option<u8>> = self.warp.iter().map(f).collect();
        let mut reg: Vec<u8> = self.reg.iter().filter_map(|b| map[*b as usize]).collect();
        let mut fresh = fresh.iter().copied();
        for slot in lane.iter_mut().chain(warp.iter_mut()) {
            if slot.is_none() {
                *slot = fresh.next();
            }
        }
        reg.extend(fresh);
        Layout {
            nbits,
            reg,
            lane,
            warp,
        }
    }

    /// The layout that keeps this layout's lanes and warps but orders its register bits
    /// ascending (a pure renaming of slots).
    pub fn sorted_regs(&self) -> Layout {
        let mut l = self.clone();
        l.reg.sort_unstable();
        l
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |v: &mut dyn Iterator<Item = Option<u8>>| {
            v.map(|b| b.map_or("_".to_string(), |b| b.to_string()))
                .collect::<Vec<_>>()
                .join(",")
        };
        write!(
            f,
            "#ttg.linear<reg=[{}], lane=[{}], warp=[{}]>",
            list(&mut self.reg.iter().map(|b| Some(*b))),
            list(&mut self.lane.iter().copied()),
            list(&mut self.warp.iter().copied())
        )
    }
}

// ---- GPU-level IR encodings ---------------------------------------------------------

impl Layout {
    /// The `#ttg.linear` encoding of this layout for a tile of `shape`: the coordinates of
    /// the element each register, lane and warp bit selects (zeros where it selects none).
    pub fn to_encoding(&self, shape: &[i64]) -> TypeData {
        let basis = |b: Option<u8>| -> Box<[i64]> {
            match b {
                Some(b) => coords(shape, 1 << b).iter().map(|c| *c as i64).collect(),
                None => vec![0; shape.len()].into(),
            }
        };
        TypeData::LinearEncoding {
            register: self.reg.iter().map(|b| basis(Some(*b))).collect(),
            lane: self.lane.iter().map(|b| basis(*b)).collect(),
            warp: self.warp.iter().map(|b| basis(*b)).collect(),
        }
    }

    /// The layout an encoding describes for a tile of `shape`, or why it describes none:
    /// every basis must select one element bit (or, for lanes and warps, none), there must
    /// be 5 lane bases and `warp_bits` warp bases, and every element bit must be selected
    /// exactly once.
    pub fn from_encoding(enc: &TypeData, shape: &[i64], warp_bits: u32) -> Result<Layout, String> {
        let TypeData::LinearEncoding {
            register,
            lane,
            warp,
        } = enc
        else {
            return Err("the encoding is not a #ttg.linear layout".into());
        };
        let bit = |b: &[i64]| -> Result<Option<u8>, String> {
            if b.len() != shape.len() {
                return Err(format!(
                    "a basis has {} coordinates for a tile of rank {}",
                    b.len(),
                    shape.len()
                ));
            }
            let mut e = 0u64;
            for (d, c) in b.iter().enumerate() {
                if *c < 0 || *c >= shape[d] {
                    return Err(format!("basis coordinate {c} is outside dimension {d}"));
                }
                e |= (*c as u64) << dim_bits(shape, d).0;
            }
            match e.count_ones() {
                0 => Ok(None),
                1 => Ok(Some(e.trailing_zeros() as u8)),
                _ => Err("a basis selects more than one element bit".into()),
            }
        };
        if lane.len() != 5 {
            return Err(format!("{} lane bases, expected 5", lane.len()));
        }
        if warp.len() != warp_bits as usize {
            return Err(format!(
                "{} warp bases for {} warps",
                warp.len(),
                1u32 << warp_bits
            ));
        }
        let mut reg = Vec::new();
        for b in register.iter() {
            reg.push(bit(b)?.ok_or("a register basis selects no element")?);
        }
        let mut lanes = [None; 5];
        for (i, b) in lane.iter().enumerate() {
            lanes[i] = bit(b)?;
        }
        let warp = warp.iter().map(|b| bit(b)).collect::<Result<Vec<_>, _>>()?;
        let nbits = shape_bits(shape);
        let mut seen = 0u64;
        for b in reg
            .iter()
            .copied()
            .chain(lanes.iter().chain(&warp).flatten().copied())
        {
            if seen >> b & 1 == 1 {
                return Err(format!("element bit {b} is selected twice"));
            }
            seen |= 1 << b;
        }
        if seen.count_ones() != nbits {
            return Err("the layout does not cover every element of the tile".into());
        }
        Ok(Layout {
            nbits,
            reg,
            lane: lanes,
            warp,
        })
    }
}

// ---- layouts of structural ops (shared by layout assignment and emission) -------------

/// The layout of a tile with `k` more low element bits than `src`, held in the first `k`
/// register bits of each thread: element `i` of `src` becomes elements `i << k ..
/// (i + 1) << k`, all in the thread that held `i`. Slot `s` of `src` becomes slots
/// `s << k | j` (`pack` into bytes of wider elements, `unpack` into sub-byte elements).
pub fn widen_low(src: &Layout, k: u32) -> Layout {
    let up = |b: u8| b + k as u8;
    Layout {
        nbits: src.nbits + k,
        reg: (0..k as u8).chain(src.reg.iter().map(|b| up(*b))).collect(),
        lane: src.lane.map(|b| b.map(up)),
        warp: src.warp.iter().map(|b| b.map(up)).collect(),
    }
}

/// The inverse of [`widen_low`]: the layout of a tile with `k` fewer low element bits,
/// when the `k` low element bits of `src` are its first `k` register bits (so that each
/// group of `2^k` consecutive elements is in one thread, in slots `s << k | j`).
pub fn narrow_low(src: &Layout, k: u32) -> Option<Layout> {
    if src.reg.len() < k as usize
        || src.reg[..k as usize]
            .iter()
            .enumerate()
            .any(|(i, b)| *b as usize != i)
    {
        return None;
    }
    let down = |b: u8| b - k as u8;
    Some(Layout {
        nbits: src.nbits - k,
        reg: src.reg[k as usize..].iter().map(|b| down(*b)).collect(),
        lane: src.lane.map(|b| b.map(down)),
        warp: src.warp.iter().map(|b| b.map(down)).collect(),
    })
}

/// For `broadcast` from `ss` to `rs` (`ss` padded with leading ones to the rank of `rs`):
/// the result bit of each source bit and the result bits of broadcast dimensions.
pub fn broadcast_bits(ss: &[i64], rs: &[i64]) -> (Vec<Option<u8>>, Vec<u8>) {
    let ss: Vec<i64> = std::iter::repeat_n(1, rs.len().saturating_sub(ss.len()))
        .chain(ss.iter().copied())
        .collect();
    let mut map = vec![None; shape_bits(&ss) as usize];
    let mut fresh = Vec::new();
    for d in 0..rs.len() {
        let (lr, wr) = dim_bits(rs, d);
        let (ls, ws) = dim_bits(&ss, d);
        if ws == 0 {
            fresh.extend((lr..lr + wr).map(|b| b as u8));
        } else {
            for k in 0..ws {
                map[(ls + k) as usize] = Some((lr + k) as u8);
            }
        }
    }
    (map, fresh)
}

/// The layout of a `broadcast` result: the blocked layout (vectors of up to `2^vec_bits`
/// elements) when it costs nothing (each of
/// its thread bits is a broadcast bit or the bit the source has there), else the source
/// layout with the new bits on replicated threads and new registers.
pub fn broadcast_layout(
    src: &Layout,
    ss: &[i64],
    rs: &[i64],
    warp_bits: u32,
    vec_bits: u32,
) -> Layout {
    let (map, fresh) = broadcast_bits(ss, rs);
    let nr = shape_bits(rs);
    let default = Layout::blocked_vec(nr, warp_bits, vec_bits);
    let inv = |rb: Option<u8>| -> Option<u8> {
        rb.and_then(|rb| map.iter().position(|m| *m == Some(rb)).map(|p| p as u8))
    };
    let default_free = default
        .lane
        .iter()
        .zip(src.lane.iter())
        .chain(default.warp.iter().zip(src.warp.iter()))
        .all(|(r, s)| inv(*r) == *s || (r.is_some() && inv(*r).is_none() && s.is_none()))
        && default.reg.iter().all(|b| match inv(Some(*b)) {
            None => true,
            Some(sb) => src.reg.contains(&sb),
        });
    if default_free {
        default
    } else {
        src.remap(nr, &map, &fresh)
    }
}

/// The source layout from which `broadcast` (from `ss` to `rs`) yields `target` without
/// moving data between threads: `target` with the broadcast bits dropped (register bits
/// that select them disappear; lanes and warps that select them replicate).
pub fn broadcast_source(target: &Layout, ss: &[i64], rs: &[i64]) -> Layout {
    let (map, _) = broadcast_bits(ss, rs);
    let inv = |rb: Option<u8>| -> Option<u8> {
        rb.and_then(|rb| map.iter().position(|m| *m == Some(rb)).map(|p| p as u8))
    };
    Layout {
        nbits: map.len() as u32,
        reg: target.reg.iter().filter_map(|b| inv(Some(*b))).collect(),
        lane: target.lane.map(inv),
        warp: target.warp.iter().map(|b| inv(*b)).collect(),
    }
}

/// The layout of `permute(src, perm)`: the source's bits moved with their dimensions
/// (register slots keep their order).
pub fn permute_layout(src: &Layout, ss: &[i64], rs: &[i64], perm: &[usize]) -> Layout {
    let mut map = vec![None; shape_bits(ss) as usize];
    for (i, p) in perm.iter().enumerate() {
        let (ls, w) = dim_bits(ss, *p);
        let (lr, _) = dim_bits(rs, i);
        for k in 0..w {
            map[(ls + k) as usize] = Some((lr + k) as u8);
        }
    }
    src.remap(shape_bits(rs), &map, &[])
}

/// The layout of a `ttng.cluster_gather` of a part in layout `part` over a cluster of
/// `n` CTAs: the part's lanes, warps and registers, and more registers for the leading
/// (rank) dimension, whose bits are the top ones of the gathered tile's elements.
pub fn gather_layout(part: &Layout, n: i64) -> Layout {
    let extra = n.max(1).trailing_zeros();
    let mut reg = part.reg.clone();
    reg.extend((part.nbits..part.nbits + extra).map(|b| b as u8));
    Layout {
        nbits: part.nbits + extra,
        reg,
        lane: part.lane,
        warp: part.warp.clone(),
    }
}

/// The layout of `cat(a, b, dim)` with both operands in `a`'s layout: `a`'s bits moved to
/// the result's positions plus one register bit (the top bit of `dim`) choosing the operand.
pub fn cat_layout(a: &Layout, s: &[i64], rs: &[i64], dim: usize) -> Layout {
    let mut map = vec![None; shape_bits(s) as usize];
    for d in 0..s.len() {
        let (ls, w) = dim_bits(s, d);
        let (lr, _) = dim_bits(rs, d);
        for k in 0..w {
            map[(ls + k) as usize] = Some((lr + k) as u8);
        }
    }
    let (lr, wr) = dim_bits(rs, dim);
    let mut layout = a.remap(shape_bits(rs), &map, &[]);
    layout.reg.push((lr + wr - 1) as u8);
    layout
}

/// The layout of the result of reducing dimension `dim` of a tile of `shape` held in
/// `src`: the source layout without the reduced bits (the threads that held them end up
/// replicated).
pub fn reduce_layout(src: &Layout, shape: &[i64], dim: usize) -> Layout {
    let (low, w) = dim_bits(shape, dim);
    let nbits = shape_bits(shape);
    let map: Vec<Option<u8>> = (0..nbits)
        .map(|b| {
            if b < low {
                Some(b as u8)
            } else if b >= low + w {
                Some((b - w) as u8)
            } else {
                None
            }
        })
        .collect();
    Layout {
        nbits: nbits - w,
        reg: src.reg.iter().filter_map(|b| map[*b as usize]).collect(),
        lane: src.lane.map(|b| b.and_then(|b| map[b as usize])),
        warp: src
            .warp
            .iter()
            .map(|b| b.and_then(|b| map[b as usize]))
            .collect(),
    }
}

/// A split of a tile's linear element index into chunks by some of its bits: the chunk
/// number spells those bits (lowest first), the index inside a chunk is the other bits
/// moved down. Chunked conversions, scans, extracts and the mma fallback use it to go
/// through shared memory one chunk at a time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunks {
    /// The chunk bits, ascending.
    pub bits: Vec<u8>,
    /// log2 of the number of elements.
    pub nbits: u32,
}

impl Chunks {
    pub fn new(mut bits: Vec<u8>, nbits: u32) -> Chunks {
        bits.sort_unstable();
        Chunks { bits, nbits }
    }

    /// How many chunks there are.
    pub fn count(&self) -> u64 {
        1 << self.bits.len()
    }

    /// log2 of the number of elements in one chunk.
    pub fn inner_bits(&self) -> u32 {
        self.nbits - self.bits.len() as u32
    }

    /// The chunk holding element `e`.
    pub fn which(&self, e: u64) -> u64 {
        self.bits
            .iter()
            .enumerate()
            .map(|(i, b)| (e >> b & 1) << i)
            .sum()
    }

    /// For each element bit, its bit in the index inside a chunk (`None`: a chunk bit).
    pub fn inner_map(&self) -> Vec<Option<u8>> {
        let mut next = 0u8;
        (0..self.nbits as u8)
            .map(|b| {
                (!self.bits.contains(&b)).then(|| {
                    next += 1;
                    next - 1
                })
            })
            .collect()
    }

    /// The index of element `e` inside its chunk.
    pub fn squeeze(&self, e: u64) -> u64 {
        let mut out = 0;
        let mut k = 0;
        for b in 0..self.nbits as u8 {
            if !self.bits.contains(&b) {
                out |= (e >> b & 1) << k;
                k += 1;
            }
        }
        out
    }

    /// The chunk bits that thread-id bits hold in `l`: (chunk bit index, thread-id bit;
    /// lanes are thread-id bits 0..5, warps the next).
    pub fn thread_bits(&self, l: &Layout) -> Vec<(usize, u32)> {
        l.lane
            .iter()
            .chain(l.warp.iter())
            .enumerate()
            .filter_map(|(tbit, b)| {
                let b = (*b)?;
                self.bits
                    .iter()
                    .position(|c| *c == b)
                    .map(|i| (i, tbit as u32))
            })
            .collect()
    }
}

/// The bit position of dimension `d`'s lowest bit in the row-major linear index of a
/// tile of `shape`, and its width in bits.
pub fn dim_bits(shape: &[i64], d: usize) -> (u32, u32) {
    let low: u32 = shape[d + 1..].iter().map(|s| s.trailing_zeros()).sum();
    (low, shape[d].trailing_zeros())
}

/// log2 of the element count of a tile shape.
pub fn shape_bits(shape: &[i64]) -> u32 {
    shape.iter().map(|s| s.trailing_zeros()).sum()
}

/// The coordinates of linear element index `e` in a tile of `shape`.
pub fn coords(shape: &[i64], e: u64) -> Vec<u64> {
    (0..shape.len())
        .map(|d| {
            let (low, w) = dim_bits(shape, d);
            (e >> low) & ((1u64 << w) - 1)
        })
        .collect()
}

/// The swizzle pairs `(d, s)` of a shared-memory buffer of `shape` in `order` under
/// `swizzle`: bit `d` of an element's index is XORed with bit `s` (column bits with row
/// bits: `vec`-element groups of a row XORed with the row's phase).
pub fn swizzle_pairs(shape: &[i64], order: &[u8], swizzle: tilec_ir::Swizzle) -> Vec<(u8, u8)> {
    if swizzle.is_identity() || shape.len() < 2 || order.len() != shape.len() {
        return Vec::new();
    }
    let (col_lo, col_w) = dim_bits(shape, order[0] as usize);
    let (row_lo, row_w) = dim_bits(shape, order[1] as usize);
    let (v, p) = (
        swizzle.vec.trailing_zeros(),
        swizzle.per_phase.trailing_zeros(),
    );
    (0..swizzle.max_phase.trailing_zeros())
        .filter(|j| p + j < row_w && v + j < col_w)
        .map(|j| ((col_lo + v + j) as u8, (row_lo + p + j) as u8))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocked_1024_over_128_threads() {
        let l = Layout::blocked(10, 2);
        assert_eq!(l.reg, vec![0, 1, 9]);
        assert_eq!(l.lane, [Some(2), Some(3), Some(4), Some(5), Some(6)]);
        assert_eq!(l.warp, vec![Some(7), Some(8)]);
        assert_eq!(l.slots(), 8);
        assert_eq!(l.slot_elem(5), 1 | 512);
        assert_eq!(l.elem_slot(513), Some(5));
    }

    #[test]
    fn small_tiles_replicate() {
        let l = Layout::blocked(3, 2);
        assert_eq!(l.reg, Vec::<u8>::new());
        assert_eq!(l.lane, [Some(0), Some(1), Some(2), None, None]);
        assert!(l.has_replication());
        assert!(Layout::replicated(0, 2).is_replicated());
    }

    #[test]
    fn dims() {
        assert_eq!(dim_bits(&[64, 32], 0), (5, 6));
        assert_eq!(coords(&[64, 32], 33), vec![1, 1]);
    }
}

//! `gpu-allocate-shared`: where every shared-memory buffer lives, decided once and
//! recorded on its op as `allocation.offset` (bytes from the start of the kernel's shared
//! memory, Triton's name for it), so that the PTX writer only reads it.
//!
//! The layout of a kernel's shared memory, bottom up:
//!
//! 1. the buffers of its `alloca`s, in program order, each at a multiple of its
//!    alignment (at least 16), alive for the whole kernel;
//! 2. the `ttg.local_alloc` buffers, as a stack in program order: a buffer goes right
//!    above the live buffers, at a multiple of 16 bytes (1024 when swizzled:
//!    [`local_alloc_align`]), and `ttg.local_dealloc` of the
//!    topmost live buffer lowers the top again (buffers are released in reverse order of
//!    allocation: the pipelines' stages after their loop, staged operands after their
//!    product);
//! 3. above the live buffers, the scratch an op uses inside its own lowering (a layout
//!    conversion through shared memory, a reduction across warps, a scan), fenced by
//!    barriers; its place, the top of the stack at that op, is recorded on the op too, and
//!    its size (`allocation.size`), from the plan of the op's lowering that this module
//!    makes and the writer follows ([`convert_bytes`], [`extract_chunks`],
//!    [`reduce_combos`], [`scan_chunks`], [`mma_fallback_plan`], [`mma_scaled_plan`]).
//!
//! The kernel's shared memory is the highest end of them all ([`peak`]).
//!
//! The GPU-level verifier checks that every offset is aligned and that no buffer overlaps
//! another that is alive at the same time (walking the ops in program order, as the
//! writer does); the writer refuses a buffer without one.

use crate::layout::{Chunks, Layout, dim_bits, shape_bits};
use crate::sizes::{STAGE_BYTES, elem_bytes};
use tilec_ir::{Module, Op, Opcode, Type, TypeData, Value};

/// The attribute that records a buffer's place.
pub const OFFSET_ATTR: &str = "allocation.offset";
/// The attribute that records the bytes of an op's scratch.
pub const SIZE_ATTR: &str = "allocation.size";

/// The shared memory the `mmaf`/`mmai` fallback stages one K chunk of A and B in.
pub const MMA_FALLBACK_BYTES: u64 = 32 * 1024;

/// The alignment of the buffer `ttg.local_alloc` `op` allocates: 1024 bytes for a
/// swizzled buffer (its XOR pattern repeats every 8 rows of up to 128 bytes, and
/// warpgroup MMA and the tensor memory accelerator apply it to the address itself), 16
/// otherwise (128 for the source or the destination of a tensor copy).
pub fn local_alloc_align(m: &Module, op: Op) -> u64 {
    let r = m.result(op, 0);
    match m.ctx.types.get(m.value_type(r)) {
        TypeData::MemDesc { swizzle, .. } if !swizzle.is_identity() => 1024,
        // The copy engine reads and writes shared memory at 128-byte aligned addresses.
        _ if tensor_copied(m, r) => 128,
        _ => 16,
    }
}

/// Whether buffer `v`, or a view of it (an op taking it first and giving a
/// `!ttg.memdesc`: a stage, a transposed or reshaped view), is what a tensor copy reads
/// (a store's `src`) or writes (a load's `result`); not its barriers. An unswizzled
/// stage after 32 bytes of mbarriers was written at a 32-byte aligned address
/// (structured random kernel 799 over 2 CTAs).
fn tensor_copied(m: &Module, v: Value) -> bool {
    m.users(v).any(|u| {
        // The copy's shared-memory operand: a load's `result`, a store's `src`.
        let slot = if m.opcode(u) == Opcode::AsyncTmaCopyGlobalToLocal {
            Some("result")
        } else if m.opcode(u) == Opcode::AsyncTmaCopyLocalToGlobal {
            Some("src")
        } else {
            None
        };
        if let Some(slot) = slot {
            return tilec_ir::segments::operand_group(m, u, slot).contains(&v);
        }
        m.num_operands(u) > 0
            && m.operand(u, 0) == v
            && m.results(u).any(|r| {
                matches!(m.ctx.types.get(m.value_type(r)), TypeData::MemDesc { .. })
                    && tensor_copied(m, r)
            })
    })
}

/// The bytes of the buffer `ttg.local_alloc` `op` allocates (a multiple of 16).
pub fn local_alloc_bytes(m: &Module, op: Op) -> u64 {
    let ty = m.value_type(m.result(op, 0));
    let n: u64 = m
        .ctx
        .types
        .shape(ty)
        .iter()
        .map(|d| (*d).max(0) as u64)
        .product();
    (n * elem_bytes(m.ctx.types.element_type(ty)) as u64).next_multiple_of(16)
}

/// The bytes and the alignment of the buffer of `alloca` `op`.
pub fn alloca_bytes(m: &Module, op: Op) -> (u64, u64) {
    let int = |name: &str| {
        m.attr_named(op, name)
            .and_then(|a| m.ctx.attrs.get_int(a))
            .unwrap_or(0)
    };
    let ptr = m.ctx.types.element_type(m.value_type(m.result(op, 0)));
    let pointee = match m.ctx.types.get(ptr) {
        TypeData::Ptr(e) => *e,
        _ => Type::I8,
    };
    let n = int("num_elem").max(0) as u64;
    let align = (int("alignment").max(1) as u64).clamp(16, 1 << 20);
    (n.saturating_mul(elem_bytes(pointee) as u64), align)
}

/// The kinds of lowering that use scratch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scratch {
    Convert,
    Extract,
    Reduce,
    Scan,
    MmaFallback,
    MmaScaled,
    TensorMap,
}

/// The scratch of `ttng.tensormap_create`: a 128-byte map at a 128-byte aligned address
/// inside it.
pub const TENSOR_MAP_SCRATCH: u64 = 128 + 112;

fn scratch_kind(m: &Module, op: Op) -> Option<Scratch> {
    match m.opcode(op) {
        Opcode::ConvertLayout => Some(Scratch::Convert),
        Opcode::Extract => Some(Scratch::Extract),
        Opcode::Reduce => Some(Scratch::Reduce),
        Opcode::Scan => Some(Scratch::Scan),
        Opcode::MmaFScaled => Some(Scratch::MmaScaled),
        Opcode::TensormapCreate => Some(Scratch::TensorMap),
        Opcode::MmaF | Opcode::MmaI => m
            .attr_named(op, crate::mma::MMA_ATTR)
            .is_none()
            .then_some(Scratch::MmaFallback),
        _ => None,
    }
}

/// Whether `op`'s lowering uses shared memory of its own above the live buffers (its
/// scratch, fenced by barriers): a layout conversion, an `extract`, a reduction or scan
/// (across warps), and the products that run in the writer's fallback loop.
pub fn uses_scratch(m: &Module, op: Op) -> bool {
    scratch_kind(m, op).is_some()
}

/// The element bits that split a conversion of an `nbits`-bit tile of `size`-byte
/// elements from `from` to `to` into chunks of at most [`STAGE_BYTES`]: register bits of
/// `from` (so which slots a thread stores for a chunk is known at compile time), those
/// that are register bits of `to` too first (no predication on the reading side), the
/// highest first. `None` when `from` has too few register bits (the conversion then goes
/// through one buffer for the whole tile).
pub fn convert_chunk_bits(from: &Layout, to: &Layout, nbits: u32, size: u64) -> Option<Vec<u8>> {
    let total = (1u64 << nbits) * size;
    if total <= STAGE_BYTES {
        return None;
    }
    let need = (total / STAGE_BYTES).trailing_zeros() as usize;
    let mut regs: Vec<u8> = from.reg.clone();
    regs.sort_unstable_by(|a, b| b.cmp(a));
    let (common, other): (Vec<u8>, Vec<u8>) = regs.into_iter().partition(|b| to.reg.contains(b));
    let mut chunk: Vec<u8> = common.into_iter().chain(other).take(need).collect();
    if chunk.len() < need {
        return None;
    }
    chunk.sort_unstable();
    Some(chunk)
}

/// The scratch of a conversion from `from` to `to` of an `nbits`-bit tile of `size`-byte
/// elements: none when the layouts give every thread the same elements, one chunk
/// ([`convert_chunk_bits`]) or the whole tile otherwise.
pub fn convert_bytes(from: &Layout, to: &Layout, nbits: u32, size: u64) -> u64 {
    if from.converts_freely(to) {
        return 0;
    }
    match convert_chunk_bits(from, to, nbits, size) {
        Some(bits) => (1u64 << (nbits - bits.len() as u32)) * size,
        None => (1u64 << nbits) * size,
    }
}

/// The chunks an `extract` from an `nbits`-bit source in layout `src` of `size`-byte
/// elements stages its source in: the source's highest register bits pick a chunk of at
/// most [`STAGE_BYTES`] (as many as it has). Its scratch is one chunk.
pub fn extract_chunks(src: &Layout, nbits: u32, size: u64) -> Chunks {
    let need = (((size << nbits) / STAGE_BYTES).max(1)).trailing_zeros() as usize;
    let mut top: Vec<u8> = src.reg.clone();
    top.sort_unstable_by(|a, b| b.cmp(a));
    top.truncate(need);
    Chunks::new(top, nbits)
}

/// The number of partials per output element a reduction along `dim` of a tile of `shape`
/// in `layout` combines across warps: 2 to the number of warp bits that hold bits of
/// `dim` (1: no step across warps, and no scratch).
pub fn reduce_combos(layout: &Layout, shape: &[i64], dim: usize) -> u64 {
    let (low, w) = dim_bits(shape, dim);
    let dim_mask: u64 = ((1u64 << w) - 1) << low;
    let warp_bits = layout
        .warp
        .iter()
        .filter(|b| b.is_some_and(|b| dim_mask >> b & 1 == 1))
        .count();
    1u64 << warp_bits
}

/// The scratch of a reduction along `dim` of `nops` tiles of `shape` in `layout`: a
/// 64-bit partial per combination of reduced warp bits, output element and operand.
pub fn reduce_bytes(layout: &Layout, shape: &[i64], dim: usize, nops: u64) -> u64 {
    let combos = reduce_combos(layout, shape, dim);
    if combos == 1 {
        return 0;
    }
    let (_, w) = dim_bits(shape, dim);
    let n_out = 1u64 << (shape_bits(shape) - w);
    combos * n_out * nops * 8
}

/// The chunks a scan along `dim` of a tile of `shape` in `layout` goes through shared
/// memory in, `per_elem` bytes per element (all operands): register bits outside the
/// scanned dimension, the highest first, so that each chunk holds at most
/// [`STAGE_BYTES`] (as many as the layout has). Its scratch is one chunk.
pub fn scan_chunks(layout: &Layout, shape: &[i64], dim: usize, per_elem: u64) -> Chunks {
    let nbits = shape_bits(shape);
    let (low, w) = dim_bits(shape, dim);
    let need = ((per_elem << nbits) / STAGE_BYTES).max(1).trailing_zeros() as usize;
    let scanned = |b: u8| (low..low + w).contains(&(b as u32));
    let mut top: Vec<u8> = layout
        .reg
        .iter()
        .copied()
        .filter(|b| !scanned(*b))
        .collect();
    top.sort_unstable_by(|a, b| b.cmp(a));
    top.truncate(need);
    Chunks::new(top, nbits)
}

/// The bytes per element of a scan over operands of `elems`: each operand's region holds
/// elements of the widest.
pub fn scan_elem_bytes(elems: &[Type]) -> u64 {
    let stride = elems
        .iter()
        .map(|e| elem_bytes(*e) as u64)
        .max()
        .unwrap_or(4);
    stride * elems.len() as u64
}

/// The batch (product of the leading dimensions), M, K and N of a product of A of shape
/// `sa` and B of shape `sb`.
fn product_dims(sa: &[i64], sb: &[i64]) -> (u64, u64, u64, u64) {
    let rank = sa.len();
    if rank < 2 || sb.len() != rank {
        // Not a product the verifier admits: nothing to stage.
        return (0, 0, 0, 0);
    }
    let dim = |d: i64| d.max(0) as u64;
    let batch: u64 = sa[..rank - 2].iter().map(|d| dim(*d)).product();
    (
        batch,
        dim(sa[rank - 2]),
        dim(sa[rank - 1]),
        dim(sb[rank - 1]),
    )
}

/// The plan of the writer's fallback product (no tensor-core instruction): K is split into
/// `2^cbits` chunks so that the A columns and B rows of one chunk fit
/// [`MMA_FALLBACK_BYTES`]; A's chunk at the scratch's start, B's `a_bytes` above it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MmaFallback {
    pub cbits: u32,
    pub a_bytes: u64,
    pub b_bytes: u64,
}

/// [`MmaFallback`] for A of shape `sa` and B of `sb` (batch dims first), `za` and `zb`
/// bytes per element.
pub fn mma_fallback_plan(sa: &[i64], sb: &[i64], za: u64, zb: u64) -> MmaFallback {
    let (batch, mm, kk, nn) = product_dims(sa, sb);
    let kbits = kk.trailing_zeros();
    let total = batch * mm * kk * za + batch * kk * nn * zb;
    let cbits = ((total.div_ceil(MMA_FALLBACK_BYTES))
        .next_power_of_two()
        .trailing_zeros())
    .min(kbits);
    let kc = kk >> cbits;
    MmaFallback {
        cbits,
        a_bytes: (batch * mm * kc * za).next_multiple_of(16),
        b_bytes: batch * kc * nn * zb,
    }
}

/// Where `mmaf_scaled` stages its operands: A `[batch, M, K]`, B `[batch, K, N]`, the
/// scales SA `[batch, M, K/V]` and SB `[batch, K/V, N]` (operands 0, 1, 3, 4; 2, the
/// accumulator, stays in registers), each at a multiple of 16 bytes. Returns each
/// operand's offset and the total.
pub fn mma_scaled_plan(sa: &[i64], sb: &[i64], blocks: u64, sizes: &[u64; 5]) -> ([u64; 5], u64) {
    let (batch, mm, kk, nn) = product_dims(sa, sb);
    let counts = [
        batch * mm * kk,
        batch * kk * nn,
        0,
        batch * mm * blocks,
        batch * blocks * nn,
    ];
    let mut offs = [0u64; 5];
    let mut total = 0u64;
    for i in [0usize, 1, 3, 4] {
        offs[i] = total;
        total = (total + counts[i] * sizes[i]).next_multiple_of(16);
    }
    (offs, total)
}

/// The layout the type of `v` encodes (for `warp_bits` warp bits), if it has one.
fn layout_of(m: &Module, v: Value, warp_bits: u32) -> Option<Layout> {
    let types = &m.ctx.types;
    let ty = m.value_type(v);
    let enc = types.encoding(ty)?;
    Layout::from_encoding(types.get(enc), types.shape(ty), warp_bits).ok()
}

fn shape_of(m: &Module, v: Value) -> Vec<i64> {
    m.ctx.types.shape(m.value_type(v)).to_vec()
}

fn elem_size(m: &Module, v: Value) -> u64 {
    elem_bytes(m.ctx.types.element_type(m.value_type(v))) as u64
}

/// The bytes of `op`'s scratch (0 for an op without), from the plans above, for layouts
/// made for `warp_bits` warp bits.
pub fn scratch_bytes(m: &Module, op: Op, warp_bits: u32) -> u64 {
    let Some(kind) = scratch_kind(m, op) else {
        return 0;
    };
    let int = |name: &str| {
        m.attr_named(op, name)
            .and_then(|a| m.ctx.attrs.get_int(a))
            .unwrap_or(0)
            .max(0) as usize
    };
    let bytes = match kind {
        Scratch::Convert => {
            let (src, res) = (m.operand(op, 0), m.result(op, 0));
            match (layout_of(m, src, warp_bits), layout_of(m, res, warp_bits)) {
                (Some(from), Some(to)) => {
                    convert_bytes(&from, &to, shape_bits(&shape_of(m, src)), elem_size(m, src))
                }
                _ => 0,
            }
        }
        Scratch::Extract => {
            let src = m.operand(op, 0);
            let size = elem_size(m, src);
            layout_of(m, src, warp_bits).map_or(0, |l| {
                (1u64 << extract_chunks(&l, shape_bits(&shape_of(m, src)), size).inner_bits())
                    * size
            })
        }
        Scratch::Reduce => {
            let first = m.operand(op, 0);
            layout_of(m, first, warp_bits).map_or(0, |l| {
                reduce_bytes(
                    &l,
                    &shape_of(m, first),
                    int("dim"),
                    m.num_operands(op) as u64,
                )
            })
        }
        Scratch::Scan => {
            let first = m.operand(op, 0);
            let shape = shape_of(m, first);
            let dim = int("dim");
            let (_, w) = dim_bits(&shape, dim);
            let elems: Vec<Type> = m
                .operands(op)
                .map(|v| m.ctx.types.element_type(m.value_type(v)))
                .collect();
            let per_elem = scan_elem_bytes(&elems);
            match layout_of(m, first, warp_bits) {
                Some(l) if w > 0 => {
                    (1u64 << scan_chunks(&l, &shape, dim, per_elem).inner_bits()) * per_elem
                }
                _ => 0,
            }
        }
        Scratch::MmaFallback => {
            let (a, b) = (m.operand(op, 0), m.operand(op, 1));
            let p = mma_fallback_plan(
                &shape_of(m, a),
                &shape_of(m, b),
                elem_size(m, a),
                elem_size(m, b),
            );
            p.a_bytes + p.b_bytes
        }
        Scratch::MmaScaled => {
            let vals: Vec<Value> = (0..5).map(|i| m.operand(op, i)).collect();
            let ss = shape_of(m, vals[3]);
            let blocks = ss.last().copied().unwrap_or(1).max(1) as u64;
            let sizes: [u64; 5] = std::array::from_fn(|i| elem_size(m, vals[i]));
            mma_scaled_plan(&shape_of(m, vals[0]), &shape_of(m, vals[1]), blocks, &sizes).1
        }
        Scratch::TensorMap => TENSOR_MAP_SCRATCH,
    };
    bytes.next_multiple_of(16)
}

/// The bytes recorded for the buffer or scratch of `op`: a `ttg.local_alloc`'s and an
/// `alloca`'s from their types, an op's scratch from [`SIZE_ATTR`] (`None` when not
/// recorded).
pub fn size(m: &Module, op: Op) -> Option<u64> {
    match m.opcode(op) {
        Opcode::LocalAlloc => Some(local_alloc_bytes(m, op)),
        Opcode::Alloca => Some(alloca_bytes(m, op).0),
        _ => m
            .attr_named(op, SIZE_ATTR)
            .and_then(|a| m.ctx.attrs.get_int(a))
            .and_then(|v| u64::try_from(v).ok()),
    }
}

/// The shared memory `entry` uses: the highest end of a placed buffer or scratch, and the
/// op it belongs to (`None` when it uses none).
pub fn peak(m: &Module, entry: Op) -> Option<(u64, Op)> {
    buffer_ops(m, entry)
        .into_iter()
        .filter_map(|(o, _)| {
            let end = offset(m, o)?.checked_add(size(m, o)?)?;
            (end > 0).then_some((end.next_multiple_of(16), o))
        })
        .fold(None, |best: Option<(u64, Op)>, (end, o)| match best {
            Some((b, _)) if b >= end => best,
            _ => Some((end, o)),
        })
}

/// The offset recorded on `op`, if any.
pub fn offset(m: &Module, op: Op) -> Option<u64> {
    m.attr_named(op, OFFSET_ATTR)
        .and_then(|a| m.ctx.attrs.get_int(a))
        .and_then(|v| u64::try_from(v).ok())
}

/// The ops of `entry` that hold shared memory, in program order, but a
/// `ttg.warp_specialize`'s partition first, where the op is: its warps run beside the
/// default region's and on past the op, so what they hold is reserved from the op on for
/// the rest of the kernel (each op paired with whether it is a partition's).
fn buffer_ops(m: &Module, entry: Op) -> Vec<(Op, bool)> {
    fn rec(m: &Module, op: Op, partition: bool, ops: &mut Vec<(Op, bool)>) {
        let regions = m.regions(op);
        // A partition (region 1 of a `ttg.warp_specialize`) before its default region.
        let order: Vec<(usize, bool)> = if m.opcode(op) == Opcode::WarpSpecialize {
            (0..regions.len())
                .rev()
                .map(|i| (i, partition || i > 0))
                .collect()
        } else {
            (0..regions.len()).map(|i| (i, partition)).collect()
        };
        for (i, part) in order {
            for &b in m.region_blocks(regions[i]) {
                for o in m.block_ops(b) {
                    if matches!(
                        m.opcode(o),
                        Opcode::Alloca | Opcode::LocalAlloc | Opcode::LocalDealloc
                    ) || uses_scratch(m, o)
                    {
                        ops.push((o, part));
                    }
                    rec(m, o, part, ops);
                }
            }
        }
    }
    let mut ops = Vec::new();
    rec(m, entry, false, &mut ops);
    ops
}

/// The `gpu-allocate-shared` pass: records [`OFFSET_ATTR`] on every `alloca` and
/// `ttg.local_alloc` of every entry of GPU-level IR `m`, and on every op that uses
/// scratch ([`uses_scratch`]: where it starts, and [`SIZE_ATTR`], its bytes), replacing
/// what was recorded.
pub fn allocate_shared(m: &mut Module) {
    let mut entries = Vec::new();
    m.walk(|op| {
        if m.opcode(op) == Opcode::Entry {
            entries.push(op);
        }
    });
    for e in entries {
        let warp_bits = crate::gpu::entry_warp_bits(m, e).unwrap_or(0);
        let ops = buffer_ops(m, e);
        let mut places: Vec<(Op, u64)> = Vec::new();
        let mut sizes: Vec<(Op, u64)> = Vec::new();
        // The allocas first, at the bottom.
        let mut top = 0u64;
        for &(o, _) in ops.iter().filter(|(o, _)| m.opcode(*o) == Opcode::Alloca) {
            let (bytes, align) = alloca_bytes(m, o);
            let at = top.next_multiple_of(align);
            top = at.saturating_add(bytes).next_multiple_of(16);
            places.push((o, at));
        }
        // Then what the partitions hold, reserved for the whole kernel (their warps run on
        // past the op): each partition's scratch starts where the partition does (its ops
        // run one after the other). Below the stack of the other buffers, so that those
        // placed before a `ttg.warp_specialize` and released after it (a split K loop's
        // stages) leave their bytes to what follows (the epilogue's buffer went on top of
        // them: 246,144 bytes where 229,376 fit, structured random kernel 3082).
        let mut partition_base: Option<u64> = None;
        for &(o, part) in &ops {
            if !part {
                partition_base = None;
                continue;
            }
            let base = *partition_base.get_or_insert(top);
            match m.opcode(o) {
                Opcode::LocalAlloc => {
                    let at = top.next_multiple_of(local_alloc_align(m, o));
                    top = at + local_alloc_bytes(m, o);
                    places.push((o, at));
                }
                Opcode::LocalDealloc | Opcode::Alloca => {}
                _ => {
                    let bytes = scratch_bytes(m, o, warp_bits);
                    top = top.max(base + bytes).next_multiple_of(16);
                    places.push((o, base));
                    sizes.push((o, bytes));
                }
            }
        }
        // Then the stack of local buffers.
        let mut live: Vec<(tilec_ir::Value, u64, u64)> = Vec::new();
        for &(o, part) in &ops {
            if part {
                continue;
            }
            match m.opcode(o) {
                Opcode::LocalAlloc => {
                    let at = top.next_multiple_of(local_alloc_align(m, o));
                    let size = local_alloc_bytes(m, o);
                    top = at + size;
                    live.push((m.result(o, 0), at, size));
                    places.push((o, at));
                }
                Opcode::LocalDealloc => {
                    let buf = m.operand(o, 0);
                    if let Some(i) = live.iter().position(|(v, _, _)| *v == buf) {
                        let (_, at, size) = live.remove(i);
                        if at + size == top {
                            top = at;
                        }
                    }
                }
                Opcode::Alloca => {}
                // An op's scratch starts at the top of the live buffers.
                _ => {
                    places.push((o, top));
                    sizes.push((o, scratch_bytes(m, o, warp_bits)));
                }
            }
        }
        for (attr, recorded) in [(OFFSET_ATTR, places), (SIZE_ATTR, sizes)] {
            for (o, v) in recorded {
                let a = m.ctx.attrs.int(v as i64, Type::I32);
                m.remove_extra_attr(o, attr);
                m.push_extra_attr(o, attr, a);
            }
        }
    }
}

/// Why the recorded places of `entry`'s buffers are invalid, if they are: a buffer
/// misaligned, one that overlaps a placed buffer alive at the same time, or scratch
/// smaller than its op's lowering uses (each error with the op it is about). Buffers
/// without [`OFFSET_ATTR`] are not placed yet.
pub fn allocation_errors(m: &Module, entry: Op) -> Vec<(Op, String)> {
    let mut errors = Vec::new();
    let warp_bits = crate::gpu::entry_warp_bits(m, entry).unwrap_or(0);
    let mut live: Vec<(Option<tilec_ir::Value>, u64, u64, Op)> = Vec::new();
    // The scratch of partitions' ops (reserved, but one after the other in time).
    let mut reserved: tilec_ir::util::FxHashSet<Op> = Default::default();
    let name = |o: Op| m.def(o).full_name();
    for (o, part) in buffer_ops(m, entry) {
        let (bytes, align) = match m.opcode(o) {
            Opcode::Alloca => alloca_bytes(m, o),
            Opcode::LocalAlloc => (local_alloc_bytes(m, o), local_alloc_align(m, o)),
            Opcode::LocalDealloc => {
                // A partition's buffers stay reserved.
                let buf = m.operand(o, 0);
                if !part {
                    live.retain(|(v, ..)| *v != Some(buf));
                }
                continue;
            }
            _ => {
                // Scratch: at a multiple of 16 above every live buffer, as large as the
                // op's lowering needs.
                let Some(at) = offset(m, o) else { continue };
                let need = scratch_bytes(m, o, warp_bits);
                match size(m, o) {
                    Some(size) if size >= need => {}
                    Some(size) => errors.push((
                        o,
                        format!(
                            "'{}' op '{SIZE_ATTR}' {size} is smaller than the {need} bytes of shared memory its lowering uses",
                            name(o)
                        ),
                    )),
                    None => errors.push((
                        o,
                        format!(
                            "'{}' op has '{OFFSET_ATTR}' but no '{SIZE_ATTR}'",
                            name(o)
                        ),
                    )),
                }
                let top = live
                    .iter()
                    .filter(|(_, _, _, b)| !part || !reserved.contains(b))
                    .map(|(_, a, b, _)| a + b)
                    .max()
                    .unwrap_or(0);
                // A partition's scratch lies in the region reserved for the partitions,
                // below the other buffers: it must only not overlap a live one.
                let end = at + size(m, o).unwrap_or(0);
                let clear = if part {
                    !live.iter().any(|(_, b_at, b_bytes, b)| {
                        !reserved.contains(b) && at < b_at + b_bytes && *b_at < end
                    })
                } else {
                    at >= top
                };
                if !clear || !at.is_multiple_of(16) {
                    errors.push((
                        o,
                        format!(
                            "'{}' op scratch at byte {at} of shared memory is not at a multiple of 16 at or above the live buffers (which end at {top})",
                            name(o)
                        ),
                    ));
                }
                if part {
                    // Reserved for the rest of the kernel (the partition's ops do not
                    // overlap each other in time).
                    live.push((None, at, size(m, o).unwrap_or(0), o));
                    reserved.insert(o);
                }
                continue;
            }
        };
        // Not placed yet (the output of the passes before gpu-allocate-shared): valid
        // GPU-level IR, which the writer refuses.
        let Some(at) = offset(m, o) else {
            continue;
        };
        if !at.is_multiple_of(align) {
            errors.push((
                o,
                format!(
                    "'{}' op '{OFFSET_ATTR}' {at} is not a multiple of its alignment {align}",
                    name(o)
                ),
            ));
        }
        if let Some((_, b_at, b_bytes, b_op)) = live
            .iter()
            .find(|(_, b_at, b_bytes, _)| at < b_at + b_bytes && *b_at < at + bytes)
        {
            errors.push((
                o,
                format!(
                    "'{}' op buffer at bytes {at}..{} of shared memory overlaps the buffer of a live '{}' at bytes {b_at}..{}",
                    name(o),
                    at + bytes,
                    name(*b_op),
                    b_at + b_bytes
                ),
            ));
        }
        let value = (m.opcode(o) == Opcode::LocalAlloc).then(|| m.result(o, 0));
        live.push((value, at, bytes, o));
    }
    errors
}

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
//!    barriers; its place, the top of the stack at that op, is recorded on the op too; its
//!    size is the writer's (it depends on how the op is written).
//!
//! The GPU-level verifier checks that every offset is aligned and that no buffer overlaps
//! another that is alive at the same time (walking the ops in program order, as the
//! writer does); the writer refuses a buffer without one.

use crate::sizes::elem_bytes;
use tilec_ir::{Module, Op, Opcode, Type, TypeData};

/// The attribute that records a buffer's place.
pub const OFFSET_ATTR: &str = "allocation.offset";

/// The alignment of the buffer `ttg.local_alloc` `op` allocates: 1024 bytes for a
/// swizzled buffer (its XOR pattern repeats every 8 rows of up to 128 bytes, and
/// warpgroup MMA and the tensor memory accelerator apply it to the address itself), 16
/// otherwise.
pub fn local_alloc_align(m: &Module, op: Op) -> u64 {
    match m.ctx.types.get(m.value_type(m.result(op, 0))) {
        TypeData::MemDesc { swizzle, .. } if !swizzle.is_identity() => 1024,
        _ => 16,
    }
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

/// Whether `op`'s lowering uses shared memory of its own above the live buffers (its
/// scratch, fenced by barriers): a layout conversion, an `extract`, a reduction or scan
/// (across warps), and the products that run in the writer's fallback loop.
pub fn uses_scratch(m: &Module, op: Op) -> bool {
    match m.opcode(op) {
        Opcode::ConvertLayout
        | Opcode::Extract
        | Opcode::Reduce
        | Opcode::Scan
        | Opcode::MmaFScaled => true,
        Opcode::MmaF | Opcode::MmaI => m.attr_named(op, crate::mma::MMA_ATTR).is_none(),
        _ => false,
    }
}

/// The offset recorded on `op`, if any.
pub fn offset(m: &Module, op: Op) -> Option<u64> {
    m.attr_named(op, OFFSET_ATTR)
        .and_then(|a| m.ctx.attrs.get_int(a))
        .and_then(|v| u64::try_from(v).ok())
}

/// The ops of `entry` that hold shared memory, in program order.
fn buffer_ops(m: &Module, entry: Op) -> Vec<Op> {
    let mut ops = Vec::new();
    m.walk_op(entry, &mut |o| {
        if matches!(
            m.opcode(o),
            Opcode::Alloca | Opcode::LocalAlloc | Opcode::LocalDealloc
        ) || uses_scratch(m, o)
        {
            ops.push(o);
        }
    });
    ops
}

/// The `gpu-allocate-shared` pass: records [`OFFSET_ATTR`] on every `alloca` and
/// `ttg.local_alloc` of every entry of GPU-level IR `m`, and on every op that uses
/// scratch ([`uses_scratch`]: where it starts), replacing what was recorded.
pub fn allocate_shared(m: &mut Module) {
    let mut entries = Vec::new();
    m.walk(|op| {
        if m.opcode(op) == Opcode::Entry {
            entries.push(op);
        }
    });
    for e in entries {
        let ops = buffer_ops(m, e);
        let mut places: Vec<(Op, u64)> = Vec::new();
        // The allocas first, at the bottom.
        let mut top = 0u64;
        for &o in ops.iter().filter(|o| m.opcode(**o) == Opcode::Alloca) {
            let (bytes, align) = alloca_bytes(m, o);
            let at = top.next_multiple_of(align);
            top = at.saturating_add(bytes).next_multiple_of(16);
            places.push((o, at));
        }
        // Then the stack of local buffers.
        let mut live: Vec<(tilec_ir::Value, u64, u64)> = Vec::new();
        for &o in &ops {
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
                _ => places.push((o, top)),
            }
        }
        for (o, at) in places {
            let a = m.ctx.attrs.int(at as i64, Type::I32);
            m.remove_extra_attr(o, OFFSET_ATTR);
            m.push_extra_attr(o, OFFSET_ATTR, a);
        }
    }
}

/// Why the recorded places of `entry`'s buffers are invalid, if they are: a buffer
/// misaligned, or one that overlaps a placed buffer alive at the same time (each error
/// with the op it is about). Buffers without [`OFFSET_ATTR`] are not placed yet.
pub fn allocation_errors(m: &Module, entry: Op) -> Vec<(Op, String)> {
    let mut errors = Vec::new();
    let mut live: Vec<(Option<tilec_ir::Value>, u64, u64, Op)> = Vec::new();
    let name = |o: Op| m.def(o).full_name();
    for o in buffer_ops(m, entry) {
        let (bytes, align) = match m.opcode(o) {
            Opcode::Alloca => alloca_bytes(m, o),
            Opcode::LocalAlloc => (local_alloc_bytes(m, o), local_alloc_align(m, o)),
            Opcode::LocalDealloc => {
                let buf = m.operand(o, 0);
                live.retain(|(v, ..)| *v != Some(buf));
                continue;
            }
            _ => {
                // Scratch: at a multiple of 16 above every live buffer.
                let Some(at) = offset(m, o) else { continue };
                let top = live.iter().map(|(_, a, b, _)| a + b).max().unwrap_or(0);
                if at < top || !at.is_multiple_of(16) {
                    errors.push((
                        o,
                        format!(
                            "'{}' op scratch at byte {at} of shared memory is not at a multiple of 16 at or above the live buffers (which end at {top})",
                            name(o)
                        ),
                    ));
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

//! Sizes and limits that convert-to-gpu decides with and the PTX writer writes with.

use crate::layout::{Layout, shape_bits};
use tilec_ir::{Type, Value};

/// Bytes of one element of `elem` in memory (the 4-bit types and `i1` take a byte).
pub fn elem_bytes(elem: Type) -> u32 {
    match elem {
        Type::I1
        | Type::I4
        | Type::I8
        | Type::F8E4M3FN
        | Type::F8E5M2
        | Type::F8E8M0FNU
        | Type::F4E2M1FN => 1,
        Type::I16 | Type::F16 | Type::BF16 => 2,
        Type::I32 | Type::F32 | Type::TF32 => 4,
        _ => 8,
    }
}

/// The largest shared-memory buffer one layout conversion uses; larger tiles convert in
/// chunks when their layouts allow it.
pub const STAGE_BYTES: u64 = 16 * 1024;

/// The shared memory a kernel may declare statically (ptxas refuses more).
pub const MAX_STATIC_SMEM: u32 = 48 * 1024;

/// The `print` argument that drives the printing: the first of those with the most
/// elements.
pub fn print_driver(m: &tilec_ir::Module, args: &[Value]) -> Option<Value> {
    let size = |v: &Value| shape_bits(m.ctx.types.shape(m.value_type(*v)));
    let most = args.iter().map(size).max()?;
    args.iter().copied().find(|v| size(v) == most)
}

/// The number of `.b32` words a vector of `n` elements of `elem` moves as, when it is
/// moved as words: more than four 16-bit (`f16`, `bf16`, `i16`) or 8-bit integer (`i8`)
/// elements, which PTX's `.v2`/`.v4` of the element type cannot hold (eight `f16` are one
/// `ld.global.v4.b32`). `None`: the vector moves as elements.
pub fn packed_words(elem: Type, n: usize) -> Option<usize> {
    let size = match elem {
        Type::F16 | Type::BF16 | Type::I16 => 2,
        Type::I8 => 1,
        _ => return None,
    };
    (n > 4 && (n * size).is_multiple_of(4) && n * size <= 16).then_some(n * size / 4)
}

/// The most slots one global access can cover for this layout, tile shape and element
/// type (1 when the layout does not put consecutive innermost elements in consecutive
/// slots).
pub fn vector_slots(layout: &Layout, shape: &[i64], elem: Type) -> usize {
    vector_slots_along(layout, shape, elem, shape.len().saturating_sub(1))
}

/// [`vector_slots`] along tile dimension `dim`: the slots that hold consecutive elements
/// of `dim` (its lowest index bits are the layout's first register bits).
pub fn vector_slots_along(layout: &Layout, shape: &[i64], elem: Type, dim: usize) -> usize {
    if elem == Type::I1 || dim >= shape.len() {
        return 1;
    }
    let (low, width) = crate::layout::dim_bits(shape, dim);
    let mut k = 0;
    while k < layout.reg.len() && k < width as usize && layout.reg[k] as usize == low as usize + k {
        k += 1;
    }
    let size = elem_bytes(elem) as usize;
    // 16-bit and 8-bit integers and floats go up to 16 bytes (moved as `.b32` words,
    // `packed_words`); other types up to four elements.
    let most = if packed_words(elem, 16 / size).is_some() {
        16 / size
    } else {
        4
    };
    (1usize << k).min(most).min(16 / size).max(1)
}

/// The layout of a `ttg.async_copy_global_to_local`: blocked, with vectors of up to
/// `max_bytes` (16: four f32, eight 16-bit, sixteen byte elements, as much as one
/// `cp.async` moves; a copy versioned for a narrower run-time alignment asks for that
/// width, so that the lanes of one copy still write consecutive bytes). convert-to-gpu
/// (which versions the copies on the alignment of their row stride) and the writer both
/// use it.
pub fn async_copy_layout(shape: &[i64], elem: Type, warp_bits: u32, max_bytes: u32) -> Layout {
    let bytes = elem_bytes(elem).max(1);
    let vec_bits = (max_bytes.clamp(bytes, 16) / bytes).trailing_zeros().min(4);
    Layout::blocked_vec(shape_bits(shape), warp_bits, vec_bits)
}

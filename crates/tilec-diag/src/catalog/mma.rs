//! `E10xx`: mmaf and mmai.
//!
//! The spec's `verify_mma` checks, in its order: the rank of `lhs`, shared ranks, the
//! contracting dimension, M and N of the accumulator, accumulator against result shape,
//! then the element types (integer or floating). NVIDIA's `cuda-tile-opt` checks the
//! shapes with its own wording (batch, K, M, N, in that order) and then the floating
//! input/accumulator pairs; its shared-rank and accumulator/result checks are the generic
//! `{lhs, rhs, acc} have same rank` and `{acc, result} have same type` predicates.
//!
//! The spec's integer checks (`expect signedness attribute for operand A`, `integer mma
//! accumulator and result must be i32`, `integer mma inputs must share a legal integer
//! element type`) have no entry: the generic checks that run before any domain verifier
//! (the required `signedness_lhs`/`signedness_rhs` attributes and the `i8`/`i32` operand
//! and result type constraints of `mmai`) reject every input they would.
//!
//! NVIDIA's messages for the unbatched K, M and N checks start with a space (`op  shape
//! error: ...`, two spaces after `op`); the templates keep it.

use crate::codes::CodeInfo;

catalog! {
    /// `lhs` is neither a matrix nor a batch of matrices.
    MMA_RANK = CodeInfo::rule("E1001", "mma operand rank",
        "mma operand A must be rank-2 or rank-3")
        .upstream("operands must be 2D or 3D tiles")
        .explain("`mmaf` and `mmai` multiply matrices: `lhs`, `rhs` and `acc` are rank-2 tiles (`M x K`, `K x N`, `M x N`) or, for a batched multiplication, rank-3 tiles (`B x M x K`, `B x K x N`, `B x M x N`).")
        .example("%r = cuda_tile.mmaf %a, %b, %c : !cuda_tile.tile<4x8xf16>, !cuda_tile.tile<8x2xf16>, !cuda_tile.tile<4x2xf32>");
    /// The operands and the result of an mma have different ranks.
    MMA_SHARED_RANK = CodeInfo::rule("E1002", "mma operands must share rank",
        "mma operands must share rank")
        .explain("`lhs`, `rhs`, `acc` and the result of an mma are all rank-2 (a matrix multiplication) or all rank-3 (a batched one); they cannot mix ranks.")
        .example("%r = cuda_tile.mmaf %a, %b, %c : !cuda_tile.tile<2x4x8xf16>, !cuda_tile.tile<2x8x2xf16>, !cuda_tile.tile<2x4x2xf32>");
    /// A batched mma whose operands have different batch sizes.
    MMA_BATCH = CodeInfo::rule("E1003", "mma batch dimension",
        "mma batch dimension mismatch")
        .upstream("shape error: dim 0 of lhs ({lhs}) and dim 0 of {other} ({size}) must match, but got lhs shape {lhs_shape} and {other} shape {other_shape}")
        .explain("A batched (rank-3) mma multiplies `B` pairs of matrices: dimension 0 of `lhs`, `rhs` and `acc` is that batch size `B` and must be the same in all three.")
        .example("%r = cuda_tile.mmaf %a, %b, %c : !cuda_tile.tile<2x4x8xf32>, !cuda_tile.tile<2x8x16xf32>, !cuda_tile.tile<2x4x16xf32>");
    /// The contracting (K) dimensions of `lhs` and `rhs` differ.
    MMA_CONTRACTING = CodeInfo::rule("E1004", "mma contracting dimension",
        "mma contracting dimension mismatch")
        .upstream(" shape error: dim {lhs_dim} of lhs ({lhs_size}) and dim {rhs_dim} of rhs ({rhs_size}) must match, but got lhs shape {lhs_shape} and rhs shape {rhs_shape}")
        .explain("An mma multiplies an `M x K` matrix by a `K x N` one: the last dimension of `lhs` and the first matrix dimension of `rhs` (dimension 0, or 1 when batched) are the contracting dimension `K` and must be equal.")
        .example("%r = cuda_tile.mmaf %a, %b, %c : !cuda_tile.tile<4x16xf32>, !cuda_tile.tile<16x8xf32>, !cuda_tile.tile<4x8xf32>");
    /// The accumulator's M or N differs from `lhs`'s M or `rhs`'s N.
    MMA_ACC_MN = CodeInfo::rule("E1005", "mma accumulator shape",
        "mma accumulator must agree with A and B on M and N")
        .upstream(" shape error: dim {dim} of {operand} ({size}) and dim {dim} of acc ({acc_size}) must match, but got {operand} shape {shape} and acc shape {acc_shape}")
        .explain("The product of an `M x K` and a `K x N` matrix is `M x N`: the accumulator has the rows (`M`) of `lhs` and the columns (`N`) of `rhs`.")
        .example("%r = cuda_tile.mmaf %a, %b, %c : !cuda_tile.tile<16x8xf32>, !cuda_tile.tile<8x4xf32>, !cuda_tile.tile<16x4xf32>");
    /// The result of an mma has a different shape than its accumulator.
    MMA_ACC_RESULT_SHAPE = CodeInfo::rule("E1006", "mma result shape",
        "mma accumulator and result shapes must match")
        .explain("An mma adds the product to the accumulator and returns the sum: the result has the accumulator's shape (and type). This can only go wrong in the generic form, where the result type is written separately.")
        .example("%r = \"cuda_tile.mmaf\"(%a, %b, %c) : (!cuda_tile.tile<4x8xf16>, !cuda_tile.tile<8x2xf16>, !cuda_tile.tile<4x2xf32>) -> !cuda_tile.tile<4x2xf32>");
    /// `mmaf` with an accumulator type its input type does not support.
    MMAF_TYPES = CodeInfo::rule("E1007", "mmaf input/accumulator types",
        "floating mma input/accumulator pair is not supported on the target")
        .upstream("unsupported combination of element types. Input type '{input}' expects accumulator/result type to be one of {{allowed}}, but got '{acc}'")
        .explain("Each `mmaf` input type supports particular accumulator (and result) types: `f8E4M3FN`, `f8E5M2` and `f16` accumulate in `f16` or `f32`; `bf16`, `tf32` and `f32` in `f32`; `f64` in `f64`.")
        .example("%r = cuda_tile.mmaf %a, %b, %c : !cuda_tile.tile<4x8xbf16>, !cuda_tile.tile<8x2xbf16>, !cuda_tile.tile<4x2xf32>");
    /// `mmaf` whose result type differs from its accumulator's.
    MMAF_ACC_RESULT_TYPE = CodeInfo::rule("E1008", "mmaf result type",
        "floating mma accumulator and result must share type")
        .explain("`mmaf` returns the updated accumulator: the result has exactly the type of `acc`. This can only go wrong in the generic form, where the result type is written separately.")
        .example("%r = \"cuda_tile.mmaf\"(%a, %b, %c) : (!cuda_tile.tile<4x8xf16>, !cuda_tile.tile<8x2xf16>, !cuda_tile.tile<4x2xf16>) -> !cuda_tile.tile<4x2xf16>");
    /// mmai without a signedness attribute (default mode; cuda-tile-opt reports the missing
    /// attribute, E0207).
    MMAI_SIGNEDNESS = CodeInfo::rule("E1009", "mmai signedness",
        "expect signedness attribute for operand A")
        .explain("`mmai` multiplies 8-bit integers that are either signed or unsigned: both operands carry an explicit `signed` or `unsigned` attribute, written after the operands in the custom form.")
        .example("%r = cuda_tile.mmai %a, %b, %c signed signed : !cuda_tile.tile<4x8xi8>, !cuda_tile.tile<8x2xi8>, !cuda_tile.tile<4x2xi32>");
    /// mmai with an accumulator or result other than i32 (default mode; cuda-tile-opt
    /// reports the slot's type constraint, E0201).
    MMAI_ACC_I32 = CodeInfo::rule("E1010", "mmai accumulator type",
        "integer mma accumulator and result must be i32")
        .explain("Integer mma accumulates in 32-bit integers: the accumulator and the result are `i32` tiles.")
        .example("%r = cuda_tile.mmai %a, %b, %c signed signed : !cuda_tile.tile<4x8xi8>, !cuda_tile.tile<8x2xi8>, !cuda_tile.tile<4x2xi32>");
    /// mmai with inputs other than a shared legal integer type (default mode; cuda-tile-opt
    /// reports the slot's type constraint, E0201).
    MMAI_INPUTS = CodeInfo::rule("E1011", "mmai input types",
        "integer mma inputs must share a legal integer element type")
        .explain("Integer mma takes `i8` operands (both the same type); wider integers are not supported by the hardware's integer tensor-core paths.")
        .example("%r = cuda_tile.mmai %a, %b, %c signed unsigned : !cuda_tile.tile<4x8xi8>, !cuda_tile.tile<8x2xi8>, !cuda_tile.tile<4x2xi32>");
    /// `mmaf_scaled` (13.3) with `f8E4M3FN` scales on inputs other than `f4E2M1FN`.
    MMAF_SCALED_TYPES = CodeInfo::rule("E1012", "mmaf_scaled element types",
        "unsupported combination of element types. Scale type '{scale}' expects lhs and rhs element types to be '{want}', but got '{got}'")
        .explain("`mmaf_scaled` takes `f8E4M3FN`, `f8E5M2` or `f4E2M1FN` inputs with `f8E8M0FNU` (power-of-two) scales, or `f4E2M1FN` inputs with `f8E4M3FN` scales (NVFP4); it accumulates in `f32`.")
        .example("%r = cuda_tile.mmaf_scaled %a, %b, %c, %sa, %sb : !cuda_tile.tile<16x64xf4E2M1FN>, !cuda_tile.tile<64x8xf4E2M1FN>, !cuda_tile.tile<16x8xf32>, !cuda_tile.tile<16x4xf8E4M3FN>, !cuda_tile.tile<4x8xf8E4M3FN>");
    /// A scale tile whose M (or N, or batch) dimension differs from its operand's.
    MMAF_SCALED_DIM = CodeInfo::rule("E1013", "mmaf_scaled scale shape",
        "shape error: dim {dim} of {operand} ({size}) and dim {dim} of {scale} ({scale_size}) must match, but got {operand} shape {shape} and {scale} shape {scale_shape}")
        .explain("Each scale scales a block of consecutive elements along K: `lhs_scale` is `M x K/V` for an `M x K` `lhs`, and `rhs_scale` is `K/V x N` for a `K x N` `rhs` (with the batch dimension first when batched). Every dimension but K must equal the operand's.")
        .example("%r = cuda_tile.mmaf_scaled %a, %b, %c, %sa, %sb : !cuda_tile.tile<16x64xf8E4M3FN>, !cuda_tile.tile<64x8xf8E4M3FN>, !cuda_tile.tile<16x8xf32>, !cuda_tile.tile<16x2xf8E8M0FNU>, !cuda_tile.tile<2x8xf8E8M0FNU>");
    /// `lhs_scale` and `rhs_scale` disagree on the number of K blocks.
    MMAF_SCALED_K = CodeInfo::rule("E1014", "mmaf_scaled scale blocks",
        "shape error: dim {lhs_dim} of lhs_scale ({lhs_size}) and dim {rhs_dim} of rhs_scale ({rhs_size}) must match, but got lhs_scale shape {lhs_shape} and rhs_scale shape {rhs_shape}")
        .explain("Both scale tiles divide K into the same number of blocks: the last dimension of `lhs_scale` equals the K dimension of `rhs_scale`.")
        .example("%r = cuda_tile.mmaf_scaled %a, %b, %c, %sa, %sb : !cuda_tile.tile<16x64xf8E4M3FN>, !cuda_tile.tile<64x8xf8E4M3FN>, !cuda_tile.tile<16x8xf32>, !cuda_tile.tile<16x2xf8E8M0FNU>, !cuda_tile.tile<2x8xf8E8M0FNU>");
    /// A block size (K over the scale tile's K blocks) the input type does not support.
    MMAF_SCALED_BLOCK = CodeInfo::rule("E1015", "mmaf_scaled block size",
        "shape error: {what} requires block scale factor of lhs_scale and rhs_scale to be {allowed}, but got {got}")
        .explain("The block size V = K / (K blocks of the scales) is fixed by the formats: 32 for f8 inputs (MXFP8), 16 or 32 for `f4E2M1FN` with `f8E8M0FNU` scales (MXFP4), 16 for `f4E2M1FN` with `f8E4M3FN` scales (NVFP4). A K that is not a multiple of the block count is reported as the fraction `K/blocks`.")
        .example("%r = cuda_tile.mmaf_scaled %a, %b, %c, %sa, %sb : !cuda_tile.tile<16x64xf4E2M1FN>, !cuda_tile.tile<64x8xf4E2M1FN>, !cuda_tile.tile<16x8xf32>, !cuda_tile.tile<16x2xf8E8M0FNU>, !cuda_tile.tile<2x8xf8E8M0FNU>");
}

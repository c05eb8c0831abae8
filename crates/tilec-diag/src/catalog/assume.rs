//! `E11xx`: assume predicates.

use crate::codes::CodeInfo;

catalog! {
    /// A `div_by` divisor that is not a power of two.
    DIV_BY_POWER_OF_TWO = CodeInfo::rule("E1101", "div_by divisor not a power of two",
        "'cuda_tile.div_by' divisor must be a power of 2")
        .explain("`div_by<N>` states that the value (or every address) is a multiple of `N`; `N` must be a positive power of two (alignments). State the largest power of two that divides the value.")
        .example("%a = cuda_tile.assume div_by<16>, %x : !cuda_tile.tile<16xi32>");
    /// A `div_by` divisor above 2^62.
    DIV_BY_TOO_LARGE = CodeInfo::rule("E1102", "div_by divisor too large",
        "'cuda_tile.div_by' divisor is too large")
        .explain("The divisor of `div_by` is limited to 2^62 (4611686018427387904).")
        .example("%a = cuda_tile.assume div_by<4611686018427387904>, %x : !cuda_tile.tile<i64>");
    /// `div_by<..., every N along D>` on a tensor view.
    DIV_BY_EVERY_ON_VIEW = CodeInfo::rule("E1103", "div_by every/along on a tensor_view",
        "'cuda_tile.div_by' 'every'/'along' cannot be used if the constrained value is a tensor_view")
        .explain("On a tensor view, `div_by` constrains the base address and strides as a whole; the `every N along D` form describes groups of tile elements and applies to tiles only.")
        .example("%v = cuda_tile.assume div_by<16>, %t : !cuda_tile.tensor_view<64x64xf16, strides=[64,1]>");
    /// `div_by` on a value that is not a tile of integers or pointers, nor a tensor view.
    DIV_BY_TYPE = CodeInfo::rule("E1104", "div_by on an unsupported type",
        "'cuda_tile.div_by' is valid only for tile of integer/pointer or tensor_view values")
        .explain("Divisibility is a property of integers, pointers (addresses) and tensor views (base address and strides); it means nothing for floats.")
        .example("%a = cuda_tile.assume div_by<16>, %p : !cuda_tile.tile<!cuda_tile.ptr<f32>>");
    /// `div_by<..., every N along D>` on a rank-0 tile.
    DIV_BY_EVERY_ON_0D = CodeInfo::rule("E1105", "div_by every/along on a 0D tile",
        "'cuda_tile.div_by' 'every'/'along' cannot be used if the constrained value is a 0D tile")
        .explain("`every N along D` describes groups of elements along dimension `D`; a rank-0 tile has no dimensions. Use the plain `div_by<N>` form.")
        .example("%a = cuda_tile.assume div_by<8>, %p : !cuda_tile.tile<!cuda_tile.ptr<f16>>");
    /// The `along` dimension of `div_by` is outside the tile's rank.
    DIV_BY_ALONG = CodeInfo::rule("E1106", "div_by along out of range",
        "'cuda_tile.div_by' every_dim ({along}) must be >= 0 and < tile rank ({rank})")
        .explain("In `div_by<N, every E along D>`, `D` names a dimension of the constrained tile: 0 <= D < rank.")
        .example("%a = cuda_tile.assume div_by<4, every 2 along 0>, %x : !cuda_tile.tile<16xi32>");
    /// The `every` count of `div_by` exceeds its dimension.
    DIV_BY_EVERY = CodeInfo::rule("E1107", "div_by every out of range",
        "expected 'cuda_tile.div_by' every_dim to be within 0 and the size of the respective dimension ({size})")
        .explain("In `div_by<N, every E along D>`, `E` counts elements of dimension `D`, so 0 <= E <= the size of that dimension.")
        .example("%a = cuda_tile.assume div_by<4, every 16 along 0>, %x : !cuda_tile.tile<16xi32>");
    /// `same_elements` on a value that is not a tile of integers or pointers.
    SAME_ELEMENTS_TYPE = CodeInfo::rule("E1108", "same_elements on an unsupported type",
        "'cuda_tile.same_elements' is valid only for tile of integer/pointer values")
        .explain("`same_elements` states that groups of tile elements are equal; it applies to tiles of integers or pointers.")
        .example("%a = cuda_tile.assume same_elements<[8]>, %x : !cuda_tile.tile<16xi32>");
    /// `same_elements` with a group size count different from the tile's rank.
    SAME_ELEMENTS_RANK = CodeInfo::rule("E1109", "same_elements rank mismatch",
        "expected number of values in 'cuda_tile.same_elements' ({count}) to match rank of constrained tile ({rank})")
        .explain("`same_elements<[g0, g1, ...]>` gives one group size per dimension of the constrained tile.")
        .example("%a = cuda_tile.assume same_elements<[4, 1]>, %x : !cuda_tile.tile<16x8xi32>");
    /// A `same_elements` group size larger than its dimension.
    SAME_ELEMENTS_VALUE = CodeInfo::rule("E1110", "same_elements group size out of range",
        "expected 'cuda_tile.same_elements' value {index} to be within 0 and the size of the respective dimension ({size})")
        .explain("Each group size of `same_elements` lies between 0 and the size of its dimension.")
        .example("%a = cuda_tile.assume same_elements<[16]>, %x : !cuda_tile.tile<16xi32>");
    /// `bounded` on a value that is not a tile of integers.
    BOUNDED_TYPE = CodeInfo::rule("E1111", "bounded on an unsupported type",
        "'cuda_tile.bounded' is valid only for tile of integer values")
        .explain("`bounded<lb, ub>` gives a signed range of integer values; it applies to tiles of integers.")
        .example("%a = cuda_tile.assume bounded<0, ?>, %n : !cuda_tile.tile<i32>");
    /// A `bounded` lower bound outside the element type's signed range.
    BOUNDED_LOWER = CodeInfo::rule("E1112", "bounded lower bound out of range",
        "'cuda_tile.bounded' expects lower bound to be within [{min}, {max}]")
        .explain("The bounds of `bounded` are signed values of the element type: for i8, between -128 and 127.")
        .example("%a = cuda_tile.assume bounded<-128, 6>, %x : !cuda_tile.tile<16xi8>");
    /// A `bounded` upper bound outside the element type's signed range.
    BOUNDED_UPPER = CodeInfo::rule("E1113", "bounded upper bound out of range",
        "'cuda_tile.bounded' expects upper bound to be within [{min}, {max}]")
        .explain("The bounds of `bounded` are signed values of the element type: for i8, between -128 and 127.")
        .example("%a = cuda_tile.assume bounded<0, 127>, %x : !cuda_tile.tile<16xi8>");
    /// A `bounded` range whose lower bound exceeds its upper bound.
    BOUNDED_ORDER = CodeInfo::rule("E1114", "bounded range is empty",
        "'cuda_tile.bounded' expects lower bound to be less than or equal to upper bound")
        .explain("`bounded<lb, ub>` describes the values lb..=ub; a lower bound above the upper bound describes no value at all.")
        .example("%a = cuda_tile.assume bounded<6, 8>, %x : !cuda_tile.tile<16xi8>");
    /// The spec's `assume %cond` form with a condition that is not a tile of i1.
    ASSUME_CONDITION = CodeInfo::rule("E1115", "assume condition type",
        "operand #0 must be tile of i1 values, but got '{type}'")
        .explain("Without a predicate, `assume %cond` states that the boolean tile `%cond` is true everywhere, so `%cond` is a tile of i1.")
        .example("%c = cuda_tile.cmpi less_than %a, %b, signed : !cuda_tile.tile<i32> -> !cuda_tile.tile<i1>\ncuda_tile.assume %c : !cuda_tile.tile<i1>");
    /// The spec's `assume %cond` form, which NVIDIA's parser does not accept (first error).
    ASSUME_NO_PREDICATE_KEYWORD = CodeInfo::rule("E1116", "assume without a predicate (cuda-tile-opt)",
        "custom op 'cuda_tile.assume' expected valid keyword")
        .bare()
        .explain("With `--compat=cuda-tile-opt`: NVIDIA's tools only know the predicate form `assume PREDICATE, %value`, and their parser rejects the spec's `assume %cond` form with this error and E1117. Write a predicate (`div_by`, `same_elements` or `bounded`) or drop the assume.")
        .example("%n2 = cuda_tile.assume bounded<0, ?>, %n : !cuda_tile.tile<i32>");
    /// The spec's `assume %cond` form, which NVIDIA's parser does not accept (second error).
    ASSUME_NO_PREDICATE = CodeInfo::rule("E1117", "assume without a predicate name (cuda-tile-opt)",
        "custom op 'cuda_tile.assume' expected attribute name")
        .bare()
        .explain("With `--compat=cuda-tile-opt`: NVIDIA's parser expects a predicate name (`div_by`, `same_elements` or `bounded`) after `assume`; the spec's `assume %cond` form has none. It reports this after E1116.")
        .example("%n2 = cuda_tile.assume bounded<0, ?>, %n : !cuda_tile.tile<i32>");
}

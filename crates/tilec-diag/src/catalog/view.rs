//! `E07xx`: views and shapes.

use crate::codes::CodeInfo;

catalog! {
    /// `reshape` between different element types.
    RESHAPE_ELEMENT_TYPE = CodeInfo::rule("E0701", "reshape element type",
        "reshape requires matching element types")
        .upstream("requires the same element type for all operands and results")
        .explain("`reshape` only changes how the elements of a tile are indexed; it never converts them. The source and result tiles must have the same element type (use a conversion op such as `ftof` or `bitcast` to change it).")
        .example("%r = cuda_tile.reshape %a : !cuda_tile.tile<2x4xf32> -> !cuda_tile.tile<8xf32>");
    /// `reshape` that changes the number of elements.
    RESHAPE_COUNT = CodeInfo::rule("E0702", "reshape element count",
        "reshape element-count mismatch: source has {in} elements, result has {out}")
        .upstream("expected source tile and result tile to have the same number of elements")
        .explain("`reshape` keeps every element: the product of the result dimensions must equal the product of the source dimensions. A rank-0 tile holds one element and can be reshaped to any shape of size one.")
        .example("%r = cuda_tile.reshape %a : !cuda_tile.tile<8x8xf32> -> !cuda_tile.tile<4x16xf32>");
    /// `broadcast` whose source dimension is neither 1 nor the result's.
    BROADCAST_SHAPE = CodeInfo::rule("E0703", "broadcast shape",
        "expects the shape of source tile to be compatible with that of the result tile, but got: {source} and {result}")
        .explain("`broadcast` only stretches dimensions of size 1: every source dimension must be 1 or equal to the corresponding result dimension.")
        .example("%r = cuda_tile.broadcast %a : !cuda_tile.tile<1x4xf32> -> !cuda_tile.tile<2x4xf32>");
    /// `extract` between different element types.
    EXTRACT_ELEMENT_TYPE = CodeInfo::rule("E0704", "extract element type",
        "source and result element type do not match")
        .explain("`extract` returns a slice of the source tile; the result has the source's element type.")
        .example("%r = cuda_tile.extract %t[%i] : !cuda_tile.tile<8xf32> -> !cuda_tile.tile<2xf32>");
    /// `extract` whose result dimensions do not divide the source's.
    EXTRACT_DIVISIBILITY = CodeInfo::rule("E0705", "extract slice shape",
        "result dim size must divide source dim size evenly")
        .upstream("source dimension {dim} size ({source}) must be evenly divisible by result dimension {dim} size ({result})")
        .upstream_13_1("result dim size must divide source dim size evenly")
        .explain("`extract` selects one of the equally sized slices of the source, so every result dimension must divide the corresponding source dimension (a `tile<4xf32>` slice of a `tile<8xf32>`, but not a `tile<3xf32>` one).")
        .example("%r = cuda_tile.extract %t[%i, %j] : !cuda_tile.tile<32x8xf32> -> !cuda_tile.tile<4x2xf32>");
    /// `extract` with a slice index per dimension missing or extra.
    EXTRACT_INDEX_COUNT = CodeInfo::rule("E0706", "extract index count",
        "incorrect number of indices, expected {expected}, but found {found}")
        .upstream("expected {expected} indices, but got {found}")
        .upstream_13_1("incorrect number of indices, expected {expected}, but found {found}")
        .explain("`extract` takes one slice index per dimension of the source tile.")
        .example("%r = cuda_tile.extract %t[%i, %j] : !cuda_tile.tile<32x8xf32> -> !cuda_tile.tile<4x2xf32>");
    /// `cat` along a dimension the operands do not have.
    CAT_DIM = CodeInfo::rule("E0707", "cat dimension out of range",
        "expect dim to be [0, {rank}), but got: {dim}")
        .explain("The concatenation dimension `dim` must be a dimension of the operands: at least 0 and less than their rank.")
        .example("%r = cuda_tile.cat %a, %b dim = 1 : !cuda_tile.tile<2x2xf32>, !cuda_tile.tile<2x2xf32> -> !cuda_tile.tile<2x4xf32>");
    /// `cat` whose result dimension along `dim` is not the sum of the operands'.
    CAT_CONCAT_SIZE = CodeInfo::rule("E0708", "cat result size along the concatenation dimension",
        "invalid concat at position {dim}, expected: {expected} but got: {found}")
        .explain("Along the concatenation dimension the result is as long as both operands together: its size is the sum of the operands' sizes there.")
        .example("%r = cuda_tile.cat %a, %b dim = 0 : !cuda_tile.tile<2x4xf32>, !cuda_tile.tile<2x4xf32> -> !cuda_tile.tile<4x4xf32>");
    /// `cat` whose operands and result differ outside the concatenation dimension.
    CAT_OTHER_SIZE = CodeInfo::rule("E0709", "cat shapes outside the concatenation dimension",
        "expect {lhs, rhs, and result} shape to match at non-concat position {index}, expected: {expected} but got: {found}")
        .upstream("expect {which} and result shapes to match at non-concat position {index}, expected: {expected} but got: {found}")
        .upstream_13_1("expect {lhs, rhs, and result} shape to match at non-concat position {index}, expected: {expected} but got: {found}")
        .explain("Both operands and the result have the same size in every dimension other than the concatenation dimension.")
        .example("%r = cuda_tile.cat %a, %b dim = 1 : !cuda_tile.tile<2x4xf32>, !cuda_tile.tile<2x4xf32> -> !cuda_tile.tile<2x8xf32>");
    /// `permute` of a tile of rank below 2.
    PERMUTE_RANK = CodeInfo::rule("E0710", "permute rank",
        "expects at least rank 2, but got: {rank}")
        .explain("Permuting the dimensions of a rank-0 or rank-1 tile changes nothing; `permute` requires a source of rank 2 or more.")
        .example("%r = cuda_tile.permute %a [1, 0] : !cuda_tile.tile<2x4xf32> -> !cuda_tile.tile<4x2xf32>");
    /// A permutation with a length other than the source rank.
    PERMUTE_SIZE = CodeInfo::rule("E0711", "permutation length",
        "expect permutation size ({size}) to equal the rank of the source ({rank})")
        .explain("The permutation lists, for every result dimension, the source dimension it comes from: it has exactly one entry per dimension of the source.")
        .example("%r = cuda_tile.permute %a [2, 0, 1] : !cuda_tile.tile<2x4x8xf16> -> !cuda_tile.tile<8x2x4xf16>");
    /// A permutation with a repeated entry.
    PERMUTE_UNIQUE = CodeInfo::rule("E0712", "permutation entries repeat",
        "expect permutation elements to be unique")
        .explain("A permutation names every source dimension exactly once; a repeated entry would drop another dimension.")
        .example("%r = cuda_tile.permute %a [1, 0] : !cuda_tile.tile<2x4xf32> -> !cuda_tile.tile<4x2xf32>");
    /// A permutation entry that is not a dimension of the source.
    PERMUTE_BOUND = CodeInfo::rule("E0713", "permutation entry out of range",
        "permutation element at index {index} ({value}) is out of bound [0, {rank})")
        .explain("Each permutation entry is a source dimension: at least 0 and less than the source rank.")
        .example("%r = cuda_tile.permute %a [1, 0] : !cuda_tile.tile<2x4xf32> -> !cuda_tile.tile<4x2xf32>");
    /// `permute` whose result shape is not the permuted source shape.
    PERMUTE_RESULT_SHAPE = CodeInfo::rule("E0714", "permute result shape",
        "result shape invalid at index {index}, expected: {expected}, but got: {found}")
        .explain("Result dimension `i` of `permute` is source dimension `permutation[i]`; the declared result shape must be the permuted source shape.")
        .example("%r = cuda_tile.permute %a [2, 0, 1] : !cuda_tile.tile<2x4x8xf16> -> !cuda_tile.tile<8x2x4xf16>");
    /// `iota` whose result is not rank 1.
    IOTA_RANK = CodeInfo::rule("E0715", "iota rank",
        "expects result type to be 1-d tile")
        .explain("`iota` produces the sequence 0, 1, ..., n-1 as a one-dimensional tile; reshape or broadcast it for other shapes.")
        .example("%r = cuda_tile.iota : !cuda_tile.tile<32xi32>");
    /// `iota` whose extent does not fit its element type.
    IOTA_OVERFLOW = CodeInfo::rule("E0716", "iota extent too large for its element type",
        "the number of elements {count} exceeds the maximum value of element type '{type}'")
        .explain("The values of `iota` run up to n-1, so the number of elements n must not exceed 2^w for a w-bit element type (256 for `i8`). Use a wider integer type.")
        .example("%r = cuda_tile.iota : !cuda_tile.tile<512xi16>");
    /// `make_tensor_view` whose base pointer points to another element type.
    TENSOR_VIEW_POINTEE = CodeInfo::rule("E0717", "make_tensor_view pointee type",
        "expected pointer to '{expected}' to build tensor_view of this type, got '{found}'")
        .explain("The base pointer of `make_tensor_view` points to the elements of the view: its pointee type must be the element type of the `tensor_view` type.")
        .example("%v = cuda_tile.make_tensor_view %base, shape = [32, 32], strides = [32, 1] : !cuda_tile.tensor_view<32x32xf32, strides=[32,1]>");
    /// `make_tensor_view` with a dynamic-shape operand per `?` missing or extra.
    TENSOR_VIEW_DYNAMIC_SHAPE = CodeInfo::rule("E0718", "make_tensor_view dynamic shape operands",
        "expected {expected} dynamic shape operands, got {found}")
        .explain("Every `?` dimension of the result `tensor_view` type takes its value from one dynamic shape operand, and static dimensions take none.")
        .example("%v = cuda_tile.make_tensor_view %base, shape = [%n, 32], strides = [32, 1] : !cuda_tile.tile<i32> -> !cuda_tile.tensor_view<?x32xf32, strides=[32,1]>");
    /// `make_tensor_view` with a dynamic-stride operand per `?` missing or extra.
    TENSOR_VIEW_DYNAMIC_STRIDES = CodeInfo::rule("E0719", "make_tensor_view dynamic stride operands",
        "expected {expected} dynamic stride operands, got {found}")
        .explain("Every `?` stride of the result `tensor_view` type takes its value from one dynamic stride operand, and static strides take none.")
        .example("%v = cuda_tile.make_tensor_view %base, shape = [32, 32], strides = [%s, 1] : !cuda_tile.tile<i32> -> !cuda_tile.tensor_view<32x32xf32, strides=[?,1]>");
    /// Dynamic shape operands of different types.
    TENSOR_VIEW_SHAPE_TYPE = CodeInfo::rule("E0720", "make_tensor_view dynamic shape operand types",
        "expected dynamic shape index {index} to be of the same type as the other dynamic values ('{expected}'), got '{found}'")
        .explain("All dynamic shape and stride operands of one `make_tensor_view` have the same integer type.")
        .example("%v = cuda_tile.make_tensor_view %base, shape = [%n, %m], strides = [%m, 1] : !cuda_tile.tile<i32> -> !cuda_tile.tensor_view<?x?xf32, strides=[?,1]>");
    /// Dynamic stride operands of different types.
    TENSOR_VIEW_STRIDE_TYPE = CodeInfo::rule("E0721", "make_tensor_view dynamic stride operand types",
        "expected dynamic stride index {index} to be of the same type as the other dynamic values ('{expected}'), got '{found}'")
        .explain("All dynamic shape and stride operands of one `make_tensor_view` have the same integer type.")
        .example("%v = cuda_tile.make_tensor_view %base, shape = [%n, 32], strides = [%s, 1] : !cuda_tile.tile<i64> -> !cuda_tile.tensor_view<?x32xf32, strides=[?,1]>");
    /// `make_partition_view` of a tensor view other than the partition type's.
    PARTITION_VIEW_TENSOR_VIEW = CodeInfo::rule("E0722", "make_partition_view tensor view type",
        "expected the type of the provided tensor_view value ('{found}') to be the same as the view's tensor_view type ('{expected}')")
        .explain("A `partition_view` type names the `tensor_view` type it partitions; the operand of `make_partition_view` must have exactly that type.")
        .example("%p = cuda_tile.make_partition_view %v : !cuda_tile.partition_view<tile=(64x64), tensor_view<8192x128xf32, strides=[128,1]>>");
    /// `get_tensor_shape` with a result per dimension missing or extra.
    TENSOR_SHAPE_RESULTS = CodeInfo::rule("E0723", "get_tensor_shape result count",
        "expected {expected} results due to tensor rank, but got {found}")
        .explain("`get_tensor_shape` returns one rank-0 integer tile per dimension of the tensor view.")
        .example("%m, %n = cuda_tile.get_tensor_shape %v : !cuda_tile.tensor_view<64x64xf16, strides=[64,1]> -> !cuda_tile.tile<i32>");
    /// `get_index_space_shape` with a result per index dimension missing or extra.
    INDEX_SPACE_RESULTS = CodeInfo::rule("E0724", "get_index_space_shape result count",
        "expected {expected} results due to view index space rank, but got {found}")
        .explain("`get_index_space_shape` returns one rank-0 integer tile per dimension of the view's index space (for a partition view, the rank of its tiles).")
        .example("%m, %n = cuda_tile.get_index_space_shape %p : !cuda_tile.partition_view<tile=(4x4), tensor_view<?x?xf32, strides=[?,1]>> -> !cuda_tile.tile<i32>");
    /// `pack`/`unpack` of a tile that is not rank 1.
    PACK_RANK = CodeInfo::rule("E0725", "pack/unpack rank",
        "expects source and result to be rank-1 tiles")
        .explain("`pack` reinterprets a rank-1 tile as its bytes and `unpack` the bytes of a rank-1 `i8` tile as another element type; both sides are rank 1, so that the byte order is not ambiguous. Reshape to rank 1 first.")
        .example("%b = cuda_tile.pack %x : !cuda_tile.tile<64xf16> -> !cuda_tile.tile<128xi8>");
    /// `pack`/`unpack` between 8-bit element types.
    PACK_WIDTHS = CodeInfo::rule("E0726", "pack/unpack of 8-bit elements",
        "expects source and result to have different element type widths")
        .explain("Between two 8-bit element types `pack` and `unpack` would only rename the elements: use `bitcast`.")
        .example("%b = cuda_tile.bitcast %x : !cuda_tile.tile<32xf8E4M3FN> -> !cuda_tile.tile<32xi8>");
    /// `pack`/`unpack` whose two sides hold different numbers of bytes.
    PACK_BYTES = CodeInfo::rule("E0727", "pack/unpack size",
        "expects source and result to have the same size in bytes, but got source tile size {source} bytes and result tile size {result} bytes")
        .explain("`pack` and `unpack` keep every bit: the `i8` side has one element per byte of the other side (`i1` takes a bit, `i4` and `f4E2M1FN` half a byte, `tf32` four bytes).")
        .example("%x = cuda_tile.unpack %b : !cuda_tile.tile<128xi8> -> !cuda_tile.tile<64xf16>");
    /// `select` on a sub-byte element type (13.3).
    SELECT_SUB_BYTE = CodeInfo::rule("E0728", "select on a sub-byte type",
        "cannot operate on sub-byte type {type}")
        .explain("`select` chooses whole elements; the 4-bit types of 13.3 (`f4E2M1FN`, `i4`) are packed two to a byte, so NVIDIA's `select` refuses them. Select on the bytes (`pack`/`unpack`) or on a wider type.")
        .example("%r = cuda_tile.select %c, %a, %b : !cuda_tile.tile<4xi1>, !cuda_tile.tile<4xf8E4M3FN>");
    /// A view index that is not a rank-0 tile (partition and strided views).
    VIEW_INDEX_SCALAR = CodeInfo::rule("E0740", "view index rank",
        "expected index type to be a scalar tile, got '{found}'")
        .explain("A partition view or strided view is indexed by one rank-0 integer tile per dimension of its index space (only a gather/scatter view takes a 1-d tile, for its sparse dimension).")
        .example("%r, %t = cuda_tile.load_view_tko weak %v[%i, %j] : !cuda_tile.strided_view<tile=(2x2), traversal_strides=[1,1], tensor_view<4x4xf32, strides=[4,1]>>, !cuda_tile.tile<i32> -> !cuda_tile.tile<2x2xf32>, !cuda_tile.token");
    /// A gather/scatter view's sparse-dimension index that is not a 1-d tile.
    GATHER_INDEX_RANK = CodeInfo::rule("E0741", "gather/scatter row index rank",
        "expected index at sparse_dim position {dim} to be a 1D tensor for GatherScatterView, got rank {rank}")
        .explain("The index of a gather/scatter view's sparse dimension is a 1-d tile holding the row of the tensor view for each row of the tile.")
        .example("%r, %t = cuda_tile.load_view_tko weak %v[%rows, %j] : !cuda_tile.gather_scatter_view<tile=(4x8), tensor_view<64x8xf32, strides=[8,1]>, sparse_dim=0>, !cuda_tile.tile<4xi32>, !cuda_tile.tile<i32> -> !cuda_tile.tile<4x8xf32>, !cuda_tile.token");
    /// A gather/scatter view's row-index tile of the wrong length.
    GATHER_INDEX_SIZE = CodeInfo::rule("E0742", "gather/scatter row index length",
        "expected gather/scatter index size ({size}) to match tile shape at gather/scatter dimension {dim} ({tile})")
        .explain("The row-index tile of a gather/scatter view names one row per row of the tile: its length is the tile's size along `sparse_dim`.")
        .example("%r, %t = cuda_tile.load_view_tko weak %v[%rows, %j] : !cuda_tile.gather_scatter_view<tile=(4x8), tensor_view<64x8xf32, strides=[8,1]>, sparse_dim=0>, !cuda_tile.tile<4xi32>, !cuda_tile.tile<i32> -> !cuda_tile.tile<4x8xf32>, !cuda_tile.token");
    /// A gather/scatter view's index, other than the sparse dimension's, that is not rank 0.
    GATHER_INDEX_SCALAR = CodeInfo::rule("E0743", "gather/scatter dense index rank",
        "expected index {index} to be a scalar tile for GatherScatterView")
        .explain("Every index of a gather/scatter view but the sparse dimension's is a rank-0 integer tile, the tile's position along that dimension.")
        .example("%r, %t = cuda_tile.load_view_tko weak %v[%rows, %j] : !cuda_tile.gather_scatter_view<tile=(4x8), tensor_view<64x8xf32, strides=[8,1]>, sparse_dim=0>, !cuda_tile.tile<4xi32>, !cuda_tile.tile<i32> -> !cuda_tile.tile<4x8xf32>, !cuda_tile.token");
    /// Dense indices of a gather/scatter view of different types.
    GATHER_INDEX_TYPE = CodeInfo::rule("E0744", "gather/scatter dense index types",
        "expected scalar index {index} to have the same type as other scalar indices ('{expected}'), got '{found}'")
        .explain("The rank-0 indices of one gather/scatter view access all have the same integer type (the row-index tile may differ).")
        .example("%r, %t = cuda_tile.load_view_tko weak %v[%rows, %j] : !cuda_tile.gather_scatter_view<tile=(4x8), tensor_view<64x8xf32, strides=[8,1]>, sparse_dim=0>, !cuda_tile.tile<4xi32>, !cuda_tile.tile<i32> -> !cuda_tile.tile<4x8xf32>, !cuda_tile.token");
    /// `make_strided_view`/`make_gather_scatter_view` of a tensor view other than the view type's.
    VIEW_TENSOR_VIEW = CodeInfo::rule("E0745", "make_strided_view/make_gather_scatter_view tensor view type",
        "expected the type of the provided tensor_view value ('{found}') to be the same as the view's tensor_view type ('{expected}')")
        .explain("A `strided_view` or `gather_scatter_view` type names the `tensor_view` type it looks into; the operand of `make_strided_view` or `make_gather_scatter_view` must have exactly that type.")
        .example("%s = cuda_tile.make_strided_view %v : !cuda_tile.strided_view<tile=(2x2), traversal_strides=[1,1], tensor_view<4x4xf32, strides=[4,1]>>");
    /// A view-making op whose result is another kind of view.
    VIEW_RESULT_KIND = CodeInfo::rule("E0746", "view kind of a view-making op",
        "result #0 must be {kind}, but got '{found}'")
        .explain("`make_partition_view` makes a `partition_view`, `make_strided_view` a `strided_view` and `make_gather_scatter_view` a `gather_scatter_view`.")
        .example("%s = cuda_tile.make_gather_scatter_view %v : !cuda_tile.gather_scatter_view<tile=(4x8), tensor_view<64x8xf32, strides=[8,1]>, sparse_dim=0>");
    /// `atomic_red_view_tko` on a gather/scatter view.
    RED_VIEW_GATHER = CodeInfo::rule("E0750", "atomic_red_view_tko on a gather/scatter view",
        "gather_scatter_view is not supported; use partition_view instead")
        .explain("`atomic_red_view_tko` reduces into a tile of a `partition_view` or a `strided_view`; gather/scatter views are not supported.")
        .example("%t = cuda_tile.atomic_red_view_tko relaxed device %v[%i, %j], add, %x : !cuda_tile.tile<2x2xi32>, !cuda_tile.partition_view<tile=(2x2), tensor_view<4x4xi32, strides=[4,1]>>, !cuda_tile.tile<i32> -> !cuda_tile.token");
    /// `atomic_red_view_tko` on a view with a padding value.
    RED_VIEW_PADDING = CodeInfo::rule("E0751", "atomic_red_view_tko on a padded view",
        "views with padding_value are not supported for atomic reductions")
        .explain("Out-of-bounds elements of an atomic reduction are masked; a padding value, which only loads read, is not allowed on its view.")
        .example("%t = cuda_tile.atomic_red_view_tko relaxed device %v[%i, %j], add, %x : !cuda_tile.tile<2x2xi32>, !cuda_tile.partition_view<tile=(2x2), tensor_view<4x4xi32, strides=[4,1]>>, !cuda_tile.tile<i32> -> !cuda_tile.token");
    /// `atomic_red_view_tko` whose value has another element type than the view.
    RED_VIEW_ELEMENT = CodeInfo::rule("E0752", "atomic_red_view_tko element type",
        "view element type ('{view}') must match value element type ('{value}')")
        .explain("The value reduced into a view has the element type of the view's tensor view.")
        .example("%t = cuda_tile.atomic_red_view_tko relaxed device %v[%i, %j], add, %x : !cuda_tile.tile<2x2xi32>, !cuda_tile.partition_view<tile=(2x2), tensor_view<4x4xi32, strides=[4,1]>>, !cuda_tile.tile<i32> -> !cuda_tile.token");
    /// `atomic_red_view_tko` whose value has another shape than the view's tiles.
    RED_VIEW_SHAPE = CodeInfo::rule("E0753", "atomic_red_view_tko value shape",
        "view tile shape {view} must match value shape {value} for element-wise atomic operations")
        .explain("`atomic_red_view_tko` updates each element of one tile of the view with the matching element of the value: the value has the view's tile shape.")
        .example("%t = cuda_tile.atomic_red_view_tko relaxed device %v[%i, %j], add, %x : !cuda_tile.tile<2x2xi32>, !cuda_tile.partition_view<tile=(2x2), tensor_view<4x4xi32, strides=[4,1]>>, !cuda_tile.tile<i32> -> !cuda_tile.token");
    /// `atomic_red_view_tko` with the `xchg` mode.
    RED_VIEW_XCHG = CodeInfo::rule("E0754", "atomic_red_view_tko xchg",
        "atomic_red_view_tko op cannot use xchg operation")
        .explain("A reduction does not return the old values, so an exchange would only be a store: use `store_view_tko` (or `atomic_rmw_tko` to get the old values).")
        .example("%t = cuda_tile.atomic_red_view_tko relaxed device %v[%i, %j], add, %x : !cuda_tile.tile<2x2xi32>, !cuda_tile.partition_view<tile=(2x2), tensor_view<4x4xi32, strides=[4,1]>>, !cuda_tile.tile<i32> -> !cuda_tile.token");
    /// An integer mode of `atomic_red_view_tko` on another element type.
    RED_VIEW_INTEGER_MODE = CodeInfo::rule("E0755", "atomic_red_view_tko integer mode element type",
        "'{mode}' works only with integers i32 and i64")
        .explain("The integer modes of `atomic_red_view_tko` (`and`, `or`, `xor`, `add`, `max`, `min`, `umax`, `umin`) update 32- or 64-bit integers only.")
        .example("%t = cuda_tile.atomic_red_view_tko relaxed device %v[%i, %j], add, %x : !cuda_tile.tile<2x2xi32>, !cuda_tile.partition_view<tile=(2x2), tensor_view<4x4xi32, strides=[4,1]>>, !cuda_tile.tile<i32> -> !cuda_tile.token");
    /// `addf` reduction on an unsupported element type.
    RED_VIEW_ADDF = CodeInfo::rule("E0756", "atomic_red_view_tko addf element type",
        "'{mode}' works only with floats f16, bf16, f32, and f64")
        .explain("Atomic floating-point addition into a view is available for `f16`, `bf16` (sm_90 and later), `f32` and `f64` elements.")
        .example("%t = cuda_tile.atomic_red_view_tko relaxed device %v[%i, %j], addf, %x : !cuda_tile.tile<2x2xf32>, !cuda_tile.partition_view<tile=(2x2), tensor_view<4x4xf32, strides=[4,1]>>, !cuda_tile.tile<i32> -> !cuda_tile.token");
    /// `atomic_red_view_tko` with an ordering other than `relaxed`.
    RED_VIEW_ORDERING = CodeInfo::rule("E0757", "atomic_red_view_tko memory ordering",
        "only 'relaxed' memory ordering is supported for view-based atomic reductions")
        .explain("View-based atomic reductions are `relaxed` (which lets them use the bulk reductions of Hopper and later GPUs).")
        .example("%t = cuda_tile.atomic_red_view_tko relaxed device %v[%i, %j], add, %x : !cuda_tile.tile<2x2xi32>, !cuda_tile.partition_view<tile=(2x2), tensor_view<4x4xi32, strides=[4,1]>>, !cuda_tile.tile<i32> -> !cuda_tile.token");
    /// `atomic_red_view_tko` with the system scope.
    RED_VIEW_SCOPE = CodeInfo::rule("E0758", "atomic_red_view_tko memory scope",
        "memory scope 'sys' is not supported for view-based atomic reductions; use 'tl_blk' or 'device' for TMA compatibility")
        .explain("View-based atomic reductions take the `tl_blk` or `device` scope.")
        .example("%t = cuda_tile.atomic_red_view_tko relaxed device %v[%i, %j], add, %x : !cuda_tile.tile<2x2xi32>, !cuda_tile.partition_view<tile=(2x2), tensor_view<4x4xi32, strides=[4,1]>>, !cuda_tile.tile<i32> -> !cuda_tile.token");
    /// `atomic_red_view_tko` with an index per view dimension missing or extra.
    RED_VIEW_INDEX_COUNT = CodeInfo::rule("E0759", "atomic_red_view_tko index count",
        "expected {expected} index operand(s) for view with tile rank {expected}, got {found}")
        .explain("`atomic_red_view_tko` takes one index per dimension of the view's tiles.")
        .example("%t = cuda_tile.atomic_red_view_tko relaxed device %v[%i, %j], add, %x : !cuda_tile.tile<2x2xi32>, !cuda_tile.partition_view<tile=(2x2), tensor_view<4x4xi32, strides=[4,1]>>, !cuda_tile.tile<i32> -> !cuda_tile.token");
    /// `atomic_red_view_tko` with an index that is not rank 0.
    RED_VIEW_INDEX_SCALAR = CodeInfo::rule("E0760", "atomic_red_view_tko index rank",
        "index operand {index} must be a scalar tile (rank 0), got shape {shape}")
        .explain("Each index of `atomic_red_view_tko` is a rank-0 integer tile.")
        .example("%t = cuda_tile.atomic_red_view_tko relaxed device %v[%i, %j], add, %x : !cuda_tile.tile<2x2xi32>, !cuda_tile.partition_view<tile=(2x2), tensor_view<4x4xi32, strides=[4,1]>>, !cuda_tile.tile<i32> -> !cuda_tile.token");
}

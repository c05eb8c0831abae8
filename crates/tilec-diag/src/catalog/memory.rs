//! `E05xx`: token-ordered memory and atomics.

use crate::codes::CodeInfo;

catalog! {
    /// A pointer tile whose pointee is not the value's element type.
    POINTEE = CodeInfo::rule("E0501", "pointer pointee type",
        "pointer pointee element type must match value element type")
        .upstream("failed to verify that `{pointer}` type is expected a pointer type of `{value}` type")
        .explain("A pointer memory op reads or writes elements of its pointers' pointee type: the tile of pointers must point to the element type of the loaded or stored tile (`tile<8xptr<f32>>` for a `tile<8xf32>`).")
        .example("%r, %t = cuda_tile.load_ptr_tko weak %p : !cuda_tile.tile<8x!cuda_tile.ptr<f32>> -> !cuda_tile.tile<8xf32>, !cuda_tile.token");
    /// A pointer tile whose shape is not the value's.
    POINTER_SHAPE = CodeInfo::rule("E0502", "pointer tile shape",
        "pointer tile shape must match value shape")
        .upstream("failed to verify that `{pointer}` type is expected a pointer type of `{value}` type")
        .explain("A pointer memory op accesses one element per pointer: the tile of pointers has the shape of the loaded or stored tile.")
        .example("%t = cuda_tile.store_ptr_tko weak %p, %x : !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, !cuda_tile.tile<8xf32> -> !cuda_tile.token");
    /// A mask whose shape is not the value's.
    MASK_SHAPE = CodeInfo::rule("E0503", "mask shape",
        "mask shape must match value shape")
        .upstream("failed to verify that shape of '{first}' must match the shape of '{second}'")
        .explain("The mask of a memory op holds one `i1` per accessed element: it has the shape of the loaded or stored tile.")
        .example("%t = cuda_tile.store_ptr_tko weak %p, %x, %m : !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, !cuda_tile.tile<8xf32>, !cuda_tile.tile<8xi1> -> !cuda_tile.token");
    /// A padding value whose type is not the loaded tile's.
    PADDING_TYPE = CodeInfo::rule("E0504", "padding value type",
        "failed to verify that type of 'paddingValue' must match the type of 'result'")
        .explain("The padding value of `load_ptr_tko` supplies the masked-off elements of the result, so it has the result's type.")
        .example("%r, %t = cuda_tile.load_ptr_tko weak %p, %m, %pad : !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, !cuda_tile.tile<8xi1>, !cuda_tile.tile<8xf32> -> !cuda_tile.tile<8xf32>, !cuda_tile.token");
    /// A load with `release` or `acq_rel` ordering.
    LOAD_ORDERING = CodeInfo::rule("E0505", "load memory ordering",
        "load ordering must be weak, relaxed, or acquire")
        .upstream("expect one of: weak, relaxed, or acquire, but got: {ordering}")
        .explain("A load can only acquire: its memory ordering is `weak`, `relaxed` or `acquire`; `release` and `acq_rel` apply to stores and atomics.")
        .example("%r, %t = cuda_tile.load_ptr_tko acquire device %p : !cuda_tile.tile<8x!cuda_tile.ptr<f32>> -> !cuda_tile.tile<8xf32>, !cuda_tile.token");
    /// A store with `acquire` or `acq_rel` ordering.
    STORE_ORDERING = CodeInfo::rule("E0506", "store memory ordering",
        "store ordering must be weak, relaxed, or release")
        .upstream("expect one of: weak, relaxed, or release, but got: {ordering}")
        .explain("A store can only release: its memory ordering is `weak`, `relaxed` or `release`; `acquire` and `acq_rel` apply to loads and atomics.")
        .example("%t = cuda_tile.store_ptr_tko release device %p, %x : !cuda_tile.tile<8x!cuda_tile.ptr<f32>>, !cuda_tile.tile<8xf32> -> !cuda_tile.token");
    /// A weak access with a memory scope.
    WEAK_SCOPE = CodeInfo::rule("E0507", "weak ordering with a scope",
        "weak memory ordering must not carry a scope")
        .upstream("weak {kind} must not have memory scope")
        .explain("`weak` ordering promises that no other thread accesses the location concurrently, so there is no communication scope to name. Drop the scope, or use `relaxed` (or stronger) ordering with it.")
        .example("%r, %t = cuda_tile.load_ptr_tko weak %p : !cuda_tile.tile<8x!cuda_tile.ptr<f32>> -> !cuda_tile.tile<8xf32>, !cuda_tile.token");
    /// A non-weak access without a memory scope.
    SCOPE_REQUIRED = CodeInfo::rule("E0508", "non-weak ordering without a scope",
        "non-weak memory ordering requires an explicit scope")
        .upstream("memory scope is required for {ordering} {kind}")
        .explain("`relaxed`, `acquire` and `release` accesses may race with other threads; the scope (`tl_blk`, `device` or `sys`) says which threads take part.")
        .example("%r, %t = cuda_tile.load_ptr_tko relaxed device %p : !cuda_tile.tile<8x!cuda_tile.ptr<f32>> -> !cuda_tile.tile<8xf32>, !cuda_tile.token");
    /// A view access with an index per index-space dimension missing or extra.
    VIEW_INDEX_COUNT = CodeInfo::rule("E0509", "view index count",
        "expected {expected} index operands (based on view type), got {found}")
        .explain("`load_view_tko` and `store_view_tko` take one index per dimension of the view's index space (for a partition view, the rank of its tiles).")
        .example("%r, %t = cuda_tile.load_view_tko weak %v[%i, %j] : !cuda_tile.partition_view<tile=(64x64), tensor_view<8192x128xf32, strides=[128,1]>>, !cuda_tile.tile<i32> -> !cuda_tile.tile<64x64xf32>, !cuda_tile.token");
    /// A view access whose tile has another element type than the view.
    VIEW_ELEMENT_TYPE = CodeInfo::rule("E0510", "view element type",
        "view element type must match value element type: expected '{expected}' (based on view type), got '{found}'")
        .upstream("expected tile type to be '{expected}' (based on view type), got '{found}'")
        .explain("The tile loaded from or stored to a view has the view's element type.")
        .example("%t = cuda_tile.store_view_tko weak %x, %v[%i, %j] : !cuda_tile.tile<64x64xf32>, !cuda_tile.partition_view<tile=(64x64), tensor_view<8192x128xf32, strides=[128,1]>>, !cuda_tile.tile<i32> -> !cuda_tile.token");
    /// A view access whose tile has another shape than the view's tiles.
    VIEW_TILE_SHAPE = CodeInfo::rule("E0511", "view tile shape",
        "view tile shape must match value shape: expected '{expected}' (based on view type), got '{found}'")
        .upstream("expected tile type to be '{expected}' (based on view type), got '{found}'")
        .explain("The tile loaded from or stored to a partition view has the shape of the view's tiles (`tile=(...)` in its type).")
        .example("%r, %t = cuda_tile.load_view_tko weak %v[%i, %j] : !cuda_tile.partition_view<tile=(64x64), tensor_view<8192x128xf32, strides=[128,1]>>, !cuda_tile.tile<i32> -> !cuda_tile.tile<64x64xf32>, !cuda_tile.token");
    /// View indices of different types.
    VIEW_INDEX_TYPE = CodeInfo::rule("E0512", "view index types",
        "expected index type {index} to be the same as other index types ('{expected}'), got '{found}'")
        .explain("All indices of one view access have the same integer type.")
        .example("%r, %t = cuda_tile.load_view_tko weak %v[%i, %j] : !cuda_tile.partition_view<tile=(64x64), tensor_view<8192x128xf32, strides=[128,1]>>, !cuda_tile.tile<i32> -> !cuda_tile.tile<64x64xf32>, !cuda_tile.token");
    /// `join_tokens` of fewer than two tokens.
    JOIN_TOKENS_COUNT = CodeInfo::rule("E0513", "join_tokens operand count",
        "expect two or more tokens")
        .explain("`join_tokens` merges several tokens into one; with a single token, use that token directly.")
        .example("%t = cuda_tile.join_tokens %t0, %t1 : !cuda_tile.token");
    /// An atomic whose pointers point to another type than its value's elements.
    ATOMIC_POINTEE = CodeInfo::rule("E0520", "atomic pointee type",
        "pointer pointee element type must match value element type")
        .upstream("expected pointee type ('{pointee}') to match element type of '{slot}' ('{elem}')")
        .explain("An atomic op updates elements of its pointers' pointee type: the pointers must point to the element type of its value operands and result.")
        .example("%r, %t = cuda_tile.atomic_rmw_tko relaxed device %p, add, %x : !cuda_tile.tile<2x!cuda_tile.ptr<i32>>, !cuda_tile.tile<2xi32> -> !cuda_tile.tile<2xi32>, !cuda_tile.token");
    /// An integer read-modify-write mode on other than i32 or i64.
    RMW_INTEGER_MODE = CodeInfo::rule("E0521", "integer atomic mode element type",
        "integer rmw mode requires i32 or i64 element type")
        .upstream("'{mode}' works only with integers i32 and i64")
        .explain("The bitwise and integer modes of `atomic_rmw_tko` (`and`, `or`, `xor`, `add`, `max`, `min`, `umax`, `umin`) update 32- or 64-bit integers only.")
        .example("%r, %t = cuda_tile.atomic_rmw_tko relaxed device %p, max, %x : !cuda_tile.tile<2x!cuda_tile.ptr<i64>>, !cuda_tile.tile<2xi64> -> !cuda_tile.tile<2xi64>, !cuda_tile.token");
    /// `addf` on an unsupported element type.
    RMW_ADDF = CodeInfo::rule("E0522", "addf atomic element type",
        "floating-add rmw requires a target-supported floating width")
        .upstream("'{mode}' works only with floats f16, bf16, f32, and f64")
        .upstream_13_1("'{mode}' works only with floats f16, f32, and f64")
        .explain("Atomic floating-point addition is available for `f16`, `bf16` (from release 13.3) `f32` and `f64` elements only.")
        .example("%r, %t = cuda_tile.atomic_rmw_tko relaxed device %p, addf, %x : !cuda_tile.tile<2x!cuda_tile.ptr<f32>>, !cuda_tile.tile<2xf32> -> !cuda_tile.tile<2xf32>, !cuda_tile.token");
    /// `xchg` on an unsupported element width.
    RMW_XCHG = CodeInfo::rule("E0523", "xchg atomic element type",
        "xchg rmw requires a target-supported atomic width")
        .upstream("'{mode}' works only with integers or float of 32 or 64 bitwidth")
        .explain("Atomic exchange works on 32- and 64-bit integer or float elements.")
        .example("%r, %t = cuda_tile.atomic_rmw_tko relaxed device %p, xchg, %x : !cuda_tile.tile<2x!cuda_tile.ptr<f32>>, !cuda_tile.tile<2xf32> -> !cuda_tile.tile<2xf32>, !cuda_tile.token");
    /// `atomic_cas_tko` on an unsupported element width.
    CAS_WIDTH = CodeInfo::rule("E0524", "compare-and-swap element type",
        "expect only float or integer types with 32 or 64 bit")
        .explain("Atomic compare-and-swap works on 32- and 64-bit integer or float elements.")
        .example("%r, %t = cuda_tile.atomic_cas_tko relaxed device %p, %c, %x : !cuda_tile.tile<2x!cuda_tile.ptr<i32>>, !cuda_tile.tile<2xi32> -> !cuda_tile.tile<2xi32>, !cuda_tile.token");
    /// An atomic with weak ordering.
    ATOMIC_ORDERING = CodeInfo::rule("E0525", "atomic memory ordering",
        "memory ordering semantics must be one of: relaxed, acquire, release, acq_rel")
        .explain("Atomics exist to communicate between threads, so `weak` ordering (which promises no concurrent access) is not allowed; use `relaxed` or stronger, with a scope.")
        .example("%r, %t = cuda_tile.atomic_rmw_tko relaxed device %p, add, %x : !cuda_tile.tile<2x!cuda_tile.ptr<i32>>, !cuda_tile.tile<2xi32> -> !cuda_tile.tile<2xi32>, !cuda_tile.token");
    /// A compare-and-swap whose mask is shaped unlike its pointers and values.
    CAS_MASK_SHAPE = CodeInfo::rule("E0526", "compare-and-swap mask shape",
        "mask shape must match value shape")
        .upstream("failed to verify that all of {pointers, val, cmp and mask} have same shape")
        .explain("The mask of `atomic_cas_tko` selects elements: it has the shape of the pointer tile and of the compared and swapped values.")
        .example("%r, %t = cuda_tile.atomic_cas_tko relaxed device %p, %c, %x, %m : !cuda_tile.tile<2x!cuda_tile.ptr<i32>>, !cuda_tile.tile<2xi32>, !cuda_tile.tile<2xi1> -> !cuda_tile.tile<2xi32>, !cuda_tile.token");
    /// `alloca` (13.3) whose alignment is not a power of two.
    ALLOCA_ALIGN_POW2 = CodeInfo::rule("E0527", "alloca alignment",
        "'alignment' must be power of two")
        .explain("`alloca` returns an address aligned to `alignment` bytes, which must be a non-zero power of two.")
        .example("%p = cuda_tile.alloca num_elem = 64, alignment = 16 : !cuda_tile.tile<!cuda_tile.ptr<f32>>");
    /// `alloca` (13.3) aligned to less than its element's size.
    ALLOCA_ALIGN_NATURAL = CodeInfo::rule("E0528", "alloca alignment below the element size",
        "'alignment' ({alignment}) must be at least the natural size ({size} bytes) for element type '{type}'")
        .explain("The allocation holds elements of the pointee type, so its alignment is at least one element's size in bytes (a pointer's is 8).")
        .example("%p = cuda_tile.alloca num_elem = 64, alignment = 4 : !cuda_tile.tile<!cuda_tile.ptr<f32>>");
}

"""cuTile Python kernels for tilec's corpus of real Tile IR.

Every kernel here is exported offline (no GPU needed) by ``regen.py`` to Tile IR
bytecode and disassembled to text.  ``CORPUS`` at the bottom lists, for each
corpus file, the kernel and the signatures (argument types, assumptions and
compile-time constants) it is exported with; a file holds one ``entry`` per
signature.

Requires the ``cuda-tile`` package (tested with 1.7.0).
"""

import math

import cuda.tile as ct
from cuda.tile.compilation import (ArrayConstraint, CallingConvention, KernelSignature,
                                   ScalarConstraint)

ConstInt = ct.Constant[int]

GELU_K0 = math.sqrt(2.0 / math.pi)  # folded into the kernel as a constant


# --------------------------------------------------------------------------
# Elementwise kernels
# --------------------------------------------------------------------------

@ct.kernel
def vector_add(a, b, c, TILE: ConstInt):
    # c[i] = a[i] + b[i]; one TILE-element chunk per block.
    pid = ct.bid(0)
    x = ct.load(a, index=(pid,), shape=(TILE,))
    y = ct.load(b, index=(pid,), shape=(TILE,))
    ct.store(c, index=(pid,), tile=x + y)


@ct.kernel
def saxpy(alpha, x, y, TILE: ConstInt):
    # y[i] = alpha * x[i] + y[i], with alpha a runtime f32 scalar argument.
    pid = ct.bid(0)
    xv = ct.load(x, index=(pid,), shape=(TILE,))
    yv = ct.load(y, index=(pid,), shape=(TILE,))
    ct.store(y, index=(pid,), tile=alpha * xv + yv)


@ct.kernel
def relu6_scale(x, out, TILE: ConstInt):
    # out[i] = min(max(x[i], 0), 6) * 0.5 -- clamp against float constants.
    pid = ct.bid(0)
    v = ct.load(x, index=(pid,), shape=(TILE,))
    v = ct.minimum(ct.maximum(v, 0.0), 6.0)
    ct.store(out, index=(pid,), tile=v * 0.5)


@ct.kernel
def leaky_relu_f16(x, out, TILE: ConstInt):
    # out[i] = x[i] > 0 ? x[i] : 0.01 * x[i], on f16 data, via where().
    pid = ct.bid(0)
    v = ct.load(x, index=(pid,), shape=(TILE,))
    slope = ct.astype(ct.full((TILE,), 0.01, ct.float32), v.dtype)
    ct.store(out, index=(pid,), tile=ct.where(v > 0, v, v * slope))


@ct.kernel
def bias_gelu_tanh(x, bias, out, TM: ConstInt, TN: ConstInt):
    # out = gelu(x + bias) on a 2-D (rows x cols) array, bias broadcast over rows;
    # tanh form: 0.5*h*(1 + tanh(sqrt(2/pi) * (h + 0.044715*h^3))).
    i = ct.bid(0)
    j = ct.bid(1)
    h = ct.load(x, index=(i, j), shape=(TM, TN), padding_mode=ct.PaddingMode.ZERO)
    b = ct.load(bias, index=(j,), shape=(TN,), padding_mode=ct.PaddingMode.ZERO)
    h = ct.astype(h, ct.float32) + ct.astype(ct.reshape(b, (1, TN)), ct.float32)
    u = GELU_K0 * (h + 0.044715 * h * h * h)
    g = 0.5 * h * (1.0 + ct.tanh(u))
    ct.store(out, index=(i, j), tile=ct.astype(g, out.dtype))


@ct.kernel
def bias_gelu_exp(x, bias, out, TN: ConstInt):
    # out = gelu(x + bias) using the sigmoid approximation h * sigmoid(1.702 h),
    # with the sigmoid spelled out through exp(); one row chunk per block.
    i = ct.bid(0)
    j = ct.bid(1)
    h = ct.load(x, index=(i, j), shape=(1, TN))
    b = ct.load(bias, index=(j,), shape=(TN,))
    h = h + ct.expand_dims(b, axis=0)
    g = h / (1.0 + ct.exp(-1.702 * h))
    ct.store(out, index=(i, j), tile=g)


@ct.kernel
def copy_with_hints(x, out, TILE: ConstInt):
    # out[i] = x[i] + 1 with per-access hints: a DRAM latency hint and no TMA on the
    # load, an acquire/release pair at device scope on the load and store.
    pid = ct.bid(0)
    v = ct.load(x, index=(pid,), shape=(TILE,), latency=8, allow_tma=False,
                memory_order=ct.MemoryOrder.ACQUIRE, memory_scope=ct.MemoryScope.DEVICE)
    ct.store(out, index=(pid,), tile=v + 1.0, latency=2,
             memory_order=ct.MemoryOrder.RELEASE, memory_scope=ct.MemoryScope.DEVICE)


@ct.kernel
def int_bitops(x, out, threshold, TILE: ConstInt):
    # Integer ops on i32: out = (x > threshold) ? ((x & 0xFF) << 2) ^ (x >> 3)
    #                                           : (x % 7) - threshold,
    # plus an equality test that zeroes multiples of 16 (where/select).
    pid = ct.bid(0)
    v = ct.load(x, index=(pid,), shape=(TILE,))
    hi = ((v & 0xFF) << 2) ^ (v >> 3)
    lo = (v % 7) - threshold
    r = ct.where(v > threshold, hi, lo)
    r = ct.where((v & 15) == 0, ct.zeros((TILE,), ct.int32), r)
    ct.store(out, index=(pid,), tile=r)


@ct.kernel
def unsigned_minmax_u8(x, y, out, TILE: ConstInt):
    # Unsigned 8-bit: out = max(x, y) - min(x, y) (absolute difference, no overflow).
    pid = ct.bid(0)
    a = ct.load(x, index=(pid,), shape=(TILE,))
    b = ct.load(y, index=(pid,), shape=(TILE,))
    ct.store(out, index=(pid,), tile=ct.maximum(a, b) - ct.minimum(a, b))


# --------------------------------------------------------------------------
# Reductions and scans
# --------------------------------------------------------------------------

@ct.kernel
def row_softmax(x, out, TM: ConstInt, TN: ConstInt):
    # Softmax over each row (row length <= TN): TM rows per block, -inf padding,
    # max-subtract, exp, sum, divide.
    i = ct.bid(0)
    v = ct.load(x, index=(i, 0), shape=(TM, TN), padding_mode=ct.PaddingMode.NEG_INF)
    v = ct.astype(v, ct.float32)
    m = ct.max(v, axis=1, keepdims=True)
    e = ct.exp(v - m)
    s = ct.sum(e, axis=1, keepdims=True)
    ct.store(out, index=(i, 0), tile=ct.astype(e / s, out.dtype))


@ct.kernel
def layernorm(x, w, b, out, eps, TN: ConstInt):
    # LayerNorm of one row of length N (<= TN) per block:
    # y = (x - mean) * rsqrt(var + eps) * w + b, with zero padding masked out.
    row = ct.bid(0)
    n = x.shape[1]
    v = ct.astype(ct.load(x, index=(row, 0), shape=(1, TN), padding_mode=ct.PaddingMode.ZERO),
                  ct.float32)
    valid = ct.expand_dims(ct.arange(TN, dtype=ct.int32), axis=0) < n
    mean = ct.sum(v, axis=1, keepdims=True) / n
    d = ct.where(valid, v - mean, 0.0)
    var = ct.sum(d * d, axis=1, keepdims=True) / n
    inv = ct.rsqrt(var + eps)
    gw = ct.astype(ct.load(w, index=(0,), shape=(TN,), padding_mode=ct.PaddingMode.ZERO),
                   ct.float32)
    gb = ct.astype(ct.load(b, index=(0,), shape=(TN,), padding_mode=ct.PaddingMode.ZERO),
                   ct.float32)
    y = d * inv * ct.reshape(gw, (1, TN)) + ct.reshape(gb, (1, TN))
    ct.store(out, index=(row, 0), tile=ct.astype(y, out.dtype))


@ct.kernel
def block_sum(x, partial, TILE: ConstInt):
    # partial[b] = sum of the b-th TILE-element chunk of x (zero padded).
    pid = ct.bid(0)
    v = ct.load(x, index=(pid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(partial, index=(pid,), tile=ct.sum(v))


@ct.kernel
def row_max_argmax(x, vmax, imax, sumsq, TN: ConstInt):
    # For each row: the maximum value, its column index (argmax), and the
    # sum of squares computed by ct.reduce with a user-written combiner.
    row = ct.bid(0)
    v = ct.load(x, index=(row, 0), shape=(1, TN), padding_mode=ct.PaddingMode.NEG_INF)
    ct.store(vmax, index=(row,), tile=ct.max(v, axis=1))
    ct.store(imax, index=(row,), tile=ct.astype(ct.argmax(v, axis=1), imax.dtype))
    z = ct.load(x, index=(row, 0), shape=(1, TN), padding_mode=ct.PaddingMode.ZERO)
    ss = ct.reduce(z * z, axis=1, func=lambda a, b: a + b, identity=0.0)
    ct.store(sumsq, index=(row,), tile=ss)


@ct.kernel
def prefix_sum(x, out, TILE: ConstInt):
    # Inclusive prefix sum within each TILE-element chunk (cumsum).
    pid = ct.bid(0)
    v = ct.load(x, index=(pid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out, index=(pid,), tile=ct.cumsum(v, axis=0))


@ct.kernel
def running_max_scan(x, out, TM: ConstInt, TN: ConstInt):
    # Running maximum along each row of a (TM, TN) tile, via ct.scan with a
    # user-written combiner (lambda) and -inf identity.
    i = ct.bid(0)
    j = ct.bid(1)
    v = ct.load(x, index=(i, j), shape=(TM, TN), padding_mode=ct.PaddingMode.NEG_INF)
    r = ct.scan(v, axis=1, func=lambda a, b: ct.maximum(a, b), identity=-math.inf)
    ct.store(out, index=(i, j), tile=r)


# --------------------------------------------------------------------------
# Data movement
# --------------------------------------------------------------------------

@ct.kernel
def transpose2d(x, out, TM: ConstInt, TN: ConstInt):
    # out = x^T: tile (i, j) of x, shape (TM, TN), goes to tile (j, i) of out.
    i = ct.bid(0)
    j = ct.bid(1)
    t = ct.load(x, index=(i, j), shape=(TM, TN))
    ct.store(out, index=(j, i), tile=ct.transpose(t))


@ct.kernel
def permute3d(x, out, TB: ConstInt, TM: ConstInt, TN: ConstInt):
    # out[n, b, m] = x[b, m, n]: axes (0, 1, 2) -> (2, 0, 1) on a 3-D tile.
    b = ct.bid(0)
    m = ct.bid(1)
    n = ct.bid(2)
    t = ct.load(x, index=(b, m, n), shape=(TB, TM, TN))
    ct.store(out, index=(n, b, m), tile=ct.permute(t, (2, 0, 1)))


@ct.kernel
def gather_scatter(src, idx, dst, TILE: ConstInt):
    # Indexed copy (pointer-style loads/stores): dst[idx[i]] = 2 * src[idx[i]],
    # out-of-range indices are masked (gather pads with 0, scatter skips).
    pid = ct.bid(0)
    ind = ct.load(idx, index=(pid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    vals = ct.gather(src, ind, padding_value=0.0)
    ct.scatter(dst, ind, vals * 2.0, mask=ind >= 0)


@ct.kernel
def embedding_rows(table, ids, out, TD: ConstInt, TB: ConstInt):
    # Embedding lookup: out[r, :] = table[ids[r], :] for TB rows per block,
    # using a 2-D gather with broadcast (TB,1) x (1,TD) index tiles.
    pid = ct.bid(0)
    rows = ct.load(ids, index=(pid,), shape=(TB,))
    cols = ct.arange(TD, dtype=ct.int32)
    t = ct.gather(table, (ct.reshape(rows, (TB, 1)), ct.reshape(cols, (1, TD))))
    ct.store(out, index=(pid, 0), tile=t)


# --------------------------------------------------------------------------
# Atomics
# --------------------------------------------------------------------------

@ct.kernel
def histogram_atomic(x, bins, NBINS: ConstInt, TILE: ConstInt):
    # bins[x[i] mod NBINS] += 1 using atomic_add on an i32 histogram.
    pid = ct.bid(0)
    v = ct.load(x, index=(pid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    valid = (ct.arange(TILE, dtype=ct.int32) + pid * TILE) < x.shape[0]
    b = ct.where(valid, v % NBINS, -1)
    ct.atomic_add(bins, b, 1)


@ct.kernel
def global_sum_atomic(x, total, total_max, TILE: ConstInt):
    # total[0] += sum of this block's chunk (scalar f32 atomic add, relaxed order)
    # and total_max[0] = max(total_max[0], block max) via i32 atomic_max.
    pid = ct.bid(0)
    v = ct.load(x, index=(pid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    ct.atomic_add(total, 0, ct.sum(v), memory_order=ct.MemoryOrder.RELAXED)
    ct.atomic_max(total_max, 0, ct.astype(ct.max(v), ct.int32))


@ct.kernel
def spin_flag_cas(flags, out, TILE: ConstInt):
    # Each block claims flag slots with compare-and-swap (0 -> block id + 1)
    # and records the previous values.
    pid = ct.bid(0)
    ind = ct.arange(TILE, dtype=ct.int32) + pid * TILE
    old = ct.atomic_cas(flags, ind, 0, pid + 1)
    ct.store(out, index=(pid,), tile=old)


# --------------------------------------------------------------------------
# Matmul
# --------------------------------------------------------------------------

@ct.kernel
def matmul_f16_f32acc(a, b, c, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    # C (M x N, f32) = A (M x K, f16) @ B (K x N, f16), f32 accumulation with
    # ct.mma; the K loop runs num_tiles(A, 1) times (a dynamic trip count).
    bm = ct.bid(0)
    bn = ct.bid(1)
    acc = ct.zeros((TM, TN), ct.float32)
    for k in range(ct.num_tiles(a, axis=1, shape=(TM, TK))):
        ta = ct.load(a, index=(bm, k), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
        tb = ct.load(b, index=(k, bn), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(ta, tb, acc)
    ct.store(c, index=(bm, bn), tile=acc)


@ct.kernel
def matmul_bf16(a, b, c, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    # C (bf16) = A (bf16) @ B^T where B is stored N x K (loaded transposed with
    # order="F"-style axis mapping); f32 accumulator, cast back to bf16.
    bm = ct.bid(0)
    bn = ct.bid(1)
    acc = ct.zeros((TM, TN), ct.float32)
    nk = ct.num_tiles(a, axis=1, shape=(TM, TK))
    for k in range(nk):
        ta = ct.load(a, index=(bm, k), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
        tb = ct.load(b, index=(k, bn), shape=(TK, TN), order=(1, 0),
                     padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(ta, tb, acc)
    ct.store(c, index=(bm, bn), tile=ct.astype(acc, c.dtype))


@ct.kernel
def matmul_tf32(a, b, c, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    # C = A @ B for f32 arrays, with the inputs converted to tf32 (astype) before
    # ct.mma so the tensor cores run in tf32 mode; f32 accumulation.
    bm = ct.bid(0)
    bn = ct.bid(1)
    acc = ct.zeros((TM, TN), ct.float32)
    for k in range(ct.num_tiles(a, axis=1, shape=(TM, TK))):
        ta = ct.load(a, index=(bm, k), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
        tb = ct.load(b, index=(k, bn), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(ct.astype(ta, ct.tfloat32), ct.astype(tb, ct.tfloat32), acc)
    ct.store(c, index=(bm, bn), tile=acc)


@ct.kernel
def small_matmul_operator(a, b, c, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    # C = A @ B + 1 with the `@` operator (ct.matmul) on f32 tiles when K fits
    # in a single tile (K <= TK): no loop, no explicit accumulator.
    bm = ct.bid(0)
    bn = ct.bid(1)
    ta = ct.load(a, index=(bm, 0), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
    tb = ct.load(b, index=(0, bn), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
    ct.store(c, index=(bm, bn), tile=ta @ tb + 1.0)


@ct.kernel
def batched_matmul_relu(a, b, c, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    # Batched C[z] = relu(A[z] @ B[z]) with 3-D tiles (1, TM, TK) x (1, TK, TN),
    # f16 inputs, f32 accumulation, f16 output; batch index from bid(2).
    bm = ct.bid(0)
    bn = ct.bid(1)
    z = ct.bid(2)
    acc = ct.zeros((1, TM, TN), ct.float32)
    for k in range(ct.num_tiles(a, axis=2, shape=(1, TM, TK))):
        ta = ct.load(a, index=(z, bm, k), shape=(1, TM, TK), padding_mode=ct.PaddingMode.ZERO)
        tb = ct.load(b, index=(z, k, bn), shape=(1, TK, TN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(ta, tb, acc)
    acc = ct.maximum(acc, 0.0)
    ct.store(c, index=(z, bm, bn), tile=ct.astype(acc, c.dtype))


# --------------------------------------------------------------------------
# Control flow
# --------------------------------------------------------------------------

@ct.kernel
def grid_stride_scale(x, out, factor, TILE: ConstInt):
    # Persistent-style loop: block b handles chunks b, b + nblocks, ... up to
    # num_tiles(x) (dynamic start, bound and step), scaling each by `factor`.
    nt = ct.num_tiles(x, axis=0, shape=(TILE,))
    for t in range(ct.bid(0), nt, ct.num_blocks(0)):
        v = ct.load(x, index=(t,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
        ct.store(out, index=(t,), tile=v * factor)


@ct.kernel
def row_sum_loop(x, out, TN: ConstInt):
    # out[r] = sum of row r of an M x N array, N arbitrary: loop over the
    # row's column tiles (trip count from the runtime shape) carrying an accumulator.
    row = ct.bid(0)
    acc = ct.zeros((1, TN), ct.float32)
    ncols = x.shape[1]
    for j in range(ct.cdiv(ncols, TN)):
        v = ct.load(x, index=(row, j), shape=(1, TN), padding_mode=ct.PaddingMode.ZERO)
        acc = acc + ct.astype(v, ct.float32)
    ct.store(out, index=(row,), tile=ct.sum(acc, axis=1))


@ct.kernel
def power_iterate(x, out, n_iters, TILE: ConstInt):
    # Repeats v = v * v * 0.5 + 0.25 n_iters times (runtime i32 trip count),
    # then branches on the block id: even blocks store v, odd blocks store -v.
    pid = ct.bid(0)
    v = ct.load(x, index=(pid,), shape=(TILE,))
    for _ in range(n_iters):
        v = v * v * 0.5 + 0.25
    if pid % 2 == 0:
        ct.store(out, index=(pid,), tile=v)
    else:
        ct.store(out, index=(pid,), tile=-v)


# --------------------------------------------------------------------------
# Tile IR 13.3 features (cuTile 1.7 with bytecode_version="13.3")
# --------------------------------------------------------------------------

@ct.kernel
def tile_atomic_accumulate(x, acc, TILE: ConstInt):
    # acc[j] += x[b*TILE + j] for every block b: a tiled view's atomic_store_add
    # (13.3 atomic_red_view_tko, f32 add, relaxed, device scope) sums all tiles into one.
    pid = ct.bid(0)
    v = ct.load(x, index=(pid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    acc.tiled_view((TILE,)).atomic_store_add((0,), v)


@ct.kernel
def array_atomic_add_unused(x, bins, NBINS: ConstInt, TILE: ConstInt):
    # bins[x[i] & (NBINS-1)] += x[i] (i32, relaxed) with the atomic_add result unused:
    # cuTile 1.7 still emits the pointer form atomic_rmw_tko, not atomic_red_view_tko.
    pid = ct.bid(0)
    v = ct.load(x, index=(pid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    ct.atomic_add(bins, v & (NBINS - 1), v, memory_order=ct.MemoryOrder.RELAXED)


@ct.kernel
def sliding_window_sum(x, out, TILE: ConstInt, STEP: ConstInt):
    # out[b, :] = x[b*STEP : b*STEP + TILE] + 1 (zero padded): overlapping windows
    # read through a tiled view with traversal_steps (13.3 strided view).
    pid = ct.bid(0)
    tv = x.tiled_view((TILE,), padding_mode=ct.PaddingMode.ZERO, traversal_steps=(STEP,))
    w = tv.load((pid,))
    ct.store(out, index=(pid, 0), tile=ct.reshape(w + 1.0, (1, TILE)))


@ct.kernel
def advanced_index_rows(x, rows, out, TR: ConstInt, TD: ConstInt):
    # out[rows[r], c] = 2 * x[rows[r], c] + c for TR selected rows, columns c in
    # [bid(1)*TD, +TD): load/store_advanced_indexing (13.3 gather/scatter views).
    pid = ct.bid(0)
    col0 = ct.bid(1) * TD
    r = ct.load(rows, index=(pid,), shape=(TR,))
    t = ct.load_advanced_indexing(x, (r, ct.Slice(col0, TD)),
                                  padding_mode=ct.PaddingMode.ZERO)
    c = ct.astype(ct.arange(TD, dtype=ct.int32) + col0, ct.float32)
    ct.store_advanced_indexing(out, (r, ct.Slice(col0, TD)), t * 2.0 + ct.reshape(c, (1, TD)))


@ct.kernel
def gather_scatter_u32(src, idx, dst, TILE: ConstInt):
    # dst[idx[i]] = src[(idx[i] * 3) % n] + i over uint32 data (gather + scatter with
    # masks, unsigned index arithmetic).
    pid = ct.bid(0)
    n = ct.astype(src.shape[0], ct.uint32)
    ind = ct.load(idx, index=(pid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    g = ct.gather(src, (ind * 3) % n)
    i = ct.astype(ct.arange(TILE, dtype=ct.int32) + pid * TILE, ct.uint32)
    ct.scatter(dst, ind, g + i, mask=ind < n)


@ct.kernel
def pack_unpack_bytes(x, raw, swapped, TILE: ConstInt):
    # raw = the bytes of the f32 tile x (pack_to_bytes), and swapped = those bytes
    # reversed within each word, read back as int32 (unpack_from_bytes): a byte swap.
    pid = ct.bid(0)
    v = ct.load(x, index=(pid,), shape=(TILE,))
    b = ct.pack_to_bytes(v)
    ct.store(raw, index=(pid,), tile=b)
    r = ct.reshape(ct.permute(ct.reshape(b, (TILE, 4)), (1, 0)), (4, TILE))
    r = ct.reshape(ct.permute(ct.cat((ct.cat((ct.extract(r, (3, 0), (1, TILE)),
                                              ct.extract(r, (2, 0), (1, TILE))), axis=0),
                                      ct.cat((ct.extract(r, (1, 0), (1, TILE)),
                                              ct.extract(r, (0, 0), (1, TILE))), axis=0)),
                                     axis=0), (1, 0)), (TILE * 4,))
    ct.store(swapped, index=(pid,), tile=ct.unpack_from_bytes(r, ct.int32))


@ct.kernel
def unsigned_arith_u32(a, b, out, cmp, small, TILE: ConstInt):
    # uint32: out = ceil((a * b + a) / (b | 1)) + (a >> 3) + (b << 2) - a % 7 (wrapping),
    # cmp = a > b (unsigned compare), small (uint8) = a8 * 3 + ceil(b8 / 5) on the low
    # bytes.  (cuTile 1.7's `//` on unsigned ints emits divi unsigned rounding<negative_inf>,
    # which NVIDIA's verifier rejects; ct.cdiv gives rounding<positive_inf>.)
    pid = ct.bid(0)
    x = ct.load(a, index=(pid,), shape=(TILE,))
    y = ct.load(b, index=(pid,), shape=(TILE,))
    r = ct.cdiv(x * y + x, y | 1) + (x >> 3) + (y << 2) - x % 7
    ct.store(out, index=(pid,), tile=r)
    ct.store(cmp, index=(pid,), tile=ct.astype(x > y, ct.int32))
    x8 = ct.astype(x & 0xFF, ct.uint8)
    y8 = ct.astype(y & 0xFF, ct.uint8)
    ct.store(small, index=(pid,), tile=x8 * 3 + ct.cdiv(y8, 5))


@ct.kernel
def atan2_cumprod(y, x, angle, prod, TILE: ConstInt):
    # angle = atan2(y, x) elementwise; prod = running product (cumprod) of
    # 1 + y/8 along each TILE-element chunk.
    pid = ct.bid(0)
    a = ct.load(y, index=(pid,), shape=(TILE,))
    b = ct.load(x, index=(pid,), shape=(TILE,))
    ct.store(angle, index=(pid,), tile=ct.atan2(a, b))
    ct.store(prod, index=(pid,), tile=ct.cumprod(1.0 + a * 0.125, axis=0))


@ct.kernel
def argmax_argmin_cols(x, imax, imin, TM: ConstInt, TN: ConstInt):
    # For each column of a (TM, TN) block of rows: the row index of its maximum and
    # of its minimum (argmax/argmin along axis 0), offset by the block's first row.
    i = ct.bid(0)
    j = ct.bid(1)
    v = ct.load(x, index=(i, j), shape=(TM, TN))
    ct.store(imax, index=(i, j), tile=ct.reshape(ct.argmax(v, axis=0) + i * TM, (1, TN)))
    ct.store(imin, index=(i, j), tile=ct.reshape(ct.argmin(v, axis=0) + i * TM, (1, TN)))


@ct.kernel
def mma_scaled_f8(a, sa, b, sb, c, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    # C (f32) = sum over K tiles of (A * 2^sa) @ (B * 2^sb): float8_e4m3fn inputs,
    # float8_e8m0fnu block scales (one per 32 K elements), ct.mma_scaled.
    bm = ct.bid(0)
    bn = ct.bid(1)
    acc = ct.zeros((TM, TN), ct.float32)
    for k in range(ct.num_tiles(a, axis=1, shape=(TM, TK))):
        ta = ct.load(a, index=(bm, k), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
        ts = ct.load(sa, index=(bm, k), shape=(TM, TK // 32))
        tb = ct.load(b, index=(k, bn), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
        tt = ct.load(sb, index=(k, bn), shape=(TK // 32, TN))
        acc = ct.mma_scaled(ta, ts, tb, tt, acc)
    ct.store(c, index=(bm, bn), tile=acc)


@ct.kernel
def mma_scaled_f4(a, sa, b, sb, c, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    # C (f32) = (A * 2^sa) @ (B * 2^sb) with float4_e2m1fn inputs unpacked from
    # bytes (two values per uint8, unpack_from_bytes) and float8_e8m0fnu scales
    # per 16 K elements; one K tile.
    bm = ct.bid(0)
    bn = ct.bid(1)
    pa = ct.load(a, index=(bm, 0), shape=(TM, TK // 2))
    pb = ct.load(b, index=(bn, 0), shape=(TN, TK // 2))
    ta = ct.reshape(ct.unpack_from_bytes(ct.reshape(pa, (TM * TK // 2,)), ct.float4_e2m1fn),
                    (TM, TK))
    tb = ct.reshape(ct.unpack_from_bytes(ct.reshape(pb, (TN * TK // 2,)), ct.float4_e2m1fn),
                    (TN, TK))
    ts = ct.load(sa, index=(bm, 0), shape=(TM, TK // 16))
    tt = ct.load(sb, index=(0, bn), shape=(TK // 16, TN))
    acc = ct.mma_scaled(ta, ts, ct.transpose(tb), tt, ct.zeros((TM, TN), ct.float32))
    ct.store(c, index=(bm, bn), tile=acc)


@ct.kernel
def flash_attention(q, k, v, out, scale, TQ: ConstInt, TKV: ConstInt, D: ConstInt):
    # Attention of one head, O = softmax(Q K^T * scale) V (Q, K, V: S x D, f16), TQ query
    # rows per block: the keys in blocks of TKV with the online softmax (running max
    # and sum, the accumulator rescaled), f32 accumulation; keys past the end masked.
    bq = ct.bid(0)
    n = k.shape[0]
    tq = ct.load(q, index=(bq, 0), shape=(TQ, D), padding_mode=ct.PaddingMode.ZERO)
    m_i = ct.full((TQ, 1), float("-inf"), ct.float32)
    l_i = ct.zeros((TQ, 1), ct.float32)
    acc = ct.zeros((TQ, D), ct.float32)
    for j in range(ct.num_tiles(k, axis=0, shape=(TKV, D))):
        tk = ct.load(k, index=(j, 0), shape=(TKV, D), padding_mode=ct.PaddingMode.ZERO)
        s = ct.mma(tq, ct.transpose(tk), ct.zeros((TQ, TKV), ct.float32)) * scale
        key = ct.expand_dims(ct.arange(TKV, dtype=ct.int32), axis=0) + j * TKV
        s = ct.where(key < n, s, float("-inf"))
        m_new = ct.maximum(m_i, ct.max(s, axis=1, keepdims=True))
        p = ct.exp(s - m_new)
        alpha = ct.exp(m_i - m_new)
        l_i = l_i * alpha + ct.sum(p, axis=1, keepdims=True)
        tv = ct.load(v, index=(j, 0), shape=(TKV, D), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(ct.astype(p, ct.float16), tv, acc * alpha)
        m_i = m_new
    ct.store(out, index=(bq, 0), tile=ct.astype(acc / l_i, out.dtype))


# --------------------------------------------------------------------------
# More matmul shapes (linear layer, split-K, int8, fp8, persistent)
# --------------------------------------------------------------------------

@ct.kernel
def linear_bias_relu(x, w, bias, out, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    # A linear layer: out (M x N, f16) = relu(x (M x K) @ w^T + bias), with the weight
    # stored N x K as torch.nn.Linear keeps it (each tile transposed after the load); f32
    # accumulation, the bias row broadcast over the tile's rows.
    bm = ct.bid(0)
    bn = ct.bid(1)
    acc = ct.zeros((TM, TN), ct.float32)
    for k in range(ct.num_tiles(x, axis=1, shape=(TM, TK))):
        tx = ct.load(x, index=(bm, k), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
        tw = ct.load(w, index=(bn, k), shape=(TN, TK), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(tx, ct.transpose(tw), acc)
    tb = ct.load(bias, index=(bn,), shape=(TN,), padding_mode=ct.PaddingMode.ZERO)
    acc = ct.maximum(acc + ct.astype(ct.reshape(tb, (1, TN)), ct.float32), 0.0)
    ct.store(out, index=(bm, bn), tile=ct.astype(acc, out.dtype))


@ct.kernel
def matmul_splitk(a, b, c, TM: ConstInt, TN: ConstInt, TK: ConstInt, SPLIT: ConstInt):
    # Split-K: block (bm, bn, s) multiplies the K tiles s, s + SPLIT, s + 2 SPLIT, ...
    # (f16 inputs, f32 accumulation) and adds its partial product into C (f32, zeroed by
    # the caller) with a tiled view's atomic add; grid (M/TM, N/TN, SPLIT).
    bm = ct.bid(0)
    bn = ct.bid(1)
    s = ct.bid(2)
    acc = ct.zeros((TM, TN), ct.float32)
    for k in range(s, ct.num_tiles(a, axis=1, shape=(TM, TK)), SPLIT):
        ta = ct.load(a, index=(bm, k), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
        tb = ct.load(b, index=(k, bn), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(ta, tb, acc)
    c.tiled_view((TM, TN)).atomic_store_add((bm, bn), acc)


@ct.kernel
def matmul_int8(a, b, c, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    # C (i32) = A (i8) @ B (i8), exact integer products summed in an i32 accumulator.
    bm = ct.bid(0)
    bn = ct.bid(1)
    acc = ct.zeros((TM, TN), ct.int32)
    for k in range(ct.num_tiles(a, axis=1, shape=(TM, TK))):
        ta = ct.load(a, index=(bm, k), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
        tb = ct.load(b, index=(k, bn), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(ta, tb, acc)
    ct.store(c, index=(bm, bn), tile=acc)


@ct.kernel
def matmul_fp8(a, b, c, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    # C (f16) = A (float8_e4m3fn) @ B (float8_e4m3fn) with f32 accumulation, rounded
    # to f16 on the way out.
    bm = ct.bid(0)
    bn = ct.bid(1)
    acc = ct.zeros((TM, TN), ct.float32)
    for k in range(ct.num_tiles(a, axis=1, shape=(TM, TK))):
        ta = ct.load(a, index=(bm, k), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
        tb = ct.load(b, index=(k, bn), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(ta, tb, acc)
    ct.store(c, index=(bm, bn), tile=ct.astype(acc, c.dtype))


@ct.kernel
def persistent_matmul(a, b, c, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    # A persistent GEMM: a grid of fewer blocks than C has tiles; block p computes the
    # C tiles p, p + P, p + 2P, ... (P = the number of blocks, tiles in row-major
    # order), each with its own K loop (f16 inputs, f32 accumulation and output).
    n_m = ct.num_tiles(c, axis=0, shape=(TM, TN))
    n_n = ct.num_tiles(c, axis=1, shape=(TM, TN))
    for t in range(ct.bid(0), n_m * n_n, ct.num_blocks(0)):
        bm = t // n_n
        bn = t % n_n
        acc = ct.zeros((TM, TN), ct.float32)
        for k in range(ct.num_tiles(a, axis=1, shape=(TM, TK))):
            ta = ct.load(a, index=(bm, k), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
            tb = ct.load(b, index=(k, bn), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
            acc = ct.mma(ta, tb, acc)
        ct.store(c, index=(bm, bn), tile=acc)


@ct.kernel
def grouped_persistent_matmul(a, b, c, TM: ConstInt, TN: ConstInt, TK: ConstInt,
                              GROUP: ConstInt):
    # A persistent GEMM that visits C's tiles GROUP tile rows at a time, column by
    # column within a group (the order that keeps A's and B's tiles in L2, as cuTile's
    # own persistent sample does); f16 in, f32 accumulation, f16 out.
    n_m = ct.num_tiles(c, axis=0, shape=(TM, TN))
    n_n = ct.num_tiles(c, axis=1, shape=(TM, TN))
    for t in range(ct.bid(0), n_m * n_n, ct.num_blocks(0)):
        per_group = GROUP * n_n
        first_m = (t // per_group) * GROUP
        rows = min(n_m - first_m, GROUP)
        bm = first_m + (t % rows)
        bn = (t % per_group) // rows
        acc = ct.zeros((TM, TN), ct.float32)
        for k in range(ct.num_tiles(a, axis=1, shape=(TM, TK))):
            ta = ct.load(a, index=(bm, k), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
            tb = ct.load(b, index=(k, bn), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
            acc = ct.mma(ta, tb, acc)
        ct.store(c, index=(bm, bn), tile=ct.astype(acc, c.dtype))


# --------------------------------------------------------------------------
# Thread-block clusters: num_ctas (the entry's num_cta_in_cga hint) spreads each
# tile block over a cluster of CTAs on sm_90 and newer
# --------------------------------------------------------------------------

@ct.kernel(num_ctas=2)
def vector_add_cluster(a, b, c, TILE: ConstInt):
    # vector_add with each tile block on a cluster of 2 CTAs.
    pid = ct.bid(0)
    x = ct.load(a, index=(pid,), shape=(TILE,))
    y = ct.load(b, index=(pid,), shape=(TILE,))
    ct.store(c, index=(pid,), tile=x + y)


@ct.kernel(num_ctas=2)
def block_sum_cluster(x, partial, TILE: ConstInt):
    # block_sum on a cluster of 2 CTAs: the CTAs' partial sums meet in the cluster.
    pid = ct.bid(0)
    v = ct.load(x, index=(pid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(partial, index=(pid,), tile=ct.sum(v))


@ct.kernel(num_ctas=2)
def matmul_cluster(a, b, c, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    # matmul_f16_f32acc with each C tile on a cluster of 2 CTAs.
    bm = ct.bid(0)
    bn = ct.bid(1)
    acc = ct.zeros((TM, TN), ct.float32)
    for k in range(ct.num_tiles(a, axis=1, shape=(TM, TK))):
        ta = ct.load(a, index=(bm, k), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
        tb = ct.load(b, index=(k, bn), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(ta, tb, acc)
    ct.store(c, index=(bm, bn), tile=acc)


# --------------------------------------------------------------------------
# Signatures
# --------------------------------------------------------------------------

def arr(dtype, ndim, *, index=ct.int32, contiguous=True, aligned=True):
    """An array argument: C-contiguous (last stride 1) and 16-byte aligned unless told."""
    return ArrayConstraint(
        dtype, ndim,
        index_dtype=index,
        stride_lower_bound_incl=0,
        alias_groups=(),
        may_alias_internally=False,
        stride_constant=((None,) * (ndim - 1) + (1,)) if contiguous else None,
        base_addr_divisible_by=16 if aligned else 1,
    )


def scalar(dtype):
    return ScalarConstraint(dtype)


def sig(*params):
    return KernelSignature(list(params), CallingConvention.cutile_python_v1())


f16, f32, bf16, i32, i64, u8 = (ct.float16, ct.float32, ct.bfloat16, ct.int32, ct.int64,
                                ct.uint8)
u32, f8e4m3, e8m0, i8 = ct.uint32, ct.float8_e4m3fn, ct.float8_e8m0fnu, ct.int8

# name -> (kernel, [signatures]).  File names are the corpus names.
CORPUS = {
    "vector_add": (vector_add, [
        sig(arr(f32, 1), arr(f32, 1), arr(f32, 1), 1024),
        sig(arr(f16, 1, index=i64), arr(f16, 1, index=i64), arr(f16, 1, index=i64), 512),
    ]),
    "saxpy": (saxpy, [
        sig(scalar(f32), arr(f32, 1), arr(f32, 1), 1024),
    ]),
    "relu6_scale": (relu6_scale, [
        sig(arr(f32, 1), arr(f32, 1), 256),
    ]),
    "leaky_relu_f16": (leaky_relu_f16, [
        sig(arr(f16, 1, aligned=False), arr(f16, 1, aligned=False), 512),
    ]),
    "bias_gelu_tanh": (bias_gelu_tanh, [
        sig(arr(f16, 2), arr(f16, 1), arr(f16, 2), 64, 128),
    ]),
    "bias_gelu_exp": (bias_gelu_exp, [
        sig(arr(f32, 2), arr(f32, 1), arr(f32, 2), 512),
    ]),
    "copy_with_hints": (copy_with_hints, [
        sig(arr(f32, 1), arr(f32, 1), 512),
    ]),
    "int_bitops": (int_bitops, [
        sig(arr(i32, 1), arr(i32, 1), scalar(i32), 512),
    ]),
    "unsigned_minmax_u8": (unsigned_minmax_u8, [
        sig(arr(u8, 1), arr(u8, 1), arr(u8, 1), 1024),
    ]),
    "row_softmax": (row_softmax, [
        sig(arr(f32, 2), arr(f32, 2), 2, 1024),
        sig(arr(f16, 2), arr(f16, 2), 4, 256),
    ]),
    "layernorm": (layernorm, [
        sig(arr(f32, 2), arr(f32, 1), arr(f32, 1), arr(f32, 2), scalar(f32), 1024),
        sig(arr(bf16, 2), arr(bf16, 1), arr(bf16, 1), arr(bf16, 2), scalar(f32), 512),
    ]),
    "block_sum": (block_sum, [
        sig(arr(f32, 1), arr(f32, 1), 1024),
        sig(arr(i32, 1), arr(i32, 1), 256),
    ]),
    "row_max_argmax": (row_max_argmax, [
        sig(arr(f32, 2), arr(f32, 1), arr(i32, 1), arr(f32, 1), 256),
    ]),
    "prefix_sum": (prefix_sum, [
        sig(arr(f32, 1), arr(f32, 1), 1024),
        sig(arr(i32, 1), arr(i32, 1), 128),
    ]),
    "running_max_scan": (running_max_scan, [
        sig(arr(f32, 2), arr(f32, 2), 8, 128),
    ]),
    "transpose2d": (transpose2d, [
        sig(arr(f32, 2), arr(f32, 2), 64, 64),
        sig(arr(f16, 2), arr(f16, 2), 32, 128),
    ]),
    "permute3d": (permute3d, [
        sig(arr(f32, 3), arr(f32, 3), 4, 16, 32),
    ]),
    "gather_scatter": (gather_scatter, [
        sig(arr(f32, 1), arr(i32, 1), arr(f32, 1), 256),
    ]),
    "embedding_rows": (embedding_rows, [
        sig(arr(f16, 2), arr(i32, 1), arr(f16, 2), 128, 16),
    ]),
    "histogram_atomic": (histogram_atomic, [
        sig(arr(i32, 1), arr(i32, 1), 64, 1024),
    ]),
    "global_sum_atomic": (global_sum_atomic, [
        sig(arr(f32, 1), arr(f32, 1), arr(i32, 1), 1024),
    ]),
    "spin_flag_cas": (spin_flag_cas, [
        sig(arr(i32, 1), arr(i32, 1), 128),
    ]),
    "matmul_f16_f32acc": (matmul_f16_f32acc, [
        sig(arr(f16, 2), arr(f16, 2), arr(f32, 2), 64, 64, 64),
        sig(arr(f16, 2), arr(f16, 2), arr(f32, 2), 128, 128, 32),
    ]),
    "matmul_bf16": (matmul_bf16, [
        sig(arr(bf16, 2), arr(bf16, 2), arr(bf16, 2), 64, 64, 64),
    ]),
    "matmul_tf32": (matmul_tf32, [
        sig(arr(f32, 2), arr(f32, 2), arr(f32, 2), 64, 64, 32),
    ]),
    "small_matmul_operator": (small_matmul_operator, [
        sig(arr(f32, 2), arr(f32, 2), arr(f32, 2), 64, 64, 32),
    ]),
    "batched_matmul_relu": (batched_matmul_relu, [
        sig(arr(f16, 3), arr(f16, 3), arr(f16, 3), 64, 64, 64),
    ]),
    "linear_bias_relu": (linear_bias_relu, [
        sig(arr(f16, 2), arr(f16, 2), arr(f16, 1), arr(f16, 2), 64, 64, 64),
    ]),
    "matmul_splitk": (matmul_splitk, [
        sig(arr(f16, 2), arr(f16, 2), arr(f32, 2), 64, 64, 64, 4),
    ]),
    "matmul_int8": (matmul_int8, [
        sig(arr(i8, 2), arr(i8, 2), arr(i32, 2), 64, 64, 64),
    ]),
    "matmul_fp8": (matmul_fp8, [
        sig(arr(f8e4m3, 2), arr(f8e4m3, 2), arr(f16, 2), 64, 64, 64),
    ]),
    "persistent_matmul": (persistent_matmul, [
        sig(arr(f16, 2), arr(f16, 2), arr(f32, 2), 64, 64, 64),
    ]),
    "grouped_persistent_matmul": (grouped_persistent_matmul, [
        sig(arr(f16, 2), arr(f16, 2), arr(f16, 2), 64, 64, 64, 2),
    ]),
    "grid_stride_scale": (grid_stride_scale, [
        sig(arr(f32, 1), arr(f32, 1), scalar(f32), 1024),
    ]),
    "row_sum_loop": (row_sum_loop, [
        sig(arr(f32, 2), arr(f32, 1), 512),
        sig(arr(f16, 2, contiguous=False), arr(f32, 1), 256),
    ]),
    "power_iterate": (power_iterate, [
        sig(arr(f32, 1), arr(f32, 1), scalar(i32), 256),
    ]),
    "tile_atomic_accumulate": (tile_atomic_accumulate, [
        sig(arr(f32, 1), arr(f32, 1), 256),
    ]),
    "array_atomic_add_unused": (array_atomic_add_unused, [
        sig(arr(i32, 1), arr(i32, 1), 64, 512),
    ]),
    "sliding_window_sum": (sliding_window_sum, [
        sig(arr(f32, 1), arr(f32, 2), 128, 32),
    ]),
    "advanced_index_rows": (advanced_index_rows, [
        sig(arr(f32, 2), arr(i32, 1), arr(f32, 2), 16, 64),
    ]),
    "gather_scatter_u32": (gather_scatter_u32, [
        sig(arr(u32, 1), arr(u32, 1), arr(u32, 1), 256),
    ]),
    "pack_unpack_bytes": (pack_unpack_bytes, [
        sig(arr(f32, 1), arr(u8, 1), arr(i32, 1), 128),
    ]),
    "unsigned_arith_u32": (unsigned_arith_u32, [
        sig(arr(u32, 1), arr(u32, 1), arr(u32, 1), arr(i32, 1), arr(u8, 1), 256),
    ]),
    "atan2_cumprod": (atan2_cumprod, [
        sig(arr(f32, 1), arr(f32, 1), arr(f32, 1), arr(f32, 1), 256),
    ]),
    "argmax_argmin_cols": (argmax_argmin_cols, [
        sig(arr(f32, 2), arr(i32, 2), arr(i32, 2), 16, 64),
    ]),
    "flash_attention": (flash_attention, [
        sig(arr(f16, 2), arr(f16, 2), arr(f16, 2), arr(f16, 2), scalar(f32), 64, 64, 64),
    ]),
    "mma_scaled_f8": (mma_scaled_f8, [
        sig(arr(f8e4m3, 2), arr(e8m0, 2), arr(f8e4m3, 2), arr(e8m0, 2), arr(f32, 2),
            64, 64, 64),
    ]),
    "mma_scaled_f4": (mma_scaled_f4, [
        sig(arr(u8, 2), arr(e8m0, 2), arr(u8, 2), arr(e8m0, 2), arr(f32, 2), 64, 64, 64),
    ]),
    "vector_add_cluster": (vector_add_cluster, [
        sig(arr(f32, 1), arr(f32, 1), arr(f32, 1), 1024),
    ]),
    "block_sum_cluster": (block_sum_cluster, [
        sig(arr(f32, 1), arr(f32, 1), 1024),
    ]),
    "matmul_cluster": (matmul_cluster, [
        sig(arr(f16, 2), arr(f16, 2), arr(f32, 2), 128, 128, 64),
    ]),
}

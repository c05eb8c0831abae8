#!/usr/bin/env python3
"""Run cuTile corpus kernels with `tilec run` (the CPU interpreter) against NumPy.

For every kernel in ``CASES`` this builds NumPy inputs (fixed seeds, ragged sizes where
the kernel masks its edges), writes them as ``.npy`` files, runs

    tilec run tests/corpus/cutile/NAME.mlir --grid ... --arg @in0.npy --arg i32:N ...
          --save-args DIR

(cuTile's calling convention: each array is its pointer, then its shape, then its
strides, as i32 here), loads the buffers the interpreter wrote back and compares each
output with a NumPy reference: bit for bit for integers, and for floats whose inputs make
every result exact, within a stated tolerance otherwise.  Buffers a kernel must not
change are compared with their inputs too.  It prints one line per kernel and a summary
line:

    {"summary": {"checked": 11, "failed": 0, "no_reference": [...]}}

Corpus kernels without a reference here are listed in ``NO_REFERENCE`` and printed (not
silently skipped): a corpus kernel that is in neither list is an error.

Usage (from anywhere): check_run.py --tilec PATH/TO/tilec [--only NAME ...]
Needs NumPy only.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CORPUS_DIR = os.path.join(REPO, "tests", "corpus", "cutile")

# Corpus kernels this script has no NumPy reference for yet (printed in the summary).
NO_REFERENCE = [
    "vector_add", "saxpy", "relu6_scale", "leaky_relu_f16", "bias_gelu_tanh",
    "bias_gelu_exp", "copy_with_hints", "int_bitops", "unsigned_minmax_u8", "row_softmax",
    "layernorm", "block_sum", "row_max_argmax", "prefix_sum", "running_max_scan",
    "transpose2d", "permute3d", "gather_scatter", "embedding_rows", "histogram_atomic",
    "global_sum_atomic", "spin_flag_cas", "matmul_f16_f32acc", "matmul_bf16", "matmul_tf32",
    "small_matmul_operator", "batched_matmul_relu", "grid_stride_scale", "row_sum_loop",
    "power_iterate",
]


# --------------------------------------------------------------------------
# Small-float formats (NumPy has none): decoding bit patterns to float64
# --------------------------------------------------------------------------

def e4m3_value(bits):
    """float8_e4m3fn bit patterns (uint8) -> float64 (0x7f/0xff are NaN)."""
    b = bits.astype(np.int64)
    s = np.where(b & 0x80, -1.0, 1.0)
    e = (b >> 3) & 0xF
    m = b & 0x7
    v = np.where(e == 0, m / 8.0 * 2.0 ** -6, (1 + m / 8.0) * 2.0 ** (e - 7))
    return np.where((b & 0x7F) == 0x7F, np.nan, s * v)


def e4m3_bits(values):
    """Exactly representable float64 values -> float8_e4m3fn bits (checked)."""
    table = {float(e4m3_value(np.array([b]))[0]): b for b in range(256) if b & 0x7F != 0x7F}
    table[0.0] = 0
    return np.vectorize(lambda v: table[float(v)], otypes=[np.uint8])(values)


def e8m0_value(bits):
    """float8_e8m0fnu bits -> 2^(bits - 127) (0xff is NaN)."""
    b = bits.astype(np.int64)
    return np.where(b == 0xFF, np.nan, np.ldexp(1.0, b - 127))


def e2m1_value(nibbles):
    """float4_e2m1fn 4-bit patterns -> float64 (0, 0.5, 1, 1.5, 2, 3, 4, 6 and negatives)."""
    mag = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0])
    n = nibbles.astype(np.int64)
    return np.where(n & 8, -1.0, 1.0) * mag[n & 7]


# --------------------------------------------------------------------------
# One kernel launch: its arguments and, after the run, its buffers
# --------------------------------------------------------------------------

class Launch:
    def __init__(self, tmp, grid):
        self.tmp = tmp
        self.grid = grid
        self.args = []
        self.buffers = {}   # name -> (argument position, input array)

    def array(self, name, a):
        """A cuTile array argument: pointer (the .npy file), shape, strides (elements)."""
        a = np.ascontiguousarray(a)
        path = os.path.join(self.tmp, f"in_{name}.npy")
        np.save(path, a)
        self.buffers[name] = (len(self.args), a)
        self.args.append("@" + path)
        self.args += [f"i32:{d}" for d in a.shape]
        self.args += [f"i32:{s // a.itemsize}" for s in a.strides]

    def scalar(self, spec):
        self.args.append(spec)

    def run(self, tilec, mlir):
        out = os.path.join(self.tmp, "out")
        os.makedirs(out, exist_ok=True)
        cmd = [tilec, "run", mlir, "--grid", ",".join(map(str, self.grid)), "--save-args", out]
        for a in self.args:
            cmd += ["--arg", a]
        res = subprocess.run(cmd, capture_output=True, text=True)
        if res.returncode != 0:
            raise RuntimeError(f"tilec run exit {res.returncode}:\n{res.stderr}{res.stdout}")
        got = {}
        for name, (pos, a) in self.buffers.items():
            got[name] = np.load(os.path.join(out, f"arg{pos}.npy")).view(a.dtype).reshape(a.shape)
        return got


def u32(rng, n, lo=0, hi=2 ** 32):
    return rng.integers(lo, hi, size=n, dtype=np.uint64).astype(np.uint32)


# --------------------------------------------------------------------------
# The cases: inputs, launch, references
# --------------------------------------------------------------------------
# Each case function returns (launch, expected, tolerances): expected maps a buffer name to
# its reference array (every buffer not named must come back unchanged); tolerances maps
# a buffer name to (rtol, atol) for float comparisons (absent: bit for bit).

def case_tile_atomic_accumulate(tmp, rng):
    n, tile = 1000, 256                              # 4 blocks, the last one ragged
    x = rng.integers(-8, 9, size=n).astype(np.float32)   # exact sums in every order
    L = Launch(tmp, (4,))
    L.array("x", x)
    L.array("acc", np.full(tile, 0.5, np.float32))
    padded = np.zeros(4 * tile, np.float32)
    padded[:n] = x
    return L, {"acc": 0.5 + padded.reshape(4, tile).sum(axis=0)}, {}


def case_array_atomic_add_unused(tmp, rng):
    n, tile, nbins = 1500, 512, 64                   # 3 blocks, padded with zeros
    x = rng.integers(-1000, 1000, size=n).astype(np.int32)
    bins = rng.integers(-5, 5, size=nbins).astype(np.int32)
    L = Launch(tmp, (3,))
    L.array("x", x)
    L.array("bins", bins)
    want = bins.copy()
    np.add.at(want, x & (nbins - 1), x)
    return L, {"bins": want}, {}


def case_sliding_window_sum(tmp, rng):
    n, tile, step, nb = 1000, 128, 32, 30            # windows past the end are zero padded
    x = rng.standard_normal(n).astype(np.float32)
    L = Launch(tmp, (nb,))
    L.array("x", x)
    L.array("out", np.zeros((nb, tile), np.float32))
    padded = np.zeros(nb * step + tile, np.float32)
    padded[:n] = x
    want = np.stack([padded[b * step:b * step + tile] for b in range(nb)]) + np.float32(1)
    return L, {"out": want}, {}


def case_advanced_index_rows(tmp, rng):
    nrows, ncols, tr, td = 100, 200, 16, 64          # the last column tile is ragged
    x = rng.standard_normal((nrows, ncols)).astype(np.float32)
    rows = rng.permutation(nrows)[:3 * tr].astype(np.int32)
    out = np.full((nrows, ncols), -7.0, np.float32)
    L = Launch(tmp, (3, (ncols + td - 1) // td))
    L.array("x", x)
    L.array("rows", rows)
    L.array("out", out)
    want = out.copy()
    c = np.arange(ncols, dtype=np.float32)
    # fma(t, 2, c): 2 * t is exact, so the one rounding is that of the sum.
    want[rows] = x[rows] * np.float32(2) + c
    return L, {"out": want}, {}


def case_gather_scatter_u32(tmp, rng):
    n, tile = 700, 256
    src = u32(rng, n)
    idx = rng.permutation(900)[:3 * tile].astype(np.uint32)   # unique; some >= n: masked
    dst = u32(rng, n)
    L = Launch(tmp, (3,))
    L.array("src", src)
    L.array("idx", idx)
    L.array("dst", dst)
    want = dst.copy()
    i = np.arange(3 * tile, dtype=np.uint32)
    ok = idx < n
    g = src[(idx.astype(np.uint64) * 3 % (1 << 32) % n).astype(np.int64)]
    want[idx[ok]] = g[ok] + i[ok]
    return L, {"dst": want}, {}


def case_pack_unpack_bytes(tmp, rng):
    n = 3 * 128
    x = rng.standard_normal(n).astype(np.float32)
    L = Launch(tmp, (3,))
    L.array("x", x)
    L.array("raw", np.zeros(4 * n, np.uint8))
    L.array("swapped", np.zeros(n, np.int32))
    return L, {"raw": x.view(np.uint8), "swapped": x.view(np.int32).byteswap()}, {}


def case_unsigned_arith_u32(tmp, rng):
    n = 2 * 256
    a = u32(rng, n)
    b = u32(rng, n)
    a[:8] = [0, 1, 0xFFFFFFFF, 7, 0x80000000, 5, 0xFFFFFFFE, 12345]
    b[:8] = [0, 0xFFFFFFFF, 1, 7, 0x80000000, 0, 3, 0xFFFFFFFF]
    L = Launch(tmp, (2,))
    L.array("a", a)
    L.array("b", b)
    L.array("out", np.zeros(n, np.uint32))
    L.array("cmp", np.zeros(n, np.int32))
    L.array("small", np.zeros(n, np.uint8))
    A, B = a.astype(np.uint64), b.astype(np.uint64)
    M = (1 << 32) - 1
    p = (A * B + A) & M
    q = B | 1
    r = ((p + q - 1) // q) & M                       # ceil(p / q); p + q - 1 < 2^33
    r = (r + (A >> 3) + ((B << 2) & M) - A % 7) & M
    a8, b8 = A & 0xFF, B & 0xFF
    small = (a8 * 3 + (b8 + 4) // 5) & 0xFF
    return L, {"out": r.astype(np.uint32), "cmp": (a > b).astype(np.int32),
               "small": small.astype(np.uint8)}, {}


def case_atan2_cumprod(tmp, rng):
    n = 2 * 256
    y = rng.uniform(-4, 4, n).astype(np.float32)
    x = rng.uniform(-4, 4, n).astype(np.float32)
    x[:6] = [0, 0, -1, -1, 1, 0]
    y[:6] = [1, -1, 0, -0.0, 0, 0]
    L = Launch(tmp, (2,))
    L.array("y", y)
    L.array("x", x)
    L.array("angle", np.zeros(n, np.float32))
    L.array("prod", np.zeros(n, np.float32))
    f = (1.0 + y.astype(np.float64) * 0.125).reshape(2, 256)
    return L, {"angle": np.arctan2(y.astype(np.float64), x).astype(np.float32),
               "prod": np.cumprod(f, axis=1).reshape(n).astype(np.float32)}, \
        {"angle": (2e-7, 1e-7), "prod": (1e-5, 0)}


def case_argmax_argmin_cols(tmp, rng):
    m, n, tm, tn = 64, 192, 16, 64
    x = rng.standard_normal((m, n)).astype(np.float32)
    L = Launch(tmp, (m // tm, n // tn))
    L.array("x", x)
    L.array("imax", np.zeros((m // tm, n), np.int32))
    L.array("imin", np.zeros((m // tm, n), np.int32))
    blocks = x.reshape(m // tm, tm, n)
    base = (np.arange(m // tm) * tm)[:, None]
    return L, {"imax": (blocks.argmax(axis=1) + base).astype(np.int32),
               "imin": (blocks.argmin(axis=1) + base).astype(np.int32)}, {}


def case_mma_scaled_f8(tmp, rng):
    m, n, k = 128, 64, 128                           # 2 x 1 blocks, 2 K tiles of 64
    vals = np.array([-2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2])
    a = rng.choice(vals, (m, k))
    b = rng.choice(vals, (k, n))
    sa = rng.integers(125, 130, (m, k // 32)).astype(np.uint8)    # 2^-2 .. 2^2
    sb = rng.integers(125, 130, (k // 32, n)).astype(np.uint8)
    L = Launch(tmp, (m // 64, n // 64))
    L.array("a", e4m3_bits(a))
    L.array("sa", sa)
    L.array("b", e4m3_bits(b))
    L.array("sb", sb)
    L.array("c", np.zeros((m, n), np.float32))
    # Every product and partial sum is a small dyadic rational: exact in f32.
    xa = a * np.repeat(e8m0_value(sa), 32, axis=1)
    xb = b * np.repeat(e8m0_value(sb), 32, axis=0)
    return L, {"c": (xa @ xb).astype(np.float32)}, {}


def case_mma_scaled_f4(tmp, rng):
    m, n, k = 64, 128, 64                            # 1 x 2 blocks, one K tile
    an = rng.integers(0, 16, (m, k)).astype(np.uint8)             # f4 patterns
    bn = rng.integers(0, 16, (n, k)).astype(np.uint8)             # B stored N x K
    pack = lambda nib: (nib[:, 0::2] | (nib[:, 1::2] << 4)).astype(np.uint8)  # low first
    sa = rng.integers(125, 130, (m, k // 16)).astype(np.uint8)
    sb = rng.integers(125, 130, (k // 16, n)).astype(np.uint8)
    L = Launch(tmp, (m // 64, n // 64))
    L.array("a", pack(an))
    L.array("sa", sa)
    L.array("b", pack(bn))
    L.array("sb", sb)
    L.array("c", np.zeros((m, n), np.float32))
    xa = e2m1_value(an) * np.repeat(e8m0_value(sa), 16, axis=1)
    xb = e2m1_value(bn).T * np.repeat(e8m0_value(sb), 16, axis=0)
    return L, {"c": (xa @ xb).astype(np.float32)}, {}


def case_flash_attention(tmp, rng):
    s, d, tq = 150, 64, 64                           # 3 query blocks; keys 150: a ragged last block
    q = rng.uniform(-1, 1, (s, d)).astype(np.float16)
    k = rng.uniform(-1, 1, (s, d)).astype(np.float16)
    v = rng.uniform(-1, 1, (s, d)).astype(np.float16)
    scale = 0.125
    L = Launch(tmp, ((s + tq - 1) // tq,))
    L.array("q", q)
    L.array("k", k)
    L.array("v", v)
    L.array("out", np.zeros((s, d), np.float16))
    L.scalar(f"f32:{scale}")
    x = q.astype(np.float64) @ k.astype(np.float64).T * scale
    p = np.exp(x - x.max(axis=1, keepdims=True))
    o = (p / p.sum(axis=1, keepdims=True)) @ v.astype(np.float64)
    # P goes through f16 before its product and the output is f16: a few f16 ulps.
    return L, {"out": o.astype(np.float16)}, {"out": (2e-3, 6e-4)}


def dyadic(rng, shape, top=1.0):
    """Multiples of 0.5 in [-top, top]: products and sums exact in f32 in every order."""
    return rng.choice(np.arange(-top, top + 0.25, 0.5), shape)


def case_linear_bias_relu(tmp, rng):
    m, n, k = 100, 96, 150                           # ragged M and K; 2 x 2 blocks
    x = dyadic(rng, (m, k))
    w = dyadic(rng, (n, k))                          # torch.nn.Linear's N x K
    bias = dyadic(rng, n, 2.0)
    L = Launch(tmp, (2, 2))
    L.array("x", x.astype(np.float16))
    L.array("w", w.astype(np.float16))
    L.array("bias", bias.astype(np.float16))
    L.array("out", np.zeros((m, n), np.float16))
    # Sums of multiples of 0.25 under 256: exact in f16 too.
    return L, {"out": np.maximum(x @ w.T + bias, 0).astype(np.float16)}, {}


def case_matmul_splitk(tmp, rng):
    m, n, k = 100, 70, 64 * 4 * 2 + 30               # 9 K tiles over 4 splits, ragged
    a = dyadic(rng, (m, k))
    b = dyadic(rng, (k, n))
    L = Launch(tmp, (2, 2, 4))
    L.array("a", a.astype(np.float16))
    L.array("b", b.astype(np.float16))
    L.array("c", np.zeros((m, n), np.float32))
    # The splits' partial sums are exact, so their atomic adds are in every order.
    return L, {"c": (a @ b).astype(np.float32)}, {}


def case_matmul_int8(tmp, rng):
    m, n, k = 100, 70, 150
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = rng.integers(-128, 128, (k, n)).astype(np.int8)
    L = Launch(tmp, (2, 2))
    L.array("a", a)
    L.array("b", b)
    L.array("c", np.zeros((m, n), np.int32))
    return L, {"c": a.astype(np.int64) @ b.astype(np.int64)}, {}


def case_matmul_fp8(tmp, rng):
    m, n, k = 100, 70, 150
    vals = np.array([-2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2])
    a = rng.choice(vals, (m, k))
    b = rng.choice(vals, (k, n))
    L = Launch(tmp, (2, 2))
    L.array("a", e4m3_bits(a))
    L.array("b", e4m3_bits(b))
    L.array("c", np.zeros((m, n), np.float16))
    # The f32 accumulation is exact; the f16 result rounds it once, as NumPy does.
    return L, {"c": (a @ b).astype(np.float16)}, {}


def case_persistent_matmul(tmp, rng):
    m, n, k = 150, 130, 100                          # 3 x 3 C tiles over 4 blocks
    a = dyadic(rng, (m, k))
    b = dyadic(rng, (k, n))
    L = Launch(tmp, (4,))
    L.array("a", a.astype(np.float16))
    L.array("b", b.astype(np.float16))
    L.array("c", np.zeros((m, n), np.float32))
    return L, {"c": (a @ b).astype(np.float32)}, {}


def case_grouped_persistent_matmul(tmp, rng):
    m, n, k = 330, 200, 100                          # 6 x 4 C tiles (3 groups of 2 rows)
    a = dyadic(rng, (m, k))                          # over 5 blocks
    b = dyadic(rng, (k, n))
    L = Launch(tmp, (5,))
    L.array("a", a.astype(np.float16))
    L.array("b", b.astype(np.float16))
    L.array("c", np.zeros((m, n), np.float16))
    # The f32 accumulation is exact; the f16 result rounds it once, as NumPy does.
    return L, {"c": (a @ b).astype(np.float16)}, {}


def case_vector_add_cluster(tmp, rng):
    n = 3000                                         # 3 tile blocks, a ragged last one
    a = rng.uniform(-1, 1, n).astype(np.float32)
    b = rng.uniform(-1, 1, n).astype(np.float32)
    L = Launch(tmp, (3,))
    L.array("a", a)
    L.array("b", b)
    L.array("c", np.zeros(n, np.float32))
    return L, {"c": a + b}, {}


def case_block_sum_cluster(tmp, rng):
    n = 3000
    x = dyadic(rng, n)                               # every order of summation is exact
    L = Launch(tmp, (3,))
    L.array("x", x.astype(np.float32))
    L.array("partial", np.zeros(3, np.float32))
    sums = [x[i * 1024:(i + 1) * 1024].sum() for i in range(3)]
    return L, {"partial": np.array(sums, np.float32)}, {}


def case_matmul_cluster(tmp, rng):
    m, n, k = 200, 130, 150                          # 2 x 2 C tiles, ragged, 3 K steps
    a = dyadic(rng, (m, k))
    b = dyadic(rng, (k, n))
    L = Launch(tmp, (2, 2))
    L.array("a", a.astype(np.float16))
    L.array("b", b.astype(np.float16))
    L.array("c", np.zeros((m, n), np.float32))
    return L, {"c": (a @ b).astype(np.float32)}, {}


CASES = {
    "tile_atomic_accumulate": case_tile_atomic_accumulate,
    "array_atomic_add_unused": case_array_atomic_add_unused,
    "sliding_window_sum": case_sliding_window_sum,
    "advanced_index_rows": case_advanced_index_rows,
    "gather_scatter_u32": case_gather_scatter_u32,
    "pack_unpack_bytes": case_pack_unpack_bytes,
    "unsigned_arith_u32": case_unsigned_arith_u32,
    "atan2_cumprod": case_atan2_cumprod,
    "argmax_argmin_cols": case_argmax_argmin_cols,
    "mma_scaled_f8": case_mma_scaled_f8,
    "mma_scaled_f4": case_mma_scaled_f4,
    "flash_attention": case_flash_attention,
    "linear_bias_relu": case_linear_bias_relu,
    "matmul_splitk": case_matmul_splitk,
    "matmul_int8": case_matmul_int8,
    "matmul_fp8": case_matmul_fp8,
    "persistent_matmul": case_persistent_matmul,
    "grouped_persistent_matmul": case_grouped_persistent_matmul,
    "vector_add_cluster": case_vector_add_cluster,
    "block_sum_cluster": case_block_sum_cluster,
    "matmul_cluster": case_matmul_cluster,
}


def compare(name, got, want, tol):
    """None if equal (bit for bit, or within (rtol, atol) for floats), else a message."""
    if got.shape != want.shape:
        return f"{name}: shape {got.shape}, want {want.shape}"
    if tol is None:
        if got.dtype.kind == "f":
            same = got.view(f"u{got.itemsize}") == want.astype(got.dtype).view(f"u{got.itemsize}")
        else:
            same = got == want.astype(got.dtype)
    else:
        rtol, atol = tol
        same = np.isclose(got, want, rtol=rtol, atol=atol)
    if same.all():
        return None
    bad = np.argwhere(~same)
    first = tuple(int(i) for i in bad[0])
    return (f"{name}: {len(bad)} of {got.size} elements differ; first at {first}: "
            f"got {got[first]!r}, want {want[first]!r}")


def check(tilec, name):
    rng = np.random.default_rng(sum(map(ord, name)))
    with tempfile.TemporaryDirectory() as tmp:
        launch, expected, tols = CASES[name](tmp, rng)
        got = launch.run(tilec, os.path.join(CORPUS_DIR, name + ".mlir"))
        problems = []
        for buf, (_, inp) in launch.buffers.items():
            want = expected.get(buf, inp)
            msg = compare(buf, got[buf], want, tols.get(buf))
            if msg:
                problems.append(msg if buf in expected else msg + " (an input, changed)")
        return problems, sorted(expected)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tilec", required=True)
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    corpus = sorted(f[:-5] for f in os.listdir(CORPUS_DIR) if f.endswith(".mlir"))
    unlisted = [c for c in corpus if c not in CASES and c not in NO_REFERENCE]
    stale = [c for c in list(CASES) + NO_REFERENCE if c not in corpus]
    both = [c for c in CASES if c in NO_REFERENCE]
    if unlisted or stale or both:
        print(json.dumps({"error": {"neither_checked_nor_listed": unlisted,
                                    "not_in_corpus": stale, "in_both_lists": both}}))
        return 1
    names = args.only or list(CASES)
    failed = 0
    for name in names:
        if name not in CASES:
            print(json.dumps({"error": f"no case {name!r}"}))
            return 1
        try:
            problems, outputs = check(args.tilec, name)
        except Exception as e:  # noqa: BLE001 (every failure is reported)
            problems, outputs = [f"{type(e).__name__}: {e}"], []
        failed += bool(problems)
        print(json.dumps({"kernel": name, "ok": not problems, "outputs": outputs,
                          "problems": problems}))
    print(json.dumps({"summary": {"checked": len(names), "failed": failed,
                                  "no_reference": NO_REFERENCE}}))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

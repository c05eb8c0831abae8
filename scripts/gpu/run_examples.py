#!/usr/bin/env python3
"""Run every kernel of examples/*.tile on an NVIDIA GPU and check it against NumPy.

For each example the script compiles the .tile file with tilec into a temporary
PTX file, loads it with CuPy, launches every entry of it on one or more input
sets (fixed seed; "ragged" sizes that are not multiples of the tile sizes, and a
large size for timing), compares the outputs with a NumPy reference, checks that
nothing outside the outputs' logical elements was written, and times the launch
with CUDA events.

    python3 scripts/gpu/run_examples.py                 # everything, on the GPU
    python3 scripts/gpu/run_examples.py --only matmul   # one example (or one kernel)
    python3 scripts/gpu/run_examples.py --dry-run       # no GPU and no CuPy needed

--dry-run compiles every example, checks every case's argument list against the
`.visible .entry` parameter list of the PTX (count and kind), checks that every
entry of every example is covered by at least one case, builds all NumPy inputs
and references, and exercises the result checks on a simulated perfect output
(must pass) and on corrupted ones (must fail).

Exit status:
    0  every kernel passed (or, with --dry-run, everything is consistent)
    1  at least one kernel failed (compile, load, launch, wrong result), or the
       dry run found an inconsistency
    2  setup error: tilec not found, bad arguments, --only matched nothing, the
       PTX target is newer than the GPU
    3  skipped: CuPy or a GPU is missing (without --dry-run); nothing was checked

Only NumPy is needed for --dry-run; CuPy is imported only when kernels run.
See scripts/gpu/README.md.
"""

import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

import numpy as np

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"

EXIT_OK, EXIT_FAIL, EXIT_SETUP, EXIT_SKIPPED = 0, 1, 2, 3

# Elements left after (and, for 2-D arrays, around) every buffer, filled with a
# sentinel: a clipped store that writes past the logical end lands there.
GUARD = 2048
# Largest tile height of any example (matmul's C tile, transpose's A tile):
# a clipped 2-D tile can reach this many rows past the last row.
MAX_TILE_ROWS = 64

SENTINEL_I32 = np.int32(-559038737)  # 0xDEADBEEF
EPS32 = float(np.finfo(np.float32).eps)


# --------------------------------------------------------------------------
# Kernel arguments
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class Ptr:
    """A `tile<ptr<T>>` argument: the device address of buffer `name`."""
    name: str
    kind = "ptr"


@dataclass(frozen=True)
class I32:
    """A `tile<i32>` argument (passed as numpy.int32)."""
    value: int
    kind = "i32"


@dataclass(frozen=True)
class F32:
    """A `tile<f32>` argument (passed as numpy.float32)."""
    value: float
    kind = "f32"


# Which PTX parameter types each argument kind may meet (docs/abi.md).
PTX_TYPES_FOR_KIND = {
    "ptr": {"u64", "b64", "s64"},
    "i32": {"u32", "s32", "b32"},
    "f32": {"f32"},
}


def arg_text(a) -> str:
    return a.name if isinstance(a, Ptr) else repr(a.value)


# --------------------------------------------------------------------------
# Buffers and checks
# --------------------------------------------------------------------------

@dataclass
class Tol:
    """Tolerance of an output check.

    An element passes when |out - ref| <= atol + rtol * max(|ref|, scale), with
    `scale` an optional per-element magnitude (e.g. sum_k |a_ik| |b_kj| for a
    product, the running sum of |x| for a prefix sum) that stands in for |ref|
    where cancellation makes |ref| a poor yardstick. rtol = atol = 0 and no
    scale means bit-exact (integers, or float kernels that only move data).
    """
    rtol: float = 0.0
    atol: float = 0.0
    scale: Optional[np.ndarray] = None

    @property
    def exact(self) -> bool:
        return self.rtol == 0.0 and self.atol == 0.0

    def describe(self) -> str:
        if self.exact:
            return "exact"
        parts = [f"rtol {self.rtol:.1e}" + (" of a scale" if self.scale is not None else "")]
        if self.atol:
            parts.append(f"atol {self.atol:.0e}")
        return ", ".join(parts)


@dataclass
class Buffer:
    """One device allocation.

    `flat` is the whole allocation's initial contents (1-D): the logical
    elements (shape/strides, in elements) plus padding between strided rows
    and a guard after the end, all filled with a sentinel. Buffers with an
    `expected` value are outputs; all others are inputs and must come back
    unchanged. `check_rows` restricts the comparison to some rows (axis 0) of
    a large output whose full reference would be too slow on the host.
    """
    name: str
    flat: np.ndarray
    shape: Tuple[int, ...]
    strides: Tuple[int, ...]
    expected: Optional[np.ndarray] = None
    tol: Optional[Tol] = None
    check_rows: Optional[np.ndarray] = None

    @property
    def is_output(self) -> bool:
        return self.expected is not None


def logical_view(flat: np.ndarray, shape, strides) -> np.ndarray:
    """A writable view of the logical elements of a flat buffer."""
    return np.lib.stride_tricks.as_strided(
        flat, shape=tuple(shape), strides=tuple(s * flat.itemsize for s in strides))


def extent(shape, strides) -> int:
    """Number of elements from the first logical element to the last, inclusive."""
    if any(d == 0 for d in shape):
        return 0
    return 1 + sum((d - 1) * s for d, s in zip(shape, strides))


def sentinel_for(dtype) -> np.generic:
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return dtype.type(np.nan)
    if dtype == np.int32:
        return SENTINEL_I32
    if dtype == np.uint16:          # bf16 bits: a quiet NaN
        return np.uint16(0x7FC1)
    if dtype.kind in "iu":
        return dtype.type(0x5A)
    raise ValueError(f"no sentinel for {dtype}")


def make_buffer(name, data=None, *, shape=None, dtype=None, strides=None,
                pad=None, expected=None, tol=None, check_rows=None) -> Buffer:
    """Build a buffer holding `data` (or only the sentinel when data is None).

    strides default to contiguous row-major; `pad` (default: the sentinel)
    fills everything that is not a logical element.
    """
    if data is not None:
        data = np.asarray(data)
        shape, dtype = data.shape, data.dtype
    shape = tuple(int(d) for d in shape)
    dtype = np.dtype(dtype)
    if strides is None:
        strides, acc = [], 1
        for d in reversed(shape):
            strides.append(acc)
            acc *= d
        strides = tuple(reversed(strides))
    strides = tuple(int(s) for s in strides)
    guard = GUARD + (MAX_TILE_ROWS * strides[0] if len(shape) >= 2 else 0)
    fill = sentinel_for(dtype) if pad is None else dtype.type(pad)
    flat = np.full(extent(shape, strides) + guard, fill, dtype=dtype)
    if data is not None:
        logical_view(flat, shape, strides)[...] = data
    return Buffer(name, flat, shape, strides, expected, tol, check_rows)


def array_args(buf: Buffer) -> list:
    """cuTile's array convention: pointer, one i32 per dimension (the shape),
    one i32 per dimension (the strides, in elements)."""
    return [Ptr(buf.name)] + [I32(d) for d in buf.shape] + [I32(s) for s in buf.strides]


def as_number(a: np.ndarray) -> np.ndarray:
    """Values to compare with: int64 for integers, float64 for floats."""
    return a.astype(np.int64) if a.dtype.kind in "iu" else a.astype(np.float64)


def same_bits(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Element-wise bitwise equality (so NaN sentinels compare equal)."""
    u = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.itemsize]
    return a.view(u) == b.view(u)


@dataclass
class CheckResult:
    ok: bool
    max_err: float = 0.0
    message: str = ""


def check_buffer(buf: Buffer, result_flat: np.ndarray) -> CheckResult:
    """Compare one buffer read back from the device with its expectation.

    Outputs: the logical elements against `expected` within `tol`, and every
    other element (padding, guard) unchanged. Inputs: entirely unchanged.
    """
    with np.errstate(all="ignore"):     # inf - inf and NaN comparisons are expected here
        return _check_buffer(buf, result_flat)


def _check_buffer(buf: Buffer, result_flat: np.ndarray) -> CheckResult:
    if result_flat.shape != buf.flat.shape:
        return CheckResult(False, math.inf, f"{buf.name}: read back {result_flat.shape}, wanted {buf.flat.shape}")
    if not buf.is_output:
        bad = ~same_bits(result_flat, buf.flat)
        if bad.any():
            i = int(np.argmax(bad))
            return CheckResult(False, 0.0, f"input {buf.name} was modified ({int(bad.sum())} elements, first at flat index {i})")
        return CheckResult(True)

    # Outside the logical elements: put the logical elements of the initial
    # contents back into a copy of the result, then the whole copy must equal
    # the initial contents bit for bit.
    outside = result_flat.copy()
    logical_view(outside, buf.shape, buf.strides)[...] = logical_view(buf.flat, buf.shape, buf.strides)
    bad = ~same_bits(outside, buf.flat)
    if bad.any():
        i = int(np.argmax(bad))
        return CheckResult(False, math.inf,
                           f"{buf.name}: {int(bad.sum())} elements outside the array were written (first at flat index {i})")

    got = logical_view(result_flat, buf.shape, buf.strides)
    if buf.check_rows is not None:
        got = got[buf.check_rows]
    got = as_number(got)
    ref = as_number(buf.expected)
    if got.shape != ref.shape:
        return CheckResult(False, math.inf, f"{buf.name}: shape {got.shape} vs reference {ref.shape}")
    if got.size == 0:
        return CheckResult(True)
    tol = buf.tol or Tol()
    if got.dtype.kind == "i" or tol.exact:
        if got.dtype.kind == "f":
            # Exact float comparison (NaN matches NaN).
            bad = ~((got == ref) | (np.isnan(got) & np.isnan(ref)))
            err = np.where(np.isfinite(got) & np.isfinite(ref), np.abs(got - ref), np.where(bad, np.inf, 0.0))
        else:
            diff = np.abs(got - ref)
            bad = diff != 0
            err = diff.astype(np.float64)
    else:
        err = np.abs(got - ref)
        mag = np.abs(ref) if tol.scale is None else np.maximum(np.abs(ref), tol.scale)
        bound = tol.atol + tol.rtol * mag
        bad = ~(err <= bound)          # NaN in the output counts as bad
        err = np.where(np.isnan(err), np.inf, err)
    max_err = float(err.max())
    if bad.any():
        idx = np.unravel_index(int(np.argmax(bad)), bad.shape)
        return CheckResult(False, max_err,
                           f"{buf.name}: {int(bad.sum())} of {bad.size} elements wrong ({tol.describe()}); "
                           f"first at {tuple(int(i) for i in idx)}: got {got[idx].item()!r}, want {ref[idx].item()!r}")
    return CheckResult(True, max_err)


# --------------------------------------------------------------------------
# Test cases
# --------------------------------------------------------------------------

@dataclass
class Case:
    """One launch of one kernel on one input set."""
    example: str                 # examples/<example>.tile
    kernel: str                  # the entry's name
    label: str                   # what the table prints as the shape
    grid: Tuple[int, int, int]
    buffers: List[Buffer]
    args: list
    bytes_moved: Optional[int] = None   # for GB/s (memory-bound kernels)
    flops: Optional[int] = None         # for TFLOP/s (matrix products)
    note: str = ""


@dataclass
class CaseSpec:
    """A case before its (possibly large) inputs are built. The builders below
    return one; `build(seed)` makes the Case."""
    example: str
    kernel: str
    label: str
    make: Callable[[np.random.Generator], dict]
    large: bool = False

    def seed(self, base: int) -> int:
        # A seed per case, stable across runs and independent of --only.
        return base ^ zlib.crc32(f"{self.kernel}/{self.label}".encode())

    def build(self, base_seed: int) -> Case:
        parts = self.make(np.random.default_rng(self.seed(base_seed)))
        return Case(self.example, self.kernel, self.label, **parts)


def cdiv(a: int, b: int) -> int:
    return -(-a // b)


def rows_sample(m: int, count: int, rng) -> np.ndarray:
    """Some rows of an m-row output, always including the first and the last."""
    if m <= count:
        return np.arange(m)
    pick = rng.choice(np.arange(1, m - 1), size=count - 2, replace=False)
    return np.sort(np.concatenate([[0, m - 1], pick]))


def stride_note(**strides) -> str:
    """', strides x=3 y=2' for the strides that are not the contiguous default."""
    odd = [f"{k}={v}" for k, v in strides.items() if v is not None]
    return (", strides " + " ".join(odd)) if odd else ""


# ---- elementwise 1-D kernels --------------------------------------------
# Each builder returns a CaseSpec; its `make(rng)` returns the Case's grid,
# buffers, argument list and figures. Argument orders follow the `entry`
# signatures in examples/*.tile.

def vector_add_case(n, large=False):
    # entry @vector_add(a, a_len, a_stride, b, b_len, b_stride, c, c_len, c_stride)
    def make(rng):
        a = rng.standard_normal(n, dtype=np.float32)
        b = rng.standard_normal(n, dtype=np.float32)
        A, B = make_buffer("a", a), make_buffer("b", b)
        # IEEE f32 addition is correctly rounded on both sides: bit-exact.
        C = make_buffer("c", shape=(n,), dtype=np.float32, expected=a + b, tol=Tol())
        return dict(grid=(cdiv(n, 1024), 1, 1), buffers=[A, B, C],
                    args=array_args(A) + array_args(B) + array_args(C), bytes_moved=12 * n)
    return CaseSpec("vector_add", "vector_add", f"n={n}", make, large)


def relu_case(n, large=False):
    # entry @relu(x, x_len, x_stride, y, y_len, y_stride)
    def make(rng):
        x = rng.standard_normal(n, dtype=np.float32)
        X = make_buffer("x", x)
        Y = make_buffer("y", shape=(n,), dtype=np.float32, expected=np.maximum(x, np.float32(0)), tol=Tol())
        return dict(grid=(cdiv(n, 1024), 1, 1), buffers=[X, Y],
                    args=array_args(X) + array_args(Y), bytes_moved=8 * n)
    return CaseSpec("relu", "relu", f"n={n}", make, large)


def saxpy_case(n, x_stride=1, y_stride=1, large=False):
    # entry @saxpy(a: f32, x, x_len, x_stride, y, y_len, y_stride); y in place.
    # Pointer-tile addressing: any element strides work (the header says so).
    def make(rng):
        a = np.float32(rng.uniform(-2.0, 2.0))
        x = rng.standard_normal(n, dtype=np.float32)
        y = rng.standard_normal(n, dtype=np.float32)
        X = make_buffer("x", x, strides=(x_stride,))
        # y's initial logical contents are the input; fma rounds once.
        ref = np.float64(a) * x.astype(np.float64) + y.astype(np.float64)
        Y = make_buffer("y", y, strides=(y_stride,), expected=ref, tol=Tol(rtol=1e-6, atol=1e-6))
        return dict(grid=(cdiv(n, 1024), 1, 1), buffers=[X, Y],
                    args=[F32(float(a))] + array_args(X) + array_args(Y), bytes_moved=12 * n,
                    note="in place: the timed launches keep updating y")
    label = f"n={n}" + stride_note(x=x_stride if x_stride != 1 else None,
                                   y=y_stride if y_stride != 1 else None)
    return CaseSpec("saxpy", "saxpy", label, make, large)


# ---- row-wise 2-D kernels -----------------------------------------------
# Matrices are row-major with unit column stride; the row stride is a run-time
# argument, so the "padded" cases use a row stride larger than the row (the
# gap holds the sentinel and must not be written).

def matrix_label(m, n, *row_strides, natural=()):
    extra = [str(s) for s in row_strides]
    odd = any(s != d for s, d in zip(row_strides, natural))
    return f"{m}x{n}" + (f", row stride{'s' if len(extra) > 1 else ''} {'/'.join(extra)}" if odd else "")


def fused_bias_gelu_case(m, n, pad=0, large=False):
    # entry @fused_bias_gelu(x: ptr, rows, cols, row_stride, col_stride,
    #                        y: ptr, rows, cols, row_stride, col_stride,
    #                        bias: ptr, len, stride)   -- y comes before bias
    def make(rng):
        x = rng.standard_normal((m, n), dtype=np.float32) * np.float32(2)
        bias = rng.standard_normal(n, dtype=np.float32)
        h = x.astype(np.float64) + bias.astype(np.float64)
        ref = 0.5 * h * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (h + 0.044715 * h ** 3)))
        X = make_buffer("x", x, strides=(n + pad, 1))
        Y = make_buffer("y", shape=(m, n), dtype=np.float32, strides=(n + pad, 1),
                        expected=ref, tol=Tol(rtol=1e-5, atol=1e-6))
        Bi = make_buffer("bias", bias)
        return dict(grid=(cdiv(m, 16), cdiv(n, 128), 1), buffers=[X, Y, Bi],
                    args=array_args(X) + array_args(Y) + array_args(Bi),
                    bytes_moved=8 * m * n + 4 * n)
    return CaseSpec("fused_bias_gelu", "fused_bias_gelu", matrix_label(m, n, n + pad, natural=(n,)), make, large)


def layernorm_case(m, n, pad=0, eps=1e-5, large=False):
    # entry @layernorm(x: 2-D, y: 2-D, gamma: 1-D, beta: 1-D, eps: f32); N <= 1024.
    assert n <= 1024, "layernorm handles rows of at most 1024 columns"

    def make(rng):
        x = rng.standard_normal((m, n), dtype=np.float32) * np.float32(3) + np.float32(0.5)
        w = rng.uniform(0.5, 1.5, n).astype(np.float32)
        b = (rng.standard_normal(n, dtype=np.float32) * np.float32(0.1)).astype(np.float32)
        xd = x.astype(np.float64)
        mean = xd.mean(axis=1, keepdims=True)
        var = ((xd - mean) ** 2).mean(axis=1, keepdims=True)     # biased, as the kernel
        ref = (xd - mean) / np.sqrt(var + float(np.float32(eps))) * w + b
        X = make_buffer("x", x, strides=(n + pad, 1))
        Y = make_buffer("y", shape=(m, n), dtype=np.float32, strides=(n + pad, 1),
                        expected=ref, tol=Tol(rtol=1e-5, atol=1e-5))
        W, B = make_buffer("gamma", w), make_buffer("beta", b)
        return dict(grid=(m, 1, 1), buffers=[X, Y, W, B],
                    args=array_args(X) + array_args(Y) + array_args(W) + array_args(B) + [F32(eps)],
                    bytes_moved=8 * m * n + 8 * n)
    return CaseSpec("layernorm", "layernorm", matrix_label(m, n, n + pad, natural=(n,)), make, large)


def row_softmax_case(m, n, pad=0, large=False):
    # entry @row_softmax(x: 2-D, y: 2-D); N <= 1024.
    assert n <= 1024, "row_softmax handles rows of at most 1024 columns"

    def make(rng):
        x = rng.standard_normal((m, n), dtype=np.float32) * np.float32(4)
        xd = x.astype(np.float64)
        e = np.exp(xd - xd.max(axis=1, keepdims=True))
        ref = e / e.sum(axis=1, keepdims=True)
        X = make_buffer("x", x, strides=(n + pad, 1))
        Y = make_buffer("y", shape=(m, n), dtype=np.float32, strides=(n + pad, 1),
                        expected=ref, tol=Tol(rtol=1e-5, atol=1e-7))
        return dict(grid=(m, 1, 1), buffers=[X, Y],
                    args=array_args(X) + array_args(Y), bytes_moved=8 * m * n)
    return CaseSpec("row_softmax", "row_softmax", matrix_label(m, n, n + pad, natural=(n,)), make, large)


def transpose_case(m, n, a_pad=0, b_pad=0, large=False):
    # entry @transpose(a: 2-D M x N, b: 2-D N x M)
    def make(rng):
        a = rng.standard_normal((m, n), dtype=np.float32)
        A = make_buffer("a", a, strides=(n + a_pad, 1))
        B = make_buffer("b", shape=(n, m), dtype=np.float32, strides=(m + b_pad, 1),
                        expected=np.ascontiguousarray(a.T), tol=Tol())
        return dict(grid=(cdiv(m, 64), cdiv(n, 32), 1), buffers=[A, B],
                    args=array_args(A) + array_args(B), bytes_moved=8 * m * n)
    return CaseSpec("transpose", "transpose", matrix_label(m, n, n + a_pad, m + b_pad, natural=(n, m)),
                    make, large)


# ---- reductions, scans, atomics -----------------------------------------

def sum_reduction_case(n, out_stride=1, large=False):
    # entry @sum_reduction(x, x_len, x_stride, partial, partial_len, partial_stride);
    # partial[b * partial_stride] = sum of tile b.
    def make(rng):
        x = rng.uniform(-1.0, 1.0, n).astype(np.float32)
        blocks = cdiv(n, 1024)
        padded = np.zeros(blocks * 1024, dtype=np.float64)
        padded[:n] = x
        per_block = padded.reshape(blocks, 1024)
        X = make_buffer("x", x)
        # Summing 1024 f32 values in any tree-like order errs by at most a few
        # dozen roundings of sum|x|.
        P = make_buffer("partial", shape=(blocks,), dtype=np.float32, strides=(out_stride,),
                        expected=per_block.sum(axis=1),
                        tol=Tol(rtol=64 * EPS32, scale=np.abs(per_block).sum(axis=1)))
        return dict(grid=(blocks, 1, 1), buffers=[X, P],
                    args=array_args(X) + array_args(P), bytes_moved=4 * n + 4 * blocks)
    label = f"n={n}" + (f", out stride {out_stride}" if out_stride != 1 else "")
    return CaseSpec("sum_reduction", "sum_reduction", label, make, large)


def prefix_sum_case(n, large=False):
    # entry @prefix_sum(x, x_len, x_stride, y, y_len, y_stride); grid (1, 1, 1):
    # one tile block walks all tiles, carrying the running total.
    def make(rng):
        x = rng.uniform(-1.0, 1.0, n).astype(np.float32)
        xd = x.astype(np.float64)
        ref = np.cumsum(xd)
        # Error model, per element i of tile t: the scan inside the tile errs
        # by at most ~32 roundings of l_i (the running sum of |x| inside the
        # tile); adding the carry rounds once at |y_i|; and the carry brought
        # into tile t has the errors of all earlier tiles (|S_s| + 32 L_s each,
        # S_s the total so far at the end of tile s, L_s its sum of |x|).
        # Tolerance: 2 eps times that magnitude (a 4x margin over eps/2).
        tiles = cdiv(n, 1024)
        ax = np.zeros(tiles * 1024)
        ax[:n] = np.abs(xd)
        local = np.cumsum(ax.reshape(tiles, 1024), axis=1)                 # l_i
        per_tile = np.abs(np.cumsum(np.pad(xd, (0, tiles * 1024 - n)))[1023::1024]) + 32 * local[:, -1]
        before = np.concatenate([[0.0], np.cumsum(per_tile)[:-1]])         # tiles s < t
        scale = (before[:, None] + 32 * local).reshape(-1)[:n] + np.abs(ref)
        X = make_buffer("x", x)
        Y = make_buffer("y", shape=(n,), dtype=np.float32, expected=ref,
                        tol=Tol(rtol=2 * EPS32, scale=scale))
        return dict(grid=(1, 1, 1), buffers=[X, Y], args=array_args(X) + array_args(Y),
                    bytes_moved=8 * n, note="one tile block walks the whole vector")
    return CaseSpec("prefix_sum", "prefix_sum", f"n={n}", make, large)


def histogram_case(n, bins, x_stride=1, bins_stride=1, large=False):
    # entry @histogram(x, x_len, x_stride, bins, bins_len, bins_stride);
    # bins must be zero before the launch; values outside [0, bins) are ignored.
    def make(rng):
        x = rng.integers(-8, bins + 8, n, dtype=np.int32)     # some out of range on purpose
        inside = x[(x >= 0) & (x < bins)]
        ref = np.bincount(inside, minlength=bins).astype(np.int64)
        # The gaps of a strided x hold a valid bin (0): reading one would show
        # up as extra counts in bin 0.
        X = make_buffer("x", x, strides=(x_stride,), pad=0)
        # The counters start at zero; the gaps of a strided bins array keep the
        # sentinel and must not be touched.
        Bn = make_buffer("bins", np.zeros(bins, dtype=np.int32), strides=(bins_stride,),
                         expected=ref, tol=Tol())
        return dict(grid=(cdiv(n, 1024), 1, 1), buffers=[X, Bn],
                    args=array_args(X) + array_args(Bn), bytes_moved=4 * n,
                    note="the timed launches keep accumulating into bins")
    label = f"n={n}, {bins} bins" + stride_note(x=x_stride if x_stride != 1 else None,
                                                bins=bins_stride if bins_stride != 1 else None)
    return CaseSpec("histogram", "histogram", label, make, large)


# ---- matrix products ----------------------------------------------------

def matmul_case(m, n, k, pad=(0, 0, 0), sample_rows=None, large=False, name="matmul", tile=64):
    # entry @matmul(a: 2-D f16 M x K, b: 2-D f16 K x N, c: 2-D f32 M x N); also
    # @matmul_wide (matmul_wide.tile, 128 x 128 C tiles: `tile`).
    def make(rng):
        a = rng.uniform(-1.0, 1.0, (m, k)).astype(np.float16)
        b = rng.uniform(-1.0, 1.0, (k, n)).astype(np.float16)
        rows = rows_sample(m, sample_rows, rng) if sample_rows else np.arange(m)
        ad, bd = a[rows].astype(np.float64), b.astype(np.float64)
        A = make_buffer("a", a, strides=(k + pad[0], 1))
        B = make_buffer("b", b, strides=(n + pad[1], 1))
        # f16 products are exact in f32; f32 accumulation (tensor cores or the
        # fma fallback) errs far below 1e-3 of sum_k |a_ik b_kj|.
        C = make_buffer("c", shape=(m, n), dtype=np.float32, strides=(n + pad[2], 1),
                        expected=ad @ bd, tol=Tol(rtol=1e-3, scale=np.abs(ad) @ np.abs(bd)),
                        check_rows=rows if sample_rows else None)
        return dict(grid=(cdiv(m, tile), cdiv(n, tile), 1), buffers=[A, B, C],
                    args=array_args(A) + array_args(B) + array_args(C), flops=2 * m * n * k,
                    note=f"checked on {len(rows)} sampled rows" if sample_rows else "")
    label = f"{m}x{n}x{k}" + (f", row strides {k + pad[0]}/{n + pad[1]}/{n + pad[2]}" if any(pad) else "")
    return CaseSpec(name, name, label, make, large)


def bf16_round(x: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Round f32 values to bf16 (nearest, ties to even): (bits as uint16, values as f32)."""
    u = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    bits = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    return bits, (bits.astype(np.uint32) << 16).view(np.float32)


def tf32_round(x: np.ndarray) -> np.ndarray:
    """What cvt.rna.tf32.f32 does: keep 10 mantissa bits, ties away from zero."""
    u = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x1000) & 0xFFFFE000).astype(np.uint32).view(np.float32)


def mma_float_case(kernel, m, n, k, ab_type, acc_type, batch=None):
    """D = A x B + C, the whole product in one tile (examples/mma_types.tile):
    entry @KERNEL(a: ptr, b: ptr, c: ptr, d: ptr), static row-major shapes."""
    def make(rng):
        ashape = (m, k) if batch is None else (batch, m, k)
        bshape = (k, n) if batch is None else (batch, k, n)
        cshape = (m, n) if batch is None else (batch, m, n)
        a32 = rng.uniform(-1.0, 1.0, ashape).astype(np.float32)
        b32 = rng.uniform(-1.0, 1.0, bshape).astype(np.float32)
        c = rng.uniform(-1.0, 1.0, cshape).astype(acc_type)
        if ab_type == "f16":
            a_dev, b_dev = a32.astype(np.float16), b32.astype(np.float16)
            a_val, b_val = a_dev, b_dev
        elif ab_type == "bf16":     # uploaded as their 16-bit encodings
            (a_dev, a_val), (b_dev, b_val) = bf16_round(a32), bf16_round(b32)
        elif ab_type == "tf32":     # the kernel loads f32 and rounds to tf32 itself (ftof)
            a_dev, b_dev = a32, b32
            a_val, b_val = tf32_round(a32), tf32_round(b32)
        else:
            raise ValueError(ab_type)
        ad, bd, cd = a_val.astype(np.float64), b_val.astype(np.float64), c.astype(np.float64)
        bufs = [make_buffer("a", a_dev), make_buffer("b", b_dev), make_buffer("c", c),
                make_buffer("d", shape=cshape, dtype=acc_type, expected=np.matmul(ad, bd) + cd,
                            tol=Tol(rtol=1e-2, scale=np.matmul(np.abs(ad), np.abs(bd)) + np.abs(cd)))]
        return dict(grid=(1, 1, 1), buffers=bufs, args=[Ptr(b.name) for b in bufs],
                    flops=2 * m * n * k * (batch or 1))
    shape = f"{m}x{n}x{k}" if batch is None else f"{batch} x {m}x{n}x{k}"
    acc = {np.float32: "f32", np.float16: "f16"}[acc_type]
    return CaseSpec("mma_types", kernel, f"{shape}, {ab_type} -> {acc}", make)


def mma_i8_case(m=32, n=32, k=64):
    """entry @mma_i8_i32(a: ptr i8, b: ptr i8, c: ptr i32, d_ss, d_su, d_us, d_uu: ptr i32):
    the same bytes of A and B read as signed or unsigned."""
    def make(rng):
        a = rng.integers(-128, 128, (m, k), dtype=np.int8)
        b = rng.integers(-128, 128, (k, n), dtype=np.int8)
        c = rng.integers(-(1 << 20), 1 << 20, (m, n), dtype=np.int32)
        sa, ua = a.astype(np.int64), a.view(np.uint8).astype(np.int64)
        sb, ub = b.astype(np.int64), b.view(np.uint8).astype(np.int64)

        def wrap32(v):   # mmai wraps modulo 2^32 (no overflow at these sizes anyway)
            return ((v + (1 << 31)) % (1 << 32)) - (1 << 31)

        outs = [make_buffer(f"d_{tag}", shape=(m, n), dtype=np.int32, expected=wrap32(lhs @ rhs + c), tol=Tol())
                for tag, lhs, rhs in (("ss", sa, sb), ("su", sa, ub), ("us", ua, sb), ("uu", ua, ub))]
        bufs = [make_buffer("a", a), make_buffer("b", b), make_buffer("c", c)] + outs
        return dict(grid=(1, 1, 1), buffers=bufs, args=[Ptr(b.name) for b in bufs],
                    flops=4 * 2 * m * n * k)
    return CaseSpec("mma_types", "mma_i8_i32", f"{m}x{n}x{k}, i8 -> i32, 4 signedness pairs", make)


# ---- the list of cases ----------------------------------------------------

def all_specs() -> List[CaseSpec]:
    """Every case, in table order. Ragged sizes are not multiples of the tile
    sizes (nor of 4, so vector accesses meet odd tails); `large` cases are the
    realistic sizes used for timing (they are checked too)."""
    big = 1 << 24
    return [
        vector_add_case(1_000_003),
        vector_add_case(big, large=True),
        relu_case(1_000_003),
        relu_case(big, large=True),
        saxpy_case(1_000_003),
        saxpy_case(300_001, x_stride=3, y_stride=2),
        saxpy_case(big, large=True),
        fused_bias_gelu_case(1000, 1000),
        fused_bias_gelu_case(999, 1001, pad=3),
        fused_bias_gelu_case(8192, 4096, large=True),
        layernorm_case(1000, 777),
        layernorm_case(999, 1024, pad=5),
        layernorm_case(32768, 1024, large=True),
        row_softmax_case(1000, 1000),
        row_softmax_case(777, 333, pad=7),
        row_softmax_case(32768, 1024, large=True),
        transpose_case(1000, 777),
        transpose_case(1001, 333, a_pad=5, b_pad=3),
        transpose_case(8192, 8192, large=True),
        sum_reduction_case(1_000_003, out_stride=3),
        sum_reduction_case(big, large=True),
        prefix_sum_case(1000),
        prefix_sum_case(100_003),
        prefix_sum_case(1 << 22, large=True),
        histogram_case(1_000_003, 1000),
        histogram_case(100_001, 37, x_stride=3, bins_stride=2),
        histogram_case(big, 256, large=True),
        matmul_case(333, 200, 77),
        matmul_case(130, 97, 65, pad=(5, 4, 3)),
        matmul_case(4096, 4096, 4096, sample_rows=128, large=True),
        matmul_case(333, 200, 300, name="matmul_wide", tile=128),
        matmul_case(256, 256, 384, pad=(8, 8, 4), name="matmul_wide", tile=128),
        matmul_case(4096, 4096, 4096, sample_rows=128, large=True, name="matmul_wide", tile=128),
        mma_float_case("mma_f16_f32", 64, 64, 32, "f16", np.float32),
        mma_float_case("mma_f16_f16", 32, 32, 32, "f16", np.float16),
        mma_float_case("mma_bf16_f32", 32, 64, 32, "bf16", np.float32),
        mma_float_case("mma_tf32_f32", 32, 32, 32, "tf32", np.float32),
        mma_i8_case(),
        mma_float_case("mma_batched_f16_f32", 32, 8, 32, "f16", np.float32, batch=4),
    ]


def select_specs(specs: List[CaseSpec], only: List[str], no_large: bool) -> List[CaseSpec]:
    """--only takes example names or kernel names (comma-separated or repeated)."""
    names = only_names(only)
    out = [s for s in specs if not names or s.example in names or s.kernel in names]
    if no_large:
        out = [s for s in out if not s.large]
    return out


def only_names(only: List[str]) -> set:
    return {n.strip() for item in only for n in item.split(",") if n.strip()}


# --------------------------------------------------------------------------
# tilec and the PTX
# --------------------------------------------------------------------------

def find_tilec(given: Optional[str]) -> Optional[str]:
    if given:
        p = Path(given)
        if p.is_file() and os.access(p, os.X_OK):
            return str(p.resolve())
        return shutil.which(given)      # a bare command name
    default = REPO / "target" / "release" / "tilec"
    if default.is_file() and os.access(default, os.X_OK):
        return str(default)
    return shutil.which("tilec")


def compile_example(tilec: str, example: str, outdir: Path, arch: str, num_warps: int,
                    extra: Optional[List[str]] = None) -> Tuple[Optional[str], str]:
    """Compile examples/<example>.tile; returns (PTX text or None, diagnostics).
    `extra` are further tilec flags (--tilec-flag), e.g. --num-stages 1 or --fast-math."""
    out = outdir / f"{example}.ptx"
    cmd = [tilec, str(EXAMPLES / f"{example}.tile"), "-o", str(out),
           "--arch", arch, "--num-warps", str(num_warps)] + list(extra or [])
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0 or not out.is_file():
        return None, f"$ {' '.join(cmd)}\n{proc.stderr.strip()}"
    return out.read_text(), proc.stderr.strip()


ENTRY_RE = re.compile(r"\.visible\s+\.entry\s+([A-Za-z_$%][\w$]*)\s*\((.*?)\)", re.S)
PARAM_RE = re.compile(r"\.param\s+(?:\.align\s+\d+\s+)?\.(\w+)\s+([\w$]+)")


def parse_entries(ptx: str) -> Dict[str, List[str]]:
    """{entry name: [PTX parameter type, ...]} for every .visible .entry."""
    return {m.group(1): [t for t, _ in PARAM_RE.findall(m.group(2))] for m in ENTRY_RE.finditer(ptx)}


def signature_problems(case: Case, params: Optional[List[str]]) -> List[str]:
    """Differences between a case's argument list and the entry's PTX parameters."""
    if params is None:
        return [f"no .entry {case.kernel} in the PTX"]
    problems = []
    if len(case.args) != len(params):
        problems.append(f"{len(case.args)} arguments for {len(params)} PTX parameters")
    for i, (a, t) in enumerate(zip(case.args, params)):
        if t not in PTX_TYPES_FOR_KIND[a.kind]:
            problems.append(f"argument {i} ({a.kind} {arg_text(a)}) meets .param .{t}")
    return problems


def case_problems(case: Case) -> List[str]:
    """Internal consistency of a case (independent of the PTX)."""
    problems = []
    names = [b.name for b in case.buffers]
    if len(set(names)) != len(names):
        problems.append("duplicate buffer names")
    used = {a.name for a in case.args if isinstance(a, Ptr)}
    for n in used - set(names):
        problems.append(f"pointer argument to unknown buffer {n}")
    for n in set(names) - used:
        problems.append(f"buffer {n} is not passed")
    if not any(b.is_output for b in case.buffers):
        problems.append("no output to check")
    for a in case.args:
        if isinstance(a, I32) and not -(1 << 31) <= a.value < (1 << 31):
            problems.append(f"i32 argument {a.value} out of range")
    for b in case.buffers:
        if b.flat.size >= (1 << 31):
            problems.append(f"buffer {b.name} has {b.flat.size} elements: i32 offsets overflow")
        if b.is_output:
            want = b.shape if b.check_rows is None else (len(b.check_rows),) + b.shape[1:]
            if tuple(b.expected.shape) != tuple(want):
                problems.append(f"reference of {b.name} has shape {b.expected.shape}, wanted {want}")
    gx, gy, gz = case.grid
    if not (1 <= gx < (1 << 31) and 1 <= gy <= 65535 and 1 <= gz <= 65535):
        problems.append(f"grid {case.grid} outside CUDA's limits")
    return problems


def self_check(case: Case) -> List[str]:
    """Exercise the result checks without a GPU: a simulated perfect result
    must pass; a wrong element, a write past the end and (for strided or
    padded arrays) a write into a gap must each be caught."""
    problems = []
    perfect = {}
    for b in case.buffers:
        flat = b.flat.copy()
        if b.is_output:
            view = logical_view(flat, b.shape, b.strides)
            if b.check_rows is None:
                view[...] = b.expected.astype(flat.dtype)
            else:
                view[b.check_rows] = b.expected.astype(flat.dtype)
        perfect[b.name] = flat
        r = check_buffer(b, flat)
        if not r.ok:
            problems.append(f"perfect result rejected: {r.message}")
    if problems:
        return problems
    for b in case.buffers:
        if not b.is_output:
            continue
        # 1. A wrong value in the last checked logical element (the ragged corner).
        flat = perfect[b.name].copy()
        view = logical_view(flat, b.shape, b.strides)
        last = tuple(d - 1 for d in b.shape)
        if b.check_rows is not None:
            last = (int(b.check_rows[-1]),) + last[1:]
        if flat.dtype.kind == "f":
            old = float(view[last])
            view[last] = flat.dtype.type(old + 1e3 * (1.0 + abs(old)))
        else:
            old = int(view[last])
            view[last] = flat.dtype.type(old - 1 if old > 0 else old + 1)
        if check_buffer(b, flat).ok:
            problems.append(f"{b.name}: a wrong element was not detected")
        # 2. A store one element past the end.
        flat = perfect[b.name].copy()
        flat[extent(b.shape, b.strides)] = flat.dtype.type(1)
        if check_buffer(b, flat).ok:
            problems.append(f"{b.name}: a write past the end was not detected")
        # 3. A store into the first gap of a strided or padded array.
        inner = b.shape[-1] if len(b.shape) >= 2 else 1
        if b.strides[0] > inner * (b.strides[-1] if len(b.shape) >= 2 else 1):
            flat = perfect[b.name].copy()
            flat[inner if len(b.shape) >= 2 else 1] = flat.dtype.type(1)
            if check_buffer(b, flat).ok:
                problems.append(f"{b.name}: a write into a gap was not detected")
    return problems


# --------------------------------------------------------------------------
# Running on the GPU
# --------------------------------------------------------------------------

@dataclass
class Result:
    example: str
    kernel: str
    label: str
    grid: Tuple[int, int, int]
    block: Tuple[int, int, int]
    status: str                     # PASS / FAIL
    max_err: Optional[float] = None
    median_us: Optional[float] = None
    min_us: Optional[float] = None
    gbps: Optional[float] = None
    tflops: Optional[float] = None
    bytes_moved: Optional[int] = None
    flops: Optional[int] = None
    note: str = ""
    error: str = ""

    def to_json(self) -> dict:
        d = dict(self.__dict__)
        d["grid"], d["block"] = list(self.grid), list(self.block)
        for k, v in d.items():     # JSON has no infinity
            if isinstance(v, float) and not math.isfinite(v):
                d[k] = str(v)
        return d

    @staticmethod
    def from_json(d: dict) -> "Result":
        d = dict(d)
        d["grid"], d["block"] = tuple(d["grid"]), tuple(d["block"])
        for k in ("max_err", "median_us", "min_us", "gbps", "tflops"):
            if isinstance(d.get(k), str):
                d[k] = float(d[k])
        return Result(**d)


def import_cupy():
    """(cupy, "") when CuPy imports and sees a GPU, else (None, why not)."""
    try:
        import cupy  # imported here only: --dry-run must work without it
    except Exception as e:  # ImportError, or a broken CUDA installation
        return None, f"cannot import cupy ({e.__class__.__name__}: {e})"
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as e:
        return None, f"no CUDA device ({e.__class__.__name__}: {e})"
    if count < 1:
        return None, "no CUDA device"
    return cupy, ""


def device_info(cupy) -> dict:
    props = cupy.cuda.runtime.getDeviceProperties(0)
    name = props["name"]
    name = name.decode() if isinstance(name, bytes) else str(name)
    return {
        "name": name,
        "compute_capability": f"{props.get('major', '?')}.{props.get('minor', '?')}",
        "memory_gib": round(props.get("totalGlobalMem", 0) / 2 ** 30, 1),
        "sm_count": props.get("multiProcessorCount"),
        "driver_version": cupy.cuda.runtime.driverGetVersion(),
        "runtime_version": cupy.cuda.runtime.runtimeGetVersion(),
        "cupy_version": cupy.__version__,
    }


def arch_number(arch: str) -> int:
    m = re.fullmatch(r"sm_(\d+)a?", arch)
    return int(m.group(1)) if m else -1


def dynamic_smem(ptx: str, kernel: str) -> int:
    """The dynamic shared memory (bytes) `kernel` needs at launch: tilec declares a
    kernel's shared memory over 48 KiB `.extern .shared` and writes its size on a line
    `// tilec.dynamic_smem NAME BYTES` (docs/abi.md, "Shared memory"); 0 without one."""
    for line in ptx.splitlines():
        w = line.split()
        if len(w) == 4 and w[:2] == ["//", "tilec.dynamic_smem"] and w[2] == kernel:
            return int(w[3])
    return 0


def run_case(cupy, fn, case: Case, num_warps: int, repeat: int, shared: int = 0) -> Result:
    """Upload, launch once and check, then time `repeat` launches (with `shared` bytes
    of dynamic shared memory, which the function is allowed first)."""
    block = (32 * num_warps, 1, 1)
    if shared > 0:
        attr = getattr(cupy.cuda.driver, "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES", 8)
        cupy.cuda.driver.funcSetAttribute(fn.ptr, attr, shared)
    res = Result(case.example, case.kernel, case.label, case.grid, block, "FAIL",
                 bytes_moved=case.bytes_moved, flops=case.flops, note=case.note)
    dev = {b.name: cupy.asarray(b.flat) for b in case.buffers}
    launch_args = []
    for a in case.args:
        if isinstance(a, Ptr):
            launch_args.append(dev[a.name])           # CuPy passes an ndarray as its device pointer (.u64)
        elif isinstance(a, I32):
            launch_args.append(np.int32(a.value))     # .u32
        elif isinstance(a, F32):
            launch_args.append(np.float32(a.value))   # .f32
        else:
            raise TypeError(a)
    launch_args = tuple(launch_args)

    def launch():
        fn(case.grid, block, launch_args, shared_mem=shared)

    # 1. Correctness: the first launch, on fresh buffers.
    launch()
    cupy.cuda.runtime.deviceSynchronize()
    max_err, messages = 0.0, []
    for b in case.buffers:
        r = check_buffer(b, dev[b.name].get())
        if b.is_output:
            max_err = max(max_err, r.max_err)
        if not r.ok:
            messages.append(r.message)
    res.max_err = max_err
    res.status = "PASS" if not messages else "FAIL"
    res.error = "; ".join(messages)

    # 2. Timing: one warm-up launch, then `repeat` launches, each between two
    # CUDA events. (In-place kernels keep updating their outputs; the work per
    # launch is the same.)
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    launch()
    times = []
    for _ in range(repeat):
        start.record()
        launch()
        end.record()
        end.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, end) * 1000.0)   # ms -> us
    if times:
        res.median_us = float(np.median(times))
        res.min_us = float(np.min(times))
        if case.bytes_moved:
            res.gbps = case.bytes_moved / (res.median_us * 1e3)
        if case.flops:
            res.tflops = case.flops / (res.median_us * 1e6)
    launch_args = None                         # drop the device buffers before freeing the pool
    dev.clear()
    cupy.get_default_memory_pool().free_all_blocks()
    return res


def run_example(cupy, example: str, specs: List[CaseSpec], args, workdir: Path,
                report: Callable[[Result], None]) -> None:
    """Compile one example, load its PTX, run its cases (in this process);
    `report` receives each result as soon as it is known."""
    block = (32 * args.num_warps, 1, 1)

    def failed(spec, msg):
        return Result(example, spec.kernel, spec.label, (0, 0, 0), block, "FAIL", error=msg)

    ptx, diag = compile_example(args.tilec, example, workdir, args.arch, args.num_warps, args.tilec_flag)
    if ptx is None:
        for s in specs:
            report(failed(s, f"tilec failed: {diag}"))
        return
    entries = parse_entries(ptx)
    try:
        # path=, not code=: RawModule(code=...) is CUDA C for NVRTC; a .ptx
        # file given by path is loaded (and JIT-compiled) by the driver.
        module = cupy.RawModule(path=str(workdir / f"{example}.ptx"))
    except Exception as e:
        for s in specs:
            report(failed(s, f"loading the PTX failed: {e}"))
        return

    for spec in specs:
        try:
            case = spec.build(args.seed)
            problems = signature_problems(case, entries.get(case.kernel)) + case_problems(case)
            if problems:
                res = failed(spec, "; ".join(problems))
            else:
                res = run_case(cupy, module.get_function(case.kernel), case, args.num_warps,
                               args.repeat, dynamic_smem(ptx, case.kernel))
            del case
        except Exception as e:
            res = failed(spec, f"{e.__class__.__name__}: {e}")
        print(f"  {res.status} {res.kernel} [{res.label}]"
              + (f" {res.median_us:.1f} us" if res.median_us is not None else "")
              + (f" -- {res.error}" if res.error else ""), file=sys.stderr, flush=True)
        report(res)


def run_isolated(example: str, specs: List[CaseSpec], args, workdir: Path) -> List[Result]:
    """Run one example in a child process, so that a sticky CUDA error (an
    illegal address, say) or a hang in one example cannot take the others
    down with it."""
    out = workdir / f"{example}.results.json"
    cmd = [sys.executable, str(Path(__file__).resolve()), "--only", example,
           "--arch", args.arch, "--num-warps", str(args.num_warps), "--repeat", str(args.repeat),
           "--seed", str(args.seed), "--tilec", args.tilec, "--no-isolate", "--child-json", str(out)]
    if args.no_large:
        cmd.append("--no-large")
    for flag in args.tilec_flag:
        cmd.append(f"--tilec-flag={flag}")
    block = (32 * args.num_warps, 1, 1)
    try:
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, timeout=args.timeout)
        why = (f"the child process for {example} exited with status {proc.returncode} before reporting "
               f"this case (a crash in it or in an earlier case; try --only {{kernel}} --no-isolate)")
    except subprocess.TimeoutExpired:
        why = f"{example} timed out after {args.timeout} s (a kernel that never finishes?)"
    got = {}
    if out.is_file():
        got = {(r["kernel"], r["label"]): Result.from_json(r) for r in json.loads(out.read_text())}
    return [got.get((s.kernel, s.label))
            or Result(example, s.kernel, s.label, (0, 0, 0), block, "FAIL", error=why.format(kernel=s.kernel))
            for s in specs]


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------

def fmt(v, spec) -> str:
    return "" if v is None else format(v, spec)


def markdown_table(header: List[str], rows: List[List[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c).replace("|", "\\|").replace("\n", " ") for c in r) + " |" for r in rows]
    return "\n".join(lines)


def results_table(results: List[Result]) -> str:
    rows = []
    for r in results:
        status = r.status if not r.error else f"{r.status}: {r.error[:200]}"
        grid = "x".join(map(str, r.grid)) if any(r.grid) else "-"    # "-": never launched
        rows.append([r.kernel, r.label, grid, status,
                     fmt(r.max_err, ".3g"), fmt(r.median_us, ".1f"), fmt(r.gbps, ".1f"), fmt(r.tflops, ".2f")])
    return markdown_table(["kernel", "shape", "grid", "result", "max error", "median us", "GB/s", "TFLOP/s"], rows)


def tilec_missing(args) -> int:
    print(f"setup error: tilec not found ({args.tilec or 'target/release/tilec under the repo, or tilec on PATH'}); "
          "build it with `cargo build --release` or pass --tilec PATH", file=sys.stderr)
    return EXIT_SETUP


# --------------------------------------------------------------------------
# Modes
# --------------------------------------------------------------------------

def dry_run(args, specs: List[CaseSpec], examples: List[str]) -> int:
    print(f"# tilec examples: dry run (no GPU)\n\ntilec: {args.tilec}\narch: {args.arch}, "
          f"num_warps: {args.num_warps} (block {32 * args.num_warps}x1x1), seed: {args.seed}\n")
    ok = True
    entries: Dict[str, Dict[str, List[str]]] = {}
    with tempfile.TemporaryDirectory(prefix="tilec-examples-") as tmp:
        for ex in examples:
            ptx, diag = compile_example(args.tilec, ex, Path(tmp), args.arch, args.num_warps, args.tilec_flag)
            if ptx is None:
                print(f"COMPILE FAILED: {ex}\n{diag}\n")
                ok = False
                continue
            entries[ex] = parse_entries(ptx)
            if not entries[ex]:
                print(f"NO .entry IN THE PTX OF {ex}\n")
                ok = False

    rows, covered = [], set()
    for spec in specs:
        case = spec.build(args.seed)
        params = entries.get(spec.example, {}).get(spec.kernel)
        if spec.example in entries:
            problems = signature_problems(case, params)
        else:
            problems = ["not compiled"]
        problems += case_problems(case)
        if not problems:
            problems += self_check(case)
        covered.add((spec.example, spec.kernel))
        mib = sum(b.flat.nbytes for b in case.buffers) / 2 ** 20
        sig = "".join({"ptr": "p", "i32": "i", "f32": "f"}[a.kind] for a in case.args)
        psig = "" if params is None else "".join(
            "p" if t in PTX_TYPES_FOR_KIND["ptr"] else "i" if t in PTX_TYPES_FOR_KIND["i32"]
            else "f" if t == "f32" else f"[{t}]" for t in params)
        checks = "; ".join(f"{b.name}: {b.tol.describe()}" for b in case.buffers if b.is_output)
        rows.append([case.kernel, case.label, "x".join(map(str, case.grid)),
                     f"{len(case.args)} {sig}", "" if params is None else f"{len(params)} {psig}",
                     f"{mib:.1f}", checks, "ok" if not problems else "PROBLEM: " + "; ".join(problems)])
        ok = ok and not problems
        del case

    print(markdown_table(["kernel", "shape", "grid", "args", "PTX params", "MiB", "output checks",
                          "consistent"], rows))
    print("\nargs / PTX params: count and kinds (p = pointer .u64, i = 32-bit integer .u32, f = .f32).")
    print("'ok': the argument list matches the PTX entry, and the result check accepted a simulated")
    print("perfect output and caught a wrong element, a write past the end and a write into a gap.\n")

    # Coverage: every entry of every compiled example must have a case (with
    # --only naming single kernels, only those are expected).
    names = only_names(args.only)
    uncovered = [f"{ex}:{name}" for ex in entries for name in entries[ex]
                 if (not names or ex in names or name in names) and (ex, name) not in covered]
    kernels = list(dict.fromkeys(s.kernel for s in specs))
    print(f"entries in the PTX: {sum(len(e) for e in entries.values())} in {len(entries)} examples; "
          f"kernels covered ({len(kernels)}): {', '.join(kernels)}")
    if uncovered:
        print(f"\nUNCOVERED ENTRIES (no case in scripts/gpu/run_examples.py): {', '.join(uncovered)}")
        ok = False
    return EXIT_OK if ok else EXIT_FAIL


def gpu_run(cupy, args, specs: List[CaseSpec], examples: List[str]) -> int:
    info = device_info(cupy)
    cc = arch_number("sm_" + info["compute_capability"].replace(".", ""))
    if arch_number(args.arch) > cc:
        print(f"setup error: PTX for {args.arch} cannot run on {info['name']} (compute capability "
              f"{info['compute_capability']}); pass --arch sm_{cc}", file=sys.stderr)
        return EXIT_SETUP

    child = args.child_json is not None
    if not child:
        print(f"# tilec examples on {info['name']}\n")
        print(f"device: {info['name']} (compute capability {info['compute_capability']}, "
              f"{info['sm_count']} SMs, {info['memory_gib']} GiB), CUDA driver {info['driver_version']}, "
              f"runtime {info['runtime_version']}, CuPy {info['cupy_version']}")
        print(f"tilec: {args.tilec}\narch: {args.arch}, num_warps: {args.num_warps} "
              f"(block {32 * args.num_warps}x1x1), repeat: {args.repeat}, seed: {args.seed}\n", flush=True)

    results: List[Result] = []

    def report(r: Result):
        results.append(r)
        if child:   # rewritten after every case, so a later crash keeps the earlier results
            Path(args.child_json).write_text(json.dumps([x.to_json() for x in results]))

    with tempfile.TemporaryDirectory(prefix="tilec-examples-") as tmp:
        for ex in examples:
            ex_specs = [s for s in specs if s.example == ex]
            if not child:
                print(f"{ex}:", file=sys.stderr, flush=True)
            if args.no_isolate:
                run_example(cupy, ex, ex_specs, args, Path(tmp), report)
            else:
                results.extend(run_isolated(ex, ex_specs, args, Path(tmp)))

    if child:
        return EXIT_OK if all(r.status == "PASS" for r in results) else EXIT_FAIL

    print(results_table(results))
    failed = [r for r in results if r.status != "PASS"]
    print(f"\n{len(results) - len(failed)} of {len(results)} cases passed on {info['name']}"
          + (f"; FAILED: {', '.join(f'{r.kernel} [{r.label}]' for r in failed)}" if failed else ""))
    if args.json:
        doc = {"device": info, "tilec": args.tilec, "arch": args.arch, "num_warps": args.num_warps,
               "repeat": args.repeat, "seed": args.seed, "results": [r.to_json() for r in results]}
        Path(args.json).write_text(json.dumps(doc, indent=2) + "\n")
        print(f"wrote {args.json}")
    return EXIT_FAIL if failed else EXIT_OK


def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        description="Run every kernel of examples/*.tile on an NVIDIA GPU with CuPy and check it against NumPy.",
        epilog="exit status: 0 all passed (dry run: consistent), 1 a kernel failed (dry run: inconsistent), "
               "2 setup error, 3 skipped (no GPU or no CuPy). See scripts/gpu/README.md.")
    p.add_argument("--tilec", help="tilec binary (default: target/release/tilec of the repo, else tilec on PATH)")
    p.add_argument("--arch", default="sm_90", help="PTX target passed to tilec (default sm_90)")
    p.add_argument("--num-warps", type=int, default=4, choices=[1, 2, 4, 8, 16],
                   help="warps per tile block, passed to tilec; the block is 32*W threads (default 4)")
    p.add_argument("--tilec-flag", action="append", default=[], metavar="FLAG",
                   help="a further tilec flag, repeatable (e.g. --tilec-flag=--num-stages --tilec-flag=1)")
    p.add_argument("--repeat", type=int, default=20, help="timed launches per case (default 20)")
    p.add_argument("--json", metavar="OUT", help="also write all figures to this JSON file")
    p.add_argument("--dry-run", action="store_true",
                   help="no GPU or CuPy: compile, match argument lists with the PTX, build the references")
    p.add_argument("--only", action="append", default=[], metavar="NAME",
                   help="only these examples or kernels (repeatable, or comma-separated)")
    p.add_argument("--no-large", action="store_true", help="skip the large (timing-size) cases")
    p.add_argument("--seed", type=int, default=20251121, help="base seed of the random inputs")
    p.add_argument("--timeout", type=int, default=900, help="seconds per example before it counts as hung")
    p.add_argument("--no-isolate", action="store_true",
                   help="run every example in this process instead of one child process each")
    p.add_argument("--child-json", help=argparse.SUPPRESS)   # internal: where a child writes its results
    args = p.parse_args(argv)
    if args.repeat < 0:
        p.error("--repeat must be >= 0")

    # Every examples/*.tile must have cases: a new example without them fails
    # loudly instead of being skipped quietly.
    on_disk = sorted(f.stem for f in EXAMPLES.glob("*.tile"))
    known = {s.example for s in all_specs()}
    missing = [e for e in on_disk if e not in known]
    stale = sorted(known - set(on_disk))

    specs = select_specs(all_specs(), args.only, args.no_large)
    if not specs:
        print(f"setup error: --only {','.join(args.only)} matches no example or kernel", file=sys.stderr)
        return EXIT_SETUP
    examples = [e for e in dict.fromkeys(s.example for s in specs) if e in on_disk]
    specs = [s for s in specs if s.example in examples]

    def coverage_verdict(status: int) -> int:
        if args.only or args.child_json is not None:
            return status
        if missing:
            print(f"\nEXAMPLES WITHOUT CASES (not run): {', '.join(missing)}")
        if stale:
            print(f"\nCASES FOR EXAMPLES THAT DO NOT EXIST: {', '.join(stale)}")
        return EXIT_FAIL if (missing or stale) and status == EXIT_OK else status

    if args.dry_run:
        args.tilec = find_tilec(args.tilec)
        if args.tilec is None:
            return tilec_missing(args)
        status = coverage_verdict(dry_run(args, specs, examples))
        print("\nDRY RUN: " + ("everything consistent" if status == EXIT_OK else "INCONSISTENT (see above)"))
        return status

    # On the GPU. No CuPy or no GPU: skipped (whatever else is missing).
    cupy, why = import_cupy()
    if cupy is None:
        banner = "#" * 78
        print(f"{banner}\n# SKIPPED: no GPU/CuPy: {why}\n# Nothing was run or checked (exit status "
              f"{EXIT_SKIPPED}). --dry-run checks the setup without a GPU.\n{banner}")
        return EXIT_SKIPPED
    tilec = find_tilec(args.tilec)
    if tilec is None:
        return tilec_missing(args)
    args.tilec = tilec
    return coverage_verdict(gpu_run(cupy, args, specs, examples))


if __name__ == "__main__":
    sys.exit(main())

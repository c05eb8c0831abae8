#!/usr/bin/env python3
"""Reference timings for `cargo xtask gpu-bench`: the same kernels written in cuTile
Python (compiled by NVIDIA's tileiras when `ct.launch` first runs them) and, for the
GEMMs, torch's cuBLAS, on the same shapes and dtypes as tilec's runs.

    python3 scripts/gpu/bench_reference.py --bench vector_add:67108864 \
        --bench matmul:4096x4096x4096 [--reps 100] [--warmup 10]
    python3 scripts/gpu/bench_reference.py --dry-run [--arch sm_90] [--bench ...]

Benchmarks (NAME:SHAPE; the kernels are those of scripts/cutile_corpus/kernels.py, with
the tile sizes of the matching examples/*.tile, or for matmul_128 and matmul_bf16 those
of the tests/corpus/cutile entry tilec compiles: both sides run the same cuTile kernel):

    vector_add:N        c = a + b, f32, 1024-element tiles, grid N/1024
    row_softmax:MxN     softmax of each row, f32, N <= 1024, one 1x1024 tile per row
    layernorm:MxN       layer norm of each row, f32, N <= 1024, eps 1e-5, one row per block
    transpose:MxN       B = A^T, f32, A read in 64x32 tiles, grid (M/64, N/32)
    matmul:MxNxK        C (f32) = A (f16, MxK) @ B (f16, KxN), 64x64x32 tiles;
                        also torch.mm (cuBLAS) with the same dtypes
    matmul_128:MxNxK    the same product with 128x128x32 tiles (matmul_f16_f32acc);
                        also torch.mm (cuBLAS)
    matmul_bf16:MxNxK   C (bf16) = A (bf16, MxK) @ B^T, B (bf16) stored NxK, 64x64x64
                        tiles (matmul_bf16); also torch.mm(a, b.t()) (cuBLAS), bf16
    persistent:MxNxKxP  C (f32) = A (f16) @ B (f16), 64x64x64 tiles, P tile blocks walking
                        C's tiles (persistent_matmul; P = one per SM); also torch.mm
    persistent_ws:MxNxKxP  the same (tilec's side warp-specialized)
    attention:S         one head of attention, O = softmax(Q K^T / 8) V, Q, K, V, O S x 64
                        f16 (flash_attention, 64 query rows per block, keys in blocks of
                        64); also torch's scaled_dot_product_attention on (1, 1, S, 64)
    attention_ws:S      the same (tilec's side warp-specialized)
    vector_add_cluster:N  vector_add with num_ctas=2 (each tile block over a cluster of
                        2 CTAs on sm_90+; vector_add_cluster in the corpus)
    matmul_cluster:MxNxK  C (f32) = A (f16) @ B (f16), 128x128x64 tiles, num_ctas=2
                        (matmul_cluster); also torch.mm (cuBLAS)

Each launch is timed between two CUDA events (record, launch, record, wait), as tilec's
side times its launches: the median of --reps runs after --warmup launches. Every
kernel's output is checked once against a NumPy computation on a few rows, so a fast
wrong result is not reported as a time. CuPy has no bfloat16: without torch, matmul_bf16
is a "skip".

Output: one JSON object per line on stdout (progress and errors on stderr):

    {"record": "device", "name": ..., "torch": VERSION|null, "cupy": VERSION|null, "cutile": VERSION}
    {"record": "result", "bench": ..., "shape": ..., "impl": "cutile"|"torch", "median_ms": X, "runs": N, "note": ...}
    {"record": "skip", "bench": ..., "shape": ..., "impl": ..., "reason": ...}
    {"record": "error", "bench": ..., "shape": ..., "impl": ..., "message": ...}
    {"record": "plan", "bench": ..., "shape": ..., "impl": "cutile", "grid": "XxYxZ", "cubin_bytes": N}
    {"record": "done"}

--dry-run needs no GPU: it builds each cuTile kernel's signature for the arrays the
benchmark would pass, compiles it offline for --arch with tileiras (cuTile's
export_kernel), and prints one "plan" record per benchmark; nothing is launched.

Arrays and events come from torch when it can be imported, else from CuPy; without
either, every benchmark is reported as a "skip". Exit status: 0 (errors are records,
not failures), 2 for bad arguments or when cuda.tile cannot be imported.
"""

import argparse
import io
import json
import os
import statistics
import sys

sys.dont_write_bytecode = True   # importing kernels.py leaves no __pycache__ in the tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "cutile_corpus"))

# The shape each benchmark takes (the number of dimensions of its NAME:SHAPE).
DIMS = {"vector_add": 1, "row_softmax": 2, "layernorm": 2, "transpose": 2, "matmul": 3,
        "matmul_128": 3, "matmul_bf16": 3, "matmul_wide": 3, "matmul_wide_ws": 3,
        "persistent": 4, "persistent_ws": 4, "attention": 1, "attention_ws": 1,
        "vector_add_cluster": 1, "matmul_cluster": 3}

# The matrix products: also timed with torch.mm (cuBLAS).
GEMMS = ("matmul", "matmul_128", "matmul_bf16", "matmul_wide", "matmul_wide_ws", "persistent",
         "persistent_ws", "matmul_cluster")

EPS = 1e-5

# Attention: the head dimension of the corpus kernel and its softmax scale, 1/sqrt(64).
HEAD_DIM = 64
SCALE = 0.125


def emit(**record):
    print(json.dumps(record), flush=True)


def log(msg):
    print(f"bench_reference: {msg}", file=sys.stderr, flush=True)


def cdiv(a, b):
    return -(-a // b)


def parse_bench(text):
    """'matmul:4096x4096x4096' -> ('matmul', (4096, 4096, 4096))."""
    name, sep, shape = text.partition(":")
    if not sep or name not in DIMS:
        raise ValueError(f"--bench {text!r}: want NAME:SHAPE with NAME one of {', '.join(DIMS)}")
    try:
        dims = tuple(int(d) for d in shape.split("x"))
    except ValueError:
        raise ValueError(f"--bench {text!r}: the shape is not numbers joined by 'x'") from None
    if len(dims) != DIMS[name] or any(d <= 0 for d in dims):
        raise ValueError(f"--bench {text!r}: {name} takes {DIMS[name]} positive dimension(s)")
    if name in ("row_softmax", "layernorm") and dims[1] > 1024:
        raise ValueError(f"--bench {text!r}: {name} needs N <= 1024 (one 1x1024 tile per row)")
    return name, dims


DEFAULT_BENCHES = [
    "vector_add:67108864",
    "row_softmax:32768x1024",
    "layernorm:32768x1024",
    "transpose:8192x8192",
    "matmul:4096x4096x4096",
    "matmul:8192x8192x8192",
    "matmul_128:4096x4096x4096",
    "matmul_128:8192x8192x8192",
    "matmul_bf16:4096x4096x4096",
    "matmul_bf16:8192x8192x8192",
    "persistent:8192x8192x8192x132",
    "attention:16384",
]


# --------------------------------------------------------------------------
# The cuTile kernels: what each benchmark launches, and with which arguments
# --------------------------------------------------------------------------

def kernel_plan(name, dims):
    """(kernel, grid, constants) of a benchmark; constants are the trailing
    compile-time arguments (tile sizes), after the arrays and scalars."""
    import kernels as K
    if name == "vector_add":
        (n,) = dims
        return K.vector_add, (cdiv(n, 1024), 1, 1), (1024,)
    if name == "vector_add_cluster":
        (n,) = dims
        return K.vector_add_cluster, (cdiv(n, 1024), 1, 1), (1024,)
    if name == "matmul_cluster":
        m, n, _ = dims
        return K.matmul_cluster, (cdiv(m, 128), cdiv(n, 128), 1), (128, 128, 64)
    if name == "row_softmax":
        m, _ = dims
        return K.row_softmax, (m, 1, 1), (1, 1024)
    if name == "layernorm":
        m, _ = dims
        return K.layernorm, (m, 1, 1), (1024,)
    if name == "transpose":
        m, n = dims
        return K.transpose2d, (cdiv(m, 64), cdiv(n, 32), 1), (64, 32)
    if name == "matmul":
        m, n, _ = dims
        return K.matmul_f16_f32acc, (cdiv(m, 64), cdiv(n, 64), 1), (64, 64, 32)
    if name == "matmul_128":
        # tests/corpus/cutile/matmul_f16_f32acc, entry ..._I128_I128_I32.
        m, n, _ = dims
        return K.matmul_f16_f32acc, (cdiv(m, 128), cdiv(n, 128), 1), (128, 128, 32)
    if name in ("matmul_wide", "matmul_wide_ws"):
        # examples/matmul_wide.tile's algorithm and tiles, as cuTile writes it (tilec's
        # matmul_wide_ws is the same kernel warp-specialized).
        m, n, _ = dims
        return K.matmul_f16_f32acc, (cdiv(m, 128), cdiv(n, 128), 1), (128, 128, 128)
    if name == "matmul_bf16":
        # tests/corpus/cutile/matmul_bf16, entry ..._I64_I64_I64.
        m, n, _ = dims
        return K.matmul_bf16, (cdiv(m, 64), cdiv(n, 64), 1), (64, 64, 64)
    if name in ("persistent", "persistent_ws"):
        # tests/corpus/cutile/persistent_matmul, entry ..._I64_I64_I64: P tile blocks.
        p = dims[3]
        return K.persistent_matmul, (p, 1, 1), (64, 64, 64)
    if name in ("attention", "attention_ws"):
        # tests/corpus/cutile/flash_attention, entry ..._Sf32_I64_I64_I64.
        (s,) = dims
        return K.flash_attention, (cdiv(s, 64), 1, 1), (64, 64, HEAD_DIM)
    raise ValueError(name)


def signature(name):
    """The cuTile signature of the arrays and scalars the benchmark passes
    (contiguous, 16-byte aligned, i32 indices: what cuTile infers from fresh
    allocations of these sizes), without the constants."""
    import kernels as K
    a1, a2 = K.arr(K.f32, 1), K.arr(K.f32, 2)
    h2, b2 = K.arr(K.f16, 2), K.arr(K.bf16, 2)
    return {
        "vector_add": [a1, a1, a1],
        "vector_add_cluster": [a1, a1, a1],
        "matmul_cluster": [h2, h2, a2],
        "row_softmax": [a2, a2],
        "layernorm": [a2, a1, a1, a2, K.scalar(K.f32)],
        "transpose": [a2, a2],
        "matmul": [h2, h2, a2],
        "matmul_128": [h2, h2, a2],
        "matmul_wide": [h2, h2, a2],
        "matmul_wide_ws": [h2, h2, a2],
        "persistent": [h2, h2, a2],
        "persistent_ws": [h2, h2, a2],
        "matmul_bf16": [b2, b2, b2],
        "attention": [h2, h2, h2, h2, K.scalar(K.f32)],
        "attention_ws": [h2, h2, h2, h2, K.scalar(K.f32)],
    }[name]


def dry_run(benches, arch):
    from cuda.tile.compilation import export_kernel
    import kernels as K
    for name, dims in benches:
        shape = "x".join(map(str, dims))
        kernel, grid, consts = kernel_plan(name, dims)
        try:
            buf = io.BytesIO()
            export_kernel(kernel, [K.sig(*signature(name), *consts)], buf,
                          output_format="cubin", gpu_code=arch)
            emit(record="plan", bench=name, shape=shape, impl="cutile",
                 grid="x".join(map(str, grid)), cubin_bytes=len(buf.getvalue()))
        except Exception as e:  # noqa: BLE001 - reported, the run goes on
            emit(record="error", bench=name, shape=shape, impl="cutile",
                 message=f"{type(e).__name__}: {e}")


# --------------------------------------------------------------------------
# Arrays and events: torch, else CuPy
# --------------------------------------------------------------------------

class TorchLib:
    name = "torch"

    def __init__(self):
        import torch
        if not torch.cuda.is_available():
            raise RuntimeError("torch sees no CUDA device")
        self.torch = torch
        self.gen = torch.Generator(device="cuda")
        self.gen.manual_seed(1)

    def device_name(self):
        return self.torch.cuda.get_device_name(0)

    def dtype(self, s):
        return {"f16": self.torch.float16, "bf16": self.torch.bfloat16,
                "f32": self.torch.float32}[s]

    def randn(self, shape, dtype):
        return self.torch.randn(shape, generator=self.gen, device="cuda",
                                dtype=self.torch.float32).to(self.dtype(dtype))

    def empty(self, shape, dtype):
        return self.torch.empty(shape, device="cuda", dtype=self.dtype(dtype))

    def stream(self):
        return self.torch.cuda.current_stream()

    def event(self):
        return self.torch.cuda.Event(enable_timing=True)

    def record(self, ev):
        ev.record()

    def elapsed_ms(self, start, stop):
        return start.elapsed_time(stop)

    def sync(self):
        self.torch.cuda.synchronize()

    def host(self, x):
        return x.float().cpu().numpy()


class CupyLib:
    name = "cupy"

    def __init__(self):
        import cupy
        if cupy.cuda.runtime.getDeviceCount() < 1:
            raise RuntimeError("CuPy sees no CUDA device")
        self.cp = cupy
        self.rng = cupy.random.default_rng(1)

    def device_name(self):
        name = self.cp.cuda.runtime.getDeviceProperties(0)["name"]
        return name.decode() if isinstance(name, bytes) else str(name)

    def dtype(self, s):
        if s == "bf16":
            raise TypeError("CuPy has no bfloat16")
        return {"f16": self.cp.float16, "f32": self.cp.float32}[s]

    def randn(self, shape, dtype):
        return self.rng.standard_normal(shape, dtype=self.cp.float32).astype(self.dtype(dtype))

    def empty(self, shape, dtype):
        return self.cp.empty(shape, dtype=self.dtype(dtype))

    def stream(self):
        return self.cp.cuda.get_current_stream()

    def event(self):
        return self.cp.cuda.Event()

    def record(self, ev):
        ev.record(self.cp.cuda.get_current_stream())

    def elapsed_ms(self, start, stop):
        return self.cp.cuda.get_elapsed_time(start, stop)

    def sync(self):
        self.cp.cuda.runtime.deviceSynchronize()

    def host(self, x):
        return self.cp.asnumpy(x.astype(self.cp.float32))


def time_ms(lib, launch, warmup, reps):
    """Median milliseconds of `reps` launches, each between its own pair of events."""
    for _ in range(warmup):
        launch()
    lib.sync()
    start, stop = lib.event(), lib.event()
    times = []
    for _ in range(reps):
        lib.record(start)
        launch()
        lib.record(stop)
        stop.synchronize()
        times.append(lib.elapsed_ms(start, stop))
    return statistics.median(times)


# --------------------------------------------------------------------------
# Inputs, launches and checks
# --------------------------------------------------------------------------

def sample_rows(m):
    return sorted({0, m // 2, m - 1})


def check_close(what, got, want, rtol, atol):
    import numpy as np
    err = np.abs(got.astype(np.float64) - want)
    bad = ~(err <= atol + rtol * np.abs(want))
    if bad.any():
        i = np.unravel_index(int(np.argmax(bad)), bad.shape)
        raise AssertionError(f"{what}: {int(bad.sum())} of {bad.size} sampled elements wrong; "
                             f"first at {tuple(int(x) for x in i)}: got {got[i]!r}, want {want[i]!r}")


def setup(lib, name, dims):
    """(args, output, check) of one benchmark: the cuTile arguments without the
    constants, the output array, and a function that checks the output."""
    import numpy as np
    if name in ("vector_add", "vector_add_cluster"):
        (n,) = dims
        a, b, c = lib.randn((n,), "f32"), lib.randn((n,), "f32"), lib.empty((n,), "f32")

        def check():
            for lo in (0, max(0, n - 4096)):
                hi = min(n, lo + 4096)
                want = lib.host(a[lo:hi]) + lib.host(b[lo:hi])
                check_close(f"c[{lo}:{hi}]", lib.host(c[lo:hi]), want.astype(np.float64), 0, 0)
        return (a, b, c), check
    if name in ("row_softmax", "layernorm"):
        m, n = dims
        x, y = lib.randn((m, n), "f32"), lib.empty((m, n), "f32")
        if name == "row_softmax":
            def check():
                for r in sample_rows(m):
                    v = lib.host(x[r:r + 1]).astype(np.float64)
                    e = np.exp(v - v.max())
                    check_close(f"row {r}", lib.host(y[r:r + 1]), e / e.sum(), 1e-5, 1e-7)
            return (x, y), check
        w, b = lib.randn((n,), "f32"), lib.randn((n,), "f32")

        def check():
            hw, hb = lib.host(w).astype(np.float64), lib.host(b).astype(np.float64)
            for r in sample_rows(m):
                v = lib.host(x[r:r + 1]).astype(np.float64)
                d = v - v.mean()
                want = d / np.sqrt((d * d).mean() + EPS) * hw + hb
                check_close(f"row {r}", lib.host(y[r:r + 1]), want, 1e-4, 1e-4)
        return (x, w, b, y, EPS), check
    if name == "transpose":
        m, n = dims
        a, t = lib.randn((m, n), "f32"), lib.empty((n, m), "f32")

        def check():
            for r in sample_rows(n):
                want = lib.host(a[:, r:r + 1]).reshape(1, m).astype(np.float64)
                check_close(f"row {r}", lib.host(t[r:r + 1]), want, 0, 0)
        return (a, t), check
    if name in GEMMS:
        m, n, k = dims[:3]
        if name == "matmul_bf16":
            # C (bf16) = A @ B^T, B stored N x K; the f32 sum is rounded to bf16 (2^-8).
            a, b, c = lib.randn((m, k), "bf16"), lib.randn((n, k), "bf16"), lib.empty((m, n), "bf16")
            rel = 2.0 ** -8

            def host_b():
                return lib.host(b).astype(np.float64).T
        else:
            a, b, c = lib.randn((m, k), "f16"), lib.randn((k, n), "f16"), lib.empty((m, n), "f32")
            rel = 0.0

            def host_b():
                return lib.host(b).astype(np.float64)

        def check():
            hb = host_b()
            for r in sample_rows(m):
                ha = lib.host(a[r:r + 1]).astype(np.float64)
                want = ha @ hb
                scale = np.abs(ha) @ np.abs(hb)
                got = lib.host(c[r:r + 1])
                err = np.abs(got - want)
                bad = ~(err <= rel * np.abs(want) + 1e-3 * scale + 1e-6)
                if bad.any():
                    j = int(np.argmax(bad))
                    raise AssertionError(f"row {r}: {int(bad.sum())} of {n} elements wrong; "
                                         f"first at column {j}: got {got.flat[j]!r}, want {want.flat[j]!r}")
        return (a, b, c), check
    if name in ("attention", "attention_ws"):
        (s,) = dims
        q, k, v = (lib.randn((s, HEAD_DIM), "f16") for _ in range(3))
        out = lib.empty((s, HEAD_DIM), "f16")

        def check():
            hk, hv = lib.host(k).astype(np.float64), lib.host(v).astype(np.float64)
            for r in sample_rows(s):
                x = lib.host(q[r:r + 1]).astype(np.float64) @ hk.T * SCALE
                p = np.exp(x - x.max())
                want = (p / p.sum()) @ hv
                # P goes through f16 before its product and O is f16: a few f16 ulps.
                check_close(f"row {r}", lib.host(out[r:r + 1]), want, 2e-3, 1e-3)
        return (q, k, v, out, SCALE), check
    raise ValueError(name)


def run_cutile(ct, lib, name, dims, warmup, reps):
    kernel, grid, consts = kernel_plan(name, dims)
    args, check = setup(lib, name, dims)
    all_args = tuple(args) + tuple(consts)
    stream = lib.stream()

    def launch():
        ct.launch(stream, grid, kernel, all_args)
    launch()                      # compiles with tileiras on the first call
    lib.sync()
    check()
    return time_ms(lib, launch, warmup, reps), ""


def run_torch_matmul(torch_lib, name, dims, warmup, reps):
    """cuBLAS on the benchmark's shapes and dtypes: torch.mm f16 x f16 -> f32 for matmul
    and matmul_128; torch.mm(a, b.t()) bf16 -> bf16 for matmul_bf16 (B stored N x K)."""
    torch = torch_lib.torch
    m, n, k = dims[:3]
    if name == "matmul_bf16":
        a, b = torch_lib.randn((m, k), "bf16"), torch_lib.randn((n, k), "bf16")
        bt = b.t()

        def launch():
            torch.mm(a, bt)
        launch()
        torch_lib.sync()
        return time_ms(torch_lib, launch, warmup, reps), "torch.mm(a, b.t()) bf16 x bf16 -> bf16"
    a, b = torch_lib.randn((m, k), "f16"), torch_lib.randn((k, n), "f16")
    try:
        torch.mm(a, b, out_dtype=torch.float32)

        def launch():
            torch.mm(a, b, out_dtype=torch.float32)
        note = "torch.mm f16 x f16 -> f32"
    except TypeError:
        # torch before out_dtype: cuBLAS with f32 accumulation, but an f16 result.
        def launch():
            torch.matmul(a, b)
        note = "torch.matmul f16 x f16 -> f16 (this torch has no out_dtype)"
    launch()
    torch_lib.sync()
    return time_ms(torch_lib, launch, warmup, reps), note


def run_torch_attention(torch_lib, dims, warmup, reps):
    """torch's fused attention (FlashAttention or cuDNN, as torch picks) on one head of
    the benchmark's shape: (1, 1, S, 64) f16, scale 1/8."""
    torch = torch_lib.torch
    (s,) = dims
    q, k, v = (torch_lib.randn((1, 1, s, HEAD_DIM), "f16") for _ in range(3))
    sdpa = torch.nn.functional.scaled_dot_product_attention

    def launch():
        sdpa(q, k, v, scale=SCALE)
    launch()
    torch_lib.sync()
    return time_ms(torch_lib, launch, warmup, reps), "scaled_dot_product_attention f16, (1, 1, S, 64)"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bench", action="append", default=[],
                    help="NAME:SHAPE, repeatable (default: the gpu-bench plan)")
    ap.add_argument("--reps", type=int, default=100)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--arch", default="sm_90", help="--dry-run: the target of the offline compile")
    ap.add_argument("--dry-run", action="store_true")
    args = ap.parse_args()
    try:
        benches = [parse_bench(b) for b in (args.bench or DEFAULT_BENCHES)]
    except ValueError as e:
        log(str(e))
        return 2
    if args.reps < 1 or args.warmup < 0:
        log("--reps must be at least 1 and --warmup at least 0")
        return 2
    try:
        import cuda.tile as ct
    except Exception as e:  # noqa: BLE001
        log(f"cannot import cuda.tile ({e}); pip install cuda-tile")
        return 2
    cutile_version = getattr(ct, "__version__", None)
    if args.dry_run:
        dry_run(benches, args.arch)
        emit(record="done")
        return 0

    torch_lib, lib, why = None, None, []
    try:
        torch_lib = TorchLib()
        lib = torch_lib
    except ImportError:
        why.append("torch not installed")
    except Exception as e:  # noqa: BLE001
        why.append(f"torch: {e}")
    if lib is None:
        try:
            lib = CupyLib()
        except ImportError:
            why.append("cupy not installed")
        except Exception as e:  # noqa: BLE001
            why.append(f"cupy: {e}")

    def version(mod):
        try:
            return __import__(mod).__version__
        except Exception:  # noqa: BLE001
            return None
    emit(record="device", name=lib.device_name() if lib else None,
         torch=version("torch") if torch_lib else None,
         cupy=version("cupy") if lib is not None and lib.name == "cupy" else None,
         cutile=cutile_version)

    for name, dims in benches:
        shape = "x".join(map(str, dims))
        attention = name in ("attention", "attention_ws")
        impls = ["cutile"] + (["torch"] if name in GEMMS or attention else [])
        for impl in impls:
            if impl == "cutile" and lib is None:
                emit(record="skip", bench=name, shape=shape, impl=impl, reason="; ".join(why))
                continue
            if impl == "cutile" and lib.name == "cupy" and name == "matmul_bf16":
                emit(record="skip", bench=name, shape=shape, impl=impl,
                     reason="CuPy has no bfloat16 (torch: " + "; ".join(why) + ")")
                continue
            if impl == "torch" and torch_lib is None:
                emit(record="skip", bench=name, shape=shape, impl=impl,
                     reason=why[0] if why else "torch not installed")
                continue
            log(f"{name} {shape} ({impl})")
            try:
                if impl == "cutile":
                    ms, note = run_cutile(ct, lib, name, dims, args.warmup, args.reps)
                elif attention:
                    ms, note = run_torch_attention(torch_lib, dims, args.warmup, args.reps)
                else:
                    ms, note = run_torch_matmul(torch_lib, name, dims, args.warmup, args.reps)
                emit(record="result", bench=name, shape=shape, impl=impl, median_ms=ms,
                     runs=args.reps, note=note)
            except Exception as e:  # noqa: BLE001 - reported, the run goes on
                emit(record="error", bench=name, shape=shape, impl=impl,
                     message=f"{type(e).__name__}: {e}")
            finally:
                if lib is not None:
                    lib.sync()
                if torch_lib is not None:
                    torch_lib.torch.cuda.empty_cache()
    emit(record="done")
    return 0


if __name__ == "__main__":
    sys.exit(main())

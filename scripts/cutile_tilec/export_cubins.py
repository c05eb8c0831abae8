#!/usr/bin/env python3
"""Compile every kernel of scripts/cutile_corpus through cuTile Python to cubins, with
tilec as cuTile's compiler (tilec run as `tileiras`), offline.

cuTile runs NVIDIA's tileiras from the nvidia-cuda-tileiras pip package when that is
installed, else the first `tileiras` on PATH. This script puts SHIM_DIR (holding a
`tileiras` link to tilec, `tilec install-tileiras-shim SHIM_DIR`) first on PATH and,
with --hide-pip-tileiras, makes cuTile look past NVIDIA's package as if it were not
installed. It prints one JSON line per (kernel, architecture) and a summary line:

    {"kernel": "vector_add", "arch": "sm_90", "ok": true, "bytes": 6184, "error": null,
     "symbols": ["vector_add_Kt1_..."], "registers": 30, "local_bytes": 0}
    {"summary": {"ok": 42, "failed": 0, "symbols_checked": 42, "bytecode_version": "13.3"}}

With cuobjdump (PATH, or the nvidia-cuda-cuobjdump wheel; --cuobjdump PATH), each cubin
must hold exactly the kernels of the bytecode cuTile writes for it (the names cuTile's
launcher looks up; read back by tilec) and none may use local memory (spills); a cubin
that does not is a failure.

Kernels tilec's PTX backend does not lower yet are named with --expect-refused
NAME=TEXT (the Rust test passes tilec_tests::PTX_REFUSED_CORPUS): such a kernel must fail
with TEXT in the compiler's message and is reported as ``"refused_as_expected": true``
(counted apart in the summary, not as a failure); if it compiles, that is a failure (the
list must shrink). Kernels cuTile itself takes only from some architecture on
(CUTILE_MIN_ARCH) must be refused by cuTile below it ("arch_unsupported_as_expected").

Usage: export_cubins.py SHIM_DIR [--arch sm_80 --arch sm_90 ...] [--hide-pip-tileiras]
                        [--expect-refused NAME=TEXT ...]
"""

import argparse
import io
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# Corpus kernels cuTile itself refuses below an architecture (the MX types of mma_scaled
# are Blackwell's, float8_e4m3fn Ada's and Hopper's): below it cuTile must raise UnsupportedFeatureError "... is not
# supported on ARCH" (reported as "arch_unsupported_as_expected", counted apart).
CUTILE_MIN_ARCH = {"mma_scaled_f8": 100, "mma_scaled_f4": 100, "matmul_fp8": 89}
REPO = os.path.dirname(os.path.dirname(HERE))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("shim_dir")
    ap.add_argument("--arch", action="append", default=[])
    ap.add_argument("--hide-pip-tileiras", action="store_true")
    ap.add_argument("--expect-refused", action="append", default=[], metavar="NAME=TEXT")
    ap.add_argument("--cuobjdump", default=None,
                    help="cuobjdump, to check each cubin's kernel symbols and spills "
                         "(default: PATH, then the nvidia-cuda-cuobjdump wheel)")
    args = ap.parse_args()
    expect_refused = dict(e.split("=", 1) for e in args.expect_refused)
    archs = args.arch or ["sm_80", "sm_90", "sm_100"]
    os.environ["PATH"] = os.path.abspath(args.shim_dir) + os.pathsep + os.environ.get("PATH", "")

    import cuda.tile._compile as cc
    if args.hide_pip_tileiras:
        cc._find_pip_tileiras = lambda: None
    from cuda.tile.compilation import export_kernel

    sys.path.insert(0, os.path.join(REPO, "scripts", "cutile_corpus"))
    import regen  # noqa: E402  (the corpus loader)
    corpus = regen.load_corpus()

    version = cc._get_max_supported_bytecode_version(
        os.environ.get("TMPDIR", "/tmp"))
    cuobjdump = args.cuobjdump or find_cuobjdump()
    tilec = os.path.realpath(os.path.join(args.shim_dir, "tileiras"))
    checked = 0
    ok = failed = refused = arch_refused = 0
    unknown = sorted(set(expect_refused) - set(corpus))
    if unknown:
        print(json.dumps({"error": f"--expect-refused names no corpus kernel: {unknown}"}))
        failed += 1
    for name, (kernel, signatures) in corpus.items():
        for arch in archs:
            buf = io.BytesIO()
            error = None
            try:
                export_kernel(kernel, signatures, buf, output_format="cubin", gpu_code=arch)
            except Exception as e:  # noqa: BLE001 (every failure is reported)
                error = f"{type(e).__name__}: {error_text(e)}"
            data = buf.getvalue()
            good = error is None and data[:4] == b"\x7fELF"
            line = {"kernel": name, "arch": arch, "ok": good, "bytes": len(data), "error": error}
            if good and cuobjdump:
                # The cubin holds exactly the kernels of the bytecode cuTile wrote (the
                # names its launcher looks up), none of them with local memory (spills).
                problem = check_symbols(cuobjdump, tilec, export_kernel, kernel, signatures,
                                        arch, data, line)
                checked += 1
                if problem:
                    good = False
                    line["ok"] = False
                    line["error"] = problem
            if int(re.sub(r"\D", "", arch)) < CUTILE_MIN_ARCH.get(name, 0):
                as_expected = (not good and error.startswith("UnsupportedFeatureError: ")
                               and f"is not supported on {arch}" in error)
                line["arch_unsupported_as_expected"] = as_expected
                arch_refused += as_expected
                failed += not as_expected
            elif name in expect_refused:
                as_expected = not good and expect_refused[name] in (error or "")
                line["refused_as_expected"] = as_expected
                if good:
                    line["error"] = ("compiles now: remove it from "
                                     "tilec_tests::PTX_REFUSED_CORPUS")
                refused += as_expected
                failed += not as_expected
            else:
                ok += good
                failed += not good
            print(json.dumps(line))
    # A kernel tilec refuses (a 512x512 product: more than a tile block's registers): the
    # error must reach cuTile's exception with the kernel's Python file and line.
    rejected = rejected_kernel(export_kernel, regen)
    print(json.dumps({"rejected": rejected}))
    print(json.dumps({"summary": {"ok": ok, "failed": failed, "refused_as_expected": refused,
                                  "arch_unsupported_as_expected": arch_refused,
                                  "symbols_checked": checked if cuobjdump else "SKIPPED",
                                  "bytecode_version": getattr(version, "name", str(version))}}))
    return 0 if failed == 0 else 1


def find_cuobjdump():
    """cuobjdump on PATH, else in an nvidia/cu13/bin folder of this Python's packages."""
    import shutil
    import site
    found = shutil.which("cuobjdump")
    if found:
        return found
    for d in site.getsitepackages() + [site.getusersitepackages()] + sys.path:
        p = os.path.join(d, "nvidia", "cu13", "bin", "cuobjdump")
        if os.path.isfile(p):
            return p
    return None


def check_symbols(cuobjdump, tilec, export_kernel, kernel, signatures, arch, cubin, line):
    """Compares the cubin's functions (`cuobjdump -res-usage`) with the entries of the
    bytecode cuTile writes for the same kernel (read by tilec); records both in `line`.
    Returns a problem's text, or None."""
    import subprocess
    import tempfile
    bc = io.BytesIO()
    export_kernel(kernel, signatures, bc, output_format="tileir_bytecode", gpu_code=arch)
    with tempfile.TemporaryDirectory() as d:
        bc_path = os.path.join(d, "k.tileirbc")
        cubin_path = os.path.join(d, "k.cubin")
        with open(bc_path, "wb") as f:
            f.write(bc.getvalue())
        with open(cubin_path, "wb") as f:
            f.write(cubin)
        text = subprocess.run([tilec, "opt", bc_path], capture_output=True, text=True)
        usage = subprocess.run([cuobjdump, "-res-usage", cubin_path], capture_output=True,
                               text=True)
    if text.returncode != 0 or usage.returncode != 0:
        return f"cannot list symbols: {text.stderr.strip()} {usage.stderr.strip()}"
    expected = sorted(re.findall(r"entry @([A-Za-z0-9_$.]+)", text.stdout))
    functions = re.findall(r"Function ([^:\s]+):\s*\n\s*REG:(\d+).*?LOCAL:(\d+)", usage.stdout)
    line["symbols"] = sorted(f for f, _, _ in functions)
    line["registers"] = max((int(r) for _, r, _ in functions), default=0)
    line["local_bytes"] = sum(int(loc) for _, _, loc in functions)
    if line["symbols"] != expected:
        return f"the cubin's kernels {line['symbols']} are not the bytecode's {expected}"
    if line["local_bytes"]:
        return f"{line['local_bytes']} bytes of local memory (spills)"
    return None


def error_text(e):
    """An exception's text: cuTile's str() of a compiler error fails when the location it
    is given names no function (tilec's message then points at a byte offset), so take
    its message then."""
    try:
        return str(e)
    except Exception:  # noqa: BLE001
        return str(getattr(e, "message", "") or repr(e))


def rejected_kernel(export_kernel, regen):
    import cuda.tile as ct
    import kernels

    @ct.kernel
    def too_big(a, c, T: ct.Constant[int]):
        x = ct.load(a, index=(0, 0), shape=(T, T))
        acc = ct.zeros((T, T), ct.float32)
        acc = ct.mma(x, x, acc)  # the line tilec points at
        ct.store(c, index=(0, 0), tile=acc)

    line = too_big._annotated_function.pyfunc.__code__.co_firstlineno + 4
    sig = kernels.sig(kernels.arr(kernels.f16, 2), kernels.arr(kernels.f32, 2), 512)
    try:
        export_kernel(too_big, [sig], io.BytesIO(), output_format="cubin", gpu_code="sm_90")
    except Exception as e:  # noqa: BLE001
        loc = getattr(e, "loc", None)
        message = str(getattr(e, "message", "") or "")
        # cuTile's message: "Return code N", then the compiler's own message.
        lines = message.splitlines()
        return {"error": type(e).__name__, "message": lines[-1][:300] if lines else "",
                "file": os.path.basename(getattr(loc, "filename", "") or ""),
                "line": getattr(loc, "line", None), "expected_line": line}
    return {"error": None}


if __name__ == "__main__":
    sys.exit(main())

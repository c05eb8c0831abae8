#!/usr/bin/env python3
"""Regenerate tests/corpus/cutile/ from the cuTile kernels in kernels.py.

For every corpus entry in ``kernels.CORPUS`` this exports the kernel offline (no GPU
needed) to Tile IR bytecode 13.3, writes ``NAME.tileirbc``, disassembles it with
NVIDIA's ``tileirdisasm`` to ``NAME.mlir``, and finally rewrites ``README.md`` with
the tool versions and the kernel list.  Output is deterministic and overwritten;
stale ``*.mlir``/``*.tileirbc`` files in the output folder are removed.

Usage (from the repository root):

    /work/venv/bin/python scripts/cutile_corpus/regen.py [--venv DIR | --tools-dir DIR]
                                                          [--out DIR] [--only NAME ...]

The interpreter running this script must have ``cuda-tile`` installed.  The
``tileirdisasm`` tool is looked up, in order: ``--tools-dir DIR``; ``--venv DIR``
(``DIR/lib/python3*/site-packages/nvidia/cu13/bin``); the ``nvidia/cu13/bin`` folder
of the ``nvidia-cuda-tileiras`` package installed next to the running interpreter;
finally ``PATH``.
"""

import argparse
import glob
import io
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DEFAULT_OUT = os.path.join(REPO, "tests", "corpus", "cutile")
BYTECODE_VERSION = "13.3"


def find_tools_dir(args):
    if args.tools_dir:
        return args.tools_dir
    if args.venv:
        hits = sorted(glob.glob(os.path.join(args.venv, "lib", "python3*", "site-packages",
                                             "nvidia", "cu13", "bin")))
        if not hits:
            sys.exit(f"regen.py: no nvidia/cu13/bin under {args.venv}")
        return hits[-1]
    try:
        import nvidia  # namespace package from the nvidia-* wheels
        for base in nvidia.__path__:
            cand = os.path.join(base, "cu13", "bin")
            if os.path.exists(os.path.join(cand, "tileirdisasm")):
                return cand
    except ImportError:
        pass
    found = shutil.which("tileirdisasm")
    if found:
        return os.path.dirname(found)
    sys.exit("regen.py: cannot find tileirdisasm (install nvidia-cuda-tileiras or pass --tools-dir)")


def tool_version(path):
    out = subprocess.run([path, "--version"], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if "release" in line:
            return line.strip()
    return out.strip().splitlines()[-1] if out.strip() else "unknown"


def export(kernel, signatures):
    from cuda.tile.compilation import export_kernel
    buf = io.BytesIO()
    export_kernel(kernel, signatures, buf, output_format="tileir_bytecode",
                  bytecode_version=BYTECODE_VERSION)
    return buf.getvalue()


def write_if_changed(path, data):
    mode = "wb" if isinstance(data, bytes) else "w"
    old = None
    if os.path.exists(path):
        with open(path, "rb" if mode == "wb" else "r") as f:
            old = f.read()
    if old != data:
        with open(path, mode) as f:
            f.write(data)
        return True
    return False


def first_line_comment(kernel):
    """The kernel's leading comment lines (what it computes), joined."""
    import inspect
    src = inspect.getsource(kernel._annotated_function.pyfunc)
    lines = []
    for line in src.splitlines()[2:]:  # skip decorator and def
        s = line.strip()
        if s.startswith("#"):
            lines.append(s.lstrip("#").strip())
        elif lines or s:
            break
    return " ".join(lines)


def load_corpus():
    """Import kernels.py under its repository-relative path.

    The bytecode carries debug info naming the Python source file; importing the
    module as ``scripts/cutile_corpus/kernels.py`` (with the repository root as the
    working directory) keeps that name, and so the output, independent of where
    the checkout lives.
    """
    import types
    os.chdir(REPO)
    rel = os.path.relpath(os.path.join(HERE, "kernels.py"), REPO)
    with open(rel) as f:
        code = compile(f.read(), rel, "exec")  # co_filename stays relative
    mod = types.ModuleType("cutile_corpus_kernels")
    mod.__file__ = rel
    sys.modules[mod.__name__] = mod
    exec(code, mod.__dict__)
    return mod.CORPUS


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--venv", help="virtual environment holding nvidia-cuda-tileiras")
    ap.add_argument("--tools-dir", help="folder holding tileirdisasm (overrides --venv)")
    ap.add_argument("--out", default=DEFAULT_OUT, help="output folder (default: %(default)s)")
    ap.add_argument("--only", nargs="*", help="regenerate only these corpus names")
    args = ap.parse_args()
    args.out = os.path.abspath(args.out)
    if args.venv:
        args.venv = os.path.abspath(args.venv)
    if args.tools_dir:
        args.tools_dir = os.path.abspath(args.tools_dir)

    import cuda.tile
    CORPUS = load_corpus()

    tools = find_tools_dir(args)
    disasm = os.path.join(tools, "tileirdisasm")
    if not os.path.exists(disasm):
        sys.exit(f"regen.py: {disasm} not found")
    os.makedirs(args.out, exist_ok=True)

    names = args.only or list(CORPUS)
    for name in names:
        if name not in CORPUS:
            sys.exit(f"regen.py: unknown corpus name {name!r}")

    for name in names:
        kernel, sigs = CORPUS[name]
        bc = export(kernel, sigs)
        bc_path = os.path.join(args.out, name + ".tileirbc")
        write_if_changed(bc_path, bc)
        res = subprocess.run([disasm, bc_path], capture_output=True, text=True)
        if res.returncode != 0:
            sys.exit(f"regen.py: tileirdisasm failed on {bc_path}:\n{res.stderr}")
        write_if_changed(os.path.join(args.out, name + ".mlir"), res.stdout)
        print(f"{name}: {len(sigs)} signature(s), {len(bc)} bytes of bytecode")

    if not args.only:
        keep = {n + ext for n in CORPUS for ext in (".mlir", ".tileirbc")}
        for f in sorted(os.listdir(args.out)):
            if f.endswith((".mlir", ".tileirbc")) and f not in keep:
                os.remove(os.path.join(args.out, f))
                print(f"removed stale {f}")
        write_if_changed(os.path.join(args.out, "README.md"),
                         readme(CORPUS, cuda.tile.__version__, tool_version(disasm)))


def readme(corpus, cutile_version, disasm_version):
    rows = []
    for name, (kernel, sigs) in corpus.items():
        rows.append(f"| `{name}` | {len(sigs)} | {first_line_comment(kernel)} |")
    table = "\n".join(rows)
    return f"""# cuTile Python kernels as Tile IR (generated; do not edit)

Real Tile IR produced by NVIDIA's tools from the cuTile Python kernels in
`scripts/cutile_corpus/kernels.py` (written for tilec; each kernel's comment says what it computes).

- Exported with cuda-tile {cutile_version}:
  `cuda.tile.compilation.export_kernel(kernel, signatures, f, output_format="tileir_bytecode",
  bytecode_version="{BYTECODE_VERSION}")`, calling convention `cutile_python_v1`, one `entry`
  per signature (arguments as `ArrayConstraint`/`ScalarConstraint`, tile sizes as constants).
- `NAME.tileirbc` is that bytecode; `NAME.mlir` is `tileirdisasm NAME.tileirbc`
  (nvidia-cuda-tileiras, `{disasm_version}`).
- Regenerate (deterministic, overwrites, removes stale files):

      /work/venv/bin/python scripts/cutile_corpus/regen.py            # tools found next to the interpreter
      python scripts/cutile_corpus/regen.py --venv /path/to/venv       # or --tools-dir DIR with tileirdisasm

  Needs `pip install cuda-tile nvidia-cuda-tileiras` (no GPU).
- The bytecode carries debug info (locations in `scripts/cutile_corpus/kernels.py`, kept
  repository-relative so the output does not depend on the checkout path); `tileirdisasm -g`
  prints it as `loc(...)`.  The `.mlir` files are printed without it.
- Compile a file to a cubin: `tileiras --gpu-name=sm_90 -o NAME.cubin NAME.tileirbc`.  tileiras
  runs the `ptxas` next to itself (wheel `nvidia-cuda-nvcc`) and loads `../lib/libnvvm.so.4`
  (wheel `nvidia-nvvm`); for `sm_90` it targets `sm_90a`.  It has no option to emit PTX.

| file | entries | what the kernel computes |
|---|---|---|
{table}
"""


if __name__ == "__main__":
    main()

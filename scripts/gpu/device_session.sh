#!/usr/bin/env bash
# One GPU session in one call (docs/performance.md, "GPU kernels"): run on a lent GPU
# machine that has no Rust toolchain and no network. Expects, under .gpu/ in the repo root
# (ignored by git, carried with the call):
#   .gpu/bin/tilec, .gpu/bin/xtask   release binaries built here (stripped)
#   .gpu/shared/                     a copy of ../shared (conformance data), optional
#   .gpu/tileiras.xz, .gpu/ptxas.xz, .gpu2/libnvvm.xz
#                                    NVIDIA's tileiras (nvidia-cuda-tileiras) with the ptxas
#                                    (nvidia-cuda-nvcc) and libnvvm (nvidia-nvvm) of the same
#                                    release, which it needs; optional (the gpu-bench reference)
#   .gpu/cuda_tile-*.whl             cuTile Python, optional
# Writes its reports under $OUT (at most 8 files come back).
# Steps to run are the arguments (default: all): env test random test90a testcluster testfm
# bench examples (testcluster: every tile block over a cluster of 2 CTAs at sm_90a, of 4 at
# sm_90, docs/hopper.md "Clusters");
# also cutile (cuTile's test suite through tilec), cutileref (the same suite through NVIDIA's
# tileiras, for scripts/gpu/compare_junit.py's side-by-side table), cutilebench and
# cutilebenchref (cuTile's benchmarks both ways, for scripts/gpu/compare_bench.py; they need
# pytest-benchmark) and probe. CUTILE_TIMEOUT
# (seconds, default 225) bounds each suite run; a whole run takes about 8 minutes.
set -u
OUT=${OUT:-/tmp/gpu-out}; mkdir -p "$OUT"
R=$PWD
# The binaries were built in /work/main (xtask and the tests crate find the repository
# through their compile-time manifest directory).
if [ "$R" != /work/main ]; then mkdir -p /work; [ -e /work/main ] || ln -s "$R" /work/main; fi
[ -d .gpu/shared/conformance ] && export TILEC_SHARED_DIR=$R/.gpu/shared
# NVIDIA's tools in the layout tileiras expects: bin/{tileiras,ptxas}, lib/libnvvm.so.4
# (it runs the ptxas and loads the libnvvm of its own release, found beside it). They
# may come in two calls (the carry limit): what an earlier call on the same machine
# unpacked under /tmp stays.
mkdir -p /tmp/gpubin /tmp/cu/bin /tmp/cu/lib
unpack() { # archive destination
    if [ -f "$1" ] && [ ! -s "$2" ]; then xz -d -T0 -c "$1" > "$2.part" && mv "$2.part" "$2" && chmod +x "$2"; fi
}
unpack .gpu/tileiras.xz /tmp/cu/bin/tileiras
unpack .gpu/ptxas.xz /tmp/cu/bin/ptxas
unpack .gpu2/libnvvm.xz /tmp/cu/lib/libnvvm.so.4
[ -f .gpu/bin/tilec ] && cp .gpu/bin/tilec /tmp/gpubin/tilec
[ -f .gpu/bin/xtask ] && cp .gpu/bin/xtask /tmp/gpubin/xtask
export PATH=/tmp/gpubin:/tmp/cu/bin:$PATH:/usr/local/cuda/bin
if ls .gpu/cuda_tile-*.whl >/dev/null 2>&1 && [ ! -d /tmp/pylib/cuda ]; then
    python3 -m pip install --quiet --no-deps --no-index --target /tmp/pylib .gpu/cuda_tile-*.whl >/dev/null 2>&1
fi
export PYTHONPATH=/tmp/pylib${PYTHONPATH:+:$PYTHONPATH}
export TILEC_PYTHON=python3
steps=${*:-env test random test90a testcluster testfm bench examples}
X=/tmp/gpubin/xtask
for s in $steps; do
  start=$(date +%s)
  case $s in
    env) { nvidia-smi; nvidia-smi -L; python3 -c "import torch; print('torch', torch.__version__, torch.version.cuda)";
           python3 -c "import cuda.tile as ct; print('cuda.tile', ct.__version__)"; tileiras --version | tail -2; ptxas --version | tail -1;
           env | grep -i -E "cuda|nvvm|ld_library" ;
           [ -s /tmp/cu/lib/libnvvm.so.4 ] && { LD_DEBUG=libs tileiras --gpu-name sm_90 -o /tmp/probe.cubin tests/corpus/cutile/vector_add.tileirbc 2>&1 | grep -i -E "nvvm|error|ptxas" | head -20; ls -la /tmp/probe.cubin; };
           git -C "$R" log -1 --oneline 2>/dev/null; } > "$OUT/env.txt" 2>&1 ;;
    test) timeout 200 $X gpu-test > "$OUT/gpu-test.md" 2>&1; echo "exit $?" >> "$OUT/gpu-test.md" ;;
    probe) [ -f .gpu/probe/nan.tile ] && timeout 60 /tmp/gpubin/tilec run .gpu/probe/nan.tile --device --grid 1 --arg @.gpu/probe/a.npy --arg @.gpu/probe/b.npy $(for k in 0 1 2 3 4 5 6; do echo --arg zeros:i64:8; done) > "$OUT/probe.md" 2>&1; echo "exit $?" >> "$OUT/probe.md" ;;
    cutile) # cuTile Python's own tests (.gpu/cutile-test: NVIDIA/cutile-python's test/, fetched as
            # data) with tilec as cuTile's tileiras (a link on PATH; no NVIDIA tileiras installed)
            mkdir -p /tmp/shimdir; ln -sf /tmp/gpubin/tilec /tmp/shimdir/tileiras; ln -sf /tmp/cu/bin/ptxas /tmp/shimdir/ptxas
            (cd .gpu/cutile-test/test && env -u CUDA_HOME PATH=/tmp/shimdir:$PATH timeout "${CUTILE_TIMEOUT:-225}" python3 -m pytest -q -p no:cacheprovider --tb=line -rfE --junitxml="$OUT/cutile-junit.xml" . > "$OUT/cutile-tests.md" 2>&1; echo "exit $?" >> "$OUT/cutile-tests.md") ;;
    cutilebench|cutilebenchref) # cuTile's own benchmarks (test/bench_*.py, pytest-benchmark), through
            # tilec (cutilebench) or NVIDIA's tileiras (cutilebenchref); compare the two JSON
            # reports with scripts/gpu/compare_bench.py
            mkdir -p /tmp/shimdir /tmp/refdir; ln -sf /tmp/gpubin/tilec /tmp/shimdir/tileiras; ln -sf /tmp/cu/bin/ptxas /tmp/shimdir/ptxas
            ln -sf /tmp/cu/bin/tileiras /tmp/refdir/tileiras; ln -sf /tmp/cu/bin/ptxas /tmp/refdir/ptxas
            if [ "$s" = cutilebench ]; then dir=/tmp/shimdir; tag=cutile-bench; else dir=/tmp/refdir; tag=cutile-bench-ref; fi
            (cd .gpu/cutile-test/test && env -u CUDA_HOME -u CUDA_PATH PATH=$dir:$PATH timeout "${CUTILE_TIMEOUT:-225}" python3 -m pytest -q -p no:cacheprovider -o "python_files=bench_*.py" -o "python_functions=bench_*" --benchmark-json="$OUT/$tag.json" bench_*.py > "$OUT/$tag.md" 2>&1; echo "exit $?" >> "$OUT/$tag.md") ;;
    cutileref) # the same suite with NVIDIA's tileiras (and its ptxas and libnvvm) as the compiler
            mkdir -p /tmp/refdir; ln -sf /tmp/cu/bin/tileiras /tmp/refdir/tileiras; ln -sf /tmp/cu/bin/ptxas /tmp/refdir/ptxas
            (cd .gpu/cutile-test/test && env -u CUDA_HOME -u CUDA_PATH PATH=/tmp/refdir:$PATH timeout "${CUTILE_TIMEOUT:-225}" python3 -m pytest -q -p no:cacheprovider --tb=line -rfE --junitxml="$OUT/cutile-ref-junit.xml" . > "$OUT/cutile-ref-tests.md" 2>&1; echo "exit $?" >> "$OUT/cutile-ref-tests.md") ;;
    random) timeout 200 $X gpu-test --only random --random 2000 --seed 1000 > "$OUT/gpu-test-random.md" 2>&1; echo "exit $?" >> "$OUT/gpu-test-random.md" ;;
    test90a) # then warp-specialized (--warp-specialize), appended to the same report
             timeout 150 $X gpu-test --arch sm_90a > "$OUT/gpu-test-sm90a.md" 2>&1; echo "exit $?" >> "$OUT/gpu-test-sm90a.md"
             timeout 150 $X gpu-test --arch sm_90a --warp-specialize >> "$OUT/gpu-test-sm90a.md" 2>&1; echo "exit (warp-specialized) $?" >> "$OUT/gpu-test-sm90a.md" ;;
    testcluster) # appended to the sm_90a report (at most 8 files come back)
             timeout 150 $X gpu-test --arch sm_90a --num-ctas 2 >> "$OUT/gpu-test-sm90a.md" 2>&1; echo "exit (2 CTAs) $?" >> "$OUT/gpu-test-sm90a.md"
             timeout 150 $X gpu-test --arch sm_90 --num-ctas 4 >> "$OUT/gpu-test-sm90a.md" 2>&1; echo "exit (sm_90, 4 CTAs) $?" >> "$OUT/gpu-test-sm90a.md" ;;
    testfm) timeout 100 $X gpu-test --fast-math --only example > "$OUT/gpu-test-fastmath.md" 2>&1; echo "exit $?" >> "$OUT/gpu-test-fastmath.md" ;;
    bench) env -u CUDA_HOME -u CUDA_PATH timeout 200 $X gpu-bench --json "$OUT/gpu-bench.json" > "$OUT/gpu-bench.md" 2>&1; echo "exit $?" >> "$OUT/gpu-bench.md" ;;
    examples) timeout 150 python3 scripts/gpu/run_examples.py --tilec /tmp/gpubin/tilec --arch sm_90 > "$OUT/run-examples.md" 2>&1; echo "exit $?" >> "$OUT/run-examples.md" ;;
    *) echo "unknown step $s" ;;
  esac
  echo "step $s: $(( $(date +%s) - start )) s"
done
for f in "$OUT"/*.md; do echo "== $f"; tail -n 25 "$f"; done

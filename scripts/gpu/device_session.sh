#!/usr/bin/env bash
# One GPU session in one call (docs/gpu-harness.md, "A GPU session in 15 minutes"): runs on
# a lent GPU machine that has no Rust toolchain and no network, from what
# scripts/gpu/pack.sh put under .gpu/ and .gpu2/ here (ignored by git, carried with the call):
#   .gpu/bin/{tilec,xtask}.xz   release binaries built here (stripped)
#   .gpu/ptxas.xz               ptxas 13.5 (nvidia-cuda-nvcc)
#   .gpu/shared/                a copy of ../shared (conformance data), optional
#   .gpu/cuda_tile-*.whl        cuTile Python, optional
#   .gpu/cutile-test/test/      NVIDIA/cutile-python's test suite, fetched as data, optional
#   .gpu2/{tileiras,libnvvm}.xz NVIDIA's tileiras and the libnvvm of its release: the
#                               reference (gpu-bench's cuTile column, `cutileref`), optional
# .gpu2 goes in a call of its own (`device_session.sh unpack`): what is unpacked under /tmp
# stays while the machine is warm.
#
# Steps are the arguments, in the order given (default: all but the cuTile benchmarks, most
# important first): env test test90a testcluster structured bench cutile cutileref examples random testfm
#   env          device, driver, tools, and a tileiras probe
#   test         cargo xtask gpu-test (sm_90)
#   test90a      gpu-test --arch sm_90a, then again --warp-specialize
#   testcluster  gpu-test with every tile block over a cluster: 2 CTAs at sm_90a, 4 at sm_90
#   structured   500 structured random kernels at sm_90a (big tiles: wgmma, TMA, pipelines)
#   bench        cargo xtask gpu-bench (tilec, tileiras's build of the same cuTile kernel, cuBLAS)
#   cutile       cuTile Python's test suite with tilec as its tileiras
#   cutileref    the same suite with NVIDIA's tileiras (compare: scripts/gpu/compare_junit.py)
#   cutilebench, cutilebenchref
#                cuTile's benchmarks both ways (scripts/gpu/compare_bench.py)
#   examples     scripts/gpu/run_examples.py (every example against NumPy, CuPy)
#   random       2,000 more random kernels
#   testfm       gpu-test --fast-math --only example
#   probe        .gpu/probe/nan.tile, if there is one
#   unpack       nothing more than unpacking (implied by every call)
#
# A kernel that hangs on the device is stopped by gpu-test's watchdog
# (TILEC_GPU_LAUNCH_TIMEOUT seconds, default here 20), reported as HANG, and the sweep goes
# on in a new process from the case after it.
# DEADLINE (seconds from the start, default 500) bounds the whole run: each step's timeout
# is cut to what is left, and a step with under 30 s left is skipped and listed, so the
# reports come back inside the device tool's 600 s limit. CUTILE_WORKERS (default 12)
# spreads cuTile's suite over pytest-xdist workers when xdist is installed (compiling is the
# suite's cost, and the machine has 16 cores).
#
# Every report is written under /tmp/gpu-reports and, after each step, packed into
# $OUT/reports.tgz (at most 8 files come back from a call); the last lines printed are each
# report's tail.
set -u
T0=$(date +%s)
DEADLINE=${DEADLINE:-500}
OUT=${OUT:-/tmp/gpu-out}; mkdir -p "$OUT"
W=/tmp/gpu-reports; mkdir -p "$W"
R=$PWD
# The binaries were built in the checkout that pack.sh names in .gpu/built-in (xtask and the
# tests crate find the repository through their compile-time manifest directory).
B=$(cat .gpu/built-in 2>/dev/null || echo /work/main)
if [ "$R" != "$B" ] && [ ! -e "$B" ]; then mkdir -p "$(dirname "$B")"; ln -s "$R" "$B"; fi
[ -d .gpu/shared/conformance ] && export TILEC_SHARED_DIR=$R/.gpu/shared
# NVIDIA's tools in the layout tileiras expects: bin/{tileiras,ptxas}, lib/libnvvm.so.4
# (it runs the ptxas and loads the libnvvm of its own release, found beside it).
mkdir -p /tmp/gpubin /tmp/cu/bin /tmp/cu/lib
unpack() { # archive destination: a newer archive replaces what an earlier call unpacked
    if [ -f "$1" ] && { [ ! -s "$2" ] || [ "$1" -nt "$2" ]; }; then
        xz -d -T0 -c "$1" > "$2.part" && mv "$2.part" "$2" && chmod +x "$2" && touch -r "$1" "$2"
    fi
}
unpack .gpu2/tileiras.xz /tmp/cu/bin/tileiras
unpack .gpu2/libnvvm.xz /tmp/cu/lib/libnvvm.so.4
unpack .gpu/ptxas.xz /tmp/cu/bin/ptxas
unpack .gpu/bin/tilec.xz /tmp/gpubin/tilec
unpack .gpu/bin/xtask.xz /tmp/gpubin/xtask
export PATH=/tmp/gpubin:/tmp/cu/bin:$PATH:/usr/local/cuda/bin
if ls .gpu/cuda_tile-*.whl >/dev/null 2>&1 && [ ! -d /tmp/pylib/cuda ]; then
    python3 -m pip install --quiet --no-deps --no-index --target /tmp/pylib .gpu/cuda_tile-*.whl >/dev/null 2>&1
fi
export PYTHONPATH=/tmp/pylib${PYTHONPATH:+:$PYTHONPATH}
export TILEC_PYTHON=python3
export PYTHONUNBUFFERED=1
export TILEC_GPU_LAUNCH_TIMEOUT=${TILEC_GPU_LAUNCH_TIMEOUT:-20}
X=/tmp/gpubin/xtask
steps=${*:-env test test90a testcluster structured bench cutile cutileref examples random testfm}
skipped=
left() { echo $(( DEADLINE - ($(date +%s) - T0) )); }
# cap NOMINAL: the step's own bound, cut to what is left before the deadline
cap() { local l; l=$(( $(left) - 10 )); [ "$1" -lt "$l" ] && echo "$1" || echo "$l"; }
pack() { tar -czf "$OUT/reports.tgz.part" -C "$W" . 2>/dev/null && mv "$OUT/reports.tgz.part" "$OUT/reports.tgz"; }
xdist=
python3 -c "import xdist" 2>/dev/null && xdist="-n ${CUTILE_WORKERS:-12}"
# cuTile's suite or benchmarks with the compiler in DIR: suite DIR TAG [pytest args]
suite() {
    local dir=$1 tag=$2; shift 2
    if [ ! -d .gpu/cutile-test/test ]; then echo "no .gpu/cutile-test/test (pack.sh --cutile-src)" > "$W/$tag.md"; return; fi
    (cd .gpu/cutile-test/test && env -u CUDA_HOME -u CUDA_PATH PATH="$dir:$PATH" timeout "$(cap "${CUTILE_TIMEOUT:-400}")" \
        python3 -m pytest -q -p no:cacheprovider "$@" > "$W/$tag.md" 2>&1; echo "exit $?" >> "$W/$tag.md")
}
# gpu-test ARGS... into report FILE within LIMIT seconds; after a kernel that hangs
# (exit 3: the watchdog, TILEC_GPU_LAUNCH_TIMEOUT) a new process goes on from the case
# after it, appended to the same report: sweep FILE LIMIT ARGS...
sweep() {
    local file=$1 limit=$2 from=0 rc
    shift 2
    : > "$file"
    while :; do
        timeout "$(cap "$limit")" $X gpu-test "$@" --from "$from" >> "$file" 2>&1
        rc=$?
        echo "exit $rc" >> "$file"
        [ "$rc" = 3 ] || break
        from=$(grep -o "go on with --from [0-9]*" "$file" | tail -1 | awk '{print $NF}')
        { [ -n "$from" ] && [ "$(left)" -ge 30 ]; } || break
    done
}
mkdir -p /tmp/shimdir /tmp/refdir
ln -sf /tmp/gpubin/tilec /tmp/shimdir/tileiras; ln -sf /tmp/cu/bin/ptxas /tmp/shimdir/ptxas
ln -sf /tmp/cu/bin/tileiras /tmp/refdir/tileiras; ln -sf /tmp/cu/bin/ptxas /tmp/refdir/ptxas
for s in $steps; do
  start=$(date +%s)
  if [ "$s" != unpack ] && [ "$(left)" -lt 30 ]; then skipped="$skipped $s"; continue; fi
  case $s in
    unpack) ls -la /tmp/cu/bin /tmp/cu/lib /tmp/gpubin > "$W/unpack.txt" 2>&1 ;;
    env) { nvidia-smi; nvidia-smi -L; python3 -c "import torch; print('torch', torch.__version__, torch.version.cuda)";
           python3 -c "import cuda.tile as ct; print('cuda.tile', ct.__version__)"; tilec --version; ptxas --version | tail -1;
           [ -s /tmp/cu/bin/tileiras ] && tileiras --version | tail -2;
           echo "xdist: ${xdist:-not installed}"; env | grep -i -E "cuda|nvvm|ld_library";
           [ -s /tmp/cu/lib/libnvvm.so.4 ] && { timeout 60 tileiras --gpu-name sm_90 -o /tmp/probe.cubin tests/corpus/cutile/vector_add.tileirbc 2>&1 | head -20; ls -la /tmp/probe.cubin; };
           git -C "$R" log -1 --oneline 2>/dev/null; } > "$W/env.txt" 2>&1 ;;
    test) sweep "$W/gpu-test.md" 200 ;;
    test90a) # then warp-specialized (--warp-specialize), appended to the same report
       sweep "$W/gpu-test-sm90a.md" 150 --arch sm_90a
       [ "$(left)" -ge 30 ] && sweep "$W/gpu-test-sm90a-ws.md" 150 --arch sm_90a --warp-specialize ;;
    testcluster)
       sweep "$W/gpu-test-cluster2.md" 150 --arch sm_90a --num-ctas 2
       [ "$(left)" -ge 30 ] && sweep "$W/gpu-test-cluster4.md" 150 --arch sm_90 --num-ctas 4 ;;
    testfm) sweep "$W/gpu-test-fastmath.md" 100 --fast-math --only example ;;
    random) sweep "$W/gpu-test-random.md" 200 --only random --random 2000 --seed 1000 ;;
    structured) sweep "$W/gpu-test-structured.md" 90 --arch sm_90a --only structured --random 0 --structured 500 --seed 5000 ;;
    bench) env -u CUDA_HOME -u CUDA_PATH timeout "$(cap 240)" $X gpu-bench --json "$W/gpu-bench.json" > "$W/gpu-bench.md" 2>&1; echo "exit $?" >> "$W/gpu-bench.md" ;;
    examples) timeout "$(cap 150)" python3 scripts/gpu/run_examples.py --tilec /tmp/gpubin/tilec --arch sm_90 --json "$W/run-examples.json" > "$W/run-examples.md" 2>&1; echo "exit $?" >> "$W/run-examples.md" ;;
    probe) [ -f .gpu/probe/nan.tile ] && { timeout "$(cap 60)" tilec run .gpu/probe/nan.tile --device --grid 1 --arg @.gpu/probe/a.npy --arg @.gpu/probe/b.npy $(for k in 0 1 2 3 4 5 6; do echo --arg zeros:i64:8; done) > "$W/probe.md" 2>&1; echo "exit $?" >> "$W/probe.md"; } ;;
    cutile) # no NVIDIA tileiras on PATH: cuTile finds tilec (a link named tileiras); every
       # kernel it compiles is kept (and why, when it fails) for replay without a GPU:
       # cargo xtask gpu-test --sim --corpus DIR (docs/gpu-harness.md)
       export TILEC_TILEIRAS_KEEP=$W/cutile-kept
       suite /tmp/shimdir cutile-tests $xdist --tb=line -rfE --junitxml="$W/cutile-junit.xml" .
       unset TILEC_TILEIRAS_KEEP ;;
    cutileref) if [ -s /tmp/cu/bin/tileiras ] && [ -s /tmp/cu/lib/libnvvm.so.4 ]; then
         suite /tmp/refdir cutile-ref-tests $xdist --tb=line -rfE --junitxml="$W/cutile-ref-junit.xml" .
       else echo "no tileiras or libnvvm unpacked (send .gpu2 with device_session.sh unpack first)" > "$W/cutile-ref-tests.md"; fi ;;
    cutilebench) suite /tmp/shimdir cutile-bench -o "python_files=bench_*.py" -o "python_functions=bench_*" --benchmark-json="$W/cutile-bench.json" bench_*.py ;;
    cutilebenchref) suite /tmp/refdir cutile-bench-ref -o "python_files=bench_*.py" -o "python_functions=bench_*" --benchmark-json="$W/cutile-bench-ref.json" bench_*.py ;;
    *) echo "unknown step $s" ;;
  esac
  echo "step $s: $(( $(date +%s) - start )) s (at $(( $(date +%s) - T0 )) s)" | tee -a "$W/steps.txt"
  pack
done
[ -n "$skipped" ] && echo "skipped for the deadline ($DEADLINE s):$skipped" | tee -a "$W/steps.txt"
pack
for f in "$W"/*.md "$W"/*.txt; do [ -f "$f" ] && { echo "== $(basename "$f")"; tail -n 15 "$f"; }; done

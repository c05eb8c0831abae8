#!/usr/bin/env bash
# Packs, on this machine, everything scripts/gpu/device_session.sh needs on a lent GPU
# machine (which has CUDA, PyTorch and CuPy, but no Rust and no network), into the folders
# .gpu/ and .gpu2/ that git ignores and the device tool carries. .gpu: tilec and xtask
# (release, stripped, xz), ptxas, the conformance data, cuTile's wheel and test suite;
# .gpu2: the reference, NVIDIA's tileiras and libnvvm (about 50 MiB). Together they are
# over the 64 MiB one call carries, so a session sends .gpu2 first in a call that only
# unpacks it (`device_session.sh unpack`), then .gpu with the steps: what is unpacked under
# /tmp stays while the machine is warm (docs/gpu-harness.md, "A GPU session in 15
# minutes"). Costs no device time: run it before the first call.
#
#   bash scripts/gpu/pack.sh [--no-build] [--no-reference] [--cutile-src DIR]
#
#   --no-build        reuse target/release/{tilec,xtask} as they are
#   --no-reference    leave out NVIDIA's tileiras and libnvvm (.gpu2) and the cuTile wheel
#                     (the gpu-bench reference columns and the `cutileref` step then say why)
#   --cutile-src DIR  a git directory of NVIDIA/cutile-python (e.g. the `fetch` tool's
#                     /work/.mirror/NVIDIA+cutile-python/repo): its test/ goes to
#                     .gpu/cutile-test/ for the `cutile`/`cutileref` steps
#
# Environment: VENV (default .ci/venv: NVIDIA's pip packages, as .ci/run installs them),
# TILEC_SHARED_DIR (default ../shared: the conformance data, copied without its lit tests'
# outputs). Prints the size of what travels; fails if a call would carry more than the
# device tool's 64 MiB (the tracked tree counts too).
set -euo pipefail
R=$(cd "$(dirname "$0")/../.." && pwd)
cd "$R"
build=1 reference=1 cutile_src=
while [ $# -gt 0 ]; do
  case $1 in
    --no-build) build=0 ;;
    --no-reference) reference=0 ;;
    --cutile-src) cutile_src=$2; shift ;;
    *) echo "pack.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
VENV=${VENV:-.ci/venv}
SHARED=${TILEC_SHARED_DIR:-$R/../shared}

if [ $build = 1 ]; then
  cargo build --release -p tilec -p xtask
fi
rm -rf .gpu .gpu2
mkdir -p .gpu/bin .gpu2
for b in tilec xtask; do
  strip -o "/tmp/pack-$b" "target/release/$b"
  xz -9 -T0 -c "/tmp/pack-$b" > ".gpu/bin/$b.xz"
  rm -f "/tmp/pack-$b"
done
# xtask finds the repository through the path it was built in (see device_session.sh).
echo "$R" > .gpu/built-in

if [ -d "$SHARED/conformance" ]; then
  mkdir -p .gpu/shared
  cp -r "$SHARED/conformance" .gpu/shared/
  [ -d "$SHARED/spec" ] && cp -r "$SHARED/spec" .gpu/shared/
else
  echo "pack.sh: no conformance data at $SHARED (gpu-test's conformance family will skip)" >&2
fi

if [ -n "$cutile_src" ]; then
  mkdir -p .gpu/cutile-test
  git -C "$cutile_src" archive HEAD test | tar -x -C .gpu/cutile-test
  git -C "$cutile_src" log -1 --format='%H %cd' > .gpu/cutile-test/COMMIT
fi

site=$(ls -d "$VENV"/lib/python3*/site-packages 2>/dev/null | head -1)
cu=$site/nvidia/cu13
# ptxas 13.5 for tilec's cubins (cuTile's `cutile` step) and for tileiras of the same release
if [ -x "$cu/bin/ptxas" ]; then
  xz -9e -T0 -c "$cu/bin/ptxas" > .gpu/ptxas.xz
else
  echo "pack.sh: no ptxas in $cu/bin: the device's own (CUDA 13.0) will be used" >&2
fi
if [ $reference = 1 ]; then
  [ -x "$cu/bin/tileiras" ] || { echo "pack.sh: no tileiras in $cu/bin (install NVIDIA's pip packages: .ci/run, or --no-reference)" >&2; exit 1; }
  xz -9e -T0 -c "$cu/bin/tileiras" > .gpu2/tileiras.xz
  nvvm=$(find "$site/nvidia" -name 'libnvvm.so*' | head -1)
  [ -n "$nvvm" ] && xz -9e -T0 -c "$nvvm" > .gpu2/libnvvm.xz
  # cuTile Python for the device's Python (3.12, x86-64), the version installed here
  ver=$("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("cuda-tile"))')
  "$VENV/bin/python" -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.12 \
      --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
      --platform manylinux2014_x86_64 -d .gpu "cuda-tile==$ver"
fi

tree=$(git ls-files -z | du -cb --files0-from=- | tail -1 | cut -f1)
g1=$(du -sb .gpu | cut -f1)
g2=$(du -sb .gpu2 | cut -f1)
limit=$((64 * 1024 * 1024))
mib() { awk -v b="$1" 'BEGIN { printf "%.1f MiB", b / 1048576 }'; }
echo "tracked tree $(mib "$tree"), .gpu $(mib "$g1"), .gpu2 $(mib "$g2")"
du -sh .gpu/* .gpu2/* 2>/dev/null | sed 's/^/  /'
status=0
if [ $((tree + g1)) -gt $limit ]; then
  echo "pack.sh: the tree and .gpu ($(mib $((tree + g1)))) exceed the 64 MiB a call carries" >&2
  status=1
fi
if [ $((tree + g2)) -gt $limit ]; then
  echo "pack.sh: the tree and .gpu2 ($(mib $((tree + g2)))) exceed the 64 MiB a call carries" >&2
  status=1
fi
if [ $((tree + g1 + g2)) -le $limit ]; then
  echo "one call can carry both: carry [\".gpu\", \".gpu2\"]"
else
  echo "send .gpu2 first (carry [\".gpu2\"], device_session.sh unpack), then .gpu with the steps"
fi
exit $status

#!/usr/bin/env python3
"""Side by side: cuTile Python's own benchmarks (NVIDIA/cutile-python's test/bench_*.py,
pytest-benchmark) run twice on a GPU (scripts/gpu/device_session.sh, steps `cutilebench`
and `cutilebenchref`), once with tilec as cuTile's compiler and once with NVIDIA's
tileiras. Reads the two `--benchmark-json` reports and prints a Markdown table for
docs/performance.md: each benchmark's median time both ways and tileiras' time over
tilec's (above 1: tilec's kernel is faster), then the geometric mean of the ratios over
the benchmarks both runs measured, and the benchmarks only one run measured.

    python3 scripts/gpu/compare_bench.py --tilec OUT/cutile-bench.json --tileiras OUT/cutile-bench-ref.json
"""

import argparse
import json
import math
import sys


def medians(path):
    """{benchmark full name: median seconds} of a pytest-benchmark JSON report."""
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    out = {}
    for b in report.get("benchmarks", []):
        stats = b.get("stats") or {}
        if "median" in stats:
            out[b.get("fullname") or b.get("name")] = float(stats["median"])
    return out


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tilec", required=True, help="pytest-benchmark JSON of the run through tilec")
    p.add_argument("--tileiras", required=True, help="the same through NVIDIA's tileiras")
    a = p.parse_args(argv)
    ours, ref = medians(a.tilec), medians(a.tileiras)
    both = sorted(set(ours) & set(ref))
    print("| benchmark | tileiras (us) | tilec (us) | tileiras / tilec |")
    print("|---|---:|---:|---:|")
    logs = []
    for name in both:
        r, t = ref[name], ours[name]
        ratio = r / t if t > 0 else float("inf")
        if t > 0 and r > 0:
            logs.append(math.log(ratio))
        print(f"| `{name}` | {r * 1e6:.1f} | {t * 1e6:.1f} | {ratio:.2f}x |")
    print()
    if logs:
        print(f"Geometric mean of tileiras / tilec over {len(logs)} benchmarks: "
              f"{math.exp(sum(logs) / len(logs)):.2f}x")
    else:
        print("No benchmark was measured both ways.")
    for label, only in (("tilec", sorted(set(ours) - set(ref))), ("tileiras", sorted(set(ref) - set(ours)))):
        if only:
            print()
            print(f"Measured with {label} only: {len(only)}")
            for name in only:
                print(f"* `{name}`")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

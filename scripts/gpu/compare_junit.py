#!/usr/bin/env python3
"""Side by side: cuTile Python's test suite run twice on a GPU (scripts/gpu/device_session.sh,
steps `cutile` and `cutileref`), once with tilec as cuTile's compiler and once with NVIDIA's
tileiras. Reads the two pytest JUnit reports and prints a Markdown summary for
docs/performance.md: the outcome counts of each run, then every test that passes with
tileiras and not with tilec, with the first line of its failure (the list issue 21 asks
for), and the reverse.

    python3 scripts/gpu/compare_junit.py --tilec OUT/cutile-junit.xml --tileiras OUT/cutile-ref-junit.xml
"""

import argparse
import sys
import xml.etree.ElementTree as ET


def outcomes(path):
    """{test id: (outcome, message)} of a JUnit XML report; outcome is passed, failed,
    error or skipped."""
    result = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        name = f"{case.get('classname', '')}::{case.get('name', '')}"
        outcome, message = "passed", ""
        for tag in ("failure", "error", "skipped"):
            node = case.find(tag)
            if node is not None:
                outcome = "failed" if tag == "failure" else tag
                text = node.get("message") or (node.text or "")
                message = text.strip().splitlines()[0][:160] if text.strip() else ""
                break
        result[name] = (outcome, message)
    return result


def counts(run):
    c = {"passed": 0, "failed": 0, "error": 0, "skipped": 0}
    for outcome, _ in run.values():
        c[outcome] += 1
    return c


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tilec", required=True, help="JUnit XML of the run through tilec")
    p.add_argument("--tileiras", required=True, help="JUnit XML of the run through NVIDIA's tileiras")
    a = p.parse_args(argv)
    ours, ref = outcomes(a.tilec), outcomes(a.tileiras)
    print("| compiler | tests | passed | failed | error | skipped |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, run in (("tileiras (NVIDIA)", ref), ("tilec", ours)):
        c = counts(run)
        print(f"| {label} | {len(run)} | {c['passed']} | {c['failed']} | {c['error']} | {c['skipped']} |")
    worse = sorted(t for t, (o, _) in ref.items() if o == "passed" and ours.get(t, ("missing", ""))[0] != "passed")
    better = sorted(t for t, (o, _) in ours.items() if o == "passed" and ref.get(t, ("missing", ""))[0] != "passed")
    print()
    print(f"Passing with tileiras, not with tilec: {len(worse)}")
    if worse:
        print()
        print("| test | with tilec | message |")
        print("|---|---|---|")
        for t in worse:
            o, m = ours.get(t, ("not run", ""))
            print(f"| `{t}` | {o} | {m.replace('|', '/')} |")
    print()
    print(f"Passing with tilec, not with tileiras: {len(better)}")
    for t in better:
        print(f"* `{t}` (tileiras: {ref.get(t, ('not run', ''))[0]})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

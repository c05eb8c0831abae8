"""PyPI's `filecheck` (1.0.x) with LLVM FileCheck's CHECK-NOT range.

LLVM's FileCheck checks a `CHECK-NOT` between the end of the previous match and the
*start* of the next match (FileCheck.cpp: the skipped region is `Buffer.substr(LastPos,
MatchPos - LastPos)`). PyPI's filecheck 1.0.6 checks it up to the *end* of the next match,
so a `CHECK-NOT: if` followed by `CHECK: cuda_tile.module @hint_disable_if` fails on the
`if` in the very line the next check matches (NVIDIA's Transforms/loop_split.mlir has three
of these). This wrapper narrows the range after `CHECK`, `CHECK-SAME` and `CHECK-NEXT` to
LLVM's; everything else is filecheck's own. A narrower range only lets more inputs pass a
`CHECK-NOT`, never fewer, so no file that passed before can fail through it.

tests/lit/lit.cfg.py runs it as `FileCheck` with the Python that runs lit.
"""

import sys

from filecheck import finput as _finput
from filecheck import matcher as _matcher
from filecheck.finput import InputRange

_find = _finput.FInput.find
_match = _finput.FInput.match


def _record(self, m):
    if m is not None:
        self._llvm_last_match_start = m.start(0)
    return m


def _patched_find(self, pattern, this_line=False):
    return _record(self, _find(self, pattern, this_line))


def _patched_match(self, pattern):
    return _record(self, _match(self, pattern))


_finput.FInput.find = _patched_find
_finput.FInput.match = _patched_match

_post_check = _matcher.Matcher._post_check


def _patched_post_check(self, op):
    start = self.ctx.negative_matches_start
    end = getattr(self.file, "_llvm_last_match_start", None)
    if (
        op.name in ("CHECK", "SAME", "NEXT")
        and start is not None
        and end is not None
        and end >= start
        and not self.file.is_discontigous()
    ):
        rng = InputRange(start, end)
        for check in self.ctx.negative_matches_stack:
            self.check_not(check, rng)
        self.ctx.negative_matches_start = None
        self.ctx.negative_matches_stack = []
    return _post_check(self, op)


_matcher.Matcher._post_check = _patched_post_check

if __name__ == "__main__":
    from filecheck.main import main

    sys.exit(main())

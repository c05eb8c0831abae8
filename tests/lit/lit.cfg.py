# lit configuration that runs NVIDIA's cuda-tile lit tests (../shared/conformance/
# cuda-tile-13.x/test) unchanged, with tilec standing in for cuda-tile-opt and
# cuda-tile-translate (tests/lit_suite.rs sets it up; see docs/lit.md).
#
# Environment:
#   TILEC_LIT_SUITE  the directory of the tests (NVIDIA's `test/` folder)
#   TILEC_LIT_BIN    a directory holding cuda-tile-opt and cuda-tile-translate (links to
#                    the tilec binary) and FileCheck (PyPI's filecheck)
#   TILEC_LIT_OUT    where lit may write the tests' temporary files
#   TILEC_LIT_ROUND_TRIP  NVIDIA's round_trip_test.sh, when the suite lacks it
#   TILEC_LIT_RELEASE  the release the suite was written against (13.1 or 13.3; by
#                    default read from a `cuda-tile-13.N` folder in the suite's path)

import os

import lit.formats

config.name = "tilec-on-cuda-tile"
# lit's internal shell: `not`, `diff`, pipes and redirections without a system shell.
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["lit.cfg.py", "lit.cfg.upstream.py", "round_trip_test.py", "Inputs"]
config.test_source_root = os.environ["TILEC_LIT_SUITE"]
config.test_exec_root = os.environ["TILEC_LIT_OUT"]

bin_dir = os.environ["TILEC_LIT_BIN"]
config.environment["PATH"] = os.pathsep.join([bin_dir, os.environ.get("PATH", "")])
for var in ("HOME", "TMPDIR", "LANG"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

# The release the tests were written against: NVIDIA's wording lists the element types
# of that release (tilec's cuda-tile-opt personality reads TILEC_CUDA_TILE_RELEASE).
release = os.environ.get("TILEC_LIT_RELEASE")
if not release:
    for part in reversed(os.path.abspath(config.test_source_root).split(os.sep)):
        if part.startswith("cuda-tile-13."):
            release = part[len("cuda-tile-"):]
            break
if release:
    config.environment["TILEC_CUDA_TILE_RELEASE"] = release

# FileCheck: PyPI's filecheck with LLVM's CHECK-NOT range (see filecheck_llvm.py), run by
# the Python that runs lit (which has filecheck: crates/tilec/tests/lit.rs checks).
import sys

config.substitutions.append(
    (
        r"\bFileCheck\b",
        '"%s" "%s"'
        % (sys.executable, os.path.join(os.path.dirname(__file__), "filecheck_llvm.py")),
    )
)

# NVIDIA's round-trip script (bash): bytecode out and back in, compared with the text.
# TILEC_LIT_ROUND_TRIP names it for suites that do not ship it (13.1).
round_trip = os.environ.get("TILEC_LIT_ROUND_TRIP") or os.path.join(
    config.test_source_root, "Dialect", "CudaTile", "round_trip_test.sh"
)
config.substitutions.append(("%round_trip_test", "bash " + round_trip))

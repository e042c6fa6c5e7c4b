#!/usr/bin/env bash
# Golden vectors: small levels assembled byte by byte from the spec by tests/golden/blvlspec.py,
# with every digest from `b3sum --length 16` and every zstd frame from the zstd tool, checked
# against the blvl program (identity, info --json, verify, cat, pack, put, single-byte flips).
# Regenerate the committed files only when the golden set changes: tests/golden/make_golden.py.
set -eu
src=${BLVL_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${BLVL_BIN:-$src/build/blvl}
for tool in python3 b3sum zstd dd; do
    command -v "$tool" >/dev/null || { echo "test_golden: $tool is required" >&2; exit 1; }
done
# Under the sanitizers every run is slow: sample fewer flipped bytes.
quick=
[ "${BLVL_SANITIZED:-0}" = 1 ] && quick=--quick
BLVL_BIN=$bin exec python3 "$src/tests/golden/check_golden.py" $quick

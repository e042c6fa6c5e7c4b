#!/usr/bin/env bash
# The Python binding (python/, docs/PYTHON.md): its pytest suite (python/tests/), which checks
# what the binding returns against what the blvl program prints, runs against this build's
# extension (build/python/blvl/, made by `make`) with Debian's interpreter (CMake's BLVL_PYTHON).
# Under the sanitizers (BLVL_SANITIZED, build-asan) the same suite runs with the build's libasan
# preloaded into the uninstrumented interpreter, leak checking off (the interpreter's own
# allocations at exit are not ours); the pip install into a venv is left to the release run
# there (it compiles the extension again, without the sanitizers' flags).
# Skips (77) when the binding was not built: no cffi or no Python headers for that interpreter.
set -u
src=${BLVL_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
build=${BLVL_BUILD:-$src/build}
py=$(sed -n 's/^BLVL_PYTHON:FILEPATH=//p' "$build/CMakeCache.txt" 2>/dev/null)
py=${py:-/usr/bin/python3}
ext=$(ls "$build"/python/blvl/_blvl_cffi*.so 2>/dev/null | head -n 1)
if [ -z "$ext" ]; then
    echo "test_python: skipped: the binding was not built in $build (cffi or Python.h missing for $py)"
    exit 77
fi
if ! "$py" -c 'import pytest, numpy' 2>/dev/null; then
    echo "test_python: skipped: $py has no pytest or numpy (scripts/deps.sh installs them)"
    exit 77
fi
export BLVL_BUILD_DIR=$build BLVL_SRC=$src BLVL_BUILD=$build BLVL_BIN=${BLVL_BIN:-$build/blvl}
export PYTHONPATH=$src/python PYTHONDONTWRITEBYTECODE=1
if [ -n "${BLVL_SANITIZED:-}" ]; then
    preload=
    for lib in libasan libubsan; do
        p=$(ldd "$ext" | awk -v l="$lib" 'index($1, l) == 1 { print $3 }')
        [ -n "$p" ] && preload=${preload:+$preload:}$p
    done
    export LD_PRELOAD=$preload
    export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 BLVL_SKIP_VENV=1
fi
cd "$src" && exec "$py" -m pytest -q -p no:cacheprovider "$src/python/tests"

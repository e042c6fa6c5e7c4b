#!/usr/bin/env bash
# Every public header (include/blvl/*.h, include/blvl/sections/*.h) compiles on its own as C11,
# C++11 and C++17 with every compiler found (gcc/g++, clang/clang++), -Wall -Wextra -Werror
# -pedantic: engines are C++. Then a C++ program (tests/cxx/smoke.cpp) reads a section through
# the generated accessors, linked against the library, and must run clean.
set -eu
src=${BLVL_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
build=${BLVL_BUILD:-$src/build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
flags="-Wall -Wextra -Werror -pedantic -I$src/include"
modes=()
for cc in gcc clang; do command -v $cc >/dev/null && modes+=("$cc -std=c11 -x c"); done
for cxx in g++ clang++; do
    command -v $cxx >/dev/null || continue
    modes+=("$cxx -std=c++11 -x c++" "$cxx -std=c++17 -x c++")
done
[ ${#modes[@]} -ge 6 ] || { echo "want gcc, g++, clang and clang++ (scripts/deps.sh)"; exit 1; }
n=0
for h in "$src"/include/blvl/*.h "$src"/include/blvl/sections/*.h; do
    rel=${h#"$src"/include/}
    printf '#include <%s>\nint main(void) { return 0; }\n' "$rel" >"$tmp/t.src"
    for m in "${modes[@]}"; do
        # shellcheck disable=SC2086 # mode and flags are lists of words
        if ! $m $flags -fsyntax-only "$tmp/t.src" >"$tmp/log" 2>&1; then
            echo "FAIL: $rel as '$m':"
            head -5 "$tmp/log"
            fail=1
        fi
        n=$((n + 1))
    done
done
echo "$n header compilations"
# The smoke program, linked against the static library as built (a sanitized build's library
# needs the sanitizer runtime at link time too).
san= only=
if grep -q '^BLVL_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null; then
    san=-fsanitize=address,undefined
    # the sanitizer runtime the library wants is its own compiler's
    libcc=$(sed -n 's/^CMAKE_C_COMPILER:FILEPATH=//p' "$build/CMakeCache.txt")
    only=g++
    "${libcc:-cc}" --version 2>/dev/null | grep -q clang && only=clang++
fi
for cxx in g++ clang++; do
    command -v $cxx >/dev/null || continue
    [ -n "$only" ] && [ $cxx != "$only" ] && continue
    # shellcheck disable=SC2086
    if ! $cxx -std=c++11 $flags $san -o "$tmp/smoke" "$src/tests/cxx/smoke.cpp" \
        "$build/libblvl-tools.a" "$build/libblvl.a" $(pkg-config --libs libzstd zlib) -lpthread -lm >"$tmp/log" 2>&1; then
        echo "FAIL: smoke.cpp does not build with $cxx:"
        head -20 "$tmp/log"
        fail=1
        continue
    fi
    "$tmp/smoke" "$src/tests/data/sections/sim.json" || { echo "FAIL: smoke.cpp ($cxx)"; fail=1; }
done
exit $fail

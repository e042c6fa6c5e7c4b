#!/usr/bin/env bash
# Builds every target of the default configuration (libraries, CLI, tests, benchmarks,
# examples) with -Werror for each build type and compiler given, compile only, each into its
# own folder (its log in FOLDER/build-types.log); prints one line per build and, for a failed
# one, the tail of its log.
#   scripts/build-types.sh DIR_PREFIX JOBS TYPE... [-- COMPILER...]
# `make test` runs `scripts/build-types.sh build-release 1 Release` (the default compiler) beside
# the fuzz smoke, which keeps one core busy, so the suite's wall time does not grow;
# `make build-types` builds Release, RelWithDebInfo, Debug and MinSizeRel with gcc and clang.
# CMAKE_FLAGS from the environment reach every configure (a compiler launcher, say).
set -u
prefix=$1; jobs=$2; shift 2
types=(); compilers=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do types+=("$1"); shift; done
[ $# -gt 0 ] && shift
compilers=("$@")
[ ${#compilers[@]} -gt 0 ] || compilers=("")
fail=0
for cc in "${compilers[@]}"; do
    for type in "${types[@]}"; do
        dir=$prefix${cc:+-$cc}${types[1]+-$type}
        mkdir -p "$dir"
        log=$dir/build-types.log
        # shellcheck disable=SC2086 # CMAKE_FLAGS is a list of flags
        if ${cc:+env CC=$cc} cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE="$type" ${CMAKE_FLAGS:-} \
            >"$log" 2>&1 && cmake --build "$dir" -j"$jobs" >>"$log" 2>&1; then
            echo "build-types: ${cc:-default compiler} $type: clean ($dir)"
        else
            echo "build-types: ${cc:-default compiler} $type: FAILED ($dir, $log)"
            tail -n 40 "$log"
            fail=1
        fi
    done
done
exit $fail

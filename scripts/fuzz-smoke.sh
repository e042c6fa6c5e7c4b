#!/usr/bin/env bash
# Runs every fuzz target for a bounded time on its seed corpus (fuzz/corpus/<target>/).
set -eu
dir=$1; secs=${2:-20}
fail=0
for bin in "$dir"/fuzz_*; do
    [ -x "$bin" ] || continue
    name=$(basename "$bin")
    corpus=fuzz/corpus/${name#fuzz_}
    work=$(mktemp -d)
    [ -d "$corpus" ] && cp -r "$corpus"/. "$work"/ 2>/dev/null || true
    echo "fuzz: $name for ${secs}s"
    if ! "$bin" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 -print_final_stats=0 \
        "$work" >"$work.log" 2>&1; then
        echo "fuzz: $name FAILED"; tail -n 60 "$work.log"; fail=1
    fi
    rm -rf "$work" "$work.log"
done
exit $fail

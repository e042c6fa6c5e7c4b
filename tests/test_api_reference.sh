#!/usr/bin/env bash
# blvl.h's reference list names every function the three libraries export, each under the
# library that exports it and the header that declares it, and names nothing else: a function
# added without a line there, a line left for a function gone or moved, fails here naming it.
# The list is the block of include/blvl/blvl.h's opening comment from "Reference" to "Not in
# the list above"; a "libblvl..." line opens a library's part, a word ending in ".h" at the
# start of a line opens a header's.
set -u
build=${BLVL_BUILD:?}
src=${BLVL_SRC:-.}
header=$src/include/blvl/blvl.h
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# LIBRARY HEADER NAME, one line per name listed.
awk '
    BEGIN { lib = "-"; hdr = "-" }
    /^ \* Reference/ { on = 1; next }
    /Not in the list above/ || /^ \*\/$/ { on = 0 }
    !on { next }
    {
        sub(/^ \*/, "")
        gsub(/[,;()]/, " ")
        if ($1 ~ /^libblvl(-http|-tools)?$/) { lib = $1; next }
        if ($1 ~ /\.h$/) { hdr = $1 }
        for (i = 1; i <= NF; i++)
            if ($i ~ /^blvl_[a-z0-9_]+$/) print lib, hdr, $i
    }' "$header" >"$tmp/listed"
[ -s "$tmp/listed" ] || { echo "FAIL: no reference list found in $header"; exit 1; }

: >"$tmp/exported"
for lib in libblvl libblvl-http libblvl-tools; do
    so=$build/$lib.so
    [ -f "$so" ] || { echo "FAIL: missing $so"; fail=1; continue; }
    # functions only (T): the generated type tables are data the headers name
    nm -D --defined-only "$so" | awk -v lib="$lib" '$2 == "T" && $3 ~ /^blvl_/ { print lib, $3 }' \
        >>"$tmp/exported"
done
[ "$(wc -l <"$tmp/exported")" -ge 100 ] || { echo "FAIL: too few exports found"; fail=1; }

awk '{ print $3 }' "$tmp/listed" | sort >"$tmp/listed.names"
awk '{ print $2 }' "$tmp/exported" | sort >"$tmp/exported.names"

for name in $(sort -u "$tmp/exported.names" | comm -23 - <(sort -u "$tmp/listed.names")); do
    lib=$(awk -v n="$name" '$2 == n { print $1 }' "$tmp/exported")
    echo "FAIL: $name is exported ($lib) but not in blvl.h's reference list"
    fail=1
done
for name in $(sort -u "$tmp/listed.names" | comm -23 - <(sort -u "$tmp/exported.names")); do
    echo "FAIL: blvl.h's reference list names $name, which no library exports"
    fail=1
done
for name in $(uniq -d "$tmp/listed.names"); do
    echo "FAIL: blvl.h's reference list names $name twice"
    fail=1
done
# Each name under the library that exports it and the header that declares it.
while read -r lib hdr name; do
    got=$(awk -v n="$name" '$2 == n { print $1 }' "$tmp/exported")
    if [ -n "$got" ] && [ "$got" != "$lib" ]; then
        echo "FAIL: blvl.h lists $name under $lib; $got exports it"
        fail=1
    fi
    if ! grep -qE "\\b$name\\(" "$src/include/blvl/$hdr" 2>/dev/null; then
        echo "FAIL: blvl.h lists $name under $hdr, which does not declare it"
        fail=1
    fi
done <"$tmp/listed"

[ "$fail" = 0 ] && echo "ok: blvl.h lists all $(wc -l <"$tmp/exported.names") exported functions"
exit "$fail"

#!/usr/bin/env bash
# libblvl's public face (include/blvl/api.h): the shared library exports exactly the BLVL_API
# declarations, all named blvl_*, and nothing internal (blvl__*, blvl_fb__*), unprefixed (the
# trace layer's helpers) or third-party (BLAKE3). The static library defines no global symbol
# outside the blvl_ namespace (internal ones are blvl__*, BLAKE3's renamed blvl__blake3_*), so it
# cannot clash with a program's own names. Every blvl_ name the static library defines as public
# (no "__") is exported by the shared one: a function missing BLVL_API fails here.
set -u
build=${BLVL_BUILD:?}
so=$build/libblvl.so
a=$build/libblvl.a
fail=0
for f in "$so" "$a"; do [ -f "$f" ] || { echo "missing $f"; exit 1; }; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Instrumented builds add the sanitizers' and coverage's own symbols (__asan_*, __odr_asan_*,
# __sancov_*): not ours, so not judged.
ours() { grep -v -E '^(__(asan|odr_asan|sancov|ubsan|start_|stop_)|_(init|fini|edata|end)$|__bss_start$)'; }

nm -D --defined-only "$so" | awk '{ print $3 }' | ours | sort -u >"$tmp/exported"
nm --defined-only -g "$a" 2>/dev/null | awk 'NF == 3 && $2 ~ /[A-TV-Z]/ { print $3 }' | ours |
    sort -u >"$tmp/static"

n=$(wc -l <"$tmp/exported")
[ "$n" -gt 100 ] || { echo "FAIL: only $n exported symbols"; fail=1; }
bad=$({ grep -v -E '^blvl_[A-Za-z0-9]' "$tmp/exported"; grep '__' "$tmp/exported"; } | sort -u)
if [ -n "$bad" ]; then
    echo "FAIL: libblvl.so exports $(echo "$bad" | wc -l) symbol(s) outside the public API:"
    echo "$bad" | head -n 40
    fail=1
fi
bad=$(grep -v -E '^blvl_' "$tmp/static")
if [ -n "$bad" ]; then
    echo "FAIL: libblvl.a defines global symbol(s) outside the blvl_ namespace:"
    echo "$bad" | head -n 40
    fail=1
fi
grep -v '__' "$tmp/static" >"$tmp/public"
missing=$(comm -23 "$tmp/public" "$tmp/exported")
if [ -n "$missing" ]; then
    echo "FAIL: public in libblvl.a but not exported by libblvl.so (BLVL_API missing?):"
    echo "$missing" | head -n 40
    fail=1
fi
# What every layer's users need, spot-checked by name: version, container, sections (functions
# and the generated type tables), JSON, trace.
for s in blvl_version_number blvl_version_string blvl_open_file blvl_read blvl_writer_commit \
    blvl_level_section blvl_Sim_type blvl_ColliderFlag_enum blvl_fb_verify blvl_fb_to_json \
    blvl_trace_box blvl_trace_world_from_level; do
    grep -qx "$s" "$tmp/exported" || { echo "FAIL: $s not exported"; fail=1; }
done
# BLAKE3 is inside (the digests need it) but renamed and hidden.
grep -qx 'blvl__blake3_hasher_init' "$tmp/static" ||
    { echo "FAIL: libblvl.a has no blvl__blake3_hasher_init (BLAKE3 not renamed?)"; fail=1; }
[ $fail = 0 ] && echo "libblvl.so exports $n symbols, all public blvl_ names"
exit $fail

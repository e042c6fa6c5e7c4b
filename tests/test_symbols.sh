#!/usr/bin/env bash
# The libraries' public face (include/blvl/api.h): libblvl.so, libblvl-http.so and
# libblvl-tools.so each export exactly their own BLVL_API declarations, all named blvl_*, and nothing internal (blvl__*, blvl_fb__*), unprefixed (the
# trace layer's helpers) or third-party (BLAKE3). The static library defines no global symbol
# outside the blvl_ namespace (internal ones are blvl__*, BLAKE3's renamed blvl__blake3_*), so it
# cannot clash with a program's own names. Every blvl_ name the static library defines as public
# (no "__") is exported by the shared one: a function missing BLVL_API fails here.
set -u
build=${BLVL_BUILD:?}
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Instrumented builds add the sanitizers' and coverage's own symbols (__asan_*, __odr_asan_*,
# __sancov_*): not ours, so not judged.
ours() { grep -v -E '^(__(asan|odr_asan|sancov|ubsan|start_|stop_)|_(init|fini|edata|end)$|__bss_start$)'; }

# check NAME MIN SYMBOL...: libNAME.so exports at least MIN symbols, all public blvl_ names,
# every public name libNAME.a defines, and the SYMBOLs named.
check() {
    local name=$1 min=$2
    shift 2
    local so=$build/lib$name.so a=$build/lib$name.a
    for f in "$so" "$a"; do [ -f "$f" ] || { echo "FAIL: missing $f"; fail=1; return; }; done
    nm -D --defined-only "$so" | awk '{ print $3 }' | ours | sort -u >"$tmp/$name.exported"
    nm --defined-only -g "$a" 2>/dev/null | awk 'NF == 3 && $2 ~ /[A-TV-Z]/ { print $3 }' | ours |
        sort -u >"$tmp/$name.static"
    local n
    n=$(wc -l <"$tmp/$name.exported")
    [ "$n" -ge "$min" ] || { echo "FAIL: lib$name.so exports only $n symbols"; fail=1; }
    local bad
    bad=$({ grep -v -E '^blvl_[A-Za-z0-9]' "$tmp/$name.exported"; grep '__' "$tmp/$name.exported"; } | sort -u)
    if [ -n "$bad" ]; then
        echo "FAIL: lib$name.so exports $(echo "$bad" | wc -l) symbol(s) outside the public API:"
        echo "$bad" | head -n 40
        fail=1
    fi
    bad=$(grep -v -E '^blvl_' "$tmp/$name.static")
    if [ -n "$bad" ]; then
        echo "FAIL: lib$name.a defines global symbol(s) outside the blvl_ namespace:"
        echo "$bad" | head -n 40
        fail=1
    fi
    grep -v '__' "$tmp/$name.static" >"$tmp/$name.public"
    local missing
    missing=$(comm -23 "$tmp/$name.public" "$tmp/$name.exported")
    if [ -n "$missing" ]; then
        echo "FAIL: public in lib$name.a but not exported by lib$name.so (BLVL_API missing?):"
        echo "$missing" | head -n 40
        fail=1
    fi
    for s in "$@"; do
        grep -qx "$s" "$tmp/$name.exported" || { echo "FAIL: $s not exported by lib$name.so"; fail=1; }
    done
    [ $fail = 0 ] && echo "lib$name.so exports $n symbols, all public blvl_ names"
}
# What every library's users need, spot-checked by name. The runtime: version, container,
# sections (functions and the generated type tables), trace, symbols (read).
check blvl 100 blvl_version_number blvl_version_string blvl_open_file blvl_read \
    blvl_writer_commit blvl_level_section blvl_Sim_type blvl_ColliderFlag_enum blvl_fb_verify \
    blvl_trace_box blvl_trace_world_from_level blvl_symbols_open_file blvl_digest
check blvl-http 3 blvl_open_url blvl_fetch_url blvl_http_get_stats
check blvl-tools 50 blvl_fb_to_json blvl_section_to_json blvl_fb_builder_new blvl_symbols_write \
    blvl_diag_run blvl_export_glb blvl_hmap_bake
# Each library exports only its own API: no name twice (a library carrying a copy of the
# runtime's public functions would shadow libblvl.so's).
dup=$(cat "$tmp"/*.exported | sort | uniq -d)
if [ -n "$dup" ]; then
    echo "FAIL: exported by more than one library:"
    echo "$dup" | head -n 20
    fail=1
fi
# The runtime holds no builder, JSON, image or importer code.
bad=$(grep -E '^blvl_(fb_builder|fb_to_json|fb_from_json|section_to_json|image_|hmap_|q3_|riot_|subspace_|diag_|export_|probe_|bake_|open_url|fetch_url)' "$tmp/blvl.exported")
if [ -n "$bad" ]; then
    echo "FAIL: libblvl.so holds tools or HTTP code:"
    echo "$bad" | head -n 20
    fail=1
fi
# BLAKE3 is inside (the digests need it) but renamed and hidden.
grep -qx 'blvl__blake3_hasher_init' "$tmp/blvl.static" ||
    { echo "FAIL: libblvl.a has no blvl__blake3_hasher_init (BLAKE3 not renamed?)"; fail=1; }
exit $fail

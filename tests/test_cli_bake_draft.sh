#!/usr/bin/env bash
# blvl bake --draft (docs/BAKE.md, "Drafts"): on the bundled samples a draft verifies, dumps,
# traces and exports; its sections' raw bytes are the release bake's (meta differs only in
# meta.tool, which gains " draft"); its identity differs; every compressed chunk is a zstd frame
# the zstd tool inflates to the chunk's raw bytes, and the draft's frames are zstd level 1
# (`zstd -1 --no-check` of the chunk gives the same bytes); blvl diag warns (D0046) about the
# draft and not about the release bake; a recipe's "options --draft" makes a draft too.
set -u
. "${BLVL_SRC:?}/tests/support/cli.sh"
cli_workdir
for tool in python3 zstd cmp; do
    command -v $tool >/dev/null || { echo "SKIP: no $tool"; exit 77; }
done

# Every chunk of every section: TAG INDEX CODEC RAWSIZE, the frame in TAG.INDEX.zst (codec 1) or
# the raw bytes in TAG.INDEX.raw, the section's raw bytes (chunks in order) in TAG.all.
cat >chunks.py <<'EOF'
import struct, sys
data = open(sys.argv[1], "rb").read()
pre = sys.argv[2]
count, toff = struct.unpack_from("<II", data, 40)
for i in range(count):
    tag, off, packed, raw, ver, flags = struct.unpack_from("<16sQQQII", data, toff + 64 * i)
    tag = tag.rstrip(b"\0").decode()
    if packed == 0:
        continue
    p = data[off:off + packed]
    n, = struct.unpack_from("<I", p, len(p) - 4)
    at = 0
    for k in range(n):
        psz, rsz, codec = struct.unpack_from("<IIB", p, len(p) - 4 - 12 * (n - k))
        name = "%s%s.%d.%s" % (pre, tag, k, "zst" if codec == 1 else "raw")
        open(name, "wb").write(p[at:at + psz])
        print(tag, k, codec, rsz, name)
        at += psz
EOF

check_level() { # NAME INPUT [bake options]
    local name=$1 in=$2; shift 2
    rc 0 bake "$in" -o "$name.rel.blvl" --threads 2 "$@"
    rc 0 bake "$in" -o "$name.dft.blvl" --threads 2 --draft "$@"
    rc 0 verify "$name.dft.blvl"
    rc 0 identity "$name.rel.blvl"; local idr; idr=$(cat out)
    rc 0 identity "$name.dft.blvl"; local idd; idd=$(cat out)
    ok "$name: the draft's identity differs from the release bake's" test "$idr" != "$idd"
    rc 0 ls "$name.rel.blvl"; awk '{print $1}' out >"$name.tags.rel"
    rc 0 ls "$name.dft.blvl"; awk '{print $1}' out >"$name.tags.dft"
    ok "$name: the same sections" cmp "$name.tags.rel" "$name.tags.dft"
    local tag
    while read -r tag; do
        "$blvl" cat "$name.rel.blvl" "$tag" >"$name.$tag.rel.bin"
        "$blvl" cat "$name.dft.blvl" "$tag" >"$name.$tag.dft.bin"
        [ "$tag" = meta ] && continue
        ok "$name: section $tag: the same raw bytes" cmp "$name.$tag.rel.bin" "$name.$tag.dft.bin"
    done <"$name.tags.rel"
    rc 0 dump "$name.rel.blvl" meta; python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tool"])' out >"$name.tool.rel"
    rc 0 dump "$name.dft.blvl" meta; cp out "$name.meta.dft.json"
    ok "$name: meta.tool is the release's with ' draft' appended" \
        test "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tool"])' "$name.meta.dft.json")" = "$(cat "$name.tool.rel") draft"
    rc 0 dump "$name.rel.blvl" meta; cp out "$name.meta.rel.json"
    ok "$name: meta differs in tool alone" python3 -c '
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
a.pop("tool"); b.pop("tool")
sys.exit(a != b)' "$name.meta.rel.json" "$name.meta.dft.json"
    rc 0 dump "$name.dft.blvl" sim
    # every chunk: a zstd frame the tool inflates to the chunk; in a draft, level 1's frame
    python3 chunks.py "$name.dft.blvl" "$name.c." >"$name.chunks" || fail=$((fail+1))
    local t k codec rsz f frames=0 bad=0
    while read -r t k codec rsz f; do
        if [ "$codec" = 1 ]; then
            frames=$((frames+1))
            zstd -qdc "$f" >"$f.out" 2>/dev/null || bad=$((bad+1))
            [ "$(wc -c <"$f.out")" = "$rsz" ] || bad=$((bad+1))
            zstd -q -1 --no-check -c "$f.out" | cmp -s - "$f" || bad=$((bad+1))
        else
            cp "$f" "$f.out"
        fi
    done <"$name.chunks"
    ok "$name: $frames zstd frames, each inflated by zstd -d to its raw size and made by zstd -1" test "$bad" = 0
    ok "$name: the draft has compressed chunks" test "$frames" -gt 0
    while read -r tag; do
        awk -v t="$tag" '$1 == t {print $5 ".out"}' "$name.chunks" | xargs cat >"$name.$tag.inflated" 2>/dev/null
        ok "$name: section $tag: its chunks inflated are its raw bytes" cmp "$name.$tag.inflated" "$name.$tag.dft.bin"
    done <"$name.tags.rel"
    rc 0 diag "$name.dft.blvl" --only D0046
    has out "D0046 warning meta"
    has out "draft"
    rc 0 diag "$name.rel.blvl" --only D0046
    ok "$name: no D0046 on the release bake" test ! -s out
    rc 0 trace "$name.dft.blvl" --from 0 0 0 --to 64 64 64
    rc 0 trace "$name.rel.blvl" --from 0 0 0 --to 64 64 64; cp out "$name.trace.rel"
    rc 0 trace "$name.dft.blvl" --from 0 0 0 --to 64 64 64
    ok "$name: the same trace" cmp out "$name.trace.rel"
    rc 0 export "$name.dft.blvl" -o "$name.dft.glb"
    rc 0 export "$name.rel.blvl" -o "$name.rel.glb"
    ok "$name: the same glTF export but for the identity it names" python3 -c '
import sys
a, b = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
sys.exit(a.replace(sys.argv[3].encode(), sys.argv[4].encode()) != b)' "$name.rel.glb" "$name.dft.glb" "$idr" "$idd"
}

check_level hmap "$src/tests/data/hmap/sample.hmap"
check_level compiled "$src/tests/data/hmap/sample_compiled.hmap"
for f in "$src"/tests/data/subspace/good/*.lvl; do
    check_level "ss_$(basename "$f" .lvl)" "$f"
done

# the diag warning without --only, and its severity counts as a warning
rc 0 diag hmap.dft.blvl
has out "D0046 warning meta"

# the library's field through a recipe: "options --draft"
printf 'blvl-recipe 1\nmap nothing.bsp\noptions --draft --patch-thickness 8\n' >r.recipe
rc 1 bake r.recipe -o r.blvl
ok "a recipe with --draft is parsed (the missing map is the refusal)" grep -q "nothing.bsp" err
printf 'blvl-recipe 1\nmap nothing.bsp\noptions --drafty\n' >r2.recipe
rc 1 bake r2.recipe -o r.blvl
has err "recipe-options"
cli_done test_cli_bake_draft

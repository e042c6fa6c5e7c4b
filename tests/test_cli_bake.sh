#!/usr/bin/env bash
# blvl bake end to end: exit codes, usage errors, format detection, every file of the malformed
# .hmap corpus refused with its message and no output, the bundled sample (reproduced byte for
# byte by tools/hmap_sample), baked, verified, traced, and baked byte-identically again and with
# another thread count.
set -u
blvl=${BLVL_BIN:?}
src=${BLVL_SRC:?}
build=${BLVL_BUILD:?}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
. "${BLVL_SRC:?}/tests/support/cli.sh"
leftovers() { # nothing but the named files in the directory (no temporaries)
    local extra; extra=$(ls -A | grep -vxF -f <(printf '%s\n' "$@" out err) || true)
    if [ -z "$extra" ]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: left behind: $extra"; fi; }

sample=$src/tests/data/hmap/sample.hmap
compiled=$src/tests/data/hmap/sample_compiled.hmap

# ---- the sample is what the program writes ---------------------------------------------------
ok "hmap_make_sample runs" "$build/hmap_make_sample" made.hmap
ok "sample.hmap is the program's output" cmp made.hmap "$sample"
ok "hmap_make_sample --compiled runs" "$build/hmap_make_sample" --compiled made_c.hmap
ok "sample_compiled.hmap is the program's output" cmp made_c.hmap "$compiled"
rm -f made.hmap made_c.hmap

# ---- help and usage ----------------------------------------------------------------------------
rc 0 bake --help
has out "usage: blvl bake INPUT -o OUT.blvl"
rc 2 bake
has err "needs an INPUT"
rc 2 bake "$sample"
has err "needs -o OUT.blvl"
rc 2 bake "$sample" -o a.blvl -o b.blvl
has err "-o given twice"
rc 2 bake "$sample" other.hmap -o a.blvl
rc 2 bake "$sample" -o a.blvl --from doom
has err "--from wants hmap, subspace, riot or q3, not 'doom'"
rc 2 bake "$sample" -o a.blvl --threads x
rc 2 bake "$sample" -o a.blvl --bogus
rc 2 bake "$sample" -o a.blvl --symbols a.blvl
cp "$sample" own.hmap
rc 2 bake own.hmap -o own.hmap
has err "the output would replace the input own.hmap"
rc 2 bake own.hmap -o a.blvl --symbols ./own.hmap
ok "the input is untouched" cmp own.hmap "$sample"
rm -f own.hmap
leftovers

# ---- formats -------------------------------------------------------------------------------------
printf 'SRSC\0\0\0\0' >riot.lvl
printf 'elvl\0\0\0\0' >ss.lvl
printf 'BM\0\0\0\0\0\0' >ssbm.lvl
printf 'IBSP\x2e\0\0\0' >q3.bsp
printf 'PK\x03\x04\0\0\0\0' >maps.pk3
printf '\x05\x00\x00\x01' >tiles.lvl # x 5, y 0, tile 1: a bare tile record
printf '\xff\xff\xff\xff' >junk.lvl # x 4095: no tile record
printf 'hello world, not a map' >text.txt
printf 'HMAQ\1\0\0\0\1\0\0\0' >damaged.hmap
: >empty.bin
rc 1 bake riot.lvl -o o.blvl
has err "blvl: riot.lvl: SRSC: dirOffset at offset 6: header-size: the file has 8 bytes, the header needs 12"
# Subspace: the reader's own refusals (elvl and BM starts cut short), nothing written
rc 1 bake ss.lvl -o o.blvl
has err "blvl: ss.lvl: eLVL: header at offset 0: elvl-header:"
none o.blvl
rc 1 bake ssbm.lvl -o o.blvl
has err "blvl: ssbm.lvl: BMP: headers at offset 0: bmp-header:"
none o.blvl
# Quake 3: the .bsp reader's own refusal (cut short), the zip reader's
rc 1 bake q3.bsp -o o.blvl
has err "blvl: q3.bsp: header: lumps at offset 8: header-size: the file has 8 bytes"
rc 1 bake maps.pk3 -o o.blvl
has err "blvl: maps.pk3: archive maps.pk3: central directory at offset 0: zip: "
none o.blvl
rc 0 bake tiles.lvl -o o.blvl
has out "baked o.blvl: 1 colliders"
rm -f o.blvl
rc 1 bake junk.lvl -o o.blvl
has err "blvl: junk.lvl: unknown-format: starts with bytes ff ff ff ff, which is no format"
rc 1 bake text.txt -o o.blvl
has err "starts with bytes 68 65 6c 6c ..."
# --from subspace reads anything as bare tile records: of the five whole records only " a m"
# (tile 109 at x 288, y 518: a wall) has both coordinates at most 1023
rc 0 bake text.txt -o o.blvl --from subspace
has out "baked o.blvl: 1 colliders"
rm -f o.blvl
rc 1 bake empty.bin -o o.blvl
has err "unknown-format: is empty"
# --from hmap reads anything as .hmap: its reader refuses the magic
rc 1 bake text.txt -o o.blvl --from hmap
has err "blvl: text.txt: header: magic at offset 0: magic:"
# a .hmap by name whose bytes are not one: the reader's refusal, not "unknown format"
rc 1 bake damaged.hmap -o o.blvl
has err 'blvl: damaged.hmap: header: magic at offset 0: magic: "HMAQ" is not "HMAP"'
rc 1 bake missing.hmap -o o.blvl
none o.blvl
# Small inputs (issue 28, 7). A .lvl too short for one tile record is a Subspace map of no tiles
# (docs/IMPORT-SUBSPACE.md: an empty file; 1 to 3 bytes a partial record, ignored); only the
# start of "SRSC" goes to the Riot reader, which says the header is cut short.
rc 0 bake "$src/tests/data/subspace/good/empty.lvl" -o o.blvl
has out "baked o.blvl: 0 colliders, 0 planes, 0 triangles, 0 batches"
rc 0 ls o.blvl
has out "meta "
has out "sim "
rm -f o.blvl
printf 'ab' >short.lvl
rc 0 bake short.lvl -o o.blvl
has out "baked o.blvl: 0 colliders"
rm -f o.blvl
printf 'SRS' >short.lvl
rc 1 bake short.lvl -o o.blvl
has err "blvl: short.lvl: SRSC: magic at offset 0: header-size: the file has 3 bytes, the header needs 12"
none o.blvl
# A map just created in the editor: header flags bit 0 (source) and only META. It bakes to meta,
# an empty sim and no geometry.
rc 0 bake "$src/tests/data/hmap/good/new_map.hmap" -o o.blvl
has out "baked o.blvl: 0 colliders, 0 planes, 0 triangles, 0 batches, 0 materials, 0 entities"
rc 0 ls o.blvl
has out "meta "
has out "sim "
if grep -q "^geometry " out; then fail=$((fail+1)); echo "FAIL: new_map has geometry"; else pass=$((pass+1)); fi
rc 0 dump o.blvl sim
has out "{}"
rc 0 dump o.blvl meta
has out '"engine": "Hmap"'
rm -f o.blvl
rm -f riot.lvl ss.lvl ssbm.lvl q3.bsp maps.pk3 tiles.lvl junk.lvl text.txt empty.bin damaged.hmap short.lvl
leftovers

# ---- the malformed corpus: each refused with its message, exit 1, nothing written ------------------
bad=$src/tests/data/hmap/bad
n=0
if [ -f "$bad/expected.tsv" ]; then
    while IFS=$'\t' read -r name message; do
        [ -n "$name" ] || continue
        n=$((n+1))
        rc 1 bake "$bad/$name.hmap" -o out.blvl --symbols out.bsym
        has err "blvl: $bad/$name.hmap: $message"
        none out.blvl
        none out.bsym
    done <"$bad/expected.tsv"
fi
ok "the malformed corpus has files" test "$n" -gt 0
leftovers

# ---- a refusal of the bake itself (not the reader) leaves nothing ------------------------------
# unitsPerMeter 0 in META: a file the reader takes and the bake refuses
python3 - "$sample" zero.hmap <<'EOF'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
assert d[12:16] == b"META"
name = struct.unpack_from("<I", d, 20)[0]
off = 20 + 4 + name + 12 + 4
struct.pack_into("<f", d, off, 0.0)
open(sys.argv[2], "wb").write(d)
EOF
rc 1 bake zero.hmap -o out.blvl --symbols out.bsym
has err "blvl: zero.hmap: META: unitsPerMeter at offset 69: units-per-meter: 0 is not a positive finite number"
none out.blvl
none out.bsym
rm -f zero.hmap
leftovers

# ---- the sample --------------------------------------------------------------------------------
rc 0 bake "$sample" -o s.blvl --symbols s.bsym
has out "baked s.blvl: 48 colliders"
rc 0 verify s.blvl
rc 0 dump s.blvl meta
has out '"engine": "Hmap"'
has out '"name": "Rockgrave sample: three rooms"'
# the symbols read back: they name this level, every collider, every triangle run; 26 brushes,
# 2 meshes, 26 x 6 faces and 6 + 11 mesh polygons are sources
rc 0 identity s.blvl
cp out ident
rc 0 dump s.bsym bsym
ok "the .bsym names the level and its sources" python3 - out ident <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
ident = open(sys.argv[2]).read().strip()
assert bytes(d["level"]).hex() == ident, "identity"
assert d["version"] == 1
assert len(d["colliders"]) == 48
src = d["sources"]
assert len(src) == 26 + 2 + 26 * 6 + 17, len(src)
assert all(c < len(src) for c in d["colliders"])
assert all(r["source"] < len(src) for r in d["tri_runs"])
assert [m["name"] for m in d["materials"]][4] == "liquid/water"
assert d["materials"][4]["texture"] == "textures/liquid/water.png"
kinds = [s.get("kind", "Brush") for s in src]
assert kinds.count("Brush") == 26 and kinds.count("Prop") == 2 and kinds.count("Face") == 173
EOF2
rm -f ident
# entities verbatim, "origin" (qu), "angles" and "scale" first; the origin reads back as the
# float the bake placed the spawn at
rc 0 dump s.blvl entities
ok "entities: every one, origin in qu first, pairs verbatim" python3 - out <<'EOF2'
import json, struct, sys
e = json.load(open(sys.argv[1]))["entities"]
assert len(e) == 13
f = lambda v: struct.unpack("<f", struct.pack("<f", v))[0]
spawn = e[10]
assert spawn["classname"] == "info_player_start"
assert [p["key"] for p in spawn["pairs"]] == ["origin", "angles", "scale"]
got = [f(float(x)) for x in spawn["pairs"][0]["value"].split()]
assert got == [f(1 / 0.0254), f(0.75 / 0.0254), f(7 / 0.0254)], got
door = e[1]
assert door["classname"] == "func_door"
assert [(p["key"], p["value"]) for p in door["pairs"][3:]] == [
    ("targetname", "gate"), ("angle", "-1"), ("lip", "0.125"), ("speed", "2"), ("wait", "4")]
EOF2
# a player box dropped onto room A's floor (y 0) stops 1/32 above it: origin y = 24 + 1/32
rc 0 trace s.blvl --box -16 -24 -16 16 32 16 --from 40 100 40 --to 40 -100 40
has out "end 40 24.03125 40"
has out "normal 0 1 0"
# the water of the pool, the clip brush
rc 0 trace s.blvl --water 137.79 10 137.79 --contents 600 50 275
has out "water at 137.79 10 137.79 inside 1 material 4"
has out "flags 0x30 clip,shot-through"
# the same again, with other thread counts: the same bytes
rc 0 bake "$sample" -o s2.blvl --symbols s2.bsym --threads 1
rc 0 bake "$sample" -o s3.blvl --symbols s3.bsym --threads 2
ok "two bakes are byte-identical" cmp s.blvl s2.blvl
ok "--threads 1 and 2 give the same level" cmp s2.blvl s3.blvl
ok "--threads 1 and 2 give the same symbols" cmp s2.bsym s3.bsym
# the compiled-only sample
rc 0 bake "$compiled" -o c.blvl --threads 1
has out "baked c.blvl: 48 colliders"
rc 0 verify c.blvl
rc 0 trace c.blvl --box -16 -24 -16 16 32 16 --from 40 100 40 --to 40 -100 40
has out "end 40 24.03125 40"
leftovers s.blvl s.bsym s2.blvl s2.bsym s3.blvl s3.bsym c.blvl

# ---- the sample's overview camera frames the rooms ------------------------------------------
# (issue 28: it faced a wall 21 qu away, so `blvl view` and `probe --camera overview` showed one
# flat colour.) From both files its view ray runs far down the row of rooms, and its picture holds
# several surfaces: at least four hues, each over 2% of the pixels.
for lv in s c; do
    rc 0 probe $lv.blvl --camera overview --png $lv.png --size 160x120
    dist=$(awk '$1 == "geometry" { for (i = 1; i < NF; i++) if ($i == "distance") print $(i+1) }' out)
    if awk -v d="$dist" 'BEGIN { exit !(d > 400) }'; then pass=$((pass+1)); else
        fail=$((fail+1)); echo "FAIL: $lv: the overview camera's view ends ${dist:-nowhere} qu away"; fi
    if /usr/bin/python3 - $lv.png <<'PYEOF'
import colorsys, sys
from PIL import Image
im = Image.open(sys.argv[1]).convert("RGB")
px = list(im.getdata())
hues = {}
for r, g, b in px:
    h, s, v = colorsys.rgb_to_hsv(r / 255, g / 255, b / 255)
    key = "dark" if v < 0.15 else ("grey" if s < 0.15 else int(h * 12) % 12)
    hues[key] = hues.get(key, 0) + 1
big = [k for k, n in hues.items() if n > 0.02 * len(px)]
print(sorted(map(str, big)))
sys.exit(0 if len(big) >= 4 else 1)
PYEOF
    then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $lv: the overview camera sees one or two surfaces"; fi
    rm -f $lv.png
done

cli_done test_cli_bake

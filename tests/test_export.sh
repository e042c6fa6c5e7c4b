#!/usr/bin/env bash
# blvl export (docs/EXPORT.md) checked by programs we did not write: the Khronos glTF-Validator
# (npm gltf-validator, installed into the build folder by scripts/gltf-validator.sh) must find
# zero errors, and only the warnings docs/EXPORT.md lists, in the export of the default level,
# the bundled .hmap samples, the Subspace, Riot and Quake 3 test levels and stock OpenArena maps;
# tests/support/glb_check.py (Python's json and struct) reads each .glb back against flatc's JSON
# of the level's geometry and sim (triangles, indices, positions converted back, materials,
# colliders). Hostile levels (the open/read fuzz corpora, the geometry corpus packed into levels,
# and levels with one rule broken each) either export to a file the validator passes or are
# refused with one line naming the rule, leaving no output (an existing file is kept).
# Skips (77) without node, the installed validator or flatc.
set -u
. "${BLVL_SRC:?}/tests/support/cli.sh"
cli_workdir
. "${BLVL_SRC:?}/tests/support/browser.sh"
validator_needed test_export
warnings_doc=$src/docs/EXPORT.md

# ---- the levels -------------------------------------------------------------------------
mkdir lv
args=()
while read -r tag; do
    [ -f "$src/tests/data/sections/$tag.json" ] && args+=("$tag=$src/tests/data/sections/$tag.json")
done <"$src/schema/core_tags.txt"
ok "pack the default level" "$blvl" pack -o lv/default.blvl "${args[@]}"
for f in "$src"/tests/data/hmap/sample.hmap "$src"/tests/data/hmap/sample_compiled.hmap \
         "$src"/tests/data/hmap/good/*.hmap "$src"/tests/data/subspace/good/*.lvl \
         "$src"/tests/data/riot/good/*.lvl; do
    kind=$(basename "$(dirname "$f")")
    [ "$kind" = good ] && kind=$(basename "$(dirname "$(dirname "$f")")")
    name=${kind}_$(basename "${f%.*}")
    "$blvl" bake "$f" -o "lv/$name.blvl" >/dev/null 2>&1 || rm -f "lv/$name.blvl"
done
python3 "$src/tests/data/q3/make_bsp.py" q3 >/dev/null || echo "FAIL: make_bsp.py"
ok "bake the Quake 3 test room" "$blvl" bake q3/good.pk3 -o lv/q3_good.blvl
oa=${BLVL_Q3_BASEOA:-/usr/share/games/openarena/baseoa}
stock=${BLVL_EXPORT_MAPS:-oa_ctf2 q3dm6ish oa_dm1}
[ -n "${BLVL_SANITIZED:-}" ] && stock=${BLVL_EXPORT_MAPS:-oa_ctf2}
if [ -f "$oa/pak1-maps.pk3" ]; then
    for m in $stock; do
        ok "bake $m" "$blvl" bake "$oa/pak1-maps.pk3" --map "$m" --pk3 "$oa" -o "lv/oa_$m.blvl"
    done
else
    echo "test_export: note: no OpenArena maps ($oa), stock maps not exported"
fi
# A Subspace map of 150 x 150 drawn tiles (bare records): 90,000 vertices, past what
# UNSIGNED_SHORT indices can number, every vertex white and without a lightmap uv.
python3 - big.lvl <<'PY'
import struct, sys
with open(sys.argv[1], "wb") as f:
    for y in range(150):
        for x in range(150):
            f.write(struct.pack("<I", x | y << 12 | (1 + (x * 7 + y * 13) % 190) << 24))
PY
ok "bake a map of 22,500 tiles" "$blvl" bake big.lvl --draft -o lv/subspace_big.blvl
n=$(ls lv/*.blvl | wc -l)
[ "$n" -ge 10 ] || { echo "FAIL: only $n test levels baked"; fail=$((fail+1)); }

# ---- export, validate, read back ----------------------------------------------------------
mkdir glb flat
for l in lv/*.blvl; do
    b=$(basename "${l%.blvl}")
    rc 0 export "$l" -o "glb/$b.glb" --collision
    "$blvl" cat "$l" geometry >flat/g.bin 2>/dev/null || : >flat/g.bin
    "$blvl" cat "$l" sim >flat/s.bin
    (cd flat && rm -f g.json s.json &&
        flatc --json --strict-json --raw-binary --defaults-json "$src/schema/sim.fbs" -- s.bin &&
        if [ -s g.bin ]; then
            flatc --json --strict-json --raw-binary --defaults-json "$src/schema/geometry.fbs" -- g.bin
        else echo '{}' >g.json; fi) || echo "FAIL: flatc on $l"
    ok "read back $b" python3 "$src/tests/support/glb_check.py" "glb/$b.glb" flat/g.json flat/s.json
    python3 "$src/tests/support/glb_check.py" "glb/$b.glb" flat/g.json flat/s.json | grep FAIL
done
# The .gltf form of one level: JSON and .bin beside it.
rc 0 export lv/hmap_sample.blvl --gltf gltf
ok "gltf files" test -s gltf/hmap_sample.gltf -a -s gltf/hmap_sample.bin
# --symbols: each batch's triangle runs and each collider carry their .bsym source in extras.
ok "bake the test room with symbols" "$blvl" bake q3/good.pk3 -o sym.blvl --symbols sym.bsym
rc 0 export sym.blvl -o glb/q3_symbols.glb --collision --symbols sym.bsym
ok "sources in the extras" python3 - glb/q3_symbols.glb <<'PY'
import json, struct, sys
b = open(sys.argv[1], 'rb').read()
n, = struct.unpack_from('<I', b, 12)
doc = json.loads(b[20:20 + n])
found = {'run': set(), 'collider': set()}
def walk(v):
    if isinstance(v, dict):
        s = v.get('symbols')
        if isinstance(s, list):
            found['run'].update(r.get('kind') for r in s if 'index' in r)
        elif isinstance(s, dict):
            found['collider'].add(s.get('kind'))
        for x in v.values(): walk(x)
    elif isinstance(v, list):
        for x in v: walk(x)
walk(doc)
print(found)
sys.exit(0 if found['run'] & {'face', 'patch'} and 'brush' in found['collider'] else 1)
PY
rc 0 export lv/q3_good.blvl -o glb/q3_nosym.glb
ok "no sources without --symbols" sh -c '! grep -q "\"symbols\"" glb/q3_nosym.glb'
rc 1 export lv/hmap_sample.blvl -o stale.glb --symbols sym.bsym
ok "a stale .bsym writes nothing" test ! -e stale.glb
validate glb/*.glb gltf/hmap_sample.gltf >report.txt
vrc=$?
grep -E '^  warning ' report.txt | head -20
grep -E ' errors [1-9]|^  error ' report.txt | head -20
[ $vrc = 0 ] && pass=$((pass+1)) || { fail=$((fail+1)); echo "FAIL: the validator found errors"; }
# Every warning the validator gave is listed in docs/EXPORT.md with its reason.
for code in $(awk '$1 == "warning" {print $2}' report.txt | sort -u); do
    has "$warnings_doc" "\`$code\`"
done
has report.txt "glb/oa_${stock%% *}.glb errors 0" 2>/dev/null || :

# ---- hostile levels -------------------------------------------------------------------------
mkdir bad
i=0
for f in "$src"/fuzz/corpus/open/* "$src"/fuzz/corpus/read/*; do
    cp "$f" "bad/corpus$i.blvl"; i=$((i+1))
done
for f in "$src"/fuzz/corpus/fb_geometry/*; do # geometry payloads packed into levels
    "$blvl" pack -o "bad/geo$i.blvl" "meta=$src/tests/data/sections/meta.json" \
        "sim=$src/tests/data/sections/sim.json" "geometry=$f" >/dev/null 2>&1 || :
    i=$((i+1))
done
# One rule broken each (expected rule in the file name): geometry.json and cameras.json mutated.
python3 - "$src/tests/data/sections" bad <<'PY'
import json, sys, copy
d, out = sys.argv[1], sys.argv[2]
g = json.load(open(d + "/geometry.json"))
for m in g["materials"]:  # no textures section in these levels: no texture references
    m.pop("texture", None)
    m.get("pbr", {}).pop("maps", None)
    m.get("shading", {}).pop("lightwarp", None)
    m.get("shading", {}).get("anim", {}).pop("frames", None)
def put(name, obj):
    json.dump(obj, open("%s/%s.json" % (out, name), "w"))
x = copy.deepcopy(g); x["batches"][0]["material"] = 99; put("index-range_material", x)
x = copy.deepcopy(g); x["indices"][5] = 9999; put("index-range_vertex", x)
x = copy.deepcopy(g); x["batches"][0]["first_index"] = 3 * 1000; put("index-range_batch", x)
x = copy.deepcopy(g); x["batches"][0]["index_count"] = 4; put("index-range_partial", x)
x = copy.deepcopy(g); x["materials"][0]["texture"] = 77; put("index-range_texture", x)
x = copy.deepcopy(g); x["vertices"][2]["position"]["y"] = "nan"; put("non-finite_vertex", x)
c = json.load(open(d + "/cameras.json"))
c["cameras"][0]["fov_x"] = 0; put("camera-fov_cameras", c)
PY
sed -i 's/"nan"/nan/' bad/non-finite_vertex.json
for j in bad/*_*.json; do
    b=$(basename "${j%.json}")
    tag=geometry
    [ "${b#*_}" = cameras ] && tag=cameras
    (cd bad && flatc -b --strict-json "$src/schema/$tag.fbs" "$b.json" 2>/dev/null || flatc -b "$src/schema/$tag.fbs" "$b.json") ||
        echo "FAIL: flatc -b $b"
    "$blvl" pack -o "bad/$b.blvl" "meta=$src/tests/data/sections/meta.json" \
        "sim=$src/tests/data/sections/sim.json" "$tag=bad/$b.bin" >/dev/null 2>err ||
        echo "FAIL: pack $b: $(cat err)"
done
for l in bad/*.blvl; do
    b=$(basename "${l%.blvl}")
    printf 'keep' >keep.glb
    "$blvl" export "$l" -o keep.glb >out 2>err
    r=$?
    if [ $r = 0 ]; then # exported: then it must validate (below, all at once)
        mkdir -p badglb && mv keep.glb "badglb/$b.glb"
        pass=$((pass+1))
    elif [ $r = 1 ]; then
        pass=$((pass+1))
        [ "$(wc -l <err)" = 1 ] && grep -q "^blvl: $l: " err || { fail=$((fail+1)); echo "FAIL: $b: not one line: $(cat err)"; }
        [ "$(cat keep.glb)" = keep ] || { fail=$((fail+1)); echo "FAIL: $b: the existing output was touched"; }
        ls | grep -q "^keep.glb.tmp" && { fail=$((fail+1)); echo "FAIL: $b left a temporary"; }
        case $b in *_*) rule=${b%%_*}; grep -q "export: $rule: " err || { fail=$((fail+1)); echo "FAIL: $b: not refused as $rule: $(cat err)"; };; esac
    else
        fail=$((fail+1)); echo "FAIL: $b: export exited $r: $(cat err)"
    fi
    case $b in *_*) [ $r = 1 ] || { fail=$((fail+1)); echo "FAIL: $b was not refused"; };; esac
done
if [ -d badglb ]; then
    validate badglb/*.glb >v.txt || { fail=$((fail+1)); echo "FAIL: a hostile level exported a file with errors"; grep -v ' errors 0 ' v.txt | head; }
fi
rc 1 export bad/index-range_material.blvl -o fresh.glb
none fresh.glb

# ---- usage ----------------------------------------------------------------------------------
rc 2 export lv/default.blvl
rc 2 export -o x.glb
rc 0 export --help
has out "blvl export"
cli_done test_export

#!/usr/bin/env bash
# blvl export --acoustics (docs/EXPORT.md, "Acoustics"): the acoustics section as a scene of its
# own, checked by the Khronos glTF-Validator (zero errors, zero warnings) and read back by
# Python against flatc's JSON of the section: one POINTS primitive of a probe per vertex at
# its position in metres, coloured by room (one colour per room, rooms told apart), its room in
# _ROOM; one line per pair of probes, open ones and narrow ones in primitives of their own,
# door lines in their door's colour and the rest grey; each room's figures in the extras.
# On the default test level (tests/data/sections) and on a baked .hmap sample with a hand-made
# section packed onto it (tests/support/acoustics_levels.py). No section or no --acoustics: no
# scene. A hostile section is refused naming its rule, nothing written.
# Skips (77) without node, the installed validator or flatc.
set -u
. "${BLVL_SRC:?}/tests/support/cli.sh"
cli_workdir
. "${BLVL_SRC:?}/tests/support/browser.sh"
validator_needed test_export_acoustics
levels=$src/tests/support/acoustics_levels.py

# ---- the levels ---------------------------------------------------------------------------
args=()
while read -r tag; do
    [ -f "$src/tests/data/sections/$tag.json" ] && args+=("$tag=$src/tests/data/sections/$tag.json")
done <"$src/schema/core_tags.txt"
ok "pack the default level" "$blvl" pack -o default.blvl "${args[@]}"
ok "bake the .hmap sample" "$blvl" bake "$src/tests/data/hmap/sample.hmap" -o hmap.blvl --no-acoustics
ok "a correct section for it" python3 "$levels" correct "$blvl" hmap.blvl hmap_ac.json
ok "packed onto it" python3 "$levels" onto "$blvl" hmap.blvl hmap_ac.json hmap_ac.blvl

# check GLB LEVEL: the acoustics scene of GLB against LEVEL's section (flatc's JSON).
check() {
    "$blvl" cat "$2" acoustics >ac.bin &&
        flatc --json --strict-json --raw-binary --defaults-json "$src/schema/acoustics.fbs" -- ac.bin &&
        python3 - "$1" ac.json <<'PY'
import json, math, struct, sys
b = open(sys.argv[1], 'rb').read()
n, = struct.unpack_from('<I', b, 12)
doc = json.loads(b[20:20 + n])
binary = b[20 + n + 8:]
ac = json.load(open(sys.argv[2]))
probes, edges, rooms = ac["probes"], ac["edges"], ac["rooms"]
def read(i):
    a = doc["accessors"][i]
    v = doc["bufferViews"][a["bufferView"]]
    comps = {"SCALAR": 1, "VEC3": 3}[a["type"]]
    assert a["componentType"] == 5126
    off = v.get("byteOffset", 0) + a.get("byteOffset", 0)
    stride = v.get("byteStride", 4 * comps)
    return [struct.unpack_from('<%df' % comps, binary, off + k * stride) for k in range(a["count"])]
(scene,) = [s for s in doc["scenes"] if s["name"] == "acoustics"]
assert doc["scene"] == 0 and doc["scenes"][0]["name"] == "level"
nodes = [doc["nodes"][i] for i in scene["nodes"]]
kinds = [nd["extras"]["blvl"]["kind"] for nd in nodes]
assert kinds == ["acoustic-probes", "acoustic-edges"], kinds
pn, en = nodes
(prim,) = doc["meshes"][pn["mesh"]]["primitives"]
assert prim["mode"] == 0, prim
pos, col, room = (read(prim["attributes"][k]) for k in ("POSITION", "COLOR_0", "_ROOM"))
assert len(pos) == len(probes) == pn["extras"]["blvl"]["probes"], (len(pos), len(probes))
colour_of = {}
for i, p in enumerate(probes):
    q = p["position"]
    for a, k in enumerate("xyz"):
        assert abs(pos[i][a] - q[k] * 0.0254) < 1e-5, (i, pos[i], q)
    assert room[i][0] == p["room"], (i, room[i], p)
    colour_of.setdefault(p["room"], col[i])
    assert col[i] == colour_of[p["room"]], "probe %d: not its room's colour" % i
assert len(set(colour_of.values())) == len(colour_of), "two rooms share a colour"
xr = pn["extras"]["blvl"]["rooms"]
assert len(xr) == len(rooms)
for r, (x, want) in enumerate(zip(xr, rooms)):
    assert x["index"] == r and x["outdoor"] == want.get("outdoor", False), (x, want)
    assert abs(x["rt60_s"] - want["rt60_s"]) < 1e-6 and abs(x["damping"] - want["damping"]) < 1e-6
    if r in colour_of:
        assert all(abs(a - b) < 1e-6 for a, b in zip(x["color"], colour_of[r])), (x, colour_of[r])
# the lines: each pair once, from the lower probe; open and narrow apart; doors coloured
want = {False: [], True: []}
for p, pr in enumerate(probes):
    end = probes[p + 1]["first_edge"] if p + 1 < len(probes) else len(edges)
    for e in edges[pr["first_edge"]:end]:
        if e["to"] > p:
            want[e["narrow"]].append((p, e["to"], e["door"]))
got = {False: [], True: []}
grey = (0.5, 0.5, 0.5)
door_colour = {}
for prim in doc["meshes"][en["mesh"]]["primitives"]:
    assert prim["mode"] == 1
    narrow = prim["extras"]["blvl"]["narrow"]
    mat = doc["materials"][prim["material"]]["name"]
    assert mat == ("blvl acoustic narrow edges" if narrow else "blvl acoustic edges"), mat
    lp, lc = read(prim["attributes"]["POSITION"]), read(prim["attributes"]["COLOR_0"])
    for k in range(0, len(lp), 2):
        ends = []
        for v in (lp[k], lp[k + 1]):
            (i,) = [i for i, q in enumerate(pos) if q == v]
            ends.append(i)
        assert lc[k] == lc[k + 1]
        got[narrow].append((ends[0], ends[1], lc[k]))
for narrow in (False, True):
    assert len(got[narrow]) == len(want[narrow]), (narrow, got[narrow], want[narrow])
    for (p, q, door), (gp, gq, c) in zip(sorted(want[narrow]), sorted(got[narrow])):
        assert (p, q) == (gp, gq), ((p, q), (gp, gq))
        if door == 65535:
            assert all(abs(a - b) < 1e-6 for a, b in zip(c, grey)), c
        else:
            assert c != grey
            assert door_colour.setdefault(door, c) == c, "door %d in two colours" % door
assert len(set(door_colour.values())) == len(door_colour), "two doors share a colour"
x = en["extras"]["blvl"]
assert x["edges"] == len(edges) and x["lines"] == len(want[False]) + len(want[True])
assert x["narrow"] == len(want[True])
assert x["door"] == sum(1 for w in want.values() for e in w if e[2] != 65535)
print("acoustics scene: %d probes, %d rooms, %d lines (%d narrow, %d through doors)" %
      (len(pos), len(rooms), x["lines"], x["narrow"], x["door"]))
PY
}
mkdir glb
for l in default hmap_ac; do
    rc 0 export $l.blvl -o glb/$l.glb --acoustics
    ok "$l: the acoustics scene matches the section" check glb/$l.glb $l.blvl
    check glb/$l.glb $l.blvl | grep -v "^acoustics scene" | head -5
done
# with the colliders too: the scenes are level, collision, acoustics
rc 0 export default.blvl -o glb/both.glb --acoustics --collision
ok "level, collision, acoustics" python3 -c '
import json, struct, sys
b = open("glb/both.glb", "rb").read(); n, = struct.unpack_from("<I", b, 12)
assert [s["name"] for s in json.loads(b[20:20 + n])["scenes"]] == ["level", "collision", "acoustics"]'
rc 0 export default.blvl --gltf gltf --acoustics
validate glb/*.glb gltf/default.gltf >report.txt
vrc=$?
grep -E '^  (warning|error) ' report.txt | head -20
ok "the validator: no error" test $vrc = 0
ok "the validator: no warning" sh -c '! grep -q "^  warning " report.txt'
ok "the validator read every file" test "$(grep -c ' errors 0 warnings 0 ' report.txt)" = 4
# no --acoustics, or no section: no scene, and the file is what it was without the option
rc 0 export default.blvl -o plain.glb
ok "no --acoustics: no acoustics scene" sh -c '! grep -q "acoustic" plain.glb'
rc 0 export hmap.blvl -o a.glb --acoustics
rc 0 export hmap.blvl -o b.glb
ok "a level without the section: the same file with --acoustics" cmp a.glb b.glb

# ---- hostile sections: refused, naming the rule, nothing written --------------------------
python3 - "$src/tests/data/sections/acoustics.json" <<'PY'
import copy, json, sys
a = json.load(open(sys.argv[1]))
def put(name, edit):
    x = copy.deepcopy(a)
    edit(x)
    json.dump(x, open(name + ".json", "w"))
put("index-range_room", lambda x: x["probes"][1].update(room=9))
put("index-range_to", lambda x: x["edges"][3].update(to=40))
put("index-range_first", lambda x: x["probes"][2].update(first_edge=1))
put("index-range_start", lambda x: x["probes"][0].update(first_edge=1))
put("index-range_past", lambda x: x["probes"][3].update(first_edge=99))
put("non-finite_probe", lambda x: x["probes"][2]["position"].update(y="inf"))
put("non-finite_room", lambda x: x["rooms"][1].update(rt60_s="nan"))
PY
sed -i 's/"inf"/inf/; s/"nan"/nan/' non-finite_*.json
for j in index-range_*.json non-finite_*.json; do
    b=${j%.json}
    if ! flatc -b "$src/schema/acoustics.fbs" "$j" 2>err; then
        fail=$((fail+1)); echo "FAIL: flatc $j: $(cat err)"; continue
    fi
    ok "pack $b" "$blvl" pack -o "$b.blvl" "meta=$src/tests/data/sections/meta.json" \
        "sim=$src/tests/data/sections/sim.json" "acoustics=bin:$b.bin"
    printf keep >keep.glb
    rc 1 export "$b.blvl" -o keep.glb --acoustics
    has err "export: ${b%%_*}: acoustics."
    ok "$b: one line" test "$(wc -l <err)" = 1
    ok "$b: the existing file kept" test "$(cat keep.glb)" = keep
    rc 0 export "$b.blvl" -o fine.glb # without --acoustics the section is not read
done
cli_done test_export_acoustics

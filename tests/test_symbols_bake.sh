#!/usr/bin/env bash
# The .bsym each importer's bake writes (blvl bake --symbols), read back by the symbols API
# (tests/test_symbols_read.c LEVEL BSYM: the invariants pass, the lookups agree with the level):
# the hmap sample, a Subspace map, a Riot level and the Quake 3 room of make_bsp.py. Then a level
# edited outside identity (blvl put LEVEL extra.tag FILE) still matches its .bsym, another bake's
# .bsym is stale (and read with BLVL_SYMBOLS_READ_STALE says so), and flatc decodes both a baked
# .bsym (checked against `blvl dump` of its level in Python) and one blvl_symbols_write made. Each
# bake's geometry section (its vertices streamed, the Riot terrain's made when written) is decoded
# by flatc too, and must equal our reader's dump of it; so is a sim section written in runs.
set -u
. "${BLVL_SRC:?}/tests/support/cli.sh"
cli_workdir
reader=${BLVL_BUILD:?}/test_symbols_read
[ -x "$reader" ] || { echo "no $reader"; exit 1; }
command -v flatc >/dev/null || { echo "flatc missing: skipped"; exit 77; }

python3 "$src/tests/data/q3/make_bsp.py" q3 >/dev/null || { echo "make_bsp.py failed"; exit 1; }
sub=$(ls "$src"/tests/data/subspace/good/*.lvl | head -n 1)
declare -A maps=(
    [hmap]="$src/tests/data/hmap/sample.hmap"
    [subspace]="$sub"
    [riot]="$src/tests/data/riot/good/basic.lvl"
    [q3]="q3/good.bsp"
)
for name in hmap subspace riot q3; do
    rc 0 bake "${maps[$name]}" -o "$name.blvl" --symbols "$name.bsym"
    loose=; [ $name = riot ] && loose=1 # a Riot face's two triangles may draw two materials
    if SYMBOLS_FACE_MATERIALS_MAY_DIFFER=$loose "$reader" "$name.blvl" "$name.bsym" >log 2>&1; then pass=$((pass+1)); else
        fail=$((fail+1)); echo "FAIL: $name: .bsym read back against its level:"; head -n 20 log; fi
    # independent: flatc's decoding against blvl dump's JSON of the level
    flatc --json --strict-json --raw-binary -o . "$src/schema/bsym.fbs" -- "$name.bsym" ||
        { fail=$((fail+1)); echo "FAIL: flatc cannot decode $name.bsym"; continue; }
    "$blvl" dump "$name.blvl" sim >"$name.sim.json"
    "$blvl" dump "$name.blvl" geometry >"$name.geo.json" 2>/dev/null || echo '{}' >"$name.geo.json"
    # the geometry section's bytes (the vertices streamed after the builder's part) decoded by
    # flatc, against our reader's dump of them in the check below
    "$blvl" cat "$name.blvl" geometry >"$name.geometry.bin" &&
        flatc --json --strict-json --raw-binary -o . "$src/schema/geometry.fbs" -- "$name.geometry.bin" ||
        { fail=$((fail+1)); echo "FAIL: flatc cannot decode $name's geometry section"; continue; }
    if /usr/bin/python3 - "$name" <<'PY'; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $name.bsym against its level (Python)"; fi
import json, sys
n = sys.argv[1]
b = json.load(open(n + ".json"))
sim = json.load(open(n + ".sim.json"))
geo = json.load(open(n + ".geo.json"))
assert b["version"] == 1, b.get("version")
assert len(b["level"]) == 16
cols = b.get("colliders", [])
assert len(cols) == len(sim.get("colliders", [])), (len(cols), len(sim.get("colliders", [])))
nsrc = len(b.get("sources", []))
nmat = len(b.get("materials", []))
assert all(c == 0xFFFFFFFF or c < nsrc for c in cols)
runs = b.get("tri_runs", [])
tris = len(geo.get("indices", [])) // 3
if runs:
    firsts = [r.get("first_tri", 0) for r in runs]
    assert firsts[0] == 0 and all(a < b for a, b in zip(firsts, firsts[1:])), firsts[:8]
    assert firsts[-1] < tris, (firsts[-1], tris)
else:
    assert tris == 0
for s in b.get("sources", []):
    m = s.get("material", 0)
    assert m == 0xFFFFFFFF or m < nmat
fg = json.load(open(n + ".geometry.json"))
assert fg.get("indices", []) == geo.get("indices", []), "flatc's indices differ from ours"
fv, ov = fg.get("vertices", []), geo.get("vertices", [])
assert len(fv) == len(ov) > 0, (len(fv), len(ov))
def close(a, b):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(close(a[k], b[k]) for k in a)
    return abs(a - b) <= 1e-5 * max(1.0, abs(a), abs(b))
bad = [i for i, (a, b) in enumerate(zip(fv, ov)) if not close(a, b)]
assert not bad, ("vertices differ", bad[:4], fv[bad[0]], ov[bad[0]])
gm = len(geo.get("materials", []))
for m in b.get("materials", []):
    k = m.get("baked", 0xFFFFFFFF)
    assert k == 0xFFFFFFFF or k < gm, (k, gm)
PY
done

# an edit outside identity keeps the identity: the .bsym still matches
printf 'not in identity' >extra.bin
rc 0 put hmap.blvl extra.tag extra.bin
rc 0 cat hmap.blvl extra.tag
ok "edited level still matches its .bsym" "$reader" hmap.blvl hmap.bsym
# another level's .bsym is stale
ok "another bake's .bsym is stale" "$reader" --stale q3.blvl hmap.bsym
ok "and the other way round" "$reader" --stale hmap.blvl riot.bsym
# the same map baked again names the same level
rc 0 bake "${maps[hmap]}" -o again.blvl --symbols again.bsym
ok "a rebake of the same map gives the same .bsym" cmp again.bsym hmap.bsym

# blvl_symbols_write's own bytes, decoded by flatc
(cd "$src" && BSYM_OUT=$work/written.bsym "$reader" >/dev/null) || { fail=$((fail+1)); echo "FAIL: test_symbols_read"; }
flatc --json --strict-json --raw-binary -o . "$src/schema/bsym.fbs" -- written.bsym ||
    { fail=$((fail+1)); echo "FAIL: flatc cannot decode written.bsym"; }
if /usr/bin/python3 - <<'PY'; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: written.bsym decoded by flatc"; fi
import json
b = json.load(open("written.json"))
N = 0xFFFFFFFF
assert b["level"] == [0xA0 + i for i in range(16)], b["level"]
assert b["version"] == 1
assert b["colliders"] == [1, N, 0, 2], b["colliders"]
assert [(r.get("first_tri", 0), r.get("source", 0)) for r in b["tri_runs"]] == [(0, 2), (4, N), (9, 0)]
s = b["sources"]
assert s[0]["kind"] == "Brush" and s[0]["index"] == 312 and s[0]["surface_flags"] == 16 and s[0]["contents_flags"] == 1 and s[0]["material"] == 1, s[0]
assert s[1]["kind"] == "Patch" and s[1]["entity"] == N and s[1]["material"] == N
assert s[2]["kind"] in (9, "9") and s[2]["surface_flags"] == 0x80000000
m = b["materials"]
assert m[0]["name"] == "textures/base/wall" and m[0]["shader"] == "scripts/base.shader"
assert m[0]["texture"] == "textures/base/wall.tga" and m[0].get("baked", N) == 5
assert m[0]["unknown"] == ["surfaceparm nomarks", "qer_editorimage textures/x.tga"]
assert "name" not in m[1] and m[1].get("baked", N) == N
PY
# A sim section written in runs (more than three of them: tests/test_bake_sim_runs.c, which
# checks it against the model through our reader) decoded by flatc: every collider's bounds,
# flags, door, source and hull corners as our reader's dump gives them.
if [ -x "$BLVL_BUILD/test_bake_sim_runs" ] && "$BLVL_BUILD/test_bake_sim_runs" runs.blvl >log 2>&1 &&
    "$blvl" cat runs.blvl sim >runs.sim.bin &&
    flatc --json --strict-json --defaults-json --raw-binary -o . "$src/schema/sim.fbs" -- runs.sim.bin &&
    "$blvl" dump runs.blvl sim >runs.dump.json 2>/dev/null &&
    /usr/bin/python3 - <<'PY'; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: a sim section of runs decoded by flatc"; fi
import json
f = json.load(open("runs.sim.json"))["colliders"]
d = json.load(open("runs.dump.json"))["colliders"]
assert len(f) == len(d) > 3 * 4096, (len(f), len(d))
N = 0xFFFFFFFF
default = {"flags": 0, "material": N, "door": N, "source": N, "gametypes": N}  # dump omits them
def close(a, b):
    return abs(float(a) - float(b)) <= 1e-6 * max(1.0, abs(float(b)))
def vec(a, b):
    return all(close(a[k], b[k]) for k in "xyz")
doors = sources = 0
for i, (x, y) in enumerate(zip(f, d)):
    assert vec(x["lo"], y["lo"]) and vec(x["hi"], y["hi"]), i
    for k in default:
        assert x.get(k, default[k]) == y.get(k, default[k]), (i, k, x.get(k), y.get(k))
    doors += x["door"] != N
    sources = max(sources, x["source"])
    assert x["shape_type"] == y["shape_type"], i
    if x["shape_type"] == "Hull":
        xv, yv = x["shape"]["vertices"], y["shape"]["vertices"]
        assert len(xv) == len(yv) and all(vec(p, q) for p, q in zip(xv, yv)), i
        assert x["shape"]["face_indices"] == y["shape"]["face_indices"], i
assert doors > 0 and sources > 0, (doors, sources)
PY
cli_done test_symbols_bake

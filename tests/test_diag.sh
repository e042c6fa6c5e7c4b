#!/usr/bin/env bash
# blvl diag end to end: the planted-defect table (tests/support/diag_levels.py: a clean level
# with no findings, one defect per code firing exactly its code, --only, exit codes), the JSON
# report parsed by python3's json.tool, symbols refused or stale as findings, the --dump tables,
# usage and refusal exits, and every sample the importers' tests bake giving no error.
set -u
. "${BLVL_SRC:?}/tests/support/cli.sh"
cli_workdir

if python3 "$src/tests/support/diag_levels.py" "$blvl" "$work" >table.txt 2>&1; then
    pass=$((pass+1))
else
    fail=$((fail+1)); echo "FAIL: the planted-defect table:"; cat table.txt
fi
clean=$work/clean.blvl

# ---- exits and usage -----------------------------------------------------------------------
rc 0 diag --help
has out "usage: blvl diag LEVEL"
rc 2 diag
rc 2 diag "$clean" "$clean"
rc 2 diag "$clean" --only D9999
has err "no check has the code 'D9999'"
rc 2 diag "$clean" --dump trees
rc 2 diag "$clean" --dump spawns --only D0001
has err "--dump takes no --only"
rc 2 diag "$clean" --bogus
printf 'not a level' >junk.blvl
rc 1 diag junk.blvl
ok "a refused level: one line naming the file" test "$(wc -l <err)" = 1
has err "blvl: junk.blvl: "
rc 1 diag missing.blvl
has err "blvl: missing.blvl: "
rc 0 diag "$clean"
ok "a clean level prints no finding" test ! -s out
has err "0 errors, 0 warnings, 0 infos"
rc 1 diag "$work/D0001.blvl"
has out "D0001 error geometry.batches[0]: material 7 out of range (2 materials)"
rc 0 diag "$work/D0016.blvl" # a warning alone exits 0
has out "D0016 warning geometry.indices[3]: triangle 1 repeats a vertex"
rc 1 diag "$work/D0013.blvl" --only D0013 --only D0016
has out "D0013 error geometry.batches[1]"

# ---- JSON ------------------------------------------------------------------------------------
rc 1 diag --json "$work/D0021.blvl"
ok "--json parses (python3 -m json.tool)" python3 -m json.tool out
ok "--json counts" python3 -c '
import json, sys
d = json.load(open("out"))
assert d["counts"] == {"error": 1, "warning": 0, "info": 0}, d
f = d["findings"][0]
assert (f["code"], f["severity"], f["section"], f["index"], f["source"]) == ("D0021", "error", "sim.colliders", 2, None), f'
rc 0 diag --json "$clean"
ok "--json of a clean level parses" python3 -m json.tool out

# ---- the catalogue ---------------------------------------------------------------------------
rc 0 diag --list
ok "--list: 47 checks and a header" test "$(wc -l <out)" = 48
for c in $(tail -n +2 out | cut -f1); do
    ok "$c is documented in docs/DIAG.md" grep -q "^| $c | " "$src/docs/DIAG.md"
done

# ---- damaged sections: one D0000 naming the container's rule, the checks that need it skipped --
# flip_in LEVEL TAG OUT: OUT is LEVEL with one bit flipped in the middle of TAG's stored bytes
# (offset and packed size from `blvl ls`), so that section fails its digest.
flip_in() {
    "$blvl" ls "$1" >ls.txt || return 1
    python3 -c '
import sys
src, tag, out = sys.argv[1:]
at = [int(f[5]) + int(f[4]) // 2 for f in (l.split() for l in open("ls.txt")) if f[0] == tag][0]
b = bytearray(open(src, "rb").read())
b[at] ^= 0x10
open(out, "wb").write(b)' "$@"
}
flip_in "$clean" textures tex_bad.blvl
rc 1 diag tex_bad.blvl
has out "D0000 error textures: section-digest: "
ok "damaged textures: D0000 alone, no D0004 over an empty table" \
    test "$(cut -d' ' -f1 out | sort -u)" = D0000
ok "damaged textures: one line" test "$(wc -l <out)" = 1
has err "1 errors, 0 warnings"
rc 1 diag tex_bad.blvl --only D0004 # the asked check cannot judge it: D0000 still says why
has out "D0000 error textures: section-digest: "
rc 1 diag --json tex_bad.blvl
ok "damaged textures: --json names the section and the rule" python3 -c '
import json
d = json.load(open("out"))
assert d["counts"] == {"error": 1, "warning": 0, "info": 0}, d
(f,) = d["findings"]
assert (f["code"], f["severity"], f["section"], f["index"]) == ("D0000", "error", "textures", None), f
assert f["message"].startswith("section-digest: "), f'
for tag in sim geometry lighting lightmaps cubemaps acoustics; do
    flip_in "$clean" $tag ${tag}_bad.blvl
    rc 1 diag ${tag}_bad.blvl
    has out "D0000 error $tag: section-digest: "
    ok "damaged $tag: D0000 alone" test "$(cut -d' ' -f1 out | sort -u)" = D0000
done

# ---- symbols ---------------------------------------------------------------------------------
head -c 40 /dev/urandom >junk.bsym
rc 1 diag "$clean" --symbols junk.bsym
has out "D0038 error bsym: "
rc 1 diag "$clean" --symbols nothing.bsym
has err "blvl: nothing.bsym: "
rc 0 bake "$src/tests/data/hmap/sample.hmap" -o hmap.blvl --symbols hmap.bsym
rc 0 diag hmap.blvl --symbols hmap.bsym # the bake's own symbols: no D0038
rc 1 diag "$clean" --symbols hmap.bsym
has out "D0037 error bsym: "
ok "a stale .bsym is the only finding" test "$(cut -d' ' -f1 out | sort -u)" = D0037
rc 0 diag hmap.blvl --symbols hmap.bsym --dump colliders
has out "symbols_source"

# ---- dumps -----------------------------------------------------------------------------------
columns_agree() { awk -F'\t' 'NR == 1 { n = NF } NF != n { exit 1 }' "$1"; }
for kind in colliders batches materials entities spawns; do
    rc 0 diag "$clean" --dump $kind
    cp out dump_$kind
    ok "--dump $kind: every row has the header's columns" columns_agree dump_$kind
done
ok "--dump colliders: 3 rows" test "$(tail -n +2 dump_colliders | wc -l)" = 3
has dump_colliders "index	shape	planes_or_faces	lo_x"
has dump_colliders "1	hull	6	200	0	-64	216	128	64	0x0	-1	0	0	-1	0xffffffff"
ok "--dump batches: 2 rows" test "$(tail -n +2 dump_batches | wc -l)" = 2
has dump_batches "0	0	6	0	floor	0	-1	-1	0xffffffff	0"
has dump_materials "1	glow	-1	9	2	0	0"
ok "--dump entities: the header alone" test "$(wc -l <dump_entities)" = 1
has dump_spawns "0	0	24	0	0	info_player_deathmatch	-	0xffffffff"

# ---- every baked sample: no error ------------------------------------------------------------
# Every check runs, the acoustics ones (D0029-D0031, D0039-D0045) included: each sample of a
# format with floors must carry the section, so they ran on it (Subspace levels never do).
sample_clean() { # bake $1 (extra bake args after it), then diag: exit 0
    local f=$1 name
    name=$(basename "$f")
    shift
    if "$blvl" bake "$f" -o "s_$name.blvl" "$@" >/dev/null 2>&1; then
        rc 0 diag "s_$name.blvl"
        rc 0 ls "s_$name.blvl"
        if [ "${1:-}" = --from ] && [ "${2:-}" = subspace ]; then
            ok "$name: no acoustics section (a Subspace level)" sh -c '! grep -q "^acoustics " out'
        else
            has out "acoustics "
        fi
    else
        fail=$((fail+1)); echo "FAIL: could not bake $f"
    fi
}
sample_clean "$src/tests/data/hmap/sample.hmap"
sample_clean "$src/tests/data/hmap/sample_compiled.hmap"
for f in "$src"/tests/data/subspace/good/*.lvl; do sample_clean "$f" --from subspace; done
for f in "$src"/tests/data/riot/good/*.lvl; do sample_clean "$f"; done
python3 "$src/tests/data/q3/make_bsp.py" q3 >/dev/null || { echo "make_bsp.py failed"; exit 1; }
sample_clean q3/good.bsp
sample_clean q3/good.pk3

# ---- acoustics on a baked level: a hand-made correct section (tests/support/acoustics_levels.py:
# probes traced onto the .hmap sample's floors) passes; each broken copy fires exactly its code ----
levels=$src/tests/support/acoustics_levels.py
if python3 "$levels" correct "$blvl" hmap.blvl ac.json && python3 "$levels" onto "$blvl" hmap.blvl ac.json ac.blvl; then
    rc 0 diag ac.blvl
    ok "a correct acoustics section on a baked level: no finding" test ! -s out
    python3 - ac.json <<'PY'
import copy, json, math, sys
a = json.load(open(sys.argv[1]))
assert len(a["probes"]) >= 4 and len(a["edges"]) >= 4, "too few probes to break"
def lens(x):
    P = [tuple(p["position"][k] for k in "xyz") for p in x["probes"]]
    for i, p in enumerate(x["probes"]):
        end = x["probes"][i + 1]["first_edge"] if i + 1 < len(P) else len(x["edges"])
        for e in x["edges"][p["first_edge"]:end]:
            e["len_m"] = math.dist(P[i], P[e["to"]]) * 0.0254
def opposite(x, e):  # the index of edge e's opposite
    src = max(i for i, p in enumerate(x["probes"]) if p["first_edge"] <= e)
    to = x["edges"][e]["to"]
    end = x["probes"][to + 1]["first_edge"] if to + 1 < len(x["probes"]) else len(x["edges"])
    return [k for k in range(x["probes"][to]["first_edge"], end) if x["edges"][k]["to"] == src][0]
def put(code, edit):
    x = copy.deepcopy(a)
    edit(x)
    json.dump(x, open("ac_%s.json" % code, "w"))
def sunk(x): x["probes"][0]["position"]["y"] -= 70; lens(x)     # into the floor
def high(x): x["probes"][0]["position"]["y"] += 300; lens(x)    # 364 units over it
def door(x):
    for e in (0, opposite(x, 0)): x["edges"][e]["door"] = 60000
put("D0039", lambda x: x["edges"][0].update(len_m=x["edges"][0]["len_m"] + 0.5))
put("D0040", lambda x: x["edges"][0].update(narrow=True))
put("D0041", door)
put("D0042", lambda x: x["rooms"][0].update(rt60_s=-1))
put("D0043", lambda x: x["probes"][0].update(enclosed=255, size_m=80))
put("D0044", sunk)
put("D0045", high)
PY
    for code in D0039 D0040 D0041 D0042 D0043 D0044 D0045; do
        python3 "$levels" onto "$blvl" hmap.blvl ac_$code.json ac_$code.blvl
        rc 1 diag ac_$code.blvl
        ok "baked level, broken acoustics: $code alone" test "$(cut -d' ' -f1 out | sort -u)" = $code
    done
else
    fail=$((fail+1)); echo "FAIL: no acoustics section for the baked sample"
fi

cli_done test_diag

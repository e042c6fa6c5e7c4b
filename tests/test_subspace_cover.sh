#!/usr/bin/env bash
# The Subspace bake's colliders (issue 33 §5; docs/IMPORT-SUBSPACE.md, "Colliders"): on the maps of
# tests/data/subspace/good and on a 128 x 128 corner of random tiles, every collider covers whole
# cells of one kind matching its flags and door, every solid cell is covered by its kind, and the
# count is at most 1.1 x the classic greedy set cover per kind that tests/support/subspace_cover.py
# computes on its own from the map's tile records.
set -u
. "${BLVL_SRC:?}/tests/support/cli.sh"
cli_workdir
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
cover=$src/tests/support/subspace_cover.py

check() { # NAME MAP OFFSET
    rc 0 bake "$2" --from subspace --draft -o "$1.blvl"
    "$blvl" dump "$1.blvl" sim >"$1.sim.json"
    if python3 "$cover" check "$1" "$2" "$3" "$1.sim.json" >"$1.cover.txt"; then
        pass=$((pass+1)); tail -1 "$1.cover.txt"
    else
        fail=$((fail+1)); echo "FAIL: $1: colliders against the cells and the greedy cover:"; cat "$1.cover.txt"
    fi
}

for f in "$src"/tests/data/subspace/good/*.lvl; do
    n=$(basename "$f" .lvl)
    check "$n" "$f" "$(awk '$1 == "tiles_offset" {print $2}' "${f%.lvl}.txt")"
done
python3 "$cover" gen random.lvl 128 33
check random random.lvl 0
# a control: a cover that leaves a cell out, or covers an empty one, is caught
python3 - random.sim.json <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["colliders"] = d["colliders"][1:]
json.dump(d, open("short.sim.json", "w"))
d = json.load(open(sys.argv[1]))
d["colliders"][0]["hi"]["x"] += 16 * 64
json.dump(d, open("wide.sim.json", "w"))
EOF
ok "control: a collider left out is caught" sh -c "! python3 '$cover' check r random.lvl 0 short.sim.json"
ok "control: a collider over other cells is caught" sh -c "! python3 '$cover' check r random.lvl 0 wide.sim.json"
ok "control: a ratio the bake cannot meet is caught" sh -c "! python3 '$cover' check r random.lvl 0 random.sim.json 0.5"
cli_done test_subspace_cover

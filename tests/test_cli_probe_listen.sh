#!/usr/bin/env bash
# blvl probe --listen end to end: a level packed here with a hand-made acoustics section (a
# corridor of six probes 100 qu apart, door team 7 on its middle edge, two rooms), the sound's
# path to the pose checked against numbers worked out from the geometry (docs/ACOUSTICS.md, "The
# runtime query"); --json parsed; a level without the section exits 1 naming it; usage errors 2.
set -u
. "${BLVL_SRC:?}/tests/support/cli.sh"
cli_workdir

python3 - <<'PY'
import json, math
P = [[100.0 * i, 50.0, 0.0] for i in range(6)]
links = [(i, i + 1, 7 if i == 2 else 65535) for i in range(5)]
probes, edges = [], []
for p in range(6):
    probes.append({"position": dict(zip("xyz", P[p])), "first_edge": len(edges),
                   "room": 0 if p < 3 else 1, "enclosed": 200, "size_m": 9})
    for a, b, door in links:
        if p in (a, b):
            q = b if p == a else a
            edges.append({"to": q, "len_m": math.dist(P[p], P[q]) * 0.0254, "door": door,
                          "narrow": False, "reserved": 0})
rooms = [{"rt60_s": 0.5, "damping": 0.75}, {"rt60_s": 1.5, "damping": 0.25, "outdoor": True}]
json.dump({"probes": probes, "edges": edges, "rooms": rooms}, open("acoustics.json", "w"))
json.dump({}, open("sim.json", "w"))
PY
meta="meta=$src/tests/data/sections/meta.json"
rc 0 pack -o level.blvl "$meta" sim=sim.json acoustics=acoustics.json
rc 0 pack -o bare.blvl "$meta" sim=sim.json

# the sound at (-20, 50, 30) reaches probe 0 (36.06 qu), the pose's eye (510, 50, 0) probe 5
# (10 qu): 36.06 + 500 + 10 qu travelled; straight sqrt(530^2 + 30^2) qu
rc 0 probe level.blvl --pose 510 50 0 0 0 --listen -20 50 30
has out "sound at -20 50 30 found 1 travelled_m "
has out " hops 5 narrow 0 door_count 1 doors 7 sound_probe 0 listener_probe 5 room 1 rt60_s 1.5 damping 0.25 outdoor 1"
ok "one sound line, after spawn" test "$(sed -n '$p' out | cut -d' ' -f1)" = sound
python3 - <<'PY' || { fail=$((fail+1)); echo "FAIL: the text figures"; }
import math
w = open("out").read().split("\n")[-2].split()
v = dict(zip(w[5::2], w[6::2]))
assert abs(float(v["travelled_m"]) - (math.hypot(20, 30) + 500 + 10) * 0.0254) < 1e-4, v
assert abs(float(v["straight_m"]) - math.hypot(530, 30) * 0.0254) < 1e-4, v
PY
rc 0 probe level.blvl --pose 510 50 0 0 0 --listen -20 50 30 --json
python3 - <<'PY' || { fail=$((fail+1)); echo "FAIL: --json"; }
import json, math
d = json.load(open("out"))
s = d["sound"]
assert s["at"] == [-20, 50, 30] and s["found"] == 1 and s["doors"] == [7], s
assert s["door_count"] == 1 and s["hops"] == 5 and s["narrow"] == 0, s
assert s["sound_probe"] == 0 and s["listener_probe"] == 5 and s["room"] == 1, s
assert s["rt60_s"] == 1.5 and s["damping"] == 0.25 and s["outdoor"] == 1, s
assert abs(s["travelled_m"] - (math.hypot(20, 30) + 510) * 0.0254) < 1e-4, s
assert list(d)[-1] == "damaged" and list(d)[-2] == "sound", list(d)
PY
# the other way round: listener in room 0, the same length
rc 0 probe level.blvl --pose -20 50 30 0 0 --listen 510 50 0
has out " hops 5 narrow 0 door_count 1 doors 7 sound_probe 5 listener_probe 0 room 0 rt60_s 0.5 damping 0.75 outdoor 0"
# a sound farther than the radius (512 qu) from every probe: no route, no sound probe
rc 0 probe level.blvl --pose 0 50 0 0 0 --listen 0 50 2000
has out "sound at 0 50 2000 found 0 travelled_m 0 straight_m 50.7999992 hops 0 narrow 0 door_count 0 doors - sound_probe -1 listener_probe 0 room 0 "
# without --listen nothing changes
rc 0 probe level.blvl --pose 0 50 0 0 0
ok "no sound line without --listen" test "$(grep -c '^sound' out)" = 0
# a level without the section says so, exit 1, nothing on stdout
rc 1 probe bare.blvl --pose 0 50 0 0 0 --listen 1 2 3
has err "blvl: bare.blvl: not-found: the level has no acoustics section (--listen needs one)"
ok "one line on stderr" test "$(wc -l <err)" = 1
ok "nothing on stdout" test ! -s out
# usage
rc 2 probe level.blvl --pose 0 50 0 0 0 --listen 1 2
has err "--listen expects X Y Z"
rc 2 probe level.blvl --pose 0 50 0 0 0 --listen 1 2 nan
rc 2 probe level.blvl --pose 0 50 0 0 0 --listen 1 2 3e10
cli_done test_cli_probe_listen

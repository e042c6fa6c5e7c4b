#!/usr/bin/env bash
# blvl trace end to end: hand-written sim levels (JSON, packed with `blvl pack`), traced through
# the command line; expected numbers derived by hand (docs/TRACE.md, DIST_EPSILON = 1/32).
# Coordinates: +Y up; the player box is 32 x 56 x 32 (-16 -24 -16 .. 16 32 16).
set -u
. "${BLVL_SRC:?}/tests/support/cli.sh"
cli_workdir
# field FILE KEY N: the N values after KEY on the first line of FILE, space-separated
field() { awk -v k="$2" -v n="$3" '{ for (i = 1; i <= NF; i++) if ($i == k) { s = $(i+1); for (j = 2; j <= n; j++) s = s " " $(i+j); print s; exit } }' "$1"; }
# is FILE KEY EXPECTED...: the values after KEY are exactly EXPECTED (the printed text)
is() { local f=$1 k=$2; shift 2; local got; got=$(field "$f" "$k" $#)
       if [ "$got" = "$*" ]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $k: got '$got', expected '$*' in: $(head -c 400 "$f")"; fi; }
# f32 FILE KEY EXPECTED: the value after KEY reads back as the float32 nearest EXPECTED (a python
# expression), or within TOL of it when a fourth argument is given
f32() { local got; got=$(field "$1" "$2" 1)
        if /usr/bin/env python3 -c '
import struct, sys
f = lambda v: struct.unpack("<f", struct.pack("<f", v))[0]
got, want = float(sys.argv[1]), eval(sys.argv[2])
tol = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
sys.exit(0 if (abs(got - want) <= tol if tol else f(got) == f(want)) else 1)' "$got" "$3" ${4:+"$4"}
        then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $2: got '$got', expected $3 ${4:+(± $4)}"; fi; }

# ---- the level --------------------------------------------------------------------------------
python3 - <<'EOF'
import json, math
def box_planes(lo, hi):
    p = []
    for k, a in enumerate("xyz"):
        n = {"x": 0, "y": 0, "z": 0}; n[a] = 1; p.append({"normal": dict(n), "dist": hi[k]})
        n[a] = -1; p.append({"normal": dict(n), "dist": -lo[k]})
    return p
def planes(lo, hi, **kw):
    c = {"lo": dict(zip("xyz", lo)), "hi": dict(zip("xyz", hi)), "shape_type": "Planes",
         "shape": {"planes": box_planes(lo, hi)}}
    c.update(kw)
    return c
# corner i: bit 0 +x, bit 1 +y, bit 2 +z; faces listed around, or corner by corner (crossed)
FACES = [[0, 2, 6, 4], [1, 5, 7, 3], [0, 4, 5, 1], [2, 3, 7, 6], [0, 1, 3, 2], [4, 6, 7, 5]]
def hull(corners, crossed, extra_faces=()):
    faces = [[f[0], f[2], f[1], f[3]] if crossed else f for f in FACES] + list(extra_faces)
    lo = [min(c[k] for c in corners) for k in range(3)]
    hi = [max(c[k] for c in corners) for k in range(3)]
    return {"lo": dict(zip("xyz", lo)), "hi": dict(zip("xyz", hi)), "shape_type": "Hull",
            "shape": {"vertices": [dict(zip("xyz", c)) for c in corners],
                      "face_sizes": [len(f) for f in faces],
                      "face_indices": [i for f in faces for i in f]}}
def cube(centre, half, yaw_deg):
    a = math.radians(yaw_deg); c, s = math.cos(a), math.sin(a)
    out = []
    for i in range(8):
        l = [half if i & 1 else -half, half if i & 2 else -half, half if i & 4 else -half]
        # about +Y: x' = c x + s z, z' = -s x + c z
        out.append([centre[0] + c * l[0] + s * l[2], centre[1] + l[1], centre[2] - s * l[0] + c * l[2]])
    return out
colliders = [
    planes([-512, -16, -512], [512, 0, 512], flags=2, material=1),          # 0 floor, metal
    planes([100, 0, -64], [108, 256, 64], flags=0x10 | 0x20),                # 1 player clip
    planes([200, 0, -64], [208, 256, 64], flags=0x80),                       # 2 player-through
    planes([300, 0, -64], [400, 64, 64], flags=0x40, material=3),            # 3 water
    hull(cube([-300, 128, 0], 32, 45), crossed=True),                        # 4 rotated, crossed
    planes([-108, 0, -64], [-100, 256, 64], flags=0x10),                     # 5 nodraw wall
    planes([-64, 0, 200], [64, 256, 208], flags=0x01 | 0x20),                # 6 ladder
    planes([-64, 0, -208], [64, 256, -200], gametypes=1 << 6),               # 7 CTF only
    hull(cube([-484, 616, 0], 16, 0), crossed=False, extra_faces=[[0, 0, 0], [1, 2]]),  # 8 bad faces
]
json.dump({"colliders": colliders}, open("sim.json", "w"), indent=1)
json.dump({"colliders": colliders[:1]}, open("floor.json", "w"))
EOF
meta="meta=$src/tests/data/sections/meta.json"
rc 0 pack -o level.blvl "$meta" sim=sim.json
rc 0 verify level.blvl
PBOX="-16 -24 -16 16 32 16"

# ---- a player dropped onto the floor: exact numbers -----------------------------------------
# Floor top y = 0, box bottom -24: the centre stops at 24 + 1/32 after 256 - 24 - 1/32 of 512.
rc 0 trace level.blvl --box $PBOX --from 0 256 0 --to 0 -256 0
ok "one line" test "$(wc -l <out)" = 1
ok "line starts with 'trace'" grep -q '^trace from 0 256 0 to 0 -256 0 fraction ' out
f32 out fraction "(256 - 24 - 1/32) / 512"
is out end 0 24.03125 0
is out normal 0 1 0
is out dist 0
is out startsolid 0
is out allsolid 0
is out collider 0
is out flags 0x02 -
is out surface metal
is out material 1
ok "expansion reports counted on stderr" grep -q ': 2 expansion report(s)' err
# The same with a ray: it stops 1/32 above the floor.
rc 0 trace level.blvl --from 0 256 0 --to 0 -256 0
is out end 0 0.03125 0
f32 out fraction "(256 - 1/32) / 512"
# Started inside the floor and never left it.
rc 0 trace level.blvl --box $PBOX --from 0 -8 0 --to 0 -10 0
is out startsolid 1
is out allsolid 1
is out fraction 0
is out collider 0
# Nothing in the way: fraction 1, the end exactly.
rc 0 trace level.blvl --box $PBOX --from 0 100 0 --to 0 200 0
is out fraction 1
is out end 0 200 0
is out collider -1
is out material -1
is out flags 0x00 -

# ---- movers: --as player / --as shot through each wall ---------------------------------------
# player clip (bit 4 | bit 5) at x = 100: the player's box front (x + 16) stops 1/32 short.
rc 0 trace level.blvl --box $PBOX --from 20 40 0 --to 148 40 0 --as player
is out end 83.96875 40 0
f32 out fraction "(64 - 1/32) / 128"
is out normal -1 0 0
is out dist -100
is out collider 1
is out flags 0x30 clip,shot-through
rc 0 trace level.blvl --from 20 40 0 --to 148 40 0 --as shot
is out fraction 1
is out end 148 40 0
# player-through (bit 7) at x = 200: stops a shot, not the player.
rc 0 trace level.blvl --box $PBOX --from 170 40 0 --to 298 40 0 --as player
is out fraction 1
is out collider -1
rc 0 trace level.blvl --from 170 40 0 --to 298 40 0 --as shot
is out end 199.96875 40 0
is out collider 2
is out flags 0x80 player-through
# nodraw wall (bit 4 alone) at x = -100: stops both.
rc 0 trace level.blvl --box $PBOX --from -20 40 0 --to -148 40 0 --as player
is out end -83.96875 40 0
is out collider 5
is out flags 0x10 clip
rc 0 trace level.blvl --from -20 40 0 --to -148 40 0 --as shot
is out end -99.96875 40 0
is out normal 1 0 0
is out collider 5
# ladder (bit 0 | bit 5) at z = 200: the player stops on it and is told it can climb; a shot
# passes.
rc 0 trace level.blvl --box $PBOX --from 0 40 120 --to 0 40 248 --as player
is out end 0 40 183.96875
is out flags 0x21 ladder,shot-through
rc 0 trace level.blvl --from 0 40 120 --to 0 40 248 --as shot
is out fraction 1
# custom mask: only clip brushes that do not let shots through (the nodraw wall, not the clip)
rc 0 trace level.blvl --from 20 40 0 --to 148 40 0 --include 0x10 --exclude 0x20
is out fraction 1
rc 0 trace level.blvl --from -20 40 0 --to -148 40 0 --include 0x10 --exclude 0x20
is out collider 5
rc 2 trace level.blvl --from 0 0 0 --to 1 1 1 --as shot --include 16

# ---- water: never swept, only asked about ----------------------------------------------------
for as in player shot; do
    rc 0 trace level.blvl --box $PBOX --from 290 32 0 --to 418 32 0 --as $as
    is out fraction 1
    rc 0 trace level.blvl --from 350 100 0 --to 350 10 0 --as $as
    is out fraction 1
done
rc 0 trace level.blvl --include 0x40 --from 350 100 0 --to 350 10 0
is out fraction 1
rc 0 trace level.blvl --water 350 32 0 --water 0 32 0 --contents 350 32 0 --contents 104 10 0
ok "four point lines" test "$(wc -l <out)" = 4
sed -n 1p out >w1; sed -n 2p out >w2; sed -n 3p out >c1; sed -n 4p out >c2
ok "water line format" grep -q '^water at 350 32 0 inside 1 material 3 collider 3$' w1
is w2 inside 0
is w2 material -1
is w2 collider -1
ok "contents line format" grep -q '^contents at 350 32 0 count 0 flags 0x00 - collider -1$' c1
is c2 count 1
is c2 flags 0x30 clip,shot-through
is c2 collider 1
rc 0 trace level.blvl --as shot --contents 104 10 0 --contents 204 10 0
sed -n 1p out >c1; sed -n 2p out >c2
is c1 count 0
is c2 collider 2
is c2 flags 0x80 player-through

# ---- gametypes ---------------------------------------------------------------------------------
# collider 7 stands only in capture the flag (bit 6); no --gametype sees everything.
rc 0 trace level.blvl --box $PBOX --from 0 40 -120 --to 0 40 -248
is out collider 7
is out end 0 40 -183.96875
rc 0 trace level.blvl --box $PBOX --from 0 40 -120 --to 0 40 -248 --gametype 6
is out collider 7
rc 0 trace level.blvl --box $PBOX --from 0 40 -120 --to 0 40 -248 --gametype 0
is out fraction 1
rc 0 trace level.blvl --box $PBOX --from 0 40 -120 --to 0 40 -248 --gametype 2
is out fraction 1
rc 2 trace level.blvl --from 0 0 0 --to 1 1 1 --gametype 32
rc 2 trace level.blvl --from 0 0 0 --to 1 1 1 --gametype x

# ---- the rotated hull (crossed loops) traces as the rotated box ------------------------------
# A cube of half size 32 at (-300, 128, 0) turned 45 degrees about +Y: its bounds reach
# 32 * sqrt(2) = 45.25 from the centre in x and z, the box itself only |dx| + |dz| <= 45.25.
# A ray down at dx = 40, dz = 40 crosses the bounds but misses the box.
rc 0 trace level.blvl --from -260 300 40 --to -260 44 40
is out fraction 1
is out collider -1
# Straight down the middle it hits the top face (y = 160).
rc 0 trace level.blvl --from -300 300 0 --to -300 44 0
is out end -300 160.03125 0
is out normal 0 1 0
is out dist 160
is out collider 4
# Along -x at dz = 10 it meets the slanted face x + z = -300 + 32 sqrt(2), not the bounds at
# x = -254.75; the ray stops 1/32 off the face, so sqrt(2)/32 further back along x.
rc 0 trace level.blvl --from -200 128 10 --to -456 128 10
f32 out end "-300 + 32 * 2 ** 0.5 - 10 + 2 ** 0.5 / 32" 0.002
f32 out normal "0.5 ** 0.5" 1e-5
is out collider 4
# A player box is stopped by the bevelled edge, not by the bounds: sliding along -x at dz = 0
# its front corner meets the vertical edge at x = -254.75 + 16.
rc 0 trace level.blvl --box $PBOX --from -200 128 0 --to -456 128 0
f32 out end "-300 + 32 * 2 ** 0.5 + 16 + 1/32" 0.002
is out collider 4

# ---- reports: faces that yield no plane are named ----------------------------------------------
rc 0 trace level.blvl --reports
ok "two reports" test "$(wc -l <out)" = 2
ok "report names collider 8 face 6" grep -q '^report collider 8 face 6 reason .*no area' out
ok "report names collider 8 face 7" grep -q '^report collider 8 face 7 reason .*fewer than three' out
ok "no summary on stderr with --reports" test ! -s err
# collider 8 is still a solid (its six good faces): a ray from above stops on its top (y = 632)
rc 0 trace level.blvl --from -484 700 0 --to -484 600 0
is out end -484 632.03125 0
is out collider 8
rc 0 pack -o floor.blvl "$meta" sim=floor.json
rc 0 trace floor.blvl --box $PBOX --from 0 256 0 --to 0 -256 0
ok "no reports: stderr empty" test ! -s err

# ---- --points: many traces ----------------------------------------------------------------------
cat >pts.txt <<'EOF'
# from          to
0 256 0         0 -256 0
20 40 0         148 40 0

170 40 0        298 40 0   # player-through: the player passes
-260 300 40     -260 44 40
EOF
for i in $(seq 1 200); do echo "$((i % 160 - 80)) 100 $((i % 7)) $((i % 160 - 80)) -100 $((i % 7))"; done >>pts.txt
rc 0 trace level.blvl --box $PBOX --points pts.txt
ok "204 result lines" test "$(wc -l <out)" = 204
sed -n 1p out >p1; sed -n 2p out >p2; sed -n 3p out >p3; sed -n 204p out >p4
is p1 end 0 24.03125 0
is p2 end 83.96875 40 0
is p3 fraction 1
is p4 end -40 24.03125 4
ok "every line a trace" test "$(grep -c '^trace from ' out)" = 204
# --from/--to and --points together: the single trace first
rc 0 trace level.blvl --box $PBOX --from 0 256 0 --to 0 -256 0 --points pts.txt --as shot
ok "205 lines" test "$(wc -l <out)" = 205
sed -n 4p out >p3
is p3 end 183.96875 40 0
# stdin
"$blvl" trace level.blvl --points - <pts.txt >out 2>err
ok "--points - reads stdin" test "$(wc -l <out)" = 204
printf '1 2 3 4 5\n' >bad.txt
rc 1 trace level.blvl --points bad.txt
ok "bad points line named" grep -q 'bad.txt: argument: line 1' err
printf '0 0 0 1 1 1 junk\n' >bad.txt
rc 1 trace level.blvl --points bad.txt
rc 1 trace level.blvl --points missing.txt

# ---- --json: the same answers, for scripts -------------------------------------------------------
rc 0 trace level.blvl --json --box $PBOX --from 20 40 0 --to 148 40 0 --water 350 32 0 --contents 104 10 0
ok "--json: every line parses, values as in text" python3 - out <<'EOF'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
t, w, c = lines
assert t["query"] == "trace" and t["end"] == [83.96875, 40, 0] and t["collider"] == 1
assert t["flags"] == 0x30 and t["flag_names"] == ["clip", "shot-through"] and t["startsolid"] is False
assert t["mins"] == [-16, -24, -16] and t["material"] is None and t["surface"] == "concrete"
assert w == {"query": "water", "at": [350, 32, 0], "inside": True, "material": 3, "collider": 3}
assert c["query"] == "contents" and c["count"] == 1 and c["collider"] == 1
EOF
rc 0 trace level.blvl --json --reports
ok "--json reports" python3 -c 'import json,sys; r=[json.loads(l) for l in open("out")]; assert [x["face"] for x in r]==[6,7] and r[0]["collider"]==8'

# ---- exit codes and help -------------------------------------------------------------------------
rc 0 trace --help
ok "--help shows usage" grep -q '^usage: blvl trace FILE' out
ok "--help documents the line format" grep -q 'startsolid' out
rc 1 trace missing.blvl --from 0 0 0 --to 1 1 1
ok "missing file: one line on stderr" test "$(wc -l <err)" = 1
head -c 4096 /dev/urandom >junk.blvl
rc 1 trace junk.blvl --from 0 0 0 --to 1 1 1
rc 0 pack --container -o nosim.blvl "$meta"
rc 1 trace nosim.blvl --from 0 0 0 --to 1 1 1
ok "no sim: named" grep -q 'sim' err
head -c 64 /dev/urandom >badsim.bin
rc 0 pack --container -o badsim.blvl "$meta" sim=bin:badsim.bin
rc 1 trace badsim.blvl --from 0 0 0 --to 1 1 1
ok "sim refused by the verifier: one line" test "$(wc -l <err)" = 1
rc 2 trace level.blvl
rc 2 trace level.blvl --from 0 0 0
rc 2 trace level.blvl --from 0 0 --to 1 1 1
rc 2 trace level.blvl --box 1 1 1 0 0 0 --from 0 0 0 --to 1 1 1
rc 2 trace level.blvl --as ghost --from 0 0 0 --to 1 1 1
rc 2 trace level.blvl --bogus
rc 2 trace --from 0 0 0 --to 1 1 1
rc 2 trace level.blvl other.blvl --from 0 0 0 --to 1 1 1
rc 2 trace level.blvl --from nan 0 0 --to 1 1 1


# ---- coordinates and options: each mistake its own one-line message ------------------------------
usage_line() { # usage_line PATTERN: stderr is one line, a usage error matching PATTERN
    ok "one usage line matching '$1' (got: $(head -c 300 err))" \
        test "$(wc -l <err)" = 1 -a "$(grep -c "^blvl trace: .*$1" err)" = 1
}
for v in nan NaN inf -inf infinity; do
    rc 2 trace level.blvl --from "$v" 0 0 --to 1 1 1
    usage_line "--from: '$v' is not a finite number"
done
rc 2 trace level.blvl --from 0 0 0 --to 1 1e12
usage_line "--to: '1e12' is outside -1e9..1e9"
rc 2 trace level.blvl --from 0 0 0 --to 1 1 -1e300
usage_line "outside -1e9..1e9"
rc 2 trace level.blvl --from 0 0 0 --to 1 1 1e999
usage_line "outside -1e9..1e9"
rc 0 trace level.blvl --from 0 0 0 --to 1e9 -1e9 1
rc 2 trace level.blvl --from 0 0 zero --to 1 1 1
usage_line "--from: 'zero' is not a number"
rc 2 trace level.blvl --from 0 0 --to 1 1 1
usage_line "--from expects 3 numbers X Y Z"
rc 2 trace level.blvl --box 0 0 0 1 1 nan --from 0 0 0 --to 1 1 1
usage_line "--box: 'nan' is not a finite number"
rc 2 trace level.blvl --contents inf 0 0
usage_line "--contents: 'inf' is not a finite number"
rc 2 trace level.blvl --from 0 0 0 --to 1 1 1 --from 2 2 2
usage_line "--from given twice"
rc 2 trace level.blvl --to 1 1 1 --from 0 0 0 --to 1 1 1
usage_line "--to given twice"
rc 2 trace level.blvl --gametype 11 --from 0 0 0 --to 1 1 1
usage_line "--gametype expects a match type 0..10"
rc 0 trace level.blvl --gametype 10 --from 0 0 0 --to 1 1 1
rc 0 trace level.blvl --gametype 0 --from 0 0 0 --to 1 1 1
rc 2 trace level.blvl --bogus
usage_line "unknown option '--bogus'"
rc 2 trace
usage_line "expects a FILE"
printf '0 0 0 1 1 nan\n' >nan.txt
rc 1 trace level.blvl --points nan.txt
ok "points: NaN named" grep -q "^blvl: nan.txt: argument: line 1: 'nan' is not a finite number" err
printf '# ok\n0 0 0 1 1 2e9\n' >huge.txt
rc 1 trace level.blvl --points huge.txt
ok "points: huge named" grep -q "^blvl: huge.txt: argument: line 2: '2e9' is outside" err
printf '0 0 0 1 1 1 2\n' >seven.txt
rc 1 trace level.blvl --points seven.txt
ok "points: seven numbers refused" grep -q "line 1: more than six numbers" err
rc 1 trace level.blvl --points missing.txt
ok "points: missing file is io" grep -q "^blvl: missing.txt: io: " err

cli_done test_cli_trace

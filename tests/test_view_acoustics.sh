#!/usr/bin/env bash
# blvl view's acoustics overlay (docs/VIEW.md) in headless chromium with SwiftShader's WebGL, as
# tests/test_view.sh runs it. The level: a wall of one colour filling the view of its camera and,
# in front of it, three acoustic probes in two rooms, an open edge between probes 0 and 1 and a
# narrow edge through door 0 between probes 1 and 2. The page must report the overlay it built
# (3 probes, 2 rooms, 2 lines, 1 dashed, 1 through a door); with ?acoustics=1 the pixel of each
# probe must be its room's colour (the export's extras name it; read by Pillow) and without it
# the wall's; a click on probe 0 must show its room's rt60, damping and outdoor, and one on probe
# 2 the other room's. Skips (77) without chromium.
set -u
. "${BLVL_SRC:?}/tests/support/cli.sh"
cli_workdir
. "${BLVL_SRC:?}/tests/support/browser.sh"
chromium_needed test_view_acoustics

# ---- the level: the camera at the origin looking down -Z (fov_x 90 in a 4:3 view), the wall at
# z = -256, the probes at z = -150: x / 150 of the half-width right of the centre, y / 150 of the
# half-width up
"$py" - <<'EOF'
import json, math
col = {"r": 40, "g": 160, "b": 220, "a": 255}
def v(x, y, z=-256):
    return {"position": {"x": x, "y": y, "z": z}, "normal": {"x": 0, "y": 0, "z": 1},
            "uv": {"x": 0, "y": 0}, "lightmap_uv": {"x": 0, "y": 0}, "color": col,
            "tangent": {"x": 32767, "y": 0, "z": 0, "w": 32767}}
S = 4096
json.dump({"vertices": [v(-S, -S), v(S, -S), v(S, S), v(-S, S)], "indices": [0, 1, 2, 0, 2, 3],
           "batches": [{"first_index": 0, "index_count": 6, "material": 0,
                        "lo": {"x": -S, "y": -S, "z": -256}, "hi": {"x": S, "y": S, "z": -256}}],
           "materials": [{"name": "test/wall", "blend": "Opaque"}]}, open("geometry.json", "w"))
json.dump({"cameras": [{"name": "front", "purpose": "Thumbnail", "pos": {"x": 0, "y": 0, "z": 0},
                        "yaw": 0, "pitch": 0, "fov_x": 90}]}, open("cameras.json", "w"))
json.dump({"doors": [{"name": "door", "lo": {"x": 50, "y": -80, "z": -160},
                      "hi": {"x": 70, "y": 0, "z": -140}}]}, open("sim.json", "w"))
json.dump({"name": "wall", "tool": "test_view_acoustics", "engine": "Urt"}, open("meta.json", "w"))
P = [(0, 50, -150), (60, 0, -150), (0, -50, -150)]
d = lambda a, b: math.dist(P[a], P[b]) * 0.0254
json.dump({
    "probes": [{"position": dict(zip("xyz", p)), "first_edge": f, "room": r, "enclosed": 200,
                "size_m": 12} for p, f, r in zip(P, (0, 1, 3), (0, 0, 1))],
    "edges": [{"to": 1, "len_m": d(0, 1), "door": 65535, "narrow": False, "reserved": 0},
              {"to": 0, "len_m": d(0, 1), "door": 65535, "narrow": False, "reserved": 0},
              {"to": 2, "len_m": d(1, 2), "door": 0, "narrow": True, "reserved": 0},
              {"to": 1, "len_m": d(1, 2), "door": 0, "narrow": True, "reserved": 0}],
    "rooms": [{"rt60_s": 0.75, "damping": 0.5}, {"rt60_s": 2.25, "damping": 0.875, "outdoor": True}],
}, open("acoustics.json", "w"))
EOF
parts=()
for f in *.json; do parts+=("${f%.json}=$f"); done
ok "pack the level (${#parts[@]} sections)" "$blvl" pack -o wall.blvl "${parts[@]}"
ok "export it" "$blvl" export wall.blvl -o wall.glb --acoustics

view_serve wall.blvl
shot off.png "shading=unlit&markers=0&panel=0"
# where each probe is in the view: the camera's vertical field is 2 atan(tan(45) 3/4), its
# aspect the view's (the screenshot's size); probe 0 at 0 50 -150, 1 at 60 0 -150, 2 at 0 -50.
# Probes 0 and 2 are clicked: they stand on the vertical centre line, where a click lands the same
# whatever the view's width (headless chromium runs the first frame, and the click, in a view of
# another width than the screenshot's)
at() { "$py" -c '
import sys
from PIL import Image
w, h = Image.open("off.png").size
x, y, z = map(float, sys.argv[1:4])
t = 0.75
print("%.4f,%.4f" % (0.5 + x / -z / (2 * t * w / h), 0.5 - y / -z / (2 * t)))' "$@"; }
p0=$(at 0 50 -150) p1=$(at 60 0 -150) p2=$(at 0 -50 -150) pl=$(at 30 25 -150)
echo "probes at $p0 $p1 $p2 of the view"
shot on.png "shading=unlit&markers=0&panel=0&acoustics=1&pick=$p0"
shot pick2.png "shading=unlit&markers=0&panel=0&acoustics=1&pick=$p2"
"$py" - wall.glb "$p0" "$p1" "$p2" "$pl" >pixels.txt 2>&1 <<'EOF'
import json, struct, sys
from PIL import Image
b = open(sys.argv[1], "rb").read()
n, = struct.unpack_from("<I", b, 12)
doc = json.loads(b[20:20 + n])
rooms = [nd["extras"]["blvl"]["rooms"] for nd in doc["nodes"]
         if nd.get("extras", {}).get("blvl", {}).get("kind") == "acoustic-probes"][0]
srgb = lambda c: round(255 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055))
want = [tuple(srgb(c) for c in r["color"]) for r in rooms]
wall = (40, 160, 220)
off = Image.open("off.png").convert("RGB")
on = Image.open("on.png").convert("RGB")
w, h = on.size
close = lambda p, q: all(abs(x - y) <= 6 for x, y in zip(p, q))
# each probe's pixel a little away from where its lines leave it (a line is drawn over a point)
for f, room, (dx, dy) in zip(sys.argv[2:5], (0, 0, 1), ((0, -3), (3, 0), (0, 3))):
    fx, fy = map(float, f.split(","))
    at = (int(w * fx) + dx, int(h * fy) + dy)
    print("probe at", at, "on", on.getpixel(at), "off", off.getpixel(at), "room", room, want[room])
    if not close(on.getpixel(at), want[room]):
        print("FAIL: the probe at", at, "is", on.getpixel(at), "not room", room, "'s", want[room])
    if not close(off.getpixel(at), wall):
        print("FAIL: without the overlay", at, "is", off.getpixel(at), "not the wall")
# the open line between probes 0 and 1: some pixel around its middle is grey
fx, fy = map(float, sys.argv[5].split(","))
near = [on.getpixel((int(w * fx) + dx, int(h * fy) + dy)) for dx in range(-3, 4) for dy in range(-3, 4)]
if not any(close(p, (188, 188, 188)) for p in near):
    print("FAIL: no grey line between probes 0 and 1:", near)
EOF
cat pixels.txt
if grep -q FAIL pixels.txt; then fail=$((fail+1)); else pass=$((pass+1)); fi
has server.log "view: page note: acoustics: probes=3 lines=2 dashed=1 door_lines=1 rooms=2"
grep '^view: page note: pick: ' server.log >picks.txt
has picks.txt "probe 0 at 0 50 -150 (units) | room 0: rt60 0.75 s, damping 0.5, indoor"
has picks.txt "probe 2 at 0 -50 -150 (units) | room 1: rt60 2.25 s, damping 0.875, outdoor"
if grep -q '^view: page error' server.log; then
    fail=$((fail+1)); echo "FAIL: the page reported errors:"; grep '^view: page error' server.log
else
    pass=$((pass+1))
fi
kill -INT "$server"
wait "$server"
cli_done test_view_acoustics

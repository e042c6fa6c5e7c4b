#!/usr/bin/env bash
# blvl view (docs/VIEW.md) in a real browser: Debian's chromium, headless, with SwiftShader's
# WebGL. A level packed here from JSON holds one wall of a known colour filling the view of its
# one camera, and one collider box to the right of the centre. The screenshot's centre pixel
# must be the wall's colour (read by Pillow, not by our code); a second screenshot with the
# collision overlay on must differ where the collider is and nowhere near the centre; a click
# (?pick=) must name the wall's material at the centre and the collider right of it; the page
# must report itself ready and report no error (it sends window errors, unhandled rejections
# and console.error to the server, which prints them). The server is also sent hostile
# requests (wrong method, foreign Host, oversized head, garbage), must listen on 127.0.0.1
# only, and must stop on Ctrl-C (SIGINT) with status 0. The page is opened at the URL the
# server prints, its token included (tests/test_view_guard.sh checks who else may ask). Skips
# (77) without chromium.
set -u
. "${BLVL_SRC:?}/tests/support/cli.sh"
cli_workdir
. "${BLVL_SRC:?}/tests/support/browser.sh"
chromium_needed test_view

# ---- the level: a wall of colour 40,160,220 at z = -256 facing the camera at the origin ----
# and, in the view's top right corner, a white quad with a texture of one colour, 200,90,30 (the
# page draws its first frame before textures are decoded and swaps them in after: the
# screenshot, taken later, must show the texture's colour there, not the white stand-in)
wall="40 160 220"
tex="200 90 30"
"$py" - <<'EOF'
import io, json
from PIL import Image
col = {"r": 40, "g": 160, "b": 220, "a": 255}
white = {"r": 255, "g": 255, "b": 255, "a": 255}
def v(x, y, z=-256, c=col, u=0, w=0):
    return {"position": {"x": x, "y": y, "z": z}, "normal": {"x": 0, "y": 0, "z": 1},
            "uv": {"x": u, "y": w}, "lightmap_uv": {"x": 0, "y": 0}, "color": c,
            "tangent": {"x": 32767, "y": 0, "z": 0, "w": 32767}}
S = 4096
# the quad covers 0.7..0.95 of the width and 0.05..0.3 of the height from the camera
quad = [v(100, 75, -250, white, 0, 0), v(225, 75, -250, white, 1, 0),
        v(225, 169, -250, white, 1, 1), v(100, 169, -250, white, 0, 1)]
json.dump({"vertices": [v(-S, -S), v(S, -S), v(S, S), v(-S, S)] + quad,
           "indices": [0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7],
           "batches": [{"first_index": 0, "index_count": 6, "material": 0,
                        "lo": {"x": -S, "y": -S, "z": -256}, "hi": {"x": S, "y": S, "z": -256}},
                       {"first_index": 6, "index_count": 6, "material": 1,
                        "lo": {"x": 100, "y": 75, "z": -250}, "hi": {"x": 225, "y": 169, "z": -250}}],
           "materials": [{"name": "test/wall", "blend": "Opaque"},
                         {"name": "test/textured", "texture": 0, "blend": "Opaque"}]},
          open("geometry.json", "w"))
png = io.BytesIO()
Image.new("RGB", (8, 8), (200, 90, 30)).save(png, "PNG")
json.dump({"images": [{"name": "test/orange.png", "width": 8, "height": 8, "encoding": "Png",
                       "color_space": "Srgb", "mips": 1, "layers": 1,
                       "data": list(png.getvalue())}]}, open("textures.json", "w"))
json.dump({"cameras": [{"name": "front", "purpose": "Thumbnail", "pos": {"x": 0, "y": 0, "z": 0},
                        "yaw": 0, "pitch": 0, "fov_x": 90}]}, open("cameras.json", "w"))
lo, hi = (100, -64, -240), (300, 64, -200) # right of the centre, in front of the wall
planes = []
for a, n in enumerate("xyz"):
    planes.append({"normal": {k: (1 if k == n else 0) for k in "xyz"}, "dist": hi[a]})
    planes.append({"normal": {k: (-1 if k == n else 0) for k in "xyz"}, "dist": -lo[a]})
json.dump({"colliders": [{"lo": dict(zip("xyz", lo)), "hi": dict(zip("xyz", hi)),
                          "shape_type": "Planes", "shape": {"planes": planes}}]},
          open("sim.json", "w"))
json.dump({"name": "wall", "author": "test_view", "created": 0, "tool": "test_view",
           "engine": "Urt"}, open("meta.json", "w"))
EOF
parts=() # one section per file written above, named for its tag
for f in *.json; do parts+=("${f%.json}=$f"); done
ok "pack the wall level (${#parts[@]} sections)" "$blvl" pack -o wall.blvl "${parts[@]}"

# ---- the server ------------------------------------------------------------------------------
# Served under a name with UTF-8 and a byte that is not: the events' JSON keeps the one and
# replaces the other (docs/API.md, "JSON output").
utf8_name=$(printf 'wall \303\251\344\270\255\360\237\230\200\377.blvl')
ln -s wall.blvl "$utf8_name"
view_serve "$utf8_name"
token=${url##*?t=}
pass=$((pass+1))

# Raw requests (the server's answers to what a browser would never send).
status_of() { # REQUEST-BYTES (printf format) -> the status code of the answer
    "$py" - "$port" "$1" <<'EOF'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
s.sendall(sys.argv[2].encode().decode("unicode_escape").encode("latin-1"))
data = b""
while True:
    b = s.recv(65536)
    if not b:
        break
    data += b
print(data.split(b" ")[1].decode() if data.startswith(b"HTTP/1.1 ") else "none")
EOF
}
host="Host: 127.0.0.1:$port"
want_status() {
    local got
    got=$(status_of "$2")
    if [ "$got" = "$1" ]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $3: got $got, want $1"; fi
}
want_status 200 "GET / HTTP/1.1\r\n$host\r\n\r\n" "the page"
want_status 200 "GET /three/three.module.min.js HTTP/1.1\r\n$host\r\n\r\n" "three.js from the build folder"
want_status 405 "POST / HTTP/1.1\r\n$host\r\nContent-Length: 0\r\n\r\n" "POST"
want_status 403 "GET / HTTP/1.1\r\nHost: evil.example:$port\r\n\r\n" "a foreign Host"
want_status 404 "GET /../../etc/passwd HTTP/1.1\r\n$host\r\n\r\n" "a path outside the routes"
want_status 404 "GET /three/../../../CMakeCache.txt HTTP/1.1\r\n$host\r\n\r\n" "a path under /three"
want_status 400 "GET / HTTP/1.1\r\n$host\r\n folded\r\n\r\n" "a folded header"
want_status 400 "GET / HTTP/1.1\n$host\n\n" "bare LF"
want_status 400 "GET / HTTP/1.1\r\n$host\r\nTransfer-Encoding: chunked\r\n\r\n" "a body"
want_status 505 "GET / HTTP/2.0\r\n$host\r\n\r\n" "HTTP/2.0"
want_status 431 "GET / HTTP/1.1\r\n$host\r\nX: $(head -c 9000 /dev/zero | tr '\0' a)\r\n\r\n" "a 9 KB head"
want_status 400 "\x16\x03\x01\x00\x05hello" "TLS bytes"
"$py" -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=30).read().decode())' \
    "http://127.0.0.1:$port/level/events?t=$token" >events.txt
has events.txt '"event":"section","tag":"geometry","ok":true'
has events.txt '"event":"end"'
has events.txt "$(printf '{"event":"file","name":"wall \303\251\344\270\255\360\237\230\200\\ufffd.blvl"')"
ok "events: every line JSON, the file named as sent" "$py" -c '
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1], "rb")]
assert ev[0]["name"] == "wall \u00e9\u4e2d\U0001F600\ufffd.blvl", ev[0]' events.txt
# Listening on 127.0.0.1 only (/proc/net/tcp: local address 0100007F:PORT, state 0A = LISTEN).
hexport=$(printf '%04X' "$port")
if grep -q ":$hexport [0-9A-F]*:0000 0A" /proc/net/tcp /proc/net/tcp6 2>/dev/null &&
   ! grep ":$hexport [0-9A-F]*:0000 0A" /proc/net/tcp /proc/net/tcp6 | grep -qv "0100007F:$hexport"; then
    pass=$((pass+1))
else
    fail=$((fail+1)); echo "FAIL: not listening on 127.0.0.1:$port only"
fi

# ---- the browser -----------------------------------------------------------------------------
shot plain.png "shading=unlit&markers=0&panel=0&pick=0.5,0.5"
shot collision.png "shading=unlit&markers=0&panel=0&collision=1&pick=0.88,0.5"
"$py" - "$wall" "$tex" >pixels.txt 2>&1 <<'EOF'
import sys
from PIL import Image
want = tuple(int(v) for v in sys.argv[1].split())
orange = tuple(int(v) for v in sys.argv[2].split())
a = Image.open("plain.png").convert("RGB")
b = Image.open("collision.png").convert("RGB")
w, h = a.size
close = lambda p, q: all(abs(x - y) <= 3 for x, y in zip(p, q))
c = a.getpixel((w // 2, h // 2))
print("centre", c)
if not close(c, want):
    print("FAIL: the centre pixel is", c, "not the wall's", want)
t = a.getpixel((int(w * 0.825), int(h * 0.12)))
print("textured quad", t)
if not close(t, orange):
    print("FAIL: the textured quad is", t, "not its texture's", orange, "(the texture not swapped in?)")
# The collider spans x 100..300 at z -240..-200: from the camera, 0.42..1.5 of the half-width
# right of the centre, rows within about 0.27..0.32 of the half-height of it.
region = [(x, y) for x in range(int(w * 0.80), int(w * 0.97), 4) for y in range(int(h * 0.45), int(h * 0.55), 4)]
changed = sum(1 for p in region if not close(a.getpixel(p), b.getpixel(p)))
print("collider region changed", changed, "of", len(region))
if changed < len(region) * 0.9:
    print("FAIL: the collision overlay does not show where the collider is")
left = [(x, y) for x in range(int(w * 0.05), int(w * 0.6), 8) for y in range(int(h * 0.1), int(h * 0.9), 8)]
same = sum(1 for p in left if close(a.getpixel(p), b.getpixel(p)) and close(a.getpixel(p), want))
if same != len(left):
    print("FAIL: the overlay changed", len(left) - same, "pixels away from the collider")
EOF
cat pixels.txt
if grep -q FAIL pixels.txt; then fail=$((fail+1)); else pass=$((pass+1)); fi
n=$(grep -c '^view: page ready' server.log)
[ "$n" = 2 ] && pass=$((pass+1)) || { fail=$((fail+1)); echo "FAIL: the page said ready $n times, not 2"; }
# The clicks: the wall's material at the centre, the collider right of it.
grep '^view: page note: pick: ' server.log >picks.txt
has picks.txt "material 0: test/wall"
has picks.txt "collider 0 flags 0"
# after the first frame: the frame with the level's materials, and every texture swapped in
has server.log "view: page note: materials_ms="
has server.log "view: page note: textures_ms="
if grep -q '^view: page error' server.log; then
    fail=$((fail+1)); echo "FAIL: the page reported errors:"; grep '^view: page error' server.log
else
    pass=$((pass+1))
fi

# ---- Ctrl-C ------------------------------------------------------------------------------------
kill -INT "$server"
code=0
wait "$server" || code=$?
[ "$code" = 0 ] && pass=$((pass+1)) || { fail=$((fail+1)); echo "FAIL: blvl view exited $code on SIGINT"; }
has server.log "blvl view: stopped"

# ---- usage -------------------------------------------------------------------------------------
rc 2 view wall.blvl other.blvl
rc 2 view wall.blvl --port 70000
rc 1 view missing.blvl --port 0
rc 0 view --help
has out "blvl view"
cli_done test_view

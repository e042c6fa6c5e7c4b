#!/usr/bin/env bash
# Who may drive `blvl view` (docs/VIEW.md, "Who may ask"), without a browser: the routes that act
# (/report prints on the server's stdout, /level/events runs the verifier, /level/level.glb hands
# out the level) answer 403 to a request from another origin (Origin not the server's own,
# Sec-Fetch-Site cross-site or same-site) and to one without this run's token (`t`, which the
# printed URL carries as ?t=), and work with it; the page's own files need no token. What /report
# prints is stripped of every control byte: C0, DEL, C1 sent raw and C1 sent as UTF-8, and bytes
# that are not UTF-8; the text around them is kept. Then `blvl view URL` of a level served by
# nginx on 127.0.0.1: /level/events verifies it through the HTTP source it was opened with (every
# section good, its section lines those `blvl view FILE` gives for the same file, and a section
# damaged on the server reported bad with its digest rule).
set -u
. "${BLVL_SRC:?}/tests/support/cli.sh"
. "$BLVL_SRC/tests/support/nginx.sh"
cli_workdir
unset BLVL_CACHE
py=/usr/bin/python3
[ -x "$py" ] || py=python3
servers=()
stop_servers() { for p in "${servers[@]}"; do kill -INT "$p" 2>/dev/null; done; }
trap 'stop_servers; rm -rf "$work"' EXIT

# req PORT TARGET [HEADER...]: a raw GET; prints the status code, leaves the body in ./body
cat >req.py <<'EOF'
import socket, sys
port, target, headers = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
s = socket.create_connection(("127.0.0.1", port), timeout=20)
head = "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % (target, port)
head += "".join(h + "\r\n" for h in headers) + "\r\n"
s.sendall(head.encode("latin-1"))
data = b""
while True:
    b = s.recv(65536)
    if not b:
        break
    data += b
head, _, body = data.partition(b"\r\n\r\n")
open("body", "wb").write(body)
print(data.split(b" ")[1].decode() if data.startswith(b"HTTP/1.1 ") else "none")
EOF
want() { # STATUS WHAT TARGET [HEADER...]
    local status=$1 what=$2 got
    shift 2
    got=$("$py" req.py "$port" "$@")
    if [ "$got" = "$status" ]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $what: got $got, want $status: $(head -c 200 body | tr -d "\0")"; fi
}
# serve LEVEL LOG: `blvl view LEVEL --port 0` in the background; sets $port and $token
serve() {
    "$blvl" view "$1" --port 0 >"$2" 2>"$2.err" &
    servers+=($!)
    local url=
    for _ in $(seq 100); do
        url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/?t=[0-9a-f]*' "$2" 2>/dev/null | head -n 1)
        [ -n "$url" ] && break
        sleep 0.1
    done
    port=$(echo "$url" | sed -n 's|^http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p')
    token=${url##*?t=}
    [ -n "$port" ] && [ ${#token} = 32 ]
}

rc 0 bake "$src/tests/data/hmap/sample.hmap" -o sample.blvl
# a second run first: its token must not open the first one's routes
serve sample.blvl other.log || { fail=$((fail+1)); echo "FAIL: a second server: $(cat other.log.err)"; }
other_token=$token
if ! serve sample.blvl server.log; then
    echo "FAIL: blvl view printed no URL with a 32-digit token: $(cat server.log server.log.err)"
    exit 1
fi
pass=$((pass+1))
ok "each run has its own token" test "$token" != "$other_token"

me="Origin: http://127.0.0.1:$port"
# ---- the page's own files: no token needed -------------------------------------------------------
want 200 "the page without a token" "/"
want 200 "view.js without a token" "/view.js"
# ---- the routes that act: the token ---------------------------------------------------------------
want 403 "/report without a token" "/report?kind=note&text=forged"
has body "no token"
want 403 "/report with an empty token" "/report?kind=note&text=forged&t="
want 403 "/report with another run's token" "/report?kind=note&text=forged&t=$other_token"
has body "wrong token"
want 403 "/report with the token cut short" "/report?kind=note&text=forged&t=${token%?}"
want 403 "/report with the token and a byte more" "/report?kind=note&text=forged&t=${token}0"
want 403 "/level/events without a token" "/level/events"
want 403 "/level/events with a wrong token" "/level/events?t=$other_token"
want 403 "/level/level.glb without a token" "/level/level.glb"
# ---- the routes that act: the origin --------------------------------------------------------------
want 403 "/report from another origin" "/report?kind=ready&text=forged&t=$token" \
    "Origin: http://evil.example"
want 403 "/report from another port of 127.0.0.1" "/report?kind=ready&text=forged&t=$token" \
    "Origin: http://127.0.0.1:$((port == 65535 ? 1 : port + 1))"
want 403 "/report from origin null" "/report?kind=ready&text=forged&t=$token" "Origin: null"
want 403 "/level/events from another origin" "/level/events?t=$token" "Origin: http://evil.example"
want 403 "/report, Sec-Fetch-Site: cross-site" "/report?kind=ready&text=forged&t=$token" \
    "Sec-Fetch-Site: cross-site"
want 403 "/level/events, Sec-Fetch-Site: cross-site" "/level/events?t=$token" "Sec-Fetch-Site: cross-site"
want 403 "/report, Sec-Fetch-Site: same-site" "/report?kind=ready&text=forged&t=$token" \
    "Sec-Fetch-Site: same-site"
want 403 "/level/level.glb from another origin" "/level/level.glb?t=$token" "Origin: http://evil.example"
want 400 "two Origin headers" "/report?kind=note&text=x&t=$token" "$me" "Origin: http://evil.example"
if grep -q "forged" server.log; then
    fail=$((fail+1)); echo "FAIL: a refused request printed:"; grep forged server.log
else
    pass=$((pass+1))
fi
# ---- the right token, from the page's own origin: works ------------------------------------------
want 204 "/report with the token" "/report?kind=note&text=hello%20there&t=$token"
want 204 "/report with the token from the server's origin" \
    "/report?kind=note&text=from-origin&t=$token" "$me" "Sec-Fetch-Site: same-origin"
want 204 "/report with the token from localhost's origin" \
    "/report?kind=note&text=from-localhost&t=$token" "Origin: http://localhost:$port"
want 204 "/report with the token, Sec-Fetch-Site: none (typed in)" \
    "/report?kind=note&text=typed&t=$token" "Sec-Fetch-Site: none"
want 200 "/level/events with the token" "/level/events?t=$token" "$me"
has body '"event":"section","tag":"geometry","ok":true'
has body '"event":"end"'
want 200 "/level/level.glb with the token" "/level/level.glb?t=$token"
ok "the .glb is a glTF binary" test "$(head -c 4 body)" = glTF
# ---- control bytes: none printed ------------------------------------------------------------------
# C0 (ESC [ 2 J, CR, LF, BEL), DEL, raw C1 (0x9b CSI, 0x85 NEL), C1 as UTF-8 (U+009B, U+0085),
# a lone continuation byte and an overlong '/'; around them text and real UTF-8 (é, €, U+00A0).
want 204 "/report with control bytes" \
    "/report?kind=note&t=$token&text=A%1b%5b2J%0d%0aview:%20page%20ready:%20forged%07B%7fC%9b31mD%85E%c2%9b31mF%c2%85G%80H%c0%afI%c3%a9%e2%82%ac%c2%a0J"
sleep 0.2
"$py" - <<'EOF' >clean.txt
lines = [l for l in open("server.log", "rb").read().split(b"\n") if l.startswith(b"view: page note: A")]
want = b"view: page note: A[2Jview: page ready: forgedBC31mDE31mFGHI\xc3\xa9\xe2\x82\xac\xc2\xa0J"
print("ok" if lines == [want] else "FAIL: printed %r, want %r" % (lines, want))
EOF
has clean.txt ok
ok "a forged 'page ready' line was not printed as a line of its own" \
    test "$(grep -c '^view: page ready' server.log)" = 0
has server.log "view: page note: hello there"
has server.log "view: page note: from-origin"
has server.log "view: page note: from-localhost"

# ---- blvl view URL: /level/events through the HTTP source ----------------------------------------
if [ -z "$nginx_bin" ]; then
    echo "test_view_guard: nginx not installed: the URL checks skipped"
    stop_servers
    cli_done test_view_guard
    exit $?
fi
mkdir www
args=()
for tag in $("$blvl" ls sample.blvl | awk '{ print $1 }'); do
    "$blvl" cat sample.blvl "$tag" >"$tag.bin"
    args+=("$tag=$tag.bin")
done
head -c 300000 /dev/urandom >pad.bin # past the first request: fetched when read
rc 0 pack -o www/good.blvl "${args[@]}" game.pad=pad.bin
cp www/good.blvl www/bad.blvl
pad_off=$("$blvl" ls www/good.blvl | awk '$1 == "game.pad" { print $6 }')
# one byte of game.pad's packed bytes flipped on the server: its digest fails when it is read
"$py" - "$pad_off" <<'EOF'
import sys
off = int(sys.argv[1]) + 1000
b = bytearray(open("www/bad.blvl", "rb").read())
b[off] ^= 0xff
open("www/bad.blvl", "wb").write(b)
EOF
nginx_start www || exit 1
export BLVL_HTTP_TIMEOUT_MS=20000
serve "$nginx_url/good.blvl" url.log || { fail=$((fail+1)); echo "FAIL: view URL printed no URL: $(cat url.log.err)"; }
want 200 "view URL: /level/events" "/level/events?t=$token"
cp body url-events.txt
for tag in meta sim geometry lighting entities cameras game.pad; do
    has url-events.txt "\"event\":\"section\",\"tag\":\"$tag\",\"ok\":true"
done
has url-events.txt '"event":"end"'
has url-events.txt "\"event\":\"file\",\"name\":\"good.blvl\",\"size\":$(stat -c %s www/good.blvl)"
ok "view URL: no section refused" test "$(grep -c '"ok":false\|refused' url-events.txt)" = 0
# the same verdicts, offsets and sizes as the file's own events (the streaming reader's)
serve www/good.blvl file.log || { fail=$((fail+1)); echo "FAIL: view of the file printed no URL"; }
want 200 "view FILE: /level/events" "/level/events?t=$token"
grep '"event":"section"' body >file-sections.txt
grep '"event":"section"' url-events.txt >url-sections.txt
ok "view URL: the section lines are the file's" cmp file-sections.txt url-sections.txt
# the sample's seven sections (meta sim geometry lighting entities cameras acoustics) and the pad
ok "view URL: 8 section lines" test "$(wc -l <url-sections.txt)" = 8
serve "$nginx_url/good.blvl" url2.log || { fail=$((fail+1)); echo "FAIL: view URL printed no URL"; }
want 200 "view URL: the .glb" "/level/level.glb?t=$token"
ok "view URL: the .glb is a glTF binary" test "$(head -c 4 body)" = glTF
serve "$nginx_url/bad.blvl" bad.log || { fail=$((fail+1)); echo "FAIL: view URL (bad) printed no URL"; }
want 200 "view URL, a damaged section: /level/events" "/level/events?t=$token"
cp body bad-events.txt
has bad-events.txt '"event":"section","tag":"game.pad","ok":false'
has bad-events.txt "section-digest"
has bad-events.txt '"event":"section","tag":"geometry","ok":true'
has bad-events.txt '"event":"end"'
stop_servers
cli_done test_view_guard

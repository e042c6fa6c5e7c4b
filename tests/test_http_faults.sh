#!/usr/bin/env bash
# Levels over HTTP when the server misbehaves: our own fault server (tests/support/http_fault.py)
# sits in front of Debian's nginx on 127.0.0.1 and flips a byte inside a section, cuts an
# answer short, ignores ranges, replaces the file between requests, answers 404 or 500, or
# stalls. The blvl program (cat, info, verify, fetch) must refuse with the rule's name in one
# line on stderr and nothing on stdout or on disk, or recover (resume, fall back, retry).
# Skipped (77) without nginx.
. "$BLVL_SRC/tests/support/cli.sh"
. "$BLVL_SRC/tests/support/nginx.sh"
cli_workdir
# Debian's interpreter when it is there (a version manager's shim can take seconds to start).
py=$(command -v /usr/bin/python3 || command -v python3) || { echo "python3 missing: skipped"; exit 77; }

# Pseudo-random bytes (incompressible: stored raw, so packed sizes are predictable).
"$py" -c 'import random
for name, n, seed in (("a", 300000, 1), ("b", 200000, 2), ("c", 250000, 3), ("c1k", 1000, 4)):
    random.seed(seed)
    open(name + ".bin", "wb").write(random.randbytes(n))'
mkdir www
S=$src/tests/data/sections
rc 0 pack -o www/lvl.blvl meta=$S/meta.json sim=$S/sim.json game.a=a.bin game.b=b.bin
rc 0 pack -o www/other.blvl meta=$S/meta.json sim=$S/sim.json game.a=c.bin
lvl=www/lvl.blvl
# offset and packed size of a section: `ls` prints tag, version, id, raw, packed, offset, digest
where() { "$blvl" ls "$lvl" | awk -v t="$1" '$1 == t { print $6, $5 }'; }
read -r meta_off _ < <(where meta)
read -r a_off a_packed < <(where game.a)
read -r b_off _ < <(where game.b)
[ -n "$b_off" ] && [ "$b_off" -gt 4096 ] || { echo "FAIL: game.b should lie past the first request"; exit 1; }
for t in meta sim game.a game.b; do "$blvl" cat "$lvl" $t >"local.$t"; done

nginx_start www || exit 1
fpid=
trap 'kill "$fpid" 2>/dev/null; wait "$fpid" 2>/dev/null; nginx_stop; rm -rf "$work"' EXIT
# One fault server for the whole test; fault_start switches its mode (the answer count and its
# log start again). $u is the level through it.
"$py" "$src/tests/support/http_fault.py" --upstream "$nginx_url" --port-file port --log flog &
fpid=$!
for _ in $(seq 250); do
    [ -s port ] && break
    sleep 0.02
done
[ -s port ] || { echo "FAIL: the fault server did not start"; exit 1; }
fport=$(cat port)
u=http://127.0.0.1:$fport/lvl.blvl
fault_start() { # MODE [--OPTION VALUE]...
    local q="mode=$1" reply
    shift
    while [ $# -gt 1 ]; do
        q="$q&${1#--}=$2"
        shift 2
    done
    exec 3<>"/dev/tcp/127.0.0.1/$fport" || { echo "FAIL: no fault server"; exit 1; }
    printf 'GET /-/mode?%s HTTP/1.0\r\n\r\n' "$q" >&3
    reply=$(cat <&3)
    exec 3<&-
    case $reply in
    "HTTP/1."?" 200 "*) ;;
    *) echo "FAIL: fault mode $q: $reply"; exit 1 ;;
    esac
}
one_line() { ok "$1: one line on stderr" test "$(wc -l <err)" = 1; }
empty_out() { ok "$1: nothing on stdout" test ! -s out; }
no_files() { # nothing named OUT or OUT.* left behind
    ok "$1: nothing written" test -z "$(compgen -G "$2*")"
}
export BLVL_HTTP_RETRIES=2

# Through the fault server unchanged: the same bytes as the file.
fault_start pass
rc 0 cat "$u" game.b
ok "pass: game.b through the proxy" cmp out local.game.b

# A flipped byte inside a section past the header request: refused, nothing returned.
fault_start flip --at $((b_off + 1000))
rc 1 cat "$u" game.b
has err "blvl: $u: section-digest:"
one_line "flip cat"
empty_out "flip cat"
rc 0 cat "$u" game.a
ok "flip: the other sections still read" cmp out local.game.a
rc 0 info "$u"
rc 1 verify "$u"
has err "section-digest:"
rc 1 fetch "$u" -o got.blvl
has err "section-digest:"
one_line "flip fetch"
no_files "flip fetch" got.blvl
# ... and in meta, the first section after the header and table.
fault_start flip --at $((meta_off + 10))
rc 1 cat "$u" meta
has err "blvl: $u: section-digest:"
empty_out "flip in meta"

# An answer cut short once: the transfer resumes from its last byte.
fault_start cut --nth 2 # the second answer: game.a's range
rc 0 fetch "$u" --want game.a
has out "game.a $a_packed"
has out "1 resumed"
ok "cut: the resume asks from the cut on" grep -q "bytes=$((a_off + a_packed / 2))-" flog
fault_start cut --nth 2
rc 0 cat "$u" game.a
ok "cut: cat gives the whole section" cmp out local.game.a
fault_start cut --nth 1 # fetch -o: its one GET
rc 0 fetch "$u" -o whole.blvl
ok "cut: fetch -o is byte-identical" cmp whole.blvl "$lvl"
has out "resumed"

# A server that ignores ranges: the whole file, read through the streaming reader.
fault_start norange
rc 0 cat "$u" game.b
ok "norange: cat" cmp out local.game.b
rc 0 fetch "$u" --want sim
has out "ignores ranges"
rc 0 fetch "$u" -o nr.blvl
ok "norange: fetch -o is byte-identical" cmp nr.blvl "$lvl"
rc 0 verify "$u"

# The file replaced on the server after the header and table came: refused.
fault_start replace --nth 1 --swap /other.blvl
rc 1 cat "$u" game.a
has err "blvl: $u: http-changed:"
one_line "replace cat"
empty_out "replace cat"
fault_start replace --nth 1 --swap /other.blvl
rc 1 fetch "$u" --want game.a
has err "http-changed:"

# 404: a clear error, not retried.
fault_start status --code 404 --nth 0
rc 1 info "$u"
has err "blvl: $u: http:"
has err "404"
one_line "404"
ok "404: asked once" test "$(wc -l <flog)" = 1
rc 1 fetch "$u" -o nf.blvl
no_files "404 fetch" nf.blvl

# 500 every time: retried (BLVL_HTTP_RETRIES=2), then a clear error.
fault_start status --code 500 --nth 0
rc 1 cat "$u" meta
has err "blvl: $u: http:"
has err "500"
one_line "500"
empty_out "500"
ok "500: asked 1 + 2 retries times" test "$(wc -l <flog)" = 3
# 500 twice, then the server recovers: the retries carry the open through.
fault_start status --code 500 --nth 2
rc 0 fetch "$u" --want sim
has out "2 retries"

# A server that stalls: the stall time-out is honoured, then the total one.
fault_start slow --stall 20
t0=$(date +%s%N)
BLVL_HTTP_STALL_TIMEOUT_MS=400 BLVL_HTTP_RETRIES=0 rc 1 info "$u"
ms=$((($(date +%s%N) - t0) / 1000000))
has err "blvl: $u: http-timeout:"
one_line "stall"
ok "stall: gave up in ${ms} ms (time-out 400 ms, no retry)" test "$ms" -lt 3000
fault_start slow --stall 20 --keep 100
t0=$(date +%s%N)
BLVL_HTTP_TIMEOUT_MS=700 rc 1 fetch "$u" -o slow.blvl
ms=$((($(date +%s%N) - t0) / 1000000))
has err "http-timeout:"
ok "total time-out: gave up in ${ms} ms (time-out 700 ms)" test "$ms" -lt 3000
no_files "slow fetch" slow.blvl

# Several ranges in one request (two sections that are not neighbours: game.c lies between).
rc 0 pack -o www/mp.blvl meta=$S/meta.json sim=$S/sim.json game.a=a.bin game.c=c1k.bin game.b=b.bin
mpw() { "$blvl" ls www/mp.blvl | awk -v t="$1" '$1 == t { print $6, $5 }'; }
read -r ma_off ma_packed < <(mpw game.a)
read -r mb_off mb_packed < <(mpw game.b)
mp_size=$(stat -c %s www/mp.blvl)
ranges="bytes=$ma_off-$((ma_off + ma_packed - 1)),$mb_off-$((mb_off + mb_packed - 1))"
m=http://127.0.0.1:$fport/mp.blvl
multi_lines() { grep -c "	$ranges	" flog; }
fault_start pass
rc 0 fetch "$m" --want game.a --want game.b
ok "multipart: one request for both ranges" test "$(multi_lines)" = 1
body=$(awk -F'\t' -v r="$ranges" '$2 == r { print $4 }' flog)
ok "multipart: the body holds both sections and the part headers ($body bytes)" \
    test "$body" -gt $((ma_packed + mb_packed)) -a "$body" -lt $((ma_packed + mb_packed + 512))
has out "received $((4096 + body)) bytes in 2 requests"
# A flipped byte inside the second part: refused by its digest, nothing printed.
fault_start flip --at $((mb_off + 1000))
rc 1 fetch "$m" --want game.a --want game.b
has err "blvl: $m: section-digest:"
one_line "multipart flip"
empty_out "multipart flip"
# Cut in the middle of the second part: the retry asks only for the rest of it.
cut=$((mb_off + mb_packed / 2))
fault_start cut --cut-at $cut
rc 0 fetch "$m" --want game.a --want game.b
has out "1 resumed"
ok "multipart cut: the retry's Range is the rest of the second part" \
    grep -q "	bytes=$cut-$((mb_off + mb_packed - 1))	206	" flog
ok "multipart cut: three requests" test "$(wc -l <flog)" = 3
# 200 to several ranges: that transfer is stopped at its headers, single ranges follow, and
# the client takes none of the whole file's bytes (its byte count is the three ranges').
fault_start multi200
rc 0 fetch "$m" --want game.a --want game.b
has out "received $((4096 + ma_packed + mb_packed)) bytes in 4 requests"
ok "multi200: asked for both ranges once, answered 200" grep -q "	$ranges	200	" flog
sent=$(awk -F'\t' '$3 == 200 { print $4 }' flog)
echo "multi200: the server sent $sent of $mp_size bytes before the client closed"
ok "multi200: the server sent $sent of $mp_size bytes before the client closed" \
    test "$sent" -lt $((mp_size / 4))
ok "multi200: then game.a alone" grep -q "	bytes=$ma_off-$((ma_off + ma_packed - 1))	206	" flog
ok "multi200: then game.b alone" grep -q "	bytes=$mb_off-$((mb_off + mb_packed - 1))	206	" flog
# One part covering both ranges and the gap between them.
fault_start coalesce
rc 0 fetch "$m" --want game.a --want game.b
has out "received $((4096 + mb_off + mb_packed - ma_off)) bytes in 2 requests"
has out "game.b $mb_packed"
# A malformed multipart body: a clear error naming the rule.
fault_start badmultipart
rc 1 fetch "$m" --want game.a --want game.b
has err "blvl: $m: http: multipart boundary:"
one_line "badmultipart"

# Every command below is bounded (a hang is a failure, not a stuck test).
printf '#!/bin/sh\nexec timeout 30 "%s" "$@"\n' "$blvl" >bounded
chmod +x bounded

# A server that sends one byte every 0.2 s: never silent for the stall time-out, far under the
# minimum speed. With the speed time at 1 s and one retry, it is given up in two periods and
# one pause (docs/HTTP.md, "Limits"): http-timeout naming the speed, well under the 30 s bound.
fault_start trickle --interval 0.2
t0=$(date +%s%N)
blvl=./bounded BLVL_HTTP_SPEED_TIME_MS=1000 BLVL_HTTP_RETRIES=1 rc 1 info "$u"
ms=$((($(date +%s%N) - t0) / 1000000))
has err "blvl: $u: http-timeout:"
has err "under the minimum speed of 1024 bytes a second for 1000 ms (after 1 retries)"
one_line "trickle"
ok "trickle: gave up in ${ms} ms (two 1 s periods and a 100 ms pause)" test "$ms" -lt 5000
# The server logs an answer once the client has gone (its next byte fails): waited for.
for _ in $(seq 40); do
    [ "$(wc -l <flog)" = 2 ] && break
    sleep 0.05
done
ok "trickle: asked twice" test "$(wc -l <flog)" = 2
# fetch takes the same rule as options; --speed-limit 0 turns it off (the stall rule alone
# would wait for ever: the total time-out ends it here).
fault_start trickle --interval 0.2
t0=$(date +%s%N)
blvl=./bounded rc 1 fetch "$u" -o slow2.blvl --speed-limit 2048 --speed-time 800 --retries 0
ms=$((($(date +%s%N) - t0) / 1000000))
has err "under the minimum speed of 2048 bytes a second for 800 ms (after 0 retries)"
ok "trickle fetch: gave up in ${ms} ms" test "$ms" -lt 4000
no_files "trickle fetch" slow2.blvl
fault_start trickle --interval 0.2
blvl=./bounded rc 1 fetch "$u" -o slow3.blvl --speed-limit 0 --speed-time 800 --timeout 2500 --retries 0
has err "http-timeout:"
one_line "trickle without a minimum speed"
# A bad value is refused.
rc 2 fetch "$u" --speed-limit fast
has err "--speed-limit wants bytes a second"

# Redirects that are refused say why, not "HTTP 302".
fault_start redirect --location file:///etc/passwd
blvl=./bounded rc 1 info "$u"
has err "blvl: $u: http: redirect refused: file scheme (Location file:///etc/passwd)"
one_line "redirect file"
fault_start redirect
blvl=./bounded rc 1 info "$u"
has err "blvl: $u: http: redirect refused: a loop (Location /lvl.blvl again)"
one_line "redirect loop"
fault_start redirect --location "http://127.0.0.1:$fport/lvl.blvl?x"
blvl=./bounded rc 1 cat "$u" meta
has err "http: redirect refused: a loop"
empty_out "redirect loop cat"

# A server that gzips what it serves (ranges included): named, not "the response ended after
# N of 4096 bytes".
fault_start gzip
blvl=./bounded rc 1 info "$u"
has err "blvl: $u: http: content-encoding gzip not accepted from $u"
one_line "gzip"
blvl=./bounded rc 1 fetch "$u" -o gz.blvl
has err "content-encoding gzip not accepted"
no_files "gzip fetch" gz.blvl

cli_done test_http_faults

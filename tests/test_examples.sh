#!/usr/bin/env bash
# The programs of examples/ (built into build/examples/) do what they say:
#   bake           gives `blvl bake`'s bytes (level and symbols, cmp) for a Rockgrave .hmap, a
#                  Subspace map, a Riot level, an OpenArena map (a .pk3 INPUT with a map name, and
#                  a path inside an archive given with --pk3), through the library alone; and a
#                  refusal names the file as blvl bake does
#   server         opens the sample level, reads sim (its collider count is `blvl dump`'s) and
#                  sweeps a box, stopping where tests/link/trace_only.c (the trace layer alone)
#                  stops the same box
#   stream_client  reads a level from a local web server on 127.0.0.1 (python3 -m http.server,
#                  bounded in time), every section checked as it arrives; a level with a damaged
#                  section is reported bad, exit 1
. "$BLVL_SRC/tests/support/cli.sh"
cli_workdir
ex=${BLVL_BUILD:-$(dirname "$blvl")}/examples
for p in bake server stream_client; do
    [ -x "$ex/$p" ] || { echo "no $ex/$p (cmake --build builds examples/)"; exit 1; }
done
same() { # WHAT INPUT [ARGS...]: examples/bake and blvl bake give the same bytes
    local what=$1 in=$2
    shift 2
    rm -f a.blvl a.bsym b.blvl b.bsym
    rc 0 bake "$in" -o a.blvl --symbols a.bsym "$@"
    "$ex/bake" "$in" b.blvl --symbols b.bsym "$@" >bout 2>berr
    ok "$what: examples/bake runs ($(head -c 200 berr))" test -s b.blvl
    ok "$what: the level is blvl bake's" cmp a.blvl b.blvl
    ok "$what: the symbols are blvl bake's" cmp a.bsym b.bsym
}
same "Rockgrave .hmap" "$src/tests/data/hmap/sample.hmap"
same "Subspace .lvl" "$src/tests/data/subspace/good/elvl_pads.lvl"
same "Riot .lvl" "$src/tests/data/riot/good/basic.lvl"
has bout "(riot)"
oa=${BLVL_Q3_BASEOA:-/usr/share/games/openarena/baseoa}
if [ -f "$oa/pak1-maps.pk3" ]; then
    same "OpenArena .pk3 --map" "$oa/pak1-maps.pk3" --map oa_ctf2
    has bout "(q3)"
    same "OpenArena map inside --pk3" maps/oa_ctf2.bsp --pk3 "$oa/pak1-maps.pk3"
    "$ex/bake" "$oa/pak1-maps.pk3" c.blvl >bout 2>berr
    ok "a .pk3 of many maps without --map: exit 1" test $? = 1
    has berr "pak1-maps.pk3: argument: "
    none c.blvl
else
    echo "test_examples: no $oa/pak1-maps.pk3: the OpenArena bake is not compared"
fi
printf 'junk' >junk.bin
"$ex/bake" junk.bin c.blvl 2>berr
ok "unknown format: exit 1" test $? = 1
has berr "bake: junk.bin: unknown-format: starts with bytes 6a 75 6e 6b"
none c.blvl

# server: open, read sim, trace.
rc 0 bake "$src/tests/data/hmap/sample.hmap" -o level.blvl
"$ex/server" level.blvl 0 64 0 0 -4000 0 >sout 2>serr
ok "server runs ($(head -c 200 serr))" test $? = 0
colliders=$("$blvl" dump level.blvl sim 2>/dev/null | python3 -c \
    'import json,sys; print(len(json.load(sys.stdin).get("colliders", [])))')
has sout "sim: $colliders colliders,"
"$BLVL_BUILD/blvl_layer_trace" level.blvl 0 64 0 0 -4000 0 -16 -28 -16 16 28 16 >tout
frac=$(awk '{ print $2 }' tout)
has sout "box stops at fraction $(printf '%.6g' "$frac") "
ok "the box stops before the end (it lands on the floor)" test "$frac" != 1
"$ex/server" missing.blvl 0 0 0 0 0 0 2>serr
ok "server: a missing level exits 1" test $? = 1

# stream_client over a local web server.
if command -v python3 >/dev/null; then
    mkdir www
    cp level.blvl www/level.blvl
    cp level.blvl www/bad.blvl
    # a byte of sim's payload changed: its digest fails when its last byte lands
    off=$("$blvl" ls level.blvl | awk '$1 == "sim" { print $6 }')
    printf '\377' | dd of=www/bad.blvl bs=1 seek=$((off + 8)) conv=notrunc status=none
    port=$((20000 + RANDOM % 30000))
    (cd www && exec timeout 60 python3 -m http.server "$port" --bind 127.0.0.1) >/dev/null 2>&1 &
    server=$!
    trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
    for _ in $(seq 50); do
        curl -s -o /dev/null "http://127.0.0.1:$port/" && break
        sleep 0.1
    done
    timeout 30 "$ex/stream_client" "http://127.0.0.1:$port/level.blvl" >cout 2>cerr
    ok "stream_client runs ($(head -c 200 cerr))" test $? = 0
    has cout "table: $("$blvl" ls level.blvl | wc -l) sections"
    has cout "section sim: ok at byte"
    has cout "(kept, level rules met)"
    has cout "end at byte $(stat -c %s level.blvl)"
    ok "every section arrives checked" test "$(grep -c '^section .*: ok' cout)" = "$("$blvl" ls level.blvl | wc -l)"
    timeout 30 "$ex/stream_client" "http://127.0.0.1:$port/bad.blvl" >cout 2>cerr
    ok "a damaged section: exit 1" test $? = 1
    has cout "section sim: bad: section-digest"
    timeout 30 "$ex/stream_client" "http://127.0.0.1:$port/none.blvl" >cout 2>cerr
    ok "a missing level: exit 1" test $? = 1
    has cerr "http"
    kill $server 2>/dev/null
else
    echo "test_examples: no python3: stream_client not run"
fi
cli_done test_examples

#!/usr/bin/env bash
# Levels over HTTP against a real web server: Debian's nginx on 127.0.0.1 (tests/support/nginx.sh)
# serving a level made from the bundled Rockgrave map's sections with two incompressible game
# sections around sim, so that the level is larger than the first request and its sections lie
# past it. A sim-only open transfers the header and table request and sim's packed bytes,
# nothing else (nginx's access log is the independent count); neighbouring wanted sections come
# in one range; every section read over HTTP equals the file's; `fetch -o` is byte-identical;
# info, ls, identity, verify, dump and trace give the same answers for the URL as for the file.
# Skipped (77) without nginx.
. "$BLVL_SRC/tests/support/cli.sh"
. "$BLVL_SRC/tests/support/nginx.sh"
cli_workdir
not_has() { ! grep -qF -- "$2" "$1"; }
mkdir www
rc 0 bake "$src/tests/data/hmap/sample.hmap" -o baked.blvl
args=()
for tag in $("$blvl" ls baked.blvl | awk '{ print $1 }'); do
    "$blvl" cat baked.blvl "$tag" >"$tag.bin"
    case $tag in meta | sim) ;; *) args+=("$tag=$tag.bin") ;; esac
done
head -c 300000 /dev/urandom >pad1.bin
head -c 200000 /dev/urandom >pad2.bin
rc 0 pack -o www/level.blvl meta=meta.bin game.pad1=pad1.bin sim=sim.bin game.pad2=pad2.bin \
    "${args[@]}"
nginx_start www || exit 1
url=$nginx_url/level.blvl
file=www/level.blvl
size=$(stat -c %s "$file")
"$blvl" ls "$file" >ls.txt
packed() { awk -v t="$1" '$1 == t { print $5 }' ls.txt; }
offset() { awk -v t="$1" '$1 == t { print $6 }' ls.txt; }
# transfer WHAT BYTES REQUESTS ARGS...: `blvl fetch URL ARGS...` makes nginx send exactly BYTES
# body bytes in REQUESTS requests.
transfer() {
    local what=$1 bytes=$2 reqs=$3
    shift 3
    nginx_log_clear
    rc 0 fetch "$url" "$@"
    sleep 0.2 # nginx logs a request once its last byte is out
    ok "$what: $bytes bytes sent (nginx says $(nginx_bytes))" test "$(nginx_bytes)" = "$bytes"
    ok "$what: $reqs requests (nginx says $(nginx_requests))" test "$(nginx_requests)" = "$reqs"
    has out "received $bytes bytes in $reqs requests"
}

ct_line="Content-Type: application/octet-stream" # what nginx says of .blvl (tests/support/nginx.sh)
first=4096 # the first request: the header and a table of up to 62 entries (docs/HTTP.md)
ok "the level is larger than the first request" test "$size" -gt $first
ok "sim lies past the first request" test "$(offset sim)" -ge $first
transfer "sim only" $((first + $(packed sim))) 2 --want sim
has out "sim $(packed sim)"
ok "first request is the header and table range" grep -q "	206	$first	bytes=0-$((first - 1))\$" "$nginx_log"
ok "then sim's packed bytes exactly" grep -q \
    "	206	$(packed sim)	bytes=$(offset sim)-$(($(offset sim) + $(packed sim) - 1))\$" "$nginx_log"
# sim and game.pad2 are neighbours (alignment padding between them): one range.
pad2_end=$(($(offset game.pad2) + $(packed game.pad2)))
transfer "sim and its neighbour" $((first + pad2_end - $(offset sim))) 2 --want game.pad2 --want sim
# sim, cameras and meta are not neighbours: ONE request for the three ranges, answered with a
# multipart/byteranges body. Its size is computed from the multipart grammar as nginx writes it
# (per part: CR LF "--" boundary CR LF, its Content-Type and Content-Range lines, CR LF, the
# bytes; then CR LF "--" boundary "--" CR LF), with the boundary's length read from curl's own
# answer to the same Range header, whose body size must be the same.
ranges=
for t in $(for t in sim cameras meta; do echo "$(offset $t) $t"; done | sort -n | awk '{ print $2 }'); do
    ranges="$ranges${ranges:+,}$(offset $t)-$(($(offset $t) + $(packed $t) - 1))"
done
curl -s -D mp.hdr -o mp.body -r "$ranges" "$url"
boundary=$(tr -d '\r' <mp.hdr | sed -n 's/^Content-Type: multipart\/byteranges; boundary=//p')
ok "nginx answers several ranges with multipart/byteranges" test -n "$boundary"
mp=$((${#boundary} + 8))
for r in ${ranges//,/ }; do
    a=${r%-*} b=${r#*-}
    cr="Content-Range: bytes $a-$b/$size"
    mp=$((mp + 4 + ${#boundary} + 2 + ${#ct_line} + 2 + ${#cr} + 4 + b - a + 1))
done
ok "the multipart body computed equals curl's ($(stat -c %s mp.body))" test "$(stat -c %s mp.body)" = $mp
transfer "sim, cameras, meta" $((first + mp)) 2 --want sim --want cameras --want meta
ok "sim, cameras, meta: one multipart answer to the three ranges" \
    grep -q "	206	$mp	bytes=$ranges\$" "$nginx_log"
transfer "no section" $first 1

# A table longer than the first request holds (70 entries end at byte 4544): one more range
# completes it, from the first request's end to the table's end, and nothing else is asked.
long=()
for i in $(seq 1 68); do
    printf 'x%d' "$i" >"g$i.bin"
    long+=("game.g$i=g$i.bin")
done
rc 0 pack -o www/long.blvl meta=meta.bin sim=sim.bin "${long[@]}"
tend=$((64 + 64 * 70))
nginx_log_clear
rc 0 fetch "$nginx_url/long.blvl" --want sim
sleep 0.2
ok "long table: the table completed by a second range" grep -q "	206	$((tend - first))	bytes=$first-$((tend - 1))\$" "$nginx_log"
ok "long table: three requests in all (nginx says $(nginx_requests))" test "$(nginx_requests)" = 3
# 34 wanted sections that are not neighbours (every other one): at most 32 ranges a request,
# so two multi-range requests, of 32 and 2 ranges, after the two table requests.
odd=()
for i in $(seq 1 2 67); do odd+=(--want "game.g$i"); done
nginx_log_clear
rc 0 fetch "$nginx_url/long.blvl" "${odd[@]}"
sleep 0.2
ok "34 ranges: four requests (nginx says $(nginx_requests))" test "$(nginx_requests)" = 4
ok "34 ranges: 32 in the first multi-range request" \
    test "$(awk -F'\t' 'NR == 3 { print gsub(/,/, ",", $4) + 1 }' "$nginx_log")" = 32
ok "34 ranges: 2 in the second" \
    test "$(awk -F'\t' 'NR == 4 { print gsub(/,/, ",", $4) + 1 }' "$nginx_log")" = 2
has out "game.g67 "
ok "long table: sim over HTTP equals the file's" bash -c "'$blvl' cat '$nginx_url/long.blvl' sim | cmp - <('$blvl' cat www/long.blvl sim)"

# Every section over HTTP equals the file's.
awk '{ print $1 }' ls.txt >tags
n=0
while read -r tag; do
    "$blvl" cat "$file" "$tag" >local.bin
    "$blvl" cat "$url" "$tag" >http.bin 2>err
    ok "cat $tag over HTTP equals the file's" cmp local.bin http.bin
    n=$((n + 1))
done <tags
ok "the level has sections" test "$n" -gt 2

# The same answers for the URL as for the file.
for cmd in identity ls; do
    "$blvl" $cmd "$file" >want.txt
    "$blvl" $cmd "$url" >got.txt
    ok "$cmd over HTTP" cmp want.txt got.txt
done
"$blvl" info "$file" | tail -n +2 >want.txt
"$blvl" info "$url" | tail -n +2 >got.txt
ok "info over HTTP (past the file line)" cmp want.txt got.txt
nginx_log_clear
rc 0 verify "$url"
has out "$url: ok ("
# verify reads every section (digests), then the core ones again (their FlatBuffers): over
# HTTP each section past the first request is asked once, none twice (core sections read are
# kept for the level's life).
sleep 0.2
past=$(awk -v f=$first '$6 + $5 > f' ls.txt | wc -l)
ok "verify: the first request and one per section past it (nginx says $(nginx_requests))" \
    test "$(nginx_requests)" = $((1 + past))
ok "verify: no range asked twice" test -z "$(awk -F'\t' '{ print $4 }' "$nginx_log" | sort | uniq -d)"
"$blvl" dump "$file" meta >want.txt
"$blvl" dump "$url" meta >got.txt
ok "dump meta over HTTP" cmp want.txt got.txt
"$blvl" trace "$file" --from 0 256 0 --to 0 -256 0 >want.txt 2>&1
"$blvl" trace "$url" --from 0 256 0 --to 0 -256 0 >got.txt 2>&1
ok "trace over HTTP" cmp want.txt got.txt

# fetch -o: byte-identical, nothing left beside it.
nginx_log_clear
rc 0 fetch "$url" -o copy.blvl
ok "fetch -o is byte-identical" cmp "$file" copy.blvl
has out "received $size bytes in 1 requests"
ok "fetch -o: a plain GET's 200 is no sign of a server ignoring ranges" not_has out "ignores ranges"
ok "fetch -o: one plain GET" grep -q "^GET /level.blvl HTTP/1.1	200	$size	-$" "$nginx_log"
ok "no temporary left" test "$(ls copy.blvl* | wc -l)" = 1

# Refusals: a missing file (404), a cap on bytes, not a URL.
rc 1 fetch "$nginx_url/missing.blvl" -o missing.blvl
has err "blvl: $nginx_url/missing.blvl: http: HTTP 404 from"
none missing.blvl
rc 1 ls "$nginx_url/missing.blvl"
has err "http: HTTP 404"
rc 1 fetch "$url" --max-bytes 1000 -o capped.blvl
has err "http-limit:"
none capped.blvl
BLVL_HTTP_MAX_BYTES=100 "$blvl" ls "$url" >out 2>err
has err "http-limit:"
# A flipped byte in sim on the server: refused with section-digest, nothing returned or written.
cp "$file" www/bad.blvl
printf '\377' | dd of=www/bad.blvl bs=1 seek=$(($(offset sim) + 40)) conv=notrunc 2>/dev/null
rc 1 fetch "$nginx_url/bad.blvl" --want sim
has err "section-digest:"
rc 1 cat "$nginx_url/bad.blvl" sim
has err "section-digest:"
ok "nothing of a bad section on stdout" test ! -s out
rc 0 cat "$nginx_url/bad.blvl" game.pad2
rc 1 fetch "$nginx_url/bad.blvl" -o bad.blvl
has err "section-digest:"
none bad.blvl
rc 2 fetch "$url" -o x.blvl --want sim
rc 2 fetch www/level.blvl
cli_done test_http

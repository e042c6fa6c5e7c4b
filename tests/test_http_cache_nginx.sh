#!/usr/bin/env bash
# The content-addressed cache over a real web server (Debian's nginx on 127.0.0.1,
# tests/support/nginx.sh; its access log is the independent count of what was sent). A level
# read with the cache, then edited on the server outside identity, is read again: only the
# header and table request and the new section go over the network. Two levels that share a
# section download it once. A damaged cache file is detected, fetched again and replaced.
# Without the cache, everything is fetched each time. The cache folder holds only what the
# cache wrote: a FIFO or a folder at an entry is replaced (and said once), a symlink at tmp is
# not followed, new folders are 0700. Skipped (77) without nginx.
. "$BLVL_SRC/tests/support/cli.sh"
. "$BLVL_SRC/tests/support/nginx.sh"
cli_workdir
# Debian's interpreter when it is there (a version manager's shim can take seconds to start).
py=$(command -v /usr/bin/python3 || command -v python3) || { echo "python3 missing: skipped"; exit 77; }

# Pseudo-random bytes (incompressible: stored raw, so packed sizes are predictable).
"$py" -c 'import random
for name, n, seed in (("a", 300000, 1), ("b", 200000, 2), ("b2", 150000, 3), ("c", 250000, 4)):
    random.seed(seed)
    open(name + ".bin", "wb").write(random.randbytes(n))'
mkdir www
S=$src/tests/data/sections
rc 0 pack -o www/lvl.blvl meta=$S/meta.json sim=$S/sim.json game.a=a.bin game.b=b.bin
rc 0 pack -o www/two.blvl meta=$S/meta.json sim=$S/sim.json game.c=c.bin game.a=a.bin
# offset, packed size and digest of a section (`ls`: tag, version, id, raw, packed, offset,
# digest)
where() { "$blvl" ls "$1" | awk -v t="$2" '$1 == t { print $6, $5, $7 }'; }
packed_bytes() { # FILE TAG: the section's packed bytes, cut from the file
    local off size
    read -r off size _ < <(where "$1" "$2")
    tail -c +$((off + 1)) "$1" | head -c "$size"
}
nginx_start www || exit 1
u=$nginx_url/lvl.blvl
export BLVL_CACHE=$work/cache
# "START-END" of each request after the first, from nginx's access log
ranges() { sleep 0.2; awk -F'\t' 'NR > 1 { sub(/^bytes=/, "", $4); print $4 }' "$nginx_log"; }
head_bytes() { local s; s=$(stat -c %s "$1"); echo $((s < 4096 ? s : 4096)); }

# 1. First read with the cache: everything comes over the network and lands in the cache.
nginx_log_clear
rc 0 verify "$u"
read -r a_off a_packed a_digest < <(where www/lvl.blvl game.a)
read -r _ _ b_digest < <(where www/lvl.blvl game.b)
ok "game.a lies past the first request" test "$((a_off + a_packed))" -gt 4096
ok "the cache holds game.a under its digest" \
    test -f "$BLVL_CACHE/sections/${a_digest:0:2}/$a_digest"
ok "the cache holds game.b under its digest" \
    test -f "$BLVL_CACHE/sections/${b_digest:0:2}/$b_digest"
packed_bytes www/lvl.blvl game.a >a.packed
ok "the cached game.a is its packed bytes" cmp a.packed "$BLVL_CACHE/sections/${a_digest:0:2}/$a_digest"
id=$("$blvl" identity www/lvl.blvl)
ok "the cache holds the table under the identity" test -n "$(compgen -G "$BLVL_CACHE/tables/$id-*")"

# 2. Read again, unchanged: the header and table request alone.
nginx_log_clear
rc 0 verify "$u"
sleep 0.2
ok "unchanged: one request (nginx says $(nginx_requests))" test "$(nginx_requests)" = 1
ok "unchanged: $(head_bytes www/lvl.blvl) bytes (nginx says $(nginx_bytes))" \
    test "$(nginx_bytes)" = "$(head_bytes www/lvl.blvl)"
rc 0 fetch "$u" --want game.a --want game.b
has out "from the cache"

# 3. Edit outside identity on the server: the header and table, then the new section only.
rc 0 put www/lvl.blvl game.b b2.bin
read -r nb_off nb_packed _ < <(where www/lvl.blvl game.b)
ok "the edit keeps the identity" test "$("$blvl" identity www/lvl.blvl)" = "$id"
nginx_log_clear
rc 0 verify "$u"
got=$(ranges | tr '\n' ' ')
ok "after the edit: only the new game.b is asked for (asked: $got)" \
    test "$got" = "$nb_off-$((nb_off + nb_packed - 1)) "
want=$(($(head_bytes www/lvl.blvl) + nb_packed))
ok "after the edit: $want bytes sent (nginx says $(nginx_bytes))" test "$(nginx_bytes)" = "$want"
for t in meta sim game.a game.b; do
    "$blvl" cat www/lvl.blvl $t >local.bin
    "$blvl" cat "$u" $t >http.bin
    ok "$t read through the cache equals the file's" cmp local.bin http.bin
done

# 4. Another level with the same game.a: downloaded once, served from the cache.
read -r c_off c_packed _ < <(where www/two.blvl game.c)
nginx_log_clear
rc 0 verify "$nginx_url/two.blvl"
got=$(ranges | tr '\n' ' ')
ok "the shared section is not downloaded again (asked: $got)" \
    test "$got" = "$c_off-$((c_off + c_packed - 1)) "
"$blvl" cat www/two.blvl game.a >local.bin
"$blvl" cat "$nginx_url/two.blvl" game.a >http.bin
ok "the shared section reads right" cmp local.bin http.bin
# Wanted at open: cached sections are left out of the merged ranges.
nginx_log_clear
rc 0 fetch "$nginx_url/two.blvl" --want game.a --want game.c
ok "--want of cached sections: the header request alone" test "$(ranges | wc -l)" = 0

# 5. A damaged cache file: detected, fetched again, replaced; the right bytes come out.
cached=$BLVL_CACHE/sections/${a_digest:0:2}/$a_digest
"$py" -c "import sys; f=open(sys.argv[1],'r+b'); f.seek(777); b=f.read(1); f.seek(777); f.write(bytes([b[0]^1]))" "$cached"
ok "the cache file is damaged now" test -n "$(cmp "$cached" a.packed 2>&1)"
nginx_log_clear
rc 0 cat "$u" game.a
"$blvl" cat www/lvl.blvl game.a >local.bin
ok "damaged cache: cat gives the right bytes" cmp out local.bin
got=$(ranges | tr '\n' ' ')
ok "damaged cache: game.a fetched again (asked: $got)" test "$got" = "$a_off-$((a_off + a_packed - 1)) "
ok "damaged cache: the file is replaced by the right bytes" cmp "$cached" a.packed
# A cache file cut short is no better.
truncate -s 1000 "$cached"
rc 0 cat "$u" game.a
ok "truncated cache: cat gives the right bytes" cmp out local.bin
ok "truncated cache: replaced" cmp "$cached" a.packed

# 6. Without the cache nothing is kept and everything is fetched.
nginx_log_clear
BLVL_CACHE='' rc 0 verify "$u"
ok "no cache: every section past the first request is asked for" test "$(ranges | wc -l)" -ge 2
unset BLVL_CACHE
nginx_log_clear
rc 0 verify "$u"
ok "BLVL_CACHE unset: every section past the first request is asked for" test "$(ranges | wc -l)" -ge 2

# 7. fetch -o fills the cache as it checks: a later open reads every section from it.
rc 0 fetch "$u" --cache="$work/cache2" -o copy.blvl
ok "fetch -o with the cache: byte-identical" cmp copy.blvl www/lvl.blvl
ok "fetch -o put game.a" test -f "$work/cache2/sections/${a_digest:0:2}/$a_digest"
nginx_log_clear
BLVL_CACHE=$work/cache2 rc 0 verify "$u"
ok "after fetch -o: the header and table request alone (asked: $(ranges | tr '\n' ' '))" \
    test "$(ranges | wc -l)" = 0

# 8. A table longer than the first request holds (70 entries end past byte 4096): with the
# cache, the first open asks for the rest of the table region up to the floor and keeps it
# under the identity and table digest; the next open takes it from there: one request.
long=()
for i in $(seq 1 68); do
    printf 'x%d' "$i" >"g$i.bin"
    long+=("game.g$i=g$i.bin")
done
rc 0 pack -o www/long.blvl meta=$S/meta.json sim=$S/sim.json "${long[@]}"
floor=$("$blvl" ls www/long.blvl | awk 'NR == 1 || $6 < m { m = $6 } END { print m }')
ok "the long table's floor ($floor) lies past the first request" test "$floor" -gt 4096
"$blvl" ls www/long.blvl >want.txt
export BLVL_CACHE=$work/cache3
nginx_log_clear
"$blvl" ls "$nginx_url/long.blvl" >got.txt
ok "long table: ls over HTTP" cmp want.txt got.txt
ok "long table, first open: the rest of the region to the floor (asked: $(ranges | tr '\n' ' '))" \
    test "$(ranges)" = "4096-$((floor - 1))"
nginx_log_clear
"$blvl" ls "$nginx_url/long.blvl" >got.txt
ok "long table, second open: ls over HTTP" cmp want.txt got.txt
ok "long table, second open: the first request alone (asked: $(ranges | tr '\n' ' '))" \
    test "$(nginx_requests)" = 1
unset BLVL_CACHE

# 9. The cache folder holds only what the cache wrote (docs/HTTP.md, "The cache"). Every
# command bounded: a FIFO used to hang a read for ever.
printf '#!/bin/sh\nexec timeout 30 "%s" "$@"\n' "$blvl" >bounded
chmod +x bounded
same_file() { test -f "$1" && cmp "$1" "$2"; } # never opens a FIFO (cmp would wait for ever)
export BLVL_CACHE=$work/cache
cached=$BLVL_CACHE/sections/${a_digest:0:2}/$a_digest
"$blvl" cat www/lvl.blvl game.a >local.bin
rm -f "$cached"
mkfifo "$cached"
nginx_log_clear
blvl=./bounded rc 0 cat "$u" game.a
ok "FIFO at an entry: cat gives the right bytes" cmp out local.bin
has err "blvl: warning: cache: $BLVL_CACHE/sections/${a_digest:0:2}/$a_digest is a FIFO, not a file: taken as a miss, fetched and put in its place"
ok "FIFO at an entry: said once" test "$(wc -l <err)" = 1
ok "FIFO at an entry: fetched again (asked: $(ranges | tr '\n' ' '))" \
    test "$(ranges)" = "$a_off-$((a_off + a_packed - 1))"
ok "FIFO at an entry: replaced by the section" same_file "$cached" a.packed
nginx_log_clear
blvl=./bounded rc 0 cat "$u" game.a
ok "FIFO replaced: the next read is from the cache, quiet" test ! -s err -a -z "$(ranges)"
# An empty folder at an entry's name: replaced, not fetched at every read.
rm -f "$cached"
mkdir "$cached"
blvl=./bounded rc 0 cat "$u" game.a
has err "is a folder, not a file"
ok "folder at an entry: replaced by the section" same_file "$cached" a.packed
nginx_log_clear
blvl=./bounded rc 0 cat "$u" game.a
ok "folder replaced: the next read is from the cache" test -z "$(ranges)"
# DIR/tmp a symlink to someone else's folder: not followed, nothing there removed or written,
# said once; reads still work (without caching).
mkdir elsewhere
echo theirs >elsewhere/blvl-1.0.1700000000123456789.tmp
echo theirs >elsewhere/notes
touch -d '2 hours ago' elsewhere/*
export BLVL_CACHE=$work/cache5
mkdir -p "$BLVL_CACHE"
ln -s "$work/elsewhere" "$BLVL_CACHE/tmp"
blvl=./bounded rc 0 cat "$u" game.b
has err "blvl: warning: cache: $BLVL_CACHE/tmp is a symlink, not a folder: not used"
ok "tmp symlink: said once" test "$(wc -l <err)" = 1
ok "tmp symlink: the other folder's files survive" \
    test -f elsewhere/notes -a -f elsewhere/blvl-1.0.1700000000123456789.tmp
ok "tmp symlink: nothing written there" test "$(ls elsewhere | wc -l)" = 2
ok "tmp symlink: the link stays" test -L "$BLVL_CACHE/tmp"
# New folders are the user's alone.
export BLVL_CACHE=$work/new/cache
(umask 000 && "$blvl" cat "$u" game.a >/dev/null)
for d in "$work/new" "$BLVL_CACHE" "$BLVL_CACHE/sections" "$BLVL_CACHE/sections/${a_digest:0:2}" \
    "$BLVL_CACHE/tables" "$BLVL_CACHE/tmp"; do
    ok "new folder ${d#"$work"/} is 0700 (umask 000)" test "$(stat -c %a "$d")" = 700
done
unset BLVL_CACHE

cli_done test_http_cache_nginx

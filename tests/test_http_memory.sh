#!/usr/bin/env bash
# The memory cap of reads over HTTP (docs/HTTP.md, "Large sections"): a level with a 200 MiB
# incompressible section (51 raw chunks) served by nginx on 127.0.0.1. `blvl fetch -o`, with and
# without a cache, `blvl cat URL TAG`, cold and from the cache, and `blvl verify URL` each peak
# under 64 MiB of resident memory (the kernel's own count, getrusage's ru_maxrss of the child),
# and give the server's bytes. Before, cat held the packed section and its raw copy (over
# 400 MB), verify and fetch --cache the packed section (over 200 MB).
# Then the packed-size rule over HTTP: a table that claims 16 GiB packed for 1,000 raw bytes,
# and one byte over the bound, are refused at open with packed-size; at the bound it opens.
# Skipped (77) without nginx.
. "$BLVL_SRC/tests/support/cli.sh"
. "$BLVL_SRC/tests/support/nginx.sh"
cli_workdir
mkdir www
head -c $((200 << 20)) /dev/urandom >big.bin
head -c 1000 /dev/urandom >small.bin
rc 0 pack --container -o www/level.blvl game.small=small.bin game.big=big.bin
nginx_start www || exit 1
url=$nginx_url/level.blvl
cap=$((64 << 10)) # KiB

# peak WHAT CMD...: CMD's peak resident memory in KiB, checked against the cap; the SHA-256 of
# its stdout (hashed as it comes, not written) in ./out.
peak() {
    local what=$1
    shift
    local kib
    kib=$(python3 -c '
import hashlib, resource, subprocess, sys
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE)
h = hashlib.sha256()
for piece in iter(lambda: p.stdout.read(1 << 20), b""):
    h.update(piece)
r = p.wait()
open("out", "w").write(h.hexdigest() + "\n")
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if r == 0 else -1)' "$@")
    ok "$what: exits 0" test "$kib" -ge 0
    ok "$what: peak $kib KiB under $cap KiB" test "$kib" -lt $cap
    echo "$what: peak $kib KiB"
}
big_sha=$(sha256sum big.bin | cut -d' ' -f1)

peak "fetch -o" "$blvl" fetch "$url" -o got.blvl
ok "fetch -o: the server's bytes" cmp got.blvl www/level.blvl
peak "fetch -o --cache" "$blvl" fetch "$url" -o got2.blvl --cache=cache
ok "fetch -o --cache: the server's bytes" cmp got2.blvl www/level.blvl
ok "fetch -o --cache: the section is cached" test "$(find cache/sections -type f -size +199M | wc -l)" = 1
rm -f got.blvl got2.blvl
peak "cat URL game.big" "$blvl" cat "$url" game.big
ok "cat: the section's bytes" test "$(cat out)" = "$big_sha"
peak "cat URL game.big, from the cache" env BLVL_CACHE=cache "$blvl" cat "$url" game.big
ok "cat from the cache: the section's bytes" test "$(cat out)" = "$big_sha"
peak "verify URL" "$blvl" verify --container "$url"
rm -f out big.bin

# packed-size over HTTP: game.small is 1,000 raw bytes in one raw chunk, 1,016 packed, the
# bound; the table is rewritten to claim more, its digest recomputed (outside identity).
claim() { # claim PACKED OUT
    python3 - "$BLVL_SRC/tests/golden" www/level.blvl "$1" "$2" <<'EOF'
import struct, sys
sys.path.insert(0, sys.argv[1])
import blvlspec
data = bytearray(open(sys.argv[2], "rb").read())
p = blvlspec.parse(bytes(data))
toff = p["table_offset"]
for i, e in enumerate(p["entries"]):
    if e.tag == "game.small":
        struct.pack_into("<Q", data, toff + 64 * i + 24, int(sys.argv[3]))
p = blvlspec.parse(bytes(data))
data[24:40] = blvlspec.table_digest_of(p)
open(sys.argv[4], "wb").write(data)
EOF
}
ok "game.small is at its bound" sh -c "'$blvl' ls www/level.blvl | grep -q '^game.small .* 1016 '"
claim 1016 www/at.blvl
claim 1017 www/over.blvl
claim $((16 << 30)) www/huge.blvl
rc 0 info "$nginx_url/at.blvl"
rc 0 cat "$nginx_url/at.blvl" game.small
ok "at the bound: the section's bytes" cmp out small.bin
rc 1 info "$nginx_url/over.blvl"
has err "packed-size"
has err "game.small"
rc 1 cat "$nginx_url/huge.blvl" game.small
has err "packed-size"
ok "nothing printed" test ! -s out
rc 1 info www/huge.blvl
has err "packed-size"
cli_done test_http_memory

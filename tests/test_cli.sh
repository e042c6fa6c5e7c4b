#!/usr/bin/env bash
# The blvl program end to end: every subcommand, exit codes 0/1/2, --help, the one-line
# failure report, and cross-checks against independent tools: b3sum for the identity, the
# table digest and the section digests; the zstd tool for a compressed chunk; python's json
# for info --json.
set -u
src=${BLVL_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${BLVL_BIN:-$src/build/blvl}
for tool in python3 b3sum zstd dd cmp; do
    command -v "$tool" >/dev/null || { echo "test_cli: $tool is required" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
pass=0
fail=0
ok() { # ok DESCRIPTION COMMAND...
    local what=$1
    shift
    if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $what" >&2; fi
}
# rc N ARGS...: run blvl, keep stdout/stderr in out/err, check the exit status is N
rc() {
    local want=$1
    shift
    "$bin" "$@" >out 2>err
    local got=$?
    if [ "$got" = "$want" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: blvl $* exited $got, expected $want; stderr: $(head -c 300 err)" >&2
    fi
}
# one_line FILE RULE: stderr is exactly one line "blvl: FILE: RULE: ..."
one_line() {
    ok "one stderr line naming $1 and $2 (got: $(head -c 300 err))" \
        test "$(wc -l <err)" = 1 -a "$(grep -c "^blvl: $1: $2: " err)" = 1
}
b3() { b3sum --length 16 --no-names "$@"; }

# ---- inputs --------------------------------------------------------------------------------
printf 'meta of a tiny level\n' >meta.bin
seq 1 30000 >sim.bin                         # compressible: stored as a zstd chunk
head -c 200000 /dev/urandom >noise.bin        # incompressible: stored raw
: >empty.bin
head -c 5000 /dev/urandom >thumb.bin

# ---- help and usage ------------------------------------------------------------------------
rc 0 --help
ok "--help lists the commands" grep -q '^  stream' out
# bake's summary names every format it reads, not only .hmap (issue 28)
ok "--help: bake reads .lvl and Quake 3 too" grep -qE '^  bake +bake a source map \(\.hmap, Subspace or Riot \.lvl, Quake 3 \.bsp/\.pk3\)' out
for c in info verify identity ls cat put drop pack rewrite stream trace; do
    rc 0 "$c" --help
    ok "$c --help prints a usage line" grep -q "^usage: blvl $c" out
done
rc 2
rc 2 no-such-command
rc 2 info
rc 2 info --bogus x.blvl
rc 2 identity
rc 2 ls a b
rc 2 cat only-file
rc 2 cat x.blvl 'Bad Tag'
rc 2 put x.blvl
rc 2 put --version abc x.blvl eds.x meta.bin
rc 2 drop x.blvl
rc 2 pack meta=meta.bin
rc 2 pack -o x.blvl 'no-equals'
rc 2 pack -o x.blvl 'UPPER=meta.bin'
rc 2 pack -o x.blvl meta=meta.bin meta=sim.bin
rc 2 pack -o x.blvl --id eds.missing meta=meta.bin
rc 2 pack -o x.blvl --version meta=x meta=meta.bin
rc 2 rewrite onlyone
rc 2 stream --piece 0
rc 2 stream --want 'Bad'
rc 2 verify

# ---- pack, identity, info, ls, cat, verify ---------------------------------------------------
rc 0 pack --container -o a.blvl --id eds.noise --version eds.noise=4 meta=meta.bin sim=sim.bin \
    eds.noise=noise.bin eds.empty=empty.bin
rc 0 pack --container -o a2.blvl --id eds.noise --version eds.noise=4 meta=meta.bin sim=sim.bin \
    eds.noise=noise.bin eds.empty=empty.bin
ok "pack: same inputs, same bytes" cmp -s a.blvl a2.blvl
rc 0 identity a.blvl
id=$(cat out)
ok "identity is 32 lowercase hex digits and a newline" \
    test "$(grep -cE '^[0-9a-f]{32}$' out)" = 1 -a "$(wc -c <out)" = 33
rc 0 identity a.blvl
ok "identity is stable" test "$(cat out)" = "$id"

rc 0 info --json a.blvl
ok "info --json is JSON" python3 -c 'import json,sys; json.load(sys.stdin)' <out
python3 - out "$id" "$(wc -c <sim.bin)" >check.txt <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
e = {x["tag"]: x for x in d["entries"]}
ok = (d["identity"] == sys.argv[2] and d["count"] == 4 and d["container_version"] == 1
      and d["floor"] == 4096 and d["table_offset"] == 64
      and e["meta"]["in_identity"] and e["sim"]["in_identity"] and e["eds.noise"]["in_identity"]
      and not e["eds.empty"]["in_identity"] and e["eds.noise"]["version"] == 4
      and e["sim"]["raw_size"] == int(sys.argv[3]) and e["eds.empty"]["raw_size"] == 0)
print("ok" if ok else "bad: %r" % d)
EOF
ok "info --json fields (identity, flags, versions)" grep -qx ok check.txt
rc 0 info a.blvl
ok "info prints the identity" grep -q "identity *$id" out

# Independent: identity, table digest and section digests recomputed with b3sum.
cat >parse.py <<'EOF'
import struct, sys
data = open(sys.argv[1], "rb").read()
what = sys.argv[2]
magic = data[:8]
count, toff = struct.unpack_from("<II", data, 40)
table = data[toff:toff + 64 * count]
ents = [table[i * 64:(i + 1) * 64] for i in range(count)]
out = sys.stdout.buffer
if what == "table":
    floor, = struct.unpack_from("<Q", data, 16)
    out.write(magic + struct.pack("<IIQII", 1, count, floor, toff, 0) + table)
elif what == "identity":
    recs = []
    for e in ents:
        tag, off, packed, raw, ver, flags = struct.unpack_from("<16sQQQII", e)
        if flags & 1:
            recs.append(tag + struct.pack("<IIQ", ver, 0, raw) + e[48:64])
    recs.sort(key=lambda r: r[:16])
    out.write(magic + struct.pack("<II", 1, len(recs)) + b"".join(recs))
elif what == "sections":  # TAG OFFSET PACKED DIGEST per line
    for e in ents:
        tag, off, packed, raw, ver, flags = struct.unpack_from("<16sQQQII", e)
        print(tag.rstrip(b"\0").decode(), off, packed, e[48:64].hex())
elif what == "frame":  # the first chunk of section argv[3] (must be a single chunk)
    for e in ents:
        tag, off, packed, raw, ver, flags = struct.unpack_from("<16sQQQII", e)
        if tag.rstrip(b"\0").decode() == sys.argv[3]:
            p = data[off:off + packed]
            n, = struct.unpack_from("<I", p, len(p) - 4)
            psz, rsz, codec = struct.unpack_from("<IIB", p, len(p) - 4 - 12 * n)
            assert n == 1 and codec == 1, (n, codec)
            out.write(p[:psz])
EOF
ok "identity = b3sum of the identity records" \
    test "$(python3 parse.py a.blvl identity | b3)" = "$id"
ok "table digest = b3sum of magic, version, count, floor, table offset, 0 and the table" \
    test "$(python3 parse.py a.blvl table | b3)" = "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["table_digest"])' <<<"$("$bin" info --json a.blvl)")"
python3 parse.py a.blvl sections >sections.txt
while read -r tag off packed digest; do
    got=$(dd if=a.blvl bs=64 skip=$((off / 64)) count=$(((packed + 63) / 64)) 2>/dev/null |
        head -c "$packed" | b3)
    ok "section $tag digest = b3sum of its packed bytes" test "$got" = "$digest"
done <sections.txt
ok "the zstd chunk of sim inflates (zstd -d) to the input" \
    sh -c 'python3 parse.py a.blvl frame sim | zstd -dc | cmp -s - sim.bin'

rc 0 ls a.blvl
ok "ls: one line per section" test "$(wc -l <out)" = 4
ok "ls: eds.noise version 4 in identity" grep -qE '^eds\.noise +4 id 200000 ' out
ok "ls: eds.empty outside identity" grep -qE '^eds\.empty +0 - 0 ' out
for t in meta sim eds.noise eds.empty; do
    f=$t.bin
    [ "$t" = eds.noise ] && f=noise.bin
    [ "$t" = eds.empty ] && f=empty.bin
    rc 0 cat a.blvl "$t"
    ok "cat $t gives back the exact input bytes" cmp -s out "$f"
done
rc 1 cat a.blvl eds.nothere
one_line a.blvl not-found
rc 0 verify --container a.blvl
ok "verify says ok" grep -q '^a.blvl: ok (4 sections)$' out

# ---- refusals ------------------------------------------------------------------------------
cp a.blvl bad.blvl
simoff=$(awk '$1 == "sim" { print $2 + 10 }' sections.txt)
python3 -c 'import sys; f = open(sys.argv[1], "r+b"); o = int(sys.argv[2]); f.seek(o); b = f.read(1)[0]; f.seek(o); f.write(bytes([b ^ 0xFF]))' bad.blvl "$simoff"
rc 0 identity bad.blvl # the table is intact: the name is still readable
rc 1 verify --container bad.blvl
one_line bad.blvl section-digest
rc 1 cat bad.blvl sim
one_line bad.blvl section-digest
rc 0 cat bad.blvl meta # other sections stay readable
cp a.blvl hdr.blvl
printf '\x02' | dd of=hdr.blvl bs=1 seek=8 conv=notrunc 2>/dev/null
rc 1 info hdr.blvl
one_line hdr.blvl container-version
cp a.blvl tdig.blvl
# flip the byte's bits: a byte set to a fixed value may already hold it
python3 -c 'import sys; f = open(sys.argv[1], "r+b"); f.seek(30); b = f.read(1)[0]; f.seek(30); f.write(bytes([b ^ 0xFF]))' tdig.blvl
rc 1 identity tdig.blvl
one_line tdig.blvl table-digest
# identity opens the level (every rule of FORMAT.md §2-§4, no payload read): 2 MiB of junk
# after the last section breaks rule 10, and there is no name to print
cp a.blvl unref.blvl
head -c 2097152 /dev/zero >>unref.blvl
rc 1 identity unref.blvl
one_line unref.blvl unreferenced-bytes
head -c 1000 a.blvl >short.blvl
rc 1 verify --container short.blvl
one_line short.blvl truncated
rc 1 verify --container meta.bin
one_line meta.bin truncated
rc 1 verify --container a.blvl short.blvl # any refused file makes the run fail, the good one is reported
ok "verify of several files reports each" grep -q '^a.blvl: ok' out
rc 1 info /nonexistent/x.blvl
one_line /nonexistent/x.blvl io
rc 1 pack -o x.blvl meta=/nonexistent/meta.bin
ok "pack: unreadable input named" grep -q '^blvl: /nonexistent/meta.bin: ' err

# ---- put, drop, rewrite keep the identity --------------------------------------------------
cp a.blvl e.blvl
rc 0 put e.blvl eds.thumb thumb.bin
rc 0 put --version 7 e.blvl eds.empty meta.bin
rc 0 identity e.blvl
ok "put keeps the identity" test "$(cat out)" = "$id"
rc 0 cat e.blvl eds.thumb
ok "put: cat gives the new bytes" cmp -s out thumb.bin
rc 0 ls e.blvl
ok "put --version sets the version" grep -qE '^eds\.empty +7 - ' out
rc 1 put e.blvl sim meta.bin
one_line e.blvl identity-section
# a tag without a dot is a core tag (FORMAT.md §4 rule 1); the message says a game's tag needs a
# vendor prefix, not that 'notag' is a core section (issue 28)
rc 1 put e.blvl notag meta.bin
one_line e.blvl identity-section
ok "put notag: a game's tag needs a vendor prefix" grep -qF "identity-section: 'notag' has no dot, so it is a core tag: core sections are always in identity (bake the level again to change one); a game's tag needs a vendor prefix with a dot (game.notag)" err
rc 1 rewrite e.blvl e2.blvl --put notag=meta.bin
ok "rewrite --put notag: a game's tag needs a vendor prefix" grep -qF "a game's tag needs a vendor prefix with a dot (game.notag)" err
rc 1 put e.blvl eds.noise meta.bin
one_line e.blvl identity-section
rc 0 drop e.blvl eds.thumb
rc 1 cat e.blvl eds.thumb
one_line e.blvl not-found
rc 1 drop e.blvl meta
one_line e.blvl identity-section
rc 0 verify --container e.blvl
rc 0 identity e.blvl
ok "drop keeps the identity" test "$(cat out)" = "$id"
rc 0 rewrite e.blvl r.blvl
rc 0 identity r.blvl
ok "rewrite keeps the identity" test "$(cat out)" = "$id"
ok "rewrite compacts" test "$(wc -c <r.blvl)" -lt "$(wc -c <e.blvl)"
rc 0 verify --container r.blvl
rc 0 cat r.blvl eds.empty
ok "rewrite carries a game section through" cmp -s out meta.bin
rc 1 rewrite /nonexistent/in.blvl r2.blvl
ok "rewrite: one stderr line" test "$(wc -l <err)" = 1

# ---- stream --------------------------------------------------------------------------------
size=$(wc -c <a.blvl)
"$bin" stream --want eds.noise <a.blvl >s1 2>err
ok "stream exits 0" test $? = 0
ok "stream: the table first, before any payload byte" \
    sh -c "head -n 1 s1 | grep -qE '^table [0-9]+ count=4 identity=$id table_digest=[0-9a-f]{32}$' && test \$(head -n 1 s1 | cut -d' ' -f2) -le 4096"
ok "stream: one event per section, then the end" \
    test "$(grep -c '^section .* ok' s1)" = 4 -a "$(tail -n 1 s1)" = "end $size"
ok "stream: the wanted section's b3 is b3sum of the input" \
    grep -q "^section eds.noise [0-9]* ok raw=$(wc -c <noise.bin) b3=$(b3 noise.bin)$" s1
ok "stream: unwanted sections carry no data" \
    test "$(grep -c 'raw=' s1)" = 1
"$bin" stream --want eds.noise --piece 1 a.blvl >s2 2>err
ok "stream: 1-byte pieces, same events" cmp -s s1 s2
"$bin" stream --want eds.noise --piece 777 <a.blvl >s3 2>err
ok "stream: 777-byte pieces, same events" cmp -s s1 s3
# a wanted core section meets verify's rules too: this sim is text, not a Sim FlatBuffer
"$bin" stream --want sim a.blvl >s7 2>err
ok "stream --want sim: a sim that is no FlatBuffer is bad" test $? = 1
ok "stream --want sim: the event names the verifier" grep -q '^section sim [0-9]* bad flatbuffer: section sim: ' s7
one_line a.blvl flatbuffer
"$bin" stream a.blvl >s8 2>err
ok "stream without --want: digests only, exit 0" test $? = 0
"$bin" stream --want eds.noise a.blvl >/dev/full 2>err
ok "stream >/dev/full exits 1" test $? = 1
one_line stdout io
"$bin" stream <bad.blvl >s4 2>err
ok "stream of a corrupted section exits 1" test $? = 1
ok "stream reports the bad section where it ends, and goes on" \
    sh -c "grep -q '^section sim [0-9]* bad section-digest: ' s4 && test \"\$(tail -n 1 s4)\" = 'end $size'"
one_line stdin section-digest
"$bin" stream <short.blvl >s5 2>err
ok "stream of a truncated level exits 1" test $? = 1
one_line stdin truncated
"$bin" stream <hdr.blvl >s6 2>err
ok "stream refuses a bad header with nothing on stdout" test $? = 1 -a ! -s s6
one_line stdin container-version

echo "test_cli: $pass passed, $fail failed"
[ "$fail" = 0 ]

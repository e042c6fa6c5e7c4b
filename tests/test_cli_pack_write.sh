#!/usr/bin/env bash
# blvl pack's write path (FORMAT.md §9, docs/WRITER.md): a level a reader would refuse for its inflation
# budget is never written; game sections stream from files, stdin and pipes alike with the
# same bytes; a read-only file of another owner is not replaced by pack -o or rewrite.
set -u
blvl=${BLVL_BIN:?}
src=${BLVL_SRC:?}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chmod 0777 "$work"
cd "$work"
. "${BLVL_SRC:?}/tests/support/cli.sh"
S=$src/tests/data/sections
core=(meta=$S/meta.json sim=$S/sim.json)

# 68 MiB of zeros pack to a few KB: over max(64 MiB, 64 x covered). Refused, nothing written.
head -c $((68 << 20)) /dev/zero >zeros.bin
rc 1 pack -o z.blvl "${core[@]}" x.zeros=zeros.bin
ok "the refusal names the rule" grep -q '^blvl: z.blvl: inflation-budget: ' err
ok "the refusal names the section" grep -q "'x.zeros'" err
ok "the refusal gives the ratio" grep -Eq 'ratio [0-9]+:1' err
ok "nothing written" test "$(ls -A | grep -c '^z.blvl')" = 0
printf 'old' >z.blvl
rc 1 pack -o z.blvl "${core[@]}" x.zeros=zeros.bin
ok "the old file is untouched" test "$(cat z.blvl)" = old
ok "no temporary file is left" test "$(ls -A | grep -c '^z.blvl')" = 1
head -c $(((64 << 20) - (64 << 10))) /dev/zero >zeros.bin # meta and sim count too
rc 0 pack -o z.blvl "${core[@]}" x.zeros=zeros.bin
rc 0 verify z.blvl
rm -f zeros.bin

# Streamed game sections: a file, stdin and a pipe give the same level.
head -c 9000000 /dev/urandom >rand.bin
python3 -c 'import sys; sys.stdout.buffer.write((b"lamp door crate " * 400000)[:6000001])' >text.bin
rc 0 pack -o a.blvl "${core[@]}" x.rand=rand.bin x.text=text.bin
rc 0 pack -o b.blvl "${core[@]}" x.rand=- x.text=<(cat text.bin) <rand.bin
ok "stdin and a pipe give the same bytes as files" cmp -s a.blvl b.blvl
rc 0 pack --threads 1 -o c.blvl "${core[@]}" x.rand=rand.bin x.text=text.bin
ok "one thread gives the same bytes" cmp -s a.blvl c.blvl
rc 0 verify a.blvl
rc 0 cat a.blvl x.text
ok "a streamed section reads back" cmp -s out text.bin
rc 1 pack -o d.blvl "${core[@]}" x.dir=.
ok "a directory is refused before anything is written" test ! -e d.blvl
rc 1 pack -o d.blvl "${core[@]}" x.none=no-such-file
ok "a missing file names it" grep -q 'no-such-file' err

# A read-only file of another owner in a writable directory: pack -o and rewrite refuse (io).
if [ "$(id -u)" = 0 ]; then
    if command -v setpriv >/dev/null; then
        as_other=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    else
        as_other=()
        echo "skip: read-only target of another owner (no setpriv to drop root)"
    fi
else
    as_other=(env) # our own 0444 file: this process could not write it in place either
fi
if [ ${#as_other[@]} -gt 0 ]; then
    cp a.blvl ro.blvl
    chmod 0444 ro.blvl
    cp ro.blvl ro.before
    "${as_other[@]}" "$blvl" pack -o ro.blvl "${core[@]}" >out 2>err
    ok "pack -o over a read-only file fails" test $? = 1
    ok "pack names io" grep -q '^blvl: ro.blvl: io: cannot replace ro.blvl: this process could not write it in place' err
    "${as_other[@]}" "$blvl" rewrite ro.blvl ro.blvl >out 2>err
    ok "rewrite IN IN of a read-only file fails" test $? = 1
    ok "rewrite names io" grep -q 'io: cannot replace' err
    ok "the file is untouched" cmp -s ro.blvl ro.before
    ok "no temporary file is left" test "$(ls -A | grep -c '^ro.blvl')" = 1
    chmod 0666 ro.blvl
    "${as_other[@]}" "$blvl" pack -o ro.blvl "${core[@]}" >out 2>err
    ok "a writable file is replaced (even of another owner)" test $? = 0
fi

cli_done test_cli_pack_write

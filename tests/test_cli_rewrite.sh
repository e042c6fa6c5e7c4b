#!/usr/bin/env bash
# blvl rewrite as the way out of an in-place edit with no room (--put/--drop), and what a
# rewrite carries or drops: game sections untouched, core sections this program does not know
# dropped (renaming the level), a level with an unreadable meta/sim refused.
set -u
. "${BLVL_SRC:?}/tests/support/cli.sh"
cli_workdir
S=$src/tests/data/sections
head -c 3000000 /dev/urandom >big.bin
printf 'small payload' >small.bin
printf 'v2' >v2.bin

rc 0 pack -o a.blvl meta=$S/meta.json sim=$S/sim.json eds.a=small.bin eds.c=small.bin
"$blvl" identity a.blvl >id.a
cp a.blvl before.blvl
# 3 MB into a 6 KB level: the old level would carry too many unreferenced bytes before the commit
rc 1 put a.blvl eds.big big.bin
ok "no-room is named" grep -q 'no-room' err
ok "no-room offers rewrite --put" grep -q 'blvl rewrite IN OUT --put TAG=PATH' err
ok "a refused edit leaves the file unchanged" cmp -s a.blvl before.blvl

rc 0 rewrite a.blvl b.blvl --put eds.big=big.bin --put eds.a=v2.bin --version eds.a=2
rc 0 verify b.blvl
"$blvl" identity b.blvl >id.b
ok "rewrite --put keeps the identity" cmp -s id.a id.b
rc 0 cat b.blvl eds.big
ok "put section reads back" cmp -s out big.bin
rc 0 cat b.blvl eds.a
ok "replaced section reads back" cmp -s out v2.bin
rc 0 ls b.blvl
ok "replaced in place, new one last" test "$(awk '{print $1}' out | tr '\n' ' ')" = "meta sim eds.a eds.c eds.big "
ok "--version applies" grep -q '^eds.a *2 ' out

rc 0 rewrite b.blvl b.blvl --drop eds.big
rc 0 verify b.blvl
rc 0 ls b.blvl
ok "rewrite over itself, --drop" test "$(grep -c '^eds.big' out)" = 0
ok "the other sections stay" test "$(grep -c '^eds.a ' out)" = 1
"$blvl" identity b.blvl >id.c
ok "drop keeps the identity" cmp -s id.a id.c

rc 1 rewrite a.blvl x.blvl --put meta=small.bin
ok "core tag cannot be put" grep -q 'identity-section' err
ok "no output after a refusal" test ! -e x.blvl
rc 0 pack -o g.blvl --id eds.rules meta=$S/meta.json sim=$S/sim.json eds.rules=small.bin
rc 1 rewrite g.blvl x.blvl --put eds.rules=v2.bin
ok "identity game section cannot be replaced" grep -q 'identity-section' err
rc 2 rewrite a.blvl
rc 2 rewrite a.blvl x.blvl --put nonsense
rc 2 rewrite a.blvl x.blvl --version eds.zz=1
rc 0 rewrite --help

# what a rewrite carries: game sections with flags and version; unknown core sections dropped
rc 0 pack -o u.blvl --id eds.rules --version eds.rules=9 --version cameras=7 meta=$S/meta.json \
    sim=$S/sim.json navmesh=small.bin cameras=$S/cameras.json sites=$S/sites.json \
    eds.rules=small.bin eds.free=small.bin
rc 0 rewrite u.blvl v.blvl
ok "unknown core tag dropped and named" grep -q "dropped core section 'navmesh'" err
ok "unknown core version dropped and named" grep -q "dropped core section 'cameras' at payload version 7" err
rc 0 ls v.blvl
ok "game sections carried with flags and version" grep -q '^eds.rules *9 *id ' out
ok "known core sections carried" grep -q '^sites ' out
ok "navmesh gone" test "$(grep -c '^navmesh' out)" = 0
rc 0 verify v.blvl
"$blvl" identity u.blvl >id.u; "$blvl" identity v.blvl >id.v
ok "dropping core sections renames the level" test "$(cat id.u)" != "$(cat id.v)"
rc 0 pack --container -o w.blvl --version meta=3 meta=$S/meta.json sim=$S/sim.json
rc 1 rewrite w.blvl y.blvl
ok "meta of an unknown version: refused" grep -q 'section-version' err
ok "no output for a refused level" test ! -e y.blvl

cli_done test_cli_rewrite

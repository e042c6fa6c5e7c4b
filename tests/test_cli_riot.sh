#!/usr/bin/env bash
# blvl bake of Riot engine .lvl files: every file of the malformed corpus (tests/data/riot/bad,
# written by an independent Python writer) refused with exactly its expected message, exit 1 and
# nothing written, found by its SRSC start and again with --from riot; every good file baked,
# verified and baked byte-identically again with another thread count.
set -u
. "${BLVL_SRC:?}/tests/support/cli.sh"
cli_workdir

bad=$src/tests/data/riot/bad
n=0
while IFS=$'\t' read -r name message; do
    [ -n "$name" ] || continue
    n=$((n+1))
    rc 1 bake --from riot "$bad/$name.lvl" -o out.blvl --symbols out.bsym
    ok "$name: the exact message" test "$(cat err)" = "blvl: $bad/$name.lvl: $message"
    none out.blvl
    none out.bsym
    if [ "$(head -c 4 "$bad/$name.lvl")" = SRSC ]; then # found by its bytes too
        rc 1 bake "$bad/$name.lvl" -o out.blvl
        ok "$name: the exact message (detected)" test "$(cat err)" = "blvl: $bad/$name.lvl: $message"
        none out.blvl
    fi
done <"$bad/expected.tsv"
ok "the malformed corpus has files" test "$n" -gt 10
ok "nothing left behind" test -z "$(ls -A | grep -vxE 'out|err')"

good=$src/tests/data/riot/good
g=0
for f in "$good"/*.lvl; do
    g=$((g+1))
    b=$(basename "$f" .lvl)
    rc 0 bake "$f" -o "$b.blvl" --symbols "$b.bsym"
    has out "baked $b.blvl: "
    rc 0 verify "$b.blvl"
    rc 0 bake "$f" -o "$b.2.blvl" --symbols "$b.2.bsym" --threads 1
    ok "$b: the same bytes again" cmp "$b.blvl" "$b.2.blvl"
    ok "$b: the same symbols again" cmp "$b.bsym" "$b.2.bsym"
done
ok "the good files are there" test "$g" -gt 2
cli_done test_cli_riot

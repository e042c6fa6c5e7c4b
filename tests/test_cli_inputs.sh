#!/usr/bin/env bash
# What a new user runs into, end to end: bounded inputs (/dev/zero is refused with
# raw-size, not read until memory runs out), options after operands for every command,
# blvl --version, -o checks, and io failures on stdout named as such.
set -u
bin=${BLVL_BIN:?}
src=${BLVL_SRC:?}
S=$src/tests/data/sections
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
blvl=$bin
. "${BLVL_SRC:?}/tests/support/cli.sh"
one_line() { # FILE RULE: stderr is exactly "blvl: FILE: RULE: ..."
    ok "one stderr line 'blvl: $1: $2: ...' (got: $(head -c 300 err))" \
        test "$(wc -l <err)" = 1 -a "$(grep -c "^blvl: $1: $2: " err)" = 1
}

rc 0 pack -o l.blvl "meta=$S/meta.json" "sim=$S/sim.json"

# ---- bounded inputs: 2 GiB at most ------------------------------------------------------------
truncate -s 2147483649 big    # sparse: refused by its size before a byte is read
rc 1 put l.blvl eds.big big
one_line big raw-size
rc 1 pack -o x.blvl "meta=$S/meta.json" "sim=$S/sim.json" eds.big=big
one_line big raw-size
ok "pack wrote nothing" test ! -e x.blvl
rc 1 rewrite l.blvl y.blvl --put eds.big=big
one_line big raw-size
rc 1 dump big bsym
one_line big raw-size
if [ -z "${BLVL_SANITIZED:-}" ]; then
    # The real limit from an input with no size: /dev/zero is read to 2 GiB + 1 bytes, then
    # refused (about 2 GiB of memory, a few seconds; the sanitizer run leaves it to the
    # small-limit checks of test_cli_read).
    start=$(date +%s)
    rc 1 put l.blvl eds.zero /dev/zero
    one_line /dev/zero raw-size
    echo "test_cli_inputs: put of /dev/zero refused in $(( $(date +%s) - start )) s"
    head -c 100 /dev/zero | "$bin" put l.blvl eds.small - 2>err
    ok "a small stdin input is fine" test $? = 0
fi
rc 0 verify l.blvl
rc 1 put l.blvl eds.x /nonexistent
one_line /nonexistent io
rc 1 put l.blvl eds.x .
one_line . io

# ---- options before or after the operands, for every command ---------------------------------
rc 0 dump l.blvl meta --indent 0
ok "dump FILE TAG --indent 0: one line" test "$(wc -l <out)" = 1
cp out a.json
rc 0 dump --indent 0 l.blvl meta
ok "the same as --indent 0 first" cmp -s out a.json
rc 2 dump l.blvl meta --indent 17
rc 2 dump l.blvl meta --bogus
rc 0 info l.blvl --json
rc 0 verify l.blvl --threads 1
rc 2 cat l.blvl meta --bogus
rc 2 ls l.blvl --bogus
rc 2 identity --bogus l.blvl
rc 2 drop l.blvl eds.small --bogus
rc 0 identity -- l.blvl
rc 0 ls l.blvl
rc 0 put l.blvl eds.v /dev/null --version 3
rc 0 ls l.blvl
ok "put --version after the operands" grep -qE '^eds\.v +3 ' out
rc 0 stream l.blvl --want meta
rc 0 pack "meta=$S/meta.json" "sim=$S/sim.json" -o after.blvl
ok "pack -o after the sections" test -s after.blvl

# ---- -o ---------------------------------------------------------------------------------------
rc 2 pack -o "" "meta=$S/meta.json" "sim=$S/sim.json"
ok "-o '' is a usage error naming it" grep -q "^blvl pack: -o wants a file name" err
rc 2 pack -o a.blvl -o b.blvl "meta=$S/meta.json" "sim=$S/sim.json"
ok "-o twice is a usage error" grep -q "^blvl pack: -o given twice" err
ok "nothing written" test ! -e a.blvl -a ! -e b.blvl
rc 2 pack --output a.blvl -o b.blvl "meta=$S/meta.json" "sim=$S/sim.json"

# ---- --version ---------------------------------------------------------------------------------
version=$(sed -n 's/^project(blvl VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
rc 0 --version
ok "blvl --version is 'blvl $version'" test "$(cat out)" = "blvl $version"
for p in MAJOR MINOR PATCH; do
    eval "h_$p=\$(sed -n 's/^#define BLVL_VERSION_$p \([0-9]*\)\$/\1/p' '$src/include/blvl/version.h')"
done
ok "version.h agrees with CMakeLists.txt" test "$h_MAJOR.$h_MINOR.$h_PATCH" = "$version"

# ---- a stdout that cannot be written is an io failure ------------------------------------------
for args in "ls l.blvl" "info l.blvl" "cat l.blvl meta" "dump l.blvl meta" "stream --want meta l.blvl" "identity l.blvl"; do
    "$bin" $args >/dev/full 2>err
    ok "blvl $args >/dev/full exits 1" test $? = 1
    ok "blvl $args >/dev/full: one io line ($(head -c 200 err))" \
        test "$(wc -l <err)" = 1 -a "$(grep -c '^blvl: stdout: io: ' err)" = 1
done

cli_done test_cli_inputs

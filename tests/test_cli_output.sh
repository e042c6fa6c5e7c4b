#!/usr/bin/env bash
# The exact bytes blvl prints, held against committed transcripts in tests/data/cli_output/:
# identity, ls and info (text and --json) of the golden levels (tests/golden/, fixed bytes), and
# trace (text and --json: sweeps, point queries, reports, a points file) on the hand-made sim
# level of test_cli_trace.sh (sim.json). Other tests check values; this one catches any change
# of spacing, order or number formatting. After an intended change of the output, regenerate:
#   BLVL_BIN=build/blvl BLVL_SRC=. tests/test_cli_output.sh --update
set -u
blvl=${BLVL_BIN:?}
src=${BLVL_SRC:?}
data=$src/tests/data/cli_output
update=${1:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0

# transcript NAME: stdin (what the commands printed) against $data/NAME
transcript() {
    cat >"$work/$1.got"
    if [ "$update" = --update ]; then
        cp "$work/$1.got" "$data/$1"
    elif cmp -s "$work/$1.got" "$data/$1"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $1 differs from tests/data/cli_output/$1:"
        diff "$data/$1" "$work/$1.got" | head -20
    fi
}
# run ARGS...: the command line, then what it printed on stdout and its exit status
run() {
    echo "\$ blvl $*"
    "$blvl" "$@" 2>/dev/null
    echo "[exit $?]"
}

# Relative paths: info prints the path it was given.
cd "$src"
for f in base empty game raw zstd edited; do
    run identity "tests/golden/$f.blvl"
    run ls "tests/golden/$f.blvl"
done >"$work/out"
transcript ls.txt <"$work/out"
for f in base empty game raw zstd edited; do
    run info "tests/golden/$f.blvl"
    run info --json "tests/golden/$f.blvl"
done >"$work/out"
transcript info.txt <"$work/out"

cd "$work"
"$blvl" pack -o level.blvl "meta=$src/tests/data/sections/meta.json" "sim=$data/sim.json" ||
    { echo "FAIL: pack"; exit 1; }
PBOX="-16 -24 -16 16 32 16"
cat >pts.txt <<'EOF'
0 256 0         0 -256 0
20 40 0         148 40 0   # the player clip
170 40 0        298 40 0
-260 300 40     -260 44 40
-200 128 10     -456 128 10
0 -8 0          0 -10 0
EOF
for json in "" --json; do
    run trace level.blvl $json --reports
    run trace level.blvl $json --box $PBOX --from 0 256 0 --to 0 -256 0
    run trace level.blvl $json --from -200 128 10 --to -456 128 10 --as shot
    run trace level.blvl $json --box $PBOX --from 0 40 120 --to 0 40 248 --gametype 3
    run trace level.blvl $json --from 20 40 0 --to 148 40 0 --include 0x10 --exclude 0x20
    run trace level.blvl $json --box $PBOX --points pts.txt --water 350 32 0 --water 0 32 0 \
        --contents 350 32 0 --contents 104 10 0 --contents 204 10 0
    run trace level.blvl $json --as shot --from 0 0.1 0 --to 1e-5 -3.75 1234567 --contents 0 -1 0
    # the last collider: sky, a surface, bits 9 and 31 by number
    run trace level.blvl $json --from 650 200 650 --to 650 -50 650 --contents 650 50 650
done >"$work/out"
transcript trace.txt <"$work/out"

echo "test_cli_output: $pass passed, $fail failed"
[ $fail = 0 ]

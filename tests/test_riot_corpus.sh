#!/usr/bin/env bash
# The committed Riot test files (tests/data/riot/, fuzz/corpus/riot_srsc/, fuzz/corpus/riot_parse/)
# are exactly what tests/data/riot/make_riot.py writes, and every bad file has one line in
# expected.tsv. (tests/test_riot_files.c checks the reader against them.)
set -eu
src=${BLVL_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
python3 "$src/tests/data/riot/make_riot.py" "$work/data" "$work/srsc" "$work/parse" >/dev/null
for d in good bad; do
    if ! diff -r "$work/data/$d" "$src/tests/data/riot/$d" >"$work/diff" 2>&1; then
        echo "tests/data/riot/$d is stale (run tests/data/riot/make_riot.py):"; head -n 20 "$work/diff"; fail=1
    fi
done
for d in srsc parse; do
    if ! diff -r "$work/$d" "$src/fuzz/corpus/riot_$d" >"$work/diff" 2>&1; then
        echo "fuzz/corpus/riot_$d is stale (run tests/data/riot/make_riot.py):"; head -n 20 "$work/diff"; fail=1
    fi
done
# one line per bad file, one file per line
files=$(cd "$src/tests/data/riot/bad" && ls *.lvl | sed 's/\.lvl$//' | sort)
names=$(cut -f1 "$src/tests/data/riot/bad/expected.tsv" | sort)
if [ "$files" != "$names" ]; then
    echo "bad/*.lvl and bad/expected.tsv disagree"; fail=1
fi
[ $fail = 0 ] && echo "riot corpus: $(echo "$names" | wc -l) bad files, current"
exit $fail

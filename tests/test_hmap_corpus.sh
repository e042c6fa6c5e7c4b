#!/usr/bin/env bash
# The committed .hmap test files (tests/data/hmap/, fuzz/corpus/hmap_read/) are exactly what
# tests/data/hmap/make_hmap.py writes, and every bad file has one line in expected.tsv.
set -eu
src=${BLVL_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
python3 "$src/tests/data/hmap/make_hmap.py" "$work/data" "$work/fuzz" >/dev/null
for d in good bad; do
    if ! diff -r "$work/data/$d" "$src/tests/data/hmap/$d" >"$work/diff" 2>&1; then
        echo "tests/data/hmap/$d is stale (run tests/data/hmap/make_hmap.py):"; head -n 20 "$work/diff"; fail=1
    fi
done
if ! diff -r "$work/fuzz" "$src/fuzz/corpus/hmap_read" >"$work/diff" 2>&1; then
    echo "fuzz/corpus/hmap_read is stale (run tests/data/hmap/make_hmap.py):"; head -n 20 "$work/diff"; fail=1
fi
# one line per bad file, one file per line
files=$(cd "$src/tests/data/hmap/bad" && ls *.hmap | sed 's/\.hmap$//' | sort)
names=$(cut -f1 "$src/tests/data/hmap/bad/expected.tsv" | sort)
if [ "$files" != "$names" ]; then
    echo "bad/*.hmap and bad/expected.tsv disagree"; fail=1
fi
[ $fail = 0 ] && echo "hmap corpus: $(echo "$names" | wc -l) bad files, current"
exit $fail

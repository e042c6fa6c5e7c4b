#!/usr/bin/env bash
# The committed .lvl test files (tests/data/subspace/, fuzz/corpus/subspace_read/) are exactly
# what tests/data/subspace/make_lvl.py writes, and every bad file has one line in expected.tsv.
set -eu
src=${BLVL_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
python3 "$src/tests/data/subspace/make_lvl.py" "$work/data" "$work/fuzz" >/dev/null
for d in good bad; do
    if ! diff -r "$work/data/$d" "$src/tests/data/subspace/$d" >"$work/diff" 2>&1; then
        echo "tests/data/subspace/$d is stale (run tests/data/subspace/make_lvl.py):"
        head -n 20 "$work/diff"; fail=1
    fi
done
if ! diff -r "$work/fuzz" "$src/fuzz/corpus/subspace_read" >"$work/diff" 2>&1; then
    echo "fuzz/corpus/subspace_read is stale (run tests/data/subspace/make_lvl.py):"
    head -n 20 "$work/diff"; fail=1
fi
files=$(cd "$src/tests/data/subspace/bad" && ls *.lvl | sed 's/\.lvl$//' | sort)
names=$(cut -f1 "$src/tests/data/subspace/bad/expected.tsv" | sort)
if [ "$files" != "$names" ]; then
    echo "bad/*.lvl and bad/expected.tsv disagree"; fail=1
fi
[ $fail = 0 ] && echo "subspace corpus: $(echo "$names" | wc -l) bad files, current"
exit $fail

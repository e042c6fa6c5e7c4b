#!/usr/bin/env bash
# The malformed Quake 3 corpus through the command line: tests/data/q3/make_bsp.py writes a
# small valid map and variants of it each breaking one rule (sizes not a multiple of the record,
# offsets past the file, indices out of range, counts that overflow, node order, clusters and
# visibility) and malformed archives (CRC-32, sizes, names, cut, corrupt data). Each is refused
# with exit 1, its rule and its lump and record (or archive entry) named, and nothing written;
# the valid map bakes and verifies (control). docs/IMPORT-Q3.md, "Rules".
set -u
. "${BLVL_SRC:?}/tests/support/cli.sh"
cli_workdir
python3 "$src/tests/data/q3/make_bsp.py" data || { echo "make_bsp.py failed"; exit 1; }
bad=$work/data/bad

rc 0 bake data/good.bsp -o good.blvl
rc 0 verify good.blvl
rc 0 bake data/good.pk3 -o good2.blvl
rc 0 verify good2.blvl

# every malformed map also inside one archive, as maps/NAME.bsp
python3 - "$bad" <<'PY' || { echo "cannot write all.pk3"; exit 1; }
import glob, os, sys, zipfile
with zipfile.ZipFile("all.pk3", "w") as z:
    for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.bsp"))):
        z.write(f, "maps/" + os.path.basename(f))
PY
n=0
while IFS=$'\t' read -r name rule text; do
    [ -n "$name" ] || continue
    n=$((n+1))
    rc 1 bake "$bad/$name" -o out.blvl --symbols out.bsym
    has err "blvl: $bad/$name"
    has err ": $rule: "
    has err "$text"
    case $name in *.bsp) has err " at offset " ;; esac
    [ "$(wc -l <err)" = 1 ] && pass=$((pass+1)) || { fail=$((fail+1)); echo "FAIL: $name: not one line"; }
    none out.blvl
    none out.bsym
    # the same refusal when the map comes from an archive
    case $name in *.bsp)
        rc 1 bake "maps/$name" --pk3 all.pk3 -o out.blvl
        has err "blvl: maps/$name: "
        has err ": $rule: "
        none out.blvl ;;
    esac
done <"$bad/expected.tsv"
ok "the corpus holds 40 maps or more" test "$(grep -c '\.bsp' "$bad/expected.tsv")" -ge 40
ok "and malformed archives" test "$(grep -c '\.pk3' "$bad/expected.tsv")" -ge 5
ok "every rule of the table was seen" test "$n" = "$(grep -c . "$bad/expected.tsv")"
cli_done test_q3_corpus

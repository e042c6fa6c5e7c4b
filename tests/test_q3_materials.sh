#!/usr/bin/env bash
# The materials step on a small game folder (tests/data/q3/materials_case.py: scripts, TGA and
# JPEG images, a sky box, written with Pillow): every material's render state, Anim, emitted
# light and unknown keywords, each image once (TGA as PNG with the same pixels, JPEG byte for
# byte), missing images counted once, the sky cubemap's faces and the sun, all read back from
# `blvl dump` JSON. A control: the same check on a level baked without the search path must
# fail. Skips (77) without python3-pil.
set -u
blvl=${BLVL_BIN:?}
src=${BLVL_SRC:?}
py=/usr/bin/python3
[ -x "$py" ] || py=python3
"$py" -c 'import PIL' 2>/dev/null || { echo "SKIP: python3-pil is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail=0
"$py" "$src/tests/data/q3/materials_case.py" make "$work" || { echo "make failed"; exit 1; }
dump_all() { # LEVEL BSYM DIR
    mkdir -p "$3"
    for t in geometry textures cubemaps lighting; do
        "$blvl" dump "$1" "$t" > "$3/$t.json" 2>/dev/null || echo '{"images": [], "profiles": [{}]}' > "$3/$t.json"
    done
    "$blvl" dump "$2" bsym > "$3/bsym.json"
}
"$blvl" bake map.bsp --pk3 "$work/game" -o a.blvl --symbols a.bsym 2> err.txt || { cat err.txt; exit 1; }
cat err.txt
# textures/x/none.tga and textures/x/NONE are one name: missing once; of make_bsp's three
# shaders (no script, no image) floor and curve are drawn: two more; its wall, like
# textures/t/undrawn, is drawn by no surface, so its image is never looked up.
grep -q ": 3 missing images, 0 bad images, 3 unknown shader keywords" err.txt ||
    { echo "FAIL: the report's counts"; fail=1; }
"$blvl" verify a.blvl > /dev/null || { echo "FAIL: verify"; fail=1; }
dump_all a.blvl a.bsym "$work"
"$py" "$src/tests/data/q3/materials_case.py" check "$work" || fail=1
# the same inputs, the same bytes
"$blvl" bake map.bsp --pk3 "$work/game" -o b.blvl 2> /dev/null
cmp -s a.blvl b.blvl || { echo "FAIL: a second bake differs"; fail=1; }
# control: without the search path nothing of the scripts is read, so the check must fail
"$blvl" bake map.bsp -o c.blvl --symbols c.bsym 2> /dev/null || { echo "FAIL: bake without --pk3"; fail=1; }
dump_all c.blvl c.bsym "$work/ctl"
if "$py" "$src/tests/data/q3/materials_case.py" check "$work/ctl" > /dev/null; then
    echo "FAIL: the control passed"; fail=1
else
    echo "the control fails, as it must"
fi
[ $fail = 0 ] && echo "test_q3_materials: ok"
exit $fail

#!/usr/bin/env bash
# blvl bake on Subspace .lvl files end to end: the level's name (ATTR NAME, else the file's name
# without its directory and .lvl), a map written here by Python (an independent writer: eLVL with
# ATTR, then tile records) baked, verified and traced at cell centres, the same bytes again and
# with another thread count, the Python writer's good files (tests/data/subspace/good/) baked
# and verified, and every file of the malformed corpus (tests/data/subspace/bad/) refused with
# its message, exit 1 and nothing written.
set -u
. "${BLVL_SRC:?}/tests/support/cli.sh"
cli_workdir

# ---- a map by Python: eLVL (ATTR NAME, ATTR without '='), then records -------------------------
python3 - <<'PY'
import struct
def chunk(t, b):
    return t + struct.pack('<I', len(b)) + b + b'\0' * (-len(b) % 4)
body = chunk(b'ATTR', b'NAME=Python Zone') + chunk(b'ATTR', b'FLAG')
elvl = b'elvl' + struct.pack('<II', 12 + len(body), 0) + body
rec = lambda t, x, y: struct.pack('<I', t << 24 | y << 12 | x)
tiles = [rec(1, 10, 10), rec(2, 11, 10), rec(171, 12, 10), rec(173, 13, 10), rec(250, 14, 10),
         rec(162, 15, 10), rec(219, 20, 20)]
open('named.lvl', 'wb').write(elvl + b''.join(tiles))
open('plain.lvl', 'wb').write(b''.join(tiles))
PY
mkdir -p sub
cp plain.lvl "sub/Trench Wars.lvl"

rc 0 bake named.lvl -o named.blvl --symbols named.bsym
has out "baked named.blvl: "
rc 0 verify named.blvl
rc 0 dump named.blvl meta
has out '"name": "Python Zone"'
has out '"engine": "Subspace"'
rc 0 bake "sub/Trench Wars.lvl" -o plain.blvl
rc 0 dump plain.blvl meta
has out '"name": "Trench Wars"'
# the same bytes twice, whatever the thread count
rc 0 bake named.lvl -o again.blvl --threads 1
ok "the same bytes again" cmp named.blvl again.blvl
rc 0 bake named.lvl -o again4.blvl --threads 4
ok "the same bytes with 4 threads" cmp named.blvl again4.blvl
# cell centres (16x + 8, 8, 16y + 8): walls, the door and the invisible tile (clip) solid; safe
# and fly-over not; the station's 6 x 6 footprint solid to its last cell, not past it
rc 0 trace named.blvl --contents 168 8 168 --contents 184 8 168 --contents 200 8 168 \
    --contents 216 8 168 --contents 232 8 168 --contents 248 8 168
tr '\n' '|' <out >line
has line "contents at 168 8 168 count 1 flags 0x0"
has line "contents at 184 8 168 count 1 flags 0x0"
has line "contents at 200 8 168 count 0"
has line "contents at 216 8 168 count 0"
has line "contents at 232 8 168 count 1 flags 0x10 clip"
has line "contents at 248 8 168 count 1 flags 0x0"
rc 0 trace named.blvl --contents 328 8 328 --contents 408 8 408 --contents 424 8 424
tr '\n' '|' <out >line
has line "contents at 328 8 328 count 1"
has line "contents at 408 8 408 count 1"
has line "contents at 424 8 424 count 0"

# ---- the Python writer's good files: each bakes and verifies ------------------------------------
g=0
for f in "$src"/tests/data/subspace/good/*.lvl; do
    [ -e "$f" ] || continue
    g=$((g+1))
    rc 0 bake "$f" -o good.blvl --from subspace
    rc 0 verify good.blvl
    rm -f good.blvl
done
ok "the good files are there" test "$g" -gt 0

# ---- the malformed corpus -----------------------------------------------------------------------
bad=$src/tests/data/subspace/bad
n=0
while IFS=$'\t' read -r name message; do
    [ -n "$name" ] || continue
    n=$((n+1))
    rc 1 bake "$bad/$name.lvl" -o out.blvl --symbols out.bsym --from subspace
    has err "blvl: $bad/$name.lvl: $message"
    none out.blvl
    none out.bsym
done < <(cat "$bad/expected.tsv" 2>/dev/null)
ok "the malformed corpus has files" test "$n" -gt 0
cli_done test_cli_subspace

#!/usr/bin/env bash
# The blvl program and the rules every edit keeps: the inflation budget is one stateless rule
# (a level whose textures inflate to 40 MiB from a few KiB passes verify's container and level
# passes; put and rewrite refuse to write a level past it), rewrite --put/--drop cannot touch
# sections in identity and --drop names a section the level holds, and put, drop and an
# in-place rewrite share the edit lock (busy). Every refusal exits 1 and leaves the file as it
# was.
set -u
blvl=${BLVL_BIN:?}
src=${BLVL_SRC:?}
py=/usr/bin/python3 # Debian's, with python3-flatbuffers
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
. "${BLVL_SRC:?}/tests/support/cli.sh"
same() { cmp -s "$1" "$2"; }

# textures: one Image whose data is 40 MiB of zeros, built with the flatbuffers package.
"$py" - <<'EOF'
import flatbuffers
b = flatbuffers.Builder(1 << 20)
data = b.CreateByteVector(bytes(40 << 20))
b.StartObject(8)                      # Image: name, width, height, encoding, color_space,
b.PrependUOffsetTRelativeSlot(7, data, 0)  # mips, layers, data
img = b.EndObject()
b.StartVector(4, 1, 4)
b.PrependUOffsetTRelative(img)
images = b.EndVector()
b.StartObject(1)                      # Textures: images
b.PrependUOffsetTRelativeSlot(0, images, 0)
b.Finish(b.EndObject())
open("tex.bin", "wb").write(b.Output())
EOF
head -c $((68 << 20)) /dev/zero >zeros68
printf 'rules' >rules.bin
printf 'notes' >notes.bin

rc 0 pack -o tex.blvl meta="$src/tests/data/sections/meta.json" sim="$src/tests/data/sections/sim.json" \
    textures=tex.bin
ok "the 40 MiB textures level is a few KiB" test "$(stat -c %s tex.blvl)" -lt 65536
rc 0 verify tex.blvl
ok "verify: ok" grep -q '^tex.blvl: ok (3 sections)$' out
rc 0 verify --container tex.blvl
for i in 1 2 3; do
    "$blvl" cat tex.blvl textures >tex.out.$i 2>err
    ok "cat textures ($i)" cmp -s tex.out.$i tex.bin
done

# put and rewrite refuse a level a reader would refuse
rc 0 pack -o l.blvl --id eds.rules meta="$src/tests/data/sections/meta.json" \
    sim="$src/tests/data/sections/sim.json" eds.rules=rules.bin x.notes=notes.bin
cp l.blvl orig.blvl
rc 1 put l.blvl x.bomb zeros68
ok "put: inflation-budget named" grep -q 'inflation-budget: .*x.bomb.*ratio' err
ok "put: file untouched" same l.blvl orig.blvl
rc 1 rewrite l.blvl l.blvl --put x.bomb=zeros68
ok "rewrite --put: inflation-budget" grep -q 'inflation-budget: ' err
ok "rewrite --put in place: file untouched" same l.blvl orig.blvl
rc 1 rewrite l.blvl new.blvl --put x.bomb=zeros68
ok "rewrite --put: nothing written" test ! -e new.blvl

# rewrite --put/--drop and identity
for args in "--drop meta" "--drop eds.rules" "--put sim=notes.bin" "--put eds.rules=notes.bin"; do
    # shellcheck disable=SC2086
    rc 1 rewrite l.blvl l.blvl $args
    ok "rewrite $args: identity-section" grep -q 'identity-section: ' err
    ok "rewrite $args: file untouched" same l.blvl orig.blvl
done
rc 1 rewrite l.blvl new.blvl --drop x.none
ok "rewrite --drop of a missing tag: not-found" grep -q 'not-found: ' err
ok "rewrite --drop x.none: nothing written" test ! -e new.blvl
id=$("$blvl" identity l.blvl)
rc 0 rewrite l.blvl l.blvl --drop x.notes
ok "rewrite --drop x.notes keeps the identity" test "$("$blvl" identity l.blvl)" = "$id"
rc 0 verify l.blvl

# the edit lock: put, drop and an in-place rewrite are busy while another holds it
cp orig.blvl l.blvl
# The holder keeps the lock until `hold` is removed, however slow this machine is, and says
# when it has it.
touch hold
rm -f held
flock l.blvl sh -c 'touch held; while [ -e hold ]; do sleep 0.05; done' &
holder=$!
while [ ! -e held ]; do sleep 0.05; done
rc 1 put l.blvl x.more notes.bin
ok "put beside a held lock: busy" grep -q 'busy: ' err
rc 1 drop l.blvl x.notes
ok "drop beside a held lock: busy" grep -q 'busy: ' err
rc 1 rewrite l.blvl l.blvl
ok "in-place rewrite beside a held lock: busy" grep -q 'busy: ' err
ok "busy: file untouched" same l.blvl orig.blvl
rc 0 rewrite l.blvl copy.blvl # not in place: no lock
rm -f hold
wait "$holder" 2>/dev/null

cli_done test_cli_edit_rules

#!/usr/bin/env bash
# The blvl program over core sections: pack TAG=FILE.json (our builder), dump (compared with
# flatc's own JSON of the same bytes), verify's level rules (FlatBuffers verifier, required
# sections, payload versions) and --container.
set -u
. "${BLVL_SRC:?}/tests/support/cli.sh"
cli_workdir

tags=$(cat "$src/schema/core_tags.txt")  # every core tag, generated from schema/
ntags=$(echo "$tags" | wc -w)
args=()
for t in $tags; do args+=("$t=$src/tests/data/sections/$t.json"); done
rc 0 pack -o all.blvl "${args[@]}" eds.blocks="$src/tests/data/sections/meta.json"
rc 0 verify all.blvl
ok "verify reports every core section and eds.blocks" grep -q "^all.blvl: ok ($((ntags + 1)) sections)\$" out

mkdir -p flatc canon
for t in $tags; do
    # The sample as flatc sees it (flatc leaves out fields at their default, as dump does).
    flatc -b -I "$src/schema" -o flatc "$src/schema/$t.fbs" "$src/tests/data/sections/$t.json" 2>/dev/null
    flatc --json --strict-json --raw-binary -I "$src/schema" -o canon "$src/schema/$t.fbs" -- "flatc/$t.bin"
    # our JSON of our bytes == flatc's JSON of the sample; flatc's JSON of our bytes == ours
    rc 0 dump all.blvl "$t"
    cp out "dump.$t.json"
    ok "$t: dump equals the sample (through flatc)" python3 "$src/tests/fb/jsoncmp.py" "dump.$t.json" "canon/$t.json"
    "$blvl" cat all.blvl "$t" >"$t.bin"
    ok "$t: flatc reads our bytes" flatc --json --strict-json --raw-binary -I "$src/schema" -o . "$src/schema/$t.fbs" -- "$t.bin"
    ok "$t: flatc's JSON equals blvl dump" python3 "$src/tests/fb/jsoncmp.py" "$t.json" "dump.$t.json"
    # flatc's bytes, packed raw, dump the same
    rc 0 pack --container -o one.blvl "eds.x=$src/tests/data/sections/meta.json" "$t=flatc/$t.bin"
    rc 0 dump one.blvl "$t"
    ok "$t: dump of flatc's bytes equals the sample" python3 "$src/tests/fb/jsoncmp.py" out "canon/$t.json"
done
rc 0 dump --indent 0 all.blvl cameras
ok "dump --indent 0 is one line" test "$(wc -l <out)" = 1

# level rules: pack refuses what verify would refuse, with verify's message; --container
# writes it anyway (for these tests), and verify then says the same
S=$src/tests/data/sections
refused_like_verify() { # NAME PACK-ARGS...: pack refuses, --container writes, verify agrees
    local name=$1; shift
    rc 1 pack -o "$name" "$@"
    cp err pack.err
    ok "$name: pack writes nothing" test ! -e "$name"
    ok "$name: one line on stderr" test "$(wc -l <pack.err)" = 1
    rc 0 pack --container -o "$name" "$@"
    rc 1 verify "$name"
    ok "$name: pack's message is verify's ($(cat pack.err))" cmp -s pack.err err
}
# Fixed bytes (random ones start with "{" one time in 256 and would be read as JSON): a root
# offset of 0x6e756a89, far past the end, so no FlatBuffer.
printf '\x89junk, not a FlatBuffer: 0123456789abcd' >junk.bin
refused_like_verify junkmeta.blvl meta=bin:junk.bin "sim=$S/sim.json"
ok "junk meta: refused by the FlatBuffers verifier" grep -q '^blvl: junkmeta.blvl: flatbuffer: section meta' err
rc 0 verify --container junkmeta.blvl
rc 1 dump junkmeta.blvl meta
refused_like_verify nosim.blvl "meta=$S/meta.json"
ok "missing sim: required-section" grep -q 'required-section' err
refused_like_verify v1.blvl --version meta=1 "meta=$S/meta.json" "sim=$S/sim.json"
ok "meta at version 1: section-version" grep -q 'section-version' err
refused_like_verify geo.blvl "meta=$S/meta.json" "sim=$S/sim.json" geometry=junk.bin
ok "geometry not a FlatBuffer: flatbuffer" grep -q 'flatbuffer: section geometry' err
refused_like_verify simv3.blvl "meta=$S/meta.json" "sim=$S/sim.json" --version sim=3
ok "sim at version 3: section-version" grep -q 'section-version: sim' err
refused_like_verify empty.blvl
ok "no sections: required-section" grep -q 'required-section' err

# JSON by content, whatever the name; json: and bin: force it
cp "$S/meta.json" meta.JSON
printf '\n  \t' >ws.json && cat "$S/sim.json" >>ws.json   # leading whitespace
printf '\xef\xbb\xbf' >bom.json && cat "$S/meta.json" >>bom.json
rc 0 pack -o byname.blvl "meta=$S/meta.json" "sim=$S/sim.json"
rc 0 pack -o bycontent.blvl meta=meta.JSON sim=- <"$S/sim.json"
ok "meta.JSON and stdin JSON give the same level" cmp -s byname.blvl bycontent.blvl
rc 0 verify bycontent.blvl
rc 0 pack -o ws.blvl meta=bom.json sim=ws.json
ok "leading whitespace and a BOM: still JSON" cmp -s byname.blvl ws.blvl
cp "$S/sim.json" sim.txt
rc 0 pack -o forced.blvl meta=json:meta.JSON sim=json:sim.txt
ok "json: forces JSON" cmp -s byname.blvl forced.blvl
"$blvl" cat byname.blvl meta >meta.fb
rc 0 pack -o fb.blvl meta=meta.fb "sim=$S/sim.json"
ok "a FlatBuffer input is kept as it is" cmp -s byname.blvl fb.blvl
rc 0 pack -o fb2.blvl meta=bin:meta.fb "sim=$S/sim.json"
ok "bin: keeps the bytes" cmp -s byname.blvl fb2.blvl
rc 1 pack -o binjson.blvl meta=bin:meta.JSON "sim=$S/sim.json"
ok "bin: of JSON is not a FlatBuffer" grep -q 'flatbuffer: section meta' err
rc 1 pack -o jsonfb.blvl meta=json:meta.fb "sim=$S/sim.json"
ok "json: of a FlatBuffer is a JSON error naming the file" grep -q '^blvl: meta.fb: ' err
rc 2 pack -o x.blvl eds.x=json:meta.JSON
rc 2 pack -o x.blvl "meta=json:"
# A FlatBuffer that starts like JSON: its root offset 0x7B20 is the bytes ' ' '{' 0 0, the one
# start of JSON whose offset is aligned, so the verifier decides (docs/CLI.md)
python3 - <<'PY'
import struct
root = 0x7B20
buf = bytearray(struct.pack("<I", root)) + b"\0" * (root - 8)
buf += struct.pack("<HH", 4, 4)      # the vtable, 4 bytes before the table: no fields
buf += struct.pack("<i", 4)          # Meta at 0x7B20, its vtable 4 bytes before it
assert buf[:2] == b" {" and len(buf) == root + 4
open("space.fb", "wb").write(buf)
PY
rc 0 pack -o space.blvl meta=space.fb "sim=$S/sim.json"
"$blvl" cat space.blvl meta >space.out
ok "a FlatBuffer starting with a space is kept as a FlatBuffer" cmp -s space.fb space.out
printf ' ' >sp.json && cat "$S/meta.json" >>sp.json
rc 0 pack -o sp.blvl meta=sp.json "sim=$S/sim.json"
ok "JSON starting with a space is JSON" cmp -s byname.blvl sp.blvl

rc 0 pack -o cam1.blvl --version cameras=7 "meta=$src/tests/data/sections/meta.json" "sim=$src/tests/data/sections/sim.json" "cameras=$src/tests/data/sections/cameras.json"
rc 0 verify cam1.blvl
rc 1 dump cam1.blvl cameras
ok "optional section of an unknown version is dropped" grep -q 'cameras' err
rc 0 pack -o nocam.blvl "meta=$src/tests/data/sections/meta.json" "sim=$src/tests/data/sections/sim.json"
rc 1 dump nocam.blvl cameras
ok "dump of an absent section names it" grep -q 'cameras' err
rc 2 dump all.blvl notacore
rc 2 dump all.blvl
rc 0 dump --help
echo '{"name": 5, ' >bad.json
rc 1 pack -o bad.blvl meta=bad.json
ok "bad JSON names the file" grep -q 'bad.json' err
ok "bad JSON leaves no output" test ! -e bad.blvl

cli_done test_cli_sections

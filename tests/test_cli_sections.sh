#!/usr/bin/env bash
# The blvl program over core sections: pack TAG=FILE.json (our builder), dump (compared with
# flatc's own JSON of the same bytes), verify's level rules (FlatBuffers verifier, required
# sections, payload versions) and --container.
set -u
blvl=${BLVL_BIN:?}
src=${BLVL_SRC:?}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
pass=0 fail=0
ok() { local what=$1; shift; if "$@" >/dev/null 2>&1; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $what"; fi; }
rc() { local want=$1; shift; "$blvl" "$@" >out 2>err; local got=$?
       if [ $got = "$want" ]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: blvl $* exited $got, expected $want: $(head -c 300 err)"; fi; }

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
    rc 0 pack -o one.blvl "eds.x=$src/tests/data/sections/meta.json" "$t=flatc/$t.bin"
    rc 0 dump one.blvl "$t"
    ok "$t: dump of flatc's bytes equals the sample" python3 "$src/tests/fb/jsoncmp.py" out "canon/$t.json"
done
rc 0 dump --indent 0 all.blvl cameras
ok "dump --indent 0 is one line" test "$(wc -l <out)" = 1

# level rules
head -c 40 /dev/urandom >junk.bin
rc 0 pack -o junkmeta.blvl meta=junk.bin "sim=$src/tests/data/sections/sim.json"
rc 1 verify junkmeta.blvl
ok "junk meta: refused by the FlatBuffers verifier" grep -q 'flatbuffer' err
ok "junk meta: one line on stderr" test "$(wc -l <err)" = 1
rc 0 verify --container junkmeta.blvl
rc 1 dump junkmeta.blvl meta
rc 0 pack -o nosim.blvl "meta=$src/tests/data/sections/meta.json"
rc 1 verify nosim.blvl
ok "missing sim: required-section" grep -q 'required-section' err
rc 0 pack -o v1.blvl --version meta=1 "meta=$src/tests/data/sections/meta.json" "sim=$src/tests/data/sections/sim.json"
rc 1 verify v1.blvl
ok "meta at version 1: section-version" grep -q 'section-version' err
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

echo "test_cli_sections: $pass passed, $fail failed"
[ $fail = 0 ]

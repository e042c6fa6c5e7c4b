#!/usr/bin/env bash
# .bsym through the blvl program: a symbols file is a file of its own. `dump FILE.bsym bsym`
# prints it (flatc's binary and ours, identifier BSYM); `dump LEVEL bsym` says a level is not a
# .bsym and bsym is no section of a level (exit 1, rule named); a .bsym without the identifier or
# with a level hash that is not 16 bytes is refused, naming the field; `pack bsym=FILE.json` does
# not build it as a core section. Non-finite floats dump as strings and pack back.
set -u
. "${BLVL_SRC:?}/tests/support/cli.sh"
cli_workdir
data=$src/tests/data/sections

flatc -b -o . "$src/schema/bsym.fbs" "$data/bsym.json"
rc 0 dump bsym.bin bsym
has out '"version": 1'
rc 0 dump --indent 0 bsym.bin bsym
# a copy without the identifier (bytes 4..8)
{ head -c 4 bsym.bin; printf 'XXXX'; tail -c +9 bsym.bin; } >noid.bin
rc 1 dump noid.bin bsym
has err 'flatbuffer: Symbols: file identifier is not "BSYM"'
# a level hash of 15 bytes, built by flatc (which knows nothing of blvl_length)
sed 's/"level": \[1, /"level": [/' "$data/bsym.json" >short.json
grep -q '"level": \[35,' short.json || { echo "FAIL: short.json not made"; fail=$((fail+1)); }
flatc -b -o . "$src/schema/bsym.fbs" short.json
rc 1 dump short.bin bsym
has err 'flatbuffer: Symbols.level: 15 elements where the schema wants exactly 16'

rc 0 pack -o lv.blvl meta="$data/meta.json" sim="$data/sim.json"
rc 1 dump lv.blvl bsym
has err 'flatbuffer: a level, not a .bsym: bsym is not a section of a level'
rc 1 cat lv.blvl bsym

# pack bsym=...: never built from JSON as a core section would be (stored as the bytes given, if
# pack takes an unknown core tag at all)
"$blvl" pack -o with.blvl meta="$data/meta.json" sim="$data/sim.json" bsym="$data/bsym.json" 2>/dev/null
if [ -s with.blvl ]; then
    "$blvl" cat with.blvl bsym >stored 2>/dev/null
    if cmp -s stored "$data/bsym.json"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: pack built bsym"; fi
fi

# NaN and infinities: dump prints strings (valid JSON), and pack reads the dump back
printf '{"kill_y": "-inf", "colliders": [{"lo": {"x": "nan", "y": "inf", "z": 0}}]}' >nf.json
rc 0 pack -o nf.blvl meta="$data/meta.json" sim=nf.json
rc 0 dump nf.blvl sim
cp out nf.dump.json
has nf.dump.json '"kill_y": "-inf"'
has nf.dump.json '"x": "nan"'
if /usr/bin/python3 -c 'import json,sys; json.load(open(sys.argv[1]))' nf.dump.json; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: dump is not JSON"; fi
rc 0 pack -o nf2.blvl meta="$data/meta.json" sim=nf.dump.json
rc 0 dump nf2.blvl sim
if cmp -s out nf.dump.json; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: dump of the packed dump differs"; fi

cli_done test_cli_bsym

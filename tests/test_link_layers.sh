#!/usr/bin/env bash
# The layers as the linker sees them (CMakeLists.txt, blvl_layer): every layer was linked alone
# with the layers it may use (blvl_layer_<name>; a reach past them fails the build). Here the
# trace one, a game server's program made of trace + geom + sections + fb + container + payload +
# common only, must hold no JSON or FlatBuffers-builder code, and must trace a level exactly as
# `blvl trace` does.
set -u
blvl=${BLVL_BIN:?}
build=${BLVL_BUILD:?}
src=${BLVL_SRC:?}
prog=$build/blvl_layer_trace
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { local what=$1; shift; if "$@" >"$work/log" 2>&1; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $what"; tail -n 20 "$work/log"; fi; }

for l in common payload container fb fb_builder sections json geom trace; do
    if [ -d "$src/src/common" ] || [ "$l" != common ]; then
        ok "layer $l linked alone" test -x "$build/blvl_layer_$l"
    fi
done
ok "the trace program exists" test -x "$prog"
nm "$prog" | awk '{ print $NF }' >"$work/syms"
ok "trace program has symbols" grep -q '^blvl_trace_box$' "$work/syms"
ok "  and the sections reader" grep -q '^blvl_fb_verify$' "$work/syms"
ok "  and no JSON" bash -c "! grep -qiE 'json' '$work/syms'"
ok "  and no FlatBuffers builder" bash -c "! grep -qE '^blvl_fb_(builder|create|add|finish|table_end)' '$work/syms'"

# A level: a floor and a wall, packed by the CLI from JSON.
cat >"$work/sim.json" <<'J'
{"colliders": [
 {"lo": {"x": -512, "y": -16, "z": -512}, "hi": {"x": 512, "y": 0, "z": 512}, "flags": 2,
  "shape_type": "Planes", "shape": {"planes": [
   {"normal": {"x": 1, "y": 0, "z": 0}, "dist": 512}, {"normal": {"x": -1, "y": 0, "z": 0}, "dist": 512},
   {"normal": {"x": 0, "y": 1, "z": 0}, "dist": 0}, {"normal": {"x": 0, "y": -1, "z": 0}, "dist": 16},
   {"normal": {"x": 0, "y": 0, "z": 1}, "dist": 512}, {"normal": {"x": 0, "y": 0, "z": -1}, "dist": 512}]}},
 {"lo": {"x": 100, "y": 0, "z": -64}, "hi": {"x": 108, "y": 256, "z": 64},
  "shape_type": "Planes", "shape": {"planes": [
   {"normal": {"x": 1, "y": 0, "z": 0}, "dist": 108}, {"normal": {"x": -1, "y": 0, "z": 0}, "dist": -100},
   {"normal": {"x": 0, "y": 1, "z": 0}, "dist": 256}, {"normal": {"x": 0, "y": -1, "z": 0}, "dist": 0},
   {"normal": {"x": 0, "y": 0, "z": 1}, "dist": 64}, {"normal": {"x": 0, "y": 0, "z": -1}, "dist": 64}]}}
]}
J
ok "pack the level" "$blvl" pack -o "$work/level.blvl" "meta=$src/tests/data/sections/meta.json" "sim=$work/sim.json"
# field KEY N FILE: the N values after KEY
field() { awk -v k="$1" -v n="$2" '{ for (i = 1; i <= NF; i++) if ($i == k) { s = $(i+1); for (j = 2; j <= n; j++) s = s " " $(i+j); print s; exit } }' "$3"; }
f32() { python3 -c 'import struct, sys; print(" ".join(repr(struct.unpack("<f", struct.pack("<f", float(x)))[0]) for x in sys.argv[1:]))' "$@"; }
same() { # QUERY...: the layer program and `blvl trace` agree on fraction, end and collider
    local q=("$@")
    "$prog" "$work/level.blvl" "${q[@]}" >"$work/mine" 2>&1 || { fail=$((fail+1)); echo "FAIL: $prog ${q[*]}: $(cat "$work/mine")"; return; }
    local args=(--from "${q[@]:0:3}" --to "${q[@]:3:3}")
    [ ${#q[@]} = 12 ] && args=(--box "${q[@]:6:6}" "${args[@]}")
    "$blvl" trace "$work/level.blvl" "${args[@]}" >"$work/cli" 2>/dev/null
    local a b
    a="$(field fraction 1 "$work/mine") $(field end 3 "$work/mine")"
    b="$(f32 $(field fraction 1 "$work/cli") $(field end 3 "$work/cli"))"
    a="$(f32 $a)"
    local ca cb
    ca=$(field collider 1 "$work/mine"); cb=$(field collider 1 "$work/cli")
    if [ "$a" = "$b" ] && [ "$ca" = "$cb" ]; then pass=$((pass+1)); else
        fail=$((fail+1)); echo "FAIL: ${q[*]}: layer program '$a' collider $ca, blvl trace '$b' collider $cb"; fi
}
same 0 256 0 0 -256 0 -16 -24 -16 16 32 16  # a player dropped onto the floor
same 0 40 0 300 40 0                        # a ray into the wall
same 0 40 0 300 40 0 -16 -24 -16 16 32 16   # a box into the wall
same 0 40 0 0 300 0                         # a ray into nothing
ok "the trace program refuses a missing level" bash -c "! '$prog' '$work/none.blvl' 0 0 0 1 1 1"
echo "test_link_layers: $pass passed, $fail failed"
[ $fail = 0 ]

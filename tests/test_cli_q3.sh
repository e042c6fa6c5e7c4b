#!/usr/bin/env bash
# blvl bake of Quake 3 maps through the command line: a .bsp on disk, a path inside --pk3
# archives, a .pk3 given as the map (--map), the patch options, recipes and the cameras file
# beside them, and the usage and refusal exits (docs/IMPORT-Q3.md, "Command line and recipes").
# The maps come from tests/data/q3/make_bsp.py (Python's struct and zipfile).
set -u
. "${BLVL_SRC:?}/tests/support/cli.sh"
cli_workdir
python3 "$src/tests/data/q3/make_bsp.py" data || { echo "make_bsp.py failed"; exit 1; }
d=$work/data

# a .bsp on disk
rc 0 bake "$d/good.bsp" -o a.blvl --symbols a.bsym
has out "baked a.blvl: "
has out "2 entities; symbols a.bsym"
# no --pk3: no image can be found; the report counts them and says where images come from
# (issue 28: it said "0 missing images")
has err "blvl bake: $d/good.bsp: 2 missing images"
has err "blvl bake: $d/good.bsp: 2 images not found: no archives were given; --pk3 FILE_OR_DIR gives the game's .pk3 archives"
rc 0 verify a.blvl
rc 0 dump a.blvl meta
has out '"name": "Test Room"'
has out '"engine": "Q3"'
rc 0 dump a.blvl entities
has out 'info_player_deathmatch'
# blvl trace --contents on the baked room, Quake (x, y, z) read at blvl (x, z, -y): the floor
# slab (Quake z -16..0), the -y wall (y -272..-256) and the -x wall (x -272..-256) are solid, the
# room's air is not; the control reads the wall's point without the axis change, which lands
# below the floor slab, outside every brush
rc 0 trace a.blvl --contents 0 -8 0 --contents 100 30 264 --contents -264 100 -10 \
    --contents 0 128 0 --contents 100 -264 30
has out "contents at 0 -8 0 count 1 "
has out "contents at 100 30 264 count 1 "
has out "contents at -264 100 -10 count 1 "
has out "contents at 0 128 0 count 0 "
has out "contents at 100 -264 30 count 0 "
# the same input, the same bytes; --threads changes nothing
rc 0 bake "$d/good.bsp" -o a2.blvl --threads 1
ok "a .bsp: the same bytes again" cmp a.blvl a2.blvl

# the map inside an archive, and the archive given as the map: the same search path, the same
# bytes
rc 0 bake maps/good.bsp --pk3 "$d/good.pk3" -o b.blvl
has err "blvl bake: maps/good.bsp: 1 image not found in the archives and folders given (--pk3 FILE_OR_DIR gives more"
rc 0 bake MAPS\\Good.BSP --pk3 "$d/good.pk3" -o b2.blvl
ok "a name in the archives: case and '\\' do not matter" cmp b.blvl b2.blvl
rc 0 bake "$d/good.pk3" -o c.blvl
has err "good.pk3:maps/good.bsp: "
ok "a .pk3 as the map: the same level as the path inside it" cmp b.blvl c.blvl
rc 0 bake "$d/good.pk3" --map good -o c2.blvl
ok "--map good names maps/good.bsp" cmp b.blvl c2.blvl

# an archive of two maps wants --map
python3 - "$d/good.bsp" two.pk3 <<'PY'
import sys, zipfile
data = open(sys.argv[1], "rb").read()
with zipfile.ZipFile(sys.argv[2], "w") as z:
    z.writestr("maps/one.bsp", data)
    z.writestr("maps/two.bsp", data.replace(b"Test Room", b"Test Twos"))
PY
rc 2 bake two.pk3 -o t.blvl
has err "holds 2 maps"
has err "blvl bake two.pk3 --list prints them all"
none t.blvl
# --list prints every map of the archives, one a line, and writes nothing
python3 - "$d/good.bsp" many.pk3 <<'PY'
import sys, zipfile
data = open(sys.argv[1], "rb").read()
with zipfile.ZipFile(sys.argv[2], "w") as z:
    for i in range(50):
        z.writestr("maps/m%02d.bsp" % (49 - i), data)
    z.writestr("maps/notes.txt", b"not a map")
    z.writestr("levelshots/m00.bsp", data)  # not under maps/
PY
rc 0 bake many.pk3 --list
ok "--list: the 50 maps, one a line, in order" cmp out <(for i in $(seq -w 0 49); do echo "maps/m$i.bsp"; done)
rc 0 bake two.pk3 --list --pk3 many.pk3
ok "--list: INPUT's maps and the --pk3 archives' maps" test "$(wc -l <out)" = 52
has out "maps/one.bsp"
has out "maps/m07.bsp"
rc 0 bake "$d" --list
has out "maps/good.bsp"
rc 2 bake two.pk3 --list -o t.blvl
has err "--list prints the maps of the archives and bakes nothing"
none t.blvl
rc 2 bake "$d/good.bsp" --list
has err "--list lists the maps of a .pk3 (or a folder) given as INPUT"
rc 1 bake missing.pk3 --list
has err "not-found"
rc 0 bake two.pk3 --map maps/two.bsp -o t.blvl
rc 0 dump t.blvl meta
has out '"name": "Test Twos"'
rc 1 bake two.pk3 --map three -o t3.blvl
has err "not-found: holds no map maps/three.bsp"
none t3.blvl
# later archives override earlier ones
python3 - "$d/good.bsp" over.pk3 <<'PY'
import sys, zipfile
data = open(sys.argv[1], "rb").read()
with zipfile.ZipFile(sys.argv[2], "w") as z:
    z.writestr("maps/good.bsp", data.replace(b"Test Room", b"Over Room"))
PY
rc 0 bake maps/good.bsp --pk3 "$d/good.pk3" --pk3 over.pk3 -o o.blvl
rc 0 dump o.blvl meta
has out '"name": "Over Room"'
rc 0 bake maps/good.bsp --pk3 over.pk3 --pk3 "$d/good.pk3" -o o2.blvl
rc 0 dump o2.blvl meta
has out '"name": "Test Room"'
# a folder: its archives, then its loose files
mkdir -p game/maps
cp "$d/good.pk3" game/a.pk3
cp over.pk3 game/b.pk3
rc 0 bake maps/good.bsp --pk3 game -o g.blvl
rc 0 dump g.blvl meta
has out '"name": "Over Room"'
python3 -c "import sys; d=open(sys.argv[1],'rb').read(); open(sys.argv[2],'wb').write(d.replace(b'Test Room', b'Loose Rom'))" "$d/good.bsp" game/maps/good.bsp
rc 0 bake maps/good.bsp --pk3 game -o g2.blvl
rc 0 dump g2.blvl meta
has out '"name": "Loose Rom"'

# patch options
rc 0 bake "$d/good.bsp" --patch-thickness 8 --patch-subdivisions 2 -o p.blvl
for bad in 0 -1 abc nan 1025; do
    rc 2 bake "$d/good.bsp" --patch-thickness "$bad" -o p2.blvl
    has err "--patch-thickness wants"
done
for bad in 0 65 x; do
    rc 2 bake "$d/good.bsp" --patch-subdivisions "$bad" -o p2.blvl
    has err "--patch-subdivisions wants"
done
none p2.blvl

# usage and refusals
rc 2 bake "$d/good.bsp" --map good -o u.blvl
has err "--map picks the map of a .pk3"
rc 2 bake "$d/good.bsp" --from riot --pk3 "$d/good.pk3" -o u.blvl
has err "are for Quake 3 maps"
printf 'HMAP' >x.hmap
rc 2 bake x.hmap --pk3 "$d/good.pk3" -o u.blvl
has err "are for Quake 3 maps"
rc 1 bake "$d/good.bsp" --pk3 absent.pk3 -o u.blvl
has err "blvl: absent.pk3: io: "
rc 1 bake maps/absent.bsp --pk3 "$d/good.pk3" -o u.blvl
has err "not-found: no such file, and maps/absent.bsp is in none of the 1 archives"
rc 1 bake "$d/bad/crc.pk3" -o u.blvl
has err ": crc: "
none u.blvl

# a recipe: pk3 lines relative to its folder, the map inside them, options, and the cameras
# file beside it
mkdir -p r/sub
cat >r/sub/room.recipe <<'RC'
blvl-recipe 1
# the test room
map maps/good.bsp
pk3 ../../data/good.pk3
options --patch-thickness 8 --patch-subdivisions 2
RC
rc 0 bake r/sub/room.recipe -o r1.blvl --symbols r1.bsym
has out "baked r1.blvl"
rc 0 verify r1.blvl
rc 1 dump r1.blvl cameras
# a recipe's "options --draft": a draft (meta.tool marked, diag's D0046), the same sim
printf 'blvl-recipe 1\nmap maps/good.bsp\npk3 ../../data/good.pk3\noptions --draft --patch-thickness 8 --patch-subdivisions 2\n' >r/sub/draft.recipe
rc 0 bake r/sub/draft.recipe -o rd.blvl
rc 0 diag rd.blvl --only D0046
has out "D0046 warning meta"
ok "a draft recipe: sim's raw bytes are the release recipe's" bash -c "\"$blvl\" cat rd.blvl sim | cmp -s - <(\"$blvl\" cat r1.blvl sim)"
cat >r/sub/room.cameras <<'CM'
blvl-cameras 1
# name purpose x y z yaw pitch roll fov_x
over overview 0 600 900 0 -30 0 90
thumb thumbnail -100.5 64 -32 45 10 0 0
CM
rc 0 bake r/sub/room.recipe -o r2.blvl
rc 0 dump r2.blvl cameras
python3 - "$blvl" r2.blvl <<'PY' && pass=$((pass+1)) || { fail=$((fail+1)); echo "FAIL: the cameras as written"; }
import json, subprocess, sys
c = json.loads(subprocess.run([sys.argv[1], "dump", sys.argv[2], "cameras"], capture_output=True,
                              check=True).stdout)["cameras"]
assert [x["name"] for x in c] == ["over", "thumb"], c
assert c[0].get("purpose") == "Overview" and c[1].get("purpose", "Thumbnail") == "Thumbnail", c
p = c[1]["pos"]
assert (p["x"], p["y"], p["z"]) == (-100.5, 64, -32), p
assert c[0]["pitch"] == -30 and c[1]["yaw"] == 45, c
PY
(cd r/sub && "$blvl" bake room.recipe -o ../../r3.blvl >/dev/null 2>&1)
ok "a recipe bakes the same from its own folder" cmp r2.blvl r3.blvl
# the recipe's bake equals the command line's
rc 0 bake maps/good.bsp --pk3 data/good.pk3 --patch-thickness 8 --patch-subdivisions 2 -o r4.blvl
ok "no cameras file: the recipe's bake is the command line's" cmp r1.blvl r4.blvl
# a map beside the recipe, and the command line's --map and --pk3 after the recipe's
cp two.pk3 r/sub/two.pk3
printf 'blvl-recipe 1\nmap two.pk3\noptions --map one\n' >r/sub/two.recipe
rc 0 bake r/sub/two.recipe -o r5.blvl
rc 0 dump r5.blvl meta
has out '"name": "Test Room"'
rc 0 bake r/sub/two.recipe --map two -o r6.blvl
rc 0 dump r6.blvl meta
has out '"name": "Test Twos"'

# the acoustics flags in a recipe's options: the same bytes as on the command line; the
# command line's flag (either one) replaces the recipe's
printf 'blvl-recipe 1\nmap maps/good.bsp\npk3 ../../data/good.pk3\noptions --acoustics-spacing 48\n' \
    >r/sub/ac.recipe
rc 0 bake r/sub/ac.recipe -o ra1.blvl
rc 0 bake maps/good.bsp --pk3 data/good.pk3 --acoustics-spacing 48 -o ra2.blvl
ok "options --acoustics-spacing: the command line's bytes" cmp ra1.blvl ra2.blvl
rc 0 bake maps/good.bsp --pk3 data/good.pk3 -o ra3.blvl
rc 0 dump ra3.blvl acoustics
ok "options --acoustics-spacing: not the default's bytes" sh -c '! cmp -s ra1.blvl ra3.blvl'
printf 'blvl-recipe 1\nmap maps/good.bsp\npk3 ../../data/good.pk3\noptions --no-acoustics\n' \
    >r/sub/ac.recipe
rc 0 bake r/sub/ac.recipe -o ra4.blvl
rc 0 bake maps/good.bsp --pk3 data/good.pk3 --no-acoustics -o ra5.blvl
ok "options --no-acoustics: the command line's bytes" cmp ra4.blvl ra5.blvl
rc 1 dump ra4.blvl acoustics
rc 0 bake r/sub/ac.recipe --acoustics-spacing 48 -o ra6.blvl
ok "the command line's --acoustics-spacing replaces the recipe's --no-acoustics" cmp ra6.blvl ra2.blvl
printf 'blvl-recipe 1\nmap maps/good.bsp\npk3 ../../data/good.pk3\noptions --acoustics-spacing 48\n' \
    >r/sub/ac.recipe
rc 0 bake r/sub/ac.recipe --no-acoustics -o ra7.blvl
ok "the command line's --no-acoustics replaces the recipe's spacing" cmp ra7.blvl ra5.blvl

# recipe and cameras refusals: exit 1, the rule named, nothing written
recipe_bad() { # RULE TEXT-OF-RECIPE
    printf '%b' "$2" >r/sub/bad.recipe
    rc 1 bake r/sub/bad.recipe -o rb.blvl
    has err ": $1: "
    none rb.blvl
}
recipe_bad recipe-header 'blvl-recipe 2\nmap maps/good.bsp\n'
recipe_bad recipe-key 'blvl-recipe 1\nmap maps/good.bsp\nmaps x\n'
recipe_bad recipe-map 'blvl-recipe 1\npk3 ../../data/good.pk3\n'
recipe_bad recipe-map 'blvl-recipe 1\nmap a\nmap b\n'
recipe_bad recipe-value 'blvl-recipe 1\nmap\n'
recipe_bad recipe-options 'blvl-recipe 1\nmap maps/good.bsp\noptions --patch-thickness -4\n'
recipe_bad recipe-options 'blvl-recipe 1\nmap maps/good.bsp\noptions --threads 4\n'
recipe_bad recipe-options 'blvl-recipe 1\nmap maps/good.bsp\noptions --acoustics-spacing 8\n'
has err "--acoustics-spacing QU (16..1024)"
recipe_bad recipe-options 'blvl-recipe 1\nmap maps/good.bsp\noptions --acoustics-spacing 96x\n'
recipe_bad recipe-options 'blvl-recipe 1\nmap maps/good.bsp\noptions --acoustics-spacing\n'
recipe_bad recipe-options 'blvl-recipe 1\nmap maps/good.bsp\noptions --no-acoustics 1\n'
recipe_bad recipe-options 'blvl-recipe 1\nmap maps/good.bsp\noptions --no-acoustics\noptions --acoustics-spacing 64\n'
has err "contradict each other"
cameras_bad() { # RULE LINE
    printf 'blvl-cameras 1\n%s\n' "$2" >r/sub/room.cameras
    rc 1 bake r/sub/room.recipe -o rb.blvl
    has err "room.cameras: line 2: "
    has err ": $1: "
    none rb.blvl
}
cameras_bad camera-purpose 'a side 0 0 0 0 0 0 90'
cameras_bad camera-number 'a menu 0 0 zero 0 0 0 90'
cameras_bad camera-number 'a menu 0 0 nan 0 0 0 90'
cameras_bad camera-number 'a menu 0 0 0 0 0 0'
cameras_bad camera-fov 'a menu 0 0 0 0 0 0 180'
cameras_bad camera-fields 'a menu 0 0 0 0 0 0 90 7'
printf 'blvl-camera 1\n' >r/sub/room.cameras
rc 1 bake r/sub/room.recipe -o rb.blvl
has err ": cameras-header: "

# a real map, when the game's data is installed
oa=/usr/share/games/openarena/baseoa
if [ -f "$oa/pak1-maps.pk3" ]; then
    rc 0 bake "$oa/pak1-maps.pk3" --map oa_dm1 --pk3 "$oa" -o dm1.blvl
    rc 0 verify dm1.blvl
    rc 0 bake maps/oa_dm1.bsp --pk3 "$oa" -o dm1b.blvl
    ok "oa_dm1: from the folder as from the archive given as the map" cmp dm1.blvl dm1b.blvl
else
    echo "test_cli_q3: $oa/pak1-maps.pk3 absent: the real-map part skipped"
fi
cli_done test_cli_q3

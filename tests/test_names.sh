#!/usr/bin/env bash
# File names agree across the importers (src/import/<format>/): the same role has the same name
# in hmap, subspace, riot and q3 (docs/ARCHITECTURE.md, "How to add an importer"):
#
# * the reader is read.c and read_<part>.c, the writer write.c and write_<part>.c (not
#   <part>_read.c, not parse*.c);
# * the bake is bake.c (the order of its steps) and bake_<step>.c, one name per step:
#   bake_geometry.c (drawn surfaces), bake_collide.c (colliders and what they bound),
#   bake_lighting.c, bake_entities.c, bake_offsets.c (file offsets for refusals);
# * every file an importer's bake_internal.h lists exists.
set -eu
src=${BLVL_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$src"
fail=0

# Names another importer gives the same role, and the one the importers use.
declare -A synonym=(
    [bake_geom]=bake_geometry [bake_terrain]=bake_geometry [bake_surfaces]=bake_geometry
    [bake_sim]=bake_collide [bake_colliders]=bake_collide [bake_collision]=bake_collide
    [bake_light]=bake_lighting [bake_lights]=bake_lighting
    [bake_entity]=bake_entities [offsets]=bake_offsets
)
for dir in src/import/*/; do
    [ "$dir" = src/import/front/ ] && continue
    for f in "$dir"*.c "$dir"*.h; do
        [ -e "$f" ] || continue
        base=$(basename "$f")
        stem=${base%.*}
        root=${stem%%_patch}
        if [ -n "${synonym[$root]:-}" ]; then
            echo "$f: this role is ${synonym[$root]}${stem#"$root"}.${base##*.} in the other importers"
            fail=1
        fi
        case $stem in
        parse | parse_*)
            echo "$f: a reader's file is read.c or read_<part>.c (${stem/parse/read}.c)"
            fail=1
            ;;
        *_read | *_write)
            echo "$f: the role comes first: ${stem##*_}_${stem%_*}.c"
            fail=1
            ;;
        esac
    done
    # The file list at the top of bake_internal.h names files that exist.
    if [ -e "$dir/bake_internal.h" ]; then
        for named in $(sed -n '1,/\*\//p' "$dir/bake_internal.h" | grep -oE '\b[a-z_0-9]+\.c\b' | sort -u); do
            if [ ! -e "$dir$named" ]; then
                echo "${dir}bake_internal.h: lists $named, which is not there"
                fail=1
            fi
        done
    fi
done

[ $fail = 0 ] && echo "importer file names agree: read*.c, write*.c, bake_<step>.c, one name per role"
exit $fail

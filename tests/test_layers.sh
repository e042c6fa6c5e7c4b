#!/usr/bin/env bash
# The layers of src/ and which way their includes may point (docs/ARCHITECTURE.md):
#
#   common     -> (nothing)            allocator, errors, worker pool; public blvl/common.h, le.h
#   payload    -> common               chunks, codec, digests; may read the format's constants
#   fb         -> common               the FlatBuffers runtime stands alone
#   container  -> payload, common      the file format
#   sections   -> fb, container, common
#   geom       -> common               convex-solid geometry shared by trace and bake
#   trace      -> geom, sections, fb, common (the container only through its public API)
#   symbols    -> sections, fb, container, common   the .bsym sidecar
#   bake       -> symbols, geom, sections, fb, container, common (fb holds the builder too)
#   import     -> bake, image, sections, fb, common  importers (src/import/<format>/), one folder each
#                                     and the front door (src/import/front/: blvl/import.h) over them
#   image      -> sections, fb, container, common   decoding a level's images
#   diag       -> symbols, trace, image, geom, sections, fb, container, common   blvl diag
#   probe      -> symbols, trace, image, geom, sections, fb, container, common   blvl probe
#   export     -> symbols, image, geom, sections, fb, container, common  glTF export
#   http       -> container, payload, common   levels over HTTP and the section cache
#
# A layer's #include "X/..." of another src/ folder must be in its list; public headers are
# checked where a layer must stand alone (common and fb see no container header). It also
# fails on a bare malloc/calloc/realloc/strdup/free in src/ outside src/common/alloc.c (every
# byte goes through the caller's allocator), and on a section reader that pulls in the
# FlatBuffers builder or JSON.
set -eu
src=${BLVL_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$src"
fail=0

allowed() { # layer -> the src/ folders it may include
    case $1 in
    common) echo "common" ;;
    payload) echo "payload common" ;;
    fb) echo "fb common" ;;
    container) echo "container payload common" ;;
    sections) echo "sections fb container common" ;;
    geom) echo "geom common" ;;
    trace) echo "trace geom sections fb common" ;;
    bake) echo "bake symbols geom sections fb container common" ;;
    symbols) echo "symbols sections fb container common" ;;
    import) echo "import bake image sections fb common" ;;
    image) echo "image sections fb container common" ;;
    diag) echo "diag symbols trace image geom sections fb container common" ;;
    probe) echo "probe symbols trace image geom sections fb container common" ;;
    export) echo "export symbols image geom sections fb container common" ;;
    http) echo "http container payload common" ;;
    *) echo "" ;;
    esac
}
public_allowed() { # layer -> the public headers it may include ("*" = any)
    case $1 in
    common) echo "blvl/common.h blvl/le.h" ;;
    fb) echo "blvl/common.h blvl/le.h blvl/fb.h blvl/fb_reader.h blvl/fb_types.h blvl/fb_verifier.h blvl/fb_builder.h blvl/fb_json.h" ;;
    *) echo "*" ;;
    esac
}

for dir in src/*/; do
    layer=$(basename "$dir")
    ok=$(allowed "$layer")
    if [ -z "$ok" ]; then
        echo "src/$layer: a folder with no place in the layer list (add it to tests/test_layers.sh and docs)"
        fail=1
        continue
    fi
    pub=$(public_allowed "$layer")
    while IFS= read -r line; do
        file=${line%%:*}
        inc=$(printf '%s\n' "$line" | sed -E 's/.*#include "([^"]+)".*/\1/')
        top=${inc%%/*}
        if [ "$top" = blvl ]; then
            if [ "$pub" != "*" ] && ! printf ' %s ' "$pub" | grep -q " $inc "; then
                echo "$file: includes $inc (layer $layer may use only: $pub)"
                fail=1
            fi
            continue
        fi
        [ "$inc" = "$top" ] && continue # a header beside the file (blake3.h, zstd)
        if ! printf ' %s ' "$ok" | grep -q " $top "; then
            echo "$file: includes $inc, an arrow $layer -> $top (allowed: $ok)"
            fail=1
        fi
    done < <(grep -rHn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$dir" || true)
done

# No allocation around the caller's allocator.
bare=$(grep -rnE '(^|[^_a-zA-Z0-9.>])(malloc|calloc|realloc|strdup|strndup|free)[[:space:]]*\(' src \
    --include='*.c' --include='*.h' | grep -v '^src/common/alloc.c:' |
    grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/\*|\*)' || true)
if [ -n "$bare" ]; then
    echo "bare C allocator calls in src/ (use common/alloc.h):"
    echo "$bare"
    fail=1
fi

# A program that only reads sections includes no builder and no JSON.
cc=${CC:-cc}
deps=$(printf '#include "blvl/sections.h"\nint main(void){return 0;}\n' |
    "$cc" -std=c11 -I include -x c - -M 2>/dev/null) || { echo "blvl/sections.h does not compile alone"; fail=1; }
if printf '%s\n' "$deps" | grep -qE 'fb_builder\.h|fb_json\.h|_builder\.h'; then
    echo "blvl/sections.h pulls in the FlatBuffers builder or JSON:"
    printf '%s\n' "$deps" | tr ' ' '\n' | grep -E 'builder|json'
    fail=1
fi

[ $fail = 0 ] && echo "layers hold: every include points down, every allocation goes through common/alloc"
exit $fail

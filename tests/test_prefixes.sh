#!/usr/bin/env bash
# One prefix per layer (docs/ARCHITECTURE.md, "Names"): every name a layer's objects define for
# other files is blvl__<layer>_... (the layer's name from CMakeLists.txt's blvl_layer list), or a
# public blvl_<name>; common, the base every layer uses, defines blvl__<name> and never a name
# that reads as another layer's. A name that only one file uses is static and has no prefix.
set -u
src=${BLVL_SRC:?}
build=${BLVL_BUILD:?}
layers=$(sed -nE 's/^blvl_layer\(([a-z_0-9]+) .*/\1/p' "$src/CMakeLists.txt")
[ -n "$layers" ] || { echo "FAIL: no blvl_layer lines in CMakeLists.txt"; exit 1; }
fail=0 checked=0
for layer in $layers; do
    dir="$build/CMakeFiles/blvl_obj_$layer.dir"
    if [ ! -d "$dir" ]; then
        echo "FAIL: no objects for layer $layer ($dir)"
        fail=1
        continue
    fi
    # objects of sources that still exist (a reused build keeps those of removed files)
    objs=()
    while IFS= read -r o; do
        rel=${o#"$dir/"}
        [ -e "$src/${rel%.o}" ] && objs+=("$o")
    done < <(find "$dir" -name '*.o')
    [ ${#objs[@]} -gt 0 ] || continue
    names=$(nm -g --defined-only "${objs[@]}" | awk '$2 ~ /^[TDRBCVW]$/ { print $3 }' | sort -u)
    for name in $names; do
        checked=$((checked + 1))
        case $name in
        blvl_[A-Za-z]*) continue ;; # the public API (test_api_reference.sh lists it)
        __*) continue ;;            # the compiler's, e.g. AddressSanitizer's __odr_asan.<name>
        esac
        if [ "$layer" = common ]; then
            ok=0
            case $name in blvl__*) ok=1 ;; esac
        else
            ok=0
            case $name in "blvl__${layer}_"*) ok=1 ;; esac
        fi
        # blvl__import_q3_... in layer import would read as import_q3's
        for other in $layers; do
            [ "$other" = "$layer" ] && continue
            case $name in "blvl__${other}_"*)
                if [ "${#other}" -gt "${#layer}" ] || [ "$layer" = common ]; then ok=0; fi ;;
            esac
        done
        if [ $ok = 0 ]; then
            echo "FAIL: layer $layer defines $name (want blvl__${layer}_...)"
            fail=1
        fi
    done
done
echo "$checked names in $(echo $layers | wc -w) layers"
exit $fail

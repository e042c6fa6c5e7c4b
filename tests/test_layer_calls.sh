#!/usr/bin/env bash
# The layer graph is CMakeLists.txt's blvl_layer list, and it names every layer a layer calls
# directly: a function or datum one layer's objects use and another layer's define comes from a
# layer on its USES list, not one reached through another (the link check, test_link_layers.sh,
# links a layer with its USES transitively, so only this test sees a call that skips a level).
set -u
src=${BLVL_SRC:?}
build=${BLVL_BUILD:?}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
layers=$(sed -nE 's/^blvl_layer\(([a-z_0-9]+) .*/\1/p' "$src/CMakeLists.txt")
for layer in $layers; do
    dir="$build/CMakeFiles/blvl_obj_$layer.dir"
    [ -d "$dir" ] || { echo "FAIL: no objects for layer $layer"; exit 1; }
    objs=()
    while IFS= read -r o; do
        rel=${o#"$dir/"}
        [ -e "$src/${rel%.o}" ] && objs+=("$o")
    done < <(find "$dir" -name '*.o')
    [ ${#objs[@]} -gt 0 ] || continue
    nm -g --defined-only "${objs[@]}" | awk -v l="$layer" '$2 ~ /^[TDRBCVW]$/ && $3 !~ /^__/ { print l, $3 }' >>"$work/defined"
    nm -u "${objs[@]}" | awk -v l="$layer" 'NF == 2 { print l, $2 }' >>"$work/used"
done
awk 'NR == FNR { def[$2] = $1; next } ($2 in def) && def[$2] != $1 { print $1, def[$2], $2 }' \
    "$work/defined" "$work/used" | sort -u >"$work/calls"
fail=0
while read -r from to name; do
    uses=" $(sed -nE "s/^blvl_layer\($from LIBRARY [a-z]+ DIR [^ ]+ USES (.*)\)/\1/p" "$src/CMakeLists.txt") "
    case $uses in *" $to "*) ;; *)
        echo "FAIL: layer $from calls $name of layer $to, which its USES list lacks"
        fail=1 ;;
    esac
done <"$work/calls"
echo "$(wc -l <"$work/calls") calls between layers checked"
exit $fail

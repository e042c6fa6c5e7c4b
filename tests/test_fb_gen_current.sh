#!/usr/bin/env bash
# The committed generated code (include/blvl/sections/*.h, src/sections/gen/*.c, the registry's
# lists schema/core_tags.txt and schema/file_schemas.txt) must be what scripts/gen-sections.sh
# makes from schema/*.fbs today; run that script when this fails.
# It also proves fbsgen is deterministic: two runs give identical files.
set -eu
src=${BLVL_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$src/scripts/gen-sections.sh" "$tmp/one" >/dev/null
"$src/scripts/gen-sections.sh" "$tmp/two" >/dev/null
diff -r "$tmp/one" "$tmp/two" >/dev/null || { echo "fbsgen is not deterministic"; exit 1; }
fail=0
for f in "$tmp"/one/include/blvl/sections/*.h; do
    b=$(basename "$f")
    cmp -s "$f" "$src/include/blvl/sections/$b" || { echo "stale: include/blvl/sections/$b"; fail=1; }
done
for f in "$tmp"/one/src/sections/gen/*.c; do
    b=$(basename "$f")
    cmp -s "$f" "$src/src/sections/gen/$b" || { echo "stale: src/sections/gen/$b"; fail=1; }
done
for f in "$tmp"/one/schema/*.txt; do
    b=$(basename "$f")
    cmp -s "$f" "$src/schema/$b" || { echo "stale: schema/$b"; fail=1; }
done
# Nothing generated may linger for a schema that is gone.
for f in "$src"/src/sections/gen/*.c; do
    [ -e "$tmp/one/src/sections/gen/$(basename "$f")" ] || { echo "orphan: $f"; fail=1; }
done
for f in "$src"/include/blvl/sections/*.h "$src"/schema/*.txt; do
    b=${f#"$src"/}
    [ -e "$tmp/one/$b" ] || { echo "orphan: $f"; fail=1; }
done
[ $fail = 0 ] && echo "generated code is current"
exit $fail

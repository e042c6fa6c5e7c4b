#!/usr/bin/env bash
# The layer graph, written once: the blvl_layer(...) lines of CMakeLists.txt (one folder under
# src/, one layer; its library; the layers it may use). This test reads them and checks:
#
# * every folder under src/ holding sources is one layer's (or inside it), and no two layers
#   share a folder;
# * every #include "X/..." of another src/ folder points at a layer the including layer may use
#   (transitively: what it may use, and what those may use);
# * a layer's private struct stays its own: container/level.h (struct blvl_level) is included
#   by the container alone (the layers above use container/source.h and the public API);
# * public headers where a layer must stand alone: common, payload and fb see only their own
#   (no container header), and no layer of the runtime library (blvl) includes a header of the
#   tools or HTTP libraries;
# * the table in docs/ARCHITECTURE.md ("The layers") says what the list says: the same layers,
#   folders, libraries and "may use" sets;
# * no bare malloc/calloc/realloc/strdup/free in src/ outside src/common/alloc.c (every byte goes
#   through the caller's allocator), and blvl/sections.h pulls in no builder and no JSON.
set -eu
src=${BLVL_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$src"
fail=0

python3 - <<'PY' || fail=1
import os, re, sys

def die_list(msgs):
    for m in msgs:
        print(m)
    return 1 if msgs else 0

layers = {}  # name -> {"lib", "dir", "uses"}
order = []
for n, line in enumerate(open("CMakeLists.txt"), 1):
    if not line.startswith("blvl_layer("):
        continue
    m = re.fullmatch(r"blvl_layer\((\w+)((?: \S+)*)\)\s*", line)
    if not m:
        print(f"CMakeLists.txt:{n}: a blvl_layer(...) must be one line: {line.strip()}")
        sys.exit(1)
    name, rest = m.group(1), m.group(2).split()
    kw, cur = {"LIBRARY": [], "DIR": [], "USES": []}, None
    for w in rest:
        if w in kw:
            cur = w
        elif cur:
            kw[cur].append(w)
    if len(kw["LIBRARY"]) != 1 or len(kw["DIR"]) != 1:
        print(f"CMakeLists.txt:{n}: layer {name} needs one LIBRARY and one DIR")
        sys.exit(1)
    layers[name] = {"lib": kw["LIBRARY"][0], "dir": kw["DIR"][0], "uses": kw["USES"]}
    order.append(name)
if len(layers) < 10:
    print(f"CMakeLists.txt: only {len(layers)} blvl_layer lines read")
    sys.exit(1)
external = {"blake3"}  # objects built from the BLAKE3 sources, not a folder of src/
errs = []

def closure(name):
    seen, todo = [], [name]
    while todo:
        l = todo.pop(0)
        if l in seen:
            continue
        seen.append(l)
        todo += layers.get(l, {"uses": []})["uses"]
    return seen

for name, l in layers.items():
    for u in l["uses"]:
        if u not in layers and u not in external:
            errs.append(f"layer {name} uses {u}, which is no layer")

# One folder, one layer.
dirs = {}
for name, l in layers.items():
    if l["dir"] in dirs:
        errs.append(f"layers {dirs[l['dir']]} and {name} share src/{l['dir']}")
    dirs[l["dir"]] = name
for a in dirs:
    for b in dirs:
        if a != b and b.startswith(a + "/"):
            errs.append(f"src/{b} (layer {dirs[b]}) is inside src/{a} (layer {dirs[a]})")

def layer_of(path):  # path relative to src/, of a file or folder
    best = None
    for d, name in dirs.items():
        if path == d or path.startswith(d + "/"):
            if best is None or len(d) > len(dirs_inv[best]):
                best = name
    return best
dirs_inv = {v: k for k, v in dirs.items()}

for root, _, files in os.walk("src"):
    rel = os.path.relpath(root, "src")
    if rel != "." and any(f.endswith((".c", ".h")) for f in files) and not layer_of(rel):
        errs.append(f"src/{rel}: a folder of sources in no layer (give it a blvl_layer line in CMakeLists.txt)")

# Public headers.
def pub_ok(layer, inc):
    own = {
        "common": {"blvl/api.h", "blvl/common.h", "blvl/le.h"},
        "payload": {"blvl/api.h", "blvl/common.h", "blvl/le.h", "blvl/payload.h"},
        "fb": {"blvl/api.h", "blvl/common.h", "blvl/le.h", "blvl/fb.h", "blvl/fb_reader.h",
               "blvl/fb_types.h", "blvl/fb_verifier.h"},
    }
    if layer in own:
        return inc in own[layer]
    if layers[layer]["lib"] == "blvl":
        upper = {"blvl/fb_builder.h", "blvl/fb_json.h", "blvl/sections_builder.h", "blvl/bake.h",
                 "blvl/image.h", "blvl/hmap.h", "blvl/q3.h", "blvl/q3_shader.h", "blvl/riot.h",
                 "blvl/subspace.h", "blvl/diag.h", "blvl/probe.h", "blvl/export.h", "blvl/http.h"}
        return inc not in upper and not inc.endswith("_builder.h")
    return True

# Headers that hold a layer's private structs: only that layer includes them.
private = {"container/level.h": "container"}

inc_re = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
for name, l in layers.items():
    ok = set(closure(name))
    base = os.path.join("src", l["dir"])
    for root, _, files in os.walk(base):
        for f in sorted(files):
            if not f.endswith((".c", ".h")):
                continue
            p = os.path.join(root, f)
            for n, line in enumerate(open(p, errors="replace"), 1):
                m = inc_re.match(line)
                if not m:
                    continue
                inc = m.group(1)
                if inc.startswith("blvl/"):
                    if not pub_ok(name, inc):
                        errs.append(f"{p}:{n}: includes {inc}, a header layer {name} (library {l['lib']}) may not use")
                    continue
                if "/" not in inc:
                    continue  # a header beside the file, or a third party's (blake3.h)
                to = layer_of(os.path.dirname(inc))
                if inc in private and private[inc] != name:
                    errs.append(f"{p}:{n}: includes {inc}, private to layer {private[inc]} "
                                f"(use its accessors, e.g. container/source.h)")
                if to is None:
                    errs.append(f"{p}:{n}: includes {inc}, in no layer's folder")
                elif to not in ok:
                    errs.append(f"{p}:{n}: includes {inc}, an arrow {name} -> {to} "
                                f"(may use: {' '.join(x for x in ok if x != name) or 'nothing'})")

# docs/ARCHITECTURE.md's table against the list.
doc = open("docs/ARCHITECTURE.md").read().split("\n")
rows, in_table = {}, False
for line in doc:
    if re.match(r"^\| layer \| folder \| library \|", line):
        in_table = True
        continue
    if in_table:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if set(cells[0]) <= set("-: "):
            continue
        if len(cells) != 5:
            errs.append(f"docs/ARCHITECTURE.md: a layer row needs 5 cells: {line}")
            continue
        strip = lambda s: s.replace("`", "").strip()
        uses = strip(cells[4])
        rows[strip(cells[0])] = {
            "dir": strip(cells[1]),
            "lib": strip(cells[2]),
            "uses": [] if uses == "nothing" else [u.strip() for u in uses.split(",")],
        }
if not rows:
    errs.append("docs/ARCHITECTURE.md: no table headed | layer | folder | library | owns | may use |")
libname = {"blvl": "libblvl", "http": "libblvl-http", "tools": "libblvl-tools"}
for name in order:
    l, r = layers[name], rows.get(name)
    if r is None:
        errs.append(f"docs/ARCHITECTURE.md: layer {name} (CMakeLists.txt) has no row")
        continue
    if r["dir"] != f"src/{l['dir']}/":
        errs.append(f"docs/ARCHITECTURE.md: {name}'s folder is {r['dir']}, CMakeLists.txt says src/{l['dir']}/")
    if r["lib"] != libname[l["lib"]]:
        errs.append(f"docs/ARCHITECTURE.md: {name}'s library is {r['lib']}, CMakeLists.txt says {libname[l['lib']]}")
    if sorted(r["uses"]) != sorted(l["uses"]):
        errs.append(f"docs/ARCHITECTURE.md: {name} may use {', '.join(r['uses']) or 'nothing'}; "
                    f"CMakeLists.txt says {', '.join(l['uses']) or 'nothing'}")
for name in rows:
    if name not in layers:
        errs.append(f"docs/ARCHITECTURE.md: row {name} is no layer in CMakeLists.txt")
sys.exit(die_list(errs))
PY

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

[ $fail = 0 ] && echo "layers hold: every include points down the graph CMakeLists.txt gives, the doc's table agrees, every allocation goes through common/alloc"
exit $fail

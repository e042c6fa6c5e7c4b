#!/bin/sh
# Checks schema/*.fbs and tests/data/sections/*.json against flatc, the independent FlatBuffers compiler:
#  1. every schema compiles to a binary schema and to C++ with nothing at all on stdout or stderr;
#  2. every sample converts JSON -> binary, binary -> JSON, and back again byte-stable;
#  3. flatc's reading of a sample says what the sample says (no field lost, no value changed);
#  4. each sample is rich: every field of every table it reaches is non-default somewhere, every
#     struct field non-zero somewhere, every union member and a non-default value of every enum used;
#  5. the samples are one consistent level: indices in range, image blobs of the size their layout
#     gives, hull loops wound outward, acoustic edges paired, bsym parallel to sim and geometry.
set -u

src=${BLVL_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
schema=$src/schema
data=$src/tests/data/sections
# Every root schema (generated lists: the core tags, then the files of their own such as bsym).
tags=$(cat "$schema/core_tags.txt" "$schema/file_schemas.txt")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/blvl-schemas.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0

bad() {
	echo "FAIL: $*" >&2
	fail=1
}

command -v flatc >/dev/null 2>&1 || { echo "FAIL: flatc not found" >&2; exit 1; }
if command -v python3 >/dev/null 2>&1; then py=python3; else py=/usr/bin/python3; fi

# 1. Compile every schema (the includes as well), silently.
for f in "$schema"/*.fbs; do
	name=$(basename "$f" .fbs)
	for mode in "-b --schema" "--cpp"; do
		out=$tmp/compile.$name
		mkdir -p "$out"
		# shellcheck disable=SC2086 # mode is two words on purpose
		if ! flatc $mode -I "$schema" -o "$out" "$f" >"$out.log" 2>&1; then
			bad "flatc $mode $name.fbs failed: $(cat "$out.log")"
		elif [ -s "$out.log" ]; then
			bad "flatc $mode $name.fbs printed: $(cat "$out.log")"
		fi
	done
done
for t in $tags; do
	[ -f "$schema/$t.fbs" ] || bad "missing schema/$t.fbs"
	[ -f "$data/$t.json" ] || bad "missing tests/data/sections/$t.json"
done
[ -f "$schema/common.fbs" ] || bad "missing schema/common.fbs"

# 2. JSON -> binary -> JSON -> binary -> JSON: the second binary equals the first, the JSON is stable.
for t in $tags; do
	d=$tmp/rt.$t
	mkdir -p "$d/a" "$d/b" "$d/c" "$d/full"
	if ! flatc -b -o "$d/a" "$schema/$t.fbs" "$data/$t.json" >"$d/log" 2>&1 || [ -s "$d/log" ]; then
		bad "$t.json does not convert: $(cat "$d/log")"
		continue
	fi
	if ! { flatc --json --strict-json --raw-binary -o "$d/a" "$schema/$t.fbs" -- "$d/a/$t.bin" &&
		cp "$d/a/$t.json" "$d/b/$t.json" &&
		flatc -b -o "$d/b" "$schema/$t.fbs" "$d/b/$t.json" &&
		cp "$d/b/$t.bin" "$d/c/$t.bin" &&
		flatc --json --strict-json --raw-binary -o "$d/c" "$schema/$t.fbs" -- "$d/c/$t.bin" &&
		flatc --json --strict-json --raw-binary --defaults-json -o "$d/full" "$schema/$t.fbs" -- "$d/a/$t.bin"; } >"$d/log" 2>&1 ||
		[ -s "$d/log" ]; then
		bad "$t round trip through flatc failed: $(cat "$d/log")"
		continue
	fi
	cmp -s "$d/a/$t.bin" "$d/b/$t.bin" || bad "$t: binary of flatc's own JSON differs from the sample's binary"
	cmp -s "$d/a/$t.json" "$d/c/$t.json" || bad "$t: JSON not stable across a second round trip"
	[ -s "$d/a/$t.bin" ] || bad "$t: empty binary"
done

# 3 and 4: semantic comparison and richness, by a schema reader independent of our generator.
# shellcheck disable=SC2086 # tags is a list of words
"$py" - "$schema" "$data" "$tmp" $tags <<'PYEOF' || fail=1
import json, math, os, re, sys

schema_dir, data_dir, tmp = sys.argv[1:4]
tags = sys.argv[4:]
ok = True

def err(msg):
    global ok
    ok = False
    print("FAIL: " + msg, file=sys.stderr)

SCALARS = {"bool", "byte", "ubyte", "short", "ushort", "int", "uint", "long", "ulong", "float", "double",
           "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float32", "float64"}

def parse(path, types, seen):
    if path in seen:
        return
    seen.add(path)
    text = open(path).read()
    text = re.sub(r"//[^\n]*", "", text)
    for inc in re.findall(r'include\s+"([^"]+)"\s*;', text):
        parse(os.path.join(os.path.dirname(path), inc), types, seen)
    root = None
    for m in re.finditer(r"(table|struct|enum|union)\s+(\w+)\s*(?::\s*(\w+))?\s*(\([^)]*\))?\s*\{([^}]*)\}", text):
        kind, name, base, _, body = m.groups()
        if kind in ("table", "struct"):
            fields = []
            for fm in re.finditer(r"(\w+)\s*:\s*(\[?\w+\]?)\s*(?:=\s*([^;(]+?))?\s*(?:\([^)]*\))?\s*;", body):
                fname, ftype, default = fm.groups()
                fields.append((fname, ftype, default.strip() if default else None))
            types[name] = (kind, fields)
        else:
            vals, nxt = [], 0
            for item in [x.strip() for x in body.split(",") if x.strip()]:
                if "=" in item:
                    n, v = [y.strip() for y in item.split("=")]
                    nxt = int(v, 0)
                else:
                    n = item
                vals.append((n, nxt))
                nxt += 1
            types[name] = (kind, vals)
    rm = re.search(r"root_type\s+(\w+)\s*;", text)
    return rm.group(1) if rm else None

def num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)

def same(a, b, where):
    """b (flatc's full reading) must contain everything a (the sample) says."""
    if isinstance(a, dict):
        if not isinstance(b, dict):
            return err(f"{where}: object became {type(b).__name__}")
        for k, v in a.items():
            if k not in b:
                err(f"{where}.{k}: field unknown to flatc's output")
            else:
                same(v, b[k], f"{where}.{k}")
    elif isinstance(a, list):
        if not isinstance(b, list) or len(a) != len(b):
            return err(f"{where}: vector length changed")
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{where}[{i}]")
    elif num(a) and num(b):
        if not math.isclose(a, b, rel_tol=2e-6, abs_tol=1e-6):
            err(f"{where}: {a} read back as {b}")
    elif a != b:
        err(f"{where}: {a!r} read back as {b!r}")

class Coverage:
    def __init__(self, types):
        self.types, self.hit, self.need, self.values = types, set(), set(), {}

    def walk(self, tname, obj, where):
        kind, fields = self.types[tname]
        self.need.add(("type", tname))
        self.hit.add(("type", tname))
        for fname, ftype, default in fields:
            is_vec = ftype.startswith("[")
            base = ftype.strip("[]")
            if base.endswith("_type") or fname == "reserved":
                continue
            if base in self.types and self.types[base][0] == "union":
                self.need.add(("field", tname, fname))
                if fname in obj:
                    self.hit.add(("field", tname, fname))
                    member = obj.get(fname + "_type")
                    for m, _ in self.types[base][1]:
                        if m != "NONE":
                            self.need.add(("union", base, m))
                    self.hit.add(("union", base, member))
                    self.walk(member, obj[fname], f"{where}.{fname}")
                continue
            self.need.add(("field", tname, fname))
            if fname not in obj:
                continue
            v = obj[fname]
            if kind == "struct" and num(v) and v == 0 and not is_vec:
                continue  # a zero struct field does not count as exercised
            if kind == "struct" and v is False:
                continue
            if kind == "struct" and base in self.types and self.types[base][0] == "enum" \
                    and v in [n for n, x in self.types[base][1] if x == 0]:
                continue
            if is_vec and not v:
                continue
            self.hit.add(("field", tname, fname))
            values = v if is_vec else [v]
            if base in self.types:
                bk = self.types[base][0]
                for i, x in enumerate(values):
                    if bk in ("table", "struct"):
                        self.walk(base, x, f"{where}.{fname}")
                    elif bk == "enum":
                        self.need.add(("enum", base))
                        self.hit.add(("enum", base))
                        self.values.setdefault(base, set()).add(x)

# Type names must be unique over all schemas: generated C puts them all in one blvl_ namespace.
owner = {}
for f in sorted(os.listdir(schema_dir)):
    if f.endswith(".fbs"):
        local = {}
        parse(os.path.join(schema_dir, f), local, set(os.path.join(schema_dir, x) for x in os.listdir(schema_dir) if x != f))
        for name in local:
            if name in owner:
                err(f"type {name} declared in both {owner[name]} and {f}")
            owner[name] = f

for tag in tags:
    types = {}
    root = parse(os.path.join(schema_dir, tag + ".fbs"), types, set())
    if not root:
        err(f"{tag}.fbs declares no root_type")
        continue
    base = os.path.join(tmp, "rt." + tag)
    try:
        sample = json.load(open(os.path.join(data_dir, tag + ".json")))
        plain = json.load(open(os.path.join(base, "a", tag + ".json")))
        full = json.load(open(os.path.join(base, "full", tag + ".json")))
    except (OSError, ValueError) as e:
        err(f"{tag}: {e}")
        continue
    same(sample, full, tag)
    # flatc leaves out default values, so what it prints is what the sample sets to a non-default value.
    cov = Coverage(types)
    cov.walk(root, plain, tag)
    missing = sorted(cov.need - cov.hit)
    for m in missing:
        err(f"{tag}.json never exercises {' '.join(m)} with a non-default value")
    if os.environ.get("BLVL_VERBOSE"):
        for e, seen in sorted(cov.values.items()):
            names = [n for n, _ in types[e][1]]
            left = [n for n in names if n not in seen]
            print(f"{tag}: enum {e}: {len(names) - len(left)}/{len(names)} values used" + (f", not {left}" if left else ""))
# 5. Consistency of the sample level across sections (what reader and diag tests rely on).
def load(tag):
    try:
        return json.load(open(os.path.join(data_dir, tag + ".json")))
    except (OSError, ValueError):
        return {}

S = {t: load(t) for t in tags}
NONE = 0xFFFFFFFF

def idx(v, n, where, none_ok=True):
    if v is None or (none_ok and v == NONE):
        return
    if not (0 <= v < n):
        err(f"{where}: index {v} out of range 0..{n - 1}")

BLOCK = {"Bc1": 8, "Bc4": 8, "Bc3": 16, "Bc5": 16, "Bc6h": 16, "Bc7": 16}

def check_image(img, where):
    if not img:
        return
    enc, w, h = img.get("encoding", "Png"), img.get("width", 0), img.get("height", 0)
    mips, layers, data = img.get("mips", 1), img.get("layers", 1), bytes(img.get("data", []))
    if enc == "Png":
        if data[:8] != b"\x89PNG\r\n\x1a\n" or mips != 1:
            err(f"{where}: not a single-level PNG")
        elif int.from_bytes(data[16:20], "big") != w or int.from_bytes(data[20:24], "big") != h * layers:
            err(f"{where}: PNG is not {w}x{h * layers}")
    elif enc == "Jpeg":
        if data[:2] != b"\xff\xd8" or mips != 1:
            err(f"{where}: not a single-level JPEG")
    else:
        total = 0
        for _ in range(mips):
            total += (w * h * 4 if enc == "Rgba8" else ((w + 3) // 4) * ((h + 3) // 4) * BLOCK[enc]) * layers
            w, h = max(1, w // 2), max(1, h // 2)
        if total != len(data):
            err(f"{where}: {len(data)} bytes, layout gives {total}")

def check_hull(hull, where):
    vs = [(p.get("x", 0), p.get("y", 0), p.get("z", 0)) for p in hull.get("vertices", [])]
    sizes, fi = hull.get("face_sizes", []), hull.get("face_indices", [])
    if sum(sizes) != len(fi) or any(i >= len(vs) for i in fi) or not vs:
        return err(f"{where}: face loops do not fit the vertices")
    c = [sum(v[k] for v in vs) / len(vs) for k in range(3)]
    at = 0
    for f, n in enumerate(sizes):
        loop = [vs[i] for i in fi[at:at + n]]
        at += n
        nx = sum((a[1] - b[1]) * (a[2] + b[2]) for a, b in zip(loop, loop[1:] + loop[:1]))
        ny = sum((a[2] - b[2]) * (a[0] + b[0]) for a, b in zip(loop, loop[1:] + loop[:1]))
        nz = sum((a[0] - b[0]) * (a[1] + b[1]) for a, b in zip(loop, loop[1:] + loop[:1]))
        fc = [sum(p[k] for p in loop) / n for k in range(3)]
        if nx * (fc[0] - c[0]) + ny * (fc[1] - c[1]) + nz * (fc[2] - c[2]) <= 0:
            err(f"{where}: face {f} is not wound outward")

sim, geo, lit = S.get("sim", {}), S.get("geometry", {}), S.get("lighting", {})
n_mat, n_tex = len(geo.get("materials", [])), len(S.get("textures", {}).get("images", []))
n_cube, n_lm = len(S.get("cubemaps", {}).get("images", [])), len(S.get("lightmaps", {}).get("lightmaps", []))
n_ent, n_styles = len(S.get("entities", {}).get("entities", [])), len(lit.get("light_styles", []))
for i, c in enumerate(sim.get("colliders", [])):
    w = f"sim.colliders[{i}]"
    idx(c.get("material"), n_mat, w + ".material")
    idx(c.get("breakable"), len(sim.get("breakables", [])), w + ".breakable")
    idx(c.get("door"), len(sim.get("doors", [])), w + ".door")
    idx(c.get("source"), len(sim.get("collider_sources", [])), w + ".source")
    if c.get("shape_type") == "Hull":
        check_hull(c["shape"], w)
for i, s in enumerate(sim.get("collider_sources", [])):
    idx(s.get("entity"), n_ent, f"sim.collider_sources[{i}].entity")
    idx(s.get("prop"), len(S.get("props", {}).get("placements", [])), f"sim.collider_sources[{i}].prop")
for i, t in enumerate(sim.get("triggers", [])):
    idx(t.get("teleport_dest"), len(sim.get("teleport_dests", [])), f"sim.triggers[{i}]")
n_idx = len(geo.get("indices", []))
for i, b in enumerate(geo.get("batches", [])):
    w = f"geometry.batches[{i}]"
    if b.get("first_index", 0) % 3 or b.get("index_count", 0) % 3 or b.get("first_index", 0) + b.get("index_count", 0) > n_idx:
        err(w + ": index run outside indices")
    idx(b.get("material"), n_mat, w + ".material")
    idx(b.get("fog"), len(lit.get("fog_volumes", [])), w + ".fog")
    idx(b.get("breakable"), len(sim.get("breakables", [])), w + ".breakable")
    idx(b.get("door"), len(sim.get("doors", [])), w + ".door")
if any(i >= len(geo.get("vertices", [])) for i in geo.get("indices", [])):
    err("geometry.indices: vertex index out of range")
for i, m in enumerate(geo.get("materials", [])):
    w = f"geometry.materials[{i}]"
    idx(m.get("texture"), n_tex, w + ".texture")
    for k, v in m.get("pbr", {}).get("maps", {}).items():
        idx(v, n_tex, f"{w}.maps.{k}")
    sh = m.get("shading", {})
    idx(sh.get("lightwarp"), n_tex, w + ".lightwarp")
    for f in sh.get("anim", {}).get("frames", []):
        idx(f, n_tex, w + ".frames")
for tag, key in (("textures", "images"), ("cubemaps", "images")):
    for i, img in enumerate(S.get(tag, {}).get(key, [])):
        check_image(img, f"{tag}.{key}[{i}]")
        if tag == "cubemaps" and img.get("layers", 1) != 6:
            err(f"cubemaps.images[{i}]: not six layers")
for i, lm in enumerate(S.get("lightmaps", {}).get("lightmaps", [])):
    w = f"lightmaps.lightmaps[{i}]"
    pages = [lm.get("color"), lm.get("sun_visibility")] + lm.get("l1", []) + lm.get("bump", [])
    pages += [s.get("color") for s in lm.get("styles", [])]
    for j, img in enumerate(pages):
        check_image(img, f"{w} page {j}")
    if len(lm.get("l1", [])) not in (0, 3) or len(lm.get("bump", [])) not in (0, 3) or len(lm.get("styles", [])) > 3:
        err(w + ": l1/bump not 0 or 3, or more than 3 styles")
    for s in lm.get("styles", []):
        idx(s.get("style", 0), n_styles, w + ".styles.style", none_ok=False)
for i, p in enumerate(lit.get("profiles", [])):
    idx(p.get("lightmap"), n_lm, f"lighting.profiles[{i}].lightmap")
    idx(p.get("sky"), n_cube, f"lighting.profiles[{i}].sky")
    idx(p.get("post", {}).get("lut"), n_tex, f"lighting.profiles[{i}].post.lut")
    if len(p.get("sky_irradiance", [])) not in (0, 27):
        err(f"lighting.profiles[{i}].sky_irradiance: not 27 floats")
grid = lit.get("light_grid", {})
for j, img in enumerate([grid.get("ambient"), grid.get("directional"), grid.get("direction"), grid.get("sun_visibility")]
                        + grid.get("faces", []) + [lit.get("sky_vis", {}).get("image")]):
    check_image(img, f"lighting grid image {j}")
for i, r in enumerate(lit.get("reflection_probes", [])):
    idx(r.get("cubemap"), n_cube, f"lighting.reflection_probes[{i}]")
for i, l in enumerate(lit.get("punctual_lights", [])):
    idx(l.get("style"), n_styles, f"lighting.punctual_lights[{i}].style")
ac = S.get("acoustics", {})
probes, edges = ac.get("probes", []), ac.get("edges", [])
pairs = set()
for i, p in enumerate(probes):
    end = probes[i + 1]["first_edge"] if i + 1 < len(probes) else len(edges)
    idx(p.get("room", 0), len(ac.get("rooms", [])), f"acoustics.probes[{i}].room", none_ok=False)
    for e in edges[p.get("first_edge", 0):end]:
        idx(e["to"], len(probes), f"acoustics edge from {i}", none_ok=False)
        pairs.add((i, e["to"]))
if any((b, a) not in pairs for a, b in pairs):
    err("acoustics: an edge has no opposite")
pr = S.get("props", {})
for i, m in enumerate(pr.get("models", [])):
    for s in m.get("surfaces", []):
        idx(s["material"], n_mat, f"props.models[{i}].surfaces")
        if s["first_index"] + s["index_count"] > len(m.get("indices", [])):
            err(f"props.models[{i}]: surface outside indices")
    if any(x >= len(m.get("vertices", [])) for x in m.get("indices", [])):
        err(f"props.models[{i}]: vertex index out of range")
    for j, h in enumerate(m.get("hulls", [])):
        check_hull(h, f"props.models[{i}].hulls[{j}]")
for i, p in enumerate(pr.get("placements", [])):
    idx(p.get("model"), len(pr.get("models", [])), f"props.placements[{i}].model")
sy = S.get("bsym", {})
if sy:
    if len(sy.get("level", [])) != 16:
        err("bsym.level: not 16 bytes")
    if len(sy.get("colliders", [])) != len(sim.get("colliders", [])):
        err("bsym.colliders: not parallel to sim.colliders")
    runs = [r.get("first_tri", 0) for r in sy.get("tri_runs", [])]
    if not runs or runs[0] != 0 or runs != sorted(set(runs)) or runs[-1] >= n_idx // 3:
        err("bsym.tri_runs: not sorted, contiguous from 0 and inside geometry")
    n_src = len(sy.get("sources", []))
    for v in sy.get("colliders", []) + [r.get("source") for r in sy.get("tri_runs", [])]:
        idx(v, n_src, "bsym source reference")
    for i, s in enumerate(sy.get("sources", [])):
        idx(s["material"], len(sy.get("materials", [])), f"bsym.sources[{i}].material")
        idx(s["entity"], n_ent, f"bsym.sources[{i}].entity")
    for i, m in enumerate(sy.get("materials", [])):
        idx(m.get("baked"), n_mat, f"bsym.materials[{i}].baked")

sys.exit(0 if ok else 1)
PYEOF

if [ $fail -ne 0 ]; then
	echo "test_schemas_flatc: FAILED" >&2
	exit 1
fi
echo "test_schemas_flatc: all schemas compile silently, all samples round-trip and cover their schemas"

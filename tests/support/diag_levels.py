"""Levels with known geometry for tests/test_diag.sh (and, with --corpus BLVL WORK OUT, the
seeds of fuzz/fuzz_diag.c): a clean level written as section JSON
(packed by `blvl pack`), and one planted defect per blvl-diag code. Each defect is a function
that edits the clean level's sections; the test runs `blvl diag --json` on each and checks that
the codes it reports are exactly the planted one (docs/DIAG.md lists the exceptions)."""
import copy
import json
import os
import subprocess
import sys


def v3(x, y, z):
    return {"x": x, "y": y, "z": z}


def plane(nx, ny, nz, d):
    return {"normal": v3(nx, ny, nz), "dist": d}


def box_planes(lo, hi):
    return [plane(1, 0, 0, hi[0]), plane(-1, 0, 0, -lo[0]), plane(0, 1, 0, hi[1]),
            plane(0, -1, 0, -lo[1]), plane(0, 0, 1, hi[2]), plane(0, 0, -1, -lo[2])]


def box_collider(lo, hi, **extra):
    c = {"lo": v3(*lo), "hi": v3(*hi), "shape_type": "Planes",
         "shape": {"planes": box_planes(lo, hi)}}
    c.update(extra)
    return c


def box_hull(lo, hi):
    """A box as a Hull: 8 corners, 6 quads wound counter-clockwise seen from outside."""
    verts = [v3(x, y, z) for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])]
    # corner index = 4*xi + 2*yi + zi
    faces = [[4, 6, 7, 5], [0, 1, 3, 2], [2, 3, 7, 6], [0, 4, 5, 1], [1, 5, 7, 3], [0, 2, 6, 4]]
    return {"lo": v3(*lo), "hi": v3(*hi), "shape_type": "Hull",
            "shape": {"vertices": verts, "face_sizes": [4] * 6,
                      "face_indices": [i for f in faces for i in f]}}


def vertex(x, y, z):
    return {"position": v3(x, y, z), "normal": v3(0, 1, 0), "uv": {"x": x / 64, "y": z / 64},
            "lightmap_uv": {"x": 0.5, "y": 0.5}, "color": {"r": 255, "g": 255, "b": 255, "a": 255},
            "tangent": {"x": 32767, "y": 0, "z": 0, "w": 32767}}


def rgba(w, h, layers=1, mips=1):
    return {"width": w, "height": h, "encoding": "Rgba8", "layers": layers, "mips": mips,
            "data": [128] * (w * h * layers * 4)}


def clean():
    """The floor is y = 0 (a box collider below it and a quad on it); the player stands at
    y = 24. Collider 1 is a hull wall, collider 2 a pillar nothing depends on."""
    sim = {
        "colliders": [
            box_collider((-256, -16, -256), (256, 0, 256), source=0, material=0),
            dict(box_hull((200, 0, -64), (216, 128, 64)), door=0, breakable=0),
            box_collider((1000, 0, 1000), (1032, 64, 1032)),
        ],
        "collider_sources": [{"kind": "World", "name": "floor"}],
        "breakables": [{"name": "glass", "lo": v3(200, 0, -64), "hi": v3(216, 128, 64)}],
        "doors": [{"name": "door", "lo": v3(200, 0, -64), "hi": v3(216, 128, 64),
                   "direction": v3(0, 1, 0), "distance": 120}],
        "triggers": [
            {"kind": "Teleport", "lo": v3(0, 0, 0), "hi": v3(32, 64, 32), "teleport_dest": 0},
            {"kind": "Push", "lo": v3(-100, 0, -100), "hi": v3(-68, 64, -68),
             "velocity": v3(0, 800, 0)},
        ],
        "teleport_dests": [{"name": "dest", "position": v3(100, 24, 100), "yaw": 90}],
        "spawns": [{"position": v3(0, 24, 0), "yaw": 0, "kind": "info_player_deathmatch"}],
        "hurt_volumes": [{"name": "trigger_hurt", "lo": v3(-50, 0, -50), "hi": v3(-40, 10, -40)}],
    }
    quad = [vertex(-64, 0, -64), vertex(-64, 0, 64), vertex(64, 0, 64), vertex(64, 0, -64)]
    geometry = {
        "vertices": quad,
        "indices": [0, 1, 2, 0, 2, 3],
        "batches": [
            {"first_index": 0, "index_count": 6, "material": 0, "lo": v3(-64, 0, -64),
             "hi": v3(64, 0, 64), "fog": 0},
            {"first_index": 0, "index_count": 6, "material": 1, "lo": v3(-64, 0, -64),
             "hi": v3(64, 0, 64)},
        ],
        "materials": [{"name": "floor", "texture": 0, "sort": 3},
                      {"name": "glow", "sort": 9, "blend": "Additive"}],
    }
    lighting = {
        "profiles": [{"name": "authored", "lightmap": 0, "sky": 0}],
        "reflection_probes": [{"cubemap": 0, "position": v3(0, 64, 0)}],
        "punctual_lights": [{"position": v3(0, 100, 0), "style": 1, "range": 300}],
        "fog_volumes": [{"lo": v3(-300, -20, -300), "hi": v3(-200, 0, -200), "color": v3(1, 1, 1),
                         "depth": 64}],
        "light_styles": ["m", "mmnnmm"],
    }
    return {
        "meta": {"name": "diag test level", "tool": "tests/support/diag_levels.py"},
        "sim": sim,
        "geometry": geometry,
        "textures": {"images": [rgba(2, 2)]},
        "cubemaps": {"images": [rgba(1, 1, layers=6)]},
        "lightmaps": {"lightmaps": [{"color": rgba(1, 1),
                                     "styles": [{"style": 1, "color": rgba(1, 1)}]}]},
        "lighting": lighting,
        "acoustics": {
            # two probes 48 units over the floor, 64 apart (1.6256 m), doors open
            "probes": [{"position": v3(0, 48, 0), "first_edge": 0, "room": 0, "enclosed": 128,
                        "size_m": 30},
                       {"position": v3(64, 48, 0), "first_edge": 1, "room": 0, "enclosed": 128,
                        "size_m": 30}],
            "edges": [{"to": 1, "len_m": 1.6256, "door": 65535, "narrow": False, "reserved": 0},
                      {"to": 0, "len_m": 1.6256, "door": 65535, "narrow": False, "reserved": 0}],
            "rooms": [{"rt60_s": 0.5, "damping": 0.5}],
        },
    }


def sim(L):
    return L["sim"]


def geo(L):
    return L["geometry"]


def set_in(path, value):
    """An edit setting L[path...] = value."""
    def edit(L):
        o = L
        for k in path[:-1]:
            o = o[k]
        o[path[-1]] = value
    return edit


def d14(L):
    geo(L)["batches"][0]["material"], geo(L)["batches"][1]["material"] = 1, 0


def d20(L):
    # the pillar's +x plane moved behind its -x plane: x <= 900 and x >= 1000
    sim(L)["colliders"][2]["shape"]["planes"][0]["dist"] = 900


def d22(L):
    h = sim(L)["colliders"][1]["shape"]
    h["face_sizes"].append(3)
    h["face_indices"] += [0, 0, 1]


def d23(L):
    c = sim(L)["colliders"][2]
    del c["shape_type"], c["shape"]


def d30(L):
    L["acoustics"]["probes"][0]["first_edge"] = 2


def d29(L):
    del L["acoustics"]["edges"][1]  # 0 -> 1 stays, 1 -> 0 is gone


def move_probe(at):
    """An edit moving probe 0 to `at`, its edges' len_m following (so only the place is wrong)."""
    def edit(L):
        a = L["acoustics"]
        a["probes"][0]["position"] = v3(*at)
        far = a["probes"][1]["position"]
        d = sum((at[i] - far[k]) ** 2 for i, k in enumerate("xyz")) ** 0.5 * 0.0254
        for e in a["edges"]:
            e["len_m"] = d
    return edit


def d40(L):
    L["acoustics"]["edges"][0]["narrow"] = True  # 1 -> 0 stays open


def d41(L):
    for e in L["acoustics"]["edges"]:
        e["door"] = 3  # one door in the level; both directions alike


def d44(L):
    # a door's collider holds the other probe: no finding (the section is baked doors open)
    move_probe((208, 48, 0))(L)
    L["acoustics"]["probes"][1]["position"] = v3(0, -8, 0)  # inside the floor
    d = (208 ** 2 + 56 ** 2) ** 0.5 * 0.0254
    for e in L["acoustics"]["edges"]:
        e["len_m"] = d


# code -> (what is planted, edit)
DEFECTS = {
    "D0001": ("batch material past the materials", set_in(["geometry", "batches", 0, "material"], 7)),
    "D0002": ("batch fog past the fog volumes", set_in(["geometry", "batches", 0, "fog"], 5)),
    "D0003": ("batch door past the doors", set_in(["geometry", "batches", 0, "door"], 9)),
    "D0004": ("material texture past the images", set_in(["geometry", "materials", 0, "texture"], 4)),
    "D0005": ("collider breakable past the breakables", set_in(["sim", "colliders", 0, "breakable"], 3)),
    "D0006": ("collider door past the doors", set_in(["sim", "colliders", 0, "door"], 3)),
    "D0007": ("collider source past the sources", set_in(["sim", "colliders", 0, "source"], 3)),
    "D0008": ("collider material past the materials", set_in(["sim", "colliders", 0, "material"], 9)),
    "D0009": ("teleport trigger's destination past the list", set_in(["sim", "triggers", 0, "teleport_dest"], 4)),
    "D0010": ("probe cubemap past the cubemaps", set_in(["lighting", "reflection_probes", 0, "cubemap"], 2)),
    "D0011": ("light style past the styles", set_in(["lighting", "punctual_lights", 0, "style"], 5)),
    "D0012": ("profile lightmap past the lightmaps", set_in(["lighting", "profiles", 0, "lightmap"], 3)),
    "D0013": ("batch index range past the indices", set_in(["geometry", "batches", 1, "index_count"], 12)),
    "D0014": ("additive batch before the opaque one", d14),
    "D0015": ("index past the vertices", set_in(["geometry", "indices", 2], 99)),
    "D0016": ("triangle repeating a vertex", set_in(["geometry", "indices", 5], 0)),
    "D0017": ("NaN in a vertex uv", set_in(["geometry", "vertices", 0, "uv", "x"], "nan")),
    "D0018": ("normal of length 2", set_in(["geometry", "vertices", 0, "normal"], v3(0, 2, 0))),
    "D0019": ("tangent w of 0", set_in(["geometry", "vertices", 0, "tangent", "w"], 0)),
    "D0020": ("pillar planes enclosing nothing", d20),
    "D0021": ("pillar bounds 50 units short", set_in(["sim", "colliders", 2, "hi", "x"], 982)),
    "D0022": ("hull face with a repeated corner", d22),
    "D0023": ("pillar with no shape", d23),
    "D0024": ("texture one byte short", set_in(["textures", "images", 0, "data"], [1] * 15)),
    "D0025": ("cubemap of five layers", set_in(["cubemaps", "images", 0], rgba(1, 1, layers=5))),
    "D0026": ("one l1 plane", set_in(["lightmaps", "lightmaps", 0, "l1"], [rgba(1, 1)])),
    "D0027": ("two bump pages", set_in(["lightmaps", "lightmaps", 0, "bump"], [rgba(1, 1)] * 2)),
    "D0028": ("four style pages", set_in(["lightmaps", "lightmaps", 0, "styles"],
                                         [{"style": 1, "color": rgba(1, 1)}] * 4)),
    "D0029": ("edge 0 -> 1 without 1 -> 0", d29),
    "D0030": ("probe 0's first edge after probe 1's", d30),
    "D0031": ("probe room past the rooms", set_in(["acoustics", "probes", 0, "room"], 5)),
    "D0032": ("spawn inside the floor", set_in(["sim", "spawns", 0, "position"], v3(0, -8, 0))),
    "D0033": ("spawn past the floor's edge, nothing below", set_in(["sim", "spawns", 0, "position"], v3(0, 24, 2000))),
    "D0034": ("teleport destination inside the floor",
              set_in(["sim", "teleport_dests", 0, "position"], v3(100, -8, 100))),
    "D0035": ("push trigger inside the floor", set_in(["sim", "triggers", 1], {
        "kind": "Push", "lo": v3(-10, -12, -10), "hi": v3(10, -4, 10), "velocity": v3(0, 800, 0)})),
    "D0036": ("hurt volume inside the floor", set_in(["sim", "hurt_volumes", 0], {
        "name": "trigger_hurt", "lo": v3(-10, -12, -10), "hi": v3(10, -4, 10)})),
    "D0039": ("edge len_m 2 m for probes 1.6256 m apart", set_in(["acoustics", "edges", 0, "len_m"], 2.0)),
    "D0040": ("edge narrow, its opposite not", d40),
    "D0041": ("edges through door 3, one door", d41),
    "D0042": ("room damping 1.5", set_in(["acoustics", "rooms", 0, "damping"], 1.5)),
    "D0043": ("every ray hit within 45 m, mean 60 m",
              set_in(["acoustics", "probes", 0], {"position": v3(0, 48, 0), "first_edge": 0,
                                                  "room": 0, "enclosed": 255, "size_m": 60})),
    "D0044": ("probe inside the floor (the other in the open door)", d44),
    "D0045": ("probe past the floor's edge, nothing below", move_probe((0, 48, 2000))),
    "D0046": ("meta.tool of a draft bake", set_in(["meta", "tool"], "blvl 0.1.0 draft")),
}


def pack(blvl, level, out, folder):
    os.makedirs(folder, exist_ok=True)
    args = [blvl, "pack", "-o", out]
    for tag, body in level.items():
        path = os.path.join(folder, tag + ".json")
        with open(path, "w") as f:
            json.dump(body, f)
        args.append("%s=json:%s" % (tag, path))
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("pack %s failed: %s" % (out, r.stderr))


def diag(blvl, path, *extra):
    r = subprocess.run([blvl, "diag", "--json", path] + list(extra), capture_output=True,
                       text=True)
    try:
        doc = json.loads(r.stdout)
    except ValueError:
        raise SystemExit("diag %s: output is not JSON: %r %s" % (path, r.stdout[:300], r.stderr))
    return r.returncode, doc


# fuzz_diag.c's record tag numbers: every core tag but meta, in registry order.
FUZZ_TAGS = [t for t in open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                          "schema", "core_tags.txt")).read().split() if t != "meta"]


def corpus(blvl, work, out):
    """fuzz/corpus/diag: each test level's sections as fuzz_diag.c reads them, records of
    [u8 tag number][u32 size][FlatBuffer] (the bytes `blvl cat` gives)."""
    import struct
    os.makedirs(out, exist_ok=True)
    levels = [("clean", clean())]
    for code, (_, edit) in sorted(DEFECTS.items()):
        L = copy.deepcopy(clean())
        edit(L)
        levels.append((code, L))
    for name, L in levels:
        path = os.path.join(work, name + ".blvl")
        pack(blvl, L, path, os.path.join(work, name))
        seed = b""
        for n, tag in enumerate(FUZZ_TAGS):
            if tag not in L:
                continue
            fb = subprocess.run([blvl, "cat", path, tag], capture_output=True, check=True).stdout
            seed += struct.pack("<BI", n, len(fb)) + fb
        with open(os.path.join(out, name.lower()), "wb") as f:
            f.write(seed)


def main():
    if sys.argv[1] == "--corpus":
        corpus(sys.argv[2], sys.argv[3], sys.argv[4])
        return 0
    blvl, work = sys.argv[1], sys.argv[2]
    failures = 0
    checks = 0

    def expect(cond, what):
        nonlocal failures, checks
        checks += 1
        if not cond:
            failures += 1
            print("FAIL:", what)

    pack(blvl, clean(), os.path.join(work, "clean.blvl"), os.path.join(work, "clean"))
    rc, doc = diag(blvl, os.path.join(work, "clean.blvl"))
    expect(rc == 0 and doc["findings"] == [] and doc["counts"]["error"] == 0,
           "the clean level has findings: rc %d %s" % (rc, doc["findings"]))
    catalogue = subprocess.run([blvl, "diag", "--list"], capture_output=True, text=True).stdout
    listed = [l.split("\t")[0] for l in catalogue.splitlines()[1:]]
    # D0000 (a damaged section) is planted by flipping bytes in tests/test_diag.sh and
    # tests/test_diag_api.c; D0037 and D0038 are about the symbols file.
    for code in listed:
        if code not in DEFECTS and code not in ("D0000", "D0037", "D0038"):
            expect(False, "%s has no planted defect" % code)
    # The game drops a spawned player from any height: a spawn 800 units above the floor (as
    # some stock OpenArena maps have) is no finding.
    L = clean()
    L["sim"]["spawns"][0]["position"] = v3(0, 824, 0)
    path = os.path.join(work, "floating.blvl")
    pack(blvl, L, path, os.path.join(work, "floating"))
    rc, doc = diag(blvl, path)
    expect(rc == 0 and doc["findings"] == [], "a spawn 800 units up: rc %d %s" % (rc, doc["findings"]))
    for code, (what, edit) in sorted(DEFECTS.items()):
        L = copy.deepcopy(clean())
        edit(L)
        path = os.path.join(work, code + ".blvl")
        pack(blvl, L, path, os.path.join(work, code))
        rc, doc = diag(blvl, path)
        fired = sorted({f["code"] for f in doc["findings"]})
        expect(fired == [code], "%s (%s): fired %s" % (code, what, fired))
        sev = {f["severity"] for f in doc["findings"]}
        expect(rc == (1 if "error" in sev else 0), "%s: exit %d for severities %s" % (code, rc, sev))
        # --only with another code hides it; --only with its own keeps it
        rc2, doc2 = diag(blvl, path, "--only", "D0001" if code != "D0001" else "D0002")
        expect(rc2 == 0 and doc2["findings"] == [], "%s: --only of another code: %s" % (code, doc2))
        rc3, doc3 = diag(blvl, path, "--only", code)
        expect({f["code"] for f in doc3["findings"]} == {code}, "%s: --only %s" % (code, code))
    print("diag_levels: %d checks, %d failed" % (checks, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

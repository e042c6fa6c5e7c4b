#!/usr/bin/env python3
"""The materials test's inputs and its check (tests/test_q3_materials.sh).

    materials_case.py make DIR     DIR/map.bsp (make_bsp.py's room, more shaders named) and
                                   DIR/game/: scripts/*.shader, textures/, env/ (loose files)
    materials_case.py check DIR    reads DIR/*.json (blvl dump of the baked level and .bsym)
                                   and checks every material, image, the sky and the sun

Independent of blvl's readers: the files are written with struct and Pillow, the check reads
the JSON `blvl dump` prints and decodes PNGs with Pillow."""
import io
import json
import math
import os
import struct
import sys

from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_bsp  # noqa: E402

SHADERS = [  # appended after make_bsp's three (floor, wall, curve)
    ("textures/t/opaque", 0, 1),
    ("textures/t/implicit", 0, 1),
    ("textures/t/add", 0, 1),
    ("textures/t/filter", 0, 1),
    ("textures/t/alpha", 0, 1),
    ("textures/t/missing", 0, 1),
    ("textures/t/missing2", 0, 1),
    ("textures/t/sky", 0x4, 1),
    ("textures/t/fog", 0, 0x40),
    ("textures/t/light", 0, 1),
    ("textures/t/unknown", 0, 1),
    ("textures/t/anim", 0, 1),
    ("textures/t/dup", 0, 1),
    ("textures/common/nodraw", 0x80, 1),
]

SCRIPT_A = """
// the test's shaders
textures/t/opaque
{
\tqer_editorimage textures/t/wall.tga
\t{
\t\tmap $lightmap
\t\trgbGen identity
\t}
\t{ map textures/t/wall.tga blendFunc filter tcMod scroll 0.5 0.25 }
}
textures/t/add { cull disable { map textures/t/wall blendfunc add } }
textures/t/filter { { map textures/t/wall.jpg blendFunc GL_DST_COLOR GL_ZERO } }
textures/t/alpha
{
\tsurfaceparm alphashadow
\tsurfaceparm trans
\tcull none
\tdeformVertexes wave 100 sin 0 3 0 0.5
\tdeformVertexes bulge 2 3 4
\t{
\t\tmap textures/t/wall.tga
\t\talphaFunc GE128
\t\tdepthWrite
\t\trgbGen wave triangle 0.2 0.8 0 1.5
\t\ttcMod transform 1 0 0 1 0.5 0
\t}
}
textures/t/missing { { map textures/x/none.tga } }
textures/t/missing2 { { map textures/x/NONE } }
textures/t/undrawn { { map textures/x/undrawn.tga } }
textures/t/sky
{
\tsurfaceparm sky
\tsurfaceparm noimpact
\tq3map_sun 1 0.5 0.5 100 90 45
\tskyparms env/t 512 -
}
textures/t/fog { surfaceparm fog surfaceparm trans fogparms ( 1 0.5 0 ) 256 }
textures/t/light
{
\tq3map_lightimage textures/t/red.tga
\tq3map_surfacelight 500
\t{ map textures/t/wall.tga }
}
textures/t/unknown
{
	q3map_flare flareShader
	qer_trans 0.4
	{ map textures/t/wall.tga videoMap x.roq }
}
textures/t/anim { { animMap 2 textures/t/f1.tga textures/t/f2.tga
	blendFunc blend } }
textures/t/dup { sort 6 { map textures/t/wall.tga } }
"""
SCRIPT_B = "textures/t/dup { sort 5 { map textures/t/wall.tga } }\n"

FACES = {"rt": (255, 0, 0), "bk": (0, 255, 0), "up": (0, 0, 255), "dn": (255, 255, 0),
         "ft": (0, 255, 255), "lf": (255, 0, 255)}


def wall():
    im = Image.new("RGBA", (8, 4))
    im.putdata([(x * 30, y * 60, 200, 255 - x * 20) for y in range(4) for x in range(8)])
    return im


def make(d):
    m = make_bsp.Map()
    base = len(m.lumps["shaders"])
    for k, (name, sf, ct) in enumerate(SHADERS):
        m.lumps["shaders"].append(make_bsp.name64(name) + struct.pack("<iI", sf, ct))
        # a drawn surface for each (the first surface again, with this shader): images are
        # looked up only for shaders some surface draws
        m.lumps["surfaces"].append(struct.pack("<i", base + k) + m.lumps["surfaces"][0][4:])
    # a shader no surface draws: its image is never looked up, so never missing
    m.lumps["shaders"].append(make_bsp.name64("textures/t/undrawn") + struct.pack("<iI", 0, 1))
    open(os.path.join(d, "map.bsp"), "wb").write(m.bytes())
    g = os.path.join(d, "game")
    for sub in ("scripts", "textures/t", "env"):
        os.makedirs(os.path.join(g, sub), exist_ok=True)
    open(os.path.join(g, "scripts/a.shader"), "w").write(SCRIPT_A)
    open(os.path.join(g, "scripts/b.shader"), "w").write(SCRIPT_B)
    wall().save(os.path.join(g, "textures/t/wall.tga"), compression="tga_rle")
    Image.new("RGB", (5, 3), (10, 120, 30)).save(os.path.join(g, "textures/t/implicit.jpg"))
    Image.new("RGB", (4, 4), (200, 0, 0)).save(os.path.join(g, "textures/t/red.tga"))
    Image.new("RGB", (2, 2), (1, 2, 3)).save(os.path.join(g, "textures/t/f1.tga"))
    Image.new("RGB", (2, 2), (4, 5, 6)).save(os.path.join(g, "textures/t/f2.tga"))
    for f, c in FACES.items():  # some faces as JPEG: the look-up swaps the extension
        im = Image.new("RGB", (8, 8), c)
        if f in ("up", "lf"):
            im.save(os.path.join(g, "env/t_%s.jpg" % f), quality=100)
        else:
            im.save(os.path.join(g, "env/t_%s.tga" % f))


fails = 0


def ok(cond, what):
    global fails
    if not cond:
        fails += 1
        print("FAIL:", what)


def near(a, b, eps=1e-4):
    return abs(a - b) <= eps


def check(d):
    geo = json.load(open(os.path.join(d, "geometry.json")))
    tex = json.load(open(os.path.join(d, "textures.json")))["images"]
    sym = json.load(open(os.path.join(d, "bsym.json")))["materials"]
    mats = {m["name"]: m for m in geo["materials"]}
    syms = {s["name"]: s for s in sym}
    g = os.path.join(d, "game")
    ok(len(geo["materials"]) == 4 + len(SHADERS), "one material per shader of the map")
    ok([m["name"] for m in geo["materials"]][3:] == [s[0] for s in SHADERS] +
       ["textures/t/undrawn"], "in lump order")
    names = [t["name"] for t in tex]
    ok(len(names) == len(set(names)), "every image once: %s" % names)
    ok(sorted(names) == sorted(["textures/t/wall.tga", "textures/t/implicit.jpg",
                                "textures/t/f1.tga", "textures/t/f2.tga"]), "images %s" % names)
    by = {t["name"]: (i, t) for i, t in enumerate(tex)}
    # TGA -> PNG with the same pixels; JPEG carried byte for byte
    i, t = by["textures/t/wall.tga"]
    ok(t.get("encoding", "Png") == "Png", "a TGA is stored as PNG")
    png = Image.open(io.BytesIO(bytes(t["data"]))).convert("RGBA")
    ok(png.tobytes() == wall().tobytes(), "the PNG holds the TGA's pixels")
    _, j = by["textures/t/implicit.jpg"]
    ok(j["encoding"] == "Jpeg" and j["width"] == 5 and j["height"] == 3, "JPEG size")
    ok(bytes(j["data"]) == open(os.path.join(g, "textures/t/implicit.jpg"), "rb").read(),
       "JPEG carried as it is")
    wall_i = by["textures/t/wall.tga"][0]

    def mat(n):
        return mats.get(n, {})

    o = mat("textures/t/opaque")
    ok(o.get("texture") == wall_i and o.get("blend", "Opaque") == "Opaque", "opaque: %s" % o)
    ok(o.get("sort", 3) == 3 and o.get("depth_write", True), "opaque sort and depth")
    an = o.get("shading", {}).get("anim", {})
    ok(an.get("tcmods", [{}])[0].get("kind") == "Scroll", "opaque: tcMod scroll %s" % an)
    ok(near(an.get("tcmods", [{}])[0].get("args", {}).get("y", 0), 0.25), "scroll t")
    im = mat("textures/t/implicit")
    ok(im.get("texture") == by["textures/t/implicit.jpg"][0], "implicit shader: its image")
    a = mat("textures/t/add")
    ok(a.get("blend") == "Additive" and a.get("sort") == 9 and a.get("depth_write") is False,
       "add: %s" % a)
    ok(a.get("two_sided") is True and a.get("texture") == wall_i, "cull disable, wall by stem")
    f = mat("textures/t/filter")
    ok(f.get("blend") == "Multiply" and f.get("texture") == wall_i, "filter: %s" % f)
    al = mat("textures/t/alpha")
    ok(al.get("alpha_test") == "GreaterEqual" and near(al.get("alpha_ref", 0.5), 0.5), "GE128")
    ok(al.get("two_sided") is True, "cull none")
    ok(al.get("pbr", {}).get("surface_params") == ["alphashadow", "trans"], "surfaceparms")
    an = al.get("shading", {}).get("anim", {})
    ok(an.get("rgb_wave", {}).get("func") == "Triangle" and near(an["rgb_wave"]["freq"], 1.5),
       "rgbGen wave %s" % an)
    dfm = an.get("deform", {})
    ok(dfm.get("kind") == "Wave" and near(dfm.get("spread", 0), 0.01), "deform wave %s" % dfm)
    uk = syms.get("textures/t/alpha", {}).get("unknown", [])
    ok(any(u.startswith("deformVertexes bulge 2 3 4") for u in uk), "second deform kept: %s" % uk)
    ok(any(u.startswith("tcMod transform 1 0 0 1 0.5 0") for u in uk), "tcMod transform kept")
    for n in ("textures/t/missing", "textures/t/missing2"):
        ok("texture" not in mat(n), "%s keeps its name, no image" % n)
        ok(syms.get(n, {}).get("texture") in ("textures/x/none.tga", "textures/x/NONE"),
           "%s: the .bsym names the image" % n)
    s = mat("textures/t/sky")
    ok(s.get("sky") is True and s.get("sort") == 2, "sky %s" % s)
    fg = mat("textures/t/fog")
    ok(fg.get("sort") == 7, "fog sort %s" % fg)
    li = mat("textures/t/light")
    pbr = li.get("pbr", {})
    ok(near(pbr.get("emit_intensity", 0), 500), "surfacelight %s" % pbr)
    ec = pbr.get("emit_color", {})
    ok(near(ec.get("x", 0), 1) and near(ec.get("y", 1), 0) and near(ec.get("z", 1), 0),
       "light image colour %s" % ec)
    u = syms.get("textures/t/unknown", {})
    ok(u.get("unknown") == ["q3map_flare flareShader", "qer_trans 0.4", "videoMap x.roq"],
       "unknown keywords %s" % u)
    ok(u.get("shader") == "scripts/a.shader", "the script that defined it")
    an = mat("textures/t/anim").get("shading", {}).get("anim", {})
    ok(an.get("frames") == [by["textures/t/f1.tga"][0], by["textures/t/f2.tga"][0]] and
       near(an.get("fps", 0), 2), "animMap %s" % an)
    ok(mat("textures/t/anim").get("blend") == "Alpha", "blendFunc blend")
    ok(mat("textures/t/dup").get("sort") == 5, "the later script wins")
    ok(syms.get("textures/t/dup", {}).get("shader") == "scripts/b.shader", "dup from b.shader")
    nd = mat("textures/common/nodraw")
    ok("texture" not in nd, "nodraw: no image")
    # the sky cubemap: faces +X, -X, +Y, -Y, +Z, -Z = rt, lf, up, dn, ft, bk
    cube = json.load(open(os.path.join(d, "cubemaps.json")))["images"]
    ok(len(cube) == 1, "one cubemap")
    if cube:
        c = Image.open(io.BytesIO(bytes(cube[0]["data"]))).convert("RGB")
        ok(c.size == (8, 48), "six 8 x 8 faces stacked: %s" % (c.size,))
        for k, face in enumerate(["rt", "lf", "up", "dn", "ft", "bk"]):
            px = c.getpixel((4, k * 8 + 4))
            ok(all(abs(px[q] - FACES[face][q]) <= 3 for q in range(3)),
               "face %d is %s: %s" % (k, face, px))
    # the sun: degrees 90, elevation 45 -> Quake (0, .707, .707) -> blvl (0, .707, -.707)
    lit = json.load(open(os.path.join(d, "lighting.json")))
    sun = lit["profiles"][0].get("sun", {})
    dr = sun.get("direction", {})
    h = math.sqrt(0.5)
    ok(near(dr.get("x", 9), 0) and near(dr.get("y", 9), h) and near(dr.get("z", 9), -h),
       "sun direction %s" % dr)
    col = sun.get("color", {})
    ok(near(col.get("x", 0), 1) and near(col.get("y", 0), 0.5), "sun colour %s" % col)
    ok(near(sun.get("intensity", 0), 100), "sun intensity")
    if fails:
        print("%d failed" % fails)
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    {"make": make, "check": check}[sys.argv[1]](sys.argv[2])

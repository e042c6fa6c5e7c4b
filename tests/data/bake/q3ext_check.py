#!/usr/bin/env python3
"""Independent check of what the bake writes for the lightmap, the light grid, the sky and the
material extensions (tests/test_bake_q3ext.c writes DIR):

  DIR/lightmaps.bin, cubemaps.bin, lighting.bin, geometry.bin   the sections' FlatBuffers
  DIR/level.bsym                                                the symbols file
  DIR/lightmap.rgba, sky.rgba                                   the pixels handed to the bake
  DIR/grid_ambient.rgb, grid_directional.rgb, grid_direction.f32  the light grid handed to it
  DIR/expect.json                                               every other value handed to it

Each FlatBuffer is decoded by Debian's flatc (--json --defaults-json) from schema/*.fbs and each
PNG by Pillow; nothing of libblvl reads them. Exit 0 when every value matches, 1 otherwise,
printing every mismatch.
"""
import io
import json
import math
import os
import struct
import subprocess
import sys
import tempfile

from PIL import Image

bad = []


def expect(cond, what):
    if not cond:
        bad.append(what)


def flatc_json(d, tag, schema, path):
    out = tempfile.mkdtemp(dir=d)
    subprocess.run(["flatc", "--json", "--strict-json", "--defaults-json", "--raw-binary",
                    "-o", out, "schema/%s.fbs" % schema, "--", path], check=True)
    name = os.path.splitext(os.path.basename(path))[0] + ".json"
    with open(os.path.join(out, name)) as f:
        return json.load(f)


def slurp(d, name):
    with open(os.path.join(d, name), "rb") as f:
        return f.read()


def png_pixels(img, width, rows):
    """Pillow's RGBA bytes of a PNG blob, checked to be width x rows."""
    im = Image.open(io.BytesIO(bytes(img["data"])))
    expect(im.format == "PNG", "%s: not a PNG" % img.get("name"))
    expect(im.size == (width, rows), "PNG size %s, want %dx%d" % (im.size, width, rows))
    return im.convert("RGBA").tobytes()


def quantize(v):
    v = max(-1.0, min(1.0, v))
    return math.floor((v * 0.5 + 0.5) * 255.0 + 0.5)


def vec(v):
    return [v["x"], v["y"], v["z"]]


def check_lightmap(d, e):
    lm = flatc_json(d, "lightmaps", "lightmaps", os.path.join(d, "lightmaps.bin"))
    x = e["lightmap"]
    expect(len(lm["lightmaps"]) == 1, "lightmaps: %d lightmaps" % len(lm["lightmaps"]))
    one = lm["lightmaps"][0]
    expect(one["encoding"] == x["encoding"], "lightmap encoding %s" % one["encoding"])
    expect(one["gain"] == x["gain"], "lightmap gain %s" % one["gain"])
    c = one["color"]
    expect(c["encoding"] == "Png", "lightmap colour encoding %s" % c["encoding"])
    want_cs = "Srgb" if x["encoding"] == "Gamma8" else "Linear"
    expect(c["color_space"] == want_cs, "lightmap colour space %s" % c["color_space"])
    expect((c["width"], c["height"], c["layers"], c["mips"]) ==
           (x["width"], x["height"], x["layers"], 1), "lightmap dimensions %s" % c)
    px = png_pixels(c, x["width"], x["height"] * x["layers"])
    expect(px == slurp(d, "lightmap.rgba"), "lightmap pixels differ from the pages given")


def check_sky(d, e):
    cm = flatc_json(d, "cubemaps", "cubemaps", os.path.join(d, "cubemaps.bin"))
    x = e["sky"]
    expect(len(cm["images"]) == 1, "cubemaps: %d images" % len(cm["images"]))
    s = cm["images"][0]
    expect(s.get("name") == x["name"], "sky name %s" % s.get("name"))
    expect((s["width"], s["height"], s["layers"], s["encoding"], s["color_space"]) ==
           (x["size"], x["size"], 6, "Png", "Srgb"), "sky image %s" % {k: v for k, v in s.items()
                                                                        if k != "data"})
    px = png_pixels(s, x["size"], 6 * x["size"])
    expect(px == slurp(d, "sky.rgba"), "sky pixels differ from the faces given")


def check_lighting(d, e):
    li = flatc_json(d, "lighting", "lighting", os.path.join(d, "lighting.bin"))
    p = li["profiles"][0]
    expect(p.get("name") == "authored", "profile 0 name %s" % p.get("name"))
    expect(p["lightmap"] == 0, "profile 0 lightmap %s" % p["lightmap"])
    expect(p["sky"] == 0, "profile 0 sky %s" % p["sky"])
    x = e["grid"]
    g = li["light_grid"]
    expect(g["kind"] == "AmbientDirectional", "grid kind %s" % g["kind"])
    expect(vec(g["origin"]) == x["origin"], "grid origin %s" % g["origin"])
    expect(vec(g["cell_size"]) == x["cell_size"], "grid cell size %s" % g["cell_size"])
    expect(g["encoding"] == x["encoding"], "grid encoding %s" % g["encoding"])
    expect(g["gain"] == x["gain"], "grid gain %s" % g["gain"])
    w, h, n = x["width"], x["height"], x["layers"]
    cells = w * h * n
    colour_cs = "Srgb" if x["encoding"] == "Gamma8" else "Linear"
    amb = slurp(d, "grid_ambient.rgb")
    dirc = slurp(d, "grid_directional.rgb")
    vecs = struct.unpack("<%df" % (3 * cells), slurp(d, "grid_direction.f32"))
    want = {
        "ambient": (colour_cs, b"".join(amb[3 * i:3 * i + 3] + b"\xff" for i in range(cells))),
        "directional": (colour_cs,
                        b"".join(dirc[3 * i:3 * i + 3] + b"\xff" for i in range(cells))),
        "direction": ("Linear", bytes(sum(([quantize(vecs[3 * i + k]) for k in range(3)] + [255]
                                           for i in range(cells)), []))),
    }
    for key, (cs, data) in want.items():
        im = g[key]
        expect((im["width"], im["height"], im["layers"], im["mips"], im["encoding"],
                im["color_space"]) == (w, h, n, 1, "Rgba8", cs),
               "grid %s image %s" % (key, {k: v for k, v in im.items() if k != "data"}))
        expect(bytes(im["data"]) == data, "grid %s bytes differ" % key)
    expect(not g.get("faces"), "grid faces present")


def wave(w):
    return [w["func"], w["base"], w["amp"], w["phase"], w["freq"]]


def deform(df):
    return [df.get("kind"), df.get("spread"), wave(df["wave"]) if "wave" in df else None,
            vec(df["vector"]) if "vector" in df else None,
            [df["bulge"]["width"], df["bulge"]["height"], df["bulge"]["speed"]]
            if "bulge" in df else None]


def check_materials(d, e):
    geo = flatc_json(d, "geometry", "geometry", os.path.join(d, "geometry.bin"))
    mats = geo["materials"]
    x = e["material"]
    plain, ext = mats[0], mats[1]
    # A material without extensions carries no Shading and no Pbr table.
    expect("shading" not in plain and "pbr" not in plain, "plain material has shading or pbr")
    sh = ext.get("shading", {})
    expect(sh.get("lightmapped") is False, "shading.lightmapped %s" % sh.get("lightmapped"))
    a = sh.get("anim", {})
    tcm = [[t["kind"], [t["args"]["x"], t["args"]["y"], t["args"]["z"], t["args"]["w"]],
            wave(t["wave"]) if "wave" in t else None] for t in a.get("tcmods", [])]
    expect(tcm == x["tcmods"], "tcmods %s" % tcm)
    expect(wave(a["rgb_wave"]) == x["rgb_wave"] if "rgb_wave" in a else False, "rgb wave")
    expect("alpha_wave" not in a, "alpha wave present")
    expect(a.get("frames") == x["frames"], "frames %s" % a.get("frames"))
    expect(a.get("fps") == x["fps"], "fps %s" % a.get("fps"))
    expect(deform(a.get("deform", {})) == x["deform"], "deform %s" % a.get("deform"))
    a3 = mats[3].get("shading", {}).get("anim", {})
    expect(deform(a3.get("deform", {})) == x["deform3"], "bulge deform %s" % a3.get("deform"))
    expect(mats[3]["shading"]["lightmapped"] is True, "bulge material not lightmapped")
    pbr = ext.get("pbr", {})
    expect(pbr.get("surface_params") == x["surface_params"], "surface params")
    expect(vec(pbr["emit_color"]) == x["emit_color"] if "emit_color" in pbr else False,
           "emit colour")
    expect(pbr.get("emit_intensity") == x["emit_intensity"], "emit intensity")
    expect("maps" not in pbr, "pbr maps present")
    # Only vertex lighting: a Shading table with lightmapped false and no anim.
    vl = mats[2].get("shading", {})
    expect(vl.get("lightmapped") is False and "anim" not in vl and "pbr" not in mats[2],
           "vertex-lit material %s" % mats[2])

    sym = flatc_json(d, "level", "bsym", os.path.join(d, "level.bsym"))
    sm = sym["materials"]
    expect(sm[1].get("shader") == x["shader"], "bsym shader %s" % sm[1].get("shader"))
    expect(sm[1].get("unknown") == x["unknown"], "bsym unknown %s" % sm[1].get("unknown"))
    expect("unknown" not in sm[0] and "shader" not in sm[0], "plain bsym material %s" % sm[0])


def main():
    d = sys.argv[1]
    with open(os.path.join(d, "expect.json")) as f:
        e = json.load(f)
    check_lightmap(d, e)
    check_sky(d, e)
    check_lighting(d, e)
    check_materials(d, e)
    for b in bad:
        print("q3ext_check: " + b)
    print("q3ext_check: %s" % ("FAIL" if bad else "ok"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The level of blvl view's first-frame benchmark (scripts/bench-view.sh, docs/BENCHMARKS.md):
a terrain grid of noisy heights, colours and texture coordinates (bytes that compress little,
as a baked map's do) split into batches over sixteen noise JPEG textures, and one camera looking
over it, written as the JSON of its core sections for `blvl pack`. Deterministic.
  view_level.py OUT_DIR GRID TEXTURE_SIZE"""
import io
import json
import os
import random
import sys

from PIL import Image

out, grid, tex = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rnd = random.Random(1234)
os.makedirs(out, exist_ok=True)
step = 16.0
verts = []
for j in range(grid):
    for i in range(grid):
        x, z = (i - grid / 2) * step, (j - grid / 2) * step
        y = rnd.uniform(-24, 24)
        c = [rnd.randrange(120, 256) for _ in range(3)]
        verts.append({"position": {"x": x, "y": y, "z": z}, "normal": {"x": 0, "y": 1, "z": 0},
                      "uv": {"x": i / 8 + rnd.random() / 64, "y": j / 8 + rnd.random() / 64},
                      "lightmap_uv": {"x": 0, "y": 0},
                      "color": {"r": c[0], "g": c[1], "b": c[2], "a": 255},
                      "tangent": {"x": 32767, "y": 0, "z": 0, "w": 32767}})
indices, batches = [], []
materials = 16
rows = (grid - 1 + materials - 1) // materials
for m in range(materials):
    first = len(indices)
    j0, j1 = m * rows, min(grid - 1, (m + 1) * rows)
    for j in range(j0, j1):
        for i in range(grid - 1):
            a, b = j * grid + i, j * grid + i + 1
            c, d = a + grid, b + grid
            indices += [a, c, b, b, c, d]  # counter-clockwise seen from above (+Y)
    if len(indices) == first:
        continue
    half = grid / 2 * step
    batches.append({"first_index": first, "index_count": len(indices) - first, "material": m,
                    "lo": {"x": -half, "y": -24, "z": (j0 - grid / 2) * step},
                    "hi": {"x": half, "y": 24, "z": (j1 - grid / 2) * step}})
json.dump({"vertices": verts, "indices": indices, "batches": batches,
           "materials": [{"name": "bench/noise%d" % m, "texture": m, "blend": "Opaque"}
                         for m in range(materials)]}, open(os.path.join(out, "geometry.json"), "w"))
images = []
for m in range(materials):
    im = Image.frombytes("RGB", (tex, tex), rnd.randbytes(tex * tex * 3))
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=95)
    images.append({"name": "bench/noise%d.jpg" % m, "width": tex, "height": tex,
                   "encoding": "Jpeg", "color_space": "Srgb", "mips": 1, "layers": 1,
                   "data": list(buf.getvalue())})
json.dump({"images": images}, open(os.path.join(out, "textures.json"), "w"))
json.dump({"cameras": [{"name": "over", "purpose": "Thumbnail", "pos": {"x": 0, "y": 600, "z": grid * step / 2},
                        "yaw": 0, "pitch": -30, "fov_x": 90}]}, open(os.path.join(out, "cameras.json"), "w"))
json.dump({"colliders": []}, open(os.path.join(out, "sim.json"), "w"))
json.dump({"name": "view bench", "author": "bench", "created": 0, "tool": "view_level.py",
           "engine": "Urt"}, open(os.path.join(out, "meta.json"), "w"))

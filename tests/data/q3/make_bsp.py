#!/usr/bin/env python3
"""Writes a small valid Quake 3 map (IBSP 46) and malformed variants of it, with Python's struct
and zipfile alone (independent of blvl's reader).

    make_bsp.py OUTDIR

OUTDIR/good.bsp       a room: six brushes around a box, a floor, a patch, a spawn
OUTDIR/good.pk3       good.bsp as maps/good.bsp, with a shader script
OUTDIR/bad/NAME.bsp   one rule broken each; OUTDIR/bad/expected.tsv: NAME<TAB>RULE<TAB>TEXT,
                      TEXT a piece the refusal must hold (the lump and record)
OUTDIR/bad/NAME.pk3   malformed archives, in the same table
"""
import os
import struct
import sys
import zipfile
import zlib

LUMPS = ["entities", "shaders", "planes", "nodes", "leafs", "leaf surfaces", "leaf brushes",
         "models", "brushes", "brush sides", "draw verts", "draw indexes", "fogs", "surfaces",
         "lightmaps", "light grid", "visibility"]
REC = [1, 72, 16, 36, 48, 4, 4, 40, 12, 8, 44, 4, 72, 104, 128 * 128 * 3, 8, 1]
L = {n: i for i, n in enumerate(LUMPS)}
HEADER = 8 + 8 * 17


def name64(s):
    b = s.encode()
    return b + b"\0" * (64 - len(b))


class Map:
    """The lumps as lists of records (bytes each), so a variant can change one record."""

    def __init__(self):
        self.lumps = {n: [] for n in LUMPS}
        ents = ('{\n"classname" "worldspawn"\n"message" "Test Room"\n}\n'
                '{\n"classname" "info_player_deathmatch"\n"origin" "0 0 40"\n"angle" "90"\n}\n')
        self.lumps["entities"] = [ents.encode() + b"\0"]
        self.lumps["shaders"] = [name64("textures/base/floor") + struct.pack("<iI", 0, 1),
                                 name64("textures/base/wall") + struct.pack("<iI", 0, 1),
                                 name64("textures/base/curve") + struct.pack("<iI", 0, 1)]
        # The room: 6 slabs of 16 units around a 512 x 512 x 256 box from (-256,-256,0).
        planes = []
        brushes = []
        sides = []
        lo, hi = (-256, -256, 0), (256, 256, 256)
        slabs = []
        for axis in range(3):
            a = list(lo); b = list(hi)
            a2 = list(lo); b2 = list(hi)
            a[axis] = lo[axis] - 16; b[axis] = lo[axis]
            a2[axis] = hi[axis]; b2[axis] = hi[axis] + 16
            slabs += [(a, b), (a2, b2)]
        for mins, maxs in slabs:
            first = len(sides)
            for axis in range(3):
                for sign in (-1, 1):
                    n = [0.0, 0.0, 0.0]
                    n[axis] = float(sign)
                    d = maxs[axis] if sign > 0 else -mins[axis]
                    sides.append(struct.pack("<ii", len(planes), 1))
                    planes.append(struct.pack("<4f", n[0], n[1], n[2], float(d)))
            brushes.append(struct.pack("<iii", first, 6, 1))
        # node 0 splits at z = 128 (above: leaf 0), node 1 at x = 0 below it (leafs 1 and 2)
        split = len(planes)
        planes.append(struct.pack("<4f", 0, 0, 1, 128))
        planes.append(struct.pack("<4f", 1, 0, 0, 0))
        self.lumps["planes"] = planes
        self.lumps["brushes"] = brushes
        self.lumps["brush sides"] = sides
        self.lumps["nodes"] = [struct.pack("<3i6i", split, -1, 1, -272, -272, -16, 272, 272, 272),
                               struct.pack("<3i6i", split + 1, -2, -3, -272, -272, -16, 272, 272, 128)]
        self.lumps["leafs"] = [struct.pack("<12i", 0, 0, -272, -272, 128, 272, 272, 272, 0, 0, 0, 6),
                               struct.pack("<12i", 1, 0, 0, -272, -16, 272, 272, 128, 0, 2, 0, 6),
                               struct.pack("<12i", 1, 0, -272, -272, -16, 0, 272, 128, 0, 2, 0, 6)]
        self.lumps["leaf surfaces"] = [struct.pack("<i", 0), struct.pack("<i", 1)]
        self.lumps["leaf brushes"] = [struct.pack("<i", i) for i in range(6)]
        self.lumps["models"] = [struct.pack("<6f4i", -272, -272, -16, 272, 272, 272, 0, 2, 0, 6)]

        def vert(x, y, z, s, t, lu, lv, nz=1.0):
            return struct.pack("<10f4B", x, y, z, s, t, lu, lv, 0, 0, nz, 255, 255, 255, 255)

        verts = [vert(-256, -256, 0, 0, 0, 0.0, 0.0), vert(256, -256, 0, 4, 0, 0.5, 0.0),
                 vert(256, 256, 0, 4, 4, 0.5, 0.5), vert(-256, 256, 0, 0, 4, 0.0, 0.5)]
        # a 3 x 3 patch: a bump on the floor
        for j in range(3):
            for i in range(3):
                verts.append(vert(-64 + 64 * i, -64 + 64 * j, 32 if (i == 1 and j == 1) else 0,
                                  i, j, 0.6 + 0.1 * i, 0.6 + 0.1 * j))
        self.lumps["draw verts"] = verts
        self.lumps["draw indexes"] = [struct.pack("<i", v) for v in (0, 1, 2, 0, 2, 3)]
        lm = [0.0] * 9 + [0, 0, 1.0]

        def surface(shader, typ, fv, nv, fi, ni, lmi, pw, ph):
            return struct.pack("<12i12f2i", shader, -1, typ, fv, nv, fi, ni, lmi, 0, 0, 64, 64,
                               *lm, pw, ph)

        self.lumps["surfaces"] = [surface(0, 1, 0, 4, 0, 6, 0, 0, 0),
                                  surface(2, 2, 4, 9, 0, 0, 0, 3, 3)]
        page = bytes((x * 2) & 255 for x in range(128)) * (128 * 3)
        self.lumps["lightmaps"] = [page]
        # light grid: 64 x 64 x 128 cells over the world model's bounds, as the engine counts
        # them: from ceil(mins / size) to floor(maxs / size), both ends included
        def cells(lo, hi, size):
            return hi // size - (-(-lo // size)) + 1
        nx = cells(-272, 272, 64)
        ny = nx
        nz = cells(-16, 272, 128)
        self.lumps["light grid"] = [bytes([40, 40, 40, 200, 200, 180, 0, 64])] * (nx * ny * nz)
        self.lumps["visibility"] = [struct.pack("<ii", 2, 1) + bytes([3, 3])]
        self.override = {}  # lump -> (offset, length) written into the header as given
        self.tail = b""

    def bytes(self):
        data = bytearray(HEADER)
        dirs = []
        for n in LUMPS:
            blob = b"".join(self.lumps[n])
            while len(data) % 4:
                data.append(0)
            dirs.append((len(data), len(blob)))
            data += blob
        data += self.tail
        for n, (o, ln) in self.override.items():
            dirs[L[n]] = (o, ln)
        struct.pack_into("<4si", data, 0, b"IBSP", 46)
        for i, (o, ln) in enumerate(dirs):
            struct.pack_into("<II", data, 8 + 8 * i, o & 0xFFFFFFFF, ln & 0xFFFFFFFF)
        return bytes(data)


def patch_rec(m, lump, i, off, fmt, *vals):
    r = bytearray(m.lumps[lump][i])
    struct.pack_into(fmt, r, off, *vals)
    m.lumps[lump][i] = bytes(r)


def variants():
    """(name, rule, text, function changing a fresh Map or returning bytes)."""
    v = []

    def add(name, rule, text, fn):
        v.append((name, rule, text, fn))

    def raw(fn):
        def f(m):
            return fn(bytearray(m.bytes()))
        return f

    add("short_header", "header-size", "header: lumps", raw(lambda d: d[:100]))
    add("magic", "magic", "header: magic", raw(lambda d: b"RBSP" + d[4:]))
    add("version_47", "version", "header: version", raw(lambda d: d[:4] + struct.pack("<i", 47) + d[8:]))
    add("version_neg", "version", "header: version", raw(lambda d: d[:4] + struct.pack("<i", -1) + d[8:]))
    for n in ("planes", "nodes", "leafs", "models", "brushes", "brush sides", "draw verts",
              "surfaces", "shaders", "fogs", "lightmaps", "light grid"):
        slug = n.replace(" ", "_")

        def trunc(m, n=n):
            blob = b"".join(m.lumps[n]) or bytes(REC[L[n]])
            m.lumps[n] = [blob + b"\0"]  # one byte past a whole record
        add("records_" + slug, "lump-records", "lump " + n, trunc)

    def past(m, n):
        d = m.bytes()
        m.override[n] = (len(d) - 4, 64)
    for n in ("entities", "planes", "surfaces", "visibility", "lightmaps"):
        add("past_eof_" + n.replace(" ", "_"), "lump-bounds", "lump " + n,
            lambda m, n=n: past(m, n))
    add("offset_wraps", "lump-bounds", "lump draw verts",
        lambda m: m.override.__setitem__("draw verts", (0xFFFFFFF0, 44)))
    # indices out of range
    add("node_plane", "index-range", "lump nodes: record 0 plane",
        lambda m: patch_rec(m, "nodes", 0, 0, "<i", 99))
    add("node_child_node", "index-range", "lump nodes: record 0 children[1]",
        lambda m: patch_rec(m, "nodes", 0, 8, "<i", 2))
    add("node_child_leaf", "index-range", "lump nodes: record 1 children[1]",
        lambda m: patch_rec(m, "nodes", 1, 8, "<i", -4))
    add("node_child_min", "index-range", "lump nodes: record 0 children[0]",
        lambda m: patch_rec(m, "nodes", 0, 4, "<i", -2**31))
    add("node_self", "node-order", "lump nodes: record 0 children[0]",
        lambda m: patch_rec(m, "nodes", 0, 4, "<i", 0))
    add("node_loop", "node-order", "lump nodes: record 1 children[0]",
        lambda m: patch_rec(m, "nodes", 1, 4, "<i", 0))
    add("leaf_surfaces_run", "run-range", "lump leafs: record 1 first_leaf_surface",
        lambda m: patch_rec(m, "leafs", 1, 36, "<i", 3))
    add("leaf_surfaces_overflow", "run-range", "lump leafs: record 1 first_leaf_surface",
        lambda m: patch_rec(m, "leafs", 1, 32, "<ii", 2**31 - 1, 2**31 - 1))
    add("leaf_brushes_neg", "run-range", "lump leafs: record 0 first_leaf_brush",
        lambda m: patch_rec(m, "leafs", 0, 44, "<i", -1))
    add("leaf_cluster", "cluster-range", "lump leafs: record 1 cluster",
        lambda m: patch_rec(m, "leafs", 1, 0, "<i", 2))
    add("leaf_cluster_neg", "cluster-range", "lump leafs: record 0 cluster",
        lambda m: patch_rec(m, "leafs", 0, 0, "<i", -2))
    add("leaf_surface_index", "index-range", "lump leaf surfaces: record 1 surface",
        lambda m: patch_rec(m, "leaf surfaces", 1, 0, "<i", 2))
    add("leaf_brush_index", "index-range", "lump leaf brushes: record 5 brush",
        lambda m: patch_rec(m, "leaf brushes", 5, 0, "<i", 6))
    add("no_models", "world-model", "lump models",
        lambda m: m.lumps.__setitem__("models", []))
    add("model_surfaces", "run-range", "lump models: record 0 first_surface",
        lambda m: patch_rec(m, "models", 0, 28, "<i", 3))
    add("model_brushes_overflow", "run-range", "lump models: record 0 first_brush",
        lambda m: patch_rec(m, "models", 0, 32, "<ii", 1, 2**31 - 1))
    add("model_nan", "finite", "lump models: record 0 mins.x",
        lambda m: patch_rec(m, "models", 0, 0, "<I", 0x7FC00000))
    add("brush_sides_run", "run-range", "lump brushes: record 5 first_side",
        lambda m: patch_rec(m, "brushes", 5, 4, "<i", 7))
    add("brush_shader", "index-range", "lump brushes: record 0 shader",
        lambda m: patch_rec(m, "brushes", 0, 8, "<i", 3))
    add("side_plane", "index-range", "lump brush sides: record 3 plane",
        lambda m: patch_rec(m, "brush sides", 3, 0, "<i", 38))
    add("side_shader_neg", "index-range", "lump brush sides: record 0 shader",
        lambda m: patch_rec(m, "brush sides", 0, 4, "<i", -1))
    add("plane_inf", "finite", "lump planes: record 2 dist",
        lambda m: patch_rec(m, "planes", 2, 12, "<I", 0x7F800000))
    add("vert_nan", "finite", "lump draw verts: record 1 xyz.z",
        lambda m: patch_rec(m, "draw verts", 1, 8, "<I", 0xFFC00000))
    add("surface_shader", "index-range", "lump surfaces: record 0 shader",
        lambda m: patch_rec(m, "surfaces", 0, 0, "<i", 3))
    add("surface_fog_neg", "index-range", "lump surfaces: record 0 fog",
        lambda m: patch_rec(m, "surfaces", 0, 4, "<i", -2))
    add("surface_type", "surface-type", "lump surfaces: record 1 type",
        lambda m: patch_rec(m, "surfaces", 1, 8, "<i", 5))
    add("surface_verts", "run-range", "lump surfaces: record 0 first_vert",
        lambda m: patch_rec(m, "surfaces", 0, 12, "<i", 10))
    add("surface_verts_overflow", "run-range", "lump surfaces: record 0 first_vert",
        lambda m: patch_rec(m, "surfaces", 0, 12, "<ii", 2**31 - 1, 2))
    add("surface_indexes", "run-range", "lump surfaces: record 0 first_index",
        lambda m: patch_rec(m, "surfaces", 0, 24, "<i", 7))
    add("surface_triangles", "triangles", "lump surfaces: record 0 num_indexes",
        lambda m: patch_rec(m, "surfaces", 0, 24, "<i", 5))
    add("draw_index", "index-range", "lump draw indexes: index",
        lambda m: m.lumps["draw indexes"].__setitem__(2, struct.pack("<i", 4)))
    add("surface_lightmap", "index-range", "lump surfaces: record 0 lightmap",
        lambda m: patch_rec(m, "surfaces", 0, 28, "<i", 1))
    add("lightmap_rect", "lightmap-rect", "lump surfaces: record 0 lightmap_x",
        lambda m: patch_rec(m, "surfaces", 0, 32, "<i", 100))
    add("patch_even", "patch-size", "lump surfaces: record 1 patch_width",
        lambda m: patch_rec(m, "surfaces", 1, 96, "<ii", 2, 3))
    add("patch_count", "patch-size", "lump surfaces: record 1 patch_width",
        lambda m: patch_rec(m, "surfaces", 1, 96, "<ii", 3, 5))
    add("lightmap_vec_nan", "finite", "lump surfaces: record 0 lightmap_vecs[2].z",
        lambda m: patch_rec(m, "surfaces", 0, 92, "<I", 0x7FC00001))

    def fog(m, brush, side):
        m.lumps["fogs"] = [name64("textures/fog") + struct.pack("<ii", brush, side)]
    add("fog_brush", "index-range", "lump fogs: record 0 brush", lambda m: fog(m, 6, -1))
    add("fog_side", "index-range", "lump fogs: record 0 visible_side", lambda m: fog(m, 0, 6))
    add("vis_short", "vis-size", "lump visibility",
        lambda m: m.lumps.__setitem__("visibility", [b"\2\0\0\0"]))
    add("vis_rows", "vis-size", "lump visibility",
        lambda m: m.lumps.__setitem__("visibility", [struct.pack("<ii", 2, 2) + b"\3\3"]))
    add("vis_overflow", "vis-size", "lump visibility",
        lambda m: m.lumps.__setitem__("visibility", [struct.pack("<ii", 2**30, 2**30) + b"\3\3"]))
    add("vis_row_small", "vis-size", "lump visibility",
        lambda m: m.lumps.__setitem__("visibility", [struct.pack("<ii", 9, 1) + bytes(9)]))
    return v


def zip_bytes(entries, method=zipfile.ZIP_DEFLATED):
    import io
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w", method) as z:
        for n, d in entries:
            z.writestr(n, d)
    return bytearray(b.getvalue())


def bad_zips(good):
    """(name, rule, text, bytes)."""
    out = []
    d = zip_bytes([("maps/good.bsp", good)], zipfile.ZIP_STORED)
    at = d.find(b"IBSP")
    d[at + 200] ^= 0xFF
    out.append(("crc", "crc", "entry maps/good.bsp", bytes(d)))
    d = zip_bytes([("maps/good.bsp", good)])
    cd = d.find(b"PK\x01\x02")
    struct.pack_into("<I", d, cd + 24, (1 << 30) + 1)
    out.append(("file_size", "file-size", "entry maps/good.bsp", bytes(d)))
    d = zip_bytes([("maps/good.bsp", good)])
    out.append(("cut", "zip", "archive", bytes(d[: len(d) // 2])))
    d = zip_bytes([("maps/good.bsp", good)])
    at = d.find(b"PK\x03\x04") + 30 + len("maps/good.bsp")
    for i in range(at + 10, at + 60):
        d[i] ^= 0x5A
    out.append(("inflate", "entry-data", "entry maps/good.bsp", bytes(d)))
    out.append(("long_name", "entry-name", "entry 0 name",
                bytes(zip_bytes([("maps/" + "n" * 300 + ".bsp", good)]))))
    out.append(("no_map", "not-found", "holds no maps", bytes(zip_bytes([("scripts/a.shader", b"")]))))
    return out


def main():
    outdir = sys.argv[1]
    bad = os.path.join(outdir, "bad")
    os.makedirs(bad, exist_ok=True)
    good = Map().bytes()
    with open(os.path.join(outdir, "good.bsp"), "wb") as f:
        f.write(good)
    shader = b"textures/base/curve\n{\n\t{\n\t\tmap $lightmap\n\t}\n}\n"
    with open(os.path.join(outdir, "good.pk3"), "wb") as f:
        f.write(zip_bytes([("maps/good.bsp", good), ("scripts/test.shader", shader)]))
    rows = []
    for name, rule, text, fn in variants():
        m = Map()
        r = fn(m)
        data = r if isinstance(r, (bytes, bytearray)) else m.bytes()
        with open(os.path.join(bad, name + ".bsp"), "wb") as f:
            f.write(data)
        rows.append((name + ".bsp", rule, text))
    for name, rule, text, data in bad_zips(good):
        with open(os.path.join(bad, name + ".pk3"), "wb") as f:
            f.write(data)
        rows.append((name + ".pk3", rule, text))
    with open(os.path.join(bad, "expected.tsv"), "w") as f:
        for r in rows:
            f.write("\t".join(r) + "\n")


if __name__ == "__main__":
    main()

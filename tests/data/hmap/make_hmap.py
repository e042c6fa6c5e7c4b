#!/usr/bin/env python3
"""Writes the .hmap test files: good maps with their field dumps, and the malformed corpus.

    python3 tests/data/hmap/make_hmap.py [OUT_DIR [FUZZ_DIR]]
        (default: beside this script, and fuzz/corpus/hmap_read as the reader's fuzz seeds)

An implementation of Rockgrave .hmap v1 (docs/IMPORT-HMAP.md, "The file") written
apart from the C library, with `struct` only, so the C reader is checked against something we
did not write in C:

  good/NAME.hmap   valid maps: source-only, compiled-only, combined, unknown chunks before,
                   between and after the known ones, a shuffled chunk order, zero counts,
                   odd floats (NaN payloads, infinities, -0) and multi-byte UTF-8.
  good/NAME.dump   every field of NAME.hmap in file order, one line each ("name type value";
                   f32 as its bit pattern), as tests/test_hmap_io.c prints the parsed structs.
  bad/NAME.hmap    one file per refusal of the reader; bad/expected.tsv holds
                   "NAME<TAB>message" per line: the exact BLVL_E_SOURCE message, with offsets
                   found by this writer as it lays the file out.

The output is deterministic; tests/test_hmap_corpus.sh fails when the committed files are not
what this script writes (run it again after changing it).
"""

import copy
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FUZZ = os.path.join(HERE, "..", "..", "..", "fuzz", "corpus", "hmap_read")


class W:
    """The file as it grows; `at` maps a field path to its offset; `dump` the field lines."""

    def __init__(self):
        self.b = bytearray()
        self.at = {}
        self.dump = []
        self.path = []

    def here(self, name):
        p = ".".join(self.path + [name]) if name else ".".join(self.path)
        self.at[p] = len(self.b)
        return p

    def raw(self, data):
        self.b += data

    def u8(self, name, v):
        self.here(name)
        self.b += struct.pack("<B", v)
        self.dump.append("%s u8 %d" % (name, v))

    def u32(self, name, v):
        self.here(name)
        self.b += struct.pack("<I", v)
        self.dump.append("%s u32 %d" % (name, v))

    def i32(self, name, v):
        self.here(name)
        self.b += struct.pack("<i", v)
        self.dump.append("%s i32 %d" % (name, v))

    def f32(self, name, *vs):
        """Floats given as Python floats or as ("bits", u32) for exact patterns (NaNs)."""
        self.here(name)
        bits = []
        for v in vs:
            if isinstance(v, tuple):
                bits.append(v[1])
            else:
                bits.append(struct.unpack("<I", struct.pack("<f", v))[0])
        for u in bits:
            self.b += struct.pack("<I", u)
        self.dump.append("%s f32 %s" % (name, " ".join("%08x" % u for u in bits)))

    def s(self, name, v):
        data = v.encode("utf-8") if isinstance(v, str) else bytes(v)
        self.here(name)
        self.b += struct.pack("<I", len(data)) + data
        self.dump.append("%s str %d %s" % (name, len(data), data.hex()))

    def enter(self, name, i=None):
        self.path.append(name if i is None else "%s[%d]" % (name, i))

    def leave(self):
        self.path.pop()


# ---- chunk payloads, field by field in the format's order ----------------------------------

def w_meta(w, m):
    w.s("name", m["name"])
    w.f32("ambient", *m["ambient"])
    w.f32("gridSize", m["grid"])
    w.f32("unitsPerMeter", m["upm"])
    w.u32("nextId", m["next"])


def w_mats(w, mats):
    w.u32("n", len(mats))
    for i, m in enumerate(mats):
        w.enter("material", i)
        w.s("name", m["name"])
        w.s("texture", m["texture"])
        w.f32("tileSize", *m["tile"])
        w.f32("color", *m["color"])
        w.u32("flags", m["flags"])
        w.leave()


def w_brsh(w, brushes):
    w.u32("n", len(brushes))
    for i, b in enumerate(brushes):
        w.enter("brush", i)
        w.u32("id", b["id"])
        w.u32("owner", b["owner"])
        w.u32("contents", b["contents"])
        w.u32("flags", b["flags"])
        w.u32("faceCount", len(b["faces"]))
        for k, f in enumerate(b["faces"]):
            w.enter("face", k)
            w.f32("plane", *f["plane"])
            w.i32("material", f["material"])
            w.f32("uv", *f["uv"])
            w.u32("flags", f["flags"])
            w.leave()
        w.leave()


def w_mesh(w, meshes):
    w.u32("n", len(meshes))
    for i, m in enumerate(meshes):
        w.enter("mesh", i)
        w.u32("id", m["id"])
        w.u32("owner", m["owner"])
        w.u32("flags", m["flags"])
        w.s("name", m["name"])
        w.u32("vertCount", len(m["verts"]))
        for v in m["verts"]:
            w.f32("vert", *v)
        w.u32("polyCount", len(m["polys"]))
        for k, p in enumerate(m["polys"]):
            w.enter("poly", k)
            w.i32("material", p["material"])
            w.u32("smooth", p["smooth"])
            w.f32("proj", *p["proj"])
            w.u32("idxCount", len(p["idx"]))
            for j, x in enumerate(p["idx"]):
                w.u32("index[%d]" % j, x)
            w.u32("uvCount", len(p["uvs"]))
            for uv in p["uvs"]:
                w.f32("uv", *uv)
            w.leave()
        w.leave()


def w_ents(w, ents):
    w.u32("n", len(ents))
    for i, e in enumerate(ents):
        w.enter("entity", i)
        w.u32("id", e["id"])
        w.u32("flags", e["flags"])
        w.s("classname", e["classname"])
        w.f32("origin", *e["origin"])
        w.f32("angles", *e["angles"])
        w.f32("scale", *e["scale"])
        w.u32("kvCount", len(e["pairs"]))
        for k, (key, value) in enumerate(e["pairs"]):
            w.enter("pair", k)
            w.s("key", key)
            w.s("value", value)
            w.leave()
        w.leave()


def w_cbrushes(w, brushes):
    w.u32("brushCount", len(brushes))
    for i, b in enumerate(brushes):
        w.enter("brush", i)
        w.u32("contents", b["contents"])
        w.u32("sourceId", b["source"])
        w.f32("bounds", *b["bounds"])
        w.u32("planeCount", len(b["planes"]))
        for p in b["planes"]:
            w.f32("plane", *p)
        w.leave()


def w_cmpl(w, c):
    w.f32("ambient", *c["ambient"])
    w.f32("unitsPerMeter", c["upm"])
    w.u8("baked", c["baked"])
    w.f32("bounds", *c["bounds"])
    w.u32("batchCount", len(c["batches"]))
    for i, b in enumerate(c["batches"]):
        w.enter("batch", i)
        w.i32("material", b["material"])
        w.u8("source", b["source"])
        w.i32("model", b["model"])
        w.u32("vertexCount", len(b["verts"]))
        for pos, nrm, uv, col in b["verts"]:
            w.f32("pos", *pos)
            w.f32("normal", *nrm)
            w.f32("uv", *uv)
            w.u32("color", col)
        w.u32("indexCount", len(b["idx"]))
        for j, x in enumerate(b["idx"]):
            w.u32("index[%d]" % j, x)
        w.leave()
    w.u32("modelCount", len(c["models"]))
    for i, m in enumerate(c["models"]):
        w.enter("model", i)
        w.u32("entityId", m["entity"])
        w.f32("bounds", *m["bounds"])
        w_cbrushes(w, m["brushes"])
        w.leave()
    t = c["bsp"]
    w.enter("bsp")
    w.i32("root", t["root"])
    w.u32("depth", t["depth"])
    w.f32("bounds", *t["bounds"])
    w.u32("planeCount", len(t["planes"]))
    for p in t["planes"]:
        w.f32("plane", *p)
    w.u32("nodeCount", len(t["nodes"]))
    for i, (pl, fr, bk) in enumerate(t["nodes"]):
        w.enter("node", i)
        w.here("")
        w.i32("plane", pl)
        w.i32("front", fr)
        w.i32("back", bk)
        w.leave()
    w.u32("leafCount", len(t["leaves"]))
    for i, (first, count) in enumerate(t["leaves"]):
        w.enter("leaf", i)
        w.here("")
        w.u32("firstBrush", first)
        w.u32("brushCount", count)
        w.leave()
    w.u32("leafBrushCount", len(t["leafbrushes"]))
    for i, x in enumerate(t["leafbrushes"]):
        w.u32("leafBrush[%d]" % i, x)
    w_cbrushes(w, t["brushes"])
    w.leave()
    w.u32("meshCollCount", len(c["colls"]))
    for i, m in enumerate(c["colls"]):
        w.enter("meshColl", i)
        w.u32("objectId", m["object"])
        w.f32("bounds", *m["bounds"])
        w.u32("vertexCount", len(m["verts"]))
        for v in m["verts"]:
            w.f32("vertex", *v)
        w.leave()
    w.u32("lightCount", len(c["lights"]))
    for i, l in enumerate(c["lights"]):
        w.enter("light", i)
        w.u8("type", l["type"])
        w.f32("pos", *l["pos"])
        w.f32("dir", *l["dir"])
        w.f32("color", *l["color"])
        w.f32("intensity", l["intensity"])
        w.f32("radius", l["radius"])
        w.f32("innerDeg", l["inner"])
        w.f32("outerDeg", l["outer"])
        w.u32("entityId", l["entity"])
        w.leave()


WRITERS = {b"META": w_meta, b"MATS": w_mats, b"BRSH": w_brsh, b"MESH": w_mesh,
           b"ENTS": w_ents, b"CMPL": w_cmpl}


def build(chunks, flags, version=1, magic=b"HMAP"):
    """chunks: (tag, content) pairs; content is the model for a known tag or raw bytes for an
    unknown one. A pair may carry a third element: {"cut": n} drops the payload's last n bytes,
    {"extra": b"..."} appends bytes. Returns the W (bytes, field offsets, dump)."""
    w = W()
    w.raw(magic)
    w.raw(struct.pack("<II", version, flags))
    w.dump.append("version u32 %d" % version)
    w.dump.append("flags u32 %d" % flags)
    w.chunk_at = {}
    for item in chunks:
        tag, content = item[0], item[1]
        opts = item[2] if len(item) > 2 else {}
        start = len(w.b)
        name = tag.decode("latin-1")
        w.chunk_at.setdefault(name, start)
        w.raw(tag)
        w.raw(b"\0\0\0\0")
        known = tag in WRITERS and isinstance(content, (dict, list))
        w.dump.append("chunk %s %d" % (tag.hex(), 1 if known else 0))
        if known:
            w.path = [name]
            WRITERS[tag](w, content)
            w.path = []
        else:
            w.raw(content)
            w.dump.append("bytes %d %s" % (len(content), bytes(content).hex()))
        if "cut" in opts:
            del w.b[len(w.b) - opts["cut"]:]
        w.raw(opts.get("extra", b""))
        w.end_of = getattr(w, "end_of", {})
        w.end_of[name] = len(w.b)
        struct.pack_into("<I", w.b, start + 4, len(w.b) - start - 8)
    return w


# ---- the sample content ------------------------------------------------------------------

def box_planes(lo, hi):
    return [(1, 0, 0, hi[0]), (-1, 0, 0, -lo[0]), (0, 1, 0, hi[1]), (0, -1, 0, -lo[1]),
            (0, 0, 1, hi[2]), (0, 0, -1, -lo[2])]


def brush(bid, owner, contents, lo, hi, mats, flags=0):
    faces = []
    for k, p in enumerate(box_planes(lo, hi)):
        faces.append({"plane": p, "material": mats[k % len(mats)],
                      "uv": (0.5 * k, -1.0, 1.0, 2.0, 15.0 * k), "flags": k})
    return {"id": bid, "owner": owner, "contents": contents, "flags": flags, "faces": faces}


META = {"name": "Crossing \u00e9t\u00e9 \u2014 \U0001F5FA", "ambient": (0.1, 0.2, 0.3),
        "grid": 8.0, "upm": 39.37, "next": 42}
MATS = [
    {"name": "stone", "texture": "textures/stone_01.png", "tile": (64.0, 64.0),
     "color": (0.5, 0.5, 0.5), "flags": 0},
    {"name": "water", "texture": "textures/water.png", "tile": (128.0, 128.0),
     "color": (0.1, 0.3, 0.8), "flags": 0x80000001},  # an unknown flag bit kept
    {"name": "", "texture": "", "tile": (1.0, 1.0), "color": (1.0, 1.0, 1.0), "flags": 2},
]
BRSH = [
    brush(1, 0, 1, (-256, -16, -256), (256, 0, 256), [0, -1]),
    brush(2, 0, 2, (-64, 0, -64), (64, 32, 64), [1]),
    brush(3, 10, 1 | 0x400, (100, 0, -8), (108, 96, 8), [0, 2, -7], flags=0xF0000000),
]
MESH = [
    {"id": 20, "owner": 0, "flags": 0x10000, "name": "crate",
     "verts": [(0, 0, 0), (16, 0, 0), (16, 16, 0), (0, 16, 0),
               (0, 0, 16), (16, 0, 16), (16, 16, 16), (0, 16, 16)],
     "polys": [
         {"material": 0, "smooth": 1, "proj": (0, 0, 1, 1, 0), "idx": [0, 3, 2, 1], "uvs": []},
         {"material": -1, "smooth": 0, "proj": (0.25, 0, 1, 1, 90),
          "idx": [4, 5, 6, 7], "uvs": [(0, 0), (1, 0), (1, 1), (0, 1)]},
         {"material": 2, "smooth": 7, "proj": (0, 0, 2, 2, 45), "idx": [0, 1, 5], "uvs": []},
     ]},
    {"id": 21, "owner": 10, "flags": 0, "name": "empty", "verts": [], "polys": []},
]
ENTS = [
    {"id": 5, "flags": 0, "classname": "info_player_start", "origin": (0, 1, 0),
     "angles": (0, 90, 0), "scale": (1, 1, 1), "pairs": [("team", "red")]},
    {"id": 10, "flags": 0xFFFF0000, "classname": "func_door", "origin": (104, 0, 0),
     "angles": (0, 0, 0), "scale": (1, 1, 1),
     "pairs": [("speed", "100"), ("message", "\u00bfAbrir? \u6e2c\u8a66 \U0010FFFF"), ("", "")]},
    {"id": 11, "flags": 1, "classname": "light", "origin": (0, 64, 0), "angles": (-90, 0, 0),
     "scale": (1, 1, 1), "pairs": []},
]


def cvert(x, y, z, col):
    return ((x, y, z), (0, 1, 0), (x / 64.0, z / 64.0), col)


CMPL = {
    "ambient": (0.1, 0.2, 0.3), "upm": 39.37, "baked": 1,
    "bounds": (-256, -16, -256, 256, 96, 256),
    "batches": [
        {"material": 0, "source": 0, "model": 0,
         "verts": [cvert(-256, 0, -256, 0xFF808080), cvert(256, 0, -256, 0xFF808080),
                   cvert(256, 0, 256, 0xFFFFFFFF), cvert(-256, 0, 256, 0xFF0000FF)],
         "idx": [0, 2, 1, 0, 3, 2]},
        {"material": -1, "source": 1, "model": -1,
         "verts": [cvert(0, 16, 0, 0xFFFFFFFF), cvert(16, 16, 0, 0xFFFFFFFF),
                   cvert(16, 16, 16, 0xFFFFFFFF)], "idx": [0, 1, 2]},
        {"material": 2, "source": 0, "model": 1, "verts": [], "idx": []},
    ],
    "models": [
        {"entity": 0, "bounds": (-256, -16, -256, 256, 32, 256),
         "brushes": [{"contents": 1, "source": 1, "bounds": (-256, -16, -256, 256, 0, 256),
                      "planes": box_planes((-256, -16, -256), (256, 0, 256))},
                     {"contents": 2, "source": 2, "bounds": (-64, 0, -64, 64, 32, 64),
                      "planes": box_planes((-64, 0, -64), (64, 32, 64))}]},
        {"entity": 10, "bounds": (100, 0, -8, 108, 96, 8),
         "brushes": [{"contents": 1, "source": 3, "bounds": (100, 0, -8, 108, 96, 8),
                      "planes": box_planes((100, 0, -8), (108, 96, 8))}]},
    ],
    # node0 splits y=0: front node1, back leaf0; node1 splits x=64: front leaf1, back node2;
    # node2 splits x=-64: front leaf2, back leaf3. Depth 3.
    "bsp": {"root": 0, "depth": 3, "bounds": (-256, -16, -256, 256, 32, 256),
            "planes": [(0, 1, 0, 0), (1, 0, 0, 64), (-1, 0, 0, 64)],
            "nodes": [(0, 1, -1), (1, -2, 2), (2, -3, -4)],
            "leaves": [(0, 1), (1, 1), (2, 1), (3, 0)],
            "leafbrushes": [0, 1, 1],
            "brushes": [{"contents": 1, "source": 1, "bounds": (-256, -16, -256, 256, 0, 256),
                         "planes": box_planes((-256, -16, -256), (256, 0, 256))},
                        {"contents": 2, "source": 2, "bounds": (-64, 0, -64, 64, 32, 64),
                         "planes": box_planes((-64, 0, -64), (64, 32, 64))}]},
    "colls": [{"object": 20, "bounds": (0, 0, 0, 16, 16, 16),
               "verts": [(0, 0, 0), (16, 0, 0), (16, 16, 0), (0, 0, 16), (16, 0, 16),
                         (16, 16, 16)]},
              {"object": 21, "bounds": (0, 0, 0, 0, 0, 0), "verts": []}],
    "lights": [
        {"type": 0, "pos": (0, 64, 0), "dir": (0, 0, 0), "color": (1, 0.9, 0.8),
         "intensity": 2.0, "radius": 300.0, "inner": 0.0, "outer": 0.0, "entity": 11},
        {"type": 1, "pos": (0, 64, 0), "dir": (0, -1, 0), "color": (1, 1, 1),
         "intensity": 1.0, "radius": 200.0, "inner": 20.0, "outer": 35.0, "entity": 0},
        {"type": 2, "pos": (0, 0, 0), "dir": (0.577, -0.577, 0.577), "color": (1, 1, 0.9),
         "intensity": 0.7, "radius": 0.0, "inner": 0.0, "outer": 0.0, "entity": 0},
    ],
}

NAN = ("bits", 0x7FC00001)
SNAN = ("bits", 0x7F800002)
NNAN = ("bits", 0xFFC12345)
INF = ("bits", 0x7F800000)
NINF = ("bits", 0xFF800000)
NZERO = ("bits", 0x80000000)
DENORM = ("bits", 0x00000001)


def odd_floats():
    """Floats the reader must keep bit for bit (the bake refuses what it cannot use)."""
    m = copy.deepcopy(META)
    m["ambient"] = (NAN, INF, NZERO)
    m["grid"] = DENORM
    m["upm"] = NNAN
    b = copy.deepcopy(BRSH)
    b[0]["faces"][0]["plane"] = (SNAN, NINF, 0.0, NZERO)
    c = copy.deepcopy(CMPL)
    c["lights"][0]["intensity"] = INF
    return m, b, c


def src_chunks():
    return [(b"META", META), (b"MATS", MATS), (b"BRSH", BRSH), (b"MESH", MESH), (b"ENTS", ENTS)]


def good():
    files = {}
    files["source"] = build(src_chunks(), 1)
    files["compiled"] = build([(b"META", META), (b"MATS", MATS), (b"ENTS", ENTS),
                               (b"CMPL", CMPL)], 2)
    files["combined"] = build(src_chunks() + [(b"CMPL", CMPL)], 3)
    files["unknown_chunks"] = build(
        [(b"XTRA", b"before"), (b"META", META), (b"meta", b""), (b"MATS", MATS),
         (b"\x00\xff\x01\x7f", bytes(range(256))), (b"BRSH", BRSH), (b"MESH", MESH),
         (b"ENTS", ENTS), (b"CMPL", CMPL), (b"LGHT", b"\x01\x02\x03"), (b"XTRA", b"after")],
        3 | 0xFFFFFFF0)
    files["shuffled"] = build([(b"CMPL", CMPL), (b"ENTS", ENTS), (b"BRSH", BRSH),
                               (b"MESH", MESH), (b"MATS", MATS), (b"META", META)], 3)
    empty_bsp = {"root": -1, "depth": 0, "bounds": (0, 0, 0, 0, 0, 0), "planes": [],
                 "nodes": [], "leaves": [(0, 0)], "leafbrushes": [], "brushes": []}
    empty_cmpl = {"ambient": (0, 0, 0), "upm": 1.0, "baked": 0, "bounds": (0, 0, 0, 0, 0, 0),
                  "batches": [], "models": [], "bsp": empty_bsp, "colls": [], "lights": []}
    files["zero_counts"] = build([(b"MATS", []), (b"BRSH", []), (b"MESH", []), (b"ENTS", []),
                                  (b"CMPL", empty_cmpl)], 3)
    files["header_only"] = build([], 0)
    files["meta_only"] = build([(b"META", META), (b"ZERO", b"")], 0)
    # a map just created in the editor: META is a source chunk, so bit 0 is set without BRSH/MESH
    files["new_map"] = build([(b"META", META)], 1)
    m, b, c = odd_floats()
    files["odd_floats"] = build([(b"META", m), (b"MATS", MATS), (b"BRSH", b), (b"CMPL", c)], 3)
    return files


# ---- the malformed corpus ----------------------------------------------------------------

def left(w, tag, after):
    """Bytes left in chunk `tag` after offset `after`."""
    return w.end_of[tag] - after


def patch_u32(w, path, v, fmt="<I"):
    struct.pack_into(fmt, w.b, w.at[path], v)


def bad():
    out = []  # (name, bytes, message)

    def add(name, data, msg):
        out.append((name, bytes(data), msg))

    comb = lambda: src_chunks() + [(b"CMPL", copy.deepcopy(CMPL))]

    # header
    add("header_size", b"HMAP\x01\x00", "header: version at offset 4: header-size: "
        "the file has 6 bytes, the header needs 12")
    add("header_size_empty", b"", "header: magic at offset 0: header-size: "
        "the file has 0 bytes, the header needs 12")
    w = build(src_chunks(), 1, magic=b"HMAQ")
    add("magic", w.b, 'header: magic at offset 0: magic: "HMAQ" is not "HMAP"')
    w = build(src_chunks(), 1, magic=b"\x7fEL\\")
    add("magic_binary", w.b, 'header: magic at offset 0: magic: "\\x7fEL\\x5c" is not "HMAP"')
    w = build(src_chunks(), 1, version=2)
    add("version", w.b, "header: version at offset 4: version: 2, but this reader knows only "
        "version 1")

    # framing
    w = build(src_chunks(), 1)
    data = w.b + b"ABCDE"
    add("chunk_header", data, "file: chunk header at offset %d: chunk-header: 5 bytes are "
        "left, a chunk header takes 8" % len(w.b))
    w = build(src_chunks(), 1)
    at = w.chunk_at["ENTS"]
    size = len(w.b) - at - 8
    struct.pack_into("<I", w.b, at + 4, size + 1)
    add("chunk_size", w.b, "ENTS: payloadSize at offset %d: chunk-size: %d bytes, %d are left "
        "in the file" % (at + 4, size + 1, size))
    w = build([(b"MATS", MATS), (b"\x01ZZ\xfe", b"xyz")], 0)
    at = w.chunk_at["\x01ZZ\xfe"]
    struct.pack_into("<I", w.b, at + 4, 0xFFFFFFFF)
    add("chunk_size_unknown", w.b, "\\x01ZZ\\xfe: payloadSize at offset %d: chunk-size: "
        "4294967295 bytes, 3 are left in the file" % (at + 4))
    w = build([(b"MATS", MATS), (b"BRSH", BRSH), (b"MATS", MATS)], 1)
    second = w.b.rfind(b"MATS")
    add("chunk_repeated", w.b, "MATS: tag at offset %d: chunk-repeated: a second MATS chunk "
        "(the first is at offset 12)" % second)

    # field and count sizes, left-over bytes
    w = build([(b"META", META, {"cut": 2})], 0)
    add("field_size", w.b, "META: nextId at offset %d: field-size: needs 4 bytes, 2 are left "
        "in the chunk" % w.at["META.nextId"])
    w = build([(b"MATS", MATS)], 0)
    patch_u32(w, "MATS.material[1].texture", 5000)
    p = w.at["MATS.material[1].texture"]
    add("string_size", w.b, "MATS: material[1].texture at offset %d: field-size: a 5000-byte "
        "string, %d bytes are left in the chunk" % (p, left(w, "MATS", p + 4)))
    w = build(src_chunks(), 1)
    patch_u32(w, "BRSH.n", 1000000)
    p = w.at["BRSH.n"]
    add("count_size", w.b, "BRSH: n at offset %d: count-size: 1000000 records of at least 20 "
        "bytes need 20000000, %d are left in the chunk" % (p, left(w, "BRSH", p + 4)))
    w = build(src_chunks(), 1)
    patch_u32(w, "MESH.mesh[0].poly[1].idxCount", 0x40000000)
    p = w.at["MESH.mesh[0].poly[1].idxCount"]
    add("count_size_nested", w.b, "MESH: mesh[0].poly[1].idxCount at offset %d: count-size: "
        "1073741824 records of at least 4 bytes need 4294967296, %d are left in the chunk"
        % (p, left(w, "MESH", p + 4)))
    w = build(comb(), 3)
    patch_u32(w, "CMPL.lightCount", 4)
    p = w.at["CMPL.lightCount"]
    add("cmpl_count_size", w.b, "CMPL: lightCount at offset %d: count-size: 4 records of at "
        "least 57 bytes need 228, 171 are left in the chunk" % p)
    w = build(comb(), 3)
    patch_u32(w, "CMPL.lightCount", 2)
    p = w.at["CMPL.light[2].type"]
    add("cmpl_leftover", w.b, "CMPL: end at offset %d: leftover: 57 bytes are left after the "
        "chunk's last field" % p)
    w = build([(b"MATS", MATS, {"extra": b"\0\0\0"})], 0)
    add("leftover", w.b, "MATS: end at offset %d: leftover: 3 bytes are left after the chunk's "
        "last field" % (w.end_of["MATS"] - 3))
    w = build([(b"META", META, {"extra": b"\x01"})], 0)
    add("leftover_meta", w.b, "META: end at offset %d: leftover: 1 bytes are left after the "
        "chunk's last field" % (w.end_of["META"] - 1))

    # strings
    def ents_with(value):
        e = copy.deepcopy(ENTS)
        e[1]["pairs"][0] = ("speed", value)
        return build([(b"ENTS", e)], 0)

    cases = [
        ("utf8_overlong", b"ab\xc0\xaf", 2, 0xC0, "an overlong encoding"),
        ("utf8_overlong3", b"\xe0\x80\xaf", 0, 0xE0, "an overlong encoding"),
        ("utf8_overlong4", b"x\xf0\x8f\xbf\xbf", 1, 0xF0, "an overlong encoding"),
        ("utf8_surrogate", b"\xed\xa0\x80", 0, 0xED, "a UTF-16 surrogate"),
        ("utf8_too_big", b"\xf4\x90\x80\x80", 0, 0xF4, "a code point past U+10FFFF"),
        ("utf8_lead_f5", b"ok\xf5\x80\x80\x80", 2, 0xF5,
         "a lead byte of a code point past U+10FFFF"),
        ("utf8_continuation", b"\x80", 0, 0x80, "a continuation byte with no lead byte"),
        ("utf8_cut_end", b"abc\xe2\x82", 3, 0xE2, "a sequence cut short by the string's end"),
        ("utf8_cut_byte", b"\xe2\x82x", 0, 0xE2,
         "a sequence cut short by a byte that is no continuation"),
        # Latin-1 text: 0xE9 leads a 3-byte sequence
        ("utf8_latin1", "caf\u00e9".encode("latin-1"), 3, 0xE9,
         "a sequence cut short by the string's end"),
    ]
    for name, value, at, byte, why in cases:
        w = ents_with(value)
        p = w.at["ENTS.entity[1].pair[0].value"]
        add(name, w.b, "ENTS: entity[1].pair[0].value at offset %d: utf8: byte %d of %d "
            "(0x%02x): %s" % (p, at, len(value), byte, why))
    m = copy.deepcopy(MATS)
    m[1]["texture"] = b"tex\x00"
    w = build([(b"MATS", m)], 0)
    add("string_nul", w.b, "MATS: material[1].texture at offset %d: string-nul: byte 3 of 4 is "
        "a NUL" % w.at["MATS.material[1].texture"])
    meta = dict(META, name=b"\xff")
    w = build([(b"META", meta)], 0)
    add("utf8_meta", w.b, "META: name at offset 20: utf8: byte 0 of 1 (0xff): a lead byte of a "
        "code point past U+10FFFF")

    # material indices (checked once every chunk is read: MATS may come after)
    b = copy.deepcopy(BRSH)
    b[1]["faces"][2]["material"] = 3
    w = build([(b"BRSH", b), (b"MATS", MATS)], 1)
    add("material_face", w.b, "BRSH: brush[1].face[2].material at offset %d: material-range: "
        "3 is past the 3 materials of MATS" % w.at["BRSH.brush[1].face[2].material"])
    ms = copy.deepcopy(MESH)
    ms[0]["polys"][2]["material"] = 0x7FFFFFFF
    w = build([(b"MESH", ms), (b"MATS", MATS)], 1)
    add("material_poly", w.b, "MESH: mesh[0].poly[2].material at offset %d: material-range: "
        "2147483647 is past the 3 materials of MATS" % w.at["MESH.mesh[0].poly[2].material"])
    c = copy.deepcopy(CMPL)
    c["batches"][2]["material"] = 9
    w = build([(b"MATS", MATS), (b"CMPL", c)], 2)
    add("material_batch", w.b, "CMPL: batch[2].material at offset %d: material-range: 9 is "
        "past the 3 materials of MATS" % w.at["CMPL.batch[2].material"])
    w = build([(b"BRSH", BRSH)], 1)
    add("material_no_mats", w.b, "BRSH: brush[0].face[0].material at offset %d: "
        "material-range: 0, but the file has no MATS" % w.at["BRSH.brush[0].face[0].material"])
    w = build([(b"MATS", []), (b"BRSH", BRSH)], 1)
    add("material_zero_mats", w.b, "BRSH: brush[0].face[0].material at offset %d: "
        "material-range: 0 is past the 0 materials of MATS"
        % w.at["BRSH.brush[0].face[0].material"])

    # meshes
    ms = copy.deepcopy(MESH)
    ms[0]["polys"][1]["idx"][2] = 8
    w = build([(b"MATS", MATS), (b"MESH", ms)], 1)
    add("mesh_index", w.b, "MESH: mesh[0].poly[1].index[2] at offset %d: mesh-index: 8 is past "
        "the mesh's 8 vertices" % w.at["MESH.mesh[0].poly[1].index[2]"])
    ms = copy.deepcopy(MESH)
    ms[0]["polys"][0]["uvs"] = [(0, 0), (1, 1)]
    w = build([(b"MATS", MATS), (b"MESH", ms)], 1)
    add("uv_count", w.b, "MESH: mesh[0].poly[0].uvCount at offset %d: uv-count: 2 is neither 0 "
        "nor idxCount (4)" % w.at["MESH.mesh[0].poly[0].uvCount"])
    ms = copy.deepcopy(MESH)
    ms[0]["polys"][2]["idx"] = [0, 1]
    w = build([(b"MATS", MATS), (b"MESH", ms)], 1)
    add("poly_size", w.b, "MESH: mesh[0].poly[2].idxCount at offset %d: poly-size: 2 indices, a "
        "polygon needs at least 3" % w.at["MESH.mesh[0].poly[2].idxCount"])

    # compiled
    def cmpl_with(change, flags=2):
        c = copy.deepcopy(CMPL)
        change(c)
        return build([(b"MATS", MATS), (b"CMPL", c)], flags)

    w = cmpl_with(lambda c: c["batches"][0].update(idx=[0, 2, 1, 0, 3]))
    add("batch_triangles", w.b, "CMPL: batch[0].indexCount at offset %d: batch-triangles: 5 is "
        "not a multiple of 3 (a triangle list)" % w.at["CMPL.batch[0].indexCount"])
    w = cmpl_with(lambda c: c["batches"][1].update(idx=[0, 1, 3]))
    add("batch_index", w.b, "CMPL: batch[1].index[2] at offset %d: batch-index: 3 is past the "
        "batch's 3 vertices" % w.at["CMPL.batch[1].index[2]"])
    w = cmpl_with(lambda c: c["batches"][1].update(source=2))
    add("enum_batch_source", w.b, "CMPL: batch[1].source at offset %d: enum: 2 is neither 0 "
        "(brush) nor 1 (mesh)" % w.at["CMPL.batch[1].source"])
    w = cmpl_with(lambda c: c.update(baked=255))
    add("enum_baked", w.b, "CMPL: baked at offset %d: enum: 255 is neither 0 nor 1"
        % w.at["CMPL.baked"])
    w = cmpl_with(lambda c: c["lights"][2].update(type=3))
    add("enum_light_type", w.b, "CMPL: light[2].type at offset %d: enum: 3 is none of 0 "
        "(point), 1 (spot), 2 (sun)" % w.at["CMPL.light[2].type"])
    w = cmpl_with(lambda c: c["batches"][2].update(model=2))
    add("model_range", w.b, "CMPL: batch[2].model at offset %d: model-range: 2 is past the 2 "
        "models of CMPL" % w.at["CMPL.batch[2].model"])
    w = cmpl_with(lambda c: c["colls"][0]["verts"].pop())
    add("coll_triangles", w.b, "CMPL: meshColl[0].vertexCount at offset %d: coll-triangles: 5 "
        "is not a multiple of 3 (3 vertices per triangle)" % w.at["CMPL.meshColl[0].vertexCount"])

    # the BSP
    def bsp_with(change):
        return cmpl_with(lambda c: change(c["bsp"]))

    w = bsp_with(lambda t: t.update(root=3))
    add("bsp_root", w.b, "CMPL: bsp.root at offset %d: bsp-root: node 3 is past the 3 nodes"
        % w.at["CMPL.bsp.root"])
    w = bsp_with(lambda t: t.update(root=-5))
    add("bsp_root_leaf", w.b, "CMPL: bsp.root at offset %d: bsp-root: leaf 4 (link -5) is past "
        "the 4 leaves" % w.at["CMPL.bsp.root"])
    w = bsp_with(lambda t: t.update(root=-1, nodes=[], leaves=[]))
    add("bsp_root_empty", w.b, "CMPL: bsp.root at offset %d: bsp-root: leaf 0 (link -1) is "
        "past the 0 leaves" % w.at["CMPL.bsp.root"])
    w = bsp_with(lambda t: t["nodes"].__setitem__(1, (1, -2, 7)))
    add("bsp_child", w.b, "CMPL: bsp.node[1].back at offset %d: bsp-child: node 7 is past the "
        "3 nodes" % w.at["CMPL.bsp.node[1].back"])
    w = bsp_with(lambda t: t["nodes"].__setitem__(0, (0, -2147483648, -1)))
    add("bsp_child_leaf", w.b, "CMPL: bsp.node[0].front at offset %d: bsp-child: leaf "
        "2147483647 (link -2147483648) is past the 4 leaves" % w.at["CMPL.bsp.node[0].front"])
    w = bsp_with(lambda t: t["nodes"].__setitem__(2, (3, -3, -4)))
    add("bsp_plane", w.b, "CMPL: bsp.node[2].plane at offset %d: bsp-plane: 3 is outside the 3 "
        "planes" % w.at["CMPL.bsp.node[2].plane"])
    w = bsp_with(lambda t: t["nodes"].__setitem__(2, (-1, -3, -4)))
    add("bsp_plane_negative", w.b, "CMPL: bsp.node[2].plane at offset %d: bsp-plane: -1 is "
        "outside the 3 planes" % w.at["CMPL.bsp.node[2].plane"])
    w = bsp_with(lambda t: t["leaves"].__setitem__(2, (1, 3)))
    add("bsp_leaf_range", w.b, "CMPL: bsp.leaf[2] at offset %d: bsp-leaf-range: leaf brushes "
        "1 + 3 run past the 3 leaf brushes" % w.at["CMPL.bsp.leaf[2]"])
    w = bsp_with(lambda t: t["leaves"].__setitem__(0, (0xFFFFFFFF, 1)))
    add("bsp_leaf_range_wrap", w.b, "CMPL: bsp.leaf[0] at offset %d: bsp-leaf-range: leaf "
        "brushes 4294967295 + 1 run past the 3 leaf brushes" % w.at["CMPL.bsp.leaf[0]"])
    w = bsp_with(lambda t: t["leafbrushes"].__setitem__(2, 2))
    add("bsp_leaf_brush", w.b, "CMPL: bsp.leafBrush[2] at offset %d: bsp-leaf-brush: 2 is past "
        "the 2 brushes" % w.at["CMPL.bsp.leafBrush[2]"])
    w = bsp_with(lambda t: t["nodes"].__setitem__(2, (2, -3, -3)))
    add("bsp_tree_shared_leaf", w.b, "CMPL: bsp.node[2].back at offset %d: bsp-tree: leaf 2 is "
        "reached a second time (a shared leaf)" % w.at["CMPL.bsp.node[2].back"])
    w = bsp_with(lambda t: t["nodes"].__setitem__(2, (2, -3, 0)))
    add("bsp_tree_cycle", w.b, "CMPL: bsp.node[2].back at offset %d: bsp-tree: node 0 is "
        "reached a second time (a cycle or a shared child)" % w.at["CMPL.bsp.node[2].back"])
    w = bsp_with(lambda t: t.update(nodes=[(0, 1, -1), (1, -2, 2), (2, 2, -4)]))
    add("bsp_tree_self", w.b, "CMPL: bsp.node[2].front at offset %d: bsp-tree: node 2 is "
        "reached a second time (a cycle or a shared child)" % w.at["CMPL.bsp.node[2].front"])
    w = bsp_with(lambda t: t["nodes"].append((0, -1, -2)))
    add("bsp_tree_unreached_node", w.b, "CMPL: bsp.node[3] at offset %d: bsp-tree: node 3 is "
        "not reached from the root" % w.at["CMPL.bsp.node[3]"])
    w = bsp_with(lambda t: t["leaves"].append((0, 0)))
    add("bsp_tree_unreached_leaf", w.b, "CMPL: bsp.leaf[4] at offset %d: bsp-tree: leaf 4 is "
        "not reached from the root" % w.at["CMPL.bsp.leaf[4]"])
    w = bsp_with(lambda t: t.update(depth=2))
    add("bsp_depth", w.b, "CMPL: bsp.depth at offset %d: bsp-depth: 2, but the tree's depth is 3"
        % w.at["CMPL.bsp.depth"])
    w = bsp_with(lambda t: t.update(root=-1, depth=1, nodes=[], leaves=[(0, 0)]))
    add("bsp_depth_lone_leaf", w.b, "CMPL: bsp.depth at offset %d: bsp-depth: 1, but the "
        "tree's depth is 0" % w.at["CMPL.bsp.depth"])

    # header flags against the chunks present
    w = build(src_chunks(), 0)
    add("header_flags_source", w.b, "header: flags at offset 8: header-flags: bit 0 is clear "
        "but the file has BRSH or MESH")
    w = build([(b"CMPL", CMPL)], 3)
    add("header_flags_no_source", w.b, "header: flags at offset 8: header-flags: bit 0 is set "
        "but the file has no source chunk (META, MATS, BRSH, MESH or ENTS)")
    w = build([], 1)
    add("header_flags_no_source_empty", w.b, "header: flags at offset 8: header-flags: bit 0 is "
        "set but the file has no source chunk (META, MATS, BRSH, MESH or ENTS)")
    w = build(src_chunks(), 3)
    add("header_flags_compiled", w.b, "header: flags at offset 8: header-flags: bit 1 is set "
        "but the file has no CMPL")
    w = build([(b"MATS", MATS), (b"CMPL", CMPL)], 0)
    add("header_flags_no_compiled", w.b, "header: flags at offset 8: header-flags: bit 1 is "
        "clear but the file has CMPL")
    return out


OUT = HERE


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def main():
    global OUT, FUZZ
    if len(sys.argv) > 1:
        OUT = sys.argv[1]
    if len(sys.argv) > 2:
        FUZZ = sys.argv[2]
    g = good()
    b = bad()
    names = [n for n, _, _ in b]
    assert len(names) == len(set(names)), "two bad files with one name"
    for name, w in g.items():
        write(os.path.join(OUT, "good", name + ".hmap"), w.b)
        write(os.path.join(OUT, "good", name + ".dump"), ("\n".join(w.dump) + "\n").encode())
    lines = []
    for name, data, msg in b:
        assert "\t" not in msg and "\n" not in msg
        write(os.path.join(OUT, "bad", name + ".hmap"), data)
        lines.append("%s\t%s\n" % (name, msg))
    write(os.path.join(OUT, "bad", "expected.tsv"), "".join(lines).encode())
    for name, w in g.items():
        write(os.path.join(FUZZ, "good_" + name), w.b)
    for name, data, _ in b:
        write(os.path.join(FUZZ, "bad_" + name), data)
    print("make_hmap: %d good, %d bad files" % (len(g), len(b)))


if __name__ == "__main__":
    sys.exit(main())

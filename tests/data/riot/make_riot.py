#!/usr/bin/env python3
"""Writes the Riot engine (Drakan) SRSC .lvl test files: good levels with their field dumps, and
the malformed corpus.

    python3 tests/data/riot/make_riot.py [OUT_DIR [SRSC_FUZZ_DIR [PARSE_FUZZ_DIR]]]
        (default: beside this script, fuzz/corpus/riot_srsc and fuzz/corpus/riot_parse)
    python3 tests/data/riot/make_riot.py --dump FILE.lvl
        prints FILE's dump (the format of good/*.dump) read by this script's own reader and
        Python's zlib: tests/test_riot_files.c checks the C writer's files with it

An implementation of the SRSC container and the four level records (restated in
docs/IMPORT-RIOT.md) written apart from the C library, with `struct` and Python's own `zlib`, so
the C reader is checked against something we did not write in C:

  good/NAME.lvl    valid levels: every layer type, both divisions, holes and invisible
                   triangles, odd-length strings, scaled and unscaled objects with links and
                   parameters, no objects record, unknown records, fills between bodies, the
                   directory first, an empty layer (0 x 0 cells), zlib levels 0, 1 and 9.
  good/NAME.dump   every record field of NAME.lvl in file order, one line each ("path value";
                   floats as their bit pattern), as tests/test_riot_files.c prints the parsed
                   structs; good/list.txt names the good files.
  bad/NAME.lvl     one file per refusal of the reader; bad/expected.tsv holds
                   "NAME<TAB>message" per line: the exact BLVL_E_SOURCE message, with offsets
                   found by this writer as it lays the file out.

The fuzz seeds: riot_srsc gets every .lvl; riot_parse gets the records of every good file and of
the bad files refused inside a record, in fuzz/fuzz_riot_parse.c's input form (per record: u16
type, u32 size, the body).

The output is deterministic; tests/test_riot_corpus.sh fails when the committed files are not
what this script writes (run it again after changing it).
"""

import os
import struct
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")

HOLE = 0xFFFFFFFF
INVISIBLE = 0xFFFFFFFE
SCALED = 0x100
MAX_LAYER_DATA = 256 << 20


class W:
    """A record body as it grows; `at` maps a field path to its offset in the body; `dump`
    holds the field lines."""

    def __init__(self):
        self.b = bytearray()
        self.at = {}
        self.dump = []
        self.path = []

    def name(self, leaf):
        return ".".join(self.path + ([leaf] if leaf else []))

    def here(self, leaf):
        p = self.name(leaf)
        self.at[p] = len(self.b)
        return p

    def put(self, leaf, fmt, v, shown=None):
        p = self.here(leaf)
        self.b += struct.pack("<" + fmt, v)
        self.dump.append("%s %s" % (p, v if shown is None else shown))

    def u8(self, leaf, v):
        self.put(leaf, "B", v)

    def u16(self, leaf, v):
        self.put(leaf, "H", v)

    def u32(self, leaf, v):
        self.put(leaf, "I", v)

    def f32(self, leaf, bits):
        """A float given by its bit pattern, so NaN payloads and -0 go through as they are."""
        self.put(leaf, "I", bits, "0x%08x" % bits)

    def string(self, leaf, text, length=None, pad=b"\0"):
        """u16 length, the text, one zero after an odd text; `length` overrides the count."""
        data = text.encode("latin-1")
        stored = data + (pad if len(data) % 2 else b"")
        n = len(stored) if length is None else length
        p = self.here(leaf)
        self.b += struct.pack("<H", n) + stored
        self.dump.append("%s %d \"%s\"" % (p, n, text))

    def enter(self, name, i):
        self.path.append("%s[%d]" % (name, i))

    def leave(self):
        self.path.pop()


def f(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


# ---- the records --------------------------------------------------------------------------


def rec_level(lv):
    w = W()
    w.string("name", lv["name"])
    w.u32("maxWidth", lv["max_w"])
    w.u32("maxHeight", lv["max_h"])
    w.u32("dbRefCount", lv.get("dbref_count", len(lv["dbrefs"])))
    for i, (index, unknown, path) in enumerate(lv["dbrefs"]):
        w.enter("dbRef", i)
        w.u16("index", index)
        w.u16("unknown", unknown)
        w.string("path", path)
        w.leave()
    w.b += lv.get("tail", b"")
    return w


def layer_raw(ly):
    """The inflated layer data: vertices (type, constant, raw height), then 26-byte cells."""
    out = bytearray()
    for t, c, h in ly["vertices"]:
        out += struct.pack("<BBH", t, c, h)
    for flags, left, right, uv in ly["cells"]:
        out += struct.pack("<HII8H", flags, left, right, *uv)
    return bytes(out)


def rec_layers(layers, unknown=1, count=None, tail=b""):
    w = W()
    w.u32("layerCount", len(layers) if count is None else count)
    for i, ly in enumerate(layers):
        w.enter("layer", i)
        for k in ("id", "width", "height", "type", "originX", "originZ"):
            w.u32(k, ly[k])
        w.f32("worldHeight", ly["worldHeight"])
        w.string("name", ly["name"])
        w.u32("flags", ly["flags"])
        w.f32("lightDirection", ly["lightDirection"])
        w.f32("lightAscension", ly["lightAscension"])
        for k in ("lightColor", "ambientColor"):
            w.put(k, "4s", bytes(ly[k]), " ".join(str(x) for x in ly[k]))
        w.u32("lightDropoff", ly["lightDropoff"])
        w.u32("visibleCount", len(ly["visible"]))
        for k, v in enumerate(ly["visible"]):
            w.u32("visible[%d]" % k, v)
        w.leave()
    w.u32("unknown", unknown)
    for i, ly in enumerate(layers):
        w.enter("layer", i)
        if "data" in ly:
            data = ly["data"]
        else:
            data = zlib.compress(layer_raw(ly), ly.get("zlevel", 6))
        w.u32("compressedSize", ly.get("compressedSize", len(data)))
        w.here("data")
        w.b += data
        # the decoded data, as the C test prints it
        for k, (t, c, h) in enumerate(ly["vertices"]):
            w.dump.append("%s.vertex[%d] %d %d %d" % (w.name(None), k, t, c, h))
        for k, (flags, left, right, uv) in enumerate(ly["cells"]):
            w.dump.append(
                "%s.cell[%d] %d %d %d %s"
                % (w.name(None), k, flags, left, right, " ".join(str(x) for x in uv))
            )
        w.leave()
    w.b += tail
    return w


def rec_groups(groups, tail=b""):
    w = W()
    w.u32("groupCount", len(groups))
    for i, (name, ids) in enumerate(groups):
        w.enter("group", i)
        w.string("name", name)
        w.u32("layerCount", len(ids))
        for k, v in enumerate(ids):
            w.u32("layer[%d]" % k, v)
        w.leave()
    w.b += tail
    return w


def rec_objects(objects, count=None, tail=b""):
    w = W()
    w.u16("objectCount", len(objects) if count is None else count)
    for i, o in enumerate(objects):
        w.enter("object", i)
        w.u32("id", o["id"])
        w.u16("classId", o["classId"])
        w.u16("classDb", o["classDb"])
        w.u32("lightingLayer", o["lightingLayer"])
        for k, v in zip("xyz", o["position"]):
            w.f32(k, v)
        w.u32("flags", o["flags"])
        w.u16("initialEventCount", o["events"])
        w.u16("linkCount", len(o["links"]))
        for k, v in enumerate(o["links"]):
            w.u16("link[%d]" % k, v)
        for k, v in zip("XYZ", o["rotation"]):
            w.u16("rotation" + k, v)
        if o["flags"] & SCALED and "scale" in o:
            for k, v in zip("XYZ", o["scale"]):
                w.f32("scale" + k, v)
        w.u32("dataSize", o.get("dataSize", len(o["data"])))
        w.u32("paramCount", len(o["params"]))
        for k, v in enumerate(o["data"]):
            w.u32("paramData[%d]" % k, v)
        for k, (index, _, _) in enumerate(o["params"]):
            w.u16("paramIndex[%d]" % k, index)
        for k, (_, ptype, pname) in enumerate(o["params"]):
            w.enter("paramDef", k)
            w.u32("type", ptype)
            if isinstance(pname, tuple):
                w.string("name", pname[0], length=pname[1])
            else:
                w.string("name", pname)
            w.leave()
        w.leave()
    w.b += tail
    return w


# ---- the container ------------------------------------------------------------------------


def srsc(records, layout=None, version=0x0100, patch=None, count=None, dir_offset=None):
    """records: [(type, id, group, body bytes)] in directory order. layout: the file after the
    12-byte header, a list of ("rec", i), ("fill", bytes), ("dir",); default: every record in
    order, then the directory. patch(entries) may change the entries [type, id, group, offset,
    size] before they are written. Returns (file, body offsets, directory offset)."""
    if layout is None:
        layout = [("rec", i) for i in range(len(records))] + [("dir",)]
    dir_size = 14 * len(records)
    pos = 12
    offs = [0] * len(records)
    d = None
    for it in layout:
        if it[0] == "rec":
            offs[it[1]] = pos
            pos += len(records[it[1]][3])
        elif it[0] == "fill":
            pos += len(it[1])
        else:
            d = pos
            pos += dir_size
    entries = [[t, i, g, offs[k], len(b)] for k, (t, i, g, b) in enumerate(records)]
    if patch:
        patch(entries)
    directory = b"".join(struct.pack("<HHHII", *e) for e in entries)
    out = bytearray(
        b"SRSC"
        + struct.pack(
            "<HIH",
            version,
            d if dir_offset is None else dir_offset,
            len(records) if count is None else count,
        )
    )
    for it in layout:
        if it[0] == "rec":
            out += records[it[1]][3]
        elif it[0] == "fill":
            out += it[1]
        else:
            out += directory
    return bytes(out), offs, d


# ---- the levels ---------------------------------------------------------------------------


class Rng:
    def __init__(self, seed):
        self.s = seed

    def next(self):
        self.s = (self.s * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return self.s >> 33

    def below(self, n):
        return self.next() % n


def make_layer(rng, i, w, h, ltype, layer_count, holes=True):
    vertices = []
    for _ in range((w + 1) * (h + 1)):
        t = 0 if rng.below(3) else rng.below(76)
        vertices.append((t, 1, 0x8000 - 200 + rng.below(401)))
    cells = []
    for k in range(w * h):
        refs = []
        for _ in range(2):
            p = rng.below(8)
            if holes and p == 0:
                refs.append(HOLE)
            elif holes and p == 1:
                refs.append(INVISIBLE)
            else:
                refs.append(rng.below(30) | rng.below(3) << 16)
        uv = [0, 0xFFFF, 0xFFFF, 0] + [rng.below(65536) for _ in range(4)]
        cells.append(((k + i) % 2 | rng.below(4) << 1, refs[0], refs[1], uv))
    return {
        "id": 10 + i,
        "width": w,
        "height": h,
        "type": ltype,
        "originX": rng.below(30),
        "originZ": rng.below(30),
        "worldHeight": f(float(rng.below(3000)) - 1500.5),
        "name": ["Floor", "Upper floor", "Cave ceiling", "Bridge", "x"][i % 5],
        "flags": 2 if i % 2 else 0,
        "lightDirection": f(0.785398),
        "lightAscension": f(1.0471976),
        "lightColor": [255, 200, 150, 0],
        "ambientColor": [30, 40, 50, 0],
        "lightDropoff": i % 5,
        "visible": [k for k in range(layer_count) if k != i][: rng.below(layer_count + 1)],
        "vertices": vertices,
        "cells": cells,
    }


def make_object(rng, i, count, scaled):
    o = {
        "id": 500 + i,
        "classId": rng.below(300),
        "classDb": rng.below(3),
        "lightingLayer": 10,
        "position": [f(1024.0 * i + 0.5), f(-96.25), f(2048.0 * (i % 3))],
        "flags": 1 | (SCALED if scaled else 0),
        "events": rng.below(3),
        "links": [(i + 1 + k) % count for k in range(rng.below(3))],
        "rotation": [rng.below(360), rng.below(360), 0],
        "data": [rng.next() & 0xFFFFFFFF for _ in range(rng.below(5))],
        "params": [(rng.below(20), rng.below(6), ["speed", "Hp", "target"][k % 3]) for k in range(rng.below(4))],
    }
    if scaled:
        o["scale"] = [f(2.0), f(0.5), f(1.25)]
    return o


def base_level(seed=1, layers=3, objects=4, sizes=None, holes=True):
    rng = Rng(seed)
    lv = {
        "name": "Test level",
        "max_w": 64,
        "max_h": 48,
        "dbrefs": [(1, 0, "level.db"), (2, 0x1234, "common/Textures.adb"), (3, 7, "rocks.rrc")],
    }
    sizes = sizes or [(3, 2), (2, 4), (4, 3), (1, 1), (2, 2)]
    ls = [make_layer(rng, i, *sizes[i % len(sizes)], i % 3, layers, holes) for i in range(layers)]
    groups = [("Outside", [ls[0]["id"]]), ("All of them", [l["id"] for l in ls])]
    objs = [make_object(rng, i, objects, i % 2 == 1) for i in range(objects)]
    return lv, ls, groups, objs


def records_of(lv, ls, groups, objs, unknown_records=()):
    """Record writers, in type order, plus any unknown records."""
    recs = [(0x0000, rec_level(lv)), (0x0001, rec_layers(ls))]
    if groups is not None:
        recs.append((0x0002, rec_groups(groups)))
    if objs:
        recs.append((0x0020, rec_objects(objs)))
    return recs


def as_srsc(recs, extra=()):
    return [(t, k, 0, w.b) for k, (t, w) in enumerate(recs)] + list(extra)


# ---- output -------------------------------------------------------------------------------


class Out:
    def __init__(self, data_dir, srsc_fuzz, parse_fuzz):
        self.data = data_dir
        self.srsc_fuzz = srsc_fuzz
        self.parse_fuzz = parse_fuzz
        self.expected = []
        self.good = []
        for d in (os.path.join(data_dir, "good"), os.path.join(data_dir, "bad"), srsc_fuzz, parse_fuzz):
            os.makedirs(d, exist_ok=True)

    def records_seed(self, name, recs):
        blob = b"".join(struct.pack("<HI", t, len(b)) + b for t, b in recs)
        with open(os.path.join(self.parse_fuzz, name), "wb") as fh:
            fh.write(blob)

    def good_file(self, name, data, recs):
        with open(os.path.join(self.data, "good", name + ".lvl"), "wb") as fh:
            fh.write(data)
        dump = []
        for t, w in sorted(recs, key=lambda r: r[0]):
            if t in (0x0000, 0x0001, 0x0002, 0x0020):
                dump.append("record 0x%04x" % t)
                dump += w.dump
        with open(os.path.join(self.data, "good", name + ".dump"), "w") as fh:
            fh.write("\n".join(dump) + "\n")
        with open(os.path.join(self.srsc_fuzz, "good_" + name), "wb") as fh:
            fh.write(data)
        self.records_seed("good_" + name, [(t, w.b) for t, w in recs])
        self.good.append(name)

    def bad(self, name, data, message, recs=None):
        with open(os.path.join(self.data, "bad", name + ".lvl"), "wb") as fh:
            fh.write(data)
        with open(os.path.join(self.srsc_fuzz, "bad_" + name), "wb") as fh:
            fh.write(data)
        if recs is not None:
            self.records_seed("bad_" + name, recs)
        self.expected.append("%s\t%s" % (name, message))

    def finish(self):
        with open(os.path.join(self.data, "bad", "expected.tsv"), "w") as fh:
            fh.write("\n".join(self.expected) + "\n")
        with open(os.path.join(self.data, "good", "list.txt"), "w") as fh:
            fh.write("\n".join(self.good) + "\n")


def good(out):
    lv, ls, groups, objs = base_level()
    recs = records_of(lv, ls, groups, objs)
    out.good_file("basic", srsc(as_srsc(recs))[0], recs)

    # no objects record, no groups record, holes-free flat-ish layers
    lv, ls, groups, objs = base_level(seed=2, layers=2, objects=0, holes=False)
    recs = records_of(lv, ls, None, objs)
    out.good_file("no_objects", srsc(as_srsc(recs))[0], recs)

    # unknown records, fills of odd sizes, the directory first, records in reverse type order
    lv, ls, groups, objs = base_level(seed=3, layers=5, objects=6)
    recs = records_of(lv, ls, groups, objs)
    recs.reverse()
    unknown = [(0x0042, 9, 3, b"unknown!!"), (0x0001 + 0x1000, 1, 0, b"")]
    records = as_srsc(recs, unknown)
    layout = [("fill", b"\x01\x02\x03"), ("dir",), ("fill", b"\xff")]
    layout += [("rec", i) for i in (2, 4, 0, 5, 1, 3)]
    layout += [("fill", b"tail!")]
    out.good_file("unusual", srsc(records, layout)[0], recs)

    # zlib levels 0 (stored blocks), 1 and 9; an empty layer of 0 x 0 cells; odd floats
    lv, ls, groups, objs = base_level(seed=4, layers=4, objects=2, sizes=[(2, 3), (0, 0), (5, 1), (3, 3)])
    ls[0]["zlevel"] = 0
    ls[2]["zlevel"] = 1
    ls[3]["zlevel"] = 9
    ls[1]["worldHeight"] = 0x7FC01234  # a NaN with a payload
    ls[3]["lightDirection"] = 0x80000000  # -0
    lv["name"] = "Odd"
    recs = records_of(lv, ls, [], objs)
    out.good_file("zlib_levels", srsc(as_srsc(recs))[0], recs)


def level_file(recs, **kw):
    return srsc(as_srsc(recs), **kw)


def bad(out):
    lv, ls, groups, objs = base_level(seed=7, layers=3, objects=4)
    recs = records_of(lv, ls, groups, objs)
    data, offs, d = level_file(recs)
    size = len(data)

    # -- the header
    out.bad("header_size", data[:6], "SRSC: dirOffset at offset 6: header-size: the file has 6 bytes, the header needs 12")
    out.bad("header_size_empty", b"", "SRSC: magic at offset 0: header-size: the file has 0 bytes, the header needs 12")
    out.bad("header_size_count", data[:11], "SRSC: recordCount at offset 10: header-size: the file has 11 bytes, the header needs 12")
    out.bad("magic", b"SRSD" + data[4:], 'SRSC: magic at offset 0: magic: bytes 53 52 53 44 are not "SRSC"')

    # -- the directory
    cut = data[: size - 1]
    out.bad(
        "directory_past_end",
        cut,
        "SRSC: dirOffset at offset 6: directory-range: the directory of %d entries (%d..%d) runs past the file's %d bytes"
        % (len(recs), d, d + 14 * len(recs), size - 1),
    )
    out.bad(
        "directory_count",
        data[:10] + struct.pack("<H", 60000) + data[12:],
        "SRSC: dirOffset at offset 6: directory-range: the directory of 60000 entries (%d..%d) runs past the file's %d bytes"
        % (d, d + 14 * 60000, size),
    )
    out.bad(
        "directory_in_header",
        level_file(recs, dir_offset=4)[0],
        "SRSC: dirOffset at offset 6: directory-range: directory offset 4 is inside the 12-byte header",
    )

    def patched(fn):
        return level_file(recs, patch=fn)[0]

    def entry_at(i, field):
        return d + 14 * i + {"type": 0, "offset": 6, "size": 10}[field]

    def p_off(i, v):
        def fn(e):
            e[i][3] = v

        return fn

    def p_size(i, v):
        def fn(e):
            e[i][4] = v

        return fn

    out.bad(
        "record_in_header",
        patched(p_off(1, 8)),
        "directory: entry[1].offset at offset %d: record-range: body offset 8 is inside the 12-byte header" % entry_at(1, "offset"),
    )
    big = size - offs[2] + 1
    out.bad(
        "record_past_end",
        patched(p_size(2, big)),
        "directory: entry[2].size at offset %d: record-range: the body %d..%d runs past the file's %d bytes"
        % (entry_at(2, "size"), offs[2], offs[2] + big, size),
    )
    out.bad(
        "record_past_end_wrap",
        patched(p_size(3, 0xFFFFFFFF)),
        "directory: entry[3].size at offset %d: record-range: the body %d..%d runs past the file's %d bytes"
        % (entry_at(3, "size"), offs[3], offs[3] + 0xFFFFFFFF, size),
    )
    # record 0's body grown by 2 runs into record 1's
    s0 = len(recs[0][1].b)
    out.bad(
        "record_overlap",
        patched(p_size(0, s0 + 2)),
        "directory: entry[1].offset at offset %d: record-overlap: the body of entry 1 (record 0x0001) (%d..%d) overlaps the body of entry 0 (record 0x0000) (%d..%d)"
        % (entry_at(1, "offset"), offs[1], offs[1] + len(recs[1][1].b), offs[0], offs[0] + s0 + 2),
    )
    # the last body runs into the directory after it
    s3 = len(recs[3][1].b)
    out.bad(
        "record_overlap_directory",
        patched(p_size(3, s3 + 1)),
        "SRSC: dirOffset at offset 6: record-overlap: the directory (%d..%d) overlaps the body of entry 3 (record 0x0020) (%d..%d)"
        % (d, d + 14 * len(recs), offs[3], offs[3] + s3 + 1),
    )
    # a body placed inside the directory
    out.bad(
        "record_inside_directory",
        patched(lambda e: (e[2].__setitem__(3, d + 2), e[2].__setitem__(4, 4))),
        "directory: entry[2].offset at offset %d: record-overlap: the body of entry 2 (record 0x0002) (%d..%d) overlaps the directory (%d..%d)"
        % (entry_at(2, "offset"), d + 2, d + 6, d, d + 14 * len(recs)),
    )
    # an empty body inside another one
    out.bad(
        "record_overlap_empty",
        patched(lambda e: (e[2].__setitem__(3, offs[1] + 1), e[2].__setitem__(4, 0))),
        "directory: entry[2].offset at offset %d: record-overlap: the body of entry 2 (record 0x0002) (%d..%d) overlaps the body of entry 1 (record 0x0001) (%d..%d)"
        % (entry_at(2, "offset"), offs[1] + 1, offs[1] + 1, offs[1], offs[1] + len(recs[1][1].b)),
    )
    # a second layers record
    extra = as_srsc(recs) + [(0x0001, 9, 0, recs[1][1].b)]
    data2, offs2, d2 = srsc(extra)
    out.bad(
        "record_repeated",
        data2,
        "directory: entry[4].type at offset %d: record-repeated: a second record 0x0001 (the first is entry 1)" % (d2 + 14 * 4),
    )
    for t, name, what in ((0, "missing_level", "the level name and database references"), (1, "missing_layers", "the layers")):
        rest = [r for r in as_srsc(recs) if r[0] != t]
        data3, _, d3 = srsc(rest)
        out.bad(
            name,
            data3,
            "directory: type at offset %d: record-missing: no record 0x%04x (%s) among the %d entries" % (d3, t, what, len(rest)),
        )

    # -- inside the records: one record replaced, the file laid out again
    def with_record(t, w, name, leaf, rule, problem, at=None, keep=None):
        rs = [(tt, w if tt == t else ww) for tt, ww in (keep or recs)]
        data4, offs4, _ = level_file(rs)
        k = [tt for tt, _ in rs].index(t)
        pos = w.at[leaf] if at is None else at
        out.bad(
            name,
            data4,
            "record 0x%04x: %s at offset %d: %s: %s" % (t, leaf, offs4[k] + pos, rule, problem),
            [(tt, ww.b) for tt, ww in rs],
        )

    # 0x0000
    lv2 = dict(lv, name="abcde")
    w = rec_level(lv2)
    w.b[0:2] = struct.pack("<H", 5)  # the odd length as stored, the pad byte left
    with_record(0, w, "string_odd", "name", "string-odd", "a length of 5; lengths are even (an odd text has one zero after it)")
    w = rec_level(lv)
    w.b[0:2] = struct.pack("<H", 200)
    with_record(0, w, "string_size", "name", "field-size", "a 200-byte string, %d bytes are left in the record" % (len(w.b) - 2))
    w = rec_level(lv)
    w.b = w.b[: w.at["maxHeight"] + 2]
    with_record(0, w, "field_size", "maxHeight", "field-size", "needs 4 bytes, 2 are left in the record")
    w = rec_level(dict(lv, dbref_count=1000000))
    left = len(w.b) - w.at["dbRefCount"] - 4
    with_record(0, w, "count_size", "dbRefCount", "count-size", "1000000 records of at least 6 bytes need 6000000, %d are left in the record" % left)
    w = rec_level(dict(lv, tail=b"\0\0\0"))
    with_record(0, w, "leftover", "end", "leftover", "3 bytes are left after the record's last field", at=len(w.b) - 3)
    w = rec_level(lv)
    w.b = w.b[:-1]
    p = w.at["dbRef[2].path"]
    with_record(0, w, "string_size_dbref", "dbRef[2].path", "field-size", "a 10-byte string, 9 bytes are left in the record")

    # 0x0001
    w = rec_layers(ls, count=0x10000000)
    left = len(w.b) - 4
    with_record(1, w, "layer_count_size", "layerCount", "count-size", "268435456 records of at least 62 bytes need %d, %d are left in the record" % (268435456 * 62, left))
    ls2 = [dict(l) for l in ls]
    ls2[1]["visible"] = [0, 3]
    w = rec_layers(ls2)
    with_record(1, w, "visible_range", "layer[1].visible[1]", "visible-range", "layer index 3 is past the record's 3 layers")
    ls2 = [dict(l) for l in ls]
    ls2[2]["visible"] = [0xFFFFFFFF]
    w = rec_layers(ls2)
    with_record(1, w, "visible_range_max", "layer[2].visible[0]", "visible-range", "layer index 4294967295 is past the record's 3 layers")
    ls2 = [dict(l) for l in ls]
    ls2[0]["visible"] = [0] * 1000
    w = rec_layers(ls2)
    w.b[w.at["layer[0].visibleCount"] : w.at["layer[0].visibleCount"] + 4] = struct.pack("<I", 0x40000000)
    left = len(w.b) - w.at["layer[0].visibleCount"] - 4
    with_record(1, w, "visible_count_size", "layer[0].visibleCount", "count-size", "1073741824 records of at least 4 bytes need 4294967296, %d are left in the record" % left)
    ls2 = [dict(l) for l in ls]
    ls2[1]["width"] = 100000
    ls2[1]["height"] = 100000
    w = rec_layers(ls2)
    with_record(1, w, "layer_size", "layer[1].width", "layer-size", "100000 x 100000 cells need more than the 268435456 bytes of layer data allowed")
    ls2 = [dict(l) for l in ls]
    ls2[1]["width"] = 0xFFFFFFFF
    ls2[1]["height"] = 0xFFFFFFFF
    w = rec_layers(ls2)
    with_record(1, w, "layer_size_wrap", "layer[1].width", "layer-size", "4294967295 x 4294967295 cells need more than the 268435456 bytes of layer data allowed")
    # just over the cap: 2895 x 2895 -> 2896^2*4 + 2895^2*26 = 251,457,514 (fits); 3000 x 3000 does not
    ls2 = [dict(l) for l in ls]
    ls2[0]["width"] = 3000
    ls2[0]["height"] = 3000
    w = rec_layers(ls2)
    with_record(1, w, "layer_size_cap", "layer[0].width", "layer-size", "3000 x 3000 cells need more than the 268435456 bytes of layer data allowed")
    ls2 = [dict(l) for l in ls]
    ls2[2]["type"] = 3
    w = rec_layers(ls2)
    with_record(1, w, "layer_type", "layer[2].type", "layer-type", "3; a layer is a floor (0), a ceiling (1) or between (2)")
    # one layer with a long name, so the count still fits when the definition is cut
    w = rec_layers([dict(ls[0], name="A long layer name to pass the count check.....", visible=[])])
    w.b = w.b[: w.at["layer[0].lightAscension"] + 3]
    with_record(1, w, "layer_def_cut", "layer[0].lightAscension", "field-size", "needs 4 bytes, 3 are left in the record")

    def layer_data(name, i, data, leaf, rule, problem, compressed_size=None):
        ls3 = [dict(l) for l in ls]
        ls3[i]["data"] = data
        if compressed_size is not None:
            ls3[i]["compressedSize"] = compressed_size
        w = rec_layers(ls3)
        with_record(1, w, name, "layer[%d].%s" % (i, leaf), rule, problem)

    raw = layer_raw(ls[1])
    want = len(raw)
    wh = "%d x %d" % (ls[1]["width"], ls[1]["height"])
    layer_data("not_zlib", 1, b"\x00\x01" + raw, "data", "zlib", "the block starts 00 01, not a zlib header (78 01, 78 9c, ...)")
    layer_data("not_zlib_check", 1, b"\x78\x9d" + zlib.compress(raw)[2:], "data", "zlib", "the block starts 78 9d, not a zlib header (78 01, 78 9c, ...)")
    layer_data("zlib_short", 1, b"\x78", "data", "zlib", "1 bytes, too short for a zlib header")
    layer_data("zlib_corrupt", 1, b"\x78\x9c\xff\xff\xff\xff", "data", "zlib", "not a valid zlib stream (invalid block type, after 3 bytes)")
    good_stream = zlib.compress(raw)
    layer_data("zlib_checksum", 1, good_stream[:-1] + bytes([good_stream[-1] ^ 1]), "data", "zlib", "not a valid zlib stream (incorrect data check, after %d bytes)" % len(good_stream))
    layer_data("zlib_cut", 1, good_stream[:-4], "data", "zlib", "the zlib stream is cut short: %d bytes give %d of %d" % (len(good_stream) - 4, want, want))
    layer_data("zlib_trailing", 1, good_stream + b"\0\0", "data", "zlib", "the zlib stream ends after %d of the block's %d bytes" % (len(good_stream), len(good_stream) + 2))
    layer_data("inflate_short", 1, zlib.compress(raw[:-1]), "data", "inflate-size", "inflates to %d bytes, %s cells need %d" % (want - 1, wh, want))
    layer_data("inflate_empty", 1, zlib.compress(b""), "data", "inflate-size", "inflates to 0 bytes, %s cells need %d" % (wh, want))
    layer_data("inflate_long", 1, zlib.compress(raw + b"\0"), "data", "inflate-size", "inflates to more than the %d bytes" % want)
    layer_data(
        "inflate_bomb",
        1,
        zlib.compress(b"\0" * (8 << 20), 9),
        "data",
        "inflate-size",
        "inflates to more than the %d bytes" % want,
    )
    ls3 = [dict(l) for l in ls]
    ls3[2]["compressedSize"] = 100000
    w = rec_layers(ls3)
    left = len(w.b) - w.at["layer[2].compressedSize"] - 4
    with_record(1, w, "block_size", "layer[2].compressedSize", "field-size", "a 100000-byte block, %d bytes are left in the record" % left)
    w = rec_layers(ls, tail=b"\x01")
    with_record(1, w, "leftover_layers", "end", "leftover", "1 bytes are left after the record's last field", at=len(w.b) - 1)
    w = rec_layers(ls)
    w.b = w.b[: w.at["unknown"] + 1]
    with_record(1, w, "unknown_cut", "unknown", "field-size", "needs 4 bytes, 1 are left in the record")

    # 0x0002
    w = rec_groups(groups)
    w.b[0:4] = struct.pack("<I", 5000)
    with_record(2, w, "group_count_size", "groupCount", "count-size", "5000 records of at least 6 bytes need 30000, %d are left in the record" % (len(w.b) - 4))
    w = rec_groups(groups)
    p = w.at["group[1].layerCount"]
    w.b[p : p + 4] = struct.pack("<I", 4)
    with_record(2, w, "group_layer_count_size", "group[1].layerCount", "count-size", "4 records of at least 4 bytes need 16, 12 are left in the record")
    w = rec_groups(groups, tail=b"\0\0")
    with_record(2, w, "leftover_groups", "end", "leftover", "2 bytes are left after the record's last field", at=len(w.b) - 2)

    # 0x0020
    w = rec_objects(objs, count=60000)
    with_record(0x20, w, "object_count_size", "objectCount", "count-size", "60000 records of at least 46 bytes need 2760000, %d are left in the record" % (len(w.b) - 2))
    objs2 = [dict(o) for o in objs]
    objs2[2]["links"] = [1, 4]
    w = rec_objects(objs2)
    with_record(0x20, w, "link_range", "object[2].link[1]", "link-range", "object index 4 is past the record's 4 objects")
    objs2 = [dict(o) for o in objs]
    objs2[0]["links"] = [0xFFFF]
    w = rec_objects(objs2)
    with_record(0x20, w, "link_range_max", "object[0].link[0]", "link-range", "object index 65535 is past the record's 4 objects")
    objs2 = [dict(o) for o in objs]
    objs2[3]["dataSize"] = 0x40000000
    w = rec_objects(objs2)
    left = len(w.b) - w.at["object[3].dataSize"] - 8
    np = len(objs2[3]["params"])
    need = 0x40000000 * 4 + np * 8
    with_record(0x20, w, "param_count_size", "object[3].dataSize", "count-size", "1073741824 dwords and %d parameters need at least %d bytes, %d are left in the record" % (np, need, left))
    # an unscaled object claiming the scale flag: the record is read 12 bytes further on
    objs2 = [dict(o) for o in objs[:1]]
    objs2[0]["flags"] |= SCALED
    objs2[0].pop("scale", None)
    objs2[0]["data"] = []
    objs2[0]["params"] = []
    w = rec_objects(objs2)
    # rotation, then dataSize and paramCount (8 bytes) are read as scaleX and scaleY; scaleZ is missing
    with_record(0x20, w, "scaled_cut", "object[0].scaleZ", "field-size", "needs 4 bytes, 0 are left in the record", at=len(w.b))
    objs2 = [dict(o) for o in objs]
    objs2[1]["params"] = [(3, 1, ("abc", 3))]
    w = rec_objects(objs2)
    with_record(0x20, w, "param_name_odd", "object[1].paramDef[0].name", "string-odd", "a length of 3; lengths are even (an odd text has one zero after it)")
    w = rec_objects(objs, tail=b"\0")
    with_record(0x20, w, "leftover_objects", "end", "leftover", "1 bytes are left after the record's last field", at=len(w.b) - 1)


# ---- a reader, for files the C writer made ------------------------------------------------


class R:
    """Reads a record body field by field, writing the dump lines make_riot's writer writes."""

    def __init__(self, body):
        self.b = body
        self.pos = 0
        self.dump = []

    def take(self, fmt):
        v = struct.unpack_from("<" + fmt, self.b, self.pos)
        self.pos += struct.calcsize("<" + fmt)
        return v[0] if len(v) == 1 else v

    def val(self, path, fmt):
        v = self.take(fmt)
        self.dump.append("%s %s" % (path, v))
        return v

    def f32(self, path):
        self.dump.append("%s 0x%08x" % (path, self.take("I")))

    def string(self, path):
        n = self.take("H")
        assert n % 2 == 0, "odd string length"
        data = self.b[self.pos : self.pos + n]
        assert len(data) == n
        self.pos += n
        t = data[:-1] if data and data[-1] == 0 else data
        self.dump.append('%s %d "%s"' % (path, n, t.decode("latin-1")))


def read_level(r):
    r.string("name")
    r.val("maxWidth", "I")
    r.val("maxHeight", "I")
    for i in range(r.val("dbRefCount", "I")):
        r.val("dbRef[%d].index" % i, "H")
        r.val("dbRef[%d].unknown" % i, "H")
        r.string("dbRef[%d].path" % i)


def read_layers(r):
    dims = []
    for i in range(r.val("layerCount", "I")):
        p = "layer[%d]." % i
        r.val(p + "id", "I")
        w = r.val(p + "width", "I")
        h = r.val(p + "height", "I")
        dims.append((w, h))
        for k in ("type", "originX", "originZ"):
            r.val(p + k, "I")
        r.f32(p + "worldHeight")
        r.string(p + "name")
        r.val(p + "flags", "I")
        r.f32(p + "lightDirection")
        r.f32(p + "lightAscension")
        for k in ("lightColor", "ambientColor"):
            r.dump.append("%s%s %s" % (p, k, " ".join(str(x) for x in r.take("4B"))))
        r.val(p + "lightDropoff", "I")
        for k in range(r.val(p + "visibleCount", "I")):
            r.val(p + "visible[%d]" % k, "I")
    r.val("unknown", "I")
    for i, (w, h) in enumerate(dims):
        n = r.val("layer[%d].compressedSize" % i, "I")
        raw = zlib.decompress(r.b[r.pos : r.pos + n])
        r.pos += n
        assert len(raw) == (w + 1) * (h + 1) * 4 + w * h * 26, "layer %d inflates to %d" % (i, len(raw))
        for k in range((w + 1) * (h + 1)):
            r.dump.append("layer[%d].vertex[%d] %d %d %d" % ((i, k) + struct.unpack_from("<BBH", raw, 4 * k)))
        base = (w + 1) * (h + 1) * 4
        for k in range(w * h):
            v = struct.unpack_from("<HII8H", raw, base + 26 * k)
            r.dump.append("layer[%d].cell[%d] %s" % (i, k, " ".join(str(x) for x in v)))


def read_groups(r):
    for i in range(r.val("groupCount", "I")):
        r.string("group[%d].name" % i)
        for k in range(r.val("group[%d].layerCount" % i, "I")):
            r.val("group[%d].layer[%d]" % (i, k), "I")


def read_objects(r):
    count = r.val("objectCount", "H")
    for i in range(count):
        p = "object[%d]." % i
        r.val(p + "id", "I")
        r.val(p + "classId", "H")
        r.val(p + "classDb", "H")
        r.val(p + "lightingLayer", "I")
        for k in "xyz":
            r.f32(p + k)
        flags = r.val(p + "flags", "I")
        r.val(p + "initialEventCount", "H")
        for k in range(r.val(p + "linkCount", "H")):
            assert r.val(p + "link[%d]" % k, "H") < count, "link past the objects"
        for k in "XYZ":
            r.val(p + "rotation" + k, "H")
        if flags & SCALED:
            for k in "XYZ":
                r.f32(p + "scale" + k)
        size = r.val(p + "dataSize", "I")
        params = r.val(p + "paramCount", "I")
        for k in range(size):
            r.val(p + "paramData[%d]" % k, "I")
        for k in range(params):
            r.val(p + "paramIndex[%d]" % k, "H")
        for k in range(params):
            r.val(p + "paramDef[%d].type" % k, "I")
            r.string(p + "paramDef[%d].name" % k)


def dump_file(path):
    """The dump of a .lvl (as good/*.dump), read with this file's own reader and zlib."""
    data = open(path, "rb").read()
    assert data[:4] == b"SRSC"
    _, d, count = struct.unpack_from("<HIH", data, 4)
    bodies = {}
    for i in range(count):
        t, _, _, off, size = struct.unpack_from("<HHHII", data, d + 14 * i)
        assert off >= 12 and off + size <= len(data)
        if t in (0x0000, 0x0001, 0x0002, 0x0020):
            assert t not in bodies
            bodies[t] = data[off : off + size]
    lines = []
    readers = {0x0000: read_level, 0x0001: read_layers, 0x0002: read_groups, 0x0020: read_objects}
    for t in sorted(bodies):
        r = R(bodies[t])
        readers[t](r)
        assert r.pos == len(r.b), "record 0x%04x: %d bytes left over" % (t, len(r.b) - r.pos)
        lines.append("record 0x%04x" % t)
        lines += r.dump
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--dump":
        sys.stdout.write(dump_file(sys.argv[2]))
        return
    data_dir = sys.argv[1] if len(sys.argv) > 1 else HERE
    srsc_fuzz = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "fuzz", "corpus", "riot_srsc")
    parse_fuzz = sys.argv[3] if len(sys.argv) > 3 else os.path.join(ROOT, "fuzz", "corpus", "riot_parse")
    out = Out(data_dir, srsc_fuzz, parse_fuzz)
    good(out)
    bad(out)
    out.finish()
    print("%d good, %d bad files" % (len(out.good), len(out.expected)))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""An independent reading of a .glb that blvl export wrote (Python's json and struct only),
checked against flatc's JSON of the level's geometry section (and sim, for --collision).

    glb_check.py OUT.glb GEOMETRY.json|- [SIM.json]

Checks: the container (magic, version, lengths, chunk order); the triangle count of the level's
meshes equals geometry.indices / 3, each primitive's indices are its batch's indices in the same
order (so the winding is kept), UNSIGNED_SHORT when the vertices number at most 65535, else
UNSIGNED_INT; COLOR_0 is left out exactly when every vertex is opaque white, TEXCOORD_1 exactly
when every lightmap uv is (0, 0) and there is no lightmap; every POSITION, converted back to Quake
units (/ 0.0254), equals the level's vertex within float tolerance, NORMAL is unit length; the material count equals
geometry.materials' (plus one "blvl collision" material with --collision), and with SIM.json one
collider node per sim collider. Prints a summary line; exits 1 on the first difference.
"""
import json
import math
import struct
import sys

M = 0.0254
COMP = {5126: ("f", 4), 5125: ("I", 4), 5123: ("H", 2), 5121: ("B", 1)}
NCOMP = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}


def fail(msg):
    print("glb_check: FAIL: " + msg)
    sys.exit(1)


def read_glb(path):
    data = open(path, "rb").read()
    if len(data) < 20:
        fail("shorter than a header")
    magic, version, length = struct.unpack_from("<4sII", data, 0)
    if magic != b"glTF" or version != 2 or length != len(data):
        fail("header %r %d %d (file %d)" % (magic, version, length, len(data)))
    jlen, jtype = struct.unpack_from("<I4s", data, 12)
    if jtype != b"JSON" or jlen % 4:
        fail("first chunk is not JSON padded to 4")
    doc = json.loads(data[20:20 + jlen].decode("utf-8"))
    at = 20 + jlen
    binary = b""
    if at < len(data):
        blen, btype = struct.unpack_from("<I4s", data, at)
        if btype != b"BIN\0":
            fail("second chunk is not BIN")
        binary = data[at + 8:at + 8 + blen]
    return doc, binary


def accessor(doc, binary, i):
    a = doc["accessors"][i]
    v = doc["bufferViews"][a["bufferView"]]
    fmt, size = COMP[a["componentType"]]
    n = NCOMP[a["type"]]
    stride = v.get("byteStride", size * n)
    base = v.get("byteOffset", 0) + a.get("byteOffset", 0)
    out = []
    for k in range(a["count"]):
        out.append(struct.unpack_from("<%d%s" % (n, fmt), binary, base + k * stride))
    return out


def check_left_out(doc, attrs, verts):
    """COLOR_0 is left out exactly when every vertex is opaque white, TEXCOORD_1 exactly when
    every lightmap uv is (0, 0) and the document has no lightmap."""
    white = all(all(v.get("color", {}).get(c, 0) == 255 for c in "rgba") for v in verts)
    lm = (doc.get("extras") or {}).get("blvl", {}).get("lightmap")
    uv1_zero = lm is None and all(v.get("lightmap_uv", {}).get(c, 0) == 0
                                  for v in verts for c in "xy")
    for name, default in (("COLOR_0", white), ("TEXCOORD_1", uv1_zero)):
        if (name in attrs) == default:
            fail("%s %s, but every vertex %s its default" % (
                name, "kept" if default else "left out", "holds" if default else "does not hold"))


def main():
    doc, binary = read_glb(sys.argv[1])
    geo = json.load(sys.stdin if sys.argv[2] == "-" else open(sys.argv[2]))
    sim = json.load(open(sys.argv[3])) if len(sys.argv) > 3 else None
    verts = geo.get("vertices", [])
    idx = geo.get("indices", [])
    batches = geo.get("batches", [])
    mats = geo.get("materials", [])
    level_tris = len(idx) // 3
    tris = 0
    prims = 0
    checked_pos = set()
    for mesh in doc.get("meshes", []):
        if mesh.get("name", "").startswith("collider "):
            continue
        for p in mesh["primitives"]:
            prims += 1
            b = p["extras"]["blvl"]["batch"]
            batch = batches[b]
            first = batch.get("first_index", 0)
            count = batch.get("index_count", 0)
            want_type = 5123 if len(verts) <= 65535 else 5125
            got_type = doc["accessors"][p["indices"]]["componentType"]
            if got_type != want_type:
                fail("batch %d: index type %d for %d vertices (want %d)"
                     % (b, got_type, len(verts), want_type))
            got = [t[0] for t in accessor(doc, binary, p["indices"])]
            if got != idx[first:first + count]:
                fail("batch %d: the primitive's indices differ from the level's" % b)
            tris += len(got) // 3
            want_mat = batch.get("material", 0xFFFFFFFF)
            if p.get("material", 0xFFFFFFFF) != want_mat:
                fail("batch %d: material %s, level %s" % (b, p.get("material"), want_mat))
            pa = p["attributes"]["POSITION"]
            if pa in checked_pos:
                continue
            checked_pos.add(pa)
            check_left_out(doc, p["attributes"], verts)
            pos = accessor(doc, binary, pa)
            nrm = accessor(doc, binary, p["attributes"]["NORMAL"])
            if len(pos) != len(verts):
                fail("%d positions, level %d vertices" % (len(pos), len(verts)))
            for k, (q, v) in enumerate(zip(pos, verts)):
                w = v["position"]
                for c, key in enumerate("xyz"):
                    back = q[c] / M
                    if abs(back - w[key]) > 1e-4 * max(1.0, abs(w[key])):
                        fail("vertex %d %s: %r back from glTF, level %r" % (k, key, back, w[key]))
                n = nrm[k]
                if abs(math.sqrt(n[0] ** 2 + n[1] ** 2 + n[2] ** 2) - 1) > 1e-4:
                    fail("vertex %d: normal %r is not unit length" % (k, n))
    if tris != level_tris:
        fail("%d triangles in the meshes, the level has %d" % (tris, level_tris))
    gl_mats = doc.get("materials", [])
    extra = 1 if any(m.get("name") == "blvl collision" for m in gl_mats) else 0
    if len(gl_mats) - extra != len(mats):
        fail("%d materials, the level has %d" % (len(gl_mats) - extra, len(mats)))
    colliders = 0
    if sim is not None:
        names = [n.get("name", "") for n in doc.get("nodes", [])]
        colliders = sum(1 for n in names if n.startswith("collider "))
        if colliders != len(sim.get("colliders", [])):
            fail("%d collider nodes, the level has %d colliders" % (colliders,
                                                                   len(sim.get("colliders", []))))
    print("glb_check: %s: %d triangles, %d vertices, %d primitives, %d materials, %d colliders"
          % (sys.argv[1], tris, len(verts), prims, len(mats), colliders))


main()

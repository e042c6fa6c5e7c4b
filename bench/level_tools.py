#!/usr/bin/env python3
"""Helpers for scripts/make-bench-level.sh (standard library only).

  maps PK3 OUT_DIR MIN_RAW     extract every .bsp of an OpenArena pk3 (a zip) into OUT_DIR
                               and print `oa.<map>=PATH` pack arguments: every map once,
                               then repeats until the sections hold at least MIN_RAW bytes
  sim BSP OUT SIZE             a SIZE-byte FlatBuffer-shaped sim: real map bytes wrapped in an
                               empty root table, so a section layer's verifier accepts it
  meta OUT                     the smallest valid meta: an empty root table
  chunks LEVEL OUT             every zstd chunk of LEVEL, as concatenated frames, so that
                               `zstd -d` inflates exactly what `blvl verify` inflates
"""

import os
import re
import struct
import sys
import zipfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "golden"))
import blvlspec as spec  # noqa: E402

FB_EMPTY_12 = bytes.fromhex("08000000" "04000400" "04000000")


def tag_for(name, used):
    base = re.sub(r"[^a-z0-9._-]", "-", name.lower())[:13]
    tag, n = "oa." + base, 2
    while tag in used:
        suffix = "-%d" % n
        tag = "oa." + base[:13 - len(suffix)] + suffix
        n += 1
    used.add(tag)
    return tag


def cmd_maps(pk3, out, min_raw):
    os.makedirs(out, exist_ok=True)
    z = zipfile.ZipFile(pk3)
    maps = []
    for info in sorted(z.infolist(), key=lambda i: i.filename):
        if not info.filename.lower().endswith(".bsp"):
            continue
        name = os.path.basename(info.filename)[:-4]
        path = os.path.join(out, name + ".bsp")
        if not os.path.exists(path) or os.path.getsize(path) != info.file_size:
            with z.open(info) as src, open(path + ".tmp", "wb") as dst:
                dst.write(src.read())
            os.replace(path + ".tmp", path)
        maps.append((name, path, info.file_size))
    if not maps:
        sys.exit("no .bsp in " + pk3)
    used, total, i = set(), 0, 0
    while total < min_raw or i < len(maps):
        name, path, size = maps[i % len(maps)]
        print("%s=%s" % (tag_for(name, used), path))
        total += size
        i += 1


def cmd_sim(bsp, out, size):
    with open(bsp, "rb") as f:
        data = f.read()
    filler = size - 12
    start = max(0, len(data) // 2 - filler // 2)
    body = (data[start:start + filler] * (1 + filler // max(1, len(data))))[:filler]
    # u32 root offset -> table at size-4 | filler | vtable (size 4, table 4) | soffset 4
    buf = struct.pack("<I", size - 4) + body + bytes.fromhex("04000400") + struct.pack("<i", 4)
    assert len(buf) == size
    with open(out, "wb") as f:
        f.write(buf)


def cmd_meta(out):
    with open(out, "wb") as f:
        f.write(FB_EMPTY_12)


def cmd_chunks(level, out):
    with open(level, "rb") as f:
        data = f.read()
    p = spec.parse(data)
    frames = raw_chunks = raw_bytes = zstd_packed = zstd_raw = 0
    with open(out, "wb") as f:
        for e in p["entries"]:
            packed = data[e.offset:e.offset + e.packed_size]
            for off, psize, rsize, codec in spec.parse_chunks(packed):
                if codec == spec.CODEC_ZSTD:
                    f.write(packed[off:off + psize])
                    frames += 1
                    zstd_packed += psize
                    zstd_raw += rsize
                else:
                    raw_chunks += 1
                    raw_bytes += rsize
    print("%d zstd chunks (%d packed -> %d raw bytes), %d raw chunks (%d bytes), %d sections" %
          (frames, zstd_packed, zstd_raw, raw_chunks, raw_bytes, len(p["entries"])))


def main():
    a = sys.argv[1:]
    if a[:1] == ["maps"] and len(a) == 4:
        cmd_maps(a[1], a[2], int(a[3]))
    elif a[:1] == ["sim"] and len(a) == 4:
        cmd_sim(a[1], a[2], int(a[3]))
    elif a[:1] == ["meta"] and len(a) == 2:
        cmd_meta(a[1])
    elif a[:1] == ["chunks"] and len(a) == 3:
        cmd_chunks(a[1], a[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()

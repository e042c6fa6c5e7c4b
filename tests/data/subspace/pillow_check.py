#!/usr/bin/env python3
"""Decodes tilesets with Pillow and compares them with the C reader's pixels.

    pillow_check.py DIR    for each DIR/NAME.lvl (a .lvl starting with its tileset BMP) and
                           DIR/NAME.raw (304 x 160 palette indices, top row first, as
                           blvl_subspace_read decoded them): Pillow's decode must equal the raw
                           bytes. Prints one line per file; exits 1 on any difference.
    Files named *_delta hold RLE-8 deltas. Pillow up to 12.1 reads a delta's two bytes twice
    (fixed by python-pillow/Pillow#9443; Debian 12 ships 9.4): the script first decodes a tiny
    delta BMP of its own, and checks *_delta files only when this Pillow decodes it right.
Run by tests/test_subspace_pillow.c; Pillow is Debian's python3-pil.
"""
import io
import os
import struct
import sys

from PIL import Image


def delta_ok():
    """A 4 x 2 RLE-8 image: bottom row 7 at x 0; delta (1, 1) to x 2 of the top row: 9, 0 (Pillow wants every pixel)."""
    stream = bytes((1, 7, 0, 2, 1, 1, 1, 9, 1, 0, 0, 1))
    pal = bytes(4 * 256)
    head = struct.pack("<IiiHHIIiiII", 40, 4, 2, 1, 8, 1, len(stream), 0, 0, 256, 0)
    off = 14 + 40 + len(pal)
    bmp = b"BM" + struct.pack("<IHHI", off + len(stream), 0, 0, off) + head + pal + stream
    try:
        im = Image.open(io.BytesIO(bmp))
        im.load()
        return im.tobytes() == bytes((0, 0, 9, 0, 7, 0, 0, 0))
    except Exception:
        return False


def main():
    d = sys.argv[1]
    bad = 0
    names = sorted(n[:-4] for n in os.listdir(d) if n.endswith(".lvl"))
    deltas = delta_ok()
    for name in names:
        if name.endswith("_delta") and not deltas:
            print("%s: skipped, this Pillow (%s) misreads RLE-8 deltas" % (name, Image.__version__))
            continue
        with open(os.path.join(d, name + ".lvl"), "rb") as f:
            data = f.read()
        with open(os.path.join(d, name + ".raw"), "rb") as f:
            want = f.read()
        im = Image.open(io.BytesIO(data))
        im.load()
        got = im.tobytes()
        ok = im.mode == "P" and im.size == (304, 160) and got == want
        if not ok:
            diff = sum(1 for a, b in zip(got, want) if a != b) + abs(len(got) - len(want))
            print("%s: Pillow decodes %s %s, %d pixels differ" % (name, im.mode, im.size, diff))
            bad += 1
        else:
            print("%s: %s, %d pixels equal" % (name, im.info.get("compression", "?"), len(got)))
    if not names:
        print("no files")
        bad = 1
    sys.exit(1 if bad else 0)


main()

#!/usr/bin/env python3
"""Writes TGA, JPEG and PNG files with Pillow (and a few TGA variants Pillow does not write, by
hand) into DIR, each NAME.tga beside NAME.rgba: the pixels Pillow reads back (RGBA8, rows top to
bottom), or for the hand-made ones the pixels they were made from. DIR/list.txt names each file
with its kind and size. ctl.tga is a control: its .rgba is of the image before one pixel was
changed, so a decoder that matches it is wrong. Used by tests/test_q3_tga.c."""
import os
import random
import struct
import sys

from PIL import Image

out = sys.argv[1]
rng = random.Random(12)
listing = []


def picture(mode, w, h):
    """Noise with runs, so run-length packets of both kinds occur, and rows that differ."""
    px = []
    for y in range(h):
        x = 0
        while x < w:
            n = rng.choice([1, 1, 2, 5, 9])
            c = tuple(rng.randrange(256) for _ in range(4))
            for _ in range(min(n, w - x)):
                px.append(c)
                x += 1
    im = Image.new("RGBA", (w, h))
    im.putdata(px)
    if mode == "P":
        return im.convert("RGB").quantize(40)
    return im.convert(mode)


def save(name, im, **kw):
    path = os.path.join(out, name + ".tga")
    im.save(path, **kw)
    back = Image.open(path).convert("RGBA")
    open(os.path.join(out, name + ".rgba"), "wb").write(back.tobytes())
    listing.append("%s tga %d %d" % (name, im.size[0], im.size[1]))


save("rgb24", picture("RGB", 37, 23))
save("rgb24_rle", picture("RGB", 64, 9), compression="tga_rle")
save("rgba32", picture("RGBA", 13, 31))
save("rgba32_rle_id", picture("RGBA", 40, 40), compression="tga_rle", id_section=b"blvl test")
save("rgb24_top", picture("RGB", 17, 5), orientation=1)
save("rgba32_rle_top", picture("RGBA", 33, 12), compression="tga_rle", orientation=1)
save("grey8", picture("L", 21, 19))
save("grey8_rle_top", picture("L", 50, 3), compression="tga_rle", orientation=1)
save("cmap8", picture("P", 29, 14))
save("cmap8_rle", picture("P", 30, 30), compression="tga_rle")

# By hand: rows stored right to left (descriptor bit 4), top to bottom.
im = picture("RGBA", 6, 4)
raw = b""
for y in range(4):
    for x in reversed(range(6)):
        r, g, b, a = im.getpixel((x, y))
        raw += bytes([b, g, r, a])
hdr = struct.pack("<BBBHHBHHHHBB", 0, 0, 2, 0, 0, 0, 0, 0, 6, 4, 32, 0x28 | 0x10)
open(os.path.join(out, "rtl.tga"), "wb").write(hdr + raw)
open(os.path.join(out, "rtl.rgba"), "wb").write(im.tobytes())
listing.append("rtl tga 6 4")

# By hand: one run-length packet that crosses rows (3 x 2, all one colour, then a raw packet
# of nothing left), bottom-up.
hdr = struct.pack("<BBBHHBHHHHBB", 0, 0, 10, 0, 0, 0, 0, 0, 3, 2, 24, 0)
open(os.path.join(out, "cross.tga"), "wb").write(hdr + bytes([0x80 | 5, 10, 20, 30]))
open(os.path.join(out, "cross.rgba"), "wb").write(bytes([30, 20, 10, 255]) * 6)
listing.append("cross tga 3 2")

# The control: pixels of the image before one pixel changed.
im = picture("RGBA", 16, 16)
open(os.path.join(out, "ctl.rgba"), "wb").write(im.tobytes())
im.putpixel((7, 3), (1, 2, 3, 4) if im.getpixel((7, 3)) != (1, 2, 3, 4) else (5, 6, 7, 8))
im.save(os.path.join(out, "ctl.tga"))

# Refused: grey with alpha (16 bits), a colour index past its map, a truncated file.
picture("LA", 8, 8).save(os.path.join(out, "bad_depth.tga"))
hdr = struct.pack("<BBBHHBHHHHBB", 0, 1, 1, 0, 2, 24, 0, 0, 2, 1, 8, 0)
open(os.path.join(out, "bad_index.tga"), "wb").write(hdr + bytes(6) + bytes([1, 2]))
data = open(os.path.join(out, "rgb24_rle.tga"), "rb").read()
open(os.path.join(out, "bad_short.tga"), "wb").write(data[: len(data) // 2])

# JPEG (baseline and progressive) and PNG: the bake reads only their size.
picture("RGB", 45, 27).save(os.path.join(out, "base.jpg"), quality=90)
picture("RGB", 300, 7).save(os.path.join(out, "prog.jpg"), progressive=True)
picture("RGBA", 19, 77).save(os.path.join(out, "pic.png"))
listing += ["base jpg 45 27", "prog jpg 300 7", "pic png 19 77"]

open(os.path.join(out, "list.txt"), "w").write("\n".join(listing) + "\n")

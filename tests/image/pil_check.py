"""Pillow's view of the images tests/test_image_*.c write, for the C test to compare with.

  dds FILE W H OURS CHANNELS TOL   decode a DDS (BCn) with Pillow; compare CHANNELS ("rgba",
                                   "l" = our red, "rgb") with our RGBA texels; at most TOL apart
  png FILE W H OURS                Pillow decodes the PNG we wrote: the same RGBA texels
  mkpng SRC W H MODE OUT REF       Pillow writes SRC (RGBA texels) as a PNG in MODE (RGBA, RGB,
                                   L, LA, P, I;16) for our decoder, and what its texels are as
                                   RGBA (REF)
  mkjpeg SRC W H OUT REF [KIND]    Pillow writes SRC as a JPEG (quality 95) and its own decode
                                   of that file as RGBA texels (REF). KIND: rgb (4:2:0, the
                                   default), 444, progressive, grey, cmyk (Adobe's inverted
                                   inks; REF is each ink times the black, over 255, rounded as
                                   the C decoder rounds, from the inks Pillow decodes)
"""
import sys

from PIL import Image


def rgba(path, w, h):
    data = open(path, "rb").read()
    assert len(data) == w * h * 4, (path, len(data))
    return data


def main(argv):
    cmd = argv[1]
    if cmd == "dds":
        path, w, h, ours, channels, tol = argv[2], int(argv[3]), int(argv[4]), argv[5], argv[6], int(argv[7])
        ours = rgba(ours, w, h)
        im = Image.open(path)
        im.load()
        assert im.size == (w, h), im.size
        want = {"rgba": "RGBA", "l": "L", "rgb": "RGB"}[channels]
        assert im.mode == want, (im.mode, want)
        theirs = im.tobytes()
        n = len(want)
        worst, off = 0, 0
        for t in range(w * h):
            for c in range(n):
                d = abs(theirs[t * n + c] - ours[t * 4 + c])
                if d:
                    off += 1
                    worst = max(worst, d)
        print(f"{path}: {w}x{h} {channels}: {off} channel values differ, at most by {worst}")
        return 0 if worst <= tol else 1
    if cmd == "png":
        path, w, h, ours = argv[2], int(argv[3]), int(argv[4]), argv[5]
        im = Image.open(path)
        assert im.size == (w, h) and im.mode == "RGBA", (im.size, im.mode)
        return 0 if im.tobytes() == rgba(ours, w, h) else 1
    if cmd == "mkpng":
        src, w, h, mode, out, ref = argv[2], int(argv[3]), int(argv[4]), argv[5], argv[6], argv[7]
        im = Image.frombytes("RGBA", (w, h), rgba(src, w, h))
        if mode == "P":
            im = im.convert("RGB").quantize(64)
        elif mode == "I;16":
            grey = im.convert("L")
            # 16-bit grey whose top byte is the 8-bit grey: what an 8-bit decode keeps
            im = grey.convert("I").point(lambda v: v * 257).convert("I;16")
        else:
            im = im.convert(mode)
        im.save(out, "PNG")
        back = Image.open(out)
        back = grey if mode == "I;16" else back.convert("RGBA")
        open(ref, "wb").write(back.convert("RGBA").tobytes())
        return 0
    if cmd == "mkjpeg":
        src, w, h, out, ref = argv[2], int(argv[3]), int(argv[4]), argv[5], argv[6]
        kind = argv[7] if len(argv) > 7 else "rgb"
        im = Image.frombytes("RGBA", (w, h), rgba(src, w, h))
        if kind == "grey":
            im.convert("L").save(out, "JPEG", quality=95)
        elif kind == "cmyk":
            im.convert("CMYK").save(out, "JPEG", quality=95)
        else:
            extra = {"444": {"subsampling": 0}, "progressive": {"progressive": True}}.get(kind, {})
            im.convert("RGB").save(out, "JPEG", quality=95, **extra)
        back = Image.open(out)
        if kind == "cmyk":
            assert back.mode == "CMYK", back.mode
            px = back.tobytes()

            def ink(x, k):  # Adobe stores 255 - ink; Pillow gives the ink
                t = (255 - x) * (255 - k) + 128
                return (t + (t >> 8)) >> 8

            outb = bytearray()
            for i in range(0, len(px), 4):
                c, m, y, k = px[i:i + 4]
                outb += bytes((ink(c, k), ink(m, k), ink(y, k), 255))
            open(ref, "wb").write(bytes(outb))
        else:
            open(ref, "wb").write(back.convert("RGBA").tobytes())
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""Writes the Subspace .lvl test files: good files with what they hold, and the malformed corpus.

    python3 tests/data/subspace/make_lvl.py [OUT_DIR [FUZZ_DIR]]
        (default: beside this script, and fuzz/corpus/subspace_read as the reader's fuzz seeds)

A writer of the .lvl format (docs/IMPORT-SUBSPACE.md, "The file") made apart from the C library,
with `struct` only, so the C reader is checked against something not written in C:

  good/NAME.lvl    valid files the C writer would not make: nonzero alignment bytes, a last
                   chunk whose alignment the section's size cuts, a BMP header longer than 40
                   bytes, a short palette, bytes between the palette and the pixels, a top-down
                   uncompressed image, bytes between the eLVL and the records, an RLE-8 stream
                   from this script's own encoder, an empty file.
  good/NAME.txt    what NAME.lvl holds, as tests/test_subspace_corpus.c prints it: the part
                   offsets, the record counts, the attributes, each region's tiles, and a digest
                   of the decoded tileset (sum of index * (position + 1) mod 2^32).
  bad/NAME.lvl     one file per refusal; bad/expected.tsv holds "NAME<TAB>message": the exact
                   BLVL_E_SOURCE message, offsets found as this script lays the file out.

The output is deterministic; tests/test_subspace_corpus.sh fails when the committed files are not
what this script writes (run it again after changing it).
"""

import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FUZZ = os.path.join(HERE, "..", "..", "..", "fuzz", "corpus", "subspace_read")
W, H, G = 304, 160, 1024


def le32(v):
    return struct.pack("<I", v & 0xFFFFFFFF)


# ---- the tileset -------------------------------------------------------------------------------

def image():
    """Rows top to bottom: stripes, a noisy band, empty bands."""
    rows = []
    for y in range(H):
        r = bytearray(W)
        for x in range(W):
            if 40 <= y < 60:
                r[x] = 0
            elif y < 20:
                r[x] = (x // 16 + 1) & 0xFF
            elif y < 40:
                r[x] = (x * 31 + y * 17 + 5) % 251 + 1
            elif x % 50 < 20:
                r[x] = 0
            else:
                r[x] = 200 + (y % 7)
        rows.append(r)
    return rows


def palette(n):
    return b"".join(bytes(((i * 5) & 255, (i * 3) & 255, (255 - i) & 255, 0)) for i in range(n))


def rle8(rows):
    """A plain RLE-8 encoder, bottom-up: runs of zeros of 8 or more are deltas (a whole empty row
    is a delta down), runs of 3 or more equal pixels are encoded, the rest absolute."""
    out = bytearray()
    x = 0
    f = 0
    while f < H:
        r = rows[H - 1 - f]
        moved = False
        while x < W:
            z = 0
            while x + z < W and r[x + z] == 0:
                z += 1
            if x == 0 and z == W and f + 1 < H:
                out += bytes((0, 2, 0, 1))  # the whole row: a delta down
                moved = True
                break
            if z >= 8 and x + z < W:
                d = min(z, 255)
                out += bytes((0, 2, d, 0))
                x += d
                continue
            n = 1
            while x + n < W and r[x + n] == r[x] and n < 255:
                n += 1
            if n >= 3 or r[x] == 0:
                out += bytes((n, r[x]))
                x += n
                continue
            lit = 0
            while x + lit < W and lit < 255 and r[x + lit] != 0:
                if x + lit + 2 < W and r[x + lit] == r[x + lit + 1] == r[x + lit + 2]:
                    break
                lit += 1
            if lit < 3:
                out += bytes((1, r[x]))
                x += 1
                continue
            out += bytes((0, lit)) + bytes(r[x:x + lit]) + (b"\0" if lit & 1 else b"")
            x += lit
        if not moved:
            out += bytes((0, 0))
            x = 0
        f += 1
    out += bytes((0, 1))
    return bytes(out)


def raw_rows(rows, top_down=False):
    order = rows if top_down else list(reversed(rows))
    return b"".join(bytes(r) for r in order)  # 304 is a multiple of 4: no row padding


def digest(rows):
    s = 0
    i = 0
    for r in rows:
        for v in r:
            s = (s + v * (i + 1)) & 0xFFFFFFFF
            i += 1
    return s


class Bmp:
    def __init__(self, data, compression=1, **kw):
        self.width = W
        self.height = H
        self.planes = 1
        self.bits = 8
        self.compression = compression
        self.header_size = 40
        self.extra = b""
        self.colors_used = 0
        self.palette = None
        self.gap = b""
        self.data = data
        self.file_size = None   # None: where the records start
        self.reserved = 0
        self.data_offset = None  # None: after the palette and gap
        self.image_size = 0
        for k, v in kw.items():
            setattr(self, k, v)

    def head_len(self):
        n = self.colors_used or 256
        pal = self.palette if self.palette is not None else palette(n)
        return 14 + self.header_size + len(pal) + len(self.gap)

    def build(self, tiles_at):
        n = self.colors_used or 256
        pal = self.palette if self.palette is not None else palette(n)
        off = self.data_offset if self.data_offset is not None else self.head_len()
        fs = self.file_size if self.file_size is not None else tiles_at
        b = bytearray(b"BM")
        b += le32(fs) + le32(self.reserved) + le32(off)
        b += le32(self.header_size) + struct.pack("<ii", self.width, self.height)
        b += struct.pack("<HH", self.planes, self.bits)
        b += le32(self.compression) + le32(self.image_size) + le32(2835) + le32(2835)
        b += le32(self.colors_used) + le32(0) + self.extra + pal + self.gap
        if len(b) < off:
            b += bytes(off - len(b))
        b += self.data
        return bytes(b)


# ---- eLVL --------------------------------------------------------------------------------------

def chunk(tag, data, pad=None):
    p = pad if pad is not None else bytes((4 - len(data) % 4) % 4)
    return tag + le32(len(data)) + data + p


def elvl(chunks, total=None, reserved=0):
    body = b"".join(chunks)
    t = total if total is not None else 12 + len(body)
    return b"elvl" + le32(t) + le32(reserved) + body


def rtil_codes(codes):
    """codes: list of (kind, n) with kind 0..3 (empty, present, empty rows, repeat); n 1..1024."""
    out = bytearray()
    for kind, n in codes:
        if n <= 32:
            out.append(kind << 6 | (n - 1))
        else:
            out += bytes((kind << 6 | 0x20 | (n - 1) >> 8, (n - 1) & 255))
    return bytes(out)


def rec(tile, x, y):
    return le32(tile << 24 | (y & 0xFFF) << 12 | (x & 0xFFF))


# ---- good files --------------------------------------------------------------------------------

def good_files():
    files = {}
    img = image()

    # bare records: every kind the reader counts, a 2-byte tail
    recs = [rec(1, 0, 0), rec(190, 1023, 1023), rec(5, 4, 4), rec(9, 4, 4), rec(0, 10, 10),
            rec(3, 1024, 0), rec(3, 0, 1024), rec(255, 17, 900)]
    files["bare"] = (b"".join(recs) + b"\x07\x08",
                     {"tiles_offset": 0, "records": 8, "range": 2, "empty": 1, "tail": 2})
    files["empty"] = (b"", {"tiles_offset": 0, "records": 0, "range": 0, "empty": 0, "tail": 0})

    # elvl first: nonzero alignment bytes, a region, an auto-warp with a 16-byte arena field,
    # the last chunk's alignment cut by the total size
    region = b"".join([
        chunk(b"rNAM", b"Base\0", pad=b"\x01\x02\x03"),
        chunk(b"rTIL", rtil_codes([(2, 5), (0, 3), (1, 2), (0, G - 5), (3, 2), (2, G - 8)])),
        chunk(b"rBSE", b""),
        chunk(b"rAWP", struct.pack("<hh", -1, 300) + b"arena-name-16ch\0"),
    ])
    e = elvl([chunk(b"ATTR", b"NAME=pads", pad=b"\xff\xee\xdd"),
              chunk(b"REGN", region),
              chunk(b"DCWT", b"\x01\x02\x03\x04\x05"),
              chunk(b"ATTR", b"A=b")[:-1]])  # "A=b" and no alignment byte: the section ends
    recs = rec(20, 3, 3) + rec(21, 5, 6)
    files["elvl_pads"] = (e + recs, {
        "tiles_offset": len(e), "records": 2, "range": 0, "empty": 0, "tail": 0,
        "elvl": 0, "attrs": ["NAME=pads", "A=b"],
        "regions": [("Base", [(3, 5), (4, 5), (3, 6), (4, 6), (3, 7), (4, 7)],
                     "base", "warp -1 300 arena-name-16ch")]})

    # uncompressed, top-down, a longer info header, 16 colours, a gap, bytes after the image
    bmp = Bmp(raw_rows(img, top_down=True) + b"\x00\x11\x22", compression=0, height=-H,
              header_size=52, extra=b"EXTRA-12byte", colors_used=16, gap=b"GAPGAP")
    head = bmp.head_len()
    tiles_at = head + len(bmp.data)
    f = bmp.build(tiles_at) + rec(7, 1, 2)
    files["bmp_raw_topdown"] = (f, {"tiles_offset": tiles_at, "records": 1, "range": 0,
                                    "empty": 0, "tail": 0, "pixels": digest(img)})

    # RLE-8 (this script's encoder), eLVL at 49720, 4 bytes between the eLVL and the records
    data = rle8(img)
    assert 1078 + len(data) <= 49720
    e = elvl([chunk(b"ATTR", b"NAME=rle"),
              chunk(b"REGN", chunk(b"rNAM", b"All") +
                    chunk(b"rTIL", rtil_codes([(1, G), (3, G - 1)])) + chunk(b"rNFL", b""))])
    tiles_at = 49720 + len(e) + 4
    bmp = Bmp(data + bytes(49720 - 1078 - len(data)), reserved=49720)
    f = bmp.build(tiles_at) + e + b"\x00\x01\x02\x03" + rec(171, 100, 100)
    assert len(f) == tiles_at + 4
    files["bmp_rle_elvl"] = (f, {"tiles_offset": tiles_at, "records": 1, "range": 0,
                                 "empty": 0, "tail": 0, "pixels": digest(img), "elvl": 49720,
                                 "attrs": ["NAME=rle"],
                                 "regions": [("All", "all", "no_flag_drops", "")]})
    return files


def describe(info):
    """The lines tests/test_subspace_corpus.c prints for a read file."""
    out = ["tiles_offset %d" % info["tiles_offset"],
           "records %d skipped_range %d skipped_empty %d tail %d" %
           (info["records"], info["range"], info["empty"], info["tail"])]
    if "pixels" in info:
        out.append("pixels %08x" % info["pixels"])
    if "elvl" in info:
        out.append("elvl %d" % info["elvl"])
        for a in info["attrs"]:
            out.append("attr %s" % a)
        for name, tiles, flags, warp in info["regions"]:
            out.append("region %s" % name)
            if tiles == "all":
                out.append("tiles %d" % (G * G))
            else:
                out.append("tiles %d" % len(tiles))
                for x, y in sorted(tiles, key=lambda t: (t[1], t[0])):
                    out.append("tile %d %d" % (x, y))
            if flags:
                out.append("flags %s" % flags)
            if warp:
                out.append(warp)
    return "\n".join(out) + "\n"


# ---- bad files ---------------------------------------------------------------------------------

def bad_files():
    bad = {}
    img = image()
    rle = rle8(img)

    def bmp_file(bmp, tail=b""):
        return bmp.build(bmp.head_len() + len(bmp.data)) + tail

    raw = raw_rows(img)
    bad["bmp_header"] = (b"BM" + bytes(30), "BMP: headers at offset 0: bmp-header: the file has 32 bytes, the BMP headers need 54")
    f = bmp_file(Bmp(rle, header_size=12))
    bad["bmp_info_size"] = (f, "BMP: biSize at offset 14: bmp-info-size: 12 bytes; it must be at least 40 and fit in the file's %d" % len(f))
    f = bmp_file(Bmp(rle, header_size=100000, data_offset=1078))
    bad["bmp_info_size_past"] = (f, "BMP: biSize at offset 14: bmp-info-size: 100000 bytes; it must be at least 40 and fit in the file's %d" % len(f))
    bad["bmp_width"] = (bmp_file(Bmp(rle, width=320)), "BMP: biWidth at offset 18: bmp-dimensions: 320 pixels, a tileset is 304 wide")
    bad["bmp_height"] = (bmp_file(Bmp(rle, height=161)), "BMP: biHeight at offset 22: bmp-dimensions: 161 pixels, a tileset is 160 high")
    bad["bmp_planes"] = (bmp_file(Bmp(rle, planes=2)), "BMP: biPlanes at offset 26: bmp-planes: 2, not 1")
    bad["bmp_bits"] = (bmp_file(Bmp(rle, bits=4)), "BMP: biBitCount at offset 28: bmp-bits: 4 bits per pixel, a tileset has 8")
    bad["bmp_compression"] = (bmp_file(Bmp(rle, compression=2)), "BMP: biCompression at offset 30: bmp-compression: 2; only 0 (BI_RGB) and 1 (BI_RLE8) are read")
    bad["bmp_rle_top_down"] = (bmp_file(Bmp(rle, height=-H)), "BMP: biHeight at offset 22: bmp-compression: -160: an RLE-8 image cannot run top to bottom")
    bad["bmp_palette_count"] = (bmp_file(Bmp(rle, colors_used=300, palette=palette(256))), "BMP: biClrUsed at offset 46: bmp-palette: 300 colours, an 8-bit palette has at most 256")
    f = bmp_file(Bmp(rle))[:54 + 500]
    bad["bmp_palette_size"] = (f, "BMP: palette at offset 54: bmp-palette: 256 colours need 1024 bytes, 500 are left in the file")
    f = Bmp(rle).build(5000000)
    bad["bmp_size"] = (f, "BMP: bfSize at offset 2: bmp-size: 5000000 bytes, past the end of the file (%d bytes)" % len(f))
    bad["bmp_offset_low"] = (bmp_file(Bmp(rle, data_offset=1000)), "BMP: bfOffBits at offset 10: bmp-offset: 1000 is inside the headers and palette, which end at 1078")
    b = Bmp(rle, data_offset=1078 + len(rle) + 8)
    f = b.build(1078 + len(rle)) + rle + bytes(8)
    bad["bmp_offset_high"] = (f, "BMP: bfOffBits at offset 10: bmp-offset: %d is past where the pixel stream must end (bfSize %d)" % (1078 + len(rle) + 8, 1078 + len(rle)))
    b = Bmp(rle, reserved=900000)
    f = b.build(1078 + len(rle)) + rec(1, 1, 1)
    bad["bmp_elvl_past"] = (f, "BMP: bfReserved at offset 6: bmp-size: the eLVL offset 900000 is past bfSize %d, where the tile records start" % (1078 + len(rle)))
    b = Bmp(rle, reserved=500)
    bad["bmp_elvl_before_pixels"] = (b.build(1078 + len(rle)), "BMP: bfOffBits at offset 10: bmp-offset: 1078 is past where the pixel stream must end (the eLVL offset 500)")
    bad["pixels_size"] = (bmp_file(Bmp(raw[:-1], compression=0)), "BMP: pixels at offset 1078: pixels-size: 160 rows of 304 bytes need 48640, the pixel stream has 48639")

    def rle_file(stream):
        return bmp_file(Bmp(stream))

    bad["rle_end"] = (rle_file(rle[:-2]), "BMP: pixels at offset %d: rle-end: the pixel stream ends without an end-of-bitmap code" % (1078 + len(rle) - 2))
    bad["rle_end_odd"] = (rle_file(bytes((5, 1, 0))), "BMP: pixels at offset 1080: rle-end: the pixel stream ends without an end-of-bitmap code")
    bad["rle_end_delta"] = (rle_file(bytes((5, 1, 0, 2, 1))), "BMP: pixels at offset 1080: rle-end: the pixel stream ends inside a delta code")
    bad["rle_end_absolute"] = (rle_file(bytes((0, 5, 1, 2, 3, 4))), "BMP: pixels at offset 1078: rle-end: 5 literal pixels (6 bytes with the padding), 4 bytes are left in the pixel stream")
    bad["rle_end_absolute_pad"] = (rle_file(bytes((0, 5, 1, 2, 3, 4, 5))), "BMP: pixels at offset 1078: rle-end: 5 literal pixels (6 bytes with the padding), 5 bytes are left in the pixel stream")
    bad["rle_row"] = (rle_file(bytes((200, 1, 105, 2, 0, 1))), "BMP: pixels at offset 1080: rle-row: a run of 105 pixels at column 200 passes the row's end (304)")
    bad["rle_row_absolute"] = (rle_file(bytes((255, 1, 45, 1, 0, 5, 1, 2, 3, 4, 5, 0, 0, 1))), "BMP: pixels at offset 1082: rle-row: 5 literal pixels at column 300 pass the row's end (304)")
    bad["rle_row_delta"] = (rle_file(bytes((255, 1, 0, 2, 50, 0, 0, 1))), "BMP: pixels at offset 1080: rle-row: a delta of 50 columns from column 255 passes the row's end (304)")
    eols = bytes((0, 0)) * H
    bad["rle_image"] = (rle_file(eols + bytes((1, 1, 0, 1))), "BMP: pixels at offset %d: rle-image: a run of 1 pixels after the image's last row" % (1078 + 2 * H))
    bad["rle_image_absolute"] = (rle_file(eols + bytes((0, 3, 1, 2, 3, 0, 0, 1))), "BMP: pixels at offset %d: rle-image: 3 literal pixels after the image's last row" % (1078 + 2 * H))
    bad["rle_image_eol"] = (rle_file(eols + bytes((0, 0, 0, 1))), "BMP: pixels at offset %d: rle-image: an end-of-line after the image's last row ended" % (1078 + 2 * H))
    bad["rle_image_delta"] = (rle_file(bytes((0, 0)) * 100 + bytes((0, 2, 0, 61, 0, 1))), "BMP: pixels at offset 1278: rle-image: a delta of 61 rows from row 100 passes the image's 160 rows")

    # eLVL framing
    bad["elvl_header"] = (b"elvl" + le32(12), "eLVL: header at offset 0: elvl-header: 8 bytes are left for it, the header takes 12")
    at = 1078 + len(rle)  # the eLVL right after the pixel stream
    b = Bmp(rle, reserved=at)
    f = b.build(at + 16) + b"ELVL" + le32(16) + le32(0) + bytes(4)
    bad["elvl_magic"] = (f, "eLVL: magic at offset %d: elvl-header: \"ELVL\" is not \"elvl\"" % at)
    f = b.build(at + 8) + b"elvl" + le32(8)
    bad["elvl_header_bmp"] = (f, "eLVL: header at offset %d: elvl-header: 8 bytes are left for it, the header takes 12" % at)
    bad["elvl_size_small"] = (elvl([], total=8), "eLVL: total size at offset 4: elvl-size: 8 bytes; it must be at least 12 and at most the 12 left before the end of the file")
    bad["elvl_size_big"] = (elvl([chunk(b"ATTR", b"A=1")], total=100), "eLVL: total size at offset 4: elvl-size: 100 bytes; it must be at least 12 and at most the 24 left before the end of the file")
    e = elvl([chunk(b"ATTR", b"A=1")], total=40)
    f = b.build(at + 24) + e + bytes(16)
    bad["elvl_size_bmp"] = (f, "eLVL: total size at offset %d: elvl-size: 40 bytes; it must be at least 12 and at most the 24 left before the tile records" % (at + 4))
    bad["chunk_header"] = (elvl([chunk(b"ATTR", b"A=1"), b"DCME\x01"]), "eLVL: chunk header at offset 24: chunk-header: 5 bytes are left in the section, a chunk header takes 8")
    e = elvl([chunk(b"ATTR", b"A=1"), b"\x01ZZ\\" + le32(9) + b"abcd"])
    bad["chunk_size"] = (e, "eLVL: chunk size at offset 28: chunk-size: a \\x01ZZ\\x5c chunk of 9 bytes, 4 are left in the section")
    bad["chunk_size_max"] = (elvl([b"REGN" + le32(0xFFFFFFFF)]), "eLVL: chunk size at offset 16: chunk-size: a REGN chunk of 4294967295 bytes, 0 are left in the section")

    # REGN
    def regn(*subs):
        return elvl([chunk(b"ATTR", b"NAME=x"), chunk(b"REGN", b"".join(subs))])

    full = chunk(b"rTIL", rtil_codes([(2, G)]))
    # REGN payload starts at 12 + 16 (ATTR: 8 + 6 + 2 pad) + 8 = 36
    bad["regn_chunk_header"] = (regn(chunk(b"rNAM", b"ab"), b"rBS"), "REGN: chunk header at offset 48: chunk-header: 3 bytes are left in the REGN chunk, a chunk header takes 8")
    bad["regn_chunk_size"] = (regn(chunk(b"rNAM", b"ab"), b"rTIL" + le32(3) + b"\x01\x02"), "REGN: chunk size at offset 52: chunk-size: a rTIL chunk of 3 bytes, 2 are left in the REGN chunk")
    bad["regn_repeated_name"] = (regn(chunk(b"rNAM", b"a"), full, chunk(b"rNAM", b"b")), "REGN: rNAM at offset 60: regn-repeated: a second rNAM in one region")
    bad["regn_repeated_tiles"] = (regn(full, full), "REGN: rTIL at offset 48: regn-repeated: a second rTIL in one region")
    awp = chunk(b"rAWP", struct.pack("<hh", 1, 2))
    bad["regn_repeated_warp"] = (regn(awp, awp), "REGN: rAWP at offset 48: regn-repeated: a second rAWP in one region")
    bad["rawp_size_short"] = (regn(chunk(b"rAWP", b"\x01\x00\x02")), "REGN: rAWP at offset 40: rawp-size: 3 bytes; an auto-warp is 4 (x, y) or 5 to 20 (an arena name of up to 16 bytes after them)")
    bad["rawp_size_long"] = (regn(chunk(b"rAWP", bytes(21))), "REGN: rAWP at offset 40: rawp-size: 21 bytes; an auto-warp is 4 (x, y) or 5 to 20 (an arena name of up to 16 bytes after them)")

    # rTIL: its payload starts at 36 + 8 = 44
    def til(code):
        return regn(chunk(b"rTIL", code))

    bad["rtil_code"] = (til(rtil_codes([(2, 5)]) + bytes((0x24, 0x00))), "REGN: rTIL at offset 45: rtil-code: 0x24: a long code's bits 4..2 must be 0")
    bad["rtil_code_row"] = (til(bytes((0xB0, 0xFF))), "REGN: rTIL at offset 44: rtil-code: 0xb0: a long code's bits 4..2 must be 0")
    bad["rtil_end_long"] = (til(rtil_codes([(2, 5)]) + bytes((0x23,))), "REGN: rTIL at offset 45: rtil-end: a long code (0x23) without its second byte")
    bad["rtil_row"] = (til(rtil_codes([(0, 1000), (1, 25), (2, G)])), "REGN: rTIL at offset 46: rtil-row: 25 present tiles at column 1000 pass the row's end (1024)")
    bad["rtil_row_empty"] = (til(rtil_codes([(1, 1000), (0, 32)])), "REGN: rTIL at offset 46: rtil-row: 32 empty tiles at column 1000 pass the row's end (1024)")
    bad["rtil_row_code"] = (til(rtil_codes([(1, 10), (2, 3)])), "REGN: rTIL at offset 45: rtil-row: 3 empty rows at column 10 of row 0: a row code must start a row")
    bad["rtil_row_repeat"] = (til(rtil_codes([(1, G), (0, 4), (3, 1)])), "REGN: rTIL at offset 47: rtil-row: 1 previous-row repeats at column 4 of row 1: a row code must start a row")
    bad["rtil_grid"] = (til(rtil_codes([(2, G), (1, 1)])), "REGN: rTIL at offset 46: rtil-grid: 1 present tiles after the grid's last row")
    bad["rtil_grid_rows"] = (til(rtil_codes([(2, 1000), (2, 25)])), "REGN: rTIL at offset 46: rtil-grid: 25 empty rows from row 1000 pass the grid's 1024 rows")
    bad["rtil_grid_repeat"] = (til(rtil_codes([(1, G), (3, G)])), "REGN: rTIL at offset 46: rtil-grid: 1024 previous-row repeats from row 1 pass the grid's 1024 rows")
    bad["rtil_first"] = (til(rtil_codes([(3, 2), (2, G - 2)])), "REGN: rTIL at offset 44: rtil-first: a repeat of the previous row at row 0")
    bad["rtil_end"] = (til(rtil_codes([(2, 1000)])), "REGN: rTIL at offset 46: rtil-end: the code ends at column 0 of row 1000; it must describe all 1024 rows")
    bad["rtil_end_row"] = (til(rtil_codes([(2, 1023), (1, 7)])), "REGN: rTIL at offset 47: rtil-end: the code ends at column 7 of row 1023; it must describe all 1024 rows")
    bad["rtil_empty"] = (til(b""), "REGN: rTIL at offset 44: rtil-end: the code ends at column 0 of row 0; it must describe all 1024 rows")
    return bad


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else HERE
    fuzz = sys.argv[2] if len(sys.argv) > 2 else FUZZ
    for d in (os.path.join(out, "good"), os.path.join(out, "bad"), fuzz):
        os.makedirs(d, exist_ok=True)
    for name, (data, info) in sorted(good_files().items()):
        with open(os.path.join(out, "good", name + ".lvl"), "wb") as f:
            f.write(data)
        with open(os.path.join(out, "good", name + ".txt"), "w") as f:
            f.write(describe(info))
        with open(os.path.join(fuzz, "good_" + name), "wb") as f:
            f.write(data[:65536])
    lines = []
    for name, (data, msg) in sorted(bad_files().items()):
        with open(os.path.join(out, "bad", name + ".lvl"), "wb") as f:
            f.write(data)
        lines.append("%s\t%s\n" % (name, msg))
        if len(data) <= 65536:
            with open(os.path.join(fuzz, "bad_" + name), "wb") as f:
                f.write(data)
    with open(os.path.join(out, "bad", "expected.tsv"), "w") as f:
        f.writelines(lines)
    print("%d good, %d bad" % (len(good_files()), len(lines)))


if __name__ == "__main__":
    main()

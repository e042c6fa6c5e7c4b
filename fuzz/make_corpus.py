#!/usr/bin/env python3
"""Writes the container seed corpora of the fuzz targets: fuzz/corpus/open, read and stream.
(fuzz/corpus/hmap_read, the .hmap reader's seeds, is written by tests/data/hmap/make_hmap.py.)

    python3 fuzz/make_corpus.py [FUZZ_CORPUS_DIR]     (default: fuzz/corpus beside this script)

The levels are assembled by tests/golden/blvlspec.py (the independent Python implementation of
docs/FORMAT.md: digests from `b3sum`, frames from `zstd`), so the seeds follow the format and
not our library. Run it whenever the container's bytes change (a new digest rule, a new codec
choice); the committed seeds must open as this script says they do. Inputs are deterministic.

  open/    the level's bytes (fuzz_open.c)
  read/    a control byte (bit 0: recompute digests first; bits 1..2: workers) + the level
  stream/  a control byte (bit 0: want sections; bit 1: reseal; bits 2..7: largest piece)
           + the level (fuzz_stream.c)
"""

import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "golden"))
import blvlspec as spec  # noqa: E402
import levels  # noqa: E402


def mixed():
    """One raw section in identity, incompressible and compressible game sections, and an
    empty one: every payload shape a small level has."""
    return spec.Level([
        ("meta", b"\x00", 0, 1),
        ("x.noise", levels.noise(3000, "fz7"), 2, 0),
        ("eds.blocks", levels.text(3000, "fz3"), 1, 1),
        ("x.empty", b"", 0, 0),
    ])


def small():
    """The streaming seed: meta raw, sim compressed, eds.thumb incompressible (outside
    identity, so it can be replaced in place), eds.blocks empty and in identity."""
    return spec.Level([
        ("meta", b"hello", 0, 1),
        ("sim", levels.text(8893, "fz11"), 0, 1),
        ("eds.thumb", levels.noise(300, "fz5"), 0, 0),
        ("eds.blocks", b"", 0, 1),
    ])


def with_entry(level, index, **fields):
    """The level's bytes with fields of one table entry changed and nothing resealed."""
    b = bytearray(level.file)
    at = level.table_offset + 64 * index
    names = ("offset", "packed", "raw", "version", "flags")
    vals = list(struct.unpack_from("<QQQII", b, at + 16))
    for k, v in fields.items():
        vals[names.index(k)] = v
    struct.pack_into("<QQQII", b, at + 16, *vals)
    return bytes(b)


def flip(data, at, mask=1):
    b = bytearray(data)
    b[at] ^= mask
    return bytes(b)


def write(dirname, name, data):
    os.makedirs(dirname, exist_ok=True)
    with open(os.path.join(dirname, name), "wb") as f:
        f.write(data)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "corpus")
    m = mixed()
    z = spec.Level([("meta", b"\x00", 0, 1), ("geometry", levels.text(20000, "fz9"), 0, 1)])
    ms = spec.Level([("meta", b"\x08\x00\x00\x00", 0, 1), ("sim", b"\x08\x00\x00\x00", 0, 1)])
    empty = spec.Level([])
    noise = m.entries[1]

    good = {"empty": bytes(empty.file), "meta_sim": bytes(ms.file), "mixed": bytes(m.file),
            "zstd": bytes(z.file)}
    bad = {
        "bad-magic": flip(m.file, 0, 0x1A),                         # magic
        "bad-table-digest": flip(m.file, 30),                       # table-digest
        "bad-entry": with_entry(m, 0, raw=(1 << 32) + 1),           # raw-size
        "truncated": bytes(m.file[:2000]),                          # truncated
        "entry-empty": with_entry(m, 3, packed=0),                  # entry-empty
        "low-floor": bytes(m.file[:16]) + struct.pack("<Q", 2048) + bytes(m.file[24:]),
    }
    # The table copied to another place in the region and the offset pointed at it.
    moved = bytearray(m.file)
    t = bytes(m.file[64:64 + 64 * len(m.entries)])
    moved[1024:1024 + len(t)] = t
    struct.pack_into("<I", moved, 44, 1024)
    bad["moved-table"] = bytes(moved)

    d = os.path.join(out, "open")
    for name, data in list(good.items()) + list(bad.items()):
        write(d, name + ".blvl", data)

    d = os.path.join(out, "read")
    for name, data in good.items():
        write(d, name + ".blvl", b"\x00" + data)
        write(d, name + "-fixup.blvl", b"\x03" + data)
    write(d, "bad-entry.blvl", b"\x01" + bad["bad-entry"])
    write(d, "entry-empty.blvl", b"\x01" + bad["entry-empty"])
    # A chunk index that claims one chunk too many (the fixup reseals the digests).
    ci = bytearray(m.file)
    end = noise.offset + noise.packed_size
    struct.pack_into("<I", ci, end - 4, 2)
    write(d, "bad-chunk-index.blvl", b"\x01" + bytes(ci))
    write(d, "bad-section-digest.blvl", b"\x00" + flip(m.file, noise.offset + 10))

    d = os.path.join(out, "stream")
    s = small()
    sb = bytes(s.file)
    write(d, "small_one_byte", b"\x00" + sb)
    write(d, "small_want", b"\x01" + sb)
    write(d, "small_pieces", b"\x80" + sb)
    write(d, "small_resealed", b"\x43" + sb)
    write(d, "corrupt", b"\x25" + flip(sb, s.entries[1].offset + 7))
    write(d, "empty", b"\x03" + bytes(empty.file))
    e = small()
    e.edit_put("eds.thumb", levels.text(8893, "fz11"), 0, 384)
    write(d, "edited", b"\x21" + bytes(e.file))
    write(d, "edited_resealed", b"\x23" + bytes(e.file))


if __name__ == "__main__":
    main()

"""The golden levels: their sections, how `blvl pack` would be asked for them, and how they are
assembled by blvlspec (the independent implementation). Used by make_golden.py (writes the
committed files) and check_golden.py (builds the large multi-chunk level at test time)."""

import hashlib

import blvlspec as spec

# The smallest FlatBuffer there is: a root table with no fields (absent means empty), so a
# section layer that runs the FlatBuffers verifier over meta and sim accepts them.
#   u32 root offset 8 | vtable: u16 size 4, u16 table size 4 | table: i32 soffset 4
FB_EMPTY_12 = bytes.fromhex("08000000" "04000400" "04000000")
# The same with four bytes of padding before the vtable (a different, equally valid buffer).
FB_EMPTY_16 = bytes.fromhex("0c000000" "00000000" "04000400" "04000000")


def noise(n, seed):
    """n incompressible bytes: SHA-256 in counter mode (zstd cannot shrink them)."""
    out = bytearray()
    i = 0
    while len(out) < n:
        out += hashlib.sha256(b"%s/%d" % (seed.encode(), i)).digest()
        i += 1
    return bytes(out[:n])


WORDS = ("level brush patch face plane vertex collider portal entity light shader sky fog "
         "water lava door trigger spawn flag base bridge tower hall room corridor").split()


def text(n, seed):
    """n bytes of compressible text: numbered lines of words picked by SHA-256."""
    out = bytearray()
    i = 0
    while len(out) < n:
        h = hashlib.sha256(b"%s/%d" % (seed.encode(), i)).digest()
        words = " ".join(WORDS[b % len(WORDS)] for b in h[:8])
        out += b"%06d %s\n" % (i, words.encode())
        i += 1
    return bytes(out[:n])


def near(n, m, seed):
    """n bytes: n - m incompressible bytes, then their first m again (one match of length m).
    Chosen by m, the level-19 frame lands a few bytes under n."""
    head = noise(n - m, seed)
    return head + head[:m]


# name -> list of (tag, data, version, flags); order is table and file order.
def golden_sections():
    return {
        # count 0: header and a zeroed reserved region, nothing else.
        "empty": [],
        # meta + sim stored raw (too small for zstd to shrink), an empty section in identity
        # and an incompressible game section outside it.
        "raw": [("meta", FB_EMPTY_12, 0, 1), ("sim", FB_EMPTY_16, 0, 1),
                ("eds.empty", b"", 0, 1), ("eds.noise", noise(3000, "raw.noise"), 0, 0)],
        # one zstd chunk, in identity, at payload version 2.
        "zstd": [("meta", FB_EMPTY_12, 0, 1), ("sim", FB_EMPTY_16, 0, 1),
                 ("eds.text", text(20000, "zstd.text"), 2, 1)],
        # a game section outside identity (eds.blocks, flags 0) and one inside (eds.rules).
        "game": [("meta", FB_EMPTY_12, 0, 1), ("sim", FB_EMPTY_16, 0, 1),
                 ("eds.blocks", noise(700, "game.blocks"), 0, 0),
                 ("eds.rules", noise(200, "game.rules"), 3, 1)],
        # chunks at the edge of the codec rule (docs/FORMAT.md section 7), lengths from the zstd
        # 1.5.4 tool: R raw bytes, L1 and L19 its level-1 and level-19 frames.
        "near": [("meta", FB_EMPTY_12, 0, 1), ("sim", FB_EMPTY_16, 0, 1),
                 # R 19, L1 18, L19 18: zstd, the frame 1 byte under the chunk
                 ("eds.gap1", b"fbefbefbefbefbefbef", 0, 1),
                 # R 30, L1 26, L19 29: zstd, level 19 worse than level 1 and still 1 under
                 ("eds.gap1-l19", b"tlbvsptYbvsptlbvsptlbvsptlbvsp", 0, 1),
                 # R 18 and 24, L1 17, L19 16: zstd, 2 and 8 bytes under
                 ("eds.gap2", b"a" * 18, 0, 1), ("eds.gap8", b"a" * 24, 0, 0),
                 # R 28, L1 24, L19 28: raw (a frame as long as the chunk is not smaller)
                 ("eds.l19-equal", b"aaaaaaaaaaaaaaaaUaaaaaaaaNaa", 0, 1),
                 # R 17, L1 17, L19 16: raw, the level-1 probe decides before level 19
                 ("eds.probe", b"a" * 17, 0, 1),
                 # R 64, L1 62 (32 x 62 = 31 x 64 exactly), L19 62: raw
                 ("eds.probe-equal", near(64, 19, "near.64"), 0, 1),
                 # R 40, 64, 100, 250: L19 2, 3, 7, 8 bytes under the chunk: zstd
                 ("eds.near40", near(40, 17, "near.40"), 0, 1),
                 ("eds.near64", near(64, 20, "near.64"), 0, 0),
                 ("eds.near100", near(100, 24, "near.100"), 1, 1),
                 ("eds.near250", near(250, 25, "near.250"), 0, 1)],
        # the level "edited" starts from.
        "base": [("meta", FB_EMPTY_12, 0, 1), ("sim", FB_EMPTY_16, 0, 1),
                 ("eds.notes", noise(500, "base.notes"), 0, 0)],
    }


# The edits applied to "base" to make "edited": (tag, data, version, new table offset).
# The first replaces eds.notes (its old payload stays, unreferenced) and writes the table
# right after the old one; the second adds eds.thumb and writes the table after that, so the
# live table ends up at 448 with two dead tables in the slack before it.
def edits():
    return [("eds.notes", noise(900, "edited.notes"), 1, 64 + 3 * 64),
            ("eds.thumb", noise(300, "edited.thumb"), 0, 64 + 6 * 64)]


def multi_sections():
    """Built at test time (4 MiB + 100 bytes of text: two chunks, the first exactly 4 MiB)."""
    return [("meta", FB_EMPTY_12, 0, 1), ("sim", FB_EMPTY_16, 0, 1),
            ("eds.big", text(spec.CHUNK + 100, "multi.big"), 0, 1)]


def pack_args(sections, path_of):
    """The `blvl pack` arguments that ask for the same level."""
    args = []
    for tag, _data, version, flags in sections:
        if "." in tag and flags & spec.FLAG_IDENTITY:
            args += ["--id", tag]
        if version:
            args += ["--version", "%s=%d" % (tag, version)]
    args += ["%s=%s" % (tag, path_of(tag)) for tag, _d, _v, _f in sections]
    return args


def describe(level, file_name, input_of):
    """The expected values of a level, as check_golden.py reads them."""
    return {
        "file": file_name,
        "file_size": len(level.file),
        "floor": level.floor,
        "table_offset": level.table_offset,
        "count": len(level.entries),
        "identity": level.identity.hex(),
        "table_digest": level.table_digest.hex(),
        "sections": [{
            "tag": e.tag, "offset": e.offset, "packed_size": e.packed_size,
            "raw_size": e.raw_size, "version": e.version, "flags": e.flags,
            "digest": e.digest.hex(), "codecs": e.codecs, "input": input_of(e.tag),
        } for e in level.entries],
        "referenced": level.referenced_ranges(),
        "loose": level.loose_ranges(),
    }

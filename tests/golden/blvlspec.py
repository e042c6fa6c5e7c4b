"""An independent second implementation of the .blvl container, written from the spec
(docs/FORMAT.md) and nothing else: no code of ours is called.

Every BLAKE3-128 digest comes from the `b3sum --length 16` tool and every zstd frame from the
`zstd` tool (`zstd -1`/`zstd -19 --no-check -c FILE`: content size present, no checksum, no
dictionary id), so the golden levels built here check our C library against Debian's BLAKE3
and zstd, not against itself.

Layout assembled (all integers little-endian):

  header, 64 bytes
    0  magic 42 4C 56 4C 0D 0A 1A 0A
    8  u32 container version = 1
   12  u32 header flags = 0
   16  u64 payload floor (end of the reserved region)
   24  16-byte table digest     \
   40  u32 count                 > the 24-byte in-place commit
   44  u32 table offset         /
   48  16-byte identity
  reserved region 64..floor: the live table (count x 64-byte entries) at `table offset`,
    everything else in it is slack (zero when baked; old tables after an edit)
  payloads, each on a 64-byte boundary at or after the floor, zero padding between

  table entry, 64 bytes
    0  tag, 1..16 bytes of [a-z0-9._-], NUL-padded
   16  u64 payload offset
   24  u64 packed size
   32  u64 raw size
   40  u32 payload version
   44  u32 flags (bit 0 = identity)
   48  16-byte section digest = BLAKE3-128(packed bytes)

  payload: chunk* | index (n x 12 bytes: u32 packed, u32 raw, u8 codec, 3 zero) | u32 n
    every chunk but the last holds exactly 4 MiB raw; codec 0 raw, 1 zstd (one frame with
    the content size, no checksum, no dictionary); the codec choice of a chunk of R raw
    bytes: compress at level 1 into L1 bytes; if 32 * L1 >= 31 * R, store raw; else
    compress at level 19 into L19 bytes and store that frame if L19 < R, raw if not;
    an empty section is the 4 bytes 00 00 00 00.

  table digest = BLAKE3-128(magic | u32 1 | u32 count | u64 floor | u32 table offset | u32 0 |
                            the live entries as stored)
  identity     = BLAKE3-128(magic | u32 1 | u32 records | records sorted by tag bytes), a
                 48-byte record per identity-flagged entry: tag[16] | u32 version | u32 0 |
                 u64 raw size | digest[16]

A baker reserves 2*count+16 slots, rounds 64+64*slots up to 4 KiB for the floor, writes the
table at 64 and the payloads in the order given from the floor on; the file ends at the last
payload's last byte.
"""

import os
import struct
import subprocess
import tempfile

MAGIC = b"BLVL\r\n\x1a\n"
VERSION = 1
HEADER = 64
ENTRY = 64
CHUNK = 4 << 20
FLAG_IDENTITY = 1
CODEC_RAW = 0
CODEC_ZSTD = 1


def b3(data):
    """BLAKE3-128 from the b3sum tool."""
    out = subprocess.run(["b3sum", "--length", "16", "--raw", "-"], input=data,
                         stdout=subprocess.PIPE, check=True).stdout
    assert len(out) == 16
    return out


def b3_file_range(path, offset, size):
    """BLAKE3-128 of bytes [offset, offset+size) of a file, cut out with dd and hashed by b3sum."""
    cmd = ("dd if=%s iflag=skip_bytes,count_bytes skip=%d count=%d status=none"
           " | b3sum --length 16 --no-names" % (sh_quote(path), offset, size))
    out = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], stdout=subprocess.PIPE,
                         check=True).stdout
    return bytes.fromhex(out.decode().strip())


def sh_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def zstd_frame_info(frame):
    """(content size or None, checksum flag, dictionary id flag) from a frame header."""
    if len(frame) < 6 or frame[:4] != b"\x28\xb5\x2f\xfd":
        raise ValueError("not a zstd frame")
    fhd = frame[4]
    fcs_flag = fhd >> 6
    single = (fhd >> 5) & 1
    checksum = (fhd >> 2) & 1
    did_flag = fhd & 3
    pos = 5 + (0 if single else 1) + (0, 1, 2, 4)[did_flag]
    size_len = (1 if single else 0, 2, 4, 8)[fcs_flag]
    if size_len == 0:
        return None, checksum, did_flag
    raw = frame[pos:pos + size_len]
    value = int.from_bytes(raw, "little")
    if size_len == 2:
        value += 256
    return value, checksum, did_flag


def zstd_at(level, data):
    """One zstd frame at `level` from the zstd tool: content size present (the tool knows the
    size of a file argument), no checksum, no dictionary id, every other parameter the level's
    default. The tool writes the frame whatever its size: one a few bytes smaller than the
    chunk is kept (docs/FORMAT.md section 7), and this is what a writer must reproduce."""
    with tempfile.NamedTemporaryFile(delete=False) as f:
        f.write(data)
        name = f.name
    try:
        frame = subprocess.run(["zstd", "-%d" % level, "--no-check", "-q", "-c", name],
                               stdout=subprocess.PIPE, check=True).stdout
    finally:
        os.unlink(name)
    size, checksum, did = zstd_frame_info(frame)
    assert size == len(data) and checksum == 0 and did == 0, "unexpected zstd frame header"
    return frame


def zstd_version():
    """The zstd tool's version, e.g. "1.5.4" (from `zstd -V`)."""
    out = subprocess.run(["zstd", "-V"], stdout=subprocess.PIPE, check=True).stdout.decode()
    word = next(w for w in out.split() if w.startswith("v") and w[1:2].isdigit())
    return word[1:].rstrip(",")


def unzstd(frame):
    """Inflate one frame with the zstd tool."""
    return subprocess.run(["zstd", "-d", "-q", "-c"], input=frame, stdout=subprocess.PIPE,
                          check=True).stdout


def chunk_frame(raw):
    """The codec choice (docs/FORMAT.md section 7): the zstd frame a chunk is stored as, or
    None when it is stored raw. Level 1 first; a chunk it cannot bring under 31/32 of its raw
    size (32 * L1 >= 31 * R, exact in integers) is stored raw without trying level 19."""
    if 32 * len(zstd_at(1, raw)) >= 31 * len(raw):
        return None
    z = zstd_at(19, raw)
    return z if len(z) < len(raw) else None


def pack_payload(data):
    """The packed payload of a section and the codec of each chunk."""
    chunks, index, codecs = [], [], []
    for start in range(0, len(data), CHUNK):
        raw = data[start:start + CHUNK]
        z = chunk_frame(raw)
        if z is not None:
            chunks.append(z)
            codecs.append(CODEC_ZSTD)
            index.append(struct.pack("<IIB3x", len(z), len(raw), CODEC_ZSTD))
        else:
            chunks.append(raw)
            codecs.append(CODEC_RAW)
            index.append(struct.pack("<IIB3x", len(raw), len(raw), CODEC_RAW))
    payload = b"".join(chunks) + b"".join(index) + struct.pack("<I", len(chunks))
    return payload, codecs


def roundup(n, m):
    return (n + m - 1) // m * m


def tag_bytes(tag):
    b = tag.encode("ascii")
    assert 1 <= len(b) <= 16 and all(c in b"abcdefghijklmnopqrstuvwxyz0123456789._-" for c in b)
    return b.ljust(16, b"\0")


def floor_for(count):
    return roundup(HEADER + ENTRY * (2 * count + 16), 4096)


class Entry:
    def __init__(self, tag, offset, packed, raw_size, version, flags, digest, codecs):
        self.tag, self.offset, self.packed_size = tag, offset, len(packed)
        self.raw_size, self.version, self.flags, self.digest = raw_size, version, flags, digest
        self.codecs = codecs

    def encode(self):
        return tag_bytes(self.tag) + struct.pack(
            "<QQQII", self.offset, self.packed_size, self.raw_size, self.version,
            self.flags) + self.digest


def table_digest_bytes(count, floor, table_offset, table):
    """BLAKE3-128(magic | u32 1 | u32 count | u64 floor | u32 table offset | u32 0 | table)."""
    return b3(MAGIC + struct.pack("<IIQII", VERSION, count, floor, table_offset, 0) + table)


def table_digest(entries, floor, table_offset):
    return table_digest_bytes(len(entries), floor, table_offset,
                              b"".join(e.encode() for e in entries))


def table_digest_of(p):
    """The table digest of a parse()d level, recomputed from its header fields and table."""
    return table_digest_bytes(p["count"], p["floor"], p["table_offset"], p["table_bytes"])


def identity(entries):
    recs = sorted((e for e in entries if e.flags & FLAG_IDENTITY), key=lambda e: tag_bytes(e.tag))
    body = b"".join(tag_bytes(e.tag) + struct.pack("<IIQ", e.version, 0, e.raw_size) + e.digest
                    for e in recs)
    return b3(MAGIC + struct.pack("<II", VERSION, len(recs)) + body)


class Level:
    """A level under construction: the file bytes, the live entries and where the table is."""

    def __init__(self, sections):
        """Bake: sections is a list of (tag, data, version, flags), laid out in that order."""
        self.floor = floor_for(len(sections))
        self.file = bytearray(self.floor)
        self.entries = []
        self.table_offset = HEADER
        for tag, data, version, flags in sections:
            if "." not in tag:
                flags |= FLAG_IDENTITY  # core tags are always in identity
            self.entries.append(self._append(tag, data, version, flags))
        self._write_table(HEADER)
        self.identity = identity(self.entries)
        self._commit()
        self.file[0:24] = MAGIC + struct.pack("<IIQ", VERSION, 0, self.floor)
        self.file[48:64] = self.identity

    def _append(self, tag, data, version, flags):
        """Append a payload on the next 64-byte boundary (zero padding) and return its entry."""
        packed, codecs = pack_payload(data)
        offset = roundup(len(self.file), 64)
        self.file.extend(b"\0" * (offset - len(self.file)))
        self.file.extend(packed)
        return Entry(tag, offset, packed, len(data), version, flags, b3(packed), codecs)

    def _write_table(self, offset):
        table = b"".join(e.encode() for e in self.entries)
        assert offset % 64 == 0 and HEADER <= offset and offset + len(table) <= self.floor
        self.file[offset:offset + len(table)] = table
        self.table_offset = offset

    def _commit(self):
        """The 24 bytes at offset 24: table digest, count, table offset."""
        self.table_digest = table_digest(self.entries, self.floor, self.table_offset)
        self.file[24:48] = self.table_digest + struct.pack("<II", len(self.entries),
                                                           self.table_offset)

    def edit_put(self, tag, data, version, table_offset):
        """Add or replace a section outside identity in place: payload appended, the new table
        written to a free part of the reserved region, then the commit. A replaced payload
        stays in the file, unreferenced."""
        entry = self._append(tag, data, version, 0)
        for i, e in enumerate(self.entries):
            if e.tag == tag:
                assert not e.flags & FLAG_IDENTITY
                self.entries[i] = entry
                break
        else:
            self.entries.append(entry)
        self._write_table(table_offset)
        self._commit()

    def referenced_ranges(self):
        """Byte ranges every reader depends on: header, live table, payloads."""
        r = [(0, HEADER), (self.table_offset, self.table_offset + ENTRY * len(self.entries))]
        r += [(e.offset, e.offset + e.packed_size) for e in self.entries]
        return r

    def loose_ranges(self):
        """Bytes a flip of which may or may not be refused: none. The table digest covers the
        floor and the table offset too, so even an empty table's offset is pinned."""
        return []


def parse(data):
    """Read a level back from its bytes (header, table, entries); no checks beyond shape."""
    assert data[:8] == MAGIC
    version, flags, floor = struct.unpack_from("<IIQ", data, 8)
    tdig = data[24:40]
    count, toff = struct.unpack_from("<II", data, 40)
    ident = data[48:64]
    entries = []
    for i in range(count):
        b = data[toff + 64 * i:toff + 64 * (i + 1)]
        tag = b[:16].rstrip(b"\0").decode("ascii")
        off, packed, raw, ver, fl = struct.unpack_from("<QQQII", b, 16)
        e = Entry(tag, off, b"", raw, ver, fl, b[48:64], None)
        e.packed_size = packed
        entries.append(e)
    return {"version": version, "flags": flags, "floor": floor, "table_digest": tdig,
            "count": count, "table_offset": toff, "identity": ident, "entries": entries,
            "table_bytes": data[toff:toff + 64 * count]}


def parse_chunks(packed):
    """(packed offset, packed size, raw size, codec) of every chunk of a payload."""
    (n,) = struct.unpack_from("<I", packed, len(packed) - 4)
    idx = len(packed) - 4 - 12 * n
    assert idx >= 0
    out, pos = [], 0
    for i in range(n):
        p, r, codec = struct.unpack_from("<IIB", packed, idx + 12 * i)
        assert packed[idx + 12 * i + 9:idx + 12 * i + 12] == b"\0\0\0"
        out.append((pos, p, r, codec))
        pos += p
    assert pos == idx, "chunks do not tile the bytes before the index"
    return out

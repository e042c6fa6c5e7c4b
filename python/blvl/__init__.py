"""blvl: read, verify, bake and trace .blvl levels from Python (docs/PYTHON.md).

A binding over the C libraries (libblvl, libblvl-http, libblvl-tools) through a compiled cffi
extension: the library does the work, Python gets numbers, bytes, dicts and numpy arrays.
Every refused input raises blvl.Error, whose .rule is the rule name the blvl program prints.
"""
import json as _json
import os as _os
import re as _re
from collections import namedtuple as _namedtuple

import numpy as _np

from ._native import ffi as _ffi, lib as _lib

__all__ = ["Error", "Level", "World", "Entry", "TraceResult", "open", "bake", "pack",
           "version", "status_name"]

# ---- statuses and errors -------------------------------------------------------------------

_STATUS = {}  # rule name -> status code, read from the library's own table
for _code in range(256):
    _name = _ffi.string(_lib.blvl_status_name(_code)).decode()
    if _name == "unknown":
        break
    _STATUS[_name] = _code
_E_ARGUMENT = _STATUS["argument"]
_E_NOT_FOUND = _STATUS["not-found"]
_E_IO = _STATUS["io"]

# A source refusal's message is "<part>: <field> at offset N: <rule>: <problem>" (no status
# prefix; docs/IMPORT.md): its rule is the importer's.
_SOURCE_RULE = _re.compile(r"^.*? at offset \d+: ([a-z0-9][a-z0-9_-]*): ")


def status_name(code):
    """The stable short name of a status code ("table-digest", ...)."""
    return _ffi.string(_lib.blvl_status_name(code)).decode()


def version():
    """The version of the libblvl this module runs on."""
    return _ffi.string(_lib.blvl_version_string()).decode()


class Error(Exception):
    """A refusal: .status is the blvl_status code, .rule its rule name as the blvl program
    prints it (the importer's rule for a source map's refusal), .message the library's one-line
    message (starting with the rule for all but source refusals), .path what it was about."""

    def __init__(self, status, message, path=None):
        self.status = status
        self.message = message
        self.path = path
        self.rule = status_name(status)
        if self.rule == "source":
            m = _SOURCE_RULE.match(message)
            if m:
                self.rule = m.group(1)
        super().__init__("%s: %s" % (path, message) if path else message)


def _fail(err, path=None):
    message = _ffi.string(err.message).decode("utf-8", "replace")
    raise Error(err.code, message or status_name(err.code), path)


def _refuse(status, text, path=None):
    raise Error(status, "%s: %s" % (status_name(status), text), path)


def _path_bytes(path):
    return _os.fsencode(path) if isinstance(path, (str, bytes, _os.PathLike)) else path


def _hex(digest):
    out = _ffi.new("char[33]")
    _lib.blvl_hex(digest, out)
    return _ffi.string(out).decode()


def _tag_bytes(tag):
    if not isinstance(tag, str):
        raise TypeError("a tag is a str, not %s" % type(tag).__name__)
    return tag.encode()


# ---- bytes the library hands out, kept alive by what views them ----------------------------

def _owned_buffer(level_ptr, bytes_ptr):
    """A writable-flagged cffi buffer over a blvl_bytes; the bytes (and the level they may
    borrow from) are released when the last view of the buffer goes. Arrays made over it are
    marked read-only by the callers (a mapped level is read-only memory)."""
    size = bytes_ptr.size
    if size == 0:
        _lib.blvl_bytes_free(bytes_ptr)
        return None

    def release(_p, b=bytes_ptr, keep=level_ptr):
        _lib.blvl_bytes_free(b)

    owner = _ffi.gc(_ffi.cast("uint8_t *", bytes_ptr.data), release, size)
    return _ffi.buffer(owner, size)


def _readonly(array):
    array.flags.writeable = False
    return array


# ---- levels ----------------------------------------------------------------------------------

Entry = _namedtuple("Entry", "tag version raw_size packed_size identity flags digest offset")
Entry.__doc__ = """One table entry: identity is True when the section is in the level's
identity; digest is the section's BLAKE3-128 as 32 hex digits."""

_CORE_TAGS = []
for _i in range(64):
    _t = _lib.blvl_core_tag_at(_i)
    if _t == _ffi.NULL:
        break
    _CORE_TAGS.append(_ffi.string(_t).decode())
_CORE_TAGS = tuple(_CORE_TAGS)


def open(path_or_url, *, threads=0, cache=None):  # noqa: A001 (the module's verb, as io.open)
    """Open and validate a level: a file, or an http(s):// URL (through libblvl-http).
    threads: inflation workers (0 = online CPUs), also the default of World.trace_many.
    cache: for a URL, the section cache's folder ("" = the default place, None = off)."""
    return Level(path_or_url, threads=threads, cache=cache)


class Level:
    """An open level (a context manager; close() or the end of a with block releases it).
    Arrays and buffers handed out keep the library's memory alive on their own: closing the
    level does not invalidate them, and a World built from it needs nothing of it."""

    def __init__(self, path_or_url, *, threads=0, cache=None):
        self.path = _os.fspath(path_or_url) if not isinstance(path_or_url, str) else path_or_url
        self.threads = int(threads)
        self._cache = cache
        self._h = None
        self._open()

    def _open(self):
        err = _ffi.new("blvl_error *")
        out = _ffi.new("blvl_level **")
        raw = _path_bytes(self.path)
        if isinstance(self.path, str) and _lib.blvl_is_url(raw):
            opt = _ffi.new("blvl_http_options *")
            opt.base.threads = self.threads
            keep = None
            if self._cache is not None:
                keep = _ffi.new("char[]", _os.fsencode(self._cache))
                opt.cache_dir = keep
            st = _lib.blvl_open_url(out, raw, opt, err)
        else:
            opt = _ffi.new("blvl_options *")
            opt.threads = self.threads
            st = _lib.blvl_open_file(out, raw, opt, err)
        if st != 0:
            _fail(err, self.path)
        self._h = _ffi.gc(out[0], _lib.blvl_close)

    def _handle(self):
        if self._h is None:
            _refuse(_E_ARGUMENT, "the level is closed", self.path)
        return self._h

    def close(self):
        """Release the level (memory still viewed by arrays is released with the last one)."""
        self._h = None

    @property
    def closed(self):
        return self._h is None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __repr__(self):
        state = "closed" if self._h is None else self.identity
        return "<blvl.Level %r %s>" % (self.path, state)

    # -- header and table --

    def _info(self):
        info = _ffi.new("blvl_info *")
        _lib.blvl_get_info(self._handle(), info)
        return info

    @property
    def identity(self):
        """The level's name: 32 lowercase hex digits (what `blvl identity` prints)."""
        info = self._info()  # held: a field's cdata does not keep its struct alive
        return _hex(info.identity)

    @property
    def table_digest(self):
        info = self._info()
        return _hex(info.table_digest)

    def info(self):
        """The header's facts, as `blvl info --json` names them."""
        i = self._info()
        return {"file_size": i.file_size, "floor": i.floor, "table_offset": i.table_offset,
                "count": i.count, "capacity": i.capacity, "covered": i.covered,
                "unreferenced": i.unreferenced, "identity": _hex(i.identity),
                "table_digest": _hex(i.table_digest)}

    def tags(self):
        """The sections' tags in table order."""
        h = self._handle()
        return [_ffi.string(_lib.blvl_entry_at(h, i).tag).decode()
                for i in range(_lib.blvl_count(h))]

    @staticmethod
    def _entry(e):
        return Entry(_ffi.string(e.tag).decode(), e.version, e.raw_size, e.packed_size,
                     bool(e.flags & _lib.BLVL_ENTRY_FLAG_IDENTITY), e.flags, _hex(e.digest),
                     e.offset)

    def entries(self):
        h = self._handle()
        return [self._entry(_lib.blvl_entry_at(h, i)) for i in range(_lib.blvl_count(h))]

    def entry(self, tag):
        """The table entry of `tag` (blvl.Error not-found when there is none)."""
        e = _lib.blvl_find(self._handle(), _tag_bytes(tag))
        if e == _ffi.NULL:
            _refuse(_E_NOT_FOUND, "no section '%s'" % tag, self.path)
        return self._entry(e)

    def __contains__(self, tag):
        return _lib.blvl_find(self._handle(), _tag_bytes(tag)) != _ffi.NULL

    # -- sections --

    def read(self, tag, *, copy=True):
        """A section's inflated bytes, digest and chunks checked (what `blvl cat` writes).
        copy=False: a read-only memoryview over the library's memory instead (no copy; the
        file's own pages when the section is stored raw), valid as long as it is referenced."""
        h = self._handle()
        b = _ffi.new("blvl_bytes *")
        err = _ffi.new("blvl_error *")
        if _lib.blvl_read(h, _tag_bytes(tag), b, err) != 0:
            _fail(err, self.path)
        if copy:
            data = _ffi.unpack(_ffi.cast("char *", b.data), b.size) if b.size else b""
            _lib.blvl_bytes_free(b)
            return data
        buf = _owned_buffer(h, b)
        return memoryview(b"") if buf is None else memoryview(buf).toreadonly()

    def verify(self):
        """Check every section: digests, chunks, inflation, then the FlatBuffers and level
        rules of the core sections (what `blvl verify` checks). Returns None or raises."""
        h = self._handle()
        err = _ffi.new("blvl_error *")
        if _lib.blvl_verify(h, err) != 0 or _lib.blvl_sections_verify(h, err) != 0:
            _fail(err, self.path)

    def _section_buffer(self, tag):
        h = self._handle()
        b = _ffi.new("blvl_bytes *")
        root = _ffi.new("uint8_t **")
        err = _ffi.new("blvl_error *")
        if _lib.blvl_level_section(h, _tag_bytes(tag), b, root, err) != 0:
            _fail(err, self.path)
        size = b.size
        return _owned_buffer(h, b), size

    def section(self, tag):
        """A core section as a dict: json.loads of exactly the JSON `blvl dump LEVEL TAG`
        prints (the library's printer, the schema's field names)."""
        buf, size = self._section_buffer(tag)
        text = _ffi.new("char **")
        length = _ffi.new("size_t *")
        err = _ffi.new("blvl_error *")
        data = _ffi.from_buffer(buf) if buf is not None else _ffi.NULL
        if _lib.blvl_section_to_json(text, length, _tag_bytes(tag), data, size, 0, _ffi.NULL,
                                     err) != 0:
            _fail(err, self.path)
        try:
            return _json.loads(_ffi.unpack(text[0], length[0]).decode("utf-8"))
        finally:
            _lib.blvl_free(_ffi.NULL, text[0])

    def __getattr__(self, name):
        # Level.meta, Level.sim, ...: the core sections as dicts.
        if name in _CORE_TAGS:
            return self.section(name)
        raise AttributeError(name)

    # -- arrays --

    def geometry_arrays(self):
        """The geometry section as numpy arrays over the library's memory, no per-vertex copy:
        vertices (the 52-byte vertex as a structured array), positions (N, 3) float32, normals
        (N, 3), uvs (N, 2), lightmap_uvs (N, 2), colors (N, 4) uint8, tangents (N, 4) int16
        (strided views of vertices), indices (M,) uint32, and batches (a structured array, one
        row per draw). All read-only; they keep the section's memory alive themselves."""
        buf, size = self._section_buffer("geometry")
        voff, vcount = _ffi.new("size_t *"), _ffi.new("uint32_t *")
        ioff, icount = _ffi.new("size_t *"), _ffi.new("uint32_t *")
        bcount = _ffi.new("uint32_t *")
        base = _ffi.from_buffer(buf)
        if not _lib.pyblvl_geometry(base, size, voff, vcount, ioff, icount, bcount):
            _refuse(_STATUS["flatbuffer"], "geometry: a vector runs past the section", self.path)
        # over a read-only view: the arrays cannot be made writable (a mapped file's pages are
        # read-only memory)
        ro = memoryview(buf).toreadonly()
        vertices = _readonly(_np.frombuffer(ro, dtype=VERTEX_DTYPE, count=vcount[0],
                                            offset=voff[0] if vcount[0] else 0))
        indices = _readonly(_np.frombuffer(ro, dtype="<u4", count=icount[0],
                                           offset=ioff[0] if icount[0] else 0))
        batches = _np.zeros(bcount[0], dtype=BATCH_DTYPE)
        if bcount[0]:
            _lib.pyblvl_batches(base, _ffi.cast("pyblvl_batch *", _ffi.from_buffer(batches)),
                                bcount[0])
        return {"vertices": vertices, "positions": vertices["position"],
                "normals": vertices["normal"], "uvs": vertices["uv"],
                "lightmap_uvs": vertices["lightmap_uv"], "colors": vertices["color"],
                "tangents": vertices["tangent"], "indices": indices,
                "batches": _readonly(batches)}

    def colliders(self):
        """The sim colliders' stored bounds as (N, 2, 3) float32 (lo, hi) and flags as (N,)
        uint32, filled in C (one pass over the FlatBuffer's tables)."""
        buf, _size = self._section_buffer("sim")
        base = _ffi.from_buffer(buf)
        n = _lib.pyblvl_collider_count(base)
        bounds = _np.zeros((n, 2, 3), dtype=_np.float32)
        flags = _np.zeros(n, dtype=_np.uint32)
        if n:
            _lib.pyblvl_colliders(base, _ffi.cast("float *", _ffi.from_buffer(bounds)),
                                  _ffi.cast("uint32_t *", _ffi.from_buffer(flags)), n)
        return {"bounds": bounds, "flags": flags}

    # -- trace --

    def trace_world(self):
        """The level's collision world (its sim colliders, expanded once). The world owns its
        memory: it stays valid after the level is closed."""
        err = _ffi.new("blvl_error *")
        out = _ffi.new("blvl_trace_world **")
        opt = _ffi.new("blvl_trace_options *")
        opt.base.threads = self.threads
        if _lib.blvl_trace_world_from_level(out, self._handle(), opt, err) != 0:
            _fail(err, self.path)
        return World(_ffi.gc(out[0], _lib.blvl_trace_world_free), self.threads)

    # -- edits --

    def put(self, tag, data, *, version=0):
        """Add or replace a section outside identity, in place (as `blvl put`); the level is
        then opened again, so this object sees the new table. data: bytes-like."""
        self._handle()
        ptr = _ffi.from_buffer("char[]", data)  # any bytes-like object, no copy
        err = _ffi.new("blvl_error *")
        st = _lib.blvl_edit_put(_path_bytes(self.path), _tag_bytes(tag), version, ptr, len(ptr),
                                _ffi.NULL, err)
        if st != 0:
            _fail(err, self.path)
        self._reopen()

    def drop(self, tag):
        """Drop a section outside identity, in place (as `blvl drop`); then reopen."""
        self._handle()
        err = _ffi.new("blvl_error *")
        if _lib.blvl_edit_drop(_path_bytes(self.path), _tag_bytes(tag), _ffi.NULL, err) != 0:
            _fail(err, self.path)
        self._reopen()

    def _reopen(self):
        self._h = None
        self._open()

    # -- probe --

    def probe(self, pose, *, image=None, colliders=False, textures=True):
        """What a player at `pose` sees and stands in, as `blvl probe --json` prints it (without
        the symbols' sources): a dict with pose, view, geometry, eye, feet, floor, spawn and
        damaged. pose: (x, y, z, yaw, pitch[, roll]) or a dict with pos, yaw, pitch, roll, fov
        (degrees; fov 0 = 90). image=(width, height): also render the view, returned as
        (dict, (height, width, 4) uint8 array); colliders draws their outlines, textures=False
        shades by normal."""
        pp = _ffi.new("blvl_probe_pose *")
        if isinstance(pose, dict):
            pp.pos = [float(x) for x in pose["pos"]]
            pp.yaw, pp.pitch = float(pose.get("yaw", 0)), float(pose.get("pitch", 0))
            pp.roll, pp.fov_x = float(pose.get("roll", 0)), float(pose.get("fov", 0))
        else:
            v = [float(x) for x in pose]
            if len(v) not in (5, 6):
                raise ValueError("pose is (x, y, z, yaw, pitch[, roll])")
            pp.pos = v[:3]
            pp.yaw, pp.pitch = v[3], v[4]
            pp.roll = v[5] if len(v) == 6 else 0.0
        if not pp.fov_x > 0:
            pp.fov_x = 90.0
        err = _ffi.new("blvl_error *")
        out = _ffi.new("blvl_probe **")
        if _lib.blvl_probe_new(out, self._handle(), _ffi.NULL, err) != 0:
            _fail(err, self.path)
        probe = _ffi.gc(out[0], _lib.blvl_probe_free)
        if image is not None and textures and _lib.blvl_probe_load_pictures(probe, err) != 0:
            _fail(err, self.path)
        r = _ffi.new("blvl_probe_result *")
        _lib.blvl_probe_look(probe, pp, r)
        found = _probe_dict(probe, pp, r)
        if image is None:
            return found
        w, h = (int(x) for x in image)
        if not (0 < w <= _lib.BLVL_PROBE_MAX_SIZE and 0 < h <= _lib.BLVL_PROBE_MAX_SIZE):
            raise ValueError("image is (width, height), each 1..%d" % _lib.BLVL_PROBE_MAX_SIZE)
        rgba = _np.zeros((h, w, 4), dtype=_np.uint8)
        flags = (_lib.BLVL_PROBE_RENDER_COLLIDERS if colliders else 0) | \
            (0 if textures else _lib.BLVL_PROBE_RENDER_NO_TEXTURES)
        if _lib.blvl_probe_render(probe, pp, w, h, flags,
                                  _ffi.cast("uint8_t *", _ffi.from_buffer(rgba)), err) != 0:
            _fail(err, self.path)
        return found, rgba

    # -- diag --

    def diag(self, symbols=None):
        """The findings of every check (what `blvl diag --json` lists): dicts with code,
        severity, section, index (None for a whole section), message and source (None without
        symbols). symbols: the level's .bsym path, or None."""
        h = self._handle()
        opt = _ffi.new("blvl_diag_options *")
        keep = None
        if symbols is not None:
            with _open_file(symbols) as f:
                keep = f.read()
            opt.symbols_data = _ffi.from_buffer(keep) if keep else _ffi.NULL
            opt.symbols_size = len(keep)
        out = _ffi.new("blvl_diag_findings **")
        err = _ffi.new("blvl_error *")
        if _lib.blvl_diag_collect(out, h, opt, err) != 0:
            _fail(err, self.path)
        f = out[0]
        try:
            found = []
            for i in range(f.count):
                x = f.items[i]
                found.append({
                    "code": _ffi.string(x.code).decode(),
                    "severity": _ffi.string(_lib.blvl_diag_severity_name(x.severity)).decode(),
                    "section": _ffi.string(x.section).decode(),
                    "index": None if x.index == _lib.BLVL_DIAG_NONE else x.index,
                    "message": _ffi.string(x.message).decode("utf-8", "replace"),
                    "source": _ffi.string(x.source).decode("utf-8", "replace") or None})
            return found
        finally:
            _lib.blvl_diag_findings_free(f)


def _index(i):
    return None if i == NONE else int(i)


def _probe_dict(probe, pose, r):
    """blvl probe --json's record (cli/cmd_probe.c), field for field, without sources."""
    def name(text):
        return _ffi.string(text).decode("utf-8", "replace")

    def hit_fields(hit, distance, point, normal):
        return {"hit": int(bool(hit)), "distance": distance, "point": list(point),
                "normal": list(normal)}

    def contents(c):
        return {"at": list(c.point), "count": c.count, "flags": c.flags,
                "collider": _index(c.collider), "water": int(bool(c.water)),
                "water_material": _index(c.water_material)}

    vh = r.view.collider != NONE
    n = r.view.plane.normal
    view = hit_fields(vh, r.view_distance, r.view.endpos, (n.x, n.y, n.z))
    view.update(startsolid=int(bool(r.view.startsolid)), collider=_index(r.view.collider),
                flags=r.view.flags, material=_index(r.view.material if vh else NONE),
                material_name=name(_lib.blvl_probe_material_name(probe, r.view.material))
                if vh else "")
    t = r.tri
    geo = hit_fields(t.hit, t.distance if t.hit else _lib.BLVL_PROBE_VIEW_RANGE, t.point,
                     t.normal)
    geo.update(front=int(bool(t.front)), triangle=_index(t.triangle), batch=_index(t.batch),
               material=_index(t.material),
               material_name=name(_lib.blvl_probe_material_name(probe, t.material)))
    floor = hit_fields(r.floor_hit, r.floor_distance, r.floor_point, r.floor_normal)
    floor.update(startsolid=int(bool(r.floor_startsolid)), collider=_index(r.floor_collider))
    spawn = {"index": _index(r.spawn), "kind": name(_lib.blvl_probe_spawn_kind(probe, r.spawn)),
             "distance": 0.0 if r.spawn == NONE else r.spawn_distance,
             "position": list(r.spawn_position), "yaw": r.spawn_yaw}
    count = _ffi.new("uint32_t *")
    d = _lib.blvl_probe_damaged(probe, count)
    damaged = [{"section": name(d[i].section), "rule": status_name(d[i].error.code),
                "message": name(d[i].error.message)} for i in range(count[0])]
    return {"pose": {"pos": list(pose.pos), "yaw": pose.yaw, "pitch": pose.pitch,
                     "roll": pose.roll, "fov": pose.fov_x, "dir": list(r.dir)},
            "view": view, "geometry": geo, "eye": contents(r.at_eye),
            "feet": contents(r.at_feet), "floor": floor, "spawn": spawn, "damaged": damaged}


def _open_file(path):
    import builtins
    try:
        return builtins.open(path, "rb")
    except OSError as e:
        _refuse(_E_IO, "cannot open: %s" % e.strerror, _os.fspath(path))


# ---- dtypes over the library's structs (offsets from the compiled header, not guessed) -------

VERTEX_DTYPE = _np.dtype({
    "names": ["position", "normal", "uv", "lightmap_uv", "color", "tangent"],
    "formats": [("<f4", 3), ("<f4", 3), ("<f4", 2), ("<f4", 2), ("u1", 4), ("<i2", 4)],
    "offsets": [0, 12, 24, 32, 40, 44], "itemsize": 52})


def _struct_dtype(ctype, fields):
    names, formats, offsets = [], [], []
    for name, cfield, fmt, extra in fields:
        names.append(name)
        formats.append(fmt)
        offsets.append(_ffi.offsetof(ctype, cfield) + extra)
    return _np.dtype({"names": names, "formats": formats, "offsets": offsets,
                      "itemsize": _ffi.sizeof(ctype)})


BATCH_DTYPE = _struct_dtype("pyblvl_batch", [
    ("first_index", "first_index", "<u4", 0), ("index_count", "index_count", "<u4", 0),
    ("material", "material", "<u4", 0), ("lo", "lo", ("<f4", 3), 0), ("hi", "hi", ("<f4", 3), 0),
    ("breakable", "breakable", "<u4", 0), ("door", "door", "<u4", 0), ("fog", "fog", "<u4", 0),
    ("gametypes", "gametypes", "<u4", 0), ("lightmap_layer", "lightmap_layer", "<u2", 0)])

_DIST = _ffi.offsetof("blvl_Plane", "dist")
TRACE_DTYPE = _struct_dtype("blvl_trace_result", [
    ("fraction", "fraction", "<f4", 0), ("end", "endpos", ("<f4", 3), 0),
    ("normal", "plane", ("<f4", 3), 0), ("dist", "plane", "<f4", _DIST),
    ("startsolid", "startsolid", "?", 0), ("allsolid", "allsolid", "?", 0),
    ("collider", "collider", "<u4", 0), ("flags", "flags", "<u4", 0),
    ("material", "material", "<u4", 0)])

NONE = 0xFFFFFFFF  # "no index" in the arrays (None in single results)

# ---- trace -------------------------------------------------------------------------------------

TraceResult = _namedtuple("TraceResult",
                          "fraction end normal dist startsolid allsolid collider flags material")
TraceResult.__doc__ = """One box trace (docs/TRACE.md): collider and material are None when
nothing was hit; end and normal are 3-tuples."""

_MOVERS = {"player": 0, "shot": 1}


def _filter(mover, include, exclude, gametype):
    f = _ffi.new("blvl_trace_filter *")
    if include or exclude:
        if mover not in (None, "custom"):
            raise ValueError("mover and include/exclude exclude each other (as --as does)")
        f.mover = _lib.BLVL_TRACE_AS_CUSTOM
        f.include, f.exclude = int(include), int(exclude)
    else:
        m = "player" if mover is None else mover
        if m not in _MOVERS:
            raise ValueError("mover is 'player' or 'shot', not %r" % (mover,))
        f.mover = _lib.BLVL_TRACE_AS_SHOT if m == "shot" else _lib.BLVL_TRACE_AS_PLAYER
    if gametype is not None:
        if not 0 <= int(gametype) <= 31:
            raise ValueError("gametype is a match type 0..31")
        f.gametypes = 1 << int(gametype)
    return f


def _box(box):
    if box is None:
        return _ffi.NULL, _ffi.NULL
    mins, maxs = box
    mins, maxs = [float(x) for x in mins], [float(x) for x in maxs]
    if len(mins) != 3 or len(maxs) != 3:
        raise ValueError("box is (mins, maxs), three numbers each")
    if any(a > b for a, b in zip(mins, maxs)):
        raise ValueError("box: mins must not exceed maxs")
    return _ffi.new("float[3]", mins), _ffi.new("float[3]", maxs)


def _points(a, name):
    arr = _np.ascontiguousarray(a, dtype=_np.float32)
    if arr.ndim != 2 or arr.shape[1] != 3:
        raise ValueError("%s: an (N, 3) array, not shape %s" % (name, arr.shape))
    return arr


class World:
    """A level's collision world (Level.trace_world()). Immutable; safe to trace from many
    threads; owns its memory."""

    def __init__(self, handle, threads):
        self._w = handle
        self.threads = threads

    @property
    def collider_count(self):
        return _lib.blvl_trace_world_collider_count(self._w)

    def trace(self, start, end, box=None, *, mover=None, include=0, exclude=0, gametype=None):
        """Sweep box (mins, maxs) from start to end (a ray without box). mover: 'player'
        (default) or 'shot'; include/exclude: a custom mover's masks (as blvl trace's --as,
        --include, --exclude); gametype: only colliders of that match type."""
        f = _filter(mover, include, exclude, gametype)
        mins, maxs = _box(box)
        if mins == _ffi.NULL:
            mins = maxs = _ffi.new("float[3]")
        r = _ffi.new("blvl_trace_result *")
        _lib.blvl_trace_box(self._w, f, [float(x) for x in start], [float(x) for x in end],
                            mins, maxs, r)
        return TraceResult(r.fraction, tuple(r.endpos),
                           (r.plane.normal.x, r.plane.normal.y, r.plane.normal.z), r.plane.dist,
                           bool(r.startsolid), bool(r.allsolid),
                           None if r.collider == NONE else r.collider, r.flags,
                           None if r.material == NONE else r.material)

    def trace_many(self, starts, ends, box=None, *, mover=None, include=0, exclude=0,
                   gametype=None, threads=None, out=None):
        """One box swept along each segment starts[i] -> ends[i] ((N, 3) arrays): a structured
        numpy array of N results with the fields of TraceResult (res["fraction"], res["end"],
        ...; collider and material are blvl.NONE when nothing was hit). One library call
        (blvl_trace_box_many) with the GIL released, on `threads` workers (None = the level's
        threads option; 0 = online CPUs). out: a result array of this length and dtype
        (blvl.TRACE_DTYPE) to fill instead of a new one, for a loop that traces batch after
        batch."""
        s, e = _points(starts, "starts"), _points(ends, "ends")
        if s.shape != e.shape:
            raise ValueError("starts and ends differ in shape: %s, %s" % (s.shape, e.shape))
        f = _filter(mover, include, exclude, gametype)
        mins, maxs = _box(box)
        if out is None:
            out = _np.empty(len(s), dtype=TRACE_DTYPE)
        elif (not isinstance(out, _np.ndarray) or out.dtype != TRACE_DTYPE
              or out.shape != (len(s),) or not out.flags.c_contiguous or not out.flags.writeable):
            raise ValueError("out: a writable contiguous array of %d blvl.TRACE_DTYPE" % len(s))
        opt = _ffi.new("blvl_options *")
        opt.threads = self.threads if threads is None else int(threads)
        err = _ffi.new("blvl_error *")
        if len(s):
            st = _lib.blvl_trace_box_many(
                self._w, f, _ffi.cast("float *", _ffi.from_buffer(s)),
                _ffi.cast("float *", _ffi.from_buffer(e)), len(s), mins, maxs,
                _ffi.cast("blvl_trace_result *", _ffi.from_buffer(out)), opt, err)
            if st != 0:
                _fail(err)
        return out

    def contents(self, points, *, mover=None, include=0, exclude=0, gametype=None):
        """Which solids the mover sees hold each point ((N, 3), or one point): a dict of
        arrays count, flags and collider (blvl.NONE when none), as blvl trace --contents."""
        arr = _np.asarray(points, dtype=_np.float32)
        one = arr.ndim == 1
        arr = _points(arr.reshape(1, 3) if one else arr, "points")
        f = _filter(mover, include, exclude, gametype)
        n = len(arr)
        counts, flags, colliders = (_np.zeros(n, dtype=_np.uint32) for _ in range(3))
        if n:
            u32 = lambda a: _ffi.cast("uint32_t *", _ffi.from_buffer(a))  # noqa: E731
            _lib.pyblvl_contents(self._w, f, _ffi.cast("float *", _ffi.from_buffer(arr)), n,
                                 u32(counts), u32(flags), u32(colliders))
        if one:
            return {"count": int(counts[0]), "flags": int(flags[0]),
                    "collider": None if colliders[0] == NONE else int(colliders[0])}
        return {"count": counts, "flags": flags, "collider": colliders}


# ---- writing ----------------------------------------------------------------------------------

@_ffi.def_extern()
def pyblvl_progress(user, done, total):
    fn = _ffi.from_handle(user)
    try:
        fn(done, total)
    except Exception:  # a progress callback cannot stop the bake; keep the error for later
        pass


def bake(input, output, *, symbols=None, archives=(), map=None, threads=0, progress=None,
         format=None):
    """Bake a source map (.hmap, Subspace or Riot .lvl, Quake 3 .bsp/.pk3, a recipe) into a
    level through the library's front door (as `blvl bake`). symbols: also write the .bsym
    there; archives: Quake 3 .pk3 files or folders searched in order; map: which map of a .pk3
    input; progress(done, total): bytes written. Returns the format read, by name."""
    opt = _ffi.new("blvl_import_options *")
    opt.base.threads = int(threads)
    keep = []
    if archives:
        if isinstance(archives, (str, bytes, _os.PathLike)):
            archives = [archives]
        cs = [_ffi.new("char[]", _os.fsencode(a)) for a in archives]
        arr = _ffi.new("const char *[]", cs)
        keep += [cs, arr]
        opt.pk3, opt.pk3_count = arr, len(cs)
    if map is not None:
        m = _ffi.new("char[]", map.encode())
        keep.append(m)
        opt.map = m
    if progress is not None:
        handle = _ffi.new_handle(progress)
        keep.append(handle)
        opt.base.progress = _lib.pyblvl_progress
        opt.base.progress_user = handle
    if format is not None:
        names = {_ffi.string(_lib.blvl_import_format_name(i)).decode(): i for i in range(1, 6)}
        if format not in names:
            raise ValueError("format is one of %s" % sorted(names))
        setattr(opt, "from", names[format])
    report = _ffi.new("blvl_import_report *")
    err = _ffi.new("blvl_error *")
    sym = _path_bytes(symbols) if symbols is not None else _ffi.NULL
    st = _lib.blvl_import_bake_file(report, _path_bytes(input), _path_bytes(output), sym, opt,
                                    err)
    if st != 0:
        where = _ffi.string(report.where).decode("utf-8", "replace")
        _fail(err, where or _os.fspath(input))
    return _ffi.string(_lib.blvl_import_format_name(report.format)).decode()


def pack(output, sections, identity=(), *, versions=None, container=False, threads=0):
    """Write a level from whole sections, as `blvl pack`: {tag: bytes or dict}; a dict is a
    core section's JSON (the schema's field names, what Level.section returns) made into its
    FlatBuffer by the library. identity: game tags (with a dot) to put in identity (core tags
    always are). versions: {tag: payload version} (default 0). Unless container, the level
    rules are checked first (meta and sim present, every core section verified)."""
    versions = versions or {}
    identity = set(identity)
    keep, ins = [], []
    for tag, value in sections.items():
        core = _ffi.new("bool *")
        if not _lib.blvl_tag_valid(_tag_bytes(tag), core):
            _refuse(_STATUS["write-tag"], "'%s' is not a valid tag" % tag, _os.fspath(output))
        if isinstance(value, dict):
            text = _json.dumps(value).encode()
            data, size = _ffi.new("void **"), _ffi.new("size_t *")
            err = _ffi.new("blvl_error *")
            if _lib.blvl_section_from_json(data, size, tag.encode(), text, len(text), _ffi.NULL,
                                           err) != 0:
                _fail(err, tag)
            buf = _ffi.gc(_ffi.cast("uint8_t *", data[0]),
                          lambda p: _lib.blvl_free(_ffi.NULL, p))
            keep.append(buf)
            ins.append((tag, buf, size[0]))
        else:
            ptr = _ffi.from_buffer("char[]", value)
            keep.append(ptr)
            ins.append((tag, ptr, len(ptr)))
    for t in identity:
        if t not in sections:
            raise ValueError("identity names '%s', which is not packed" % t)
    arr = _ffi.new("blvl_section_in[]", len(ins))
    tags = []
    for i, (tag, ptr, size) in enumerate(ins):
        c = _ffi.new("char[]", tag.encode())
        tags.append(c)
        arr[i].tag = c
        arr[i].version = int(versions.get(tag, 0))
        arr[i].flags = _lib.BLVL_ENTRY_FLAG_IDENTITY if tag in identity else 0
        arr[i].data = ptr
        arr[i].size = size
    opt = _ffi.new("blvl_options *")
    opt.threads = int(threads)
    err = _ffi.new("blvl_error *")
    if not container and _lib.blvl_sections_check(arr, len(ins), opt, err) != 0:
        _fail(err, _os.fspath(output))
    if _lib.blvl_write_file(_path_bytes(output), arr, len(ins), opt, err) != 0:
        _fail(err, _os.fspath(output))

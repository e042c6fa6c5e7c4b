"""Arrays without a Python object per element: the geometry arrays are views of the section's
bytes (no copy), equal to what `blvl dump LEVEL geometry` prints; the colliders' arrays equal the
sim's JSON; trace_many gives the same answers on any number of threads, with the GIL released."""
import json
import threading

import numpy as np
import pytest

import blvl
from conftest import run


def test_geometry_arrays(any_level):
    path, _ = any_level
    dump = json.loads(run("dump", path, "geometry")[1])
    with blvl.open(path) as lv:
        g = lv.geometry_arrays()
    v = dump["vertices"]
    assert g["positions"].shape == (len(v), 3) and g["positions"].dtype == np.float32
    want = np.array([[x["position"][k] for k in "xyz"] for x in v], dtype=np.float32)
    assert (g["positions"] == want).all()
    assert (g["normals"] == np.array([[x["normal"][k] for k in "xyz"] for x in v],
                                     dtype=np.float32)).all()
    assert (g["uvs"] == np.array([[x["uv"][k] for k in "xy"] for x in v], dtype=np.float32)).all()
    assert g["indices"].dtype == np.uint32 and g["indices"].tolist() == dump["indices"]
    for got, b in zip(g["batches"], dump["batches"]):
        assert got["first_index"] == b.get("first_index", 0)
        assert got["index_count"] == b.get("index_count", 0)
        assert got["material"] == b.get("material", blvl.NONE)
        assert list(got["lo"]) == [np.float32(b["lo"][k]) for k in "xyz"]
    assert len(g["batches"]) == len(dump["batches"])
    # views, not copies: every per-vertex array shares the section's memory, none owns data
    for name in ("positions", "normals", "uvs", "colors", "indices"):
        a = g[name]
        assert not a.flags.owndata and not a.flags.writeable, name
    assert np.shares_memory(g["positions"], g["vertices"])
    with pytest.raises(ValueError):  # the library's memory stays read-only
        g["positions"].flags.writeable = True
    assert g["positions"].strides == (52, 4)


def test_colliders(any_level):
    path, _ = any_level
    sim = json.loads(run("dump", path, "sim")[1])
    with blvl.open(path) as lv:
        c = lv.colliders()
    assert c["bounds"].shape == (len(sim["colliders"]), 2, 3)
    for i, col in enumerate(sim["colliders"]):
        assert list(c["bounds"][i, 0]) == [np.float32(col["lo"][k]) for k in "xyz"]
        assert list(c["bounds"][i, 1]) == [np.float32(col["hi"][k]) for k in "xyz"]
        assert c["flags"][i] == col.get("flags", 0)


def test_trace_many_threads_and_gil(sample_level):
    with blvl.open(sample_level[0], threads=3) as lv:
        w = lv.trace_world()
        b = lv.colliders()["bounds"]
    rng = np.random.default_rng(1)
    lo, hi = b[:, 0].min(axis=0), b[:, 1].max(axis=0)
    starts = (lo + (hi - lo) * rng.random((50000, 3))).astype(np.float32)
    ends = starts + rng.uniform(-100, 100, starts.shape).astype(np.float32)
    box = ((-15, -24, -15), (15, 32, 15))
    one = w.trace_many(starts, ends, box, threads=1)
    assert (w.trace_many(starts, ends, box) == one).all()  # the level's 3 threads
    assert (w.trace_many(starts, ends, box, threads=4) == one).all()
    assert 0 < (one["fraction"] < 1).sum() < len(one)
    buf = np.zeros(len(starts), dtype=blvl.TRACE_DTYPE)
    assert w.trace_many(starts, ends, box, out=buf) is buf and (buf == one).all()
    with pytest.raises(ValueError):
        w.trace_many(starts, ends, box, out=buf[:10])
    # four Python threads at once: each call releases the GIL, every answer is the same
    out = [None] * 4

    def work(i):
        out[i] = w.trace_many(starts, ends, box, threads=1)
    ts = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert all((o == one).all() for o in out)
    with pytest.raises(ValueError):
        w.trace_many(starts, ends[:10])
    assert len(w.trace_many(np.zeros((0, 3)), np.zeros((0, 3)))) == 0


def test_write_round_trip(tmp_path, default_level):
    """pack from dicts and bytes gives the CLI's level; put and drop edit it in place."""
    with blvl.open(default_level) as lv:
        secs = {t: (lv.section(t) if "." not in t else lv.read(t)) for t in lv.tags()}
        ident = [e.tag for e in lv.entries() if e.identity and "." in e.tag]
        identity = lv.identity
    out = tmp_path / "again.blvl"
    blvl.pack(out, secs, identity=ident)
    assert run("identity", out)[1].decode().strip() == identity
    lv = blvl.open(out)
    lv.put("demo.thumb", b"\x00\x01thumb")
    assert run("cat", out, "demo.thumb")[1] == b"\x00\x01thumb" == lv.read("demo.thumb")
    assert lv.identity == identity
    lv.drop("demo.thumb")
    assert "demo.thumb" not in lv and run("identity", out)[1].decode().strip() == identity


def test_bake_progress(tmp_path):
    from conftest import SRC
    import os
    seen = []
    fmt = blvl.bake(os.path.join(SRC, "tests", "data", "hmap", "sample.hmap"),
                    tmp_path / "s.blvl", symbols=tmp_path / "s.bsym",
                    progress=lambda done, total: seen.append((done, total)))
    assert fmt == "hmap"
    cli = tmp_path / "c.blvl"
    run("bake", os.path.join(SRC, "tests", "data", "hmap", "sample.hmap"), "-o", cli)
    assert open(cli, "rb").read() == open(tmp_path / "s.blvl", "rb").read()
    # bytes written; the bake knows no total beforehand (0), and done never decreases
    assert seen and seen[-1][0] > 0 and all(a[0] <= b[0] for a, b in zip(seen, seen[1:]))

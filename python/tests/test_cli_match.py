"""What the binding returns equals what the blvl program prints for the same level: identity,
table digest, the table (ls), every section's bytes (cat), every core section's JSON (dump),
random traces (trace --json) and the findings (diag --json)."""
import json
import os

import numpy as np

import blvl
from conftest import run

CORE = [t for t in open(os.path.join(os.path.dirname(blvl.__file__), "..", "..", "schema",
                                     "core_tags.txt")).read().split()]


def test_identity_tags_entries(any_level):
    path, _ = any_level
    with blvl.open(path) as lv:
        assert lv.identity == run("identity", path)[1].decode().strip()
        info = json.loads(run("info", "--json", path)[1])
        assert lv.table_digest == info["table_digest"]
        assert lv.identity == info["identity"]
        rows = [line.split() for line in run("ls", path)[1].decode().splitlines()]
        assert lv.tags() == [r[0] for r in rows]
        for r in rows:
            e = lv.entry(r[0])
            assert (e.tag, e.version, "id" if e.identity else "-", e.raw_size, e.packed_size,
                    e.offset, e.digest) == (r[0], int(r[1]), r[2], int(r[3]), int(r[4]),
                                            int(r[5]), r[6])


def test_read_is_cat(any_level):
    path, _ = any_level
    with blvl.open(path) as lv:
        for tag in lv.tags():
            cat = run("cat", path, tag)[1]
            assert lv.read(tag) == cat
            view = lv.read(tag, copy=False)
            assert view.readonly and bytes(view) == cat


def test_section_is_dump(any_level):
    path, _ = any_level
    with blvl.open(path) as lv:
        dumped = 0
        for tag in lv.tags():
            if tag not in CORE:
                continue
            assert lv.section(tag) == json.loads(run("dump", path, tag)[1])
            dumped += 1
        assert dumped >= 3
        assert lv.meta == lv.section("meta") and lv.sim == lv.section("sim")


def test_verify(any_level):
    path, _ = any_level
    run("verify", path)
    with blvl.open(path) as lv:
        assert lv.verify() is None


def _rand_traces(lv, n, seed):
    c = lv.colliders()["bounds"]
    lo, hi = c[:, 0].min(axis=0), c[:, 1].max(axis=0)
    rng = np.random.default_rng(seed)
    starts = (lo + (hi - lo) * rng.random((n, 3))).astype(np.float32)
    ends = (starts + rng.uniform(-300, 300, (n, 3))).astype(np.float32)
    return starts, ends


def _same(cli, py):
    return np.float32(cli) == np.float32(py)


def test_trace_is_cli_trace(any_level, tmp_path):
    path, _ = any_level
    box = ((-15, -24, -15), (15, 32, 15))
    with blvl.open(path) as lv:
        starts, ends = _rand_traces(lv, 300, 7)
        world = lv.trace_world()
    pts = tmp_path / "points.txt"
    pts.write_text("".join("%r %r %r %r %r %r\n" % (*map(float, s), *map(float, e))
                           for s, e in zip(starts, ends)))
    for as_ in ("player", "shot"):
        out = run("trace", path, "--box", *box[0], *box[1], "--points", pts, "--json",
                  "--as", as_)[1]
        cli = [json.loads(line) for line in out.decode().splitlines()]
        many = world.trace_many(starts, ends, box=box, mover=as_)
        hits = 0
        for i, c in enumerate(cli):
            one = world.trace(starts[i], ends[i], box=box, mover=as_)
            assert _same(c["fraction"], one.fraction)
            assert all(_same(a, b) for a, b in zip(c["end"], one.end))
            assert all(_same(a, b) for a, b in zip(c["normal"], one.normal))
            assert _same(c["dist"], one.dist)
            assert (c["startsolid"], c["allsolid"], c["collider"], c["flags"], c["material"]) == \
                (one.startsolid, one.allsolid, one.collider, one.flags, one.material)
            r = many[i]
            assert _same(c["fraction"], r["fraction"]) and (r["end"] == one.end).all()
            assert (r["normal"] == one.normal).all() and r["dist"] == np.float32(one.dist)
            assert (bool(r["startsolid"]), bool(r["allsolid"])) == (one.startsolid, one.allsolid)
            assert r["collider"] == (blvl.NONE if one.collider is None else one.collider)
            assert r["flags"] == one.flags
            hits += c["collider"] is not None
        assert 0 < hits < len(cli)  # the traces both meet walls and miss them


def test_contents_is_cli_contents(sample_level):
    path, _ = sample_level
    with blvl.open(path) as lv:
        starts, _ = _rand_traces(lv, 40, 3)
        world = lv.trace_world()
    args = []
    for p in starts:
        args += ["--contents", *map(float, p)]
    out = run("trace", path, *args, "--json")[1]
    cli = [json.loads(line) for line in out.decode().splitlines()]
    res = world.contents(starts)
    for i, c in enumerate(cli):
        assert c["count"] == res["count"][i] and c["flags"] == res["flags"][i]
        assert c["collider"] == (None if res["collider"][i] == blvl.NONE else res["collider"][i])
    assert world.contents(starts[0]) == {"count": cli[0]["count"], "flags": cli[0]["flags"],
                                         "collider": cli[0]["collider"]}


def test_diag_is_cli_diag(any_level):
    path, sym = any_level
    args = [path, "--json"] + (["--symbols", sym] if sym else [])
    cli = json.loads(run("diag", *args, check=False)[1])
    with blvl.open(path) as lv:
        assert lv.diag(symbols=sym) == cli["findings"]


def test_diag_findings_match(tmp_path, default_level):
    """A level with findings: the default level's sim with a collider whose bounds are
    inverted (lo > hi), packed again."""
    with blvl.open(default_level) as lv:
        sim = lv.sim
        sections = {t: lv.section(t) for t in lv.tags() if t in CORE}
    c = sim["colliders"][0]
    c["lo"], c["hi"] = c["hi"], c["lo"]
    sections["sim"] = sim
    out = tmp_path / "findings.blvl"
    blvl.pack(out, sections)
    cli = json.loads(run("diag", out, "--json", check=False)[1])
    assert cli["findings"], "the damaged collider makes no finding: pick another damage"
    with blvl.open(out) as lv:
        assert lv.diag() == cli["findings"]

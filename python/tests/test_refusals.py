"""Every refused input raises blvl.Error with the rule the blvl program names for the same
input: the damaged files of tests/test_cli.sh, the level rules of tests/test_cli_sections.sh,
the in-place edit rules, and the bad maps of tests/data/{hmap,subspace,riot}/bad (a source
map's own rule).
Nothing crashes and nothing comes back as None."""
import glob
import os
import shutil

import pytest

import blvl
from conftest import SRC, cli_rule, run

S = os.path.join(SRC, "tests", "data", "sections")


def flip(path, offset):
    with open(path, "r+b") as f:
        f.seek(offset)
        b = f.read(1)[0]
        f.seek(offset)
        f.write(bytes([b ^ 0xFF]))


@pytest.fixture
def small(tmp_path):
    """meta and sim from the samples, a game section in identity, one outside."""
    out = tmp_path / "a.blvl"
    (tmp_path / "noise.bin").write_bytes(os.urandom(200000))
    run("pack", "-o", out, "--id", "eds.noise", "meta=%s/meta.json" % S, "sim=%s/sim.json" % S,
        "eds.noise=%s" % (tmp_path / "noise.bin"))
    return out


def same_rule(cli_args, call, rule):
    """The CLI refuses with `rule`, and so does the binding."""
    code, _, err = run(*cli_args, check=False)
    assert code == 1, err
    assert cli_rule(err) == rule, err
    with pytest.raises(blvl.Error) as e:
        call()
    assert e.value.rule == rule, e.value
    assert blvl.status_name(e.value.status) in (rule, "source")
    return e.value


def damaged(src, tmp_path, name, how):
    p = tmp_path / name
    shutil.copy(src, p)
    how(p)
    return str(p)


def test_container_refusals(small, tmp_path):
    with blvl.open(small) as lv:
        sim_off = lv.entry("sim").offset + 10
    bad = damaged(small, tmp_path, "bad.blvl", lambda p: flip(p, sim_off))
    same_rule(["cat", bad, "sim"], lambda: blvl.open(bad).read("sim"), "section-digest")
    same_rule(["verify", bad], lambda: blvl.open(bad).verify(), "section-digest")
    assert blvl.open(bad).read("meta")  # the other sections stay readable

    def version(p):
        with open(p, "r+b") as f:
            f.seek(8)
            f.write(b"\x02")
    hdr = damaged(small, tmp_path, "hdr.blvl", version)
    same_rule(["info", hdr], lambda: blvl.open(hdr), "container-version")
    tdig = damaged(small, tmp_path, "tdig.blvl", lambda p: flip(p, 30))
    same_rule(["identity", tdig], lambda: blvl.open(tdig), "table-digest")

    def junk(p):
        with open(p, "ab") as f:
            f.write(b"\0" * 2097152)
    unref = damaged(small, tmp_path, "unref.blvl", junk)
    same_rule(["identity", unref], lambda: blvl.open(unref), "unreferenced-bytes")

    short = tmp_path / "short.blvl"
    short.write_bytes(open(small, "rb").read()[:1000])
    same_rule(["verify", short], lambda: blvl.open(short), "truncated")
    same_rule(["info", "/nonexistent/x.blvl"], lambda: blvl.open("/nonexistent/x.blvl"), "io")
    same_rule(["cat", small, "eds.nothere"], lambda: blvl.open(small).read("eds.nothere"),
              "not-found")
    with pytest.raises(blvl.Error) as e:
        blvl.open(small).entry("eds.nothere")
    assert e.value.rule == "not-found"


def test_edit_refusals(small, tmp_path):
    e = tmp_path / "e.blvl"
    shutil.copy(small, e)
    meta = str(tmp_path / "meta.bin")
    open(meta, "wb").write(b"x" * 10)
    lv = blvl.open(e)
    for tag in ("sim", "notag", "eds.noise"):
        err = same_rule(["put", e, tag, meta], lambda: lv.put(tag, b"x" * 10), "identity-section")
    assert "game.notag" not in err.message  # the last one is eds.noise
    same_rule(["drop", e, "meta"], lambda: lv.drop("meta"), "identity-section")
    same_rule(["drop", e, "eds.thumb"], lambda: lv.drop("eds.thumb"), "not-found")


def test_level_rules(tmp_path):
    """pack refuses what verify would refuse, naming the same rule as blvl pack."""
    junk = b"\x89junk, not a FlatBuffer: 0123456789abcd"
    (tmp_path / "junk.bin").write_bytes(junk)
    meta, sim = open(S + "/meta.json").read(), open(S + "/sim.json").read()
    import json
    cases = [
        (["meta=bin:%s" % (tmp_path / "junk.bin"), "sim=%s/sim.json" % S],
         {"meta": junk, "sim": json.loads(sim)}, {}, "flatbuffer"),
        (["meta=%s/meta.json" % S], {"meta": json.loads(meta)}, {}, "required-section"),
        (["--version", "meta=1", "meta=%s/meta.json" % S, "sim=%s/sim.json" % S],
         {"meta": json.loads(meta), "sim": json.loads(sim)}, {"meta": 1}, "section-version"),
        ([], {}, {}, "required-section"),
    ]
    for i, (args, sections, versions, rule) in enumerate(cases):
        out = tmp_path / ("p%d.blvl" % i)
        same_rule(["pack", "-o", out, *args],
                  lambda: blvl.pack(out, sections, versions=versions), rule)
        assert not out.exists()


def test_dump_refusals(tmp_path):
    out = tmp_path / "nocam.blvl"
    run("pack", "-o", out, "meta=%s/meta.json" % S, "sim=%s/sim.json" % S)
    same_rule(["dump", out, "cameras"], lambda: blvl.open(out).section("cameras"), "not-found")
    with pytest.raises(blvl.Error):
        blvl.open(out).geometry_arrays()  # no geometry section: refused, not None


BAD_MAPS = sorted(glob.glob(os.path.join(SRC, "tests", "data", "hmap", "bad", "*.hmap")) +
                  glob.glob(os.path.join(SRC, "tests", "data", "subspace", "bad", "*.lvl")) +
                  glob.glob(os.path.join(SRC, "tests", "data", "riot", "bad", "*.lvl")))


@pytest.mark.parametrize("path", BAD_MAPS,
                         ids=lambda p: "/".join(p.split(os.sep)[-3::2]))
def test_bad_source_maps(path, tmp_path):
    out = tmp_path / "x.blvl"
    # tests/test_cli_riot.sh reads its bad files as Riot whatever their bytes (an empty one too)
    fmt = "riot" if os.sep + "riot" + os.sep in path else None
    code, _, err = run("bake", path, "-o", out, *(["--from", fmt] if fmt else []), check=False)
    assert code == 1
    with pytest.raises(blvl.Error) as e:
        blvl.bake(path, out, format=fmt)
    assert e.value.rule == cli_rule(err), (str(e.value), err)
    if e.value.rule != "unknown-format":  # the CLI names its own --from there, not the option
        assert "blvl: %s" % e.value == err.splitlines()[-1]  # the same line, word for word
    assert not out.exists()


def test_closed_level(small):
    lv = blvl.open(small)
    world = lv.trace_world()
    arrays = lv.colliders()
    raw = lv.read("eds.noise", copy=False)
    lv.close()
    assert lv.closed
    with pytest.raises(blvl.Error) as e:
        lv.tags()
    assert e.value.rule == "argument"
    # what the level handed out stays valid: the world owns its memory, the view holds the level
    r = world.trace((0, 0, 0), (0, -1000, 0))
    assert 0 <= r.fraction <= 1
    assert len(bytes(raw)) == 200000 and arrays["bounds"].shape[0] == world.collider_count
    del lv
    import gc
    gc.collect()
    assert len(bytes(raw)) == 200000
    assert world.trace_many([[0, 0, 0]], [[0, -1000, 0]])["fraction"][0] == r.fraction

"""Shared fixtures: the blvl program the binding is checked against, and the levels both read:
the bundled default level (packed from tests/data/sections and tests/data/default, as
`make run` packs it), the bundled Rockgrave map baked with its symbols, and, when OpenArena's
packages are installed, one OpenArena map baked (skipped otherwise)."""
import os
import subprocess

import pytest

SRC = os.environ.get("BLVL_SRC") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.environ.get("BLVL_BUILD") or os.path.join(SRC, "build")
BIN = os.environ.get("BLVL_BIN") or os.path.join(BUILD, "blvl")
BASEOA = "/usr/share/games/openarena/baseoa"


def run(*args, check=True):
    """The blvl program: (exit status, stdout bytes, stderr text)."""
    p = subprocess.run([BIN, *map(str, args)], capture_output=True)
    if check and p.returncode != 0:
        raise AssertionError("blvl %s: %s" % (" ".join(map(str, args)), p.stderr.decode()))
    return p.returncode, p.stdout, p.stderr.decode()


def cli_rule(stderr):
    """The rule a refusal's one line names: `blvl: FILE: RULE: ...`, or for a source map's
    refusal `blvl: FILE: PART: FIELD at offset N: RULE: ...`."""
    import re
    line = stderr.strip().splitlines()[-1]
    m = re.search(r" at offset \d+: ([a-z0-9][a-z0-9_-]*): ", line)
    if m:
        return m.group(1)
    m = re.match(r"^blvl: (.*?): ([a-z0-9-]+): ", line)
    assert m, line
    return m.group(2)


@pytest.fixture(scope="session")
def tmp(tmp_path_factory):
    return tmp_path_factory.mktemp("levels")


@pytest.fixture(scope="session")
def default_level(tmp):
    args = []
    with open(os.path.join(SRC, "schema", "core_tags.txt")) as f:
        for tag in f.read().split():
            j = os.path.join(SRC, "tests", "data", "sections", tag + ".json")
            if os.path.exists(j):
                args.append("%s=%s" % (tag, j))
    d = os.path.join(SRC, "tests", "data", "default")
    for name in sorted(os.listdir(d)):
        if name.count(".") >= 2:
            args.append("%s=%s" % (name.rsplit(".", 1)[0], os.path.join(d, name)))
    out = tmp / "default.blvl"
    run("pack", "-o", out, "--id", "demo.spawns", *args)
    return str(out)


@pytest.fixture(scope="session")
def sample_level(tmp):
    out, sym = tmp / "sample.blvl", tmp / "sample.bsym"
    run("bake", os.path.join(SRC, "tests", "data", "hmap", "sample.hmap"), "-o", out,
        "--symbols", sym)
    return str(out), str(sym)


@pytest.fixture(scope="session")
def oa_level(tmp):
    if not os.path.exists(os.path.join(BASEOA, "pak1-maps.pk3")):
        pytest.skip("OpenArena's maps are not installed (openarena-081-maps)")
    out, sym = tmp / "oa_minia.blvl", tmp / "oa_minia.bsym"
    run("bake", "maps/oa_minia.bsp", "--pk3", BASEOA, "-o", out, "--symbols", sym)
    return str(out), str(sym)


@pytest.fixture(scope="session", params=["default", "sample", "openarena"])
def any_level(request):
    """Each bundled level, and the OpenArena bake when its packages are there."""
    if request.param == "default":
        return request.getfixturevalue("default_level"), None
    if request.param == "sample":
        return request.getfixturevalue("sample_level")
    return request.getfixturevalue("oa_level")

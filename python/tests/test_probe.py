"""Level.probe equals `blvl probe --json` (field for field, floats as float32) at random poses,
and its image equals the PNG `blvl probe --png` writes, pixel for pixel."""
import json

import numpy as np
import pytest

import blvl
from conftest import run


def same(a, b):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        return np.float32(a) == np.float32(b)
    return a == b


def test_probe_is_cli_probe(any_level):
    path, _ = any_level
    with blvl.open(path) as lv:
        b = lv.colliders()["bounds"]
        lo, hi = b[:, 0].min(axis=0), b[:, 1].max(axis=0)
        rng = np.random.default_rng(5)
        for _ in range(8):
            p = lo + (hi - lo) * rng.random(3)
            pose = [float(np.float32(x)) for x in (*p, rng.uniform(-180, 180),
                                                   rng.uniform(-60, 60))]
            cli = json.loads(run("probe", path, "--pose", *map(repr, pose), "--json")[1])
            got = lv.probe(pose)
            assert same(got, cli), (pose, got, cli)


def test_probe_image_is_cli_png(sample_level, tmp_path):
    Image = pytest.importorskip("PIL.Image")
    path, _ = sample_level
    pose = (100, 60, 100, 45, -10)
    png = tmp_path / "v.png"
    run("probe", path, "--pose", *pose, "--png", png, "--size", "80x60")
    want = np.asarray(Image.open(png).convert("RGBA"))
    with blvl.open(path) as lv:
        _, img = lv.probe(pose, image=(80, 60))
    assert img.shape == (60, 80, 4) and (img == want).all()
    assert len(np.unique(img.reshape(-1, 4), axis=0)) > 10  # a picture, not a blank

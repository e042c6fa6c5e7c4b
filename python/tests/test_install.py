"""pip install of python/ into a fresh venv, offline, from Debian's packages alone (python3 -m
venv --system-site-packages; pip install --no-build-isolation --no-index), built against this
tree's build; then `import blvl` in the venv uses the extension pip compiled, not the tree's.
Also: the docs' example runs, and the package's version is the library's."""
import os
import re
import shutil
import subprocess
import sys

import pytest

import blvl
from conftest import BUILD, SRC, run


@pytest.mark.skipif(bool(os.environ.get("BLVL_SKIP_VENV")),
                    reason="the sanitizer run leaves the venv build to the release run")
@pytest.mark.parametrize("against", ["tree", "installed"])
def test_venv_pip_install(tmp_path, sample_level, against):
    """against the tree's build (BLVL_BUILD_DIR), or a `cmake --install` prefix found by
    pkg-config (the copy of python/ has no ../build beside it)."""
    level, _ = sample_level
    tree = tmp_path / "python"
    shutil.copytree(os.path.join(SRC, "python"), tree,
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", "tests"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
                   check=True, capture_output=True)
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "BLVL_BUILD_DIR", "LD_PRELOAD", "PKG_CONFIG_PATH")}
    env.update(PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    if against == "tree":
        env.update(BLVL_BUILD_DIR=BUILD, BLVL_INCLUDE_DIR=os.path.join(SRC, "include"))
    else:
        prefix = tmp_path / "prefix"
        subprocess.run(["cmake", "--install", BUILD, "--prefix", str(prefix)], check=True,
                       capture_output=True)
        libdir = next(p.parent for p in prefix.rglob("blvl-tools.pc")).parent
        env["PKG_CONFIG_PATH"] = str(libdir / "pkgconfig")
    p = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q",
                        "--no-build-isolation", "--no-index", str(tree)],
                       env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    env.pop("BLVL_BUILD_DIR", None)
    p = subprocess.run([str(venv / "bin" / "python"), "-c",
                        "import sys, blvl, blvl._native as n; print(n._mod.__file__); "
                        "print(blvl.open(sys.argv[1]).identity)", level],
                       env=env, capture_output=True, text=True, cwd=str(tmp_path), timeout=60)
    assert p.returncode == 0, p.stderr
    where, identity = p.stdout.split()
    assert where.startswith(str(venv)), where  # the venv's own extension
    assert identity == run("identity", level)[1].decode().strip()
    if against == "installed":  # linked to the prefix's libraries, not the build's
        ldd = subprocess.run(["ldd", where], capture_output=True, text=True).stdout
        assert str(tmp_path / "prefix") in ldd and BUILD + "/libblvl" not in ldd, ldd


def test_docs_example(tmp_path, sample_level):
    """The example of docs/PYTHON.md ("A first script"), run as written on the sample map."""
    text = open(os.path.join(SRC, "docs", "PYTHON.md")).read()
    m = re.search(r"<!-- example -->\s*```python\n(.*?)```", text, re.S)
    assert m, "docs/PYTHON.md has no example block"
    script = tmp_path / "example.py"
    script.write_text(m.group(1))
    shutil.copy(sample_level[0], tmp_path / "sample.blvl")
    env = dict(os.environ, PYTHONPATH=os.path.join(SRC, "python"))
    p = subprocess.run([sys.executable, str(script)], cwd=str(tmp_path), capture_output=True,
                       text=True, timeout=120, env=env)
    assert p.returncode == 0, p.stderr
    assert blvl.open(sample_level[0]).identity in p.stdout


def test_version_is_the_library():
    text = open(os.path.join(SRC, "python", "pyproject.toml")).read()
    assert re.search(r'^version = "([^"]+)"', text, re.M).group(1) == blvl.version()

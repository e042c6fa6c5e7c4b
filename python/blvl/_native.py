"""Finds the compiled extension: the one pip installed beside this file, else the one `make`
built into the source tree's build folder (BLVL_BUILD_DIR, default <tree>/build), which is where
CMake's blvl_python target writes it (build/python/blvl/)."""
import glob
import importlib.machinery
import importlib.util
import os

try:
    from . import _blvl_cffi as _mod  # pip install ./python
except ImportError:
    _here = os.path.dirname(os.path.abspath(__file__))
    _build = os.environ.get("BLVL_BUILD_DIR") or os.path.join(_here, "..", "..", "build")
    _found = None
    for _suffix in importlib.machinery.EXTENSION_SUFFIXES:
        _hits = glob.glob(os.path.join(_build, "python", "blvl", "_blvl_cffi" + _suffix))
        if _hits:
            _found = _hits[0]
            break
    if _found is None:
        raise ImportError(
            "blvl: the compiled module _blvl_cffi is neither installed beside %s nor built in %s "
            "(run make, or set BLVL_BUILD_DIR; docs/PYTHON.md)"
            % (_here, os.path.join(os.path.abspath(_build), "python", "blvl")))
    _loader = importlib.machinery.ExtensionFileLoader("blvl._blvl_cffi", _found)
    _spec = importlib.util.spec_from_file_location("blvl._blvl_cffi", _found, loader=_loader)
    _mod = importlib.util.module_from_spec(_spec)
    _loader.exec_module(_mod)

ffi = _mod.ffi
lib = _mod.lib

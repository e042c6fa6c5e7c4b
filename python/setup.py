# The compiled part: cffi builds blvl/_blvl_cffi from blvl_build.py, against the tree's build
# (BLVL_BUILD_DIR, or ../build when make has run) or the installed libblvl (pkg-config).
from setuptools import setup

setup(cffi_modules=["blvl_build.py:ffibuilder"])

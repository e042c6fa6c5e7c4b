# python3-flatbuffers side of the FlatBuffers tests (run with Debian's /usr/bin/python3).
# usage: pycheck.py GEN_DIR ROOT EXPECTED.json IN.bin OUT.bin
# Reads IN.bin (built by libblvl) with flatc's generated Python object API, checks every value
# EXPECTED.json names, then packs the same object with the Python builder into OUT.bin for
# libblvl to read back.
import importlib, json, math, os, pkgutil, sys

gen, root_name, expected_path, bin_in, bin_out = sys.argv[1:]
sys.path.insert(0, gen)
import flatbuffers

mod = importlib.import_module("blvl." + root_name)
enums = {}
pkg = importlib.import_module("blvl")
mods = {m.name: importlib.import_module("blvl." + m.name) for m in pkgutil.iter_modules(pkg.__path__)}
# flatc 2.0.8's Python accessors use struct classes from included files without importing them
# (NameError: Vertex); give every generated module every generated name.
names = {}
for m in mods.values():
    names.update({k: v for k, v in vars(m).items() if callable(v) and getattr(v, "__module__", "").startswith("blvl.")})
for m in mods.values():
    for k, v in names.items():
        if not hasattr(m, k):
            setattr(m, k, v)
for name, m in mods.items():
    cls = getattr(m, name, None)
    if cls is not None and not hasattr(cls, "Init"):
        for k, v in vars(cls).items():
            if isinstance(v, int):
                enums.setdefault(k, set()).add(v)
failures = []


def camel(k):
    parts = k.split("_")
    return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])


def check(exp, act, path):
    if isinstance(exp, dict):
        if act is None:
            failures.append(path + ": absent")
            return
        for k, v in exp.items():
            check(v, getattr(act, camel(k)), path + "." + k)
    elif isinstance(exp, list):
        act = [] if act is None else list(act)
        if len(act) != len(exp):
            failures.append("%s: length %d != %d" % (path, len(act), len(exp)))
            return
        for i, (e, a) in enumerate(zip(exp, act)):
            check(e, a, "%s[%d]" % (path, i))
    elif isinstance(exp, str):
        if isinstance(act, (bytes, bytearray)):
            act = act.decode("utf-8")
        if isinstance(act, int) and not isinstance(act, bool):
            ok = act in enums.get(exp, ())  # a name of some enum with this value
        else:
            ok = act == exp
        if not ok:
            failures.append("%s: %r != %r" % (path, act, exp))
    elif isinstance(exp, bool):
        if bool(act) != exp:
            failures.append("%s: %r != %r" % (path, act, exp))
    else:
        a = float(act)
        if not (a == exp or abs(a - exp) <= 1e-6 * max(1.0, abs(a), abs(exp))):
            failures.append("%s: %r != %r" % (path, act, exp))


root_cls = getattr(mod, root_name)
buf = bytearray(open(bin_in, "rb").read())
obj = getattr(mod, root_name + "T").InitFromObj(root_cls.GetRootAs(buf, 0))
check(json.load(open(expected_path)), obj, root_name)
for f in failures[:20]:
    print("python read mismatch:", f)
b = flatbuffers.Builder(1024)
b.Finish(obj.Pack(b))
open(bin_out, "wb").write(b.Output())
sys.exit(1 if failures else 0)

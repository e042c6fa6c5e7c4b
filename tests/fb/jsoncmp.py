# Semantic JSON comparison for the FlatBuffers tests: same keys, same values, floats within a
# relative 1e-6 (printers differ in digits, not in values). Exit 0 when equal.
import json, sys, math
def eq(a, b, path="$"):
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            print(path, "keys differ:", sorted(set(a) ^ set(b))); return False
        return all(eq(a[k], b[k], path + "." + k) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b): print(path, "lengths", len(a), len(b)); return False
        return all(eq(x, y, "%s[%d]" % (path, i)) for i, (x, y) in enumerate(zip(a, b)))
    if isinstance(a, bool) or isinstance(b, bool):
        r = a == b
    elif isinstance(a, (int, float)) and isinstance(b, (int, float)):
        r = a == b or abs(a - b) <= 1e-6 * max(1.0, abs(a), abs(b))
    else:
        r = a == b
    if not r: print(path, repr(a), "!=", repr(b))
    return r
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
sys.exit(0 if eq(a, b) else 1)

#!/usr/bin/env bash
# No function in src/ runs past 120 lines (signature to closing brace): a longer one is a
# coordinator to split into one helper per phase (docs/ARCHITECTURE.md, "A function."). The
# sources are clang-formatted, so a definition starts at column 0 and its body ends at the next
# "}" alone at column 0. A function that must stay longer is listed below with its length (a
# listed one that grew, or one that is now short, fails too, so the list stays true).
set -eu
src=${BLVL_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$src"

python3 - <<'PY'
import os, re, sys

LIMIT = 120
# name: its length today, for a function that must stay long (none now).
ALLOWED = {}

found = {}
for root, _, files in os.walk("src"):
    for f in sorted(files):
        if not f.endswith(".c"):
            continue
        path = os.path.join(root, f)
        lines = open(path, errors="replace").read().split("\n")
        n = 0
        while n < len(lines):
            l = lines[n]
            if not l or l[0] in " \t#/}*" or "(" not in l or re.match(r"(typedef|struct|enum|union)\b", l):
                n += 1
                continue
            head = l.split("(")[0]
            if "=" in head:
                n += 1
                continue
            # the signature runs until a line ending in "{" (a definition) or ";" (a declaration)
            k = n
            while k < len(lines) and not lines[k].rstrip().endswith(("{", ";")):
                k += 1
            if k >= len(lines) or lines[k].rstrip().endswith(";"):
                n = k + 1
                continue
            e = k
            while e < len(lines) and lines[e] != "}":
                e += 1
            name = head.split()[-1].lstrip("*") if head.split() else "?"
            length = e - n + 1
            if length > LIMIT:
                found[name] = (length, f"{path}:{n + 1}")
            n = e + 1

errs = []
for name, (length, at) in sorted(found.items(), key=lambda x: -x[1][0]):
    if name not in ALLOWED:
        errs.append(f"{at}: {name} is {length} lines, over {LIMIT}: split it into one helper per phase")
    elif length > ALLOWED[name]:
        errs.append(f"{at}: {name} grew to {length} lines (listed at {ALLOWED[name]})")
for name in ALLOWED:
    if name not in found:
        errs.append(f"{name} is {LIMIT} lines or fewer now (or gone): take it off the list")
for e in errs:
    print(e)
if errs:
    sys.exit(1)
print(f"every function in src/ is at most {LIMIT} lines" + (f", but {len(ALLOWED)} listed" if ALLOWED else ""))
PY

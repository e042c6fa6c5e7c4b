"""tests/test_json_output.sh: every JSON the CLI writes keeps UTF-8 and escapes the rest the one
way (docs/API.md, "JSON output"), and `blvl diag --dump KIND --json` holds the text table's rows.

1. Names with é, 中 and an emoji, a name with control bytes, and a name with a byte sequence
   that is not UTF-8 (planted in the FlatBuffer; the verifier does not read strings), through
   diag --json, info --json, dump, export's glTF JSON, probe --json and diag --dump --json: the
   output parses as UTF-8 JSON and holds the exact expected text.
2. A path holding each ill-formed UTF-8 form, read back by json.loads, equals Python's own
   decoding of it with errors="replace" (one U+FFFD per maximal ill-formed subpart).
3. For the clean diag level and the bundled samples (with and without their symbols), each
   --dump KIND --json document has the text table's rows: same count, keys in the header's
   order, and each value printed the text's way gives the text's cell."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import diag_levels  # noqa: E402

KINDS = ["colliders", "batches", "materials", "entities", "spawns"]
checks = 0
failures = 0


def expect(cond, what):
    global checks, failures
    checks += 1
    if not cond:
        failures += 1
        print("FAIL:", what)


def run(blvl, *args, want=0):
    r = subprocess.run([blvl] + list(args), capture_output=True)
    if r.returncode != want:
        raise SystemExit("blvl %s exited %d: %s" % (args, r.returncode, r.stderr[:300]))
    return r.stdout


def parse(raw, what):
    """Strict: the bytes must be UTF-8 (json.loads of bytes decodes them strictly). A float's
    -0 is printed -0, which Python's int would read as 0."""
    try:
        return json.loads(raw, parse_int=lambda s: -0.0 if s == "-0" else int(s))
    except ValueError as e:
        expect(False, "%s: not UTF-8 JSON (%s): %r" % (what, e, raw[:200]))
        return None


UTF8 = "flo\u00e9r \u4e2d \U0001F600"  # é (2 bytes), 中 (3), 😀 (4)
CONTROLS = "c\t\x01\x7f\"\\"
CONTROLS_JSON = b'"c\\t\\u0001\\u007f\\"\\\\"'
BAD = b"g\xc3(w"        # é cut short: one U+FFFD, then "("
BAD_JSON = b'"g\\ufffd(w"'


def names_level(blvl, work):
    """The clean diag level with names to escape; the third material's name is then made
    ill-formed in the packed FlatBuffer (same length, so nothing else moves)."""
    L = diag_levels.clean()
    mats = L["geometry"]["materials"]
    mats[0]["name"] = UTF8
    mats[1]["name"] = CONTROLS
    mats.append({"name": "gXXw", "sort": 9, "blend": "Additive"})
    L["geometry"]["batches"].append(dict(L["geometry"]["batches"][1], material=2))
    L["sim"]["spawns"][0]["kind"] = "info_\u00e9"
    L["sim"]["spawns"][0]["team"] = "\u4e2d"
    L["entities"] = {"entities": [{"classname": "w\u00e9", "pairs": [
        {"key": "k\u4e2d", "value": "\U0001F600"}, {"key": "c", "value": CONTROLS}]}]}
    folder = os.path.join(work, "names")
    ok_path = os.path.join(work, "ok.blvl")
    diag_levels.pack(blvl, L, ok_path, folder)
    # Plant the ill-formed name: every section as its FlatBuffer, geometry patched, repacked.
    path = os.path.join(work, "l\u00e9v\u00e9l \u4e2d \U0001F600.blvl")
    args = [blvl, "pack", "-o", path]
    for tag in L:
        fb = run(blvl, "cat", ok_path, tag)
        if tag == "geometry":
            expect(fb.count(b"gXXw") == 1, "the placeholder name is in geometry once")
            fb = fb.replace(b"gXXw", BAD)
        p = os.path.join(folder, tag + ".fb")
        with open(p, "wb") as f:
            f.write(fb)
        args.append("%s=bin:%s" % (tag, p))
    subprocess.run(args, check=True, capture_output=True)
    return path


def check_names(blvl, work):
    path = names_level(blvl, work)
    raw_path = path.encode()

    # diag --json: the file name kept as it is
    raw = run(blvl, "diag", "--json", path)
    doc = parse(raw, "diag --json")
    expect(doc and doc["file"] == path, "diag --json: file %r" % (doc and doc["file"]))
    expect(b'{"file": "' + raw_path + b'"' in raw, "diag --json: the path's bytes as they are")

    # info --json
    raw = run(blvl, "info", "--json", path)
    doc = parse(raw, "info --json")
    expect(doc and doc["file"] == path, "info --json: file")

    # dump (the FlatBuffers printer)
    raw = run(blvl, "dump", path, "geometry")
    doc = parse(raw, "dump geometry")
    names = [m["name"] for m in doc["materials"]] if doc else []
    expect(names == ["flo\u00e9r \u4e2d \U0001F600", CONTROLS, "g\ufffd(w"], "dump: %r" % names)
    expect(('"' + UTF8 + '"').encode() in raw, "dump: UTF-8 bytes kept")
    expect(CONTROLS_JSON in raw and BAD_JSON in raw, "dump: controls and ill-formed escaped")
    raw = run(blvl, "dump", path, "entities")
    doc = parse(raw, "dump entities")
    expect(doc and doc["entities"][0]["pairs"][0] == {"key": "k\u4e2d", "value": "\U0001F600"},
           "dump entities: pairs")

    # export: the glTF JSON
    out = os.path.join(work, "gltf")
    run(blvl, "export", path, "--gltf", out)
    gl = [f for f in os.listdir(out) if f.endswith(".gltf")]
    with open(os.path.join(out, gl[0]), "rb") as f:
        raw = f.read()
    doc = parse(raw, "export glTF")
    names = [m.get("name") for m in doc["materials"]] if doc else []
    expect(names[:3] == [UTF8, CONTROLS, "g\ufffd(w"], "export: material names %r" % names)
    expect(('"' + UTF8 + '"').encode() in raw, "export: UTF-8 bytes kept")
    expect(CONTROLS_JSON.replace(b" ", b"") in raw, "export: controls in their short forms")
    expect(BAD_JSON in raw, "export: ill-formed as \\ufffd")

    # probe --json: looking down at the floor, batch 2 (the ill-formed material) is on top
    raw = run(blvl, "probe", path, "--pose", "0", "50", "0", "0", "-90", "--json")
    doc = parse(raw, "probe --json")
    expect(doc and doc["view"]["material_name"] == UTF8, "probe: the collider's material")
    expect(doc and doc["geometry"]["material_name"] == "g\ufffd(w",
           "probe: the triangle's material %r" % (doc and doc["geometry"]["material_name"]))
    expect(b'"material_name":' + BAD_JSON in raw, "probe: ill-formed as \\ufffd")

    # diag --dump --json
    raw = run(blvl, "diag", path, "--dump", "materials", "--json")
    doc = parse(raw, "--dump materials --json")
    expect(doc and [m["name"] for m in doc["materials"]] == [UTF8, CONTROLS, "g\ufffd(w"],
           "--dump materials --json: names")
    expect(CONTROLS_JSON in raw and BAD_JSON in raw and ('"' + UTF8 + '"').encode() in raw,
           "--dump materials --json: the exact text")
    doc = parse(run(blvl, "diag", path, "--dump", "entities", "--json"), "--dump entities")
    expect(doc and doc["entities"] == [{"index": 0, "classname": "w\u00e9", "pairs": [
        {"key": "k\u4e2d", "value": "\U0001F600"}, {"key": "c", "value": CONTROLS}]}],
        "--dump entities --json: %r" % (doc and doc["entities"]))
    doc = parse(run(blvl, "diag", path, "--dump", "spawns", "--json"), "--dump spawns")
    expect(doc and doc["spawns"][0]["kind"] == "info_\u00e9" and doc["spawns"][0]["team"] == "\u4e2d",
           "--dump spawns --json: kind and team")
    return path


def check_paths(blvl, work, level):
    """Each ill-formed form (and controls) in a file name: JSON that json.loads reads back as
    Python's errors="replace" decoding, with the exact escapes."""
    forms = {
        b"\x80": b"\\ufffd",                                # a lone continuation byte
        b"\xc0\xaf": b"\\ufffd\\ufffd",                     # overlong '/', 2 bytes
        b"\xe0\x80\xaf": b"\\ufffd\\ufffd\\ufffd",          # overlong, 3 bytes
        b"\xf0\x80\x80\xaf": b"\\ufffd" * 4,                # overlong, 4 bytes
        b"\xed\xa0\x80": b"\\ufffd\\ufffd\\ufffd",          # a surrogate
        b"\xf4\x90\x80\x80": b"\\ufffd" * 4,                # past U+10FFFF
        b"\xff": b"\\ufffd",
        b"\xe4\xb8": b"\\ufffd",                            # cut short
        b"\xf0\x9f\x98": b"\\ufffd",                        # cut short
        b"\x01\x7f\t": b"\\u0001\\u007f\\t",                # controls
        "\u00e9\u4e2d\U0001F600".encode(): "\u00e9\u4e2d\U0001F600".encode(),
    }
    d = os.path.join(work, "paths").encode()
    os.makedirs(d, exist_ok=True)
    for form, want in forms.items():
        p = d + b"/a" + form + b"z.blvl"
        os.symlink(level.encode(), p)
        for args in (["diag", "--json"], ["info", "--json"], ["diag", "--dump", "spawns", "--json"]):
            r = subprocess.run([blvl.encode()] + [a.encode() for a in args] + [p], capture_output=True)
            what = "%s on a path with %r" % (" ".join(args), form)
            doc = parse(r.stdout, what)
            expect(doc and doc["file"] == p.decode("utf-8", "replace"),
                   "%s: file %r" % (what, doc and doc["file"]))
            expect(b'"' + d + b"/a" + want + b'z.blvl"' in r.stdout, "%s: exact text" % what)


def cell_text(col, v):
    """A JSON cell printed the text table's way (cli/diag_dump.c)."""
    if v is None:
        return "-" if col in ("material_name", "symbols_source") else "-1"
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, str):
        if col in ("lo_x", "lo_y", "lo_z", "hi_x", "hi_y", "hi_z", "x", "y", "z", "yaw", "sort"):
            return v  # "nan", "inf", "-inf"
        s = v.replace("\t", " ").replace("\n", " ")
        return (s.replace("\r", " ") if col != "symbols_source" else s) or "-"
    if isinstance(v, list):
        if col == "pairs":
            def s(x):
                return x.replace("\t", " ").replace("\n", " ").replace("\r", " ") or "-"
            return " ".join("%s=%s" % (s(p["key"]), s(p["value"])) for p in v) or "-"
        return ",".join(n or "?" for n in v) or "-"  # symbols_materials
    if col in ("flags", "gametypes"):
        return "0x%x" % v
    if col == "sort":
        return "%g" % v
    if isinstance(v, float) or col in ("lo_x", "lo_y", "lo_z", "hi_x", "hi_y", "hi_z",
                                       "x", "y", "z", "yaw"):
        return "%.9g" % v
    return str(v)


def check_dumps(blvl, level, symbols, what):
    for kind in KINDS:
        extra = ["--symbols", symbols] if symbols else []
        text = run(blvl, "diag", level, "--dump", kind, *extra).decode("utf-8", "replace")
        raw = run(blvl, "diag", level, "--dump", kind, "--json", *extra)
        doc = parse(raw, "%s --dump %s --json" % (what, kind))
        if doc is None:
            continue
        lines = text.split("\n")
        expect(lines[-1] == "", "%s %s: text ends in a newline" % (what, kind))
        header, rows = lines[0].split("\t"), [l.split("\t") for l in lines[1:-1]]
        expect(list(doc) == ["file", kind] and doc["file"] == level,
               "%s %s --json: keys %s" % (what, kind, list(doc)))
        got = doc.get(kind, [])
        expect(len(got) == len(rows), "%s %s: %d JSON rows, %d text rows" %
               (what, kind, len(got), len(rows)))
        for i, (j, t) in enumerate(zip(got, rows)):
            expect(list(j) == header, "%s %s row %d: keys %s, header %s" %
                   (what, kind, i, list(j), header))
            as_text = [cell_text(c, j.get(c)) for c in header]
            expect(as_text == t, "%s %s row %d: JSON %s, text %s" % (what, kind, i, as_text, t))
        # numbers are numbers
        for j in got:
            expect(isinstance(j["index"], int), "%s %s: index a number" % (what, kind))


def main():
    blvl, work = sys.argv[1], sys.argv[2]
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    data = os.path.join(src, "tests", "data")
    level = check_names(blvl, work)
    check_paths(blvl, work, level)
    check_dumps(blvl, level, None, "names level")
    clean = os.path.join(work, "clean.blvl")
    diag_levels.pack(blvl, diag_levels.clean(), clean, os.path.join(work, "clean"))
    check_dumps(blvl, clean, None, "clean")
    os.chdir(work)
    subprocess.run([sys.executable, os.path.join(data, "q3", "make_bsp.py"), "q3"], check=True,
                   capture_output=True)
    samples = [("hmap", os.path.join(data, "hmap", "sample.hmap"), []),
               ("q3", os.path.join(work, "q3", "good.pk3"), []),
               ("subspace", sorted(os.path.join(data, "subspace", "good", f)
                                   for f in os.listdir(os.path.join(data, "subspace", "good"))
                                   if f.endswith(".lvl"))[0], ["--from", "subspace"]),
               ("riot", sorted(os.path.join(data, "riot", "good", f)
                               for f in os.listdir(os.path.join(data, "riot", "good"))
                               if f.endswith(".lvl"))[0], [])]
    for name, inp, extra in samples:
        out, sym = os.path.join(work, name + ".blvl"), os.path.join(work, name + ".bsym")
        run(blvl, "bake", inp, "-o", out, "--symbols", sym, *extra)
        check_dumps(blvl, out, None, name)
        check_dumps(blvl, out, sym, name + " with symbols")
    print("json_output: %d checks, %d failed" % (checks, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

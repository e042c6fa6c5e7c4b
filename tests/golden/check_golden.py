#!/usr/bin/env python3
"""Holds the `blvl` program (and so libblvl) to the golden levels of this directory, whose
bytes, identity, table digest and section digests were computed independently (blvlspec.py:
b3sum and the zstd tool over hand-assembled bytes).

    BLVL_BIN=build/blvl python3 tests/golden/check_golden.py [--quick]

For every golden level:
 (a) `blvl identity` equals the expected identity, `blvl info --json` carries the expected
     table digest (and section digests), `blvl verify` passes, `blvl cat` gives back the
     original raw bytes of every section;
 (b) `blvl pack` of the same raw inputs gives the same bytes where the level is stored raw
     (cmp), and where it has zstd chunks too when the zstd tool here is the version the
     vectors were made with (expected.json "zstd_version"; the library comes from the same
     zstd release); where a chunk is zstd, the packed level is also taken apart independently: its table
     digest, identity and section digests (dd | b3sum) are recomputed, every zstd chunk is
     inflated by the zstd tool and compared with the input; the edited level is reproduced
     with `blvl put` and must keep its identity and reach the expected sections; `blvl drop`
     of the section outside identity keeps the name, and drop/put of a section inside
     identity exits 1 leaving the file untouched;
 (c) flipping any single byte the level references (header, live table, payloads) makes
     `blvl verify` exit 1, and flipping bytes it does not reference (slack of the reserved
     region, padding, the remains of a replaced section) leaves it passing.
A 4 MiB + 100 byte section (two chunks) is assembled at test time the same way.
Exit status 0 when every check passes, 1 otherwise."""

import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import blvlspec as spec  # noqa: E402
import levels  # noqa: E402

BLVL = os.path.abspath(os.environ.get("BLVL_BIN") or os.path.join(HERE, "..", "..", "build", "blvl"))
QUICK = "--quick" in sys.argv
failures = []
passes = 0


def ok(cond, what):
    global passes
    if cond:
        passes += 1
    else:
        failures.append(what)
        print("FAIL: " + what, flush=True)
    return cond


def run(*args, cwd=None):
    return subprocess.run([BLVL] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          cwd=cwd)


def find_key(obj, key):
    """Every value stored under `key` anywhere in a JSON document."""
    out = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == key:
                out.append(v)
            out += find_key(v, key)
    elif isinstance(obj, list):
        for v in obj:
            out += find_key(v, key)
    return out


def read(path):
    with open(path, "rb") as f:
        return f.read()


def check_opened(name, path, exp, inputs):
    """(a): identity, info --json, verify, cat."""
    r = run("identity", path)
    ok(r.returncode == 0 and r.stdout.decode().strip() == exp["identity"],
       "%s: blvl identity gave %r (rc %d), expected %s" %
       (name, r.stdout.decode().strip(), r.returncode, exp["identity"]))
    r = run("info", "--json", path)
    if ok(r.returncode == 0, "%s: blvl info --json exit %d: %s" %
          (name, r.returncode, r.stderr.decode().strip())):
        try:
            doc = json.loads(r.stdout.decode())
        except ValueError as e:
            doc = None
            ok(False, "%s: blvl info --json is not JSON (%s)" % (name, e))
        if doc is not None:
            ok(exp["table_digest"] in find_key(doc, "table_digest"),
               "%s: info --json table_digest %s, expected %s" %
               (name, find_key(doc, "table_digest"), exp["table_digest"]))
            ok(exp["identity"] in find_key(doc, "identity"),
               "%s: info --json identity %s, expected %s" %
               (name, find_key(doc, "identity"), exp["identity"]))
            digests = find_key(doc, "digest")
            for s in exp["sections"]:
                ok(s["digest"] in digests, "%s: info --json lacks the digest %s of %s" %
                   (name, s["digest"], s["tag"]))
    r = run("verify", "--container", path)
    ok(r.returncode == 0, "%s: blvl verify exit %d: %s" %
       (name, r.returncode, r.stderr.decode().strip()))
    # The level rules on top: meta and sim here are empty FlatBuffer tables, which pass; a
    # level without them (the empty one) is refused with exit 1.
    tags = [s["tag"] for s in exp["sections"]]
    want = 0 if "meta" in tags and "sim" in tags else 1
    r = run("verify", path)
    ok(r.returncode == want, "%s: blvl verify (level rules) exit %d, expected %d: %s" %
       (name, r.returncode, want, r.stderr.decode().strip()))
    for s in exp["sections"]:
        r = run("cat", path, s["tag"])
        ok(r.returncode == 0 and r.stdout == inputs[s["tag"]],
           "%s: blvl cat %s gave %d bytes (rc %d), expected the %d input bytes" %
           (name, s["tag"], len(r.stdout), r.returncode, len(inputs[s["tag"]])))


def check_independently(name, path, sections):
    """Take a level our writer produced apart with blvlspec and the b3sum/zstd tools.
    `sections` is the list of (tag, data, version, flags) it was packed from."""
    data = read(path)
    p = spec.parse(data)
    ok(p["version"] == 1 and p["flags"] == 0, "%s: header version/flags" % name)
    ok(p["floor"] == spec.floor_for(len(sections)),
       "%s: floor %d, a baker reserves %d" % (name, p["floor"], spec.floor_for(len(sections))))
    ok(p["table_offset"] == 64, "%s: a baker writes the table at 64, not %d" %
       (name, p["table_offset"]))
    ok(p["count"] == len(sections), "%s: count %d" % (name, p["count"]))
    tdig = spec.table_digest_of(p)
    ok(tdig == p["table_digest"], "%s: stored table digest is not b3sum's" % name)
    ok(spec.identity(p["entries"]) == p["identity"], "%s: stored identity is not b3sum's" % name)
    by_tag = {e.tag: e for e in p["entries"]}
    end = p["floor"]
    for tag, raw, version, flags in sections:
        e = by_tag.get(tag)
        if not ok(e is not None, "%s: section %s missing" % (name, tag)):
            continue
        if "." not in tag:
            flags |= spec.FLAG_IDENTITY
        ok((e.version, e.flags, e.raw_size) == (version, flags, len(raw)),
           "%s: %s version/flags/raw %s" % (name, tag, (e.version, e.flags, e.raw_size)))
        ok(e.offset % 64 == 0 and e.offset >= end, "%s: %s offset %d" % (name, tag, e.offset))
        end = e.offset + e.packed_size
        ok(spec.b3_file_range(path, e.offset, e.packed_size) == e.digest,
           "%s: %s digest is not b3sum of its packed bytes (dd)" % (name, tag))
        packed = data[e.offset:e.offset + e.packed_size]
        chunks = spec.parse_chunks(packed)
        pos = 0
        for i, (off, psize, rsize, codec) in enumerate(chunks):
            ok(rsize == spec.CHUNK or i == len(chunks) - 1,
               "%s: %s chunk %d holds %d raw bytes, not 4 MiB" % (name, tag, i, rsize))
            want = raw[pos:pos + rsize]
            blob = packed[off:off + psize]
            if codec == spec.CODEC_ZSTD:
                size, checksum, did = spec.zstd_frame_info(blob)
                ok(size == rsize and checksum == 0 and did == 0,
                   "%s: %s chunk %d frame header (size %s, checksum %d, dict %d)" %
                   (name, tag, i, size, checksum, did))
                ok(psize < rsize, "%s: %s chunk %d zstd but not smaller" % (name, tag, i))
                ok(spec.unzstd(blob) == want,
                   "%s: %s chunk %d does not inflate (zstd -d) to the input" % (name, tag, i))
            else:
                ok(codec == spec.CODEC_RAW and blob == want,
                   "%s: %s chunk %d raw bytes differ" % (name, tag, i))
            pos += rsize
        ok(pos == len(raw), "%s: %s chunks cover %d of %d bytes" % (name, tag, pos, len(raw)))
    ok(len(data) == end, "%s: file is %d bytes, the last payload ends at %d" %
       (name, len(data), end))
    return p


def flip_checks(name, path, referenced, loose):
    """(c): single-byte flips inside what the level references are refused (exit 1), flips
    outside it are ignored (exit 0); `loose` bytes may go either way."""
    data = bytearray(read(path))
    refs = set(i for a, b in loose for i in range(a, b))
    positions = []
    for a, b in referenced:
        span = [i for i in range(a, b) if i not in refs]
        refs.update(span)
        limit = 24 if QUICK else 64
        if b - a > limit and not (a == 0 and b == 64):
            step = (b - a) / float(limit)
            span = sorted({a + int(i * step) for i in range(limit)} | {b - 1})
        positions += span
    free = [i for i in range(len(data)) if i not in refs]
    if len(free) > 24:
        step = len(free) / 24.0
        free = sorted({free[int(i * step)] for i in range(24)} | {free[-1]})
    tmp = path + ".flip"
    masks = (0x01, 0x80, 0xFF)
    bad_ok = []
    for n, pos in enumerate(sorted(set(positions))):
        d = bytearray(data)
        d[pos] ^= masks[n % 3]
        with open(tmp, "wb") as f:
            f.write(d)
        r = run("verify", "--container", tmp)
        if r.returncode != 1 or not r.stderr.strip():
            bad_ok.append((pos, r.returncode))
    ok(not bad_ok, "%s: flips at referenced bytes not refused with exit 1 (offset, rc): %s" %
       (name, bad_ok[:12]))
    wrongly_refused = []
    for pos in free:
        d = bytearray(data)
        d[pos] ^= 0x5A
        with open(tmp, "wb") as f:
            f.write(d)
        r = run("verify", "--container", tmp)
        if r.returncode != 0:
            wrongly_refused.append((pos, r.returncode, r.stderr.decode().strip()))
    ok(not wrongly_refused, "%s: flips of unreferenced bytes refused: %s" %
       (name, wrongly_refused[:6]))
    os.unlink(tmp)
    print("  %s: %d referenced flips, %d unreferenced flips" %
          (name, len(set(positions)), len(free)), flush=True)


def main():
    if not os.access(BLVL, os.X_OK):
        print("check_golden: no blvl program at %s" % BLVL)
        return 1
    exp = json.load(open(os.path.join(HERE, "expected.json")))
    # With the zstd the vectors were made with, every level is reproduced byte for byte, zstd
    # chunks included (the codec choice of docs/FORMAT.md section 7 is exact).
    same_zstd = spec.zstd_version() == exp["zstd_version"]
    if not same_zstd:
        print("note: zstd tool %s, vectors made with %s: levels with zstd chunks are checked "
              "for content, not bytes" % (spec.zstd_version(), exp["zstd_version"]), flush=True)
    defs = levels.golden_sections()
    work = tempfile.mkdtemp(prefix="blvl-golden-")
    try:
        for lv in exp["levels"]:
            name = lv["name"]
            path = os.path.join(HERE, lv["file"])
            inputs = {s["tag"]: read(os.path.join(HERE, s["input"])) for s in lv["sections"]}
            print("level %s" % name, flush=True)
            exact = lv["byte_exact"] or same_zstd
            # The committed bytes are what blvlspec builds from the committed inputs.
            if exact and name in defs:
                rebuilt = spec.Level(defs[name]).file
                ok(bytes(rebuilt) == read(path), "%s: committed file is not blvlspec's" % name)
            check_opened(name, path, lv, inputs)
            if lv["pack"] is not None:
                out = os.path.join(work, name + ".packed.blvl")
                r = run("pack", "--container", "-o", out, *lv["pack"], cwd=HERE)
                if ok(r.returncode == 0, "%s: blvl pack exit %d: %s" %
                      (name, r.returncode, r.stderr.decode().strip())):
                    if exact:
                        got = read(out)
                        want = read(path)
                        first = next((i for i in range(min(len(got), len(want)))
                                      if got[i] != want[i]), min(len(got), len(want)))
                        ok(got == want, "%s: blvl pack differs from the golden bytes "
                           "(%d vs %d bytes, first difference at %d)" %
                           (name, len(got), len(want), first))
                    if not lv["byte_exact"]:
                        check_independently(name + " (packed)", out, defs[name])
                        r = run("identity", out)
                        p = spec.parse(read(out))
                        ok(r.stdout.decode().strip() == p["identity"].hex(),
                           "%s: blvl identity of the packed level" % name)
                        print("  %s: packed identity %s the golden one (libzstd vs zstd tool)"
                              % (name, "equals" if p["identity"].hex() == lv["identity"]
                                 else "differs from"), flush=True)
            if "same_identity_pack" in lv:
                out = os.path.join(work, name + ".without.blvl")
                r = run("pack", "--container", "-o", out, *lv["same_identity_pack"], cwd=HERE)
                ok(r.returncode == 0 and run("identity", out).stdout.decode().strip() ==
                   lv["identity"], "%s: dropping a section outside identity renamed it" % name)
            if "same_identity_pack" in lv:
                # Dropping the section outside identity in place keeps the name; sections in
                # identity cannot be dropped or replaced in place (exit 1, file untouched).
                out = os.path.join(work, name + ".drop.blvl")
                shutil.copyfile(path, out)
                r = run("drop", out, "eds.blocks")
                ok(r.returncode == 0, "%s: blvl drop eds.blocks exit %d: %s" %
                   (name, r.returncode, r.stderr.decode().strip()))
                ok(run("identity", out).stdout.decode().strip() == lv["identity"],
                   "%s: blvl drop changed the identity" % name)
                ok(run("verify", "--container", out).returncode == 0, "%s: drop result fails verify" % name)
                p = spec.parse(read(out))
                ok(sorted(e.tag for e in p["entries"]) == ["eds.rules", "meta", "sim"],
                   "%s: sections after drop: %s" % (name, [e.tag for e in p["entries"]]))
                tdig = spec.table_digest_of(p)
                ok(tdig == p["table_digest"], "%s: drop left a table digest b3sum disagrees "
                   "with" % name)
                before = read(out)
                for args in (["drop", out, "eds.rules"],
                             ["put", out, "sim", os.path.join(HERE, "inputs/game.sim.bin")]):
                    r = run(*args)
                    ok(r.returncode == 1 and read(out) == before,
                       "%s: blvl %s of a section in identity: exit %d, file %s" %
                       (name, args[0], r.returncode,
                        "unchanged" if read(out) == before else "CHANGED"))
            if "edit" in lv:
                out = os.path.join(work, name + ".put.blvl")
                shutil.copyfile(os.path.join(HERE, lv["edit"]["base"] + ".blvl"), out)
                for tag, version, rel in lv["edit"]["puts"]:
                    args = ["put"] + (["--version", str(version)] if version else [])
                    r = run(*(args + [out, tag, os.path.join(HERE, rel)]))
                    ok(r.returncode == 0, "%s: blvl put %s exit %d: %s" %
                       (name, tag, r.returncode, r.stderr.decode().strip()))
                ok(run("identity", out).stdout.decode().strip() == lv["identity"],
                   "%s: blvl put changed the identity" % name)
                ok(run("verify", "--container", out).returncode == 0, "%s: put result fails verify" % name)
                p = spec.parse(read(out))
                got = sorted((e.tag, e.version, e.flags, e.raw_size, e.packed_size,
                              e.digest.hex()) for e in p["entries"])
                want = sorted((s["tag"], s["version"], s["flags"], s["raw_size"],
                               s["packed_size"], s["digest"]) for s in lv["sections"])
                ok(got == want, "%s: sections after blvl put %s, expected %s" %
                   (name, got, want))
                tdig = spec.table_digest_of(p)
                ok(tdig == p["table_digest"], "%s: put left a table digest b3sum disagrees "
                   "with" % name)
            flip_checks(name, path, lv["referenced"], lv["loose"])

        # The multi-chunk level is 4 MiB: assembled here rather than committed.
        print("level multi (assembled now)", flush=True)
        sections = levels.multi_sections()
        level = spec.Level(sections)
        path = os.path.join(work, "multi.blvl")
        with open(path, "wb") as f:
            f.write(level.file)
        e = {s.tag: s for s in level.entries}["eds.big"]
        ok(e.codecs == [spec.CODEC_ZSTD, spec.CODEC_ZSTD] or len(e.codecs) == 2,
           "multi: eds.big is not two chunks")
        inputs = {}
        for tag, data, _v, _f in sections:
            inputs[tag] = data
            with open(os.path.join(work, "multi.%s.bin" % tag), "wb") as f:
                f.write(data)
        mexp = levels.describe(level, path, lambda t: None)
        check_opened("multi", path, mexp, inputs)
        out = os.path.join(work, "multi.packed.blvl")
        args = levels.pack_args(sections, lambda t: os.path.join(work, "multi.%s.bin" % t))
        r = run("pack", "--container", "-o", out, *args)
        if ok(r.returncode == 0, "multi: blvl pack exit %d: %s" %
              (r.returncode, r.stderr.decode().strip())):
            p = check_independently("multi (packed)", out, sections)
            if same_zstd:
                ok(read(out) == bytes(level.file), "multi: blvl pack differs from the level "
                   "assembled with the zstd tool")
            print("  multi: packed identity %s the one assembled with the zstd tool" %
                  ("equals" if p["identity"] == level.identity else "differs from"), flush=True)
        flip_checks("multi", path, mexp["referenced"], mexp["loose"])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("check_golden: %d passed, %d failed" % (passes, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

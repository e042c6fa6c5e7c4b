"""Hand-made acoustics sections on baked levels, for the tests of what shows the section (export,
view, diag): nothing here bakes acoustics, the probes are placed by tracing the level with
`blvl trace` the way docs/ACOUSTICS.md says a bake stands them.

  acoustics_levels.py correct BLVL LEVEL OUT.json   a correct section for LEVEL: a few probes
      around each spawn, each EAR qu straight above the floor a ray down finds, outside every
      solid; an edge both ways between probes within REACH whose straight ray is unobstructed,
      len_m their distance in metres; a room per connected group
  acoustics_levels.py onto BLVL LEVEL SECTION.json OUT.blvl   LEVEL's sections (its own
      acoustics left out) packed with SECTION as the acoustics section
"""
import json
import math
import os
import subprocess
import sys
import tempfile

EAR = 64.0  # qu above the floor
REACH = 200.0  # qu between probes an edge may join
M_PER_QU = 0.0254


def trace(blvl, level, args, stdin=None):
    r = subprocess.run([blvl, "trace", level, "--json"] + args, input=stdin, capture_output=True,
                       text=True, check=True)
    return [json.loads(l) for l in r.stdout.splitlines() if l.strip()]


def spawns(blvl, level):
    r = subprocess.run([blvl, "diag", level, "--dump", "spawns", "--json"], capture_output=True,
                       text=True, check=True)
    return json.loads(r.stdout)["spawns"]


def correct(blvl, level):
    spots = []
    for s in spawns(blvl, level):
        for dx in (-48, 0, 48):
            for dz in (-48, 0, 48):
                spots.append((s["x"] + dx, s["y"] + 8, s["z"] + dz))
    rays = "".join("%r %r %r %r %r %r\n" % (x, y, z, x, y - 4096, z) for x, y, z in spots)
    probes = []
    for t in trace(blvl, level, ["--points", "-"], rays):
        if t["startsolid"] or t["fraction"] >= 1 or t["normal"][1] < 0.7:
            continue
        p = (t["end"][0], t["end"][1] + EAR, t["end"][2])
        if p not in probes:
            probes.append(p)
    free = trace(blvl, level, [a for p in probes for a in ("--contents",) + tuple(map(repr, p))])
    probes = [p for p, c in zip(probes, free) if c["count"] == 0]
    pairs = [(i, j) for i in range(len(probes)) for j in range(i + 1, len(probes))
             if math.dist(probes[i], probes[j]) <= REACH]
    rays = "".join("%r %r %r %r %r %r\n" % (probes[i] + probes[j]) for i, j in pairs)
    seen = trace(blvl, level, ["--points", "-"], rays) if pairs else []
    near = {i: [] for i in range(len(probes))}
    for (i, j), t in zip(pairs, seen):
        if t["fraction"] >= 1 and not t["startsolid"]:
            near[i].append(j)
            near[j].append(i)
    room = [-1] * len(probes)
    rooms = 0
    for i in range(len(probes)):  # connected groups, each a room
        if room[i] >= 0:
            continue
        stack, room[i] = [i], rooms
        while stack:
            for j in near[stack.pop()]:
                if room[j] < 0:
                    room[j] = rooms
                    stack.append(j)
        rooms += 1
    out = {"probes": [], "edges": [], "rooms": []}
    for i, p in enumerate(probes):
        out["probes"].append({"position": {"x": p[0], "y": p[1], "z": p[2]},
                              "first_edge": len(out["edges"]), "room": room[i],
                              "enclosed": 200, "size_m": 12})
        for j in sorted(near[i]):
            out["edges"].append({"to": j, "len_m": math.dist(p, probes[j]) * M_PER_QU,
                                 "door": 65535, "narrow": False, "reserved": 0})
    for r in range(rooms):
        out["rooms"].append({"rt60_s": 0.4 + 0.1 * r, "damping": 0.5, "outdoor": r % 2 == 1})
    return out


def onto(blvl, level, section, out):
    with tempfile.TemporaryDirectory() as d:
        tags = [l.split()[0] for l in subprocess.run([blvl, "ls", level], capture_output=True,
                                                     text=True, check=True).stdout.splitlines()]
        args = [blvl, "pack", "-o", out]
        for tag in tags:
            if tag == "acoustics":
                continue
            path = os.path.join(d, tag + ".bin")
            with open(path, "wb") as f:
                f.write(subprocess.run([blvl, "cat", level, tag], capture_output=True,
                                       check=True).stdout)
            args.append("%s=bin:%s" % (tag, path))
        args.append("acoustics=json:%s" % section)
        subprocess.run(args, check=True, capture_output=True)


def main():
    if sys.argv[1] == "correct":
        with open(sys.argv[4], "w") as f:
            json.dump(correct(sys.argv[2], sys.argv[3]), f, indent=1)
    elif sys.argv[1] == "onto":
        onto(*sys.argv[2:6])
    else:
        raise SystemExit(__doc__)
    return 0


if __name__ == "__main__":
    sys.exit(main())

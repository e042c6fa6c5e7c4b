"""The Subspace bake's colliders against a greedy rectangle cover computed here (issue 33 §5),
for tests/test_subspace_cover.sh.

  subspace_cover.py gen OUT.lvl SIZE SEED      a map of bare tile records whose every cell of the
                                               SIZE x SIZE corner holds a random tile (0..255
                                               without 219; tile 0 is no record)
  subspace_cover.py check BLVL MAP.lvl OFFSET SIM.json [RATIO]

check reads the map's tile records from byte OFFSET (the later record of a cell wins; x or y
over 1023 and tile 0 skipped), derives each cell's collider kind (docs/IMPORT-SUBSPACE.md: walls
1..161 and the 6 x 6 footprint of a station 219, invisible 240..255 not in a footprint, each
door id 162..169 its own kind), and checks the bake's colliders (`blvl dump LEVEL sim`):
every collider is a whole number of 16-qu cells, all of one kind matching its flags and door;
every solid cell is covered by a collider of its kind; and their count is at most RATIO (1.1)
times the greedy cover below. Prints the counts."""
import heapq
import json
import random
import struct
import sys

G = 1024


def gen(out, size, seed):
    r = random.Random(seed)
    recs = bytearray()
    for y in range(size):
        for x in range(size):
            t = r.randrange(255)
            t += t >= 219
            if t:
                recs += struct.pack("<I", x | y << 12 | t << 24)
    open(out, "wb").write(recs)


def kinds(path, offset):
    data = open(path, "rb").read()[offset:]
    tiles = {}
    for i in range(0, len(data) - 3, 4):
        v, = struct.unpack_from("<I", data, i)
        x, y, t = v & 0xFFF, v >> 12 & 0xFFF, v >> 24
        if x < G and y < G and t:
            tiles[(x, y)] = t
    kind = {}
    for (x, y), t in tiles.items():
        if 1 <= t <= 161:
            kind[(x, y)] = "wall"
        elif 162 <= t <= 169:
            kind[(x, y)] = "door-%d" % t
        elif t >= 240:
            kind[(x, y)] = "clip"
    for (x, y), t in tiles.items():
        if t == 219:
            for yy in range(y, min(y + 6, G)):
                for xx in range(x, min(x + 6, G)):
                    kind[(xx, yy)] = "wall"  # whatever the cell holds (doors too)
    return kind


def greedy(cells):
    """Classic greedy set cover over the maximal rectangles of one kind's cells: each round takes
    the rectangle covering the most cells not yet covered (lazy heap). The rectangles are, for
    each cell as top-left corner, every width of its row run with the most height it allows."""
    cells = set(cells)
    rects = set()
    for (x, y) in cells:
        w = 0
        hmax = None
        while (x + w, y) in cells:
            h = 0
            while (x + w, y + h) in cells and (hmax is None or h < hmax):
                h += 1
            hmax = h
            w += 1
            rects.add((x, y, w, hmax))
    left = set(cells)
    heap = [(-(w * h), x, y, w, h) for (x, y, w, h) in rects]
    heapq.heapify(heap)
    n = 0
    while left:
        g, x, y, w, h = heapq.heappop(heap)
        got = sum((xx, yy) in left for yy in range(y, y + h) for xx in range(x, x + w))
        if heap and got < -heap[0][0]:
            if got:
                heapq.heappush(heap, (-got, x, y, w, h))
            continue
        if not got:
            continue
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                left.discard((xx, yy))
        n += 1
    return n


def check(blvl_name, path, offset, sim_path, ratio):
    kind = kinds(path, offset)
    sim = json.load(open(sim_path))
    doors = [d["name"] for d in sim.get("doors", [])]
    bad = []
    covered = set()
    count = {}
    for i, c in enumerate(sim.get("colliders", [])):
        lo, hi = c["lo"], c["hi"]
        x0, x1, z0, z1 = lo.get("x", 0), hi["x"], lo.get("z", 0), hi["z"]
        if any(v % 16 for v in (x0, x1, z0, z1)) or x1 <= x0 or z1 <= z0:
            bad.append("collider %d is not whole cells" % i)
            continue
        if "door" in c:
            want = doors[c["door"]]
        elif c.get("flags", 0) & 16:
            want = "clip"
        else:
            want = "wall"
        count[want] = count.get(want, 0) + 1
        for y in range(int(z0) // 16, int(z1) // 16):
            for x in range(int(x0) // 16, int(x1) // 16):
                if kind.get((x, y)) != want:
                    bad.append("collider %d (%s) covers cell %d %d of kind %s" %
                               (i, want, x, y, kind.get((x, y))))
                covered.add((x, y))
    for cell in kind:
        if cell not in covered:
            bad.append("solid cell %d %d (%s) is covered by no collider" % (cell + (kind[cell],)))
    total_greedy = 0
    for k in sorted(set(kind.values())):
        g = greedy([c for c, v in kind.items() if v == k])
        total_greedy += g
        print("%s: %s: bake %d, greedy %d" % (blvl_name, k, count.get(k, 0), g))
    total = sum(count.values())
    print("%s: %d solid cells, bake %d colliders, greedy %d (%.3f x)" %
          (blvl_name, len(kind), total, total_greedy, total / total_greedy if total_greedy else 1))
    if total > ratio * total_greedy:
        bad.append("%d colliders, more than %.2f x the greedy cover's %d" %
                   (total, ratio, total_greedy))
    for b in bad[:10]:
        print("BAD:", b)
    return not bad


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        ok = check(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5],
                   float(sys.argv[6]) if len(sys.argv) > 6 else 1.1)
        sys.exit(0 if ok else 1)

#!/usr/bin/env python3
"""The acoustics section of a baked real map against its spawns (tests/test_q3_maps.sh).

    acoustics_check.py ACOUSTICS.json SIM.json NAME [apart]

The JSON files are `blvl dump LEVEL acoustics` and `blvl dump LEVEL sim`. Prints one line,
"ok NAME: ..." or "FAIL NAME: ...", and exits 0 or 1. The rules (docs/ACOUSTICS.md, "Tests"):
  - the section has probes, and every edge's far end is a probe;
  - at least NEAR_ALL_SHARE of the spawns have a probe within NEAR_ALL qu and NEAR_SHARE within
    NEAR qu (a spawn floating over water has no floor a probe stands on under it),
    measured across (x, z) to the probes whose ears are at most EAR_OVER qu above the spawn (a
    spawn floats over its floor in some maps: the game drops the player onto it);
  - of the pairs of spawns (each taken to the probe nearest it in space, of those whose ears
    are at most EAR_OVER qu above it), at least CONNECTED_SHARE are
    joined through the edges (a breadth-first search here, not the library's), unless `apart`
    says the map's areas are joined only where sound does not pass (teleporters, lifts);
  - the graph path between two joined spawns' probes (Dijkstra over len_m, here) is never
    shorter than the straight line between them.
"""
import heapq
import json
import math
import sys

NEAR_ALL = 192.0
NEAR_ALL_SHARE = 0.9
NEAR = 128.0
EAR_OVER = 64.0
NEAR_SHARE = 0.9
CONNECTED_SHARE = 0.8  # "most": four pairs in five
MAX_SOURCES = 16  # Dijkstra from at most this many spawns (the pairs among them)
QU_M = 0.0254


def main():
    ac = json.load(open(sys.argv[1]))
    sim = json.load(open(sys.argv[2]))
    name = sys.argv[3]
    apart = len(sys.argv) > 4 and sys.argv[4] == "apart"
    probes = ac.get("probes", [])
    edges = ac.get("edges", [])
    if not probes:
        return fail(name, "no probes")
    pos = [(p["position"].get("x", 0.0), p["position"].get("y", 0.0), p["position"].get("z", 0.0))
           for p in probes]
    first = [p.get("first_edge", 0) for p in probes] + [len(edges)]
    adj = [[] for _ in probes]
    for i in range(len(probes)):
        for e in edges[first[i]:first[i + 1]]:
            to = e.get("to", 0)
            if to >= len(probes):
                return fail(name, "edge of probe %d to %d, past the probes" % (i, to))
            adj[i].append((to, e.get("len_m", 0.0)))
    spawns = [(s["position"].get("x", 0.0), s["position"].get("y", 0.0),
               s["position"].get("z", 0.0)) for s in sim.get("spawns", []) if "position" in s]
    if not spawns:
        return ok(name, "%d probes, no spawns" % len(probes))
    near, dists = [], []
    for s in spawns:
        below = [(math.hypot(p[0] - s[0], p[2] - s[2]), math.dist(p, s), i)
                 for i, p in enumerate(pos) if p[1] <= s[1] + EAR_OVER]
        d = min(below)[0] if below else math.inf
        # the spawn's probe: the nearest in space (a probe across (x, z) but a floor or more
        # below is not the spawn's), as the runtime query takes a point's probe
        i = min(below, key=lambda t: (t[1], t[2]))[2] if below else 0
        near.append(i)
        dists.append(d)
    far = [i for i, d in enumerate(dists) if d > NEAR_ALL]
    if len(far) > (1 - NEAR_ALL_SHARE) * len(dists):
        return fail(name, "%d of %d spawns have no probe within %g qu (e.g. at %s, nearest %.0f)" %
                    (len(far), len(dists), NEAR_ALL, spawns[far[0]], dists[far[0]]))
    close = sum(d <= NEAR for d in dists) / len(dists)
    if close < NEAR_SHARE:
        return fail(name, "only %.0f%% of spawns have a probe within %g qu" % (100 * close, NEAR))
    comp = components(adj)
    pairs = [(a, b) for a in range(len(near)) for b in range(a + 1, len(near))]
    joined = sum(comp[near[a]] == comp[near[b]] for a, b in pairs)
    share = joined / len(pairs) if pairs else 1.0
    parts = "" if joined == len(pairs) else "; " + spawn_parts(pos, comp, near)
    if share < CONNECTED_SHARE and not apart:
        return fail(name, "only %d of %d spawn pairs connected (%.0f%%, at least %.0f%% wanted)%s" %
                    (joined, len(pairs), 100 * share, 100 * CONNECTED_SHARE, parts))
    checked = 0
    for a in range(min(len(near), MAX_SOURCES)):
        dist = dijkstra(adj, near[a])
        for b in range(len(near)):
            t = near[b]
            if b == a or t not in dist:
                continue
            straight = math.dist(pos[near[a]], pos[t]) * QU_M
            if dist[t] < straight * (1 - 1e-5) - 1e-4:
                return fail(name, "path %.3f m between spawns %d and %d is shorter than the "
                            "straight line %.3f m" % (dist[t], a, b, straight))
            checked += 1
    return ok(name, "%d probes, %d edges; spawns: nearest probe median %.0f qu, %d past %g; %d of "
              "%d pairs connected (%.0f%%%s); %d paths not shorter than the line%s" %
              (len(probes), len(edges), sorted(dists)[len(dists) // 2], len(far), NEAR_ALL,
               joined, len(pairs), 100 * share, ", apart" if apart else "", checked, parts))


def spawn_parts(pos, comp, near):
    """The graph's parts that hold spawns' probes: probes, spawns, their (x, y, z) extent, and
    the distance between the closest probes of the two largest (what a bridge would span)."""
    held = {}
    for i in near:
        held[comp[i]] = held.get(comp[i], 0) + 1
    members = {}
    for i, c in enumerate(comp):
        if c in held:
            members.setdefault(c, []).append(i)
    order = sorted(held, key=lambda c: (-held[c], c))
    out = []
    for c in order[:4]:
        m = members[c]
        lo = [min(pos[i][a] for i in m) for a in range(3)]
        hi = [max(pos[i][a] for i in m) for a in range(3)]
        out.append("part of %d probes, %d spawns, (%.0f %.0f %.0f)..(%.0f %.0f %.0f)" %
                   (len(m), held[c], *lo, *hi))
    if len(order) >= 2:
        a, b = members[order[0]], members[order[1]]
        step = max(1, len(a) * len(b) // 2000000)  # bounded work on a large map
        gap = min(math.dist(pos[i], pos[j]) for i in a[::step] for j in b)
        out.append("the two closest %.0f qu apart" % gap)
    return "; ".join(out)


def components(adj):
    comp = [-1] * len(adj)
    c = 0
    for s in range(len(adj)):
        if comp[s] >= 0:
            continue
        comp[s] = c
        todo = [s]
        while todo:
            u = todo.pop()
            for v, _ in adj[u]:
                if comp[v] < 0:
                    comp[v] = c
                    todo.append(v)
        c += 1
    return comp


def dijkstra(adj, s):
    dist = {s: 0.0}
    heap = [(0.0, s)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for v, w in adj[u]:
            nd = d + w
            if nd < dist.get(v, math.inf):
                dist[v] = nd
                heapq.heappush(heap, (nd, v))
    return dist


def ok(name, what):
    print("ok %s: %s" % (name, what))
    return 0


def fail(name, what):
    print("FAIL %s: %s" % (name, what))
    return 1


if __name__ == "__main__":
    sys.exit(main())

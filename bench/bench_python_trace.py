#!/usr/bin/env python3
"""The Python binding's speed (docs/BENCHMARKS.md, "Python binding"), with Debian's python3:

1. World.trace_many of N box traces (default 1,000,000) on LEVEL, against the C benchmark's
   rate on the same level in the same run (build/bench_trace_level LEVEL, one core): the same
   kind of traces (64 qu in a random direction, the Quake 3 player box 30 x 56 x 30, from starts
   not in solid with ground within 512 qu below and a roof or sky above), one worker, median of
   the runs; the ratio is the Python rate over the C rate (goal >= 0.9). Then the same batch on
   every online CPU.
2. Level.geometry_arrays() of a generated level of V vertices (default 4,000,000; random
   floats, so the section is stored raw) against reading the section's bytes alone: the arrays
   are views of the library's memory, so they cost the read and no per-vertex copy.

  PYTHONPATH=python /usr/bin/python3 bench/bench_python_trace.py LEVEL.blvl [--build DIR]
      [--traces N] [--runs R] [--vertices V]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import blvl

BOX = ((-15, -24, -15), (15, 32, 15))


def c_rate(build, level, traces, runs):
    out = subprocess.run([os.path.join(build, "bench_trace_level"), level, "--traces",
                          str(traces), "--runs", str(runs)], capture_output=True, text=True,
                         check=True).stdout
    return float(re.search(r"traces/s\s+(\d+)", out).group(1)), out.strip()


def make_traces(world, lo, hi, n, rng):
    """Starts as bench_player_spot picks them, in batches through trace_many."""
    starts = np.empty((0, 3), np.float32)
    while len(starts) < n:
        p = (lo + (hi - lo) * rng.random((4 * n, 3))).astype(np.float32)
        ok = ~world.trace_many(p, p, BOX)["startsolid"]
        down = p - np.float32([0, 512, 0])
        ok &= world.trace_many(p, down)["fraction"] < 1
        up = p.copy()
        up[:, 1] = hi[1] + 1
        ok &= world.trace_many(p, up)["fraction"] < 1
        starts = np.concatenate([starts, p[ok]])
    starts = starts[:n]
    d = rng.uniform(-1, 1, (4 * n, 3))
    d = d[((d * d).sum(axis=1) <= 1) & ((d * d).sum(axis=1) >= 1e-6)][:n]
    d /= np.sqrt((d * d).sum(axis=1))[:, None]
    return starts, (starts + 64 * d).astype(np.float32)


def bench_traces(level, build, traces, runs):
    """The C benchmark and trace_many take turns, one run each, so a change in the machine's
    load falls on both; medians of the runs."""
    with blvl.open(level, threads=1) as lv:
        world = lv.trace_world()
        b = lv.colliders()["bounds"]
    lo, hi = b[:, 0].min(axis=0), b[:, 1].max(axis=0)
    starts, ends = make_traces(world, lo, hi, traces, np.random.default_rng(0x9E3779B9))
    out = np.empty(traces, dtype=blvl.TRACE_DTYPE)
    c, py, many = [], [], []
    for _ in range(runs):
        rate, line = c_rate(build, level, traces, 1)
        c.append(rate)
        t = time.perf_counter()
        world.trace_many(starts, ends, BOX, threads=1, out=out)
        py.append(traces / (time.perf_counter() - t))
        t = time.perf_counter()
        world.trace_many(starts, ends, BOX, threads=0, out=out)
        many.append(traces / (time.perf_counter() - t))
    rate_c, rate_py = statistics.median(c), statistics.median(py)
    hit = 100.0 * (out["fraction"] < 1).mean()
    print("C:      %s  traces/s %10.0f one core (median of %d runs of bench_trace_level)" %
          (os.path.basename(level), rate_c, runs))
    print("Python: %s  traces/s %10.0f one worker (trace_many, median of %d, %d each, %.0f%% "
          "hit)  ratio to C %.2f (goal >= 0.9);  %10.0f on %d CPUs" %
          (os.path.basename(level), rate_py, runs, traces, hit, rate_py / rate_c,
           statistics.median(many), os.cpu_count()))


def geometry_bytes(nv, rng):
    """A Geometry FlatBuffer of nv random vertices and nv indices (one triangle per three),
    laid out by hand: root offset, vtable, table, then the two vectors."""
    # random bits with bit 30 clear: finite floats (no exponent of 255) that zstd cannot
    # shrink, so the section is stored raw and its read is the file's own pages
    verts = rng.integers(0, 1 << 32, nv * 13, dtype=np.uint32) & np.uint32(0xBFFFFFFF)
    idx = np.arange(nv, dtype="<u4")
    head = np.zeros(6, dtype="<u4")
    head[0] = 12                      # root: the table at 12
    head[1] = 8 | (12 << 16)          # vtable at 4: 8 bytes, a table of 12 bytes
    head[2] = 4 | (8 << 16)           # field 0 (vertices) at +4, field 1 (indices) at +8
    head[3] = 8                       # the table's offset back to its vtable (12 - 4)
    head[4] = 24 - 16                 # vertices vector at 24, from field at 16
    vec_i = 24 + 4 + nv * 52
    head[5] = vec_i - 20              # indices vector, from the field at 20
    return b"".join([head.tobytes(), np.uint32(nv).tobytes(), verts.tobytes(),
                     np.uint32(nv).tobytes(), idx.tobytes()])


def bench_geometry(nv, runs):
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data",
                       "sections")
    import json
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "big.blvl")
        blvl.pack(path, {"meta": json.load(open(os.path.join(src, "meta.json"))),
                         "sim": json.load(open(os.path.join(src, "sim.json"))),
                         "geometry": geometry_bytes(nv, np.random.default_rng(1))})
        t_arr, t_read, t_copy = [], [], []
        with blvl.open(path, threads=1) as lv:
            for _ in range(runs):
                t = time.perf_counter()
                g = lv.geometry_arrays()
                t_arr.append(time.perf_counter() - t)
                t = time.perf_counter()
                lv.read("geometry", copy=False)
                t_read.append(time.perf_counter() - t)
                t = time.perf_counter()
                np.array(g["positions"])
                t_copy.append(time.perf_counter() - t)
        pos = g["positions"]
        print("geometry: %d vertices (%.0f MB section): geometry_arrays %.4f s, the section's "
              "read alone %.4f s (ratio %.2f), one copy of positions would add %.4f s; "
              "positions %s %s, owns its data: %s, a view of vertices: %s" %
              (len(pos), (nv * 56 + 32) / 1e6, statistics.median(t_arr),
               statistics.median(t_read), statistics.median(t_arr) / statistics.median(t_read),
               statistics.median(t_copy), pos.shape, pos.dtype, pos.flags.owndata,
               np.shares_memory(pos, g["vertices"])))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("level")
    ap.add_argument("--build", default=os.environ.get("BLVL_BUILD_DIR", "build"))
    ap.add_argument("--traces", type=int, default=1000000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--vertices", type=int, default=4000000)
    a = ap.parse_args()
    bench_traces(a.level, a.build, a.traces, a.runs)
    if a.vertices:
        bench_geometry(a.vertices, a.runs)


if __name__ == "__main__":
    sys.exit(main())

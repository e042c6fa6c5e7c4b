#!/usr/bin/env bash
# `make bench-maps`: every map of OpenArena's pak1-maps.pk3 baked in parallel (one bake per
# online CPU) with the game's folder as the search path, then:
#   - bake time per map (wall clock of `blvl bake`): median and max;
#   - .blvl size against the .bsp plus the images it uses (the files its textures section names,
#     as stored uncompressed in the archives, later archives first), per map and in total;
#   - `blvl verify` of every level against `b3sum` of the same files plus `zstd -d` of their
#     zstd chunks (bench/level_tools.py chunks), summed over the levels, best of 3 runs.
# usage: scripts/bench-maps.sh BUILD_DIR    (BLVL_Q3_BASEOA: the game folder)
set -eu
build=${1:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
blvl=$(cd "$build" && pwd)/blvl
oa=${BLVL_Q3_BASEOA:-/usr/share/games/openarena/baseoa}
[ -x "$blvl" ] || { echo "bench-maps: no $blvl (build first)" >&2; exit 1; }
[ -f "$oa/pak1-maps.pk3" ] || {
    echo "bench-maps: $oa/pak1-maps.pk3 absent (scripts/deps.sh installs it)" >&2; exit 1; }
for tool in b3sum zstd python3; do
    command -v "$tool" >/dev/null || { echo "bench-maps: $tool is required" >&2; exit 1; }
done
out=$(cd "$build" && pwd)/bench-maps
rm -rf "$out"
mkdir -p "$out"
cd "$out"
python3 -c "import sys, zipfile; [print(n) for n in sorted(zipfile.ZipFile(sys.argv[1]).namelist()) if n.lower().startswith('maps/') and n.lower().endswith('.bsp')]" \
    "$oa/pak1-maps.pk3" >maps.txt
bake_one() {
    local b t0 t1
    b=$(basename "$1" .bsp)
    t0=$(date +%s.%N)
    "$blvl" bake "$1" --pk3 "$oa" -o "$b.blvl" --symbols "$b.bsym" >"$b.out" 2>"$b.err" ||
        { echo "bench-maps: $b: $(cat "$b.err")" >&2; return 1; }
    t1=$(date +%s.%N)
    echo "$b $t0 $t1" | awk '{printf "%s %.3f\n", $1, $3 - $2}' >"$b.time"
}
export -f bake_one
export blvl oa
cpus=$(nproc)
start=$(date +%s.%N)
xargs -P"$cpus" -n1 bash -c 'bake_one "$0"' <maps.txt
end=$(date +%s.%N)
cat ./*.time >times.txt
n=$(wc -l <maps.txt)
echo "bench-maps: $n maps baked on $cpus workers in $(echo "$start $end" | awk '{printf "%.1f", $2 - $1}') s"

# The textures each level holds, by name (blvl dump: the section as JSON).
for f in ./*.blvl; do
    b=$(basename "$f" .blvl)
    "$blvl" dump --indent 0 "$f" textures >"$b.textures.json" 2>/dev/null || echo '{}' >"$b.textures.json"
    python3 "$here/bench/level_tools.py" chunks "$f" "$b.zst" >/dev/null
done

# verify against b3sum + zstd -d over the same bytes: all levels, best of 3.
best() { # COMMAND...: the least wall time of 3 runs, seconds
    local bestt=999999 t0 t1 t
    for _ in 1 2 3; do
        t0=$(date +%s.%N); "$@" >/dev/null 2>&1; t1=$(date +%s.%N)
        t=$(echo "$t0 $t1" | awk '{printf "%.4f", $2 - $1}')
        bestt=$(echo "$bestt $t" | awk '{print ($2 < $1) ? $2 : $1}')
    done
    echo "$bestt"
}
verify_all() { for f in ./*.blvl; do "$blvl" verify "$f" || return 1; done; }
ref_all() { for f in ./*.blvl; do b3sum "$f" && zstd -d -c -q "${f%.blvl}.zst" >/dev/null || return 1; done; }
verify_all >/dev/null || { echo "bench-maps: a level fails blvl verify" >&2; exit 1; }
tv=$(best verify_all)
tr=$(best ref_all)

python3 - "$oa" "$tv" "$tr" <<'PY'
import glob, json, os, statistics, sys, zipfile
oa, tv, tr = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
# The search path as the bake reads it: the folder's archives in byte order, later ones win.
files = {}
for p in sorted(glob.glob(os.path.join(oa, "*.pk3")), key=lambda s: os.path.basename(s).encode()):
    for i in zipfile.ZipFile(p).infolist():
        files[i.filename.replace("\\", "/").lower()] = i.file_size
for root, _, names in os.walk(oa):  # loose files last
    for nm in names:
        if not nm.lower().endswith(".pk3") or root != oa:
            rel = os.path.relpath(os.path.join(root, nm), oa)
            files[rel.replace("\\", "/").lower()] = os.path.getsize(os.path.join(root, nm))
times = {}
for line in open("times.txt"):
    b, t = line.split()
    times[b] = float(t)
rows = []
for b in sorted(times):
    bsp = files.get("maps/%s.bsp" % b.lower(), 0)
    with open(b + ".textures.json") as f:
        tex = json.load(f)
    names = {im.get("name", "").replace("\\", "/").lower() for im in tex.get("images", [])}
    images = sum(files.get(nm, 0) for nm in names if nm)
    size = os.path.getsize(b + ".blvl")
    rows.append((b, times[b], size, bsp, images, len(names)))
print("%-18s %7s %10s %10s %10s %6s %7s" % ("map", "bake s", ".blvl", ".bsp", "images", "n img",
                                           "ratio"))
for b, t, size, bsp, images, ni in rows:
    print("%-18s %7.2f %10d %10d %10d %6d %7.3f" % (b, t, size, bsp, images, ni,
                                                     size / max(1, bsp + images)))
ts = [r[1] for r in rows]
tot_l = sum(r[2] for r in rows)
tot_s = sum(r[3] + r[4] for r in rows)
print("bake time per map: median %.2f s, max %.2f s (%s)" %
      (statistics.median(ts), max(ts), max(rows, key=lambda r: r[1])[0]))
print(".blvl total %.1f MiB vs .bsp + images %.1f MiB: ratio %.3f (median per map %.3f)" %
      (tot_l / 2**20, tot_s / 2**20, tot_l / max(1, tot_s),
       statistics.median(r[2] / max(1, r[3] + r[4]) for r in rows)))
print("blvl verify of all %d levels: %.3f s; b3sum + zstd -d of the same bytes: %.3f s; "
      "ratio %.2f" % (len(rows), tv, tr, tv / tr if tr else float("nan")))
PY

#!/usr/bin/env bash
# The split libraries as a game's programs see them, from the INSTALLED packages (`cmake
# --install` to a private prefix): a game server (tests/link/trace_only.c: open, read sim,
# trace) built on `blvl` alone, with pkg-config (shared, and static with --static) and with
# find_package's blvl::blvl, loads libblvl.so and nothing of libblvl-http or libblvl-tools (no
# libcurl, no libzip, no libjpeg) and traces as `blvl trace` does; a streaming client
# (tests/link/stream_client.c) built on `blvl` + `blvl-http` reads a level over HTTP from nginx on
# 127.0.0.1 and sees the sections the file holds.
. "$BLVL_SRC/tests/support/cli.sh"
. "$BLVL_SRC/tests/support/nginx.sh"
build=${BLVL_BUILD:?}
if [ -n "${BLVL_SANITIZED:-}" ]; then
    echo "test_link_installed: skipped under the sanitizers (an instrumented library needs an instrumented program)"
    exit 0
fi
cli_workdir
prefix=$work/prefix
ok "cmake --install to a private prefix" cmake --install "$build" --prefix "$prefix"
for pc in blvl blvl-http blvl-tools; do
    ok "$pc.pc installed" test -n "$(find "$prefix" -name "$pc.pc")"
done
export PKG_CONFIG_PATH=$(dirname "$(find "$prefix" -name blvl.pc | head -n 1)")
libdir=$(pkg-config --variable=libdir blvl)

# --- the game server: blvl alone ----------------------------------------------------------
link=$src/tests/link
ok "server: pkg-config blvl" sh -c "cc -o server '$link/trace_only.c' \$(pkg-config --cflags --libs blvl) -Wl,-rpath,'$libdir'"
# README.md's static link line
ok "server: libblvl.a" sh -c "cc -o server_static '$link/trace_only.c' \$(pkg-config --cflags blvl) '$libdir/libblvl.a' \$(pkg-config --libs --static libzstd) -lpthread -lm"
ok "pkg-config --static blvl names no HTTP or tools library" sh -c "! pkg-config --libs --static blvl | grep -qE 'curl|zip|jpeg|-lz( |\$)'"
mkdir app
cp "$link/trace_only.c" app/
cat >app/CMakeLists.txt <<'CM'
cmake_minimum_required(VERSION 3.20)
project(server C)
find_package(blvl REQUIRED)
add_executable(server trace_only.c)
target_link_libraries(server PRIVATE blvl::blvl)
add_executable(server_static trace_only.c)
target_link_libraries(server_static PRIVATE blvl::blvl_static)
CM
ok "server: find_package(blvl) configure" cmake -S app -B app/build -DCMAKE_PREFIX_PATH="$prefix"
ok "server: find_package(blvl) build" cmake --build app/build
ldd server >server.ldd 2>&1
ok "the server loads the prefix's libblvl.so" test "$(readlink -f "$(awk '/libblvl\.so/ { print $3 }' server.ldd)")" = "$(readlink -f "$libdir/libblvl.so")"
ok "  and no libblvl-http, libblvl-tools, libcurl, libzip, libjpeg" sh -c "! grep -qE 'blvl-http|blvl-tools|curl|zip|jpeg' server.ldd"
ok "the static server needs no libblvl.so" sh -c "! ldd server_static | grep -q libblvl"
ok "the find_package server loads no HTTP or tools library" sh -c "! ldd app/build/server | grep -qE 'blvl-http|blvl-tools|curl|zip|jpeg'"

cat >sim.json <<'J'
{"colliders": [
 {"lo": {"x": -512, "y": -16, "z": -512}, "hi": {"x": 512, "y": 0, "z": 512}, "flags": 2,
  "shape_type": "Planes", "shape": {"planes": [
   {"normal": {"x": 1, "y": 0, "z": 0}, "dist": 512}, {"normal": {"x": -1, "y": 0, "z": 0}, "dist": 512},
   {"normal": {"x": 0, "y": 1, "z": 0}, "dist": 0}, {"normal": {"x": 0, "y": -1, "z": 0}, "dist": 16},
   {"normal": {"x": 0, "y": 0, "z": 1}, "dist": 512}, {"normal": {"x": 0, "y": 0, "z": -1}, "dist": 512}]}}
]}
J
rc 0 pack -o level.blvl "meta=$src/tests/data/sections/meta.json" sim=sim.json
for p in ./server ./server_static ./app/build/server ./app/build/server_static; do
    "$p" level.blvl 0 256 0 0 -256 0 -16 -24 -16 16 32 16 >"got" 2>&1
    ok "$p: a box dropped onto the floor stops on it" grep -qE '^fraction 0\.45[0-9]* end 0 24\.0[0-9]* 0 collider 0$' got
done

# --- the streaming client: blvl + blvl-http -----------------------------------------------
ok "client: pkg-config blvl blvl-http" sh -c "cc -o client '$link/stream_client.c' \$(pkg-config --cflags --libs blvl blvl-http) -Wl,-rpath,'$libdir'"
ok "  loads libblvl-http.so and no libblvl-tools" sh -c "ldd client | grep -q blvl-http && ! ldd client | grep -qE 'blvl-tools|zip|jpeg'"
ok "the server cannot be linked as a client (blvl alone lacks blvl_open_url)" \
    sh -c "! cc -o nope '$link/stream_client.c' \$(pkg-config --cflags --libs blvl)"
if [ -z "$nginx_bin" ]; then
    echo "nginx not installed: the client is built but not run"
else
    mkdir www
    rc 0 bake "$src/tests/data/hmap/sample.hmap" -o www/level.blvl
    nginx_start www || exit 1
    ok "client reads the file" sh -c "./client www/level.blvl >file.txt"
    ok "client reads the URL" sh -c "./client '$nginx_url/level.blvl' >url.txt"
    ok "  the same sections, sizes and digests" cmp file.txt url.txt
    ok "  every section of the level" test "$(wc -l <url.txt)" = "$("$blvl" ls www/level.blvl | wc -l)"
fi
cli_done test_link_installed

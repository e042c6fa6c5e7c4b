#!/usr/bin/env bash
# The installed library as a user's program sees it: `cmake --install` to a private prefix, then
# a tiny consumer built three ways (find_package(blvl) with blvl::blvl and blvl::blvl_static,
# and pkg-config with -Wl,-rpath as README.md says) and run: it includes <blvl/blvl.h>, checks
# the header version against the library's, writes a level in memory and reads it back. Also
# `blvl --version` against CMakeLists.txt's project(VERSION), and the version file refusing a
# version it is not compatible with.
set -u
src=${BLVL_SRC:?}
build=${BLVL_BUILD:?}
bin=${BLVL_BIN:?}
if [ -n "${BLVL_SANITIZED:-}" ]; then
    # the installed library is instrumented: a plain consumer cannot link it
    echo "test_install: skipped under the sanitizers (the release run covers it)"
    exit 0
fi
for tool in cmake pkg-config cc; do
    command -v "$tool" >/dev/null || { echo "test_install: $tool is required" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { local what=$1; shift; if "$@" >"$work/log" 2>&1; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $what"; tail -n 20 "$work/log"; fi; }

version=$(sed -n 's/^project(blvl VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
ok "blvl --version prints the project version ($version)" test "$("$bin" --version)" = "blvl $version"

prefix=$work/prefix
uses_prefix() { # the libblvl.so PROGRAM loads is the prefix's (paths resolved)
    test "$(readlink -f "$(ldd "$1" | awk '/libblvl/ { print $3 }')")" = "$(readlink -f "$prefix/lib/libblvl.so")"
}
ok "cmake --install to a private prefix" cmake --install "$build" --prefix "$prefix"
pc=$(find "$prefix" -name blvl.pc | head -n 1)
config=$(find "$prefix" -name blvlConfig.cmake | head -n 1)
ok "blvl.pc installed" test -f "$pc"
ok "blvlConfig.cmake installed" test -f "$config"
ok "blvlConfigVersion.cmake beside it" test -f "$(dirname "$config")/blvlConfigVersion.cmake"

mkdir -p "$work/app"
cat >"$work/app/app.c" <<'C'
#include <blvl/blvl.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    if (blvl_version_number() != BLVL_VERSION_NUMBER ||
        strcmp(blvl_version_string(), BLVL_VERSION_STRING) != 0) {
        fprintf(stderr, "headers %s, library %s\n", BLVL_VERSION_STRING, blvl_version_string());
        return 1;
    }
    blvl_section_in s = {"game.x", 0, 0, "hello", 5};
    void *file;
    size_t size;
    blvl_error err;
    blvl_level *lv;
    blvl_bytes sec;
    if (blvl_write_memory(&file, &size, &s, 1, NULL, &err) ||
        blvl_open_memory(&lv, file, size, NULL, &err) || blvl_read(lv, "game.x", &sec, &err)) {
        fprintf(stderr, "%s\n", err.message); /* the message starts with the rule's name */
        return 1;
    }
    int same = sec.size == 5 && memcmp(sec.data, "hello", 5) == 0;
    blvl_bytes_free(&sec);
    blvl_close(lv);
    blvl_free(NULL, file);
    printf("blvl %s %s\n", blvl_version_string(), same ? "ok" : "bad");
    return !same;
}
C
cat >"$work/app/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.20)
project(app C)
find_package(blvl $version REQUIRED)
add_executable(app app.c)
target_link_libraries(app PRIVATE blvl::blvl)
add_executable(app_static app.c)
target_link_libraries(app_static PRIVATE blvl::blvl_static)
CM
ok "find_package(blvl $version): configure" cmake -S "$work/app" -B "$work/app/build" -DCMAKE_PREFIX_PATH="$prefix"
ok "find_package(blvl): build" cmake --build "$work/app/build"
ok "blvl::blvl runs" sh -c "'$work/app/build/app' | grep -qx 'blvl $version ok'"

ok "blvl::blvl is the installed shared library" uses_prefix "$work/app/build/app"
ok "blvl::blvl_static runs" sh -c "'$work/app/build/app_static' | grep -qx 'blvl $version ok'"
ok "blvl::blvl_static needs no libblvl.so" sh -c "! ldd '$work/app/build/app_static' | grep -q libblvl"

# the version file: an incompatible request is refused
sed "s/find_package(blvl $version REQUIRED)/find_package(blvl 9.0 REQUIRED)/" "$work/app/CMakeLists.txt" >"$work/app/v.txt"
mkdir -p "$work/app9" && cp "$work/app/app.c" "$work/app9/" && mv "$work/app/v.txt" "$work/app9/CMakeLists.txt"
ok "find_package(blvl 9.0) is refused" sh -c "! cmake -S '$work/app9' -B '$work/app9/build' -DCMAKE_PREFIX_PATH='$prefix'"

# pkg-config, with the rpath README.md shows
export PKG_CONFIG_PATH=$(dirname "$pc")
ok "pkg-config --modversion" test "$(pkg-config --modversion blvl)" = "$version"
libdir=$(pkg-config --variable=libdir blvl)
ok "pkg-config: build with -Wl,-rpath" sh -c "cc -o '$work/app/pc' '$work/app/app.c' \$(pkg-config --cflags --libs blvl) -Wl,-rpath,'$libdir'"
ok "pkg-config build runs" sh -c "'$work/app/pc' | grep -qx 'blvl $version ok'"
ok "pkg-config build uses the prefix's library" uses_prefix "$work/app/pc"

echo "test_install: $pass passed, $fail failed"
[ "$fail" = 0 ]

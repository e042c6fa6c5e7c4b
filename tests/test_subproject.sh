#!/usr/bin/env bash
# blvl as a dependency (add_subdirectory, as FetchContent does): configured inside another
# project it compiles with -Wall -Wextra but without -Werror (a newer compiler's new warning must
# not break a user's build), with hidden visibility, builds none of its tests, and offers the
# find_package names blvl::blvl and blvl::blvl_static (and blvl::http, blvl::tools and their
# _static). BLVL_WERROR=ON brings -Werror back.
# Configure only: the compile commands say it all, and the library itself is built by the
# release run.
set -u
src=${BLVL_SRC:?}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { local what=$1; shift; if "$@" >"$work/log" 2>&1; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $what"; tail -n 20 "$work/log"; fi; }

mkdir -p "$work/app"
echo 'int main(void) { return 0; }' >"$work/app/app.c"
cat >"$work/app/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.20)
project(app C)
add_subdirectory("$src" blvl)
add_executable(app app.c)
target_link_libraries(app PRIVATE blvl::blvl_static)
add_executable(app_shared app.c)
target_link_libraries(app_shared PRIVATE blvl::blvl)
add_executable(app_http app.c)
target_link_libraries(app_http PRIVATE blvl::http blvl::http_static)
add_executable(app_tools app.c)
target_link_libraries(app_tools PRIVATE blvl::tools blvl::tools_static)
CM
cfg() { cmake -S "$work/app" -B "$1" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON "${@:2}"; }
ok "configure as a subproject" cfg "$work/b1"
cc=$work/b1/compile_commands.json
# the library's own sources (src/), one of each layer at least
lib() { python3 - "$1" "$2" <<'P'
import json, sys
cmds = [e["command"] for e in json.load(open(sys.argv[1])) if "/src/" in e["file"] and e["file"].endswith(".c")]
want = sys.argv[2]
ok = len(cmds) > 20 and all(eval(want, {"c": c.split()}) for c in cmds)
sys.exit(0 if ok else 1)
P
}
ok "library compiled with -Wall -Wextra" lib "$cc" '"-Wall" in c and "-Wextra" in c'
ok "  and without -Werror" lib "$cc" '"-Werror" not in c'
ok "  and with hidden visibility" lib "$cc" '"-fvisibility=hidden" in c'
ok "no tests built" bash -c "! grep -q 'tests/test_' '$cc'"
ok "BLVL_WERROR=ON: configure" cfg "$work/b2" -DBLVL_WERROR=ON
ok "  and -Werror is back" lib "$work/b2/compile_commands.json" '"-Werror" in c'
echo "test_subproject: $pass passed, $fail failed"
[ $fail = 0 ]

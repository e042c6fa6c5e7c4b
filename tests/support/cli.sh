# Shared by the tests/test_cli_*.sh scripts: counters and the checks they all use. Source it,
# call cli_workdir (or set $blvl, the program under test, yourself); finish with `cli_done NAME`.
#   cli_workdir         $blvl and $src from ctest's environment, then a new folder as the
#                       current one ($work), removed on exit
#   ok WHAT CMD...      CMD succeeds (its output discarded)
#   rc WANT ARGS...     `blvl ARGS` exits WANT; its stdout in ./out, stderr in ./err
#   has FILE TEXT       FILE holds TEXT
#   none FILE           FILE does not exist (nothing left behind)
pass=0 fail=0
ok() { local what=$1; shift; if "$@" >/dev/null 2>&1; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $what"; fi; }
rc() { local want=$1; shift; "$blvl" "$@" >out 2>err; local got=$?
       if [ $got = "$want" ]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: blvl $* exited $got, expected $want: $(head -c 300 err)"; fi; }
has() { if grep -qF -- "$2" "$1"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $1 lacks '$2': $(head -c 300 "$1")"; fi; }
none() { if [ ! -e "$1" ]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $1 was left behind"; fi; }
cli_done() { echo "$1: $pass passed, $fail failed"; [ "$fail" = 0 ]; }
cli_workdir() {
    blvl=${BLVL_BIN:?} src=${BLVL_SRC:?}
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    cd "$work" || exit 1
}

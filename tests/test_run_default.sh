#!/usr/bin/env bash
# `make run` (scripts/run-default.sh) on the bundled samples: it succeeds, and the two levels it
# makes (the default level packed from tests/data/sections/, the baked .hmap sample) pass
# `blvl diag` with no error: the project's own files pass its own checks (issue 28, 6).
set -u
. "${BLVL_SRC:?}/tests/support/cli.sh"
cli_workdir
# run-default.sh takes a build folder holding `blvl` and writes its levels under it
mkdir b && ln -s "$blvl" b/blvl
if "$src/scripts/run-default.sh" "$work/b" >run.out 2>run.err; then pass=$((pass+1)); else
    fail=$((fail+1)); echo "FAIL: run-default.sh exited non-zero: $(tail -c 600 run.err)"; fi
has run.err "b/default/default.blvl: 0 errors,"
has run.err "b/default/sample.blvl: 0 errors,"
# each level checked on its own as well, so a change to the script cannot hide an error
for lv in default sample; do
    [ -f "b/default/$lv.blvl" ] || { fail=$((fail+1)); echo "FAIL: no $lv.blvl"; continue; }
    rc 0 diag "b/default/$lv.blvl"
    if grep -q " error " out; then fail=$((fail+1)); echo "FAIL: $lv: $(head -c 400 out)"; fi
done
cli_done test_run_default

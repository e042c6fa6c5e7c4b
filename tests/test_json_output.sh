#!/usr/bin/env bash
# Every JSON the CLI writes keeps UTF-8, escapes controls and replaces ill-formed bytes the one
# way, and diag --dump KIND --json holds the text table's rows (tests/support/json_output.py).
set -u
. "${BLVL_SRC:?}/tests/support/cli.sh"
cli_workdir
if python3 "$src/tests/support/json_output.py" "$blvl" "$work" >report.txt 2>&1; then
    pass=$((pass+1))
else
    fail=$((fail+1))
fi
cat report.txt
cli_done test_json_output

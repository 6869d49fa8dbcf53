#!/bin/bash
# SPDX-License-Identifier: MIT
# check_helpers.sh — tests/cli/lib.bash's `report` and `skip_all`, run in child shells: a
# script that ran no check fails, one that checked something passes only without a
# failure, and skip_all exits 77 (CTest's SKIP_RETURN_CODE) unless a check has failed.
# (tests/repo/test_check.c does the same for the C helper, check.h.)
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check_helpers.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
. "$here/../cli/lib.bash"

# Runs BODY in a child shell that has sourced lib.bash; its status in $child.
child() {
	tmp=$tmp bash -c ". '$here/../cli/lib.bash'; $1" >"$tmp/child.out" 2>&1
	child=$?
}

child 'report'
if [ "$child" -ne 0 ] && grep -q 'no check ran' "$tmp/child.out"; then
	ok "report with no check: fails and says why"
else
	fail "report with no check: status $child: $(show "$(cat "$tmp/child.out")")"
fi
child 'ok one; report'
[ "$child" -eq 0 ] && ok "report after one pass: 0" || fail "report after one pass: $child"
child 'ok one; fail two; report'
[ "$child" -eq 1 ] && ok "report after a failure: 1" || fail "report after a failure: $child"
child 'skip_all nothing here; ok never'
[ "$child" -eq 77 ] && ok "skip_all: 77" || fail "skip_all: $child, not 77"
child 'fail one; skip_all nothing here'
[ "$child" -eq 1 ] && ok "skip_all after a failure: 1" || fail "skip_all after a failure: $child"

report

#!/bin/bash
# SPDX-License-Identifier: MIT
# cluster_fault.sh MPIEXEC PROGRAM RANKS kill|hang — a rank that dies (SIGKILL) or hangs
# (SIGSTOP) in the middle of a cluster search ends the run with an error within a bounded
# time (test_cluster_fault.c): mpirun exits non-zero within 60 s, and after a hang the
# survivors name the wait that timed out ("cluster error: ...").
set -u
mpiexec=$1 prog=$2 ranks=$3 mode=$4
out=$(mktemp)
trap 'rm -f "$out"' EXIT
start=$(date +%s)
timeout -s KILL 120 "$mpiexec" -np "$ranks" --oversubscribe "$prog" "$mode" >"$out" 2>&1
rc=$?
elapsed=$(($(date +%s) - start))
passed=0 failed=0
check() {
	if eval "$1"; then
		echo "ok - $2"
		passed=$((passed + 1))
	else
		echo "FAIL - $2"
		failed=$((failed + 1))
	fi
}
check '[ $rc -ne 0 ]' "$mode at $ranks ranks: mpirun exits with an error (status $rc)"
check '[ $elapsed -le 60 ]' "$mode at $ranks ranks: within 60 s (took $elapsed s)"
check '! grep -q "the fault was not seen" "$out"' "$mode: no rank completed the search"
if [ "$mode" = hang ]; then
	check 'grep -q "cluster error: rank [0-9]*: .*2000 ms" "$out"' \
		"hang: a survivor says which wait timed out"
fi
if [ $failed -gt 0 ]; then
	echo "--- output:"
	cat "$out"
fi
echo "$passed passed, $failed failed"
# No check run is a failure, as in tests/include/check.h and tests/cli/lib.bash.
if [ $((passed + failed)) -eq 0 ]; then
	echo "FAIL - no check ran"
	exit 1
fi
[ "$failed" -eq 0 ]

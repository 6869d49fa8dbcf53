#!/bin/bash
# SPDX-License-Identifier: MIT
# cluster_fault.sh MPIEXEC PROGRAM RANKS kill|hang — a rank that dies (SIGKILL) or hangs
# (SIGSTOP) in the middle of a cluster search ends the run with an error within a bounded
# time (test_cluster_fault.c): mpirun exits non-zero within 60 s, and after a hang the
# survivors name the wait that timed out ("cluster error: ...").
set -u
mpiexec=$1 prog=$2 ranks=$3 mode=$4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cluster_fault.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
# ok, fail, report and $out, the file $tmp/out (the command tests' lib.bash).
. "$(dirname "$0")/../cli/lib.bash"
start=$(date +%s)
timeout -s KILL 120 "$mpiexec" -np "$ranks" --oversubscribe "$prog" "$mode" >"$out" 2>&1
rc=$?
elapsed=$(($(date +%s) - start))
# check TEST WHAT: ok WHAT when the shell test TEST holds, else fail WHAT.
check() {
	if eval "$1"; then
		ok "$2"
	else
		fail "$2"
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
report

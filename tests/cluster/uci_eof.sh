#!/bin/bash
# SPDX-License-Identifier: MIT
# uci_eof.sh MPIEXEC CUTOFF — `mpirun -np N cutoff uci` whose input ends without `quit`
# (a GUI that closes the pipe or dies) ends every rank (issue 25, item 1): end of input acts
# as quit on rank 0, which ends the command channel, and the other ranks leave on that.
# Checked with 2 and 3 ranks, each session under a 30 s bound (a rank that waits for a line
# that never comes is a hang, not a slow run):
#   - idle: `isready`, then the end: readyok, mpirun exits 0;
#   - in the middle of a search (`go infinite`, `go depth 30`, the input left open for a
#     second so that the search runs, and `go infinite` ended at once): bestmove, exit 0;
#   - `quit` still ends it (the other ranks then drain the channel to its end);
#   - after each, no process of the session is left (found by a variable of its own in
#     /proc/PID/environ, so that a rank under init counts too; any found is killed).
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u

if [ $# -ne 2 ] || [ ! -x "$2" ]; then
	echo "usage: $0 MPIEXEC PATH-TO-CUTOFF" >&2
	exit 2
fi
mpiexec=$1 cutoff=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/uci_eof.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

# ok, fail and the counters (the command tests' lib.bash).
. "$(dirname "$0")/../cli/lib.bash"

# left TAG: the PIDs of live processes whose environment holds CUTOFF_UCI_EOF_TAG=TAG.
left() {
	local p pids=
	for p in /proc/[0-9]*; do
		grep -qzx "CUTOFF_UCI_EOF_TAG=$1" "$p/environ" 2>/dev/null && pids="$pids ${p#/proc/}"
	done
	echo $pids
}

# session NAME RANKS PAUSE INPUT WANT: INPUT (printf format) to `cutoff uci` under mpirun,
# the input held open PAUSE seconds after it; WANT: a regex the output must match.
n=0
session() {
	local name=$1 ranks=$2 pause=$3 input=$4 want=$5
	n=$((n + 1))
	local tag="$$-$n" start status elapsed pids
	start=$(date +%s)
	{
		printf "$input"
		sleep "$pause"
	} | CUTOFF_UCI_EOF_TAG=$tag timeout -k 5 30 "$mpiexec" -np "$ranks" --oversubscribe \
		"$cutoff" uci >"$tmp/out" 2>"$tmp/err"
	status=${PIPESTATUS[1]}
	elapsed=$(($(date +%s) - start - pause))
	if [ "$status" -eq 0 ] && grep -Eq "$want" "$tmp/out"; then
		ok "$name, $ranks ranks: exit 0, ${elapsed} s after the end of input"
	else
		fail "$name, $ranks ranks: status $status ${elapsed} s after the end of input (124: still running at 30 s), output: $(tr '\n' '|' <"$tmp/out" | tail -c 300) $(tail -c 300 "$tmp/err")"
	fi
	# mpirun has reaped its ranks when it returns; a few seconds for one that is leaving.
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		pids=$(left "$tag")
		[ -z "$pids" ] && break
		sleep 0.5
	done
	if [ -z "$pids" ]; then
		ok "$name, $ranks ranks: no process left"
	else
		fail "$name, $ranks ranks: processes left: $(ps -o pid=,ppid=,stat=,args= -p "${pids// /,}" | tr '\n' '|'); killed"
		kill -KILL $pids 2>/dev/null
	fi
}

for ranks in 2 3; do
	session "idle end of input" "$ranks" 0 'isready\n' '^readyok$'
	session "end of input during go infinite" "$ranks" 1 'position startpos\ngo infinite\n' '^bestmove '
	session "end of input during go depth 30" "$ranks" 1 'position startpos\ngo depth 30\n' '^bestmove '
	session "end of input just after go infinite" "$ranks" 0 'go infinite\n' '^bestmove '
	session "quit" "$ranks" 0 'isready\nquit\n' '^readyok$'
done

report

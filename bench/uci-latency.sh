#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# uci-latency.sh [BUILD_DIR] [ROUNDS] — how fast `cutoff uci` answers, as a GUI sees it:
#
#   stop      `go infinite`, 150 ms of search, `stop`: the time to `bestmove`
#   isready   the same search, `isready` sent during it: the time to `readyok`
#   go ...    from sending `go` (after `position`, with the engine ready) to `bestmove`,
#             for a fixed movetime and for short clocks, against the time given
#
# for 1 and 2 threads, lazy SMP and YBW (default options otherwise: Hash 16, pruning on,
# Move Overhead 50). Prints the median and the maximum of ROUNDS rounds (default 20) in
# milliseconds. The clock runs from just before the command is written to just after the
# answer is read, in bash (EPOCHREALTIME), so pipes and process scheduling count, as they
# do for a referee; the info lines written before the command are read first, not timed
# (bash reads a pipe a byte at a time), but those written after it are. On a shared machine the maxima are what other processes make of the
# scheduling: they are the figures that decide the Move Overhead.
set -euo pipefail

build="${1:-build}"
rounds="${2:-20}"
cutoff="$build/cutoff"
if [[ ! -x "$cutoff" ]]; then
	echo "uci-latency.sh: $cutoff not found (usage: $0 [BUILD_DIR] [ROUNDS])" >&2
	exit 2
fi
if ! [[ "$rounds" =~ ^[1-9][0-9]{0,3}$ ]]; then
	echo "uci-latency.sh: ROUNDS must be a number in 1..9999, got '$rounds'" >&2
	exit 2
fi


# until PREFIX: reads the engine's lines up to one that starts with PREFIX.
until_line() {
	local l
	while IFS= read -r -t 30 l <&"$from"; do
		[[ $l == "$1"* ]] && return 0
	done
	echo "uci-latency.sh: no '$1' from the engine" >&2
	exit 1
}
# drain: reads what the engine has written so far (the info lines of a running search),
# so that the time of the next answer is not the time to read them.
drain() {
	local l
	while read -r -t 0 <&"$from"; do
		IFS= read -r l <&"$from"
	done
}
# stats LABEL VALUES(us)...: median and maximum in ms.
stats() {
	local label=$1
	shift
	printf '%s\n' "$@" | sort -n | awk -v label="$label" '
		{ v[NR] = $1 }
		END { printf "  %-44s median %6.1f ms   max %6.1f ms\n", label,
		      v[int((NR + 1) / 2)] / 1000, v[NR] / 1000 }'
}

run() { # run LABEL SETOPTION-LINES...
	local label=$1 i t stop_us=() ready_us=()
	shift
	coproc ENGINE { exec "$cutoff" uci; }
	exec {to}>&"${ENGINE[1]}" {from}<&"${ENGINE[0]}"
	printf '%s\n' "$@" isready >&"$to"
	until_line readyok
	echo "$label"
	for ((i = 0; i < rounds; i++)); do
		printf 'position startpos moves e2e4\ngo infinite\n' >&"$to"
		sleep 0.15
		drain
		t=${EPOCHREALTIME/./}
		printf 'isready\n' >&"$to"
		until_line readyok
		ready_us+=($((${EPOCHREALTIME/./} - t)))
		drain
		t=${EPOCHREALTIME/./}
		printf 'stop\n' >&"$to"
		until_line bestmove
		stop_us+=($((${EPOCHREALTIME/./} - t)))
	done
	stats "stop -> bestmove" "${stop_us[@]}"
	stats "isready during a search -> readyok" "${ready_us[@]}"
	for go in "movetime 100" "wtime 100 btime 100 winc 10 binc 10" \
		"wtime 40 btime 40 winc 10 binc 10" "wtime 10 btime 10"; do
		local go_us=()
		for ((i = 0; i < rounds; i++)); do
			printf 'position startpos moves e2e4 e7e5 g1f3\nisready\n' >&"$to"
			until_line readyok
			t=${EPOCHREALTIME/./}
			printf 'go %s\n' "$go" >&"$to"
			until_line bestmove
			go_us+=($((${EPOCHREALTIME/./} - t)))
		done
		stats "go $go -> bestmove" "${go_us[@]}"
	done
	printf 'quit\n' >&"$to"
	wait "$ENGINE_PID" || true
	exec {to}>&- {from}<&-
}

echo "cutoff uci answer times; $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
run "1 thread (lazysmp)"
run "2 threads, lazysmp" "setoption name Threads value 2"
run "2 threads, ybw" "setoption name Threads value 2" "setoption name Algorithm value ybw"

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# perft.sh BUILD_DIR [RUNS] — times `cutoff perft` against Stockfish's `go perft` on the
# same positions and depths, in one run, and prints the nodes per second of each and
# their ratio (median of RUNS runs each, default 3; one thread each).
#
# Stockfish is only a benchmark peer, never a dependency: it is found as $STOCKFISH, as
# `stockfish` on the PATH, or as /usr/games/stockfish (Debian: apt-get install stockfish;
# without root, `apt-get download stockfish && dpkg-deb -x stockfish_*.deb DIR` and
# STOCKFISH=DIR/usr/games/stockfish). Without it only our figures are printed.
#
# How each is timed. Ours: the "time_s" that `cutoff perft --json` reports, which covers
# the counting alone (not the process start or the table set-up). Stockfish's: the wall
# time from sending `go perft D` to reading its "Nodes searched" line, with the engine
# already started and the position set (`isready` answered), so its start-up and network
# loading are not counted either. Both count the last ply in bulk. Nothing else should run
# on the machine meanwhile: on a shared machine the ratio (same run, interleaved) is the
# figure to trust, not the absolute rates.
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 || ! -x "$1/cutoff" ]]; then
	echo "usage: bench/perft.sh BUILD_DIR [RUNS]   (BUILD_DIR/cutoff must exist)" >&2
	exit 2
fi
CUTOFF="$1/cutoff"
RUNS="${2:-3}"
if ! [[ "$RUNS" =~ ^[1-9][0-9]?$ ]]; then
	echo "perft.sh: RUNS must be a number in 1..99, got '$RUNS'" >&2
	exit 2
fi

# name | FEN | depth: the Chess Programming Wiki's perft positions, at depths of about
# 0.1 to 1 s for us.
POSITIONS=(
	"start|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1|6"
	"kiwipete|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|5"
	"position 3|8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1|7"
	"position 4|r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1|6"
	"position 5|rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8|5"
	"position 6|r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10|5"
)

SF="${STOCKFISH:-}"
if [[ -z "$SF" ]]; then
	SF="$(command -v stockfish || true)"
	[[ -z "$SF" && -x /usr/games/stockfish ]] && SF=/usr/games/stockfish
fi
if [[ -n "$SF" && ! -x "$SF" ]]; then
	echo "perft.sh: STOCKFISH=$SF is not an executable; timing cutoff alone" >&2
	SF=""
fi

now_ns() { date +%s%N; }

median() { # numbers on stdin -> their median
	sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2];
		else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# ours FEN DEPTH -> "nodes time_s"
ours() {
	local out
	out="$("$CUTOFF" perft --fen "$1" --depth "$2" --json)"
	local nodes time
	nodes="$(sed -n 's/.*"nodes":\([0-9]*\).*/\1/p' <<<"$out")"
	time="$(sed -n 's/.*"time_s":\([0-9.eE+-]*\).*/\1/p' <<<"$out")"
	echo "$nodes $time"
}

SF_PID=""
cleanup() {
	if [[ -n "$SF_PID" ]]; then
		kill "$SF_PID" 2>/dev/null || true
	fi
}
trap cleanup EXIT

if [[ -n "$SF" ]]; then
	coproc SFPROC { "$SF" 2>&1; }
	SF_PID=$SFPROC_PID
	sf_send() { printf '%s\n' "$*" >&"${SFPROC[1]}"; }
	# Reads until a line starting with $1 and leaves it in SF_LINE. (Not to be called
	# in a subshell: the coprocess's descriptors do not reach subshells.)
	sf_wait() {
		local line
		while IFS= read -r -t 600 line <&"${SFPROC[0]}"; do
			if [[ "$line" == "$1"* ]]; then
				SF_LINE="$line"
				return 0
			fi
		done
		echo "perft.sh: stockfish stopped answering (waiting for '$1')" >&2
		return 1
	}
	sf_send uci
	sf_wait "id name"
	SF_NAME="${SF_LINE#id name }"
	sf_wait uciok
	sf_send "setoption name Threads value 1"
fi

# theirs FEN DEPTH -> THEIRS_NODES, THEIRS_TIME (seconds)
theirs() {
	sf_send "position fen $1"
	sf_send isready
	sf_wait readyok
	local t0 t1
	t0="$(now_ns)"
	sf_send "go perft $2"
	sf_wait "Nodes searched"
	t1="$(now_ns)"
	THEIRS_NODES="${SF_LINE##* }"
	THEIRS_TIME="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", (b - a) / 1e9 }')"
}

echo "cutoff perft against $( [[ -n "$SF" ]] && echo "$SF_NAME ($SF)" || echo "nothing (Stockfish not found: install the stockfish package or set STOCKFISH)" )"
echo "median of $RUNS runs each, one thread, on $(nproc) CPUs ($(uname -m)); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
printf '%-11s %5s %12s %12s %12s %8s\n' position depth nodes "cutoff M/s" "sf M/s" ratio
sum_nodes=0
sum_ours=0
sum_theirs=0
for entry in "${POSITIONS[@]}"; do
	IFS='|' read -r name fen depth <<<"$entry"
	ours_times=""
	theirs_times=""
	nodes=""
	for ((run = 0; run < RUNS; run++)); do
		read -r n t < <(ours "$fen" "$depth")
		nodes="$n"
		ours_times+="$t"$'\n'
		if [[ -n "$SF" ]]; then
			theirs "$fen" "$depth"
			if [[ "$THEIRS_NODES" != "$n" ]]; then
				echo "perft.sh: $name depth $depth: cutoff counts $n, Stockfish" \
					"$THEIRS_NODES" >&2
				exit 1
			fi
			theirs_times+="$THEIRS_TIME"$'\n'
		fi
	done
	ot="$(printf '%s' "$ours_times" | median)"
	ours_mnps="$(awk -v n="$nodes" -v t="$ot" 'BEGIN { printf "%.1f", n / t / 1e6 }')"
	sum_nodes=$((sum_nodes + nodes))
	sum_ours="$(awk -v a="$sum_ours" -v b="$ot" 'BEGIN { print a + b }')"
	if [[ -n "$SF" ]]; then
		tt="$(printf '%s' "$theirs_times" | median)"
		sum_theirs="$(awk -v a="$sum_theirs" -v b="$tt" 'BEGIN { print a + b }')"
		theirs_mnps="$(awk -v n="$nodes" -v t="$tt" 'BEGIN { printf "%.1f", n / t / 1e6 }')"
		ratio="$(awk -v a="$tt" -v b="$ot" 'BEGIN { printf "%.2f", a / b }')"
	else
		theirs_mnps="-"
		ratio="-"
	fi
	printf '%-11s %5s %12s %12s %12s %8s\n' "$name" "$depth" "$nodes" "$ours_mnps" \
		"$theirs_mnps" "$ratio"
done
total_ours="$(awk -v n="$sum_nodes" -v t="$sum_ours" 'BEGIN { printf "%.1f", n / t / 1e6 }')"
if [[ -n "$SF" ]]; then
	total_theirs="$(awk -v n="$sum_nodes" -v t="$sum_theirs" 'BEGIN { printf "%.1f", n / t / 1e6 }')"
	total_ratio="$(awk -v a="$sum_theirs" -v b="$sum_ours" 'BEGIN { printf "%.2f", a / b }')"
else
	total_theirs="-"
	total_ratio="-"
fi
printf '%-11s %5s %12s %12s %12s %8s\n' "all" "" "$sum_nodes" "$total_ours" "$total_theirs" \
	"$total_ratio"
if [[ -n "$SF" ]]; then
	echo
	echo "ratio: Stockfish's time over ours (above 1: cutoff is faster)"
	sf_send quit
fi

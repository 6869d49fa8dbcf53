#!/bin/bash
# SPDX-License-Identifier: MIT
# connect4-lines.sh BUILD_DIR [LINES] [REPEATS] [THREADS] [HASH] — the weak solve of each of
# the first LINES positions of Pons' Test_L1_R3 (the hard set), serially and by every
# parallel driver at THREADS threads, ABDADA in both variants:
#
#   cutoff search --game connect4 --moves M --window -1,1 --algo A --threads T --hash H
#
# (one search to the depth the window needs, on a fresh engine, as the table in issue 13
# was measured). Each configuration runs REPEATS times, interleaved (every configuration
# once, then again), so that a change in the machine's load falls on all of them alike;
# printed per line and configuration: the median time with min..max, the median nodes,
# the speed-up (serial's median time over this one's) and the search overhead (median
# nodes over serial's). Node counts of the parallel drivers vary from run to run.
#
#   LINES     default 10; REPEATS default 3; THREADS default 2; HASH (MiB) default 4
#   C4_CONFIGS  the configurations, blank-separated ALGO[:OPTIONS] with OPTIONS comma-
#               separated NAME=VALUE driver options; default
#               "serial lazysmp ybw abdada:abdada-variant=classic
#                abdada:abdada-variant=simplified"
#
# The data: $CUTOFF_DATA_DIR/connect4, else ../shared/data/connect4 beside the repository.
# Note the load average beside the figures (printed first): the two vCPUs of the machine
# this was written on are shared with other work.
set -euo pipefail

if [ $# -lt 1 ]; then
	echo "usage: $0 BUILD_DIR [LINES] [REPEATS] [THREADS] [HASH]" >&2
	exit 2
fi
cutoff="$1/cutoff"
lines="${2:-10}"
repeats="${3:-3}"
threads="${4:-2}"
hash="${5:-4}"
here=$(cd "$(dirname "$0")" && pwd)
data="${CUTOFF_DATA_DIR:-$here/../../shared/data}/connect4"
configs="${C4_CONFIGS:-serial lazysmp ybw abdada:abdada-variant=classic abdada:abdada-variant=simplified}"
if [ ! -x "$cutoff" ]; then
	echo "connect4-lines.sh: $cutoff not found; build first (make build)" >&2
	exit 1
fi
if [ ! -r "$data/Test_L1_R3" ]; then
	echo "connect4-lines.sh: Test_L1_R3 is not in $data (set CUTOFF_DATA_DIR)" >&2
	exit 1
fi

echo "# $(date -u '+%Y-%m-%d %H:%M:%S') UTC; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $0 $* (threads $threads, hash $hash MiB, $repeats repeats, interleaved)"

# One search: prints "seconds nodes value".
run() {
	local moves=$1 config=$2 algo opts=() t=$threads
	algo=${config%%:*}
	if [ "$config" != "$algo" ]; then
		local IFS=,
		for kv in ${config#*:}; do
			opts+=("--${kv%%=*}" "${kv#*=}")
		done
	fi
	[ "$algo" = serial ] && t=1
	"$cutoff" search --game connect4 --moves "$moves" --window -1,1 --algo "$algo" \
		--threads "$t" --hash "$hash" "${opts[@]}" |
		awk '$1 == "time" { t = $2 } $1 == "nodes" && NF == 2 { n = $2 } $1 == "value" { v = $2 }
		     END { print t, n, v }'
}

# The median of column COL of FILE (the lower middle of an even count).
median() {
	cut -d' ' -f"$1" "$2" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
head -n "$lines" "$data/Test_L1_R3" | while read -r moves score; do
	for ((r = 0; r < repeats; r++)); do
		for c in $configs; do
			run "$moves" "$c" >>"$tmp/$moves.$(echo "$c" | tr ':,=' '___')"
		done
	done
	# The file's score is exact; a weak solve's value is its sign.
	sign=$((score > 0 ? 1 : score < 0 ? -1 : 0))
	serial_t=$(median 1 "$tmp/$moves.serial")
	serial_n=$(median 2 "$tmp/$moves.serial")
	for c in $configs; do
		f="$tmp/$moves.$(echo "$c" | tr ':,=' '___')"
		t=$(median 1 "$f")
		n=$(median 2 "$f")
		lo=$(cut -d' ' -f1 "$f" | sort -g | head -1)
		hi=$(cut -d' ' -f1 "$f" | sort -g | tail -1)
		bad=$(awk -v sign="$sign" '$3 != sign { b++ } END { print b + 0 }' "$f")
		awk -v line="$moves" -v c="$c" -v t="$t" -v n="$n" -v lo="$lo" -v hi="$hi" \
			-v st="$serial_t" -v sn="$serial_n" -v bad="$bad" 'BEGIN {
			printf "%-10s %-34s time %8.3f s (%.3f..%.3f)  nodes %11d  speed-up %5.2f  overhead %5.2f  wrong %d\n",
				line, c, t, lo, hi, n, st / t, n / sn, bad }'
	done
done

#!/bin/bash
# SPDX-License-Identifier: MIT
# scaling.sh BUILD_DIR [THREADS] [REPEATS] — time to depth against thread count, for the
# serial driver, lazy SMP and YBW, on random trees, measured in one run.
#
#   THREADS   comma-separated thread counts; default 1..(number of CPUs)
#   REPEATS   runs of each setting; the report gives the median and the spread (min..max)
#
# Workloads (each the same trees for every driver and thread count):
#   incremental  b=8 d=11 incremental values, iterative deepening, all move ordering,
#                64 MiB table: the shape of a real engine's search
#   iid          b=6 d=10 independent leaf values, natural order, one search at full depth,
#                no table: Knuth and Moore's random tree, nothing to learn
#
# Speed-up is T(serial, 1 thread) / T(driver, n threads), from medians; search overhead is
# nodes at n threads over nodes of the serial search; node rate is nodes per second.
# Prints figures only: a benchmark never decides pass or fail. Thread counts above the
# number of CPUs are allowed and flagged: they measure overhead, not speed-up.
set -euo pipefail

if [ $# -lt 1 ]; then
	echo "usage: $0 BUILD_DIR [THREADS] [REPEATS]" >&2
	exit 2
fi
cutoff="$1/cutoff"
cpus=$(nproc 2>/dev/null || echo 2)
threads="${2:-$(seq -s, 1 "$cpus")}"
repeats="${3:-5}"
if [ ! -x "$cutoff" ]; then
	echo "scaling.sh: $cutoff not found; build first (make build)" >&2
	exit 1
fi

workload_args() {
	case "$1" in
	incremental) echo "--model incremental --branching 8 --depth 11 --trees 4 --iterate --ordering all --hash 64 --no-check" ;;
	iid) echo "--branching 6 --depth 10 --trees 4 --ordering none --hash 0 --no-check" ;;
	esac
}

# json_num KEY: the first number after "KEY": in the JSON on stdin.
json_num() { grep -o "\"$1\":[-0-9.eE+]*" | head -n 1 | cut -d: -f2; }

# median_spread: the median, min and max of the numbers on stdin.
median_spread() { sort -g | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.4f %.4f %.4f\n", m, v[1], v[NR] }'; }

echo "cutoff scaling benchmark — $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine: $cpus CPUs ($(uname -m)); $("$cutoff" topo 2>/dev/null | awk '/^(packages|cores|PUs)/ { printf "%s %s  ", $1, $2 }')"
echo "threads: $threads; repeats: $repeats (median, with min..max)"

for workload in incremental iid; do
	args=$(workload_args "$workload")
	printf '\n== %s: cutoff tree %s\n' "$workload" "$args"
	printf '%-8s %7s %10s %-21s %8s %10s %9s %12s\n' driver threads "time (s)" "  (min..max)" \
		speedup nodes overhead "nodes/s"
	base_time=""
	base_nodes=""
	for driver in serial lazysmp ybw; do
		for n in ${threads//,/ }; do
			[ "$driver" = serial ] && [ "$n" != 1 ] && continue
			times=""
			nodes=""
			rates=""
			for _ in $(seq 1 "$repeats"); do
				# shellcheck disable=SC2086
				out=$("$cutoff" tree $args --algo "$driver/pvs" --threads "$n" --json)
				times="$times $(echo "$out" | json_num time_s)"
				nodes="$nodes $(echo "$out" | json_num nodes_mean)"
				rates="$rates $(echo "$out" | json_num nps)"
			done
			read -r t tmin tmax < <(echo "$times" | tr ' ' '\n' | sed '/^$/d' | median_spread)
			read -r nd _ _ < <(echo "$nodes" | tr ' ' '\n' | sed '/^$/d' | median_spread)
			read -r nps _ _ < <(echo "$rates" | tr ' ' '\n' | sed '/^$/d' | median_spread)
			if [ -z "$base_time" ]; then
				base_time=$t
				base_nodes=$nd
			fi
			flag=""
			[ "$n" -gt "$cpus" ] && flag=" (more threads than CPUs)"
			awk -v d="$driver" -v n="$n" -v t="$t" -v lo="$tmin" -v hi="$tmax" -v bt="$base_time" \
				-v nd="$nd" -v bn="$base_nodes" -v nps="$nps" -v flag="$flag" 'BEGIN {
				printf "%-8s %7d %10.4f   (%.4f..%.4f) %8.2f %10.0f %9.2f %12.0f%s\n",
					d, n, t, lo, hi, bt / t, nd, nd / bn, nps, flag }'
		done
	done
done

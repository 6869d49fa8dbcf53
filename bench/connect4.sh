#!/bin/bash
# SPDX-License-Identifier: MIT
# connect4.sh BUILD_DIR [N] [N_HARD] [HASH] — exact Connect Four solving on Pons' test sets:
# mean time and mean nodes per position, for every set, serially; the two ways of
# narrowing the score (bisection and MTD(f)); and lazy SMP and YBW at 2 threads on the
# sets (C4_PARALLEL_SETS: a blank-separated subset), with their speed-up over serial.
#
#   N        positions per set: the first N lines of each file; default 100
#   N_HARD   positions of Test_L1_R3 (Begin-Hard: seconds to a minute each); default 10
#   HASH     table size in MiB; default 4 (the command's default)
#
# The data: $CUTOFF_DATA_DIR/connect4, else ../shared/data/connect4 beside the repository.
# Every position is solved on a cleared table (as Pons measured his solver); its time is
# the solve alone, not the clearing. Each run is also a check: the mismatches column must
# read 0 (a benchmark never decides pass or fail, so it only prints it). Reference figures
# (Pascal Pons, blog.gamesolver.org, part 12, one thread, table cleared before each
# position): mean positions explored per set, and his time on Test_L1_R2.
set -euo pipefail

if [ $# -lt 1 ]; then
	echo "usage: $0 BUILD_DIR [N] [N_HARD] [HASH]" >&2
	exit 2
fi
cutoff="$1/cutoff"
n="${2:-100}"
n_hard="${3:-10}"
hash="${4:-4}"
here=$(cd "$(dirname "$0")" && pwd)
data="${CUTOFF_DATA_DIR:-$here/../../shared/data}/connect4"
if [ ! -x "$cutoff" ]; then
	echo "connect4.sh: $cutoff not found; build first (make build)" >&2
	exit 1
fi
if [ ! -r "$data/Test_L3_R1" ]; then
	echo "connect4.sh: the test sets are not in $data (set CUTOFF_DATA_DIR)" >&2
	exit 1
fi

sets="Test_L3_R1 Test_L2_R1 Test_L2_R2 Test_L1_R1 Test_L1_R2 Test_L1_R3"
hard="${C4_PARALLEL_SETS:-$sets}"

# Pons' mean positions explored per set (part 12 table), in the order of $sets.
pons_nodes() {
	case "$1" in
	Test_L3_R1) echo 51 ;; Test_L2_R1) echo 450 ;; Test_L2_R2) echo 39900 ;;
	Test_L1_R1) echo 3300 ;; Test_L1_R2) echo 1200000 ;; Test_L1_R3) echo 66000000 ;;
	esac
}

limit_of() { if [ "$1" = Test_L1_R3 ]; then echo "$n_hard"; else echo "$n"; fi; }

# load: the 1-minute load average now (other jobs on the machine make the times noisy).
load() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?'; }

# json_num KEY: the first number after "KEY": in the JSON on stdin.
json_num() { grep -o "\"$1\":[-0-9.eE+]*" | head -n 1 | cut -d: -f2; }

# solve SET ARGS...: runs the set, prints "time nodes searches mismatches nps".
solve() {
	local set=$1
	shift
	local j
	j=$("$cutoff" solve --game connect4 --file "$data/$set" --limit "$(limit_of "$set")" \
		--hash "$hash" --json "$@") || true
	printf '%s %s %s %s %s\n' "$(json_num time_mean_s <<<"$j")" "$(json_num nodes_mean <<<"$j")" \
		"$(json_num searches_mean <<<"$j")" "$(json_num mismatches <<<"$j")" \
		"$(json_num nps <<<"$j")"
}

echo "cutoff Connect Four benchmark — $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine: $(nproc) CPUs ($(uname -m)), load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
echo "positions: the first $n lines of each set ($n_hard of Test_L1_R3); table $hash MiB,"
echo "cleared before each position; ordering tt,hints (the default)"
echo "command: $cutoff solve --game connect4 --file DATA/SET --limit N --hash $hash --json [...]"

declare -A serial_time serial_nodes serial_searches
printf '\n== serial (--algo pvs, --method bisect)\n'
printf '%-11s %6s %11s %12s %9s %10s %12s %13s %6s\n' set lines "time (s)" nodes searches mismatch \
	"nodes/s" "Pons' nodes" load
for set in $sets; do
	read -r t nodes searches mism nps < <(solve "$set")
	serial_time[$set]=$t
	serial_nodes[$set]=$nodes
	serial_searches[$set]=$searches
	printf '%-11s %6s %11.6f %12.0f %9.2f %10s %12.0f %13s %6s\n' "$set" "$(limit_of "$set")" \
		"$t" "$nodes" "$searches" "$mism" "$nps" "$(pons_nodes "$set")" "$(load)"
done

printf '\n== MTD(f) from 0 against bisection (the table above), serial\n'
printf '%-11s %11s %12s %9s %11s %12s %9s %6s\n' set "mtdf (s)" nodes searches "bisect (s)" \
	nodes searches load
for set in $sets; do
	read -r tm nm sm mm _ < <(solve "$set" --method mtdf)
	printf '%-11s %11.6f %12.0f %9.2f %11.6f %12.0f %9.2f %6s%s\n' "$set" "$tm" "$nm" "$sm" \
		"${serial_time[$set]}" "${serial_nodes[$set]}" "${serial_searches[$set]}" "$(load)" \
		"$([ "$mm" = 0 ] || echo "  (mismatches: $mm)")"
done

printf '\n== 2 threads (speed-up: serial time / time)\n'
printf '%-11s %-8s %11s %12s %9s %10s %6s\n' set driver "time (s)" nodes speedup mismatch load
for set in $hard; do
	for driver in lazysmp ybw; do
		read -r t nodes _ mism _ < <(solve "$set" --algo "$driver" --threads 2)
		printf '%-11s %-8s %11.6f %12.0f %9.2f %10s %6s\n' "$set" "$driver" "$t" "$nodes" \
			"$(awk -v s="${serial_time[$set]}" -v t="$t" 'BEGIN { printf "%.2f", (t > 0 ? s / t : 0) }')" \
			"$mism" "$(load)"
	done
done

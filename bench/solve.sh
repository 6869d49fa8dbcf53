#!/bin/bash
# SPDX-License-Identifier: MIT
# solve.sh BUILD_DIR [SEEDS] [CELLS...] — what solving to the end costs (cutoff_limits_t.solve)
# on the random game with passes (`cutoff search --game pgame`), whose lines differ in
# length, so that a caller cannot know the depth in advance.
#
# For every seed 1..SEEDS (default 20) and every size (default 14 16 18 20 cells, 50 % of
# them legal a move), four searches, each on a new engine (PVS, 16 MiB table, every
# ordering heuristic), all serial:
#   depth-L    --solve off --depth L: one search to the longest line L, which the game's
#              oracle computes — the search a caller who knew the depth would run
#   solve      --solve on: one search with no depth (as deep as the engine goes)
#   solve-id   --solve on --iterate on: deepening 1, 2, ... until an iteration meets no
#              horizon (the "anytime" form, with a value at every depth)
#   id-to-end  --solve off --iterate on --depth L+8: deepening past the end as it was
#              before the solve mode (nothing stops it but the depth)
# and prints, per size, the median (min..max) over the seeds of each one's nodes as a
# ratio to depth-L, and whether every value equalled the oracle's (mismatches, which must
# read 0; a benchmark only prints it). Node counts, not times: they do not depend on the
# machine's load.
set -euo pipefail

if [ $# -lt 1 ]; then
	echo "usage: $0 BUILD_DIR [SEEDS] [CELLS...]" >&2
	exit 2
fi
cutoff="$1/cutoff"
seeds="${2:-20}"
shift $(($# >= 2 ? 2 : 1))
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(14 16 18 20)
if [ ! -x "$cutoff" ]; then
	echo "solve.sh: $cutoff not found; build first (make build)" >&2
	exit 2
fi
command -v python3 >/dev/null || { echo "solve.sh: python3 not found" >&2; exit 2; }

echo "# solve.sh: $(date -u +%Y-%m-%dT%H:%M:%SZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $cutoff search --game pgame --cells C --seed S ...; nodes as ratios to depth-L"
printf '%-6s %-6s %-22s %-22s %-22s %s\n' cells seeds solve solve-id id-to-end mismatches
for cells in "${sizes[@]}"; do
	rows=()
	for ((seed = 1; seed <= seeds; seed++)); do
		base=("$cutoff" search --game pgame --cells "$cells" --seed "$seed" --json)
		solve=$("${base[@]}")
		length=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["longest_line"])' <<<"$solve")
		one=$("${base[@]}" --solve off --depth "$length")
		id=$("${base[@]}" --iterate on)
		past=$("${base[@]}" --solve off --iterate on --depth $((length + 8)))
		rows+=("$(python3 -c '
import json, sys
r = [json.loads(x) for x in sys.argv[1:]]
bad = sum(1 for x in r if x["value"] != r[0]["oracle_value"])
print(r[1]["nodes"], r[0]["nodes"], r[2]["nodes"], r[3]["nodes"], bad)' "$solve" "$one" "$id" "$past")")
	done
	printf '%s\n' "${rows[@]}" | python3 -c '
import sys, statistics
rows = [list(map(int, l.split())) for l in sys.stdin if l.strip()]
def col(i):
    x = [r[i] / r[0] for r in rows]
    return "%.3f (%.3f..%.3f)" % (statistics.median(x), min(x), max(x))
print("%-6s %-6d %-22s %-22s %-22s %d" % (sys.argv[1], len(rows), col(1), col(2), col(3),
      sum(r[4] for r in rows)))' "$cells"
done
